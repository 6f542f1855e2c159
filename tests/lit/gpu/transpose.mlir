// Loop fusions around transposes that move the innermost dimension, which
// the gpu backend runs as 32 x 32 tiles through shared memory
// (src/gpu/transpose.c): 2-D, sides that are not multiples of 32, batches
// of matrices (3-D, NCHW -> NHWC, a batch dimension between the swapped
// ones), work before and after the transpose, two transposes in one
// fusion, broadcasts on either side (their coordinates by division), more
// tiles than the SIMT harness's grid has blocks, f32 and i32 (f16 and
// bf16: half.mlir); on GPGPU-Sim (skipped without it) and the SIMT harness, each
// against the reference interpreter on the same random inputs: exactly,
// except exp (the inline approximation, docs/math.md), which must then be
// exactly what the untiled loop kernel computes (XLAC_GPU_TRANSPOSE=0).
// ptx.test checks that these kernels use shared memory and barriers.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in before odd batch nchw middle two ints bias prebias many; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 4 --entry $e --output-dir %t/$e %s > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 4 --entry $e %s --verbose \
// RUN:     --expect 0=@%t/$e/result0.npy || exit 1; \
// RUN: done 2>&1 | FileCheck %s --check-prefix=EXACT
// EXACT-COUNT-10: gpu: 1 kernels (1 fusions)
// EXACT-NOT: MISMATCH
// EXACT-NOT: max abs error {{[1-9]}}
// RUN: xlac run --backend=interp --random-inputs --seed 4 --entry two --output-dir %t/two2 %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 4 --entry two %s \
// RUN:   --expect 1=@%t/two2/result1.npy | FileCheck %s --check-prefix=TWO
// TWO: expect result[1]: ok, max abs error 0
// RUN: xlac run --backend=interp --random-inputs --seed 5 --entry exp_after --output-dir %t/exp %s > /dev/null
// RUN: env XLAC_GPU_TRANSPOSE=0 %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 5 --entry exp_after %s \
// RUN:   --output-dir %t/exp_loop > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 5 --entry exp_after %s \
// RUN:   --expect 0=@%t/exp/result0.npy --atol 1e-6 --rtol 1e-5 | FileCheck %s --check-prefix=EXP
// EXP: expect result[0]: ok
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 5 --entry exp_after %s \
// RUN:   --expect 0=@%t/exp_loop/result0.npy | FileCheck %s --check-prefix=SAME
// SAME: expect result[0]: ok, max abs error 0

// exp and an add after the transpose: the operand read coalesced, the
// other addend at the result's index.
func.func @exp_after(%x: tensor<64x96xf32>, %y: tensor<96x64xf32>) -> tensor<96x64xf32> {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<64x96xf32>) -> tensor<96x64xf32>
  %e = stablehlo.exponential %t : tensor<96x64xf32>
  %r = stablehlo.add %e, %y : tensor<96x64xf32>
  return %r : tensor<96x64xf32>
}

// Work before the transpose, computed at the operand's index.
func.func @before(%x: tensor<64x96xf32>, %z: tensor<64x96xf32>) -> tensor<96x64xf32> {
  %one = stablehlo.constant dense<1.0> : tensor<64x96xf32>
  %m = stablehlo.multiply %x, %z : tensor<64x96xf32>
  %a = stablehlo.add %m, %one : tensor<64x96xf32>
  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<64x96xf32>) -> tensor<96x64xf32>
  return %t : tensor<96x64xf32>
}

// Sides that are not multiples of 32: partial tiles.
func.func @odd(%x: tensor<33x65xf32>, %y: tensor<65x33xf32>) -> tensor<65x33xf32> {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<33x65xf32>) -> tensor<65x33xf32>
  %r = stablehlo.subtract %t, %y : tensor<65x33xf32>
  return %r : tensor<65x33xf32>
}

// A batch of 3 matrices of 40 x 48.
func.func @batch(%x: tensor<3x40x48xf32>, %y: tensor<3x48x40xf32>) -> tensor<3x48x40xf32> {
  %t = stablehlo.transpose %x, dims = [0, 2, 1] : (tensor<3x40x48xf32>) -> tensor<3x48x40xf32>
  %r = stablehlo.maximum %t, %y : tensor<3x48x40xf32>
  return %r : tensor<3x48x40xf32>
}

