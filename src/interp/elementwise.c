/*
 * elementwise.c - the interpreter's elementwise ops: arithmetic, logic,
 * comparisons, conversions, the unary math functions of StableHLO, and the
 * CHLO elementwise and broadcasting ops that JAX leaves behind.
 *
 * Every element type is handled through a few classes.  Floats of every
 * width are computed in double and rounded once on store (lit_set_f), which
 * is exact for + - * / and sqrt because double has more than twice the
 * precision of the widest narrower format.  Integers are computed in
 * uint64_t, where wrap-around is defined, and truncated to the element width
 * on store; the signed view is the sign-extended bit pattern.  Complex
 * values use C99 double complex.  Plain f32/f64/i32/i64 tensors take tight
 * loops so that big tensors stay fast; everything else goes through the
 * generic element accessors.
 *
 * Where the spec leaves integer corner cases open we follow XLA: x / 0 is
 * all ones, x % 0 is x, INT_MIN / -1 is INT_MIN, and shifts by at least the
 * bit width give 0 (or the sign fill for arithmetic right shifts).
 */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* <complex.h> names the imaginary unit I, which is also the interpreter
   parameter's name everywhere; spell the unit _Complex_I instead. */
#undef I
#include "interp/cplx.h"

#include "interp/interp.h"

/* ---- small helpers ---- */


static inline uint64_t width_mask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* Sign-extends the low `bits` bits of v. */
static inline int64_t sext_bits(uint64_t v, int bits) {
  if (bits >= 64) return (int64_t)v;
  uint64_t m = 1ull << (bits - 1);
  v &= width_mask(bits);
  return (int64_t)((v ^ m) - m);
}

/* Arithmetic shift right without relying on implementation-defined >> of
   negative numbers. */
static inline int64_t asr64(int64_t v, int s) {
  if (v >= 0) return v >> s;
  return ~(int64_t)(~(uint64_t)v >> s);
}

static bool check_tensors(Interp *I, Op *op, IVal **args, int n) {
  for (int i = 0; i < n; i++) {
    if (!args[i] || args[i]->kind != IV_TENSOR)
      return interp_error(I, op, "operand %d must be a tensor", i);
    if (args[i]->lit->type->quant)
      return interp_error(I, op, "quantized operands are not supported by this op yet");
  }
  if (op->nres < 1 || op->res[0].type->kind != TY_TENSOR)
    return interp_error(I, op, "result must be a tensor");
  if (op->res[0].type->quant)
    return interp_error(I, op, "quantized results are not supported by this op yet");
  return true;
}

static bool check_count(Interp *I, Op *op, const Literal *x, int64_t n, int which) {
  if (x->n != n)
    return interp_error(I, op, "operand %d has %lld elements but the result has %lld", which,
                        (long long)x->n, (long long)n);
  return true;
}

static const char *et_name(ElemType et) { return elem_info[et].mlir_name; }

static bool bad_type(Interp *I, Op *op, ElemType et) {
  return interp_error(I, op, "'%s' does not support element type %s", op_info[op->kind].name,
                      et_name(et));
}

/* Integer element -> double, rounding to odd when the value does not fit in
   53 bits.  Rounding to odd first and then to a format of at most 51
   significant bits gives the correctly rounded result, so int64 -> f32/f16
   conversions do not suffer double rounding. */
static double u64_to_double_odd(uint64_t v) {
  if (v < (1ull << 53)) return (double)v;
  int lz = __builtin_clzll(v);
  int drop = 64 - lz - 53; /* low bits that do not fit */
  uint64_t kept = v >> drop;
  if (v & width_mask(drop)) kept |= 1; /* sticky */
  return ldexp((double)kept, drop);
}

static double int_to_double(uint64_t v, bool sgn, bool odd) {
  if (sgn) {
    int64_t s = (int64_t)v;
    if (!odd) return (double)s;
    uint64_t mag = s < 0 ? 0 - v : v;
    double d = u64_to_double_odd(mag);
    return s < 0 ? -d : d;
  }
  return odd ? u64_to_double_odd(v) : (double)v;
}

/* Float -> integer of the given width: truncate toward zero, saturate at the
   type's range, NaN -> 0.  Returns the bit pattern (sign-extended). */
static uint64_t double_to_int_sat(double d, int bits, bool sgn) {
  if (isnan(d)) return 0;
  d = trunc(d);
  if (sgn) {
    /* limits are powers of two, exact in double */
    double hi = ldexp(1.0, bits - 1), lo = -hi;
    if (d >= hi) return (uint64_t)((bits >= 64) ? INT64_MAX : (int64_t)(hi - 1));
    if (d <= lo) return (uint64_t)((bits >= 64) ? INT64_MIN : (int64_t)lo);
    return (uint64_t)(int64_t)d;
  }
  if (d <= 0) return 0;
  double hi = ldexp(1.0, bits);
  if (d >= hi) return width_mask(bits);
  return (uint64_t)d;
}

/* IEEE-754 maximum/minimum: NaN wins, -0 < +0. */
static double fmax_nan(double a, double b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}
static double fmin_nan(double a, double b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}
static float fmaxf_nan(float a, float b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}
static float fminf_nan(float a, float b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}

/* ---- binary ops ---- */
typedef enum BinOp {
  B_ADD, B_SUB, B_MUL, B_DIV, B_REM, B_MAX, B_MIN, B_POW,
  B_AND, B_OR, B_XOR, B_SHL, B_SHRA, B_SHRL, B_ATAN2, B_MULHI,
} BinOp;

static bool bin_float(BinOp k, double a, double b, double *r) {
  switch (k) {
  case B_ADD: *r = a + b; return true;
  case B_SUB: *r = a - b; return true;
  case B_MUL: *r = a * b; return true;
  case B_DIV: *r = a / b; return true;
  case B_REM: *r = fmod(a, b); return true;
  case B_MAX: *r = fmax_nan(a, b); return true;
  case B_MIN: *r = fmin_nan(a, b); return true;
  case B_POW: *r = pow(a, b); return true;
  case B_ATAN2: *r = atan2(a, b); return true;
  default: return false;
  }
}

/* Lexicographic (re, im) order, the spec's choice for complex max/min. */
static bool clt(double complex a, double complex b) {
  return creal(a) < creal(b) || (creal(a) == creal(b) && cimag(a) < cimag(b));
}

static double complex catan2_(double complex y, double complex x) {
  /* atan2(y, x) = -i * log((x + i y) / sqrt(x^2 + y^2)) */
  double complex num = x + _Complex_I * y;
  double complex den = csqrt(x * x + y * y);
  return -_Complex_I * clog(num / den);
}

static bool bin_complex(BinOp k, double complex a, double complex b, double complex *r) {
  switch (k) {
  case B_ADD: *r = a + b; return true;
  case B_SUB: *r = a - b; return true;
  case B_MUL: *r = a * b; return true;
  case B_DIV: *r = a / b; return true;
  case B_MAX: *r = clt(a, b) ? b : a; return true;
  case B_MIN: *r = clt(b, a) ? b : a; return true;
  case B_POW:
    /* 0^0 is 1 for complex like for real; cpow gets it from log(0) */
    if (a == 0 && b == 0)
      *r = 1;
    else
      *r = cpow(a, b);
    return true;
  case B_ATAN2: *r = catan2_(a, b); return true;
  default: return false;
  }
}

