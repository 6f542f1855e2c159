/*
 * fft_impl.h - what the runtime's two FFT files share (not part of the
 * library's interface): fft.c computes any length in double, fft_f32.c
 * complex64/f32 transforms of power-of-two lengths in float.  Both take
 * their twiddles from the double tables here.
 */
#ifndef XLACRT_FFT_IMPL_H
#define XLACRT_FFT_IMPL_H

#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "rt_util.h"
#include "xlacrt.h"

static inline int fft_is_pow2(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

/* exp(sign * 2 pi i m / n), the expression the interpreter evaluates */
static inline double complex fft_twiddle(int sign, int64_t m, int64_t n) {
  double ang = sign * 2.0 * M_PI * (double)m / (double)n;
  return rt_zmake(cos(ang), sin(ang));
}

/* exp(sign * 2 pi i e / N) for any e in [0, N) as hi[e / B] * lo[e % B]:
   two tables of about sqrt(N) entries instead of N, each entry computed
   directly, so a product is within a few double ulps.  B = 2^shift. */
typedef struct TwTable {
  int64_t N, B;
  int shift;
  double complex *lo, *hi;
} TwTable;

/* 0 when memory runs out (recorded in the run's status). */
static inline int tw_init(TwTable *t, int sign, int64_t N) {
  int64_t B = 1;
  t->shift = 0;
  while (B * B < N) B *= 2, t->shift++;
  t->N = N;
  t->B = B;
  t->lo = xlacrt_try_alloc("fft", sizeof(double complex) * (size_t)B);
  t->hi = t->lo ? xlacrt_try_alloc("fft", sizeof(double complex) * (size_t)(N / B + 1)) : NULL;
  if (!t->hi) return 0;
  for (int64_t b = 0; b < B; b++) t->lo[b] = fft_twiddle(sign, b, N);
  for (int64_t a = 0; a * B < N; a++) t->hi[a] = fft_twiddle(sign, a * B, N);
  return 1;
}

static inline double complex tw_get(const TwTable *t, int64_t e) {
  return t->hi[e >> t->shift] * t->lo[e & (t->B - 1)];
}

static inline void tw_free(TwTable *t) {
  free(t->lo);
  free(t->hi);
}

/* xlacrt_fft for complex64/f32 when every length is a power of two (and
   the last at least 2 for RFFT and IRFFT), in fft_f32.c.  Returns 0,
   having done nothing, for any other transform. */
__attribute__((visibility("hidden"))) int xlacrt_fft_f32(xlacrt_pool *p, int kind, int64_t batch, int nlen,
                                                         const int64_t *len, const void *in, void *out);

#endif
