/*
 * fft.c - the interpreter's stablehlo.fft: FFT, IFFT, RFFT and IRFFT over the
 * 1 to 3 innermost dimensions.
 *
 * All work happens on a double complex copy of the data.  A
 * multi-dimensional transform is a 1-D transform along each of the
 * fft_length dimensions in turn; each 1-D line is gathered into a scratch
 * buffer, transformed and scattered back.  Power-of-two lengths use an
 * iterative radix-2 Cooley-Tukey; other lengths a direct O(n^2) DFT with a
 * twiddle table indexed by (j*k mod n), so accuracy does not degrade with n.
 * The inverse transforms divide by n per dimension.  RFFT is a complex FFT
 * of the real input truncated to n/2+1 outputs along the last dimension;
 * IRFFT first inverts the outer dimensions on the half spectrum, then
 * rebuilds each last-dimension line by Hermitian symmetry and keeps the real
 * part of its inverse, as the spec orders it.
 */
#include "interp/interp.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* complex.h names the imaginary unit I; here I is the interpreter */
#undef I
#include "interp/cplx.h"

static bool is_pow2(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

/* In-place 1-D DFT of x[0..n), sign -1 forward, +1 inverse (unscaled).
   tmp has room for 2n values. */
static void dft1(double complex *x, int64_t n, int sign, double complex *tmp) {
  if (n <= 1) return;
  if (is_pow2(n)) {
    for (int64_t i = 1, j = 0; i < n; i++) {
      int64_t bit = n >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) {
        double complex t = x[i];
        x[i] = x[j];
        x[j] = t;
      }
    }
    for (int64_t len = 2; len <= n; len <<= 1) {
      for (int64_t k = 0; k < len / 2; k++) {
        double ang = sign * 2.0 * M_PI * (double)k / (double)len;
        double complex w = cplx_make(cos(ang), sin(ang));
        for (int64_t i = 0; i < n; i += len) {
          double complex u = x[i + k], v = x[i + k + len / 2] * w;
          x[i + k] = u + v;
          x[i + k + len / 2] = u - v;
        }
      }
    }
    return;
  }
  /* twiddles w[m] = exp(sign * 2 pi i m / n), indexed by (j*k) mod n */
  double complex *w = tmp + n;
  for (int64_t m = 0; m < n; m++) {
    double ang = sign * 2.0 * M_PI * (double)m / (double)n;
    w[m] = cplx_make(cos(ang), sin(ang));
  }
  for (int64_t k = 0; k < n; k++) {
    double complex s = 0;
    int64_t jk = 0;
    for (int64_t j = 0; j < n; j++) {
      s += x[j] * w[jk];
      jk += k;
      if (jk >= n) jk -= n;
    }
    tmp[k] = s;
  }
  memcpy(x, tmp, sizeof(double complex) * (size_t)n);
}

/* Transforms every line of `buf` (shape dims[0..rank)) along axis `ax`. */
static void dft_axis(double complex *buf, int rank, const int64_t *dims, int ax, int sign,
                     bool scale) {
  int64_t n = dims[ax], total = 1;
  for (int i = 0; i < rank; i++) total *= dims[i];
  if (n == 0 || total == 0) return;
  int64_t stride = 1;
  for (int i = rank - 1; i > ax; i--) stride *= dims[i];
  double complex *line = xmalloc(sizeof(double complex) * (size_t)n);
  double complex *tmp = xmalloc(sizeof(double complex) * (size_t)(2 * n));
  int64_t nlines = total / n;
  for (int64_t l = 0; l < nlines; l++) {
    /* line l: outer block l / stride, inner offset l % stride */
    int64_t base = (l / stride) * stride * n + l % stride;
    for (int64_t j = 0; j < n; j++) line[j] = buf[base + j * stride];
    dft1(line, n, sign, tmp);
    for (int64_t j = 0; j < n; j++) buf[base + j * stride] = scale ? line[j] / (double)n : line[j];
  }
  xfree(line);
  xfree(tmp);
}

static void store_complex(Literal *out, const double complex *buf) {
  for (int64_t i = 0; i < out->n; i++) lit_set_c(out, i, creal(buf[i]), cimag(buf[i]));
}

