// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --verbose %s 2>&1 | FileCheck %s --check-prefix=NATIVE
// chlo.ragged_dot with the ragged dimension among the lhs free dimensions
// (the mixture-of-experts layer) on the cpu backend: one GEMM per group.
// Group sizes that are empty, negative, cover too few or too many rows, or
// overflow when summed; batch dimensions; layouts that need a copy; float,
// integer and pred types.  Operand values are small integers, so every sum
// is exact and both backends must agree bit for bit.  The barriers keep the
// op from being folded.

// Mode 1 (ragged lhs rows), jax's layout [m, k] x [g, k, n]: rows pick the
// matrix of their group; an empty group; the sizes cover all rows.
func.func @rows_f32() {
  %l0 = stablehlo.constant dense<[[-2.0, 1.0, 3.0, 3.0], [3.0, -3.0, -1.0, -3.0], [0.0, 3.0, 0.0, 0.0], [2.0, 0.0, 3.0, -2.0], [-3.0, 0.0, -3.0, 3.0], [0.0, 0.0, 1.0, 3.0], [3.0, -3.0, 2.0, 0.0]]> : tensor<7x4xf32>
  %r0 = stablehlo.constant dense<[[[-1.0, 2.0, 3.0], [-2.0, 1.0, -3.0], [-1.0, -3.0, -3.0], [-3.0, 2.0, 1.0]], [[-3.0, 0.0, 2.0], [-2.0, 0.0, 2.0], [-3.0, 1.0, -2.0], [3.0, 0.0, 0.0]], [[1.0, -2.0, -1.0], [-2.0, 2.0, -2.0], [3.0, 0.0, -1.0], [-3.0, 0.0, 3.0]], [[1.0, 2.0, -3.0], [-2.0, 2.0, 2.0], [3.0, -1.0, -3.0], [2.0, -1.0, 2.0]]]> : tensor<4x4x3xf32>
  %g0 = stablehlo.constant dense<[2, 0, 4, 1]> : tensor<4xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<7x4xf32>, tensor<4x4x3xf32>, tensor<4xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<7x4xf32>, tensor<4x4x3xf32>, tensor<4xi32>) -> tensor<7x3xf32>
  check.expect_eq_const %d, dense<[[-12.0, -6.0, -15.0], [13.0, 0.0, 18.0], [-6.0, 6.0, -6.0], [17.0, -4.0, -11.0], [-21.0, 6.0, 15.0], [-6.0, 0.0, 8.0], [15.0, -2.0, -21.0]]> : tensor<7x3xf32>
  func.return
}

// -----

// All rows in one group.
func.func @rows_one_group() {
  %l0 = stablehlo.constant dense<[[3.0, 3.0, -3.0, -3.0], [-3.0, -1.0, 3.0, -2.0], [2.0, 3.0, 2.0, 3.0], [-1.0, -1.0, 1.0, -2.0], [1.0, -3.0, 1.0, 2.0], [-2.0, 0.0, 2.0, 0.0], [3.0, 2.0, 3.0, 1.0]]> : tensor<7x4xf32>
  %r0 = stablehlo.constant dense<[[[-1.0, 1.0, 0.0], [1.0, -1.0, -3.0], [3.0, -3.0, -1.0], [0.0, -1.0, 0.0]], [[0.0, 1.0, -2.0], [1.0, -2.0, -2.0], [-2.0, -3.0, -2.0], [-1.0, -2.0, -2.0]], [[1.0, 1.0, -1.0], [1.0, 2.0, 1.0], [-2.0, 0.0, 3.0], [0.0, 2.0, 1.0]], [[3.0, -1.0, 3.0], [1.0, -1.0, -1.0], [3.0, 0.0, -2.0], [3.0, 0.0, 2.0]]]> : tensor<4x4x3xf32>
  %g0 = stablehlo.constant dense<[0, 7, 0, 0]> : tensor<4xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<7x4xf32>, tensor<4x4x3xf32>, tensor<4xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<7x4xf32>, tensor<4x4x3xf32>, tensor<4xi32>) -> tensor<7x3xf32>
  check.expect_eq_const %d, dense<[[12.0, 12.0, 0.0], [-5.0, -6.0, 6.0], [-4.0, -16.0, -20.0], [-1.0, 2.0, 6.0], [-7.0, 0.0, -2.0], [-4.0, -8.0, 0.0], [-5.0, -12.0, -18.0]]> : tensor<7x3xf32>
  func.return
}

// -----

