// hoist-scan-products (src/passes/hoist.c): a counted loop's product of
// each step's input rows with loop-invariant weights becomes one product
// of all the rows before the loop, which the body slices at its counter.
// The pass's output computes what its input does (the interpreter on both,
// and the cpu and gpu backends' full pipelines, the gpu's on the SIMT
// harness, against the interpreter on the input); it takes
//   rnn      x_i @ W with W an argument of the loop that stays unchanged;
//   outer    W defined outside the loop, the slice at i + 1 (the last
//            step clamped to the last row, as before);
// and leaves
//   short    a loop of 2 steps over 6 rows (more work, not less);
//   varying  W changed by the body;
//   rhs      W @ x_i (the slice as the second operand).
// RUN: rm -rf %t && mkdir -p %t
// RUN: xlac opt --pass hoist-scan-products %s > %t/out.mlir
// RUN: FileCheck %s < %t/out.mlir
// RUN: for e in rnn outer short varying rhs; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 5 --entry $e --output-dir %t/$e %s > /dev/null && \
// RUN:   xlac run --backend=interp --random-inputs --seed 5 --entry $e %t/out.mlir \
// RUN:     --expect 0=@%t/$e/result0.npy --atol 1e-6 --rtol 1e-5 && \
// RUN:   xlac run --backend=cpu --random-inputs --seed 5 --entry $e %s \
// RUN:     --expect 0=@%t/$e/result0.npy --atol 1e-5 --rtol 1e-4 && \
// RUN:   XLAC_CUDA_DRIVER=simt:random xlac run --backend=gpu --random-inputs --seed 5 --entry $e %s \
// RUN:     --expect 0=@%t/$e/result0.npy --atol 1e-5 --rtol 1e-4 || exit 1; \
// RUN:   done | FileCheck %s --check-prefix=NUM
// NUM-COUNT-15: expect result[0]: ok
// The gpu backend's pipeline takes it (the cpu backend's does not: there a
// step's product stays in the cache, passes/hoist.c):
// RUN: XLAC_CUDA_DRIVER=simt xlac run --backend=gpu --random-inputs --entry rnn %s --xla_dump_to=%t/gpu > /dev/null
// RUN: FileCheck %s --check-prefix=GPU < %t/gpu/module_0000.module.after_optimizations.txt
// RUN: xlac run --backend=cpu --random-inputs --entry rnn %s --xla_dump_to=%t/cpu > /dev/null
// RUN: FileCheck %s --check-prefix=CPU < %t/cpu/module_0000.module.after_optimizations.txt
// GPU: ENTRY
// GPU: dot(
// GPU: while(
// CPU: body
// CPU: dot(
// CPU: ENTRY
// CPU-NOT: dot(
// `xlac opt --pipeline=cpu|gpu` runs the pipeline with each backend's options:
// RUN: xlac opt --pipeline=gpu %s | FileCheck %s --check-prefix=OPTGPU
// RUN: xlac opt --pipeline=cpu %s | FileCheck %s --check-prefix=OPTCPU
// OPTGPU-LABEL: func.func @rnn
// OPTGPU: stablehlo.dot_general{{.*}} -> tensor<24x5xf32>
// OPTGPU: stablehlo.while
// OPTCPU-LABEL: func.func @rnn
// OPTCPU-NOT: tensor<24x5xf32>
// OPTCPU: stablehlo.while
// OPTCPU: stablehlo.dot_general

// CHECK-LABEL: func.func @rnn
// CHECK: "stablehlo.reshape"(%arg0) : (tensor<6x4x3xf32>) -> tensor<24x3xf32>
// CHECK: "stablehlo.dot_general"{{.*}} -> tensor<24x5xf32>
// CHECK: "stablehlo.reshape"{{.*}} : (tensor<24x5xf32>) -> tensor<6x4x5xf32>
// CHECK: "stablehlo.while"
// CHECK: "stablehlo.dynamic_slice"{{.*}} -> tensor<1x4x5xf32>
// CHECK-NOT: dot_general
// CHECK: func.return
func.func @rnn(%x: tensor<6x4x3xf32>, %w: tensor<3x5xf32>, %h0: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%i = %i0, %xs = %x, %ws = %w, %h = %h0) : tensor<i32>, tensor<6x4x3xf32>, tensor<3x5xf32>, tensor<4x5xf32>
  cond {
    %c = stablehlo.constant dense<6> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %s = stablehlo.dynamic_slice %xs, %i, %z, %z, sizes = [1, 4, 3] : (tensor<6x4x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x3xf32>
    %rs = stablehlo.reshape %s : (tensor<1x4x3xf32>) -> tensor<4x3xf32>
    %y = stablehlo.dot_general %rs, %ws, contracting_dims = [1] x [0] : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
    %a = stablehlo.add %y, %h : tensor<4x5xf32>
    %t = stablehlo.tanh %a : tensor<4x5xf32>
    stablehlo.return %n, %xs, %ws, %t : tensor<i32>, tensor<6x4x3xf32>, tensor<3x5xf32>, tensor<4x5xf32>
  }
  return %r#3 : tensor<4x5xf32>
}

