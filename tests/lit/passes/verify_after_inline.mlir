// Inlining makes the padding amounts of this dynamic_pad constants that
// contradict its result type.  The program is wrong only when it runs, so
// the pipeline (which verifies between passes) must not call that an
// internal error; running it reports the error at the op.
// RUN: xlac opt --pipeline=cpu %s | FileCheck %s
// RUN: not xlac run %s 2>&1 | FileCheck %s --check-prefix=ERR
// CHECK: stablehlo.dynamic_pad
// ERR: verify_after_inline.mlir:[[@LINE+11]]:{{[0-9]+}}: error: runtime error: padding amounts do not match the operand and result shapes
func.func @main() -> tensor<3xi32> {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %lo = stablehlo.constant dense<[5]> : tensor<1xi32>
  %r = func.call @pad(%x, %lo) : (tensor<2xi32>, tensor<1xi32>) -> tensor<3xi32>
  func.return %r : tensor<3xi32>
}
func.func private @pad(%x: tensor<2xi32>, %lo: tensor<1xi32>) -> tensor<3xi32> {
  %p = stablehlo.constant dense<0> : tensor<i32>
  %hi = stablehlo.constant dense<[0]> : tensor<1xi32>
  %in = stablehlo.constant dense<[0]> : tensor<1xi32>
  %r = stablehlo.dynamic_pad %x, %p, %lo, %hi, %in
    : (tensor<2xi32>, tensor<i32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  func.return %r : tensor<3xi32>
}
