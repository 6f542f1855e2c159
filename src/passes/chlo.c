/*
 * chlo.c - the chlo-decompose pass: CHLO ops rewritten into StableHLO ops,
 * so that the code generator only has to know StableHLO.
 *
 * What is rewritten, and how:
 *   - chlo.broadcast_* : each operand broadcast_in_dim'ed to the result
 *     shape (numpy alignment, or the op's broadcast_dimensions), then the
 *     plain op (compare and select included).
 *   - square -> multiply; conj -> complex(real, -imag) (identity on reals);
 *     is_inf / is_pos_inf / is_neg_inf -> compare with inf (abs for is_inf);
 *     tan -> stablehlo.tan; constant -> stablehlo.constant; constant_like ->
 *     a scalar constant broadcast to the shape.
 *   - sinh, cosh, asinh, acosh, atanh, asin, acos, atan (real types) through
 *     exp / expm1 / log / log1p / sqrt / atan2 with formulas that avoid
 *     cancellation; measured against the interpreter (libm in double,
 *     rounded once): at most 3 ulp in f32 and f64 over the test inputs.
 *   - erf_inv (f32): w = -log((1-x)(1+x)); x P(w - 2.5) for w < 5 and
 *     x Q(sqrt(w) - 3) above, the construction of M. Giles' single
 *     precision erfinv, with coefficients fitted again here; at most 3 ulp.
 *   - next_after: bit pattern arithmetic on the same-width unsigned type.
 *   - top_k: left for the code generator's selection kernel when its types
 *     are ones that kernel takes (f16, bf16, f32, f64 or integers of 8 bits
 *     or more, integer indices of 8 bits or more); otherwise a stable sort
 *     (largest first, total order for floats) of the operand together with
 *     an iota of indices, then slices to k.  XLA's "TopK" custom_call
 *     (optimized HLO) becomes a top_k when its comparator is "greater" in
 *     the total order (ir/match.c), and a sort with that comparator
 *     otherwise.
 * f16 and bf16 operands of the transcendental functions are computed in
 * f32 and rounded back (at most 1 ulp in the narrow type).
 *
 * Left as CHLO: erf, erfc, lgamma, digamma, bessel_i1e, igamma, igammac,
 * polygamma, zeta and mulhi, which the code generator compiles as
 * elementwise ops itself (codegen/emit_scalar.c); and, handed to the
 * interpreter, f64 erf_inv, ragged_dot, scan, the transcendental
 * functions on complex or 8-bit-and-narrower float types, and anything
 * quantized.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/match.h"
#include "passes/build.h"
#include "passes/passes.h"

/* ---- building ops before the op being replaced (passes/build.h) ---- */
typedef Builder B;

static Value *bitcast(B *b, Value *x, ElemType et) {
  return bld_bitcast(b, x, bld_shape_of(b, x->type, et));
}

static Literal *scalar_lit(B *b, ElemType et) {
  return lit_new_in(&b->m->arena, type_scalar(&b->m->arena, et));
}


/* c[0] + t (c[1] + t (c[2] + ...)) */
static Value *horner(B *b, Value *t, const double *c, int n) {
  Value *p = bld_const_f(b, t->type, c[n - 1]);
  for (int i = n - 2; i >= 0; i--) p = bld_add(b, bld_mul(b, p, t), bld_const_f(b, t->type, c[i]));
  return p;
}

/* |x| < lim, as a predicate */
static Value *below(B *b, Value *x, double lim) { return bld_compare(b, x, bld_const_f(b, x->type, lim), "LT"); }

/* ---- the real-valued functions (x is f32 or f64) ---- */

#define LN2 0.693147180559945309417232121458176568

/* Past this magnitude e^-|x| no longer changes e^|x| / 2 at double precision,
   and the square of exp(|x|/2) keeps e^|x| / 2 from overflowing early. */
#define HYP_BIG 20.0
/* Past this, asinh/acosh(x) = log(2x) to within an ulp even in double. */
#define LOG2X_BIG 1073741824.0

