// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --verbose %s 2>&1 | FileCheck %s
// RUN: xlac opt --split-input-file --pipeline=cpu %s | FileCheck %s --check-prefix=OPT
// chlo.scan with several inputs, outputs and carries of different element
// types and shapes, outputs that are body arguments or values from outside
// the body, carries that trade places, a scan without inputs, and the
// generic form.
// OPT-NOT: chlo.scan
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 5 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 3 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 3 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 2 through the interpreter

// Two inputs (4x2 f32 and 4 i32) and three outputs of other types: a
// scaled running product (f32, scaled by a value captured from outside
// the body), the sign test of the integer input (i1) and the integer
// converted to f64.  Carries: the product (2xf32) and a count of
// positive integers seen (i32).
func.func @mixed_types() {
  %x0 = stablehlo.constant dense<[[1.0, 2.0], [3.0, 0.5], [-1.0, 4.0], [2.0, 2.0]]> : tensor<4x2xf32>
  %y0 = stablehlo.constant dense<[5, -3, 0, 7]> : tensor<4xi32>
  %k0 = stablehlo.constant dense<10.0> : tensor<2xf32>
  %x, %y, %k = stablehlo.optimization_barrier %x0, %y0, %k0 : tensor<4x2xf32>, tensor<4xi32>, tensor<2xf32>
  %p0 = stablehlo.constant dense<1.0> : tensor<2xf32>
  %n0 = stablehlo.constant dense<0> : tensor<i32>
  %r:5 = chlo.scan(%x, %y) inits(%p0, %n0) dimension=0 {
  ^bb0(%a: tensor<2xf32>, %b: tensor<i32>, %p: tensor<2xf32>, %n: tensor<i32>):
    %np = stablehlo.multiply %p, %a : tensor<2xf32>
    %scaled = stablehlo.multiply %np, %k : tensor<2xf32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %pos = stablehlo.compare GT, %b, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %inc = stablehlo.select %pos, %one, %zero : tensor<i1>, tensor<i32>
    %nn = stablehlo.add %n, %inc : tensor<i32>
    %wide = stablehlo.convert %b : (tensor<i32>) -> tensor<f64>
    stablehlo.return %scaled, %pos, %wide, %np, %nn : tensor<2xf32>, tensor<i1>, tensor<f64>, tensor<2xf32>, tensor<i32>
  } : (tensor<4x2xf32>, tensor<4xi32>, tensor<2xf32>, tensor<i32>)
      -> (tensor<4x2xf32>, tensor<4xi1>, tensor<4xf64>, tensor<2xf32>, tensor<i32>)
  check.expect_eq_const %r#0, dense<[[10.0, 20.0], [30.0, 10.0], [-30.0, 40.0], [-60.0, 80.0]]> : tensor<4x2xf32>
  check.expect_eq_const %r#1, dense<[true, false, false, true]> : tensor<4xi1>
  check.expect_eq_const %r#2, dense<[5.0, -3.0, 0.0, 7.0]> : tensor<4xf64>
  check.expect_eq_const %r#3, dense<[-6.0, 8.0]> : tensor<2xf32>
  check.expect_eq_const %r#4, dense<2> : tensor<i32>
  func.return
}

// -----

// Fibonacci: the carries (a, b) become (b, a + b), so the loop state is
// permuted every trip.  Outputs: a at each step, the input passed through
// unchanged, and a constant defined outside the body.
func.func @swapped_carries() {
  %x0 = stablehlo.constant dense<[[1, 2, 3, 4, 5, 6, 7, 8]]> : tensor<1x8xui32>
  %x = stablehlo.optimization_barrier %x0 : tensor<1x8xui32>
  %a0 = stablehlo.constant dense<0> : tensor<1xui64>
  %b0 = stablehlo.constant dense<1> : tensor<1xui64>
  %seven = stablehlo.constant dense<7> : tensor<1xi8>
  %r:5 = chlo.scan(%x) inits(%a0, %b0) dimension=1 {
  ^bb0(%in: tensor<1xui32>, %a: tensor<1xui64>, %b: tensor<1xui64>):
    %s = stablehlo.add %a, %b : tensor<1xui64>
    stablehlo.return %a, %in, %seven, %b, %s : tensor<1xui64>, tensor<1xui32>, tensor<1xi8>, tensor<1xui64>, tensor<1xui64>
  } : (tensor<1x8xui32>, tensor<1xui64>, tensor<1xui64>)
      -> (tensor<1x8xui64>, tensor<1x8xui32>, tensor<1x8xi8>, tensor<1xui64>, tensor<1xui64>)
  check.expect_eq_const %r#0, dense<[[0, 1, 1, 2, 3, 5, 8, 13]]> : tensor<1x8xui64>
  check.expect_eq_const %r#1, dense<[[1, 2, 3, 4, 5, 6, 7, 8]]> : tensor<1x8xui32>
  check.expect_eq_const %r#2, dense<7> : tensor<1x8xi8>
  func.return
}

// -----

// No inputs: the length comes from scan_dim_size.  Powers of two as the
// output, the doubled value and an untouched carry as the carries.
func.func @no_inputs() {
  %one = stablehlo.constant dense<1.0> : tensor<f64>
  %keep = stablehlo.constant dense<[-1, 2]> : tensor<2xi16>
  %r:3 = chlo.scan() inits(%one, %keep) dimension=0 attributes {scan_dim_size = 6 : i64} {
  ^bb0(%v: tensor<f64>, %k: tensor<2xi16>):
    %d = stablehlo.add %v, %v : tensor<f64>
    stablehlo.return %v, %d, %k : tensor<f64>, tensor<f64>, tensor<2xi16>
  } : (tensor<f64>, tensor<2xi16>) -> (tensor<6xf64>, tensor<f64>, tensor<2xi16>)
  check.expect_eq_const %r#0, dense<[1.0, 2.0, 4.0, 8.0, 16.0, 32.0]> : tensor<6xf64>
  check.expect_eq_const %r#1, dense<64.0> : tensor<f64>
  check.expect_eq_const %r#2, dense<[-1, 2]> : tensor<2xi16>
  func.return
}

// -----

// The generic form without operandSegmentSizes: inputs are the leading
// operands whose body argument drops the scanned dimension.  is_reverse as
// a unit attribute.
func.func @generic_no_segments() {
  %x0 = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %x = stablehlo.optimization_barrier %x0 : tensor<3x2xi32>
  %c = stablehlo.constant dense<[10, 20]> : tensor<2xi32>
  %r:2 = "chlo.scan"(%x, %c) ({
  ^bb0(%a: tensor<2xi32>, %s: tensor<2xi32>):
    %n = stablehlo.subtract %s, %a : tensor<2xi32>
    stablehlo.return %n, %n : tensor<2xi32>, tensor<2xi32>
  }) {dimension = 0 : i64, is_reverse} : (tensor<3x2xi32>, tensor<2xi32>) -> (tensor<3x2xi32>, tensor<2xi32>)
  check.expect_eq_const %r#0, dense<[[1, 8], [2, 10], [5, 14]]> : tensor<3x2xi32>
  check.expect_eq_const %r#1, dense<[1, 8]> : tensor<2xi32>
  func.return
}
