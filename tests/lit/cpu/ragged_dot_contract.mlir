// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --verbose %s 2>&1 | FileCheck %s --check-prefix=NATIVE
// chlo.ragged_dot with the ragged dimension among the contracting
// dimensions (the weight gradient of a mixture-of-experts layer): the
// result has a leading group dimension, and group g sums over its slice of
// the ragged dimension only.  Small integer values: exact on both backends.

// Mode 2 (ragged contracting dimension): each group contracts over its
// own slice of k; an empty group gives zeros.
func.func @contract_f32() {
  %l0 = stablehlo.constant dense<[[-2.0, 0.0, 2.0, 0.0, 2.0, -1.0, 0.0], [3.0, -2.0, 3.0, 0.0, 3.0, 1.0, -2.0], [1.0, 1.0, -2.0, 3.0, -3.0, -3.0, -1.0]]> : tensor<3x7xf32>
  %r0 = stablehlo.constant dense<[[1.0, 0.0], [-3.0, -2.0], [3.0, 3.0], [-2.0, -2.0], [2.0, -3.0], [0.0, 2.0], [3.0, 0.0]]> : tensor<7x2xf32>
  %g0 = stablehlo.constant dense<[2, 0, 5]> : tensor<3xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<3x7xf32>, tensor<7x2xf32>, tensor<3xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = []>
  } : (tensor<3x7xf32>, tensor<7x2xf32>, tensor<3xi32>) -> tensor<3x3x2xf32>
  check.expect_eq_const %d, dense<[[[-2.0, 0.0], [9.0, 4.0], [-2.0, -2.0]], [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]], [[10.0, -2.0], [9.0, 2.0], [-21.0, -9.0]]]> : tensor<3x3x2xf32>
  func.return
}

// -----

// Sizes summing to less than k: the rest of k is in no group.
func.func @contract_short() {
  %l0 = stablehlo.constant dense<[[-2.0, -2.0, -3.0, 1.0, 0.0, -2.0, 2.0], [-3.0, 2.0, 2.0, -1.0, 3.0, -3.0, -2.0], [-1.0, -3.0, -1.0, 1.0, -2.0, 1.0, 2.0]]> : tensor<3x7xf32>
  %r0 = stablehlo.constant dense<[[2.0, 0.0], [2.0, -3.0], [1.0, -3.0], [1.0, -1.0], [-1.0, 0.0], [-2.0, -2.0], [3.0, -3.0]]> : tensor<7x2xf32>
  %g0 = stablehlo.constant dense<[1, 2, -1]> : tensor<3xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<3x7xf32>, tensor<7x2xf32>, tensor<3xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = []>
  } : (tensor<3x7xf32>, tensor<7x2xf32>, tensor<3xi32>) -> tensor<3x3x2xf32>
  check.expect_eq_const %d, dense<[[[-4.0, 0.0], [-6.0, 0.0], [-2.0, 0.0]], [[-7.0, 15.0], [6.0, -12.0], [-7.0, 12.0]], [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]]> : tensor<3x3x2xf32>
  func.return
}

// -----

// Sizes summing to more than k, and an overflowing running sum.
func.func @contract_long() {
  %l0 = stablehlo.constant dense<[[3.0, -1.0, 3.0, -3.0, -3.0, 1.0, -1.0], [0.0, 0.0, 1.0, -1.0, -2.0, 2.0, -2.0], [-1.0, 0.0, -3.0, -2.0, 1.0, 0.0, -3.0]]> : tensor<3x7xf32>
  %r0 = stablehlo.constant dense<[[-3.0, -3.0], [2.0, 0.0], [0.0, -3.0], [1.0, 2.0], [2.0, 0.0], [-1.0, 3.0], [-3.0, -2.0]]> : tensor<7x2xf32>
  %g0 = stablehlo.constant dense<[4, 9223372036854775807, 3, 9223372036854775807]> : tensor<4xi64>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<3x7xf32>, tensor<7x2xf32>, tensor<4xi64>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = []>
  } : (tensor<3x7xf32>, tensor<7x2xf32>, tensor<4xi64>) -> tensor<4x3x2xf32>
  check.expect_eq_const %d, dense<[[[-14.0, -24.0], [-1.0, -5.0], [1.0, 8.0]], [[-4.0, 5.0], [0.0, 10.0], [11.0, 6.0]], [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]]> : tensor<4x3x2xf32>
  func.return
}

// -----