/* (e^|x| / 2) as exp(|x|/2) * (exp(|x|/2) / 2): no premature overflow */
static Value *half_exp(B *b, Value *a) {
  Value *h = bld_un(b, OP_EXPONENTIAL, bld_mul(b, a, bld_const_f(b, a->type, 0.5)));
  return bld_mul(b, bld_mul(b, h, bld_const_f(b, a->type, 0.5)), h);
}

/* sinh|x| = (e + e / (e + 1)) / 2 with e = expm1|x|: no cancellation near 0. */
static Value *f_sinh(B *b, Value *x) {
  Value *a = bld_un(b, OP_ABS, x);
  Value *e = bld_un(b, OP_EXPONENTIAL_MINUS_ONE, a);
  Value *small = bld_mul(b, bld_add(b, e, bld_div(b, e, bld_add(b, e, bld_const_f(b, x->type, 1)))), bld_const_f(b, x->type, 0.5));
  Value *r = bld_select(b, below(b, a, HYP_BIG), small, half_exp(b, a));
  return bld_mul(b, r, bld_un(b, OP_SIGN, x)); /* sign keeps -0 and NaN */
}

static Value *f_cosh(B *b, Value *x) {
  Value *a = bld_un(b, OP_ABS, x);
  Value *e = bld_un(b, OP_EXPONENTIAL, a);
  Value *half = bld_const_f(b, x->type, 0.5);
  Value *small = bld_add(b, bld_mul(b, e, half), bld_div(b, half, e));
  return bld_select(b, below(b, a, HYP_BIG), small, half_exp(b, a));
}

/* asinh|x| = log1p(|x| + x^2 / (1 + sqrt(1 + x^2))): the log1p argument is
   computed without cancellation; log(|x|) + log 2 once x^2 would overflow. */
static Value *f_asinh(B *b, Value *x) {
  Value *a = bld_un(b, OP_ABS, x);
  Value *one = bld_const_f(b, x->type, 1);
  Value *t = bld_mul(b, a, a);
  Value *s = bld_un(b, OP_SQRT, bld_add(b, one, t));
  Value *mid = bld_un(b, OP_LOG_PLUS_ONE, bld_add(b, a, bld_div(b, t, bld_add(b, one, s))));
  Value *big = bld_add(b, bld_un(b, OP_LOG, a), bld_const_f(b, x->type, LN2));
  Value *r = bld_select(b, below(b, a, LOG2X_BIG), mid, big);
  return bld_mul(b, r, bld_un(b, OP_SIGN, x));
}

/* acosh: near 1, log1p(t + sqrt(2t + t^2)) with t = x - 1 exact (Sterbenz);
   then log(x + sqrt(x^2 - 1)); then log(x) + log 2. */
static Value *f_acosh(B *b, Value *x) {
  Value *one = bld_const_f(b, x->type, 1);
  Value *t = bld_sub(b, x, one);
  Value *near = bld_un(b, OP_LOG_PLUS_ONE,
                   bld_add(b, t, bld_un(b, OP_SQRT, bld_add(b, bld_mul(b, t, bld_const_f(b, x->type, 2)), bld_mul(b, t, t)))));
  Value *mid = bld_un(b, OP_LOG, bld_add(b, x, bld_un(b, OP_SQRT, bld_sub(b, bld_mul(b, x, x), one))));
  Value *big = bld_add(b, bld_un(b, OP_LOG, x), bld_const_f(b, x->type, LN2));
  Value *r = bld_select(b, below(b, x, 2), near, bld_select(b, below(b, x, LOG2X_BIG), mid, big));
  return bld_select(b, below(b, x, 1), bld_const_f(b, x->type, NAN), r);
}

/* atanh|x| = log1p(2|x| / (1 - |x|)) / 2 */
static Value *f_atanh(B *b, Value *x) {
  Value *a = bld_un(b, OP_ABS, x);
  Value *q = bld_div(b, bld_mul(b, a, bld_const_f(b, x->type, 2)), bld_sub(b, bld_const_f(b, x->type, 1), a));
  Value *r = bld_mul(b, bld_un(b, OP_LOG_PLUS_ONE, q), bld_const_f(b, x->type, 0.5));
  return bld_mul(b, r, bld_un(b, OP_SIGN, x));
}

