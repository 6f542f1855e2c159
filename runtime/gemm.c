/*
 * gemm.c - the runtime's dense matrix multiply (sgemm, dgemm).
 *
 * The layout follows the usual packed, register-blocked scheme: B is copied
 * once per call into panels NR columns wide (for each k, NR consecutive
 * values), A is copied block by block into panels MR rows high (for each k,
 * MR consecutive values), and a micro-kernel keeps an MR x NR tile of C in
 * vector registers while it walks k.  Packing pads the ragged edges with
 * zeros, so the kernel always computes a whole tile and only its final store
 * is masked to the part of the tile that exists.
 *
 * B is packed once per call by all threads together (a product of few rows
 * reads a B of moderate size where it is instead: see DIRECT_B_MAX_PANELS;
 * a product whose rows make one block packs B a panel at a time inside
 * its chunks: inline_b in gemm_run; a product of few columns reads A where
 * it is: DIRECT_A_MAX_PANELS).
 * The product is then a grid of C blocks (groups of about MC rows by a
 * column width chosen from the shape alone), each computed over all of k by
 * one chunk of xlacrt_parallel_for, which packs its own A blocks.  Every element of C
 * is produced by the same kernel with the same k blocking whatever thread
 * computes it, so results are bit-identical for any pool size.
 *
 * Block sizes were tuned on an AVX-512 machine with 32-48 KiB L1d and
 * 1-2 MiB L2 per core: an A panel (MR x KC) stays in L1, the A block of a
 * chunk and one B column block (KC x NC) share L2.
 *
 * Kernels: AVX-512 (12x32 floats, 12x16 doubles, and 8-row tiles of both
 * for products whose row count the 12-row tile would pad by much: see
 * pick_tile), AVX2+FMA (6x16, 6x8) and portable C; the best family the CPU
 * supports is picked once at run time.  bfloat16 products go to AMX tiles
 * instead (gemm_amx.c) where the host has them and the caller flushes
 * denormals (see flushing_denormals), or on AMD's AVX-512 BF16 cores to
 * vdpbf16ps in the tiles' layout (gemm_amx.c, rt_gemm_bf16_dot);
 * elsewhere they are widened to floats while packing.
 * The x86 kernels are compiled with function-level target attributes, so the
 * library itself needs no special compiler flags and runs on any x86-64.
 */
#include "xlacrt.h"
#include "gemm_impl.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* One kernel computes the MR x NR tile C = A_panel * B_panel (acc == 0) or
   C += A_panel * B_panel, storing only the first mv rows and nv columns.
   Row q of the B panel (NR values) starts q * ldb elements in: ldb is NR
   for a packed panel, or B's own row stride when the kernel reads B where
   it is (see direct_b in gemm_run). */
typedef void (*kern_fn)(int64_t kc, const void *a, const void *b, int64_t ldb, void *c,
                        int64_t ldc, int mv, int nv, int acc);

typedef void (*pack_a_fn)(const void *a, int64_t lda, int trans, int64_t i0, int64_t mc,
                          int64_t p0, int64_t kc, void *dst);
typedef void (*pack_b_fn)(const void *b, int64_t ldb, int trans, int64_t j0, int64_t nc,
                          int64_t p0, int64_t kc, void *dst);

typedef struct {
    int mr, nr; /* register tile */
    int kc;     /* depth of one packed block: A panel MR x KC stays in L1 */
    int mc;     /* rows of C per parallel chunk (a multiple of mr) */
    int nc;     /* columns of one B block walked per A block (multiple of nr) */
    kern_fn kern;
    pack_a_fn pack_a; /* packers for this mr and nr */
    pack_b_fn pack_b;
    /* A lower register tile with the same nr (so the same packed B) for
       products with few rows, or mr_small == 0: see pick_tile. */
    int mr_small;
    kern_fn kern_small;
    pack_a_fn pack_a_small;
} gemm_cfg;

/* ---------------------------------------------------------------------- */
/* packing                                                                */

/* bfloat16 is the top half of a float. */
static inline float bf16_to_f32(uint16_t h)
{
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* IEEE half to float, exactly (every half is a float), without branches
   so that the packing loops vectorize: the exponent is rebased (normal
   numbers), set to all ones (infinities and NaNs, payload kept), or, for
   subnormals, the mantissa is placed under the exponent of 2^-14 and that
   power subtracted (exact, and both operands and the result are normal
   floats, so flushing denormals does not touch it). */
static inline float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float f16_to_f32(uint16_t h)
{
    uint32_t x = (uint32_t)(h & 0x7fff) << 13, e = x & 0x0f800000u;
    uint32_t norm = x + 0x38000000u, special = x + 0x70000000u;
    uint32_t sub = f32_bits(bits_f32(x + 0x38800000u) - bits_f32(0x38800000u));
    uint32_t r = e == 0x0f800000u ? special : e == 0 ? sub : norm;
    return bits_f32(r | (uint32_t)(h & 0x8000) << 16);
}

/* Rows i0..i0+mc, columns p0..p0+kc of op(A), as panels of MR rows.  MR is
   a constant in each instance so the inner loops unroll into straight
   copies; a ragged last panel takes the general loop and zero padding. */
#define DEFINE_PACK_A(TIN, TOUT, CVT, NAME, MR, ATTR)                                         \
    static ATTR void NAME(const void *av, int64_t lda, int trans, int64_t i0, int64_t mc,     \
                     int64_t p0, int64_t kc, void *dv)                                        \
    {                                                                                         \
        const TIN *a = av;                                                                    \
        TOUT *dst = dv;                                                                       \
        for (int64_t ib = 0; ib < mc; ib += MR) {                                             \
            int64_t rows = mc - ib < MR ? mc - ib : MR;                                       \
            TOUT *d = dst + ib * kc;                                                          \
            if (!trans) {                                                                     \
                const TIN *s = a + (i0 + ib) * lda + p0;                                      \
                if (rows == MR) {                                                             \
                    for (int64_t q = 0; q < kc; q++)                                          \
                        for (int r = 0; r < MR; r++)                                          \
                            d[q * MR + r] = CVT(s[r * lda + q]);                              \
                    continue;                                                                 \
                }                                                                             \
                for (int64_t q = 0; q < kc; q++)                                              \
                    for (int64_t r = 0; r < MR; r++)                                          \
                        d[q * MR + r] = r < rows ? CVT(s[r * lda + q]) : 0;                   \
            } else {                                                                          \
                const TIN *s = a + p0 * lda + i0 + ib;                                        \
                if (rows == MR) {                                                             \
                    for (int64_t q = 0; q < kc; q++)                                          \
                        for (int r = 0; r < MR; r++)                                          \
                            d[q * MR + r] = CVT(s[q * lda + r]);                              \
                    continue;                                                                 \
                }                                                                             \
                for (int64_t q = 0; q < kc; q++)                                              \
                    for (int64_t r = 0; r < MR; r++)                                          \
                        d[q * MR + r] = r < rows ? CVT(s[q * lda + r]) : 0;                   \
            }                                                                                 \
        }                                                                                     \
    }

/* Rows p0..p0+kc, columns j0..j0+nc of op(B), as panels of NR columns. */
#define DEFINE_PACK_B(TIN, TOUT, CVT, NAME, NR, ATTR)                                         \
    static ATTR void NAME(const void *bv, int64_t ldb, int trans, int64_t j0, int64_t nc,     \
                     int64_t p0, int64_t kc, void *dv)                                        \
    {                                                                                         \
        const TIN *b = bv;                                                                    \
        TOUT *dst = dv;                                                                       \
        for (int64_t jb = 0; jb < nc; jb += NR) {                                             \
            int64_t cols = nc - jb < NR ? nc - jb : NR;                                       \
            TOUT *d = dst + jb * kc;                                                          \
            if (!trans) {                                                                     \
                const TIN *s = b + p0 * ldb + j0 + jb;                                        \
                if (cols == NR) {                                                             \
                    for (int64_t q = 0; q < kc; q++)                                          \
                        for (int j = 0; j < NR; j++)                                          \
                            d[q * NR + j] = CVT(s[q * ldb + j]);                              \
                    continue;                                                                 \
                }                                                                             \
                for (int64_t q = 0; q < kc; q++)                                              \
                    for (int64_t j = 0; j < NR; j++)                                          \
                        d[q * NR + j] = j < cols ? CVT(s[q * ldb + j]) : 0;                   \
            } else {                                                                          \
                const TIN *s = b + (j0 + jb) * ldb + p0;                                      \
                if (cols == NR) {                                                             \
                    for (int64_t q = 0; q < kc; q++)                                          \
                        for (int j = 0; j < NR; j++)                                          \
                            d[q * NR + j] = CVT(s[j * ldb + q]);                              \
                    continue;                                                                 \
                }                                                                             \
                for (int64_t q = 0; q < kc; q++)                                              \
                    for (int64_t j = 0; j < NR; j++)                                          \
                        d[q * NR + j] = j < cols ? CVT(s[j * ldb + q]) : 0;                   \
            }                                                                                 \
        }                                                                                     \
    }

#define NO_ATTR
#define SAME(x) (x)
DEFINE_PACK_A(float, float, SAME, pack_a_f32_4, 4, NO_ATTR)
DEFINE_PACK_B(float, float, SAME, pack_b_f32_8, 8, NO_ATTR)
DEFINE_PACK_A(double, double, SAME, pack_a_f64_4, 4, NO_ATTR)
DEFINE_PACK_B(double, double, SAME, pack_b_f64_4, 4, NO_ATTR)
/* 16-bit inputs are widened to float while packing, so they run on the
   float kernels: exact products, float accumulation. */
DEFINE_PACK_A(uint16_t, float, bf16_to_f32, pack_a_bf16_4, 4, NO_ATTR)
DEFINE_PACK_B(uint16_t, float, bf16_to_f32, pack_b_bf16_8, 8, NO_ATTR)
DEFINE_PACK_A(uint16_t, float, f16_to_f32, pack_a_f16_4, 4, NO_ATTR)
DEFINE_PACK_B(uint16_t, float, f16_to_f32, pack_b_f16_8, 8, NO_ATTR)
#if defined(__x86_64__)
/* The packers that feed vector kernels are compiled for the same ISA, so
   their copies are vectorized too. */
#define TARGET_AVX512 __attribute__((target("avx512f,fma")))
#define TARGET_AVX2 __attribute__((target("avx2,fma")))
DEFINE_PACK_A(float, float, SAME, pack_a_f32_6, 6, TARGET_AVX2)
DEFINE_PACK_B(float, float, SAME, pack_b_f32_16_any, 16, TARGET_AVX2)
DEFINE_PACK_A(float, float, SAME, pack_a_f32_12, 12, TARGET_AVX512)
DEFINE_PACK_A(float, float, SAME, pack_a_f32_8, 8, TARGET_AVX512)
DEFINE_PACK_B(float, float, SAME, pack_b_f32_32_any, 32, TARGET_AVX512)

/* A float B read transposed (stored [n, k]: a layer's weights in its
   backward pass, dX = dY W^T) has its panel's nr columns on nr rows of the
   source, and the loop above reads one element of each per k: 8 x 8
   blocks are transposed in registers instead (unpacks within 128-bit
   halves, then across them), 8 loads and 8 stores for 64 elements.  The
   weights 512 x 512 of mlp_train's backward product, AVX-512, 1 thread:
   the product 534 -> 348 us (fastest of 50).  Returns how many k (a
   multiple of 8) it packed. */
static TARGET_AVX2 int64_t pack_b_f32_trans8(const float *s, int64_t ldb, int64_t kc, int nr, float *d)
{
    int64_t q = 0;
    for (; q + 8 <= kc; q += 8)
        for (int j = 0; j < nr; j += 8) {
            const float *r = s + j * ldb + q;
            __m256 r0 = _mm256_loadu_ps(r), r1 = _mm256_loadu_ps(r + ldb), r2 = _mm256_loadu_ps(r + 2 * ldb);
            __m256 r3 = _mm256_loadu_ps(r + 3 * ldb), r4 = _mm256_loadu_ps(r + 4 * ldb);
            __m256 r5 = _mm256_loadu_ps(r + 5 * ldb), r6 = _mm256_loadu_ps(r + 6 * ldb);
            __m256 r7 = _mm256_loadu_ps(r + 7 * ldb);
            __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
            __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
            __m256 t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5);
            __m256 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
            __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xee);
            __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xee);
            __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xee);
            __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xee);
            float *o = d + q * nr + j;
            _mm256_storeu_ps(o, _mm256_permute2f128_ps(u0, u4, 0x20));
            _mm256_storeu_ps(o + nr, _mm256_permute2f128_ps(u1, u5, 0x20));
            _mm256_storeu_ps(o + 2 * nr, _mm256_permute2f128_ps(u2, u6, 0x20));
            _mm256_storeu_ps(o + 3 * nr, _mm256_permute2f128_ps(u3, u7, 0x20));
            _mm256_storeu_ps(o + 4 * nr, _mm256_permute2f128_ps(u0, u4, 0x31));
            _mm256_storeu_ps(o + 5 * nr, _mm256_permute2f128_ps(u1, u5, 0x31));
            _mm256_storeu_ps(o + 6 * nr, _mm256_permute2f128_ps(u2, u6, 0x31));
            _mm256_storeu_ps(o + 7 * nr, _mm256_permute2f128_ps(u3, u7, 0x31));
        }
    return q;
}