static uint64_t umulhi64(uint64_t a, uint64_t b) {
  uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
  uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/* a and b are the element values: sign-extended for signed types, zero-
   extended for unsigned; the result is truncated to `bits` by the caller. */
static bool bin_int(BinOp k, uint64_t a, uint64_t b, int bits, bool sgn, uint64_t *r) {
  uint64_t m = width_mask(bits);
  int64_t sa = (int64_t)a, sb = (int64_t)b;
  switch (k) {
  case B_ADD: *r = a + b; return true;
  case B_SUB: *r = a - b; return true;
  case B_MUL: *r = a * b; return true;
  case B_DIV:
    if (sgn) {
      if (sb == 0) *r = ~0ull;
      else if (sb == -1) *r = 0 - a; /* INT_MIN / -1 wraps to INT_MIN */
      else *r = (uint64_t)(sa / sb);
    } else {
      *r = (b & m) == 0 ? ~0ull : (a & m) / (b & m);
    }
    return true;
  case B_REM:
    if (sgn) {
      if (sb == 0) *r = a;
      else if (sb == -1) *r = 0;
      else *r = (uint64_t)(sa % sb);
    } else {
      *r = (b & m) == 0 ? a : (a & m) % (b & m);
    }
    return true;
  case B_MAX: *r = sgn ? (sa > sb ? a : b) : ((a & m) > (b & m) ? a : b); return true;
  case B_MIN: *r = sgn ? (sa < sb ? a : b) : ((a & m) < (b & m) ? a : b); return true;
  case B_POW: {
    uint64_t base = a, e = b & m, acc = 1;
    if (sgn && sb < 0) {
      /* only |base| == 1 survives a negative exponent */
      if (sa == 1 || sa == -1)
        e = 0 - b;
      else {
        *r = 0;
        return true;
      }
    }
    while (e) {
      if (e & 1) acc *= base;
      base *= base;
      e >>= 1;
    }
    *r = acc;
    return true;
  }
  case B_AND: *r = a & b; return true;
  case B_OR: *r = a | b; return true;
  case B_XOR: *r = a ^ b; return true;
  case B_SHL: {
    uint64_t s = b & m;
    *r = s >= (uint64_t)bits ? 0 : a << s;
    return true;
  }
  case B_SHRA: {
    uint64_t s = b & m;
    int64_t v = sext_bits(a, bits);
    *r = (uint64_t)(s >= (uint64_t)bits ? (v < 0 ? -1 : 0) : asr64(v, (int)s));
    return true;
  }
  case B_SHRL: {
    uint64_t s = b & m;
    *r = s >= (uint64_t)bits ? 0 : (a & m) >> s;
    return true;
  }
  case B_MULHI:
    if (bits <= 32) {
      /* the double-width product fits in 64 bits */
      if (sgn)
        *r = (uint64_t)asr64(sa * sb, bits);
      else
        *r = ((a & m) * (b & m)) >> bits;
    } else {
      uint64_t h = umulhi64(a, b);
      if (sgn) {
        if (sa < 0) h -= b;
        if (sb < 0) h -= a;
      }
      *r = h;
    }
    return true;
  default: return false;
  }
}

static bool bin_pred(BinOp k, bool a, bool b, bool *r) {
  switch (k) {
  case B_AND: case B_MUL: case B_MIN: *r = a && b; return true;
  case B_OR: case B_ADD: case B_MAX: *r = a || b; return true;
  case B_XOR: *r = a != b; return true;
  default: return false;
  }
}

static bool bin_supported(BinOp k, ElemType et) {
  switch (et_class(et)) {
  case EC_FLOAT: { double r; return bin_float(k, 1, 1, &r); }
  case EC_COMPLEX: { double complex r; return bin_complex(k, 1, 1, &r); }
  case EC_SINT:
  case EC_UINT: { uint64_t r; return bin_int(k, 1, 1, 8, false, &r); }
  case EC_PRED: { bool r; return bin_pred(k, true, true, &r); }
  default: return false;
  }
}

#define LOOP2(T, EXPR)                                        \
  do {                                                        \
    const T *xa = a->data, *xb = b->data;                     \
    T *xo = out->data;                                        \
    for (int64_t i = 0; i < n; i++) {                         \
      T p = xa[i], q = xb[i];                                 \
      xo[i] = (EXPR);                                         \
    }                                                         \
  } while (0)

/* Tight loops for the common plain types; returns false to fall back. */
static bool bin_fast(BinOp k, const Literal *a, const Literal *b, Literal *out) {
  int64_t n = out->n;
  switch (out->type->elem) {
  case ET_F32:
    switch (k) {
    case B_ADD: LOOP2(float, p + q); return true;
    case B_SUB: LOOP2(float, p - q); return true;
    case B_MUL: LOOP2(float, p * q); return true;
    case B_DIV: LOOP2(float, p / q); return true;
    case B_MAX: LOOP2(float, fmaxf_nan(p, q)); return true;
    case B_MIN: LOOP2(float, fminf_nan(p, q)); return true;
    default: return false;
    }
  case ET_F64:
    switch (k) {
    case B_ADD: LOOP2(double, p + q); return true;
    case B_SUB: LOOP2(double, p - q); return true;
    case B_MUL: LOOP2(double, p * q); return true;
    case B_DIV: LOOP2(double, p / q); return true;
    case B_MAX: LOOP2(double, fmax_nan(p, q)); return true;
    case B_MIN: LOOP2(double, fmin_nan(p, q)); return true;
    default: return false;
    }
  case ET_S32:
    switch (k) {
    case B_ADD: LOOP2(int32_t, (int32_t)((uint32_t)p + (uint32_t)q)); return true;
    case B_SUB: LOOP2(int32_t, (int32_t)((uint32_t)p - (uint32_t)q)); return true;
    case B_MUL: LOOP2(int32_t, (int32_t)((uint32_t)p * (uint32_t)q)); return true;
    case B_MAX: LOOP2(int32_t, p > q ? p : q); return true;
    case B_MIN: LOOP2(int32_t, p < q ? p : q); return true;
    default: return false;
    }
  case ET_S64:
    switch (k) {
    case B_ADD: LOOP2(int64_t, (int64_t)((uint64_t)p + (uint64_t)q)); return true;
    case B_SUB: LOOP2(int64_t, (int64_t)((uint64_t)p - (uint64_t)q)); return true;
    case B_MUL: LOOP2(int64_t, (int64_t)((uint64_t)p * (uint64_t)q)); return true;
    case B_MAX: LOOP2(int64_t, p > q ? p : q); return true;
    case B_MIN: LOOP2(int64_t, p < q ? p : q); return true;
    default: return false;
    }
  default: return false;
  }
}

/* out = a (k) b elementwise; a, b and out have the same element count.  a
   and b share an element type; out has the same type. */
static bool bin_apply(Interp *I, Op *op, BinOp k, const Literal *a, const Literal *b,
                      Literal *out) {
  ElemType et = a->type->elem;
  if (b->type->elem != et || out->type->elem != et)
    return interp_error(I, op, "operand and result element types differ (%s, %s -> %s)",
                        et_name(et), et_name(b->type->elem), et_name(out->type->elem));
  if (!check_count(I, op, a, out->n, 0) || !check_count(I, op, b, out->n, 1)) return false;
  if (!bin_supported(k, et)) return bad_type(I, op, et);
  if (bin_fast(k, a, b, out)) return true;
  int64_t n = out->n;
  switch (et_class(et)) {
  case EC_FLOAT:
    for (int64_t i = 0; i < n; i++) {
      double r = 0;
      bin_float(k, lit_get_f(a, i), lit_get_f(b, i), &r);
      lit_set_f(out, i, r);
    }
    return true;
  case EC_COMPLEX:
    for (int64_t i = 0; i < n; i++) {
      double ar, ai, br, bi;
      lit_get_c(a, i, &ar, &ai);
      lit_get_c(b, i, &br, &bi);
      double complex r = 0;
      bin_complex(k, cplx_make(ar, ai), cplx_make(br, bi), &r);
      lit_set_c(out, i, creal(r), cimag(r));
    }
    return true;
  case EC_SINT:
  case EC_UINT: {
    int bits = et_bits(et);
    bool sgn = et_is_signed(et);
    for (int64_t i = 0; i < n; i++) {
      uint64_t r = 0;
      bin_int(k, lit_get_u(a, i), lit_get_u(b, i), bits, sgn, &r);
      lit_set_u(out, i, r);
    }
    return true;
  }
  case EC_PRED:
    for (int64_t i = 0; i < n; i++) {
      bool r = false;
      bin_pred(k, lit_get_b(a, i), lit_get_b(b, i), &r);
      lit_set_b(out, i, r);
    }
    return true;
  default: return bad_type(I, op, et);
  }
}

static bool binary(Interp *I, Op *op, IVal **args, IVal **res, BinOp k) {
  if (!check_tensors(I, op, args, 2)) return false;
  Literal *out = lit_new(op->res[0].type);
  if (!bin_apply(I, op, k, ARG_LIT(0), ARG_LIT(1), out)) {
    lit_free(out);
    return false;
  }
  res[0] = ival_tensor(out);
  return true;
}

bool interp_ADD(Interp *I, Op *op, IVal **args, IVal **res) { return binary(I, op, args, res, B_ADD); }
bool interp_SUBTRACT(Interp *I, Op *op, IVal **args, IVal **res) { return binary(I, op, args, res, B_SUB); }
bool interp_MULTIPLY(Interp *I, Op *op, IVal **args, IVal **res) { return binary(I, op, args, res, B_MUL); }
bool interp_DIVIDE(Interp *I, Op *op, IVal **args, IVal **res) { return binary(I, op, args, res, B_DIV); }
bool interp_REMAINDER(Interp *I, Op *op, IVal **args, IVal **res) { return binary(I, op, args, res, B_REM); }
bool interp_MAXIMUM(Interp *I, Op *op, IVal **args, IVal **res) { return binary(I, op, args, res, B_MAX); }
bool interp_MINIMUM(Interp *I, Op *op, IVal **args, IVal **res) { return binary(I, op, args, res, B_MIN); }
bool interp_POWER(Interp *I, Op *op, IVal **args, IVal **res) { return binary(I, op, args, res, B_POW); }
bool interp_AND(Interp *I, Op *op, IVal **args, IVal **res) { return binary(I, op, args, res, B_AND); }
bool interp_OR(Interp *I, Op *op, IVal **args, IVal **res) { return binary(I, op, args, res, B_OR); }
bool interp_XOR(Interp *I, Op *op, IVal **args, IVal **res) { return binary(I, op, args, res, B_XOR); }
bool interp_SHIFT_LEFT(Interp *I, Op *op, IVal **args, IVal **res) { return binary(I, op, args, res, B_SHL); }
bool interp_SHIFT_RIGHT_ARITHMETIC(Interp *I, Op *op, IVal **args, IVal **res) { return binary(I, op, args, res, B_SHRA); }
bool interp_SHIFT_RIGHT_LOGICAL(Interp *I, Op *op, IVal **args, IVal **res) { return binary(I, op, args, res, B_SHRL); }
bool interp_ATAN2(Interp *I, Op *op, IVal **args, IVal **res) { return binary(I, op, args, res, B_ATAN2); }
bool interp_CHLO_MULHI(Interp *I, Op *op, IVal **args, IVal **res) { return binary(I, op, args, res, B_MULHI); }

/* ---- compare ---- */
typedef enum { CMP_EQ, CMP_NE, CMP_GE, CMP_GT, CMP_LE, CMP_LT } CmpDir;
typedef enum { CT_DEFAULT, CT_FLOAT, CT_TOTALORDER, CT_SIGNED, CT_UNSIGNED } CmpType;

/* Three-way result: -1, 0, 1, or 2 for unordered (a NaN under FLOAT). */
static bool cmp_holds(CmpDir d, int c) {
  switch (d) {
  case CMP_EQ: return c == 0;
  case CMP_NE: return c != 0;
  case CMP_GE: return c == 0 || c == 1;
  case CMP_GT: return c == 1;
  case CMP_LE: return c == 0 || c == -1;
  case CMP_LT: return c == -1;
  }
  return false;
}

static int cmp3_i(int64_t a, int64_t b) { return a < b ? -1 : a > b ? 1 : 0; }
static int cmp3_u(uint64_t a, uint64_t b) { return a < b ? -1 : a > b ? 1 : 0; }
static int cmp3_f(double a, double b) {
  if (isnan(a) || isnan(b)) return 2;
  return a < b ? -1 : a > b ? 1 : 0;
}

/* IEEE totalOrder as an integer key: negative values flip so that
   -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN.  A format without a
   sign bit (f8E8M0FNU: an exponent alone) orders as its bits. */
static int64_t total_key(uint64_t bits, int width) {
  if (width < 0) return (int64_t)(bits & width_mask(-width));
  uint64_t mag = bits & width_mask(width - 1);
  bool neg = (bits >> (width - 1)) & 1;
  return neg ? -(int64_t)mag - 1 : (int64_t)mag;
}

/* Bits of one part of a complex number, stored as f32 (w = 32) or f64. */
static uint64_t part_bits(double d, int w) {
  if (w == 64) {
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
  }
  float f = (float)d;
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}

static bool parse_cmp(Interp *I, Op *op, ElemType et, CmpDir *dir, CmpType *ct) {
  static const char *const dirs[] = {"EQ", "NE", "GE", "GT", "LE", "LT"};
  const char *d = op_attr_str(op, "comparison_direction");
  if (!d) return interp_error(I, op, "missing comparison_direction");
  int k = -1;
  for (int i = 0; i < 6; i++)
    if (strcmp(d, dirs[i]) == 0) k = i;
  if (k < 0) return interp_error(I, op, "unknown comparison_direction '%s'", d);
  *dir = (CmpDir)k;
  const char *t = op_attr_str(op, "compare_type");
  *ct = CT_DEFAULT;
  if (t && strcmp(t, "NOTYPE") != 0) {
    if (strcmp(t, "FLOAT") == 0) *ct = CT_FLOAT;
    else if (strcmp(t, "TOTALORDER") == 0) *ct = CT_TOTALORDER;
    else if (strcmp(t, "SIGNED") == 0) *ct = CT_SIGNED;
    else if (strcmp(t, "UNSIGNED") == 0) *ct = CT_UNSIGNED;
    else return interp_error(I, op, "unknown compare_type '%s'", t);
  }
  if (*ct == CT_DEFAULT || (et_is_fp(et) && *ct != CT_TOTALORDER))
    *ct = et_is_fp(et) ? CT_FLOAT : et_is_signed(et) ? CT_SIGNED : CT_UNSIGNED;
  if (!et_is_fp(et) && (*ct == CT_FLOAT || *ct == CT_TOTALORDER))
    *ct = et_is_signed(et) ? CT_SIGNED : CT_UNSIGNED;
  return true;
}

static bool cmp_apply(Interp *I, Op *op, const Literal *a, const Literal *b, Literal *out) {
  ElemType et = a->type->elem;
  if (b->type->elem != et)
    return interp_error(I, op, "compare operands have different element types (%s, %s)",
                        et_name(et), et_name(b->type->elem));
  if (!et_is_pred(out->type->elem)) return interp_error(I, op, "compare result must be i1");
  if (!check_count(I, op, a, out->n, 0) || !check_count(I, op, b, out->n, 1)) return false;
  CmpDir dir = CMP_EQ;
  CmpType ct = CT_DEFAULT;
  if (!parse_cmp(I, op, et, &dir, &ct)) return false;
  int64_t n = out->n;
  uint8_t *o = out->data;
  int bits = et_bits(et);
  bool unsigned_float = et == ET_F8E8M0FNU;
  for (int64_t i = 0; i < n; i++) {
    int c;
    if (et_is_complex(et)) {
      double ar, ai, br, bi;
      lit_get_c(a, i, &ar, &ai);
      lit_get_c(b, i, &br, &bi);
      if (ct == CT_TOTALORDER) {
        int w = et == ET_C128 ? 64 : 32;
        c = cmp3_i(total_key(part_bits(ar, w), w), total_key(part_bits(br, w), w));
        if (c == 0) c = cmp3_i(total_key(part_bits(ai, w), w), total_key(part_bits(bi, w), w));
      } else {
        c = cmp3_f(ar, br);
        if (c == 0) c = cmp3_f(ai, bi);
      }
    } else if (et_is_float(et)) {
      if (ct == CT_TOTALORDER)
        c = cmp3_i(total_key(lit_get_bits(a, i), unsigned_float ? -bits : bits),
                   total_key(lit_get_bits(b, i), unsigned_float ? -bits : bits));
      else
        c = cmp3_f(lit_get_f(a, i), lit_get_f(b, i));
    } else if (ct == CT_SIGNED) {
      c = cmp3_i(sext_bits(lit_get_bits(a, i), bits), sext_bits(lit_get_bits(b, i), bits));
    } else {
      c = cmp3_u(lit_get_bits(a, i) & width_mask(bits), lit_get_bits(b, i) & width_mask(bits));
    }
    o[i] = cmp_holds(dir, c);
  }
  return true;
}

bool interp_COMPARE(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!check_tensors(I, op, args, 2)) return false;
  Literal *out = lit_new(op->res[0].type);
  if (!cmp_apply(I, op, ARG_LIT(0), ARG_LIT(1), out)) {
    lit_free(out);
    return false;
  }
  res[0] = ival_tensor(out);
  return true;
}

