// RUN: xlac verify --verify-diagnostics --split-input-file %s

func.func @dot_contracting(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{contracting dimension sizes must match: lhs dimension 1 has size 3, rhs dimension 0 has size 4}}
  %r = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

func.func @dot_result(%a: tensor<7x2x3xf32>, %b: tensor<7x3x5xf32>) -> tensor<2x7x5xf32> {
  // expected-error @+1 {{'stablehlo.dot_general' op inferred shape [7, 2, 5] is incompatible with result type tensor<2x7x5xf32>}}
  %r = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<7x2x3xf32>, tensor<7x3x5xf32>) -> tensor<2x7x5xf32>
  func.return %r : tensor<2x7x5xf32>
}

// -----

func.func @dot_duplicate(%a: tensor<3x3xf32>, %b: tensor<3x3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{lhs batching and contracting dimensions has duplicate value 0}}
  %r = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [1]>} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

func.func @reduce_shape(%a: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<3xf32> {
  // expected-error @+1 {{'stablehlo.reduce' op inferred shape [2] is incompatible with result type tensor<3xf32>}}
  %r = "stablehlo.reduce"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

func.func @reduce_region(%a: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{reduction region must take 2 arguments, got 1}}
  %r = "stablehlo.reduce"(%a, %z) ({
    ^bb0(%x: tensor<f32>):
      "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @reduce_region_type(%a: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{reduction region must return tensor<f32> for value #0, got tensor<i32>}}
  %r = "stablehlo.reduce"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %c = "stablehlo.convert"(%x) : (tensor<f32>) -> tensor<i32>
      "stablehlo.return"(%c) : (tensor<i32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @reduce_window_shape(%a: tensor<4x6xf32>, %z: tensor<f32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'stablehlo.reduce_window' op inferred shape [2, 3] is incompatible with result type tensor<2x2xf32>}}
  %r = "stablehlo.reduce_window"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = "stablehlo.maximum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x2xf32>
  func.return %r : tensor<2x2xf32>
}

// -----

func.func @sort_comparator(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.sort' op comparator must return tensor<i1>, got tensor<f32>}}
  %r = "stablehlo.sort"(%a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {dimension = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @sort_dimension(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.sort' op dimension 1 is out of range for rank 1}}
  %r = "stablehlo.sort"(%a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %c = "stablehlo.compare"(%x, %y) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }) {dimension = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @while_cond(%a: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'stablehlo.while' op cond region must return a single tensor<i1>}}
  %r = "stablehlo.while"(%a) ({
    ^bb0(%x: tensor<i32>):
      "stablehlo.return"(%x) : (tensor<i32>) -> ()
  }, {
    ^bb0(%x: tensor<i32>):
      "stablehlo.return"(%x) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  func.return %r : tensor<i32>
}

// -----

func.func @if_branch_types(%p: tensor<i1>, %a: tensor<f32>, %b: tensor<i32>) -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.if' op branch #1 returns tensor<i32> for result #0 of type tensor<f32>}}
  %r = "stablehlo.if"(%p) ({
    "stablehlo.return"(%a) : (tensor<f32>) -> ()
  }, {
    "stablehlo.return"(%b) : (tensor<i32>) -> ()
  }) : (tensor<i1>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

func.func @case_index(%i: tensor<i64>, %a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.case' op index must be tensor<i32>, got tensor<i64>}}
  %r = "stablehlo.case"(%i) ({
    "stablehlo.return"(%a) : (tensor<f32>) -> ()
  }) : (tensor<i64>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

func.func @return_type(%a: tensor<2xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{type of return operand 0 (tensor<2xf32>) doesn't match function result type (tensor<2xi32>)}}
  func.return %a : tensor<2xf32>
}

// -----

func.func @callee(%a: tensor<2xf32>) -> tensor<2xf32> {
  func.return %a : tensor<2xf32>
}
func.func @call_types(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'func.call' op operand #0 type tensor<3xf32> does not match @callee's argument type tensor<2xf32>}}
  %r = "func.call"(%a) {callee = @callee} : (tensor<3xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

func.func @gather_slice_sizes(%a: tensor<3x4xf32>, %i: tensor<2x1xi32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'stablehlo.gather' op slice size 5 of dimension 1 is out of range [0, 4]}}
  %r = "stablehlo.gather"(%a, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 5>} : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

func.func @gather_result(%a: tensor<3x4xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'stablehlo.gather' op inferred shape [2, 4] is incompatible with result type tensor<2x3xf32>}}
  %r = "stablehlo.gather"(%a, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

func.func @scatter_index_map(%a: tensor<3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{scatter_dims_to_operand_dims and input_batching_dims value 2 is out of range [0, 2)}}
  %r = "stablehlo.scatter"(%a, %i, %u) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      "stablehlo.return"(%y) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [2], index_vector_dim = 1>} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// -----

func.func @conv_result(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op inferred shape [1, 6, 6, 16] is incompatible with result type tensor<1x8x8x16xf32>}}
  %r = "stablehlo.convolution"(%x, %k) {
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  func.return %r : tensor<1x8x8x16xf32>
}

// -----

func.func @conv_features(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x4x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error @+1 {{kernel input feature dimension (4) must equal input feature dimension / feature_group_count (3)}}
  %r = "stablehlo.convolution"(%x, %k) {
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x8x8x3xf32>, tensor<3x3x4x16xf32>) -> tensor<1x6x6x16xf32>
  func.return %r : tensor<1x6x6x16xf32>
}
