// Found by fuzz_pipeline: a chlo.top_k whose result types do not match the
// operand and k passed the verifier; the interpreter rejected it at run
// time, and chlo-decompose rewrote it into a module that did not verify.
// The verifier now checks top_k's operand, k and result types.
// RUN: xlac verify --verify-diagnostics --split-input-file %s

func.func @main(%i: tensor<3x9xi32>) -> (tensor<3x4xi32>, tensor<3x4xi32>) {
  // expected-error @+1 {{'chlo.top_k' op results must be the operand's shape with the last dimension k = 2}}
  %v, %vi = chlo.top_k(%i, k = 2) : tensor<3x9xi32> -> (tensor<3x4xi32>, tensor<3x4xi32>)
  return %v, %vi : tensor<3x4xi32>, tensor<3x4xi32>
}

// -----

func.func @main(%i: tensor<3x9xi32>) -> (tensor<3x10xi32>, tensor<3x10xi32>) {
  // expected-error @+1 {{'chlo.top_k' op k = 10 is out of range [0, 9]}}
  %v, %vi = chlo.top_k(%i, k = 10) : tensor<3x9xi32> -> (tensor<3x10xi32>, tensor<3x10xi32>)
  return %v, %vi : tensor<3x10xi32>, tensor<3x10xi32>
}

// -----

func.func @main(%i: tensor<3x9xf32>) -> (tensor<3x2xf32>, tensor<3x2xi32>) {
  %v, %vi = chlo.top_k(%i, k = 2) : tensor<3x9xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)
  return %v, %vi : tensor<3x2xf32>, tensor<3x2xi32>
}
