// RUN: xlac run --split-input-file %s
// fft on lengths that take the longer paths: exact DFTs up to 64, Bluestein
// (through power-of-two transforms) for other lengths above it, radix-2
// for powers of two and the four-step method from 16384; multi-dimensional
// transforms mixing them; round trips ifft(fft(x)) and irfft(rfft(x)).
// The barriers keep the operands from being folded.

// FFT of length 100 (c128) against the DFT as a matrix product; the DFT
// matrix's angles use (j*k mod n), computed in f64.
func.func @fft_dft_100_c128() {
  %j = stablehlo.iota dim = 0 : tensor<100x100xi64>
  %k = stablehlo.iota dim = 1 : tensor<100x100xi64>
  %jk = stablehlo.multiply %j, %k : tensor<100x100xi64>
  %nn = stablehlo.constant dense<100> : tensor<100x100xi64>
  %r = stablehlo.remainder %jk, %nn : tensor<100x100xi64>
  %rf = stablehlo.convert %r : (tensor<100x100xi64>) -> tensor<100x100xf64>
  %s = stablehlo.constant dense<-0.06283185307179587> : tensor<100x100xf64>
  %ang = stablehlo.multiply %rf, %s : tensor<100x100xf64>
  %wc = stablehlo.cosine %ang : tensor<100x100xf64>
  %ws = stablehlo.sine %ang : tensor<100x100xf64>
  %w = stablehlo.complex %wc, %ws : tensor<100x100xcomplex<f64>>
  %i = stablehlo.iota dim = 0 : tensor<100xf64>
  %c1 = stablehlo.constant dense<0.37> : tensor<100xf64>
  %c2 = stablehlo.constant dense<0.11> : tensor<100xf64>
  %a1 = stablehlo.multiply %i, %c1 : tensor<100xf64>
  %a2 = stablehlo.multiply %i, %c2 : tensor<100xf64>
  %xr = stablehlo.sine %a1 : tensor<100xf64>
  %xi = stablehlo.cosine %a2 : tensor<100xf64>
  %x64 = stablehlo.complex %xr, %xi : tensor<100xcomplex<f64>>
  %x0 = stablehlo.convert %x64 : (tensor<100xcomplex<f64>>) -> tensor<100xcomplex<f64>>
  %x = stablehlo.optimization_barrier %x0 : tensor<100xcomplex<f64>>
  %y = stablehlo.fft %x, type = FFT, length = [100] : (tensor<100xcomplex<f64>>) -> tensor<100xcomplex<f64>>
  %xw = stablehlo.convert %x : (tensor<100xcomplex<f64>>) -> tensor<100xcomplex<f64>>
  %d64 = stablehlo.dot_general %w, %xw, contracting_dims = [1] x [0] : (tensor<100x100xcomplex<f64>>, tensor<100xcomplex<f64>>) -> tensor<100xcomplex<f64>>
  %d = stablehlo.convert %d64 : (tensor<100xcomplex<f64>>) -> tensor<100xcomplex<f64>>
  check.expect_almost_eq %y, %d, tolerance = 1.0e-11 : tensor<100xcomplex<f64>>
  func.return
}
// -----

