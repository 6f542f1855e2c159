// RUN: not xlac run --split-input-file %s 2>&1 | FileCheck %s
// RUN: not xlac run --split-input-file --backend=cpu %s 2>&1 | FileCheck %s
// Malformed chlo.ragged_dot ops the verifier lets through: the cpu backend
// leaves them to the interpreter, which reports them, on either backend.

func.func @group_count() {
  %l0 = stablehlo.constant dense<1.0> : tensor<4x2xf32>
  %r0 = stablehlo.constant dense<1.0> : tensor<3x2x2xf32>
  %g0 = stablehlo.constant dense<[1, 1]> : tensor<2xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<4x2xf32>, tensor<3x2x2xf32>, tensor<2xi32>
  // CHECK: error: runtime error: group_sizes does not match the rhs group dimension
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<4x2xf32>, tensor<3x2x2xf32>, tensor<2xi32>) -> tensor<4x2xf32>
  check.expect_eq_const %d, dense<0.0> : tensor<4x2xf32>
  func.return
}

// -----

func.func @float_group_sizes() {
  %l0 = stablehlo.constant dense<1.0> : tensor<4x2xf32>
  %r0 = stablehlo.constant dense<1.0> : tensor<2x2x2xf32>
  %g0 = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<4x2xf32>, tensor<2x2x2xf32>, tensor<2xf32>
  // CHECK: error: runtime error: group_sizes must be an integer tensor
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<4x2xf32>, tensor<2x2x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  check.expect_eq_const %d, dense<0.0> : tensor<4x2xf32>
  func.return
}

// -----

func.func @group_rows_vs_batch() {
  %l0 = stablehlo.constant dense<1.0> : tensor<3x4x2xf32>
  %r0 = stablehlo.constant dense<1.0> : tensor<3x2x2x2xf32>
  %g0 = stablehlo.constant dense<[[1, 1], [2, 2]]> : tensor<2x2xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<3x4x2xf32>, tensor<3x2x2x2xf32>, tensor<2x2xi32>
  // CHECK: error: runtime error: group_sizes shape does not match the batch dimensions
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0],
      lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = [1]>
  } : (tensor<3x4x2xf32>, tensor<3x2x2x2xf32>, tensor<2x2xi32>) -> tensor<3x4x2xf32>
  check.expect_eq_const %d, dense<0.0> : tensor<3x4x2xf32>
  func.return
}

// -----

func.func @result_shape() {
  %l0 = stablehlo.constant dense<1.0> : tensor<4x2xf32>
  %r0 = stablehlo.constant dense<1.0> : tensor<2x2x3xf32>
  %g0 = stablehlo.constant dense<[2, 2]> : tensor<2xi64>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<4x2xf32>, tensor<2x2x3xf32>, tensor<2xi64>
  // CHECK: error: runtime error: result dimension 1 has size 2, expected 3
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<4x2xf32>, tensor<2x2x3xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  check.expect_eq_const %d, dense<0.0> : tensor<4x2xf32>
  func.return
}