/* The packers of the vector kernels: whole panels of a transposed B by
   pack_b_f32_trans8 (the rest of k element by element), everything else
   by the loops above. */
#define DEFINE_PACK_B_F32(NAME, ANY, NR, ATTR)                                                \
    static ATTR void NAME(const void *bv, int64_t ldb, int trans, int64_t j0, int64_t nc,     \
                          int64_t p0, int64_t kc, void *dv)                                   \
    {                                                                                         \
        float *dst = dv;                                                                      \
        int64_t jb = 0;                                                                       \
        for (; trans && jb + NR <= nc; jb += NR) {                                            \
            const float *s = (const float *)bv + (j0 + jb) * ldb + p0;                        \
            float *d = dst + jb * kc;                                                         \
            for (int64_t q = pack_b_f32_trans8(s, ldb, kc, NR, d); q < kc; q++)               \
                for (int j = 0; j < NR; j++)                                                  \
                    d[q * NR + j] = s[j * ldb + q];                                           \
        }                                                                                     \
        if (jb < nc)                                                                          \
            ANY(bv, ldb, trans, j0 + jb, nc - jb, p0, kc, dst + jb * kc);                     \
    }
DEFINE_PACK_B_F32(pack_b_f32_16, pack_b_f32_16_any, 16, TARGET_AVX2)
DEFINE_PACK_B_F32(pack_b_f32_32, pack_b_f32_32_any, 32, TARGET_AVX512)
DEFINE_PACK_A(double, double, SAME, pack_a_f64_6, 6, TARGET_AVX2)
DEFINE_PACK_B(double, double, SAME, pack_b_f64_8, 8, TARGET_AVX2)
DEFINE_PACK_A(double, double, SAME, pack_a_f64_12, 12, TARGET_AVX512)
DEFINE_PACK_A(double, double, SAME, pack_a_f64_8, 8, TARGET_AVX512)
DEFINE_PACK_B(double, double, SAME, pack_b_f64_16, 16, TARGET_AVX512)
DEFINE_PACK_A(uint16_t, float, bf16_to_f32, pack_a_bf16_6, 6, TARGET_AVX2)
DEFINE_PACK_B(uint16_t, float, bf16_to_f32, pack_b_bf16_16, 16, TARGET_AVX2)
DEFINE_PACK_A(uint16_t, float, bf16_to_f32, pack_a_bf16_12, 12, TARGET_AVX512)
DEFINE_PACK_A(uint16_t, float, bf16_to_f32, pack_a_bf16_8, 8, TARGET_AVX512)
DEFINE_PACK_B(uint16_t, float, bf16_to_f32, pack_b_bf16_32, 32, TARGET_AVX512)
DEFINE_PACK_A(uint16_t, float, f16_to_f32, pack_a_f16_6, 6, TARGET_AVX2)
DEFINE_PACK_B(uint16_t, float, f16_to_f32, pack_b_f16_16, 16, TARGET_AVX2)
DEFINE_PACK_A(uint16_t, float, f16_to_f32, pack_a_f16_12, 12, TARGET_AVX512)
DEFINE_PACK_A(uint16_t, float, f16_to_f32, pack_a_f16_8, 8, TARGET_AVX512)
DEFINE_PACK_B(uint16_t, float, f16_to_f32, pack_b_f16_32, 32, TARGET_AVX512)
/* With F16C (every AVX2 CPU we know of has it, but it is checked) a half
   becomes a float in one instruction, exactly, subnormals included, and
   whatever MXCSR says: the bit arithmetic above compiles to a scalar
   branchy sequence of ~18 instructions per element, which made packing
   30% of an f16 product on an AVX2 host.  Rows of B that are contiguous
   are converted 8 or 16 at a time. */
#define TARGET_AVX2_F16C __attribute__((target("avx2,fma,f16c")))
#define TARGET_AVX512_F16C __attribute__((target("avx512f,fma,f16c")))
static inline __attribute__((target("f16c"))) float f16c_to_f32(uint16_t h)
{
    return _cvtsh_ss(h);
}
DEFINE_PACK_A(uint16_t, float, f16c_to_f32, pack_a_f16c_6, 6, TARGET_AVX2_F16C)
DEFINE_PACK_B(uint16_t, float, f16c_to_f32, pack_b_f16c_16_any, 16, TARGET_AVX2_F16C)
DEFINE_PACK_A(uint16_t, float, f16c_to_f32, pack_a_f16c_12, 12, TARGET_AVX512_F16C)
DEFINE_PACK_A(uint16_t, float, f16c_to_f32, pack_a_f16c_8, 8, TARGET_AVX512_F16C)
DEFINE_PACK_B(uint16_t, float, f16c_to_f32, pack_b_f16c_32_any, 32, TARGET_AVX512_F16C)

/* B not transposed: a panel's row q is NR contiguous halves, converted
   NR / 2 at a time (VT holds NR / 2 halves, CVT widens them, STORE writes
   the floats).  Whole panels here, a ragged last one by the general
   packer ANY (at its place). */
#define DEFINE_PACK_B_F16C(NAME, NR, ATTR, ANY, VT, LOAD, CVT, STORE)                         \
    static ATTR void NAME(const void *bv, int64_t ldb, int trans, int64_t j0, int64_t nc,     \
                          int64_t p0, int64_t kc, void *dv)                                   \
    {                                                                                         \
        if (trans) {                                                                          \
            ANY(bv, ldb, trans, j0, nc, p0, kc, dv);                                          \
            return;                                                                           \
        }                                                                                     \
        const uint16_t *b = bv;                                                               \
        float *dst = dv;                                                                      \
        int64_t jb = 0;                                                                       \
        for (; jb + NR <= nc; jb += NR) {                                                     \
            const uint16_t *s = b + p0 * ldb + j0 + jb;                                       \
            float *d = dst + jb * kc;                                                         \
            for (int64_t q = 0; q < kc; q++) {                                                \
                STORE(d + q * NR, CVT(LOAD((const VT *)(s + q * ldb))));                      \
                STORE(d + q * NR + NR / 2, CVT(LOAD((const VT *)(s + q * ldb + NR / 2))));    \
            }                                                                                 \
        }                                                                                     \
        if (jb < nc)                                                                          \
            ANY(bv, ldb, trans, j0 + jb, nc - jb, p0, kc, dst + jb * kc);                     \
    }
DEFINE_PACK_B_F16C(pack_b_f16c_16, 16, TARGET_AVX2_F16C, pack_b_f16c_16_any, __m128i, _mm_loadu_si128,
                   _mm256_cvtph_ps, _mm256_storeu_ps)
DEFINE_PACK_B_F16C(pack_b_f16c_32, 32, TARGET_AVX512_F16C, pack_b_f16c_32_any, __m256i, _mm256_loadu_si256,
                   _mm512_cvtph_ps, _mm512_storeu_ps)

/* Packing A (not transposed) into 12- or 8-row panels is a transpose;
   done one float at a time it costs several percent of a large sgemm.
   Here each group of 4 rows x 16 columns is transposed in registers (4x4
   within each 128-bit lane) and written as 16 runs of 4 floats.  MR is a
   constant at each call (the function is inlined), a multiple of 4. */
static inline __attribute__((always_inline)) TARGET_AVX512 void
pack_a_panel_avx512(const float *s, int64_t lda, int64_t kc, float *d, const int MR)
{
    int64_t q = 0;
    for (; q + 16 <= kc; q += 16) {
        for (int g = 0; g < MR / 4; g++) {
            const float *sr = s + 4 * g * lda + q;
            __m512 r0 = _mm512_loadu_ps(sr), r1 = _mm512_loadu_ps(sr + lda);
            __m512 r2 = _mm512_loadu_ps(sr + 2 * lda), r3 = _mm512_loadu_ps(sr + 3 * lda);
            __m512 t0 = _mm512_unpacklo_ps(r0, r1), t1 = _mm512_unpackhi_ps(r0, r1);
            __m512 t2 = _mm512_unpacklo_ps(r2, r3), t3 = _mm512_unpackhi_ps(r2, r3);
            /* u_i lane L holds rows 0..3 of column q + 4L + i */
            __m512 u0 = _mm512_shuffle_ps(t0, t2, 0x44), u1 = _mm512_shuffle_ps(t0, t2, 0xee);
            __m512 u2 = _mm512_shuffle_ps(t1, t3, 0x44), u3 = _mm512_shuffle_ps(t1, t3, 0xee);
            float *dq = d + q * MR + 4 * g;
#define LANE(L)                                                                               \
    _mm_storeu_ps(dq + (4 * L + 0) * MR, _mm512_extractf32x4_ps(u0, L));                      \
    _mm_storeu_ps(dq + (4 * L + 1) * MR, _mm512_extractf32x4_ps(u1, L));                      \
    _mm_storeu_ps(dq + (4 * L + 2) * MR, _mm512_extractf32x4_ps(u2, L));                      \
    _mm_storeu_ps(dq + (4 * L + 3) * MR, _mm512_extractf32x4_ps(u3, L))
            LANE(0);
            LANE(1);
            LANE(2);
            LANE(3);
#undef LANE
        }
    }
    for (; q < kc; q++)
        for (int r = 0; r < MR; r++)
            d[q * MR + r] = s[r * lda + q];
}

#define DEFINE_PACK_A_F32_AVX512(NAME, MR, GENERAL)                                           \
    static TARGET_AVX512 void NAME(const void *av, int64_t lda, int trans, int64_t i0,        \
                                   int64_t mc, int64_t p0, int64_t kc, void *dv)              \
    {                                                                                         \
        const float *a = av;                                                                  \
        float *d = dv;                                                                        \
        for (int64_t ib = 0; ib < mc; ib += MR) {                                             \
            if (!trans && mc - ib >= MR)                                                      \
                pack_a_panel_avx512(a + (i0 + ib) * lda + p0, lda, kc, d + ib * kc, MR);      \
            else                                                                              \
                GENERAL(av, lda, trans, i0 + ib, mc - ib < MR ? mc - ib : MR, p0, kc,         \
                        d + ib * kc);                                                         \
        }                                                                                     \
    }
