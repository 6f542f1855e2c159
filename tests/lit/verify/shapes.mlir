// RUN: xlac verify --verify-diagnostics --split-input-file %s

func.func @broadcast_dims_count(%a: tensor<2xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{broadcast_dimensions has 2 entries but the operand has rank 1}}
  %r = "stablehlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2xf32>) -> tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}

// -----

func.func @broadcast_dims_size(%a: tensor<2xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{operand dimension 0 of size 2 is not compatible with result dimension 1 of size 4}}
  %r = "stablehlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 1>} : (tensor<2xf32>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// -----

func.func @broadcast_dims_range(%a: tensor<2xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{broadcast_dimensions value 2 is out of range [0, 2)}}
  %r = "stablehlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 2>} : (tensor<2xf32>) -> tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}

// -----

func.func @transpose_not_permutation(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{permutation has duplicate value 0}}
  %r = "stablehlo.transpose"(%a) {permutation = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}

// -----

func.func @transpose_shape(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'stablehlo.transpose' op inferred shape [3, 2] is incompatible with result type tensor<2x3xf32>}}
  %r = "stablehlo.transpose"(%a) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

func.func @reshape_count(%a: tensor<2x3xf32>) -> tensor<7xf32> {
  // expected-error @+1 {{'stablehlo.reshape' op number of elements differs}}
  %r = "stablehlo.reshape"(%a) : (tensor<2x3xf32>) -> tensor<7xf32>
  func.return %r : tensor<7xf32>
}

// -----

func.func @slice_bounds(%a: tensor<4xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{slice [3, 5) of dimension 0 is out of bounds of size 4}}
  %r = "stablehlo.slice"(%a) {start_indices = array<i64: 3>, limit_indices = array<i64: 5>, strides = array<i64: 1>} : (tensor<4xi32>) -> tensor<2xi32>
  func.return %r : tensor<2xi32>
}

// -----

func.func @slice_shape(%a: tensor<10xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{inferred shape [3] is incompatible with result type tensor<4xi32>}}
  %r = "stablehlo.slice"(%a) {start_indices = array<i64: 1>, limit_indices = array<i64: 8>, strides = array<i64: 3>} : (tensor<10xi32>) -> tensor<4xi32>
  func.return %r : tensor<4xi32>
}

// -----

func.func @concat_dims(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'stablehlo.concatenate' op inputs tensor<2x3xf32> and tensor<2x4xf32> differ in dimension 1}}
  %r = "stablehlo.concatenate"(%a, %b) {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}

// -----

func.func @concat_result(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{inferred shape [3, 3] is incompatible with result type tensor<4x3xf32>}}
  %r = "stablehlo.concatenate"(%a, %b) {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}

// -----

func.func @pad_shape(%a: tensor<3xf32>, %p: tensor<f32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.pad' op inferred shape [10] is incompatible with result type tensor<8xf32>}}
  %r = "stablehlo.pad"(%a, %p) {edge_padding_low = array<i64: 1>, edge_padding_high = array<i64: 2>, interior_padding = array<i64: 2>} : (tensor<3xf32>, tensor<f32>) -> tensor<8xf32>
  func.return %r : tensor<8xf32>
}

// -----

func.func @pad_interior(%a: tensor<3xf32>, %p: tensor<f32>) -> tensor<3xf32> {
  // expected-error @+1 {{interior_padding must be non-negative, got -1}}
  %r = "stablehlo.pad"(%a, %p) {edge_padding_low = array<i64: 0>, edge_padding_high = array<i64: 0>, interior_padding = array<i64: -1>} : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

func.func @iota_dim() -> tensor<4xi32> {
  // expected-error @+1 {{'stablehlo.iota' op iota_dimension 1 is out of range for tensor<4xi32>}}
  %r = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<4xi32>
  func.return %r : tensor<4xi32>
}

// -----

func.func @dynamic_slice_sizes(%a: tensor<4xf32>, %i: tensor<i32>) -> tensor<5xf32> {
  // expected-error @+1 {{slice size 5 of dimension 0 is out of range [0, 4]}}
  %r = "stablehlo.dynamic_slice"(%a, %i) {slice_sizes = array<i64: 5>} : (tensor<4xf32>, tensor<i32>) -> tensor<5xf32>
  func.return %r : tensor<5xf32>
}

// -----

func.func @dynamic_slice_result(%a: tensor<4xf32>, %i: tensor<i32>) -> tensor<3xf32> {
  // expected-error @+1 {{inferred shape [2] is incompatible with result type tensor<3xf32>}}
  %r = "stablehlo.dynamic_slice"(%a, %i) {slice_sizes = array<i64: 2>} : (tensor<4xf32>, tensor<i32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

func.func @dynamic_update_slice_fit(%a: tensor<4xf32>, %u: tensor<5xf32>, %i: tensor<i32>) -> tensor<4xf32> {
  // expected-error @+1 {{update tensor<5xf32> does not fit in operand tensor<4xf32>}}
  %r = "stablehlo.dynamic_update_slice"(%a, %u, %i) : (tensor<4xf32>, tensor<5xf32>, tensor<i32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @reverse_dims(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.reverse' op dimensions value 1 is out of range [0, 1)}}
  %r = "stablehlo.reverse"(%a) {dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @constant_type() -> tensor<3xf32> {
  // expected-error @+1 {{'stablehlo.constant' op value of type tensor<2xf32> does not match the result type tensor<3xf32>}}
  %r = "stablehlo.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

func.func @gte_range(%t: tuple<tensor<f32>>) -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.get_tuple_element' op index 1 is out of bounds of a tuple of 1 elements}}
  %r = "stablehlo.get_tuple_element"(%t) {index = 1 : i32} : (tuple<tensor<f32>>) -> tensor<f32>
  func.return %r : tensor<f32>
}
