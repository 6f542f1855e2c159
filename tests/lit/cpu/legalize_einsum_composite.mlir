// RUN: xlac run --split-input-file %s
// RUN: xlac opt --split-input-file --pass legalize %s | FileCheck %s
// RUN: xlac opt --split-input-file --pipeline=cpu %s | FileCheck %s --check-prefix=CPU
// einsum / unary_einsum with a letter repeated within a term: legalize
// takes the diagonal (transpose, reshape, strided slice) and leaves an
// einsum without repeats, which expand lowers.  composite becomes a call
// of its decomposition, which inline then inlines.
// CPU-NOT: einsum
// CPU-NOT: composite
// CPU-NOT: callee = @add_n

// CHECK-LABEL: func.func @trace
// CHECK: stablehlo.slice
// CHECK-SAME: strides = array<i64: 4>
// CHECK: "stablehlo.unary_einsum"
// CHECK-SAME: einsum_config = "i->"
func.func @trace() {
  %x0 = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi32>
  %x = stablehlo.optimization_barrier %x0 : tensor<3x3xi32>
  %t = "stablehlo.unary_einsum"(%x) {einsum_config = "ii->"} : (tensor<3x3xi32>) -> tensor<i32>
  check.expect_eq_const %t, dense<15> : tensor<i32>
  %d = "stablehlo.unary_einsum"(%x) {einsum_config = "ii->i"} : (tensor<3x3xi32>) -> tensor<3xi32>
  check.expect_eq_const %d, dense<[1, 5, 9]> : tensor<3xi32>
  func.return
}

// -----

// A letter three times, another twice, the diagonal letters out of order.
// CHECK-LABEL: func.func @diagonal_mixed
// CHECK: stablehlo.transpose
func.func @diagonal_mixed() {
  %x0 = stablehlo.iota dim = 0 : tensor<2x3x2x2x3xf32>
  %y0 = stablehlo.iota dim = 1 : tensor<2x3x2x2x3xf32>
  %z0 = stablehlo.iota dim = 4 : tensor<2x3x2x2x3xf32>
  %x1 = stablehlo.add %x0, %y0 : tensor<2x3x2x2x3xf32>
  %ten = stablehlo.constant dense<10.0> : tensor<2x3x2x2x3xf32>
  %x2 = stablehlo.multiply %x1, %ten : tensor<2x3x2x2x3xf32>
  %x3 = stablehlo.add %x2, %z0 : tensor<2x3x2x2x3xf32>
  %x = stablehlo.optimization_barrier %x3 : tensor<2x3x2x2x3xf32>
  // element [a, b, a, a, c] = 10 (a + b) + c, with c == b on the diagonal
  %d = "stablehlo.unary_einsum"(%x) {einsum_config = "abaab->ba"} : (tensor<2x3x2x2x3xf32>) -> tensor<3x2xf32>
  check.expect_eq_const %d, dense<[[0.0, 10.0], [11.0, 21.0], [22.0, 32.0]]> : tensor<3x2xf32>
  func.return
}

// -----

// Binary einsum with a diagonal in one operand: sum_i A[i, i] * B[i, j].
// CHECK-LABEL: func.func @binary_diagonal
// CHECK: "stablehlo.einsum"
// CHECK-SAME: einsum_config = "i,ij->j"
func.func @binary_diagonal() {
  %a0 = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>
  %b0 = stablehlo.constant dense<[[1.0, 10.0, 100.0], [2.0, 20.0, 200.0]]> : tensor<2x3xf64>
  %a, %b = stablehlo.optimization_barrier %a0, %b0 : tensor<2x2xf64>, tensor<2x3xf64>
  %r = "stablehlo.einsum"(%a, %b) {einsum_config = "ii,ij->j"} : (tensor<2x2xf64>, tensor<2x3xf64>) -> tensor<3xf64>
  check.expect_eq_const %r, dense<[9.0, 90.0, 900.0]> : tensor<3xf64>
  // both operands, the shared letter also repeated on the right
  %s = "stablehlo.einsum"(%a, %a) {einsum_config = "ij,jj->ij"} : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  check.expect_eq_const %s, dense<[[1.0, 8.0], [3.0, 16.0]]> : tensor<2x2xf64>
  func.return
}

// -----

// Size-1 and empty diagonals.
// CHECK-LABEL: func.func @small_diagonals
func.func @small_diagonals() {
  %a0 = stablehlo.constant dense<[[[5]]]> : tensor<1x1x1xi64>
  %e0 = stablehlo.constant dense<> : tensor<0x0xi64>
  %a, %e = stablehlo.optimization_barrier %a0, %e0 : tensor<1x1x1xi64>, tensor<0x0xi64>
  %r = "stablehlo.unary_einsum"(%a) {einsum_config = "iii->i"} : (tensor<1x1x1xi64>) -> tensor<1xi64>
  check.expect_eq_const %r, dense<[5]> : tensor<1xi64>
  %t = "stablehlo.unary_einsum"(%e) {einsum_config = "ii->"} : (tensor<0x0xi64>) -> tensor<i64>
  check.expect_eq_const %t, dense<0> : tensor<i64>
  func.return
}

// -----

// CHECK-LABEL: func.func @add_n.impl
// CHECK-LABEL: func.func @main
// CHECK-NOT: stablehlo.composite
// CHECK: "func.call"
// CHECK-SAME: callee = @add_n.impl
func.func @add_n.impl(%arg0: tensor<2xi64>, %arg1: tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>) {
  %0 = stablehlo.constant dense<2> : tensor<2xi64>
  %1 = stablehlo.add %arg0, %0 : tensor<2xi64>
  %2 = stablehlo.multiply %1, %arg1 : tensor<2xi64>
  func.return %1, %2 : tensor<2xi64>, tensor<2xi64>
}

func.func @main() {
  %a0 = stablehlo.constant dense<[1, -5]> : tensor<2xi64>
  %a = stablehlo.optimization_barrier %a0 : tensor<2xi64>
  %r:2 = stablehlo.composite "my.add_n" %a, %a {
    composite_attributes = { n = 2 : i64 },
    decomposition = @add_n.impl
  } : (tensor<2xi64>, tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>)
  check.expect_eq_const %r#0, dense<[3, -3]> : tensor<2xi64>
  check.expect_eq_const %r#1, dense<[3, 15]> : tensor<2xi64>
  func.return
}