// Sizes summing to less than m: the rows past the last group are zero.
func.func @rows_short() {
  %l0 = stablehlo.constant dense<[[-2.0, 1.0, 1.0, -2.0], [-1.0, 1.0, 0.0, 2.0], [1.0, -3.0, 1.0, -3.0], [3.0, 0.0, -1.0, 1.0], [-2.0, -2.0, 2.0, 0.0], [1.0, 3.0, 1.0, 0.0], [0.0, 2.0, 3.0, -2.0]]> : tensor<7x4xf32>
  %r0 = stablehlo.constant dense<[[[-2.0, 2.0, -2.0], [3.0, 1.0, 0.0], [2.0, -3.0, 2.0], [3.0, -3.0, -2.0]], [[3.0, 1.0, -3.0], [-1.0, 3.0, -3.0], [3.0, 3.0, -1.0], [0.0, 1.0, 2.0]], [[0.0, 2.0, 3.0], [0.0, 0.0, 2.0], [3.0, 1.0, 0.0], [-2.0, -1.0, -3.0]], [[-3.0, -2.0, 0.0], [-2.0, -1.0, 2.0], [0.0, 3.0, 2.0], [3.0, -1.0, 0.0]]]> : tensor<4x4x3xf32>
  %g0 = stablehlo.constant dense<[1, 2, 0, 1]> : tensor<4xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<7x4xf32>, tensor<4x4x3xf32>, tensor<4xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<7x4xf32>, tensor<4x4x3xf32>, tensor<4xi32>) -> tensor<7x3xf32>
  check.expect_eq_const %d, dense<[[3.0, 0.0, 10.0], [-4.0, 4.0, 4.0], [9.0, -8.0, -1.0], [-6.0, -10.0, -2.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]> : tensor<7x3xf32>
  func.return
}

// -----

// Negative sizes are empty; sizes summing to more than m cut the last
// group off at m.
func.func @rows_long_negative() {
  %l0 = stablehlo.constant dense<[[-2.0, -1.0, -3.0, 2.0], [0.0, 0.0, -2.0, -3.0], [-3.0, -3.0, 0.0, 1.0], [-1.0, 3.0, 3.0, -3.0], [-2.0, 1.0, 1.0, -1.0], [-1.0, 3.0, -2.0, 3.0], [-3.0, -1.0, -2.0, -3.0]]> : tensor<7x4xf32>
  %r0 = stablehlo.constant dense<[[[3.0, 2.0, 3.0], [-1.0, 3.0, -1.0], [-2.0, -2.0, -1.0], [-1.0, 2.0, 3.0]], [[2.0, 3.0, 3.0], [-1.0, -3.0, 3.0], [1.0, -1.0, 2.0], [0.0, 1.0, -2.0]], [[-2.0, -2.0, 0.0], [-1.0, -3.0, 3.0], [3.0, 1.0, 3.0], [-1.0, -3.0, -1.0]], [[1.0, 2.0, -1.0], [3.0, 3.0, 1.0], [-2.0, 0.0, 0.0], [1.0, -1.0, 0.0]]]> : tensor<4x4x3xf32>
  %g0 = stablehlo.constant dense<[-2, 3, 9, -1]> : tensor<4xi64>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<7x4xf32>, tensor<4x4x3xf32>, tensor<4xi64>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<7x4xf32>, tensor<4x4x3xf32>, tensor<4xi64>) -> tensor<7x3xf32>
  check.expect_eq_const %d, dense<[[-6.0, 2.0, -19.0], [-2.0, -1.0, 2.0], [-3.0, 1.0, -20.0], [11.0, 5.0, 21.0], [7.0, 5.0, 7.0], [-10.0, -18.0, 0.0], [4.0, 16.0, -6.0]]> : tensor<7x3xf32>
  func.return
}

// -----

