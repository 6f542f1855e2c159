// RUN: xlac run --split-input-file %s

func.func @broadcast_scalar() {
  %x = stablehlo.constant dense<7> : tensor<i8>
  %r = stablehlo.broadcast_in_dim %x, dims = [] : (tensor<i8>) -> tensor<2x3xi8>
  check.expect_eq_const %r, dense<7> : tensor<2x3xi8>
  func.return
}

// -----

// Size-1 dimensions expand; dims may reorder the operand's axes.
func.func @broadcast_expand_and_permute() {
  %x = stablehlo.constant dense<[[1, 2, 3]]> : tensor<1x3xi64>
  %r = stablehlo.broadcast_in_dim %x, dims = [2, 0] : (tensor<1x3xi64>) -> tensor<3x2x2xi64>
  check.expect_eq_const %r, dense<[[[1, 1], [1, 1]], [[2, 2], [2, 2]], [[3, 3], [3, 3]]]> : tensor<3x2x2xi64>
  func.return
}

// -----

func.func @broadcast_bf16_to_zero_sized() {
  %x = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xbf16>
  %r = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<2xbf16>) -> tensor<0x2xbf16>
  check.expect_eq_const %r, dense<> : tensor<0x2xbf16>
  %s = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<2xbf16>) -> tensor<2x2xbf16>
  check.expect_eq_const %s, dense<[[1.5, -2.0], [1.5, -2.0]]> : tensor<2x2xbf16>
  func.return
}

// -----

func.func @dynamic_broadcast() {
  %x = stablehlo.constant dense<[[1], [2]]> : tensor<2x1xui16>
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %r = "stablehlo.dynamic_broadcast_in_dim"(%x, %shape) {
    broadcast_dimensions = array<i64: 0, 1>
  } : (tensor<2x1xui16>, tensor<2xi64>) -> tensor<2x3xui16>
  check.expect_eq_const %r, dense<[[1, 1, 1], [2, 2, 2]]> : tensor<2x3xui16>
  func.return
}
