// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --verbose %s 2>&1 | FileCheck %s --check-prefix=NATIVE
// chlo.ragged_dot at sizes where the GEMMs are blocked and split over
// threads, checked against the same product spelled out with slices,
// dot_general and concatenate.  Operands are small integers made from iotas,
// so every sum is exact and the two must be equal.

// Mode 1: 300 rows in groups of 70, 0, 150 and 50 (rows 270.. are zero).
func.func @rows_large_f32() {
  %i = stablehlo.iota dim = 0 : tensor<300x64xi32>
  %j = stablehlo.iota dim = 1 : tensor<300x64xi32>
  %two = stablehlo.constant dense<2> : tensor<300x64xi32>
  %seven = stablehlo.constant dense<7> : tensor<300x64xi32>
  %three = stablehlo.constant dense<3> : tensor<300x64xi32>
  %j2 = stablehlo.multiply %j, %two : tensor<300x64xi32>
  %s = stablehlo.add %i, %j2 : tensor<300x64xi32>
  %m = stablehlo.remainder %s, %seven : tensor<300x64xi32>
  %c = stablehlo.subtract %m, %three : tensor<300x64xi32>
  %lhs0 = stablehlo.convert %c : (tensor<300x64xi32>) -> tensor<300x64xf32>
  %g = stablehlo.iota dim = 0 : tensor<4x64x48xi32>
  %k = stablehlo.iota dim = 1 : tensor<4x64x48xi32>
  %n = stablehlo.iota dim = 2 : tensor<4x64x48xi32>
  %five = stablehlo.constant dense<5> : tensor<4x64x48xi32>
  %three3 = stablehlo.constant dense<3> : tensor<4x64x48xi32>
  %two3 = stablehlo.constant dense<2> : tensor<4x64x48xi32>
  %g5 = stablehlo.multiply %g, %five : tensor<4x64x48xi32>
  %k3 = stablehlo.multiply %k, %three3 : tensor<4x64x48xi32>
  %t0 = stablehlo.add %g5, %k3 : tensor<4x64x48xi32>
  %t1 = stablehlo.add %t0, %n : tensor<4x64x48xi32>
  %t2 = stablehlo.remainder %t1, %five : tensor<4x64x48xi32>
  %t3 = stablehlo.subtract %t2, %two3 : tensor<4x64x48xi32>
  %rhs0 = stablehlo.convert %t3 : (tensor<4x64x48xi32>) -> tensor<4x64x48xf32>
  %gs0 = stablehlo.constant dense<[70, 0, 150, 50]> : tensor<4xi32>
  %lhs, %rhs, %gs = stablehlo.optimization_barrier %lhs0, %rhs0, %gs0 : tensor<300x64xf32>, tensor<4x64x48xf32>, tensor<4xi32>
  %d = "chlo.ragged_dot"(%lhs, %rhs, %gs) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<300x64xf32>, tensor<4x64x48xf32>, tensor<4xi32>) -> tensor<300x48xf32>
  %a0 = stablehlo.slice %lhs [0:70, 0:64] : (tensor<300x64xf32>) -> tensor<70x64xf32>
  %a2 = stablehlo.slice %lhs [70:220, 0:64] : (tensor<300x64xf32>) -> tensor<150x64xf32>
  %a3 = stablehlo.slice %lhs [220:270, 0:64] : (tensor<300x64xf32>) -> tensor<50x64xf32>
  %w0s = stablehlo.slice %rhs [0:1, 0:64, 0:48] : (tensor<4x64x48xf32>) -> tensor<1x64x48xf32>
  %w2s = stablehlo.slice %rhs [2:3, 0:64, 0:48] : (tensor<4x64x48xf32>) -> tensor<1x64x48xf32>
  %w3s = stablehlo.slice %rhs [3:4, 0:64, 0:48] : (tensor<4x64x48xf32>) -> tensor<1x64x48xf32>
  %w0 = stablehlo.reshape %w0s : (tensor<1x64x48xf32>) -> tensor<64x48xf32>
  %w2 = stablehlo.reshape %w2s : (tensor<1x64x48xf32>) -> tensor<64x48xf32>
  %w3 = stablehlo.reshape %w3s : (tensor<1x64x48xf32>) -> tensor<64x48xf32>
  %p0 = stablehlo.dot_general %a0, %w0, contracting_dims = [1] x [0] : (tensor<70x64xf32>, tensor<64x48xf32>) -> tensor<70x48xf32>
  %p2 = stablehlo.dot_general %a2, %w2, contracting_dims = [1] x [0] : (tensor<150x64xf32>, tensor<64x48xf32>) -> tensor<150x48xf32>
  %p3 = stablehlo.dot_general %a3, %w3, contracting_dims = [1] x [0] : (tensor<50x64xf32>, tensor<64x48xf32>) -> tensor<50x48xf32>
  %z = stablehlo.constant dense<0.0> : tensor<30x48xf32>
  %want = stablehlo.concatenate %p0, %p2, %p3, %z, dim = 0 : (tensor<70x48xf32>, tensor<150x48xf32>, tensor<50x48xf32>, tensor<30x48xf32>) -> tensor<300x48xf32>
  check.expect_eq %d, %want : tensor<300x48xf32>
  func.return
}