// Sizes whose running sum overflows int64 (rows 2.. are in group 1), f64,
// and the rhs stored [g, n, k] (a transposed GEMM operand).
func.func @rows_overflow_f64() {
  %l0 = stablehlo.constant dense<[[1.0, -1.0, 2.0, -1.0, 3.0], [2.0, 3.0, 2.0, 2.0, 1.0], [-3.0, 3.0, 0.0, 3.0, -2.0], [2.0, -3.0, -2.0, -3.0, -1.0], [0.0, 3.0, -2.0, 0.0, 1.0], [-3.0, 1.0, -2.0, -3.0, 2.0]]> : tensor<6x5xf64>
  %r0 = stablehlo.constant dense<[[[-2.0, 0.0, -1.0, -2.0, 3.0], [3.0, 0.0, -2.0, 3.0, 3.0]], [[-3.0, -2.0, 1.0, 1.0, 0.0], [-2.0, -2.0, -3.0, 3.0, -3.0]], [[-2.0, 3.0, -2.0, -2.0, 3.0], [-2.0, -1.0, -1.0, -2.0, 1.0]]]> : tensor<3x2x5xf64>
  %g0 = stablehlo.constant dense<[2, 9223372036854775807, 9223372036854775807]> : tensor<3xi64>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<6x5xf64>, tensor<3x2x5xf64>, tensor<3xi64>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [2],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<6x5xf64>, tensor<3x2x5xf64>, tensor<3xi64>) -> tensor<6x2xf64>
  check.expect_eq_const %d, dense<[[7.0, 5.0], [-7.0, 11.0], [6.0, 15.0], [-5.0, 2.0], [-8.0, -3.0], [2.0, -5.0]]> : tensor<6x2xf64>
  func.return
}

// -----

// A u64 size beyond INT64_MAX reads as negative, so empty.
func.func @rows_u64_huge() {
  %l0 = stablehlo.constant dense<[[3.0, 1.0, 3.0], [-3.0, 0.0, 3.0], [-1.0, -3.0, -3.0], [-2.0, 2.0, 1.0], [0.0, 3.0, 2.0], [-1.0, -1.0, 3.0]]> : tensor<6x3xf32>
  %r0 = stablehlo.constant dense<[[[-3.0, -1.0], [0.0, 3.0], [-2.0, 2.0]], [[3.0, 0.0], [1.0, 1.0], [2.0, -3.0]], [[-2.0, 1.0], [1.0, 2.0], [3.0, 2.0]]]> : tensor<3x3x2xf32>
  %g0 = stablehlo.constant dense<[18446744073709551615, 2, 3]> : tensor<3xui64>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<6x3xf32>, tensor<3x3x2xf32>, tensor<3xui64>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<6x3xf32>, tensor<3x3x2xf32>, tensor<3xui64>) -> tensor<6x2xf32>
  check.expect_eq_const %d, dense<[[16.0, -8.0], [-3.0, -9.0], [-10.0, -13.0], [9.0, 4.0], [9.0, 10.0], [0.0, 0.0]]> : tensor<6x2xf32>
  func.return
}

// -----

// A batch dimension with one row of group sizes per batch index.
func.func @rows_batch_per_row() {
  %l0 = stablehlo.constant dense<[[[-1.0, -2.0, 0.0], [2.0, -3.0, -3.0], [3.0, 1.0, -3.0], [-1.0, 1.0, -3.0], [1.0, -2.0, -3.0]], [[-3.0, 0.0, 0.0], [-3.0, -2.0, -3.0], [1.0, 0.0, -3.0], [3.0, 1.0, -3.0], [-2.0, 2.0, 2.0]]]> : tensor<2x5x3xf32>
  %r0 = stablehlo.constant dense<[[[[1.0, -3.0], [1.0, 1.0], [0.0, -3.0]], [[-2.0, -3.0], [1.0, 3.0], [-2.0, -1.0]], [[0.0, -2.0], [1.0, -3.0], [1.0, -1.0]]], [[[1.0, 3.0], [2.0, -2.0], [-3.0, 1.0]], [[1.0, 2.0], [-2.0, -1.0], [-3.0, 1.0]], [[2.0, -3.0], [1.0, -3.0], [1.0, -2.0]]]]> : tensor<2x3x3x2xf32>
  %g0 = stablehlo.constant dense<[[1, 3, 1], [0, 0, 4]]> : tensor<2x3xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<2x5x3xf32>, tensor<2x3x3x2xf32>, tensor<2x3xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0],
      lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = [1]>
  } : (tensor<2x5x3xf32>, tensor<2x3x3x2xf32>, tensor<2x3xi32>) -> tensor<2x5x2xf32>
  check.expect_eq_const %d, dense<[[[-3.0, 1.0], [-1.0, -12.0], [1.0, -3.0], [9.0, 9.0], [-5.0, 7.0]], [[-6.0, 9.0], [-11.0, 21.0], [-1.0, 3.0], [4.0, -6.0], [0.0, 0.0]]]> : tensor<2x5x2xf32>
  func.return
}

// -----

