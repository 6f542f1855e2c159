/* test_runtime_conv.c - the runtime's convolution (conv.c) against a naive
 * loop in double.
 *
 * Shapes cover the paths conv.c picks between: NHWC inputs with HWIO
 * kernels go through the implicit GEMM (the kernel family's A panels packed
 * from the input windows; on AVX-512, with enough input features, the
 * direct tiles that read the windows in place, by window rows when the
 * input has fewer than 16 features), inputs whose features are not
 * innermost, or that have few features off AVX-512, through im2col; outputs with
 * rows contiguous and not; 3x3 windows at unit stride through Winograd's
 * F(2x2, 3x3) (test_winograd, below).  Padding (asymmetric and negative),
 * strides, dilations, reversal, batch 1, 1-D to 3-D, feature counts that
 * are not multiples of the vector width, f32 and f64, with every kernel
 * family this CPU supports.  Results must not depend on the pool or on
 * how the rows are cut into blocks: every run is compared bit for bit with
 * the serial one-block run. */
#include "test_util.h"
#include "xlacrt.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int nsp, batch, cin, cout;
    int in[3], k[3], stride[3], lo[3], hi[3], ldil[3], rdil[3], rev[3];
    int nchw;     /* features before the spatial dimensions in the input */
    int out_nchw; /* and in the output */
} shape;

/* The descriptor of s: input NHWC (or NCHW), kernel HWIO, output NHWC. */
static int describe(const shape *s, xlacrt_conv *d)
{
    memset(d, 0, sizeof *d);
    d->nsp = s->nsp;
    d->batch = s->batch;
    d->in_feat = s->cin;
    d->out_feat = s->cout;
    d->groups = 1;
    d->batch_groups = 1;
    d->out_rowmajor = 1;
    int64_t rows = s->batch, in_sz = s->cin, k_sz = (int64_t)s->cin * s->cout, out_sz = s->cout;
    for (int i = 0; i < s->nsp; i++) {
        int64_t ext = (int64_t)(s->in[i] - 1) * s->ldil[i] + 1 + s->lo[i] + s->hi[i];
        int64_t win = (int64_t)(s->k[i] - 1) * s->rdil[i] + 1;
        if (ext < win)
            return 0;
        d->out_dim[i] = (ext - win) / s->stride[i] + 1;
        d->in_dim[i] = s->in[i];
        d->k_dim[i] = s->k[i];
        d->stride[i] = s->stride[i];
        d->pad_lo[i] = s->lo[i];
        d->lhs_dil[i] = s->ldil[i];
        d->rhs_dil[i] = s->rdil[i];
        d->reverse[i] = s->rev[i];
        rows *= d->out_dim[i];
    }
    d->rows = rows;
    /* strides, innermost last */
    int64_t st = s->nchw ? 1 : s->cin;
    for (int i = s->nsp - 1; i >= 0; i--) {
        d->in_ss[i] = st;
        st *= s->in[i];
    }
    if (s->nchw) {
        d->in_sc = st;
        st *= s->cin;
    } else {
        d->in_sc = 1;
    }
    d->in_sn = st;
    for (int i = 0; i < s->nsp; i++)
        in_sz *= s->in[i];
    st = k_sz;
    for (int i = s->nsp - 1; i >= 0; i--) {
        d->k_ss[i] = st;
        st *= s->k[i];
    }
    d->k_si = s->cout;
    d->k_so = 1;
    st = s->out_nchw ? 1 : s->cout;
    for (int i = s->nsp - 1; i >= 0; i--) {
        d->out_ss[i] = st;
        st *= d->out_dim[i];
        out_sz *= d->out_dim[i];
    }
    if (s->out_nchw) {
        d->out_so = st;
        st *= s->cout;
        d->out_rowmajor = 0;
    } else {
        d->out_so = 1;
    }
    d->out_sn = st;
    (void)in_sz;
    return 1;
}

static int64_t elems_in(const shape *s)
{
    int64_t n = (int64_t)s->batch * s->cin;
    for (int i = 0; i < s->nsp; i++)
        n *= s->in[i];
    return n;
}

static int64_t elems_k(const shape *s)
{
    int64_t n = (int64_t)s->cin * s->cout;
    for (int i = 0; i < s->nsp; i++)
        n *= s->k[i];
    return n;
}

