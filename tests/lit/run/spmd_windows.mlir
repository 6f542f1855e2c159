// Ops with windows on shards (docs/spmd.md): convolutions over a split
// batch, split output features and split input features (partial
// products), over split rows with halos from the neighbouring pieces
// (collective_permute), pooling by reduce_window the same way, the
// gradient of max pooling by select_and_scatter, and pad, sort, reverse
// and reduces by any reducer along dimensions that are not split, gathers
// of slices whole along the split dimensions; a ResNet block over a split batch.  Every entry's results must equal the
// same program on one partition (which ignores the shardings) on random
// inputs, on both backends.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in convbatch convfeat convsum convrows convwhole convdepth convgrad pool poolgrad others resnet convmix loopconv gathers loophalo; do \
// RUN:   xlac run --random-inputs --seed 7 --entry $e %s --output-dir %t/$e >/dev/null || exit 1; \
// RUN:   ex=""; for k in 0 1 2 3 4; do [ -f %t/$e/result$k.npy ] && ex="$ex --expect $k=@%t/$e/result$k.npy"; done; \
// RUN:   xlac run --partitions 8 --random-inputs --seed 7 --entry $e %s $ex --atol 1e-4 --rtol 1e-4 || exit 1; \
// RUN:   xlac run --backend=cpu --partitions 8 --random-inputs --seed 7 --entry $e %s $ex --atol 1e-4 --rtol 1e-4 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SAME
// SAME-COUNT-62: expect result[{{[0-9]}}]: ok
// SAME-NOT: {{error:|FAIL}}
//
// With two replicas of eight partitions, the halos among each replica's
// partitions.
// RUN: xlac run --replicas 2 --partitions 8 --random-inputs --seed 7 --entry convrows %s --expect 0=@%t/convrows/result0.npy --expect 1=@%t/convrows/result1.npy --expect 2=@%t/convrows/result2.npy --expect 3=@%t/convrows/result3.npy --atol 1e-4 --rtol 1e-4 | FileCheck %s --check-prefix=REP
// REP-COUNT-4: expect result[{{[0-9]}}]: ok
//
// What the partitioner inserted: nothing for the split batch and the
// split output features, one all-reduce for the split input features and
// for the kernel gradient, one collective_permute per halo (a 3x3 window
// at stride 1 takes a row each way, at stride 2 one from the next piece, a
// 1x1 at stride 2 none, a 5x5 dilated by 2 four rows each way), a VALID
// convolution on padded pieces (its halo from the next piece, its result
// gathered), one with an lhs dilation computed whole;
// the ResNet block gathers nothing, and sums the statistics of its two
// normalizations; rows split over one axis of a 2-D mesh (four copies of
// each piece) exchange their halos among the copies alike, the kernel
// split over the other axis by output features (the result split both
// ways) or by input features (cut locally from the lhs: one all-reduce);
// a loop of convolutions over a split batch moves nothing; gathers of
// rows of a table split by columns and of columns of rows split by rows
// move nothing, a gather of rows split by rows sums its pieces' lookups; a loop
// of convolutions over rows split 8 ways exchanges its halos in the body.
// RUN: for e in convbatch convfeat convsum convrows convwhole convdepth convgrad pool poolgrad others resnet convmix loopconv gathers loophalo; do \
// RUN:   xlac run --verbose --partitions 8 --random-inputs --entry $e %s 2>&1 >/dev/null | grep spmd: || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SUM
// SUM: spmd: 0 all_gather, 0 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 0 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 1 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 0 all_reduce, 0 local cuts, 5 collective_permute{{$}}
// SUM-NEXT: spmd: 2 all_gather, 0 all_reduce, 0 local cuts, 1 collective_permute; 1 ops computed whole from split operands (stablehlo.convolution), the first at line [[#@LINE+127]]:10{{$}}
// SUM-NEXT: spmd: 0 all_gather, 0 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 1 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 0 all_reduce, 0 local cuts, 5 collective_permute{{$}}
// SUM-NEXT: spmd: 0 all_gather, 0 all_reduce, 2 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 0 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 4 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 1 all_reduce, 1 local cuts, 4 collective_permute{{$}}
// SUM-NEXT: spmd: 0 all_gather, 0 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 1 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 0 all_reduce, 0 local cuts, 2 collective_permute{{$}}
//
// The gathers with indices in range (and out of it: clamped).
// RUN: xlac run --entry gathers %s --random-inputs --seed 7 --input i=[[3],[0],[15],[7],[40]] --input j=[[5],[0],[2]] --output-dir %t/g1 >/dev/null
// RUN: xlac run --partitions 8 --entry gathers %s --random-inputs --seed 7 --input i=[[3],[0],[15],[7],[40]] --input j=[[5],[0],[2]] --expect 0=@%t/g1/result0.npy --expect 1=@%t/g1/result1.npy --expect 2=@%t/g1/result2.npy | FileCheck %s --check-prefix=GATHER
// GATHER-COUNT-3: expect result[{{[0-9]}}]: ok
//
// What each partition runs (the HLO dump before optimizations): the rows
// of the 3x3 convolution at stride 1 exchanged with both neighbours (the
// first piece's previous neighbour is the padding: zeros), then the
// convolution of 4+2 rows with no padding along them.
// RUN: xlac run --backend=cpu --partitions 8 --entry convrows --random-inputs %s --xla_dump_to=%t/dr >/dev/null
// RUN: FileCheck %s --check-prefix=ROWS < %t/dr/module_0000.windows.before_optimizations.txt
// ROWS: {{^}}%convrows ({{.*}}: f32[1,4,6,3], {{.*}}) -> (f32[1,4,6,4], f32[1,2,3,4], f32[1,2,3,4], f32[1,4,6,4]) {
// ROWS-NOT: all-
// ROWS: slice(
// ROWS-NEXT: f32[1,1,6,3]{3,2,1,0} collective-permute({{.*}}), channel_id={{[0-9]+}}, source_target_pairs={{[{][{]}}0,2},{1,3},{2,4},{3,5},{4,6},{5,7}}
// ROWS-NEXT: slice(
// ROWS-NEXT: f32[1,1,6,3]{3,2,1,0} collective-permute({{.*}}), channel_id={{[0-9]+}}, source_target_pairs={{[{][{]}}2,0},{3,1},{4,2},{5,3},{6,4},{7,5}}
// ROWS-NEXT: f32[1,6,6,3]{3,2,1,0} concatenate(
// ROWS-NEXT: f32[1,4,6,4]{3,2,1,0} convolution({{.*}}), window={size=3x3 pad=0_0x1_1}
// ROWS-NOT: all-
//
// Max pooling over split rows: the row from the previous piece, -inf on
// the first piece (a select on its position).
// RUN: xlac run --backend=cpu --partitions 8 --entry pool --random-inputs %s --xla_dump_to=%t/dp >/dev/null
// RUN: FileCheck %s --check-prefix=POOL < %t/dp/module_0000.windows.before_optimizations.txt
// POOL: {{^}}%pool (
// POOL-NOT: all-
// POOL: f32[1,4,3,4]{3,2,1,0} reduce-window(
// POOL: collective-permute(
// POOL: f32[1,1,6,4]{3,2,1,0} select(
// POOL-NEXT: f32[1,5,6,4]{3,2,1,0} concatenate(
// POOL-NEXT: f32[1,2,3,4]{3,2,1,0} reduce-window({{.*}}), window={size=1x3x3x1 stride=1x2x2x1 pad=0_0x0_0x1_0x0_0}
// POOL-NOT: all-
//
// The ResNet block: the convolutions on each partition's image, the four
// sums of the statistics, nothing else moved.
// RUN: xlac run --backend=cpu --partitions 8 --entry resnet --random-inputs %s --xla_dump_to=%t/dn >/dev/null
// RUN: FileCheck %s --check-prefix=RES < %t/dn/module_0000.windows.before_optimizations.txt
// RES: {{^}}%resnet ({{.*}}: f32[1,8,8,4], {{.*}}: f32[3,3,4,4], {{.*}}: f32[3,3,4,4], {{.*}}: f32[4], {{.*}}: f32[4]) -> f32[1,8,8,4] {
// RES-NOT: {{all-gather|collective-permute|all-to-all|dynamic-slice}}
// RES: f32[1,8,8,4]{3,2,1,0} convolution(
// RES-NOT: {{all-gather|collective-permute|all-to-all|dynamic-slice}}
// RES-COUNT-2: f32[4]{0} all-reduce(
// RES-NOT: {{all-gather|collective-permute|all-to-all|dynamic-slice}}
// RES: f32[1,8,8,4]{3,2,1,0} convolution(
// RES-NOT: {{all-gather|collective-permute|all-to-all|dynamic-slice}}
// RES-COUNT-2: f32[4]{0} all-reduce(
// RES-NOT: {{all-gather|collective-permute|all-to-all|dynamic-slice}}
// RES: ROOT

