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

#ifdef __cplusplus
extern "C" {
#endif

/* Raised when what generated code and the runtime expect of each other
   changes (2: xlacrt_conv_pack wants xlacrt_conv_packed_bytes; 3: kernel
   gradients, xlacrt_conv_shifted, pack the kernel differently; 4: an AOT
   program names the CPU features its code needs; 5: 3x3 f32 convolutions
   pack their kernel for Winograd, xlacrt_conv_winograd, and
   xlacrt_conv_packed_bytes grows for them), so an AOT object from an older
   compiler is refused instead of misread. */
#define XLACRT_ABI_VERSION 5
int xlacrt_abi_version(void);

/* ---- errors ----
 * Runtime calls never abort.  One that fails (its scratch memory cannot be
 * allocated) leaves its outputs unspecified and records the failure in the
 * status installed on the calling thread; parallel loops carry the
 * submitter's status to their workers.  Install a zeroed status around a
 * run of generated code and check `failed` afterwards. */
typedef struct xlacrt_status {
    int failed;    /* set once, atomically, by the first failure */
    char msg[200]; /* what failed */
} xlacrt_status;
/* Installs s (may be NULL) on this thread; returns the previous one. */
xlacrt_status *xlacrt_status_swap(xlacrt_status *s);
xlacrt_status *xlacrt_status_current(void);
/* Records a failure in the current status (the first one is kept). */
void xlacrt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* malloc that records "out of memory: WHAT" and returns NULL on failure. */
void *xlacrt_try_alloc(const char *what, size_t n);
/* A heap copy of n bytes of src (NULL, recorded, when memory runs out), and
   its way back: copies saved to dst and frees it; does nothing for NULL.
   Compiled loops permute their state through these. */
void *xlacrt_save_copy(const void *src, int64_t n);
void xlacrt_restore_free(void *dst, void *saved, int64_t n);

/* ---- per-thread scratch (status.c) ----
 * Working memory runtime calls keep between calls: slot s of the calling
 * thread holds one 64-byte aligned block, grown when a call needs more,
 * so a program run again allocates nothing.  Blocks larger than
 * XLACRT_SCRATCH_KEEP are not kept (put frees them).  A thread's blocks
 * are freed when it exits.  get returns NULL, recording "out of memory:
 * WHAT", when memory runs out.  Nested users of one thread take different
 * slots. */
enum { XLACRT_SCRATCH_GEMM, XLACRT_SCRATCH_CONV_COLS, XLACRT_SCRATCH_CONV_OUT, XLACRT_SCRATCH_SORT,
       XLACRT_SCRATCH_SLOTS };
#define XLACRT_SCRATCH_KEEP ((size_t)64 << 20)
void *xlacrt_scratch_get(int slot, size_t bytes, const char *what);
void xlacrt_scratch_put(int slot, void *p);

/* ---- thread pool ----
 * A pool of worker threads shared by all executions of a client.  Work is
 * split into `n` chunks fixed by the caller (never by the thread count), so
 * the partition of the work, and therefore every result, is the same for
 * any number of threads. */
typedef struct xlacrt_pool xlacrt_pool;
xlacrt_pool *xlacrt_pool_create(int nthreads); /* nthreads <= 0: number of cores */
void xlacrt_pool_destroy(xlacrt_pool *p);
int xlacrt_pool_size(const xlacrt_pool *p);
/* A pool over the caller's threads: schedule(user, fn, arg) must run
   fn(arg) on one of them soon; nthreads counts the calling thread too. */
typedef void (*xlacrt_schedule_fn)(void *user, void (*fn)(void *arg), void *arg);
xlacrt_pool *xlacrt_pool_create_external(int nthreads, xlacrt_schedule_fn schedule, void *user);
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
/* Strided batches of bfloat16 products (as xlacrt_sgemm_batched). */
void xlacrt_gemm_bf16_batched(xlacrt_pool *p, int trans_a, int trans_b, int64_t batch, int64_t m,
                              int64_t n, int64_t k, const uint16_t *a, int64_t lda, int64_t stride_a,
                              const uint16_t *b, int64_t ldb, int64_t stride_b, float *c, int64_t ldc,
                              int64_t stride_c, int accumulate);
void xlacrt_gemm_f16(xlacrt_pool *p, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                     const uint16_t *a, int64_t lda, const uint16_t *b, int64_t ldb, float *c,
                     int64_t ldc, int accumulate);
void xlacrt_gemm_f16_batched(xlacrt_pool *p, int trans_a, int trans_b, int64_t batch, int64_t m,
                             int64_t n, int64_t k, const uint16_t *a, int64_t lda, int64_t stride_a,
                             const uint16_t *b, int64_t ldb, int64_t stride_b, float *c, int64_t ldc,
                             int64_t stride_c, int accumulate);
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
/* B packed once for many products (a convolution's kernel, used by every
   block of output rows): xlacrt_gemm_packed_b_bytes is the size of the
   packed copy for any kernel family (an upper bound; the copy must be
   64-byte aligned), *_pack_b fills it (recording the family it was packed
   for), and *_packed multiplies A by it: C[m,n] = A[m,k] * B (+ C).  The
   products give the same bits as the plain calls with the same family.
   The compiler also packs the weights of a loop's products this way, once
   before the loop (cpu/kernel_dot.c). */
size_t xlacrt_gemm_packed_b_bytes(int f64, int64_t n, int64_t k);
void xlacrt_sgemm_pack_b(xlacrt_pool *p, int trans_b, int64_t n, int64_t k, const float *b, int64_t ldb,
                         void *packed);
void xlacrt_dgemm_pack_b(xlacrt_pool *p, int trans_b, int64_t n, int64_t k, const double *b, int64_t ldb,
                         void *packed);
void xlacrt_sgemm_packed(xlacrt_pool *p, int trans_a, int64_t m, const float *a, int64_t lda, const void *packed,
                         float *c, int64_t ldc, int accumulate);
void xlacrt_dgemm_packed(xlacrt_pool *p, int trans_a, int64_t m, const double *a, int64_t lda,
                         const void *packed, double *c, int64_t ldc, int accumulate);
/* int8 products with 32-bit sums: C[m,n] (int32) = op(A) op(B) (+ C),
   A and B signed 8-bit, sums wrapping modulo 2^32 (exact unless k is
   beyond 2^17).  On AMX tiles where the host has them, else AVX-512 VNNI,
   else portable C; every result is exact, so all give the same bits.
   The batched form as xlacrt_sgemm_batched. */
void xlacrt_gemm_s8(xlacrt_pool *p, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, const int8_t *a,
                    int64_t lda, const int8_t *b, int64_t ldb, int32_t *c, int64_t ldc, int accumulate);
void xlacrt_gemm_s8_batched(xlacrt_pool *p, int trans_a, int trans_b, int64_t batch, int64_t m, int64_t n,
                            int64_t k, const int8_t *a, int64_t lda, int64_t stride_a, const int8_t *b, int64_t ldb,
                            int64_t stride_b, int32_t *c, int64_t ldc, int64_t stride_c, int accumulate);
/* Picks the GEMM kernel family: "avx512", "avx2", "c" (portable), "amx"
   (AVX-512, with the int8 products on AMX tiles, and the bfloat16 ones
   while the calling thread flushes denormals: MXCSR FTZ and DAZ, as the
   tile instructions do),
   "amx-emulated" (those products on a C emulation of the tile instructions:
   slow, for tests), "avx512bf16" (AVX-512, with those bfloat16 products
   on vdpbf16ps, which flushes denormals as the tiles do) or "best" (the
   default: the best the CPU supports, AMX where the CPU and OS allow it,
   else vdpbf16ps on AMD's AVX-512 BF16 cores, where it is twice the float
   kernels' speed).  Returns 0, changing nothing, when the
   CPU lacks the family.  For tests and benchmarks; not to be called while
   a GEMM runs. */
int xlacrt_gemm_set_isa(const char *name);
/* The instruction-set family each run-time kernel family uses on this CPU
   ("amx", "amx-emulated", "avx512", "avx2" or "c"): GEMM (and the
   convolutions built on it), matrix-vector products, the float FFT, and
   the counter-based RNGs; and for int8 products "amx", "amx-emulated",
   "avx512vnni" or "c". */
const char *xlacrt_gemm_isa(void);
const char *xlacrt_gemm_s8_isa(void);
/* bfloat16 products while the calling thread flushes denormals: "amx",
   "amx-emulated", "avx512bf16", or the float kernels' family (which they
   always use in IEEE mode). */
const char *xlacrt_gemm_bf16_isa(void);
/* Whether AMX is usable here: "on", or "off (why)": the CPU's CPUID, the
   OS's XCR0, Linux's permission for tile data, or XLAC_AMX=0. */
const char *xlacrt_amx_status(void);
const char *xlacrt_gemv_isa(void);
const char *xlacrt_fft_isa(void);
const char *xlacrt_random_isa(void);
/* Helpers LLVM's code generator calls by their compiler-runtime names
   where the CPU has no instruction for the job (float or double to
   bfloat16 on x86 without AVX512-BF16: __truncsfbf2, __truncdfbf2), which
   the C runtime may lack (GCC 12's libgcc does): name and address pairs
   for a JIT's symbol table (an AOT object links them from libxlacrt by
   name).  xlacrt_f32_to_bf16 and xlacrt_f64_to_bf16 are the same
   conversions returning the bits (round to nearest even, subnormals kept,
   NaNs quiet). */
typedef struct xlacrt_symbol {
    const char *name;
    void *addr;
} xlacrt_symbol;
const xlacrt_symbol *xlacrt_compiler_rt_symbols(int *n);
uint16_t xlacrt_f32_to_bf16(float f);
uint16_t xlacrt_f64_to_bf16(double d);

/* Whether this CPU runs the instruction-set extension LLVM calls `name`
   ("avx2", "avx512f", "avx512fp16", "amx-tile", ...): 1 yes, 0 no, -1 a
   name this runtime does not know (or not an x86 CPU).  A feature with
   registers of its own counts only when the operating system saves them. */
int xlacrt_cpu_has(const char *name);
/* 1 with the first feature of a comma-separated list that this CPU lacks
   in buf (truncated to size), else 0; unknown names are not held against
   it. */
int xlacrt_cpu_missing(const char *list, char *buf, size_t size);

/* ---- sort ----
 * Stable sort of every row of a tensor along one dimension: the tensor is
 * [outer, len, inner] (row-major) and each of the outer * inner rows of len
 * elements, stride inner, is sorted by the first operand's elements under
 * one comparison, comparator(a, b) = a DIRECTION b, with IEEE semantics
 * (ordered comparisons with NaN false, != true) or, with total_order 1, the
 * total order of bit patterns -NaN < -inf < ... < -0 < +0 < ... < NaN;
 * total_order 2 is that order after every NaN is made the positive quiet
 * NaN and -0 is made +0 (JAX's sort comparators).
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

/* The k best elements of each of rows rows of len elements (row-major) and
   their positions: larger first (floats in the total order of sort, so NaN
   is largest), equal keys by lower position, as a stable descending sort's
   first k.  values gets the elements, indices the positions as signed
   integers of index_bytes bytes.  Rows run on the pool in fixed chunks. */
void xlacrt_top_k(xlacrt_pool *p, int64_t rows, int64_t len, int64_t k, int key_type, const void *in,
                  void *values, void *indices, int index_bytes);

/* ---- convolution (conv.c) ----
 * im2col + GEMM over blocks of output rows (an output row is one batch
 * index and spatial position; its columns are the output features).  The
 * descriptor is all int64_t so a compiler can emit it as an i64 array.
 * Strides are in elements; `out_rowmajor` says the output element (row, o)
 * is at row * out_feat + o.  feature grouping: `groups` divides in_feat and
 * out_feat.  batch grouping: `batch_groups` (1 when unused; feature and
 * batch grouping never combine) divides out_feat, and output feature group
 * j reads input batch j * batch + n for output batch n (`batch` is the
 * output's batch size). */
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
    int64_t batch_groups;
} xlacrt_conv;
/* Rearranges the kernel for the rows: per-group [window * in_feat/groups,
   out_feat/groups] matrices; with one group, that matrix packed for the
   GEMM (xlacrt_sgemm_pack_b); for a depthwise convolution, [window
   position][out_feat]; for Winograd (xlacrt_conv_winograd), the 16
   transformed kernels behind a header the rows recognize.  w holds
   xlacrt_conv_packed_bytes (64-byte aligned), enough for either layout. */
