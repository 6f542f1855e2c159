/* test_runtime_gemm.c - the runtime's thread pool and GEMM.
 *
 * The pool must run every chunk exactly once, also for nested and concurrent
 * callers.  GEMM results are compared with a naive triple loop in double for
 * many shapes (vectors, odd sizes, k = 0, transposes, padded leading
 * dimensions, accumulation) with every kernel family this CPU supports, and
 * must be bit-identical for pool sizes 1, 2 and 3. */
#include "test_util.h"
#include "xlacrt.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

/* ---- thread pool ---- */

typedef struct {
    _Atomic int *hits;
    xlacrt_pool *pool;
    _Atomic long inner;
} pf_ctx;

static void count_chunk(int64_t i, void *ctx)
{
    pf_ctx *c = ctx;
    atomic_fetch_add(&c->hits[i], 1);
}

static void inner_chunk(int64_t i, void *ctx)
{
    pf_ctx *c = ctx;
    atomic_fetch_add(&c->inner, (long)i + 1);
}

/* A chunk that itself calls parallel_for on the same pool. */
static void nested_chunk(int64_t i, void *ctx)
{
    pf_ctx *c = ctx;
    atomic_fetch_add(&c->hits[i], 1);
    xlacrt_parallel_for(c->pool, 10, inner_chunk, c);
}

static int run_counted(xlacrt_pool *p, int64_t n, xlacrt_task_fn fn, pf_ctx *c)
{
    for (int64_t i = 0; i < n; i++)
        atomic_store(&c->hits[i], 0);
    xlacrt_parallel_for(p, n, fn, c);
    for (int64_t i = 0; i < n; i++)
        if (atomic_load(&c->hits[i]) != 1)
            return 0;
    return 1;
}

static void *hammer(void *arg)
{
    xlacrt_pool *p = arg;
    _Atomic int hits[37];
    pf_ctx c = {hits, p, 0};
    long ok = 1;
    for (int r = 0; r < 300; r++)
        ok &= run_counted(p, 1 + r % 37, count_chunk, &c);
    return (void *)ok;
}

static void test_pool(void)
{
    CHECK_EQ_I(xlacrt_pool_size(NULL), 1);
    xlacrt_pool *p1 = xlacrt_pool_create(1), *p3 = xlacrt_pool_create(3);
    xlacrt_pool *pd = xlacrt_pool_create(0);
    CHECK(p1 && p3 && pd);
    if (!p1 || !p3 || !pd)
        return;
    CHECK_EQ_I(xlacrt_pool_size(p1), 1);
    CHECK_EQ_I(xlacrt_pool_size(p3), 3);
    CHECK(xlacrt_pool_size(pd) >= 1);

    enum { N = 1000 };
    _Atomic int *hits = calloc(N, sizeof *hits);
    pf_ctx c = {hits, NULL, 0};
    xlacrt_pool *pools[] = {NULL, p1, p3, pd};
    for (int i = 0; i < 4; i++) {
        CHECK(run_counted(pools[i], N, count_chunk, &c));
        CHECK(run_counted(pools[i], 1, count_chunk, &c));
        xlacrt_parallel_for(pools[i], 0, count_chunk, &c); /* nothing to do */
    }
    /* many short jobs back to back: workers that wake late must not run a
       chunk of the wrong job */
    int ok = 1;
    for (int r = 0; r < 2000; r++)
        ok &= run_counted(p3, 1 + r % 7, count_chunk, &c);
    CHECK(ok);
    /* nested: inner loops run serially inside the chunk, without deadlock */
    c.pool = p3;
    atomic_store(&c.inner, 0);
    CHECK(run_counted(p3, 50, nested_chunk, &c));
    CHECK_EQ_I(atomic_load(&c.inner), 50 * 55);
    /* two threads submitting to one pool */
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, hammer, p3);
    for (int i = 0; i < 2; i++) {
        void *res;
        pthread_join(t[i], &res);
        CHECK(res == (void *)1);
    }
    free(hits);
    xlacrt_pool_destroy(p1);
    xlacrt_pool_destroy(p3);
    xlacrt_pool_destroy(pd);
    xlacrt_pool_destroy(NULL);
}

/* ---- GEMM ---- */

static uint64_t rng = 88172645463325252ull;
static uint64_t next_u64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
static int64_t rand_int(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(next_u64() % (uint64_t)(hi - lo + 1));
}
static double rand_val(void) { return (double)(next_u64() >> 11) / 9007199254740992.0 * 2.0 - 1.0; }

typedef struct {
    int ta, tb, acc;
    int64_t m, n, k, lda, ldb, ldc;
} shape;

static shape make_shape(int64_t m, int64_t n, int64_t k, int ta, int tb, int acc, int pad)
{
    shape s = {ta, tb, acc, m, n, k, 0, 0, 0};
    s.lda = (ta ? m : k) + (pad ? rand_int(0, 5) : 0);
    s.ldb = (tb ? k : n) + (pad ? rand_int(0, 5) : 0);
    s.ldc = n + (pad ? rand_int(0, 5) : 0);
    if (s.lda < 1)
        s.lda = 1;
    if (s.ldb < 1)
        s.ldb = 1;
    return s;
}

