// RUN: xlac run %s
// RUN: xlac opt --pass chlo-decompose %s | FileCheck %s
// RUN: xlac opt --pass chlo-decompose %s | xlac run -
// The decomposition of chlo.acosh agrees with the interpreter's direct
// implementation (libm in double, rounded once) within 3 ulp, and both with
// the expected values (computed in double and rounded).
// CHECK-LABEL: func.func @main
// CHECK-NOT: chlo.
func.func @main() {
  %x_f32 = stablehlo.constant dense<[0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 1.0, -1.0, 0.5, -0.5, 1.0e-30, -1.0e-30, 1.0e-45, 3.4e+38, -3.4e+38, 2.0, 0.999999, -0.999999, 1.000001, 3.9, 88.5, -89.0, 1.0e+10, 1.0e+20, -1.0e+20, 0.1, -0.3, 0.75, 5.0, 12.0, -7.5, 1.0e-05, 0.9999]> : tensor<32xf32>
  %r_f32 = chlo.acosh %x_f32 : tensor<32xf32> -> tensor<32xf32>
  %e_f32 = stablehlo.constant dense<[0x7FC00000, 0x7FC00000, 0x7F800000, 0x7FC00000, 0x7FC00000, 0.0, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7FC00000, 89.41515, 0x7FC00000, 1.316958, 0x7FC00000, 0x7FC00000, 0.0013810678, 2.0372665, 5.176118, 0x7FC00000, 23.718998, 46.74485, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7FC00000, 2.2924316, 3.1763132, 0x7FC00000, 0x7FC00000, 0x7FC00000]> : tensor<32xf32>
  check.expect_close %r_f32, %e_f32, max_ulp_difference = 3 : tensor<32xf32>, tensor<32xf32>
  %x_f64 = stablehlo.constant dense<[0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 1.0, -1.0, 0.5, -0.5, 1.0e-30, -1.0e-30, 1.4e-45, 3.4e+38, -3.4e+38, 2.0, 0.999999, -0.999999, 1.000001, 3.9, 88.5, -89.0, 10000000000.0, 1.0e+20, -1.0e+20, 0.1, -0.3, 0.75, 5.0, 12.0, -7.5, 1.0e-05, 0.9999]> : tensor<32xf64>
  %r_f64 = chlo.acosh %x_f64 : tensor<32xf64> -> tensor<32xf64>
  %e_f64 = stablehlo.constant dense<[0x7FF8000000000000, 0x7FF8000000000000, 0x7FF0000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0.0, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 89.41515614595579, 0x7FF8000000000000, 1.3169578969248168, 0x7FF8000000000000, 0x7FF8000000000000, 0.00141421344446382, 2.037266466141811, 5.176117811737468, 0x7FF8000000000000, 23.7189981105004, 46.74484904044086, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 2.2924316695611777, 3.176313180591656, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000]> : tensor<32xf64>
  check.expect_close %r_f64, %e_f64, max_ulp_difference = 3 : tensor<32xf64>, tensor<32xf64>
  func.return
}
