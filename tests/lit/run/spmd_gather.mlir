// A gather from a table split along the dimensions its start indices pick
// one element of (Megatron's vocabulary-parallel embedding: the table
// split by rows, the ids whole; docs/spmd.md, "Rules"): each partition
// looks the ids up in its own rows (an id clamped to the whole table as
// the gather would, then made relative to the piece) and keeps zeros where
// an id falls in another piece; the lookups are a partial sum, summed by
// one all-reduce of the result where a use needs it, and the table is
// never gathered.  Every entry's results must equal the program on one
// partition, on random inputs (random ids fall in and out of range), on
// both backends.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in "4 embed" "8 embed2d" "8 twoidx" "4 bigger" "4 used" "4 row"; do set -- $e; \
// RUN:   xlac run --random-inputs --seed 11 --entry $2 %s --output-dir %t/$2 >/dev/null || exit 1; \
// RUN:   ex=""; for k in 0 1 2 3; do [ -f %t/$2/result$k.npy ] && ex="$ex --expect $k=@%t/$2/result$k.npy"; done; \
// RUN:   xlac run --partitions $1 --random-inputs --seed 11 --entry $2 %s $ex --atol 1e-5 --rtol 1e-5 || exit 1; \
// RUN:   xlac run --backend=cpu --partitions $1 --random-inputs --seed 11 --entry $2 %s $ex --atol 1e-5 --rtol 1e-5 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SAME
// SAME-COUNT-14: expect result[{{[0-9]}}]: ok
// SAME-NOT: {{error:|FAIL}}
//
// The ids at the pieces' edges (rows 0, 15, 16, 63 of 64 in pieces of
// 16) and out of range (-3 and 100: clamped to rows 0 and 63).
// RUN: xlac run --partitions 4 --entry small %s --input ids=[[0,15],[16,63],[-3,100]] | FileCheck %s --check-prefix=IDS
// RUN: xlac run --backend=cpu --partitions 4 --entry small %s --input ids=[[0,15],[16,63],[-3,100]] | FileCheck %s --check-prefix=IDS
// RUN: xlac run --entry small %s --input ids=[[0,15],[16,63],[-3,100]] | FileCheck %s --check-prefix=IDS
// IDS: result[0]: tensor<3x2x2xf32> = {{\[}}{{\[}}[0, 1], [30, 31]], {{\[}}[32, 33], [126, 127]], {{\[}}[0, 1], [126, 127]]]
//
// What each partition runs: its 16 rows looked up, zeros where an id is
// in another piece, one all-reduce; nothing gathered.
// RUN: xlac run --verbose --partitions 4 --entry embed --random-inputs %s 2>&1 >/dev/null | FileCheck %s --check-prefix=SUM
// SUM: spmd: 0 all_gather, 1 all_reduce, 0 local cuts{{$}}
// RUN: xlac run --backend=cpu --partitions 4 --entry embed --random-inputs %s --xla_dump_to=%t/d >/dev/null
// RUN: FileCheck %s --check-prefix=HLO < %t/d/module_0000.spmd_gather.before_optimizations.txt
// HLO: ENTRY %embed ({{.*}}: f32[16,8], {{.*}}: s32[2,5,1]) -> f32[2,5,8] {
// HLO-NOT: all-gather
// HLO: clamp(
// HLO: f32[2,5,8]{2,1,0} gather({{.*}}), offset_dims={2}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=2, slice_sizes={1,8}
// HLO: f32[2,5,8]{2,1,0} select(
// HLO: f32[2,5,8]{2,1,0} all-reduce({{.*}}), replica_groups={{[{][{]}}0,1,2,3{{[}][}]}}
// HLO-NOT: all-gather
//
// On a 2x4 mesh (rows by model, columns by data) the lookups are summed
// over the model axis only, the result keeping its columns split by data
// (returned so: its layout is left open); two ids
// per lookup (rows and columns of a 3-D table, both split) are masked
// together; a result larger than the table gathers the table instead.
// RUN: for e in "8 embed2d" "8 twoidx" "4 bigger"; do set -- $e; \
// RUN:   xlac run --verbose --partitions $1 --random-inputs --entry $2 %s 2>&1 >/dev/null | grep spmd: || exit 1; \
// RUN: done | FileCheck %s --check-prefix=MORE
// MORE: spmd: 0 all_gather, 1 all_reduce, 0 local cuts{{$}}
// MORE-NEXT: spmd: 0 all_gather, 1 all_reduce, 0 local cuts{{$}}
// MORE-NEXT: spmd: 1 all_gather, 0 all_reduce, 0 local cuts; 1 ops computed whole from split operands (stablehlo.gather), the first at line {{[0-9]+}}:10{{$}}
// RUN: xlac run --backend=cpu --partitions 8 --entry embed2d --random-inputs %s --xla_dump_to=%t/d2 >/dev/null
// RUN: FileCheck %s --check-prefix=TWO < %t/d2/module_0000.spmd_gather.before_optimizations.txt
// TWO: f32[6,4]{1,0} all-reduce({{.*}}), replica_groups={{[{][{]}}0,1,2,3},{4,5,6,7{{[}][}]}}

