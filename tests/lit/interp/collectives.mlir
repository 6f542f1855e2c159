// RUN: xlac run --split-input-file %s

// all_reduce over two groups of two replicas; i32 sums wrap.
module @all_reduce_groups {
  func.func @sum(%x : tensor<3xi32>) -> tensor<3xi32> {
    %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %s = stablehlo.add %a, %b : tensor<i32>
        stablehlo.return %s : tensor<i32>
    }) {
      replica_groups = dense<[[0, 2], [3, 1]]> : tensor<2x2xi64>
    } : (tensor<3xi32>) -> tensor<3xi32>
    return %r : tensor<3xi32>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1, 2147483647, -5]> : tensor<3xi32>
    %b = stablehlo.constant dense<[10, 20, 30]> : tensor<3xi32>
    %c = stablehlo.constant dense<[100, 1, -2147483648]> : tensor<3xi32>
    %d = stablehlo.constant dense<[1000, 2000, 3000]> : tensor<3xi32>
    %r:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {
      programs = [[@sum], [@sum], [@sum], [@sum]]
    } : (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) ->
        (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>)
    check.expect_eq_const %r#0, dense<[101, -2147483648, 2147483643]> : tensor<3xi32>
    check.expect_eq_const %r#1, dense<[1010, 2020, 3030]> : tensor<3xi32>
    check.expect_eq_const %r#2, dense<[101, -2147483648, 2147483643]> : tensor<3xi32>
    check.expect_eq_const %r#3, dense<[1010, 2020, 3030]> : tensor<3xi32>
    func.return
  }
}

// -----

// A non-add reduction goes through the region; infinities and -0 survive.
module @all_reduce_max_f32 {
  func.func @max(%x : tensor<4xf32>) -> tensor<4xf32> {
    %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = stablehlo.maximum %a, %b : tensor<f32>
        stablehlo.return %m : tensor<f32>
    }) {
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
    } : (tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[0xFF800000, 1.5, -0.0, -3.0]> : tensor<4xf32>
    %b = stablehlo.constant dense<[-7.0, 0x7F800000, -0.0, -2.5]> : tensor<4xf32>
    %r:2 = "interpreter.run_parallel"(%a, %b) {
      programs = [[@max], [@max]]
    } : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    check.expect_eq_const %r#0, dense<[-7.0, 0x7F800000, -0.0, -2.5]> : tensor<4xf32>
    check.expect_eq_const %r#1, dense<[-7.0, 0x7F800000, -0.0, -2.5]> : tensor<4xf32>
    func.return
  }
}

// -----

// Booleans add as "or"; complex numbers add componentwise.
module @all_reduce_i1_complex {
  func.func @f(%p : tensor<2xi1>, %c : tensor<complex<f64>>) -> (tensor<2xi1>, tensor<complex<f64>>) {
    %r0 = "stablehlo.all_reduce"(%p) ({
      ^bb0(%a: tensor<i1>, %b: tensor<i1>):
        %s = stablehlo.or %a, %b : tensor<i1>
        stablehlo.return %s : tensor<i1>
    }) {
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
    } : (tensor<2xi1>) -> tensor<2xi1>
    %r1 = "stablehlo.all_reduce"(%c) ({
      ^bb0(%a: tensor<complex<f64>>, %b: tensor<complex<f64>>):
        %s = stablehlo.add %a, %b : tensor<complex<f64>>
        stablehlo.return %s : tensor<complex<f64>>
    }) {
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
    } : (tensor<complex<f64>>) -> tensor<complex<f64>>
    return %r0, %r1 : tensor<2xi1>, tensor<complex<f64>>
  }
  func.func @main() {
    %p0 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
    %p1 = stablehlo.constant dense<[false, false]> : tensor<2xi1>
    %c0 = stablehlo.constant dense<(1.0, 2.0)> : tensor<complex<f64>>
    %c1 = stablehlo.constant dense<(1.0, 2.0)> : tensor<complex<f64>>
    %r:4 = "interpreter.run_parallel"(%p0, %c0, %p1, %c1) {
      programs = [[@f], [@f]]
    } : (tensor<2xi1>, tensor<complex<f64>>, tensor<2xi1>, tensor<complex<f64>>) ->
        (tensor<2xi1>, tensor<complex<f64>>, tensor<2xi1>, tensor<complex<f64>>)
    check.expect_eq_const %r#0, dense<[true, false]> : tensor<2xi1>
    check.expect_eq_const %r#1, dense<(2.0, 4.0)> : tensor<complex<f64>>
    check.expect_eq_const %r#2, dense<[true, false]> : tensor<2xi1>
    check.expect_eq_const %r#3, dense<(2.0, 4.0)> : tensor<complex<f64>>
    func.return
  }
}

