// RUN: xlac run --split-input-file %s
// complex64/f32 transforms of power-of-two lengths, which the cpu backend
// computes in float (runtime/fft_f32.c), against the same transform of the
// widened operand in complex128/f64, rounded: the interpreter computes
// both in double, so there they agree to the last rounding, but compiled
// the float results are no longer bit for bit the interpreter's.  Each
// tolerance is the error bound docs/math.md gives for the float path,
// eps * (d + log2(N) / 2) * ||y||_2 (eps = 2^-23, d dimensions of N points
// in all, ||y||_2 the largest L2 norm of a transform in the batch), plus an
// ulp of the largest |y| for rounding the reference.  Shapes cover the
// gathers (rows, lines adjacent in memory, lines further apart or fewer
// than a batch), the twist for the shortest real lengths, and the
// four-step method (complex lengths above 4096).

// RFFT [1024] of 37x1024: 37 rows: two full batches of 16 and one of 5; tolerance 0.00039.
func.func @rfft_37x1024() {
  %i0 = stablehlo.iota dim = 0 : tensor<37x1024xf64>
  %c0 = stablehlo.constant dense<0.37> : tensor<37x1024xf64>
  %t0 = stablehlo.multiply %i0, %c0 : tensor<37x1024xf64>
  %q0 = stablehlo.multiply %i0, %i0 : tensor<37x1024xf64>
  %i1 = stablehlo.iota dim = 1 : tensor<37x1024xf64>
  %c1 = stablehlo.constant dense<0.113> : tensor<37x1024xf64>
  %t1 = stablehlo.multiply %i1, %c1 : tensor<37x1024xf64>
  %q1 = stablehlo.multiply %i1, %i1 : tensor<37x1024xf64>
  %half = stablehlo.constant dense<0.5> : tensor<37x1024xf64>
  %s0 = stablehlo.add %t0, %half : tensor<37x1024xf64>
  %s1 = stablehlo.add %s0, %t1 : tensor<37x1024xf64>
  %r1 = stablehlo.add %q0, %q1 : tensor<37x1024xf64>
  %k = stablehlo.constant dense<0.001> : tensor<37x1024xf64>
  %one = stablehlo.constant dense<1.0> : tensor<37x1024xf64>
  %rk = stablehlo.multiply %r1, %k : tensor<37x1024xf64>
  %g = stablehlo.add %rk, %one : tensor<37x1024xf64>
  %a = stablehlo.multiply %s1, %g : tensor<37x1024xf64>
  %xr = stablehlo.sine %a : tensor<37x1024xf64>
  %x0 = stablehlo.convert %xr : (tensor<37x1024xf64>) -> tensor<37x1024xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<37x1024xf32>
  %y = stablehlo.fft %x, type = RFFT, length = [1024] : (tensor<37x1024xf32>) -> tensor<37x513xcomplex<f32>>
  %xw = stablehlo.convert %x : (tensor<37x1024xf32>) -> tensor<37x1024xf64>
  %yw = stablehlo.fft %xw, type = RFFT, length = [1024] : (tensor<37x1024xf64>) -> tensor<37x513xcomplex<f64>>
  %yr = stablehlo.convert %yw : (tensor<37x513xcomplex<f64>>) -> tensor<37x513xcomplex<f32>>
  check.expect_almost_eq %y, %yr, tolerance = 3.90e-04 : tensor<37x513xcomplex<f32>>
  func.return
}
// -----

// IRFFT [1024] of 37x513: the imaginary parts of X[0] and X[512] are not zero and are ignored; tolerance 7.6e-07.
func.func @irfft_37x1024() {
  %i0 = stablehlo.iota dim = 0 : tensor<37x513xf64>
  %c0 = stablehlo.constant dense<0.37> : tensor<37x513xf64>
  %t0 = stablehlo.multiply %i0, %c0 : tensor<37x513xf64>
  %q0 = stablehlo.multiply %i0, %i0 : tensor<37x513xf64>
  %i1 = stablehlo.iota dim = 1 : tensor<37x513xf64>
  %c1 = stablehlo.constant dense<0.113> : tensor<37x513xf64>
  %t1 = stablehlo.multiply %i1, %c1 : tensor<37x513xf64>
  %q1 = stablehlo.multiply %i1, %i1 : tensor<37x513xf64>
  %half = stablehlo.constant dense<0.5> : tensor<37x513xf64>
  %s0 = stablehlo.add %t0, %half : tensor<37x513xf64>
  %s1 = stablehlo.add %s0, %t1 : tensor<37x513xf64>
  %r1 = stablehlo.add %q0, %q1 : tensor<37x513xf64>
  %k = stablehlo.constant dense<0.001> : tensor<37x513xf64>
  %one = stablehlo.constant dense<1.0> : tensor<37x513xf64>
  %rk = stablehlo.multiply %r1, %k : tensor<37x513xf64>
  %g = stablehlo.add %rk, %one : tensor<37x513xf64>
  %a = stablehlo.multiply %s1, %g : tensor<37x513xf64>
  %xr = stablehlo.sine %a : tensor<37x513xf64>
  %k17 = stablehlo.constant dense<1.7> : tensor<37x513xf64>
  %a17 = stablehlo.multiply %a, %k17 : tensor<37x513xf64>
  %xi = stablehlo.cosine %a17 : tensor<37x513xf64>
  %x64 = stablehlo.complex %xr, %xi : tensor<37x513xcomplex<f64>>
  %x0 = stablehlo.convert %x64 : (tensor<37x513xcomplex<f64>>) -> tensor<37x513xcomplex<f32>>
  %x = stablehlo.optimization_barrier %x0 : tensor<37x513xcomplex<f32>>
  %y = stablehlo.fft %x, type = IRFFT, length = [1024] : (tensor<37x513xcomplex<f32>>) -> tensor<37x1024xf32>
  %xw = stablehlo.convert %x : (tensor<37x513xcomplex<f32>>) -> tensor<37x513xcomplex<f64>>
  %yw = stablehlo.fft %xw, type = IRFFT, length = [1024] : (tensor<37x513xcomplex<f64>>) -> tensor<37x1024xf64>
  %yr = stablehlo.convert %yw : (tensor<37x1024xf64>) -> tensor<37x1024xf32>
  check.expect_almost_eq %y, %yr, tolerance = 7.60e-07 : tensor<37x1024xf32>
  func.return
}
// -----