/* ---- select / clamp ---- */
static bool select_apply(Interp *I, Op *op, const Literal *p, const Literal *t, const Literal *f,
                         Literal *out) {
  if (!et_is_pred(p->type->elem)) return interp_error(I, op, "select predicate must be i1");
  if (t->type->elem != out->type->elem || f->type->elem != out->type->elem)
    return interp_error(I, op, "select branches and result must have the same element type");
  if (!check_count(I, op, t, out->n, 1) || !check_count(I, op, f, out->n, 2)) return false;
  bool scalar = p->type->rank == 0;
  if (!scalar && !check_count(I, op, p, out->n, 0)) return false;
  const uint8_t *pv = p->data;
  for (int64_t i = 0; i < out->n; i++) {
    bool c = pv[scalar ? 0 : i] != 0;
    lit_copy_elem(out, i, c ? t : f, i);
  }
  return true;
}

bool interp_SELECT(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!check_tensors(I, op, args, 3)) return false;
  Literal *out = lit_new(op->res[0].type);
  if (!select_apply(I, op, ARG_LIT(0), ARG_LIT(1), ARG_LIT(2), out)) {
    lit_free(out);
    return false;
  }
  res[0] = ival_tensor(out);
  return true;
}

/* A scalar operand stretched to `like`'s shape (or a clone if it already has
   that many elements). */
