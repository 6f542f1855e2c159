// RUN: xlac run --split-input-file %s

// compare: FLOAT is IEEE (NaN unordered, -0 == +0); TOTALORDER orders
// -NaN < -inf < ... < -0 < +0 < ... < inf < NaN; integers compare as their
// signedness; complex numbers lexicographically.  select and clamp with
// scalar and full-shape operands.

func.func @compare_float_ieee() {
  %a = stablehlo.constant dense<[0x7FC00000, -0.0, 1.0, 0x7FC00000, 2.0]> : tensor<5xf32>
  %b = stablehlo.constant dense<[0x7FC00000, 0.0, 2.0, 1.0, 2.0]> : tensor<5xf32>
  %eq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  check.expect_eq_const %eq, dense<[false, true, false, false, true]> : tensor<5xi1>
  %ne = stablehlo.compare NE, %a, %b, FLOAT : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  check.expect_eq_const %ne, dense<[true, false, true, true, false]> : tensor<5xi1>
  %lt = stablehlo.compare LT, %a, %b : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  check.expect_eq_const %lt, dense<[false, false, true, false, false]> : tensor<5xi1>
  %ge = stablehlo.compare GE, %a, %b : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  check.expect_eq_const %ge, dense<[false, true, false, false, true]> : tensor<5xi1>
  func.return
}

// -----

func.func @compare_totalorder() {
  %a = stablehlo.constant dense<[0xFFF8000000000000, 0xFFF0000000000000, -0.0, 0x7FF0000000000000, 0x7FF8000000000000, 1.0]> : tensor<6xf64>
  %b = stablehlo.constant dense<[0xFFF0000000000000, -1.0e308, 0.0, 0x7FF8000000000000, 0x7FF8000000000000, 1.0]> : tensor<6xf64>
  %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xi1>
  check.expect_eq_const %lt, dense<[true, true, true, true, false, false]> : tensor<6xi1>
  %eq = stablehlo.compare EQ, %a, %b, TOTALORDER : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xi1>
  check.expect_eq_const %eq, dense<[false, false, false, false, true, true]> : tensor<6xi1>
  %c = stablehlo.constant dense<[-0.0, 0x7E00]> : tensor<2xf16>
  %d = stablehlo.constant dense<[0.0, 0x7C00]> : tensor<2xf16>
  %gt = stablehlo.compare GT, %c, %d, TOTALORDER : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xi1>
  check.expect_eq_const %gt, dense<[false, true]> : tensor<2xi1>
  func.return
}

// -----

func.func @compare_ints_and_bools() {
  %a = stablehlo.constant dense<[200, 0, 255]> : tensor<3xui8>
  %b = stablehlo.constant dense<[100, 1, 255]> : tensor<3xui8>
  %gt = stablehlo.compare GT, %a, %b, UNSIGNED : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xi1>
  check.expect_eq_const %gt, dense<[true, false, false]> : tensor<3xi1>
  %c = stablehlo.constant dense<[-56, 0, -1]> : tensor<3xi8>
  %d = stablehlo.constant dense<[100, 1, -1]> : tensor<3xi8>
  %le = stablehlo.compare LE, %c, %d, SIGNED : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi1>
  check.expect_eq_const %le, dense<[true, true, true]> : tensor<3xi1>
  %e = stablehlo.constant dense<[false, true]> : tensor<2xi1>
  %f = stablehlo.constant dense<[true, true]> : tensor<2xi1>
  %lt = stablehlo.compare LT, %e, %f, UNSIGNED : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  check.expect_eq_const %lt, dense<[true, false]> : tensor<2xi1>
  %g = stablehlo.constant dense<[-9223372036854775808]> : tensor<1xi64>
  %h = stablehlo.constant dense<[9223372036854775807]> : tensor<1xi64>
  %l2 = stablehlo.compare LT, %g, %h : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi1>
  check.expect_eq_const %l2, dense<[true]> : tensor<1xi1>
  func.return
}

// -----

func.func @compare_complex() {
  %a = stablehlo.constant dense<[(1.0, 2.0), (1.0, 2.0), (0.0, 5.0)]> : tensor<3xcomplex<f32>>
  %b = stablehlo.constant dense<[(1.0, 2.0), (1.0, 3.0), (1.0, 0.0)]> : tensor<3xcomplex<f32>>
  %eq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xi1>
  check.expect_eq_const %eq, dense<[true, false, false]> : tensor<3xi1>
  %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xi1>
  check.expect_eq_const %lt, dense<[false, true, true]> : tensor<3xi1>
  func.return
}

// -----

func.func @select() {
  %p = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
  %t = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf16>
  %f = stablehlo.constant dense<[-1.0, -2.0, -3.0]> : tensor<3xf16>
  %r = stablehlo.select %p, %t, %f : tensor<3xi1>, tensor<3xf16>
  check.expect_eq_const %r, dense<[1.0, -2.0, 3.0]> : tensor<3xf16>
  %s = stablehlo.constant dense<false> : tensor<i1>
  %u = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %v = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
  %w = stablehlo.select %s, %u, %v : tensor<i1>, tensor<2x2xi64>
  check.expect_eq_const %w, dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
  func.return
}

// -----

func.func @clamp() {
  %lo = stablehlo.constant dense<0.0> : tensor<f32>
  %x = stablehlo.constant dense<[-1.0, 0.5, 7.0, 0x7FC00000, -0.0]> : tensor<5xf32>
  %hi = stablehlo.constant dense<[1.0, 0.25, 8.0, 1.0, 1.0]> : tensor<5xf32>
  %r = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  check.expect_eq_const %r, dense<[0.0, 0.25, 7.0, 0x7FC00000, 0.0]> : tensor<5xf32>
  %a = stablehlo.constant dense<-2> : tensor<i8>
  %b = stablehlo.constant dense<[-128, 0, 127]> : tensor<3xi8>
  %c = stablehlo.constant dense<5> : tensor<i8>
  %s = stablehlo.clamp %a, %b, %c : (tensor<i8>, tensor<3xi8>, tensor<i8>) -> tensor<3xi8>
  check.expect_eq_const %s, dense<[-2, 0, 5]> : tensor<3xi8>
  %d = stablehlo.constant dense<10> : tensor<ui8>
  %e = stablehlo.constant dense<[0, 50, 250]> : tensor<3xui8>
  %g = stablehlo.constant dense<200> : tensor<ui8>
  %h = stablehlo.clamp %d, %e, %g : (tensor<ui8>, tensor<3xui8>, tensor<ui8>) -> tensor<3xui8>
  check.expect_eq_const %h, dense<[10, 50, 200]> : tensor<3xui8>
  func.return
}
