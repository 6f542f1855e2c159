// Pretty (custom assembly) forms normalize to the generic attribute names.
// RUN: xlac print %s > %t1 && xlac print %t1 > %t2 && diff %t1 %t2
// RUN: FileCheck %s < %t1
func.func @main(%x: tensor<4x6xf32>, %z: tensor<f32>, %i: tensor<i64>, %k: tensor<3x3x6x2xf32>) -> tensor<4xf32> {
  // CHECK: "stablehlo.reduce"(%arg0, %arg1) ({
  // CHECK-NEXT: ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
  // CHECK-NEXT: stablehlo.add %arg4, %arg5 : tensor<f32>
  // CHECK: {dimensions = array<i64: 1>}
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: "stablehlo.reduce"
  // CHECK: stablehlo.maximum
  %1 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }
  // CHECK: "stablehlo.slice"(%arg0) {start_indices = array<i64: 1, 0>, limit_indices = array<i64: 3, 6>, strides = array<i64: 1, 2>}
  %2 = stablehlo.slice %x [1:3, 0:6:2] : (tensor<4x6xf32>) -> tensor<2x3xf32>
  // CHECK: {edge_padding_low = array<i64: 0, 1>, edge_padding_high = array<i64: 1, 0>, interior_padding = array<i64: 0, 0>}
  %3 = stablehlo.pad %x, %z, low = [0, 1], high = [1, 0], interior = [0, 0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<5x7xf32>
  // CHECK: "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4xi64>
  %4 = stablehlo.iota dim = 0 : tensor<4xi64>
  // CHECK: {slice_sizes = array<i64: 2, 2>}
  %5 = stablehlo.dynamic_slice %x, %i, %i, sizes = [2, 2] : (tensor<4x6xf32>, tensor<i64>, tensor<i64>) -> tensor<2x2xf32>
  // CHECK: "stablehlo.concatenate"({{.*}}) {dimension = 0 : i64}
  %6 = stablehlo.concatenate %0, %1, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  // CHECK: precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]
  // CHECK-SAME: dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>
  %7 = stablehlo.dot_general %x, %x, contracting_dims = [1] x [1], precision = [DEFAULT, HIGHEST] : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x4xf32>
  // CHECK: "stablehlo.while"(%arg2, %arg1) ({
  // CHECK: }, {
  %8:2 = stablehlo.while(%iv = %i, %acc = %z) : tensor<i64>, tensor<f32>
   cond {
    %c = stablehlo.compare LT, %iv, %i : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %s = stablehlo.add %acc, %z : tensor<f32>
    stablehlo.return %iv, %s : tensor<i64>, tensor<f32>
  }
  // CHECK: {call_target_name = "foo", backend_config = "\22x\22", api_version = 2 : i32}
  %9 = stablehlo.custom_call @foo(%x) {backend_config = "\22x\22", api_version = 2 : i32} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  // CHECK: {comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type FLOAT>}
  %p = stablehlo.compare GT, %0, %1, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: "stablehlo.select"({{.*}}) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %10 = stablehlo.select %p, %0, %1 : tensor<4xi1>, tensor<4xf32>
  // CHECK: {permutation = array<i64: 1, 0>}
  %11 = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
  // CHECK: dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>
  // CHECK-SAME: window_strides = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, batch_group_count = 1 : i64, feature_group_count = 1 : i64
  %img = stablehlo.reshape %x : (tensor<4x6xf32>) -> tensor<1x4x1x6xf32>
  %12 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [0, 0]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x1x6xf32>, tensor<3x3x6x2xf32>) -> tensor<1x4x1x2xf32>
  // CHECK: "stablehlo.get_tuple_element"({{.*}}) {index = 1 : i32}
  %t = stablehlo.tuple %z, %i : tuple<tensor<f32>, tensor<i64>>
  %13 = stablehlo.get_tuple_element %t[1] : (tuple<tensor<f32>, tensor<i64>>) -> tensor<i64>
  // CHECK: {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
  %st = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  %14:2 = stablehlo.rng_bit_generator %st, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui32>)
  // CHECK: {name = "my.op", decomposition = @helper}
  %15 = stablehlo.composite "my.op" %z {decomposition = @helper} : (tensor<f32>) -> tensor<f32>
  // CHECK: "stablehlo.optimization_barrier"({{.*}}) : (tensor<f32>, tensor<i64>) -> (tensor<f32>, tensor<i64>)
  %16:2 = stablehlo.optimization_barrier %z, %i : tensor<f32>, tensor<i64>
  // CHECK: "chlo.erf"
  %17 = chlo.erf %x : tensor<4x6xf32> -> tensor<4x6xf32>
  // CHECK: "chlo.top_k"({{.*}}) {k = 2 : i64} : (tensor<4x6xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  %18:2 = chlo.top_k(%x, k = 2) : tensor<4x6xf32> -> (tensor<4x2xf32>, tensor<4x2xi32>)
  // CHECK: {exponent_bits = 5 : i32, mantissa_bits = 10 : i32}
  %19 = stablehlo.reduce_precision %x, format = e5m10 : tensor<4x6xf32>
  // CHECK: "stablehlo.broadcast_in_dim"(%arg1) {broadcast_dimensions = array<i64>}
  %20 = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func private @helper(%a: tensor<f32>) -> tensor<f32> {
  return %a : tensor<f32>
}