size_t xlacrt_conv_packed_bytes(const xlacrt_conv *d, int f64);
void xlacrt_conv_pack_f32(const xlacrt_conv *d, const float *kernel, float *w);
void xlacrt_conv_pack_f64(const xlacrt_conv *d, const double *kernel, double *w);
/* Nonzero when the window is nearly the whole input (a kernel gradient):
   then xlacrt_conv_run computes each output position as one GEMM over the
   window, the packed kernel is laid out for that, and xlacrt_conv_rows must
   not be used. */
int xlacrt_conv_shifted(const xlacrt_conv *d);
/* Nonzero when xlacrt_conv_pack_f32 packs d for Winograd's F(2x2, 3x3) (a
   3x3 window at unit stride, undilated, one group, at least 16 input and
   output features, features innermost in the input, row-major output;
   XLAC_WINOGRAD=0 in the environment turns it off): the rows then come in
   tiles of 2 output rows (stripes of 2 * out_dim[1] rows), and the value
   is a number of rows worth asking for at once (at most d->rows): whole
   stripes, or whole images when out_dim[0] is odd, and at least two
   blocks where the output has two stripes.  Any rows can still be asked
   for; rows of stripes cut by r0 or r1 cost the whole stripe. */
int64_t xlacrt_conv_winograd(const xlacrt_conv *d);
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

