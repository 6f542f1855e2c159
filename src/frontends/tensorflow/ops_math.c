/*
 * ops_math.c - TensorFlow ops: elementwise arithmetic, comparisons, logic, casts, reductions.
 *
 * Ops whose lowering has the same shape share one function and a table
 * row saying what differs (the StableHLO op, the element types TensorFlow
 * allows, a variant); the function finds its row by the node's op type.
 *
 * Semantics follow TensorFlow's kernels where they are defined: integer
 * Div and TruncateDiv truncate, FloorDiv/FloorMod round toward negative
 * infinity (the remainder takes the divisor's sign), Round and Rint round
 * half to even, Cast truncates floats toward zero and maps non-zero
 * (NaN included) to true, ArgMax/ArgMin pick the first of equal values and
 * pass over NaN.  Sums, means, products and scans of half and bfloat16
 * accumulate in float32 and round once at the end, as XLA's TensorFlow
 * bridge does (TensorFlow's CPU kernels accumulate in the narrow type and
 * overflow sooner); means of 8- and 16-bit integers sum in 32 bits.
 */
#include <math.h>
#include <string.h>

#include "frontends/tensorflow/tf_int.h"

/* ---- element type classes and small builders ---- */
enum {
  T_FLOAT = 1,
  T_INT = 2,
  T_BOOL = 4,
  T_CPLX = 8,
  T_NUM = T_FLOAT | T_INT,
  T_ARITH = T_NUM | T_CPLX, /* + - * / and the like, complex included */
  T_ANY = T_ARITH | T_BOOL,
};

static unsigned type_class(ElemType et) {
  if (et_is_float(et)) return T_FLOAT;
  if (et_is_int(et)) return T_INT;
  if (et_is_pred(et)) return T_BOOL;
  if (et_is_complex(et)) return T_CPLX;
  return 0;
}

static const char *class_words(unsigned allowed) {
  switch (allowed) {
  case T_FLOAT: return "floating-point";
  case T_INT: return "integer";
  case T_BOOL: return "bool";
  case T_NUM: return "real numeric";
  case T_ARITH: return "numeric";
  default: return "numeric or bool";
  }
}

/* Input count and the element type class of input 0 (and of every input
   up to `same`, which must match it). */
static bool check_inputs(TfCtx *c, int n, int same, unsigned allowed) {
  if (c->nin != n) return tf_error(c, "expects %d input%s, got %d", n, n == 1 ? "" : "s", c->nin);
  ElemType et = c->in[0]->type->elem;
  if (!(type_class(et) & allowed))
    return tf_error(c, "element type %s is not supported (%s types are)", elem_info[et].mlir_name,
                    class_words(allowed));
  for (int i = 1; i < same; i++)
    if (c->in[i]->type->elem != et) return tf_error(c, "the inputs have different element types");
  return true;
}

static Value *cmp(TfCtx *c, Value *x, Value *y, const char *dir) { return bld_compare(&c->b, x, y, dir); }
static Value *sel(TfCtx *c, Value *p, Value *x, Value *y) { return bld_select(&c->b, p, x, y); }
static Value *bin(TfCtx *c, OpKind k, Value *x, Value *y) { return bld_bin(&c->b, k, x, y); }
static Value *un(TfCtx *c, OpKind k, Value *x) { return bld_un(&c->b, k, x); }
/* a constant of x's type (splat) */
static Value *like(TfCtx *c, Value *x, double v) { return bld_const_f(&c->b, x->type, v); }

/* Maximum / minimum as TensorFlow computes them: NaN wins, and of equal
   values x (so max(-0, 0) is -0, where StableHLO's maximum gives 0). */
static Value *max_min(TfCtx *c, bool is_max, Value *x, Value *y) {
  if (!et_is_float(x->type->elem)) return bin(c, is_max ? OP_MAXIMUM : OP_MINIMUM, x, y);
  Value *keep = bin(c, OP_OR, cmp(c, x, y, is_max ? "GE" : "LE"), cmp(c, x, x, "NE"));
  return sel(c, keep, x, y);
}

/* The smallest (highest = false) or largest value of et: -inf / +inf for
   floats, the integer limits, false / true. */
static Value *extreme(TfCtx *c, ElemType et, bool highest) {
  Module *m = tf_module(c);
  Literal *l = lit_new_in(&m->arena, type_scalar(&m->arena, et));
  int bits = et_bits(et);
  if (et_is_float(et)) {
    lit_set_f(l, 0, highest ? INFINITY : -INFINITY);
  } else if (et_is_signed(et)) {
    int64_t max = (int64_t)(UINT64_MAX >> (65 - bits));
    lit_set_i(l, 0, highest ? max : -max - 1);
  } else if (et_is_unsigned(et)) {
    lit_set_u(l, 0, highest ? UINT64_MAX >> (64 - bits) : 0);
  } else {
    lit_set_b(l, 0, highest);
  }
  return tf_constant(c, l);
}

static Value *nan_scalar(TfCtx *c, ElemType et) { return tf_scalar(c, et, NAN); }

/* half and bfloat16 sums and products accumulate in float32 */
static ElemType accum_type(ElemType et) { return et == ET_F16 || et == ET_BF16 ? ET_F32 : et; }

