// RUN: xlac run --split-input-file %s
// RUN: xlac opt --split-input-file --pipeline=cpu %s | FileCheck %s
// dynamic_pad and real_dynamic_slice with constant amounts become pad and
// slice (legalize pass): negative (cropping) edges, interior padding,
// strides, empty results, several element types.
// CHECK-NOT: stablehlo.dynamic_pad
// CHECK-NOT: stablehlo.real_dynamic_slice

func.func @dynamic_pad_crop_interior() {
  %x0 = stablehlo.constant dense<[[0, 0, 0, 0], [0, 1, 2, 0], [0, 3, 4, 0], [0, 5, 6, 0], [0, 0, 0, 0]]> : tensor<5x4xi64>
  %pv0 = stablehlo.constant dense<-1> : tensor<i64>
  %x, %pv = stablehlo.optimization_barrier %x0, %pv0 : tensor<5x4xi64>, tensor<i64>
  %lo = stablehlo.constant dense<[1, -1]> : tensor<2xi64>
  %hi = stablehlo.constant dense<[1, -1]> : tensor<2xi64>
  %in = stablehlo.constant dense<[0, 1]> : tensor<2xi64>
  %r = stablehlo.dynamic_pad %x, %pv, %lo, %hi, %in : (tensor<5x4xi64>, tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<7x5xi64>
  check.expect_eq_const %r, dense<[[-1, -1, -1, -1, -1], [-1, 0, -1, 0, -1], [-1, 1, -1, 2, -1], [-1, 3, -1, 4, -1], [-1, 5, -1, 6, -1], [-1, 0, -1, 0, -1], [-1, -1, -1, -1, -1]]> : tensor<7x5xi64>
  func.return
}

// -----

func.func @dynamic_pad_f16_ui32_amounts() {
  %x0 = stablehlo.constant dense<[1.5, -2.0, 3.0]> : tensor<3xf16>
  %pv0 = stablehlo.constant dense<0.25> : tensor<f16>
  %x, %pv = stablehlo.optimization_barrier %x0, %pv0 : tensor<3xf16>, tensor<f16>
  %lo = stablehlo.constant dense<[2]> : tensor<1xui32>
  %hi = stablehlo.constant dense<[0]> : tensor<1xui32>
  %in = stablehlo.constant dense<[2]> : tensor<1xui32>
  %r = stablehlo.dynamic_pad %x, %pv, %lo, %hi, %in : (tensor<3xf16>, tensor<f16>, tensor<1xui32>, tensor<1xui32>, tensor<1xui32>) -> tensor<9xf16>
  %n = stablehlo.negate %r : tensor<9xf16>
  check.expect_eq_const %n, dense<[-0.25, -0.25, -1.5, -0.25, -0.25, 2.0, -0.25, -0.25, -3.0]> : tensor<9xf16>
  func.return
}

// -----

func.func @dynamic_pad_empty_operand() {
  %x0 = stablehlo.constant dense<> : tensor<0x2xi8>
  %pv0 = stablehlo.constant dense<9> : tensor<i8>
  %x, %pv = stablehlo.optimization_barrier %x0, %pv0 : tensor<0x2xi8>, tensor<i8>
  %lo = stablehlo.constant dense<[1, 0]> : tensor<2xi32>
  %hi = stablehlo.constant dense<[1, -1]> : tensor<2xi32>
  %in = stablehlo.constant dense<[3, 0]> : tensor<2xi32>
  %r = stablehlo.dynamic_pad %x, %pv, %lo, %hi, %in : (tensor<0x2xi8>, tensor<i8>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x1xi8>
  check.expect_eq_const %r, dense<9> : tensor<2x1xi8>
  func.return
}

// -----

func.func @real_dynamic_slice_strided() {
  %x0 = stablehlo.constant dense<[[0, 1, 2, 3, 4, 5], [10, 11, 12, 13, 14, 15], [20, 21, 22, 23, 24, 25]]> : tensor<3x6xi32>
  %x = stablehlo.optimization_barrier %x0 : tensor<3x6xi32>
  %st = stablehlo.constant dense<[1, 1]> : tensor<2xi64>
  %li = stablehlo.constant dense<[3, 6]> : tensor<2xi64>
  %sr = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %r = stablehlo.real_dynamic_slice %x, %st, %li, %sr : (tensor<3x6xi32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[11, 13, 15], [21, 23, 25]]> : tensor<2x3xi32>
  %st2 = stablehlo.constant dense<[0, 5]> : tensor<2xi32>
  %li2 = stablehlo.constant dense<[3, 6]> : tensor<2xi32>
  %sr2 = stablehlo.constant dense<[2, 7]> : tensor<2xi32>
  %r2 = stablehlo.real_dynamic_slice %x, %st2, %li2, %sr2 : (tensor<3x6xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x1xi32>
  check.expect_eq_const %r2, dense<[[5], [25]]> : tensor<2x1xi32>
  func.return
}

// -----

// limit below start: an empty slice.
func.func @real_dynamic_slice_empty() {
  %x0 = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64>
  %x = stablehlo.optimization_barrier %x0 : tensor<3xf64>
  %st = stablehlo.constant dense<[2]> : tensor<1xi64>
  %li = stablehlo.constant dense<[1]> : tensor<1xi64>
  %sr = stablehlo.constant dense<[1]> : tensor<1xi64>
  %r = stablehlo.real_dynamic_slice %x, %st, %li, %sr : (tensor<3xf64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<0xf64>
  check.expect_eq_const %r, dense<> : tensor<0xf64>
  %st2 = stablehlo.constant dense<[0]> : tensor<1xi64>
  %li2 = stablehlo.constant dense<[3]> : tensor<1xi64>
  %r2 = stablehlo.real_dynamic_slice %x, %st2, %li2, %sr : (tensor<3xf64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xf64>
  %s = stablehlo.add %r2, %r2 : tensor<3xf64>
  check.expect_eq_const %s, dense<[2.0, 4.0, 6.0]> : tensor<3xf64>
  func.return
}
