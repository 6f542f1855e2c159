module @jit_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10xf32>, %arg1: tensor<32xf32>, %arg2: tensor<64xf32>, %arg3: tensor<3x3x3x32xf32>, %arg4: tensor<3x3x32x64xf32>, %arg5: tensor<64x10xf32>, %arg6: tensor<16x32x32x3xf32>, %arg7: tensor<16xi32>) -> (tensor<10xf32> {jax.result_info = "result[0]['b']"}, tensor<32xf32> {jax.result_info = "result[0]['b1']"}, tensor<64xf32> {jax.result_info = "result[0]['b2']"}, tensor<3x3x3x32xf32> {jax.result_info = "result[0]['c1']"}, tensor<3x3x32x64xf32> {jax.result_info = "result[0]['c2']"}, tensor<64x10xf32> {jax.result_info = "result[0]['w']"}, tensor<f32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.convolution(%arg6, %arg3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<16x32x32x3xf32>, tensor<3x3x3x32xf32>) -> tensor<16x32x32x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [3] : (tensor<32xf32>) -> tensor<1x1x1x32xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x1x1x32xf32>) -> tensor<16x32x32x32xf32>
    %3 = stablehlo.add %0, %2 : tensor<16x32x32x32xf32>
    %4 = call @relu(%3) : (tensor<16x32x32x32xf32>) -> tensor<16x32x32x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x32x32x32xf32>
    %6 = stablehlo.compare GT, %3, %5, FLOAT : (tensor<16x32x32x32xf32>, tensor<16x32x32x32xf32>) -> tensor<16x32x32x32xi1>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<f32>
    %8 = "stablehlo.reduce_window"(%4, %7) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %78 = stablehlo.maximum %arg8, %arg9 : tensor<f32>
      stablehlo.return %78 : tensor<f32>
    }) : (tensor<16x32x32x32xf32>, tensor<f32>) -> tensor<16x16x16x32xf32>
    %9 = stablehlo.convolution(%8, %arg4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<16x16x16x32xf32>, tensor<3x3x32x64xf32>) -> tensor<16x16x16x64xf32>
    %10 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<16x16x16x64xf32>
    %12 = stablehlo.add %9, %11 : tensor<16x16x16x64xf32>
    %13 = call @relu_0(%12) : (tensor<16x16x16x64xf32>) -> tensor<16x16x16x64xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x16x16x64xf32>
    %15 = stablehlo.compare GT, %12, %14, FLOAT : (tensor<16x16x16x64xf32>, tensor<16x16x16x64xf32>) -> tensor<16x16x16x64xi1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.reduce(%13 init: %cst_2) applies stablehlo.add across dimensions = [1, 2] : (tensor<16x16x16x64xf32>, tensor<f32>) -> tensor<16x64xf32>
    %cst_3 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %18 = stablehlo.divide %16, %17 : tensor<16x64xf32>
    %19 = stablehlo.dot_general %18, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x10xf32>) -> tensor<16x10xf32>
    %20 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<16x10xf32>
    %22 = stablehlo.add %19, %21 : tensor<16x10xf32>
    %23:3 = call @log_softmax(%22) : (tensor<16x10xf32>) -> (tensor<16x10xf32>, tensor<16x10xf32>, tensor<16x1xf32>)
    %24 = stablehlo.broadcast_in_dim %arg7, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %25:2 = call @take_along_axis(%23#0, %24) : (tensor<16x10xf32>, tensor<16x1xi32>) -> (tensor<16x1xf32>, tensor<16x1x1xi32>)
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %26 = stablehlo.reduce(%25#0 init: %cst_4) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x1xf32>, tensor<f32>) -> tensor<f32>
    %cst_5 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %27 = stablehlo.divide %26, %cst_5 : tensor<f32>
    %28 = stablehlo.negate %27 : tensor<f32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %29 = stablehlo.negate %cst_6 : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %30 = stablehlo.divide %29, %cst_7 : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %32 = call @take_along_axis_1(%25#1, %31) : (tensor<16x1x1xi32>, tensor<16x1xf32>) -> tensor<16x10xf32>
    %33 = call @log_softmax_2(%23#1, %23#2, %32) : (tensor<16x10xf32>, tensor<16x1xf32>, tensor<16x10xf32>) -> tensor<16x10xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %34 = stablehlo.reduce(%33 init: %cst_8) applies stablehlo.add across dimensions = [0] : (tensor<16x10xf32>, tensor<f32>) -> tensor<10xf32>
    %35 = stablehlo.reshape %34 : (tensor<10xf32>) -> tensor<1x10xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %36 = stablehlo.reduce(%35 init: %cst_9) applies stablehlo.add across dimensions = [0] : (tensor<1x10xf32>, tensor<f32>) -> tensor<10xf32>
    %37 = stablehlo.dot_general %33, %18, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x10xf32>, tensor<16x64xf32>) -> tensor<10x64xf32>
    %38 = stablehlo.transpose %37, dims = [1, 0] : (tensor<10x64xf32>) -> tensor<64x10xf32>
    %39 = stablehlo.dot_general %33, %arg5, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x10xf32>, tensor<64x10xf32>) -> tensor<16x64xf32>
    %cst_10 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %41 = stablehlo.divide %39, %40 : tensor<16x64xf32>
    %42 = stablehlo.broadcast_in_dim %41, dims = [0, 3] : (tensor<16x64xf32>) -> tensor<16x16x16x64xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %43 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<16x16x16x64xf32>
    %44 = stablehlo.select %15, %42, %43 : tensor<16x16x16x64xi1>, tensor<16x16x16x64xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %45 = stablehlo.reduce(%44 init: %cst_12) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<16x16x16x64xf32>, tensor<f32>) -> tensor<64xf32>
    %46 = stablehlo.reshape %45 : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %47 = stablehlo.reduce(%46 init: %cst_13) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %48 = stablehlo.convolution(%8, %44) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<16x16x16x32xf32>, tensor<16x16x16x64xf32>) -> tensor<3x3x32x64xf32>
    %49 = stablehlo.reverse %arg4, dims = [0, 1] : tensor<3x3x32x64xf32>
    %50 = stablehlo.convolution(%44, %49) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<16x16x16x64xf32>, tensor<3x3x32x64xf32>) -> tensor<16x16x16x32xf32>
    %cst_14 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %51 = stablehlo.pad %4, %cst_14, low = [0, 0, 0, 0], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<16x32x32x32xf32>, tensor<f32>) -> tensor<16x32x32x32xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %52 = "stablehlo.select_and_scatter"(%51, %50, %cst_15) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %78 = stablehlo.compare GE, %arg8, %arg9, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %78 : tensor<i1>
    }, {
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %78 = stablehlo.add %arg8, %arg9 : tensor<f32>
      stablehlo.return %78 : tensor<f32>
    }) : (tensor<16x32x32x32xf32>, tensor<16x16x16x32xf32>, tensor<f32>) -> tensor<16x32x32x32xf32>
    %53 = stablehlo.slice %52 [0:16, 0:32, 0:32, 0:32] : (tensor<16x32x32x32xf32>) -> tensor<16x32x32x32xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %54 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<16x32x32x32xf32>
    %55 = stablehlo.select %6, %53, %54 : tensor<16x32x32x32xi1>, tensor<16x32x32x32xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %56 = stablehlo.reduce(%55 init: %cst_17) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<16x32x32x32xf32>, tensor<f32>) -> tensor<32xf32>
    %57 = stablehlo.reshape %56 : (tensor<32xf32>) -> tensor<1x1x1x32xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %58 = stablehlo.reduce(%57 init: %cst_18) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %59 = stablehlo.convolution(%arg6, %55) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<16x32x32x3xf32>, tensor<16x32x32x32xf32>) -> tensor<3x3x3x32xf32>
    %cst_19 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %60 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %61 = stablehlo.multiply %60, %36 : tensor<10xf32>
    %62 = stablehlo.subtract %arg0, %61 : tensor<10xf32>
    %cst_20 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %64 = stablehlo.multiply %63, %58 : tensor<32xf32>
    %65 = stablehlo.subtract %arg1, %64 : tensor<32xf32>
    %cst_21 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %66 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %67 = stablehlo.multiply %66, %47 : tensor<64xf32>
    %68 = stablehlo.subtract %arg2, %67 : tensor<64xf32>
    %cst_22 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %69 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<3x3x3x32xf32>
    %70 = stablehlo.multiply %69, %59 : tensor<3x3x3x32xf32>
    %71 = stablehlo.subtract %arg3, %70 : tensor<3x3x3x32xf32>
    %cst_23 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %72 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<3x3x32x64xf32>
    %73 = stablehlo.multiply %72, %48 : tensor<3x3x32x64xf32>
    %74 = stablehlo.subtract %arg4, %73 : tensor<3x3x32x64xf32>
    %cst_24 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %75 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<64x10xf32>
    %76 = stablehlo.multiply %75, %38 : tensor<64x10xf32>
    %77 = stablehlo.subtract %arg5, %76 : tensor<64x10xf32>
    return %62, %65, %68, %71, %74, %77, %28 : tensor<10xf32>, tensor<32xf32>, tensor<64xf32>, tensor<3x3x3x32xf32>, tensor<3x3x32x64xf32>, tensor<64x10xf32>, tensor<f32>
  }
  func.func private @relu(%arg0: tensor<16x32x32x32xf32>) -> tensor<16x32x32x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x32x32x32xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<16x32x32x32xf32>
    return %1 : tensor<16x32x32x32xf32>
  }
  func.func private @relu_0(%arg0: tensor<16x16x16x64xf32>) -> tensor<16x16x16x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x16x16x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<16x16x16x64xf32>
    return %1 : tensor<16x16x16x64xf32>
  }
  func.func private @log_softmax(%arg0: tensor<16x10xf32>) -> (tensor<16x10xf32>, tensor<16x10xf32>, tensor<16x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<16x10xf32>, tensor<f32>) -> tensor<16xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<16xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x10xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<16x10xf32>
    %6 = stablehlo.exponential %5 : tensor<16x10xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<16x10xf32>, tensor<f32>) -> tensor<16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %9 = stablehlo.log %8 : tensor<16x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x10xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<16x10xf32>
    return %11, %6, %8 : tensor<16x10xf32>, tensor<16x10xf32>, tensor<16x1xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<16x10xf32>, %arg1: tensor<16x1xi32>) -> (tensor<16x1xf32>, tensor<16x1x1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<16x1xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<16x1xi32>, tensor<16x1xi32>) -> tensor<16x1xi1>
    %c_0 = stablehlo.constant dense<10> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<16x1xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<16x1xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<16x1xi1>, tensor<16x1xi32>
    %5 = stablehlo.reshape %4 : (tensor<16x1xi32>) -> tensor<16x1x1xi32>
    %c_1 = stablehlo.constant dense<9> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<16x1x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<16x1x1xi32>, tensor<16x1x1xi32>) -> tensor<16x1x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<16x1x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<16x1x1xi32>, tensor<16x1x1xi32>) -> tensor<16x1x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<16x1x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<16x1x1xi1>, tensor<i1>) -> tensor<16x1xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<16x10xf32>, tensor<16x1x1xi32>) -> tensor<16x1xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<16x1xi1>, tensor<16x1xf32>
    return %15, %5 : tensor<16x1xf32>, tensor<16x1x1xi32>
  }
  func.func private @take_along_axis_1(%arg0: tensor<16x1x1xi32>, %arg1: tensor<16x1xf32>) -> tensor<16x10xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x10xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<16x10xf32>, tensor<16x1x1xi32>, tensor<16x1xf32>) -> tensor<16x10xf32>
    return %1 : tensor<16x10xf32>
  }
  func.func private @log_softmax_2(%arg0: tensor<16x10xf32>, %arg1: tensor<16x1xf32>, %arg2: tensor<16x10xf32>) -> tensor<16x10xf32> {
    %0 = stablehlo.negate %arg2 : tensor<16x10xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<16x10xf32>, tensor<f32>) -> tensor<16xf32>
    %2 = stablehlo.reshape %1 : (tensor<16xf32>) -> tensor<16x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<16x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<16x1xf32>, tensor<f32>) -> tensor<16xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<16xf32>) -> tensor<16x10xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<16x10xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<16x10xf32>
    return %7 : tensor<16x10xf32>
  }
}
