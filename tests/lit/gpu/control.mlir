// Control flow on the gpu backend, driven from the host: a while loop whose
// body runs a loop fusion and a reduction on the device and whose
// predicate is read back each iteration; a body returning its state
// swapped (copies through scratch); if on a device-computed predicate both
// ways; case with every branch index, a negative and an out-of-range one
// (the last branch).  Run by GPGPU-Sim (skipped without it) against the
// reference interpreter.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: xlac run --backend=interp --random-inputs --seed 3 --entry loop --output-dir %t/loop %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 3 --entry loop %s \
// RUN:   --expect 0=@%t/loop/result0.npy --expect 1=@%t/loop/result1.npy --expect 2=@%t/loop/result2.npy \
// RUN:   --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=LOOP
// LOOP: expect result[0]: ok
// LOOP: result[1]: tensor<i32> = 7
// LOOP: expect result[1]: ok, equal
// LOOP: expect result[2]: ok
// RUN: xlac run --backend=interp --random-inputs --seed 4 --entry swap --output-dir %t/swap %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 4 --entry swap %s \
// RUN:   --expect 0=@%t/swap/result0.npy --expect 1=@%t/swap/result1.npy --atol 0 --rtol 0 \
// RUN:   | FileCheck %s --check-prefix=SWAP
// SWAP: expect result[0]: ok, max abs error 0
// SWAP: expect result[1]: ok, max abs error 0
// RUN: for ks in 0:1 1:2 2:1 -1:2 3:1 99:2; do k=${ks%%:*}; s=${ks##*:}; \
// RUN:   xlac run --backend=interp --random-inputs --seed $s --input k=$k --entry branches --output-dir %t/b$k.$s %s > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed $s --input k=$k --entry branches %s \
// RUN:     --expect 0=@%t/b$k.$s/result0.npy --expect 1=@%t/b$k.$s/result1.npy --atol 1e-6 --rtol 1e-6 || exit 1; \
// RUN:   done | FileCheck %s --check-prefix=BRANCH
// BRANCH-COUNT-12: expect result[{{[01]}}]: ok
// BRANCH-NOT: MISMATCH
// xlac bench --backend=gpu: medians of whole executions and of device time.
// RUN: %S/Inputs/sim.sh xlac bench --backend=gpu --random-inputs --iters 2 --warmup 1 --entry loop %s \
// RUN:   | FileCheck %s --check-prefix=BENCH
// BENCH: @loop: compile {{[0-9.]+}} ms, run median {{[0-9.]+}} ms (device {{[0-9.]+}} ms), min {{[0-9.]+}} ms over 2 runs (gpu, {{GPGPU-Sim|xlac SIMT harness}}
// BENCH: BENCH name={{.*}} backend=gpu compile_ms={{[0-9.]+}} median_ms={{[0-9.]+}} device_median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} iters=2
// The sums of the inputs for seeds 1 and 2 have opposite signs (both if branches):
// RUN: for s in 1 2; do xlac run --backend=interp --random-inputs --seed $s --entry sign %s; done \
// RUN:   | FileCheck %s --check-prefix=SIGN
// SIGN-DAG: = true
// SIGN-DAG: = false

func.func @loop(%x: tensor<1000xf32>, %n: tensor<i32>) -> (tensor<1000xf32>, tensor<i32>, tensor<f32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c7 = stablehlo.constant dense<7> : tensor<i32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r:4 = stablehlo.while(%i = %c0, %v = %x, %s = %z, %w = %x) : tensor<i32>, tensor<1000xf32>, tensor<f32>, tensor<1000xf32>
   cond {
    %lt = stablehlo.compare LT, %i, %c7 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %h = stablehlo.constant dense<0.5> : tensor<1000xf32>
    %m = stablehlo.multiply %v, %h : tensor<1000xf32>
    %t = stablehlo.tanh %m : tensor<1000xf32>
    %a = stablehlo.add %t, %w : tensor<1000xf32>
    %sum = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<1000xf32>, tensor<f32>) -> tensor<f32>
    %s2 = stablehlo.add %s, %sum : tensor<f32>
    %i2 = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %i2, %a, %s2, %v : tensor<i32>, tensor<1000xf32>, tensor<f32>, tensor<1000xf32>
  }
  return %r#1, %r#0, %r#2 : tensor<1000xf32>, tensor<i32>, tensor<f32>
}
func.func @swap(%a: tensor<300xf32>, %b: tensor<300xf32>) -> (tensor<300xf32>, tensor<300xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c5 = stablehlo.constant dense<5> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %p = %a, %q = %b) : tensor<i32>, tensor<300xf32>, tensor<300xf32>
   cond {
    %lt = stablehlo.compare LT, %i, %c5 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %i2 = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %i2, %q, %p : tensor<i32>, tensor<300xf32>, tensor<300xf32>
  }
  return %r#1, %r#2 : tensor<300xf32>, tensor<300xf32>
}
func.func @branches(%x: tensor<64xf32>, %k: tensor<i32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<64xf32>, tensor<f32>) -> tensor<f32>
  %p = stablehlo.compare GT, %s, %z : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %r = "stablehlo.if"(%p) ({
    %e = stablehlo.exponential %x : tensor<64xf32>
    stablehlo.return %e : tensor<64xf32>
  }, {
    %n = stablehlo.negate %x : tensor<64xf32>
    stablehlo.return %n : tensor<64xf32>
  }) : (tensor<i1>) -> tensor<64xf32>
  %c = "stablehlo.case"(%k) ({
    %a = stablehlo.abs %x : tensor<64xf32>
    stablehlo.return %a : tensor<64xf32>
  }, {
    stablehlo.return %x : tensor<64xf32>
  }, {
    %f = stablehlo.floor %x : tensor<64xf32>
    stablehlo.return %f : tensor<64xf32>
  }) : (tensor<i32>) -> tensor<64xf32>
  return %r, %c : tensor<64xf32>, tensor<64xf32>
}
func.func @sign(%x: tensor<64xf32>, %k: tensor<i32>) -> tensor<i1> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<64xf32>, tensor<f32>) -> tensor<f32>
  %p = stablehlo.compare GT, %s, %z : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %p : tensor<i1>
}