static Literal *splat_like(const Literal *x, const Literal *like) {
  Literal *r = lit_new(like->type);
  if (x->n == like->n) {
    if (x->n) memcpy(r->data, x->data, (size_t)x->n * (size_t)et_bytes(x->type->elem));
  } else {
    for (int64_t i = 0; i < r->n; i++) lit_copy_elem(r, i, x, 0);
  }
  return r;
}

bool interp_CLAMP(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!check_tensors(I, op, args, 3)) return false;
  const Literal *mn = ARG_LIT(0), *x = ARG_LIT(1), *mx = ARG_LIT(2);
  if (mn->type->elem != x->type->elem || mx->type->elem != x->type->elem)
    return interp_error(I, op, "clamp operands must have the same element type");
  if ((mn->n != 1 && mn->n != x->n) || (mx->n != 1 && mx->n != x->n))
    return interp_error(I, op, "clamp bounds must be scalars or match the operand's shape");
  Literal *lo = splat_like(mn, x), *hi = splat_like(mx, x);
  Literal *tmp = lit_new(x->type), *out = lit_new(op->res[0].type);
  /* clamp = minimum(maximum(operand, min), max), NaN rules included */
  bool ok = bin_apply(I, op, B_MAX, x, lo, tmp) && bin_apply(I, op, B_MIN, tmp, hi, out);
  lit_free(lo);
  lit_free(hi);
  lit_free(tmp);
  if (!ok) {
    lit_free(out);
    return false;
  }
  res[0] = ival_tensor(out);
  return true;
}

/* ---- conversions ---- */
static bool convert_apply(Interp *I, Op *op, const Literal *in, Literal *out) {
  ElemType from = in->type->elem, to = out->type->elem;
  if (!check_count(I, op, in, out->n, 0)) return false;
  int64_t n = out->n;
  if (from == to) {
    if (n) memcpy(out->data, in->data, (size_t)n * (size_t)et_bytes(from));
    return true;
  }
  ElemClass fc = et_class(from), tc = et_class(to);
  if (fc == EC_NONE || tc == EC_NONE) return bad_type(I, op, fc == EC_NONE ? from : to);
  bool fsgn = fc == EC_SINT || fc == EC_PRED;
  for (int64_t i = 0; i < n; i++) {
    switch (tc) {
    case EC_PRED: {
      bool v;
      if (fc == EC_FLOAT || fc == EC_COMPLEX)
        v = lit_get_f(in, i) != 0; /* real part; NaN is non-zero */
      else
        v = lit_get_bits(in, i) != 0;
      lit_set_b(out, i, v);
      break;
    }
    case EC_SINT:
    case EC_UINT:
      if (fc == EC_FLOAT || fc == EC_COMPLEX)
        lit_set_u(out, i, double_to_int_sat(lit_get_f(in, i), et_bits(to), tc == EC_SINT));
      else
        lit_set_u(out, i, lit_get_u(in, i)); /* wraps to the destination width */
      break;
    case EC_FLOAT:
      if (fc == EC_FLOAT || fc == EC_COMPLEX)
        lit_set_f(out, i, lit_get_f(in, i));
      else
        lit_set_f(out, i, int_to_double(lit_get_u(in, i), fsgn, to != ET_F64));
      break;
    case EC_COMPLEX:
      if (fc == EC_COMPLEX) {
        double re, im;
        lit_get_c(in, i, &re, &im);
        lit_set_c(out, i, re, im);
      } else if (fc == EC_FLOAT) {
        lit_set_c(out, i, lit_get_f(in, i), 0);
      } else {
        /* round-to-odd only matters for the f32 parts of complex<f32> */
        lit_set_c(out, i, int_to_double(lit_get_u(in, i), fsgn, to != ET_C128), 0);
      }
      break;
    default: return bad_type(I, op, to);
    }
  }
  return true;
}

