// RUN: xlac run --split-input-file %s
// Expected values from numpy.fft on the same inputs.

// 2-D FFT with lengths that are not powers of two (3 x 5).
func.func @fft_2d_3x5_c64() {
  %x = stablehlo.constant dense<[[(1.0, 0.0), (2.0, 1.0), (0.0, 0.0), (-1.0, 0.0), (3.0, -1.0)],
                                 [(0.0, 2.0), (1.0, 0.0), (1.0, 0.0), (2.0, 1.0), (-2.0, 0.0)],
                                 [(4.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, 0.0), (1.0, 0.0)]]> : tensor<3x5xcomplex<f32>>
  %r = stablehlo.fft %x, type = FFT, length = [3, 5] : (tensor<3x5xcomplex<f32>>) -> tensor<3x5xcomplex<f32>>
  check.expect_almost_eq_const %r, dense<[
    [(11.000000, 4.000000), (6.520147, 0.381966), (3.557537, 2.618034), (1.206396, 2.618034), (2.715921, 0.381966)],
    [(3.732051, -0.267949), (2.747141, 7.205604), (-6.683339, 1.312590), (-2.296832, -0.009379), (6.161232, 4.079642)],
    [(0.267949, -3.732051), (6.501357, -6.497756), (-3.409792, 0.685901), (-12.498581, -7.225180), (-4.521186, -5.551422)]]> : tensor<3x5xcomplex<f32>>
  %back = stablehlo.fft %r, type = IFFT, length = [3, 5] : (tensor<3x5xcomplex<f32>>) -> tensor<3x5xcomplex<f32>>
  check.expect_almost_eq %back, %x : tensor<3x5xcomplex<f32>>
  func.return
}

// -----

// A 1-D transform over the last dim of a batch of two rows.
func.func @fft_batched_1d() {
  %x = stablehlo.constant dense<[[(1.0, 0.0), (0.0, 0.0), (0.0, 0.0), (0.0, 0.0)],
                                 [(0.0, 0.0), (1.0, 0.0), (0.0, 0.0), (0.0, 0.0)]]> : tensor<2x4xcomplex<f64>>
  %r = stablehlo.fft %x, type = FFT, length = [4] : (tensor<2x4xcomplex<f64>>) -> tensor<2x4xcomplex<f64>>
  check.expect_almost_eq_const %r, dense<[[(1.0, 0.0), (1.0, 0.0), (1.0, 0.0), (1.0, 0.0)],
                                          [(1.0, 0.0), (0.0, -1.0), (-1.0, 0.0), (0.0, 1.0)]]> : tensor<2x4xcomplex<f64>>
  func.return
}

// -----

func.func @rfft_even_length_6() {
  %x = stablehlo.constant dense<[1.0, -2.0, 3.0, 0.5, 0.0, 2.0]> : tensor<6xf32>
  %r = stablehlo.fft %x, type = RFFT, length = [6] : (tensor<6xf32>) -> tensor<4xcomplex<f32>>
  check.expect_almost_eq_const %r, dense<[(4.5, 0.0), (-1.0, 0.866025), (0.0, 6.062178), (3.5, 0.0)]> : tensor<4xcomplex<f32>>
  %back = stablehlo.fft %r, type = IRFFT, length = [6] : (tensor<4xcomplex<f32>>) -> tensor<6xf32>
  check.expect_almost_eq %back, %x : tensor<6xf32>
  func.return
}

// -----

func.func @irfft_odd_length_5() {
  %x = stablehlo.constant dense<[(5.5, 0.0), (2.654508497, 1.287827499), (2.095491503, -3.147062175)]> : tensor<3xcomplex<f64>>
  %r = stablehlo.fft %x, type = IRFFT, length = [5] : (tensor<3xcomplex<f64>>) -> tensor<5xf64>
  check.expect_almost_eq_const %r, dense<[3.0, 1.0, -1.0, 2.0, 0.5]> : tensor<5xf64>
  func.return
}

// -----

func.func @fft_length_one_and_inf() {
  %x = stablehlo.constant dense<[(0x7F800000, 0.0)]> : tensor<1xcomplex<f32>>
  %r = stablehlo.fft %x, type = FFT, length = [1] : (tensor<1xcomplex<f32>>) -> tensor<1xcomplex<f32>>
  check.expect_eq_const %r, dense<[(0x7F800000, 0.0)]> : tensor<1xcomplex<f32>>
  func.return
}