/* slice of x along `axis`, [lo, hi) */
static Value *slice_axis(TfCtx *c, Value *x, int axis, int64_t lo, int64_t hi) {
  Module *m = tf_module(c);
  const Type *t = x->type;
  int64_t start[64], limit[64], stride[64], dims[64];
  for (int d = 0; d < t->rank; d++) {
    start[d] = d == axis ? lo : 0;
    limit[d] = d == axis ? hi : t->dims[d];
    stride[d] = 1;
    dims[d] = limit[d] - start[d];
  }
  Value *r = bld_op(&c->b, OP_SLICE, 1, &x, tf_type(c, t->elem, t->rank, dims));
  op_set_attr(m, r->def, "start_indices", attr_ints(m, t->rank, start));
  op_set_attr(m, r->def, "limit_indices", attr_ints(m, t->rank, limit));
  op_set_attr(m, r->def, "strides", attr_ints(m, t->rank, stride));
  return r;
}

/* ---- unary elementwise ops and activations ---- */
typedef enum {
  U_PLAIN,    /* the StableHLO/CHLO op as is */
  U_PRED,     /* the op, with a bool result */
  U_SQUARE,   /* x * x */
  U_RECIP,    /* 1 / x */
  U_ISNAN,    /* x != x */
  U_RELU,     /* max(x, 0) */
  U_RELU6,    /* min(max(x, 0), 6) */
  U_LEAKY,    /* x > 0 ? x : alpha * x */
  U_ELU,      /* x > 0 ? x : expm1(x) */
  U_SELU,     /* scale * (x > 0 ? x : alpha * expm1(x)) */
  U_SOFTPLUS, /* log(1 + exp(x)) */
  U_SOFTSIGN, /* x / (1 + |x|) */
  U_ZEROS,    /* ZerosLike */
  U_ONES,     /* OnesLike */
} UnaryHow;

typedef struct UnaryDef {
  const char *op;
  UnaryHow how;
  OpKind k; /* the op of U_PLAIN and U_PRED; else the main one, for the reader */
  unsigned types;
} UnaryDef;

static const UnaryDef unary_defs[] = {
    {"Neg", U_PLAIN, OP_NEGATE, T_ARITH},
    {"Abs", U_PLAIN, OP_ABS, T_NUM},
    {"Sign", U_PLAIN, OP_SIGN, T_NUM},
    {"Exp", U_PLAIN, OP_EXPONENTIAL, T_ARITH},
    {"Expm1", U_PLAIN, OP_EXPONENTIAL_MINUS_ONE, T_ARITH},
    {"Log", U_PLAIN, OP_LOG, T_ARITH},
    {"Log1p", U_PLAIN, OP_LOG_PLUS_ONE, T_ARITH},
    {"Sqrt", U_PLAIN, OP_SQRT, T_ARITH},
    {"Rsqrt", U_PLAIN, OP_RSQRT, T_ARITH},
    {"Floor", U_PLAIN, OP_FLOOR, T_FLOAT},
    {"Ceil", U_PLAIN, OP_CEIL, T_FLOAT},
    {"Rint", U_PLAIN, OP_ROUND_NEAREST_EVEN, T_FLOAT},
    /* TensorFlow's CPU kernel of Round on integers returns zeros and XLA
       rejects it (tf.round never makes one): floats only */
    {"Round", U_PLAIN, OP_ROUND_NEAREST_EVEN, T_FLOAT},
    {"Tanh", U_PLAIN, OP_TANH, T_ARITH},
    {"Sigmoid", U_PLAIN, OP_LOGISTIC, T_FLOAT},
    {"Sin", U_PLAIN, OP_SINE, T_ARITH},
    {"Cos", U_PLAIN, OP_COSINE, T_ARITH},
    {"Tan", U_PLAIN, OP_TAN, T_FLOAT},
    {"Asin", U_PLAIN, OP_CHLO_ASIN, T_FLOAT},
    {"Acos", U_PLAIN, OP_CHLO_ACOS, T_FLOAT},
    {"Atan", U_PLAIN, OP_CHLO_ATAN, T_FLOAT},
    {"Sinh", U_PLAIN, OP_CHLO_SINH, T_FLOAT},
    {"Cosh", U_PLAIN, OP_CHLO_COSH, T_FLOAT},
    {"Asinh", U_PLAIN, OP_CHLO_ASINH, T_FLOAT},
    {"Acosh", U_PLAIN, OP_CHLO_ACOSH, T_FLOAT},
    {"Atanh", U_PLAIN, OP_CHLO_ATANH, T_FLOAT},
    {"Erf", U_PLAIN, OP_CHLO_ERF, T_FLOAT},
    {"Erfc", U_PLAIN, OP_CHLO_ERFC, T_FLOAT},
    {"Erfinv", U_PLAIN, OP_CHLO_ERF_INV, T_FLOAT},
    {"Lgamma", U_PLAIN, OP_CHLO_LGAMMA, T_FLOAT},
    {"Digamma", U_PLAIN, OP_CHLO_DIGAMMA, T_FLOAT},
    {"LogicalNot", U_PLAIN, OP_NOT, T_BOOL},
    {"Invert", U_PLAIN, OP_NOT, T_INT},
    {"IsFinite", U_PRED, OP_IS_FINITE, T_FLOAT},
    {"IsInf", U_PRED, OP_CHLO_IS_INF, T_FLOAT},
    {"IsNan", U_ISNAN, OP_COMPARE, T_FLOAT},
    {"Square", U_SQUARE, OP_MULTIPLY, T_ARITH},
    {"Reciprocal", U_RECIP, OP_DIVIDE, T_ARITH},
    {"Inv", U_RECIP, OP_DIVIDE, T_ARITH},
    {"Relu", U_RELU, OP_MAXIMUM, T_NUM},
    {"Relu6", U_RELU6, OP_CLAMP, T_NUM},
    {"LeakyRelu", U_LEAKY, OP_SELECT, T_FLOAT},
    {"Elu", U_ELU, OP_SELECT, T_FLOAT},
    {"Selu", U_SELU, OP_SELECT, T_FLOAT},
    {"Softplus", U_SOFTPLUS, OP_LOG_PLUS_ONE, T_FLOAT},
    {"Softsign", U_SOFTSIGN, OP_DIVIDE, T_FLOAT},
    {"ZerosLike", U_ZEROS, OP_CONSTANT, T_ANY},
    {"OnesLike", U_ONES, OP_CONSTANT, T_ANY},
};

