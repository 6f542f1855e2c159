// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --verbose %s 2>&1 | FileCheck %s
// stablehlo.bitcast_convert between element types of one width, an
// elementwise op on the cpu backend: float <-> signed/unsigned integer at 64,
// 32, 16 (f16 and bf16), 8 and 4 bits, NaN payloads, subnormals, -0, and a
// fusion.  (Bitcasts that change the width change the shape and still run
// through the interpreter on the cpu backend.)

func.func @f32_to_i32() {
  %x0 = stablehlo.constant dense<[1.0, -2.5, 0.0, -0.0, 0x7F800000, 0xFF800000, 1.40129846e-45, 3.40282347e+38, 0.100000001]> : tensor<9xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<9xf32>
  %r = stablehlo.bitcast_convert %x : (tensor<9xf32>) -> tensor<9xi32>
  check.expect_eq_const %r, dense<[1065353216, -1071644672, 0, -2147483648, 2139095040, -8388608, 1, 2139095039, 1036831949]> : tensor<9xi32>
  func.return
}

// -----

func.func @f32_to_ui32() {
  %x0 = stablehlo.constant dense<[1.0, -2.5, 0.0, -0.0, 0x7F800000, 0xFF800000, 1.40129846e-45, 3.40282347e+38, 0.100000001]> : tensor<9xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<9xf32>
  %r = stablehlo.bitcast_convert %x : (tensor<9xf32>) -> tensor<9xui32>
  check.expect_eq_const %r, dense<[1065353216, 3223322624, 0, 2147483648, 2139095040, 4286578688, 1, 2139095039, 1036831949]> : tensor<9xui32>
  func.return
}

// -----

// NaN payloads, quiet and signalling, survive both ways.
func.func @i32_f32_roundtrip() {
  %x0 = stablehlo.constant dense<[1065353216, -2147483648, 2143289345, 2141192192, -8388607, 1, 2139095039, 305419896]> : tensor<8xi32>
  %x = stablehlo.optimization_barrier %x0 : tensor<8xi32>
  %f = stablehlo.bitcast_convert %x : (tensor<8xi32>) -> tensor<8xf32>
  %g = stablehlo.optimization_barrier %f : tensor<8xf32>
  %b = stablehlo.bitcast_convert %g : (tensor<8xf32>) -> tensor<8xui32>
  check.expect_eq_const %b, dense<[1065353216, 2147483648, 2143289345, 2141192192, 4286578689, 1, 2139095039, 305419896]> : tensor<8xui32>
  func.return
}

// -----

func.func @f64_to_i64() {
  %x0 = stablehlo.constant dense<[1.0, -2.5, -0.0, 0x7FF0000000000000, 4.9406564584124654e-324, 1.0000000000000001e+300, 0.10000000000000001]> : tensor<7xf64>
  %x = stablehlo.optimization_barrier %x0 : tensor<7xf64>
  %r = stablehlo.bitcast_convert %x : (tensor<7xf64>) -> tensor<7xi64>
  check.expect_eq_const %r, dense<[4607182418800017408, -4610560118520545280, -9223372036854775808, 9218868437227405312, 1, 9094988921128908188, 4591870180066957722]> : tensor<7xi64>
  func.return
}

// -----

func.func @ui64_to_f64() {
  %x0 = stablehlo.constant dense<[4607182418800017408, 9223372036854775808, 1, 18442240474082181120, 4614256656552045848]> : tensor<5xui64>
  %x = stablehlo.optimization_barrier %x0 : tensor<5xui64>
  %r = stablehlo.bitcast_convert %x : (tensor<5xui64>) -> tensor<5xf64>
  check.expect_eq_const %r, dense<[1.0, -0.0, 4.9406564584124654e-324, 0xFFF0000000000000, 3.1415926535897931]> : tensor<5xf64>
  func.return
}

// -----

func.func @f16_to_i16() {
  %x0 = stablehlo.constant dense<[1.0, -2.0, 65504.0, 5.96046448e-08, 0.0, -0.0, 0x7C00, 0.333007812]> : tensor<8xf16>
  %x = stablehlo.optimization_barrier %x0 : tensor<8xf16>
  %r = stablehlo.bitcast_convert %x : (tensor<8xf16>) -> tensor<8xi16>
  check.expect_eq_const %r, dense<[15360, -16384, 31743, 1, 0, -32768, 31744, 13652]> : tensor<8xi16>
  func.return
}

// -----

func.func @ui16_to_f16() {
  %x0 = stablehlo.constant dense<[15360, 49152, 1, 1023, 31743, 64512, 32768, 13653]> : tensor<8xui16>
  %x = stablehlo.optimization_barrier %x0 : tensor<8xui16>
  %r = stablehlo.bitcast_convert %x : (tensor<8xui16>) -> tensor<8xf16>
  check.expect_eq_const %r, dense<[1.0, -2.0, 5.96046448e-08, 6.09755516e-05, 65504.0, 0xFC00, -0.0, 0.333251953]> : tensor<8xf16>
  func.return
}

