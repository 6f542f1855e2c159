// reduce_window on the gpu backend (src/gpu/reduce.c: one thread per
// output, the interpreter's order, so bit-identical): max pooling, a
// padded sum (average pooling's numerator), base and window dilations.
// Run by GPGPU-Sim (skipped without it) against the reference interpreter.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: xlac run --backend=interp --random-inputs --seed 3 --entry pool --output-dir %t/pool %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 3 --entry pool %s \
// RUN:   --expect 0=@%t/pool/result0.npy --expect 1=@%t/pool/result1.npy --expect 2=@%t/pool/result2.npy \
// RUN:   --atol 0 --rtol 0 | FileCheck %s
// CHECK: expect result[0]: ok, max abs error 0
// CHECK: expect result[1]: ok, max abs error 0
// CHECK: expect result[2]: ok, max abs error 0

func.func @pool(%x: tensor<2x9x9x3xf32>) -> (tensor<2x4x4x3xf32>, tensor<2x5x5x3xf32>, tensor<2x17x16x3xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %m = "stablehlo.reduce_window"(%x, %ninf) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<2x9x9x3xf32>, tensor<f32>) -> tensor<2x4x4x3xf32>
  %s = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<2x9x9x3xf32>, tensor<f32>) -> tensor<2x5x5x3xf32>
  %d = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 3, 1>, base_dilations = array<i64: 1, 2, 2, 1>, window_dilations = array<i64: 1, 1, 2, 1>, padding = dense<[[0, 0], [1, 0], [2, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<2x9x9x3xf32>, tensor<f32>) -> tensor<2x17x16x3xf32>
  return %m, %s, %d : tensor<2x4x4x3xf32>, tensor<2x5x5x3xf32>, tensor<2x17x16x3xf32>
}