// -----

// The same in bf16 (the runtime's bf16 GEMM, f32 sums), with the rhs stored
// [g, n, k].
func.func @rows_large_bf16_transposed() {
  %i = stablehlo.iota dim = 0 : tensor<300x64xi32>
  %j = stablehlo.iota dim = 1 : tensor<300x64xi32>
  %two = stablehlo.constant dense<2> : tensor<300x64xi32>
  %seven = stablehlo.constant dense<7> : tensor<300x64xi32>
  %three = stablehlo.constant dense<3> : tensor<300x64xi32>
  %j2 = stablehlo.multiply %j, %two : tensor<300x64xi32>
  %s = stablehlo.add %i, %j2 : tensor<300x64xi32>
  %m = stablehlo.remainder %s, %seven : tensor<300x64xi32>
  %c = stablehlo.subtract %m, %three : tensor<300x64xi32>
  %lhs0 = stablehlo.convert %c : (tensor<300x64xi32>) -> tensor<300x64xbf16>
  %g = stablehlo.iota dim = 0 : tensor<3x48x64xi32>
  %n = stablehlo.iota dim = 1 : tensor<3x48x64xi32>
  %k = stablehlo.iota dim = 2 : tensor<3x48x64xi32>
  %five = stablehlo.constant dense<5> : tensor<3x48x64xi32>
  %three3 = stablehlo.constant dense<3> : tensor<3x48x64xi32>
  %two3 = stablehlo.constant dense<2> : tensor<3x48x64xi32>
  %g5 = stablehlo.multiply %g, %five : tensor<3x48x64xi32>
  %k3 = stablehlo.multiply %k, %three3 : tensor<3x48x64xi32>
  %t0 = stablehlo.add %g5, %k3 : tensor<3x48x64xi32>
  %t1 = stablehlo.add %t0, %n : tensor<3x48x64xi32>
  %t2 = stablehlo.remainder %t1, %five : tensor<3x48x64xi32>
  %t3 = stablehlo.subtract %t2, %two3 : tensor<3x48x64xi32>
  %rhs0 = stablehlo.convert %t3 : (tensor<3x48x64xi32>) -> tensor<3x48x64xbf16>
  %gs0 = stablehlo.constant dense<[100, 150, 50]> : tensor<3xi64>
  %lhs, %rhs, %gs = stablehlo.optimization_barrier %lhs0, %rhs0, %gs0 : tensor<300x64xbf16>, tensor<3x48x64xbf16>, tensor<3xi64>
  %d = "chlo.ragged_dot"(%lhs, %rhs, %gs) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [2],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<300x64xbf16>, tensor<3x48x64xbf16>, tensor<3xi64>) -> tensor<300x48xf32>
  %a0 = stablehlo.slice %lhs [0:100, 0:64] : (tensor<300x64xbf16>) -> tensor<100x64xbf16>
  %a1 = stablehlo.slice %lhs [100:250, 0:64] : (tensor<300x64xbf16>) -> tensor<150x64xbf16>
  %a2 = stablehlo.slice %lhs [250:300, 0:64] : (tensor<300x64xbf16>) -> tensor<50x64xbf16>
  %w0s = stablehlo.slice %rhs [0:1, 0:48, 0:64] : (tensor<3x48x64xbf16>) -> tensor<1x48x64xbf16>
  %w1s = stablehlo.slice %rhs [1:2, 0:48, 0:64] : (tensor<3x48x64xbf16>) -> tensor<1x48x64xbf16>
  %w2s = stablehlo.slice %rhs [2:3, 0:48, 0:64] : (tensor<3x48x64xbf16>) -> tensor<1x48x64xbf16>
  %w0 = stablehlo.reshape %w0s : (tensor<1x48x64xbf16>) -> tensor<48x64xbf16>
  %w1 = stablehlo.reshape %w1s : (tensor<1x48x64xbf16>) -> tensor<48x64xbf16>
  %w2 = stablehlo.reshape %w2s : (tensor<1x48x64xbf16>) -> tensor<48x64xbf16>
  %p0 = stablehlo.dot_general %a0, %w0, contracting_dims = [1] x [1] : (tensor<100x64xbf16>, tensor<48x64xbf16>) -> tensor<100x48xf32>
  %p1 = stablehlo.dot_general %a1, %w1, contracting_dims = [1] x [1] : (tensor<150x64xbf16>, tensor<48x64xbf16>) -> tensor<150x48xf32>
  %p2 = stablehlo.dot_general %a2, %w2, contracting_dims = [1] x [1] : (tensor<50x64xbf16>, tensor<48x64xbf16>) -> tensor<50x48xf32>
  %want = stablehlo.concatenate %p0, %p1, %p2, dim = 0 : (tensor<100x48xf32>, tensor<150x48xf32>, tensor<50x48xf32>) -> tensor<300x48xf32>
  check.expect_eq %d, %want : tensor<300x48xf32>
  func.return
}

