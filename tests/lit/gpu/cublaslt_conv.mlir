// Convolutions and products through cuBLASLt with epilogues it has not
// (src/gpu/gemm.c: add_conv_blas, add_blas_apart), with the library
// replaced by the test's own (Inputs/fake_cublaslt.c), against the
// reference interpreter.  XLAC_GPU_BLAS_APART=1 takes every size (by
// default only large ones): a 1x1 convolution reading its input as A and
// its kernel as B, a tanh epilogue in a kernel of its own; a strided 3x3
// with bias + relu fused into the call (im2col); an input gradient over
// an [0, 1, o, i] kernel with the window reversed (the kernel gathered);
// a weight gradient ([f, 0, 1, b] x [i, 0, 1, o] -> [0, 1, b, f]); lhs
// and rhs dilation (holes in the windows); a bf16 convolution with a
// bias (the pipeline widens it to f32, so the rounding back to bf16 is an
// epilogue of its own); a product under tanh and one under a residual
// add.  The same with
// the library declining every call (our kernels run them).  The size
// rule without the variable: cublaslt_size.mlir.
// XLAC-BACKENDS: gpu
// XLAC-TIMEOUT: 900
// XLAC-SIMT: forward reverse random
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in direct strided igrad wgrad dilated half dots; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 5 --entry $e --output-dir %t/$e %s > /dev/null || exit 1; done
// RUN: for e in direct strided igrad wgrad dilated half dots; do \
// RUN:   tol=3e-5; [ $e = half ] && tol=2e-2; \
// RUN:   XLAC_GPU_BLAS_APART=1 %S/Inputs/fake_blas.sh %t/$e.log xlac run --backend=gpu --random-inputs --seed 5 --entry $e %s --verbose \
// RUN:     --expect 0=@%t/$e/result0.npy --atol $tol --rtol $tol 2>&1 || exit 1; \
// RUN:   grep -v Heuristic %t/$e.log; done | FileCheck %s
// CHECK: gpu: 2 kernels (1 fusions)
// CHECK: 0 of 0 dot_general products and 1 convolutions (1 with the epilogue in a kernel of its own)
// CHECK: gpu: 1 products ran through cuBLASLt, 0 declined
// CHECK: expect result[0]: ok
// CHECK: m=24 n=72 k=16 batch=1 transa=N transb=N lda=24 ldb=16 ldd=24 {{.*}} epilogue=DEFAULT bias=no
// CHECK: gpu: 2 kernels (1 fusions)
// CHECK: 0 of 0 dot_general products and 1 convolutions, the others
// CHECK: expect result[0]: ok
// CHECK: m=8 n=50 k=27 batch=1 transa=N transb=N lda=8 ldb=27 ldd=8 {{.*}} epilogue=RELU_BIAS bias=yes
// CHECK: gpu: 3 kernels (0 fusions)
// CHECK: expect result[0]: ok
// CHECK: m=16 n=128 k=216 {{.*}} epilogue=DEFAULT
// CHECK: gpu: 2 kernels (0 fusions)
// CHECK: expect result[0]: ok
// CHECK: m=32 n=144 k=128 {{.*}} epilogue=DEFAULT
// CHECK: gpu: 2 kernels (0 fusions)
// CHECK: expect result[0]: ok
// CHECK: m=4 n=49 k=27 {{.*}} epilogue=DEFAULT
// CHECK: 0 of 0 dot_general products and 1 convolutions (1 with the epilogue in a kernel of its own)
// CHECK: expect result[0]: ok
// CHECK: type=f32 compute=32F scale=f32 m=24 n=72 k=72 {{.*}} epilogue=DEFAULT
// CHECK: gpu: 4 kernels (2 fusions)
// CHECK: 2 of 2 dot_general products (2 with the epilogue in a kernel of its own)
// CHECK: expect result[0]: ok
// CHECK: m=20 n=12 k=40 {{.*}} epilogue=DEFAULT
// CHECK: m=20 n=12 k=20 {{.*}} epilogue=DEFAULT
//
// cuBLASLt declining every call: our kernels, into the product's scratch
// where the epilogue is apart.
// RUN: for e in direct strided igrad wgrad dilated dots; do \
// RUN:   XLAC_FAKE_CUBLASLT_DECLINE=1 XLAC_GPU_BLAS_APART=1 %S/Inputs/fake_blas.sh %t/$e.dlog xlac run --backend=gpu --random-inputs --seed 5 --entry $e %s \
// RUN:     --verbose --expect 0=@%t/$e/result0.npy --atol 3e-5 --rtol 3e-5 2>&1 || exit 1; done | FileCheck %s --check-prefix=DECLINE
// DECLINE: gpu: 0 products ran through cuBLASLt, 1 declined
// DECLINE: expect result[0]: ok
// DECLINE: gpu: 0 products ran through cuBLASLt, 1 declined
// DECLINE: expect result[0]: ok
// DECLINE: gpu: 0 products ran through cuBLASLt, 1 declined
// DECLINE: expect result[0]: ok
// DECLINE: gpu: 0 products ran through cuBLASLt, 1 declined
// DECLINE: expect result[0]: ok
// DECLINE: gpu: 0 products ran through cuBLASLt, 1 declined
// DECLINE: expect result[0]: ok
// DECLINE: gpu: 0 products ran through cuBLASLt, 2 declined
// DECLINE: expect result[0]: ok

