// Programs partitioned partly by hand: Shardy's `sdy.manual_computation`
// (JAX's shard_map) over every axis of a 2-D mesh, over part of a mesh
// (the other axis left to the partitioner), twice in one program with work
// around them, and inside a loop, run by `xlac run --partitions 8`
// (docs/spmd.md, "Manual computations"), with operands and results that
// are partial sums (unreduced), and one manual computation inside another.  The oracle is a program of the
// same parameters written for one device (the entry named `<name>_ref`):
// on random inputs each partitioned entry's results must equal its results.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in both partial two loop unred nested freecon; do \
// RUN:   xlac run --random-inputs --seed 5 --entry ${e}_ref %s --output-dir %t/$e >/dev/null || exit 1; \
// RUN:   ex=""; for k in 0 1 2 3; do [ -f %t/$e/result$k.npy ] && ex="$ex --expect $k=@%t/$e/result$k.npy"; done; \
// RUN:   xlac run --partitions 8 --random-inputs --seed 5 --entry $e %s $ex --atol 1e-5 --rtol 1e-5 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SAME
// SAME-COUNT-11: expect result[{{[0-9]}}]: ok
// SAME-NOT: {{error:|FAIL}}
//
// What moves, on the compiled backend: the parameter split by columns over
// "y" is gathered along them (one all_gather) and cut by rows over "x" for
// the manual computation (the body's own all_reduce is not counted: it is
// not the partitioner's).
// RUN: xlac run --backend=cpu --partitions 8 --random-inputs --seed 5 --entry partial %s --verbose 2>&1 | FileCheck %s --check-prefix=PARTIAL
// PARTIAL: spmd: 1 all_gather, 0 all_reduce, 1 local cuts
// PARTIAL-NOT: error
//
// A constraint on a free axis inside the body gives the result, left
// open, its layout: each partition returns its 2-row piece.
// RUN: xlac run --backend=cpu --partitions 8 --entry freecon --random-inputs %s --xla_dump_to=%t/dumpf >/dev/null
// RUN: FileCheck %s --check-prefix=FREE < %t/dumpf/module_0000.manual.before_optimizations.txt
// FREE: %freecon ({{.*}}: f32[8,16]) -> f32[2,16] {
//
// Bad input is a located error: a per-device type that is not the shard
// the sharding names.
// RUN: not xlac run --partitions 8 --random-inputs --entry badtype %s 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: {{.*}}manual computation: value 0 of its in_shardings: the per-device type is not the shard
// RUN: not xlac run --partitions 8 --random-inputs --entry badunred %s 2>&1 | FileCheck %s --check-prefix=BADU
// BADU: error: {{.*}}manual computation: value 0 of its out_shardings is unreduced over "y", an axis it does not make manual