bool interp_FFT(Interp *I, Op *op, IVal **args, IVal **res) {
  if (args[0]->kind != IV_TENSOR) return interp_error(I, op, "operand is not a tensor");
  const Literal *x = ARG_LIT(0);
  const Type *it = x->type, *ot = op->res[0].type;
  const char *ty = op_attr_str(op, "fft_type");
  int64_t *len;
  int L = op_attr_ints(op, "fft_length", &len);
  if (!ty) return interp_error(I, op, "missing fft_type");
  int kind = !strcmp(ty, "FFT") ? 0 : !strcmp(ty, "IFFT") ? 1 : !strcmp(ty, "RFFT") ? 2 : !strcmp(ty, "IRFFT") ? 3 : -1;
  if (kind < 0) return interp_error(I, op, "unknown fft_type '%s'", ty);
  if (L < 1 || L > 3 || L > it->rank) return interp_error(I, op, "fft_length must have 1 to 3 entries, at most the operand rank");
  if (ot->kind != TY_TENSOR || ot->rank != it->rank) return interp_error(I, op, "result rank must equal operand rank");
  bool in_c = et_is_complex(lit_elem(x)), out_c = et_is_complex(ot->elem);
  if ((kind <= 1 && (!in_c || !out_c)) || (kind == 2 && (in_c || !out_c || !et_is_float(lit_elem(x)))) ||
      (kind == 3 && (!in_c || out_c || !et_is_float(ot->elem))))
    return interp_error(I, op, "element types do not fit fft_type %s", ty);
  int R = it->rank;
  /* shapes: the real side must match fft_length; complex dims as C5 says */
  for (int i = 0; i < R; i++) {
    int64_t want = it->dims[i];
    bool last = i == R - 1;
    if (kind == 2 && last) want = it->dims[i] == 0 ? 0 : it->dims[i] / 2 + 1;
    if (kind == 3 && last) want = len[L - 1];
    if (ot->dims[i] != want) return interp_error(I, op, "result dimension %d has the wrong size", i);
  }
  const int64_t *real_dims = kind == 3 ? ot->dims : it->dims;
  for (int i = 0; i < L; i++)
    if (len[i] != real_dims[R - L + i]) return interp_error(I, op, "fft_length does not match the trailing dimensions");
  if (kind == 3 && it->dims[R - 1] != (len[L - 1] == 0 ? 0 : len[L - 1] / 2 + 1))
    return interp_error(I, op, "IRFFT operand's last dimension must be fft_length[-1] / 2 + 1");

  Literal *out = lit_new(ot);
  double complex *buf = xmalloc(sizeof(double complex) * (size_t)(x->n > 0 ? x->n : 1));
  for (int64_t i = 0; i < x->n; i++) {
    double re, im;
    lit_get_c(x, i, &re, &im);
    buf[i] = cplx_make(re, im);
  }
  switch (kind) {
  case 0:
    for (int a = R - 1; a >= R - L; a--) dft_axis(buf, R, it->dims, a, -1, false);
    store_complex(out, buf);
    break;
  case 1:
    for (int a = R - L; a < R; a++) dft_axis(buf, R, it->dims, a, +1, true);
    store_complex(out, buf);
    break;
  case 2: {
    for (int a = R - 1; a >= R - L; a--) dft_axis(buf, R, it->dims, a, -1, false);
    int64_t n = it->dims[R - 1], h = ot->dims[R - 1];
    for (int64_t i = 0; i < out->n; i++) {
      int64_t row = i / (h ? h : 1), k = i % (h ? h : 1);
      double complex v = buf[row * n + k];
      lit_set_c(out, i, creal(v), cimag(v));
    }
    break;
  }
  case 3: {
    for (int a = R - L; a < R - 1; a++) dft_axis(buf, R, it->dims, a, +1, true);
    int64_t n = ot->dims[R - 1], h = it->dims[R - 1];
    int64_t nrows = n ? out->n / n : 0;
    double complex *line = xmalloc(sizeof(double complex) * (size_t)(n > 0 ? n : 1));
    double complex *tmp = xmalloc(sizeof(double complex) * (size_t)(n > 0 ? 2 * n : 1));
    for (int64_t r = 0; r < nrows; r++) {
      const double complex *half = buf + r * h;
      for (int64_t k = 0; k < n; k++) line[k] = k < h ? half[k] : conj(half[n - k]);
      /* the DC term (and Nyquist for even n) of a real signal is real */
      line[0] = creal(line[0]);
      if (n % 2 == 0 && n > 0) line[n / 2] = creal(line[n / 2]);
      dft1(line, n, +1, tmp);
      for (int64_t k = 0; k < n; k++) lit_set_f(out, r * n + k, creal(line[k]) / (double)n);
    }
    xfree(line);
    xfree(tmp);
    break;
  }
  }
  xfree(buf);
  res[0] = ival_tensor(out);
  return true;
}
