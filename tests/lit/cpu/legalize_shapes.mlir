// RUN: xlac run --split-input-file %s
// RUN: xlac opt --split-input-file --pipeline=cpu %s | FileCheck %s
// The deprecated and dynamic shape ops become their static twins on the
// cpu backend (legalize pass): broadcast, dynamic_broadcast_in_dim,
// dynamic_reshape, dynamic_iota, get_dimension_size, set_dimension_size.
// Operands pass through optimization_barrier so that nothing folds.
// CHECK-NOT: stablehlo.broadcast"
// CHECK-NOT: stablehlo.dynamic_
// CHECK-NOT: stablehlo.get_dimension_size
// CHECK-NOT: stablehlo.set_dimension_size
// CHECK-NOT: optimization_barrier

func.func @broadcast_f32() {
  %x0 = stablehlo.constant dense<[[1.0, -2.0, 3.5], [4.0, 0.0, -0.0]]> : tensor<2x3xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<2x3xf32>
  %r = "stablehlo.broadcast"(%x) {broadcast_sizes = array<i64: 2>} : (tensor<2x3xf32>) -> tensor<2x2x3xf32>
  check.expect_eq_const %r, dense<[[[1.0, -2.0, 3.5], [4.0, 0.0, -0.0]], [[1.0, -2.0, 3.5], [4.0, 0.0, -0.0]]]> : tensor<2x2x3xf32>
  %s0 = stablehlo.constant dense<7> : tensor<i8>
  %s = stablehlo.optimization_barrier %s0 : tensor<i8>
  %t = "stablehlo.broadcast"(%s) {broadcast_sizes = array<i64: 2, 3>} : (tensor<i8>) -> tensor<2x3xi8>
  %u = stablehlo.add %t, %t : tensor<2x3xi8>
  check.expect_eq_const %u, dense<14> : tensor<2x3xi8>
  %n = "stablehlo.broadcast"(%x) {broadcast_sizes = array<i64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_eq %n, %x : tensor<2x3xf32>
  %z = "stablehlo.broadcast"(%x) {broadcast_sizes = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<0x2x3xf32>
  check.expect_eq_const %z, dense<> : tensor<0x2x3xf32>
  func.return
}

// -----

func.func @dynamic_broadcast_in_dim() {
  %x0 = stablehlo.constant dense<[[1], [2], [3]]> : tensor<3x1xi64>
  %x = stablehlo.optimization_barrier %x0 : tensor<3x1xi64>
  %shape = stablehlo.constant dense<[2, 3, 4]> : tensor<3xi32>
  %r = "stablehlo.dynamic_broadcast_in_dim"(%x, %shape) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<3x1xi64>, tensor<3xi32>) -> tensor<2x3x4xi64>
  check.expect_eq_const %r, dense<[[[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]], [[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]]]> : tensor<2x3x4xi64>
  %b0 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %b = stablehlo.optimization_barrier %b0 : tensor<2xi1>
  %shape2 = stablehlo.constant dense<[2, 2]> : tensor<2xui64>
  %rb = "stablehlo.dynamic_broadcast_in_dim"(%b, %shape2) {broadcast_dimensions = array<i64: 0>, known_expanding_dimensions = array<i64>} : (tensor<2xi1>, tensor<2xui64>) -> tensor<2x2xi1>
  check.expect_eq_const %rb, dense<[[true, true], [false, false]]> : tensor<2x2xi1>
  func.return
}

// -----

// The shape operand is computed (not a constant): the result type decides.
func.func @dynamic_reshape_computed_shape() {
  %x0 = stablehlo.constant dense<[[1.5, 2.5, 3.5], [4.5, 5.5, 6.5]]> : tensor<2x3xbf16>
  %s0 = stablehlo.constant dense<[3, 2]> : tensor<2xi64>
  %x, %s = stablehlo.optimization_barrier %x0, %s0 : tensor<2x3xbf16>, tensor<2xi64>
  %r = stablehlo.dynamic_reshape %x, %s : (tensor<2x3xbf16>, tensor<2xi64>) -> tensor<3x2xbf16>
  check.expect_eq_const %r, dense<[[1.5, 2.5], [3.5, 4.5], [5.5, 6.5]]> : tensor<3x2xbf16>
  %c = stablehlo.constant dense<[6]> : tensor<1xi32>
  %f = stablehlo.dynamic_reshape %x, %c : (tensor<2x3xbf16>, tensor<1xi32>) -> tensor<6xbf16>
  %g = stablehlo.add %f, %f : tensor<6xbf16>
  check.expect_eq_const %g, dense<[3.0, 5.0, 7.0, 9.0, 11.0, 13.0]> : tensor<6xbf16>
  func.return
}

// -----

func.func @dynamic_iota() {
  %s = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %a = stablehlo.dynamic_iota %s, dim = 1 : (tensor<2xi64>) -> tensor<2x3xf32>
  %a2 = stablehlo.optimization_barrier %a : tensor<2x3xf32>
  check.expect_eq_const %a2, dense<[[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]> : tensor<2x3xf32>
  %b = stablehlo.dynamic_iota %s, dim = 0 : (tensor<2xi64>) -> tensor<2x3xui8>
  %b2 = stablehlo.optimization_barrier %b : tensor<2x3xui8>
  check.expect_eq_const %b2, dense<[[0, 0, 0], [1, 1, 1]]> : tensor<2x3xui8>
  %e = stablehlo.constant dense<5> : tensor<1xi32>
  %c = stablehlo.dynamic_iota %e, dim = 0 : (tensor<1xi32>) -> tensor<5xi32>
  %one = stablehlo.constant dense<1> : tensor<5xi32>
  %c1 = stablehlo.add %c, %one : tensor<5xi32>
  %c2 = stablehlo.optimization_barrier %c1 : tensor<5xi32>
  check.expect_eq_const %c2, dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  func.return
}

// -----

func.func @dimension_sizes() {
  %x0 = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi16>
  %x = stablehlo.optimization_barrier %x0 : tensor<2x3xi16>
  %d0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<2x3xi16>) -> tensor<i32>
  %d1 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<2x3xi16>) -> tensor<i32>
  %p = stablehlo.multiply %d0, %d1 : tensor<i32>
  %p2 = stablehlo.optimization_barrier %p : tensor<i32>
  check.expect_eq_const %p2, dense<6> : tensor<i32>
  %n0 = stablehlo.constant dense<3> : tensor<i32>
  %n = stablehlo.optimization_barrier %n0 : tensor<i32>
  %same = "stablehlo.set_dimension_size"(%x, %n) {dimension = 1 : i64} : (tensor<2x3xi16>, tensor<i32>) -> tensor<2x3xi16>
  check.expect_eq %same, %x : tensor<2x3xi16>
  // a different static result: shared elements kept, the rest zero
  %grow = "stablehlo.set_dimension_size"(%x, %n) {dimension = 1 : i64} : (tensor<2x3xi16>, tensor<i32>) -> tensor<2x4xi16>
  check.expect_eq_const %grow, dense<[[1, 2, 3, 0], [4, 5, 6, 0]]> : tensor<2x4xi16>
  %crop = "stablehlo.set_dimension_size"(%x, %n) {dimension = 1 : i64} : (tensor<2x3xi16>, tensor<i32>) -> tensor<2x2xi16>
  check.expect_eq_const %crop, dense<[[1, 2], [4, 5]]> : tensor<2x2xi16>
  func.return
}

// -----

// Barriers are dropped only after fusion; the values pass through intact,
// tuples and tokens included.
func.func @barrier_values() {
  %a0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf64>
  %b0 = stablehlo.constant dense<(1.0, -1.0)> : tensor<complex<f32>>
  %t = stablehlo.create_token : !stablehlo.token
  %a, %b, %t2 = stablehlo.optimization_barrier %a0, %b0, %t : tensor<2xf64>, tensor<complex<f32>>, !stablehlo.token
  %a2 = stablehlo.multiply %a, %a : tensor<2xf64>
  check.expect_eq_const %a2, dense<[1.0, 4.0]> : tensor<2xf64>
  check.expect_eq_const %b, dense<(1.0, -1.0)> : tensor<complex<f32>>
  func.return
}