static const UnaryDef *find_unary(const char *op) {
  for (size_t i = 0; i < sizeof unary_defs / sizeof *unary_defs; i++)
    if (!strcmp(unary_defs[i].op, op)) return &unary_defs[i];
  return NULL;
}

static bool lower_unary(TfCtx *c) {
  const UnaryDef *d = find_unary(c->node->op);
  if (!d) return tf_error(c, "internal error: no unary lowering for this op");
  if (!check_inputs(c, 1, 1, d->types)) return false;
  Value *x = c->in[0], *r = NULL;
  switch (d->how) {
  case U_PLAIN: r = un(c, d->k, x); break;
  case U_PRED: r = bld_op(&c->b, d->k, 1, &x, bld_shape_of(&c->b, x->type, ET_PRED)); break;
  case U_ISNAN: r = cmp(c, x, x, "NE"); break;
  case U_SQUARE: r = bin(c, OP_MULTIPLY, x, x); break;
  case U_RECIP: r = bin(c, OP_DIVIDE, like(c, x, 1), x); break;
  case U_RELU: r = max_min(c, true, x, like(c, x, 0)); break;
  case U_RELU6: r = max_min(c, false, max_min(c, true, x, like(c, x, 0)), like(c, x, 6)); break;
  case U_LEAKY: {
    double alpha = tf_attr_float(c, "alpha", 0.2);
    r = sel(c, cmp(c, x, like(c, x, 0), "GT"), x, bin(c, OP_MULTIPLY, x, like(c, x, alpha)));
    break;
  }
  case U_ELU: r = sel(c, cmp(c, x, like(c, x, 0), "GT"), x, un(c, OP_EXPONENTIAL_MINUS_ONE, x)); break;
  case U_SELU: {
    const double scale = 1.0507009873554804934193349852946, alpha = 1.6732632423543772848170429916717;
    Value *neg = bin(c, OP_MULTIPLY, un(c, OP_EXPONENTIAL_MINUS_ONE, x), like(c, x, scale * alpha));
    r = sel(c, cmp(c, x, like(c, x, 0), "GT"), bin(c, OP_MULTIPLY, x, like(c, x, scale)), neg);
    break;
  }
  case U_SOFTPLUS: {
    /* max(x, 0) + log1p(exp(-|x|)): no overflow for large |x| */
    Value *e = un(c, OP_EXPONENTIAL, un(c, OP_NEGATE, un(c, OP_ABS, x)));
    r = bin(c, OP_ADD, max_min(c, true, x, like(c, x, 0)), un(c, OP_LOG_PLUS_ONE, e));
    break;
  }
  case U_SOFTSIGN: r = bin(c, OP_DIVIDE, x, bin(c, OP_ADD, like(c, x, 1), un(c, OP_ABS, x))); break;
  case U_ZEROS: r = bld_const_i(&c->b, x->type, 0); break;
  case U_ONES: r = bld_const_i(&c->b, x->type, 1); break;
  }
  tf_out(c, r);
  return true;
}

/* ---- binary elementwise ops and comparisons (NumPy broadcasting) ---- */
typedef enum {
  B_PLAIN,     /* the StableHLO op on broadcast operands */
  B_MAXMIN,    /* max_min */
  B_CMP,       /* compare with direction `dir`, bool result */
  B_EQ,        /* Equal / NotEqual: incompatible_shape_error=false gives a scalar */
  B_FLOORDIV,  /* rounds toward -inf */
  B_FLOORMOD,  /* remainder with the divisor's sign */
  B_TRUNCDIV,  /* rounds toward zero */
  B_SQDIFF,    /* (x - y)^2 */
  B_DIVNONAN,  /* y == 0 ? 0 : x / y */
  B_MULNONAN,  /* y == 0 ? 0 : x * y */
  B_XDIVY,     /* x == 0 ? 0 : x / y */
  B_XLOGY,     /* x == 0 ? 0 : x * log(y) */
  B_XLOG1PY,   /* x == 0 ? 0 : x * log1p(y) */
} BinaryHow;

typedef struct BinaryDef {
  const char *op;
  BinaryHow how;
  OpKind k;
  unsigned types;
  const char *dir; /* comparisons */
} BinaryDef;

