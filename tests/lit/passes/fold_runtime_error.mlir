// An op whose evaluation fails at run time is not folded, and folding it
// prints nothing: the error belongs to running the program, which still
// reports it.  (The shape operand is computed, so the verifier cannot see
// the mismatch; once folded to a constant, the verifier reports it.)
// RUN: xlac opt --pass constant-fold %s 2>%t.err | FileCheck %s
// RUN: not grep . %t.err
// RUN: not xlac run --backend=interp %s 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUN: xlac opt --pass constant-fold %s | not xlac run - 2>&1 | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @main
func.func @main() -> tensor<3xi32> {
  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %two = stablehlo.constant dense<[2]> : tensor<1xi64>
  %n = stablehlo.add %two, %two : tensor<1xi64>
  // CHECK: stablehlo.dynamic_reshape
  // RUNTIME: fold_runtime_error.mlir:[[@LINE+2]]:8: error: runtime error: shape operand dimension 0 is 4 but the result type says 3
  // EXEC: error: 'stablehlo.dynamic_reshape' op output shape [4] is incompatible with return type of operation tensor<3xi32>
  %r = stablehlo.dynamic_reshape %a, %n : (tensor<3xi32>, tensor<1xi64>) -> tensor<3xi32>
  // the rest of the function still folds
  // CHECK: stablehlo.constant dense<[2, 4, 6]> : tensor<3xi32>
  %c = stablehlo.add %b, %b : tensor<3xi32>
  %d = stablehlo.add %r, %c : tensor<3xi32>
  func.return %d : tensor<3xi32>
}
