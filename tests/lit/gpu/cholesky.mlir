// cholesky on the gpu backend (src/gpu/linalg.c: one thread per matrix,
// the interpreter's algorithm in double or double complex) against the
// reference interpreter on the same random inputs: batches of symmetric
// positive definite matrices (x + x^T + 3n I, exactly the interpreter's
// inputs) in f32 (lower) and f64 (upper),
// bit for bit, a Hermitian c64 one (lower and upper, close: the complex
// division), a bf16 one, and a matrix that is not positive definite (NaN
// from the first negative pivot on, in the same places).  On the SIMT
// harness only (the NaN is a 64-bit immediate, which GPGPU-Sim misreads).
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// XLAC-SIMT-ONLY
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in spd notpd; do \
// RUN:   %S/Inputs/sim.sh xlac compare --backend=gpu --random-inputs --seed 8 --entry $e %s || exit 1; done \
// RUN:   | FileCheck %s --check-prefix=EXACT
// EXACT-COUNT-3: result[{{[0-9]}}]: {{.*}}max 0 ULP, 0 of {{[0-9]+}} elements differ
// EXACT: COMPARE name={{.*}} max_ulp=0
// EXACT: result[0]: {{.*}}max 0 ULP, 0 of 25 elements differ
// EXACT: COMPARE name={{.*}} max_ulp=0
// RUN: xlac run --backend=interp --random-inputs --seed 8 --entry herm --output-dir %t/h %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 8 --entry herm %s \
// RUN:   --expect 0=@%t/h/result0.npy --expect 1=@%t/h/result1.npy --atol 1e-6 --rtol 1e-6 | FileCheck %s --check-prefix=HERM
// HERM: expect result[0]: ok
// HERM: expect result[1]: ok
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --entry notpd --random-inputs --seed 8 %s 2>&1 | FileCheck %s --check-prefix=NAN
// NAN: nan

func.func @spd(%x: tensor<3x6x6xf32>, %y: tensor<4x4xf64>, %z: tensor<7x7xbf16>) -> (tensor<3x6x6xf32>, tensor<4x4xf64>, tensor<7x7xbf16>) {
  %xt = stablehlo.transpose %x, dims = [0, 2, 1] : (tensor<3x6x6xf32>) -> tensor<3x6x6xf32>
  %p = stablehlo.add %x, %xt : tensor<3x6x6xf32>
  %i = stablehlo.iota dim = 0 : tensor<6x6xi32>
  %j = stablehlo.iota dim = 1 : tensor<6x6xi32>
  %e = stablehlo.compare EQ, %i, %j : (tensor<6x6xi32>, tensor<6x6xi32>) -> tensor<6x6xi1>
  %big = stablehlo.constant dense<18.0> : tensor<6x6xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<6x6xf32>
  %d = stablehlo.select %e, %big, %zero : tensor<6x6xi1>, tensor<6x6xf32>
  %db = stablehlo.broadcast_in_dim %d, dims = [1, 2] : (tensor<6x6xf32>) -> tensor<3x6x6xf32>
  %a = stablehlo.add %p, %db : tensor<3x6x6xf32>
  %l = "stablehlo.cholesky"(%a) {lower = true} : (tensor<3x6x6xf32>) -> tensor<3x6x6xf32>
  %yt = stablehlo.transpose %y, dims = [1, 0] : (tensor<4x4xf64>) -> tensor<4x4xf64>
  %q0 = stablehlo.add %y, %yt : tensor<4x4xf64>
  %i4 = stablehlo.iota dim = 0 : tensor<4x4xi32>
  %j4 = stablehlo.iota dim = 1 : tensor<4x4xi32>
  %e4 = stablehlo.compare EQ, %i4, %j4 : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
  %b4 = stablehlo.constant dense<12.0> : tensor<4x4xf64>
  %z4 = stablehlo.constant dense<0.0> : tensor<4x4xf64>
  %d4 = stablehlo.select %e4, %b4, %z4 : tensor<4x4xi1>, tensor<4x4xf64>
  %q = stablehlo.add %q0, %d4 : tensor<4x4xf64>
  %u = "stablehlo.cholesky"(%q) {lower = false} : (tensor<4x4xf64>) -> tensor<4x4xf64>
  %zt = stablehlo.transpose %z, dims = [1, 0] : (tensor<7x7xbf16>) -> tensor<7x7xbf16>
  %w0 = stablehlo.add %z, %zt : tensor<7x7xbf16>
  %i7 = stablehlo.iota dim = 0 : tensor<7x7xi32>
  %j7 = stablehlo.iota dim = 1 : tensor<7x7xi32>
  %e7 = stablehlo.compare EQ, %i7, %j7 : (tensor<7x7xi32>, tensor<7x7xi32>) -> tensor<7x7xi1>
  %b7 = stablehlo.constant dense<21.0> : tensor<7x7xbf16>
  %z7 = stablehlo.constant dense<0.0> : tensor<7x7xbf16>
  %d7 = stablehlo.select %e7, %b7, %z7 : tensor<7x7xi1>, tensor<7x7xbf16>
  %w1 = stablehlo.add %w0, %d7 : tensor<7x7xbf16>
  %w = "stablehlo.cholesky"(%w1) {lower = true} : (tensor<7x7xbf16>) -> tensor<7x7xbf16>
  return %l, %u, %w : tensor<3x6x6xf32>, tensor<4x4xf64>, tensor<7x7xbf16>
}
func.func @herm(%x: tensor<5x5xcomplex<f32>>) -> (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) {
  %xt = stablehlo.transpose %x, dims = [1, 0] : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
  %re = stablehlo.real %xt : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
  %im = stablehlo.imag %xt : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
  %n = stablehlo.negate %im : tensor<5x5xf32>
  %xh = stablehlo.complex %re, %n : tensor<5x5xcomplex<f32>>
  %h = stablehlo.add %x, %xh : tensor<5x5xcomplex<f32>>
  %i = stablehlo.iota dim = 0 : tensor<5x5xi32>
  %j = stablehlo.iota dim = 1 : tensor<5x5xi32>
  %e = stablehlo.compare EQ, %i, %j : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
  %big = stablehlo.constant dense<(20.0, 0.0)> : tensor<5x5xcomplex<f32>>
  %z = stablehlo.constant dense<(0.0, 0.0)> : tensor<5x5xcomplex<f32>>
  %d = stablehlo.select %e, %big, %z : tensor<5x5xi1>, tensor<5x5xcomplex<f32>>
  %a = stablehlo.add %h, %d : tensor<5x5xcomplex<f32>>
  %l = "stablehlo.cholesky"(%a) {lower = true} : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
  %u = "stablehlo.cholesky"(%a) {lower = false} : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
  return %l, %u : tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>
}
func.func @notpd(%x: tensor<5x5xf32>) -> tensor<5x5xf32> {
  %l = "stablehlo.cholesky"(%x) {lower = true} : (tensor<5x5xf32>) -> tensor<5x5xf32>
  return %l : tensor<5x5xf32>
}
