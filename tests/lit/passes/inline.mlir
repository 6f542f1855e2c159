// Inlining: calls become the callee's body, fusion calls (XLA's fusions in
// an optimized dump) included; noinline functions stay calls.  (Recursive functions, which would stay calls too,
// do not pass the verifier: see tests/lit/verify/calls.mlir.)
// RUN: xlac opt --pass inline %s | FileCheck %s
// RUN: xlac opt --pass inline %s | xlac run -
// RUN: xlac opt --pass inline --pass dce %s | FileCheck %s --check-prefix=DCE
// RUN: xlac opt --pass inline --pass dce %s | xlac run -

func.func private @sq(%a: tensor<2xi32>) -> tensor<2xi32> {
  %m = stablehlo.multiply %a, %a : tensor<2xi32>
  func.return %m : tensor<2xi32>
}

// two results, and an argument returned as is
func.func private @swap_inc(%a: tensor<2xi32>, %b: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>) {
  %s = func.call @sq(%a) : (tensor<2xi32>) -> tensor<2xi32>
  func.return %b, %s : tensor<2xi32>, tensor<2xi32>
}

func.func private @kept(%a: tensor<2xi32>) -> tensor<2xi32> attributes {noinline} {
  %n = stablehlo.negate %a : tensor<2xi32>
  func.return %n : tensor<2xi32>
}

func.func private @fused_computation(%a: tensor<2xi32>) -> tensor<2xi32> {
  %n = stablehlo.add %a, %a : tensor<2xi32>
  func.return %n : tensor<2xi32>
}

// CHECK-LABEL: func.func @main
// DCE-NOT: @sq
// DCE-NOT: @swap_inc
// DCE: func.func private @kept
// DCE-NOT: @fused_computation
// DCE-LABEL: func.func @main
// DCE-NOT: @sq
func.func @main() {
  %x = stablehlo.constant dense<[3, 4]> : tensor<2xi32>
  %y = stablehlo.constant dense<[7, 8]> : tensor<2xi32>
  // CHECK-NOT: callee = @swap_inc
  // CHECK-NOT: callee = @sq
  // CHECK: stablehlo.multiply
  %r:2 = func.call @swap_inc(%x, %y) : (tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>)
  // inside a region too
  %t = stablehlo.constant dense<true> : tensor<i1>
  // CHECK: "stablehlo.if"
  // CHECK-NOT: callee = @sq
  %z = "stablehlo.if"(%t) ({
    %q = func.call @sq(%y) : (tensor<2xi32>) -> tensor<2xi32>
    stablehlo.return %q : tensor<2xi32>
  }, {
    stablehlo.return %y : tensor<2xi32>
  }) : (tensor<i1>) -> tensor<2xi32>
  // CHECK: {callee = @kept}
  %k = func.call @kept(%x) : (tensor<2xi32>) -> tensor<2xi32>
  // CHECK-NOT: callee = @fused_computation
  // CHECK: stablehlo.add
  %u = func.call @fused_computation(%x) {fusion_kind = #xla<fusion_kind kLoop>} : (tensor<2xi32>) -> tensor<2xi32>
  check.expect_eq_const %r#0, dense<[7, 8]> : tensor<2xi32>
  check.expect_eq_const %r#1, dense<[9, 16]> : tensor<2xi32>
  check.expect_eq_const %z, dense<[49, 64]> : tensor<2xi32>
  check.expect_eq_const %k, dense<[-3, -4]> : tensor<2xi32>
  check.expect_eq_const %u, dense<[6, 8]> : tensor<2xi32>
  func.return
}
