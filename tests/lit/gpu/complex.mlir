// Complex elementwise math on the gpu backend: device code has no C
// library, so division and the transcendental functions are the inline
// formulas of codegen/emit_complex.c (Cg.no_libm), checked against the
// interpreter (libm's complex functions) on the same random inputs, and
// integer power, is_finite and real/imag of real operands, and the
// dot_generals the tiled kernel does not take.  On the SIMT
// harness only: the f64 steps of sine and cosine use 64-bit immediates
// GPGPU-Sim misreads (docs/gpu.md).
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// XLAC-SIMT-ONLY
// RUN: rm -rf %t && mkdir -p %t
// RUN: xlac run --backend=interp --random-inputs --seed 2 --entry cmath --output-dir %t/c %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 2 --entry cmath %s \
// RUN:   --expect 0=@%t/c/result0.npy --expect 1=@%t/c/result1.npy --expect 2=@%t/c/result2.npy \
// RUN:   --expect 3=@%t/c/result3.npy --atol 1e-5 --rtol 1e-5 | FileCheck %s
// CHECK-COUNT-4: expect result[{{[0-3]}}]: ok
// RUN: xlac run --backend=interp --random-inputs --seed 3 --entry ints %s --output-dir %t/i > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 3 --entry ints %s \
// RUN:   --expect 0=@%t/i/result0.npy --expect 1=@%t/i/result1.npy --expect 2=@%t/i/result2.npy \
// RUN:   | FileCheck %s --check-prefix=INT
// INT: expect result[0]: ok, equal
// INT: expect result[1]: ok, equal
// INT: expect result[2]: ok
// RUN: xlac run --backend=interp --random-inputs --seed 4 --entry dots %s --output-dir %t/d > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 4 --entry dots %s \
// RUN:   --expect 0=@%t/d/result0.npy --expect 1=@%t/d/result1.npy --atol 0 --rtol 0 | FileCheck %s --check-prefix=DOT
// DOT: expect result[0]: ok
// DOT: expect result[1]: ok

func.func @cmath(%x: tensor<512xcomplex<f32>>, %y: tensor<512xcomplex<f32>>)
    -> (tensor<512xcomplex<f32>>, tensor<512xcomplex<f32>>, tensor<512xcomplex<f32>>, tensor<512xf32>) {
  %e = stablehlo.exponential %x : tensor<512xcomplex<f32>>
  %l = stablehlo.log %y : tensor<512xcomplex<f32>>
  %s = stablehlo.sqrt %x : tensor<512xcomplex<f32>>
  %d = stablehlo.divide %x, %y : tensor<512xcomplex<f32>>
  %r0 = stablehlo.add %e, %l : tensor<512xcomplex<f32>>
  %r1 = stablehlo.add %s, %d : tensor<512xcomplex<f32>>
  %sn = stablehlo.sine %x : tensor<512xcomplex<f32>>
  %cs = stablehlo.cosine %y : tensor<512xcomplex<f32>>
  %th = stablehlo.tanh %x : tensor<512xcomplex<f32>>
  %p = stablehlo.power %x, %y : tensor<512xcomplex<f32>>
  %a = stablehlo.add %sn, %cs : tensor<512xcomplex<f32>>
  %b = stablehlo.add %th, %p : tensor<512xcomplex<f32>>
  %at = stablehlo.atan2 %x, %y : tensor<512xcomplex<f32>>
  %ab = stablehlo.add %a, %b : tensor<512xcomplex<f32>>
  %r2 = stablehlo.add %ab, %at : tensor<512xcomplex<f32>>
  %r3 = stablehlo.abs %x : (tensor<512xcomplex<f32>>) -> tensor<512xf32>
  return %r0, %r1, %r2, %r3 : tensor<512xcomplex<f32>>, tensor<512xcomplex<f32>>, tensor<512xcomplex<f32>>, tensor<512xf32>
}

func.func @ints(%b: tensor<1024xi32>, %e: tensor<1024xi8>, %x: tensor<1024xf32>) -> (tensor<1024xi32>, tensor<1024xi1>, tensor<1024xf32>) {
  %e32 = stablehlo.convert %e : (tensor<1024xi8>) -> tensor<1024xi32>
  %p = stablehlo.power %b, %e32 : tensor<1024xi32>
  %f = stablehlo.is_finite %x : (tensor<1024xf32>) -> tensor<1024xi1>
  %r = stablehlo.real %x : tensor<1024xf32>
  return %p, %f, %r : tensor<1024xi32>, tensor<1024xi1>, tensor<1024xf32>
}

// dot_general the tiled kernel does not take: complex, and f32 into f64
// (the reference kernel: the interpreter's order in double, bit-identical)
func.func @dots(%a: tensor<2x6x5xcomplex<f32>>, %b: tensor<2x5x3xcomplex<f32>>, %c: tensor<4x7xf32>, %d: tensor<7x3xf32>)
    -> (tensor<2x6x3xcomplex<f32>>, tensor<4x3xf64>) {
  %p = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1]
       : (tensor<2x6x5xcomplex<f32>>, tensor<2x5x3xcomplex<f32>>) -> tensor<2x6x3xcomplex<f32>>
  %q = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<4x7xf32>, tensor<7x3xf32>) -> tensor<4x3xf64>
  return %p, %q : tensor<2x6x3xcomplex<f32>>, tensor<4x3xf64>
}
