/*
 * gemm_amx.c - matrix products on 16 x 64-byte tiles: bfloat16 (f32 sums)
 * on AMX where the host has it, or on AVX-512 BF16 (both while denormals
 * are flushed: see gemm.c), and int8 (s32 sums) on AMX, on AVX-512 VNNI,
 * or in portable C.
 *
 * Both operands are packed into the layout the tile dot-product
 * instructions read.  A step is 64 bytes of k (32 bfloat16 or 64 int8
 * values).  A is packed per chunk, k block by k block, as panels of 32
 * rows; within a panel, each step is two tiles (rows 0-15, then 16-31) of
 * 16 rows x 64 bytes, i.e. the rows' values for that step.  B is packed
 * once per call as panels of 32 columns over all of k; within a panel each
 * step is two tiles (columns 0-15, then 16-31) whose row r holds, for each
 * of the 16 columns, the 2 (bfloat16) or 4 (int8) consecutive values of k
 * starting at 2r or 4r: the pairs and quads tdpbf16ps and tdpbssd (and
 * vpdpbusd) multiply and add.  Ragged edges are padded with zeros.
 *
 * The product is a grid of chunks (row blocks of TILE_MC by column blocks)
 * run on the pool; each chunk walks k in blocks of TILE_KC_BYTES and for
 * each block adds A block x B block into C (32 x 32 at a time), starting
 * from C itself after the first block.  Where a chunk's blocks fall never
 * changes a sum's order, so results are bit-identical for any pool size.
 *
 * The tile kernels are in gemm_tiles.h, compiled twice: with the AMX
 * instructions (inline assembly, so nothing else in the library needs
 * them, and no compiler flags) and with a C emulation of them that follows the
 * instructions' documented semantics (Intel SDM pseudocode: tdpbf16ps
 * treats bfloat16 denormal inputs as zero, rounds each addition to nearest
 * even and flushes denormal results to zero; the integer forms wrap).
 * Tests run the emulated kernels on every host; the real ones where the
 * CPU and the OS allow AMX.
 *
 * Using AMX takes (rt_amx_usable): CPUID leaf 7 EDX bits 24 (AMX-TILE), 22
 * (AMX-BF16) and 25 (AMX-INT8) and the OS enabling tile state (XCR0 bits 17
 * and 18), as xlacrt_cpu_has reads them; and, on Linux, permission for the tile data
 * state, asked for once with arch_prctl(ARCH_REQ_XCOMP_PERM,
 * XFEATURE_XTILEDATA).  That permission belongs to the process (all its
 * threads, those made before the request included, as the pool's may be),
 * so the first thread's request covers them.  When any step fails, or
 * XLAC_AMX=0 is set, the products use the other kernels.
 */
#include "xlacrt.h"
#include "gemm_impl.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* ---------------------------------------------------------------------- */
/* the host                                                               */

static pthread_once_t amx_once = PTHREAD_ONCE_INIT;
static int amx_ok;
static char amx_why[160];


enum { ARCH_GET_XCOMP_PERM_ = 0x1022, ARCH_REQ_XCOMP_PERM_ = 0x1023, XFEATURE_XTILEDATA_ = 18 };

static void amx_probe(void)
{
    const char *env = getenv("XLAC_AMX");
    if (env && !strcmp(env, "0")) {
        snprintf(amx_why, sizeof amx_why, "off (XLAC_AMX=0)");
        return;
    }
#if defined(__x86_64__)
    /* CPUID's bits, and XCR0's tile state (cpu_features.c) */
    int tile = xlacrt_cpu_has("amx-tile") == 1, bf16 = xlacrt_cpu_has("amx-bf16") == 1;
    int int8 = xlacrt_cpu_has("amx-int8") == 1;
    if (!tile || !bf16 || !int8) {
        snprintf(amx_why, sizeof amx_why, "off (CPUID or the OS's tile state lacks%s%s%s)", tile ? "" : " AMX-TILE",
                 bf16 ? "" : " AMX-BF16", int8 ? "" : " AMX-INT8");
        return;
    }
#if defined(__linux__)
    if (syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM_, XFEATURE_XTILEDATA_) != 0) {
        snprintf(amx_why, sizeof amx_why, "off (Linux refused tile data: %s)", strerror(errno));
        return;
    }
    uint64_t perm = 0;
    if (syscall(SYS_arch_prctl, ARCH_GET_XCOMP_PERM_, &perm) != 0 || !(perm >> XFEATURE_XTILEDATA_ & 1)) {
        snprintf(amx_why, sizeof amx_why, "off (Linux did not grant tile data)");
        return;
    }
    amx_ok = 1;
    snprintf(amx_why, sizeof amx_why, "on");
#else
    snprintf(amx_why, sizeof amx_why, "off (tile data permission is only asked for on Linux)");
#endif
#else
    snprintf(amx_why, sizeof amx_why, "off (not an x86-64 CPU)");
#endif
}

int rt_amx_usable(void)
{
    pthread_once(&amx_once, amx_probe);
    return amx_ok;
}

const char *xlacrt_amx_status(void)
{
    pthread_once(&amx_once, amx_probe);
    return amx_why;
}

/* Where a block's A panel is: packed (steps of 2048 bytes, the second
   16 rows 1024 bytes after the first, rows 64 bytes apart) or, for the
   tile kernels, A itself (steps of 64 bytes, the second 16 rows 16 rows
   of A further, rows lda apart). */
typedef struct {
    int64_t step, half, ld;
} tile_a;
static const tile_a a_packed = {2048, 1024, 64};

