// RUN: xlac run --split-input-file %s
// Expected values computed with numpy from the spec's formulas.

func.func @batch_norm_training_feature_1() {
  %x = stablehlo.constant dense<[[[1.0, 2.0], [5.0, -1.0], [0.0, 0.0]], [[3.0, 0.0], [2.0, 2.0], [1.0, -4.0]]]> : tensor<2x3x2xf32>
  %scale = stablehlo.constant dense<[1.0, 2.0, 0.5]> : tensor<3xf32>
  %offset = stablehlo.constant dense<[0.0, 1.0, -1.0]> : tensor<3xf32>
  %out, %mean, %var = "stablehlo.batch_norm_training"(%x, %scale, %offset) {epsilon = 0.5 : f32, feature_index = 1 : i64}
      : (tensor<2x3x2xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x2xf32>, tensor<3xf32>, tensor<3xf32>)
  check.expect_almost_eq_const %mean, dense<[1.5, 2.0, -0.75]> : tensor<3xf32>
  check.expect_almost_eq_const %var, dense<[1.25, 4.5, 3.6875]> : tensor<3xf32>
  check.expect_almost_eq_const %out, dense<[[[-0.37796447, 0.37796447], [3.68328157, -1.68328157], [-0.81674583, -0.81674583]],
                                            [[1.13389342, -1.13389342], [1.0, 1.0], [-0.57240694, -1.79410139]]]> : tensor<2x3x2xf32>
  func.return
}

// -----

func.func @batch_norm_inference_spec_example() {
  %x = stablehlo.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [1.0, 2.0]]]> : tensor<2x2x2xf64>
  %ones = stablehlo.constant dense<1.0> : tensor<2xf64>
  %mean = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf64>
  %r = "stablehlo.batch_norm_inference"(%x, %ones, %ones, %mean, %ones) {epsilon = 0.0 : f32, feature_index = 2 : i64}
      : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>) -> tensor<2x2x2xf64>
  check.expect_almost_eq_const %r, dense<[[[0.0, 0.0], [2.0, 2.0]], [[2.0, 2.0], [0.0, 0.0]]]> : tensor<2x2x2xf64>
  func.return
}

// -----

func.func @batch_norm_inference_zero_variance_bf16() {
  %x = stablehlo.constant dense<[[1.0], [2.0]]> : tensor<2x1xbf16>
  %s = stablehlo.constant dense<[1.0]> : tensor<1xbf16>
  %z = stablehlo.constant dense<[0.0]> : tensor<1xbf16>
  %m = stablehlo.constant dense<[1.0]> : tensor<1xbf16>
  %r = "stablehlo.batch_norm_inference"(%x, %s, %z, %m, %z) {epsilon = 0.0 : f32, feature_index = 1 : i64}
      : (tensor<2x1xbf16>, tensor<1xbf16>, tensor<1xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<2x1xbf16>
  // (x - mean) / sqrt(0): 0/0 = NaN, 1/0 = inf
  check.expect_eq_const %r, dense<[[0x7FC0], [0x7F80]]> : tensor<2x1xbf16>
  func.return
}

// -----

func.func @batch_norm_grad_feature_1() {
  %x = stablehlo.constant dense<[[[1.0, 2.0], [5.0, -1.0], [0.0, 0.0]], [[3.0, 0.0], [2.0, 2.0], [1.0, -4.0]]]> : tensor<2x3x2xf64>
  %scale = stablehlo.constant dense<[1.0, 2.0, 0.5]> : tensor<3xf64>
  %mean = stablehlo.constant dense<[1.0, 2.0, 0.0]> : tensor<3xf64>
  %var = stablehlo.constant dense<[1.0, 4.0, 2.0]> : tensor<3xf64>
  %g = stablehlo.constant dense<[[[0.1, 0.2], [0.3, -0.1], [1.0, 0.0]], [[0.0, 0.5], [-0.2, 0.2], [0.4, 0.1]]]> : tensor<2x3x2xf64>
  %gx, %gs, %go = "stablehlo.batch_norm_grad"(%x, %scale, %mean, %var, %g) {epsilon = 0.5 : f32, feature_index = 1 : i64}
      : (tensor<2x3x2xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<2x3x2xf64>) -> (tensor<2x3x2xf64>, tensor<3xf64>, tensor<3xf64>)
  check.expect_almost_eq_const %gx, dense<[[[-0.0816496581, 0.0408248290], [0.0471404521, 0.0471404521], [0.1976423538, -0.1185854123]],
                                           [[-0.0816496581, 0.2041241452], [-0.2357022604, 0.1414213562], [0.0079056942, -0.0869626357]]]> : tensor<2x3x2xf64>
  check.expect_almost_eq_const %gs, dense<[-0.2449489743, 0.5656854249, 0.0]> : tensor<3xf64>
  check.expect_almost_eq_const %go, dense<[0.8, 0.2, 1.5]> : tensor<3xf64>
  func.return
}
