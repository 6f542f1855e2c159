// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --verbose %s 2>&1 | FileCheck %s
// RUN: xlac opt --split-input-file --pipeline=cpu %s | FileCheck %s --check-prefix=OPT
// Running maxima with chlo.scan: two carries (the best value and where it
// was seen) that the body updates together, with an iota as a second
// input.  Compiled natively as a while loop; only the checks go through
// the interpreter.
// OPT-NOT: chlo.scan
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 4 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 3 through the interpreter

// Running max and argmax, ties keeping the first position; the outputs
// are the carries after each step.
func.func @running_argmax_f32() {
  %x0 = stablehlo.constant dense<[2.0, -1.0, 7.0, 7.0, 3.0, 9.0, -20.0]> : tensor<7xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<7xf32>
  %i = stablehlo.iota dim = 0 : tensor<7xi32>
  %v0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %k0 = stablehlo.constant dense<-1> : tensor<i32>
  %r:4 = chlo.scan(%x, %i) inits(%v0, %k0) dimension=0 {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %best: tensor<f32>, %at: tensor<i32>):
    %gt = stablehlo.compare GT, %a, %best : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nb = stablehlo.select %gt, %a, %best : tensor<i1>, tensor<f32>
    %na = stablehlo.select %gt, %ai, %at : tensor<i1>, tensor<i32>
    stablehlo.return %nb, %na, %nb, %na : tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>
  } : (tensor<7xf32>, tensor<7xi32>, tensor<f32>, tensor<i32>) -> (tensor<7xf32>, tensor<7xi32>, tensor<f32>, tensor<i32>)
  check.expect_eq_const %r#0, dense<[2.0, 2.0, 7.0, 7.0, 7.0, 9.0, 9.0]> : tensor<7xf32>
  check.expect_eq_const %r#1, dense<[0, 0, 2, 2, 2, 5, 5]> : tensor<7xi32>
  check.expect_eq_const %r#2, dense<9.0> : tensor<f32>
  check.expect_eq_const %r#3, dense<5> : tensor<i32>
  func.return
}

// -----

// Per row of an i64 matrix along dimension 1: the running max and, as
// the only output, each element's distance below it.  The carries are
// never returned as outputs.
func.func @running_max_gap_i64() {
  %x0 = stablehlo.constant dense<[[3, 1, 4, 1, 5, 9], [-2, -7, -1, -8, 0, -3]]> : tensor<2x6xi64>
  %x = stablehlo.optimization_barrier %x0 : tensor<2x6xi64>
  %m0 = stablehlo.constant dense<-9223372036854775808> : tensor<2xi64>
  %c0 = stablehlo.constant dense<0> : tensor<2xui16>
  %r:3 = chlo.scan(%x) inits(%m0, %c0) dimension=1 {
  ^bb0(%a: tensor<2xi64>, %m: tensor<2xi64>, %c: tensor<2xui16>):
    %nm = stablehlo.maximum %a, %m : tensor<2xi64>
    %gap = stablehlo.subtract %nm, %a : tensor<2xi64>
    %new = stablehlo.compare GT, %a, %m : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi1>
    %one = stablehlo.constant dense<1> : tensor<2xui16>
    %zero = stablehlo.constant dense<0> : tensor<2xui16>
    %inc = stablehlo.select %new, %one, %zero : tensor<2xi1>, tensor<2xui16>
    %nc = stablehlo.add %c, %inc : tensor<2xui16>
    stablehlo.return %gap, %nm, %nc : tensor<2xi64>, tensor<2xi64>, tensor<2xui16>
  } : (tensor<2x6xi64>, tensor<2xi64>, tensor<2xui16>) -> (tensor<2x6xi64>, tensor<2xi64>, tensor<2xui16>)
  check.expect_eq_const %r#0, dense<[[0, 2, 0, 3, 0, 0], [0, 5, 0, 7, 0, 3]]> : tensor<2x6xi64>
  check.expect_eq_const %r#1, dense<[9, 0]> : tensor<2xi64>
  // how many times the maximum grew
  check.expect_eq_const %r#2, dense<[4, 3]> : tensor<2xui16>
  func.return
}
