// Reductions of every element type the row kernel shuffles, and products
// with converted operands (ptxas.test).
func.func @main(%h: tensor<8x512xf16>, %b: tensor<8x512xbf16>, %c: tensor<8x512xi8>, %d: tensor<8x512xui16>, %e: tensor<3x100000xf32>) -> (tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xui16>, tensor<3xf32>, tensor<8xbf16>) {
  %hz = stablehlo.constant dense<0.0> : tensor<f16>
  %bz = stablehlo.constant dense<0.0> : tensor<bf16>
  %bm = stablehlo.constant dense<0xFF80> : tensor<bf16>
  %cz = stablehlo.constant dense<0> : tensor<i8>
  %dz = stablehlo.constant dense<0> : tensor<ui16>
  %fz = stablehlo.constant dense<0.0> : tensor<f32>
  %r0 = stablehlo.reduce(%h init: %hz) applies stablehlo.add across dimensions = [1] : (tensor<8x512xf16>, tensor<f16>) -> tensor<8xf16>
  %r1 = stablehlo.reduce(%b init: %bz) applies stablehlo.add across dimensions = [1] : (tensor<8x512xbf16>, tensor<bf16>) -> tensor<8xbf16>
  %r2 = stablehlo.reduce(%c init: %cz) applies stablehlo.maximum across dimensions = [1] : (tensor<8x512xi8>, tensor<i8>) -> tensor<8xi8>
  %r3 = stablehlo.reduce(%d init: %dz) applies stablehlo.minimum across dimensions = [1] : (tensor<8x512xui16>, tensor<ui16>) -> tensor<8xui16>
  %r4 = stablehlo.reduce(%e init: %fz) applies stablehlo.add across dimensions = [1] : (tensor<3x100000xf32>, tensor<f32>) -> tensor<3xf32>
  %r5 = stablehlo.reduce(%b init: %bm) applies stablehlo.maximum across dimensions = [1] : (tensor<8x512xbf16>, tensor<bf16>) -> tensor<8xbf16>
  return %r0, %r1, %r2, %r3, %r4, %r5 : tensor<8xf16>, tensor<8xbf16>, tensor<8xi8>, tensor<8xui16>, tensor<3xf32>, tensor<8xbf16>
}

// Products the GEMM kernel converts operands for.
func.func @dots(%a: tensor<40x300xi8>, %b: tensor<300x20xi8>, %h: tensor<16x64xf16>, %g: tensor<64x8xf16>) -> (tensor<40x20xi32>, tensor<16x8xf32>, tensor<16x8xf16>) {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<40x300xi8>, tensor<300x20xi8>) -> tensor<40x20xi32>
  %e = stablehlo.dot_general %h, %g, contracting_dims = [1] x [0] : (tensor<16x64xf16>, tensor<64x8xf16>) -> tensor<16x8xf32>
  %f = stablehlo.dot_general %h, %g, contracting_dims = [1] x [0] : (tensor<16x64xf16>, tensor<64x8xf16>) -> tensor<16x8xf16>
  return %d, %e, %f : tensor<40x20xi32>, tensor<16x8xf32>, tensor<16x8xf16>
}