// RFFT [2] of 5x2: the shortest real transform: M = 1; tolerance 6e-07.
func.func @rfft_n2_n4() {
  %i0 = stablehlo.iota dim = 0 : tensor<5x2xf64>
  %c0 = stablehlo.constant dense<0.37> : tensor<5x2xf64>
  %t0 = stablehlo.multiply %i0, %c0 : tensor<5x2xf64>
  %q0 = stablehlo.multiply %i0, %i0 : tensor<5x2xf64>
  %i1 = stablehlo.iota dim = 1 : tensor<5x2xf64>
  %c1 = stablehlo.constant dense<0.113> : tensor<5x2xf64>
  %t1 = stablehlo.multiply %i1, %c1 : tensor<5x2xf64>
  %q1 = stablehlo.multiply %i1, %i1 : tensor<5x2xf64>
  %half = stablehlo.constant dense<0.5> : tensor<5x2xf64>
  %s0 = stablehlo.add %t0, %half : tensor<5x2xf64>
  %s1 = stablehlo.add %s0, %t1 : tensor<5x2xf64>
  %r1 = stablehlo.add %q0, %q1 : tensor<5x2xf64>
  %k = stablehlo.constant dense<0.001> : tensor<5x2xf64>
  %one = stablehlo.constant dense<1.0> : tensor<5x2xf64>
  %rk = stablehlo.multiply %r1, %k : tensor<5x2xf64>
  %g = stablehlo.add %rk, %one : tensor<5x2xf64>
  %a = stablehlo.multiply %s1, %g : tensor<5x2xf64>
  %xr = stablehlo.sine %a : tensor<5x2xf64>
  %x0 = stablehlo.convert %xr : (tensor<5x2xf64>) -> tensor<5x2xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<5x2xf32>
  %y = stablehlo.fft %x, type = RFFT, length = [2] : (tensor<5x2xf32>) -> tensor<5x2xcomplex<f32>>
  %xw = stablehlo.convert %x : (tensor<5x2xf32>) -> tensor<5x2xf64>
  %yw = stablehlo.fft %xw, type = RFFT, length = [2] : (tensor<5x2xf64>) -> tensor<5x2xcomplex<f64>>
  %yr = stablehlo.convert %yw : (tensor<5x2xcomplex<f64>>) -> tensor<5x2xcomplex<f32>>
  check.expect_almost_eq %y, %yr, tolerance = 6.00e-07 : tensor<5x2xcomplex<f32>>
  func.return
}
// -----

// IRFFT [2] of 5x2: M = 1; tolerance 3e-07.
func.func @irfft_n2() {
  %i0 = stablehlo.iota dim = 0 : tensor<5x2xf64>
  %c0 = stablehlo.constant dense<0.37> : tensor<5x2xf64>
  %t0 = stablehlo.multiply %i0, %c0 : tensor<5x2xf64>
  %q0 = stablehlo.multiply %i0, %i0 : tensor<5x2xf64>
  %i1 = stablehlo.iota dim = 1 : tensor<5x2xf64>
  %c1 = stablehlo.constant dense<0.113> : tensor<5x2xf64>
  %t1 = stablehlo.multiply %i1, %c1 : tensor<5x2xf64>
  %q1 = stablehlo.multiply %i1, %i1 : tensor<5x2xf64>
  %half = stablehlo.constant dense<0.5> : tensor<5x2xf64>
  %s0 = stablehlo.add %t0, %half : tensor<5x2xf64>
  %s1 = stablehlo.add %s0, %t1 : tensor<5x2xf64>
  %r1 = stablehlo.add %q0, %q1 : tensor<5x2xf64>
  %k = stablehlo.constant dense<0.001> : tensor<5x2xf64>
  %one = stablehlo.constant dense<1.0> : tensor<5x2xf64>
  %rk = stablehlo.multiply %r1, %k : tensor<5x2xf64>
  %g = stablehlo.add %rk, %one : tensor<5x2xf64>
  %a = stablehlo.multiply %s1, %g : tensor<5x2xf64>
  %xr = stablehlo.sine %a : tensor<5x2xf64>
  %k17 = stablehlo.constant dense<1.7> : tensor<5x2xf64>
  %a17 = stablehlo.multiply %a, %k17 : tensor<5x2xf64>
  %xi = stablehlo.cosine %a17 : tensor<5x2xf64>
  %x64 = stablehlo.complex %xr, %xi : tensor<5x2xcomplex<f64>>
  %x0 = stablehlo.convert %x64 : (tensor<5x2xcomplex<f64>>) -> tensor<5x2xcomplex<f32>>
  %x = stablehlo.optimization_barrier %x0 : tensor<5x2xcomplex<f32>>
  %y = stablehlo.fft %x, type = IRFFT, length = [2] : (tensor<5x2xcomplex<f32>>) -> tensor<5x2xf32>
  %xw = stablehlo.convert %x : (tensor<5x2xcomplex<f32>>) -> tensor<5x2xcomplex<f64>>
  %yw = stablehlo.fft %xw, type = IRFFT, length = [2] : (tensor<5x2xcomplex<f64>>) -> tensor<5x2xf64>
  %yr = stablehlo.convert %yw : (tensor<5x2xf64>) -> tensor<5x2xf32>
  check.expect_almost_eq %y, %yr, tolerance = 3.00e-07 : tensor<5x2xf32>
  func.return
}
// -----

