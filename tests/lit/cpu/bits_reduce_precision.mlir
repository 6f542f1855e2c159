// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --verbose %s 2>&1 | FileCheck %s
// stablehlo.reduce_precision, bit for bit: round to nearest even (ties both
// ways, carries into the exponent), overflow to inf, values below the
// narrow format's smallest normal flushed to a signed zero, NaN kept (and
// turned into inf when no mantissa bits remain, the interpreter's
// convention), the source's own subnormals, formats wider than the type.
// Expected values from an independent value-based rounding.

func.func @rp_f32_e5m10() {
  %x0 = stablehlo.constant dense<[1.0, -1.0, 0.100000001, -0.100000001, 0.333333343, 65504.0, 65519.0, 65520.0, 100000.0, -100000.0, 6.10351562e-05, 5.99999985e-05, -2.99999989e-08, 1.00048828, 1.00146484, 1.00048923, 6.10649586e-05, 0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 3.00000001e+38, 9.9999461e-41, -9.80908925e-45]> : tensor<25xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<25xf32>
  %r = stablehlo.reduce_precision %x, format = e5m10 : tensor<25xf32>
  check.expect_eq_const %r, dense<[1.0, -1.0, 0.0999755859, -0.0999755859, 0.333251953, 65504.0, 65504.0, 0x7F800000, 0x7F800000, 0xFF800000, 6.10351562e-05, 0.0, -0.0, 1.0, 1.00195312, 1.00097656, 6.10351562e-05, 0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800000, 0.0, -0.0]> : tensor<25xf32>
  func.return
}

// -----

func.func @rp_f32_e8m7() {
  %x0 = stablehlo.constant dense<[1.0, -1.0, 0.100000001, -0.100000001, 0.333333343, 65504.0, 65519.0, 65520.0, 100000.0, -100000.0, 6.10351562e-05, 5.99999985e-05, -2.99999989e-08, 1.00048828, 1.00146484, 1.00048923, 6.10649586e-05, 0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 3.00000001e+38, 9.9999461e-41, -9.80908925e-45, 3.39610005e+38, 3.39999995e+38, 1.00390625, 1.01171875]> : tensor<29xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<29xf32>
  %r = stablehlo.reduce_precision %x, format = e8m7 : tensor<29xf32>
  check.expect_eq_const %r, dense<[1.0, -1.0, 0.100097656, -0.100097656, 0.333984375, 65536.0, 65536.0, 65536.0, 99840.0, -99840.0, 6.10351562e-05, 6.00814819e-05, -3.0035153e-08, 1.0, 1.0, 1.0, 6.10351562e-05, 0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 3.00405527e+38, 9.18354962e-41, -0.0, 3.38953139e+38, 0x7F800000, 1.0, 1.015625]> : tensor<29xf32>
  func.return
}

// -----

func.func @rp_f32_e8m0() {
  %x0 = stablehlo.constant dense<[1.0, -1.0, 0.100000001, -0.100000001, 0.333333343, 65504.0, 65519.0, 65520.0, 100000.0, -100000.0, 6.10351562e-05, 5.99999985e-05, -2.99999989e-08, 1.00048828, 1.00146484, 1.00048923, 6.10649586e-05, 0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 3.00000001e+38, 9.9999461e-41, -9.80908925e-45, 1.5, 2.5, 3.5, 0.75]> : tensor<29xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<29xf32>
  %r = stablehlo.reduce_precision %x, format = e8m0 : tensor<29xf32>
  check.expect_eq_const %r, dense<[1.0, -1.0, 0.125, -0.125, 0.25, 65536.0, 65536.0, 65536.0, 131072.0, -131072.0, 6.10351562e-05, 6.10351562e-05, -2.98023224e-08, 1.0, 1.0, 1.0, 6.10351562e-05, 0.0, -0.0, 0x7F800000, 0xFF800000, 0x7F800000, 0x7F800000, 0.0, -0.0, 2.0, 2.0, 4.0, 0.5]> : tensor<29xf32>
  func.return
}

// -----