static const BinaryDef binary_defs[] = {
    {"Add", B_PLAIN, OP_ADD, T_ARITH, NULL},
    {"AddV2", B_PLAIN, OP_ADD, T_ARITH, NULL},
    {"Sub", B_PLAIN, OP_SUBTRACT, T_ARITH, NULL},
    {"Mul", B_PLAIN, OP_MULTIPLY, T_ARITH, NULL},
    /* integer division truncates in both */
    {"Div", B_PLAIN, OP_DIVIDE, T_ARITH, NULL},
    {"RealDiv", B_PLAIN, OP_DIVIDE, T_ARITH, NULL},
    {"Maximum", B_MAXMIN, OP_MAXIMUM, T_NUM, NULL},
    {"Minimum", B_MAXMIN, OP_MINIMUM, T_NUM, NULL},
    {"Pow", B_PLAIN, OP_POWER, T_ARITH, NULL},
    {"Atan2", B_PLAIN, OP_ATAN2, T_FLOAT, NULL},
    {"TruncateMod", B_PLAIN, OP_REMAINDER, T_NUM, NULL},
    {"LogicalAnd", B_PLAIN, OP_AND, T_BOOL, NULL},
    {"LogicalOr", B_PLAIN, OP_OR, T_BOOL, NULL},
    {"BitwiseAnd", B_PLAIN, OP_AND, T_INT, NULL},
    {"BitwiseOr", B_PLAIN, OP_OR, T_INT, NULL},
    {"BitwiseXor", B_PLAIN, OP_XOR, T_INT, NULL},
    {"FloorDiv", B_FLOORDIV, OP_DIVIDE, T_NUM, NULL},
    {"FloorMod", B_FLOORMOD, OP_REMAINDER, T_NUM, NULL},
    {"TruncateDiv", B_TRUNCDIV, OP_DIVIDE, T_NUM, NULL},
    {"SquaredDifference", B_SQDIFF, OP_SUBTRACT, T_NUM, NULL},
    {"DivNoNan", B_DIVNONAN, OP_DIVIDE, T_FLOAT, NULL},
    {"MulNoNan", B_MULNONAN, OP_MULTIPLY, T_FLOAT, NULL},
    {"Xdivy", B_XDIVY, OP_DIVIDE, T_FLOAT, NULL},
    {"Xlogy", B_XLOGY, OP_LOG, T_FLOAT, NULL},
    {"Xlog1py", B_XLOG1PY, OP_LOG_PLUS_ONE, T_FLOAT, NULL},
    {"Less", B_CMP, OP_COMPARE, T_NUM, "LT"},
    {"LessEqual", B_CMP, OP_COMPARE, T_NUM, "LE"},
    {"Greater", B_CMP, OP_COMPARE, T_NUM, "GT"},
    {"GreaterEqual", B_CMP, OP_COMPARE, T_NUM, "GE"},
    {"Equal", B_EQ, OP_COMPARE, T_ANY, "EQ"},
    {"NotEqual", B_EQ, OP_COMPARE, T_ANY, "NE"},
};

static const BinaryDef *find_binary(const char *op) {
  for (size_t i = 0; i < sizeof binary_defs / sizeof *binary_defs; i++)
    if (!strcmp(binary_defs[i].op, op)) return &binary_defs[i];
  return NULL;
}

/* Whether shapes a and b broadcast (NumPy rules). */
static bool broadcastable(const Type *a, const Type *b) {
  int rank = a->rank > b->rank ? a->rank : b->rank;
  for (int i = 0; i < rank; i++) {
    int ia = i - (rank - a->rank), ib = i - (rank - b->rank);
    int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
    if (da != db && da != 1 && db != 1) return false;
  }
  return true;
}

/* (r != 0) && ((r < 0) != (y < 0)): a truncated remainder r whose sign
   differs from the divisor's, where floor division differs from truncation */
static Value *sign_differs(TfCtx *c, Value *r, Value *y) {
  Value *zero = like(c, r, 0);
  Value *diff = cmp(c, cmp(c, r, zero, "LT"), cmp(c, y, zero, "LT"), "NE");
  return bin(c, OP_AND, cmp(c, r, zero, "NE"), diff);
}

static bool lower_binary(TfCtx *c) {
  const BinaryDef *d = find_binary(c->node->op);
  if (!d) return tf_error(c, "internal error: no binary lowering for this op");
  if (!check_inputs(c, 2, 2, d->types)) return false;
  Value *x = c->in[0], *y = c->in[1], *r = NULL;
  bool strict = tf_attr_bool(c, "incompatible_shape_error", true);
  if (d->how == B_EQ && !strict && !broadcastable(x->type, y->type)) {
    /* shapes that cannot match: a scalar, "not equal" */
    Module *m = tf_module(c);
    Literal *l = lit_new_in(&m->arena, type_scalar(&m->arena, ET_PRED));
    lit_set_b(l, 0, !strcmp(d->dir, "NE"));
    tf_out(c, tf_constant(c, l));
    return true;
  }
  if (!tf_broadcast2(c, &x, &y)) return false;
  ElemType et = x->type->elem;
  bool is_float = et_is_float(et), is_signed = et_is_signed(et);
  switch (d->how) {
  case B_PLAIN: r = bin(c, d->k, x, y); break;
  case B_MAXMIN: r = max_min(c, d->k == OP_MAXIMUM, x, y); break;
  case B_CMP:
  case B_EQ: r = cmp(c, x, y, d->dir); break;
  case B_FLOORDIV:
    if (is_float) {
      r = un(c, OP_FLOOR, bin(c, OP_DIVIDE, x, y));
    } else {
      /* truncated quotient, one less where the remainder's sign differs */
      r = bin(c, OP_DIVIDE, x, y);
      if (is_signed)
        r = sel(c, sign_differs(c, bin(c, OP_REMAINDER, x, y), y), bin(c, OP_SUBTRACT, r, like(c, r, 1)), r);
    }
    break;
  case B_FLOORMOD: {
    Value *rem = bin(c, OP_REMAINDER, x, y);
    r = is_float || is_signed ? sel(c, sign_differs(c, rem, y), bin(c, OP_ADD, rem, y), rem) : rem;
    break;
  }
  case B_TRUNCDIV: {
    Value *q = bin(c, OP_DIVIDE, x, y);
    r = is_float ? sel(c, cmp(c, q, like(c, q, 0), "LT"), un(c, OP_CEIL, q), un(c, OP_FLOOR, q)) : q;
    break;
  }
  case B_SQDIFF: {
    Value *t = bin(c, OP_SUBTRACT, x, y);
    r = bin(c, OP_MULTIPLY, t, t);
    break;
  }
  case B_DIVNONAN:
  case B_MULNONAN: r = sel(c, cmp(c, y, like(c, y, 0), "EQ"), like(c, x, 0), bin(c, d->k, x, y)); break;
  case B_XDIVY: r = sel(c, cmp(c, x, like(c, x, 0), "EQ"), like(c, x, 0), bin(c, OP_DIVIDE, x, y)); break;
  case B_XLOGY:
  case B_XLOG1PY:
    r = sel(c, cmp(c, x, like(c, x, 0), "EQ"), like(c, x, 0), bin(c, OP_MULTIPLY, x, un(c, d->k, y)));
    break;
  }
  tf_out(c, r);
  return true;
}

