// RUN: xlac run --split-input-file %s

func.func @slice_strided() {
  %x = stablehlo.constant dense<[[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14]]> : tensor<3x5xi16>
  %r = stablehlo.slice %x [0:3:2, 1:5:3] : (tensor<3x5xi16>) -> tensor<2x2xi16>
  check.expect_eq_const %r, dense<[[1, 4], [11, 14]]> : tensor<2x2xi16>
  func.return
}

// -----

func.func @slice_generic_empty() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64>
  %r = "stablehlo.slice"(%x) {
    start_indices = array<i64: 2>, limit_indices = array<i64: 2>, strides = array<i64: 1>
  } : (tensor<3xf64>) -> tensor<0xf64>
  check.expect_eq_const %r, dense<> : tensor<0xf64>
  func.return
}

// -----

func.func @real_dynamic_slice() {
  %x = stablehlo.constant dense<[0, 1, 2, 3, 4, 5]> : tensor<6xui8>
  %s = stablehlo.constant dense<[1]> : tensor<1xi64>
  %l = stablehlo.constant dense<[6]> : tensor<1xi64>
  %t = stablehlo.constant dense<[2]> : tensor<1xi64>
  %r = stablehlo.real_dynamic_slice %x, %s, %l, %t
    : (tensor<6xui8>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xui8>
  check.expect_eq_const %r, dense<[1, 3, 5]> : tensor<3xui8>
  func.return
}
