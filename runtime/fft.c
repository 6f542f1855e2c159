/*
 * fft.c - the runtime's stablehlo.fft: FFT, IFFT, RFFT and IRFFT of any
 * length over the 1 to 3 innermost dimensions of a batch of tensors.
 *
 * complex64/f32 transforms whose lengths are all powers of two are computed
 * in float by fft_f32.c.  Everything else is computed here in double
 * complex (the element type's values are widened, the results rounded
 * once), as the reference interpreter does.
 * A multi-dimensional transform is a 1-D transform along each dimension in
 * turn, in the interpreter's order.  A 1-D transform of length n is one of:
 *   - radix-2 Cooley-Tukey for powers of two, with the interpreter's exact
 *     twiddles (the same double expression), so small power-of-two
 *     transforms agree with it bit for bit;
 *   - for large powers of two, the four-step method (n = n1 * n2: column
 *     transforms, twiddle, row transforms, transpose), which keeps each
 *     sub-transform in cache and spreads one long transform over the pool;
 *   - an exact DFT (twiddles indexed by j*k mod n) for short other lengths;
 *   - Bluestein's chirp-z for longer ones: the DFT as a convolution with a
 *     chirp, done by power-of-two transforms of length >= 2n - 1.
 * Twiddles of the four-step and Bluestein paths are products of two table
 * entries, each computed directly in double (error a few double ulps).
 * Lines along a dimension are independent; they are split over the pool in
 * chunks fixed by the shape, so results never depend on the thread count.
 */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fft_impl.h"

typedef double complex zd;

enum {
  DIRECT_MAX = 64,          /* other lengths up to this use the exact DFT */
  FOUR_STEP_MIN = 1 << 14,  /* powers of two from here use the four-step method */
  CHUNK_ELEMS = 1 << 16,    /* about this many elements per chunk of lines */
  COLS = 8,                 /* four-step: columns gathered together (two cache lines) */
};


/* Scratch, plans and tables.  A failed allocation is recorded in the run's
   status (xlacrt_fail) and the transform gives up: its output is then
   unspecified, and the run reports the failure. */
static zd *zalloc(int64_t n) { return xlacrt_try_alloc("fft", sizeof(zd) * (size_t)(n > 0 ? n : 1)); }

/* ---- plans ---- */
enum { P_TRIVIAL, P_RADIX2, P_FOUR_STEP, P_DIRECT, P_BLUESTEIN };

typedef struct Plan Plan;
struct Plan {
  int64_t n;
  int sign, kind;
  zd *w;             /* radix-2: n - 1 twiddles, stage by stage; direct: n */
  int64_t n1, n2;    /* four-step: n = n1 * n2 */
  Plan *p1, *p2;     /* four-step: length n1 and n2; Bluestein: length M forward, inverse */
  TwTable tw;        /* four-step: exp(sign 2 pi i e / n) */
  int64_t M;         /* Bluestein: convolution length */
  zd *chirp, *bhat;  /* Bluestein: c[k] = exp(sign pi i k^2 / n); the kernel's transform / M */
  int64_t scratch;   /* complex scratch elements plan_exec needs */
};

static void plan_exec(const Plan *pl, zd *x, zd *scratch, xlacrt_pool *pool);
static void plan_free(Plan *pl);

