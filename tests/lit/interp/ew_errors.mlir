// RUN: not xlac run --split-input-file %s 2>&1 | FileCheck %s
// XLAC-BACKENDS: interp (runtime-error tests; compiled code may delete the failing dead op)

// Runtime errors of the elementwise family are reported at the op, never
// crash.  (Operands that do not broadcast are the verifier's to report:
// tests/lit/verify/chlo.mlir.)

func.func @special_on_ints() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  // CHECK: ew_errors.mlir:[[@LINE+1]]:8: error: runtime error: 'chlo.next_after' needs a floating-point result, not i32
  %r = "chlo.next_after"(%a, %a) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  func.return
}

// -----

func.func @erf_inv_type_mismatch() {
  %a = stablehlo.constant dense<[0.5]> : tensor<1xf32>
  // CHECK: ew_errors.mlir:[[@LINE+1]]:8: error: runtime error: operand 0 must be a f64 tensor of the result's shape
  %r = "chlo.erf_inv"(%a) : (tensor<1xf32>) -> tensor<1xf64>
  func.return
}