module @manual attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @m2 = <["x"=2, "y"=4]>
  sdy.mesh @m1 = <["x"=8]>

  // Over both axes of a 2-D mesh: rows over x, columns over y; the body
  // sums its columns' blocks over y (devices 4x+y), twice the value.
  func.func @both(%a: tensor<8x16xf32>) -> tensor<8x4xf32> {
    %0 = sdy.manual_computation(%a) in_shardings=[<@m2, [{"x"}, {"y"}]>] out_shardings=[<@m2, [{"x"}, {}]>] manual_axes={"x", "y"} (%b: tensor<4x4xf32>) {
      %two = stablehlo.constant dense<2.0> : tensor<4x4xf32>
      %c = stablehlo.multiply %b, %two : tensor<4x4xf32>
      %s = "stablehlo.all_reduce"(%c) ({
        ^bb0(%p: tensor<f32>, %q: tensor<f32>):
          %r = stablehlo.add %p, %q : tensor<f32>
          stablehlo.return %r : tensor<f32>
      }) {replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>,
          channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<4x4xf32>) -> tensor<4x4xf32>
      sdy.return %s : tensor<4x4xf32>
    } : (tensor<8x16xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
  func.func @both_ref(%a: tensor<8x16xf32>) -> tensor<8x4xf32> {
    %two = stablehlo.constant dense<2.0> : tensor<8x16xf32>
    %c = stablehlo.multiply %a, %two : tensor<8x16xf32>
    %r = stablehlo.reshape %c : (tensor<8x16xf32>) -> tensor<8x4x4xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%r init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x4x4xf32>, tensor<f32>) -> tensor<8x4xf32>
    return %s : tensor<8x4xf32>
  }

  // Manual over x only (y left to the partitioner): the parameter arrives
  // split by columns over y, is scaled outside, and the body sums sin of
  // its row halves over x (devices y and 4+y); the result is used outside.
  func.func @partial(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m2, [{}, {"y"}]>})
      -> (tensor<4x16xf32>, tensor<8x16xf32>) {
    %three = stablehlo.constant dense<3.0> : tensor<8x16xf32>
    %a3 = stablehlo.multiply %a, %three : tensor<8x16xf32>
    %0 = sdy.manual_computation(%a3) in_shardings=[<@m2, [{"x"}, {}]>] out_shardings=[<@m2, [{}, {}]>] manual_axes={"x"} (%b: tensor<4x16xf32>) {
      %c = stablehlo.sine %b : tensor<4x16xf32>
      %s = "stablehlo.all_reduce"(%c) ({
        ^bb0(%p: tensor<f32>, %q: tensor<f32>):
          %r = stablehlo.add %p, %q : tensor<f32>
          stablehlo.return %r : tensor<f32>
      }) {replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>,
          channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<4x16xf32>) -> tensor<4x16xf32>
      sdy.return %s : tensor<4x16xf32>
    } : (tensor<8x16xf32>) -> tensor<4x16xf32>
    %1 = stablehlo.add %0, %0 : tensor<4x16xf32>
    return %1, %a3 : tensor<4x16xf32>, tensor<8x16xf32>
  }
  func.func @partial_ref(%a: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<8x16xf32>) {
    %three = stablehlo.constant dense<3.0> : tensor<8x16xf32>
    %a3 = stablehlo.multiply %a, %three : tensor<8x16xf32>
    %c = stablehlo.sine %a3 : tensor<8x16xf32>
    %top = stablehlo.slice %c [0:4, 0:16] : (tensor<8x16xf32>) -> tensor<4x16xf32>
    %bot = stablehlo.slice %c [4:8, 0:16] : (tensor<8x16xf32>) -> tensor<4x16xf32>
    %s = stablehlo.add %top, %bot : tensor<4x16xf32>
    %1 = stablehlo.add %s, %s : tensor<4x16xf32>
    return %1, %a3 : tensor<4x16xf32>, tensor<8x16xf32>
  }

  // Two manual computations in one program, work between them: rows, then
  // columns; the second sums over every device and adds its partition id.
  func.func @two(%a: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x1xf32>) {
    %0 = sdy.manual_computation(%a) in_shardings=[<@m1, [{"x"}, {}]>] out_shardings=[<@m1, [{"x"}, {}]>] manual_axes={"x"} (%b: tensor<2x8xf32>) {
      %c = stablehlo.exponential %b : tensor<2x8xf32>
      sdy.return %c : tensor<2x8xf32>
    } : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %1 = stablehlo.cosine %0 : tensor<16x8xf32>
    %2 = sdy.manual_computation(%1) in_shardings=[<@m1, [{}, {"x"}]>] out_shardings=[<@m1, [{}, {}]>] manual_axes={"x"} (%b: tensor<16x1xf32>) {
      %s = "stablehlo.all_reduce"(%b) ({
        ^bb0(%p: tensor<f32>, %q: tensor<f32>):
          %r = stablehlo.add %p, %q : tensor<f32>
          stablehlo.return %r : tensor<f32>
      }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>,
          channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<16x1xf32>) -> tensor<16x1xf32>
      sdy.return %s : tensor<16x1xf32>
    } : (tensor<16x8xf32>) -> tensor<16x1xf32>
    return %1, %2 : tensor<16x8xf32>, tensor<16x1xf32>
  }
  func.func @two_ref(%a: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x1xf32>) {
    %0 = stablehlo.exponential %a : tensor<16x8xf32>
    %1 = stablehlo.cosine %0 : tensor<16x8xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%1 init: %z) applies stablehlo.add across dimensions = [1] : (tensor<16x8xf32>, tensor<f32>) -> tensor<16xf32>
    %r = stablehlo.reshape %s : (tensor<16xf32>) -> tensor<16x1xf32>
    return %1, %r : tensor<16x8xf32>, tensor<16x1xf32>
  }

  // Inside a loop (three turns): each turn scales the rows by their
  // partition's index plus one (the block index of 2-row blocks).
  func.func @loop(%a: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %i0 = stablehlo.constant dense<0> : tensor<i32>
    %w:2 = stablehlo.while(%i = %i0, %v = %a) : tensor<i32>, tensor<16x8xf32>
     cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %m = sdy.manual_computation(%v) in_shardings=[<@m1, [{"x"}, {}]>] out_shardings=[<@m1, [{"x"}, {}]>] manual_axes={"x"} (%b: tensor<2x8xf32>) {
        %pid = stablehlo.partition_id : tensor<ui32>
        %pf = stablehlo.convert %pid : (tensor<ui32>) -> tensor<f32>
        %one = stablehlo.constant dense<1.0> : tensor<f32>
        %k = stablehlo.add %pf, %one : tensor<f32>
        %kb = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<f32>) -> tensor<2x8xf32>
        %r = stablehlo.multiply %b, %kb : tensor<2x8xf32>
        sdy.return %r : tensor<2x8xf32>
      } : (tensor<16x8xf32>) -> tensor<16x8xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %j, %m : tensor<i32>, tensor<16x8xf32>
    }
    return %w#1 : tensor<16x8xf32>
  }
  func.func @loop_ref(%a: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %io = stablehlo.iota dim = 0 : tensor<16x8xi32>
    %two = stablehlo.constant dense<2> : tensor<16x8xi32>
    %blk = stablehlo.divide %io, %two : tensor<16x8xi32>
    %bf = stablehlo.convert %blk : (tensor<16x8xi32>) -> tensor<16x8xf32>
    %one = stablehlo.constant dense<1.0> : tensor<16x8xf32>
    %k = stablehlo.add %bf, %one : tensor<16x8xf32>
    %k2 = stablehlo.multiply %k, %k : tensor<16x8xf32>
    %k3 = stablehlo.multiply %k2, %k : tensor<16x8xf32>
    %r = stablehlo.multiply %a, %k3 : tensor<16x8xf32>
    return %r : tensor<16x8xf32>
  }

  // Unreduced over x: the operand is made a partial sum (one partition
  // holds it, the others zeros), and the results that are partial sums
  // are summed: 2a (linear), exp(a) + 7 (exp of the seven zeros), and the
  // body's own sum over every device, a, given whole.
  func.func @unred(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
    %0:3 = sdy.manual_computation(%a) in_shardings=[<@m1, [{}, {}], unreduced={"x"}>] out_shardings=[<@m1, [{}, {}], unreduced={"x"}>, <@m1, [{}, {}], unreduced={"x"}>, <@m1, [{}, {}]>] manual_axes={"x"} (%b: tensor<4x8xf32>) {
      %two = stablehlo.constant dense<2.0> : tensor<4x8xf32>
      %c = stablehlo.multiply %b, %two : tensor<4x8xf32>
      %e = stablehlo.exponential %b : tensor<4x8xf32>
      %s = "stablehlo.all_reduce"(%b) ({
        ^bb0(%p: tensor<f32>, %q: tensor<f32>):
          %r = stablehlo.add %p, %q : tensor<f32>
          stablehlo.return %r : tensor<f32>
      }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>,
          channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<4x8xf32>) -> tensor<4x8xf32>
      sdy.return %c, %e, %s : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
    } : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
    return %0#0, %0#1, %0#2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
  }
  func.func @unred_ref(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
    %two = stablehlo.constant dense<2.0> : tensor<4x8xf32>
    %c = stablehlo.multiply %a, %two : tensor<4x8xf32>
    %seven = stablehlo.constant dense<7.0> : tensor<4x8xf32>
    %e = stablehlo.exponential %a : tensor<4x8xf32>
    %e7 = stablehlo.add %e, %seven : tensor<4x8xf32>
    return %c, %e7, %a : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
  }

  // One manual computation inside another: rows over x outside, columns
  // over y inside, whose body sums its column blocks over y.
  func.func @nested(%a: tensor<8x16xf32>) -> tensor<8x4xf32> {
    %0 = sdy.manual_computation(%a) in_shardings=[<@m2, [{"x"}, {}]>] out_shardings=[<@m2, [{"x"}, {}]>] manual_axes={"x"} (%b: tensor<4x16xf32>) {
      %1 = sdy.manual_computation(%b) in_shardings=[<@m2, [{}, {"y"}]>] out_shardings=[<@m2, [{}, {}]>] manual_axes={"y"} (%c: tensor<4x4xf32>) {
        %s = "stablehlo.all_reduce"(%c) ({
          ^bb0(%p: tensor<f32>, %q: tensor<f32>):
            %r = stablehlo.add %p, %q : tensor<f32>
            stablehlo.return %r : tensor<f32>
        }) {replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>,
            channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<4x4xf32>) -> tensor<4x4xf32>
        sdy.return %s : tensor<4x4xf32>
      } : (tensor<4x16xf32>) -> tensor<4x4xf32>
      sdy.return %1 : tensor<4x4xf32>
    } : (tensor<8x16xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
  func.func @nested_ref(%a: tensor<8x16xf32>) -> tensor<8x4xf32> {
    %r = stablehlo.reshape %a : (tensor<8x16xf32>) -> tensor<8x4x4xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%r init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x4x4xf32>, tensor<f32>) -> tensor<8x4xf32>
    return %s : tensor<8x4xf32>
  }

  func.func @freecon(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = sdy.manual_computation(%a) in_shardings=[<@m2, [{}, {}]>] out_shardings=[<@m2, [{}, {}]>] manual_axes={"x"} (%b: tensor<8x16xf32>) {
      %c = stablehlo.sine %b : tensor<8x16xf32>
      %d = sdy.sharding_constraint %c <@m2, [{"y"}, {}]> : tensor<8x16xf32>
      sdy.return %d : tensor<8x16xf32>
    } : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
  func.func @freecon_ref(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %c = stablehlo.sine %a : tensor<8x16xf32>
    return %c : tensor<8x16xf32>
  }

  func.func @badtype(%a: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = sdy.manual_computation(%a) in_shardings=[<@m1, [{"x"}, {}]>] out_shardings=[<@m1, [{"x"}, {}]>] manual_axes={"x"} (%b: tensor<4x8xf32>) {
      sdy.return %b : tensor<4x8xf32>
    } : (tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
  func.func @badunred(%a: tensor<8x16xf32>) -> tensor<4x16xf32> {
    %0 = sdy.manual_computation(%a) in_shardings=[<@m2, [{"x"}, {}]>] out_shardings=[<@m2, [{}, {}], unreduced={"y"}>] manual_axes={"x"} (%b: tensor<4x16xf32>) {
      sdy.return %b : tensor<4x16xf32>
    } : (tensor<8x16xf32>) -> tensor<4x16xf32>
    return %0 : tensor<4x16xf32>
  }
}