bool interp_CONVERT(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!check_tensors(I, op, args, 1)) return false;
  Literal *out = lit_new(op->res[0].type);
  if (!convert_apply(I, op, ARG_LIT(0), out)) {
    lit_free(out);
    return false;
  }
  res[0] = ival_tensor(out);
  return true;
}

/* Bits of element i as a little-endian 128-bit number (lo, hi).  Complex
   values are the real part's bits followed by the imaginary part's. */
static void elem_bits(const Literal *l, int64_t i, uint64_t *lo, uint64_t *hi) {
  ElemType et = l->type->elem;
  *hi = 0;
  if (et == ET_C64) {
    const uint32_t *p = lit_ptr(l, i);
    *lo = (uint64_t)p[0] | ((uint64_t)p[1] << 32);
  } else if (et == ET_C128) {
    const uint64_t *p = lit_ptr(l, i);
    *lo = p[0];
    *hi = p[1];
  } else {
    *lo = lit_get_bits(l, i) & width_mask(et_bits(et));
  }
}

static void set_elem_bits(Literal *l, int64_t i, uint64_t lo, uint64_t hi) {
  ElemType et = l->type->elem;
  if (et == ET_C64) {
    uint32_t *p = lit_ptr(l, i);
    p[0] = (uint32_t)lo;
    p[1] = (uint32_t)(lo >> 32);
  } else if (et == ET_C128) {
    uint64_t *p = lit_ptr(l, i);
    p[0] = lo;
    p[1] = hi;
  } else if (et_is_signed(et)) {
    /* narrow signed ints are stored sign-extended */
    lit_set_bits(l, i, (uint64_t)sext_bits(lo, et_bits(et)));
  } else {
    lit_set_bits(l, i, lo & width_mask(et_bits(et)));
  }
}

/* Bits [pos, pos + w) of a 128-bit number, w <= 64. */
static uint64_t bits_at(uint64_t lo, uint64_t hi, int pos, int w) {
  uint64_t v;
  if (pos >= 64)
    v = hi >> (pos - 64);
  else if (pos == 0)
    v = lo;
  else
    v = (lo >> pos) | (hi << (64 - pos));
  return v & width_mask(w);
}

static void put_bits(uint64_t *lo, uint64_t *hi, int pos, uint64_t v) {
  if (pos >= 64) {
    *hi |= v << (pos - 64);
  } else {
    *lo |= v << pos;
    if (pos > 0) *hi |= v >> (64 - pos);
  }
}

bool interp_BITCAST_CONVERT(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!args[0] || args[0]->kind != IV_TENSOR) return interp_error(I, op, "operand must be a tensor");
  if (op->nres < 1 || op->res[0].type->kind != TY_TENSOR)
    return interp_error(I, op, "result must be a tensor");
  const Literal *in = ARG_LIT(0);
  Literal *out = lit_new(op->res[0].type);
  int wi = et_bits(in->type->elem), wo = et_bits(out->type->elem);
  bool ok = wi > 0 && wo > 0;
  if (ok && wi == wo) {
    ok = in->n == out->n;
    for (int64_t i = 0; ok && i < out->n; i++) {
      uint64_t lo, hi;
      elem_bits(in, i, &lo, &hi);
      set_elem_bits(out, i, lo, hi);
    }
  } else if (ok && wi > wo) {
    int k = wi / wo;
    ok = wi % wo == 0 && in->n * k == out->n;
    for (int64_t i = 0; ok && i < in->n; i++) {
      uint64_t lo, hi;
      elem_bits(in, i, &lo, &hi);
      for (int j = 0; j < k; j++) {
        uint64_t plo = 0, phi = 0;
        if (wo > 64) { /* only complex<f64> is wider, and it is never the narrower side */
          ok = false;
          break;
        }
        plo = bits_at(lo, hi, j * wo, wo);
        set_elem_bits(out, i * k + j, plo, phi);
      }
    }
  } else if (ok) {
    int k = wo / wi;
    ok = wo % wi == 0 && out->n * k == in->n && wi <= 64;
    for (int64_t i = 0; ok && i < out->n; i++) {
      uint64_t lo = 0, hi = 0;
      for (int j = 0; j < k; j++) {
        uint64_t plo, phi;
        elem_bits(in, i * k + j, &plo, &phi);
        put_bits(&lo, &hi, j * wi, plo);
      }
      set_elem_bits(out, i, lo, hi);
    }
  }
  if (!ok) {
    char *ti = type_str(in->type), *to = type_str(out->type);
    interp_error(I, op, "cannot bitcast %s to %s", ti, to);
    xfree(ti);
    xfree(to);
    lit_free(out);
    return false;
  }
  res[0] = ival_tensor(out);
  return true;
}

/* ---- reduce_precision ---- */

/* Rounds an IEEE value with (se, sm) exponent/mantissa bits, given as raw
   bits, to e exponent and m mantissa bits: round the mantissa to nearest
   even, then overflow to inf or flush to zero (denormals of the narrow format
   included) by exponent range. */
static uint64_t reduce_bits(uint64_t v, int se, int sm, int e, int m) {
  int w = 1 + se + sm;
  uint64_t sign = 1ull << (w - 1);
  uint64_t emask = width_mask(se) << sm;
  uint64_t mmask = width_mask(sm);
  if ((v & emask) == emask && (v & mmask)) {
    /* NaN stays NaN unless no mantissa bits are left to spell it */
    return m > 0 ? v : (v & sign) | emask;
  }
  if (m < sm) {
    uint64_t last = 1ull << (sm - m);
    uint64_t bias = (last >> 1) - 1 + ((v & last) ? 1 : 0);
    uint64_t mag = ((v & ~sign) + bias) & ~(last - 1);
    v = (v & sign) | mag; /* a carry out of the mantissa bumps the exponent */
  }
  if (e < se) {
    uint64_t ebias = width_mask(se - 1), rbias = width_mask(e - 1);
    uint64_t maxe = ebias + rbias, mine = ebias - rbias;
    uint64_t ex = v & emask;
    if (ex > (maxe << sm))
      v = (v & sign) | emask;
    else if (ex <= (mine << sm))
      v = v & sign;
  }
  return v;
}

