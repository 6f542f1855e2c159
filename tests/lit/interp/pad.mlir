// RUN: xlac run --split-input-file %s

// Interior padding between elements, then edge padding on both sides.
func.func @pad_interior_and_edges() {
  %x = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %p = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.pad %x, %p, low = [1, 0], high = [0, 2], interior = [1, 1]
    : (tensor<2x2xi32>, tensor<i32>) -> tensor<4x5xi32>
  check.expect_eq_const %r, dense<[[0, 0, 0, 0, 0],
                                   [1, 0, 2, 0, 0],
                                   [0, 0, 0, 0, 0],
                                   [3, 0, 4, 0, 0]]> : tensor<4x5xi32>
  func.return
}

// -----

// Negative edge padding crops, including into the interior padding.
func.func @pad_negative() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %p = stablehlo.constant dense<-1.0> : tensor<f32>
  %r = stablehlo.pad %x, %p, low = [-1], high = [-2], interior = [1]
    : (tensor<3xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_eq_const %r, dense<[-1.0, 2.0]> : tensor<2xf32>
  func.return
}

// -----

func.func @pad_zero_sized_operand() {
  %x = stablehlo.constant dense<> : tensor<0xi8>
  %p = stablehlo.constant dense<5> : tensor<i8>
  %r = stablehlo.pad %x, %p, low = [2], high = [1], interior = [3]
    : (tensor<0xi8>, tensor<i8>) -> tensor<3xi8>
  check.expect_eq_const %r, dense<5> : tensor<3xi8>
  func.return
}

// -----

func.func @dynamic_pad() {
  %x = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %p = stablehlo.constant dense<true> : tensor<i1>
  %lo = stablehlo.constant dense<[1]> : tensor<1xi32>
  %hi = stablehlo.constant dense<[0]> : tensor<1xi32>
  %in = stablehlo.constant dense<[1]> : tensor<1xi32>
  %r = stablehlo.dynamic_pad %x, %p, %lo, %hi, %in
    : (tensor<2xi1>, tensor<i1>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi1>
  check.expect_eq_const %r, dense<[true, true, true, false]> : tensor<4xi1>
  func.return
}