// Contracting dimensions before and after the ragged one ([m, p, r, q]).
func.func @contract_multi() {
  %l0 = stablehlo.constant dense<[[[[2.0, 0.0], [3.0, 1.0], [-2.0, -2.0], [-2.0, -2.0], [-2.0, 2.0]], [[2.0, -3.0], [2.0, 3.0], [-2.0, 3.0], [2.0, -1.0], [2.0, 3.0]], [[-3.0, 0.0], [0.0, 3.0], [2.0, 2.0], [-3.0, -3.0], [1.0, -2.0]]], [[[0.0, 2.0], [3.0, 0.0], [2.0, -1.0], [0.0, -3.0], [2.0, 3.0]], [[-1.0, 3.0], [1.0, -2.0], [2.0, -1.0], [-1.0, -3.0], [1.0, 2.0]], [[-1.0, 2.0], [-3.0, -2.0], [-1.0, -1.0], [2.0, -3.0], [-1.0, -3.0]]]]> : tensor<2x3x5x2xf32>
  %r0 = stablehlo.constant dense<[[[[-2.0, 2.0, 1.0, 3.0], [-2.0, 3.0, 3.0, 0.0]], [[3.0, -1.0, -1.0, 1.0], [2.0, -1.0, -2.0, -3.0]], [[1.0, 0.0, 3.0, -2.0], [2.0, -2.0, -1.0, 0.0]], [[-2.0, 2.0, 1.0, 3.0], [-2.0, 0.0, 1.0, -1.0]], [[1.0, 3.0, -2.0, 1.0], [3.0, -2.0, -3.0, 2.0]]], [[[-2.0, -1.0, -1.0, 2.0], [1.0, 2.0, -2.0, 0.0]], [[-2.0, 3.0, -1.0, 0.0], [-3.0, 0.0, -1.0, 3.0]], [[-1.0, -1.0, 3.0, -2.0], [2.0, 1.0, 3.0, 0.0]], [[-1.0, 3.0, -2.0, -1.0], [-3.0, -3.0, 3.0, 0.0]], [[2.0, -1.0, 0.0, 0.0], [3.0, 3.0, -3.0, -3.0]]], [[[-3.0, -1.0, 2.0, 0.0], [3.0, 0.0, 1.0, 0.0]], [[1.0, 1.0, 0.0, 3.0], [0.0, 3.0, -2.0, -1.0]], [[-1.0, -1.0, -1.0, -2.0], [-1.0, 2.0, -3.0, 3.0]], [[1.0, 2.0, 3.0, -3.0], [-1.0, 1.0, -3.0, 2.0]], [[2.0, 0.0, 0.0, 2.0], [0.0, -1.0, -1.0, 0.0]]]]> : tensor<3x5x2x4xf32>
  %g0 = stablehlo.constant dense<[2, 3]> : tensor<2xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<2x3x5x2xf32>, tensor<3x5x2x4xf32>, tensor<2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1, 2, 3], rhs_contracting_dimensions = [0, 1, 2],
      lhs_ragged_dimensions = [2], rhs_group_dimensions = []>
  } : (tensor<2x3x5x2xf32>, tensor<3x5x2x4xf32>, tensor<2xi32>) -> tensor<2x2x4xf32>
  check.expect_eq_const %d, dense<[[[-4.0, 10.0, -16.0, 16.0], [20.0, 5.0, 3.0, -12.0]], [[26.0, 6.0, -29.0, 2.0], [36.0, 13.0, 3.0, -17.0]]]> : tensor<2x2x4xf32>
  func.return
}

// -----

// f64 with the rhs stored [n, k].
func.func @contract_f64_transposed() {
  %l0 = stablehlo.constant dense<[[0.0, 3.0, 3.0, 3.0, -3.0, -2.0], [3.0, -1.0, 2.0, 0.0, -3.0, 3.0], [3.0, -1.0, -3.0, -1.0, 1.0, 0.0]]> : tensor<3x6xf64>
  %r0 = stablehlo.constant dense<[[-3.0, 1.0, 3.0, -3.0, 1.0, 2.0], [2.0, 3.0, -2.0, 1.0, 3.0, 1.0]]> : tensor<2x6xf64>
  %g0 = stablehlo.constant dense<[4, 2]> : tensor<2xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<3x6xf64>, tensor<2x6xf64>, tensor<2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = []>
  } : (tensor<3x6xf64>, tensor<2x6xf64>, tensor<2xi32>) -> tensor<2x3x2xf64>
  check.expect_eq_const %d, dense<[[[3.0, 6.0], [-4.0, -1.0], [-16.0, 8.0]], [[-7.0, -11.0], [3.0, -6.0], [1.0, 3.0]]]> : tensor<2x3x2xf64>
  func.return
}

// -----

