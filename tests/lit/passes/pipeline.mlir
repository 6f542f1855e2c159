// The whole CPU pipeline keeps the program's meaning: its checks still pass
// after optimization, on the interpreter.
// RUN: xlac opt --pipeline=cpu %s > %t.mlir && xlac run %t.mlir
// RUN: xlac opt --pipeline=cpu --no-fuse %s | FileCheck %s

func.func private @layer(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>, %b: tensor<2xf32>) -> tensor<2x2xf32> {
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<2xf32>) -> tensor<2x2xf32>
  %nz = stablehlo.constant dense<-0.0> : tensor<2x2xf32>
  %s0 = stablehlo.add %d, %bb : tensor<2x2xf32>
  %s = stablehlo.add %s0, %nz : tensor<2x2xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %zb = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
  %r = stablehlo.maximum %s, %zb : tensor<2x2xf32>
  func.return %r : tensor<2x2xf32>
}

// CHECK-LABEL: func.func @main
// CHECK-NOT: func.call
// CHECK-NOT: stablehlo.dot_general
// CHECK: check.expect_almost_eq_const
func.func @main() {
  %x = stablehlo.constant dense<[[1.0, -2.0, 3.0], [0.5, 0.25, -1.0]]> : tensor<2x3xf32>
  %w = stablehlo.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>
  %b = stablehlo.constant dense<[0.5, -10.0]> : tensor<2xf32>
  %y1 = func.call @layer(%x, %w, %b) : (tensor<2x3xf32>, tensor<3x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %y2 = func.call @layer(%x, %w, %b) : (tensor<2x3xf32>, tensor<3x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %y = stablehlo.add %y1, %y2 : tensor<2x2xf32>
  check.expect_almost_eq_const %y, dense<[[9.0, 0.0], [0.0, 0.0]]> : tensor<2x2xf32>
  func.return
}
