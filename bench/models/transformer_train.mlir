module @jit_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<128x10xf32>, %arg1: tensor<512xf32>, %arg2: tensor<128xf32>, %arg3: tensor<128xf32>, %arg4: tensor<128xf32>, %arg5: tensor<128xf32>, %arg6: tensor<128xf32>, %arg7: tensor<128x512xf32>, %arg8: tensor<512x128xf32>, %arg9: tensor<128x128xf32>, %arg10: tensor<128x384xf32>, %arg11: tensor<512xf32>, %arg12: tensor<128xf32>, %arg13: tensor<128xf32>, %arg14: tensor<128xf32>, %arg15: tensor<128xf32>, %arg16: tensor<128xf32>, %arg17: tensor<128x512xf32>, %arg18: tensor<512x128xf32>, %arg19: tensor<128x128xf32>, %arg20: tensor<128x384xf32>, %arg21: tensor<128xf32>, %arg22: tensor<128xf32>, %arg23: tensor<8x64x128xf32>, %arg24: tensor<8xi32>) -> (tensor<128x10xf32> {jax.result_info = "result[0]['head']"}, tensor<512xf32> {jax.result_info = "result[0]['layers'][0]['b1']"}, tensor<128xf32> {jax.result_info = "result[0]['layers'][0]['b2']"}, tensor<128xf32> {jax.result_info = "result[0]['layers'][0]['ln1_b']"}, tensor<128xf32> {jax.result_info = "result[0]['layers'][0]['ln1_g']"}, tensor<128xf32> {jax.result_info = "result[0]['layers'][0]['ln2_b']"}, tensor<128xf32> {jax.result_info = "result[0]['layers'][0]['ln2_g']"}, tensor<128x512xf32> {jax.result_info = "result[0]['layers'][0]['w1']"}, tensor<512x128xf32> {jax.result_info = "result[0]['layers'][0]['w2']"}, tensor<128x128xf32> {jax.result_info = "result[0]['layers'][0]['wo']"}, tensor<128x384xf32> {jax.result_info = "result[0]['layers'][0]['wqkv']"}, tensor<512xf32> {jax.result_info = "result[0]['layers'][1]['b1']"}, tensor<128xf32> {jax.result_info = "result[0]['layers'][1]['b2']"}, tensor<128xf32> {jax.result_info = "result[0]['layers'][1]['ln1_b']"}, tensor<128xf32> {jax.result_info = "result[0]['layers'][1]['ln1_g']"}, tensor<128xf32> {jax.result_info = "result[0]['layers'][1]['ln2_b']"}, tensor<128xf32> {jax.result_info = "result[0]['layers'][1]['ln2_g']"}, tensor<128x512xf32> {jax.result_info = "result[0]['layers'][1]['w1']"}, tensor<512x128xf32> {jax.result_info = "result[0]['layers'][1]['w2']"}, tensor<128x128xf32> {jax.result_info = "result[0]['layers'][1]['wo']"}, tensor<128x384xf32> {jax.result_info = "result[0]['layers'][1]['wqkv']"}, tensor<128xf32> {jax.result_info = "result[0]['ln_b']"}, tensor<128xf32> {jax.result_info = "result[0]['ln_g']"}, tensor<f32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg23 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_0 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<8x64x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %5 = stablehlo.subtract %arg23, %4 : tensor<8x64x128xf32>
    %6 = chlo.square %5 : tensor<8x64x128xf32> -> tensor<8x64x128xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_2 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<8x64x1xf32>
    %11 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %12 = stablehlo.subtract %arg23, %11 : tensor<8x64x128xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %14 = stablehlo.add %10, %13 : tensor<8x64x1xf32>
    %15 = stablehlo.rsqrt %14 : tensor<8x64x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %17 = stablehlo.multiply %12, %16 : tensor<8x64x128xf32>
    %18 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %20 = stablehlo.multiply %17, %19 : tensor<8x64x128xf32>
    %21 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %23 = stablehlo.add %20, %22 : tensor<8x64x128xf32>
    %24 = stablehlo.dot_general %23, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<128x384xf32>) -> tensor<8x64x384xf32>
    %25 = stablehlo.slice %24 [0:8, 0:64, 0:128] : (tensor<8x64x384xf32>) -> tensor<8x64x128xf32>
    %26 = stablehlo.slice %24 [0:8, 0:64, 128:256] : (tensor<8x64x384xf32>) -> tensor<8x64x128xf32>
    %27 = stablehlo.slice %24 [0:8, 0:64, 256:384] : (tensor<8x64x384xf32>) -> tensor<8x64x128xf32>
    %28 = stablehlo.reshape %25 : (tensor<8x64x128xf32>) -> tensor<8x64x4x32xf32>
    %29 = stablehlo.reshape %26 : (tensor<8x64x128xf32>) -> tensor<8x64x4x32xf32>
    %30 = stablehlo.reshape %27 : (tensor<8x64x128xf32>) -> tensor<8x64x4x32xf32>
    %31 = stablehlo.dot_general %28, %29, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x64x4x32xf32>, tensor<8x64x4x32xf32>) -> tensor<8x4x64x64xf32>
    %cst_4 = stablehlo.constant dense<5.65685415> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x4x64x64xf32>
    %33 = stablehlo.divide %31, %32 : tensor<8x4x64x64xf32>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %34 = stablehlo.reduce(%33 init: %cst_5) applies stablehlo.maximum across dimensions = [3] : (tensor<8x4x64x64xf32>, tensor<f32>) -> tensor<8x4x64xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8x4x64xf32>
    %36 = stablehlo.maximum %35, %34 : tensor<8x4x64xf32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [0, 1, 2] : (tensor<8x4x64xf32>) -> tensor<8x4x64x1xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2, 3] : (tensor<8x4x64x1xf32>) -> tensor<8x4x64x64xf32>
    %39 = stablehlo.subtract %33, %38 : tensor<8x4x64x64xf32>
    %40 = stablehlo.exponential %39 : tensor<8x4x64x64xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %41 = stablehlo.reduce(%40 init: %cst_7) applies stablehlo.add across dimensions = [3] : (tensor<8x4x64x64xf32>, tensor<f32>) -> tensor<8x4x64xf32>
    %42 = stablehlo.broadcast_in_dim %41, dims = [0, 1, 2] : (tensor<8x4x64xf32>) -> tensor<8x4x64x1xf32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [0, 1, 2, 3] : (tensor<8x4x64x1xf32>) -> tensor<8x4x64x64xf32>
    %44 = stablehlo.divide %40, %43 : tensor<8x4x64x64xf32>
    %45 = stablehlo.multiply %42, %42 : tensor<8x4x64x1xf32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8x4x64x1xf32>
    %47 = stablehlo.divide %46, %45 : tensor<8x4x64x1xf32>
    %48 = stablehlo.dot_general %30, %44, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x64x4x32xf32>, tensor<8x4x64x64xf32>) -> tensor<8x4x32x64xf32>
    %49 = stablehlo.transpose %48, dims = [0, 3, 1, 2] : (tensor<8x4x32x64xf32>) -> tensor<8x64x4x32xf32>
    %50 = stablehlo.reshape %49 : (tensor<8x64x4x32xf32>) -> tensor<8x64x128xf32>
    %51 = stablehlo.dot_general %50, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<128x128xf32>) -> tensor<8x64x128xf32>
    %52 = stablehlo.add %arg23, %51 : tensor<8x64x128xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %53 = stablehlo.reduce(%52 init: %cst_9) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_10 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %55 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %56 = stablehlo.divide %54, %55 : tensor<8x64x1xf32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %58 = stablehlo.subtract %52, %57 : tensor<8x64x128xf32>
    %59 = chlo.square %58 : tensor<8x64x128xf32> -> tensor<8x64x128xf32>
    %cst_11 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %60 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x64x128xf32>
    %61 = stablehlo.multiply %60, %58 : tensor<8x64x128xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %62 = stablehlo.reduce(%59 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_13 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %64 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %65 = stablehlo.divide %63, %64 : tensor<8x64x1xf32>
    %66 = stablehlo.broadcast_in_dim %56, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %67 = stablehlo.subtract %52, %66 : tensor<8x64x128xf32>
    %cst_14 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %68 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %69 = stablehlo.add %65, %68 : tensor<8x64x1xf32>
    %70 = stablehlo.rsqrt %69 : tensor<8x64x1xf32>
    %71 = stablehlo.divide %70, %69 : tensor<8x64x1xf32>
    %cst_15 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %72 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %73 = stablehlo.multiply %72, %71 : tensor<8x64x1xf32>
    %74 = stablehlo.broadcast_in_dim %70, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %75 = stablehlo.multiply %67, %74 : tensor<8x64x128xf32>
    %76 = stablehlo.broadcast_in_dim %arg6, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %77 = stablehlo.broadcast_in_dim %76, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %78 = stablehlo.multiply %75, %77 : tensor<8x64x128xf32>
    %79 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %80 = stablehlo.broadcast_in_dim %79, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %81 = stablehlo.add %78, %80 : tensor<8x64x128xf32>
    %82 = stablehlo.dot_general %81, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<128x512xf32>) -> tensor<8x64x512xf32>
    %83 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<512xf32>) -> tensor<1x1x512xf32>
    %84 = stablehlo.broadcast_in_dim %83, dims = [0, 1, 2] : (tensor<1x1x512xf32>) -> tensor<8x64x512xf32>
    %85 = stablehlo.add %82, %84 : tensor<8x64x512xf32>
    %86 = stablehlo.multiply %85, %85 : tensor<8x64x512xf32>
    %87 = stablehlo.multiply %86, %85 : tensor<8x64x512xf32>
    %88 = stablehlo.multiply %85, %85 : tensor<8x64x512xf32>
    %cst_16 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %89 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %90 = stablehlo.multiply %89, %88 : tensor<8x64x512xf32>
    %cst_17 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %91 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %92 = stablehlo.multiply %91, %87 : tensor<8x64x512xf32>
    %93 = stablehlo.add %85, %92 : tensor<8x64x512xf32>
    %cst_18 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %94 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %95 = stablehlo.multiply %94, %93 : tensor<8x64x512xf32>
    %96 = stablehlo.tanh %95 : tensor<8x64x512xf32>
    %cst_19 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %97 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %98 = stablehlo.subtract %97, %96 : tensor<8x64x512xf32>
    %cst_20 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %99 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %100 = stablehlo.add %99, %96 : tensor<8x64x512xf32>
    %cst_21 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %101 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %102 = stablehlo.multiply %101, %100 : tensor<8x64x512xf32>
    %103 = stablehlo.multiply %85, %102 : tensor<8x64x512xf32>
    %104 = stablehlo.dot_general %103, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64x512xf32>, tensor<512x128xf32>) -> tensor<8x64x128xf32>
    %105 = stablehlo.add %52, %104 : tensor<8x64x128xf32>
    %106 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %107 = stablehlo.broadcast_in_dim %106, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %108 = stablehlo.add %105, %107 : tensor<8x64x128xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %109 = stablehlo.reduce(%108 init: %cst_22) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %110 = stablehlo.broadcast_in_dim %109, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_23 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %111 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %112 = stablehlo.divide %110, %111 : tensor<8x64x1xf32>
    %113 = stablehlo.broadcast_in_dim %112, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %114 = stablehlo.subtract %108, %113 : tensor<8x64x128xf32>
    %115 = chlo.square %114 : tensor<8x64x128xf32> -> tensor<8x64x128xf32>
    %cst_24 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %116 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<8x64x128xf32>
    %117 = stablehlo.multiply %116, %114 : tensor<8x64x128xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %118 = stablehlo.reduce(%115 init: %cst_25) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %119 = stablehlo.broadcast_in_dim %118, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_26 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %120 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %121 = stablehlo.divide %119, %120 : tensor<8x64x1xf32>
    %122 = stablehlo.broadcast_in_dim %112, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %123 = stablehlo.subtract %108, %122 : tensor<8x64x128xf32>
    %cst_27 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %124 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %125 = stablehlo.add %121, %124 : tensor<8x64x1xf32>
    %126 = stablehlo.rsqrt %125 : tensor<8x64x1xf32>
    %127 = stablehlo.divide %126, %125 : tensor<8x64x1xf32>
    %cst_28 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %128 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %129 = stablehlo.multiply %128, %127 : tensor<8x64x1xf32>
    %130 = stablehlo.broadcast_in_dim %126, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %131 = stablehlo.multiply %123, %130 : tensor<8x64x128xf32>
    %132 = stablehlo.broadcast_in_dim %arg14, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %133 = stablehlo.broadcast_in_dim %132, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %134 = stablehlo.multiply %131, %133 : tensor<8x64x128xf32>
    %135 = stablehlo.broadcast_in_dim %arg13, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %136 = stablehlo.broadcast_in_dim %135, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %137 = stablehlo.add %134, %136 : tensor<8x64x128xf32>
    %138 = stablehlo.dot_general %137, %arg20, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<128x384xf32>) -> tensor<8x64x384xf32>
    %139 = stablehlo.slice %138 [0:8, 0:64, 0:128] : (tensor<8x64x384xf32>) -> tensor<8x64x128xf32>
    %140 = stablehlo.slice %138 [0:8, 0:64, 128:256] : (tensor<8x64x384xf32>) -> tensor<8x64x128xf32>
    %141 = stablehlo.slice %138 [0:8, 0:64, 256:384] : (tensor<8x64x384xf32>) -> tensor<8x64x128xf32>
    %142 = stablehlo.reshape %139 : (tensor<8x64x128xf32>) -> tensor<8x64x4x32xf32>
    %143 = stablehlo.reshape %140 : (tensor<8x64x128xf32>) -> tensor<8x64x4x32xf32>
    %144 = stablehlo.reshape %141 : (tensor<8x64x128xf32>) -> tensor<8x64x4x32xf32>
    %145 = stablehlo.dot_general %142, %143, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x64x4x32xf32>, tensor<8x64x4x32xf32>) -> tensor<8x4x64x64xf32>
    %cst_29 = stablehlo.constant dense<5.65685415> : tensor<f32>
    %146 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<8x4x64x64xf32>
    %147 = stablehlo.divide %145, %146 : tensor<8x4x64x64xf32>
    %cst_30 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %148 = stablehlo.reduce(%147 init: %cst_30) applies stablehlo.maximum across dimensions = [3] : (tensor<8x4x64x64xf32>, tensor<f32>) -> tensor<8x4x64xf32>
    %cst_31 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %149 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<8x4x64xf32>
    %150 = stablehlo.maximum %149, %148 : tensor<8x4x64xf32>
    %151 = stablehlo.broadcast_in_dim %150, dims = [0, 1, 2] : (tensor<8x4x64xf32>) -> tensor<8x4x64x1xf32>
    %152 = stablehlo.broadcast_in_dim %151, dims = [0, 1, 2, 3] : (tensor<8x4x64x1xf32>) -> tensor<8x4x64x64xf32>
    %153 = stablehlo.subtract %147, %152 : tensor<8x4x64x64xf32>
    %154 = stablehlo.exponential %153 : tensor<8x4x64x64xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %155 = stablehlo.reduce(%154 init: %cst_32) applies stablehlo.add across dimensions = [3] : (tensor<8x4x64x64xf32>, tensor<f32>) -> tensor<8x4x64xf32>
    %156 = stablehlo.broadcast_in_dim %155, dims = [0, 1, 2] : (tensor<8x4x64xf32>) -> tensor<8x4x64x1xf32>
    %157 = stablehlo.broadcast_in_dim %156, dims = [0, 1, 2, 3] : (tensor<8x4x64x1xf32>) -> tensor<8x4x64x64xf32>
    %158 = stablehlo.divide %154, %157 : tensor<8x4x64x64xf32>
    %159 = stablehlo.multiply %156, %156 : tensor<8x4x64x1xf32>
    %cst_33 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %160 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<8x4x64x1xf32>
    %161 = stablehlo.divide %160, %159 : tensor<8x4x64x1xf32>
    %162 = stablehlo.dot_general %144, %158, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x64x4x32xf32>, tensor<8x4x64x64xf32>) -> tensor<8x4x32x64xf32>
    %163 = stablehlo.transpose %162, dims = [0, 3, 1, 2] : (tensor<8x4x32x64xf32>) -> tensor<8x64x4x32xf32>
    %164 = stablehlo.reshape %163 : (tensor<8x64x4x32xf32>) -> tensor<8x64x128xf32>
    %165 = stablehlo.dot_general %164, %arg19, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<128x128xf32>) -> tensor<8x64x128xf32>
    %166 = stablehlo.add %108, %165 : tensor<8x64x128xf32>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %167 = stablehlo.reduce(%166 init: %cst_34) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %168 = stablehlo.broadcast_in_dim %167, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_35 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %169 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %170 = stablehlo.divide %168, %169 : tensor<8x64x1xf32>
    %171 = stablehlo.broadcast_in_dim %170, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %172 = stablehlo.subtract %166, %171 : tensor<8x64x128xf32>
    %173 = chlo.square %172 : tensor<8x64x128xf32> -> tensor<8x64x128xf32>
    %cst_36 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %174 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<8x64x128xf32>
    %175 = stablehlo.multiply %174, %172 : tensor<8x64x128xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %176 = stablehlo.reduce(%173 init: %cst_37) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %177 = stablehlo.broadcast_in_dim %176, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_38 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %178 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %179 = stablehlo.divide %177, %178 : tensor<8x64x1xf32>
    %180 = stablehlo.broadcast_in_dim %170, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %181 = stablehlo.subtract %166, %180 : tensor<8x64x128xf32>
    %cst_39 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %182 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %183 = stablehlo.add %179, %182 : tensor<8x64x1xf32>
    %184 = stablehlo.rsqrt %183 : tensor<8x64x1xf32>
    %185 = stablehlo.divide %184, %183 : tensor<8x64x1xf32>
    %cst_40 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %186 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %187 = stablehlo.multiply %186, %185 : tensor<8x64x1xf32>
    %188 = stablehlo.broadcast_in_dim %184, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %189 = stablehlo.multiply %181, %188 : tensor<8x64x128xf32>
    %190 = stablehlo.broadcast_in_dim %arg16, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %191 = stablehlo.broadcast_in_dim %190, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %192 = stablehlo.multiply %189, %191 : tensor<8x64x128xf32>
    %193 = stablehlo.broadcast_in_dim %arg15, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %194 = stablehlo.broadcast_in_dim %193, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %195 = stablehlo.add %192, %194 : tensor<8x64x128xf32>
    %196 = stablehlo.dot_general %195, %arg17, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<128x512xf32>) -> tensor<8x64x512xf32>
    %197 = stablehlo.broadcast_in_dim %arg11, dims = [2] : (tensor<512xf32>) -> tensor<1x1x512xf32>
    %198 = stablehlo.broadcast_in_dim %197, dims = [0, 1, 2] : (tensor<1x1x512xf32>) -> tensor<8x64x512xf32>
    %199 = stablehlo.add %196, %198 : tensor<8x64x512xf32>
    %200 = stablehlo.multiply %199, %199 : tensor<8x64x512xf32>
    %201 = stablehlo.multiply %200, %199 : tensor<8x64x512xf32>
    %202 = stablehlo.multiply %199, %199 : tensor<8x64x512xf32>
    %cst_41 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %203 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %204 = stablehlo.multiply %203, %202 : tensor<8x64x512xf32>
    %cst_42 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %205 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %206 = stablehlo.multiply %205, %201 : tensor<8x64x512xf32>
    %207 = stablehlo.add %199, %206 : tensor<8x64x512xf32>
    %cst_43 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %208 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %209 = stablehlo.multiply %208, %207 : tensor<8x64x512xf32>
    %210 = stablehlo.tanh %209 : tensor<8x64x512xf32>
    %cst_44 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %211 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %212 = stablehlo.subtract %211, %210 : tensor<8x64x512xf32>
    %cst_45 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %213 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %214 = stablehlo.add %213, %210 : tensor<8x64x512xf32>
    %cst_46 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %215 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %216 = stablehlo.multiply %215, %214 : tensor<8x64x512xf32>
    %217 = stablehlo.multiply %199, %216 : tensor<8x64x512xf32>
    %218 = stablehlo.dot_general %217, %arg18, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64x512xf32>, tensor<512x128xf32>) -> tensor<8x64x128xf32>
    %219 = stablehlo.add %166, %218 : tensor<8x64x128xf32>
    %220 = stablehlo.broadcast_in_dim %arg12, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %221 = stablehlo.broadcast_in_dim %220, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %222 = stablehlo.add %219, %221 : tensor<8x64x128xf32>
    %cst_47 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %223 = stablehlo.reduce(%222 init: %cst_47) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %224 = stablehlo.broadcast_in_dim %223, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_48 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %225 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %226 = stablehlo.divide %224, %225 : tensor<8x64x1xf32>
    %227 = stablehlo.broadcast_in_dim %226, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %228 = stablehlo.subtract %222, %227 : tensor<8x64x128xf32>
    %229 = chlo.square %228 : tensor<8x64x128xf32> -> tensor<8x64x128xf32>
    %cst_49 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %230 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<8x64x128xf32>
    %231 = stablehlo.multiply %230, %228 : tensor<8x64x128xf32>
    %cst_50 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %232 = stablehlo.reduce(%229 init: %cst_50) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %233 = stablehlo.broadcast_in_dim %232, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_51 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %234 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %235 = stablehlo.divide %233, %234 : tensor<8x64x1xf32>
    %236 = stablehlo.broadcast_in_dim %226, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %237 = stablehlo.subtract %222, %236 : tensor<8x64x128xf32>
    %cst_52 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %238 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %239 = stablehlo.add %235, %238 : tensor<8x64x1xf32>
    %240 = stablehlo.rsqrt %239 : tensor<8x64x1xf32>
    %241 = stablehlo.divide %240, %239 : tensor<8x64x1xf32>
    %cst_53 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %242 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %243 = stablehlo.multiply %242, %241 : tensor<8x64x1xf32>
    %244 = stablehlo.broadcast_in_dim %240, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %245 = stablehlo.multiply %237, %244 : tensor<8x64x128xf32>
    %246 = stablehlo.broadcast_in_dim %arg22, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %247 = stablehlo.broadcast_in_dim %246, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %248 = stablehlo.multiply %245, %247 : tensor<8x64x128xf32>
    %249 = stablehlo.broadcast_in_dim %arg21, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %250 = stablehlo.broadcast_in_dim %249, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %251 = stablehlo.add %248, %250 : tensor<8x64x128xf32>
    %cst_54 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %252 = stablehlo.reduce(%251 init: %cst_54) applies stablehlo.add across dimensions = [1] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %cst_55 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %253 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %254 = stablehlo.divide %252, %253 : tensor<8x128xf32>
    %255 = stablehlo.dot_general %254, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x10xf32>) -> tensor<8x10xf32>
    %256:3 = call @log_softmax(%255) : (tensor<8x10xf32>) -> (tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x1xf32>)
    %257 = stablehlo.broadcast_in_dim %arg24, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %258:2 = call @take_along_axis(%256#0, %257) : (tensor<8x10xf32>, tensor<8x1xi32>) -> (tensor<8x1xf32>, tensor<8x1x1xi32>)
    %cst_56 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %259 = stablehlo.reduce(%258#0 init: %cst_56) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x1xf32>, tensor<f32>) -> tensor<f32>
    %cst_57 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %260 = stablehlo.divide %259, %cst_57 : tensor<f32>
    %261 = stablehlo.negate %260 : tensor<f32>
    %cst_58 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %262 = stablehlo.negate %cst_58 : tensor<f32>
    %cst_59 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %263 = stablehlo.divide %262, %cst_59 : tensor<f32>
    %264 = stablehlo.broadcast_in_dim %263, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %265 = call @take_along_axis_0(%258#1, %264) : (tensor<8x1x1xi32>, tensor<8x1xf32>) -> tensor<8x10xf32>
    %266 = call @log_softmax_1(%256#1, %256#2, %265) : (tensor<8x10xf32>, tensor<8x1xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %267 = stablehlo.dot_general %266, %254, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x10xf32>, tensor<8x128xf32>) -> tensor<10x128xf32>
    %268 = stablehlo.transpose %267, dims = [1, 0] : (tensor<10x128xf32>) -> tensor<128x10xf32>
    %269 = stablehlo.dot_general %266, %arg0, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x10xf32>, tensor<128x10xf32>) -> tensor<8x128xf32>
    %cst_60 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %270 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %271 = stablehlo.divide %269, %270 : tensor<8x128xf32>
    %272 = stablehlo.broadcast_in_dim %271, dims = [0, 2] : (tensor<8x128xf32>) -> tensor<8x64x128xf32>
    %cst_61 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %273 = stablehlo.reduce(%272 init: %cst_61) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<128xf32>
    %274 = stablehlo.reshape %273 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %cst_62 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %275 = stablehlo.reduce(%274 init: %cst_62) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %276 = stablehlo.multiply %245, %272 : tensor<8x64x128xf32>
    %cst_63 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %277 = stablehlo.reduce(%276 init: %cst_63) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<128xf32>
    %278 = stablehlo.reshape %277 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %279 = stablehlo.broadcast_in_dim %246, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %280 = stablehlo.multiply %272, %279 : tensor<8x64x128xf32>
    %cst_64 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %281 = stablehlo.reduce(%278 init: %cst_64) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %282 = stablehlo.multiply %237, %280 : tensor<8x64x128xf32>
    %cst_65 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %283 = stablehlo.reduce(%282 init: %cst_65) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %284 = stablehlo.reshape %283 : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %285 = stablehlo.broadcast_in_dim %240, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %286 = stablehlo.multiply %280, %285 : tensor<8x64x128xf32>
    %287 = stablehlo.multiply %284, %243 : tensor<8x64x1xf32>
    %288 = stablehlo.negate %286 : tensor<8x64x128xf32>
    %cst_66 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %289 = stablehlo.reduce(%288 init: %cst_66) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %290 = stablehlo.reshape %289 : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_67 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %291 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %292 = stablehlo.divide %287, %291 : tensor<8x64x1xf32>
    %cst_68 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %293 = stablehlo.reduce(%292 init: %cst_68) applies stablehlo.add across dimensions = [2] : (tensor<8x64x1xf32>, tensor<f32>) -> tensor<8x64xf32>
    %294 = stablehlo.broadcast_in_dim %293, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x128xf32>
    %295 = stablehlo.multiply %294, %231 : tensor<8x64x128xf32>
    %296 = stablehlo.negate %295 : tensor<8x64x128xf32>
    %cst_69 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %297 = stablehlo.reduce(%296 init: %cst_69) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %298 = stablehlo.reshape %297 : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %299 = stablehlo.add %286, %295 : tensor<8x64x128xf32>
    %300 = stablehlo.add %290, %298 : tensor<8x64x1xf32>
    %cst_70 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %301 = stablehlo.broadcast_in_dim %cst_70, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %302 = stablehlo.divide %300, %301 : tensor<8x64x1xf32>
    %cst_71 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %303 = stablehlo.reduce(%302 init: %cst_71) applies stablehlo.add across dimensions = [2] : (tensor<8x64x1xf32>, tensor<f32>) -> tensor<8x64xf32>
    %304 = stablehlo.broadcast_in_dim %303, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x128xf32>
    %305 = stablehlo.add %299, %304 : tensor<8x64x128xf32>
    %cst_72 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %306 = stablehlo.reduce(%305 init: %cst_72) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<128xf32>
    %307 = stablehlo.reshape %306 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %cst_73 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %308 = stablehlo.reduce(%307 init: %cst_73) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %309 = stablehlo.dot_general %305, %217, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<8x64x512xf32>) -> tensor<128x512xf32>
    %310 = stablehlo.transpose %309, dims = [1, 0] : (tensor<128x512xf32>) -> tensor<512x128xf32>
    %311 = stablehlo.dot_general %305, %arg18, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<512x128xf32>) -> tensor<8x64x512xf32>
    %312 = stablehlo.multiply %199, %311 : tensor<8x64x512xf32>
    %313 = stablehlo.multiply %311, %216 : tensor<8x64x512xf32>
    %cst_74 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %314 = stablehlo.broadcast_in_dim %cst_74, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %315 = stablehlo.multiply %314, %312 : tensor<8x64x512xf32>
    %316 = stablehlo.multiply %315, %212 : tensor<8x64x512xf32>
    %317 = stablehlo.multiply %316, %210 : tensor<8x64x512xf32>
    %318 = stablehlo.add %316, %317 : tensor<8x64x512xf32>
    %cst_75 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %319 = stablehlo.broadcast_in_dim %cst_75, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %320 = stablehlo.multiply %319, %318 : tensor<8x64x512xf32>
    %321 = stablehlo.add %313, %320 : tensor<8x64x512xf32>
    %cst_76 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %322 = stablehlo.broadcast_in_dim %cst_76, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %323 = stablehlo.multiply %322, %320 : tensor<8x64x512xf32>
    %324 = stablehlo.multiply %323, %204 : tensor<8x64x512xf32>
    %325 = stablehlo.add %321, %324 : tensor<8x64x512xf32>
    %cst_77 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %326 = stablehlo.reduce(%325 init: %cst_77) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x64x512xf32>, tensor<f32>) -> tensor<512xf32>
    %327 = stablehlo.reshape %326 : (tensor<512xf32>) -> tensor<1x1x512xf32>
    %cst_78 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %328 = stablehlo.reduce(%327 init: %cst_78) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x512xf32>, tensor<f32>) -> tensor<512xf32>
    %329 = stablehlo.dot_general %325, %195, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x64x512xf32>, tensor<8x64x128xf32>) -> tensor<512x128xf32>
    %330 = stablehlo.transpose %329, dims = [1, 0] : (tensor<512x128xf32>) -> tensor<128x512xf32>
    %331 = stablehlo.dot_general %325, %arg17, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x64x512xf32>, tensor<128x512xf32>) -> tensor<8x64x128xf32>
    %cst_79 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %332 = stablehlo.reduce(%331 init: %cst_79) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<128xf32>
    %333 = stablehlo.reshape %332 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %cst_80 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %334 = stablehlo.reduce(%333 init: %cst_80) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %335 = stablehlo.multiply %189, %331 : tensor<8x64x128xf32>
    %cst_81 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %336 = stablehlo.reduce(%335 init: %cst_81) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<128xf32>
    %337 = stablehlo.reshape %336 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %338 = stablehlo.broadcast_in_dim %190, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %339 = stablehlo.multiply %331, %338 : tensor<8x64x128xf32>
    %cst_82 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %340 = stablehlo.reduce(%337 init: %cst_82) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %341 = stablehlo.multiply %181, %339 : tensor<8x64x128xf32>
    %cst_83 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %342 = stablehlo.reduce(%341 init: %cst_83) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %343 = stablehlo.reshape %342 : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %344 = stablehlo.broadcast_in_dim %184, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %345 = stablehlo.multiply %339, %344 : tensor<8x64x128xf32>
    %346 = stablehlo.multiply %343, %187 : tensor<8x64x1xf32>
    %347 = stablehlo.negate %345 : tensor<8x64x128xf32>
    %cst_84 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %348 = stablehlo.reduce(%347 init: %cst_84) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %349 = stablehlo.reshape %348 : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %350 = stablehlo.add %305, %345 : tensor<8x64x128xf32>
    %cst_85 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %351 = stablehlo.broadcast_in_dim %cst_85, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %352 = stablehlo.divide %346, %351 : tensor<8x64x1xf32>
    %cst_86 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %353 = stablehlo.reduce(%352 init: %cst_86) applies stablehlo.add across dimensions = [2] : (tensor<8x64x1xf32>, tensor<f32>) -> tensor<8x64xf32>
    %354 = stablehlo.broadcast_in_dim %353, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x128xf32>
    %355 = stablehlo.multiply %354, %175 : tensor<8x64x128xf32>
    %356 = stablehlo.negate %355 : tensor<8x64x128xf32>
    %cst_87 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %357 = stablehlo.reduce(%356 init: %cst_87) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %358 = stablehlo.reshape %357 : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %359 = stablehlo.add %350, %355 : tensor<8x64x128xf32>
    %360 = stablehlo.add %349, %358 : tensor<8x64x1xf32>
    %cst_88 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %361 = stablehlo.broadcast_in_dim %cst_88, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %362 = stablehlo.divide %360, %361 : tensor<8x64x1xf32>
    %cst_89 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %363 = stablehlo.reduce(%362 init: %cst_89) applies stablehlo.add across dimensions = [2] : (tensor<8x64x1xf32>, tensor<f32>) -> tensor<8x64xf32>
    %364 = stablehlo.broadcast_in_dim %363, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x128xf32>
    %365 = stablehlo.add %359, %364 : tensor<8x64x128xf32>
    %366 = stablehlo.dot_general %365, %164, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<8x64x128xf32>) -> tensor<128x128xf32>
    %367 = stablehlo.transpose %366, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %368 = stablehlo.dot_general %365, %arg19, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<128x128xf32>) -> tensor<8x64x128xf32>
    %369 = stablehlo.reshape %368 : (tensor<8x64x128xf32>) -> tensor<8x64x4x32xf32>
    %370 = stablehlo.transpose %369, dims = [0, 2, 3, 1] : (tensor<8x64x4x32xf32>) -> tensor<8x4x32x64xf32>
    %371 = stablehlo.dot_general %370, %144, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32x64xf32>, tensor<8x64x4x32xf32>) -> tensor<8x4x64x64xf32>
    %372 = stablehlo.dot_general %370, %158, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32x64xf32>, tensor<8x4x64x64xf32>) -> tensor<8x4x32x64xf32>
    %373 = stablehlo.transpose %372, dims = [0, 3, 1, 2] : (tensor<8x4x32x64xf32>) -> tensor<8x64x4x32xf32>
    %374 = stablehlo.broadcast_in_dim %161, dims = [0, 1, 2, 3] : (tensor<8x4x64x1xf32>) -> tensor<8x4x64x64xf32>
    %375 = stablehlo.multiply %371, %374 : tensor<8x4x64x64xf32>
    %376 = stablehlo.multiply %375, %154 : tensor<8x4x64x64xf32>
    %cst_90 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %377 = stablehlo.reduce(%376 init: %cst_90) applies stablehlo.add across dimensions = [3] : (tensor<8x4x64x64xf32>, tensor<f32>) -> tensor<8x4x64xf32>
    %378 = stablehlo.reshape %377 : (tensor<8x4x64xf32>) -> tensor<8x4x64x1xf32>
    %379 = stablehlo.negate %378 : tensor<8x4x64x1xf32>
    %380 = stablehlo.broadcast_in_dim %156, dims = [0, 1, 2, 3] : (tensor<8x4x64x1xf32>) -> tensor<8x4x64x64xf32>
    %381 = stablehlo.divide %371, %380 : tensor<8x4x64x64xf32>
    %cst_91 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %382 = stablehlo.reduce(%379 init: %cst_91) applies stablehlo.add across dimensions = [3] : (tensor<8x4x64x1xf32>, tensor<f32>) -> tensor<8x4x64xf32>
    %383 = stablehlo.broadcast_in_dim %382, dims = [0, 1, 2] : (tensor<8x4x64xf32>) -> tensor<8x4x64x64xf32>
    %384 = stablehlo.add %381, %383 : tensor<8x4x64x64xf32>
    %385 = stablehlo.multiply %384, %154 : tensor<8x4x64x64xf32>
    %cst_92 = stablehlo.constant dense<5.65685415> : tensor<f32>
    %386 = stablehlo.broadcast_in_dim %cst_92, dims = [] : (tensor<f32>) -> tensor<8x4x64x64xf32>
    %387 = stablehlo.divide %385, %386 : tensor<8x4x64x64xf32>
    %388 = stablehlo.dot_general %387, %142, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x64x64xf32>, tensor<8x64x4x32xf32>) -> tensor<8x4x64x32xf32>
    %389 = stablehlo.transpose %388, dims = [0, 2, 1, 3] : (tensor<8x4x64x32xf32>) -> tensor<8x64x4x32xf32>
    %390 = stablehlo.dot_general %387, %143, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x64x64xf32>, tensor<8x64x4x32xf32>) -> tensor<8x4x64x32xf32>
    %391 = stablehlo.transpose %390, dims = [0, 2, 1, 3] : (tensor<8x4x64x32xf32>) -> tensor<8x64x4x32xf32>
    %392 = stablehlo.reshape %373 : (tensor<8x64x4x32xf32>) -> tensor<8x64x128xf32>
    %393 = stablehlo.reshape %389 : (tensor<8x64x4x32xf32>) -> tensor<8x64x128xf32>
    %394 = stablehlo.reshape %391 : (tensor<8x64x4x32xf32>) -> tensor<8x64x128xf32>
    %395 = stablehlo.concatenate %394, %393, %392, dim = 2 : (tensor<8x64x128xf32>, tensor<8x64x128xf32>, tensor<8x64x128xf32>) -> tensor<8x64x384xf32>
    %396 = stablehlo.dot_general %395, %137, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x64x384xf32>, tensor<8x64x128xf32>) -> tensor<384x128xf32>
    %397 = stablehlo.transpose %396, dims = [1, 0] : (tensor<384x128xf32>) -> tensor<128x384xf32>
    %398 = stablehlo.dot_general %395, %arg20, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x64x384xf32>, tensor<128x384xf32>) -> tensor<8x64x128xf32>
    %cst_93 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %399 = stablehlo.reduce(%398 init: %cst_93) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<128xf32>
    %400 = stablehlo.reshape %399 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %cst_94 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %401 = stablehlo.reduce(%400 init: %cst_94) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %402 = stablehlo.multiply %131, %398 : tensor<8x64x128xf32>
    %cst_95 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %403 = stablehlo.reduce(%402 init: %cst_95) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<128xf32>
    %404 = stablehlo.reshape %403 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %405 = stablehlo.broadcast_in_dim %132, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %406 = stablehlo.multiply %398, %405 : tensor<8x64x128xf32>
    %cst_96 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %407 = stablehlo.reduce(%404 init: %cst_96) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %408 = stablehlo.multiply %123, %406 : tensor<8x64x128xf32>
    %cst_97 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %409 = stablehlo.reduce(%408 init: %cst_97) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %410 = stablehlo.reshape %409 : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %411 = stablehlo.broadcast_in_dim %126, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %412 = stablehlo.multiply %406, %411 : tensor<8x64x128xf32>
    %413 = stablehlo.multiply %410, %129 : tensor<8x64x1xf32>
    %414 = stablehlo.negate %412 : tensor<8x64x128xf32>
    %cst_98 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %415 = stablehlo.reduce(%414 init: %cst_98) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %416 = stablehlo.reshape %415 : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %417 = stablehlo.add %365, %412 : tensor<8x64x128xf32>
    %cst_99 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %418 = stablehlo.broadcast_in_dim %cst_99, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %419 = stablehlo.divide %413, %418 : tensor<8x64x1xf32>
    %cst_100 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %420 = stablehlo.reduce(%419 init: %cst_100) applies stablehlo.add across dimensions = [2] : (tensor<8x64x1xf32>, tensor<f32>) -> tensor<8x64xf32>
    %421 = stablehlo.broadcast_in_dim %420, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x128xf32>
    %422 = stablehlo.multiply %421, %117 : tensor<8x64x128xf32>
    %423 = stablehlo.negate %422 : tensor<8x64x128xf32>
    %cst_101 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %424 = stablehlo.reduce(%423 init: %cst_101) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %425 = stablehlo.reshape %424 : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %426 = stablehlo.add %417, %422 : tensor<8x64x128xf32>
    %427 = stablehlo.add %416, %425 : tensor<8x64x1xf32>
    %cst_102 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %428 = stablehlo.broadcast_in_dim %cst_102, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %429 = stablehlo.divide %427, %428 : tensor<8x64x1xf32>
    %cst_103 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %430 = stablehlo.reduce(%429 init: %cst_103) applies stablehlo.add across dimensions = [2] : (tensor<8x64x1xf32>, tensor<f32>) -> tensor<8x64xf32>
    %431 = stablehlo.broadcast_in_dim %430, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x128xf32>
    %432 = stablehlo.add %426, %431 : tensor<8x64x128xf32>
    %cst_104 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %433 = stablehlo.reduce(%432 init: %cst_104) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<128xf32>
    %434 = stablehlo.reshape %433 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %cst_105 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %435 = stablehlo.reduce(%434 init: %cst_105) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %436 = stablehlo.dot_general %432, %103, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<8x64x512xf32>) -> tensor<128x512xf32>
    %437 = stablehlo.transpose %436, dims = [1, 0] : (tensor<128x512xf32>) -> tensor<512x128xf32>
    %438 = stablehlo.dot_general %432, %arg8, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<512x128xf32>) -> tensor<8x64x512xf32>
    %439 = stablehlo.multiply %85, %438 : tensor<8x64x512xf32>
    %440 = stablehlo.multiply %438, %102 : tensor<8x64x512xf32>
    %cst_106 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %441 = stablehlo.broadcast_in_dim %cst_106, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %442 = stablehlo.multiply %441, %439 : tensor<8x64x512xf32>
    %443 = stablehlo.multiply %442, %98 : tensor<8x64x512xf32>
    %444 = stablehlo.multiply %443, %96 : tensor<8x64x512xf32>
    %445 = stablehlo.add %443, %444 : tensor<8x64x512xf32>
    %cst_107 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %446 = stablehlo.broadcast_in_dim %cst_107, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %447 = stablehlo.multiply %446, %445 : tensor<8x64x512xf32>
    %448 = stablehlo.add %440, %447 : tensor<8x64x512xf32>
    %cst_108 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %449 = stablehlo.broadcast_in_dim %cst_108, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %450 = stablehlo.multiply %449, %447 : tensor<8x64x512xf32>
    %451 = stablehlo.multiply %450, %90 : tensor<8x64x512xf32>
    %452 = stablehlo.add %448, %451 : tensor<8x64x512xf32>
    %cst_109 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %453 = stablehlo.reduce(%452 init: %cst_109) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x64x512xf32>, tensor<f32>) -> tensor<512xf32>
    %454 = stablehlo.reshape %453 : (tensor<512xf32>) -> tensor<1x1x512xf32>
    %cst_110 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %455 = stablehlo.reduce(%454 init: %cst_110) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x512xf32>, tensor<f32>) -> tensor<512xf32>
    %456 = stablehlo.dot_general %452, %81, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x64x512xf32>, tensor<8x64x128xf32>) -> tensor<512x128xf32>
    %457 = stablehlo.transpose %456, dims = [1, 0] : (tensor<512x128xf32>) -> tensor<128x512xf32>
    %458 = stablehlo.dot_general %452, %arg7, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x64x512xf32>, tensor<128x512xf32>) -> tensor<8x64x128xf32>
    %cst_111 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %459 = stablehlo.reduce(%458 init: %cst_111) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<128xf32>
    %460 = stablehlo.reshape %459 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %cst_112 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %461 = stablehlo.reduce(%460 init: %cst_112) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %462 = stablehlo.multiply %75, %458 : tensor<8x64x128xf32>
    %cst_113 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %463 = stablehlo.reduce(%462 init: %cst_113) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<128xf32>
    %464 = stablehlo.reshape %463 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %465 = stablehlo.broadcast_in_dim %76, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %466 = stablehlo.multiply %458, %465 : tensor<8x64x128xf32>
    %cst_114 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %467 = stablehlo.reduce(%464 init: %cst_114) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %468 = stablehlo.multiply %67, %466 : tensor<8x64x128xf32>
    %cst_115 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %469 = stablehlo.reduce(%468 init: %cst_115) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %470 = stablehlo.reshape %469 : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %471 = stablehlo.broadcast_in_dim %70, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %472 = stablehlo.multiply %466, %471 : tensor<8x64x128xf32>
    %473 = stablehlo.multiply %470, %73 : tensor<8x64x1xf32>
    %474 = stablehlo.negate %472 : tensor<8x64x128xf32>
    %cst_116 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %475 = stablehlo.reduce(%474 init: %cst_116) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %476 = stablehlo.reshape %475 : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %477 = stablehlo.add %432, %472 : tensor<8x64x128xf32>
    %cst_117 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %478 = stablehlo.broadcast_in_dim %cst_117, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %479 = stablehlo.divide %473, %478 : tensor<8x64x1xf32>
    %cst_118 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %480 = stablehlo.reduce(%479 init: %cst_118) applies stablehlo.add across dimensions = [2] : (tensor<8x64x1xf32>, tensor<f32>) -> tensor<8x64xf32>
    %481 = stablehlo.broadcast_in_dim %480, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x128xf32>
    %482 = stablehlo.multiply %481, %61 : tensor<8x64x128xf32>
    %483 = stablehlo.negate %482 : tensor<8x64x128xf32>
    %cst_119 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %484 = stablehlo.reduce(%483 init: %cst_119) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %485 = stablehlo.reshape %484 : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %486 = stablehlo.add %477, %482 : tensor<8x64x128xf32>
    %487 = stablehlo.add %476, %485 : tensor<8x64x1xf32>
    %cst_120 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %488 = stablehlo.broadcast_in_dim %cst_120, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %489 = stablehlo.divide %487, %488 : tensor<8x64x1xf32>
    %cst_121 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %490 = stablehlo.reduce(%489 init: %cst_121) applies stablehlo.add across dimensions = [2] : (tensor<8x64x1xf32>, tensor<f32>) -> tensor<8x64xf32>
    %491 = stablehlo.broadcast_in_dim %490, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x128xf32>
    %492 = stablehlo.add %486, %491 : tensor<8x64x128xf32>
    %493 = stablehlo.dot_general %492, %50, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<8x64x128xf32>) -> tensor<128x128xf32>
    %494 = stablehlo.transpose %493, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %495 = stablehlo.dot_general %492, %arg9, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<128x128xf32>) -> tensor<8x64x128xf32>
    %496 = stablehlo.reshape %495 : (tensor<8x64x128xf32>) -> tensor<8x64x4x32xf32>
    %497 = stablehlo.transpose %496, dims = [0, 2, 3, 1] : (tensor<8x64x4x32xf32>) -> tensor<8x4x32x64xf32>
    %498 = stablehlo.dot_general %497, %30, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32x64xf32>, tensor<8x64x4x32xf32>) -> tensor<8x4x64x64xf32>
    %499 = stablehlo.dot_general %497, %44, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32x64xf32>, tensor<8x4x64x64xf32>) -> tensor<8x4x32x64xf32>
    %500 = stablehlo.transpose %499, dims = [0, 3, 1, 2] : (tensor<8x4x32x64xf32>) -> tensor<8x64x4x32xf32>
    %501 = stablehlo.broadcast_in_dim %47, dims = [0, 1, 2, 3] : (tensor<8x4x64x1xf32>) -> tensor<8x4x64x64xf32>
    %502 = stablehlo.multiply %498, %501 : tensor<8x4x64x64xf32>
    %503 = stablehlo.multiply %502, %40 : tensor<8x4x64x64xf32>
    %cst_122 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %504 = stablehlo.reduce(%503 init: %cst_122) applies stablehlo.add across dimensions = [3] : (tensor<8x4x64x64xf32>, tensor<f32>) -> tensor<8x4x64xf32>
    %505 = stablehlo.reshape %504 : (tensor<8x4x64xf32>) -> tensor<8x4x64x1xf32>
    %506 = stablehlo.negate %505 : tensor<8x4x64x1xf32>
    %507 = stablehlo.broadcast_in_dim %42, dims = [0, 1, 2, 3] : (tensor<8x4x64x1xf32>) -> tensor<8x4x64x64xf32>
    %508 = stablehlo.divide %498, %507 : tensor<8x4x64x64xf32>
    %cst_123 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %509 = stablehlo.reduce(%506 init: %cst_123) applies stablehlo.add across dimensions = [3] : (tensor<8x4x64x1xf32>, tensor<f32>) -> tensor<8x4x64xf32>
    %510 = stablehlo.broadcast_in_dim %509, dims = [0, 1, 2] : (tensor<8x4x64xf32>) -> tensor<8x4x64x64xf32>
    %511 = stablehlo.add %508, %510 : tensor<8x4x64x64xf32>
    %512 = stablehlo.multiply %511, %40 : tensor<8x4x64x64xf32>
    %cst_124 = stablehlo.constant dense<5.65685415> : tensor<f32>
    %513 = stablehlo.broadcast_in_dim %cst_124, dims = [] : (tensor<f32>) -> tensor<8x4x64x64xf32>
    %514 = stablehlo.divide %512, %513 : tensor<8x4x64x64xf32>
    %515 = stablehlo.dot_general %514, %28, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x64x64xf32>, tensor<8x64x4x32xf32>) -> tensor<8x4x64x32xf32>
    %516 = stablehlo.transpose %515, dims = [0, 2, 1, 3] : (tensor<8x4x64x32xf32>) -> tensor<8x64x4x32xf32>
    %517 = stablehlo.dot_general %514, %29, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x64x64xf32>, tensor<8x64x4x32xf32>) -> tensor<8x4x64x32xf32>
    %518 = stablehlo.transpose %517, dims = [0, 2, 1, 3] : (tensor<8x4x64x32xf32>) -> tensor<8x64x4x32xf32>
    %519 = stablehlo.reshape %500 : (tensor<8x64x4x32xf32>) -> tensor<8x64x128xf32>
    %520 = stablehlo.reshape %516 : (tensor<8x64x4x32xf32>) -> tensor<8x64x128xf32>
    %521 = stablehlo.reshape %518 : (tensor<8x64x4x32xf32>) -> tensor<8x64x128xf32>
    %522 = stablehlo.concatenate %521, %520, %519, dim = 2 : (tensor<8x64x128xf32>, tensor<8x64x128xf32>, tensor<8x64x128xf32>) -> tensor<8x64x384xf32>
    %523 = stablehlo.dot_general %522, %23, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x64x384xf32>, tensor<8x64x128xf32>) -> tensor<384x128xf32>
    %524 = stablehlo.transpose %523, dims = [1, 0] : (tensor<384x128xf32>) -> tensor<128x384xf32>
    %525 = stablehlo.dot_general %522, %arg10, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x64x384xf32>, tensor<128x384xf32>) -> tensor<8x64x128xf32>
    %cst_125 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %526 = stablehlo.reduce(%525 init: %cst_125) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<128xf32>
    %527 = stablehlo.reshape %526 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %cst_126 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %528 = stablehlo.reduce(%527 init: %cst_126) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %529 = stablehlo.multiply %17, %525 : tensor<8x64x128xf32>
    %cst_127 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %530 = stablehlo.reduce(%529 init: %cst_127) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<128xf32>
    %531 = stablehlo.reshape %530 : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %cst_128 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %532 = stablehlo.reduce(%531 init: %cst_128) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x128xf32>, tensor<f32>) -> tensor<128xf32>
    %cst_129 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %533 = stablehlo.broadcast_in_dim %cst_129, dims = [] : (tensor<f32>) -> tensor<128x10xf32>
    %534 = stablehlo.multiply %533, %268 : tensor<128x10xf32>
    %535 = stablehlo.subtract %arg0, %534 : tensor<128x10xf32>
    %cst_130 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %536 = stablehlo.broadcast_in_dim %cst_130, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %537 = stablehlo.multiply %536, %455 : tensor<512xf32>
    %538 = stablehlo.subtract %arg1, %537 : tensor<512xf32>
    %cst_131 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %539 = stablehlo.broadcast_in_dim %cst_131, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %540 = stablehlo.multiply %539, %435 : tensor<128xf32>
    %541 = stablehlo.subtract %arg2, %540 : tensor<128xf32>
    %cst_132 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %542 = stablehlo.broadcast_in_dim %cst_132, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %543 = stablehlo.multiply %542, %528 : tensor<128xf32>
    %544 = stablehlo.subtract %arg3, %543 : tensor<128xf32>
    %cst_133 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %545 = stablehlo.broadcast_in_dim %cst_133, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %546 = stablehlo.multiply %545, %532 : tensor<128xf32>
    %547 = stablehlo.subtract %arg4, %546 : tensor<128xf32>
    %cst_134 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %548 = stablehlo.broadcast_in_dim %cst_134, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %549 = stablehlo.multiply %548, %461 : tensor<128xf32>
    %550 = stablehlo.subtract %arg5, %549 : tensor<128xf32>
    %cst_135 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %551 = stablehlo.broadcast_in_dim %cst_135, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %552 = stablehlo.multiply %551, %467 : tensor<128xf32>
    %553 = stablehlo.subtract %arg6, %552 : tensor<128xf32>
    %cst_136 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %554 = stablehlo.broadcast_in_dim %cst_136, dims = [] : (tensor<f32>) -> tensor<128x512xf32>
    %555 = stablehlo.multiply %554, %457 : tensor<128x512xf32>
    %556 = stablehlo.subtract %arg7, %555 : tensor<128x512xf32>
    %cst_137 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %557 = stablehlo.broadcast_in_dim %cst_137, dims = [] : (tensor<f32>) -> tensor<512x128xf32>
    %558 = stablehlo.multiply %557, %437 : tensor<512x128xf32>
    %559 = stablehlo.subtract %arg8, %558 : tensor<512x128xf32>
    %cst_138 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %560 = stablehlo.broadcast_in_dim %cst_138, dims = [] : (tensor<f32>) -> tensor<128x128xf32>
    %561 = stablehlo.multiply %560, %494 : tensor<128x128xf32>
    %562 = stablehlo.subtract %arg9, %561 : tensor<128x128xf32>
    %cst_139 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %563 = stablehlo.broadcast_in_dim %cst_139, dims = [] : (tensor<f32>) -> tensor<128x384xf32>
    %564 = stablehlo.multiply %563, %524 : tensor<128x384xf32>
    %565 = stablehlo.subtract %arg10, %564 : tensor<128x384xf32>
    %cst_140 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %566 = stablehlo.broadcast_in_dim %cst_140, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %567 = stablehlo.multiply %566, %328 : tensor<512xf32>
    %568 = stablehlo.subtract %arg11, %567 : tensor<512xf32>
    %cst_141 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %569 = stablehlo.broadcast_in_dim %cst_141, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %570 = stablehlo.multiply %569, %308 : tensor<128xf32>
    %571 = stablehlo.subtract %arg12, %570 : tensor<128xf32>
    %cst_142 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %572 = stablehlo.broadcast_in_dim %cst_142, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %573 = stablehlo.multiply %572, %401 : tensor<128xf32>
    %574 = stablehlo.subtract %arg13, %573 : tensor<128xf32>
    %cst_143 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %575 = stablehlo.broadcast_in_dim %cst_143, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %576 = stablehlo.multiply %575, %407 : tensor<128xf32>
    %577 = stablehlo.subtract %arg14, %576 : tensor<128xf32>
    %cst_144 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %578 = stablehlo.broadcast_in_dim %cst_144, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %579 = stablehlo.multiply %578, %334 : tensor<128xf32>
    %580 = stablehlo.subtract %arg15, %579 : tensor<128xf32>
    %cst_145 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %581 = stablehlo.broadcast_in_dim %cst_145, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %582 = stablehlo.multiply %581, %340 : tensor<128xf32>
    %583 = stablehlo.subtract %arg16, %582 : tensor<128xf32>
    %cst_146 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %584 = stablehlo.broadcast_in_dim %cst_146, dims = [] : (tensor<f32>) -> tensor<128x512xf32>
    %585 = stablehlo.multiply %584, %330 : tensor<128x512xf32>
    %586 = stablehlo.subtract %arg17, %585 : tensor<128x512xf32>
    %cst_147 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %587 = stablehlo.broadcast_in_dim %cst_147, dims = [] : (tensor<f32>) -> tensor<512x128xf32>
    %588 = stablehlo.multiply %587, %310 : tensor<512x128xf32>
    %589 = stablehlo.subtract %arg18, %588 : tensor<512x128xf32>
    %cst_148 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %590 = stablehlo.broadcast_in_dim %cst_148, dims = [] : (tensor<f32>) -> tensor<128x128xf32>
    %591 = stablehlo.multiply %590, %367 : tensor<128x128xf32>
    %592 = stablehlo.subtract %arg19, %591 : tensor<128x128xf32>
    %cst_149 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %593 = stablehlo.broadcast_in_dim %cst_149, dims = [] : (tensor<f32>) -> tensor<128x384xf32>
    %594 = stablehlo.multiply %593, %397 : tensor<128x384xf32>
    %595 = stablehlo.subtract %arg20, %594 : tensor<128x384xf32>
    %cst_150 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %596 = stablehlo.broadcast_in_dim %cst_150, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %597 = stablehlo.multiply %596, %275 : tensor<128xf32>
    %598 = stablehlo.subtract %arg21, %597 : tensor<128xf32>
    %cst_151 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %599 = stablehlo.broadcast_in_dim %cst_151, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %600 = stablehlo.multiply %599, %281 : tensor<128xf32>
    %601 = stablehlo.subtract %arg22, %600 : tensor<128xf32>
    return %535, %538, %541, %544, %547, %550, %553, %556, %559, %562, %565, %568, %571, %574, %577, %580, %583, %586, %589, %592, %595, %598, %601, %261 : tensor<128x10xf32>, tensor<512xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512x128xf32>, tensor<128x128xf32>, tensor<128x384xf32>, tensor<512xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512x128xf32>, tensor<128x128xf32>, tensor<128x384xf32>, tensor<128xf32>, tensor<128xf32>, tensor<f32>
  }
  func.func private @log_softmax(%arg0: tensor<8x10xf32>) -> (tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<8xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<8x10xf32>
    %6 = stablehlo.exponential %5 : tensor<8x10xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %9 = stablehlo.log %8 : tensor<8x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<8x10xf32>
    return %11, %6, %8 : tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x1xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<8x10xf32>, %arg1: tensor<8x1xi32>) -> (tensor<8x1xf32>, tensor<8x1x1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x1xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x1xi1>
    %c_0 = stablehlo.constant dense<10> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8x1xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<8x1xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<8x1xi1>, tensor<8x1xi32>
    %5 = stablehlo.reshape %4 : (tensor<8x1xi32>) -> tensor<8x1x1xi32>
    %c_1 = stablehlo.constant dense<9> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<8x1x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<8x1x1xi32>, tensor<8x1x1xi32>) -> tensor<8x1x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<8x1x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<8x1x1xi32>, tensor<8x1x1xi32>) -> tensor<8x1x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<8x1x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<8x1x1xi1>, tensor<i1>) -> tensor<8x1xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x10xf32>, tensor<8x1x1xi32>) -> tensor<8x1xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<8x1xi1>, tensor<8x1xf32>
    return %15, %5 : tensor<8x1xf32>, tensor<8x1x1xi32>
  }
  func.func private @take_along_axis_0(%arg0: tensor<8x1x1xi32>, %arg1: tensor<8x1xf32>) -> tensor<8x10xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<8x10xf32>, tensor<8x1x1xi32>, tensor<8x1xf32>) -> tensor<8x10xf32>
    return %1 : tensor<8x10xf32>
  }
  func.func private @log_softmax_1(%arg0: tensor<8x10xf32>, %arg1: tensor<8x1xf32>, %arg2: tensor<8x10xf32>) -> tensor<8x10xf32> {
    %0 = stablehlo.negate %arg2 : tensor<8x10xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.reshape %1 : (tensor<8xf32>) -> tensor<8x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<8x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf32>, tensor<f32>) -> tensor<8xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<8xf32>) -> tensor<8x10xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<8x10xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<8x10xf32>
    return %7 : tensor<8x10xf32>
  }
}