static int64_t rows_a(const shape *s) { return s->ta ? s->k : s->m; }
static int64_t rows_b(const shape *s) { return s->tb ? s->n : s->k; }

static const float sentinel_f = 12345.0f;

/* Runs one sgemm or dgemm case against the double reference; checks the
   error bound, that padding of C is untouched and that C is not read when
   accumulate is 0 (it starts as NaN then). */
static int check_case(const shape *s, int dbl, xlacrt_pool *pool)
{
    size_t na = (size_t)(rows_a(s) * s->lda), nb = (size_t)(rows_b(s) * s->ldb);
    size_t nc = (size_t)(s->m * s->ldc);
    size_t es = dbl ? sizeof(double) : sizeof(float);
    void *a = malloc(na * es + 1), *b = malloc(nb * es + 1), *c = malloc(nc * es + 1);
    double *c0 = malloc(nc * sizeof(double) + 1);
    for (size_t i = 0; i < na; i++) {
        double v = rand_val();
        if (dbl) ((double *)a)[i] = v; else ((float *)a)[i] = (float)v;
    }
    for (size_t i = 0; i < nb; i++) {
        double v = rand_val();
        if (dbl) ((double *)b)[i] = v; else ((float *)b)[i] = (float)v;
    }
    for (size_t i = 0; i < nc; i++) {
        int64_t col = (int64_t)i % s->ldc;
        double v = col >= s->n ? sentinel_f : s->acc ? rand_val() : NAN;
        if (dbl) ((double *)c)[i] = v; else ((float *)c)[i] = (float)v;
        c0[i] = dbl ? ((double *)c)[i] : ((float *)c)[i];
    }
#define AT(p, i) (dbl ? ((const double *)(p))[i] : (double)((const float *)(p))[i])
    if (dbl)
        xlacrt_dgemm(pool, s->ta, s->tb, s->m, s->n, s->k, a, s->lda, b, s->ldb, c, s->ldc, s->acc);
    else
        xlacrt_sgemm(pool, s->ta, s->tb, s->m, s->n, s->k, a, s->lda, b, s->ldb, c, s->ldc, s->acc);
    int ok = 1;
    double eps = dbl ? 1.2e-16 : 6e-8;
    for (int64_t i = 0; i < s->m && ok; i++) {
        for (int64_t j = 0; j < s->ldc; j++) {
            double got = AT(c, i * s->ldc + j);
            if (j >= s->n) {
                if (got != sentinel_f)
                    ok = 0;
                continue;
            }
            double ref = s->acc ? c0[i * s->ldc + j] : 0, mag = fabs(ref);
            for (int64_t q = 0; q < s->k; q++) {
                double x = AT(a, s->ta ? q * s->lda + i : i * s->lda + q);
                double y = AT(b, s->tb ? j * s->ldb + q : q * s->ldb + j);
                ref += x * y;
                mag += fabs(x * y);
            }
            if (!(fabs(got - ref) <= 2.0 * (double)(s->k + 2) * eps * mag + 1e-300))
                ok = 0;
        }
    }
#undef AT
    if (!ok)
        fprintf(stderr, "  %s m=%lld n=%lld k=%lld ta=%d tb=%d acc=%d lda=%lld ldb=%lld ldc=%lld\n",
                dbl ? "dgemm" : "sgemm", (long long)s->m, (long long)s->n, (long long)s->k, s->ta,
                s->tb, s->acc, (long long)s->lda, (long long)s->ldb, (long long)s->ldc);
    free(a);
    free(b);
    free(c);
    free(c0);
    return ok;
}

static void test_gemm_shapes(const char *isa, xlacrt_pool *pool)
{
    int fails = 0, total = 0;
    for (int dbl = 0; dbl < 2; dbl++) {
        /* vectors and degenerate sizes */
        int64_t special[][3] = {{1, 1, 1}, {1, 67, 13}, {67, 1, 13}, {1, 1, 100}, {5, 7, 1},
                                {3, 4, 0}, {1, 50, 0}, {33, 17, 2}, {12, 32, 256}, {13, 33, 257}};
        for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
            for (int t = 0; t < 4; t++)
                for (int acc = 0; acc < 2; acc++) {
                    shape s = make_shape(special[i][0], special[i][1], special[i][2], t & 1,
                                         t >> 1, acc, t == 3);
                    fails += !check_case(&s, dbl, pool);
                    total++;
                }
        /* random odd sizes */
        for (int r = 0; r < 120; r++) {
            shape s = make_shape(rand_int(1, 67), rand_int(1, 67), rand_int(0, 67),
                                 (int)rand_int(0, 1), (int)rand_int(0, 1), (int)rand_int(0, 1),
                                 (int)rand_int(0, 1));
            fails += !check_case(&s, dbl, pool);
            total++;
        }
        /* several k blocks, several row chunks, split columns */
        int64_t big[][3] = {{160, 100, 600}, {13, 1000, 70}, {150, 97, 513}};
        for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
            shape s = make_shape(big[i][0], big[i][1], big[i][2], (int)(i & 1), (int)(i == 2),
                                 (int)(i == 1), 1);
            fails += !check_case(&s, dbl, pool);
            total++;
        }
    }
    if (fails)
        fprintf(stderr, "%s: %d of %d GEMM cases wrong\n", isa, fails, total);
    CHECK_EQ_I(fails, 0);
}

