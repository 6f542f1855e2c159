// Global programs with Shardy (and GSPMD) shardings on their parameters and
// results, run by `xlac run --partitions N`: each partition gets its shard
// of the arguments, runs the partitioned program (docs/spmd.md), and the
// results are put back together from the shards.  The oracle is the same
// program on one partition, which ignores the shardings: on random inputs
// every entry's results must equal it (--expect with the one-partition
// results; sums of integers and products are exact here, the tolerances
// only cover a reduce that adds in another order).
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in "4 dp" "8 mlp2d" "8 mesh3d" "8 orders" "8 gspmd" "8 megatron" "8 dots" "8 moves" "8 step" "8 back" "8 scatter" "8 gcon" "8 open" "8 placed" "8 placedloop" "8 inspect"; do set -- $e; \
// RUN:   xlac run --random-inputs --seed 3 --entry $2 %s --output-dir %t/$2 >/dev/null || exit 1; \
// RUN:   ex=""; for k in 0 1 2 3 4 5 6 7; do [ -f %t/$2/result$k.npy ] && ex="$ex --expect $k=@%t/$2/result$k.npy"; done; \
// RUN:   xlac run --partitions $1 --random-inputs --seed 3 --entry $2 %s $ex --atol 1e-5 --rtol 1e-5 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SAME
// SAME-COUNT-35: expect result[{{[0-9]}}]: ok
// SAME-NOT: {{error:|FAIL}}
//
// With two replicas of four partitions as well, and the values themselves.
// RUN: xlac run --partitions 4 --entry dp %s --input x=[[0,1,2,3],[4,5,6,7],[8,9,10,11],[12,13,14,15],[16,17,18,19],[20,21,22,23],[24,25,26,27],[28,29,30,31]] --input w=[[1,0,2],[0,1,-1],[1,1,1],[2,0,0]] | FileCheck %s --check-prefix=DP
// RUN: xlac run --replicas 2 --partitions 4 --entry dp %s --input x=[[0,1,2,3],[4,5,6,7],[8,9,10,11],[12,13,14,15],[16,17,18,19],[20,21,22,23],[24,25,26,27],[28,29,30,31]] --input w=[[1,0,2],[0,1,-1],[1,1,1],[2,0,0]] | FileCheck %s --check-prefix=DP
// RUN: xlac run --entry dp %s --input x=[[0,1,2,3],[4,5,6,7],[8,9,10,11],[12,13,14,15],[16,17,18,19],[20,21,22,23],[24,25,26,27],[28,29,30,31]] --input w=[[1,0,2],[0,1,-1],[1,1,1],[2,0,0]] | FileCheck %s --check-prefix=DP
// DP: result[0]: tensor<8x3xf32> = {{\[}}[9, 4, 2], [25, 12, 10], [41, 20, 18], [57, 28, 26], [73, 36, 34], [89, 44, 42], [105, 52, 50], [121, 60, 58]]
// DP-NEXT: result[1]: tensor<4xf32> = [112, 120, 128, 136]
// DP-NEXT: result[2]: tensor<8x4xf32> = {{\[}}[0, 1, 4, 9], [16, 25, 36, 49], [64, 81, 100, 121], [144, 169, 196, 225], [256, 289, 324, 361], [400, 441, 484, 529], [576, 625, 676, 729], [784, 841, 900, 961]]
// DP-NEXT: result[3]: tensor<4x8xf32> = {{\[}}[0, 4, 8, 12, 16, 20, 24, 28], [1, 5, 9, 13, 17, 21, 25, 29], [2, 6, 10, 14, 18, 22, 26, 30], [3, 7, 11, 15, 19, 23, 27, 31]]
// DP-NOT: partition
//
// What each partition runs (the HLO dump before optimizations): the dot,
// the add and the multiply on 2-row shards, the column sum as a local
// reduce and one all-reduce, the transpose on the shard (its result, left
// open, comes back split by columns), and the column-split result moved
// from rows to columns by one all-to-all, nothing gathered.
// RUN: xlac run --backend=cpu --partitions 4 --entry dp --random-inputs %s --xla_dump_to=%t/dump >/dev/null
// RUN: FileCheck %s --check-prefix=HLO < %t/dump/module_0000.spmd.before_optimizations.txt
// HLO: ENTRY %dp ({{.*}}: f32[2,4], {{.*}}: f32[4,3]) -> (f32[2,3], f32[4], f32[8,1], f32[4,2]) {
// HLO-NOT: all-
// HLO: f32[2,3]{1,0} dot(
// HLO-NOT: all-
// HLO: f32[2,3]{1,0} add(
// HLO-NOT: all-
// HLO: f32[4]{0} reduce(
// HLO-NEXT: all-reduce({{.*}}), replica_groups={{[{][{]}}0,1,2,3{{[}][}]}}, channel_id={{[0-9]+}}, use_global_device_ids=true
// HLO-NEXT: f32[2,4]{1,0} multiply(
// HLO-NEXT: f32[4,2]{1,0} transpose(
// HLO-NEXT: f32[8,1]{1,0} all-to-all(%{{.*}}), replica_groups={{[{][{]}}0,1,2,3{{[}][}]}}
// HLO-NOT: = {{.*}} all-
//
// What the partitioner inserted (--verbose): the Megatron MLP (column- then
// row-parallel weights, relu in a call as JAX writes it) and the
// data-parallel training step gather nothing; the dots with split batch,
// contracting and free dimensions sum partial products; the movement ops
// work on shards.
// RUN: for e in megatron dots moves step; do \
// RUN:   xlac run --verbose --partitions 8 --random-inputs --entry $e %s 2>&1 >/dev/null | grep spmd: || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SUM
// SUM: spmd: 0 all_gather, 1 all_reduce, 0 local cuts
// SUM-NEXT: spmd: 0 all_gather, 2 all_reduce, 1 local cuts; 2 all_reduce combined into 1
// SUM-NEXT: spmd: 0 all_gather, 0 all_reduce, 1 local cuts
// SUM-NEXT: spmd: 0 all_gather, 1 all_reduce, 0 local cuts; 2 all_reduce combined into 1
//
// The combined all-reduce has a size limit (XLAC_ALL_REDUCE_COMBINE_BYTES,
// default 32 MiB): under 132 bytes the step's gradient (128 B) and loss
// (4 B) go as two all-reduces, with the single-device values (the
// interpreter's, from the first RUN line).
// RUN: XLAC_ALL_REDUCE_COMBINE_BYTES=100 xlac run --verbose --partitions 8 --random-inputs --seed 3 --entry step %s \
// RUN:   --expect 0=@%t/step/result0.npy --expect 1=@%t/step/result1.npy --atol 1e-5 --rtol 1e-5 2>&1 | FileCheck %s --check-prefix=LIMIT
// LIMIT: spmd: 0 all_gather, 2 all_reduce, 0 local cuts{{$}}
// LIMIT: expect result[0]: ok
// LIMIT: expect result[1]: ok
//
// Shardings reaching back: a result's sharding makes the dot and the tanh
// before it work on row shards of a whole operand (a local cut, nothing
// moves), a constraint that moves the split from rows to columns is one
// all-to-all, and one on a transpose of the same whole value transposes
// the same cut.  Partial products whose sum is wanted split are summed by a
// reduce-scatter, over all eight partitions and over each pair of "data",
// and so are the partial column sums of a reduce.  GSPMD's constraint
// (custom_call @Sharding) reaches back as Shardy's does; a constraint
// that leaves its dimensions open moves nothing.
// RUN: for e in back scatter gcon open; do \
// RUN:   xlac run --verbose --partitions 8 --random-inputs --entry $e %s 2>&1 >/dev/null | grep spmd: || exit 1; \
// RUN: done | FileCheck %s --check-prefix=BACK
// BACK: spmd: 0 all_gather, 0 all_reduce, 1 local cuts, 1 all_to_all
// BACK-NEXT: spmd: 0 all_gather, 0 all_reduce, 0 local cuts, 3 reduce_scatter
// BACK-NEXT: spmd: 0 all_gather, 0 all_reduce, 1 local cuts, 1 all_to_all
// BACK-NEXT: spmd: 0 all_gather, 0 all_reduce, 0 local cuts{{$}}
// RUN: xlac run --backend=cpu --partitions 8 --entry back --random-inputs %s --xla_dump_to=%t/dumpb >/dev/null
// RUN: FileCheck %s --check-prefix=BACKHLO < %t/dumpb/module_0000.spmd.before_optimizations.txt
// BACKHLO: %back ({{.*}}: f32[16,8], {{.*}}: f32[8,8], {{.*}}: f32[2,8]) -> (f32[2,8], f32[16,1], f32[8,2]) {
// BACKHLO-NOT: all-
// BACKHLO: f32[2,8]{1,0} dot(
// BACKHLO-NEXT: f32[2,8]{1,0} tanh(
// BACKHLO-NOT: all-gather
// BACKHLO: f32[16,1]{1,0} all-to-all(
// BACKHLO-NOT: all-gather
// BACKHLO: f32[8,2]{1,0} transpose(
// RUN: xlac run --backend=cpu --partitions 8 --entry scatter --random-inputs %s --xla_dump_to=%t/dumps >/dev/null
// RUN: FileCheck %s --check-prefix=SCAT < %t/dumps/module_0000.spmd.before_optimizations.txt
// SCAT: %scatter (
// SCAT-NOT: all-
// SCAT: f32[16,8]{1,0} dot(
// SCAT-NEXT: f32[2,8]{1,0} reduce-scatter({{.*}}), replica_groups={{[{][{]}}0,1,2,3,4,5,6,7{{[}][}]}}, {{.*}}dimensions={0}
// SCAT: f32[16,8]{1,0} dot(
// SCAT-NEXT: f32[8,8]{1,0} reduce-scatter({{.*}}), replica_groups={{[{][{]}}0,4},{1,5},{2,6},{3,7{{[}][}]}}, {{.*}}dimensions={0}
// SCAT: f32[16]{0} reduce(
// SCAT-NEXT: f32[2]{0} reduce-scatter({{.*}}), replica_groups={{[{][{]}}0,1,2,3,4,5,6,7{{[}][}]}}, {{.*}}dimensions={0}
// The data-parallel step's two all-reduces (the loss and the gradient)
// are one, of two operands.
// RUN: xlac run --backend=cpu --partitions 8 --entry step --random-inputs %s --xla_dump_to=%t/dumpst >/dev/null
// RUN: FileCheck %s --check-prefix=STEP < %t/dumpst/module_0000.spmd.before_optimizations.txt
// STEP: %step (
// STEP-NOT: = {{.*}} all-
// STEP: = (f32[], f32[8,4]{1,0}) all-reduce(
// STEP-NOT: = {{.*}} all-
// STEP: {{^}$}}
//
// And the Megatron MLP's partitioned program: two local dots, one all-reduce
// over each row of "model".
// RUN: xlac run --backend=cpu --partitions 8 --entry megatron --random-inputs %s --xla_dump_to=%t/dumpm >/dev/null
// RUN: FileCheck %s --check-prefix=MEGA < %t/dumpm/module_0000.spmd.before_optimizations.txt
// MEGA: %megatron ({{.*}}: f32[8,16], {{.*}}: f32[16,4], {{.*}}: f32[4,8]) -> f32[8,8] {
// MEGA-NOT: all-gather
// MEGA: f32[8,4]{1,0} dot(
// MEGA-NOT: all-gather
// MEGA: f32[8,8]{1,0} dot(
// MEGA-NEXT: all-reduce({{.*}}), replica_groups={{[{][{]}}0,1,2,3},{4,5,6,7{{[}][}]}}
// MEGA-NOT: = {{.*}} all-
// MEGA: {{^}$}}

