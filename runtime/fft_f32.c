/*
 * fft_f32.c - stablehlo.fft on complex64 and f32 when every fft_length is
 * a power of two, computed in float (fft.c does everything else, in
 * double).
 *
 * Lines are transformed V = 16 at a time.  A batch of lines is gathered
 * into a block of rows, row j holding element j of every line as V real
 * parts then V imaginary parts, so each butterfly is one vector operation
 * per part across the batch.  Lanes never mix: a line gets exactly the
 * same operations whatever batch, chunk or thread it falls in, so results
 * never depend on the thread count.  A batch of lines of length 512 is a
 * 64 KiB block, well inside L2; spans of 128 rows (16 KiB) get their last
 * stages while they stay in L1.
 *
 * A complex transform of length n is decimation in frequency, in place on
 * the block: radix-4 stages of span n, n/4, ... and one radix-2 stage when
 * log2 n is odd.  Outputs end up digit-reversed (pos[k] is the row of
 * output k) and the scatter back to memory reads them through pos.  Only
 * the forward transform exists: an inverse is conj(forward(conj(x))), the
 * conjugations done while gathering and scattering.  Twiddles are computed
 * in double (TwTable) and rounded to float once.
 *
 * RFFT of length n = 2M is the complex transform Z of length M of
 * z[j] = x[2j] + i x[2j+1], then a twist: with E = (Z[k] + conj Z[M-k]) / 2,
 * O = (Z[k] - conj Z[M-k]) / 2i and c = exp(-2 pi i k / n),
 * X[k] = E + c O and X[M-k] = conj(E - c O).  IRFFT undoes the twist
 * (Z'[k] = P + iQ, P = X[k] + conj X[M-k], Q = (X[k] - conj X[M-k]) conj c,
 * so Z' = 2 FFT_M(z)), transforms back, and the real and imaginary parts
 * of z / n are x's even and odd elements.  Like the interpreter it ignores
 * the imaginary parts of X[0] and X[M].
 *
 * Lines longer than SOA_MAX use the four-step method (n = n1 n2): the n2
 * columns of x as an n1 x n2 matrix are transformed in batches of V
 * adjacent columns, each result times exp(-2 pi i j2 k1 / n), then the n1
 * rows in batches of V, written out transposed.  Both steps keep their
 * batches in L2 and run on the pool, so one long line uses every thread.
 *
 * Rows of contiguous complex elements (the innermost dimension) are
 * gathered and scattered through a small aligned stage, CH elements of
 * each row at a time, and 16 x 16 transposes of floats in registers (8
 * complex elements of 16 lines); V lines adjacent in memory (an outer
 * dimension) by splitting each element's 16 complex values into real and
 * imaginary parts.
 *
 * The work functions are compiled for AVX-512, AVX2 and plain C and picked
 * by the CPU.  The file is ISO C without FMA contraction, so all three
 * compute the same operations in the same order: results do not depend on
 * the machine either.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fft_impl.h"

/* GCC does not contract in ISO C; clang does by default */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

enum {
  V = 16,                /* lines per batch: one float vector lane each */
  ROW = 2 * V,           /* floats per row of a batch */
  SOA_MAX = 1 << 12,     /* longer lines use the four-step method */
  L1_ROWS = 128,         /* rows of a batch that stay in L1 (16 KiB) */
  CH = 64,               /* complex elements of each row staged at a time */
  STAGE = V * 2 * CH,    /* floats of the stage: CH elements of V rows */
  CHUNK_ELEMS = 1 << 14, /* about this many complex elements per chunk */
};

typedef float vf __attribute__((vector_size(4 * V)));
typedef float vf8 __attribute__((vector_size(32))); /* half a vf */
typedef double vd __attribute__((vector_size(8 * V)));

/* The work functions are written once and inlined into each ISA's copy
   (so no vector ever crosses a call, and GCC's note that passing one
   changes the ABI between ISAs does not apply). */
#define INLINE static inline __attribute__((always_inline))
#pragma GCC diagnostic ignored "-Wpsabi"

_Static_assert(V == 16, "transpose16 and the shuffles below are written for 16 lanes");
#define SHUF __builtin_shufflevector

INLINE vf ld(const float *p) { return *(const vf *)p; }
INLINE void st(float *p, vf v) { *(vf *)p = v; }
INLINE vf ldu(const float *p) {
  vf v;
  memcpy(&v, p, sizeof v);
  return v;
}
INLINE void stu(float *p, vf v) { memcpy(p, &v, sizeof v); }
/* Every lane set in the initializer: GCC turns this into one broadcast,
   where a shuffle of lane 0 of a 16-lane vector went through the stack in
   the AVX2 copy (half of an RFFT's time). */
INLINE vf splat(float x) {
  vf v = {x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x};
  return v;
}

/* A batch's scratch: `rows` rows, then the stage of gather and scatter,
   64-byte aligned; free the returned raw pointer.  NULL (recorded in the
   run's status) when memory runs out. */
static void *batch_alloc(int64_t rows, float **f) {
  char *raw = xlacrt_try_alloc("fft", sizeof(float) * (ROW * (size_t)rows + STAGE) + 63);
  if (raw) *f = (float *)(raw + (-(uintptr_t)raw & 63));
  return raw;
}

/* ---- the transform of a batch ---- */

/* Rows of the forward transform of length n on a batch. */
typedef struct Soa {
  int64_t n;
  float *tw;    /* each radix-4 stage of span N > 4: N/4 x (w, w^2, w^3), w = exp(-2 pi i j / N), as re, im */
  int64_t *pos; /* pos[k]: the row holding output k; pos[n] = n (RFFT's X[M]) */
} Soa;

static void soa_free(Soa *s) {
  free(s->tw);
  free(s->pos);
}

