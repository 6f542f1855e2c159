// Partial sums inside partitioned programs (docs/spmd.md, "Partial
// sums"): the partial products of a dot whose contracting dimension is
// split, and the local sums of a reduce over a split dimension, are kept
// as partial sums while their uses are linear in them, and summed once
// before any other use.  `xlac run --partitions 8` puts an unreduced
// result back together by summing each group's partial sums, so every
// entry's results must equal the same program on one partition (which
// ignores the shardings) on random inputs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in einsum chain scatter spread redsum bcast segsum intdiv; do \
// RUN:   xlac run --random-inputs --seed 7 --entry $e %s --output-dir %t/$e >/dev/null || exit 1; \
// RUN:   ex=""; for k in 0 1 2 3; do [ -f %t/$e/result$k.npy ] && ex="$ex --expect $k=@%t/$e/result$k.npy"; done; \
// RUN:   xlac run --partitions 8 --random-inputs --seed 7 --entry $e %s $ex --atol 1e-5 --rtol 1e-5 || exit 1; \
// RUN:   xlac run --backend=cpu --partitions 8 --random-inputs --seed 7 --entry $e %s $ex --atol 1e-5 --rtol 1e-5 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SAME
// SAME-COUNT-22: expect result[{{[0-9]}}]: ok
// SAME-NOT: {{error:|FAIL}}
//
// What was inserted: an unreduced einsum result and an unreduced sum over
// a split dimension are the local partial sums (no collective); the chain
// of linear ops is summed once, before the exponential (the local cut: the
// whole scale's rows); a partial product
// wanted split is one reduce-scatter, before the scaling (which is done on
// the scattered rows, the scale cut to them: where XLA sums, and the same
// bytes); a split value made
// unreduced is spread in zeros (no collective); a scatter-add of split
// updates (segment_sum, bincount) is each partition's own scatter, left
// unreduced or summed by one all-reduce; an integer quotient (not linear)
// takes the sum.
// RUN: for e in einsum chain scatter spread redsum bcast segsum intdiv; do \
// RUN:   xlac run --verbose --partitions 8 --random-inputs --entry $e %s 2>&1 >/dev/null | grep spmd: || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SUM
// SUM: spmd: 0 all_gather, 0 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 1 all_reduce, 1 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 0 all_reduce, 1 local cuts, 1 reduce_scatter{{$}}
// SUM-NEXT: spmd: 0 all_gather, 0 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 0 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 1 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 1 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 1 all_reduce, 0 local cuts{{$}}
//
// segment_sum with ids in range, on both backends and on one partition.
// RUN: xlac run --partitions 8 --entry segsum %s --input a=[0,1,2,3,4,5,6,7] --input b=[0,0,1,1,1,2,2,3] --input c=[10,20,30,40] | FileCheck %s --check-prefix=SEG
// RUN: xlac run --backend=cpu --partitions 8 --entry segsum %s --input a=[0,1,2,3,4,5,6,7] --input b=[0,0,1,1,1,2,2,3] --input c=[10,20,30,40] | FileCheck %s --check-prefix=SEG
// RUN: xlac run --entry segsum %s --input a=[0,1,2,3,4,5,6,7] --input b=[0,0,1,1,1,2,2,3] --input c=[10,20,30,40] | FileCheck %s --check-prefix=SEG
// SEG: result[0]: tensor<4xi32> = [1, 9, 11, 7]
// SEG-NEXT: result[1]: tensor<4xi32> = [11, 29, 41, 47]
// SEG-NEXT: result[2]: tensor<4xi32> = [2, 3, 2, 1]
//
// The chain in the partitioned program: the two dots, the add, the scaling,
// the converts, the reshape, the transpose and the reduce on partial sums,
// then one all-reduce (over each row of "y") of the smallest of them, the
// narrowed sums, right before the exponential.
// RUN: xlac run --backend=cpu --partitions 8 --entry chain --random-inputs %s --xla_dump_to=%t/dumpc >/dev/null
// RUN: FileCheck %s --check-prefix=CHAIN < %t/dumpc/module_0000.partial.before_optimizations.txt
// CHAIN: %chain ({{.*}}) -> f32[4,2] {
// CHAIN-NOT: all-
// CHAIN: f32[4,8]{1,0} dot(
// CHAIN-NOT: all-
// CHAIN: f32[4,8]{1,0} dot(
// CHAIN-NOT: all-
// CHAIN: f32[4,8]{1,0} add(
// CHAIN-NOT: all-
// CHAIN: f64[4,2,4]{2,1,0} reshape(
// CHAIN-NOT: all-
// CHAIN: f64[4,4,2]{2,1,0} transpose(
// CHAIN-NOT: all-
// CHAIN: f32[4,2]{1,0} convert(
// CHAIN-NEXT: f32[4,2]{1,0} all-reduce({{.*}}), replica_groups={{[{][{]}}0,1,2,3},{4,5,6,7{{[}][}]}}
// CHAIN-NEXT: f32[4,2]{1,0} exponential(
// CHAIN-NEXT: {{^}$}}
//
// The unreduced einsum: the local product is the result.
// RUN: xlac run --backend=cpu --partitions 8 --entry einsum --random-inputs %s --xla_dump_to=%t/dumpe >/dev/null
// RUN: FileCheck %s --check-prefix=EIN < %t/dumpe/module_0000.partial.before_optimizations.txt
// EIN: %einsum ({{.*}}: f32[4,4], {{.*}}: f32[4,8]) -> f32[4,8] {
// EIN-NOT: all-
// EIN: ROOT {{.*}} f32[4,8]{1,0} dot(
//
// A split value made unreduced along its split: each partition's piece in
// place in zeros; a whole one: kept by the first partition along the axis.
// RUN: xlac run --backend=cpu --partitions 8 --entry spread --random-inputs %s --xla_dump_to=%t/dumps >/dev/null
// RUN: FileCheck %s --check-prefix=SPREAD < %t/dumps/module_0000.partial.before_optimizations.txt
// SPREAD: %spread ({{.*}}: f32[1,8], {{.*}}: f32[8]) -> (f32[8,8], f32[8]) {
// SPREAD: f32[8,8]{1,0} dynamic-update-slice(
// SPREAD: f32[8]{0} select(
//
// A sum broadcast is summed before the broadcast (the all-reduce of 8
// elements, not of 64).
// RUN: xlac run --backend=cpu --partitions 8 --entry bcast --random-inputs %s --xla_dump_to=%t/dumpb >/dev/null
// RUN: FileCheck %s --check-prefix=BCAST < %t/dumpb/module_0000.partial.before_optimizations.txt
// BCAST: f32[8]{0} all-reduce(
// BCAST-NOT: all-reduce(

