/*
 * simplify.c - algebraic identities and chains of shape ops.
 *
 * Needs: a verified module.  Guarantees: every rewrite gives bit-identical
 * results for every input, so the interpreter computes the same values on
 * the simplified module.  That rules out the tempting float identities that
 * are only almost true: x + 0.0 is not x when x is -0.0 (but x + -0.0 is),
 * and x * 0.0 is not 0 for NaN, infinities or negative x.  Integer
 * identities hold for every value because integer arithmetic wraps.
 *
 * Rewrites (x, y values; c a splat constant, possibly broadcast):
 *   x + 0 (int), x + -0.0 (float), x - 0 (int, float +0.0), x * 1, x / 1,
 *   x * 0 (int), x & ~0, x & 0, x | 0, x | ~0, x ^ 0, x - x and x ^ x (int),
 *   max/min/and/or(x, x), not(not x), neg(neg x), select(c, a, b),
 *   select(p, a, a), compare(x, x) on integers, convert to the same type,
 *   convert chains whose first step is lossless, reshape to the same type,
 *   reshape(reshape x), identity transpose, transpose(transpose x), identity
 *   broadcast_in_dim, broadcast_in_dim(broadcast_in_dim x), a slice of the
 *   full range, concatenate of one operand, pad by nothing, reverse of no
 *   dimensions, reduce over no dimensions from the body's identity,
 *   get_tuple_element(tuple(...)), a convolution of a zero pad (along
 *   spatial dimensions, by a constant finite kernel) as more padding.
 *
 * A replaced value is not searched for in the whole function (that made
 * long chains quadratic): the walk, which goes forward as SSA uses do,
 * rewrites each op's operands through the replacements so far before
 * looking at it, so every use has been redirected by the round's end.
 * Replaced ops are left without uses and erased at the end of each round;
 * rounds repeat until nothing changes, so chains collapse fully.  Ops on
 * quantized types are never touched: their values mean something other
 * than their storage.
 */
#include <math.h>
#include <string.h>

#include "passes/passes.h"

typedef struct Simp {
  Module *m;
  Func *f;
  int changed;
  PtrMap fwd; /* replaced value -> its replacement, this round */
} Simp;

/* ---- looking at values ---- */

/* Tensor types that may replace each other: equal and not quantized. */
static bool same_type(const Type *a, const Type *b) {
  return a->kind == TY_TENSOR && b->kind == TY_TENSOR && !a->quant && !b->quant && type_equal(a, b);
}

static Literal *const_lit(const Value *v) {
  if (!v->def || v->def->kind != OP_CONSTANT) return NULL;
  Attr *a = op_attr(v->def, "value");
  if (!a || a->kind != ATTR_DENSE || !a->lit || a->lit->type->quant) return NULL;
  return a->lit;
}

/* The literal holding the value every element of v equals (element 0 is
   the representative), looking through a broadcast_in_dim of a constant. */
static Literal *splat_of(const Value *v) {
  if (v->type->kind != TY_TENSOR || v->type->quant) return NULL;
  if (v->def && v->def->kind == OP_BROADCAST_IN_DIM) v = v->def->opnds[0];
  Literal *l = const_lit(v);
  return l && lit_is_splat(l) ? l : NULL;
}

static bool int_like(ElemType t) { return et_is_int(t) || et_is_pred(t); }

static bool splat_is_int(const Literal *l, int64_t want) {
  return l && int_like(lit_elem(l)) && lit_get_i(l, 0) == want;
}

/* Every bit set: true for pred, -1 for signed, the maximum for unsigned. */
static bool splat_is_all_ones(const Literal *l) {
  if (!l) return false;
  ElemType t = lit_elem(l);
  if (et_is_pred(t)) return lit_get_b(l, 0);
  if (et_is_signed(t)) return lit_get_i(l, 0) == -1;
  if (et_is_unsigned(t)) {
    int bits = et_bits(t);
    uint64_t max = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    return lit_get_u(l, 0) == max;
  }
  return false;
}

