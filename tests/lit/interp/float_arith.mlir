// RUN: xlac run --split-input-file %s

// Float arithmetic rounds once to the element type; maximum/minimum
// propagate NaN and order -0 below +0; remainder takes the dividend's sign.

func.func @arith_f32() {
  %a = stablehlo.constant dense<[1.5, -2.0, 0.1, 3.0e38, 0.0]> : tensor<5xf32>
  %b = stablehlo.constant dense<[2.25, 0.5, 0.2, 3.0e38, -0.0]> : tensor<5xf32>
  %s = stablehlo.add %a, %b : tensor<5xf32>
  check.expect_eq_const %s, dense<[3.75, -1.5, 0.300000012, 0x7F800000, 0.0]> : tensor<5xf32>
  %d = stablehlo.subtract %a, %b : tensor<5xf32>
  check.expect_eq_const %d, dense<[-0.75, -2.5, -0.100000001, 0.0, 0.0]> : tensor<5xf32>
  %m = stablehlo.multiply %a, %b : tensor<5xf32>
  check.expect_eq_const %m, dense<[3.375, -1.0, 0.0200000014, 0x7F800000, -0.0]> : tensor<5xf32>
  %q = stablehlo.divide %a, %b : tensor<5xf32>
  check.expect_eq_const %q, dense<[0.666666686, -4.0, 0.5, 1.0, 0x7FC00000]> : tensor<5xf32>
  func.return
}

// -----

