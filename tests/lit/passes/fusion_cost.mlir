// The cost model.  An expensive op on a small tensor is not fused behind a
// broadcast (it would be recomputed per broadcast element); an expensive op
// with two consumers makes one fusion with two outputs instead of being
// duplicated; a cheap op with consumers in two fusions is duplicated into
// both; ops that cannot be fused (sort) stay, and nothing forms a cycle.
// RUN: xlac opt --pass fusion --split-input-file %s | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t/a %t/b %t/c %t/d %t/e %t/f
// RUN: xlac opt --pass fusion --split-input-file %s > %t/fused.mlir
// RUN: xlac run --random-inputs --seed 6 --split-input-file %s > %t/a.txt
// RUN: xlac run --random-inputs --seed 6 --split-input-file %t/fused.mlir > %t/b.txt
// RUN: diff %t/a.txt %t/b.txt

// CHECK-LABEL: func.func @broadcast_expensive
// CHECK-NEXT: %[[E:[0-9]+]] = "func.call"(%arg0) {{.*}}kLoop{{.*}} -> tensor<8xf32>
// CHECK-NEXT: %[[R:[0-9]+]] = "func.call"(%[[E]], %arg1) {{.*}}kLoop{{.*}} -> tensor<64x8xf32>
// CHECK-NEXT: func.return %[[R]]
// CHECK: func.func private @fused_computation(%arg0: tensor<8xf32>, %arg1: tensor<64x8xf32>) -> tensor<64x8xf32>
// CHECK-NEXT: "stablehlo.broadcast_in_dim"(%arg0)
// CHECK-NEXT: stablehlo.add
// CHECK-NEXT: func.return
// CHECK: func.func private @fused_computation.1(%arg0: tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: stablehlo.exponential
// CHECK-NEXT: stablehlo.log
func.func @broadcast_expensive(%s: tensor<8xf32>, %x: tensor<64x8xf32>) -> tensor<64x8xf32> {
  %0 = stablehlo.exponential %s : tensor<8xf32>
  %1 = stablehlo.log %0 : tensor<8xf32>
  %2 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<8xf32>) -> tensor<64x8xf32>
  %3 = stablehlo.add %2, %x : tensor<64x8xf32>
  return %3 : tensor<64x8xf32>
}

// -----
// CHECK-LABEL: func.func @shared_expensive
// CHECK-NEXT: %[[R:[0-9]+]]:2 = "func.call"(%arg0) {{.*}}kLoop
// CHECK-NEXT: func.return %[[R]]#0, %[[R]]#1
// CHECK: func.func private
// CHECK-COUNT-1: stablehlo.exponential
// CHECK-NOT: stablehlo.exponential
func.func @shared_expensive(%x: tensor<32xf32>) -> (tensor<32xf32>, tensor<32xf32>) {
  %e = stablehlo.exponential %x : tensor<32xf32>
  %a = stablehlo.add %e, %x : tensor<32xf32>
  %b = stablehlo.multiply %e, %e : tensor<32xf32>
  return %a, %b : tensor<32xf32>, tensor<32xf32>
}

// -----
// The subtract feeds a reduction fusion and a transpose read by a dot: it is
// duplicated into both fusions and never written to memory itself.
// CHECK-LABEL: func.func @duplicate_cheap
// CHECK-NOT: stablehlo.subtract
// CHECK: "stablehlo.dot_general"
// CHECK: func.return
// CHECK-COUNT-2: stablehlo.subtract
func.func @duplicate_cheap(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8xf32>) {
  %d = stablehlo.subtract %x, %y : tensor<8x8xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %sq = stablehlo.multiply %d, %d : tensor<8x8xf32>
  %r = stablehlo.reduce(%sq init: %c) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  %t = stablehlo.transpose %d, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u = stablehlo.dot_general %t, %x, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %u, %r : tensor<8x8xf32>, tensor<8xf32>
}

// -----
// %e is read by the sort and by the add that also reads the sort's result:
// putting %e in the add's fusion would make a cycle, so it is fused alone.
// CHECK-LABEL: func.func @no_cycle
// CHECK-NEXT: %[[E:[0-9]+]] = stablehlo.exponential %arg0
// CHECK-NEXT: %[[S:[0-9]+]] = "stablehlo.sort"(%[[E]])
// CHECK: "func.call"(%[[E]], %[[S]], %arg0) {{.*}}kLoop
func.func @no_cycle(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = stablehlo.exponential %x : tensor<8xf32>
  %s = "stablehlo.sort"(%e) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  %t = stablehlo.add %e, %s : tensor<8xf32>
  %u = stablehlo.multiply %t, %x : tensor<8xf32>
  return %u : tensor<8xf32>
}
