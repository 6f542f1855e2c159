// Loop fusions whose root is a concatenate (through reshapes) run one loop
// nest per operand over its part of the result, and the innermost
// dimension goes by runs of the length every value's innermost dimension
// divides, so reshapes and transposes that keep it innermost read whole
// vectors: transformer gradients' dQ/dK/dV heads, feature maps
// concatenated along channels or rows, offsets that are not multiples of a
// run, several chunks along a concatenated dimension 0, zero-size and
// rank-1 operands, 16-bit and integer elements.  Every result is exact.
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s
// CHECK-COUNT-7: max_ulp=0
// The heads' gradients concatenated: the run loop reads <N x float>.
// RUN: rm -rf %t && mkdir -p %t && xlac run --backend=cpu --random-inputs --xla_dump_to=%t %s --split-input-file > /dev/null
// RUN: cat %t/module_0000.*ir-with-opt.ll | FileCheck %s --check-prefix=IR
// IR: define internal void @kernel.0
// IR: load <{{[0-9]+}} x float>
// IR: store <{{[0-9]+}} x float>

func.func @main(%a: tensor<32x64x32xf32>, %b: tensor<32x64x32xf32>, %c: tensor<32x64x32xf32>) -> tensor<512x384xf32> {
  %ra = stablehlo.reshape %a : (tensor<32x64x32xf32>) -> tensor<8x4x64x32xf32>
  %rb = stablehlo.reshape %b : (tensor<32x64x32xf32>) -> tensor<8x4x64x32xf32>
  %rc = stablehlo.reshape %c : (tensor<32x64x32xf32>) -> tensor<8x4x64x32xf32>
  %ta = stablehlo.transpose %ra, dims = [0, 2, 1, 3] : (tensor<8x4x64x32xf32>) -> tensor<8x64x4x32xf32>
  %tb = stablehlo.transpose %rb, dims = [0, 2, 1, 3] : (tensor<8x4x64x32xf32>) -> tensor<8x64x4x32xf32>
  %tc = stablehlo.transpose %rc, dims = [0, 2, 1, 3] : (tensor<8x4x64x32xf32>) -> tensor<8x64x4x32xf32>
  %xa = stablehlo.reshape %ta : (tensor<8x64x4x32xf32>) -> tensor<8x64x128xf32>
  %xb = stablehlo.reshape %tb : (tensor<8x64x4x32xf32>) -> tensor<8x64x128xf32>
  %xc = stablehlo.reshape %tc : (tensor<8x64x4x32xf32>) -> tensor<8x64x128xf32>
  %cat = stablehlo.concatenate %xc, %xb, %xa, dim = 2 : (tensor<8x64x128xf32>, tensor<8x64x128xf32>, tensor<8x64x128xf32>) -> tensor<8x64x384xf32>
  %r = stablehlo.reshape %cat : (tensor<8x64x384xf32>) -> tensor<512x384xf32>
  return %r : tensor<512x384xf32>
}

// -----

// channels of odd sizes, each computed (a square, a broadcast bias) in place
func.func @main(%a: tensor<2x7x7x24xf32>, %b: tensor<2x7x7x40xf32>, %c: tensor<2x7x7x13xf32>, %bias: tensor<40xf32>) -> tensor<2x7x7x77xf32> {
  %e = stablehlo.multiply %a, %a : tensor<2x7x7x24xf32>
  %bb = stablehlo.broadcast_in_dim %bias, dims = [3] : (tensor<40xf32>) -> tensor<2x7x7x40xf32>
  %s = stablehlo.add %b, %bb : tensor<2x7x7x40xf32>
  %cat = stablehlo.concatenate %e, %s, %c, dim = 3 : (tensor<2x7x7x24xf32>, tensor<2x7x7x40xf32>, tensor<2x7x7x13xf32>) -> tensor<2x7x7x77xf32>
  return %cat : tensor<2x7x7x77xf32>
}

// -----

// along dimension 0, over several chunks that cut through the operands
func.func @main(%a: tensor<300x512xf32>, %b: tensor<0x512xf32>, %c: tensor<213x512xf32>) -> tensor<513x512xf32> {
  %n = stablehlo.negate %c : tensor<213x512xf32>
  %cat = stablehlo.concatenate %a, %b, %n, dim = 0 : (tensor<300x512xf32>, tensor<0x512xf32>, tensor<213x512xf32>) -> tensor<513x512xf32>
  return %cat : tensor<513x512xf32>
}

// -----

// rank 1
func.func @main(%a: tensor<100xf32>, %b: tensor<37xf32>) -> tensor<137xf32> {
  %s = stablehlo.abs %b : tensor<37xf32>
  %cat = stablehlo.concatenate %a, %s, dim = 0 : (tensor<100xf32>, tensor<37xf32>) -> tensor<137xf32>
  return %cat : tensor<137xf32>
}

// -----

// a transpose moving the innermost dimension, runs that do not divide the offsets
func.func @main(%a: tensor<16x48xbf16>, %b: tensor<40x16xbf16>) -> tensor<16x88xbf16> {
  %t = stablehlo.transpose %b, dims = [1, 0] : (tensor<40x16xbf16>) -> tensor<16x40xbf16>
  %cat = stablehlo.concatenate %a, %t, dim = 1 : (tensor<16x48xbf16>, tensor<16x40xbf16>) -> tensor<16x88xbf16>
  return %cat : tensor<16x88xbf16>
}

// -----

func.func @main(%a: tensor<4x6x32xi32>, %b: tensor<4x6x64xi32>) -> tensor<4x576xi32> {
  %s = stablehlo.add %b, %b : tensor<4x6x64xi32>
  %cat = stablehlo.concatenate %a, %s, dim = 2 : (tensor<4x6x32xi32>, tensor<4x6x64xi32>) -> tensor<4x6x96xi32>
  %r = stablehlo.reshape %cat : (tensor<4x6x96xi32>) -> tensor<4x576xi32>
  return %r : tensor<4x576xi32>
}

// -----

// a loop fusion without a concatenate, its innermost dimension by runs
func.func @main(%a: tensor<8x4x64x32xf16>, %b: tensor<8x64x128xf16>) -> tensor<8x64x128xf16> {
  %t = stablehlo.transpose %a, dims = [0, 2, 1, 3] : (tensor<8x4x64x32xf16>) -> tensor<8x64x4x32xf16>
  %r = stablehlo.reshape %t : (tensor<8x64x4x32xf16>) -> tensor<8x64x128xf16>
  %s = stablehlo.multiply %r, %b : tensor<8x64x128xf16>
  return %s : tensor<8x64x128xf16>
}
