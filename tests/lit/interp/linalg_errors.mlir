// RUN: not xlac run --split-input-file %s 2>&1 | FileCheck %s
// XLAC-BACKENDS: interp (runtime-error tests; compiled code may delete the failing dead op)
// Bad runtime inputs are reported at the op, never crash.  (A THREE_FRY
// state of the wrong size is the verifier's: tests/lit/verify/enums.mlir.)

func.func @einsum_bad_config() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  // CHECK: error: runtime error: einsum_config term 1 has 2 letters for a rank-1 tensor
  %r = "stablehlo.unary_einsum"(%a) {einsum_config = "i->ij"} : (tensor<2xi32>) -> tensor<2xi32>
  func.return
}
