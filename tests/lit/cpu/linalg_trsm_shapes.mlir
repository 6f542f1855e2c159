// RUN: xlac run --split-input-file %s
// triangular_solve on edge shapes (1x1, empty matrices, empty batches, a
// right-hand side with no columns) and on systems large enough for the
// blocked solve (m >= 128) or for splitting the right-hand side's columns;
// the large ones check the residual op(A) X - B.  The barriers keep the
// operands from being folded.

func.func @trsm_1x1() {
  %a0 = stablehlo.constant dense<[[[4.0]], [[-0.5]]]> : tensor<2x1x1xf32>
  %b0 = stablehlo.constant dense<[[[2.0, 8.0]], [[1.0, 3.0]]]> : tensor<2x1x2xf32>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<2x1x1xf32>, tensor<2x1x2xf32>
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false,
        transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x1x1xf32>, tensor<2x1x2xf32>) -> tensor<2x1x2xf32>
  check.expect_eq_const %x, dense<[[[0.5, 2.0]], [[-2.0, -6.0]]]> : tensor<2x1x2xf32>
  %u = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = false, unit_diagonal = true,
        transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<2x1x1xf32>, tensor<2x1x2xf32>) -> tensor<2x1x2xf32>
  check.expect_eq %u, %b : tensor<2x1x2xf32>
  func.return
}

// -----

func.func @trsm_empty() {
  %a0 = stablehlo.constant dense<> : tensor<0x0xf64>
  %b0 = stablehlo.constant dense<> : tensor<0x3xf64>
  %c0 = stablehlo.constant dense<[[(2.0, 0.0), (0.0, 0.0)], [(1.0, 1.0), (4.0, 0.0)]]> : tensor<2x2xcomplex<f32>>
  %d0 = stablehlo.constant dense<> : tensor<2x0xcomplex<f32>>
  %e0 = stablehlo.constant dense<> : tensor<0x2x2xf32>
  %f0 = stablehlo.constant dense<> : tensor<0x5x2xf32>
  %a, %b, %c, %d, %e, %f = stablehlo.optimization_barrier %a0, %b0, %c0, %d0, %e0, %f0 : tensor<0x0xf64>, tensor<0x3xf64>, tensor<2x2xcomplex<f32>>, tensor<2x0xcomplex<f32>>, tensor<0x2x2xf32>, tensor<0x5x2xf32>
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false,
        transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<0x0xf64>, tensor<0x3xf64>) -> tensor<0x3xf64>
  check.expect_eq_const %x, dense<> : tensor<0x3xf64>
  %y = "stablehlo.triangular_solve"(%c, %d) {left_side = true, lower = true, unit_diagonal = false,
        transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<2x2xcomplex<f32>>, tensor<2x0xcomplex<f32>>) -> tensor<2x0xcomplex<f32>>
  check.expect_eq_const %y, dense<> : tensor<2x0xcomplex<f32>>
  %z = "stablehlo.triangular_solve"(%e, %f) {left_side = false, lower = false, unit_diagonal = false,
        transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<0x2x2xf32>, tensor<0x5x2xf32>) -> tensor<0x5x2xf32>
  check.expect_eq_const %z, dense<> : tensor<0x5x2xf32>
  func.return
}

// -----

// A zero pivot divides by zero: infinities and NaNs, as in the interpreter.
func.func @trsm_singular() {
  %a0 = stablehlo.constant dense<[[0.0, 0.0], [1.0, 2.0]]> : tensor<2x2xf32>
  %b0 = stablehlo.constant dense<[[1.0, 0.0], [1.0, 1.0]]> : tensor<2x2xf32>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<2x2xf32>, tensor<2x2xf32>
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false,
        transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %x, dense<[[0x7F800000, 0x7FC00000], [0xFF800000, 0x7FC00000]]> : tensor<2x2xf32>
  func.return
}

// -----