// -----

// Outside interpreter.run_parallel a program is a 1x1 grid.
module @single_process {
  func.func @main() {
    %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {
      replica_groups = dense<[[0]]> : tensor<1x1xi64>
    } : (tensor<2xf32>) -> tensor<2xf32>
    check.expect_eq_const %r, dense<[1.0, 2.0]> : tensor<2xf32>
    %g = "stablehlo.all_gather"(%x) {
      all_gather_dim = 0 : i64,
      replica_groups = dense<[[0]]> : tensor<1x1xi64>
    } : (tensor<2xf32>) -> tensor<2xf32>
    check.expect_eq_const %g, dense<[1.0, 2.0]> : tensor<2xf32>
    %id = stablehlo.replica_id : tensor<ui32>
    check.expect_eq_const %id, dense<0> : tensor<ui32>
    %pid = stablehlo.partition_id : tensor<ui32>
    check.expect_eq_const %pid, dense<0> : tensor<ui32>
    func.return
  }
}

// -----

// Ids on a 2x2 grid: programs[r][p].
module @ids_2x2 {
  func.func @ids() -> (tensor<ui32>, tensor<ui32>) {
    %r = stablehlo.replica_id : tensor<ui32>
    %p = stablehlo.partition_id : tensor<ui32>
    return %r, %p : tensor<ui32>, tensor<ui32>
  }
  func.func @main() {
    %r:8 = "interpreter.run_parallel"() {
      programs = [[@ids, @ids], [@ids, @ids]]
    } : () -> (tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>,
               tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>)
    check.expect_eq_const %r#0, dense<0> : tensor<ui32>
    check.expect_eq_const %r#1, dense<0> : tensor<ui32>
    check.expect_eq_const %r#2, dense<0> : tensor<ui32>
    check.expect_eq_const %r#3, dense<1> : tensor<ui32>
    check.expect_eq_const %r#4, dense<1> : tensor<ui32>
    check.expect_eq_const %r#5, dense<0> : tensor<ui32>
    check.expect_eq_const %r#6, dense<1> : tensor<ui32>
    check.expect_eq_const %r#7, dense<1> : tensor<ui32>
    func.return
  }
}

// -----

// all_gather across partitions (flattened ids), and of zero-sized tensors.
module @all_gather_flattened {
  func.func @g(%x : tensor<1x2xi8>, %z : tensor<0x3xf16>) -> (tensor<2x2xi8>, tensor<0x3xf16>) {
    %r:2 = "stablehlo.all_gather"(%x, %z) {
      all_gather_dim = 0 : i64,
      replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>,
      use_global_device_ids
    } : (tensor<1x2xi8>, tensor<0x3xf16>) -> (tensor<2x2xi8>, tensor<0x3xf16>)
    return %r#0, %r#1 : tensor<2x2xi8>, tensor<0x3xf16>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[[1, -128]]> : tensor<1x2xi8>
    %b = stablehlo.constant dense<[[127, 0]]> : tensor<1x2xi8>
    %z = stablehlo.constant dense<> : tensor<0x3xf16>
    %r:4 = "interpreter.run_parallel"(%a, %z, %b, %z) {
      programs = [[@g, @g]]
    } : (tensor<1x2xi8>, tensor<0x3xf16>, tensor<1x2xi8>, tensor<0x3xf16>) ->
        (tensor<2x2xi8>, tensor<0x3xf16>, tensor<2x2xi8>, tensor<0x3xf16>)
    check.expect_eq_const %r#0, dense<[[127, 0], [1, -128]]> : tensor<2x2xi8>
    check.expect_eq_const %r#2, dense<[[127, 0], [1, -128]]> : tensor<2x2xi8>
    check.expect_eq_const %r#3, dense<> : tensor<0x3xf16>
    func.return
  }
}