// A batch dimension sharing one row of group sizes; i8 sizes.
func.func @rows_batch_shared() {
  %l0 = stablehlo.constant dense<[[[-2.0, -1.0], [0.0, -2.0], [-2.0, 2.0], [-3.0, -3.0]], [[-2.0, -2.0], [3.0, 1.0], [-2.0, 0.0], [2.0, -3.0]], [[0.0, 0.0], [0.0, 0.0], [0.0, 1.0], [-2.0, 3.0]]]> : tensor<3x4x2xf32>
  %r0 = stablehlo.constant dense<[[[[0.0, -3.0, 0.0], [-2.0, 3.0, -3.0]], [[2.0, -1.0, 1.0], [0.0, 0.0, 0.0]]], [[[2.0, -3.0, 2.0], [-1.0, -3.0, 3.0]], [[-3.0, 0.0, 1.0], [3.0, 0.0, -3.0]]], [[[2.0, -3.0, -1.0], [-2.0, 2.0, -3.0]], [[0.0, 2.0, 1.0], [-2.0, 1.0, 3.0]]]]> : tensor<3x2x2x3xf32>
  %g0 = stablehlo.constant dense<[3, 1]> : tensor<2xi8>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<3x4x2xf32>, tensor<3x2x2x3xf32>, tensor<2xi8>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0],
      lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = [1]>
  } : (tensor<3x4x2xf32>, tensor<3x2x2x3xf32>, tensor<2xi8>) -> tensor<3x4x3xf32>
  check.expect_eq_const %d, dense<[[[2.0, 3.0, 3.0], [4.0, -6.0, 6.0], [-4.0, 12.0, -6.0], [-6.0, 3.0, -3.0]], [[-2.0, 12.0, -10.0], [5.0, -12.0, 9.0], [-4.0, 6.0, -4.0], [-15.0, 0.0, 11.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [-2.0, 2.0, -3.0], [-6.0, -1.0, 7.0]]]> : tensor<3x4x3xf32>
  func.return
}

// -----

