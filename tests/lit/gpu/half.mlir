// The tiled transposes and the vectorized loops (transpose.mlir,
// vector.mlir) in f16 and bf16, on the SIMT harness only (GPGPU-Sim gets
// half-precision arithmetic wrong and asserts on half compares,
// docs/gpu.md): transposes fused with an add (exactly the interpreter's)
// and an exp (exactly the untiled kernel's, XLAC_GPU_TRANSPOSE=0, and
// close to the interpreter's); loops of 8 elements a thread (16 bytes) over
// 1024, 1023 and 5 elements, and a bf16 bias broadcast along rows of 40
// (not flat: 8 neighbours in a row a thread), exactly the interpreter's.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// XLAC-SIMT-ONLY
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in tr_f16 tr_bf16 odd_f16; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 2 --entry $e --output-dir %t/$e %s > /dev/null && \
// RUN:   env XLAC_GPU_TRANSPOSE=0 %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 2 --entry $e %s \
// RUN:     --output-dir %t/${e}_loop > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 2 --entry $e %s \
// RUN:     --expect 0=@%t/$e/result0.npy --expect 1=@%t/$e/result1.npy --atol 0.01 --rtol 0.01 && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 2 --entry $e %s \
// RUN:     --expect 0=@%t/$e/result0.npy --expect 1=@%t/${e}_loop/result1.npy || exit 1; \
// RUN: done > %t/tr.txt
// RUN: ! grep MISMATCH %t/tr.txt
// RUN: grep -c 'expect result\[[01]\]: ok' %t/tr.txt | FileCheck %s --check-prefix=TR12
// TR12: {{^12$}}
// RUN: grep -c 'expect result\[[01]\]: ok, max abs error 0 (atol 1e-05' %t/tr.txt | FileCheck %s --check-prefix=TR6
// TR6: {{^6$}}
// RUN: for e in v1024 v1023 v5 bias_bf16; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 3 --entry $e --output-dir %t/$e %s > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 3 --entry $e %s \
// RUN:     --expect 0=@%t/$e/result0.npy --expect 1=@%t/$e/result1.npy || exit 1; \
// RUN: done | FileCheck %s --check-prefix=VEC
// VEC-COUNT-8: expect result[{{[01]}}]: ok, max abs error 0
// VEC-NOT: MISMATCH

// f16 64 x 96: the transpose plus y, and exp of the transpose.
func.func @tr_f16(%x: tensor<64x96xf16>, %y: tensor<96x64xf16>) -> (tensor<96x64xf16>, tensor<96x64xf16>) {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<64x96xf16>) -> tensor<96x64xf16>
  %r = stablehlo.add %t, %y : tensor<96x64xf16>
  %e = stablehlo.exponential %t : tensor<96x64xf16>
  return %r, %e : tensor<96x64xf16>, tensor<96x64xf16>
}

// bf16, a batch of 2 matrices.
func.func @tr_bf16(%x: tensor<2x40x48xbf16>, %y: tensor<2x48x40xbf16>) -> (tensor<2x48x40xbf16>, tensor<2x48x40xbf16>) {
  %t = stablehlo.transpose %x, dims = [0, 2, 1] : (tensor<2x40x48xbf16>) -> tensor<2x48x40xbf16>
  %r = stablehlo.add %t, %y : tensor<2x48x40xbf16>
  %e = stablehlo.exponential %t : tensor<2x48x40xbf16>
  return %r, %e : tensor<2x48x40xbf16>, tensor<2x48x40xbf16>
}

// f16 33 x 65: partial tiles.
func.func @odd_f16(%x: tensor<33x65xf16>, %y: tensor<65x33xf16>) -> (tensor<65x33xf16>, tensor<65x33xf16>) {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<33x65xf16>) -> tensor<65x33xf16>
  %r = stablehlo.multiply %t, %y : tensor<65x33xf16>
  %e = stablehlo.exponential %t : tensor<65x33xf16>
  return %r, %e : tensor<65x33xf16>, tensor<65x33xf16>
}

// 8 f16 a thread; an f32 result beside (4 a thread: 8 bytes of the f16
// operands at a time).
func.func @v1024(%x: tensor<1024xf16>, %y: tensor<1024xf16>) -> (tensor<1024xf16>, tensor<1024xf32>) {
  %r = stablehlo.add %x, %y : tensor<1024xf16>
  %w = stablehlo.convert %r : (tensor<1024xf16>) -> tensor<1024xf32>
  return %r, %w : tensor<1024xf16>, tensor<1024xf32>
}

// bf16: 127 vectors of 8 and 7 elements one at a time.
func.func @v1023(%x: tensor<1023xbf16>, %y: tensor<1023xbf16>) -> (tensor<1023xbf16>, tensor<1023xbf16>) {
  %m = stablehlo.multiply %x, %y : tensor<1023xbf16>
  %s = stablehlo.subtract %x, %y : tensor<1023xbf16>
  return %m, %s : tensor<1023xbf16>, tensor<1023xbf16>
}

// 5 f16: fewer than a vector, one at a time.
func.func @v5(%x: tensor<5xf16>, %y: tensor<5xf16>) -> (tensor<5xf16>, tensor<5xf16>) {
  %m = stablehlo.maximum %x, %y : tensor<5xf16>
  %n = stablehlo.negate %m : tensor<5xf16>
  return %m, %n : tensor<5xf16>, tensor<5xf16>
}

// Rows of 40 bf16 plus a bias, and times it: 8 neighbours a thread.
func.func @bias_bf16(%x: tensor<24x40xbf16>, %b: tensor<40xbf16>) -> (tensor<24x40xbf16>, tensor<24x40xbf16>) {
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<40xbf16>) -> tensor<24x40xbf16>
  %a = stablehlo.add %x, %bb : tensor<24x40xbf16>
  %m = stablehlo.multiply %x, %bb : tensor<24x40xbf16>
  return %a, %m : tensor<24x40xbf16>, tensor<24x40xbf16>
}