/* ---- special functions (special.c) ----
 * Scalar functions in double, shared by the reference interpreter and by
 * compiled code (one call per element): lgamma (+inf at the poles),
 * digamma (NaN at 0, -1, -2, ...), the regularized incomplete gammas
 * P(a, x) and Q(a, x), polygamma(n, x), Hurwitz zeta(s, q), and
 * exp(-|x|) I1(x). */
double xlacrt_lgamma(double x);
double xlacrt_digamma(double x);
double xlacrt_igamma(double a, double x);
double xlacrt_igammac(double a, double x);
double xlacrt_polygamma(double n, double x);
double xlacrt_zeta(double s, double q);
double xlacrt_bessel_i1e(double x);

/* ---- linear algebra (linalg.c) ----
 * Batches of square matrices, row-major, one after another.  Element types
 * (XLACRT_LA_*): f32, f64, complex64, complex128 (complex as (re, im)
 * pairs).  Work is done in double (double complex) and rounded once when
 * stored; results never depend on the thread count. */
enum { XLACRT_LA_F32, XLACRT_LA_F64, XLACRT_LA_C64, XLACRT_LA_C128 };
/* Cholesky factor of each n x n matrix of a, from its lower (or upper)
   triangle only: L with L L^H = A (lower) or U with U^H U = A (upper); the
   other triangle of the result is zero; from the first negative pivot on,
   the factor holds NaNs. */
