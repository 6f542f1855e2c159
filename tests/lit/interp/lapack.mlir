// The LAPACK custom calls of JAX's CPU lowerings (interp/lapack.c), with
// the attributes and layouts JAX gives them, on matrices whose results
// were worked out by hand; the suite runs this file on the interpreter and
// compiled.  Reconstructions of random matrices are in
// tests/unit/test_lapack.c, comparisons with JAX's CPU backend in
// plugins/jax/tests/test_linalg.py.
// RUN: xlac run %s
// RUN: not xlac run --random-inputs %S/lapack_bad.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: custom_call @lapack_sgeev_ffi takes a square matrix
func.func @main() {
  // geev: a rotation by 90 degrees beside 2: eigenvalues i, -i, 2, unit
  // eigenvectors (1, -i)/sqrt(2), their conjugate, e3; left ones the same
  %a = stablehlo.constant dense<[[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 2.0]]> : tensor<3x3xf32>
  %e:5 = stablehlo.custom_call @lapack_sgeev_ffi(%a) {mhlo.backend_config = {compute_left = 86 : ui8, compute_right = 86 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<3x3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<i32>)
  check.expect_almost_eq_const %e#0, dense<[0.0, 0.0, 2.0]> : tensor<3xf32>
  check.expect_almost_eq_const %e#1, dense<[1.0, -1.0, 0.0]> : tensor<3xf32>
  check.expect_almost_eq_const %e#3, dense<[[(0.70710678, 0.0), (0.70710678, 0.0), (0.0, 0.0)], [(0.0, -0.70710678), (0.0, 0.70710678), (0.0, 0.0)], [(0.0, 0.0), (0.0, 0.0), (1.0, 0.0)]]> : tensor<3x3xcomplex<f32>>
  check.expect_almost_eq_const %e#2, dense<[[(0.70710678, 0.0), (0.70710678, 0.0), (0.0, 0.0)], [(0.0, -0.70710678), (0.0, 0.70710678), (0.0, 0.0)], [(0.0, 0.0), (0.0, 0.0), (1.0, 0.0)]]> : tensor<3x3xcomplex<f32>>
  check.expect_eq_const %e#4, dense<0> : tensor<i32>
  // a batch of two complex diagonal matrices, eigenvalues only; then NaN: info != 0
  %z = stablehlo.constant dense<[[[(1.0, 1.0), (0.0, 0.0)], [(0.0, 0.0), (2.0, 0.0)]], [[(3.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (0.0, -4.0)]]]> : tensor<2x2x2xcomplex<f64>>
  %zr:4 = stablehlo.custom_call @lapack_zgeev_ffi(%z) {mhlo.backend_config = {compute_left = 78 : ui8, compute_right = 78 : ui8}} : (tensor<2x2x2xcomplex<f64>>) -> (tensor<2x2xcomplex<f64>>, tensor<2x2x2xcomplex<f64>>, tensor<2x2x2xcomplex<f64>>, tensor<2xi32>)
  check.expect_almost_eq_const %zr#0, dense<[[(1.0, 1.0), (2.0, 0.0)], [(3.0, 0.0), (0.0, -4.0)]]> : tensor<2x2xcomplex<f64>>
  check.expect_eq_const %zr#3, dense<0> : tensor<2xi32>
  %nan = stablehlo.constant dense<[[0x7FC00000, 1.0], [0.0, 1.0]]> : tensor<2x2xf32>
  %nr:5 = stablehlo.custom_call @lapack_sgeev_ffi(%nan) {mhlo.backend_config = {compute_left = 78 : ui8, compute_right = 86 : ui8}} : (tensor<2x2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>, tensor<i32>)
  check.expect_eq_const %nr#4, dense<1> : tensor<i32>

  // gees: [[1, 2], [0, 3]] is its own Schur form, Z = I
  %t = stablehlo.constant dense<[[1.0, 2.0], [0.0, 3.0]]> : tensor<2x2xf64>
  %s:6 = stablehlo.custom_call @lapack_dgees_ffi(%t) {mhlo.backend_config = {mode = 86 : ui8, sort = 78 : ui8}} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<i32>, tensor<i32>)
  check.expect_almost_eq_const %s#0, dense<[[1.0, 2.0], [0.0, 3.0]]> : tensor<2x2xf64>
  check.expect_almost_eq_const %s#1, dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf64>
  check.expect_almost_eq_const %s#2, dense<[1.0, 3.0]> : tensor<2xf64>
  check.expect_eq_const %s#5, dense<0> : tensor<i32>
  // a rotation scaled by 2 is a standardized 2x2 block: eigenvalues 2i, -2i
  %rot = stablehlo.constant dense<[[0.0, -2.0], [2.0, 0.0]]> : tensor<2x2xf32>
  %rs:6 = stablehlo.custom_call @lapack_sgees_ffi(%rot) {mhlo.backend_config = {mode = 78 : ui8, sort = 78 : ui8}} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<i32>, tensor<i32>)
  check.expect_almost_eq_const %rs#0, dense<[[0.0, -2.0], [2.0, 0.0]]> : tensor<2x2xf32>
  check.expect_almost_eq_const %rs#3, dense<[2.0, -2.0]> : tensor<2xf32>

  // gehrd: column 0 below the subdiagonal is (3, 4): beta -5, tau 1.6,
  // v = (1, 0.5); the identity block is left as it is
  %h = stablehlo.constant dense<[[1.0, 0.0, 0.0], [3.0, 1.0, 0.0], [4.0, 0.0, 1.0]]> : tensor<3x3xf32>
  %hr:3 = stablehlo.custom_call @lapack_sgehrd_ffi(%h) {mhlo.backend_config = {high = 3 : i32, low = 1 : i32}} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<2xf32>, tensor<i32>)
  check.expect_almost_eq_const %hr#0, dense<[[1.0, 0.0, 0.0], [-5.0, 1.0, 0.0], [0.5, 0.0, 1.0]]> : tensor<3x3xf32>
  check.expect_almost_eq_const %hr#1, dense<[1.6, 0.0]> : tensor<2xf32>

  // geqp3: column 3 (norm 5) first, then column 1; R_00 = -5
  %q = stablehlo.constant dense<[[1.0, 0.0, 3.0], [0.0, 1.0, 4.0], [0.0, 0.0, 0.0]]> : tensor<3x3xf64>
  %p0 = stablehlo.constant dense<0> : tensor<3xi32>
  %qr:3 = stablehlo.custom_call @lapack_dgeqp3_ffi(%q, %p0) {mhlo.backend_config = {}} : (tensor<3x3xf64>, tensor<3xi32>) -> (tensor<3x3xf64>, tensor<3xi32>, tensor<3xf64>)
  check.expect_eq_const %qr#1, dense<[3, 1, 2]> : tensor<3xi32>
  %r00 = stablehlo.slice %qr#0 [0:1, 0:1] : (tensor<3x3xf64>) -> tensor<1x1xf64>
  check.expect_almost_eq_const %r00, dense<-5.0> : tensor<1x1xf64>

  // sytrd (lower): the same reflector as gehrd's; d = 1, e = (-5, 0)
  %y = stablehlo.constant dense<[[1.0, 9.0, 9.0], [3.0, 1.0, 9.0], [4.0, 0.0, 1.0]]> : tensor<3x3xf32>
  %yr:5 = stablehlo.custom_call @lapack_ssytrd_ffi(%y) {mhlo.backend_config = {uplo = 76 : ui8}} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<i32>)
  check.expect_almost_eq_const %yr#0, dense<[[1.0, 9.0, 9.0], [-5.0, 1.0, 9.0], [0.5, 0.0, 1.0]]> : tensor<3x3xf32>
  check.expect_almost_eq_const %yr#1, dense<[1.0, 1.0, 1.0]> : tensor<3xf32>
  check.expect_almost_eq_const %yr#2, dense<[-5.0, 0.0]> : tensor<2xf32>
  check.expect_almost_eq_const %yr#3, dense<[1.6, 0.0]> : tensor<2xf32>

  // gtsv: a system that needs pivoting (JAX's test), and a zero one (info 1)
  %dl = stablehlo.constant dense<[0.0, 2.0, -2.0, 3.0]> : tensor<4xf32>
  %d = stablehlo.constant dense<[1.0, 4.0, 1.0, -1.0]> : tensor<4xf32>
  %du = stablehlo.constant dense<[2.0, -1.0, 1.0, 0.0]> : tensor<4xf32>
  %b = stablehlo.constant dense<[[1.0], [2.0], [3.0], [4.0]]> : tensor<4x1xf32>
  %g:5 = stablehlo.custom_call @lapack_sgtsv_ffi(%dl, %d, %du, %b) {mhlo.backend_config = {}} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x1xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x1xf32>, tensor<i32>)
  check.expect_almost_eq_const %g#3, dense<[[8.0], [-3.5], [0.0], [-4.0]]> : tensor<4x1xf32>
  check.expect_eq_const %g#4, dense<0> : tensor<i32>
  %gp = stablehlo.custom_call @tridiagonal_solve_perturbed_ffi(%dl, %d, %du, %b) {mhlo.backend_config = {}} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  check.expect_almost_eq_const %gp, dense<[[8.0], [-3.5], [0.0], [-4.0]]> : tensor<4x1xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<3xf32>
  %ones = stablehlo.constant dense<1.0> : tensor<3x1xf32>
  %g0:5 = stablehlo.custom_call @lapack_sgtsv_ffi(%zero, %zero, %zero, %ones) {mhlo.backend_config = {}} : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x1xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x1xf32>, tensor<i32>)
  check.expect_eq_const %g0#4, dense<1> : tensor<i32>
  // perturbed, the zero system's pivots become eps: x = 1 / eps
  %gz = stablehlo.custom_call @tridiagonal_solve_perturbed_ffi(%zero, %zero, %zero, %ones) : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  check.expect_almost_eq_const %gz, dense<8388608.0> : tensor<3x1xf32>

  // gesdd / gesvd: diag(3, -4) has singular values 4, 3; U S V^T rebuilds it
  %m = stablehlo.constant dense<[[3.0, 0.0], [0.0, -4.0]]> : tensor<2x2xf32>
  %v:5 = stablehlo.custom_call @lapack_sgesdd_ffi(%m) {mhlo.backend_config = {mode = 65 : ui8}} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<i32>)
  check.expect_almost_eq_const %v#1, dense<[4.0, 3.0]> : tensor<2xf32>
  %sb = stablehlo.broadcast_in_dim %v#1, dims = [1] : (tensor<2xf32>) -> tensor<2x2xf32>
  %us = stablehlo.multiply %v#2, %sb : tensor<2x2xf32>
  %rec = stablehlo.dot_general %us, %v#3, contracting_dims = [1] x [0] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %rec, dense<[[3.0, 0.0], [0.0, -4.0]]> : tensor<2x2xf32>
  // a wide complex matrix, thin: rows (1, 0, 0) and (0, 2i, 0)
  %w = stablehlo.constant dense<[[(1.0, 0.0), (0.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (0.0, 2.0), (0.0, 0.0)]]> : tensor<2x3xcomplex<f64>>
  %wv:5 = stablehlo.custom_call @lapack_zgesvd_ffi(%w) {mhlo.backend_config = {mode = 83 : ui8}} : (tensor<2x3xcomplex<f64>>) -> (tensor<2x3xcomplex<f64>>, tensor<2xf64>, tensor<2x2xcomplex<f64>>, tensor<2x3xcomplex<f64>>, tensor<i32>)
  check.expect_almost_eq_const %wv#1, dense<[2.0, 1.0]> : tensor<2xf64>
  %ws = stablehlo.convert %wv#1 : (tensor<2xf64>) -> tensor<2xcomplex<f64>>
  %wsb = stablehlo.broadcast_in_dim %ws, dims = [1] : (tensor<2xcomplex<f64>>) -> tensor<2x2xcomplex<f64>>
  %wus = stablehlo.multiply %wv#2, %wsb : tensor<2x2xcomplex<f64>>
  %wrec = stablehlo.dot_general %wus, %wv#3, contracting_dims = [1] x [0] : (tensor<2x2xcomplex<f64>>, tensor<2x3xcomplex<f64>>) -> tensor<2x3xcomplex<f64>>
  check.expect_almost_eq_const %wrec, dense<[[(1.0, 0.0), (0.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (0.0, 2.0), (0.0, 0.0)]]> : tensor<2x3xcomplex<f64>>

  // getrf: [[1, 2], [3, 4]] takes row 2 first: U = [[3, 4], [0, 2/3]],
  // L's multiplier 1/3, pivots (2, 2); a batch with a singular member
  // (U(1, 1) = 0: info 2) and a complex one
  %l = stablehlo.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [2.0, 4.0]]]> : tensor<2x2x2xf32>
  %lu:3 = stablehlo.custom_call @lapack_sgetrf_ffi(%l) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x2x2xf32>) -> (tensor<2x2x2xf32>, tensor<2x2xi32>, tensor<2xi32>)
  check.expect_almost_eq_const %lu#0, dense<[[[3.0, 4.0], [0.33333333, 0.66666667]], [[2.0, 4.0], [0.5, 0.0]]]> : tensor<2x2x2xf32>
  check.expect_eq_const %lu#1, dense<[[2, 2], [2, 2]]> : tensor<2x2xi32>
  check.expect_eq_const %lu#2, dense<[0, 2]> : tensor<2xi32>
  %lc = stablehlo.constant dense<[[(0.0, 1.0), (1.0, 0.0)], [(0.0, 2.0), (0.0, 0.0)]]> : tensor<2x2xcomplex<f64>>
  %lcu:3 = stablehlo.custom_call @lapack_zgetrf_ffi(%lc) {mhlo.backend_config = {}} : (tensor<2x2xcomplex<f64>>) -> (tensor<2x2xcomplex<f64>>, tensor<2xi32>, tensor<i32>)
  check.expect_almost_eq_const %lcu#0, dense<[[(0.0, 2.0), (0.0, 0.0)], [(0.5, 0.0), (1.0, 0.0)]]> : tensor<2x2xcomplex<f64>>
  check.expect_eq_const %lcu#1, dense<[2, 2]> : tensor<2xi32>
  func.return
}
