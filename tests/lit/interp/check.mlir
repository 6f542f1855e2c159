// RUN: xlac run --split-input-file %s

// Exact checks across element types, edge values included.
func.func @main() {
  %a = stablehlo.constant dense<[-128, 0, 127]> : tensor<3xi8>
  check.expect_eq_const %a, dense<[-128, 0, 127]> : tensor<3xi8>
  %b = stablehlo.constant dense<[0, 18446744073709551615]> : tensor<2xui64>
  check.expect_eq_const %b, dense<[0, 18446744073709551615]> : tensor<2xui64>
  %c = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  check.expect_eq_const %c, dense<[true, false]> : tensor<2xi1>
  %d = stablehlo.constant dense<[0x7FC00000, 0xFF800000, -0.0, 1.0e-45]> : tensor<4xf32>
  // any two NaNs are equal; -0.0 only equals -0.0
  check.expect_eq_const %d, dense<[0x7FC00001, 0xFF800000, -0.0, 1.0e-45]> : tensor<4xf32>
  check.expect_eq %d, %d : tensor<4xf32>
  %e = stablehlo.constant dense<[(1.5, -2.0), (0.0, 3.0)]> : tensor<2xcomplex<f64>>
  check.expect_eq_const %e, dense<[(1.5, -2.0), (0.0, 3.0)]> : tensor<2xcomplex<f64>>
  %f = stablehlo.constant dense<[1.0, 65504.0]> : tensor<2xf16>
  check.expect_eq_const %f, dense<[1.0, 65504.0]> : tensor<2xf16>
  %g = stablehlo.constant dense<[-8, 7]> : tensor<2xi4>
  check.expect_eq_const %g, dense<[-8, 7]> : tensor<2xi4>
  %h = stablehlo.constant dense<> : tensor<0x3xbf16>
  check.expect_eq_const %h, dense<> : tensor<0x3xbf16>
  func.return
}

// -----

// Almost-equal: absolute tolerance, default 1e-4; NaN matches NaN.
func.func @main() {
  %a = stablehlo.constant dense<[5.0, 0x7FF8000000000000, 0x7FF0000000000000, 0.0]> : tensor<4xf64>
  check.expect_almost_eq_const %a, dense<[5.00009, 0x7FF8000000000000, 0x7FF0000000000000, -0.0]> : tensor<4xf64>
  %b = stablehlo.constant dense<[5.1, 0x7FF8000000000000, 0x7FF0000000000000, 0.0]> : tensor<4xf64>
  check.expect_almost_eq %a, %b, tolerance = 0.2 : tensor<4xf64>
  check.expect_almost_eq_const %a, dense<[4.9, 0x7FF8000000000000, 0x7FF0000000000000, 0.05]> : tensor<4xf64> {tolerance = 0.1 : f64}
  %c = stablehlo.constant dense<[(1.0, 2.0)]> : tensor<1xcomplex<f32>>
  check.expect_almost_eq_const %c, dense<[(1.00001, 1.99999)]> : tensor<1xcomplex<f32>>
  %i = stablehlo.constant dense<[3, 4]> : tensor<2xi32>
  check.expect_almost_eq_const %i, dense<[3, 4]> : tensor<2xi32>
  func.return
}

// -----

// ULP closeness: bf16 1.0 and 1.0078125 are one ULP apart.
func.func @main() {
  %a = stablehlo.constant dense<[1.0, -0.0, 0x7FC0]> : tensor<3xbf16>
  %b = stablehlo.constant dense<[1.0078125, 0.0, 0x7FC1]> : tensor<3xbf16>
  check.expect_close %a, %b : tensor<3xbf16>, tensor<3xbf16>
  check.expect_close %a, %b, max_ulp_difference = 3 : tensor<3xbf16>, tensor<3xbf16>
  %c = stablehlo.constant dense<[1.0]> : tensor<1xbf16>
  %d = stablehlo.constant dense<[1.0234375]> : tensor<1xbf16>
  check.expect_close %c, %d, max_ulp_difference = 3, min_ulp_difference = 3 : tensor<1xbf16>, tensor<1xbf16>
  // across zero the distances from zero add up
  %e = stablehlo.constant dense<[1.0e-45]> : tensor<1xf32>
  %f = stablehlo.constant dense<[-1.0e-45]> : tensor<1xf32>
  check.expect_close %e, %f, max_ulp_difference = 2 : tensor<1xf32>, tensor<1xf32>
  func.return
}

// -----

// The check.* custom calls of StableHLO's generated tests.
func.func @main() -> tensor<i1> {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[1.00001, 2.0]> : tensor<2xf32>
  %i = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  stablehlo.custom_call @check.expect_eq(%i, %i) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()
  stablehlo.custom_call @check.expect_close(%a, %a) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  stablehlo.custom_call @check.expect_almost_eq(%a, %b) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  %r = stablehlo.custom_call @check.eq(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<i1>
  check.expect_eq_const %r, dense<true> : tensor<i1>
  func.return %r : tensor<i1>
}