// IRFFT [4] of 3x3: M = 2; tolerance 3.8e-07.
func.func @irfft_n4() {
  %i0 = stablehlo.iota dim = 0 : tensor<3x3xf64>
  %c0 = stablehlo.constant dense<0.37> : tensor<3x3xf64>
  %t0 = stablehlo.multiply %i0, %c0 : tensor<3x3xf64>
  %q0 = stablehlo.multiply %i0, %i0 : tensor<3x3xf64>
  %i1 = stablehlo.iota dim = 1 : tensor<3x3xf64>
  %c1 = stablehlo.constant dense<0.113> : tensor<3x3xf64>
  %t1 = stablehlo.multiply %i1, %c1 : tensor<3x3xf64>
  %q1 = stablehlo.multiply %i1, %i1 : tensor<3x3xf64>
  %half = stablehlo.constant dense<0.5> : tensor<3x3xf64>
  %s0 = stablehlo.add %t0, %half : tensor<3x3xf64>
  %s1 = stablehlo.add %s0, %t1 : tensor<3x3xf64>
  %r1 = stablehlo.add %q0, %q1 : tensor<3x3xf64>
  %k = stablehlo.constant dense<0.001> : tensor<3x3xf64>
  %one = stablehlo.constant dense<1.0> : tensor<3x3xf64>
  %rk = stablehlo.multiply %r1, %k : tensor<3x3xf64>
  %g = stablehlo.add %rk, %one : tensor<3x3xf64>
  %a = stablehlo.multiply %s1, %g : tensor<3x3xf64>
  %xr = stablehlo.sine %a : tensor<3x3xf64>
  %k17 = stablehlo.constant dense<1.7> : tensor<3x3xf64>
  %a17 = stablehlo.multiply %a, %k17 : tensor<3x3xf64>
  %xi = stablehlo.cosine %a17 : tensor<3x3xf64>
  %x64 = stablehlo.complex %xr, %xi : tensor<3x3xcomplex<f64>>
  %x0 = stablehlo.convert %x64 : (tensor<3x3xcomplex<f64>>) -> tensor<3x3xcomplex<f32>>
  %x = stablehlo.optimization_barrier %x0 : tensor<3x3xcomplex<f32>>
  %y = stablehlo.fft %x, type = IRFFT, length = [4] : (tensor<3x3xcomplex<f32>>) -> tensor<3x4xf32>
  %xw = stablehlo.convert %x : (tensor<3x3xcomplex<f32>>) -> tensor<3x3xcomplex<f64>>
  %yw = stablehlo.fft %xw, type = IRFFT, length = [4] : (tensor<3x3xcomplex<f64>>) -> tensor<3x4xf64>
  %yr = stablehlo.convert %yw : (tensor<3x4xf64>) -> tensor<3x4xf32>
  check.expect_almost_eq %y, %yr, tolerance = 3.80e-07 : tensor<3x4xf32>
  func.return
}
// -----

// FFT [8, 4] of 3x8x4: the pass along dimension 1 has lines 4 elements apart: fewer than a batch; tolerance 2.7e-05.
func.func @fft_3x8x4() {
  %i0 = stablehlo.iota dim = 0 : tensor<3x8x4xf64>
  %c0 = stablehlo.constant dense<0.37> : tensor<3x8x4xf64>
  %t0 = stablehlo.multiply %i0, %c0 : tensor<3x8x4xf64>
  %q0 = stablehlo.multiply %i0, %i0 : tensor<3x8x4xf64>
  %i1 = stablehlo.iota dim = 1 : tensor<3x8x4xf64>
  %c1 = stablehlo.constant dense<0.113> : tensor<3x8x4xf64>
  %t1 = stablehlo.multiply %i1, %c1 : tensor<3x8x4xf64>
  %q1 = stablehlo.multiply %i1, %i1 : tensor<3x8x4xf64>
  %i2 = stablehlo.iota dim = 2 : tensor<3x8x4xf64>
  %c2 = stablehlo.constant dense<0.071> : tensor<3x8x4xf64>
  %t2 = stablehlo.multiply %i2, %c2 : tensor<3x8x4xf64>
  %q2 = stablehlo.multiply %i2, %i2 : tensor<3x8x4xf64>
  %half = stablehlo.constant dense<0.5> : tensor<3x8x4xf64>
  %s0 = stablehlo.add %t0, %half : tensor<3x8x4xf64>
  %s1 = stablehlo.add %s0, %t1 : tensor<3x8x4xf64>
  %r1 = stablehlo.add %q0, %q1 : tensor<3x8x4xf64>
  %s2 = stablehlo.add %s1, %t2 : tensor<3x8x4xf64>
  %r2 = stablehlo.add %r1, %q2 : tensor<3x8x4xf64>
  %k = stablehlo.constant dense<0.001> : tensor<3x8x4xf64>
  %one = stablehlo.constant dense<1.0> : tensor<3x8x4xf64>
  %rk = stablehlo.multiply %r2, %k : tensor<3x8x4xf64>
  %g = stablehlo.add %rk, %one : tensor<3x8x4xf64>
  %a = stablehlo.multiply %s2, %g : tensor<3x8x4xf64>
  %xr = stablehlo.sine %a : tensor<3x8x4xf64>
  %k17 = stablehlo.constant dense<1.7> : tensor<3x8x4xf64>
  %a17 = stablehlo.multiply %a, %k17 : tensor<3x8x4xf64>
  %xi = stablehlo.cosine %a17 : tensor<3x8x4xf64>
  %x64 = stablehlo.complex %xr, %xi : tensor<3x8x4xcomplex<f64>>
  %x0 = stablehlo.convert %x64 : (tensor<3x8x4xcomplex<f64>>) -> tensor<3x8x4xcomplex<f32>>
  %x = stablehlo.optimization_barrier %x0 : tensor<3x8x4xcomplex<f32>>
  %y = stablehlo.fft %x, type = FFT, length = [8, 4] : (tensor<3x8x4xcomplex<f32>>) -> tensor<3x8x4xcomplex<f32>>
  %xw = stablehlo.convert %x : (tensor<3x8x4xcomplex<f32>>) -> tensor<3x8x4xcomplex<f64>>
  %yw = stablehlo.fft %xw, type = FFT, length = [8, 4] : (tensor<3x8x4xcomplex<f64>>) -> tensor<3x8x4xcomplex<f64>>
  %yr = stablehlo.convert %yw : (tensor<3x8x4xcomplex<f64>>) -> tensor<3x8x4xcomplex<f32>>
  check.expect_almost_eq %y, %yr, tolerance = 2.70e-05 : tensor<3x8x4xcomplex<f32>>
  func.return
}
// -----

