// Every collective on a grid of replicas x partitions running one program,
// each process making its data from its ids.  The suite runs this file
// with each backend as the default: compiled, the collectives are calls
// into the runtime that meet the other processes' threads, and both
// backends must agree to the bit.
// RUN: xlac run --replicas 4 --entry reduce_groups %s | FileCheck %s --check-prefix=RED
// RUN: xlac run --replicas 2 --partitions 2 --entry scatter_both %s | FileCheck %s --check-prefix=RS
// RUN: xlac run --replicas 2 --partitions 2 --entry gather_flat %s | FileCheck %s --check-prefix=AG
// RUN: xlac run --replicas 2 --partitions 3 --entry to_all %s | FileCheck %s --check-prefix=A2A
// RUN: xlac run --replicas 3 --entry broadcast_permute %s | FileCheck %s --check-prefix=BP
// RUN: xlac run --replicas 2 --partitions 2 --entry permute_partitions %s | FileCheck %s --check-prefix=PP
// RUN: xlac run --replicas 1 --partitions 2 --entry send_recv %s | FileCheck %s --check-prefix=SR
// RUN: xlac run --replicas 3 --entry reduce_root %s | FileCheck %s --check-prefix=CR
// RUN: xlac run --replicas 4 --entry loop %s | FileCheck %s --check-prefix=LOOP
// A group naming a replica that does not exist is an error at the op.
// RUN: not xlac run --entry reduce_groups %s 2>&1 | FileCheck %s --check-prefix=ALONE
// ALONE: collectives_grid.mlir:[[# @LINE + 35]]:10: error: runtime error: replica id 2 in replica groups is out of range (there are 1)
// ALONE-NOT: error:
// Compiled, none of them goes through the interpreter.
// RUN: for g in "4 1 reduce_groups" "2 2 scatter_both" "2 2 gather_flat" "2 3 to_all" "3 1 broadcast_permute" \
// RUN:          "2 2 permute_partitions" "1 2 send_recv" "3 1 reduce_root" "4 1 loop"; do \
// RUN:   set -- $g; xlac run --backend=cpu --verbose --replicas $1 --partitions $2 --entry $3 %s 2>&1 >/dev/null || exit 1; \
// RUN: done | FileCheck %s --check-prefix=STATS
// STATS-COUNT-9: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 0 through the interpreter
// STATS-NOT: cpu:

// all_reduce over groups {0,2} and {1,3}: a variadic f32 sum (in group
// order), an i8 maximum widened to i32, and a predicate "or" over
// everybody.
// RED: replica 0 partition 0: result[0]: tensor<3xf32> = [2, 3, 0]
// RED: replica 0 partition 0: result[1]: tensor<2x2xf32> = {{\[}}[4, 4], [4, 4]]
// RED: replica 0 partition 0: result[2]: tensor<2xi32> = [0, -10]
// RED: replica 0 partition 0: result[3]: tensor<i1> = true
// RED: replica 1 partition 0: result[0]: tensor<3xf32> = [2, 5, 0]
// RED: replica 1 partition 0: result[1]: tensor<2x2xf32> = {{\[}}[10, 10], [10, 10]]
// RED: replica 1 partition 0: result[2]: tensor<2xi32> = [-1, -11]
// RED: replica 1 partition 0: result[3]: tensor<i1> = true
// RED: replica 2 partition 0: result[0]: tensor<3xf32> = [2, 3, 0]
// RED: replica 2 partition 0: result[2]: tensor<2xi32> = [0, -10]
// RED: replica 3 partition 0: result[1]: tensor<2x2xf32> = {{\[}}[10, 10], [10, 10]]
// RED: replica 3 partition 0: result[3]: tensor<i1> = true
func.func @reduce_groups() -> (tensor<3xf32>, tensor<2x2xf32>, tensor<2xi32>, tensor<i1>) {
  %id = stablehlo.replica_id : tensor<ui32>
  %f = stablehlo.convert %id : (tensor<ui32>) -> tensor<f32>
  %fb = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<3xf32>
  %base = stablehlo.constant dense<[1.0, 0.5, -0.0]> : tensor<3xf32>
  %scale = stablehlo.constant dense<[1.0e-7, 1.0, 0.0]> : tensor<3xf32>
  %d = stablehlo.multiply %fb, %scale : tensor<3xf32>
  %x = stablehlo.add %base, %d : tensor<3xf32>
  %fm = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
  %m = stablehlo.multiply %fm, %fm : tensor<2x2xf32>
  %r:2 = "stablehlo.all_reduce"(%x, %m) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>}
     : (tensor<3xf32>, tensor<2x2xf32>) -> (tensor<3xf32>, tensor<2x2xf32>)
  %i = stablehlo.convert %id : (tensor<ui32>) -> tensor<i8>
  %ib = stablehlo.broadcast_in_dim %i, dims = [] : (tensor<i8>) -> tensor<2xi8>
  %ioff = stablehlo.constant dense<[0, -10]> : tensor<2xi8>
  %y = stablehlo.subtract %ioff, %ib : tensor<2xi8>
  %mx = "stablehlo.all_reduce"(%y) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.maximum %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : (tensor<2xi8>) -> tensor<2xi32>
  %two = stablehlo.constant dense<2> : tensor<ui32>
  %p = stablehlo.compare EQ, %id, %two : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
  %any = "stablehlo.all_reduce"(%p) ({
    ^bb0(%a: tensor<i1>, %b: tensor<i1>):
      %s = stablehlo.or %a, %b : tensor<i1>
      stablehlo.return %s : tensor<i1>
  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<i1>) -> tensor<i1>
  return %r#0, %r#1, %mx, %any : tensor<3xf32>, tensor<2x2xf32>, tensor<2xi32>, tensor<i1>
}

// reduce_scatter with a channel: cross_replica_and_partition, so the group
// [0, 1] of replicas is taken in every partition: (r0,p0), (r1,p0),
// (r0,p1), (r1,p1), and process k of it keeps part k of the sums.
// RS: replica 0 partition 0: result[0]: tensor<2x1xi64> = {{\[}}[22], [422]]
// RS: replica 0 partition 1: result[0]: tensor<2x1xi64> = {{\[}}[1622], [2022]]
// RS: replica 1 partition 0: result[0]: tensor<2x1xi64> = {{\[}}[822], [1222]]
// RS: replica 1 partition 1: result[0]: tensor<2x1xi64> = {{\[}}[2422], [2822]]
func.func @scatter_both() -> tensor<2x1xi64> {
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  %ri = stablehlo.convert %r : (tensor<ui32>) -> tensor<i64>
  %pi = stablehlo.convert %p : (tensor<ui32>) -> tensor<i64>
  %ten = stablehlo.constant dense<10> : tensor<i64>
  %t = stablehlo.multiply %pi, %ten : tensor<i64>
  %v = stablehlo.add %ri, %t : tensor<i64>
  %vb = stablehlo.broadcast_in_dim %v, dims = [] : (tensor<i64>) -> tensor<8x1xi64>
  %io = stablehlo.iota dim = 0 : tensor<8x1xi64>
  %k = stablehlo.constant dense<100> : tensor<8x1xi64>
  %iok = stablehlo.multiply %io, %k : tensor<8x1xi64>
  %x = stablehlo.add %vb, %iok : tensor<8x1xi64>
  %s = "stablehlo.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %m = stablehlo.add %a, %b : tensor<i64>
      stablehlo.return %m : tensor<i64>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<8x1xi64>) -> tensor<2x1xi64>
  return %s : tensor<2x1xi64>
}