/* NULL when memory runs out (recorded in the run's status). */
static Plan *plan_new(int64_t n, int sign) {
  Plan *pl = calloc(1, sizeof *pl);
  if (!pl) {
    xlacrt_fail("out of memory: fft: cannot allocate a plan");
    return NULL;
  }
  pl->n = n;
  pl->sign = sign;
  if (n <= 1) {
    pl->kind = P_TRIVIAL;
  } else if (fft_is_pow2(n) && n < FOUR_STEP_MIN) {
    pl->kind = P_RADIX2;
    /* per stage, contiguous: stage len's twiddle k is the interpreter's
       exp(sign 2 pi i k / len), computed as (k * n/len) / n (the same double) */
    pl->w = zalloc(n - 1);
    if (!pl->w) goto fail;
    for (int64_t len = 2; len <= n; len <<= 1)
      for (int64_t k = 0; k < len / 2; k++) pl->w[len / 2 - 1 + k] = fft_twiddle(sign, k * (n / len), n);
  } else if (fft_is_pow2(n)) {
    pl->kind = P_FOUR_STEP;
    int e = 0;
    while (((int64_t)1 << e) < n) e++;
    pl->n1 = (int64_t)1 << (e / 2);
    pl->n2 = n / pl->n1;
    pl->p1 = plan_new(pl->n1, sign);
    pl->p2 = pl->p1 ? plan_new(pl->n2, sign) : NULL;
    if (!pl->p2 || !tw_init(&pl->tw, sign, n)) goto fail;
  } else if (n <= DIRECT_MAX) {
    pl->kind = P_DIRECT;
    pl->w = zalloc(n);
    if (!pl->w) goto fail;
    for (int64_t m = 0; m < n; m++) pl->w[m] = fft_twiddle(sign, m, n);
    pl->scratch = n;
  } else {
    pl->kind = P_BLUESTEIN;
    int64_t M = 1;
    while (M < 2 * n - 1) M *= 2;
    pl->M = M;
    pl->p1 = plan_new(M, -1);
    pl->p2 = pl->p1 ? plan_new(M, +1) : NULL;
    if (!pl->p2) goto fail;
    /* c[k] = exp(sign pi i k^2 / n) = exp(sign 2 pi i (k^2 mod 2n) / 2n),
       with k^2 mod 2n kept exactly by (k+1)^2 = k^2 + 2k + 1 */
    TwTable t = {0};
    pl->chirp = tw_init(&t, sign, 2 * n) ? zalloc(n) : NULL;
    if (!pl->chirp) {
      tw_free(&t);
      goto fail;
    }
    int64_t q = 0;
    for (int64_t k = 0; k < n; k++) {
      pl->chirp[k] = tw_get(&t, q);
      q += 2 * k + 1;
      while (q >= 2 * n) q -= 2 * n;
    }
    tw_free(&t);
    /* the kernel b[m] = conj(c[|m|]) on the circle of length M */
    pl->bhat = zalloc(M);
    if (!pl->bhat) goto fail;
    for (int64_t m = 0; m < M; m++) pl->bhat[m] = 0;
    for (int64_t k = 0; k < n; k++) {
      pl->bhat[k] = conj(pl->chirp[k]);
      if (k) pl->bhat[M - k] = conj(pl->chirp[k]);
    }
    int64_t sub = pl->p1->scratch > pl->p2->scratch ? pl->p1->scratch : pl->p2->scratch;
    zd *tmp = zalloc(sub);
    if (!tmp) goto fail;
    plan_exec(pl->p1, pl->bhat, tmp, NULL);
    free(tmp);
    /* dividing by a power of two is exact */
    for (int64_t m = 0; m < M; m++) pl->bhat[m] /= (double)M;
    pl->scratch = M + sub;
  }
  return pl;
fail:
  plan_free(pl);
  return NULL;
}

static void plan_free(Plan *pl) {
  if (!pl) return;
  free(pl->w);
  plan_free(pl->p1);
  plan_free(pl->p2);
  tw_free(&pl->tw);
  free(pl->chirp);
  free(pl->bhat);
  free(pl);
}

/* The interpreter's iterative radix-2 (same bit reversal, same twiddles,
   the same products a*c - b*d, a*d + b*c).  w holds each stage's twiddles
   contiguously: stage `len` at w + len/2 - 1 (len/2 entries), so the inner
   loop reads x and w in order and vectorizes.  Written out in real
   arithmetic: unlike C's complex multiply it does not try to recover
   infinities from inf * 0 products, which only matters for inputs that
   hold infinities. */
static void radix2(zd *x, int64_t n, const zd *w) {
  for (int64_t i = 1, j = 0; i < n; i++) {
    int64_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      zd t = x[i];
      x[i] = x[j];
      x[j] = t;
    }
  }
  double *xr = (double *)x;
  for (int64_t len = 2; len <= n; len <<= 1) {
    int64_t half = len / 2;
    const double *wr = (const double *)(w + half - 1);
    for (int64_t i = 0; i < n; i += len) {
      double *a = xr + 2 * i, *b = xr + 2 * (i + half);
      for (int64_t k = 0; k < half; k++) {
        double c = wr[2 * k], d = wr[2 * k + 1], br = b[2 * k], bi = b[2 * k + 1];
        double vr = br * c - bi * d, vi = br * d + bi * c;
        double ur = a[2 * k], ui = a[2 * k + 1];
        a[2 * k] = ur + vr;
        a[2 * k + 1] = ui + vi;
        b[2 * k] = ur - vr;
        b[2 * k + 1] = ui - vi;
      }
    }
  }
}

