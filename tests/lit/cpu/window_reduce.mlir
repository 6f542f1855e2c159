// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --verbose %s 2>&1 | FileCheck %s
// reduce_window on the cpu backend: a loop over the output, each element
// combining its window in row-major window order from the init value, with
// padding and dilation holes taking part as the init value.  That is the
// interpreter's order, so results are identical bit for bit.  Inputs sit
// behind an optimization barrier so the op is compiled, not folded.

// CHECK-NOT: cpu: 0 ops native
// CHECK-NOT: failed at
// CHECK-NOT: error
// CHECK: {{^}}[[N:[0-9]+]] checks passed, 0 failed

// Max pool 2x2, stride 2.
func.func @maxpool() {
  %x0 = stablehlo.constant dense<[[1.0, 5.0, 2.0, 0.0], [3.0, -1.0, 7.0, 4.0], [-2.0, 6.0, 8.0, 9.0], [0.5, 0.25, -3.0, 10.0]]> : tensor<4x4xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<4x4xf32>
  %i = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x4xf32>, tensor<f32>) -> tensor<2x2xf32>
  check.expect_eq_const %r, dense<[[5.0, 7.0], [6.0, 10.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// Average-pool sum: NHWC, 3x3, stride 1, padding 1 (zeros at the border).
func.func @avgpool_sum() {
  %x0 = stablehlo.constant dense<[[[[1.0, 10.0], [2.0, 20.0], [3.0, 30.0]], [[4.0, 40.0], [5.0, 50.0], [6.0, 60.0]], [[7.0, 70.0], [8.0, 80.0], [9.0, 90.0]]]]> : tensor<1x3x3x2xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<1x3x3x2xf32>
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3, 3, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<1x3x3x2xf32>, tensor<f32>) -> tensor<1x3x3x2xf32>
  check.expect_eq_const %r, dense<[[[[12.0, 120.0], [21.0, 210.0], [16.0, 160.0]], [[27.0, 270.0], [45.0, 450.0], [33.0, 330.0]], [[24.0, 240.0], [39.0, 390.0], [28.0, 280.0]]]]> : tensor<1x3x3x2xf32>
  func.return
}

// -----

// Padding, base dilation, window dilation and strides together.
func.func @dilations() {
  %x0 = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi64>
  %x = stablehlo.optimization_barrier %x0 : tensor<3x2xi64>
  %i = stablehlo.constant dense<0> : tensor<i64>
  %r = "stablehlo.reduce_window"(%x, %i) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = stablehlo.add %a, %b : tensor<i64>
      stablehlo.return %s : tensor<i64>
  }) {base_dilations = array<i64: 2, 1>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 3, 1>, window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>} : (tensor<3x2xi64>, tensor<i64>) -> tensor<2x2xi64>
  check.expect_eq_const %r, dense<[[0, 0], [3, 4]]> : tensor<2x2xi64>
  func.return
}

// -----

// The init value takes part for every padding position: a product with
// init 2 over a 1-D window that hangs over both ends.
func.func @padding_is_init() {
  %x0 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %x = stablehlo.optimization_barrier %x0 : tensor<3xi32>
  %i = stablehlo.constant dense<2> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.multiply %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 3>, padding = dense<[[2, 2]]> : tensor<1x2xi64>} : (tensor<3xi32>, tensor<i32>) -> tensor<5xi32>
  check.expect_eq_const %r, dense<[8, 8, 12, 24, 24]> : tensor<5xi32>
  func.return
}

// -----

// Negative padding crops the input.
func.func @negative_padding() {
  %x0 = stablehlo.constant dense<[5, -1, 7, 3, 9, -4]> : tensor<6xi32>
  %x = stablehlo.optimization_barrier %x0 : tensor<6xi32>
  %i = stablehlo.constant dense<2147483647> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.minimum %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 2>, padding = dense<[[-1, -1]]> : tensor<1x2xi64>} : (tensor<6xi32>, tensor<i32>) -> tensor<3xi32>
  check.expect_eq_const %r, dense<[-1, 3, 3]> : tensor<3xi32>
  func.return
}