// CHECK-LABEL: func.func @outer
// CHECK: "stablehlo.dot_general"{{.*}} -> tensor<14x4xf32>
// CHECK: "stablehlo.while"
// CHECK-NOT: dot_general
// CHECK: func.return
func.func @outer(%x: tensor<7x2x6xf32>, %w: tensor<6x4xf32>, %h0: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %w2 = stablehlo.multiply %w, %w : tensor<6x4xf32>
  %r:3 = stablehlo.while(%i = %i0, %xs = %x, %h = %h0) : tensor<i32>, tensor<7x2x6xf32>, tensor<2x4xf32>
  cond {
    %c = stablehlo.constant dense<7> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %s = stablehlo.dynamic_slice %xs, %n, %z, %z, sizes = [1, 2, 6] : (tensor<7x2x6xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x6xf32>
    %rs = stablehlo.reshape %s : (tensor<1x2x6xf32>) -> tensor<2x6xf32>
    %y = stablehlo.dot_general %rs, %w2, contracting_dims = [1] x [0] : (tensor<2x6xf32>, tensor<6x4xf32>) -> tensor<2x4xf32>
    %m = stablehlo.multiply %y, %h : tensor<2x4xf32>
    %t = stablehlo.tanh %m : tensor<2x4xf32>
    stablehlo.return %n, %xs, %t : tensor<i32>, tensor<7x2x6xf32>, tensor<2x4xf32>
  }
  return %r#2 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @short
// CHECK: "stablehlo.while"
// CHECK: dot_general
// CHECK: func.return
func.func @short(%x: tensor<6x4x3xf32>, %w: tensor<3x5xf32>, %h0: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %i0 = stablehlo.constant dense<1> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %xs = %x, %h = %h0) : tensor<i32>, tensor<6x4x3xf32>, tensor<4x5xf32>
  cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %s = stablehlo.dynamic_slice %xs, %i, %z, %z, sizes = [1, 4, 3] : (tensor<6x4x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x3xf32>
    %rs = stablehlo.reshape %s : (tensor<1x4x3xf32>) -> tensor<4x3xf32>
    %y = stablehlo.dot_general %rs, %w, contracting_dims = [1] x [0] : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
    %a = stablehlo.add %y, %h : tensor<4x5xf32>
    stablehlo.return %n, %xs, %a : tensor<i32>, tensor<6x4x3xf32>, tensor<4x5xf32>
  }
  return %r#2 : tensor<4x5xf32>
}

// CHECK-LABEL: func.func @varying
// CHECK: "stablehlo.while"
// CHECK: dot_general
// CHECK: func.return
func.func @varying(%x: tensor<6x4x3xf32>, %w: tensor<3x5xf32>, %h0: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%i = %i0, %xs = %x, %ws = %w, %h = %h0) : tensor<i32>, tensor<6x4x3xf32>, tensor<3x5xf32>, tensor<4x5xf32>
  cond {
    %c = stablehlo.constant dense<6> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %s = stablehlo.dynamic_slice %xs, %i, %z, %z, sizes = [1, 4, 3] : (tensor<6x4x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x3xf32>
    %rs = stablehlo.reshape %s : (tensor<1x4x3xf32>) -> tensor<4x3xf32>
    %y = stablehlo.dot_general %rs, %ws, contracting_dims = [1] x [0] : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
    %a = stablehlo.add %y, %h : tensor<4x5xf32>
    %half = stablehlo.constant dense<0.5> : tensor<3x5xf32>
    %w2 = stablehlo.multiply %ws, %half : tensor<3x5xf32>
    stablehlo.return %n, %xs, %w2, %a : tensor<i32>, tensor<6x4x3xf32>, tensor<3x5xf32>, tensor<4x5xf32>
  }
  return %r#3 : tensor<4x5xf32>
}

// CHECK-LABEL: func.func @rhs
// CHECK: "stablehlo.while"
// CHECK: dot_general
// CHECK: func.return
func.func @rhs(%x: tensor<6x3x4xf32>, %w: tensor<5x3xf32>, %h0: tensor<5x4xf32>) -> tensor<5x4xf32> {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %xs = %x, %h = %h0) : tensor<i32>, tensor<6x3x4xf32>, tensor<5x4xf32>
  cond {
    %c = stablehlo.constant dense<6> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %s = stablehlo.dynamic_slice %xs, %i, %z, %z, sizes = [1, 3, 4] : (tensor<6x3x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x3x4xf32>
    %rs = stablehlo.reshape %s : (tensor<1x3x4xf32>) -> tensor<3x4xf32>
    %y = stablehlo.dot_general %w, %rs, contracting_dims = [1] x [0] : (tensor<5x3xf32>, tensor<3x4xf32>) -> tensor<5x4xf32>
    %a = stablehlo.add %y, %h : tensor<5x4xf32>
    stablehlo.return %n, %xs, %a : tensor<i32>, tensor<6x3x4xf32>, tensor<5x4xf32>
  }
  return %r#2 : tensor<5x4xf32>
}
