// dot_general through cuBLASLt (src/gpu/cublaslt.c), with the library
// replaced by the test's own (Inputs/fake_cublaslt.c: plain loops on the
// host over the device memory, logging each call), against the reference
// interpreter: a plain product, transposed operands, strided batches (the
// batch leading, and elsewhere: the pipeline moves it first), bias + relu
// and bias + gelu epilogues fused into the call, epilogues cuBLASLt has
// not (our GEMM kernel), operands it cannot describe (our kernel), f64,
// the TF32 policy, temporaries less aligned than cuBLASLt assumes, the
// descriptors kept between executions, and the paths without the library: none found,
// XLAC_GPU_CUBLAS=0, no handle on the device, no algorithm for a problem.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
//
// RUN: xlac run --backend=interp --random-inputs --seed 1 --entry plain --output-dir %t/plain %s > /dev/null
// RUN: %S/Inputs/fake_blas.sh %t/plain.log xlac run --backend=gpu --random-inputs --seed 1 --entry plain %s --verbose \
// RUN:   --expect 0=@%t/plain/result0.npy --atol 1e-5 --rtol 1e-5 2>&1 | FileCheck %s --check-prefix=PLAIN
// PLAIN: gpu: cuBLASLt {{.*}}libxlac_fake_cublaslt.so (version 130000): 1 of 1 dot_general products
// PLAIN: gpu: 1 products ran through cuBLASLt, 0 declined
// PLAIN: expect result[0]: ok
// RUN: grep -v Heuristic %t/plain.log | FileCheck %s --check-prefix=PLAIN-LOG
// PLAIN-LOG: cublasLtMatmul type=f32 compute=32F scale=f32 m=50 n=40 k=30 batch=1 transa=N transb=N lda=50 ldb=30 ldd=50 {{.*}} epilogue=DEFAULT bias=no
// PLAIN-LOG-NOT: cublasLtMatmul
//
// RUN: xlac run --backend=interp --random-inputs --seed 2 --entry trans --output-dir %t/trans %s > /dev/null
// RUN: %S/Inputs/fake_blas.sh %t/trans.log xlac run --backend=gpu --random-inputs --seed 2 --entry trans %s \
// RUN:   --expect 0=@%t/trans/result0.npy --expect 1=@%t/trans/result1.npy --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=TRANS
// TRANS: expect result[0]: ok
// TRANS: expect result[1]: ok
// RUN: grep -v Heuristic %t/trans.log | FileCheck %s --check-prefix=TRANS-LOG
// TRANS-LOG: m=50 n=40 k=30 batch=1 transa=T transb=T lda=30 ldb=40 ldd=50
// TRANS-LOG: m=50 n=40 k=30 batch=1 transa=N transb=T lda=50 ldb=40 ldd=50
//
// RUN: xlac run --backend=interp --random-inputs --seed 3 --entry batched --output-dir %t/batched %s > /dev/null
// RUN: %S/Inputs/fake_blas.sh %t/batched.log xlac run --backend=gpu --random-inputs --seed 3 --entry batched %s \
// RUN:   --expect 0=@%t/batched/result0.npy --expect 1=@%t/batched/result1.npy --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=BATCHED
// BATCHED: expect result[0]: ok
// BATCHED: expect result[1]: ok
// RUN: grep -v Heuristic %t/batched.log | FileCheck %s --check-prefix=BATCHED-LOG
// BATCHED-LOG: m=25 n=20 k=30 batch=4 transa=N transb=N lda=25 ldb=30 ldd=25 strideA=750 strideB=600 strideD=500
// BATCHED-LOG: m=25 n=20 k=30 batch=4 transa=N transb=N lda=25 ldb=30 ldd=25 strideA=750 strideB=600 strideD=500
//
// RUN: xlac run --backend=interp --random-inputs --seed 4 --entry bias_act --output-dir %t/act %s > /dev/null
// RUN: %S/Inputs/fake_blas.sh %t/act.log xlac run --backend=gpu --random-inputs --seed 4 --entry bias_act %s --verbose \
// RUN:   --expect 0=@%t/act/result0.npy --expect 1=@%t/act/result1.npy --expect 2=@%t/act/result2.npy \
// RUN:   --expect 3=@%t/act/result3.npy --atol 1e-5 --rtol 1e-5 2>&1 | FileCheck %s --check-prefix=ACT
// ACT: gpu: cuBLASLt {{.*}}: 4 of 4 dot_general products
// ACT: gpu: 4 products ran through cuBLASLt, 0 declined
// ACT: expect result[0]: ok
// ACT: expect result[1]: ok
// ACT: expect result[2]: ok
// ACT: expect result[3]: ok
// RUN: grep -v Heuristic %t/act.log | sort | FileCheck %s --check-prefix=ACT-LOG
// ACT-LOG: m=50 n=33 k=40 {{.*}} epilogue=BIAS bias=yes
// ACT-LOG: m=50 n=33 k=40 {{.*}} epilogue=GELU bias=no
// ACT-LOG: m=50 n=33 k=40 {{.*}} epilogue=GELU_BIAS bias=yes
// ACT-LOG: m=50 n=33 k=40 {{.*}} epilogue=RELU_BIAS bias=yes
//
// Epilogues cuBLASLt has not, and operands it cannot describe: our kernel.
// RUN: xlac run --backend=interp --random-inputs --seed 5 --entry ours --output-dir %t/ours %s > /dev/null
// RUN: %S/Inputs/fake_blas.sh %t/ours.log xlac run --backend=gpu --random-inputs --seed 5 --entry ours %s --verbose \
// RUN:   --expect 0=@%t/ours/result0.npy --expect 1=@%t/ours/result1.npy --expect 2=@%t/ours/result2.npy \
// RUN:   --expect 3=@%t/ours/result3.npy --expect 4=@%t/ours/result4.npy --expect 5=@%t/ours/result5.npy \
// RUN:   --expect 6=@%t/ours/result6.npy --atol 1e-5 --rtol 1e-5 2>&1 | FileCheck %s --check-prefix=OURS
// OURS: gpu: cuBLASLt {{.*}}: 3 of 7 dot_general products
// OURS: gpu: 3 products ran through cuBLASLt, 0 declined
// OURS: expect result[0]: ok
// OURS: expect result[1]: ok
// OURS: expect result[2]: ok
// OURS: expect result[3]: ok, equal
// OURS: expect result[4]: ok
// OURS: expect result[5]: ok
// OURS: expect result[6]: ok
// RUN: grep -v Heuristic %t/ours.log | sort | FileCheck %s --check-prefix=OURS-LOG
// OURS-LOG: m=19 n=17 k=33 batch=15 {{.*}} epilogue=DEFAULT
// OURS-LOG-NEXT: m=6 n=7 k=5 batch=1 {{.*}} epilogue=DEFAULT {{.*}} ab=bf16
// OURS-LOG-NEXT: m=6 n=7 k=5 batch=1 {{.*}} epilogue=DEFAULT {{.*}} ab=f32
// OURS-LOG-NOT: cublasLtMatmul
//
// RUN: xlac run --backend=interp --random-inputs --seed 6 --entry f64 --output-dir %t/f64 %s > /dev/null
// RUN: %S/Inputs/fake_blas.sh %t/f64.log xlac run --backend=gpu --random-inputs --seed 6 --entry f64 %s \
// RUN:   --expect 0=@%t/f64/result0.npy --atol 1e-13 --rtol 1e-13 | FileCheck %s --check-prefix=F64
// F64: expect result[0]: ok
// RUN: grep -v Heuristic %t/f64.log | FileCheck %s --check-prefix=F64-LOG
// F64-LOG: cublasLtMatmul type=f64 compute=64F scale=f64 m=10 n=20 k=30 {{.*}} epilogue=RELU bias=no
//
// TF32 only where asked for (XLAC_GPU_TF32=1) and the precision config
// allows it (DEFAULT): the HIGHEST product keeps f32.
// RUN: xlac run --backend=interp --random-inputs --seed 7 --entry precision --output-dir %t/prec %s > /dev/null
// RUN: %S/Inputs/fake_blas.sh %t/f32.log xlac run --backend=gpu --random-inputs --seed 7 --entry precision %s \
// RUN:   --expect 0=@%t/prec/result0.npy --expect 1=@%t/prec/result1.npy --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=PREC
// RUN: XLAC_GPU_TF32=1 %S/Inputs/fake_blas.sh %t/tf32.log xlac run --backend=gpu --random-inputs --seed 7 --entry precision %s \
// RUN:   --expect 0=@%t/prec/result0.npy --expect 1=@%t/prec/result1.npy --atol 3e-2 --rtol 1e-5 | FileCheck %s --check-prefix=PREC
// PREC: expect result[0]: ok
// PREC: expect result[1]: ok
// RUN: grep -v Heuristic %t/f32.log | FileCheck %s --check-prefix=F32-LOG
// F32-LOG: compute=32F scale
// F32-LOG: compute=32F scale
// RUN: grep -v Heuristic %t/tf32.log | FileCheck %s --check-prefix=TF32-LOG
// TF32-LOG: compute=32F_FAST_TF32 scale
// TF32-LOG: compute=32F scale
//
// Products whose operands and results are temporaries 64 bytes apart: the
// heuristic is told each buffer's alignment (the stand-in checks the
// pointers against it); repeated executions reuse the descriptors and the
// algorithm (one heuristic query per product and alignment).
// RUN: xlac run --backend=interp --random-inputs --seed 8 --entry chain --output-dir %t/chain %s > /dev/null
// RUN: %S/Inputs/fake_blas.sh %t/chain.log xlac run --backend=gpu --random-inputs --seed 8 --entry chain %s \
// RUN:   --expect 0=@%t/chain/result0.npy --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=CHAIN
// CHAIN: expect result[0]: ok
// RUN: FileCheck %s --check-prefix=CHAIN-LOG < %t/chain.log
// CHAIN-LOG: cublasLtMatmulAlgoGetHeuristic m=5 n=3 align=256,256,256,256
// CHAIN-LOG: cublasLtMatmul {{.*}} m=5 n=3 k=4
// CHAIN-LOG: cublasLtMatmulAlgoGetHeuristic m=6 n=3 align=256,256,64,64
// CHAIN-LOG: cublasLtMatmul {{.*}} m=6 n=3 k=5
// CHAIN-LOG: cublasLtMatmulAlgoGetHeuristic m=2 n=3 align=256,64,256,256
// CHAIN-LOG: cublasLtMatmul {{.*}} m=2 n=3 k=6
// RUN: %S/Inputs/fake_blas.sh %t/bench.log xlac bench --backend=gpu --random-inputs --entry chain --warmup 1 --iters 3 %s \
// RUN:   | FileCheck %s --check-prefix=BENCH
// BENCH: BENCH
// RUN: test "$(grep -c Heuristic %t/bench.log)" = 3
// RUN: test "$(grep -c 'cublasLtMatmul ' %t/bench.log)" = 12
//
// Without the library, or without a device for it: our kernel, the same
// results.
// RUN: XLAC_CUBLASLT=%t/no-such-libcublasLt.so %S/Inputs/fake_blas.sh %t/none.log xlac run --backend=gpu --random-inputs --seed 4 \
// RUN:   --entry bias_act %s --verbose --expect 0=@%t/act/result0.npy --expect 1=@%t/act/result1.npy --expect 2=@%t/act/result2.npy \
// RUN:   --expect 3=@%t/act/result3.npy --atol 1e-5 --rtol 1e-5 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: gpu: cuBLASLt not used (XLAC_CUBLASLT names no loadable cuBLASLt library): 4 dot_general products through our GEMM kernel
// NONE: expect result[3]: ok
// RUN: XLAC_GPU_CUBLAS=0 %S/Inputs/fake_blas.sh %t/none.log xlac run --backend=gpu --random-inputs --seed 1 --entry plain %s --verbose \
// RUN:   --expect 0=@%t/plain/result0.npy --atol 1e-5 --rtol 1e-5 2>&1 | FileCheck %s --check-prefix=OFF
// OFF: gpu: cuBLASLt not used (disabled by XLAC_GPU_CUBLAS=0): 1 dot_general products through our GEMM kernel
// OFF: expect result[0]: ok
// RUN: XLAC_FAKE_CUBLASLT_NO_GPU=1 %S/Inputs/fake_blas.sh %t/none.log xlac run --backend=gpu --random-inputs --seed 4 \
// RUN:   --entry bias_act %s --verbose --expect 0=@%t/act/result0.npy --expect 1=@%t/act/result1.npy --expect 2=@%t/act/result2.npy \
// RUN:   --expect 3=@%t/act/result3.npy --atol 1e-5 --rtol 1e-5 2>&1 | FileCheck %s --check-prefix=DECLINED
// RUN: XLAC_FAKE_CUBLASLT_DECLINE=1 %S/Inputs/fake_blas.sh %t/none.log xlac run --backend=gpu --random-inputs --seed 4 \
// RUN:   --entry bias_act %s --verbose --expect 0=@%t/act/result0.npy --expect 1=@%t/act/result1.npy --expect 2=@%t/act/result2.npy \
// RUN:   --expect 3=@%t/act/result3.npy --atol 1e-5 --rtol 1e-5 2>&1 | FileCheck %s --check-prefix=DECLINED
// DECLINED: gpu: cuBLASLt {{.*}}: 4 of 4 dot_general products
// DECLINED: gpu: 0 products ran through cuBLASLt, 4 declined by it (our GEMM kernel ran them)
// DECLINED: expect result[0]: ok
// DECLINED: expect result[3]: ok
// RUN: not test -s %t/none.log