// -----

// Small integer types: i8 products wrap (-4200 is -104), ui8 max, i16 xor, i1 and/or.
func.func @int_types() {
  %a0 = stablehlo.constant dense<[[100, 3], [-7, 2], [5, 1]]> : tensor<3x2xi8>
  %b0 = stablehlo.constant dense<[200, 3, 255, 0, 17]> : tensor<5xui8>
  %c0 = stablehlo.constant dense<[[1, 2, 4], [8, 16, 32]]> : tensor<2x3xi16>
  %d0 = stablehlo.constant dense<[true, true, false, true]> : tensor<4xi1>
  %a, %b, %c, %d = stablehlo.optimization_barrier %a0, %b0, %c0, %d0 : tensor<3x2xi8>, tensor<5xui8>, tensor<2x3xi16>, tensor<4xi1>
  %one = stablehlo.constant dense<1> : tensor<i8>
  %ra = "stablehlo.reduce_window"(%a, %one) ({
    ^bb0(%p: tensor<i8>, %q: tensor<i8>):
      %s = stablehlo.multiply %p, %q : tensor<i8>
      stablehlo.return %s : tensor<i8>
  }) {window_dimensions = array<i64: 2, 2>} : (tensor<3x2xi8>, tensor<i8>) -> tensor<2x1xi8>
  check.expect_eq_const %ra, dense<[[-104], [-70]]> : tensor<2x1xi8>
  %zu = stablehlo.constant dense<0> : tensor<ui8>
  %rb = "stablehlo.reduce_window"(%b, %zu) ({
    ^bb0(%p: tensor<ui8>, %q: tensor<ui8>):
      %s = stablehlo.maximum %p, %q : tensor<ui8>
      stablehlo.return %s : tensor<ui8>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<5xui8>, tensor<ui8>) -> tensor<2xui8>
  check.expect_eq_const %rb, dense<[200, 255]> : tensor<2xui8>
  %z16 = stablehlo.constant dense<0> : tensor<i16>
  %rc = "stablehlo.reduce_window"(%c, %z16) ({
    ^bb0(%p: tensor<i16>, %q: tensor<i16>):
      %s = stablehlo.xor %q, %p : tensor<i16>
      stablehlo.return %s : tensor<i16>
  }) {window_dimensions = array<i64: 2, 2>, padding = dense<[[0, 0], [0, 1]]> : tensor<2x2xi64>} : (tensor<2x3xi16>, tensor<i16>) -> tensor<1x3xi16>
  check.expect_eq_const %rc, dense<[[27, 54, 36]]> : tensor<1x3xi16>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %rd = "stablehlo.reduce_window"(%d, %t) ({
    ^bb0(%p: tensor<i1>, %q: tensor<i1>):
      %s = stablehlo.and %p, %q : tensor<i1>
      stablehlo.return %s : tensor<i1>
  }) {window_dimensions = array<i64: 2>} : (tensor<4xi1>, tensor<i1>) -> tensor<3xi1>
  check.expect_eq_const %rd, dense<[true, false, false]> : tensor<3xi1>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %re = "stablehlo.reduce_window"(%d, %f) ({
    ^bb0(%p: tensor<i1>, %q: tensor<i1>):
      %s = stablehlo.or %p, %q : tensor<i1>
      stablehlo.return %s : tensor<i1>
  }) {window_dimensions = array<i64: 2>, base_dilations = array<i64: 3>} : (tensor<4xi1>, tensor<i1>) -> tensor<9xi1>
  check.expect_eq_const %re, dense<[true, false, true, true, false, false, false, false, true]> : tensor<9xi1>
  func.return
}

// -----

// bf16 and f16 sums round after every addition, as the interpreter does:
// 256 + 1.5 is 258 in bf16, 2048 + 2.75 is 2050 in f16.
func.func @half_types() {
  %a0 = stablehlo.constant dense<[1.0, 0.00390625, 0.00390625, 256.0, 1.5]> : tensor<5xbf16>
  %b0 = stablehlo.constant dense<[[1.0, 0.5], [0.25, 2048.0]]> : tensor<2x2xf16>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<5xbf16>, tensor<2x2xf16>
  %za = stablehlo.constant dense<0.0> : tensor<bf16>
  %ra = "stablehlo.reduce_window"(%a, %za) ({
    ^bb0(%p: tensor<bf16>, %q: tensor<bf16>):
      %s = stablehlo.add %p, %q : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
  }) {window_dimensions = array<i64: 3>} : (tensor<5xbf16>, tensor<bf16>) -> tensor<3xbf16>
  check.expect_eq_const %ra, dense<[1.0, 256.0, 258.0]> : tensor<3xbf16>
  %zb = stablehlo.constant dense<1.0> : tensor<f16>
  %rb = "stablehlo.reduce_window"(%b, %zb) ({
    ^bb0(%p: tensor<f16>, %q: tensor<f16>):
      %s = stablehlo.add %p, %q : tensor<f16>
      stablehlo.return %s : tensor<f16>
  }) {window_dimensions = array<i64: 2, 2>} : (tensor<2x2xf16>, tensor<f16>) -> tensor<1x1xf16>
  check.expect_eq_const %rb, dense<[[2050.0]]> : tensor<1x1xf16>
  func.return
}

// -----

// Many chunks: 2x2 sums over a 256x300 iota along dimension 1 are 4j+2.
func.func @many_chunks() {
  %x0 = stablehlo.iota dim = 1 : tensor<256x300xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<256x300xf32>
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>} : (tensor<256x300xf32>, tensor<f32>) -> tensor<255x299xf32>
  %j = stablehlo.iota dim = 1 : tensor<255x299xf32>
  %four = stablehlo.constant dense<4.0> : tensor<255x299xf32>
  %two = stablehlo.constant dense<2.0> : tensor<255x299xf32>
  %m = stablehlo.multiply %j, %four : tensor<255x299xf32>
  %e = stablehlo.add %m, %two : tensor<255x299xf32>
  check.expect_eq %r, %e : tensor<255x299xf32>
  func.return
}

