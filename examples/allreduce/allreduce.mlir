// Data-parallel training in miniature: every replica computes a gradient
// from its own shard of the data, an all_reduce sums the gradients over the
// replicas, and every replica takes the same step with their mean -- so the
// weights stay identical everywhere.  The program does not know how many
// replicas there are: it counts them with an all_reduce of ones.
//
// examples/allreduce/main.c (build/bin/example-allreduce) runs it on 4
// replicas that are threads of one process:
// RUN: example-allreduce %s | FileCheck %s --check-prefix=GRID
// GRID: 4 replicas in this process
// GRID-DAG: replica 0 of 4: x = [0, 1, 2, 3], w = [1.25, 2.25, 3.25, 4.25]
// GRID-DAG: replica 1 of 4: x = [1, 2, 3, 4], w = [1.25, 2.25, 3.25, 4.25]
// GRID-DAG: replica 2 of 4: x = [2, 3, 4, 5], w = [1.25, 2.25, 3.25, 4.25]
// GRID-DAG: replica 3 of 4: x = [3, 4, 5, 6], w = [1.25, 2.25, 3.25, 4.25]
//
// and, the same binary under mpirun, as 4 processes with one replica each:
// examples/allreduce/mpi.test.
func.func @main(%w: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // the gradient of 0.5 * |w - x|^2 on this replica's shard
  %g = stablehlo.subtract %w, %x : tensor<4xf32>
  %sum = "stablehlo.all_reduce"(%g) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[]> : tensor<0x0xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %n = "stablehlo.all_reduce"(%one) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[]> : tensor<0x0xi64>} : (tensor<f32>) -> tensor<f32>
  %nb = stablehlo.broadcast_in_dim %n, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %mean = stablehlo.divide %sum, %nb : tensor<4xf32>
  %lr = stablehlo.constant dense<0.5> : tensor<4xf32>
  %step = stablehlo.multiply %lr, %mean : tensor<4xf32>
  %w2 = stablehlo.subtract %w, %step : tensor<4xf32>
  func.return %w2 : tensor<4xf32>
}
