// XLA's Householder QR custom calls, as JAX's QR lowers on platforms
// without LAPACK: Qr (geqrf: R above the diagonal, the reflectors below,
// their taus) and ProductOfElementaryHouseholderReflectors (orgqr: Q).
// The expected values are LAPACK's (JAX's CPU backend); the suite runs
// this file on the interpreter and compiled.
// A batch of two (the second already triangular: its taus are 0).
// RUN: xlac run %s
// RUN: not xlac run --random-inputs %S/householder_bad.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: custom_call @Qr takes a float or complex matrix
func.func @main() {
  %a = stablehlo.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0], [1.0, 0.0, 1.0]], [[2.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 4.0], [0.0, 0.0, 0.0]]]> : tensor<2x4x3xf32>
  %r:2 = stablehlo.custom_call @Qr(%a) {api_version = 1 : i32} : (tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x3xf32>)
  %q = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%r#0, %r#1) {api_version = 1 : i32} : (tensor<2x4x3xf32>, tensor<2x3xf32>) -> tensor<2x4x3xf32>
  check.expect_almost_eq_const %r#0, dense<[[[-8.185353, -9.529217, -11.972606], [0.43547592, 1.4812258, 1.2897751], [0.7620829, 0.523475, 0.996593], [0.10886898, 0.83571184, -0.6047184]], [[2.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 4.0], [0.0, 0.0, 0.0]]]> : tensor<2x4x3xf32>
  check.expect_almost_eq_const %r#1, dense<[[1.1221695, 1.0139724, 1.4644673], [0.0, 0.0, 0.0]]> : tensor<2x3xf32>
  check.expect_almost_eq_const %q, dense<[[[-0.12216949, 0.5642766, 0.8122915], [-0.4886778, 0.23175646, -0.15017167], [-0.85518616, -0.10076368, -0.10921551], [-0.12216945, -0.7859565, 0.55290425]], [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]]> : tensor<2x4x3xf32>
  func.return
}
