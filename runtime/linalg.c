/*
 * linalg.c - the runtime's Cholesky factorization and triangular solve for
 * batches of square matrices (stablehlo.cholesky, stablehlo.triangular_solve).
 *
 * Both work on a double (or double complex) copy of each matrix and round
 * once when the result is stored, like the reference interpreter, so f32
 * results agree with it to the last bit or so and f64 results differ only
 * by the reassociation of the blocked updates.  Small real matrices and all
 * complex ones use the interpreter's own order of operations (row by row,
 * sums in increasing index order); real matrices of BLOCK_MIN rows or more
 * are blocked, with the trailing updates done by xlacrt_dgemm.
 *
 * Semantics follow the interpreter: Cholesky reads only the chosen
 * triangle, zeroes the other, and yields NaN from the first pivot that is
 * negative (and everything computed from it); the triangular solve reads
 * only a's chosen triangle, unit_diagonal takes its diagonal as 1.
 * Batches are split into chunks fixed by the shape and run on the pool, so
 * results never depend on the thread count.
 */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rt_util.h"
#include "xlacrt.h"

typedef double complex zdouble;

enum { BLOCK = 64, BLOCK_MIN = 128, ROW_CHUNK = 32 };


static int is_complex(int type) { return type == XLACRT_LA_C64 || type == XLACRT_LA_C128; }
static int is_single(int type) { return type == XLACRT_LA_F32 || type == XLACRT_LA_C64; }

/* Element i of a buffer of `type`, widened. */
static double load_real(int type, const void *p, int64_t i) {
  return is_single(type) ? (double)((const float *)p)[i] : ((const double *)p)[i];
}
static zdouble load_cplx(int type, const void *p, int64_t i) {
  if (is_single(type)) return rt_zmake(((const float *)p)[2 * i], ((const float *)p)[2 * i + 1]);
  return rt_zmake(((const double *)p)[2 * i], ((const double *)p)[2 * i + 1]);
}
static void store_real(int type, void *p, int64_t i, double v) {
  if (is_single(type))
    ((float *)p)[i] = (float)v;
  else
    ((double *)p)[i] = v;
}
static void store_cplx(int type, void *p, int64_t i, zdouble v) {
  if (is_single(type)) {
    ((float *)p)[2 * i] = (float)creal(v);
    ((float *)p)[2 * i + 1] = (float)cimag(v);
  } else {
    ((double *)p)[2 * i] = creal(v);
    ((double *)p)[2 * i + 1] = cimag(v);
  }
}

/* Matrices per chunk: enough that a chunk holds about 64K elements. */
static int64_t mats_per_chunk(int64_t elems_per_mat) {
  int64_t g = ((int64_t)1 << 16) / (elems_per_mat > 0 ? elems_per_mat : 1);
  return g > 0 ? g : 1;
}

/* ================= Cholesky ================= */

/* A pivot from the reduced diagonal entry s: sqrt, NaN when negative, and
   +0 for -0 (the interpreter's csqrt gives +0 there). */
static double pivot(double s) { return s < 0 ? NAN : s == 0 ? 0.0 : sqrt(s); }

/* Factors columns [k0, k1) of the lower triangle of w (n x n, row stride n)
   whose earlier columns have been applied to them: rows [k0, k1) first (the
   diagonal block), then rows [k1, n), which are independent of each other
   and are split over the pool in fixed chunks. */
typedef struct CholPanel {
  double *w;
  int64_t n, k0, k1;
} CholPanel;

static void chol_row(const CholPanel *c, int64_t i) {
  double *w = c->w;
  int64_t n = c->n, jend = i < c->k1 ? i + 1 : c->k1;
  for (int64_t j = c->k0; j < jend; j++) {
    double s = w[i * n + j];
    for (int64_t k = c->k0; k < j; k++) s -= w[i * n + k] * w[j * n + k];
    w[i * n + j] = i == j ? pivot(s) : s / w[j * n + j];
  }
}

static void chol_rows_task(int64_t chunk, void *ctx) {
  const CholPanel *c = ctx;
  int64_t r0 = c->k1 + chunk * ROW_CHUNK, r1 = r0 + ROW_CHUNK < c->n ? r0 + ROW_CHUNK : c->n;
  for (int64_t i = r0; i < r1; i++) chol_row(c, i);
}