// Blocked solves (m = 150): T has a diagonal of about 2 and small entries
// elsewhere, so every system is well conditioned.
func.func @trsm_blocked_f32() {
  %i = stablehlo.iota dim = 0 : tensor<150x150xf32>
  %j = stablehlo.iota dim = 1 : tensor<150x150xf32>
  %s = stablehlo.constant dense<0.003> : tensor<150x150xf32>
  %c = stablehlo.constant dense<0.71> : tensor<150x150xf32>
  %t0 = stablehlo.multiply %i, %c : tensor<150x150xf32>
  %t1 = stablehlo.add %t0, %j : tensor<150x150xf32>
  %t2 = stablehlo.sine %t1 : tensor<150x150xf32>
  %off = stablehlo.multiply %t2, %s : tensor<150x150xf32>
  %two = stablehlo.constant dense<2.0> : tensor<150x150xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<150x150xf32>
  %diag = stablehlo.add %two, %t2 : tensor<150x150xf32>
  %eye = stablehlo.compare EQ, %i, %j : (tensor<150x150xf32>, tensor<150x150xf32>) -> tensor<150x150xi1>
  %full = stablehlo.select %eye, %diag, %off : tensor<150x150xi1>, tensor<150x150xf32>
  %isl = stablehlo.compare GE, %i, %j : (tensor<150x150xf32>, tensor<150x150xf32>) -> tensor<150x150xi1>
  %lo = stablehlo.select %isl, %full, %zero : tensor<150x150xi1>, tensor<150x150xf32>
  %isu = stablehlo.compare LE, %i, %j : (tensor<150x150xf32>, tensor<150x150xf32>) -> tensor<150x150xi1>
  %up = stablehlo.select %isu, %full, %zero : tensor<150x150xi1>, tensor<150x150xf32>
  %bi = stablehlo.iota dim = 0 : tensor<150x70xf32>
  %bj = stablehlo.iota dim = 1 : tensor<150x70xf32>
  %bs = stablehlo.add %bi, %bj : tensor<150x70xf32>
  %b0 = stablehlo.cosine %bs : tensor<150x70xf32>
  %a, %b = stablehlo.optimization_barrier %full, %b0 : tensor<150x150xf32>, tensor<150x70xf32>
  // lower, left: L X = B
  %x1 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false,
        transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<150x150xf32>, tensor<150x70xf32>) -> tensor<150x70xf32>
  %r1 = stablehlo.dot_general %lo, %x1, contracting_dims = [1] x [0] : (tensor<150x150xf32>, tensor<150x70xf32>) -> tensor<150x70xf32>
  check.expect_almost_eq %r1, %b, tolerance = 1.0e-5 : tensor<150x70xf32>
  // upper, left, transposed: U^T X = B
  %x2 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = false, unit_diagonal = false,
        transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<150x150xf32>, tensor<150x70xf32>) -> tensor<150x70xf32>
  %r2 = stablehlo.dot_general %up, %x2, contracting_dims = [0] x [0] : (tensor<150x150xf32>, tensor<150x70xf32>) -> tensor<150x70xf32>
  check.expect_almost_eq %r2, %b, tolerance = 1.0e-5 : tensor<150x70xf32>
  // right side: X U = C with C = B^T
  %ct = stablehlo.transpose %b, dims = [1, 0] : (tensor<150x70xf32>) -> tensor<70x150xf32>
  %x3 = "stablehlo.triangular_solve"(%a, %ct) {left_side = false, lower = false, unit_diagonal = false,
        transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<150x150xf32>, tensor<70x150xf32>) -> tensor<70x150xf32>
  %r3 = stablehlo.dot_general %x3, %up, contracting_dims = [1] x [0] : (tensor<70x150xf32>, tensor<150x150xf32>) -> tensor<70x150xf32>
  check.expect_almost_eq %r3, %ct, tolerance = 1.0e-5 : tensor<70x150xf32>
  // right side, lower, transposed: X L^T = C
  %x4 = "stablehlo.triangular_solve"(%a, %ct) {left_side = false, lower = true, unit_diagonal = false,
        transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<150x150xf32>, tensor<70x150xf32>) -> tensor<70x150xf32>
  %r4 = stablehlo.dot_general %x4, %lo, contracting_dims = [1] x [1] : (tensor<70x150xf32>, tensor<150x150xf32>) -> tensor<70x150xf32>
  check.expect_almost_eq %r4, %ct, tolerance = 1.0e-5 : tensor<70x150xf32>
  func.return
}

// -----

// Many right-hand sides on a small complex system (columns split in
// chunks), batched.
func.func @trsm_wide_complex() {
  %a0 = stablehlo.constant dense<[[[(2.0, 1.0), (9.0, 9.0), (9.0, 9.0)], [(0.5, -0.5), (3.0, 0.0), (9.0, 9.0)], [(0.25, 1.0), (-1.0, 0.5), (1.5, -2.0)]],
                                  [[(1.0, 0.0), (9.0, 9.0), (9.0, 9.0)], [(0.0, 1.0), (2.0, 2.0), (9.0, 9.0)], [(1.0, 1.0), (1.0, -1.0), (4.0, 0.0)]]]> : tensor<2x3x3xcomplex<f64>>
  %re = stablehlo.iota dim = 2 : tensor<2x3x200xf64>
  %im = stablehlo.iota dim = 1 : tensor<2x3x200xf64>
  %k = stablehlo.constant dense<0.01> : tensor<2x3x200xf64>
  %re2 = stablehlo.multiply %re, %k : tensor<2x3x200xf64>
  %b0 = stablehlo.complex %re2, %im : tensor<2x3x200xcomplex<f64>>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<2x3x3xcomplex<f64>>, tensor<2x3x200xcomplex<f64>>
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false,
        transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x3x3xcomplex<f64>>, tensor<2x3x200xcomplex<f64>>) -> tensor<2x3x200xcomplex<f64>>
  %ii = stablehlo.iota dim = 1 : tensor<2x3x3xi32>
  %jj = stablehlo.iota dim = 2 : tensor<2x3x3xi32>
  %isl = stablehlo.compare GE, %ii, %jj : (tensor<2x3x3xi32>, tensor<2x3x3xi32>) -> tensor<2x3x3xi1>
  %zero = stablehlo.constant dense<(0.0, 0.0)> : tensor<2x3x3xcomplex<f64>>
  %lo = stablehlo.select %isl, %a, %zero : tensor<2x3x3xi1>, tensor<2x3x3xcomplex<f64>>
  %r = stablehlo.dot_general %lo, %x, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x3xcomplex<f64>>, tensor<2x3x200xcomplex<f64>>) -> tensor<2x3x200xcomplex<f64>>
  check.expect_almost_eq %r, %b, tolerance = 1.0e-12 : tensor<2x3x200xcomplex<f64>>
  func.return
}
