// Loop state computed in place (passes/buffers.c, share_loop_state) and a
// dynamic_update_slice in place writing only its window on the GPU
// (gpu/scatter.c, gpu_lower_dus_in_place).  A value the body returns as
// state j is computed into state j's storage when the old state is dead
// by then, or dies at the op computing it and is read there only at the
// index written; otherwise it is copied in after the body, as before.
// Every entry is checked against the reference interpreter on the cpu
// backend and the gpu backend (the SIMT harness in four orders, and
// GPGPU-Sim, skipped without it):
//   scan     a scan writing one row per step into its output (the update
//            in place at the step, clamped at both ends: starts of -3 and
//            of the length and more), a state updated elementwise (in
//            place) and a counter (i + 1, in place);
//   swap     a body returning its state permuted: nothing in place;
//   later    the old state read after the new one is computed: a copy;
//   reverse  the new state reads the old one at other indices: a copy;
//   types    an i64 counter and start indices, an i16 update;
//   absorb   updates computed by the window kernel itself (a loop fusion
//            right before the update: no launch of its own), and one that
//            reads the storage the update writes (computed apart);
//   multi    two states of one fusion of two results, which reads one of
//            them (at the index it writes) for both: in place on the gpu.
// The cpu backend's buffer assignment shows which state values are in
// place (`shares` the loop's state).
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in scan swap later reverse types absorb multi; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 3 --entry $e --output-dir %t/$e %s > /dev/null && \
// RUN:   xlac run --backend=cpu --random-inputs --seed 3 --entry $e %s \
// RUN:     --expect 0=@%t/$e/result0.npy --expect 1=@%t/$e/result1.npy --expect 2=@%t/$e/result2.npy 2>&1 && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 3 --entry $e %s \
// RUN:     --expect 0=@%t/$e/result0.npy --expect 1=@%t/$e/result1.npy --expect 2=@%t/$e/result2.npy 2>&1 || exit 1; \
// RUN:   done | FileCheck %s
// RUN: xlac run --backend=cpu --random-inputs --entry scan %s --xla_dump_to=%t/dump > /dev/null
// RUN: FileCheck %s --check-prefix=BUF < %t/dump/module_0000.module.after_optimizations-buffer-assignment.txt
// CHECK-COUNT-42: expect result[{{[0-2]}}]: ok
// On the gpu backend both are in place (6 launches; 7 with c2 copied); the
// cpu backend leaves c2 a temp (buffers.h, BufferOptions):
// RUN: XLAC_CUDA_DRIVER=simt xlac run --backend=gpu --random-inputs --entry multi %s --verbose 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MULTI
// MULTI: gpu: 6 kernels
// RUN: xlac run --backend=cpu --random-inputs --entry multi %s --xla_dump_to=%t/multi > /dev/null
// RUN: FileCheck %s --check-prefix=MULTICPU < %t/multi/module_0000.module.after_optimizations-buffer-assignment.txt
// MULTICPU: %[[O:[0-9]+]](r) tensor<16xf32> {{.*}} result 1
// MULTICPU: {{^}}%{{[0-9]+}}(c2) {{.*}} temp
// MULTICPU: {{^}}%{{[0-9]+}}(o2) {{.*}} shares %[[O]](r)
// BUF: %[[H:[0-9]+]](r) tensor<8x4xf32> {{.*}} result 0
// BUF: %[[O:[0-9]+]](r) tensor<10x8x4xf32> {{.*}} result 1
// BUF: {{^}}%{{[0-9]+}}(h2) {{.*}} shares %[[H]](r)
// BUF: {{^}}%{{[0-9]+}}(o2) {{.*}} shares %{{[0-9]+}}(o)