/* The same product through pools of 1, 2 and 3 threads (and none) must give
   the same bits. */
static void test_determinism(void)
{
    xlacrt_pool *pools[4] = {NULL, xlacrt_pool_create(1), xlacrt_pool_create(2),
                             xlacrt_pool_create(3)};
    /* {40, 1000, 700} and {7, 333, 1030}: one block of rows cut into
       column chunks on a pool, its A packed once for all of them (several
       k blocks); {512, 128, 512}: three row blocks cut into four on two
       threads; {128, 128, 512}: one block of rows cut into one a thread */
    int64_t shapes[][3] = {{300, 257, 513}, {37, 700, 300}, {200, 200, 200}, {40, 1000, 700}, {7, 333, 1030},
                           {512, 128, 512}, {128, 128, 512}};
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        int64_t m = shapes[si][0], n = shapes[si][1], k = shapes[si][2];
        float *a = malloc((size_t)(m * k) * sizeof *a), *b = malloc((size_t)(k * n) * sizeof *b);
        double *ad = malloc((size_t)(m * k) * sizeof *ad);
        double *bd = malloc((size_t)(k * n) * sizeof *bd);
        for (int64_t i = 0; i < m * k; i++)
            ad[i] = a[i] = (float)rand_val();
        for (int64_t i = 0; i < k * n; i++)
            bd[i] = b[i] = (float)rand_val();
        float *c[4];
        double *cd[4];
        for (int pi = 0; pi < 4; pi++) {
            c[pi] = malloc((size_t)(m * n) * sizeof(float));
            cd[pi] = malloc((size_t)(m * n) * sizeof(double));
            xlacrt_sgemm(pools[pi], 0, 0, m, n, k, a, k, b, n, c[pi], n, 0);
            xlacrt_dgemm(pools[pi], 0, 0, m, n, k, ad, k, bd, n, cd[pi], n, 0);
        }
        for (int pi = 1; pi < 4; pi++) {
            CHECK(memcmp(c[0], c[pi], (size_t)(m * n) * sizeof(float)) == 0);
            CHECK(memcmp(cd[0], cd[pi], (size_t)(m * n) * sizeof(double)) == 0);
        }
        for (int pi = 0; pi < 4; pi++) {
            free(c[pi]);
            free(cd[pi]);
        }
        free(a);
        free(b);
        free(ad);
        free(bd);
    }
    for (int pi = 0; pi < 4; pi++)
        xlacrt_pool_destroy(pools[pi]);
}

/* The row tile is chosen from m (an 8-row tile where the 12-row one would
   pad much: m = 32, 64, 40 ...), and must not change a bit: the first m
   rows of a product of more rows (another tile) are the product of those
   m rows, for every tile and both element types. */
static void test_row_tiles(xlacrt_pool *pool)
{
    int64_t ms[][2] = {{32, 36}, {64, 72}, {40, 48}, {16, 24}, {8, 12}, {256, 264}, {20, 300}};
    int64_t n = 97, k = 300; /* ragged columns, two k blocks for f64 */
    for (size_t si = 0; si < sizeof ms / sizeof ms[0]; si++) {
        int64_t m = ms[si][0], mbig = ms[si][1];
        for (int ta = 0; ta < 2; ta++) {
            float *a = malloc((size_t)(mbig * k) * sizeof *a), *b = malloc((size_t)(k * n) * sizeof *b);
            double *ad = malloc((size_t)(mbig * k) * sizeof *ad), *bd = malloc((size_t)(k * n) * sizeof *bd);
            float *c1 = malloc((size_t)(mbig * n) * sizeof *c1), *c2 = malloc((size_t)(mbig * n) * sizeof *c2);
            double *d1 = malloc((size_t)(mbig * n) * sizeof *d1), *d2 = malloc((size_t)(mbig * n) * sizeof *d2);
            for (int64_t i = 0; i < mbig * k; i++)
                ad[i] = a[i] = (float)rand_val();
            for (int64_t i = 0; i < k * n; i++)
                bd[i] = b[i] = (float)rand_val();
            /* A transposed: [k, mbig], the first m columns are the rows */
            int64_t lda = ta ? mbig : k;
            xlacrt_sgemm(pool, ta, 0, mbig, n, k, a, lda, b, n, c1, n, 0);
            xlacrt_sgemm(pool, ta, 0, m, n, k, a, lda, b, n, c2, n, 0);
            xlacrt_dgemm(pool, ta, 0, mbig, n, k, ad, lda, bd, n, d1, n, 0);
            xlacrt_dgemm(pool, ta, 0, m, n, k, ad, lda, bd, n, d2, n, 0);
            CHECK(memcmp(c1, c2, (size_t)(m * n) * sizeof *c1) == 0);
            CHECK(memcmp(d1, d2, (size_t)(m * n) * sizeof *d1) == 0);
            free(a);
            free(b);
            free(ad);
            free(bd);
            free(c1);
            free(c2);
            free(d1);
            free(d2);
        }
    }
}

