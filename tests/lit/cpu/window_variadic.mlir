// RUN: xlac run --split-input-file %s
// reduce_window with general and variadic bodies: an argmax pooling over
// (values, positions) with padding, a non-associative body with strides,
// padding, base and window dilation (padding and dilation holes take part
// as the init value), and an integer body of several ops.

func.func @argmax_pool() {
  %x0 = stablehlo.constant dense<[[1.0, 5.0, 2.0, 2.0],
                                  [5.0, 0.0, 0x7FC00000, 3.0],
                                  [-1.0, -2.0, 4.0, 4.0],
                                  [-3.0, -1.0, 4.0, 1.0]]> : tensor<4x4xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<4x4xf32>
  %pos0 = stablehlo.iota dim = 0 : tensor<16xi32>
  %pos = stablehlo.reshape %pos0 : (tensor<16xi32>) -> tensor<4x4xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m1 = stablehlo.constant dense<-1> : tensor<i32>
  %r:2 = "stablehlo.reduce_window"(%x, %pos, %ninf, %m1) ({
    ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
      %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %nan = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %p = stablehlo.or %gt, %nan : tensor<i1>
      %eq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %lt = stablehlo.compare LT, %ai, %bi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %tie = stablehlo.and %eq, %lt : tensor<i1>
      %q = stablehlo.or %p, %tie : tensor<i1>
      %v = stablehlo.select %p, %a, %b : tensor<i1>, tensor<f32>
      %i = stablehlo.select %q, %ai, %bi : tensor<i1>, tensor<i32>
      stablehlo.return %v, %i : tensor<f32>, tensor<i32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>,
      padding = dense<[[0, 2], [1, 0]]> : tensor<2x2xi64>}
    : (tensor<4x4xf32>, tensor<4x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<3x2xf32>, tensor<3x2xi32>)
  // output (0, 0): the padding column and column 0 of rows 0-1, the 5 at
  // position 4 wins; (0, 1) holds the NaN (position 6); (1, 1) has a tie of
  // 4s (the first, position 10, wins); the last row of windows lies wholly
  // in the padding and keeps the init values.
  check.expect_eq_const %r#1, dense<[[4, 6], [8, 10], [-1, -1]]> : tensor<3x2xi32>
  func.return
}

// -----

func.func @non_associative_dilated() {
  %x0 = stablehlo.iota dim = 0 : tensor<24xf32>
  %s = stablehlo.constant dense<0.3> : tensor<24xf32>
  %x1 = stablehlo.multiply %x0, %s : tensor<24xf32>
  %x2 = stablehlo.reshape %x1 : (tensor<24xf32>) -> tensor<4x6xf32>
  %x = stablehlo.optimization_barrier %x2 : tensor<4x6xf32>
  %init = stablehlo.constant dense<2.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %init) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %h = stablehlo.constant dense<0.5> : tensor<f32>
      %ah = stablehlo.multiply %a, %h : tensor<f32>
      %n = stablehlo.add %ah, %b : tensor<f32>
      stablehlo.return %n : tensor<f32>
  }) {window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 1, 2>,
      base_dilations = array<i64: 1, 2>, window_dilations = array<i64: 2, 1>,
      padding = dense<[[1, 0], [0, 2]]> : tensor<2x2xi64>}
    : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x6xf32>
  %rs = stablehlo.slice %r [0:3:2, 0:6:3] : (tensor<3x6xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %rs, dense<[[4.01875, 5.14375], [8.525001, 9.790626]]> : tensor<2x2xf32>
  func.return
}

// -----

func.func @int_body_three() {
  %x0 = stablehlo.iota dim = 0 : tensor<10xi32>
  %x = stablehlo.optimization_barrier %x0 : tensor<10xi32>
  %y0 = stablehlo.constant dense<[3, -1, 4, -1, 5, -9, 2, 6, -5, 3]> : tensor<10xi8>
  %y = stablehlo.optimization_barrier %y0 : tensor<10xi8>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %zi8 = stablehlo.constant dense<100> : tensor<i8>
  %r:2 = "stablehlo.reduce_window"(%x, %y, %z, %zi8) ({
    ^bb0(%a: tensor<i32>, %c: tensor<i8>, %b: tensor<i32>, %d: tensor<i8>):
      %t = stablehlo.constant dense<3> : tensor<i32>
      %m = stablehlo.multiply %a, %t : tensor<i32>
      %n = stablehlo.subtract %m, %b : tensor<i32>
      %mn = stablehlo.minimum %c, %d : tensor<i8>
      stablehlo.return %n, %mn : tensor<i32>, tensor<i8>
  }) {window_dimensions = array<i64: 3>, window_strides = array<i64: 2>,
      padding = dense<[[2, 1]]> : tensor<1x2xi64>}
    : (tensor<10xi32>, tensor<10xi8>, tensor<i32>, tensor<i8>) -> (tensor<6xi32>, tensor<6xi8>)
  check.expect_eq_const %r#0, dense<[0, -5, -31, -57, -83, -99]> : tensor<6xi32>
  check.expect_eq_const %r#1, dense<[3, -1, -1, -9, -5, -5]> : tensor<6xi8>
  func.return
}
