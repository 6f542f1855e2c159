// RUN: xlac run --split-input-file %s

// convert: float -> int truncates toward zero and saturates (NaN -> 0);
// int -> int wraps; int/float -> float rounds once to nearest even;
// complex -> real drops the imaginary part; anything -> i1 is "!= 0".

func.func @float_to_int_saturates() {
  %x = stablehlo.constant dense<[300.7, -1.0e10, 0x7FC00000, -3.9, 127.9, 0xFF800000]> : tensor<6xf32>
  %r = stablehlo.convert %x : (tensor<6xf32>) -> tensor<6xi8>
  check.expect_eq_const %r, dense<[127, -128, 0, -3, 127, -128]> : tensor<6xi8>
  %u = stablehlo.convert %x : (tensor<6xf32>) -> tensor<6xui8>
  check.expect_eq_const %u, dense<[255, 0, 0, 0, 127, 0]> : tensor<6xui8>
  %y = stablehlo.constant dense<[1.0e19, -1.0e19, 9.2233720368547758e18]> : tensor<3xf64>
  %s = stablehlo.convert %y : (tensor<3xf64>) -> tensor<3xi64>
  check.expect_eq_const %s, dense<[9223372036854775807, -9223372036854775808, 9223372036854775807]> : tensor<3xi64>
  %v = stablehlo.convert %y : (tensor<3xf64>) -> tensor<3xui64>
  check.expect_eq_const %v, dense<[10000000000000000000, 0, 9223372036854775808]> : tensor<3xui64>
  func.return
}

// -----

func.func @int_to_int_wraps() {
  %x = stablehlo.constant dense<[300, -129, -1]> : tensor<3xi32>
  %r = stablehlo.convert %x : (tensor<3xi32>) -> tensor<3xi8>
  check.expect_eq_const %r, dense<[44, 127, -1]> : tensor<3xi8>
  %u = stablehlo.convert %x : (tensor<3xi32>) -> tensor<3xui16>
  check.expect_eq_const %u, dense<[300, 65407, 65535]> : tensor<3xui16>
  %w = stablehlo.convert %u : (tensor<3xui16>) -> tensor<3xi64>
  check.expect_eq_const %w, dense<[300, 65407, 65535]> : tensor<3xi64>
  %n = stablehlo.convert %x : (tensor<3xi32>) -> tensor<3xi4>
  check.expect_eq_const %n, dense<[-4, -1, -1]> : tensor<3xi4>
  func.return
}

// -----

func.func @int_to_float_rounds_once() {
  // 2^60 + 2^36 + 1 lies just above a tie for f32: it must round up
  %x = stablehlo.constant dense<[1152921573326323713, -3, 16777217]> : tensor<3xi64>
  %r = stablehlo.convert %x : (tensor<3xi64>) -> tensor<3xf32>
  check.expect_eq_const %r, dense<[1.15292164e18, -3.0, 16777216.0]> : tensor<3xf32>
  %y = stablehlo.constant dense<[65519, 65520, 2049]> : tensor<3xi32>
  %h = stablehlo.convert %y : (tensor<3xi32>) -> tensor<3xf16>
  check.expect_eq_const %h, dense<[65504.0, 0x7C00, 2048.0]> : tensor<3xf16>
  %u = stablehlo.constant dense<[18446744073709551615]> : tensor<1xui64>
  %f = stablehlo.convert %u : (tensor<1xui64>) -> tensor<1xf64>
  check.expect_eq_const %f, dense<[1.8446744073709552e19]> : tensor<1xf64>
  func.return
}

// -----

func.func @float_to_float() {
  %x = stablehlo.constant dense<[1.00390625, 1.0e-40, 3.0e38, -0.0, 0x7FF8000000000000]> : tensor<5xf64>
  %b = stablehlo.convert %x : (tensor<5xf64>) -> tensor<5xbf16>
  check.expect_eq_const %b, dense<[1.0, 1.0e-40, 3.0e38, -0.0, 0x7FC0]> : tensor<5xbf16>
  %h = stablehlo.convert %x : (tensor<5xf64>) -> tensor<5xf16>
  check.expect_eq_const %h, dense<[1.00390625, 0.0, 0x7C00, -0.0, 0x7E00]> : tensor<5xf16>
  %f8 = stablehlo.convert %x : (tensor<5xf64>) -> tensor<5xf8E4M3FN>
  check.expect_eq_const %f8, dense<[1.0, 0.0, 0x7F, -0.0, 0x7F]> : tensor<5xf8E4M3FN>
  %back = stablehlo.convert %h : (tensor<5xf16>) -> tensor<5xf32>
  check.expect_eq_const %back, dense<[1.00390625, 0.0, 0x7F800000, -0.0, 0x7FC00000]> : tensor<5xf32>
  func.return
}

// -----

func.func @to_and_from_bool() {
  %x = stablehlo.constant dense<[0x7FC00000, 0.0, -0.0, 0.5]> : tensor<4xf32>
  %p = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %p, dense<[true, false, false, true]> : tensor<4xi1>
  %q = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %f = stablehlo.convert %q : (tensor<2xi1>) -> tensor<2xf16>
  check.expect_eq_const %f, dense<[1.0, 0.0]> : tensor<2xf16>
  %i = stablehlo.convert %q : (tensor<2xi1>) -> tensor<2xi32>
  check.expect_eq_const %i, dense<[1, 0]> : tensor<2xi32>
  %n = stablehlo.constant dense<[-8, 0]> : tensor<2xi4>
  %nb = stablehlo.convert %n : (tensor<2xi4>) -> tensor<2xi1>
  check.expect_eq_const %nb, dense<[true, false]> : tensor<2xi1>
  func.return
}

// -----

func.func @complex_conversions() {
  %c = stablehlo.constant dense<[(2.5, 7.0), (-1.5, 0.0), (0.0, 1.0)]> : tensor<3xcomplex<f64>>
  %r = stablehlo.convert %c : (tensor<3xcomplex<f64>>) -> tensor<3xf64>
  check.expect_eq_const %r, dense<[2.5, -1.5, 0.0]> : tensor<3xf64>
  %i = stablehlo.convert %c : (tensor<3xcomplex<f64>>) -> tensor<3xi32>
  check.expect_eq_const %i, dense<[2, -1, 0]> : tensor<3xi32>
  %s = stablehlo.convert %c : (tensor<3xcomplex<f64>>) -> tensor<3xcomplex<f32>>
  check.expect_eq_const %s, dense<[(2.5, 7.0), (-1.5, 0.0), (0.0, 1.0)]> : tensor<3xcomplex<f32>>
  %f = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %z = stablehlo.convert %f : (tensor<2xf32>) -> tensor<2xcomplex<f64>>
  check.expect_eq_const %z, dense<[(1.5, 0.0), (-2.0, 0.0)]> : tensor<2xcomplex<f64>>
  %k = stablehlo.constant dense<[-3]> : tensor<1xi8>
  %kz = stablehlo.convert %k : (tensor<1xi8>) -> tensor<1xcomplex<f32>>
  check.expect_eq_const %kz, dense<[(-3.0, 0.0)]> : tensor<1xcomplex<f32>>
  func.return
}
