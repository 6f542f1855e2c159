// RUN: xlac run --split-input-file %s

// Mode 1: the ragged dim is a free lhs dim; rows pick rhs[group].
// Rows past the last group are zero.
func.func @ragged_dot_mode1() {
  %lhs = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %rhs = stablehlo.constant dense<[[[1.0], [0.0]], [[0.0], [1.0]]]> : tensor<2x2x1xf32>
  %gs = stablehlo.constant dense<[1, 1]> : tensor<2xi64>
  %r = "chlo.ragged_dot"(%lhs, %rhs, %gs) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<3x2xf32>, tensor<2x2x1xf32>, tensor<2xi64>) -> tensor<3x1xf32>
  check.expect_almost_eq_const %r, dense<[[1.0], [4.0], [0.0]]> : tensor<3x1xf32>
  func.return
}

// -----

// Mode 2: the ragged dim is contracting; each group sums its own slice.
func.func @ragged_dot_mode2() {
  %lhs = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %rhs = stablehlo.constant dense<[[1], [1], [1]]> : tensor<3x1xi32>
  %gs = stablehlo.constant dense<[2, 1]> : tensor<2xi32>
  %r = "chlo.ragged_dot"(%lhs, %rhs, %gs) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = []>
  } : (tensor<2x3xi32>, tensor<3x1xi32>, tensor<2xi32>) -> tensor<2x2x1xi32>
  check.expect_eq_const %r, dense<[[[3], [9]], [[3], [6]]]> : tensor<2x2x1xi32>
  func.return
}

// -----

// Mode 3: the ragged dim is a batch dim; batches past the groups are zero.
func.func @ragged_dot_mode3() {
  %lhs = stablehlo.constant dense<[[[1.0]], [[2.0]], [[3.0]]]> : tensor<3x1x1xf64>
  %rhs = stablehlo.constant dense<10.0> : tensor<3x1x1xf64>
  %gs = stablehlo.constant dense<[1, 1]> : tensor<2xi64>
  %r = "chlo.ragged_dot"(%lhs, %rhs, %gs) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0],
      lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = []>
  } : (tensor<3x1x1xf64>, tensor<3x1x1xf64>, tensor<2xi64>) -> tensor<3x1x1xf64>
  check.expect_almost_eq_const %r, dense<[[[10.0]], [[20.0]], [[0.0]]]> : tensor<3x1x1xf64>
  func.return
}
