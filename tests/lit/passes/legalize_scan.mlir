// RUN: xlac run --random-inputs --seed 5 --print-all %s > %t.direct
// RUN: xlac opt --pass legalize %s | xlac run --random-inputs --seed 5 --print-all - > %t.legalized
// RUN: diff %t.direct %t.legalized
// RUN: xlac opt --pass legalize %s | FileCheck %s
// RUN: xlac opt --pipeline=cpu %s | xlac verify -
// RUN: xlac opt --pipeline=cpu %s | FileCheck %s --check-prefix=CPU
// The legalize pass rewrites chlo.scan into a while loop whose state is
// (position, carries..., output accumulators...): the body slices the
// inputs at the position, runs a clone of the scan's body, and writes the
// output slices into the accumulators.
// CHECK-LABEL: func.func @main
// forward: the position starts at 0 and runs while below the length
// CHECK: %[[Z:[0-9]+]] = "stablehlo.broadcast_in_dim"
// CHECK-SAME: -> tensor<2x3xf32>
// CHECK: %[[P0:[0-9]+]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK: %[[W:[0-9]+]]:3 = "stablehlo.while"(%[[P0]], %arg1, %[[Z]]) ({
// CHECK-NEXT: ^bb0(%[[C:arg[0-9]+]]: tensor<i64>, %{{arg[0-9]+}}: tensor<2xf32>, %{{arg[0-9]+}}: tensor<2x3xf32>):
// CHECK: %[[LEN:[0-9]+]] = stablehlo.constant dense<3> : tensor<i64>
// CHECK: "stablehlo.compare"(%[[C]], %[[LEN]]) {comparison_direction = #stablehlo<comparison_direction LT>}
// CHECK: }, {
// CHECK-NEXT: ^bb0(%[[I:arg[0-9]+]]: tensor<i64>, %[[ACC:arg[0-9]+]]: tensor<2xf32>, %[[OUT:arg[0-9]+]]: tensor<2x3xf32>):
// CHECK: %[[ZI:[0-9]+]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK: %[[S:[0-9]+]] = "stablehlo.dynamic_slice"(%arg0, %[[ZI]], %[[I]]) {slice_sizes = array<i64: 2, 1>} : (tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> tensor<2x1xf32>
// CHECK: %[[X:[0-9]+]] = "stablehlo.reshape"(%[[S]]) : (tensor<2x1xf32>) -> tensor<2xf32>
// CHECK: %[[SUM:[0-9]+]] = stablehlo.add %[[X]], %[[ACC]] : tensor<2xf32>
// CHECK: %[[NEXT:[0-9]+]] = stablehlo.add %[[I]], %{{[0-9]+}} : tensor<i64>
// CHECK: %[[U:[0-9]+]] = "stablehlo.reshape"(%[[SUM]]) : (tensor<2xf32>) -> tensor<2x1xf32>
// CHECK: %[[DUS:[0-9]+]] = "stablehlo.dynamic_update_slice"(%[[OUT]], %[[U]], %[[ZI]], %[[I]])
// CHECK: stablehlo.return %[[NEXT]], %[[SUM]], %[[DUS]] : tensor<i64>, tensor<2xf32>, tensor<2x3xf32>
// reverse: the position starts at the last index and runs while >= 0
// CHECK: %[[R0:[0-9]+]] = stablehlo.constant dense<3> : tensor<i64>
// CHECK: "stablehlo.while"(%[[R0]],
// CHECK: "stablehlo.compare"(%{{arg[0-9]+}}, %{{[0-9]+}}) {comparison_direction = #stablehlo<comparison_direction GE>}
// CHECK: stablehlo.constant dense<-1> : tensor<i64>
// a nested scan is rewritten too, in the same run
// CHECK: "stablehlo.while"
// CHECK: "stablehlo.while"
// CHECK: func.return %[[W]]#2, %[[W]]#1,
// What stays: a body argument of another element type than its input
// slice (the interpreter copies the bits), a carry whose type changes, an
// output of the wrong length (the interpreter reports it).
// CHECK-LABEL: func.func private @kept_bits
// CHECK: chlo.scan
// CHECK-LABEL: func.func private @kept_carry_type
// CHECK: chlo.scan
// CHECK-LABEL: func.func private @kept_wrong_length
// CHECK: chlo.scan
// CPU-LABEL: func.func @main
// CPU-NOT: chlo.scan
// CPU: func.return
func.func @main(%x: tensor<2x3xf32>, %c: tensor<2xf32>, %y: tensor<4xi32>, %m: tensor<2x2xi16>)
    -> (tensor<2x3xf32>, tensor<2xf32>, tensor<4xi32>, tensor<i32>, tensor<2x2xi16>) {
  %r:2 = chlo.scan(%x) inits(%c) dimension=1 {
  ^bb0(%a: tensor<2xf32>, %acc: tensor<2xf32>):
    %s = stablehlo.add %a, %acc : tensor<2xf32>
    stablehlo.return %s, %s : tensor<2xf32>, tensor<2xf32>
  } : (tensor<2x3xf32>, tensor<2xf32>) -> (tensor<2x3xf32>, tensor<2xf32>)
  %z = stablehlo.constant dense<0> : tensor<i32>
  %q:2 = chlo.scan(%y) inits(%z) dimension=0 attributes {is_reverse = true} {
  ^bb0(%a: tensor<i32>, %mx: tensor<i32>):
    %n = stablehlo.maximum %a, %mx : tensor<i32>
    stablehlo.return %n, %n : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  %e = stablehlo.constant dense<0> : tensor<2xi16>
  %o:2 = chlo.scan(%m) inits(%e) dimension=0 {
  ^bb0(%row: tensor<2xi16>, %acc: tensor<2xi16>):
    %e2 = stablehlo.constant dense<0> : tensor<i16>
    %p:2 = chlo.scan(%row) inits(%e2) dimension=0 {
    ^bb0(%v: tensor<i16>, %s: tensor<i16>):
      %n = stablehlo.add %v, %s : tensor<i16>
      stablehlo.return %n, %n : tensor<i16>, tensor<i16>
    } : (tensor<2xi16>, tensor<i16>) -> (tensor<2xi16>, tensor<i16>)
    %t = stablehlo.add %acc, %p#0 : tensor<2xi16>
    stablehlo.return %t, %t : tensor<2xi16>, tensor<2xi16>
  } : (tensor<2x2xi16>, tensor<2xi16>) -> (tensor<2x2xi16>, tensor<2xi16>)
  func.return %r#0, %r#1, %q#0, %q#1, %o#0 : tensor<2x3xf32>, tensor<2xf32>, tensor<4xi32>, tensor<i32>, tensor<2x2xi16>
}

func.func private @kept_bits(%x: tensor<3xf32>, %c: tensor<i32>) -> tensor<3xi32> {
  %r:2 = chlo.scan(%x) inits(%c) dimension=0 {
  ^bb0(%a: tensor<i32>, %acc: tensor<i32>):
    %s = stablehlo.add %a, %acc : tensor<i32>
    stablehlo.return %s, %s : tensor<i32>, tensor<i32>
  } : (tensor<3xf32>, tensor<i32>) -> (tensor<3xi32>, tensor<i32>)
  func.return %r#0 : tensor<3xi32>
}

func.func private @kept_carry_type(%x: tensor<3xf32>, %c: tensor<f32>) -> tensor<3xf32> {
  %r:2 = chlo.scan(%x) inits(%c) dimension=0 {
  ^bb0(%a: tensor<f32>, %acc: tensor<f32>):
    %s = stablehlo.add %a, %acc : tensor<f32>
    %w = stablehlo.convert %s : (tensor<f32>) -> tensor<f64>
    stablehlo.return %s, %w : tensor<f32>, tensor<f64>
  } : (tensor<3xf32>, tensor<f32>) -> (tensor<3xf32>, tensor<f64>)
  func.return %r#0 : tensor<3xf32>
}

func.func private @kept_wrong_length(%x: tensor<3xf32>, %c: tensor<f32>) -> tensor<4xf32> {
  %r:2 = chlo.scan(%x) inits(%c) dimension=0 {
  ^bb0(%a: tensor<f32>, %acc: tensor<f32>):
    %s = stablehlo.add %a, %acc : tensor<f32>
    stablehlo.return %s, %s : tensor<f32>, tensor<f32>
  } : (tensor<3xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)
  func.return %r#0 : tensor<4xf32>
}
