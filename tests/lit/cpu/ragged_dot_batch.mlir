// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --verbose %s 2>&1 | FileCheck %s --check-prefix=NATIVE
// chlo.ragged_dot with the ragged dimension among the batch dimensions: a
// batched product whose batch indices past the groups are zero.  Small
// integer values: exact on both backends.

// Mode 3 (ragged batch dimension): batch indices past the last group
// are zero.
func.func @batch_f32() {
  %l0 = stablehlo.constant dense<[[[-3.0, 0.0, -3.0], [3.0, 0.0, -2.0]], [[2.0, -3.0, -2.0], [-3.0, 1.0, -2.0]], [[2.0, 3.0, -2.0], [-2.0, 2.0, -3.0]], [[2.0, -3.0, -2.0], [-2.0, 1.0, 2.0]]]> : tensor<4x2x3xf32>
  %r0 = stablehlo.constant dense<[[[0.0, 1.0], [0.0, -2.0], [1.0, -3.0]], [[-3.0, -3.0], [3.0, 0.0], [-1.0, -2.0]], [[-2.0, -1.0], [0.0, -1.0], [1.0, -2.0]], [[-2.0, 2.0], [-2.0, 0.0], [1.0, 2.0]]]> : tensor<4x3x2xf32>
  %g0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<4x2x3xf32>, tensor<4x3x2xf32>, tensor<2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0],
      lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = []>
  } : (tensor<4x2x3xf32>, tensor<4x3x2xf32>, tensor<2xi32>) -> tensor<4x2x2xf32>
  check.expect_eq_const %d, dense<[[[-3.0, 6.0], [-2.0, 9.0]], [[-13.0, -2.0], [14.0, 13.0]], [[-6.0, -1.0], [1.0, 6.0]], [[0.0, 0.0], [0.0, 0.0]]]> : tensor<4x2x2xf32>
  func.return
}

// -----

// Two batch dimensions, the ragged one second, per-batch group sizes.
func.func @batch_inner() {
  %l0 = stablehlo.constant dense<[[[[-3.0, -2.0], [-2.0, -1.0]], [[2.0, -2.0], [0.0, -3.0]], [[2.0, -3.0], [-3.0, -1.0]]], [[[1.0, -1.0], [3.0, -3.0]], [[1.0, 2.0], [0.0, -1.0]], [[1.0, -3.0], [1.0, 3.0]]]]> : tensor<2x3x2x2xf32>
  %r0 = stablehlo.constant dense<[[[[3.0, -2.0], [1.0, -3.0]], [[0.0, 2.0], [3.0, 3.0]], [[-2.0, 3.0], [-1.0, -2.0]]], [[[0.0, -3.0], [-1.0, -3.0]], [[-3.0, 1.0], [-3.0, 2.0]], [[-2.0, 0.0], [-3.0, 0.0]]]]> : tensor<2x3x2x2xf32>
  %g0 = stablehlo.constant dense<[[[1, 1], [0, 0], [2, 0]], [[0, 1], [0, 0], [5, 0]]]> : tensor<2x3x2xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<2x3x2x2xf32>, tensor<2x3x2x2xf32>, tensor<2x3x2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1],
      lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = []>
  } : (tensor<2x3x2x2xf32>, tensor<2x3x2x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  check.expect_eq_const %d, dense<[[[[-11.0, 12.0], [-7.0, 7.0]], [[0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]]], [[[1.0, 0.0], [3.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]], [[7.0, 0.0], [-11.0, 0.0]]]]> : tensor<2x3x2x2xf32>
  func.return
}

// -----

