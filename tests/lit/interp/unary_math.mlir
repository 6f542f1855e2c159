// RUN: xlac run --split-input-file %s

// The unary math ops on every float width, their special values, and the
// accurate-near-zero variants (exponential_minus_one, log_plus_one).

func.func @exp_log_f64() {
  %x = stablehlo.constant dense<[0.0, 1.0, -1.0, 0xFFF0000000000000, 0x7FF0000000000000]> : tensor<5xf64>
  %e = stablehlo.exponential %x : tensor<5xf64>
  check.expect_almost_eq_const %e, dense<[1.0, 2.718281828459045, 0.36787944117144233, 0.0, 0x7FF0000000000000]> : tensor<5xf64>
  %y = stablehlo.constant dense<[1.0, 2.0, 0.0, -1.0, 0x7FF0000000000000]> : tensor<5xf64>
  %l = stablehlo.log %y : tensor<5xf64>
  check.expect_almost_eq_const %l, dense<[0.0, 0.69314718055994529, 0xFFF0000000000000, 0x7FF8000000000000, 0x7FF0000000000000]> : tensor<5xf64>
  func.return
}

// -----

func.func @exp_log_f32_exact_rounding() {
  %x = stablehlo.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %e = stablehlo.exponential %x : tensor<2xf32>
  check.expect_eq_const %e, dense<[2.71828175, 0.36787945]> : tensor<2xf32>
  %y = stablehlo.constant dense<[2.0]> : tensor<1xf32>
  %l = stablehlo.log %y : tensor<1xf32>
  check.expect_eq_const %l, dense<[0.693147182]> : tensor<1xf32>
  func.return
}

// -----

