// RUN: xlac verify --verify-diagnostics --split-input-file %s
// RUN: not xlac opt --pipeline=cpu --split-input-file %s 2>&1 | FileCheck %s
// CHLO broadcasting ops are checked the way both backends broadcast: every
// operand stretches to the result (trailing dimensions aligned, or
// broadcast_dimensions for an operand of lower rank), each dimension 1 or
// the result's; element types as the plain op needs them.  Before, these
// verified and failed at run time on the interpreter, or after
// chlo-decompose in the cpu pipeline.
// CHECK-NOT: internal error

func.func @mismatch(%a: tensor<2xi32>, %b: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{'chlo.broadcast_add' op operand #0 dimension 0 of size 2 does not broadcast to result dimension 0 of size 3}}
  %r = "chlo.broadcast_add"(%a, %b) : (tensor<2xi32>, tensor<3xi32>) -> tensor<3xi32>
  func.return %r : tensor<3xi32>
}

// -----

func.func @rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'chlo.broadcast_multiply' op operand #0 of rank 2 does not broadcast to the result tensor<3xf32>}}
  %r = "chlo.broadcast_multiply"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

func.func @broadcast_dimensions_count(%a: tensor<2x3xf32>, %b: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_multiply' op broadcast_dimensions has 2 entries but operand #1 has rank 1}}
  %r = "chlo.broadcast_multiply"(%a, %b) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

func.func @broadcast_dimensions_range(%a: tensor<2x3xf32>, %b: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_multiply' op broadcast_dimensions value 2 is out of range [0, 2)}}
  %r = "chlo.broadcast_multiply"(%a, %b) {broadcast_dimensions = array<i64: 2>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

func.func @broadcast_dimensions_size(%a: tensor<2x3xf32>, %b: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_multiply' op operand #1 dimension 0 of size 2 does not broadcast to result dimension 1 of size 3}}
  %r = "chlo.broadcast_multiply"(%a, %b) {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

func.func @element_types(%a: tensor<2xf32>, %b: tensor<2xf64>) -> tensor<2xf32> {
  // expected-error @+1 {{'chlo.broadcast_subtract' op requires the same element type for both operands, got tensor<2xf32> and tensor<2xf64>}}
  %r = "chlo.broadcast_subtract"(%a, %b) : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @element_class(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'chlo.broadcast_and' op operand #0 must be a tensor of boolean, signed integer or unsigned integer type, got tensor<2xf32>}}
  %r = "chlo.broadcast_and"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @compare_result(%a: tensor<2xf32>, %b: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'chlo.broadcast_compare' op result element type must be i1, got tensor<2xf32>}}
  %r = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction GT>} : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @select_pred(%p: tensor<2xi32>, %a: tensor<2xf32>, %b: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'chlo.broadcast_select' op pred must be a tensor of i1, got tensor<2xi32>}}
  %r = "chlo.broadcast_select"(%p, %a, %b) : (tensor<2xi32>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

// the misspelled direction that compiled as EQ
func.func @compare_direction(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {
  // expected-error @+1 {{'chlo.broadcast_compare' op attribute 'comparison_direction' must be EQ, NE, GE, GT, LE or LT, got EQQ}}
  %r = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction EQQ>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  func.return %r : tensor<2xi1>
}

// -----

// what does broadcast verifies, including size-1 dimensions on both sides
func.func @ok(%a: tensor<2x1xf32>, %b: tensor<3xf32>, %p: tensor<i1>) -> (tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xf32>) {
  %r = "chlo.broadcast_add"(%a, %b) : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %c = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction GE>, compare_type = #chlo<comparison_type TOTALORDER>} : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %s = "chlo.broadcast_select"(%p, %r, %b) : (tensor<i1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %r, %c, %s : tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xf32>
}
