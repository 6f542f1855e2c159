// A reshape inside a fusion maps an index group by group: the dimensions
// of both shapes fall into groups of equal size (512x384 -> 8x64x384:
// {512} with {8,64}, {384} with {384}), a dimension matched one to one
// passes through, and a group of one dimension on either side is that
// group's own linearize or delinearize.  Division and remainder remain
// only where a group has several dimensions on both sides (6x4 -> 4x6).
// The first program is attention's split into heads (two slices of a
// projection, reshaped and transposed): its kernel has no division or
// remainder left and stores whole vectors (it had a remainder by 384 for
// every element, and no vectors).  The others: a group with several
// dimensions on both sides, dimensions of size 1 added and dropped at
// either end and between, to and from a scalar-like shape, a reshape of
// a transpose, empty tensors.  Every result is exact.
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s
// CHECK-COUNT-7: max_ulp=0
// RUN: rm -rf %t && mkdir -p %t && xlac run --backend=cpu --random-inputs --xla_dump_to=%t %s --split-input-file > /dev/null
// RUN: cat %t/module_0000.*ir-with-opt.ll | FileCheck %s --check-prefix=IR
// IR: define void @xlac_entry
// IR-NOT: {{urem|udiv}}
// IR: store <{{[0-9]+}} x float>
// IR-NOT: {{urem|udiv}}
// IR: ret void
// RUN: cat %t/module_0001.*ir-no-opt.ll | FileCheck %s --check-prefix=GROUP
// GROUP: urem

func.func @main(%a: tensor<512x384xf32>) -> (tensor<32x64x32xf32>, tensor<32x64x32xf32>) {
  %r = stablehlo.reshape %a : (tensor<512x384xf32>) -> tensor<8x64x384xf32>
  %s1 = stablehlo.slice %r [0:8, 0:64, 0:128] : (tensor<8x64x384xf32>) -> tensor<8x64x128xf32>
  %s2 = stablehlo.slice %r [0:8, 0:64, 256:384] : (tensor<8x64x384xf32>) -> tensor<8x64x128xf32>
  %q1 = stablehlo.reshape %s1 : (tensor<8x64x128xf32>) -> tensor<8x64x4x32xf32>
  %q2 = stablehlo.reshape %s2 : (tensor<8x64x128xf32>) -> tensor<8x64x4x32xf32>
  %t1 = stablehlo.transpose %q1, dims = [0, 2, 1, 3] : (tensor<8x64x4x32xf32>) -> tensor<8x4x64x32xf32>
  %t2 = stablehlo.transpose %q2, dims = [0, 2, 1, 3] : (tensor<8x64x4x32xf32>) -> tensor<8x4x64x32xf32>
  %o1 = stablehlo.reshape %t1 : (tensor<8x4x64x32xf32>) -> tensor<32x64x32xf32>
  %o2 = stablehlo.reshape %t2 : (tensor<8x4x64x32xf32>) -> tensor<32x64x32xf32>
  return %o1, %o2 : tensor<32x64x32xf32>, tensor<32x64x32xf32>
}

// -----

// 6x4 -> 4x6: one group of two dimensions on each side
func.func @main(%a: tensor<3x6x4xf32>, %b: tensor<3x4x6xf32>) -> tensor<3x4x6xf32> {
  %r = stablehlo.reshape %a : (tensor<3x6x4xf32>) -> tensor<3x4x6xf32>
  %s = stablehlo.add %r, %b : tensor<3x4x6xf32>
  return %s : tensor<3x4x6xf32>
}

// -----

// dimensions of size 1 added and dropped
func.func @main(%a: tensor<1x2x1x3x1xf32>, %b: tensor<2x3xf32>, %c: tensor<1x6x1xf32>) -> (tensor<2x3xf32>, tensor<6x1x1xf32>) {
  %r = stablehlo.reshape %a : (tensor<1x2x1x3x1xf32>) -> tensor<2x3xf32>
  %s = stablehlo.multiply %r, %b : tensor<2x3xf32>
  %q = stablehlo.reshape %b : (tensor<2x3xf32>) -> tensor<6x1x1xf32>
  %c2 = stablehlo.reshape %c : (tensor<1x6x1xf32>) -> tensor<6x1x1xf32>
  %t = stablehlo.subtract %q, %c2 : tensor<6x1x1xf32>
  return %s, %t : tensor<2x3xf32>, tensor<6x1x1xf32>
}

// -----

// to and from shapes of one element
func.func @main(%a: tensor<f32>, %b: tensor<1x1x1xf32>) -> (tensor<1x1xf32>, tensor<f32>) {
  %r = stablehlo.reshape %a : (tensor<f32>) -> tensor<1x1xf32>
  %q = stablehlo.reshape %b : (tensor<1x1x1xf32>) -> tensor<1x1xf32>
  %s = stablehlo.add %r, %q : tensor<1x1xf32>
  %t = stablehlo.reshape %b : (tensor<1x1x1xf32>) -> tensor<f32>
  %u = stablehlo.multiply %t, %a : tensor<f32>
  return %s, %u : tensor<1x1xf32>, tensor<f32>
}

// -----

// a reshape of a transpose, groups of two and three dimensions
func.func @main(%a: tensor<4x3x10xf32>, %b: tensor<2x5x3x4xf32>) -> tensor<2x5x3x4xf32> {
  %t = stablehlo.transpose %a, dims = [2, 1, 0] : (tensor<4x3x10xf32>) -> tensor<10x3x4xf32>
  %r = stablehlo.reshape %t : (tensor<10x3x4xf32>) -> tensor<2x5x3x4xf32>
  %s = stablehlo.add %r, %b : tensor<2x5x3x4xf32>
  return %s : tensor<2x5x3x4xf32>
}

// -----

// a group of three dimensions into two: 2x3x4 -> 4x6, beside a matched 5
func.func @main(%a: tensor<5x2x3x4xf32>, %b: tensor<5x4x6xf32>) -> tensor<5x4x6xf32> {
  %r = stablehlo.reshape %a : (tensor<5x2x3x4xf32>) -> tensor<5x4x6xf32>
  %s = stablehlo.maximum %r, %b : tensor<5x4x6xf32>
  return %s : tensor<5x4x6xf32>
}

// -----

// empty tensors
func.func @main(%a: tensor<0x4xf32>, %b: tensor<2x0x2xf32>) -> tensor<2x0x2xf32> {
  %r = stablehlo.reshape %a : (tensor<0x4xf32>) -> tensor<2x0x2xf32>
  %s = stablehlo.add %r, %b : tensor<2x0x2xf32>
  return %s : tensor<2x0x2xf32>
}
