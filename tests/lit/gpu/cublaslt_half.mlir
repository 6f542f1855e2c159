// 16-bit float products through cuBLASLt (src/gpu/cublaslt.c; the test's
// stand-in library, Inputs/fake_cublaslt.c), against the reference
// interpreter, on the SIMT harness only (the simulator runs no f16/bf16
// kernels, which our fallback kernel would be): f16 and bf16 operands and
// results with f32 accumulation and f32 alpha/beta, a bf16 bias + relu and
// an f16 bias + gelu fused into the call.  cuBLASLt rounds once after its
// f32 epilogue where the interpreter rounds after every op, hence the
// tolerances.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random
// XLAC-SIMT-ONLY
// RUN: rm -rf %t && mkdir -p %t
// RUN: xlac run --backend=interp --random-inputs --seed 11 --entry half --output-dir %t/half %s > /dev/null
// RUN: %S/Inputs/fake_blas.sh %t/half.log xlac run --backend=gpu --random-inputs --seed 11 --entry half %s --verbose \
// RUN:   --expect 0=@%t/half/result0.npy --expect 1=@%t/half/result1.npy --atol 1e-2 --rtol 1e-2 2>&1 | FileCheck %s --check-prefix=HALF
// HALF: gpu: cuBLASLt {{.*}}: 2 of 2 dot_general products
// HALF: gpu: 2 products ran through cuBLASLt, 0 declined
// HALF: expect result[0]: ok
// HALF: expect result[1]: ok
// RUN: grep -v Heuristic %t/half.log | sort | FileCheck %s --check-prefix=HALF-LOG
// HALF-LOG: type=bf16 compute=32F scale=f32 m=50 n=40 k=30 batch=1 transa=N transb=N
// HALF-LOG: type=f16 compute=32F scale=f32 m=50 n=40 k=30 batch=2 transa=N transb=N
// RUN: xlac run --backend=interp --random-inputs --seed 12 --entry act --output-dir %t/act %s > /dev/null
// RUN: %S/Inputs/fake_blas.sh %t/act.log xlac run --backend=gpu --random-inputs --seed 12 --entry act %s \
// RUN:   --expect 0=@%t/act/result0.npy --expect 1=@%t/act/result1.npy --atol 5e-2 --rtol 5e-2 | FileCheck %s --check-prefix=ACT
// ACT: expect result[0]: ok
// ACT: expect result[1]: ok
// RUN: grep -v Heuristic %t/act.log | sort | FileCheck %s --check-prefix=ACT-LOG
// ACT-LOG: type=bf16 compute=32F scale=f32 m=24 n=16 k=40 {{.*}} epilogue=RELU_BIAS bias=yes
// ACT-LOG: type=f16 compute=32F scale=f32 m=24 n=16 k=40 {{.*}} epilogue=GELU_BIAS bias=yes
// Without the library: our kernel, the same results.
// RUN: XLAC_CUBLASLT=%t/none.so %S/Inputs/fake_blas.sh %t/none.log xlac run --backend=gpu --random-inputs --seed 12 --entry act %s \
// RUN:   --expect 0=@%t/act/result0.npy --expect 1=@%t/act/result1.npy --atol 5e-2 --rtol 5e-2 | FileCheck %s --check-prefix=ACT
// RUN: not test -s %t/none.log
// Mixed precision: bf16 and f16 operands under an f32 result (a bias of
// the result's type fused): A and B of their 16-bit type, D f32.
// RUN: xlac run --backend=interp --random-inputs --seed 13 --entry mixed --output-dir %t/mixed %s > /dev/null
// RUN: %S/Inputs/fake_blas.sh %t/mixed.log xlac run --backend=gpu --random-inputs --seed 13 --entry mixed %s --verbose \
// RUN:   --expect 0=@%t/mixed/result0.npy --expect 1=@%t/mixed/result1.npy --atol 1e-5 --rtol 1e-5 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: gpu: cuBLASLt {{.*}}: 2 of 2 dot_general products
// MIXED: gpu: 2 products ran through cuBLASLt, 0 declined
// MIXED: expect result[0]: ok
// MIXED: expect result[1]: ok
// RUN: grep -v Heuristic %t/mixed.log | sort | FileCheck %s --check-prefix=MIXED-LOG
// MIXED-LOG: type=f32 compute=32F scale=f32 m=50 n=40 k=30 {{.*}} epilogue=BIAS bias=yes {{.*}} ab=bf16
// MIXED-LOG: type=f32 compute=32F scale=f32 m=50 n=40 k=30 {{.*}} epilogue=DEFAULT bias=no {{.*}} ab=f16
// Without the library: our kernel, the same results.
// RUN: XLAC_CUBLASLT=%t/none.so %S/Inputs/fake_blas.sh %t/none2.log xlac run --backend=gpu --random-inputs --seed 13 --entry mixed %s \
// RUN:   --expect 0=@%t/mixed/result0.npy --expect 1=@%t/mixed/result1.npy --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=MIXED-OURS
// MIXED-OURS: expect result[0]: ok
// MIXED-OURS: expect result[1]: ok