// Two batch dimensions, the ragged one first; batch dims paired in
// another order.
func.func @batch_outer() {
  %l0 = stablehlo.constant dense<[[[[1.0, -2.0], [2.0, -2.0]], [[3.0, 3.0], [-1.0, 0.0]]], [[[2.0, 1.0], [1.0, -2.0]], [[2.0, 1.0], [1.0, -1.0]]], [[[2.0, 1.0], [0.0, 0.0]], [[-1.0, 2.0], [2.0, -3.0]]]]> : tensor<3x2x2x2xf32>
  %r0 = stablehlo.constant dense<[[[[-1.0, 0.0], [-1.0, 1.0]], [[0.0, -3.0], [2.0, 1.0]], [[3.0, 2.0], [2.0, 0.0]]], [[[3.0, 3.0], [-1.0, -1.0]], [[1.0, 3.0], [2.0, -2.0]], [[-3.0, 3.0], [-3.0, -1.0]]]]> : tensor<2x3x2x2xf32>
  %g0 = stablehlo.constant dense<[1, 1]> : tensor<2xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<3x2x2x2xf32>, tensor<2x3x2x2xf32>, tensor<2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [1, 0],
      lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = []>
  } : (tensor<3x2x2x2xf32>, tensor<2x3x2x2xf32>, tensor<2xi32>) -> tensor<3x2x2x2xf32>
  check.expect_eq_const %d, dense<[[[[1.0, -2.0], [0.0, -2.0]], [[6.0, 6.0], [-3.0, -3.0]]], [[[2.0, -5.0], [-4.0, -5.0]], [[4.0, 4.0], [-1.0, 5.0]]], [[[0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]]]]> : tensor<3x2x2x2xf32>
  func.return
}

// -----

// No group covers anything: all zero.
func.func @batch_none() {
  %l0 = stablehlo.constant dense<[[[1.0, -1.0], [1.0, -3.0]], [[3.0, -2.0], [-3.0, 0.0]], [[-1.0, -3.0], [0.0, -1.0]]]> : tensor<3x2x2xf32>
  %r0 = stablehlo.constant dense<[[[-1.0, -3.0], [1.0, 1.0]], [[3.0, -2.0], [-3.0, -1.0]], [[-1.0, 1.0], [-3.0, 3.0]]]> : tensor<3x2x2xf32>
  %g0 = stablehlo.constant dense<[0, -4]> : tensor<2xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<3x2x2xf32>, tensor<3x2x2xf32>, tensor<2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0],
      lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = []>
  } : (tensor<3x2x2xf32>, tensor<3x2x2xf32>, tensor<2xi32>) -> tensor<3x2x2xf32>
  check.expect_eq_const %d, dense<[[[0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]]]> : tensor<3x2x2xf32>
  func.return
}

// -----

// i32: exact.
func.func @batch_i32() {
  %l0 = stablehlo.constant dense<[[[8, 1], [-5, 1]], [[-5, 0], [4, -1]], [[9, -8], [7, -1]]]> : tensor<3x2x2xi32>
  %r0 = stablehlo.constant dense<[[[2, 9], [-6, 2]], [[-9, 7], [-9, -6]], [[6, 2], [-9, 1]]]> : tensor<3x2x2xi32>
  %g0 = stablehlo.constant dense<[2]> : tensor<1xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<3x2x2xi32>, tensor<3x2x2xi32>, tensor<1xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0],
      lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = []>
  } : (tensor<3x2x2xi32>, tensor<3x2x2xi32>, tensor<1xi32>) -> tensor<3x2x2xi32>
  check.expect_eq_const %d, dense<[[[10, 74], [-16, -43]], [[45, -35], [-27, 34]], [[0, 0], [0, 0]]]> : tensor<3x2x2xi32>
  func.return
}

// -----

// f64, operands stored [m, b, k] and [k, b, n].
func.func @batch_f64_permuted() {
  %l0 = stablehlo.constant dense<[[[-1.0, -3.0, -3.0], [3.0, 3.0, -1.0], [-3.0, -3.0, 1.0]], [[2.0, -2.0, -2.0], [-1.0, 2.0, 2.0], [0.0, -1.0, 1.0]]]> : tensor<2x3x3xf64>
  %r0 = stablehlo.constant dense<[[[-1.0, 1.0], [-3.0, 1.0], [0.0, 3.0]], [[0.0, 0.0], [-1.0, 3.0], [3.0, 0.0]], [[-2.0, 0.0], [-2.0, -3.0], [1.0, 0.0]]]> : tensor<3x3x2xf64>
  %g0 = stablehlo.constant dense<[1, 1]> : tensor<2xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<2x3x3xf64>, tensor<3x3x2xf64>, tensor<2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [1], rhs_batching_dimensions = [1],
      lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = []>
  } : (tensor<2x3x3xf64>, tensor<3x3x2xf64>, tensor<2xi32>) -> tensor<3x2x2xf64>
  check.expect_eq_const %d, dense<[[[7.0, -1.0], [2.0, 2.0]], [[-10.0, 15.0], [-3.0, -1.0]], [[0.0, 0.0], [0.0, 0.0]]]> : tensor<3x2x2xf64>
  func.return
}

// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
