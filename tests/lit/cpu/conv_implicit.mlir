// Convolutions with the input's features innermost, one group and at least
// 16 input features: an implicit GEMM whose A panels are packed from the
// input windows (no im2col matrix), on AVX-512 direct tiles that read the
// windows in place.  Padding (asymmetric, negative), strides,
// dilations, reversal, batch 1, 1-D and 3-D, feature counts that are not
// multiples of the vector width, f32 and f64, alone and with the fused
// epilogues of a ResNet block (bias, relu, a residual add).  Compiled
// results against the interpreter's.
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s
// RUN: xlac run --backend=cpu --verbose --random-inputs --split-input-file %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// CHECK-COUNT-12: max abs error {{(0|[0-9.]+e-(0[5-9]|[1-9][0-9]))}},
// the block's second convolution sums the first one's results (up to ~100)
// CHECK: max abs error {{(0|0\.000[0-9]+|[0-9.]+e-(0[4-9]|[1-9][0-9]))}},
// STATS-COUNT-13: 0 through the interpreter

// NHWC 3x3 SAME, 64 -> 64 features, more rows than one block
func.func @main(%x: tensor<4x14x14x64xf32>, %w: tensor<3x3x64x64xf32>) -> tensor<4x14x14x64xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x14x14x64xf32>, tensor<3x3x64x64xf32>) -> tensor<4x14x14x64xf32>
  return %r : tensor<4x14x14x64xf32>
}

// -----

// batch 1, odd sizes, asymmetric padding, 20 -> 40 features
func.func @main(%x: tensor<1x7x5x20xf32>, %w: tensor<3x3x20x40xf32>) -> tensor<1x7x7x40xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[2, 0], [1, 3]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x7x5x20xf32>, tensor<3x3x20x40xf32>) -> tensor<1x7x7x40xf32>
  return %r : tensor<1x7x7x40xf32>
}

// -----

// stride 2 with padding, 17 -> 33 features
func.func @main(%x: tensor<3x11x8x17xf32>, %w: tensor<3x3x17x33xf32>) -> tensor<3x6x4x33xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x11x8x17xf32>, tensor<3x3x17x33xf32>) -> tensor<3x6x4x33xf32>
  return %r : tensor<3x6x4x33xf32>
}

// -----

// a dilated window (atrous), 16 -> 48 features
func.func @main(%x: tensor<1x10x10x16xf32>, %w: tensor<3x3x16x48xf32>) -> tensor<1x10x10x48xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[2, 2], [2, 2]], rhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x10x10x16xf32>, tensor<3x3x16x48xf32>) -> tensor<1x10x10x48xf32>
  return %r : tensor<1x10x10x48xf32>
}

// -----

// negative padding and a reversed window, 32 -> 10 features
func.func @main(%x: tensor<2x6x9x32xf32>, %w: tensor<2x4x32x10xf32>) -> tensor<2x5x7x10xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[-1, 1], [2, -1]], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x6x9x32xf32>, tensor<2x4x32x10xf32>) -> tensor<2x5x7x10xf32>
  return %r : tensor<2x5x7x10xf32>
}

// -----

// three input features (an RGB image): too few for the implicit GEMM, im2col
func.func @main(%x: tensor<2x12x12x3xf32>, %w: tensor<3x3x3x32xf32>) -> tensor<2x12x12x32xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x12x12x3xf32>, tensor<3x3x3x32xf32>) -> tensor<2x12x12x32xf32>
  return %r : tensor<2x12x12x32xf32>
}

// -----

// input dilation (a transposed convolution): packed, not direct
func.func @main(%x: tensor<1x4x5x16xf32>, %w: tensor<3x3x16x24xf32>) -> tensor<1x9x11x24xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[2, 2], [2, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x5x16xf32>, tensor<3x3x16x24xf32>) -> tensor<1x9x11x24xf32>
  return %r : tensor<1x9x11x24xf32>
}

// -----

// a 9x9 window (more positions than the direct tiles take)
func.func @main(%x: tensor<1x12x12x16xf32>, %w: tensor<9x9x16x16xf32>) -> tensor<1x12x12x16xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[4, 4], [4, 4]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x12x12x16xf32>, tensor<9x9x16x16xf32>) -> tensor<1x12x12x16xf32>
  return %r : tensor<1x12x12x16xf32>
}

// -----

// f64, 24 -> 20 features, batch 3
func.func @main(%x: tensor<3x7x7x24xf64>, %w: tensor<3x3x24x20xf64>) -> tensor<3x7x7x20xf64> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x7x7x24xf64>, tensor<3x3x24x20xf64>) -> tensor<3x7x7x20xf64>
  return %r : tensor<3x7x7x20xf64>
}

// -----

// f64 with few input features (im2col) and stride 2
func.func @main(%x: tensor<1x9x9x5xf64>, %w: tensor<3x3x5x7xf64>) -> tensor<1x5x5x7xf64> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x9x9x5xf64>, tensor<3x3x5x7xf64>) -> tensor<1x5x5x7xf64>
  return %r : tensor<1x5x5x7xf64>
}

// -----

// 1-D, 32 -> 70 features
func.func @main(%x: tensor<3x29x32xf32>, %w: tensor<5x32x70xf32>) -> tensor<3x29x70xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[2, 2]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x29x32xf32>, tensor<5x32x70xf32>) -> tensor<3x29x70xf32>
  return %r : tensor<3x29x70xf32>
}

// -----

// 3-D with a stride along one dimension
func.func @main(%x: tensor<1x5x4x6x16xf32>, %w: tensor<3x2x3x16x8xf32>) -> tensor<1x5x4x3x8xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {stride = [1, 1, 2], pad = [[1, 1], [0, 1], [1, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x4x6x16xf32>, tensor<3x2x3x16x8xf32>) -> tensor<1x5x4x3x8xf32>
  return %r : tensor<1x5x4x3x8xf32>
}

// -----

// a ResNet block: conv + bias + relu, conv + bias + the input, relu (fused epilogues)
func.func @main(%x: tensor<2x12x12x64xf32>, %w1: tensor<3x3x64x64xf32>, %b1: tensor<64xf32>, %w2: tensor<3x3x64x64xf32>, %b2: tensor<64xf32>) -> tensor<2x12x12x64xf32> {
  %c1 = stablehlo.convolution(%x, %w1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x12x12x64xf32>, tensor<3x3x64x64xf32>) -> tensor<2x12x12x64xf32>
  %bb1 = stablehlo.broadcast_in_dim %b1, dims = [3] : (tensor<64xf32>) -> tensor<2x12x12x64xf32>
  %s1 = stablehlo.add %c1, %bb1 : tensor<2x12x12x64xf32>
  %z = stablehlo.constant dense<0.0> : tensor<2x12x12x64xf32>
  %h = stablehlo.maximum %s1, %z : tensor<2x12x12x64xf32>
  %c2 = stablehlo.convolution(%h, %w2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x12x12x64xf32>, tensor<3x3x64x64xf32>) -> tensor<2x12x12x64xf32>
  %bb2 = stablehlo.broadcast_in_dim %b2, dims = [3] : (tensor<64xf32>) -> tensor<2x12x12x64xf32>
  %s2 = stablehlo.add %c2, %bb2 : tensor<2x12x12x64xf32>
  %s3 = stablehlo.add %s2, %x : tensor<2x12x12x64xf32>
  %r = stablehlo.maximum %s3, %z : tensor<2x12x12x64xf32>
  return %r : tensor<2x12x12x64xf32>
}
