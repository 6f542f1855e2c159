module @jit__transformer attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<128x10xf32>, %arg1: tensor<512xf32>, %arg2: tensor<128xf32>, %arg3: tensor<128xf32>, %arg4: tensor<128xf32>, %arg5: tensor<128xf32>, %arg6: tensor<128xf32>, %arg7: tensor<128x512xf32>, %arg8: tensor<512x128xf32>, %arg9: tensor<128x128xf32>, %arg10: tensor<128x384xf32>, %arg11: tensor<512xf32>, %arg12: tensor<128xf32>, %arg13: tensor<128xf32>, %arg14: tensor<128xf32>, %arg15: tensor<128xf32>, %arg16: tensor<128xf32>, %arg17: tensor<128x512xf32>, %arg18: tensor<512x128xf32>, %arg19: tensor<128x128xf32>, %arg20: tensor<128x384xf32>, %arg21: tensor<128xf32>, %arg22: tensor<128xf32>, %arg23: tensor<8x64x128xf32>) -> (tensor<8x10xf32> {jax.result_info = "result"}) {
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
    %45 = stablehlo.dot_general %30, %44, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x64x4x32xf32>, tensor<8x4x64x64xf32>) -> tensor<8x4x32x64xf32>
    %46 = stablehlo.transpose %45, dims = [0, 3, 1, 2] : (tensor<8x4x32x64xf32>) -> tensor<8x64x4x32xf32>
    %47 = stablehlo.reshape %46 : (tensor<8x64x4x32xf32>) -> tensor<8x64x128xf32>
    %48 = stablehlo.dot_general %47, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<128x128xf32>) -> tensor<8x64x128xf32>
    %49 = stablehlo.add %arg23, %48 : tensor<8x64x128xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %50 = stablehlo.reduce(%49 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_9 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %53 = stablehlo.divide %51, %52 : tensor<8x64x1xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %55 = stablehlo.subtract %49, %54 : tensor<8x64x128xf32>
    %56 = chlo.square %55 : tensor<8x64x128xf32> -> tensor<8x64x128xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %57 = stablehlo.reduce(%56 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_11 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %60 = stablehlo.divide %58, %59 : tensor<8x64x1xf32>
    %61 = stablehlo.broadcast_in_dim %53, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %62 = stablehlo.subtract %49, %61 : tensor<8x64x128xf32>
    %cst_12 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %64 = stablehlo.add %60, %63 : tensor<8x64x1xf32>
    %65 = stablehlo.rsqrt %64 : tensor<8x64x1xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %67 = stablehlo.multiply %62, %66 : tensor<8x64x128xf32>
    %68 = stablehlo.broadcast_in_dim %arg6, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %70 = stablehlo.multiply %67, %69 : tensor<8x64x128xf32>
    %71 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %73 = stablehlo.add %70, %72 : tensor<8x64x128xf32>
    %74 = stablehlo.dot_general %73, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<128x512xf32>) -> tensor<8x64x512xf32>
    %75 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<512xf32>) -> tensor<1x1x512xf32>
    %76 = stablehlo.broadcast_in_dim %75, dims = [0, 1, 2] : (tensor<1x1x512xf32>) -> tensor<8x64x512xf32>
    %77 = stablehlo.add %74, %76 : tensor<8x64x512xf32>
    %78 = stablehlo.multiply %77, %77 : tensor<8x64x512xf32>
    %79 = stablehlo.multiply %78, %77 : tensor<8x64x512xf32>
    %cst_13 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %80 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %81 = stablehlo.multiply %80, %79 : tensor<8x64x512xf32>
    %82 = stablehlo.add %77, %81 : tensor<8x64x512xf32>
    %cst_14 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %84 = stablehlo.multiply %83, %82 : tensor<8x64x512xf32>
    %85 = stablehlo.tanh %84 : tensor<8x64x512xf32>
    %cst_15 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %86 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %87 = stablehlo.add %86, %85 : tensor<8x64x512xf32>
    %cst_16 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %88 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %89 = stablehlo.multiply %88, %87 : tensor<8x64x512xf32>
    %90 = stablehlo.multiply %77, %89 : tensor<8x64x512xf32>
    %91 = stablehlo.dot_general %90, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64x512xf32>, tensor<512x128xf32>) -> tensor<8x64x128xf32>
    %92 = stablehlo.add %49, %91 : tensor<8x64x128xf32>
    %93 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %94 = stablehlo.broadcast_in_dim %93, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %95 = stablehlo.add %92, %94 : tensor<8x64x128xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %96 = stablehlo.reduce(%95 init: %cst_17) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %97 = stablehlo.broadcast_in_dim %96, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_18 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %98 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %99 = stablehlo.divide %97, %98 : tensor<8x64x1xf32>
    %100 = stablehlo.broadcast_in_dim %99, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %101 = stablehlo.subtract %95, %100 : tensor<8x64x128xf32>
    %102 = chlo.square %101 : tensor<8x64x128xf32> -> tensor<8x64x128xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %103 = stablehlo.reduce(%102 init: %cst_19) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %104 = stablehlo.broadcast_in_dim %103, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_20 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %105 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %106 = stablehlo.divide %104, %105 : tensor<8x64x1xf32>
    %107 = stablehlo.broadcast_in_dim %99, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %108 = stablehlo.subtract %95, %107 : tensor<8x64x128xf32>
    %cst_21 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %109 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %110 = stablehlo.add %106, %109 : tensor<8x64x1xf32>
    %111 = stablehlo.rsqrt %110 : tensor<8x64x1xf32>
    %112 = stablehlo.broadcast_in_dim %111, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %113 = stablehlo.multiply %108, %112 : tensor<8x64x128xf32>
    %114 = stablehlo.broadcast_in_dim %arg14, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %115 = stablehlo.broadcast_in_dim %114, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %116 = stablehlo.multiply %113, %115 : tensor<8x64x128xf32>
    %117 = stablehlo.broadcast_in_dim %arg13, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %118 = stablehlo.broadcast_in_dim %117, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %119 = stablehlo.add %116, %118 : tensor<8x64x128xf32>
    %120 = stablehlo.dot_general %119, %arg20, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<128x384xf32>) -> tensor<8x64x384xf32>
    %121 = stablehlo.slice %120 [0:8, 0:64, 0:128] : (tensor<8x64x384xf32>) -> tensor<8x64x128xf32>
    %122 = stablehlo.slice %120 [0:8, 0:64, 128:256] : (tensor<8x64x384xf32>) -> tensor<8x64x128xf32>
    %123 = stablehlo.slice %120 [0:8, 0:64, 256:384] : (tensor<8x64x384xf32>) -> tensor<8x64x128xf32>
    %124 = stablehlo.reshape %121 : (tensor<8x64x128xf32>) -> tensor<8x64x4x32xf32>
    %125 = stablehlo.reshape %122 : (tensor<8x64x128xf32>) -> tensor<8x64x4x32xf32>
    %126 = stablehlo.reshape %123 : (tensor<8x64x128xf32>) -> tensor<8x64x4x32xf32>
    %127 = stablehlo.dot_general %124, %125, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x64x4x32xf32>, tensor<8x64x4x32xf32>) -> tensor<8x4x64x64xf32>
    %cst_22 = stablehlo.constant dense<5.65685415> : tensor<f32>
    %128 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<8x4x64x64xf32>
    %129 = stablehlo.divide %127, %128 : tensor<8x4x64x64xf32>
    %cst_23 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %130 = stablehlo.reduce(%129 init: %cst_23) applies stablehlo.maximum across dimensions = [3] : (tensor<8x4x64x64xf32>, tensor<f32>) -> tensor<8x4x64xf32>
    %cst_24 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %131 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<8x4x64xf32>
    %132 = stablehlo.maximum %131, %130 : tensor<8x4x64xf32>
    %133 = stablehlo.broadcast_in_dim %132, dims = [0, 1, 2] : (tensor<8x4x64xf32>) -> tensor<8x4x64x1xf32>
    %134 = stablehlo.broadcast_in_dim %133, dims = [0, 1, 2, 3] : (tensor<8x4x64x1xf32>) -> tensor<8x4x64x64xf32>
    %135 = stablehlo.subtract %129, %134 : tensor<8x4x64x64xf32>
    %136 = stablehlo.exponential %135 : tensor<8x4x64x64xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %137 = stablehlo.reduce(%136 init: %cst_25) applies stablehlo.add across dimensions = [3] : (tensor<8x4x64x64xf32>, tensor<f32>) -> tensor<8x4x64xf32>
    %138 = stablehlo.broadcast_in_dim %137, dims = [0, 1, 2] : (tensor<8x4x64xf32>) -> tensor<8x4x64x1xf32>
    %139 = stablehlo.broadcast_in_dim %138, dims = [0, 1, 2, 3] : (tensor<8x4x64x1xf32>) -> tensor<8x4x64x64xf32>
    %140 = stablehlo.divide %136, %139 : tensor<8x4x64x64xf32>
    %141 = stablehlo.dot_general %126, %140, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<8x64x4x32xf32>, tensor<8x4x64x64xf32>) -> tensor<8x4x32x64xf32>
    %142 = stablehlo.transpose %141, dims = [0, 3, 1, 2] : (tensor<8x4x32x64xf32>) -> tensor<8x64x4x32xf32>
    %143 = stablehlo.reshape %142 : (tensor<8x64x4x32xf32>) -> tensor<8x64x128xf32>
    %144 = stablehlo.dot_general %143, %arg19, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<128x128xf32>) -> tensor<8x64x128xf32>
    %145 = stablehlo.add %95, %144 : tensor<8x64x128xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %146 = stablehlo.reduce(%145 init: %cst_26) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %147 = stablehlo.broadcast_in_dim %146, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_27 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %148 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %149 = stablehlo.divide %147, %148 : tensor<8x64x1xf32>
    %150 = stablehlo.broadcast_in_dim %149, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %151 = stablehlo.subtract %145, %150 : tensor<8x64x128xf32>
    %152 = chlo.square %151 : tensor<8x64x128xf32> -> tensor<8x64x128xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %153 = stablehlo.reduce(%152 init: %cst_28) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %154 = stablehlo.broadcast_in_dim %153, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_29 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %155 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %156 = stablehlo.divide %154, %155 : tensor<8x64x1xf32>
    %157 = stablehlo.broadcast_in_dim %149, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %158 = stablehlo.subtract %145, %157 : tensor<8x64x128xf32>
    %cst_30 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %159 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %160 = stablehlo.add %156, %159 : tensor<8x64x1xf32>
    %161 = stablehlo.rsqrt %160 : tensor<8x64x1xf32>
    %162 = stablehlo.broadcast_in_dim %161, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %163 = stablehlo.multiply %158, %162 : tensor<8x64x128xf32>
    %164 = stablehlo.broadcast_in_dim %arg16, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %165 = stablehlo.broadcast_in_dim %164, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %166 = stablehlo.multiply %163, %165 : tensor<8x64x128xf32>
    %167 = stablehlo.broadcast_in_dim %arg15, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %168 = stablehlo.broadcast_in_dim %167, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %169 = stablehlo.add %166, %168 : tensor<8x64x128xf32>
    %170 = stablehlo.dot_general %169, %arg17, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64x128xf32>, tensor<128x512xf32>) -> tensor<8x64x512xf32>
    %171 = stablehlo.broadcast_in_dim %arg11, dims = [2] : (tensor<512xf32>) -> tensor<1x1x512xf32>
    %172 = stablehlo.broadcast_in_dim %171, dims = [0, 1, 2] : (tensor<1x1x512xf32>) -> tensor<8x64x512xf32>
    %173 = stablehlo.add %170, %172 : tensor<8x64x512xf32>
    %174 = stablehlo.multiply %173, %173 : tensor<8x64x512xf32>
    %175 = stablehlo.multiply %174, %173 : tensor<8x64x512xf32>
    %cst_31 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %176 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %177 = stablehlo.multiply %176, %175 : tensor<8x64x512xf32>
    %178 = stablehlo.add %173, %177 : tensor<8x64x512xf32>
    %cst_32 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %179 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %180 = stablehlo.multiply %179, %178 : tensor<8x64x512xf32>
    %181 = stablehlo.tanh %180 : tensor<8x64x512xf32>
    %cst_33 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %182 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %183 = stablehlo.add %182, %181 : tensor<8x64x512xf32>
    %cst_34 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %184 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<8x64x512xf32>
    %185 = stablehlo.multiply %184, %183 : tensor<8x64x512xf32>
    %186 = stablehlo.multiply %173, %185 : tensor<8x64x512xf32>
    %187 = stablehlo.dot_general %186, %arg18, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64x512xf32>, tensor<512x128xf32>) -> tensor<8x64x128xf32>
    %188 = stablehlo.add %145, %187 : tensor<8x64x128xf32>
    %189 = stablehlo.broadcast_in_dim %arg12, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %190 = stablehlo.broadcast_in_dim %189, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %191 = stablehlo.add %188, %190 : tensor<8x64x128xf32>
    %cst_35 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %192 = stablehlo.reduce(%191 init: %cst_35) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %193 = stablehlo.broadcast_in_dim %192, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_36 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %194 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %195 = stablehlo.divide %193, %194 : tensor<8x64x1xf32>
    %196 = stablehlo.broadcast_in_dim %195, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %197 = stablehlo.subtract %191, %196 : tensor<8x64x128xf32>
    %198 = chlo.square %197 : tensor<8x64x128xf32> -> tensor<8x64x128xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %199 = stablehlo.reduce(%198 init: %cst_37) applies stablehlo.add across dimensions = [2] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x64xf32>
    %200 = stablehlo.broadcast_in_dim %199, dims = [0, 1] : (tensor<8x64xf32>) -> tensor<8x64x1xf32>
    %cst_38 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %201 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %202 = stablehlo.divide %200, %201 : tensor<8x64x1xf32>
    %203 = stablehlo.broadcast_in_dim %195, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %204 = stablehlo.subtract %191, %203 : tensor<8x64x128xf32>
    %cst_39 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %205 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<8x64x1xf32>
    %206 = stablehlo.add %202, %205 : tensor<8x64x1xf32>
    %207 = stablehlo.rsqrt %206 : tensor<8x64x1xf32>
    %208 = stablehlo.broadcast_in_dim %207, dims = [0, 1, 2] : (tensor<8x64x1xf32>) -> tensor<8x64x128xf32>
    %209 = stablehlo.multiply %204, %208 : tensor<8x64x128xf32>
    %210 = stablehlo.broadcast_in_dim %arg22, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %211 = stablehlo.broadcast_in_dim %210, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %212 = stablehlo.multiply %209, %211 : tensor<8x64x128xf32>
    %213 = stablehlo.broadcast_in_dim %arg21, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %214 = stablehlo.broadcast_in_dim %213, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<8x64x128xf32>
    %215 = stablehlo.add %212, %214 : tensor<8x64x128xf32>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %216 = stablehlo.reduce(%215 init: %cst_40) applies stablehlo.add across dimensions = [1] : (tensor<8x64x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %cst_41 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %217 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %218 = stablehlo.divide %216, %217 : tensor<8x128xf32>
    %219 = stablehlo.dot_general %218, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x128xf32>, tensor<128x10xf32>) -> tensor<8x10xf32>
    return %219 : tensor<8x10xf32>
  }
}
