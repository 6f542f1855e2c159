// Ops on quantized tensors are lowered to integer and float ops (the
// quant-lower pass), so the cpu backend compiles all of them; results are
// the interpreter's dequantize -> op -> quantize, bit for bit.
// RUN: xlac run %s | FileCheck %s
// RUN: xlac opt --pipeline=cpu %s | FileCheck %s --check-prefix=OPT
// RUN: xlac run --backend=cpu --verbose %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// CHECK: result[0]: tensor<2x3xi8> = {{\[\[}}3, -2, 10], [127, -128, 2]]
// CHECK: result[1]: tensor<2x2xi8> = {{\[\[}}-5, 5], [17, -73]]
// CHECK: result[2]: tensor<4xui8> = [118, 128, 0, 255]
// CHECK: result[3]: tensor<2x3xf32> = {{\[\[}}0.5, -1.5, 3], [65, -62.5, 0]]

// No quantized type is left anywhere once the constants are folded.
// OPT-NOT: quant.uniform
// OPT: func.func @main
// OPT-NOT: quant.uniform

// STATS: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 0 through the interpreter

// x quantizes to [[-2, -6, 3], [127 (clamped from 197), -128, -3]];
// per-axis weights use scale 0.125 for column 0 and 0.25 (zero point 1)
// for column 1; NaN quantizes to 0 and 1000 clamps to 255.
func.func @main() -> (tensor<2x3xi8>, tensor<2x2xi8>, tensor<4xui8>, tensor<2x3xf32>) {
  %x = stablehlo.constant dense<[[0.5, -1.25, 3.0], [100.0, -100.0, 0.0]]> : tensor<2x3xf32>
  %w = stablehlo.constant dense<[[1.0, -2.0], [0.5, 0.25], [-3.0, 4.0]]> : tensor<3x2xf32>
  %qx = stablehlo.uniform_quantize %x : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>
  %qw = stablehlo.uniform_quantize %w : (tensor<3x2xf32>) -> tensor<3x2x!quant.uniform<i8:f32:1, {0.125:0, 0.25:1}>>
  %qs = stablehlo.add %qx, %qx : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>, tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.75:2>>
  %qd = stablehlo.dot_general %qx, %qw, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>, tensor<3x2x!quant.uniform<i8:f32:1, {0.125:0, 0.25:1}>>) -> tensor<2x2x!quant.uniform<i8:f32, 2.0:0>>
  %qt = stablehlo.transpose %qx, dims = [1, 0] : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.5:-3>>
  %v = stablehlo.constant dense<[-1.0, 0.0, 0x7FC00000, 1000.0]> : tensor<4xf32>
  %qv = stablehlo.uniform_quantize %v : (tensor<4xf32>) -> tensor<4x!quant.uniform<u8:f32, 0.1:128>>
  %s = stablehlo.bitcast_convert %qs : (tensor<2x3x!quant.uniform<i8:f32, 0.75:2>>) -> tensor<2x3xi8>
  %d = stablehlo.bitcast_convert %qd : (tensor<2x2x!quant.uniform<i8:f32, 2.0:0>>) -> tensor<2x2xi8>
  %u = stablehlo.bitcast_convert %qv : (tensor<4x!quant.uniform<u8:f32, 0.1:128>>) -> tensor<4xui8>
  %tt = stablehlo.transpose %qt, dims = [1, 0] : (tensor<3x2x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>
  %f = stablehlo.uniform_dequantize %tt : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x3xf32>
  return %s, %d, %u, %f : tensor<2x3xi8>, tensor<2x2xi8>, tensor<4xui8>, tensor<2x3xf32>
}
