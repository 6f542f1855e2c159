// RUN: xlac run --split-input-file %s

// Integer arithmetic wraps at the element width; division and remainder
// follow XLA at the corners (x / 0 = -1 or all ones, x % 0 = x,
// INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0).

func.func @add_sub_mul_i8_wrap() {
  %a = stablehlo.constant dense<[127, -128, 100, -7]> : tensor<4xi8>
  %b = stablehlo.constant dense<[1, -1, 100, 3]> : tensor<4xi8>
  %s = stablehlo.add %a, %b : tensor<4xi8>
  check.expect_eq_const %s, dense<[-128, 127, -56, -4]> : tensor<4xi8>
  %d = stablehlo.subtract %a, %b : tensor<4xi8>
  check.expect_eq_const %d, dense<[126, -127, 0, -10]> : tensor<4xi8>
  %m = stablehlo.multiply %a, %b : tensor<4xi8>
  check.expect_eq_const %m, dense<[127, -128, 16, -21]> : tensor<4xi8>
  func.return
}

// -----

func.func @add_mul_ui_narrow() {
  %a = stablehlo.constant dense<[3, 2, 0]> : tensor<3xui2>
  %b = stablehlo.constant dense<[1, 3, 3]> : tensor<3xui2>
  %s = stablehlo.add %a, %b : tensor<3xui2>
  check.expect_eq_const %s, dense<[0, 1, 3]> : tensor<3xui2>
  %c = stablehlo.constant dense<[7, -8, 5]> : tensor<3xi4>
  %e = stablehlo.constant dense<[1, -1, 3]> : tensor<3xi4>
  %t = stablehlo.add %c, %e : tensor<3xi4>
  check.expect_eq_const %t, dense<[-8, 7, -8]> : tensor<3xi4>
  %u = stablehlo.multiply %c, %e : tensor<3xi4>
  check.expect_eq_const %u, dense<[7, -8, -1]> : tensor<3xi4>
  func.return
}

// -----

func.func @add_i64_ui64_wrap() {
  %a = stablehlo.constant dense<[9223372036854775807, -9223372036854775808]> : tensor<2xi64>
  %b = stablehlo.constant dense<[1, -1]> : tensor<2xi64>
  %s = stablehlo.add %a, %b : tensor<2xi64>
  check.expect_eq_const %s, dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>
  %c = stablehlo.constant dense<[18446744073709551615, 0]> : tensor<2xui64>
  %d = stablehlo.constant dense<[1, 1]> : tensor<2xui64>
  %t = stablehlo.add %c, %d : tensor<2xui64>
  check.expect_eq_const %t, dense<[0, 1]> : tensor<2xui64>
  %u = stablehlo.subtract %t, %d : tensor<2xui64>
  check.expect_eq_const %u, dense<[18446744073709551615, 0]> : tensor<2xui64>
  func.return
}

// -----

func.func @divide_remainder_i32() {
  %a = stablehlo.constant dense<[17, -17, 17, -17, 7, -2147483648, 0]> : tensor<7xi32>
  %b = stablehlo.constant dense<[3, 3, -3, -3, 0, -1, 5]> : tensor<7xi32>
  %q = stablehlo.divide %a, %b : tensor<7xi32>
  check.expect_eq_const %q, dense<[5, -5, -5, 5, -1, -2147483648, 0]> : tensor<7xi32>
  %r = stablehlo.remainder %a, %b : tensor<7xi32>
  check.expect_eq_const %r, dense<[2, -2, 2, -2, 7, 0, 0]> : tensor<7xi32>
  func.return
}

// -----

func.func @divide_remainder_unsigned() {
  %a = stablehlo.constant dense<[17, 255, 7, 0]> : tensor<4xui8>
  %b = stablehlo.constant dense<[3, 16, 0, 0]> : tensor<4xui8>
  %q = stablehlo.divide %a, %b : tensor<4xui8>
  check.expect_eq_const %q, dense<[5, 15, 255, 255]> : tensor<4xui8>
  %r = stablehlo.remainder %a, %b : tensor<4xui8>
  check.expect_eq_const %r, dense<[2, 15, 7, 0]> : tensor<4xui8>
  %c = stablehlo.constant dense<[18446744073709551615]> : tensor<1xui64>
  %d = stablehlo.constant dense<[0]> : tensor<1xui64>
  %e = stablehlo.divide %c, %d : tensor<1xui64>
  check.expect_eq_const %e, dense<[18446744073709551615]> : tensor<1xui64>
  func.return
}

// -----