// The ragged dimension is not the first free lhs dimension ([p, m, k]),
// and another free dimension follows it ([p, m, q, k]); ui32 sizes.
func.func @rows_inner_ragged() {
  %l0 = stablehlo.constant dense<[[[[0.0, 1.0, -1.0, -1.0], [-2.0, -2.0, 3.0, 2.0]], [[-3.0, -1.0, 1.0, 0.0], [1.0, -3.0, -1.0, 1.0]], [[1.0, 2.0, -3.0, 2.0], [0.0, -2.0, 2.0, 0.0]], [[2.0, 0.0, -2.0, -2.0], [-2.0, -3.0, -3.0, -2.0]], [[1.0, 3.0, 1.0, -3.0], [3.0, 2.0, 0.0, 3.0]]], [[[2.0, -3.0, -1.0, -2.0], [2.0, -2.0, 2.0, 3.0]], [[0.0, -3.0, 3.0, -1.0], [-2.0, 0.0, -1.0, -1.0]], [[3.0, -3.0, -2.0, 2.0], [-3.0, 0.0, -3.0, 0.0]], [[3.0, 0.0, -2.0, -3.0], [-2.0, 0.0, 2.0, 3.0]], [[-3.0, 1.0, -3.0, -3.0], [3.0, 1.0, -2.0, 3.0]]], [[[-2.0, -1.0, -3.0, -3.0], [-2.0, 1.0, -3.0, 1.0]], [[-3.0, 1.0, 0.0, 1.0], [-2.0, 0.0, -3.0, 0.0]], [[-2.0, 2.0, 3.0, -3.0], [2.0, 1.0, -2.0, -2.0]], [[1.0, 2.0, -3.0, -3.0], [-1.0, 1.0, 2.0, 1.0]], [[3.0, -2.0, 2.0, -1.0], [2.0, 1.0, -3.0, -3.0]]]]> : tensor<3x5x2x4xf32>
  %r0 = stablehlo.constant dense<[[[3.0, 2.0, 0.0], [-2.0, -2.0, 1.0], [1.0, -3.0, 2.0], [-1.0, 3.0, 2.0]], [[1.0, 1.0, 1.0], [3.0, 2.0, -3.0], [3.0, -1.0, -3.0], [3.0, 1.0, -1.0]]]> : tensor<2x4x3xf32>
  %g0 = stablehlo.constant dense<[2, 2]> : tensor<2xui32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<3x5x2x4xf32>, tensor<2x4x3xf32>, tensor<2xui32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]>
  } : (tensor<3x5x2x4xf32>, tensor<2x4x3xf32>, tensor<2xui32>) -> tensor<3x5x2x3xf32>
  check.expect_eq_const %d, dense<[[[[-2.0, -2.0, -3.0], [-1.0, -3.0, 8.0]], [[-6.0, -7.0, 1.0], [7.0, 14.0, -3.0]], [[4.0, 10.0, 2.0], [0.0, -6.0, 0.0]], [[-10.0, 2.0, 10.0], [-26.0, -7.0, 18.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]], [[[13.0, 7.0, -9.0], [9.0, 11.0, 8.0]], [[10.0, -6.0, 1.0], [-6.0, -4.0, -4.0]], [[-6.0, 1.0, 16.0], [-12.0, 0.0, 6.0]], [[-12.0, 2.0, 12.0], [13.0, -1.0, -11.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]], [[[-4.0, -2.0, -13.0], [-12.0, 6.0, -3.0]], [[-12.0, -5.0, 3.0], [-9.0, 5.0, -6.0]], [[4.0, -4.0, -14.0], [-7.0, 4.0, 7.0]], [[-11.0, 5.0, 7.0], [11.0, 0.0, -11.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]]> : tensor<3x5x2x3xf32>
  func.return
}

// -----

// Operands stored in another order ([k, m] and [k, g, n]): copied into
// the canonical layout first.
func.func @rows_permuted() {
  %l0 = stablehlo.constant dense<[[1.0, -3.0, 0.0, 0.0, 1.0, -3.0], [-2.0, 0.0, 3.0, 0.0, 3.0, -1.0], [2.0, 3.0, -2.0, -3.0, 1.0, 0.0], [-1.0, -3.0, -2.0, 2.0, -1.0, -3.0]]> : tensor<4x6xf32>
  %r0 = stablehlo.constant dense<[[[0.0, 3.0, -2.0], [1.0, -1.0, 0.0]], [[0.0, -1.0, 3.0], [2.0, -1.0, 0.0]], [[-2.0, 2.0, -1.0], [2.0, -1.0, -2.0]], [[0.0, 3.0, 3.0], [-2.0, 0.0, 1.0]]]> : tensor<4x2x3xf32>
  %g0 = stablehlo.constant dense<[4, 1]> : tensor<2xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<4x6xf32>, tensor<4x2x3xf32>, tensor<2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = [1]>
  } : (tensor<4x6xf32>, tensor<4x2x3xf32>, tensor<2xi32>) -> tensor<6x3xf32>
  check.expect_eq_const %d, dense<[[-4.0, 6.0, -13.0], [-6.0, -12.0, -6.0], [4.0, -13.0, 5.0], [6.0, 0.0, 9.0], [11.0, -5.0, -3.0], [0.0, 0.0, 0.0]]> : tensor<6x3xf32>
  func.return
}

// -----

// Two contracting dimensions, paired in reverse order.
func.func @rows_two_contracting() {
  %l0 = stablehlo.constant dense<[[[0.0, 3.0, 1.0], [3.0, 3.0, 0.0]], [[0.0, 1.0, 3.0], [1.0, -2.0, -2.0]], [[3.0, 1.0, 0.0], [2.0, 1.0, 3.0]], [[-2.0, -3.0, 0.0], [-1.0, -2.0, -3.0]], [[1.0, 3.0, 2.0], [2.0, -3.0, 1.0]]]> : tensor<5x2x3xf32>
  %r0 = stablehlo.constant dense<[[[[0.0, 0.0], [2.0, 2.0]], [[1.0, 2.0], [-2.0, 1.0]], [[-3.0, 3.0], [1.0, -3.0]]], [[[-3.0, -3.0], [-2.0, -2.0]], [[1.0, -3.0], [3.0, 0.0]], [[-1.0, 0.0], [1.0, 3.0]]]]> : tensor<2x3x2x2xf32>
  %g0 = stablehlo.constant dense<[3, 2]> : tensor<2xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<5x2x3xf32>, tensor<2x3x2x2xf32>, tensor<2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1, 2], rhs_contracting_dimensions = [2, 1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<5x2x3xf32>, tensor<2x3x2x2xf32>, tensor<2xi32>) -> tensor<5x2xf32>
  check.expect_eq_const %d, dense<[[0.0, 18.0], [-4.0, 17.0], [6.0, -2.0], [-4.0, 8.0], [-14.0, -13.0]]> : tensor<5x2xf32>
  func.return
}

// -----

// bf16 operands, f32 result (products exact in f32).
func.func @rows_bf16() {
  %l0 = stablehlo.constant dense<[[0.0, -1.0, 2.0, 1.0, 2.0], [-1.0, -2.0, 0.0, -3.0, -1.0], [0.0, -1.0, 2.0, 3.0, 0.0], [2.0, 3.0, 1.0, -2.0, 1.0], [-3.0, 2.0, 1.0, -2.0, 0.0], [-1.0, -2.0, -1.0, -2.0, -3.0]]> : tensor<6x5xbf16>
  %r0 = stablehlo.constant dense<[[[1.0, 3.0, -2.0, -3.0], [1.0, 2.0, 3.0, -1.0], [2.0, 0.0, 3.0, 3.0], [-3.0, -3.0, -3.0, 3.0], [2.0, 1.0, -2.0, -3.0]], [[0.0, 0.0, -3.0, 2.0], [0.0, -2.0, 1.0, -1.0], [1.0, 1.0, -2.0, 2.0], [-3.0, 1.0, -2.0, 1.0], [3.0, -3.0, 0.0, 1.0]], [[0.0, 2.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [-3.0, 2.0, 2.0, -3.0], [-2.0, 3.0, 2.0, -1.0], [-1.0, -1.0, 3.0, 2.0]]]> : tensor<3x5x4xbf16>
  %g0 = stablehlo.constant dense<[2, 2, 2]> : tensor<3xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<6x5xbf16>, tensor<3x5x4xbf16>, tensor<3xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<6x5xbf16>, tensor<3x5x4xbf16>, tensor<3xi32>) -> tensor<6x4xf32>
  check.expect_eq_const %d, dense<[[4.0, -3.0, -4.0, 4.0], [4.0, 1.0, 7.0, -1.0], [-7.0, 7.0, -11.0, 8.0], [10.0, -10.0, -1.0, 2.0], [1.0, -8.0, -5.0, 1.0], [10.0, -9.0, -16.0, -3.0]]> : tensor<6x4xf32>
  func.return
}

// -----

// f16 operands and result.
func.func @rows_f16() {
  %l0 = stablehlo.constant dense<[[-1.0, -1.0, 2.0, 2.0, 3.0], [3.0, -2.0, 2.0, -2.0, 2.0], [-2.0, 3.0, -2.0, 2.0, 2.0], [-2.0, -2.0, -3.0, 1.0, 3.0], [-2.0, 2.0, -1.0, -3.0, 0.0], [-2.0, 3.0, 2.0, 1.0, -3.0]]> : tensor<6x5xf16>
  %r0 = stablehlo.constant dense<[[[-1.0, 3.0, -2.0, -3.0], [3.0, 3.0, 3.0, 3.0], [-1.0, 3.0, 0.0, 2.0], [0.0, -2.0, 3.0, -1.0], [-1.0, 3.0, -2.0, 0.0]], [[3.0, 1.0, 1.0, 0.0], [2.0, -1.0, 0.0, 2.0], [-1.0, 2.0, -3.0, -1.0], [3.0, 1.0, 3.0, 2.0], [-1.0, 2.0, 0.0, 1.0]], [[1.0, 2.0, -2.0, 0.0], [2.0, 2.0, 0.0, 1.0], [-2.0, -1.0, -2.0, -2.0], [1.0, -1.0, -1.0, -1.0], [0.0, -1.0, 1.0, -1.0]]]> : tensor<3x5x4xf16>
  %g0 = stablehlo.constant dense<[3, 0, 2]> : tensor<3xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<6x5xf16>, tensor<3x5x4xf16>, tensor<3xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<6x5xf16>, tensor<3x5x4xf16>, tensor<3xi32>) -> tensor<6x4xf16>
  check.expect_eq_const %d, dense<[[-7.0, 5.0, -1.0, 2.0], [-13.0, 19.0, -22.0, -9.0], [11.0, -1.0, 15.0, 9.0], [1.0, -9.0, 12.0, 0.0], [1.0, 4.0, 9.0, 7.0], [0.0, 0.0, 0.0, 0.0]]> : tensor<6x4xf16>
  func.return
}

