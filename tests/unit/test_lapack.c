/*
 * test_lapack.c - unit tests of the LAPACK routines behind JAX's CPU
 * lowerings (interp/lapack.c): each factorization rebuilds its matrix
 * (Z T Z^H = A, Q H Q^H = A, A P = Q R, Q T Q^H = A, U S V^H = A,
 * L U = P A), its
 * vectors satisfy what they must (A v = w v, u^H A = w u^H, unit norms,
 * orthonormal columns), small cases worked out by hand come out exactly
 * as expected, and degenerate inputs (0x0, 1x1, zeros, repeated
 * eigenvalues, singular systems, NaN) give LAPACK's answers.  Errors are
 * relative to the matrix's size and measured in units of double's epsilon.
 */
#include "interp/lapack.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#undef I
static const la_z IU = 1.0i;

static int passed, failed;

static void expect(int ok, const char *fmt, ...) {
  if (ok) {
    passed++;
    return;
  }
  failed++;
  va_list ap;
  va_start(ap, fmt);
  printf("FAIL: ");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
}

static uint64_t rng_state = 12345;
static double rnd(void) {
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(rng_state >> 11) / (double)(1ULL << 52) - 1.0;
}

static la_z *zalloc(int64_t n) { return calloc((size_t)(n > 0 ? n : 1), sizeof(la_z)); }

static la_z *random_matrix(int64_t m, int64_t n, bool cplx) {
  la_z *a = zalloc(m * n);
  for (int64_t i = 0; i < m * n; i++) a[i] = rnd() + (cplx ? rnd() * IU : 0);
  return a;
}

/* c = a (m x k) b (k x n), with a or b conjugate-transposed (stored k x m, n x k). */
static void matmul(const la_z *a, bool ah, const la_z *b, bool bh, la_z *c, int64_t m, int64_t k, int64_t n) {
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      la_z s = 0;
      for (int64_t q = 0; q < k; q++)
        s += (ah ? conj(a[q * m + i]) : a[i * k + q]) * (bh ? conj(b[j * k + q]) : b[q * n + j]);
      c[i * n + j] = s;
    }
}

/* max |x - y| / max(1, max |y|) */
static double relerr(const la_z *x, const la_z *y, int64_t n) {
  double e = 0, s = 1;
  for (int64_t i = 0; i < n; i++) {
    e = fmax(e, cabs(x[i] - y[i]));
    s = fmax(s, cabs(y[i]));
  }
  return e / s;
}

static double unitary_err(const la_z *q, int64_t m, int64_t n) { /* columns of the m x n q */
  la_z *g = zalloc(n * n), *id = zalloc(n * n);
  matmul(q, true, q, false, g, n, m, n);
  for (int64_t i = 0; i < n; i++) id[i * n + i] = 1;
  double e = relerr(g, id, n * n);
  free(g);
  free(id);
  return e;
}

static double tol(int64_t n) { return 100.0 * (double)(n + 1) * DBL_EPSILON; }

/* ---- geev ---- */

