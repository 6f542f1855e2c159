// RUN: xlac run --split-input-file %s

// Max-pool gradient: each source value goes to its window's maximum; with
// ties, select (GE) keeps the first.
func.func @max_pool_grad() {
  %x = stablehlo.constant dense<[[1, 5, 5, 0], [3, 4, 2, 8]]> : tensor<2x4xi32>
  %s = stablehlo.constant dense<[[10, 20]]> : tensor<1x2xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r = "stablehlo.select_and_scatter"(%x, %s, %z) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %sum = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %sum : tensor<i32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}
    : (tensor<2x4xi32>, tensor<1x2xi32>, tensor<i32>) -> tensor<2x4xi32>
  check.expect_eq_const %r, dense<[[0, 10, 0, 0], [0, 0, 0, 20]]> : tensor<2x4xi32>
  func.return
}

// -----

// Overlapping windows with padding: padding is never selected, and two
// windows choosing the same element accumulate.
func.func @overlap_and_padding() {
  %x = stablehlo.constant dense<[1.0, 3.0, 2.0]> : tensor<3xf32>
  %s = stablehlo.constant dense<[1.0, 2.0, 4.0, 8.0]> : tensor<4xf32>
  %z = stablehlo.constant dense<0.5> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %s, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %sum = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 1>,
      padding = dense<[[1, 1]]> : tensor<1x2xi64>}
    : (tensor<3xf32>, tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %r, dense<[1.5, 6.5, 8.5]> : tensor<3xf32>
  func.return
}