void xlacrt_cholesky(xlacrt_pool *p, int type, int lower, int64_t batch, int64_t n, const void *a,
                     void *out);
/* Solves op(A) X = B (left != 0) or X op(A) = B for X, per batch: A is
   m x m and only its lower (or upper) triangle is read, with a diagonal of
   ones when unit != 0; op is the identity (transpose 0), the transpose (1)
   or the conjugate transpose (2).  B and out are b_rows x b_cols. */
void xlacrt_triangular_solve(xlacrt_pool *p, int type, int left, int lower, int unit,
                             int transpose, int64_t batch, int64_t m, int64_t b_rows,
                             int64_t b_cols, const void *a, const void *b, void *out);

/* ---- FFT (fft.c, fft_f32.c) ----
 * stablehlo.fft over the innermost nlen (1 to 3) dimensions of `batch`
 * tensors, with fft_length len[0..nlen): kind XLACRT_FFT_* ; f64 selects
 * complex128/f64 over complex64/f32.  FFT and IFFT map complex to complex
 * of the same shape; RFFT maps real [.., len[-1]] to complex
 * [.., len[-1]/2+1]; IRFFT the reverse.  IFFT and IRFFT divide by the
 * length of each dimension.  complex64/f32 transforms whose lengths are all
 * powers of two are computed in float (radix-4, 16 lines at a time,
 * twiddles computed in double and rounded); everything else in double with
 * twiddles computed in double: radix-2 for powers of two, Bluestein's
 * chirp-z through powers of two for the others (an exact DFT for small
 * ones). */
enum { XLACRT_FFT_FFT, XLACRT_FFT_IFFT, XLACRT_FFT_RFFT, XLACRT_FFT_IRFFT };
void xlacrt_fft(xlacrt_pool *p, int kind, int f64, int64_t batch, int nlen, const int64_t *len,
                const void *in, void *out);
/* Picks the float FFT's kernels: "avx512", "avx2", "c" (portable) or "best"
   (the default).  All give the same results.  Returns 0, changing nothing,
   when the CPU lacks the family.  For tests and benchmarks; not to be
   called while an FFT runs. */
int xlacrt_fft_set_isa(const char *name);

/* ---- random numbers (random.c) ----
 * rng_bit_generator and rng, shared by the reference interpreter and
 * compiled code so both give the same values bit for bit (random.c says
 * how the numbers are made).  Work is split into chunks fixed by the output
 * size and run on the pool (p may be NULL: serial). */
enum { XLACRT_RNG_THREE_FRY, XLACRT_RNG_PHILOX };
/* state: nstate u64 words (THREE_FRY: 2; PHILOX: 2 or 3); new_state gets
   as many.  out: a row-major tensor of dims[0..rank) elements of elem_bytes
   (1, 2, 4 or 8) bytes.  out and new_state may be NULL (not written) and
   may share storage with state.  Returns 0, writing nothing, when an
   argument is invalid. */
int xlacrt_rng_bit_generator(xlacrt_pool *p, int algorithm, int64_t nstate, const uint64_t *state,
                             uint64_t *new_state, int rank, const int64_t *dims, int elem_bytes,
                             void *out);
enum { XLACRT_RNG_UNIFORM, XLACRT_RNG_NORMAL };
enum {
  XLACRT_RNG_PRED, XLACRT_RNG_S8, XLACRT_RNG_S16, XLACRT_RNG_S32, XLACRT_RNG_S64,
  XLACRT_RNG_U8, XLACRT_RNG_U16, XLACRT_RNG_U32, XLACRT_RNG_U64,
  XLACRT_RNG_F16, XLACRT_RNG_BF16, XLACRT_RNG_F32, XLACRT_RNG_F64
};
/* The key of one rng op, from its source location. */
uint64_t xlacrt_rng_key(int32_t file, uint32_t offset);
/* Rounds v to the element type of an F64 rng computed for a narrower
   format (UNIFORM redraws values that round up to b); returns a double. */
typedef double (*xlacrt_rng_round_fn)(double v, void *ctx);
/* n numbers of `type` (a pred, integer or float XLACRT_RNG_* code) into
   out: UNIFORM in [*a, *b), NORMAL with mean *a and deviation *b (floats
   only); a and b point to scalars of that type.  round, for type F64 only,
   may be NULL.  Returns 0, writing nothing, when an argument is invalid. */
