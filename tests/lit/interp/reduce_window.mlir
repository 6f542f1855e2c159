// RUN: xlac run --split-input-file %s

// 2x2 max pooling, stride 2.
func.func @max_pool() {
  %x = stablehlo.constant dense<[[1, 5, 2, 0], [3, 4, 8, 1], [0, 0, 1, 1], [9, 0, 1, 2]]> : tensor<4x4xi32>
  %z = stablehlo.constant dense<-2147483648> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}
    : (tensor<4x4xi32>, tensor<i32>) -> tensor<2x2xi32>
  check.expect_eq_const %r, dense<[[5, 8], [9, 2]]> : tensor<2x2xi32>
  func.return
}

// -----

// Padding takes part as the init value: with init 1 and add, each padded
// position adds 1.
func.func @sum_with_padding_counts_init() {
  %x = stablehlo.constant dense<[10, 20, 30]> : tensor<3xi64>
  %z = stablehlo.constant dense<1> : tensor<i64>
  %r = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {window_dimensions = array<i64: 2>, padding = dense<[[1, 1]]> : tensor<1x2xi64>}
    : (tensor<3xi64>, tensor<i64>) -> tensor<4xi64>
  check.expect_eq_const %r, dense<[12, 31, 51, 32]> : tensor<4xi64>
  func.return
}

// -----

// Base dilation inserts holes (init values), window dilation spreads the
// window: input [1, 2, 3] dilated by 2 is [1, h, 2, h, 3]; a window of 2
// with dilation 2 sums positions (p, p + 2).
func.func @dilations() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2>, base_dilations = array<i64: 2>, window_dilations = array<i64: 2>}
    : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %r, dense<[3.0, 0.0, 5.0]> : tensor<3xf32>
  func.return
}

// -----

// Two inputs reduced together (max value and its index).
func.func @variadic_argmax_window() {
  %v = stablehlo.constant dense<[4, 9, 2, 9]> : tensor<4xi32>
  %i = stablehlo.iota dim = 0 : tensor<4xi32>
  %v0 = stablehlo.constant dense<-1> : tensor<i32>
  %i0 = stablehlo.constant dense<-1> : tensor<i32>
  %r:2 = "stablehlo.reduce_window"(%v, %i, %v0, %i0) ({
  ^bb0(%av: tensor<i32>, %ai: tensor<i32>, %bv: tensor<i32>, %bi: tensor<i32>):
    %gt = stablehlo.compare GT, %bv, %av : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %mv = stablehlo.select %gt, %bv, %av : tensor<i1>, tensor<i32>
    %mi = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    stablehlo.return %mv, %mi : tensor<i32>, tensor<i32>
  }) {window_dimensions = array<i64: 3>}
    : (tensor<4xi32>, tensor<4xi32>, tensor<i32>, tensor<i32>) -> (tensor<2xi32>, tensor<2xi32>)
  check.expect_eq_const %r#0, dense<[9, 9]> : tensor<2xi32>
  check.expect_eq_const %r#1, dense<[1, 1]> : tensor<2xi32>
  func.return
}