// all_gather over flattened ids: groups {3, 0} and {1, 2} of the processes
// numbered replica * 2 + partition, along dimension 1.
// AG: replica 0 partition 0: result[0]: tensor<2x4xui8> = {{\[}}[13, 23, 10, 20], [33, 253, 30, 250]]
// AG: replica 0 partition 1: result[0]: tensor<2x4xui8> = {{\[}}[11, 21, 12, 22], [31, 251, 32, 252]]
// AG: replica 1 partition 0: result[0]: tensor<2x4xui8> = {{\[}}[11, 21, 12, 22], [31, 251, 32, 252]]
// AG: replica 1 partition 1: result[0]: tensor<2x4xui8> = {{\[}}[13, 23, 10, 20], [33, 253, 30, 250]]
func.func @gather_flat() -> tensor<2x4xui8> {
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  %two = stablehlo.constant dense<2> : tensor<ui32>
  %r2 = stablehlo.multiply %r, %two : tensor<ui32>
  %id = stablehlo.add %r2, %p : tensor<ui32>
  %b = stablehlo.convert %id : (tensor<ui32>) -> tensor<ui8>
  %bb = stablehlo.broadcast_in_dim %b, dims = [] : (tensor<ui8>) -> tensor<2x2xui8>
  %c = stablehlo.constant dense<[[10, 20], [30, 250]]> : tensor<2x2xui8>
  %x = stablehlo.add %bb, %c : tensor<2x2xui8>
  %g = "stablehlo.all_gather"(%x) {all_gather_dim = 1 : i64,
        replica_groups = dense<[[3, 0], [1, 2]]> : tensor<2x2xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>,
        use_global_device_ids} : (tensor<2x2xui8>) -> tensor<2x4xui8>
  return %g : tensor<2x4xui8>
}

// all_to_all across the three partitions of each replica (a channel makes
// it cross_partition), splitting dimension 1 and concatenating along 0;
// f16 data.
// A2A: replica 0 partition 0: result[0]: tensor<6x1xf16> = {{\[}}[2.25], [22], [0.25], [20], [1.25], [21]]
// A2A: replica 0 partition 1: result[0]: tensor<6x1xf16> = {{\[}}[2.125], [32], [0.125], [30], [1.125], [31]]
// A2A: replica 0 partition 2: result[0]: tensor<6x1xf16> = {{\[}}[2.5], [12], [0.5], [10], [1.5], [11]]
// A2A: replica 1 partition 0: result[0]: tensor<6x1xf16> = {{\[}}[102.25], [122], [100.25], [120], [101.25], [121]]
// A2A: replica 1 partition 2: result[0]: tensor<6x1xf16> = {{\[}}[102.5], [112], [100.5], [110], [101.5], [111]]
func.func @to_all() -> tensor<6x1xf16> {
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  %rf = stablehlo.convert %r : (tensor<ui32>) -> tensor<f16>
  %pf = stablehlo.convert %p : (tensor<ui32>) -> tensor<f16>
  %h = stablehlo.constant dense<100.0> : tensor<f16>
  %rh = stablehlo.multiply %rf, %h : tensor<f16>
  %v = stablehlo.add %rh, %pf : tensor<f16>
  %vb = stablehlo.broadcast_in_dim %v, dims = [] : (tensor<f16>) -> tensor<2x3xf16>
  %c = stablehlo.constant dense<[[0.5, 0.25, 0.125], [10.0, 20.0, 30.0]]> : tensor<2x3xf16>
  %x = stablehlo.add %vb, %c : tensor<2x3xf16>
  %a = "stablehlo.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 3 : i64,
        replica_groups = dense<[[2, 0, 1]]> : tensor<1x3xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>} : (tensor<2x3xf16>) -> tensor<6x1xf16>
  return %a : tensor<6x1xf16>
}