// -----

// bf16 operands and result.
func.func @rows_bf16_out() {
  %l0 = stablehlo.constant dense<[[-3.0, 1.0, 2.0, 3.0, 2.0], [1.0, -2.0, -1.0, 2.0, -1.0], [-1.0, 2.0, -3.0, 2.0, 0.0], [-1.0, 0.0, 2.0, 3.0, 0.0], [0.0, 3.0, -3.0, -1.0, -2.0], [3.0, -1.0, -1.0, 3.0, -1.0]]> : tensor<6x5xbf16>
  %r0 = stablehlo.constant dense<[[[-1.0, 3.0, 2.0, 2.0], [1.0, -2.0, -2.0, 1.0], [2.0, 2.0, -1.0, -2.0], [-3.0, 2.0, -3.0, -3.0], [1.0, -1.0, -3.0, -3.0]], [[-1.0, -2.0, 3.0, 0.0], [0.0, 1.0, 0.0, 1.0], [-3.0, 3.0, 2.0, 2.0], [-3.0, 1.0, 1.0, 2.0], [2.0, -1.0, -2.0, 3.0]], [[-3.0, 2.0, 3.0, 0.0], [1.0, 2.0, -2.0, -1.0], [0.0, 1.0, -2.0, 0.0], [3.0, -1.0, 1.0, -1.0], [-3.0, -3.0, 3.0, -3.0]]]> : tensor<3x5x4xbf16>
  %g0 = stablehlo.constant dense<[1, 4, 1]> : tensor<3xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<6x5xbf16>, tensor<3x5x4xbf16>, tensor<3xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<6x5xbf16>, tensor<3x5x4xbf16>, tensor<3xi32>) -> tensor<6x4xbf16>
  check.expect_eq_const %d, dense<[[1.0, -3.0, -25.0, -24.0], [-6.0, -4.0, 5.0, -3.0], [4.0, -3.0, -7.0, 0.0], [-14.0, 11.0, 4.0, 10.0], [8.0, -5.0, -3.0, -11.0], [2.0, 3.0, 13.0, 1.0]]> : tensor<6x4xbf16>
  func.return
}

