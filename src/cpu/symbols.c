/*
 * symbols.c - the runtime library functions generated code may call, by
 * name, for the JIT (an AOT object links them from libxlacrt instead).
 */
#include "cpu/lower.h"

static const RuntimeSymbol symbols[] = {
    {"xlacrt_parallel_for", (void *)xlacrt_parallel_for},
    {"xlacrt_sgemm", (void *)xlacrt_sgemm},
    {"xlacrt_dgemm", (void *)xlacrt_dgemm},
    {"xlacrt_sgemm_batched", (void *)xlacrt_sgemm_batched},
    {"xlacrt_dgemm_batched", (void *)xlacrt_dgemm_batched},
    {"xlacrt_gemm_bf16", (void *)xlacrt_gemm_bf16},
    {"xlacrt_gemm_bf16_batched", (void *)xlacrt_gemm_bf16_batched},
    {"xlacrt_gemm_s8", (void *)xlacrt_gemm_s8},
    {"xlacrt_gemm_s8_batched", (void *)xlacrt_gemm_s8_batched},
    {"xlacrt_gemm_f16", (void *)xlacrt_gemm_f16},
    {"xlacrt_gemm_f16_batched", (void *)xlacrt_gemm_f16_batched},
    {"xlacrt_sgemm_pack_b", (void *)xlacrt_sgemm_pack_b},
    {"xlacrt_dgemm_pack_b", (void *)xlacrt_dgemm_pack_b},
    {"xlacrt_sgemm_packed", (void *)xlacrt_sgemm_packed},
    {"xlacrt_dgemm_packed", (void *)xlacrt_dgemm_packed},
    {"xlacrt_sgemv", (void *)xlacrt_sgemv},
    {"xlacrt_dgemv", (void *)xlacrt_dgemv},
    {"xlacrt_conv_pack_f32", (void *)xlacrt_conv_pack_f32},
    {"xlacrt_conv_pack_f64", (void *)xlacrt_conv_pack_f64},
    {"xlacrt_conv_rows_f32", (void *)xlacrt_conv_rows_f32},
    {"xlacrt_conv_rows_f64", (void *)xlacrt_conv_rows_f64},
    {"xlacrt_conv_run", (void *)xlacrt_conv_run},
    {"xlacrt_sort", (void *)xlacrt_sort},
    {"xlacrt_sort_cmp", (void *)xlacrt_sort_cmp},
    {"xlacrt_top_k", (void *)xlacrt_top_k},
    /* loop state permutations (cpu.c) */
    {"xlacrt_save_copy", (void *)xlacrt_save_copy},
    {"xlacrt_restore_free", (void *)xlacrt_restore_free},
    /* special functions (emit_scalar.c): one call per element */
    {"xlacrt_lgamma", (void *)xlacrt_lgamma},
    {"xlacrt_digamma", (void *)xlacrt_digamma},
    {"xlacrt_igamma", (void *)xlacrt_igamma},
    {"xlacrt_igammac", (void *)xlacrt_igammac},
    {"xlacrt_polygamma", (void *)xlacrt_polygamma},
    {"xlacrt_zeta", (void *)xlacrt_zeta},
    {"xlacrt_bessel_i1e", (void *)xlacrt_bessel_i1e},
    /* linear algebra and FFT (kernel_linalg.c) */
    {"xlacrt_cholesky", (void *)xlacrt_cholesky},
    {"xlacrt_triangular_solve", (void *)xlacrt_triangular_solve},
    {"xlacrt_fft", (void *)xlacrt_fft},
    /* random numbers (kernel_random.c) */
    {"xlacrt_rng_bit_generator", (void *)xlacrt_rng_bit_generator},
    {"xlacrt_rng", (void *)xlacrt_rng},
    /* complex division and functions (emit_complex.c) */
    {"xlacrt_complex_fn", (void *)xlacrt_complex_fn},
    /* ragged dot (kernel_ragged.c) */
    {"xlacrt_ragged_dot", (void *)xlacrt_ragged_dot},
    /* collectives (kernel_collective.c) */
    {"xlacrt_collective", (void *)xlacrt_collective},
    {"xlac_rt_comm", (void *)xlac_rt_comm},
    {"xlac_rt_comm_failed", (void *)xlac_rt_comm_failed},
    /* custom calls into registered host functions (kernel_custom.c) */
    {"xlac_rt_custom_call", (void *)xlac_rt_custom_call},
};

const RuntimeSymbol *runtime_symbols(int *n) {
  *n = (int)ARRAY_LEN(symbols);
  return symbols;
}
