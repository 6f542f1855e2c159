// RUN: xlac verify --verify-diagnostics --split-input-file %s
// Shape inference with attribute values near INT64_MAX / INT64_MIN: every
// size the verifier computes is checked, and one that does not fit in int64
// is an error at the op (never signed overflow; the ASan/UBSan build runs
// this file too).

func.func @conv_lhs_dilation(%x: tensor<1x3x1xf32>, %k: tensor<1x1x1xf32>) -> tensor<1x1x1xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op the dilated and padded input dimension 0 overflows (larger than INT64_MAX)}}
  %r = "stablehlo.convolution"(%x, %k) {
    dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>,
    lhs_dilation = array<i64: 9223372036854775807>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x3x1xf32>, tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  func.return %r : tensor<1x1x1xf32>
}

// -----

func.func @conv_rhs_dilation(%x: tensor<1x3x1xf32>, %k: tensor<2x1x1xf32>) -> tensor<1x1x1xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op the dilated window dimension 0 overflows (larger than INT64_MAX)}}
  %r = "stablehlo.convolution"(%x, %k) {
    dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>,
    rhs_dilation = array<i64: 9223372036854775807>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x3x1xf32>, tensor<2x1x1xf32>) -> tensor<1x1x1xf32>
  func.return %r : tensor<1x1x1xf32>
}

// -----

func.func @conv_padding_high(%x: tensor<1x3x1xf32>, %k: tensor<1x1x1xf32>) -> tensor<1x1x1xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op the dilated and padded input dimension 0 overflows (larger than INT64_MAX)}}
  %r = "stablehlo.convolution"(%x, %k) {
    dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>,
    padding = dense<[[9223372036854775807, 9223372036854775807]]> : tensor<1x2xi64>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x3x1xf32>, tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  func.return %r : tensor<1x1x1xf32>
}

// -----

// padding that crops more than INT64_MIN in all
func.func @conv_padding_low(%x: tensor<1x3x1xf32>, %k: tensor<1x1x1xf32>) -> tensor<1x0x1xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op the dilated and padded input dimension 0 overflows (larger than INT64_MAX)}}
  %r = "stablehlo.convolution"(%x, %k) {
    dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>,
    padding = dense<[[-9223372036854775808, -9223372036854775808]]> : tensor<1x2xi64>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x3x1xf32>, tensor<1x1x1xf32>) -> tensor<1x0x1xf32>
  func.return %r : tensor<1x0x1xf32>
}

// -----

