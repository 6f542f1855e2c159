// Loops and branches on shards (docs/spmd.md): a while's carried values
// in the layouts propagation gives them, its body and condition rewritten
// on shards, a carry accumulating partial sums kept one through the loop
// and summed once after it, and the branches of case and if on shards.
// Every entry's results must equal the same program on one partition
// (which ignores the shardings) on random inputs, on both backends.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in carry accum reads condreads unreduced stacked through nested disagree hoisted stackrows branch ifop whole; do \
// RUN:   xlac run --random-inputs --seed 7 --entry $e %s --output-dir %t/$e >/dev/null || exit 1; \
// RUN:   ex=""; for k in 0 1 2 3; do [ -f %t/$e/result$k.npy ] && ex="$ex --expect $k=@%t/$e/result$k.npy"; done; \
// RUN:   xlac run --partitions 8 --random-inputs --seed 7 --entry $e %s $ex --atol 1e-5 --rtol 1e-5 || exit 1; \
// RUN:   xlac run --backend=cpu --partitions 8 --random-inputs --seed 7 --entry $e %s $ex --atol 1e-5 --rtol 1e-5 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SAME
// SAME-COUNT-38: expect result[{{[0-9]}}]: ok
// SAME-NOT: {{error:|FAIL}}
//
// Each branch of the case, and both of the if (the sign of the sum of x
// picks one; seeds 1 to 4 give both).
// RUN: for k in 0 1 2 -1 7; do \
// RUN:   xlac run --random-inputs --seed 5 --entry branch --input k=$k %s --output-dir %t/b$k >/dev/null || exit 1; \
// RUN:   xlac run --partitions 8 --random-inputs --seed 5 --entry branch --input k=$k %s --expect 0=@%t/b$k/result0.npy || exit 1; \
// RUN:   xlac run --backend=cpu --partitions 8 --random-inputs --seed 5 --entry branch --input k=$k %s --expect 0=@%t/b$k/result0.npy || exit 1; \
// RUN: done | FileCheck %s --check-prefix=BR
// BR-COUNT-10: expect result[0]: ok
// RUN: for s in 1 2 3 4; do \
// RUN:   xlac run --random-inputs --seed $s --entry ifop %s --output-dir %t/if$s >/dev/null || exit 1; \
// RUN:   xlac run --partitions 8 --random-inputs --seed $s --entry ifop %s --expect 0=@%t/if$s/result0.npy || exit 1; \
// RUN:   xlac run --backend=cpu --partitions 8 --random-inputs --seed $s --entry ifop %s --expect 0=@%t/if$s/result0.npy || exit 1; \
// RUN: done | FileCheck %s --check-prefix=IF
// IF-COUNT-8: expect result[0]: ok
//
// What was inserted: the data-parallel loop's one all-reduce is the
// weights' update, in the body (the zeros it accumulates split values in
// are made as the shards: no cut); each accumulator of partial products one all-reduce
// (after the loop, or in the body where the accumulator is read); the
// unreduced scan one, for the constraint after the loop; the stacked
// gradients and the loops in a loop one each, after the (outer) loop; the
// accumulator read through a convert two, one in the body for the whole
// value added to the other accumulator and one after it for both; the
// loop whose body computes by columns two all-to-alls; the loop that
// pads x one all-gather (said, with the pad it feeds); the
// stacking scan nothing, but for the row written into a carry split by
// rows (gathered, computed whole, cut locally, said); the case one
// all-to-all, in the branch that returns columns; the if one all-reduce,
// of the predicate's sum; the loop that calls a custom call is computed
// whole, as before, and said so.
// RUN: for e in carry accum reads condreads unreduced stacked through nested disagree hoisted stackrows branch ifop whole; do \
// RUN:   xlac run --verbose --partitions 8 --random-inputs --entry $e %s 2>&1 >/dev/null | grep spmd: || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SUM
// SUM: spmd: 0 all_gather, 1 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 1 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 1 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 1 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 1 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 1 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 2 all_reduce, 0 local cuts; 2 all_reduce combined into 1{{$}}
// SUM-NEXT: spmd: 0 all_gather, 1 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 0 all_gather, 0 all_reduce, 0 local cuts, 2 all_to_all{{$}}
// SUM-NEXT: spmd: 1 all_gather, 0 all_reduce, 0 local cuts; 1 ops computed whole from split operands (stablehlo.pad), the first at line [[#@LINE+422]]:15{{$}}
// SUM-NEXT: spmd: 1 all_gather, 0 all_reduce, 1 local cuts; 1 ops computed whole from split operands (stablehlo.dynamic_update_slice), the first at line [[#@LINE+450]]:15{{$}}
// SUM-NEXT: spmd: 0 all_gather, 0 all_reduce, 0 local cuts, 1 all_to_all{{$}}
// SUM-NEXT: spmd: 0 all_gather, 1 all_reduce, 0 local cuts{{$}}
// SUM-NEXT: spmd: 1 all_gather, 0 all_reduce, 0 local cuts; 1 ops computed whole from split operands (stablehlo.while), the first at line [[#@LINE+493]]:12{{$}}
//
// Where the sums are (the HLO dump of each program): the accumulating
// loop runs on 2-row shards and sums nothing inside; its one all-reduce
// follows the loop.
// RUN: xlac run --backend=cpu --partitions 8 --entry accum --random-inputs %s --xla_dump_to=%t/da >/dev/null
// RUN: FileCheck %s --check-prefix=ACC < %t/da/module_0000.loops.before_optimizations.txt
// ACC: %r.tuple.body ({{.*}}) -> (s32[], f32[4,2]) {
// ACC-NOT: all-reduce(
// ACC: f32[1,2,4]{2,1,0} dynamic-slice(
// ACC-NOT: all-reduce(
// ACC: f32[4,2]{1,0} dot(
// ACC-NOT: all-reduce(
// ACC: %accum ({{.*}}: f32[3,2,4], {{.*}}: f32[3,2,2]) -> f32[4,2] {
// ACC-NOT: all-reduce(
// ACC: while(
// ACC-NOT: all-reduce(
// ACC: ROOT {{.*}} = f32[4,2]{1,0} all-reduce({{.*}}), replica_groups={{[{][{]}}0,1,2,3,4,5,6,7{{[}][}]}}
// ACC-NEXT: {{^}$}}
//
// The accumulator read in the body, or by the condition: the sum in the
// body, right after the dot, in every iteration; none after the loop.
// RUN: xlac run --backend=cpu --partitions 8 --entry reads --random-inputs %s --xla_dump_to=%t/dr >/dev/null
// RUN: FileCheck %s --check-prefix=READS < %t/dr/module_0000.loops.before_optimizations.txt
// READS: %r.tuple.1.body ({{.*}}) -> (s32[], f32[4,2]) {
// READS: f32[4,2]{1,0} dot(
// READS-NEXT: f32[4,2]{1,0} all-reduce(
// READS: %reads ({{.*}}: f32[3,2,4], {{.*}}: f32[3,2,2]) -> f32[4,2] {
// READS-NOT: all-reduce(
// READS: {{^}$}}
// RUN: xlac run --backend=cpu --partitions 8 --entry condreads --random-inputs %s --xla_dump_to=%t/dc >/dev/null
// RUN: FileCheck %s --check-prefix=CREADS < %t/dc/module_0000.loops.before_optimizations.txt
// CREADS: %r.tuple.2.body ({{.*}}) -> (s32[], f32[4,2]) {
// CREADS: f32[4,2]{1,0} dot(
// CREADS-NEXT: f32[4,2]{1,0} all-reduce(
// CREADS: %condreads ({{.*}}: f32[3,2,4], {{.*}}: f32[3,2,2]) -> f32[4,2] {
// CREADS-NOT: all-reduce(
// CREADS: {{^}$}}
//
// JAX's scan: the zeros made unreduced are zeros everywhere, the loop's
// result leaves unreduced as it is, and its constraint to whole is the one
// all-reduce, after the loop.
// RUN: xlac run --backend=cpu --partitions 8 --entry unreduced --random-inputs %s --xla_dump_to=%t/du >/dev/null
// RUN: FileCheck %s --check-prefix=UNRED < %t/du/module_0000.loops.before_optimizations.txt
// UNRED: %r.tuple.3.body ({{.*}}) -> (s32[], f32[4,2]) {
// UNRED-NOT: all-reduce(
// UNRED: %unreduced ({{.*}}: f32[3,2,4], {{.*}}: f32[3,2,2]) -> (f32[4,2], f32[4,2]) {
// UNRED-NOT: all-reduce(
// UNRED: [[R:%[^ ]+]] = f32[4,2]{1,0} get-tuple-element({{.*}}), index=1
// UNRED-NEXT: [[S:%[^ ]+]] = f32[4,2]{1,0} all-reduce([[R]])
// UNRED-NEXT: ROOT {{.*}} tuple([[R]], [[S]])
//
// The stacked gradients: nothing summed in the body, one all-reduce of
// the stack after the loop.
// RUN: xlac run --backend=cpu --partitions 8 --entry stacked --random-inputs %s --xla_dump_to=%t/ds >/dev/null
// RUN: FileCheck %s --check-prefix=STACK < %t/ds/module_0000.loops.before_optimizations.txt
// STACK: %r.tuple.4.body ({{.*}}) -> (s32[], f32[3,4,2]) {
// STACK-NOT: all-reduce(
// STACK: f32[3,4,2]{2,1,0} dynamic-update-slice(
// STACK-NOT: all-reduce(
// STACK: %stacked ({{.*}}: f32[3,2,4], {{.*}}: f32[3,2,2]) -> f32[3,4,2] {
// STACK-NOT: all-reduce(
// STACK: while(
// STACK-NOT: all-reduce(
// STACK: ROOT {{.*}} = f32[3,4,2]{2,1,0} all-reduce(
// STACK-NEXT: {{^}$}}
//
// What an op in a body needs whole from before the loop is gathered
// before the loop, once.
// RUN: xlac run --backend=cpu --partitions 8 --entry hoisted --random-inputs %s --xla_dump_to=%t/dh >/dev/null
// RUN: FileCheck %s --check-prefix=HOIST < %t/dh/module_0000.loops.before_optimizations.txt
// HOIST: %r.tuple{{[.0-9]*}}.body ({{.*}}: (s32[], f32[16,4])) -> (s32[], f32[16,4]) {
// HOIST-NOT: all-gather(
// HOIST: pad(
// HOIST-NOT: all-gather(
// HOIST: %hoisted ({{.*}}: f32[2,4]) -> f32[16,4] {
// HOIST-NOT: while(
// HOIST: all-gather(
// HOIST-NOT: all-gather(
// HOIST: while(
//
// The accumulator read through a convert and constraints: nothing summed
// for it in the body; the other, adding a whole value, summed there and
// kept by the first partition; both summed after the loop by one.
// RUN: xlac run --backend=cpu --partitions 8 --entry through --random-inputs %s --xla_dump_to=%t/dt >/dev/null
// RUN: FileCheck %s --check-prefix=THRU < %t/dt/module_0000.loops.before_optimizations.txt
// THRU: %r.tuple.5.body ({{.*}}) -> (s32[], f32[4,2], f32[4,2]) {
// THRU: [[S:%[^ ]+]] = f32[4,2]{1,0} all-reduce(%acc2
// THRU-NOT: all-reduce(
// THRU: add(%cv, %g
// THRU-NOT: all-reduce(
// THRU: add([[S]], %w
// THRU-NOT: all-reduce(
// THRU: select(
// THRU-NOT: all-reduce(
// THRU: %through ({{.*}}) -> (f32[4,2], f32[4,2]) {
// THRU-NOT: all-reduce(
// THRU: while(
// THRU-NOT: all-reduce(
// THRU: (f32[4,2]{1,0}, f32[4,2]{1,0}) all-reduce(
//
// Loops in a loop: nothing summed in either body, one all-reduce after
// the outer loop.
// RUN: xlac run --backend=cpu --partitions 8 --entry nested --random-inputs %s --xla_dump_to=%t/dn >/dev/null
// RUN: FileCheck %s --check-prefix=NEST < %t/dn/module_0000.loops.before_optimizations.txt
// NEST: %q.tuple.body ({{.*}}) -> (s32[], f32[4,2]) {
// NEST-NOT: all-reduce(
// NEST: %nested ({{.*}}: f32[3,2,2,4], {{.*}}: f32[3,2,2,2]) -> f32[4,2] {
// NEST-NOT: all-reduce(
// NEST: while(
// NEST-NOT: all-reduce(
// NEST: ROOT {{.*}} = f32[4,2]{1,0} all-reduce(
// NEST-NEXT: {{^}$}}
//
// The branches on shards: the third moves its columns to rows.
// RUN: xlac run --backend=cpu --partitions 8 --entry branch --random-inputs %s --xla_dump_to=%t/db >/dev/null
// RUN: FileCheck %s --check-prefix=CASE < %t/db/module_0000.loops.before_optimizations.txt
// CASE: branch_0 ({{.*}}: f32[2,8]) -> f32[2,8] {
// CASE: branch_2 ({{.*}}: f32[16,1]) -> f32[2,8] {
// CASE-NEXT: parameter(0)
// CASE-NEXT: f32[16,1]{1,0} add(
// CASE-NEXT: ROOT {{.*}} = f32[2,8]{1,0} all-to-all(
// CASE: %branch ({{.*}}: s32[], {{.*}}: f32[2,8], {{.*}}: f32[16,1]) -> f32[2,8] {
// CASE-NOT: all-
// CASE: f32[2,8]{1,0} conditional(
// CASE-NEXT: ROOT {{.*}} = f32[2,8]{1,0} exponential(

