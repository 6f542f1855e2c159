/*
 * lapack.c - the LAPACK routines behind JAX's CPU lowerings of eig, schur,
 * hessenberg, pivoted QR, tridiagonal, tridiagonal_solve, svd and lu, and
 * their custom calls (see lapack.h).
 *
 * The algorithms are the textbook ones (Golub and Van Loan, "Matrix
 * Computations"): Householder reduction to Hessenberg form; Francis's
 * implicit double-shift QR iteration for real matrices, ending in the
 * standardized real Schur form, and single-shift QR with Wilkinson's shift
 * for complex ones; eigenvectors by back-substitution on the (quasi-)
 * triangular factor; Businger and Golub's column-pivoted Householder QR;
 * Householder tridiagonalization; Gaussian elimination with partial
 * pivoting for tridiagonal systems; and the SVD by Householder QR followed
 * by one-sided Jacobi rotations (Hestenes) on R; LU by Gaussian
 * elimination with partial pivoting.  Everything is computed in
 * double (complex) precision and rounded once when stored, like the rest of
 * the interpreter's linear algebra.  They are written to be clear and
 * dependable rather than fast: O(n^3) without blocking.
 *
 * What JAX's lowerings pass and expect, per routine (batch dimensions
 * lead; the operand_layouts JAX gives describe the storage its LAPACK
 * wrappers want, which the logical values here do not depend on):
 *   geev  (a) -> (wr, wi, vl, vr, info) for s/d, (w, vl, vr, info) for c/z;
 *         compute_left / compute_right 'V' or 'N'
 *   gees  (a) -> (t, vs, wr, wi, sdim, info) / (t, vs, w, sdim, info); mode
 *   gehrd (a) -> (a, taus, info); low = 1, high = n
 *   geqp3 (a, jpvt) -> (a, jpvt, taus)
 *   sytrd / hetrd (a) -> (a, d, e, taus, info); uplo 'L' or 'U'
 *   gtsv  (dl, d, du, b) -> (dl, d, du, b, info)
 *   tridiagonal_solve_perturbed_ffi (dl, d, du, b) -> x
 *   gesdd / gesvd (a) -> (a, s, u, vt, info); mode 'A', 'S' or 'N'
 *   getrf (a) -> (lu, ipiv, info)
 * A nonzero info makes JAX replace the batch member's results by NaNs.
 */
#include "interp/lapack.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#undef I /* complex.h's imaginary unit: I is the interpreter here */
#include "interp/cplx.h"

#define EPS DBL_EPSILON

static double abs2(la_z x) { return creal(x) * creal(x) + cimag(x) * cimag(x); }
static double cabs1(la_z x) { return fabs(creal(x)) + fabs(cimag(x)); }
static int64_t imin(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t imax(int64_t a, int64_t b) { return a > b ? a : b; }

static bool all_finite(const la_z *a, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    if (!isfinite(creal(a[i])) || !isfinite(cimag(a[i]))) return false;
  return true;
}

/* sqrt(sum |x_i|^2) over x[0], x[stride], ..., scaled against overflow. */
static double norm2(const la_z *x, int64_t n, int64_t stride) {
  double scale = 0;
  for (int64_t i = 0; i < n; i++) scale = fmax(scale, cabs1(x[i * stride]));
  if (scale == 0 || !isfinite(scale)) return scale;
  double s = 0;
  for (int64_t i = 0; i < n; i++) s += abs2(x[i * stride] / scale);
  return scale * sqrt(s);
}

/* ---- Householder reflectors ----
 * larfg: for the vector (alpha, x) with x[0], x[stride], ... (n of them),
 * finds H = I - tau v v^H with v = (1, v_1, ...) such that
 * H^H (alpha, x) = (beta, 0), beta real; v's tail replaces x and beta
 * alpha.  tau = 0 (H = I) when x is zero and alpha real. */
static la_z larfg(la_z *alpha, la_z *x, int64_t n, int64_t stride) {
  double xnorm = norm2(x, n, stride);
  if (xnorm == 0 && cimag(*alpha) == 0) return 0;
  double beta = -copysign(hypot(cabs(*alpha), xnorm), creal(*alpha));
  la_z tau = (beta - *alpha) / beta, scale = 1 / (*alpha - beta);
  for (int64_t i = 0; i < n; i++) x[i * stride] *= scale;
  *alpha = beta;
  return tau;
}

/* a (row stride lda) <- (I - tau v v^H) a on rows r0 .. r0+len-1, columns
   c0 .. c1-1. */
static void refl_left(la_z *a, int64_t lda, const la_z *v, int64_t len, int64_t r0, int64_t c0, int64_t c1,
                      la_z tau) {
  if (tau == 0) return;
  for (int64_t c = c0; c < c1; c++) {
    la_z w = 0;
    for (int64_t i = 0; i < len; i++) w += conj(v[i]) * a[(r0 + i) * lda + c];
    w *= tau;
    for (int64_t i = 0; i < len; i++) a[(r0 + i) * lda + c] -= v[i] * w;
  }
}

/* a <- a (I - tau v v^H) on columns c0 .. c0+len-1, rows r0 .. r1-1. */
static void refl_right(la_z *a, int64_t lda, const la_z *v, int64_t len, int64_t c0, int64_t r0, int64_t r1,
                       la_z tau) {
  if (tau == 0) return;
  for (int64_t r = r0; r < r1; r++) {
    la_z w = 0;
    for (int64_t i = 0; i < len; i++) w += a[r * lda + c0 + i] * v[i];
    w *= tau;
    for (int64_t i = 0; i < len; i++) a[r * lda + c0 + i] -= w * conj(v[i]);
  }
}

static void identity(la_z *z, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) z[i * n + j] = i == j;
}

/* ---- Hessenberg reduction ---- */

void la_gehrd(la_z *a, int64_t n, la_z *taus) {
  la_z *v = xmalloc(sizeof(la_z) * (size_t)(n + 1));
  for (int64_t i = 0; i + 1 < n; i++) {
    int64_t len = n - i - 1;
    la_z tau = larfg(&a[(i + 1) * n + i], &a[imin(i + 2, n - 1) * n + i], len - 1, n);
    taus[i] = tau;
    v[0] = 1;
    for (int64_t k = 1; k < len; k++) v[k] = a[(i + 1 + k) * n + i];
    /* a <- H^H a H; column i already holds beta and v */
    refl_right(a, n, v, len, i + 1, 0, n, tau);
    refl_left(a, n, v, len, i + 1, i + 1, n, conj(tau));
  }
  xfree(v);
}

/* Z = H_0 H_1 ... H_{n-2} from gehrd's reflectors in a. */
static void hessenberg_q(const la_z *a, int64_t n, const la_z *taus, la_z *z) {
  identity(z, n);
  la_z *v = xmalloc(sizeof(la_z) * (size_t)(n + 1));
  for (int64_t i = 0; i + 1 < n; i++) {
    int64_t len = n - i - 1;
    v[0] = 1;
    for (int64_t k = 1; k < len; k++) v[k] = a[(i + 1 + k) * n + i];
    refl_right(z, n, v, len, i + 1, 0, n, taus[i]);
  }
  xfree(v);
}

/* ---- the real Schur form: Francis double-shift QR ----
 * On the real upper Hessenberg h (n x n), updating all of h (so that it
 * ends as the Schur form, not just its eigenvalues) and z.  The active
 * window is rows/columns l..hi; a subdiagonal entry negligible against its
 * diagonal neighbours splits it.  A converged 2x2 block is standardized:
 * made upper triangular when its eigenvalues are real, else rotated to
 * equal diagonal entries. */

/* Applies the rotation R = [[c, -s], [s, c]] as h <- R^T h R at rows and
   columns k, k+1 (h is upper quasi-triangular outside the block), z <- z R. */
static void rot_block(double *h, double *z, int64_t n, int64_t k, double c, double s) {
  for (int64_t j = k; j < n; j++) { /* rows: R^T h */
    double x = h[k * n + j], y = h[(k + 1) * n + j];
    h[k * n + j] = c * x + s * y;
    h[(k + 1) * n + j] = -s * x + c * y;
  }
  for (int64_t i = 0; i <= k + 1; i++) { /* columns: h R */
    double x = h[i * n + k], y = h[i * n + k + 1];
    h[i * n + k] = c * x + s * y;
    h[i * n + k + 1] = -s * x + c * y;
  }
  if (z)
    for (int64_t i = 0; i < n; i++) {
      double x = z[i * n + k], y = z[i * n + k + 1];
      z[i * n + k] = c * x + s * y;
      z[i * n + k + 1] = -s * x + c * y;
    }
}

