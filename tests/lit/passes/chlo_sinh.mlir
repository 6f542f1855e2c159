// RUN: xlac run %s
// RUN: xlac opt --pass chlo-decompose %s | FileCheck %s
// RUN: xlac opt --pass chlo-decompose %s | xlac run -
// The decomposition of chlo.sinh agrees with the interpreter's direct
// implementation (libm in double, rounded once) within 3 ulp, and both with
// the expected values (computed in double and rounded).
// CHECK-LABEL: func.func @main
// CHECK-NOT: chlo.
func.func @main() {
  %x_f32 = stablehlo.constant dense<[0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 1.0, -1.0, 0.5, -0.5, 1.0e-30, -1.0e-30, 1.0e-45, 3.4e+38, -3.4e+38, 2.0, 0.999999, -0.999999, 1.000001, 3.9, 88.5, -89.0, 1.0e+10, 1.0e+20, -1.0e+20, 0.1, -0.3, 0.75, 5.0, 12.0, -7.5, 1.0e-05, 0.9999]> : tensor<32xf32>
  %r_f32 = chlo.sinh %x_f32 : tensor<32xf32> -> tensor<32xf32>
  %e_f32 = stablehlo.constant dense<[0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 1.1752012, -1.1752012, 0.5210953, -0.5210953, 1.0e-30, -1.0e-30, 1.0e-45, 0x7F800000, 0xFF800000, 3.6268604, 1.1751996, -1.1751996, 1.1752026, 24.691107, 1.361544e+38, -2.2448064e+38, 0x7F800000, 0x7F800000, 0xFF800000, 0.10016675, -0.3045203, 0.8223167, 74.20321, 81377.4, -904.02094, 1.0e-05, 1.1750469]> : tensor<32xf32>
  check.expect_close %r_f32, %e_f32, max_ulp_difference = 3 : tensor<32xf32>, tensor<32xf32>
  %x_f64 = stablehlo.constant dense<[0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 1.0, -1.0, 0.5, -0.5, 1.0e-30, -1.0e-30, 1.4e-45, 3.4e+38, -3.4e+38, 2.0, 0.999999, -0.999999, 1.000001, 3.9, 88.5, -89.0, 10000000000.0, 1.0e+20, -1.0e+20, 0.1, -0.3, 0.75, 5.0, 12.0, -7.5, 1.0e-05, 0.9999]> : tensor<32xf64>
  %r_f64 = chlo.sinh %x_f64 : tensor<32xf64> -> tensor<32xf64>
  %e_f64 = stablehlo.constant dense<[0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 1.1752011936438014, -1.1752011936438014, 0.5210953054937474, -0.5210953054937474, 1.0e-30, -1.0e-30, 1.4e-45, 0x7FF0000000000000, 0xFFF0000000000000, 3.6268604078470186, 1.1751996505637543, -1.1751996505637543, 1.1752027367250237, 24.691103597042183, 1.3615439125340558e+38, -2.2448064095871728e+38, 0x7FF0000000000000, 0x7FF0000000000000, 0xFFF0000000000000, 0.10016675001984403, -0.3045202934471426, 0.82231673193583, 74.20321057778875, 81377.39570642986, -904.0209306858466, 1.0000000000166668e-05, 1.1750468914560688]> : tensor<32xf64>
  check.expect_close %r_f64, %e_f64, max_ulp_difference = 3 : tensor<32xf64>, tensor<32xf64>
  func.return
}
