/*
 * gemm_impl.h - what gemm.c offers the runtime's other files beyond the
 * library's interface: products whose A operand is packed by the caller
 * (an implicit GEMM, as the convolution's), over a B packed once.
 */
#ifndef XLACRT_GEMM_IMPL_H
#define XLACRT_GEMM_IMPL_H

#include <stdint.h>

#include "xlacrt.h"

/* Packs rows i0..i0+mc, columns p0..p0+kc of the (virtual) A matrix into
   dst as panels of mr rows: panel ib (rows i0+ib..) starts at dst + ib*kc,
   and holds, for each column q, the mr values of its rows (zeros past
   the last row).  Called concurrently from several threads. */
typedef void (*rt_pack_a_fn)(void *ctx, int mr, int64_t i0, int64_t mc, int64_t p0, int64_t kc,
                             void *dst);

/* B [k, n] (row-major, leading dimension ldb) packed once, in k blocks of
   depth kc (<= 0: the kernel family's own), into xlacrt_gemm_packed_b_bytes
   bytes at packed.  Serial. */
void rt_gemm_pack_b_kc(int f64, int64_t kc, int64_t n, int64_t k, const void *b, int64_t ldb,
                       void *packed);

/* C[m, n] = A * B (+ C), A packed by pack_a(ctx, ...), B packed by
   rt_gemm_pack_b_kc or *_pack_b.  Split over the pool like *_packed. */
void rt_gemm_packed_cb(xlacrt_pool *p, int f64, int64_t m, rt_pack_a_fn pack_a, void *ctx,
                       const void *packed, void *c, int64_t ldc, int accumulate);
/* The same with A's panels laid out by the caller for the row tile mr
   (rt_packed_b_info's mr or mr_small; m a multiple of it): panel_a(ctx,
   r0, p0) is the panel of rows r0 .. r0 + mr - 1 at k offset p0, element
   (r, q) at [q * mr + r] for q below the k block's depth (the kc of the
   packed B), read where it is. */
typedef const void *(*rt_panel_a_fn)(void *ctx, int64_t r0, int64_t p0);
void rt_gemm_panels_a(xlacrt_pool *p, int f64, int64_t m, int mr, rt_panel_a_fn panel_a, void *ctx,
                      const void *packed, void *c, int64_t ldc, int accumulate);

/* Whether the bfloat16 and int8 products run on tiles (gemm_amx.c): not at
   all, on AMX, or on its C emulation (chosen with xlacrt_gemm_set_isa:
   "amx", "amx-emulated"). */
enum { RT_TILES_OFF, RT_TILES_AMX, RT_TILES_EMULATED };
int rt_gemm_tiles(void);
/* Whether bfloat16 products (while denormals are flushed, without tiles)
   run on AVX-512 BF16's vdpbf16ps: chosen by default on AMD's AVX-512
   cores, and by xlacrt_gemm_set_isa("avx512bf16") on any host with it. */
int rt_gemm_bf16_dot(void);
/* Whether this host and its OS allow AMX (probed once; XLAC_AMX=0 says
   no): see gemm_amx.c. */
int rt_amx_usable(void);
/* The bfloat16 product (xlacrt_gemm_bf16's arguments) on AMX tiles or the
   emulated ones, whichever is selected and available (the caller flushes
   denormals); 0, doing nothing, when neither is. */
int rt_tile_gemm_bf16(xlacrt_pool *p, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, const uint16_t *a,
                      int64_t lda, const uint16_t *b, int64_t ldb, float *c, int64_t ldc, int accumulate);
/* The emulated tile instructions, one function each (for the tests): the
   calling thread's tile registers, configured by rt_emu_ldtilecfg from
   the 64-byte configuration ldtilecfg reads. */
void rt_emu_ldtilecfg(const void *cfg);
void rt_emu_tilerelease(void);
void rt_emu_tilezero(int t);
void rt_emu_tileloadd(int t, const void *base, int64_t stride);
void rt_emu_tilestored(int t, void *base, int64_t stride);
void rt_emu_tdpbf16ps(int d, int a, int b);
void rt_emu_tdpbssd(int d, int a, int b);
void rt_emu_tdpbsud(int d, int a, int b);
void rt_emu_tdpbusd(int d, int a, int b);
void rt_emu_tdpbuud(int d, int a, int b);

/* Whether the kernel family in use now is the AVX-512 one (tiles of 12 x 32
   floats, 12 x 16 doubles). */
int rt_gemm_current_avx512(void);

#if defined(__x86_64__)
/* AVX-512 only (the caller checks): tiles of mv <= 12 rows whose A rows
   are read in place.  c[r][0..nv) = the sum over positions p < npos of
   rows[p * 12 + r][0..C) times the B panel at b + p * bstride (its row q,
   2 vectors wide, ldb elements after row q - 1), plus c with acc.  The
   sums are those of the packed kernels, in the same order. */
void rt_gemm_rows_f32(int64_t npos, int64_t C, const float *const *rows, const float *b, int64_t ldb,
                      int64_t bstride, float *c, int64_t ldc, int mv, int nv, int acc);
void rt_gemm_rows_f64(int64_t npos, int64_t C, const double *const *rows, const double *b, int64_t ldb,
                      int64_t bstride, double *c, int64_t ldc, int mv, int nv, int acc);
#endif

/* The layout of a packed B: k block p0 (of depth kc) starts at element
   p0 * npad of data, and in it the panel of nr columns starting at column
   j is kc x nr elements at (p0 * npad + kc * j), zero past column n. */
typedef struct {
    int avx512, mr, nr;
    int mr_small; /* the lower row tile with the same nr, or 0 */
    int64_t n, k, kc, npad;
    const void *data;
} rt_packed_b_info;
void rt_gemm_packed_b_info(const void *packed, int f64, rt_packed_b_info *info);

/* For a caller that writes the panels of a packed B [k, n] itself (the
   Winograd kernel transform, conv.c): the header of a copy in k blocks of
   depth kc (<= 0: the kernel family's own) for the family in use now,
   written at packed, and its layout.  The caller fills every element
   below npad, zeros past column n. */
void rt_gemm_pack_b_header(int f64, int64_t kc, int64_t n, int64_t k, void *packed, rt_packed_b_info *info);

#endif
