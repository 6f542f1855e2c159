// Uneven splits (docs/spmd.md, "Uneven shards"): a sharding constraint
// whose axes do not divide a dimension (10 rows over 4 devices) holds the
// value in pieces of ceil(10 / 4) = 3 rows, the last ones padded (3, 3,
// 3, 1; 6 rows over 4: 2, 2, 2 and a piece of padding only).  Elementwise
// ops, dot_general (split batch, free and contracting dimensions),
// reduce over a split dimension, transpose, broadcast and reshape run on
// the padded pieces; reductions and contractions mask the padding (the
// reducer's initial value, zeros) so that it counts for nothing, even
// where it holds infinities (a log or a division computed on it).  An op
// that does not take padded pieces gathers them (to their true size) and
// computes whole, and says so in the summary.  Windows (convolution,
// reduce_window) over split rows whose outputs do not line up with the
// input's pieces (fewer outputs, VALID) give padded pieces too, with
// halos.  A slice of a split dimension gathers along that dimension
// alone (`a[:, -1, :]`), and a reverse of one moves nothing.  Every entry's results must equal the program
// on one partition on random inputs, on both backends.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in "4 ew" "4 dotbatch" "4 dotfree" "4 dotcontract" "8 dotmesh" "4 reduce" "4 empty" "4 movement" "4 fallback" "4 given" "8 valid" "8 stride3" "8 lastrow" "8 flip" "4 psumslice" "4 cols"; do set -- $e; \
// RUN:   xlac run --random-inputs --seed 3 --entry $2 %s --output-dir %t/$2 >/dev/null || exit 1; \
// RUN:   ex=""; for k in 0 1 2 3; do [ -f %t/$2/result$k.npy ] && ex="$ex --expect $k=@%t/$2/result$k.npy"; done; \
// RUN:   xlac run --partitions $1 --random-inputs --seed 3 --entry $2 %s $ex --atol 1e-5 --rtol 1e-5 || exit 1; \
// RUN:   xlac run --backend=cpu --partitions $1 --random-inputs --seed 3 --entry $2 %s $ex --atol 1e-5 --rtol 1e-5 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SAME
// SAME-COUNT-60: expect result[{{[0-9]}}]: ok
// SAME-NOT: {{error:|FAIL}}
//
// The program one partition runs: pieces of 3 rows, the whole value
// padded to 12 rows before it is cut, and gathered (12 rows) and sliced
// back to 10 for the result.
// RUN: xlac run --backend=cpu --partitions 4 --entry ew --random-inputs %s --xla_dump_to=%t/dew >/dev/null
// RUN: FileCheck %s --check-prefix=EW < %t/dew/module_0000.spmd_uneven.before_optimizations.txt
// EW: f32[12,6]{1,0} pad(
// EW: f32[3,6]{1,0} dynamic-slice(
// EW: f32[3,6]{1,0} exponential(
// EW: f32[12,6]{1,0} all-gather(
// EW: f32[10,6]{1,0} slice({{.*}}), slice={[0:10], [0:6]}
//
// A sum over the split rows: the padding masked with the initial value
// (an iota from the piece's offset compared with 10), one all-reduce.
// RUN: xlac run --backend=cpu --partitions 4 --entry reduce --random-inputs %s --xla_dump_to=%t/dred >/dev/null
// RUN: FileCheck %s --check-prefix=RED < %t/dred/module_0000.spmd_uneven.before_optimizations.txt
// RED: s64[3,6]{1,0} iota(), iota_dimension=0
// RED: pred[3,6]{1,0} compare({{.*}}), direction=LT
// RED: f32[3,6]{1,0} select(
// RED: f32[6]{0} reduce(
// RED: f32[6]{0} all-reduce(
//
// A product contracting the split dimension: both sides masked with
// zeros, one all-reduce, nothing gathered.
// RUN: xlac run --verbose --partitions 4 --entry dotcontract --random-inputs %s 2>&1 >/dev/null | FileCheck %s --check-prefix=DOTC
// DOTC: spmd: 0 all_gather, 1 all_reduce,
// DOTC-NOT: computed whole
//
// Slices, a dynamic_slice and a concatenate of the columns run on the
// padded pieces (nothing computed whole: the three results gathered); a
// slice of the split rows is not taken on padded pieces: gathered and
// computed whole, as the summary says.
// RUN: xlac run --verbose --partitions 4 --entry cols --random-inputs %s 2>&1 >/dev/null | FileCheck %s --check-prefix=COLS
// COLS: spmd: 3 all_gather, 0 all_reduce, {{[0-9]+}} local cuts{{$}}
// RUN: xlac run --verbose --partitions 4 --entry fallback --random-inputs %s 2>&1 >/dev/null | FileCheck %s --check-prefix=FALL
// FALL: spmd: 1 all_gather, {{.*}}; 1 ops computed whole from split operands (stablehlo.slice), the first at line
//
// Windows over split rows whose outputs do not line up with the pieces:
// halos (collective permutes), nothing gathered but the padded results;
// a stride that does not divide a piece computes whole.
// RUN: xlac run --verbose --partitions 8 --entry valid --random-inputs %s 2>&1 >/dev/null | FileCheck %s --check-prefix=VALID
// VALID: spmd: 3 all_gather, 0 all_reduce, 0 local cuts, {{[1-9]}} collective_permute{{$}}
// RUN: xlac run --verbose --partitions 8 --entry stride3 --random-inputs %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STRIDE3
// STRIDE3: spmd: 1 all_gather, {{.*}}; 1 ops computed whole from split operands (stablehlo.convolution), the first at line
//
// A slice of a split dimension gathers along it alone: `a[:, -1, :]` of
// a value split 2x2x2 leaves split 2x2 (pieces of 2x4), one all-gather.
// RUN: xlac run --verbose --backend=cpu --partitions 8 --entry lastrow --random-inputs %s --xla_dump_to=%t/dlast 2>&1 >/dev/null | FileCheck %s --check-prefix=LAST
// LAST: spmd: 1 all_gather, 0 all_reduce, 0 local cuts{{$}}
// RUN: grep -h "%lastrow (" %t/dlast/module_0000.spmd_uneven.before_optimizations.txt | FileCheck %s --check-prefix=LASTSIG
// LASTSIG: %lastrow ({{.*}}: f32[2,3,4]) -> f32[2,4] {
// A reverse of a split dimension leaves it split: the first result is
// reported in a layout whose device list numbers the pieces the other
// way, and the add takes it back to the plain one by one collective
// permute.
// RUN: xlac run --verbose --backend=cpu --partitions 8 --entry flip --random-inputs %s --xla_dump_to=%t/dflip 2>&1 >/dev/null | FileCheck %s --check-prefix=FLIP
// FLIP: spmd: 0 all_gather, 0 all_reduce, 0 local cuts, 1 collective_permute{{$}}
// RUN: grep -h "%flip (" %t/dflip/module_0000.spmd_uneven.before_optimizations.txt | FileCheck %s --check-prefix=FLIPSIG
// FLIPSIG: %flip ({{.*}}: f32[2,2,1]) -> (f32[2,2,1], f32[2,2,1]) {

