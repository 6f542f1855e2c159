// Loop fusions that compute their roots from a concatenate by elementwise
// ops of its shape (DenseNet: feature maps concatenated, one after another,
// then a batch norm and a relu) run one loop nest per piece of the
// concatenate, nested concatenates along the same dimension split into
// their operands: in each nest the roots are computed from that piece
// alone, with no select between operands, and the innermost dimension goes
// by whole vectors; pieces that are consecutive kernel inputs of one shape
// share one nest, in a loop over them (the first module's three pieces of
// 32 channels).  Also: several roots, a piece that is itself computed,
// a concatenate along another dimension, one that the roots also reach
// through a transpose (not split: every operand selected per element, as
// before), an inner concatenate also used on its own (where it is, it is
// computed whole) and pieces of odd sizes.  Every result is exact.
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s
// CHECK-COUNT-6: max_ulp=0
// The first module's kernel stores whole vectors and selects no operand
// (the relu's select against its constant 0 is not one).
// RUN: rm -rf %t && mkdir -p %t && xlac run --backend=cpu --random-inputs --xla_dump_to=%t %s --split-input-file > /dev/null
// RUN: cat %t/module_0000.*ir-with-opt.ll | FileCheck %s --check-prefix=IR
// IR: define void @xlac_entry
// IR-NOT: select <{{[0-9]+}} x i1> {{.*}}, <{{[0-9]+}} x float> %{{.*}}, <{{[0-9]+}} x float> %
// IR: store <{{[0-9]+}} x float>
// IR: ret void
// RUN: cat %t/module_0000.*ir-no-opt.ll | FileCheck %s --check-prefix=IRN
// IRN: piece

func.func @main(%a: tensor<1x12x12x64xf32>, %b: tensor<1x12x12x32xf32>, %c: tensor<1x12x12x32xf32>,
                %d: tensor<1x12x12x32xf32>, %scale: tensor<160xf32>, %shift: tensor<160xf32>) -> tensor<1x12x12x160xf32> {
  %c1 = stablehlo.concatenate %a, %b, dim = 3 : (tensor<1x12x12x64xf32>, tensor<1x12x12x32xf32>) -> tensor<1x12x12x96xf32>
  %c2 = stablehlo.concatenate %c1, %c, dim = 3 : (tensor<1x12x12x96xf32>, tensor<1x12x12x32xf32>) -> tensor<1x12x12x128xf32>
  %c3 = stablehlo.concatenate %c2, %d, dim = 3 : (tensor<1x12x12x128xf32>, tensor<1x12x12x32xf32>) -> tensor<1x12x12x160xf32>
  %s = stablehlo.broadcast_in_dim %scale, dims = [3] : (tensor<160xf32>) -> tensor<1x12x12x160xf32>
  %t = stablehlo.broadcast_in_dim %shift, dims = [3] : (tensor<160xf32>) -> tensor<1x12x12x160xf32>
  %m = stablehlo.multiply %c3, %s : tensor<1x12x12x160xf32>
  %y = stablehlo.add %m, %t : tensor<1x12x12x160xf32>
  %z = stablehlo.constant dense<0.0> : tensor<1x12x12x160xf32>
  %r = stablehlo.maximum %y, %z : tensor<1x12x12x160xf32>
  return %r : tensor<1x12x12x160xf32>
}

// -----

// two roots; a computed piece; pieces of odd sizes
func.func @main(%a: tensor<3x5x7xf32>, %b: tensor<3x5x11xf32>, %c: tensor<3x5x2xf32>, %w: tensor<20xf32>) -> (tensor<3x5x20xf32>, tensor<3x5x20xf32>) {
  %e = stablehlo.multiply %b, %b : tensor<3x5x11xf32>
  %cat = stablehlo.concatenate %a, %e, %c, dim = 2 : (tensor<3x5x7xf32>, tensor<3x5x11xf32>, tensor<3x5x2xf32>) -> tensor<3x5x20xf32>
  %bw = stablehlo.broadcast_in_dim %w, dims = [2] : (tensor<20xf32>) -> tensor<3x5x20xf32>
  %p = stablehlo.multiply %cat, %bw : tensor<3x5x20xf32>
  %q = stablehlo.subtract %cat, %p : tensor<3x5x20xf32>
  %n = stablehlo.negate %cat : tensor<3x5x20xf32>
  return %q, %n : tensor<3x5x20xf32>, tensor<3x5x20xf32>
}

// -----

// along dimension 1, integers
func.func @main(%a: tensor<4x9x16xi32>, %b: tensor<4x3x16xi32>) -> tensor<4x12x16xi32> {
  %cat = stablehlo.concatenate %a, %b, dim = 1 : (tensor<4x9x16xi32>, tensor<4x3x16xi32>) -> tensor<4x12x16xi32>
  %one = stablehlo.constant dense<3> : tensor<4x12x16xi32>
  %m = stablehlo.multiply %cat, %one : tensor<4x12x16xi32>
  %r = stablehlo.xor %m, %cat : tensor<4x12x16xi32>
  return %r : tensor<4x12x16xi32>
}

// -----

// the roots also reach the concatenate through a transpose: not split
func.func @main(%a: tensor<8x5xf32>, %b: tensor<8x3xf32>) -> tensor<8x8xf32> {
  %cat = stablehlo.concatenate %a, %b, dim = 1 : (tensor<8x5xf32>, tensor<8x3xf32>) -> tensor<8x8xf32>
  %t = stablehlo.transpose %cat, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = stablehlo.add %cat, %t : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// the inner concatenate is also used on its own, where it is computed whole
func.func @main(%a: tensor<2x6x4xf32>, %b: tensor<2x6x4xf32>, %c: tensor<2x6x8xf32>) -> tensor<2x6x16xf32> {
  %c1 = stablehlo.concatenate %a, %b, dim = 2 : (tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> tensor<2x6x8xf32>
  %s = stablehlo.add %c1, %c : tensor<2x6x8xf32>
  %c2 = stablehlo.concatenate %c1, %s, dim = 2 : (tensor<2x6x8xf32>, tensor<2x6x8xf32>) -> tensor<2x6x16xf32>
  %r = stablehlo.abs %c2 : tensor<2x6x16xf32>
  return %r : tensor<2x6x16xf32>
}

// -----

// f16 pieces under a convert
func.func @main(%a: tensor<2x4x48xf16>, %b: tensor<2x4x16xf16>) -> tensor<2x4x64xf32> {
  %cat = stablehlo.concatenate %a, %b, dim = 2 : (tensor<2x4x48xf16>, tensor<2x4x16xf16>) -> tensor<2x4x64xf16>
  %r = stablehlo.convert %cat : (tensor<2x4x64xf16>) -> tensor<2x4x64xf32>
  return %r : tensor<2x4x64xf32>
}