/* ---- four-step ----
 * x[j1 * n2 + j2] -> X[k1 + n1 * k2]:
 *   1. transform each column j2 over j1, times exp(sign 2 pi i j2 k1 / n),
 *      into y[k1 * n2 + j2];
 *   2. transform each row k1 of y over j2 (in place);
 *   3. x[k1 + n1 * k2] = y[k1 * n2 + k2] (a transpose). */
typedef struct FourStep {
  const Plan *pl;
  zd *x, *y;
} FourStep;

enum { COL_GROUPS_PER_CHUNK = 4, TILE = 32 };

static void fs_cols_task(int64_t chunk, void *ctx) {
  const FourStep *f = ctx;
  const Plan *pl = f->pl;
  int64_t n1 = pl->n1, n2 = pl->n2;
  zd *cols = zalloc(COLS * n1), *scr = zalloc(pl->p1->scratch);
  if (!cols || !scr) {
    free(cols);
    free(scr);
    return;
  }
  int64_t c_end = (chunk + 1) * COLS * COL_GROUPS_PER_CHUNK;
  if (c_end > n2) c_end = n2;
  for (int64_t c0 = chunk * COLS * COL_GROUPS_PER_CHUNK; c0 < c_end; c0 += COLS) {
    int64_t nc = c_end - c0 < COLS ? c_end - c0 : COLS;
    for (int64_t j1 = 0; j1 < n1; j1++)
      for (int64_t c = 0; c < nc; c++) cols[c * n1 + j1] = f->x[j1 * n2 + c0 + c];
    for (int64_t c = 0; c < nc; c++) plan_exec(pl->p1, cols + c * n1, scr, NULL);
    for (int64_t k1 = 0; k1 < n1; k1++)
      for (int64_t c = 0; c < nc; c++)
        f->y[k1 * n2 + c0 + c] = cols[c * n1 + k1] * tw_get(&pl->tw, (c0 + c) * k1);
  }
  free(cols);
  free(scr);
}

static int64_t fs_rows_per_chunk(const Plan *pl) {
  int64_t r = CHUNK_ELEMS / pl->n2;
  return r > 0 ? r : 1;
}

static void fs_rows_task(int64_t chunk, void *ctx) {
  const FourStep *f = ctx;
  const Plan *pl = f->pl;
  int64_t per = fs_rows_per_chunk(pl), r0 = chunk * per, r1 = r0 + per < pl->n1 ? r0 + per : pl->n1;
  zd *scr = zalloc(pl->p2->scratch);
  if (!scr) return;
  for (int64_t r = r0; r < r1; r++) plan_exec(pl->p2, f->y + r * pl->n2, scr, NULL);
  free(scr);
}

static void fs_transpose_task(int64_t chunk, void *ctx) {
  const FourStep *f = ctx;
  int64_t n1 = f->pl->n1, n2 = f->pl->n2;
  int64_t k1_0 = chunk * TILE, k1_1 = k1_0 + TILE < n1 ? k1_0 + TILE : n1;
  for (int64_t k2_0 = 0; k2_0 < n2; k2_0 += TILE) {
    int64_t k2_1 = k2_0 + TILE < n2 ? k2_0 + TILE : n2;
    for (int64_t k1 = k1_0; k1 < k1_1; k1++)
      for (int64_t k2 = k2_0; k2 < k2_1; k2++) f->x[k1 + n1 * k2] = f->y[k1 * n2 + k2];
  }
}

static void four_step(const Plan *pl, zd *x, xlacrt_pool *pool) {
  FourStep f = {pl, x, zalloc(pl->n)};
  if (!f.y) return;
  int64_t per_chunk = COLS * COL_GROUPS_PER_CHUNK;
  xlacrt_parallel_for(pool, (pl->n2 + per_chunk - 1) / per_chunk, fs_cols_task, &f);
  int64_t rows = fs_rows_per_chunk(pl);
  xlacrt_parallel_for(pool, (pl->n1 + rows - 1) / rows, fs_rows_task, &f);
  xlacrt_parallel_for(pool, (pl->n1 + TILE - 1) / TILE, fs_transpose_task, &f);
  free(f.y);
}

/* Transforms x[0..n) in place (unscaled).  scratch has pl->scratch
   elements; pool may be used when the plan splits its work. */