/* asin x = atan2(x, sqrt((1 - x)(1 + x))); the product is exact-ish near
   |x| = 1 where 1 -+ x is exact. */
static Value *f_asin(B *b, Value *x) {
  Value *one = bld_const_f(b, x->type, 1);
  Value *c = bld_un(b, OP_SQRT, bld_mul(b, bld_sub(b, one, x), bld_add(b, one, x)));
  return bld_bin(b, OP_ATAN2, x, c);
}

/* acos x = 2 atan2(sqrt(1 - x), sqrt(1 + x)) */
static Value *f_acos(B *b, Value *x) {
  Value *one = bld_const_f(b, x->type, 1);
  Value *r = bld_bin(b, OP_ATAN2, bld_un(b, OP_SQRT, bld_sub(b, one, x)), bld_un(b, OP_SQRT, bld_add(b, one, x)));
  return bld_mul(b, r, bld_const_f(b, x->type, 2));
}

static Value *f_atan(B *b, Value *x) { return bld_bin(b, OP_ATAN2, x, bld_const_f(b, x->type, 1)); }

/* erf_inv for f32: erfinv(x) / x as a polynomial in w - 2.5 (w < 5) or in
   sqrt(w) - 3 (w >= 5, up to w ~ 16.6 at the f32 neighbours of +-1). */
static const double erfinv_p[] = {1.5014094114303589,     0.24664072692394257,    -0.004177707247436047,
                                  -0.0012537080328911543, 0.00021860170818399638, -4.396620624902425e-06,
                                  -3.528727802404319e-06, 3.437122870764142e-07,  2.852379665796434e-08};
static const double erfinv_q[] = {2.832977056503296,     1.0016742944717407,     0.009434019215404987,
                                  -0.007628155872225761, 0.005771930795162916,   -0.003649519756436348,
                                  0.0012787040323019028, 7.568983710370958e-05,  -0.00015012449875939637};

static Value *f_erfinv32(B *b, Value *x) {
  Value *one = bld_const_f(b, x->type, 1);
  Value *w = bld_un(b, OP_NEGATE, bld_un(b, OP_LOG, bld_mul(b, bld_sub(b, one, x), bld_add(b, one, x))));
  Value *p1 = horner(b, bld_sub(b, w, bld_const_f(b, x->type, 2.5)), erfinv_p, (int)ARRAY_LEN(erfinv_p));
  Value *p2 = horner(b, bld_sub(b, bld_un(b, OP_SQRT, w), bld_const_f(b, x->type, 3)), erfinv_q,
                     (int)ARRAY_LEN(erfinv_q));
  Value *r = bld_mul(b, bld_select(b, below(b, w, 5), p1, p2), x);
  /* +-1 map to +-inf (the polynomial in sqrt(inf) would not) */
  Value *edge = bld_compare(b, bld_un(b, OP_ABS, x), one, "EQ");
  return bld_select(b, edge, bld_mul(b, x, bld_const_f(b, x->type, INFINITY)), r);
}

typedef Value *(*RealFn)(B *b, Value *x);

/* The real function for op kind k on element type et, or NULL when it stays
   CHLO.  *up is set when the computation goes through f32. */
static RealFn real_fn(OpKind k, ElemType et, bool *up) {
  *up = et == ET_F16 || et == ET_BF16;
  bool wide_ok = et == ET_F32 || et == ET_F64 || *up;
  bool f32_only = et == ET_F32 || *up;
  switch (k) {
  case OP_CHLO_SINH: return wide_ok ? f_sinh : NULL;
  case OP_CHLO_COSH: return wide_ok ? f_cosh : NULL;
  case OP_CHLO_ASINH: return wide_ok ? f_asinh : NULL;
  case OP_CHLO_ACOSH: return wide_ok ? f_acosh : NULL;
  case OP_CHLO_ATANH: return wide_ok ? f_atanh : NULL;
  case OP_CHLO_ASIN: return wide_ok ? f_asin : NULL;
  case OP_CHLO_ACOS: return wide_ok ? f_acos : NULL;
  case OP_CHLO_ATAN: return wide_ok ? f_atan : NULL;
  case OP_CHLO_ERF_INV: return f32_only ? f_erfinv32 : NULL;
  default: return NULL;
  }
}