func.func @half(%a: tensor<2x40x30xf16>, %b: tensor<2x30x50xf16>, %c: tensor<40x30xbf16>, %d: tensor<30x50xbf16>) -> (tensor<2x40x50xf16>, tensor<40x50xbf16>) {
  %p = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x40x30xf16>, tensor<2x30x50xf16>) -> tensor<2x40x50xf16>
  %q = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<40x30xbf16>, tensor<30x50xbf16>) -> tensor<40x50xbf16>
  return %p, %q : tensor<2x40x50xf16>, tensor<40x50xbf16>
}
func.func @act(%a: tensor<16x40xbf16>, %b: tensor<40x24xbf16>, %bias: tensor<24xbf16>, %c: tensor<16x40xf16>, %d: tensor<40x24xf16>, %e: tensor<24xf16>) -> (tensor<16x24xbf16>, tensor<16x24xf16>) {
  %p = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<16x40xbf16>, tensor<40x24xbf16>) -> tensor<16x24xbf16>
  %bb = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<24xbf16>) -> tensor<16x24xbf16>
  %s = stablehlo.add %p, %bb : tensor<16x24xbf16>
  %z = stablehlo.constant dense<0.0> : tensor<16x24xbf16>
  %r = stablehlo.maximum %z, %s : tensor<16x24xbf16>
  %q = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<16x40xf16>, tensor<40x24xf16>) -> tensor<16x24xf16>
  %eb = stablehlo.broadcast_in_dim %e, dims = [1] : (tensor<24xf16>) -> tensor<16x24xf16>
  %x = stablehlo.add %q, %eb : tensor<16x24xf16>
  %x2 = stablehlo.multiply %x, %x : tensor<16x24xf16>
  %x3 = stablehlo.multiply %x2, %x : tensor<16x24xf16>
  %k = stablehlo.constant dense<0.044715> : tensor<16x24xf16>
  %kx3 = stablehlo.multiply %k, %x3 : tensor<16x24xf16>
  %in = stablehlo.add %x, %kx3 : tensor<16x24xf16>
  %sc = stablehlo.constant dense<0.797884583> : tensor<16x24xf16>
  %u = stablehlo.multiply %sc, %in : tensor<16x24xf16>
  %t = stablehlo.tanh %u : tensor<16x24xf16>
  %one = stablehlo.constant dense<1.0> : tensor<16x24xf16>
  %t1 = stablehlo.add %one, %t : tensor<16x24xf16>
  %half = stablehlo.constant dense<0.5> : tensor<16x24xf16>
  %h = stablehlo.multiply %half, %t1 : tensor<16x24xf16>
  %g = stablehlo.multiply %x, %h : tensor<16x24xf16>
  return %r, %g : tensor<16x24xbf16>, tensor<16x24xf16>
}
func.func @mixed(%a: tensor<40x30xbf16>, %b: tensor<30x50xbf16>, %bias: tensor<50xf32>, %c: tensor<40x30xf16>, %d: tensor<30x50xf16>) -> (tensor<40x50xf32>, tensor<40x50xf32>) {
  %p = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<40x30xbf16>, tensor<30x50xbf16>) -> tensor<40x50xf32>
  %bb = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<50xf32>) -> tensor<40x50xf32>
  %s = stablehlo.add %p, %bb : tensor<40x50xf32>
  %q = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<40x30xf16>, tensor<30x50xf16>) -> tensor<40x50xf32>
  return %s, %q : tensor<40x50xf32>, tensor<40x50xf32>
}
