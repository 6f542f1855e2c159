module @jit_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64xf32>, %arg3: tensor<64xf32>, %arg4: tensor<3x3x64x64xf32>, %arg5: tensor<3x3x64x64xf32>, %arg6: tensor<4x56x56x64xf32>, %arg7: tensor<4x56x56x64xf32>) -> (tensor<64xf32> {jax.result_info = "result[0]['b1']"}, tensor<64xf32> {jax.result_info = "result[0]['b2']"}, tensor<64xf32> {jax.result_info = "result[0]['g1']"}, tensor<64xf32> {jax.result_info = "result[0]['g2']"}, tensor<3x3x64x64xf32> {jax.result_info = "result[0]['w1']"}, tensor<3x3x64x64xf32> {jax.result_info = "result[0]['w2']"}, tensor<f32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.convolution(%arg6, %arg4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<4x56x56x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x56x56x64xf32>, tensor<f32>) -> tensor<64xf32>
    %cst_0 = stablehlo.constant dense<1.254400e+04> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %3 = stablehlo.divide %1, %2 : tensor<64xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %4:4 = call @_var(%0, %c) : (tensor<4x56x56x64xf32>, tensor<i32>) -> (tensor<64xf32>, tensor<4x56x56x64xf32>, tensor<f32>, tensor<i1>)
    %5 = stablehlo.broadcast_in_dim %3, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %7 = stablehlo.subtract %0, %6 : tensor<4x56x56x64xf32>
    %cst_1 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %9 = stablehlo.add %4#0, %8 : tensor<64xf32>
    %10 = stablehlo.rsqrt %9 : tensor<64xf32>
    %11 = stablehlo.divide %10, %9 : tensor<64xf32>
    %cst_2 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %13 = stablehlo.multiply %12, %11 : tensor<64xf32>
    %14 = stablehlo.broadcast_in_dim %10, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %16 = stablehlo.multiply %7, %15 : tensor<4x56x56x64xf32>
    %17 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %19 = stablehlo.multiply %16, %18 : tensor<4x56x56x64xf32>
    %20 = stablehlo.broadcast_in_dim %arg0, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %22 = stablehlo.add %19, %21 : tensor<4x56x56x64xf32>
    %23 = call @relu(%22) : (tensor<4x56x56x64xf32>) -> tensor<4x56x56x64xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x56x56x64xf32>
    %25 = stablehlo.compare GT, %22, %24, FLOAT : (tensor<4x56x56x64xf32>, tensor<4x56x56x64xf32>) -> tensor<4x56x56x64xi1>
    %26 = stablehlo.convolution(%23, %arg5) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<4x56x56x64xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %27 = stablehlo.reduce(%26 init: %cst_4) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x56x56x64xf32>, tensor<f32>) -> tensor<64xf32>
    %cst_5 = stablehlo.constant dense<1.254400e+04> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %29 = stablehlo.divide %27, %28 : tensor<64xf32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %30:4 = call @_var(%26, %c_6) : (tensor<4x56x56x64xf32>, tensor<i32>) -> (tensor<64xf32>, tensor<4x56x56x64xf32>, tensor<f32>, tensor<i1>)
    %31 = stablehlo.broadcast_in_dim %29, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %32 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %33 = stablehlo.subtract %26, %32 : tensor<4x56x56x64xf32>
    %cst_7 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %35 = stablehlo.add %30#0, %34 : tensor<64xf32>
    %36 = stablehlo.rsqrt %35 : tensor<64xf32>
    %37 = stablehlo.divide %36, %35 : tensor<64xf32>
    %cst_8 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %39 = stablehlo.multiply %38, %37 : tensor<64xf32>
    %40 = stablehlo.broadcast_in_dim %36, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %41 = stablehlo.broadcast_in_dim %40, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %42 = stablehlo.multiply %33, %41 : tensor<4x56x56x64xf32>
    %43 = stablehlo.broadcast_in_dim %arg3, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %45 = stablehlo.multiply %42, %44 : tensor<4x56x56x64xf32>
    %46 = stablehlo.broadcast_in_dim %arg1, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %48 = stablehlo.add %45, %47 : tensor<4x56x56x64xf32>
    %49 = stablehlo.add %48, %arg6 : tensor<4x56x56x64xf32>
    %50 = call @relu(%49) : (tensor<4x56x56x64xf32>) -> tensor<4x56x56x64xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4x56x56x64xf32>
    %52 = stablehlo.compare GT, %49, %51, FLOAT : (tensor<4x56x56x64xf32>, tensor<4x56x56x64xf32>) -> tensor<4x56x56x64xi1>
    %53 = stablehlo.subtract %50, %arg7 : tensor<4x56x56x64xf32>
    %54 = chlo.square %53 : tensor<4x56x56x64xf32> -> tensor<4x56x56x64xf32>
    %cst_10 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %55 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4x56x56x64xf32>
    %56 = stablehlo.multiply %55, %53 : tensor<4x56x56x64xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %57 = stablehlo.reduce(%54 init: %cst_11) applies stablehlo.add across dimensions = [0, 1, 2, 3] : (tensor<4x56x56x64xf32>, tensor<f32>) -> tensor<f32>
    %cst_12 = stablehlo.constant dense<8.028160e+05> : tensor<f32>
    %58 = stablehlo.divide %57, %cst_12 : tensor<f32>
    %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_14 = stablehlo.constant dense<8.028160e+05> : tensor<f32>
    %59 = stablehlo.divide %cst_13, %cst_14 : tensor<f32>
    %60 = stablehlo.broadcast_in_dim %59, dims = [] : (tensor<f32>) -> tensor<4x56x56x64xf32>
    %61 = stablehlo.multiply %60, %56 : tensor<4x56x56x64xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %62 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<4x56x56x64xf32>
    %63 = stablehlo.select %52, %61, %62 : tensor<4x56x56x64xi1>, tensor<4x56x56x64xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %64 = stablehlo.reduce(%63 init: %cst_16) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x56x56x64xf32>, tensor<f32>) -> tensor<64xf32>
    %65 = stablehlo.reshape %64 : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %66 = stablehlo.reduce(%65 init: %cst_17) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %67 = stablehlo.multiply %42, %63 : tensor<4x56x56x64xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %68 = stablehlo.reduce(%67 init: %cst_18) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x56x56x64xf32>, tensor<f32>) -> tensor<64xf32>
    %69 = stablehlo.reshape %68 : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %70 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %71 = stablehlo.multiply %63, %70 : tensor<4x56x56x64xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %72 = stablehlo.reduce(%69 init: %cst_19) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %73 = stablehlo.multiply %33, %71 : tensor<4x56x56x64xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %74 = stablehlo.reduce(%73 init: %cst_20) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x56x56x64xf32>, tensor<f32>) -> tensor<64xf32>
    %75 = stablehlo.reshape %74 : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %76 = stablehlo.broadcast_in_dim %40, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %77 = stablehlo.multiply %71, %76 : tensor<4x56x56x64xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %78 = stablehlo.reduce(%75 init: %cst_21) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %79 = stablehlo.multiply %78, %39 : tensor<64xf32>
    %80 = stablehlo.negate %77 : tensor<4x56x56x64xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %81 = stablehlo.reduce(%80 init: %cst_22) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x56x56x64xf32>, tensor<f32>) -> tensor<64xf32>
    %82 = stablehlo.reshape %81 : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %83 = stablehlo.reduce(%82 init: %cst_23) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %84 = call @_var_0(%30#1, %30#2, %30#3, %79) : (tensor<4x56x56x64xf32>, tensor<f32>, tensor<i1>, tensor<64xf32>) -> tensor<4x56x56x64xf32>
    %85 = stablehlo.add %77, %84 : tensor<4x56x56x64xf32>
    %cst_24 = stablehlo.constant dense<1.254400e+04> : tensor<f32>
    %86 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %87 = stablehlo.divide %83, %86 : tensor<64xf32>
    %88 = stablehlo.broadcast_in_dim %87, dims = [3] : (tensor<64xf32>) -> tensor<4x56x56x64xf32>
    %89 = stablehlo.add %85, %88 : tensor<4x56x56x64xf32>
    %90 = stablehlo.convolution(%23, %89) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x56x56x64xf32>, tensor<4x56x56x64xf32>) -> tensor<3x3x64x64xf32>
    %91 = stablehlo.reverse %arg5, dims = [0, 1] : tensor<3x3x64x64xf32>
    %92 = stablehlo.convolution(%89, %91) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<4x56x56x64xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4x56x56x64xf32>
    %94 = stablehlo.select %25, %92, %93 : tensor<4x56x56x64xi1>, tensor<4x56x56x64xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %95 = stablehlo.reduce(%94 init: %cst_26) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x56x56x64xf32>, tensor<f32>) -> tensor<64xf32>
    %96 = stablehlo.reshape %95 : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %97 = stablehlo.reduce(%96 init: %cst_27) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %98 = stablehlo.multiply %16, %94 : tensor<4x56x56x64xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %99 = stablehlo.reduce(%98 init: %cst_28) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x56x56x64xf32>, tensor<f32>) -> tensor<64xf32>
    %100 = stablehlo.reshape %99 : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %101 = stablehlo.broadcast_in_dim %17, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %102 = stablehlo.multiply %94, %101 : tensor<4x56x56x64xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %103 = stablehlo.reduce(%100 init: %cst_29) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %104 = stablehlo.multiply %7, %102 : tensor<4x56x56x64xf32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %105 = stablehlo.reduce(%104 init: %cst_30) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x56x56x64xf32>, tensor<f32>) -> tensor<64xf32>
    %106 = stablehlo.reshape %105 : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %107 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %108 = stablehlo.multiply %102, %107 : tensor<4x56x56x64xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %109 = stablehlo.reduce(%106 init: %cst_31) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %110 = stablehlo.multiply %109, %13 : tensor<64xf32>
    %111 = stablehlo.negate %108 : tensor<4x56x56x64xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %112 = stablehlo.reduce(%111 init: %cst_32) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x56x56x64xf32>, tensor<f32>) -> tensor<64xf32>
    %113 = stablehlo.reshape %112 : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %114 = stablehlo.reduce(%113 init: %cst_33) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %115 = call @_var_0(%4#1, %4#2, %4#3, %110) : (tensor<4x56x56x64xf32>, tensor<f32>, tensor<i1>, tensor<64xf32>) -> tensor<4x56x56x64xf32>
    %116 = stablehlo.add %108, %115 : tensor<4x56x56x64xf32>
    %cst_34 = stablehlo.constant dense<1.254400e+04> : tensor<f32>
    %117 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %118 = stablehlo.divide %114, %117 : tensor<64xf32>
    %119 = stablehlo.broadcast_in_dim %118, dims = [3] : (tensor<64xf32>) -> tensor<4x56x56x64xf32>
    %120 = stablehlo.add %116, %119 : tensor<4x56x56x64xf32>
    %121 = stablehlo.convolution(%arg6, %120) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x56x56x64xf32>, tensor<4x56x56x64xf32>) -> tensor<3x3x64x64xf32>
    %cst_35 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %122 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %123 = stablehlo.multiply %122, %97 : tensor<64xf32>
    %124 = stablehlo.subtract %arg0, %123 : tensor<64xf32>
    %cst_36 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %125 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %126 = stablehlo.multiply %125, %66 : tensor<64xf32>
    %127 = stablehlo.subtract %arg1, %126 : tensor<64xf32>
    %cst_37 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %128 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %129 = stablehlo.multiply %128, %103 : tensor<64xf32>
    %130 = stablehlo.subtract %arg2, %129 : tensor<64xf32>
    %cst_38 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %131 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %132 = stablehlo.multiply %131, %72 : tensor<64xf32>
    %133 = stablehlo.subtract %arg3, %132 : tensor<64xf32>
    %cst_39 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %134 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<3x3x64x64xf32>
    %135 = stablehlo.multiply %134, %121 : tensor<3x3x64x64xf32>
    %136 = stablehlo.subtract %arg4, %135 : tensor<3x3x64x64xf32>
    %cst_40 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %137 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<3x3x64x64xf32>
    %138 = stablehlo.multiply %137, %90 : tensor<3x3x64x64xf32>
    %139 = stablehlo.subtract %arg5, %138 : tensor<3x3x64x64xf32>
    return %124, %127, %130, %133, %136, %139, %58 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<3x3x64x64xf32>, tensor<3x3x64x64xf32>, tensor<f32>
  }
  func.func private @_var(%arg0: tensor<4x56x56x64xf32>, %arg1: tensor<i32>) -> (tensor<64xf32>, tensor<4x56x56x64xf32>, tensor<f32>, tensor<i1>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x56x56x64xf32>, tensor<f32>) -> tensor<64xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %cst_0 = stablehlo.constant dense<1.254400e+04> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x1x1x64xf32>
    %3 = stablehlo.divide %1, %2 : tensor<1x1x1x64xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<4x56x56x64xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<4x56x56x64xf32>
    %6 = chlo.square %5 : tensor<4x56x56x64xf32> -> tensor<4x56x56x64xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x56x56x64xf32>
    %8 = stablehlo.multiply %7, %5 : tensor<4x56x56x64xf32>
    %9 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<1.254400e+04> : tensor<f32>
    %10 = stablehlo.subtract %cst_2, %9 : tensor<f32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%6 init: %cst_3) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x56x56x64xf32>, tensor<f32>) -> tensor<64xf32>
    %12 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %13 = stablehlo.divide %11, %12 : tensor<64xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.compare GT, %10, %cst_4, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_5 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %15 = call @_where(%14, %13, %cst_5) : (tensor<i1>, tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
    return %15, %8, %10, %14 : tensor<64xf32>, tensor<4x56x56x64xf32>, tensor<f32>, tensor<i1>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<64xf32>, %arg2: tensor<f32>) -> tensor<64xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<64xf32>
    return %2 : tensor<64xf32>
  }
  func.func private @relu(%arg0: tensor<4x56x56x64xf32>) -> tensor<4x56x56x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x56x56x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x56x56x64xf32>
    return %1 : tensor<4x56x56x64xf32>
  }
  func.func private @_var_0(%arg0: tensor<4x56x56x64xf32>, %arg1: tensor<f32>, %arg2: tensor<i1>, %arg3: tensor<64xf32>) -> tensor<4x56x56x64xf32> {
    %0 = call @_where_1(%arg2, %arg3) : (tensor<i1>, tensor<64xf32>) -> tensor<64xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %2 = stablehlo.divide %0, %1 : tensor<64xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [3] : (tensor<64xf32>) -> tensor<4x56x56x64xf32>
    %4 = stablehlo.multiply %3, %arg0 : tensor<4x56x56x64xf32>
    %5 = stablehlo.negate %4 : tensor<4x56x56x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x56x56x64xf32>, tensor<f32>) -> tensor<64xf32>
    %7 = stablehlo.reshape %6 : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %cst_0 = stablehlo.constant dense<1.254400e+04> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x1x1x64xf32>
    %9 = stablehlo.divide %7, %8 : tensor<1x1x1x64xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.reduce(%9 init: %cst_1) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [3] : (tensor<64xf32>) -> tensor<4x56x56x64xf32>
    %12 = stablehlo.add %4, %11 : tensor<4x56x56x64xf32>
    return %12 : tensor<4x56x56x64xf32>
  }
  func.func private @_where_1(%arg0: tensor<i1>, %arg1: tensor<64xf32>) -> tensor<64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<i1>, tensor<64xf32>
    return %1 : tensor<64xf32>
  }
}