static void check_geev(const la_z *a0, int64_t n, bool real, const char *what) {
  la_z *a = zalloc(n * n), *w = zalloc(n), *vl = zalloc(n * n), *vr = zalloc(n * n);
  la_z *av = zalloc(n * n), *vw = zalloc(n * n);
  memcpy(a, a0, sizeof(la_z) * (size_t)(n * n));
  int64_t info = la_geev(a, n, real, w, vl, vr);
  expect(info == 0, "%s: geev info %lld", what, (long long)info);
  matmul(a0, false, vr, false, av, n, n, n);
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) vw[i * n + j] = vr[i * n + j] * w[j];
  expect(relerr(av, vw, n * n) < tol(n), "%s: A V = V w (%g)", what, relerr(av, vw, n * n));
  /* u^H A = w u^H: A^H U = U conj(w) */
  matmul(a0, true, vl, false, av, n, n, n);
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) vw[i * n + j] = vl[i * n + j] * conj(w[j]);
  expect(relerr(av, vw, n * n) < tol(n), "%s: U^H A = w U^H (%g)", what, relerr(av, vw, n * n));
  for (int64_t j = 0; j < n; j++) {
    double nr = 0, nl = 0, best = -1;
    int64_t big = 0;
    for (int64_t i = 0; i < n; i++) {
      nr += creal(vr[i * n + j] * conj(vr[i * n + j]));
      nl += creal(vl[i * n + j] * conj(vl[i * n + j]));
      if (cabs(vr[i * n + j]) > best + 1e-14) best = cabs(vr[i * n + j]), big = i;
    }
    expect(fabs(nr - 1) < tol(n) && fabs(nl - 1) < tol(n), "%s: unit vectors (%g %g)", what, nr, nl);
    expect(fabs(cimag(vr[big * n + j])) < tol(n), "%s: largest component real", what);
    if (real && cimag(w[j]) == 0)
      for (int64_t i = 0; i < n; i++) expect(cimag(vr[i * n + j]) == 0, "%s: a real eigenvalue's vector is real", what);
    if (real && cimag(w[j]) > 0) {
      expect(j + 1 < n && w[j + 1] == conj(w[j]), "%s: conjugate eigenvalues", what);
      for (int64_t i = 0; j + 1 < n && i < n; i++)
        expect(vr[i * n + j + 1] == conj(vr[i * n + j]), "%s: conjugate vectors", what);
    }
  }
  free(a), free(w), free(vl), free(vr), free(av), free(vw);
}

/* Each of want[n] matched by a distinct eigenvalue in w. */
static bool same_eigenvalues(const la_z *w, const la_z *want, int64_t n, double t) {
  bool used[64] = {0};
  for (int64_t i = 0; i < n; i++) {
    int64_t k = -1;
    for (int64_t j = 0; j < n; j++)
      if (!used[j] && cabs(w[j] - want[i]) <= t && (k < 0 || cabs(w[j] - want[i]) < cabs(w[k] - want[i]))) k = j;
    if (k < 0) return false;
    used[k] = true;
  }
  return true;
}

static void test_geev(void) {
  int64_t sizes[] = {1, 2, 3, 5, 12, 40};
  for (int c = 0; c < 2; c++)
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
      int64_t n = sizes[s];
      la_z *a = random_matrix(n, n, c);
      char what[64];
      snprintf(what, sizeof what, "random %s %lld", c ? "complex" : "real", (long long)n);
      check_geev(a, n, !c, what);
      free(a);
    }
  /* by hand: a rotation (+-i), a companion matrix of (x-1)(x-2)(x-3), a
     triangular matrix, the identity, a Jordan block, zeros */
  struct {
    int64_t n;
    double a[9];
    la_z w[3];
  } cases[] = {
      {2, {0, -1, 1, 0}, {IU, -IU}},
      {3, {6, -11, 6, 1, 0, 0, 0, 1, 0}, {1, 2, 3}},
      {3, {1, 2, 3, 0, 4, 5, 0, 0, 6}, {1, 4, 6}},
      {3, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {1, 1, 1}},
      {2, {2, 1, 0, 2}, {2, 2}},
      {3, {0}, {0, 0, 0}},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    int64_t n = cases[k].n;
    la_z *a = zalloc(n * n), *w = zalloc(n);
    for (int64_t i = 0; i < n * n; i++) a[i] = cases[k].a[i];
    la_z *a0 = zalloc(n * n);
    memcpy(a0, a, sizeof(la_z) * (size_t)(n * n));
    expect(la_geev(a, n, true, w, NULL, NULL) == 0, "hand case %zu: info", k);
    expect(same_eigenvalues(w, cases[k].w, n, k == 4 ? 1e-7 : 1e-12), "hand case %zu: eigenvalues", k);
    if (k != 4) check_geev(a0, n, true, "hand case"); /* (a Jordan block's vectors are parallel) */
    free(a), free(w), free(a0);
  }
  /* eigenvalues of rotations come out as exact conjugate pairs, the
     positive imaginary part first */
  la_z r[4] = {0, -2, 2, 0}, w[2];
  la_geev(r, 2, true, w, NULL, NULL);
  expect(w[0] == 2 * IU && w[1] == -2 * IU, "rotation: 2i, -2i, got %.17g%+.17gi %.17g%+.17gi", creal(w[0]), cimag(w[0]),
         creal(w[1]), cimag(w[1]));
  /* 0x0, NaN, infinity */
  expect(la_geev(NULL, 0, true, NULL, NULL, NULL) == 0, "0x0");
  la_z nan2[4] = {NAN, 0, 0, 1}, inf1[1] = {INFINITY};
  expect(la_geev(nan2, 2, true, w, NULL, NULL) != 0, "NaN gives info != 0");
  expect(la_geev(inf1, 1, false, w, NULL, NULL) != 0, "infinity gives info != 0");
}

