// alpha * x + y, the walk-through's program.  examples/axpy/main.c
// compiles and runs it (as build/bin/example-axpy):
// RUN: example-axpy %s | FileCheck %s
// CHECK: device: cpu:0
// CHECK-NEXT: parameter 0: %alpha, f32, rank 0
// CHECK-NEXT: parameter 1: %x, f32, rank 1
// CHECK-NEXT: parameter 2: %y, f32, rank 1
// CHECK-NEXT: alpha * x + y = [13.64, 26.78, 39.92, 53.06]
func.func @main(%alpha: tensor<f32>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.broadcast_in_dim %alpha, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.multiply %0, %x : tensor<4xf32>
  %2 = stablehlo.add %1, %y : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