/* out[row][o] in double, straight from the definition. */
static void reference(const xlacrt_conv *d, const double *in, const double *k, double *out)
{
    for (int64_t r = 0; r < d->rows; r++) {
        int64_t y[3] = {0}, rem = r;
        for (int i = (int)d->nsp - 1; i >= 0; i--) {
            y[i] = rem % d->out_dim[i];
            rem /= d->out_dim[i];
        }
        int64_t n = rem, ks = 1;
        for (int i = 0; i < d->nsp; i++)
            ks *= d->k_dim[i];
        for (int64_t o = 0; o < d->out_feat; o++) {
            double acc = 0;
            for (int64_t q = 0; q < ks; q++) {
                int64_t kp[3] = {0}, qr = q, off = n * d->in_sn, koff = o * d->k_so, ok = 1;
                for (int i = (int)d->nsp - 1; i >= 0; i--) {
                    kp[i] = qr % d->k_dim[i];
                    qr /= d->k_dim[i];
                }
                for (int i = 0; i < d->nsp; i++) {
                    int64_t x = y[i] * d->stride[i] + kp[i] * d->rhs_dil[i] - d->pad_lo[i];
                    if (x < 0 || x % d->lhs_dil[i]) {
                        ok = 0;
                        break;
                    }
                    x /= d->lhs_dil[i];
                    if (x >= d->in_dim[i]) {
                        ok = 0;
                        break;
                    }
                    off += x * d->in_ss[i];
                    koff += (d->reverse[i] ? d->k_dim[i] - 1 - kp[i] : kp[i]) * d->k_ss[i];
                }
                if (!ok)
                    continue;
                for (int64_t c = 0; c < d->in_feat; c++)
                    acc += in[off + c * d->in_sc] * k[koff + c * d->k_si];
            }
            out[r * d->out_feat + o] = acc;
        }
    }
}

/* Runs the convolution of s in the element type f64 with the pool and block
   given; the result as doubles in got. */
static void run_conv(const xlacrt_conv *d, int f64, const double *in, const double *k, int64_t nin,
                     int64_t nk, xlacrt_pool *pool, int64_t block, double *got)
{
    size_t es = f64 ? sizeof(double) : sizeof(float);
    void *vin = malloc((size_t)nin * es), *vk = malloc((size_t)nk * es);
    void *out = malloc((size_t)(d->rows * d->out_feat) * es + 64);
    size_t wb = xlacrt_conv_packed_bytes(d, f64);
    void *w = aligned_alloc(64, (wb + 63) / 64 * 64);
    for (int64_t i = 0; i < nin; i++) {
        if (f64)
            ((double *)vin)[i] = in[i];
        else
            ((float *)vin)[i] = (float)in[i];
    }
    for (int64_t i = 0; i < nk; i++) {
        if (f64)
            ((double *)vk)[i] = k[i];
        else
            ((float *)vk)[i] = (float)k[i];
    }
    if (f64)
        xlacrt_conv_pack_f64(d, vk, w);
    else
        xlacrt_conv_pack_f32(d, vk, w);
    xlacrt_conv_run(pool, d, f64, vin, w, out, block);
    /* into [row][feature] order */
    for (int64_t r = 0; r < d->rows; r++) {
        int64_t rem = r, base = 0;
        for (int i = (int)d->nsp - 1; i >= 0; i--) {
            base += rem % d->out_dim[i] * d->out_ss[i];
            rem /= d->out_dim[i];
        }
        base += rem * d->out_sn;
        for (int64_t o = 0; o < d->out_feat; o++) {
            int64_t at = base + o * d->out_so;
            got[r * d->out_feat + o] = f64 ? ((double *)out)[at] : ((float *)out)[at];
        }
    }
    free(vin);
    free(vk);
    free(out);
    free(w);
}