module @partial attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @m = <["x"=2, "y"=4]>
  sdy.mesh @x8 = <["x"=8]>

  // jnp.einsum('ab,bc->ac', out_sharding=P('x', unreduced={'y'})): rows
  // over x, the contracting dimension over y.
  func.func @einsum(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>},
                    %b: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}]>})
      -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}], unreduced={"y"}>}) {
    %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %1 = sdy.sharding_constraint %0 <@m, [{"x"}, {}], unreduced={"y"}> : tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }

  // Two partial products added, scaled, widened, reshaped, transposed,
  // reduced and narrowed: then the exponential needs the sum.
  func.func @chain(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>},
                   %b: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}]>},
                   %c: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>},
                   %d: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}, {}]>},
                   %s: tensor<8x8xf32>) -> tensor<8x2xf32> {
    %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %1 = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %2 = stablehlo.add %0, %1 : tensor<8x8xf32>
    %3 = stablehlo.multiply %2, %s : tensor<8x8xf32>
    %4 = stablehlo.negate %3 : tensor<8x8xf32>
    %5 = stablehlo.convert %4 : (tensor<8x8xf32>) -> tensor<8x8xf64>
    %6 = stablehlo.reshape %5 : (tensor<8x8xf64>) -> tensor<8x2x4xf64>
    %7 = stablehlo.transpose %6, dims = [0, 2, 1] : (tensor<8x2x4xf64>) -> tensor<8x4x2xf64>
    %z = stablehlo.constant dense<0.0> : tensor<f64>
    %8 = stablehlo.reduce(%7 init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x4x2xf64>, tensor<f64>) -> tensor<8x2xf64>
    %9 = stablehlo.convert %8 : (tensor<8x2xf64>) -> tensor<8x2xf32>
    %10 = stablehlo.exponential %9 : tensor<8x2xf32>
    return %10 : tensor<8x2xf32>
  }

  // A partial product over all eight partitions, scaled, returned split by
  // rows: one reduce-scatter, then the scaling on the rows.
  func.func @scatter(%x: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}]>},
                     %w: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>},
                     %k: tensor<16x8xf32>)
      -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>}) {
    %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
    %1 = stablehlo.multiply %0, %k : tensor<16x8xf32>
    return %1 : tensor<16x8xf32>
  }

  // Made unreduced at the result: a value split by rows over x (each
  // partition's rows in place, zeros elsewhere), and a whole one.
  func.func @spread(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", "y"}, {}]>},
                    %b: tensor<8xf32>)
      -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}], unreduced={"x", "y"}>},
          tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}], unreduced={"y"}>}) {
    return %a, %b : tensor<8x8xf32>, tensor<8xf32>
  }

  // jnp.sum over a split dimension with an unreduced result: the local sums.
  func.func @redsum(%a: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>})
      -> (tensor<4xi32> {sdy.sharding = #sdy.sharding<@m, [{}], unreduced={"x"}>}) {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8x4xi32>, tensor<i32>) -> tensor<4xi32>
    %1 = sdy.sharding_constraint %0 <@m, [{}], unreduced={"x"}> : tensor<4xi32>
    return %1 : tensor<4xi32>
  }

  // The mean over split columns, broadcast and subtracted: summed before
  // the broadcast.
  func.func @bcast(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}]>}) -> tensor<8x8xf32> {
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %n = stablehlo.constant dense<0.125> : tensor<8xf32>
    %1 = stablehlo.multiply %0, %n : tensor<8xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<8xf32>) -> tensor<8x8xf32>
    %3 = stablehlo.subtract %a, %2 : tensor<8x8xf32>
    return %3 : tensor<8x8xf32>
  }

  // jax.ops.segment_sum of split data and segment ids: into zeros, left
  // unreduced (each partition's own sums), and into a whole value, summed;
  // and jnp.bincount (whole updates, cut to the split ids' pieces).
  func.func @segsum(%a: tensor<8xi32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}]>},
                    %b: tensor<8xi32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}]>},
                    %c: tensor<4xi32>)
      -> (tensor<4xi32> {sdy.sharding = #sdy.sharding<@x8, [{}], unreduced={"x"}>}, tensor<4xi32>,
          tensor<4xi32> {sdy.sharding = #sdy.sharding<@x8, [{}], unreduced={"x"}>}) {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %i = stablehlo.broadcast_in_dim %b, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %1 = "stablehlo.scatter"(%0, %i, %a) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%p: tensor<i32>, %q: tensor<i32>):
      %s = stablehlo.add %p, %q : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) : (tensor<4xi32>, tensor<8x1xi32>, tensor<8xi32>) -> tensor<4xi32>
    %2 = "stablehlo.scatter"(%c, %i, %a) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%p: tensor<i32>, %q: tensor<i32>):
      %s = stablehlo.add %p, %q : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) : (tensor<4xi32>, tensor<8x1xi32>, tensor<8xi32>) -> tensor<4xi32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %ones = stablehlo.broadcast_in_dim %one, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %3 = "stablehlo.scatter"(%0, %i, %ones) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%p: tensor<i32>, %q: tensor<i32>):
      %s = stablehlo.add %p, %q : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) : (tensor<4xi32>, tensor<8x1xi32>, tensor<8xi32>) -> tensor<4xi32>
    return %1, %2, %3 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
  }

  // Integer division truncates: the local sums are summed before it, even
  // for a result wanted unreduced.
  func.func @intdiv(%a: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>})
      -> (tensor<4xi32> {sdy.sharding = #sdy.sharding<@x8, [{}], unreduced={"x"}>}) {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8x4xi32>, tensor<i32>) -> tensor<4xi32>
    %k = stablehlo.constant dense<3> : tensor<4xi32>
    %1 = stablehlo.divide %0, %k : tensor<4xi32>
    return %1 : tensor<4xi32>
  }
}
