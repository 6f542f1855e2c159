// RUN: xlac run --split-input-file %s
// cholesky: lower and upper, junk in the triangle the op does not read,
// the other triangle of the result zero, batches, complex, NaNs from a
// matrix that is not positive definite, 1x1 and empty shapes, and matrices
// large enough for the blocked factorization (n >= 128).  The barriers keep
// the operands from being folded.

func.func @cholesky_spec_lower_upper_f32() {
  // the unread triangle holds junk (99)
  %a0 = stablehlo.constant dense<[[1.0, 99.0, 99.0], [2.0, 20.0, 99.0], [3.0, 26.0, 70.0]]> : tensor<3x3xf32>
  %u0 = stablehlo.constant dense<[[1.0, 2.0, 3.0], [-9.0, 20.0, 26.0], [-9.0, -9.0, 70.0]]> : tensor<3x3xf32>
  %a, %u = stablehlo.optimization_barrier %a0, %u0 : tensor<3x3xf32>, tensor<3x3xf32>
  %l = "stablehlo.cholesky"(%a) {lower = true} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  check.expect_eq_const %l, dense<[[1.0, 0.0, 0.0], [2.0, 4.0, 0.0], [3.0, 5.0, 6.0]]> : tensor<3x3xf32>
  %r = "stablehlo.cholesky"(%u) {lower = false} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  check.expect_eq_const %r, dense<[[1.0, 2.0, 3.0], [0.0, 4.0, 5.0], [0.0, 0.0, 6.0]]> : tensor<3x3xf32>
  func.return
}

// -----

func.func @cholesky_batched_f64() {
  %a0 = stablehlo.constant dense<[[[4.0, 2.0], [2.0, 10.0]], [[9.0, -3.0], [-3.0, 5.0]], [[0.25, 0.0], [0.0, 16.0]]]> : tensor<3x2x2xf64>
  %a = stablehlo.optimization_barrier %a0 : tensor<3x2x2xf64>
  %l = "stablehlo.cholesky"(%a) {lower = true} : (tensor<3x2x2xf64>) -> tensor<3x2x2xf64>
  check.expect_almost_eq_const %l, dense<[[[2.0, 0.0], [1.0, 3.0]], [[3.0, 0.0], [-1.0, 2.0]], [[0.5, 0.0], [0.0, 4.0]]]> : tensor<3x2x2xf64>
  %u = "stablehlo.cholesky"(%a) {lower = false} : (tensor<3x2x2xf64>) -> tensor<3x2x2xf64>
  check.expect_almost_eq_const %u, dense<[[[2.0, 1.0], [0.0, 3.0]], [[3.0, -1.0], [0.0, 2.0]], [[0.5, 0.0], [0.0, 4.0]]]> : tensor<3x2x2xf64>
  func.return
}

// -----