func.func @divide_i64_min() {
  %a = stablehlo.constant dense<[-9223372036854775808, -9223372036854775808]> : tensor<2xi64>
  %b = stablehlo.constant dense<[-1, 2]> : tensor<2xi64>
  %q = stablehlo.divide %a, %b : tensor<2xi64>
  check.expect_eq_const %q, dense<[-9223372036854775808, -4611686018427387904]> : tensor<2xi64>
  %r = stablehlo.remainder %a, %b : tensor<2xi64>
  check.expect_eq_const %r, dense<[0, 0]> : tensor<2xi64>
  func.return
}

// -----

func.func @power_signed() {
  %a = stablehlo.constant dense<[2, -1, -1, 2, -3, 0, 1, 3]> : tensor<8xi32>
  %b = stablehlo.constant dense<[10, -3, -4, -1, 3, 0, -7, 21]> : tensor<8xi32>
  %p = stablehlo.power %a, %b : tensor<8xi32>
  // 3^21 = 10460353203 wraps to 1870418611 in 32 bits
  check.expect_eq_const %p, dense<[1024, -1, 1, 0, -27, 1, 1, 1870418611]> : tensor<8xi32>
  func.return
}

// -----

func.func @power_unsigned() {
  %a = stablehlo.constant dense<[0, 0, 2, 3, 255]> : tensor<5xui8>
  %b = stablehlo.constant dense<[0, 5, 7, 5, 2]> : tensor<5xui8>
  %p = stablehlo.power %a, %b : tensor<5xui8>
  check.expect_eq_const %p, dense<[1, 0, 128, 243, 1]> : tensor<5xui8>
  func.return
}

// -----

func.func @max_min_ints() {
  %a = stablehlo.constant dense<[-5, 7, -128]> : tensor<3xi8>
  %b = stablehlo.constant dense<[3, -9, 127]> : tensor<3xi8>
  %mx = stablehlo.maximum %a, %b : tensor<3xi8>
  check.expect_eq_const %mx, dense<[3, 7, 127]> : tensor<3xi8>
  %mn = stablehlo.minimum %a, %b : tensor<3xi8>
  check.expect_eq_const %mn, dense<[-5, -9, -128]> : tensor<3xi8>
  %c = stablehlo.constant dense<[200, 1]> : tensor<2xui8>
  %d = stablehlo.constant dense<[100, 255]> : tensor<2xui8>
  %ux = stablehlo.maximum %c, %d : tensor<2xui8>
  check.expect_eq_const %ux, dense<[200, 255]> : tensor<2xui8>
  %un = stablehlo.minimum %c, %d : tensor<2xui8>
  check.expect_eq_const %un, dense<[100, 1]> : tensor<2xui8>
  func.return
}

// -----

func.func @bool_arith() {
  %a = stablehlo.constant dense<[true, true, false, false]> : tensor<4xi1>
  %b = stablehlo.constant dense<[true, false, true, false]> : tensor<4xi1>
  %s = stablehlo.add %a, %b : tensor<4xi1>
  check.expect_eq_const %s, dense<[true, true, true, false]> : tensor<4xi1>
  %m = stablehlo.multiply %a, %b : tensor<4xi1>
  check.expect_eq_const %m, dense<[true, false, false, false]> : tensor<4xi1>
  %mx = stablehlo.maximum %a, %b : tensor<4xi1>
  check.expect_eq_const %mx, dense<[true, true, true, false]> : tensor<4xi1>
  %mn = stablehlo.minimum %a, %b : tensor<4xi1>
  check.expect_eq_const %mn, dense<[true, false, false, false]> : tensor<4xi1>
  func.return
}

// -----

func.func @unary_ints() {
  %a = stablehlo.constant dense<[-128, -5, 0, 127]> : tensor<4xi8>
  %abs = stablehlo.abs %a : tensor<4xi8>
  check.expect_eq_const %abs, dense<[-128, 5, 0, 127]> : tensor<4xi8>
  %neg = stablehlo.negate %a : tensor<4xi8>
  check.expect_eq_const %neg, dense<[-128, 5, 0, -127]> : tensor<4xi8>
  %sg = stablehlo.sign %a : tensor<4xi8>
  check.expect_eq_const %sg, dense<[-1, -1, 0, 1]> : tensor<4xi8>
  %b = stablehlo.constant dense<[0, 1, 255]> : tensor<3xui8>
  %nb = stablehlo.negate %b : tensor<3xui8>
  check.expect_eq_const %nb, dense<[0, 255, 1]> : tensor<3xui8>
  func.return
}

// -----

func.func @zero_sized() {
  %a = stablehlo.constant dense<> : tensor<0xi32>
  %s = stablehlo.divide %a, %a : tensor<0xi32>
  check.expect_eq_const %s, dense<> : tensor<0xi32>
  %b = stablehlo.constant dense<> : tensor<2x0xf32>
  %e = stablehlo.exponential %b : tensor<2x0xf32>
  check.expect_eq_const %e, dense<> : tensor<2x0xf32>
  func.return
}