func.func @arith_f64_specials() {
  %a = stablehlo.constant dense<[0x7FF0000000000000, 1.0, -1.0, 0x7FF8000000000000]> : tensor<4xf64>
  %b = stablehlo.constant dense<[0xFFF0000000000000, 0.0, 0.0, 1.0]> : tensor<4xf64>
  %s = stablehlo.add %a, %b : tensor<4xf64>
  check.expect_eq_const %s, dense<[0x7FF8000000000000, 1.0, -1.0, 0x7FF8000000000000]> : tensor<4xf64>
  %q = stablehlo.divide %a, %b : tensor<4xf64>
  check.expect_eq_const %q, dense<[0x7FF8000000000000, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<4xf64>
  func.return
}

// -----

func.func @arith_f16_bf16_rounding() {
  // 2048 + 1 is a tie and rounds to even; 65504 + 16 rounds up to inf
  %a = stablehlo.constant dense<[2048.0, 65504.0, 65504.0, 0.1]> : tensor<4xf16>
  %b = stablehlo.constant dense<[1.0, 8.0, 16.0, 0.2]> : tensor<4xf16>
  %s = stablehlo.add %a, %b : tensor<4xf16>
  check.expect_eq_const %s, dense<[2048.0, 65504.0, 0x7C00, 0.2998]> : tensor<4xf16>
  %c = stablehlo.constant dense<[256.0, 1.0]> : tensor<2xbf16>
  %d = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xbf16>
  %t = stablehlo.add %c, %d : tensor<2xbf16>
  check.expect_eq_const %t, dense<[256.0, 4.0]> : tensor<2xbf16>
  %q = stablehlo.divide %c, %d : tensor<2xbf16>
  check.expect_eq_const %q, dense<[256.0, 0.333984375]> : tensor<2xbf16>
  func.return
}

// -----

func.func @arith_f8() {
  %a = stablehlo.constant dense<[1.0, 448.0, 3.0]> : tensor<3xf8E4M3FN>
  %b = stablehlo.constant dense<[3.0, 0.5, 0.5]> : tensor<3xf8E4M3FN>
  %q = stablehlo.divide %a, %b : tensor<3xf8E4M3FN>
  // 1/3 rounds to 0.34375; 896 has no encoding and no inf: NaN
  check.expect_eq_const %q, dense<[0.34375, 0x7F, 6.0]> : tensor<3xf8E4M3FN>
  %c = stablehlo.constant dense<[57344.0, 1.0]> : tensor<2xf8E5M2>
  %d = stablehlo.constant dense<[57344.0, 0.25]> : tensor<2xf8E5M2>
  %s = stablehlo.add %c, %d : tensor<2xf8E5M2>
  check.expect_eq_const %s, dense<[0x7C, 1.25]> : tensor<2xf8E5M2>
  func.return
}

// -----

func.func @max_min_nan_signed_zero() {
  %a = stablehlo.constant dense<[0x7FC00000, -0.0, 1.0, 0.0, -3.0]> : tensor<5xf32>
  %b = stablehlo.constant dense<[1.0, 0.0, 0x7FC00000, -0.0, 2.0]> : tensor<5xf32>
  %mx = stablehlo.maximum %a, %b : tensor<5xf32>
  check.expect_eq_const %mx, dense<[0x7FC00000, 0.0, 0x7FC00000, 0.0, 2.0]> : tensor<5xf32>
  %mn = stablehlo.minimum %a, %b : tensor<5xf32>
  check.expect_eq_const %mn, dense<[0x7FC00000, -0.0, 0x7FC00000, -0.0, -3.0]> : tensor<5xf32>
  func.return
}

// -----

func.func @max_min_bf16_f64() {
  %a = stablehlo.constant dense<[0x7FC0, -0.0, 1.5]> : tensor<3xbf16>
  %b = stablehlo.constant dense<[-1.0, 0.0, 1.0]> : tensor<3xbf16>
  %mx = stablehlo.maximum %a, %b : tensor<3xbf16>
  check.expect_eq_const %mx, dense<[0x7FC0, 0.0, 1.5]> : tensor<3xbf16>
  %c = stablehlo.constant dense<[0xFFF0000000000000, 5.0]> : tensor<2xf64>
  %d = stablehlo.constant dense<[-1.0e308, 0x7FF8000000000000]> : tensor<2xf64>
  %mn = stablehlo.minimum %c, %d : tensor<2xf64>
  check.expect_eq_const %mn, dense<[0xFFF0000000000000, 0x7FF8000000000000]> : tensor<2xf64>
  func.return
}

// -----

func.func @remainder_floats() {
  %a = stablehlo.constant dense<[-5.5, 5.5, 17.0, 1.0, 0x7FF0000000000000, 3.0]> : tensor<6xf64>
  %b = stablehlo.constant dense<[2.0, -2.0, 3.0, 0.0, 1.0, 0x7FF0000000000000]> : tensor<6xf64>
  %r = stablehlo.remainder %a, %b : tensor<6xf64>
  check.expect_eq_const %r, dense<[-1.5, 1.5, 2.0, 0x7FF8000000000000, 0x7FF8000000000000, 3.0]> : tensor<6xf64>
  %c = stablehlo.constant dense<[-7.5, -0.0]> : tensor<2xf16>
  %d = stablehlo.constant dense<[2.0, 1.0]> : tensor<2xf16>
  %s = stablehlo.remainder %c, %d : tensor<2xf16>
  check.expect_eq_const %s, dense<[-1.5, -0.0]> : tensor<2xf16>
  func.return
}

// -----

func.func @power_floats() {
  %a = stablehlo.constant dense<[-2.0, -0.0, -36.0, 5.0, 3.0, 0.0, 0x7FF8000000000000, 1.0]> : tensor<8xf64>
  %b = stablehlo.constant dense<[2.0, 2.0, 1.1, 2.0, -1.0, 0.0, 0.0, 0x7FF8000000000000]> : tensor<8xf64>
  %p = stablehlo.power %a, %b : tensor<8xf64>
  check.expect_almost_eq_const %p, dense<[4.0, 0.0, 0x7FF8000000000000, 25.0, 0.33333333333333331, 1.0, 1.0, 1.0]> : tensor<8xf64>
  %c = stablehlo.constant dense<[2.0, 10.0]> : tensor<2xf32>
  %d = stablehlo.constant dense<[0.5, 39.0]> : tensor<2xf32>
  %q = stablehlo.power %c, %d : tensor<2xf32>
  check.expect_eq_const %q, dense<[1.41421354, 0x7F800000]> : tensor<2xf32>
  func.return
}

// -----

func.func @atan2_floats() {
  %y = stablehlo.constant dense<[1.0, 1.0, -0.0, 0.0, 0.0]> : tensor<5xf64>
  %x = stablehlo.constant dense<[1.0, -1.0, -1.0, -0.0, 0.0]> : tensor<5xf64>
  %r = stablehlo.atan2 %y, %x : tensor<5xf64>
  check.expect_eq_const %r, dense<[0.78539816339744828, 2.3561944901923448, -3.1415926535897931, 3.1415926535897931, 0.0]> : tensor<5xf64>
  %a = stablehlo.constant dense<[1.0]> : tensor<1xf32>
  %b = stablehlo.constant dense<[-1.0]> : tensor<1xf32>
  %c = stablehlo.atan2 %a, %b : tensor<1xf32>
  check.expect_eq_const %c, dense<[2.3561945]> : tensor<1xf32>
  func.return
}
