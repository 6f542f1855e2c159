// Reductions by reducers other than the plain ones (add, multiply, max,
// min, and, or with their identity) over split dimensions
// (docs/spmd.md, "Rules"): each partition reduces its piece, the pieces'
// results are gathered from the partitions that hold the other pieces
// (along a new leading dimension, in the pieces' order) and reduced again
// by the same reducer, so that nothing larger than the result moves.
// JAX's argmax over a split vocabulary is the common case: a reduce of the
// values and an iota.  Every entry's results must equal the program on one
// partition, on random inputs, on both backends.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in "4 argmax" "8 argmax2d" "8 argmin3" "4 notplain" "4 uneven"; do set -- $e; \
// RUN:   xlac run --random-inputs --seed 5 --entry $2 %s --output-dir %t/$2 >/dev/null || exit 1; \
// RUN:   ex=""; for k in 0 1 2 3; do [ -f %t/$2/result$k.npy ] && ex="$ex --expect $k=@%t/$2/result$k.npy"; done; \
// RUN:   xlac run --partitions $1 --random-inputs --seed 5 --entry $2 %s $ex || exit 1; \
// RUN:   xlac run --backend=cpu --partitions $1 --random-inputs --seed 5 --entry $2 %s $ex || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SAME
// SAME-COUNT-14: expect result[{{[0-9]}}]: ok
// SAME-NOT: {{error:|FAIL}}
//
// What one partition runs for the argmax over 16 columns split 4 ways:
// the reduce of its 4 columns and of the iota's piece (global indices),
// the two [1 x 4] results gathered into [4 x 4], and one more reduce
// over the pieces; the operand itself is not gathered.
// RUN: xlac run --backend=cpu --partitions 4 --entry argmax --random-inputs %s --xla_dump_to=%t/dam >/dev/null
// RUN: FileCheck %s --check-prefix=AM < %t/dam/module_0000.spmd_reduce.before_optimizations.txt
// AM: ENTRY %argmax ({{.*}}: f32[4,4]) -> (s32[4], f32[4]) {
// AM-NOT: all-gather
// AM: (f32[4]{0}, s32[4]{0}) reduce(%x{{[.0-9]*}}, {{.*}}), dimensions={1}
// AM: f32[4,4]{1,0} all-gather({{.*}}), replica_groups={{[{][{]}}0,1,2,3{{[}][}]}}, channel_id={{[0-9]+}}, use_global_device_ids=true, dimensions={0}
// AM: s32[4,4]{1,0} all-gather({{.*}}), replica_groups={{[{][{]}}0,1,2,3{{[}][}]}}, channel_id={{[0-9]+}}, use_global_device_ids=true, dimensions={0}
// AM: (f32[4]{0}, s32[4]{0}) reduce({{.*}}), dimensions={0}
// AM-NOT: all-gather
//
// On a 2x4 mesh the pieces gathered are those of the model axis only
// (the rows stay split by data); nothing is computed whole.
// RUN: xlac run --verbose --partitions 8 --entry argmax2d --random-inputs %s 2>&1 >/dev/null | FileCheck %s --check-prefix=TWO
// TWO: spmd: 2 all_gather, 0 all_reduce, {{[0-9]+}} local cuts{{$}}
// RUN: xlac run --backend=cpu --partitions 8 --entry argmax2d --random-inputs %s --xla_dump_to=%t/d2 >/dev/null
// RUN: FileCheck %s --check-prefix=TWOHLO < %t/d2/module_0000.spmd_reduce.before_optimizations.txt
// TWOHLO: f32[4,4]{1,0} all-gather({{.*}}), replica_groups={{[{][{]}}0,1,2,3},{4,5,6,7{{[}][}]}}
//
// Ties across pieces: the first index of the largest value, as on one
// partition (5 at columns 1, 2, 4 and 7 of the first row, pieces of two
// columns; the second row's largest value only in the last piece; the
// third row all equal).
// RUN: xlac run --partitions 4 --entry ties %s --input x=[[1,5,5,2,5,0,0,5],[0,1,2,3,4,5,6,7],[3,3,3,3,3,3,3,3]] | FileCheck %s --check-prefix=TIES
// RUN: xlac run --backend=cpu --partitions 4 --entry ties %s --input x=[[1,5,5,2,5,0,0,5],[0,1,2,3,4,5,6,7],[3,3,3,3,3,3,3,3]] | FileCheck %s --check-prefix=TIES
// RUN: xlac run --entry ties %s --input x=[[1,5,5,2,5,0,0,5],[0,1,2,3,4,5,6,7],[3,3,3,3,3,3,3,3]] | FileCheck %s --check-prefix=TIES
// TIES: result[0]: tensor<3xi32> = [1, 7, 0]
// TIES-NEXT: result[1]: tensor<3xi32> = [5, 7, 3]
//
// Uneven pieces (10 columns over 4: 3, 3, 3, 1): the padding is made the
// initial value before the local reduce, so that no padded column wins.
// RUN: xlac run --verbose --partitions 4 --entry uneven --random-inputs %s 2>&1 >/dev/null | FileCheck %s --check-prefix=UNEVEN
// UNEVEN: spmd: {{[0-9]+}} all_gather, 0 all_reduce, {{[0-9]+}} local cuts{{$}}
// RUN: xlac run --partitions 4 --entry uneven %s --input a=[[-1,-2,-3,-4,-5,-6,-7,-8,-9,-10],[0,0,0,0,0,0,0,0,0,-1]] | FileCheck %s --check-prefix=UNVAL
// UNVAL: result[0]: tensor<2xi32> = [0, 0]

