// Loop fusions whose results only move an operand's elements (reshapes,
// slices and transposes) into a matrix transpose go to the blocked
// transpose kernel on the cpu backend, the operand's side read as a
// strided view that starts at the slices' offset: an attention's heads
// split off the qkv product and transposed (one and two results), slices
// that move the start on several dimensions, strided slices, ragged sizes,
// 2-, 4-, 8- and 16-byte elements.  A transpose only moves bits: every
// result must equal the interpreter's exactly, including the forms the
// view cannot take (a strided slice along the contiguous dimension, a
// reshape that merges dimensions the slice left apart), which stay with
// the loop kernel.
// RUN: xlac compare --random-inputs --entry heads_k %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry heads_kv %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --threads 2 --entry heads_kv %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry window_2d %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry strided_rows %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry strided_inner %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry unmergeable %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry bf16_heads %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry f64_window %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry c128_window %s | FileCheck %s --check-prefix=EXACT
// RUN: rm -rf %t && xlac run --backend=cpu --random-inputs --entry heads_kv --xla_dump_to=%t %s > /dev/null
// RUN: FileCheck %s --check-prefix=BLOCKED < %t/module_0000.module.ir-no-opt.ll
// RUN: rm -rf %t && xlac run --backend=cpu --random-inputs --entry strided_inner --xla_dump_to=%t %s > /dev/null
// RUN: FileCheck %s --check-prefix=LOOP < %t/module_0000.module.ir-no-opt.ll
// RUN: xlac compare --random-inputs --entry scores %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --threads 2 --entry scores %s | FileCheck %s --check-prefix=EXACT
// RUN: rm -rf %t && xlac run --backend=cpu --random-inputs --entry scores --xla_dump_to=%t %s > /dev/null
// RUN: FileCheck %s --check-prefix=WHOLE < %t/module_0000.module.ir-no-opt.ll
// EXACT: COMPARE {{.*}} max_ulp=0{{$}}
// Partial blocks (the heads' 64 x 32 matrices in blocks of 16) are moved
// with masked stores; the loop kernel has none.
// BLOCKED: call void @llvm.masked.store
// LOOP-NOT: @llvm.masked.store
// Between temps of the JIT's arena (64-byte aligned) whose matrices are
// whole blocks that start on lines (K^T of the scores below, 256 x 32 per
// head, kept from the product's view by a barrier), no block is partial:
// the kernel has no masked path at all.
// WHOLE: shufflevector <16 x i32>
// WHOLE-NOT: @llvm.masked.

// K of an attention, [b, s, h, d] -> [b*h, d, s], sliced off qkv
func.func @heads_k(%qkv: tensor<512x384xf32>) -> tensor<32x32x64xf32> {
  %0 = stablehlo.reshape %qkv : (tensor<512x384xf32>) -> tensor<8x64x384xf32>
  %1 = stablehlo.slice %0 [0:8, 0:64, 128:256] : (tensor<8x64x384xf32>) -> tensor<8x64x128xf32>
  %2 = stablehlo.reshape %1 : (tensor<8x64x128xf32>) -> tensor<8x64x4x32xf32>
  %3 = stablehlo.transpose %2, dims = [0, 2, 3, 1] : (tensor<8x64x4x32xf32>) -> tensor<8x4x32x64xf32>
  %4 = stablehlo.reshape %3 : (tensor<8x4x32x64xf32>) -> tensor<32x32x64xf32>
  return %4 : tensor<32x32x64xf32>
}

// K and V, two results of one fusion (batch 3, 5 heads of 24, 40 steps)
func.func @heads_kv(%qkv: tensor<120x360xf32>) -> (tensor<15x24x40xf32>, tensor<15x24x40xf32>) {
  %0 = stablehlo.reshape %qkv : (tensor<120x360xf32>) -> tensor<3x40x360xf32>
  %1 = stablehlo.slice %0 [0:3, 0:40, 120:240] : (tensor<3x40x360xf32>) -> tensor<3x40x120xf32>
  %2 = stablehlo.slice %0 [0:3, 0:40, 240:360] : (tensor<3x40x360xf32>) -> tensor<3x40x120xf32>
  %3 = stablehlo.reshape %1 : (tensor<3x40x120xf32>) -> tensor<3x40x5x24xf32>
  %4 = stablehlo.reshape %2 : (tensor<3x40x120xf32>) -> tensor<3x40x5x24xf32>
  %5 = stablehlo.transpose %3, dims = [0, 2, 3, 1] : (tensor<3x40x5x24xf32>) -> tensor<3x5x24x40xf32>
  %6 = stablehlo.transpose %4, dims = [0, 2, 3, 1] : (tensor<3x40x5x24xf32>) -> tensor<3x5x24x40xf32>
  %7 = stablehlo.reshape %5 : (tensor<3x5x24x40xf32>) -> tensor<15x24x40xf32>
  %8 = stablehlo.reshape %6 : (tensor<3x5x24x40xf32>) -> tensor<15x24x40xf32>
  return %7, %8 : tensor<15x24x40xf32>, tensor<15x24x40xf32>
}

// a window that starts inside both dimensions, transposed
func.func @window_2d(%a: tensor<300x200xi32>) -> tensor<170x250xi32> {
  %0 = stablehlo.slice %a [37:287, 11:181] : (tensor<300x200xi32>) -> tensor<250x170xi32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<250x170xi32>) -> tensor<170x250xi32>
  return %1 : tensor<170x250xi32>
}

