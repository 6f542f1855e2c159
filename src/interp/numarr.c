/*
 * numarr.c - operands widened into host arrays for the dot and convolution
 * loops of the interpreter (see numarr.h).
 */
#include <complex.h>
#include <stdlib.h>
#include <string.h>

/* complex.h names the imaginary unit I; numarr.h's includes use I as a name */
#undef I
#include "interp/cplx.h"
#include "interp/numarr.h"

NumKind num_kind(ElemType et) {
  if (et_is_complex(et)) return NK_CPLX;
  if (et_is_float(et)) return NK_REAL;
  return NK_INT;
}

void num_load(NumArr *a, const Literal *l, NumKind k) {
  memset(a, 0, sizeof *a);
  a->k = k;
  a->n = l->n;
  size_t n = (size_t)(l->n > 0 ? l->n : 1);
  ElemType et = lit_elem(l);
  switch (k) {
  case NK_REAL:
    a->f = xmalloc(n * sizeof(double));
    if (et == ET_F32) {
      const float *p = l->data;
      for (int64_t i = 0; i < l->n; i++) a->f[i] = p[i];
    } else if (et == ET_F64) {
      if (l->n) memcpy(a->f, l->data, (size_t)l->n * sizeof(double));
    } else {
      for (int64_t i = 0; i < l->n; i++) a->f[i] = lit_get_f(l, i);
    }
    break;
  case NK_CPLX:
    a->c = xmalloc(n * sizeof(double complex));
    for (int64_t i = 0; i < l->n; i++) {
      double re, im;
      lit_get_c(l, i, &re, &im);
      a->c[i] = cplx_make(re, im);
    }
    break;
  case NK_INT:
    a->u = xmalloc(n * sizeof(uint64_t));
    for (int64_t i = 0; i < l->n; i++) a->u[i] = (uint64_t)lit_get_i(l, i);
    break;
  }
}

void num_free(NumArr *a) {
  xfree(a->f);
  xfree(a->c);
  xfree(a->u);
  memset(a, 0, sizeof *a);
}