// collective_broadcast from the first member of {2, 0} (replica 1 is in no
// group and gets zeros) and from a dynamic root, the second member of
// {0, 1, 2}; collective_permute along a chain (replica 0 has no source).
// BP: replica 0 partition 0: result[0]: tensor<2xbf16> = [3.5, -1]
// BP: replica 0 partition 0: result[1]: tensor<2xbf16> = [2.5, -2]
// BP: replica 0 partition 0: result[2]: tensor<2xbf16> = [0, 0]
// BP: replica 1 partition 0: result[0]: tensor<2xbf16> = [0, 0]
// BP: replica 1 partition 0: result[1]: tensor<2xbf16> = [2.5, -2]
// BP: replica 1 partition 0: result[2]: tensor<2xbf16> = [1.5, -3]
// BP: replica 2 partition 0: result[0]: tensor<2xbf16> = [3.5, -1]
// BP: replica 2 partition 0: result[1]: tensor<2xbf16> = [2.5, -2]
// BP: replica 2 partition 0: result[2]: tensor<2xbf16> = [2.5, -2]
func.func @broadcast_permute() -> (tensor<2xbf16>, tensor<2xbf16>, tensor<2xbf16>) {
  %r = stablehlo.replica_id : tensor<ui32>
  %f = stablehlo.convert %r : (tensor<ui32>) -> tensor<bf16>
  %fb = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<bf16>) -> tensor<2xbf16>
  %c = stablehlo.constant dense<[1.5, -3.0]> : tensor<2xbf16>
  %x = stablehlo.add %fb, %c : tensor<2xbf16>
  %b = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[2, 0]]> : tensor<1x2xi64>}
       : (tensor<2xbf16>) -> tensor<2xbf16>
  %root = stablehlo.constant dense<[1]> : tensor<1xi32>
  %d = "stablehlo.collective_broadcast"(%x, %root) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>,
       has_dynamic_root = true} : (tensor<2xbf16>, tensor<1xi32>) -> tensor<2xbf16>
  %q = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>}
       : (tensor<2xbf16>) -> tensor<2xbf16>
  return %b, %d, %q : tensor<2xbf16>, tensor<2xbf16>, tensor<2xbf16>
}

// collective_permute across the partitions of each replica (a channel):
// each partition sends to the other; a group of one leaves values alone.
// PP: replica 0 partition 0: result[0]: tensor<3xi16> = [1, 1, 1]
// PP: replica 0 partition 0: result[1]: tensor<3xi16> = [0, 0, 0]
// PP: replica 0 partition 1: result[0]: tensor<3xi16> = [0, 0, 0]
// PP: replica 0 partition 1: result[1]: tensor<3xi16> = [1, 1, 1]
// PP: replica 1 partition 0: result[0]: tensor<3xi16> = [11, 11, 11]
// PP: replica 1 partition 1: result[0]: tensor<3xi16> = [10, 10, 10]
// PP: replica 1 partition 1: result[1]: tensor<3xi16> = [11, 11, 11]
func.func @permute_partitions() -> (tensor<3xi16>, tensor<3xi16>) {
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  %ri = stablehlo.convert %r : (tensor<ui32>) -> tensor<i16>
  %pi = stablehlo.convert %p : (tensor<ui32>) -> tensor<i16>
  %k = stablehlo.constant dense<10> : tensor<i16>
  %rk = stablehlo.multiply %ri, %k : tensor<i16>
  %v = stablehlo.add %rk, %pi : tensor<i16>
  %x = stablehlo.broadcast_in_dim %v, dims = [] : (tensor<i16>) -> tensor<3xi16>
  %q = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>,
       channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>} : (tensor<3xi16>) -> tensor<3xi16>
  %s = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<i16>, %b: tensor<i16>):
      %m = stablehlo.add %a, %b : tensor<i16>
      stablehlo.return %m : tensor<i16>
  }) {replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>} : (tensor<3xi16>) -> tensor<3xi16>
  return %q, %s : tensor<3xi16>, tensor<3xi16>
}