/* A product of few rows reads B where it is (no packed copy; the last,
   partial panel of columns packed alone); one of many rows packs B.  Both
   give the same bits: the first m rows of a 160-row product (packed B) are
   the m-row product (B read in place), with padded leading dimensions,
   ragged n and several k blocks. */
static void test_direct_b(xlacrt_pool *pool)
{
    int bad = 0;
    for (int r = 0; r < 40; r++) {
        int64_t m = rand_int(1, 64), mbig = 160, n = rand_int(1, 300), k = rand_int(1, 700);
        int64_t ldb = n + rand_int(0, 20), lda = k + rand_int(0, 3);
        for (int dbl = 0; dbl < 2; dbl++) {
            size_t es = dbl ? sizeof(double) : sizeof(float);
            char *a = malloc((size_t)(mbig * lda) * es), *b = malloc((size_t)(k * ldb) * es);
            char *c1 = malloc((size_t)(mbig * n) * es), *c2 = malloc((size_t)(m * n) * es);
            for (int64_t i = 0; i < mbig * lda; i++) {
                double v = rand_val();
                if (dbl) ((double *)a)[i] = v; else ((float *)a)[i] = (float)v;
            }
            for (int64_t i = 0; i < k * ldb; i++) {
                double v = rand_val();
                if (dbl) ((double *)b)[i] = v; else ((float *)b)[i] = (float)v;
            }
            if (dbl) {
                xlacrt_dgemm(pool, 0, 0, mbig, n, k, (double *)a, lda, (double *)b, ldb, (double *)c1, n, 0);
                xlacrt_dgemm(pool, 0, 0, m, n, k, (double *)a, lda, (double *)b, ldb, (double *)c2, n, 0);
            } else {
                xlacrt_sgemm(pool, 0, 0, mbig, n, k, (float *)a, lda, (float *)b, ldb, (float *)c1, n, 0);
                xlacrt_sgemm(pool, 0, 0, m, n, k, (float *)a, lda, (float *)b, ldb, (float *)c2, n, 0);
            }
            if (memcmp(c1, c2, (size_t)(m * n) * es) != 0) {
                bad++;
                fprintf(stderr, "  direct B %s m=%lld n=%lld k=%lld ldb=%lld differs\n", dbl ? "dgemm" : "sgemm",
                        (long long)m, (long long)n, (long long)k, (long long)ldb);
            }
            free(a);
            free(b);
            free(c1);
            free(c2);
        }
    }
    CHECK_EQ_I(bad, 0);
}

/* A product whose rows make one block packs B a panel at a time inside
   its chunks (inline B); one of many row blocks packs all of B first.
   Both give the same bits: the first m rows of a 400-row product are the
   m-row product, for B stored either way (transposed B is never read in
   place), ragged n, several k blocks, accumulation, and the columns
   split over a pool. */
static void test_inline_b(xlacrt_pool *pool)
{
    int bad = 0;
    for (int r = 0; r < 40; r++) {
        int64_t m = rand_int(1, 96), mbig = 400, n = rand_int(1, 300), k = rand_int(1, 700);
        int tb = r % 2, acc = r % 3 == 0;
        int64_t ldb = (tb ? k : n) + rand_int(0, 20), lda = k + rand_int(0, 3);
        for (int dbl = 0; dbl < 2; dbl++) {
            size_t es = dbl ? sizeof(double) : sizeof(float);
            size_t nb = (size_t)((tb ? n : k) * ldb);
            char *a = malloc((size_t)(mbig * lda) * es), *b = malloc(nb * es);
            char *c1 = malloc((size_t)(mbig * n) * es), *c2 = malloc((size_t)(m * n) * es);
            for (int64_t i = 0; i < mbig * lda; i++) {
                double v = rand_val();
                if (dbl) ((double *)a)[i] = v; else ((float *)a)[i] = (float)v;
            }
            for (size_t i = 0; i < nb; i++) {
                double v = rand_val();
                if (dbl) ((double *)b)[i] = v; else ((float *)b)[i] = (float)v;
            }
            for (int64_t i = 0; i < mbig * n; i++) {
                double v = rand_val();
                if (dbl) ((double *)c1)[i] = v; else ((float *)c1)[i] = (float)v;
            }
            memcpy(c2, c1, (size_t)(m * n) * es);
            if (dbl) {
                xlacrt_dgemm(pool, 0, tb, mbig, n, k, (double *)a, lda, (double *)b, ldb, (double *)c1, n, acc);
                xlacrt_dgemm(pool, 0, tb, m, n, k, (double *)a, lda, (double *)b, ldb, (double *)c2, n, acc);
            } else {
                xlacrt_sgemm(pool, 0, tb, mbig, n, k, (float *)a, lda, (float *)b, ldb, (float *)c1, n, acc);
                xlacrt_sgemm(pool, 0, tb, m, n, k, (float *)a, lda, (float *)b, ldb, (float *)c2, n, acc);
            }
            if (memcmp(c1, c2, (size_t)(m * n) * es) != 0) {
                bad++;
                fprintf(stderr, "  inline B %s m=%lld n=%lld k=%lld tb=%d acc=%d differs\n", dbl ? "dgemm" : "sgemm",
                        (long long)m, (long long)n, (long long)k, tb, acc);
            }
            free(a);
            free(b);
            free(c1);
            free(c2);
        }
    }
    CHECK_EQ_I(bad, 0);
}

