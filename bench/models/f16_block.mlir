module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<256x512xf16>, %arg1: tensor<512x512xf16>, %arg2: tensor<512xf16>) -> (tensor<256x512xf16> {jax.result_info = "result[0]"}, tensor<256x512xf16> {jax.result_info = "result[1]"}, tensor<256x512xf16> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x512xf16>, tensor<512x512xf16>) -> tensor<256x512xf16>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<512xf16>) -> tensor<1x512xf16>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x512xf16>) -> tensor<256x512xf16>
    %3 = stablehlo.add %0, %2 : tensor<256x512xf16>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f16>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<256x512xf16>
    %5 = stablehlo.multiply %4, %3 : tensor<256x512xf16>
    %6 = stablehlo.negate %3 : tensor<256x512xf16>
    %cst_0 = stablehlo.constant dense<7.070310e-01> : tensor<f16>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f16>) -> tensor<256x512xf16>
    %8 = stablehlo.multiply %6, %7 : tensor<256x512xf16>
    %9 = chlo.erfc %8 : tensor<256x512xf16> -> tensor<256x512xf16>
    %10 = stablehlo.multiply %5, %9 : tensor<256x512xf16>
    %11 = stablehlo.tanh %3 : tensor<256x512xf16>
    %12 = stablehlo.negate %3 : tensor<256x512xf16>
    %13 = stablehlo.exponential %12 : tensor<256x512xf16>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f16>
    %14 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f16>) -> tensor<256x512xf16>
    %15 = stablehlo.add %14, %13 : tensor<256x512xf16>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f16>
    %16 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f16>) -> tensor<256x512xf16>
    %17 = stablehlo.divide %16, %15 : tensor<256x512xf16>
    return %10, %11, %17 : tensor<256x512xf16>, tensor<256x512xf16>, tensor<256x512xf16>
  }
}
