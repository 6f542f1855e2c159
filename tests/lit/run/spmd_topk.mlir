// chlo.top_k on shards (docs/spmd.md, "Rules"): over rows split by a
// batch dimension it runs on the pieces and nothing moves; over a last
// dimension split in pieces of at least k (a vocabulary split 4 ways),
// each partition takes the top k of its piece (indices made global), the
// k candidates of each piece are gathered and the top k of those taken
// again, their indices looked up among the gathered ones; the rows are
// never gathered.  Every entry's results must equal the program on one
// partition, on random inputs, on both backends.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in "4 rows" "4 vocab" "8 vocab2d" "4 wide" "4 composite"; do set -- $e; \
// RUN:   xlac run --random-inputs --seed 13 --entry $2 %s --output-dir %t/$2 >/dev/null || exit 1; \
// RUN:   ex=""; for k in 0 1 2 3; do [ -f %t/$2/result$k.npy ] && ex="$ex --expect $k=@%t/$2/result$k.npy"; done; \
// RUN:   xlac run --partitions $1 --random-inputs --seed 13 --entry $2 %s $ex || exit 1; \
// RUN:   xlac run --backend=cpu --partitions $1 --random-inputs --seed 13 --entry $2 %s $ex || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SAME
// SAME-COUNT-20: expect result[{{[0-9]}}]: ok
// SAME-NOT: {{error:|FAIL}}
//
// Ties across pieces: the smaller index first, as on one partition (9 at
// columns 1, 4, 5 and 14 of pieces of four; the second row all equal).
// RUN: xlac run --partitions 4 --entry ties %s --input x=[[0,9,1,2,9,9,3,4,5,6,7,8,0,1,9,2],[5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5]] | FileCheck %s --check-prefix=TIES
// RUN: xlac run --backend=cpu --partitions 4 --entry ties %s --input x=[[0,9,1,2,9,9,3,4,5,6,7,8,0,1,9,2],[5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5]] | FileCheck %s --check-prefix=TIES
// RUN: xlac run --entry ties %s --input x=[[0,9,1,2,9,9,3,4,5,6,7,8,0,1,9,2],[5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5]] | FileCheck %s --check-prefix=TIES
// TIES: result[0]: tensor<2x3xf32> = {{\[}}[9, 9, 9], [5, 5, 5]]
// TIES-NEXT: result[1]: tensor<2x3xi32> = {{\[}}[1, 4, 5], [0, 1, 2]]
//
// What moves: nothing over split rows; two all-gathers of the candidates
// (values and indices, [rows x 4k]) over a split vocabulary, no gather of
// the rows; k larger than a piece gathers the rows.
// RUN: for e in "4 rows" "4 vocab" "8 vocab2d" "4 wide"; do set -- $e; \
// RUN:   xlac run --verbose --partitions $1 --random-inputs --entry $2 %s 2>&1 >/dev/null | grep spmd: || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SUM
// SUM: spmd: 0 all_gather, 0 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 2 all_gather, 0 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 2 all_gather, 0 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 1 all_gather, 0 all_reduce, 0 local cuts; 1 ops computed whole from split operands (chlo.top_k), the first at line {{[0-9]+}}:{{[0-9]+}}{{$}}
//
// JAX hands top_k over as a composite whose decomposition is a sort and
// slices: it is inlined like a call before partitioning, so over split
// rows its sort runs on the pieces (it used to be computed whole).
// RUN: xlac run --verbose --partitions 4 --random-inputs --entry composite %s 2>&1 >/dev/null | FileCheck %s --check-prefix=COMP
// COMP: spmd: 0 all_gather, 0 all_reduce, 0 local cuts{{$}}
// RUN: xlac run --backend=cpu --partitions 4 --entry vocab --random-inputs %s --xla_dump_to=%t/d >/dev/null
// RUN: FileCheck %s --check-prefix=HLO < %t/d/module_0000.spmd_topk.before_optimizations.txt
// HLO: %vocab ({{.*}}: f32[4,16]) -> (f32[4,3], s32[4,3]) {
// HLO-NOT: all-gather(
// HLO: f32[4,12]{1,0} all-gather({{.*}}), replica_groups={{[{][{]}}0,1,2,3{{[}][}]}}, channel_id={{[0-9]+}}, use_global_device_ids=true, dimensions={1}
// HLO: s32[4,12]{1,0} all-gather({{.*}}), replica_groups={{[{][{]}}0,1,2,3{{[}][}]}}, channel_id={{[0-9]+}}, use_global_device_ids=true, dimensions={1}
// HLO: s32[4,3]{1,0} gather(

