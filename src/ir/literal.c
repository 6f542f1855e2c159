/*
 * literal.c - dense tensor data: element access for every element type,
 * narrow float format conversions, and printing.
 *
 * The narrow float formats are described by one small table (exponent and
 * mantissa widths, bias, and how the format spells NaN/inf) and converted by
 * one generic routine, so each format is a row rather than code.
 */
#include "ir/literal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- narrow float formats ---- */
typedef enum { NAN_IEEE, NAN_FN, NAN_FNUZ, NAN_NONE, NAN_E8M0 } NanKind;
typedef struct FloatFmt {
  int ebits, mbits, bias;
  NanKind nan;
} FloatFmt;

static bool float_fmt(ElemType et, FloatFmt *f) {
  switch (et) {
  case ET_F16: *f = (FloatFmt){5, 10, 15, NAN_IEEE}; return true;
  case ET_BF16: *f = (FloatFmt){8, 7, 127, NAN_IEEE}; return true;
  case ET_F8E5M2: *f = (FloatFmt){5, 2, 15, NAN_IEEE}; return true;
  case ET_F8E4M3: *f = (FloatFmt){4, 3, 7, NAN_IEEE}; return true;
  case ET_F8E3M4: *f = (FloatFmt){3, 4, 3, NAN_IEEE}; return true;
  case ET_F8E4M3FN: *f = (FloatFmt){4, 3, 7, NAN_FN}; return true;
  case ET_F8E4M3FNUZ: *f = (FloatFmt){4, 3, 8, NAN_FNUZ}; return true;
  case ET_F8E5M2FNUZ: *f = (FloatFmt){5, 2, 16, NAN_FNUZ}; return true;
  case ET_F8E4M3B11FNUZ: *f = (FloatFmt){4, 3, 11, NAN_FNUZ}; return true;
  case ET_F4E2M1FN: *f = (FloatFmt){2, 1, 1, NAN_NONE}; return true;
  case ET_F6E2M3FN: *f = (FloatFmt){2, 3, 1, NAN_NONE}; return true;
  case ET_F6E3M2FN: *f = (FloatFmt){3, 2, 3, NAN_NONE}; return true;
  case ET_F8E8M0FNU: *f = (FloatFmt){8, 0, 127, NAN_E8M0}; return true;
  default: return false;
  }
}

static double fmt_decode(const FloatFmt *f, uint64_t bits) {
  if (f->nan == NAN_E8M0) {
    if ((bits & 0xff) == 0xff) return NAN;
    return ldexp(1.0, (int)(bits & 0xff) - 127);
  }
  int nb = 1 + f->ebits + f->mbits;
  bits &= (nb >= 64) ? ~0ull : ((1ull << nb) - 1);
  uint64_t sign = (bits >> (f->ebits + f->mbits)) & 1;
  uint64_t e = (bits >> f->mbits) & ((1ull << f->ebits) - 1);
  uint64_t m = bits & ((1ull << f->mbits) - 1);
  uint64_t emax = (1ull << f->ebits) - 1;
  if (f->nan == NAN_FNUZ && sign && e == 0 && m == 0) return NAN;
  if (f->nan == NAN_IEEE && e == emax) return m ? NAN : (sign ? -INFINITY : INFINITY);
  if (f->nan == NAN_FN && e == emax && m == (1ull << f->mbits) - 1) return NAN;
  double v;
  if (e == 0)
    v = ldexp((double)m, 1 - f->bias - f->mbits);
  else
    v = ldexp((double)(m | (1ull << f->mbits)), (int)e - f->bias - f->mbits);
  return sign ? -v : v;
}

static double fmt_max(const FloatFmt *f) {
  if (f->nan == NAN_E8M0) return ldexp(1.0, 127);
  uint64_t emax = (1ull << f->ebits) - 1;
  uint64_t mmax = (1ull << f->mbits) - 1;
  uint64_t bits;
  if (f->nan == NAN_IEEE)
    bits = ((emax - 1) << f->mbits) | mmax;
  else if (f->nan == NAN_FN)
    bits = (emax << f->mbits) | (mmax - 1);
  else
    bits = (emax << f->mbits) | mmax;
  return fmt_decode(f, bits);
}

