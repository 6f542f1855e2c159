/* tile_gemm_cases.h - the product checks test_runtime_amx (emulated tiles,
 * every host) and test_runtime_amx_hw (AMX, where the host has it) share:
 * bfloat16 and int8 GEMMs through the runtime's entry points, whichever
 * kernel family the caller selected, against naive references.  The
 * callers flush denormals (tg_flush_denormals), without which bfloat16
 * products do not use tiles.
 *
 * bfloat16: every product of two bfloat16 values is exact in f32 and the
 * sums are f32 additions, in another order than a naive loop's, so each
 * element may differ from the exact sum by at most (k + 1) * 2^-24 times
 * the sum of the magnitudes of its terms (the usual bound for k rounded
 * additions); the AVX-512 path obeys the same bound, so the two differ by
 * at most twice it.  int8: exact (modulo 2^32). */
#ifndef XLAC_TILE_GEMM_CASES_H
#define XLAC_TILE_GEMM_CASES_H

#include "test_util.h"
#include "xlacrt.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
/* bfloat16 products use tiles only while the caller flushes denormals
   (MXCSR FTZ and DAZ), as the tile instructions do. */
/* 1 when the mode took (a CPU emulator may ignore FTZ and DAZ) */
static int tg_flush_denormals(int on)
{
    unsigned m = _mm_getcsr();
    _mm_setcsr(on ? m | 0x8040u : m & ~0x8040u);
    return ((_mm_getcsr() & 0x8040u) == 0x8040u) == !!on;
}
#else
static int tg_flush_denormals(int on) { return !on; }
#endif

static uint64_t tg_rng = 0x9e3779b97f4a7c15ull;
static uint64_t tg_next(void)
{
    tg_rng ^= tg_rng << 13;
    tg_rng ^= tg_rng >> 7;
    tg_rng ^= tg_rng << 17;
    return tg_rng;
}
static int64_t tg_int(int64_t lo, int64_t hi) { return lo + (int64_t)(tg_next() % (uint64_t)(hi - lo + 1)); }

/* A bfloat16 in about [-2, 2] (normal or zero: no denormals, which the
   tile instructions read as zero). */
static uint16_t tg_bf16(void)
{
    float f = (float)((double)(tg_next() >> 11) / 9007199254740992.0 * 4.0 - 2.0);
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((u & 0x7f800000u) == 0)
        return 0;
    return (uint16_t)(u >> 16);
}

