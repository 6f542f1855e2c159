// Shape-op rewrites of simplify: identities vanish, chains collapse into
// one op, and everything that is not an identity stays.
// RUN: xlac opt --pass simplify %s | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t/a %t/b
// RUN: xlac run --random-inputs --seed 3 %s --output-dir %t/a > /dev/null
// RUN: xlac opt --pass simplify %s | xlac run --random-inputs --seed 3 - --output-dir %t/b > /dev/null
// RUN: diff -r %t/a %t/b

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<2x3xf32>, %v: tensor<3xf32>)
    -> (tensor<2x3xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<3x2x4xf32>, tensor<6xf32>, tensor<2x3xf32>,
        tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x2xf32>,
        tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  // reshape to the same shape; reshape of reshape
  %r0 = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %r1 = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
  %r2 = stablehlo.reshape %r1 : (tensor<6xf32>) -> tensor<3x2xf32>
  // transpose: identity, a pair that cancels, a pair that composes
  %t0 = stablehlo.transpose %x, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %t1 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %t2 = stablehlo.transpose %t1, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %b3 = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3x4xf32>
  %t3 = stablehlo.transpose %b3, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %t4 = stablehlo.transpose %t3, dims = [2, 1, 0] : (tensor<4x2x3xf32>) -> tensor<3x2x4xf32>
  // broadcast_in_dim: identity, and a chain
  %b0 = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %b1 = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %b2 = stablehlo.broadcast_in_dim %b1, dims = [1, 2] : (tensor<2x3xf32>) -> tensor<4x2x3xf32>
  %b2r = stablehlo.reshape %b2 : (tensor<4x2x3xf32>) -> tensor<24xf32>
  %b2s = stablehlo.slice %b2r [0:6] : (tensor<24xf32>) -> tensor<6xf32>
  // full slice, one-operand concatenate, zero pad, empty reverse
  %s0 = stablehlo.slice %x [0:2, 0:3] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %c0 = stablehlo.concatenate %x, dim = 0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %p0 = stablehlo.pad %x, %zero, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %v0 = stablehlo.reverse %x, dims = [] : tensor<2x3xf32>
  // a real slice, pad and reverse stay
  %s1 = stablehlo.slice %x [0:2, 1:3] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  %p1 = stablehlo.pad %x, %zero, low = [0, 1], high = [0, -1], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %v1 = stablehlo.reverse %x, dims = [1] : tensor<2x3xf32>
  // reduce over no dimensions from the identity goes; from another init it stays
  %nz = stablehlo.constant dense<-0.0> : tensor<f32>
  %d0 = stablehlo.reduce(%x init: %nz) applies stablehlo.add across dimensions = []
    : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %d1 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = []
    : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  // dot_general contracting a dimension of size 1 stays a dot
  %l = stablehlo.slice %x [0:2, 0:1] : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %dt = stablehlo.dot_general %l, %l, contracting_dims = [1] x [1] : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x2xf32>
  // CHECK: %[[R:[0-9]+]] = "stablehlo.reshape"(%arg0) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // CHECK-NEXT: %[[T1:[0-9]+]] = "stablehlo.transpose"(%arg0) {permutation = array<i64: 1, 0>}
  // CHECK-NEXT: %[[B:[0-9]+]] = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3x4xf32>
  // CHECK-NEXT: %[[T:[0-9]+]] = "stablehlo.transpose"(%[[B]]) {permutation = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  // CHECK-NEXT: "stablehlo.broadcast_in_dim"(%arg1) {broadcast_dimensions = array<i64: 2>} : (tensor<3xf32>) -> tensor<4x2x3xf32>
  // CHECK-NOT: stablehlo.concatenate
  // CHECK: %[[S1:[0-9]+]] = "stablehlo.slice"(%arg0) {start_indices = array<i64: 0, 1>
  // CHECK-NEXT: %[[P1:[0-9]+]] = "stablehlo.pad"
  // CHECK-NEXT: %[[V1:[0-9]+]] = "stablehlo.reverse"(%arg0) {dimensions = array<i64: 1>}
  // CHECK-NEXT: %[[D1:[0-9]+]] = "stablehlo.reduce"(%arg0, %{{[0-9]+}})
  // CHECK: %[[DT:[0-9]+]] = "stablehlo.dot_general"
  // CHECK-NEXT: func.return %arg0, %[[R]], %arg0, %[[T]], %{{[0-9]+}}, %arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %[[T1]], %[[DT]], %[[S1]], %[[P1]], %[[V1]], %[[D1]] :
  func.return %r0, %r2, %t2, %t4, %b2s, %b0, %s0, %c0, %p0, %v0, %d0, %t1, %dt, %s1, %p1, %v1, %d1
    : tensor<2x3xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<3x2x4xf32>, tensor<6xf32>, tensor<2x3xf32>,
      tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x2xf32>,
      tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

