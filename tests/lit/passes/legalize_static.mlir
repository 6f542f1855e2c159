// RUN: xlac run --random-inputs --seed 3 --print-all %s > %t.direct
// RUN: xlac opt --pass legalize %s | xlac run --random-inputs --seed 3 --print-all - > %t.legalized
// RUN: diff %t.direct %t.legalized
// RUN: xlac opt --pass legalize %s | FileCheck %s
// The legalize pass: deprecated and dynamic shape ops become the static ops
// the code generator compiles, computing identical values.
// CHECK-LABEL: func.func @main
// CHECK: "stablehlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<2x3xf32>) -> tensor<4x2x3xf32>
// CHECK: "stablehlo.broadcast_in_dim"(%arg1) {broadcast_dimensions = array<i64: 0>} : (tensor<3xi32>) -> tensor<3x5xi32>
// CHECK: "stablehlo.reshape"(%arg0) : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK: "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x4xui32>
// CHECK: "stablehlo.pad"(%arg0, %{{[0-9]+}}) {edge_padding_low = array<i64: 1, -1>, edge_padding_high = array<i64: 0, 2>, interior_padding = array<i64: 0, 1>}
// CHECK: "stablehlo.slice"(%arg0) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 2, 3>, strides = array<i64: 1, 2>}
// CHECK: "stablehlo.gather"(%arg0, %{{[0-9]+}})
// CHECK-SAME: #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], operand_batching_dims = [], start_indices_batching_dims = [], start_index_map = [1], index_vector_dim = 1>
// CHECK-SAME: slice_sizes = array<i64: 2, 1>
// CHECK: stablehlo.constant dense<3> : tensor<i32>
// CHECK: "stablehlo.pad"(%arg0, %{{[0-9]+}}) {edge_padding_low = array<i64: 0, 0>, edge_padding_high = array<i64: 1, -1>, interior_padding = array<i64: 0, 0>}
// CHECK-NOT: stablehlo.broadcast"
// CHECK-NOT: stablehlo.dynamic
// CHECK-NOT: real_dynamic_slice
// CHECK-NOT: torch_index_select
// CHECK-NOT: dimension_size
// CHECK: func.return
func.func @main(%x: tensor<2x3xf32>, %i: tensor<3xi32>, %n: tensor<i32>) ->
    (tensor<4x2x3xf32>, tensor<3x5xi32>, tensor<6xf32>, tensor<2x4xui32>, tensor<3x6xf32>, tensor<2x1xf32>,
     tensor<2x3xf32>, tensor<i32>, tensor<2x3xf32>, tensor<3x2xf32>) {
  %b = "stablehlo.broadcast"(%x) {broadcast_sizes = array<i64: 4>} : (tensor<2x3xf32>) -> tensor<4x2x3xf32>
  %s35 = stablehlo.constant dense<[3, 5]> : tensor<2xi64>
  %db = "stablehlo.dynamic_broadcast_in_dim"(%i, %s35) {broadcast_dimensions = array<i64: 0>} : (tensor<3xi32>, tensor<2xi64>) -> tensor<3x5xi32>
  %s6 = stablehlo.constant dense<6> : tensor<1xi32>
  %dr = stablehlo.dynamic_reshape %x, %s6 : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<6xf32>
  %s24 = stablehlo.constant dense<[2, 4]> : tensor<2xi64>
  %io = stablehlo.dynamic_iota %s24, dim = 1 : (tensor<2xi64>) -> tensor<2x4xui32>
  %pv = stablehlo.constant dense<-1.0> : tensor<f32>
  %lo = stablehlo.constant dense<[1, -1]> : tensor<2xi64>
  %hi = stablehlo.constant dense<[0, 2]> : tensor<2xi64>
  %in = stablehlo.constant dense<[0, 1]> : tensor<2xi64>
  %dp = stablehlo.dynamic_pad %x, %pv, %lo, %hi, %in : (tensor<2x3xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<3x6xf32>
  %st = stablehlo.constant dense<[0, 1]> : tensor<2xi64>
  %li = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %sr = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %rs = stablehlo.real_dynamic_slice %x, %st, %li, %sr : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x1xf32>
  %k = stablehlo.constant dense<[2, 0, 2]> : tensor<3xi32>
  %ts = "stablehlo.torch_index_select"(%x, %k) {dim = 1 : i64, batch_dims = 0 : i64} : (tensor<2x3xf32>, tensor<3xi32>) -> tensor<2x3xf32>
  %gd = stablehlo.get_dimension_size %x, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>
  %sd = "stablehlo.set_dimension_size"(%x, %n) {dimension = 1 : i64} : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
  %sd2 = "stablehlo.set_dimension_size"(%x, %n) {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<i32>) -> tensor<3x2xf32>
  func.return %b, %db, %dr, %io, %dp, %rs, %ts, %gd, %sd, %sd2 :
    tensor<4x2x3xf32>, tensor<3x5xi32>, tensor<6xf32>, tensor<2x4xui32>, tensor<3x6xf32>, tensor<2x1xf32>,
    tensor<2x3xf32>, tensor<i32>, tensor<2x3xf32>, tensor<3x2xf32>
}
