// RUN: xlac run --split-input-file %s

// CHLO unary elementwise ops and the complex-number paths of the
// StableHLO math ops (abs of complex is real; real/imag/complex).

func.func @chlo_inverse_trig_hyperbolic() {
  %x = stablehlo.constant dense<[0.5, 1.0, 2.0]> : tensor<3xf64>
  %acos = "chlo.acos"(%x) : (tensor<3xf64>) -> tensor<3xf64>
  check.expect_almost_eq_const %acos, dense<[1.0471975511965979, 0.0, 0x7FF8000000000000]> : tensor<3xf64>
  %asin = "chlo.asin"(%x) : (tensor<3xf64>) -> tensor<3xf64>
  check.expect_almost_eq_const %asin, dense<[0.5235987755982989, 1.5707963267948966, 0x7FF8000000000000]> : tensor<3xf64>
  %atan = "chlo.atan"(%x) : (tensor<3xf64>) -> tensor<3xf64>
  check.expect_almost_eq_const %atan, dense<[0.46364760900080609, 0.7853981633974483, 1.1071487177940904]> : tensor<3xf64>
  %acosh = "chlo.acosh"(%x) : (tensor<3xf64>) -> tensor<3xf64>
  check.expect_almost_eq_const %acosh, dense<[0x7FF8000000000000, 0.0, 1.3169578969248166]> : tensor<3xf64>
  %asinh = "chlo.asinh"(%x) : (tensor<3xf64>) -> tensor<3xf64>
  check.expect_almost_eq_const %asinh, dense<[0.48121182505960347, 0.881373587019543, 1.4436354751788103]> : tensor<3xf64>
  %atanh = "chlo.atanh"(%x) : (tensor<3xf64>) -> tensor<3xf64>
  check.expect_almost_eq_const %atanh, dense<[0.5493061443340548, 0x7FF0000000000000, 0x7FF8000000000000]> : tensor<3xf64>
  %cosh = "chlo.cosh"(%x) : (tensor<3xf64>) -> tensor<3xf64>
  check.expect_almost_eq_const %cosh, dense<[1.1276259652063807, 1.5430806348152437, 3.7621956910836314]> : tensor<3xf64>
  %sinh = "chlo.sinh"(%x) : (tensor<3xf64>) -> tensor<3xf64>
  check.expect_almost_eq_const %sinh, dense<[0.52109530549374738, 1.1752011936438014, 3.6268604078470186]> : tensor<3xf64>
  %tan = "chlo.tan"(%x) : (tensor<3xf64>) -> tensor<3xf64>
  check.expect_almost_eq_const %tan, dense<[0.54630248984379048, 1.5574077246549023, -2.1850398632615189]> : tensor<3xf64>
  func.return
}

// -----

func.func @chlo_square_conj_is_inf() {
  %x = stablehlo.constant dense<[-3, 100]> : tensor<2xi8>
  %s = "chlo.square"(%x) : (tensor<2xi8>) -> tensor<2xi8>
  check.expect_eq_const %s, dense<[9, 16]> : tensor<2xi8>
  %c = stablehlo.constant dense<[(1.0, 2.0)]> : tensor<1xcomplex<f32>>
  %cs = "chlo.square"(%c) : (tensor<1xcomplex<f32>>) -> tensor<1xcomplex<f32>>
  check.expect_eq_const %cs, dense<[(-3.0, 4.0)]> : tensor<1xcomplex<f32>>
  %cj = "chlo.conj"(%c) : (tensor<1xcomplex<f32>>) -> tensor<1xcomplex<f32>>
  check.expect_eq_const %cj, dense<[(1.0, -2.0)]> : tensor<1xcomplex<f32>>
  %f = stablehlo.constant dense<[0xFC00, 0x7C00, 0x7E00, 1.0]> : tensor<4xf16>
  %i = "chlo.is_inf"(%f) : (tensor<4xf16>) -> tensor<4xi1>
  check.expect_eq_const %i, dense<[true, true, false, false]> : tensor<4xi1>
  %p = "chlo.is_pos_inf"(%f) : (tensor<4xf16>) -> tensor<4xi1>
  check.expect_eq_const %p, dense<[false, true, false, false]> : tensor<4xi1>
  %n = "chlo.is_neg_inf"(%f) : (tensor<4xf16>) -> tensor<4xi1>
  check.expect_eq_const %n, dense<[true, false, false, false]> : tensor<4xi1>
  func.return
}

// -----