/* Standardizes the 2x2 block at k, k+1; its eigenvalues go to w[k], w[k+1]. */
static void standardize(double *h, double *z, int64_t n, int64_t k, la_z *w) {
  double a = h[k * n + k], b = h[k * n + k + 1], c = h[(k + 1) * n + k], d = h[(k + 1) * n + k + 1];
  double p = 0.5 * (a - d), disc = p * p + b * c;
  if (c == 0) {
    /* already triangular */
  } else if (disc >= 0) {
    /* the first column of R an eigenvector (z, c) of the eigenvalue d + z
       farther from d */
    double zz = p + copysign(sqrt(disc), p);
    double r = hypot(zz, c);
    rot_block(h, z, n, k, zz / r, c / r);
    h[(k + 1) * n + k] = 0;
  } else {
    /* rotate by theta with tan(2 theta) = (d - a) / (b + c), |theta| <=
       pi / 4: equal diagonals */
    double sigma = b + c;
    double theta = 0.5 * atan2(sigma < 0 ? a - d : d - a, fabs(sigma));
    rot_block(h, z, n, k, cos(theta), sin(theta));
    double m = 0.5 * (h[k * n + k] + h[(k + 1) * n + k + 1]);
    h[k * n + k] = h[(k + 1) * n + k + 1] = m;
  }
  double b2 = h[k * n + k + 1], c2 = h[(k + 1) * n + k];
  if (c2 != 0 && b2 * c2 < 0) {
    double bc = fabs(b2) * fabs(c2);
    double im = isfinite(bc) && bc > DBL_MIN ? sqrt(bc) : sqrt(fabs(b2)) * sqrt(fabs(c2));
    w[k] = cplx_make(h[k * n + k], im);
    w[k + 1] = cplx_make(h[k * n + k], -im);
  } else {
    /* (rounding left a block with real eigenvalues: triangularize it) */
    if (c2 != 0) {
      double aa = h[k * n + k], dd = h[(k + 1) * n + k + 1], pp = 0.5 * (aa - dd);
      double zz = pp + copysign(sqrt(fmax(pp * pp + b2 * c2, 0)), pp);
      double r = hypot(zz, c2);
      if (r > 0) rot_block(h, z, n, k, zz / r, c2 / r);
      h[(k + 1) * n + k] = 0;
    }
    w[k] = h[k * n + k];
    w[k + 1] = h[(k + 1) * n + k + 1];
  }
}

/* A reflector (I - tau v v^T, v[0] = 1) for the real (x[0], x[1..len-1]). */
static double house3(const double *x, int len, double *v) {
  double alpha = x[0], xn = 0;
  for (int i = 1; i < len; i++) xn = hypot(xn, x[i]);
  v[0] = 1;
  if (xn == 0) {
    for (int i = 1; i < len; i++) v[i] = 0;
    return 0;
  }
  double beta = -copysign(hypot(alpha, xn), alpha);
  for (int i = 1; i < len; i++) v[i] = x[i] / (alpha - beta);
  return (beta - alpha) / beta;
}

static int64_t hqr_real(double *h, int64_t n, double *z, la_z *w) {
  double anorm = 0;
  for (int64_t i = 0; i < n * n; i++) anorm = fmax(anorm, fabs(h[i]));
  int64_t hi = n - 1, iter = 0, total = 0, itmax = 30 * imax(10, n) * imax(1, n);
  while (hi >= 0) {
    int64_t l = hi;
    for (; l > 0; l--) {
      double sub = fabs(h[l * n + l - 1]);
      double s = fabs(h[(l - 1) * n + l - 1]) + fabs(h[l * n + l]);
      if (s == 0) s = anorm;
      if (sub <= EPS * s || sub < DBL_MIN) {
        h[l * n + l - 1] = 0;
        break;
      }
    }
    if (l == hi) {
      w[hi] = h[hi * n + hi];
      hi--;
      iter = 0;
      continue;
    }
    if (l == hi - 1) {
      standardize(h, z, n, hi - 1, w);
      hi -= 2;
      iter = 0;
      continue;
    }
    if (++total > itmax) return hi + 1;
    iter++;
    double s, t;
    if (iter % 10 == 0) {
      /* an exceptional shift breaks cycles */
      double e = iter % 20 == 0 ? fabs(h[hi * n + hi - 1]) + fabs(h[(hi - 1) * n + hi - 2])
                                : fabs(h[(l + 1) * n + l]) + fabs(h[(l + 2) * n + l + 1]);
      double h11 = 0.75 * e + (iter % 20 == 0 ? h[hi * n + hi] : h[l * n + l]);
      s = 2 * h11;
      t = h11 * h11 + 0.4375 * e * e;
    } else {
      s = h[(hi - 1) * n + hi - 1] + h[hi * n + hi];
      t = h[(hi - 1) * n + hi - 1] * h[hi * n + hi] - h[(hi - 1) * n + hi] * h[hi * n + hi - 1];
      /* real eigenvalues of the trailing 2x2: the one nearer its last
         diagonal entry, twice (as LAPACK's dlahqr shifts) */
      double hm = 0.5 * s, disc = hm * hm - t;
      if (disc > 0) {
        double r1 = hm + sqrt(disc), r2 = hm - sqrt(disc), h22 = h[hi * n + hi];
        double r = fabs(r1 - h22) <= fabs(r2 - h22) ? r1 : r2;
        s = 2 * r;
        t = r * r;
      }
    }
    /* the first column of (H - s1)(H - s2), where s1 + s2 = s, s1 s2 = t */
    double x[3];
    x[0] = h[l * n + l] * h[l * n + l] + h[l * n + l + 1] * h[(l + 1) * n + l] - s * h[l * n + l] + t;
    x[1] = h[(l + 1) * n + l] * (h[l * n + l] + h[(l + 1) * n + l + 1] - s);
    x[2] = h[(l + 1) * n + l] * h[(l + 2) * n + l + 1];
    for (int64_t k = l; k < hi; k++) {
      int len = k + 2 <= hi ? 3 : 2;
      if (k > l) {
        x[0] = h[k * n + k - 1];
        x[1] = h[(k + 1) * n + k - 1];
        x[2] = len == 3 ? h[(k + 2) * n + k - 1] : 0;
      }
      double v[3];
      double tau = house3(x, len, v);
      if (tau != 0) {
        for (int64_t j = imax(l, k - 1); j < n; j++) { /* rows k..k+len-1 */
          double s2 = 0;
          for (int i = 0; i < len; i++) s2 += v[i] * h[(k + i) * n + j];
          s2 *= tau;
          for (int i = 0; i < len; i++) h[(k + i) * n + j] -= v[i] * s2;
        }
        for (int64_t r = 0; r <= imin(k + 3, hi); r++) { /* columns k..k+len-1 */
          double s2 = 0;
          for (int i = 0; i < len; i++) s2 += h[r * n + k + i] * v[i];
          s2 *= tau;
          for (int i = 0; i < len; i++) h[r * n + k + i] -= s2 * v[i];
        }
        if (z)
          for (int64_t r = 0; r < n; r++) {
            double s2 = 0;
            for (int i = 0; i < len; i++) s2 += z[r * n + k + i] * v[i];
            s2 *= tau;
            for (int i = 0; i < len; i++) z[r * n + k + i] -= s2 * v[i];
          }
      }
      if (k > l) /* the bulge moved on: what the reflector zeroed is zero */
        for (int i = 1; i < len; i++) h[(k + i) * n + k - 1] = 0;
    }
  }
  return 0;
}

/* ---- the complex Schur form: single-shift QR ----
 * Rotations G = [[c, s], [-conj(s), c]], c real, with G (x, y) = (r, 0). */

static void givens(la_z x, la_z y, double *c, la_z *s) {
  double ax = cabs(x), ay = cabs(y);
  if (ay == 0) {
    *c = 1;
    *s = 0;
  } else if (ax == 0) {
    *c = 0;
    *s = conj(y) / ay;
  } else {
    double r = hypot(ax, ay);
    *c = ax / r;
    *s = (x / ax) * conj(y) / r;
  }
}

/* rows k, k+1 of columns c0..c1-1 <- G rows; columns k, k+1 of rows
   r0..r1-1 <- columns G^H; z's columns too. */
