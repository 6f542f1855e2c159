// RUN: xlac run --split-input-file %s

// XLA's TopK custom call with its comparator: rows sorted by the
// comparator, ties in index order.
func.func private @greater(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<i1> {
  %r = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  func.return %r : tensor<i1>
}

func.func @main() {
  %x = stablehlo.constant dense<[[1.0, 5.0, 3.0, 5.0, -1.0], [0.0, -2.0, 7.0, 0.5, 9.0]]> : tensor<2x5xf32>
  %v, %i = stablehlo.custom_call @TopK(%x) {called_computations = [@greater]} : (tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  check.expect_eq_const %v, dense<[[5.0, 5.0, 3.0], [9.0, 7.0, 0.5]]> : tensor<2x3xf32>
  check.expect_eq_const %i, dense<[[1, 3, 2], [4, 2, 3]]> : tensor<2x3xi32>
  func.return
}

// -----

// Without a comparator: descending, NaN first.
func.func @main() {
  %x = stablehlo.constant dense<[2, -7, 11, 2]> : tensor<4xi32>
  %v, %i = stablehlo.custom_call @TopK(%x) : (tensor<4xi32>) -> (tensor<2xi32>, tensor<2xi32>)
  check.expect_eq_const %v, dense<[11, 2]> : tensor<2xi32>
  check.expect_eq_const %i, dense<[2, 0]> : tensor<2xi32>
  %f = stablehlo.constant dense<[1.0, 0x7FC00000, 3.0]> : tensor<3xf32>
  %fv, %fi = stablehlo.custom_call @TopK(%f) : (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xi32>)
  check.expect_eq_const %fv, dense<[0x7FC00000, 3.0, 1.0]> : tensor<3xf32>
  check.expect_eq_const %fi, dense<[1, 2, 0]> : tensor<3xi32>
  func.return
}
