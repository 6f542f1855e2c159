// RUN: xlac run --split-input-file %s

func.func @reshape_rank_change() {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %r = stablehlo.reshape %x : (tensor<2x3xi32>) -> tensor<3x1x2xi32>
  check.expect_eq_const %r, dense<[[[1, 2]], [[3, 4]], [[5, 6]]]> : tensor<3x1x2xi32>
  %s = stablehlo.constant dense<[2.5]> : tensor<1xf32>
  %t = stablehlo.reshape %s : (tensor<1xf32>) -> tensor<f32>
  check.expect_eq_const %t, dense<2.5> : tensor<f32>
  func.return
}

// -----

func.func @dynamic_reshape() {
  %x = stablehlo.constant dense<[(1.0, -1.0), (2.0, -2.0)]> : tensor<2xcomplex<f64>>
  %shape = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %r = stablehlo.dynamic_reshape %x, %shape : (tensor<2xcomplex<f64>>, tensor<2xi32>) -> tensor<1x2xcomplex<f64>>
  check.expect_eq_const %r, dense<[[(1.0, -1.0), (2.0, -2.0)]]> : tensor<1x2xcomplex<f64>>
  func.return
}