/* A product of few column panels (at most 4 register tiles wide) reads A
   where it is instead of packing it (direct A); a wide one packs A.  Both
   give the same bits: the m x n product equals the first n columns of the
   product by B widened with 200 more columns, with a padded leading
   dimension of A, ragged m and n and several k blocks. */
static void test_direct_a(xlacrt_pool *pool)
{
    int bad = 0;
    for (int r = 0; r < 40; r++) {
        int64_t m = rand_int(1, 100), n = rand_int(1, 64), wide = n + 200, k = rand_int(1, 700);
        int64_t lda = k + rand_int(0, 5);
        float *a = malloc((size_t)(m * lda) * sizeof *a), *b = malloc((size_t)(k * wide) * sizeof *b);
        float *bn = malloc((size_t)(k * n) * sizeof *bn);
        float *c1 = malloc((size_t)(m * wide) * sizeof *c1), *c2 = malloc((size_t)(m * n) * sizeof *c2);
        for (int64_t i = 0; i < m * lda; i++) a[i] = (float)rand_val();
        for (int64_t i = 0; i < k * wide; i++) b[i] = (float)rand_val();
        for (int64_t q = 0; q < k; q++)
            memcpy(bn + q * n, b + q * wide, (size_t)n * sizeof *bn);
        xlacrt_sgemm(pool, 0, 0, m, wide, k, a, lda, b, wide, c1, wide, 0);
        xlacrt_sgemm(pool, 0, 0, m, n, k, a, lda, bn, n, c2, n, 0);
        for (int64_t i = 0; i < m; i++)
            if (memcmp(c1 + i * wide, c2 + i * n, (size_t)n * sizeof *c2) != 0) {
                bad++;
                fprintf(stderr, "  direct A m=%lld n=%lld k=%lld lda=%lld row %lld differs\n", (long long)m,
                        (long long)n, (long long)k, (long long)lda, (long long)i);
                break;
            }
        free(a);
        free(b);
        free(bn);
        free(c1);
        free(c2);
    }
    CHECK_EQ_I(bad, 0);
}

/* B packed once (xlacrt_*gemm_pack_b, as a loop's weights are) and
   multiplied by several A (xlacrt_*gemm_packed) gives the bits of the plain
   call, for odd shapes, both transposes, accumulation, padded leading
   dimensions, m on either row tile, with and without a pool; the packed
   copy also serves after the kernel family is changed (it records the
   family that packed it). */
