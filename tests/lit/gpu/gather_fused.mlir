// Gathers fused into their consumers (passes/fusion.c, is_fusible_gather)
// on the gpu backend, against the interpreter on the same random inputs
// (indices in [-10, 10]: starts clamp at both ends): an embedding lookup
// into the add after it, an embedding bag into its reduction,
// take_along_axis under a select, one gather in two consumers of
// different shapes, and a lookup in a loop body.  tests/lit/cpu/
// gather_fused.mlir has the cpu backend's side.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: for e in lookup_add take_along in_loop; do \
// RUN:   %S/Inputs/sim.sh xlac compare --backend=gpu --random-inputs --seed 5 --entry $e %s || exit 1; done \
// RUN:   | FileCheck %s --check-prefix=EXACT
// RUN: for e in bag_mean two_users; do \
// RUN:   %S/Inputs/sim.sh xlac compare --backend=gpu --random-inputs --seed 5 --entry $e %s || exit 1; done \
// RUN:   | FileCheck %s --check-prefix=CLOSE
// EXACT-COUNT-3: COMPARE {{.*}} max_ulp=0{{$}}
// CLOSE-COUNT-2: COMPARE {{.*}} max_ulp={{[0-9]}}{{$}}

func.func @lookup_add(%table: tensor<40x32xf32>, %ids: tensor<24xi32>, %pos: tensor<24x32xf32>) -> tensor<24x32xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<24xi32>
  %neg = stablehlo.compare LT, %ids, %c0, SIGNED : (tensor<24xi32>, tensor<24xi32>) -> tensor<24xi1>
  %n = stablehlo.constant dense<40> : tensor<24xi32>
  %w = stablehlo.add %ids, %n : tensor<24xi32>
  %i = stablehlo.select %neg, %w, %ids : tensor<24xi1>, tensor<24xi32>
  %i2 = stablehlo.broadcast_in_dim %i, dims = [0] : (tensor<24xi32>) -> tensor<24x1xi32>
  %g = "stablehlo.gather"(%table, %i2) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 32>} : (tensor<40x32xf32>, tensor<24x1xi32>) -> tensor<24x32xf32>
  %r = stablehlo.add %g, %pos : tensor<24x32xf32>
  return %r : tensor<24x32xf32>
}

func.func @bag_mean(%table: tensor<30x64xf32>, %ids: tensor<6x5xi32>) -> tensor<6x64xf32> {
  %i = stablehlo.reshape %ids : (tensor<6x5xi32>) -> tensor<6x5x1xi32>
  %g = "stablehlo.gather"(%table, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 64>} : (tensor<30x64xf32>, tensor<6x5x1xi32>) -> tensor<6x5x64xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%g init: %z) applies stablehlo.add across dimensions = [1] : (tensor<6x5x64xf32>, tensor<f32>) -> tensor<6x64xf32>
  %k = stablehlo.constant dense<0.2> : tensor<6x64xf32>
  %m = stablehlo.multiply %s, %k : tensor<6x64xf32>
  return %m : tensor<6x64xf32>
}

func.func @take_along(%x: tensor<16x10xf32>, %lab: tensor<16x1x1xi32>, %ok: tensor<16x1xi1>) -> tensor<16x1xf32> {
  %g = "stablehlo.gather"(%x, %lab) {
    dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 1>} : (tensor<16x10xf32>, tensor<16x1x1xi32>) -> tensor<16x1xf32>
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<16x1xf32>
  %r = stablehlo.select %ok, %g, %nan : tensor<16x1xi1>, tensor<16x1xf32>
  return %r : tensor<16x1xf32>
}

func.func @two_users(%table: tensor<20x8xf32>, %ids: tensor<12x1xi32>) -> (tensor<12x8xf32>, tensor<12xf32>) {
  %g = "stablehlo.gather"(%table, %ids) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 8>} : (tensor<20x8xf32>, tensor<12x1xi32>) -> tensor<12x8xf32>
  %e = stablehlo.exponential %g : tensor<12x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%g init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<12x8xf32>, tensor<f32>) -> tensor<12xf32>
  return %e, %s : tensor<12x8xf32>, tensor<12xf32>
}

func.func @in_loop(%table: tensor<16x8xf32>, %ids: tensor<4x6x1xi32>, %acc0: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %acc = %acc0) : tensor<i32>, tensor<6x8xf32>
  cond {
    %four = stablehlo.constant dense<4> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %four, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %s = stablehlo.dynamic_slice %ids, %i, %z, %z, sizes = [1, 6, 1] : (tensor<4x6x1xi32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x6x1xi32>
    %s2 = stablehlo.reshape %s : (tensor<1x6x1xi32>) -> tensor<6x1xi32>
    %g = "stablehlo.gather"(%table, %s2) {
      dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 1, 8>} : (tensor<16x8xf32>, tensor<6x1xi32>) -> tensor<6x8xf32>
    %n = stablehlo.add %acc, %g : tensor<6x8xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %n : tensor<i32>, tensor<6x8xf32>
  }
  return %r#1 : tensor<6x8xf32>
}
