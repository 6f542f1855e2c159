// Written by hand in the form bench/gen_programs.py gives jax_programs.py's function; regenerate with it.
// bench: kind=time bytes=33554432 flops=4194304
module @jit_erf_f32 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4194304xf32>) -> (tensor<4194304xf32> {jax.result_info = "result"}) {
    %0 = chlo.erf %arg0 : tensor<4194304xf32> -> tensor<4194304xf32>
    return %0 : tensor<4194304xf32>
  }
}
