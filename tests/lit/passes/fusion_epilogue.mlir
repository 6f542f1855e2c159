// Epilogue fusion: dot_general + bias (through broadcast_in_dim) + relu is
// one kOutput fusion whose first op is the dot; a dot whose result is also
// needed elsewhere keeps its own buffer and is not fused.
// RUN: xlac opt --pass fusion %s | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t/a %t/b
// RUN: xlac run --random-inputs --seed 5 %s --output-dir %t/a > /dev/null
// RUN: xlac opt --pass fusion %s | xlac run --random-inputs --seed 5 - --output-dir %t/b > /dev/null
// RUN: diff -r %t/a %t/b

// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[H:[0-9]+]] = "func.call"(%arg0, %arg1, %arg2) {callee = @[[F:fused_computation[.0-9]*]], fusion_kind = {{.*}}kOutput
// CHECK-NEXT: %[[D:[0-9]+]] = "stablehlo.dot_general"(%[[H]], %arg3)
// CHECK-NEXT: %[[T:[0-9]+]] = "func.call"(%[[D]]) {{.*}}kLoop
// CHECK-NEXT: func.return %[[T]], %[[D]]
// CHECK: func.func private @[[F]](
// CHECK-NEXT: "stablehlo.dot_general"(%arg0, %arg1)
// CHECK-NEXT: "stablehlo.broadcast_in_dim"(%arg2)
// CHECK-NEXT: stablehlo.add
// CHECK-NEXT: stablehlo.constant dense<0.0>
// CHECK-NEXT: "stablehlo.broadcast_in_dim"
// CHECK-NEXT: stablehlo.maximum
// CHECK-NEXT: func.return
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>, %w2: tensor<16x16xf32>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  %2 = stablehlo.add %0, %1 : tensor<4x16xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
  %3 = stablehlo.maximum %2, %zb : tensor<4x16xf32>
  // the second dot is returned as well: no epilogue fusion for it
  %4 = stablehlo.dot_general %3, %w2, contracting_dims = [1] x [0] : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  %5 = stablehlo.tanh %4 : tensor<4x16xf32>
  %6 = stablehlo.negate %5 : tensor<4x16xf32>
  return %6, %4 : tensor<4x16xf32>, tensor<4x16xf32>
}
