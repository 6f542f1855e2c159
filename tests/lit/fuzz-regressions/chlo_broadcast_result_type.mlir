// Found by fuzz_pipeline: a chlo.broadcast_* op whose result element type
// differs from its operands' was rewritten into an invalid stablehlo op.
// The rewrite leaves it alone, and the verifier now rejects it before
// either backend sees it.
// RUN: not xlac opt --pipeline=cpu %s 2>&1 | FileCheck %s
// RUN: not xlac run %s 2>&1 | FileCheck %s
// CHECK: chlo_broadcast_result_type.mlir:[[@LINE+4]]:8: error: 'chlo.broadcast_remainder' op result element type must be f64, got tensor<2x2xf32>
func.func @main() -> tensor<2x2xf32> {
  %a = stablehlo.constant dense<[[1.0, -2.0], [4.0, 8.0]]> : tensor<2x2xf64>
  %b = stablehlo.constant dense<[0.5, 3.0]> : tensor<2xf64>
  %r = "chlo.broadcast_remainder"(%a, %b) : (tensor<2x2xf64>, tensor<2xf64>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
