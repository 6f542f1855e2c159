// A gather whose elements can be computed one by one (ir/match.c
// match_gather) is fused into its consumers: an embedding lookup into the
// positional add after it, an embedding bag into the reduction over the
// bag, a take_along_axis into a select.  A gather with no fusible consumer
// keeps its own kernel, a copy per slice, its indices computed apart.
// Results must be the interpreter's: the random indices of `compare` lie
// in [-10, 10], so starts clamp at both ends and the negative ones wrap
// as JAX writes them.
// RUN: xlac compare --random-inputs --entry lookup_add %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry bag_mean %s | FileCheck %s --check-prefix=CLOSE
// RUN: xlac compare --random-inputs --entry take_along %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry two_users %s | FileCheck %s --check-prefix=CLOSE
// RUN: xlac compare --random-inputs --entry lookup_i64_transposed %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry lookup_alone %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry in_loop %s | FileCheck %s --check-prefix=EXACT
// RUN: rm -rf %t && xlac run --backend=cpu --random-inputs --entry lookup_add --xla_dump_to=%t %s > /dev/null
// RUN: FileCheck %s --check-prefix=FUSED < %t/module_0000.module.after_optimizations.txt
// RUN: FileCheck %s --check-prefix=VEC < %t/module_0000.module.ir-with-opt.ll
// RUN: rm -rf %t && xlac run --backend=cpu --random-inputs --entry lookup_alone --xla_dump_to=%t %s > /dev/null
// RUN: FileCheck %s --check-prefix=ALONE < %t/module_0000.module.after_optimizations.txt
// EXACT: COMPARE {{.*}} max_ulp=0{{$}}
// CLOSE: COMPARE {{.*}} max_ulp={{[0-9]}}{{$}}
// The lookup, the index normalization and the add are one loop fusion.
// FUSED-LABEL: ENTRY %lookup_add
// FUSED-NEXT: parameter(0)
// FUSED-NEXT: parameter(1)
// FUSED-NEXT: parameter(2)
// FUSED-NEXT: ROOT {{.*}} fusion({{.*}}), kind=kLoop
// FUSED-NEXT: }
// Its start index is loaded once per row and the row is added in vectors,
// with no run-time check that the result overlaps the inputs (the
// kernel's alias scopes say it does not).
// VEC: load <{{[0-9]+}} x float>{{.*}}!alias.scope
// VEC: store <{{[0-9]+}} x float>{{.*}}!noalias
// VEC-NOT: vector.memcheck
// ALONE-LABEL: %lookup_alone
// ALONE: fusion({{.*}}), kind=kLoop
// ALONE-NEXT: ROOT {{.*}} gather(

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

// The embedding bag: 5 rows a bag, summed and scaled.
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

// take_along_axis (batching dimensions) under a select, as a cross-entropy
// loss picks each row's label.
func.func @take_along(%x: tensor<16x10xf32>, %lab: tensor<16x1x1xi32>, %ok: tensor<16x1xi1>) -> tensor<16x1xf32> {
  %g = "stablehlo.gather"(%x, %lab) {
    dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 1>} : (tensor<16x10xf32>, tensor<16x1x1xi32>) -> tensor<16x1xf32>
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<16x1xf32>
  %r = stablehlo.select %ok, %g, %nan : tensor<16x1xi1>, tensor<16x1xf32>
  return %r : tensor<16x1xf32>
}

// Two consumers of different shapes: the gather is computed in each.
func.func @two_users(%table: tensor<20x8xf32>, %ids: tensor<12x1xi32>) -> (tensor<12x8xf32>, tensor<12xf32>) {
  %g = "stablehlo.gather"(%table, %ids) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 8>} : (tensor<20x8xf32>, tensor<12x1xi32>) -> tensor<12x8xf32>
  %e = stablehlo.exponential %g : tensor<12x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%g init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<12x8xf32>, tensor<f32>) -> tensor<12xf32>
  return %e, %s : tensor<12x8xf32>, tensor<12xf32>
}

// 64-bit indices, windows of 3 of 7 columns from a (row, column) start,
// read transposed.
func.func @lookup_i64_transposed(%x: tensor<9x7xi32>, %ids: tensor<10x2xi64>) -> tensor<3x10xi32> {
  %g = "stablehlo.gather"(%x, %ids) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 3>} : (tensor<9x7xi32>, tensor<10x2xi64>) -> tensor<10x3xi32>
  %t = stablehlo.transpose %g, dims = [1, 0] : (tensor<10x3xi32>) -> tensor<3x10xi32>
  %one = stablehlo.constant dense<1> : tensor<3x10xi32>
  %r = stablehlo.add %t, %one : tensor<3x10xi32>
  return %r : tensor<3x10xi32>
}

// Returned as it is: the gather kernel of its own.
func.func @lookup_alone(%table: tensor<40x32xf32>, %ids: tensor<24xi32>) -> tensor<24x32xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<24xi32>
  %neg = stablehlo.compare LT, %ids, %c0, SIGNED : (tensor<24xi32>, tensor<24xi32>) -> tensor<24xi1>
  %n = stablehlo.constant dense<40> : tensor<24xi32>
  %w = stablehlo.add %ids, %n : tensor<24xi32>
  %i = stablehlo.select %neg, %w, %ids : tensor<24xi1>, tensor<24xi32>
  %i2 = stablehlo.broadcast_in_dim %i, dims = [0] : (tensor<24xi32>) -> tensor<24x1xi32>
  %g = "stablehlo.gather"(%table, %i2) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 32>} : (tensor<40x32xf32>, tensor<24x1xi32>) -> tensor<24x32xf32>
  return %g : tensor<24x32xf32>
}

// In a loop body: each step adds the rows its ids pick to the state.
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