DEFINE_PACK_A_F32_AVX512(pack_a_f32_12_avx512, 12, pack_a_f32_12)
DEFINE_PACK_A_F32_AVX512(pack_a_f32_8_avx512, 8, pack_a_f32_8)
#endif

/* ---------------------------------------------------------------------- */
/* portable kernels                                                       */

#define DEFINE_KERN_C(T, NAME, MR, NR)                                                        \
    static void NAME(int64_t kc, const void *av, const void *bv, int64_t ldb, void *cv,       \
                     int64_t ldc, int mv, int nv, int acc)                                    \
    {                                                                                         \
        const T *a = av, *b = bv;                                                             \
        T *c = cv;                                                                            \
        T t[MR][NR];                                                                          \
        memset(t, 0, sizeof t);                                                               \
        for (int64_t q = 0; q < kc; q++, a += MR, b += ldb)                                   \
            for (int r = 0; r < MR; r++)                                                      \
                for (int j = 0; j < NR; j++)                                                  \
                    t[r][j] += a[r] * b[j];                                                   \
        for (int r = 0; r < mv; r++)                                                          \
            for (int j = 0; j < nv; j++)                                                      \
                c[r * ldc + j] = acc ? c[r * ldc + j] + t[r][j] : t[r][j];                    \
    }

DEFINE_KERN_C(float, kern_c_f32, 4, 8)
DEFINE_KERN_C(double, kern_c_f64, 4, 4)

#if defined(__x86_64__)
/* ---------------------------------------------------------------------- */
/* AVX-512 kernels                                                        */

static inline TARGET_AVX512 void st512_ps(float *c, __m512 x0, __m512 x1, __mmask16 m0,
                                           __mmask16 m1, int full, int acc)
{
    if (full) {
        if (acc) {
            x0 = _mm512_add_ps(_mm512_loadu_ps(c), x0);
            x1 = _mm512_add_ps(_mm512_loadu_ps(c + 16), x1);
        }
        _mm512_storeu_ps(c, x0);
        _mm512_storeu_ps(c + 16, x1);
    } else {
        if (acc) {
            x0 = _mm512_add_ps(_mm512_maskz_loadu_ps(m0, c), x0);
            x1 = _mm512_add_ps(_mm512_maskz_loadu_ps(m1, c + 16), x1);
        }
        _mm512_mask_storeu_ps(c, m0, x0);
        _mm512_mask_storeu_ps(c + 16, m1, x1);
    }
}

/* Register tiles of 12 or 8 rows: ROWS(X) applies X to each row index. */
#define ROWS8(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#define ROWS12(X) ROWS8(X) X(8) X(9) X(10) X(11)

/* MR x 32 floats: 2 * MR zmm accumulators (24 for the 12-row tile, 16 for
   the 8-row one), B row in two zmm, A broadcast. */
#define DEFINE_KERN_AVX512_F32(NAME, MR, ROWS)                                                \
    static TARGET_AVX512 void NAME(int64_t kc, const void *av, const void *bv, int64_t ldb,   \
                                   void *cv, int64_t ldc, int mv, int nv, int acc)            \
    {                                                                                         \
        const float *a = av, *b = bv;                                                         \
        float *c = cv;                                                                        \
        ROWS(KF32_ZERO)                                                                       \
        for (int r = 0; r < MR; r++)                                                          \
            _mm_prefetch((const char *)(c + r * ldc), _MM_HINT_T0);                           \
        _Pragma("GCC unroll 4") for (int64_t q = 0; q < kc; q++)                              \
        {                                                                                     \
            __m512 b0 = _mm512_loadu_ps(b), b1 = _mm512_loadu_ps(b + 16);                     \
            ROWS(KF32_ROW)                                                                    \
            a += MR;                                                                          \
            b += ldb;                                                                         \
        }                                                                                     \
        int full = nv == 32;                                                                  \
        __mmask16 m0 = nv >= 16 ? 0xffff : (__mmask16)((1u << nv) - 1);                       \
        __mmask16 m1 = nv >= 32 ? 0xffff : nv <= 16 ? 0 : (__mmask16)((1u << (nv - 16)) - 1); \
        ROWS(KF32_STORE)                                                                      \
    }
#define KF32_ZERO(r) __m512 c##r##0 = _mm512_setzero_ps(), c##r##1 = _mm512_setzero_ps();
#define KF32_ROW(r)                                                                           \
    {                                                                                         \
        __m512 ar = _mm512_set1_ps(a[r]);                                                     \
        c##r##0 = _mm512_fmadd_ps(ar, b0, c##r##0);                                           \
        c##r##1 = _mm512_fmadd_ps(ar, b1, c##r##1);                                           \
    }
#define KF32_STORE(r)                                                                         \
    if (r < mv)                                                                               \
        st512_ps(c + r * ldc, c##r##0, c##r##1, m0, m1, full, acc);
DEFINE_KERN_AVX512_F32(kern_avx512_f32, 12, ROWS12)
DEFINE_KERN_AVX512_F32(kern_avx512_f32_8, 8, ROWS8)


static inline TARGET_AVX512 void st512_pd(double *c, __m512d x0, __m512d x1, __mmask8 m0,
                                           __mmask8 m1, int full, int acc)
{
    if (full) {
        if (acc) {
            x0 = _mm512_add_pd(_mm512_loadu_pd(c), x0);
            x1 = _mm512_add_pd(_mm512_loadu_pd(c + 8), x1);
        }
        _mm512_storeu_pd(c, x0);
        _mm512_storeu_pd(c + 8, x1);
    } else {
        if (acc) {
            x0 = _mm512_add_pd(_mm512_maskz_loadu_pd(m0, c), x0);
            x1 = _mm512_add_pd(_mm512_maskz_loadu_pd(m1, c + 8), x1);
        }
        _mm512_mask_storeu_pd(c, m0, x0);
        _mm512_mask_storeu_pd(c + 8, m1, x1);
    }
}

/* MR x 16 doubles. */
#define DEFINE_KERN_AVX512_F64(NAME, MR, ROWS)                                                \
    static TARGET_AVX512 void NAME(int64_t kc, const void *av, const void *bv, int64_t ldb,   \
                                   void *cv, int64_t ldc, int mv, int nv, int acc)            \
    {                                                                                         \
        const double *a = av, *b = bv;                                                        \
        double *c = cv;                                                                       \
        ROWS(KF64_ZERO)                                                                       \
        for (int64_t q = 0; q < kc; q++) {                                                    \
            __m512d b0 = _mm512_loadu_pd(b), b1 = _mm512_loadu_pd(b + 8);                     \
            ROWS(KF64_ROW)                                                                    \
            a += MR;                                                                          \
            b += ldb;                                                                         \
        }                                                                                     \
        int full = nv == 16;                                                                  \
        __mmask8 m0 = nv >= 8 ? 0xff : (__mmask8)((1u << nv) - 1);                            \
        __mmask8 m1 = nv >= 16 ? 0xff : nv <= 8 ? 0 : (__mmask8)((1u << (nv - 8)) - 1);       \
        ROWS(KF64_STORE)                                                                      \
    }
#define KF64_ZERO(r) __m512d c##r##0 = _mm512_setzero_pd(), c##r##1 = _mm512_setzero_pd();
#define KF64_ROW(r)                                                                           \
    {                                                                                         \
        __m512d ar = _mm512_set1_pd(a[r]);                                                    \
        c##r##0 = _mm512_fmadd_pd(ar, b0, c##r##0);                                           \
        c##r##1 = _mm512_fmadd_pd(ar, b1, c##r##1);                                           \
    }
#define KF64_STORE(r)                                                                         \
    if (r < mv)                                                                               \
        st512_pd(c + r * ldc, c##r##0, c##r##1, m0, m1, full, acc);
DEFINE_KERN_AVX512_F64(kern_avx512_f64, 12, ROWS12)
DEFINE_KERN_AVX512_F64(kern_avx512_f64_8, 8, ROWS8)

/* Tiles whose rows of A are read in place (the direct convolution's
   windows, direct_a's rows): c = the sum over positions p < npos of
   rows[p * 12 + r][0..C) times the B panel b + p * bstride, whose row q
   is ldb elements after row q - 1 (+ c with acc); the rows of the 12-,
   8- or 4-row tile, mv of them and nv columns stored.  The sums are
   those of the packed kernels above, in the same order. */
#define ROWS4(X) X(0) X(1) X(2) X(3)
#define KROW_PTR(r) const X *a##r = rows[r];
#define KROW_F32(r)                                                                           \
    {                                                                                         \
        __m512 ar = _mm512_set1_ps(a##r[q]);                                                  \
        c##r##0 = _mm512_fmadd_ps(ar, b0, c##r##0);                                           \
        c##r##1 = _mm512_fmadd_ps(ar, b1, c##r##1);                                           \
    }
#define KROW_F64(r)                                                                           \
    {                                                                                         \
        __m512d ar = _mm512_set1_pd(a##r[q]);                                                 \
        c##r##0 = _mm512_fmadd_pd(ar, b0, c##r##0);                                           \
        c##r##1 = _mm512_fmadd_pd(ar, b1, c##r##1);                                           \
    }
#define DEFINE_ROWS_AVX512(NAME, T, VT, L, ROWS, ZERO, LOAD, KROW, MASK, FULLMASK, STORE)     \
    static TARGET_AVX512 void NAME(int64_t npos, int64_t C, const T *const *rows, const T *b,  \
                                   int64_t ldb, int64_t bstride, T *c, int64_t ldc, int mv,   \
                                   int nv, int acc)                                           \
    {                                                                                         \
        ROWS(ZERO)                                                                            \
        for (int64_t p = 0; p < npos; p++, rows += 12, b += bstride) {                        \
            typedef T X;                                                                      \
            ROWS(KROW_PTR)                                                                    \
            const T *bq = b;                                                                  \
            _Pragma("GCC unroll 2") for (int64_t q = 0; q < C; q++, bq += ldb)                \
            {                                                                                 \
                VT b0 = LOAD(bq), b1 = LOAD(bq + L);                                          \
                ROWS(KROW)                                                                    \
            }                                                                                 \
        }                                                                                     \
        int full = nv == 2 * L;                                                               \
        MASK m0 = nv >= L ? FULLMASK : (MASK)((1u << nv) - 1);                                \
        MASK m1 = nv >= 2 * L ? FULLMASK : nv <= L ? 0 : (MASK)((1u << (nv - L)) - 1);        \
        ROWS(STORE)                                                                           \
    }
DEFINE_ROWS_AVX512(rows12_f32, float, __m512, 16, ROWS12, KF32_ZERO, _mm512_loadu_ps, KROW_F32, __mmask16, 0xffff,
                   KF32_STORE)
DEFINE_ROWS_AVX512(rows8_f32, float, __m512, 16, ROWS8, KF32_ZERO, _mm512_loadu_ps, KROW_F32, __mmask16, 0xffff,
                   KF32_STORE)
DEFINE_ROWS_AVX512(rows4_f32, float, __m512, 16, ROWS4, KF32_ZERO, _mm512_loadu_ps, KROW_F32, __mmask16, 0xffff,
                   KF32_STORE)
DEFINE_ROWS_AVX512(rows12_f64, double, __m512d, 8, ROWS12, KF64_ZERO, _mm512_loadu_pd, KROW_F64, __mmask8, 0xff,
                   KF64_STORE)
DEFINE_ROWS_AVX512(rows8_f64, double, __m512d, 8, ROWS8, KF64_ZERO, _mm512_loadu_pd, KROW_F64, __mmask8, 0xff,
                   KF64_STORE)
DEFINE_ROWS_AVX512(rows4_f64, double, __m512d, 8, ROWS4, KF64_ZERO, _mm512_loadu_pd, KROW_F64, __mmask8, 0xff,
                   KF64_STORE)

/* The smallest of the 12-, 8- and 4-row tiles that holds mv rows: every
   row is the same sum whichever computes it. */
TARGET_AVX512 void rt_gemm_rows_f32(int64_t npos, int64_t C, const float *const *rows, const float *b, int64_t ldb,
                                    int64_t bstride, float *c, int64_t ldc, int mv, int nv, int acc)
{
    (mv <= 4 ? rows4_f32 : mv <= 8 ? rows8_f32 : rows12_f32)(npos, C, rows, b, ldb, bstride, c, ldc, mv, nv, acc);
}

TARGET_AVX512 void rt_gemm_rows_f64(int64_t npos, int64_t C, const double *const *rows, const double *b,
                                    int64_t ldb, int64_t bstride, double *c, int64_t ldc, int mv, int nv, int acc)
{
    (mv <= 4 ? rows4_f64 : mv <= 8 ? rows8_f64 : rows12_f64)(npos, C, rows, b, ldb, bstride, c, ldc, mv, nv, acc);
}

/* ---------------------------------------------------------------------- */
/* AVX2 + FMA kernels                                                     */

/* Lane mask for the first n of 8 (float) lanes. */
static inline TARGET_AVX2 __m256i mask8_lanes(int n)
{
    __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), iota);
}

static inline TARGET_AVX2 void st256_ps(float *c, __m256 x0, __m256 x1, int nv, int acc)
{
    if (nv == 16) {
        if (acc) {
            x0 = _mm256_add_ps(_mm256_loadu_ps(c), x0);
            x1 = _mm256_add_ps(_mm256_loadu_ps(c + 8), x1);
        }
        _mm256_storeu_ps(c, x0);
        _mm256_storeu_ps(c + 8, x1);
    } else {
        __m256i m0 = mask8_lanes(nv), m1 = mask8_lanes(nv - 8);
        if (acc) {
            x0 = _mm256_add_ps(_mm256_maskload_ps(c, m0), x0);
            x1 = _mm256_add_ps(_mm256_maskload_ps(c + 8, m1), x1);
        }
        _mm256_maskstore_ps(c, m0, x0);
        _mm256_maskstore_ps(c + 8, m1, x1);
    }
}

/* R x 16 floats (R = 2, 4, 6): 2R ymm accumulators.  Row r of A is
   a[r] + q * astep at depth q: a packed panel (astep 6) or rows read
   where they are (direct_a, astep 1); the sums are the same, in the same
   order.  A tile of mv <= 4 rows (the last of a 32- or 64-row product:
   32 = 5 x 6 + 2) runs on the lower tile instead of computing six rows
   and storing some: every element is the same sum either way. */
#define AVX2_ROWS2(X) X(0) X(1)
#define AVX2_ROWS4(X) AVX2_ROWS2(X) X(2) X(3)
#define AVX2_ROWS6(X) AVX2_ROWS4(X) X(4) X(5)
#define DEFINE_TILE_AVX2_F32(R)                                                               \
    static inline __attribute__((always_inline)) TARGET_AVX2 void tiler##R##_avx2_f32(        \
        int64_t kc, const float *const *a, int64_t astep, const float *b, int64_t ldb, float *c, \
        int64_t ldc, int mv, int nv, int acc)                                                 \
    {                                                                                         \
        AVX2_ROWS##R(AVX2_PTR) AVX2_ROWS##R(AVX2_ZERO);                                       \
        for (int64_t q = 0; q < kc; q++) {                                                    \
            __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);                      \
            AVX2_ROWS##R(AVX2_ROW);                                                           \
            b += ldb;                                                                         \
        }                                                                                     \
        AVX2_ROWS##R(AVX2_STORE);                                                             \
    }
