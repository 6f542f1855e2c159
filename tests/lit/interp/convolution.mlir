// RUN: xlac run --split-input-file %s
// Expected values of the first two cases were produced with
// jax.lax.conv_general_dilated on the same inputs.

// NCHW x OIHW -> NCHW, strides, negative and positive padding, both
// dilations and two feature groups.
func.func @convolution_nchw_groups_dilations() {
  %x = stablehlo.constant dense<[[[[-2, -1, 0, 1], [2, 3, -3, -2], [-1, 0, 1, 2]],
                                  [[3, -3, -2, -1], [0, 1, 2, 3], [-3, -2, -1, 0]],
                                  [[1, 2, 3, -3], [-2, -1, 0, 1], [2, 3, -3, -2]],
                                  [[-1, 0, 1, 2], [3, -3, -2, -1], [0, 1, 2, 3]]]]> : tensor<1x4x3x4xf32>
  %w = stablehlo.constant dense<[[[[-1, 0], [1, 2]], [[-2, -1], [0, 1]]],
                                 [[[2, -2], [-1, 0]], [[1, 2], [-2, -1]]],
                                 [[[0, 1], [2, -2]], [[-1, 0], [1, 2]]],
                                 [[[-2, -1], [0, 1]], [[2, -2], [-1, 0]]]]> : tensor<4x2x2x2xf32>
  %r = "stablehlo.convolution"(%x, %w) {
    window_strides = array<i64: 2, 1>,
    padding = dense<[[1, -1], [0, 2]]> : tensor<2x2xi64>,
    lhs_dilation = array<i64: 1, 2>,
    rhs_dilation = array<i64: 2, 1>,
    window_reversal = array<i1: false, false>,
    dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>,
    feature_group_count = 2 : i64,
    batch_group_count = 1 : i64,
    precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
  } : (tensor<1x4x3x4xf32>, tensor<4x2x2x2xf32>) -> tensor<1x4x1x8xf32>
  check.expect_almost_eq_const %r, dense<[[[[2, 7, 3, -4, -3, -1, -2, 0]],
                                           [[-2, -1, -5, -2, -1, -3, -4, 0]],
                                           [[-1, -4, -5, -4, -2, -4, 1, 0]],
                                           [[-3, -1, 3, 0, 2, 1, 1, 0]]]]> : tensor<1x4x1x8xf32>
  func.return
}

// -----

// 1-D NWC x WIO -> NWC with batch_group_count = 2.
func.func @convolution_batch_groups() {
  %x = stablehlo.constant dense<[[[-1], [0], [1], [2], [-1]], [[0], [1], [2], [-1], [0]],
                                 [[1], [2], [-1], [0], [1]], [[2], [-1], [0], [1], [2]]]> : tensor<4x5x1xi32>
  %w = stablehlo.constant dense<[[[-1, 0]], [[1, -1]], [[0, 1]]]> : tensor<3x1x2xi32>
  %r = "stablehlo.convolution"(%x, %w) {
    window_strides = array<i64: 2>,
    padding = dense<[[1, 1]]> : tensor<1x2xi64>,
    dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>,
    feature_group_count = 1 : i64,
    batch_group_count = 2 : i64
  } : (tensor<4x5x1xi32>, tensor<3x1x2xi32>) -> tensor<2x3x2xi32>
  check.expect_eq_const %r, dense<[[[-1, 1], [1, 1], [-3, -1]], [[0, -3], [1, 1], [1, -2]]]> : tensor<2x3x2xi32>
  func.return
}

// -----

func.func @convolution_window_reversal() {
  %x = stablehlo.constant dense<[[[1.0, 2.0, 3.0]]]> : tensor<1x1x3xf64>
  %w = stablehlo.constant dense<[[[1.0, 10.0]]]> : tensor<1x1x2xf64>
  %r = "stablehlo.convolution"(%x, %w) {
    window_reversal = array<i1: true>,
    dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x1x3xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
  check.expect_almost_eq_const %r, dense<[[[12.0, 23.0]]]> : tensor<1x1x2xf64>
  %s = "stablehlo.convolution"(%x, %w) {
    dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x1x3xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
  check.expect_almost_eq_const %s, dense<[[[21.0, 32.0]]]> : tensor<1x1x2xf64>
  func.return
}

// -----

// No spatial dimensions: a matmul over the feature dimension.
func.func @convolution_no_spatial_dims() {
  %x = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %w = stablehlo.constant dense<[[1, 10, 100], [2, 20, 200]]> : tensor<2x3xi64>
  %r = "stablehlo.convolution"(%x, %w) {
    dimension_numbers = #stablehlo.conv<[b, f]x[i, o]->[b, f]>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<2x2xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  check.expect_eq_const %r, dense<[[5, 50, 500], [11, 110, 1100]]> : tensor<2x3xi64>
  func.return
}

// -----

// The window is larger than the padded input: zero windows.
func.func @convolution_empty_output() {
  %x = stablehlo.constant dense<[[[1.0, 2.0]]]> : tensor<1x1x2xf32>
  %w = stablehlo.constant dense<[[[1.0, 1.0, 1.0]]]> : tensor<1x1x3xf32>
  %r = "stablehlo.convolution"(%x, %w) {
    dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x1x2xf32>, tensor<1x1x3xf32>) -> tensor<1x1x0xf32>
  check.expect_eq_const %r, dense<> : tensor<1x1x0xf32>
  func.return
}

// -----

func.func @convolution_complex() {
  %x = stablehlo.constant dense<[[[(1.0, 1.0), (2.0, 0.0)]]]> : tensor<1x1x2xcomplex<f32>>
  %w = stablehlo.constant dense<[[[(0.0, 1.0)]]]> : tensor<1x1x1xcomplex<f32>>
  %r = "stablehlo.convolution"(%x, %w) {
    dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x1x2xcomplex<f32>>, tensor<1x1x1xcomplex<f32>>) -> tensor<1x1x2xcomplex<f32>>
  check.expect_almost_eq_const %r, dense<[[[(-1.0, 1.0), (0.0, 2.0)]]]> : tensor<1x1x2xcomplex<f32>>
  func.return
}

// -----

func.func @dynamic_conv_negative_padding() {
  %x = stablehlo.constant dense<[[[1, 2, 3, 4, 5]]]> : tensor<1x1x5xi32>
  %w = stablehlo.constant dense<[[[1, 1]]]> : tensor<1x1x2xi32>
  %p = stablehlo.constant dense<[[-1, 1]]> : tensor<1x2xi64>
  %r = "stablehlo.dynamic_conv"(%x, %w, %p) {
    window_strides = array<i64: 1>,
    lhs_dilation = array<i64: 1>,
    rhs_dilation = array<i64: 1>,
    window_reversal = array<i1: false>,
    dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x1x5xi32>, tensor<1x1x2xi32>, tensor<1x2xi64>) -> tensor<1x1x4xi32>
  // padded input [2, 3, 4, 5, 0]
  check.expect_eq_const %r, dense<[[[5, 7, 9, 5]]]> : tensor<1x1x4xi32>
  func.return
}