/* ---- the structural rewrites ---- */

static OpKind plain_of_broadcast(OpKind k) {
  switch (k) {
  case OP_CHLO_BROADCAST_ADD: return OP_ADD;
  case OP_CHLO_BROADCAST_SUBTRACT: return OP_SUBTRACT;
  case OP_CHLO_BROADCAST_MULTIPLY: return OP_MULTIPLY;
  case OP_CHLO_BROADCAST_DIVIDE: return OP_DIVIDE;
  case OP_CHLO_BROADCAST_MAXIMUM: return OP_MAXIMUM;
  case OP_CHLO_BROADCAST_MINIMUM: return OP_MINIMUM;
  case OP_CHLO_BROADCAST_POWER: return OP_POWER;
  case OP_CHLO_BROADCAST_REMAINDER: return OP_REMAINDER;
  case OP_CHLO_BROADCAST_AND: return OP_AND;
  case OP_CHLO_BROADCAST_OR: return OP_OR;
  case OP_CHLO_BROADCAST_XOR: return OP_XOR;
  case OP_CHLO_BROADCAST_ATAN2: return OP_ATAN2;
  case OP_CHLO_BROADCAST_COMPARE: return OP_COMPARE;
  case OP_CHLO_BROADCAST_SELECT: return OP_SELECT;
  default: return OP_COUNT;
  }
}

static bool plain_tensor(const Type *t) { return t && t->kind == TY_TENSOR && !t->quant; }

/* x stretched to the dims of `to`, or NULL when the shapes do not broadcast
   (then the op is left alone and the verifier/interpreter reports it). */
static Value *bcast_operand(B *b, Op *op, Value *x, const Type *to) {
  const Type *t = x->type;
  if (!plain_tensor(t) || t->rank > to->rank) return NULL;
  if (t->rank == to->rank && memcmp(t->dims, to->dims, sizeof(int64_t) * (size_t)t->rank) == 0)
    return x;
  int64_t *bd = NULL;
  int nbd = op_attr_ints(op, "broadcast_dimensions", &bd);
  if (t->rank == to->rank) nbd = 0;
  if (nbd < 0 || (nbd > 0 && nbd != t->rank)) return NULL;
  int64_t *map = ARENA_ARRAY(&b->m->arena, int64_t, t->rank ? t->rank : 1);
  for (int i = 0; i < t->rank; i++) {
    int64_t d = nbd > 0 ? bd[i] : to->rank - t->rank + i;
    if (d < 0 || d >= to->rank || (t->dims[i] != 1 && t->dims[i] != to->dims[d])) return NULL;
    map[i] = d;
  }
  Value *r = bld_op(b, OP_BROADCAST_IN_DIM, 1, &x, bld_shape_of(b, to, t->elem));
  op_set_attr(b->m, r->def, "broadcast_dimensions", attr_ints(b->m, t->rank, map));
  return r;
}

static Value *rw_broadcast(B *b, Op *op) {
  OpKind k = plain_of_broadcast(op->kind);
  const Type *rt = op->res[0].type;
  int n = k == OP_SELECT ? 3 : 2;
  if (op->nopnds != n || op->nres != 1 || !plain_tensor(rt)) return NULL;
  /* element types as the plain op needs them; otherwise the op is left to
     the interpreter, which reports the mismatch */
  const Type *x = op->opnds[n - 2]->type, *y = op->opnds[n - 1]->type;
  if (x->kind != TY_TENSOR || y->kind != TY_TENSOR || x->elem != y->elem ||
      (k == OP_COMPARE ? rt->elem != ET_PRED : rt->elem != x->elem) ||
      (k == OP_SELECT && (op->opnds[0]->type->kind != TY_TENSOR || op->opnds[0]->type->elem != ET_PRED)))
    return NULL;
  Value *v[3];
  for (int i = 0; i < n; i++)
    if (!(v[i] = bcast_operand(b, op, op->opnds[i], rt))) return NULL;
  Value *r = bld_op(b, k, n, v, op->res[0].type);
  if (k == OP_COMPARE) {
    Attr *a;
    if ((a = op_attr(op, "comparison_direction"))) op_set_attr(b->m, r->def, "comparison_direction", a);
    if ((a = op_attr(op, "compare_type"))) op_set_attr(b->m, r->def, "compare_type", a);
  }
  return r;
}