static int packed_case(xlacrt_pool *pool, int dbl, int64_t m, int64_t n, int64_t k, int ta, int tb,
                       int acc, int pad, const char *isa_after)
{
    int64_t lda = (ta ? m : k) + pad, ldb = (tb ? k : n) + pad, ldc = n + pad;
    if (lda < 1)
        lda = 1;
    if (ldb < 1)
        ldb = 1;
    size_t es = dbl ? sizeof(double) : sizeof(float);
    size_t na = (size_t)((ta ? k : m) * lda), nb = (size_t)((tb ? n : k) * ldb), nc = (size_t)(m * ldc);
    char *a = malloc(na * es + es), *b = malloc(nb * es + es), *c0 = malloc(nc * es + es);
    char *c[3] = {malloc(nc * es + es), malloc(nc * es + es), malloc(nc * es + es)};
    /* the packed copy is read with aligned vector loads */
    size_t pb = (xlacrt_gemm_packed_b_bytes(dbl, n, k) + 63) / 64 * 64;
    void *pk = aligned_alloc(64, pb);
    for (size_t i = 0; i < na; i++) {
        double v = rand_val();
        if (dbl) ((double *)a)[i] = v; else ((float *)a)[i] = (float)v;
    }
    for (size_t i = 0; i < nb; i++) {
        double v = rand_val();
        if (dbl) ((double *)b)[i] = v; else ((float *)b)[i] = (float)v;
    }
    /* C starts as NaN without accumulation: it must not be read */
    for (size_t i = 0; i < nc; i++) {
        double v = acc ? rand_val() : NAN;
        if (dbl) ((double *)c0)[i] = v; else ((float *)c0)[i] = (float)v;
    }
    for (int r = 0; r < 3; r++)
        memcpy(c[r], c0, nc * es);
    if (dbl) {
        xlacrt_dgemm(pool, ta, tb, m, n, k, (const double *)a, lda, (const double *)b, ldb,
                     (double *)c[0], ldc, acc);
        xlacrt_dgemm_pack_b(pool, tb, n, k, (const double *)b, ldb, pk);
    } else {
        xlacrt_sgemm(pool, ta, tb, m, n, k, (const float *)a, lda, (const float *)b, ldb,
                     (float *)c[0], ldc, acc);
        xlacrt_sgemm_pack_b(pool, tb, n, k, (const float *)b, ldb, pk);
    }
    if (isa_after)
        xlacrt_gemm_set_isa(isa_after);
    /* twice from the same packed copy: multiplying only reads it */
    for (int r = 1; r < 3; r++) {
        if (dbl)
            xlacrt_dgemm_packed(pool, ta, m, (const double *)a, lda, pk, (double *)c[r], ldc, acc);
        else
            xlacrt_sgemm_packed(pool, ta, m, (const float *)a, lda, pk, (float *)c[r], ldc, acc);
    }
    int ok = memcmp(c[0], c[1], nc * es) == 0 && memcmp(c[0], c[2], nc * es) == 0;
    if (!ok)
        fprintf(stderr, "  packed %s m=%lld n=%lld k=%lld ta=%d tb=%d acc=%d pad=%d family after=%s differs\n",
                dbl ? "dgemm" : "sgemm", (long long)m, (long long)n, (long long)k, ta, tb, acc, pad,
                isa_after ? isa_after : "-");
    free(a);
    free(b);
    free(c0);
    for (int r = 0; r < 3; r++)
        free(c[r]);
    free(pk);
    return ok;
}

static void test_packed_b(xlacrt_pool *pool)
{
    int bad = 0;
    int64_t fixed[][3] = {{32, 512, 64}, {64, 97, 300}, {1, 33, 17}, {13, 1, 5}, {2, 64, 64},
                          {40, 31, 257}, {200, 70, 600}, {5, 3, 0}};
    for (int dbl = 0; dbl < 2; dbl++) {
        for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
            for (int t = 0; t < 4; t++)
                bad += !packed_case(pool, dbl, fixed[i][0], fixed[i][1], fixed[i][2], t & 1, t >> 1,
                                    (int)(i & 1), t == 3 ? 3 : 0, NULL);
        for (int r = 0; r < 60; r++)
            bad += !packed_case(pool, dbl, rand_int(1, 80), rand_int(1, 80), rand_int(0, 300),
                                (int)rand_int(0, 1), (int)rand_int(0, 1), (int)rand_int(0, 1),
                                (int)rand_int(0, 4), NULL);
    }
    CHECK_EQ_I(bad, 0);
}

/* A copy packed by one family, multiplied after another is selected. */
static void test_packed_b_family_change(void)
{
    const char *isas[] = {"c", "avx2", "avx512"};
    int bad = 0;
    for (int i = 0; i < 3; i++) {
        if (!xlacrt_gemm_set_isa(isas[i]))
            continue;
        for (int j = 0; j < 3; j++) {
            if (!xlacrt_gemm_set_isa(isas[i]))
                continue;
            bad += !packed_case(NULL, 0, 37, 45, 70, 0, 1, 0, 1, isas[j]);
            if (!xlacrt_gemm_set_isa(isas[i]))
                continue;
            bad += !packed_case(NULL, 1, 64, 20, 130, 1, 0, 1, 0, isas[j]);
        }
    }
    xlacrt_gemm_set_isa("best");
    CHECK_EQ_I(bad, 0);
}

/* Batched products equal single calls bit for bit, on both the
   one-product-per-chunk path (small) and the one-after-another path (big). */