static void chol_real(xlacrt_pool *p, double *w, int64_t n) {
  if (n < BLOCK_MIN) {
    CholPanel c = {w, n, 0, n};
    for (int64_t i = 0; i < n; i++) chol_row(&c, i);
    return;
  }
  double *neg = xlacrt_try_alloc("cholesky", sizeof(double) * (size_t)(n * BLOCK));
  if (!neg) return;
  for (int64_t k0 = 0; k0 < n; k0 += BLOCK) {
    int64_t k1 = k0 + BLOCK < n ? k0 + BLOCK : n, kb = k1 - k0, m = n - k1;
    CholPanel c = {w, n, k0, k1};
    for (int64_t i = k0; i < k1; i++) chol_row(&c, i);
    if (m == 0) break;
    xlacrt_parallel_for(p, (m + ROW_CHUNK - 1) / ROW_CHUNK, chol_rows_task, &c);
    /* trailing update A22 -= L21 L21^T (the whole square; only its lower
       triangle is read later) */
    for (int64_t i = 0; i < m; i++)
      for (int64_t k = 0; k < kb; k++) neg[i * kb + k] = -w[(k1 + i) * n + k0 + k];
    xlacrt_dgemm(p, 0, 1, m, m, kb, neg, kb, w + k1 * n + k0, n, w + k1 * n + k1, n, 1);
  }
  free(neg);
}

/* The interpreter's algorithm in double complex (Cholesky-Banachiewicz). */
static void chol_cplx(zdouble *w, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j <= i; j++) {
      zdouble s = w[i * n + j];
      for (int64_t k = 0; k < j; k++) s -= w[i * n + k] * conj(w[j * n + k]);
      if (i == j) {
        double re = creal(s);
        w[i * n + i] = re < 0 || isnan(re) ? rt_zmake(NAN, NAN) : rt_zmake(re == 0 ? 0.0 : sqrt(re), 0);
      } else {
        w[i * n + j] = s / w[j * n + j];
      }
    }
}

typedef struct CholJob {
  int type, lower;
  int64_t batch, n, per_chunk;
  const void *a;
  void *out;
  xlacrt_pool *pool;
} CholJob;

static void chol_one(const CholJob *J, void *work, int64_t bi) {
  int64_t n = J->n, off = bi * n * n;
  int cplx = is_complex(J->type);
  if (cplx) {
    zdouble *w = work;
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) {
        /* a[i][j] of the Hermitian matrix, read from the chosen triangle */
        zdouble v = 0;
        if (j <= i) v = J->lower ? load_cplx(J->type, J->a, off + i * n + j) : conj(load_cplx(J->type, J->a, off + j * n + i));
        w[i * n + j] = v;
      }
    chol_cplx(w, n);
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) {
        /* out[i][j] from the factor's entry (r, c) in its lower triangle */
        int64_t r = J->lower ? i : j, c = J->lower ? j : i;
        zdouble v = c <= r ? w[r * n + c] : 0;
        store_cplx(J->type, J->out, off + i * n + j, J->lower ? v : conj(v));
      }
  } else {
    double *w = work;
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++)
        w[i * n + j] = j > i ? 0 : load_real(J->type, J->a, off + (J->lower ? i * n + j : j * n + i));
    chol_real(J->pool, w, n);
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) {
        int64_t r = J->lower ? i : j, c = J->lower ? j : i;
        store_real(J->type, J->out, off + i * n + j, c <= r ? w[r * n + c] : 0.0);
      }
  }
}

static void chol_task(int64_t chunk, void *ctx) {
  const CholJob *J = ctx;
  size_t esz = is_complex(J->type) ? sizeof(zdouble) : sizeof(double);
  void *work = xlacrt_try_alloc("cholesky", esz * (size_t)(J->n * J->n));
  if (!work) return;
  int64_t b0 = chunk * J->per_chunk, b1 = b0 + J->per_chunk < J->batch ? b0 + J->per_chunk : J->batch;
  for (int64_t bi = b0; bi < b1; bi++) chol_one(J, work, bi);
  free(work);
}

void xlacrt_cholesky(xlacrt_pool *p, int type, int lower, int64_t batch, int64_t n, const void *a,
                     void *out) {
  if (batch <= 0 || n <= 0) return;
  CholJob J = {type, lower, batch, n, mats_per_chunk(n * n), a, out, p};
  xlacrt_parallel_for(p, (batch + J.per_chunk - 1) / J.per_chunk, chol_task, &J);
}

