// Loop fusions that only move elements (slices, reshapes and transposes of
// one input) whose result's contiguous dimension is strided in the input
// run as the blocked transpose kernel, with the strides and the starting
// element the composed map gives: attention's split into heads with the
// keys transposed (two results from one projection, a reshape at the
// root), a strided slice, a batch of matrices, f16 and i8 elements.
// Fusions that are not such transposes stay with the loop kernel: the
// contiguous dimension kept innermost, a reshape merging dimensions the
// map does not lay out one after another.  Every result is exact.
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s
// RUN: xlac compare --random-inputs --split-input-file --threads 1 %s | FileCheck %s
// CHECK-COUNT-7: max_ulp=0
// The first module's kernels move blocks through registers (integer
// shuffles; the loop kernel moves floats one at a time).
// RUN: rm -rf %t && mkdir -p %t && xlac run --backend=cpu --random-inputs --xla_dump_to=%t %s --split-input-file > /dev/null
// RUN: cat %t/module_0000.*ir-no-opt.ll | FileCheck %s --check-prefix=IR
// IR: shufflevector <{{[0-9]+}} x i32>
// RUN: cat %t/module_0001.*ir-no-opt.ll | FileCheck %s --check-prefix=IR
// RUN: cat %t/module_0005.*ir-no-opt.ll | FileCheck %s --check-prefix=LOOP
// LOOP-NOT: shufflevector <{{[0-9]+}} x i32>

func.func @main(%a: tensor<512x384xf32>) -> (tensor<32x32x64xf32>, tensor<32x64x32xf32>) {
  %r = stablehlo.reshape %a : (tensor<512x384xf32>) -> tensor<8x64x384xf32>
  %s1 = stablehlo.slice %r [0:8, 0:64, 128:256] : (tensor<8x64x384xf32>) -> tensor<8x64x128xf32>
  %s2 = stablehlo.slice %r [0:8, 0:64, 256:384] : (tensor<8x64x384xf32>) -> tensor<8x64x128xf32>
  %q1 = stablehlo.reshape %s1 : (tensor<8x64x128xf32>) -> tensor<8x64x4x32xf32>
  %q2 = stablehlo.reshape %s2 : (tensor<8x64x128xf32>) -> tensor<8x64x4x32xf32>
  %t1 = stablehlo.transpose %q1, dims = [0, 2, 3, 1] : (tensor<8x64x4x32xf32>) -> tensor<8x4x32x64xf32>
  %t2 = stablehlo.transpose %q2, dims = [0, 2, 1, 3] : (tensor<8x64x4x32xf32>) -> tensor<8x4x64x32xf32>
  %o1 = stablehlo.reshape %t1 : (tensor<8x4x32x64xf32>) -> tensor<32x32x64xf32>
  %o2 = stablehlo.reshape %t2 : (tensor<8x4x64x32xf32>) -> tensor<32x64x32xf32>
  %n = stablehlo.negate %o2 : tensor<32x64x32xf32>
  return %o1, %n : tensor<32x32x64xf32>, tensor<32x64x32xf32>
}

// -----

// a strided slice, then a transpose: every other row, 45 columns from the
// second
func.func @main(%a: tensor<70x90xf32>) -> tensor<45x35xf32> {
  %s = stablehlo.slice %a [0:70:2, 1:46] : (tensor<70x90xf32>) -> tensor<35x45xf32>
  %t = stablehlo.transpose %s, dims = [1, 0] : (tensor<35x45xf32>) -> tensor<45x35xf32>
  %u = stablehlo.add %t, %t : tensor<45x35xf32>
  %v = stablehlo.transpose %s, dims = [1, 0] : (tensor<35x45xf32>) -> tensor<45x35xf32>
  return %v : tensor<45x35xf32>
}

// -----

// a batch of matrices out of a slice of a larger tensor, f16
func.func @main(%a: tensor<6x40x50xf16>) -> tensor<4x48x40xf16> {
  %s = stablehlo.slice %a [1:5, 0:40, 2:50] : (tensor<6x40x50xf16>) -> tensor<4x40x48xf16>
  %t = stablehlo.transpose %s, dims = [0, 2, 1] : (tensor<4x40x48xf16>) -> tensor<4x48x40xf16>
  return %t : tensor<4x48x40xf16>
}

// -----

// i8 elements, the transpose between two reshapes
func.func @main(%a: tensor<64x96xi8>) -> tensor<3x64x32xi8> {
  %r = stablehlo.reshape %a : (tensor<64x96xi8>) -> tensor<64x3x32xi8>
  %t = stablehlo.transpose %r, dims = [1, 0, 2] : (tensor<64x3x32xi8>) -> tensor<3x64x32xi8>
  %s = stablehlo.transpose %r, dims = [1, 2, 0] : (tensor<64x3x32xi8>) -> tensor<3x32x64xi8>
  %u = stablehlo.reshape %s : (tensor<3x32x64xi8>) -> tensor<3x64x32xi8>
  %x = stablehlo.xor %t, %u : tensor<3x64x32xi8>
  return %u : tensor<3x64x32xi8>
}

// -----

// the contiguous dimension kept innermost: a copy of runs (loop kernel)
func.func @main(%a: tensor<16x24x32xf32>) -> tensor<24x16x32xf32> {
  %t = stablehlo.transpose %a, dims = [1, 0, 2] : (tensor<16x24x32xf32>) -> tensor<24x16x32xf32>
  %s = stablehlo.slice %t [0:24, 0:16, 0:32] : (tensor<24x16x32xf32>) -> tensor<24x16x32xf32>
  %r = stablehlo.reshape %s : (tensor<24x16x32xf32>) -> tensor<24x16x32xf32>
  return %r : tensor<24x16x32xf32>
}

// -----

// a reshape merging dimensions the transpose interleaved (no one map
// over the input), then a transpose: the loop kernel
func.func @main(%a: tensor<8x16x24xf32>) -> tensor<8x384xf32> {
  %t = stablehlo.transpose %a, dims = [2, 1, 0] : (tensor<8x16x24xf32>) -> tensor<24x16x8xf32>
  %r = stablehlo.reshape %t : (tensor<24x16x8xf32>) -> tensor<384x8xf32>
  %u = stablehlo.transpose %r, dims = [1, 0] : (tensor<384x8xf32>) -> tensor<8x384xf32>
  return %u : tensor<8x384xf32>
}

// -----

// the same merge after the transpose, at the root: a view of the result
func.func @main(%a: tensor<8x16x24xf32>) -> tensor<8x384xf32> {
  %t = stablehlo.transpose %a, dims = [0, 2, 1] : (tensor<8x16x24xf32>) -> tensor<8x24x16xf32>
  %s = stablehlo.slice %t [0:8, 0:24, 0:16] : (tensor<8x24x16xf32>) -> tensor<8x24x16xf32>
  %r = stablehlo.reshape %s : (tensor<8x24x16xf32>) -> tensor<8x384xf32>
  return %r : tensor<8x384xf32>
}