int xlacrt_rng(xlacrt_pool *p, uint64_t key, int distribution, int type, const void *a, const void *b,
               int64_t n, void *out, xlacrt_rng_round_fn round, void *round_ctx);

/* ---- complex functions (complex.c) ----
 * out[0], out[1] = fn(a) or fn(a, b) (XLACRT_C_DIV: a / b; XLACRT_C_POW:
 * a ** b) on double complex a = (ar, ai), b = (br, bi), with C99 <complex.h>
 * semantics: what the reference interpreter computes.  One element per
 * call. */
enum {
  XLACRT_C_DIV, XLACRT_C_EXP, XLACRT_C_LOG, XLACRT_C_SQRT, XLACRT_C_SIN, XLACRT_C_COS, XLACRT_C_TAN,
  XLACRT_C_TANH, XLACRT_C_SINH, XLACRT_C_COSH, XLACRT_C_ASIN, XLACRT_C_ACOS, XLACRT_C_ATAN,
  XLACRT_C_ASINH, XLACRT_C_ACOSH, XLACRT_C_ATANH, XLACRT_C_POW
};
void xlacrt_complex_fn(int32_t fn, double ar, double ai, double br, double bi, double *out);

/* ---- ragged dot (ragged.c) ----
 * chlo.ragged_dot on operands in a canonical layout, row-major, one GEMM
 * per group (G groups along a ragged dimension of size r, split as
 * [p][r][q] where it matters).  Modes:
 *   ROWS (ragged non-contracting dimension):  lhs [batch][p][r][q][k],
 *     rhs [batch][G][k][n], out [batch][p][r][q][n]; rows in group g use
 *     rhs matrix g, rows past the last group are zero;
 *   CONTRACT (ragged contracting dimension; k = p*r*q):
 *     lhs [batch][m][p][r][q], rhs [batch][p][r][q][n], out [G][batch][m][n];
 *     group g contracts over its own slice of r only;
 *   BATCH (ragged batch dimension): lhs [batch][m][k], rhs [batch][k][n],
 *     out [batch][m][n]; batch index b has index (b / q) % r along the
 *     ragged dimension (size r) and is zero past the last group.
 * trans_b: rhs has its [k][n] part stored as [n][k].  group_sizes holds
 * gs_rows rows of G sizes (gs_rows 1: shared by all batch indices, else
 * one row per batch index); negative sizes count as 0 and the groups are
 * cut off at the end of the ragged dimension.  Types (XLACRT_RAGGED_*):
 * f32 and f64; bf16/f16 operands with an f32 result; I64: 64-bit integer
 * operands and result, products wrapping.  The descriptor is all int64_t
 * so a compiler can emit it as an i64 array. */
enum { XLACRT_RAGGED_ROWS = 1, XLACRT_RAGGED_CONTRACT = 2, XLACRT_RAGGED_BATCH = 3 };
enum { XLACRT_RAGGED_F32, XLACRT_RAGGED_F64, XLACRT_RAGGED_BF16, XLACRT_RAGGED_F16, XLACRT_RAGGED_I64 };
typedef struct xlacrt_ragged {
    int64_t mode, type, trans_b;
    int64_t batch, m, k, n, p, r, q;
    int64_t groups, gs_rows;
} xlacrt_ragged;
void xlacrt_ragged_dot(xlacrt_pool *p, const xlacrt_ragged *d, const void *lhs, const void *rhs,
                       const int64_t *group_sizes, void *out);

/* ---- communicators (comm.c) ----
 * Compiled collectives are calls into the runtime on a communicator: the
 * endpoint of one process in a set of num_replicas x num_partitions
 * processes that run the same program.  A communicator is a table of
 * operations, so the same generated code runs over threads of one process
 * that share memory (a grid, below) or over any other transport: `meet`
 * hands back pointers to every group member's buffers (an implementation
 * without shared memory hands back its own copies), `leave` ends the
 * collective, `send` and `recv` queue messages on channels.
 *
 * Every call returns XLACRT_COMM_OK; XLACRT_COMM_FAILED, with the reason
 * in the communicator's msg, to be reported; or XLACRT_COMM_ABORTED when
 * another process failed (it reports its own failure: stay quiet).  After
 * a failure the outputs are unspecified.  XLACRT_COMM_DECLINED: only from
 * the optional `collective` operation, which then did nothing. */
enum { XLACRT_COMM_OK, XLACRT_COMM_FAILED, XLACRT_COMM_ABORTED, XLACRT_COMM_DECLINED };

