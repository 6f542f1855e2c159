// Products read operands that loop fusions only move (reshapes, slices,
// transposes) through strided views of the fusions' operands, and the
// fusions compute nothing (their results share their operands' storage,
// "view of" in the buffer assignment): an attention's heads sliced off
// the qkv product (Q as A with rows 768 apart, K as B read transposed, V
// as B with rows 768 apart, the batch of heads and sequences not evenly
// spaced: runs of heads per sequence), operands whose batches split
// differently (runs of two products, offsets from each side's own
// factors), a transposed A, f64, a view inside a loop, and views a GEMM
// cannot read (every second element of a row; a batch that is not the
// outer dimensions), which stay as they were.  Operands are small
// integers, so that every sum is exact in any order: results must equal
// the interpreter's bit for bit.
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --threads 2 --split-input-file %s | FileCheck %s --check-prefix=EXACT
// RUN: rm -rf %t && xlac run --backend=cpu --random-inputs --xla_dump_to=%t --split-input-file %s > /dev/null
// RUN: FileCheck %s --check-prefix=HEADS < %t/module_0000.heads.after_optimizations-buffer-assignment.txt
// RUN: FileCheck %s --check-prefix=SPLIT < %t/module_0001.split_batches.after_optimizations-buffer-assignment.txt
// RUN: FileCheck %s --check-prefix=TRANSA < %t/module_0002.transposed_a.after_optimizations-buffer-assignment.txt
// RUN: FileCheck %s --check-prefix=F64 < %t/module_0003.f64_heads.after_optimizations-buffer-assignment.txt
// RUN: FileCheck %s --check-prefix=LOOP < %t/module_0004.in_loop.after_optimizations-buffer-assignment.txt
// RUN: FileCheck %s --check-prefix=KEPT < %t/module_0005.kept.after_optimizations-buffer-assignment.txt
// EXACT-COUNT-6: COMPARE {{.*}} max_ulp=0{{$}}
// EXACT-NOT: COMPARE
// HEADS-COUNT-3: view of
// SPLIT-COUNT-2: view of
// TRANSA: view of
// F64-COUNT-2: view of
// LOOP: view of
// KEPT-NOT: view of

func.func @heads(%xr: tensor<512x64xf32>, %wr: tensor<64x768xf32>) -> (tensor<16x256x32xf32>) {
  %x = stablehlo.round_nearest_even %xr : tensor<512x64xf32>
  %w = stablehlo.round_nearest_even %wr : tensor<64x768xf32>
  %qkv = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<512x64xf32>, tensor<64x768xf32>) -> tensor<512x768xf32>
  %0 = stablehlo.reshape %qkv : (tensor<512x768xf32>) -> tensor<2x256x768xf32>
  %q = stablehlo.slice %0 [0:2, 0:256, 0:256] : (tensor<2x256x768xf32>) -> tensor<2x256x256xf32>
  %k = stablehlo.slice %0 [0:2, 0:256, 256:512] : (tensor<2x256x768xf32>) -> tensor<2x256x256xf32>
  %v = stablehlo.slice %0 [0:2, 0:256, 512:768] : (tensor<2x256x768xf32>) -> tensor<2x256x256xf32>
  %q1 = stablehlo.reshape %q : (tensor<2x256x256xf32>) -> tensor<2x256x8x32xf32>
  %k1 = stablehlo.reshape %k : (tensor<2x256x256xf32>) -> tensor<2x256x8x32xf32>
  %v1 = stablehlo.reshape %v : (tensor<2x256x256xf32>) -> tensor<2x256x8x32xf32>
  %q2 = stablehlo.transpose %q1, dims = [0, 2, 1, 3] : (tensor<2x256x8x32xf32>) -> tensor<2x8x256x32xf32>
  %k2 = stablehlo.transpose %k1, dims = [0, 2, 3, 1] : (tensor<2x256x8x32xf32>) -> tensor<2x8x32x256xf32>
  %v2 = stablehlo.transpose %v1, dims = [0, 2, 1, 3] : (tensor<2x256x8x32xf32>) -> tensor<2x8x256x32xf32>
  %q3 = stablehlo.reshape %q2 : (tensor<2x8x256x32xf32>) -> tensor<16x256x32xf32>
  %k3 = stablehlo.reshape %k2 : (tensor<2x8x32x256xf32>) -> tensor<16x32x256xf32>
  %v3 = stablehlo.reshape %v2 : (tensor<2x8x256x32xf32>) -> tensor<16x256x32xf32>
  %s = stablehlo.dot_general %q3, %k3, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<16x256x32xf32>, tensor<16x32x256xf32>) -> tensor<16x256x256xf32>
  %sc = stablehlo.constant dense<0.0625> : tensor<16x256x256xf32>
  %p = stablehlo.multiply %s, %sc : tensor<16x256x256xf32>
  %pr = stablehlo.round_nearest_even %p : tensor<16x256x256xf32>
  %o = stablehlo.dot_general %pr, %v3, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<16x256x256xf32>, tensor<16x256x32xf32>) -> tensor<16x256x32xf32>
  return %o : tensor<16x256x32xf32>
}