static void test_shape(const char *isa, const shape *s, int f64, xlacrt_pool *pool)
{
    xlacrt_conv d;
    if (!describe(s, &d)) {
        CHECK(0);
        return;
    }
    int64_t nin = elems_in(s), nk = elems_k(s), nout = d.rows * d.out_feat;
    double *in = malloc(sizeof(double) * (size_t)nin), *k = malloc(sizeof(double) * (size_t)nk);
    double *want = malloc(sizeof(double) * (size_t)nout), *got = malloc(sizeof(double) * (size_t)nout);
    double *again = malloc(sizeof(double) * (size_t)nout);
    uint32_t x = 12345u + (uint32_t)(s->cin * 7 + s->cout);
    for (int64_t i = 0; i < nin; i++) {
        x = x * 1664525u + 1013904223u;
        in[i] = (double)((int)(x >> 24) - 128) / 64.0;
    }
    for (int64_t i = 0; i < nk; i++) {
        x = x * 1664525u + 1013904223u;
        k[i] = (double)((int)(x >> 24) - 128) / 128.0;
    }
    reference(&d, in, k, want);
    run_conv(&d, f64, in, k, nin, nk, NULL, d.rows, got);
    double tol = f64 ? 1e-12 : 1e-4;
    int64_t bad = 0;
    for (int64_t i = 0; i < nout; i++) {
        double scale = fabs(want[i]) > 1 ? fabs(want[i]) : 1;
        if (!(fabs(got[i] - want[i]) <= tol * scale * sqrt((double)(nk / s->cout))))
            bad++;
    }
    if (bad)
        fprintf(stderr, "%s %s nsp=%d batch=%d cin=%d cout=%d: %lld of %lld wrong\n", isa,
                f64 ? "f64" : "f32", s->nsp, s->batch, s->cin, s->cout, (long long)bad,
                (long long)nout);
    CHECK_EQ_I(bad, 0);
    /* blocks of rows, serial and on the pool: the same bits */
    const int64_t blocks[] = {1, 7, 12, 96, 1000};
    for (int b = 0; b < 5; b++) {
        for (int p = 0; p < 2; p++) {
            run_conv(&d, f64, in, k, nin, nk, p ? pool : NULL, blocks[b], again);
            int64_t diff = 0;
            for (int64_t i = 0; i < nout; i++)
                diff += memcmp(&again[i], &got[i], sizeof(double)) != 0;
            if (diff)
                fprintf(stderr, "%s block %lld pool %d: %lld differ\n", isa, (long long)blocks[b], p,
                        (long long)diff);
            CHECK_EQ_I(diff, 0);
        }
    }
    free(in);
    free(k);
    free(want);
    free(got);
    free(again);
}

static const shape shapes[] = {
    /* nsp batch cin cout  in  k  stride  pad lo  pad hi  lhs dil  rhs dil  reverse  nchw in  nchw out */
    {2, 2, 64, 64, {9, 9}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {0, 0}, 0, 0},
    {2, 1, 20, 40, {7, 5}, {3, 3}, {1, 1}, {2, 1}, {0, 3}, {1, 1}, {1, 1}, {0, 0}, 0, 0},
    {2, 3, 17, 33, {11, 8}, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {0, 0}, 0, 0},
    {2, 1, 16, 48, {10, 10}, {3, 3}, {1, 1}, {2, 2}, {2, 2}, {1, 1}, {2, 2}, {0, 0}, 0, 0},
    {2, 2, 32, 10, {6, 9}, {2, 4}, {1, 1}, {-1, 2}, {1, -1}, {1, 1}, {1, 1}, {1, 0}, 0, 0},
    {2, 2, 3, 32, {12, 12}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {0, 0}, 0, 0},
    {2, 1, 16, 24, {4, 5}, {3, 3}, {1, 1}, {2, 2}, {2, 2}, {2, 2}, {1, 1}, {0, 0}, 0, 0},
    {2, 1, 16, 16, {12, 12}, {9, 9}, {1, 1}, {4, 4}, {4, 4}, {1, 1}, {1, 1}, {0, 0}, 0, 0},
    {2, 2, 24, 20, {7, 7}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {0, 0}, 1, 0},
    {1, 3, 32, 70, {29}, {5}, {1}, {2}, {2}, {1}, {1}, {0}, 0, 0},
    {3, 1, 16, 8, {5, 4, 6}, {3, 2, 3}, {1, 1, 2}, {1, 0, 1}, {1, 1, 0}, {1, 1, 1}, {1, 1, 1}, {0, 1, 0}, 0, 0},
    {2, 1, 40, 36, {5, 5}, {1, 1}, {1, 1}, {1, 0}, {0, 1}, {1, 1}, {1, 1}, {0, 0}, 0, 0},
    {2, 2, 32, 40, {6, 7}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {0, 0}, 0, 1},
    /* few input features: on AVX-512 the direct tiles read whole window rows */
    {2, 1, 3, 40, {15, 13}, {7, 7}, {2, 2}, {3, 3}, {2, 4}, {1, 1}, {1, 1}, {0, 1}, 0, 0},
    {2, 2, 4, 17, {9, 10}, {3, 5}, {1, 2}, {-1, 2}, {1, -1}, {1, 1}, {2, 1}, {1, 0}, 0, 0},
    {1, 2, 2, 33, {20}, {5}, {1}, {3}, {1}, {1}, {1}, {0}, 0, 0},
    {1, 1, 3, 16, {8}, {3}, {1}, {4}, {4}, {1}, {1}, {0}, 0, 0},
    {3, 1, 2, 8, {4, 5, 6}, {2, 3, 3}, {1, 1, 1}, {1, 1, 1}, {0, 1, 1}, {1, 1, 1}, {1, 1, 1}, {0, 0, 0}, 0, 0},
    {2, 1, 3, 24, {8, 8}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {0, 0}, 0, 1},
    {2, 1, 1, 32, {9, 9}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {0, 0}, 0, 0},
    /* lines long enough for whole tiles of rows inside the input (the
       direct tiles' pointers by steps), with tiles at the padding and
       across lines beside them: RGB 3x3, RGB 7x7 stride 2, and window
       positions of 16 features, dilated along the last dimension */
    {2, 2, 3, 32, {6, 40}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {0, 0}, 0, 0},
    {2, 1, 3, 20, {9, 60}, {7, 7}, {2, 2}, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {0, 0}, 0, 0},
    {2, 1, 16, 24, {5, 41}, {3, 3}, {1, 1}, {2, 2}, {2, 2}, {1, 1}, {1, 2}, {0, 0}, 0, 0},
};


