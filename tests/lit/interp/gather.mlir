// RUN: xlac run --split-input-file %s

// Take rows: one index per row, implicit trailing index vector dimension.
func.func @gather_rows_implicit_ivd() {
  %x = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %i = stablehlo.constant dense<[2, 0, 2]> : tensor<3xi32>
  %r = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<
      offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 2>
  } : (tensor<3x2xi32>, tensor<3xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %r, dense<[[5, 6], [1, 2], [5, 6]]> : tensor<3x2xi32>
  func.return
}

// -----

// 2x2 windows at (row, col) starts; out-of-range starts are clamped.
func.func @gather_windows_clamped() {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xf32>
  %i = stablehlo.constant dense<[[0, 1], [5, -3]]> : tensor<2x2xi64>
  %r = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<
      offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>,
    slice_sizes = array<i64: 2, 2>
  } : (tensor<3x3xf32>, tensor<2x2xi64>) -> tensor<2x2x2xf32>
  check.expect_eq_const %r, dense<[[[2.0, 3.0], [5.0, 6.0]], [[4.0, 5.0], [7.0, 8.0]]]> : tensor<2x2x2xf32>
  func.return
}

// -----

// Batching dims: result batch b reads operand batch b.
func.func @gather_batching() {
  %x = stablehlo.constant dense<[[10, 11, 12], [20, 21, 22]]> : tensor<2x3xi64>
  %i = stablehlo.constant dense<[[2, 0], [1, 1]]> : tensor<2x2xi64>
  %r = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<
      collapsed_slice_dims = [1], operand_batching_dims = [0],
      start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 1>
  } : (tensor<2x3xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  check.expect_eq_const %r, dense<[[12, 10], [21, 21]]> : tensor<2x2xi64>
  func.return
}

// -----

func.func @dynamic_gather() {
  %x = stablehlo.constant dense<[true, false, true, true]> : tensor<4xi1>
  %i = stablehlo.constant dense<[[1], [3]]> : tensor<2x1xi32>
  %s = stablehlo.constant dense<[2]> : tensor<1xi32>
  %r = "stablehlo.dynamic_gather"(%x, %i, %s) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>
  } : (tensor<4xi1>, tensor<2x1xi32>, tensor<1xi32>) -> tensor<2x2xi1>
  check.expect_eq_const %r, dense<[[false, true], [true, true]]> : tensor<2x2xi1>
  func.return
}

// -----

func.func @torch_index_select() {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %i = stablehlo.constant dense<[2, 0]> : tensor<2xi32>
  %r = "stablehlo.torch_index_select"(%x, %i) {dim = 1 : i64, batch_dims = 0 : i64}
    : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %r, dense<[[3, 1], [6, 4]]> : tensor<2x2xi32>
  func.return
}
