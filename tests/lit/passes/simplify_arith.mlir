// Algebraic identities of simplify.  The first RUN checks which ops go; the
// others run the original and the simplified program on inputs chosen to
// break inexact rewrites (-0.0, NaN, infinities, INT_MIN, all-ones) and
// require bit-identical results (.npy files).
// RUN: xlac opt --pass simplify %s | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t/a %t/b
// RUN: xlac run %s --output-dir %t/a --args="[dense<[-0.0, 0.0, 0x7FC00000, 0xFF800000, -2.5]> : tensor<5xf32>, dense<[-2147483648, -1, 0, 1, 7]> : tensor<5xi32>, dense<[true, false, true, false, true]> : tensor<5xi1>]" > /dev/null
// RUN: xlac opt --pass simplify %s | xlac run - --output-dir %t/b --args="[dense<[-0.0, 0.0, 0x7FC00000, 0xFF800000, -2.5]> : tensor<5xf32>, dense<[-2147483648, -1, 0, 1, 7]> : tensor<5xi32>, dense<[true, false, true, false, true]> : tensor<5xi1>]" > /dev/null
// RUN: diff -r %t/a %t/b

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<5xf32>, %i: tensor<5xi32>, %p: tensor<5xi1>)
    -> (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>,
        tensor<5xf32>, tensor<5xf32>,
        tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>,
        tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>,
        tensor<5xi32>, tensor<5xi32>,
        tensor<5xi1>, tensor<5xi1>, tensor<5xi1>, tensor<5xi1>, tensor<5xi1>, tensor<5xi32>) {
  %fnz = stablehlo.constant dense<-0.0> : tensor<5xf32>
  %fpz = stablehlo.constant dense<0.0> : tensor<5xf32>
  %fone = stablehlo.constant dense<1.0> : tensor<5xf32>
  %fone_s = stablehlo.constant dense<1.0> : tensor<f32>
  %fone_b = stablehlo.broadcast_in_dim %fone_s, dims = [] : (tensor<f32>) -> tensor<5xf32>
  %izero = stablehlo.constant dense<0> : tensor<5xi32>
  %ione = stablehlo.constant dense<1> : tensor<5xi32>
  %iones = stablehlo.constant dense<-1> : tensor<5xi32>
  %ptrue = stablehlo.constant dense<true> : tensor<5xi1>
  %pfalse = stablehlo.constant dense<false> : tensor<5xi1>

  // float: exact identities go, inexact ones stay
  %f0 = stablehlo.add %x, %fnz : tensor<5xf32>
  %f1 = stablehlo.add %fnz, %x : tensor<5xf32>
  %f2 = stablehlo.subtract %x, %fpz : tensor<5xf32>
  %f3 = stablehlo.multiply %x, %fone_b : tensor<5xf32>
  %f4 = stablehlo.divide %x, %fone : tensor<5xf32>
  // x + 0.0 is -0.0 + 0.0 = 0.0 for x = -0.0: not an identity
  // CHECK: %[[KEEP1:[0-9]+]] = stablehlo.add %arg0, %{{.*}} : tensor<5xf32>
  %f5 = stablehlo.add %x, %fpz : tensor<5xf32>
  // x * 0.0 is NaN for x = inf and -0.0 for negative x: stays
  // CHECK: %[[KEEP2:[0-9]+]] = stablehlo.multiply %arg0, %{{.*}} : tensor<5xf32>
  %f6 = stablehlo.multiply %x, %fpz : tensor<5xf32>
  // x - (-0.0) is x + 0.0: stays
  // CHECK: %[[KEEP3:[0-9]+]] = stablehlo.subtract %arg0, %{{.*}} : tensor<5xf32>
  %f7 = stablehlo.subtract %x, %fnz : tensor<5xf32>

  // integers: identities hold for every value
  %i0 = stablehlo.add %i, %izero : tensor<5xi32>
  %i1 = stablehlo.subtract %i, %izero : tensor<5xi32>
  %i2 = stablehlo.multiply %ione, %i : tensor<5xi32>
  %i3 = stablehlo.multiply %i, %izero : tensor<5xi32>
  %i4 = stablehlo.divide %i, %ione : tensor<5xi32>
  %i5 = stablehlo.and %i, %iones : tensor<5xi32>
  %i6 = stablehlo.or %i, %izero : tensor<5xi32>
  %i7 = stablehlo.xor %izero, %i : tensor<5xi32>
  %i8 = stablehlo.subtract %i, %i : tensor<5xi32>
  %i9 = stablehlo.xor %i, %i : tensor<5xi32>
  %i10 = stablehlo.maximum %i, %i : tensor<5xi32>
  %n1 = stablehlo.negate %i : tensor<5xi32>
  %i11 = stablehlo.negate %n1 : tensor<5xi32>
  %m1 = stablehlo.not %i : tensor<5xi32>
  %i12 = stablehlo.not %m1 : tensor<5xi32>
  %i13 = stablehlo.and %i, %izero : tensor<5xi32>

  // predicates
  %p0 = stablehlo.and %p, %ptrue : tensor<5xi1>
  %p1 = stablehlo.or %pfalse, %p : tensor<5xi1>
  %np = stablehlo.not %p : tensor<5xi1>
  %p2 = stablehlo.not %np : tensor<5xi1>
  %p3 = stablehlo.compare EQ, %i, %i : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
  %p4 = stablehlo.compare LT, %i, %i, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
  %s0 = stablehlo.select %ptrue, %i, %izero : tensor<5xi1>, tensor<5xi32>

  // CHECK: %[[Z:[0-9]+]] = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: %[[ZB:[0-9]+]] = {{.*}}broadcast_in_dim{{.*}}%[[Z]]
  // CHECK: %[[Z2:[0-9]+]] = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: %[[ZB2:[0-9]+]] = {{.*}}broadcast_in_dim{{.*}}%[[Z2]]
  // CHECK: %[[T:[0-9]+]] = stablehlo.constant dense<true> : tensor<i1>
  // CHECK: %[[TB:[0-9]+]] = {{.*}}broadcast_in_dim{{.*}}%[[T]]
  // CHECK: %[[F:[0-9]+]] = stablehlo.constant dense<false> : tensor<i1>
  // CHECK: %[[FB:[0-9]+]] = {{.*}}broadcast_in_dim{{.*}}%[[F]]
  // CHECK-NOT: stablehlo.negate
  // CHECK-NOT: stablehlo.not
  // CHECK-NOT: stablehlo.select
  // CHECK: func.return %arg0, %arg0, %arg0, %arg0, %arg0, %[[KEEP1]], %[[KEEP2]], %[[KEEP3]],
  // CHECK-SAME: %arg1, %arg1, %arg1, %{{[0-9]+}}, %arg1, %arg1, %arg1, %arg1, %[[ZB]], %[[ZB2]], %arg1, %arg1, %arg1, %{{[0-9]+}},
  // CHECK-SAME: %arg2, %arg2, %arg2, %[[TB]], %[[FB]], %arg1
  func.return %f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7,
              %i0, %i1, %i2, %i3, %i4, %i5, %i6, %i7, %i8, %i9, %i10, %i11, %i12, %i13,
              %p0, %p1, %p2, %p3, %p4, %s0
    : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>,
      tensor<5xf32>, tensor<5xf32>,
      tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>,
      tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>, tensor<5xi32>,
      tensor<5xi32>, tensor<5xi32>,
      tensor<5xi1>, tensor<5xi1>, tensor<5xi1>, tensor<5xi1>, tensor<5xi1>, tensor<5xi32>
}
