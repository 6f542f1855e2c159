// RUN: xlac run --split-input-file %s
// dynamic_slice and dynamic_update_slice: start indices are clamped so the
// window stays inside the operand.  The optimization barrier keeps the
// inputs from being folded, so the cpu backend compiles the ops.

func.func @dynamic_slice_clamps() {
  %x0 = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi32>
  %i0 = stablehlo.constant dense<-4> : tensor<i64>
  %j0 = stablehlo.constant dense<9> : tensor<i64>
  %x, %i, %j = stablehlo.optimization_barrier %x0, %i0, %j0 : tensor<3x3xi32>, tensor<i64>, tensor<i64>
  %r = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 2] : (tensor<3x3xi32>, tensor<i64>, tensor<i64>) -> tensor<2x2xi32>
  check.expect_eq_const %r, dense<[[2, 3], [5, 6]]> : tensor<2x2xi32>
  func.return
}

// -----

// Extreme indices: INT64_MIN clamps to 0, a huge unsigned index to the end.
func.func @dynamic_slice_extremes() {
  %x0 = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %i0 = stablehlo.constant dense<-9223372036854775808> : tensor<i64>
  %u0 = stablehlo.constant dense<18446744073709551615> : tensor<ui64>
  %x, %i, %u = stablehlo.optimization_barrier %x0, %i0, %u0 : tensor<5xf32>, tensor<i64>, tensor<ui64>
  %r = stablehlo.dynamic_slice %x, %i, sizes = [2] : (tensor<5xf32>, tensor<i64>) -> tensor<2xf32>
  %s = stablehlo.dynamic_slice %x, %u, sizes = [3] : (tensor<5xf32>, tensor<ui64>) -> tensor<3xf32>
  check.expect_eq_const %r, dense<[1.0, 2.0]> : tensor<2xf32>
  check.expect_eq_const %s, dense<[3.0, 4.0, 5.0]> : tensor<3xf32>
  func.return
}

// -----

// A computed start index, and the slice fused with elementwise consumers.
func.func @dynamic_slice_fused() {
  %x0 = stablehlo.iota dim = 1 : tensor<4x8xi32>
  %i0 = stablehlo.constant dense<2> : tensor<i32>
  %x, %i = stablehlo.optimization_barrier %x0, %i0 : tensor<4x8xi32>, tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %j = stablehlo.add %i, %c1 : tensor<i32>
  %s = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 3] : (tensor<4x8xi32>, tensor<i32>, tensor<i32>) -> tensor<2x3xi32>
  %t = stablehlo.multiply %s, %s : tensor<2x3xi32>
  check.expect_eq_const %t, dense<[[9, 16, 25], [9, 16, 25]]> : tensor<2x3xi32>
  func.return
}

// -----

func.func @dynamic_update_slice_clamps() {
  %x0 = stablehlo.constant dense<[[0, 0, 0], [0, 0, 0]]> : tensor<2x3xi8>
  %u0 = stablehlo.constant dense<[[1, 2]]> : tensor<1x2xi8>
  %i0 = stablehlo.constant dense<5> : tensor<i32>
  %j0 = stablehlo.constant dense<-1> : tensor<i32>
  %x, %u, %i, %j = stablehlo.optimization_barrier %x0, %u0, %i0, %j0 : tensor<2x3xi8>, tensor<1x2xi8>, tensor<i32>, tensor<i32>
  %r = stablehlo.dynamic_update_slice %x, %u, %i, %j : (tensor<2x3xi8>, tensor<1x2xi8>, tensor<i32>, tensor<i32>) -> tensor<2x3xi8>
  check.expect_eq_const %r, dense<[[0, 0, 0], [1, 2, 0]]> : tensor<2x3xi8>
  func.return
}

// -----

// An empty update leaves the operand unchanged; a full-size one replaces it.
func.func @dynamic_update_slice_empty_and_full() {
  %x0 = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %e0 = stablehlo.constant dense<> : tensor<0x2xf32>
  %f0 = stablehlo.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %i0 = stablehlo.constant dense<1> : tensor<i32>
  %x, %e, %f, %i = stablehlo.optimization_barrier %x0, %e0, %f0, %i0 : tensor<2x2xf32>, tensor<0x2xf32>, tensor<2x2xf32>, tensor<i32>
  %r = stablehlo.dynamic_update_slice %x, %e, %i, %i : (tensor<2x2xf32>, tensor<0x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  %s = stablehlo.dynamic_update_slice %x, %f, %i, %i : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  check.expect_eq_const %r, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  check.expect_eq_const %s, dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// x.at[i].set(row) as in a scan loop body, with an unsigned index.
func.func @dynamic_update_slice_row() {
  %x0 = stablehlo.constant dense<0> : tensor<4x3xi16>
  %u0 = stablehlo.constant dense<[[7, 8, 9]]> : tensor<1x3xi16>
  %i0 = stablehlo.constant dense<2> : tensor<ui32>
  %z0 = stablehlo.constant dense<0> : tensor<ui32>
  %x, %u, %i, %z = stablehlo.optimization_barrier %x0, %u0, %i0, %z0 : tensor<4x3xi16>, tensor<1x3xi16>, tensor<ui32>, tensor<ui32>
  %r = stablehlo.dynamic_update_slice %x, %u, %i, %z : (tensor<4x3xi16>, tensor<1x3xi16>, tensor<ui32>, tensor<ui32>) -> tensor<4x3xi16>
  %n = stablehlo.negate %r : tensor<4x3xi16>
  check.expect_eq_const %n, dense<[[0, 0, 0], [0, 0, 0], [-7, -8, -9], [0, 0, 0]]> : tensor<4x3xi16>
  func.return
}
