// What GPGPU-Sim cannot run (docs/gpu.md), run on the SIMT harness only:
// f64 transcendentals (sine, cosine, tangent, power, exp, log: their steps
// use 64-bit immediates the simulator misreads), f32 sine, cosine and
// power, f16 and bf16 arithmetic, math, compares (the simulator asserts
// on half compares) and a running sum, i8 arithmetic on negative values (it does not
// sign-extend 8-bit loads), and 64 i1s bitcast into an f64; each against
// the reference interpreter on the same random inputs, integers exactly.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// XLAC-SIMT-ONLY
// RUN: rm -rf %t && mkdir -p %t
// RUN: xlac run --backend=interp --random-inputs --seed 5 --entry f64_trig --output-dir %t/f64 %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 5 --entry f64_trig %s \
// RUN:   --expect 0=@%t/f64/result0.npy --expect 1=@%t/f64/result1.npy --atol 1e-14 --rtol 1e-13 \
// RUN:   | FileCheck %s --check-prefix=F64
// F64: expect result[0]: ok
// F64: expect result[1]: ok
// RUN: xlac run --backend=interp --random-inputs --seed 6 --entry f32_trig --output-dir %t/f32 %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 6 --entry f32_trig %s \
// RUN:   --expect 0=@%t/f32/result0.npy --atol 2e-6 --rtol 2e-6 | FileCheck %s --check-prefix=F32
// F32: expect result[0]: ok
// RUN: for t in f16 bf16; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 8 --entry $t --output-dir %t/$t %s > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 8 --entry $t %s \
// RUN:     --expect 0=@%t/$t/result0.npy --expect 1=@%t/$t/result1.npy --expect 2=@%t/$t/result2.npy \
// RUN:     --atol 0.02 --rtol 0.02 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=HALF
// HALF-COUNT-2: expect result[0]: ok
// HALF-NOT: MISMATCH
// An f16 running sum along long rows (scan.mlir's rowf16: through shared
// memory), exactly.
// RUN: xlac run --backend=interp --random-inputs --seed 9 --entry rowf16 --output-dir %t/rowf16 %S/scan.mlir > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 9 --entry rowf16 %S/scan.mlir \
// RUN:   --expect 0=@%t/rowf16/result0.npy --atol 0 --rtol 0 | FileCheck %s --check-prefix=SCAN16
// SCAN16: expect result[0]: ok
// RUN: xlac run --backend=interp --random-inputs --seed 9 --entry i8 --output-dir %t/i8 %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 9 --entry i8 %s \
// RUN:   --expect 0=@%t/i8/result0.npy --expect 1=@%t/i8/result1.npy | FileCheck %s --check-prefix=I8
// I8: expect result[0]: ok, equal
// I8: expect result[1]: ok, equal
// RUN: xlac run --backend=interp --random-inputs --seed 10 --entry pred_bits --output-dir %t/pb %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 10 --entry pred_bits %s \
// RUN:   --expect 0=@%t/pb/result0.npy --atol 0 --rtol 0 | FileCheck %s --check-prefix=PB
// PB: expect result[0]: ok, max abs error 0
// f64 integer powers, correctly rounded (exact expected values):
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --entry int_pow %s 2>&1 | FileCheck %s --check-prefix=IPOW
// IPOW: 5 checks passed, 0 failed

func.func @f64_trig(%x: tensor<2048xf64>, %y: tensor<2048xf64>) -> (tensor<2048xf64>, tensor<2048xf64>) {
  %s = stablehlo.sine %x : tensor<2048xf64>
  %c = stablehlo.cosine %y : tensor<2048xf64>
  %t = stablehlo.tan %x : tensor<2048xf64>
  %a = stablehlo.abs %y : tensor<2048xf64>
  %p = stablehlo.power %a, %x : tensor<2048xf64>
  %e = stablehlo.exponential %x : tensor<2048xf64>
  %l = stablehlo.log %a : tensor<2048xf64>
  %r0 = stablehlo.add %s, %c : tensor<2048xf64>
  %r1 = stablehlo.add %r0, %t : tensor<2048xf64>
  %r2 = stablehlo.add %p, %e : tensor<2048xf64>
  %r3 = stablehlo.multiply %r2, %l : tensor<2048xf64>
  return %r1, %r3 : tensor<2048xf64>, tensor<2048xf64>
}

func.func @f32_trig(%x: tensor<4096xf32>, %y: tensor<4096xf32>) -> tensor<4096xf32> {
  %s = stablehlo.sine %x : tensor<4096xf32>
  %c = stablehlo.cosine %y : tensor<4096xf32>
  %a = stablehlo.abs %y : tensor<4096xf32>
  %p = stablehlo.power %a, %x : tensor<4096xf32>
  %r0 = stablehlo.add %s, %c : tensor<4096xf32>
  %r1 = stablehlo.add %r0, %p : tensor<4096xf32>
  return %r1 : tensor<4096xf32>
}

