// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --verbose %s 2>&1 | FileCheck %s
// chlo.mulhi: the high half of the double-width product, signed and
// unsigned, every integer width; the extremes (MIN * MIN, MIN * -1,
// MAX * MAX) and mixed signs.  Expected values computed with exact integers.

func.func @mulhi_i8() {
  %a0 = stablehlo.constant dense<[-128, -128, 127, 127, -1, -1, 0, 3, -3, -128, 42, -25]> : tensor<12xi8>
  %b0 = stablehlo.constant dense<[-128, -1, 127, -128, -1, 127, -128, -7, 5, 1, 19, 63]> : tensor<12xi8>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<12xi8>, tensor<12xi8>
  %r = "chlo.mulhi"(%a, %b) : (tensor<12xi8>, tensor<12xi8>) -> tensor<12xi8>
  check.expect_eq_const %r, dense<[64, 0, 63, -64, 0, -1, 0, -1, -1, -1, 3, -7]> : tensor<12xi8>
  func.return
}

// -----

func.func @mulhi_ui8() {
  %a0 = stablehlo.constant dense<[255, 255, 0, 1, 127, 85, 7, 254, 2, 51, 128, 57]> : tensor<12xui8>
  %b0 = stablehlo.constant dense<[255, 1, 255, 255, 2, 3, 28, 254, 128, 36, 128, 49]> : tensor<12xui8>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<12xui8>, tensor<12xui8>
  %r = "chlo.mulhi"(%a, %b) : (tensor<12xui8>, tensor<12xui8>) -> tensor<12xui8>
  check.expect_eq_const %r, dense<[254, 0, 0, 0, 0, 0, 0, 252, 1, 7, 64, 10]> : tensor<12xui8>
  func.return
}

// -----

func.func @mulhi_i16() {
  %a0 = stablehlo.constant dense<[-32768, -32768, 32767, 32767, -1, -1, 0, 3, -3, -32768, 10922, -6553]> : tensor<12xi16>
  %b0 = stablehlo.constant dense<[-32768, -1, 32767, -32768, -1, 32767, -32768, -7, 5, 1, 4682, 16383]> : tensor<12xi16>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<12xi16>, tensor<12xi16>
  %r = "chlo.mulhi"(%a, %b) : (tensor<12xi16>, tensor<12xi16>) -> tensor<12xi16>
  check.expect_eq_const %r, dense<[16384, 0, 16383, -16384, 0, -1, 0, -1, -1, -1, 780, -1639]> : tensor<12xi16>
  func.return
}

// -----

func.func @mulhi_ui16() {
  %a0 = stablehlo.constant dense<[65535, 65535, 0, 1, 32767, 21845, 7, 65534, 2, 13107, 32768, 12345]> : tensor<12xui16>
  %b0 = stablehlo.constant dense<[65535, 1, 65535, 65535, 2, 3, 7281, 65534, 32768, 9362, 32768, 54321]> : tensor<12xui16>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<12xui16>, tensor<12xui16>
  %r = "chlo.mulhi"(%a, %b) : (tensor<12xui16>, tensor<12xui16>) -> tensor<12xui16>
  check.expect_eq_const %r, dense<[65534, 0, 0, 0, 0, 0, 0, 65532, 1, 1872, 16384, 10232]> : tensor<12xui16>
  func.return
}

// -----

func.func @mulhi_i32() {
  %a0 = stablehlo.constant dense<[-2147483648, -2147483648, 2147483647, 2147483647, -1, -1, 0, 3, -3, -2147483648, 715827882, -429496729]> : tensor<12xi32>
  %b0 = stablehlo.constant dense<[-2147483648, -1, 2147483647, -2147483648, -1, 2147483647, -2147483648, -7, 5, 1, 306783379, 1073741823]> : tensor<12xi32>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<12xi32>, tensor<12xi32>
  %r = "chlo.mulhi"(%a, %b) : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi32>
  check.expect_eq_const %r, dense<[1073741824, 0, 1073741823, -1073741824, 0, -1, 0, -1, -1, -1, 51130563, -107374183]> : tensor<12xi32>
  func.return
}

// -----

func.func @mulhi_ui32() {
  %a0 = stablehlo.constant dense<[4294967295, 4294967295, 0, 1, 2147483647, 1431655765, 7, 4294967294, 2, 858993459, 2147483648, 12345]> : tensor<12xui32>
  %b0 = stablehlo.constant dense<[4294967295, 1, 4294967295, 4294967295, 2, 3, 477218588, 4294967294, 2147483648, 613566756, 2147483648, 54321]> : tensor<12xui32>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<12xui32>, tensor<12xui32>
  %r = "chlo.mulhi"(%a, %b) : (tensor<12xui32>, tensor<12xui32>) -> tensor<12xui32>
  check.expect_eq_const %r, dense<[4294967294, 0, 0, 0, 0, 0, 0, 4294967292, 1, 122713351, 1073741824, 0]> : tensor<12xui32>
  func.return
}

// -----

