// RUN: xlac run --random-inputs --seed 7 --print-all %s > %t.direct
// RUN: xlac opt --pass legalize %s | xlac run --random-inputs --seed 7 --print-all - > %t.legalized
// RUN: diff %t.direct %t.legalized
// RUN: xlac opt --pass legalize %s | FileCheck %s
// RUN: xlac opt --pass legalize --pass drop-barriers %s | FileCheck %s --check-prefix=DROP
// What legalize leaves alone: padding and slice bounds that are not
// constants, einsums without repeated letters (expand lowers those), maps
// with a non-elementwise body; and what it does to maps.  drop-barriers
// forwards a barrier's operands.
// CHECK-LABEL: func.func @main
// CHECK: stablehlo.optimization_barrier
// CHECK: stablehlo.dynamic_pad
// CHECK: stablehlo.real_dynamic_slice
// CHECK: stablehlo.dynamic_conv
// CHECK: "stablehlo.einsum"
// CHECK-SAME: einsum_config = "ij,jk->ik"
// CHECK: stablehlo.map
// CHECK: stablehlo.reshape
// CHECK-NOT: stablehlo.map
// CHECK: %[[P:[0-9]+]] = "stablehlo.compare"(%arg0, %[[K:[0-9]+]])
// CHECK: "stablehlo.select"(%[[P]], %arg0, %[[K]])
// CHECK: func.return
// DROP-NOT: optimization_barrier
func.func @main(%x: tensor<3x4xf32>, %y: tensor<4x2xf32>, %w: tensor<3x4xf32>) ->
    (tensor<5x8xf32>, tensor<2x2xf32>, tensor<1x1x3x4xf32>, tensor<3x2xf32>, tensor<3x4xf32>, tensor<3x4xf32>) {
  %pv = stablehlo.constant dense<0.0> : tensor<f32>
  %a0 = stablehlo.constant dense<[[1, 0], [1, 1], [0, 1]]> : tensor<3x2xi64>
  %a = stablehlo.optimization_barrier %a0 : tensor<3x2xi64>
  %lo = stablehlo.slice %a [0:1, 0:2] : (tensor<3x2xi64>) -> tensor<1x2xi64>
  %hi = stablehlo.slice %a [1:2, 0:2] : (tensor<3x2xi64>) -> tensor<1x2xi64>
  %in = stablehlo.slice %a [2:3, 0:2] : (tensor<3x2xi64>) -> tensor<1x2xi64>
  %lo1 = stablehlo.reshape %lo : (tensor<1x2xi64>) -> tensor<2xi64>
  %hi1 = stablehlo.reshape %hi : (tensor<1x2xi64>) -> tensor<2xi64>
  %in1 = stablehlo.reshape %in : (tensor<1x2xi64>) -> tensor<2xi64>
  %dp = stablehlo.dynamic_pad %x, %pv, %lo1, %hi1, %in1 : (tensor<3x4xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<5x8xf32>
  %one = stablehlo.constant dense<[1, 1]> : tensor<2xi64>
  %li = stablehlo.add %in1, %one : tensor<2xi64>
  %rs = stablehlo.real_dynamic_slice %x, %in1, %li, %one : (tensor<3x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1xf32>
  %rs2 = stablehlo.concatenate %rs, %rs, dim = 0 : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<2x1xf32>
  %rs3 = stablehlo.concatenate %rs2, %rs2, dim = 1 : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x2xf32>
  %x4 = stablehlo.reshape %x : (tensor<3x4xf32>) -> tensor<1x1x3x4xf32>
  %k = stablehlo.constant dense<1.0> : tensor<1x1x1x1xf32>
  %a2 = stablehlo.slice %a [0:2, 0:2] : (tensor<3x2xi64>) -> tensor<2x2xi64>
  %cp = stablehlo.subtract %a2, %a2 : tensor<2x2xi64>
  %cv = "stablehlo.dynamic_conv"(%x4, %k, %cp) {
    window_strides = array<i64: 1, 1>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>,
    dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>,
    batch_group_count = 1 : i64, feature_group_count = 1 : i64
  } : (tensor<1x1x3x4xf32>, tensor<1x1x1x1xf32>, tensor<2x2xi64>) -> tensor<1x1x3x4xf32>
  %e = "stablehlo.einsum"(%x, %y) {einsum_config = "ij,jk->ik"} : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %m1 = "stablehlo.map"(%x) ({
    ^bb0(%s: tensor<f32>):
      %r1 = stablehlo.reshape %s : (tensor<f32>) -> tensor<1xf32>
      %r = stablehlo.reshape %r1 : (tensor<1xf32>) -> tensor<f32>
      stablehlo.return %r : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %m2 = "stablehlo.map"(%x, %w) ({
    ^bb0(%s: tensor<f32>, %t: tensor<f32>):
      %z = stablehlo.constant dense<0.25> : tensor<f32>
      %p = stablehlo.compare GT, %s, %z : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %r = stablehlo.select %p, %s, %z : tensor<i1>, tensor<f32>
      %u = stablehlo.multiply %r, %t : tensor<f32>
      stablehlo.return %u : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %dp, %rs3, %cv, %e, %m1, %m2 : tensor<5x8xf32>, tensor<2x2xf32>, tensor<1x1x3x4xf32>, tensor<3x2xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}