//
// Custom calls placed on one device (JAX's host callbacks in such programs
// carry a maximal sharding): a case on partition_id runs the call on that
// partition alone, on whole operands, and a collective_broadcast from it
// gives every partition its results (the partitions would disagree, and
// the runs above fail, if the others kept their zeros).
// RUN: xlac run --backend=cpu --partitions 8 --entry placed --random-inputs %s --xla_dump_to=%t/dumpp >/dev/null
// RUN: FileCheck %s --check-prefix=PLACED < %t/dumpp/module_0000.spmd.before_optimizations.txt
// PLACED: %placed (
// PLACED: all-gather(
// PLACED: conditional(
// PLACED: collective-broadcast({{.*}}), replica_groups={{[{][{]}}5,0,1,2,3,4,6,7{{[}][}]}}
// PLACED: collective-broadcast({{.*}}), replica_groups={{[{][{]}}5,0,1,2,3,4,6,7{{[}][}]}}
// PLACED: conditional(
// PLACED: collective-broadcast({{.*}}), replica_groups={{[{][{]}}2,0,1,3,4,5,6,7{{[}][}]}}
// RUN: xlac run --backend=cpu --partitions 8 --entry placedloop --random-inputs %s --xla_dump_to=%t/dumppl >/dev/null
// RUN: FileCheck %s --check-prefix=PLOOP < %t/dumppl/module_0000.spmd.before_optimizations.txt
// PLOOP: conditional(
// PLOOP: collective-broadcast({{.*}}), replica_groups={{[{][{]}}7,0,1,2,3,4,5,6{{[}][}]}}
// PLOOP: while(

