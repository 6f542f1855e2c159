// RUN: xlac run --split-input-file %s

// Rank-3 transpose of i32, and the same permutation on f16 (bytes copied
// unchanged, so -0 and NaN survive).
func.func @transpose_i32() {
  %x = stablehlo.constant dense<[[[1, 2, 3], [4, 5, 6]]]> : tensor<1x2x3xi32>
  %r = stablehlo.transpose %x, dims = [2, 0, 1] : (tensor<1x2x3xi32>) -> tensor<3x1x2xi32>
  check.expect_eq_const %r, dense<[[[1, 4]], [[2, 5]], [[3, 6]]]> : tensor<3x1x2xi32>
  func.return
}

// -----

func.func @transpose_f16_specials() {
  %x = stablehlo.constant dense<[[-0.0, 0x7E00], [0x7C00, 1.5]]> : tensor<2x2xf16>
  %r = "stablehlo.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<2x2xf16>) -> tensor<2x2xf16>
  check.expect_eq_const %r, dense<[[-0.0, 0x7C00], [0x7E00, 1.5]]> : tensor<2x2xf16>
  func.return
}

// -----

func.func @transpose_zero_sized() {
  %x = stablehlo.constant dense<> : tensor<0x3xf32>
  %r = stablehlo.transpose %x, dims = [1, 0] : (tensor<0x3xf32>) -> tensor<3x0xf32>
  check.expect_eq_const %r, dense<> : tensor<3x0xf32>
  func.return
}

// -----

func.func @transpose_complex_and_bool() {
  %x = stablehlo.constant dense<[[(1.0, 2.0), (3.0, 4.0)]]> : tensor<1x2xcomplex<f32>>
  %r = stablehlo.transpose %x, dims = [1, 0] : (tensor<1x2xcomplex<f32>>) -> tensor<2x1xcomplex<f32>>
  check.expect_eq_const %r, dense<[[(1.0, 2.0)], [(3.0, 4.0)]]> : tensor<2x1xcomplex<f32>>
  %b = stablehlo.constant dense<[[true, false, true]]> : tensor<1x3xi1>
  %s = stablehlo.transpose %b, dims = [1, 0] : (tensor<1x3xi1>) -> tensor<3x1xi1>
  check.expect_eq_const %s, dense<[[true], [false], [true]]> : tensor<3x1xi1>
  func.return
}