/* ================= triangular solve ================= */

/* Solves rows [r0, r1) of T Y = W in place for columns [c0, c1), where T is
   m x m (row stride m) and W has row stride ldw; only T's entries inside the
   block are used (earlier blocks have been applied already).  Lower: rows
   in increasing order, upper: decreasing; each element subtracts in
   increasing column order of T, as the interpreter does. */
static void solve_block_real(const double *t, int64_t m, double *w, int64_t ldw, int64_t r0,
                             int64_t r1, int64_t c0, int64_t c1, int lower) {
  for (int64_t s = r0; s < r1; s++) {
    int64_t i = lower ? s : r0 + r1 - 1 - s;
    double *wi = w + i * ldw;
    int64_t j0 = lower ? r0 : i + 1, j1 = lower ? i : r1;
    for (int64_t j = j0; j < j1; j++) {
      double tij = t[i * m + j];
      const double *wj = w + j * ldw;
      for (int64_t c = c0; c < c1; c++) wi[c] -= tij * wj[c];
    }
    double d = t[i * m + i];
    for (int64_t c = c0; c < c1; c++) wi[c] /= d;
  }
}

static void solve_block_cplx(const zdouble *t, int64_t m, zdouble *w, int64_t ldw, int64_t r0,
                             int64_t r1, int64_t c0, int64_t c1, int lower) {
  for (int64_t s = r0; s < r1; s++) {
    int64_t i = lower ? s : r0 + r1 - 1 - s;
    zdouble *wi = w + i * ldw;
    int64_t j0 = lower ? r0 : i + 1, j1 = lower ? i : r1;
    for (int64_t j = j0; j < j1; j++) {
      zdouble tij = t[i * m + j];
      const zdouble *wj = w + j * ldw;
      for (int64_t c = c0; c < c1; c++) wi[c] -= tij * wj[c];
    }
    zdouble d = t[i * m + i];
    for (int64_t c = c0; c < c1; c++) wi[c] /= d;
  }
}

typedef struct TrsmJob {
  int type, left, lower, unit, transpose;
  int64_t batch, m, br, bc, per_chunk;
  const void *a, *b;
  void *out;
  xlacrt_pool *pool;
} TrsmJob;

/* One solve split over column chunks (the columns are independent). */
typedef struct ColSolve {
  const void *t;
  void *w;
  int64_t m, ncols;
  int lower, cplx;
} ColSolve;

enum { COL_CHUNK = 64 };

static void col_task(int64_t chunk, void *ctx) {
  const ColSolve *s = ctx;
  int64_t c0 = chunk * COL_CHUNK, c1 = c0 + COL_CHUNK < s->ncols ? c0 + COL_CHUNK : s->ncols;
  if (s->cplx)
    solve_block_cplx(s->t, s->m, s->w, s->ncols, 0, s->m, c0, c1, s->lower);
  else
    solve_block_real(s->t, s->m, s->w, s->ncols, 0, s->m, c0, c1, s->lower);
}

/* Blocked real solve: diagonal blocks by substitution, the rest of the
   right-hand side updated by GEMM. */
static void solve_blocked_real(xlacrt_pool *p, const double *t, int64_t m, double *w, int64_t nc,
                               int lower) {
  double *neg = xlacrt_try_alloc("triangular_solve", sizeof(double) * (size_t)(m * BLOCK));
  if (!neg) return;
  int64_t nblocks = (m + BLOCK - 1) / BLOCK;
  for (int64_t bk = 0; bk < nblocks; bk++) {
    /* lower: blocks from the top; upper: from the bottom */
    int64_t k0 = lower ? bk * BLOCK : (nblocks - 1 - bk) * BLOCK;
    int64_t k1 = k0 + BLOCK < m ? k0 + BLOCK : m, kb = k1 - k0;
    solve_block_real(t, m, w, nc, k0, k1, 0, nc, lower);
    int64_t u0 = lower ? k1 : 0, u1 = lower ? m : k0, mu = u1 - u0;
    if (mu == 0) continue;
    for (int64_t i = 0; i < mu; i++)
      for (int64_t k = 0; k < kb; k++) neg[i * kb + k] = -t[(u0 + i) * m + k0 + k];
    xlacrt_dgemm(p, 0, 0, mu, nc, kb, neg, kb, w + k0 * nc, nc, w + u0 * nc, nc, 1);
  }
  free(neg);
}

