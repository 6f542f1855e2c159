// select_and_scatter on the gpu backend (src/gpu/select_scatter.c: max
// pooling's gradient, one thread per result element, the interpreter's
// choices and order: exact), run by GPGPU-Sim (skipped without it) against
// the reference interpreter: 2x2 windows with stride 2, and overlapping 3x3
// windows with stride 2 and padding.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: xlac run --backend=interp --random-inputs --seed 3 --entry pool_grad --output-dir %t/p %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 3 --entry pool_grad %s \
// RUN:   --expect 0=@%t/p/result0.npy --expect 1=@%t/p/result1.npy --atol 0 --rtol 0 | FileCheck %s
// CHECK: expect result[0]: ok, max abs error 0
// CHECK: expect result[1]: ok, max abs error 0

func.func @pool_grad(%x: tensor<2x9x9x3xf32>, %g: tensor<2x4x4x3xf32>, %h: tensor<2x5x5x3xf32>) -> (tensor<2x9x9x3xf32>, tensor<2x9x9x3xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %g, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<2x9x9x3xf32>, tensor<2x4x4x3xf32>, tensor<f32>) -> tensor<2x9x9x3xf32>
  %q = "stablehlo.select_and_scatter"(%x, %h, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<2x9x9x3xf32>, tensor<2x5x5x3xf32>, tensor<f32>) -> tensor<2x9x9x3xf32>
  return %r, %q : tensor<2x9x9x3xf32>, tensor<2x9x9x3xf32>
}
