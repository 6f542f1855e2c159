// RUN: xlac run --split-input-file %s

// Stable sort of keys with a payload; equal keys keep their order.
func.func @sort_stable_with_payload() {
  %k = stablehlo.constant dense<[3, 1, 3, 2, 1]> : tensor<5xi32>
  %v = stablehlo.constant dense<[0, 1, 2, 3, 4]> : tensor<5xi32>
  %r:2 = "stablehlo.sort"(%k, %v) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<5xi32>, tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi32>)
  check.expect_eq_const %r#0, dense<[1, 1, 2, 3, 3]> : tensor<5xi32>
  check.expect_eq_const %r#1, dense<[1, 4, 3, 0, 2]> : tensor<5xi32>
  func.return
}

// -----

// Along dimension 0 of a matrix, descending, negative dimension spelling.
func.func @sort_columns_descending() {
  %x = stablehlo.constant dense<[[1, 9], [5, 2], [3, 4]]> : tensor<3x2xui8>
  %r = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
    %gt = stablehlo.compare GT, %a, %b, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = -2 : i64} : (tensor<3x2xui8>) -> tensor<3x2xui8>
  check.expect_eq_const %r, dense<[[5, 9], [3, 4], [1, 2]]> : tensor<3x2xui8>
  func.return
}

// -----

// Total order puts -NaN first, then -inf, -0 before +0, NaN last.
func.func @sort_total_order_f32() {
  %x = stablehlo.constant dense<[0x7FC00000, 0.0, -0.0, 0xFF800000, 1.0, 0xFFC00000]> : tensor<6xf32>
  %r = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<6xf32>) -> tensor<6xf32>
  check.expect_eq_const %r, dense<[0xFFC00000, 0xFF800000, -0.0, 0.0, 1.0, 0x7FC00000]> : tensor<6xf32>
  func.return
}

// -----

// A comparator that uses the second operand to break ties (runs the region).
func.func @sort_lexicographic() {
  %a = stablehlo.constant dense<[2, 1, 2, 1]> : tensor<4xi64>
  %b = stablehlo.constant dense<[1.0, 5.0, 0.5, 4.0]> : tensor<4xf64>
  %r:2 = "stablehlo.sort"(%a, %b) ({
  ^bb0(%a0: tensor<i64>, %a1: tensor<i64>, %b0: tensor<f64>, %b1: tensor<f64>):
    %lt = stablehlo.compare LT, %a0, %a1 : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %a0, %a1 : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %blt = stablehlo.compare LT, %b0, %b1 : (tensor<f64>, tensor<f64>) -> tensor<i1>
    %t = stablehlo.and %eq, %blt : tensor<i1>
    %res = stablehlo.or %lt, %t : tensor<i1>
    stablehlo.return %res : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<4xi64>, tensor<4xf64>) -> (tensor<4xi64>, tensor<4xf64>)
  check.expect_eq_const %r#0, dense<[1, 1, 2, 2]> : tensor<4xi64>
  check.expect_eq_const %r#1, dense<[4.0, 5.0, 0.5, 1.0]> : tensor<4xf64>
  func.return
}

// -----

func.func @sort_empty_and_bf16() {
  %e = stablehlo.constant dense<> : tensor<2x0xf32>
  %r = "stablehlo.sort"(%e) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<2x0xf32>) -> tensor<2x0xf32>
  check.expect_eq_const %r, dense<> : tensor<2x0xf32>
  %h = stablehlo.constant dense<[2.5, -1.0, 0.5]> : tensor<3xbf16>
  %s = "stablehlo.sort"(%h) ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %lt = stablehlo.compare LT, %a, %b : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<3xbf16>) -> tensor<3xbf16>
  check.expect_eq_const %s, dense<[-1.0, 0.5, 2.5]> : tensor<3xbf16>
  func.return
}