func.func @complex_arith() {
  %a = stablehlo.constant dense<[(1.5, 2.5), (7.5, 5.5)]> : tensor<2xcomplex<f64>>
  %b = stablehlo.constant dense<[(2.5, 1.5), (5.5, 7.5)]> : tensor<2xcomplex<f64>>
  %s = stablehlo.add %a, %b : tensor<2xcomplex<f64>>
  check.expect_eq_const %s, dense<[(4.0, 4.0), (13.0, 13.0)]> : tensor<2xcomplex<f64>>
  %m = stablehlo.multiply %a, %b : tensor<2xcomplex<f64>>
  check.expect_eq_const %m, dense<[(0.0, 8.5), (0.0, 86.5)]> : tensor<2xcomplex<f64>>
  %d = stablehlo.divide %a, %b : tensor<2xcomplex<f64>>
  check.expect_almost_eq_const %d, dense<[(0.88235294117647056, 0.4705882352941177), (0.95375722543352603, -0.30057803468208094)]> : tensor<2xcomplex<f64>>
  %mx = stablehlo.maximum %a, %b : tensor<2xcomplex<f64>>
  check.expect_eq_const %mx, dense<[(2.5, 1.5), (7.5, 5.5)]> : tensor<2xcomplex<f64>>
  %mn = stablehlo.minimum %a, %b : tensor<2xcomplex<f64>>
  check.expect_eq_const %mn, dense<[(1.5, 2.5), (5.5, 7.5)]> : tensor<2xcomplex<f64>>
  func.return
}

// -----

func.func @complex_unary() {
  %z = stablehlo.constant dense<[(3.0, 4.0), (0.0, 0.0)]> : tensor<2xcomplex<f32>>
  %a = stablehlo.abs %z : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  check.expect_eq_const %a, dense<[5.0, 0.0]> : tensor<2xf32>
  %s = stablehlo.sign %z : tensor<2xcomplex<f32>>
  check.expect_almost_eq_const %s, dense<[(0.6, 0.8), (0.0, 0.0)]> : tensor<2xcomplex<f32>>
  %q = stablehlo.sqrt %z : tensor<2xcomplex<f32>>
  check.expect_almost_eq_const %q, dense<[(2.0, 1.0), (0.0, 0.0)]> : tensor<2xcomplex<f32>>
  %n = stablehlo.negate %z : tensor<2xcomplex<f32>>
  check.expect_eq_const %n, dense<[(-3.0, -4.0), (-0.0, -0.0)]> : tensor<2xcomplex<f32>>
  %w = stablehlo.constant dense<[(0.0, 3.14159265358979323846), (1.0, 0.0)]> : tensor<2xcomplex<f64>>
  %e = stablehlo.exponential %w : tensor<2xcomplex<f64>>
  check.expect_almost_eq_const %e, dense<[(-1.0, 0.0), (2.718281828459045, 0.0)]> : tensor<2xcomplex<f64>>
  %l = stablehlo.log %w : tensor<2xcomplex<f64>>
  check.expect_almost_eq_const %l, dense<[(1.1447298858494002, 1.5707963267948966), (0.0, 0.0)]> : tensor<2xcomplex<f64>>
  %t = stablehlo.tanh %w : tensor<2xcomplex<f64>>
  check.expect_almost_eq_const %t, dense<[(0.0, 0.0), (0.76159415595576485, 0.0)]> : tensor<2xcomplex<f64>>
  %r = stablehlo.rsqrt %w : tensor<2xcomplex<f64>>
  check.expect_almost_eq_const %r, dense<[(0.39894228040143268, -0.39894228040143268), (1.0, 0.0)]> : tensor<2xcomplex<f64>>
  %e1 = stablehlo.exponential_minus_one %w : tensor<2xcomplex<f64>>
  check.expect_almost_eq_const %e1, dense<[(-2.0, 0.0), (1.718281828459045, 0.0)]> : tensor<2xcomplex<f64>>
  func.return
}

// -----

func.func @real_imag_complex() {
  %z = stablehlo.constant dense<[(1.0, -2.0), (0.5, 0.25)]> : tensor<2xcomplex<f64>>
  %re = stablehlo.real %z : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  check.expect_eq_const %re, dense<[1.0, 0.5]> : tensor<2xf64>
  %im = stablehlo.imag %z : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  check.expect_eq_const %im, dense<[-2.0, 0.25]> : tensor<2xf64>
  %c = stablehlo.complex %im, %re : tensor<2xcomplex<f64>>
  check.expect_eq_const %c, dense<[(-2.0, 1.0), (0.25, 0.5)]> : tensor<2xcomplex<f64>>
  %f = stablehlo.constant dense<[3.0]> : tensor<1xf32>
  %fi = stablehlo.imag %f : tensor<1xf32>
  check.expect_eq_const %fi, dense<[0.0]> : tensor<1xf32>
  %fr = stablehlo.real %f : tensor<1xf32>
  check.expect_eq_const %fr, dense<[3.0]> : tensor<1xf32>
  func.return
}
