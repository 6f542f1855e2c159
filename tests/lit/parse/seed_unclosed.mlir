// The seed program lost its closing brace; it is accepted with a warning.
// RUN: xlac print %s 2>%t.err > %t1 && xlac print %t1 > %t2 && diff %t1 %t2
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: FileCheck %s < %t1
// WARN: warning: missing '}' at end of function '@main'
// CHECK: func.func @main(%arg0: tensor<f32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: %0 = "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.multiply %0, %arg1 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.add %1, %arg2 : tensor<4xf32>
// CHECK-NEXT: func.return %2 : tensor<4xf32>
func.func @main(
  %alpha: tensor<f32>, %x: tensor<4xf32>, %y: tensor<4xf32>
) -> tensor<4xf32> {
  %0 = stablehlo.broadcast_in_dim %alpha, dims = []
    : (tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.multiply %0, %x : tensor<4xf32>
  %2 = stablehlo.add %1, %y : tensor<4xf32>
  func.return %2: tensor<4xf32>
