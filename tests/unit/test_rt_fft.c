/*
 * test_rt_fft.c - unit tests of the float FFT (runtime/fft_f32.c, used for
 * complex64/f32 transforms whose lengths are all powers of two): every
 * kind on lengths 1 to 2^16 (the four-step method from 2^13), batches that
 * leave a batch of 16 lines part empty, 2-D and 3-D transforms whose lines
 * are strided, shorter than a batch or long, against the same transform
 * in double (the complex128 path computes what the interpreter does).
 * Checks the error bound of docs/math.md,
 *   ||y - exact||_2 <= eps * (d + log2(N) / 2) * ||exact||_2
 * (d dimensions, N points per transform, eps = 2^-23) on uniform inputs
 * and on inputs spanning five decades, and that the results are the same
 * bits for 1 and 3 threads and for every kernel family the CPU has.
 * Prints the worst error seen relative to that bound.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xlacrt.h"

static int passed, failed;

static void expect(int ok, const char *what) {
  if (ok) {
    passed++;
  } else {
    failed++;
    printf("FAIL: %s\n", what);
  }
}

/* Deterministic pseudo-random numbers in [-1, 1). */
static uint64_t rng_state = 2463534242;
static double rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (double)(rng_state >> 11) / 4503599627370496.0 - 1.0;
}

static const char *const kinds[] = {"FFT", "IFFT", "RFFT", "IRFFT"};
static double worst;

/* One call of `batch` transforms; wide: input magnitudes spread over five
   decades instead of uniform in [-1, 1). */
static void check(xlacrt_pool *p1, xlacrt_pool *p3, int kind, int64_t batch, int nlen, const int64_t *len, int wide) {
  int64_t n = len[nlen - 1], h = n / 2 + 1, lead = batch;
  for (int i = 0; i < nlen - 1; i++) lead *= len[i];
  int64_t nin = lead * (kind == XLACRT_FFT_RFFT ? n : kind == XLACRT_FFT_IRFFT ? 2 * h : 2 * n);
  int64_t nout = lead * (kind == XLACRT_FFT_IRFFT ? n : kind == XLACRT_FFT_RFFT ? 2 * h : 2 * n);
  float *x = malloc(sizeof(float) * (size_t)nin), *y = malloc(sizeof(float) * (size_t)nout);
  float *y2 = malloc(sizeof(float) * (size_t)nout);
  double *xd = malloc(sizeof(double) * (size_t)nin), *yd = malloc(sizeof(double) * (size_t)nout);
  for (int64_t i = 0; i < nin; i++) {
    x[i] = (float)(wide ? rnd() * pow(10.0, 2.5 * rnd()) : rnd());
    xd[i] = x[i];
  }
  xlacrt_fft(p1, kind, 0, batch, nlen, len, x, y);
  xlacrt_fft(p1, kind, 1, batch, nlen, len, xd, yd);
  char what[160];
  int64_t per = nout / batch, points = lead / batch * n;
  double bound = 1.1920928955078125e-7 * (nlen + log2((double)points) / 2), rmax = 0;
  for (int64_t b = 0; b < batch; b++) {
    double e2 = 0, r2 = 0;
    for (int64_t i = b * per; i < (b + 1) * per; i++) {
      e2 += (y[i] - yd[i]) * (y[i] - yd[i]);
      r2 += yd[i] * yd[i];
    }
    double r = r2 > 0 ? sqrt(e2 / r2) / bound : sqrt(e2);
    if (r > rmax) rmax = r;
  }
  if (rmax > worst) worst = rmax;
  snprintf(what, sizeof what, "%s %lld x %lld points (last %lld) %s: error %.3f of the bound", kinds[kind],
           (long long)batch, (long long)points, (long long)n, wide ? "wide" : "uniform", rmax);
  expect(rmax <= 1, what);
  xlacrt_fft(p3, kind, 0, batch, nlen, len, x, y2);
  snprintf(what, sizeof what, "%s %lld (last %lld): same for 1 and 3 threads", kinds[kind], (long long)batch,
           (long long)n);
  expect(memcmp(y, y2, sizeof(float) * (size_t)nout) == 0, what);
  static const char *const isas[] = {"c", "avx2", "avx512"};
  for (int i = 0; i < 3; i++) {
    if (!xlacrt_fft_set_isa(isas[i])) continue;
    memset(y2, 0, sizeof(float) * (size_t)nout);
    xlacrt_fft(p3, kind, 0, batch, nlen, len, x, y2);
    snprintf(what, sizeof what, "%s %lld (last %lld): same with the %s kernels", kinds[kind], (long long)batch,
             (long long)n, isas[i]);
    expect(memcmp(y, y2, sizeof(float) * (size_t)nout) == 0, what);
  }
  xlacrt_fft_set_isa("best");
  free(x), free(y), free(y2), free(xd), free(yd);
}

int main(void) {
  xlacrt_pool *p1 = xlacrt_pool_create(1), *p3 = xlacrt_pool_create(3);
  expect(!xlacrt_fft_set_isa("no-such-isa"), "unknown kernel family refused");
  for (int e = 0; e <= 16; e++) {
    int64_t n = (int64_t)1 << e, batch = e <= 8 ? 37 : (1 << 17) / n;
    for (int kind = 0; kind < 4; kind++)
      for (int wide = 0; wide < 2; wide++) check(p1, p3, kind, batch, 1, &n, wide);
  }
  /* strided lines: shorter than a batch (4, 8), not a multiple of 16
     (17 = 32/2 + 1), long (8192, 2^13 x 2: four-step on strided lines) */
  static const int64_t shapes[][3] = {{8, 4},     {4, 8},      {16, 32},  {64, 64}, {2, 4, 8},
                                      {8, 1, 16}, {4, 32, 64}, {8192, 2}, {2, 8192}};
  static const int nlens[] = {2, 2, 2, 2, 3, 3, 3, 2, 2};
  for (size_t s = 0; s < sizeof nlens / sizeof nlens[0]; s++)
    for (int kind = 0; kind < 4; kind++) check(p1, p3, kind, 3, nlens[s], shapes[s], 0);
  printf("fft f32: worst error %.3f of the bound eps * (d + log2 N / 2)\n", worst);
  xlacrt_pool_destroy(p1);
  xlacrt_pool_destroy(p3);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