static void trsm_one(const TrsmJob *J, void *tbuf, void *wbuf, int64_t bi) {
  int64_t m = J->m, br = J->br, bc = J->bc;
  int64_t aoff = bi * m * m, boff = bi * br * bc;
  int64_t nc = J->left ? bc : br; /* independent systems */
  int transpose = J->transpose != 0, conj_a = J->transpose == 2;
  /* T = op(a) when solving from the left, op(a)^T from the right; it is
     lower triangular iff the triangle flips an even number of times */
  int t_lower = J->lower ^ transpose ^ !J->left;
  int t_transposed = transpose ^ !J->left;
  int cplx = is_complex(J->type);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < m; j++) {
      int64_t r = t_transposed ? j : i, c = t_transposed ? i : j;
      int in_tri = J->lower ? c <= r : c >= r;
      if (cplx) {
        zdouble v = in_tri ? load_cplx(J->type, J->a, aoff + r * m + c) : 0;
        if (r == c && J->unit) v = 1;
        ((zdouble *)tbuf)[i * m + j] = conj_a ? conj(v) : v;
      } else {
        double v = in_tri ? load_real(J->type, J->a, aoff + r * m + c) : 0;
        if (r == c && J->unit) v = 1;
        ((double *)tbuf)[i * m + j] = v;
      }
    }
  /* W[i][col]: column col of the right-hand side */
  for (int64_t i = 0; i < m; i++)
    for (int64_t col = 0; col < nc; col++) {
      int64_t at = boff + (J->left ? i * bc + col : col * bc + i);
      if (cplx)
        ((zdouble *)wbuf)[i * nc + col] = load_cplx(J->type, J->b, at);
      else
        ((double *)wbuf)[i * nc + col] = load_real(J->type, J->b, at);
    }
  if (!cplx && m >= BLOCK_MIN) {
    solve_blocked_real(J->pool, tbuf, m, wbuf, nc, t_lower);
  } else {
    ColSolve s = {tbuf, wbuf, m, nc, t_lower, cplx};
    xlacrt_parallel_for(J->pool, (nc + COL_CHUNK - 1) / COL_CHUNK, col_task, &s);
  }
  for (int64_t i = 0; i < m; i++)
    for (int64_t col = 0; col < nc; col++) {
      int64_t at = boff + (J->left ? i * bc + col : col * bc + i);
      if (cplx)
        store_cplx(J->type, J->out, at, ((zdouble *)wbuf)[i * nc + col]);
      else
        store_real(J->type, J->out, at, ((double *)wbuf)[i * nc + col]);
    }
}

static void trsm_task(int64_t chunk, void *ctx) {
  const TrsmJob *J = ctx;
  size_t esz = is_complex(J->type) ? sizeof(zdouble) : sizeof(double);
  void *t = xlacrt_try_alloc("triangular_solve", esz * (size_t)(J->m * J->m));
  void *w = t ? xlacrt_try_alloc("triangular_solve", esz * (size_t)(J->br * J->bc)) : NULL;
  if (!w) {
    free(t);
    return;
  }
  int64_t b0 = chunk * J->per_chunk, b1 = b0 + J->per_chunk < J->batch ? b0 + J->per_chunk : J->batch;
  for (int64_t bi = b0; bi < b1; bi++) trsm_one(J, t, w, bi);
  free(t);
  free(w);
}

void xlacrt_triangular_solve(xlacrt_pool *p, int type, int left, int lower, int unit,
                             int transpose, int64_t batch, int64_t m, int64_t b_rows,
                             int64_t b_cols, const void *a, const void *b, void *out) {
  if (batch <= 0 || b_rows <= 0 || b_cols <= 0) return;
  TrsmJob J = {type, left, lower, unit, transpose, batch, m, b_rows, b_cols, 0, a, b, out, p};
  J.per_chunk = mats_per_chunk(m * m + b_rows * b_cols);
  xlacrt_parallel_for(p, (batch + J.per_chunk - 1) / J.per_chunk, trsm_task, &J);
}