/* AddN: the sum of its inputs (same shapes), left to right */
static bool lower_add_n(TfCtx *c) {
  if (c->nin < 1) return tf_error(c, "expects at least one input");
  if (!check_inputs(c, c->nin, c->nin, T_ARITH)) return false;
  Value *r = c->in[0];
  for (int i = 1; i < c->nin; i++) {
    const Type *a = r->type, *b = c->in[i]->type;
    if (a->rank != b->rank || memcmp(a->dims, b->dims, sizeof(int64_t) * (size_t)a->rank))
      return tf_error(c, "input %d's shape differs from input 0's", i);
    r = bin(c, OP_ADD, r, c->in[i]);
  }
  tf_out(c, r);
  return true;
}

/* ---- Select / SelectV2 ---- */
static bool lower_select(TfCtx *c) {
  if (c->nin != 3) return tf_error(c, "expects 3 inputs, got %d", c->nin);
  Value *p = c->in[0], *x = c->in[1], *y = c->in[2];
  if (p->type->elem != ET_PRED) return tf_error(c, "the condition must be bool");
  if (x->type->elem != y->type->elem) return tf_error(c, "the inputs have different element types");
  if (!strcmp(c->node->op, "SelectV2")) {
    /* all three broadcast to one shape */
    if (!tf_broadcast2(c, &x, &y) || !tf_broadcast2(c, &p, &x) || !tf_broadcast2(c, &x, &y)) return false;
  } else {
    /* Select: x and y alike; the condition alike, a scalar, or a vector
       choosing rows (along x's first dimension) */
    const Type *t = x->type, *pt = p->type;
    if (t->rank != y->type->rank || memcmp(t->dims, y->type->dims, sizeof(int64_t) * (size_t)t->rank))
      return tf_error(c, "'t' and 'e' must have the same shape");
    bool same = pt->rank == t->rank && !memcmp(pt->dims, t->dims, sizeof(int64_t) * (size_t)t->rank);
    if (!same) {
      int64_t dim0 = 0;
      if (pt->rank == 0) {
        p = bld_broadcast(&c->b, p, t, 0, NULL);
      } else if (pt->rank == 1 && t->rank > 1 && pt->dims[0] == t->dims[0]) {
        p = bld_broadcast(&c->b, p, t, 1, &dim0);
      } else {
        return tf_error(c, "the condition must be a scalar, have the shape of 't', or be a vector as long as "
                           "'t''s first dimension");
      }
    }
  }
  tf_out(c, sel(c, p, x, y));
  return true;
}

/* ---- Cast / Bitcast ---- */
static int mantissa_bits(ElemType et) {
  switch (et) {
  case ET_F16: return 10;
  case ET_BF16: return 7;
  case ET_F32: return 23;
  case ET_F64: return 52;
  default: return -1;
  }
}

static ElemType uint_of_width(int bits) {
  return bits == 16 ? ET_U16 : bits == 32 ? ET_U32 : bits == 64 ? ET_U64 : ET_INVALID;
}

static bool lower_cast(TfCtx *c) {
  if (c->nin != 1) return tf_error(c, "expects 1 input, got %d", c->nin);
  ElemType dst;
  if (!tf_attr_type(c, "DstT", &dst)) return false;
  Value *x = c->in[0];
  ElemType src = x->type->elem;
  if (src == dst) {
    tf_out(c, x);
    return true;
  }
  if (et_is_complex(src) && !et_is_complex(dst) && dst != ET_PRED) {
    /* the real part */
    x = bld_op(&c->b, OP_REAL, 1, &x, bld_shape_of(&c->b, x->type, src == ET_C64 ? ET_F32 : ET_F64));
    src = x->type->elem;
  }
  if (dst == ET_PRED) {
    /* non-zero, NaN included, is true */
    tf_out(c, cmp(c, x, like(c, x, 0), "NE"));
    return true;
  }
  int ms = mantissa_bits(src), md = mantissa_bits(dst);
  if (tf_attr_bool(c, "Truncate", false) && ms > 0 && md > 0 && md < ms) {
    /* round toward zero: clear the mantissa bits the destination lacks, so
       that the conversion is exact (NaN kept as it is: its payload may
       be all in the cleared bits) */
    ElemType ut = uint_of_width(et_bits(src));
    Value *bits = bld_bitcast(&c->b, x, bld_shape_of(&c->b, x->type, ut));
    Value *mask = bld_const_bits(&c->b, x->type, ut, ~((UINT64_C(1) << (ms - md)) - 1));
    Value *t = bld_bitcast(&c->b, bin(c, OP_AND, bits, mask), x->type);
    x = sel(c, cmp(c, x, x, "NE"), x, t);
  }
  tf_out(c, tf_convert(c, x, dst));
  return true;
}