func.func @scan(%h0: tensor<8x4xf32>, %w: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<10x8x4xf32>, tensor<i32>) {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %z = stablehlo.constant dense<0.0> : tensor<10x8x4xf32>
  %r:3 = stablehlo.while(%i = %i0, %h = %h0, %o = %z) : tensor<i32>, tensor<8x4xf32>, tensor<10x8x4xf32>
  cond {
    %c = stablehlo.constant dense<10> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %three = stablehlo.constant dense<3> : tensor<i32>
    %k = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %h1 = stablehlo.multiply %h, %w : tensor<8x4xf32>
    %h2 = stablehlo.tanh %h1 : tensor<8x4xf32>
    %row = stablehlo.reshape %h2 : (tensor<8x4xf32>) -> tensor<1x8x4xf32>
    // steps 0..9 write rows 0, 2, ..., 9, 9 (clamped); the column start
    // 3i - 5 runs from -5 (clamped to 0) past the end (clamped to 0: the
    // update covers the whole dimension)
    %two = stablehlo.constant dense<2> : tensor<i32>
    %at = stablehlo.multiply %i, %two : tensor<i32>
    %m = stablehlo.multiply %i, %three : tensor<i32>
    %five = stablehlo.constant dense<5> : tensor<i32>
    %col = stablehlo.subtract %m, %five : tensor<i32>
    %o2 = stablehlo.dynamic_update_slice %o, %row, %at, %col, %k : (tensor<10x8x4xf32>, tensor<1x8x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<10x8x4xf32>
    stablehlo.return %n, %h2, %o2 : tensor<i32>, tensor<8x4xf32>, tensor<10x8x4xf32>
  }
  return %r#1, %r#2, %r#0 : tensor<8x4xf32>, tensor<10x8x4xf32>, tensor<i32>
}

func.func @swap(%a0: tensor<16xf32>, %b0: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<i32>) {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %a = %a0, %b = %b0) : tensor<i32>, tensor<16xf32>, tensor<16xf32>
  cond {
    %c = stablehlo.constant dense<5> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %t = stablehlo.tanh %b : tensor<16xf32>
    %s = stablehlo.add %t, %a : tensor<16xf32>
    stablehlo.return %n, %s, %a : tensor<i32>, tensor<16xf32>, tensor<16xf32>
  }
  return %r#1, %r#2, %r#0 : tensor<16xf32>, tensor<16xf32>, tensor<i32>
}

func.func @later(%a0: tensor<16xf32>, %b0: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<i32>) {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %a = %a0, %b = %b0) : tensor<i32>, tensor<16xf32>, tensor<16xf32>
  cond {
    %c = stablehlo.constant dense<6> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %a2 = stablehlo.tanh %a : tensor<16xf32>
    // the old %a again after %a2: %a2 must not overwrite it
    %x = stablehlo.exponential %a2 : tensor<16xf32>
    %d = stablehlo.dot_general %x, %a, contracting_dims = [0] x [0] : (tensor<16xf32>, tensor<16xf32>) -> tensor<f32>
    %y = stablehlo.broadcast_in_dim %d, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %b2 = stablehlo.add %y, %b : tensor<16xf32>
    stablehlo.return %n, %a2, %b2 : tensor<i32>, tensor<16xf32>, tensor<16xf32>
  }
  return %r#1, %r#2, %r#0 : tensor<16xf32>, tensor<16xf32>, tensor<i32>
}

func.func @reverse(%a0: tensor<4x6xf32>, %b0: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<i32>) {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %a = %a0, %b = %b0) : tensor<i32>, tensor<4x6xf32>, tensor<4x6xf32>
  cond {
    %c = stablehlo.constant dense<7> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %v = stablehlo.reverse %a, dims = [1] : tensor<4x6xf32>
    %a2 = stablehlo.add %v, %b : tensor<4x6xf32>
    %t = stablehlo.transpose %b, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
    %t2 = stablehlo.reshape %t : (tensor<6x4xf32>) -> tensor<4x6xf32>
    %b2 = stablehlo.multiply %t2, %a : tensor<4x6xf32>
    stablehlo.return %n, %a2, %b2 : tensor<i32>, tensor<4x6xf32>, tensor<4x6xf32>
  }
  return %r#1, %r#2, %r#0 : tensor<4x6xf32>, tensor<4x6xf32>, tensor<i32>
}