func.func @rp_f32_e2m1() {
  %x0 = stablehlo.constant dense<[1.0, -1.0, 0.100000001, -0.100000001, 0.333333343, 65504.0, 65519.0, 65520.0, 100000.0, -100000.0, 6.10351562e-05, 5.99999985e-05, -2.99999989e-08, 1.00048828, 1.00146484, 1.00048923, 6.10649586e-05, 0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 3.00000001e+38, 9.9999461e-41, -9.80908925e-45, 1.5, 1.75, 2.0, 3.0, 3.5, 4.0, 0.899999976]> : tensor<32xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<32xf32>
  %r = stablehlo.reduce_precision %x, format = e2m1 : tensor<32xf32>
  check.expect_eq_const %r, dense<[1.0, -1.0, 0.0, -0.0, 0.0, 0x7F800000, 0x7F800000, 0x7F800000, 0x7F800000, 0xFF800000, 0.0, 0.0, -0.0, 1.0, 1.0, 1.0, 0.0, 0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800000, 0.0, -0.0, 1.5, 2.0, 2.0, 3.0, 0x7F800000, 0x7F800000, 1.0]> : tensor<32xf32>
  func.return
}

// -----

func.func @rp_f32_e8m23() {
  %x0 = stablehlo.constant dense<[1.0, -1.0, 0.100000001, -0.100000001, 0.333333343, 65504.0, 65519.0, 65520.0, 100000.0, -100000.0, 6.10351562e-05, 5.99999985e-05, -2.99999989e-08, 1.00048828, 1.00146484, 1.00048923, 6.10649586e-05, 0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 3.00000001e+38, 9.9999461e-41, -9.80908925e-45]> : tensor<25xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<25xf32>
  %r = stablehlo.reduce_precision %x, format = e8m23 : tensor<25xf32>
  check.expect_eq_const %r, dense<[1.0, -1.0, 0.100000001, -0.100000001, 0.333333343, 65504.0, 65519.0, 65520.0, 100000.0, -100000.0, 6.10351562e-05, 5.99999985e-05, -2.99999989e-08, 1.00048828, 1.00146484, 1.00048923, 6.10649586e-05, 0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 3.00000001e+38, 9.9999461e-41, -9.80908925e-45]> : tensor<25xf32>
  func.return
}

// -----

func.func @rp_f32_e30m60() {
  %x0 = stablehlo.constant dense<[1.0, -1.0, 0.100000001, -0.100000001, 0.333333343, 65504.0, 65519.0, 65520.0, 100000.0, -100000.0, 6.10351562e-05, 5.99999985e-05, -2.99999989e-08, 1.00048828, 1.00146484, 1.00048923, 6.10649586e-05, 0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 3.00000001e+38, 9.9999461e-41, -9.80908925e-45]> : tensor<25xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<25xf32>
  %r = stablehlo.reduce_precision %x, format = e30m60 : tensor<25xf32>
  check.expect_eq_const %r, dense<[1.0, -1.0, 0.100000001, -0.100000001, 0.333333343, 65504.0, 65519.0, 65520.0, 100000.0, -100000.0, 6.10351562e-05, 5.99999985e-05, -2.99999989e-08, 1.00048828, 1.00146484, 1.00048923, 6.10649586e-05, 0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 3.00000001e+38, 9.9999461e-41, -9.80908925e-45]> : tensor<25xf32>
  func.return
}

// -----

