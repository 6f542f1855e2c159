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
/* The same with 16-bit inputs (bfloat16 or IEEE half bit patterns) and a
   float C: products are exact, sums are accumulated in float. */
void xlacrt_gemm_bf16(xlacrt_pool *p, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                      const uint16_t *a, int64_t lda, const uint16_t *b, int64_t ldb, float *c,
                      int64_t ldc, int accumulate);
void xlacrt_gemm_f16(xlacrt_pool *p, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                     const uint16_t *a, int64_t lda, const uint16_t *b, int64_t ldb, float *c,
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

/* ---- sort ----
 * Stable sort of every row of a tensor along one dimension: the tensor is
 * [outer, len, inner] (row-major) and each of the outer * inner rows of len
 * elements, stride inner, is sorted by the first operand's elements under
 * one comparison, comparator(a, b) = a DIRECTION b, with IEEE semantics
 * (ordered comparisons with NaN false, != true) or, with total_order, the
 * total order of bit patterns -NaN < -inf < ... < -0 < +0 < ... < NaN.
 * The permutation is the one the bottom-up merge sort of the reference
 * interpreter produces, and is applied to all nops operands (ins[k] ->
 * outs[k], elements of elem_bytes[k] bytes).  Rows run on the pool in
 * fixed chunks. */
enum {
  XLACRT_KEY_S8, XLACRT_KEY_S16, XLACRT_KEY_S32, XLACRT_KEY_S64,
  XLACRT_KEY_U8, XLACRT_KEY_U16, XLACRT_KEY_U32, XLACRT_KEY_U64,
  XLACRT_KEY_F16, XLACRT_KEY_BF16, XLACRT_KEY_F32, XLACRT_KEY_F64
};
enum { XLACRT_CMP_LT, XLACRT_CMP_GT, XLACRT_CMP_LE, XLACRT_CMP_GE, XLACRT_CMP_EQ, XLACRT_CMP_NE };
void xlacrt_sort(xlacrt_pool *p, int64_t outer, int64_t len, int64_t inner, int key_type,
                 int total_order, int direction, int nops, const void *const *ins,
                 void *const *outs, const int32_t *elem_bytes);

/* The same with any comparator: less(ins, a, b) is comparator(element a,
   element b) (positions in the whole tensor), nonzero when it holds. */
typedef int32_t (*xlacrt_sort_less_fn)(const void *const *ins, int64_t a, int64_t b);
void xlacrt_sort_cmp(xlacrt_pool *p, int64_t outer, int64_t len, int64_t inner, int nops,
                     const void *const *ins, void *const *outs, const int32_t *elem_bytes,
                     xlacrt_sort_less_fn less);

/* ---- convolution (conv.c) ----
 * im2col + GEMM over blocks of output rows (an output row is one batch
 * index and spatial position; its columns are the output features).  The
 * descriptor is all int64_t so a compiler can emit it as an i64 array.
 * Strides are in elements; `out_rowmajor` says the output element (row, o)
 * is at row * out_feat + o.  feature grouping: `groups` divides in_feat and
 * out_feat; batch grouping is not supported. */
#define XLACRT_CONV_MAX_SPATIAL 8
typedef struct xlacrt_conv {
    int64_t nsp, batch, in_feat, out_feat, groups, rows, out_rowmajor;
    int64_t in_sn, in_sc, k_si, k_so, out_sn, out_so;
    int64_t in_dim[XLACRT_CONV_MAX_SPATIAL], in_ss[XLACRT_CONV_MAX_SPATIAL];
    int64_t k_dim[XLACRT_CONV_MAX_SPATIAL], k_ss[XLACRT_CONV_MAX_SPATIAL];
    int64_t out_dim[XLACRT_CONV_MAX_SPATIAL], out_ss[XLACRT_CONV_MAX_SPATIAL];
    int64_t stride[XLACRT_CONV_MAX_SPATIAL], pad_lo[XLACRT_CONV_MAX_SPATIAL];
    int64_t lhs_dil[XLACRT_CONV_MAX_SPATIAL], rhs_dil[XLACRT_CONV_MAX_SPATIAL];
    int64_t reverse[XLACRT_CONV_MAX_SPATIAL];
} xlacrt_conv;
/* Rearranges the kernel into per-group [window * in_feat/groups, out_feat/groups]
   matrices (w holds as many elements as the kernel). */
void xlacrt_conv_pack_f32(const xlacrt_conv *d, const float *kernel, float *w);
void xlacrt_conv_pack_f64(const xlacrt_conv *d, const double *kernel, double *w);
/* Output rows [r0, r1) (clipped to d->rows), computed serially. */
void xlacrt_conv_rows_f32(const xlacrt_conv *d, const float *in, const float *w, float *out,
                          int64_t r0, int64_t r1);
void xlacrt_conv_rows_f64(const xlacrt_conv *d, const double *in, const double *w, double *out,
                          int64_t r0, int64_t r1);
/* All rows, in blocks of `block` rows run on the pool. */
void xlacrt_conv_run(xlacrt_pool *p, const xlacrt_conv *d, int f64, const void *in,
                     const void *w, void *out, int64_t block);

/* ---- matrix-vector products (gemv.c) ----
 * For products with a vector, read the matrix once in storage order.  A is
 * row-major [rows, cols] with leading dimension lda.
 *   trans == 0: y[rows] = A * x[cols]
 *   trans == 1: y[cols] = x[rows] * A
 * Split over the pool in chunks fixed by the shape; each output element is
 * summed in an order fixed by the shape (not left to right: within float
 * reassociation of a plain sum). */
void xlacrt_sgemv(xlacrt_pool *p, int trans, int64_t rows, int64_t cols, const float *a,
                  int64_t lda, const float *x, float *y);
void xlacrt_dgemv(xlacrt_pool *p, int trans, int64_t rows, int64_t cols, const double *a,
                  int64_t lda, const double *x, double *y);

#endif
