// RUN: xlac run --split-input-file %s
// RUN: xlac opt --split-input-file --pipeline=cpu %s | FileCheck %s
// dynamic_gather and torch_index_select become gather, dynamic_conv
// becomes convolution (legalize pass).
// CHECK-NOT: stablehlo.dynamic_gather
// CHECK-NOT: stablehlo.torch_index_select
// CHECK-NOT: stablehlo.dynamic_conv

func.func @dynamic_gather_const_sizes() {
  %x0 = stablehlo.constant dense<[[[1, 2], [3, 4], [5, 6], [7, 8]], [[9, 10], [11, 12], [13, 14], [15, 16]], [[17, 18], [19, 20], [21, 22], [23, 24]]]> : tensor<3x4x2xi64>
  %i0 = stablehlo.constant dense<[[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]]> : tensor<2x3x2xi64>
  %x, %i = stablehlo.optimization_barrier %x0, %i0 : tensor<3x4x2xi64>, tensor<2x3x2xi64>
  %sizes = stablehlo.constant dense<[1, 2, 2]> : tensor<3xi64>
  %r = "stablehlo.dynamic_gather"(%x, %i, %sizes) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>,
    indices_are_sorted = false
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<3xi64>) -> tensor<2x3x2x2xi64>
  check.expect_eq_const %r, dense<[[[[1, 2], [3, 4]], [[3, 4], [5, 6]], [[13, 14], [15, 16]]], [[[9, 10], [11, 12]], [[11, 12], [13, 14]], [[17, 18], [19, 20]]]]> : tensor<2x3x2x2xi64>
  func.return
}

// -----

// slice_sizes computed at run time: read off the result type.
func.func @dynamic_gather_computed_sizes() {
  %x0 = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %i0 = stablehlo.constant dense<[2, 0, 1, 5]> : tensor<4xi32>
  %s0 = stablehlo.constant dense<[2, 1]> : tensor<2xi32>
  %x, %i, %s = stablehlo.optimization_barrier %x0, %i0, %s0 : tensor<2x3xf32>, tensor<4xi32>, tensor<2xi32>
  %r = "stablehlo.dynamic_gather"(%x, %i, %s) {
    dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>
  } : (tensor<2x3xf32>, tensor<4xi32>, tensor<2xi32>) -> tensor<2x4xf32>
  check.expect_eq_const %r, dense<[[3.0, 1.0, 2.0, 3.0], [6.0, 4.0, 5.0, 6.0]]> : tensor<2x4xf32>
  func.return
}

// -----

// torch_index_select along dim 1 of a rank-3 operand with a 2-D index.
func.func @torch_index_select_middle() {
  %x0 = stablehlo.constant dense<[[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]]> : tensor<2x3x2xi32>
  %i0 = stablehlo.constant dense<[[2, 0], [1, 1]]> : tensor<2x2xi64>
  %x, %i = stablehlo.optimization_barrier %x0, %i0 : tensor<2x3x2xi32>, tensor<2x2xi64>
  %r = "stablehlo.torch_index_select"(%x, %i) {dim = 1 : i64, batch_dims = 0 : i64} : (tensor<2x3x2xi32>, tensor<2x2xi64>) -> tensor<2x2x2x2xi32>
  check.expect_eq_const %r, dense<[[[[5, 6], [1, 2]], [[3, 4], [3, 4]]], [[[11, 12], [7, 8]], [[9, 10], [9, 10]]]]> : tensor<2x2x2x2xi32>
  func.return
}

// -----

// batch_dims = 1 (each row has its own indices), negative dim, f64 rows.
func.func @torch_index_select_batched() {
  %x0 = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf64>
  %i0 = stablehlo.constant dense<[[2, 2, 0, 1], [0, 1, 2, 0]]> : tensor<2x4xui8>
  %x, %i = stablehlo.optimization_barrier %x0, %i0 : tensor<2x3xf64>, tensor<2x4xui8>
  %r = "stablehlo.torch_index_select"(%x, %i) {dim = -1 : i64, batch_dims = 1 : i64} : (tensor<2x3xf64>, tensor<2x4xui8>) -> tensor<2x4xf64>
  check.expect_eq_const %r, dense<[[3.0, 3.0, 1.0, 2.0], [4.0, 5.0, 6.0, 4.0]]> : tensor<2x4xf64>
  // dim 0 with a scalar index: one row
  %k0 = stablehlo.constant dense<1> : tensor<i32>
  %k = stablehlo.optimization_barrier %k0 : tensor<i32>
  %row = "stablehlo.torch_index_select"(%x, %k) {dim = 0 : i64, batch_dims = 0 : i64} : (tensor<2x3xf64>, tensor<i32>) -> tensor<3xf64>
  check.expect_eq_const %row, dense<[4.0, 5.0, 6.0]> : tensor<3xf64>
  func.return
}

// -----

func.func @dynamic_conv() {
  %lhs0 = stablehlo.constant dense<[[[[1], [2], [5], [6]], [[3], [4], [7], [8]], [[10], [11], [14], [15]], [[12], [13], [16], [17]]]]> : tensor<1x4x4x1xi64>
  %rhs0 = stablehlo.constant dense<1> : tensor<3x3x1x1xi64>
  %lhs, %rhs = stablehlo.optimization_barrier %lhs0, %rhs0 : tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>
  %padding = stablehlo.constant dense<1> : tensor<2x2xi64>
  %result = "stablehlo.dynamic_conv"(%lhs, %rhs, %padding) {
    window_strides = array<i64: 4, 4>, lhs_dilation = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>,
    window_reversal = array<i1: false, false>,
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    batch_group_count = 1 : i64, feature_group_count = 1 : i64,
    precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]
  } : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>, tensor<2x2xi64>) -> tensor<1x2x2x1xi64>
  check.expect_eq_const %result, dense<[[[[1], [5]], [[10], [14]]]]> : tensor<1x2x2x1xi64>
  func.return
}

// -----

func.func @dynamic_conv_f32_asymmetric() {
  %lhs0 = stablehlo.constant dense<[[[1.0, 2.0, 3.0, 4.0, 5.0]]]> : tensor<1x1x5xf32>
  %rhs0 = stablehlo.constant dense<[[[1.0, 10.0]]]> : tensor<1x1x2xf32>
  %lhs, %rhs = stablehlo.optimization_barrier %lhs0, %rhs0 : tensor<1x1x5xf32>, tensor<1x1x2xf32>
  %padding = stablehlo.constant dense<[[2, 0]]> : tensor<1x2xi32>
  %result = "stablehlo.dynamic_conv"(%lhs, %rhs, %padding) {
    window_strides = array<i64: 1>, lhs_dilation = array<i64: 1>, rhs_dilation = array<i64: 1>,
    dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>,
    batch_group_count = 1 : i64, feature_group_count = 1 : i64
  } : (tensor<1x1x5xf32>, tensor<1x1x2xf32>, tensor<1x2xi32>) -> tensor<1x1x6xf32>
  check.expect_eq_const %result, dense<[[[0.0, 10.0, 21.0, 32.0, 43.0, 54.0]]]> : tensor<1x1x6xf32>
  func.return
}
