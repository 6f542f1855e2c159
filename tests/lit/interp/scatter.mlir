// RUN: xlac run --split-input-file %s

// Duplicate indices accumulate; an out-of-bounds row is skipped.
func.func @scatter_add_rows() {
  %x = stablehlo.constant dense<[[1, 1], [2, 2], [3, 3]]> : tensor<3x2xi32>
  %i = stablehlo.constant dense<[[1], [1], [7]]> : tensor<3x1xi32>
  %u = stablehlo.constant dense<[[10, 20], [30, 40], [50, 60]]> : tensor<3x2xi32>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<3x2xi32>, tensor<3x1xi32>, tensor<3x2xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %r, dense<[[1, 1], [42, 62], [3, 3]]> : tensor<3x2xi32>
  func.return
}

// -----

// Replacement with duplicates: the last update in row-major order wins.
func.func @scatter_replace_last_wins() {
  %x = stablehlo.constant dense<[0.0, 0.0, 0.0]> : tensor<3xf32>
  %i = stablehlo.constant dense<[2, 0, 2]> : tensor<3xi64>
  %u = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
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

// Two inputs updated together; batching dimension 0.
func.func @scatter_variadic_batching() {
  %x = stablehlo.constant dense<[[0, 0], [0, 0]]> : tensor<2x2xi32>
  %y = stablehlo.constant dense<[[1.0, 1.0], [1.0, 1.0]]> : tensor<2x2xf32>
  %i = stablehlo.constant dense<[[1], [0]]> : tensor<2x1xi32>
  %u = stablehlo.constant dense<[[5], [6]]> : tensor<2x1xi32>
  %v = stablehlo.constant dense<[[2.0], [3.0]]> : tensor<2x1xf32>
  %r:2 = "stablehlo.scatter"(%x, %y, %i, %u, %v) ({
  ^bb0(%a: tensor<i32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<f32>):
    %s = stablehlo.add %a, %c : tensor<i32>
    %m = stablehlo.multiply %b, %d : tensor<f32>
    stablehlo.return %s, %m : tensor<i32>, tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0],
      scatter_dims_to_operand_dims = [1], index_vector_dim = 2>
  } : (tensor<2x2xi32>, tensor<2x2xf32>, tensor<2x1xi32>, tensor<2x1xi32>, tensor<2x1xf32>)
    -> (tensor<2x2xi32>, tensor<2x2xf32>)
  check.expect_eq_const %r#0, dense<[[0, 5], [6, 0]]> : tensor<2x2xi32>
  check.expect_eq_const %r#1, dense<[[1.0, 2.0], [3.0, 1.0]]> : tensor<2x2xf32>
  func.return
}
