// An op whose evaluation fails at run time is not folded, and folding it
// prints nothing: the error belongs to running the program, which still
// reports it.
// RUN: xlac opt --pass constant-fold %s 2>%t.err | FileCheck %s
// RUN: not grep . %t.err
// RUN: xlac opt --pass constant-fold %s | not xlac run - 2>&1 | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @main
func.func @main() -> tensor<3xi32> {
  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  // CHECK: chlo.next_after
  // EXEC: error: runtime error: 'chlo.next_after' needs a floating-point result, not i32
  %r = "chlo.next_after"(%a, %a) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  // the rest of the function still folds
  // CHECK: stablehlo.constant dense<[2, 4, 6]> : tensor<3xi32>
  %c = stablehlo.add %b, %b : tensor<3xi32>
  %d = stablehlo.add %r, %c : tensor<3xi32>
  func.return %d : tensor<3xi32>
}
