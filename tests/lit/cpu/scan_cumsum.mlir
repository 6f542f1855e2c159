// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --verbose %s 2>&1 | FileCheck %s
// RUN: xlac opt --split-input-file --pipeline=cpu %s | FileCheck %s --check-prefix=OPT
// Cumulative sums with chlo.scan: the legalize pass turns each scan into a
// while loop of dynamic_slice / dynamic_update_slice, so the compiled
// program runs no op through the interpreter except the checks.
// OPT-NOT: chlo.scan
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 2 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 2 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 3 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 2 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 2 through the interpreter

// f32, one dimension; the output and the carry are the same value.
func.func @cumsum_f32() {
  %x0 = stablehlo.constant dense<[0.5, 1.5, -2.0, 4.0, 8.0, -0.25]> : tensor<6xf32>
  %z0 = stablehlo.constant dense<0.0> : tensor<f32>
  %x, %z = stablehlo.optimization_barrier %x0, %z0 : tensor<6xf32>, tensor<f32>
  %r:2 = chlo.scan(%x) inits(%z) dimension=0 {
  ^bb0(%a: tensor<f32>, %acc: tensor<f32>):
    %s = stablehlo.add %a, %acc : tensor<f32>
    stablehlo.return %s, %s : tensor<f32>, tensor<f32>
  } : (tensor<6xf32>, tensor<f32>) -> (tensor<6xf32>, tensor<f32>)
  check.expect_eq_const %r#0, dense<[0.5, 2.0, 0.0, 4.0, 12.0, 11.75]> : tensor<6xf32>
  check.expect_eq_const %r#1, dense<11.75> : tensor<f32>
  func.return
}

// -----

// i32 along dimension 0 of a matrix: each column is summed separately,
// with a nonzero init.
func.func @cumsum_i32_rows() {
  %x0 = stablehlo.constant dense<[[1, 2, 3, 4], [10, 20, 30, 40], [-5, -5, -5, -5]]> : tensor<3x4xi32>
  %z0 = stablehlo.constant dense<[100, 0, -100, 7]> : tensor<4xi32>
  %x, %z = stablehlo.optimization_barrier %x0, %z0 : tensor<3x4xi32>, tensor<4xi32>
  %r:2 = chlo.scan(%x) inits(%z) dimension=0 {
  ^bb0(%a: tensor<4xi32>, %acc: tensor<4xi32>):
    %s = stablehlo.add %a, %acc : tensor<4xi32>
    stablehlo.return %s, %s : tensor<4xi32>, tensor<4xi32>
  } : (tensor<3x4xi32>, tensor<4xi32>) -> (tensor<3x4xi32>, tensor<4xi32>)
  check.expect_eq_const %r#0, dense<[[101, 2, -97, 11], [111, 22, -67, 51], [106, 17, -72, 46]]> : tensor<3x4xi32>
  check.expect_eq_const %r#1, dense<[106, 17, -72, 46]> : tensor<4xi32>
  func.return
}

// -----

// Narrow types: ui8 sums wrap around, bf16 and f16 sums of small integers
// are exact.
func.func @cumsum_narrow() {
  %u0 = stablehlo.constant dense<[200, 100, 50, 6]> : tensor<4xui8>
  %uz0 = stablehlo.constant dense<0> : tensor<ui8>
  %b0 = stablehlo.constant dense<[[1.0, -2.0], [3.0, 8.0], [0.5, 0.25]]> : tensor<3x2xbf16>
  %bz0 = stablehlo.constant dense<[0.0, 1.0]> : tensor<2xbf16>
  %h0 = stablehlo.constant dense<[[1.0, 2.0, 4.0], [-1.0, 0.5, 16.0]]> : tensor<2x3xf16>
  %hz0 = stablehlo.constant dense<[0.0, 0.0]> : tensor<2xf16>
  %u, %uz, %b, %bz, %h, %hz = stablehlo.optimization_barrier %u0, %uz0, %b0, %bz0, %h0, %hz0 :
      tensor<4xui8>, tensor<ui8>, tensor<3x2xbf16>, tensor<2xbf16>, tensor<2x3xf16>, tensor<2xf16>
  %ru:2 = chlo.scan(%u) inits(%uz) dimension=0 {
  ^bb0(%a: tensor<ui8>, %acc: tensor<ui8>):
    %s = stablehlo.add %a, %acc : tensor<ui8>
    stablehlo.return %s, %s : tensor<ui8>, tensor<ui8>
  } : (tensor<4xui8>, tensor<ui8>) -> (tensor<4xui8>, tensor<ui8>)
  %rb:2 = chlo.scan(%b) inits(%bz) dimension=0 {
  ^bb0(%a: tensor<2xbf16>, %acc: tensor<2xbf16>):
    %s = stablehlo.add %a, %acc : tensor<2xbf16>
    stablehlo.return %s, %s : tensor<2xbf16>, tensor<2xbf16>
  } : (tensor<3x2xbf16>, tensor<2xbf16>) -> (tensor<3x2xbf16>, tensor<2xbf16>)
  %rh:2 = chlo.scan(%h) inits(%hz) dimension=1 {
  ^bb0(%a: tensor<2xf16>, %acc: tensor<2xf16>):
    %s = stablehlo.add %a, %acc : tensor<2xf16>
    stablehlo.return %s, %s : tensor<2xf16>, tensor<2xf16>
  } : (tensor<2x3xf16>, tensor<2xf16>) -> (tensor<2x3xf16>, tensor<2xf16>)
  check.expect_eq_const %ru#0, dense<[200, 44, 94, 100]> : tensor<4xui8>
  check.expect_eq_const %rb#0, dense<[[1.0, -1.0], [4.0, 7.0], [4.5, 7.25]]> : tensor<3x2xbf16>
  check.expect_eq_const %rh#0, dense<[[1.0, 3.0, 7.0], [-1.0, -0.5, 15.5]]> : tensor<2x3xf16>
  func.return
}

