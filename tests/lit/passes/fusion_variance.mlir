// Multi-output (sibling) fusion: the sum and the sum of squares of one
// tensor are one kInput fusion with two results, reading x once; the
// divisions that follow form one kLoop fusion with two outputs (mean, var).
// RUN: xlac opt --pass fusion %s | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t/a %t/b
// RUN: xlac run --random-inputs --seed 4 %s --output-dir %t/a > /dev/null
// RUN: xlac opt --pass fusion %s | xlac run --random-inputs --seed 4 - --output-dir %t/b > /dev/null
// RUN: diff -r %t/a %t/b

// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[S:[0-9]+]]:2 = "func.call"(%arg0) {{.*}}kInput{{.*}} -> (tensor<16xf32>, tensor<16xf32>)
// CHECK-NEXT: %[[V:[0-9]+]]:2 = "func.call"(%[[S]]#0, %[[S]]#1) {{.*}}kLoop{{.*}} -> (tensor<16xf32>, tensor<16xf32>)
// CHECK-NEXT: func.return %[[V]]#0, %[[V]]#1
// CHECK: func.func private
// CHECK-COUNT-2: "stablehlo.reduce"
// CHECK: func.return {{.*}} : tensor<16xf32>, tensor<16xf32>
func.func @main(%x: tensor<16x32xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<32.0> : tensor<16xf32>
  %s = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1] : (tensor<16x32xf32>, tensor<f32>) -> tensor<16xf32>
  %sq = stablehlo.multiply %x, %x : tensor<16x32xf32>
  %s2 = stablehlo.reduce(%sq init: %c) applies stablehlo.add across dimensions = [1] : (tensor<16x32xf32>, tensor<f32>) -> tensor<16xf32>
  %mean = stablehlo.divide %s, %n : tensor<16xf32>
  %meansq = stablehlo.divide %s2, %n : tensor<16xf32>
  %m2 = stablehlo.multiply %mean, %mean : tensor<16xf32>
  %var = stablehlo.subtract %meansq, %m2 : tensor<16xf32>
  return %mean, %var : tensor<16xf32>, tensor<16xf32>
}