static bool splat_is_float(const Literal *l, double want, bool neg_zero) {
  if (!l || !et_is_float(lit_elem(l))) return false;
  double v = lit_get_f(l, 0);
  if (want == 0) return v == 0 && (signbit(v) != 0) == neg_zero;
  return v == want;
}

static bool splat_is_zero_int(const Literal *l) { return splat_is_int(l, 0); }
static bool splat_is_one(const Literal *l) {
  if (!l) return false;
  return int_like(lit_elem(l)) ? lit_get_i(l, 0) == 1 : splat_is_float(l, 1.0, false);
}

/* ---- changing the IR ---- */

static void replace(Simp *s, Op *op, int res, Value *with) {
  ptrmap_put(&s->fwd, &op->res[res], with);
  s->changed++;
}


/* Replaces op's only result by x when the types agree. */
static bool replace_by(Simp *s, Op *op, Value *x) {
  if (op->nres != 1 || !same_type(op->res[0].type, x->type)) return false;
  if (&op->res[0] == x) return false;
  replace(s, op, 0, x);
  return true;
}

/* A value of type t whose every element is `bits` (raw pattern): a scalar
   constant, broadcast when t has a shape, so the splat costs nothing. */
static Value *make_splat(Simp *s, Op *before, Type *t, uint64_t bits) {
  Literal *l = lit_new_in(&s->m->arena, type_scalar(&s->m->arena, t->elem));
  lit_set_bits(l, 0, bits);
  return build_splat(s->m, before, t, l);
}

/* ---- the rules ---- */

/* op(x, c) or op(c, x) with c a splat satisfying pred: returns x's index,
   or -1. */
static int other_of_splat(const Op *op, bool (*pred)(const Literal *), bool commutes) {
  if (op->nopnds != 2) return -1;
  if (pred(splat_of(op->opnds[1]))) return 0;
  if (commutes && pred(splat_of(op->opnds[0]))) return 1;
  return -1;
}

static bool is_neg_zero_f(const Literal *l) { return splat_is_float(l, 0, true); }
static bool is_pos_zero_f(const Literal *l) { return splat_is_float(l, 0, false); }

static bool add_identity(const Literal *l) { return splat_is_zero_int(l) || is_neg_zero_f(l); }
static bool sub_identity(const Literal *l) { return splat_is_zero_int(l) || is_pos_zero_f(l); }
static bool mul_identity(const Literal *l) { return splat_is_one(l); }

static bool simplify_binary(Simp *s, Op *op) {
  Value *a = op->opnds[0], *b = op->opnds[1];
  ElemType et = op->res[0].type->elem;
  int k;
  switch (op->kind) {
  case OP_ADD:
    if ((k = other_of_splat(op, add_identity, true)) >= 0) return replace_by(s, op, op->opnds[k]);
    return false;
  case OP_SUBTRACT:
    if ((k = other_of_splat(op, sub_identity, false)) >= 0) return replace_by(s, op, op->opnds[k]);
    if (a == b && et_is_int(et)) return replace_by(s, op, make_splat(s, op, op->res[0].type, 0));
    return false;
  case OP_MULTIPLY:
    if ((k = other_of_splat(op, mul_identity, true)) >= 0) return replace_by(s, op, op->opnds[k]);
    /* x * 0 is 0 only where there are no NaNs, infinities or signed zeros */
    if ((k = other_of_splat(op, splat_is_zero_int, true)) >= 0) {
      Value *zero = op->opnds[1 - k];
      if (same_type(zero->type, op->res[0].type)) return replace_by(s, op, zero);
      return replace_by(s, op, make_splat(s, op, op->res[0].type, 0));
    }
    return false;
  case OP_DIVIDE:
    if ((k = other_of_splat(op, mul_identity, false)) >= 0) return replace_by(s, op, op->opnds[k]);
    return false;
  case OP_AND:
    if (a == b) return replace_by(s, op, a);
    if ((k = other_of_splat(op, splat_is_all_ones, true)) >= 0) return replace_by(s, op, op->opnds[k]);
    if ((k = other_of_splat(op, splat_is_zero_int, true)) >= 0 &&
        same_type(op->opnds[1 - k]->type, op->res[0].type))
      return replace_by(s, op, op->opnds[1 - k]);
    return false;
  case OP_OR:
    if (a == b) return replace_by(s, op, a);
    if ((k = other_of_splat(op, splat_is_zero_int, true)) >= 0) return replace_by(s, op, op->opnds[k]);
    if ((k = other_of_splat(op, splat_is_all_ones, true)) >= 0 &&
        same_type(op->opnds[1 - k]->type, op->res[0].type))
      return replace_by(s, op, op->opnds[1 - k]);
    return false;
  case OP_XOR:
    if ((k = other_of_splat(op, splat_is_zero_int, true)) >= 0) return replace_by(s, op, op->opnds[k]);
    if (a == b) return replace_by(s, op, make_splat(s, op, op->res[0].type, 0));
    return false;
  case OP_MAXIMUM:
  case OP_MINIMUM:
    if (a == b) return replace_by(s, op, a);
    return false;
  default:
    return false;
  }
}

