/*
 * conv.c - the runtime's convolution: im2col plus GEMM, or an implicit GEMM
 * over the input windows, a block of output rows at a time.
 *
 * An output "row" is one (batch, spatial position) pair; its O features are
 * the row's columns.  For a block of rows and one feature group, the input
 * windows the rows see are copied into a matrix P (one row per output row,
 * one column per (window position, input feature) pair, zeros where the
 * window falls into padding or a dilation hole), and the block of output is
 * P times the kernel of that group, rearranged once per call into the
 * matching [window position * input feature, output feature] matrix W.
 * Window reversal is applied while rearranging the kernel, so the copy of
 * the input is the same with or without it.  Batch groups work like
 * feature groups, except that group j takes its input rows from the j-th
 * slice of the input batch (with every input feature) instead of from the
 * j-th slice of the features.
 *
 * With one group, at least 16 input features and the features innermost in
 * the input (NHWC and the like), no im2col matrix is written: the GEMM packs
 * its A panels from the input windows directly (an implicit GEMM), and on
 * the AVX-512 kernel family the windows are not even packed, a register
 * tile of output rows reading them in place over the whole window (the
 * direct tiles below).  Padding and dilation holes read a run of zeros.
 * With fewer input features (an RGB image) the direct tiles still read the
 * input in place, a whole window row along the last spatial dimension at
 * a time (its positions' features are contiguous), copying only the rows
 * the padding cuts.
 *
 * A 3x3 window at unit stride with at least 16 features on both sides (f32)
 * takes Winograd's F(2x2, 3x3) instead (below): 16 multiplies per 2x2
 * output tile and feature pair where the direct tiles do 36.
 *
 * Three more shapes skip im2col.  A window covering nearly the whole input (a
 * kernel gradient) is a GEMM per output position over a copy of the input
 * made once (below, xlacrt_conv_shifted).  A depthwise convolution (each
 * group reads one input feature: in_feat == groups, features innermost in
 * the input, output rows contiguous) has nothing for a GEMM to do, with one
 * input feature per group: it is computed directly, each window position
 * adding (input row) x (kernel row) over all features at once, with the
 * kernel packed as [window position][output feature].  A 1x1 convolution
 * with unit strides, no padding and a dense input whose rows are the
 * output's rows multiplies the input in place.
 *
 * The compiler cuts the rows into fixed blocks and runs them as chunks of
 * xlacrt_parallel_for (each block's GEMM runs serially), so results never
 * depend on the thread count; it may follow each block with generated code
 * working on the rows just written while they are still in cache.  When the
 * output keeps rows contiguous with features innermost ("row-major"), the
 * GEMM writes straight into it; otherwise a scratch block is scattered.
 */
#include "xlacrt.h"
#include "gemm_impl.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* Rows of output position r: batch index and spatial coordinates. */
static void row_coords(const xlacrt_conv *d, int64_t r, int64_t *n, int64_t *y)
{
    for (int64_t i = d->nsp - 1; i >= 0; i--) {
        int64_t od = d->out_dim[i];
        y[i] = od ? r % od : 0;
        r = od ? r / od : 0;
    }
    *n = r;
}

/* The coordinates of the row after (n, y). */
static inline void next_coords(const xlacrt_conv *d, int64_t *n, int64_t *y)
{
    for (int64_t i = d->nsp - 1; i >= 0; i--) {
        if (++y[i] < d->out_dim[i])
            return;
        y[i] = 0;
    }
    ++*n;
}

/* The input offset that window position kpos of output position y reads,
   over the first ndims spatial dimensions; 0 when it falls into padding or
   a dilation hole. */
static inline int window_offset(const xlacrt_conv *d, const int64_t *y, const int64_t *kpos, int64_t ndims,
                                int64_t *off)
{
    *off = 0;
    for (int64_t i = 0; i < ndims; i++) {
        int64_t x = y[i] * d->stride[i] + kpos[i] * d->rhs_dil[i] - d->pad_lo[i];
        int64_t ld = d->lhs_dil[i];
        if (ld != 1) {
            if (x < 0 || x % ld != 0)
                return 0;
            x /= ld;
        }
        if (x < 0 || x >= d->in_dim[i])
            return 0;
        *off += x * d->in_ss[i];
    }
    return 1;
}

/* The next window position over the first ndims dimensions (last fastest). */
static inline void next_window(const xlacrt_conv *d, int64_t *kpos, int64_t ndims)
{
    for (int64_t i = ndims - 1; i >= 0; i--) {
        if (++kpos[i] < d->k_dim[i])
            return;
        kpos[i] = 0;
    }
}

/* The first n window positions in the order next_window walks the first
   `walk` dimensions: position p is kr[p] from the window's corner along
   each spatial dimension (rhs dilation applied) and delta[p] elements
   from it in the input. */
static void window_table(const xlacrt_conv *d, int64_t n, int64_t walk, int64_t (*kr)[XLACRT_CONV_MAX_SPATIAL],
                         int64_t *delta)
{
    int64_t kpos[XLACRT_CONV_MAX_SPATIAL] = {0};
    for (int64_t p = 0; p < n; p++, next_window(d, kpos, walk)) {
        delta[p] = 0;
        for (int64_t i = 0; i < d->nsp; i++) {
            kr[p][i] = kpos[i] * d->rhs_dil[i];
            delta[p] += kr[p][i] * d->in_ss[i];
        }
    }
}

/* Number of window positions (product of the kernel's spatial sizes). */
static int64_t window_size(const xlacrt_conv *d)
{
    int64_t ks = 1;
    for (int64_t i = 0; i < d->nsp; i++)
        ks *= d->k_dim[i];
    return ks;
}

/* Feature groups or batch groups (at most one of them is above 1): each
   group is an independent product of its own slice of the kernel. */
static int64_t total_groups(const xlacrt_conv *d)
{
    return d->groups * (d->batch_groups > 1 ? d->batch_groups : 1);
}

/* The depthwise case: every group reads one input feature, features are
   contiguous in the input, and output rows are contiguous. */
static int conv_depthwise(const xlacrt_conv *d)
{
    return d->groups > 1 && d->in_feat == d->groups && d->batch_groups <= 1 && d->in_sc == 1 &&
           d->out_rowmajor && d->nsp > 0;
}

/* A 1x1 window, unit strides and dilations, no padding, one group, and an
   input whose rows (batch, spatial positions) are dense with the features
   innermost: output row r is input row r. */
static int conv_pointwise(const xlacrt_conv *d)
{
    if (d->groups != 1 || d->batch_groups > 1 || d->in_sc != 1 || !d->out_rowmajor)
        return 0;
    int64_t stride = d->in_feat;
    for (int64_t i = d->nsp - 1; i >= 0; i--) {
        if (d->k_dim[i] != 1 || d->stride[i] != 1 || d->pad_lo[i] != 0 || d->lhs_dil[i] != 1 ||
            d->in_dim[i] != d->out_dim[i] || d->in_ss[i] != stride)
            return 0;
        stride *= d->in_dim[i];
    }
    return d->in_sn == stride;
}

/* acc[c] += x[c] * w[c] for c < n: the depthwise inner loop, compiled for
   the widest vectors the machine has (mul then add, never fused: the
   runtime is compiled as ISO C, which does not contract them, so every
   version gives the same bits). */
#define DEFINE_DW_ACC(T, NAME, ATTR)                                                          \
    static ATTR void NAME(T *restrict acc, const T *restrict x, const T *restrict w, int64_t n) \
    {                                                                                         \
        for (int64_t c = 0; c < n; c++)                                                       \
            acc[c] += x[c] * w[c];                                                            \
    }
#define NO_ATTR
DEFINE_DW_ACC(float, dw_acc_f32, NO_ATTR)
DEFINE_DW_ACC(double, dw_acc_f64, NO_ATTR)
#if defined(__x86_64__)
DEFINE_DW_ACC(float, dw_acc_f32_avx512, __attribute__((target("avx512f"))))
DEFINE_DW_ACC(float, dw_acc_f32_avx2, __attribute__((target("avx2"))))
DEFINE_DW_ACC(double, dw_acc_f64_avx512, __attribute__((target("avx512f"))))
DEFINE_DW_ACC(double, dw_acc_f64_avx2, __attribute__((target("avx2"))))
#endif

