// RUN: xlac run --split-input-file %s

// CHLO special functions against known values (computed in double and
// rounded once), and their domain edges.

func.func @erf_erfc_erf_inv() {
  %x = stablehlo.constant dense<[0.5, -0.0, 0x7FF0000000000000]> : tensor<3xf64>
  %e = "chlo.erf"(%x) : (tensor<3xf64>) -> tensor<3xf64>
  check.expect_almost_eq_const %e, dense<[0.5204998778130465, -0.0, 1.0]> : tensor<3xf64>
  %y = stablehlo.constant dense<[5.0, 0.0]> : tensor<2xf64>
  %c = "chlo.erfc"(%y) : (tensor<2xf64>) -> tensor<2xf64>
  %cw = stablehlo.constant dense<[1.5374597944280351e-12, 1.0]> : tensor<2xf64>
  check.expect_close %c, %cw, max_ulp_difference = 2 : tensor<2xf64>, tensor<2xf64>
  %z = stablehlo.constant dense<[0.5, -0.5, 1.0, -1.0, 1.5, 0.0]> : tensor<6xf64>
  %i = "chlo.erf_inv"(%z) : (tensor<6xf64>) -> tensor<6xf64>
  check.expect_almost_eq_const %i, dense<[0.47693627620446987, -0.47693627620446987, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0.0]> : tensor<6xf64>
  %f = stablehlo.constant dense<[0.5, 0.999]> : tensor<2xf32>
  %fi = "chlo.erf_inv"(%f) : (tensor<2xf32>) -> tensor<2xf32>
  check.expect_almost_eq_const %fi, dense<[0.476936281, 2.32675266]> : tensor<2xf32>
  func.return
}

// -----

func.func @lgamma_digamma() {
  %x = stablehlo.constant dense<[0.5, 1.0, 3.0, -0.5, 0.0]> : tensor<5xf64>
  %l = "chlo.lgamma"(%x) : (tensor<5xf64>) -> tensor<5xf64>
  check.expect_almost_eq_const %l, dense<[0.5723649429247004, 0.0, 0.69314718055994529, 1.265512123484645, 0x7FF0000000000000]> : tensor<5xf64>
  %d = "chlo.digamma"(%x) : (tensor<5xf64>) -> tensor<5xf64>
  check.expect_almost_eq_const %d, dense<[-1.9635100260214235, -0.57721566490153286, 0.92278433509846713, 0.03648997397857652, 0x7FF8000000000000]> : tensor<5xf64>
  %h = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf16>
  %dh = "chlo.digamma"(%h) : (tensor<2xf16>) -> tensor<2xf16>
  check.expect_eq_const %dh, dense<[-0.5771, 0.4229]> : tensor<2xf16>
  func.return
}

// -----

func.func @igamma_igammac() {
  %a = stablehlo.constant dense<[2.0, 0.5, 1.0, 3.0, -1.0]> : tensor<5xf64>
  %x = stablehlo.constant dense<[1.0, 2.0, 30.0, 0.0, 1.0]> : tensor<5xf64>
  %p = "chlo.igamma"(%a, %x) : (tensor<5xf64>, tensor<5xf64>) -> tensor<5xf64>
  // P(2, 1) = 1 - 2/e; P(1/2, x) = erf(sqrt(x)); P(1, 30) = 1 - e^-30
  check.expect_almost_eq_const %p, dense<[0.26424111765711533, 0.95449973610364158, 0.99999999999990641, 0.0, 0x7FF8000000000000]> : tensor<5xf64>
  %q = "chlo.igammac"(%a, %x) : (tensor<5xf64>, tensor<5xf64>) -> tensor<5xf64>
  check.expect_almost_eq_const %q, dense<[0.73575888234288467, 0.045500263896358417, 9.3576229688401746e-14, 1.0, 0x7FF8000000000000]> : tensor<5xf64>
  func.return
}

// -----

func.func @zeta_polygamma() {
  %s = stablehlo.constant dense<[2.0, 4.0, 2.0, 1.0, 0.5]> : tensor<5xf64>
  %q = stablehlo.constant dense<[1.0, 1.0, 0.5, 1.0, 1.0]> : tensor<5xf64>
  %z = "chlo.zeta"(%s, %q) : (tensor<5xf64>, tensor<5xf64>) -> tensor<5xf64>
  check.expect_almost_eq_const %z, dense<[1.6449340668482264, 1.082323233711138, 4.934802200544679, 0x7FF0000000000000, 0x7FF8000000000000]> : tensor<5xf64>
  %n = stablehlo.constant dense<[1.0, 2.0, 0.0, 1.5]> : tensor<4xf64>
  %x = stablehlo.constant dense<[1.0, 1.0, 1.0, 1.0]> : tensor<4xf64>
  %p = "chlo.polygamma"(%n, %x) : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  check.expect_almost_eq_const %p, dense<[1.6449340668482264, -2.4041138063191885, -0.57721566490153286, 0x7FF8000000000000]> : tensor<4xf64>
  func.return
}

// -----

func.func @bessel_i1e() {
  %x = stablehlo.constant dense<[0.0, 1.0, -1.0, 100.0, 0x7FF0000000000000]> : tensor<5xf64>
  %r = "chlo.bessel_i1e"(%x) : (tensor<5xf64>) -> tensor<5xf64>
  check.expect_almost_eq_const %r, dense<[0.0, 0.20791041534970844, -0.20791041534970844, 0.039744153025130, 0.0]> : tensor<5xf64>
  func.return
}

// -----

func.func @next_after() {
  %x = stablehlo.constant dense<[1.0, 0.0, -1.0, 1.0, 0x7FC00000]> : tensor<5xf32>
  %y = stablehlo.constant dense<[2.0, -1.0, 0.0, 1.0, 1.0]> : tensor<5xf32>
  %r = "chlo.next_after"(%x, %y) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  check.expect_eq_const %r, dense<[1.00000012, 0x80000001, -0.99999994, 1.0, 0x7FC00000]> : tensor<5xf32>
  %a = stablehlo.constant dense<[1.0, 65504.0]> : tensor<2xf16>
  %b = stablehlo.constant dense<[0.0, 0x7C00]> : tensor<2xf16>
  %h = "chlo.next_after"(%a, %b) : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  check.expect_eq_const %h, dense<[0.99951171875, 0x7C00]> : tensor<2xf16>
  func.return
}
