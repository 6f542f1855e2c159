/* test_runtime_amx.c - the tile kernels on every host, through the C
 * emulation of the AMX instructions (runtime/gemm_amx.c), and the int8
 * products on every kernel family this CPU has.
 *
 * First the emulated instructions themselves: configured rows and bytes
 * per row (loads zero the rest, stores write only them), the bfloat16 dot
 * product (exact for small integers; bfloat16 denormal inputs read as
 * zero, denormal results flushed) and the four byte forms (exact, against
 * naive sums).  Then bfloat16 and int8 GEMMs through the emulated tiles,
 * against naive references (tile_gemm_cases.h), the same bits on pools of
 * 1 and 3; bfloat16 on the emulated tiles against the float path within
 * twice the rounding bound; and in IEEE mode (denormals kept) bfloat16 off
 * the tiles.  Where the host has AVX-512 BF16, bfloat16 on vdpbf16ps
 * too (the tiles' layout and denormal rules).  test_runtime_amx_hw runs the same products on
 * the real instructions where the host has them. */
#include "tile_gemm_cases.h"
#include "gemm_impl.h"

static void config(int rows, int colsb)
{
    uint8_t cfg[64] = {0};
    cfg[0] = 1;
    for (int t = 0; t < 8; t++) {
        cfg[16 + 2 * t] = (uint8_t)colsb;
        cfg[48 + t] = (uint8_t)rows;
    }
    rt_emu_ldtilecfg(cfg);
}

static void test_load_store(void)
{
    uint8_t src[20 * 100], dst[20 * 100];
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (uint8_t)(i * 7 + 1);
    config(5, 24);
    rt_emu_tileloadd(2, src, 100);
    memset(dst, 0xaa, sizeof dst);
    rt_emu_tilestored(2, dst, 100);
    int bad = 0;
    for (int r = 0; r < 20; r++)
        for (int j = 0; j < 100; j++)
            bad += dst[r * 100 + j] != (r < 5 && j < 24 ? src[r * 100 + j] : 0xaa);
    CHECK_EQ_I(bad, 0);
    /* a tile configured 16 x 64, loaded from one configured 5 x 24: the
       rest reads as zero */
    config(16, 64);
    rt_emu_tileloadd(3, src, 100);
    config(5, 24);
    rt_emu_tileloadd(3, src, 100);
    config(16, 64);
    rt_emu_tilezero(4);
    memset(dst, 0xaa, sizeof dst);
    rt_emu_tilestored(4, dst, 64);
    bad = 0;
    for (int i = 0; i < 16 * 64; i++)
        bad += dst[i] != 0;
    CHECK_EQ_I(bad, 0);
    rt_emu_tilerelease();
}

static uint16_t bf(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16);
}

/* A (16 x 32 bfloat16) times B (16 pairs x 16 columns) on tiles, small
   integers: every sum exact. */
static void test_dpbf16(void)
{
    config(16, 64);
    uint16_t a[16][32], b[16][32];
    float c[16][16], want[16][16];
    for (int m = 0; m < 16; m++)
        for (int k = 0; k < 32; k++)
            a[m][k] = bf((float)tg_int(-8, 8));
    for (int k = 0; k < 16; k++)
        for (int j = 0; j < 32; j++)
            b[k][j] = bf((float)tg_int(-8, 8));
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 16; n++) {
            c[m][n] = (float)(m - n);
            want[m][n] = c[m][n];
            for (int k = 0; k < 32; k++)
                want[m][n] += (float)(tg_bf16_val(a[m][k]) * tg_bf16_val(b[k / 2][2 * n + k % 2]));
        }
    rt_emu_tileloadd(0, c, 64);
    rt_emu_tileloadd(1, a, 64);
    rt_emu_tileloadd(2, b, 64);
    rt_emu_tdpbf16ps(0, 1, 2);
    rt_emu_tilestored(0, c, 64);
    CHECK(memcmp(c, want, sizeof c) == 0);

    /* a denormal input reads as zero: 2^-133 x 2^120 would be 2^-13 */
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    memset(c, 0, sizeof c);
    a[0][0] = 0x0001;
    b[0][0] = bf(0x1p120f);
    a[1][0] = bf(0x1p-126f); /* the smallest normal: read as it is */
    a[2][1] = bf(0x1p-126f); /* times 0.5: a denormal result, flushed */
    b[0][1] = bf(0.5f);
    a[3][0] = bf(3.0f);
    rt_emu_tileloadd(0, c, 64);
    rt_emu_tileloadd(1, a, 64);
    rt_emu_tileloadd(2, b, 64);
    rt_emu_tdpbf16ps(0, 1, 2);
    rt_emu_tilestored(0, c, 64);
    CHECK_EQ_F(c[0][0], 0.0);
    CHECK_EQ_F(c[1][0], 0x1p-6);
    CHECK_EQ_F(c[2][0], 0.0);
    CHECK_EQ_F(c[3][0], 0x1.8p121);
    rt_emu_tilerelease();
}

