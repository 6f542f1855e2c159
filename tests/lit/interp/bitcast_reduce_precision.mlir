// RUN: xlac run --split-input-file %s

// bitcast_convert reinterprets the little-endian bit stream, adding or
// removing a minor dimension when the widths differ; reduce_precision
// rounds the mantissa to nearest even, then overflows to inf or flushes to
// zero by exponent range, keeping NaN a NaN while it has mantissa bits.

func.func @bitcast_same_width() {
  %x = stablehlo.constant dense<[1.0, -0.0]> : tensor<2xf32>
  %r = stablehlo.bitcast_convert %x : (tensor<2xf32>) -> tensor<2xi32>
  check.expect_eq_const %r, dense<[1065353216, -2147483648]> : tensor<2xi32>
  %b = stablehlo.bitcast_convert %r : (tensor<2xi32>) -> tensor<2xf32>
  check.expect_eq_const %b, dense<[1.0, -0.0]> : tensor<2xf32>
  %h = stablehlo.constant dense<[0x3C00]> : tensor<1xf16>
  %hb = stablehlo.bitcast_convert %h : (tensor<1xf16>) -> tensor<1xbf16>
  check.expect_eq_const %hb, dense<[0x3C00]> : tensor<1xbf16>
  func.return
}

// -----

func.func @bitcast_narrower() {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = stablehlo.bitcast_convert %x : (tensor<2xf32>) -> tensor<2x4xui8>
  check.expect_eq_const %r, dense<[[0, 0, 128, 63], [0, 0, 0, 64]]> : tensor<2x4xui8>
  %y = stablehlo.constant dense<81985529216486895> : tensor<i64>
  %s = stablehlo.bitcast_convert %y : (tensor<i64>) -> tensor<4xui16>
  check.expect_eq_const %s, dense<[52719, 35243, 17767, 291]> : tensor<4xui16>
  %p = stablehlo.constant dense<129> : tensor<ui8>
  %bits = stablehlo.bitcast_convert %p : (tensor<ui8>) -> tensor<8xi1>
  check.expect_eq_const %bits, dense<[true, false, false, false, false, false, false, true]> : tensor<8xi1>
  func.return
}

// -----

func.func @bitcast_wider() {
  %x = stablehlo.constant dense<[[0, 16368], [0, 16384]]> : tensor<2x2xui16>
  %r = stablehlo.bitcast_convert %x : (tensor<2x2xui16>) -> tensor<2xf32>
  check.expect_eq_const %r, dense<[1.875, 2.0]> : tensor<2xf32>
  %n = stablehlo.constant dense<[-1, 7]> : tensor<2xi4>
  %b = stablehlo.bitcast_convert %n : (tensor<2xi4>) -> tensor<i8>
  check.expect_eq_const %b, dense<127> : tensor<i8>
  func.return
}

// -----

func.func @bitcast_complex() {
  %c = stablehlo.constant dense<(1.0, -2.0)> : tensor<complex<f64>>
  %r = stablehlo.bitcast_convert %c : (tensor<complex<f64>>) -> tensor<2xcomplex<f32>>
  // the real part's bits (0x3FF0000000000000) fill the first element, the
  // imaginary part's (0xC000000000000000) the second, low word first
  check.expect_eq_const %r, dense<[(0.0, 1.875), (0.0, -2.0)]> : tensor<2xcomplex<f32>>
  %b = stablehlo.bitcast_convert %r : (tensor<2xcomplex<f32>>) -> tensor<complex<f64>>
  check.expect_eq_const %b, dense<(1.0, -2.0)> : tensor<complex<f64>>
  func.return
}

// -----

func.func @reduce_precision_f32_to_half() {
  %x = stablehlo.constant dense<[65520.0, 65519.0, 1.0e-8, 1.00048828125, 1.00146484375, 0x7FC00000, 0xFF800000, 6.1035156e-05]> : tensor<8xf32>
  %r = stablehlo.reduce_precision %x, format = e5m10 : tensor<8xf32>
  check.expect_eq_const %r, dense<[0x7F800000, 65504.0, 0.0, 1.0, 1.001953125, 0x7FC00000, 0xFF800000, 6.1035156e-05]> : tensor<8xf32>
  func.return
}

// -----

func.func @reduce_precision_f64_bf16_like() {
  %x = stablehlo.constant dense<[1.00390625, 1.01171875, -3.0e38, 1.0e39, 0x7FF8000000000000]> : tensor<5xf64>
  %r = stablehlo.reduce_precision %x, format = e8m7 : tensor<5xf64>
  check.expect_eq_const %r, dense<[1.0, 1.015625, -3.00405527047391e38, 0x7FF0000000000000, 0x7FF8000000000000]> : tensor<5xf64>
  %z = stablehlo.reduce_precision %x, format = e8m0 : tensor<5xf64>
  check.expect_eq_const %z, dense<[1.0, 1.0, 0xFFF0000000000000, 0x7FF0000000000000, 0x7FF0000000000000]> : tensor<5xf64>
  func.return
}

// -----

func.func @reduce_precision_bf16_noop() {
  %x = stablehlo.constant dense<[1.5, 0x7FC0]> : tensor<2xbf16>
  %r = stablehlo.reduce_precision %x, format = e8m7 : tensor<2xbf16>
  check.expect_eq_const %r, dense<[1.5, 0x7FC0]> : tensor<2xbf16>
  func.return
}