// IFFT [16, 64] of 2x16x64: lines 64 apart: batches of 16 adjacent lines; tolerance 8.8e-07.
func.func @ifft_2x16x64() {
  %i0 = stablehlo.iota dim = 0 : tensor<2x16x64xf64>
  %c0 = stablehlo.constant dense<0.37> : tensor<2x16x64xf64>
  %t0 = stablehlo.multiply %i0, %c0 : tensor<2x16x64xf64>
  %q0 = stablehlo.multiply %i0, %i0 : tensor<2x16x64xf64>
  %i1 = stablehlo.iota dim = 1 : tensor<2x16x64xf64>
  %c1 = stablehlo.constant dense<0.113> : tensor<2x16x64xf64>
  %t1 = stablehlo.multiply %i1, %c1 : tensor<2x16x64xf64>
  %q1 = stablehlo.multiply %i1, %i1 : tensor<2x16x64xf64>
  %i2 = stablehlo.iota dim = 2 : tensor<2x16x64xf64>
  %c2 = stablehlo.constant dense<0.071> : tensor<2x16x64xf64>
  %t2 = stablehlo.multiply %i2, %c2 : tensor<2x16x64xf64>
  %q2 = stablehlo.multiply %i2, %i2 : tensor<2x16x64xf64>
  %half = stablehlo.constant dense<0.5> : tensor<2x16x64xf64>
  %s0 = stablehlo.add %t0, %half : tensor<2x16x64xf64>
  %s1 = stablehlo.add %s0, %t1 : tensor<2x16x64xf64>
  %r1 = stablehlo.add %q0, %q1 : tensor<2x16x64xf64>
  %s2 = stablehlo.add %s1, %t2 : tensor<2x16x64xf64>
  %r2 = stablehlo.add %r1, %q2 : tensor<2x16x64xf64>
  %k = stablehlo.constant dense<0.001> : tensor<2x16x64xf64>
  %one = stablehlo.constant dense<1.0> : tensor<2x16x64xf64>
  %rk = stablehlo.multiply %r2, %k : tensor<2x16x64xf64>
  %g = stablehlo.add %rk, %one : tensor<2x16x64xf64>
  %a = stablehlo.multiply %s2, %g : tensor<2x16x64xf64>
  %xr = stablehlo.sine %a : tensor<2x16x64xf64>
  %k17 = stablehlo.constant dense<1.7> : tensor<2x16x64xf64>
  %a17 = stablehlo.multiply %a, %k17 : tensor<2x16x64xf64>
  %xi = stablehlo.cosine %a17 : tensor<2x16x64xf64>
  %x64 = stablehlo.complex %xr, %xi : tensor<2x16x64xcomplex<f64>>
  %x0 = stablehlo.convert %x64 : (tensor<2x16x64xcomplex<f64>>) -> tensor<2x16x64xcomplex<f32>>
  %x = stablehlo.optimization_barrier %x0 : tensor<2x16x64xcomplex<f32>>
  %y = stablehlo.fft %x, type = IFFT, length = [16, 64] : (tensor<2x16x64xcomplex<f32>>) -> tensor<2x16x64xcomplex<f32>>
  %xw = stablehlo.convert %x : (tensor<2x16x64xcomplex<f32>>) -> tensor<2x16x64xcomplex<f64>>
  %yw = stablehlo.fft %xw, type = IFFT, length = [16, 64] : (tensor<2x16x64xcomplex<f64>>) -> tensor<2x16x64xcomplex<f64>>
  %yr = stablehlo.convert %yw : (tensor<2x16x64xcomplex<f64>>) -> tensor<2x16x64xcomplex<f32>>
  check.expect_almost_eq %y, %yr, tolerance = 8.80e-07 : tensor<2x16x64xcomplex<f32>>
  func.return
}
// -----

