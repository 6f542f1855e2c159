// Elementwise ops and their loop fusions on the gpu backend, run by
// GPGPU-Sim (tests/lit/gpu/Inputs/sim.sh; skipped without it) and checked
// against the reference interpreter on the same random inputs.  (f16 and
// bf16 are not here: GPGPU-Sim asserts on half compares; ptx.test has
// ptxas check their PTX.)
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: xlac run --backend=interp --random-inputs --seed 7 --entry f32_chain --output-dir %t/f32 %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 7 --entry f32_chain %s --verbose \
// RUN:   --expect 0=@%t/f32/result0.npy --expect 1=@%t/f32/result1.npy --expect 2=@%t/f32/result2.npy \
// RUN:   --atol 1e-6 --rtol 1e-5 2>&1 | FileCheck %s --check-prefix=F32
// F32: gpu: {{[1-9][0-9]*}} kernels ({{[1-9][0-9]*}} fusions), PTX for sm_
// F32: expect result[0]: ok
// F32: expect result[1]: ok
// F32: expect result[2]: ok
// RUN: xlac run --backend=interp --random-inputs --seed 3 --entry ints --output-dir %t/int %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 3 --entry ints %s \
// RUN:   --expect 0=@%t/int/result0.npy --expect 1=@%t/int/result1.npy --expect 2=@%t/int/result2.npy \
// RUN:   | FileCheck %s --check-prefix=INT
// INT: expect result[0]: ok, equal
// INT: expect result[1]: ok, equal
// INT: expect result[2]: ok, max abs error 0 
// RUN: xlac run --backend=interp --random-inputs --seed 5 --entry f64_math --output-dir %t/f64 %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 5 --entry f64_math %s \
// RUN:   --expect 0=@%t/f64/result0.npy --atol 1e-15 --rtol 1e-14 | FileCheck %s --check-prefix=F64
// F64: expect result[0]: ok

// Transcendentals (the polynomial approximations), comparisons and selects
// over 4096 elements, three results of one multi-output fusion.  Not sine,
// cosine and power, whose f64 steps use 64-bit integer immediates that
// GPGPU-Sim's PTX parser gets wrong (docs/gpu.md); tests/lit/gpu/ptx.test
// has ptxas check their PTX instead.
func.func @f32_chain(%x: tensor<4096xf32>, %y: tensor<4096xf32>) -> (tensor<4096xf32>, tensor<4096xf32>, tensor<4096xi32>) {
  %one = stablehlo.constant dense<1.0> : tensor<4096xf32>
  %half = stablehlo.constant dense<0.5> : tensor<f32>
  %h = stablehlo.broadcast_in_dim %half, dims = [] : (tensor<f32>) -> tensor<4096xf32>
  %m = stablehlo.multiply %x, %y : tensor<4096xf32>
  %e = stablehlo.exponential %m : tensor<4096xf32>
  %t = stablehlo.tanh %y : tensor<4096xf32>
  %a = stablehlo.abs %x : tensor<4096xf32>
  %a1 = stablehlo.add %a, %one : tensor<4096xf32>
  %l = stablehlo.log %a1 : tensor<4096xf32>
  %s = stablehlo.cbrt %x : tensor<4096xf32>
  %c = stablehlo.negate %y : tensor<4096xf32>
  %lg = stablehlo.logistic %x : tensor<4096xf32>
  %sq = stablehlo.sqrt %a1 : tensor<4096xf32>
  %rs = stablehlo.rsqrt %a1 : tensor<4096xf32>
  %p = stablehlo.maximum %a1, %y : tensor<4096xf32>
  %l1 = stablehlo.log_plus_one %a : tensor<4096xf32>
  %em = stablehlo.exponential_minus_one %y : tensor<4096xf32>
  %at = stablehlo.atan2 %x, %y : tensor<4096xf32>
  %r0 = stablehlo.add %e, %t : tensor<4096xf32>
  %r1 = stablehlo.subtract %r0, %l : tensor<4096xf32>
  %r2 = stablehlo.multiply %r1, %s : tensor<4096xf32>
  %r3 = stablehlo.add %r2, %c : tensor<4096xf32>
  %r4 = stablehlo.divide %r3, %sq : tensor<4096xf32>
  %r5 = stablehlo.add %r4, %lg : tensor<4096xf32>
  %r6 = stablehlo.multiply %r5, %rs : tensor<4096xf32>
  %r7 = stablehlo.add %r6, %p : tensor<4096xf32>
  %r8 = stablehlo.add %r7, %l1 : tensor<4096xf32>
  %r9 = stablehlo.add %r8, %em : tensor<4096xf32>
  %r10 = stablehlo.add %r9, %at : tensor<4096xf32>
  %gt = stablehlo.compare GT, %x, %h : (tensor<4096xf32>, tensor<4096xf32>) -> tensor<4096xi1>
  %sel = stablehlo.select %gt, %x, %y : tensor<4096xi1>, tensor<4096xf32>
  %mx = stablehlo.maximum %sel, %h : tensor<4096xf32>
  %fl = stablehlo.floor %r10 : tensor<4096xf32>
  %ci = stablehlo.convert %fl : (tensor<4096xf32>) -> tensor<4096xi32>
  return %r10, %mx, %ci : tensor<4096xf32>, tensor<4096xf32>, tensor<4096xi32>
}