// -----

// A's batch of 24 is 4 x 6 (the 6 innermost evenly spaced), B's is 6 x 4
// in its storage (the 4 innermost): runs of gcd(6, 4) = 2 products.
func.func @split_batches(%xr: tensor<1536x8xf32>, %wr: tensor<8x32xf32>, %yr: tensor<768x8xf32>, %vr: tensor<8x16xf32>) -> tensor<24x64x16xf32> {
  %xa = stablehlo.round_nearest_even %xr : tensor<1536x8xf32>
  %wa = stablehlo.round_nearest_even %wr : tensor<8x32xf32>
  %ya = stablehlo.round_nearest_even %yr : tensor<768x8xf32>
  %va = stablehlo.round_nearest_even %vr : tensor<8x16xf32>
  %xp = stablehlo.dot_general %xa, %wa, contracting_dims = [1] x [0] : (tensor<1536x8xf32>, tensor<8x32xf32>) -> tensor<1536x32xf32>
  %yp = stablehlo.dot_general %ya, %va, contracting_dims = [1] x [0] : (tensor<768x8xf32>, tensor<8x16xf32>) -> tensor<768x16xf32>
  %x = stablehlo.reshape %xp : (tensor<1536x32xf32>) -> tensor<6x64x4x32xf32>
  %y = stablehlo.reshape %yp : (tensor<768x16xf32>) -> tensor<4x32x6x16xf32>
  %a1 = stablehlo.transpose %x, dims = [2, 0, 1, 3] : (tensor<6x64x4x32xf32>) -> tensor<4x6x64x32xf32>
  %a = stablehlo.reshape %a1 : (tensor<4x6x64x32xf32>) -> tensor<24x64x32xf32>
  %b1 = stablehlo.transpose %y, dims = [2, 0, 1, 3] : (tensor<4x32x6x16xf32>) -> tensor<6x4x32x16xf32>
  %b = stablehlo.reshape %b1 : (tensor<6x4x32x16xf32>) -> tensor<24x32x16xf32>
  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<24x64x32xf32>, tensor<24x32x16xf32>) -> tensor<24x64x16xf32>
  return %r : tensor<24x64x16xf32>
}

// -----

// A read transposed from a slice of a product (its rows contiguous, its
// depth 200 apart).
func.func @transposed_a(%xr: tensor<96x80xf32>, %wr: tensor<80x200xf32>, %br: tensor<96x40xf32>) -> tensor<150x40xf32> {
  %x = stablehlo.round_nearest_even %xr : tensor<96x80xf32>
  %w = stablehlo.round_nearest_even %wr : tensor<80x200xf32>
  %b = stablehlo.round_nearest_even %br : tensor<96x40xf32>
  %p = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<96x80xf32>, tensor<80x200xf32>) -> tensor<96x200xf32>
  %s = stablehlo.slice %p [0:96, 30:180] : (tensor<96x200xf32>) -> tensor<96x150xf32>
  %t = stablehlo.transpose %s, dims = [1, 0] : (tensor<96x150xf32>) -> tensor<150x96xf32>
  %r = stablehlo.dot_general %t, %b, contracting_dims = [1] x [0] : (tensor<150x96xf32>, tensor<96x40xf32>) -> tensor<150x40xf32>
  return %r : tensor<150x40xf32>
}