// -----

// f32 times bf16, f32 result.
func.func @rows_mixed() {
  %l0 = stablehlo.constant dense<[[-2.0, -3.0, 1.0, 2.0, -3.0], [-2.0, -2.0, -3.0, -3.0, 3.0], [2.0, -2.0, 3.0, 2.0, -1.0], [-2.0, -3.0, -1.0, 0.0, 2.0], [-1.0, -1.0, 0.0, -1.0, -1.0], [-2.0, 3.0, -2.0, 3.0, -1.0]]> : tensor<6x5xf32>
  %r0 = stablehlo.constant dense<[[[3.0, -1.0, -2.0, -1.0], [2.0, 1.0, 0.0, -2.0], [1.0, 0.0, 3.0, 0.0], [0.0, -3.0, 0.0, 1.0], [3.0, -1.0, 0.0, 1.0]], [[-1.0, 2.0, 2.0, 0.0], [0.0, 3.0, 3.0, 3.0], [-3.0, 0.0, 3.0, -3.0], [-2.0, -2.0, 1.0, -2.0], [1.0, 3.0, 2.0, 3.0]], [[2.0, -3.0, -1.0, 1.0], [0.0, -2.0, 3.0, -3.0], [-3.0, 0.0, -3.0, -3.0], [0.0, 2.0, 3.0, 1.0], [-1.0, 0.0, 1.0, -2.0]]]> : tensor<3x5x4xbf16>
  %g0 = stablehlo.constant dense<[2, 3, 1]> : tensor<3xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<6x5xf32>, tensor<3x5x4xbf16>, tensor<3xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<6x5xf32>, tensor<3x5x4xbf16>, tensor<3xi32>) -> tensor<6x4xf32>
  check.expect_eq_const %d, dense<[[-20.0, -4.0, 7.0, 7.0], [-4.0, 6.0, -5.0, 6.0], [-16.0, -9.0, 7.0, -22.0], [7.0, -7.0, -12.0, 0.0], [2.0, -6.0, -8.0, -4.0], [3.0, 6.0, 25.0, 0.0]]> : tensor<6x4xf32>
  func.return
}

// -----

