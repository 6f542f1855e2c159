/*
 * lapack.h - the LAPACK routines JAX's CPU lowerings call, written for
 * xlac: non-symmetric eigenvalues and eigenvectors (geev), the Schur form
 * (gees), Hessenberg reduction (gehrd), pivoted QR (geqp3), Householder
 * tridiagonalization (sytrd/hetrd), tridiagonal solves (gtsv, and JAX's
 * perturbed variant), the SVD (gesdd/gesvd) and LU (getrf).
 *
 * The custom calls `lapack_<s|d|c|z><routine>_ffi` and
 * `tridiagonal_solve_perturbed_ffi` are built-in targets (hostcall.c
 * classifies them; lapack_problem checks an op, lapack_call runs it in the
 * interpreter, and compiled code reaches it through the interpreter thunk).
 * The kernels below work on one matrix, row-major, in double complex
 * whatever the element type (a real matrix has zero imaginary parts), and
 * follow LAPACK's documented conventions for what they store: reflectors
 * H = I - tau v v^H with v's leading 1 implicit, R or T on and above the
 * diagonal, 1-based pivots and info values.  They are exposed for the
 * unit tests.
 */
#ifndef XLAC_INTERP_LAPACK_H
#define XLAC_INTERP_LAPACK_H

#include "interp/interp.h"

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

typedef double complex la_z;

/* ---- the kernels ---- */

/* Hessenberg reduction of the n x n a in place (gehrd with ilo = 1,
   ihi = n): H on and above the first subdiagonal, reflector i's tail below
   it in column i; taus[n - 1] (none when n < 2). */
void la_gehrd(la_z *a, int64_t n, la_z *taus);

/* Schur decomposition a = Z T Z^H of the n x n a, in place (a becomes T).
   real: a is real and T is its real Schur form, quasi-triangular with 2x2
   blocks [[p, b], [c, p]], b c < 0, for complex pairs (gees of s/d);
   else T is upper triangular (gees of c/z).  z (n x n, may be NULL) gets
   Z; w[n] the eigenvalues in T's order, a pair with the positive imaginary
   part first.  Returns 0, or LAPACK's info > 0 when the QR iteration does
   not converge or a holds a NaN or infinity (then nothing is meaningful). */
int64_t la_schur(la_z *a, int64_t n, bool real, la_z *z, la_z *w);

/* Eigenvalues w[n] of the n x n a (destroyed), with right eigenvectors
   (A v = w v) and left ones (u^H A = w u^H) as the columns of vr and vl
   when they are not NULL, each of unit norm with its largest component
   real; for a real a, complex pairs are conjugate and a real eigenvalue's
   vector is real.  Returns info as la_schur. */
int64_t la_geev(la_z *a, int64_t n, bool real, la_z *w, la_z *vl, la_z *vr);

/* Householder QR with column pivoting of the m x n a, in place:
   a P = Q R.  jpvt[n] on entry: nonzero marks a column to be moved to the
   front (in order) before the others are pivoted by largest remaining
   norm; on return jpvt[j] is the 1-based column of a that is column j of
   a P.  taus[min(m, n)]. */
void la_geqp3(la_z *a, int64_t m, int64_t n, int64_t *jpvt, la_z *taus);

/* Tridiagonal reduction Q^H a Q = T of the Hermitian n x n matrix the
   lower (lower) or upper triangle of a describes, in place: d[n] the
   diagonal, e[n - 1] the off-diagonal (real), taus[n - 1]; a keeps T's
   diagonal and off-diagonal and the reflectors beyond it, as LAPACK's
   sytrd/hetrd. */
void la_hetrd(la_z *a, int64_t n, bool lower, double *d, double *e, la_z *taus);

/* Solves the tridiagonal A x = b for the nrhs columns of the n x nrhs b,
   in place, by Gaussian elimination with partial pivoting; dl[i] = A[i][i-1]
   (dl[0] unused), d[i] = A[i][i], du[i] = A[i][i+1] (du[n-1] unused), as
   JAX passes them.  They are overwritten with U's second superdiagonal,
   diagonal and superdiagonal (gtsv).  Returns 0, or the 1-based row of a
   zero pivot (b then holds nothing meaningful). */
int64_t la_gtsv(la_z *dl, la_z *d, la_z *du, la_z *b, int64_t n, int64_t nrhs);

/* LU factorization with partial pivoting of the m x n a, in place (getrf):
   P a = L U, U on and above the diagonal, L's multipliers below it (its
   unit diagonal implicit); ipiv[min(m, n)]: row j was swapped with row
   ipiv[j] - 1 at step j (1-based, as LAPACK).  Returns 0, or info = j + 1
   for the first j with U(j, j) exactly 0 (the factorization is still
   completed). */
int64_t la_getrf(la_z *a, int64_t m, int64_t n, int64_t *ipiv);

/* The same elimination without failing: pivots of U smaller than
   eps * max |U| are replaced by that amount (keeping their sign), so that a
   singular system gets a large finite solution (JAX's perturb_singular). */
void la_gtsv_perturbed(const la_z *dl, const la_z *d, const la_z *du, la_z *b, int64_t n, int64_t nrhs,
                       double eps);

/* Singular values s[min(m, n)] (descending) of the m x n a (destroyed);
   with u and vt not NULL also a = U diag(s) V^H: u m x m (full) or
   m x min(m, n), vt n x n (full) or min(m, n) x n.  Returns 0, or a
   nonzero info when a holds a NaN or infinity. */
int64_t la_gesvd(la_z *a, int64_t m, int64_t n, double *s, la_z *u, la_z *vt, bool full);

/* ---- the custom calls ---- */

/* Whether target is one of the LAPACK-style targets implemented here. */
bool lapack_is_target(const char *target);
/* Why op cannot run (heap message), or NULL. */
char *lapack_problem(const Op *op, const char *target);
/* Runs op in the interpreter. */
bool lapack_call(Interp *interp, Op *op, const char *target, IVal **args, IVal **res);

#endif
