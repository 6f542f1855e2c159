// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --verbose %s 2>&1 | FileCheck %s
// RUN: xlac opt --split-input-file --pipeline=cpu %s | FileCheck %s --check-prefix=OPT
// Zero-length scans run the body zero times: the outputs are empty and
// the final carries are the inits, forwards and reversed, with or without
// inputs.  Empty slices (a zero-size dimension other than the scanned one)
// still run the body once per position.
// OPT-NOT: chlo.scan
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 4 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 2 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 3 through the interpreter

func.func @empty_input() {
  %x0 = stablehlo.constant dense<> : tensor<2x0x3xf32>
  %c0 = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %x, %c = stablehlo.optimization_barrier %x0, %c0 : tensor<2x0x3xf32>, tensor<2x3xf32>
  %r:2 = chlo.scan(%x) inits(%c) dimension=1 {
  ^bb0(%a: tensor<2x3xf32>, %s: tensor<2x3xf32>):
    %n = stablehlo.add %a, %s : tensor<2x3xf32>
    stablehlo.return %n, %n : tensor<2x3xf32>, tensor<2x3xf32>
  } : (tensor<2x0x3xf32>, tensor<2x3xf32>) -> (tensor<2x0x3xf32>, tensor<2x3xf32>)
  %q:2 = chlo.scan(%x) inits(%c) dimension=1 attributes {is_reverse = true} {
  ^bb0(%a: tensor<2x3xf32>, %s: tensor<2x3xf32>):
    %n = stablehlo.multiply %a, %s : tensor<2x3xf32>
    stablehlo.return %n, %n : tensor<2x3xf32>, tensor<2x3xf32>
  } : (tensor<2x0x3xf32>, tensor<2x3xf32>) -> (tensor<2x0x3xf32>, tensor<2x3xf32>)
  check.expect_eq_const %r#0, dense<> : tensor<2x0x3xf32>
  check.expect_eq_const %r#1, dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  check.expect_eq_const %q#0, dense<> : tensor<2x0x3xf32>
  check.expect_eq_const %q#1, dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  func.return
}

// -----

// No inputs and scan_dim_size = 0.
func.func @no_inputs_zero() {
  %c = stablehlo.constant dense<[7, 8]> : tensor<2xi32>
  %r:2 = chlo.scan() inits(%c) dimension=0 attributes {scan_dim_size = 0 : i64} {
  ^bb0(%s: tensor<2xi32>):
    %n = stablehlo.add %s, %s : tensor<2xi32>
    stablehlo.return %n, %n : tensor<2xi32>, tensor<2xi32>
  } : (tensor<2xi32>) -> (tensor<0x2xi32>, tensor<2xi32>)
  check.expect_eq_const %r#0, dense<> : tensor<0x2xi32>
  check.expect_eq_const %r#1, dense<[7, 8]> : tensor<2xi32>
  func.return
}

// -----

// Three positions whose slices are empty: the outputs are empty, and a
// step counter carried alongside shows the body ran three times.
func.func @empty_slices() {
  %x0 = stablehlo.constant dense<> : tensor<3x0xi64>
  %x = stablehlo.optimization_barrier %x0 : tensor<3x0xi64>
  %e = stablehlo.constant dense<> : tensor<0xi64>
  %k = stablehlo.constant dense<0> : tensor<i64>
  %r:3 = chlo.scan(%x) inits(%e, %k) dimension=0 {
  ^bb0(%a: tensor<0xi64>, %s: tensor<0xi64>, %n: tensor<i64>):
    %ns = stablehlo.add %a, %s : tensor<0xi64>
    %one = stablehlo.constant dense<1> : tensor<i64>
    %nn = stablehlo.add %n, %one : tensor<i64>
    stablehlo.return %ns, %ns, %nn : tensor<0xi64>, tensor<0xi64>, tensor<i64>
  } : (tensor<3x0xi64>, tensor<0xi64>, tensor<i64>) -> (tensor<3x0xi64>, tensor<0xi64>, tensor<i64>)
  check.expect_eq_const %r#0, dense<> : tensor<3x0xi64>
  check.expect_eq_const %r#1, dense<> : tensor<0xi64>
  check.expect_eq_const %r#2, dense<3> : tensor<i64>
  func.return
}
