// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s
// RUN: xlac compare --random-inputs --split-input-file --threads 1 %s | FileCheck %s
// RUN: xlac run --backend=cpu --verbose --random-inputs --split-input-file %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// Convolutions whose window is nearly the whole input (the gradient of a
// convolution with respect to its kernel): the cpu backend copies both
// operands once into a common frame and computes each output position as
// one GEMM over it (runtime/conv.c, xlacrt_conv_shifted).  Layouts with the
// batch or the features innermost or not, output written in place or
// scattered, padding on either side, strides, window reversal, 1-D to 3-D,
// f32 and f64.  On one thread, and for fewer input features than a
// register tile's rows, all the output positions run as one GEMM, row
// (position, input feature) of it reading the frame at that position's
// shift: rows of one tile from one position or from several (3 input
// features, an RGB image's gradient, and 32), on one thread and on two.
// Where the input features fill whole register tiles (or nearly: padded
// with zero rows), the frame is laid out in the tiles' panels and the
// product reads them in place (runtime/conv.c, panel_tile): 64, 63
// (padded to the 6- or 8-row tile), 48 in f64, and a scattered output.  Sums
// of a few hundred products: the error bound is loose next to the
// interpreter's, but far below any indexing mistake.
// CHECK-COUNT-13: max abs error {{(0|[0-9.]+e-(0[5-9]|[1-9][0-9]))}},
// STATS-COUNT-13: 0 through the interpreter

// JAX's kernel gradient of an NHWC 3x3 convolution with padding 1
func.func @nhwc_kernel_grad(%x: tensor<2x9x9x5xf32>, %dy: tensor<2x9x9x7xf32>) -> tensor<3x3x5x7xf32> {
  %0 = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x9x5xf32>, tensor<2x9x9x7xf32>) -> tensor<3x3x5x7xf32>
  return %0 : tensor<3x3x5x7xf32>
}

// -----

// strides, asymmetric padding, f64
func.func @stride_pad_f64(%x: tensor<3x21x20x4xf64>, %k: tensor<3x20x20x6xf64>) -> tensor<2x2x4x6xf64> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [2, 2], pad = [[1, 0], [0, 2]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x21x20x4xf64>, tensor<3x20x20x6xf64>) -> tensor<2x2x4x6xf64>
  return %0 : tensor<2x2x4x6xf64>
}

// -----

// NCHW operands (batch not innermost), output features outermost (scattered), window reversed
func.func @nchw_reversed(%x: tensor<3x2x12x11xf32>, %k: tensor<5x2x12x11xf32>) -> tensor<5x3x3x3xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[f, b, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x2x12x11xf32>, tensor<5x2x12x11xf32>) -> tensor<5x3x3x3xf32>
  return %0 : tensor<5x3x3x3xf32>
}

// -----

// 1-D: a long window, the output batch outermost
func.func @one_d(%x: tensor<4x100x3xf32>, %k: tensor<96x3x5xf32>) -> tensor<4x8x5xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[1, 2]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x100x3xf32>, tensor<96x3x5xf32>) -> tensor<4x8x5xf32>
  return %0 : tensor<4x8x5xf32>
}

// -----

// 3-D kernel gradient
func.func @three_d(%x: tensor<2x10x10x10x3xf32>, %dy: tensor<2x10x10x10x4xf32>) -> tensor<3x3x3x3x4xf32> {
  %0 = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, 2, b]x[i, 0, 1, 2, o]->[0, 1, 2, b, f], window = {stride = [1, 1, 1], pad = [[1, 1], [1, 1], [1, 1]], lhs_dilate = [1, 1, 1], rhs_dilate = [1, 1, 1], reverse = [false, false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x10x10x10x3xf32>, tensor<2x10x10x10x4xf32>) -> tensor<3x3x3x3x4xf32>
  return %0 : tensor<3x3x3x3x4xf32>
}

// -----

// a single output position: the window is the whole input
func.func @whole_window(%x: tensor<4x8x8x3xf32>, %k: tensor<8x8x3x16xf32>) -> tensor<4x1x1x16xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x8x8x3xf32>, tensor<8x8x3x16xf32>) -> tensor<4x1x1x16xf32>
  return %0 : tensor<4x1x1x16xf32>
}

// -----

// followed by an elementwise op (a kOutput fusion: computed whole, then the epilogue)
func.func @with_epilogue(%x: tensor<2x9x9x5xf32>, %dy: tensor<2x9x9x7xf32>) -> tensor<3x3x5x7xf32> {
  %0 = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x9x5xf32>, tensor<2x9x9x7xf32>) -> tensor<3x3x5x7xf32>
  %c = stablehlo.constant dense<0.5> : tensor<3x3x5x7xf32>
  %1 = stablehlo.multiply %0, %c : tensor<3x3x5x7xf32>
  return %1 : tensor<3x3x5x7xf32>
}

// -----

// the first layer's kernel gradient of an RGB CNN: 3 input features
func.func @rgb_kernel_grad(%x: tensor<4x16x16x3xf32>, %dy: tensor<4x16x16x32xf32>) -> tensor<3x3x3x32xf32> {
  %0 = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x16x16x3xf32>, tensor<4x16x16x32xf32>) -> tensor<3x3x3x32xf32>
  return %0 : tensor<3x3x3x32xf32>
}

// -----

// 32 input features: register tiles of rows within one position
func.func @wide_kernel_grad(%x: tensor<2x8x8x32xf32>, %dy: tensor<2x8x8x24xf32>) -> tensor<3x3x32x24xf32> {
  %0 = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x32xf32>, tensor<2x8x8x24xf32>) -> tensor<3x3x32x24xf32>
  return %0 : tensor<3x3x32x24xf32>
}

// -----

// 64 input features: the frame in the product's panels
func.func @panels_64(%x: tensor<2x10x10x64xf32>, %dy: tensor<2x10x10x16xf32>) -> tensor<3x3x64x16xf32> {
  %0 = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x10x10x64xf32>, tensor<2x10x10x16xf32>) -> tensor<3x3x64x16xf32>
  return %0 : tensor<3x3x64x16xf32>
}

// -----

// 63 input features: panels padded with zero rows, outputs gathered
func.func @panels_63_padded(%x: tensor<3x9x8x63xf32>, %dy: tensor<3x9x8x20xf32>) -> tensor<3x3x63x20xf32> {
  %0 = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x9x8x63xf32>, tensor<3x9x8x20xf32>) -> tensor<3x3x63x20xf32>
  return %0 : tensor<3x3x63x20xf32>
}

// -----

// f64, 48 input features, strides and asymmetric padding
func.func @panels_f64_48(%x: tensor<2x21x20x48xf64>, %k: tensor<2x20x20x6xf64>) -> tensor<2x2x48x6xf64> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [2, 2], pad = [[1, 0], [0, 2]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x21x20x48xf64>, tensor<2x20x20x6xf64>) -> tensor<2x2x48x6xf64>
  return %0 : tensor<2x2x48x6xf64>
}

// -----

// 64 input features, output features outermost (scattered), NCHW operands
func.func @panels_scattered(%x: tensor<64x2x12x11xf32>, %k: tensor<5x2x12x11xf32>) -> tensor<5x64x3x3xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[f, b, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<64x2x12x11xf32>, tensor<5x2x12x11xf32>) -> tensor<5x64x3x3xf32>
  return %0 : tensor<5x64x3x3xf32>
}
