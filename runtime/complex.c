/*
 * complex.c - complex functions for compiled code, one element per call.
 *
 * Generated code computes complex add, subtract, multiply, compare and
 * friends inline; the functions here are the ones the reference interpreter
 * takes from C99 <complex.h> (division, exp, log, sqrt, the trigonometric
 * and hyperbolic functions, pow), which compiled code calls so that both
 * backends use the same libm/libgcc algorithms and agree exactly.  A
 * complex<f32> element is computed in double and rounded by the caller, as
 * the interpreter does.  Plain C with libm only: ahead-of-time compiled
 * programs link this file.
 */
#include <complex.h>
#include <string.h>

#include "rt_util.h"
#include "xlacrt.h"


void xlacrt_complex_fn(int32_t fn, double ar, double ai, double br, double bi, double *out) {
  double complex a = rt_zmake(ar, ai), b = rt_zmake(br, bi), r;
  switch (fn) {
  case XLACRT_C_DIV: r = a / b; break;
  case XLACRT_C_EXP: r = cexp(a); break;
  case XLACRT_C_LOG: r = clog(a); break;
  case XLACRT_C_SQRT: r = csqrt(a); break;
  case XLACRT_C_SIN: r = csin(a); break;
  case XLACRT_C_COS: r = ccos(a); break;
  case XLACRT_C_TAN: r = ctan(a); break;
  case XLACRT_C_TANH: r = ctanh(a); break;
  case XLACRT_C_SINH: r = csinh(a); break;
  case XLACRT_C_COSH: r = ccosh(a); break;
  case XLACRT_C_ASIN: r = casin(a); break;
  case XLACRT_C_ACOS: r = cacos(a); break;
  case XLACRT_C_ATAN: r = catan(a); break;
  case XLACRT_C_ASINH: r = casinh(a); break;
  case XLACRT_C_ACOSH: r = cacosh(a); break;
  case XLACRT_C_ATANH: r = catanh(a); break;
  case XLACRT_C_POW: r = cpow(a, b); break;
  default: r = rt_zmake(0.0, 0.0); break;
  }
  out[0] = creal(r);
  out[1] = cimag(r);
}