// -----

// NHWC pooling (window 1 over channels): the window loops run outside a
// loop over each contiguous channel row.  A 3x3 sum, stride 2, padding 1,
// init 0.5 over x = channel + 1: windows with 4, 6, 6 and 9 positions
// inside, and the init value once plus once per padding position (5, 3,
// 3, 0 of them): 4c+7, 6c+8, 6c+8, 9c+9.5.
func.func @nhwc_rows() {
  %c = stablehlo.iota dim = 3 : tensor<1x4x4x8xf32>
  %one = stablehlo.constant dense<1.0> : tensor<1x4x4x8xf32>
  %x0 = stablehlo.add %c, %one : tensor<1x4x4x8xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<1x4x4x8xf32>
  %i = stablehlo.constant dense<0.5> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<1x4x4x8xf32>, tensor<f32>) -> tensor<1x2x2x8xf32>
  check.expect_eq_const %r, dense<[[[[7.0, 11.0, 15.0, 19.0, 23.0, 27.0, 31.0, 35.0], [8.0, 14.0, 20.0, 26.0, 32.0, 38.0, 44.0, 50.0]], [[8.0, 14.0, 20.0, 26.0, 32.0, 38.0, 44.0, 50.0], [9.5, 18.5, 27.5, 36.5, 45.5, 54.5, 63.5, 72.5]]]]> : tensor<1x2x2x8xf32>
  %ni = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = "stablehlo.reduce_window"(%x, %ni) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x4x4x8xf32>, tensor<f32>) -> tensor<1x2x2x8xf32>
  check.expect_eq_const %m, dense<[[[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]], [[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]]]> : tensor<1x2x2x8xf32>
  func.return
}