typedef struct xlacrt_comm xlacrt_comm;
struct xlacrt_coll;
typedef struct xlacrt_comm_ops {
    /* Meets the other members of the group ids[0..n) (flattened process
       ids, replica * num_partitions + partition, in group order; this
       process is ids[me]) at their next collective of kind `key` with
       that group.  Each member publishes nbufs buffers: bufs[i] of
       bytes[i] bytes, sigs[i] a fingerprint of its type that all members
       must agree on.  On success peers[k * nbufs + i] points to member k's
       buffer i, readable until leave. */
    int (*meet)(xlacrt_comm *c, int64_t key, int32_t n, const int32_t *ids, int32_t me,
                int32_t nbufs, const void *const *bufs, const int64_t *bytes,
                const int64_t *sigs, const void **peers);
    /* Ends the collective of the last successful meet; returns when no
       member reads this process's buffers any more. */
    void (*leave)(xlacrt_comm *c);
    /* Queues a copy of nbufs buffers as one message on a channel (never
       waits). */
    int (*send)(xlacrt_comm *c, int64_t channel, int32_t nbufs, const void *const *bufs,
                const int64_t *bytes, const int64_t *sigs);
    /* Takes the channel's oldest message into bufs, waiting for one; it
       must have these buffer counts, sizes and fingerprints. */
    int (*recv)(xlacrt_comm *c, int64_t channel, int32_t nbufs, void *const *bufs,
                const int64_t *bytes, const int64_t *sigs);
    /* Optional (NULL: not offered): runs collective d (xlacrt_collective's
       arguments) itself, its group formed: ids[0..n), n >= 2, this process
       at ids[me].  For a transport that moves less than every member's
       buffers, e.g. a reduction whose parts the members fold, each the
       interpreter's way.  XLACRT_COMM_DECLINED (having done nothing) runs
       it through meet instead; the choice must depend only on what every
       member sees alike (the descriptor, the group). */
    int (*collective)(xlacrt_comm *c, xlacrt_pool *p, const struct xlacrt_coll *d, int32_t n,
                      const int32_t *ids, int32_t me, const void *const *ins, void *const *outs,
                      const int32_t *roots);
} xlacrt_comm_ops;

struct xlacrt_comm {
    const xlacrt_comm_ops *ops;
    int32_t num_replicas, num_partitions;
    int32_t replica_id, partition_id;
    char msg[256]; /* why the last call failed (XLACRT_COMM_FAILED) */
};

/* The communicator of a program that runs alone (1 x 1): groups of one,
   sends dropped, a recv fails.  One per thread. */
xlacrt_comm *xlacrt_comm_self(void);

/* Meetings of one process, counted per (key, group): the n-th use of a
   collective by a process meets the n-th use by the other members, so
   that a loop's next iteration never meets the previous one.  Every
   communicator keeps one table per process. */
typedef struct xlacrt_comm_seq {
    int64_t key;
    int32_t n;
    int32_t *ids;
    int64_t count;   /* meetings so far */
} xlacrt_comm_seq;
typedef struct xlacrt_comm_seqs {
    xlacrt_comm_seq *e;
    int n, cap;
} xlacrt_comm_seqs;
/* How many earlier meetings with (key, group ids[0..n)) there were,
   counting this one; -1 when memory runs out. */
int64_t xlacrt_comm_seq_next(xlacrt_comm_seqs *t, int64_t key, const int32_t *ids, int32_t n);
void xlacrt_comm_seqs_free(xlacrt_comm_seqs *t);

/* Process groups, the spec's strategies for ops with replica_groups.  The
   group of process (replica, partition) of a num_replicas x num_partitions
   set under `strategy`, from groups (rows x cols ids, -1 pads ragged rows;
   rows * cols == 0: one group of everybody): stores the flattened ids of
   the members in group order in ids (room for every process) and the
   process's position in *me.  Returns the group size, 0 when the process
   is in no group, or -1 when the groups are invalid (why: in err). */
enum {
  XLACRT_GROUP_CROSS_REPLICA, XLACRT_GROUP_CROSS_PARTITION,
  XLACRT_GROUP_CROSS_REPLICA_AND_PARTITION, XLACRT_GROUP_FLATTENED_IDS
};
int xlacrt_comm_group(int strategy, const int64_t *groups, int64_t rows, int64_t cols,
                      int num_replicas, int num_partitions, int replica, int partition,
                      int32_t *ids, int32_t *me, char *err, size_t errlen);
/* collective_permute's group: every process named by a (source, target)
   pair (npairs rows of pairs: replica ids, or partition ids when
   cross_partition), in ascending order of that id, within the process's
   partition (replica).  *me is the process's position or -1 (not named),
   *source the position of the process it receives from or -1.  Returns
   the group size, or -1 when an id is out of range (why: in err). */
int xlacrt_comm_permute_group(int cross_partition, const int64_t *pairs, int64_t npairs,
                              int num_replicas, int num_partitions, int replica, int partition,
                              int32_t *ids, int32_t *me, int32_t *source, char *err,
                              size_t errlen);

