// interpreter.run_parallel on the gpu backend: its programs are compiled
// with the executable and run as the processes of a grid on the one
// device; their collectives, send/recv and infeed run on the host through
// the interpreter's rendezvous, and the checks hold the interpreter's
// values.  A failing process releases the others (Inputs/deadlock.mlir: a
// recv that nobody sends to is reported as a deadlock, not a hang).  Then
// bitcast_convert between i1 and wider types, on the device.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --split-input-file %s 2>&1 | FileCheck %s
// CHECK: 9 checks passed, 0 failed
// RUN: %S/Inputs/sim.sh not xlac run --backend=gpu --entry stuck %S/Inputs/deadlock.mlir 2>&1 | FileCheck %s --check-prefix=STUCK
// STUCK: deadlock: every process of the 2x1 grid is waiting

module @reduce_and_ids {
  func.func @prog(%x : tensor<4xi64>) -> (tensor<4xi64>, tensor<ui32>) {
    %r = stablehlo.replica_id : tensor<ui32>
    %ri = stablehlo.convert %r : (tensor<ui32>) -> tensor<i64>
    %rb = stablehlo.broadcast_in_dim %ri, dims = [] : (tensor<i64>) -> tensor<4xi64>
    %y = stablehlo.multiply %x, %rb : tensor<4xi64>
    %s = "stablehlo.all_reduce"(%y) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %0 = stablehlo.add %a, %b : tensor<i64>
        stablehlo.return %0 : tensor<i64>
    }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<4xi64>) -> tensor<4xi64>
    return %s, %r : tensor<4xi64>, tensor<ui32>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
    %b = stablehlo.constant dense<[5, 6, 7, 8]> : tensor<4xi64>
    %c = stablehlo.constant dense<[9, 10, 11, 12]> : tensor<4xi64>
    %r:6 = "interpreter.run_parallel"(%a, %b, %c) {programs = [[@prog], [@prog], [@prog]]}
      : (tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) -> (tensor<4xi64>, tensor<ui32>, tensor<4xi64>, tensor<ui32>, tensor<4xi64>, tensor<ui32>)
    check.expect_eq_const %r#0, dense<[23, 26, 29, 32]> : tensor<4xi64>
    check.expect_eq_const %r#4, dense<[23, 26, 29, 32]> : tensor<4xi64>
    check.expect_eq_const %r#5, dense<2> : tensor<ui32>
    func.return
  }
}

// -----

module @partitions_permute {
  func.func @prog(%x : tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<ui32>) {
    %p = stablehlo.partition_id : tensor<ui32>
    %y = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    return %y, %p : tensor<2x2xf32>, tensor<ui32>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %b = stablehlo.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
    %r:4 = "interpreter.run_parallel"(%a, %b) {programs = [[@prog, @prog]]}
      : (tensor<2x2xf32>, tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<ui32>, tensor<2x2xf32>, tensor<ui32>)
    check.expect_eq_const %r#0, dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
    check.expect_eq_const %r#2, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    check.expect_eq_const %r#3, dense<1> : tensor<ui32>
    func.return
  }
}

// -----

module @send_recv {
  func.func @send(%x : tensor<3xi32>, %t : !stablehlo.token) -> !stablehlo.token {
    %y = stablehlo.add %x, %x : tensor<3xi32>
    %r = "stablehlo.send"(%y, %t) {channel_handle = #stablehlo.channel_handle<handle = 4, type = 2>,
        is_host_transfer = true} : (tensor<3xi32>, !stablehlo.token) -> !stablehlo.token
    return %r : !stablehlo.token
  }
  func.func @recv(%t : !stablehlo.token) -> (tensor<3xi32>, !stablehlo.token) {
    %v, %r = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 4, type = 3>,
        is_host_transfer = true} : (!stablehlo.token) -> (tensor<3xi32>, !stablehlo.token)
    %w = stablehlo.negate %v : tensor<3xi32>
    return %w, %r : tensor<3xi32>, !stablehlo.token
  }
  func.func @main() {
    %x = stablehlo.constant dense<[1, -2, 3]> : tensor<3xi32>
    %t = stablehlo.after_all : !stablehlo.token
    %r:3 = "interpreter.run_parallel"(%x, %t, %t) {programs = [[@send], [@recv]]}
      : (tensor<3xi32>, !stablehlo.token, !stablehlo.token) -> (!stablehlo.token, tensor<3xi32>, !stablehlo.token)
    check.expect_eq_const %r#1, dense<[-2, 4, -6]> : tensor<3xi32>
    func.return
  }
}

// -----

// bitcast_convert between i1 and a wider type: element k is bit k
func.func @bitcast_pred() {
  %c = stablehlo.constant dense<0x0123456789ABCDEF> : tensor<i64>
  %x = stablehlo.add %c, %c : tensor<i64>
  %b = stablehlo.bitcast_convert %x : (tensor<i64>) -> tensor<64xi1>
  %n = stablehlo.not %b : tensor<64xi1>
  %y = stablehlo.bitcast_convert %n : (tensor<64xi1>) -> tensor<i64>
  %n8 = stablehlo.reshape %n : (tensor<64xi1>) -> tensor<8x8xi1>
  %z = stablehlo.bitcast_convert %n8 : (tensor<8x8xi1>) -> tensor<8xi8>
  check.expect_eq_const %y, dense<0xFDB97530ECA86421> : tensor<i64>
  check.expect_eq_const %z, dense<[33, 100, -88, -20, 48, 117, -71, -3]> : tensor<8xi8>
  func.return
}
