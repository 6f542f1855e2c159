module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1024x1024xf32>) -> (tensor<1024x1024xf32> {jax.result_info = "result[0]"}, tensor<1024x513xcomplex<f32>> {jax.result_info = "result[1]"}) {
    %0 = call @cumsum(%arg0) : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %1 = call @fft(%arg0) : (tensor<1024x1024xf32>) -> tensor<1024x513xcomplex<f32>>
    return %0, %1 : tensor<1024x1024xf32>, tensor<1024x513xcomplex<f32>>
  }
  func.func private @cumsum(%arg0: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %0 = call @cumsum_0(%arg0) : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
  func.func private @cumsum_0(%arg0: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [1023, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 1024>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<1024x1024xf32>, tensor<f32>) -> tensor<1024x1024xf32>
    return %1 : tensor<1024x1024xf32>
  }
  func.func private @fft(%arg0: tensor<1024x1024xf32>) -> tensor<1024x513xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [1024] : (tensor<1024x1024xf32>) -> tensor<1024x513xcomplex<f32>>
    return %0 : tensor<1024x513xcomplex<f32>>
  }
}