/* ---- gees ---- */

static void test_schur(void) {
  int64_t sizes[] = {1, 2, 4, 9, 30};
  for (int c = 0; c < 2; c++)
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
      int64_t n = sizes[s];
      la_z *a0 = random_matrix(n, n, c), *t = zalloc(n * n), *z = zalloc(n * n), *w = zalloc(n);
      la_z *zt = zalloc(n * n), *rec = zalloc(n * n);
      memcpy(t, a0, sizeof(la_z) * (size_t)(n * n));
      expect(la_schur(t, n, !c, z, w) == 0, "schur info");
      matmul(z, false, t, false, zt, n, n, n);
      matmul(zt, false, z, true, rec, n, n, n);
      expect(relerr(rec, a0, n * n) < tol(n), "schur %lld %d: Z T Z^H = A (%g)", (long long)n, c,
             relerr(rec, a0, n * n));
      expect(unitary_err(z, n, n) < tol(n), "schur: Z unitary");
      bool shape = true;
      for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < i; j++) {
          if (j < i - 1 || c) shape = shape && t[i * n + j] == 0;
          if (!c) shape = shape && cimag(t[i * n + j]) == 0;
        }
      for (int64_t i = 0; !c && i + 1 < n; i++) {
        if (t[(i + 1) * n + i] == 0) continue;
        /* a standardized block: equal diagonal, off-diagonals of opposite signs, alone */
        shape = shape && t[i * n + i] == t[(i + 1) * n + i + 1] && creal(t[i * n + i + 1] * t[(i + 1) * n + i]) < 0;
        shape = shape && (i + 2 >= n || t[(i + 2) * n + i + 1] == 0);
        shape = shape && cimag(w[i]) > 0 && w[i + 1] == conj(w[i]);
      }
      for (int64_t i = 0; c && i < n; i++) shape = shape && w[i] == t[i * n + i];
      expect(shape, "schur %lld %d: the form's shape", (long long)n, c);
      free(a0), free(t), free(z), free(w), free(zt), free(rec);
    }
}

/* ---- gehrd ---- */

