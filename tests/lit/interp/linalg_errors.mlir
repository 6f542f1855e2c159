// RUN: not xlac run --split-input-file %s 2>&1 | FileCheck %s
// XLAC-BACKENDS: interp (runtime-error tests; compiled code may delete the failing dead op)
// Bad einsum configs are reported at the op, never crash.  Everything the
// interpreter checks in an einsum_config is visible in the types, so the
// verifier reports it before anything runs (more cases:
// tests/lit/verify/legacy_ops.mlir).  (A THREE_FRY state of the wrong size
// is the verifier's too: tests/lit/verify/enums.mlir.)

func.func @einsum_bad_config() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  // CHECK: linalg_errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'stablehlo.unary_einsum' op einsum_config term 'ij' has 2 letters for result type tensor<2xi32>
  %r = "stablehlo.unary_einsum"(%a) {einsum_config = "i->ij"} : (tensor<2xi32>) -> tensor<2xi32>
  func.return
}