static void apply_givens(la_z *h, la_z *z, int64_t n, int64_t k, double c, la_z s, int64_t c0, int64_t r1) {
  for (int64_t j = c0; j < n; j++) {
    la_z x = h[k * n + j], y = h[(k + 1) * n + j];
    h[k * n + j] = c * x + s * y;
    h[(k + 1) * n + j] = -conj(s) * x + c * y;
  }
  for (int64_t i = 0; i < r1; i++) {
    la_z x = h[i * n + k], y = h[i * n + k + 1];
    h[i * n + k] = c * x + conj(s) * y;
    h[i * n + k + 1] = -s * x + c * y;
  }
  if (z)
    for (int64_t i = 0; i < n; i++) {
      la_z x = z[i * n + k], y = z[i * n + k + 1];
      z[i * n + k] = c * x + conj(s) * y;
      z[i * n + k + 1] = -s * x + c * y;
    }
}

static int64_t hqr_complex(la_z *h, int64_t n, la_z *z, la_z *w) {
  double anorm = 0;
  for (int64_t i = 0; i < n * n; i++) anorm = fmax(anorm, cabs1(h[i]));
  int64_t hi = n - 1, iter = 0, total = 0, itmax = 30 * imax(10, n) * imax(1, n);
  while (hi >= 0) {
    int64_t l = hi;
    for (; l > 0; l--) {
      double sub = cabs1(h[l * n + l - 1]);
      double s = cabs1(h[(l - 1) * n + l - 1]) + cabs1(h[l * n + l]);
      if (s == 0) s = anorm;
      if (sub <= EPS * s || sub < DBL_MIN) {
        h[l * n + l - 1] = 0;
        break;
      }
    }
    if (l == hi) {
      w[hi] = h[hi * n + hi];
      hi--;
      iter = 0;
      continue;
    }
    if (++total > itmax) return hi + 1;
    iter++;
    la_z mu;
    if (iter % 10 == 0) {
      mu = h[hi * n + hi] + 0.75 * cabs1(h[hi * n + hi - 1]);
    } else {
      /* Wilkinson's shift: the eigenvalue of the trailing 2x2 nearer its
         last diagonal entry */
      la_z a = h[(hi - 1) * n + hi - 1], b = h[(hi - 1) * n + hi], c = h[hi * n + hi - 1], d = h[hi * n + hi];
      la_z p = 0.5 * (a - d), r = csqrt(p * p + b * c);
      la_z m1 = d + p + r, m2 = d + p - r;
      mu = cabs(m1 - d) < cabs(m2 - d) ? m1 : m2;
    }
    double c;
    la_z s;
    givens(h[l * n + l] - mu, h[(l + 1) * n + l], &c, &s);
    apply_givens(h, z, n, l, c, s, l, imin(l + 3, hi + 1));
    for (int64_t k = l + 1; k < hi; k++) {
      givens(h[k * n + k - 1], h[(k + 1) * n + k - 1], &c, &s);
      apply_givens(h, z, n, k, c, s, k - 1, imin(k + 3, hi + 1));
      h[(k + 1) * n + k - 1] = 0;
    }
  }
  return 0;
}

int64_t la_schur(la_z *a, int64_t n, bool real, la_z *z, la_z *w) {
  if (n == 0) return 0;
  if (!all_finite(a, n * n)) {
    for (int64_t i = 0; i < n; i++) w[i] = cplx_make(NAN, real ? 0 : NAN);
    return 1;
  }
  la_z *taus = xmalloc(sizeof(la_z) * (size_t)n);
  la_gehrd(a, n, taus);
  if (z) hessenberg_q(a, n, taus, z);
  xfree(taus);
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j + 1 < i; j++) a[i * n + j] = 0;
  int64_t info;
  if (real) {
    double *h = xmalloc(sizeof(double) * (size_t)(n * n)), *zr = z ? xmalloc(sizeof(double) * (size_t)(n * n)) : NULL;
    for (int64_t i = 0; i < n * n; i++) h[i] = creal(a[i]);
    for (int64_t i = 0; zr && i < n * n; i++) zr[i] = creal(z[i]);
    info = hqr_real(h, n, zr, w);
    for (int64_t i = 0; i < n * n; i++) a[i] = h[i];
    for (int64_t i = 0; zr && i < n * n; i++) z[i] = zr[i];
    xfree(h);
    xfree(zr);
  } else {
    info = hqr_complex(a, n, z, w);
    for (int64_t i = 0; info == 0 && i < n; i++)
      for (int64_t j = 0; j < i; j++) a[i * n + j] = 0;
  }
  return info;
}

/* ---- eigenvectors ----
 * Of the upper (quasi-)triangular t, by substitution: right ones solve
 * (T - w) x = 0 upwards from the eigenvalue's row, left ones r (T - w) = 0
 * downwards; a 2x2 block of a real Schur form is solved as a 2x2 system.
 * A pivot smaller than smin is replaced by smin (the eigenvalue is
 * repeated or nearly so), and the vector is rescaled when it grows. */

static la_z guard(la_z p, double smin) { return cabs(p) < smin ? smin : p; }

/* Solves [[p11, p12], [p21, p22]] (x1, x2) = (b1, b2). */
static void solve2(la_z p11, la_z p12, la_z p21, la_z p22, la_z b1, la_z b2, double smin, la_z *x1, la_z *x2) {
  la_z det = guard(p11 * p22 - p12 * p21, fmax(smin * smin, DBL_MIN));
  *x1 = (p22 * b1 - p12 * b2) / det;
  *x2 = (p11 * b2 - p21 * b1) / det;
}

static void rescale(la_z *x, int64_t n) {
  double m = 0;
  for (int64_t i = 0; i < n; i++) m = fmax(m, cabs1(x[i]));
  if (m > 1e100)
    for (int64_t i = 0; i < n; i++) x[i] /= m;
}

static bool block_below(const la_z *t, int64_t n, int64_t i) { return i + 1 < n && t[(i + 1) * n + i] != 0; }

/* Right eigenvector of t for w[j] into x[n]. */
static void right_vector(const la_z *t, int64_t n, int64_t j, la_z lam, double smin, la_z *x) {
  for (int64_t i = 0; i < n; i++) x[i] = 0;
  int64_t end;
  if (block_below(t, n, j)) { /* (b, lam - a) spans the block's kernel */
    x[j] = t[j * n + j + 1];
    x[j + 1] = lam - t[j * n + j];
    end = j + 1;
  } else {
    x[j] = 1;
    end = j;
  }
  for (int64_t i = j - 1; i >= 0; i--) {
    if (i > 0 && t[i * n + i - 1] != 0) { /* rows i-1, i are a block */
      la_z r1 = 0, r2 = 0;
      for (int64_t q = i + 1; q <= end; q++) {
        r1 += t[(i - 1) * n + q] * x[q];
        r2 += t[i * n + q] * x[q];
      }
      solve2(t[(i - 1) * n + i - 1] - lam, t[(i - 1) * n + i], t[i * n + i - 1], t[i * n + i] - lam, -r1, -r2, smin,
             &x[i - 1], &x[i]);
      i--;
    } else {
      la_z r = 0;
      for (int64_t q = i + 1; q <= end; q++) r += t[i * n + q] * x[q];
      x[i] = -r / guard(t[i * n + i] - lam, smin);
    }
    rescale(x, n);
  }
}

/* Left eigenvector (as the row r with r T = lam r) of t for w[j]. */
static void left_vector(const la_z *t, int64_t n, int64_t j, la_z lam, double smin, la_z *r) {
  for (int64_t i = 0; i < n; i++) r[i] = 0;
  int64_t start;
  if (block_below(t, n, j)) { /* (c, lam - a) spans the block's left kernel */
    r[j] = t[(j + 1) * n + j];
    r[j + 1] = lam - t[j * n + j];
    start = j + 2;
  } else {
    r[j] = 1;
    start = j + 1;
  }
  for (int64_t i = start; i < n; i++) {
    if (block_below(t, n, i)) { /* columns i, i+1 are a block */
      la_z s1 = 0, s2 = 0;
      for (int64_t q = j; q < i; q++) {
        s1 += r[q] * t[q * n + i];
        s2 += r[q] * t[q * n + i + 1];
      }
      /* (r_i, r_i+1) M = -(s1, s2): M^T (r_i, r_i+1) = -(s1, s2) */
      solve2(t[i * n + i] - lam, t[(i + 1) * n + i], t[i * n + i + 1], t[(i + 1) * n + i + 1] - lam, -s1, -s2, smin,
             &r[i], &r[i + 1]);
      i++;
    } else {
      la_z s = 0;
      for (int64_t q = j; q < i; q++) s += r[q] * t[q * n + i];
      r[i] = -s / guard(t[i * n + i] - lam, smin);
    }
    rescale(r, n);
  }
}

/* Unit norm, largest component (the first of the largest) real and
   positive; a real vector of a real matrix keeps its sign. */