func.func @rp_f64_e11m23() {
  %x0 = stablehlo.constant dense<[1.0, -1.0, 0.10000000000000001, -0.10000000000000001, 0.33333333333333331, 65504.0, 65519.0, 65520.0, 100000.0, -100000.0, 6.103515625e-05, 6.0000000000000002e-05, -2.9999999999999997e-08, 1.00048828125, 1.00146484375, 1.0004892349243164, 6.1064958572387695e-05, 0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 3.0000000000000001e+38, 9.9999999999999993e-41, -9.9999999999999995e-45, 1.0000000000000001e+300, -1e-300, 3.3376107877608021e-308, 4.9406564584124654e-324, 1.0000000000009095, 1.0000000596055543, 1.0000000596046448]> : tensor<32xf64>
  %x = stablehlo.optimization_barrier %x0 : tensor<32xf64>
  %r = stablehlo.reduce_precision %x, format = e11m23 : tensor<32xf64>
  check.expect_eq_const %r, dense<[1.0, -1.0, 0.10000000149011612, -0.10000000149011612, 0.3333333432674408, 65504.0, 65519.0, 65520.0, 100000.0, -100000.0, 6.103515625e-05, 5.999999848427251e-05, -2.9999998929497451e-08, 1.00048828125, 1.00146484375, 1.0004892349243164, 6.1064958572387695e-05, 0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 3.0000000054977558e+38, 9.999999744571597e-41, -1.0000000156177362e-44, 9.9999998003711985e+299, -9.9999999173256235e-301, 3.3376107877608021e-308, 0.0, 1.0, 1.0000001192092896, 1.0]> : tensor<32xf64>
  func.return
}

// -----

func.func @rp_f64_e8m23() {
  %x0 = stablehlo.constant dense<[1.0, -1.0, 0.10000000000000001, -0.10000000000000001, 0.33333333333333331, 65504.0, 65519.0, 65520.0, 100000.0, -100000.0, 6.103515625e-05, 6.0000000000000002e-05, -2.9999999999999997e-08, 1.00048828125, 1.00146484375, 1.0004892349243164, 6.1064958572387695e-05, 0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 3.0000000000000001e+38, 9.9999999999999993e-41, -9.9999999999999995e-45, 1.0000000000000001e+300, -1e-300, 3.3376107877608021e-308, 4.9406564584124654e-324, 1.0000000000009095, 1.0000000596055543, 1.0000000596046448]> : tensor<32xf64>
  %x = stablehlo.optimization_barrier %x0 : tensor<32xf64>
  %r = stablehlo.reduce_precision %x, format = e8m23 : tensor<32xf64>
  check.expect_eq_const %r, dense<[1.0, -1.0, 0.10000000149011612, -0.10000000149011612, 0.3333333432674408, 65504.0, 65519.0, 65520.0, 100000.0, -100000.0, 6.103515625e-05, 5.999999848427251e-05, -2.9999998929497451e-08, 1.00048828125, 1.00146484375, 1.0004892349243164, 6.1064958572387695e-05, 0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 3.0000000054977558e+38, 0.0, -0.0, 0x7FF0000000000000, -0.0, 0.0, 0.0, 1.0, 1.0000001192092896, 1.0]> : tensor<32xf64>
  func.return
}

// -----

func.func @rp_f64_e5m2() {
  %x0 = stablehlo.constant dense<[1.0, -1.0, 0.10000000000000001, -0.10000000000000001, 0.33333333333333331, 65504.0, 65519.0, 65520.0, 100000.0, -100000.0, 6.103515625e-05, 6.0000000000000002e-05, -2.9999999999999997e-08, 1.00048828125, 1.00146484375, 1.0004892349243164, 6.1064958572387695e-05, 0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 3.0000000000000001e+38, 9.9999999999999993e-41, -9.9999999999999995e-45, 1.0000000000000001e+300, -1e-300, 3.3376107877608021e-308, 4.9406564584124654e-324, 1.0000000000009095, 1.0000000596055543, 1.0000000596046448]> : tensor<32xf64>
  %x = stablehlo.optimization_barrier %x0 : tensor<32xf64>
  %r = stablehlo.reduce_precision %x, format = e5m2 : tensor<32xf64>
  check.expect_eq_const %r, dense<[1.0, -1.0, 0.09375, -0.09375, 0.3125, 0x7FF0000000000000, 0x7FF0000000000000, 0x7FF0000000000000, 0x7FF0000000000000, 0xFFF0000000000000, 6.103515625e-05, 6.103515625e-05, -0.0, 1.0, 1.0, 1.0, 6.103515625e-05, 0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0x7FF0000000000000, 0.0, -0.0, 0x7FF0000000000000, -0.0, 0.0, 0.0, 1.0, 1.0, 1.0]> : tensor<32xf64>
  func.return
}