/* 0 when memory runs out (recorded in the run's status). */
static int soa_init(Soa *s, int64_t n) {
  int64_t ntw = 0;
  for (int64_t N = n; N > 4; N /= 4) ntw += 6 * (N / 4);
  s->n = n;
  s->tw = xlacrt_try_alloc("fft", sizeof(float) * (size_t)(ntw > 0 ? ntw : 1));
  s->pos = s->tw ? xlacrt_try_alloc("fft", sizeof(int64_t) * (size_t)(n + 1)) : NULL;
  TwTable t = {0};
  if (!s->pos || !tw_init(&t, -1, n)) {
    tw_free(&t);
    return 0;
  }
  float *w = s->tw;
  for (int64_t N = n; N > 4; N /= 4) {
    for (int64_t j = 0; j < N / 4; j++)
      for (int p = 1; p < 4; p++) {
        double complex z = tw_get(&t, j * p * (n / N));
        w[6 * j + 2 * p - 2] = (float)creal(z);
        w[6 * j + 2 * p - 1] = (float)cimag(z);
      }
    w += 6 * (N / 4);
  }
  tw_free(&t);
  /* a stage of radix r and span N leaves output k of its span in sub-span
     k % r, at the sub-span's own position of k / r */
  for (int64_t k = 0; k < n; k++) {
    int64_t row = 0, rest = k;
    for (int64_t N = n; N > 1;) {
      int bits = N >= 4 ? 2 : 1; /* radix 4 or 2 */
      N >>= bits;
      row += (rest & ((1 << bits) - 1)) * N;
      rest >>= bits;
    }
    s->pos[k] = row;
  }
  s->pos[n] = n;
  return 1;
}

/* (r, i) *= (wr, wi) */
INLINE void cmul(vf *r, vf *i, vf wr, vf wi) {
  vf a = *r, b = *i;
  *r = a * wr - b * wi;
  *i = a * wi + b * wr;
}

/* The forward radix-4 butterfly on rows p, p + d, p + 2d, p + 3d (d in
   floats), outputs 1 to 3 times w[0..6) unless w is NULL. */
INLINE void bfly4(float *p, int64_t d, const float *w) {
  float *q1 = p + d, *q2 = q1 + d, *q3 = q2 + d;
  vf x0r = ld(p), x0i = ld(p + V), x1r = ld(q1), x1i = ld(q1 + V);
  vf x2r = ld(q2), x2i = ld(q2 + V), x3r = ld(q3), x3i = ld(q3 + V);
  vf a0r = x0r + x2r, a0i = x0i + x2i, a1r = x0r - x2r, a1i = x0i - x2i;
  vf a2r = x1r + x3r, a2i = x1i + x3i, a3r = x1r - x3r, a3i = x1i - x3i;
  vf y1r = a1r + a3i, y1i = a1i - a3r, y2r = a0r - a2r, y2i = a0i - a2i, y3r = a1r - a3i, y3i = a1i + a3r;
  if (w) {
    cmul(&y1r, &y1i, splat(w[0]), splat(w[1]));
    cmul(&y2r, &y2i, splat(w[2]), splat(w[3]));
    cmul(&y3r, &y3i, splat(w[4]), splat(w[5]));
  }
  st(p, a0r + a2r);
  st(p + V, a0i + a2i);
  st(q1, y1r);
  st(q1 + V, y1i);
  st(q2, y2r);
  st(q2 + V, y2i);
  st(q3, y3r);
  st(q3 + V, y3i);
}

INLINE void bfly2(float *p) {
  vf x0r = ld(p), x0i = ld(p + V), x1r = ld(p + ROW), x1i = ld(p + ROW + V);
  st(p, x0r + x1r);
  st(p + V, x0i + x1i);
  st(p + ROW, x0r - x1r);
  st(p + ROW + V, x0i - x1i);
}

/* The radix-4 stage of span N > 4 on rows 0..len of f, twiddles w. */
INLINE void soa_stage(float *f, int64_t len, int64_t N, const float *w) {
  int64_t m = N / 4;
  for (int64_t b = 0; b < len; b += N) {
    bfly4(f + b * ROW, m * ROW, NULL); /* j = 0: the twiddles are 1 */
    for (int64_t j = 1; j < m; j++) bfly4(f + (b + j) * ROW, m * ROW, w + 6 * j);
  }
}

/* The stages of span N, N/4, ... on rows 0..len of f; w: stage N's twiddles. */
INLINE void soa_stages(float *f, int64_t len, int64_t N, const float *w) {
  for (; N > 4; N /= 4) {
    soa_stage(f, len, N, w);
    w += 6 * (N / 4);
  }
  if (N == 4)
    for (int64_t b = 0; b < len; b += 4) bfly4(f + b * ROW, ROW, NULL);
  else if (N == 2)
    for (int64_t b = 0; b < len; b += 2) bfly2(f + b * ROW);
}

/* The forward transform of every line of the batch f, in place; outputs
   through s->pos.  Stages whose span is larger than L1_ROWS sweep the
   whole batch; then each span of L1_ROWS rows or fewer, 16 KiB, gets all
   its remaining stages while it stays in L1. */
INLINE void soa_fft(const Soa *s, float *f) {
  int64_t n = s->n, N = n;
  const float *w = s->tw;
  for (; N > L1_ROWS; N /= 4) {
    soa_stage(f, n, N, w);
    w += 6 * (N / 4);
  }
  for (int64_t b = 0; b < n; b += N) soa_stages(f + b * ROW, N, N, w);
}

/* ---- RFFT's twist and IRFFT's inverse twist ---- */

/* One pair of the twist: from Z[k] = a, Z[M-k] = b and c = exp(-2 pi i k / 2M),
   X[k] = o[0] + i o[1], X[M-k] = o[2] + i o[3]. */
