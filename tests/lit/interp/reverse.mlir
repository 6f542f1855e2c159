// RUN: xlac run --split-input-file %s

func.func @reverse_one_dim() {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %r = stablehlo.reverse %x, dims = [1] : tensor<2x3xi64>
  check.expect_eq_const %r, dense<[[3, 2, 1], [6, 5, 4]]> : tensor<2x3xi64>
  func.return
}

// -----

func.func @reverse_all_and_none() {
  %x = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf8E4M3FN>
  %r = stablehlo.reverse %x, dims = [0, 1] : tensor<2x2xf8E4M3FN>
  check.expect_eq_const %r, dense<[[4.0, 3.0], [2.0, 1.0]]> : tensor<2x2xf8E4M3FN>
  %s = stablehlo.reverse %x, dims = [] : tensor<2x2xf8E4M3FN>
  check.expect_eq_const %s, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf8E4M3FN>
  %e = stablehlo.constant dense<> : tensor<0x2xi32>
  %t = stablehlo.reverse %e, dims = [0] : tensor<0x2xi32>
  check.expect_eq_const %t, dense<> : tensor<0x2xi32>
  func.return
}
