// Loop fusions over same-shaped operands and results, which the gpu
// backend runs with each thread taking 16 bytes of every buffer at a time
// by one vector load or store (4 f32 or i32, 2 f64; gpu.c), the last
// n % 4 elements one at a time: 1024, 1023 and 5 elements, a 2-D shape, a
// scalar broadcast, a multi-output fusion with an f32 and an i32 result,
// f64, more vectors than the SIMT harness's grid has threads; loops that
// are not flat (a bias, a scale per row, a slice beside a reverse, rows
// of 6 and of 33) taking neighbours in a row; on GPGPU-Sim (skipped
// without it) and the SIMT harness, each
// against the reference interpreter on the same random inputs, exactly,
// and tanh and the loops that are not flat against the scalar kernel
// (XLAC_GPU_VECTOR=0), exactly.  f16
// and bf16 (8 elements a thread): half.mlir.  ptx.test checks the vector
// loads and stores in the PTX.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in n1024 n1023 n5 grid multi f64 big bias rowscale slice_rev inner6 inner33; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 6 --entry $e --output-dir %t/$e %s > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 6 --entry $e %s --verbose \
// RUN:     --expect 0=@%t/$e/result0.npy || exit 1; \
// RUN: done 2>&1 | FileCheck %s --check-prefix=EXACT
// EXACT-COUNT-12: gpu: 1 kernels ({{[01]}} fusions)
// EXACT-NOT: MISMATCH
// EXACT-NOT: max abs error {{[1-9]}}
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 6 --entry multi %s \
// RUN:   --expect 1=@%t/multi/result1.npy | FileCheck %s --check-prefix=MULTI
// MULTI: expect result[1]: ok, equal
// RUN: xlac run --backend=interp --random-inputs --seed 7 --entry tanh --output-dir %t/tanh %s > /dev/null
// RUN: env XLAC_GPU_VECTOR=0 %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 7 --entry tanh %s \
// RUN:   --output-dir %t/tanh_scalar > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 7 --entry tanh %s \
// RUN:   --expect 0=@%t/tanh/result0.npy --atol 1e-6 --rtol 1e-5 | FileCheck %s --check-prefix=TANH
// TANH: expect result[0]: ok
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 7 --entry tanh %s \
// RUN:   --expect 0=@%t/tanh_scalar/result0.npy | FileCheck %s --check-prefix=SAME
// SAME: expect result[0]: ok, max abs error 0
// RUN: for e in bias rowscale slice_rev inner6; do \
// RUN:   env XLAC_GPU_VECTOR=0 %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 6 --entry $e %s \
// RUN:     --output-dir %t/${e}_scalar > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 6 --entry $e %s \
// RUN:     --expect 0=@%t/${e}_scalar/result0.npy --atol 0 --rtol 0 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SAME4
// SAME4-COUNT-4: expect result[0]: ok, max abs error 0

