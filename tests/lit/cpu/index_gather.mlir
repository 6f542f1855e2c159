// RUN: xlac run --split-input-file %s
// gather: start indices are clamped so each slice stays inside the operand
// (out-of-range and negative indices included); general dimension numbers.

// Embedding lookup (jnp.take): rows 2, 0, clamped 9 -> 3, clamped -1 -> 0.
func.func @gather_rows() {
  %x0 = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %i0 = stablehlo.constant dense<[2, 0, 9, -1]> : tensor<4xi32>
  %x, %i = stablehlo.optimization_barrier %x0, %i0 : tensor<4x2xf32>, tensor<4xi32>
  %r = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 2>} : (tensor<4x2xf32>, tensor<4xi32>) -> tensor<4x2xf32>
  check.expect_eq_const %r, dense<[[5.0, 6.0], [1.0, 2.0], [7.0, 8.0], [1.0, 2.0]]> : tensor<4x2xf32>
  func.return
}

// -----

// 2-D windows at 2-D points; the window is clamped as a whole.
func.func @gather_windows() {
  %x0 = stablehlo.constant dense<[[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]]> : tensor<3x4xi64>
  %i0 = stablehlo.constant dense<[[1, 1], [2, 3], [-5, 100]]> : tensor<3x2xi64>
  %x, %i = stablehlo.optimization_barrier %x0, %i0 : tensor<3x4xi64>, tensor<3x2xi64>
  %r = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>,
    slice_sizes = array<i64: 2, 2>} : (tensor<3x4xi64>, tensor<3x2xi64>) -> tensor<3x2x2xi64>
  check.expect_eq_const %r, dense<[[[11, 12], [21, 22]], [[12, 13], [22, 23]], [[2, 3], [12, 13]]]> : tensor<3x2x2xi64>
  func.return
}

// -----

// Batching dimensions (take_along_axis) and an unsigned index that
// saturates and then clamps.
func.func @gather_batching() {
  %x0 = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>
  %i0 = stablehlo.constant dense<[[2, 0], [18446744073709551615, 1]]> : tensor<2x2xui64>
  %x, %i = stablehlo.optimization_barrier %x0, %i0 : tensor<2x3xi8>, tensor<2x2xui64>
  %r = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 1>} : (tensor<2x3xi8>, tensor<2x2xui64>) -> tensor<2x2xi8>
  check.expect_eq_const %r, dense<[[3, 1], [6, 5]]> : tensor<2x2xi8>
  func.return
}

// -----

// Index vector dimension in the middle, start_index_map reversed, fused
// with an elementwise consumer.
func.func @gather_index_vector_dim() {
  %x0 = stablehlo.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>
  %i0 = stablehlo.constant dense<[[2, 0], [1, 1]]> : tensor<2x2xi32>
  %x, %i = stablehlo.optimization_barrier %x0, %i0 : tensor<2x3xf32>, tensor<2x2xi32>
  %r = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [1, 0], index_vector_dim = 0>,
    slice_sizes = array<i64: 1, 1>} : (tensor<2x3xf32>, tensor<2x2xi32>) -> tensor<2xf32>
  %n = stablehlo.negate %r : tensor<2xf32>
  check.expect_eq_const %n, dense<[-5.0, -3.0]> : tensor<2xf32>
  func.return
}
