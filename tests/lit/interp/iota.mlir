// RUN: xlac run --split-input-file %s

func.func @iota_ints() {
  %a = stablehlo.iota dim = 1 : tensor<2x3xi32>
  check.expect_eq_const %a, dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xi32>
  %b = stablehlo.iota dim = 0 : tensor<3x2xui8>
  check.expect_eq_const %b, dense<[[0, 0], [1, 1], [2, 2]]> : tensor<3x2xui8>
  // i4 wraps: 8 -> -8
  %c = stablehlo.iota dim = 0 : tensor<10xi4>
  check.expect_eq_const %c, dense<[0, 1, 2, 3, 4, 5, 6, 7, -8, -7]> : tensor<10xi4>
  func.return
}

// -----

func.func @iota_floats_and_complex() {
  %a = stablehlo.iota dim = 0 : tensor<4xf16>
  check.expect_eq_const %a, dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf16>
  %b = stablehlo.iota dim = 1 : tensor<1x3xbf16>
  check.expect_eq_const %b, dense<[[0.0, 1.0, 2.0]]> : tensor<1x3xbf16>
  %c = stablehlo.iota dim = 0 : tensor<3xcomplex<f32>>
  check.expect_eq_const %c, dense<[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)]> : tensor<3xcomplex<f32>>
  %d = stablehlo.iota dim = 0 : tensor<0xf64>
  check.expect_eq_const %d, dense<> : tensor<0xf64>
  func.return
}

// -----

func.func @dynamic_iota() {
  %shape = stablehlo.constant dense<[2, 2]> : tensor<2xi64>
  %r = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<2xi64>) -> tensor<2x2xf32>
  check.expect_eq_const %r, dense<[[0.0, 0.0], [1.0, 1.0]]> : tensor<2x2xf32>
  func.return
}
