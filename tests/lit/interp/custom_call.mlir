// RUN: not xlac run --split-input-file %s 2>&1 | FileCheck %s

func.func @main() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  // CHECK: custom_call.mlir:[[@LINE+1]]:{{[0-9]+}}: error: runtime error: no implementation for custom_call target 'my.unknown_target'
  %r = stablehlo.custom_call @my.unknown_target(%a) : (tensor<i32>) -> tensor<i32>
  func.return
}

// -----

func.func @main() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  // CHECK: custom_call.mlir:[[@LINE+1]]:{{[0-9]+}}: error: runtime error: custom_call @check.expect_eq expects 2 operands, got 1
  stablehlo.custom_call @check.expect_eq(%a) : (tensor<i32>) -> ()
  func.return
}

// -----

func.func @main() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  // CHECK: custom_call.mlir:[[@LINE+1]]:{{[0-9]+}}: error: runtime error: check.expect_close needs float or complex operands, got i32
  stablehlo.custom_call @check.expect_close(%a, %a) : (tensor<i32>, tensor<i32>) -> ()
  func.return
}