INLINE void twist_pair(vf ar, vf ai, vf br, vf bi, vf cr, vf ci, vf o[4]) {
  /* with b' = conj b: E = (a + b') / 2, D = (a - b') / 2, O = -i D, T = c O */
  vf er = (ar + br) * 0.5f, ei = (ai - bi) * 0.5f, dr = (ar - br) * 0.5f, di = (ai + bi) * 0.5f;
  vf tr = di * cr + dr * ci, ti = di * ci - dr * cr;
  o[0] = er + tr;
  o[1] = ei + ti;
  o[2] = er - tr;
  o[3] = ti - ei;
}

/* One pair of the inverse twist: from X[k] = a, X[M-k] = b and c as above,
   conj Z'[k] = o[0] + i o[1] and conj Z'[M-k] = o[2] + i o[3]. */
INLINE void untwist_pair(vf ar, vf ai, vf br, vf bi, vf cr, vf ci, vf o[4]) {
  /* with b' = conj b: P = a + b', Q = (a - b') conj c */
  vf pr = ar + br, pi = ai - bi, dr = ar - br, di = ai + bi;
  vf qr = dr * cr + di * ci, qi = di * cr - dr * ci;
  o[0] = pr - qi;
  o[1] = -(pi + qr);
  o[2] = pr + qi;
  o[3] = pi - qr;
}

/* RFFT's twist on a batch holding Z through pos: X[k] replaces Z[k] in row
   pos[k], X[M] goes to row M.  c[2k], c[2k+1]: exp(-2 pi i k / 2M). */
INLINE void twist(float *f, const int64_t *pos, int64_t M, const float *c) {
  float *r0 = f + pos[0] * ROW, *rm = f + M * ROW;
  vf zr = ld(r0), zi = ld(r0 + V), zero = {0};
  st(rm, zr - zi);
  st(rm + V, zero);
  st(r0, zr + zi);
  st(r0 + V, zero);
  for (int64_t k = 1; 2 * k <= M; k++) {
    float *ra = f + pos[k] * ROW, *rb = f + pos[M - k] * ROW;
    vf o[4];
    twist_pair(ld(ra), ld(ra + V), ld(rb), ld(rb + V), splat(c[2 * k]), splat(c[2 * k + 1]), o);
    /* rb first: for k = M/2 both are the same row (and the same value) */
    st(rb, o[2]);
    st(rb + V, o[3]);
    st(ra, o[0]);
    st(ra + V, o[1]);
  }
}

/* IRFFT's inverse twist on a batch holding X[0..M] in rows 0..M: rows
   0..M-1 get conj Z', the input of the forward transform. */
INLINE void untwist(float *f, int64_t M, const float *c) {
  vf x0 = ld(f), xm = ld(f + M * ROW);
  st(f, x0 + xm);
  st(f + V, xm - x0);
  for (int64_t k = 1; 2 * k <= M; k++) {
    float *ra = f + k * ROW, *rb = f + (M - k) * ROW;
    vf o[4];
    untwist_pair(ld(ra), ld(ra + V), ld(rb), ld(rb + V), splat(c[2 * k]), splat(c[2 * k + 1]), o);
    st(rb, o[2]);
    st(rb + V, o[3]);
    st(ra, o[0]);
    st(ra + V, o[1]);
  }
}

/* ---- gathering lines into a batch and scattering them back ---- */

/* Where a batch's lines lie: line l < cnt has its element j (complex,
   interleaved) at p[l] + 2 j es.  Lines that are only read are never
   written through p. */
typedef struct Lanes {
  float *p[V];
  int cnt;
  int64_t es;
} Lanes;

/* A vf as two halves and back, through a union: GCC keeps both in
   registers, where shuffles between the two widths went through memory. */
typedef union {
  vf v;
  vf8 h[2];
} vfh;

INLINE vf8 half(vf v, int i) {
  vfh u = {.v = v};
  return u.h[i];
}

INLINE vf join(vf8 lo, vf8 hi) {
  vfh u;
  u.h[0] = lo;
  u.h[1] = hi;
  return u.v;
}

INLINE void transpose8(vf8 r[8]) {
  vf8 t[8], u[8];
  for (int j = 0; j < 8; j += 2) {
    t[j] = SHUF(r[j], r[j + 1], 0, 8, 1, 9, 4, 12, 5, 13);
    t[j + 1] = SHUF(r[j], r[j + 1], 2, 10, 3, 11, 6, 14, 7, 15);
  }
  for (int j = 0; j < 8; j += 4) {
    u[j] = SHUF(t[j], t[j + 2], 0, 1, 8, 9, 4, 5, 12, 13);
    u[j + 1] = SHUF(t[j], t[j + 2], 2, 3, 10, 11, 6, 7, 14, 15);
    u[j + 2] = SHUF(t[j + 1], t[j + 3], 0, 1, 8, 9, 4, 5, 12, 13);
    u[j + 3] = SHUF(t[j + 1], t[j + 3], 2, 3, 10, 11, 6, 7, 14, 15);
  }
  for (int c = 0; c < 4; c++) {
    r[c] = SHUF(u[c], u[c + 4], 0, 1, 2, 3, 8, 9, 10, 11);
    r[c + 4] = SHUF(u[c], u[c + 4], 4, 5, 6, 7, 12, 13, 14, 15);
  }
}

/* The same on halves of 8 floats, for the copies without 512-bit
   registers (AVX2, plain C): four 8 x 8 transposes (unpcklps/unpckhps,
   shufps, vperm2f128 on AVX2), the off-diagonal quarters exchanged.  The
   16-lane shuffles of transpose16 went element by element through the
   stack there (the largest part of an RFFT's time on AVX2). */
