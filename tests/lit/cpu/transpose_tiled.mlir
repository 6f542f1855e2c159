// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu %s
// RUN: xlac run --split-input-file --backend=cpu --threads=1 %s
// RUN: rm -rf %t && xlac run --split-input-file --backend=cpu --xla_dump_to=%t %s > /dev/null
// RUN: FileCheck %s --check-prefix=WHOLE < %t/module_0005.whole_lines.ir-no-opt.ll
// RUN: FileCheck %s --check-prefix=STREAM < %t/module_0006.whole_streamed.ir-no-opt.ll
// WHOLE: shufflevector <16 x i32>
// WHOLE-NOT: @llvm.masked.
// STREAM: store <16 x i32> {{.*}} !nontemporal
// STREAM-NOT: @llvm.masked.
// Transposes of the last two dimensions go to the blocked transpose kernel
// on the cpu backend (16 x 16 blocks for 1-, 2- and 4-byte elements, 8 x 8
// for 8-byte ones, in tiles of 16 x 16 blocks; sizes here leave partial
// blocks and tiles).  Element (i, j) of the operand holds i * cols + j (converted
// to the element type); the expected result is built from iotas over the
// result shape, so it never goes through a transpose itself.  A transpose
// only moves bits: the result must equal the interpreter's exactly.
// f32 [700, 450]: 1.2 MiB, ragged tiles on both sides.
func.func @f32_2d() {
  %i = stablehlo.iota dim = 0 : tensor<700x450xi32>
  %j = stablehlo.iota dim = 1 : tensor<700x450xi32>
  %cc = stablehlo.constant dense<450> : tensor<700x450xi32>
  %ic = stablehlo.multiply %i, %cc : tensor<700x450xi32>
  %v = stablehlo.add %ic, %j : tensor<700x450xi32>
  %zero_in = stablehlo.constant dense<0> : tensor<700x450xi32>
  %x = stablehlo.add %v, %zero_in : tensor<700x450xi32>
  %x_e = stablehlo.convert %x : (tensor<700x450xi32>) -> tensor<700x450xf32>
  %a = stablehlo.optimization_barrier %x_e : tensor<700x450xf32>
  %r = stablehlo.transpose %a, dims = [1, 0] : (tensor<700x450xf32>) -> tensor<450x700xf32>
  %wj = stablehlo.iota dim = 0 : tensor<450x700xi32>
  %wi = stablehlo.iota dim = 1 : tensor<450x700xi32>
  %wc = stablehlo.constant dense<450> : tensor<450x700xi32>
  %wic = stablehlo.multiply %wi, %wc : tensor<450x700xi32>
  %wv = stablehlo.add %wic, %wj : tensor<450x700xi32>
  %wz = stablehlo.constant dense<0> : tensor<450x700xi32>
  %w = stablehlo.add %wv, %wz : tensor<450x700xi32>
  %want = stablehlo.convert %w : (tensor<450x700xi32>) -> tensor<450x700xf32>
  check.expect_eq %r, %want : tensor<450x700xf32>
  func.return
}

// -----

// i8 [1100, 1000]: one-byte elements (values wrap in the conversion, on both sides alike).
func.func @i8_2d() {
  %i = stablehlo.iota dim = 0 : tensor<1100x1000xi32>
  %j = stablehlo.iota dim = 1 : tensor<1100x1000xi32>
  %cc = stablehlo.constant dense<1000> : tensor<1100x1000xi32>
  %ic = stablehlo.multiply %i, %cc : tensor<1100x1000xi32>
  %v = stablehlo.add %ic, %j : tensor<1100x1000xi32>
  %zero_in = stablehlo.constant dense<0> : tensor<1100x1000xi32>
  %x = stablehlo.add %v, %zero_in : tensor<1100x1000xi32>
  %x_e = stablehlo.convert %x : (tensor<1100x1000xi32>) -> tensor<1100x1000xi8>
  %a = stablehlo.optimization_barrier %x_e : tensor<1100x1000xi8>
  %r = stablehlo.transpose %a, dims = [1, 0] : (tensor<1100x1000xi8>) -> tensor<1000x1100xi8>
  %wj = stablehlo.iota dim = 0 : tensor<1000x1100xi32>
  %wi = stablehlo.iota dim = 1 : tensor<1000x1100xi32>
  %wc = stablehlo.constant dense<1000> : tensor<1000x1100xi32>
  %wic = stablehlo.multiply %wi, %wc : tensor<1000x1100xi32>
  %wv = stablehlo.add %wic, %wj : tensor<1000x1100xi32>
  %wz = stablehlo.constant dense<0> : tensor<1000x1100xi32>
  %w = stablehlo.add %wv, %wz : tensor<1000x1100xi32>
  %want = stablehlo.convert %w : (tensor<1000x1100xi32>) -> tensor<1000x1100xi8>
  check.expect_eq %r, %want : tensor<1000x1100xi8>
  func.return
}

