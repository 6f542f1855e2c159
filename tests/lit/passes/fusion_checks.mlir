// Programs with check ops still pass after fusion, including fusion inside
// while and if regions; the checks keep their order.
// RUN: xlac opt --pass fusion --split-input-file %s > %t.mlir
// RUN: xlac run --split-input-file %t.mlir
// RUN: FileCheck %s < %t.mlir

// CHECK-LABEL: func.func @main
// CHECK: stablehlo.while
// CHECK: "func.call"{{.*}}kLoop
// CHECK: check.expect_almost_eq_const
func.func @main() {
  %x = stablehlo.constant dense<[0.5, -1.0, 2.0, 0.25]> : tensor<4xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %i0, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %h = stablehlo.constant dense<0.5> : tensor<4xf32>
    %a = stablehlo.multiply %v, %h : tensor<4xf32>
    %b = stablehlo.tanh %a : tensor<4xf32>
    %c = stablehlo.add %b, %x : tensor<4xf32>
    stablehlo.return %i1, %c : tensor<i32>, tensor<4xf32>
  }
  %s = stablehlo.multiply %r#1, %r#1 : tensor<4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %t = stablehlo.reduce(%s init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  check.expect_almost_eq_const %r#1, dense<[0.9037075, -1.670613, 2.8938114, 0.4641439]> : tensor<4xf32>
  check.expect_almost_eq_const %t, dense<12.197209> : tensor<f32>
  func.return
}

// -----
// CHECK-LABEL: func.func @main
// CHECK: stablehlo.if
// CHECK: "func.call"{{.*}}kLoop
func.func @main() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %p = stablehlo.constant dense<true> : tensor<i1>
  %r = "stablehlo.if"(%p) ({
    %a = stablehlo.exponential %x : tensor<3xf32>
    %b = stablehlo.add %a, %x : tensor<3xf32>
    stablehlo.return %b : tensor<3xf32>
  }, {
    stablehlo.return %x : tensor<3xf32>
  }) : (tensor<i1>) -> tensor<3xf32>
  %n = stablehlo.negate %r : tensor<3xf32>
  check.expect_almost_eq_const %n, dense<[-3.7183, -9.3891, -23.0855]> : tensor<3xf32>
  func.return
}