bool interp_REDUCE_PRECISION(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!check_tensors(I, op, args, 1)) return false;
  const Literal *in = ARG_LIT(0);
  ElemType et = in->type->elem;
  if (!et_is_float(et)) return bad_type(I, op, et);
  int64_t e = op_attr_int(op, "exponent_bits", -1), m = op_attr_int(op, "mantissa_bits", -1);
  if (e < 1 || m < 0)
    return interp_error(I, op, "reduce_precision needs exponent_bits >= 1 and mantissa_bits >= 0");
  if (e > 11) e = 11;
  if (m > 52) m = 52;
  Literal *out = lit_new(op->res[0].type);
  bool same = out->type->elem == et;
  if (!same || !check_count(I, op, in, out->n, 0)) {
    lit_free(out);
    return same ? false : bad_type(I, op, et);
  }
  int se = 0, sm = 0;
  switch (et) {
  case ET_F16: se = 5, sm = 10; break;
  case ET_BF16: se = 8, sm = 7; break;
  case ET_F32: se = 8, sm = 23; break;
  case ET_F64: se = 11, sm = 52; break;
  default: break;
  }
  for (int64_t i = 0; i < in->n; i++) {
    if (se) {
      int ee = e < se ? (int)e : se, mm = m < sm ? (int)m : sm;
      lit_set_bits(out, i, reduce_bits(lit_get_bits(in, i), se, sm, ee, mm));
    } else {
      /* the small formats go through f64, which holds all their values */
      double d = lit_get_f(in, i);
      uint64_t b = reduce_bits(part_bits(d, 64), 11, 52, (int)e, (int)m);
      double r;
      memcpy(&r, &b, 8);
      lit_set_f(out, i, r);
    }
  }
  res[0] = ival_tensor(out);
  return true;
}

/* ---- unary math ---- */
typedef double (*RealFn)(double);
typedef double complex (*CplxFn)(double complex);

/* out = f(in) for float types, c(in) for complex ones (NULL: unsupported).
   The result has the operand's element type. */
static bool unary_fp(Interp *I, Op *op, IVal **args, IVal **res, RealFn f, CplxFn c) {
  if (!check_tensors(I, op, args, 1)) return false;
  const Literal *in = ARG_LIT(0);
  ElemType et = in->type->elem;
  if (!((et_is_float(et) && f) || (et_is_complex(et) && c))) return bad_type(I, op, et);
  Literal *out = lit_new(op->res[0].type);
  if (out->type->elem != et) {
    lit_free(out);
    return interp_error(I, op, "result element type %s differs from the operand's %s",
                        et_name(op->res[0].type->elem), et_name(et));
  }
  if (!check_count(I, op, in, out->n, 0)) {
    lit_free(out);
    return false;
  }
  int64_t n = in->n;
  if (et == ET_F32) {
    const float *x = in->data;
    float *y = out->data;
    for (int64_t i = 0; i < n; i++) y[i] = (float)f(x[i]);
  } else if (et == ET_F64) {
    const double *x = in->data;
    double *y = out->data;
    for (int64_t i = 0; i < n; i++) y[i] = f(x[i]);
  } else if (et_is_float(et)) {
    for (int64_t i = 0; i < n; i++) lit_set_f(out, i, f(lit_get_f(in, i)));
  } else {
    for (int64_t i = 0; i < n; i++) {
      double re, im;
      lit_get_c(in, i, &re, &im);
      double complex r = c(cplx_make(re, im));
      lit_set_c(out, i, creal(r), cimag(r));
    }
  }
  res[0] = ival_tensor(out);
  return true;
}

typedef uint64_t (*IntFn)(uint64_t v, int bits, bool sgn);

/* Integer (and optionally pred) unary ops; floats go to unary_fp. */
static bool unary_any(Interp *I, Op *op, IVal **args, IVal **res, IntFn g, bool pred_ok, RealFn f,
                      CplxFn c) {
  if (!check_tensors(I, op, args, 1)) return false;
  const Literal *in = ARG_LIT(0);
  ElemType et = in->type->elem;
  if (et_is_fp(et)) return unary_fp(I, op, args, res, f, c);
  if (!g || (et_is_pred(et) && !pred_ok) || et_class(et) == EC_NONE) return bad_type(I, op, et);
  Literal *out = lit_new(op->res[0].type);
  if (out->type->elem != et || !check_count(I, op, in, out->n, 0)) {
    bool same = out->type->elem == et;
    lit_free(out);
    return same ? false : bad_type(I, op, et);
  }
  int bits = et_bits(et);
  bool sgn = et_is_signed(et);
  for (int64_t i = 0; i < in->n; i++) {
    uint64_t v = sgn ? (uint64_t)sext_bits(lit_get_bits(in, i), bits) : lit_get_bits(in, i);
    uint64_t r = g(v, bits, sgn);
    if (et_is_pred(et))
      lit_set_b(out, i, (r & 1) != 0);
    else
      lit_set_u(out, i, r);
  }
  res[0] = ival_tensor(out);
  return true;
}

static double f_neg(double x) { return -x; }
static double complex c_neg(double complex z) { return -z; }
static uint64_t i_neg(uint64_t v, int bits, bool sgn) { return 0 - v; }

static double f_abs(double x) { return fabs(x); }
static uint64_t i_abs(uint64_t v, int bits, bool sgn) {
  return (sgn && (int64_t)v < 0) ? 0 - v : v; /* INT_MIN stays INT_MIN */
}

static double f_sign(double x) {
  if (isnan(x) || x == 0) return x;
  return x < 0 ? -1.0 : 1.0;
}
static double complex c_sign(double complex z) {
  double re = creal(z), im = cimag(z);
  if (isnan(re) || isnan(im)) return cplx_make(NAN, NAN);
  if (re == 0 && im == 0) return cplx_make(0.0, 0.0);
  double a = cabs(z);
  return cplx_make(re / a, im / a);
}
static uint64_t i_sign(uint64_t v, int bits, bool sgn) {
  if (v == 0) return 0;
  return (sgn && (int64_t)v < 0) ? ~0ull : 1;
}

static uint64_t i_not(uint64_t v, int bits, bool sgn) { return ~v; }
static uint64_t i_popcnt(uint64_t v, int bits, bool sgn) {
  return (uint64_t)__builtin_popcountll(v & width_mask(bits));
}
static uint64_t i_clz(uint64_t v, int bits, bool sgn) {
  v &= width_mask(bits);
  if (v == 0) return (uint64_t)bits;
  return (uint64_t)(__builtin_clzll(v) - (64 - bits));
}
static uint64_t i_square(uint64_t v, int bits, bool sgn) { return v * v; }
static double f_square(double x) { return x * x; }
static double complex c_square(double complex z) { return z * z; }

static double f_logistic(double x) {
  /* each branch only exponentiates a non-positive number, so no overflow */
  if (x >= 0) return 1.0 / (1.0 + exp(-x));
  double e = exp(x);
  return e / (1.0 + e);
}
static double complex c_logistic(double complex z) { return 1.0 / (1.0 + cexp(-z)); }

static double f_rsqrt(double x) { return 1.0 / sqrt(x); }
static double complex c_rsqrt(double complex z) { return 1.0 / csqrt(z); }

static double complex c_expm1(double complex z) {
  /* exp(x)cos(y) - 1 = expm1(x)cos(y) - 2 sin^2(y/2), accurate near 0 */
  double x = creal(z), y = cimag(z);
  double s = sin(y / 2);
  double re = expm1(x) * cos(y) - 2 * s * s;
  double im = exp(x) * sin(y);
  if (y == 0) im = y; /* keep exact zero (and its sign) for real inputs */
  return cplx_make(re, im);
}

