// Common subexpression elimination.
// RUN: xlac opt --pass cse %s | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t/a %t/b
// RUN: xlac run --random-inputs --seed 5 %s --output-dir %t/a > /dev/null
// RUN: xlac opt --pass cse %s | xlac run --random-inputs --seed 5 - --output-dir %t/b > /dev/null
// RUN: diff -r %t/a %t/b

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>, %k: tensor<i32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<4xi1>, tensor<4xi1>,
        tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<4xi1>) {
  // CHECK: %[[A:[0-9]+]] = stablehlo.add %arg0, %arg1
  %a1 = stablehlo.add %x, %y : tensor<4xf32>
  %a2 = stablehlo.add %x, %y : tensor<4xf32>
  // operands in another order are another op (NaN payloads may differ)
  // CHECK-NEXT: %[[A3:[0-9]+]] = stablehlo.add %arg1, %arg0
  %a3 = stablehlo.add %y, %x : tensor<4xf32>
  // equal constants merge; -0.0 and 0.0 do not
  // CHECK-NEXT: %[[C1:[0-9]+]] = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK-NEXT: %[[C3:[0-9]+]] = stablehlo.constant dense<-0.0> : tensor<f32>
  %c1 = stablehlo.constant dense<0.0> : tensor<f32>
  %c2 = stablehlo.constant dense<0.0> : tensor<f32>
  %c3 = stablehlo.constant dense<-0.0> : tensor<f32>
  // attributes take part
  // CHECK-NEXT: %[[LT:[0-9]+]] = "stablehlo.compare"(%[[A]], %[[A]]) {comparison_direction = #stablehlo<comparison_direction LT>}
  // CHECK-NEXT: %[[GT:[0-9]+]] = "stablehlo.compare"(%[[A]], %[[A]]) {comparison_direction = #stablehlo<comparison_direction GT>}
  %p1 = stablehlo.compare LT, %a1, %a2 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %p2 = stablehlo.compare GT, %a1, %a2 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %p3 = stablehlo.compare LT, %a2, %a1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // chains: once the operands merge, the users merge too
  // CHECK-NEXT: %[[M:[0-9]+]] = stablehlo.multiply %[[A]], %[[A]]
  %m1 = stablehlo.multiply %a1, %a1 : tensor<4xf32>
  %m2 = stablehlo.multiply %a2, %a2 : tensor<4xf32>
  // structurally equal regions merge
  // CHECK-NEXT: %[[R:[0-9]+]] = "stablehlo.reduce"
  %r1 = stablehlo.reduce(%m1 init: %c1) applies stablehlo.add across dimensions = [0]
    : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %r2 = stablehlo.reduce(%m2 init: %c2) applies stablehlo.add across dimensions = [0]
    : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  // a different body does not
  // CHECK: %[[R3:[0-9]+]] = "stablehlo.reduce"
  // CHECK: stablehlo.maximum
  %r3 = stablehlo.reduce(%m1 init: %c1) applies stablehlo.maximum across dimensions = [0]
    : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  // inside a region, values of the enclosing block are available
  // CHECK: "stablehlo.case"
  %w = "stablehlo.case"(%k) ({
    // CHECK-NOT: stablehlo.add %arg0, %arg1
    %in = stablehlo.add %x, %y : tensor<4xf32>
    stablehlo.return %in : tensor<4xf32>
  }, {
    // CHECK: stablehlo.subtract %arg0, %arg1
    %s1 = stablehlo.subtract %x, %y : tensor<4xf32>
    stablehlo.return %s1 : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  // but what a region defines is not visible after it
  // CHECK: %[[S:[0-9]+]] = stablehlo.subtract %arg0, %arg1
  %s2 = stablehlo.subtract %x, %y : tensor<4xf32>
  // CHECK: func.return %[[A]], %[[A]], %[[A3]], %[[C1]], %[[C3]], %[[LT]], %[[LT]], %[[M]], %{{[0-9]+}}, %[[S]], %[[R3]], %[[R]], %[[R]], %[[GT]] :
  func.return %a1, %a2, %a3, %c2, %c3, %p1, %p3, %m2, %w, %s2, %r3, %r1, %r2, %p2
    : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<4xi1>, tensor<4xi1>,
      tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<4xi1>
}