// -----

func.func @rp_f64_e11m0() {
  %x0 = stablehlo.constant dense<[1.0, -1.0, 0.10000000000000001, -0.10000000000000001, 0.33333333333333331, 65504.0, 65519.0, 65520.0, 100000.0, -100000.0, 6.103515625e-05, 6.0000000000000002e-05, -2.9999999999999997e-08, 1.00048828125, 1.00146484375, 1.0004892349243164, 6.1064958572387695e-05, 0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 3.0000000000000001e+38, 9.9999999999999993e-41, -9.9999999999999995e-45, 1.0000000000000001e+300, -1e-300, 3.3376107877608021e-308, 4.9406564584124654e-324, 1.0000000000009095, 1.0000000596055543, 1.0000000596046448]> : tensor<32xf64>
  %x = stablehlo.optimization_barrier %x0 : tensor<32xf64>
  %r = stablehlo.reduce_precision %x, format = e11m0 : tensor<32xf64>
  check.expect_eq_const %r, dense<[1.0, -1.0, 0.125, -0.125, 0.25, 65536.0, 65536.0, 65536.0, 131072.0, -131072.0, 6.103515625e-05, 6.103515625e-05, -2.9802322387695312e-08, 1.0, 1.0, 1.0, 6.103515625e-05, 0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF0000000000000, 3.4028236692093846e+38, 9.1835496157991212e-41, -1.1210387714598537e-44, 6.6969287949141708e+299, -7.466108948025751e-301, 4.4501477170144028e-308, 0.0, 1.0, 1.0, 1.0]> : tensor<32xf64>
  func.return
}

// -----

func.func @rp_f16_e5m3() {
  %x0 = stablehlo.constant dense<[1.0, -1.0, 0.0999755859, 0.333251953, 65504.0, 6.09755516e-05, 1.78813934e-07, 5.96046448e-08, -2.98023224e-07, 0.000115990639, 1000.0, 0x7C00, 0xFC00, 0x7E00, 0.0, -0.0, 1.0625, 1.1875]> : tensor<18xf16>
  %x = stablehlo.optimization_barrier %x0 : tensor<18xf16>
  %r = stablehlo.reduce_precision %x, format = e5m3 : tensor<18xf16>
  check.expect_eq_const %r, dense<[1.0, -1.0, 0.1015625, 0.34375, 0x7C00, 6.10351562e-05, 0.0, 0.0, -0.0, 0.000114440918, 1024.0, 0x7C00, 0xFC00, 0x7E00, 0.0, -0.0, 1.0, 1.25]> : tensor<18xf16>
  func.return
}

// -----

func.func @rp_f16_e4m3() {
  %x0 = stablehlo.constant dense<[1.0, -1.0, 0.0999755859, 0.333251953, 65504.0, 6.09755516e-05, 1.78813934e-07, 5.96046448e-08, -2.98023224e-07, 0.000115990639, 1000.0, 0x7C00, 0xFC00, 0x7E00, 0.0, -0.0, 1.0625, 1.1875]> : tensor<18xf16>
  %x = stablehlo.optimization_barrier %x0 : tensor<18xf16>
  %r = stablehlo.reduce_precision %x, format = e4m3 : tensor<18xf16>
  check.expect_eq_const %r, dense<[1.0, -1.0, 0.1015625, 0.34375, 0x7C00, 0.0, 0.0, 0.0, -0.0, 0.0, 0x7C00, 0x7C00, 0xFC00, 0x7E00, 0.0, -0.0, 1.0, 1.25]> : tensor<18xf16>
  func.return
}

// -----

func.func @rp_f16_e8m23() {
  %x0 = stablehlo.constant dense<[1.0, -1.0, 0.0999755859, 0.333251953, 65504.0, 6.09755516e-05, 1.78813934e-07, 5.96046448e-08, -2.98023224e-07, 0.000115990639, 1000.0, 0x7C00, 0xFC00, 0x7E00, 0.0, -0.0, 1.0625, 1.1875]> : tensor<18xf16>
  %x = stablehlo.optimization_barrier %x0 : tensor<18xf16>
  %r = stablehlo.reduce_precision %x, format = e8m23 : tensor<18xf16>
  check.expect_eq_const %r, dense<[1.0, -1.0, 0.0999755859, 0.333251953, 65504.0, 6.09755516e-05, 1.78813934e-07, 5.96046448e-08, -2.98023224e-07, 0.000115990639, 1000.0, 0x7C00, 0xFC00, 0x7E00, 0.0, -0.0, 1.0625, 1.1875]> : tensor<18xf16>
  func.return
}

