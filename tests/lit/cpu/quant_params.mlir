// Quantized parameters and results: the compiled program views them as
// their storage integers at the boundary and agrees exactly with the
// interpreter on random inputs.
// RUN: xlac compare --random-inputs --seed 7 %s | FileCheck %s
// RUN: xlac run --backend=cpu --verbose --random-inputs %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// CHECK: result[0]: i8, identical
// CHECK: result[1]: f32, max abs error 0,
// CHECK: result[2]: ui8, identical
// STATS: 0 through the interpreter
func.func @main(%q: tensor<64x!quant.uniform<i8:f32, 0.5:1>>, %w: tensor<64x3x!quant.uniform<u8:f32:1, {0.1:128, 0.2:120, 0.05:100}>>)
    -> (tensor<64x!quant.uniform<i8:f32, 0.5:1>>, tensor<64xf32>, tensor<64x3x!quant.uniform<u8:f32:1, {0.2:128, 0.4:120, 0.1:100}>>) {
  %r = stablehlo.multiply %q, %q : tensor<64x!quant.uniform<i8:f32, 0.5:1>>
  %f = stablehlo.uniform_dequantize %q : (tensor<64x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<64xf32>
  %n = stablehlo.negate %w : (tensor<64x3x!quant.uniform<u8:f32:1, {0.1:128, 0.2:120, 0.05:100}>>) -> tensor<64x3x!quant.uniform<u8:f32:1, {0.2:128, 0.4:120, 0.1:100}>>
  return %r, %f, %n : tensor<64x!quant.uniform<i8:f32, 0.5:1>>, tensor<64xf32>, tensor<64x3x!quant.uniform<u8:f32:1, {0.2:128, 0.4:120, 0.1:100}>>
}
