/*
 * xlacrt.h - the xlac runtime library: everything generated code calls.
 *
 * It stands alone: no LLVM, no compiler code, only libc, libm and pthreads,
 * so an ahead-of-time compiled program links this and nothing else.  All
 * entry points are plain C with fixed signatures; generated code calls them
 * by name.  Every kernel is deterministic: results never depend on the
 * number of threads or on timing.
 */
#ifndef XLACRT_H
#define XLACRT_H

#include <stddef.h>
#include <stdint.h>

#define XLACRT_ABI_VERSION 1
int xlacrt_abi_version(void);

/* ---- thread pool ----
 * A pool of worker threads shared by all executions of a client.  Work is
 * split into `n` chunks fixed by the caller (never by the thread count), so
 * the partition of the work, and therefore every result, is the same for
 * any number of threads. */
typedef struct xlacrt_pool xlacrt_pool;
xlacrt_pool *xlacrt_pool_create(int nthreads); /* nthreads <= 0: number of cores */
void xlacrt_pool_destroy(xlacrt_pool *p);
int xlacrt_pool_size(const xlacrt_pool *p);
typedef void (*xlacrt_task_fn)(int64_t chunk, void *ctx);
/* Runs fn(0..n-1, ctx) on the pool and the calling thread; returns when all
   chunks are done.  p may be NULL (runs serially). */
void xlacrt_parallel_for(xlacrt_pool *p, int64_t n, xlacrt_task_fn fn, void *ctx);

/* ---- GEMM ----
 * C[m,n] = A[m,k] * B[k,n] (+ C if accumulate), row-major with leading
 * dimensions lda/ldb/ldc; trans_a/trans_b read A/B transposed (A stored
 * [k,m], B stored [n,k]).  Packed, register-blocked, split over the pool in
 * fixed blocks. */
void xlacrt_sgemm(xlacrt_pool *p, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                  const float *a, int64_t lda, const float *b, int64_t ldb, float *c, int64_t ldc,
                  int accumulate);
void xlacrt_dgemm(xlacrt_pool *p, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                  const double *a, int64_t lda, const double *b, int64_t ldb, double *c,
                  int64_t ldc, int accumulate);
/* `batch` independent products; operand i starts stride_* elements after
   operand i-1 (A and B strides may be 0 to share an operand; the C blocks
   must not overlap).  Each product comes out exactly as from a single call. */
void xlacrt_sgemm_batched(xlacrt_pool *p, int trans_a, int trans_b, int64_t batch, int64_t m,
                          int64_t n, int64_t k, const float *a, int64_t lda, int64_t stride_a,
                          const float *b, int64_t ldb, int64_t stride_b, float *c, int64_t ldc,
                          int64_t stride_c, int accumulate);
void xlacrt_dgemm_batched(xlacrt_pool *p, int trans_a, int trans_b, int64_t batch, int64_t m,
                          int64_t n, int64_t k, const double *a, int64_t lda, int64_t stride_a,
                          const double *b, int64_t ldb, int64_t stride_b, double *c,
                          int64_t ldc, int64_t stride_c, int accumulate);
/* Picks the GEMM kernel family: "avx512", "avx2", "c" (portable) or "best"
   (the default: the best the CPU supports).  Returns 0, changing nothing,
   when the CPU lacks the family.  For tests and benchmarks; not to be called
   while a GEMM runs. */
int xlacrt_gemm_set_isa(const char *name);

#endif