static double complex c_log1p(double complex z) {
  /* |1+z|^2 = 1 + (2x + x^2 + y^2) keeps the small part for log1p */
  double x = creal(z), y = cimag(z);
  double t = 2 * x + x * x + y * y;
  double re = (fabs(t) < 0.5) ? 0.5 * log1p(t) : log(cabs(1.0 + z));
  return cplx_make(re, atan2(y, 1.0 + x));
}

/* principal cube root; 0 has no logarithm but is its own cube root */
static double complex c_cbrt(double complex z) {
  if (creal(z) == 0 && cimag(z) == 0) return z;
  return cexp(clog(z) / 3.0);
}

static double round_even(double x) {
  double r = round(x);
  if (fabs(r - x) == 0.5) r = 2.0 * round(x / 2.0);
  return r;
}

static double complex c_conj(double complex z) { return conj(z); }
static double f_ident(double x) { return x; }

bool interp_NEGATE(Interp *I, Op *op, IVal **args, IVal **res) { return unary_any(I, op, args, res, i_neg, false, f_neg, c_neg); }
bool interp_SIGN(Interp *I, Op *op, IVal **args, IVal **res) { return unary_any(I, op, args, res, i_sign, false, f_sign, c_sign); }
bool interp_NOT(Interp *I, Op *op, IVal **args, IVal **res) { return unary_any(I, op, args, res, i_not, true, NULL, NULL); }
bool interp_POPCNT(Interp *I, Op *op, IVal **args, IVal **res) { return unary_any(I, op, args, res, i_popcnt, false, NULL, NULL); }
bool interp_COUNT_LEADING_ZEROS(Interp *I, Op *op, IVal **args, IVal **res) { return unary_any(I, op, args, res, i_clz, false, NULL, NULL); }
bool interp_CHLO_SQUARE(Interp *I, Op *op, IVal **args, IVal **res) { return unary_any(I, op, args, res, i_square, false, f_square, c_square); }

bool interp_EXPONENTIAL(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, exp, cexp); }
bool interp_EXPONENTIAL_MINUS_ONE(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, expm1, c_expm1); }
bool interp_LOG(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, log, clog); }
bool interp_LOG_PLUS_ONE(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, log1p, c_log1p); }
bool interp_LOGISTIC(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, f_logistic, c_logistic); }
bool interp_SQRT(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, sqrt, csqrt); }
bool interp_RSQRT(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, f_rsqrt, c_rsqrt); }
bool interp_CBRT(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, cbrt, c_cbrt); }
bool interp_SINE(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, sin, csin); }
bool interp_COSINE(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, cos, ccos); }
bool interp_TAN(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, tan, ctan); }
bool interp_TANH(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, tanh, ctanh); }
bool interp_FLOOR(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, floor, NULL); }
bool interp_CEIL(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, ceil, NULL); }
bool interp_ROUND_NEAREST_AFZ(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, round, NULL); }
bool interp_ROUND_NEAREST_EVEN(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, round_even, NULL); }

bool interp_CHLO_ACOS(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, acos, cacos); }
bool interp_CHLO_ACOSH(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, acosh, cacosh); }
bool interp_CHLO_ASIN(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, asin, casin); }
bool interp_CHLO_ASINH(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, asinh, casinh); }
bool interp_CHLO_ATAN(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, atan, catan); }
bool interp_CHLO_ATANH(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, atanh, catanh); }
bool interp_CHLO_COSH(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, cosh, ccosh); }
bool interp_CHLO_SINH(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, sinh, csinh); }
bool interp_CHLO_TAN(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, tan, ctan); }
bool interp_CHLO_CONJ(Interp *I, Op *op, IVal **args, IVal **res) { return unary_fp(I, op, args, res, f_ident, c_conj); }

/* abs of a complex number is real: the result type drops to the part type */
bool interp_ABS(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!check_tensors(I, op, args, 1)) return false;
  const Literal *in = ARG_LIT(0);
  if (!et_is_complex(in->type->elem)) return unary_any(I, op, args, res, i_abs, false, f_abs, NULL);
  Literal *out = lit_new(op->res[0].type);
  if (out->type->elem != et_real_part(in->type->elem) || !check_count(I, op, in, out->n, 0)) {
    lit_free(out);
    return interp_error(I, op, "abs of %s must produce %s elements", et_name(in->type->elem),
                        et_name(et_real_part(in->type->elem)));
  }
  for (int64_t i = 0; i < in->n; i++) {
    double re, im;
    lit_get_c(in, i, &re, &im);
    lit_set_f(out, i, hypot(re, im));
  }
  res[0] = ival_tensor(out);
  return true;
}

/* float -> pred classification ops */
typedef enum { FC_FINITE, FC_INF, FC_POSINF, FC_NEGINF } FloatClass;

static bool classify(Interp *I, Op *op, IVal **args, IVal **res, FloatClass k) {
  if (!check_tensors(I, op, args, 1)) return false;
  const Literal *in = ARG_LIT(0);
  if (!et_is_float(in->type->elem)) return bad_type(I, op, in->type->elem);
  Literal *out = lit_new(op->res[0].type);
  if (!et_is_pred(out->type->elem) || !check_count(I, op, in, out->n, 0)) {
    lit_free(out);
    return interp_error(I, op, "result must be an i1 tensor of the operand's shape");
  }
  uint8_t *o = out->data;
  for (int64_t i = 0; i < in->n; i++) {
    double x = lit_get_f(in, i);
    switch (k) {
    case FC_FINITE: o[i] = isfinite(x); break;
    case FC_INF: o[i] = isinf(x) != 0; break;
    case FC_POSINF: o[i] = isinf(x) && x > 0; break;
    case FC_NEGINF: o[i] = isinf(x) && x < 0; break;
    }
  }
  res[0] = ival_tensor(out);
  return true;
}

bool interp_IS_FINITE(Interp *I, Op *op, IVal **args, IVal **res) { return classify(I, op, args, res, FC_FINITE); }
bool interp_CHLO_IS_INF(Interp *I, Op *op, IVal **args, IVal **res) { return classify(I, op, args, res, FC_INF); }
bool interp_CHLO_IS_POS_INF(Interp *I, Op *op, IVal **args, IVal **res) { return classify(I, op, args, res, FC_POSINF); }
bool interp_CHLO_IS_NEG_INF(Interp *I, Op *op, IVal **args, IVal **res) { return classify(I, op, args, res, FC_NEGINF); }

/* ---- complex parts ---- */
static bool part(Interp *I, Op *op, IVal **args, IVal **res, bool imag) {
  if (!check_tensors(I, op, args, 1)) return false;
  const Literal *in = ARG_LIT(0);
  ElemType et = in->type->elem;
  if (!et_is_fp(et)) return bad_type(I, op, et);
  Literal *out = lit_new(op->res[0].type);
  if (out->type->elem != et_real_part(et) || !check_count(I, op, in, out->n, 0)) {
    lit_free(out);
    return interp_error(I, op, "result must hold %s elements of the operand's shape",
                        et_name(et_real_part(et)));
  }
  for (int64_t i = 0; i < in->n; i++) {
    double re, im;
    lit_get_c(in, i, &re, &im);
    if (et_is_complex(et))
      lit_set_f(out, i, imag ? im : re);
    else if (imag)
      lit_set_f(out, i, 0.0);
    else
      lit_copy_elem(out, i, in, i);
  }
  res[0] = ival_tensor(out);
  return true;
}

