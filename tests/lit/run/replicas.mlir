// RUN: xlac run --replicas 2 --partitions 2 %s | FileCheck %s

// CHECK: replica 0 partition 0: result[0]: tensor<ui32> = 0
// CHECK: replica 0 partition 1: result[0]: tensor<ui32> = 0
// CHECK: replica 1 partition 0: result[0]: tensor<ui32> = 1
// CHECK: replica 1 partition 1: result[0]: tensor<ui32> = 1

func.func @main() -> tensor<ui32> {
  %r = stablehlo.replica_id : tensor<ui32>
  func.return %r : tensor<ui32>
}