static uint64_t fmt_nan_bits(const FloatFmt *f) {
  uint64_t emax = (1ull << f->ebits) - 1;
  switch (f->nan) {
  case NAN_IEEE: return (emax << f->mbits) | (1ull << (f->mbits - 1));
  case NAN_FN: return (emax << f->mbits) | ((1ull << f->mbits) - 1);
  case NAN_FNUZ: return 1ull << (f->ebits + f->mbits);
  case NAN_E8M0: return 0xff;
  case NAN_NONE: return 0; /* no NaN: zero is the least surprising */
  }
  return 0;
}

static uint64_t fmt_encode(const FloatFmt *f, double v) {
  if (isnan(v)) return fmt_nan_bits(f);
  if (f->nan == NAN_E8M0) {
    if (v <= 0 || isinf(v)) return 0xff; /* no infinity: overflow is NaN */
    int e;
    double fr = frexp(v, &e); /* v = fr * 2^e, fr in [0.5, 1) */
    int ex = e - 1;           /* v = (2*fr) * 2^ex */
    if (2 * fr > 1.5) ex++;   /* round to nearest power of two */
    if (ex < -127) ex = -127;
    if (ex > 127) return 0xff;
    return (uint64_t)(ex + 127);
  }
  uint64_t sign = signbit(v) ? 1 : 0;
  double a = fabs(v);
  uint64_t sbit = sign << (f->ebits + f->mbits);
  uint64_t emax = (1ull << f->ebits) - 1;
  double maxv = fmt_max(f);
  if (isinf(a)) {
    if (f->nan == NAN_IEEE) return sbit | (emax << f->mbits);
    if (f->nan == NAN_NONE) return sbit | ((emax << f->mbits) | ((1ull << f->mbits) - 1));
    return fmt_nan_bits(f);
  }
  int emin = 1 - f->bias;
  int e;
  if (a == 0) {
    e = emin;
  } else {
    frexp(a, &e);
    e -= 1;
    if (e < emin) e = emin;
  }
  double q = ldexp(1.0, e - f->mbits);
  double r = nearbyint(a / q) * q; /* round half to even (default FP env) */
  if (r > maxv) {
    if (f->nan == NAN_IEEE) return sbit | (emax << f->mbits);
    if (f->nan == NAN_NONE) return sbit | ((emax << f->mbits) | ((1ull << f->mbits) - 1));
    return fmt_nan_bits(f);
  }
  if (r == 0) return f->nan == NAN_FNUZ ? 0 : sbit;
  int re;
  frexp(r, &re);
  re -= 1;
  uint64_t bits;
  if (re < emin) {
    bits = (uint64_t)(r / ldexp(1.0, emin - f->mbits)); /* subnormal */
  } else {
    uint64_t m = (uint64_t)((r / ldexp(1.0, re) - 1.0) * ldexp(1.0, f->mbits));
    bits = ((uint64_t)(re + f->bias) << f->mbits) | m;
  }
  return sbit | bits;
}

double et_bits_to_double(ElemType et, uint64_t bits) {
  FloatFmt f;
  if (et == ET_F32) {
    uint32_t b = (uint32_t)bits;
    float x;
    memcpy(&x, &b, 4);
    return x;
  }
  if (et == ET_F64) {
    double x;
    memcpy(&x, &bits, 8);
    return x;
  }
  if (!float_fmt(et, &f)) return 0;
  return fmt_decode(&f, bits);
}

uint64_t et_double_to_bits(ElemType et, double v) {
  FloatFmt f;
  if (et == ET_F32) {
    float x = (float)v;
    uint32_t b;
    memcpy(&b, &x, 4);
    return b;
  }
  if (et == ET_F64) {
    uint64_t b;
    memcpy(&b, &v, 8);
    return b;
  }
  if (!float_fmt(et, &f)) return 0;
  return fmt_encode(&f, v);
}

double et_max_finite(ElemType et) {
  FloatFmt f;
  if (et == ET_F32) return FLT_MAX;
  if (et == ET_F64) return DBL_MAX;
  if (!float_fmt(et, &f)) return 0;
  return fmt_max(&f);
}

