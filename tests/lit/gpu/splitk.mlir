// Split-K in the gpu backend's tiled GEMM (src/gpu/gemm.c, plan_split):
// products of few output tiles over a long contraction have their k range
// cut into splits of whole panels, each summed by blocks of its own into
// the scratch area, then one thread per output adds the partial sums in
// split order and applies the epilogue.  Run by GPGPU-Sim (skipped
// without it) and the SIMT harness against the reference interpreter: a
// convolution's weight gradient (k = 1024 positions, 4 splits), an f32
// matmul with a bias and tanh epilogue (kOutput, 8 splits), bf16 operands
// into a bf16 result (rounded once, after the sum), an f64 product with a
// last split shorter than the others, and a product too short to split
// (one kernel).
// XLAC-BACKENDS: gpu
// XLAC-TIMEOUT: 600
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in wgrad mm_tanh bf16 f64 short; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 7 --entry $e --output-dir %t/$e %s > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 7 --entry $e %s --verbose \
// RUN:     --expect 0=@%t/$e/result0.npy --atol 2e-4 --rtol 2e-3 2>&1 || exit 1; done | FileCheck %s
// CHECK: gpu: 2 kernels (0 fusions)
// CHECK: expect result[0]: ok
// CHECK: gpu: 2 kernels (1 fusions)
// CHECK: expect result[0]: ok
// CHECK: gpu: 2 kernels (0 fusions)
// CHECK: expect result[0]: ok
// CHECK: gpu: 2 kernels (0 fusions)
// CHECK: expect result[0]: ok
// CHECK: gpu: 1 kernels (0 fusions)
// CHECK: expect result[0]: ok

func.func @wgrad(%x: tensor<4x16x16x8xf32>, %dy: tensor<4x16x16x16xf32>) -> tensor<3x3x8x16xf32> {
  %0 = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x16x16x8xf32>, tensor<4x16x16x16xf32>) -> tensor<3x3x8x16xf32>
  return %0 : tensor<3x3x8x16xf32>
}

func.func @mm_tanh(%a: tensor<16x2048xf32>, %b: tensor<2048x24xf32>, %c: tensor<24xf32>) -> tensor<16x24xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<16x2048xf32>, tensor<2048x24xf32>) -> tensor<16x24xf32>
  %1 = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<24xf32>) -> tensor<16x24xf32>
  %2 = stablehlo.add %0, %1 : tensor<16x24xf32>
  %3 = stablehlo.tanh %2 : tensor<16x24xf32>
  return %3 : tensor<16x24xf32>
}

func.func @bf16(%a: tensor<8x1024xbf16>, %b: tensor<1024x8xbf16>) -> tensor<8x8xbf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x1024xbf16>, tensor<1024x8xbf16>) -> tensor<8x8xbf16>
  return %0 : tensor<8x8xbf16>
}

func.func @f64(%a: tensor<4x600xf64>, %b: tensor<600x4xf64>) -> tensor<4x4xf64> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x600xf64>, tensor<600x4xf64>) -> tensor<4x4xf64>
  return %0 : tensor<4x4xf64>
}

func.func @short(%a: tensor<4x500xf32>, %b: tensor<500x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x500xf32>, tensor<500x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