/* ---- Winograd F(2x2, 3x3) ----
 * 3x3 windows at unit stride with at least 16 features each way are packed
 * for Winograd (xlacrt_conv_winograd).  Each shape is run both ways
 * (XLAC_WINOGRAD=0 packs for the direct path) and checked against the
 * definition in double: the error of an output must stay within
 * WINO_TOL_ULPS units in the last place (FLT_EPSILON) of the sum of the
 * magnitudes of its products, as the direct sums do; at least one output
 * must differ from the direct path's (so the Winograd path did run).
 * Rows asked for in arbitrary ranges (cutting stripes of 2 rows and
 * images), blocks of any size and pools of 1 to 3 threads must give the
 * bits of the one-call run. */
enum { WINO_TOL_ULPS = 8 };

typedef struct {
    int batch, cin, cout, h, w, lo0, hi0, lo1, hi1, rev0, rev1;
} wino_shape;

static const wino_shape wino_shapes[] = {
    /* batch cin cout  h   w  pad lo/hi (dim 0)  pad lo/hi (dim 1)  reverse */
    {1, 16, 16, 8, 8, 1, 1, 1, 1, 0, 0},     /* even output */
    {2, 20, 40, 7, 5, 2, 0, 1, 3, 0, 0},     /* odd, asymmetric */
    {3, 17, 33, 9, 6, 0, 0, 0, 0, 0, 0},     /* padding 0: 7 x 4 */
    {1, 32, 24, 10, 11, 2, 2, 2, 2, 0, 0},   /* padding 2: 12 x 13 */
    {2, 64, 64, 9, 9, 1, 1, 1, 1, 0, 0},
    {1, 48, 70, 6, 13, 0, 1, 1, 0, 1, 0},    /* asymmetric, reversed rows */
    {2, 16, 17, 5, 5, -1, 1, 1, -1, 0, 1},   /* negative padding */
    {4, 24, 48, 3, 3, 1, 1, 1, 1, 0, 0},     /* 3 x 3: one and a half tiles */
    {1, 35, 19, 1, 14, 1, 1, 1, 1, 0, 0},    /* a single output row */
    {2, 96, 130, 14, 14, 1, 1, 1, 1, 0, 0},  /* more tiles than one block */
    {1, 300, 20, 5, 6, 1, 1, 1, 1, 0, 1},    /* two k blocks of the AVX2 and C packing */
};