func.func @expm1_log1p_near_zero() {
  %x = stablehlo.constant dense<[1.0e-10, -0.0, 0xFFF0000000000000]> : tensor<3xf64>
  %e = stablehlo.exponential_minus_one %x : tensor<3xf64>
  check.expect_eq_const %e, dense<[1.00000000005e-10, -0.0, -1.0]> : tensor<3xf64>
  %y = stablehlo.constant dense<[-1.0e-12, -1.0, -2.0]> : tensor<3xf64>
  %l = stablehlo.log_plus_one %y : tensor<3xf64>
  check.expect_eq_const %l, dense<[-1.0000000000005e-12, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<3xf64>
  %z = stablehlo.constant dense<[1.0e-4]> : tensor<1xf16>
  %m = stablehlo.exponential_minus_one %z : tensor<1xf16>
  check.expect_eq_const %m, dense<[1.0e-4]> : tensor<1xf16>
  func.return
}

// -----

func.func @logistic() {
  %x = stablehlo.constant dense<[0.0, 1.0, -800.0, 800.0]> : tensor<4xf64>
  %r = stablehlo.logistic %x : tensor<4xf64>
  check.expect_eq_const %r, dense<[0.5, 0.7310585786300049, 0.0, 1.0]> : tensor<4xf64>
  %y = stablehlo.constant dense<[1.0, -100.0]> : tensor<2xf32>
  %s = stablehlo.logistic %y : tensor<2xf32>
  check.expect_eq_const %s, dense<[0.731058598, 3.78350585e-44]> : tensor<2xf32>
  func.return
}

// -----

func.func @sqrt_rsqrt_cbrt() {
  %x = stablehlo.constant dense<[4.0, 0.0, -0.0, -1.0, 0x7F800000]> : tensor<5xf32>
  %s = stablehlo.sqrt %x : tensor<5xf32>
  check.expect_eq_const %s, dense<[2.0, 0.0, -0.0, 0x7FC00000, 0x7F800000]> : tensor<5xf32>
  %r = stablehlo.rsqrt %x : tensor<5xf32>
  check.expect_eq_const %r, dense<[0.5, 0x7F800000, 0xFF800000, 0x7FC00000, 0.0]> : tensor<5xf32>
  %y = stablehlo.constant dense<[-27.0, 8.0, -0.0]> : tensor<3xf64>
  %c = stablehlo.cbrt %y : tensor<3xf64>
  check.expect_almost_eq_const %c, dense<[-3.0, 2.0, -0.0]> : tensor<3xf64>
  %z = stablehlo.constant dense<[2.0]> : tensor<1xbf16>
  %q = stablehlo.sqrt %z : tensor<1xbf16>
  check.expect_eq_const %q, dense<[1.4140625]> : tensor<1xbf16>
  func.return
}

// -----

func.func @trig() {
  %x = stablehlo.constant dense<[0.0, 1.0, -0.0]> : tensor<3xf64>
  %s = stablehlo.sine %x : tensor<3xf64>
  check.expect_almost_eq_const %s, dense<[0.0, 0.8414709848078965, -0.0]> : tensor<3xf64>
  %c = stablehlo.cosine %x : tensor<3xf64>
  check.expect_almost_eq_const %c, dense<[1.0, 0.5403023058681398, 1.0]> : tensor<3xf64>
  %t = stablehlo.tan %x : tensor<3xf64>
  check.expect_almost_eq_const %t, dense<[0.0, 1.5574077246549023, -0.0]> : tensor<3xf64>
  %h = stablehlo.tanh %x : tensor<3xf64>
  check.expect_almost_eq_const %h, dense<[0.0, 0.76159415595576485, -0.0]> : tensor<3xf64>
  %y = stablehlo.constant dense<[1.0, 0x7F800000]> : tensor<2xf32>
  %sy = stablehlo.sine %y : tensor<2xf32>
  check.expect_eq_const %sy, dense<[0.841470957, 0x7FC00000]> : tensor<2xf32>
  %hy = stablehlo.tanh %y : tensor<2xf32>
  check.expect_eq_const %hy, dense<[0.761594176, 1.0]> : tensor<2xf32>
  func.return
}

// -----

func.func @rounding() {
  %x = stablehlo.constant dense<[2.5, -2.5, 3.5, -0.5, 0.49999997, 1.7, -1.7, 0x7FC00000]> : tensor<8xf32>
  %e = stablehlo.round_nearest_even %x : tensor<8xf32>
  check.expect_eq_const %e, dense<[2.0, -2.0, 4.0, -0.0, 0.0, 2.0, -2.0, 0x7FC00000]> : tensor<8xf32>
  %a = stablehlo.round_nearest_afz %x : tensor<8xf32>
  check.expect_eq_const %a, dense<[3.0, -3.0, 4.0, -1.0, 0.0, 2.0, -2.0, 0x7FC00000]> : tensor<8xf32>
  %f = stablehlo.floor %x : tensor<8xf32>
  check.expect_eq_const %f, dense<[2.0, -3.0, 3.0, -1.0, 0.0, 1.0, -2.0, 0x7FC00000]> : tensor<8xf32>
  %c = stablehlo.ceil %x : tensor<8xf32>
  check.expect_eq_const %c, dense<[3.0, -2.0, 4.0, -0.0, 1.0, 2.0, -1.0, 0x7FC00000]> : tensor<8xf32>
  %h = stablehlo.constant dense<[0.5, 1.5, -1.5]> : tensor<3xf16>
  %he = stablehlo.round_nearest_even %h : tensor<3xf16>
  check.expect_eq_const %he, dense<[0.0, 2.0, -2.0]> : tensor<3xf16>
  func.return
}

// -----

func.func @abs_negate_sign_floats() {
  %x = stablehlo.constant dense<[-0.0, 0.0, -2.5, 0x7FF0000000000000, 0x7FF8000000000000]> : tensor<5xf64>
  %a = stablehlo.abs %x : tensor<5xf64>
  check.expect_eq_const %a, dense<[0.0, 0.0, 2.5, 0x7FF0000000000000, 0x7FF8000000000000]> : tensor<5xf64>
  %n = stablehlo.negate %x : tensor<5xf64>
  check.expect_eq_const %n, dense<[0.0, -0.0, 2.5, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<5xf64>
  %s = stablehlo.sign %x : tensor<5xf64>
  check.expect_eq_const %s, dense<[-0.0, 0.0, -1.0, 1.0, 0x7FF8000000000000]> : tensor<5xf64>
  %y = stablehlo.constant dense<[-3.0, 0.0]> : tensor<2xbf16>
  %sy = stablehlo.sign %y : tensor<2xbf16>
  check.expect_eq_const %sy, dense<[-1.0, 0.0]> : tensor<2xbf16>
  func.return
}

// -----

func.func @is_finite() {
  %x = stablehlo.constant dense<[1.0, 0x7C00, 0xFC00, 0x7E00, -0.0]> : tensor<5xf16>
  %r = stablehlo.is_finite %x : (tensor<5xf16>) -> tensor<5xi1>
  check.expect_eq_const %r, dense<[true, false, false, false, true]> : tensor<5xi1>
  %y = stablehlo.constant dense<[448.0, 0x7F]> : tensor<2xf8E4M3FN>
  %s = stablehlo.is_finite %y : (tensor<2xf8E4M3FN>) -> tensor<2xi1>
  check.expect_eq_const %s, dense<[true, false]> : tensor<2xi1>
  func.return
}

// -----

func.func @copy_like_ops_keep_bits() {
  %x = stablehlo.constant dense<[0x7FF8000000000001, -0.0]> : tensor<2xf64>
  %n = stablehlo.negate %x : tensor<2xf64>
  %m = stablehlo.negate %n : tensor<2xf64>
  check.expect_eq_const %m, dense<[0x7FF8000000000001, -0.0]> : tensor<2xf64>
  func.return
}
