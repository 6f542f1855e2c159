// scatter on the gpu backend (src/gpu/scatter.c), run by GPGPU-Sim (skipped
// without it) against the reference interpreter, bit for bit: rows added
// into the rows indices name (duplicates and out-of-range indices among
// them: one thread per column, the updates in order), and overlapping
// windows whose starts the indices move (one thread, the interpreter's
// order), with a body that is not one op.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: xlac run --backend=interp --random-inputs --seed 3 --input 'i=[[4], [5], [8], [11], [-2], [0], [9], [11], [1], [2], [10], [3], [1], [9], [1], [3], [7], [5], [-1], [-2], [10], [8], [9], [5], [9], [2], [4], [9], [-1], [2], [-1], [4], [11], [-1], [3], [3], [10], [0], [5], [1]]' --entry rows --output-dir %t/rows %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 3 --input 'i=[[4], [5], [8], [11], [-2], [0], [9], [11], [1], [2], [10], [3], [1], [9], [1], [3], [7], [5], [-1], [-2], [10], [8], [9], [5], [9], [2], [4], [9], [-1], [2], [-1], [4], [11], [-1], [3], [3], [10], [0], [5], [1]]' --entry rows %s \
// RUN:   --expect 0=@%t/rows/result0.npy --atol 0 --rtol 0 | FileCheck %s --check-prefix=ROWS
// ROWS: expect result[0]: ok, max abs error 0
// RUN: xlac run --backend=interp --random-inputs --seed 4 --input 'i=[[0], [2], [3], [17], [-1], [16]]' --entry windows --output-dir %t/win %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 4 --input 'i=[[0], [2], [3], [17], [-1], [16]]' --entry windows %s \
// RUN:   --expect 0=@%t/win/result0.npy --atol 0 --rtol 0 | FileCheck %s --check-prefix=WIN
// WIN: expect result[0]: ok, max abs error 0
// Scatters whose result took its operand's storage, or whose operand (a
// fill, a broadcast) was computed into the result buffer
// (passes/buffers.c): the copy kernel is left out, the values stay.
// RUN: for e in fill_result chain two_results self_update; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 5 --entry $e --output-dir %t/$e %S/../cpu/scatter_in_place.mlir > /dev/null || exit 1; \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 5 --entry $e %S/../cpu/scatter_in_place.mlir \
// RUN:     --expect 0=@%t/$e/result0.npy --atol 0 --rtol 0 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SHARED
// SHARED-COUNT-4: expect result[0]: ok, max abs error 0

func.func @rows(%x: tensor<10x16xf32>, %i: tensor<40x1xi32>, %u: tensor<40x16xf32>) -> tensor<10x16xf32> {
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<10x16xf32>, tensor<40x1xi32>, tensor<40x16xf32>) -> tensor<10x16xf32>
  return %r : tensor<10x16xf32>
}
func.func @windows(%x: tensor<20xf32>, %i: tensor<6x1xi32>, %u: tensor<6x4xf32>) -> tensor<20xf32> {
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.multiply %a, %b : tensor<f32>
    %t = stablehlo.add %s, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<20xf32>, tensor<6x1xi32>, tensor<6x4xf32>) -> tensor<20xf32>
  return %r : tensor<20xf32>
}