static void test_gehrd(void) {
  int64_t sizes[] = {1, 2, 3, 8, 25};
  for (int c = 0; c < 2; c++)
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
      int64_t n = sizes[s];
      la_z *a0 = random_matrix(n, n, c), *a = zalloc(n * n), *taus = zalloc(n), *q = zalloc(n * n);
      la_z *h = zalloc(n * n), *qh = zalloc(n * n), *rec = zalloc(n * n), *v = zalloc(n);
      memcpy(a, a0, sizeof(la_z) * (size_t)(n * n));
      la_gehrd(a, n, taus);
      /* Q = H_0 ... H_{n-2}, H_i = I - tau_i v v^H, v = (0.., 1 at i+1, a[i+2..][i]) */
      for (int64_t i = 0; i < n; i++) q[i * n + i] = 1;
      for (int64_t i = 0; i + 1 < n; i++) {
        for (int64_t k = 0; k < n; k++) v[k] = k < i + 1 ? 0 : k == i + 1 ? 1 : a[k * n + i];
        for (int64_t r = 0; r < n; r++) {
          la_z dot = 0;
          for (int64_t k = 0; k < n; k++) dot += q[r * n + k] * v[k];
          for (int64_t k = 0; k < n; k++) q[r * n + k] -= taus[i] * dot * conj(v[k]);
        }
      }
      for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) h[i * n + j] = j + 1 >= i ? a[i * n + j] : 0;
      matmul(q, false, h, false, qh, n, n, n);
      matmul(qh, false, q, true, rec, n, n, n);
      expect(relerr(rec, a0, n * n) < tol(n), "gehrd %lld %d: Q H Q^H = A (%g)", (long long)n, c,
             relerr(rec, a0, n * n));
      expect(unitary_err(q, n, n) < tol(n), "gehrd: Q unitary");
      if (!c)
        for (int64_t i = 0; i + 1 < n; i++) expect(cimag(taus[i]) == 0, "gehrd: real taus for a real matrix");
      free(a0), free(a), free(taus), free(q), free(h), free(qh), free(rec), free(v);
    }
}

/* ---- geqp3 ---- */

static void check_geqp3(const la_z *a0, int64_t m, int64_t n, int64_t *jpvt, const char *what) {
  int64_t k = m < n ? m : n;
  la_z *a = zalloc(m * n), *taus = zalloc(k), *q = zalloc(m * m), *r = zalloc(m * n), *qr = zalloc(m * n);
  la_z *ap = zalloc(m * n), *v = zalloc(m);
  memcpy(a, a0, sizeof(la_z) * (size_t)(m * n));
  la_geqp3(a, m, n, jpvt, taus);
  for (int64_t i = 0; i < m; i++) q[i * m + i] = 1;
  for (int64_t j = 0; j < k; j++) {
    for (int64_t i = 0; i < m; i++) v[i] = i < j ? 0 : i == j ? 1 : a[i * n + j];
    for (int64_t row = 0; row < m; row++) {
      la_z dot = 0;
      for (int64_t i = 0; i < m; i++) dot += q[row * m + i] * v[i];
      for (int64_t i = 0; i < m; i++) q[row * m + i] -= taus[j] * dot * conj(v[i]);
    }
  }
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      r[i * n + j] = j >= i ? a[i * n + j] : 0;
      ap[i * n + j] = a0[i * n + (jpvt[j] - 1)];
    }
  matmul(q, false, r, false, qr, m, m, n);
  expect(relerr(qr, ap, m * n) < tol(m + n), "%s: A P = Q R (%g)", what, relerr(qr, ap, m * n));
  expect(unitary_err(q, m, m) < tol(m), "%s: Q unitary", what);
  free(a), free(taus), free(q), free(r), free(qr), free(ap), free(v);
}