static bool lower_bitcast(TfCtx *c) {
  if (c->nin != 1) return tf_error(c, "expects 1 input, got %d", c->nin);
  ElemType dst;
  if (!tf_attr_type(c, "type", &dst)) return false;
  Value *x = c->in[0];
  const Type *t = x->type;
  int sb = et_bits(t->elem), db = et_bits(dst);
  if (et_is_pred(t->elem) || et_is_pred(dst)) return tf_error(c, "bool cannot be bitcast");
  /* wider to narrower adds a last dimension of the ratio; narrower to wider
     drops a last dimension that must be the ratio */
  int64_t dims[65];
  int rank = t->rank;
  memcpy(dims, t->dims, sizeof(int64_t) * (size_t)rank);
  if (sb > db) {
    dims[rank++] = sb / db;
  } else if (sb < db) {
    if (rank == 0 || dims[rank - 1] != db / sb)
      return tf_error(c, "the last dimension must be %d to bitcast %s to %s", db / sb,
                      elem_info[t->elem].mlir_name, elem_info[dst].mlir_name);
    rank--;
  }
  tf_out(c, bld_bitcast(&c->b, x, tf_type(c, dst, rank, dims)));
  return true;
}

/* ---- reductions ---- */
/* The axes of input 1, in [0, rank), sorted, without duplicates (an error
   for a duplicate, as in TensorFlow). */
static bool reduction_axes(TfCtx *c, int rank, int64_t **axes, int *n) {
  int64_t *v;
  int nv;
  if (!tf_const_ints(c, 1, "the reduction axes", &v, &nv)) return false;
  bool seen[64] = {false};
  for (int i = 0; i < nv; i++) {
    if (rank == 0) return tf_error(c, "a scalar has no axis %lld", (long long)v[i]);
    if (!tf_axis(c, v[i], rank, &v[i])) return false;
    if (seen[v[i]]) return tf_error(c, "the axes contain dimension %lld twice", (long long)v[i]);
    seen[v[i]] = true;
  }
  *n = 0;
  for (int d = 0; d < rank; d++)
    if (seen[d]) v[(*n)++] = d;
  *axes = v;
  return true;
}

typedef enum { I_ZERO, I_ONE, I_LOWEST, I_HIGHEST } ReduceInit;

typedef struct ReduceDef {
  const char *op;
  OpKind k; /* body */
  unsigned types;
  ReduceInit init;
} ReduceDef;

static const ReduceDef reduce_defs[] = {
    {"Sum", OP_ADD, T_ARITH, I_ZERO},         {"Mean", OP_ADD, T_ARITH, I_ZERO},
    {"Prod", OP_MULTIPLY, T_ARITH, I_ONE},    {"Max", OP_MAXIMUM, T_NUM, I_LOWEST},
    {"Min", OP_MINIMUM, T_NUM, I_HIGHEST},  {"All", OP_AND, T_BOOL, I_ONE},
    {"Any", OP_OR, T_BOOL, I_ZERO},
};

static bool lower_reduce(TfCtx *c) {
  const ReduceDef *d = NULL;
  for (size_t i = 0; i < sizeof reduce_defs / sizeof *reduce_defs; i++)
    if (!strcmp(reduce_defs[i].op, c->node->op)) d = &reduce_defs[i];
  if (!d) return tf_error(c, "internal error: no reduction lowering for this op");
  if (!check_inputs(c, 2, 1, d->types)) return false;
  Value *x = c->in[0];
  const Type *t = x->type;
  int64_t *axes = NULL;
  int n = 0;
  if (!reduction_axes(c, t->rank, &axes, &n)) return false;
  if (n == 0) {
    tf_out(c, x);
    return true;
  }
  ElemType et = t->elem;
  bool widen = d->k == OP_ADD || d->k == OP_MULTIPLY;
  ElemType at = widen ? accum_type(et) : et;
  /* a mean of 8- and 16-bit integers sums in 32 bits (wrapping sums and
     products need no such care: they agree modulo the narrow width) */
  if (!strcmp(d->op, "Mean") && et_is_int(et) && et_bits(et) < 32) at = et_is_signed(et) ? ET_S32 : ET_U32;
  Value *xa = tf_convert(c, x, at);
  Value *init = d->init == I_LOWEST    ? extreme(c, at, false)
                : d->init == I_HIGHEST ? extreme(c, at, true)
                                       : tf_iscalar(c, at, d->init == I_ONE);
  Value *r = tf_reduce(c, xa, n, axes, d->k, init);
  if (!strcmp(d->op, "Mean")) {
    int64_t count = 1;
    for (int i = 0; i < n; i++) count *= t->dims[axes[i]];
    r = bin(c, OP_DIVIDE, r, bld_const_i(&c->b, r->type, count));
  }
  r = tf_convert(c, r, et);
  if (tf_attr_bool(c, "keep_dims", false)) {
    int64_t dims[64];
    for (int i = 0; i < t->rank; i++) dims[i] = ints_contain(axes, n, i) ? 1 : t->dims[i];
    r = bld_reshape(&c->b, r, t->rank, dims);
  }
  tf_out(c, r);
  return true;
}

/* ArgMax / ArgMin: a reduce of (value, index) pairs keeping the larger
   (smaller) value, NaN losing to any number, and the first index among
   equal values. */
