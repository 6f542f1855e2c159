// Convolutions the runtime computes without im2col: depthwise ones (each
// feature group reads one input feature: a direct loop over window
// positions, vectorized across features) and 1x1 ones whose output rows are
// the input's rows (one GEMM on the input in place); next to them, shapes
// that look alike but take the general im2col path.  Compiled results
// against the interpreter's (which sums exactly and rounds once).
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s
// RUN: xlac run --backend=cpu --verbose --random-inputs --split-input-file %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// CHECK-COUNT-6: max abs error {{(0|[0-9.]+e-(0[6-9]|[1-9][0-9]))}},
// STATS-COUNT-5: 0 through the interpreter

// depthwise, one output feature per group, stride 2, padded
func.func @main(%x: tensor<2x9x9x20xf32>, %w: tensor<3x3x1x20xf32>) -> tensor<2x5x5x20xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 20 : i64} : (tensor<2x9x9x20xf32>, tensor<3x3x1x20xf32>) -> tensor<2x5x5x20xf32>
  return %r : tensor<2x5x5x20xf32>
}

// -----

// depthwise with a channel multiplier of 3 and a dilated window
func.func @main(%x: tensor<1x10x10x5xf32>, %w: tensor<3x3x1x15xf32>) -> tensor<1x6x6x15xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {rhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 5 : i64} : (tensor<1x10x10x5xf32>, tensor<3x3x1x15xf32>) -> tensor<1x6x6x15xf32>
  return %r : tensor<1x6x6x15xf32>
}

// -----

// depthwise f64, reversed window, input dilation (a transposed depthwise convolution)
func.func @main(%x: tensor<1x4x4x3xf64>, %w: tensor<3x3x1x3xf64>) -> tensor<1x9x9x3xf64> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[2, 2], [2, 2]], lhs_dilate = [2, 2], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 3 : i64} : (tensor<1x4x4x3xf64>, tensor<3x3x1x3xf64>) -> tensor<1x9x9x3xf64>
  return %r : tensor<1x9x9x3xf64>
}

// -----

// 1x1 convolution: the input multiplied in place
func.func @main(%x: tensor<2x7x7x24xf32>, %w: tensor<1x1x24x40xf32>) -> tensor<2x7x7x40xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x7x7x24xf32>, tensor<1x1x24x40xf32>) -> tensor<2x7x7x40xf32>
  return %r : tensor<2x7x7x40xf32>
}

// -----

// 1x1 with stride 2 (im2col), and 1x1 on NCHW (not rows of the input)
func.func @main(%x: tensor<2x7x7x24xf32>, %w: tensor<1x1x24x8xf32>, %y: tensor<1x6x5x5xf32>, %v: tensor<4x6x1x1xf32>) -> (tensor<2x4x4x8xf32>, tensor<1x4x5x5xf32>) {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x7x7x24xf32>, tensor<1x1x24x8xf32>) -> tensor<2x4x4x8xf32>
  %s = stablehlo.convolution(%y, %v) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x5x5xf32>, tensor<4x6x1x1xf32>) -> tensor<1x4x5x5xf32>
  return %r, %s : tensor<2x4x4x8xf32>, tensor<1x4x5x5xf32>
}