bool interp_REAL(Interp *I, Op *op, IVal **args, IVal **res) { return part(I, op, args, res, false); }
bool interp_IMAG(Interp *I, Op *op, IVal **args, IVal **res) { return part(I, op, args, res, true); }

bool interp_COMPLEX(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!check_tensors(I, op, args, 2)) return false;
  const Literal *re = ARG_LIT(0), *im = ARG_LIT(1);
  Literal *out = lit_new(op->res[0].type);
  ElemType et = out->type->elem;
  if (!et_is_complex(et) || re->type->elem != et_real_part(et) || im->type->elem != re->type->elem ||
      re->n != out->n || im->n != out->n) {
    lit_free(out);
    return interp_error(I, op, "complex needs two f32 or f64 tensors of the result's shape");
  }
  for (int64_t i = 0; i < out->n; i++) lit_set_c(out, i, lit_get_f(re, i), lit_get_f(im, i));
  res[0] = ival_tensor(out);
  return true;
}

bool interp_COPY(Interp *I, Op *op, IVal **args, IVal **res) {
  /* values are immutable, so a copy can share its operand */
  (void)I;
  (void)op;
  res[0] = ival_retain(args[0]);
  return true;
}

/* ---- CHLO implicit broadcasting ---- */

/* x stretched to the result's dims, keeping x's element type.  Without
   broadcast_dimensions the trailing dims line up (numpy); with them, dim i
   of a lower-rank operand maps to result dim bd[i] (an operand of the
   result's rank maps identically).  Each operand dim must be 1 or equal. */
static Literal *bcast_to(Interp *I, Op *op, const Literal *x, const Type *to, int which) {
  int64_t *bd = NULL;
  int nbd = op_attr_ints(op, "broadcast_dimensions", &bd);
  int r = x->type->rank, R = to->rank;
  if (r == R) nbd = 0;
  if (nbd < 0 || (nbd > 0 && nbd != r) || r > R) {
    interp_error(I, op, "operand %d (rank %d) cannot broadcast to rank %d", which, r, R);
    return NULL;
  }
  int64_t map[64];
  if (R > 64) {
    interp_error(I, op, "rank %d is too large", R);
    return NULL;
  }
  for (int i = 0; i < r; i++) {
    int64_t d = nbd > 0 ? bd[i] : R - r + i;
    if (d < 0 || d >= R || (x->type->dims[i] != 1 && x->type->dims[i] != to->dims[d])) {
      interp_error(I, op, "operand %d dimension %d (size %lld) does not broadcast", which, i,
                   (long long)x->type->dims[i]);
      return NULL;
    }
    map[i] = d;
  }
  Type t = *to;
  t.elem = x->type->elem;
  t.quant = NULL;
  t.layout = NULL;
  Literal *out = lit_new(&t);
  if (out->n == 0) return out;
  int64_t xs[64], idx[64] = {0};
  shape_strides(r, x->type->dims, xs);
  int64_t i = 0;
  do {
    int64_t j = 0;
    for (int k = 0; k < r; k++)
      if (x->type->dims[k] != 1) j += idx[map[k]] * xs[k];
    lit_copy_elem(out, i++, x, j);
  } while (index_next(R, to->dims, idx));
  return out;
}

static bool chlo_binary(Interp *I, Op *op, IVal **args, IVal **res, BinOp k, bool cmp) {
  if (!check_tensors(I, op, args, 2)) return false;
  const Type *rt = op->res[0].type;
  Literal *a = bcast_to(I, op, ARG_LIT(0), rt, 0);
  Literal *b = a ? bcast_to(I, op, ARG_LIT(1), rt, 1) : NULL;
  Literal *out = lit_new(rt);
  bool ok = a && b && (cmp ? cmp_apply(I, op, a, b, out) : bin_apply(I, op, k, a, b, out));
  lit_free(a);
  lit_free(b);
  if (!ok) {
    lit_free(out);
    return false;
  }
  res[0] = ival_tensor(out);
  return true;
}

bool interp_CHLO_BROADCAST_ADD(Interp *I, Op *op, IVal **args, IVal **res) { return chlo_binary(I, op, args, res, B_ADD, false); }
bool interp_CHLO_BROADCAST_SUBTRACT(Interp *I, Op *op, IVal **args, IVal **res) { return chlo_binary(I, op, args, res, B_SUB, false); }
bool interp_CHLO_BROADCAST_MULTIPLY(Interp *I, Op *op, IVal **args, IVal **res) { return chlo_binary(I, op, args, res, B_MUL, false); }
bool interp_CHLO_BROADCAST_DIVIDE(Interp *I, Op *op, IVal **args, IVal **res) { return chlo_binary(I, op, args, res, B_DIV, false); }
bool interp_CHLO_BROADCAST_MAXIMUM(Interp *I, Op *op, IVal **args, IVal **res) { return chlo_binary(I, op, args, res, B_MAX, false); }
bool interp_CHLO_BROADCAST_MINIMUM(Interp *I, Op *op, IVal **args, IVal **res) { return chlo_binary(I, op, args, res, B_MIN, false); }
bool interp_CHLO_BROADCAST_POWER(Interp *I, Op *op, IVal **args, IVal **res) { return chlo_binary(I, op, args, res, B_POW, false); }
bool interp_CHLO_BROADCAST_REMAINDER(Interp *I, Op *op, IVal **args, IVal **res) { return chlo_binary(I, op, args, res, B_REM, false); }
bool interp_CHLO_BROADCAST_AND(Interp *I, Op *op, IVal **args, IVal **res) { return chlo_binary(I, op, args, res, B_AND, false); }
bool interp_CHLO_BROADCAST_OR(Interp *I, Op *op, IVal **args, IVal **res) { return chlo_binary(I, op, args, res, B_OR, false); }
bool interp_CHLO_BROADCAST_XOR(Interp *I, Op *op, IVal **args, IVal **res) { return chlo_binary(I, op, args, res, B_XOR, false); }
bool interp_CHLO_BROADCAST_ATAN2(Interp *I, Op *op, IVal **args, IVal **res) { return chlo_binary(I, op, args, res, B_ATAN2, false); }
bool interp_CHLO_BROADCAST_COMPARE(Interp *I, Op *op, IVal **args, IVal **res) { return chlo_binary(I, op, args, res, B_ADD, true); }

bool interp_CHLO_BROADCAST_SELECT(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!check_tensors(I, op, args, 3)) return false;
  const Type *rt = op->res[0].type;
  Literal *p = bcast_to(I, op, ARG_LIT(0), rt, 0);
  Literal *t = p ? bcast_to(I, op, ARG_LIT(1), rt, 1) : NULL;
  Literal *f = t ? bcast_to(I, op, ARG_LIT(2), rt, 2) : NULL;
  Literal *out = lit_new(rt);
  bool ok = p && t && f && select_apply(I, op, p, t, f, out);
  lit_free(p);
  lit_free(t);
  lit_free(f);
  if (!ok) {
    lit_free(out);
    return false;
  }
  res[0] = ival_tensor(out);
  return true;
}
