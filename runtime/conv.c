/*
 * conv.c - the runtime's convolution: im2col plus GEMM, a block of output
 * rows at a time.
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
 * Three shapes skip im2col.  A window covering nearly the whole input (a
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

#include <stdlib.h>
#include <string.h>

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
   the widest vectors the machine has (mul then add, never fused, so every
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
    return packed > plain ? packed : plain;
}

#define DEFINE_SHIFTED(T, SUF, PACK_B, GEMM_PACKED)                                          \
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
        int64_t N = d->batch, O = d->out_feat, s = 0, obase = 0, rem = pos;                   \
        for (int64_t i = d->nsp - 1; i >= 0; i--) {                                           \
            int64_t y = rem % d->out_dim[i];                                                  \
            rem /= d->out_dim[i];                                                             \
            s += y * d->stride[i] * j->g.pitch[i];                                            \
            obase += y * d->out_ss[i];                                                        \
        }                                                                                     \
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
    static void shifted_run_##SUF(xlacrt_pool *p, const xlacrt_conv *d, const T *in, const void *w, \
                                  T *out)                                                     \
    {                                                                                         \
        shifted_job_##SUF j = {.d = d, .w = w, .out = out};                                   \
        shift_geometry(d, &j.g);                                                              \
        int64_t N = d->batch, rows = j.g.k + j.g.tail;                                        \
        T *f = xlacrt_scratch_get(XLACRT_SCRATCH_CONV_COLS, sizeof(T) * (size_t)(rows * N),   \
                                  "convolution");                                             \
        if (!f)                                                                               \
            return;                                                                           \
        memset(f, 0, sizeof(T) * (size_t)(rows * N));                                         \
        /* F[f][x][n], frame position x at input coordinates x - pad_lo */                    \
        int64_t last = d->nsp - 1, L = j.g.frame[last];                                       \
        for (int64_t fr = 0; fr < d->in_feat * (j.g.volume / L); fr++) {                      \
            int64_t feat = fr / (j.g.volume / L), rem = fr % (j.g.volume / L), off = 0, ok = 1; \
            for (int64_t i = last - 1; i >= 0; i--) {                                         \
                int64_t x = rem % j.g.frame[i] - d->pad_lo[i];                                \
                rem /= j.g.frame[i];                                                          \
                ok &= x >= 0 && x < d->in_dim[i];                                             \
                off += x * d->in_ss[i];                                                       \
            }                                                                                 \
            if (!ok)                                                                          \
                continue;                                                                     \
            const T *src = in + feat * d->in_sc + off;                                        \
            T *dst = f + fr * L * N;                                                          \
            int64_t lo = d->pad_lo[last] > 0 ? d->pad_lo[last] : 0;                           \
            int64_t hi = d->in_dim[last] + d->pad_lo[last] < L ? d->in_dim[last] + d->pad_lo[last] : L; \
            for (int64_t x = lo; x < hi; x++) {                                               \
                const T *sp = src + (x - d->pad_lo[last]) * d->in_ss[last];                   \
                if (d->in_sn == 1)                                                            \
                    memcpy(dst + x * N, sp, sizeof(T) * (size_t)N);                           \
                else                                                                          \
                    for (int64_t n = 0; n < N; n++)                                           \
                        dst[x * N + n] = sp[n * d->in_sn];                                    \
            }                                                                                 \
        }                                                                                     \
        j.f = f;                                                                              \
        xlacrt_parallel_for(p, j.g.positions, shifted_task_##SUF, &j);                        \
        xlacrt_scratch_put(XLACRT_SCRATCH_CONV_COLS, f);                                      \
    }

DEFINE_SHIFTED(float, f32, xlacrt_sgemm_pack_b, xlacrt_sgemm_packed)
DEFINE_SHIFTED(double, f64, xlacrt_dgemm_pack_b, xlacrt_dgemm_packed)

#define DEFINE_CONV(T, SUF, GEMM, PACK_B, GEMM_PACKED)                                        \
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
        if (conv_gemm_packed(d)) {                                                            \
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
        int direct = d->out_rowmajor != 0;                                                    \
        /* runs: the last spatial dimension undilated, with the group's features dense   */  \
        /* and innermost, so the window's positions along it are contiguous input */          \
        int64_t last = d->nsp - 1;                                                            \
        int runs = d->nsp > 0 && d->in_sc == 1 && d->in_ss[last] == ci_n &&                   \
                   d->rhs_dil[last] == 1 && d->lhs_dil[last] == 1 && !bgrouped;               \
        T *p = xlacrt_scratch_get(XLACRT_SCRATCH_CONV_COLS,                                   \
                                  sizeof(T) * (size_t)(nr * kk > 0 ? nr * kk : 1), "convolution"); \
        T *scratch = direct ? NULL                                                            \
                            : xlacrt_scratch_get(XLACRT_SCRATCH_CONV_OUT,                     \
                                                 sizeof(T) * (size_t)(nr * og_n > 0 ? nr * og_n : 1), \
                                                 "convolution");                              \
        if (!p || (!direct && !scratch)) {                                                    \
            /* out of memory: recorded in the run's status, which fails it */                 \
            xlacrt_scratch_put(XLACRT_SCRATCH_CONV_COLS, p);                                  \
            xlacrt_scratch_put(XLACRT_SCRATCH_CONV_OUT, scratch);                             \
            return;                                                                           \
        }                                                                                     \
        for (int64_t g = 0; g < G; g++) {                                                     \
            /* im2col for the rows of this block and the features of group g */               \
            int64_t n, y[XLACRT_CONV_MAX_SPATIAL];                                            \
            row_coords(d, r0, &n, y);                                                         \
            for (int64_t r = 0; r < nr; r++) {                                                \
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
            if (packed)                                                                       \
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

DEFINE_CONV(float, f32, xlacrt_sgemm, xlacrt_sgemm_pack_b, xlacrt_sgemm_packed)
DEFINE_CONV(double, f64, xlacrt_dgemm, xlacrt_dgemm_pack_b, xlacrt_dgemm_packed)

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
