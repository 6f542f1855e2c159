// Written by hand in the form bench/gen_programs.py gives jax_programs.py's function; regenerate with it.
// bench: kind=time bytes=16777216 flops=25165824
module @jit_gelu_erf_f16 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4096x1024xf16>) -> (tensor<4096x1024xf16> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<1.414060e+00> : tensor<f16>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<4096x1024xf16>
    %1 = stablehlo.divide %arg0, %0 : tensor<4096x1024xf16>
    %2 = chlo.erf %1 : tensor<4096x1024xf16> -> tensor<4096x1024xf16>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f16>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f16>) -> tensor<4096x1024xf16>
    %4 = stablehlo.add %3, %2 : tensor<4096x1024xf16>
    %cst_1 = stablehlo.constant dense<5.000000e-01> : tensor<f16>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f16>) -> tensor<4096x1024xf16>
    %6 = stablehlo.multiply %arg0, %5 : tensor<4096x1024xf16>
    %7 = stablehlo.multiply %6, %4 : tensor<4096x1024xf16>
    return %7 : tensor<4096x1024xf16>
  }
}