// -----

func.func @rp_bf16_e5m4() {
  %x0 = stablehlo.constant dense<[1.0, -1.0, 0.100097656, -0.100097656, 0.333984375, 65536.0, 65536.0, 65536.0, 99840.0, -99840.0, 6.10351562e-05, 6.00814819e-05, -3.0035153e-08, 1.0, 1.0, 1.0, 6.10351562e-05, 0.0, -0.0, 0x7F80, 0xFF80, 0x7FC0, 3.00405527e+38, 9.18354962e-41, -0.0]> : tensor<25xbf16>
  %x = stablehlo.optimization_barrier %x0 : tensor<25xbf16>
  %r = stablehlo.reduce_precision %x, format = e5m4 : tensor<25xbf16>
  check.expect_eq_const %r, dense<[1.0, -1.0, 0.1015625, -0.1015625, 0.328125, 0x7F80, 0x7F80, 0x7F80, 0x7F80, 0xFF80, 6.10351562e-05, 6.10351562e-05, -0.0, 1.0, 1.0, 1.0, 6.10351562e-05, 0.0, -0.0, 0x7F80, 0xFF80, 0x7FC0, 0x7F80, 0.0, -0.0]> : tensor<25xbf16>
  func.return
}

// -----

func.func @rp_bf16_e8m3() {
  %x0 = stablehlo.constant dense<[1.0, -1.0, 0.100097656, -0.100097656, 0.333984375, 65536.0, 65536.0, 65536.0, 99840.0, -99840.0, 6.10351562e-05, 6.00814819e-05, -3.0035153e-08, 1.0, 1.0, 1.0, 6.10351562e-05, 0.0, -0.0, 0x7F80, 0xFF80, 0x7FC0, 3.00405527e+38, 9.18354962e-41, -0.0, 1.01019046e-39, -2.02038092e-39]> : tensor<27xbf16>
  %x = stablehlo.optimization_barrier %x0 : tensor<27xbf16>
  %r = stablehlo.reduce_precision %x, format = e8m3 : tensor<27xbf16>
  check.expect_eq_const %r, dense<[1.0, -1.0, 0.1015625, -0.1015625, 0.34375, 65536.0, 65536.0, 65536.0, 98304.0, -98304.0, 6.10351562e-05, 6.10351562e-05, -2.98023224e-08, 1.0, 1.0, 1.0, 6.10351562e-05, 0.0, -0.0, 0x7F80, 0xFF80, 0x7FC0, 2.97747071e+38, 0.0, -0.0, 1.46936794e-39, -1.46936794e-39]> : tensor<27xbf16>
  func.return
}

// -----

// Fused: the rounding of x * 3.3 to f16's precision and range.
func.func @rp_fused() {
  %x0 = stablehlo.constant dense<[-100.0, -87.5, -75.0, -62.5, -50.0, -37.5, -25.0, -12.5, 0.0, 12.5, 25.0, 37.5, 50.0, 62.5, 75.0, 87.5, 100.0]> : tensor<17xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<17xf32>
  %c = stablehlo.constant dense<3.3> : tensor<17xf32>
  %y = stablehlo.multiply %x, %c : tensor<17xf32>
  %r = stablehlo.reduce_precision %y, format = e5m10 : tensor<17xf32>
  check.expect_eq_const %r, dense<[-330.0, -288.75, -247.5, -206.25, -165.0, -123.75, -82.5, -41.25, 0.0, 41.25, 82.5, 123.75, 165.0, 206.25, 247.5, 288.75, 330.0]> : tensor<17xf32>
  func.return
}

// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