INLINE void transpose16_halves(vf v[16]) {
  vf8 q[4][8]; /* [row block * 2 + column block][row] */
  for (int i = 0; i < 16; i++) {
    q[(i / 8) * 2][i % 8] = half(v[i], 0);
    q[(i / 8) * 2 + 1][i % 8] = half(v[i], 1);
  }
  for (int b = 0; b < 4; b++) transpose8(q[b]);
  /* row k of the result: column k of the input, i.e. row k of the
     transposed quarters of column block k / 8, row blocks 0 and 1 */
  for (int k = 0; k < 16; k++) {
    int cb = k / 8;
    v[k] = join(q[cb][k % 8], q[2 + cb][k % 8]);
  }
}

/* v[0..16) as a 16 x 16 matrix of floats, transposed; without wide (no
   512-bit registers) by transpose16_halves.  Each step is one
   cheap shuffle instruction on AVX-512 (unpcklps/unpckhps, unpcklpd/
   unpckhpd, shuff32x4): pairs of rows interleaved by element, then by pair
   of elements, then 128-bit lanes gathered twice. */
INLINE void transpose16(vf v[16], int wide) {
  if (!wide) {
    transpose16_halves(v);
    return;
  }
  vf t[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = SHUF(v[i], v[i + 1], 0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29);
    t[i + 1] = SHUF(v[i], v[i + 1], 2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31);
  }
  for (int i = 0; i < 16; i += 4)
    for (int k = 0; k < 2; k++) {
      v[i + 2 * k] = SHUF(t[i + k], t[i + k + 2], 0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29);
      v[i + 2 * k + 1] = SHUF(t[i + k], t[i + k + 2], 2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31);
    }
  for (int i = 0; i < 16; i += 8)
    for (int k = 0; k < 4; k++) {
      t[i + k] = SHUF(v[i + k], v[i + k + 4], 0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27);
      t[i + k + 4] = SHUF(v[i + k], v[i + k + 4], 4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31);
    }
  for (int k = 0; k < 8; k++) {
    v[k] = SHUF(t[k], t[k + 8], 0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27);
    v[k + 8] = SHUF(t[k], t[k + 8], 4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31);
  }
}

/* 16 interleaved complex values at p as real and imaginary parts, and
   back.  Without wide (no 512-bit registers) on halves of 8 floats: GCC
   lowers those shuffles to a few 256-bit instructions, where the same
   shuffles of 16-lane vectors went element by element through the stack
   in the AVX2 copy (the largest part of an RFFT's time there). */

INLINE vf8 ldu8(const float *p) {
  vf8 v;
  memcpy(&v, p, sizeof v);
  return v;
}

INLINE void load_split(const float *p, vf *re, vf *im, int wide) {
  if (wide) {
    vf a = ldu(p), b = ldu(p + V);
    *re = SHUF(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    *im = SHUF(a, b, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    return;
  }
  vf8 a0 = ldu8(p), a1 = ldu8(p + 8), a2 = ldu8(p + 16), a3 = ldu8(p + 24);
  vf8 rl = SHUF(a0, a1, 0, 2, 4, 6, 8, 10, 12, 14), il = SHUF(a0, a1, 1, 3, 5, 7, 9, 11, 13, 15);
  vf8 rh = SHUF(a2, a3, 0, 2, 4, 6, 8, 10, 12, 14), ih = SHUF(a2, a3, 1, 3, 5, 7, 9, 11, 13, 15);
  *re = join(rl, rh);
  *im = join(il, ih);
}

INLINE void store_joined(float *p, vf re, vf im, int wide) {
  if (wide) {
    stu(p, SHUF(re, im, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23));
    stu(p + V, SHUF(re, im, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31));
    return;
  }
  vf8 rl = half(re, 0), rh = half(re, 1), il = half(im, 0), ih = half(im, 1);
  vf8 o[4] = {SHUF(rl, il, 0, 8, 1, 9, 2, 10, 3, 11), SHUF(rl, il, 4, 12, 5, 13, 6, 14, 7, 15),
              SHUF(rh, ih, 0, 8, 1, 9, 2, 10, 3, 11), SHUF(rh, ih, 4, 12, 5, 13, 6, 14, 7, 15)};
  memcpy(p, o, sizeof o);
}

static int lanes_adjacent(const Lanes *L) {
  if (L->cnt < V) return 0;
  for (int l = 1; l < V; l++)
    if (L->p[l] != L->p[0] + 2 * l) return 0;
  return 1;
}

/* n complex values from s to the aligned stage d, and back */
INLINE void stage_in(float *d, const float *s, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) st(d + 2 * i, ldu(s + 2 * i));
  for (; i < n; i++) d[2 * i] = s[2 * i], d[2 * i + 1] = s[2 * i + 1];
}

INLINE void stage_out(float *d, const float *s, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) stu(d + 2 * i, ld(s + 2 * i));
  for (; i < n; i++) d[2 * i] = s[2 * i], d[2 * i + 1] = s[2 * i + 1];
}

/* Rows 0..len of f from the lines, imaginary parts times isgn.  Missing
   lines (l >= cnt) are filled in: lane 0's values, or zeros.  Lines that
   are rows (es == 1) go through the stage, CH elements of each line at a
   time, then 16 x 16 transposes: rows are often a power of two apart,
   and the 16 lines' loads would then all fall in the same L1 set. */
