// RUN: xlac run --split-input-file %s
// Row and full reductions on the cpu backend: blocks of vector
// accumulators, partial results combined in block order.  The inputs are
// small integers held in floats, so every partial sum is exact and the
// result does not depend on the order of the additions; the optimization
// barrier keeps the inputs from being folded, so the kernels are compiled.

// A full sum over a million elements: many blocks and a ragged last step.
func.func @full_sum_f32() {
  %i = stablehlo.iota dim = 0 : tensor<1000003xi32>
  %c8 = stablehlo.constant dense<8> : tensor<1000003xi32>
  %m = stablehlo.remainder %i, %c8 : tensor<1000003xi32>
  %f0 = stablehlo.convert %m : (tensor<1000003xi32>) -> tensor<1000003xf32>
  %f = stablehlo.optimization_barrier %f0 : tensor<1000003xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%f init: %z) applies stablehlo.add across dimensions = [0] : (tensor<1000003xf32>, tensor<f32>) -> tensor<f32>
  // 125000 * 28 + (0 + 1 + 2)
  check.expect_eq_const %s, dense<3500003.0> : tensor<f32>
  func.return
}

// -----

// x + y * z fused into the reduction, init value not the identity.
func.func @sum_xyz() {
  %i = stablehlo.iota dim = 0 : tensor<70001xi32>
  %c4 = stablehlo.constant dense<4> : tensor<70001xi32>
  %m = stablehlo.remainder %i, %c4 : tensor<70001xi32>
  %x0 = stablehlo.convert %m : (tensor<70001xi32>) -> tensor<70001xf32>
  %x, %y = stablehlo.optimization_barrier %x0, %x0 : tensor<70001xf32>, tensor<70001xf32>
  %p = stablehlo.multiply %x, %y : tensor<70001xf32>
  %q = stablehlo.add %x, %p : tensor<70001xf32>
  %init = stablehlo.constant dense<10.0> : tensor<f32>
  %s = stablehlo.reduce(%q init: %init) applies stablehlo.add across dimensions = [0] : (tensor<70001xf32>, tensor<f32>) -> tensor<f32>
  // x + x*x over 0,1,2,3 = 0 + 2 + 6 + 12 = 20 per 4; 17500 * 20 + 0 + 10
  check.expect_eq_const %s, dense<350010.0> : tensor<f32>
  func.return
}

// -----

// Integer sums, min, max, xor over several blocks are exact in any order.
func.func @int_full() {
  %i0 = stablehlo.iota dim = 0 : tensor<1000001xi64>
  %i = stablehlo.optimization_barrier %i0 : tensor<1000001xi64>
  %z = stablehlo.constant dense<0> : tensor<i64>
  %s = stablehlo.reduce(%i init: %z) applies stablehlo.add across dimensions = [0] : (tensor<1000001xi64>, tensor<i64>) -> tensor<i64>
  check.expect_eq_const %s, dense<500000500000> : tensor<i64>
  %big = stablehlo.constant dense<7> : tensor<i64>
  %mn = stablehlo.reduce(%i init: %big) applies stablehlo.minimum across dimensions = [0] : (tensor<1000001xi64>, tensor<i64>) -> tensor<i64>
  check.expect_eq_const %mn, dense<0> : tensor<i64>
  %mx = stablehlo.reduce(%i init: %z) applies stablehlo.maximum across dimensions = [0] : (tensor<1000001xi64>, tensor<i64>) -> tensor<i64>
  check.expect_eq_const %mx, dense<1000000> : tensor<i64>
  %x = stablehlo.reduce(%i init: %z) applies stablehlo.xor across dimensions = [0] : (tensor<1000001xi64>, tensor<i64>) -> tensor<i64>
  // xor of 0..n is n when n % 4 == 0
  check.expect_eq_const %x, dense<1000000> : tensor<i64>
  func.return
}

// -----