/* The byte forms against naive sums, with accumulators near the wrap. */
static void test_dpb(void)
{
    typedef void (*dp_fn)(int, int, int);
    static const dp_fn fns[4] = {rt_emu_tdpbssd, rt_emu_tdpbsud, rt_emu_tdpbusd, rt_emu_tdpbuud};
    config(16, 64);
    int bad = 0;
    for (int f = 0; f < 4; f++) {
        int as = f < 2, bs = f == 0 || f == 2;
        uint8_t a[16][64], b[16][64];
        uint32_t c[16][16], want[16][16];
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 64; j++) {
                a[i][j] = (uint8_t)tg_next();
                b[i][j] = (uint8_t)tg_next();
            }
        for (int m = 0; m < 16; m++)
            for (int n = 0; n < 16; n++) {
                c[m][n] = 0x7fffff00u + (uint32_t)tg_int(0, 512);
                want[m][n] = c[m][n];
                for (int k = 0; k < 64; k++) {
                    int x = as ? (int8_t)a[m][k] : a[m][k], y = bs ? (int8_t)b[k / 4][4 * n + k % 4] : b[k / 4][4 * n + k % 4];
                    want[m][n] += (uint32_t)(x * y);
                }
            }
        rt_emu_tileloadd(5, c, 64);
        rt_emu_tileloadd(6, a, 64);
        rt_emu_tileloadd(7, b, 64);
        fns[f](5, 6, 7);
        rt_emu_tilestored(5, c, 64);
        bad += memcmp(c, want, sizeof c) != 0;
    }
    CHECK_EQ_I(bad, 0);
    rt_emu_tilerelease();
}

/* bfloat16 on emulated tiles (or on the family isa names) against the
   float path: within twice the bound each keeps to the exact sum. */
static void test_against_f32_path(const char *isa)
{
    int64_t m = 45, n = 70, k = 300;
    uint16_t *a = malloc((size_t)(m * k) * 2), *b = malloc((size_t)(k * n) * 2);
    float *c1 = malloc((size_t)(m * n) * 4), *c2 = malloc((size_t)(m * n) * 4);
    if (!a || !b || !c1 || !c2) {
        CHECK(0);
        goto out;
    }
    for (int64_t i = 0; i < m * k; i++)
        a[i] = tg_bf16();
    for (int64_t i = 0; i < k * n; i++)
        b[i] = tg_bf16();
    CHECK(xlacrt_gemm_set_isa(isa));
    xlacrt_gemm_bf16(NULL, 0, 0, m, n, k, a, k, b, n, c1, n, 0);
    CHECK(xlacrt_gemm_set_isa("c"));
    xlacrt_gemm_bf16(NULL, 0, 0, m, n, k, a, k, b, n, c2, n, 0);
    int bad = 0, differ = 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double mag = 0;
            for (int64_t q = 0; q < k; q++)
                mag += fabs(tg_bf16_val(a[i * k + q]) * tg_bf16_val(b[q * n + j]));
            double d = fabs((double)c1[i * n + j] - (double)c2[i * n + j]);
            bad += !(d <= 2.0 * (double)(k + 1) * 0x1p-24 * mag);
            differ += d != 0;
        }
    CHECK_EQ_I(bad, 0);
    printf("bf16 on %s vs the float path: %d of %lld elements differ\n", isa, differ, (long long)(m * n));
