// RUN: xlac run %s
// RUN: xlac opt --pass chlo-decompose %s | FileCheck %s
// RUN: xlac opt --pass chlo-decompose %s | xlac run -
// The decomposition of chlo.cosh agrees with the interpreter's direct
// implementation (libm in double, rounded once) within 3 ulp, and both with
// the expected values (computed in double and rounded).
// CHECK-LABEL: func.func @main
// CHECK-NOT: chlo.
func.func @main() {
  %x_f32 = stablehlo.constant dense<[0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 1.0, -1.0, 0.5, -0.5, 1.0e-30, -1.0e-30, 1.0e-45, 3.4e+38, -3.4e+38, 2.0, 0.999999, -0.999999, 1.000001, 3.9, 88.5, -89.0, 1.0e+10, 1.0e+20, -1.0e+20, 0.1, -0.3, 0.75, 5.0, 12.0, -7.5, 1.0e-05, 0.9999]> : tensor<32xf32>
  %r_f32 = chlo.cosh %x_f32 : tensor<32xf32> -> tensor<32xf32>
  %e_f32 = stablehlo.constant dense<[1.0, 1.0, 0x7F800000, 0x7F800000, 0x7FC00000, 1.5430807, 1.5430807, 1.127626, 1.127626, 1.0, 1.0, 1.0, 0x7F800000, 0x7F800000, 3.7621956, 1.5430795, 1.5430795, 1.5430818, 24.711348, 1.361544e+38, 2.2448064e+38, 0x7F800000, 0x7F800000, 0x7F800000, 1.0050042, 1.0453385, 1.2946833, 74.209946, 81377.4, 904.0215, 1.0, 1.5429631]> : tensor<32xf32>
  check.expect_close %r_f32, %e_f32, max_ulp_difference = 3 : tensor<32xf32>, tensor<32xf32>
  %x_f64 = stablehlo.constant dense<[0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 1.0, -1.0, 0.5, -0.5, 1.0e-30, -1.0e-30, 1.4e-45, 3.4e+38, -3.4e+38, 2.0, 0.999999, -0.999999, 1.000001, 3.9, 88.5, -89.0, 10000000000.0, 1.0e+20, -1.0e+20, 0.1, -0.3, 0.75, 5.0, 12.0, -7.5, 1.0e-05, 0.9999]> : tensor<32xf64>
  %r_f64 = chlo.cosh %x_f64 : tensor<32xf64> -> tensor<32xf64>
  %e_f64 = stablehlo.constant dense<[1.0, 1.0, 0x7FF0000000000000, 0x7FF0000000000000, 0x7FF8000000000000, 1.5430806348152437, 1.5430806348152437, 1.1276259652063807, 1.1276259652063807, 1.0, 1.0, 1.0, 0x7FF0000000000000, 0x7FF0000000000000, 3.7621956910836314, 1.5430794596148216, 1.5430794596148216, 1.5430818100172088, 24.711345508487987, 1.3615439125340558e+38, 2.2448064095871728e+38, 0x7FF0000000000000, 0x7FF0000000000000, 0x7FF0000000000000, 1.0050041680558035, 1.0453385141288605, 1.2946832846768448, 74.20994852478785, 81377.39571257407, 904.0214837702167, 1.00000000005, 1.5429631224110867]> : tensor<32xf64>
  check.expect_close %r_f64, %e_f64, max_ulp_difference = 3 : tensor<32xf64>, tensor<32xf64>
  func.return
}