// Unsigned 32-bit sums wrap; signed 8-bit min/max use the signed order.
func.func @int_narrow() {
  %i = stablehlo.iota dim = 0 : tensor<100000xui32>
  %k = stablehlo.constant dense<100000> : tensor<100000xui32>
  %m0 = stablehlo.multiply %i, %k : tensor<100000xui32>
  %m = stablehlo.optimization_barrier %m0 : tensor<100000xui32>
  %z = stablehlo.constant dense<0> : tensor<ui32>
  %s = stablehlo.reduce(%m init: %z) applies stablehlo.add across dimensions = [0] : (tensor<100000xui32>, tensor<ui32>) -> tensor<ui32>
  // 100000 * 4999950000 mod 2^32
  check.expect_eq_const %s, dense<677203456> : tensor<ui32>
  %j = stablehlo.iota dim = 0 : tensor<1000xi32>
  %b0 = stablehlo.convert %j : (tensor<1000xi32>) -> tensor<1000xi8>
  %b = stablehlo.optimization_barrier %b0 : tensor<1000xi8>
  %zb = stablehlo.constant dense<0> : tensor<i8>
  %mn = stablehlo.reduce(%b init: %zb) applies stablehlo.minimum across dimensions = [0] : (tensor<1000xi8>, tensor<i8>) -> tensor<i8>
  check.expect_eq_const %mn, dense<-128> : tensor<i8>
  %mx = stablehlo.reduce(%b init: %zb) applies stablehlo.maximum across dimensions = [0] : (tensor<1000xi8>, tensor<i8>) -> tensor<i8>
  check.expect_eq_const %mx, dense<127> : tensor<i8>
  func.return
}

// -----

// Rows of a broadcast producer (softmax/layernorm shape): (x - mean)^2 with
// the per-row value broadcast; 64 rows of 3000 and 3 rows of 70000 (each
// row several blocks).
func.func @rows_broadcast() {
  %i = stablehlo.iota dim = 1 : tensor<64x3000xi32>
  %c3 = stablehlo.constant dense<3> : tensor<64x3000xi32>
  %m = stablehlo.remainder %i, %c3 : tensor<64x3000xi32>
  %x0 = stablehlo.convert %m : (tensor<64x3000xi32>) -> tensor<64x3000xf32>
  %r = stablehlo.iota dim = 0 : tensor<64xf32>
  %x, %row = stablehlo.optimization_barrier %x0, %r : tensor<64x3000xf32>, tensor<64xf32>
  %one = stablehlo.constant dense<1.0> : tensor<64xf32>
  %mean = stablehlo.multiply %one, %one : tensor<64xf32>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<64xf32>) -> tensor<64x3000xf32>
  %d = stablehlo.subtract %x, %mb : tensor<64x3000xf32>
  %sq = stablehlo.multiply %d, %d : tensor<64x3000xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [1] : (tensor<64x3000xf32>, tensor<f32>) -> tensor<64xf32>
  %want = stablehlo.constant dense<2000.0> : tensor<64xf32>
  check.expect_eq %s, %want : tensor<64xf32>
  // plus the row index times the row length
  %rb = stablehlo.broadcast_in_dim %row, dims = [0] : (tensor<64xf32>) -> tensor<64x3000xf32>
  %t = stablehlo.add %x, %rb : tensor<64x3000xf32>
  %s2 = stablehlo.reduce(%t init: %z) applies stablehlo.add across dimensions = [1] : (tensor<64x3000xf32>, tensor<f32>) -> tensor<64xf32>
  %n = stablehlo.constant dense<3000.0> : tensor<64xf32>
  %rn = stablehlo.multiply %row, %n : tensor<64xf32>
  %base = stablehlo.constant dense<3000.0> : tensor<64xf32>
  %want2 = stablehlo.add %rn, %base : tensor<64xf32>
  check.expect_eq %s2, %want2 : tensor<64xf32>
  func.return
}

// -----

