// RUN: xlac run --split-input-file %s
// Integer, pred and mixed-type dot products on the cpu backend's loop
// nest: exact sums with wrap-around like the interpreter, operands of
// other types converted to the result's class first, float results summed
// in double and rounded once.

func.func @s8_to_s32() {
  %a0 = stablehlo.constant dense<[[127, -128, 5], [-1, 2, -3]]> : tensor<2x3xi8>
  %b0 = stablehlo.constant dense<[[-128, 1], [-128, 127], [100, -7]]> : tensor<3x2xi8>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<2x3xi8>, tensor<3x2xi8>
  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi32>
  check.expect_eq_const %c, dense<[[628, -16164], [-428, 274]]> : tensor<2x2xi32>
  // the same in i8 wraps
  %w = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi8>
  check.expect_eq_const %w, dense<[[116, -36], [84, 18]]> : tensor<2x2xi8>
  func.return
}

// -----

func.func @i32_wraps_and_u8() {
  %a0 = stablehlo.constant dense<[[1073741824, 1073741824, 3]]> : tensor<1x3xi32>
  %b0 = stablehlo.constant dense<[[4, 2], [1, 1], [5, -1]]> : tensor<3x2xi32>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<1x3xi32>, tensor<3x2xi32>
  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x3xi32>, tensor<3x2xi32>) -> tensor<1x2xi32>
  check.expect_eq_const %c, dense<[[1073741839, -1073741827]]> : tensor<1x2xi32>
  %c64 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x3xi32>, tensor<3x2xi32>) -> tensor<1x2xi64>
  check.expect_eq_const %c64, dense<[[5368709135, 3221225469]]> : tensor<1x2xi64>
  %u0 = stablehlo.constant dense<[[255, 255], [1, 2]]> : tensor<2x2xui8>
  %u = stablehlo.optimization_barrier %u0 : tensor<2x2xui8>
  %uu = stablehlo.dot_general %u, %u, contracting_dims = [1] x [0] : (tensor<2x2xui8>, tensor<2x2xui8>) -> tensor<2x2xui32>
  check.expect_eq_const %uu, dense<[[65280, 65535], [257, 259]]> : tensor<2x2xui32>
  func.return
}

// -----

func.func @pred_and_mixed() {
  %p0 = stablehlo.constant dense<[[true, false], [false, false]]> : tensor<2x2xi1>
  %q0 = stablehlo.constant dense<[[true, false], [true, true]]> : tensor<2x2xi1>
  %p, %q = stablehlo.optimization_barrier %p0, %q0 : tensor<2x2xi1>, tensor<2x2xi1>
  %pq = stablehlo.dot_general %p, %q, contracting_dims = [1] x [0] : (tensor<2x2xi1>, tensor<2x2xi1>) -> tensor<2x2xi1>
  check.expect_eq_const %pq, dense<[[true, false], [false, false]]> : tensor<2x2xi1>
  %a0 = stablehlo.constant dense<[[100, -100, 7]]> : tensor<1x3xi8>
  %a = stablehlo.optimization_barrier %a0 : tensor<1x3xi8>
  %f0 = stablehlo.constant dense<[[0.5], [0.25], [1.0e-8]]> : tensor<3x1xf64>
  %f = stablehlo.optimization_barrier %f0 : tensor<3x1xf64>
  %af = stablehlo.convert %a : (tensor<1x3xi8>) -> tensor<1x3xf64>
  %r = stablehlo.dot_general %af, %f, contracting_dims = [1] x [0] : (tensor<1x3xf64>, tensor<3x1xf64>) -> tensor<1x1xf32>
  check.expect_eq_const %r, dense<25.0> : tensor<1x1xf32>
  %s8f = stablehlo.dot_general %a, %a, contracting_dims = [1] x [1] : (tensor<1x3xi8>, tensor<1x3xi8>) -> tensor<1x1xf32>
  check.expect_eq_const %s8f, dense<20049.0> : tensor<1x1xf32>
  func.return
}

// -----

// Batch dimensions and an odd layout (contracting dimension in the middle,
// batch dimension last in the rhs), larger than a tile, checked against
// the f32 product of the same values (exact: all sums are small integers).
func.func @batched_odd_layout() {
  %i = stablehlo.iota dim = 0 : tensor<3x37x600xi32>
  %j = stablehlo.iota dim = 1 : tensor<3x37x600xi32>
  %k = stablehlo.iota dim = 2 : tensor<3x37x600xi32>
  %c7 = stablehlo.constant dense<7> : tensor<3x37x600xi32>
  %c11 = stablehlo.constant dense<11> : tensor<3x37x600xi32>
  %t0 = stablehlo.multiply %j, %c7 : tensor<3x37x600xi32>
  %t1 = stablehlo.add %t0, %k : tensor<3x37x600xi32>
  %t2 = stablehlo.add %t1, %i : tensor<3x37x600xi32>
  %t3 = stablehlo.remainder %t2, %c11 : tensor<3x37x600xi32>
  %c5 = stablehlo.constant dense<5> : tensor<3x37x600xi32>
  %t4 = stablehlo.subtract %t3, %c5 : tensor<3x37x600xi32>
  %a8 = stablehlo.convert %t4 : (tensor<3x37x600xi32>) -> tensor<3x37x600xi8>
  // lhs [batch=3, K=37, M=600]; rhs [K=37, N=5, batch=3]
  %r0 = stablehlo.iota dim = 0 : tensor<37x5x3xi8>
  %r1 = stablehlo.iota dim = 1 : tensor<37x5x3xi8>
  %r2 = stablehlo.iota dim = 2 : tensor<37x5x3xi8>
  %rr = stablehlo.add %r0, %r1 : tensor<37x5x3xi8>
  %b8 = stablehlo.subtract %rr, %r2 : tensor<37x5x3xi8>
  %a, %b = stablehlo.optimization_barrier %a8, %b8 : tensor<3x37x600xi8>, tensor<37x5x3xi8>
  %d = stablehlo.dot_general %a, %b, batching_dims = [0] x [2], contracting_dims = [1] x [0] : (tensor<3x37x600xi8>, tensor<37x5x3xi8>) -> tensor<3x600x5xi32>
  %af = stablehlo.convert %a : (tensor<3x37x600xi8>) -> tensor<3x37x600xf32>
  %bf = stablehlo.convert %b : (tensor<37x5x3xi8>) -> tensor<37x5x3xf32>
  %df = stablehlo.dot_general %af, %bf, batching_dims = [0] x [2], contracting_dims = [1] x [0] : (tensor<3x37x600xf32>, tensor<37x5x3xf32>) -> tensor<3x600x5xf32>
  %dfi = stablehlo.convert %df : (tensor<3x600x5xf32>) -> tensor<3x600x5xi32>
  check.expect_eq %d, %dfi : tensor<3x600x5xi32>
  func.return
}

// -----

// The legacy dot, s16 x s16 into s32 on a matrix-vector product.
func.func @legacy_dot() {
  %a0 = stablehlo.constant dense<[[30000, -30000], [2, 3]]> : tensor<2x2xi16>
  %v0 = stablehlo.constant dense<[30000, 30000]> : tensor<2xi16>
  %a, %v = stablehlo.optimization_barrier %a0, %v0 : tensor<2x2xi16>, tensor<2xi16>
  %r = "stablehlo.dot"(%a, %v) : (tensor<2x2xi16>, tensor<2xi16>) -> tensor<2xi32>
  check.expect_eq_const %r, dense<[0, 150000]> : tensor<2xi32>
  func.return
}