// FFT [1, 1] of 4x1x1: length 1: a copy; tolerance 1.7e-07.
func.func @fft_c64_1x1() {
  %i0 = stablehlo.iota dim = 0 : tensor<4x1x1xf64>
  %c0 = stablehlo.constant dense<0.37> : tensor<4x1x1xf64>
  %t0 = stablehlo.multiply %i0, %c0 : tensor<4x1x1xf64>
  %q0 = stablehlo.multiply %i0, %i0 : tensor<4x1x1xf64>
  %i1 = stablehlo.iota dim = 1 : tensor<4x1x1xf64>
  %c1 = stablehlo.constant dense<0.113> : tensor<4x1x1xf64>
  %t1 = stablehlo.multiply %i1, %c1 : tensor<4x1x1xf64>
  %q1 = stablehlo.multiply %i1, %i1 : tensor<4x1x1xf64>
  %i2 = stablehlo.iota dim = 2 : tensor<4x1x1xf64>
  %c2 = stablehlo.constant dense<0.071> : tensor<4x1x1xf64>
  %t2 = stablehlo.multiply %i2, %c2 : tensor<4x1x1xf64>
  %q2 = stablehlo.multiply %i2, %i2 : tensor<4x1x1xf64>
  %half = stablehlo.constant dense<0.5> : tensor<4x1x1xf64>
  %s0 = stablehlo.add %t0, %half : tensor<4x1x1xf64>
  %s1 = stablehlo.add %s0, %t1 : tensor<4x1x1xf64>
  %r1 = stablehlo.add %q0, %q1 : tensor<4x1x1xf64>
  %s2 = stablehlo.add %s1, %t2 : tensor<4x1x1xf64>
  %r2 = stablehlo.add %r1, %q2 : tensor<4x1x1xf64>
  %k = stablehlo.constant dense<0.001> : tensor<4x1x1xf64>
  %one = stablehlo.constant dense<1.0> : tensor<4x1x1xf64>
  %rk = stablehlo.multiply %r2, %k : tensor<4x1x1xf64>
  %g = stablehlo.add %rk, %one : tensor<4x1x1xf64>
  %a = stablehlo.multiply %s2, %g : tensor<4x1x1xf64>
  %xr = stablehlo.sine %a : tensor<4x1x1xf64>
  %k17 = stablehlo.constant dense<1.7> : tensor<4x1x1xf64>
  %a17 = stablehlo.multiply %a, %k17 : tensor<4x1x1xf64>
  %xi = stablehlo.cosine %a17 : tensor<4x1x1xf64>
  %x64 = stablehlo.complex %xr, %xi : tensor<4x1x1xcomplex<f64>>
  %x0 = stablehlo.convert %x64 : (tensor<4x1x1xcomplex<f64>>) -> tensor<4x1x1xcomplex<f32>>
  %x = stablehlo.optimization_barrier %x0 : tensor<4x1x1xcomplex<f32>>
  %y = stablehlo.fft %x, type = FFT, length = [1, 1] : (tensor<4x1x1xcomplex<f32>>) -> tensor<4x1x1xcomplex<f32>>
  %xw = stablehlo.convert %x : (tensor<4x1x1xcomplex<f32>>) -> tensor<4x1x1xcomplex<f64>>
  %yw = stablehlo.fft %xw, type = FFT, length = [1, 1] : (tensor<4x1x1xcomplex<f64>>) -> tensor<4x1x1xcomplex<f64>>
  %yr = stablehlo.convert %yw : (tensor<4x1x1xcomplex<f64>>) -> tensor<4x1x1xcomplex<f32>>
  check.expect_almost_eq %y, %yr, tolerance = 1.70e-07 : tensor<4x1x1xcomplex<f32>>
  func.return
}
// -----

// RFFT [2, 4, 8] of 5x2x4x8: 3-D: the other dimensions run on 5 complex elements per row; tolerance 5.3e-05.
func.func @rfft_5x2x4x8() {
  %i0 = stablehlo.iota dim = 0 : tensor<5x2x4x8xf64>
  %c0 = stablehlo.constant dense<0.37> : tensor<5x2x4x8xf64>
  %t0 = stablehlo.multiply %i0, %c0 : tensor<5x2x4x8xf64>
  %q0 = stablehlo.multiply %i0, %i0 : tensor<5x2x4x8xf64>
  %i1 = stablehlo.iota dim = 1 : tensor<5x2x4x8xf64>
  %c1 = stablehlo.constant dense<0.113> : tensor<5x2x4x8xf64>
  %t1 = stablehlo.multiply %i1, %c1 : tensor<5x2x4x8xf64>
  %q1 = stablehlo.multiply %i1, %i1 : tensor<5x2x4x8xf64>
  %i2 = stablehlo.iota dim = 2 : tensor<5x2x4x8xf64>
  %c2 = stablehlo.constant dense<0.071> : tensor<5x2x4x8xf64>
  %t2 = stablehlo.multiply %i2, %c2 : tensor<5x2x4x8xf64>
  %q2 = stablehlo.multiply %i2, %i2 : tensor<5x2x4x8xf64>
  %i3 = stablehlo.iota dim = 3 : tensor<5x2x4x8xf64>
  %c3 = stablehlo.constant dense<0.0291> : tensor<5x2x4x8xf64>
  %t3 = stablehlo.multiply %i3, %c3 : tensor<5x2x4x8xf64>
  %q3 = stablehlo.multiply %i3, %i3 : tensor<5x2x4x8xf64>
  %half = stablehlo.constant dense<0.5> : tensor<5x2x4x8xf64>
  %s0 = stablehlo.add %t0, %half : tensor<5x2x4x8xf64>
  %s1 = stablehlo.add %s0, %t1 : tensor<5x2x4x8xf64>
  %r1 = stablehlo.add %q0, %q1 : tensor<5x2x4x8xf64>
  %s2 = stablehlo.add %s1, %t2 : tensor<5x2x4x8xf64>
  %r2 = stablehlo.add %r1, %q2 : tensor<5x2x4x8xf64>
  %s3 = stablehlo.add %s2, %t3 : tensor<5x2x4x8xf64>
  %r3 = stablehlo.add %r2, %q3 : tensor<5x2x4x8xf64>
  %k = stablehlo.constant dense<0.001> : tensor<5x2x4x8xf64>
  %one = stablehlo.constant dense<1.0> : tensor<5x2x4x8xf64>
  %rk = stablehlo.multiply %r3, %k : tensor<5x2x4x8xf64>
  %g = stablehlo.add %rk, %one : tensor<5x2x4x8xf64>
  %a = stablehlo.multiply %s3, %g : tensor<5x2x4x8xf64>
  %xr = stablehlo.sine %a : tensor<5x2x4x8xf64>
  %x0 = stablehlo.convert %xr : (tensor<5x2x4x8xf64>) -> tensor<5x2x4x8xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<5x2x4x8xf32>
  %y = stablehlo.fft %x, type = RFFT, length = [2, 4, 8] : (tensor<5x2x4x8xf32>) -> tensor<5x2x4x5xcomplex<f32>>
  %xw = stablehlo.convert %x : (tensor<5x2x4x8xf32>) -> tensor<5x2x4x8xf64>
  %yw = stablehlo.fft %xw, type = RFFT, length = [2, 4, 8] : (tensor<5x2x4x8xf64>) -> tensor<5x2x4x5xcomplex<f64>>
  %yr = stablehlo.convert %yw : (tensor<5x2x4x5xcomplex<f64>>) -> tensor<5x2x4x5xcomplex<f32>>
  check.expect_almost_eq %y, %yr, tolerance = 5.30e-05 : tensor<5x2x4x5xcomplex<f32>>
  func.return
}
// -----