func.func @long_rows() {
  %i = stablehlo.iota dim = 1 : tensor<3x70000xi32>
  %c5 = stablehlo.constant dense<5> : tensor<3x70000xi32>
  %m = stablehlo.remainder %i, %c5 : tensor<3x70000xi32>
  %x0 = stablehlo.convert %m : (tensor<3x70000xi32>) -> tensor<3x70000xf32>
  %b0 = stablehlo.constant dense<[0.0, 1.0, 2.0]> : tensor<3xf32>
  %x, %b = stablehlo.optimization_barrier %x0, %b0 : tensor<3x70000xf32>, tensor<3xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [0] : (tensor<3xf32>) -> tensor<3x70000xf32>
  %d = stablehlo.subtract %x, %bb : tensor<3x70000xf32>
  %q = stablehlo.multiply %d, %d : tensor<3x70000xf32>
  %init = stablehlo.constant dense<1.0> : tensor<f32>
  %s = stablehlo.reduce(%q init: %init) applies stablehlo.add across dimensions = [1] : (tensor<3x70000xf32>, tensor<f32>) -> tensor<3xf32>
  // per 5: b=0: 0+1+4+9+16 = 30; b=1: 1+0+1+4+9 = 15; b=2: 4+1+0+1+4 = 10
  check.expect_eq_const %s, dense<[420001.0, 210001.0, 140001.0]> : tensor<3xf32>
  func.return
}

// -----

// Sibling reductions of one input: sum and max, as from a softmax.
func.func @siblings() {
  %i = stablehlo.iota dim = 1 : tensor<8x1024xi32>
  %c16 = stablehlo.constant dense<16> : tensor<8x1024xi32>
  %m = stablehlo.remainder %i, %c16 : tensor<8x1024xi32>
  %x0 = stablehlo.convert %m : (tensor<8x1024xi32>) -> tensor<8x1024xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<8x1024xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %s, %mx = stablehlo.reduce(%x init: %z), (%x init: %ninf) across dimensions = [1] : (tensor<8x1024xf32>, tensor<8x1024xf32>, tensor<f32>, tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>)
    reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<f32>, %d: tensor<f32>) {
      %p = stablehlo.add %a, %c : tensor<f32>
      %q = stablehlo.maximum %b, %d : tensor<f32>
      stablehlo.return %p, %q : tensor<f32>, tensor<f32>
    }
  check.expect_eq_const %s, dense<7680.0> : tensor<8xf32>
  check.expect_eq_const %mx, dense<15.0> : tensor<8xf32>
  %s1 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x1024xf32>, tensor<f32>) -> tensor<8xf32>
  %mx1 = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<8x1024xf32>, tensor<f32>) -> tensor<8xf32>
  check.expect_eq_const %s1, dense<7680.0> : tensor<8xf32>
  check.expect_eq_const %mx1, dense<15.0> : tensor<8xf32>
  func.return
}

// -----

// Several reduced dims, the innermost contiguous: [2, 40, 3, 50] over {1, 3}.
func.func @two_reduced_dims() {
  %i = stablehlo.iota dim = 3 : tensor<2x40x3x50xi32>
  %j = stablehlo.iota dim = 2 : tensor<2x40x3x50xi32>
  %s0 = stablehlo.add %i, %j : tensor<2x40x3x50xi32>
  %s = stablehlo.optimization_barrier %s0 : tensor<2x40x3x50xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %t = stablehlo.transpose %s, dims = [0, 2, 1, 3] : (tensor<2x40x3x50xi32>) -> tensor<2x3x40x50xi32>
  %r = stablehlo.reduce(%t init: %z) applies stablehlo.add across dimensions = [2, 3] : (tensor<2x3x40x50xi32>, tensor<i32>) -> tensor<2x3xi32>
  // 40 * (1225 + 50 j)
  check.expect_eq_const %r, dense<[[49000, 51000, 53000], [49000, 51000, 53000]]> : tensor<2x3xi32>
  func.return
}