module @spmd_gather attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @x4 = <["x"=4]>
  sdy.mesh @m2 = <["data"=2, "model"=4]>
  sdy.mesh @m3 = <["a"=2, "b"=4]>

  // table[ids] with ids [2, 5] (JAX's take: an index vector of one).
  func.func @embed(%t: tensor<64x8xf32> {sdy.sharding = #sdy.sharding<@x4, [{"x"}, {}]>}, %ids: tensor<2x5x1xi32>)
      -> tensor<2x5x8xf32> {
    %r = "stablehlo.gather"(%t, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<64x8xf32>, tensor<2x5x1xi32>) -> tensor<2x5x8xf32>
    return %r : tensor<2x5x8xf32>
  }

  // Values: row i of the table holds [2i, 2i + 1].
  func.func @small(%ids: tensor<3x2xi32>) -> tensor<3x2x2xf32> {
    %i = stablehlo.iota dim = 0 : tensor<64x2xf32>
    %j = stablehlo.iota dim = 1 : tensor<64x2xf32>
    %two = stablehlo.constant dense<2.0> : tensor<64x2xf32>
    %i2 = stablehlo.multiply %i, %two : tensor<64x2xf32>
    %v = stablehlo.add %i2, %j : tensor<64x2xf32>
    %t = sdy.sharding_constraint %v <@x4, [{"x"}, {}]> : tensor<64x2xf32>
    %r = "stablehlo.gather"(%t, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2>, indices_are_sorted = false} : (tensor<64x2xf32>, tensor<3x2xi32>) -> tensor<3x2x2xf32>
    return %r : tensor<3x2x2xf32>
  }

  // Rows by model, columns by data; ids without an index vector
  // dimension (index_vector_dim = rank), the result's columns split.
  func.func @embed2d(%t: tensor<64x8xf32> {sdy.sharding = #sdy.sharding<@m2, [{"model"}, {"data"}]>}, %ids: tensor<6xi64>)
      -> tensor<6x8xf32> {
    %r = "stablehlo.gather"(%t, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<64x8xf32>, tensor<6xi64>) -> tensor<6x8xf32>
    return %r : tensor<6x8xf32>
  }

  // Two ids per lookup: (row, column) of an 8x8 grid of 4-vectors split
  // 2x4; the result whole.
  func.func @twoidx(%t: tensor<8x8x4xf32> {sdy.sharding = #sdy.sharding<@m3, [{"a"}, {"b"}, {}]>}, %ids: tensor<5x2xi32>)
      -> tensor<5x4xf32> {
    %r = "stablehlo.gather"(%t, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1, 4>, indices_are_sorted = false} : (tensor<8x8x4xf32>, tensor<5x2xi32>) -> tensor<5x4xf32>
    return %r : tensor<5x4xf32>
  }

  // More ids than the table has rows: gathering the table moves less
  // than summing the result.
  func.func @bigger(%t: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@x4, [{"x"}, {}]>}, %ids: tensor<40x1xi32>)
      -> tensor<40x4xf32> {
    %r = "stablehlo.gather"(%t, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>, indices_are_sorted = false} : (tensor<8x4xf32>, tensor<40x1xi32>) -> tensor<40x4xf32>
    return %r : tensor<40x4xf32>
  }

  // The lookups used by a product and a tanh, and returned.
  func.func @used(%t: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@x4, [{"x"}, {}]>}, %ids: tensor<4x1xi32>,
                  %w: tensor<8x3xf32>) -> (tensor<4x3xf32>, tensor<4x8xf32>) {
    %r = "stablehlo.gather"(%t, %ids) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<32x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
    %p = stablehlo.dot_general %r, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
    %h = stablehlo.tanh %r : tensor<4x8xf32>
    return %p, %h : tensor<4x3xf32>, tensor<4x8xf32>
  }

  // One row of a pmap result, as JAX asks for x[0] on one: the index
  // vector dimension left to its default (0), no batch dimensions.
  func.func @row(%x: tensor<4x3xf32> {sdy.sharding = #sdy.sharding<@x4, [{"x"}, {}]>}, %i: tensor<1xi32>) -> tensor<3xf32> {
    %r = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0]>, indices_are_sorted = true, slice_sizes = array<i64: 1, 3>} : (tensor<4x3xf32>, tensor<1xi32>) -> tensor<3xf32>
    return %r : tensor<3xf32>
  }
}