static Value *rw_conj(B *b, Op *op) {
  Value *x = op->opnds[0];
  if (!et_is_complex(x->type->elem)) return x;
  ElemType pt = et_real_part(x->type->elem);
  Value *re = bld_op(b, OP_REAL, 1, &x, bld_shape_of(b, x->type, pt));
  Value *im = bld_op(b, OP_IMAG, 1, &x, bld_shape_of(b, x->type, pt));
  Value *v[2] = {re, bld_un(b, OP_NEGATE, im)};
  return bld_op(b, OP_COMPLEX, 2, v, op->res[0].type);
}

static bool ieee_float(ElemType et) {
  return et == ET_F16 || et == ET_BF16 || et == ET_F32 || et == ET_F64;
}

static Value *rw_is_inf(B *b, Op *op) {
  Value *x = op->opnds[0];
  if (!ieee_float(x->type->elem)) return NULL;
  if (op->kind == OP_CHLO_IS_INF) x = bld_un(b, OP_ABS, x);
  double inf = op->kind == OP_CHLO_IS_NEG_INF ? -INFINITY : INFINITY;
  return bld_compare(b, x, bld_const_f(b, x->type, inf), "EQ");
}

static Value *rw_constant_like(B *b, Op *op) {
  const Type *rt = op->res[0].type;
  Attr *a = op_attr(op, "value");
  if (!plain_tensor(rt) || !a) return NULL;
  ElemType et = rt->elem;
  Literal *l = scalar_lit(b, et);
  if (a->kind == ATTR_DENSE && a->lit && a->lit->n == 1 && a->lit->type->elem == et) {
    lit_copy_elem(l, 0, a->lit, 0);
  } else if (a->kind == ATTR_FLOAT && et_is_fp(et)) {
    if (et_is_complex(et)) lit_set_c(l, 0, a->f, 0);
    else lit_set_f(l, 0, a->f);
  } else if (a->kind == ATTR_INT || a->kind == ATTR_BOOL) {
    int64_t v = a->kind == ATTR_INT ? a->i : a->b;
    if (et_is_complex(et)) lit_set_c(l, 0, (double)v, 0);
    else if (et_is_float(et)) lit_set_f(l, 0, (double)v);
    else lit_set_i(l, 0, v);
  } else {
    return NULL;
  }
  return bld_splat(b, bld_constant(b, l), rt);
}

/* next_after on the bit patterns: every IEEE format is sign-magnitude, so
   the neighbour away from zero is bits + 1 and toward zero bits - 1. */