module @spmd_uneven attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @m = <["x"=4]>
  sdy.mesh @m2 = <["x"=2, "y"=4]>
  sdy.mesh @m8 = <["x"=8]>
  sdy.mesh @m3 = <["x"=2, "y"=2, "z"=2]>
  sdy.mesh @m22 = <["x"=2, "y"=2]>

  // elementwise: a log (the padding, zeros cut from the whole value,
  // becomes -inf and is never read), an iota, a broadcast constant
  func.func @ew(%a: tensor<10x6xf32>, %b: tensor<10x6xf32>) -> (tensor<10x6xf32>, tensor<10x6xf32>) {
    %0 = sdy.sharding_constraint %a <@m, [{"x"}, {}]> : tensor<10x6xf32>
    %1 = stablehlo.exponential %0 : tensor<10x6xf32>
    %2 = stablehlo.log %1 : tensor<10x6xf32>
    %3 = stablehlo.iota dim = 0 : tensor<10x6xf32>
    %4 = stablehlo.add %2, %3 : tensor<10x6xf32>
    %c = stablehlo.constant dense<2.5> : tensor<10x6xf32>
    %5 = stablehlo.multiply %4, %c : tensor<10x6xf32>
    %6 = stablehlo.subtract %5, %b : tensor<10x6xf32>
    return %1, %6 : tensor<10x6xf32>, tensor<10x6xf32>
  }

  // a split batch dimension on both sides
  func.func @dotbatch(%a: tensor<10x3x4xf32>, %b: tensor<10x4x5xf32>) -> tensor<10x3x5xf32> {
    %0 = sdy.sharding_constraint %a <@m, [{"x"}, {}, {}]> : tensor<10x3x4xf32>
    %1 = stablehlo.dot_general %0, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<10x3x4xf32>, tensor<10x4x5xf32>) -> tensor<10x3x5xf32>
    %2 = stablehlo.tanh %1 : tensor<10x3x5xf32>
    return %2 : tensor<10x3x5xf32>
  }

  // split free dimensions: rows of the lhs, columns of the rhs
  func.func @dotfree(%a: tensor<10x8xf32>, %w: tensor<8x7xf32>) -> (tensor<10x7xf32>, tensor<8x8xf32>) {
    %0 = sdy.sharding_constraint %a <@m, [{"x"}, {}]> : tensor<10x8xf32>
    %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<10x8xf32>, tensor<8x7xf32>) -> tensor<10x7xf32>
    %2 = sdy.sharding_constraint %w <@m, [{}, {"x"}]> : tensor<8x7xf32>
    %3 = stablehlo.dot_general %w, %2, contracting_dims = [1] x [1] : (tensor<8x7xf32>, tensor<8x7xf32>) -> tensor<8x8xf32>
    return %1, %3 : tensor<10x7xf32>, tensor<8x8xf32>
  }

  // the contracting dimension split unevenly on both sides; the padding
  // of the lhs's pieces holds infinities (1 / 0), masked to zeros
  func.func @dotcontract(%a: tensor<6x10xf32>, %w: tensor<10x5xf32>) -> tensor<6x5xf32> {
    %0 = sdy.sharding_constraint %a <@m, [{}, {"x"}]> : tensor<6x10xf32>
    %one = stablehlo.constant dense<1.0> : tensor<6x10xf32>
    %1 = stablehlo.divide %one, %0 : tensor<6x10xf32>
    %2 = sdy.sharding_constraint %w <@m, [{"x"}, {}]> : tensor<10x5xf32>
    %3 = stablehlo.dot_general %1, %2, contracting_dims = [1] x [0] : (tensor<6x10xf32>, tensor<10x5xf32>) -> tensor<6x5xf32>
    return %3 : tensor<6x5xf32>
  }

  // a 2x4 mesh: 10 rows over "y" (4) and 6 columns over "x" (2), then a
  // product contracting the columns
  func.func @dotmesh(%a: tensor<10x6xf32>, %w: tensor<6x3xf32>) -> (tensor<10x3xf32>, tensor<10x6xf32>) {
    %0 = sdy.sharding_constraint %a <@m2, [{"y"}, {"x"}]> : tensor<10x6xf32>
    %1 = stablehlo.sine %0 : tensor<10x6xf32>
    %2 = stablehlo.dot_general %1, %w, contracting_dims = [1] x [0] : (tensor<10x6xf32>, tensor<6x3xf32>) -> tensor<10x3xf32>
    return %2, %1 : tensor<10x3xf32>, tensor<10x6xf32>
  }

  // reductions over the split rows (sum and max of a log: the padding is
  // -inf before it is masked) and over the other dimension (rows kept
  // split)
  func.func @reduce(%a: tensor<10x6xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<10xf32>) {
    %0 = sdy.sharding_constraint %a <@m, [{"x"}, {}]> : tensor<10x6xf32>
    %ab = stablehlo.abs %0 : tensor<10x6xf32>
    %1 = stablehlo.log %ab : tensor<10x6xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.reduce(%0 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<10x6xf32>, tensor<f32>) -> tensor<6xf32>
    %3 = stablehlo.reduce(%1 init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<10x6xf32>, tensor<f32>) -> tensor<6xf32>
    %4 = stablehlo.reduce(%1 init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<10x6xf32>, tensor<f32>) -> tensor<10xf32>
    return %2, %3, %4 : tensor<6xf32>, tensor<6xf32>, tensor<10xf32>
  }

  // 6 rows over 4: the last piece is padding only; a product over a
  // split integer dimension too
  func.func @empty(%a: tensor<6x5xf32>, %i: tensor<3x6xi32>) -> (tensor<5xf32>, tensor<6x5xf32>, tensor<3xi32>) {
    %0 = sdy.sharding_constraint %a <@m, [{"x"}, {}]> : tensor<6x5xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<6x5xf32>, tensor<f32>) -> tensor<5xf32>
    %2 = stablehlo.cosine %0 : tensor<6x5xf32>
    %3 = sdy.sharding_constraint %i <@m, [{}, {"x"}]> : tensor<3x6xi32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %4 = stablehlo.reduce(%3 init: %one) applies stablehlo.multiply across dimensions = [1] : (tensor<3x6xi32>, tensor<i32>) -> tensor<3xi32>
    return %1, %2, %4 : tensor<5xf32>, tensor<6x5xf32>, tensor<3xi32>
  }

  // transpose, reshape splitting the other dimension, broadcast
  func.func @movement(%a: tensor<10x6xf32>) -> (tensor<6x10xf32>, tensor<10x2x3xf32>, tensor<10x6x2xf32>) {
    %0 = sdy.sharding_constraint %a <@m, [{"x"}, {}]> : tensor<10x6xf32>
    %1 = stablehlo.exponential %0 : tensor<10x6xf32>
    %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<10x6xf32>) -> tensor<6x10xf32>
    %3 = stablehlo.reshape %1 : (tensor<10x6xf32>) -> tensor<10x2x3xf32>
    %4 = stablehlo.negate %3 : tensor<10x2x3xf32>
    %5 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<10x6xf32>) -> tensor<10x6x2xf32>
    return %2, %4, %5 : tensor<6x10xf32>, tensor<10x2x3xf32>, tensor<10x6x2xf32>
  }

  // a slice and a dynamic_slice of the columns of padded rows, and a
  // concatenate of columns with a whole value: on the pieces
  func.func @cols(%a: tensor<10x6xf32>, %b: tensor<10x2xf32>, %i: tensor<i32>) -> (tensor<10x3xf32>, tensor<10x2xf32>, tensor<10x8xf32>) {
    %0 = sdy.sharding_constraint %a <@m, [{"x"}, {}]> : tensor<10x6xf32>
    %1 = stablehlo.exponential %0 : tensor<10x6xf32>
    %2 = stablehlo.slice %1 [0:10, 1:6:2] : (tensor<10x6xf32>) -> tensor<10x3xf32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.dynamic_slice %1, %z, %i, sizes = [10, 2] : (tensor<10x6xf32>, tensor<i32>, tensor<i32>) -> tensor<10x2xf32>
    %4 = stablehlo.concatenate %1, %b, dim = 1 : (tensor<10x6xf32>, tensor<10x2xf32>) -> tensor<10x8xf32>
    %5 = stablehlo.negate %4 : tensor<10x8xf32>
    return %2, %3, %5 : tensor<10x3xf32>, tensor<10x2xf32>, tensor<10x8xf32>
  }

  // a slice along the split rows: computed whole
  func.func @fallback(%a: tensor<10x6xf32>) -> tensor<4x6xf32> {
    %0 = sdy.sharding_constraint %a <@m, [{"x"}, {}]> : tensor<10x6xf32>
    %1 = stablehlo.exponential %0 : tensor<10x6xf32>
    %2 = stablehlo.slice %1 [5:9, 0:6] : (tensor<10x6xf32>) -> tensor<4x6xf32>
    return %2 : tensor<4x6xf32>
  }

  // windows whose outputs do not line up with their inputs' pieces: 16
  // rows over 8 pieces of 2, a VALID 3x3 convolution (14 rows: pieces of
  // 2, the last padded, each taking 2 rows from the next piece), one at
  // stride 2 (7 rows: pieces of 1, a row from the next), VALID max
  // pooling 3x3; and a stride of 3 that does not divide a piece: whole
  func.func @valid(%x: tensor<2x16x6x3xf32> {sdy.sharding = #sdy.sharding<@m8, [{}, {"x"}, {}, {}]>},
                   %k: tensor<3x3x3x4xf32>) -> (tensor<2x14x4x4xf32>, tensor<2x7x2x4xf32>, tensor<2x14x4x3xf32>) {
    %a = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [1, 1], pad = [[0, 0], [0, 0]]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x14x4x4xf32>
    %b = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [2, 2], pad = [[0, 0], [0, 0]]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x7x2x4xf32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = "stablehlo.reduce_window"(%x, %ninf) ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %mx = stablehlo.maximum %p, %q : tensor<f32>
        stablehlo.return %mx : tensor<f32>
      }) {window_dimensions = array<i64: 1, 3, 3, 1>} : (tensor<2x16x6x3xf32>, tensor<f32>) -> tensor<2x14x4x3xf32>
    %d = stablehlo.exponential %a : tensor<2x14x4x4xf32>
    return %d, %b, %c : tensor<2x14x4x4xf32>, tensor<2x7x2x4xf32>, tensor<2x14x4x3xf32>
  }

  func.func @stride3(%x: tensor<2x16x6x3xf32> {sdy.sharding = #sdy.sharding<@m8, [{}, {"x"}, {}, {}]>},
                     %k: tensor<3x3x3x4xf32>) -> tensor<2x5x2x4xf32> {
    %a = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [3, 3], pad = [[0, 0], [0, 0]]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x5x2x4xf32>
    return %a : tensor<2x5x2x4xf32>
  }

  // `a[:, -1, :]` of a value split three ways (JAX's slice and the
  // reshape that drops the middle dimension): gathered along the middle
  // dimension only, the result left split along the others
  func.func @lastrow(%x: tensor<4x6x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x"}, {"y"}, {"z"}]>}) -> tensor<4x8xf32> {
    %0 = stablehlo.slice %x [0:4, 5:6, 0:8] : (tensor<4x6x8xf32>) -> tensor<4x1x8xf32>
    %1 = stablehlo.reshape %0 : (tensor<4x1x8xf32>) -> tensor<4x8xf32>
    return %1 : tensor<4x8xf32>
  }

  // a slice of the split rows of a partial product (its contracting
  // dimension split): summed first, then gathered along the rows
  func.func @psumslice(%a: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@m22, [{"x"}, {"y"}]>}, %w: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@m22, [{"y"}, {}]>}) -> tensor<3x4xf32> {
    %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.slice %0 [2:5, 0:4] : (tensor<8x4xf32>) -> tensor<3x4xf32>
    %2 = stablehlo.exponential %1 : tensor<3x4xf32>
    return %2 : tensor<3x4xf32>
  }

  // `a[::-1]` of a value split three ways, then used with a value in the
  // plain layout and returned in it: the reverse moves nothing (its
  // result numbers the pieces the other way), the add moves it back (one
  // collective permute)
  func.func @flip(%x: tensor<4x4x2xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x"}, {"y"}, {"z"}]>}) -> (tensor<4x4x2xf32>, tensor<4x4x2xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x"}, {"y"}, {"z"}]>}) {
    %0 = stablehlo.reverse %x, dims = [0] : tensor<4x4x2xf32>
    %1 = stablehlo.add %0, %x : tensor<4x4x2xf32>
    return %0, %1 : tensor<4x4x2xf32>, tensor<4x4x2xf32>
  }

  // a result given an even layout: the padded pieces move to it
  func.func @given(%a: tensor<10x8xf32>) -> (tensor<10x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}]>}) {
    %0 = sdy.sharding_constraint %a <@m, [{"x"}, {}]> : tensor<10x8xf32>
    %ab = stablehlo.abs %0 : tensor<10x8xf32>
    %1 = stablehlo.sqrt %ab : tensor<10x8xf32>
    return %1 : tensor<10x8xf32>
  }
}