INLINE void gather(float *f, float *stage, const Lanes *L, int64_t len, float isgn, int wide) {
  if (L->es == 1) {
    for (int64_t j0 = 0; j0 < len; j0 += CH) {
      int64_t c = len - j0 < CH ? len - j0 : CH, j = 0;
      for (int l = 0; l < V; l++) stage_in(stage + l * 2 * CH, L->p[l < L->cnt ? l : 0] + 2 * j0, c);
      float *r = f + j0 * ROW;
      for (; j + 8 <= c; j += 8) {
        vf v[16];
        for (int l = 0; l < V; l++) v[l] = ld(stage + l * 2 * CH + 2 * j);
        transpose16(v, wide);
        for (int q = 0; q < 8; q++) {
          st(r + (j + q) * ROW, v[2 * q]);
          st(r + (j + q) * ROW + V, v[2 * q + 1] * isgn);
        }
      }
      for (; j < c; j++)
        for (int l = 0; l < V; l++) {
          r[j * ROW + l] = stage[l * 2 * CH + 2 * j];
          r[j * ROW + V + l] = stage[l * 2 * CH + 2 * j + 1] * isgn;
        }
    }
  } else if (lanes_adjacent(L)) {
    for (int64_t j = 0; j < len; j++) {
      vf re, im;
      load_split(L->p[0] + 2 * j * L->es, &re, &im, wide);
      st(f + j * ROW, re);
      st(f + j * ROW + V, im * isgn);
    }
  } else {
    for (int64_t j = 0; j < len; j++)
      for (int l = 0; l < V; l++) {
        f[j * ROW + l] = l < L->cnt ? L->p[l][2 * j * L->es] : 0;
        f[j * ROW + V + l] = l < L->cnt ? L->p[l][2 * j * L->es + 1] * isgn : 0;
      }
  }
}

/* The lines' elements 0..len from rows pos[k] of f, times scale (the
   imaginary parts times isgn * scale); rows through the stage as in
   gather. */
INLINE void scatter(const float *f, float *stage, const Lanes *L, int64_t len, const int64_t *pos, float isgn,
                    float scale, int wide) {
  float si = isgn * scale;
  if (L->es == 1) {
    for (int64_t k0 = 0; k0 < len; k0 += CH) {
      int64_t c = len - k0 < CH ? len - k0 : CH, k = 0;
      for (; k + 8 <= c; k += 8) {
        vf v[16];
        for (int q = 0; q < 8; q++) {
          const float *r = f + pos[k0 + k + q] * ROW;
          v[2 * q] = ld(r) * scale;
          v[2 * q + 1] = ld(r + V) * si;
        }
        transpose16(v, wide);
        for (int l = 0; l < V; l++) st(stage + l * 2 * CH + 2 * k, v[l]);
      }
      for (; k < c; k++)
        for (int l = 0; l < V; l++) {
          const float *r = f + pos[k0 + k] * ROW;
          stage[l * 2 * CH + 2 * k] = r[l] * scale;
          stage[l * 2 * CH + 2 * k + 1] = r[V + l] * si;
        }
      for (int l = 0; l < L->cnt; l++) stage_out(L->p[l] + 2 * k0, stage + l * 2 * CH, c);
    }
  } else if (lanes_adjacent(L)) {
    for (int64_t k = 0; k < len; k++) {
      const float *r = f + pos[k] * ROW;
      store_joined(L->p[0] + 2 * k * L->es, ld(r) * scale, ld(r + V) * si, wide);
    }
  } else {
    for (int64_t k = 0; k < len; k++)
      for (int l = 0; l < L->cnt; l++) {
        const float *r = f + pos[k] * ROW;
        L->p[l][2 * k * L->es] = r[l] * scale;
        L->p[l][2 * k * L->es + 1] = r[V + l] * si;
      }
  }
}

/* ---- a pass: the transforms along one dimension ---- */

enum { C2C, R2C, C2R };

/* Line L of a pass starts at base + (L / inner) * outer + 2 (L % inner)
   (floats) and has its elements inner complex values apart. */
typedef struct Pass {
  int op;
  const float *src;
  float *dst;
  int64_t nlines, inner, src_outer, dst_outer;
  int64_t len;                /* complex length: n for C2C, M = n/2 for R2C and C2R */
  float in_sign, out_sign;    /* C2C: the conjugations of an inverse */
  float scale;                /* C2C and C2R: applied to the outputs */
  const Soa *soa;             /* length len, for len <= SOA_MAX */
  const float *tw;            /* R2C and C2R: exp(-2 pi i k / 2M) for k <= M/2, as re, im */
  int64_t per_chunk;          /* batches per chunk */
} Pass;

static float *line_at(float *base, int64_t outer, int64_t inner, int64_t L) {
  return base + L / inner * outer + 2 * (L % inner);
}

static void lanes_of(Lanes *L, const Pass *P, int dst, int64_t first, int cnt) {
  for (int l = 0; l < cnt; l++)
    L->p[l] = dst ? line_at(P->dst, P->dst_outer, P->inner, first + l)
                  : line_at((float *)P->src, P->src_outer, P->inner, first + l);
  L->cnt = cnt;
  L->es = P->inner;
}

INLINE void pass_chunk(int64_t chunk, void *ctx, int wide) {
  const Pass *P = ctx;
  float *f;
  void *raw = batch_alloc(P->len + 1, &f);
  if (!raw) return;
  float *stage = f + (P->len + 1) * ROW;
  int64_t nbatches = (P->nlines + V - 1) / V, b1 = (chunk + 1) * P->per_chunk;
  for (int64_t b = chunk * P->per_chunk; b < b1 && b < nbatches; b++) {
    int cnt = P->nlines - b * V < V ? (int)(P->nlines - b * V) : V;
    Lanes in = {0}, out = {0};
    lanes_of(&in, P, 0, b * V, cnt);
    lanes_of(&out, P, 1, b * V, cnt);
    switch (P->op) {
    case C2C:
      gather(f, stage, &in, P->len, P->in_sign, wide);
      soa_fft(P->soa, f);
      scatter(f, stage, &out, P->len, P->soa->pos, P->out_sign, P->scale, wide);
      break;
    case R2C:
      gather(f, stage, &in, P->len, 1, wide);
      soa_fft(P->soa, f);
      twist(f, P->soa->pos, P->len, P->tw);
      scatter(f, stage, &out, P->len + 1, P->soa->pos, 1, 1, wide);
      break;
    default:
      gather(f, stage, &in, P->len + 1, 1, wide);
      untwist(f, P->len, P->tw);
      soa_fft(P->soa, f);
      scatter(f, stage, &out, P->len, P->soa->pos, -1, P->scale, wide);
      break;
    }
  }
  free(raw);
}