static void test_geqp3(void) {
  int64_t shapes[][2] = {{1, 1}, {4, 3}, {3, 5}, {6, 6}, {20, 9}};
  for (int c = 0; c < 2; c++)
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
      int64_t m = shapes[s][0], n = shapes[s][1];
      la_z *a = random_matrix(m, n, c);
      int64_t jpvt[32] = {0};
      check_geqp3(a, m, n, jpvt, "geqp3 random");
      bool perm = true;
      for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < j; i++) perm = perm && jpvt[i] != jpvt[j] && jpvt[j] >= 1 && jpvt[j] <= n;
      expect(perm, "geqp3: the pivots are a permutation");
      free(a);
    }
  /* by hand: the largest column goes first, then the largest remainder */
  la_z a[] = {1, 0, 3, 0, 1, 4, 0, 0, 0};
  int64_t jpvt[3] = {0};
  la_z taus[3];
  la_geqp3(a, 3, 3, jpvt, taus);
  expect(jpvt[0] == 3 && jpvt[1] == 1 && jpvt[2] == 2, "geqp3 by hand: pivots %lld %lld %lld", (long long)jpvt[0],
         (long long)jpvt[1], (long long)jpvt[2]);
  expect(fabs(cabs(a[0]) - 5) < 1e-15, "geqp3 by hand: |R_00| = 5");
  /* a marked column stays first; zeros give zero taus */
  la_z b[] = {1, 10, 2, 20, 3, 30};
  int64_t fixed[2] = {1, 0};
  check_geqp3(b, 3, 2, fixed, "geqp3 fixed");
  expect(fixed[0] == 1 && fixed[1] == 2, "geqp3: a marked column leads");
  la_z z[6] = {0};
  int64_t jz[2] = {0};
  la_geqp3(z, 3, 2, jz, taus);
  expect(taus[0] == 0 && taus[1] == 0 && jz[0] == 1 && jz[1] == 2, "geqp3 of zeros");
}

/* ---- sytrd / hetrd ---- */

static void test_hetrd(void) {
  int64_t sizes[] = {1, 2, 3, 7, 20};
  for (int c = 0; c < 2; c++)
    for (int lower = 0; lower < 2; lower++)
      for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        int64_t n = sizes[s];
        la_z *a0 = random_matrix(n, n, c), *a = zalloc(n * n), *taus = zalloc(n), *q = zalloc(n * n);
        la_z *t = zalloc(n * n), *qt = zalloc(n * n), *rec = zalloc(n * n), *full = zalloc(n * n), *v = zalloc(n);
        double *d = calloc((size_t)n, sizeof(double)), *e = calloc((size_t)n, sizeof(double));
        for (int64_t i = 0; i < n; i++) /* the Hermitian matrix of the chosen triangle */
          for (int64_t j = 0; j < n; j++) {
            bool in = lower ? i >= j : i <= j;
            full[i * n + j] = i == j ? creal(a0[i * n + i]) : in ? a0[i * n + j] : conj(a0[j * n + i]);
          }
        memcpy(a, a0, sizeof(la_z) * (size_t)(n * n));
        la_hetrd(a, n, lower, d, e, taus);
        for (int64_t i = 0; i < n; i++) q[i * n + i] = 1;
        for (int64_t s2 = 0; s2 + 1 < n; s2++) {
          int64_t i = lower ? s2 : n - 2 - s2; /* Q = H_0 H_1 ... (lower), H_{n-2} ... H_0 (upper) */
          for (int64_t k = 0; k < n; k++) {
            if (lower) v[k] = k < i + 1 ? 0 : k == i + 1 ? 1 : a[k * n + i];
            else v[k] = k > i ? 0 : k == i ? 1 : a[k * n + i + 1];
          }
          for (int64_t r = 0; r < n; r++) {
            la_z dot = 0;
            for (int64_t k = 0; k < n; k++) dot += q[r * n + k] * v[k];
            for (int64_t k = 0; k < n; k++) q[r * n + k] -= taus[i] * dot * conj(v[k]);
          }
        }
        for (int64_t i = 0; i < n; i++) {
          t[i * n + i] = d[i];
          expect(a[i * n + i] == d[i], "hetrd: d on a's diagonal");
          if (i + 1 < n) {
            t[i * n + i + 1] = t[(i + 1) * n + i] = e[i];
            expect((lower ? a[(i + 1) * n + i] : a[i * n + i + 1]) == e[i], "hetrd: e beside it");
          }
        }
        matmul(q, false, t, false, qt, n, n, n);
        matmul(qt, false, q, true, rec, n, n, n);
        expect(relerr(rec, full, n * n) < tol(n), "hetrd %lld c=%d lower=%d: Q T Q^H = A (%g)", (long long)n, c, lower,
               relerr(rec, full, n * n));
        /* the other triangle is untouched */
        bool kept = true;
        for (int64_t i = 0; i < n; i++)
          for (int64_t j = 0; j < n; j++)
            if (lower ? j > i : j < i) kept = kept && a[i * n + j] == a0[i * n + j];
        expect(kept, "hetrd: the other triangle is untouched");
        free(a0), free(a), free(taus), free(q), free(t), free(qt), free(rec), free(full), free(v), free(d), free(e);
      }
}