// -----

// f64 with the scan as the whole function: parameters in, results out.
func.func @cumsum_f64() {
  %x0 = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [0.125, 0.125, 0.25, 0.5, 1.0]]> : tensor<2x5xf64>
  %z0 = stablehlo.constant dense<0.0> : tensor<2xf64>
  %x, %z = stablehlo.optimization_barrier %x0, %z0 : tensor<2x5xf64>, tensor<2xf64>
  %r:2 = call @cumsum(%x, %z) : (tensor<2x5xf64>, tensor<2xf64>) -> (tensor<2x5xf64>, tensor<2xf64>)
  check.expect_eq_const %r#0, dense<[[1.0, 3.0, 6.0, 10.0, 15.0], [0.125, 0.25, 0.5, 1.0, 2.0]]> : tensor<2x5xf64>
  check.expect_eq_const %r#1, dense<[15.0, 2.0]> : tensor<2xf64>
  func.return
}

func.func private @cumsum(%x: tensor<2x5xf64>, %z: tensor<2xf64>) -> (tensor<2x5xf64>, tensor<2xf64>) {
  %r:2 = chlo.scan(%x) inits(%z) dimension=1 {
  ^bb0(%a: tensor<2xf64>, %acc: tensor<2xf64>):
    %s = stablehlo.add %a, %acc : tensor<2xf64>
    stablehlo.return %s, %s : tensor<2xf64>, tensor<2xf64>
  } : (tensor<2x5xf64>, tensor<2xf64>) -> (tensor<2x5xf64>, tensor<2xf64>)
  func.return %r#0, %r#1 : tensor<2x5xf64>, tensor<2xf64>
}

// -----

// complex<f32> and f8E4M3FN (sums of small values are exact in both).
func.func @cumsum_complex_f8() {
  %c0 = stablehlo.constant dense<[(1.0, 2.0), (-3.0, 0.5), (0.25, -4.0)]> : tensor<3xcomplex<f32>>
  %cz0 = stablehlo.constant dense<(0.0, 1.0)> : tensor<complex<f32>>
  %f0 = stablehlo.constant dense<[[1.0, 2.0, 0.5], [-1.0, 4.0, 0.25]]> : tensor<2x3xf8E4M3FN>
  %fz0 = stablehlo.constant dense<0.0> : tensor<2xf8E4M3FN>
  %c, %cz, %f, %fz = stablehlo.optimization_barrier %c0, %cz0, %f0, %fz0 :
      tensor<3xcomplex<f32>>, tensor<complex<f32>>, tensor<2x3xf8E4M3FN>, tensor<2xf8E4M3FN>
  %rc:2 = chlo.scan(%c) inits(%cz) dimension=0 {
  ^bb0(%a: tensor<complex<f32>>, %acc: tensor<complex<f32>>):
    %s = stablehlo.add %a, %acc : tensor<complex<f32>>
    stablehlo.return %s, %s : tensor<complex<f32>>, tensor<complex<f32>>
  } : (tensor<3xcomplex<f32>>, tensor<complex<f32>>) -> (tensor<3xcomplex<f32>>, tensor<complex<f32>>)
  %rf:2 = chlo.scan(%f) inits(%fz) dimension=1 {
  ^bb0(%a: tensor<2xf8E4M3FN>, %acc: tensor<2xf8E4M3FN>):
    %s = stablehlo.add %a, %acc : tensor<2xf8E4M3FN>
    stablehlo.return %s, %s : tensor<2xf8E4M3FN>, tensor<2xf8E4M3FN>
  } : (tensor<2x3xf8E4M3FN>, tensor<2xf8E4M3FN>) -> (tensor<2x3xf8E4M3FN>, tensor<2xf8E4M3FN>)
  check.expect_eq_const %rc#0, dense<[(1.0, 3.0), (-2.0, 3.5), (-1.75, -0.5)]> : tensor<3xcomplex<f32>>
  check.expect_eq_const %rf#0, dense<[[1.0, 3.0, 3.5], [-1.0, 3.0, 3.25]]> : tensor<2x3xf8E4M3FN>
  func.return
}