static bool simplify_compare(Simp *s, Op *op) {
  if (op->opnds[0] != op->opnds[1] || !int_like(op->opnds[0]->type->elem)) return false;
  const char *dir = op_attr_str(op, "comparison_direction");
  if (!dir) return false;
  bool v;
  if (!strcmp(dir, "EQ") || !strcmp(dir, "LE") || !strcmp(dir, "GE"))
    v = true;
  else if (!strcmp(dir, "NE") || !strcmp(dir, "LT") || !strcmp(dir, "GT"))
    v = false;
  else
    return false;
  return replace_by(s, op, make_splat(s, op, op->res[0].type, v));
}

/* Precision (significand bits including the hidden one) of the float types
   whose conversions we reason about; 0 for the rest (minifloats keep their
   own NaN and saturation rules, so no claims are made about them). */
static int float_precision(ElemType t) {
  switch (t) {
  case ET_F16: return 11;
  case ET_BF16: return 8;
  case ET_F32: return 24;
  case ET_F64: return 53;
  default: return 0;
  }
}

/* Every value of a is exactly a value of b (so a -> b -> a is the identity). */
static bool convert_lossless(ElemType a, ElemType b) {
  if (a == b) return true;
  if (et_is_complex(a) || et_is_complex(b)) return false;
  if (et_is_pred(a)) return et_is_int(b) || float_precision(b) > 0;
  if (et_is_int(a) && et_is_int(b)) {
    if (et_is_signed(a) == et_is_signed(b)) return et_bits(b) >= et_bits(a);
    return et_is_unsigned(a) && et_bits(b) > et_bits(a);
  }
  if (et_is_int(a) && et_is_float(b)) {
    int p = float_precision(b);
    return p > 0 && et_bits(a) - (et_is_signed(a) ? 1 : 0) <= p;
  }
  if (et_is_float(a) && et_is_float(b)) {
    int pa = float_precision(a), pb = float_precision(b);
    if (!pa || !pb || pb <= pa) return false;
    /* f16 has a narrower exponent than bf16, which has fewer digits: neither
       holds the other; f32 and f64 hold both */
    return !(a == ET_F16 && b == ET_BF16);
  }
  return false;
}

static bool simplify_convert(Simp *s, Op *op) {
  Value *x = op->opnds[0];
  if (same_type(x->type, op->res[0].type)) return replace_by(s, op, x);
  Op *in = x->def;
  if (!in || in->kind != OP_CONVERT || op_has_quant(in)) return false;
  Value *y = in->opnds[0];
  ElemType A = y->type->elem, B = x->type->elem, C = op->res[0].type->elem;
  if (!convert_lossless(A, B)) return false;
  if (C == A) return replace_by(s, op, y);
  if (et_is_complex(C)) return false;
  /* the first step keeps the value, so converting it once gives the same
     result - except that float -> int saturates where int -> int wraps */
  if (et_is_float(B) && !et_is_float(A) && et_is_int(C)) return false;
  op->opnds[0] = y;
  s->changed++;
  return true;
}