func.func @direct(%x: tensor<2x6x6x16xf32>, %k: tensor<1x1x16x24xf32>) -> tensor<2x6x6x24xf32> {
  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x6x6x16xf32>, tensor<1x1x16x24xf32>) -> tensor<2x6x6x24xf32>
  %r = stablehlo.tanh %c : tensor<2x6x6x24xf32>
  return %r : tensor<2x6x6x24xf32>
}
func.func @strided(%x: tensor<2x9x9x3xf32>, %k: tensor<3x3x3x8xf32>, %b: tensor<8xf32>) -> tensor<2x5x5x8xf32> {
  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x9x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x5x5x8xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<8xf32>) -> tensor<2x5x5x8xf32>
  %s = stablehlo.add %c, %bb : tensor<2x5x5x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<2x5x5x8xf32>
  %r = stablehlo.maximum %s, %z : tensor<2x5x5x8xf32>
  return %r : tensor<2x5x5x8xf32>
}
func.func @igrad(%g: tensor<2x8x8x24xf32>, %k: tensor<3x3x16x24xf32>) -> tensor<2x8x8x16xf32> {
  %c = stablehlo.convolution(%g, %k) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], reverse = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x24xf32>, tensor<3x3x16x24xf32>) -> tensor<2x8x8x16xf32>
  return %c : tensor<2x8x8x16xf32>
}
func.func @wgrad(%x: tensor<2x8x8x16xf32>, %g: tensor<2x8x8x32xf32>) -> tensor<3x3x16x32xf32> {
  %c = stablehlo.convolution(%x, %g) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x16xf32>, tensor<2x8x8x32xf32>) -> tensor<3x3x16x32xf32>
  return %c : tensor<3x3x16x32xf32>
}
func.func @dilated(%x: tensor<1x5x5x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x7x7x4xf32> {
  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [2, 2], rhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x5x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x7x7x4xf32>
  return %c : tensor<1x7x7x4xf32>
}
func.func @half(%x: tensor<2x6x6x8xbf16>, %k: tensor<3x3x8x24xbf16>, %b: tensor<24xbf16>) -> tensor<2x6x6x24xbf16> {
  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x6x6x8xbf16>, tensor<3x3x8x24xbf16>) -> tensor<2x6x6x24xbf16>
  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<24xbf16>) -> tensor<2x6x6x24xbf16>
  %s = stablehlo.add %c, %bb : tensor<2x6x6x24xbf16>
  return %s : tensor<2x6x6x24xbf16>
}
func.func @dots(%x: tensor<12x40xf32>, %w: tensor<40x20xf32>, %v: tensor<20x20xf32>, %y: tensor<12x20xf32>) -> tensor<12x20xf32> {
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<12x40xf32>, tensor<40x20xf32>) -> tensor<12x20xf32>
  %h = stablehlo.tanh %d : tensor<12x20xf32>
  %e = stablehlo.dot_general %h, %v, contracting_dims = [1] x [0] : (tensor<12x20xf32>, tensor<20x20xf32>) -> tensor<12x20xf32>
  %r = stablehlo.add %e, %y : tensor<12x20xf32>
  return %r : tensor<12x20xf32>
}
