// bf16 results are rounded from f32 by the bits, so subnormal results
// survive in vectorized code (the vector instruction LLVM would pick for
// the conversion flushes them to zero).  Every finite positive bf16 bit
// pattern, negated and halved (which makes more subnormals).
// RUN: xlac compare %s | FileCheck %s
// CHECK: result[0]: i16, identical
// CHECK: result[1]: i16, identical
func.func @main() -> (tensor<32640xi16>, tensor<32640xi16>) {
  %x = stablehlo.iota dim = 0 : tensor<32640xi16>
  %f = stablehlo.bitcast_convert %x : (tensor<32640xi16>) -> tensor<32640xbf16>
  %n = stablehlo.negate %f : tensor<32640xbf16>
  %h = stablehlo.constant dense<0.5> : tensor<32640xbf16>
  %m = stablehlo.multiply %f, %h : tensor<32640xbf16>
  %r = stablehlo.bitcast_convert %n : (tensor<32640xbf16>) -> tensor<32640xi16>
  %s = stablehlo.bitcast_convert %m : (tensor<32640xbf16>) -> tensor<32640xi16>
  return %r, %s : tensor<32640xi16>, tensor<32640xi16>
}