static Value *rw_next_after(B *b, Op *op) {
  Value *x = op->opnds[0], *y = op->opnds[1];
  ElemType et = x->type->elem;
  if (!ieee_float(et) || y->type->elem != et || !type_same_shape(x->type, y->type)) return NULL;
  int w = et_bits(et);
  ElemType ut = w == 16 ? ET_U16 : w == 32 ? ET_U32 : ET_U64;
  uint64_t sign = 1ull << (w - 1), ones = w == 64 ? ~0ull : (1ull << w) - 1;
  const Type *t = x->type;
  Value *xb = bitcast(b, x, ut), *yb = bitcast(b, y, ut);
  Value *zero = bld_const_f(b, t, 0);
  /* moving away from zero when (y > x) agrees with (x > 0) */
  Value *away = bld_compare(b, bld_compare(b, y, x, "GT"), bld_compare(b, x, zero, "GT"), "EQ");
  Value *step = bld_select(b, away, bld_const_bits(b, t, ut, 1), bld_const_bits(b, t, ut, ones));
  Value *r = bld_add(b, xb, step); /* unsigned: wraps, and the magnitude is > 0 */
  Value *tiny = bld_bin(b, OP_OR, bld_bin(b, OP_AND, yb, bld_const_bits(b, t, ut, sign)), bld_const_bits(b, t, ut, 1));
  r = bld_select(b, bld_compare(b, x, zero, "EQ"), tiny, r);
  Value *rf = bitcast(b, r, et);
  rf = bld_select(b, bld_compare(b, x, y, "EQ"), y, rf);
  Value *nan = bld_bin(b, OP_OR, bld_compare(b, x, x, "NE"), bld_compare(b, y, y, "NE"));
  return bld_select(b, nan, bld_const_f(b, t, NAN), rf);
}

/* The function an XLA "TopK" custom_call names as its comparator
   (called_computations: [@f], "{%f}", %f or "f"), or NULL. */
static Func *topk_comparator(Module *m, const Op *op) {
  const Attr *a = op_attr(op, "called_computations");
  if (a && a->kind == ATTR_ARRAY) a = a->n > 0 ? a->elems[0] : NULL;
  if (!a || (a->kind != ATTR_SYMBOL && a->kind != ATTR_STRING && a->kind != ATTR_OPAQUE) || !a->s) return NULL;
  const char *p = a->s + strspn(a->s, "{}%@\", \t\n");
  char *name = xstrndup(p, strcspn(p, "{}%@\", \t\n"));
  Func *f = module_find_func(m, name);
  xfree(name);
  return f;
}

static bool is_xla_top_k(const Op *op) {
  if (op->kind != OP_CUSTOM_CALL) return false;
  const Attr *a = op_attr(op, "call_target_name");
  if (!a || !a->s) return false;
  size_t n = a->kind == ATTR_STRING ? a->slen : strlen(a->s);
  return n == 4 && memcmp(a->s, "TopK", 4) == 0;
}

/* The TopK comparator puts the larger value first in the total order (the
   top_k op's order): a > b, in the total order for floats. */
static bool total_order_greater(const Func *cmp) {
  KeyCompare kc;
  return match_key_compare(cmp->body, &kc) && !strcmp(kc.direction, "GT") && !kc.canonical &&
         (kc.total || et_is_int(cmp->body->args[0]->type->elem));
}

/* Types the code generator's top_k selection takes (kernel_index.c). */
static bool native_top_k_types(ElemType et, ElemType it) {
  bool key = et == ET_F16 || et == ET_BF16 || et == ET_F32 || et == ET_F64 || (et_is_int(et) && et_bits(et) >= 8);
  return key && et_is_int(it) && et_bits(it) >= 8;
}

/* top_k: sort (values, iota) along the last dimension, largest first and
   stable, then keep the first k of each.  XLA's "TopK" custom_call is the
   same with k the results' last dimension and the order its comparator's
   (value a, value b, index a, index b) -> a first, which is a sort
   comparator of (values, iota) as it is: its body becomes the sort's.
   Without a comparator it is descending with NaN first (the interpreter's
   order, control.c), which is the total order but for negative NaNs. */