// Integer arithmetic, bit operations and conversions, exact.
func.func @ints(%x: tensor<2048xi32>, %y: tensor<2048xi32>) -> (tensor<2048xi32>, tensor<2048xi64>, tensor<2048xf32>) {
  %one = stablehlo.constant dense<1> : tensor<2048xi32>
  %three = stablehlo.constant dense<3> : tensor<2048xi32>
  %a = stablehlo.add %x, %y : tensor<2048xi32>
  %m = stablehlo.multiply %a, %three : tensor<2048xi32>
  %d = stablehlo.or %y, %one : tensor<2048xi32>
  %q = stablehlo.divide %m, %d : tensor<2048xi32>
  %r = stablehlo.remainder %m, %d : tensor<2048xi32>
  %x2 = stablehlo.xor %q, %r : tensor<2048xi32>
  %sh = stablehlo.shift_left %x2, %three : tensor<2048xi32>
  %mx = stablehlo.maximum %sh, %x : tensor<2048xi32>
  %pc = stablehlo.popcnt %mx : tensor<2048xi32>
  %cl = stablehlo.count_leading_zeros %mx : tensor<2048xi32>
  %s = stablehlo.add %pc, %cl : tensor<2048xi32>
  %w = stablehlo.convert %m : (tensor<2048xi32>) -> tensor<2048xi64>
  %w2 = stablehlo.multiply %w, %w : tensor<2048xi64>
  %f = stablehlo.convert %x2 : (tensor<2048xi32>) -> tensor<2048xf32>
  return %s, %w2, %f : tensor<2048xi32>, tensor<2048xi64>, tensor<2048xf32>
}

// f64 without transcendentals (see above).
func.func @f64_math(%x: tensor<1024xf64>, %y: tensor<1024xf32>) -> tensor<1024xf64> {
  %one = stablehlo.constant dense<1.0> : tensor<1024xf64>
  %a = stablehlo.abs %x : tensor<1024xf64>
  %a1 = stablehlo.add %a, %one : tensor<1024xf64>
  %s = stablehlo.sqrt %a1 : tensor<1024xf64>
  %yd = stablehlo.convert %y : (tensor<1024xf32>) -> tensor<1024xf64>
  %d = stablehlo.divide %yd, %s : tensor<1024xf64>
  %m = stablehlo.multiply %d, %x : tensor<1024xf64>
  %f = stablehlo.floor %m : tensor<1024xf64>
  %r = stablehlo.subtract %m, %f : tensor<1024xf64>
  return %r : tensor<1024xf64>
}
