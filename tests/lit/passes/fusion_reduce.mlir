// Reduction fusion: reduce_sum(x + y*z) is one kInput fusion that reads x, y
// and z and writes only the sums; the multiply and add live inside it.
// RUN: xlac opt --pass fusion %s | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t/a %t/b
// RUN: xlac run --random-inputs --seed 3 %s --output-dir %t/a > /dev/null
// RUN: xlac opt --pass fusion %s | xlac run --random-inputs --seed 3 - --output-dir %t/b > /dev/null
// RUN: diff -r %t/a %t/b
// RUN: xlac opt --pass fusion --format=hlo %s | FileCheck %s --check-prefix=HLO

// CHECK-LABEL: func.func @main
// CHECK-NOT: stablehlo.multiply
// CHECK: %[[R:[0-9]+]] = "func.call"(%arg1, %arg2, %arg0) {callee = @[[F:fused_computation]], fusion_kind = {{.*}}kInput{{.*}} -> tensor<8xf32>
// CHECK-NOT: stablehlo.
// CHECK: func.return %[[R]]
// CHECK: func.func private @[[F]](%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<8x16xf32>) -> tensor<8xf32>
// CHECK: stablehlo.multiply
// CHECK: stablehlo.add
// CHECK: "stablehlo.reduce"
// CHECK-NOT: fusion_kind

// HLO: fusion({{.*}}), kind=kInput, calls=%fused_computation
func.func @main(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>, %z: tensor<8x16xf32>) -> tensor<8xf32> {
  %0 = stablehlo.multiply %y, %z : tensor<8x16xf32>
  %1 = stablehlo.add %x, %0 : tensor<8x16xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = stablehlo.reduce(%1 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
