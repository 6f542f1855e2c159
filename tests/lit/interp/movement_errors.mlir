// RUN: not xlac run --split-input-file %s 2>&1 | FileCheck %s
// XLAC-BACKENDS: interp (runtime-error tests; compiled code may delete the failing dead op)

// Runtime values that contradict the static types are reported, not crashed on.

// CHECK: movement_errors.mlir:[[@LINE+4]]:{{[0-9]+}}: error: runtime error: index 3 out of range [0, 3)
func.func @torch_index_select_out_of_range() {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %i = stablehlo.constant dense<[3]> : tensor<1xi32>
  %r = "stablehlo.torch_index_select"(%x, %i) {dim = 1 : i64, batch_dims = 0 : i64}
    : (tensor<2x3xi32>, tensor<1xi32>) -> tensor<2x1xi32>
  func.return
}

// -----

// The shape operands come through a call so the verifier cannot see them.
// CHECK: movement_errors.mlir:[[@LINE+7]]:{{[0-9]+}}: error: runtime error: shape operand dimension 0 is 3 but the result type says 2
func.func @main() {
  %shape = stablehlo.constant dense<[3]> : tensor<1xi64>
  %r = func.call @dynamic_iota_wrong_shape(%shape) : (tensor<1xi64>) -> tensor<2xi32>
  func.return
}
func.func @dynamic_iota_wrong_shape(%shape: tensor<1xi64>) -> tensor<2xi32> {
  %r = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<1xi64>) -> tensor<2xi32>
  func.return %r : tensor<2xi32>
}

// -----

// CHECK: movement_errors.mlir:[[@LINE+11]]:{{[0-9]+}}: error: runtime error: padding amounts do not match the operand and result shapes
func.func @main() {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %lo = stablehlo.constant dense<[5]> : tensor<1xi32>
  %r = func.call @dynamic_pad_wrong_amounts(%x, %lo) : (tensor<2xi32>, tensor<1xi32>) -> tensor<3xi32>
  func.return
}
func.func @dynamic_pad_wrong_amounts(%x: tensor<2xi32>, %lo: tensor<1xi32>) -> tensor<3xi32> {
  %p = stablehlo.constant dense<0> : tensor<i32>
  %hi = stablehlo.constant dense<[0]> : tensor<1xi32>
  %in = stablehlo.constant dense<[0]> : tensor<1xi32>
  %r = stablehlo.dynamic_pad %x, %p, %lo, %hi, %in
    : (tensor<2xi32>, tensor<i32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  func.return %r : tensor<3xi32>
}