/* The widest version the machine runs (the same bits from each). */
#if defined(__x86_64__)
#define DEFINE_DW_PICK(T, SUF)                                                                \
    typedef void (*dw_acc_##SUF##_fn)(T *restrict, const T *restrict, const T *restrict, int64_t); \
    static dw_acc_##SUF##_fn pick_dw_acc_##SUF(void)                                          \
    {                                                                                         \
        __builtin_cpu_init();                                                                 \
        if (__builtin_cpu_supports("avx512f"))                                                \
            return dw_acc_##SUF##_avx512;                                                     \
        if (__builtin_cpu_supports("avx2"))                                                   \
            return dw_acc_##SUF##_avx2;                                                       \
        return dw_acc_##SUF;                                                                  \
    }
#else
#define DEFINE_DW_PICK(T, SUF)                                                                \
    typedef void (*dw_acc_##SUF##_fn)(T *restrict, const T *restrict, const T *restrict, int64_t); \
    static dw_acc_##SUF##_fn pick_dw_acc_##SUF(void) { return dw_acc_##SUF; }
#endif
DEFINE_DW_PICK(float, f32)
DEFINE_DW_PICK(double, f64)

/* Output rows of a depthwise convolution (one feature per group) on
 * AVX-512, DW_ROWS at a time (a ragged last group: the first nrows):
 * o[r * O + c] = the sum over window positions q, in order, of
 * xs[r * npos + q][c] * w[q * O + c] (xs NULL: in the padding), with the
 * rows' sums in registers, one vector of features at a time, each weight
 * vector loaded once for the rows; the same multiplies and adds in the
 * same order as dw_acc_* into a zeroed row, so the same bits.  (Rows of a
 * few dozen features, as in MobileNet, spent their time in the row's loads
 * and stores between positions and in one chain of dependent adds.) */
enum { DW_ROW_MAX_POS = 64, DW_ROWS = 4 };
#if defined(__x86_64__)
#define DEFINE_DW_ROWS(T, NAME, VT, L, MT, ZERO, MLOAD, MUL, ADD, MSTORE)                       \
    static __attribute__((target("avx512f"))) void NAME(T *o, const T *const *xs, const T *w,  \
                                                        int64_t npos, int64_t O, int nrows)     \
    {                                                                                         \
        const T *const *x0 = xs, *const *x1 = xs + npos, *const *x2 = xs + 2 * npos,           \
                       *const *x3 = xs + 3 * npos;                                            \
        for (int64_t c = 0; c < O; c += L) {                                                  \
            MT k = O - c >= L ? (MT)~0u : (MT)((1u << (O - c)) - 1);                          \
            VT a0 = ZERO(), a1 = ZERO(), a2 = ZERO(), a3 = ZERO();                            \
            for (int64_t q = 0; q < npos; q++) {                                              \
                VT wv = MLOAD(k, w + q * O + c);                                              \
                if (x0[q])                                                                    \
                    a0 = ADD(a0, MUL(MLOAD(k, x0[q] + c), wv));                                    \
                if (nrows > 1 && x1[q])                                                       \
                    a1 = ADD(a1, MUL(MLOAD(k, x1[q] + c), wv));                                    \
                if (nrows > 2 && x2[q])                                                       \
                    a2 = ADD(a2, MUL(MLOAD(k, x2[q] + c), wv));                                    \
                if (nrows > 3 && x3[q])                                                       \
                    a3 = ADD(a3, MUL(MLOAD(k, x3[q] + c), wv));                                    \
            }                                                                                 \
            MSTORE(o + c, k, a0);                                                             \
            if (nrows > 1)                                                                    \
                MSTORE(o + O + c, k, a1);                                                     \
            if (nrows > 2)                                                                    \
                MSTORE(o + 2 * O + c, k, a2);                                                 \
            if (nrows > 3)                                                                    \
                MSTORE(o + 3 * O + c, k, a3);                                                 \
        }                                                                                     \
    }
DEFINE_DW_ROWS(float, dw_rows_f32_avx512, __m512, 16, __mmask16, _mm512_setzero_ps, _mm512_maskz_loadu_ps,
               _mm512_mul_ps, _mm512_add_ps, _mm512_mask_storeu_ps)
DEFINE_DW_ROWS(double, dw_rows_f64_avx512, __m512d, 8, __mmask8, _mm512_setzero_pd, _mm512_maskz_loadu_pd,
               _mm512_mul_pd, _mm512_add_pd, _mm512_mask_storeu_pd)
#define DW_ROWS_FN(SUF) (__builtin_cpu_supports("avx512f") ? dw_rows_##SUF##_avx512 : NULL)
#else
#define DW_ROWS_FN(SUF) NULL
#endif

/* Output rows [r0, r1) of a depthwise convolution (conv_depthwise), the
   kernel packed [window position][out_feat]; m output features per group. */
#define DEFINE_DEPTHWISE(T, SUF)                                                              \
    static void depthwise_rows_##SUF(const xlacrt_conv *d, const T *in, const T *w, T *out,   \
                                     int64_t r0, int64_t r1)                                  \
    {                                                                                         \
        dw_acc_##SUF##_fn acc_fn = pick_dw_acc_##SUF();                                       \
        int64_t ks = window_size(d), G = d->groups, O = d->out_feat, m = O / G;               \
        int64_t n, y[XLACRT_CONV_MAX_SPATIAL];                                                \
        row_coords(d, r0, &n, y);                                                             \
        void (*rows_fn)(T *, const T *const *, const T *, int64_t, int64_t, int) =             \
            m == 1 && ks <= DW_ROW_MAX_POS ? DW_ROWS_FN(SUF) : NULL;                           \
        for (int64_t i = 0; i < d->nsp; i++)                                                  \
            if (d->lhs_dil[i] != 1)                                                           \
                rows_fn = NULL;                                                               \
        if (rows_fn) {                                                                        \
            /* DW_ROWS rows at a time: their windows' pointers, then the sums; */            \
            /* position q is kr[q] from the window's corner, delta[q] in the input */         \
            int64_t nsp = d->nsp, kr[DW_ROW_MAX_POS][XLACRT_CONV_MAX_SPATIAL], delta[DW_ROW_MAX_POS]; \
            window_table(d, ks, nsp, kr, delta);                                              \
            const T *xs[DW_ROWS * DW_ROW_MAX_POS];                                            \
            for (int64_t r = r0; r < r1; r += DW_ROWS) {                                      \
                int nrows = r1 - r < DW_ROWS ? (int)(r1 - r) : DW_ROWS;                       \
                for (int j = 0; j < nrows; j++) {                                             \
                    if (r + j > r0)                                                           \
                        next_coords(d, &n, y);                                                \
                    int64_t x0[XLACRT_CONV_MAX_SPATIAL], o = n * d->in_sn;                    \
                    int inside = 1; /* the whole window */                                    \
                    for (int64_t i = 0; i < nsp; i++) {                                       \
                        x0[i] = y[i] * d->stride[i] - d->pad_lo[i];                           \
                        o += x0[i] * d->in_ss[i];                                             \
                        inside &= x0[i] >= 0 && x0[i] + kr[ks - 1][i] < d->in_dim[i];         \
                    }                                                                         \
                    const T **xr = xs + j * ks;                                               \
                    for (int64_t q = 0; q < ks; q++) {                                        \
                        int ok = inside;                                                      \
                        for (int64_t i = 0; i < nsp && !inside; i++)                          \
                            ok = (i == 0 || ok) && (uint64_t)(x0[i] + kr[q][i]) < (uint64_t)d->in_dim[i]; \
                        xr[q] = ok ? in + (o + delta[q]) : NULL;                              \
                    }                                                                         \
                }                                                                             \
                rows_fn(out + r * O, xs, w, ks, O, nrows);                                    \
            }                                                                                 \
            return;                                                                           \
        }                                                                                     \
        for (int64_t r = r0; r < r1; r++) {                                                   \
            if (r > r0)                                                                       \
                next_coords(d, &n, y);                                                        \
            T *o = out + r * O;                                                               \
            memset(o, 0, sizeof(T) * (size_t)O);                                              \
            int64_t kpos[XLACRT_CONV_MAX_SPATIAL] = {0};                                      \
            for (int64_t q = 0; q < ks; q++) {                                                \
                int64_t off;                                                                  \
                if (window_offset(d, y, kpos, d->nsp, &off)) {                                \
                    const T *x = in + n * d->in_sn + off, *wq = w + q * O;                    \
                    if (m == 1) {                                                             \
                        acc_fn(o, x, wq, G);                                                  \
                    } else {                                                                  \
                        for (int64_t c = 0; c < G; c++)                                       \
                            for (int64_t j = 0; j < m; j++)                                   \
                                o[c * m + j] += x[c] * wq[c * m + j];                         \
                    }                                                                         \
                }                                                                             \
                next_window(d, kpos, d->nsp);                                                 \
            }                                                                                 \
        }                                                                                     \
    }
DEFINE_DEPTHWISE(float, f32)
DEFINE_DEPTHWISE(double, f64)

/* One group (and not depthwise): the kernel matrix is packed once for the
   GEMM (xlacrt_sgemm_pack_b), and every block of rows multiplies by that
   copy instead of packing the kernel again. */
static int conv_gemm_packed(const xlacrt_conv *d)
{
    return total_groups(d) == 1 && !conv_depthwise(d);
}

/* ---- implicit GEMM ----
 * With one group and the input's features contiguous, the GEMM's A panels
 * are packed straight from the input windows instead of from an im2col
 * matrix: column c of A is (window position c / in_feat, input feature
 * c % in_feat), so for a panel of output rows and one window position
 * each row reads a run of contiguous input features, or a run of zeros
 * where the window falls into padding or a dilation hole, and the packer
 * transposes those runs into the panel.  The products are those of the
 * im2col path's GEMM, over the same packed kernel.  With few input
 * features (an RGB image) the runs are too short to pay for their
 * pointers, and im2col, which copies a window row's features at once,
 * stays. */
enum { IMPLICIT_MIN_FEAT = 16 };
static int conv_implicit(const xlacrt_conv *d)
{
    return conv_gemm_packed(d) && d->in_sc == 1 && d->batch_groups <= 1 && d->in_feat >= IMPLICIT_MIN_FEAT;
}

/* Longest run transposed at once (the zero runs below). */
enum { RUN_MAX = 256, PANEL_MAX = 16 };
static _Alignas(64) const float zeros_f32[RUN_MAX];
static _Alignas(64) const double zeros_f64[RUN_MAX];

/* d[q * MR + r] = src[r][q] for q < len, r < MR: runs into a panel. */
#define DEFINE_RUNS(T, NAME, MR, ATTR)                                                        \
    static ATTR void NAME(const T *const *src, int64_t len, T *d)                             \
    {                                                                                         \
        for (int64_t q = 0; q < len; q++)                                                     \
            for (int r = 0; r < MR; r++)                                                      \
                d[q * MR + r] = src[r][q];                                                    \
    }
DEFINE_RUNS(float, runs_f32_4, 4, NO_ATTR)
DEFINE_RUNS(double, runs_f64_4, 4, NO_ATTR)
#if defined(__x86_64__)
#define TARGET_AVX512 __attribute__((target("avx512f")))
#define TARGET_AVX2 __attribute__((target("avx2")))
DEFINE_RUNS(float, runs_f32_6, 6, TARGET_AVX2)
DEFINE_RUNS(double, runs_f64_6, 6, TARGET_AVX2)

/* 12 rows of floats: each group of 4 rows x 16 columns is transposed in
   registers (4x4 within each 128-bit lane) and written as 16 runs of 4. */
static TARGET_AVX512 void runs_f32_12(const float *const *src, int64_t len, float *d)
{
    int64_t q = 0;
    for (; q + 16 <= len; q += 16) {
        for (int g = 0; g < 3; g++) {
            __m512 r0 = _mm512_loadu_ps(src[4 * g] + q), r1 = _mm512_loadu_ps(src[4 * g + 1] + q);
            __m512 r2 = _mm512_loadu_ps(src[4 * g + 2] + q), r3 = _mm512_loadu_ps(src[4 * g + 3] + q);
            __m512 t0 = _mm512_unpacklo_ps(r0, r1), t1 = _mm512_unpackhi_ps(r0, r1);
            __m512 t2 = _mm512_unpacklo_ps(r2, r3), t3 = _mm512_unpackhi_ps(r2, r3);
            /* u_i lane L holds rows 0..3 of column q + 4L + i */
            __m512 u0 = _mm512_shuffle_ps(t0, t2, 0x44), u1 = _mm512_shuffle_ps(t0, t2, 0xee);
            __m512 u2 = _mm512_shuffle_ps(t1, t3, 0x44), u3 = _mm512_shuffle_ps(t1, t3, 0xee);
            float *dq = d + q * 12 + 4 * g;
#define LANE(L)                                                                               \
    _mm_storeu_ps(dq + (4 * L + 0) * 12, _mm512_extractf32x4_ps(u0, L));                      \
    _mm_storeu_ps(dq + (4 * L + 1) * 12, _mm512_extractf32x4_ps(u1, L));                      \
    _mm_storeu_ps(dq + (4 * L + 2) * 12, _mm512_extractf32x4_ps(u2, L));                      \
    _mm_storeu_ps(dq + (4 * L + 3) * 12, _mm512_extractf32x4_ps(u3, L))
            LANE(0);
            LANE(1);
            LANE(2);
            LANE(3);
#undef LANE
        }
    }
    for (; q < len; q++)
        for (int r = 0; r < 12; r++)
            d[q * 12 + r] = src[r][q];
}

/* 12 rows of doubles: 4x4 blocks transposed in 256-bit registers. */
static TARGET_AVX512 void runs_f64_12(const double *const *src, int64_t len, double *d)
{
    int64_t q = 0;
    for (; q + 4 <= len; q += 4) {
        for (int g = 0; g < 3; g++) {
            __m256d r0 = _mm256_loadu_pd(src[4 * g] + q), r1 = _mm256_loadu_pd(src[4 * g + 1] + q);
            __m256d r2 = _mm256_loadu_pd(src[4 * g + 2] + q), r3 = _mm256_loadu_pd(src[4 * g + 3] + q);
            __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
            __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
            double *dq = d + q * 12 + 4 * g;
            _mm256_storeu_pd(dq, _mm256_permute2f128_pd(t0, t2, 0x20));
            _mm256_storeu_pd(dq + 12, _mm256_permute2f128_pd(t1, t3, 0x20));
            _mm256_storeu_pd(dq + 24, _mm256_permute2f128_pd(t0, t2, 0x31));
            _mm256_storeu_pd(dq + 36, _mm256_permute2f128_pd(t1, t3, 0x31));
        }
    }
    for (; q < len; q++)
        for (int r = 0; r < 12; r++)
            d[q * 12 + r] = src[r][q];
}
#endif

typedef struct {
    const xlacrt_conv *d;
    const void *in;
    int64_t r0; /* the block's first output row (row 0 of A) */
} implicit_ctx;



/* rt_pack_a_fn for the rows of one block: A's rows i0..i0+mc, columns
   p0..p0+kc, in panels of mr rows (the GEMM's register tile). */
#define DEFINE_IMPLICIT_PACK(T, SUF)                                                          \
    typedef void (*runs_##SUF##_fn)(const T *const *, int64_t, T *);                          \
    static runs_##SUF##_fn pick_runs_##SUF(int mr)                                            \
    {                                                                                         \
        switch (mr) {                                                                         \
        case 4: return runs_##SUF##_4;                                                        \
        PICK_RUNS_X86(SUF)                                                                    \
        default: return NULL;                                                                 \
        }                                                                                     \
    }                                                                                         \
    static void implicit_pack_##SUF(void *vctx, int mr, int64_t i0, int64_t mc, int64_t p0,   \
                                    int64_t kc, void *dv)                                     \
    {                                                                                         \
        const implicit_ctx *c = vctx;                                                         \
        const xlacrt_conv *d = c->d;                                                          \
        const T *in = c->in;                                                                  \
        T *dst = dv;                                                                          \
        int64_t C = d->in_feat, nsp = d->nsp;                                                 \
        runs_##SUF##_fn runs = pick_runs_##SUF(mr);                                           \
        int64_t n[PANEL_MAX], y[PANEL_MAX][XLACRT_CONV_MAX_SPATIAL];                          \
        const T *src[PANEL_MAX];                                                              \
        for (int64_t ib = 0; ib < mc; ib += mr) {                                             \
            int rows = mc - ib < mr ? (int)(mc - ib) : mr;                                    \
            row_coords(d, c->r0 + i0 + ib, &n[0], y[0]);                                      \
            for (int r = 1; r < rows; r++) {                                                  \
                n[r] = n[r - 1];                                                              \
                memcpy(y[r], y[r - 1], sizeof y[r]);                                          \
                next_coords(d, &n[r], y[r]);                                                  \
            }                                                                                 \
            T *dp = dst + ib * kc;                                                            \
            for (int64_t col = p0; col < p0 + kc;) {                                          \
                int64_t p = col / C, a = col % C, len = C - a;                                \
                if (len > p0 + kc - col)                                                      \
                    len = p0 + kc - col;                                                      \
                if (len > RUN_MAX)                                                            \
                    len = RUN_MAX;                                                            \
                int64_t kpos[XLACRT_CONV_MAX_SPATIAL], rem = p;                               \
                for (int64_t i = nsp - 1; i >= 0; i--) {                                      \
                    kpos[i] = rem % d->k_dim[i];                                              \
                    rem /= d->k_dim[i];                                                       \
                }                                                                             \
                for (int r = 0; r < mr; r++) {                                                \
                    int64_t off;                                                              \
                    src[r] = r < rows && window_offset(d, y[r], kpos, nsp, &off)              \
                                 ? in + n[r] * d->in_sn + off + a                             \
                                 : zeros_##SUF;                                               \
                }                                                                             \
                T *dq = dp + (col - p0) * mr;                                                 \
                if (runs) {                                                                   \
                    runs(src, len, dq);                                                       \
                } else {                                                                      \
                    for (int64_t q = 0; q < len; q++)                                         \
                        for (int r = 0; r < mr; r++)                                          \
                            dq[q * mr + r] = src[r][q];                                       \
                }                                                                             \
                col += len;                                                                   \
            }                                                                                 \
        }                                                                                     \
    }
#if defined(__x86_64__)
#define PICK_RUNS_X86(SUF)                                                                    \
    case 6: return runs_##SUF##_6;                                                            \
    case 12: return runs_##SUF##_12;
#else
#define PICK_RUNS_X86(SUF)
#endif
DEFINE_IMPLICIT_PACK(float, f32)
DEFINE_IMPLICIT_PACK(double, f64)

/* ---- direct convolution ----
 * On the AVX-512 kernel family, the implicit GEMM does not pack A at all:
 * a register tile of output rows (12) x output features (32 floats, 16
 * doubles) accumulates over every window position and input feature,
 * each row reading its window's run of input features straight from the
 * input (or from a run of zeros in the padding), with the kernel packed in
 * k blocks of one window position (kc = in_feat).  Packing A would copy
 * every input window once for only out_feat columns of work; reading the
 * input in place costs a pointer per row and window position instead.  The
 * tile is stored once, after all of k, by the GEMM's row tiles
 * (rt_gemm_rows_*, gemm.c; 8 or 4 rows for a last tile that holds fewer). */
enum { DIRECT_MAX_FEAT = 4096, DIRECT_MIN_FEAT = 16, DIRECT_MAX_POS = 64, DIRECT_MR = 12 };
static _Alignas(64) const float dzeros_f32[DIRECT_MAX_FEAT];
static _Alignas(64) const double dzeros_f64[DIRECT_MAX_FEAT];

/* With fewer input features (an RGB image), a run of in_feat values is too
   short to pay for its pointer: the unit read in place is then a whole
   window row along the last spatial dimension, its k_dim positions times
   in_feat contiguous values (the kernel packed in k blocks of that depth).
   A row that the padding cuts is copied, with its zeros, into a small
   buffer of the tile's; DIRECT_SMALL_K bounds the window (positions times
   features) so that buffer stays on the stack. */
enum { DIRECT_SMALL_MIN = 8, DIRECT_SMALL_K = 512 };

/* Whether d can take the direct path, and its shape: *npos units of *unit
   contiguous input values each (window positions of in_feat features, or
   window rows of the last dimension). */
static int direct_shape(const xlacrt_conv *d, int64_t *npos, int64_t *unit)
{
    if (!conv_gemm_packed(d) || d->in_sc != 1 || d->batch_groups > 1 || d->nsp < 1)
        return 0;
    for (int64_t i = 0; i < d->nsp; i++)
        if (d->lhs_dil[i] != 1)
            return 0;
    int64_t ks = window_size(d), last = d->nsp - 1;
    if (d->in_feat >= DIRECT_MIN_FEAT) {
        *npos = ks;
        *unit = d->in_feat;
        return d->in_feat <= DIRECT_MAX_FEAT && ks <= DIRECT_MAX_POS;
    }
    int64_t K = d->k_dim[last];
    if (d->in_feat < 1 || K < 1 || d->in_ss[last] != d->in_feat || d->rhs_dil[last] != 1 ||
        ks * d->in_feat > DIRECT_SMALL_K || K * d->in_feat < DIRECT_SMALL_MIN)
        return 0;
    *npos = ks / K;
    *unit = K * d->in_feat;
    return *npos <= DIRECT_MAX_POS;
}

/* Whether the rows of d can take the direct path with a kernel packed for
   the AVX-512 family (avx512) in k blocks of depth kc. */
static int conv_direct_ok(const xlacrt_conv *d, int avx512, int64_t kc)
{
#if defined(__x86_64__)
    int64_t npos, unit;
    return avx512 && direct_shape(d, &npos, &unit) && kc == unit;
#else
    (void)d, (void)avx512, (void)kc;
    return 0;
#endif
}

/* A tile of DIRECT_MR rows along one line of the last dimension (the
   first at batch n, coordinates y) whose every window unit lies inside
   the input: its pointers are the line's offset, the row's step along the
   last dimension and the unit's offset, with no padding to look up row by
   row.  Returns 0 (ptrs untouched) when a unit of the tile reaches into
   the padding. */
#define DEFINE_DIRECT_INNER(T, SUF)                                                           \
    static int direct_inner_##SUF(const xlacrt_conv *d, int64_t n, const int64_t *y,          \
                                  int64_t ks, int64_t (*kr)[XLACRT_CONV_MAX_SPATIAL],          \
                                  int rows_unit, int64_t K, const int64_t *delta,             \
                                  const T *in, const T **ptrs)                                \
    {                                                                                         \
        int64_t last = d->nsp - 1, base = n * d->in_sn;                                       \
        int64_t x0[XLACRT_CONV_MAX_SPATIAL];                                                  \
        for (int64_t k = 0; k < d->nsp; k++) {                                                \
            x0[k] = y[k] * d->stride[k] - d->pad_lo[k];                                       \
            base += x0[k] * d->in_ss[k];                                                      \
        }                                                                                     \
        int64_t xend = x0[last] + (DIRECT_MR - 1) * d->stride[last]; /* the last row's */     \
        for (int64_t p = 0; p < ks; p++) {                                                    \
            for (int64_t k = 0; k < last; k++)                                                \
                if ((uint64_t)(x0[k] + kr[p][k]) >= (uint64_t)d->in_dim[k])                   \
                    return 0;                                                                 \
            int64_t lo = rows_unit ? 0 : kr[p][last], hi = rows_unit ? K : kr[p][last] + 1;   \
            if (x0[last] + lo < 0 || xend + hi > d->in_dim[last])                             \
                return 0;                                                                     \
        }                                                                                     \
        int64_t step = d->stride[last] * d->in_ss[last];                                      \
        for (int64_t p = 0; p < ks; p++)                                                      \
            for (int r = 0; r < DIRECT_MR; r++)                                               \
                ptrs[p * DIRECT_MR + r] = in + (base + delta[p] + r * step);                  \
        return 1;                                                                             \
    }

