// A scatter computing its updates itself on the gpu backend (gpu/
// scatter.c, codegen/scatter_index.c scatter_update_src): the op that
// produces them for the scatter alone launches nothing, and the scatter's
// kernel computes each update from that op's operands where it applies
// it, in the kernel of a thread per window position, in the kernel of
// ranges of the table (an embedding gradient: 5 rows of 16 per bag, here
// with XLAC_GPU_SCATTER_RANGES=1), and in the one-thread kernel (scalar
// updates).  Updates that read the storage the scatter writes are
// computed apart.  Every entry against the interpreter on the same random
// inputs; tests/lit/cpu/scatter_update_fused.mlir has the cpu side.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: for e in bag_grad scaled scalar_updates reads_operand; do \
// RUN:   %S/Inputs/sim.sh xlac compare --backend=gpu --random-inputs --seed 4 --entry $e %s || exit 1; \
// RUN:   XLAC_GPU_SCATTER_RANGES=1 %S/Inputs/sim.sh xlac compare --backend=gpu --random-inputs --seed 4 --entry $e %s || exit 1; \
// RUN:   done | FileCheck %s
// CHECK-COUNT-8: COMPARE {{.*}} max_ulp={{[01]}}{{$}}
// Two kernels for the bag's gradient (the table's copy and the scatter;
// three before, with the broadcast's), four where the updates read the
// table the scatter updates in place (the exponential, the updates, the
// scatter, the add):
// RUN: XLAC_CUDA_DRIVER=simt xlac run --backend=gpu --random-inputs --entry bag_grad --verbose %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ONE
// ONE: gpu: 2 kernels
// RUN: XLAC_CUDA_DRIVER=simt xlac run --backend=gpu --random-inputs --entry reads_operand --verbose %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=APART
// APART: gpu: 4 kernels

func.func @bag_grad(%dy: tensor<6x16xf32>, %ids: tensor<6x5x1xi32>, %t: tensor<30x16xf32>) -> tensor<30x16xf32> {
  %u = stablehlo.broadcast_in_dim %dy, dims = [0, 2] : (tensor<6x16xf32>) -> tensor<6x5x16xf32>
  %r = "stablehlo.scatter"(%t, %ids, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>} : (tensor<30x16xf32>, tensor<6x5x1xi32>, tensor<6x5x16xf32>) -> tensor<30x16xf32>
  return %r : tensor<30x16xf32>
}

func.func @scaled(%dy: tensor<6x16xf32>, %ids: tensor<6x5x1xi32>) -> tensor<30x16xf32> {
  %b = stablehlo.broadcast_in_dim %dy, dims = [0, 2] : (tensor<6x16xf32>) -> tensor<6x5x16xf32>
  %k = stablehlo.constant dense<0.25> : tensor<6x5x16xf32>
  %u = stablehlo.multiply %b, %k : tensor<6x5x16xf32>
  %z = stablehlo.constant dense<0.0> : tensor<30x16xf32>
  %r = "stablehlo.scatter"(%z, %ids, %u) ({
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %s = stablehlo.add %a, %c : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>} : (tensor<30x16xf32>, tensor<6x5x1xi32>, tensor<6x5x16xf32>) -> tensor<30x16xf32>
  return %r : tensor<30x16xf32>
}

func.func @scalar_updates(%x: tensor<12x9xi32>, %ids: tensor<20x2xi32>, %v: tensor<20xi32>) -> tensor<12x9xi32> {
  %one = stablehlo.constant dense<3> : tensor<20xi32>
  %u = stablehlo.multiply %v, %one : tensor<20xi32>
  %r = "stablehlo.scatter"(%x, %ids, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>} : (tensor<12x9xi32>, tensor<20x2xi32>, tensor<20xi32>) -> tensor<12x9xi32>
  return %r : tensor<12x9xi32>
}

func.func @reads_operand(%t0: tensor<30x16xf32>, %ids: tensor<8x1xi32>) -> tensor<30x16xf32> {
  %t = stablehlo.exponential %t0 : tensor<30x16xf32>
  %w = stablehlo.slice %t [0:8, 0:16] : (tensor<30x16xf32>) -> tensor<8x16xf32>
  %two = stablehlo.constant dense<2.0> : tensor<8x16xf32>
  %u = stablehlo.multiply %w, %two : tensor<8x16xf32>
  %r = "stablehlo.scatter"(%t, %ids, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<30x16xf32>, tensor<8x1xi32>, tensor<8x16xf32>) -> tensor<30x16xf32>
  %r2 = stablehlo.add %r, %r : tensor<30x16xf32>
  return %r2 : tensor<30x16xf32>
}
