// XLA's Eigh custom call (Jacobi; what JAX's eigh written in JAX ends in
// for small blocks): eigenvalues ascending, eigenvectors as columns, from
// the lower triangle ("1,1,...": lower, sorted) or the upper ("0,1,...").
// The eigenvalues are LAPACK's; the eigenvectors, whose signs are free,
// are checked by rebuilding the matrix from them.
// RUN: xlac run %s
func.func @main() {
  // the upper triangle holds junk the lower-triangle call must ignore
  %a = stablehlo.constant dense<[[4.0, 99.0, 99.0], [1.0, 3.0, 99.0], [2.0, 0.5, 5.0]]> : tensor<3x3xf32>
  %r:2 = stablehlo.custom_call @Eigh(%a) {api_version = 1 : i32, backend_config = "1,1,100,1e-6"} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xf32>)
  check.expect_almost_eq_const %r#1, dense<[2.09652162, 3.07222395, 6.83125443]> : tensor<3xf32>
  %wb = stablehlo.broadcast_in_dim %r#1, dims = [1] : (tensor<3xf32>) -> tensor<3x3xf32>
  %vw = stablehlo.multiply %r#0, %wb : tensor<3x3xf32>
  %rec = stablehlo.dot_general %vw, %r#0, contracting_dims = [1] x [1] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  check.expect_almost_eq_const %rec, dense<[[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]]> : tensor<3x3xf32>
  // the same matrix from its upper triangle
  %u = stablehlo.transpose %a, dims = [1, 0] : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %s:2 = stablehlo.custom_call @Eigh(%u) {api_version = 1 : i32, backend_config = "0,1,100,1e-6"} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xf32>)
  check.expect_almost_eq_const %s#1, dense<[2.09652162, 3.07222395, 6.83125443]> : tensor<3xf32>
  // Hermitian: [[2, 1-i], [1+i, 3]] has eigenvalues 1 and 4
  %h = stablehlo.constant dense<[[(2.0, 0.0), (7.0, 7.0)], [(1.0, 1.0), (3.0, 0.0)]]> : tensor<2x2xcomplex<f32>>
  %e:2 = stablehlo.custom_call @Eigh(%h) {api_version = 1 : i32, backend_config = "1,1,100,1e-6"} : (tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2xf32>)
  check.expect_almost_eq_const %e#1, dense<[1.0, 4.0]> : tensor<2xf32>
  %ew = stablehlo.convert %e#1 : (tensor<2xf32>) -> tensor<2xcomplex<f32>>
  %ewb = stablehlo.broadcast_in_dim %ew, dims = [1] : (tensor<2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
  %evw = stablehlo.multiply %e#0, %ewb : tensor<2x2xcomplex<f32>>
  %ec = stablehlo.real %e#0 : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xf32>
  %ei = stablehlo.imag %e#0 : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xf32>
  %ein = stablehlo.negate %ei : tensor<2x2xf32>
  %conj = stablehlo.complex %ec, %ein : tensor<2x2xcomplex<f32>>
  %erec = stablehlo.dot_general %evw, %conj, contracting_dims = [1] x [1] : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
  check.expect_almost_eq_const %erec, dense<[[(2.0, 0.0), (1.0, -1.0)], [(1.0, 1.0), (3.0, 0.0)]]> : tensor<2x2xcomplex<f32>>
  func.return
}