static void plan_exec(const Plan *pl, zd *x, zd *scratch, xlacrt_pool *pool) {
  int64_t n = pl->n;
  switch (pl->kind) {
  case P_TRIVIAL: break;
  case P_RADIX2: radix2(x, n, pl->w); break;
  case P_FOUR_STEP: four_step(pl, x, pool); break;
  case P_DIRECT:
    for (int64_t k = 0; k < n; k++) {
      zd s = 0;
      int64_t jk = 0;
      for (int64_t j = 0; j < n; j++) {
        s += x[j] * pl->w[jk];
        jk += k;
        if (jk >= n) jk -= n;
      }
      scratch[k] = s;
    }
    memcpy(x, scratch, sizeof(zd) * (size_t)n);
    break;
  case P_BLUESTEIN: {
    int64_t M = pl->M;
    zd *a = scratch, *sub = scratch + M;
    for (int64_t j = 0; j < n; j++) a[j] = x[j] * pl->chirp[j];
    for (int64_t j = n; j < M; j++) a[j] = 0;
    plan_exec(pl->p1, a, sub, pool);
    for (int64_t m = 0; m < M; m++) a[m] *= pl->bhat[m];
    plan_exec(pl->p2, a, sub, pool);
    for (int64_t k = 0; k < n; k++) x[k] = a[k] * pl->chirp[k];
    break;
  }
  }
}

/* ---- transforms along one dimension of a [outer, n, inner] buffer ---- */
typedef struct AxisJob {
  zd *buf;
  int64_t outer, n, inner, nlines, per_chunk;
  const Plan *pl;
  int scale;
  xlacrt_pool *pool;
} AxisJob;

static void axis_task(int64_t chunk, void *ctx) {
  const AxisJob *J = ctx;
  int64_t n = J->n, inner = J->inner;
  zd *line = inner > 1 ? zalloc(n) : NULL, *scr = zalloc(J->pl->scratch);
  if ((inner > 1 && !line) || !scr) {
    free(line);
    free(scr);
    return;
  }
  int64_t l0 = chunk * J->per_chunk, l1 = l0 + J->per_chunk < J->nlines ? l0 + J->per_chunk : J->nlines;
  for (int64_t l = l0; l < l1; l++) {
    zd *base = J->buf + (l / inner) * n * inner + l % inner;
    zd *x = inner > 1 ? line : base;
    if (inner > 1)
      for (int64_t j = 0; j < n; j++) line[j] = base[j * inner];
    plan_exec(J->pl, x, scr, J->pool);
    if (J->scale)
      for (int64_t j = 0; j < n; j++) x[j] = x[j] / (double)n;
    if (inner > 1)
      for (int64_t j = 0; j < n; j++) base[j * inner] = line[j];
  }
  free(line);
  free(scr);
}

static void axis_pass(xlacrt_pool *pool, zd *buf, int64_t outer, int64_t n, int64_t inner, int sign,
                      int scale) {
  if (outer <= 0 || n <= 0 || inner <= 0) return;
  Plan *pl = plan_new(n, sign);
  if (!pl) return;
  AxisJob J = {buf, outer, n, inner, outer * inner, 0, pl, scale, pool};
  J.per_chunk = CHUNK_ELEMS / n > 0 ? CHUNK_ELEMS / n : 1;
  xlacrt_parallel_for(pool, (J.nlines + J.per_chunk - 1) / J.per_chunk, axis_task, &J);
  plan_free(pl);
}

/* ---- IRFFT's last dimension: Hermitian rebuild, inverse, real part ---- */
typedef struct IrJob {
  const zd *half;
  void *out;
  int f64;
  int64_t rows, n, h, per_chunk;
  const Plan *pl;
  xlacrt_pool *pool;
} IrJob;

static void irfft_task(int64_t chunk, void *ctx) {
  const IrJob *J = ctx;
  int64_t n = J->n, h = J->h;
  zd *line = zalloc(n), *scr = zalloc(J->pl->scratch);
  if (!line || !scr) {
    free(line);
    free(scr);
    return;
  }
  int64_t r0 = chunk * J->per_chunk, r1 = r0 + J->per_chunk < J->rows ? r0 + J->per_chunk : J->rows;
  for (int64_t r = r0; r < r1; r++) {
    const zd *half = J->half + r * h;
    for (int64_t k = 0; k < n; k++) line[k] = k < h ? half[k] : conj(half[n - k]);
    /* the DC term (and Nyquist for even n) of a real signal is real */
    line[0] = creal(line[0]);
    if (n % 2 == 0) line[n / 2] = creal(line[n / 2]);
    plan_exec(J->pl, line, scr, J->pool);
    for (int64_t k = 0; k < n; k++) {
      double v = creal(line[k]) / (double)n;
      if (J->f64)
        ((double *)J->out)[r * n + k] = v;
      else
        ((float *)J->out)[r * n + k] = (float)v;
    }
  }
  free(line);
  free(scr);
}