// FFT of length 97 (c64) against the DFT as a matrix product; the DFT
// matrix's angles use (j*k mod n), computed in f64.
func.func @fft_dft_97_c64() {
  %j = stablehlo.iota dim = 0 : tensor<97x97xi64>
  %k = stablehlo.iota dim = 1 : tensor<97x97xi64>
  %jk = stablehlo.multiply %j, %k : tensor<97x97xi64>
  %nn = stablehlo.constant dense<97> : tensor<97x97xi64>
  %r = stablehlo.remainder %jk, %nn : tensor<97x97xi64>
  %rf = stablehlo.convert %r : (tensor<97x97xi64>) -> tensor<97x97xf64>
  %s = stablehlo.constant dense<-0.06477510625958337> : tensor<97x97xf64>
  %ang = stablehlo.multiply %rf, %s : tensor<97x97xf64>
  %wc = stablehlo.cosine %ang : tensor<97x97xf64>
  %ws = stablehlo.sine %ang : tensor<97x97xf64>
  %w = stablehlo.complex %wc, %ws : tensor<97x97xcomplex<f64>>
  %i = stablehlo.iota dim = 0 : tensor<97xf64>
  %c1 = stablehlo.constant dense<0.37> : tensor<97xf64>
  %c2 = stablehlo.constant dense<0.11> : tensor<97xf64>
  %a1 = stablehlo.multiply %i, %c1 : tensor<97xf64>
  %a2 = stablehlo.multiply %i, %c2 : tensor<97xf64>
  %xr = stablehlo.sine %a1 : tensor<97xf64>
  %xi = stablehlo.cosine %a2 : tensor<97xf64>
  %x64 = stablehlo.complex %xr, %xi : tensor<97xcomplex<f64>>
  %x0 = stablehlo.convert %x64 : (tensor<97xcomplex<f64>>) -> tensor<97xcomplex<f32>>
  %x = stablehlo.optimization_barrier %x0 : tensor<97xcomplex<f32>>
  %y = stablehlo.fft %x, type = FFT, length = [97] : (tensor<97xcomplex<f32>>) -> tensor<97xcomplex<f32>>
  %xw = stablehlo.convert %x : (tensor<97xcomplex<f32>>) -> tensor<97xcomplex<f64>>
  %d64 = stablehlo.dot_general %w, %xw, contracting_dims = [1] x [0] : (tensor<97x97xcomplex<f64>>, tensor<97xcomplex<f64>>) -> tensor<97xcomplex<f64>>
  %d = stablehlo.convert %d64 : (tensor<97xcomplex<f64>>) -> tensor<97xcomplex<f32>>
  check.expect_almost_eq %y, %d, tolerance = 1.0e-4 : tensor<97xcomplex<f32>>
  func.return
}
// -----

// FFT of length 1024 (c64) against the DFT as a matrix product; the DFT
// matrix's angles use (j*k mod n), computed in f64.
func.func @fft_dft_1024_c64() {
  %j = stablehlo.iota dim = 0 : tensor<1024x1024xi64>
  %k = stablehlo.iota dim = 1 : tensor<1024x1024xi64>
  %jk = stablehlo.multiply %j, %k : tensor<1024x1024xi64>
  %nn = stablehlo.constant dense<1024> : tensor<1024x1024xi64>
  %r = stablehlo.remainder %jk, %nn : tensor<1024x1024xi64>
  %rf = stablehlo.convert %r : (tensor<1024x1024xi64>) -> tensor<1024x1024xf64>
  %s = stablehlo.constant dense<-0.006135923151542565> : tensor<1024x1024xf64>
  %ang = stablehlo.multiply %rf, %s : tensor<1024x1024xf64>
  %wc = stablehlo.cosine %ang : tensor<1024x1024xf64>
  %ws = stablehlo.sine %ang : tensor<1024x1024xf64>
  %w = stablehlo.complex %wc, %ws : tensor<1024x1024xcomplex<f64>>
  %i = stablehlo.iota dim = 0 : tensor<1024xf64>
  %c1 = stablehlo.constant dense<0.37> : tensor<1024xf64>
  %c2 = stablehlo.constant dense<0.11> : tensor<1024xf64>
  %a1 = stablehlo.multiply %i, %c1 : tensor<1024xf64>
  %a2 = stablehlo.multiply %i, %c2 : tensor<1024xf64>
  %xr = stablehlo.sine %a1 : tensor<1024xf64>
  %xi = stablehlo.cosine %a2 : tensor<1024xf64>
  %x64 = stablehlo.complex %xr, %xi : tensor<1024xcomplex<f64>>
  %x0 = stablehlo.convert %x64 : (tensor<1024xcomplex<f64>>) -> tensor<1024xcomplex<f32>>
  %x = stablehlo.optimization_barrier %x0 : tensor<1024xcomplex<f32>>
  %y = stablehlo.fft %x, type = FFT, length = [1024] : (tensor<1024xcomplex<f32>>) -> tensor<1024xcomplex<f32>>
  %xw = stablehlo.convert %x : (tensor<1024xcomplex<f32>>) -> tensor<1024xcomplex<f64>>
  %d64 = stablehlo.dot_general %w, %xw, contracting_dims = [1] x [0] : (tensor<1024x1024xcomplex<f64>>, tensor<1024xcomplex<f64>>) -> tensor<1024xcomplex<f64>>
  %d = stablehlo.convert %d64 : (tensor<1024xcomplex<f64>>) -> tensor<1024xcomplex<f32>>
  check.expect_almost_eq %y, %d, tolerance = 1.0e-3 : tensor<1024xcomplex<f32>>
  func.return
}
// -----