/* Rows per chunk when the rows of one call are shared by a pool. */
enum { DIRECT_CHUNK_TILES = 8 };

/* The output rows [r0, r1) of one call into c (row r at c + (r - r0) * ldc),
   tiles of DIRECT_MR rows, each against every column panel: chunk t of
   the pool's loop takes DIRECT_CHUNK_TILES tiles.  Column panels are taken
   in blocks whose kernel panels share the L2 cache. */
#define DEFINE_DIRECT(T, SUF)                                                                 \
    typedef struct {                                                                          \
        const xlacrt_conv *d;                                                                 \
        const T *in;                                                                          \
        rt_packed_b_info b;                                                                   \
        T *c;                                                                                 \
        int64_t ldc, r0, r1;                                                                  \
    } direct_job_##SUF;                                                                       \
                                                                                              \
    static void direct_task_##SUF(int64_t t, void *ctx)                                       \
    {                                                                                         \
        const direct_job_##SUF *j = ctx;                                                      \
        const xlacrt_conv *d = j->d;                                                          \
        int64_t ks = 0, C = 0, nsp = d->nsp, last = nsp - 1;                                  \
        direct_shape(d, &ks, &C);                                                             \
        /* units are window rows of the last dimension (few features) */                      \
        int rows_unit = d->in_feat < DIRECT_MIN_FEAT;                                         \
        int64_t K = rows_unit ? d->k_dim[last] : 1, F = d->in_feat;                           \
        int64_t nr = j->b.nr, O = j->b.n, bstride = C * j->b.npad;                            \
        const T *bdata = j->b.data;                                                           \
        int64_t t0 = j->r0 + t * DIRECT_CHUNK_TILES * DIRECT_MR;                              \
        int64_t t1 = t0 + DIRECT_CHUNK_TILES * DIRECT_MR < j->r1 ? t0 + DIRECT_CHUNK_TILES * DIRECT_MR \
                                                                 : j->r1;                     \
        /* panels per column block: about 512 KiB of packed kernel */                         \
        int64_t pb = ((int64_t)512 * 1024 / (int64_t)sizeof(T)) / (ks * C * nr);              \
        if (pb < 1)                                                                           \
            pb = 1;                                                                           \
        /* unit p: its window offsets along each dimension (kr) and in the input */          \
        int64_t kr[DIRECT_MAX_POS][XLACRT_CONV_MAX_SPATIAL], delta[DIRECT_MAX_POS];           \
        window_table(d, ks, rows_unit ? last : nsp, kr, delta);                               \
        const T *ptrs[DIRECT_MAX_POS * DIRECT_MR];                                            \
        int outer_in[DIRECT_MAX_POS]; /* units the line's outer coordinates keep */           \
        /* window rows cut by the padding, copied with their zeros */                         \
        T edge[DIRECT_MR * DIRECT_SMALL_K];                                                   \
        for (int64_t jc = 0; jc < O; jc += pb * nr) {                                         \
            int64_t jend = jc + pb * nr < O ? jc + pb * nr : O;                               \
            for (int64_t i = t0; i < t1; i += DIRECT_MR) {                                    \
                int mv = t1 - i < DIRECT_MR ? (int)(t1 - i) : DIRECT_MR;                      \
                /* the rows' windows: ptrs[p * DIRECT_MR + r].  What the dimensions           \
                   before the last decide (the line's input offset, which window              \
                   units fall into their padding) is worked out once a line of                \
                   the last dimension; a row then only places its units along                 \
                   the last dimension. */                                                     \
                int64_t n, y[XLACRT_CONV_MAX_SPATIAL] = {0}, base = 0;                        \
                row_coords(d, i, &n, y);                                                      \
                if (mv == DIRECT_MR && y[last] + DIRECT_MR <= d->out_dim[last] &&             \
                    direct_inner_##SUF(d, n, y, ks, kr, rows_unit, K, delta, j->in,           \
                                       ptrs))                                                 \
                    goto tile_ready_##SUF;                                                    \
                for (int r = 0; r < DIRECT_MR; r++) {                                         \
                    if (r >= mv) {                                                            \
                        for (int64_t p = 0; p < ks; p++)                                      \
                            ptrs[p * DIRECT_MR + r] = dzeros_##SUF;                           \
                        continue;                                                             \
                    }                                                                         \
                    if (r > 0)                                                                \
                        next_coords(d, &n, y);                                                \
                    if (r == 0 || y[last] == 0) {                                             \
                        /* a new line: its offset and the units its outer coordinates drop */ \
                        base = n * d->in_sn;                                                  \
                        for (int64_t p = 0; p < ks; p++)                                      \
                            outer_in[p] = 1;                                                  \
                        for (int64_t k = 0; k < last; k++) {                                  \
                            int64_t x0 = y[k] * d->stride[k] - d->pad_lo[k];                  \
                            base += x0 * d->in_ss[k];                                         \
                            for (int64_t p = 0; p < ks; p++)                                  \
                                outer_in[p] &= (uint64_t)(x0 + kr[p][k]) < (uint64_t)d->in_dim[k];\
                        }                                                                     \
                    }                                                                         \
                    /* the window's first coordinate along the last dimension, maybe in the padding */\
                    int64_t xl = y[last] * d->stride[last] - d->pad_lo[last];                 \
                    int64_t row = base + xl * d->in_ss[last];                                 \
                    T *e = edge + r * (rows_unit ? DIRECT_SMALL_K : 0);                       \
                    /* the row's positions inside the input (window rows) */                  \
                    int64_t lo = xl < 0 ? -xl : 0, hi = d->in_dim[last] - xl;                 \
                    lo = lo < K ? lo : K;                                                     \
                    hi = hi < K ? hi : K;                                                     \
                    for (int64_t p = 0; p < ks; p++) {                                        \
                        int inside = outer_in[p];                                             \
                        if (!rows_unit)                                                       \
                            inside &= (uint64_t)(xl + kr[p][last]) < (uint64_t)d->in_dim[last];\
                        else                                                                  \
                            inside &= hi > lo;                                                \
                        if (!inside) {                                                        \
                            ptrs[p * DIRECT_MR + r] = dzeros_##SUF;                           \
                        } else if (!rows_unit || (lo == 0 && hi == K)) {                      \
                            ptrs[p * DIRECT_MR + r] = j->in + (row + delta[p]);               \
                        } else {                                                              \
                            const T *src = j->in + (row + delta[p] + lo * F);                 \
                            for (int64_t q = 0; q < lo * F; q++)                              \
                                e[q] = 0;                                                     \
                            for (int64_t q = 0; q < (hi - lo) * F; q++)                       \
                                e[lo * F + q] = src[q];                                       \
                            for (int64_t q = hi * F; q < K * F; q++)                          \
                                e[q] = 0;                                                     \
                            ptrs[p * DIRECT_MR + r] = e;                                      \
                            e += C;                                                           \
                        }                                                                     \
                    }                                                                         \
                }                                                                             \
            tile_ready_##SUF:;                                                                \
                for (int64_t jr = jc; jr < jend; jr += nr) {                                  \
                    int nv = O - jr < nr ? (int)(O - jr) : (int)nr;                           \
                    rt_gemm_rows_##SUF(ks, C, ptrs, bdata + C * jr, nr, bstride,              \
                                       j->c + (i - j->r0) * j->ldc + jr, j->ldc, mv, nv, 0);  \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
    }                                                                                         \
                                                                                              \
    static void direct_rows_##SUF(xlacrt_pool *gp, const xlacrt_conv *d, const T *in,         \
                                  const void *w, T *c, int64_t ldc, int64_t r0, int64_t r1)   \
    {                                                                                         \
        direct_job_##SUF j = {.d = d, .in = in, .c = c, .ldc = ldc, .r0 = r0, .r1 = r1};      \
        rt_gemm_packed_b_info(w, IS_F64_##SUF, &j.b);                                         \
        int64_t per = DIRECT_CHUNK_TILES * DIRECT_MR;                                         \
        xlacrt_parallel_for(gp, (r1 - r0 + per - 1) / per, direct_task_##SUF, &j);            \
    }
#define IS_F64_f32 0
#define IS_F64_f64 1
#if defined(__x86_64__)
DEFINE_DIRECT_INNER(float, f32)
DEFINE_DIRECT_INNER(double, f64)
DEFINE_DIRECT(float, f32)
DEFINE_DIRECT(double, f64)
#define DIRECT_ROWS(SUF, ...) direct_rows_##SUF(__VA_ARGS__)
#else
#define DIRECT_ROWS(SUF, ...) ((void)0) /* conv_direct_ok is 0 */
#endif

/* The depth of the k blocks the kernel is packed in for the implicit GEMM:
   one window position when the direct path will take it, else the GEMM's
   own (0). */
static int64_t implicit_kc(const xlacrt_conv *d)
{
    int64_t npos, unit;
    if (!direct_shape(d, &npos, &unit))
        return 0;
    return conv_direct_ok(d, rt_gemm_current_avx512(), unit) ? unit : 0;
}

/* ---- Winograd F(2x2, 3x3) ----
 * A 3x3 window at unit stride, undilated, one group, NHWC-like input (the
 * features contiguous) and row-major output, with enough features on both
 * sides, is computed with Winograd's minimal filtering: the output is cut
 * into tiles of 2x2 positions, each reading a 4x4 patch d of the padded
 * input (zeros outside it), and per pair of features
 *   Y = A^T [(G g G^T) (.) (B^T d B)] A
 * with (.) the elementwise product of two 4x4 matrices.  Summed over the
 * input features, the elementwise products become 16 GEMMs, one per
 * element e of the 4x4 matrices, of [tiles x in_feat] by [in_feat x
 * out_feat]: 16 multiplies per output tile and feature pair where the
 * direct convolution does 36.
 *   B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]
 *   G   = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1]
 *   A^T = [1 1 1 0; 0 1 -1 -1]
 * The kernel's transform U = G g G^T is done when the kernel is packed
 * (in double, each U rounded once), and the 16 matrices packed for the
 * GEMM, behind a header that says so: the rows read the header, so a
 * kernel packed with Winograd off (XLAC_WINOGRAD=0) runs the direct path
 * whatever the setting when it runs.  The input and output transforms
 * only add and subtract, vectorized over the features.
 *
 * Tiles are numbered along the output's tile rows ("stripes" of 2 output
 * rows: batch, then tile row, then tile column) and computed in blocks
 * (wino_block_tiles) whose transformed inputs and products stay in L2 where
 * the features are few, and that are large enough for each read of the
 * transformed kernels to pay where they are many.  A call for rows [r0,
 * r1) computes the tiles covering them and writes only those rows, so any
 * cut of the rows works; each tile's sums are the same whatever block it
 * falls in (the GEMM's row results do not depend on the other rows), so
 * results never depend on the cut or the pool.  Against the direct sums,
 * errors stay within a few units in the last place of the sum of the
 * products' magnitudes. */
enum {
    WINO_MIN_FEAT = 16,
    WINO_MAX_FEAT = DIRECT_MAX_FEAT, /* padding reads dzeros_f32 */
    WINO_HEADER = 64,
    WINO_MAGIC = 0x57324633, /* never a kernel family's number (packed_b_header) */
    WINO_BLOCK_BYTES = 768 * 1024, /* transformed inputs and products of a block */
    WINO_MIN_TILES = 128,
};

typedef struct {
    int32_t magic, pad;
    int64_t in_feat, out_feat;
    int64_t stride; /* bytes from one packed U matrix to the next */
} wino_header;

/* XLAC_WINOGRAD=0 turns the Winograd path off.  Read when a kernel is
   packed (and when the compiler picks its blocks), never while rows run:
   those follow the packed header. */
static int wino_off(void)
{
    const char *e = getenv("XLAC_WINOGRAD");
    return e && !strcmp(e, "0");
}

/* The shapes Winograd computes (whatever the setting). */
static int wino_shape(const xlacrt_conv *d)
{
    if (d->nsp != 2 || d->groups != 1 || d->batch_groups > 1 || d->in_sc != 1 || !d->out_rowmajor ||
        d->rows <= 0 || d->in_feat < WINO_MIN_FEAT || d->in_feat > WINO_MAX_FEAT ||
        d->out_feat < WINO_MIN_FEAT)
        return 0;
    for (int i = 0; i < 2; i++)
        if (d->k_dim[i] != 3 || d->stride[i] != 1 || d->lhs_dil[i] != 1 || d->rhs_dil[i] != 1 ||
            d->out_dim[i] < 1)
            return 0;
    return 1;
}

/* Tiles per block: transformed inputs (16 x in_feat) and products (16 x
   out_feat) of WINO_BLOCK_BYTES, and at least WINO_MIN_TILES, the rows
   each read of the 16 transformed kernels serves (512 -> 512 features:
   16 MiB of them, read from L3 or memory for every block).  Measured on
   8x7x7x512 -> 512 (128 tiles), 1 thread, thread CPU time: blocks of 48
   tiles 12.4-14.2 ms, 64 tiles 11.3-12.6, 128 tiles 10.3-10.9, the direct
   path 14.7-16.1; the smaller layers, whose blocks are larger anyway,
   did not change. */
static int64_t wino_block_tiles(const xlacrt_conv *d)
{
    int64_t per = 16 * (d->in_feat + d->out_feat) * (int64_t)sizeof(float);
    int64_t tb = WINO_BLOCK_BYTES / per;
    return tb < WINO_MIN_TILES ? WINO_MIN_TILES : tb;
}

int64_t xlacrt_conv_winograd(const xlacrt_conv *d)
{
    if (!wino_shape(d) || wino_off())
        return 0;
    /* whole stripes of about a block of tiles, but at least two blocks
       where the layer has two stripes, for two threads to share */
    int64_t H = d->out_dim[0], W = d->out_dim[1], th = (H + 1) / 2, tw = (W + 1) / 2;
    int64_t all = d->batch * th, stripes = (wino_block_tiles(d) + tw - 1) / tw;
    if (stripes > (all + 1) / 2)
        stripes = (all + 1) / 2;
    /* with an odd output height an image ends in half a stripe: blocks
       of whole images, where they hold one, cut no stripe */
    int64_t rows = H % 2 && stripes >= th ? stripes / th * H * W : stripes * 2 * W;
    return rows < d->rows ? rows : d->rows;
}

static size_t wino_bytes(const xlacrt_conv *d)
{
    return WINO_HEADER + 16 * xlacrt_gemm_packed_b_bytes(0, d->out_feat, d->in_feat);
}

/* Whether w holds a kernel packed for Winograd. */
static int wino_packed(const xlacrt_conv *d, const void *w)
{
    int32_t magic;
    memcpy(&magic, w, sizeof magic);
    return wino_shape(d) && magic == WINO_MAGIC;
}

/* U = G g G^T for output features o < O (g[q][o * so]: window position
   q) of one input feature, in double, each U rounded once, written
   straight into the 16 packed copies: element o of matrix e at u[e] +
   (o / nr) * ps + o % nr (its panel of nr columns, ps apart).  With so ==
   1, vectors of output features (of fewer lanes than nr: they never cross
   a panel; any width gives the same bits). */
#define WINO_KERNEL_BODY(D, LD, ST, o)                                                        \
    {                                                                                         \
        D t[4][3];                                                                            \
        int64_t at = (o) / nr * ps + (o) % nr;                                                \
        for (int b = 0; b < 3; b++) {                                                         \
            D g0 = LD(g[b], o), g1 = LD(g[3 + b], o), g2 = LD(g[6 + b], o);                   \
            t[0][b] = g0;                                                                     \
            t[1][b] = (g0 + g1 + g2) * 0.5;                                                   \
            t[2][b] = (g0 - g1 + g2) * 0.5;                                                   \
            t[3][b] = g2;                                                                     \
        }                                                                                     \
        for (int a = 0; a < 4; a++) {                                                         \
            ST(u[a * 4] + at, t[a][0]);                                                       \
            ST(u[a * 4 + 1] + at, (t[a][0] + t[a][1] + t[a][2]) * 0.5);                      \
            ST(u[a * 4 + 2] + at, (t[a][0] - t[a][1] + t[a][2]) * 0.5);                      \
            ST(u[a * 4 + 3] + at, t[a][2]);                                                   \
        }                                                                                     \
    }
#define KSCALAR_LD(p, o) ((double)(p)[(o) * so])
#define KSCALAR_ST(p, x) (*(p) = (float)(x))
static void wino_kernel_strided(const float *const *g, int64_t so, int64_t O, float *const *u, int64_t nr,
                                int64_t ps)
{
    for (int64_t o = 0; o < O; o++)
        WINO_KERNEL_BODY(double, KSCALAR_LD, KSCALAR_ST, o)
}
#define DEFINE_WINO_KERNEL(SUF, ATTR, L)                                                      \
    typedef double wkd_##SUF __attribute__((vector_size(8 * L)));                             \
    typedef float wkf_##SUF __attribute__((vector_size(4 * L), aligned(4), may_alias));       \
    static inline ATTR wkd_##SUF wkld_##SUF(const float *p, int64_t o)                        \
    {                                                                                         \
        return __builtin_convertvector(*(const wkf_##SUF *)(p + o), wkd_##SUF);               \
    }                                                                                         \
    static inline ATTR void wkst_##SUF(float *p, wkd_##SUF x)                                 \
    {                                                                                         \
        *(wkf_##SUF *)p = __builtin_convertvector(x, wkf_##SUF);                              \
    }                                                                                         \
    static ATTR void wino_kernel_##SUF(const float *const *g, int64_t O, float *const *u, int64_t nr, \
                                       int64_t ps)                                            \
    {                                                                                         \
        const int64_t so = 1;                                                                 \
        int64_t o = 0;                                                                        \
        if (nr % L == 0)                                                                      \
            for (; o + L <= O; o += L)                                                        \
                WINO_KERNEL_BODY(wkd_##SUF, wkld_##SUF, wkst_##SUF, o)                        \
        for (; o < O; o++)                                                                    \
            WINO_KERNEL_BODY(double, KSCALAR_LD, KSCALAR_ST, o)                               \
    }
DEFINE_WINO_KERNEL(plain, NO_ATTR, 2)
#if defined(__x86_64__)
DEFINE_WINO_KERNEL(avx2, TARGET_AVX2, 4)
DEFINE_WINO_KERNEL(avx512, TARGET_AVX512, 8)
#endif

/* The kernel's transform: for each input feature ci and output feature o,
   U = G g G^T, written as 16 matrices [ci][o] packed for the GEMM (no
   copy in between: the transform and a separate packing pass each moved
   the whole kernel, and a kernel given at run time is packed per call).
   Returns 0 (nothing done) when d is not for Winograd. */
static int wino_pack_f32(const xlacrt_conv *d, const float *kernel, void *w)
{
    if (!xlacrt_conv_winograd(d))
        return 0;
    int64_t C = d->in_feat, O = d->out_feat;
    wino_header h = {WINO_MAGIC, 0, C, O, (int64_t)xlacrt_gemm_packed_b_bytes(0, O, C)};
    memcpy(w, &h, sizeof h);
    /* on AVX-512 in one k block, for the row tiles (wino_gemm_rows) */
    int64_t kc = rt_gemm_current_avx512() ? C : 0;
    rt_packed_b_info bi;
    float *data[16];
    for (int e = 0; e < 16; e++) {
        rt_gemm_pack_b_header(0, kc, O, C, (char *)w + WINO_HEADER + e * h.stride, &bi);
        data[e] = (float *)bi.data;
    }
    void (*row)(const float *const *, int64_t, float *const *, int64_t, int64_t) = wino_kernel_plain;
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        row = wino_kernel_avx512;
    else if (__builtin_cpu_supports("avx2"))
        row = wino_kernel_avx2;
#endif
    for (int64_t ci = 0; ci < C; ci++) {
        const float *g[9]; /* window position (a, b) of this input feature */
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                int64_t ka = d->reverse[0] ? 2 - a : a, kb = d->reverse[1] ? 2 - b : b;
                g[a * 3 + b] = kernel + ka * d->k_ss[0] + kb * d->k_ss[1] + ci * d->k_si;
            }
        /* row ci of the packed copies: in k block p0 (depth kb), row ci - p0
           of each panel, panels kb * nr apart */
        int64_t p0 = ci / bi.kc * bi.kc, kb = C - p0 < bi.kc ? C - p0 : bi.kc, ps = kb * bi.nr;
        float *u[16];
        for (int e = 0; e < 16; e++)
            u[e] = data[e] + p0 * bi.npad + (ci - p0) * bi.nr;
        if (d->k_so != 1)
            wino_kernel_strided(g, d->k_so, O, u, bi.nr, ps);
        else
            row(g, O, u, bi.nr, ps);
        for (int e = 0; e < 16; e++) /* the last panel's columns past O */
            for (int64_t o = O; o < bi.npad; o++)
                u[e][o / bi.nr * ps + o % bi.nr] = 0;
    }
    return 1;
}

/* The input transform of one tile: v[e * vs + c] = (B^T d B)[e] for the
   16 input positions x[0..15] (row-major 4x4; each a run of C features),
   and the output transform: y[a][b] for the 2x2 positions (dst[a * 2 + b],
   NULL: not written) from m[e * ms + o] (ms = O: a tile's 16 rows).
   Vectors of whatever width the machine has, the rest one at a time: only
   adds and subtracts, in the same order, so every width gives the same
   bits. */
#define WINO_IN_BODY(V, LD, ST, c)                                                            \
    {                                                                                         \
        V d[16], t[16];                                                                       \
        for (int q = 0; q < 16; q++)                                                          \
            d[q] = LD(x[q] + c);                                                              \
        for (int b = 0; b < 4; b++) {                                                         \
            t[0 + b] = d[0 + b] - d[8 + b];                                                   \
            t[4 + b] = d[4 + b] + d[8 + b];                                                   \
            t[8 + b] = d[8 + b] - d[4 + b];                                                   \
            t[12 + b] = d[4 + b] - d[12 + b];                                                 \
        }                                                                                     \
        for (int a = 0; a < 4; a++) {                                                         \
            float *o = v + (a * 4) * vs + c;                                                  \
            ST(o, t[a * 4 + 0] - t[a * 4 + 2]);                                               \
            ST(o + vs, t[a * 4 + 1] + t[a * 4 + 2]);                                          \
            ST(o + 2 * vs, t[a * 4 + 2] - t[a * 4 + 1]);                                      \
            ST(o + 3 * vs, t[a * 4 + 1] - t[a * 4 + 3]);                                      \
        }                                                                                     \
    }
#define WINO_OUT_BODY(V, LD, ST, c)                                                           \
    {                                                                                         \
        V s[16], t[8];                                                                        \
        for (int e = 0; e < 16; e++)                                                          \
            s[e] = LD(m + e * ms + c);                                                        \
        for (int b = 0; b < 4; b++) {                                                         \
            t[b] = s[b] + s[4 + b] + s[8 + b];                                                \
            t[4 + b] = s[4 + b] - s[8 + b] - s[12 + b];                                       \
        }                                                                                     \
        for (int a = 0; a < 2; a++) {                                                         \
            if (dst[a * 2])                                                                   \
                ST(dst[a * 2] + c, t[a * 4] + t[a * 4 + 1] + t[a * 4 + 2]);                   \
            if (dst[a * 2 + 1])                                                               \
                ST(dst[a * 2 + 1] + c, t[a * 4 + 1] - t[a * 4 + 2] - t[a * 4 + 3]);           \
        }                                                                                     \
    }
#define SCALAR_LD(p) (*(p))
#define SCALAR_ST(p, x) (*(p) = (x))
#define DEFINE_WINO_XFORM(SUF, ATTR, BYTES)                                                   \
    typedef float wvec_##SUF __attribute__((vector_size(BYTES), aligned(4), may_alias));       \
    static inline ATTR wvec_##SUF wld_##SUF(const float *p) { return *(const wvec_##SUF *)p; } \
    static inline ATTR void wst_##SUF(float *p, wvec_##SUF x) { *(wvec_##SUF *)p = x; }        \
    static ATTR void wino_in_##SUF(const float *const *x, int64_t C, float *v, int64_t vs)    \
    {                                                                                         \
        enum { L = BYTES / 4 };                                                               \
        int64_t c = 0;                                                                        \
        for (; c + L <= C; c += L)                                                            \
            WINO_IN_BODY(wvec_##SUF, wld_##SUF, wst_##SUF, c)                                  \
        for (; c < C; c++)                                                                    \
            WINO_IN_BODY(float, SCALAR_LD, SCALAR_ST, c)                                      \
    }                                                                                         \
    static ATTR void wino_out_##SUF(const float *m, int64_t ms, int64_t O, float *const *dst) \
    {                                                                                         \
        enum { L = BYTES / 4 };                                                               \
        int64_t c = 0;                                                                        \
        for (; c + L <= O; c += L)                                                            \
            WINO_OUT_BODY(wvec_##SUF, wld_##SUF, wst_##SUF, c)                                 \
        for (; c < O; c++)                                                                    \
            WINO_OUT_BODY(float, SCALAR_LD, SCALAR_ST, c)                                     \
    }
DEFINE_WINO_XFORM(plain, NO_ATTR, 16)
#if defined(__x86_64__)
DEFINE_WINO_XFORM(avx2, TARGET_AVX2, 32)
DEFINE_WINO_XFORM(avx512, TARGET_AVX512, 64)
#endif

typedef struct {
    void (*in)(const float *const *, int64_t, float *, int64_t);
    void (*out)(const float *, int64_t, int64_t, float *const *);
} wino_xforms;

static wino_xforms wino_pick(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return (wino_xforms){wino_in_avx512, wino_out_avx512};
    if (__builtin_cpu_supports("avx2"))
        return (wino_xforms){wino_in_avx2, wino_out_avx2};
#endif
    return (wino_xforms){wino_in_plain, wino_out_plain};
}

/* m[nt x O] (rows ldm apart) = v[nt x C] times u (packed in one k
   block), on AVX-512 by the GEMM's row tiles reading v in place (no copy
   of A; column blocks of u about 256 KiB, each against every row tile);
   0 when u was packed for another kernel family. */
static int wino_gemm_rows(int64_t nt, const float *v, const void *u, float *m, int64_t ldm)
{
#if defined(__x86_64__)
    rt_packed_b_info bi;
    rt_gemm_packed_b_info(u, 0, &bi);
    int64_t C = bi.k, O = bi.n, nr = bi.nr;
    if (!bi.avx512 || bi.kc != C || bi.mr != 12)
        return 0;
    const float *b = bi.data;
    int64_t pb = ((int64_t)256 * 1024 / (int64_t)sizeof(float)) / (C * nr);
    if (pb < 1)
        pb = 1;
    const float *rows[12];
    for (int64_t jc = 0; jc < O; jc += pb * nr) {
        int64_t jend = jc + pb * nr < O ? jc + pb * nr : O;
        for (int64_t i = 0; i < nt; i += 12) {
            int mv = nt - i < 12 ? (int)(nt - i) : 12;
            for (int r = 0; r < 12; r++) /* rows past nt repeat the first: computed, not stored */
                rows[r] = v + (i + (r < mv ? r : 0)) * C;
            for (int64_t jr = jc; jr < jend; jr += nr) {
                int nv = O - jr < nr ? (int)(O - jr) : (int)nr;
                rt_gemm_rows_f32(1, C, rows, b + C * jr, nr, 0, m + i * ldm + jr, ldm, mv, nv, 0);
            }
        }
    }
    return 1;
#else
    (void)nt, (void)v, (void)u, (void)m, (void)ldm;
    return 0;
#endif
}

typedef struct {
    const xlacrt_conv *d;
    const float *in;
    const char *w;
    float *out;
    int64_t r0, r1; /* the rows written */
    int64_t t0, t1; /* the tiles covering them */
    int64_t tb;     /* tiles per block */
} wino_job;

/* The distance between the 16 transformed input matrices of a block
   holding n floats each: an odd number of 64-byte lines, so that the input
   transform's 16 streams fall into different cache sets (a multiple of 4
   KiB put them all into one, more streams than its ways: the transform
   ran at half speed).  The products are stored tile by tile instead
   ([tile][e][out_feat], the GEMMs' rows 16 * out_feat apart), so the
   output transform reads each tile's 16 rows together (10% off a
   1x14x14x256 -> 256 convolution). */
static int64_t wino_stride(int64_t n)
{
    int64_t lines = (n + 15) / 16;
    return (lines | 1) * 16;
}

/* Block b of the job's tiles: input transform, 16 GEMMs, output transform. */
static void wino_task(int64_t b, void *ctx)
{
    const wino_job *j = ctx;
    const xlacrt_conv *d = j->d;
    int64_t C = d->in_feat, O = d->out_feat, H = d->out_dim[0], W = d->out_dim[1];
    int64_t th = (H + 1) / 2, tw = (W + 1) / 2;
    int64_t t0 = j->t0 + b * j->tb, t1 = t0 + j->tb < j->t1 ? t0 + j->tb : j->t1, nt = t1 - t0;
    wino_header h;
    memcpy(&h, j->w, sizeof h);
    /* v: the 16 transformed input matrices [e][tile][in_feat], vs apart;
       m: the products, [tile][e][out_feat] */
    int64_t vs = wino_stride(nt * C);
    size_t vbytes = sizeof(float) * (size_t)(16 * vs), mbytes = sizeof(float) * (size_t)(16 * nt * O);
    float *v = xlacrt_scratch_get(XLACRT_SCRATCH_CONV_COLS, vbytes, "convolution");
    float *m = xlacrt_scratch_get(XLACRT_SCRATCH_CONV_OUT, mbytes, "convolution");
    if (!v || !m) {
        /* out of memory: recorded in the run's status, which fails it */
        xlacrt_scratch_put(XLACRT_SCRATCH_CONV_COLS, v);
        xlacrt_scratch_put(XLACRT_SCRATCH_CONV_OUT, m);
        return;
    }
    wino_xforms xf = wino_pick();
    for (int64_t t = t0; t < t1; t++) {
        int64_t s = t / tw, n = s / th, y0 = 2 * (s % th) - d->pad_lo[0], x0 = 2 * (t % tw) - d->pad_lo[1];
        const float *x[16];
        for (int a = 0; a < 4; a++)
            for (int c = 0; c < 4; c++) {
                int64_t yy = y0 + a, xx = x0 + c;
                int inside = (uint64_t)yy < (uint64_t)d->in_dim[0] && (uint64_t)xx < (uint64_t)d->in_dim[1];
                int64_t off = n * d->in_sn + yy * d->in_ss[0] + xx * d->in_ss[1];
                x[a * 4 + c] = inside ? j->in + off : dzeros_f32;
            }
        xf.in(x, C, v + (t - t0) * C, vs);
    }
    for (int e = 0; e < 16; e++) {
        const char *u = j->w + WINO_HEADER + e * h.stride;
        if (!wino_gemm_rows(nt, v + e * vs, u, m + e * O, 16 * O))
            xlacrt_sgemm_packed(NULL, 0, nt, v + e * vs, C, u, m + e * O, 16 * O, 0);
    }
    for (int64_t t = t0; t < t1; t++) {
        int64_t s = t / tw, n = s / th, y = 2 * (s % th), xo = 2 * (t % tw);
        float *dst[4];
        for (int a = 0; a < 2; a++)
            for (int c = 0; c < 2; c++) {
                int64_t r = (n * H + y + a) * W + xo + c;
                int ok = y + a < H && xo + c < W && r >= j->r0 && r < j->r1;
                dst[a * 2 + c] = ok ? j->out + r * O : NULL;
            }
        xf.out(m + (t - t0) * 16 * O, O, O, dst);
    }
    xlacrt_scratch_put(XLACRT_SCRATCH_CONV_COLS, v);
    xlacrt_scratch_put(XLACRT_SCRATCH_CONV_OUT, m);
}

/* Rows [r0, r1) (within d->rows) with a kernel packed for Winograd; the
   blocks of tiles are shared by the pool gp (NULL: serial). */
static void wino_rows(xlacrt_pool *gp, const xlacrt_conv *d, const float *in, const void *w, float *out,
                      int64_t r0, int64_t r1)
{
    int64_t H = d->out_dim[0], W = d->out_dim[1], th = (H + 1) / 2, tw = (W + 1) / 2;
    /* the stripes of the first and last rows */
    int64_t s0 = r0 / (H * W) * th + r0 % (H * W) / W / 2;
    int64_t s1 = (r1 - 1) / (H * W) * th + (r1 - 1) % (H * W) / W / 2;
    wino_job j = {d, in, w, out, r0, r1, s0 * tw, (s1 + 1) * tw, wino_block_tiles(d)};
    /* blocks of whole stripes when a stripe is short */
    if (tw < j.tb)
        j.tb = j.tb / tw * tw;
    xlacrt_parallel_for(gp, (j.t1 - j.t0 + j.tb - 1) / j.tb, wino_task, &j);
}

/* The element types' entries (Winograd is f32 only): nonzero when done. */
static int wino_try_f32(xlacrt_pool *gp, const xlacrt_conv *d, const float *in, const void *w, float *out,
                        int64_t r0, int64_t r1)
{
    if (!wino_packed(d, w))
        return 0;
    wino_rows(gp, d, in, w, out, r0, r1);
    return 1;
}
static int wino_try_f64(xlacrt_pool *gp, const xlacrt_conv *d, const double *in, const void *w,
                        double *out, int64_t r0, int64_t r1)
{
    (void)gp, (void)d, (void)in, (void)w, (void)out, (void)r0, (void)r1;
    return 0;
}
static int wino_pack_f64(const xlacrt_conv *d, const double *kernel, void *w)
{
    (void)d, (void)kernel, (void)w;
    return 0;
}

/* ---- the window as the contraction (a kernel gradient) ----
 * When the window covers nearly all of the input, as in the gradient of a
 * convolution with respect to its kernel (the "kernel" is the output's
 * gradient, the window the whole image, the output a few positions), the
 * im2col matrix would copy the input once per output position, reading it
 * across its features.  Instead both operands are copied once into the
 * same frame, the part of the padded input that any window touches:
 *   F[f][x][n]  = input feature f of batch n at frame position x (zero in
 *                 the padding), plus a tail of zero rows;
 *   Kf[f][x][o] = the kernel at window position x (zero outside the window).
 * With frame positions flattened, the window of output position y starts
 * s(y) rows further into F, and rows of F that fall outside that window
 * meet zero rows of Kf, so out[n, y, o] = sum_q F[q + s(y)][n] Kf[q][o]:
 * one GEMM per output position, A = F shifted (transposed), B = Kf packed
 * once. */

/* Output positions of a kernel gradient that run as one GEMM (below). */
enum { STACKED_MAX_POSITIONS = 1024 };
/* A panel's columns copied with the tile's height known to the compiler:
   mr adjacent values of F per column (inside DEFINE_SHIFTED). */
#define STACKED_COPY(MR)                                                                      \
    case MR:                                                                                  \
        for (int64_t q = 0; q < kc; q++)                                                      \
            for (int r = 0; r < MR; r++)                                                      \
                dp[q * MR + r] = src[q * N + r];                                              \
        break;

typedef struct {
    int64_t frame[XLACRT_CONV_MAX_SPATIAL]; /* frame extent per dimension */
    int64_t pitch[XLACRT_CONV_MAX_SPATIAL]; /* frame rows per step along it */
    int64_t volume, k, tail, positions;     /* frame size, in_feat * volume, max s(y), output positions */
} shift_geom;

static void shift_geometry(const xlacrt_conv *d, shift_geom *g)
{
    g->volume = 1;
    g->positions = 1;
    for (int64_t i = d->nsp - 1; i >= 0; i--) {
        g->frame[i] = (d->out_dim[i] - 1) * d->stride[i] + d->k_dim[i];
        g->pitch[i] = g->volume;
        g->volume *= g->frame[i];
        g->positions *= d->out_dim[i];
    }
    g->k = d->in_feat * g->volume;
    g->tail = 0;
    for (int64_t i = 0; i < d->nsp; i++)
        g->tail += (d->out_dim[i] - 1) * d->stride[i] * g->pitch[i];
}

/* Output position pos (row-major over the output's spatial dimensions):
   how many frame rows its window starts in, and its offset in the output. */
static void shift_position(const xlacrt_conv *d, const shift_geom *g, int64_t pos, int64_t *shift, int64_t *obase)
{
    int64_t s = 0, o = 0;
    for (int64_t i = d->nsp - 1; i >= 0; i--) {
        int64_t y = pos % d->out_dim[i];
        pos /= d->out_dim[i];
        s += y * d->stride[i] * g->pitch[i];
        o += y * d->out_ss[i];
    }
    *shift = s;
    *obase = o;
}

/* One group, no dilation, a window of at least 16 positions, and a frame at
   most twice the window: the zeros of Kf cost at most as many multiplies
   again, where im2col would copy the input once per output position. */
int xlacrt_conv_shifted(const xlacrt_conv *d)
{
    if (total_groups(d) != 1 || d->nsp < 1 || d->rows <= 0 || d->in_feat <= 0 || d->out_feat <= 0)
        return 0;
    for (int64_t i = 0; i < d->nsp; i++)
        if (d->lhs_dil[i] != 1 || d->rhs_dil[i] != 1 || d->out_dim[i] < 1 || d->stride[i] < 1)
            return 0;
    int64_t ws = window_size(d);
    if (ws < 16)
        return 0;
    shift_geom g;
    shift_geometry(d, &g);
    return g.volume <= 2 * ws;
}

size_t xlacrt_conv_packed_bytes(const xlacrt_conv *d, int f64)
{
    size_t es = f64 ? sizeof(double) : sizeof(float);
    int64_t kk = window_size(d) * (d->groups ? d->in_feat / d->groups : 0);
    size_t plain = (size_t)(kk * d->out_feat) * es;
    if (xlacrt_conv_shifted(d)) {
        shift_geom g;
        shift_geometry(d, &g);
        return xlacrt_gemm_packed_b_bytes(f64, d->out_feat, g.k);
    }
    if (!conv_gemm_packed(d))
        return plain;
    size_t packed = xlacrt_gemm_packed_b_bytes(f64, d->out_feat, kk);
    if (packed < plain)
        packed = plain;
    /* room for either layout, whatever XLAC_WINOGRAD says when packing */
    if (!f64 && wino_shape(d) && wino_bytes(d) > packed)
        packed = wino_bytes(d);
    return packed;
}

/* Every output position's shift and output offset (shift_position); true
   when the outputs of the positions, N rows each, lie one after another as
   one [P * N, out_feat] matrix (the kernel gradient's [kh, kw, c, o]). */
static int stacked_positions(const xlacrt_conv *d, const shift_geom *g, int64_t *s, int64_t *obase)
{
    int uniform = d->out_so == 1;
    for (int64_t pos = 0; pos < g->positions; pos++) {
        shift_position(d, g, pos, &s[pos], &obase[pos]);
        uniform &= obase[pos] == pos * d->batch * d->out_sn;
    }
    return uniform;
}

/* The frame in panels (the kernel gradient's stacked product, below): F
   laid out as [N / W][frame rows][W], W the product's register tile, so
   that a panel of W rows of A (one output position, W consecutive rows of
   the batch) at k offset p0 is W * kc consecutive values of the frame,
   which the product reads where they are (rt_gemm_panels_a) instead of
   packing W values gathered from each row of F.
   The batch is padded to Npad, a multiple of W, with zero rows (their
   outputs are computed and dropped); the tile with the least padding is
   taken, and none where it would add more than 1/16 of the rows.
   Returns W, or 0 for the plain frame. */
static int panel_tile(const rt_packed_b_info *bi, int64_t N)
{
    int best = 0;
    int64_t waste = 0;
    int cand[2] = {bi->mr, bi->mr_small};
    for (int i = 0; i < 2; i++) {
        int w = cand[i];
        if (w <= 0)
            continue;
        int64_t pad = (N + w - 1) / w * w - N;
        if (pad * 16 > N || (best && pad >= waste))
            continue;
        best = w;
        waste = pad;
    }
    return best;
}

#define DEFINE_SHIFTED(T, SUF, IS_F64, PACK_B, GEMM_PACKED)                                  \
    /* Kf: [in_feat][frame position][out_feat], the window's positions set */                 \
    static void shifted_pack_##SUF(const xlacrt_conv *d, const T *kernel, void *w)             \
    {                                                                                         \
        shift_geom g;                                                                         \
        shift_geometry(d, &g);                                                                \
        int64_t O = d->out_feat, ks = window_size(d);                                         \
        T *kf = xlacrt_scratch_get(XLACRT_SCRATCH_CONV_COLS, sizeof(T) * (size_t)(g.k * O),   \
                                   "convolution");                                            \
        if (!kf)                                                                              \
            return; /* recorded in the run's status, which fails it */                        \
        memset(kf, 0, sizeof(T) * (size_t)(g.k * O));                                         \
        int64_t kpos[XLACRT_CONV_MAX_SPATIAL] = {0};                                          \
        for (int64_t p = 0; p < ks; p++, next_window(d, kpos, d->nsp)) {                      \
            int64_t koff = 0, x = 0;                                                          \
            for (int64_t i = 0; i < d->nsp; i++) {                                            \
                koff += (d->reverse[i] ? d->k_dim[i] - 1 - kpos[i] : kpos[i]) * d->k_ss[i];   \
                x += kpos[i] * g.pitch[i];                                                    \
            }                                                                                 \
            for (int64_t f = 0; f < d->in_feat; f++) {                                        \
                T *dst = kf + (f * g.volume + x) * O;                                         \
                const T *src = kernel + koff + f * d->k_si;                                   \
                for (int64_t o = 0; o < O; o++)                                               \
                    dst[o] = src[o * d->k_so];                                                \
            }                                                                                 \
        }                                                                                     \
        PACK_B(NULL, 0, O, g.k, kf, O, w);                                                    \
        xlacrt_scratch_put(XLACRT_SCRATCH_CONV_COLS, kf);                                     \
    }                                                                                         \
                                                                                              \
    typedef struct {                                                                          \
        const xlacrt_conv *d;                                                                 \
        shift_geom g;                                                                         \
        const T *f;                                                                           \
        const void *w;                                                                        \
        T *out;                                                                               \
    } shifted_job_##SUF;                                                                      \
                                                                                              \
    /* output position `pos`: one GEMM, written in place or scattered */                      \
    static void shifted_task_##SUF(int64_t pos, void *ctx)                                    \
    {                                                                                         \
        shifted_job_##SUF *j = ctx;                                                           \
        const xlacrt_conv *d = j->d;                                                          \
        int64_t N = d->batch, O = d->out_feat, s, obase;                                      \
        shift_position(d, &j->g, pos, &s, &obase);                                            \
        const T *a = j->f + s * N;                                                            \
        if (d->out_so == 1) {                                                                 \
            GEMM_PACKED(NULL, 1, N, a, N, j->w, j->out + obase, d->out_sn, 0);                \
            return;                                                                           \
        }                                                                                     \
        T *c = xlacrt_scratch_get(XLACRT_SCRATCH_CONV_OUT, sizeof(T) * (size_t)(N * O), "convolution"); \
        if (!c)                                                                               \
            return;                                                                           \
        GEMM_PACKED(NULL, 1, N, a, N, j->w, c, O, 0);                                         \
        for (int64_t n = 0; n < N; n++)                                                       \
            for (int64_t o = 0; o < O; o++)                                                   \
                j->out[obase + n * d->out_sn + o * d->out_so] = c[n * O + o];                 \
        xlacrt_scratch_put(XLACRT_SCRATCH_CONV_OUT, c);                                       \
    }                                                                                         \
                                                                                              \
    /* All output positions in one GEMM: row (y, n) of A is column n of F    \
       shifted by s(y), so B (the packed Kf) streams through the caches      \
       once for all rows instead of once per position, and a batch of       \
       fewer rows than a register tile (3 input features of an RGB image)   \
       fills whole tiles.  Measured on AVX2 (the CNN's two kernel            \
       gradients, 1 thread): 2.34 -> 1.75 ms and 3.78 -> 3.40 ms. */          \
    typedef struct {                                                                          \
        const T *f;                                                                           \
        int64_t N;                                                                            \
        const int64_t *s;                                                                     \
    } stacked_ctx_##SUF;                                                                      \
                                                                                              \
    static void stacked_pack_##SUF(void *vctx, int mr, int64_t i0, int64_t mc, int64_t p0,    \
                                   int64_t kc, void *dv)                                      \
    {                                                                                         \
        static const T zero = 0;                                                              \
        const stacked_ctx_##SUF *c = vctx;                                                    \
        T *dst = dv;                                                                          \
        int64_t N = c->N;                                                                     \
        for (int64_t ib = 0; ib < mc; ib += mr) {                                             \
            int64_t r0 = i0 + ib, rows = mc - ib < mr ? mc - ib : mr;                         \
            T *dp = dst + ib * kc;                                                            \
            if (rows == mr && r0 / N == (r0 + mr - 1) / N) {                                  \
                /* one position, consecutive rows: mr adjacent values of F */                 \
                const T *src = c->f + (c->s[r0 / N] + p0) * N + r0 % N;                       \
                switch (mr) {                                                                 \
                    STACKED_COPY(4) STACKED_COPY(6) STACKED_COPY(8) STACKED_COPY(12)           \
                    STACKED_COPY(16)                                                          \
                default:                                                                      \
                    for (int64_t q = 0; q < kc; q++)                                          \
                        for (int r = 0; r < mr; r++)                                          \
                            dp[q * mr + r] = src[q * N + r];                                  \
                }                                                                             \
                continue;                                                                     \
            }                                                                                 \
            /* rows from several positions: one pointer and step per row (a                   \
               step of 0 over a zero past the last row) */                                    \
            for (int r = 0; r < mr; r++) {                                                    \
                int live = r < rows;                                                          \
                const T *src = live ? c->f + (c->s[(r0 + r) / N] + p0) * N + (r0 + r) % N : &zero; \
                int64_t step = live ? N : 0;                                                  \
                for (int64_t q = 0; q < kc; q++)                                              \
                    dp[q * mr + r] = src[q * step];                                           \
            }                                                                                 \
        }                                                                                     \
    }                                                                                         \
                                                                                              \
    /* The frame of in (zeroed before): row fr * L + x (frame row fr of the                   \
       features and leading dimensions, position x along the last) holds                      \
       the input at coordinates x - pad_lo, or stays zero in the padding;                     \
       value n of a row at row * N + n, or with w > 0 in panels of w                          \
       (panel_tile) at (n / w * rows + row) * w + n % w. */                                   \
    static void frame_fill_##SUF(const xlacrt_conv *d, const shift_geom *g, const T *in, T *f,\
                                 int64_t rows, int w)                                         \
    {                                                                                         \
        int64_t N = d->batch, last = d->nsp - 1, L = g->frame[last];                          \
        for (int64_t fr = 0; fr < d->in_feat * (g->volume / L); fr++) {                       \
            int64_t feat = fr / (g->volume / L), rem = fr % (g->volume / L), off = 0, ok = 1; \
            for (int64_t i = last - 1; i >= 0; i--) {                                         \
                int64_t x = rem % g->frame[i] - d->pad_lo[i];                                 \
                rem /= g->frame[i];                                                           \
                ok &= x >= 0 && x < d->in_dim[i];                                             \
                off += x * d->in_ss[i];                                                       \
            }                                                                                 \
            if (!ok)                                                                          \
                continue;                                                                     \
            const T *src = in + feat * d->in_sc + off;                                        \
            int64_t lo = d->pad_lo[last] > 0 ? d->pad_lo[last] : 0;                           \
            int64_t hi = d->in_dim[last] + d->pad_lo[last] < L ? d->in_dim[last] + d->pad_lo[last] : L;\
            for (int64_t x = lo; x < hi; x++) {                                               \
                const T *sp = src + (x - d->pad_lo[last]) * d->in_ss[last];                   \
                int64_t row = fr * L + x;                                                     \
                if (w == 0 && d->in_sn == 1) {                                                \
                    memcpy(f + row * N, sp, sizeof(T) * (size_t)N);                           \
                } else if (w == 0) {                                                          \
                    for (int64_t n = 0; n < N; n++)                                           \
                        f[row * N + n] = sp[n * d->in_sn];                                    \
                } else {                                                                      \
                    for (int64_t n0 = 0; n0 < N; n0 += w) {                                   \
                        T *dp = f + (n0 / w * rows + row) * w;                                \
                        for (int64_t n = n0; n < n0 + w && n < N; n++)                        \
                            dp[n - n0] = sp[n * d->in_sn];                                    \
                    }                                                                         \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
    }                                                                                         \
                                                                                              \
    /* The stacked product's rows (position, n), npad of them a position,                     \
       to where the output keeps them. */                                                     \
    static void stacked_scatter_##SUF(const xlacrt_conv *d, int64_t P, int64_t npad, const T *cm, \
                                      const int64_t *obase, T *out)                           \
    {                                                                                         \
        int64_t N = d->batch, O = d->out_feat;                                                \
        for (int64_t pos = 0; pos < P; pos++)                                                 \
            for (int64_t n = 0; n < N; n++)                                                   \
                for (int64_t o = 0; o < O; o++)                                               \
                    out[obase[pos] + n * d->out_sn + o * d->out_so] = cm[(pos * npad + n) * O + o]; \
    }                                                                                         \
                                                                                              \
    /* A from the frame in panels (panel_tile): rows (position, n) of the                     \
       stacked product, Npad of them per position */                                          \
    typedef struct {                                                                          \
        const T *fp;                                                                          \
        int64_t npad, rows;                                                                   \
        int w;                                                                                \
        const int64_t *s;                                                                     \
    } paneled_ctx_##SUF;                                                                      \
                                                                                              \
    static const void *paneled_panel_##SUF(void *vctx, int64_t r0, int64_t p0)                \
    {                                                                                         \
        const paneled_ctx_##SUF *c = vctx;                                                    \
        return c->fp + (((r0 % c->npad) / c->w * c->rows) + c->s[r0 / c->npad] + p0) * c->w;  \
    }                                                                                         \
                                                                                              \
    /* The whole kernel gradient as one product over the frame in panels of                   \
       w rows (built here from the input, like the plain frame in                             \
       shifted_run); false where it does not apply. */                                        \
    static int paneled_run_##SUF(xlacrt_pool *p, const xlacrt_conv *d, const shift_geom *g, const T *in, \
                                 const void *w, T *out)                                       \
    {                                                                                         \
        int64_t N = d->batch, O = d->out_feat, P = g->positions;                              \
        rt_packed_b_info bi;                                                                  \
        rt_gemm_packed_b_info(w, IS_F64, &bi);                                                \
        int W = P <= STACKED_MAX_POSITIONS ? panel_tile(&bi, N) : 0;                          \
        if (!W)                                                                               \
            return 0;                                                                         \
        int64_t npad = (N + W - 1) / W * W, rows = g->k + g->tail;                            \
        int64_t s[STACKED_MAX_POSITIONS], obase[STACKED_MAX_POSITIONS];                       \
        int uniform = stacked_positions(d, g, s, obase) && npad == N;                         \
        size_t fbytes = sizeof(T) * (size_t)(rows * npad);                                    \
        T *fp = xlacrt_scratch_get(XLACRT_SCRATCH_CONV_COLS, fbytes, "convolution");          \
        if (!fp)                                                                              \
            return 1; /* recorded in the run's status, which fails it */                      \
        memset(fp, 0, fbytes);                                                                \
        frame_fill_##SUF(d, g, in, fp, rows, W);                                              \
        paneled_ctx_##SUF c = {fp, npad, rows, W, s};                                         \
        T *cm = uniform ? out : xlacrt_scratch_get(XLACRT_SCRATCH_CONV_OUT, sizeof(T) * (size_t)(P * npad * O), "convolution"); \
        if (cm) {                                                                             \
            rt_gemm_panels_a(p, IS_F64, P * npad, W, paneled_panel_##SUF, &c, w, cm,           \
                                 uniform ? d->out_sn : O, 0);                                 \
            if (!uniform) {                                                                   \
                stacked_scatter_##SUF(d, P, npad, cm, obase, out);                            \
                xlacrt_scratch_put(XLACRT_SCRATCH_CONV_OUT, cm);                              \
            }                                                                                 \
        }                                                                                     \
        xlacrt_scratch_put(XLACRT_SCRATCH_CONV_COLS, fp);                                     \
        return 1;                                                                             \
    }                                                                                         \
                                                                                              \
    static int stacked_run_##SUF(xlacrt_pool *p, const shifted_job_##SUF *j)                  \
    {                                                                                         \
        const xlacrt_conv *d = j->d;                                                          \
        int64_t N = d->batch, O = d->out_feat, P = j->g.positions;                            \
        rt_packed_b_info bi;                                                                  \
        rt_gemm_packed_b_info(j->w, IS_F64, &bi);                                             \
        /* on several threads, positions at least as tall as a register tile                   \
           go one per chunk as before: the single GEMM would pack A again for                  \
           every column block it splits the output into */                                    \
        if (P > STACKED_MAX_POSITIONS || (xlacrt_pool_size(p) > 1 && N >= bi.mr))             \
            return 0;                                                                         \
        int64_t s[STACKED_MAX_POSITIONS], obase[STACKED_MAX_POSITIONS];                       \
        int uniform = stacked_positions(d, &j->g, s, obase);                                  \
        stacked_ctx_##SUF c = {j->f, N, s};                                                   \
        if (uniform) {                                                                        \
            rt_gemm_packed_cb(p, IS_F64, P * N, stacked_pack_##SUF, &c, j->w, j->out, d->out_sn, 0); \
            return 1;                                                                         \
        }                                                                                     \
        T *cm = xlacrt_scratch_get(XLACRT_SCRATCH_CONV_OUT, sizeof(T) * (size_t)(P * N * O),  \
                                   "convolution");                                            \
        if (!cm)                                                                              \
            return 1; /* recorded in the run's status, which fails it */                      \
        rt_gemm_packed_cb(p, IS_F64, P * N, stacked_pack_##SUF, &c, j->w, cm, O, 0);          \
        stacked_scatter_##SUF(d, P, N, cm, obase, j->out);                                    \
        xlacrt_scratch_put(XLACRT_SCRATCH_CONV_OUT, cm);                                      \
        return 1;                                                                             \
    }                                                                                         \
                                                                                              \
    static void shifted_run_##SUF(xlacrt_pool *p, const xlacrt_conv *d, const T *in, const void *w, \
                                  T *out)                                                     \
    {                                                                                         \
        shifted_job_##SUF j = {.d = d, .w = w, .out = out};                                   \
        shift_geometry(d, &j.g);                                                              \
        if (paneled_run_##SUF(p, d, &j.g, in, w, out))                                        \
            return;                                                                           \
        int64_t N = d->batch, rows = j.g.k + j.g.tail;                                        \
        T *f = xlacrt_scratch_get(XLACRT_SCRATCH_CONV_COLS, sizeof(T) * (size_t)(rows * N),   \
                                  "convolution");                                             \
        if (!f)                                                                               \
            return;                                                                           \
        memset(f, 0, sizeof(T) * (size_t)(rows * N));                                         \
        frame_fill_##SUF(d, &j.g, in, f, rows, 0);                                            \
        j.f = f;                                                                              \
        if (!stacked_run_##SUF(p, &j))                                                        \
            xlacrt_parallel_for(p, j.g.positions, shifted_task_##SUF, &j);                    \
        xlacrt_scratch_put(XLACRT_SCRATCH_CONV_COLS, f);                                      \
    }

DEFINE_SHIFTED(float, f32, 0, xlacrt_sgemm_pack_b, xlacrt_sgemm_packed)
DEFINE_SHIFTED(double, f64, 1, xlacrt_dgemm_pack_b, xlacrt_dgemm_packed)

#define DEFINE_CONV(T, SUF, IS_F64, GEMM, PACK_B, GEMM_PACKED)                                \
    void xlacrt_conv_pack_##SUF(const xlacrt_conv *d, const T *kernel, T *w)                  \
    {                                                                                         \
        int64_t ks = window_size(d), G = total_groups(d), ci_n = d->in_feat / d->groups;      \
        int64_t og_n = d->out_feat / G, kk = ks * ci_n;                                       \
        int64_t kpos[XLACRT_CONV_MAX_SPATIAL] = {0};                                          \
        T *plain = w;                                                                         \
        if (xlacrt_conv_shifted(d)) {                                                         \
            shifted_pack_##SUF(d, kernel, w);                                                 \
            return;                                                                           \
        }                                                                                     \
        if (wino_pack_##SUF(d, kernel, w))                                                    \
            return;                                                                           \
        if (conv_gemm_packed(d)) {                                                            \
            /* the [window * in_feat, out_feat] matrix first, then packed */                  \
            plain = xlacrt_scratch_get(XLACRT_SCRATCH_CONV_COLS,                              \
                                       sizeof(T) * (size_t)(kk * og_n > 0 ? kk * og_n : 1),   \
                                       "convolution");                                        \
            if (!plain)                                                                       \
                return; /* recorded in the run's status, which fails it */                    \
        }                                                                                     \
        for (int64_t p = 0; p < ks; p++) {                                                    \
            /* kernel offset of window position p, reversed where asked */                    \
            int64_t off = 0, rem = p;                                                         \
            for (int64_t i = d->nsp - 1; i >= 0; i--) {                                       \
                kpos[i] = rem % d->k_dim[i];                                                  \
                rem /= d->k_dim[i];                                                           \
            }                                                                                 \
            for (int64_t i = 0; i < d->nsp; i++) {                                            \
                int64_t kp = d->reverse[i] ? d->k_dim[i] - 1 - kpos[i] : kpos[i];             \
                off += kp * d->k_ss[i];                                                       \
            }                                                                                 \
            if (conv_depthwise(d)) {                                                          \
                /* [window position][output feature] */                                      \
                for (int64_t o = 0; o < d->out_feat; o++)                                     \
                    w[p * d->out_feat + o] = kernel[off + o * d->k_so];                       \
                continue;                                                                     \
            }                                                                                 \
            for (int64_t g = 0; g < G; g++)                                                   \
                for (int64_t ci = 0; ci < ci_n; ci++) {                                       \
                    T *dst = plain + (g * kk + p * ci_n + ci) * og_n;                         \
                    const T *src = kernel + off + ci * d->k_si;                               \
                    for (int64_t o = 0; o < og_n; o++)                                        \
                        dst[o] = src[(g * og_n + o) * d->k_so];                               \
                }                                                                             \
        }                                                                                     \
        if (conv_implicit(d) || implicit_kc(d) > 0) {                                         \
            rt_gemm_pack_b_kc(IS_F64, implicit_kc(d), og_n, kk, plain, og_n, w);                 \
            xlacrt_scratch_put(XLACRT_SCRATCH_CONV_COLS, plain);                              \
        } else if (conv_gemm_packed(d)) {                                                     \
            PACK_B(NULL, 0, og_n, kk, plain, og_n, w);                                        \
            xlacrt_scratch_put(XLACRT_SCRATCH_CONV_COLS, plain);                              \
        }                                                                                     \
    }                                                                                         \
                                                                                              \
    /* gp: the pool the GEMMs may split over (NULL: serial) */                               \
    static void conv_rows_in_##SUF(xlacrt_pool *gp, const xlacrt_conv *d, const T *in, const T *w, \
                                   T *out, int64_t r0, int64_t r1)                            \
    {                                                                                         \
        if (r1 > d->rows)                                                                     \
            r1 = d->rows;                                                                     \
        if (r0 >= r1)                                                                         \
            return;                                                                           \
        if (wino_try_##SUF(gp, d, in, w, out, r0, r1))                                        \
            return;                                                                           \
        if (conv_depthwise(d)) {                                                              \
            depthwise_rows_##SUF(d, in, w, out, r0, r1);                                      \
            return;                                                                           \
        }                                                                                     \
        int packed = conv_gemm_packed(d);                                                     \
        if (conv_pointwise(d)) {                                                              \
            GEMM_PACKED(gp, 0, r1 - r0, in + r0 * d->in_feat, d->in_feat, w, out + r0 * d->out_feat, \
                        d->out_feat, 0);                                                      \
            return;                                                                           \
        }                                                                                     \
        int64_t nr = r1 - r0, ks = window_size(d), G = total_groups(d);                       \
        int64_t ci_n = d->in_feat / d->groups, bgrouped = d->batch_groups > 1;                \
        int64_t og_n = d->out_feat / G, kk = ks * ci_n, O = d->out_feat;                      \
        int direct = d->out_rowmajor != 0, implicit = conv_implicit(d);                       \
        if (!implicit && packed) {                                                            \
            /* few input features, read in place by the direct tiles */                      \
            rt_packed_b_info bi;                                                              \
            rt_gemm_packed_b_info(w, IS_F64, &bi);                                            \
            implicit = conv_direct_ok(d, bi.avx512, bi.kc);                                   \
        }                                                                                     \
        /* runs: the last spatial dimension undilated, with the group's features dense   */  \
        /* and innermost, so the window's positions along it are contiguous input */          \
        int64_t last = d->nsp - 1;                                                            \
        int runs = d->nsp > 0 && d->in_sc == 1 && d->in_ss[last] == ci_n &&                   \
                   d->rhs_dil[last] == 1 && d->lhs_dil[last] == 1 && !bgrouped;               \
        T *p = implicit ? NULL                                                                \
                        : xlacrt_scratch_get(XLACRT_SCRATCH_CONV_COLS,                        \
                                             sizeof(T) * (size_t)(nr * kk > 0 ? nr * kk : 1), \
                                             "convolution");                                  \
        T *scratch = direct ? NULL                                                            \
                            : xlacrt_scratch_get(XLACRT_SCRATCH_CONV_OUT,                     \
                                                 sizeof(T) * (size_t)(nr * og_n > 0 ? nr * og_n : 1), \
                                                 "convolution");                              \
        if ((!implicit && !p) || (!direct && !scratch)) {                                     \
            /* out of memory: recorded in the run's status, which fails it */                 \
            xlacrt_scratch_put(XLACRT_SCRATCH_CONV_COLS, p);                                  \
            xlacrt_scratch_put(XLACRT_SCRATCH_CONV_OUT, scratch);                             \
            return;                                                                           \
        }                                                                                     \
        for (int64_t g = 0; g < G; g++) {                                                     \
            /* im2col for the rows of this block and the features of group g */               \
            /* (none for the implicit GEMM, which packs from the input) */                    \
            int64_t n, y[XLACRT_CONV_MAX_SPATIAL];                                            \
            row_coords(d, r0, &n, y);                                                         \
            for (int64_t r = 0; r < (implicit ? 0 : nr); r++) {                               \
                int64_t kpos[XLACRT_CONV_MAX_SPATIAL] = {0};                                  \
                if (r > 0)                                                                    \
                    next_coords(d, &n, y);                                                    \
                T *prow = p + r * kk;                                                         \
                const T *ibase = bgrouped ? in + (g * d->batch + n) * d->in_sn                \
                                          : in + n * d->in_sn + g * ci_n * d->in_sc;          \
                if (runs) {                                                                   \
                    /* the window's rows along the last dimension are runs of       */        \
                    /* contiguous input: one copy each, zeros where it leaves the input */    \
                    int64_t K = d->k_dim[last], x0 = y[last] * d->stride[last] - d->pad_lo[last]; \
                    int64_t lo = x0 < 0 ? -x0 : 0, hi = d->in_dim[last] - x0;                 \
                    lo = lo < K ? lo : K;                                                     \
                    hi = hi < K ? hi : K;                                                     \
                    hi = hi > lo ? hi : lo;                                                   \
                    for (int64_t qo = 0; qo < ks / K; qo++) {                                 \
                        int64_t off;                                                          \
                        int ok = window_offset(d, y, kpos, last, &off);                       \
                        T *dst = prow + qo * K * ci_n;                                        \
                        if (!ok) {                                                            \
                            for (int64_t c = 0; c < K * ci_n; c++)                            \
                                dst[c] = 0;                                                   \
                        } else {                                                              \
                            const T *src = ibase + off + (x0 + lo) * ci_n;                    \
                            for (int64_t c = 0; c < lo * ci_n; c++)                           \
                                dst[c] = 0;                                                   \
                            for (int64_t c = 0; c < (hi - lo) * ci_n; c++)                    \
                                dst[lo * ci_n + c] = src[c];                                  \
                            for (int64_t c = hi * ci_n; c < K * ci_n; c++)                    \
                                dst[c] = 0;                                                   \
                        }                                                                     \
                        next_window(d, kpos, last);                                           \
                    }                                                                         \
                    continue;                                                                 \
                }                                                                             \
                for (int64_t q = 0; q < ks; q++) {                                            \
                    int64_t off;                                                              \
                    int ok = window_offset(d, y, kpos, d->nsp, &off);                         \
                    T *dst = prow + q * ci_n;                                                 \
                    if (!ok) {                                                                \
                        memset(dst, 0, sizeof(T) * (size_t)ci_n);                             \
                    } else if (d->in_sc == 1) {                                               \
                        memcpy(dst, ibase + off, sizeof(T) * (size_t)ci_n);                   \
                    } else {                                                                  \
                        for (int64_t c = 0; c < ci_n; c++)                                    \
                            dst[c] = ibase[off + c * d->in_sc];                               \
                    }                                                                         \
                    next_window(d, kpos, d->nsp);                                             \
                }                                                                             \
            }                                                                                 \
            const T *wg = w + g * kk * og_n;                                                  \
            T *cdst = direct ? out + r0 * O + g * og_n : scratch;                              \
            int64_t ldc = direct ? O : og_n;                                                  \
            if (implicit) {                                                                   \
                rt_packed_b_info bi;                                                          \
                rt_gemm_packed_b_info(w, IS_F64, &bi);                                        \
                if (conv_direct_ok(d, bi.avx512, bi.kc)) {                                    \
                    DIRECT_ROWS(SUF, gp, d, in, w, cdst, ldc, r0, r1);                        \
                } else {                                                                      \
                    implicit_ctx ic = {d, in, r0};                                            \
                    rt_gemm_packed_cb(gp, IS_F64, nr, implicit_pack_##SUF, &ic, w, cdst, ldc, 0); \
                }                                                                             \
            } else if (packed)                                                                \
                GEMM_PACKED(gp, 0, nr, p, kk, w, cdst, ldc, 0);                               \
            else                                                                              \
                GEMM(gp, 0, 0, nr, og_n, kk, p, kk, wg, og_n, cdst, ldc, 0);                  \
            if (direct)                                                                       \
                continue;                                                                     \
            row_coords(d, r0, &n, y);                                                         \
            for (int64_t r = 0; r < nr; r++) {                                                \
                if (r > 0)                                                                    \
                    next_coords(d, &n, y);                                                    \
                int64_t base = n * d->out_sn + g * og_n * d->out_so;                          \
                for (int64_t i = 0; i < d->nsp; i++)                                          \
                    base += y[i] * d->out_ss[i];                                              \
                for (int64_t o = 0; o < og_n; o++)                                            \
                    out[base + o * d->out_so] = scratch[r * og_n + o];                        \
            }                                                                                 \
        }                                                                                     \
        xlacrt_scratch_put(XLACRT_SCRATCH_CONV_COLS, p);                                      \
        xlacrt_scratch_put(XLACRT_SCRATCH_CONV_OUT, scratch);                                 \
    }                                                                                         \
                                                                                              \
    void xlacrt_conv_rows_##SUF(const xlacrt_conv *d, const T *in, const T *w, T *out,        \
                                int64_t r0, int64_t r1)                                       \
    {                                                                                         \
        conv_rows_in_##SUF(NULL, d, in, w, out, r0, r1);                                      \
    }

DEFINE_CONV(float, f32, 0, xlacrt_sgemm, xlacrt_sgemm_pack_b, xlacrt_sgemm_packed)
DEFINE_CONV(double, f64, 1, xlacrt_dgemm, xlacrt_dgemm_pack_b, xlacrt_dgemm_packed)

typedef struct {
    const xlacrt_conv *d;
    const void *in, *w;
    void *out;
    int64_t block;
    int f64;
} conv_job;

static void conv_task(int64_t chunk, void *ctx)
{
    conv_job *j = ctx;
    int64_t r0 = chunk * j->block, r1 = r0 + j->block;
    if (j->f64)
        xlacrt_conv_rows_f64(j->d, j->in, j->w, j->out, r0, r1);
    else
        xlacrt_conv_rows_f32(j->d, j->in, j->w, j->out, r0, r1);
}

void xlacrt_conv_run(xlacrt_pool *p, const xlacrt_conv *d, int f64, const void *in,
                     const void *w, void *out, int64_t block)
{
    if (d->rows <= 0 || block <= 0)
        return;
    if (xlacrt_conv_shifted(d)) {
        if (f64)
            shifted_run_f64(p, d, in, w, out);
        else
            shifted_run_f32(p, d, in, w, out);
        return;
    }
    if (block >= d->rows) {
        /* one block: its GEMM is what the threads share (split by the
           shape only, so the bits do not depend on the thread count) */
        if (f64)
            conv_rows_in_f64(p, d, in, w, out, 0, d->rows);
        else
            conv_rows_in_f32(p, d, in, w, out, 0, d->rows);
        return;
    }
    conv_job j = {d, in, w, out, block, f64};
    xlacrt_parallel_for(p, (d->rows + block - 1) / block, conv_task, &j);
}