module @windows attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @x8 = <["x"=8]>
  sdy.mesh @x4 = <["x"=4, "y"=2]>
  sdy.mesh @m = <["x"=2, "y"=4]>

  // A 3x3 convolution over a batch split 8 ways: each partition convolves
  // its images with the whole kernel.
  func.func @convbatch(%x: tensor<8x6x6x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}, {}, {}]>},
                       %k: tensor<3x3x4x8xf32>) -> tensor<8x6x6x8xf32> {
    %r = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x6x6x4xf32>, tensor<3x3x4x8xf32>) -> tensor<8x6x6x8xf32>
    return %r : tensor<8x6x6x8xf32>
  }

  // The kernel's output features split 4 ways, the batch 2 ways: the
  // result split both ways.
  func.func @convfeat(%x: tensor<4x5x5x3xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}, {}, {}]>},
                      %k: tensor<3x3x3x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}, {}, {"y"}]>}) -> tensor<4x3x3x8xf32> {
    %r = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [1, 1], pad = [[0, 0], [0, 0]]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x5x5x3xf32>, tensor<3x3x3x8xf32>) -> tensor<4x3x3x8xf32>
    return %r : tensor<4x3x3x8xf32>
  }

  // The input features split on both sides: partial products, one
  // all-reduce.
  func.func @convsum(%x: tensor<2x6x6x8xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {}, {}, {"x"}]>},
                     %k: tensor<3x3x8x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {}, {"x"}, {}]>}) -> tensor<2x6x6x4xf32> {
    %r = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x6x6x8xf32>, tensor<3x3x8x4xf32>) -> tensor<2x6x6x4xf32>
    return %r : tensor<2x6x6x4xf32>
  }

  // Rows split 4 ways (and the batch 2 ways): a 3x3 window at stride 1
  // with SAME padding takes one row from each neighbour; at stride 2
  // (padding 0 before, 1 after) one row from the next; a 1x1 window at
  // stride 2 none; a 5x5 dilated by 2 (padding 4 each side) 4 rows each way.
  func.func @convrows(%x: tensor<2x16x6x3xf32> {sdy.sharding = #sdy.sharding<@x4, [{"y"}, {"x"}, {}, {}]>},
                      %k: tensor<3x3x3x4xf32>, %k1: tensor<1x1x3x4xf32>, %k5: tensor<5x5x3x4xf32>)
      -> (tensor<2x16x6x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x16x6x4xf32>) {
    %a = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x16x6x4xf32>
    %b = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [2, 2], pad = [[0, 1], [0, 1]]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x8x3x4xf32>
    %c = stablehlo.convolution(%x, %k1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [2, 2], pad = [[0, 0], [0, 0]]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x6x3xf32>, tensor<1x1x3x4xf32>) -> tensor<2x8x3x4xf32>
    %d = stablehlo.convolution(%x, %k5) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [1, 1], pad = [[4, 4], [4, 4]], rhs_dilate = [2, 2]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x6x3xf32>, tensor<5x5x3x4xf32>) -> tensor<2x16x6x4xf32>
    return %a, %b, %c, %d : tensor<2x16x6x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x16x6x4xf32>
  }

  // VALID padding (fewer outputs than inputs: 14 rows in padded pieces
  // of 2, spmd_uneven.mlir) and an lhs dilation, which does not fit halos:
  // computed whole.
  func.func @convwhole(%x: tensor<2x16x6x3xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}, {}, {}]>},
                       %k: tensor<3x3x3x4xf32>) -> (tensor<2x14x4x4xf32>, tensor<2x31x11x4xf32>) {
    %a = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [1, 1], pad = [[0, 0], [0, 0]]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x14x4x4xf32>
    %b = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [2, 2]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x31x11x4xf32>
    return %a, %b : tensor<2x14x4x4xf32>, tensor<2x31x11x4xf32>
  }

  // A depthwise convolution (feature groups) over a split batch, in
  // NCHW: local.
  func.func @convdepth(%x: tensor<8x4x6x6xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}, {}, {}]>},
                       %k: tensor<4x1x3x3xf32>) -> tensor<8x4x6x6xf32> {
    %r = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1],
           window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}
           {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<8x4x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<8x4x6x6xf32>
    return %r : tensor<8x4x6x6xf32>
  }

  // The kernel gradient of a convolution over a split batch, as JAX
  // writes it: the batch is contracted, the partial products summed by
  // one all-reduce.
  func.func @convgrad(%x: tensor<8x6x6x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}, {}, {}]>},
                      %g: tensor<8x6x6x8xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}, {}, {}]>}) -> tensor<3x3x4x8xf32> {
    %r = stablehlo.convolution(%x, %g) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f],
           window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x6x6x4xf32>, tensor<8x6x6x8xf32>) -> tensor<3x3x4x8xf32>
    return %r : tensor<3x3x4x8xf32>
  }

  // Max pooling over a split batch (local) and over split rows (3x3 at
  // stride 2, padding 1 before: the previous piece's last row, -inf at the
  // top), average pooling's sum over split rows (2x2 at stride 2: nothing
  // moves), argmax pooling of two operands over split rows.
  func.func @pool(%x: tensor<8x8x6x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}, {}, {}]>},
                  %y: tensor<2x16x6x4xf32> {sdy.sharding = #sdy.sharding<@x4, [{"y"}, {"x"}, {}, {}]>})
      -> (tensor<8x4x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x16x6x4xf32>, tensor<2x16x6x4xi32>) {
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %izero = stablehlo.constant dense<0> : tensor<i32>
    %a = "stablehlo.reduce_window"(%x, %ninf) ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %m = stablehlo.maximum %p, %q : tensor<f32>
        stablehlo.return %m : tensor<f32>
    }) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>,
        padding = dense<[[0, 0], [1, 0], [1, 0], [0, 0]]> : tensor<4x2xi64>} : (tensor<8x8x6x4xf32>, tensor<f32>) -> tensor<8x4x3x4xf32>
    %b = "stablehlo.reduce_window"(%y, %ninf) ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %m = stablehlo.maximum %p, %q : tensor<f32>
        stablehlo.return %m : tensor<f32>
    }) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>,
        padding = dense<[[0, 0], [1, 0], [1, 0], [0, 0]]> : tensor<4x2xi64>} : (tensor<2x16x6x4xf32>, tensor<f32>) -> tensor<2x8x3x4xf32>
    %c = "stablehlo.reduce_window"(%y, %zero) ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = stablehlo.add %p, %q : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<2x16x6x4xf32>, tensor<f32>) -> tensor<2x8x3x4xf32>
    %i = stablehlo.iota dim = 1 : tensor<2x16x6x4xi32>
    %d:2 = "stablehlo.reduce_window"(%y, %i, %ninf, %izero) ({
      ^bb0(%p: tensor<f32>, %pi: tensor<i32>, %q: tensor<f32>, %qi: tensor<i32>):
        %gt = stablehlo.compare GE, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %m = stablehlo.select %gt, %p, %q : tensor<i1>, tensor<f32>
        %mi = stablehlo.select %gt, %pi, %qi : tensor<i1>, tensor<i32>
        stablehlo.return %m, %mi : tensor<f32>, tensor<i32>
    }) {window_dimensions = array<i64: 1, 3, 1, 1>,
        padding = dense<[[0, 0], [1, 1], [0, 0], [0, 0]]> : tensor<4x2xi64>} : (tensor<2x16x6x4xf32>, tensor<2x16x6x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2x16x6x4xf32>, tensor<2x16x6x4xi32>)
    return %a, %b, %c, %d#0, %d#1 : tensor<8x4x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x8x3x4xf32>, tensor<2x16x6x4xf32>, tensor<2x16x6x4xi32>
  }

  // The gradient of max pooling over a split batch, and over rows split
  // 8 ways (2x2 windows at stride 2: each within a piece): local.
  func.func @poolgrad(%x: tensor<8x8x6x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}, {}, {}]>},
                      %g: tensor<8x4x3x4xf32>,
                      %y: tensor<2x16x6x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}, {}, {}]>},
                      %h: tensor<2x8x3x4xf32>) -> (tensor<8x8x6x4xf32>, tensor<2x16x6x4xf32>) {
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %r = "stablehlo.select_and_scatter"(%x, %g, %zero) ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %ge = stablehlo.compare GE, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
        stablehlo.return %ge : tensor<i1>
    }, {
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = stablehlo.add %p, %q : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<8x8x6x4xf32>, tensor<8x4x3x4xf32>, tensor<f32>) -> tensor<8x8x6x4xf32>
    %q = "stablehlo.select_and_scatter"(%y, %h, %zero) ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %ge = stablehlo.compare GE, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
        stablehlo.return %ge : tensor<i1>
    }, {
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %s = stablehlo.add %p, %q : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<2x16x6x4xf32>, tensor<2x8x3x4xf32>, tensor<f32>) -> tensor<2x16x6x4xf32>
    return %r, %q : tensor<8x8x6x4xf32>, tensor<2x16x6x4xf32>
  }

  // pad along a dimension that is not split, sort along one, reverse of
  // one, argmax (a reduce of two operands) over one, a reduce by a
  // reducer that is not plain over one: all on the split rows.
  func.func @others(%x: tensor<16x6xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>})
      -> (tensor<16x9xf32>, tensor<16x6xf32>, tensor<16x6xf32>, tensor<16xi32>, tensor<16xf32>) {
    %zero = stablehlo.constant dense<1.5> : tensor<f32>
    %a = stablehlo.pad %x, %zero, low = [0, 1], high = [0, 2], interior = [0, 0] : (tensor<16x6xf32>, tensor<f32>) -> tensor<16x9xf32>
    %b = "stablehlo.sort"(%x) ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %lt = stablehlo.compare LT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
    }) {dimension = 1 : i64, is_stable = true} : (tensor<16x6xf32>) -> tensor<16x6xf32>
    %c = stablehlo.reverse %x, dims = [1] : tensor<16x6xf32>
    %i = stablehlo.iota dim = 1 : tensor<16x6xi32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %izero = stablehlo.constant dense<0> : tensor<i32>
    %d:2 = stablehlo.reduce(%x init: %ninf), (%i init: %izero) across dimensions = [1] : (tensor<16x6xf32>, tensor<16x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<16xf32>, tensor<16xi32>)
      reducer(%p: tensor<f32>, %q: tensor<f32>) (%pi: tensor<i32>, %qi: tensor<i32>) {
        %gt = stablehlo.compare GT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %m = stablehlo.select %gt, %p, %q : tensor<i1>, tensor<f32>
        %mi = stablehlo.select %gt, %pi, %qi : tensor<i1>, tensor<i32>
        stablehlo.return %m, %mi : tensor<f32>, tensor<i32>
      }
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %e = stablehlo.reduce(%x init: %one) across dimensions = [1] : (tensor<16x6xf32>, tensor<f32>) -> tensor<16xf32>
      reducer(%p: tensor<f32>, %q: tensor<f32>) {
        %s = stablehlo.add %p, %q : tensor<f32>
        %t = stablehlo.multiply %s, %q : tensor<f32>
        stablehlo.return %t : tensor<f32>
      }
    return %a, %b, %c, %d#1, %e : tensor<16x9xf32>, tensor<16x6xf32>, tensor<16x6xf32>, tensor<16xi32>, tensor<16xf32>
  }

  // A ResNet block over a batch split 8 ways (training: the batch
  // normalization's statistics over the batch and the image): the
  // convolutions, the normalization and the residual on each partition's
  // images, the statistics summed by all-reduces, nothing gathered.
  func.func @resnet(%x: tensor<8x8x8x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}, {}, {}]>},
                    %k1: tensor<3x3x4x4xf32>, %k2: tensor<3x3x4x4xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>)
      -> (tensor<8x8x8x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}, {}, {}]>}) {
    %c1 = stablehlo.convolution(%x, %k1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x8x8x4xf32>, tensor<3x3x4x4xf32>) -> tensor<8x8x8x4xf32>
    %n1 = func.call @bn(%c1, %g, %b) : (tensor<8x8x8x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<8x8x8x4xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<8x8x8x4xf32>
    %r1 = stablehlo.maximum %n1, %zero : tensor<8x8x8x4xf32>
    %c2 = stablehlo.convolution(%r1, %k2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x8x8x4xf32>, tensor<3x3x4x4xf32>) -> tensor<8x8x8x4xf32>
    %n2 = func.call @bn(%c2, %g, %b) : (tensor<8x8x8x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<8x8x8x4xf32>
    %s = stablehlo.add %n2, %x : tensor<8x8x8x4xf32>
    %r = stablehlo.maximum %s, %zero : tensor<8x8x8x4xf32>
    return %r : tensor<8x8x8x4xf32>
  }

  func.func private @bn(%x: tensor<8x8x8x4xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<8x8x8x4xf32> {
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %sum = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x4xf32>, tensor<f32>) -> tensor<4xf32>
    %n = stablehlo.constant dense<512.0> : tensor<4xf32>
    %mean = stablehlo.divide %sum, %n : tensor<4xf32>
    %mb = stablehlo.broadcast_in_dim %mean, dims = [3] : (tensor<4xf32>) -> tensor<8x8x8x4xf32>
    %d = stablehlo.subtract %x, %mb : tensor<8x8x8x4xf32>
    %sq = stablehlo.multiply %d, %d : tensor<8x8x8x4xf32>
    %ssq = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x4xf32>, tensor<f32>) -> tensor<4xf32>
    %var = stablehlo.divide %ssq, %n : tensor<4xf32>
    %eps = stablehlo.constant dense<1.0e-5> : tensor<4xf32>
    %ve = stablehlo.add %var, %eps : tensor<4xf32>
    %inv = stablehlo.rsqrt %ve : tensor<4xf32>
    %sc = stablehlo.multiply %inv, %g : tensor<4xf32>
    %scb = stablehlo.broadcast_in_dim %sc, dims = [3] : (tensor<4xf32>) -> tensor<8x8x8x4xf32>
    %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<4xf32>) -> tensor<8x8x8x4xf32>
    %y = stablehlo.multiply %d, %scb : tensor<8x8x8x4xf32>
    %r = stablehlo.add %y, %bb : tensor<8x8x8x4xf32>
    return %r : tensor<8x8x8x4xf32>
  }

  // Rows split over "x" (each piece held by the four partitions along
  // "y"), the kernel split over "y" by output features, or by input
  // features.
  func.func @convmix(%x: tensor<2x8x6x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}, {}, {}]>},
                     %k: tensor<3x3x8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}, {}, {"y"}]>},
                     %k2: tensor<3x3x8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}, {"y"}, {}]>}) -> (tensor<2x8x6x8xf32>, tensor<2x8x6x4xf32>) {
    %r = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x6x8xf32>, tensor<3x3x8x8xf32>) -> tensor<2x8x6x8xf32>
    %s = stablehlo.convolution(%x, %k2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x6x8xf32>, tensor<3x3x8x4xf32>) -> tensor<2x8x6x4xf32>
    return %r, %s : tensor<2x8x6x8xf32>, tensor<2x8x6x4xf32>
  }
  // A loop of convolutions over a batch split over both axes.
  func.func @loopconv(%x: tensor<8x6x6x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", "y"}, {}, {}, {}]>},
                      %k: tensor<3x3x4x4xf32>) -> tensor<8x6x6x4xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %a = %x) : tensor<i32>, tensor<8x6x6x4xf32>
      cond {
        %n = stablehlo.constant dense<3> : tensor<i32>
        %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %one = stablehlo.constant dense<1> : tensor<i32>
        %j = stablehlo.add %i, %one : tensor<i32>
        %c = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x6x6x4xf32>, tensor<3x3x4x4xf32>) -> tensor<8x6x6x4xf32>
        %t = stablehlo.tanh %c : tensor<8x6x6x4xf32>
        stablehlo.return %j, %t : tensor<i32>, tensor<8x6x6x4xf32>
      }
    return %r#1 : tensor<8x6x6x4xf32>
  }

  // An embedding table split by columns: the rows looked up on each
  // partition's columns; columns picked from rows split by rows; rows
  // picked from rows split by rows (each partition looks up its own rows,
  // zeros elsewhere, one all-reduce: tests/lit/run/spmd_gather.mlir).
  func.func @gathers(%t: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}]>},
                     %x: tensor<16x6xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>},
                     %i: tensor<5x1xi32>, %j: tensor<3x1xi32>)
      -> (tensor<5x8xf32>, tensor<16x3xf32>, tensor<3x6xf32>) {
    %a = "stablehlo.gather"(%t, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<16x8xf32>, tensor<5x1xi32>) -> tensor<5x8xf32>
    %b = "stablehlo.gather"(%x, %j) {dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 16, 1>, indices_are_sorted = false} : (tensor<16x6xf32>, tensor<3x1xi32>) -> tensor<16x3xf32>
    %c = "stablehlo.gather"(%x, %j) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 6>, indices_are_sorted = false} : (tensor<16x6xf32>, tensor<3x1xi32>) -> tensor<3x6xf32>
    return %a, %b, %c : tensor<5x8xf32>, tensor<16x3xf32>, tensor<3x6xf32>
  }

  // A loop of convolutions over rows split 8 ways (two rows each).
  func.func @loophalo(%x: tensor<2x16x6x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}, {}, {}]>},
                      %k: tensor<3x3x4x4xf32>) -> tensor<2x16x6x4xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %a = %x) : tensor<i32>, tensor<2x16x6x4xf32>
      cond {
        %n = stablehlo.constant dense<3> : tensor<i32>
        %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %one = stablehlo.constant dense<1> : tensor<i32>
        %j = stablehlo.add %i, %one : tensor<i32>
        %c = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x6x4xf32>, tensor<3x3x4x4xf32>) -> tensor<2x16x6x4xf32>
        %t = stablehlo.tanh %c : tensor<2x16x6x4xf32>
        stablehlo.return %j, %t : tensor<i32>, tensor<2x16x6x4xf32>
      }
    return %r#1 : tensor<2x16x6x4xf32>
  }
}
