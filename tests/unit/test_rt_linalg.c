/*
 * test_rt_linalg.c - unit tests of the runtime's Cholesky, triangular solve
 * and FFT (runtime/linalg.c, runtime/fft.c) against plain definitions: a
 * factor times its conjugate transpose gives the matrix back, a solution
 * satisfies its system, an FFT equals the DFT sum computed in long double,
 * and results are the same for 1 and 4 threads.  The error of each FFT is
 * reported relative to the largest output magnitude, in units of the
 * element type's epsilon.
 */
#include <complex.h>
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
static uint64_t rng_state = 12345;
static double rnd(void) {
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(rng_state >> 11) / (double)(1ULL << 52) - 1.0;
}

/* ---- Cholesky: L L^T == A for a random SPD matrix, and 1 vs 4 threads ---- */
static void test_cholesky(xlacrt_pool *p1, xlacrt_pool *p4, int64_t n, int lower) {
  double *b = malloc(sizeof(double) * (size_t)(n * n)), *a = malloc(sizeof(double) * (size_t)(n * n));
  double *l1 = malloc(sizeof(double) * (size_t)(n * n)), *l4 = malloc(sizeof(double) * (size_t)(n * n));
  for (int64_t i = 0; i < n * n; i++) b[i] = rnd();
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) {
      double s = i == j ? (double)n : 0;
      for (int64_t k = 0; k < n; k++) s += b[i * n + k] * b[j * n + k];
      a[i * n + j] = s;
    }
  xlacrt_cholesky(p1, XLACRT_LA_F64, lower, 1, n, a, l1);
  xlacrt_cholesky(p4, XLACRT_LA_F64, lower, 1, n, a, l4);
  double err = 0;
  int zeros = 1;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) {
      double s = 0;
      /* lower: (L L^T)[i][j]; upper: (U^T U)[i][j] */
      for (int64_t k = 0; k < n; k++)
        s += lower ? l1[i * n + k] * l1[j * n + k] : l1[k * n + i] * l1[k * n + j];
      err = fmax(err, fabs(s - a[i * n + j]) / (double)n);
      if ((lower ? j > i : j < i) && l1[i * n + j] != 0) zeros = 0;
    }
  char what[96];
  snprintf(what, sizeof what, "cholesky n=%lld lower=%d: residual %.3g", (long long)n, lower, err);
  expect(err < 1e-12, what);
  expect(zeros, "cholesky: other triangle is zero");
  expect(memcmp(l1, l4, sizeof(double) * (size_t)(n * n)) == 0, "cholesky: same for 1 and 4 threads");
  free(b), free(a), free(l1), free(l4);
}

/* ---- triangular solve: op(T) X == B, left and right, lower and upper ---- */
static void test_trsm(xlacrt_pool *p1, xlacrt_pool *p4, int64_t m, int64_t k, int left, int lower,
                      int transpose) {
  int64_t br = left ? m : k, bc = left ? k : m;
  double *a = malloc(sizeof(double) * (size_t)(m * m)), *b = malloc(sizeof(double) * (size_t)(br * bc));
  double *x1 = malloc(sizeof(double) * (size_t)(br * bc)), *x4 = malloc(sizeof(double) * (size_t)(br * bc));
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < m; j++) a[i * m + j] = i == j ? 2 + rnd() * 0.5 : rnd() * 0.5 / (double)m;
  for (int64_t i = 0; i < br * bc; i++) b[i] = rnd();
  xlacrt_triangular_solve(p1, XLACRT_LA_F64, left, lower, 0, transpose, 1, m, br, bc, a, b, x1);
  xlacrt_triangular_solve(p4, XLACRT_LA_F64, left, lower, 0, transpose, 1, m, br, bc, a, b, x4);
  /* effective op(A) entry (r, c), from the chosen triangle */
  double err = 0;
  for (int64_t i = 0; i < br; i++)
    for (int64_t j = 0; j < bc; j++) {
      double s = 0;
      for (int64_t q = 0; q < m; q++) {
        /* left: sum_q op(A)[i][q] X[q][j]; right: sum_q X[i][q] op(A)[q][j] */
        int64_t r = left ? i : q, c = left ? q : j;
        int64_t ar = transpose ? c : r, ac = transpose ? r : c;
        double v = (lower ? ac <= ar : ac >= ar) ? a[ar * m + ac] : 0;
        s += v * (left ? x1[q * bc + j] : x1[i * bc + q]);
      }
      err = fmax(err, fabs(s - b[i * bc + j]));
    }
  char what[128];
  snprintf(what, sizeof what, "trsm m=%lld k=%lld left=%d lower=%d transpose=%d: residual %.3g", (long long)m,
           (long long)k, left, lower, transpose, err);
  expect(err < 1e-12, what);
  expect(memcmp(x1, x4, sizeof(double) * (size_t)(br * bc)) == 0, "trsm: same for 1 and 4 threads");
  free(a), free(b), free(x1), free(x4);
}

