// RUN: xlac run %s
// RUN: xlac opt --pass chlo-decompose %s | FileCheck %s
// RUN: xlac opt --pass chlo-decompose %s | xlac run -
// next_after by bit pattern arithmetic: exact, zeros of both signs,
// subnormals, infinities and NaN included.
// CHECK-LABEL: func.func @main
// CHECK-NOT: chlo.
// CHECK: stablehlo.bitcast_convert
func.func @main() {
  %x_f32 = stablehlo.constant dense<[0.0, 0.0, -0.0, 1.0, 1.0, -1.0, -1.0, 1.0, 0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 1.0, 3.0, -3.0, 0x00000001, 0x80000001, 0x00000001, 2.5, 1e+30, 0x7F800000]> : tensor<22xf32>
  %y_f32 = stablehlo.constant dense<[1.0, -1.0, 1.0, 2.0, 0.0, -2.0, 0.0, 1.0, -0.0, 0.0, 0.0, 0.0, 1.0, 0x7FC00000, 0x7F800000, 0xFF800000, 0.0, 0.0, 1.0, -7.0, 1e+31, 0x7F800000]> : tensor<22xf32>
  %e_f32 = stablehlo.constant dense<[0x00000001, 0x80000001, 0x00000001, 1.0000001, 0.99999994, -1.0000001, -0.99999994, 1.0, -0.0, 0.0, 3.4028235e+38, -3.4028235e+38, 0x7FC00000, 0x7FC00000, 3.0000002, -3.0000002, 0.0, -0.0, 0x00000002, 2.4999998, 1.0000001e+30, 0x7F800000]> : tensor<22xf32>
  %r_f32 = chlo.next_after %x_f32, %y_f32 : tensor<22xf32>, tensor<22xf32> -> tensor<22xf32>
  check.expect_eq %r_f32, %e_f32 : tensor<22xf32>
  %x_f64 = stablehlo.constant dense<[0.0, 0.0, -0.0, 1.0, 1.0, -1.0, -1.0, 1.0, 0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 1.0, 3.0, -3.0, 0x0000000000000001, 0x8000000000000001, 0x0000000000000001, 2.5, 1e+30, 0x7FF0000000000000]> : tensor<22xf64>
  %y_f64 = stablehlo.constant dense<[1.0, -1.0, 1.0, 2.0, 0.0, -2.0, 0.0, 1.0, -0.0, 0.0, 0.0, 0.0, 1.0, 0x7FF8000000000000, 0x7FF0000000000000, 0xFFF0000000000000, 0.0, 0.0, 1.0, -7.0, 1e+31, 0x7FF0000000000000]> : tensor<22xf64>
  %e_f64 = stablehlo.constant dense<[0x0000000000000001, 0x8000000000000001, 0x0000000000000001, 1.0000000000000002, 0.9999999999999999, -1.0000000000000002, -0.9999999999999999, 1.0, -0.0, 0.0, 1.7976931348623157e+308, -1.7976931348623157e+308, 0x7FF8000000000000, 0x7FF8000000000000, 3.0000000000000004, -3.0000000000000004, 0.0, -0.0, 0x0000000000000002, 2.4999999999999996, 1.0000000000000002e+30, 0x7FF0000000000000]> : tensor<22xf64>
  %r_f64 = chlo.next_after %x_f64, %y_f64 : tensor<22xf64>, tensor<22xf64> -> tensor<22xf64>
  check.expect_eq %r_f64, %e_f64 : tensor<22xf64>
  func.return
}