func.func @types(%h0: tensor<3x5xi16>) -> (tensor<3x5xi16>, tensor<6x3x5xi16>, tensor<i64>) {
  %i0 = stablehlo.constant dense<0> : tensor<i64>
  %z = stablehlo.constant dense<7> : tensor<6x3x5xi16>
  %r:3 = stablehlo.while(%i = %i0, %h = %h0, %o = %z) : tensor<i64>, tensor<3x5xi16>, tensor<6x3x5xi16>
  cond {
    %c = stablehlo.constant dense<6> : tensor<i64>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i64>
    %n = stablehlo.add %i, %one : tensor<i64>
    %k = stablehlo.constant dense<3> : tensor<i16>
    %kb = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<i16>) -> tensor<3x5xi16>
    %h2 = stablehlo.multiply %h, %kb : tensor<3x5xi16>
    %slice = stablehlo.slice %h2 [0:2, 1:4] : (tensor<3x5xi16>) -> tensor<2x3xi16>
    %up = stablehlo.reshape %slice : (tensor<2x3xi16>) -> tensor<1x2x3xi16>
    // i64 starts: a row start of 5 - i (5 down to 0), a column start of
    // i - 2 (negative first) and one of 120 (clamped to 2)
    %five = stablehlo.constant dense<5> : tensor<i64>
    %back = stablehlo.subtract %five, %i : tensor<i64>
        %two = stablehlo.constant dense<2> : tensor<i64>
    %d = stablehlo.subtract %i, %two : tensor<i64>
        %s2 = stablehlo.constant dense<120> : tensor<i64>
    %o2 = stablehlo.dynamic_update_slice %o, %up, %back, %d, %s2 : (tensor<6x3x5xi16>, tensor<1x2x3xi16>, tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<6x3x5xi16>
    stablehlo.return %n, %h2, %o2 : tensor<i64>, tensor<3x5xi16>, tensor<6x3x5xi16>
  }
  return %r#1, %r#2, %r#0 : tensor<3x5xi16>, tensor<6x3x5xi16>, tensor<i64>
}

func.func @absorb(%h0: tensor<8x4xf32>, %w: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<12x8x4xf32>, tensor<12x8x4xf32>) {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %z = stablehlo.constant dense<0.5> : tensor<12x8x4xf32>
  %r:4 = stablehlo.while(%i = %i0, %h = %h0, %o = %z, %q = %z) : tensor<i32>, tensor<8x4xf32>, tensor<12x8x4xf32>, tensor<12x8x4xf32>
  cond {
    %c = stablehlo.constant dense<12> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %k = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %t = stablehlo.tanh %h : tensor<8x4xf32>
    %h2 = stablehlo.multiply %t, %w : tensor<8x4xf32>
    // the update: h2 * h2 + w, as 1x8x4, written at step i
    %sq = stablehlo.multiply %h2, %h2 : tensor<8x4xf32>
    %ad = stablehlo.add %sq, %w : tensor<8x4xf32>
    %up = stablehlo.broadcast_in_dim %ad, dims = [1, 2] : (tensor<8x4xf32>) -> tensor<1x8x4xf32>
    %o2 = stablehlo.dynamic_update_slice %o, %up, %i, %k, %k : (tensor<12x8x4xf32>, tensor<1x8x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<12x8x4xf32>
    // an update read from the storage it is written into: row 0 of q,
    // its columns reversed, doubled (at step 0 each element is another's)
    %s0 = stablehlo.slice %q [0:1, 0:8, 0:4] : (tensor<12x8x4xf32>) -> tensor<1x8x4xf32>
    %rv = stablehlo.reverse %s0, dims = [2] : tensor<1x8x4xf32>
    %two = stablehlo.constant dense<2.0> : tensor<1x8x4xf32>
    %dbl = stablehlo.multiply %rv, %two : tensor<1x8x4xf32>
    %q2 = stablehlo.dynamic_update_slice %q, %dbl, %i, %k, %k : (tensor<12x8x4xf32>, tensor<1x8x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<12x8x4xf32>
    stablehlo.return %n, %h2, %o2, %q2 : tensor<i32>, tensor<8x4xf32>, tensor<12x8x4xf32>, tensor<12x8x4xf32>
  }
  return %r#1, %r#2, %r#3 : tensor<8x4xf32>, tensor<12x8x4xf32>, tensor<12x8x4xf32>
}

func.func @multi(%c0: tensor<16xf32>, %x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<i32>) {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %c = %c0, %o = %x) : tensor<i32>, tensor<16xf32>, tensor<16xf32>
  cond {
    %k = stablehlo.constant dense<5> : tensor<i32>
    %p = stablehlo.compare LT, %i, %k, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %t = stablehlo.tanh %x : tensor<16xf32>
    %f = stablehlo.multiply %t, %c : tensor<16xf32>
    %c2 = stablehlo.add %f, %t : tensor<16xf32>
    %o2 = stablehlo.multiply %c, %c : tensor<16xf32>
    stablehlo.return %n, %c2, %o2 : tensor<i32>, tensor<16xf32>, tensor<16xf32>
  }
  return %r#1, %r#2, %r#0 : tensor<16xf32>, tensor<16xf32>, tensor<i32>
}