module @spmd_topk attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @x4 = <["x"=4]>
  sdy.mesh @m2 = <["data"=2, "model"=4]>

  func.func @rows(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@x4, [{"x"}, {}]>}) -> (tensor<8x3xf32>, tensor<8x3xi32>) {
    %v, %i = chlo.top_k(%x, k = 3) : tensor<8x16xf32> -> (tensor<8x3xf32>, tensor<8x3xi32>)
    return %v, %i : tensor<8x3xf32>, tensor<8x3xi32>
  }

  func.func @vocab(%x: tensor<4x64xf32> {sdy.sharding = #sdy.sharding<@x4, [{}, {"x"}]>}) -> (tensor<4x3xf32>, tensor<4x3xi32>) {
    %v, %i = chlo.top_k(%x, k = 3) : tensor<4x64xf32> -> (tensor<4x3xf32>, tensor<4x3xi32>)
    return %v, %i : tensor<4x3xf32>, tensor<4x3xi32>
  }

  // Rows by data, the vocabulary by model; the results stay split by data.
  func.func @vocab2d(%x: tensor<2x6x32xf32> {sdy.sharding = #sdy.sharding<@m2, [{"data"}, {}, {"model"}]>})
      -> (tensor<2x6x5xf32>, tensor<2x6x5xi32>) {
    %v, %i = chlo.top_k(%x, k = 5) : tensor<2x6x32xf32> -> (tensor<2x6x5xf32>, tensor<2x6x5xi32>)
    return %v, %i : tensor<2x6x5xf32>, tensor<2x6x5xi32>
  }

  // k = 6 over pieces of 4: the rows are gathered.
  func.func @wide(%x: tensor<3x16xf32> {sdy.sharding = #sdy.sharding<@x4, [{}, {"x"}]>}) -> (tensor<3x6xf32>, tensor<3x6xi32>) {
    %v, %i = chlo.top_k(%x, k = 6) : tensor<3x16xf32> -> (tensor<3x6xf32>, tensor<3x6xi32>)
    return %v, %i : tensor<3x6xf32>, tensor<3x6xi32>
  }

  func.func @composite(%x: tensor<8x64xf32> {sdy.sharding = #sdy.sharding<@x4, [{"x"}, {}]>}) -> (tensor<8x4xf32>, tensor<8x4xi32>) {
    %0:2 = "stablehlo.composite"(%x) {name = "chlo.top_k", composite_attributes = {k = 4 : i64}, decomposition = @top_k_impl, version = 1 : i32} : (tensor<8x64xf32>) -> (tensor<8x4xf32>, tensor<8x4xi32>)
    return %0#0, %0#1 : tensor<8x4xf32>, tensor<8x4xi32>
  }
  func.func private @top_k_impl(%a: tensor<8x64xf32>) -> (tensor<8x4xf32>, tensor<8x4xi32>) {
    %0 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<8x64xi32>
    %1:2 = "stablehlo.sort"(%a, %0) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>, %pi: tensor<i32>, %qi: tensor<i32>):
      %2 = "stablehlo.compare"(%p, %q) {comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type TOTALORDER>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    }) {dimension = 1 : i64, is_stable = true} : (tensor<8x64xf32>, tensor<8x64xi32>) -> (tensor<8x64xf32>, tensor<8x64xi32>)
    %3 = "stablehlo.slice"(%1#0) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 8, 4>, strides = array<i64: 1, 1>} : (tensor<8x64xf32>) -> tensor<8x4xf32>
    %4 = "stablehlo.slice"(%1#1) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 8, 4>, strides = array<i64: 1, 1>} : (tensor<8x64xi32>) -> tensor<8x4xi32>
    return %3, %4 : tensor<8x4xf32>, tensor<8x4xi32>
  }

  func.func @ties(%x: tensor<2x16xf32> {sdy.sharding = #sdy.sharding<@x4, [{}, {"x"}]>}) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
    %v, %i = chlo.top_k(%x, k = 3) : tensor<2x16xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)
    return %v, %i : tensor<2x3xf32>, tensor<2x3xi32>
  }
}
