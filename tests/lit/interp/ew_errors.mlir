// RUN: not xlac run --split-input-file %s 2>&1 | FileCheck %s

// Element types a special function does not take used to pass the verifier
// and fail at run time in the interpreter; the verifier now reports them at
// the op, before either backend runs (tests/lit/verify/chlo_types.mlir has
// every rule).  Operands that do not broadcast are also the verifier's to
// report: tests/lit/verify/chlo.mlir.

func.func @special_on_ints() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  // CHECK: ew_errors.mlir:[[@LINE+1]]:8: error: 'chlo.next_after' op operand #0 must be a tensor of floating-point type, got tensor<2xi32>
  %r = "chlo.next_after"(%a, %a) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  func.return
}

// -----

func.func @erf_inv_type_mismatch() {
  %a = stablehlo.constant dense<[0.5]> : tensor<1xf32>
  // CHECK: ew_errors.mlir:[[@LINE+1]]:8: error: 'chlo.erf_inv' op result element type must be f32, got tensor<1xf64>
  %r = "chlo.erf_inv"(%a) : (tensor<1xf32>) -> tensor<1xf64>
  func.return
}
// CHECK-NOT: runtime error