static bool lower_arg_minmax(TfCtx *c) {
  bool is_max = !strcmp(c->node->op, "ArgMax");
  if (!check_inputs(c, 2, 1, T_NUM)) return false;
  Value *x = c->in[0];
  const Type *t = x->type;
  if (t->rank == 0) return tf_error(c, "the input must have rank 1 or more");
  int64_t *dv, axis;
  int nd;
  if (!tf_const_ints(c, 1, "the dimension", &dv, &nd)) return false;
  if (nd != 1) return tf_error(c, "the dimension must be one integer");
  if (!tf_axis(c, dv[0], t->rank, &axis)) return false;
  ElemType it = ET_S64, et = t->elem;
  if (tf_attr(c, "output_type") && !tf_attr_type(c, "output_type", &it)) return false;
  if (!et_is_int(it)) return tf_error(c, "output_type must be an integer type");
  if (t->dims[axis] == 0) return tf_error(c, "the reduced dimension is empty");

  Module *m = tf_module(c);
  Value *iota = bld_op(&c->b, OP_IOTA, 0, NULL, bld_shape_of(&c->b, t, it));
  op_set_attr(m, iota->def, "iota_dimension", attr_int(m, axis, NULL));
  bool is_float = et_is_float(et);
  /* the identity: a value that loses to all, with the largest index */
  Value *init_v = is_float ? nan_scalar(c, et) : extreme(c, et, !is_max);
  Value *init_i = extreme(c, it, true);

  int64_t rdims[64];
  int nr = 0;
  for (int i = 0; i < t->rank; i++)
    if (i != axis) rdims[nr++] = t->dims[i];
  Value *in[4] = {x, iota, init_v, init_i};
  Type *rts[2] = {tf_type(c, et, nr, rdims), tf_type(c, it, nr, rdims)};
  Op *r = op_new(m, OP_REDUCE, 4, in, 2, rts, c->b.loc);
  block_insert_before(c->b.blk, c->b.at, r);
  op_set_attr(m, r, "dimensions", attr_ints(m, 1, &axis));

  Block *body = block_new(m);
  Value *av = block_add_arg(m, body, type_scalar(&m->arena, et), NULL);
  Value *ai = block_add_arg(m, body, type_scalar(&m->arena, it), NULL);
  Value *bv = block_add_arg(m, body, type_scalar(&m->arena, et), NULL);
  Value *bi = block_add_arg(m, body, type_scalar(&m->arena, it), NULL);
  Builder bb = {m, body, NULL, c->b.loc};
  Value *better = bld_compare(&bb, av, bv, is_max ? "GT" : "LT");
  Value *tie = bld_compare(&bb, av, bv, "EQ");
  if (is_float) {
    Value *an = bld_compare(&bb, av, av, "NE"), *bn = bld_compare(&bb, bv, bv, "NE");
    better = bld_bin(&bb, OP_OR, better, bld_bin(&bb, OP_AND, bn, bld_un(&bb, OP_NOT, an)));
    tie = bld_bin(&bb, OP_OR, tie, bld_bin(&bb, OP_AND, an, bn));
  }
  Value *first = bld_bin(&bb, OP_AND, tie, bld_compare(&bb, ai, bi, "LT"));
  Value *pick = bld_bin(&bb, OP_OR, better, first);
  Value *ret[2] = {bld_select(&bb, pick, av, bv), bld_select(&bb, pick, ai, bi)};
  block_append(body, op_new(m, OP_RETURN, 2, ret, 0, NULL, c->b.loc));
  op_add_region(m, r, body);
  tf_out(c, &r->res[1]);
  return true;
}

/* Cumsum / Cumprod: a reduce_window whose window spans the whole axis,
   padded so that output i sees inputs [0, i] (or [i, n) when reversed);
   exclusive scans pad one more and drop the last (first) element. */
static bool lower_scan(TfCtx *c) {
  bool is_sum = !strcmp(c->node->op, "Cumsum");
  if (!check_inputs(c, 2, 1, T_NUM)) return false;
  Value *x = c->in[0];
  const Type *t = x->type;
  int64_t *av, axis;
  int na;
  if (!tf_const_ints(c, 1, "the axis", &av, &na)) return false;
  if (na != 1) return tf_error(c, "the axis must be one integer");
  if (t->rank == 0) return tf_error(c, "the input must have rank 1 or more");
  if (!tf_axis(c, av[0], t->rank, &axis)) return false;
  bool exclusive = tf_attr_bool(c, "exclusive", false), reverse = tf_attr_bool(c, "reverse", false);
  int64_t n = t->dims[axis];
  if (n == 0) {
    tf_out(c, x);
    return true;
  }
  ElemType et = t->elem, at = accum_type(et);
  int64_t window[64], strides[64], padding[128];
  for (int i = 0; i < t->rank; i++) {
    window[i] = i == axis ? n : 1;
    strides[i] = 1;
    padding[2 * i] = padding[2 * i + 1] = 0;
  }
  int64_t pad = exclusive ? n : n - 1;
  padding[2 * axis + (reverse ? 1 : 0)] = pad;
  Value *r = tf_reduce_window(c, tf_convert(c, x, at), tf_iscalar(c, at, is_sum ? 0 : 1),
                              is_sum ? OP_ADD : OP_MULTIPLY, window, strides, padding);
  if (!r) return false;
  if (exclusive) r = reverse ? slice_axis(c, r, (int)axis, 1, n + 1) : slice_axis(c, r, (int)axis, 0, n);
  tf_out(c, tf_convert(c, r, et));
  return true;
}