static bool rw_top_k(B *b, Op *op, Value **out) {
  Value *x = op->opnds[0];
  const Type *t = x->type;
  if (op->nopnds != 1 || op->nres != 2 || !plain_tensor(t) || t->rank < 1) return false;
  ElemType et = t->elem, it = op->res[1].type->elem;
  if (!(ieee_float(et) || et_is_int(et)) || !et_is_int(it)) return false;
  int last = t->rank - 1;
  int64_t len = t->dims[last];
  bool xla = op->kind == OP_CUSTOM_CALL;
  int64_t k = xla ? op->res[0].type->dims[last] : op_attr_int(op, "k", -1);
  if (k < 0 || k > len) return false;
  Module *m = b->m;
  Func *cmp = xla ? topk_comparator(m, op) : NULL;
  if (xla && op_attr(op, "called_computations") && !cmp) return false;
  if (cmp) {
    Op *ret = block_terminator(cmp->body);
    if (cmp->body->nargs != 4 || !ret || ret->nopnds != 1) return false;
    for (int i = 0; i < 4; i++) {
      const Type *at = cmp->body->args[i]->type;
      if (at->kind != TY_TENSOR || at->rank != 0 || at->quant || at->elem != (i < 2 ? et : it)) return false;
    }
  }
  if (native_top_k_types(et, it) && (!xla || (cmp && total_order_greater(cmp)))) {
    if (!xla) return false; /* stays as it is */
    Value *in = x;
    Type *rts[2] = {op->res[0].type, op->res[1].type};
    Op *tk = op_new(m, OP_CHLO_TOP_K, 1, &in, 2, rts, b->loc);
    block_insert_before(b->blk, b->at, tk);
    op_set_attr(m, tk, "k", attr_int(m, k, NULL));
    out[0] = &tk->res[0];
    out[1] = &tk->res[1];
    return true;
  }
  Value *iota = bld_op(b, OP_IOTA, 0, NULL, bld_shape_of(b, t, it));
  op_set_attr(m, iota->def, "iota_dimension", attr_int(m, last, NULL));
  Value *in[2] = {x, iota};
  Type *rts[2] = {bld_shape_of(b, t, et), bld_shape_of(b, t, it)};
  Op *s = op_new(m, OP_SORT, 2, in, 2, rts, b->loc);
  block_insert_before(b->blk, b->at, s);
  op_set_attr(m, s, "dimension", attr_int(m, last, NULL));
  op_set_attr(m, s, "is_stable", attr_bool(m, true));
  Block *cb = block_new(m);
  Value *args[4];
  for (int i = 0; i < 4; i++) args[i] = block_add_arg(m, cb, type_scalar(&m->arena, i < 2 ? et : it), NULL);
  B cbb = {m, cb, NULL, b->loc};
  if (cmp) {
    PtrMap map = {0};
    for (int i = 0; i < 4; i++) ptrmap_put(&map, cmp->body->args[i], args[i]);
    block_clone_into(m, cmp->body, cb, &map);
    ptrmap_free(&map);
    block_terminator(cb)->kind = OP_RETURN;
  } else {
    Value *gt = bld_compare(&cbb, args[0], args[1], "GT");
    if (et_is_float(et)) {
      if (xla) {
        /* NaN first: a NaN is before a number, then a > b */
        Value *na = bld_compare(&cbb, args[0], args[0], "NE"), *nb = bld_compare(&cbb, args[1], args[1], "NE");
        Value *nan_first = bld_bin(&cbb, OP_AND, na, bld_op(&cbb, OP_NOT, 1, &nb, (Type *)nb->type));
        gt = bld_bin(&cbb, OP_OR, nan_first, gt);
      } else {
        op_set_attr(m, gt->def, "compare_type", attr_enum(m, "comparison_type", "TOTALORDER"));
      }
    }
    block_append(cb, op_new(m, OP_RETURN, 1, &gt, 0, NULL, b->loc));
  }
  op_add_region(m, s, cb);
  int64_t *lo = ARENA_ARRAY(&m->arena, int64_t, t->rank), *hi = ARENA_ARRAY(&m->arena, int64_t, t->rank),
          *st = ARENA_ARRAY(&m->arena, int64_t, t->rank);
  for (int d = 0; d < t->rank; d++) {
    lo[d] = 0;
    hi[d] = d == last ? k : t->dims[d];
    st[d] = 1;
  }
  for (int i = 0; i < 2; i++) {
    Value *src = &s->res[i];
    out[i] = bld_op(b, OP_SLICE, 1, &src, op->res[i].type);
    op_set_attr(m, out[i]->def, "start_indices", attr_ints(m, t->rank, lo));
    op_set_attr(m, out[i]->def, "limit_indices", attr_ints(m, t->rank, hi));
    op_set_attr(m, out[i]->def, "strides", attr_ints(m, t->rank, st));
  }
  return true;
}