/* out and the sums of the products' magnitudes, in double */
static void wino_reference(const xlacrt_conv *d, const double *in, const double *k, double *out, double *mag)
{
    reference(d, in, k, out);
    int64_t nin = d->in_sn * d->batch, nk = 9 * d->in_feat * d->out_feat;
    double *ain = malloc(sizeof(double) * (size_t)nin), *ak = malloc(sizeof(double) * (size_t)nk);
    for (int64_t i = 0; i < nin; i++)
        ain[i] = fabs(in[i]);
    for (int64_t i = 0; i < nk; i++)
        ak[i] = fabs(k[i]);
    reference(d, ain, ak, mag);
    free(ain);
    free(ak);
}

/* Packs k (with Winograd on or off) into a fresh buffer. */
static void *wino_pack(const xlacrt_conv *d, const float *k, int on)
{
    if (!on)
        setenv("XLAC_WINOGRAD", "0", 1);
    size_t wb = xlacrt_conv_packed_bytes(d, 0);
    void *w = aligned_alloc(64, (wb + 63) / 64 * 64);
    xlacrt_conv_pack_f32(d, k, w);
    unsetenv("XLAC_WINOGRAD");
    return w;
}

static int64_t count_bits_differ(const float *a, const float *b, int64_t n)
{
    int64_t diff = 0;
    for (int64_t i = 0; i < n; i++)
        diff += memcmp(&a[i], &b[i], sizeof(float)) != 0;
    return diff;
}

