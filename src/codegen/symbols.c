/*
 * symbols.c - the runtime library functions generated code may call, by
 * name, for the JIT (an AOT object links them from libxlacrt instead).
 */
#include "codegen/lower.h"

static const RuntimeSymbol symbols[] = {
    {"xlacrt_parallel_for", (void *)xlacrt_parallel_for},
    {"xlacrt_sgemm", (void *)xlacrt_sgemm},
    {"xlacrt_dgemm", (void *)xlacrt_dgemm},
    {"xlacrt_sort", (void *)xlacrt_sort},
};

const RuntimeSymbol *runtime_symbols(int *n) {
  *n = (int)ARRAY_LEN(symbols);
  return symbols;
}