// -----

// f64 batch of three [300, 200] matrices: only the last two dimensions swap.
func.func @f64_batch() {
  %i = stablehlo.iota dim = 1 : tensor<3x300x200xi32>
  %j = stablehlo.iota dim = 2 : tensor<3x300x200xi32>
  %cc = stablehlo.constant dense<200> : tensor<3x300x200xi32>
  %ic = stablehlo.multiply %i, %cc : tensor<3x300x200xi32>
  %v = stablehlo.add %ic, %j : tensor<3x300x200xi32>
  %bi = stablehlo.iota dim = 0 : tensor<3x300x200xi32>
  %s7 = stablehlo.constant dense<7> : tensor<3x300x200xi32>
  %b7 = stablehlo.multiply %bi, %s7 : tensor<3x300x200xi32>
  %x = stablehlo.add %v, %b7 : tensor<3x300x200xi32>
  %x_e = stablehlo.convert %x : (tensor<3x300x200xi32>) -> tensor<3x300x200xf64>
  %a = stablehlo.optimization_barrier %x_e : tensor<3x300x200xf64>
  %r = stablehlo.transpose %a, dims = [0, 2, 1] : (tensor<3x300x200xf64>) -> tensor<3x200x300xf64>
  %wj = stablehlo.iota dim = 1 : tensor<3x200x300xi32>
  %wi = stablehlo.iota dim = 2 : tensor<3x200x300xi32>
  %wc = stablehlo.constant dense<200> : tensor<3x200x300xi32>
  %wic = stablehlo.multiply %wi, %wc : tensor<3x200x300xi32>
  %wv = stablehlo.add %wic, %wj : tensor<3x200x300xi32>
  %wb = stablehlo.iota dim = 0 : tensor<3x200x300xi32>
  %w7 = stablehlo.constant dense<7> : tensor<3x200x300xi32>
  %wb7 = stablehlo.multiply %wb, %w7 : tensor<3x200x300xi32>
  %w = stablehlo.add %wv, %wb7 : tensor<3x200x300xi32>
  %want = stablehlo.convert %w : (tensor<3x200x300xi32>) -> tensor<3x200x300xf64>
  check.expect_eq %r, %want : tensor<3x200x300xf64>
  func.return
}

// -----

// i16 [1030, 600]: two-byte elements.
func.func @i16_2d() {
  %i = stablehlo.iota dim = 0 : tensor<1030x600xi32>
  %j = stablehlo.iota dim = 1 : tensor<1030x600xi32>
  %cc = stablehlo.constant dense<600> : tensor<1030x600xi32>
  %ic = stablehlo.multiply %i, %cc : tensor<1030x600xi32>
  %v = stablehlo.add %ic, %j : tensor<1030x600xi32>
  %zero_in = stablehlo.constant dense<0> : tensor<1030x600xi32>
  %x = stablehlo.add %v, %zero_in : tensor<1030x600xi32>
  %x_e = stablehlo.convert %x : (tensor<1030x600xi32>) -> tensor<1030x600xi16>
  %a = stablehlo.optimization_barrier %x_e : tensor<1030x600xi16>
  %r = stablehlo.transpose %a, dims = [1, 0] : (tensor<1030x600xi16>) -> tensor<600x1030xi16>
  %wj = stablehlo.iota dim = 0 : tensor<600x1030xi32>
  %wi = stablehlo.iota dim = 1 : tensor<600x1030xi32>
  %wc = stablehlo.constant dense<600> : tensor<600x1030xi32>
  %wic = stablehlo.multiply %wi, %wc : tensor<600x1030xi32>
  %wv = stablehlo.add %wic, %wj : tensor<600x1030xi32>
  %wz = stablehlo.constant dense<0> : tensor<600x1030xi32>
  %w = stablehlo.add %wv, %wz : tensor<600x1030xi32>
  %want = stablehlo.convert %w : (tensor<600x1030xi32>) -> tensor<600x1030xi16>
  check.expect_eq %r, %want : tensor<600x1030xi16>
  func.return
}

// -----

