module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<256x256xf32>, %arg1: tensor<256x768xf32>, %arg2: tensor<4x256x256xf32>) -> (tensor<4x256x256xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg2, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x256x256xf32>, tensor<256x768xf32>) -> tensor<4x256x768xf32>
    %1 = stablehlo.slice %0 [0:4, 0:256, 0:256] : (tensor<4x256x768xf32>) -> tensor<4x256x256xf32>
    %2 = stablehlo.slice %0 [0:4, 0:256, 256:512] : (tensor<4x256x768xf32>) -> tensor<4x256x256xf32>
    %3 = stablehlo.slice %0 [0:4, 0:256, 512:768] : (tensor<4x256x768xf32>) -> tensor<4x256x256xf32>
    %4 = stablehlo.reshape %1 : (tensor<4x256x256xf32>) -> tensor<4x256x8x32xf32>
    %5 = stablehlo.reshape %2 : (tensor<4x256x256xf32>) -> tensor<4x256x8x32xf32>
    %6 = stablehlo.reshape %3 : (tensor<4x256x256xf32>) -> tensor<4x256x8x32xf32>
    %7 = stablehlo.dot_general %4, %5, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x256x8x32xf32>, tensor<4x256x8x32xf32>) -> tensor<4x8x256x256xf32>
    %cst = stablehlo.constant dense<5.65685415> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x256x256xf32>
    %9 = stablehlo.divide %7, %8 : tensor<4x8x256x256xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %10 = stablehlo.reduce(%9 init: %cst_0) applies stablehlo.maximum across dimensions = [3] : (tensor<4x8x256x256xf32>, tensor<f32>) -> tensor<4x8x256xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x8x256xf32>
    %12 = stablehlo.maximum %11, %10 : tensor<4x8x256xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2] : (tensor<4x8x256xf32>) -> tensor<4x8x256x1xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2, 3] : (tensor<4x8x256x1xf32>) -> tensor<4x8x256x256xf32>
    %15 = stablehlo.subtract %9, %14 : tensor<4x8x256x256xf32>
    %16 = stablehlo.exponential %15 : tensor<4x8x256x256xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.reduce(%16 init: %cst_2) applies stablehlo.add across dimensions = [3] : (tensor<4x8x256x256xf32>, tensor<f32>) -> tensor<4x8x256xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1, 2] : (tensor<4x8x256xf32>) -> tensor<4x8x256x1xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2, 3] : (tensor<4x8x256x1xf32>) -> tensor<4x8x256x256xf32>
    %20 = stablehlo.divide %16, %19 : tensor<4x8x256x256xf32>
    %21 = stablehlo.dot_general %6, %20, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x256x8x32xf32>, tensor<4x8x256x256xf32>) -> tensor<4x8x32x256xf32>
    %22 = stablehlo.transpose %21, dims = [0, 3, 1, 2] : (tensor<4x8x32x256xf32>) -> tensor<4x256x8x32xf32>
    %23 = stablehlo.reshape %22 : (tensor<4x256x8x32xf32>) -> tensor<4x256x256xf32>
    %24 = stablehlo.dot_general %23, %arg0, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x256x256xf32>, tensor<256x256xf32>) -> tensor<4x256x256xf32>
    return %24 : tensor<4x256x256xf32>
  }
}