static void normalize(la_z *v, int64_t n, int64_t stride, bool keep_sign) {
  double nrm = norm2(v, n, stride);
  if (nrm == 0 || !isfinite(nrm)) return;
  int64_t m = 0;
  double best = -1;
  for (int64_t i = 0; i < n; i++) {
    v[i * stride] /= nrm;
    if (abs2(v[i * stride]) > best) {
      best = abs2(v[i * stride]);
      m = i;
    }
  }
  if (keep_sign) return;
  la_z ph = conj(v[m * stride]) / sqrt(best);
  for (int64_t i = 0; i < n; i++) v[i * stride] *= ph;
  v[m * stride] = creal(v[m * stride]);
}

int64_t la_geev(la_z *a, int64_t n, bool real, la_z *w, la_z *vl, la_z *vr) {
  if (n == 0) return 0;
  bool vectors = vl || vr;
  la_z *z = vectors ? xmalloc(sizeof(la_z) * (size_t)(n * n)) : NULL;
  int64_t info = la_schur(a, n, real, z, w);
  if (info != 0 || !vectors) {
    xfree(z);
    return info;
  }
  double tnorm = 0;
  for (int64_t i = 0; i < n * n; i++) tnorm = fmax(tnorm, cabs1(a[i]));
  la_z *x = xmalloc(sizeof(la_z) * (size_t)n);
  for (int side = 0; side < 2; side++) {
    la_z *v = side ? vr : vl;
    if (!v) continue;
    for (int64_t j = 0; j < n; j++) {
      bool pair = real && block_below(a, n, j);
      double smin = fmax(EPS * fmax(cabs1(w[j]), tnorm), DBL_MIN * (double)n / EPS);
      if (side) right_vector(a, n, j, w[j], smin, x);
      else left_vector(a, n, j, w[j], smin, x);
      /* v_j = Z x (right) or Z conj(r) (left) */
      for (int64_t i = 0; i < n; i++) {
        la_z s = 0;
        for (int64_t q = 0; q < n; q++) s += z[i * n + q] * (side ? x[q] : conj(x[q]));
        v[i * n + j] = s;
      }
      normalize(v + j, n, n, real && !pair);
      if (pair) { /* the conjugate eigenvalue's vector is the conjugate */
        for (int64_t i = 0; i < n; i++) v[i * n + j + 1] = conj(v[i * n + j]);
        j++;
      }
    }
  }
  xfree(x);
  xfree(z);
  return 0;
}

/* ---- pivoted QR ---- */

void la_geqp3(la_z *a, int64_t m, int64_t n, int64_t *jpvt, la_z *taus) {
  int64_t k = imin(m, n);
  int64_t *perm = xmalloc(sizeof(int64_t) * (size_t)(n + 1));
  la_z *v = xmalloc(sizeof(la_z) * (size_t)(m + 1));
  double *cn = xmalloc(sizeof(double) * (size_t)(n + 1));
  for (int64_t j = 0; j < n; j++) perm[j] = j;
  /* the columns marked in jpvt go first, in order */
  int64_t nfixed = 0;
  for (int64_t j = 0; j < n; j++) {
    if (jpvt[j] == 0) continue;
    if (j != nfixed) {
      for (int64_t i = 0; i < m; i++) {
        la_z tmp = a[i * n + j];
        a[i * n + j] = a[i * n + nfixed];
        a[i * n + nfixed] = tmp;
      }
      int64_t tp = perm[j];
      perm[j] = perm[nfixed];
      perm[nfixed] = tp;
    }
    nfixed++;
  }
  for (int64_t j = 0; j < k; j++) {
    if (j >= nfixed) {
      /* the free column with the largest norm below row j (the first of equals) */
      int64_t best = j;
      for (int64_t c = j; c < n; c++) {
        cn[c] = norm2(&a[j * n + c], m - j, n);
        if (cn[c] > cn[best] || (isnan(cn[c]) && !isnan(cn[best]))) best = c;
      }
      if (best != j) {
        for (int64_t i = 0; i < m; i++) {
          la_z tmp = a[i * n + j];
          a[i * n + j] = a[i * n + best];
          a[i * n + best] = tmp;
        }
        int64_t tp = perm[j];
        perm[j] = perm[best];
        perm[best] = tp;
      }
    }
    la_z tau = larfg(&a[j * n + j], &a[imin(j + 1, m - 1) * n + j], m - j - 1, n);
    taus[j] = tau;
    v[0] = 1;
    for (int64_t i = 1; i < m - j; i++) v[i] = a[(j + i) * n + j];
    refl_left(a, n, v, m - j, j, j + 1, n, conj(tau));
  }
  for (int64_t j = 0; j < n; j++) jpvt[j] = perm[j] + 1;
  xfree(perm);
  xfree(v);
  xfree(cn);
}

/* ---- tridiagonalization ---- */

void la_hetrd(la_z *a, int64_t n, bool lower, double *d, double *e, la_z *taus) {
  if (n == 0) return;
  /* the full Hermitian matrix, reduced alongside a's stored triangle */
  la_z *h = xmalloc(sizeof(la_z) * (size_t)(n * n));
  la_z *v = xmalloc(sizeof(la_z) * (size_t)(n + 1));
  for (int64_t i = 0; i < n; i++) {
    h[i * n + i] = creal(a[i * n + i]);
    for (int64_t j = i + 1; j < n; j++) {
      la_z x = lower ? a[j * n + i] : a[i * n + j];
      h[j * n + i] = lower ? x : conj(x);
      h[i * n + j] = lower ? conj(x) : x;
    }
  }
  if (lower) {
    /* H_i annihilates h[i+2..n-1][i]; v = (0..0, 1 at i+1, tail) */
    for (int64_t i = 0; i + 1 < n; i++) {
      int64_t len = n - i - 1;
      la_z alpha = h[(i + 1) * n + i];
      for (int64_t q = 1; q < len; q++) v[q] = h[(i + 1 + q) * n + i];
      la_z tau = larfg(&alpha, v + 1, len - 1, 1);
      v[0] = 1;
      taus[i] = tau;
      e[i] = creal(alpha);
      for (int64_t q = 1; q < len; q++) a[(i + 1 + q) * n + i] = v[q];
      /* h <- H^H h H on the trailing block, column and row i set directly */
      refl_right(h, n, v, len, i + 1, i + 1, n, tau);
      refl_left(h, n, v, len, i + 1, i + 1, n, conj(tau));
      h[(i + 1) * n + i] = alpha;
      h[i * n + i + 1] = conj(alpha);
      for (int64_t q = i + 2; q < n; q++) h[q * n + i] = h[i * n + q] = 0;
    }
    for (int64_t i = 0; i + 1 < n; i++) a[(i + 1) * n + i] = e[i];
  } else {
    /* H_i (i = n-1 .. 1) annihilates h[0..i-2][i]; v = (tail, 1 at i-1, 0..0) */
    for (int64_t i = n - 1; i >= 1; i--) {
      int64_t len = i; /* rows 0..i-1 */
      la_z alpha = h[(i - 1) * n + i];
      for (int64_t q = 0; q < len - 1; q++) v[q] = h[q * n + i];
      la_z tau = larfg(&alpha, v, len - 1, 1);
      v[len - 1] = 1;
      taus[i - 1] = tau;
      e[i - 1] = creal(alpha);
      for (int64_t q = 0; q < len - 1; q++) a[q * n + i] = v[q];
      refl_right(h, n, v, len, 0, 0, i, tau);
      refl_left(h, n, v, len, 0, 0, i, conj(tau));
      h[(i - 1) * n + i] = alpha;
      h[i * n + i - 1] = conj(alpha);
      for (int64_t q = 0; q + 1 < i; q++) h[q * n + i] = h[i * n + q] = 0;
    }
    for (int64_t i = 0; i + 1 < n; i++) a[i * n + i + 1] = e[i];
  }
  for (int64_t i = 0; i < n; i++) a[i * n + i] = d[i] = creal(h[i * n + i]);
  xfree(h);
  xfree(v);
}

/* ---- tridiagonal solves ----
 * Elimination with partial pivoting: at step i the row with the larger
 * entry in column i (row i, or row i+1 swapped up) is the pivot row.  U
 * then has two superdiagonals: u0 (diagonal), u1, u2. */

