// Random numbers on the gpu backend (src/gpu/random.c) against the
// reference interpreter, bit for bit.  rng_bit_generator: Threefry with
// 32-bit outputs paired along an odd dimension (the largest), an even
// middle one and an even first one, 64-bit, 8-bit and f32 (raw bits)
// outputs; Philox with a 3-word state (and a counter that carries into its
// high word), a 2-word one and DEFAULT, with 32-bit outputs that end in a
// partial block and an odd number of 64-bit ones; outputs of 33000 and
// 90000 elements (several blocks per thread); a dropout mask made of the
// bits; the state chained from op to op.  Also replica_id, partition_id
// and tokens.  These run on GPGPU-Sim (skipped without it) and on the SIMT
// harness.  rng runs on the SIMT harness only (the lines testing
// XLAC_TEST_GPU): GPGPU-Sim misreads the 64-bit immediates of its double
// scaling and 64-bit remainder.  UNIFORM (integers, pred, f32, f64, 200000
// elements, and a bf16 range where rounding reaches b, so that elements
// are drawn again) is exact; NORMAL (f32, f64, f16) takes the inline log
// and cos (docs/math.md) in Box-Muller, so it is compared within a few ULP
// of double.  f8/f6/f4 (UNIFORM and NORMAL) are exact.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in threefry philox philox2 dropout ids big; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 3 --entry $e --output-dir %t/$e %s > /dev/null && \
// RUN:   n=$(ls %t/$e | wc -l) && args= && for k in $(seq 0 $((n - 1))); do args="$args --expect $k=@%t/$e/result$k.npy"; done && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 3 --entry $e %s $args --atol 0 --rtol 0 || exit 1; done \
// RUN:   | FileCheck %s --check-prefix=BITS
// BITS-COUNT-25: expect result[{{[0-9]}}]: ok
// BITS-NOT: MISMATCH
// RUN: xlac run --backend=interp --input 's=[12345, 18446744073709551610, 7]' --entry philox --output-dir %t/carry %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --input 's=[12345, 18446744073709551610, 7]' --entry philox %s \
// RUN:   --expect 0=@%t/carry/result0.npy --expect 1=@%t/carry/result1.npy --expect 2=@%t/carry/result2.npy \
// RUN:   --expect 5=@%t/carry/result5.npy | FileCheck %s --check-prefix=CARRY
// CARRY: result[0]: tensor<3xui64> = [12345, 18, 8]
// CARRY-COUNT-4: ok, equal
// RUN: if [ -n "${XLAC_TEST_GPU:-}" ]; then \
// RUN:   xlac run --backend=interp --entry uniform --output-dir %t/uniform %s > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --entry uniform %s --atol 0 --rtol 0 \
// RUN:     --expect 0=@%t/uniform/result0.npy --expect 1=@%t/uniform/result1.npy --expect 2=@%t/uniform/result2.npy \
// RUN:     --expect 3=@%t/uniform/result3.npy --expect 4=@%t/uniform/result4.npy --expect 5=@%t/uniform/result5.npy \
// RUN:     --expect 6=@%t/uniform/result6.npy --expect 7=@%t/uniform/result7.npy | FileCheck %s --check-prefix=UNIFORM; fi
// UNIFORM: expect result[0]: ok, max abs error 0
// UNIFORM: expect result[1]: ok, equal
// UNIFORM: expect result[2]: ok, equal
// UNIFORM: expect result[3]: ok, max abs error 0
// UNIFORM: expect result[4]: ok, equal
// UNIFORM: expect result[5]: ok, max abs error 0
// UNIFORM: expect result[6]: ok, equal
// UNIFORM: expect result[7]: ok, max abs error 0
// RUN: if [ -n "${XLAC_TEST_GPU:-}" ]; then \
// RUN:   xlac run --backend=interp --entry normal --output-dir %t/normal %s > /dev/null && \
// RUN:   { %S/Inputs/sim.sh xlac run --backend=gpu --entry normal %s --expect 0=@%t/normal/result0.npy --atol 1e-6 --rtol 1e-6 && \
// RUN:     %S/Inputs/sim.sh xlac run --backend=gpu --entry normal %s --expect 1=@%t/normal/result1.npy --atol 1e-13 --rtol 1e-13 && \
// RUN:     %S/Inputs/sim.sh xlac run --backend=gpu --entry normal %s --expect 2=@%t/normal/result2.npy --atol 1e-3 --rtol 1e-3; } \
// RUN:   | FileCheck %s --check-prefix=NORMAL; fi
// NORMAL: expect result[0]: ok
// NORMAL: expect result[1]: ok
// NORMAL: expect result[2]: ok
// ptxas (of a CUDA installation, else the simulator's) takes every kernel
// for sm_80 and sm_90 without spills (in the simulator's pass):
// RUN: [ -n "${XLAC_TEST_GPU:-}" ] || { p=$(command -v ptxas || %S/Inputs/sim.sh --ptxas) && \
// RUN:   for a in sm_80 sm_90; do for e in threefry philox uniform normal; do \
// RUN:     env XLAC_CUDA_DRIVER=/nonexistent XLAC_GPU_ARCH=$a xlac run --backend=gpu --random-inputs --entry $e \
// RUN:       --xla_dump_to=%t/ptx_${a}_$e %s > /dev/null 2>&1; \
// RUN:     "$p" -arch=$a -v %t/ptx_${a}_$e/*.gpu.ptx -o %t/ptx.cubin 2>&1 || exit 1; done; done \
// RUN:   | FileCheck %s --check-prefix=PTXAS; }
// PTXAS-COUNT-48: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: bytes spill stores
// rng of f8/f6/f4 types (which the CPU backend leaves to the
// interpreter): drawn in double and rounded once to the type (through f32
// rounded to odd), UNIFORM and NORMAL, bit for bit (NORMAL's few ULP of
// double vanish in the rounding to 3 or fewer bits here):
// RUN: if [ -n "${XLAC_TEST_GPU:-}" ]; then \
// RUN:   xlac run --backend=interp --entry f8 --output-dir %t/f8 %s > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --entry f8 %s --atol 0 --rtol 0 \
// RUN:     --expect 0=@%t/f8/result0.npy --expect 1=@%t/f8/result1.npy --expect 2=@%t/f8/result2.npy \
// RUN:     --expect 3=@%t/f8/result3.npy --expect 4=@%t/f8/result4.npy | FileCheck %s --check-prefix=F8; fi
// F8-COUNT-5: expect result[{{[0-4]}}]: ok, max abs error 0