// A batch dimension with per-batch group sizes.
func.func @contract_batch() {
  %l0 = stablehlo.constant dense<[[[2.0, -2.0, 2.0, -2.0, 0.0, 1.0], [1.0, -3.0, -2.0, 3.0, 3.0, 0.0], [-3.0, 2.0, 2.0, 1.0, 1.0, -2.0]], [[2.0, 0.0, -2.0, 2.0, 0.0, 2.0], [3.0, -2.0, 3.0, 2.0, 3.0, -3.0], [2.0, 3.0, -2.0, -2.0, -2.0, -2.0]]]> : tensor<2x3x6xf32>
  %r0 = stablehlo.constant dense<[[[1.0, 0.0], [3.0, 3.0], [0.0, -1.0], [-2.0, 3.0], [1.0, -3.0], [-3.0, 2.0]], [[-1.0, 3.0], [1.0, 1.0], [-3.0, 1.0], [-3.0, 2.0], [-3.0, 0.0], [1.0, 2.0]]]> : tensor<2x6x2xf32>
  %g0 = stablehlo.constant dense<[[3, 3], [6, 0]]> : tensor<2x2xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<2x3x6xf32>, tensor<2x6x2xf32>, tensor<2x2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0],
      lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [2], rhs_group_dimensions = []>
  } : (tensor<2x3x6xf32>, tensor<2x6x2xf32>, tensor<2x2xi32>) -> tensor<2x2x3x2xf32>
  check.expect_eq_const %d, dense<[[[[-4.0, -8.0], [-8.0, -7.0], [3.0, 4.0]], [[0.0, 12.0], [-32.0, 8.0], [17.0, -1.0]]], [[[1.0, -4.0], [-3.0, 0.0], [5.0, -4.0]], [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]]]> : tensor<2x2x3x2xf32>
  func.return
}

// -----

// The lhs stored [k, m]: copied first.
func.func @contract_permuted() {
  %l0 = stablehlo.constant dense<[[2.0, 0.0, 2.0], [-1.0, -1.0, -2.0], [-3.0, -3.0, -1.0], [3.0, 1.0, -1.0], [-1.0, -1.0, 3.0], [3.0, 0.0, -2.0]]> : tensor<6x3xf32>
  %r0 = stablehlo.constant dense<[[-2.0, -2.0], [0.0, 3.0], [-3.0, 2.0], [2.0, 1.0], [2.0, -3.0], [1.0, 3.0]]> : tensor<6x2xf32>
  %g0 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<6x3xf32>, tensor<6x2xf32>, tensor<3xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = []>
  } : (tensor<6x3xf32>, tensor<6x2xf32>, tensor<3xi32>) -> tensor<3x3x2xf32>
  check.expect_eq_const %d, dense<[[[-4.0, -4.0], [0.0, 0.0], [-4.0, -4.0]], [[9.0, -9.0], [9.0, -9.0], [3.0, -8.0]], [[7.0, 15.0], [0.0, 4.0], [2.0, -16.0]]]> : tensor<3x3x2xf32>
  func.return
}

// -----

// i64: exact.
func.func @contract_i64() {
  %l0 = stablehlo.constant dense<[[-769, 520, -733, 117, 223], [458, -636, -537, -729, 306], [-50, 563, -145, -569, -564]]> : tensor<3x5xi64>
  %r0 = stablehlo.constant dense<[[-705, -198], [-667, 724], [956, -732], [241, -616], [-588, -944]]> : tensor<5x2xi64>
  %g0 = stablehlo.constant dense<[3, 2]> : tensor<2xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<3x5xi64>, tensor<5x2xi64>, tensor<2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = []>
  } : (tensor<3x5xi64>, tensor<5x2xi64>, tensor<2xi32>) -> tensor<2x3x2xi64>
  check.expect_eq_const %d, dense<[[[-505443, 1065298], [-412050, -158064], [-478891, 523652]], [[-102927, -282584], [-355617, 160200], [194503, 882920]]]> : tensor<2x3x2xi64>
  func.return
}

// -----

// bf16 operands, f32 result.
func.func @contract_bf16() {
  %l0 = stablehlo.constant dense<[[1.0, -3.0, -1.0, 1.0, 3.0, 1.0], [-1.0, -3.0, 1.0, -1.0, 0.0, 0.0], [-3.0, -3.0, -3.0, 3.0, 0.0, 2.0], [-2.0, 3.0, -1.0, -3.0, 0.0, -1.0]]> : tensor<4x6xbf16>
  %r0 = stablehlo.constant dense<[[1.0, 1.0, 0.0], [3.0, 2.0, -2.0], [0.0, -2.0, -2.0], [0.0, 3.0, 0.0], [2.0, 3.0, 2.0], [1.0, 1.0, -2.0]]> : tensor<6x3xbf16>
  %g0 = stablehlo.constant dense<[2, 2, 2]> : tensor<3xi32>
  %l, %r, %g = stablehlo.optimization_barrier %l0, %r0, %g0 : tensor<4x6xbf16>, tensor<6x3xbf16>, tensor<3xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = []>
  } : (tensor<4x6xbf16>, tensor<6x3xbf16>, tensor<3xi32>) -> tensor<3x4x3xf32>
  check.expect_eq_const %d, dense<[[[-8.0, -5.0, 6.0], [-10.0, -7.0, 6.0], [-12.0, -9.0, 6.0], [7.0, 4.0, -6.0]], [[0.0, 5.0, 2.0], [0.0, -5.0, -2.0], [0.0, 15.0, 6.0], [0.0, -7.0, 2.0]], [[7.0, 10.0, 4.0], [0.0, 0.0, 0.0], [2.0, 2.0, -4.0], [-1.0, -1.0, 2.0]]]> : tensor<3x4x3xf32>
  func.return
}

// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
// NATIVE: cpu: 1 ops native (0 fusions), 1 through the interpreter
