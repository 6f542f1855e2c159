// Replicas and partitions on the gpu backend: `--replicas 2 --partitions 2`
// runs four processes on the one device, each with its own buffers, whose
// collectives (all_reduce, all_gather, reduce_scatter, all_to_all,
// collective_permute, collective_broadcast; replica groups across
// replicas, across partitions, with channel handles and global device ids)
// meet as the interpreter's do.  Every operand depends on the process's
// replica_id and partition_id (kernels), so every process sends something
// different.  Compared with the interpreter on the same random inputs:
// adds, maxima and moves only, so every float is exact.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: for e in reduce gather scatter to_all permute broadcast ids; do \
// RUN:   %S/Inputs/sim.sh xlac compare --backend=gpu --random-inputs --seed 7 --replicas 2 --partitions 2 --entry $e %s \
// RUN:   || exit 1; done | FileCheck %s
// One line per result of every process; a differing one fails the match.
// CHECK-COUNT-8: partition {{[01]}}: result[{{[0-9]}}]: {{(f32, max abs error 0, max rel error 0, max 0 ULP, 0 of [0-9]+ elements differ|(i32|ui32), identical)}}
// CHECK: COMPARE name={{.*}} max_ulp=0
// CHECK-COUNT-8: partition {{[01]}}: result[{{[0-9]}}]: f32, max abs error 0, max rel error 0, max 0 ULP, 0 of
// CHECK: COMPARE name={{.*}} max_ulp=0
// CHECK-COUNT-4: partition {{[01]}}: result[0]: f32, max abs error 0, max rel error 0, max 0 ULP, 0 of 6 elements
// CHECK: COMPARE name={{.*}} max_ulp=0
// CHECK-COUNT-4: partition {{[01]}}: result[0]: f32, max abs error 0, max rel error 0, max 0 ULP, 0 of 12 elements
// CHECK: COMPARE name={{.*}} max_ulp=0
// CHECK-COUNT-8: partition {{[01]}}: result[{{[01]}}]: f32, max abs error 0, max rel error 0, max 0 ULP, 0 of 12 elements
// CHECK: COMPARE name={{.*}} max_ulp=0
// CHECK-COUNT-4: partition {{[01]}}: result[0]: i32, identical (0 of 12 elements differ)
// CHECK: COMPARE name={{.*}} max_ulp=0
// CHECK-COUNT-8: partition {{[01]}}: result[{{[01]}}]: ui32, identical (0 of 1 elements differ)
// CHECK: COMPARE name={{.*}} max_ulp=0
// The results themselves: each process's ids, and a sum over the replicas.
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --replicas 2 --partitions 2 --entry ids %s | FileCheck %s --check-prefix=IDS
// IDS: replica 0 partition 0: result[0]: tensor<ui32> = 0
// IDS: replica 0 partition 0: result[1]: tensor<ui32> = 0
// IDS: replica 0 partition 1: result[0]: tensor<ui32> = 0
// IDS: replica 0 partition 1: result[1]: tensor<ui32> = 1
// IDS: replica 1 partition 0: result[0]: tensor<ui32> = 1
// IDS: replica 1 partition 0: result[1]: tensor<ui32> = 0
// IDS: replica 1 partition 1: result[0]: tensor<ui32> = 1
// IDS: replica 1 partition 1: result[1]: tensor<ui32> = 1
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --replicas 2 --partitions 2 --entry sum %s | FileCheck %s --check-prefix=SUM
// SUM: replica 0 partition 0: result[0]: tensor<2xf32> = [2, 4]
// SUM: replica 0 partition 1: result[0]: tensor<2xf32> = [4, 6]
// SUM: replica 1 partition 0: result[0]: tensor<2xf32> = [2, 4]
// SUM: replica 1 partition 1: result[0]: tensor<2xf32> = [4, 6]

// x + 10 * replica_id + partition_id, computed by kernels
func.func private @mine(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  %rf = stablehlo.convert %r : (tensor<ui32>) -> tensor<f32>
  %pf = stablehlo.convert %p : (tensor<ui32>) -> tensor<f32>
  %ten = stablehlo.constant dense<10.0> : tensor<f32>
  %a = stablehlo.multiply %rf, %ten : tensor<f32>
  %b = stablehlo.add %a, %pf : tensor<f32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
  %y = stablehlo.add %x, %bb : tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// across replicas (the default), across partitions (a channel), and over
// global device ids
func.func @reduce(%x: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %m = call @mine(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %s = "stablehlo.all_reduce"(%m) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %g = "stablehlo.all_reduce"(%m) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {replica_groups = dense<[[0, 3], [1, 2]]> : tensor<2x2xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %s, %g : tensor<4x3xf32>, tensor<4x3xf32>
}

func.func @gather(%x: tensor<4x3xf32>) -> (tensor<8x3xf32>, tensor<4x12xf32>) {
  %m = call @mine(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %a = "stablehlo.all_gather"(%m) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x3xf32>) -> tensor<8x3xf32>
  %b = "stablehlo.all_gather"(%m) {all_gather_dim = 1 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (tensor<4x3xf32>) -> tensor<4x12xf32>
  return %a, %b : tensor<8x3xf32>, tensor<4x12xf32>
}

func.func @scatter(%x: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %m = call @mine(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = "stablehlo.reduce_scatter"(%m) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

func.func @to_all(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %m = call @mine(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = "stablehlo.all_to_all"(%m) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64,
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// a swap across replicas, and a ring over the partitions
func.func @permute(%x: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %m = call @mine(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %a = "stablehlo.collective_permute"(%m) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %b = "stablehlo.collective_permute"(%m) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %a, %b : tensor<4x3xf32>, tensor<4x3xf32>
}

func.func @broadcast(%x: tensor<4x3xi32>) -> tensor<4x3xi32> {
  %r = stablehlo.replica_id : tensor<ui32>
  %ri = stablehlo.convert %r : (tensor<ui32>) -> tensor<i32>
  %rb = stablehlo.broadcast_in_dim %ri, dims = [] : (tensor<i32>) -> tensor<4x3xi32>
  %m = stablehlo.add %x, %rb : tensor<4x3xi32>
  %b = "stablehlo.collective_broadcast"(%m) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<4x3xi32>) -> tensor<4x3xi32>
  return %b : tensor<4x3xi32>
}

func.func @ids() -> (tensor<ui32>, tensor<ui32>) {
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  return %r, %p : tensor<ui32>, tensor<ui32>
}

// [1, 2] + partition_id, summed over the two replicas
func.func @sum() -> tensor<2xf32> {
  %c = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %x = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<2xf32>) -> tensor<2x2xf32>
  %s = stablehlo.slice %x [0:1, 0:2] : (tensor<2x2xf32>) -> tensor<1x2xf32>
  %y = stablehlo.reshape %s : (tensor<1x2xf32>) -> tensor<2xf32>
  %p = stablehlo.partition_id : tensor<ui32>
  %pf = stablehlo.convert %p : (tensor<ui32>) -> tensor<f32>
  %pb = stablehlo.broadcast_in_dim %pf, dims = [] : (tensor<f32>) -> tensor<2xf32>
  %z = stablehlo.add %y, %pb : tensor<2xf32>
  %r = "stablehlo.all_reduce"(%z) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