/* ---- gtsv ---- */

static void test_gtsv(void) {
  for (int c = 0; c < 2; c++)
    for (int64_t n = 1; n <= 12; n += 3) {
      int64_t k = 2;
      la_z *dl = random_matrix(n, 1, c), *d = random_matrix(n, 1, c), *du = random_matrix(n, 1, c);
      la_z *b = random_matrix(n, k, c), *x = zalloc(n * k), *ax = zalloc(n * k);
      la_z *dl0 = zalloc(n), *d0 = zalloc(n), *du0 = zalloc(n);
      memcpy(x, b, sizeof(la_z) * (size_t)(n * k));
      memcpy(dl0, dl, sizeof(la_z) * (size_t)n), memcpy(d0, d, sizeof(la_z) * (size_t)n),
          memcpy(du0, du, sizeof(la_z) * (size_t)n);
      int64_t info = la_gtsv(dl, d, du, x, n, k);
      expect(info == 0, "gtsv info");
      for (int64_t i = 0; i < n; i++)
        for (int64_t r = 0; r < k; r++)
          ax[i * k + r] = d0[i] * x[i * k + r] + (i > 0 ? dl0[i] * x[(i - 1) * k + r] : 0) +
                          (i + 1 < n ? du0[i] * x[(i + 1) * k + r] : 0);
      expect(relerr(ax, b, n * k) < 1e-10, "gtsv %lld %d: A x = b (%g)", (long long)n, c, relerr(ax, b, n * k));
      memcpy(x, b, sizeof(la_z) * (size_t)(n * k));
      la_gtsv_perturbed(dl0, d0, du0, x, n, k, DBL_EPSILON);
      expect(relerr(ax, b, n * k) < 1e-10, "gtsv perturbed: A x = b");
      free(dl), free(d), free(du), free(b), free(x), free(ax), free(dl0), free(d0), free(du0);
    }
  /* JAX's cases: pivoting needed, and singular systems */
  la_z dl[] = {0, 2, -2, 3}, d[] = {1, 4, 1, -1}, du[] = {2, -1, 1, 0}, b[] = {1, 2, 3, 4};
  la_z want[] = {8, -3.5, 0, -4};
  expect(la_gtsv(dl, d, du, b, 4, 1) == 0 && relerr(b, want, 4) < 1e-14, "gtsv with pivoting");
  la_z z[3] = {0}, zd[3] = {0}, zu[3] = {0}, ones[3] = {1, 1, 1};
  expect(la_gtsv(z, zd, zu, ones, 3, 1) == 1, "gtsv of zeros: info 1");
  la_z sdl[] = {0, 1}, sd[] = {1, 3}, sdu[] = {3, 0}, sb[] = {1, 4};
  expect(la_gtsv(sdl, sd, sdu, sb, 2, 1) == 2, "gtsv singular 2x2: info 2");
  la_z sd2[] = {1, 3}, sdu2[] = {3, 0}, sb2[] = {1, 4}, sdl2[] = {0, 1};
  la_gtsv_perturbed(sdl2, sd2, sdu2, sb2, 2, 1, FLT_EPSILON);
  expect(isfinite(cabs(sb2[0])) && cabs(sb2[0]) > 1e6 && cabs(sb2[1]) > 1e6, "perturbed singular: large, finite");
  la_z zz[3] = {0}, o3[3] = {1, 1, 1};
  la_gtsv_perturbed(zz, zz, zz, o3, 3, 1, FLT_EPSILON);
  expect(creal(o3[0]) == 1 / FLT_EPSILON && creal(o3[2]) == 1 / FLT_EPSILON, "perturbed zeros: 1/eps");
  la_z one_d[] = {4}, one_b[] = {2}, one_l[] = {0}, one_u[] = {0};
  expect(la_gtsv(one_l, one_d, one_u, one_b, 1, 1) == 0 && one_b[0] == 0.5, "gtsv 1x1");
}