static void gt_factor_step(la_z *u0, la_z *u1, la_z *u2, la_z *lo, la_z *b, int64_t n, int64_t nrhs, int64_t i) {
  /* rows i and i+1 of the partly reduced system: u0[i] u1[i] u2?; lo[i+1] u0[i+1] u1[i+1] */
  la_z sub = lo[i + 1];
  if (cabs1(u0[i]) >= cabs1(sub)) {
    la_z f = sub == 0 ? 0 : sub / u0[i];
    u0[i + 1] -= f * u1[i];
    for (int64_t r = 0; r < nrhs; r++) b[(i + 1) * nrhs + r] -= f * b[i * nrhs + r];
    if (i + 2 < n) u2[i] = 0;
  } else {
    la_z f = u0[i] / sub;
    la_z d1 = u0[i + 1];
    u0[i] = sub;
    u0[i + 1] = u1[i] - f * d1;
    if (i + 2 < n) {
      u2[i] = u1[i + 1];
      u1[i + 1] = -f * u2[i];
    }
    u1[i] = d1;
    for (int64_t r = 0; r < nrhs; r++) {
      la_z t = b[i * nrhs + r];
      b[i * nrhs + r] = b[(i + 1) * nrhs + r];
      b[(i + 1) * nrhs + r] = t - f * b[(i + 1) * nrhs + r];
    }
  }
}

static void gt_back(const la_z *u0, const la_z *u1, const la_z *u2, la_z *b, int64_t n, int64_t nrhs) {
  for (int64_t r = 0; r < nrhs; r++)
    for (int64_t i = n - 1; i >= 0; i--) {
      la_z s = b[i * nrhs + r];
      if (i + 1 < n) s -= u1[i] * b[(i + 1) * nrhs + r];
      if (i + 2 < n) s -= u2[i] * b[(i + 2) * nrhs + r];
      b[i * nrhs + r] = s / u0[i];
    }
}

int64_t la_gtsv(la_z *dl, la_z *d, la_z *du, la_z *b, int64_t n, int64_t nrhs) {
  if (n == 0) return 0;
  la_z *u2 = xmalloc(sizeof(la_z) * (size_t)(n + 1));
  for (int64_t i = 0; i <= n; i++) u2[i] = 0;
  int64_t info = 0;
  for (int64_t i = 0; i + 1 < n && !info; i++) {
    if (d[i] == 0 && dl[i + 1] == 0) info = i + 1;
    else gt_factor_step(d, du, u2, dl, b, n, nrhs, i);
  }
  if (!info && d[n - 1] == 0) info = n;
  if (!info) gt_back(d, du, u2, b, n, nrhs);
  /* dl holds U's second superdiagonal, as gtsv leaves it */
  for (int64_t i = 0; i + 2 < n; i++) dl[i + 1] = u2[i];
  xfree(u2);
  return info;
}

void la_gtsv_perturbed(const la_z *dl, const la_z *d, const la_z *du, la_z *b, int64_t n, int64_t nrhs,
                       double eps) {
  if (n == 0) return;
  la_z *w = xmalloc(sizeof(la_z) * (size_t)(4 * n + 1));
  la_z *lo = w, *u0 = w + n, *u1 = w + 2 * n, *u2 = w + 3 * n;
  for (int64_t i = 0; i < n; i++) {
    lo[i] = i ? dl[i] : 0;
    u0[i] = d[i];
    u1[i] = i + 1 < n ? du[i] : 0;
    u2[i] = 0;
  }
  /* a zero column needs no elimination; otherwise the multiplier is at
     most 1 in magnitude, so the factorization itself never fails */
  for (int64_t i = 0; i + 1 < n; i++)
    if (u0[i] != 0 || lo[i + 1] != 0) gt_factor_step(u0, u1, u2, lo, b, n, nrhs, i);
  double umax = 0;
  for (int64_t i = 0; i < n; i++) umax = fmax(umax, fmax(cabs(u0[i]), fmax(cabs(u1[i]), cabs(u2[i]))));
  double tiny = eps * umax;
  if (tiny == 0) tiny = eps;
  for (int64_t i = 0; i < n; i++)
    if (cabs(u0[i]) < tiny) u0[i] = creal(u0[i]) < 0 ? -tiny : tiny;
  gt_back(u0, u1, u2, b, n, nrhs);
  xfree(w);
}

/* ---- LU with partial pivoting ---- */

int64_t la_getrf(la_z *a, int64_t m, int64_t n, int64_t *ipiv) {
  int64_t info = 0, k = imin(m, n);
  for (int64_t j = 0; j < k; j++) {
    /* the pivot: the first entry of largest magnitude in column j on or
       below the diagonal (|re| + |im| for complex values, as LAPACK's
       i*amax) */
    int64_t p = j;
    double best = -1;
    for (int64_t i = j; i < m; i++) {
      double v = cabs1(a[i * n + j]);
      if (v > best || isnan(v)) {
        best = v;
        p = i;
        if (isnan(v)) break;
      }
    }
    ipiv[j] = p + 1;
    if (a[p * n + j] == 0) {
      /* a zero column: U(j, j) is 0, the first such j is info; nothing to
         eliminate */
      if (!info) info = j + 1;
      continue;
    }
    if (p != j)
      for (int64_t c = 0; c < n; c++) {
        la_z t = a[j * n + c];
        a[j * n + c] = a[p * n + c];
        a[p * n + c] = t;
      }
    la_z r = 1 / a[j * n + j];
    for (int64_t i = j + 1; i < m; i++) {
      la_z l = a[i * n + j] *= r;
      if (l == 0) continue;
      for (int64_t c = j + 1; c < n; c++) a[i * n + c] -= l * a[j * n + c];
    }
  }
  return info;
}

/* ---- the SVD ----
 * For m >= n: a = Q R (Householder), then one-sided Jacobi on R: rotations
 * of pairs of columns until every pair is orthogonal to working precision,
 * R V = W, whose column norms are the singular values and whose normalized
 * columns are U_R.  U = Q [U_R 0; 0 I], so the full U comes with the rest
 * of Q.  For m < n the same on a^H, with U and V exchanged. */

/* One-sided Jacobi on the n x n r: r <- r V, v (n x n) <- V. */
static void jacobi_svd(la_z *r, int64_t n, la_z *v) {
  identity(v, n);
  for (int sweep = 0; sweep < 80; sweep++) {
    bool rotated = false;
    for (int64_t p = 0; p < n; p++)
      for (int64_t q = p + 1; q < n; q++) {
        double alpha = 0, beta = 0;
        la_z gamma = 0;
        for (int64_t i = 0; i < n; i++) {
          alpha += abs2(r[i * n + p]);
          beta += abs2(r[i * n + q]);
          gamma += conj(r[i * n + p]) * r[i * n + q];
        }
        double g = cabs(gamma);
        if (g == 0 || g <= EPS * sqrt(alpha) * sqrt(beta)) continue;
        rotated = true;
        la_z e = gamma / g; /* columns p, e^(-i phi) q have a real product */
        double zeta = (beta - alpha) / (2 * g);
        double t = (zeta >= 0 ? 1.0 : -1.0) / (fabs(zeta) + sqrt(1 + zeta * zeta));
        double c = 1 / sqrt(1 + t * t), s = c * t;
        la_z ce = conj(e);
        for (int64_t i = 0; i < n; i++) {
          la_z x = r[i * n + p], y = r[i * n + q];
          r[i * n + p] = c * x - s * ce * y;
          r[i * n + q] = s * x + c * ce * y;
          x = v[i * n + p], y = v[i * n + q];
          v[i * n + p] = c * x - s * ce * y;
          v[i * n + q] = s * x + c * ce * y;
        }
      }
    if (!rotated) break;
  }
}

/* Makes the columns of the n x n u whose flag is false orthonormal to the
   others and each other, from the unit vectors (Gram-Schmidt, twice). */
static void complete_basis(la_z *u, int64_t n, bool *have) {
  int64_t e = 0;
  for (int64_t j = 0; j < n; j++) {
    if (have[j]) continue;
    for (; e < n; e++) {
      la_z *col = xmalloc(sizeof(la_z) * (size_t)n);
      for (int64_t i = 0; i < n; i++) col[i] = i == e;
      for (int pass = 0; pass < 2; pass++)
        for (int64_t c = 0; c < n; c++) {
          if (!have[c]) continue;
          la_z dot = 0;
          for (int64_t i = 0; i < n; i++) dot += conj(u[i * n + c]) * col[i];
          for (int64_t i = 0; i < n; i++) col[i] -= dot * u[i * n + c];
        }
      double nr = norm2(col, n, 1);
      bool ok = nr > 0.5;
      if (ok) {
        for (int64_t i = 0; i < n; i++) u[i * n + j] = col[i] / nr;
        have[j] = true;
      }
      xfree(col);
      if (ok) {
        e++;
        break;
      }
    }
  }
}