/* ---- construction ---- */
/* A literal without data yet.  It owns a private copy of its type: a tiny
   arena-free clone. */
static Literal *lit_shell(const Type *t) {
  Literal *l = xcalloc(1, sizeof(Literal));
  Type *ty = xcalloc(1, sizeof(Type));
  *ty = *t;
  ty->layout = NULL;
  ty->quant = NULL;
  ty->dims = xcalloc((size_t)(t->rank > 0 ? t->rank : 1), sizeof(int64_t));
  if (t->rank) memcpy(ty->dims, t->dims, sizeof(int64_t) * (size_t)t->rank);
  if (t->quant) {
    QuantInfo *q = xmalloc(sizeof(QuantInfo));
    *q = *t->quant;
    q->scales = xmalloc(sizeof(double) * (size_t)(q->nscales ? q->nscales : 1));
    q->zero_points = xmalloc(sizeof(int64_t) * (size_t)(q->nscales ? q->nscales : 1));
    if (q->nscales) {
      memcpy(q->scales, t->quant->scales, sizeof(double) * (size_t)q->nscales);
      memcpy(q->zero_points, t->quant->zero_points, sizeof(int64_t) * (size_t)q->nscales);
    }
    ty->quant = q;
  }
  l->type = ty;
  l->n = type_num_elements(t);
  return l;
}

Literal *lit_new(const Type *t) {
  Literal *l = lit_shell(t);
  l->data = xcalloc((size_t)(l->n > 0 ? l->n : 1), (size_t)et_bytes(t->elem));
  return l;
}

Literal *lit_new_borrowed(const Type *t, void *data) {
  Literal *l = lit_shell(t);
  l->data = data;
  l->borrowed = true;
  return l;
}

Literal *lit_clone(const Literal *src) {
  Literal *l = lit_new(src->type);
  if (src->n) memcpy(l->data, src->data, (size_t)src->n * (size_t)et_bytes(src->type->elem));
  return l;
}

void lit_free(Literal *l) {
  if (!l) return;
  if (l->type->quant) {
    xfree(l->type->quant->scales);
    xfree(l->type->quant->zero_points);
    xfree(l->type->quant);
  }
  xfree(l->type->dims);
  xfree(l->type);
  if (!l->borrowed) xfree(l->data);
  xfree(l);
}

Literal *lit_new_in(Arena *a, Type *t) {
  Literal *l = ARENA_NEW(a, Literal);
  l->type = t;
  l->n = type_num_elements(t);
  l->data = arena_alloc(a, (size_t)(l->n > 0 ? l->n : 1) * (size_t)et_bytes(t->elem));
  return l;
}

/* ---- raw bits ---- */
uint64_t lit_get_bits(const Literal *l, int64_t i) {
  const void *p = lit_ptr(l, i);
  switch (et_bytes(l->type->elem)) {
  case 1: return *(const uint8_t *)p;
  case 2: return *(const uint16_t *)p;
  case 4: return *(const uint32_t *)p;
  case 8: return *(const uint64_t *)p;
  default: return 0; /* complex128 has no single bit pattern view */
  }
}

void lit_set_bits(Literal *l, int64_t i, uint64_t bits) {
  void *p = lit_ptr(l, i);
  switch (et_bytes(l->type->elem)) {
  case 1: *(uint8_t *)p = (uint8_t)bits; break;
  case 2: *(uint16_t *)p = (uint16_t)bits; break;
  case 4: *(uint32_t *)p = (uint32_t)bits; break;
  case 8: *(uint64_t *)p = bits; break;
  default: break;
  }
}

void lit_copy_elem(Literal *dst, int64_t i, const Literal *src, int64_t j) {
  int nb = et_bytes(dst->type->elem);
  memcpy((char *)dst->data + i * nb, (const char *)src->data + j * nb, (size_t)nb);
}

/* ---- typed access ---- */
static int64_t sext(uint64_t v, int bits) {
  if (bits >= 64) return (int64_t)v;
  uint64_t m = 1ull << (bits - 1);
  v &= (1ull << bits) - 1;
  return (int64_t)((v ^ m) - m);
}

