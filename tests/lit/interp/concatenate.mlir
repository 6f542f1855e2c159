// RUN: xlac run --split-input-file %s

func.func @concat_dim1_three_inputs() {
  %a = stablehlo.constant dense<[[1], [2]]> : tensor<2x1xi32>
  %b = stablehlo.constant dense<> : tensor<2x0xi32>
  %c = stablehlo.constant dense<[[3, 4], [5, 6]]> : tensor<2x2xi32>
  %r = stablehlo.concatenate %a, %b, %c, dim = 1 : (tensor<2x1xi32>, tensor<2x0xi32>, tensor<2x2xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[1, 3, 4], [2, 5, 6]]> : tensor<2x3xi32>
  func.return
}

// -----

func.func @concat_dim0_f64() {
  %a = stablehlo.constant dense<[0x7FF8000000000000, -0.0]> : tensor<2xf64>
  %b = stablehlo.constant dense<[1.0]> : tensor<1xf64>
  %r = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2xf64>, tensor<1xf64>) -> tensor<3xf64>
  check.expect_eq_const %r, dense<[0x7FF8000000000000, -0.0, 1.0]> : tensor<3xf64>
  func.return
}
