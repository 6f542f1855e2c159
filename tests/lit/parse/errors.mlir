// Malformed input gives one error at the offending token, never a crash.
// RUN: not xlac print --split-input-file %s 2>&1 | FileCheck %s

// CHECK: errors.mlir:[[@LINE+2]]:8: error: unknown operation 'stablehlo.frobnicate'
func.func @f() {
  %0 = stablehlo.frobnicate : tensor<f32>
}

// -----
// CHECK: errors.mlir:[[@LINE+2]]:33: error: integer value 300 does not fit in i8
func.func @f() {
  %0 = stablehlo.constant dense<300> : tensor<i8>
}

// -----
// CHECK: errors.mlir:[[@LINE+2]]:40: error: too many elements in dimension 0 (expected 2)
func.func @f() {
  %0 = stablehlo.constant dense<[1, 2, 3]> : tensor<2xi32>
}

// -----
// CHECK: errors.mlir:[[@LINE+2]]:39: error: expected 3 elements in dimension 1, found 2
func.func @f() {
  %0 = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x3xi32>
}

// -----
// CHECK: errors.mlir:[[@LINE+1]]:25: error: dynamic dimensions are not supported
func.func @f(%a: tensor<?xf32>) {
  func.return
}

// -----
// CHECK: errors.mlir:[[@LINE+2]]:15: error: use of undefined value '%x'
func.func @f() {
  func.return %x : tensor<f32>
}

// -----
// CHECK: errors.mlir:[[@LINE+2]]:3: error: redefinition of value '%a'
func.func @f(%a: tensor<f32>) {
  %a = stablehlo.abs %a : tensor<f32>
  func.return
}

// -----
// CHECK: errors.mlir:[[@LINE+2]]:22: error: operand #0 has type tensor<2xf32> but the op's type says tensor<3xf32>
func.func @f(%a: tensor<2xf32>) {
  %0 = stablehlo.add %a, %a : tensor<3xf32>
  func.return
}

// -----
// CHECK: errors.mlir:[[@LINE+2]]:3: error: operation defines 1 results but 2 are named
func.func @f(%a: tensor<f32>) {
  %0, %1 = "stablehlo.abs"(%a) : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----
// CHECK: errors.mlir:[[@LINE+3]]:15: error: result number 2 of '%0' is out of range (it has 2)
func.func @f(%a: tensor<f32>) {
  %0:2 = stablehlo.optimization_barrier %a, %a : tensor<f32>, tensor<f32>
  func.return %0#2 : tensor<f32>
}

// -----
// CHECK: errors.mlir:[[@LINE+2]]:30: error: unterminated string
func.func @f() {
  %0 = stablehlo.custom_call @"foo(%a) : () -> ()
}

// -----
// CHECK: errors.mlir:[[@LINE+2]]:33: error: hexadecimal bit pattern does not fit in f16
func.func @f() {
  %0 = stablehlo.constant dense<0x7F8000000> : tensor<f16>
}

// -----
// CHECK: errors.mlir:[[@LINE+2]]:8: error: call to undefined function '@g'
func.func @f() {
  %0 = func.call @g() : () -> tensor<f32>
  func.return
}

// -----
// CHECK: errors.mlir:[[@LINE+1]]:246: error: nesting too deep (more than 200 levels)
func.func @f() { %0 = stablehlo.constant {a = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[

// -----
// CHECK: errors.mlir:[[@LINE+2]]:16: error: unterminated body of '@f': expected '}'
module {
func.func @f() {
  func.return

// -----
// CHECK: errors.mlir:[[@LINE+1]]:1: error: expected 'func.func' or 'module', found 'garbage'
garbage