int64_t lit_get_i(const Literal *l, int64_t i) {
  ElemType et = l->type->elem;
  switch (et_class(et)) {
  case EC_PRED: return *(const uint8_t *)lit_ptr(l, i) != 0;
  case EC_SINT: return sext(lit_get_bits(l, i), et_bits(et));
  case EC_UINT: return (int64_t)lit_get_bits(l, i);
  case EC_FLOAT:
  case EC_COMPLEX: {
    double d = lit_get_f(l, i);
    if (isnan(d)) return 0;
    if (d >= 9223372036854775807.0) return INT64_MAX;
    if (d <= -9223372036854775808.0) return INT64_MIN;
    return (int64_t)d;
  }
  default: return 0;
  }
}

uint64_t lit_get_u(const Literal *l, int64_t i) {
  ElemType et = l->type->elem;
  if (et_class(et) == EC_FLOAT || et_class(et) == EC_COMPLEX) {
    double d = lit_get_f(l, i);
    if (isnan(d) || d <= 0) return 0;
    if (d >= 18446744073709551615.0) return UINT64_MAX;
    return (uint64_t)d;
  }
  return (uint64_t)lit_get_i(l, i);
}

double lit_get_f(const Literal *l, int64_t i) {
  ElemType et = l->type->elem;
  switch (et) {
  case ET_F32: return *(const float *)lit_ptr(l, i);
  case ET_F64: return *(const double *)lit_ptr(l, i);
  case ET_C64: return ((const float *)lit_ptr(l, i))[0];
  case ET_C128: return ((const double *)lit_ptr(l, i))[0];
  default: break;
  }
  switch (et_class(et)) {
  case EC_FLOAT: return et_bits_to_double(et, lit_get_bits(l, i));
  case EC_UINT: return (double)lit_get_u(l, i);
  default: return (double)lit_get_i(l, i);
  }
}

void lit_get_c(const Literal *l, int64_t i, double *re, double *im) {
  switch (l->type->elem) {
  case ET_C64: {
    const float *p = lit_ptr(l, i);
    *re = p[0];
    *im = p[1];
    return;
  }
  case ET_C128: {
    const double *p = lit_ptr(l, i);
    *re = p[0];
    *im = p[1];
    return;
  }
  default:
    *re = lit_get_f(l, i);
    *im = 0;
  }
}

bool lit_get_b(const Literal *l, int64_t i) {
  ElemType et = l->type->elem;
  if (et_is_fp(et)) {
    double re, im;
    lit_get_c(l, i, &re, &im);
    return re != 0 || im != 0;
  }
  return lit_get_bits(l, i) != 0;
}

void lit_set_i(Literal *l, int64_t i, int64_t v) {
  ElemType et = l->type->elem;
  switch (et_class(et)) {
  case EC_PRED: *(uint8_t *)lit_ptr(l, i) = v != 0; return;
  case EC_SINT: lit_set_bits(l, i, (uint64_t)sext((uint64_t)v, et_bits(et))); return;
  case EC_UINT: {
    int bits = et_bits(et);
    lit_set_bits(l, i, bits >= 64 ? (uint64_t)v : ((uint64_t)v & ((1ull << bits) - 1)));
    return;
  }
  default: lit_set_f(l, i, (double)v); return;
  }
}

void lit_set_u(Literal *l, int64_t i, uint64_t v) {
  if (et_is_fp(l->type->elem))
    lit_set_f(l, i, (double)v);
  else
    lit_set_i(l, i, (int64_t)v);
}

void lit_set_f(Literal *l, int64_t i, double v) {
  ElemType et = l->type->elem;
  switch (et) {
  case ET_F32: *(float *)lit_ptr(l, i) = (float)v; return;
  case ET_F64: *(double *)lit_ptr(l, i) = v; return;
  case ET_C64:
  case ET_C128: lit_set_c(l, i, v, 0); return;
  default: break;
  }
  switch (et_class(et)) {
  case EC_FLOAT: lit_set_bits(l, i, et_double_to_bits(et, v)); return;
  case EC_PRED: *(uint8_t *)lit_ptr(l, i) = v != 0; return;
  default: {
    /* float -> int: truncate toward zero, saturate, NaN -> 0 (no UB) */
    int64_t x;
    if (isnan(v))
      x = 0;
    else if (v >= 9223372036854775807.0)
      x = INT64_MAX;
    else if (v <= -9223372036854775808.0)
      x = INT64_MIN;
    else
      x = (int64_t)v;
    lit_set_i(l, i, x);
  }
  }
}

