// RUN: xlac run --split-input-file %s
// RUN: xlac opt --split-input-file --pass legalize %s | FileCheck %s
// RUN: xlac opt --split-input-file --pipeline=cpu %s | FileCheck %s --check-prefix=CPU
// map whose body is elementwise becomes the body's ops on whole tensors
// (legalize pass); constants and scalars from outside the body are
// broadcast.  A body with a non-elementwise op stays a map.
// CHECK-LABEL: func.func @map_multiply
// CHECK-NOT: stablehlo.map
// CHECK-LABEL: func.func @map_mixed_types
// CHECK-NOT: stablehlo.map
// CHECK-LABEL: func.func @map_captured_scalar
// CHECK-NOT: stablehlo.map
// CHECK-LABEL: func.func @map_identity
// CHECK-NOT: stablehlo.map
// CHECK-LABEL: func.func @map_not_elementwise
// CHECK: stablehlo.map
// CPU-NOT: stablehlo.map

func.func @map_multiply() {
  %a0 = stablehlo.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>
  %b0 = stablehlo.constant dense<[[4, 5], [6, 7]]> : tensor<2x2xi64>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<2x2xi64>, tensor<2x2xi64>
  %r = "stablehlo.map"(%a, %b) ({
    ^bb0(%x: tensor<i64>, %y: tensor<i64>):
      %0 = stablehlo.multiply %x, %y : tensor<i64>
      stablehlo.return %0 : tensor<i64>
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  check.expect_eq_const %r, dense<[[0, 5], [12, 21]]> : tensor<2x2xi64>
  func.return
}

// -----

// compare, select, convert and a constant inside the body; three operands.
func.func @map_mixed_types() {
  %a0 = stablehlo.constant dense<[1.5, -2.0, 0.0, 7.25]> : tensor<4xf32>
  %b0 = stablehlo.constant dense<[1.0, 3.0, -1.0, 7.25]> : tensor<4xf32>
  %c0 = stablehlo.constant dense<[10, 20, 30, 40]> : tensor<4xi32>
  %a, %b, %c = stablehlo.optimization_barrier %a0, %b0, %c0 : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
  %r = "stablehlo.map"(%a, %b, %c) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>, %z: tensor<i32>):
      %k = stablehlo.constant dense<0.5> : tensor<f32>
      %p = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %m = stablehlo.select %p, %x, %y : tensor<i1>, tensor<f32>
      %h = stablehlo.multiply %m, %k : tensor<f32>
      %zf = stablehlo.convert %z : (tensor<i32>) -> tensor<f32>
      %s = stablehlo.add %h, %zf : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  check.expect_eq_const %r, dense<[10.75, 21.5, 30.0, 43.625]> : tensor<4xf32>
  func.return
}

// -----

// A scalar defined outside the body; f16, rank 3.
func.func @map_captured_scalar() {
  %a0 = stablehlo.constant dense<[[[1.0, 2.0]], [[3.0, 4.0]]]> : tensor<2x1x2xf16>
  %s0 = stablehlo.constant dense<0.5> : tensor<f16>
  %a, %s = stablehlo.optimization_barrier %a0, %s0 : tensor<2x1x2xf16>, tensor<f16>
  %r = "stablehlo.map"(%a) ({
    ^bb0(%x: tensor<f16>):
      %0 = stablehlo.subtract %x, %s : tensor<f16>
      %1 = stablehlo.abs %0 : tensor<f16>
      stablehlo.return %1 : tensor<f16>
  }) {dimensions = array<i64: 0, 1, 2>} : (tensor<2x1x2xf16>) -> tensor<2x1x2xf16>
  check.expect_eq_const %r, dense<[[[0.5, 1.5]], [[2.5, 3.5]]]> : tensor<2x1x2xf16>
  func.return
}

// -----

// The body returns an argument, or a constant; an empty map.
func.func @map_identity() {
  %a0 = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
  %b0 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xui16>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<3xi1>, tensor<3xui16>
  %r = "stablehlo.map"(%a, %b) ({
    ^bb0(%x: tensor<i1>, %y: tensor<ui16>):
      stablehlo.return %x : tensor<i1>
  }) {dimensions = array<i64: 0>} : (tensor<3xi1>, tensor<3xui16>) -> tensor<3xi1>
  check.expect_eq_const %r, dense<[true, false, true]> : tensor<3xi1>
  %k = "stablehlo.map"(%b) ({
    ^bb0(%y: tensor<ui16>):
      %c = stablehlo.constant dense<65535> : tensor<ui16>
      stablehlo.return %c : tensor<ui16>
  }) {dimensions = array<i64: 0>} : (tensor<3xui16>) -> tensor<3xui16>
  check.expect_eq_const %k, dense<65535> : tensor<3xui16>
  %e0 = stablehlo.constant dense<> : tensor<0x4xf32>
  %e = stablehlo.optimization_barrier %e0 : tensor<0x4xf32>
  %re = "stablehlo.map"(%e) ({
    ^bb0(%x: tensor<f32>):
      %0 = stablehlo.exponential %x : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<0x4xf32>) -> tensor<0x4xf32>
  check.expect_eq_const %re, dense<> : tensor<0x4xf32>
  func.return
}

// -----

// A reduce inside the body is not elementwise: legalize leaves the map.  In
// the cpu pipeline simplify then drops the reduce over no dimensions, and
// the second legalize run rewrites the map after all.
func.func @map_not_elementwise() {
  %a0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %a = stablehlo.optimization_barrier %a0 : tensor<2xi32>
  %r = "stablehlo.map"(%a) ({
    ^bb0(%x: tensor<i32>):
      %z = stablehlo.constant dense<0> : tensor<i32>
      %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [] : (tensor<i32>, tensor<i32>) -> tensor<i32>
      stablehlo.return %s : tensor<i32>
  }) {dimensions = array<i64: 0>} : (tensor<2xi32>) -> tensor<2xi32>
  check.expect_eq_const %r, dense<[1, 2]> : tensor<2xi32>
  func.return
}
