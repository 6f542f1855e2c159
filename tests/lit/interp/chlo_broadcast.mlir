// RUN: xlac run --split-input-file %s

// chlo.broadcast_* ops: numpy-style trailing alignment, or explicit
// broadcast_dimensions for the lower-rank operand; size-1 dims stretch.

func.func @broadcast_add_trailing() {
  %a = stablehlo.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi32>
  %b = stablehlo.constant dense<[10, 20, 30]> : tensor<3xi32>
  %r = "chlo.broadcast_add"(%a, %b) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[10, 21, 32], [13, 24, 35]]> : tensor<2x3xi32>
  %s = stablehlo.constant dense<100> : tensor<i32>
  %t = "chlo.broadcast_subtract"(%s, %a) : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %t, dense<[[100, 99, 98], [97, 96, 95]]> : tensor<2x3xi32>
  func.return
}

// -----

func.func @broadcast_dims_and_size_one() {
  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = stablehlo.constant dense<[10.0, 100.0]> : tensor<2xf32>
  %r = "chlo.broadcast_multiply"(%a, %b) {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %r, dense<[[10.0, 20.0, 30.0], [400.0, 500.0, 600.0]]> : tensor<2x3xf32>
  %c = stablehlo.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %d = stablehlo.constant dense<[[1.0, 2.0, 4.0]]> : tensor<1x3xf32>
  %q = "chlo.broadcast_divide"(%c, %d) : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %q, dense<[[1.0, 0.5, 0.25], [2.0, 1.0, 0.5]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @broadcast_max_min_pow_rem_atan2() {
  %a = stablehlo.constant dense<[[1.0, -2.0], [0x7FF8000000000000, 8.0]]> : tensor<2x2xf64>
  %b = stablehlo.constant dense<[0.0, 3.0]> : tensor<2xf64>
  %mx = "chlo.broadcast_maximum"(%a, %b) : (tensor<2x2xf64>, tensor<2xf64>) -> tensor<2x2xf64>
  check.expect_eq_const %mx, dense<[[1.0, 3.0], [0x7FF8000000000000, 8.0]]> : tensor<2x2xf64>
  %mn = "chlo.broadcast_minimum"(%a, %b) : (tensor<2x2xf64>, tensor<2xf64>) -> tensor<2x2xf64>
  check.expect_eq_const %mn, dense<[[0.0, -2.0], [0x7FF8000000000000, 3.0]]> : tensor<2x2xf64>
  %p = "chlo.broadcast_power"(%a, %b) : (tensor<2x2xf64>, tensor<2xf64>) -> tensor<2x2xf64>
  check.expect_eq_const %p, dense<[[1.0, -8.0], [1.0, 512.0]]> : tensor<2x2xf64>
  %r = "chlo.broadcast_remainder"(%a, %b) : (tensor<2x2xf64>, tensor<2xf64>) -> tensor<2x2xf64>
  check.expect_eq_const %r, dense<[[0x7FF8000000000000, -2.0], [0x7FF8000000000000, 2.0]]> : tensor<2x2xf64>
  %one = stablehlo.constant dense<1.0> : tensor<f64>
  %t = "chlo.broadcast_atan2"(%one, %b) : (tensor<f64>, tensor<2xf64>) -> tensor<2xf64>
  check.expect_almost_eq_const %t, dense<[1.5707963267948966, 0.32175055439664219]> : tensor<2xf64>
  func.return
}

// -----

func.func @broadcast_logic_compare_select() {
  %a = stablehlo.constant dense<[[true, false], [true, true]]> : tensor<2x2xi1>
  %b = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %x = "chlo.broadcast_and"(%a, %b) : (tensor<2x2xi1>, tensor<2xi1>) -> tensor<2x2xi1>
  check.expect_eq_const %x, dense<[[true, false], [true, false]]> : tensor<2x2xi1>
  %y = "chlo.broadcast_or"(%a, %b) : (tensor<2x2xi1>, tensor<2xi1>) -> tensor<2x2xi1>
  check.expect_eq_const %y, dense<[[true, false], [true, true]]> : tensor<2x2xi1>
  %z = "chlo.broadcast_xor"(%a, %b) : (tensor<2x2xi1>, tensor<2xi1>) -> tensor<2x2xi1>
  check.expect_eq_const %z, dense<[[false, false], [false, true]]> : tensor<2x2xi1>
  %i = stablehlo.constant dense<[1, 5, 9]> : tensor<3xi32>
  %k = stablehlo.constant dense<5> : tensor<i32>
  %c = "chlo.broadcast_compare"(%i, %k) {comparison_direction = #chlo<comparison_direction GE>} : (tensor<3xi32>, tensor<i32>) -> tensor<3xi1>
  check.expect_eq_const %c, dense<[false, true, true]> : tensor<3xi1>
  %n = stablehlo.constant dense<0> : tensor<i32>
  %s = "chlo.broadcast_select"(%c, %i, %n) : (tensor<3xi1>, tensor<3xi32>, tensor<i32>) -> tensor<3xi32>
  check.expect_eq_const %s, dense<[0, 5, 9]> : tensor<3xi32>
  %u = stablehlo.constant dense<[6, 3]> : tensor<2xui8>
  %v = stablehlo.constant dense<[[5], [1]]> : tensor<2x1xui8>
  %w = "chlo.broadcast_xor"(%u, %v) : (tensor<2xui8>, tensor<2x1xui8>) -> tensor<2x2xui8>
  check.expect_eq_const %w, dense<[[3, 6], [7, 2]]> : tensor<2x2xui8>
  func.return
}

// -----

func.func @broadcast_zero_sized() {
  %a = stablehlo.constant dense<> : tensor<0x3xf32>
  %b = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %r = "chlo.broadcast_add"(%a, %b) : (tensor<0x3xf32>, tensor<3xf32>) -> tensor<0x3xf32>
  check.expect_eq_const %r, dense<> : tensor<0x3xf32>
  func.return
}