// 256 threads of 4 elements, no remainder; the scalar read once.
func.func @n1024(%x: tensor<1024xf32>, %y: tensor<1024xf32>, %s: tensor<f32>) -> tensor<1024xf32> {
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<1024xf32>
  %m = stablehlo.multiply %x, %b : tensor<1024xf32>
  %r = stablehlo.add %m, %y : tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// 255 vectors and 3 elements one at a time.
func.func @n1023(%x: tensor<1023xf32>, %y: tensor<1023xf32>) -> tensor<1023xf32> {
  %c = stablehlo.constant dense<0.5> : tensor<1023xf32>
  %m = stablehlo.maximum %x, %y : tensor<1023xf32>
  %r = stablehlo.multiply %m, %c : tensor<1023xf32>
  return %r : tensor<1023xf32>
}

// One vector and one element.
func.func @n5(%x: tensor<5xf32>, %y: tensor<5xf32>) -> tensor<5xf32> {
  %lt = stablehlo.compare LT, %x, %y : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  %r = stablehlo.select %lt, %x, %y : tensor<5xi1>, tensor<5xf32>
  return %r : tensor<5xf32>
}

// A 2-D shape runs as its 1023 elements in order.
func.func @grid(%x: tensor<31x33xf32>, %y: tensor<31x33xf32>) -> tensor<31x33xf32> {
  %r = stablehlo.subtract %x, %y : tensor<31x33xf32>
  return %r : tensor<31x33xf32>
}

// Two results of different types from one fusion.
func.func @multi(%x: tensor<1021xf32>, %i: tensor<1021xi32>) -> (tensor<1021xf32>, tensor<1021xi32>) {
  %c = stablehlo.convert %i : (tensor<1021xi32>) -> tensor<1021xf32>
  %r = stablehlo.add %x, %c : tensor<1021xf32>
  %k = stablehlo.constant dense<3> : tensor<1021xi32>
  %j = stablehlo.multiply %i, %k : tensor<1021xi32>
  return %r, %j : tensor<1021xf32>, tensor<1021xi32>
}

// 2 f64 a thread.
func.func @f64(%x: tensor<1023xf64>, %y: tensor<1023xf64>) -> tensor<1023xf64> {
  %m = stablehlo.multiply %x, %y : tensor<1023xf64>
  %r = stablehlo.add %m, %x : tensor<1023xf64>
  return %r : tensor<1023xf64>
}

// The inline tanh, computed per element between the vector accesses.
func.func @tanh(%x: tensor<1023xf32>) -> tensor<1023xf32> {
  %r = stablehlo.tanh %x : tensor<1023xf32>
  return %r : tensor<1023xf32>
}

// 17500 vectors and 2 elements: more than the 16384 threads of the SIMT
// harness's grid, so threads take several vectors.
func.func @big(%x: tensor<70002xf32>, %y: tensor<70002xf32>) -> tensor<70002xf32> {
  %r = stablehlo.multiply %x, %y : tensor<70002xf32>
  return %r : tensor<70002xf32>
}

// Not flat (index-mapping loops): 4 neighbours in a row a thread, the
// operand of the result's shape read by one vector load, the bias by
// scalar loads at each element's column, the result by a vector store.
func.func @bias(%x: tensor<64x96xf32>, %b: tensor<96xf32>) -> tensor<64x96xf32> {
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<96xf32>) -> tensor<64x96xf32>
  %r = stablehlo.add %x, %bb : tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}

// A scale per row: the 4 neighbours share it.
func.func @rowscale(%x: tensor<33x8xf32>, %s: tensor<33xf32>) -> tensor<33x8xf32> {
  %ss = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<33xf32>) -> tensor<33x8xf32>
  %r = stablehlo.multiply %x, %ss : tensor<33x8xf32>
  return %r : tensor<33x8xf32>
}

// A slice and a reverse: vector stores only, the operands read element
// by element (y, of the result's shape, is read at the mirrored column,
// not at the result's index: its vector load goes unused).
func.func @slice_rev(%x: tensor<16x40xf32>, %y: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %s = stablehlo.slice %x [0:16, 4:36] : (tensor<16x40xf32>) -> tensor<16x32xf32>
  %v = stablehlo.reverse %y, dims = [1] : tensor<16x32xf32>
  %r = stablehlo.subtract %s, %v : tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}

// Rows of 6: 2 neighbours a thread.
func.func @inner6(%x: tensor<50x6xf32>, %b: tensor<6xf32>) -> tensor<50x6xf32> {
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<6xf32>) -> tensor<50x6xf32>
  %r = stablehlo.maximum %x, %bb : tensor<50x6xf32>
  return %r : tensor<50x6xf32>
}

// Rows of 33: one element a thread.
func.func @inner33(%x: tensor<31x33xf32>, %b: tensor<33xf32>) -> tensor<31x33xf32> {
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<33xf32>) -> tensor<31x33xf32>
  %r = stablehlo.add %x, %bb : tensor<31x33xf32>
  return %r : tensor<31x33xf32>
}
