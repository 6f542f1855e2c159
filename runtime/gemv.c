/*
 * gemv.c - matrix-vector products for the dot_generals where one side is a
 * vector (M == 1 or N == 1).  A GEMM would pack the matrix into panels
 * first, which for a vector is a full extra pass over memory that is never
 * reused; a product with a vector is bound by reading the matrix once, so
 * these read it once, in storage order.
 *
 * Two shapes cover every case, both on a row-major matrix A[rows, cols]
 * with leading dimension lda:
 *   trans == 0: y[r] = sum_c A[r, c] * x[c]   (rows are dot products)
 *   trans == 1: y[c] = sum_r A[r, c] * x[r]   (a sum of scaled rows)
 * Work is split into chunks fixed by the shape: blocks of rows for the dot
 * products, blocks of columns for the scaled-row sums.  Each output element
 * is summed by one chunk in an order fixed by the shape alone, so results
 * never depend on the thread count.  That order differs from a plain
 * left-to-right sum (dot products keep 16 partial sums, lane l taking the
 * columns c with c % 16 == l, combined pairwise at the end), so results
 * match the reference interpreter up to float reassociation.  Sums of
 * scaled rows take four rows at a time: acc += (r0 x0 + r1 x1) + (r2 x2 +
 * r3 x3), which quarters the traffic on the accumulators.
 *
 * The loops are compiled for AVX-512 and AVX2 as well as plain C and picked
 * by the CPU, but without FMA contraction (ISO C, no fused multiply-add), so
 * every version computes the same operations in the same order: the results
 * do not depend on the machine's vector width either.
 */
#include "xlacrt.h"

enum {
    LANES = 16,
    /* about 128 KiB of matrix per chunk of dot products */
    DOT_CHUNK_ELEMS = 1 << 15,
    /* columns per chunk of scaled-row sums: the block of y stays in L1 */
    AXPY_COLS = 512,
};

typedef struct gemv_job {
    int trans;
    int64_t rows, cols, lda, block;
    const void *a, *x;
    void *y;
} gemv_job;