static bool is_identity_perm(const int64_t *p, int n) {
  for (int i = 0; i < n; i++)
    if (p[i] != i) return false;
  return true;
}

static bool simplify_transpose(Simp *s, Op *op) {
  int64_t *p;
  int n = op_attr_ints(op, "permutation", &p);
  Value *x = op->opnds[0];
  if (n < 0 || x->type->kind != TY_TENSOR || n != x->type->rank) return false;
  if (is_identity_perm(p, n)) return replace_by(s, op, x);
  Op *in = x->def;
  if (!in || in->kind != OP_TRANSPOSE || op_has_quant(in)) return false;
  int64_t *q;
  if (op_attr_ints(in, "permutation", &q) != n) return false;
  /* result dim i is x dim p[i], which is y dim q[p[i]] */
  int64_t *r = ARENA_ARRAY(&s->m->arena, int64_t, n ? n : 1);
  for (int i = 0; i < n; i++) {
    if (p[i] < 0 || p[i] >= n) return false;
    r[i] = q[p[i]];
  }
  Value *y = in->opnds[0];
  if (is_identity_perm(r, n)) return replace_by(s, op, y);
  op->opnds[0] = y;
  op_set_attr(s->m, op, "permutation", attr_ints(s->m, n, r));
  s->changed++;
  return true;
}

static bool simplify_broadcast(Simp *s, Op *op) {
  int64_t *d;
  int n = op_attr_ints(op, "broadcast_dimensions", &d);
  Value *x = op->opnds[0];
  if (n < 0 || x->type->kind != TY_TENSOR || n != x->type->rank) return false;
  if (same_type(x->type, op->res[0].type) && is_identity_perm(d, n)) return replace_by(s, op, x);
  Op *in = x->def;
  if (!in || in->kind != OP_BROADCAST_IN_DIM || op_has_quant(in)) return false;
  Value *y = in->opnds[0];
  int64_t *e;
  if (y->type->kind != TY_TENSOR || op_attr_ints(in, "broadcast_dimensions", &e) != y->type->rank)
    return false;
  /* y dim i went to x dim e[i], which goes to result dim d[e[i]] */
  int ny = y->type->rank;
  int64_t *r = ARENA_ARRAY(&s->m->arena, int64_t, ny ? ny : 1);
  for (int i = 0; i < ny; i++) {
    if (e[i] < 0 || e[i] >= n) return false;
    r[i] = d[e[i]];
  }
  op->opnds[0] = y;
  op_set_attr(s->m, op, "broadcast_dimensions", attr_ints(s->m, ny, r));
  s->changed++;
  return true;
}

static bool simplify_slice(Simp *s, Op *op) {
  Value *x = op->opnds[0];
  if (!same_type(x->type, op->res[0].type)) return false;
  int64_t *st, *lim, *str;
  int r = x->type->rank;
  int ns = op_attr_ints(op, "start_indices", &st), nl = op_attr_ints(op, "limit_indices", &lim),
      nt = op_attr_ints(op, "strides", &str);
  if (ns != r || nl != r || (nt != r && nt != 0)) return false;
  for (int i = 0; i < r; i++)
    if (st[i] != 0 || lim[i] != x->type->dims[i] || (nt && str[i] != 1)) return false;
  return replace_by(s, op, x);
}

static bool all_zero_attr(const Op *op, const char *name, int rank) {
  int64_t *v;
  int n = op_attr_ints(op, name, &v);
  if (n == 0) return true; /* absent: no padding */
  if (n != rank) return false;
  for (int i = 0; i < n; i++)
    if (v[i] != 0) return false;
  return true;
}

