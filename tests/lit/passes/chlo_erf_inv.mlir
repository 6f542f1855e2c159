// RUN: xlac run %s
// RUN: xlac opt --pass chlo-decompose %s | FileCheck %s
// RUN: xlac opt --pass chlo-decompose %s | xlac run -
// The decomposition of chlo.erf_inv agrees with the interpreter's direct
// implementation (libm in double, rounded once) within 3 ulp, and both with
// the expected values (computed in double and rounded).
// CHECK-LABEL: func.func @main
// CHECK-NOT: chlo.
func.func @main() {
  %x_f32 = stablehlo.constant dense<[0.0, -0.0, 1.0, -1.0, 0x7FC00000, 0.5, -0.5, 1.0e-30, 1.0e-07, 0.1, -0.3, 0.75, 0.9, 0.99, 0.999, 0.999999, -0.999999, 0.9999, 1.5, -2.0, 0x7F800000, 0.25, 0.6, -0.95, 0.3]> : tensor<25xf32>
  %r_f32 = chlo.erf_inv %x_f32 : tensor<25xf32> -> tensor<25xf32>
  %e_f32 = stablehlo.constant dense<[0.0, 0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 0.47693628, -0.47693628, 8.862269e-31, 8.862269e-08, 0.08885599, -0.27246273, 0.8134198, 1.1630871, 1.8213866, 2.3267562, 3.4570746, -3.4570746, 2.7510355, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0.22531205, 0.59511614, -1.3859037, 0.27246273]> : tensor<25xf32>
  check.expect_close %r_f32, %e_f32, max_ulp_difference = 3 : tensor<25xf32>, tensor<25xf32>
  func.return
}