func.func @plain(%a: tensor<40x30xf32>, %b: tensor<30x50xf32>) -> tensor<40x50xf32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<40x30xf32>, tensor<30x50xf32>) -> tensor<40x50xf32>
  return %d : tensor<40x50xf32>
}
func.func @trans(%a: tensor<30x40xf32>, %b: tensor<50x30xf32>, %c: tensor<30x50xf32>) -> (tensor<40x50xf32>, tensor<40x50xf32>) {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : (tensor<30x40xf32>, tensor<50x30xf32>) -> tensor<40x50xf32>
  %e = stablehlo.dot_general %a, %c, contracting_dims = [0] x [0] : (tensor<30x40xf32>, tensor<30x50xf32>) -> tensor<40x50xf32>
  return %d, %e : tensor<40x50xf32>, tensor<40x50xf32>
}
func.func @batched(%a: tensor<4x20x30xf32>, %b: tensor<4x30x25xf32>, %c: tensor<20x4x30xf32>) -> (tensor<4x20x25xf32>, tensor<4x20x25xf32>) {
  %d = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x20x30xf32>, tensor<4x30x25xf32>) -> tensor<4x20x25xf32>
  %e = stablehlo.dot_general %c, %b, batching_dims = [1] x [0], contracting_dims = [2] x [1] : (tensor<20x4x30xf32>, tensor<4x30x25xf32>) -> tensor<4x20x25xf32>
  return %d, %e : tensor<4x20x25xf32>, tensor<4x20x25xf32>
}
// bias; bias + relu; gelu (tanh form, as jax.nn.gelu writes it); bias + gelu
func.func @bias_act(%a: tensor<33x40xf32>, %b: tensor<40x50xf32>, %bias: tensor<50xf32>, %b2: tensor<40x50xf32>, %b3: tensor<40x50xf32>, %b4: tensor<40x50xf32>) -> (tensor<33x50xf32>, tensor<33x50xf32>, tensor<33x50xf32>, tensor<33x50xf32>) {
  %bb = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<50xf32>) -> tensor<33x50xf32>
  %d0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<33x40xf32>, tensor<40x50xf32>) -> tensor<33x50xf32>
  %r0 = stablehlo.add %bb, %d0 : tensor<33x50xf32>
  %d1 = stablehlo.dot_general %a, %b2, contracting_dims = [1] x [0] : (tensor<33x40xf32>, tensor<40x50xf32>) -> tensor<33x50xf32>
  %s1 = stablehlo.add %d1, %bb : tensor<33x50xf32>
  %z = stablehlo.constant dense<0.0> : tensor<33x50xf32>
  %r1 = stablehlo.maximum %s1, %z : tensor<33x50xf32>
  %d2 = stablehlo.dot_general %a, %b3, contracting_dims = [1] x [0] : (tensor<33x40xf32>, tensor<40x50xf32>) -> tensor<33x50xf32>
  %r2 = func.call @gelu(%d2) : (tensor<33x50xf32>) -> tensor<33x50xf32>
  %d3 = stablehlo.dot_general %a, %b4, contracting_dims = [1] x [0] : (tensor<33x40xf32>, tensor<40x50xf32>) -> tensor<33x50xf32>
  %s3 = stablehlo.add %d3, %bb : tensor<33x50xf32>
  %r3 = func.call @gelu(%s3) : (tensor<33x50xf32>) -> tensor<33x50xf32>
  return %r0, %r1, %r2, %r3 : tensor<33x50xf32>, tensor<33x50xf32>, tensor<33x50xf32>, tensor<33x50xf32>
}
func.func private @gelu(%x: tensor<33x50xf32>) -> tensor<33x50xf32> {
  %x2 = stablehlo.multiply %x, %x : tensor<33x50xf32>
  %x3 = stablehlo.multiply %x2, %x : tensor<33x50xf32>
  %c = stablehlo.constant dense<0.044715> : tensor<33x50xf32>
  %cx3 = stablehlo.multiply %c, %x3 : tensor<33x50xf32>
  %in = stablehlo.add %x, %cx3 : tensor<33x50xf32>
  %s = stablehlo.constant dense<0.797884583> : tensor<33x50xf32>
  %u = stablehlo.multiply %s, %in : tensor<33x50xf32>
  %t = stablehlo.tanh %u : tensor<33x50xf32>
  %one = stablehlo.constant dense<1.0> : tensor<33x50xf32>
  %t1 = stablehlo.add %one, %t : tensor<33x50xf32>
  %half = stablehlo.constant dense<0.5> : tensor<33x50xf32>
  %h = stablehlo.multiply %half, %t1 : tensor<33x50xf32>
  %r = stablehlo.multiply %x, %h : tensor<33x50xf32>
  return %r : tensor<33x50xf32>
}
// our kernel: a bias along the lhs free dim, tanh and the erf form of gelu
// (no such epilogues), integers; to cuBLASLt: batch dims that
// are not adjacent (the pipeline makes them a leading batch of 15 by
// transposes), a plain product, and bf16 operands under an f32 result
// (A and B bf16, D f32)
func.func @ours(%a: tensor<33x40xf32>, %b: tensor<40x50xf32>, %v: tensor<33xf32>, %p: tensor<3x17x5x33xf32>, %q: tensor<5x33x3x19xf32>, %i: tensor<7x5xi32>, %j: tensor<5x6xi32>, %k: tensor<7x5xf32>, %l: tensor<5x6xf32>, %b1: tensor<40x50xf32>, %m: tensor<7x5xbf16>, %n: tensor<5x6xbf16>, %b6: tensor<40x50xf32>) -> (tensor<33x50xf32>, tensor<33x50xf32>, tensor<3x5x17x19xf32>, tensor<7x6xi32>, tensor<7x6xf32>, tensor<7x6xf32>, tensor<33x50xf32>) {
  %vb = stablehlo.broadcast_in_dim %v, dims = [0] : (tensor<33xf32>) -> tensor<33x50xf32>
  %d0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<33x40xf32>, tensor<40x50xf32>) -> tensor<33x50xf32>
  %r0 = stablehlo.add %d0, %vb : tensor<33x50xf32>
  %d1 = stablehlo.dot_general %a, %b1, contracting_dims = [1] x [0] : (tensor<33x40xf32>, tensor<40x50xf32>) -> tensor<33x50xf32>
  %r1 = stablehlo.tanh %d1 : tensor<33x50xf32>
  %r2 = stablehlo.dot_general %p, %q, batching_dims = [0, 2] x [2, 0], contracting_dims = [3] x [1] : (tensor<3x17x5x33xf32>, tensor<5x33x3x19xf32>) -> tensor<3x5x17x19xf32>
  %r3 = stablehlo.dot_general %i, %j, contracting_dims = [1] x [0] : (tensor<7x5xi32>, tensor<5x6xi32>) -> tensor<7x6xi32>
  %r4 = stablehlo.dot_general %k, %l, contracting_dims = [1] x [0] : (tensor<7x5xf32>, tensor<5x6xf32>) -> tensor<7x6xf32>
  %r5 = stablehlo.dot_general %m, %n, contracting_dims = [1] x [0] : (tensor<7x5xbf16>, tensor<5x6xbf16>) -> tensor<7x6xf32>
  %d6 = stablehlo.dot_general %a, %b6, contracting_dims = [1] x [0] : (tensor<33x40xf32>, tensor<40x50xf32>) -> tensor<33x50xf32>
  %r6 = func.call @gelu_erf(%d6) : (tensor<33x50xf32>) -> tensor<33x50xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : tensor<33x50xf32>, tensor<33x50xf32>, tensor<3x5x17x19xf32>, tensor<7x6xi32>, tensor<7x6xf32>, tensor<7x6xf32>, tensor<33x50xf32>
}
// gelu without the approximation (jax.nn.gelu(approximate=False)): not
// cuBLASLt's
func.func private @gelu_erf(%x: tensor<33x50xf32>) -> tensor<33x50xf32> {
  %c = stablehlo.constant dense<0.707106769> : tensor<33x50xf32>
  %u = stablehlo.multiply %x, %c : tensor<33x50xf32>
  %e = chlo.erf %u : tensor<33x50xf32> -> tensor<33x50xf32>
  %one = stablehlo.constant dense<1.0> : tensor<33x50xf32>
  %e1 = stablehlo.add %e, %one : tensor<33x50xf32>
  %half = stablehlo.constant dense<0.5> : tensor<33x50xf32>
  %h = stablehlo.multiply %x, %half : tensor<33x50xf32>
  %r = stablehlo.multiply %h, %e1 : tensor<33x50xf32>
  return %r : tensor<33x50xf32>
}
func.func @f64(%a: tensor<20x30xf64>, %b: tensor<30x10xf64>) -> tensor<20x10xf64> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<20x30xf64>, tensor<30x10xf64>) -> tensor<20x10xf64>
  %z = stablehlo.constant dense<0.0> : tensor<20x10xf64>
  %r = stablehlo.maximum %d, %z : tensor<20x10xf64>
  return %r : tensor<20x10xf64>
}
func.func @precision(%a: tensor<20x30xf32>, %b: tensor<30x10xf32>, %b2: tensor<30x10xf32>) -> (tensor<20x10xf32>, tensor<20x10xf32>) {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<20x30xf32>, tensor<30x10xf32>) -> tensor<20x10xf32>
  %e = stablehlo.dot_general %a, %b2, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<20x30xf32>, tensor<30x10xf32>) -> tensor<20x10xf32>
  return %d, %e : tensor<20x10xf32>, tensor<20x10xf32>
}
func.func @chain(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<5x6xf32>, %e: tensor<6x2xf32>) -> tensor<3x2xf32> {
  %p = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %q = stablehlo.dot_general %p, %c, contracting_dims = [1] x [0] : (tensor<3x5xf32>, tensor<5x6xf32>) -> tensor<3x6xf32>
  %r = stablehlo.dot_general %q, %e, contracting_dims = [1] x [0] : (tensor<3x6xf32>, tensor<6x2xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