/* ---- getrf ---- */

/* P A = L U from getrf's factors of the m x n a0. */
static void check_getrf(const la_z *a0, int64_t m, int64_t n, bool cplx, const char *what) {
  int64_t k = m < n ? m : n;
  la_z *a = zalloc(m * n), *l = zalloc(m * k), *u = zalloc(k * n), *lu = zalloc(m * n), *pa = zalloc(m * n);
  int64_t *ipiv = calloc((size_t)(k + 1), sizeof(int64_t));
  memcpy(a, a0, sizeof(la_z) * (size_t)(m * n));
  memcpy(pa, a0, sizeof(la_z) * (size_t)(m * n));
  expect(la_getrf(a, m, n, ipiv) == 0, "%s: info", what);
  for (int64_t j = 0; j < k; j++) {
    int64_t p = ipiv[j] - 1;
    expect(p >= j && p < m, "%s: pivot %lld of step %lld", what, (long long)p, (long long)j);
    for (int64_t c = 0; c < n && p != j; c++) {
      la_z t = pa[j * n + c];
      pa[j * n + c] = pa[p * n + c];
      pa[p * n + c] = t;
    }
  }
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < k; j++) {
      l[i * k + j] = i == j ? 1 : i > j ? a[i * n + j] : 0;
      /* the pivot is largest in |re| + |im|: |L| <= 1, or sqrt(2) for complex */
      expect(i <= j || cabs(a[i * n + j]) <= (cplx ? sqrt(2.0) : 1) + 1e-15, "%s: |L| bounded", what);
    }
  for (int64_t i = 0; i < k; i++)
    for (int64_t j = 0; j < n; j++) u[i * n + j] = j >= i ? a[i * n + j] : 0;
  matmul(l, false, u, false, lu, m, k, n);
  expect(relerr(lu, pa, m * n) < tol(m + n), "%s: L U = P A (%g)", what, relerr(lu, pa, m * n));
  free(a), free(l), free(u), free(lu), free(pa), free(ipiv);
}

static void test_getrf(void) {
  int64_t shapes[][2] = {{1, 1}, {4, 4}, {5, 3}, {3, 5}, {20, 20}};
  for (int c = 0; c < 2; c++)
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
      la_z *a = random_matrix(shapes[i][0], shapes[i][1], c);
      check_getrf(a, shapes[i][0], shapes[i][1], c, c ? "getrf complex" : "getrf real");
      free(a);
    }
  /* by hand: [[1, 2], [3, 4]] pivots row 2 first: L = [[1, 0], [1/3, 1]],
     U = [[3, 4], [0, 2/3]] */
  la_z a[] = {1, 2, 3, 4};
  int64_t ipiv[2];
  expect(la_getrf(a, 2, 2, ipiv) == 0 && ipiv[0] == 2 && ipiv[1] == 2, "getrf 2x2 pivots");
  expect(a[0] == 3 && a[1] == 4 && fabs(creal(a[2]) - 1.0 / 3) < 1e-16 && fabs(creal(a[3]) - 2.0 / 3) < 1e-15,
         "getrf 2x2 factors");
  /* singular (rank 2): U(2, 2) is 0 */
  la_z s[] = {1, 2, 3, 2, 4, 6, 1, 0, 1};
  int64_t sp[3];
  expect(la_getrf(s, 3, 3, sp) == 3 && sp[0] == 2 && sp[1] == 3 && sp[2] == 3, "getrf singular: info 3");
  la_z z[4] = {0};
  expect(la_getrf(z, 2, 2, ipiv) == 1 && ipiv[0] == 1 && ipiv[1] == 2, "getrf zeros: info 1");
}

