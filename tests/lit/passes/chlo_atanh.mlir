// RUN: xlac run %s
// RUN: xlac opt --pass chlo-decompose %s | FileCheck %s
// RUN: xlac opt --pass chlo-decompose %s | xlac run -
// The decomposition of chlo.atanh agrees with the interpreter's direct
// implementation (libm in double, rounded once) within 3 ulp, and both with
// the expected values (computed in double and rounded).
// CHECK-LABEL: func.func @main
// CHECK-NOT: chlo.
func.func @main() {
  %x_f32 = stablehlo.constant dense<[0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 1.0, -1.0, 0.5, -0.5, 1.0e-30, -1.0e-30, 1.0e-45, 3.4e+38, -3.4e+38, 2.0, 0.999999, -0.999999, 1.000001, 3.9, 88.5, -89.0, 1.0e+10, 1.0e+20, -1.0e+20, 0.1, -0.3, 0.75, 5.0, 12.0, -7.5, 1.0e-05, 0.9999]> : tensor<32xf32>
  %r_f32 = chlo.atanh %x_f32 : tensor<32xf32> -> tensor<32xf32>
  %e_f32 = stablehlo.constant dense<[0.0, -0.0, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7F800000, 0xFF800000, 0.54930615, -0.54930615, 1.0e-30, -1.0e-30, 1.0e-45, 0x7FC00000, 0x7FC00000, 0x7FC00000, 7.2477326, -7.2477326, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0.10033535, -0.30951962, 0.97295505, 0x7FC00000, 0x7FC00000, 0x7FC00000, 1.0e-05, 4.951636]> : tensor<32xf32>
  check.expect_close %r_f32, %e_f32, max_ulp_difference = 3 : tensor<32xf32>, tensor<32xf32>
  %x_f64 = stablehlo.constant dense<[0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 1.0, -1.0, 0.5, -0.5, 1.0e-30, -1.0e-30, 1.4e-45, 3.4e+38, -3.4e+38, 2.0, 0.999999, -0.999999, 1.000001, 3.9, 88.5, -89.0, 10000000000.0, 1.0e+20, -1.0e+20, 0.1, -0.3, 0.75, 5.0, 12.0, -7.5, 1.0e-05, 0.9999]> : tensor<32xf64>
  %r_f64 = chlo.atanh %x_f64 : tensor<32xf64> -> tensor<32xf64>
  %e_f64 = stablehlo.constant dense<[0.0, -0.0, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF0000000000000, 0xFFF0000000000000, 0.5493061443340549, -0.5493061443340549, 1.0e-30, -1.0e-30, 1.4e-45, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 7.254328619247669, -7.254328619247669, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0.10033534773107558, -0.3095196042031117, 0.9729550745276566, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 1.0000000000333334e-05, 4.951718775643099]> : tensor<32xf64>
  check.expect_close %r_f64, %e_f64, max_ulp_difference = 3 : tensor<32xf64>, tensor<32xf64>
  func.return
}