module @loops attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @x8 = <["x"=8]>
  sdy.mesh @m = <["x"=2, "y"=4]>

  // A data-parallel loop: the rows of x split, the weights whole.  The
  // carried activations stay split, the weight update sums its partial
  // product in every iteration (it is read by the next), and the
  // accumulator of split values, zeros at first, is carried split.
  func.func @carry(%x: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>},
                   %w: tensor<4x4xf32>) -> (tensor<16x4xf32>, tensor<4x4xf32>, tensor<16x4xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %z = stablehlo.constant dense<0.0> : tensor<16x4xf32>
    %r:4 = stablehlo.while(%i = %c0, %a = %x, %b = %w, %s = %z) : tensor<i32>, tensor<16x4xf32>, tensor<4x4xf32>, tensor<16x4xf32>
      cond {
        %c3 = stablehlo.constant dense<3> : tensor<i32>
        %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %c1 = stablehlo.constant dense<1> : tensor<i32>
        %n = stablehlo.add %i, %c1 : tensor<i32>
        %h = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<16x4xf32>, tensor<4x4xf32>) -> tensor<16x4xf32>
        %t = stablehlo.tanh %h : tensor<16x4xf32>
        %g = stablehlo.dot_general %a, %t, contracting_dims = [0] x [0] : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
        %k = stablehlo.constant dense<0.01> : tensor<4x4xf32>
        %u = stablehlo.multiply %k, %g : tensor<4x4xf32>
        %b2 = stablehlo.subtract %b, %u : tensor<4x4xf32>
        %s2 = stablehlo.add %s, %t : tensor<16x4xf32>
        stablehlo.return %n, %t, %b2, %s2 : tensor<i32>, tensor<16x4xf32>, tensor<4x4xf32>, tensor<16x4xf32>
      }
    return %r#1, %r#2, %r#3 : tensor<16x4xf32>, tensor<4x4xf32>, tensor<16x4xf32>
  }

  // A scan over minibatches (rows split) that accumulates the gradient
  // x^T e, a partial product, in its carry: summed once, after the loop.
  func.func @accum(%xs: tensor<3x16x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}, {}]>},
                   %es: tensor<3x16x2xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}, {}]>}) -> tensor<4x2xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %z = stablehlo.constant dense<0.0> : tensor<4x2xf32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %z) : tensor<i32>, tensor<4x2xf32>
      cond {
        %c3 = stablehlo.constant dense<3> : tensor<i32>
        %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %c1 = stablehlo.constant dense<1> : tensor<i32>
        %n = stablehlo.add %i, %c1 : tensor<i32>
        %zi = stablehlo.constant dense<0> : tensor<i32>
        %xi = stablehlo.dynamic_slice %xs, %i, %zi, %zi, sizes = [1, 16, 4] : (tensor<3x16x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x4xf32>
        %x2 = stablehlo.reshape %xi : (tensor<1x16x4xf32>) -> tensor<16x4xf32>
        %ei = stablehlo.dynamic_slice %es, %i, %zi, %zi, sizes = [1, 16, 2] : (tensor<3x16x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x2xf32>
        %e2 = stablehlo.reshape %ei : (tensor<1x16x2xf32>) -> tensor<16x2xf32>
        %g = stablehlo.dot_general %x2, %e2, contracting_dims = [0] x [0] : (tensor<16x4xf32>, tensor<16x2xf32>) -> tensor<4x2xf32>
        %a = stablehlo.add %acc, %g : tensor<4x2xf32>
        stablehlo.return %n, %a : tensor<i32>, tensor<4x2xf32>
      }
    return %r#1 : tensor<4x2xf32>
  }

  // The same, the accumulator read in the body (decayed): summed in every
  // iteration.
  func.func @reads(%xs: tensor<3x16x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}, {}]>},
                   %es: tensor<3x16x2xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}, {}]>}) -> tensor<4x2xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %z = stablehlo.constant dense<0.0> : tensor<4x2xf32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %z) : tensor<i32>, tensor<4x2xf32>
      cond {
        %c3 = stablehlo.constant dense<3> : tensor<i32>
        %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %c1 = stablehlo.constant dense<1> : tensor<i32>
        %n = stablehlo.add %i, %c1 : tensor<i32>
        %zi = stablehlo.constant dense<0> : tensor<i32>
        %xi = stablehlo.dynamic_slice %xs, %i, %zi, %zi, sizes = [1, 16, 4] : (tensor<3x16x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x4xf32>
        %x2 = stablehlo.reshape %xi : (tensor<1x16x4xf32>) -> tensor<16x4xf32>
        %ei = stablehlo.dynamic_slice %es, %i, %zi, %zi, sizes = [1, 16, 2] : (tensor<3x16x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x2xf32>
        %e2 = stablehlo.reshape %ei : (tensor<1x16x2xf32>) -> tensor<16x2xf32>
        %g = stablehlo.dot_general %x2, %e2, contracting_dims = [0] x [0] : (tensor<16x4xf32>, tensor<16x2xf32>) -> tensor<4x2xf32>
        %h = stablehlo.constant dense<0.5> : tensor<4x2xf32>
        %d = stablehlo.multiply %acc, %h : tensor<4x2xf32>
        %a = stablehlo.add %d, %g : tensor<4x2xf32>
        stablehlo.return %n, %a : tensor<i32>, tensor<4x2xf32>
      }
    return %r#1 : tensor<4x2xf32>
  }

  // The accumulator read by the condition: summed in every iteration.
  func.func @condreads(%xs: tensor<3x16x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}, {}]>},
                       %es: tensor<3x16x2xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}, {}]>}) -> tensor<4x2xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %z = stablehlo.constant dense<0.0> : tensor<4x2xf32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %z) : tensor<i32>, tensor<4x2xf32>
      cond {
        %c3 = stablehlo.constant dense<3> : tensor<i32>
        %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %f0 = stablehlo.constant dense<0.0> : tensor<f32>
        %sum = stablehlo.reduce(%acc init: %f0) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x2xf32>, tensor<f32>) -> tensor<f32>
        %big = stablehlo.constant dense<1.0e30> : tensor<f32>
        %small = stablehlo.compare LT, %sum, %big : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %go = stablehlo.and %lt, %small : tensor<i1>
        stablehlo.return %go : tensor<i1>
      } do {
        %c1 = stablehlo.constant dense<1> : tensor<i32>
        %n = stablehlo.add %i, %c1 : tensor<i32>
        %zi = stablehlo.constant dense<0> : tensor<i32>
        %xi = stablehlo.dynamic_slice %xs, %i, %zi, %zi, sizes = [1, 16, 4] : (tensor<3x16x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x4xf32>
        %x2 = stablehlo.reshape %xi : (tensor<1x16x4xf32>) -> tensor<16x4xf32>
        %ei = stablehlo.dynamic_slice %es, %i, %zi, %zi, sizes = [1, 16, 2] : (tensor<3x16x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x2xf32>
        %e2 = stablehlo.reshape %ei : (tensor<1x16x2xf32>) -> tensor<16x2xf32>
        %g = stablehlo.dot_general %x2, %e2, contracting_dims = [0] x [0] : (tensor<16x4xf32>, tensor<16x2xf32>) -> tensor<4x2xf32>
        %a = stablehlo.add %acc, %g : tensor<4x2xf32>
        stablehlo.return %n, %a : tensor<i32>, tensor<4x2xf32>
      }
    return %r#1 : tensor<4x2xf32>
  }

  // As JAX writes a scan accumulating unreduced gradients: zeros made
  // unreduced over x, the sum left unreduced (no collective at all) and
  // made whole by a constraint (one all-reduce after the loop).
  func.func @unreduced(%xs: tensor<3x16x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}, {}]>},
                       %es: tensor<3x16x2xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}, {}]>})
      -> (tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {}], unreduced={"x"}>}, tensor<4x2xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %z0 = stablehlo.constant dense<0.0> : tensor<4x2xf32>
    %z = sdy.sharding_constraint %z0 <@x8, [{}, {}], unreduced={"x"}> : tensor<4x2xf32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %z) : tensor<i32>, tensor<4x2xf32>
      cond {
        %c3 = stablehlo.constant dense<3> : tensor<i32>
        %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %c1 = stablehlo.constant dense<1> : tensor<i32>
        %n = stablehlo.add %i, %c1 : tensor<i32>
        %zi = stablehlo.constant dense<0> : tensor<i32>
        %xi = stablehlo.dynamic_slice %xs, %i, %zi, %zi, sizes = [1, 16, 4] : (tensor<3x16x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x4xf32>
        %x2 = stablehlo.reshape %xi : (tensor<1x16x4xf32>) -> tensor<16x4xf32>
        %ei = stablehlo.dynamic_slice %es, %i, %zi, %zi, sizes = [1, 16, 2] : (tensor<3x16x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x2xf32>
        %e2 = stablehlo.reshape %ei : (tensor<1x16x2xf32>) -> tensor<16x2xf32>
        %g = stablehlo.dot_general %x2, %e2, contracting_dims = [0] x [0] : (tensor<16x4xf32>, tensor<16x2xf32>) -> tensor<4x2xf32>
        %a = stablehlo.add %acc, %g : tensor<4x2xf32>
        stablehlo.return %n, %a : tensor<i32>, tensor<4x2xf32>
      }
    %s = sdy.sharding_constraint %r#1 <@x8, [{}, {}]> : tensor<4x2xf32>
    return %r#1, %s : tensor<4x2xf32>, tensor<4x2xf32>
  }

  // A scan's stacked gradients, as JAX writes them: each iteration
  // writes its partial product into its row of the carry
  // (dynamic_update_slice, linear in both), the carry and the row kept
  // unreduced by constraints; summed once, after the loop.
  func.func @stacked(%xs: tensor<3x16x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}, {}]>},
                     %es: tensor<3x16x2xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}, {}]>}) -> tensor<3x4x2xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %f0 = stablehlo.constant dense<0.0> : tensor<f32>
    %z0 = stablehlo.broadcast_in_dim %f0, dims = [] : (tensor<f32>) -> tensor<3x4x2xf32>
    %z = sdy.sharding_constraint %z0 <@x8, [{}, {}, {}], unreduced={"x"}> : tensor<3x4x2xf32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %z) : tensor<i32>, tensor<3x4x2xf32>
      cond {
        %c3 = stablehlo.constant dense<3> : tensor<i32>
        %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %c1 = stablehlo.constant dense<1> : tensor<i32>
        %n = stablehlo.add %i, %c1 : tensor<i32>
        %zi = stablehlo.constant dense<0> : tensor<i32>
        %xi = stablehlo.dynamic_slice %xs, %i, %zi, %zi, sizes = [1, 16, 4] : (tensor<3x16x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x4xf32>
        %x2 = stablehlo.reshape %xi : (tensor<1x16x4xf32>) -> tensor<16x4xf32>
        %ei = stablehlo.dynamic_slice %es, %i, %zi, %zi, sizes = [1, 16, 2] : (tensor<3x16x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x2xf32>
        %e2 = stablehlo.reshape %ei : (tensor<1x16x2xf32>) -> tensor<16x2xf32>
        %g = stablehlo.dot_general %x2, %e2, contracting_dims = [0] x [0] : (tensor<16x4xf32>, tensor<16x2xf32>) -> tensor<4x2xf32>
        %gu = sdy.sharding_constraint %g <@x8, [{}, {}], unreduced={"x"}> : tensor<4x2xf32>
        %gb = stablehlo.broadcast_in_dim %gu, dims = [1, 2] : (tensor<4x2xf32>) -> tensor<1x4x2xf32>
        %u = stablehlo.dynamic_update_slice %acc, %gb, %i, %zi, %zi : (tensor<3x4x2xf32>, tensor<1x4x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x4x2xf32>
        %uc = sdy.sharding_constraint %u <@x8, [{}, {}, {}], unreduced={"x"}> : tensor<3x4x2xf32>
        stablehlo.return %n, %uc : tensor<i32>, tensor<3x4x2xf32>
      }
    return %r#1 : tensor<3x4x2xf32>
  }

  // The accumulator read through a convert and a constraint that keeps it
  // unreduced before the add (as JAX writes it): the carry is a partial sum
  // from the start (its init value is one), summed once after the loop.
  // And one that adds a whole value to an unreduced accumulator: correct
  // still (the carry summed for the add in every iteration, the sum made a
  // partial sum again, kept by the first partition).
  func.func @through(%xs: tensor<3x16x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}, {}]>},
                     %es: tensor<3x16x2xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}, {}]>},
                     %w: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %f0 = stablehlo.constant dense<0.0> : tensor<f32>
    %z0 = stablehlo.broadcast_in_dim %f0, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %z = sdy.sharding_constraint %z0 <@x8, [{}, {}], unreduced={"x"}> : tensor<4x2xf32>
    %r:3 = stablehlo.while(%i = %c0, %acc = %z, %acc2 = %z) : tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>
      cond {
        %c3 = stablehlo.constant dense<3> : tensor<i32>
        %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %c1 = stablehlo.constant dense<1> : tensor<i32>
        %n = stablehlo.add %i, %c1 : tensor<i32>
        %zi = stablehlo.constant dense<0> : tensor<i32>
        %xi = stablehlo.dynamic_slice %xs, %i, %zi, %zi, sizes = [1, 16, 4] : (tensor<3x16x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x4xf32>
        %x2 = stablehlo.reshape %xi : (tensor<1x16x4xf32>) -> tensor<16x4xf32>
        %ei = stablehlo.dynamic_slice %es, %i, %zi, %zi, sizes = [1, 16, 2] : (tensor<3x16x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x2xf32>
        %e2 = stablehlo.reshape %ei : (tensor<1x16x2xf32>) -> tensor<16x2xf32>
        %g = stablehlo.dot_general %x2, %e2, contracting_dims = [0] x [0] : (tensor<16x4xf32>, tensor<16x2xf32>) -> tensor<4x2xf32>
        %gu = sdy.sharding_constraint %g <@x8, [{}, {}], unreduced={"x"}> : tensor<4x2xf32>
        %cv = stablehlo.convert %acc : tensor<4x2xf32>
        %cc = sdy.sharding_constraint %cv <@x8, [{}, {}], unreduced={"x"}> : tensor<4x2xf32>
        %a = stablehlo.add %cc, %gu : tensor<4x2xf32>
        %ac = sdy.sharding_constraint %a <@x8, [{}, {}], unreduced={"x"}> : tensor<4x2xf32>
        %a2 = stablehlo.add %acc2, %w : tensor<4x2xf32>
        stablehlo.return %n, %ac, %a2 : tensor<i32>, tensor<4x2xf32>, tensor<4x2xf32>
      }
    return %r#1, %r#2 : tensor<4x2xf32>, tensor<4x2xf32>
  }

  // Loops in a loop: the inner one accumulates the partial products of
  // two halves of each minibatch, the outer one the inner sums; one
  // all-reduce, after the outer loop.
  func.func @nested(%xs: tensor<3x2x16x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {}, {"x"}, {}]>},
                    %es: tensor<3x2x16x2xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {}, {"x"}, {}]>}) -> tensor<4x2xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %z = stablehlo.constant dense<0.0> : tensor<4x2xf32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %z) : tensor<i32>, tensor<4x2xf32>
      cond {
        %c3 = stablehlo.constant dense<3> : tensor<i32>
        %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %c1 = stablehlo.constant dense<1> : tensor<i32>
        %n = stablehlo.add %i, %c1 : tensor<i32>
        %z2 = stablehlo.constant dense<0.0> : tensor<4x2xf32>
        %q:2 = stablehlo.while(%j = %c0, %acc2 = %z2) : tensor<i32>, tensor<4x2xf32>
          cond {
          %c2 = stablehlo.constant dense<2> : tensor<i32>
          %lt2 = stablehlo.compare LT, %j, %c2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
          stablehlo.return %lt2 : tensor<i1>
        } do {
          %m = stablehlo.add %j, %c1 : tensor<i32>
          %zi = stablehlo.constant dense<0> : tensor<i32>
          %xi = stablehlo.dynamic_slice %xs, %i, %j, %zi, %zi, sizes = [1, 1, 16, 4] : (tensor<3x2x16x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x16x4xf32>
          %x2 = stablehlo.reshape %xi : (tensor<1x1x16x4xf32>) -> tensor<16x4xf32>
          %ei = stablehlo.dynamic_slice %es, %i, %j, %zi, %zi, sizes = [1, 1, 16, 2] : (tensor<3x2x16x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x16x2xf32>
          %e2 = stablehlo.reshape %ei : (tensor<1x1x16x2xf32>) -> tensor<16x2xf32>
          %g = stablehlo.dot_general %x2, %e2, contracting_dims = [0] x [0] : (tensor<16x4xf32>, tensor<16x2xf32>) -> tensor<4x2xf32>
          %a2 = stablehlo.add %g, %acc2 : tensor<4x2xf32>
          stablehlo.return %m, %a2 : tensor<i32>, tensor<4x2xf32>
        }
        %a = stablehlo.add %acc, %q#1 : tensor<4x2xf32>
        stablehlo.return %n, %a : tensor<i32>, tensor<4x2xf32>
      }
    return %r#1 : tensor<4x2xf32>
  }

  // The carry's layout (rows, from the init value) and the body's value
  // (columns, from y, the first operand) disagree: the body moves its
  // value back to rows before it returns it (an all-to-all each way).
  func.func @disagree(%x: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>},
                      %y: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}]>}) -> tensor<16x8xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %a = %x) : tensor<i32>, tensor<16x8xf32>
      cond {
        %c3 = stablehlo.constant dense<3> : tensor<i32>
        %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %c1 = stablehlo.constant dense<1> : tensor<i32>
        %n = stablehlo.add %i, %c1 : tensor<i32>
        %m = stablehlo.multiply %y, %a : tensor<16x8xf32>
        %t = stablehlo.tanh %m : tensor<16x8xf32>
        stablehlo.return %n, %t : tensor<i32>, tensor<16x8xf32>
      }
    return %r#1 : tensor<16x8xf32>
  }

  // An op in the body that needs a split value from before the loop
  // whole (a pad of the split rows, not done on shards): it is gathered
  // once, before the loop, not in every iteration.
  func.func @hoisted(%x: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>}) -> tensor<16x4xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %z = stablehlo.constant dense<0.0> : tensor<16x4xf32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %z) : tensor<i32>, tensor<16x4xf32>
      cond {
        %c3 = stablehlo.constant dense<3> : tensor<i32>
        %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %c1 = stablehlo.constant dense<1> : tensor<i32>
        %n = stablehlo.add %i, %c1 : tensor<i32>
        %zf = stablehlo.constant dense<0.0> : tensor<f32>
        %rv = stablehlo.pad %x, %zf, low = [1, 0], high = [-1, 0], interior = [0, 0] : (tensor<16x4xf32>, tensor<f32>) -> tensor<16x4xf32>
        %a = stablehlo.add %acc, %rv : tensor<16x4xf32>
        stablehlo.return %n, %a : tensor<i32>, tensor<16x4xf32>
      }
    return %r#1 : tensor<16x4xf32>
  }

  // A scan stacking split rows (dynamic_update_slice of an update that
  // covers the split dimension whole: on shards, the zeros it starts from
  // made as shards), and one writing a row into a carry split by rows (the
  // update does not cover the split: computed whole, and said so).
  func.func @stackrows(%xs: tensor<3x16x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}, {}]>},
                       %q0: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>},
                       %row: tensor<1x4xf32>) -> (tensor<3x16x4xf32>, tensor<16x4xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %f0 = stablehlo.constant dense<0.0> : tensor<f32>
    %z = stablehlo.broadcast_in_dim %f0, dims = [] : (tensor<f32>) -> tensor<3x16x4xf32>
    %r:3 = stablehlo.while(%i = %c0, %s = %z, %q = %q0) : tensor<i32>, tensor<3x16x4xf32>, tensor<16x4xf32>
      cond {
        %c3 = stablehlo.constant dense<3> : tensor<i32>
        %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %c1 = stablehlo.constant dense<1> : tensor<i32>
        %n = stablehlo.add %i, %c1 : tensor<i32>
        %zi = stablehlo.constant dense<0> : tensor<i32>
        %xi = stablehlo.dynamic_slice %xs, %i, %zi, %zi, sizes = [1, 16, 4] : (tensor<3x16x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x4xf32>
        %t = stablehlo.tanh %xi : tensor<1x16x4xf32>
        %s2 = stablehlo.dynamic_update_slice %s, %t, %i, %zi, %zi : (tensor<3x16x4xf32>, tensor<1x16x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x16x4xf32>
        %q2 = stablehlo.dynamic_update_slice %q, %row, %i, %zi : (tensor<16x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<16x4xf32>
        stablehlo.return %n, %s2, %q2 : tensor<i32>, tensor<3x16x4xf32>, tensor<16x4xf32>
      }
    return %r#1, %r#2 : tensor<3x16x4xf32>, tensor<16x4xf32>
  }

  // case on a whole index: the branches work on the rows of x; the
  // branch whose value is split by columns moves it to rows (one
  // all-to-all), so that every branch returns the layout of the first.
  func.func @branch(%k: tensor<i32>, %x: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>},
                    %y: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@x8, [{}, {"x"}]>}) -> tensor<16x8xf32> {
    %r = "stablehlo.case"(%k) ({
      %a = stablehlo.multiply %x, %x : tensor<16x8xf32>
      stablehlo.return %a : tensor<16x8xf32>
    }, {
      %b = stablehlo.negate %x : tensor<16x8xf32>
      stablehlo.return %b : tensor<16x8xf32>
    }, {
      %c = stablehlo.add %y, %y : tensor<16x8xf32>
      stablehlo.return %c : tensor<16x8xf32>
    }) : (tensor<i32>) -> tensor<16x8xf32>
    %o = stablehlo.exponential %r : tensor<16x8xf32>
    return %o : tensor<16x8xf32>
  }

  // if on a predicate computed from split values (summed whole), over a
  // 2-D mesh.
  func.func @ifop(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
    %f0 = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%x init: %f0) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<f32>
    %p = stablehlo.compare GT, %s, %f0 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %r = "stablehlo.if"(%p) ({
      %a = stablehlo.abs %x : tensor<8x8xf32>
      stablehlo.return %a : tensor<8x8xf32>
    }, {
      %b = stablehlo.negate %x : tensor<8x8xf32>
      stablehlo.return %b : tensor<8x8xf32>
    }) : (tensor<i1>) -> tensor<8x8xf32>
    return %r : tensor<8x8xf32>
  }

  // A loop whose body calls a custom call keeps the rule for every op:
  // its split operands gathered, computed whole.
  func.func @whole(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@x8, [{"x"}, {}]>}) -> tensor<8x4xf32> {
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
        %v, %k = stablehlo.custom_call @TopK(%x) : (tensor<8x16xf32>) -> (tensor<8x4xf32>, tensor<8x4xi32>)
        %a = stablehlo.add %acc, %v : tensor<8x4xf32>
        stablehlo.return %n, %a : tensor<i32>, tensor<8x4xf32>
      }
    return %r#1 : tensor<8x4xf32>
  }
}