int64_t la_gesvd(la_z *a, int64_t m, int64_t n, double *s, la_z *u, la_z *vt, bool full) {
  int64_t k = imin(m, n);
  if (k == 0) return 0;
  if (!all_finite(a, m * n)) {
    for (int64_t i = 0; i < k; i++) s[i] = NAN;
    return -4;
  }
  bool tr = m < n;
  int64_t mm = tr ? n : m, nn = tr ? m : n; /* the tall matrix b = a or a^H: mm x nn */
  la_z *b = xmalloc(sizeof(la_z) * (size_t)(mm * nn));
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      if (tr) b[j * nn + i] = conj(a[i * n + j]);
      else b[i * nn + j] = a[i * n + j];
    }
  la_z *taus = xmalloc(sizeof(la_z) * (size_t)nn);
  la_z *r = xmalloc(sizeof(la_z) * (size_t)(nn * nn));
  la_z *v = xmalloc(sizeof(la_z) * (size_t)(nn * nn));
  la_z *ur = xmalloc(sizeof(la_z) * (size_t)(nn * nn));
  la_z *hv = xmalloc(sizeof(la_z) * (size_t)(mm + 1));
  double *sv = xmalloc(sizeof(double) * (size_t)nn);
  int64_t *order = xmalloc(sizeof(int64_t) * (size_t)nn);
  bool *have = xmalloc(sizeof(bool) * (size_t)nn);
  /* b = Q R */
  for (int64_t j = 0; j < nn; j++) {
    taus[j] = larfg(&b[j * nn + j], &b[imin(j + 1, mm - 1) * nn + j], mm - j - 1, nn);
    hv[0] = 1;
    for (int64_t i = 1; i < mm - j; i++) hv[i] = b[(j + i) * nn + j];
    refl_left(b, nn, hv, mm - j, j, j + 1, nn, conj(taus[j]));
  }
  for (int64_t i = 0; i < nn; i++)
    for (int64_t j = 0; j < nn; j++) r[i * nn + j] = j >= i ? b[i * nn + j] : 0;
  jacobi_svd(r, nn, v);
  for (int64_t j = 0; j < nn; j++) {
    sv[j] = norm2(&r[j], nn, nn);
    order[j] = j;
  }
  for (int64_t i = 1; i < nn; i++) /* descending, stable */
    for (int64_t j = i; j > 0 && sv[order[j]] > sv[order[j - 1]]; j--) {
      int64_t t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  for (int64_t j = 0; j < k; j++) s[j] = sv[order[j]];
  if (u && vt) {
    /* U_R: the normalized columns, completed where a singular value is 0 */
    double smax = sv[order[0]];
    for (int64_t j = 0; j < nn; j++) {
      double sj = sv[order[j]];
      have[j] = sj > 0 && sj > smax * EPS * 1e-3;
      for (int64_t i = 0; i < nn; i++) ur[i * nn + j] = have[j] ? r[i * nn + order[j]] / sj : 0;
    }
    complete_basis(ur, nn, have);
    /* the first lcols columns of Q from the reflectors (all mm of them
       only for the full U: a thin SVD of a tall matrix stays small) */
    int64_t lcols = full ? mm : nn;
    la_z *q = xmalloc(sizeof(la_z) * (size_t)(mm * lcols));
    for (int64_t i = 0; i < mm; i++)
      for (int64_t j = 0; j < lcols; j++) q[i * lcols + j] = i == j;
    for (int64_t j = nn - 1; j >= 0; j--) {
      hv[0] = 1;
      for (int64_t i = 1; i < mm - j; i++) hv[i] = b[(j + i) * nn + j];
      refl_left(q, lcols, hv, mm - j, j, j, lcols, taus[j]);
    }
    /* left vectors L = Q [U_R 0; 0 I] (the first nn columns the thin
       ones); right vectors V's columns in the sorted order */
    la_z *left = xmalloc(sizeof(la_z) * (size_t)(mm * lcols));
    for (int64_t i = 0; i < mm; i++)
      for (int64_t j = 0; j < lcols; j++) {
        la_z acc = 0;
        if (j < nn)
          for (int64_t c = 0; c < nn; c++) acc += q[i * lcols + c] * ur[c * nn + j];
        else
          acc = q[i * lcols + j];
        left[i * lcols + j] = acc;
      }
    xfree(q);
    if (!tr) {
      /* u = L (m x lcols); vt = V^H rows in order (n x n: nn = n = k) */
      memcpy(u, left, sizeof(la_z) * (size_t)(mm * lcols));
      for (int64_t i = 0; i < nn; i++)
        for (int64_t j = 0; j < nn; j++) vt[i * nn + j] = conj(v[j * nn + order[i]]);
    } else {
      /* a = b^H = V S L^H: u = V (m x m), vt = L^H (lcols x n) */
      for (int64_t i = 0; i < nn; i++)
        for (int64_t j = 0; j < nn; j++) u[i * nn + j] = v[i * nn + order[j]];
      for (int64_t i = 0; i < lcols; i++)
        for (int64_t j = 0; j < mm; j++) vt[i * mm + j] = conj(left[j * lcols + i]);
    }
    xfree(left);
  }
  xfree(b);
  xfree(taus);
  xfree(r);
  xfree(v);
  xfree(ur);
  xfree(hv);
  xfree(sv);
  xfree(order);
  xfree(have);
  return 0;
}

/* ---- the custom calls ---- */

typedef enum Routine {
  R_GEEV, R_GEES, R_GEHRD, R_GEQP3, R_SYTRD, R_HETRD, R_GTSV, R_GTSV_PERTURBED, R_GESDD, R_GESVD, R_GETRF
} Routine;

static const char *const routine_names[] = {"geev",  "gees", "gehrd", "geqp3", "sytrd", "hetrd",
                                            "gtsv",  NULL,   "gesdd", "gesvd", "getrf"};

/* The routine a target names and the element type its letter stands for
   (ET_INVALID for the perturbed solve, which takes any). */
static bool parse_target(const char *t, Routine *r, ElemType *et) {
  if (strcmp(t, "tridiagonal_solve_perturbed_ffi") == 0) {
    *r = R_GTSV_PERTURBED;
    *et = ET_INVALID;
    return true;
  }
  if (strncmp(t, "lapack_", 7) != 0) return false;
  switch (t[7]) {
  case 's': *et = ET_F32; break;
  case 'd': *et = ET_F64; break;
  case 'c': *et = ET_C64; break;
  case 'z': *et = ET_C128; break;
  default: return false;
  }
  bool cplx = t[7] == 'c' || t[7] == 'z';
  for (int i = 0; i < (int)ARRAY_LEN(routine_names); i++) {
    const char *name = routine_names[i];
    if (!name) continue;
    size_t k = strlen(name);
    if (strncmp(t + 8, name, k) != 0 || strcmp(t + 8 + k, "_ffi") != 0) continue;
    if ((i == R_SYTRD && cplx) || (i == R_HETRD && !cplx)) return false;
    *r = (Routine)i;
    return true;
  }
  return false;
}

bool lapack_is_target(const char *target) {
  Routine r;
  ElemType et;
  return target && parse_target(target, &r, &et);
}

/* An integer from the attributes JAX passes its FFI handlers (the
   `mhlo.backend_config` dictionary, or a dictionary backend_config). */
static int64_t cfg_int(const Op *op, const char *key, int64_t def) {
  const char *names[] = {"mhlo.backend_config", "backend_config"};
  for (int i = 0; i < 2; i++) {
    Attr *d = op_attr(op, names[i]);
    if (!d || d->kind != ATTR_DICT) continue;
    Attr *v = attr_dict_get(d, key);
    if (v && v->kind == ATTR_INT) return v->i;
    if (v && v->kind == ATTR_BOOL) return v->b;
  }
  return def;
}

/* Whether t is a tensor of et whose dims are batch's first nb, then the
   ntail given (a negative one matches any size). */
static bool shaped(const Type *t, ElemType et, const Type *batch, int nb, int ntail, ...) {
  if (!t || t->kind != TY_TENSOR || t->quant || t->elem != et || t->rank != nb + ntail) return false;
  for (int i = 0; i < nb; i++)
    if (t->dims[i] != batch->dims[i]) return false;
  va_list ap;
  va_start(ap, ntail);
  bool ok = true;
  for (int i = 0; i < ntail; i++) {
    int64_t want = va_arg(ap, int64_t);
    if (want >= 0 && t->dims[nb + i] != want) ok = false;
  }
  va_end(ap);
  return ok;
}

static const Type *res_type(const Op *op, int i) { return i < op->nres ? op->res[i].type : NULL; }