/* ---- grids: processes that are threads of this process ----
 * A grid's communicators meet through shared memory: each member of a
 * collective publishes pointers to its buffers and, once all have arrived,
 * reads the others' directly; nobody leaves before everybody is done
 * reading its buffers (small ones are published as copies, which free
 * their owner from waiting).  Collectives are matched by (kind, group,
 * how many times this process has met that group for that kind), so a
 * loop's next iteration never meets the previous one.
 *
 * Failure: a process that ends with ok == 0 (xlacrt_grid_finish) aborts
 * the grid, and every waiter returns XLACRT_COMM_ABORTED; when every
 * process that has not finished waits for something no process can
 * provide, the grid is deadlocked and the first waiter to notice returns
 * XLACRT_COMM_FAILED to report it.  A host can keep state of its own under
 * the grid's lock and wait on it (the reference interpreter's collectives
 * do), so that its waits and the communicators' are one deadlock
 * detection. */
typedef struct xlacrt_grid xlacrt_grid;
/* NULL when memory runs out. */
xlacrt_grid *xlacrt_grid_create(int num_replicas, int num_partitions);
/* After every process has finished. */
void xlacrt_grid_destroy(xlacrt_grid *g);
/* The communicator of process replica * num_partitions + partition. */
xlacrt_comm *xlacrt_grid_comm(xlacrt_grid *g, int process);
/* The process's program has ended; ok == 0 aborts the grid.  May be
   called by a thread that already holds the grid's lock. */
void xlacrt_grid_finish(xlacrt_grid *g, int process, int ok);
void xlacrt_grid_lock(xlacrt_grid *g);
void xlacrt_grid_unlock(xlacrt_grid *g);
/* With the lock held: waits until ready(ctx) (evaluated with the lock
   held, by any thread of the grid).  Returns XLACRT_COMM_OK, or
   XLACRT_COMM_ABORTED / XLACRT_COMM_FAILED (a deadlock this caller is the
   one to report) when the grid aborts first. */
int xlacrt_grid_wait(xlacrt_grid *g, int process, int (*ready)(const void *ctx), const void *ctx);
/* With the lock held: wakes the waiters after a change of state; aborts
   the grid (the caller reports why); whether it is aborted. */
void xlacrt_grid_notify(xlacrt_grid *g);
void xlacrt_grid_abort(xlacrt_grid *g);
int xlacrt_grid_aborted(const xlacrt_grid *g);

/* ---- collectives (collectives.c) ----
 * One call per collective op of a program.  The descriptor is constant
 * data a compiler emits (every field 8 bytes).  Reductions run a combiner
 * the compiler generates from the op's region:
 *   combine(peers, n, stride, offset, out, count)
 * sets out[i] (result elements) for i in [0, count) to the fold over the
 * members k = 0..n-1, in group order, of element offset + i of the buffer
 * peers[k * stride]: acc = x_0, then acc = region(acc, x_k), which is the
 * reference interpreter's order; the runtime cuts the work into chunks
 * fixed by the shapes and runs them on the pool. */
enum {
  XLACRT_COLL_ALL_REDUCE = 1, XLACRT_COLL_REDUCE_SCATTER, XLACRT_COLL_ALL_GATHER,
  XLACRT_COLL_ALL_TO_ALL, XLACRT_COLL_BROADCAST, XLACRT_COLL_REDUCE, XLACRT_COLL_PERMUTE,
  XLACRT_COLL_SEND, XLACRT_COLL_RECV
};
typedef void (*xlacrt_combine_fn)(const void *const *peers, int64_t n, int64_t stride,
                                  int64_t offset, void *out, int64_t count);
typedef struct xlacrt_coll_value {
    const int64_t *dims;      /* the operand's dimensions */
    int64_t rank;
    int64_t elem_bytes;       /* of an operand element */
    int64_t out_elem_bytes;   /* of a result element */
    int64_t sig;              /* fingerprint of the operand type */
    xlacrt_combine_fn combine; /* reductions */
} xlacrt_coll_value;
typedef struct xlacrt_coll {
    int64_t kind;             /* XLACRT_COLL_* */
    int64_t strategy;         /* XLACRT_GROUP_* */
    const int64_t *groups;    /* replica groups (rows x cols), or source_target_pairs (rows x 2) */
    int64_t rows, cols;
    int64_t channel;          /* send / recv; permute: nonzero when across partitions */
    /* ALL_GATHER: gather dimension, the result's size along it;
       REDUCE_SCATTER: scatter dimension, the result's size along it;
       ALL_TO_ALL: split dimension, concat dimension, split count */
    int64_t dim, dim2, count;
    int64_t nvals;
    const xlacrt_coll_value *vals;
} xlacrt_coll;
/* Runs collective d as this process of c: ins[j] / outs[j] are operand /
   result j (RECV: only outs; SEND: only ins).  BROADCAST and REDUCE take
   the group position of value j's root from roots[j] (NULL: 0).  Returns
   an XLACRT_COMM_* code; on failure the outputs are unspecified. */
int32_t xlacrt_collective(xlacrt_comm *c, xlacrt_pool *p, const xlacrt_coll *d,
                          const void *const *ins, void *const *outs, const int32_t *roots);


