// RUN: xlac run --split-input-file %s
// Convolutions with batch_group_count > 1 (the weight gradient of a
// convolution): output feature group j convolves input batch slice j with
// kernel feature slice j.  Each case is checked against the same product
// spelled as separate convolutions of the slices, concatenated along the
// output features; small integers in floats keep every sum exact.

func.func @nhwc_two_groups() {
  %i = stablehlo.iota dim = 0 : tensor<4x5x5x3xf32>
  %j = stablehlo.iota dim = 1 : tensor<4x5x5x3xf32>
  %k = stablehlo.iota dim = 3 : tensor<4x5x5x3xf32>
  %t0 = stablehlo.add %i, %j : tensor<4x5x5x3xf32>
  %t1 = stablehlo.multiply %t0, %k : tensor<4x5x5x3xf32>
  %c3 = stablehlo.constant dense<3.0> : tensor<4x5x5x3xf32>
  %x0 = stablehlo.subtract %t1, %c3 : tensor<4x5x5x3xf32>
  %wi = stablehlo.iota dim = 3 : tensor<2x2x3x6xf32>
  %wj = stablehlo.iota dim = 0 : tensor<2x2x3x6xf32>
  %wk = stablehlo.iota dim = 2 : tensor<2x2x3x6xf32>
  %w1 = stablehlo.subtract %wi, %wj : tensor<2x2x3x6xf32>
  %w0 = stablehlo.subtract %w1, %wk : tensor<2x2x3x6xf32>
  %x, %w = stablehlo.optimization_barrier %x0, %w0 : tensor<4x5x5x3xf32>, tensor<2x2x3x6xf32>
  %c = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, 0], [0, 1]]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x5x5x3xf32>, tensor<2x2x3x6xf32>) -> tensor<2x3x5x6xf32>
  %xa = stablehlo.slice %x [0:2, 0:5, 0:5, 0:3] : (tensor<4x5x5x3xf32>) -> tensor<2x5x5x3xf32>
  %xb = stablehlo.slice %x [2:4, 0:5, 0:5, 0:3] : (tensor<4x5x5x3xf32>) -> tensor<2x5x5x3xf32>
  %wa = stablehlo.slice %w [0:2, 0:2, 0:3, 0:3] : (tensor<2x2x3x6xf32>) -> tensor<2x2x3x3xf32>
  %wb = stablehlo.slice %w [0:2, 0:2, 0:3, 3:6] : (tensor<2x2x3x6xf32>) -> tensor<2x2x3x3xf32>
  %ca = stablehlo.convolution(%xa, %wa) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, 0], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x5x3xf32>, tensor<2x2x3x3xf32>) -> tensor<2x3x5x3xf32>
  %cb = stablehlo.convolution(%xb, %wb) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, 0], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x5x3xf32>, tensor<2x2x3x3xf32>) -> tensor<2x3x5x3xf32>
  %want = stablehlo.concatenate %ca, %cb, dim = 3 : (tensor<2x3x5x3xf32>, tensor<2x3x5x3xf32>) -> tensor<2x3x5x6xf32>
  check.expect_eq %c, %want : tensor<2x3x5x6xf32>
  func.return
}

// -----

// The weight-gradient layout JAX produces: features lead the input, batch
// groups equal to the batch (each output feature sees one example), f64.
func.func @wgrad_layout_f64() {
  %x0 = stablehlo.constant dense<[[[1.0, 2.0, -1.0, 0.0]], [[3.0, -2.0, 1.0, 1.0]], [[0.0, 1.0, 2.0, -3.0]]]> : tensor<3x1x4xf64>
  %w0 = stablehlo.constant dense<[[[1.0, -1.0, 2.0, 0.0, 1.0, 1.0]], [[2.0, 1.0, 0.0, -1.0, 1.0, 3.0]]]> : tensor<2x1x6xf64>
  %x, %w = stablehlo.optimization_barrier %x0, %w0 : tensor<3x1x4xf64>, tensor<2x1x6xf64>
  // input [b=3, f=1, w=4], kernel [w=2, i=1, o=6], output [b=1, w=3, f=6]
  %c = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[0, i, o]->[b, 0, f], window = {stride = [1]} {batch_group_count = 3 : i64, feature_group_count = 1 : i64} : (tensor<3x1x4xf64>, tensor<2x1x6xf64>) -> tensor<1x3x6xf64>
  // output feature o uses example o / 2 and kernel column o:
  //   o = 0: x0 = [1, 2, -1, 0], k = [1, 2]: [5, 0, -1]
  //   o = 1: x0, k = [-1, 1]: [1, -3, 1]
  //   o = 2: x1 = [3, -2, 1, 1], k = [2, 0]: [6, -4, 2]
  //   o = 3: x1, k = [0, -1]: [2, -1, -1]
  //   o = 4: x2 = [0, 1, 2, -3], k = [1, 1]: [1, 3, -1]
  //   o = 5: x2, k = [1, 3]: [3, 7, -7]
  check.expect_eq_const %c, dense<[[[5.0, 1.0, 6.0, 2.0, 1.0, 3.0], [0.0, -3.0, -4.0, -1.0, 3.0, 7.0], [-1.0, 1.0, 2.0, -1.0, -1.0, -7.0]]]> : tensor<1x3x6xf64>
  func.return
}