void lit_set_c(Literal *l, int64_t i, double re, double im) {
  switch (l->type->elem) {
  case ET_C64: {
    float *p = lit_ptr(l, i);
    p[0] = (float)re;
    p[1] = (float)im;
    return;
  }
  case ET_C128: {
    double *p = lit_ptr(l, i);
    p[0] = re;
    p[1] = im;
    return;
  }
  default: lit_set_f(l, i, re);
  }
}

void lit_set_b(Literal *l, int64_t i, bool v) { lit_set_i(l, i, v ? 1 : 0); }

void lit_convert_elem(Literal *dst, int64_t i, const Literal *src, int64_t j) {
  ElemType de = lit_elem(dst), se = lit_elem(src);
  if (de == se) {
    lit_copy_elem(dst, i, src, j);
  } else if (et_is_complex(de)) {
    double re, im;
    lit_get_c(src, j, &re, &im);
    lit_set_c(dst, i, re, im);
  } else if (et_is_float(de)) {
    lit_set_f(dst, i, lit_get_f(src, j));
  } else if (et_is_pred(de)) {
    lit_set_b(dst, i, lit_get_b(src, j));
  } else if (et_is_unsigned(se)) {
    lit_set_u(dst, i, lit_get_u(src, j));
  } else {
    lit_set_i(dst, i, lit_get_i(src, j));
  }
}

bool lit_equal(const Literal *a, const Literal *b) {
  if (!type_equal(a->type, b->type)) return false;
  return a->n == 0 || memcmp(a->data, b->data, (size_t)a->n * (size_t)et_bytes(a->type->elem)) == 0;
}

void shape_strides(int rank, const int64_t *dims, int64_t *strides) {
  int64_t s = 1;
  for (int i = rank - 1; i >= 0; i--) {
    strides[i] = s;
    s *= dims[i];
  }
}

bool index_next(int rank, const int64_t *dims, int64_t *idx) {
  for (int i = rank - 1; i >= 0; i--) {
    if (++idx[i] < dims[i]) return true;
    idx[i] = 0;
  }
  return false;
}

/* ---- printing ---- */
/* Shortest decimal that converts back to the same value in type et. */
static void format_float(StrBuf *b, ElemType et, double v, bool hlo) {
  if (isnan(v)) {
    sb_puts(b, hlo ? "nan" : "nan");
    return;
  }
  if (isinf(v)) {
    sb_puts(b, v < 0 ? "-inf" : "inf");
    return;
  }
  char buf[64];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, sizeof buf, "%.*g", prec, v);
    double back = strtod(buf, NULL);
    bool same;
    if (et == ET_F64 || et == ET_C128)
      same = back == v;
    else if (et == ET_F32 || et == ET_C64)
      same = (float)back == (float)v;
    else
      same = et_double_to_bits(et, back) == et_double_to_bits(et, v);
    if (same) {
      /* keep moderate magnitudes positional: 100 rather than 1e+02 */
      int e10 = v != 0 ? (int)floor(log10(fabs(v))) : 0;
      if (strchr(buf, 'e') && e10 >= prec && e10 < 16) snprintf(buf, sizeof buf, "%.*g", e10 + 1, v);
      break;
    }
  }
  lit_float_dot(buf, !hlo);
  sb_puts(b, buf);
}

void lit_float_dot(char *buf, bool mlir) {
  if (strpbrk(buf, ".n")) return; /* has a '.', or is inf or nan */
  char *e = strpbrk(buf, "eE");
  if (!e) {
    strcat(buf, ".0");
  } else if (mlir) {
    memmove(e + 2, e, strlen(e) + 1);
    e[0] = '.';
    e[1] = '0';
  }
}

