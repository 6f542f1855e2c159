/*
 * numarr.h - operands widened into plain host arrays (double, double complex
 * or uint64_t), shared by the interpreter's dot and convolution loops.
 * Includers have <complex.h> (and have #undef'd its I) first.
 */
#ifndef XLAC_INTERP_NUMARR_H
#define XLAC_INTERP_NUMARR_H

#include "interp/interp.h"

typedef enum NumKind { NK_REAL, NK_CPLX, NK_INT } NumKind;

typedef struct NumArr {
  NumKind k;
  int64_t n;
  double *f;
  double complex *c;
  uint64_t *u;
} NumArr;

/* The widening class of an element type. */
NumKind num_kind(ElemType et);
/* Loads every element of l widened to kind k (integers as two's complement
   uint64_t, so arithmetic wraps). */
void num_load(NumArr *a, const Literal *l, NumKind k);
void num_free(NumArr *a);

#endif
