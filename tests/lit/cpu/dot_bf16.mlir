// bfloat16 products read their operands as stored (the runtime's bfloat16
// GEMM widens them while packing; no converted copies): plain, transposed,
// batched, into bfloat16 or float, and a vector product (a GEMV on widened
// copies).  The runtime call is checked in the IR; results against the
// interpreter (float accumulation: float results within 1e-5 absolute on
// sums of order one, bfloat16 results within one ULP).
// RUN: rm -rf %t && xlac run --backend=cpu --random-inputs --xla_dump_to=%t --split-input-file %s > /dev/null
// RUN: cat %t/module_0000.*ir-no-opt.ll | FileCheck %s --check-prefix=IR0
// RUN: cat %t/module_0001.*ir-no-opt.ll | FileCheck %s --check-prefix=IR1
// IR0: call void @xlacrt_gemm_bf16(
// IR1: call void @xlacrt_gemm_bf16_batched(
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s
// The same on the emulated AMX tiles (what AMX hosts run natively: pairs
// of exact products summed in f32, within the same bounds), which
// bfloat16 products use only while denormals are flushed, as the tile
// instructions flush them.
// RUN: XLAC_GEMM_ISA=amx-emulated xlac compare --flush-denormals --random-inputs --split-input-file %s | FileCheck %s
// And on AVX-512 BF16's vdpbf16ps (the tiles' pairs and denormal rules),
// where the host has it; elsewhere the name leaves the best family, and
// test_runtime_amx says the family was skipped.
// RUN: XLAC_GEMM_ISA=avx512bf16 xlac compare --flush-denormals --random-inputs --split-input-file %s | FileCheck %s
// CHECK: result[0]: bf16, {{.*}} max {{[01]}} ULP
// CHECK: result[0]: f32, max abs error {{(0|[0-9.]+e-0[6-9])}},
// CHECK: result[0]: bf16, {{.*}} max {{[01]}} ULP
// CHECK: result[0]: f32, max abs error {{(0|[0-9.]+e-0[6-9])}},

func.func @main(%a: tensor<40x100xbf16>, %b: tensor<100x33xbf16>) -> tensor<40x33xbf16> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<40x100xbf16>, tensor<100x33xbf16>) -> tensor<40x33xbf16>
  return %d : tensor<40x33xbf16>
}

// -----

func.func @main(%a: tensor<6x17x50xbf16>, %b: tensor<6x23x50xbf16>) -> tensor<6x17x23xf32> {
  %d = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<6x17x50xbf16>, tensor<6x23x50xbf16>) -> tensor<6x17x23xf32>
  return %d : tensor<6x17x23xf32>
}

// -----

func.func @main(%a: tensor<64x20xbf16>, %b: tensor<64x48xbf16>) -> tensor<20x48xbf16> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<64x20xbf16>, tensor<64x48xbf16>) -> tensor<20x48xbf16>
  return %d : tensor<20x48xbf16>
}

// -----

func.func @main(%a: tensor<1x300xbf16>, %b: tensor<300x70xbf16>) -> tensor<1x70xf32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x300xbf16>, tensor<300x70xbf16>) -> tensor<1x70xf32>
  return %d : tensor<1x70xf32>
}