/* ---------------------------------------------------------------------- */
/* the tile configuration                                                 */

/* Palette 1, every one of the 8 tiles 16 rows of 64 bytes: bytes 16-31
   are the tiles' bytes per row (16-bit), bytes 48-55 their rows. */
static void tile_config_16x64(uint8_t cfg[64])
{
    memset(cfg, 0, 64);
    cfg[0] = 1;
    for (int t = 0; t < 8; t++) {
        cfg[16 + 2 * t] = 64;
        cfg[48 + t] = 16;
    }
}

/* ---------------------------------------------------------------------- */
/* the tile instructions, emulated                                        */

/* A thread's tile registers (tiles are per-thread state, as in hardware). */
typedef struct {
    int palette;
    uint16_t colsb[8];
    uint8_t rows[8];
    _Alignas(64) uint8_t t[8][16][64];
} emu_tiles;
static _Thread_local emu_tiles emu;

static float emu_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint32_t emu_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Denormals to signed zero (the instruction's DAZ on inputs, FTZ on results). */
static float emu_flush(float f)
{
    uint32_t u = emu_bits(f);
    return (u & 0x7f800000u) == 0 ? emu_f32(u & 0x80000000u) : f;
}

void rt_emu_ldtilecfg(const void *cfgv)
{
    const uint8_t *cfg = cfgv;
    memset(&emu, 0, sizeof emu);
    emu.palette = cfg[0];
    for (int t = 0; t < 8; t++) {
        emu.colsb[t] = (uint16_t)(cfg[16 + 2 * t] | cfg[17 + 2 * t] << 8);
        emu.rows[t] = cfg[48 + t];
        if (emu.colsb[t] > 64)
            emu.colsb[t] = 64;
        if (emu.rows[t] > 16)
            emu.rows[t] = 16;
    }
}

void rt_emu_tilerelease(void) { memset(&emu, 0, sizeof emu); }

void rt_emu_tilezero(int t) { memset(emu.t[t], 0, sizeof emu.t[t]); }

/* Rows past the configured ones, and bytes past colsb, read as zero. */
void rt_emu_tileloadd(int t, const void *base, int64_t stride)
{
    memset(emu.t[t], 0, sizeof emu.t[t]);
    for (int r = 0; r < emu.rows[t]; r++)
        memcpy(emu.t[t][r], (const uint8_t *)base + r * stride, emu.colsb[t]);
}

void rt_emu_tilestored(int t, void *base, int64_t stride)
{
    for (int r = 0; r < emu.rows[t]; r++)
        memcpy((uint8_t *)base + r * stride, emu.t[t][r], emu.colsb[t]);
}

/* dst.f32[m][n] += a.bf16[m][2k] * b.bf16[k][2n] then += a.bf16[m][2k+1] *
   b.bf16[k][2n+1], over k < a.colsb / 4: each product exact (a bfloat16
   product fits in a float's significand), each addition rounded. */
void rt_emu_tdpbf16ps(int d, int a, int b)
{
    for (int m = 0; m < emu.rows[d]; m++)
        for (int n = 0; n < emu.colsb[d] / 4; n++) {
            float acc;
            memcpy(&acc, &emu.t[d][m][4 * n], 4);
            for (int k = 0; k < emu.colsb[a] / 4; k++)
                for (int e = 0; e < 2; e++) {
                    uint16_t x, y;
                    memcpy(&x, &emu.t[a][m][4 * k + 2 * e], 2);
                    memcpy(&y, &emu.t[b][k][4 * n + 2 * e], 2);
                    float p = emu_flush(emu_flush(emu_f32((uint32_t)x << 16)) * emu_flush(emu_f32((uint32_t)y << 16)));
                    acc = emu_flush(acc + p);
                }
            memcpy(&emu.t[d][m][4 * n], &acc, 4);
        }
}

/* The four byte forms: dst.s32[m][n] += the four products of bytes 4k..4k+3
   of a's row m and of b's row k at column n (signed or unsigned each),
   wrapping. */
static void emu_tdpb(int d, int a, int b, int a_signed, int b_signed)
{
    for (int m = 0; m < emu.rows[d]; m++)
        for (int n = 0; n < emu.colsb[d] / 4; n++) {
            uint32_t acc;
            memcpy(&acc, &emu.t[d][m][4 * n], 4);
            for (int k = 0; k < emu.colsb[a] / 4; k++)
                for (int e = 0; e < 4; e++) {
                    uint8_t x = emu.t[a][m][4 * k + e], y = emu.t[b][k][4 * n + e];
                    int32_t xv = a_signed ? (int8_t)x : x, yv = b_signed ? (int8_t)y : y;
                    acc += (uint32_t)(xv * yv);
                }
            memcpy(&emu.t[d][m][4 * n], &acc, 4);
        }
}

void rt_emu_tdpbssd(int d, int a, int b) { emu_tdpb(d, a, b, 1, 1); }
void rt_emu_tdpbsud(int d, int a, int b) { emu_tdpb(d, a, b, 1, 0); }
void rt_emu_tdpbusd(int d, int a, int b) { emu_tdpb(d, a, b, 0, 1); }
void rt_emu_tdpbuud(int d, int a, int b) { emu_tdpb(d, a, b, 0, 0); }

/* ---------------------------------------------------------------------- */
/* the kernels: emulated tiles                                            */

#define TL_NAME(x) emu_##x
#define TL_ATTR
#define TL_CONFIG(cfg) rt_emu_ldtilecfg(cfg)
#define TL_ZERO(t) rt_emu_tilezero(t)
#define TL_LOAD(t, p, s) rt_emu_tileloadd(t, p, s)
#define TL_STORE(t, p, s) rt_emu_tilestored(t, p, s)
#define TL_DPBF16(d, a, b) rt_emu_tdpbf16ps(d, a, b)
#define TL_DPBSSD(d, a, b) rt_emu_tdpbssd(d, a, b)
#define TL_RELEASE() rt_emu_tilerelease()
#include "gemm_tiles.h"

#if defined(__x86_64__)
/* ---------------------------------------------------------------------- */
/* the kernels: AMX                                                       */

/* The instructions as inline assembly rather than GCC's intrinsics, which
   tell the compiler that ldtilecfg reads 8 bytes of its 64 and that
   tileloadd reads no memory at all: the stores that fill a configuration
   or a buffer a tile is loaded from could then be dropped or moved past
   the instruction.  Every one here may read and write memory, so none
   needs a target attribute either (the assembler knows them; binutils
   2.36 and later, LLVM 12 and later). */
#define TL_NAME(x) amx_##x
#define TL_ATTR
#define TL_CONFIG(cfg) __asm__ volatile("ldtilecfg (%0)" ::"r"(cfg) : "memory")
#define TL_ZERO(t) __asm__ volatile("tilezero %%tmm" #t ::: "memory")
#define TL_LOAD(t, p, s) __asm__ volatile("tileloadd (%0,%1,1), %%tmm" #t ::"r"(p), "r"((int64_t)(s)) : "memory")
#define TL_STORE(t, p, s) __asm__ volatile("tilestored %%tmm" #t ", (%0,%1,1)" ::"r"(p), "r"((int64_t)(s)) : "memory")
#define TL_DPBF16(d, a, b) __asm__ volatile("tdpbf16ps %%tmm" #b ", %%tmm" #a ", %%tmm" #d ::: "memory")
#define TL_DPBSSD(d, a, b) __asm__ volatile("tdpbssd %%tmm" #b ", %%tmm" #a ", %%tmm" #d ::: "memory")
#define TL_RELEASE() __asm__ volatile("tilerelease" ::: "memory")
#include "gemm_tiles.h"

/* ---------------------------------------------------------------------- */
/* int8 on AVX-512 VNNI                                                   */

/* vpdpbusd multiplies unsigned bytes by signed ones, so A is packed with
   its sign bits flipped (a + 128) and the products' excess, 128 times each
   column's sum of B, is taken off once (corr, at the first k block): all
   of it modulo 2^32, as the wrapping s32 sums are. */
#define TARGET_VNNI __attribute__((target("avx512f,avx512bw,avx512vnni")))
#define VROWS8(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#define VROWS12(X) VROWS8(X) X(8) X(9) X(10) X(11)
#define V_INIT(r)                                                                             \
    __m512i c##r##0 = init0, c##r##1 = init1;                                                 \
    if (load_c && r0 + r < mv) {                                                              \
        c##r##0 = _mm512_add_epi32(c##r##0, _mm512_maskz_loadu_epi32(m0, c + (r0 + r) * ldc)); \
        c##r##1 = _mm512_add_epi32(c##r##1, _mm512_maskz_loadu_epi32(m1, c + (r0 + r) * ldc + 16)); \
    }
#define V_ROW(r)                                                                              \
    {                                                                                         \
        int32_t av;                                                                           \
        memcpy(&av, as + (r) * 64 + 4 * q, 4);                                                \
        __m512i x = _mm512_set1_epi32(av);                                                    \
        c##r##0 = _mm512_dpbusd_epi32(c##r##0, x, b0);                                        \
        c##r##1 = _mm512_dpbusd_epi32(c##r##1, x, b1);                                        \
    }
#define V_STORE(r)                                                                            \
    if (r0 + r < mv) {                                                                        \
        _mm512_mask_storeu_epi32(c + (r0 + r) * ldc, m0, c##r##0);                            \
        _mm512_mask_storeu_epi32(c + (r0 + r) * ldc + 16, m1, c##r##1);                       \
    }

/* Rows r0.. (12 or 8 of them) x 32 columns of the block: 24 or 16
   accumulators.  Row r of a panel's step is at r * 64 (the two tiles of
   16 rows follow each other). */
#define DEFINE_VNNI_ROWS(NAME, ROWS)                                                          \
    static TARGET_VNNI void NAME(int64_t nsteps, const uint8_t *ap, const uint8_t *bp, int32_t *c, \
                                 int64_t ldc, int r0, int mv, __mmask16 m0, __mmask16 m1,     \
                                 int load_c, __m512i init0, __m512i init1)                    \
    {                                                                                         \
        ROWS(V_INIT)                                                                          \
        for (int64_t s = 0; s < nsteps; s++) {                                                \
            const uint8_t *as = ap + s * 2048 + r0 * 64, *bs = bp + s * 2048;                 \
            _Pragma("GCC unroll 4") for (int q = 0; q < 16; q++)                              \
            {                                                                                 \
                __m512i b0 = _mm512_loadu_si512(bs + q * 64);                                 \
                __m512i b1 = _mm512_loadu_si512(bs + 1024 + q * 64);                          \
                ROWS(V_ROW)                                                                   \
            }                                                                                 \
        }                                                                                     \
        ROWS(V_STORE)                                                                         \
    }
DEFINE_VNNI_ROWS(vnni_rows12, VROWS12)
DEFINE_VNNI_ROWS(vnni_rows8, VROWS8)

static TARGET_VNNI void vnni_block(int64_t nsteps, const uint8_t *ap, const tile_a *a, const uint8_t *bp, void *cv,
                                   int64_t ldc_bytes, int mv, int nv, int load_c, int s8, const int32_t *corr)
{
    (void)s8;
    (void)a; /* always packed */
    __mmask16 m0 = nv >= 16 ? 0xffff : (__mmask16)((1u << nv) - 1);
    __mmask16 m1 = nv >= 32 ? 0xffff : nv <= 16 ? 0 : (__mmask16)((1u << (nv - 16)) - 1);
    __m512i init0 = corr ? _mm512_maskz_loadu_epi32(m0, corr) : _mm512_setzero_si512();
    __m512i init1 = corr ? _mm512_maskz_loadu_epi32(m1, corr + 16) : _mm512_setzero_si512();
    /* 32 rows as 12 + 12 + 8 */
    for (int r0 = 0; r0 < mv; r0 += 12) {
        if (r0 < 24)
            vnni_rows12(nsteps, ap, bp, cv, ldc_bytes / 4, r0, mv, m0, m1, load_c, init0, init1);
        else
            vnni_rows8(nsteps, ap, bp, cv, ldc_bytes / 4, r0, mv, m0, m1, load_c, init0, init1);
    }
}

/* ---------------------------------------------------------------------- */
/* bfloat16 on AVX-512 BF16                                               */

/* vdpbf16ps adds, to each float of a vector, two products of bfloat16
   pairs: a broadcast pair of A's row (k, k + 1) by B's 16 columns' pairs,
   the layout the tiles read.  Like the tile instruction it reads bfloat16
   denormals as zero and flushes denormal sums (whatever MXCSR says), so it
   serves only callers that flush denormals.  Rows r0.. (12 or 8) x 32
   columns: 24 or 16 accumulators, B's two vectors loaded once per pair
   of k for all the rows. */
#define TARGET_BF16DOT __attribute__((target("avx512f,avx512bw,avx512bf16")))
#define D_INIT(r)                                                                             \
    __m512 c##r##0 = _mm512_setzero_ps(), c##r##1 = _mm512_setzero_ps();                      \
    if (load_c && r0 + r < mv) {                                                              \
        c##r##0 = _mm512_maskz_loadu_ps(m0, c + (r0 + r) * ldc);                              \
        c##r##1 = _mm512_maskz_loadu_ps(m1, c + (r0 + r) * ldc + 16);                         \
    }
#define D_ROW(r)                                                                              \
    {                                                                                         \
        int32_t av;                                                                           \
        memcpy(&av, as + (r) * 64 + 4 * q, 4);                                                \
        __m512bh x = (__m512bh)_mm512_set1_epi32(av);                                         \
        c##r##0 = _mm512_dpbf16_ps(c##r##0, x, b0);                                           \
        c##r##1 = _mm512_dpbf16_ps(c##r##1, x, b1);                                           \
    }
#define D_STORE(r)                                                                            \
    if (r0 + r < mv) {                                                                        \
        _mm512_mask_storeu_ps(c + (r0 + r) * ldc, m0, c##r##0);                               \
        _mm512_mask_storeu_ps(c + (r0 + r) * ldc + 16, m1, c##r##1);                          \
    }
#define DEFINE_BF16DOT_ROWS(NAME, ROWS)                                                       \
    static TARGET_BF16DOT void NAME(int64_t nsteps, const uint8_t *ap, const uint8_t *bp, float *c, \
                                    int64_t ldc, int r0, int mv, __mmask16 m0, __mmask16 m1, int load_c) \
    {                                                                                         \
        ROWS(D_INIT)                                                                          \
        for (int64_t s = 0; s < nsteps; s++) {                                                \
            const uint8_t *as = ap + s * 2048 + r0 * 64, *bs = bp + s * 2048;                 \
            _Pragma("GCC unroll 4") for (int q = 0; q < 16; q++)                              \
            {                                                                                 \
                __m512bh b0 = (__m512bh)_mm512_loadu_si512(bs + q * 64);                      \
                __m512bh b1 = (__m512bh)_mm512_loadu_si512(bs + 1024 + q * 64);               \
                ROWS(D_ROW)                                                                   \
            }                                                                                 \
        }                                                                                     \
        ROWS(D_STORE)                                                                         \
    }
DEFINE_BF16DOT_ROWS(bf16dot_rows12, VROWS12)
DEFINE_BF16DOT_ROWS(bf16dot_rows8, VROWS8)

static TARGET_BF16DOT void bf16dot_block(int64_t nsteps, const uint8_t *ap, const tile_a *a, const uint8_t *bp,
                                         void *cv, int64_t ldc_bytes, int mv, int nv, int load_c, int s8,
                                         const int32_t *corr)
{
    (void)s8;
    (void)a; /* always packed */
    (void)corr;
    __mmask16 m0 = nv >= 16 ? 0xffff : (__mmask16)((1u << nv) - 1);
    __mmask16 m1 = nv >= 32 ? 0xffff : nv <= 16 ? 0 : (__mmask16)((1u << (nv - 16)) - 1);
    for (int r0 = 0; r0 < mv; r0 += 12) {
        if (r0 < 24)
            bf16dot_rows12(nsteps, ap, bp, cv, ldc_bytes / 4, r0, mv, m0, m1, load_c);
        else
            bf16dot_rows8(nsteps, ap, bp, cv, ldc_bytes / 4, r0, mv, m0, m1, load_c);
    }
}

#endif /* __x86_64__ */

/* ---------------------------------------------------------------------- */
/* int8 in portable C                                                     */

static void c_block(int64_t nsteps, const uint8_t *ap, const tile_a *a, const uint8_t *bp, void *cv, int64_t ldc_bytes,
                    int mv, int nv, int load_c, int s8, const int32_t *corr)
{
    (void)s8;
    (void)a; /* always packed */
    (void)corr;
    uint8_t *c = cv;
    uint32_t acc[32][32];
    memset(acc, 0, sizeof acc);
    if (load_c)
        for (int r = 0; r < mv; r++)
            memcpy(acc[r], c + r * ldc_bytes, (size_t)nv * 4);
    for (int64_t s = 0; s < nsteps; s++, ap += 2048, bp += 2048)
        for (int r = 0; r < mv; r++) {
            const int8_t *ar = (const int8_t *)ap + (r / 16) * 1024 + (r % 16) * 64;
            for (int q = 0; q < 16; q++)
                for (int h = 0; h < 2; h++) {
                    const int8_t *bq = (const int8_t *)bp + h * 1024 + q * 64;
                    for (int j = 0; j < 16; j++) {
                        int32_t sum = 0;
                        for (int e = 0; e < 4; e++)
                            sum += ar[4 * q + e] * bq[4 * j + e];
                        acc[r][h * 16 + j] += (uint32_t)sum;
                    }
                }
        }
    for (int r = 0; r < mv; r++)
        memcpy(c + r * ldc_bytes, acc[r], (size_t)nv * 4);
}

/* ---------------------------------------------------------------------- */
/* kernel families                                                        */

typedef void (*tile_block_fn)(int64_t nsteps, const uint8_t *ap, const tile_a *a, const uint8_t *bp, void *c,
                              int64_t ldc, int mv, int nv, int load_c, int s8, const int32_t *corr);
typedef struct {
    tile_block_fn block;
    void (*begin)(void), (*end)(void); /* around each chunk's blocks */
    int a_unsigned;                    /* A packed as a + 128, corrected by B's column sums */
    int kc_bytes;                      /* bytes of k per block (a multiple of 64) */
    int a_in_place;                    /* reads whole 32-row panels of a row-major A where it is */
} tile_family;

/* k blocks: on tiles, an A panel's block (32 rows) and a B panel's (32
   columns) of 1 KiB of k are 32 KiB each, the B panel's in L1 while the A
   panels come from L2 through tile loads; the VNNI kernel reads B once
   per 8 rows, so a block of both panels (16 KiB) stays in L1.  The
   bfloat16 one is bound by C's traffic (loaded and stored once a k block,
   a chunk's C larger than L2) rather than by its panels' place: measured
   at 2048^3 on Zen 4, 256 bytes of k a block gave 150 GFLOP/s, 1 KiB 180,
   2 KiB 200. */
static const tile_family fam_emu = {emu_block, emu_begin, emu_end, 0, 1024, 1};
#if defined(__x86_64__)
static const tile_family fam_amx = {amx_block, amx_begin, amx_end, 0, 1024, 1};
static const tile_family fam_vnni = {vnni_block, NULL, NULL, 1, 256, 0};
static const tile_family fam_bf16dot = {bf16dot_block, NULL, NULL, 0, 2048, 0};
#endif
static const tile_family fam_c = {c_block, NULL, NULL, 0, 256, 0};

/* ---------------------------------------------------------------------- */
/* packing                                                                */

/* Rows i0..i0+mc (a multiple of 32 past the product's rows is zero), k
   p0..p0+kc (a multiple of the step; past k zero) of op(A), es bytes an
   element, into 32-row panels of 2 KiB steps.  flip: the bytes' sign bits
   are flipped (int8 for vpdpbusd). */
static void pack_a_tiles(const uint8_t *a, int64_t lda, int trans, int es, int flip, int64_t m, int64_t k,
                         int64_t i0, int64_t mc, int64_t p0, int64_t kc, uint8_t *dst)
{
    int64_t kstep = 64 / es, nsteps = kc / kstep;
    for (int64_t ib = 0; ib < mc; ib += 32)
        for (int r = 0; r < 32; r++) {
            int64_t row = i0 + ib + r;
            uint8_t *d = dst + ib / 32 * nsteps * 2048 + (r / 16) * 1024 + (r % 16) * 64;
            for (int64_t s = 0; s < nsteps; s++, d += 2048) {
                int64_t q0 = p0 + s * kstep, have = k - q0 < kstep ? k - q0 : kstep;
                if (row >= m || have <= 0) {
                    memset(d, 0, 64);
                    continue;
                }
                if (!trans) {
                    memcpy(d, a + (row * lda + q0) * es, (size_t)(have * es));
                } else if (es == 2) {
                    for (int64_t q = 0; q < have; q++)
                        memcpy(d + 2 * q, a + ((q0 + q) * lda + row) * 2, 2);
                } else {
                    for (int64_t q = 0; q < have; q++)
                        d[q] = a[(q0 + q) * lda + row];
                }
                if (have < kstep)
                    memset(d + have * es, 0, (size_t)((kstep - have) * es));
                if (flip)
                    for (int64_t q = 0; q < have; q++)
                        d[q] ^= 0x80;
            }
        }
}

/* Columns j0..j0+nc (whole 32-column panels; past n zero) of op(B) over
   all of k, into panels of kpad / kstep steps of two 16-column tiles.  B
   is walked along its rows (the g rows of one tile row at a time, across
   all the panels) rather than down each panel: a panel's rows are on as
   many pages as k is long, and walking them panel by panel costs a TLB
   miss per row per panel. */
static void pack_b_tiles(const uint8_t *b, int64_t ldb, int trans, int es, int64_t n, int64_t k, int64_t kpad,
                         int64_t j0, int64_t nc, uint8_t *dst)
{
    int g = 4 / es; /* k values per 4-byte group */
    int64_t kstep = 64 / es, nsteps = kpad / kstep, pstride = nsteps * 2048;
    for (int64_t s = 0; s < nsteps; s++)
        for (int r = 0; r < 16; r++) {
            int64_t q0 = s * kstep + (int64_t)r * g;
            for (int64_t jb = 0; jb < nc; jb += 32)
                for (int h = 0; h < 2; h++) {
                    uint8_t *d = dst + (j0 + jb) / 32 * pstride + s * 2048 + h * 1024 + r * 64;
                    int64_t col0 = j0 + jb + h * 16;
                    if (!trans && q0 + g <= k && col0 + 16 <= n) {
                        /* g rows of 16 contiguous values interleaved */
                        if (es == 2) {
                            const uint16_t *s0 = (const uint16_t *)(b + (q0 * ldb + col0) * 2);
                            const uint16_t *s1 = s0 + ldb;
                            uint32_t w[16];
                            for (int j = 0; j < 16; j++)
                                w[j] = s0[j] | (uint32_t)s1[j] << 16;
                            memcpy(d, w, 64);
                        } else {
                            const uint8_t *s0 = b + q0 * ldb + col0;
                            for (int j = 0; j < 16; j++)
                                for (int e = 0; e < 4; e++)
                                    d[4 * j + e] = s0[e * ldb + j];
                        }
                        continue;
                    }
                    for (int j = 0; j < 16; j++)
                        for (int e = 0; e < g; e++) {
                            int64_t q = q0 + e, col = col0 + j;
                            uint8_t *o = d + 4 * j + e * es;
                            if (q >= k || col >= n)
                                memset(o, 0, (size_t)es);
                            else
                                memcpy(o, b + (trans ? col * ldb + q : q * ldb + col) * es, (size_t)es);
                        }
                }
        }
}

/* ---------------------------------------------------------------------- */
/* driver                                                                 */

/* TILE_MC rows per chunk (its A block stays in L2). */
enum { TILE_MC = 256, TILE_PANELS_PER_PACK = 8 };
/* Below this many multiply-adds a call runs on the calling thread alone
   (as gemm.c's). */
enum { TILE_PARALLEL_MIN_FMAS = 1 << 22 };

typedef struct {
    const tile_family *fam;
    int s8, es;
    int trans_a, trans_b, acc;
    int64_t m, n, k, kpad, npad, kc;
    int direct_a; /* whole 32-row panels of A read in place */
    const uint8_t *a, *b;
    uint8_t *c;
    int64_t lda, ldb, ldc;
    uint8_t *bp;   /* B packed */
    int32_t *corr; /* per column: -128 x its sum over k (fam->a_unsigned) */
    int64_t mchunks, nchunks, nb;
    int nslots;
    uint8_t *slots;
    size_t slot_bytes;
    _Atomic int *busy;
} tile_job;

static int64_t up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

static void tile_pack_b_task(int64_t t, void *ctx)
{
    tile_job *g = ctx;
    int64_t j0 = t * TILE_PANELS_PER_PACK * 32;
    int64_t nc = g->npad - j0 < TILE_PANELS_PER_PACK * 32 ? g->npad - j0 : TILE_PANELS_PER_PACK * 32;
    pack_b_tiles(g->b, g->ldb, g->trans_b, g->es, g->n, g->k, g->kpad, j0, nc, g->bp);
    if (g->corr) {
        /* column sums, walking B along its rows */
        uint32_t sum[TILE_PANELS_PER_PACK * 32] = {0};
        int64_t have = g->n - j0 < nc ? g->n - j0 : nc;
        const int8_t *b = (const int8_t *)g->b;
        if (g->trans_b)
            for (int64_t j = 0; j < have; j++)
                for (int64_t q = 0; q < g->k; q++)
                    sum[j] += (uint32_t)b[(j0 + j) * g->ldb + q];
        else
            for (int64_t q = 0; q < g->k; q++)
                for (int64_t j = 0; j < have; j++)
                    sum[j] += (uint32_t)b[q * g->ldb + j0 + j];
        for (int64_t j = 0; j < nc; j++)
            g->corr[j0 + j] = (int32_t)(0u - 128u * sum[j]);
    }
}

static void tile_chunk(int64_t t, void *ctx)
{
    tile_job *g = ctx;
    int64_t mi = t / g->nchunks, panels = (g->m + 31) / 32;
    int64_t i0 = mi * panels / g->mchunks * 32, iend = (mi + 1) * panels / g->mchunks * 32;
    int64_t mc = (iend < g->m ? iend : g->m) - i0;
    int64_t j0 = (t % g->nchunks) * g->nb, nc = g->n - j0 < g->nb ? g->n - j0 : g->nb;
    int slot = 0;
    for (;; slot = (slot + 1) % g->nslots)
        if (!atomic_exchange(&g->busy[slot], 1))
            break;
    uint8_t *ap = g->slots + (size_t)slot * g->slot_bytes;
    int64_t kstep = 64 / g->es, bsteps = g->kpad / kstep;
    if (g->fam->begin)
        g->fam->begin();
    /* A read in place: whole 32-row panels; a ragged last one is packed */
    tile_a direct = {64, 16 * g->lda * g->es, g->lda * g->es};
    int64_t whole = g->direct_a ? mc / 32 * 32 : 0;
    for (int64_t p0 = 0; p0 < g->kpad; p0 += g->kc) {
        int64_t kc = g->kpad - p0 < g->kc ? g->kpad - p0 : g->kc, nsteps = kc / kstep;
        if (whole < mc)
            pack_a_tiles(g->a, g->lda, g->trans_a, g->es, g->fam->a_unsigned, g->m, g->k, i0 + whole,
                         up(mc - whole, 32), p0, kc, ap);
        for (int64_t jr = 0; jr < nc; jr += 32) {
            int nv = nc - jr < 32 ? (int)(nc - jr) : 32;
            int64_t col = j0 + jr;
            const uint8_t *bpan = g->bp + ((col / 32) * bsteps + p0 / kstep) * 2048;
            const int32_t *corr = g->corr && p0 == 0 ? g->corr + col : NULL;
            for (int64_t ir = 0; ir < mc; ir += 32) {
                int mv = mc - ir < 32 ? (int)(mc - ir) : 32;
                uint8_t *cp = g->c + ((i0 + ir) * g->ldc + col) * 4;
                if (ir < whole)
                    g->fam->block(nsteps, g->a + ((i0 + ir) * g->lda + p0) * g->es, &direct, bpan, cp, g->ldc * 4,
                                  mv, nv, g->acc || p0 > 0, g->s8, corr);
                else
                    g->fam->block(nsteps, ap + (ir - whole) / 32 * nsteps * 2048, &a_packed, bpan, cp, g->ldc * 4,
                                  mv, nv, g->acc || p0 > 0, g->s8, corr);
            }
        }
    }
    if (g->fam->end)
        g->fam->end();
    atomic_store(&g->busy[slot], 0);
}

/* C[m, n] (f32 or s32, ldc elements a row) = op(A) op(B) (+ C). */
static void tile_gemm(xlacrt_pool *p, const tile_family *fam, int s8, int trans_a, int trans_b, int64_t m, int64_t n,
                      int64_t k, const void *a, int64_t lda, const void *b, int64_t ldb, void *c, int64_t ldc,
                      int accumulate)
{
    if (m <= 0 || n <= 0)
        return;
    if (k <= 0) {
        if (!accumulate)
            for (int64_t i = 0; i < m; i++)
                memset((uint8_t *)c + i * ldc * 4, 0, (size_t)n * 4);
        return;
    }
    tile_job g = {
        .fam = fam, .s8 = s8, .es = s8 ? 1 : 2,
        .trans_a = trans_a, .trans_b = trans_b, .acc = accumulate,
        .m = m, .n = n, .k = k,
        .a = a, .b = b, .c = c, .lda = lda, .ldb = ldb, .ldc = ldc,
    };
    int64_t kstep = 64 / g.es;
    g.kpad = up(k, kstep);
    g.npad = up(n, 32);
    g.kc = fam->kc_bytes / g.es;
    /* the tile loads read A's rows where they are when each step is whole
       (k a multiple of the step); packing them would cost a pass over A
       per column block */
    g.direct_a = fam->a_in_place && !trans_a && k % kstep == 0;
    if ((double)m * (double)n * (double)k < TILE_PARALLEL_MIN_FMAS)
        p = NULL;
    int64_t mpanels = (m + 31) / 32, chunk_panels = TILE_MC / 32;
    g.mchunks = (mpanels + chunk_panels - 1) / chunk_panels;
    /* a few row blocks cut into a multiple of the threads, as gemm.c's */
    int64_t ps = xlacrt_pool_size(p);
    if (ps > 1 && g.mchunks > 1 && g.mchunks < 4 * ps && g.mchunks % ps && (g.mchunks + ps - 1) / ps * ps <= mpanels)
        g.mchunks = (g.mchunks + ps - 1) / ps * ps;
    /* columns are split only when there are too few row blocks for the
       pool (each column block packs its A blocks again) */
    int64_t npanels = g.npad / 32, want = 2 * (int64_t)xlacrt_pool_size(p);
    if (want <= 2)
        want = 1;
    int64_t nsplit = g.mchunks >= want ? 1 : (want + g.mchunks - 1) / g.mchunks;
    if (nsplit > npanels / 4)
        nsplit = npanels / 4 > 1 ? npanels / 4 : 1;
    g.nb = (npanels + nsplit - 1) / nsplit * 32;
    g.nchunks = (n + g.nb - 1) / g.nb;
    int64_t chunks = g.mchunks * g.nchunks;
    int64_t mcmax = (mpanels + g.mchunks - 1) / g.mchunks * 32;
    int64_t kcmax = g.kpad < g.kc ? g.kpad : g.kc;
    g.nslots = xlacrt_pool_size(p) < chunks ? xlacrt_pool_size(p) : (int)chunks;
    g.slot_bytes = (size_t)(mcmax * kcmax * g.es);
    size_t bp_bytes = (size_t)(g.npad * g.kpad * g.es);
    size_t corr_at = bp_bytes, corr_bytes = fam->a_unsigned ? (size_t)g.npad * 4 : 0;
    size_t slots_at = (corr_at + corr_bytes + 63) / 64 * 64;
    size_t busy_at = slots_at + g.slot_bytes * (size_t)g.nslots;
    uint8_t *ws = xlacrt_scratch_get(XLACRT_SCRATCH_GEMM, busy_at + sizeof *g.busy * (size_t)g.nslots, "GEMM");
    if (!ws)
        return; /* recorded in the run's status (xlacrt_scratch_get) */
    g.bp = ws;
    g.corr = fam->a_unsigned ? (int32_t *)(ws + corr_at) : NULL;
    g.slots = ws + slots_at;
    g.busy = (_Atomic int *)(ws + busy_at);
    for (int i = 0; i < g.nslots; i++)
        atomic_init(&g.busy[i], 0);
    xlacrt_parallel_for(p, (npanels + TILE_PANELS_PER_PACK - 1) / TILE_PANELS_PER_PACK, tile_pack_b_task, &g);
    xlacrt_parallel_for(p, chunks, tile_chunk, &g);
    xlacrt_scratch_put(XLACRT_SCRATCH_GEMM, ws);
}

/* ---------------------------------------------------------------------- */
/* bfloat16                                                               */

/* The family for bfloat16 products while denormals are flushed, or NULL:
   the float kernels (gemm.c). */
static const tile_family *bf16_family(void)
{
    switch (rt_gemm_tiles()) {
    case RT_TILES_EMULATED: return &fam_emu;
#if defined(__x86_64__)
    case RT_TILES_AMX: return &fam_amx;
#endif
    default: break;
    }
#if defined(__x86_64__)
    /* Without AMX, vdpbf16ps where it is chosen (rt_gemm_bf16_dot: on
       AMD's cores it does twice a float FMA's work at two thirds of its
       rate; on Sapphire Rapids it issues at half vfmadd231ps's rate, and
       a kernel on it ran at half the float kernels' speed) */
    if (rt_gemm_bf16_dot())
        return &fam_bf16dot;
#endif
    return NULL;
}

int rt_tile_gemm_bf16(xlacrt_pool *p, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, const uint16_t *a,
                      int64_t lda, const uint16_t *b, int64_t ldb, float *c, int64_t ldc, int accumulate)
{
    const tile_family *fam = bf16_family();
    if (!fam)
        return 0;
#if defined(__x86_64__)
    /* k padded to 32 by more than a quarter: the float kernels do less */
    if (fam == &fam_bf16dot && up(k, 32) * 3 > k * 4)
        return 0;
#endif
    tile_gemm(p, fam, 0, trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc, accumulate);
    return 1;
}

const char *xlacrt_gemm_bf16_isa(void)
{
    const tile_family *f = bf16_family();
#if defined(__x86_64__)
    if (f == &fam_amx)
        return "amx";
    if (f == &fam_bf16dot)
        return "avx512bf16";
#endif
    return f == &fam_emu ? "amx-emulated" : xlacrt_gemm_isa();
}

/* ---------------------------------------------------------------------- */
/* int8                                                                   */

static const tile_family *s8_family(void)
{
    switch (rt_gemm_tiles()) {
    case RT_TILES_EMULATED: return &fam_emu;
#if defined(__x86_64__)
    case RT_TILES_AMX: return &fam_amx;
#endif
    default: break;
    }
#if defined(__x86_64__)
    if (rt_gemm_current_avx512() && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vnni"))
        return &fam_vnni;
#endif
    return &fam_c;
}

const char *xlacrt_gemm_s8_isa(void)
{
    const tile_family *f = s8_family();
#if defined(__x86_64__)
    if (f == &fam_amx)
        return "amx";
    if (f == &fam_vnni)
        return "avx512vnni";
#endif
    return f == &fam_emu ? "amx-emulated" : "c";
}

void xlacrt_gemm_s8(xlacrt_pool *p, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, const int8_t *a,
                    int64_t lda, const int8_t *b, int64_t ldb, int32_t *c, int64_t ldc, int accumulate)
{
    tile_gemm(p, s8_family(), 1, trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc, accumulate);
}

typedef struct {
    const tile_family *fam;
    int trans_a, trans_b, acc;
    int64_t m, n, k, lda, ldb, ldc, sa, sb, sc;
    const int8_t *a, *b;
    int32_t *c;
} s8_batch;

static void s8_batch_task(int64_t i, void *ctx)
{
    const s8_batch *j = ctx;
    tile_gemm(NULL, j->fam, 1, j->trans_a, j->trans_b, j->m, j->n, j->k, j->a + i * j->sa, j->lda, j->b + i * j->sb,
              j->ldb, j->c + i * j->sc, j->ldc, j->acc);
}

/* As gemm.c's batches: small products one per chunk, large ones one after
   another, each split over the pool; every product is computed as a single
   call would compute it. */
void xlacrt_gemm_s8_batched(xlacrt_pool *p, int trans_a, int trans_b, int64_t batch, int64_t m, int64_t n,
                            int64_t k, const int8_t *a, int64_t lda, int64_t stride_a, const int8_t *b, int64_t ldb,
                            int64_t stride_b, int32_t *c, int64_t ldc, int64_t stride_c, int accumulate)
{
    if (batch <= 0)
        return;
    s8_batch j = {s8_family(), trans_a, trans_b, accumulate, m, n, k, lda, ldb, ldc, stride_a, stride_b, stride_c,
                  a, b, c};
    if (batch > 1 && (double)m * (double)n * (double)k < (double)(1 << 24)) {
        xlacrt_parallel_for(p, batch, s8_batch_task, &j);
        return;
    }
    for (int64_t i = 0; i < batch; i++)
        tile_gemm(p, j.fam, 1, trans_a, trans_b, m, n, k, a + i * stride_a, lda, b + i * stride_b, ldb,
                  c + i * stride_c, ldc, accumulate);
}