// FFT of length 60 (c128) against the DFT as a matrix product; the DFT
// matrix's angles use (j*k mod n), computed in f64.
func.func @fft_dft_60_c128() {
  %j = stablehlo.iota dim = 0 : tensor<60x60xi64>
  %k = stablehlo.iota dim = 1 : tensor<60x60xi64>
  %jk = stablehlo.multiply %j, %k : tensor<60x60xi64>
  %nn = stablehlo.constant dense<60> : tensor<60x60xi64>
  %r = stablehlo.remainder %jk, %nn : tensor<60x60xi64>
  %rf = stablehlo.convert %r : (tensor<60x60xi64>) -> tensor<60x60xf64>
  %s = stablehlo.constant dense<-0.10471975511965977> : tensor<60x60xf64>
  %ang = stablehlo.multiply %rf, %s : tensor<60x60xf64>
  %wc = stablehlo.cosine %ang : tensor<60x60xf64>
  %ws = stablehlo.sine %ang : tensor<60x60xf64>
  %w = stablehlo.complex %wc, %ws : tensor<60x60xcomplex<f64>>
  %i = stablehlo.iota dim = 0 : tensor<60xf64>
  %c1 = stablehlo.constant dense<0.37> : tensor<60xf64>
  %c2 = stablehlo.constant dense<0.11> : tensor<60xf64>
  %a1 = stablehlo.multiply %i, %c1 : tensor<60xf64>
  %a2 = stablehlo.multiply %i, %c2 : tensor<60xf64>
  %xr = stablehlo.sine %a1 : tensor<60xf64>
  %xi = stablehlo.cosine %a2 : tensor<60xf64>
  %x64 = stablehlo.complex %xr, %xi : tensor<60xcomplex<f64>>
  %x0 = stablehlo.convert %x64 : (tensor<60xcomplex<f64>>) -> tensor<60xcomplex<f64>>
  %x = stablehlo.optimization_barrier %x0 : tensor<60xcomplex<f64>>
  %y = stablehlo.fft %x, type = FFT, length = [60] : (tensor<60xcomplex<f64>>) -> tensor<60xcomplex<f64>>
  %xw = stablehlo.convert %x : (tensor<60xcomplex<f64>>) -> tensor<60xcomplex<f64>>
  %d64 = stablehlo.dot_general %w, %xw, contracting_dims = [1] x [0] : (tensor<60x60xcomplex<f64>>, tensor<60xcomplex<f64>>) -> tensor<60xcomplex<f64>>
  %d = stablehlo.convert %d64 : (tensor<60xcomplex<f64>>) -> tensor<60xcomplex<f64>>
  check.expect_almost_eq %y, %d, tolerance = 1.0e-11 : tensor<60xcomplex<f64>>
  func.return
}
// -----

// Four-step (length 16384): a pure tone exp(2 pi i 5 j / n) transforms to
// n at bin 5 and zero elsewhere.
func.func @fft_tone_16384() {
  %j = stablehlo.iota dim = 0 : tensor<16384xi64>
  %five = stablehlo.constant dense<5> : tensor<16384xi64>
  %n = stablehlo.constant dense<16384> : tensor<16384xi64>
  %p = stablehlo.multiply %j, %five : tensor<16384xi64>
  %r = stablehlo.remainder %p, %n : tensor<16384xi64>
  %rf = stablehlo.convert %r : (tensor<16384xi64>) -> tensor<16384xf64>
  %s = stablehlo.constant dense<3.834951969714103e-04> : tensor<16384xf64>
  %ang = stablehlo.multiply %rf, %s : tensor<16384xf64>
  %c = stablehlo.cosine %ang : tensor<16384xf64>
  %si = stablehlo.sine %ang : tensor<16384xf64>
  %x0 = stablehlo.complex %c, %si : tensor<16384xcomplex<f64>>
  %x = stablehlo.optimization_barrier %x0 : tensor<16384xcomplex<f64>>
  %y = stablehlo.fft %x, type = FFT, length = [16384] : (tensor<16384xcomplex<f64>>) -> tensor<16384xcomplex<f64>>
  %is5 = stablehlo.compare EQ, %j, %five : (tensor<16384xi64>, tensor<16384xi64>) -> tensor<16384xi1>
  %big = stablehlo.constant dense<(16384.0, 0.0)> : tensor<16384xcomplex<f64>>
  %zero = stablehlo.constant dense<(0.0, 0.0)> : tensor<16384xcomplex<f64>>
  %want = stablehlo.select %is5, %big, %zero : tensor<16384xi1>, tensor<16384xcomplex<f64>>
  check.expect_almost_eq %y, %want, tolerance = 1.0e-8 : tensor<16384xcomplex<f64>>
  %x32 = stablehlo.convert %x : (tensor<16384xcomplex<f64>>) -> tensor<16384xcomplex<f32>>
  %y32 = stablehlo.fft %x32, type = FFT, length = [16384] : (tensor<16384xcomplex<f32>>) -> tensor<16384xcomplex<f32>>
  %want32 = stablehlo.convert %want : (tensor<16384xcomplex<f64>>) -> tensor<16384xcomplex<f32>>
  check.expect_almost_eq %y32, %want32, tolerance = 2.0e-2 : tensor<16384xcomplex<f32>>
  func.return
}

