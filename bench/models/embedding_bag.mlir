module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10000x64xf32>, %arg1: tensor<256x20xi32>, %arg2: tensor<256x64xf32>) -> (tensor<256x64xf32> {jax.result_info = "result[0]"}, tensor<10000x64xf32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<256x20xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<256x20xi32>, tensor<256x20xi32>) -> tensor<256x20xi1>
    %c_0 = stablehlo.constant dense<10000> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<256x20xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<256x20xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<256x20xi1>, tensor<256x20xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<256x20xi32>) -> tensor<256x20x1xi32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<256x64xf32>
    %7 = stablehlo.multiply %6, %arg2 : tensor<256x64xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+01> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<256x64xf32>
    %9 = stablehlo.divide %7, %8 : tensor<256x64xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 2] : (tensor<256x64xf32>) -> tensor<256x20x64xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<10000x64xf32>
    %12 = "stablehlo.scatter"(%11, %5, %10) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %23 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %23 : tensor<f32>
    }) : (tensor<10000x64xf32>, tensor<256x20x1xi32>, tensor<256x20x64xf32>) -> tensor<10000x64xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %13 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<256x20xi32>
    %14 = stablehlo.compare LT, %arg1, %13, SIGNED : (tensor<256x20xi32>, tensor<256x20xi32>) -> tensor<256x20xi1>
    %c_4 = stablehlo.constant dense<10000> : tensor<i32>
    %15 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<256x20xi32>
    %16 = stablehlo.add %arg1, %15 : tensor<256x20xi32>
    %17 = stablehlo.select %14, %16, %arg1 : tensor<256x20xi1>, tensor<256x20xi32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1] : (tensor<256x20xi32>) -> tensor<256x20x1xi32>
    %19 = "stablehlo.gather"(%arg0, %18) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 64>}> : (tensor<10000x64xf32>, tensor<256x20x1xi32>) -> tensor<256x20x64xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.reduce(%19 init: %cst_5) applies stablehlo.add across dimensions = [1] : (tensor<256x20x64xf32>, tensor<f32>) -> tensor<256x64xf32>
    %cst_6 = stablehlo.constant dense<2.000000e+01> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<256x64xf32>
    %22 = stablehlo.divide %20, %21 : tensor<256x64xf32>
    return %22, %12 : tensor<256x64xf32>, tensor<10000x64xf32>
  }
}