/* ---- the four-step method for one long line ---- */

typedef struct FourStep {
  int64_t n, n1, n2;
  Soa s1, s2;  /* lengths n1 and n2 */
  TwTable tw;  /* exp(-2 pi i e / n) */
  double *lt;  /* row k1: exp(-2 pi i l k1 / n) for the lanes l, V real then V imaginary parts */
} FourStep;

static void fs_free(FourStep *F) {
  soa_free(&F->s1);
  soa_free(&F->s2);
  tw_free(&F->tw);
  free(F->lt);
}

/* 0 when memory runs out (recorded; F is then freed). */
static int fs_init(FourStep *F, int64_t n) {
  int e = 0;
  while (((int64_t)1 << e) < n) e++;
  *F = (FourStep){.n = n, .n1 = (int64_t)1 << (e / 2)};
  F->n2 = n / F->n1;
  if (!soa_init(&F->s1, F->n1) || !soa_init(&F->s2, F->n2) || !tw_init(&F->tw, -1, n) ||
      !(F->lt = xlacrt_try_alloc("fft", sizeof(double) * ROW * (size_t)F->n1))) {
    fs_free(F);
    return 0;
  }
  for (int64_t k1 = 0; k1 < F->n1; k1++)
    for (int l = 0; l < V; l++) {
      double complex z = tw_get(&F->tw, l * k1);
      F->lt[k1 * ROW + l] = creal(z);
      F->lt[k1 * ROW + V + l] = cimag(z);
    }
  return 1;
}

typedef struct FsJob {
  const FourStep *F;
  float *x, *y;  /* the line (n complex) and a scratch line */
  int64_t per_chunk;
} FsJob;

/* Columns c0 .. c0+V of the result of a batch of column transforms, times
   exp(-2 pi i c k1 / n), to y.  The twiddles are products of two double
   values, rounded to float once. */
INLINE void fs_twiddle_out(const FourStep *F, const float *f, float *y, int64_t c0, int wide) {
  for (int64_t k1 = 0; k1 < F->n1; k1++) {
    double complex a = tw_get(&F->tw, c0 * k1);
    vd tr, ti;
    memcpy(&tr, F->lt + k1 * ROW, sizeof tr);
    memcpy(&ti, F->lt + k1 * ROW + V, sizeof ti);
    vd wr = tr * creal(a) - ti * cimag(a), wi = tr * cimag(a) + ti * creal(a);
    const float *r = f + F->s1.pos[k1] * ROW;
    vf xr = ld(r), xi = ld(r + V);
    cmul(&xr, &xi, __builtin_convertvector(wr, vf), __builtin_convertvector(wi, vf));
    store_joined(y + 2 * (k1 * F->n2 + c0), xr, xi, wide);
  }
}

/* Chunks of V-column blocks: x's columns transformed into y */
INLINE void fs_cols_chunk(int64_t chunk, void *ctx, int wide) {
  const FsJob *J = ctx;
  const FourStep *F = J->F;
  float *f;
  void *raw = batch_alloc(F->n1, &f);
  if (!raw) return;
  float *stage = f + F->n1 * ROW;
  int64_t b1 = (chunk + 1) * J->per_chunk;
  for (int64_t b = chunk * J->per_chunk; b < b1 && b * V < F->n2; b++) {
    Lanes in = {.cnt = V, .es = F->n2};
    for (int l = 0; l < V; l++) in.p[l] = J->x + 2 * (b * V + l);
    gather(f, stage, &in, F->n1, 1, wide);
    soa_fft(&F->s1, f);
    fs_twiddle_out(F, f, J->y, b * V, wide);
  }
  free(raw);
}

/* Chunks of V-row blocks: y's rows transformed into x, transposed */
INLINE void fs_rows_chunk(int64_t chunk, void *ctx, int wide) {
  const FsJob *J = ctx;
  const FourStep *F = J->F;
  float *f;
  void *raw = batch_alloc(F->n2, &f);
  if (!raw) return;
  float *stage = f + F->n2 * ROW;
  int64_t b1 = (chunk + 1) * J->per_chunk;
  for (int64_t b = chunk * J->per_chunk; b < b1 && b * V < F->n1; b++) {
    Lanes in = {.cnt = V, .es = 1}, out = {.cnt = V, .es = F->n1};
    for (int l = 0; l < V; l++) {
      in.p[l] = J->y + 2 * (b * V + l) * F->n2;
      out.p[l] = J->x + 2 * (b * V + l);
    }
    gather(f, stage, &in, F->n2, 1, wide);
    soa_fft(&F->s2, f);
    scatter(f, stage, &out, F->n2, F->s2.pos, 1, 1, wide);
  }
  free(raw);
}

INLINE vf reverse(vf v) { return SHUF(v, v, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0); }

/* Pairs k, M-k (k = 1 .. M/2) of the twist, or of the inverse twist, on
   whole lines in natural order from s to d (d may be s): V pairs at a
   time while they fit, the rest one at a time in lane 0.  For k = M/2 both
   are one element, stored last as X[k]. */
