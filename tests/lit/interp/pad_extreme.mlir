// RUN: xlac run --split-input-file --input a=[7,8] %s
// Padding, dilation and stride amounts near INT64_MAX / INT64_MIN whose
// exact sizes are small: the verifier accepts them (tests/lit/verify/
// overflow.mlir has the ones it rejects), and both backends compute the
// spec's answer with index arithmetic that does not overflow.  The test
// suite runs this file on the interpreter and on the cpu backend; the
// operand is a parameter so that nothing is constant-folded.

// low + high = -(2^63 - 1) + (2^63 - 2) crops everything but high padding
func.func @main(%a: tensor<2xi32>) {
  %z = stablehlo.constant dense<-1> : tensor<i32>
  %r = stablehlo.pad %a, %z, low = [-9223372036854775807], high = [9223372036854775806], interior = [0] : (tensor<2xi32>, tensor<i32>) -> tensor<1xi32>
  check.expect_eq_const %r, dense<[-1]> : tensor<1xi32>
  func.return
}

// -----

// the other way round: low + operand overflows on its own, the total is 3
func.func @main(%a: tensor<2xi32>) {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.pad %a, %z, low = [9223372036854775806], high = [-9223372036854775805], interior = [0] : (tensor<2xi32>, tensor<i32>) -> tensor<3xi32>
  check.expect_eq_const %r, dense<[0, 0, 0]> : tensor<3xi32>
  func.return
}

// -----

// interior 2^62 puts the second element at 2^62 + 1; low crops up to it
func.func @main(%a: tensor<2xi32>) {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.pad %a, %z, low = [-4611686018427387905], high = [2], interior = [4611686018427387904] : (tensor<2xi32>, tensor<i32>) -> tensor<3xi32>
  check.expect_eq_const %r, dense<[8, 0, 0]> : tensor<3xi32>
  func.return
}

// -----

// positive low padding pushes the second element past INT64_MAX
func.func @main(%a: tensor<2xi32>) {
  %z = stablehlo.constant dense<5> : tensor<i32>
  %r = stablehlo.pad %a, %z, low = [4611686018427387904], high = [-9223372036854775803], interior = [4611686018427387903] : (tensor<2xi32>, tensor<i32>) -> tensor<6xi32>
  check.expect_eq_const %r, dense<[5, 5, 5, 5, 5, 5]> : tensor<6xi32>
  func.return
}

// -----

// one element: the interior amount is never used, INT64_MAX included
func.func @main(%a: tensor<2xi32>) {
  %b = stablehlo.reshape %a : (tensor<2xi32>) -> tensor<2x1xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.pad %b, %z, low = [0, 1], high = [0, 1], interior = [0, 9223372036854775807] : (tensor<2x1xi32>, tensor<i32>) -> tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[0, 7, 0], [0, 8, 0]]> : tensor<2x3xi32>
  func.return
}

// -----

// dynamic_pad with constant amounts like those above
func.func @main(%a: tensor<2xi32>) {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %lo = stablehlo.constant dense<[-4611686018427387905]> : tensor<1xi64>
  %hi = stablehlo.constant dense<[2]> : tensor<1xi64>
  %in = stablehlo.constant dense<[4611686018427387904]> : tensor<1xi64>
  %r = "stablehlo.dynamic_pad"(%a, %z, %lo, %hi, %in) : (tensor<2xi32>, tensor<i32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi32>
  check.expect_eq_const %r, dense<[8, 0, 0]> : tensor<3xi32>
  func.return
}

// -----

// a stride near INT64_MAX takes one element
func.func @main(%a: tensor<2xi32>) {
  %r = "stablehlo.slice"(%a) {start_indices = array<i64: 1>, limit_indices = array<i64: 2>, strides = array<i64: 9223372036854775807>} : (tensor<2xi32>) -> tensor<1xi32>
  check.expect_eq_const %r, dense<[8]> : tensor<1xi32>
  func.return
}

// -----

// lhs dilation 2^62 and a stride of 2^62: two windows, one per element
func.func @main(%a: tensor<2xi32>) {
  %f = stablehlo.convert %a : (tensor<2xi32>) -> tensor<2xf32>
  %x = stablehlo.reshape %f : (tensor<2xf32>) -> tensor<1x2x1xf32>
  %k = stablehlo.constant dense<[[[3.0]]]> : tensor<1x1x1xf32>
  %r = "stablehlo.convolution"(%x, %k) {
    dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>,
    lhs_dilation = array<i64: 4611686018427387904>,
    window_strides = array<i64: 4611686018427387904>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x2x1xf32>, tensor<1x1x1xf32>) -> tensor<1x2x1xf32>
  check.expect_eq_const %r, dense<[[[21.0], [24.0]]]> : tensor<1x2x1xf32>
  func.return
}

// -----

// a window of two taps 2^62 apart, the second always in the high padding
func.func @main(%a: tensor<2xi32>) {
  %f = stablehlo.convert %a : (tensor<2xi32>) -> tensor<2xf32>
  %z = stablehlo.constant dense<10.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%f, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2>, window_dilations = array<i64: 4611686018427387904>,
      padding = dense<[[0, 4611686018427387904]]> : tensor<1x2xi64>} : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_eq_const %r, dense<[27.0, 28.0]> : tensor<2xf32>
  func.return
}

// -----

// base dilation and stride near INT64_MAX / 2 visit the elements only
func.func @main(%a: tensor<2xi32>) {
  %f = stablehlo.convert %a : (tensor<2xi32>) -> tensor<2xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%f, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = "stablehlo.maximum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 1>, base_dilations = array<i64: 4611686018427387903>,
      window_strides = array<i64: 4611686018427387903>} : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_eq_const %r, dense<[7.0, 8.0]> : tensor<2xf32>
  func.return
}