static void format_elem(StrBuf *b, const Literal *l, int64_t i, bool hlo) {
  ElemType et = l->type->elem;
  switch (et_class(et)) {
  case EC_PRED:
    sb_puts(b, lit_get_b(l, i) ? "true" : "false");
    return;
  case EC_SINT:
    sb_printf(b, "%lld", (long long)lit_get_i(l, i));
    return;
  case EC_UINT:
    sb_printf(b, "%llu", (unsigned long long)lit_get_u(l, i));
    return;
  case EC_FLOAT:
    format_float(b, et, lit_get_f(l, i), hlo);
    return;
  case EC_COMPLEX: {
    double re, im;
    lit_get_c(l, i, &re, &im);
    sb_putc(b, '(');
    format_float(b, et, re, hlo);
    sb_puts(b, ", ");
    format_float(b, et, im, hlo);
    sb_putc(b, ')');
    return;
  }
  default:
    sb_puts(b, "?");
  }
}

void lit_format_elem(StrBuf *b, const Literal *l, int64_t i) { format_elem(b, l, i, true); }

/* MLIR cannot spell inf/nan as decimals: it uses the raw bit pattern. */
static void format_elem_mlir(StrBuf *b, const Literal *l, int64_t i) {
  ElemType et = l->type->elem;
  if (et_class(et) == EC_FLOAT) {
    double v = lit_get_f(l, i);
    if (isnan(v) || isinf(v)) {
      sb_printf(b, "0x%0*llX", (et_bits(et) + 3) / 4, (unsigned long long)lit_get_bits(l, i));
      return;
    }
  } else if (et_class(et) == EC_COMPLEX) {
    double re, im;
    lit_get_c(l, i, &re, &im);
    if (!isfinite(re) || !isfinite(im)) {
      ElemType pt = et_real_part(et);
      uint64_t rb = et_double_to_bits(pt, re), ib = et_double_to_bits(pt, im);
      int w = et_bits(pt) / 4;
      sb_printf(b, "(0x%0*llX, 0x%0*llX)", w, (unsigned long long)rb, w, (unsigned long long)ib);
      return;
    }
  }
  format_elem(b, l, i, false);
}

static void print_nested(StrBuf *b, const Literal *l, int dim, int64_t *pos, bool hlo) {
  const Type *t = l->type;
  if (dim == t->rank) {
    if (hlo)
      format_elem(b, l, *pos, true);
    else
      format_elem_mlir(b, l, *pos);
    (*pos)++;
    return;
  }
  sb_putc(b, hlo ? '{' : '[');
  for (int64_t i = 0; i < t->dims[dim]; i++) {
    if (i) sb_puts(b, ", ");
    print_nested(b, l, dim + 1, pos, hlo);
  }
  sb_putc(b, hlo ? '}' : ']');
}

bool lit_is_splat(const Literal *l) {
  /* every element equals the one before it: one pass over the bytes */
  size_t nb = (size_t)et_bytes(l->type->elem);
  return l->n > 0 && (l->n == 1 || memcmp((const char *)l->data + nb, l->data, (size_t)(l->n - 1) * nb) == 0);
}

void lit_fill_first(Literal *l) {
  /* doubling copies: log2(n) memcpy calls instead of n element copies */
  size_t nb = (size_t)et_bytes(l->type->elem), have = nb, all = (size_t)l->n * nb;
  if (l->n < 2) return;
  while (have < all) {
    size_t k = have < all - have ? have : all - have;
    memcpy((char *)l->data + have, l->data, k);
    have += k;
  }
}

void lit_print_mlir_body(StrBuf *b, const Literal *l) {
  sb_puts(b, "dense<");
  if (l->type->rank == 0 || (l->n > 1 && lit_is_splat(l))) {
    format_elem_mlir(b, l, 0);
  } else {
    int64_t pos = 0;
    print_nested(b, l, 0, &pos, false);
  }
  sb_putc(b, '>');
}

void lit_print_hlo_body(StrBuf *b, const Literal *l) {
  int64_t pos = 0;
  if (l->type->rank == 0) {
    format_elem(b, l, 0, true);
    return;
  }
  print_nested(b, l, 0, &pos, true);
}