static void test_batched(xlacrt_pool *pool)
{
    int64_t shapes[][4] = {{5, 7, 9, 11}, {3, 130, 140, 150}};
    for (size_t si = 0; si < 2; si++) {
        int64_t batch = shapes[si][0], m = shapes[si][1], n = shapes[si][2], k = shapes[si][3];
        int64_t sa = 0, sb = k * n + 3, sc = m * n + 5; /* A shared by all */
        float *a = malloc((size_t)(m * k) * sizeof *a);
        float *b = malloc((size_t)(batch * sb) * sizeof *b);
        float *c1 = malloc((size_t)(batch * sc) * sizeof *c1);
        float *c2 = malloc((size_t)(batch * sc) * sizeof *c2);
        double *ad = malloc((size_t)(m * k) * sizeof *ad);
        double *bd = malloc((size_t)(batch * sb) * sizeof *bd);
        double *d1 = malloc((size_t)(batch * sc) * sizeof *d1);
        double *d2 = malloc((size_t)(batch * sc) * sizeof *d2);
        for (int64_t i = 0; i < m * k; i++)
            ad[i] = a[i] = (float)rand_val();
        for (int64_t i = 0; i < batch * sb; i++)
            bd[i] = b[i] = (float)rand_val();
        for (int64_t i = 0; i < batch * sc; i++)
            d1[i] = d2[i] = c1[i] = c2[i] = (float)rand_val();
        xlacrt_sgemm_batched(pool, 0, 0, batch, m, n, k, a, k, sa, b, n, sb, c1, n, sc, 1);
        xlacrt_dgemm_batched(pool, 0, 0, batch, m, n, k, ad, k, sa, bd, n, sb, d1, n, sc, 1);
        for (int64_t i = 0; i < batch; i++) {
            xlacrt_sgemm(NULL, 0, 0, m, n, k, a, k, b + i * sb, n, c2 + i * sc, n, 1);
            xlacrt_dgemm(NULL, 0, 0, m, n, k, ad, k, bd + i * sb, n, d2 + i * sc, n, 1);
        }
        CHECK(memcmp(c1, c2, (size_t)(batch * sc) * sizeof *c1) == 0);
        CHECK(memcmp(d1, d2, (size_t)(batch * sc) * sizeof *d1) == 0);
        free(a);
        free(b);
        free(c1);
        free(c2);
        free(ad);
        free(bd);
        free(d1);
        free(d2);
    }
    xlacrt_sgemm_batched(pool, 0, 0, 0, 4, 4, 4, NULL, 4, 0, NULL, 4, 0, NULL, 4, 0, 0);
}

/* Half decoded the slow way, independently of the runtime. */
static float half_value(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    double v = exp ? ldexp(1.0 + man / 1024.0, exp - 15) : ldexp(man / 1024.0, -14);
    return (float)(sign ? -v : v);
}