out:
    xlacrt_gemm_set_isa("best");
    free(a);
    free(b);
    free(c1);
    free(c2);
}

/* In IEEE mode (denormals kept) bfloat16 products do not use tiles: a
   denormal input counts, and the bits are the float path's. */
static void test_ieee_mode(void)
{
    tg_flush_denormals(0);
    uint16_t a[3 * 40], b[40 * 5];
    float c1[15], c2[15];
    for (int i = 0; i < 3 * 40; i++)
        a[i] = tg_bf16();
    for (int i = 0; i < 40 * 5; i++)
        b[i] = tg_bf16();
    a[0] = 0x0001; /* 2^-133 */
    b[0] = bf(0x1p120f);
    for (int i = 1; i < 40; i++)
        a[i] = 0;
    CHECK(xlacrt_gemm_set_isa("best"));
    xlacrt_gemm_bf16(NULL, 0, 0, 3, 5, 40, a, 40, b, 5, c2, 5, 0);
    CHECK(xlacrt_gemm_set_isa("amx-emulated"));
    xlacrt_gemm_bf16(NULL, 0, 0, 3, 5, 40, a, 40, b, 5, c1, 5, 0);
    CHECK_EQ_F(c1[0], 0x1p-13);
    CHECK(memcmp(c1, c2, sizeof c1) == 0);
    if (!tg_flush_denormals(1)) {
        printf("(denormals cannot be flushed here: bfloat16 products stay off the tiles)\n");
        return;
    }
    xlacrt_gemm_bf16(NULL, 0, 0, 3, 5, 40, a, 40, b, 5, c1, 5, 0);
    CHECK_EQ_F(c1[0], 0.0);
}

int main(void)
{
    test_load_store();
    test_dpbf16();
    test_dpb();
    xlacrt_pool *p1 = xlacrt_pool_create(1), *p3 = xlacrt_pool_create(3);
    CHECK(p1 && p3);
    test_ieee_mode();
    tg_flush_denormals(1);
    CHECK(xlacrt_gemm_set_isa("amx-emulated"));
    CHECK_STR(xlacrt_gemm_isa(), "amx-emulated");
    CHECK_STR(xlacrt_gemm_s8_isa(), "amx-emulated");
    tg_run_all(p3, p1, 80, 30);
    test_against_f32_path("amx-emulated");
    /* the other families this CPU has, with denormals flushed: int8 on
       VNNI or C, bfloat16 on the float kernels (test_runtime_gemm's) or
       on AVX-512 BF16's vdpbf16ps */
    static const char *const isas[] = {"c", "avx2", "avx512", "avx512bf16"};
    for (int i = 0; i < 4; i++) {
        if (!xlacrt_gemm_set_isa(isas[i])) {
            printf("(kernel family %s not supported here; skipped)\n", isas[i]);
            continue;
        }
        printf("on %s: bfloat16 %s, int8 %s\n", isas[i], xlacrt_gemm_bf16_isa(), xlacrt_gemm_s8_isa());
        tg_run_all(p3, p1, 100, 30);
        tg_shape big = tg_make(300, 200, 1500, 1, 0, 1, 1);
        CHECK(tg_s8_case(p3, p1, &big, 0));
        if (!strcmp(isas[i], "avx512bf16")) {
            CHECK_STR(xlacrt_gemm_bf16_isa(), "avx512bf16");
            /* k past one block of the family (1024): C carried over */
            tg_shape deep = tg_make(70, 45, 2100, 0, 1, 0, 1);
            CHECK(tg_bf16_case(p3, p1, &deep));
            test_against_f32_path("avx512bf16");
        }
    }
    printf("AMX on this host: %s\n", xlacrt_amx_status());
    xlacrt_gemm_set_isa("best");
    xlacrt_pool_destroy(p1);
    xlacrt_pool_destroy(p3);
    TEST_SUMMARY();
}