static bool simplify_pad(Simp *s, Op *op) {
  Value *x = op->opnds[0];
  int r = x->type->kind == TY_TENSOR ? x->type->rank : -1;
  if (r < 0 || !all_zero_attr(op, "edge_padding_low", r) || !all_zero_attr(op, "edge_padding_high", r) ||
      !all_zero_attr(op, "interior_padding", r))
    return false;
  return replace_by(s, op, x);
}

/* convolution(pad(x, zero), k): the pad's edges, along the input's spatial
   dimensions, become more of the convolution's padding (Keras'
   ZeroPadding2D before a strided convolution: the padded copy is not made).
   The convolution's padding contributes nothing where the pad's zeros
   contribute 0 * k, the same for every finite k, so the kernel must be a
   constant whose every element is finite (a float one; any integer one). */
static bool kernel_finite(const Value *k) {
  const Literal *l = const_lit(k);
  if (!l) return false;
  ElemType t = lit_elem(l);
  if (et_is_int(t)) return true;
  if (!et_is_float(t)) return false;
  for (int64_t i = 0; i < l->n; i++)
    if (!isfinite(lit_get_f(l, i))) return false;
  return true;
}

static bool simplify_conv(Simp *s, Op *op) {
  Value *p = op->opnds[0];
  Op *pad = p->def;
  if (!pad || pad->kind != OP_PAD || pad->nopnds != 2 || op_has_quant(pad) || p->type->kind != TY_TENSOR) return false;
  const Literal *pv = const_lit(pad->opnds[1]);
  if (!pv || pv->n < 1 || !(splat_is_zero_int(pv) || is_pos_zero_f(pv) || is_neg_zero_f(pv))) return false;
  int r = p->type->rank;
  int64_t *lo, *hi, *ld, *cp = NULL;
  if (op_attr_ints(pad, "edge_padding_low", &lo) != r || op_attr_ints(pad, "edge_padding_high", &hi) != r ||
      !all_zero_attr(pad, "interior_padding", r))
    return false;
  Attr *dn = op_attr(op, "dimension_numbers");
  int64_t *isp;
  int ns = dn ? dict_ints(dn, "input_spatial_dimensions", &isp) : -1;
  if (ns < 1 || ns + 2 != r) return false;
  int nld = op_attr_ints(op, "lhs_dilation", &ld), ncp = op_attr_ints(op, "padding", &cp);
  if (nld < 0 || (nld && nld != ns) || ncp < 0 || (ncp && ncp != 2 * ns)) return false;
  for (int i = 0; i < nld; i++)
    if (ld[i] != 1) return false;
  /* only spatial dimensions padded, by non-negative amounts */
  bool spatial[64] = {0};
  if (r > (int)(sizeof spatial / sizeof spatial[0])) return false;
  for (int i = 0; i < ns; i++) {
    if (isp[i] < 0 || isp[i] >= r) return false;
    spatial[isp[i]] = true;
  }
  for (int d = 0; d < r; d++)
    if (lo[d] < 0 || hi[d] < 0 || (!spatial[d] && (lo[d] || hi[d]))) return false;
  if (!kernel_finite(op->opnds[1])) return false;
  int64_t shape[2] = {ns, 2};
  Literal *lit = lit_new_in(&s->m->arena, type_tensor(&s->m->arena, ET_S64, 2, shape));
  for (int i = 0; i < ns; i++) {
    lit_set_i(lit, 2 * i, (ncp ? cp[2 * i] : 0) + lo[isp[i]]);
    lit_set_i(lit, 2 * i + 1, (ncp ? cp[2 * i + 1] : 0) + hi[isp[i]]);
  }
  op_set_attr(s->m, op, "padding", attr_dense(s->m, lit));
  op->opnds[0] = pad->opnds[0];
  s->changed++;
  return true;
}

/* The identity element of a reduction body that is a single binary op on
   its two arguments, checked against init (a splat). */
