// XLA's Householder QR custom calls, as JAX's QR lowers on platforms
// without LAPACK: Qr (geqrf: R above the diagonal, the reflectors below,
// their taus) and ProductOfElementaryHouseholderReflectors (orgqr: Q).
// The expected values are LAPACK's (JAX's CPU backend); the suite runs
// this file on the interpreter and compiled.
// Complex, and a wide f64 matrix (its last tau is 0: nothing is below).
// RUN: xlac run %s
func.func @main() {
  %a = stablehlo.constant dense<[[(1.0,1.0),(2.0,0.0),(3.0,1.0)],[(4.0,7.0),(5.0,8.0),(6.0,10.0)],[(7.0,4.0),(8.0,5.0),(10.0,6.0)],[(1.0,1.0),(0.0,2.0),(1.0,3.0)]]> : tensor<4x3xcomplex<f32>>
  %r:2 = stablehlo.custom_call @Qr(%a) {api_version = 1 : i32} : (tensor<4x3xcomplex<f32>>) -> (tensor<4x3xcomplex<f32>>, tensor<3xcomplex<f32>>)
  %q = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%r#0, %r#1) {api_version = 1 : i32} : (tensor<4x3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<4x3xcomplex<f32>>
  check.expect_almost_eq_const %r#1, dense<[(1.0863868,0.08638684),(1.2732211,0.08181924),(1.1017754,0.34746638)]> : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %q, dense<[[(-0.0863868,-0.08638684),(0.39900365,-0.55575526),(0.5743769,0.3909623)],[(-0.34554735,-0.6047079),(0.1638766,-0.0712508),(-0.1061874,-0.07722709)],[(-0.6047079,-0.34554738),(-0.07125062,0.1638767),(-0.07722719,-0.10618746)],[(-0.08638684,-0.08638684),(-0.5557552,0.3990038),(0.3909623,0.57437676)]]> : tensor<4x3xcomplex<f32>>
  %w = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf64>
  %s:2 = stablehlo.custom_call @Qr(%w) {api_version = 1 : i32} : (tensor<2x4xf64>) -> (tensor<2x4xf64>, tensor<2xf64>)
  check.expect_almost_eq_const %s#0, dense<[[-5.0990195135927845, -6.2757163244218884, -7.4524131352509914, -8.629109946080096], [0.8198039027185569, -0.7844645405527341, -1.5689290811054706, -2.3533936216582054]]> : tensor<2x4xf64>
  check.expect_almost_eq_const %s#1, dense<[1.196116135138184, 0.0]> : tensor<2xf64>
  func.return
}
