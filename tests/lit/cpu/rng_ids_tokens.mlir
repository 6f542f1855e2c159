// RUN: xlac run --backend=cpu --verbose --split-input-file %s 2>&1 | FileCheck %s
// RUN: xlac run --backend=cpu --verbose --replicas 2 --partitions 3 %s 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: xlac run --backend=interp --replicas 2 --partitions 3 %s 2>&1 | FileCheck %s --check-prefix=GRID
// replica_id and partition_id compiled natively: each process of a grid
// running the one executable reads its own ids (1x1 outside a grid); and
// create_token / after_all, which compile to nothing (tokens carry no
// data), feeding an op that still goes through the interpreter.

// CHECK: result[0]: tensor<ui32> = 0
// CHECK: result[1]: tensor<ui32> = 0
// CHECK: result[2]: tensor<3xf32> = [1, 2, 3]
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 0 through the interpreter
// GRID-DAG: replica 0 partition 0: result[0]: tensor<ui32> = 0
// GRID-DAG: replica 0 partition 0: result[1]: tensor<ui32> = 0
// GRID-DAG: replica 0 partition 2: result[0]: tensor<ui32> = 0
// GRID-DAG: replica 0 partition 2: result[1]: tensor<ui32> = 2
// GRID-DAG: replica 1 partition 0: result[0]: tensor<ui32> = 1
// GRID-DAG: replica 1 partition 0: result[1]: tensor<ui32> = 0
// GRID-DAG: replica 1 partition 1: result[0]: tensor<ui32> = 1
// GRID-DAG: replica 1 partition 1: result[1]: tensor<ui32> = 1
// GRID-DAG: replica 1 partition 1: result[2]: tensor<3xf32> = [4, 5, 6]
// GRID-DAG: replica 1 partition 2: result[2]: tensor<3xf32> = [5, 6, 7]
func.func @main() -> (tensor<ui32>, tensor<ui32>, tensor<3xf32>) {
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  // ids used in computation: x + 2 * replica + partition
  %s = stablehlo.add %r, %r : tensor<ui32>
  %sp = stablehlo.add %s, %p : tensor<ui32>
  %f = stablehlo.convert %sp : (tensor<ui32>) -> tensor<f32>
  %fb = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<3xf32>
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %y = stablehlo.add %x, %fb : tensor<3xf32>
  return %r, %p, %y : tensor<ui32>, tensor<ui32>, tensor<3xf32>
}

// -----

// The token ops are native; the outfeed consuming their token is not.
// CHECK: result[0]: tensor<2xf32> = [2, 4]
// CHECK: cpu: 2 ops native (0 fusions), 1 through the interpreter
func.func @tokens() -> tensor<2xf32> {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %t = stablehlo.create_token : !stablehlo.token
  %t1 = stablehlo.after_all %t, %t : !stablehlo.token
  %t2 = "stablehlo.outfeed"(%x, %t1) {outfeed_config = ""} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  %y = stablehlo.add %x, %x : tensor<2xf32>
  return %y : tensor<2xf32>
}