func.func @mulhi_i64() {
  %a0 = stablehlo.constant dense<[-9223372036854775808, -9223372036854775808, 9223372036854775807, 9223372036854775807, -1, -1, 0, 3, -3, -9223372036854775808, 3074457345618258602, -1844674407370955161]> : tensor<12xi64>
  %b0 = stablehlo.constant dense<[-9223372036854775808, -1, 9223372036854775807, -9223372036854775808, -1, 9223372036854775807, -9223372036854775808, -7, 5, 1, 1317624576693539402, 4611686018427387903]> : tensor<12xi64>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<12xi64>, tensor<12xi64>
  %r = "chlo.mulhi"(%a, %b) : (tensor<12xi64>, tensor<12xi64>) -> tensor<12xi64>
  check.expect_eq_const %r, dense<[4611686018427387904, 0, 4611686018427387903, -4611686018427387904, 0, -1, 0, -1, -1, -1, 219604096115589900, -461168601842738791]> : tensor<12xi64>
  func.return
}

// -----

func.func @mulhi_ui64() {
  %a0 = stablehlo.constant dense<[18446744073709551615, 18446744073709551615, 0, 1, 9223372036854775807, 6148914691236517205, 7, 18446744073709551614, 2, 3689348814741910323, 9223372036854775808, 12345]> : tensor<12xui64>
  %b0 = stablehlo.constant dense<[18446744073709551615, 1, 18446744073709551615, 18446744073709551615, 2, 3, 2049638230412172401, 18446744073709551614, 9223372036854775808, 2635249153387078802, 9223372036854775808, 54321]> : tensor<12xui64>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<12xui64>, tensor<12xui64>
  %r = "chlo.mulhi"(%a, %b) : (tensor<12xui64>, tensor<12xui64>) -> tensor<12xui64>
  check.expect_eq_const %r, dense<[18446744073709551614, 0, 0, 0, 0, 0, 0, 18446744073709551612, 1, 527049830677415760, 4611686018427387904, 0]> : tensor<12xui64>
  func.return
}

// -----

func.func @mulhi_i4() {
  %a0 = stablehlo.constant dense<[-8, -8, 7, 7, -1, -1, 0, 3, -3, -8, 2, -1]> : tensor<12xi4>
  %b0 = stablehlo.constant dense<[-8, -1, 7, -8, -1, 7, -8, -7, 5, 1, 2, 3]> : tensor<12xi4>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<12xi4>, tensor<12xi4>
  %r = "chlo.mulhi"(%a, %b) : (tensor<12xi4>, tensor<12xi4>) -> tensor<12xi4>
  check.expect_eq_const %r, dense<[4, 0, 3, -4, 0, -1, 0, -2, -1, -1, 0, -1]> : tensor<12xi4>
  func.return
}

// -----

func.func @mulhi_ui4() {
  %a0 = stablehlo.constant dense<[15, 15, 0, 1, 7, 5, 7, 14, 2, 3, 8, 9]> : tensor<12xui4>
  %b0 = stablehlo.constant dense<[15, 1, 15, 15, 2, 3, 1, 14, 8, 2, 8, 1]> : tensor<12xui4>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<12xui4>, tensor<12xui4>
  %r = "chlo.mulhi"(%a, %b) : (tensor<12xui4>, tensor<12xui4>) -> tensor<12xui4>
  check.expect_eq_const %r, dense<[14, 0, 0, 0, 0, 0, 0, 12, 1, 0, 4, 0]> : tensor<12xui4>
  func.return
}

// -----

// Signed division by 3 the way compilers do it, fused into one loop:
// mulhi(x, 0x55555556) + (x >>> 31) = x / 3 truncated.
func.func @mulhi_fused_div3() {
  %x0 = stablehlo.constant dense<[-40, -35, -30, -25, -20, -15, -10, -5, 0, 5, 10, 15, 20, 25, 30, 35]> : tensor<16xi32>
  %x = stablehlo.optimization_barrier %x0 : tensor<16xi32>
  %m = stablehlo.constant dense<1431655766> : tensor<16xi32>
  %s = stablehlo.constant dense<31> : tensor<16xi32>
  %h = "chlo.mulhi"(%x, %m) : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
  %sg = stablehlo.shift_right_logical %x, %s : tensor<16xi32>
  %q = stablehlo.add %h, %sg : tensor<16xi32>
  check.expect_eq_const %q, dense<[-13, -11, -10, -8, -6, -5, -3, -1, 0, 1, 3, 5, 6, 8, 10, 11]> : tensor<16xi32>
  func.return
}

// CHECK: cpu: 1 ops native (0 fusions), 1 through the interpreter
// CHECK: cpu: 1 ops native (0 fusions), 1 through the interpreter
// CHECK: cpu: 1 ops native (0 fusions), 1 through the interpreter
// CHECK: cpu: 1 ops native (0 fusions), 1 through the interpreter
// CHECK: cpu: 1 ops native (0 fusions), 1 through the interpreter
// CHECK: cpu: 1 ops native (0 fusions), 1 through the interpreter
// CHECK: cpu: 1 ops native (0 fusions), 1 through the interpreter
// CHECK: cpu: 1 ops native (0 fusions), 1 through the interpreter
// CHECK: cpu: 1 ops native (0 fusions), 1 through the interpreter
// CHECK: cpu: 1 ops native (0 fusions), 1 through the interpreter
// CHECK: cpu: 1 ops native (1 fusions), 1 through the interpreter