// A small transpose (two blocks by three, partial ones included).
func.func @small() {
  %i = stablehlo.iota dim = 0 : tensor<30x50xi32>
  %j = stablehlo.iota dim = 1 : tensor<30x50xi32>
  %cc = stablehlo.constant dense<50> : tensor<30x50xi32>
  %ic = stablehlo.multiply %i, %cc : tensor<30x50xi32>
  %v = stablehlo.add %ic, %j : tensor<30x50xi32>
  %zero_in = stablehlo.constant dense<0> : tensor<30x50xi32>
  %x = stablehlo.add %v, %zero_in : tensor<30x50xi32>
  %a = stablehlo.optimization_barrier %x : tensor<30x50xi32>
  %r = stablehlo.transpose %a, dims = [1, 0] : (tensor<30x50xi32>) -> tensor<50x30xi32>
  %wj = stablehlo.iota dim = 0 : tensor<50x30xi32>
  %wi = stablehlo.iota dim = 1 : tensor<50x30xi32>
  %wc = stablehlo.constant dense<50> : tensor<50x30xi32>
  %wic = stablehlo.multiply %wi, %wc : tensor<50x30xi32>
  %wv = stablehlo.add %wic, %wj : tensor<50x30xi32>
  %wz = stablehlo.constant dense<0> : tensor<50x30xi32>
  %w = stablehlo.add %wv, %wz : tensor<50x30xi32>
  %want = stablehlo.add %w, %wz : tensor<50x30xi32>
  check.expect_eq %r, %want : tensor<50x30xi32>
  func.return
}

// -----

// Between temps (64-byte aligned in the arena) of whole blocks on lines:
// every block whole, no masked path, no shifted grid.
func.func @whole_lines() {
  %i = stablehlo.iota dim = 0 : tensor<512x256xi32>
  %j = stablehlo.iota dim = 1 : tensor<512x256xi32>
  %cc = stablehlo.constant dense<256> : tensor<512x256xi32>
  %ic = stablehlo.multiply %i, %cc : tensor<512x256xi32>
  %v = stablehlo.add %ic, %j : tensor<512x256xi32>
  %zero_in = stablehlo.constant dense<0> : tensor<512x256xi32>
  %x = stablehlo.add %v, %zero_in : tensor<512x256xi32>
  %a = stablehlo.optimization_barrier %x : tensor<512x256xi32>
  %r = stablehlo.transpose %a, dims = [1, 0] : (tensor<512x256xi32>) -> tensor<256x512xi32>
  %wj = stablehlo.iota dim = 0 : tensor<256x512xi32>
  %wi = stablehlo.iota dim = 1 : tensor<256x512xi32>
  %wc = stablehlo.constant dense<256> : tensor<256x512xi32>
  %wic = stablehlo.multiply %wi, %wc : tensor<256x512xi32>
  %wv = stablehlo.add %wic, %wj : tensor<256x512xi32>
  %wz = stablehlo.constant dense<0> : tensor<256x512xi32>
  %w = stablehlo.add %wv, %wz : tensor<256x512xi32>
  %want = stablehlo.add %w, %wz : tensor<256x512xi32>
  check.expect_eq %r, %want : tensor<256x512xi32>
  func.return
}

// -----

// The same at 8 MiB: whole blocks written with streaming stores, the grid
// known to lie on lines.
func.func @whole_streamed() {
  %i = stablehlo.iota dim = 0 : tensor<2048x1024xi32>
  %j = stablehlo.iota dim = 1 : tensor<2048x1024xi32>
  %cc = stablehlo.constant dense<1024> : tensor<2048x1024xi32>
  %ic = stablehlo.multiply %i, %cc : tensor<2048x1024xi32>
  %v = stablehlo.add %ic, %j : tensor<2048x1024xi32>
  %zero_in = stablehlo.constant dense<0> : tensor<2048x1024xi32>
  %x = stablehlo.add %v, %zero_in : tensor<2048x1024xi32>
  %a = stablehlo.optimization_barrier %x : tensor<2048x1024xi32>
  %r = stablehlo.transpose %a, dims = [1, 0] : (tensor<2048x1024xi32>) -> tensor<1024x2048xi32>
  %wj = stablehlo.iota dim = 0 : tensor<1024x2048xi32>
  %wi = stablehlo.iota dim = 1 : tensor<1024x2048xi32>
  %wc = stablehlo.constant dense<1024> : tensor<1024x2048xi32>
  %wic = stablehlo.multiply %wi, %wc : tensor<1024x2048xi32>
  %wv = stablehlo.add %wic, %wj : tensor<1024x2048xi32>
  %wz = stablehlo.constant dense<0> : tensor<1024x2048xi32>
  %w = stablehlo.add %wv, %wz : tensor<1024x2048xi32>
  %want = stablehlo.add %w, %wz : tensor<1024x2048xi32>
  check.expect_eq %r, %want : tensor<1024x2048xi32>
  func.return
}
