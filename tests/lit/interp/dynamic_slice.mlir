// RUN: xlac run --split-input-file %s

// Start indices are clamped so the whole slice stays in bounds.
func.func @dynamic_slice_clamps() {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi32>
  %i = stablehlo.constant dense<-4> : tensor<i64>
  %j = stablehlo.constant dense<9> : tensor<i64>
  %r = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 2] : (tensor<3x3xi32>, tensor<i64>, tensor<i64>) -> tensor<2x2xi32>
  check.expect_eq_const %r, dense<[[2, 3], [5, 6]]> : tensor<2x2xi32>
  func.return
}

// -----

func.func @dynamic_slice_unsigned_index() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %i = stablehlo.constant dense<255> : tensor<ui8>
  %r = "stablehlo.dynamic_slice"(%x, %i) {slice_sizes = array<i64: 2>} : (tensor<4xf32>, tensor<ui8>) -> tensor<2xf32>
  check.expect_eq_const %r, dense<[3.0, 4.0]> : tensor<2xf32>
  func.return
}

// -----

func.func @dynamic_update_slice_clamps() {
  %x = stablehlo.constant dense<[[0, 0, 0], [0, 0, 0]]> : tensor<2x3xi8>
  %u = stablehlo.constant dense<[[1, 2]]> : tensor<1x2xi8>
  %i = stablehlo.constant dense<5> : tensor<i32>
  %j = stablehlo.constant dense<-1> : tensor<i32>
  %r = stablehlo.dynamic_update_slice %x, %u, %i, %j : (tensor<2x3xi8>, tensor<1x2xi8>, tensor<i32>, tensor<i32>) -> tensor<2x3xi8>
  check.expect_eq_const %r, dense<[[0, 0, 0], [1, 2, 0]]> : tensor<2x3xi8>
  // the operand is unchanged
  check.expect_eq_const %x, dense<0> : tensor<2x3xi8>
  func.return
}

// -----

func.func @dynamic_update_slice_empty_update() {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %u = stablehlo.constant dense<> : tensor<0xi64>
  %i = stablehlo.constant dense<1> : tensor<i32>
  %r = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<2xi64>, tensor<0xi64>, tensor<i32>) -> tensor<2xi64>
  check.expect_eq_const %r, dense<[1, 2]> : tensor<2xi64>
  func.return
}