static void load_complex(zd *buf, const void *in, int f64, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    buf[i] = f64 ? rt_zmake(((const double *)in)[2 * i], ((const double *)in)[2 * i + 1])
                 : rt_zmake(((const float *)in)[2 * i], ((const float *)in)[2 * i + 1]);
}

static void store_complex(void *out, const zd *buf, int f64, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    if (f64) {
      ((double *)out)[2 * i] = creal(buf[i]);
      ((double *)out)[2 * i + 1] = cimag(buf[i]);
    } else {
      ((float *)out)[2 * i] = (float)creal(buf[i]);
      ((float *)out)[2 * i + 1] = (float)cimag(buf[i]);
    }
  }
}

void xlacrt_fft(xlacrt_pool *p, int kind, int f64, int64_t batch, int nlen, const int64_t *len,
                const void *in, void *out) {
  if (nlen < 1 || nlen > 3 || batch <= 0) return;
  if (!f64 && xlacrt_fft_f32(p, kind, batch, nlen, len, in, out)) return;
  int64_t n = len[nlen - 1], h = n > 0 ? n / 2 + 1 : 0;
  /* dims of the complex buffer: batch, len[0..nlen-1), last */
  int64_t full = batch, lead = batch; /* lead: everything before the last dimension */
  for (int i = 0; i < nlen; i++) {
    if (len[i] <= 0) return; /* nothing to compute: the result is empty */
    full *= len[i];
    if (i < nlen - 1) lead *= len[i];
  }
  int64_t last = kind == XLACRT_FFT_FFT || kind == XLACRT_FFT_IFFT ? n : h;
  int64_t total = kind == XLACRT_FFT_RFFT ? full : lead * last;
  zd *buf = zalloc(total);
  if (!buf) return;
  if (kind == XLACRT_FFT_RFFT) {
    for (int64_t i = 0; i < total; i++)
      buf[i] = rt_zmake(f64 ? ((const double *)in)[i] : (double)((const float *)in)[i], 0);
  } else {
    load_complex(buf, in, f64, total);
  }
  /* inner[i]: elements after dimension i of the buffer (last dim `last`) */
  int64_t inner[3];
  inner[nlen - 1] = 1;
  for (int i = nlen - 2; i >= 0; i--) inner[i] = inner[i + 1] * (i + 1 == nlen - 1 ? last : len[i + 1]);
  switch (kind) {
  case XLACRT_FFT_FFT:
    for (int a = nlen - 1; a >= 0; a--) axis_pass(p, buf, full / (len[a] * inner[a]), len[a], inner[a], -1, 0);
    store_complex(out, buf, f64, total);
    break;
  case XLACRT_FFT_IFFT:
    for (int a = 0; a < nlen; a++) axis_pass(p, buf, full / (len[a] * inner[a]), len[a], inner[a], +1, 1);
    store_complex(out, buf, f64, total);
    break;
  case XLACRT_FFT_RFFT: {
    /* the last dimension on the real lines, then keep h outputs of each:
       the other dimensions act on each kept column unchanged */
    axis_pass(p, buf, lead, n, 1, -1, 0);
    for (int64_t r = 0; r < lead; r++)
      for (int64_t k = 0; k < h; k++) buf[r * h + k] = buf[r * n + k];
    int64_t ctotal = lead * h;
    for (int a = nlen - 2; a >= 0; a--) axis_pass(p, buf, ctotal / (len[a] * inner[a]), len[a], inner[a], -1, 0);
    store_complex(out, buf, f64, ctotal);
    break;
  }
  case XLACRT_FFT_IRFFT: {
    for (int a = 0; a < nlen - 1; a++) axis_pass(p, buf, total / (len[a] * inner[a]), len[a], inner[a], +1, 1);
    Plan *pl = plan_new(n, +1);
    if (!pl) break;
    IrJob J = {buf, out, f64, lead, n, h, 0, pl, p};
    J.per_chunk = CHUNK_ELEMS / n > 0 ? CHUNK_ELEMS / n : 1;
    xlacrt_parallel_for(p, (lead + J.per_chunk - 1) / J.per_chunk, irfft_task, &J);
    plan_free(pl);
    break;
  }
  default: break;
  }
  free(buf);
}
