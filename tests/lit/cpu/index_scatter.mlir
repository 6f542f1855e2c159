// RUN: xlac run --split-input-file %s
// scatter: updates apply one by one in row-major order of the update index
// space; an update window that does not lie wholly inside the operand is
// skipped whole (no clamping), as on XLA.

// Duplicate indices accumulate; out-of-range and negative rows are skipped.
func.func @scatter_add_rows() {
  %x0 = stablehlo.constant dense<[[1, 1], [2, 2], [3, 3]]> : tensor<3x2xi32>
  %i0 = stablehlo.constant dense<[[1], [1], [7], [-1]]> : tensor<4x1xi32>
  %u0 = stablehlo.constant dense<[[10, 20], [30, 40], [50, 60], [70, 80]]> : tensor<4x2xi32>
  %x, %i, %u = stablehlo.optimization_barrier %x0, %i0, %u0 : tensor<3x2xi32>, tensor<4x1xi32>, tensor<4x2xi32>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<3x2xi32>, tensor<4x1xi32>, tensor<4x2xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %r, dense<[[1, 1], [42, 62], [3, 3]]> : tensor<3x2xi32>
  func.return
}

// -----

// Replacement with duplicates: the last update in row-major order wins.
func.func @scatter_replace_last_wins() {
  %x0 = stablehlo.constant dense<[0.0, 0.0, 0.0]> : tensor<3xf32>
  %i0 = stablehlo.constant dense<[2, 0, 2]> : tensor<3xi64>
  %u0 = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %x, %i, %u = stablehlo.optimization_barrier %x0, %i0, %u0 : tensor<3xf32>, tensor<3xi64>, tensor<3xf32>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<3xf32>, tensor<3xi64>, tensor<3xf32>) -> tensor<3xf32>
  check.expect_eq_const %r, dense<[2.0, 0.0, 3.0]> : tensor<3xf32>
  func.return
}

// -----

// Windows partly out of range (starts 3 and -1) are skipped whole, their
// elements inside as well; starts 2 and 0 fit.  Values from JAX's CPU
// backend (XLA).
func.func @scatter_partial_window() {
  %x0 = stablehlo.constant dense<0> : tensor<4xi32>
  %i0 = stablehlo.constant dense<[[3], [-1], [2], [0]]> : tensor<4x1xi32>
  %u0 = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6], [7, 8]]> : tensor<4x2xi32>
  %x, %i, %u = stablehlo.optimization_barrier %x0, %i0, %u0 : tensor<4xi32>, tensor<4x1xi32>, tensor<4x2xi32>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<4xi32>, tensor<4x1xi32>, tensor<4x2xi32>) -> tensor<4xi32>
  check.expect_eq_const %r, dense<[7, 8, 5, 6]> : tensor<4xi32>
  func.return
}

// -----

// No updates at all: the result is the operand.
func.func @scatter_empty_updates() {
  %x0 = stablehlo.constant dense<[1.5, 2.5]> : tensor<2xf32>
  %i0 = stablehlo.constant dense<> : tensor<0x1xi32>
  %u0 = stablehlo.constant dense<> : tensor<0xf32>
  %x, %i, %u = stablehlo.optimization_barrier %x0, %i0, %u0 : tensor<2xf32>, tensor<0x1xi32>, tensor<0xf32>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<2xf32>, tensor<0x1xi32>, tensor<0xf32>) -> tensor<2xf32>
  check.expect_eq_const %r, dense<[1.5, 2.5]> : tensor<2xf32>
  func.return
}

// -----

// Max and multiply bodies, a body of two ops, and float accumulation order
// (1e8 + 1 + 1 - 1e8 in order is 0 in f32, not 2).
func.func @scatter_bodies() {
  %x0 = stablehlo.constant dense<[5, -3, 0]> : tensor<3xi32>
  %f0 = stablehlo.constant dense<[0.0]> : tensor<1xf32>
  %i0 = stablehlo.constant dense<[[0], [1], [1], [0]]> : tensor<4x1xi32>
  %z0 = stablehlo.constant dense<[[0], [0], [0], [0]]> : tensor<4x1xi32>
  %u0 = stablehlo.constant dense<[2, 7, -2, 9]> : tensor<4xi32>
  %v0 = stablehlo.constant dense<[1.0e8, 1.0, 1.0, -1.0e8]> : tensor<4xf32>
  %x, %f, %i, %z, %u, %v = stablehlo.optimization_barrier %x0, %f0, %i0, %z0, %u0, %v0 : tensor<3xi32>, tensor<1xf32>, tensor<4x1xi32>, tensor<4x1xi32>, tensor<4xi32>, tensor<4xf32>
  %m = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<3xi32>, tensor<4x1xi32>, tensor<4xi32>) -> tensor<3xi32>
  %p = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.multiply %a, %b : tensor<i32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %t = stablehlo.add %s, %c : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<3xi32>, tensor<4x1xi32>, tensor<4xi32>) -> tensor<3xi32>
  %s = "stablehlo.scatter"(%f, %z, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<1xf32>, tensor<4x1xi32>, tensor<4xf32>) -> tensor<1xf32>
  check.expect_eq_const %m, dense<[9, 7, 0]> : tensor<3xi32>
  check.expect_eq_const %p, dense<[100, 41, 0]> : tensor<3xi32>
  check.expect_eq_const %s, dense<[0.0]> : tensor<1xf32>
  func.return
}

// -----

// Two inputs updated together; batching dimension 0.
func.func @scatter_variadic_batching() {
  %x0 = stablehlo.constant dense<[[0, 0], [0, 0]]> : tensor<2x2xi32>
  %y0 = stablehlo.constant dense<[[1.0, 1.0], [1.0, 1.0]]> : tensor<2x2xf32>
  %i0 = stablehlo.constant dense<[[1], [0]]> : tensor<2x1xi32>
  %u0 = stablehlo.constant dense<[[5], [6]]> : tensor<2x1xi32>
  %v0 = stablehlo.constant dense<[[2.0], [3.0]]> : tensor<2x1xf32>
  %x, %y, %i, %u, %v = stablehlo.optimization_barrier %x0, %y0, %i0, %u0, %v0 : tensor<2x2xi32>, tensor<2x2xf32>, tensor<2x1xi32>, tensor<2x1xi32>, tensor<2x1xf32>
  %r:2 = "stablehlo.scatter"(%x, %y, %i, %u, %v) ({
  ^bb0(%a: tensor<i32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<f32>):
    %s = stablehlo.add %a, %c : tensor<i32>
    %t = stablehlo.multiply %b, %d : tensor<f32>
    stablehlo.return %s, %t : tensor<i32>, tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0],
      scatter_dims_to_operand_dims = [1], index_vector_dim = 2>
  } : (tensor<2x2xi32>, tensor<2x2xf32>, tensor<2x1xi32>, tensor<2x1xi32>, tensor<2x1xf32>) -> (tensor<2x2xi32>, tensor<2x2xf32>)
  check.expect_eq_const %r#0, dense<[[0, 5], [6, 0]]> : tensor<2x2xi32>
  check.expect_eq_const %r#1, dense<[[1.0, 2.0], [3.0, 1.0]]> : tensor<2x2xf32>
  func.return
}
