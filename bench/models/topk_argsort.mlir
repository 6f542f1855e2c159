module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<512x4096xf32>, %arg1: tensor<256x1024xf32>) -> (tensor<512x16xf32> {jax.result_info = "result[0]"}, tensor<512x16xi32> {jax.result_info = "result[1]"}, tensor<256x1024xi32> {jax.result_info = "result[2]"}) {
    %values, %indices = chlo.top_k(%arg0, k = 16) : tensor<512x4096xf32> -> (tensor<512x16xf32>, tensor<512x16xi32>)
    %0 = call @argsort(%arg1) : (tensor<256x1024xf32>) -> tensor<256x1024xi32>
    return %values, %indices, %0 : tensor<512x16xf32>, tensor<512x16xi32>, tensor<256x1024xi32>
  }
  func.func private @argsort(%arg0: tensor<256x1024xf32>) -> tensor<256x1024xi32> {
    %0 = stablehlo.iota dim = 1 : tensor<256x1024xi32>
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %3 = stablehlo.select %2, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %4 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %5 = stablehlo.select %4, %cst_1, %3 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %6 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %7 = stablehlo.select %6, %cst_3, %arg2 : tensor<i1>, tensor<f32>
      %8 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %9 = stablehlo.select %8, %cst_4, %7 : tensor<i1>, tensor<f32>
      %10 = stablehlo.compare LT, %5, %9, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %10 : tensor<i1>
    }) : (tensor<256x1024xf32>, tensor<256x1024xi32>) -> (tensor<256x1024xf32>, tensor<256x1024xi32>)
    return %1#1 : tensor<256x1024xi32>
  }
}