// NCHW -> NHWC: a batch of 2 matrices of [C = 20, H * W = 42].
func.func @nchw(%x: tensor<2x20x6x7xf32>) -> tensor<2x6x7x20xf32> {
  %c = stablehlo.constant dense<2.0> : tensor<f32>
  %t = stablehlo.transpose %x, dims = [0, 2, 3, 1] : (tensor<2x20x6x7xf32>) -> tensor<2x6x7x20xf32>
  %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<2x6x7x20xf32>
  %r = stablehlo.multiply %t, %b : tensor<2x6x7x20xf32>
  return %r : tensor<2x6x7x20xf32>
}

// The outer and inner dimensions swapped, the batch dimension between
// them.
func.func @middle(%x: tensor<40x3x50xf32>) -> tensor<50x3x40xf32> {
  %t = stablehlo.transpose %x, dims = [2, 1, 0] : (tensor<40x3x50xf32>) -> tensor<50x3x40xf32>
  %r = stablehlo.negate %t : tensor<50x3x40xf32>
  return %r : tensor<50x3x40xf32>
}

// Two transposes of the same permutation in one multi-output fusion.
func.func @two(%x: tensor<48x64xf32>, %z: tensor<48x64xf32>) -> (tensor<64x48xf32>, tensor<64x48xf32>) {
  %tx = stablehlo.transpose %x, dims = [1, 0] : (tensor<48x64xf32>) -> tensor<64x48xf32>
  %tz = stablehlo.transpose %z, dims = [1, 0] : (tensor<48x64xf32>) -> tensor<64x48xf32>
  %m = stablehlo.multiply %tx, %tz : tensor<64x48xf32>
  %s = stablehlo.add %m, %tx : tensor<64x48xf32>
  return %tx, %s : tensor<64x48xf32>, tensor<64x48xf32>
}

// 32-bit integers, a row of 100 against a column of 70.
func.func @ints(%x: tensor<70x100xi32>, %y: tensor<100x70xi32>) -> tensor<100x70xi32> {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<70x100xi32>) -> tensor<100x70xi32>
  %r = stablehlo.xor %t, %y : tensor<100x70xi32>
  return %r : tensor<100x70xi32>
}

// A bias broadcast along the result's rows: the work after the transpose
// indexed by coordinates.
func.func @bias(%x: tensor<40x72xf32>, %b: tensor<40xf32>) -> tensor<72x40xf32> {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<40x72xf32>) -> tensor<72x40xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<40xf32>) -> tensor<72x40xf32>
  %r = stablehlo.add %t, %bb : tensor<72x40xf32>
  return %r : tensor<72x40xf32>
}

// ... and along the operand's rows, before it.
func.func @prebias(%x: tensor<2x40x72xf32>, %b: tensor<72xf32>) -> tensor<2x72x40xf32> {
  %bb = stablehlo.broadcast_in_dim %b, dims = [2] : (tensor<72xf32>) -> tensor<2x40x72xf32>
  %s = stablehlo.multiply %x, %bb : tensor<2x40x72xf32>
  %t = stablehlo.transpose %s, dims = [0, 2, 1] : (tensor<2x40x72xf32>) -> tensor<2x72x40xf32>
  return %t : tensor<2x72x40xf32>
}

// 80 tiles: more than the 64 blocks of the SIMT harness's grid, so blocks
// take several tiles, the barrier after each keeping the next one's
// writes from the tile still being read.
func.func @many(%x: tensor<4x128x160xf32>, %y: tensor<4x160x128xf32>) -> tensor<4x160x128xf32> {
  %t = stablehlo.transpose %x, dims = [0, 2, 1] : (tensor<4x128x160xf32>) -> tensor<4x160x128xf32>
  %r = stablehlo.add %t, %y : tensor<4x160x128xf32>
  return %r : tensor<4x160x128xf32>
}
