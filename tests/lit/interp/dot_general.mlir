// RUN: xlac run --split-input-file %s

// matmul with batching and contracting dims in unusual positions:
// lhs [k=2, b=2, m=1], rhs [b=2, n=2, k=2] -> [b, m, n]
func.func @dot_general_permuted_dims() {
  %lhs = stablehlo.constant dense<[[[1.0], [2.0]], [[3.0], [4.0]]]> : tensor<2x2x1xf32>
  %rhs = stablehlo.constant dense<[[[1.0, 0.0], [0.0, 1.0]], [[1.0, 1.0], [2.0, -1.0]]]> : tensor<2x2x2xf32>
  %r = "stablehlo.dot_general"(%lhs, %rhs) {
    dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [1], rhs_batching_dimensions = [0],
                                           lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [2]>
  } : (tensor<2x2x1xf32>, tensor<2x2x2xf32>) -> tensor<2x1x2xf32>
  // b0: lhs col [1,3]; rhs rows [1,0],[0,1] -> [1, 3]
  // b1: lhs col [2,4]; rhs rows [1,1],[2,-1] -> [6, 0]
  check.expect_almost_eq_const %r, dense<[[[1.0, 3.0]], [[6.0, 0.0]]]> : tensor<2x1x2xf32>
  func.return
}

// -----

func.func @dot_general_i8_to_i32() {
  %lhs = stablehlo.constant dense<[[127, -128], [1, 2]]> : tensor<2x2xi8>
  %rhs = stablehlo.constant dense<[[127, 1], [-128, 1]]> : tensor<2x2xi8>
  %r = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] : (tensor<2x2xi8>, tensor<2x2xi8>) -> tensor<2x2xi32>
  check.expect_eq_const %r, dense<[[32513, -1], [-129, 3]]> : tensor<2x2xi32>
  func.return
}

// -----

func.func @dot_general_i32_wraps() {
  %lhs = stablehlo.constant dense<[65536, 2147483647]> : tensor<2xi32>
  %rhs = stablehlo.constant dense<[65536, 1]> : tensor<2xi32>
  %r = stablehlo.dot_general %lhs, %rhs, contracting_dims = [0] x [0] : (tensor<2xi32>, tensor<2xi32>) -> tensor<i32>
  check.expect_eq_const %r, dense<2147483647> : tensor<i32>
  func.return
}

// -----

func.func @dot_general_ui8() {
  %lhs = stablehlo.constant dense<[200, 100]> : tensor<2xui8>
  %rhs = stablehlo.constant dense<[2, 1]> : tensor<2xui8>
  %r = stablehlo.dot_general %lhs, %rhs, contracting_dims = [0] x [0] : (tensor<2xui8>, tensor<2xui8>) -> tensor<ui8>
  check.expect_eq_const %r, dense<244> : tensor<ui8>
  func.return
}

// -----

func.func @dot_general_pred() {
  %lhs = stablehlo.constant dense<[[true, false], [false, false]]> : tensor<2x2xi1>
  %rhs = stablehlo.constant dense<[true, true]> : tensor<2xi1>
  %r = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] : (tensor<2x2xi1>, tensor<2xi1>) -> tensor<2xi1>
  check.expect_eq_const %r, dense<[true, false]> : tensor<2xi1>
  func.return
}

// -----

func.func @dot_general_complex() {
  %lhs = stablehlo.constant dense<[(1.0, 2.0), (0.0, 1.0)]> : tensor<2xcomplex<f64>>
  %rhs = stablehlo.constant dense<[(3.0, 4.0), (0.0, 1.0)]> : tensor<2xcomplex<f64>>
  %r = stablehlo.dot_general %lhs, %rhs, contracting_dims = [0] x [0] : (tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> tensor<complex<f64>>
  check.expect_almost_eq_const %r, dense<(-6.0, 10.0)> : tensor<complex<f64>>
  func.return
}

// -----

func.func @dot_general_special_values() {
  %lhs = stablehlo.constant dense<[[0x7F800000, 1.0], [0x7FC00000, 1.0], [-0.0, -0.0]]> : tensor<3x2xf32>
  %rhs = stablehlo.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %r = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3xf32>
  // inf * 0 is NaN; NaN propagates; -0*0 + -0*1 = -0 + -0 = -0
  check.expect_almost_eq_const %r, dense<[0x7FC00000, 0x7FC00000, -0.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @dot_general_bf16_f16() {
  %lhs = stablehlo.constant dense<[1.5, 2.0, 4.0]> : tensor<3xbf16>
  %r = stablehlo.dot_general %lhs, %lhs, contracting_dims = [0] x [0] : (tensor<3xbf16>, tensor<3xbf16>) -> tensor<bf16>
  check.expect_almost_eq_const %r, dense<22.25> : tensor<bf16>
  %h = stablehlo.constant dense<[[0.5, 0.25]]> : tensor<1x2xf16>
  %g = stablehlo.constant dense<[[2.0], [4.0]]> : tensor<2x1xf16>
  %s = stablehlo.dot_general %h, %g, contracting_dims = [1] x [0] : (tensor<1x2xf16>, tensor<2x1xf16>) -> tensor<1x1xf16>
  check.expect_almost_eq_const %s, dense<[[2.0]]> : tensor<1x1xf16>
  func.return
}

// -----

func.func @dot_general_zero_sized() {
  %lhs = stablehlo.constant dense<> : tensor<2x0xf32>
  %rhs = stablehlo.constant dense<> : tensor<0x3xf32>
  %r = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] : (tensor<2x0xf32>, tensor<0x3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %r, dense<0.0> : tensor<2x3xf32>
  %e = stablehlo.dot_general %rhs, %rhs, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<0x3xf32>, tensor<0x3xf32>) -> tensor<0xf32>
  check.expect_eq_const %e, dense<> : tensor<0xf32>
  func.return
}

// -----

func.func @dot_vector_matrix() {
  %v = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %m = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %r = "stablehlo.dot"(%v, %m) : (tensor<2xi64>, tensor<2x3xi64>) -> tensor<3xi64>
  check.expect_eq_const %r, dense<[9, 12, 15]> : tensor<3xi64>
  %s = "stablehlo.dot"(%v, %v) : (tensor<2xi64>, tensor<2xi64>) -> tensor<i64>
  check.expect_eq_const %s, dense<5> : tensor<i64>
  func.return
}

// -----

func.func @einsum_matmul_transposed_output() {
  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = stablehlo.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %r = "stablehlo.einsum"(%a, %b) {einsum_config = "ij,jk->ki"} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %r, dense<[[19.0, 43.0], [22.0, 50.0]]> : tensor<2x2xf32>
  func.return
}

// -----

func.func @unary_einsum_trace_and_sum() {
  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %d = "stablehlo.unary_einsum"(%a) {einsum_config = "ii->i"} : (tensor<2x2xi32>) -> tensor<2xi32>
  check.expect_eq_const %d, dense<[1, 4]> : tensor<2xi32>
  %s = "stablehlo.unary_einsum"(%a) {einsum_config = "ij->j"} : (tensor<2x2xi32>) -> tensor<2xi32>
  check.expect_eq_const %s, dense<[4, 6]> : tensor<2xi32>
  func.return
}
