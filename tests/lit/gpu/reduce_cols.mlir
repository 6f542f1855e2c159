// Column reductions of few outputs over a long range on the gpu backend
// (src/gpu/reduce.c: chunked sequential kernel): one thread per (chunk,
// output), consecutive threads on consecutive outputs, each chunk folded
// in order from the reducer's identity into the scratch area, then the
// chunk totals folded from the init value in chunk order.  A bias
// gradient (f32 sum over 3000 rows), a fused product summed over the
// middle dimension, an i32 max (exact), and a short column reduction
// that stays one thread per output (bit-identical).  Against the
// reference interpreter on the SIMT harness and GPGPU-Sim (skipped
// without it); --verbose counts the kernels (2 when chunked).
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in bias_grad middle imax short; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 4 --entry $e --output-dir %t/$e %s > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 4 --entry $e %s --verbose \
// RUN:     --expect 0=@%t/$e/result0.npy --atol 1e-3 --rtol 1e-5 2>&1 || exit 1; done | FileCheck %s
// CHECK: gpu: 2 kernels (1 fusions)
// CHECK: expect result[0]: ok
// CHECK: gpu: 2 kernels (1 fusions)
// CHECK: expect result[0]: ok
// CHECK: gpu: 2 kernels (1 fusions)
// CHECK: expect result[0]: ok, equal
// CHECK: gpu: 1 kernels (1 fusions)
// CHECK: expect result[0]: ok, max abs error 0

func.func @bias_grad(%x: tensor<3000x24xf32>) -> tensor<24xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3000x24xf32>, tensor<f32>) -> tensor<24xf32>
  return %r : tensor<24xf32>
}

func.func @middle(%x: tensor<3x700x10xf32>, %y: tensor<3x700x10xf32>) -> tensor<3x10xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %p = stablehlo.multiply %x, %y : tensor<3x700x10xf32>
  %r = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [1] : (tensor<3x700x10xf32>, tensor<f32>) -> tensor<3x10xf32>
  return %r : tensor<3x10xf32>
}

func.func @imax(%x: tensor<2000x7xi32>) -> tensor<7xi32> {
  %z = stablehlo.constant dense<-2147483648> : tensor<i32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.maximum across dimensions = [0] : (tensor<2000x7xi32>, tensor<i32>) -> tensor<7xi32>
  return %r : tensor<7xi32>
}

func.func @short(%x: tensor<100x24xf32>) -> tensor<24xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<100x24xf32>, tensor<f32>) -> tensor<24xf32>
  return %r : tensor<24xf32>
}
