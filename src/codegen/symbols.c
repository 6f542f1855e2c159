/*
 * symbols.c - the runtime library functions generated code may call, by
 * name, for the JIT (an AOT object links them from libxlacrt instead).
 */
#include "codegen/lower.h"

static const RuntimeSymbol symbols[] = {
    {"xlacrt_parallel_for", (void *)xlacrt_parallel_for},
    {"xlacrt_sgemm", (void *)xlacrt_sgemm},
    {"xlacrt_dgemm", (void *)xlacrt_dgemm},
    {"xlacrt_sgemm_batched", (void *)xlacrt_sgemm_batched},
    {"xlacrt_dgemm_batched", (void *)xlacrt_dgemm_batched},
    {"xlacrt_sgemv", (void *)xlacrt_sgemv},
    {"xlacrt_dgemv", (void *)xlacrt_dgemv},
    {"xlacrt_conv_pack_f32", (void *)xlacrt_conv_pack_f32},
    {"xlacrt_conv_pack_f64", (void *)xlacrt_conv_pack_f64},
    {"xlacrt_conv_rows_f32", (void *)xlacrt_conv_rows_f32},
    {"xlacrt_conv_rows_f64", (void *)xlacrt_conv_rows_f64},
    {"xlacrt_conv_run", (void *)xlacrt_conv_run},
    {"xlacrt_sort", (void *)xlacrt_sort},
    {"xlacrt_sort_cmp", (void *)xlacrt_sort_cmp},
};

const RuntimeSymbol *runtime_symbols(int *n) {
  *n = (int)ARRAY_LEN(symbols);
  return symbols;
}
