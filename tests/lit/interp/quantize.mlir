// RUN: xlac run --split-input-file %s

// Per-tensor: round half to even, then clamp to the storage range.
func.func @uniform_quantize_per_tensor_rounding_and_clamp() {
  %x = stablehlo.constant dense<[0.25, 0.75, -0.25, 100.0, -100.0, 1.0]> : tensor<6xf32>
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<6xf32>) -> tensor<6x!quant.uniform<i8:f32, 0.5:1>>
  %s = "stablehlo.bitcast_convert"(%q) : (tensor<6x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<6xi8>
  // x / 0.5 + 1 = [1.5, 2.5, 0.5, 201, -199, 3] -> [2, 2, 0, 127, -128, 3]
  check.expect_eq_const %s, dense<[2, 2, 0, 127, -128, 3]> : tensor<6xi8>
  %d = "stablehlo.uniform_dequantize"(%q) : (tensor<6x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<6xf32>
  check.expect_almost_eq_const %d, dense<[0.5, 0.5, -0.5, 63.0, -64.5, 1.0]> : tensor<6xf32>
  func.return
}

// -----

// A narrower storage range than the storage type allows.
func.func @uniform_quantize_storage_range() {
  %x = stablehlo.constant dense<[-10.0, 0.0, 10.0]> : tensor<3xf32>
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<3xf32>) -> tensor<3x!quant.uniform<i8<-7:7>:f32, 1.0>>
  %s = "stablehlo.bitcast_convert"(%q) : (tensor<3x!quant.uniform<i8<-7:7>:f32, 1.0>>) -> tensor<3xi8>
  check.expect_eq_const %s, dense<[-7, 0, 7]> : tensor<3xi8>
  func.return
}

// -----

// Per-axis along dimension 1 of a 2x2 tensor.
func.func @uniform_quantize_per_axis_dim1() {
  %x = stablehlo.constant dense<[[1.0, 1.0], [2.0, -2.0]]> : tensor<2x2xf32>
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<ui8:f32:1, {0.5:10, 0.25:128}>>
  %s = "stablehlo.bitcast_convert"(%q) : (tensor<2x2x!quant.uniform<ui8:f32:1, {0.5:10, 0.25:128}>>) -> tensor<2x2xui8>
  check.expect_eq_const %s, dense<[[12, 132], [14, 120]]> : tensor<2x2xui8>
  %d = "stablehlo.uniform_dequantize"(%q) : (tensor<2x2x!quant.uniform<ui8:f32:1, {0.5:10, 0.25:128}>>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %d, dense<[[1.0, 1.0], [2.0, -2.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// Requantization goes through the expressed type.
func.func @uniform_requantize_per_tensor_to_per_axis() {
  %x = stablehlo.constant dense<[3.0, -1.5]> : tensor<2xf32>
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i16:f32, 0.5:0>>
  %r = "stablehlo.uniform_quantize"(%q) : (tensor<2x!quant.uniform<i16:f32, 0.5:0>>) -> tensor<2x!quant.uniform<i8:f32:0, {0.25:-1, 1.5:3}>>
  %s = "stablehlo.bitcast_convert"(%r) : (tensor<2x!quant.uniform<i8:f32:0, {0.25:-1, 1.5:3}>>) -> tensor<2xi8>
  // 3.0 / 0.25 - 1 = 11; -1.5 / 1.5 + 3 = 2
  check.expect_eq_const %s, dense<[11, 2]> : tensor<2xi8>
  func.return
}