char *lapack_problem(const Op *op, const char *target) {
  Routine r;
  ElemType et;
  if (!parse_target(target, &r, &et)) return xasprintf("custom_call @%s: not a LAPACK routine xlac implements", target);
  const Type *a = op->nopnds >= 1 ? op->opnds[0]->type : NULL;
  if (r == R_GTSV_PERTURBED && a && a->kind == TY_TENSOR &&
      (et_class(a->elem) == EC_FLOAT || et_class(a->elem) == EC_COMPLEX) && !a->quant)
    et = a->elem;
  bool ok = a && a->kind == TY_TENSOR && !a->quant && a->elem == et && et != ET_INVALID;
  bool cplx = ok && et_class(et) == EC_COMPLEX;
  ElemType rt = ok && cplx ? et_real_part(et) : et, ct = ET_INVALID;
  if (ok && !cplx) ct = et == ET_F32 ? ET_C64 : ET_C128;
  const char *what = "";
  switch (r) {
  case R_GEEV:
  case R_GEES:
  case R_GEHRD:
  case R_SYTRD:
  case R_HETRD: {
    ok = ok && a->rank >= 2 && a->dims[a->rank - 1] == a->dims[a->rank - 2] && op->nopnds == 1;
    int nb = ok ? a->rank - 2 : 0;
    int64_t n = ok ? a->dims[a->rank - 1] : 0;
    if (r == R_GEEV) {
      what = "a square matrix (or a batch) and gives eigenvalues (wr, wi for real types), left and right "
             "eigenvectors (complex) and info";
      int k = 0;
      ok = ok && op->nres == (cplx ? 4 : 5) && shaped(res_type(op, k++), et, a, nb, 1, n);
      if (ok && !cplx) ok = shaped(res_type(op, k++), et, a, nb, 1, n);
      ok = ok && shaped(res_type(op, k), cplx ? et : ct, a, nb, 2, n, n) &&
           shaped(res_type(op, k + 1), cplx ? et : ct, a, nb, 2, n, n) && shaped(res_type(op, k + 2), ET_S32, a, nb, 0);
    } else if (r == R_GEES) {
      what = "a square matrix (or a batch) and gives its Schur form, Schur vectors, eigenvalues (wr, wi for "
             "real types), sdim and info";
      ok = ok && op->nres == (cplx ? 5 : 6) && shaped(res_type(op, 0), et, a, nb, 2, n, n) &&
           shaped(res_type(op, 1), et, a, nb, 2, n, n) && shaped(res_type(op, 2), et, a, nb, 1, n);
      int k = 3;
      if (ok && !cplx) ok = shaped(res_type(op, k++), et, a, nb, 1, n);
      ok = ok && shaped(res_type(op, k), ET_S32, a, nb, 0) && shaped(res_type(op, k + 1), ET_S32, a, nb, 0);
      if (ok && cfg_int(op, "sort", 'N') != 'N')
        return xasprintf("custom_call @%s: sorting the eigenvalues of the Schur form is not supported", target);
    } else if (r == R_GEHRD) {
      what = "a square matrix (or a batch) and gives its Hessenberg reduction, the taus and info";
      ok = ok && op->nres == 3 && shaped(res_type(op, 0), et, a, nb, 2, n, n) &&
           shaped(res_type(op, 1), et, a, nb, 1, n > 0 ? n - 1 : 0) && shaped(res_type(op, 2), ET_S32, a, nb, 0);
      if (ok && (cfg_int(op, "low", 1) != 1 || cfg_int(op, "high", n) != n))
        return xasprintf("custom_call @%s: only the whole matrix is reduced (low = 1, high = n)", target);
    } else {
      what = "a square matrix (or a batch) and gives its tridiagonal reduction, the diagonal and "
             "off-diagonal (real), the taus and info";
      int64_t e = n > 0 ? n - 1 : 0;
      ok = ok && op->nres == 5 && shaped(res_type(op, 0), et, a, nb, 2, n, n) &&
           shaped(res_type(op, 1), rt, a, nb, 1, n) && shaped(res_type(op, 2), rt, a, nb, 1, e) &&
           shaped(res_type(op, 3), et, a, nb, 1, e) && shaped(res_type(op, 4), ET_S32, a, nb, 0);
    }
    break;
  }
  case R_GEQP3: {
    what = "a matrix (or a batch) and its int32 column pivots, and gives the factored matrix, the pivots and "
           "the taus";
    ok = ok && a->rank >= 2 && op->nopnds == 2 && op->nres == 3;
    int nb = ok ? a->rank - 2 : 0;
    int64_t m = ok ? a->dims[nb] : 0, n = ok ? a->dims[nb + 1] : 0;
    ok = ok && shaped(op->opnds[1]->type, ET_S32, a, nb, 1, n) && shaped(res_type(op, 0), et, a, nb, 2, m, n) &&
         shaped(res_type(op, 1), ET_S32, a, nb, 1, n) && shaped(res_type(op, 2), et, a, nb, 1, m < n ? m : n);
    break;
  }
  case R_GETRF: {
    what = "a matrix (or a batch) and gives its LU factors (L's unit diagonal implicit), the 1-based int32 "
           "row pivots and info";
    ok = ok && a->rank >= 2 && op->nopnds == 1 && op->nres == 3;
    int nb = ok ? a->rank - 2 : 0;
    int64_t m = ok ? a->dims[nb] : 0, n = ok ? a->dims[nb + 1] : 0;
    ok = ok && shaped(res_type(op, 0), et, a, nb, 2, m, n) && shaped(res_type(op, 1), ET_S32, a, nb, 1, m < n ? m : n) &&
         shaped(res_type(op, 2), ET_S32, a, nb, 0);
    break;
  }
  case R_GTSV:
  case R_GTSV_PERTURBED: {
    what = r == R_GTSV ? "the three diagonals (n each) and a right-hand side n x k (or batches), and gives them "
                         "back (b solved) with info"
                       : "the three diagonals (n each) and a right-hand side n x k (or batches), and gives the "
                         "solution";
    const Type *b = op->nopnds == 4 ? op->opnds[3]->type : NULL;
    ok = ok && b && b->kind == TY_TENSOR && b->rank >= 2 && a->rank == b->rank - 1;
    int nb = ok ? b->rank - 2 : 0;
    int64_t n = ok ? b->dims[nb] : 0, k = ok ? b->dims[nb + 1] : 0;
    for (int i = 0; ok && i < 3; i++) ok = shaped(op->opnds[i]->type, et, b, nb, 1, n);
    ok = ok && shaped(b, et, b, nb, 2, n, k);
    if (r == R_GTSV) {
      ok = ok && op->nres == 5 && shaped(res_type(op, 4), ET_S32, b, nb, 0);
      for (int i = 0; ok && i < 4; i++) ok = type_equal(res_type(op, i), op->opnds[i]->type);
    } else {
      ok = ok && op->nres == 1 && type_equal(res_type(op, 0), b);
    }
    break;
  }
  case R_GESDD:
  case R_GESVD: {
    what = "a matrix (or a batch) and gives it back with the singular values (real), U, V^H and info "
           "(mode 'A': U m x m and V^H n x n; 'S': m x k and k x n; 'N': not computed)";
    ok = ok && a->rank >= 2 && op->nopnds == 1 && op->nres == 5;
    int nb = ok ? a->rank - 2 : 0;
    int64_t m = ok ? a->dims[nb] : 0, n = ok ? a->dims[nb + 1] : 0, k = m < n ? m : n;
    int64_t mode = cfg_int(op, "mode", 'A');
    if (mode != 'A' && mode != 'S' && mode != 'N')
      return xasprintf("custom_call @%s: unknown mode %lld (expected 'A', 'S' or 'N')", target, (long long)mode);
    int64_t uc = mode == 'A' ? m : mode == 'S' ? k : -1, vr = mode == 'A' ? n : mode == 'S' ? k : -1;
    ok = ok && shaped(res_type(op, 0), et, a, nb, 2, m, n) && shaped(res_type(op, 1), rt, a, nb, 1, k) &&
         shaped(res_type(op, 2), et, a, nb, 2, m, uc) && shaped(res_type(op, 3), et, a, nb, 2, vr, n) &&
         shaped(res_type(op, 4), ET_S32, a, nb, 0);
    break;
  }
  }
  if (!ok) return xasprintf("custom_call @%s takes %s", target, what);
  return NULL;
}

/* ---- running them ---- */

static void get_mat(const Literal *l, int64_t off, int64_t n, la_z *out) {
  for (int64_t i = 0; i < n; i++) {
    double re, im;
    lit_get_c(l, off + i, &re, &im);
    out[i] = cplx_make(re, im);
  }
}

static void put_mat(Literal *l, int64_t off, int64_t n, const la_z *v) {
  for (int64_t i = 0; i < n; i++) lit_set_c(l, off + i, creal(v[i]), cimag(v[i]));
}

