// A data-parallel step run as four replicas of one compiled program: the
// local work (a fused elementwise chain and a matrix product) is compiled,
// the collectives meet across the replicas' threads, reading each other's
// buffers.
// RUN: xlac run --replicas 4 --input x=[1,2,3,4] %s | FileCheck %s
// RUN: xlac run --backend=cpu --replicas 4 --verbose --input x=[1,2,3,4] %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// Every replica sees the same x, scales it by (replica_id + 1), and the
// all_reduce sums the four: (1+2+3+4) * (x*x + 1) = 10 * [2, 5, 10, 17].
// CHECK: replica 0 partition 0: result[0]: tensor<4xf32> = [20, 50, 100, 170]
// CHECK: replica 0 partition 0: result[1]: tensor<8xf32> = [1, 2, 3, 4, 2, 4, 6, 8]
// CHECK: replica 0 partition 0: result[2]: tensor<f32> = 30
// CHECK: replica 3 partition 0: result[0]: tensor<4xf32> = [20, 50, 100, 170]
// CHECK: replica 3 partition 0: result[1]: tensor<8xf32> = [3, 6, 9, 12, 4, 8, 12, 16]
// CHECK: replica 3 partition 0: result[2]: tensor<f32> = 120
// Compiled, everything is native: the local work, replica_id, and the two
// collectives, which meet the other replicas through the runtime.
// STATS: cpu: {{[0-9]+}} ops native (2 fusions), 0 through the interpreter

func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<8xf32>, tensor<f32>) {
  %id = stablehlo.replica_id : tensor<ui32>
  %idf = stablehlo.convert %id : (tensor<ui32>) -> tensor<f32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %k = stablehlo.add %idf, %one : tensor<f32>
  %kb = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %ones = stablehlo.constant dense<1.0> : tensor<4xf32>
  %sq = stablehlo.multiply %x, %x : tensor<4xf32>
  %p = stablehlo.add %sq, %ones : tensor<4xf32>
  %s = stablehlo.multiply %p, %kb : tensor<4xf32>
  %r = "stablehlo.all_reduce"(%s) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %t : tensor<f32>
  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  // replicas 0,1 and 2,3 gather their scaled x: [x*k0, x*k1]
  %xs = stablehlo.multiply %x, %kb : tensor<4xf32>
  %g = "stablehlo.all_gather"(%xs) {all_gather_dim = 0 : i64,
        replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<4xf32>) -> tensor<8xf32>
  // a product computed locally after the collective: sum(x * x * k) -> 30 k
  %d = stablehlo.dot_general %xs, %x, contracting_dims = [0] x [0] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  return %r, %g, %d : tensor<4xf32>, tensor<8xf32>, tensor<f32>
}