// -----

// all_to_all across three partitions, splitting columns and stacking rows.
module @all_to_all_partitions {
  func.func @a2a(%x : tensor<1x3xui16>) -> tensor<3x1xui16> {
    %r = "stablehlo.all_to_all"(%x) {
      split_dimension = 1 : i64,
      concat_dimension = 0 : i64,
      split_count = 3 : i64,
      replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>
    } : (tensor<1x3xui16>) -> tensor<3x1xui16>
    return %r : tensor<3x1xui16>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[[1, 2, 3]]> : tensor<1x3xui16>
    %b = stablehlo.constant dense<[[4, 5, 6]]> : tensor<1x3xui16>
    %c = stablehlo.constant dense<[[7, 8, 65535]]> : tensor<1x3xui16>
    %r:3 = "interpreter.run_parallel"(%a, %b, %c) {
      programs = [[@a2a, @a2a, @a2a]]
    } : (tensor<1x3xui16>, tensor<1x3xui16>, tensor<1x3xui16>) ->
        (tensor<3x1xui16>, tensor<3x1xui16>, tensor<3x1xui16>)
    check.expect_eq_const %r#0, dense<[[1], [4], [7]]> : tensor<3x1xui16>
    check.expect_eq_const %r#1, dense<[[2], [5], [8]]> : tensor<3x1xui16>
    check.expect_eq_const %r#2, dense<[[3], [6], [65535]]> : tensor<3x1xui16>
    func.return
  }
}

// -----

// reduce_scatter of f64 with a multiply region (the generic path).
module @reduce_scatter_multiply {
  func.func @rs(%x : tensor<4xf64>) -> tensor<2xf64> {
    %r = "stablehlo.reduce_scatter"(%x) ({
      ^bb0(%a: tensor<f64>, %b: tensor<f64>):
        %m = stablehlo.multiply %a, %b : tensor<f64>
        stablehlo.return %m : tensor<f64>
    }) {
      scatter_dimension = 0 : i64,
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
    } : (tensor<4xf64>) -> tensor<2xf64>
    return %r : tensor<2xf64>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[2.0, 3.0, 0.5, -1.0]> : tensor<4xf64>
    %b = stablehlo.constant dense<[4.0, -0.0, 8.0, 1.0e300]> : tensor<4xf64>
    %r:2 = "interpreter.run_parallel"(%a, %b) {
      programs = [[@rs], [@rs]]
    } : (tensor<4xf64>, tensor<4xf64>) -> (tensor<2xf64>, tensor<2xf64>)
    check.expect_eq_const %r#0, dense<[8.0, -0.0]> : tensor<2xf64>
    check.expect_eq_const %r#1, dense<[4.0, -1.0e300]> : tensor<2xf64>
    func.return
  }
}

// -----

// collective_permute in a ring; collective_broadcast from the group head.
module @permute_and_broadcast {
  func.func @f(%x : tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>) {
    %p = "stablehlo.collective_permute"(%x) {
      source_target_pairs = dense<[[0, 1], [1, 2], [2, 0]]> : tensor<3x2xi64>
    } : (tensor<2xi64>) -> tensor<2xi64>
    %b = "stablehlo.collective_broadcast"(%x) {
      replica_groups = dense<[[2, 0]]> : tensor<1x2xi64>
    } : (tensor<2xi64>) -> tensor<2xi64>
    return %p, %b : tensor<2xi64>, tensor<2xi64>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
    %b = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
    %c = stablehlo.constant dense<[5, 6]> : tensor<2xi64>
    %r:6 = "interpreter.run_parallel"(%a, %b, %c) {
      programs = [[@f], [@f], [@f]]
    } : (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) ->
        (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>)
    check.expect_eq_const %r#0, dense<[5, 6]> : tensor<2xi64>
    check.expect_eq_const %r#1, dense<[5, 6]> : tensor<2xi64>
    check.expect_eq_const %r#2, dense<[1, 2]> : tensor<2xi64>
    check.expect_eq_const %r#3, dense<[0, 0]> : tensor<2xi64>
    check.expect_eq_const %r#4, dense<[3, 4]> : tensor<2xi64>
    check.expect_eq_const %r#5, dense<[5, 6]> : tensor<2xi64>
    func.return
  }
}