static void put_nan(Literal *l, int64_t off, int64_t n) {
  bool c = et_class(lit_elem(l)) == EC_COMPLEX;
  for (int64_t i = 0; i < n; i++) lit_set_c(l, off + i, NAN, c ? NAN : 0);
}

static int64_t batch_of(const Type *t, int nb) {
  int64_t b = 1;
  for (int i = 0; i < nb; i++) b *= t->dims[i];
  return b;
}

bool lapack_call(Interp *interp, Op *op, const char *target, IVal **args, IVal **res) {
  (void)interp;
  Routine r;
  ElemType et;
  parse_target(target, &r, &et);
  const Literal *a = args[0]->lit;
  const Type *at = a->type;
  bool real = et_class(at->elem) != EC_COMPLEX;
  Literal *out[6] = {0};
  for (int i = 0; i < op->nres; i++) out[i] = lit_new(op->res[i].type);
  switch (r) {
  case R_GEEV:
  case R_GEES:
  case R_GEHRD:
  case R_SYTRD:
  case R_HETRD: {
    int nb = at->rank - 2;
    int64_t n = at->dims[nb], nn = n * n, batch = batch_of(at, nb);
    la_z *m = xmalloc(sizeof(la_z) * (size_t)(3 * nn + 2 * n + 2));
    la_z *z = m + nn, *z2 = z + nn, *w = z2 + nn, *taus = w + n + 1;
    double *d = xmalloc(sizeof(double) * (size_t)(2 * n + 2)), *e = d + n + 1;
    for (int64_t b = 0; b < batch; b++) {
      get_mat(a, b * nn, nn, m);
      if (r == R_GEEV) {
        bool left = cfg_int(op, "compute_left", 'N') == 'V', right = cfg_int(op, "compute_right", 'N') == 'V';
        int64_t info = la_geev(m, n, real, w, left ? z : NULL, right ? z2 : NULL);
        int k = 0;
        if (real) {
          for (int64_t i = 0; i < n; i++) {
            lit_set_f(out[0], b * n + i, creal(w[i]));
            lit_set_f(out[1], b * n + i, cimag(w[i]));
          }
          k = 2;
        } else {
          put_mat(out[0], b * n, n, w);
          k = 1;
        }
        if (left) put_mat(out[k], b * nn, nn, z);
        if (right) put_mat(out[k + 1], b * nn, nn, z2);
        lit_set_i(out[k + 2], b, info);
      } else if (r == R_GEES) {
        bool vectors = cfg_int(op, "mode", 'V') == 'V';
        int64_t info = la_schur(m, n, real, vectors ? z : NULL, w);
        put_mat(out[0], b * nn, nn, m);
        if (vectors) put_mat(out[1], b * nn, nn, z);
        if (real) {
          for (int64_t i = 0; i < n; i++) {
            lit_set_f(out[2], b * n + i, creal(w[i]));
            lit_set_f(out[3], b * n + i, cimag(w[i]));
          }
        } else {
          put_mat(out[2], b * n, n, w);
        }
        lit_set_i(out[real ? 5 : 4], b, info);
      } else if (r == R_GEHRD) {
        la_gehrd(m, n, taus);
        put_mat(out[0], b * nn, nn, m);
        if (n > 1) put_mat(out[1], b * (n - 1), n - 1, taus);
      } else {
        la_hetrd(m, n, cfg_int(op, "uplo", 'L') != 'U', d, e, taus);
        put_mat(out[0], b * nn, nn, m);
        for (int64_t i = 0; i < n; i++) lit_set_f(out[1], b * n + i, d[i]);
        for (int64_t i = 0; i + 1 < n; i++) lit_set_f(out[2], b * (n - 1) + i, e[i]);
        if (n > 1) put_mat(out[3], b * (n - 1), n - 1, taus);
      }
    }
    xfree(m);
    xfree(d);
    break;
  }
  case R_GEQP3: {
    int nb = at->rank - 2;
    int64_t m = at->dims[nb], n = at->dims[nb + 1], k = m < n ? m : n, batch = batch_of(at, nb);
    la_z *buf = xmalloc(sizeof(la_z) * (size_t)(m * n + k + 1));
    int64_t *jpvt = xmalloc(sizeof(int64_t) * (size_t)(n + 1));
    for (int64_t b = 0; b < batch; b++) {
      get_mat(a, b * m * n, m * n, buf);
      for (int64_t j = 0; j < n; j++) jpvt[j] = lit_get_i(args[1]->lit, b * n + j);
      la_geqp3(buf, m, n, jpvt, buf + m * n);
      put_mat(out[0], b * m * n, m * n, buf);
      for (int64_t j = 0; j < n; j++) lit_set_i(out[1], b * n + j, jpvt[j]);
      put_mat(out[2], b * k, k, buf + m * n);
    }
    xfree(buf);
    xfree(jpvt);
    break;
  }
  case R_GETRF: {
    int nb = at->rank - 2;
    int64_t m = at->dims[nb], n = at->dims[nb + 1], k = m < n ? m : n, batch = batch_of(at, nb);
    la_z *buf = xmalloc(sizeof(la_z) * (size_t)(m * n + 1));
    int64_t *ipiv = xmalloc(sizeof(int64_t) * (size_t)(k + 1));
    for (int64_t b = 0; b < batch; b++) {
      get_mat(a, b * m * n, m * n, buf);
      int64_t info = la_getrf(buf, m, n, ipiv);
      put_mat(out[0], b * m * n, m * n, buf);
      for (int64_t j = 0; j < k; j++) lit_set_i(out[1], b * k + j, ipiv[j]);
      lit_set_i(out[2], b, info);
    }
    xfree(buf);
    xfree(ipiv);
    break;
  }
  case R_GTSV:
  case R_GTSV_PERTURBED: {
    const Type *bt = args[3]->lit->type;
    int nb = bt->rank - 2;
    int64_t n = bt->dims[nb], k = bt->dims[nb + 1], batch = batch_of(bt, nb);
    la_z *buf = xmalloc(sizeof(la_z) * (size_t)(3 * n + n * k + 1));
    la_z *dl = buf, *d = dl + n, *du = d + n, *x = du + n;
    ElemType real_et = real ? at->elem : et_real_part(at->elem);
    double eps = real_et == ET_F32 ? FLT_EPSILON : real_et == ET_F64 ? DBL_EPSILON : 0x1p-7;
    for (int64_t b = 0; b < batch; b++) {
      get_mat(args[0]->lit, b * n, n, dl);
      get_mat(args[1]->lit, b * n, n, d);
      get_mat(args[2]->lit, b * n, n, du);
      get_mat(args[3]->lit, b * n * k, n * k, x);
      if (r == R_GTSV_PERTURBED) {
        la_gtsv_perturbed(dl, d, du, x, n, k, eps);
        put_mat(out[0], b * n * k, n * k, x);
        continue;
      }
      int64_t info = la_gtsv(dl, d, du, x, n, k);
      put_mat(out[0], b * n, n, dl);
      put_mat(out[1], b * n, n, d);
      put_mat(out[2], b * n, n, du);
      if (info) put_nan(out[3], b * n * k, n * k);
      else put_mat(out[3], b * n * k, n * k, x);
      lit_set_i(out[4], b, info);
    }
    xfree(buf);
    break;
  }
  case R_GESDD:
  case R_GESVD: {
    int nb = at->rank - 2;
    int64_t m = at->dims[nb], n = at->dims[nb + 1], k = m < n ? m : n, batch = batch_of(at, nb);
    int64_t mode = cfg_int(op, "mode", 'A');
    const Type *ut = op->res[2].type, *vt = op->res[3].type;
    int64_t usz = ut->dims[nb] * ut->dims[nb + 1], vsz = vt->dims[nb] * vt->dims[nb + 1];
    la_z *buf = xmalloc(sizeof(la_z) * (size_t)(m * n + usz + vsz + 1));
    double *s = xmalloc(sizeof(double) * (size_t)(k + 1));
    for (int64_t b = 0; b < batch; b++) {
      get_mat(a, b * m * n, m * n, buf);
      la_z *u = buf + m * n, *v = u + usz;
      int64_t info = la_gesvd(buf, m, n, s, mode == 'N' ? NULL : u, mode == 'N' ? NULL : v, mode == 'A');
      for (int64_t i = 0; i < k; i++) lit_set_f(out[1], b * k + i, s[i]);
      if (mode != 'N' && info == 0) {
        put_mat(out[2], b * usz, usz, u);
        put_mat(out[3], b * vsz, vsz, v);
      }
      lit_set_i(out[4], b, info);
    }
    xfree(buf);
    xfree(s);
    break;
  }
  }
  for (int i = 0; i < op->nres; i++) res[i] = ival_tensor(out[i]);
  return true;
}
