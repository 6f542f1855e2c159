// RUN: not xlac run --split-input-file %s 2>&1 | FileCheck %s
// XLAC-BACKENDS: interp (runtime-error tests; compiled code may delete the failing dead op)
// Bad runtime inputs are reported at the op, never crash.

func.func @three_fry_needs_two_words() {
  %s = stablehlo.constant dense<[1, 2, 3]> : tensor<3xui64>
  // CHECK: error: runtime error: initial_state of THREE_FRY must have 2 elements
  %ns, %r = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2xui32>)
  func.return
}

// -----

func.func @einsum_bad_config() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  // CHECK: error: runtime error: einsum_config term 1 has 2 letters for a rank-1 tensor
  %r = "stablehlo.unary_einsum"(%a) {einsum_config = "i->ij"} : (tensor<2xi32>) -> tensor<2xi32>
  func.return
}