func.func @reduce_window_base_dilation(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.reduce_window' op the dilated and padded input dimension 0 overflows (larger than INT64_MAX)}}
  %r = "stablehlo.reduce_window"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 1>, base_dilations = array<i64: 4611686018427387904>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @reduce_window_window_dilation(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<1xf32> {
  // expected-error @+1 {{'stablehlo.reduce_window' op the dilated window dimension 0 overflows (larger than INT64_MAX)}}
  %r = "stablehlo.reduce_window"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 3>, window_dilations = array<i64: 9223372036854775807>} : (tensor<4xf32>, tensor<f32>) -> tensor<1xf32>
  func.return %r : tensor<1xf32>
}

// -----

func.func @reduce_window_padding(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<1xf32> {
  // expected-error @+1 {{'stablehlo.reduce_window' op the dilated and padded input dimension 0 overflows (larger than INT64_MAX)}}
  %r = "stablehlo.reduce_window"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 1>, padding = dense<[[9223372036854775805, 0]]> : tensor<1x2xi64>} : (tensor<4xf32>, tensor<f32>) -> tensor<1xf32>
  func.return %r : tensor<1xf32>
}

// -----

func.func @select_and_scatter_padding(%a: tensor<4xf32>, %s: tensor<1xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op the dilated and padded input dimension 0 overflows (larger than INT64_MAX)}}
  %r = "stablehlo.select_and_scatter"(%a, %s, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %c = "stablehlo.compare"(%x, %y) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %p = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%p) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2>, padding = dense<[[9223372036854775807, 9223372036854775807]]> : tensor<1x2xi64>} : (tensor<4xf32>, tensor<1xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @pad_interior(%a: tensor<3xf32>, %z: tensor<f32>) -> tensor<3xf32> {
  // expected-error @+1 {{'stablehlo.pad' op interior_padding 4611686018427387904 of dimension 0 overflows the dimension size}}
  %r = stablehlo.pad %a, %z, low = [0], high = [0], interior = [4611686018427387904] : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

func.func @pad_edges_high(%a: tensor<3xf32>, %z: tensor<f32>) -> tensor<3xf32> {
  // expected-error @+1 {{'stablehlo.pad' op padding makes dimension 0 overflow (larger than INT64_MAX)}}
  %r = stablehlo.pad %a, %z, low = [9223372036854775807], high = [1], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

func.func @pad_edges_both_high(%a: tensor<3xf32>, %z: tensor<f32>) -> tensor<3xf32> {
  // expected-error @+1 {{'stablehlo.pad' op padding makes dimension 0 overflow (larger than INT64_MAX)}}
  %r = stablehlo.pad %a, %z, low = [9223372036854775807], high = [9223372036854775807], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

func.func @pad_edges_low(%a: tensor<3xf32>, %z: tensor<f32>) -> tensor<3xf32> {
  // expected-error @+1 {{'stablehlo.pad' op padding makes dimension 0 negative}}
  %r = stablehlo.pad %a, %z, low = [-9223372036854775808], high = [-1], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

// extreme amounts whose exact sum is small are fine (see
// tests/lit/interp/pad_extreme.mlir for what they compute)
func.func @pad_extreme_ok(%a: tensor<2xf32>, %z: tensor<f32>) -> tensor<3xf32> {
  %r = stablehlo.pad %a, %z, low = [9223372036854775806], high = [-9223372036854775805], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

func.func @dynamic_pad_interior(%a: tensor<3xf32>, %z: tensor<f32>) -> tensor<3xf32> {
  %lo = stablehlo.constant dense<0> : tensor<1xi64>
  %in = stablehlo.constant dense<9223372036854775807> : tensor<1xi64>
  // expected-error @+1 {{'stablehlo.dynamic_pad' op interior_padding 9223372036854775807 of dimension 0 overflows the dimension size}}
  %r = "stablehlo.dynamic_pad"(%a, %z, %lo, %lo, %in) : (tensor<3xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

func.func @dynamic_pad_edges(%a: tensor<3xf32>, %z: tensor<f32>) -> tensor<3xf32> {
  %lo = stablehlo.constant dense<9223372036854775807> : tensor<1xi64>
  %in = stablehlo.constant dense<0> : tensor<1xi64>
  // expected-error @+1 {{'stablehlo.dynamic_pad' op padding makes dimension 0 overflow (larger than INT64_MAX)}}
  %r = "stablehlo.dynamic_pad"(%a, %z, %lo, %lo, %in) : (tensor<3xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

// the stride is near INT64_MAX: ceil((limit - start) / stride) without
// forming limit - start + stride - 1
func.func @slice_huge_stride(%a: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.slice' op inferred shape [1] is incompatible with result type tensor<2xf32>}}
  %r = "stablehlo.slice"(%a) {start_indices = array<i64: 1>, limit_indices = array<i64: 4>, strides = array<i64: 9223372036854775807>} : (tensor<4xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @all_to_all_concat(%a: tensor<0x4xf32>) -> tensor<0x4xf32> {
  // expected-error @+1 {{'stablehlo.all_to_all' op concat dimension of size 4 times split_count 9223372036854775807 overflows}}
  %r = "stablehlo.all_to_all"(%a) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 9223372036854775807 : i64} : (tensor<0x4xf32>) -> tensor<0x4xf32>
  func.return %r : tensor<0x4xf32>
}

// -----

func.func @broadcast_huge_sizes(%a: tensor<2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'stablehlo.broadcast' op inferred shape [9223372036854775807, 2] is incompatible with result type tensor<2x2xf32>}}
  %r = "stablehlo.broadcast"(%a) {broadcast_sizes = array<i64: 9223372036854775807>} : (tensor<2xf32>) -> tensor<2x2xf32>
  func.return %r : tensor<2x2xf32>
}

// -----

func.func @iota_huge_dimension() -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.iota' op iota_dimension 9223372036854775807 is out of range for tensor<2xf32>}}
  %r = "stablehlo.iota"() {iota_dimension = 9223372036854775807 : i64} : () -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}
