/*
 * gemm_tiles.h - the tile matrix kernels of gemm_amx.c, written once against
 * a thin layer of tile operations and included twice there: once with the
 * layer as the AMX instructions themselves, once as a plain C emulation of
 * the same instructions (so that every host runs and tests the kernels'
 * logic, and AMX hosts run them natively).
 *
 * The includer defines, before each inclusion:
 *   TL_NAME(x)            the name of this instance's function x
 *   TL_ATTR               attributes of every function here (may be empty)
 *   TL_CONFIG(cfg)        ldtilecfg from a 64-byte configuration
 *   TL_ZERO(t)            tilezero tmm t
 *   TL_LOAD(t, p, s)      tileloadd tmm t from p, rows s bytes apart
 *   TL_STORE(t, p, s)     tilestored
 *   TL_DPBF16(d, a, b)    tdpbf16ps tmm d += tmm a . tmm b
 *   TL_DPBSSD(d, a, b)    tdpbssd (signed bytes by signed bytes)
 *   TL_RELEASE()          tilerelease
 * Tile numbers are constants (the instructions encode them).  The end of
 * this file undefines them all, ready for the next inclusion.
 *
 * Every tile is configured as 16 rows of 64 bytes.  A block of C is 32 x 32
 * (f32 or s32): tmm0..tmm3 hold its four 16 x 16 quarters, tmm4 and tmm5
 * the two 16-row halves of one step of the A panel (16 rows x 64 bytes: 32
 * bfloat16 or 64 int8 values of k), tmm6 and tmm7 the two 16-column halves
 * of one step of the B panel (16 rows of k pairs or quads, each row 16
 * columns of 4 bytes: the layout the dot-product instructions read).  See
 * gemm_amx.c for the packed layouts.
 */

/* Loads C's quarters (load_c) or zeros them, then adds nsteps steps of
   A panel x B panel and stores them back: c is mv x nv of the block,
   ldc bytes between rows.  A full block is read and written in place; a
   ragged one goes through a 32 x 32 copy whose missing part is zero.
   The A panel's step s has its rows 0-15 at ap + s * a->step, rows 16-31
   a->half further, a->ld bytes apart: packed, or A itself. */
static TL_ATTR void TL_NAME(block)(int64_t nsteps, const uint8_t *ap, const tile_a *a, const uint8_t *bp, void *cv,
                                   int64_t ldc, int mv, int nv, int load_c, int s8, const int32_t *unused)
{
    (void)unused;
    int64_t astep = a->step, ahalf = a->half, ald = a->ld;
    uint8_t *c = cv;
    _Alignas(64) uint8_t part[32 * 128];
    int64_t ld = ldc;
    int full = mv == 32 && nv == 32;
    if (!full) {
        memset(part, 0, sizeof part);
        if (load_c)
            for (int r = 0; r < mv; r++)
                memcpy(part + r * 128, c + r * ldc, (size_t)nv * 4);
        c = part;
        ld = 128;
    }
    if (load_c) {
        TL_LOAD(0, c, ld);
        TL_LOAD(1, c + 64, ld);
        TL_LOAD(2, c + 16 * ld, ld);
        TL_LOAD(3, c + 16 * ld + 64, ld);
    } else {
        TL_ZERO(0);
        TL_ZERO(1);
        TL_ZERO(2);
        TL_ZERO(3);
    }
    /* each step: both A halves by both B halves, B loaded once */
    if (s8) {
        for (int64_t s = 0; s < nsteps; s++, ap += astep, bp += 2048) {
            TL_LOAD(4, ap, ald);
            TL_LOAD(6, bp, 64);
            TL_LOAD(7, bp + 1024, 64);
            TL_DPBSSD(0, 4, 6);
            TL_DPBSSD(1, 4, 7);
            TL_LOAD(5, ap + ahalf, ald);
            TL_DPBSSD(2, 5, 6);
            TL_DPBSSD(3, 5, 7);
        }
    } else {
        for (int64_t s = 0; s < nsteps; s++, ap += astep, bp += 2048) {
            TL_LOAD(4, ap, ald);
            TL_LOAD(6, bp, 64);
            TL_LOAD(7, bp + 1024, 64);
            TL_DPBF16(0, 4, 6);
            TL_DPBF16(1, 4, 7);
            TL_LOAD(5, ap + ahalf, ald);
            TL_DPBF16(2, 5, 6);
            TL_DPBF16(3, 5, 7);
        }
    }
    TL_STORE(0, c, ld);
    TL_STORE(1, c + 64, ld);
    TL_STORE(2, c + 16 * ld, ld);
    TL_STORE(3, c + 16 * ld + 64, ld);
    if (!full)
        for (int r = 0; r < mv; r++)
            memcpy((uint8_t *)cv + r * ldc, part + r * 128, (size_t)nv * 4);
}

/* Around the blocks of one chunk: every tile 16 rows of 64 bytes. */
static TL_ATTR void TL_NAME(begin)(void)
{
    _Alignas(64) uint8_t cfg[64];
    tile_config_16x64(cfg);
    TL_CONFIG(cfg);
}

static TL_ATTR void TL_NAME(end)(void) { TL_RELEASE(); }

#undef TL_NAME
#undef TL_ATTR
#undef TL_CONFIG
#undef TL_ZERO
#undef TL_LOAD
#undef TL_STORE
#undef TL_DPBF16
#undef TL_DPBSSD
#undef TL_RELEASE