/* ---- gesvd ---- */

static void check_svd(const la_z *a0, int64_t m, int64_t n, bool full, const char *what) {
  int64_t k = m < n ? m : n, uc = full ? m : k, vr = full ? n : k;
  la_z *a = zalloc(m * n), *u = zalloc(m * uc), *vt = zalloc(vr * n), *us = zalloc(m * k), *rec = zalloc(m * n);
  double *s = calloc((size_t)(k + 1), sizeof(double));
  memcpy(a, a0, sizeof(la_z) * (size_t)(m * n));
  expect(la_gesvd(a, m, n, s, u, vt, full) == 0, "%s: info", what);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < k; j++) us[i * k + j] = u[i * uc + j] * s[j];
  matmul(us, false, vt, false, rec, m, k, n); /* (the first k rows of vt) */
  expect(relerr(rec, a0, m * n) < tol(m + n), "%s: U S V^H = A (%g)", what, relerr(rec, a0, m * n));
  expect(unitary_err(u, m, uc) < tol(m + n), "%s: U's columns orthonormal", what);
  la_z *v = zalloc(n * vr);
  for (int64_t i = 0; i < vr; i++)
    for (int64_t j = 0; j < n; j++) v[j * vr + i] = conj(vt[i * n + j]);
  expect(unitary_err(v, n, vr) < tol(m + n), "%s: V's columns orthonormal", what);
  for (int64_t j = 0; j + 1 < k; j++) expect(s[j] >= s[j + 1] && s[j + 1] >= 0, "%s: descending", what);
  free(a), free(u), free(vt), free(us), free(rec), free(s), free(v);
}

static void test_svd(void) {
  int64_t shapes[][2] = {{1, 1}, {4, 3}, {3, 5}, {6, 6}, {30, 8}, {8, 30}};
  for (int c = 0; c < 2; c++)
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
      for (int full = 0; full < 2; full++) {
        la_z *a = random_matrix(shapes[i][0], shapes[i][1], c);
        check_svd(a, shapes[i][0], shapes[i][1], full, "svd random");
        free(a);
      }
  /* by hand: diag(3, -4) has singular values 4, 3; a rank-1 outer product
     one nonzero value; zeros; NaN */
  la_z d[] = {3, 0, 0, -4};
  double s[3];
  la_gesvd(d, 2, 2, s, NULL, NULL, false);
  expect(fabs(s[0] - 4) < 1e-15 && fabs(s[1] - 3) < 1e-15, "svd diag: %g %g", s[0], s[1]);
  la_z r1[12];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 3; j++) r1[i * 3 + j] = (i + 1.0) * (j + 1.0);
  la_z r1c[12];
  memcpy(r1c, r1, sizeof r1);
  la_gesvd(r1c, 4, 3, s, NULL, NULL, false);
  expect(fabs(s[0] - sqrt(30.0 * 14.0)) < 1e-12 && s[1] < 1e-12 && s[2] < 1e-12, "svd rank 1: %g %g %g", s[0], s[1],
         s[2]);
  check_svd(r1, 4, 3, true, "svd rank 1");
  la_z zero[6] = {0};
  check_svd(zero, 2, 3, true, "svd zeros");
  check_svd(zero, 3, 2, false, "svd zeros thin");
  la_z nan[4] = {1, NAN, 0, 1};
  expect(la_gesvd(nan, 2, 2, s, NULL, NULL, false) != 0 && isnan(s[0]), "svd NaN: info != 0");
}

int main(void) {
  test_geev();
  test_schur();
  test_gehrd();
  test_geqp3();
  test_hetrd();
  test_gtsv();
  test_svd();
  test_getrf();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
