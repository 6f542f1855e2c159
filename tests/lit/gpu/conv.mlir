// Convolution on the gpu backend (src/gpu/gemm.c: an implicit GEMM
// through the tiled kernel without groups, one thread per output with
// them; both in the interpreter's summation order), run by GPGPU-Sim
// (skipped without it) and the SIMT harness against the reference
// interpreter: NHWC with stride, padding and a bias+relu epilogue fused
// (kOutput); NCHW with feature groups, rhs dilation and window reversal;
// a transposed convolution (lhs dilation) in f64; a 3x3 layer of several
// tiles in M, N and K; a 1-D convolution with rhs dilation and reversal;
// permuted dimension numbers (feature-major input, batch-last output);
// grouped convolutions through the tiled kernel, as JAX's forward pass
// and gradients of a 2-group layer write them (feature groups with a bias
// epilogue, the weight gradient's batch groups, the input gradient's
// feature groups over an [0, 1, o, i] kernel), and a depthwise one (the
// direct kernel).
// XLAC-BACKENDS: gpu
// XLAC-TIMEOUT: 900
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in nhwc grouped tconv layer conv1d permuted gfwd gwgrad gigrad depthwise; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 3 --entry $e --output-dir %t/$e %s > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 3 --entry $e %s --verbose \
// RUN:     --expect 0=@%t/$e/result0.npy --atol 1e-5 --rtol 1e-5 2>&1 || exit 1; done | FileCheck %s
// CHECK: gpu: 1 kernels (1 fusions)
// CHECK: expect result[0]: ok
// CHECK: gpu: 1 kernels (0 fusions)
// CHECK: expect result[0]: ok
// CHECK: gpu: 1 kernels (0 fusions)
// CHECK: expect result[0]: ok, max abs error 0
// CHECK: gpu: 1 kernels (1 fusions)
// CHECK: expect result[0]: ok
// CHECK: gpu: 1 kernels (0 fusions)
// CHECK: expect result[0]: ok
// CHECK: gpu: 1 kernels (0 fusions)
// CHECK: expect result[0]: ok
// CHECK: gpu: 1 kernels (1 fusions)
// CHECK: expect result[0]: ok
// CHECK: gpu: 1 kernels (0 fusions)
// CHECK: expect result[0]: ok
// CHECK: gpu: 1 kernels (0 fusions)
// CHECK: expect result[0]: ok
// CHECK: gpu: 1 kernels (0 fusions)
// CHECK: expect result[0]: ok

func.func @nhwc(%x: tensor<2x9x9x3xf32>, %k: tensor<3x3x3x8xf32>, %b: tensor<8xf32>) -> tensor<2x5x5x8xf32> {
  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x9x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x5x5x8xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<8xf32>) -> tensor<2x5x5x8xf32>
  %s = stablehlo.add %c, %bb : tensor<2x5x5x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<2x5x5x8xf32>
  %r = stablehlo.maximum %s, %z : tensor<2x5x5x8xf32>
  return %r : tensor<2x5x5x8xf32>
}
func.func @grouped(%x: tensor<1x6x10x10xf32>, %k: tensor<6x3x3x3xf32>) -> tensor<1x6x12x4xf32> {
  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 2], pad = [[2, 2], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 2], reverse = [1, 0]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x6x10x10xf32>, tensor<6x3x3x3xf32>) -> tensor<1x6x12x4xf32>
  return %c : tensor<1x6x12x4xf32>
}
func.func @tconv(%x: tensor<1x4x4x2xf64>, %k: tensor<3x3x2x2xf64>) -> tensor<1x9x9x2xf64> {
  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 2], [2, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf64>, tensor<3x3x2x2xf64>) -> tensor<1x9x9x2xf64>
  return %c : tensor<1x9x9x2xf64>
}
func.func @layer(%x: tensor<2x12x12x16xf32>, %k: tensor<3x3x16x72xf32>, %b: tensor<72xf32>) -> tensor<2x12x12x72xf32> {
  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x12x12x16xf32>, tensor<3x3x16x72xf32>) -> tensor<2x12x12x72xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<72xf32>) -> tensor<2x12x12x72xf32>
  %s = stablehlo.add %c, %bb : tensor<2x12x12x72xf32>
  return %s : tensor<2x12x12x72xf32>
}
func.func @conv1d(%x: tensor<3x4x20xf32>, %k: tensor<5x4x3xf32>) -> tensor<3x5x14xf32> {
  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[1, 1]], rhs_dilate = [4], reverse = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x4x20xf32>, tensor<5x4x3xf32>) -> tensor<3x5x14xf32>
  return %c : tensor<3x5x14xf32>
}
func.func @permuted(%x: tensor<3x2x7x6xf32>, %k: tensor<4x3x2x2xf32>) -> tensor<4x6x5x2xf32> {
  %c = stablehlo.convolution(%x, %k) dim_numbers = [f, b, 0, 1]x[o, i, 0, 1]->[f, 0, 1, b], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x2x7x6xf32>, tensor<4x3x2x2xf32>) -> tensor<4x6x5x2xf32>
  return %c : tensor<4x6x5x2xf32>
}
func.func @gfwd(%x: tensor<2x8x8x16xf32>, %k: tensor<3x3x8x32xf32>, %b: tensor<32xf32>) -> tensor<2x8x8x32xf32> {
  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x8x8x16xf32>, tensor<3x3x8x32xf32>) -> tensor<2x8x8x32xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<32xf32>) -> tensor<2x8x8x32xf32>
  %s = stablehlo.add %c, %bb : tensor<2x8x8x32xf32>
  return %s : tensor<2x8x8x32xf32>
}
func.func @gwgrad(%x: tensor<2x8x8x16xf32>, %g: tensor<2x8x8x32xf32>) -> tensor<3x3x8x32xf32> {
  %c = stablehlo.convolution(%x, %g) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x16xf32>, tensor<2x8x8x32xf32>) -> tensor<3x3x8x32xf32>
  return %c : tensor<3x3x8x32xf32>
}
func.func @gigrad(%g: tensor<2x8x8x32xf32>, %k: tensor<3x3x16x16xf32>) -> tensor<2x8x8x16xf32> {
  %c = stablehlo.convolution(%g, %k) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], reverse = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x8x8x32xf32>, tensor<3x3x16x16xf32>) -> tensor<2x8x8x16xf32>
  return %c : tensor<2x8x8x16xf32>
}
func.func @depthwise(%x: tensor<2x7x7x8xf32>, %k: tensor<3x3x1x8xf32>) -> tensor<2x7x7x8xf32> {
  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 8 : i64} : (tensor<2x7x7x8xf32>, tensor<3x3x1x8xf32>) -> tensor<2x7x7x8xf32>
  return %c : tensor<2x7x7x8xf32>
}
