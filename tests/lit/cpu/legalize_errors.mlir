// RUN: not xlac run %s 2>&1 | FileCheck %s
// Amounts that are computed cannot be checked at compile time, so legalize
// keeps dynamic_pad and the interpreter reports a mismatch when it runs,
// on either backend.
// CHECK: legalize_errors.mlir:[[@LINE+8]]:{{[0-9]+}}: error: runtime error: padding amounts do not match the operand and result shapes
func.func @main() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %pv = stablehlo.constant dense<0.0> : tensor<f32>
  %a0 = stablehlo.constant dense<[1]> : tensor<1xi64>
  %a = stablehlo.optimization_barrier %a0 : tensor<1xi64>
  %in = stablehlo.negate %a : tensor<1xi64>
  // interior -1 is not allowed
  %r = stablehlo.dynamic_pad %x, %pv, %a, %a, %in : (tensor<3xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xf32>
  check.expect_eq_const %r, dense<0.0> : tensor<3xf32>
  func.return
}