/* One op: the replacement values of its results (out), or false to leave it. */
static bool rewrite(B *b, Op *op, Value **out) {
  if (op->nres < 1 || op->nopnds < 1 || !plain_tensor(op->res[0].type)) return false;
  for (int i = 0; i < op->nopnds; i++)
    if (!plain_tensor(op->opnds[i]->type)) return false;
  if (plain_of_broadcast(op->kind) != OP_COUNT) return (out[0] = rw_broadcast(b, op)) != NULL;
  switch (op->kind) {
  case OP_CHLO_SQUARE:
    if (op->opnds[0]->type->elem != op->res[0].type->elem) return false;
    out[0] = bld_mul(b, op->opnds[0], op->opnds[0]);
    return true;
  case OP_CHLO_CONJ:
    if (op->opnds[0]->type->elem != op->res[0].type->elem) return false;
    out[0] = rw_conj(b, op);
    return true;
  case OP_CHLO_IS_INF:
  case OP_CHLO_IS_POS_INF:
  case OP_CHLO_IS_NEG_INF: return (out[0] = rw_is_inf(b, op)) != NULL;
  case OP_CHLO_CONSTANT_LIKE: return (out[0] = rw_constant_like(b, op)) != NULL;
  case OP_CHLO_NEXT_AFTER: return op->nopnds == 2 && (out[0] = rw_next_after(b, op)) != NULL;
  case OP_CHLO_TOP_K: return rw_top_k(b, op, out);
  case OP_CUSTOM_CALL: return is_xla_top_k(op) && rw_top_k(b, op, out);
  default: break;
  }
  Value *x = op->opnds[0];
  ElemType et = op->res[0].type->elem;
  if (op->nopnds != 1 || x->type->elem != et) return false;
  bool up;
  RealFn f = real_fn(op->kind, et, &up);
  if (!f) return false;
  if (up) x = bld_convert(b, x, ET_F32);
  Value *r = f(b, x);
  out[0] = up ? bld_convert(b, r, et) : r;
  return true;
}

typedef VEC(Op *) OpVec;

static bool collect(Op *op, void *ud) {
  OpVec *v = ud;
  switch (op->kind) {
  case OP_CHLO_TAN:
  case OP_CHLO_CONSTANT:
    VEC_PUSH(*v, op);
    return true;
  default:
    break;
  }
  if ((op->kind >= OP_CHLO_ACOS && op->kind <= OP_CHLO_BROADCAST_SELECT) || is_xla_top_k(op)) VEC_PUSH(*v, op);
  return true;
}

int pass_chlo_decompose(Module *m, const PassOptions *o) {
  (void)o;
  int changed = 0;
  for (Func *f = m->funcs; f; f = f->next) {
    OpVec ops = {0};
    block_walk(f->body, collect, &ops);
    for (int i = 0; i < ops.len; i++) {
      Op *op = ops.data[i];
      /* same semantics, different name: renaming the op is the rewrite */
      if (op->kind == OP_CHLO_TAN && op->nopnds == 1 && op->nres == 1 &&
          type_equal(op->opnds[0]->type, op->res[0].type)) {
        op->kind = OP_TAN;
        changed = 1;
        continue;
      }
      if (op->kind == OP_CHLO_CONSTANT) {
        op->kind = OP_CONSTANT;
        changed = 1;
        continue;
      }
      B b = {m, op->parent, op, op->loc};
      Value *out[2] = {NULL, NULL};
      Op *before_first = op->prev;
      bool ok = rewrite(&b, op, out);
      /* a rewrite must give exactly the op's result types */
      for (int r = 0; ok && r < op->nres && r < 2; r++) ok = out[r] && type_equal(out[r]->type, op->res[r].type);
      if (!ok) {
        /* drop whatever a rewrite that gave up half way had built */
        bld_discard(op, before_first);
        continue;
      }
      bld_replace(f, op, out);
      changed = 1;
    }
    VEC_FREE(ops);
  }
  return changed;
}