func.func @threefry(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<5x7xui32>, tensor<3x4x5xui32>, tensor<2x3x9xui32>, tensor<3x5xui64>, tensor<9x3xui8>, tensor<6x5xui32>) {
  %s1, %a = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5x7xui32>)
  %s2, %b = "stablehlo.rng_bit_generator"(%s1) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x4x5xui32>)
  %s3, %c = "stablehlo.rng_bit_generator"(%s2) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3x9xui32>)
  %s4, %d = "stablehlo.rng_bit_generator"(%s3) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x5xui64>)
  %s5, %e = "stablehlo.rng_bit_generator"(%s4) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<9x3xui8>)
  %s6, %f = "stablehlo.rng_bit_generator"(%s5) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<6x5xf32>)
  %fb = stablehlo.bitcast_convert %f : (tensor<6x5xf32>) -> tensor<6x5xui32>
  return %s6, %a, %b, %c, %d, %e, %fb : tensor<2xui64>, tensor<5x7xui32>, tensor<3x4x5xui32>, tensor<2x3x9xui32>, tensor<3x5xui64>, tensor<9x3xui8>, tensor<6x5xui32>
}
func.func @philox(%s: tensor<3xui64>) -> (tensor<3xui64>, tensor<5x7xui32>, tensor<3x5xui64>, tensor<10xui8>, tensor<6xui16>, tensor<7xui32>) {
  %s1, %a = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<3xui64>) -> (tensor<3xui64>, tensor<5x7xui32>)
  %s2, %b = "stablehlo.rng_bit_generator"(%s1) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<3xui64>) -> (tensor<3xui64>, tensor<3x5xui64>)
  %s3, %c = "stablehlo.rng_bit_generator"(%s2) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<3xui64>) -> (tensor<3xui64>, tensor<10xui8>)
  %s4, %d = "stablehlo.rng_bit_generator"(%s3) {rng_algorithm = #stablehlo<rng_algorithm DEFAULT>} : (tensor<3xui64>) -> (tensor<3xui64>, tensor<6xui16>)
  %s5, %e = "stablehlo.rng_bit_generator"(%s4) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<3xui64>) -> (tensor<3xui64>, tensor<7xf32>)
  %eb = stablehlo.bitcast_convert %e : (tensor<7xf32>) -> tensor<7xui32>
  return %s5, %a, %b, %c, %d, %eb : tensor<3xui64>, tensor<5x7xui32>, tensor<3x5xui64>, tensor<10xui8>, tensor<6xui16>, tensor<7xui32>
}
func.func @philox2(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<5x3xui32>, tensor<3xui64>) {
  %s1, %a = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5x3xui32>)
  %s2, %b = "stablehlo.rng_bit_generator"(%s1) {rng_algorithm = #stablehlo<rng_algorithm DEFAULT>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui64>)
  return %s2, %a, %b : tensor<2xui64>, tensor<5x3xui32>, tensor<3xui64>
}
func.func @dropout(%x: tensor<64x48xf32>, %s: tensor<2xui64>) -> (tensor<64x48xf32>, tensor<2xui64>) {
  %s1, %bits = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<64x48xui32>)
  %c9 = stablehlo.constant dense<9> : tensor<64x48xui32>
  %one = stablehlo.constant dense<1065353216> : tensor<64x48xui32>
  %m = stablehlo.shift_right_logical %bits, %c9 : tensor<64x48xui32>
  %o = stablehlo.or %m, %one : tensor<64x48xui32>
  %f = stablehlo.bitcast_convert %o : (tensor<64x48xui32>) -> tensor<64x48xf32>
  %c1 = stablehlo.constant dense<1.0> : tensor<64x48xf32>
  %u = stablehlo.subtract %f, %c1 : tensor<64x48xf32>
  %p = stablehlo.constant dense<0.8> : tensor<64x48xf32>
  %keep = stablehlo.compare LT, %u, %p : (tensor<64x48xf32>, tensor<64x48xf32>) -> tensor<64x48xi1>
  %xs = stablehlo.divide %x, %p : tensor<64x48xf32>
  %z = stablehlo.constant dense<0.0> : tensor<64x48xf32>
  %y = stablehlo.select %keep, %xs, %z : tensor<64x48xi1>, tensor<64x48xf32>
  return %y, %s1 : tensor<64x48xf32>, tensor<2xui64>
}
func.func @uniform() -> (tensor<40x50xf32>, tensor<100xi32>, tensor<64xui8>, tensor<30xf64>, tensor<5xi1>, tensor<200xbf16>, tensor<20xi64>, tensor<200000xf32>) {
  %a = stablehlo.constant dense<-1.0> : tensor<f32>
  %b = stablehlo.constant dense<3.0> : tensor<f32>
  %sh0 = stablehlo.constant dense<[40, 50]> : tensor<2xi64>
  %r0 = "stablehlo.rng"(%a, %b, %sh0) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<40x50xf32>
  %ia = stablehlo.constant dense<-5> : tensor<i32>
  %ib = stablehlo.constant dense<1000> : tensor<i32>
  %sh1 = stablehlo.constant dense<[100]> : tensor<1xi64>
  %r1 = "stablehlo.rng"(%ia, %ib, %sh1) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<100xi32>
  %ua = stablehlo.constant dense<10> : tensor<ui8>
  %ub = stablehlo.constant dense<200> : tensor<ui8>
  %sh2 = stablehlo.constant dense<[64]> : tensor<1xi64>
  %r2 = "stablehlo.rng"(%ua, %ub, %sh2) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<ui8>, tensor<ui8>, tensor<1xi64>) -> tensor<64xui8>
  %da = stablehlo.constant dense<2.0> : tensor<f64>
  %db = stablehlo.constant dense<2.5> : tensor<f64>
  %sh3 = stablehlo.constant dense<[30]> : tensor<1xi64>
  %r3 = "stablehlo.rng"(%da, %db, %sh3) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f64>, tensor<f64>, tensor<1xi64>) -> tensor<30xf64>
  %pa = stablehlo.constant dense<true> : tensor<i1>
  %pb = stablehlo.constant dense<true> : tensor<i1>
  %sh4 = stablehlo.constant dense<[5]> : tensor<1xi64>
  %r4 = "stablehlo.rng"(%pa, %pb, %sh4) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<i1>, tensor<i1>, tensor<1xi64>) -> tensor<5xi1>
  %ha = stablehlo.constant dense<256.0> : tensor<bf16>
  %hb = stablehlo.constant dense<260.0> : tensor<bf16>
  %sh5 = stablehlo.constant dense<[200]> : tensor<1xi64>
  %r5 = "stablehlo.rng"(%ha, %hb, %sh5) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<bf16>, tensor<bf16>, tensor<1xi64>) -> tensor<200xbf16>
  %la = stablehlo.constant dense<-9000000000000000000> : tensor<i64>
  %lb = stablehlo.constant dense<9000000000000000000> : tensor<i64>
  %sh6 = stablehlo.constant dense<[20]> : tensor<1xi64>
  %r6 = "stablehlo.rng"(%la, %lb, %sh6) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<i64>, tensor<i64>, tensor<1xi64>) -> tensor<20xi64>
  %ua7 = stablehlo.constant dense<0.0> : tensor<f32>
  %ub7 = stablehlo.constant dense<1.0> : tensor<f32>
  %sh7 = stablehlo.constant dense<[200000]> : tensor<1xi64>
  %r7 = "stablehlo.rng"(%ua7, %ub7, %sh7) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<200000xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7 : tensor<40x50xf32>, tensor<100xi32>, tensor<64xui8>, tensor<30xf64>, tensor<5xi1>, tensor<200xbf16>, tensor<20xi64>, tensor<200000xf32>
}
func.func @normal() -> (tensor<50x40xf32>, tensor<300xf64>, tensor<100xf16>) {
  %a = stablehlo.constant dense<0.5> : tensor<f32>
  %b = stablehlo.constant dense<2.0> : tensor<f32>
  %sh0 = stablehlo.constant dense<[50, 40]> : tensor<2xi64>
  %r0 = "stablehlo.rng"(%a, %b, %sh0) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<50x40xf32>
  %da = stablehlo.constant dense<-1.0> : tensor<f64>
  %db = stablehlo.constant dense<3.0> : tensor<f64>
  %sh1 = stablehlo.constant dense<[300]> : tensor<1xi64>
  %r1 = "stablehlo.rng"(%da, %db, %sh1) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f64>, tensor<f64>, tensor<1xi64>) -> tensor<300xf64>
  %ha = stablehlo.constant dense<0.0> : tensor<f16>
  %hb = stablehlo.constant dense<1.0> : tensor<f16>
  %sh2 = stablehlo.constant dense<[100]> : tensor<1xi64>
  %r2 = "stablehlo.rng"(%ha, %hb, %sh2) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f16>, tensor<f16>, tensor<1xi64>) -> tensor<100xf16>
  return %r0, %r1, %r2 : tensor<50x40xf32>, tensor<300xf64>, tensor<100xf16>
}
func.func @big(%s: tensor<2xui64>, %t: tensor<3xui64>) -> (tensor<2xui64>, tensor<129x257xui32>, tensor<3xui64>, tensor<300x301xui32>) {
  %s1, %a = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<129x257xui32>)
  %t1, %b = "stablehlo.rng_bit_generator"(%t) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<3xui64>) -> (tensor<3xui64>, tensor<300x301xui32>)
  return %s1, %a, %t1, %b : tensor<2xui64>, tensor<129x257xui32>, tensor<3xui64>, tensor<300x301xui32>
}
func.func @ids(%x: tensor<4xf32>) -> (tensor<ui32>, tensor<ui32>, tensor<4xf32>) {
  %t0 = stablehlo.create_token : !stablehlo.token
  %t1 = stablehlo.after_all %t0, %t0 : !stablehlo.token
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  %rf = stablehlo.convert %r : (tensor<ui32>) -> tensor<f32>
  %rb = stablehlo.broadcast_in_dim %rf, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %y = stablehlo.add %x, %rb : tensor<4xf32>
  return %r, %p, %y : tensor<ui32>, tensor<ui32>, tensor<4xf32>
}
func.func @f8() -> (tensor<1000xf8E4M3FN>, tensor<1000xf8E5M2>, tensor<1000xf8E4M3FNUZ>, tensor<1000xf4E2M1FN>, tensor<1000xf6E3M2FN>) {
  %sh = stablehlo.constant dense<[1000]> : tensor<1xi64>
  %a0 = stablehlo.constant dense<0.0> : tensor<f8E4M3FN>
  %b0 = stablehlo.constant dense<1.0> : tensor<f8E4M3FN>
  %r0 = "stablehlo.rng"(%a0, %b0, %sh) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f8E4M3FN>, tensor<f8E4M3FN>, tensor<1xi64>) -> tensor<1000xf8E4M3FN>
  %a1 = stablehlo.constant dense<-2.0> : tensor<f8E5M2>
  %b1 = stablehlo.constant dense<3.0> : tensor<f8E5M2>
  %r1 = "stablehlo.rng"(%a1, %b1, %sh) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f8E5M2>, tensor<f8E5M2>, tensor<1xi64>) -> tensor<1000xf8E5M2>
  %a2 = stablehlo.constant dense<0.5> : tensor<f8E4M3FNUZ>
  %b2 = stablehlo.constant dense<2.0> : tensor<f8E4M3FNUZ>
  %r2 = "stablehlo.rng"(%a2, %b2, %sh) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f8E4M3FNUZ>, tensor<f8E4M3FNUZ>, tensor<1xi64>) -> tensor<1000xf8E4M3FNUZ>
  %a3 = stablehlo.constant dense<-3.0> : tensor<f4E2M1FN>
  %b3 = stablehlo.constant dense<4.0> : tensor<f4E2M1FN>
  %r3 = "stablehlo.rng"(%a3, %b3, %sh) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f4E2M1FN>, tensor<f4E2M1FN>, tensor<1xi64>) -> tensor<1000xf4E2M1FN>
  %a4 = stablehlo.constant dense<0.0> : tensor<f6E3M2FN>
  %b4 = stablehlo.constant dense<1.0> : tensor<f6E3M2FN>
  %r4 = "stablehlo.rng"(%a4, %b4, %sh) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f6E3M2FN>, tensor<f6E3M2FN>, tensor<1xi64>) -> tensor<1000xf6E3M2FN>
  return %r0, %r1, %r2, %r3, %r4 : tensor<1000xf8E4M3FN>, tensor<1000xf8E5M2>, tensor<1000xf8E4M3FNUZ>, tensor<1000xf4E2M1FN>, tensor<1000xf6E3M2FN>
}