module @spmd_reduce attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @x4 = <["x"=4]>
  sdy.mesh @m2 = <["data"=2, "model"=4]>
  sdy.mesh @m3 = <["a"=2, "b"=4]>

  // jnp.argmax(x, axis=1) with x split by columns.
  func.func @argmax(%x: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@x4, [{}, {"x"}]>}) -> (tensor<4xi32>, tensor<4xf32>) {
    %i = stablehlo.iota dim = 1 : tensor<4x16xi32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %izero = stablehlo.constant dense<0> : tensor<i32>
    %d:2 = stablehlo.reduce(%x init: %ninf), (%i init: %izero) across dimensions = [1] : (tensor<4x16xf32>, tensor<4x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
      reducer(%p: tensor<f32>, %q: tensor<f32>) (%pi: tensor<i32>, %qi: tensor<i32>) {
        %gt = stablehlo.compare GT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %ne = stablehlo.compare NE, %p, %p : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %pick = stablehlo.or %gt, %ne : tensor<i1>
        %eq = stablehlo.compare EQ, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %lt = stablehlo.compare LT, %pi, %qi : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %tie = stablehlo.and %eq, %lt : tensor<i1>
        %take = stablehlo.or %pick, %tie : tensor<i1>
        %m = stablehlo.select %pick, %p, %q : tensor<i1>, tensor<f32>
        %mi = stablehlo.select %take, %pi, %qi : tensor<i1>, tensor<i32>
        stablehlo.return %m, %mi : tensor<f32>, tensor<i32>
      }
    return %d#1, %d#0 : tensor<4xi32>, tensor<4xf32>
  }

  // The same on a 2x4 mesh, rows by data, columns by model; the result
  // returned split by data.
  func.func @argmax2d(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m2, [{"data"}, {"model"}]>})
      -> (tensor<8xi32> {sdy.sharding = #sdy.sharding<@m2, [{"data"}]>}) {
    %i = stablehlo.iota dim = 1 : tensor<8x16xi32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %izero = stablehlo.constant dense<0> : tensor<i32>
    %d:2 = stablehlo.reduce(%x init: %ninf), (%i init: %izero) across dimensions = [1] : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
      reducer(%p: tensor<f32>, %q: tensor<f32>) (%pi: tensor<i32>, %qi: tensor<i32>) {
        %gt = stablehlo.compare GT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %eq = stablehlo.compare EQ, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %lt = stablehlo.compare LT, %pi, %qi : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %tie = stablehlo.and %eq, %lt : tensor<i1>
        %take = stablehlo.or %gt, %tie : tensor<i1>
        %m = stablehlo.select %gt, %p, %q : tensor<i1>, tensor<f32>
        %mi = stablehlo.select %take, %pi, %qi : tensor<i1>, tensor<i32>
        stablehlo.return %m, %mi : tensor<f32>, tensor<i32>
      }
    return %d#1 : tensor<8xi32>
  }

  // An argmin over both dimensions of a value split along both (2x4
  // pieces), the flat index as a second operand: a scalar from 8 pieces.
  func.func @argmin3(%x: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"a"}, {"b"}]>}) -> (tensor<i32>, tensor<f32>) {
    %r = stablehlo.iota dim = 0 : tensor<4x8xi32>
    %c = stablehlo.iota dim = 1 : tensor<4x8xi32>
    %eight = stablehlo.constant dense<8> : tensor<4x8xi32>
    %rr = stablehlo.multiply %r, %eight : tensor<4x8xi32>
    %i = stablehlo.add %rr, %c : tensor<4x8xi32>
    %inf = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %izero = stablehlo.constant dense<0> : tensor<i32>
    %d:2 = stablehlo.reduce(%x init: %inf), (%i init: %izero) across dimensions = [0, 1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
      reducer(%p: tensor<f32>, %q: tensor<f32>) (%pi: tensor<i32>, %qi: tensor<i32>) {
        %lt = stablehlo.compare LT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %eq = stablehlo.compare EQ, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %ilt = stablehlo.compare LT, %pi, %qi : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %tie = stablehlo.and %eq, %ilt : tensor<i1>
        %take = stablehlo.or %lt, %tie : tensor<i1>
        %m = stablehlo.select %lt, %p, %q : tensor<i1>, tensor<f32>
        %mi = stablehlo.select %take, %pi, %qi : tensor<i1>, tensor<i32>
        stablehlo.return %m, %mi : tensor<f32>, tensor<i32>
      }
    return %d#1, %d#0 : tensor<i32>, tensor<f32>
  }

  // One operand, a maximum whose initial value is not its identity (0.5):
  // not a plain reducer, so not an all-reduce; the local reduce and the
  // reduce of the gathered pieces each start from 0.5.
  func.func @notplain(%x: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@x4, [{"x"}, {}]>}) -> tensor<6xf32> {
    %h = stablehlo.constant dense<0.5> : tensor<f32>
    %r = stablehlo.reduce(%x init: %h) across dimensions = [0] : (tensor<8x6xf32>, tensor<f32>) -> tensor<6xf32>
      reducer(%p: tensor<f32>, %q: tensor<f32>) {
        %m = stablehlo.maximum %p, %q : tensor<f32>
        stablehlo.return %m : tensor<f32>
      }
    %e = stablehlo.exponential %r : tensor<6xf32>
    return %e : tensor<6xf32>
  }

  // Integer ties (argmax, first index), columns split in pieces of two.
  func.func @ties(%x: tensor<3x8xi32> {sdy.sharding = #sdy.sharding<@x4, [{}, {"x"}]>}) -> (tensor<3xi32>, tensor<3xi32>) {
    %i = stablehlo.iota dim = 1 : tensor<3x8xi32>
    %min = stablehlo.constant dense<-2147483648> : tensor<i32>
    %izero = stablehlo.constant dense<0> : tensor<i32>
    %d:2 = stablehlo.reduce(%x init: %min), (%i init: %izero) across dimensions = [1] : (tensor<3x8xi32>, tensor<3x8xi32>, tensor<i32>, tensor<i32>) -> (tensor<3xi32>, tensor<3xi32>)
      reducer(%p: tensor<i32>, %q: tensor<i32>) (%pi: tensor<i32>, %qi: tensor<i32>) {
        %gt = stablehlo.compare GT, %p, %q : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %eq = stablehlo.compare EQ, %p, %q : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %lt = stablehlo.compare LT, %pi, %qi : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %tie = stablehlo.and %eq, %lt : tensor<i1>
        %take = stablehlo.or %gt, %tie : tensor<i1>
        %m = stablehlo.select %gt, %p, %q : tensor<i1>, tensor<i32>
        %mi = stablehlo.select %take, %pi, %qi : tensor<i1>, tensor<i32>
        stablehlo.return %m, %mi : tensor<i32>, tensor<i32>
      }
    return %d#1, %d#0 : tensor<3xi32>, tensor<3xi32>
  }

  // 10 columns split 4 ways by a constraint (pieces of 3, the last padded):
  // an argmax of negative values, where a padded zero would win.
  func.func @uneven(%a: tensor<2x10xf32>) -> tensor<2xi32> {
    %x = sdy.sharding_constraint %a <@x4, [{}, {"x"}]> : tensor<2x10xf32>
    %i = stablehlo.iota dim = 1 : tensor<2x10xi32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %izero = stablehlo.constant dense<0> : tensor<i32>
    %d:2 = stablehlo.reduce(%x init: %ninf), (%i init: %izero) across dimensions = [1] : (tensor<2x10xf32>, tensor<2x10xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
      reducer(%p: tensor<f32>, %q: tensor<f32>) (%pi: tensor<i32>, %qi: tensor<i32>) {
        %gt = stablehlo.compare GT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %eq = stablehlo.compare EQ, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %lt = stablehlo.compare LT, %pi, %qi : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %tie = stablehlo.and %eq, %lt : tensor<i1>
        %take = stablehlo.or %gt, %tie : tensor<i1>
        %m = stablehlo.select %gt, %p, %q : tensor<i1>, tensor<f32>
        %mi = stablehlo.select %take, %pi, %qi : tensor<i1>, tensor<i32>
        stablehlo.return %m, %mi : tensor<f32>, tensor<i32>
      }
    return %d#1 : tensor<2xi32>
  }
}