// IRFFT [32, 64] of 3x32x33: 2-D: the first dimension on a copy of the operand; tolerance 9.6e-07.
func.func @irfft_3x32x64() {
  %i0 = stablehlo.iota dim = 0 : tensor<3x32x33xf64>
  %c0 = stablehlo.constant dense<0.37> : tensor<3x32x33xf64>
  %t0 = stablehlo.multiply %i0, %c0 : tensor<3x32x33xf64>
  %q0 = stablehlo.multiply %i0, %i0 : tensor<3x32x33xf64>
  %i1 = stablehlo.iota dim = 1 : tensor<3x32x33xf64>
  %c1 = stablehlo.constant dense<0.113> : tensor<3x32x33xf64>
  %t1 = stablehlo.multiply %i1, %c1 : tensor<3x32x33xf64>
  %q1 = stablehlo.multiply %i1, %i1 : tensor<3x32x33xf64>
  %i2 = stablehlo.iota dim = 2 : tensor<3x32x33xf64>
  %c2 = stablehlo.constant dense<0.071> : tensor<3x32x33xf64>
  %t2 = stablehlo.multiply %i2, %c2 : tensor<3x32x33xf64>
  %q2 = stablehlo.multiply %i2, %i2 : tensor<3x32x33xf64>
  %half = stablehlo.constant dense<0.5> : tensor<3x32x33xf64>
  %s0 = stablehlo.add %t0, %half : tensor<3x32x33xf64>
  %s1 = stablehlo.add %s0, %t1 : tensor<3x32x33xf64>
  %r1 = stablehlo.add %q0, %q1 : tensor<3x32x33xf64>
  %s2 = stablehlo.add %s1, %t2 : tensor<3x32x33xf64>
  %r2 = stablehlo.add %r1, %q2 : tensor<3x32x33xf64>
  %k = stablehlo.constant dense<0.001> : tensor<3x32x33xf64>
  %one = stablehlo.constant dense<1.0> : tensor<3x32x33xf64>
  %rk = stablehlo.multiply %r2, %k : tensor<3x32x33xf64>
  %g = stablehlo.add %rk, %one : tensor<3x32x33xf64>
  %a = stablehlo.multiply %s2, %g : tensor<3x32x33xf64>
  %xr = stablehlo.sine %a : tensor<3x32x33xf64>
  %k17 = stablehlo.constant dense<1.7> : tensor<3x32x33xf64>
  %a17 = stablehlo.multiply %a, %k17 : tensor<3x32x33xf64>
  %xi = stablehlo.cosine %a17 : tensor<3x32x33xf64>
  %x64 = stablehlo.complex %xr, %xi : tensor<3x32x33xcomplex<f64>>
  %x0 = stablehlo.convert %x64 : (tensor<3x32x33xcomplex<f64>>) -> tensor<3x32x33xcomplex<f32>>
  %x = stablehlo.optimization_barrier %x0 : tensor<3x32x33xcomplex<f32>>
  %y = stablehlo.fft %x, type = IRFFT, length = [32, 64] : (tensor<3x32x33xcomplex<f32>>) -> tensor<3x32x64xf32>
  %xw = stablehlo.convert %x : (tensor<3x32x33xcomplex<f32>>) -> tensor<3x32x33xcomplex<f64>>
  %yw = stablehlo.fft %xw, type = IRFFT, length = [32, 64] : (tensor<3x32x33xcomplex<f64>>) -> tensor<3x32x64xf64>
  %yr = stablehlo.convert %yw : (tensor<3x32x64xf64>) -> tensor<3x32x64xf32>
  check.expect_almost_eq %y, %yr, tolerance = 9.60e-07 : tensor<3x32x64xf32>
  func.return
}
// -----

