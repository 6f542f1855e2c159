module @jit__resnet_block attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64xbf16>, %arg1: tensor<64xbf16>, %arg2: tensor<64xbf16>, %arg3: tensor<64xbf16>, %arg4: tensor<3x3x64x64xbf16>, %arg5: tensor<3x3x64x64xbf16>, %arg6: tensor<64xbf16>, %arg7: tensor<64xbf16>, %arg8: tensor<64xbf16>, %arg9: tensor<64xbf16>, %arg10: tensor<4x56x56x64xbf16>) -> (tensor<4x56x56x64xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg10, %arg4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x56x56x64xbf16>, tensor<3x3x64x64xbf16>) -> tensor<4x56x56x64xbf16>
    %1 = stablehlo.broadcast_in_dim %arg6, dims = [3] : (tensor<64xbf16>) -> tensor<1x1x1x64xbf16>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xbf16>) -> tensor<4x56x56x64xbf16>
    %3 = stablehlo.subtract %0, %2 : tensor<4x56x56x64xbf16>
    %cst = stablehlo.constant dense<1.001360e-05> : tensor<bf16>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<64xbf16>
    %5 = stablehlo.add %arg7, %4 : tensor<64xbf16>
    %6 = stablehlo.rsqrt %5 : tensor<64xbf16>
    %7 = stablehlo.broadcast_in_dim %6, dims = [3] : (tensor<64xbf16>) -> tensor<1x1x1x64xbf16>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xbf16>) -> tensor<4x56x56x64xbf16>
    %9 = stablehlo.multiply %3, %8 : tensor<4x56x56x64xbf16>
    %10 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<64xbf16>) -> tensor<1x1x1x64xbf16>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xbf16>) -> tensor<4x56x56x64xbf16>
    %12 = stablehlo.multiply %9, %11 : tensor<4x56x56x64xbf16>
    %13 = stablehlo.broadcast_in_dim %arg0, dims = [3] : (tensor<64xbf16>) -> tensor<1x1x1x64xbf16>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xbf16>) -> tensor<4x56x56x64xbf16>
    %15 = stablehlo.add %12, %14 : tensor<4x56x56x64xbf16>
    %16 = call @relu(%15) : (tensor<4x56x56x64xbf16>) -> tensor<4x56x56x64xbf16>
    %17 = stablehlo.convolution(%16, %arg5) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x56x56x64xbf16>, tensor<3x3x64x64xbf16>) -> tensor<4x56x56x64xbf16>
    %18 = stablehlo.broadcast_in_dim %arg8, dims = [3] : (tensor<64xbf16>) -> tensor<1x1x1x64xbf16>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xbf16>) -> tensor<4x56x56x64xbf16>
    %20 = stablehlo.subtract %17, %19 : tensor<4x56x56x64xbf16>
    %cst_0 = stablehlo.constant dense<1.001360e-05> : tensor<bf16>
    %21 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<64xbf16>
    %22 = stablehlo.add %arg9, %21 : tensor<64xbf16>
    %23 = stablehlo.rsqrt %22 : tensor<64xbf16>
    %24 = stablehlo.broadcast_in_dim %23, dims = [3] : (tensor<64xbf16>) -> tensor<1x1x1x64xbf16>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xbf16>) -> tensor<4x56x56x64xbf16>
    %26 = stablehlo.multiply %20, %25 : tensor<4x56x56x64xbf16>
    %27 = stablehlo.broadcast_in_dim %arg3, dims = [3] : (tensor<64xbf16>) -> tensor<1x1x1x64xbf16>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xbf16>) -> tensor<4x56x56x64xbf16>
    %29 = stablehlo.multiply %26, %28 : tensor<4x56x56x64xbf16>
    %30 = stablehlo.broadcast_in_dim %arg1, dims = [3] : (tensor<64xbf16>) -> tensor<1x1x1x64xbf16>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xbf16>) -> tensor<4x56x56x64xbf16>
    %32 = stablehlo.add %29, %31 : tensor<4x56x56x64xbf16>
    %33 = stablehlo.add %32, %arg10 : tensor<4x56x56x64xbf16>
    %34 = call @relu(%33) : (tensor<4x56x56x64xbf16>) -> tensor<4x56x56x64xbf16>
    return %34 : tensor<4x56x56x64xbf16>
  }
  func.func private @relu(%arg0: tensor<4x56x56x64xbf16>) -> tensor<4x56x56x64xbf16> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<4x56x56x64xbf16>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x56x56x64xbf16>
    return %1 : tensor<4x56x56x64xbf16>
  }
}