static float bf16_value(uint16_t h)
{
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* 16-bit inputs give exactly what sgemm gives on the widened values, for
   every shape class (edges, transposes, padding, accumulation). */
static void test_gemm_16bit(xlacrt_pool *pool)
{
    int bad = 0;
    for (int r = 0; r < 60; r++) {
        shape s = make_shape(rand_int(1, 67), rand_int(1, 67), rand_int(0, 300),
                             (int)rand_int(0, 1), (int)rand_int(0, 1), (int)rand_int(0, 1),
                             (int)rand_int(0, 1));
        int half = r & 1;
        size_t na = (size_t)(rows_a(&s) * s.lda), nb = (size_t)(rows_b(&s) * s.ldb);
        size_t nc = (size_t)(s.m * s.ldc);
        uint16_t *a16 = malloc(na * 2 + 2), *b16 = malloc(nb * 2 + 2);
        float *a = malloc(na * 4 + 4), *b = malloc(nb * 4 + 4);
        float *c1 = malloc(nc * 4 + 4), *c2 = malloc(nc * 4 + 4);
        for (size_t i = 0; i < na + nb; i++) {
            uint16_t h;
            if (half) /* finite halves, subnormals and zeros included */
                h = (uint16_t)(next_u64() & 0xbfff);
            else /* bfloat16 of moderate magnitude */
                h = (uint16_t)(0x3c00 + (next_u64() & 0x7ff)) | (uint16_t)(next_u64() & 0x8000);
            float v = half ? half_value(h) : bf16_value(h);
            if (i < na) {
                a16[i] = h;
                a[i] = v;
            } else {
                b16[i - na] = h;
                b[i - na] = v;
            }
        }
        for (size_t i = 0; i < nc; i++)
            c1[i] = c2[i] = (float)rand_val();
        if (half)
            xlacrt_gemm_f16(pool, s.ta, s.tb, s.m, s.n, s.k, a16, s.lda, b16, s.ldb, c1, s.ldc,
                            s.acc);
        else
            xlacrt_gemm_bf16(pool, s.ta, s.tb, s.m, s.n, s.k, a16, s.lda, b16, s.ldb, c1, s.ldc,
                             s.acc);
        xlacrt_sgemm(pool, s.ta, s.tb, s.m, s.n, s.k, a, s.lda, b, s.ldb, c2, s.ldc, s.acc);
        if (memcmp(c1, c2, nc * 4) != 0) {
            bad++;
            fprintf(stderr, "  %s m=%lld n=%lld k=%lld ta=%d tb=%d acc=%d differs from sgemm\n",
                    half ? "f16" : "bf16", (long long)s.m, (long long)s.n, (long long)s.k, s.ta,
                    s.tb, s.acc);
        }
        free(a16);
        free(b16);
        free(a);
        free(b);
        free(c1);
        free(c2);
    }
    CHECK_EQ_I(bad, 0);
}

/* Every half, widened while packing: A is a column of 64 halves (k = 1),
   B a row of ones, so each column of C is A as floats: the exact value,
   subnormals, zeros and infinities included, and NaN for NaN. */
static void test_f16_all_values(xlacrt_pool *pool)
{
    uint16_t a[64], ones[16];
    float c[64 * 16];
    int bad = 0;
    for (int j = 0; j < 16; j++)
        ones[j] = 0x3c00;
    for (int base = 0; base < 65536; base += 64) {
        for (int i = 0; i < 64; i++)
            a[i] = (uint16_t)(base + i);
        xlacrt_gemm_f16(pool, 0, 0, 64, 16, 1, a, 1, ones, 16, c, 16, 0);
        for (int i = 0; i < 64; i++) {
            uint16_t h = a[i];
            int exp = (h >> 10) & 0x1f;
            float want = exp == 0x1f ? ((h & 0x3ff) ? NAN : (h >> 15) ? -INFINITY : INFINITY) : half_value(h);
            for (int j = 0; j < 16; j++) {
                float got = c[i * 16 + j];
                /* (a sum from zero: -0 comes out +0) */
                int ok = isnan(want) ? isnan(got) : want == 0 ? got == 0 : memcmp(&got, &want, sizeof got) == 0;
                if (!ok && bad++ < 5)
                    fprintf(stderr, "  half 0x%04x: got %a, want %a\n", h, (double)got, (double)want);
            }
        }
    }
    CHECK_EQ_I(bad, 0);
}

/* Strided batches of 16-bit products: each is what one call gives, for a
   batch spread over the pool (small products) and one split in turn. */
static void test_batched_bf16(xlacrt_pool *pool)
{
    int64_t shapes[][4] = {{7, 3, 5, 9}, {3, 96, 80, 300}};
    for (int t = 0; t < 2; t++) {
        int64_t batch = shapes[t][0], m = shapes[t][1], n = shapes[t][2], k = shapes[t][3];
        size_t na = (size_t)(batch * m * k), nb = (size_t)(batch * k * n), nc = (size_t)(batch * m * n);
        uint16_t *a = malloc(na * 2), *b = malloc(nb * 2);
        float *c1 = malloc(nc * 4), *c2 = malloc(nc * 4);
        for (size_t i = 0; i < na; i++)
            a[i] = (uint16_t)(0x3c00 + (next_u64() & 0x7ff)) | (uint16_t)(next_u64() & 0x8000);
        for (size_t i = 0; i < nb; i++)
            b[i] = (uint16_t)(0x3c00 + (next_u64() & 0x7ff)) | (uint16_t)(next_u64() & 0x8000);
        xlacrt_gemm_bf16_batched(pool, 0, 1, batch, m, n, k, a, k, m * k, b, k, k * n, c1, n, m * n, 0);
        for (int64_t i = 0; i < batch; i++)
            xlacrt_gemm_bf16(NULL, 0, 1, m, n, k, a + i * m * k, k, b + i * k * n, k, c2 + i * m * n, n, 0);
        CHECK(memcmp(c1, c2, nc * 4) == 0);
        CHECK(c1[nc - 1] != 0);
        /* the same bits as halves (values of magnitude 1 to 2) */
        xlacrt_gemm_f16_batched(pool, 0, 1, batch, m, n, k, a, k, m * k, b, k, k * n, c1, n, m * n, 0);
        for (int64_t i = 0; i < batch; i++)
            xlacrt_gemm_f16(NULL, 0, 1, m, n, k, a + i * m * k, k, b + i * k * n, k, c2 + i * m * n, n, 0);
        CHECK(memcmp(c1, c2, nc * 4) == 0);
        CHECK(c1[nc - 1] != 0);
        free(a);
        free(b);
        free(c1);
        free(c2);
    }
}

int main(void)
{
    test_pool();
    CHECK(!xlacrt_gemm_set_isa("no-such-isa"));
    xlacrt_pool *pool = xlacrt_pool_create(2);
    const char *isas[] = {"c", "avx2", "avx512"};
    for (int i = 0; i < 3; i++) {
        if (!xlacrt_gemm_set_isa(isas[i])) {
            printf("(kernel family %s not supported here; skipped)\n", isas[i]);
            continue;
        }
        test_gemm_shapes(isas[i], NULL);
        test_gemm_shapes(isas[i], pool);
        test_determinism();
        test_row_tiles(NULL);
        test_row_tiles(pool);
        test_packed_b(NULL);
        test_packed_b(pool);
        test_direct_b(NULL);
        test_direct_b(pool);
        test_direct_a(NULL);
        test_direct_a(pool);
        test_inline_b(NULL);
        test_inline_b(pool);
        test_batched(pool);
        test_gemm_16bit(pool);
        test_f16_all_values(pool);
        test_batched_bf16(pool);
    }
    test_packed_b_family_change();
    CHECK(xlacrt_gemm_set_isa("best"));
    xlacrt_pool_destroy(pool);
    TEST_SUMMARY();
}