// send and recv on a channel: partition 0 sends two values in two
// messages, partition 1 receives them in order.
// SR: replica 0 partition 0: result[0]: tensor<2xf32> = [0, 0]
// SR: replica 0 partition 0: result[1]: tensor<i32> = 7
// SR: replica 0 partition 1: result[0]: tensor<2xf32> = [1.5, -0.25]
// SR: replica 0 partition 1: result[1]: tensor<i32> = 7
func.func @send_recv() -> (tensor<2xf32>, tensor<i32>) {
  %p = stablehlo.partition_id : tensor<ui32>
  %zero = stablehlo.constant dense<0> : tensor<ui32>
  %first = stablehlo.compare EQ, %p, %zero : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
  %x = stablehlo.constant dense<[1.5, -0.25]> : tensor<2xf32>
  %n = stablehlo.constant dense<7> : tensor<i32>
  %r:2 = "stablehlo.if"(%first) ({
    %t = stablehlo.create_token : !stablehlo.token
    %t1 = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>}
          : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
    %y = stablehlo.negate %x : tensor<2xf32>
    %t2 = "stablehlo.send"(%y, %n, %t1) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>}
          : (tensor<2xf32>, tensor<i32>, !stablehlo.token) -> !stablehlo.token
    %z = stablehlo.constant dense<0.0> : tensor<2xf32>
    stablehlo.return %z, %n : tensor<2xf32>, tensor<i32>
  }, {
    %t = stablehlo.create_token : !stablehlo.token
    %a, %t1 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>}
              : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
    %b, %m, %t2 = "stablehlo.recv"(%t1) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>}
              : (!stablehlo.token) -> (tensor<2xf32>, tensor<i32>, !stablehlo.token)
    %s = stablehlo.add %a, %b : tensor<2xf32>
    %s2 = stablehlo.add %s, %a : tensor<2xf32>
    stablehlo.return %s2, %m : tensor<2xf32>, tensor<i32>
  }) : (tensor<i1>) -> (tensor<2xf32>, tensor<i32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<i32>
}

// collective_reduce: only the root of each group keeps the product; the
// others, and replica 2 (in no group), get zeros.
// CR: replica 0 partition 0: result[0]: tensor<2xf64> = [0, 0]
// CR: replica 1 partition 0: result[0]: tensor<2xf64> = [6, -0.25]
// CR: replica 2 partition 0: result[0]: tensor<2xf64> = [0, 0]
func.func @reduce_root() -> tensor<2xf64> {
  %r = stablehlo.replica_id : tensor<ui32>
  %f = stablehlo.convert %r : (tensor<ui32>) -> tensor<f64>
  %fb = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f64>) -> tensor<2xf64>
  %c = stablehlo.constant dense<[2.0, -0.5]> : tensor<2xf64>
  %x = stablehlo.add %fb, %c : tensor<2xf64>
  %s = "stablehlo.collective_reduce"(%x) ({
    ^bb0(%a: tensor<f64>, %b: tensor<f64>):
      %m = stablehlo.multiply %a, %b : tensor<f64>
      stablehlo.return %m : tensor<f64>
  }) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<2xf64>) -> tensor<2xf64>
  return %s : tensor<2xf64>
}

// A collective inside a loop meets its partners once per iteration.
// LOOP: replica 0 partition 0: result[0]: tensor<i32> = 10
// LOOP: replica 1 partition 0: result[0]: tensor<i32> = 10
// LOOP: replica 2 partition 0: result[0]: tensor<i32> = 12
// LOOP: replica 3 partition 0: result[0]: tensor<i32> = 12
func.func @loop() -> tensor<i32> {
  %id = stablehlo.replica_id : tensor<ui32>
  %x = stablehlo.convert %id : (tensor<ui32>) -> tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %acc = %x) : tensor<i32>, tensor<i32>
  cond {
    %ten = stablehlo.constant dense<10> : tensor<i32>
    %c = stablehlo.compare LT, %i, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %a1 = stablehlo.add %acc, %one : tensor<i32>
    %s = "stablehlo.all_reduce"(%a1) ({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %t = stablehlo.add %a, %b : tensor<i32>
        stablehlo.return %t : tensor<i32>
    }) {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<i32>) -> tensor<i32>
    %h = stablehlo.constant dense<2> : tensor<i32>
    %d = stablehlo.divide %s, %h : tensor<i32>
    stablehlo.return %n, %d : tensor<i32>, tensor<i32>
  }
  return %r#1 : tensor<i32>
}
