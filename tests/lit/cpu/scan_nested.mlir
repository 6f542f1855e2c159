// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --verbose %s 2>&1 | FileCheck %s
// RUN: xlac opt --split-input-file --pipeline=cpu %s | FileCheck %s --check-prefix=OPT
// Scans whose bodies hold more than elementwise ops: a scan inside a scan
// (the inner one is rewritten first, then cloned into the outer loop), a
// function call (inlined inside the loop later) next to a chlo op, and a
// scan inside a while loop's body.
// OPT-NOT: chlo.scan
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 2 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter

// Rows of a 3x4 matrix: the inner scan takes each row's prefix sums, the
// outer one adds them up row after row (a 2-D inclusive prefix sum).
func.func @nested() {
  %x0 = stablehlo.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [1, 1, 1, 1]]> : tensor<3x4xi32>
  %x = stablehlo.optimization_barrier %x0 : tensor<3x4xi32>
  %z = stablehlo.constant dense<0> : tensor<4xi32>
  %r:2 = chlo.scan(%x) inits(%z) dimension=0 {
  ^bb0(%row: tensor<4xi32>, %acc: tensor<4xi32>):
    %e = stablehlo.constant dense<0> : tensor<i32>
    %p:2 = chlo.scan(%row) inits(%e) dimension=0 {
    ^bb0(%v: tensor<i32>, %s: tensor<i32>):
      %n = stablehlo.add %v, %s : tensor<i32>
      stablehlo.return %n, %n : tensor<i32>, tensor<i32>
    } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
    %t = stablehlo.add %acc, %p#0 : tensor<4xi32>
    stablehlo.return %t, %t : tensor<4xi32>, tensor<4xi32>
  } : (tensor<3x4xi32>, tensor<4xi32>) -> (tensor<3x4xi32>, tensor<4xi32>)
  check.expect_eq_const %r#0, dense<[[1, 3, 6, 10], [6, 14, 24, 36], [7, 16, 27, 40]]> : tensor<3x4xi32>
  check.expect_eq_const %r#1, dense<[7, 16, 27, 40]> : tensor<4xi32>
  func.return
}

// -----

// The body calls a function and uses chlo.erf: the running sum of
// erf(2 x) over x = [0, 0.5, -0.5, 100], that is [0, erf(1), 0, 1].
func.func @call_and_chlo() {
  %x0 = stablehlo.constant dense<[0.0, 0.5, -0.5, 100.0]> : tensor<4xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r:2 = chlo.scan(%x) inits(%z) dimension=0 {
  ^bb0(%a: tensor<f32>, %s: tensor<f32>):
    %d = func.call @twice(%a) : (tensor<f32>) -> tensor<f32>
    %e = chlo.erf %d : tensor<f32> -> tensor<f32>
    %n = stablehlo.add %s, %e : tensor<f32>
    stablehlo.return %n, %n : tensor<f32>, tensor<f32>
  } : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)
  check.expect_almost_eq_const %r#0, dense<[0.0, 0.842700779, 0.0, 1.0]> : tensor<4xf32> {tolerance = 1.0e-6 : f64}
  func.return
}

func.func private @twice(%a: tensor<f32>) -> tensor<f32> {
  %d = stablehlo.add %a, %a : tensor<f32>
  func.return %d : tensor<f32>
}

// -----

// A scan in a while loop's body: three trips, each replacing v by its
// prefix sums.
func.func @in_while() {
  %v0 = stablehlo.constant dense<[1, 1, 1, 1]> : tensor<4xi64>
  %i0 = stablehlo.constant dense<0> : tensor<i64>
  %w:2 = stablehlo.while(%i = %i0, %v = %v0) : tensor<i64>, tensor<4xi64>
  cond {
    %three = stablehlo.constant dense<3> : tensor<i64>
    %c = stablehlo.compare LT, %i, %three : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i64>
    %p:2 = chlo.scan(%v) inits(%z) dimension=0 {
    ^bb0(%a: tensor<i64>, %s: tensor<i64>):
      %n = stablehlo.add %a, %s : tensor<i64>
      stablehlo.return %n, %n : tensor<i64>, tensor<i64>
    } : (tensor<4xi64>, tensor<i64>) -> (tensor<4xi64>, tensor<i64>)
    %one = stablehlo.constant dense<1> : tensor<i64>
    %ni = stablehlo.add %i, %one : tensor<i64>
    stablehlo.return %ni, %p#0 : tensor<i64>, tensor<4xi64>
  }
  check.expect_eq_const %w#1, dense<[1, 4, 10, 20]> : tensor<4xi64>
  func.return
}
