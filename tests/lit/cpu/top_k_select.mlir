// RUN: xlac run --split-input-file %s
// top_k compiles to a selection per row (the runtime's xlacrt_top_k), not
// a sort: larger first, floats in total order (-NaN smallest, -0 below +0,
// NaN largest), equal keys by lower index.

func.func @floats_nan_zero_ties() {
  %x = stablehlo.constant dense<[[-1.0, 0x7FC00000, 3.0, 0xFF800000, 0.0, -0.0, 3.0, 0x7F800000],
                                 [2.0, 2.0, 2.0, 2.0, 1.0, 1.0, 5.0, -0.0]]> : tensor<2x8xf32>
  %v, %i = chlo.top_k(%x, k = 6) : tensor<2x8xf32> -> (tensor<2x6xf32>, tensor<2x6xi32>)
  check.expect_eq_const %v, dense<[[0x7FC00000, 0x7F800000, 3.0, 3.0, 0.0, -0.0],
                                   [5.0, 2.0, 2.0, 2.0, 2.0, 1.0]]> : tensor<2x6xf32>
  check.expect_eq_const %i, dense<[[1, 7, 2, 6, 4, 5], [6, 0, 1, 2, 3, 4]]> : tensor<2x6xi32>
  func.return
}

// -----

// k = 0 and k = the whole row (a full stable descending sort)
func.func @k_zero_and_all() {
  %x = stablehlo.constant dense<[[4, -2, 9, 4, 0], [1, 1, 1, 1, 1]]> : tensor<2x5xi64>
  %v0, %i0 = chlo.top_k(%x, k = 0) : tensor<2x5xi64> -> (tensor<2x0xi64>, tensor<2x0xi32>)
  %v, %i = chlo.top_k(%x, k = 5) : tensor<2x5xi64> -> (tensor<2x5xi64>, tensor<2x5xi64>)
  check.expect_eq_const %v, dense<[[9, 4, 4, 0, -2], [1, 1, 1, 1, 1]]> : tensor<2x5xi64>
  check.expect_eq_const %i, dense<[[2, 0, 3, 4, 1], [0, 1, 2, 3, 4]]> : tensor<2x5xi64>
  func.return
}

// -----

// unsigned keys above the signed range, narrow indices
func.func @unsigned_and_narrow_index() {
  %x = stablehlo.constant dense<[0, 18446744073709551615, 9223372036854775808, 9223372036854775807, 5]> : tensor<5xui64>
  %v, %i = chlo.top_k(%x, k = 3) : tensor<5xui64> -> (tensor<3xui64>, tensor<3xi8>)
  check.expect_eq_const %v, dense<[18446744073709551615, 9223372036854775808, 9223372036854775807]> : tensor<3xui64>
  check.expect_eq_const %i, dense<[1, 2, 3]> : tensor<3xi8>
  %y = stablehlo.constant dense<[-128, 127, 0, -1, 127]> : tensor<5xi8>
  %w, %j = chlo.top_k(%y, k = 4) : tensor<5xi8> -> (tensor<4xi8>, tensor<4xi32>)
  check.expect_eq_const %w, dense<[127, 127, 0, -1]> : tensor<4xi8>
  check.expect_eq_const %j, dense<[1, 4, 2, 3]> : tensor<4xi32>
  func.return
}

// -----

// half, bfloat and double keys, including negative NaN (the smallest)
func.func @narrow_and_wide_floats() {
  %h = stablehlo.constant dense<[1.5, 0xFE00, -2.0, 0x7C00, 65504.0]> : tensor<5xf16>
  %hv, %hi = chlo.top_k(%h, k = 5) : tensor<5xf16> -> (tensor<5xf16>, tensor<5xi32>)
  check.expect_eq_const %hv, dense<[0x7C00, 65504.0, 1.5, -2.0, 0xFE00]> : tensor<5xf16>
  check.expect_eq_const %hi, dense<[3, 4, 0, 2, 1]> : tensor<5xi32>
  %b = stablehlo.constant dense<[0.5, -0.0, 0.0, 0x7FC0]> : tensor<4xbf16>
  %bv, %bi = chlo.top_k(%b, k = 3) : tensor<4xbf16> -> (tensor<3xbf16>, tensor<3xi32>)
  check.expect_eq_const %bv, dense<[0x7FC0, 0.5, 0.0]> : tensor<3xbf16>
  check.expect_eq_const %bi, dense<[3, 0, 2]> : tensor<3xi32>
  %d = stablehlo.constant dense<[[1.0e300, -1.0e-300, 1.0e-300], [3.0, 3.0, -3.0]]> : tensor<2x3xf64>
  %dv, %di = chlo.top_k(%d, k = 2) : tensor<2x3xf64> -> (tensor<2x2xf64>, tensor<2x2xi32>)
  check.expect_eq_const %dv, dense<[[1.0e300, 1.0e-300], [3.0, 3.0]]> : tensor<2x2xf64>
  check.expect_eq_const %di, dense<[[0, 2], [0, 1]]> : tensor<2x2xi32>
  func.return
}
