// A convolution of a zero pad along its spatial dimensions, by a constant
// kernel whose every element is finite, takes the pad's edges as more
// padding (Keras' ZeroPadding2D before a strided convolution): no padded
// copy.  The pad stays for a kernel that is not a constant, one with an
// infinity (0 * inf is NaN where the padding would add nothing), a pad that
// is not zero, one along the features, and a dilated input.  The
// interpreter gives the same bits before and after.
// RUN: xlac opt --pass simplify %s | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t/a %t/b
// RUN: xlac run --random-inputs --seed 5 %s --output-dir %t/a > /dev/null
// RUN: xlac opt --pass simplify %s | xlac run --random-inputs --seed 5 - --output-dir %t/b > /dev/null
// RUN: diff -r %t/a %t/b
// The compiled code agrees with the interpreter.
// RUN: xlac compare --random-inputs %s | FileCheck %s --check-prefix=CMP
// CMP-COUNT-6: max abs error {{(0|[0-9.]+e-(0[6-9]|[1-9][0-9]))}},

// CHECK-LABEL: func.func @main
// CHECK: %[[P0:[0-9]+]] = "stablehlo.pad"(%arg0
// CHECK: "stablehlo.convolution"(%arg0, {{.*}} padding = dense<{{\[\[}}1, 2], [0, 1]]>
// CHECK: "stablehlo.convolution"(%[[P0]], %arg1)
// CHECK: %[[P2:[0-9]+]] = "stablehlo.pad"(%arg0
// CHECK: "stablehlo.convolution"(%[[P2]],
// CHECK: %[[P3:[0-9]+]] = "stablehlo.pad"(%arg0
// CHECK: "stablehlo.convolution"(%[[P3]],
// CHECK: %[[P4:[0-9]+]] = "stablehlo.pad"(%arg0
// CHECK: "stablehlo.convolution"(%[[P4]],
// CHECK: "stablehlo.convolution"(%[[P2]],
func.func @main(%x: tensor<2x7x6x3xf32>, %kp: tensor<3x3x3x4xf32>)
    -> (tensor<2x4x3x4xf32>, tensor<2x4x3x4xf32>, tensor<2x4x3x4xf32>, tensor<2x4x3x4xf32>, tensor<2x3x3x4xf32>,
        tensor<2x7x6x4xf32>) {
  %k = stablehlo.constant dense<[[[[0.5, -1.0, 0.25, 2.0], [1.5, -0.5, 0.75, -2.0], [0.125, 1.0, -1.25, 0.5]],
                                  [[-0.5, 1.0, 0.25, -2.0], [1.0, 0.5, -0.75, 2.0], [0.25, -1.0, 1.25, 0.5]],
                                  [[0.5, 1.0, -0.25, 2.0], [-1.5, 0.5, 0.75, 2.0], [0.125, -1.0, 1.25, -0.5]]],
                                 [[[1.0, -1.0, 0.5, 2.0], [0.5, -0.5, 0.75, -1.0], [0.25, 1.0, -1.5, 0.5]],
                                  [[-1.0, 1.0, 0.5, -2.0], [2.0, 0.5, -0.25, 2.0], [0.5, -1.0, 1.0, 0.5]],
                                  [[1.0, 1.0, -0.5, 2.0], [-0.5, 0.5, 0.25, 2.0], [0.25, -1.0, 1.0, -0.5]]],
                                 [[[0.5, -2.0, 0.5, 1.0], [1.5, -0.5, 0.5, -2.0], [0.5, 1.0, -1.25, 0.25]],
                                  [[-0.5, 2.0, 0.25, -1.0], [1.0, 0.25, -0.75, 2.0], [0.25, -2.0, 1.25, 0.5]],
                                  [[0.5, 2.0, -0.25, 1.0], [-1.5, 0.25, 0.75, 2.0], [0.125, -2.0, 1.25, -0.25]]]]> : tensor<3x3x3x4xf32>
  %kinf = stablehlo.constant dense<0x7F800000> : tensor<3x3x3x4xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  // folded: stride 2, the pad's (1, 1) x (0, 1) added to the (0, 1) x (0, 0) padding
  %p0 = stablehlo.pad %x, %zero, low = [0, 1, 0, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<2x7x6x3xf32>, tensor<f32>) -> tensor<2x9x7x3xf32>
  %y0 = stablehlo.convolution(%p0, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x4x3x4xf32>
  // a kernel that is not a constant
  %y1 = stablehlo.convolution(%p0, %kp) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x4x3x4xf32>
  // an infinite kernel
  %p2 = stablehlo.pad %x, %zero, low = [0, 1, 0, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<2x7x6x3xf32>, tensor<f32>) -> tensor<2x9x7x3xf32>
  %y2 = stablehlo.convolution(%p2, %kinf) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x4x3x4xf32>
  // padding by one, not zero
  %p3 = stablehlo.pad %x, %one, low = [0, 1, 0, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<2x7x6x3xf32>, tensor<f32>) -> tensor<2x9x7x3xf32>
  %y3 = stablehlo.convolution(%p3, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x4x3x4xf32>
  // along the features too (a kernel with more input features)
  %p4 = stablehlo.pad %x, %zero, low = [0, 0, 0, 0], high = [0, 0, 0, 1], interior = [0, 0, 0, 0] : (tensor<2x7x6x3xf32>, tensor<f32>) -> tensor<2x7x6x4xf32>
  %k4 = stablehlo.pad %k, %zero, low = [0, 0, 0, 0], high = [0, 0, 1, 0], interior = [0, 0, 0, 0] : (tensor<3x3x3x4xf32>, tensor<f32>) -> tensor<3x3x4x4xf32>
  %y4 = stablehlo.convolution(%p4, %k4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x7x6x4xf32>, tensor<3x3x4x4xf32>) -> tensor<2x3x3x4xf32>
  // a dilated input
  %y5 = stablehlo.convolution(%p2, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [3, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x5x5x4xf32>
  %y5s = stablehlo.pad %y5, %zero, low = [0, 2, 1, 0], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<2x5x5x4xf32>, tensor<f32>) -> tensor<2x7x6x4xf32>
  return %y0, %y1, %y2, %y3, %y4, %y5s : tensor<2x4x3x4xf32>, tensor<2x4x3x4xf32>, tensor<2x4x3x4xf32>, tensor<2x4x3x4xf32>, tensor<2x3x3x4xf32>, tensor<2x7x6x4xf32>
}
