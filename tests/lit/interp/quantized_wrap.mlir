// RUN: xlac run --split-input-file %s

// Ops on quantized tensors run as dequantize -> op -> quantize.
func.func @quantized_add() {
  %a = stablehlo.constant dense<[10, 20, -30]> : tensor<3xi8>
  %b = stablehlo.constant dense<[5, 5, 100]> : tensor<3xi8>
  %qa = stablehlo.bitcast_convert %a : (tensor<3xi8>) -> tensor<3x!quant.uniform<i8:f32, 0.1>>
  %qb = stablehlo.bitcast_convert %b : (tensor<3xi8>) -> tensor<3x!quant.uniform<i8:f32, 0.1>>
  %r = stablehlo.add %qa, %qb : tensor<3x!quant.uniform<i8:f32, 0.1>>
  %s = stablehlo.bitcast_convert %r : (tensor<3x!quant.uniform<i8:f32, 0.1>>) -> tensor<3xi8>
  check.expect_eq_const %s, dense<[15, 25, 70]> : tensor<3xi8>
  func.return
}

// -----

// The result's scale and zero point decide the stored integers; results
// outside the storage range clamp.
func.func @quantized_multiply_requantizes() {
  %a = stablehlo.constant dense<[4.0, 12.0]> : tensor<2xf32>
  %qa = stablehlo.uniform_quantize %a : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:2>>
  %r = stablehlo.multiply %qa, %qa : (tensor<2x!quant.uniform<i8:f32, 0.5:2>>, tensor<2x!quant.uniform<i8:f32, 0.5:2>>) -> tensor<2x!quant.uniform<i8:f32, 1.0:-10>>
  %d = stablehlo.uniform_dequantize %r : (tensor<2x!quant.uniform<i8:f32, 1.0:-10>>) -> tensor<2xf32>
  check.expect_almost_eq_const %d, dense<[16.0, 137.0]> : tensor<2xf32>
  func.return
}
