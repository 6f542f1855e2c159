// A collective deadlock is reported every time, exactly once, at the
// waiting collective: replica 0 enters an all_reduce inside an `if` that
// replica 1 skips.  Whichever replica gets there last completes the
// deadlock (replica 1 by finishing), the report must not depend on it, so
// the program runs 20 times.
// (The suite runs this file once with each backend as the default.)
// RUN: for i in $(seq 20); do \
// RUN:   not xlac run --replicas 2 %s 2>%t.err >/dev/null || exit 1; \
// RUN:   FileCheck %s --input-file=%t.err || exit 1; \
// RUN: done

// CHECK: deadlock_reported.mlir:[[@LINE+9]]:{{[0-9]+}}: error: runtime error: deadlock: every process of the 2x1 grid is waiting
// CHECK-NOT: error:

func.func @main() -> tensor<f32> {
  %id = stablehlo.replica_id : tensor<ui32>
  %zero = stablehlo.constant dense<0> : tensor<ui32>
  %first = stablehlo.compare EQ, %id, %zero : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
  %x = stablehlo.constant dense<1.0> : tensor<f32>
  %r = "stablehlo.if"(%first) ({
    %s = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %t = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %t : tensor<f32>
    }) {
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
    } : (tensor<f32>) -> tensor<f32>
    stablehlo.return %s : tensor<f32>
  }, {
    stablehlo.return %x : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  func.return %r : tensor<f32>
}
