// int8 products with 32-bit sums go to the runtime's int8 GEMM (AMX tiles,
// AVX-512 VNNI or portable C, whichever the host has; the int8 kernel
// family is on the paths line): plain, transposed operands, batched, k
// not a multiple of a tile step, and with an epilogue fused (a kOutput
// fusion: scaled to f32); a product with a vector stays a loop nest.  The runtime calls are checked in the IR; results against the
// interpreter, which they must match exactly (integer sums).  The same products run again on each
// other family: the portable one, and the emulated AMX tiles
// (XLAC_GEMM_ISA), so every host runs each kernel's code.
// RUN: rm -rf %t && xlac run --backend=cpu --random-inputs --xla_dump_to=%t --split-input-file %s > /dev/null
// RUN: cat %t/module_0000.*ir-no-opt.ll | FileCheck %s --check-prefix=IR0
// RUN: cat %t/module_0003.*ir-no-opt.ll | FileCheck %s --check-prefix=IR3
// IR0: call void @xlacrt_gemm_s8(
// IR3: call void @xlacrt_gemm_s8_batched(
// RUN: cat %t/module_0004.*ir-no-opt.ll | FileCheck %s --check-prefix=IR4
// IR4-NOT: xlacrt_gemm_s8
// RUN: cat %t/module_0006.*ir-no-opt.ll | FileCheck %s --check-prefix=IR6
// IR6: call void @xlacrt_gemm_s8(
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s
// RUN: XLAC_GEMM_ISA=c xlac compare --random-inputs --split-input-file %s | FileCheck %s
// RUN: XLAC_GEMM_ISA=amx-emulated xlac compare --random-inputs --split-input-file %s | FileCheck %s
// CHECK: result[0]: i32, identical
// CHECK: result[0]: i32, identical
// CHECK: result[0]: i32, identical
// CHECK: result[0]: i32, identical
// CHECK: result[0]: i32, identical
// CHECK: result[0]: i32, identical
// CHECK: result[0]: f32, {{.*}} 0 of 16384 elements differ

func.func @main(%a: tensor<40x100xi8>, %b: tensor<100x33xi8>) -> tensor<40x33xi32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<40x100xi8>, tensor<100x33xi8>) -> tensor<40x33xi32>
  return %d : tensor<40x33xi32>
}

// -----

func.func @main(%a: tensor<129x70xi8>, %b: tensor<65x129xi8>) -> tensor<70x65xi32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : (tensor<129x70xi8>, tensor<65x129xi8>) -> tensor<70x65xi32>
  return %d : tensor<70x65xi32>
}

// -----

func.func @main(%a: tensor<17x300xi8>, %b: tensor<48x300xi8>) -> tensor<17x48xi32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<17x300xi8>, tensor<48x300xi8>) -> tensor<17x48xi32>
  return %d : tensor<17x48xi32>
}

// -----

func.func @main(%a: tensor<5x33x70xi8>, %b: tensor<5x70x20xi8>) -> tensor<5x33x20xi32> {
  %d = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<5x33x70xi8>, tensor<5x70x20xi8>) -> tensor<5x33x20xi32>
  return %d : tensor<5x33x20xi32>
}

// -----

func.func @main(%a: tensor<1x3000xi8>, %b: tensor<3000x40xi8>) -> tensor<1x40xi32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x3000xi8>, tensor<3000x40xi8>) -> tensor<1x40xi32>
  return %d : tensor<1x40xi32>
}

// -----

func.func @main(%a: tensor<300x257xi8>, %b: tensor<257x200xi8>) -> tensor<300x200xi32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<300x257xi8>, tensor<257x200xi8>) -> tensor<300x200xi32>
  return %d : tensor<300x200xi32>
}

// -----

func.func @main(%a: tensor<128x512xi8>, %b: tensor<512x128xi8>, %s: tensor<128xf32>) -> tensor<128x128xf32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<128x512xi8>, tensor<512x128xi8>) -> tensor<128x128xi32>
  %f = stablehlo.convert %d : (tensor<128x128xi32>) -> tensor<128x128xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<128xf32>) -> tensor<128x128xf32>
  %r = stablehlo.multiply %f, %sb : tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
