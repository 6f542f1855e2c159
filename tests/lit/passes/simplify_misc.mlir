// More simplify rules: select with equal arms, min/max of a value with
// itself (floats too: NaN and -0.0 come through unchanged), reductions over
// no dimensions from the body's identity, and get_tuple_element of a tuple.
// RUN: xlac opt --pass simplify %s | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t/a %t/b
// RUN: xlac run %s --output-dir %t/a --args="[dense<[-0.0, 0x7FC00000, 0xFF800000, 2.5]> : tensor<4xf32>, dense<[true, false, true, false]> : tensor<4xi1>, dense<[-2147483648, -1, 0, 2147483647]> : tensor<4xi32>]" > /dev/null
// RUN: xlac opt --pass simplify %s | xlac run - --output-dir %t/b --args="[dense<[-0.0, 0x7FC00000, 0xFF800000, 2.5]> : tensor<4xf32>, dense<[true, false, true, false]> : tensor<4xi1>, dense<[-2147483648, -1, 0, 2147483647]> : tensor<4xi32>]" > /dev/null
// RUN: diff -r %t/a %t/b

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<4xf32>, %p: tensor<4xi1>, %i: tensor<4xi32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi1>,
        tensor<4xf32>, tensor<4xi32>, tensor<4xf32>) {
  %s0 = stablehlo.select %p, %x, %x : tensor<4xi1>, tensor<4xf32>
  %m0 = stablehlo.maximum %x, %x : tensor<4xf32>
  %m1 = stablehlo.minimum %x, %x : tensor<4xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %r0 = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = []
    : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %imax = stablehlo.constant dense<2147483647> : tensor<i32>
  %r1 = stablehlo.reduce(%i init: %imax) applies stablehlo.minimum across dimensions = []
    : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  %ione = stablehlo.constant dense<1> : tensor<i32>
  %r2 = stablehlo.reduce(%i init: %ione) applies stablehlo.multiply across dimensions = []
    : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  %pfalse = stablehlo.constant dense<false> : tensor<i1>
  %r3 = stablehlo.reduce(%p init: %pfalse) applies stablehlo.or across dimensions = []
    : (tensor<4xi1>, tensor<i1>) -> tensor<4xi1>
  %t = stablehlo.tuple %x, %i : tuple<tensor<4xf32>, tensor<4xi32>>
  %g0 = stablehlo.get_tuple_element %t[0] : (tuple<tensor<4xf32>, tensor<4xi32>>) -> tensor<4xf32>
  %g1 = stablehlo.get_tuple_element %t[1] : (tuple<tensor<4xf32>, tensor<4xi32>>) -> tensor<4xi32>
  // a float max reduction from 0.0 is not the identity (max(0, -1) = 0): stays
  // CHECK: %[[K:[0-9]+]] = "stablehlo.reduce"(%arg0
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r4 = stablehlo.reduce(%x init: %zero) applies stablehlo.maximum across dimensions = []
    : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK-NOT: stablehlo.select
  // CHECK-NOT: stablehlo.tuple
  // CHECK: func.return %arg0, %arg0, %arg0, %arg0, %arg2, %arg2, %arg1, %arg0, %arg2, %[[K]] :
  func.return %s0, %m0, %m1, %r0, %r1, %r2, %r3, %g0, %g1, %r4
    : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi1>,
      tensor<4xf32>, tensor<4xi32>, tensor<4xf32>
}
