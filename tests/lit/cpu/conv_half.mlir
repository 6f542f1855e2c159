// Convolutions on f16 and bf16 run natively: computed in f32 through the
// im2col GEMM and rounded once, which agrees with the interpreter (exact
// sums rounded once) but for rare ties at the last bit.
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s
// RUN: xlac run --backend=cpu --verbose --random-inputs --split-input-file %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// CHECK-COUNT-3: max_ulp={{0|1}}{{$}}
// STATS-COUNT-3: 0 through the interpreter

func.func @main(%x: tensor<2x9x9x4xbf16>, %w: tensor<3x3x4x8xbf16>) -> tensor<2x4x4x8xbf16> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x9x4xbf16>, tensor<3x3x4x8xbf16>) -> tensor<2x4x4x8xbf16>
  return %r : tensor<2x4x4x8xbf16>
}

// -----

// depthwise (feature groups), padded
func.func @main(%x: tensor<1x8x8x6xf16>, %w: tensor<3x3x1x6xf16>) -> tensor<1x8x8x6xf16> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 6 : i64} : (tensor<1x8x8x6xf16>, tensor<3x3x1x6xf16>) -> tensor<1x8x8x6xf16>
  return %r : tensor<1x8x8x6xf16>
}

// -----

// NCHW with dilation, followed by an activation fused after the rounding
func.func @main(%x: tensor<1x3x10x10xbf16>, %w: tensor<4x3x3x3xbf16>) -> tensor<1x4x6x6xbf16> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {rhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x10x10xbf16>, tensor<4x3x3x3xbf16>) -> tensor<1x4x6x6xbf16>
  %z = stablehlo.constant dense<0.0> : tensor<1x4x6x6xbf16>
  %a = stablehlo.maximum %r, %z : tensor<1x4x6x6xbf16>
  return %a : tensor<1x4x6x6xbf16>
}