/* The loops for element type T, compiled with attribute ATTR. */
#define GEMV_LOOPS(T, NAME, ATTR)                                                      \
    enum { TILE_##NAME = 256 / (int)sizeof(T) };                                       \
    static ATTR T dot_##NAME(const T *restrict a, const T *restrict x, int64_t n)      \
    {                                                                                  \
        T acc[LANES] = {0};                                                            \
        int64_t c = 0;                                                                 \
        for (; c + LANES <= n; c += LANES)                                             \
            for (int l = 0; l < LANES; l++)                                            \
                acc[l] += a[c + l] * x[c + l];                                         \
        for (int l = 0; c + l < n; l++)                                                \
            acc[l] += a[c + l] * x[c + l];                                             \
        for (int w = LANES / 2; w > 0; w /= 2)                                         \
            for (int l = 0; l < w; l++)                                                \
                acc[l] += acc[l + w];                                                  \
        return acc[0];                                                                 \
    }                                                                                  \
                                                                                       \
    /* y[lo, lo + w) of the scaled-row sums, w <= TILE: inlined with w the     */ \
    /* constant TILE, the accumulators stay in registers */                           \
    static inline __attribute__((always_inline)) ATTR void sums_##NAME(                \
        const gemv_job *j, int64_t lo, int64_t w)                                      \
    {                                                                                  \
        const T *a = j->a, *x = j->x;                                                  \
        T *y = j->y;                                                                   \
        int64_t lda = j->lda, r = 0;                                                   \
        T acc[TILE_##NAME];                                                            \
        for (int64_t c = 0; c < w; c++)                                                \
            acc[c] = 0;                                                                \
        for (; r + 4 <= j->rows; r += 4) {                                             \
            const T *restrict r0 = a + r * lda + lo, *restrict r1 = r0 + lda;          \
            const T *restrict r2 = r1 + lda, *restrict r3 = r2 + lda;                  \
            T x0 = x[r], x1 = x[r + 1], x2 = x[r + 2], x3 = x[r + 3];                  \
            for (int64_t c = 0; c < w; c++)                                            \
                acc[c] += (r0[c] * x0 + r1[c] * x1) + (r2[c] * x2 + r3[c] * x3);       \
        }                                                                              \
        for (; r < j->rows; r++) {                                                     \
            const T *restrict row = a + r * lda + lo;                                  \
            T xr = x[r];                                                               \
            for (int64_t c = 0; c < w; c++)                                            \
                acc[c] += row[c] * xr;                                                 \
        }                                                                              \
        for (int64_t c = 0; c < w; c++)                                                \
            y[lo + c] = acc[c];                                                        \
    }                                                                                  \
                                                                                       \
    static ATTR void chunk_##NAME(int64_t chunk, void *ctx)                            \
    {                                                                                  \
        const gemv_job *j = ctx;                                                       \
        const T *a = j->a, *x = j->x;                                                  \
        T *y = j->y;                                                                   \
        int64_t lo = chunk * j->block, lda = j->lda;                                   \
        if (!j->trans) {                                                               \
            int64_t hi = lo + j->block < j->rows ? lo + j->block : j->rows;            \
            for (int64_t r = lo; r < hi; r++)                                          \
                y[r] = dot_##NAME(a + r * lda, x, j->cols);                            \
            return;                                                                    \
        }                                                                              \
        int64_t hi = lo + j->block < j->cols ? lo + j->block : j->cols;                \
        for (; lo + TILE_##NAME <= hi; lo += TILE_##NAME)                              \
            sums_##NAME(j, lo, TILE_##NAME);                                           \
        if (lo < hi)                                                                   \
            sums_##NAME(j, lo, hi - lo);                                               \
    }

#define NO_ATTR
GEMV_LOOPS(float, s_c, NO_ATTR)
GEMV_LOOPS(double, d_c, NO_ATTR)
#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_VARIANTS 1
/* no "fma" here: see the top of the file */
GEMV_LOOPS(float, s_avx512, __attribute__((target("avx512f"))))
GEMV_LOOPS(double, d_avx512, __attribute__((target("avx512f"))))
GEMV_LOOPS(float, s_avx2, __attribute__((target("avx2"))))
GEMV_LOOPS(double, d_avx2, __attribute__((target("avx2"))))
#endif

/* 0: plain C, 1: AVX2, 2: AVX-512 */
static int best_isa(void)
{
#ifdef HAVE_VARIANTS
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return 2;
    if (__builtin_cpu_supports("avx2"))
        return 1;
#endif
    return 0;
}

const char *xlacrt_gemv_isa(void)
{
    static const char *const names[] = {"c", "avx2", "avx512"};
    return names[best_isa()];
}

static void run(xlacrt_pool *p, gemv_job *j, xlacrt_task_fn const fns[3])
{
    int64_t nout = j->trans ? j->cols : j->rows;
    if (nout <= 0)
        return;
    if (j->trans) {
        j->block = AXPY_COLS;
    } else {
        j->block = DOT_CHUNK_ELEMS / (j->cols > 0 ? j->cols : 1);
        if (j->block < 1)
            j->block = 1;
    }
    xlacrt_parallel_for(p, (nout + j->block - 1) / j->block, fns[best_isa()], j);
}

#ifdef HAVE_VARIANTS
static xlacrt_task_fn const s_fns[3] = {chunk_s_c, chunk_s_avx2, chunk_s_avx512};
static xlacrt_task_fn const d_fns[3] = {chunk_d_c, chunk_d_avx2, chunk_d_avx512};
#else
static xlacrt_task_fn const s_fns[3] = {chunk_s_c, chunk_s_c, chunk_s_c};
static xlacrt_task_fn const d_fns[3] = {chunk_d_c, chunk_d_c, chunk_d_c};
#endif

void xlacrt_sgemv(xlacrt_pool *p, int trans, int64_t rows, int64_t cols, const float *a,
                  int64_t lda, const float *x, float *y)
{
    gemv_job j = {trans, rows, cols, lda, 0, a, x, y};
    run(p, &j, s_fns);
}

void xlacrt_dgemv(xlacrt_pool *p, int trans, int64_t rows, int64_t cols, const double *a,
                  int64_t lda, const double *x, double *y)
{
    gemv_job j = {trans, rows, cols, lda, 0, a, x, y};
    run(p, &j, d_fns);
}
