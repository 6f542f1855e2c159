// The size rule for taking products and convolutions whose epilogue
// cuBLASLt has not to it (src/gpu/gemm.c, blas_apart_wanted), with the
// library replaced by the test's own (Inputs/fake_cublaslt.c), against the
// reference interpreter, on the SIMT harness only (the simulator takes
// minutes over the large layer with our kernel): a 32x32x64 -> 64 3x3
// layer under a residual add (M N K = 2^25 + 2^22) through cuBLASLt, the
// small convolution and products of cublaslt_conv.mlir not;
// XLAC_GPU_BLAS_APART=0 none.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward random
// XLAC-SIMT-ONLY
// RUN: rm -rf %t && mkdir -p %t
// RUN: xlac run --backend=interp --random-inputs --seed 6 --entry big --output-dir %t/big %s > /dev/null
// RUN: %S/Inputs/fake_blas.sh %t/big.log xlac run --backend=gpu --random-inputs --seed 6 --entry big %s --verbose \
// RUN:   --expect 0=@%t/big/result0.npy --atol 1e-4 --rtol 1e-4 2>&1 | FileCheck %s --check-prefix=BIG
// BIG: 0 of 0 dot_general products and 1 convolutions (1 with the epilogue in a kernel of its own)
// BIG: expect result[0]: ok
// RUN: %S/Inputs/fake_blas.sh %t/small.log xlac run --backend=gpu --random-inputs --seed 5 --entry direct %S/cublaslt_conv.mlir --verbose 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: %S/Inputs/fake_blas.sh %t/small.log xlac run --backend=gpu --random-inputs --seed 5 --entry dots %S/cublaslt_conv.mlir --verbose 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL-NOT: convolutions
// SMALL-NOT: with the epilogue
// RUN: not test -s %t/small.log
// RUN: XLAC_GPU_BLAS_APART=0 %S/Inputs/fake_blas.sh %t/off.log xlac run --backend=gpu --random-inputs --seed 6 --entry big %s \
// RUN:   --expect 0=@%t/big/result0.npy --atol 1e-4 --rtol 1e-4 | FileCheck %s --check-prefix=OFF
// OFF: expect result[0]: ok
// RUN: not test -s %t/off.log

func.func @big(%x: tensor<1x32x32x64xf32>, %k: tensor<3x3x64x64xf32>, %y: tensor<1x32x32x64xf32>) -> tensor<1x32x32x64xf32> {
  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x32x32x64xf32>, tensor<3x3x64x64xf32>) -> tensor<1x32x32x64xf32>
  %r = stablehlo.add %c, %y : tensor<1x32x32x64xf32>
  return %r : tensor<1x32x32x64xf32>
}
