// Written by hand in the form bench/gen_programs.py gives jax_programs.py's function; regenerate with it.
// bench: kind=time bytes=16777216 flops=4194304
module @jit_tanh_f16 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4194304xf16>) -> (tensor<4194304xf16> {jax.result_info = "result"}) {
    %0 = stablehlo.tanh %arg0 : tensor<4194304xf16>
    return %0 : tensor<4194304xf16>
  }
}