module @spmd attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  sdy.mesh @m2 = <["data"=2, "model"=4]>
  sdy.mesh @m3 = <["a"=2, "b"=2, "c"=2]>
  sdy.mesh @perm = <["x"=8], device_ids=[5, 2, 7, 0, 3, 6, 1, 4]>
  sdy.mesh @sub = <["x"=4, "y"=2]>
  sdy.mesh @x8 = <["x"=8]>
  sdy.mesh @maximal_mesh_5 = <[], device_ids=[5]>
  sdy.mesh @maximal_mesh_7 = <[], device_ids=[7]>

  // Data parallel on 4 partitions: x split by rows, w replicated.
  func.func @dp(%x: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %w: tensor<4x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>})
      -> (tensor<8x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<4xf32>,
          tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, tensor<4x8xf32>) {
    %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
    %c = stablehlo.constant dense<1.0> : tensor<f32>
    %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<8x3xf32>
    %1 = stablehlo.add %0, %b : tensor<8x3xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %2 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
    %3 = stablehlo.multiply %x, %x : tensor<8x4xf32>
    %4 = stablehlo.transpose %x, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
    return %1, %2, %3, %4 : tensor<8x3xf32>, tensor<4xf32>, tensor<8x4xf32>, tensor<4x8xf32>
  }
  // Megatron-style: x split by rows over data (copies over model), w1 by
  // columns over model, w2 by rows over model.
  func.func @mlp2d(%x: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@m2, [{"data"}, {}]>},
                   %w1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m2, [{}, {"model"}]>},
                   %w2: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m2, [{"model"}, {}]>})
      -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@m2, [{"data"}, {}]>},
          tensor<4xf32> {sdy.sharding = #sdy.sharding<@m2, [{"model"}]>}) {
    %0 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %1 = stablehlo.maximum %0, %zb : tensor<4x8xf32>
    %2 = stablehlo.dot_general %1, %w2, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %3 = stablehlo.reduce(%2 init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
    return %2, %3 : tensor<4x4xf32>, tensor<4xf32>
  }

  // A 3-D mesh: dimensions split over two axes, the reduce over both split dims.
  func.func @mesh3d(%x: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@m3, [{"a", "c"}, {"b"}]>})
      -> (tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@m3, [{"c"}, {"b", "a"}]>}, tensor<i32>, tensor<8xi32>) {
    %0 = stablehlo.multiply %x, %x : tensor<8x4xi32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.reduce(%0 init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x4xi32>, tensor<i32>) -> tensor<i32>
    %2 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x4xi32>, tensor<i32>) -> tensor<8xi32>
    return %0, %1, %2 : tensor<8x4xi32>, tensor<i32>, tensor<8xi32>
  }

  // Devices in a mesh order of their own, and sub-axes.
  func.func @orders(%x: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@perm, [{"x"}, {}]>},
                    %y: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@sub, [{"x":(2)2}, {"y", "x":(1)2}]>})
      -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@sub, [{"y"}, {"x"}]>},
          tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@perm, [{}, {"x"}]>}) {
    %0 = stablehlo.transpose %y, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.add %x, %0 : tensor<8x4xf32>
    %2 = stablehlo.negate %y : tensor<4x8xf32>
    return %1, %2 : tensor<8x4xf32>, tensor<4x8xf32>
  }

  // GSPMD's attribute form, a call and a loop.
  func.func @gspmd(%x: tensor<8x4xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"},
                   %y: tensor<8x4xf32> {mhlo.sharding = "{devices=[2,4]<=[4,2]T(1,0)}"})
      -> (tensor<8x4xf32> {mhlo.sharding = "{devices=[1,4,2]0,4,1,5,2,6,3,7 last_tile_dim_replicate}"}, tensor<8x4xf32>) {
    %0 = func.call @twice(%x) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.subtract %0, %y : tensor<8x4xf32>
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %1) : tensor<i32>, tensor<8x4xf32>
      cond {
        %c3 = stablehlo.constant dense<3> : tensor<i32>
        %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %c1 = stablehlo.constant dense<1> : tensor<i32>
        %n = stablehlo.add %i, %c1 : tensor<i32>
        %a = stablehlo.add %acc, %x : tensor<8x4xf32>
        stablehlo.return %n, %a : tensor<i32>, tensor<8x4xf32>
      }
    return %1, %r#1 : tensor<8x4xf32>, tensor<8x4xf32>
  }
  func.func private @twice(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %0 = stablehlo.add %a, %a : tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }

  // Megatron's MLP on a 2x4 mesh as JAX writes it: relu in a call, the
  // hidden value left open.
  func.func @megatron(%x: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m2, [{"data"}, {}]>},
                      %w1: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m2, [{}, {"model"}]>},
                      %w2: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m2, [{"model"}, {}]>})
      -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m2, [{"data"}, {}]>}) {
    %0 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %1 = func.call @relu(%0) : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %2 = stablehlo.dot_general %1, %w2, contracting_dims = [1] x [0] : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    return %2 : tensor<16x8xf32>
  }
  func.func private @relu(%a: tensor<16x16xf32>) -> tensor<16x16xf32> {
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %0 = stablehlo.maximum %a, %zb : tensor<16x16xf32>
    return %0 : tensor<16x16xf32>
  }

  // dot_general with both operands split: batch and contracting dims split
  // alike (attention scores), lhs free + rhs contracting, and x^T x over
  // the split batch (contracting dims split on both sides).
  func.func @dots(%q: tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@m2, [{"data"}, {}, {"model"}]>},
                  %k: tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@m2, [{"data"}, {}, {"model"}]>},
                  %x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m2, [{"data"}, {}]>},
                  %w: tensor<16x12xf32> {sdy.sharding = #sdy.sharding<@m2, [{"model"}, {}]>})
      -> (tensor<4x8x8xf32>, tensor<8x12xf32>, tensor<16x16xf32>) {
    %0 = stablehlo.dot_general %q, %k, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x8xf32>
    %1 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x12xf32>) -> tensor<8x12xf32>
    %2 = stablehlo.dot_general %x, %x, contracting_dims = [0] x [0] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
    return %0, %1, %2 : tensor<4x8x8xf32>, tensor<8x12xf32>, tensor<16x16xf32>
  }
  func.func @moves(%x: tensor<8x12xf32> {sdy.sharding = #sdy.sharding<@m2, [{"data"}, {"model"}]>},
                   %b: tensor<12xf32> {sdy.sharding = #sdy.sharding<@m2, [{"model"}]>},
                   %i: tensor<i32>,
                   %y: tensor<8x12xf32> {sdy.sharding = #sdy.sharding<@m2, [{}, {"model"}]>})
      -> (tensor<12x8xf32>, tensor<8x12xf32>, tensor<2x4x12xf32>, tensor<5x12xf32>, tensor<8x12xf32>, tensor<16x12xf32>, tensor<4x12xf32>, tensor<8x12xf32>) {
    %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<8x12xf32>) -> tensor<12x8xf32>
    %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<12xf32>) -> tensor<8x12xf32>
    %2 = stablehlo.add %x, %1 : tensor<8x12xf32>
    %3 = stablehlo.reshape %2 : (tensor<8x12xf32>) -> tensor<2x4x12xf32>
    %4 = stablehlo.slice %y [2:7, 0:12] : (tensor<8x12xf32>) -> tensor<5x12xf32>
    %5 = stablehlo.iota dim = 0 : tensor<8x12xf32>
    %6 = stablehlo.multiply %x, %5 : tensor<8x12xf32>
    %9 = stablehlo.iota dim = 1 : tensor<8x12xf32>
    %y9 = stablehlo.multiply %y, %9 : tensor<8x12xf32>
    %7 = stablehlo.concatenate %y, %y9, dim = 0 : (tensor<8x12xf32>, tensor<8x12xf32>) -> tensor<16x12xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.dynamic_slice %y, %i, %c, sizes = [4, 12] : (tensor<8x12xf32>, tensor<i32>, tensor<i32>) -> tensor<4x12xf32>
    %10 = stablehlo.add %x, %9 : tensor<8x12xf32>
    return %0, %2, %3, %4, %6, %7, %8, %10 : tensor<12x8xf32>, tensor<8x12xf32>, tensor<2x4x12xf32>, tensor<5x12xf32>, tensor<8x12xf32>, tensor<16x12xf32>, tensor<4x12xf32>, tensor<8x12xf32>
  }

  // Shardings that reach back to the ops before them.
  func.func @back(%x: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {}]>},
                  %w: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {}]>},
                  %y: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>})
      -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>}, tensor<16x8xf32>, tensor<8x16xf32>) {
    %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
    %1 = stablehlo.tanh %0 : tensor<16x8xf32>
    %2 = stablehlo.exponential %y : tensor<16x8xf32>
    %3 = sdy.sharding_constraint %2 <@x8, [{}, {"x"}]> : tensor<16x8xf32>
    %4 = stablehlo.negate %3 : tensor<16x8xf32>
    %5 = stablehlo.transpose %x, dims = [1, 0] : (tensor<16x8xf32>) -> tensor<8x16xf32>
    %6 = sdy.sharding_constraint %5 <@x8, [{}, {"x"}]> : tensor<8x16xf32>
    return %1, %4, %6 : tensor<16x8xf32>, tensor<16x8xf32>, tensor<8x16xf32>
  }

  // Contracting dimensions split, the sums wanted split by rows; a column
  // sum over split rows wanted split.
  func.func @scatter(%x: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}]>},
                     %w: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>},
                     %a: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@m2, [{"data"}, {}]>},
                     %e: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@m2, [{"data"}, {}]>},
                     %b: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>})
      -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>},
          tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m2, [{"data"}, {}]>},
          tensor<16xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}]>}) {
    %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
    %1 = stablehlo.dot_general %a, %e, contracting_dims = [0] x [0] : (tensor<32x16xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %2 = stablehlo.reduce(%b init: %z) applies stablehlo.add across dimensions = [0] : (tensor<32x16xf32>, tensor<f32>) -> tensor<16xf32>
    return %0, %1, %2 : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16xf32>
  }

  // GSPMD's sharding constraint: the exponential on column shards of the
  // whole argument, the result moved to rows.
  func.func @gcon(%x: tensor<8x8xf32> {mhlo.sharding = "{replicated}"})
      -> (tensor<8x8xf32> {mhlo.sharding = "{devices=[8,1]<=[8]}"}) {
    %0 = stablehlo.exponential %x : tensor<8x8xf32>
    %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = "{devices=[1,8]<=[8]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = stablehlo.negate %1 : tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }

  // Open dimensions: the constraint fixes nothing.
  func.func @open(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>}) -> tensor<8x8xf32> {
    %0 = stablehlo.exponential %x : tensor<8x8xf32>
    %1 = sdy.sharding_constraint %0 <@x8, [{?}, {?}]> : tensor<8x8xf32>
    %2 = stablehlo.negate %1 : tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }

  // A data-parallel step of linear regression: the batch split, the weights
  // whole; the loss and the gradient are local sums and all-reduces.
  func.func @step(%x: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>},
                  %y: tensor<32x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>},
                  %w: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {}]>})
      -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {}]>}, tensor<f32> {sdy.sharding = #sdy.sharding<@x8, []>}) {
    %p = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<32x8xf32>, tensor<8x4xf32>) -> tensor<32x4xf32>
    %e = stablehlo.subtract %p, %y : tensor<32x4xf32>
    %sq = stablehlo.multiply %e, %e : tensor<32x4xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %l = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<32x4xf32>, tensor<f32>) -> tensor<f32>
    %g = stablehlo.dot_general %x, %e, contracting_dims = [0] x [0] : (tensor<32x8xf32>, tensor<32x4xf32>) -> tensor<8x4xf32>
    %r = stablehlo.constant dense<0.01> : tensor<8x4xf32>
    %d = stablehlo.multiply %g, %r : tensor<8x4xf32>
    %w2 = stablehlo.subtract %w, %d : tensor<8x4xf32>
    return %w2, %l : tensor<8x4xf32>, tensor<f32>
  }

  // Custom calls placed on partition 5 (Shardy) and 2 (GSPMD's text) of a
  // split value; what else uses the value keeps working on shards.
  func.func @placed(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>})
      -> (tensor<8x4xf32>, tensor<8x4xi32>, tensor<8x16xf32>) {
    %v, %i = stablehlo.custom_call @TopK(%x) {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_5, []>, <@maximal_mesh_5, []>]>} : (tensor<8x16xf32>) -> (tensor<8x4xf32>, tensor<8x4xi32>)
    %n = stablehlo.negate %x : tensor<8x16xf32>
    %w, %j = stablehlo.custom_call @TopK(%n) {mhlo.sharding = "{maximal device=2}"} : (tensor<8x16xf32>) -> (tensor<8x4xf32>, tensor<8x4xi32>)
    %s = stablehlo.add %v, %w : tensor<8x4xf32>
    %y = stablehlo.multiply %x, %x : tensor<8x16xf32>
    return %s, %i, %y : tensor<8x4xf32>, tensor<8x4xi32>, tensor<8x16xf32>
  }

  // And inside a loop, whose values are whole there.
  func.func @placedloop(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>}) -> tensor<8x4xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %z = stablehlo.constant dense<0.0> : tensor<8x4xf32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %z) : tensor<i32>, tensor<8x4xf32>
      cond {
        %c3 = stablehlo.constant dense<3> : tensor<i32>
        %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %c1 = stablehlo.constant dense<1> : tensor<i32>
        %n = stablehlo.add %i, %c1 : tensor<i32>
        %v, %k = stablehlo.custom_call @TopK(%x) {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_7, []>, <@maximal_mesh_7, []>]>} : (tensor<8x16xf32>) -> (tensor<8x4xf32>, tensor<8x4xi32>)
        %a = stablehlo.add %acc, %v : tensor<8x4xf32>
        stablehlo.return %n, %a : tensor<i32>, tensor<8x4xf32>
      }
    return %r#1 : tensor<8x4xf32>
  }

  // JAX's InspectSharding for several devices returns its operand (the
  // layout it reports is recorded when the program is partitioned).
  func.func @inspect(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>}) -> tensor<8x16xf32> {
    %q = stablehlo.custom_call @InspectSharding(%x) {api_version = 1 : i32, backend_config = "7", has_side_effect = true} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %r = stablehlo.add %q, %x : tensor<8x16xf32>
    return %r : tensor<8x16xf32>
  }
}
