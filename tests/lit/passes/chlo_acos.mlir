// RUN: xlac run %s
// RUN: xlac opt --pass chlo-decompose %s | FileCheck %s
// RUN: xlac opt --pass chlo-decompose %s | xlac run -
// The decomposition of chlo.acos agrees with the interpreter's direct
// implementation (libm in double, rounded once) within 3 ulp, and both with
// the expected values (computed in double and rounded).
// CHECK-LABEL: func.func @main
// CHECK-NOT: chlo.
func.func @main() {
  %x_f32 = stablehlo.constant dense<[0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 1.0, -1.0, 0.5, -0.5, 1.0e-30, -1.0e-30, 1.0e-45, 3.4e+38, -3.4e+38, 2.0, 0.999999, -0.999999, 1.000001, 3.9, 88.5, -89.0, 1.0e+10, 1.0e+20, -1.0e+20, 0.1, -0.3, 0.75, 5.0, 12.0, -7.5, 1.0e-05, 0.9999]> : tensor<32xf32>
  %r_f32 = chlo.acos %x_f32 : tensor<32xf32> -> tensor<32xf32>
  %e_f32 = stablehlo.constant dense<[1.5707964, 1.5707964, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0.0, 3.1415927, 1.0471976, 2.0943952, 1.5707964, 1.5707964, 1.5707964, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0.0014235723, 3.1401691, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7FC00000, 1.4706289, 1.875489, 0.7227343, 0x7FC00000, 0x7FC00000, 0x7FC00000, 1.5707864, 0.014143427]> : tensor<32xf32>
  check.expect_close %r_f32, %e_f32, max_ulp_difference = 3 : tensor<32xf32>, tensor<32xf32>
  %x_f64 = stablehlo.constant dense<[0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 1.0, -1.0, 0.5, -0.5, 1.0e-30, -1.0e-30, 1.4e-45, 3.4e+38, -3.4e+38, 2.0, 0.999999, -0.999999, 1.000001, 3.9, 88.5, -89.0, 10000000000.0, 1.0e+20, -1.0e+20, 0.1, -0.3, 0.75, 5.0, 12.0, -7.5, 1.0e-05, 0.9999]> : tensor<32xf64>
  %r_f64 = chlo.acos %x_f64 : tensor<32xf64> -> tensor<32xf64>
  %e_f64 = stablehlo.constant dense<[1.5707963267948966, 1.5707963267948966, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0.0, 3.141592653589793, 1.0471975511965976, 2.0943951023931957, 1.5707963267948966, 1.5707963267948966, 1.5707963267948966, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0.0014142136802445852, 3.1401784399095485, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 1.4706289056333368, 1.8754889808102941, 0.7227342478134156, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 1.5707863267948965, 0.014142253477512098]> : tensor<32xf64>
  check.expect_close %r_f64, %e_f64, max_ulp_difference = 3 : tensor<32xf64>, tensor<32xf64>
  func.return
}