// RFFT [16384] of 2x16384: four-step (complex length 8192) and the twist on whole lines; tolerance 0.0079.
func.func @rfft_2x16384() {
  %i0 = stablehlo.iota dim = 0 : tensor<2x16384xf64>
  %c0 = stablehlo.constant dense<0.37> : tensor<2x16384xf64>
  %t0 = stablehlo.multiply %i0, %c0 : tensor<2x16384xf64>
  %q0 = stablehlo.multiply %i0, %i0 : tensor<2x16384xf64>
  %i1 = stablehlo.iota dim = 1 : tensor<2x16384xf64>
  %c1 = stablehlo.constant dense<0.113> : tensor<2x16384xf64>
  %t1 = stablehlo.multiply %i1, %c1 : tensor<2x16384xf64>
  %q1 = stablehlo.multiply %i1, %i1 : tensor<2x16384xf64>
  %half = stablehlo.constant dense<0.5> : tensor<2x16384xf64>
  %s0 = stablehlo.add %t0, %half : tensor<2x16384xf64>
  %s1 = stablehlo.add %s0, %t1 : tensor<2x16384xf64>
  %r1 = stablehlo.add %q0, %q1 : tensor<2x16384xf64>
  %k = stablehlo.constant dense<0.001> : tensor<2x16384xf64>
  %one = stablehlo.constant dense<1.0> : tensor<2x16384xf64>
  %rk = stablehlo.multiply %r1, %k : tensor<2x16384xf64>
  %g = stablehlo.add %rk, %one : tensor<2x16384xf64>
  %a = stablehlo.multiply %s1, %g : tensor<2x16384xf64>
  %xr = stablehlo.sine %a : tensor<2x16384xf64>
  %x0 = stablehlo.convert %xr : (tensor<2x16384xf64>) -> tensor<2x16384xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<2x16384xf32>
  %y = stablehlo.fft %x, type = RFFT, length = [16384] : (tensor<2x16384xf32>) -> tensor<2x8193xcomplex<f32>>
  %xw = stablehlo.convert %x : (tensor<2x16384xf32>) -> tensor<2x16384xf64>
  %yw = stablehlo.fft %xw, type = RFFT, length = [16384] : (tensor<2x16384xf64>) -> tensor<2x8193xcomplex<f64>>
  %yr = stablehlo.convert %yw : (tensor<2x8193xcomplex<f64>>) -> tensor<2x8193xcomplex<f32>>
  check.expect_almost_eq %y, %yr, tolerance = 7.90e-03 : tensor<2x8193xcomplex<f32>>
  func.return
}
// -----

// IRFFT [16384] of 2x8193: four-step and the inverse twist on whole lines; tolerance 9.6e-07.
func.func @irfft_2x16384() {
  %i0 = stablehlo.iota dim = 0 : tensor<2x8193xf64>
  %c0 = stablehlo.constant dense<0.37> : tensor<2x8193xf64>
  %t0 = stablehlo.multiply %i0, %c0 : tensor<2x8193xf64>
  %q0 = stablehlo.multiply %i0, %i0 : tensor<2x8193xf64>
  %i1 = stablehlo.iota dim = 1 : tensor<2x8193xf64>
  %c1 = stablehlo.constant dense<0.113> : tensor<2x8193xf64>
  %t1 = stablehlo.multiply %i1, %c1 : tensor<2x8193xf64>
  %q1 = stablehlo.multiply %i1, %i1 : tensor<2x8193xf64>
  %half = stablehlo.constant dense<0.5> : tensor<2x8193xf64>
  %s0 = stablehlo.add %t0, %half : tensor<2x8193xf64>
  %s1 = stablehlo.add %s0, %t1 : tensor<2x8193xf64>
  %r1 = stablehlo.add %q0, %q1 : tensor<2x8193xf64>
  %k = stablehlo.constant dense<0.001> : tensor<2x8193xf64>
  %one = stablehlo.constant dense<1.0> : tensor<2x8193xf64>
  %rk = stablehlo.multiply %r1, %k : tensor<2x8193xf64>
  %g = stablehlo.add %rk, %one : tensor<2x8193xf64>
  %a = stablehlo.multiply %s1, %g : tensor<2x8193xf64>
  %xr = stablehlo.sine %a : tensor<2x8193xf64>
  %k17 = stablehlo.constant dense<1.7> : tensor<2x8193xf64>
  %a17 = stablehlo.multiply %a, %k17 : tensor<2x8193xf64>
  %xi = stablehlo.cosine %a17 : tensor<2x8193xf64>
  %x64 = stablehlo.complex %xr, %xi : tensor<2x8193xcomplex<f64>>
  %x0 = stablehlo.convert %x64 : (tensor<2x8193xcomplex<f64>>) -> tensor<2x8193xcomplex<f32>>
  %x = stablehlo.optimization_barrier %x0 : tensor<2x8193xcomplex<f32>>
  %y = stablehlo.fft %x, type = IRFFT, length = [16384] : (tensor<2x8193xcomplex<f32>>) -> tensor<2x16384xf32>
  %xw = stablehlo.convert %x : (tensor<2x8193xcomplex<f32>>) -> tensor<2x8193xcomplex<f64>>
  %yw = stablehlo.fft %xw, type = IRFFT, length = [16384] : (tensor<2x8193xcomplex<f64>>) -> tensor<2x16384xf64>
  %yr = stablehlo.convert %yw : (tensor<2x16384xf64>) -> tensor<2x16384xf32>
  check.expect_almost_eq %y, %yr, tolerance = 9.60e-07 : tensor<2x16384xf32>
  func.return
}
// -----