// -----

// Mode 2: k = 300 in groups of 100, 0, 120 and 50 (k 270.. in no group).
func.func @contract_large_f64() {
  %i = stablehlo.iota dim = 0 : tensor<40x300xi32>
  %j = stablehlo.iota dim = 1 : tensor<40x300xi32>
  %two = stablehlo.constant dense<2> : tensor<40x300xi32>
  %seven = stablehlo.constant dense<7> : tensor<40x300xi32>
  %three = stablehlo.constant dense<3> : tensor<40x300xi32>
  %j2 = stablehlo.multiply %j, %two : tensor<40x300xi32>
  %s = stablehlo.add %i, %j2 : tensor<40x300xi32>
  %m = stablehlo.remainder %s, %seven : tensor<40x300xi32>
  %c = stablehlo.subtract %m, %three : tensor<40x300xi32>
  %lhs0 = stablehlo.convert %c : (tensor<40x300xi32>) -> tensor<40x300xf64>
  %k = stablehlo.iota dim = 0 : tensor<300x48xi32>
  %n = stablehlo.iota dim = 1 : tensor<300x48xi32>
  %five = stablehlo.constant dense<5> : tensor<300x48xi32>
  %two2 = stablehlo.constant dense<2> : tensor<300x48xi32>
  %t0 = stablehlo.add %k, %n : tensor<300x48xi32>
  %t1 = stablehlo.remainder %t0, %five : tensor<300x48xi32>
  %t2 = stablehlo.subtract %t1, %two2 : tensor<300x48xi32>
  %rhs0 = stablehlo.convert %t2 : (tensor<300x48xi32>) -> tensor<300x48xf64>
  %gs0 = stablehlo.constant dense<[100, 0, 120, 50]> : tensor<4xi32>
  %lhs, %rhs, %gs = stablehlo.optimization_barrier %lhs0, %rhs0, %gs0 : tensor<40x300xf64>, tensor<300x48xf64>, tensor<4xi32>
  %d = "chlo.ragged_dot"(%lhs, %rhs, %gs) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = []>
  } : (tensor<40x300xf64>, tensor<300x48xf64>, tensor<4xi32>) -> tensor<4x40x48xf64>
  %a0 = stablehlo.slice %lhs [0:40, 0:100] : (tensor<40x300xf64>) -> tensor<40x100xf64>
  %a2 = stablehlo.slice %lhs [0:40, 100:220] : (tensor<40x300xf64>) -> tensor<40x120xf64>
  %a3 = stablehlo.slice %lhs [0:40, 220:270] : (tensor<40x300xf64>) -> tensor<40x50xf64>
  %b0 = stablehlo.slice %rhs [0:100, 0:48] : (tensor<300x48xf64>) -> tensor<100x48xf64>
  %b2 = stablehlo.slice %rhs [100:220, 0:48] : (tensor<300x48xf64>) -> tensor<120x48xf64>
  %b3 = stablehlo.slice %rhs [220:270, 0:48] : (tensor<300x48xf64>) -> tensor<50x48xf64>
  %p0 = stablehlo.dot_general %a0, %b0, contracting_dims = [1] x [0] : (tensor<40x100xf64>, tensor<100x48xf64>) -> tensor<40x48xf64>
  %p2 = stablehlo.dot_general %a2, %b2, contracting_dims = [1] x [0] : (tensor<40x120xf64>, tensor<120x48xf64>) -> tensor<40x48xf64>
  %p3 = stablehlo.dot_general %a3, %b3, contracting_dims = [1] x [0] : (tensor<40x50xf64>, tensor<50x48xf64>) -> tensor<40x48xf64>
  %q0 = stablehlo.reshape %p0 : (tensor<40x48xf64>) -> tensor<1x40x48xf64>
  %q2 = stablehlo.reshape %p2 : (tensor<40x48xf64>) -> tensor<1x40x48xf64>
  %q3 = stablehlo.reshape %p3 : (tensor<40x48xf64>) -> tensor<1x40x48xf64>
  %z = stablehlo.constant dense<0.0> : tensor<1x40x48xf64>
  %want = stablehlo.concatenate %q0, %z, %q2, %q3, dim = 0 : (tensor<1x40x48xf64>, tensor<1x40x48xf64>, tensor<1x40x48xf64>, tensor<1x40x48xf64>) -> tensor<4x40x48xf64>
  check.expect_eq %d, %want : tensor<4x40x48xf64>
  func.return
}

// NATIVE: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// NATIVE: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// NATIVE: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