static bool init_is_identity(OpKind k, const Literal *init) {
  ElemType t = lit_elem(init);
  bool fl = et_is_float(t);
  if (!fl && !int_like(t)) return false;
  switch (k) {
  case OP_ADD: return fl ? is_neg_zero_f(init) : lit_get_i(init, 0) == 0;
  case OP_MULTIPLY: return fl ? splat_is_float(init, 1.0, false) : lit_get_i(init, 0) == 1;
  case OP_OR:
  case OP_XOR: return !fl && lit_get_i(init, 0) == 0;
  case OP_AND: return !fl && splat_is_all_ones(init);
  case OP_MAXIMUM:
    if (fl) return lit_get_f(init, 0) == -INFINITY;
    if (et_is_pred(t) || et_is_unsigned(t)) return lit_get_u(init, 0) == 0;
    return lit_get_i(init, 0) == (et_bits(t) >= 64 ? INT64_MIN : -((int64_t)1 << (et_bits(t) - 1)));
  case OP_MINIMUM:
    if (fl) return lit_get_f(init, 0) == INFINITY;
    if (et_is_pred(t) || et_is_unsigned(t)) return splat_is_all_ones(init);
    return lit_get_i(init, 0) == (et_bits(t) >= 64 ? INT64_MAX : ((int64_t)1 << (et_bits(t) - 1)) - 1);
  default: return false;
  }
}

static bool simplify_reduce(Simp *s, Op *op) {
  int64_t *d;
  if (op->nopnds != 2 || op->nres != 1 || op->nregions != 1 || op_attr_ints(op, "dimensions", &d) != 0)
    return false;
  Block *body = op->regions[0];
  Op *bin = body->first;
  if (body->nargs != 2 || !bin || !bin->next || bin->next->next) return false;
  Op *ret = bin->next;
  if (ret->kind != OP_RETURN || ret->nopnds != 1 || ret->opnds[0] != &bin->res[0]) return false;
  if (bin->nopnds != 2 || bin->nres != 1 || bin->nregions || bin->nattrs) return false;
  bool args_ok = (bin->opnds[0] == body->args[0] && bin->opnds[1] == body->args[1]) ||
                 (bin->opnds[0] == body->args[1] && bin->opnds[1] == body->args[0]);
  Literal *init = splat_of(op->opnds[1]);
  if (!args_ok || !init || !init_is_identity(bin->kind, init)) return false;
  return replace_by(s, op, op->opnds[0]);
}

static bool simplify_select(Simp *s, Op *op) {
  Value *p = op->opnds[0], *a = op->opnds[1], *b = op->opnds[2];
  if (a == b) return replace_by(s, op, a);
  Literal *c = splat_of(p);
  if (c && et_is_pred(lit_elem(c))) return replace_by(s, op, lit_get_b(c, 0) ? a : b);
  return false;
}

/* A bitcast_convert to its operand's own type, or undoing the bitcast that
   made its operand (the storage views quant-lower puts around quantized
   values); quantized types must match exactly. */
static bool simplify_bitcast(Simp *s, Op *op) {
  Value *x = op->opnds[0];
  Op *in = x->def;
  if (in && in->kind == OP_BITCAST_CONVERT && in->nopnds == 1) x = in->opnds[0];
  else if (x->type->kind != TY_TENSOR || x->type->quant || op->res[0].type->quant) return false;
  if (!type_equal(x->type, op->res[0].type) || &op->res[0] == x) return false;
  replace(s, op, 0, x);
  return true;
}