// [[4, 2i], [-2i, 5]] = L L^H with L = [[2, 0], [-i, 2]]; the upper factor
// is L^H = [[2, i], [0, 2]].  The imaginary part of the diagonal is ignored.
func.func @cholesky_complex_lower_upper() {
  %a0 = stablehlo.constant dense<[[[(4.0, 0.5), (7.0, 7.0)], [(0.0, -2.0), (5.0, 0.0)]],
                                  [[(9.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (1.0, 0.0)]]]> : tensor<2x2x2xcomplex<f64>>
  %u0 = stablehlo.constant dense<[[[(4.0, 0.0), (0.0, 2.0)], [(7.0, 7.0), (5.0, 0.0)]],
                                  [[(9.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (1.0, 0.0)]]]> : tensor<2x2x2xcomplex<f32>>
  %a = stablehlo.optimization_barrier %a0 : tensor<2x2x2xcomplex<f64>>
  %u = stablehlo.optimization_barrier %u0 : tensor<2x2x2xcomplex<f32>>
  %l = "stablehlo.cholesky"(%a) {lower = true} : (tensor<2x2x2xcomplex<f64>>) -> tensor<2x2x2xcomplex<f64>>
  check.expect_almost_eq_const %l, dense<[[[(2.0, 0.0), (0.0, 0.0)], [(0.0, -1.0), (2.0, 0.0)]],
                                          [[(3.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (1.0, 0.0)]]]> : tensor<2x2x2xcomplex<f64>>
  %r = "stablehlo.cholesky"(%u) {lower = false} : (tensor<2x2x2xcomplex<f32>>) -> tensor<2x2x2xcomplex<f32>>
  check.expect_almost_eq_const %r, dense<[[[(2.0, 0.0), (0.0, 1.0)], [(0.0, 0.0), (2.0, 0.0)]],
                                          [[(3.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (1.0, 0.0)]]]> : tensor<2x2x2xcomplex<f32>>
  func.return
}

// -----

// Not positive definite: the pivot of row 1 is 1 - 4 < 0, so it and every
// entry computed from it is NaN; row 0 is unaffected.
func.func @cholesky_not_positive_definite() {
  %a0 = stablehlo.constant dense<[[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 4.0]]> : tensor<3x3xf32>
  %c0 = stablehlo.constant dense<[[(-1.0, 0.0), (0.0, 0.0)], [(1.0, 1.0), (2.0, 0.0)]]> : tensor<2x2xcomplex<f64>>
  %a, %c = stablehlo.optimization_barrier %a0, %c0 : tensor<3x3xf32>, tensor<2x2xcomplex<f64>>
  %l = "stablehlo.cholesky"(%a) {lower = true} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  check.expect_almost_eq_const %l, dense<[[1.0, 0.0, 0.0], [2.0, 0x7FC00000, 0.0], [0.0, 0x7FC00000, 0x7FC00000]]> : tensor<3x3xf32>
  %u = "stablehlo.cholesky"(%a) {lower = false} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  check.expect_almost_eq_const %u, dense<[[1.0, 2.0, 0.0], [0.0, 0x7FC00000, 0x7FC00000], [0.0, 0.0, 0x7FC00000]]> : tensor<3x3xf32>
  %lc = "stablehlo.cholesky"(%c) {lower = true} : (tensor<2x2xcomplex<f64>>) -> tensor<2x2xcomplex<f64>>
  %re = stablehlo.real %lc : (tensor<2x2xcomplex<f64>>) -> tensor<2x2xf64>
  %isnan = stablehlo.compare NE, %re, %re : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xi1>
  check.expect_eq_const %isnan, dense<[[true, false], [true, true]]> : tensor<2x2xi1>
  func.return
}

// -----

func.func @cholesky_1x1_and_empty() {
  %a0 = stablehlo.constant dense<[[[4.0]], [[0.0]], [[-1.0]]]> : tensor<3x1x1xf32>
  %e0 = stablehlo.constant dense<> : tensor<2x0x0xf64>
  %z0 = stablehlo.constant dense<> : tensor<0x3x3xcomplex<f32>>
  %a, %e, %z = stablehlo.optimization_barrier %a0, %e0, %z0 : tensor<3x1x1xf32>, tensor<2x0x0xf64>, tensor<0x3x3xcomplex<f32>>
  %l = "stablehlo.cholesky"(%a) {lower = true} : (tensor<3x1x1xf32>) -> tensor<3x1x1xf32>
  check.expect_almost_eq_const %l, dense<[[[2.0]], [[0.0]], [[0x7FC00000]]]> : tensor<3x1x1xf32>
  %le = "stablehlo.cholesky"(%e) {lower = false} : (tensor<2x0x0xf64>) -> tensor<2x0x0xf64>
  check.expect_eq_const %le, dense<> : tensor<2x0x0xf64>
  %lz = "stablehlo.cholesky"(%z) {lower = true} : (tensor<0x3x3xcomplex<f32>>) -> tensor<0x3x3xcomplex<f32>>
  check.expect_eq_const %lz, dense<> : tensor<0x3x3xcomplex<f32>>
  func.return
}

// -----

// Blocked path: A = B B^T + n I for a 160x160 B of sines; L L^T must give
// A back, and the strictly upper triangle of L must be exactly zero.
func.func @cholesky_blocked_f32() {
  %i = stablehlo.iota dim = 0 : tensor<160x160xf32>
  %j = stablehlo.iota dim = 1 : tensor<160x160xf32>
  %c7 = stablehlo.constant dense<0.37> : tensor<160x160xf32>
  %t = stablehlo.multiply %i, %c7 : tensor<160x160xf32>
  %t2 = stablehlo.add %t, %j : tensor<160x160xf32>
  %b = stablehlo.sine %t2 : tensor<160x160xf32>
  %bbt = stablehlo.dot_general %b, %b, contracting_dims = [1] x [1] : (tensor<160x160xf32>, tensor<160x160xf32>) -> tensor<160x160xf32>
  %eye = stablehlo.compare EQ, %i, %j : (tensor<160x160xf32>, tensor<160x160xf32>) -> tensor<160x160xi1>
  %n = stablehlo.constant dense<160.0> : tensor<160x160xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<160x160xf32>
  %d = stablehlo.select %eye, %n, %zero : tensor<160x160xi1>, tensor<160x160xf32>
  %a0 = stablehlo.add %bbt, %d : tensor<160x160xf32>
  %a = stablehlo.optimization_barrier %a0 : tensor<160x160xf32>
  %l = "stablehlo.cholesky"(%a) {lower = true} : (tensor<160x160xf32>) -> tensor<160x160xf32>
  %llt = stablehlo.dot_general %l, %l, contracting_dims = [1] x [1] : (tensor<160x160xf32>, tensor<160x160xf32>) -> tensor<160x160xf32>
  check.expect_almost_eq %llt, %a, tolerance = 2.0e-3 : tensor<160x160xf32>
  %above = stablehlo.compare GT, %j, %i : (tensor<160x160xf32>, tensor<160x160xf32>) -> tensor<160x160xi1>
  %lu = stablehlo.select %above, %l, %zero : tensor<160x160xi1>, tensor<160x160xf32>
  check.expect_eq %lu, %zero : tensor<160x160xf32>
  %u = "stablehlo.cholesky"(%a) {lower = false} : (tensor<160x160xf32>) -> tensor<160x160xf32>
  %utu = stablehlo.dot_general %u, %u, contracting_dims = [0] x [0] : (tensor<160x160xf32>, tensor<160x160xf32>) -> tensor<160x160xf32>
  check.expect_almost_eq %utu, %a, tolerance = 2.0e-3 : tensor<160x160xf32>
  %lt = stablehlo.transpose %l, dims = [1, 0] : (tensor<160x160xf32>) -> tensor<160x160xf32>
  check.expect_almost_eq %u, %lt, tolerance = 1.0e-5 : tensor<160x160xf32>
  func.return
}

// -----

// Blocked path, batched f64: two 130x130 matrices.
func.func @cholesky_blocked_batched_f64() {
  %k = stablehlo.iota dim = 0 : tensor<2x130x130xf64>
  %i = stablehlo.iota dim = 1 : tensor<2x130x130xf64>
  %j = stablehlo.iota dim = 2 : tensor<2x130x130xf64>
  %c = stablehlo.constant dense<0.61> : tensor<2x130x130xf64>
  %t = stablehlo.multiply %i, %c : tensor<2x130x130xf64>
  %t2 = stablehlo.add %t, %j : tensor<2x130x130xf64>
  %t3 = stablehlo.add %t2, %k : tensor<2x130x130xf64>
  %b = stablehlo.cosine %t3 : tensor<2x130x130xf64>
  %bbt = stablehlo.dot_general %b, %b, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x130x130xf64>, tensor<2x130x130xf64>) -> tensor<2x130x130xf64>
  %eye = stablehlo.compare EQ, %i, %j : (tensor<2x130x130xf64>, tensor<2x130x130xf64>) -> tensor<2x130x130xi1>
  %n = stablehlo.constant dense<1.0> : tensor<2x130x130xf64>
  %zero = stablehlo.constant dense<0.0> : tensor<2x130x130xf64>
  %d = stablehlo.select %eye, %n, %zero : tensor<2x130x130xi1>, tensor<2x130x130xf64>
  %a0 = stablehlo.add %bbt, %d : tensor<2x130x130xf64>
  %a = stablehlo.optimization_barrier %a0 : tensor<2x130x130xf64>
  %l = "stablehlo.cholesky"(%a) {lower = true} : (tensor<2x130x130xf64>) -> tensor<2x130x130xf64>
  %llt = stablehlo.dot_general %l, %l, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x130x130xf64>, tensor<2x130x130xf64>) -> tensor<2x130x130xf64>
  check.expect_almost_eq %llt, %a, tolerance = 1.0e-10 : tensor<2x130x130xf64>
  func.return
}