static void test_winograd(const char *isa, const wino_shape *ws, xlacrt_pool **pools)
{
    shape s = {2, ws->batch, ws->cin, ws->cout, {ws->h, ws->w}, {3, 3}, {1, 1}, {ws->lo0, ws->lo1},
               {ws->hi0, ws->hi1}, {1, 1}, {1, 1}, {ws->rev0, ws->rev1}, 0, 0};
    xlacrt_conv d;
    if (!describe(&s, &d)) {
        CHECK(0);
        return;
    }
    CHECK(xlacrt_conv_winograd(&d) > 0);
    setenv("XLAC_WINOGRAD", "0", 1);
    CHECK_EQ_I(xlacrt_conv_winograd(&d), 0);
    unsetenv("XLAC_WINOGRAD");
    int64_t nin = elems_in(&s), nk = elems_k(&s), nout = d.rows * d.out_feat;
    double *in = malloc(sizeof(double) * (size_t)nin), *k = malloc(sizeof(double) * (size_t)nk);
    double *want = malloc(sizeof(double) * (size_t)nout), *mag = malloc(sizeof(double) * (size_t)nout);
    float *fin = malloc(sizeof(float) * (size_t)nin), *fk = malloc(sizeof(float) * (size_t)nk);
    float *direct = malloc(sizeof(float) * (size_t)nout), *wino = malloc(sizeof(float) * (size_t)nout);
    float *again = malloc(sizeof(float) * (size_t)nout);
    uint32_t x = 777u + (uint32_t)(ws->cin * 31 + ws->cout);
    for (int64_t i = 0; i < nin; i++) {
        x = x * 1664525u + 1013904223u;
        fin[i] = (float)((double)(int32_t)x / 2147483648.0);
        in[i] = fin[i];
    }
    for (int64_t i = 0; i < nk; i++) {
        x = x * 1664525u + 1013904223u;
        fk[i] = (float)((double)(int32_t)x / 4294967296.0);
        k[i] = fk[i];
    }
    wino_reference(&d, in, k, want, mag);
    void *wd = wino_pack(&d, fk, 0), *ww = wino_pack(&d, fk, 1);
    xlacrt_conv_run(NULL, &d, 0, fin, wd, direct, d.rows);
    xlacrt_conv_run(NULL, &d, 0, fin, ww, wino, d.rows);
    /* both within the tolerance; the largest errors in units of eps * mag */
    double worst[2] = {0, 0};
    int64_t bad = 0;
    for (int64_t i = 0; i < nout; i++) {
        double unit = FLT_EPSILON * (mag[i] > 0 ? mag[i] : FLT_MIN);
        double e[2] = {fabs(direct[i] - want[i]) / unit, fabs(wino[i] - want[i]) / unit};
        for (int j = 0; j < 2; j++) {
            worst[j] = e[j] > worst[j] ? e[j] : worst[j];
            bad += !(e[j] <= WINO_TOL_ULPS);
        }
    }
    int64_t differ = count_bits_differ(direct, wino, nout);
    if (bad || !differ)
        fprintf(stderr, "%s winograd %dx%dx%dx%d -> %d: %lld outside the tolerance, %lld differ from direct\n",
                isa, ws->batch, ws->h, ws->w, ws->cin, ws->cout, (long long)bad, (long long)differ);
    if (getenv("XLAC_TEST_VERBOSE"))
        printf("%s winograd %dx%dx%dx%d -> %d: worst error %.2f (direct %.2f) eps * magnitude\n", isa, ws->batch,
               ws->h, ws->w, ws->cin, ws->cout, worst[1], worst[0]);
    CHECK_EQ_I(bad, 0);
    CHECK(differ > 0);
    /* rows in arbitrary ranges, in a scrambled order */
    for (int trial = 0; trial < 3; trial++) {
        memset(again, 0xff, sizeof(float) * (size_t)nout);
        int64_t cuts[64], nc = 0;
        cuts[nc++] = 0;
        for (int64_t r = 0; r < d.rows && nc < 63;) {
            x = x * 1664525u + 1013904223u;
            r += 1 + (int64_t)(x >> 8) % (trial == 0 ? 3 : trial == 1 ? 2 * d.out_dim[1] + 1 : 40);
            cuts[nc++] = r < d.rows ? r : d.rows;
        }
        if (cuts[nc - 1] < d.rows)
            cuts[nc++] = d.rows;
        for (int64_t c = nc - 2; c >= 0; c -= 2)
            xlacrt_conv_rows_f32(&d, fin, ww, again, cuts[c], cuts[c + 1]);
        for (int64_t c = nc - 3; c >= 0; c -= 2)
            xlacrt_conv_rows_f32(&d, fin, ww, again, cuts[c], cuts[c + 1]);
        int64_t diff = count_bits_differ(again, wino, nout);
        if (diff)
            fprintf(stderr, "%s winograd rows cut %d: %lld differ\n", isa, trial, (long long)diff);
        CHECK_EQ_I(diff, 0);
    }
    /* blocks, serial and on pools of 1 to 3 threads */
    int64_t blocks[] = {1, 7, 2 * d.out_dim[1], xlacrt_conv_winograd(&d), 100, d.rows};
    for (int b = 0; b < 6; b++)
        for (int p = 0; p < 4; p++) {
            memset(again, 0xff, sizeof(float) * (size_t)nout);
            xlacrt_conv_run(p ? pools[p - 1] : NULL, &d, 0, fin, ww, again, blocks[b]);
            int64_t diff = count_bits_differ(again, wino, nout);
            if (diff)
                fprintf(stderr, "%s winograd block %lld pool %d: %lld differ\n", isa, (long long)blocks[b], p,
                        (long long)diff);
            CHECK_EQ_I(diff, 0);
        }
    free(wd);
    free(ww);
    free(in);
    free(k);
    free(want);
    free(mag);
    free(fin);
    free(fk);
    free(direct);
    free(wino);
    free(again);
}

int main(void)
{
    unsetenv("XLAC_WINOGRAD"); /* test_winograd sets it where it wants it */
    xlacrt_pool *pool = xlacrt_pool_create(3);
    xlacrt_pool *pools[3] = {xlacrt_pool_create(1), xlacrt_pool_create(2), pool};
    const char *isas[] = {"c", "avx2", "avx512"};
    for (int i = 0; i < 3; i++) {
        if (!xlacrt_gemm_set_isa(isas[i])) {
            printf("(kernel family %s not supported here; skipped)\n", isas[i]);
            continue;
        }
        for (size_t j = 0; j < sizeof shapes / sizeof shapes[0]; j++)
            for (int f64 = 0; f64 < 2; f64++)
                test_shape(isas[i], &shapes[j], f64, pool);
        for (size_t j = 0; j < sizeof wino_shapes / sizeof wino_shapes[0]; j++)
            test_winograd(isas[i], &wino_shapes[j], pools);
    }
    CHECK(xlacrt_gemm_set_isa("best"));
    xlacrt_pool_destroy(pools[0]);
    xlacrt_pool_destroy(pools[1]);
    xlacrt_pool_destroy(pool);
    TEST_SUMMARY();
}