INLINE void twist_pairs(const float *s, float *d, int64_t M, const float *c, int inverse, int wide) {
  int64_t k = 1;
  for (; k + V - 1 <= M / 2; k += V) {
    vf ar, ai, br, bi, cr, ci, o[4];
    load_split(s + 2 * k, &ar, &ai, wide);
    load_split(s + 2 * (M - k - V + 1), &br, &bi, wide);
    load_split(c + 2 * k, &cr, &ci, wide);
    if (inverse)
      untwist_pair(ar, ai, reverse(br), reverse(bi), cr, ci, o);
    else
      twist_pair(ar, ai, reverse(br), reverse(bi), cr, ci, o);
    store_joined(d + 2 * (M - k - V + 1), reverse(o[2]), reverse(o[3]), wide);
    store_joined(d + 2 * k, o[0], o[1], wide);
  }
  for (; 2 * k <= M; k++) {
    const float *a = s + 2 * k, *b = s + 2 * (M - k);
    vf o[4];
    if (inverse)
      untwist_pair(splat(a[0]), splat(a[1]), splat(b[0]), splat(b[1]), splat(c[2 * k]), splat(c[2 * k + 1]), o);
    else
      twist_pair(splat(a[0]), splat(a[1]), splat(b[0]), splat(b[1]), splat(c[2 * k]), splat(c[2 * k + 1]), o);
    d[2 * (M - k)] = o[2][0];
    d[2 * (M - k) + 1] = o[3][0];
    d[2 * k] = o[0][0];
    d[2 * k + 1] = o[1][0];
  }
}

/* ---- the work functions for each instruction set ---- */

typedef struct Isa {
  xlacrt_task_fn pass, fs_cols, fs_rows;
  void (*twist_pairs)(const float *s, float *d, int64_t M, const float *c, int inverse);
} Isa;

/* WIDE: the copy has 512-bit registers, which take transpose16's 16-lane
   shuffles as single instructions */
#define ISA(SUF, ATTR, WIDE)                                                          \
  ATTR static void pass_##SUF(int64_t c, void *ctx) { pass_chunk(c, ctx, WIDE); }    \
  ATTR static void fs_cols_##SUF(int64_t c, void *ctx) { fs_cols_chunk(c, ctx, WIDE); } \
  ATTR static void fs_rows_##SUF(int64_t c, void *ctx) { fs_rows_chunk(c, ctx, WIDE); } \
  ATTR static void twist_pairs_##SUF(const float *s, float *d, int64_t M, const float *c, int inverse) { \
    twist_pairs(s, d, M, c, inverse, WIDE);                                           \
  }                                                                                   \
  static const Isa isa_##SUF = {pass_##SUF, fs_cols_##SUF, fs_rows_##SUF, twist_pairs_##SUF};

#define NO_ATTR
ISA(c, NO_ATTR, 0)
#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_VARIANTS 1
ISA(avx2, __attribute__((target("avx2"))), 0)
ISA(avx512, __attribute__((target("avx512f"))), 1)
#endif

static const Isa *isa_best(void) {
#ifdef HAVE_VARIANTS
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return &isa_avx512;
  if (__builtin_cpu_supports("avx2")) return &isa_avx2;
#endif
  return &isa_c;
}

const char *xlacrt_fft_isa(void) {
  const Isa *i = isa_best();
#ifdef HAVE_VARIANTS
  if (i == &isa_avx512) return "avx512";
  if (i == &isa_avx2) return "avx2";
#endif
  (void)i;
  return "c";
}

static _Atomic(const Isa *) isa_cur;

static const Isa *isa_get(void) {
  const Isa *i = isa_cur;
  if (!i) isa_cur = i = isa_best();
  return i;
}

int xlacrt_fft_set_isa(const char *name) {
  const Isa *want = NULL, *best = isa_best();
  if (!name || !strcmp(name, "best")) want = best;
  else if (!strcmp(name, "c")) want = &isa_c;
#ifdef HAVE_VARIANTS
  else if (!strcmp(name, "avx2") && best != &isa_c) want = &isa_avx2;
  else if (!strcmp(name, "avx512") && best == &isa_avx512) want = &isa_avx512;
#endif
  if (!want) return 0;
  isa_cur = want;
  return 1;
}

/* ---- long lines ---- */

static void fs_run(const FourStep *F, float *x, float *y, xlacrt_pool *pool, const Isa *isa) {
  FsJob J = {F, x, y, CHUNK_ELEMS / (F->n1 * V) > 0 ? CHUNK_ELEMS / (F->n1 * V) : 1};
  xlacrt_parallel_for(pool, (F->n2 / V + J.per_chunk - 1) / J.per_chunk, isa->fs_cols, &J);
  J.per_chunk = CHUNK_ELEMS / (F->n2 * V) > 0 ? CHUNK_ELEMS / (F->n2 * V) : 1;
  xlacrt_parallel_for(pool, (F->n1 / V + J.per_chunk - 1) / J.per_chunk, isa->fs_rows, &J);
}

/* The twist on a whole line x holding Z[0..M); X[M] goes to x[2M]. */
static void twist_line(float *x, int64_t M, const float *c, const Isa *isa) {
  float zr = x[0], zi = x[1];
  x[0] = zr + zi;
  x[1] = 0;
  x[2 * M] = zr - zi;
  x[2 * M + 1] = 0;
  isa->twist_pairs(x, x, M, c, 0);
}

/* The inverse twist of X[0..M] in s: conj Z' to x[0..2M). */
static void untwist_line(const float *s, float *x, int64_t M, const float *c, const Isa *isa) {
  x[0] = s[0] + s[2 * M];
  x[1] = s[2 * M] - s[0];
  isa->twist_pairs(s, x, M, c, 1);
}

/* d[j * es] = s[j * es'] for n complex values, imaginary parts times isgn,
   all times scale (d may be s) */
static void copy_line(float *d, int64_t des, const float *s, int64_t ses, int64_t n, float isgn, float scale) {
  for (int64_t j = 0; j < n; j++) {
    float re = s[2 * j * ses], im = s[2 * j * ses + 1];
    d[2 * j * des] = re * scale;
    d[2 * j * des + 1] = im * isgn * scale;
  }
}

/* A pass over lines longer than SOA_MAX, one line at a time, each spread
   over the pool. */
