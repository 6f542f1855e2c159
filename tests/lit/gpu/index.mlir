// Index-mapping ops (transpose, broadcast, slice, concatenate, reverse,
// pad, iota, dynamic slices) in loop kernels over multi-dimensional
// iteration spaces, several kernels with temporary buffers, and results
// that are a parameter, a constant or one value twice, on GPGPU-Sim
// (skipped without it), against the reference interpreter.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: xlac run --backend=interp --random-inputs --seed 11 --entry index_ops --output-dir %t/a %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 11 --entry index_ops %s \
// RUN:   --expect 0=@%t/a/result0.npy --expect 1=@%t/a/result1.npy | FileCheck %s --check-prefix=IDX
// IDX: expect result[0]: ok, max abs error 0
// IDX: expect result[1]: ok
// RUN: xlac run --backend=interp --input x=@%t/a/result0.npy --input i=5 --input j=-3 --entry copies --output-dir %t/b %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --input x=@%t/a/result0.npy --input i=5 --input j=-3 --entry copies %s \
// RUN:   --verbose --expect 0=@%t/b/result0.npy --expect 1=@%t/b/result1.npy --expect 2=@%t/b/result2.npy \
// RUN:   --expect 3=@%t/b/result3.npy --expect 4=@%t/b/result4.npy --expect 5=@%t/b/result5.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COPY
// COPY: gpu: {{[2-9]}} kernels
// COPY: expect result[0]: ok
// COPY: expect result[1]: ok
// COPY: expect result[2]: ok
// COPY: expect result[3]: ok
// COPY: expect result[4]: ok
// COPY: expect result[5]: ok

func.func @index_ops(%x: tensor<32x48xf32>, %b: tensor<48xf32>) -> (tensor<48x36xf32>, tensor<64x48xf32>) {
  %z = stablehlo.constant dense<0.25> : tensor<f32>
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<32x48xf32>) -> tensor<48x32xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [0] : (tensor<48xf32>) -> tensor<48x32xf32>
  %s = stablehlo.add %t, %bb : tensor<48x32xf32>
  %r = stablehlo.reverse %s, dims = [1] : tensor<48x32xf32>
  %p = stablehlo.pad %r, %z, low = [0, 1], high = [0, 3], interior = [0, 0] : (tensor<48x32xf32>, tensor<f32>) -> tensor<48x36xf32>
  %io = stablehlo.iota dim = 1 : tensor<48x36xf32>
  %o0 = stablehlo.multiply %p, %io : tensor<48x36xf32>
  %sl = stablehlo.slice %x [0:16, 0:48] : (tensor<32x48xf32>) -> tensor<16x48xf32>
  %bx = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<48xf32>) -> tensor<32x48xf32>
  %e = stablehlo.exponential %bx : tensor<32x48xf32>
  %c = stablehlo.concatenate %sl, %e, %sl, dim = 0 : (tensor<16x48xf32>, tensor<32x48xf32>, tensor<16x48xf32>) -> tensor<64x48xf32>
  return %o0, %c : tensor<48x36xf32>, tensor<64x48xf32>
}

// Dynamic slices with clamped starts, a value computed by one kernel and
// read by others through the temp arena, and results that need copies.
// (No reshape between different dimensions in a fusion: its index
// arithmetic is 64-bit division by constants, which LLVM makes a 64-bit
// mul.hi of, and GPGPU-Sim has none; docs/gpu.md.)
func.func @copies(%x: tensor<48x36xf32>, %i: tensor<i32>, %j: tensor<i32>) -> (tensor<48x36xf32>, tensor<4xf32>, tensor<8x8xf32>, tensor<48x36xf32>, tensor<48x36xf32>, tensor<36x48xf32>) {
  %k = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %two = stablehlo.constant dense<2.0> : tensor<48x36xf32>
  %ds = stablehlo.dynamic_slice %x, %i, %j, sizes = [8, 8] : (tensor<48x36xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
  %sq = stablehlo.multiply %ds, %ds : tensor<8x8xf32>
  %y = stablehlo.multiply %x, %two : tensor<48x36xf32>
  %u = stablehlo.dynamic_update_slice %y, %sq, %j, %i : (tensor<48x36xf32>, tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<48x36xf32>
  %t = stablehlo.transpose %u, dims = [1, 0] : (tensor<48x36xf32>) -> tensor<36x48xf32>
  %v = stablehlo.add %y, %u : tensor<48x36xf32>
  return %x, %k, %sq, %v, %v, %t : tensor<48x36xf32>, tensor<4xf32>, tensor<8x8xf32>, tensor<48x36xf32>, tensor<48x36xf32>, tensor<36x48xf32>
}
