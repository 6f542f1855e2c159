// RUN: xlac run %s
// RUN: xlac opt --pass chlo-decompose %s | FileCheck %s
// RUN: xlac opt --pass chlo-decompose %s | xlac run -
// The decomposition of chlo.asinh agrees with the interpreter's direct
// implementation (libm in double, rounded once) within 3 ulp, and both with
// the expected values (computed in double and rounded).
// CHECK-LABEL: func.func @main
// CHECK-NOT: chlo.
func.func @main() {
  %x_f32 = stablehlo.constant dense<[0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 1.0, -1.0, 0.5, -0.5, 1.0e-30, -1.0e-30, 1.0e-45, 3.4e+38, -3.4e+38, 2.0, 0.999999, -0.999999, 1.000001, 3.9, 88.5, -89.0, 1.0e+10, 1.0e+20, -1.0e+20, 0.1, -0.3, 0.75, 5.0, 12.0, -7.5, 1.0e-05, 0.9999]> : tensor<32xf32>
  %r_f32 = chlo.asinh %x_f32 : tensor<32xf32> -> tensor<32xf32>
  %e_f32 = stablehlo.constant dense<[0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 0.8813736, -0.8813736, 0.4812118, -0.4812118, 1.0e-30, -1.0e-30, 1.0e-45, 89.41515, -89.41515, 1.4436355, 0.88137287, -0.88137287, 0.88137424, 2.0701692, 5.176182, -5.181815, 23.718998, 46.74485, -46.74485, 0.09983408, -0.29567307, 0.6931472, 2.3124382, 3.1797855, -2.7124653, 1.0e-05, 0.88130283]> : tensor<32xf32>
  check.expect_close %r_f32, %e_f32, max_ulp_difference = 3 : tensor<32xf32>, tensor<32xf32>
  %x_f64 = stablehlo.constant dense<[0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 1.0, -1.0, 0.5, -0.5, 1.0e-30, -1.0e-30, 1.4e-45, 3.4e+38, -3.4e+38, 2.0, 0.999999, -0.999999, 1.000001, 3.9, 88.5, -89.0, 10000000000.0, 1.0e+20, -1.0e+20, 0.1, -0.3, 0.75, 5.0, 12.0, -7.5, 1.0e-05, 0.9999]> : tensor<32xf64>
  %r_f64 = chlo.asinh %x_f64 : tensor<32xf64> -> tensor<32xf64>
  %e_f64 = stablehlo.constant dense<[0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0.881373587019543, -0.881373587019543, 0.48121182505960347, -0.48121182505960347, 1.0e-30, -1.0e-30, 1.4e-45, 89.41515614595579, -89.41515614595579, 1.4436354751788103, 0.8813728799125851, -0.8813728799125851, 0.8813742941261474, 2.0701692399277114, 5.176181650353664, -5.181815110469487, 23.7189981105004, 46.74484904044086, -46.74484904044086, 0.09983407889920756, -0.29567304756342244, 0.6931471805599453, 2.3124383412727525, 3.179785437699879, -2.712465305184344, 9.999999999833334e-06, 0.881302874573628]> : tensor<32xf64>
  check.expect_close %r_f64, %e_f64, max_ulp_difference = 3 : tensor<32xf64>, tensor<32xf64>
  func.return
}
