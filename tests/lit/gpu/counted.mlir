// Counted loops on the gpu backend (src/gpu/gpu.c, known_trips): a while
// loop whose cond is `i < C` with i starting at a constant and the body
// returning i + 1 (JAX's scan and fori_loop) runs its body C - i0 times
// without the cond, so the host never waits for the device between
// iterations.  Against the reference interpreter on the SIMT harness and
// GPGPU-Sim (skipped without it): a scan-like loop over 12 steps, one
// that starts at its bound (no trips), and loops that stay read back (a
// bound that is an argument, a step of 2, a cond that prints); then the
// scan loop again with XLAC_GPU_COUNTED=0, which reads every cond back.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in scan empty bound step2 printed; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 2 --entry $e --output-dir %t/$e %s > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 2 --entry $e %s --verbose \
// RUN:     --expect 0=@%t/$e/result0.npy --expect 1=@%t/$e/result1.npy --atol 1e-6 --rtol 1e-6 2>&1 || exit 1; \
// RUN:   done | FileCheck %s
// RUN: XLAC_GPU_COUNTED=0 %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 2 --entry scan %s --verbose \
// RUN:   --expect 0=@%t/scan/result0.npy --expect 1=@%t/scan/result1.npy --atol 1e-6 --rtol 1e-6 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OFF
// CHECK: gpu: 1 of 1 loops counted
// CHECK: result[0]: tensor<i32> = 12
// CHECK: expect result[0]: ok, equal
// CHECK: expect result[1]: ok
// CHECK: gpu: 1 of 1 loops counted
// CHECK: result[0]: tensor<i32> = 5
// CHECK: expect result[1]: ok
// CHECK: gpu: 0 of 1 loops counted
// CHECK: expect result[1]: ok
// CHECK: gpu: 0 of 1 loops counted
// CHECK: expect result[1]: ok
// CHECK: gpu: 0 of 1 loops counted
// CHECK: expect result[1]: ok
// OFF: gpu: 0 of 1 loops counted
// OFF: expect result[1]: ok

func.func @scan(%x: tensor<16xf32>) -> (tensor<i32>, tensor<16xf32>) {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %i0, %s = %x) : tensor<i32>, tensor<16xf32>
  cond {
    %c = stablehlo.constant dense<12> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %f = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>
    %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %t = stablehlo.tanh %s : tensor<16xf32>
    %u = stablehlo.add %t, %b : tensor<16xf32>
    stablehlo.return %n, %u : tensor<i32>, tensor<16xf32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<16xf32>
}

func.func @empty(%x: tensor<16xf32>) -> (tensor<i32>, tensor<16xf32>) {
  %i0 = stablehlo.constant dense<5> : tensor<i32>
  %r:2 = stablehlo.while(%i = %i0, %s = %x) : tensor<i32>, tensor<16xf32>
  cond {
    %c = stablehlo.constant dense<5> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %one, %i : tensor<i32>
    %t = stablehlo.tanh %s : tensor<16xf32>
    stablehlo.return %n, %t : tensor<i32>, tensor<16xf32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<16xf32>
}

func.func @bound(%x: tensor<16xf32>) -> (tensor<i32>, tensor<16xf32>) {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %k = stablehlo.constant dense<4> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %s = %x, %c = %k) : tensor<i32>, tensor<16xf32>, tensor<i32>
  cond {
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %t = stablehlo.tanh %s : tensor<16xf32>
    stablehlo.return %n, %t, %c : tensor<i32>, tensor<16xf32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<16xf32>
}

func.func @step2(%x: tensor<16xf32>) -> (tensor<i32>, tensor<16xf32>) {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %i0, %s = %x) : tensor<i32>, tensor<16xf32>
  cond {
    %c = stablehlo.constant dense<7> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %two = stablehlo.constant dense<2> : tensor<i32>
    %n = stablehlo.add %i, %two : tensor<i32>
    %t = stablehlo.tanh %s : tensor<16xf32>
    stablehlo.return %n, %t : tensor<i32>, tensor<16xf32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<16xf32>
}

func.func @printed(%x: tensor<16xf32>) -> (tensor<i32>, tensor<16xf32>) {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %i0, %s = %x) : tensor<i32>, tensor<16xf32>
  cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    interpreter.print %i : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %t = stablehlo.tanh %s : tensor<16xf32>
    stablehlo.return %n, %t : tensor<i32>, tensor<16xf32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<16xf32>
}