/* ---- FFT against a long double DFT ---- */
static double test_fft(xlacrt_pool *p1, xlacrt_pool *p4, int64_t n, int f64, int inverse) {
  double *in = malloc(sizeof(double) * (size_t)(2 * n));
  for (int64_t i = 0; i < 2 * n; i++) in[i] = rnd();
  if (!f64)
    for (int64_t i = 0; i < 2 * n; i++) in[i] = (float)in[i];
  size_t esz = f64 ? sizeof(double) : sizeof(float);
  void *x = malloc(esz * (size_t)(2 * n)), *y1 = malloc(esz * (size_t)(2 * n)), *y4 = malloc(esz * (size_t)(2 * n));
  for (int64_t i = 0; i < 2 * n; i++) {
    if (f64)
      ((double *)x)[i] = in[i];
    else
      ((float *)x)[i] = (float)in[i];
  }
  int kind = inverse ? XLACRT_FFT_IFFT : XLACRT_FFT_FFT;
  xlacrt_fft(p1, kind, f64, 1, 1, &n, x, y1);
  xlacrt_fft(p4, kind, f64, 1, 1, &n, x, y4);
  double maxerr = 0, maxmag = 0;
  /* only a sample of outputs for long transforms (the exact sum is O(n)) */
  int64_t step = n > 1024 ? n / 37 + 1 : 1;
  for (int64_t k = 0; k < n; k += step) {
    long double re = 0, im = 0;
    for (int64_t j = 0; j < n; j++) {
      long double ang = (inverse ? 2 : -2) * 3.14159265358979323846264338327950288L * (long double)((j * k) % n) / n;
      long double c = cosl(ang), s = sinl(ang);
      re += in[2 * j] * c - in[2 * j + 1] * s;
      im += in[2 * j] * s + in[2 * j + 1] * c;
    }
    if (inverse) re /= n, im /= n;
    double gr = f64 ? ((double *)y1)[2 * k] : ((float *)y1)[2 * k];
    double gi = f64 ? ((double *)y1)[2 * k + 1] : ((float *)y1)[2 * k + 1];
    maxerr = fmax(maxerr, fmax(fabs(gr - (double)re), fabs(gi - (double)im)));
    maxmag = fmax(maxmag, fmax(fabs((double)re), fabs((double)im)));
  }
  double eps = f64 ? 2.220446049250313e-16 : 1.1920929e-7;
  double rel = maxerr / (maxmag > 0 ? maxmag : 1) / eps;
  char what[128];
  snprintf(what, sizeof what, "fft n=%lld f64=%d inverse=%d: error %.2f eps of the largest output", (long long)n, f64,
           inverse, rel);
  double lg = log2((double)(n > 1 ? n : 2));
  expect(rel <= 2 * lg + 2, what);
  expect(memcmp(y1, y4, esz * (size_t)(2 * n)) == 0, "fft: same for 1 and 4 threads");
  free(in), free(x), free(y1), free(y4);
  return rel;
}

int main(void) {
  xlacrt_pool *p1 = xlacrt_pool_create(1), *p4 = xlacrt_pool_create(4);
  for (int lower = 0; lower < 2; lower++) {
    test_cholesky(p1, p4, 5, lower);
    test_cholesky(p1, p4, 200, lower);
  }
  for (int left = 0; left < 2; left++)
    for (int lower = 0; lower < 2; lower++)
      for (int tr = 0; tr < 2; tr++) {
        test_trsm(p1, p4, 6, 3, left, lower, tr);
        test_trsm(p1, p4, 150, 70, left, lower, tr);
      }
  static const int64_t lens[] = {1, 2, 3, 7, 12, 64, 65, 100, 127, 1024, 1000, 4097, 16384, 20000};
  double worst[2] = {0, 0};
  for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
    for (int f64 = 0; f64 < 2; f64++)
      for (int inv = 0; inv < 2; inv++) {
        double r = test_fft(p1, p4, lens[i], f64, inv) / log2((double)(lens[i] > 1 ? lens[i] : 2));
        if (r > worst[f64]) worst[f64] = r;
      }
  printf("fft: worst error / log2(n): f32 %.3f eps, f64 %.3f eps (of the largest output)\n", worst[0], worst[1]);
  xlacrt_pool_destroy(p1);
  xlacrt_pool_destroy(p4);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
