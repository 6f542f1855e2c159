// RUN: xlac run --split-input-file %s

func.func @top_k_rows_with_ties() {
  %x = stablehlo.constant dense<[[1, 5, 5, 2], [0, -1, 7, 7]]> : tensor<2x4xi32>
  %v, %i = chlo.top_k(%x, k = 3) : tensor<2x4xi32> -> (tensor<2x3xi32>, tensor<2x3xi32>)
  check.expect_eq_const %v, dense<[[5, 5, 2], [7, 7, 0]]> : tensor<2x3xi32>
  check.expect_eq_const %i, dense<[[1, 2, 3], [2, 3, 0]]> : tensor<2x3xi32>
  func.return
}

// -----

func.func @top_k_floats() {
  %x = stablehlo.constant dense<[-1.0, 0x7FC00000, 3.0, 0xFF800000]> : tensor<4xf32>
  %v, %i = chlo.top_k(%x, k = 2) : tensor<4xf32> -> (tensor<2xf32>, tensor<2xi32>)
  check.expect_eq_const %v, dense<[0x7FC00000, 3.0]> : tensor<2xf32>
  check.expect_eq_const %i, dense<[1, 2]> : tensor<2xi32>
  func.return
}