// -----

// Round trips: Bluestein lengths (1000; 8195 runs Bluestein over a
// four-step power of two), a batch of 2-D transforms, 3-D.
func.func @fft_round_trips() {
  %i = stablehlo.iota dim = 0 : tensor<8195xf64>
  %c = stablehlo.constant dense<0.013> : tensor<8195xf64>
  %a = stablehlo.multiply %i, %c : tensor<8195xf64>
  %xr = stablehlo.sine %a : tensor<8195xf64>
  %xi = stablehlo.cosine %i : tensor<8195xf64>
  %x0 = stablehlo.complex %xr, %xi : tensor<8195xcomplex<f64>>
  %x = stablehlo.optimization_barrier %x0 : tensor<8195xcomplex<f64>>
  %y = stablehlo.fft %x, type = FFT, length = [8195] : (tensor<8195xcomplex<f64>>) -> tensor<8195xcomplex<f64>>
  %z = stablehlo.fft %y, type = IFFT, length = [8195] : (tensor<8195xcomplex<f64>>) -> tensor<8195xcomplex<f64>>
  check.expect_almost_eq %z, %x, tolerance = 1.0e-12 : tensor<8195xcomplex<f64>>

  %bi = stablehlo.iota dim = 0 : tensor<3x1000xf32>
  %bj = stablehlo.iota dim = 1 : tensor<3x1000xf32>
  %bs = stablehlo.add %bi, %bj : tensor<3x1000xf32>
  %b0 = stablehlo.sine %bs : tensor<3x1000xf32>
  %b = stablehlo.optimization_barrier %b0 : tensor<3x1000xf32>
  %rb = stablehlo.fft %b, type = RFFT, length = [1000] : (tensor<3x1000xf32>) -> tensor<3x501xcomplex<f32>>
  %ib = stablehlo.fft %rb, type = IRFFT, length = [1000] : (tensor<3x501xcomplex<f32>>) -> tensor<3x1000xf32>
  check.expect_almost_eq %ib, %b, tolerance = 1.0e-5 : tensor<3x1000xf32>

  %mi = stablehlo.iota dim = 1 : tensor<2x12x65xf64>
  %mj = stablehlo.iota dim = 2 : tensor<2x12x65xf64>
  %mk = stablehlo.iota dim = 0 : tensor<2x12x65xf64>
  %ms0 = stablehlo.multiply %mi, %mj : tensor<2x12x65xf64>
  %ms = stablehlo.add %ms0, %mk : tensor<2x12x65xf64>
  %m0 = stablehlo.cosine %ms : tensor<2x12x65xf64>
  %m = stablehlo.optimization_barrier %m0 : tensor<2x12x65xf64>
  %rm = stablehlo.fft %m, type = RFFT, length = [12, 65] : (tensor<2x12x65xf64>) -> tensor<2x12x33xcomplex<f64>>
  %im = stablehlo.fft %rm, type = IRFFT, length = [12, 65] : (tensor<2x12x33xcomplex<f64>>) -> tensor<2x12x65xf64>
  check.expect_almost_eq %im, %m, tolerance = 1.0e-12 : tensor<2x12x65xf64>
  %mc = stablehlo.convert %m : (tensor<2x12x65xf64>) -> tensor<2x12x65xcomplex<f64>>
  %fm = stablehlo.fft %mc, type = FFT, length = [2, 12, 65] : (tensor<2x12x65xcomplex<f64>>) -> tensor<2x12x65xcomplex<f64>>
  %gm = stablehlo.fft %fm, type = IFFT, length = [2, 12, 65] : (tensor<2x12x65xcomplex<f64>>) -> tensor<2x12x65xcomplex<f64>>
  check.expect_almost_eq %gm, %mc, tolerance = 1.0e-12 : tensor<2x12x65xcomplex<f64>>
  func.return
}