func.func @f16(%x: tensor<1024xf16>, %y: tensor<1024xf16>) -> (tensor<1024xf16>, tensor<1024xi1>, tensor<f32>) {
  %m = stablehlo.multiply %x, %y : tensor<1024xf16>
  %e = stablehlo.exponential %m : tensor<1024xf16>
  %t = stablehlo.tanh %x : tensor<1024xf16>
  %r = stablehlo.add %e, %t : tensor<1024xf16>
  %lt = stablehlo.compare LT, %x, %y : (tensor<1024xf16>, tensor<1024xf16>) -> tensor<1024xi1>
  %w = stablehlo.convert %r : (tensor<1024xf16>) -> tensor<1024xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%w init: %z) applies stablehlo.add across dimensions = [0] : (tensor<1024xf32>, tensor<f32>) -> tensor<f32>
  return %r, %lt, %sum : tensor<1024xf16>, tensor<1024xi1>, tensor<f32>
}

func.func @bf16(%x: tensor<1024xbf16>, %y: tensor<1024xbf16>) -> (tensor<1024xbf16>, tensor<1024xi1>, tensor<f32>) {
  %m = stablehlo.multiply %x, %y : tensor<1024xbf16>
  %e = stablehlo.exponential %m : tensor<1024xbf16>
  %t = stablehlo.tanh %x : tensor<1024xbf16>
  %r = stablehlo.add %e, %t : tensor<1024xbf16>
  %lt = stablehlo.compare LT, %x, %y : (tensor<1024xbf16>, tensor<1024xbf16>) -> tensor<1024xi1>
  %w = stablehlo.convert %r : (tensor<1024xbf16>) -> tensor<1024xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%w init: %z) applies stablehlo.add across dimensions = [0] : (tensor<1024xf32>, tensor<f32>) -> tensor<f32>
  return %r, %lt, %sum : tensor<1024xbf16>, tensor<1024xi1>, tensor<f32>
}

func.func @i8(%x: tensor<2048xi8>, %y: tensor<2048xi8>) -> (tensor<2048xi8>, tensor<2048xi32>) {
  %m = stablehlo.multiply %x, %y : tensor<2048xi8>
  %a = stablehlo.add %m, %x : tensor<2048xi8>
  %s = stablehlo.shift_right_arithmetic %a, %y : tensor<2048xi8>
  %w = stablehlo.convert %x : (tensor<2048xi8>) -> tensor<2048xi32>
  %v = stablehlo.convert %y : (tensor<2048xi8>) -> tensor<2048xi32>
  %d = stablehlo.multiply %w, %v : tensor<2048xi32>
  return %s, %d : tensor<2048xi8>, tensor<2048xi32>
}

func.func @pred_bits(%p: tensor<6x64xi1>) -> tensor<6xf64> {
  %r = stablehlo.bitcast_convert %p : (tensor<6x64xi1>) -> tensor<6xf64>
  return %r : tensor<6xf64>
}

func.func @int_pow() {
  %x0 = stablehlo.constant dense<[10000.0, 1.01, 3.0, 0.7, -2.0]> : tensor<5xf64>
  %y0 = stablehlo.constant dense<[10.0, 1000.0, -5.0, -37.0, 3.0]> : tensor<5xf64>
  %x, %y = stablehlo.optimization_barrier %x0, %y0 : tensor<5xf64>, tensor<5xf64>
  %p = stablehlo.power %x, %y : tensor<5xf64>
  %p0 = stablehlo.slice %p [0:1] : (tensor<5xf64>) -> tensor<1xf64>
  %p1 = stablehlo.slice %p [1:2] : (tensor<5xf64>) -> tensor<1xf64>
  %p2 = stablehlo.slice %p [2:3] : (tensor<5xf64>) -> tensor<1xf64>
  %p3 = stablehlo.slice %p [3:4] : (tensor<5xf64>) -> tensor<1xf64>
  %p4 = stablehlo.slice %p [4:5] : (tensor<5xf64>) -> tensor<1xf64>
  check.expect_eq_const %p0, dense<1.0e+40> : tensor<1xf64>
  check.expect_eq_const %p1, dense<20959.155637813845> : tensor<1xf64>
  check.expect_eq_const %p2, dense<0.00411522633744856> : tensor<1xf64>
  check.expect_eq_const %p3, dense<538731.6856844531> : tensor<1xf64>
  check.expect_eq_const %p4, dense<-8.0> : tensor<1xf64>
  func.return
}
