// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --verbose %s 2>&1 | FileCheck %s
// RUN: xlac opt --split-input-file --pipeline=cpu %s | FileCheck %s --check-prefix=OPT
// Reverse scans (is_reverse): the while loop's position runs down from
// the last index, so outputs land where the interpreter puts them and the
// final carry is the one after position 0.
// OPT-NOT: chlo.scan
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 2 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 2 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 5 through the interpreter

// Suffix sums along dimension 1 of an i64 matrix.
func.func @suffix_sum_i64() {
  %x0 = stablehlo.constant dense<[[1, 2, 3, 4], [10, -20, 30, -40]]> : tensor<2x4xi64>
  %z0 = stablehlo.constant dense<0> : tensor<2xi64>
  %x, %z = stablehlo.optimization_barrier %x0, %z0 : tensor<2x4xi64>, tensor<2xi64>
  %r:2 = chlo.scan(%x) inits(%z) dimension=1 attributes {is_reverse = true} {
  ^bb0(%a: tensor<2xi64>, %acc: tensor<2xi64>):
    %s = stablehlo.add %a, %acc : tensor<2xi64>
    stablehlo.return %s, %s : tensor<2xi64>, tensor<2xi64>
  } : (tensor<2x4xi64>, tensor<2xi64>) -> (tensor<2x4xi64>, tensor<2xi64>)
  check.expect_eq_const %r#0, dense<[[10, 9, 7, 4], [-20, -30, -10, -40]]> : tensor<2x4xi64>
  check.expect_eq_const %r#1, dense<[10, -20]> : tensor<2xi64>
  func.return
}

// -----

// Exclusive reverse running minimum in f32 (the output is the carry
// before the step), along dimension 0.
func.func @suffix_min_exclusive_f32() {
  %x0 = stablehlo.constant dense<[[5.0, -1.0], [2.0, 3.0], [8.0, 0.5], [4.0, 7.0]]> : tensor<4x2xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<4x2xf32>
  %inf = stablehlo.constant dense<0x7F800000> : tensor<2xf32>
  %r:2 = chlo.scan(%x) inits(%inf) dimension=0 attributes {is_reverse = true} {
  ^bb0(%a: tensor<2xf32>, %m: tensor<2xf32>):
    %n = stablehlo.minimum %a, %m : tensor<2xf32>
    stablehlo.return %m, %n : tensor<2xf32>, tensor<2xf32>
  } : (tensor<4x2xf32>, tensor<2xf32>) -> (tensor<4x2xf32>, tensor<2xf32>)
  check.expect_eq_const %r#0, dense<[[2.0, 0.5], [4.0, 0.5], [4.0, 7.0], [0x7F800000, 0x7F800000]]> : tensor<4x2xf32>
  check.expect_eq_const %r#1, dense<[2.0, -1.0]> : tensor<2xf32>
  func.return
}

// -----

// Reverse Horner evaluation of two polynomials (i32 coefficients along
// dimension 0): the carry p becomes p * t + c from the last coefficient
// on.  Three outputs: the position input passed through, the step count
// at each position (showing positions are visited backwards) and the
// carry entering each position.
func.func @reverse_two_inputs() {
  %c0 = stablehlo.constant dense<[[1, 2], [0, -1], [3, 1], [2, 0]]> : tensor<4x2xi32>
  %c = stablehlo.optimization_barrier %c0 : tensor<4x2xi32>
  %pos = stablehlo.iota dim = 0 : tensor<4xi32>
  %p0 = stablehlo.constant dense<0> : tensor<2xi32>
  %n0 = stablehlo.constant dense<0> : tensor<i32>
  %r:5 = chlo.scan(%c, %pos) inits(%p0, %n0) dimension=0 attributes {is_reverse = true} {
  ^bb0(%ci: tensor<2xi32>, %i: tensor<i32>, %p: tensor<2xi32>, %step: tensor<i32>):
    %t = stablehlo.constant dense<[2, 3]> : tensor<2xi32>
    %pt = stablehlo.multiply %p, %t : tensor<2xi32>
    %np = stablehlo.add %pt, %ci : tensor<2xi32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %ns = stablehlo.add %step, %one : tensor<i32>
    stablehlo.return %i, %step, %p, %np, %ns : tensor<i32>, tensor<i32>, tensor<2xi32>, tensor<2xi32>, tensor<i32>
  } : (tensor<4x2xi32>, tensor<4xi32>, tensor<2xi32>, tensor<i32>)
      -> (tensor<4xi32>, tensor<4xi32>, tensor<4x2xi32>, tensor<2xi32>, tensor<i32>)
  check.expect_eq_const %r#0, dense<[0, 1, 2, 3]> : tensor<4xi32>
  check.expect_eq_const %r#1, dense<[3, 2, 1, 0]> : tensor<4xi32>
  check.expect_eq_const %r#2, dense<[[14, 2], [7, 1], [2, 0], [0, 0]]> : tensor<4x2xi32>
  // 1 + 0 t + 3 t^2 + 2 t^3 at t=2 is 29; 2 - t + t^2 at t=3 is 8
  check.expect_eq_const %r#3, dense<[29, 8]> : tensor<2xi32>
  check.expect_eq_const %r#4, dense<4> : tensor<i32>
  func.return
}