const TfOpDef tf_ops_math[] = {
    /* unary */
    {"Abs", lower_unary, NULL, NULL},
    {"Acos", lower_unary, NULL, NULL},
    {"Acosh", lower_unary, NULL, NULL},
    {"Asin", lower_unary, NULL, NULL},
    {"Asinh", lower_unary, NULL, NULL},
    {"Atan", lower_unary, NULL, NULL},
    {"Atanh", lower_unary, NULL, NULL},
    {"Ceil", lower_unary, NULL, NULL},
    {"Cos", lower_unary, NULL, NULL},
    {"Cosh", lower_unary, NULL, NULL},
    {"Digamma", lower_unary, NULL, NULL},
    {"Elu", lower_unary, NULL, NULL},
    {"Erf", lower_unary, NULL, NULL},
    {"Erfc", lower_unary, NULL, NULL},
    {"Erfinv", lower_unary, NULL, NULL},
    {"Exp", lower_unary, NULL, NULL},
    {"Expm1", lower_unary, NULL, NULL},
    {"Floor", lower_unary, NULL, NULL},
    {"Inv", lower_unary, NULL, NULL},
    {"Invert", lower_unary, NULL, NULL},
    {"IsFinite", lower_unary, NULL, NULL},
    {"IsInf", lower_unary, NULL, NULL},
    {"IsNan", lower_unary, NULL, NULL},
    {"LeakyRelu", lower_unary, NULL, NULL},
    {"Lgamma", lower_unary, NULL, NULL},
    {"Log", lower_unary, NULL, NULL},
    {"Log1p", lower_unary, NULL, NULL},
    {"LogicalNot", lower_unary, NULL, NULL},
    {"Neg", lower_unary, NULL, NULL},
    {"OnesLike", lower_unary, NULL, NULL},
    {"Reciprocal", lower_unary, NULL, NULL},
    {"Relu", lower_unary, NULL, NULL},
    {"Relu6", lower_unary, NULL, NULL},
    {"Rint", lower_unary, NULL, NULL},
    {"Round", lower_unary, NULL, "floats, half to even"},
    {"Rsqrt", lower_unary, NULL, NULL},
    {"Selu", lower_unary, NULL, NULL},
    {"Sigmoid", lower_unary, NULL, NULL},
    {"Sign", lower_unary, NULL, NULL},
    {"Sin", lower_unary, NULL, NULL},
    {"Sinh", lower_unary, NULL, NULL},
    {"Softplus", lower_unary, NULL, NULL},
    {"Softsign", lower_unary, NULL, NULL},
    {"Sqrt", lower_unary, NULL, NULL},
    {"Square", lower_unary, NULL, NULL},
    {"Tan", lower_unary, NULL, NULL},
    {"Tanh", lower_unary, NULL, NULL},
    {"ZerosLike", lower_unary, NULL, NULL},
    /* binary, broadcasting */
    {"Add", lower_binary, NULL, "no strings"},
    {"AddV2", lower_binary, NULL, NULL},
    {"Atan2", lower_binary, NULL, NULL},
    {"BitwiseAnd", lower_binary, NULL, NULL},
    {"BitwiseOr", lower_binary, NULL, NULL},
    {"BitwiseXor", lower_binary, NULL, NULL},
    {"Div", lower_binary, NULL, NULL},
    {"DivNoNan", lower_binary, NULL, NULL},
    {"Equal", lower_binary, NULL, "incompatible_shape_error"},
    {"FloorDiv", lower_binary, NULL, NULL},
    {"FloorMod", lower_binary, NULL, NULL},
    {"Greater", lower_binary, NULL, NULL},
    {"GreaterEqual", lower_binary, NULL, NULL},
    {"Less", lower_binary, NULL, NULL},
    {"LessEqual", lower_binary, NULL, NULL},
    {"LogicalAnd", lower_binary, NULL, NULL},
    {"LogicalOr", lower_binary, NULL, NULL},
    {"Maximum", lower_binary, NULL, NULL},
    {"Minimum", lower_binary, NULL, NULL},
    {"Mul", lower_binary, NULL, NULL},
    {"MulNoNan", lower_binary, NULL, NULL},
    {"NotEqual", lower_binary, NULL, "incompatible_shape_error"},
    {"Pow", lower_binary, NULL, NULL},
    {"RealDiv", lower_binary, NULL, NULL},
    {"SquaredDifference", lower_binary, NULL, NULL},
    {"Sub", lower_binary, NULL, NULL},
    {"TruncateDiv", lower_binary, NULL, NULL},
    {"TruncateMod", lower_binary, NULL, NULL},
    {"Xdivy", lower_binary, NULL, NULL},
    {"Xlog1py", lower_binary, NULL, NULL},
    {"Xlogy", lower_binary, NULL, NULL},
    {"AddN", lower_add_n, NULL, NULL},
    {"Select", lower_select, NULL, "vector condition picks rows"},
    {"SelectV2", lower_select, NULL, NULL},
    {"Cast", lower_cast, NULL, "Truncate"},
    {"Bitcast", lower_bitcast, NULL, NULL},
    /* reductions */
    {"All", lower_reduce, NULL, NULL},
    {"Any", lower_reduce, NULL, NULL},
    {"Max", lower_reduce, NULL, NULL},
    {"Mean", lower_reduce, NULL, "half/bfloat16 and 8/16-bit integers accumulate wider"},
    {"Min", lower_reduce, NULL, NULL},
    {"Prod", lower_reduce, NULL, "half/bfloat16 accumulate in float32"},
    {"Sum", lower_reduce, NULL, "half/bfloat16 accumulate in float32"},
    {"ArgMax", lower_arg_minmax, NULL, "NaN passed over"},
    {"ArgMin", lower_arg_minmax, NULL, "NaN passed over"},
    {"Cumprod", lower_scan, NULL, "exclusive, reverse"},
    {"Cumsum", lower_scan, NULL, "exclusive, reverse"},
    {NULL, NULL, NULL, NULL},
};
