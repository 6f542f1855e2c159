// Shardings the partitioner cannot run are errors at the function, never a
// wrong answer: parameters and results split unevenly, a mesh of another size than the
// partitions, a partial (unreduced) value given to `xlac run` (a program
// compiled with one is partitioned: docs/spmd.md), GSPMD text it does not
// read.
// RUN: not xlac run --partitions 4 --random-inputs --entry uneven %s 2>&1 | FileCheck %s --check-prefix=UNEVEN
// UNEVEN: spmd_errors.mlir:[[# @LINE + 14]]:3: error: parameter 0 of @uneven: dimension 0 of 6 elements does not split evenly in 4 shards (xlac takes and returns even shards only)
// RUN: not xlac run --partitions 4 --random-inputs --entry uneven_result %s 2>&1 | FileCheck %s --check-prefix=UNEVEN-RES
// UNEVEN-RES: error: result 0 of @uneven_result: dimension 1 of 2 elements does not split evenly in 4 shards
// RUN: not xlac run --partitions 2 --random-inputs --entry uneven %s 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: error: parameter 0 of @uneven: the sharding's mesh has 4 devices, the program runs on 2 partitions
// RUN: not xlac run --partitions 4 --random-inputs --entry unreduced %s 2>&1 | FileCheck %s --check-prefix=UNRED
// UNRED: error: parameter 0: an unreduced sharding (a partial value to be summed) is not supported (xlac run does not make partial sums)
// RUN: not xlac run --partitions 4 --random-inputs --entry text %s 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT: error: result 0 of @text: the sharding {devices=[2,2]<=[4] last_tile_dims={manual}}: only {replicated} and tiled shardings (last_tile_dim_replicate included) are supported
// One partition runs the global program as written.
// RUN: xlac run --random-inputs --entry uneven %s | FileCheck %s --check-prefix=ONE
// ONE: result[0]: tensor<6x4xf32>
module @errors {
  sdy.mesh @mesh = <["x"=4]>
  func.func @uneven(%x: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<6x4xf32> {
    return %x : tensor<6x4xf32>
  }
  func.func @uneven_result(%x: tensor<8x2xf32>) -> (tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
    return %x : tensor<8x2xf32>
  }
  func.func @unreduced(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}) -> tensor<8xf32> {
    return %x : tensor<8xf32>
  }
  func.func @nowhere(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x2xf32> {
    %v, %i = stablehlo.custom_call @TopK(%x) {mhlo.sharding = "{maximal device=6}"} : (tensor<8x8xf32>) -> (tensor<8x2xf32>, tensor<8x2xi32>)
    return %v : tensor<8x2xf32>
  }
  func.func @text(%x: tensor<8x8xf32>) -> (tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]<=[4] last_tile_dims={manual}}"}) {
    return %x : tensor<8x8xf32>
  }
}
// A call placed on a device the program does not run on.
// RUN: not xlac run --partitions 4 --random-inputs --entry nowhere %s 2>&1 | FileCheck %s --check-prefix=NOWHERE
// NOWHERE: spmd_errors.mlir:[[# @LINE - 9]]:14: error: custom_call @TopK is placed on device 6, the program runs on 4 partitions
