// scatter by ranges on the gpu backend (src/gpu/scatter.c, emit_by_range:
// a block per range of the operand, the batch scanned in order), against
// the reference interpreter bit for bit: an embedding gradient of 600
// lookups into 50 rows of 8 (by default: short windows, a long batch),
// its indices computed in the program with duplicates, negative and
// too-large ones; last-update-wins (a body returning the update, so any
// reordering shows) over two operands at once; a scatter with batching
// dims; and the small rows of scatter.mlir with XLAC_GPU_SCATTER_RANGES=1.
// XLAC_GPU_SCATTER_RANGES=0 gives the thread-per-column kernel the same
// results.  The dumped IR shows which kernel ran (its shared scan array).
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in emb last batched; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 7 --entry $e --output-dir %t/$e %s > /dev/null || exit 1; \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 7 --entry $e %s --xla_dump_to=%t/dump_$e \
// RUN:     --expect 0=@%t/$e/result0.npy --atol 0 --rtol 0 || exit 1; \
// RUN:   grep -c xlac_scatter_scan %t/dump_$e/*gpu-ir-no-opt.ll | sed 's/^[1-9][0-9]*$/by range/'; \
// RUN: done | FileCheck %s
// CHECK: expect result[0]: ok, max abs error 0
// CHECK: by range
// CHECK: expect result[0]: ok, max abs error 0
// CHECK: by range
// CHECK: expect result[0]: ok, max abs error 0
// CHECK: by range
// RUN: xlac run --backend=interp --random-inputs --seed 7 --entry last --output-dir %t/last2 %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 7 --entry last %s \
// RUN:   --expect 0=@%t/last2/result0.npy --expect 1=@%t/last2/result1.npy --atol 0 --rtol 0 | FileCheck %s --check-prefix=TWO
// TWO: expect result[0]: ok, max abs error 0
// TWO: expect result[1]: ok, equal
// RUN: xlac run --backend=interp --random-inputs --seed 3 --input 'i=[[4], [5], [8], [11], [-2], [0], [9], [11], [1], [2], [10], [3], [1], [9], [1], [3], [7], [5], [-1], [-2], [10], [8], [9], [5], [9], [2], [4], [9], [-1], [2], [-1], [4], [11], [-1], [3], [3], [10], [0], [5], [1]]' --entry rows --output-dir %t/rows %S/scatter.mlir > /dev/null
// RUN: XLAC_GPU_SCATTER_RANGES=1 %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 3 --input 'i=[[4], [5], [8], [11], [-2], [0], [9], [11], [1], [2], [10], [3], [1], [9], [1], [3], [7], [5], [-1], [-2], [10], [8], [9], [5], [9], [2], [4], [9], [-1], [2], [-1], [4], [11], [-1], [3], [3], [10], [0], [5], [1]]' --entry rows %S/scatter.mlir \
// RUN:   --expect 0=@%t/rows/result0.npy --atol 0 --rtol 0 | FileCheck %s --check-prefix=ROWS
// ROWS: expect result[0]: ok, max abs error 0
// RUN: XLAC_GPU_SCATTER_RANGES=0 %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 7 --entry emb %s --xla_dump_to=%t/dump_off \
// RUN:   --expect 0=@%t/emb/result0.npy --atol 0 --rtol 0 | FileCheck %s --check-prefix=OFF
// OFF: expect result[0]: ok, max abs error 0
// RUN: not grep -q xlac_scatter_scan %t/dump_off/*gpu-ir-no-opt.ll

// indices (37 j mod 61) - 5: -5 .. 55 over 50 rows, each about ten times
func.func @emb(%x: tensor<50x8xf32>, %u: tensor<600x8xf32>) -> tensor<50x8xf32> {
  %j = stablehlo.iota dim = 0 : tensor<600x1xi32>
  %c37 = stablehlo.constant dense<37> : tensor<600x1xi32>
  %c61 = stablehlo.constant dense<61> : tensor<600x1xi32>
  %c5 = stablehlo.constant dense<5> : tensor<600x1xi32>
  %m = stablehlo.multiply %j, %c37 : tensor<600x1xi32>
  %r = stablehlo.remainder %m, %c61 : tensor<600x1xi32>
  %i = stablehlo.subtract %r, %c5 : tensor<600x1xi32>
  %s = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<50x8xf32>, tensor<600x1xi32>, tensor<600x8xf32>) -> tensor<50x8xf32>
  return %s : tensor<50x8xf32>
}
// the last update of each row wins, in both operands
func.func @last(%x: tensor<30x4xf32>, %y: tensor<30x4xi32>, %u: tensor<300x4xf32>, %v: tensor<300x4xi32>) -> (tensor<30x4xf32>, tensor<30x4xi32>) {
  %j = stablehlo.iota dim = 0 : tensor<300x1xi32>
  %c7 = stablehlo.constant dense<7> : tensor<300x1xi32>
  %c31 = stablehlo.constant dense<31> : tensor<300x1xi32>
  %m = stablehlo.multiply %j, %c7 : tensor<300x1xi32>
  %i = stablehlo.remainder %m, %c31 : tensor<300x1xi32>
  %s:2 = "stablehlo.scatter"(%x, %y, %i, %u, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    stablehlo.return %c, %d : tensor<f32>, tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<30x4xf32>, tensor<30x4xi32>, tensor<300x1xi32>, tensor<300x4xf32>, tensor<300x4xi32>) -> (tensor<30x4xf32>, tensor<30x4xi32>)
  return %s#0, %s#1 : tensor<30x4xf32>, tensor<30x4xi32>
}
// batching dims: each of 3 batches has its own 20 rows
func.func @batched(%x: tensor<3x20x4xf32>, %u: tensor<3x100x4xf32>) -> tensor<3x20x4xf32> {
  %j = stablehlo.iota dim = 1 : tensor<3x100x1xi32>
  %k = stablehlo.iota dim = 0 : tensor<3x100x1xi32>
  %c11 = stablehlo.constant dense<11> : tensor<3x100x1xi32>
  %c23 = stablehlo.constant dense<23> : tensor<3x100x1xi32>
  %m = stablehlo.multiply %j, %c11 : tensor<3x100x1xi32>
  %n = stablehlo.add %m, %k : tensor<3x100x1xi32>
  %i = stablehlo.remainder %n, %c23 : tensor<3x100x1xi32>
  %s = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.multiply %a, %b : tensor<f32>
    %w = stablehlo.add %t, %b : tensor<f32>
    stablehlo.return %w : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>} : (tensor<3x20x4xf32>, tensor<3x100x1xi32>, tensor<3x100x4xf32>) -> tensor<3x20x4xf32>
  return %s : tensor<3x20x4xf32>
}
