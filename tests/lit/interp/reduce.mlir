// RUN: xlac run --split-input-file %s

func.func @reduce_sum_rows_i32() {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %z = stablehlo.constant dense<10> : tensor<i32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1]
    : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const %r, dense<[16, 25]> : tensor<2xi32>
  func.return
}

// -----

// Integer sums wrap; the init value is part of the fold.
func.func @reduce_wraps_i8() {
  %x = stablehlo.constant dense<[100, 100, 100]> : tensor<3xi8>
  %z = stablehlo.constant dense<0> : tensor<i8>
  %r = "stablehlo.reduce"(%x, %z) ({
  ^bb0(%a: tensor<i8>, %b: tensor<i8>):
    %s = stablehlo.add %a, %b : tensor<i8>
    stablehlo.return %s : tensor<i8>
  }) {dimensions = array<i64: 0>} : (tensor<3xi8>, tensor<i8>) -> tensor<i8>
  check.expect_eq_const %r, dense<44> : tensor<i8>
  func.return
}

// -----

// f32 rounding happens after every step: 2^24 + 1 + 1 stays 2^24 when
// folded left to right.
func.func @reduce_f32_sequential_rounding() {
  %x = stablehlo.constant dense<[16777216.0, 1.0, 1.0]> : tensor<3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0]
    : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
  check.expect_eq_const %r, dense<16777216.0> : tensor<f32>
  func.return
}

// -----

func.func @reduce_max_nan_and_zeros() {
  %x = stablehlo.constant dense<[[-0.0, 0.0], [1.0, 0x7FC00000]]> : tensor<2x2xf32>
  %z = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.maximum across dimensions = [1]
    : (tensor<2x2xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_eq_const %r, dense<[0.0, 0x7FC00000]> : tensor<2xf32>
  func.return
}

// -----

func.func @reduce_all_dims_bf16_and_empty() {
  %x = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xbf16>
  %one = stablehlo.constant dense<1.0> : tensor<bf16>
  %p = stablehlo.reduce(%x init: %one) applies stablehlo.multiply across dimensions = [0, 1]
    : (tensor<2x2xbf16>, tensor<bf16>) -> tensor<bf16>
  check.expect_eq_const %p, dense<24.0> : tensor<bf16>
  %e = stablehlo.constant dense<> : tensor<0x3xi64>
  %z = stablehlo.constant dense<-7> : tensor<i64>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [0]
    : (tensor<0x3xi64>, tensor<i64>) -> tensor<3xi64>
  check.expect_eq_const %s, dense<-7> : tensor<3xi64>
  func.return
}

// -----

func.func @reduce_bool_and_or() {
  %x = stablehlo.constant dense<[[true, false], [true, true]]> : tensor<2x2xi1>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %a = stablehlo.reduce(%x init: %t) applies stablehlo.and across dimensions = [1]
    : (tensor<2x2xi1>, tensor<i1>) -> tensor<2xi1>
  check.expect_eq_const %a, dense<[false, true]> : tensor<2xi1>
  %o = stablehlo.reduce(%x init: %f) applies stablehlo.or across dimensions = [0]
    : (tensor<2x2xi1>, tensor<i1>) -> tensor<2xi1>
  check.expect_eq_const %o, dense<[true, true]> : tensor<2xi1>
  func.return
}

// -----

// Variadic argmax: ties keep the lower index (left fold, accumulator first).
func.func @reduce_argmax() {
  %v = stablehlo.constant dense<[3.0, 7.0, 7.0, 1.0]> : tensor<4xf32>
  %i = stablehlo.iota dim = 0 : tensor<4xi32>
  %v0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = "stablehlo.reduce"(%v, %i, %v0, %i0) ({
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = stablehlo.compare GT, %bv, %av : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %mv = stablehlo.select %gt, %bv, %av : tensor<i1>, tensor<f32>
    %mi = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    stablehlo.return %mv, %mi : tensor<f32>, tensor<i32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
  check.expect_eq_const %r#0, dense<7.0> : tensor<f32>
  check.expect_eq_const %r#1, dense<1> : tensor<i32>
  func.return
}

// -----

func.func @reduce_complex_sum() {
  %x = stablehlo.constant dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f64>>
  %z = stablehlo.constant dense<(0.0, 0.0)> : tensor<complex<f64>>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0]
    : (tensor<2xcomplex<f64>>, tensor<complex<f64>>) -> tensor<complex<f64>>
  check.expect_eq_const %r, dense<(4.0, -2.0)> : tensor<complex<f64>>
  func.return
}

// -----

func.func @reduce_unsigned_min() {
  %x = stablehlo.constant dense<[[200, 3], [7, 255]]> : tensor<2x2xui8>
  %z = stablehlo.constant dense<255> : tensor<ui8>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.minimum across dimensions = [0]
    : (tensor<2x2xui8>, tensor<ui8>) -> tensor<2xui8>
  check.expect_eq_const %r, dense<[7, 3]> : tensor<2xui8>
  func.return
}