// -----

// A collective inside a loop meets its partners once per iteration.
module @collective_in_loop {
  func.func @loop(%x : tensor<i32>) -> tensor<i32> {
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %zero, %acc = %x) : tensor<i32>, tensor<i32>
    cond {
      %three = stablehlo.constant dense<3> : tensor<i32>
      %c = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %n = stablehlo.add %i, %one : tensor<i32>
      %s = "stablehlo.all_reduce"(%acc) ({
        ^bb0(%a: tensor<i32>, %b: tensor<i32>):
          %t = stablehlo.add %a, %b : tensor<i32>
          stablehlo.return %t : tensor<i32>
      }) {
        replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
      } : (tensor<i32>) -> tensor<i32>
      stablehlo.return %n, %s : tensor<i32>, tensor<i32>
    }
    return %r#1 : tensor<i32>
  }
  func.func @main() {
    %a = stablehlo.constant dense<1> : tensor<i32>
    %b = stablehlo.constant dense<2> : tensor<i32>
    %r:2 = "interpreter.run_parallel"(%a, %b) {
      programs = [[@loop], [@loop]]
    } : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    check.expect_eq_const %r#0, dense<12> : tensor<i32>
    check.expect_eq_const %r#1, dense<12> : tensor<i32>
    func.return
  }
}

// -----

// collective_reduce keeps the sum on the group's first member only.
module @collective_reduce_root {
  func.func @f(%x : tensor<2xi32>) -> tensor<2xi32> {
    %r = "stablehlo.collective_reduce"(%x) ({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %s = stablehlo.add %a, %b : tensor<i32>
        stablehlo.return %s : tensor<i32>
    }) {
      replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>
    } : (tensor<2xi32>) -> tensor<2xi32>
    return %r : tensor<2xi32>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %b = stablehlo.constant dense<[10, 20]> : tensor<2xi32>
    %r:2 = "interpreter.run_parallel"(%a, %b) {
      programs = [[@f], [@f]]
    } : (tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>)
    check.expect_eq_const %r#0, dense<[0, 0]> : tensor<2xi32>
    check.expect_eq_const %r#1, dense<[11, 22]> : tensor<2xi32>
    func.return
  }
}

// -----

// send/recv pair up by channel handle, in order, across different programs.
module @send_recv_fifo {
  func.func @send(%x : tensor<2xf32>, %t : !stablehlo.token) -> !stablehlo.token {
    %t1 = "stablehlo.send"(%x, %t) {
      channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>
    } : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
    %y = stablehlo.negate %x : tensor<2xf32>
    %t2 = "stablehlo.send"(%y, %t1) {
      channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>
    } : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
    return %t2 : !stablehlo.token
  }
  func.func @recv(%t : !stablehlo.token) -> (tensor<2xf32>, tensor<2xf32>) {
    %a, %t1 = "stablehlo.recv"(%t) {
      channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>
    } : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
    %b, %t2 = "stablehlo.recv"(%t1) {
      channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>
    } : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
    return %a, %b : tensor<2xf32>, tensor<2xf32>
  }
  func.func @main() {
    %x = stablehlo.constant dense<[1.5, -0.0]> : tensor<2xf32>
    %t = stablehlo.after_all : !stablehlo.token
    %r:3 = "interpreter.run_parallel"(%t, %x, %t) {
      programs = [[@recv, @send]]
    } : (!stablehlo.token, tensor<2xf32>, !stablehlo.token) -> (tensor<2xf32>, tensor<2xf32>, !stablehlo.token)
    check.expect_eq_const %r#0, dense<[1.5, -0.0]> : tensor<2xf32>
    check.expect_eq_const %r#1, dense<[-1.5, 0.0]> : tensor<2xf32>
    func.return
  }
}