// FFT [8192, 2] of 8192x2: four-step on lines 2 elements apart; tolerance 0.018.
func.func @fft_8192x2() {
  %i0 = stablehlo.iota dim = 0 : tensor<8192x2xf64>
  %c0 = stablehlo.constant dense<0.37> : tensor<8192x2xf64>
  %t0 = stablehlo.multiply %i0, %c0 : tensor<8192x2xf64>
  %q0 = stablehlo.multiply %i0, %i0 : tensor<8192x2xf64>
  %i1 = stablehlo.iota dim = 1 : tensor<8192x2xf64>
  %c1 = stablehlo.constant dense<0.113> : tensor<8192x2xf64>
  %t1 = stablehlo.multiply %i1, %c1 : tensor<8192x2xf64>
  %q1 = stablehlo.multiply %i1, %i1 : tensor<8192x2xf64>
  %half = stablehlo.constant dense<0.5> : tensor<8192x2xf64>
  %s0 = stablehlo.add %t0, %half : tensor<8192x2xf64>
  %s1 = stablehlo.add %s0, %t1 : tensor<8192x2xf64>
  %r1 = stablehlo.add %q0, %q1 : tensor<8192x2xf64>
  %k = stablehlo.constant dense<0.001> : tensor<8192x2xf64>
  %one = stablehlo.constant dense<1.0> : tensor<8192x2xf64>
  %rk = stablehlo.multiply %r1, %k : tensor<8192x2xf64>
  %g = stablehlo.add %rk, %one : tensor<8192x2xf64>
  %a = stablehlo.multiply %s1, %g : tensor<8192x2xf64>
  %xr = stablehlo.sine %a : tensor<8192x2xf64>
  %k17 = stablehlo.constant dense<1.7> : tensor<8192x2xf64>
  %a17 = stablehlo.multiply %a, %k17 : tensor<8192x2xf64>
  %xi = stablehlo.cosine %a17 : tensor<8192x2xf64>
  %x64 = stablehlo.complex %xr, %xi : tensor<8192x2xcomplex<f64>>
  %x0 = stablehlo.convert %x64 : (tensor<8192x2xcomplex<f64>>) -> tensor<8192x2xcomplex<f32>>
  %x = stablehlo.optimization_barrier %x0 : tensor<8192x2xcomplex<f32>>
  %y = stablehlo.fft %x, type = FFT, length = [8192, 2] : (tensor<8192x2xcomplex<f32>>) -> tensor<8192x2xcomplex<f32>>
  %xw = stablehlo.convert %x : (tensor<8192x2xcomplex<f32>>) -> tensor<8192x2xcomplex<f64>>
  %yw = stablehlo.fft %xw, type = FFT, length = [8192, 2] : (tensor<8192x2xcomplex<f64>>) -> tensor<8192x2xcomplex<f64>>
  %yr = stablehlo.convert %yw : (tensor<8192x2xcomplex<f64>>) -> tensor<8192x2xcomplex<f32>>
  check.expect_almost_eq %y, %yr, tolerance = 1.80e-02 : tensor<8192x2xcomplex<f32>>
  func.return
}
// -----

// IFFT [8192] of 3x8192: four-step, inverse; tolerance 9e-07.
func.func @ifft_3x8192() {
  %i0 = stablehlo.iota dim = 0 : tensor<3x8192xf64>
  %c0 = stablehlo.constant dense<0.37> : tensor<3x8192xf64>
  %t0 = stablehlo.multiply %i0, %c0 : tensor<3x8192xf64>
  %q0 = stablehlo.multiply %i0, %i0 : tensor<3x8192xf64>
  %i1 = stablehlo.iota dim = 1 : tensor<3x8192xf64>
  %c1 = stablehlo.constant dense<0.113> : tensor<3x8192xf64>
  %t1 = stablehlo.multiply %i1, %c1 : tensor<3x8192xf64>
  %q1 = stablehlo.multiply %i1, %i1 : tensor<3x8192xf64>
  %half = stablehlo.constant dense<0.5> : tensor<3x8192xf64>
  %s0 = stablehlo.add %t0, %half : tensor<3x8192xf64>
  %s1 = stablehlo.add %s0, %t1 : tensor<3x8192xf64>
  %r1 = stablehlo.add %q0, %q1 : tensor<3x8192xf64>
  %k = stablehlo.constant dense<0.001> : tensor<3x8192xf64>
  %one = stablehlo.constant dense<1.0> : tensor<3x8192xf64>
  %rk = stablehlo.multiply %r1, %k : tensor<3x8192xf64>
  %g = stablehlo.add %rk, %one : tensor<3x8192xf64>
  %a = stablehlo.multiply %s1, %g : tensor<3x8192xf64>
  %xr = stablehlo.sine %a : tensor<3x8192xf64>
  %k17 = stablehlo.constant dense<1.7> : tensor<3x8192xf64>
  %a17 = stablehlo.multiply %a, %k17 : tensor<3x8192xf64>
  %xi = stablehlo.cosine %a17 : tensor<3x8192xf64>
  %x64 = stablehlo.complex %xr, %xi : tensor<3x8192xcomplex<f64>>
  %x0 = stablehlo.convert %x64 : (tensor<3x8192xcomplex<f64>>) -> tensor<3x8192xcomplex<f32>>
  %x = stablehlo.optimization_barrier %x0 : tensor<3x8192xcomplex<f32>>
  %y = stablehlo.fft %x, type = IFFT, length = [8192] : (tensor<3x8192xcomplex<f32>>) -> tensor<3x8192xcomplex<f32>>
  %xw = stablehlo.convert %x : (tensor<3x8192xcomplex<f32>>) -> tensor<3x8192xcomplex<f64>>
  %yw = stablehlo.fft %xw, type = IFFT, length = [8192] : (tensor<3x8192xcomplex<f64>>) -> tensor<3x8192xcomplex<f64>>
  %yr = stablehlo.convert %yw : (tensor<3x8192xcomplex<f64>>) -> tensor<3x8192xcomplex<f32>>
  check.expect_almost_eq %y, %yr, tolerance = 9.00e-07 : tensor<3x8192xcomplex<f32>>
  func.return
}