static void pass_long(const Pass *P, xlacrt_pool *pool, const Isa *isa) {
  FourStep F;
  if (!fs_init(&F, P->len)) return;
  float *y = xlacrt_try_alloc("fft", sizeof(float) * 2 * (size_t)P->len);
  float *t = y && P->inner > 1 ? xlacrt_try_alloc("fft", sizeof(float) * 2 * (size_t)P->len) : NULL;
  if (y && (P->inner == 1 || t)) {
    for (int64_t L = 0; L < P->nlines; L++) {
      const float *s = line_at((float *)P->src, P->src_outer, P->inner, L);
      float *d = line_at(P->dst, P->dst_outer, P->inner, L), *x = t ? t : d;
      switch (P->op) {
      case C2C:
        copy_line(x, 1, s, P->inner, P->len, P->in_sign, 1);
        fs_run(&F, x, y, pool, isa);
        copy_line(d, P->inner, x, 1, P->len, P->out_sign, P->scale);
        break;
      case R2C:
        memcpy(d, s, sizeof(float) * 2 * (size_t)P->len);
        fs_run(&F, d, y, pool, isa);
        twist_line(d, P->len, P->tw, isa);
        break;
      default:
        untwist_line(s, d, P->len, P->tw, isa);
        fs_run(&F, d, y, pool, isa);
        copy_line(d, 1, d, 1, P->len, -1, P->scale);
        break;
      }
    }
  }
  free(y);
  free(t);
  fs_free(&F);
}

static void run_pass(Pass *P, xlacrt_pool *pool, const Isa *isa) {
  if (P->nlines <= 0) return;
  float *tw = NULL;
  if (P->op != C2C) {
    TwTable t = {0};
    tw = tw_init(&t, -1, 2 * P->len) ? xlacrt_try_alloc("fft", sizeof(float) * (size_t)(P->len + 2)) : NULL;
    for (int64_t k = 0; tw && 2 * k <= P->len; k++) {
      double complex z = tw_get(&t, k);
      tw[2 * k] = (float)creal(z);
      tw[2 * k + 1] = (float)cimag(z);
    }
    tw_free(&t);
    if (!tw) return;
    P->tw = tw;
  }
  if (P->len > SOA_MAX) {
    pass_long(P, pool, isa);
  } else {
    Soa s = {0};
    if (soa_init(&s, P->len)) {
      P->soa = &s;
      P->per_chunk = CHUNK_ELEMS / (P->len * V) > 0 ? CHUNK_ELEMS / (P->len * V) : 1;
      int64_t nbatches = (P->nlines + V - 1) / V;
      xlacrt_parallel_for(pool, (nbatches + P->per_chunk - 1) / P->per_chunk, isa->pass, P);
    }
    soa_free(&s);
  }
  free(tw);
}

/* A complex pass along a dimension of length n with `inner` elements
   after it, over `total` complex elements. */
static void c2c(xlacrt_pool *pool, const Isa *isa, const float *src, float *dst, int64_t total, int64_t n,
                int64_t inner, int inverse) {
  Pass P = {.op = C2C, .src = src, .dst = dst, .nlines = total / n, .inner = inner,
            .src_outer = 2 * n * inner, .dst_outer = 2 * n * inner, .len = n,
            .in_sign = inverse ? -1.0f : 1.0f, .out_sign = inverse ? -1.0f : 1.0f,
            .scale = inverse ? 1.0f / (float)n : 1.0f};
  run_pass(&P, pool, isa);
}

int xlacrt_fft_f32(xlacrt_pool *pool, int kind, int64_t batch, int nlen, const int64_t *len, const void *in,
                   void *out) {
  for (int i = 0; i < nlen; i++)
    if (!fft_is_pow2(len[i])) return 0;
  int64_t n = len[nlen - 1], h = n / 2 + 1;
  if ((kind == XLACRT_FFT_RFFT || kind == XLACRT_FFT_IRFFT) && n < 2) return 0;
  const Isa *isa = isa_get();
  /* lead: lines along the last dimension; inner[i]: complex elements after
     dimension i of the complex side */
  int64_t lead = batch, inner[3];
  for (int i = 0; i < nlen - 1; i++) lead *= len[i];
  int64_t last = kind == XLACRT_FFT_FFT || kind == XLACRT_FFT_IFFT ? n : h, total = lead * last;
  inner[nlen - 1] = 1;
  for (int i = nlen - 2; i >= 0; i--) inner[i] = inner[i + 1] * (i + 1 == nlen - 1 ? last : len[i + 1]);
  float *o = out;
  switch (kind) {
  case XLACRT_FFT_FFT:
    for (int a = nlen - 1; a >= 0; a--) c2c(pool, isa, a == nlen - 1 ? in : o, o, total, len[a], inner[a], 0);
    break;
  case XLACRT_FFT_IFFT:
    for (int a = 0; a < nlen; a++) c2c(pool, isa, a == 0 ? in : o, o, total, len[a], inner[a], 1);
    break;
  case XLACRT_FFT_RFFT: {
    Pass P = {.op = R2C, .src = in, .dst = o, .nlines = lead, .inner = 1, .src_outer = n, .dst_outer = 2 * h,
              .len = n / 2};
    run_pass(&P, pool, isa);
    for (int a = nlen - 2; a >= 0; a--) c2c(pool, isa, o, o, total, len[a], inner[a], 0);
    break;
  }
  case XLACRT_FFT_IRFFT: {
    /* the other dimensions first, on a copy: the operand is read-only */
    float *tmp = NULL;
    if (nlen > 1 && !(tmp = xlacrt_try_alloc("fft", sizeof(float) * 2 * (size_t)total))) break;
    for (int a = 0; a < nlen - 1; a++) c2c(pool, isa, a == 0 ? in : tmp, tmp, total, len[a], inner[a], 1);
    Pass P = {.op = C2R, .src = tmp ? tmp : in, .dst = o, .nlines = lead, .inner = 1, .src_outer = 2 * h,
              .dst_outer = n, .len = n / 2, .scale = 1.0f / (float)n};
    run_pass(&P, pool, isa);
    free(tmp);
    break;
  }
  default: break;
  }
  return 1;
}