// -----

func.func @f64_heads(%xr: tensor<128x32xf64>, %wr: tensor<32x192xf64>) -> tensor<8x64x64xf64> {
  %x = stablehlo.round_nearest_even %xr : tensor<128x32xf64>
  %w = stablehlo.round_nearest_even %wr : tensor<32x192xf64>
  %qkv = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<128x32xf64>, tensor<32x192xf64>) -> tensor<128x192xf64>
  %0 = stablehlo.reshape %qkv : (tensor<128x192xf64>) -> tensor<2x64x192xf64>
  %q = stablehlo.slice %0 [0:2, 0:64, 0:64] : (tensor<2x64x192xf64>) -> tensor<2x64x64xf64>
  %k = stablehlo.slice %0 [0:2, 0:64, 64:128] : (tensor<2x64x192xf64>) -> tensor<2x64x64xf64>
  %q1 = stablehlo.reshape %q : (tensor<2x64x64xf64>) -> tensor<2x64x4x16xf64>
  %k1 = stablehlo.reshape %k : (tensor<2x64x64xf64>) -> tensor<2x64x4x16xf64>
  %q2 = stablehlo.transpose %q1, dims = [0, 2, 1, 3] : (tensor<2x64x4x16xf64>) -> tensor<2x4x64x16xf64>
  %k2 = stablehlo.transpose %k1, dims = [0, 2, 3, 1] : (tensor<2x64x4x16xf64>) -> tensor<2x4x16x64xf64>
  %q3 = stablehlo.reshape %q2 : (tensor<2x4x64x16xf64>) -> tensor<8x64x16xf64>
  %k3 = stablehlo.reshape %k2 : (tensor<2x4x16x64xf64>) -> tensor<8x16x64xf64>
  %s = stablehlo.dot_general %q3, %k3, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x64x16xf64>, tensor<8x16x64xf64>) -> tensor<8x64x64xf64>
  return %s : tensor<8x64x64xf64>
}

// -----

// The view and its product inside a loop body, three iterations.
func.func @in_loop(%xr: tensor<64x64xf32>, %wr: tensor<64x128xf32>) -> tensor<64x64xf32> {
  %x0 = stablehlo.round_nearest_even %xr : tensor<64x64xf32>
  %w0 = stablehlo.round_nearest_even %wr : tensor<64x128xf32>
  %c3 = stablehlo.constant dense<0.25> : tensor<64x128xf32>
  %w = stablehlo.multiply %w0, %c3 : tensor<64x128xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %i0, %x = %x0) : tensor<i32>, tensor<64x64xf32>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %p = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
      %s = stablehlo.slice %p [0:64, 32:96] : (tensor<64x128xf32>) -> tensor<64x64xf32>
      %t = stablehlo.transpose %s, dims = [1, 0] : (tensor<64x64xf32>) -> tensor<64x64xf32>
      %q = stablehlo.dot_general %t, %x0, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %f = stablehlo.round_nearest_even %q : tensor<64x64xf32>
      %m = stablehlo.constant dense<0.015625> : tensor<64x64xf32>
      %g = stablehlo.multiply %f, %m : tensor<64x64xf32>
      %h = stablehlo.round_nearest_even %g : tensor<64x64xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %i1 = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %i1, %h : tensor<i32>, tensor<64x64xf32>
    }
  return %r#1 : tensor<64x64xf32>
}

// -----

// Every second element of each row (no contiguous depth), and a batch
// that is the operand's middle dimension (the view's batch must be the
// outer dimensions of the operand the product sees, which it is; its
// depth here is every second element): both keep their fusions.
func.func @kept(%xr: tensor<64x128xf32>, %wr: tensor<128x256xf32>, %br: tensor<128x32xf32>) -> tensor<64x32xf32> {
  %x = stablehlo.round_nearest_even %xr : tensor<64x128xf32>
  %w = stablehlo.round_nearest_even %wr : tensor<128x256xf32>
  %b = stablehlo.round_nearest_even %br : tensor<128x32xf32>
  %p = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  %s = stablehlo.slice %p [0:64, 0:256:2] : (tensor<64x256xf32>) -> tensor<64x128xf32>
  %r = stablehlo.dot_general %s, %b, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
