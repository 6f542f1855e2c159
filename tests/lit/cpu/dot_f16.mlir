// half products read their operands as stored (the runtime's 16-bit GEMM
// widens them while packing; no converted copies): plain, transposed,
// batched, into half or float, and a vector product (a GEMV on widened
// copies).  The runtime call is checked in the IR; results against the
// interpreter (float accumulation: float results within 1e-5 absolute on
// sums of order one, half results within one ULP).
// RUN: rm -rf %t && xlac run --backend=cpu --random-inputs --xla_dump_to=%t --split-input-file %s > /dev/null
// RUN: cat %t/module_0000.*ir-no-opt.ll | FileCheck %s --check-prefix=IR0
// RUN: cat %t/module_0001.*ir-no-opt.ll | FileCheck %s --check-prefix=IR1
// IR0: call void @xlacrt_gemm_f16(
// IR1: call void @xlacrt_gemm_f16_batched(
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s
// CHECK: result[0]: f16, {{.*}} max {{[01]}} ULP
// CHECK: result[0]: f32, max abs error {{(0|[0-9.]+e-0[6-9])}},
// CHECK: result[0]: f16, {{.*}} max {{[01]}} ULP
// CHECK: result[0]: f32, max abs error {{(0|[0-9.]+e-0[6-9])}},

func.func @main(%a: tensor<40x100xf16>, %b: tensor<100x33xf16>) -> tensor<40x33xf16> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<40x100xf16>, tensor<100x33xf16>) -> tensor<40x33xf16>
  return %d : tensor<40x33xf16>
}

// -----

func.func @main(%a: tensor<6x17x50xf16>, %b: tensor<6x23x50xf16>) -> tensor<6x17x23xf32> {
  %d = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<6x17x50xf16>, tensor<6x23x50xf16>) -> tensor<6x17x23xf32>
  return %d : tensor<6x17x23xf32>
}

// -----

func.func @main(%a: tensor<64x20xf16>, %b: tensor<64x48xf16>) -> tensor<20x48xf16> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<64x20xf16>, tensor<64x48xf16>) -> tensor<20x48xf16>
  return %d : tensor<20x48xf16>
}

// -----

func.func @main(%a: tensor<1x300xf16>, %b: tensor<300x70xf16>) -> tensor<1x70xf32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x300xf16>, tensor<300x70xf16>) -> tensor<1x70xf32>
  return %d : tensor<1x70xf32>
}