#define AVX2_PTR(r) const float *a##r = a[r];
#define AVX2_ZERO(r) __m256 c##r##0 = _mm256_setzero_ps(), c##r##1 = _mm256_setzero_ps();
#define AVX2_ROW(r)                                                                           \
    {                                                                                         \
        __m256 ar = _mm256_broadcast_ss(a##r + q * astep);                                    \
        c##r##0 = _mm256_fmadd_ps(ar, b0, c##r##0);                                           \
        c##r##1 = _mm256_fmadd_ps(ar, b1, c##r##1);                                           \
    }
#define AVX2_STORE(r)                                                                         \
    if (r < mv)                                                                               \
        st256_ps(c + r * ldc, c##r##0, c##r##1, nv, acc);
DEFINE_TILE_AVX2_F32(2)
DEFINE_TILE_AVX2_F32(4)
DEFINE_TILE_AVX2_F32(6)

static inline __attribute__((always_inline)) TARGET_AVX2 void tile_avx2_f32(int64_t kc, const float *const *a,
                                                                            int64_t astep, const float *b,
                                                                            int64_t ldb, float *c, int64_t ldc,
                                                                            int mv, int nv, int acc)
{
    if (mv <= 2)
        tiler2_avx2_f32(kc, a, astep, b, ldb, c, ldc, mv, nv, acc);
    else if (mv <= 4)
        tiler4_avx2_f32(kc, a, astep, b, ldb, c, ldc, mv, nv, acc);
    else
        tiler6_avx2_f32(kc, a, astep, b, ldb, c, ldc, mv, nv, acc);
}

static TARGET_AVX2 void kern_avx2_f32(int64_t kc, const void *av, const void *bv, int64_t ldb,
                                      void *cv, int64_t ldc, int mv, int nv, int acc)
{
    const float *a = av, *rows[6] = {a, a + 1, a + 2, a + 3, a + 4, a + 5};
    tile_avx2_f32(kc, rows, 6, bv, ldb, cv, ldc, mv, nv, acc);
}

/* The same tile over rows of A read where they are (direct_a): rows[r] is
   row r's first element of the k block. */
static TARGET_AVX2 void rows6_avx2_f32(int64_t kc, const float *const *rows, const float *b, int64_t ldb, float *c,
                                       int64_t ldc, int mv, int nv, int acc)
{
    tile_avx2_f32(kc, rows, 1, b, ldb, c, ldc, mv, nv, acc);
}

/* Lane mask for the first n of 4 (double) lanes. */
static inline TARGET_AVX2 __m256i mask4_lanes(int n)
{
    __m256i iota = _mm256_setr_epi64x(0, 1, 2, 3);
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), iota);
}

static inline TARGET_AVX2 void st256_pd(double *c, __m256d x0, __m256d x1, int nv, int acc)
{
    if (nv == 8) {
        if (acc) {
            x0 = _mm256_add_pd(_mm256_loadu_pd(c), x0);
            x1 = _mm256_add_pd(_mm256_loadu_pd(c + 4), x1);
        }
        _mm256_storeu_pd(c, x0);
        _mm256_storeu_pd(c + 4, x1);
    } else {
        __m256i m0 = mask4_lanes(nv), m1 = mask4_lanes(nv - 4);
        if (acc) {
            x0 = _mm256_add_pd(_mm256_maskload_pd(c, m0), x0);
            x1 = _mm256_add_pd(_mm256_maskload_pd(c + 4, m1), x1);
        }
        _mm256_maskstore_pd(c, m0, x0);
        _mm256_maskstore_pd(c + 4, m1, x1);
    }
}

