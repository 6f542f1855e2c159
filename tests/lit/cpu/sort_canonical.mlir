// RUN: xlac run %s --input "x=[[0, -nan, -0, 0, -inf, 2], [-0, 7, -2, nan, 1, -2]]" | FileCheck %s
// RUN: xlac compare --random-inputs --seed 4 %s | FileCheck %s --check-prefix=CMP
// JAX's sort comparator (jnp.sort, jnp.argsort): NaNs made one NaN and -0
// made +0, then a total-order compare.  The compiled sort compares keys
// instead of calling the comparator; the permutation is the interpreter's:
// equal keys (all zeros, all NaNs) keep their order.
// CHECK: result[0]: tensor<2x6xi32> = {{\[\[}}4, 0, 2, 3, 5, 1], [2, 5, 0, 4, 1, 3]]
// CHECK: result[1]: tensor<2x6xi32> = {{\[\[}}1, 5, 0, 2, 3, 4], [3, 1, 4, 0, 2, 5]]
// CMP: COMPARE name={{.*}} max_ulp=0
func.func @main(%x: tensor<2x6xf32>) -> (tensor<2x6xi32>, tensor<2x6xi32>) {
  %i = stablehlo.iota dim = 1 : tensor<2x6xi32>
  %a:2 = "stablehlo.sort"(%x, %i) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>, %pi: tensor<i32>, %qi: tensor<i32>):
    %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %pz = stablehlo.compare EQ, %p, %z, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %p0 = stablehlo.select %pz, %z, %p : tensor<i1>, tensor<f32>
    %pn = stablehlo.compare NE, %p, %p, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %p1 = stablehlo.select %pn, %nan, %p0 : tensor<i1>, tensor<f32>
    %qz = stablehlo.compare EQ, %q, %z, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %q0 = stablehlo.select %qz, %z, %q : tensor<i1>, tensor<f32>
    %qn = stablehlo.compare NE, %q, %q, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %q1 = stablehlo.select %qn, %nan, %q0 : tensor<i1>, tensor<f32>
    %lt = stablehlo.compare LT, %p1, %q1, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<2x6xf32>, tensor<2x6xi32>) -> (tensor<2x6xf32>, tensor<2x6xi32>)
  // descending: the comparator with its arguments swapped
  %d:2 = "stablehlo.sort"(%x, %i) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>, %pi: tensor<i32>, %qi: tensor<i32>):
    %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %pz = stablehlo.compare EQ, %p, %z, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %p0 = stablehlo.select %pz, %z, %p : tensor<i1>, tensor<f32>
    %pn = stablehlo.compare NE, %p, %p, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %p1 = stablehlo.select %pn, %nan, %p0 : tensor<i1>, tensor<f32>
    %qz = stablehlo.compare EQ, %q, %z, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %q0 = stablehlo.select %qz, %z, %q : tensor<i1>, tensor<f32>
    %qn = stablehlo.compare NE, %q, %q, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %q1 = stablehlo.select %qn, %nan, %q0 : tensor<i1>, tensor<f32>
    %lt = stablehlo.compare LT, %q1, %p1, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<2x6xf32>, tensor<2x6xi32>) -> (tensor<2x6xf32>, tensor<2x6xi32>)
  return %a#1, %d#1 : tensor<2x6xi32>, tensor<2x6xi32>
}
