// dot_general on the gpu backend (src/gpu/gemm.c: tiled GEMM through
// shared memory, the kOutput epilogue applied in registers), run by
// GPGPU-Sim (skipped without it) against the reference interpreter: a
// matmul with a bias+relu epilogue and a plain one, batch dims in unusual
// places, integer (wrap-around, exact) and f64 products, a vector
// product, bf16 operands under an f32 result, an empty contraction (K=0:
// zeros).  (i8 operands are left to ptxas.test: GPGPU-Sim does not
// sign-extend ld.s8 into a 32-bit register.)
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: xlac run --backend=interp --random-inputs --seed 3 --entry mm --output-dir %t/mm %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 3 --entry mm %s --verbose \
// RUN:   --expect 0=@%t/mm/result0.npy --expect 1=@%t/mm/result1.npy --atol 1e-5 --rtol 1e-5 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MM
// MM: gpu: 2 kernels (1 fusions)
// MM: expect result[0]: ok
// MM: expect result[1]: ok
// RUN: xlac run --backend=interp --random-inputs --seed 4 --entry batched --output-dir %t/batched %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 4 --entry batched %s \
// RUN:   --expect 0=@%t/batched/result0.npy --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=BATCHED
// BATCHED: expect result[0]: ok
// RUN: xlac run --backend=interp --random-inputs --seed 5 --entry ints --output-dir %t/ints %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 5 --entry ints %s \
// RUN:   --expect 0=@%t/ints/result0.npy --expect 1=@%t/ints/result1.npy --expect 2=@%t/ints/result2.npy \
// RUN:   --expect 3=@%t/ints/result3.npy --atol 1e-13 --rtol 1e-13 | FileCheck %s --check-prefix=INTS
// INTS: expect result[0]: ok, equal
// INTS: expect result[1]: ok, equal
// INTS: expect result[2]: ok
// INTS: expect result[3]: ok
// RUN: xlac run --backend=interp --random-inputs --seed 6 --entry mixed --output-dir %t/mixed %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 6 --entry mixed %s \
// RUN:   --expect 0=@%t/mixed/result0.npy --expect 1=@%t/mixed/result1.npy --atol 1e-5 --rtol 1e-5 \
// RUN:   | FileCheck %s --check-prefix=MIXED
// MIXED: expect result[0]: ok
// MIXED: expect result[1]: ok, max abs error 0

func.func @mm(%a: tensor<100x70xf32>, %b: tensor<70x130xf32>, %bias: tensor<130xf32>) -> (tensor<100x130xf32>, tensor<100x130xf32>) {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<100x70xf32>, tensor<70x130xf32>) -> tensor<100x130xf32>
  %bb = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<130xf32>) -> tensor<100x130xf32>
  %s = stablehlo.add %d, %bb : tensor<100x130xf32>
  %z = stablehlo.constant dense<0.0> : tensor<100x130xf32>
  %r = stablehlo.maximum %s, %z : tensor<100x130xf32>
  %d2 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<100x70xf32>, tensor<70x130xf32>) -> tensor<100x130xf32>
  %n = stablehlo.negate %d2 : tensor<100x130xf32>
  %t = stablehlo.tanh %n : tensor<100x130xf32>
  %u = stablehlo.add %t, %n : tensor<100x130xf32>
  return %r, %d2 : tensor<100x130xf32>, tensor<100x130xf32>
}
func.func @batched(%a: tensor<3x17x5x33xf32>, %b: tensor<5x33x3x19xf32>) -> tensor<3x5x17x19xf32> {
  %d = stablehlo.dot_general %a, %b, batching_dims = [0, 2] x [2, 0], contracting_dims = [3] x [1] : (tensor<3x17x5x33xf32>, tensor<5x33x3x19xf32>) -> tensor<3x5x17x19xf32>
  return %d : tensor<3x5x17x19xf32>
}
func.func @ints(%a: tensor<40x300xi16>, %b: tensor<300x20xi16>, %c: tensor<2x3x4xi64>, %e: tensor<4x3x2xi64>, %f: tensor<9x9xf64>) -> (tensor<40x20xi32>, tensor<2x2xi64>, tensor<9x9xf64>, tensor<9xf64>) {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<40x300xi16>, tensor<300x20xi16>) -> tensor<40x20xi32>
  %g = stablehlo.dot_general %c, %e, contracting_dims = [2, 1] x [0, 1] : (tensor<2x3x4xi64>, tensor<4x3x2xi64>) -> tensor<2x2xi64>
  %h = stablehlo.dot_general %f, %f, contracting_dims = [0] x [1] : (tensor<9x9xf64>, tensor<9x9xf64>) -> tensor<9x9xf64>
  %v = stablehlo.slice %f [0:1, 0:9] : (tensor<9x9xf64>) -> tensor<1x9xf64>
  %w = stablehlo.reshape %v : (tensor<1x9xf64>) -> tensor<9xf64>
  %mv = stablehlo.dot_general %f, %w, contracting_dims = [1] x [0] : (tensor<9x9xf64>, tensor<9xf64>) -> tensor<9xf64>
  return %d, %g, %h, %mv : tensor<40x20xi32>, tensor<2x2xi64>, tensor<9x9xf64>, tensor<9xf64>
}
func.func @mixed(%a: tensor<64x128xbf16>, %b: tensor<128x32xbf16>, %k0: tensor<5x0xf32>, %k1: tensor<0x7xf32>) -> (tensor<64x32xf32>, tensor<5x7xf32>) {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x128xbf16>, tensor<128x32xbf16>) -> tensor<64x32xf32>
  %e = stablehlo.dot_general %k0, %k1, contracting_dims = [1] x [0] : (tensor<5x0xf32>, tensor<0x7xf32>) -> tensor<5x7xf32>
  return %d, %e : tensor<64x32xf32>, tensor<5x7xf32>
}
