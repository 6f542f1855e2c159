// RUN: xlac run --split-input-file %s

// Shift amounts are read as unsigned; shifting by the bit width or more
// gives 0, or the sign fill for arithmetic right shifts.

func.func @shift_left() {
  %a = stablehlo.constant dense<[1, 1, 1, -1, 3]> : tensor<5xi8>
  %b = stablehlo.constant dense<[7, 8, -1, 1, 2]> : tensor<5xi8>
  %r = stablehlo.shift_left %a, %b : tensor<5xi8>
  check.expect_eq_const %r, dense<[-128, 0, 0, -2, 12]> : tensor<5xi8>
  %c = stablehlo.constant dense<[1, 1]> : tensor<2xui64>
  %d = stablehlo.constant dense<[63, 64]> : tensor<2xui64>
  %s = stablehlo.shift_left %c, %d : tensor<2xui64>
  check.expect_eq_const %s, dense<[9223372036854775808, 0]> : tensor<2xui64>
  func.return
}

// -----

func.func @shift_right_arithmetic() {
  %a = stablehlo.constant dense<[-128, -128, 64, -1, 100]> : tensor<5xi8>
  %b = stablehlo.constant dense<[3, 9, 100, -3, 0]> : tensor<5xi8>
  %r = stablehlo.shift_right_arithmetic %a, %b : tensor<5xi8>
  check.expect_eq_const %r, dense<[-16, -1, 0, -1, 100]> : tensor<5xi8>
  %c = stablehlo.constant dense<[200, 200]> : tensor<2xui8>
  %d = stablehlo.constant dense<[1, 8]> : tensor<2xui8>
  %s = stablehlo.shift_right_arithmetic %c, %d : tensor<2xui8>
  check.expect_eq_const %s, dense<[228, 255]> : tensor<2xui8>
  func.return
}

// -----

func.func @shift_right_logical() {
  %a = stablehlo.constant dense<[-128, -1, -1, 64]> : tensor<4xi8>
  %b = stablehlo.constant dense<[7, 8, 4, 1]> : tensor<4xi8>
  %r = stablehlo.shift_right_logical %a, %b : tensor<4xi8>
  check.expect_eq_const %r, dense<[1, 0, 15, 32]> : tensor<4xi8>
  %c = stablehlo.constant dense<[-1, -1]> : tensor<2xi64>
  %d = stablehlo.constant dense<[1, 64]> : tensor<2xi64>
  %s = stablehlo.shift_right_logical %c, %d : tensor<2xi64>
  check.expect_eq_const %s, dense<[9223372036854775807, 0]> : tensor<2xi64>
  %e = stablehlo.constant dense<[-8, -8]> : tensor<2xi4>
  %f = stablehlo.constant dense<[1, 3]> : tensor<2xi4>
  %t = stablehlo.shift_right_logical %e, %f : tensor<2xi4>
  check.expect_eq_const %t, dense<[4, 1]> : tensor<2xi4>
  func.return
}

// -----

func.func @and_or_xor_not() {
  %a = stablehlo.constant dense<[12, -1, 0]> : tensor<3xi16>
  %b = stablehlo.constant dense<[10, 255, -1]> : tensor<3xi16>
  %x = stablehlo.and %a, %b : tensor<3xi16>
  check.expect_eq_const %x, dense<[8, 255, 0]> : tensor<3xi16>
  %y = stablehlo.or %a, %b : tensor<3xi16>
  check.expect_eq_const %y, dense<[14, -1, -1]> : tensor<3xi16>
  %z = stablehlo.xor %a, %b : tensor<3xi16>
  check.expect_eq_const %z, dense<[6, -256, -1]> : tensor<3xi16>
  %n = stablehlo.not %a : tensor<3xi16>
  check.expect_eq_const %n, dense<[-13, 0, -1]> : tensor<3xi16>
  %u = stablehlo.constant dense<[0, 5]> : tensor<2xui4>
  %nu = stablehlo.not %u : tensor<2xui4>
  check.expect_eq_const %nu, dense<[15, 10]> : tensor<2xui4>
  func.return
}

// -----

func.func @bool_logic() {
  %a = stablehlo.constant dense<[true, true, false, false]> : tensor<4xi1>
  %b = stablehlo.constant dense<[true, false, true, false]> : tensor<4xi1>
  %x = stablehlo.and %a, %b : tensor<4xi1>
  check.expect_eq_const %x, dense<[true, false, false, false]> : tensor<4xi1>
  %y = stablehlo.or %a, %b : tensor<4xi1>
  check.expect_eq_const %y, dense<[true, true, true, false]> : tensor<4xi1>
  %z = stablehlo.xor %a, %b : tensor<4xi1>
  check.expect_eq_const %z, dense<[false, true, true, false]> : tensor<4xi1>
  %n = stablehlo.not %a : tensor<4xi1>
  check.expect_eq_const %n, dense<[false, false, true, true]> : tensor<4xi1>
  func.return
}

// -----

func.func @popcnt_clz() {
  %a = stablehlo.constant dense<[0, 1, -1, 64, -128]> : tensor<5xi8>
  %p = stablehlo.popcnt %a : tensor<5xi8>
  check.expect_eq_const %p, dense<[0, 1, 8, 1, 1]> : tensor<5xi8>
  %c = stablehlo.count_leading_zeros %a : tensor<5xi8>
  check.expect_eq_const %c, dense<[8, 7, 0, 1, 0]> : tensor<5xi8>
  %b = stablehlo.constant dense<[0, 1, 18446744073709551615]> : tensor<3xui64>
  %cb = stablehlo.count_leading_zeros %b : tensor<3xui64>
  check.expect_eq_const %cb, dense<[64, 63, 0]> : tensor<3xui64>
  %pb = stablehlo.popcnt %b : tensor<3xui64>
  check.expect_eq_const %pb, dense<[0, 1, 64]> : tensor<3xui64>
  %d = stablehlo.constant dense<[0, 1, -2, -1]> : tensor<4xi2>
  %cd = stablehlo.count_leading_zeros %d : tensor<4xi2>
  check.expect_eq_const %cd, dense<[2, 1, 0, 0]> : tensor<4xi2>
  func.return
}