// -----

func.func @ui16_to_bf16() {
  %x0 = stablehlo.constant dense<[16256, 49184, 1, 32639, 65408, 32768, 15821, 128]> : tensor<8xui16>
  %x = stablehlo.optimization_barrier %x0 : tensor<8xui16>
  %r = stablehlo.bitcast_convert %x : (tensor<8xui16>) -> tensor<8xbf16>
  check.expect_eq_const %r, dense<[1.0, -2.5, 9.18354962e-41, 3.38953139e+38, 0xFF80, -0.0, 0.100097656, 1.17549435e-38]> : tensor<8xbf16>
  func.return
}

// -----

func.func @bf16_to_i16() {
  %x0 = stablehlo.constant dense<[1.0, -2.5, 9.18354962e-41, 3.38953139e+38, 0xFF80, -0.0, 0.100097656, 1.17549435e-38]> : tensor<8xbf16>
  %x = stablehlo.optimization_barrier %x0 : tensor<8xbf16>
  %r = stablehlo.bitcast_convert %x : (tensor<8xbf16>) -> tensor<8xi16>
  check.expect_eq_const %r, dense<[16256, -16352, 1, 32639, -128, -32768, 15821, 128]> : tensor<8xi16>
  func.return
}

// -----

// Signalling NaN patterns of f16 and bf16 (and a negative subnormal)
// come back unchanged.
func.func @f16_bf16_nan_payloads() {
  %x0 = stablehlo.constant dense<[31745, 32001, 32769, 32641, 64513]> : tensor<5xui16>
  %x = stablehlo.optimization_barrier %x0 : tensor<5xui16>
  %f = stablehlo.bitcast_convert %x : (tensor<5xui16>) -> tensor<5xf16>
  %g = stablehlo.optimization_barrier %f : tensor<5xf16>
  %b = stablehlo.bitcast_convert %g : (tensor<5xf16>) -> tensor<5xui16>
  check.expect_eq_const %b, dense<[31745, 32001, 32769, 32641, 64513]> : tensor<5xui16>
  %h = stablehlo.bitcast_convert %x : (tensor<5xui16>) -> tensor<5xbf16>
  %k = stablehlo.optimization_barrier %h : tensor<5xbf16>
  %c = stablehlo.bitcast_convert %k : (tensor<5xbf16>) -> tensor<5xui16>
  check.expect_eq_const %c, dense<[31745, 32001, 32769, 32641, 64513]> : tensor<5xui16>
  func.return
}

// -----

func.func @i8_to_ui8() {
  %x0 = stablehlo.constant dense<[-128, -1, 0, 1, 127, -57]> : tensor<6xi8>
  %x = stablehlo.optimization_barrier %x0 : tensor<6xi8>
  %r = stablehlo.bitcast_convert %x : (tensor<6xi8>) -> tensor<6xui8>
  check.expect_eq_const %r, dense<[128, 255, 0, 1, 127, 199]> : tensor<6xui8>
  func.return
}

// -----

func.func @i4_to_ui4() {
  %x0 = stablehlo.constant dense<[-8, -1, 0, 7, 5]> : tensor<5xi4>
  %x = stablehlo.optimization_barrier %x0 : tensor<5xi4>
  %r = stablehlo.bitcast_convert %x : (tensor<5xi4>) -> tensor<5xui4>
  check.expect_eq_const %r, dense<[8, 15, 0, 7, 5]> : tensor<5xui4>
  func.return
}

// -----

// Fused: |2x| by clearing the sign bit between two bitcasts.
func.func @bitcast_fused_abs() {
  %x0 = stablehlo.constant dense<[-3.0, -0.0, 2.5, -9.9999461e-41, 0x7F800000, 0xFF800000, 7.0]> : tensor<7xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<7xf32>
  %two = stablehlo.constant dense<2.0> : tensor<7xf32>
  %m = stablehlo.constant dense<2147483647> : tensor<7xi32>
  %y = stablehlo.multiply %x, %two : tensor<7xf32>
  %b = stablehlo.bitcast_convert %y : (tensor<7xf32>) -> tensor<7xi32>
  %a = stablehlo.and %b, %m : tensor<7xi32>
  %r = stablehlo.bitcast_convert %a : (tensor<7xi32>) -> tensor<7xf32>
  check.expect_eq_const %r, dense<[6.0, 0.0, 5.0, 1.99998922e-40, 0x7F800000, 0x7F800000, 14.0]> : tensor<7xf32>
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
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 2 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 1 through the interpreter