/* ---- ahead-of-time compiled programs (aot.c) ----
 * `xlac aot` writes an object file holding a program's code, its constants
 * and a descriptor, `const xlacrt_aot_program NAME_program`; the header it
 * writes wraps the functions below.  An instance owns (or borrows, for
 * arguments) 64-byte aligned buffers; running it calls the program's entry
 * with them.  Separate instances may run at once from separate threads.
 * Element types use xlac_type's numbering (xlac/xlac.h): PRED 0, S8 3,
 * S32 5, S64 6, U8 9, F16 13, BF16 14, F32 15, F64 16, C64 28, C128 29. */
typedef void (*xlacrt_aot_entry_fn)(void **args, void **results, char *temp, xlacrt_pool *pool,
                                    void *run);
typedef struct xlacrt_aot_buffer {
    const char *name;         /* feed/fetch name, or the parameter's name */
    const char *type_name;    /* "f32", ... */
    int32_t type;             /* xlac_type's numbering */
    int32_t rank;
    const int64_t *dims;
    int64_t bytes;            /* dense row-major size */
} xlacrt_aot_buffer;
typedef struct xlacrt_aot_program {
    int32_t abi_version;      /* XLACRT_ABI_VERSION of the compiler that wrote it */
    int32_t num_args;
    int32_t num_results;
    int32_t num_loops;        /* compiled while loops (cancellation reports) */
    const xlacrt_aot_buffer *args;
    const xlacrt_aot_buffer *results;
    int64_t temp_bytes;
    xlacrt_aot_entry_fn entry;
    const char *name;
    const char *program_shape; /* "(x: f32[2,3], ...) -> (r: f32[2,2])" */
    const char *target_cpu;    /* the CPU the code was generated for ("skylake-avx512", "generic") */
    const char *cpu_features;  /* "avx2,fma,avx512f,...": what its code may use; checked before a run */
} xlacrt_aot_program;

typedef enum xlacrt_aot_alloc_mode {
    XLACRT_AOT_ARGS_RESULTS_AND_TEMPS = 0, /* the instance allocates every buffer */
    XLACRT_AOT_RESULTS_AND_TEMPS_ONLY = 1  /* the caller sets every argument's data */
} xlacrt_aot_alloc_mode;
typedef struct xlacrt_aot_instance xlacrt_aot_instance;

/* NULL when memory runs out, when p was written for another runtime ABI, or
   when its code needs a CPU feature this CPU lacks (xlacrt_aot_check says
   which). */
xlacrt_aot_instance *xlacrt_aot_create(const xlacrt_aot_program *p, xlacrt_aot_alloc_mode mode);
/* NULL when p can run with this runtime on this CPU, else why not (valid
   until the next call on the same thread). */
const char *xlacrt_aot_check(const xlacrt_aot_program *p);
void xlacrt_aot_destroy(xlacrt_aot_instance *in);
/* Parallel loops run on pool (xlacrt_pool_create, or
   xlacrt_pool_create_external over the caller's threads); NULL (the
   default) runs them on the calling thread.  Results do not depend on it. */
void xlacrt_aot_set_pool(xlacrt_aot_instance *in, xlacrt_pool *pool);
/* Runs the program: 0 on success, -1 with xlacrt_aot_error set.  Allocates
   no memory for the instance's buffers (they exist from creation). */
int xlacrt_aot_run(xlacrt_aot_instance *in);
/* The last run's failure ("" after a success). */
const char *xlacrt_aot_error(const xlacrt_aot_instance *in);
/* Makes the next, or a running, execution stop at its next loop iteration
   with an error; cleared by xlacrt_aot_run when it starts. */
void xlacrt_aot_cancel(xlacrt_aot_instance *in);
const xlacrt_aot_program *xlacrt_aot_program_of(const xlacrt_aot_instance *in);
/* Buffers: NULL for an index out of range.  In RESULTS_AND_TEMPS_ONLY mode
   an argument has no data until set; data must be 64-byte aligned only
   for speed, not for correctness. */
void *xlacrt_aot_arg_data(const xlacrt_aot_instance *in, int i);
void xlacrt_aot_set_arg_data(xlacrt_aot_instance *in, int i, const void *data);
void *xlacrt_aot_result_data(const xlacrt_aot_instance *in, int i);
void **xlacrt_aot_args(xlacrt_aot_instance *in);
void **xlacrt_aot_results(xlacrt_aot_instance *in);
/* Index of the argument / result called name; -1 when none is. */
int xlacrt_aot_arg_index(const xlacrt_aot_program *p, const char *name);
int xlacrt_aot_result_index(const xlacrt_aot_program *p, const char *name);

/* Generated code's hooks: the cancel flag its while loops poll, what a
   loop that sees it set calls, and how a custom-call target reports a
   failure (XLA's status-returning signature). */
const int32_t *xlacrt_aot_cancel_flag(void *run);
void xlacrt_aot_loop_stopped(void *run, int64_t loop);
void xlacrt_status_set_failure(xlacrt_status *s, const char *msg, size_t len);

#ifdef __cplusplus
}
#endif

#endif