static double tg_bf16_val(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

typedef struct {
    int ta, tb, acc;
    int64_t m, n, k, lda, ldb, ldc;
} tg_shape;

static tg_shape tg_make(int64_t m, int64_t n, int64_t k, int ta, int tb, int acc, int pad)
{
    tg_shape s = {ta, tb, acc, m, n, k, 0, 0, 0};
    s.lda = (ta ? m : k) + (pad ? tg_int(0, 5) : 0);
    s.ldb = (tb ? k : n) + (pad ? tg_int(0, 5) : 0);
    s.ldc = n + (pad ? tg_int(0, 5) : 0);
    if (s.lda < 1)
        s.lda = 1;
    if (s.ldb < 1)
        s.ldb = 1;
    return s;
}

static size_t tg_elems_a(const tg_shape *s) { return (size_t)((s->ta ? s->k : s->m) * s->lda + 1); }
static size_t tg_elems_b(const tg_shape *s) { return (size_t)((s->tb ? s->n : s->k) * s->ldb + 1); }
static size_t tg_elems_c(const tg_shape *s) { return (size_t)(s->m * s->ldc + 1); }

/* One bfloat16 product against the exact sum: 1 when within the bound.
   With pool2, the same product on that pool must give the same bits. */
static int tg_bf16_case(xlacrt_pool *pool, xlacrt_pool *pool2, const tg_shape *s)
{
    size_t na = tg_elems_a(s), nb = tg_elems_b(s), nc = tg_elems_c(s);
    uint16_t *a = malloc(na * 2), *b = malloc(nb * 2);
    float *c = malloc(nc * 4), *c0 = malloc(nc * 4), *c2 = malloc(nc * 4);
    int ok = a && b && c && c0 && c2;
    if (!ok)
        goto out;
    for (size_t i = 0; i < na; i++)
        a[i] = tg_bf16();
    for (size_t i = 0; i < nb; i++)
        b[i] = tg_bf16();
    for (size_t i = 0; i < nc; i++)
        c0[i] = (float)tg_int(-4, 4) * 0.25f;
    memcpy(c, c0, nc * 4);
    memcpy(c2, c0, nc * 4);
    xlacrt_gemm_bf16(pool, s->ta, s->tb, s->m, s->n, s->k, a, s->lda, b, s->ldb, c, s->ldc, s->acc);
    for (int64_t i = 0; i < s->m && ok; i++)
        for (int64_t j = 0; j < s->n; j++) {
            double sum = s->acc ? c0[i * s->ldc + j] : 0, mag = fabs(sum);
            for (int64_t q = 0; q < s->k; q++) {
                double x = tg_bf16_val(a[s->ta ? q * s->lda + i : i * s->lda + q]);
                double y = tg_bf16_val(b[s->tb ? j * s->ldb + q : q * s->ldb + j]);
                sum += x * y;
                mag += fabs(x * y);
            }
            double got = c[i * s->ldc + j], tol = (double)(s->k + 1) * 0x1p-24 * mag;
            if (!(fabs(got - sum) <= tol)) {
                fprintf(stderr, "bf16 %lldx%lldx%lld ta=%d tb=%d acc=%d: c[%lld][%lld] = %.9g, expected %.9g (tol %.3g)\n",
                        (long long)s->m, (long long)s->n, (long long)s->k, s->ta, s->tb, s->acc, (long long)i,
                        (long long)j, got, sum, tol);
                ok = 0;
                break;
            }
        }
    /* columns past n (ldc padding) untouched */
    for (int64_t i = 0; i < s->m && ok; i++)
        for (int64_t j = s->n; j < s->ldc; j++)
            if (memcmp(&c[i * s->ldc + j], &c0[i * s->ldc + j], 4) != 0)
                ok = 0;
    if (ok && pool2) {
        xlacrt_gemm_bf16(pool2, s->ta, s->tb, s->m, s->n, s->k, a, s->lda, b, s->ldb, c2, s->ldc, s->acc);
        ok = memcmp(c, c2, nc * 4) == 0;
        if (!ok)
            fprintf(stderr, "bf16 %lldx%lldx%lld: pools of different sizes differ\n", (long long)s->m,
                    (long long)s->n, (long long)s->k);
    }
out:
    free(a);
    free(b);
    free(c);
    free(c0);
    free(c2);
    return ok;
}

/* One int8 product against the exact (wrapping) sums. */
static int tg_s8_case(xlacrt_pool *pool, xlacrt_pool *pool2, const tg_shape *s, int extreme)
{
    size_t na = tg_elems_a(s), nb = tg_elems_b(s), nc = tg_elems_c(s);
    int8_t *a = malloc(na), *b = malloc(nb);
    int32_t *c = malloc(nc * 4), *c0 = malloc(nc * 4), *c2 = malloc(nc * 4);
    int ok = a && b && c && c0 && c2;
    if (!ok)
        goto out;
    for (size_t i = 0; i < na; i++)
        a[i] = extreme ? -128 : (int8_t)tg_int(-128, 127);
    for (size_t i = 0; i < nb; i++)
        b[i] = extreme ? -128 : (int8_t)tg_int(-128, 127);
    for (size_t i = 0; i < nc; i++)
        c0[i] = (int32_t)tg_int(-1000000, 1000000);
    memcpy(c, c0, nc * 4);
    memcpy(c2, c0, nc * 4);
    xlacrt_gemm_s8(pool, s->ta, s->tb, s->m, s->n, s->k, a, s->lda, b, s->ldb, c, s->ldc, s->acc);
    for (int64_t i = 0; i < s->m && ok; i++)
        for (int64_t j = 0; j < s->n; j++) {
            uint32_t sum = s->acc ? (uint32_t)c0[i * s->ldc + j] : 0;
            for (int64_t q = 0; q < s->k; q++)
                sum += (uint32_t)(a[s->ta ? q * s->lda + i : i * s->lda + q] *
                                  b[s->tb ? j * s->ldb + q : q * s->ldb + j]);
            if ((uint32_t)c[i * s->ldc + j] != sum) {
                fprintf(stderr, "s8 %lldx%lldx%lld ta=%d tb=%d acc=%d: c[%lld][%lld] = %d, expected %d\n",
                        (long long)s->m, (long long)s->n, (long long)s->k, s->ta, s->tb, s->acc, (long long)i,
                        (long long)j, c[i * s->ldc + j], (int32_t)sum);
                ok = 0;
                break;
            }
        }
    for (int64_t i = 0; i < s->m && ok; i++)
        for (int64_t j = s->n; j < s->ldc; j++)
            if (c[i * s->ldc + j] != c0[i * s->ldc + j])
                ok = 0;
    if (ok && pool2) {
        xlacrt_gemm_s8(pool2, s->ta, s->tb, s->m, s->n, s->k, a, s->lda, b, s->ldb, c2, s->ldc, s->acc);
        ok = memcmp(c, c2, nc * 4) == 0;
    }
out:
    free(a);
    free(b);
    free(c);
    free(c0);
    free(c2);
    return ok;
}

/* Batched products equal single calls bit for bit. */
static int tg_batched(xlacrt_pool *pool, int64_t batch, int64_t m, int64_t n, int64_t k)
{
    size_t na = (size_t)(batch * m * k), nb = (size_t)(batch * k * n), nc = (size_t)(batch * m * n);
    uint16_t *a = malloc(na * 2), *b = malloc(nb * 2);
    float *c1 = calloc(nc, 4), *c2 = calloc(nc, 4);
    int8_t *a8 = malloc(na), *b8 = malloc(nb);
    int32_t *d1 = calloc(nc, 4), *d2 = calloc(nc, 4);
    int ok = a && b && c1 && c2 && a8 && b8 && d1 && d2;
    if (ok) {
        for (size_t i = 0; i < na; i++)
            a[i] = tg_bf16(), a8[i] = (int8_t)tg_int(-128, 127);
        for (size_t i = 0; i < nb; i++)
            b[i] = tg_bf16(), b8[i] = (int8_t)tg_int(-128, 127);
        xlacrt_gemm_bf16_batched(pool, 0, 1, batch, m, n, k, a, k, m * k, b, k, k * n, c1, n, m * n, 0);
        xlacrt_gemm_s8_batched(pool, 1, 0, batch, m, n, k, a8, m, m * k, b8, n, k * n, d1, n, m * n, 0);
        for (int64_t i = 0; i < batch; i++) {
            xlacrt_gemm_bf16(NULL, 0, 1, m, n, k, a + i * m * k, k, b + i * k * n, k, c2 + i * m * n, n, 0);
            xlacrt_gemm_s8(NULL, 1, 0, m, n, k, a8 + i * m * k, m, b8 + i * k * n, n, d2 + i * m * n, n, 0);
        }
        ok = memcmp(c1, c2, nc * 4) == 0 && memcmp(d1, d2, nc * 4) == 0 && c1[nc - 1] != 0;
    }
    free(a);
    free(b);
    free(c1);
    free(c2);
    free(a8);
    free(b8);
    free(d1);
    free(d2);
    return ok;
}

/* Many shapes: tile edges (1, 15, 16, 17, 31, 32, 33 ...), k not a
   multiple of the 32 or 64 values of a step nor of the k block, k = 0,
   transposes, padded leading dimensions, accumulation; sizes up to
   max_dim.  Products big enough to be split over the pool are also run on
   pool2 and must give the same bits. */
static void tg_run_all(xlacrt_pool *pool, xlacrt_pool *pool2, int64_t max_dim, int nrandom)
{
    static const int64_t edges[][3] = {{1, 1, 1},    {16, 16, 32},  {32, 32, 32},  {33, 31, 65},   {17, 15, 31},
                                       {64, 96, 128}, {5, 70, 1},   {70, 5, 1025},  {31, 33, 513},  {2, 2, 0},
                                       {48, 40, 600}, {1, 100, 40}, {100, 1, 40},   {40, 64, 2049}};
    int bad16 = 0, bad8 = 0;
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        for (int t = 0; t < 8; t++) {
            tg_shape s = tg_make(edges[i][0], edges[i][1], edges[i][2], t & 1, t >> 1 & 1, t >> 2 & 1, (int)(i & 1));
            bad16 += !tg_bf16_case(pool, NULL, &s);
            bad8 += !tg_s8_case(pool, NULL, &s, 0);
        }
    for (int r = 0; r < nrandom; r++) {
        tg_shape s = tg_make(tg_int(1, max_dim), tg_int(1, max_dim), tg_int(0, 3 * max_dim), (int)tg_int(0, 1),
                             (int)tg_int(0, 1), (int)tg_int(0, 1), (int)tg_int(0, 1));
        bad16 += !tg_bf16_case(pool, NULL, &s);
        bad8 += !tg_s8_case(pool, NULL, &s, 0);
    }
    CHECK_EQ_I(bad16, 0);
    CHECK_EQ_I(bad8, 0);
    /* several chunks and column splits: the same bits on pools of 1 and 3 */
    tg_shape big = tg_make(300, 200, 700, 0, 0, 1, 1);
    CHECK(tg_bf16_case(pool, pool2, &big));
    CHECK(tg_s8_case(pool, pool2, &big, 0));
    /* k a multiple of both steps, A not transposed: the tile kernels read
       whole 32-row panels of A in place, the ragged last one packed */
    tg_shape direct = tg_make(300, 100, 640, 0, 1, 1, 1);
    CHECK(tg_bf16_case(pool, pool2, &direct));
    CHECK(tg_s8_case(pool, pool2, &direct, 0));
    tg_shape wide = tg_make(40, 520, 300, 1, 1, 0, 0);
    CHECK(tg_bf16_case(pool, pool2, &wide));
    CHECK(tg_s8_case(pool, pool2, &wide, 0));
    /* sums past 2^31 wrap: 140000 products of -128 x -128 (2^14 each) */
    tg_shape wrap = tg_make(3, 2, 140000, 0, 1, 0, 0);
    CHECK(tg_s8_case(pool, NULL, &wrap, 1));
    CHECK(tg_batched(pool, 7, 9, 11, 13));
    CHECK(tg_batched(pool, 2, 70, 90, 100));
}

#endif