// i32: exact.
func.func @rows_i32() {
  %l0 = stablehlo.constant dense<[[-4, 10, 11, -14, 3], [-21, 7, -50, 2, 34], [41, -17, -20, 31, -22], [-49, -13, -12, -8, 35], [-32, 45, 27, -11, -48], [-22, 27, -18, -48, -31]]> : tensor<6x5xi32>
  %r0 = stablehlo.constant dense<[[[27, 35, 30, -47], [9, 8, 26, 30], [40, -13, -22, 50], [-11, -4, -17, 3], [50, -39, -6, 13]], [[4, 16, 32, -28], [22, -13, 24, -45], [-14, -40, -50, 16], [-3, -20, 12, -31], [-11, -12, -10, 8]], [[8, -42, -29, 39], [11, 43, -49, 6], [12, -49, 10, 39], [-35, 8, 28, -40], [13, 33, -48, -32]]]> : tensor<3x5x4xi32>
  %g0 = stablehlo.constant dense<[2, 1, 2]> : tensor<3xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<6x5xi32>, tensor<3x5x4xi32>, tensor<3xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<6x5xi32>, tensor<3x5x4xi32>, tensor<3xi32>) -> tensor<6x4xi32>
  check.expect_eq_const %d, dense<[[726, -264, 118, 1035], [-826, -1363, 414, -855], [219, 1321, 2496, -1840], [56, 3178, 34, -3257], [324, 284, 989, 2051], [0, 0, 0, 0]]> : tensor<6x4xi32>
  func.return
}

// -----

// i16 operands, i8 result: the sums wrap.
func.func @rows_i16_wrap_i8() {
  %l0 = stablehlo.constant dense<[[33, 6, -23, -7, -26, -56], [96, 80, 80, 38, 69, -29], [-72, -94, -37, -2, 91, 7], [-36, 28, -19, 63, 75, 85], [2, -65, 41, -85, -65, -50]]> : tensor<5x6xi16>
  %r0 = stablehlo.constant dense<[[[-62, 80, 36], [43, 75, -47], [-16, 38, -69], [83, 63, -83], [-21, 4, -80], [29, 21, 63]], [[53, -64, 74], [4, 29, -14], [-96, 10, -5], [46, -87, 92], [89, -10, -88], [22, -5, 48]]]> : tensor<2x6x3xi16>
  %g0 = stablehlo.constant dense<[2, 3]> : tensor<2xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<5x6xi16>, tensor<2x6x3xi16>, tensor<2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<5x6xi16>, tensor<2x6x3xi16>, tensor<2xi32>) -> tensor<5x3xi8>
  check.expect_eq_const %d, dense<[[-7, -17, 90], [-112, 93, 59], [97, -27, 93], [-49, 110, 59], [-37, 36, -63]]> : tensor<5x3xi8>
  func.return
}

// -----

// ui8 operands, ui16 result.
func.func @rows_ui8_ui16() {
  %l0 = stablehlo.constant dense<[[46, 31, 169, 114, 85, 61], [50, 125, 160, 126, 46, 122], [75, 117, 67, 50, 64, 177], [30, 83, 133, 172, 195, 44], [60, 43, 60, 51, 188, 93]]> : tensor<5x6xui8>
  %r0 = stablehlo.constant dense<[[[147, 129, 51], [173, 193, 126], [55, 183, 76], [67, 1, 87], [103, 56, 197], [186, 103, 137]], [[88, 151, 146], [134, 69, 69], [153, 181, 77], [141, 29, 72], [122, 145, 128], [37, 126, 175]]]> : tensor<2x6x3xui8>
  %g0 = stablehlo.constant dense<[4, 1]> : tensor<2xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<5x6xui8>, tensor<2x6x3xui8>, tensor<2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<5x6xui8>, tensor<2x6x3xui8>, tensor<2xi32>) -> tensor<5x3xui16>
  check.expect_eq_const %d, dense<[[49159, 54001, 54116], [8111, 9587, 1662], [12279, 846, 64866], [341, 59852, 15967], [53790, 63344, 60358]]> : tensor<5x3xui16>
  func.return
}

// -----

// pred operands and result: any product that is true.
func.func @rows_pred() {
  %l0 = stablehlo.constant dense<[[false, false, false], [true, true, true], [false, true, false], [true, true, true], [true, false, true]]> : tensor<5x3xi1>
  %r0 = stablehlo.constant dense<[[[true, false], [false, false], [false, false]], [[true, true], [false, false], [true, false]]]> : tensor<2x3x2xi1>
  %g0 = stablehlo.constant dense<[2, 2]> : tensor<2xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<5x3xi1>, tensor<2x3x2xi1>, tensor<2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<5x3xi1>, tensor<2x3x2xi1>, tensor<2xi32>) -> tensor<5x2xi1>
  check.expect_eq_const %d, dense<[[false, false], [true, false], [false, false], [true, true], [false, false]]> : tensor<5x2xi1>
  func.return
}

// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