// every third row, transposed: rows further apart, columns contiguous
func.func @strided_rows(%a: tensor<300x100xf32>) -> tensor<100x98xf32> {
  %0 = stablehlo.slice %a [5:299:3, 0:100] : (tensor<300x100xf32>) -> tensor<98x100xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<98x100xf32>) -> tensor<100x98xf32>
  return %1 : tensor<100x98xf32>
}

// every second column: no contiguous dimension left (the loop kernel)
func.func @strided_inner(%a: tensor<100x300xf32>) -> tensor<150x100xf32> {
  %0 = stablehlo.slice %a [0:100, 0:300:2] : (tensor<100x300xf32>) -> tensor<100x150xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<100x150xf32>) -> tensor<150x100xf32>
  return %1 : tensor<150x100xf32>
}

// a reshape merging rows the slice left apart (the loop kernel)
func.func @unmergeable(%a: tensor<40x64x20xf32>) -> tensor<20x1200xf32> {
  %0 = stablehlo.slice %a [0:40, 2:32, 0:20] : (tensor<40x64x20xf32>) -> tensor<40x30x20xf32>
  %1 = stablehlo.reshape %0 : (tensor<40x30x20xf32>) -> tensor<1200x20xf32>
  %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<1200x20xf32>) -> tensor<20x1200xf32>
  return %2 : tensor<20x1200xf32>
}

func.func @bf16_heads(%qkv: tensor<256x192xbf16>) -> tensor<8x32x64xbf16> {
  %0 = stablehlo.reshape %qkv : (tensor<256x192xbf16>) -> tensor<4x64x192xbf16>
  %1 = stablehlo.slice %0 [0:4, 0:64, 64:128] : (tensor<4x64x192xbf16>) -> tensor<4x64x64xbf16>
  %2 = stablehlo.reshape %1 : (tensor<4x64x64xbf16>) -> tensor<4x64x2x32xbf16>
  %3 = stablehlo.transpose %2, dims = [0, 2, 3, 1] : (tensor<4x64x2x32xbf16>) -> tensor<4x2x32x64xbf16>
  %4 = stablehlo.reshape %3 : (tensor<4x2x32x64xbf16>) -> tensor<8x32x64xbf16>
  return %4 : tensor<8x32x64xbf16>
}

func.func @f64_window(%a: tensor<3x90x70xf64>) -> tensor<3x61x83xf64> {
  %0 = stablehlo.slice %a [0:3, 4:87, 9:70] : (tensor<3x90x70xf64>) -> tensor<3x83x61xf64>
  %1 = stablehlo.transpose %0, dims = [0, 2, 1] : (tensor<3x83x61xf64>) -> tensor<3x61x83xf64>
  return %1 : tensor<3x61x83xf64>
}

func.func @c128_window(%a: tensor<50x40xcomplex<f64>>) -> tensor<33x45xcomplex<f64>> {
  %0 = stablehlo.slice %a [5:50, 7:40] : (tensor<50x40xcomplex<f64>>) -> tensor<45x33xcomplex<f64>>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<45x33xcomplex<f64>>) -> tensor<33x45xcomplex<f64>>
  return %1 : tensor<33x45xcomplex<f64>>
}

// attention's scores in integers: K sliced off the qkv product, split
// into heads and transposed into a temp, read by the batched product (2 x
// 8 heads of 32, 256 steps; integer products are loops, which read the
// transpose's result as it is).
func.func @scores(%xr: tensor<512x64xf32>, %wr: tensor<64x768xf32>) -> tensor<16x256x256xi32> {
  %x = stablehlo.convert %xr : (tensor<512x64xf32>) -> tensor<512x64xi32>
  %w = stablehlo.convert %wr : (tensor<64x768xf32>) -> tensor<64x768xi32>
  %qkv = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<512x64xi32>, tensor<64x768xi32>) -> tensor<512x768xi32>
  %0 = stablehlo.reshape %qkv : (tensor<512x768xi32>) -> tensor<2x256x768xi32>
  %q = stablehlo.slice %0 [0:2, 0:256, 0:256] : (tensor<2x256x768xi32>) -> tensor<2x256x256xi32>
  %k = stablehlo.slice %0 [0:2, 0:256, 256:512] : (tensor<2x256x768xi32>) -> tensor<2x256x256xi32>
  %q1 = stablehlo.reshape %q : (tensor<2x256x256xi32>) -> tensor<2x256x8x32xi32>
  %k1 = stablehlo.reshape %k : (tensor<2x256x256xi32>) -> tensor<2x256x8x32xi32>
  %q2 = stablehlo.transpose %q1, dims = [0, 2, 1, 3] : (tensor<2x256x8x32xi32>) -> tensor<2x8x256x32xi32>
  %k2 = stablehlo.transpose %k1, dims = [0, 2, 3, 1] : (tensor<2x256x8x32xi32>) -> tensor<2x8x32x256xi32>
  %q3 = stablehlo.reshape %q2 : (tensor<2x8x256x32xi32>) -> tensor<16x256x32xi32>
  %k3 = stablehlo.reshape %k2 : (tensor<2x8x32x256xi32>) -> tensor<16x32x256xi32>
  %s = stablehlo.dot_general %q3, %k3, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<16x256x32xi32>, tensor<16x32x256xi32>) -> tensor<16x256x256xi32>
  return %s : tensor<16x256x256xi32>
}
