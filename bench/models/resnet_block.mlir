module @jit__resnet_block attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64xf32>, %arg3: tensor<64xf32>, %arg4: tensor<3x3x64x64xf32>, %arg5: tensor<3x3x64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<64xf32>, %arg8: tensor<64xf32>, %arg9: tensor<64xf32>, %arg10: tensor<4x56x56x64xf32>) -> (tensor<4x56x56x64xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg10, %arg4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<4x56x56x64xf32>
    %1 = stablehlo.broadcast_in_dim %arg6, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %3 = stablehlo.subtract %0, %2 : tensor<4x56x56x64xf32>
    %cst = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %5 = stablehlo.add %arg7, %4 : tensor<64xf32>
    %6 = stablehlo.rsqrt %5 : tensor<64xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %9 = stablehlo.multiply %3, %8 : tensor<4x56x56x64xf32>
    %10 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %12 = stablehlo.multiply %9, %11 : tensor<4x56x56x64xf32>
    %13 = stablehlo.broadcast_in_dim %arg0, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %15 = stablehlo.add %12, %14 : tensor<4x56x56x64xf32>
    %16 = call @relu(%15) : (tensor<4x56x56x64xf32>) -> tensor<4x56x56x64xf32>
    %17 = stablehlo.convolution(%16, %arg5) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<4x56x56x64xf32>
    %18 = stablehlo.broadcast_in_dim %arg8, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %20 = stablehlo.subtract %17, %19 : tensor<4x56x56x64xf32>
    %cst_0 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %22 = stablehlo.add %arg9, %21 : tensor<64xf32>
    %23 = stablehlo.rsqrt %22 : tensor<64xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %26 = stablehlo.multiply %20, %25 : tensor<4x56x56x64xf32>
    %27 = stablehlo.broadcast_in_dim %arg3, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %29 = stablehlo.multiply %26, %28 : tensor<4x56x56x64xf32>
    %30 = stablehlo.broadcast_in_dim %arg1, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %32 = stablehlo.add %29, %31 : tensor<4x56x56x64xf32>
    %33 = stablehlo.add %32, %arg10 : tensor<4x56x56x64xf32>
    %34 = call @relu(%33) : (tensor<4x56x56x64xf32>) -> tensor<4x56x56x64xf32>
    return %34 : tensor<4x56x56x64xf32>
  }
  func.func private @relu(%arg0: tensor<4x56x56x64xf32>) -> tensor<4x56x56x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x56x56x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x56x56x64xf32>
    return %1 : tensor<4x56x56x64xf32>
  }
}
