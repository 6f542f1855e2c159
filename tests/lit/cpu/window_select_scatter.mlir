// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --verbose %s 2>&1 | FileCheck %s
// select_and_scatter on the cpu backend: one pass over the source in
// row-major order; each source element goes to the first window position
// the select prefers (padding excluded), added into the result there in
// the interpreter's order, so overlapping windows and ties give identical
// results.  Inputs sit behind an optimization barrier so the op is
// compiled, not folded.

// CHECK-NOT: cpu: 0 ops native
// CHECK-NOT: failed at
// CHECK-NOT: error
// CHECK: {{^}}[[N:[0-9]+]] checks passed, 0 failed

// Max-pool gradient, 2x2 stride 2, with ties: GE keeps the first maximum,
// GT moves to the last.
func.func @maxpool_grad_ties() {
  %x0 = stablehlo.constant dense<[[1.0, 3.0, 2.0, 2.0], [3.0, 0.0, 2.0, 1.0], [0.0, 0.0, 5.0, 4.0], [0.0, 0.0, 5.0, 6.0]]> : tensor<4x4xf32>
  %s0 = stablehlo.constant dense<[[10.0, 20.0], [30.0, 40.0]]> : tensor<2x2xf32>
  %x, %s = stablehlo.optimization_barrier %x0, %s0 : tensor<4x4xf32>, tensor<2x2xf32>
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %ge = "stablehlo.select_and_scatter"(%x, %s, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
  check.expect_eq_const %ge, dense<[[0.0, 10.0, 20.0, 0.0], [0.0, 0.0, 0.0, 0.0], [30.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 40.0]]> : tensor<4x4xf32>
  %gt = "stablehlo.select_and_scatter"(%x, %s, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
  check.expect_eq_const %gt, dense<[[0.0, 0.0, 0.0, 0.0], [10.0, 0.0, 20.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 30.0, 0.0, 40.0]]> : tensor<4x4xf32>
  func.return
}

// -----

// Overlapping windows with padding: several source elements land on one
// position and add up from the init value.
func.func @overlap_padding() {
  %x0 = stablehlo.constant dense<[1, 9, 2, 9, 3]> : tensor<5xi32>
  %s0 = stablehlo.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %x, %s = stablehlo.optimization_barrier %x0, %s0 : tensor<5xi32>, tensor<5xi32>
  %i = stablehlo.constant dense<100> : tensor<i32>
  %r = "stablehlo.select_and_scatter"(%x, %s, %i) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %c = stablehlo.compare GE, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %m = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %m : tensor<i32>
  }) {window_dimensions = array<i64: 3>, padding = dense<[[1, 1]]> : tensor<1x2xi64>} : (tensor<5xi32>, tensor<5xi32>, tensor<i32>) -> tensor<5xi32>
  check.expect_eq_const %r, dense<[100, 106, 100, 109, 100]> : tensor<5xi32>
  func.return
}

// -----

// A window entirely in the padding selects nothing: its source element is
// dropped.
func.func @window_in_padding() {
  %x0 = stablehlo.constant dense<[4, 7]> : tensor<2xi64>
  %s0 = stablehlo.constant dense<[5, 6]> : tensor<2xi64>
  %x, %s = stablehlo.optimization_barrier %x0, %s0 : tensor<2xi64>, tensor<2xi64>
  %i = stablehlo.constant dense<0> : tensor<i64>
  %r = "stablehlo.select_and_scatter"(%x, %s, %i) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %c = stablehlo.compare GE, %a, %b, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %m = stablehlo.add %a, %b : tensor<i64>
      stablehlo.return %m : tensor<i64>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>, padding = dense<[[2, 0]]> : tensor<1x2xi64>} : (tensor<2xi64>, tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  check.expect_eq_const %r, dense<[0, 6]> : tensor<2xi64>
  func.return
}