static bool simplify_op(Simp *s, Op *op) {
  if (op->kind == OP_BITCAST_CONVERT && op->nopnds == 1 && op->nres == 1) return simplify_bitcast(s, op);
  if (op->nres < 1 || op_has_quant(op)) return false;
  switch (op->kind) {
  case OP_CONSTANT: {
    /* a large constant whose elements are all equal becomes a broadcast
       scalar: fusion folds it into its users as an immediate, and no
       later pass hashes, compares or scans its elements (JAX's
       decompositions of chlo ops spell their coefficients as splats of
       the full shape).  Small ones stay: they cost nothing, and a
       broadcast read by a call the interpreter runs would need a kernel. */
    Literal *l = const_lit(&op->res[0]);
    Type *t = op->res[0].type;
    if (!l || t->kind != TY_TENSOR || t->rank == 0 || l->n < 1024 || et_is_complex(lit_elem(l)) ||
        et_bits(lit_elem(l)) > 64 || !lit_is_splat(l))
      return false;
    return replace_by(s, op, make_splat(s, op, t, lit_get_bits(l, 0)));
  }
  case OP_ADD: case OP_SUBTRACT: case OP_MULTIPLY: case OP_DIVIDE: case OP_AND: case OP_OR:
  case OP_XOR: case OP_MAXIMUM: case OP_MINIMUM:
    return op->nopnds == 2 && simplify_binary(s, op);
  case OP_NOT:
  case OP_NEGATE: {
    Op *in = op->opnds[0]->def;
    return in && in->kind == op->kind && replace_by(s, op, in->opnds[0]);
  }
  case OP_COMPARE:
    return op->nopnds == 2 && simplify_compare(s, op);
  case OP_SELECT:
    return op->nopnds == 3 && simplify_select(s, op);
  case OP_CONVERT:
    return op->nopnds == 1 && simplify_convert(s, op);
  case OP_RESHAPE: {
    Value *x = op->opnds[0];
    if (same_type(x->type, op->res[0].type)) return replace_by(s, op, x);
    if (x->def && x->def->kind == OP_RESHAPE && !op_has_quant(x->def)) {
      op->opnds[0] = x->def->opnds[0];
      s->changed++;
      return true;
    }
    return false;
  }
  case OP_TRANSPOSE:
    return op->nopnds == 1 && simplify_transpose(s, op);
  case OP_BROADCAST_IN_DIM:
    return op->nopnds == 1 && simplify_broadcast(s, op);
  case OP_SLICE:
    return op->nopnds == 1 && simplify_slice(s, op);
  case OP_CONCATENATE:
    return op->nopnds == 1 && replace_by(s, op, op->opnds[0]);
  case OP_PAD:
    return op->nopnds == 2 && simplify_pad(s, op);
  case OP_CONVOLUTION:
    return op->nopnds == 2 && simplify_conv(s, op);
  case OP_REVERSE: {
    int64_t *d;
    return op->nopnds == 1 && op_attr_ints(op, "dimensions", &d) == 0 && replace_by(s, op, op->opnds[0]);
  }
  case OP_REDUCE:
    return simplify_reduce(s, op);
  case OP_GET_TUPLE_ELEMENT: {
    Op *in = op->opnds[0]->def;
    int64_t i = op_attr_int(op, "index", -1);
    if (!in || in->kind != OP_TUPLE || i < 0 || i >= in->nopnds) return false;
    Value *e = in->opnds[i];
    if (!type_equal(e->type, op->res[0].type)) return false;
    replace(s, op, 0, e);
    return true;
  }
  default:
    return false;
  }
}

static void simplify_block(Simp *s, Block *b) {
  for (Op *op = b->first; op; op = op->next) {
    op_forward_operands(op, &s->fwd);
    simplify_op(s, op);
    for (int r = 0; r < op->nregions; r++) simplify_block(s, op->regions[r]);
  }
}

int pass_simplify(Module *m, const PassOptions *o) {
  (void)o;
  int total = 0;
  for (Func *f = m->funcs; f; f = f->next) {
    Simp s = {m, f, 0, {0}};
    /* each round can expose another (a chain of three reshapes), so repeat;
       the bound only guards against a rule that undoes another */
    for (int round = 0; round < 32; round++) {
      s.changed = 0;
      simplify_block(&s, f->body);
      ptrmap_free(&s.fwd);
      if (!s.changed) break;
      total += s.changed;
      func_erase_dead(f);
    }
  }
  return total > 0;
}
