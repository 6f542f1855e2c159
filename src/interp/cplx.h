/*
 * cplx.h - building complex numbers from their parts.
 *
 * cplx_make(re, im) keeps infinities, NaNs and signed zeros exactly (re + im * I
 * would not).  C11's CMPLX is not available with every compiler/libc pair
 * (clang 14 with glibc lacks it), and complex types are laid out as two
 * reals, so the parts are copied in.  <complex.h> defines the macro I,
 * which the interpreter uses as a name: includers #undef it first.
 */
#ifndef XLAC_INTERP_CPLX_H
#define XLAC_INTERP_CPLX_H

#include <complex.h>
#include <string.h>

static inline double complex cplx_make(double re, double im) {
  double p[2] = {re, im};
  double complex z;
  memcpy(&z, p, sizeof z);
  return z;
}

#endif
