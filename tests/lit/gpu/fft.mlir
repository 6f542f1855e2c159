// stablehlo.fft on the gpu backend (src/gpu/fft.c): the interpreter's
// radix-2 and direct DFT in double complex, one thread per line, checked
// against the interpreter on the same random inputs (the twiddles' cosine
// and sine are the inline approximations, so a few ULP apart): FFT over
// 1 and 2 dimensions (lengths 16 and 6), IFFT over 3, RFFT and IRFFT with
// even and odd lengths, complex128, and an FFT fed and followed by
// elementwise work.  On the SIMT harness only: the twiddles' f64 cosine
// and sine use 64-bit immediates GPGPU-Sim misreads (docs/gpu.md).
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// XLAC-SIMT-ONLY
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in fft2 ifft3 rfft irfft c128; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 6 --entry $e --output-dir %t/$e %s > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 6 --entry $e %s \
// RUN:     --expect 0=@%t/$e/result0.npy --atol 1e-5 --rtol 1e-5 || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-5: expect result[0]: ok
// CHECK-NOT: MISMATCH

func.func @fft2(%x: tensor<3x16x6xcomplex<f32>>) -> tensor<3x16x6xcomplex<f32>> {
  %e = stablehlo.multiply %x, %x : tensor<3x16x6xcomplex<f32>>
  %f = stablehlo.fft %e, type = FFT, length = [16, 6] : (tensor<3x16x6xcomplex<f32>>) -> tensor<3x16x6xcomplex<f32>>
  %r = stablehlo.add %f, %x : tensor<3x16x6xcomplex<f32>>
  return %r : tensor<3x16x6xcomplex<f32>>
}

func.func @ifft3(%x: tensor<4x8x5xcomplex<f32>>) -> tensor<4x8x5xcomplex<f32>> {
  %f = stablehlo.fft %x, type = IFFT, length = [4, 8, 5] : (tensor<4x8x5xcomplex<f32>>) -> tensor<4x8x5xcomplex<f32>>
  return %f : tensor<4x8x5xcomplex<f32>>
}

func.func @rfft(%x: tensor<5x12xf32>) -> tensor<5x7xcomplex<f32>> {
  %t = stablehlo.tanh %x : tensor<5x12xf32>
  %f = stablehlo.fft %t, type = RFFT, length = [12] : (tensor<5x12xf32>) -> tensor<5x7xcomplex<f32>>
  return %f : tensor<5x7xcomplex<f32>>
}

func.func @irfft(%x: tensor<3x4x5xcomplex<f32>>) -> tensor<3x4x9xf32> {
  %f = stablehlo.fft %x, type = IRFFT, length = [4, 9] : (tensor<3x4x5xcomplex<f32>>) -> tensor<3x4x9xf32>
  return %f : tensor<3x4x9xf32>
}

func.func @c128(%x: tensor<2x32xcomplex<f64>>) -> tensor<2x32xcomplex<f64>> {
  %f = stablehlo.fft %x, type = FFT, length = [32] : (tensor<2x32xcomplex<f64>>) -> tensor<2x32xcomplex<f64>>
  return %f : tensor<2x32xcomplex<f64>>
}