/* 6 x 8 doubles. */
static TARGET_AVX2 void kern_avx2_f64(int64_t kc, const void *av, const void *bv, int64_t ldb,
                                      void *cv, int64_t ldc, int mv, int nv, int acc)
{
    const double *a = av, *b = bv;
    double *c = cv;
#define Z(r) __m256d c##r##0 = _mm256_setzero_pd(), c##r##1 = _mm256_setzero_pd()
    Z(0); Z(1); Z(2); Z(3); Z(4); Z(5);
#undef Z
#define ROW(r)                                                                                \
    do {                                                                                      \
        __m256d ar = _mm256_broadcast_sd(a + r);                                              \
        c##r##0 = _mm256_fmadd_pd(ar, b0, c##r##0);                                           \
        c##r##1 = _mm256_fmadd_pd(ar, b1, c##r##1);                                           \
    } while (0)
    for (int64_t q = 0; q < kc; q++) {
        __m256d b0 = _mm256_loadu_pd(b), b1 = _mm256_loadu_pd(b + 4);
        ROW(0); ROW(1); ROW(2); ROW(3); ROW(4); ROW(5);
        a += 6;
        b += ldb;
    }
#undef ROW
#define ST(r)                                                                                 \
    if (r < mv)                                                                               \
    st256_pd(c + r * ldc, c##r##0, c##r##1, nv, acc)
    ST(0); ST(1); ST(2); ST(3); ST(4); ST(5);
#undef ST
}
#endif /* __x86_64__ */

/* ---------------------------------------------------------------------- */
/* kernel selection                                                       */

enum { ISA_C, ISA_AVX2, ISA_AVX512 };

static const gemm_cfg cfg_f32[] = {
    [ISA_C] = {4, 8, 256, 128, 512, kern_c_f32, pack_a_f32_4, pack_b_f32_8},
#if defined(__x86_64__)
    [ISA_AVX2] = {6, 16, 256, 96, 512, kern_avx2_f32, pack_a_f32_6, pack_b_f32_16},
    [ISA_AVX512] = {12, 32, 256, 192, 256, kern_avx512_f32, pack_a_f32_12_avx512, pack_b_f32_32,
                    8, kern_avx512_f32_8, pack_a_f32_8_avx512},
#endif
};
static const gemm_cfg cfg_f64[] = {
    [ISA_C] = {4, 4, 256, 128, 256, kern_c_f64, pack_a_f64_4, pack_b_f64_4},
#if defined(__x86_64__)
    [ISA_AVX2] = {6, 8, 256, 96, 256, kern_avx2_f64, pack_a_f64_6, pack_b_f64_8},
    [ISA_AVX512] = {12, 16, 128, 192, 256, kern_avx512_f64, pack_a_f64_12, pack_b_f64_16,
                    8, kern_avx512_f64_8, pack_a_f64_8},
#endif
};

/* Packers for 16-bit inputs, matching the float kernels' MR and NR. */
typedef struct {
    pack_a_fn pack_a;
    pack_b_fn pack_b;
    pack_a_fn pack_a_small;
} packers;
static const packers pk_bf16[] = {
    [ISA_C] = {pack_a_bf16_4, pack_b_bf16_8, NULL},
#if defined(__x86_64__)
    [ISA_AVX2] = {pack_a_bf16_6, pack_b_bf16_16, NULL},
    [ISA_AVX512] = {pack_a_bf16_12, pack_b_bf16_32, pack_a_bf16_8},
#endif
};
static const packers pk_f16[] = {
    [ISA_C] = {pack_a_f16_4, pack_b_f16_8, NULL},
#if defined(__x86_64__)
    [ISA_AVX2] = {pack_a_f16_6, pack_b_f16_16, NULL},
    [ISA_AVX512] = {pack_a_f16_12, pack_b_f16_32, pack_a_f16_8},
#endif
};
/* the same where the CPU has F16C */
static const packers pk_f16c[] = {
    [ISA_C] = {pack_a_f16_4, pack_b_f16_8, NULL},
#if defined(__x86_64__)
    [ISA_AVX2] = {pack_a_f16c_6, pack_b_f16c_16, NULL},
    [ISA_AVX512] = {pack_a_f16c_12, pack_b_f16c_32, pack_a_f16c_8},
#endif
};
static int f16c_ok; /* set by isa_init */

static int best_isa(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return ISA_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return ISA_AVX2;
#endif
    return ISA_C;
}

static pthread_once_t isa_once = PTHREAD_ONCE_INIT;
static int set_isa(const char *name);
/* tiles_max: RT_TILES_AMX where the host allows AMX (and AVX-512, which
   every AMX CPU has: the float products stay on it), else RT_TILES_OFF */
static _Atomic int isa_max, isa_cur, tiles_max, tiles_cur;
/* bfloat16 on vdpbf16ps (gemm_amx.c): whether the host has it, whether
   "best" takes it, whether it is on now */
static _Atomic int dot_max, dot_best, dot_cur;

static void isa_init(void)
{
    int best = best_isa();
    f16c_ok = xlacrt_cpu_has("f16c") == 1;
    atomic_store(&isa_max, best);
    atomic_store(&isa_cur, best);
#if defined(__x86_64__)
    int tiles = best == ISA_AVX512 && rt_amx_usable() ? RT_TILES_AMX : RT_TILES_OFF;
#else
    int tiles = RT_TILES_OFF;
#endif
    atomic_store(&tiles_max, tiles);
    atomic_store(&tiles_cur, tiles);
#if defined(__x86_64__)
    int dot = best == ISA_AVX512 && xlacrt_cpu_has("avx512bf16") == 1 && xlacrt_cpu_has("avx512bw") == 1;
    /* measured faster than the float kernels on AMD's cores (Zen 4) only */
    int dot_pref = dot && tiles == RT_TILES_OFF && __builtin_cpu_is("amd");
#else
    int dot = 0, dot_pref = 0;
#endif
    atomic_store(&dot_max, dot);
    atomic_store(&dot_best, dot_pref);
    atomic_store(&dot_cur, dot_pref);
    /* XLAC_GEMM_ISA picks another family for the whole process (tests run
       compiled programs on each); a name the CPU lacks leaves the best */
    const char *env = getenv("XLAC_GEMM_ISA");
    if (env && *env)
        set_isa(env);
}

int rt_gemm_tiles(void)
{
    pthread_once(&isa_once, isa_init);
    return atomic_load(&tiles_cur);
}

const char *xlacrt_gemm_isa(void)
{
    pthread_once(&isa_once, isa_init);
    static const char *const names[] = {[ISA_C] = "c", [ISA_AVX2] = "avx2", [ISA_AVX512] = "avx512"};
    int tiles = atomic_load(&tiles_cur);
    return tiles == RT_TILES_AMX ? "amx" : tiles == RT_TILES_EMULATED ? "amx-emulated" : names[atomic_load(&isa_cur)];
}

static int set_isa(const char *name)
{
    int want, tiles = RT_TILES_OFF, dot = 0;
    if (!name || !strcmp(name, "best")) {
        want = atomic_load(&isa_max);
        tiles = atomic_load(&tiles_max);
        dot = atomic_load(&dot_best);
    } else if (!strcmp(name, "avx512bf16")) {
        if (!atomic_load(&dot_max))
            return 0;
        want = ISA_AVX512;
        dot = 1;
    } else if (!strcmp(name, "amx")) {
        if (atomic_load(&tiles_max) != RT_TILES_AMX)
            return 0;
        want = atomic_load(&isa_max);
        tiles = RT_TILES_AMX;
    } else if (!strcmp(name, "amx-emulated")) {
        want = atomic_load(&isa_max);
        tiles = RT_TILES_EMULATED;
    } else if (!strcmp(name, "avx512"))
        want = ISA_AVX512;
    else if (!strcmp(name, "avx2"))
        want = ISA_AVX2;
    else if (!strcmp(name, "c"))
        want = ISA_C;
    else
        return 0;
    if (want > atomic_load(&isa_max))
        return 0;
    atomic_store(&isa_cur, want);
    atomic_store(&tiles_cur, tiles);
    atomic_store(&dot_cur, dot);
    return 1;
}

int rt_gemm_bf16_dot(void)
{
    pthread_once(&isa_once, isa_init);
    return atomic_load(&dot_cur);
}

int xlacrt_gemm_set_isa(const char *name)
{
    pthread_once(&isa_once, isa_init);
    return set_isa(name);
}

/* ---------------------------------------------------------------------- */
/* driver (shared by both element types; pointers move in bytes)          */

enum { SRC_F32, SRC_F64, SRC_BF16, SRC_F16 };

static double load_src(int src, const char *p, int64_t i)
{
    switch (src) {
    case SRC_F32: return ((const float *)p)[i];
    case SRC_F64: return ((const double *)p)[i];
    case SRC_BF16: return bf16_to_f32(((const uint16_t *)p)[i]);
    default: return f16_to_f32(((const uint16_t *)p)[i]);
    }
}

typedef struct {
    gemm_cfg cfg;
    size_t es; /* element size of C and of the packed copies */
    int src;   /* element type of A and B */
    int trans_a, trans_b, acc;
    int64_t m, n, k;
    const char *a, *b;
    char *c;
    int64_t lda, ldb, ldc;
    /* B packed whole: k block at p0 starts at element p0 * npad; inside it
       the panel of columns jb starts kc * jb elements further. */
    char *bp;
    const char *prepacked; /* B packed by *_pack_b, or NULL */
    /* B read where it is (direct_b): panels of whole nr columns below
       nfull; the last, partial panel packed alone into bp (k x nr) */
    int direct_b;
    /* B packed panel by panel inside the chunks (inline_b): each chunk
       packs a panel of its columns into its slot and runs every row tile
       on it at once (see gemm_run) */
    int inline_b;
    int64_t nfull;
    /* A read where it is (direct_a): the kernel takes its rows' addresses */
    int direct_a;
    /* A packed once, every k block of it at ap_shared + kb * ap_block
       bytes, for all the chunks of the one row block (see gemm_run) */
    int shared_a;
    char *ap_shared;
    size_t ap_block;
    /* A packed by the caller's function instead of from a matrix (an
       implicit GEMM: a convolution packs its input windows directly) */
    rt_pack_a_fn pack_a_cb;
    int force_mr; /* the row tile the caller laid A out for, or 0 */
    /* A's panels already laid out by the caller (rt_gemm_panels_a): the
       panel of rows r0.. at k offset p0, mr x kc, read where it is */
    rt_panel_a_fn panel_a;
    void *pack_a_ctx;
    int64_t npad;
    int64_t kblocks, bgroups; /* packing tasks: k blocks x panel groups */
    int64_t nb;               /* columns per chunk (multiple of nr) */
    int64_t mchunks, nchunks;
    int prefetch_c; /* C is larger than the caches: see PREFETCH_C_BYTES */
    /* packing buffers for A (and, inline_b, one B panel after it at
       slot_b), one per concurrently running chunk */
    int nslots;
    char *slots;
    size_t slot_bytes, slot_b;
    _Atomic int *busy;
} gemm_job;

enum { PANELS_PER_PACK_TASK = 16 };

/* One k block of A into the shared copy (shared_a). */
static void pack_a_task(int64_t kb, void *ctx)
{
    gemm_job *g = ctx;
    int64_t p0 = kb * g->cfg.kc;
    int64_t kc = g->k - p0 < g->cfg.kc ? g->k - p0 : g->cfg.kc;
    char *ap = g->ap_shared + (size_t)kb * g->ap_block;
    if (g->pack_a_cb)
        g->pack_a_cb(g->pack_a_ctx, g->cfg.mr, 0, g->m, p0, kc, ap);
    else
        g->cfg.pack_a(g->a, g->lda, g->trans_a, 0, g->m, p0, kc, ap);
}

static void pack_b_task(int64_t t, void *ctx)
{
    gemm_job *g = ctx;
    int64_t kb = t / g->bgroups, grp = t % g->bgroups;
    int64_t p0 = kb * g->cfg.kc;
    int64_t kc = g->k - p0 < g->cfg.kc ? g->k - p0 : g->cfg.kc;
    int64_t j0 = grp * PANELS_PER_PACK_TASK * g->cfg.nr;
    int64_t nc = g->n - j0 < PANELS_PER_PACK_TASK * g->cfg.nr ? g->n - j0
                                                               : PANELS_PER_PACK_TASK * g->cfg.nr;
    char *dst = g->bp + (size_t)(p0 * g->npad + j0 * kc) * g->es;
    g->cfg.pack_b(g->b, g->ldb, g->trans_b, j0, nc, p0, kc, dst);
}

/* Asks for the rows of a C tile (rows of `bytes`, `stride` apart) before
   the kernel runs: it reads (acc) or writes them only after its k loop,
   and in a product whose C is larger than the caches they have left L2
   since the k block before, so they would stall each tile's end. */
static void prefetch_tile(const char *c, int64_t stride, int rows, int64_t bytes)
{
    for (int r = 0; r < rows; r++)
        for (int64_t o = 0; o < bytes + 63; o += 64)
            __builtin_prefetch(c + r * stride + (o < bytes ? o : bytes - 1), 0, 3);
}

/* One register tile: rows r0.. of C at cp from the A panel apan (or, with
   direct_a, from A's rows where they are) and the B panel bpan, whose rows
   are bs elements apart. */
static void run_tile(const gemm_job *g, const char *apan, const char *bpan, int64_t bs, char *cp, int64_t r0,
                     int64_t p0, int64_t kc, int mv, int nv, int acc)
{
    const gemm_cfg *f = &g->cfg;
    if (g->prefetch_c)
        prefetch_tile(cp, g->ldc * g->es, mv, nv * g->es);
#if defined(__x86_64__)
    if (g->direct_a) {
        /* rows past the product's repeat its first: computed, not stored */
        const float *rows[12];
        for (int r = 0; r < 12; r++)
            rows[r] = (const float *)g->a + (r0 + (r < mv ? r : 0)) * g->lda + p0;
        if (f->kern == kern_avx2_f32)
            rows6_avx2_f32(kc, rows, (const float *)bpan, bs, (float *)cp, g->ldc, mv, nv, acc);
        else
            rt_gemm_rows_f32(1, kc, rows, (const float *)bpan, bs, 0, (float *)cp, g->ldc, mv, nv, acc);
        return;
    }
#endif
    f->kern(kc, apan, bpan, bs, cp, g->ldc, mv, nv, acc);
}

/* One k block of a chunk whose B panels are packed here, one at a time
   into bpan (kc x nr, a slot's tail), while they are hot: every row tile
   of the chunk's A block runs on a panel before the next is packed. */
static void chunk_inline_b(gemm_job *g, const char *ap, char *bpan, int64_t i0, int64_t mc, int64_t j0,
                           int64_t nc, int64_t p0, int64_t kc, int acc)
{
    const gemm_cfg *f = &g->cfg;
    for (int64_t jr = 0; jr < nc; jr += f->nr) {
        int nv = nc - jr < f->nr ? (int)(nc - jr) : f->nr;
        int64_t col = j0 + jr;
        f->pack_b(g->b, g->ldb, g->trans_b, col, nv, p0, kc, bpan);
        for (int64_t ir = 0; ir < mc; ir += f->mr) {
            int mv = mc - ir < f->mr ? (int)(mc - ir) : f->mr;
            char *cp = g->c + (size_t)((i0 + ir) * g->ldc + col) * g->es;
            const char *apan = g->panel_a ? g->panel_a(g->pack_a_ctx, i0 + ir, p0) : ap + (size_t)(ir * kc) * g->es;
            run_tile(g, apan, bpan, f->nr, cp, i0 + ir, p0, kc, mv, nv, acc);
        }
    }
}

static void gemm_chunk(int64_t t, void *ctx)
{
    gemm_job *g = ctx;
    const gemm_cfg *f = &g->cfg;
    /* Row chunks get whole MR panels, spread evenly so that the last chunk
       is not a sliver that finishes long after the others. */
    int64_t mi = t / g->nchunks, panels = (g->m + f->mr - 1) / f->mr;
    int64_t i0 = mi * panels / g->mchunks * f->mr;
    int64_t iend = (mi + 1) * panels / g->mchunks * f->mr;
    int64_t mc = (iend < g->m ? iend : g->m) - i0;
    int64_t j0 = (t % g->nchunks) * g->nb;
    int64_t nc = g->n - j0 < g->nb ? g->n - j0 : g->nb;
    int slot = 0;
    /* At most nslots chunks run at once, so one of the slots is free. */
    for (;; slot = (slot + 1) % g->nslots)
        if (!atomic_exchange(&g->busy[slot], 1))
            break;
    char *sp = g->slots + (size_t)slot * g->slot_bytes, *ap = sp;
    for (int64_t p0 = 0; p0 < g->k; p0 += f->kc) {
        int64_t kc = g->k - p0 < f->kc ? g->k - p0 : f->kc;
        int acc = g->acc || p0 > 0;
        if (g->direct_a || g->panel_a)
            ; /* read in place below */
        else if (g->shared_a)
            ap = g->ap_shared + (size_t)(p0 / f->kc) * g->ap_block;
        else if (g->pack_a_cb)
            g->pack_a_cb(g->pack_a_ctx, f->mr, i0, mc, p0, kc, ap);
        else
            f->pack_a(g->a, g->lda, g->trans_a, i0, mc, p0, kc, ap);
        if (g->inline_b) {
            chunk_inline_b(g, ap, sp + g->slot_b, i0, mc, j0, nc, p0, kc, acc);
            continue;
        }
        const char *bblk = g->bp + (size_t)(p0 * g->npad) * g->es;
        /* The A block stays in L2 while column blocks of B small enough to
           sit beside it stream past; each A panel is reused from L1 across
           the panels of one column block. */
        for (int64_t jc = 0; jc < nc; jc += f->nc) {
            int64_t jend = nc - jc < f->nc ? nc : jc + f->nc;
            for (int64_t ir = 0; ir < mc; ir += f->mr) {
                int mv = mc - ir < f->mr ? (int)(mc - ir) : f->mr;
                const char *apan = g->panel_a ? g->panel_a(g->pack_a_ctx, i0 + ir, p0) : ap + (size_t)(ir * kc) * g->es;
                for (int64_t jr = jc; jr < jend; jr += f->nr) {
                    int nv = nc - jr < f->nr ? (int)(nc - jr) : f->nr;
                    int64_t col = j0 + jr, bs = f->nr;
                    const char *bpan;
                    if (!g->direct_b) {
                        bpan = bblk + (size_t)(col * kc) * g->es;
                    } else if (col < g->nfull) {
                        bpan = g->b + (size_t)(p0 * g->ldb + col) * g->es;
                        bs = g->ldb;
                    } else {
                        bpan = g->bp + (size_t)(p0 * f->nr) * g->es;
                    }
                    char *cp = g->c + (size_t)((i0 + ir) * g->ldc + col) * g->es;
                    run_tile(g, apan, bpan, bs, cp, i0 + ir, p0, kc, mv, nv, acc);
                }
            }
        }
    }
    atomic_store(&g->busy[slot], 0);
}

static int64_t round_up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

/* The packed copy of B: columns padded to the register tile, and the
   packing tasks (k blocks x groups of panels). */
static void b_layout(gemm_job *g)
{
    g->npad = round_up(g->n, g->cfg.nr);
    g->kblocks = (g->k + g->cfg.kc - 1) / g->cfg.kc;
    g->bgroups = (g->npad / g->cfg.nr + PANELS_PER_PACK_TASK - 1) / PANELS_PER_PACK_TASK;
}

/* The row tile for a product of m rows.  The kernel computes whole tiles,
   so m = 64 on the 12-row tile computes 72 rows (m = 32: 36); the 8-row
   tile wastes nothing there but does less work per load of B.  It is
   taken when the rows it computes, weighted by SMALL_TILE_COST (percent
   of the large tile's time per row), cost less than the large tile's:
   for m = 32, 64, 40, 256 (264 rows against 256), not for m = 1024 or
   784, whose padding is under 2%.  On the AVX-512 machine the benchmarks
   ran on (Zen 4), the 8 x 32 float tile runs at the same rate per row as
   12 x 32 (a 64 x 512 x 784 product: 102 against 92 GFLOP/s, 32 x 512 x
   128: 95 against 86); the 2% margin keeps large products on the tile
   they were tuned with where padding barely matters.  The choice depends
   on m alone and never changes a result: every element of C is the same
   k-ordered sum whichever tile holds it, and both tiles read the same
   packed B (same nr), so a B packed once serves either. */
enum { SMALL_TILE_COST = 102 };

static void pick_tile(gemm_cfg *f, int64_t m)
{
    if (!f->mr_small || !f->pack_a_small)
        return;
    int64_t big = (m + f->mr - 1) / f->mr * f->mr;
    int64_t small = (m + f->mr_small - 1) / f->mr_small * f->mr_small;
    if (small * SMALL_TILE_COST < big * 100) {
        f->mr = f->mr_small;
        f->kern = f->kern_small;
        f->pack_a = f->pack_a_small;
    }
}

/* Below this many multiply-adds (about 6 us on one core) a call runs on
   the calling thread alone: sharing it would cost more than it saves.
   Workers spin a while between jobs (threadpool.c), so a loop of small
   products pays about a microsecond per job: an LSTM step's 32x128x512 and
   32x64x512 products, 2^21 and 2^20 multiply-adds, went from 49 and 24 us
   to 28 and 15 us on two threads (AVX2), where the bound of 2^22 kept them
   on one.  Counted as the kernels compute them, over whole tiles: a
   64 x 10 x 512 product (logits) computes 32 columns on AVX-512, and took
   40 us on one thread of two. */
enum { PARALLEL_MIN_FMAS = 1 << 19 };
/* Below this many elements a B packed once for many products (a
   convolution's kernel) is packed on the calling thread. */
enum { PARALLEL_MIN_PACK = 1 << 18 };
/* A product of few rows (at most DIRECT_B_MAX_PANELS row panels: 64 rows
   on the 8-row tile) by a B stored [k, n] in the compute type, of at most
   DIRECT_B_MAX_BYTES, reads B where it is instead of packing it: B is read
   a few times from cache either way, and the copy costs a pass over B that
   a 64-row product does not earn back (a 64 x 512 x 512 sgemm: 99 ->
   109 GFLOP/s; 32 x 512 x 128: 96 -> 112).  Rows of B are then ldb apart
   rather than contiguous; a B much larger than the caches streams worse
   that way (64 x 2048 x 1024, 8 MiB: 78 -> 69), so it is packed as before.
   Only the last, partial panel of columns is packed (it would read past
   the rows' ends).  The kernels compute the same sums either way. */
enum { DIRECT_B_MAX_PANELS = 8 };
/* A product of few column panels (at most DIRECT_A_MAX_PANELS of 32
   floats: a 1x1 convolution to 64 or 128 features) by an A stored [m, k]
   reads A where it is, as the direct convolution tiles read their
   windows: packing A costs a pass over it (30% of the time of a 25088 x
   256 x 64 product) that so few panels do not earn back.  Each row of the
   12-row tile is then a stream of its own instead of one interleaved
   panel; the kernel computes the same sums in the same order, so results
   are the packed path's bits.  Measured on AVX-512 (Sapphire Rapids, 1
   thread, min): 1x1 convolutions 8x56x56x256 -> 64 9.3-9.7 -> 7.5-7.8 ms,
   8x28x28x512 -> 128 6.3-6.8 -> 5.8-6.1 ms.  On AVX2 (the 6 x 16 tile, so
   at most 64 columns): attention's probabilities times values, 32
   products of 256 x 256 by 256 x 32, 2.87 -> 1.95 ms (1 thread, min). */
enum { DIRECT_A_MAX_PANELS = 4 };
#define DIRECT_B_MAX_BYTES ((double)(4 << 20))
/* A C larger than this (an L2 and more) has its tiles prefetched
   (prefetch_tile).  AVX2 (Zen 3), 1 thread, interleaved processes: with
   the prefetch in the kernel, for every product, 2048^3 73.5 -> 76.9
   GFLOP/s and 1024^3 69.0 -> 72.2 (medians of 30), but products whose C
   stays in cache gained nothing and mlp_infer's 64 x 512 x 784 (C 128
   KiB, a k block of 16) lost a few percent, hence the bound; with it here
   and bounded, 2048^3 69.0 -> 73.2 (medians of 16); in run_tile, so
   that a one-block product packing B as it goes has it too, 64 x 16384 x
   1024 (C 4 MiB) 42.4 -> 47.2 (medians of 12). */
#define PREFETCH_C_BYTES ((double)(2 << 20))
/* Batched products smaller than this each run on one thread, the batch
   spread over the pool; larger ones one after another, each split. */
enum { BATCH_SPLIT_FMAS = 1 << 24 };

/* The packed copies (and the slots' busy flags) live in the calling
   thread's GEMM scratch (xlacrt_scratch_get): fresh pages cost a page
   fault each, which is measurable next to a mid-sized GEMM, and a program
   run again then allocates nothing. */
static void gemm_run(gemm_job *g, xlacrt_pool *p)
{
    if (g->force_mr && g->force_mr == g->cfg.mr_small && g->cfg.pack_a_small) {
        g->cfg.mr = g->cfg.mr_small;
        g->cfg.kern = g->cfg.kern_small;
        g->cfg.pack_a = g->cfg.pack_a_small;
    } else if (g->force_mr != g->cfg.mr) {
        pick_tile(&g->cfg, g->m);
    }
    const gemm_cfg *f = &g->cfg;
    b_layout(g);
    if ((double)round_up(g->m, f->mr) * (double)g->npad * (double)g->k < PARALLEL_MIN_FMAS)
        p = NULL;
    int64_t mpanels = (g->m + f->mr - 1) / f->mr, chunk_panels = f->mc / f->mr;
    g->mchunks = (mpanels + chunk_panels - 1) / chunk_panels;
    /* A few row blocks are cut into a multiple of the threads: 43 panels
       as 3 blocks kept one of two threads idle a third of the time (blocks
       of rows share nothing but B, which each reads from cache anyway) */
    int64_t ps = xlacrt_pool_size(p);
    if (ps > 1 && g->mchunks > 1 && g->mchunks < 4 * ps && g->mchunks % ps &&
        (g->mchunks + ps - 1) / ps * ps <= mpanels)
        g->mchunks = (g->mchunks + ps - 1) / ps * ps;
    /* and one block of rows too narrow for column chunks (of at least 128
       columns: see below) is cut into one a thread: a 128 x 128 x 512
       product ran on one of two threads */
    if (ps > 1 && g->mchunks == 1 && g->npad / ps < 128 && mpanels >= 2 * ps)
        g->mchunks = ps;
    /* Splitting N makes each chunk pack its A block again, so split only
       when there are too few row blocks to keep the pool busy.  Where the
       blocks fall never changes a result: every element of C comes from
       the same kernel over the same k blocks. */
    int64_t npanels = g->npad / f->nr, want = 2 * (int64_t)xlacrt_pool_size(p);
    if (want <= 2)
        want = 1;
    int64_t nsplit = g->mchunks >= want ? 1 : (want + g->mchunks - 1) / g->mchunks;
    if (nsplit > npanels)
        nsplit = npanels;
    if (nsplit > 1 && g->npad / nsplit < 128)
        nsplit = g->npad / 128 > 1 ? g->npad / 128 : 1;
    /* one row block cut into a multiple of the threads: 448 columns as
       3 chunks of 160 kept one of two threads idle a third of the time */
    if (g->mchunks == 1 && ps > 1 && nsplit > ps)
        nsplit = nsplit / ps * ps;
    g->nb = round_up((npanels + nsplit - 1) / nsplit, 1) * f->nr;
    g->nchunks = (g->n + g->nb - 1) / g->nb;
    int64_t chunks = g->mchunks * g->nchunks;
    int64_t kcmax = g->k < f->kc ? g->k : f->kc;
    int64_t mcmax = (mpanels + g->mchunks - 1) / g->mchunks * f->mr;
    g->nslots = xlacrt_pool_size(p) < chunks ? xlacrt_pool_size(p) : (int)chunks;
    /* (A's panels laid out by the caller need no packing slot) */
    g->slot_bytes = g->panel_a ? 0 : (size_t)(round_up(mcmax * kcmax, 16)) * g->es; /* keeps slots 64-aligned */
    g->direct_b = !g->prepacked && !g->trans_b && (g->src == SRC_F32 || g->src == SRC_F64) &&
                  mpanels <= DIRECT_B_MAX_PANELS &&
                  (double)g->k * (double)g->ldb * (double)g->es <= DIRECT_B_MAX_BYTES;
    g->nfull = g->n / f->nr * f->nr;
    g->prefetch_c = (double)g->m * (double)g->n * (double)g->es > PREFETCH_C_BYTES;
    /* One block of rows: each panel of B serves that block alone, so it is
       packed where it is used, into the chunk's slot, and every row tile
       runs on it while it is in L1, instead of all of B being written out
       first and read back from L3 (and, on a pool, a second parallel loop
       and its wait).  The panels and sums are the same, so are the bits.
       AVX2, 1 thread, fastest of 4000 calls: 8 x 4096 x 1024 (B 16 MiB)
       3.4-3.6 -> 2.7-3.0 ms; 64 x 512 x 784 630 -> 624 us. */
    g->inline_b = !g->prepacked && !g->direct_b && g->mchunks == 1;
    if (g->inline_b) {
        g->slot_b = g->slot_bytes;
        g->slot_bytes += (size_t)round_up(f->nr * kcmax, 16) * g->es;
    }
#if defined(__x86_64__)
    g->direct_a = (f->kern == kern_avx512_f32 || f->kern == kern_avx2_f32) && g->src == SRC_F32 && !g->trans_a &&
                  !g->pack_a_cb && !g->panel_a && g->npad / f->nr <= DIRECT_A_MAX_PANELS;
#endif
    /* One block of rows cut into column chunks: every chunk would pack
       the same A again (on two threads a 32 x 128 A four times for a 32 x
       128 x 512 product), so it is packed once, a task per k block, and
       the chunks read it.  The panels are the same, so are the bits. */
    g->shared_a = g->mchunks == 1 && g->nchunks > 1 && !g->direct_a && !g->panel_a;
    g->ap_block = (size_t)round_up(mcmax * kcmax, 16) * g->es;
    size_t ap_bytes = g->shared_a ? g->ap_block * (size_t)g->kblocks : 0;
    size_t bp_elems = g->prepacked || g->inline_b ? 0
                      : g->direct_b                ? (g->nfull < g->n ? f->nr * g->k : 0)
                                                   : g->npad * g->k;
    size_t bp_bytes = (bp_elems * g->es + 63) / 64 * 64;
    size_t busy_at = bp_bytes + ap_bytes + g->slot_bytes * (size_t)g->nslots;
    char *ws = xlacrt_scratch_get(XLACRT_SCRATCH_GEMM, busy_at + sizeof *g->busy * (size_t)g->nslots, "GEMM");
    if (ws) {
        g->bp = g->prepacked ? (char *)g->prepacked : ws;
        g->ap_shared = ws + bp_bytes;
        g->slots = ws + bp_bytes + ap_bytes;
        g->busy = (_Atomic int *)(ws + busy_at);
        for (int i = 0; i < g->nslots; i++)
            atomic_init(&g->busy[i], 0);
        if (g->direct_b && bp_elems)
            f->pack_b(g->b, g->ldb, 0, g->nfull, g->n - g->nfull, 0, g->k, g->bp);
        else if (!g->prepacked && !g->direct_b && !g->inline_b)
            xlacrt_parallel_for(p, g->kblocks * g->bgroups, pack_b_task, g);
        if (g->shared_a)
            xlacrt_parallel_for(p, g->kblocks, pack_a_task, g);
        xlacrt_parallel_for(p, chunks, gemm_chunk, g);
    } else if (g->prepacked) {
        /* out of memory for A's packing slots: recorded in the run's
           status (xlacrt_scratch_get), which fails the run */
    } else {
        /* Out of memory for the packed copies: fall back to a plain loop
           on the operands (accumulating in double). */
        for (int64_t i = 0; i < g->m; i++)
            for (int64_t j = 0; j < g->n; j++) {
                double s = 0;
                for (int64_t q = 0; q < g->k; q++) {
                    int64_t ai = g->trans_a ? q * g->lda + i : i * g->lda + q;
                    int64_t bi = g->trans_b ? j * g->ldb + q : q * g->ldb + j;
                    s += load_src(g->src, g->a, ai) * load_src(g->src, g->b, bi);
                }
                if (g->es == sizeof(float)) {
                    float *cp = (float *)g->c + i * g->ldc + j;
                    *cp = g->acc ? *cp + (float)s : (float)s;
                } else {
                    double *cp = (double *)g->c + i * g->ldc + j;
                    *cp = g->acc ? *cp + s : s;
                }
            }
    }
    xlacrt_scratch_put(XLACRT_SCRATCH_GEMM, ws);
}

/* k == 0: the product is zero. */
static void gemm_empty(size_t es, int64_t m, int64_t n, void *c, int64_t ldc, int accumulate)
{
    if (accumulate)
        return;
    for (int64_t i = 0; i < m; i++)
        memset((char *)c + (size_t)(i * ldc) * es, 0, (size_t)n * es);
}

void xlacrt_sgemm(xlacrt_pool *p, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                  const float *a, int64_t lda, const float *b, int64_t ldb, float *c, int64_t ldc,
                  int accumulate)
{
    if (m <= 0 || n <= 0)
        return;
    if (k <= 0) {
        gemm_empty(sizeof *c, m, n, c, ldc, accumulate);
        return;
    }
    pthread_once(&isa_once, isa_init);
    gemm_job g = {
        .cfg = cfg_f32[atomic_load(&isa_cur)],
        .es = sizeof(float),
        .src = SRC_F32,
        .trans_a = trans_a, .trans_b = trans_b, .acc = accumulate,
        .m = m, .n = n, .k = k,
        .a = (const char *)a, .b = (const char *)b, .c = (char *)c,
        .lda = lda, .ldb = ldb, .ldc = ldc,
    };
    gemm_run(&g, p);
}

void xlacrt_dgemm(xlacrt_pool *p, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                  const double *a, int64_t lda, const double *b, int64_t ldb, double *c,
                  int64_t ldc, int accumulate)
{
    if (m <= 0 || n <= 0)
        return;
    if (k <= 0) {
        gemm_empty(sizeof *c, m, n, c, ldc, accumulate);
        return;
    }
    pthread_once(&isa_once, isa_init);
    gemm_job g = {
        .cfg = cfg_f64[atomic_load(&isa_cur)],
        .es = sizeof(double),
        .src = SRC_F64,
        .trans_a = trans_a, .trans_b = trans_b, .acc = accumulate,
        .m = m, .n = n, .k = k,
        .a = (const char *)a, .b = (const char *)b, .c = (char *)c,
        .lda = lda, .ldb = ldb, .ldc = ldc,
    };
    gemm_run(&g, p);
}

/* Whether the calling thread flushes denormals (x86 MXCSR FTZ and DAZ:
   compiled code with flush_denormals, JAX's default).  The tile
   instructions' bfloat16 arithmetic always flushes them, so bfloat16
   products use tiles only then; in IEEE mode the float kernels keep
   denormals, as the interpreter does.  The pool runs chunks in the
   caller's mode, so one call decides for all its threads. */
static int flushing_denormals(void)
{
#if defined(__x86_64__)
    return (_mm_getcsr() & 0x8040u) == 0x8040u;
#else
    return 0;
#endif
}

/* 16-bit inputs (bfloat16 or IEEE half), float output. */
static void gemm_16(xlacrt_pool *p, int src, int trans_a, int trans_b, int64_t m, int64_t n,
                    int64_t k, const uint16_t *a, int64_t lda, const uint16_t *b, int64_t ldb,
                    float *c, int64_t ldc, int accumulate)
{
    if (m <= 0 || n <= 0)
        return;
    if (k <= 0) {
        gemm_empty(sizeof *c, m, n, c, ldc, accumulate);
        return;
    }
    pthread_once(&isa_once, isa_init);
    if (src == SRC_BF16 && flushing_denormals() &&
        rt_tile_gemm_bf16(p, trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc, accumulate))
        return;
    int isa = atomic_load(&isa_cur);
    const packers *pk = src == SRC_BF16 ? &pk_bf16[isa] : f16c_ok ? &pk_f16c[isa] : &pk_f16[isa];
    gemm_job g = {
        .cfg = cfg_f32[isa],
        .es = sizeof(float),
        .src = src,
        .trans_a = trans_a, .trans_b = trans_b, .acc = accumulate,
        .m = m, .n = n, .k = k,
        .a = (const char *)a, .b = (const char *)b, .c = (char *)c,
        .lda = lda, .ldb = ldb, .ldc = ldc,
    };
    g.cfg.pack_a = pk->pack_a;
    g.cfg.pack_b = pk->pack_b;
    g.cfg.pack_a_small = pk->pack_a_small;
    gemm_run(&g, p);
}

void xlacrt_gemm_bf16(xlacrt_pool *p, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                      const uint16_t *a, int64_t lda, const uint16_t *b, int64_t ldb, float *c,
                      int64_t ldc, int accumulate)
{
    gemm_16(p, SRC_BF16, trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc, accumulate);
}

void xlacrt_gemm_f16(xlacrt_pool *p, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                     const uint16_t *a, int64_t lda, const uint16_t *b, int64_t ldb, float *c,
                     int64_t ldc, int accumulate)
{
    gemm_16(p, SRC_F16, trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc, accumulate);
}

/* ---------------------------------------------------------------------- */
/* strided batches                                                        */

typedef struct {
    int dbl, trans_a, trans_b, acc; /* dbl: 0 float, 1 double, 2 bfloat16 / 3 half into float */
    int64_t m, n, k, lda, ldb, ldc, sa, sb, sc;
    const void *a, *b;
    void *c;
} batch_job;

/* One product of the batch, run serially: the pool is already busy with
   the other products. */
static void batch_task(int64_t i, void *ctx)
{
    const batch_job *j = ctx;
    if (j->dbl >= 2)
        gemm_16(NULL, j->dbl == 2 ? SRC_BF16 : SRC_F16, j->trans_a, j->trans_b, j->m, j->n, j->k,
                (const uint16_t *)j->a + i * j->sa, j->lda, (const uint16_t *)j->b + i * j->sb, j->ldb,
                (float *)j->c + i * j->sc, j->ldc, j->acc);
    else if (j->dbl)
        xlacrt_dgemm(NULL, j->trans_a, j->trans_b, j->m, j->n, j->k,
                     (const double *)j->a + i * j->sa, j->lda, (const double *)j->b + i * j->sb,
                     j->ldb, (double *)j->c + i * j->sc, j->ldc, j->acc);
    else
        xlacrt_sgemm(NULL, j->trans_a, j->trans_b, j->m, j->n, j->k,
                     (const float *)j->a + i * j->sa, j->lda, (const float *)j->b + i * j->sb,
                     j->ldb, (float *)j->c + i * j->sc, j->ldc, j->acc);
}

/* Small products are spread over the pool one per chunk; large ones run one
   after another, each split over the pool.  Either way every product is
   computed exactly as a single call would, so the choice (made from the
   shape alone) never changes results. */
static void batch_run(xlacrt_pool *p, batch_job *j, int64_t batch)
{
    if (batch <= 0)
        return;
    double fmas = (double)j->m * (double)j->n * (double)j->k;
    if (batch > 1 && fmas < BATCH_SPLIT_FMAS) {
        xlacrt_parallel_for(p, batch, batch_task, j);
        return;
    }
    for (int64_t i = 0; i < batch; i++) {
        if (j->dbl >= 2)
            gemm_16(p, j->dbl == 2 ? SRC_BF16 : SRC_F16, j->trans_a, j->trans_b, j->m, j->n, j->k,
                    (const uint16_t *)j->a + i * j->sa, j->lda, (const uint16_t *)j->b + i * j->sb, j->ldb,
                    (float *)j->c + i * j->sc, j->ldc, j->acc);
        else if (j->dbl)
            xlacrt_dgemm(p, j->trans_a, j->trans_b, j->m, j->n, j->k,
                         (const double *)j->a + i * j->sa, j->lda,
                         (const double *)j->b + i * j->sb, j->ldb, (double *)j->c + i * j->sc,
                         j->ldc, j->acc);
        else
            xlacrt_sgemm(p, j->trans_a, j->trans_b, j->m, j->n, j->k,
                         (const float *)j->a + i * j->sa, j->lda,
                         (const float *)j->b + i * j->sb, j->ldb, (float *)j->c + i * j->sc,
                         j->ldc, j->acc);
    }
}

void xlacrt_sgemm_batched(xlacrt_pool *p, int trans_a, int trans_b, int64_t batch, int64_t m,
                          int64_t n, int64_t k, const float *a, int64_t lda, int64_t stride_a,
                          const float *b, int64_t ldb, int64_t stride_b, float *c, int64_t ldc,
                          int64_t stride_c, int accumulate)
{
    batch_job j = {0, trans_a, trans_b, accumulate, m, n, k, lda, ldb, ldc,
                   stride_a, stride_b, stride_c, a, b, c};
    batch_run(p, &j, batch);
}

void xlacrt_gemm_bf16_batched(xlacrt_pool *p, int trans_a, int trans_b, int64_t batch, int64_t m,
                              int64_t n, int64_t k, const uint16_t *a, int64_t lda, int64_t stride_a,
                              const uint16_t *b, int64_t ldb, int64_t stride_b, float *c, int64_t ldc,
                              int64_t stride_c, int accumulate)
{
    batch_job j = {2, trans_a, trans_b, accumulate, m, n, k, lda, ldb, ldc,
                   stride_a, stride_b, stride_c, a, b, c};
    batch_run(p, &j, batch);
}

void xlacrt_gemm_f16_batched(xlacrt_pool *p, int trans_a, int trans_b, int64_t batch, int64_t m,
                             int64_t n, int64_t k, const uint16_t *a, int64_t lda, int64_t stride_a,
                             const uint16_t *b, int64_t ldb, int64_t stride_b, float *c, int64_t ldc,
                             int64_t stride_c, int accumulate)
{
    batch_job j = {3, trans_a, trans_b, accumulate, m, n, k, lda, ldb, ldc,
                   stride_a, stride_b, stride_c, a, b, c};
    batch_run(p, &j, batch);
}

void xlacrt_dgemm_batched(xlacrt_pool *p, int trans_a, int trans_b, int64_t batch, int64_t m,
                          int64_t n, int64_t k, const double *a, int64_t lda, int64_t stride_a,
                          const double *b, int64_t ldb, int64_t stride_b, double *c,
                          int64_t ldc, int64_t stride_c, int accumulate)
{
    batch_job j = {1, trans_a, trans_b, accumulate, m, n, k, lda, ldb, ldc,
                   stride_a, stride_b, stride_c, a, b, c};
    batch_run(p, &j, batch);
}

/* ---- B packed once ----
 * The packed copy starts with a header saying which kernel family packed
 * it (its register tile and block depth decide the layout) and the shape;
 * the products use that family's kernels, so a copy stays valid if the
 * family is changed afterwards. */
typedef struct {
    int32_t isa, f64;
    int64_t n, k;
    int64_t kc; /* depth of the k blocks it was packed in */
} packed_b_header;
enum { PACKED_B_HEADER = 64, PACKED_B_MAX_NR = 32 };

size_t xlacrt_gemm_packed_b_bytes(int f64, int64_t n, int64_t k)
{
    return PACKED_B_HEADER + (size_t)(round_up(n > 0 ? n : 1, PACKED_B_MAX_NR) * (k > 0 ? k : 1)) *
                                 (f64 ? sizeof(double) : sizeof(float));
}

/* kc <= 0: the family's own block depth */
static void pack_b_whole(xlacrt_pool *p, int f64, int trans_b, int64_t n, int64_t k, const void *b,
                         int64_t ldb, void *packed, int64_t kc)
{
    pthread_once(&isa_once, isa_init);
    int isa = atomic_load(&isa_cur);
    gemm_job g = {
        .cfg = f64 ? cfg_f64[isa] : cfg_f32[isa],
        .es = f64 ? sizeof(double) : sizeof(float),
        .src = f64 ? SRC_F64 : SRC_F32,
        .trans_b = trans_b, .n = n, .k = k,
        .b = (const char *)b, .ldb = ldb,
    };
    if (kc > 0)
        g.cfg.kc = (int)kc;
    packed_b_header h = {isa, f64, n, k, g.cfg.kc};
    memcpy(packed, &h, sizeof h);
    if (n <= 0 || k <= 0)
        return;
    b_layout(&g);
    g.bp = (char *)packed + PACKED_B_HEADER;
    if ((double)n * (double)k < PARALLEL_MIN_PACK)
        p = NULL;
    xlacrt_parallel_for(p, g.kblocks * g.bgroups, pack_b_task, &g);
}

void xlacrt_sgemm_pack_b(xlacrt_pool *p, int trans_b, int64_t n, int64_t k, const float *b, int64_t ldb,
                         void *packed)
{
    pack_b_whole(p, 0, trans_b, n, k, b, ldb, packed, 0);
}

void xlacrt_dgemm_pack_b(xlacrt_pool *p, int trans_b, int64_t n, int64_t k, const double *b, int64_t ldb,
                         void *packed)
{
    pack_b_whole(p, 1, trans_b, n, k, b, ldb, packed, 0);
}

static void gemm_packed(xlacrt_pool *p, int f64, int trans_a, int64_t m, const void *a, int64_t lda,
                        const void *packed, void *c, int64_t ldc, int accumulate, rt_pack_a_fn pack_a,
                        void *pack_ctx, int force_mr, rt_panel_a_fn panel_a)
{
    packed_b_header h;
    memcpy(&h, packed, sizeof h);
    size_t es = f64 ? sizeof(double) : sizeof(float);
    if (m <= 0 || h.n <= 0)
        return;
    if (h.k <= 0) {
        gemm_empty(es, m, h.n, c, ldc, accumulate);
        return;
    }
    gemm_job g = {
        .cfg = f64 ? cfg_f64[h.isa] : cfg_f32[h.isa],
        .es = es,
        .src = f64 ? SRC_F64 : SRC_F32,
        .trans_a = trans_a, .acc = accumulate,
        .m = m, .n = h.n, .k = h.k,
        .a = (const char *)a, .c = (char *)c,
        .lda = lda, .ldc = ldc,
        .prepacked = (const char *)packed + PACKED_B_HEADER,
        .pack_a_cb = pack_a,
        .pack_a_ctx = pack_ctx,
        .force_mr = force_mr,
        .panel_a = panel_a,
    };
    g.cfg.kc = (int)h.kc;
    gemm_run(&g, p);
}

void xlacrt_sgemm_packed(xlacrt_pool *p, int trans_a, int64_t m, const float *a, int64_t lda, const void *packed,
                         float *c, int64_t ldc, int accumulate)
{
    gemm_packed(p, 0, trans_a, m, a, lda, packed, c, ldc, accumulate, NULL, NULL, 0, NULL);
}

void xlacrt_dgemm_packed(xlacrt_pool *p, int trans_a, int64_t m, const double *a, int64_t lda,
                         const void *packed, double *c, int64_t ldc, int accumulate)
{
    gemm_packed(p, 1, trans_a, m, a, lda, packed, c, ldc, accumulate, NULL, NULL, 0, NULL);
}

void rt_gemm_pack_b_kc(int f64, int64_t kc, int64_t n, int64_t k, const void *b, int64_t ldb, void *packed)
{
    pack_b_whole(NULL, f64, 0, n, k, b, ldb, packed, kc);
}

void rt_gemm_pack_b_header(int f64, int64_t kc, int64_t n, int64_t k, void *packed, rt_packed_b_info *info)
{
    pthread_once(&isa_once, isa_init);
    int isa = atomic_load(&isa_cur);
    const gemm_cfg *f = f64 ? &cfg_f64[isa] : &cfg_f32[isa];
    packed_b_header h = {isa, f64, n, k, kc > 0 ? kc : f->kc};
    memcpy(packed, &h, sizeof h);
    rt_gemm_packed_b_info(packed, f64, info);
}

void rt_gemm_packed_cb(xlacrt_pool *p, int f64, int64_t m, rt_pack_a_fn pack_a, void *ctx,
                       const void *packed, void *c, int64_t ldc, int accumulate)
{
    gemm_packed(p, f64, 0, m, NULL, 0, packed, c, ldc, accumulate, pack_a, ctx, 0, NULL);
}

void rt_gemm_panels_a(xlacrt_pool *p, int f64, int64_t m, int mr, rt_panel_a_fn panel_a, void *ctx,
                      const void *packed, void *c, int64_t ldc, int accumulate)
{
    gemm_packed(p, f64, 0, m, NULL, 0, packed, c, ldc, accumulate, NULL, ctx, mr, panel_a);
}

int rt_gemm_current_avx512(void)
{
    pthread_once(&isa_once, isa_init);
#if defined(__x86_64__)
    return atomic_load(&isa_cur) == ISA_AVX512;
#else
    return 0;
#endif
}

void rt_gemm_packed_b_info(const void *packed, int f64, rt_packed_b_info *info)
{
    packed_b_header h;
    memcpy(&h, packed, sizeof h);
    const gemm_cfg *f = f64 ? &cfg_f64[h.isa] : &cfg_f32[h.isa];
#if defined(__x86_64__)
    info->avx512 = h.isa == ISA_AVX512;
#else
    info->avx512 = 0;
#endif
    info->mr = f->mr;
    info->mr_small = f->pack_a_small ? f->mr_small : 0;
    info->nr = f->nr;
    info->n = h.n;
    info->k = h.k;
    info->kc = h.kc;
    info->npad = round_up(h.n, f->nr);
    info->data = (const char *)packed + PACKED_B_HEADER;
}
