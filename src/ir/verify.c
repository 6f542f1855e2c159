/*
 * verify.c - checks a module against the StableHLO spec's per-op
 * constraints before anything runs or compiles it.
 *
 * The per-op table is generated from ops.def, so an op added there without a
 * verify_<ID> function fails the build.  Most ops share a few helpers (every
 * elementwise binary op is "same shape, same element type, allowed element
 * class"); the structured ops (dot_general, convolution, gather, scatter,
 * reduce, ...) infer their result shape from operands and attributes and
 * compare it with the declared type.
 *
 * Each violation is reported at the op with MLIR's phrasing
 * ("'stablehlo.add' op ...") and checking goes on, so one run shows every
 * problem.  The verifier must accept whatever the parsers build, including
 * nonsense (tuples where tensors belong, missing attributes, out-of-range
 * numbers): every access is guarded and nothing is assumed.
 *
 * Quantized element types are checked only for shape: their baseline type
 * rules are not modelled yet.
 */
#include "ir/verify.h"
#include "ir/rewrite.h"
#include "ir/sharding.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct V {
  Module *m;
  bool ok;
  bool values; /* also check the values of constant operands */
  /* Shape inference (verify_op_infer): results whose type is a
     placeholder; want_shape gives them the shape it infers. */
  bool *infer;
  int ninfer;
} V;

static void fail(V *v, const Op *op, const char *fmt, ...) XLAC_PRINTF(3, 4);
static void fail(V *v, const Op *op, const char *fmt, ...) {
  StrBuf b = {0};
  sb_printf(&b, "'%s' op ", op_info[op->kind].name);
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&b, fmt, ap);
  va_end(ap);
  error_at(op->loc, "%s", b.data);
  sb_free(&b);
  v->ok = false;
}

/* ------------------------------------------------------------------------ */
/* small helpers                                                            */
/* ------------------------------------------------------------------------ */

static const Type *opnd_type(const Op *op, int i) {
  return i < op->nopnds && op->opnds[i] ? op->opnds[i]->type : NULL;
}
static const Type *res_type(const Op *op, int i) { return i < op->nres ? op->res[i].type : NULL; }
static bool is_tensor(const Type *t) { return t && t->kind == TY_TENSOR; }
static bool is_token(const Type *t) { return t && t->kind == TY_TOKEN; }
static bool is_quant(const Type *t) { return is_tensor(t) && t->quant != NULL; }

/* A type for messages; the buffer lives until the next few calls. */
static const char *tstr(const Type *t) {
  static _Thread_local char *ring[8];
  static _Thread_local int next;
  char *s;
  if (!t) {
    s = xstrdup("<no type>");
  } else {
    StrBuf b = {0};
    type_print_mlir(&b, t);
    s = sb_take(&b);
  }
  xfree(ring[next]);
  ring[next] = s;
  next = (next + 1) % 8;
  return s;
}

/* Operand/result count check; max < 0 means unbounded. */
static bool counts(V *v, Op *op, int min_o, int max_o, int min_r, int max_r) {
  bool ok = true;
  if (op->nopnds < min_o || (max_o >= 0 && op->nopnds > max_o)) {
    if (min_o == max_o) fail(v, op, "expects %d operand%s, got %d", min_o, min_o == 1 ? "" : "s", op->nopnds);
    else if (max_o < 0) fail(v, op, "expects at least %d operands, got %d", min_o, op->nopnds);
    else fail(v, op, "expects %d to %d operands, got %d", min_o, max_o, op->nopnds);
    ok = false;
  }
  if (op->nres < min_r || (max_r >= 0 && op->nres > max_r)) {
    if (min_r == max_r) fail(v, op, "expects %d result%s, got %d", min_r, min_r == 1 ? "" : "s", op->nres);
    else if (max_r < 0) fail(v, op, "expects at least %d results, got %d", min_r, op->nres);
    else fail(v, op, "expects %d to %d results, got %d", min_r, max_r, op->nres);
    ok = false;
  }
  for (int i = 0; ok && i < op->nopnds; i++)
    if (!op->opnds[i] || !op->opnds[i]->type) {
      fail(v, op, "operand #%d has no type", i);
      ok = false;
    }
  for (int i = 0; ok && i < op->nres; i++)
    if (!op->res[i].type) {
      fail(v, op, "result #%d has no type", i);
      ok = false;
    }
  return ok;
}

/* Every operand in [from, to) and every result in [rfrom, rto) is a tensor. */
static bool tensors(V *v, Op *op, int from, int to, int rfrom, int rto) {
  bool ok = true;
  for (int i = from; i < to && i < op->nopnds; i++)
    if (!is_tensor(opnd_type(op, i))) {
      fail(v, op, "operand #%d must be a tensor, got %s", i, tstr(opnd_type(op, i)));
      ok = false;
    }
  for (int i = rfrom; i < rto && i < op->nres; i++)
    if (!is_tensor(res_type(op, i))) {
      fail(v, op, "result #%d must be a tensor, got %s", i, tstr(res_type(op, i)));
      ok = false;
    }
  return ok;
}
static bool all_tensors(V *v, Op *op) { return tensors(v, op, 0, op->nopnds, 0, op->nres); }

enum { K_PRED = 1, K_SINT = 2, K_UINT = 4, K_FLOAT = 8, K_COMPLEX = 16 };
#define K_INT (K_SINT | K_UINT)
#define K_ANY (K_PRED | K_INT | K_FLOAT | K_COMPLEX)

static unsigned kind_of(ElemType e) {
  switch (et_class(e)) {
  case EC_PRED: return K_PRED;
  case EC_SINT: return K_SINT;
  case EC_UINT: return K_UINT;
  case EC_FLOAT: return K_FLOAT;
  case EC_COMPLEX: return K_COMPLEX;
  default: return 0;
  }
}

static const char *kinds_str(unsigned k) {
  static const char *names[] = {"boolean", "signed integer", "unsigned integer", "floating-point", "complex"};
  static _Thread_local char buf[128];
  buf[0] = 0;
  int n = 0;
  for (int i = 0; i < 5; i++)
    if (k & (1u << i)) n++;
  int seen = 0;
  for (int i = 0; i < 5; i++) {
    if (!(k & (1u << i))) continue;
    if (seen) strcat(buf, seen == n - 1 ? " or " : ", ");
    strcat(buf, names[i]);
    seen++;
  }
  return buf;
}

/* The element type of a tensor is in the classes of mask (quantized
   tensors pass: they are checked elsewhere). */
static bool elem_in(V *v, Op *op, const char *what, int i, const Type *t, unsigned mask) {
  if (!is_tensor(t) || t->quant) return true;
  if (kind_of(t->elem) & mask) return true;
  fail(v, op, "%s #%d must be a tensor of %s type, got %s", what, i, kinds_str(mask), tstr(t));
  return false;
}

static bool shapes_eq(const Type *a, const Type *b) {
  if (!is_tensor(a) || !is_tensor(b) || a->rank != b->rank) return false;
  for (int d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) return false;
  return true;
}

/* Types equal up to quantization parameters (the spec's baseline_type,
   approximately). */
static bool base_eq(const Type *a, const Type *b) {
  if (!a || !b || a->kind != b->kind) return false;
  switch (a->kind) {
  case TY_TENSOR: return a->elem == b->elem && shapes_eq(a, b);
  case TY_TOKEN: return true;
  case TY_TUPLE:
  case TY_FUTURE:
    if (a->ntuple != b->ntuple) return false;
    for (int i = 0; i < a->ntuple; i++)
      if (!base_eq(a->tuple[i], b->tuple[i])) return false;
    return true;
  }
  return false;
}

static bool dims_eq(const Type *t, int rank, const int64_t *dims) {
  if (!is_tensor(t) || t->rank != rank) return false;
  for (int d = 0; d < rank; d++)
    if (t->dims[d] != dims[d]) return false;
  return true;
}

static char *dims_str(int rank, const int64_t *dims) {
  StrBuf b = {0};
  sb_putc(&b, '[');
  for (int i = 0; i < rank; i++) sb_printf(&b, "%s%lld", i ? ", " : "", (long long)dims[i]);
  sb_putc(&b, ']');
  return sb_take(&b);
}

/* Compares the result's shape with an inferred one -- or, for a result
   whose shape is being inferred, makes it that shape. */
static bool want_shape(V *v, Op *op, int r, int rank, const int64_t *dims) {
  const Type *t = res_type(op, r);
  if (r < v->ninfer && v->infer[r] && is_tensor(t)) {
    op->res[r].type = type_tensor(&v->m->arena, t->elem, rank, dims);
    v->infer[r] = false;
    return true;
  }
  if (!is_tensor(t) || dims_eq(t, rank, dims)) return true;
  char *s = dims_str(rank, dims);
  fail(v, op, "inferred shape %s is incompatible with result type %s", s, tstr(t));
  xfree(s);
  return false;
}

/* Attribute as ints; absent -> *n = 0 and true; malformed -> error. */
static bool ints_attr(V *v, Op *op, const char *name, int64_t **p, int *n) {
  *p = NULL;
  *n = 0;
  Attr *a = op_attr(op, name);
  if (!a) return true;
  if (!attr_get_ints(a, p, n)) {
    fail(v, op, "attribute '%s' must be a list of integers", name);
    return false;
  }
  return true;
}

static bool dict_ints_field(V *v, Op *op, const Attr *d, const char *key, int64_t **p, int *n) {
  *p = NULL;
  *n = 0;
  Attr *a = attr_dict_get(d, key);
  if (!a) return true;
  if (!attr_get_ints(a, p, n)) {
    fail(v, op, "'%s' must be a list of integers", key);
    return false;
  }
  return true;
}

/* Integer attribute; `required` reports absence. */
static bool int_attr(V *v, Op *op, const char *name, bool required, int64_t def, int64_t *out) {
  Attr *a = op_attr(op, name);
  *out = def;
  if (!a) {
    if (required) fail(v, op, "requires attribute '%s'", name);
    return !required;
  }
  if (a->kind == ATTR_INT || a->kind == ATTR_BOOL) {
    *out = a->i;
    return true;
  }
  if (a->kind == ATTR_DENSE && a->lit && a->lit->n == 1 && et_is_int(lit_elem(a->lit))) {
    *out = lit_get_i(a->lit, 0);
    return true;
  }
  fail(v, op, "attribute '%s' must be an integer", name);
  return false;
}

/* All in [0, bound) and pairwise distinct. */
static bool dims_valid(V *v, Op *op, const char *what, const int64_t *p, int n, int64_t bound) {
  for (int i = 0; i < n; i++) {
    if (p[i] < 0 || p[i] >= bound) {
      fail(v, op, "%s value %lld is out of range [0, %lld)", what, (long long)p[i], (long long)bound);
      return false;
    }
    for (int j = 0; j < i; j++)
      if (p[j] == p[i]) {
        fail(v, op, "%s has duplicate value %lld", what, (long long)p[i]);
        return false;
      }
  }
  return true;
}

/* memcpy of n ints that tolerates empty (possibly NULL) lists */
static void copy_ints(int64_t *dst, const int64_t *src, int n) {
  if (n > 0) memcpy(dst, src, sizeof(int64_t) * (size_t)n);
}

static bool sorted(const int64_t *p, int n) {
  for (int i = 1; i < n; i++)
    if (p[i - 1] > p[i]) return false;
  return true;
}

static bool is_flag(const Op *op, const char *name) {
  Attr *a = op_attr(op, name);
  if (!a) return false;
  if (a->kind == ATTR_UNIT) return true;
  return (a->kind == ATTR_BOOL || a->kind == ATTR_INT) && a->i != 0;
}

/* The spec's is_promotable(from, to). */
static bool promotable(ElemType from, ElemType to) {
  if (from == to) return true;
  if (et_class(from) != et_class(to)) return false;
  if (et_is_pred(from)) return true;
  return et_bits(to) >= et_bits(from);
}

/* An enum attribute (#stablehlo<kind VALUE>) whose value the backends read:
   one of `values` (NULL-terminated), or absent when not `required`.  *out
   is the value (NULL when absent); false after reporting. */
static bool enum_attr(V *v, Op *op, const char *name, bool required, const char *const *values,
                      const char **out) {
  *out = NULL;
  Attr *a = op_attr(op, name);
  if (!a) {
    if (required) fail(v, op, "requires attribute '%s'", name);
    return !required;
  }
  bool known = false;
  for (int i = 0; a->kind == ATTR_ENUM && a->s && values[i] && !known; i++) known = strcmp(a->s, values[i]) == 0;
  if (known) {
    *out = a->s;
    return true;
  }
  StrBuf b = {0};
  for (int i = 0; values[i]; i++) sb_printf(&b, "%s%s", i == 0 ? "" : values[i + 1] ? ", " : " or ", values[i]);
  if (a->kind == ATTR_ENUM && a->s)
    fail(v, op, "attribute '%s' must be %s, got %s", name, b.data, a->s);
  else if (a->kind == ATTR_STRING && a->s)
    fail(v, op, "attribute '%s' must be an enum (%s), got the string \"%s\"", name, b.data, a->s);
  else
    fail(v, op, "attribute '%s' must be an enum (%s)", name, b.data);
  sb_free(&b);
  return false;
}

static const char *const CMP_DIRECTIONS[] = {"EQ", "NE", "GE", "GT", "LE", "LT", NULL};
static const char *const CMP_TYPES[] = {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED", NULL};

/* comparison_direction (required) and compare_type (optional, and then
   fitting the operands' element type) of compare and broadcast_compare. */
static void compare_attrs(V *v, Op *op, const Type *a) {
  const char *dir, *ct;
  enum_attr(v, op, "comparison_direction", true, CMP_DIRECTIONS, &dir);
  if (!enum_attr(v, op, "compare_type", false, CMP_TYPES, &ct) || !ct || !is_tensor(a) || is_quant(a)) return;
  const char *want = NULL;
  switch (et_class(a->elem)) {
  case EC_SINT: want = "SIGNED"; break;
  case EC_UINT:
  case EC_PRED: want = "UNSIGNED"; break;
  case EC_COMPLEX: want = "FLOAT"; break;
  case EC_FLOAT:
    if (strcmp(ct, "FLOAT") != 0 && strcmp(ct, "TOTALORDER") != 0)
      fail(v, op, "compare_type %s is not valid for %s (expected FLOAT or TOTALORDER)", ct, tstr(a));
    break;
  default: break;
  }
  if (want && strcmp(ct, want) != 0) fail(v, op, "compare_type %s is not valid for %s (expected %s)", ct, tstr(a), want);
}

/* precision_config: at most two of DEFAULT / HIGH / HIGHEST. */
static void precision_config(V *v, Op *op) {
  Attr *pc = op_attr(op, "precision_config");
  if (!pc) return;
  if (pc->kind != ATTR_ARRAY || pc->n > 2) {
    fail(v, op, "precision_config must be a list of at most 2 precisions");
    return;
  }
  for (int i = 0; i < pc->n; i++) {
    const Attr *e = pc->elems[i];
    const char *s = e->kind == ATTR_ENUM ? e->s : NULL;
    if (!s || (strcmp(s, "DEFAULT") != 0 && strcmp(s, "HIGH") != 0 && strcmp(s, "HIGHEST") != 0)) {
      fail(v, op, "precision_config entries must be DEFAULT, HIGH or HIGHEST");
      return;
    }
  }
}

/* Integer contents of a value produced by stablehlo.constant (the shape
   operands of the dynamic ops are usually constants). */
static bool const_ints(const V *v, const Value *val, int64_t **p, int *n) {
  if (!v->values || !val || !val->def || val->def->kind != OP_CONSTANT) return false;
  Attr *a = op_attr(val->def, "value");
  return a && a->kind == ATTR_DENSE && attr_get_ints(a, p, n);
}

/* When operand i is a constant shape, the result must have exactly it. */
static void const_shape_operand(V *v, Op *op, int i) {
  int64_t *p;
  int n;
  const Type *r = res_type(op, 0);
  if (!is_tensor(r) || !const_ints(v, op->opnds[i], &p, &n)) return;
  if (!dims_eq(r, n, p)) {
    char *s = dims_str(n, p);
    fail(v, op, "output shape %s is incompatible with return type of operation %s", s, tstr(r));
    xfree(s);
  }
}

/* Region terminator, reporting when missing. */
static Op *region_ret(V *v, Op *op, int k) {
  if (k >= op->nregions || !op->regions[k]) {
    fail(v, op, "requires region #%d", k);
    return NULL;
  }
  Op *t = block_terminator(op->regions[k]);
  if (!t || t->kind != OP_RETURN) {
    fail(v, op, "region #%d must end with 'stablehlo.return'", k);
    return NULL;
  }
  return t;
}

/* Checks a reduction body: 2N scalar tensor arguments (E0..EN-1, E0..EN-1)
   returning N scalars of the same types, with inputs promotable to Ei.
   in_elems[i] are the inputs' element types.  Stores Ei in out_elems. */
static bool reducer(V *v, Op *op, int k, int n, const ElemType *in_elems, ElemType *out_elems) {
  Op *ret = region_ret(v, op, k);
  if (!ret) return false;
  Block *b = op->regions[k];
  if (b->nargs != 2 * n) {
    fail(v, op, "reduction region must take %d arguments, got %d", 2 * n, b->nargs);
    return false;
  }
  if (ret->nopnds != n) {
    fail(v, op, "reduction region must return %d values, got %d", n, ret->nopnds);
    return false;
  }
  for (int i = 0; i < n; i++) {
    const Type *a = b->args[i]->type, *c = b->args[n + i]->type;
    const Type *r = ret->opnds[i] ? ret->opnds[i]->type : NULL;
    if (!is_tensor(a) || a->rank != 0 || !base_eq(a, c)) {
      fail(v, op, "reduction region arguments #%d and #%d must be the same 0-dimensional tensor type, got %s and %s",
           i, n + i, tstr(a), tstr(c));
      return false;
    }
    if (!base_eq(r, a)) {
      fail(v, op, "reduction region must return %s for value #%d, got %s", tstr(a), i, tstr(r));
      return false;
    }
    if (in_elems && !a->quant && !promotable(in_elems[i], a->elem)) {
      fail(v, op, "element type %s is not promotable to the reduction type %s", elem_info[in_elems[i]].mlir_name,
           elem_info[a->elem].mlir_name);
      return false;
    }
    if (out_elems) out_elems[i] = a->elem;
  }
  return true;
}

/* A region of an if/case: no arguments, returns the op's result types. */
static void branch(V *v, Op *op, int k) {
  Op *ret = region_ret(v, op, k);
  if (!ret) return;
  if (op->regions[k]->nargs != 0) {
    fail(v, op, "branch #%d must take no arguments", k);
    return;
  }
  if (ret->nopnds != op->nres) {
    fail(v, op, "branch #%d returns %d values but the op has %d results", k, ret->nopnds, op->nres);
    return;
  }
  for (int i = 0; i < op->nres; i++) {
    const Type *t = ret->opnds[i] ? ret->opnds[i]->type : NULL;
    if (!base_eq(t, res_type(op, i))) {
      fail(v, op, "branch #%d returns %s for result #%d of type %s", k, tstr(t), i, tstr(res_type(op, i)));
      return;
    }
  }
}

/* ------------------------------------------------------------------------ */
/* shared families                                                          */
/* ------------------------------------------------------------------------ */

/* Unary elementwise: same shape; operand in mask; result elem as given
   (ET_INVALID: same as operand). */
static void unary(V *v, Op *op, unsigned mask, ElemType res_elem) {
  if (!counts(v, op, 1, 1, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *r = res_type(op, 0);
  if (!elem_in(v, op, "operand", 0, a, mask)) return;
  if (!shapes_eq(a, r)) {
    fail(v, op, "requires the same shape for operand and result, got %s and %s", tstr(a), tstr(r));
    return;
  }
  if (is_quant(a) || is_quant(r)) return;
  ElemType want = res_elem == ET_INVALID ? a->elem : res_elem;
  if (r->elem != want)
    fail(v, op, "result element type must be %s, got %s", elem_info[want].mlir_name, tstr(r));
}
static void unary_same(V *v, Op *op, unsigned mask) { unary(v, op, mask, ET_INVALID); }

/* Binary elementwise with identical operand and result types. */
static void binary_same(V *v, Op *op, unsigned mask) {
  if (!counts(v, op, 2, 2, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *b = opnd_type(op, 1), *r = res_type(op, 0);
  if (!elem_in(v, op, "operand", 0, a, mask) || !elem_in(v, op, "operand", 1, b, mask)) return;
  if (!shapes_eq(a, b) || !shapes_eq(a, r)) {
    fail(v, op, "requires the same shape for all operands and results, got %s, %s and %s", tstr(a), tstr(b),
         tstr(r));
    return;
  }
  if (is_quant(a) || is_quant(b) || is_quant(r)) return;
  if (a->elem != b->elem || a->elem != r->elem)
    fail(v, op, "requires the same element type for all operands and results, got %s, %s and %s", tstr(a),
         tstr(b), tstr(r));
}

/* Ops whose operands and results only need to be well-formed values. */
static void anything(V *v, Op *op) { counts(v, op, 0, -1, 0, -1); }

/* ------------------------------------------------------------------------ */
/* the table                                                                */
/* ------------------------------------------------------------------------ */

#define OP(id, name, hlo, flags) static void verify_##id(V *v, Op *op);
#include "ir/ops.def"
#undef OP

#define UNARY(id, mask) \
  static void verify_##id(V *v, Op *op) { unary_same(v, op, mask); }
#define BINARY(id, mask) \
  static void verify_##id(V *v, Op *op) { binary_same(v, op, mask); }
#define ANY(id) \
  static void verify_##id(V *v, Op *op) { anything(v, op); }

UNARY(CBRT, K_FLOAT | K_COMPLEX)
UNARY(CEIL, K_FLOAT)
UNARY(COSINE, K_FLOAT | K_COMPLEX)
UNARY(COUNT_LEADING_ZEROS, K_INT)
UNARY(EXPONENTIAL, K_FLOAT | K_COMPLEX)
UNARY(EXPONENTIAL_MINUS_ONE, K_FLOAT | K_COMPLEX)
UNARY(FLOOR, K_FLOAT)
UNARY(LOG, K_FLOAT | K_COMPLEX)
UNARY(LOG_PLUS_ONE, K_FLOAT | K_COMPLEX)
UNARY(LOGISTIC, K_FLOAT | K_COMPLEX)
UNARY(NEGATE, K_INT | K_FLOAT | K_COMPLEX)
UNARY(NOT, K_PRED | K_INT)
UNARY(POPCNT, K_INT)
UNARY(ROUND_NEAREST_AFZ, K_FLOAT)
UNARY(ROUND_NEAREST_EVEN, K_FLOAT)
UNARY(RSQRT, K_FLOAT | K_COMPLEX)
UNARY(SIGN, K_SINT | K_FLOAT | K_COMPLEX)
UNARY(SINE, K_FLOAT | K_COMPLEX)
UNARY(SQRT, K_FLOAT | K_COMPLEX)
UNARY(TAN, K_FLOAT | K_COMPLEX)
UNARY(TANH, K_FLOAT | K_COMPLEX)
UNARY(COPY, K_ANY)

BINARY(ADD, K_ANY)
BINARY(AND, K_PRED | K_INT)
BINARY(ATAN2, K_FLOAT | K_COMPLEX)
BINARY(DIVIDE, K_INT | K_FLOAT | K_COMPLEX)
BINARY(MAXIMUM, K_ANY)
BINARY(MINIMUM, K_ANY)
BINARY(MULTIPLY, K_ANY)
BINARY(OR, K_PRED | K_INT)
BINARY(POWER, K_INT | K_FLOAT | K_COMPLEX)
BINARY(REMAINDER, K_INT | K_FLOAT | K_COMPLEX)
BINARY(SHIFT_LEFT, K_INT)
BINARY(SHIFT_RIGHT_ARITHMETIC, K_INT)
BINARY(SHIFT_RIGHT_LOGICAL, K_INT)
BINARY(SUBTRACT, K_INT | K_FLOAT | K_COMPLEX)
BINARY(XOR, K_PRED | K_INT)

static void verify_ABS(V *v, Op *op) {
  const Type *a = opnd_type(op, 0);
  unary(v, op, K_SINT | K_FLOAT | K_COMPLEX,
        op->nopnds == 1 && is_tensor(a) ? et_real_part(a->elem) : ET_INVALID);
}
static void verify_REAL(V *v, Op *op) {
  const Type *a = opnd_type(op, 0);
  unary(v, op, K_FLOAT | K_COMPLEX, op->nopnds == 1 && is_tensor(a) ? et_real_part(a->elem) : ET_INVALID);
}
static void verify_IMAG(V *v, Op *op) { verify_REAL(v, op); }
static void verify_IS_FINITE(V *v, Op *op) { unary(v, op, K_FLOAT, ET_PRED); }
static void verify_CONVERT(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 1, 1) || !all_tensors(v, op)) return;
  if (!shapes_eq(opnd_type(op, 0), res_type(op, 0)))
    fail(v, op, "requires the same shape for operand and result, got %s and %s", tstr(opnd_type(op, 0)),
         tstr(res_type(op, 0)));
}
static void verify_REDUCE_PRECISION(V *v, Op *op) {
  unary_same(v, op, K_FLOAT);
  int64_t e, m;
  if (int_attr(v, op, "exponent_bits", true, 1, &e) && e < 1)
    fail(v, op, "exponent_bits must be at least 1, got %lld", (long long)e);
  if (int_attr(v, op, "mantissa_bits", true, 0, &m) && m < 0)
    fail(v, op, "mantissa_bits must be non-negative, got %lld", (long long)m);
}

static void verify_COMPARE(V *v, Op *op) {
  if (!counts(v, op, 2, 2, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *b = opnd_type(op, 1), *r = res_type(op, 0);
  if (!shapes_eq(a, b) || !shapes_eq(a, r)) {
    fail(v, op, "requires the same shape for all operands and results, got %s, %s and %s", tstr(a), tstr(b),
         tstr(r));
    return;
  }
  if (!is_quant(a) && !is_quant(b) && a->elem != b->elem) {
    fail(v, op, "requires the same element type for both operands, got %s and %s", tstr(a), tstr(b));
    return;
  }
  if (r->elem != ET_PRED) fail(v, op, "result must be a tensor of i1, got %s", tstr(r));
  compare_attrs(v, op, a);
}

static void verify_COMPLEX(V *v, Op *op) {
  if (!counts(v, op, 2, 2, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *b = opnd_type(op, 1), *r = res_type(op, 0);
  if (!base_eq(a, b)) {
    fail(v, op, "requires the same type for both operands, got %s and %s", tstr(a), tstr(b));
    return;
  }
  if (a->elem != ET_F32 && a->elem != ET_F64) {
    fail(v, op, "operands must be tensors of f32 or f64, got %s", tstr(a));
    return;
  }
  if (!shapes_eq(a, r) || r->elem != (a->elem == ET_F32 ? ET_C64 : ET_C128))
    fail(v, op, "result must be %s with complex elements, got %s", tstr(a), tstr(r));
}

static void verify_CLAMP(V *v, Op *op) {
  if (!counts(v, op, 3, 3, 1, 1) || !all_tensors(v, op)) return;
  const Type *mn = opnd_type(op, 0), *x = opnd_type(op, 1), *mx = opnd_type(op, 2), *r = res_type(op, 0);
  if (mn->rank != 0 && !shapes_eq(mn, x))
    fail(v, op, "min must be a scalar or have the operand's shape, got %s and %s", tstr(mn), tstr(x));
  if (mx->rank != 0 && !shapes_eq(mx, x))
    fail(v, op, "max must be a scalar or have the operand's shape, got %s and %s", tstr(mx), tstr(x));
  if (!is_quant(x) && !is_quant(mn) && !is_quant(mx) && (mn->elem != x->elem || mx->elem != x->elem))
    fail(v, op, "requires the same element type for min, operand and max");
  if (!base_eq(x, r)) fail(v, op, "result type %s must match the operand type %s", tstr(r), tstr(x));
}

static void verify_SELECT(V *v, Op *op) {
  if (!counts(v, op, 3, 3, 1, 1) || !all_tensors(v, op)) return;
  const Type *p = opnd_type(op, 0), *t = opnd_type(op, 1), *f = opnd_type(op, 2), *r = res_type(op, 0);
  if (p->elem != ET_PRED) fail(v, op, "pred must be a tensor of i1, got %s", tstr(p));
  if (p->rank != 0 && !shapes_eq(p, t))
    fail(v, op, "pred must be a scalar or have the shape of on_true, got %s and %s", tstr(p), tstr(t));
  if (!base_eq(t, f) || !base_eq(t, r))
    fail(v, op, "requires on_true, on_false and result to have the same type, got %s, %s and %s", tstr(t),
         tstr(f), tstr(r));
}

/* ---- tokens, tuples, ids ---- */

static void verify_AFTER_ALL(V *v, Op *op) {
  if (!counts(v, op, 0, -1, 1, 1)) return;
  for (int i = 0; i < op->nopnds; i++)
    if (!is_token(opnd_type(op, i))) fail(v, op, "operand #%d must be a token, got %s", i, tstr(opnd_type(op, i)));
  if (!is_token(res_type(op, 0))) fail(v, op, "result must be a token, got %s", tstr(res_type(op, 0)));
}
static void verify_CREATE_TOKEN(V *v, Op *op) { verify_AFTER_ALL(v, op); }

static void verify_TUPLE(V *v, Op *op) {
  if (!counts(v, op, 0, -1, 1, 1)) return;
  const Type *r = res_type(op, 0);
  bool ok = r->kind == TY_TUPLE && r->ntuple == op->nopnds;
  for (int i = 0; ok && i < op->nopnds; i++) ok = base_eq(r->tuple[i], opnd_type(op, i));
  if (!ok) fail(v, op, "result type %s does not match the operand types", tstr(r));
}

static void verify_GET_TUPLE_ELEMENT(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 1, 1)) return;
  const Type *t = opnd_type(op, 0);
  if (t->kind != TY_TUPLE) {
    fail(v, op, "operand must be a tuple, got %s", tstr(t));
    return;
  }
  int64_t idx;
  if (!int_attr(v, op, "index", true, 0, &idx)) return;
  if (idx < 0 || idx >= t->ntuple) {
    fail(v, op, "index %lld is out of bounds of a tuple of %d elements", (long long)idx, t->ntuple);
    return;
  }
  if (!base_eq(t->tuple[idx], res_type(op, 0)))
    fail(v, op, "result type %s does not match tuple element type %s", tstr(res_type(op, 0)),
         tstr(t->tuple[idx]));
}

static void id_op(V *v, Op *op) {
  if (!counts(v, op, 0, 0, 1, 1)) return;
  const Type *r = res_type(op, 0);
  if (!is_tensor(r) || r->rank != 0 || r->elem != ET_U32)
    fail(v, op, "result must be tensor<ui32>, got %s", tstr(r));
}
static void verify_REPLICA_ID(V *v, Op *op) { id_op(v, op); }
static void verify_PARTITION_ID(V *v, Op *op) { id_op(v, op); }

static void verify_GET_DIMENSION_SIZE(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 1, 1) || !all_tensors(v, op)) return;
  int64_t d;
  if (!int_attr(v, op, "dimension", true, 0, &d)) return;
  if (d < 0 || d >= opnd_type(op, 0)->rank)
    fail(v, op, "dimension %lld is out of range for %s", (long long)d, tstr(opnd_type(op, 0)));
  const Type *r = res_type(op, 0);
  if (r->rank != 0 || r->elem != ET_S32) fail(v, op, "result must be tensor<i32>, got %s", tstr(r));
}

/* ---- feeds and channels ---- */

static void verify_INFEED(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 1, -1)) return;
  if (!is_token(opnd_type(op, 0))) fail(v, op, "operand must be a token, got %s", tstr(opnd_type(op, 0)));
  if (!is_token(res_type(op, op->nres - 1))) fail(v, op, "last result must be a token");
  for (int i = 0; i + 1 < op->nres; i++)
    if (res_type(op, i)->kind == TY_TOKEN) fail(v, op, "result #%d must not be a token", i);
}
/* Without host transfer a channel must be device-to-device (type 1). */
static void channel_type(V *v, Op *op) {
  Attr *ch = op_attr(op, "channel_handle");
  if (!ch || ch->kind != ATTR_DICT || is_flag(op, "is_host_transfer")) return;
  int64_t t = dict_int(ch, "type", 1);
  if (t != 1) fail(v, op, "channel_type should be DEVICE_TO_DEVICE when is_host_transfer is false");
}
static void verify_RECV(V *v, Op *op) {
  verify_INFEED(v, op);
  channel_type(v, op);
}

static void verify_OUTFEED(V *v, Op *op) {
  if (!counts(v, op, 1, -1, 1, 1)) return;
  if (!is_token(opnd_type(op, op->nopnds - 1))) fail(v, op, "last operand must be a token");
  if (!is_token(res_type(op, 0))) fail(v, op, "result must be a token, got %s", tstr(res_type(op, 0)));
}
static void verify_SEND(V *v, Op *op) {
  verify_OUTFEED(v, op);
  channel_type(v, op);
}

/* ---- constants and iota ---- */

static void verify_CONSTANT(V *v, Op *op) {
  if (!counts(v, op, 0, 0, 1, 1)) return;
  Attr *a = op_attr(op, "value");
  if (!a || a->kind != ATTR_DENSE || !a->lit) {
    fail(v, op, "requires a dense 'value' attribute");
    return;
  }
  const Type *r = res_type(op, 0), *t = a->lit->type;
  if (!is_tensor(r) || !shapes_eq(t, r) || (!is_quant(r) && t->elem != r->elem))
    fail(v, op, "value of type %s does not match the result type %s", tstr(t), tstr(r));
}

static void verify_IOTA(V *v, Op *op) {
  if (!counts(v, op, 0, 0, 1, 1) || !all_tensors(v, op)) return;
  int64_t d;
  if (!int_attr(v, op, "iota_dimension", true, 0, &d)) return;
  const Type *r = res_type(op, 0);
  if (d < 0 || d >= r->rank)
    fail(v, op, "iota_dimension %lld is out of range for %s", (long long)d, tstr(r));
  elem_in(v, op, "result", 0, r, K_INT | K_FLOAT | K_COMPLEX);
}

/* ---- shape manipulation ---- */

static void verify_RESHAPE(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *r = res_type(op, 0);
  if (type_num_elements(a) != type_num_elements(r))
    fail(v, op, "number of elements differs: %s has %lld, %s has %lld", tstr(a),
         (long long)type_num_elements(a), tstr(r), (long long)type_num_elements(r));
  else if (!is_quant(a) && !is_quant(r) && a->elem != r->elem)
    fail(v, op, "requires the same element type for operand and result, got %s and %s", tstr(a), tstr(r));
}

static void verify_TRANSPOSE(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *r = res_type(op, 0);
  int64_t *p;
  int n;
  if (!ints_attr(v, op, "permutation", &p, &n)) return;
  if (n != a->rank) {
    fail(v, op, "permutation has %d entries but the operand has rank %d", n, a->rank);
    return;
  }
  if (!dims_valid(v, op, "permutation", p, n, a->rank)) return;
  if (!is_quant(a) && !is_quant(r) && a->elem != r->elem) {
    fail(v, op, "requires the same element type for operand and result");
    return;
  }
  int64_t *dims = xmalloc(sizeof(int64_t) * (size_t)(n + 1));
  for (int i = 0; i < n; i++) dims[i] = a->dims[p[i]];
  want_shape(v, op, 0, n, dims);
  xfree(dims);
}

static void verify_BROADCAST_IN_DIM(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *r = res_type(op, 0);
  int64_t *p;
  int n;
  if (!ints_attr(v, op, "broadcast_dimensions", &p, &n)) return;
  if (n != a->rank) {
    fail(v, op, "broadcast_dimensions has %d entries but the operand has rank %d", n, a->rank);
    return;
  }
  if (!dims_valid(v, op, "broadcast_dimensions", p, n, r->rank)) return;
  for (int d = 0; d < n; d++)
    if (a->dims[d] != 1 && a->dims[d] != r->dims[p[d]]) {
      fail(v, op, "operand dimension %d of size %lld is not compatible with result dimension %lld of size %lld", d,
           (long long)a->dims[d], (long long)p[d], (long long)r->dims[p[d]]);
      return;
    }
  if (!is_quant(a) && !is_quant(r) && a->elem != r->elem)
    fail(v, op, "requires the same element type for operand and result, got %s and %s", tstr(a), tstr(r));
}

static void verify_BROADCAST(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0);
  int64_t *p;
  int n;
  if (!ints_attr(v, op, "broadcast_sizes", &p, &n)) return;
  int64_t *dims = xmalloc(sizeof(int64_t) * (size_t)(n + a->rank + 1));
  for (int i = 0; i < n; i++) dims[i] = p[i];
  for (int i = 0; i < a->rank; i++) dims[n + i] = a->dims[i];
  want_shape(v, op, 0, n + a->rank, dims);
  xfree(dims);
}

static void verify_REVERSE(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *r = res_type(op, 0);
  if (!base_eq(a, r)) fail(v, op, "requires the same type for operand and result, got %s and %s", tstr(a), tstr(r));
  int64_t *p;
  int n;
  if (ints_attr(v, op, "dimensions", &p, &n)) dims_valid(v, op, "dimensions", p, n, r->rank);
}

static void verify_CONCATENATE(V *v, Op *op) {
  if (!counts(v, op, 1, -1, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *r = res_type(op, 0);
  int64_t d;
  if (!int_attr(v, op, "dimension", true, 0, &d)) return;
  if (d < 0 || d >= a->rank) {
    fail(v, op, "dimension %lld is out of range for %s", (long long)d, tstr(a));
    return;
  }
  int64_t *dims = xmalloc(sizeof(int64_t) * (size_t)(a->rank + 1));
  copy_ints(dims, a->dims, a->rank);
  bool ok = true;
  for (int i = 1; i < op->nopnds && ok; i++) {
    const Type *t = opnd_type(op, i);
    if (!is_quant(t) && !is_quant(a) && t->elem != a->elem) {
      fail(v, op, "requires the same element type for all inputs, got %s and %s", tstr(a), tstr(t));
      ok = false;
    } else if (t->rank != a->rank) {
      fail(v, op, "requires the same rank for all inputs, got %s and %s", tstr(a), tstr(t));
      ok = false;
    } else {
      for (int k = 0; k < a->rank && ok; k++)
        if (k != d && t->dims[k] != a->dims[k]) {
          fail(v, op, "inputs %s and %s differ in dimension %d", tstr(a), tstr(t), k);
          ok = false;
        }
      if (ok && !dim_add(dims[d], t->dims[d], &dims[d])) {
        fail(v, op, "concatenated dimension %lld overflows (larger than INT64_MAX)", (long long)d);
        ok = false;
      }
    }
  }
  if (ok && !is_quant(a) && !is_quant(r) && r->elem != a->elem)
    fail(v, op, "result element type must be that of the inputs, got %s", tstr(r));
  else if (ok)
    want_shape(v, op, 0, a->rank, dims);
  xfree(dims);
}

static void verify_SLICE(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *r = res_type(op, 0);
  int64_t *st, *li, *sr;
  int ns, nl, nr;
  if (!ints_attr(v, op, "start_indices", &st, &ns) || !ints_attr(v, op, "limit_indices", &li, &nl) ||
      !ints_attr(v, op, "strides", &sr, &nr))
    return;
  if (ns != a->rank || nl != a->rank || (nr != a->rank && !(nr == 0 && !op_attr(op, "strides")))) {
    fail(v, op, "start_indices, limit_indices and strides must each have %d entries", a->rank);
    return;
  }
  int64_t *dims = xmalloc(sizeof(int64_t) * (size_t)(a->rank + 1));
  bool ok = true;
  for (int d = 0; d < a->rank && ok; d++) {
    int64_t s = nr ? sr[d] : 1;
    if (st[d] < 0 || st[d] > li[d] || li[d] > a->dims[d]) {
      fail(v, op, "slice [%lld, %lld) of dimension %d is out of bounds of size %lld", (long long)st[d],
           (long long)li[d], d, (long long)a->dims[d]);
      ok = false;
    } else if (s <= 0) {
      fail(v, op, "strides must be positive, got %lld", (long long)s);
      ok = false;
    } else {
      /* ceil((limit - start) / stride) without forming limit - start + stride */
      int64_t len = li[d] - st[d];
      dims[d] = len / s + (len % s != 0);
    }
  }
  if (ok && !is_quant(a) && !is_quant(r) && r->elem != a->elem)
    fail(v, op, "requires the same element type for operand and result");
  else if (ok)
    want_shape(v, op, 0, a->rank, dims);
  xfree(dims);
}

/* One padded dimension (pad and dynamic_pad), reporting what is wrong. */
static bool pad_dim(V *v, Op *op, int d, int64_t n, int64_t lo, int64_t hi, int64_t in, int64_t *out) {
  switch (pad_dim_size(n, lo, hi, in, out)) {
  case 0: return true;
  case 1:
    if (in < 0) fail(v, op, "interior_padding must be non-negative, got %lld", (long long)in);
    else fail(v, op, "interior_padding %lld of dimension %d overflows the dimension size", (long long)in, d);
    return false;
  case 2: fail(v, op, "padding makes dimension %d negative", d); return false;
  default: fail(v, op, "padding makes dimension %d overflow (larger than INT64_MAX)", d); return false;
  }
}

static void verify_PAD(V *v, Op *op) {
  if (!counts(v, op, 2, 2, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *pv = opnd_type(op, 1), *r = res_type(op, 0);
  if (pv->rank != 0) fail(v, op, "padding value must be a 0-dimensional tensor, got %s", tstr(pv));
  if (!is_quant(a) && !is_quant(pv) && !is_quant(r) && (a->elem != pv->elem || a->elem != r->elem)) {
    fail(v, op, "requires the same element type for operand, padding value and result");
    return;
  }
  int64_t *lo, *hi, *in;
  int nlo, nhi, nin;
  if (!ints_attr(v, op, "edge_padding_low", &lo, &nlo) || !ints_attr(v, op, "edge_padding_high", &hi, &nhi) ||
      !ints_attr(v, op, "interior_padding", &in, &nin))
    return;
  if (nlo != a->rank || nhi != a->rank || nin != a->rank) {
    fail(v, op, "edge_padding_low, edge_padding_high and interior_padding must each have %d entries", a->rank);
    return;
  }
  int64_t *dims = xmalloc(sizeof(int64_t) * (size_t)(a->rank + 1));
  bool ok = true;
  for (int d = 0; d < a->rank && ok; d++)
    ok = pad_dim(v, op, d, a->dims[d], lo[d], hi[d], in[d], &dims[d]);
  if (ok) want_shape(v, op, 0, a->rank, dims);
  xfree(dims);
}

static void verify_IOTA_LIKE_DYNAMIC(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 1, 1) || !all_tensors(v, op)) return;
  const Type *s = opnd_type(op, 0), *r = res_type(op, 0);
  if (s->rank != 1 || s->dims[0] != r->rank)
    fail(v, op, "output shape operand %s must be 1-dimensional with %d elements", tstr(s), r->rank);
}
static void verify_DYNAMIC_IOTA(V *v, Op *op) {
  verify_IOTA_LIKE_DYNAMIC(v, op);
  if (op->nopnds == 1) const_shape_operand(v, op, 0);
  int64_t d;
  if (op->nres == 1 && is_tensor(res_type(op, 0)) && int_attr(v, op, "iota_dimension", true, 0, &d) &&
      (d < 0 || d >= res_type(op, 0)->rank))
    fail(v, op, "iota_dimension %lld is out of range for %s", (long long)d, tstr(res_type(op, 0)));
}
static void verify_DYNAMIC_RESHAPE(V *v, Op *op) {
  if (!counts(v, op, 2, 2, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *s = opnd_type(op, 1), *r = res_type(op, 0);
  if (s->rank != 1 || s->dims[0] != r->rank)
    fail(v, op, "output shape operand %s must be 1-dimensional with %d elements", tstr(s), r->rank);
  if (!is_quant(a) && !is_quant(r) && a->elem != r->elem)
    fail(v, op, "requires the same element type for operand and result");
  if (type_num_elements(a) != type_num_elements(r))
    fail(v, op, "number of output elements (%lld) doesn't match expected number of elements (%lld)",
         (long long)type_num_elements(r), (long long)type_num_elements(a));
  else
    const_shape_operand(v, op, 1);
}
static void verify_DYNAMIC_BROADCAST_IN_DIM(V *v, Op *op) {
  if (!counts(v, op, 2, 2, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *s = opnd_type(op, 1), *r = res_type(op, 0);
  if (s->rank != 1 || s->dims[0] != r->rank)
    fail(v, op, "output_dimensions %s must be 1-dimensional with %d elements", tstr(s), r->rank);
  int64_t *p;
  int n;
  if (!ints_attr(v, op, "broadcast_dimensions", &p, &n)) return;
  if (n != a->rank) {
    fail(v, op, "broadcast_dimensions has %d entries but the operand has rank %d", n, a->rank);
    return;
  }
  if (!dims_valid(v, op, "broadcast_dimensions", p, n, r->rank)) return;
  for (int d = 0; d < n; d++)
    if (a->dims[d] != 1 && a->dims[d] != r->dims[p[d]]) {
      fail(v, op, "operand dimension %d of size %lld is not compatible with result dimension %lld", d,
           (long long)a->dims[d], (long long)p[d]);
      return;
    }
  const_shape_operand(v, op, 1);
}
static void verify_DYNAMIC_PAD(V *v, Op *op) {
  if (!counts(v, op, 5, 5, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *pv = opnd_type(op, 1), *r = res_type(op, 0);
  if (!is_quant(a) && (a->elem != pv->elem || a->elem != r->elem))
    fail(v, op, "requires the same element type for operand, padding value and result");
  for (int i = 2; i < 5; i++) {
    const Type *t = opnd_type(op, i);
    if (t->rank != 1 || t->dims[0] != a->rank) {
      fail(v, op, "padding operand #%d must be 1-dimensional with %d elements, got %s", i, a->rank, tstr(t));
      return;
    }
  }
  if (r->rank != a->rank) {
    fail(v, op, "result rank must be %d, got %s", a->rank, tstr(r));
    return;
  }
  int64_t *lo, *hi, *in;
  int nlo, nhi, nin;
  if (const_ints(v, op->opnds[2], &lo, &nlo) && const_ints(v, op->opnds[3], &hi, &nhi) &&
      const_ints(v, op->opnds[4], &in, &nin) && nlo == a->rank && nhi == a->rank && nin == a->rank)
    for (int d = 0; d < a->rank; d++) {
      int64_t want;
      if (!pad_dim(v, op, d, a->dims[d], lo[d], hi[d], in[d], &want)) return;
      if (r->dims[d] != want) {
        fail(v, op, "expected output dimension at index %d to equal %lld, but got %lld", d, (long long)want,
             (long long)r->dims[d]);
        return;
      }
    }
}

static void verify_DYNAMIC_SLICE(V *v, Op *op) {
  if (!counts(v, op, 1, -1, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *r = res_type(op, 0);
  if (op->nopnds - 1 != a->rank) {
    fail(v, op, "has %d start indices but the operand has rank %d", op->nopnds - 1, a->rank);
    return;
  }
  for (int i = 1; i < op->nopnds; i++) {
    const Type *t = opnd_type(op, i);
    if (t->rank != 0 || !et_is_int(t->elem) || t->elem != opnd_type(op, 1)->elem) {
      fail(v, op, "start indices must be 0-dimensional integer tensors of one type, got %s", tstr(t));
      return;
    }
  }
  int64_t *ss;
  int n;
  if (!ints_attr(v, op, "slice_sizes", &ss, &n)) return;
  if (n != a->rank) {
    fail(v, op, "slice_sizes has %d entries but the operand has rank %d", n, a->rank);
    return;
  }
  for (int d = 0; d < n; d++)
    if (ss[d] < 0 || ss[d] > a->dims[d]) {
      fail(v, op, "slice size %lld of dimension %d is out of range [0, %lld]", (long long)ss[d], d,
           (long long)a->dims[d]);
      return;
    }
  if (!is_quant(a) && !is_quant(r) && a->elem != r->elem) {
    fail(v, op, "requires the same element type for operand and result");
    return;
  }
  want_shape(v, op, 0, n, ss);
}

/* real_dynamic_slice(operand, start_indices, limit_indices, strides): the
   bounds are integer tensors of rank(operand) elements; whichever of them
   are constants are checked against the operand and result shapes. */
static void verify_REAL_DYNAMIC_SLICE(V *v, Op *op) {
  if (!counts(v, op, 4, 4, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *r = res_type(op, 0);
  static const char *const names[] = {"start_indices", "limit_indices", "strides"};
  int64_t *b[3];
  for (int i = 1; i < 4; i++) {
    const Type *t = opnd_type(op, i);
    if (!elem_in(v, op, "operand", i, t, K_INT)) return;
    if (type_num_elements(t) != a->rank) {
      fail(v, op, "%s must have %d elements, got %s", names[i - 1], a->rank, tstr(t));
      return;
    }
    int n;
    if (!const_ints(v, op->opnds[i], &b[i - 1], &n) || n != a->rank) b[i - 1] = NULL;
  }
  if (r->rank != a->rank) {
    fail(v, op, "result rank must be %d, got %s", a->rank, tstr(r));
    return;
  }
  if (!is_quant(a) && !is_quant(r) && a->elem != r->elem) {
    fail(v, op, "requires the same element type for operand and result");
    return;
  }
  int64_t *st = b[0], *li = b[1], *sr = b[2];
  for (int d = 0; d < a->rank; d++) {
    if (st && st[d] < 0) {
      fail(v, op, "start index %lld of dimension %d is negative", (long long)st[d], d);
      return;
    }
    if (li && li[d] > a->dims[d]) {
      fail(v, op, "limit index %lld of dimension %d exceeds its size %lld", (long long)li[d], d, (long long)a->dims[d]);
      return;
    }
    if (sr && sr[d] <= 0) {
      fail(v, op, "stride %lld of dimension %d must be positive", (long long)sr[d], d);
      return;
    }
    /* with start >= 0, limit <= size and stride > 0 the slice fits */
    if (r->dims[d] > a->dims[d]) {
      fail(v, op, "result dimension %d of size %lld is larger than the operand's (%lld)", d, (long long)r->dims[d],
           (long long)a->dims[d]);
      return;
    }
  }
  if (st && li && sr) {
    int64_t *dims = xmalloc(sizeof(int64_t) * (size_t)(a->rank + 1));
    for (int d = 0; d < a->rank; d++) dims[d] = li[d] > st[d] ? (li[d] - st[d] - 1) / sr[d] + 1 : 0;
    want_shape(v, op, 0, a->rank, dims);
    xfree(dims);
  }
}

static void verify_DYNAMIC_UPDATE_SLICE(V *v, Op *op) {
  if (!counts(v, op, 2, -1, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *u = opnd_type(op, 1), *r = res_type(op, 0);
  if (!base_eq(a, r)) {
    fail(v, op, "requires the same type for operand and result, got %s and %s", tstr(a), tstr(r));
    return;
  }
  if (!is_quant(a) && !is_quant(u) && a->elem != u->elem) {
    fail(v, op, "requires the same element type for operand and update");
    return;
  }
  if (u->rank != a->rank) {
    fail(v, op, "update rank %d differs from operand rank %d", u->rank, a->rank);
    return;
  }
  if (op->nopnds - 2 != a->rank) {
    fail(v, op, "has %d start indices but the operand has rank %d", op->nopnds - 2, a->rank);
    return;
  }
  for (int d = 0; d < a->rank; d++)
    if (u->dims[d] > a->dims[d]) {
      fail(v, op, "update %s does not fit in operand %s", tstr(u), tstr(a));
      return;
    }
  for (int i = 2; i < op->nopnds; i++) {
    const Type *t = opnd_type(op, i);
    if (t->rank != 0 || !et_is_int(t->elem) || t->elem != opnd_type(op, 2)->elem) {
      fail(v, op, "start indices must be 0-dimensional integer tensors of one type, got %s", tstr(t));
      return;
    }
  }
}

static void verify_BITCAST_CONVERT(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *r = res_type(op, 0);
  ElemType ea = a->quant ? a->quant->storage : a->elem, er = r->quant ? r->quant->storage : r->elem;
  if (et_is_complex(ea) != et_is_complex(er)) {
    fail(v, op, "cannot convert between complex and non-complex types");
    return;
  }
  int ba = et_bits(ea), br = et_bits(er);
  bool ok;
  if (ba == br) {
    ok = shapes_eq(a, r);
  } else if (br < ba) {
    ok = r->rank == a->rank + 1 && br > 0 && ba % br == 0 && r->dims[a->rank] == ba / br;
    for (int d = 0; ok && d < a->rank; d++) ok = r->dims[d] == a->dims[d];
  } else {
    ok = a->rank == r->rank + 1 && ba > 0 && br % ba == 0 && a->dims[r->rank] == br / ba;
    for (int d = 0; ok && d < r->rank; d++) ok = r->dims[d] == a->dims[d];
  }
  if (!ok) fail(v, op, "cannot bitcast %s to %s: shapes and bit widths do not match", tstr(a), tstr(r));
}

/* ---- control flow and calls ---- */

static void verify_IF(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 0, -1)) return;
  const Type *p = opnd_type(op, 0);
  if (!is_tensor(p) || p->rank != 0 || p->elem != ET_PRED)
    fail(v, op, "pred must be tensor<i1>, got %s", tstr(p));
  if (op->nregions != 2) {
    fail(v, op, "requires 2 regions, got %d", op->nregions);
    return;
  }
  branch(v, op, 0);
  branch(v, op, 1);
}

static void verify_CASE(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 0, -1)) return;
  const Type *p = opnd_type(op, 0);
  if (!is_tensor(p) || p->rank != 0 || p->elem != ET_S32)
    fail(v, op, "index must be tensor<i32>, got %s", tstr(p));
  if (op->nregions < 1) {
    fail(v, op, "requires at least one branch");
    return;
  }
  for (int k = 0; k < op->nregions; k++) branch(v, op, k);
}

static void verify_WHILE(V *v, Op *op) {
  if (!counts(v, op, 0, -1, 0, -1)) return;
  if (op->nres != op->nopnds) {
    fail(v, op, "has %d operands but %d results", op->nopnds, op->nres);
    return;
  }
  for (int i = 0; i < op->nres; i++)
    if (!base_eq(opnd_type(op, i), res_type(op, i))) {
      fail(v, op, "result #%d type %s differs from operand type %s", i, tstr(res_type(op, i)),
           tstr(opnd_type(op, i)));
      return;
    }
  if (op->nregions != 2) {
    fail(v, op, "requires 2 regions (cond, body), got %d", op->nregions);
    return;
  }
  for (int k = 0; k < 2; k++) {
    Block *b = op->regions[k];
    if (!b || b->nargs != op->nopnds) {
      fail(v, op, "%s region must take %d arguments", k ? "body" : "cond", op->nopnds);
      return;
    }
    for (int i = 0; i < b->nargs; i++)
      if (!base_eq(b->args[i]->type, opnd_type(op, i))) {
        fail(v, op, "%s region argument #%d has type %s, expected %s", k ? "body" : "cond", i,
             tstr(b->args[i]->type), tstr(opnd_type(op, i)));
        return;
      }
  }
  Op *c = region_ret(v, op, 0), *b = region_ret(v, op, 1);
  if (c) {
    const Type *t = c->nopnds == 1 && c->opnds[0] ? c->opnds[0]->type : NULL;
    if (!is_tensor(t) || t->rank != 0 || t->elem != ET_PRED)
      fail(v, op, "cond region must return a single tensor<i1>");
  }
  if (b) {
    if (b->nopnds != op->nopnds) {
      fail(v, op, "body region returns %d values, expected %d", b->nopnds, op->nopnds);
      return;
    }
    for (int i = 0; i < b->nopnds; i++)
      if (!base_eq(b->opnds[i] ? b->opnds[i]->type : NULL, opnd_type(op, i))) {
        fail(v, op, "body region returns %s for value #%d of type %s", tstr(b->opnds[i] ? b->opnds[i]->type : NULL),
             i, tstr(opnd_type(op, i)));
        return;
      }
  }
}

static void verify_RETURN(V *v, Op *op) {
  if (!op->parent || !op->parent->parent_op) fail(v, op, "must be the terminator of an op's region");
  else if (op->next) fail(v, op, "must be the last op of its region");
}

static void verify_FUNC_RETURN(V *v, Op *op) {
  Func *f = op->parent ? op->parent->parent_func : NULL;
  if (!f || op->parent->parent_op) {
    fail(v, op, "must be the terminator of a function body");
    return;
  }
  if (op->next) {
    fail(v, op, "must be the last op of the function");
    return;
  }
  if (op->nopnds != f->nresults) {
    fail(v, op, "has %d operands, but enclosing function (@%s) returns %d", op->nopnds, f->name, f->nresults);
    return;
  }
  for (int i = 0; i < op->nopnds && f->result_types; i++)
    if (!base_eq(opnd_type(op, i), f->result_types[i])) {
      fail(v, op, "type of return operand %d (%s) doesn't match function result type (%s) in function @%s", i,
           tstr(opnd_type(op, i)), tstr(f->result_types[i]), f->name);
      return;
    }
}

/* Callee of a symbol attribute, or NULL after reporting. */
static Func *callee(V *v, Op *op, const char *attr) {
  Attr *a = op_attr(op, attr);
  if (!a || (a->kind != ATTR_SYMBOL && a->kind != ATTR_STRING) || !a->s) {
    fail(v, op, "requires a '%s' symbol attribute", attr);
    return NULL;
  }
  const char *name = a->s[0] == '@' ? a->s + 1 : a->s;
  Func *f = module_find_func(v->m, name);
  if (!f) fail(v, op, "'%s' refers to unknown function @%s", attr, name);
  return f;
}

static void call_like(V *v, Op *op, const char *attr) {
  if (!counts(v, op, 0, -1, 0, -1)) return;
  Func *f = callee(v, op, attr);
  if (!f) return;
  if (f->body->nargs != op->nopnds) {
    fail(v, op, "passes %d operands but @%s takes %d", op->nopnds, f->name, f->body->nargs);
    return;
  }
  if (f->nresults != op->nres) {
    fail(v, op, "has %d results but @%s returns %d", op->nres, f->name, f->nresults);
    return;
  }
  for (int i = 0; i < op->nopnds; i++)
    if (!base_eq(opnd_type(op, i), f->body->args[i]->type)) {
      fail(v, op, "operand #%d type %s does not match @%s's argument type %s", i, tstr(opnd_type(op, i)), f->name,
           tstr(f->body->args[i]->type));
      return;
    }
  for (int i = 0; i < op->nres && f->result_types; i++)
    if (!base_eq(res_type(op, i), f->result_types[i])) {
      fail(v, op, "result #%d type %s does not match @%s's result type %s", i, tstr(res_type(op, i)), f->name,
           tstr(f->result_types[i]));
      return;
    }
}
static void verify_CALL(V *v, Op *op) { call_like(v, op, "callee"); }
static void verify_COMPOSITE(V *v, Op *op) {
  call_like(v, op, "decomposition");
  const char *name = op_attr_str(op, "name");
  /* dialect.op: starts like an identifier, has a dot, does not end in one */
  bool ok = name != NULL && strchr(name, '.') != NULL && name[strlen(name) - 1] != '.';
  for (const char *c = name; ok && *c; c++) {
    bool alpha = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || *c == '_';
    ok = c == name ? alpha : alpha || (*c >= '0' && *c <= '9') || *c == '$' || *c == '.';
  }
  if (!ok) fail(v, op, "name must be a valid namespaced op name (like \"my.op\"), got \"%s\"", name ? name : "");
}

/* ---- Shardy ---- */

/* A sharding attribute of a value of type t: what sharding.c finds wrong
   with it, or "" when it is not a #sdy.sharding at all; NULL when fine. */
static char *sharding_problem(V *v, const Attr *a, const Type *t) {
  SdySharding s;
  if (!sdy_sharding_of(v->m, a, &s)) return xstrdup("");
  return sdy_sharding_check(v->m, &s, t);
}

static void verify_SDY_SHARDING_CONSTRAINT(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 1, 1)) return;
  if (!type_equal(opnd_type(op, 0), res_type(op, 0))) {
    fail(v, op, "result type %s differs from operand type %s", tstr(res_type(op, 0)), tstr(opnd_type(op, 0)));
    return;
  }
  char *e = sharding_problem(v, op_attr(op, "sharding"), res_type(op, 0));
  if (e && !*e) fail(v, op, "requires a 'sharding' attribute that is a #sdy.sharding");
  else if (e) fail(v, op, "sharding: %s", e);
  xfree(e);
}

/* `sdy.sharding` on any op: one sharding per result (an op without
   results may have one, over a maximal mesh: where it runs). */
static void verify_op_shardings(V *v, Op *op) {
  const Attr *a = op_attr(op, SDY_KEY);
  if (!a) return;
  SdySharding *all;
  int n = sdy_per_value_of(v->m, a, &all);
  if (n < 0) {
    fail(v, op, "attribute 'sdy.sharding' must be a #sdy.sharding_per_value");
    return;
  }
  if (n != op->nres && !(op->nres == 0 && n == 1)) {
    fail(v, op, "has %d results but 'sdy.sharding' gives %d shardings", op->nres, n);
    return;
  }
  for (int i = 0; i < n; i++) {
    char *e = sdy_sharding_check(v->m, &all[i], i < op->nres ? op->res[i].type : NULL);
    if (e) {
      if (op->nres == 1) fail(v, op, "result sharding: %s", e);
      else fail(v, op, "sharding of result %d: %s", i, e);
      xfree(e);
      return;
    }
  }
}

static void verify_OPTIMIZATION_BARRIER(V *v, Op *op) {
  if (!counts(v, op, 0, -1, 0, -1)) return;
  if (op->nres != op->nopnds) {
    fail(v, op, "has %d operands but %d results", op->nopnds, op->nres);
    return;
  }
  for (int i = 0; i < op->nres; i++)
    if (!base_eq(opnd_type(op, i), res_type(op, i))) {
      fail(v, op, "result #%d type %s differs from operand type %s", i, tstr(res_type(op, i)),
           tstr(opnd_type(op, i)));
      return;
    }
}

static void verify_ASYNC_START(V *v, Op *op) {
  if (!counts(v, op, 0, -1, 1, 1)) return;
  if (res_type(op, 0)->kind != TY_FUTURE) fail(v, op, "result must be a future, got %s", tstr(res_type(op, 0)));
}
static void verify_ASYNC_DONE(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 0, -1)) return;
  const Type *f = opnd_type(op, 0);
  if (f->kind != TY_FUTURE) fail(v, op, "operand must be a future, got %s", tstr(f));
}

/* ---- reductions ---- */

/* inputs and init values: N each; returns N or -1. */
static int split_inits(V *v, Op *op) {
  if (!counts(v, op, 2, -1, 1, -1) || !all_tensors(v, op)) return -1;
  if (op->nopnds % 2 || op->nres != op->nopnds / 2) {
    fail(v, op, "expects N inputs, N init values and N results, got %d operands and %d results", op->nopnds,
         op->nres);
    return -1;
  }
  int n = op->nopnds / 2;
  for (int i = 1; i < n; i++)
    if (!shapes_eq(opnd_type(op, 0), opnd_type(op, i))) {
      fail(v, op, "requires the same shape for all inputs, got %s and %s", tstr(opnd_type(op, 0)),
           tstr(opnd_type(op, i)));
      return -1;
    }
  for (int i = 0; i < n; i++) {
    const Type *in = opnd_type(op, i), *init = opnd_type(op, n + i);
    if (init->rank != 0) {
      fail(v, op, "init value #%d must be a 0-dimensional tensor, got %s", i, tstr(init));
      return -1;
    }
    if (!is_quant(in) && !is_quant(init) && in->elem != init->elem) {
      fail(v, op, "input #%d and init value #%d have different element types (%s and %s)", i, i, tstr(in),
           tstr(init));
      return -1;
    }
  }
  return n;
}

static void reduction_result_elems(V *v, Op *op, int n, const ElemType *es) {
  for (int i = 0; i < n; i++) {
    const Type *r = res_type(op, i);
    if (!is_quant(r) && r->elem != es[i]) {
      fail(v, op, "result #%d element type must be %s (the reduction type), got %s", i, elem_info[es[i]].mlir_name,
           tstr(r));
      return;
    }
  }
}

static void verify_REDUCE(V *v, Op *op) {
  int n = split_inits(v, op);
  if (n < 0) return;
  const Type *a = opnd_type(op, 0);
  int64_t *dims;
  int nd;
  if (!ints_attr(v, op, "dimensions", &dims, &nd) || !dims_valid(v, op, "dimensions", dims, nd, a->rank)) return;
  ElemType ins[64], es[64];
  if (n > 64) return;
  for (int i = 0; i < n; i++) ins[i] = opnd_type(op, i)->elem;
  if (!reducer(v, op, 0, n, ins, es)) return;
  int64_t *rd = xmalloc(sizeof(int64_t) * (size_t)(a->rank + 1));
  int rr = 0;
  for (int d = 0; d < a->rank; d++)
    if (!ints_contain(dims, nd, d)) rd[rr++] = a->dims[d];
  for (int i = 0; i < n; i++)
    if (!want_shape(v, op, i, rr, rd)) break;
  xfree(rd);
  reduction_result_elems(v, op, n, es);
}

/* Window attribute of `rank` entries (default `def` when absent). */
static bool window_attr(V *v, Op *op, const char *name, int rank, int64_t def, int64_t *out, bool positive) {
  int64_t *p;
  int n;
  if (!ints_attr(v, op, name, &p, &n)) return false;
  if (!op_attr(op, name)) {
    for (int i = 0; i < rank; i++) out[i] = def;
    return true;
  }
  if (n != rank) {
    fail(v, op, "%s must have %d entries, got %d", name, rank, n);
    return false;
  }
  for (int i = 0; i < rank; i++) {
    if (positive && p[i] <= 0) {
      fail(v, op, "%s must be positive, got %lld", name, (long long)p[i]);
      return false;
    }
    out[i] = p[i];
  }
  return true;
}

/* padding attribute: rank x 2 (zeros when absent). */
static bool padding_attr(V *v, Op *op, int rank, int64_t *lo, int64_t *hi) {
  for (int i = 0; i < rank; i++) lo[i] = hi[i] = 0;
  Attr *a = op_attr(op, "padding");
  if (!a) return true;
  int64_t *p;
  int n;
  if (!attr_get_ints(a, &p, &n)) {
    fail(v, op, "padding must be a list of integers");
    return false;
  }
  bool shaped = a->kind != ATTR_DENSE || !a->lit ||
                (a->lit->type->rank == 2 && a->lit->type->dims[0] == rank && a->lit->type->dims[1] == 2) ||
                (rank == 0 && n == 0);
  if (n != 2 * rank || !shaped) {
    fail(v, op, "padding must have shape [%d, 2]", rank);
    return false;
  }
  for (int i = 0; i < rank; i++) {
    lo[i] = p[2 * i];
    hi[i] = p[2 * i + 1];
  }
  return true;
}

/* Window count along spatial dimension d (window_dim_size), reporting
   sizes that overflow. */
static bool num_windows(V *v, Op *op, int d, int64_t in, int64_t lo, int64_t hi, int64_t base_dil, int64_t win,
                        int64_t win_dil, int64_t stride, int64_t *out) {
  switch (window_dim_size(in, lo, hi, base_dil, win, win_dil, stride, out)) {
  case 0: return true;
  case 1: fail(v, op, "window sizes, strides and dilations of dimension %d must be positive", d); return false;
  case 2:
    fail(v, op, "the dilated and padded input dimension %d overflows (larger than INT64_MAX)", d);
    return false;
  default: fail(v, op, "the dilated window dimension %d overflows (larger than INT64_MAX)", d); return false;
  }
}

static void verify_REDUCE_WINDOW(V *v, Op *op) {
  int n = split_inits(v, op);
  if (n < 0 || n > 64) return;
  const Type *a = opnd_type(op, 0);
  int r = a->rank;
  int64_t *buf = xmalloc(sizeof(int64_t) * (size_t)(7 * r + 1));
  int64_t *wd = buf, *ws = buf + r, *bd = buf + 2 * r, *wdl = buf + 3 * r, *lo = buf + 4 * r, *hi = buf + 5 * r,
          *out = buf + 6 * r;
  if (!op_attr(op, "window_dimensions")) {
    fail(v, op, "requires attribute 'window_dimensions'");
  } else if (window_attr(v, op, "window_dimensions", r, 1, wd, true) &&
             window_attr(v, op, "window_strides", r, 1, ws, true) &&
             window_attr(v, op, "base_dilations", r, 1, bd, true) &&
             window_attr(v, op, "window_dilations", r, 1, wdl, true) && padding_attr(v, op, r, lo, hi)) {
    ElemType ins[64], es[64];
    for (int i = 0; i < n; i++) ins[i] = opnd_type(op, i)->elem;
    bool ok = reducer(v, op, 0, n, ins, es);
    for (int d = 0; ok && d < r; d++)
      ok = num_windows(v, op, d, a->dims[d], lo[d], hi[d], bd[d], wd[d], wdl[d], ws[d], &out[d]);
    if (ok) {
      for (int i = 0; i < n; i++)
        if (!want_shape(v, op, i, r, out)) break;
      reduction_result_elems(v, op, n, es);
    }
  }
  xfree(buf);
}

static void verify_SELECT_AND_SCATTER(V *v, Op *op) {
  if (!counts(v, op, 3, 3, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *s = opnd_type(op, 1), *init = opnd_type(op, 2), *res = res_type(op, 0);
  if (!is_quant(a) && (a->elem != s->elem || a->elem != init->elem)) {
    fail(v, op, "requires the same element type for operand, source and init value");
    return;
  }
  if (init->rank != 0) fail(v, op, "init value must be a 0-dimensional tensor, got %s", tstr(init));
  int r = a->rank;
  int64_t *buf = xmalloc(sizeof(int64_t) * (size_t)(5 * r + 1));
  int64_t *wd = buf, *ws = buf + r, *lo = buf + 2 * r, *hi = buf + 3 * r, *out = buf + 4 * r;
  if (window_attr(v, op, "window_dimensions", r, 1, wd, true) && window_attr(v, op, "window_strides", r, 1, ws, true) &&
      padding_attr(v, op, r, lo, hi)) {
    bool ok = true;
    for (int d = 0; ok && d < r; d++) ok = num_windows(v, op, d, a->dims[d], lo[d], hi[d], 1, wd[d], 1, ws[d], &out[d]);
    if (ok && !dims_eq(s, r, out)) {
      char *str = dims_str(r, out);
      fail(v, op, "source shape %s does not match the window count %s", tstr(s), str);
      xfree(str);
    }
  }
  xfree(buf);
  /* select: (E, E) -> i1 */
  Op *sel = region_ret(v, op, 0);
  if (sel) {
    Block *b = op->regions[0];
    bool ok = b->nargs == 2 && sel->nopnds == 1;
    for (int i = 0; ok && i < 2; i++) {
      const Type *t = b->args[i]->type;
      ok = is_tensor(t) && t->rank == 0 && (is_quant(a) || t->elem == a->elem);
    }
    const Type *rt = ok && sel->opnds[0] ? sel->opnds[0]->type : NULL;
    if (!ok || !is_tensor(rt) || rt->rank != 0 || rt->elem != ET_PRED)
      fail(v, op, "select region must have type (tensor<E>, tensor<E>) -> tensor<i1> with E the operand's element type");
  }
  ElemType in = a->elem, e = a->elem;
  if (reducer(v, op, 1, 1, &in, &e)) {
    if (!shapes_eq(a, res)) fail(v, op, "result shape must be the operand's, got %s and %s", tstr(res), tstr(a));
    else if (!is_quant(res) && res->elem != e)
      fail(v, op, "result element type must be %s (the scatter region's type), got %s", elem_info[e].mlir_name,
           tstr(res));
  }
}

static void verify_MAP(V *v, Op *op) {
  if (!counts(v, op, 1, -1, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *r = res_type(op, 0);
  for (int i = 0; i < op->nopnds; i++)
    if (!shapes_eq(opnd_type(op, i), r)) {
      fail(v, op, "requires every input to have the result's shape, got %s and %s", tstr(opnd_type(op, i)), tstr(r));
      return;
    }
  int64_t *dims;
  int nd;
  if (!ints_attr(v, op, "dimensions", &dims, &nd)) return;
  bool ok = nd == a->rank;
  for (int i = 0; ok && i < nd; i++) ok = dims[i] == i;
  if (!ok) fail(v, op, "dimensions must be [0, ..., %d]", a->rank - 1);
  Op *ret = region_ret(v, op, 0);
  if (!ret) return;
  Block *b = op->regions[0];
  if (b->nargs != op->nopnds || ret->nopnds != 1) {
    fail(v, op, "computation must take %d scalars and return one", op->nopnds);
    return;
  }
  for (int i = 0; i < b->nargs; i++) {
    const Type *t = b->args[i]->type;
    if (!is_tensor(t) || t->rank != 0 || (!is_quant(t) && t->elem != opnd_type(op, i)->elem)) {
      fail(v, op, "computation argument #%d must be tensor<%s>, got %s", i,
           elem_info[opnd_type(op, i)->elem].mlir_name, tstr(t));
      return;
    }
  }
  const Type *rt = ret->opnds[0] ? ret->opnds[0]->type : NULL;
  if (!is_tensor(rt) || rt->rank != 0 || (!is_quant(r) && rt->elem != r->elem))
    fail(v, op, "computation must return tensor<%s>, got %s", elem_info[r->elem].mlir_name, tstr(rt));
}

static void verify_SORT(V *v, Op *op) {
  if (!counts(v, op, 1, -1, 1, -1) || !all_tensors(v, op)) return;
  if (op->nres != op->nopnds) {
    fail(v, op, "has %d inputs but %d results", op->nopnds, op->nres);
    return;
  }
  const Type *a = opnd_type(op, 0);
  for (int i = 0; i < op->nopnds; i++) {
    if (!shapes_eq(a, opnd_type(op, i))) {
      fail(v, op, "requires the same shape for all inputs, got %s and %s", tstr(a), tstr(opnd_type(op, i)));
      return;
    }
    if (!base_eq(opnd_type(op, i), res_type(op, i))) {
      fail(v, op, "result #%d type %s differs from input type %s", i, tstr(res_type(op, i)), tstr(opnd_type(op, i)));
      return;
    }
  }
  int64_t d;
  if (!int_attr(v, op, "dimension", false, -1, &d)) return;
  if (d < -a->rank || d >= a->rank || (a->rank == 0 && op_attr(op, "dimension")))
    fail(v, op, "dimension %lld is out of range for rank %d", (long long)d, a->rank);
  Op *ret = region_ret(v, op, 0);
  if (!ret) return;
  Block *b = op->regions[0];
  if (b->nargs != 2 * op->nopnds) {
    fail(v, op, "comparator must take %d arguments, got %d", 2 * op->nopnds, b->nargs);
    return;
  }
  for (int i = 0; i < 2 * op->nopnds; i++) {
    const Type *t = b->args[i]->type, *in = opnd_type(op, i / 2);
    if (!is_tensor(t) || t->rank != 0 || (!is_quant(in) && t->elem != in->elem)) {
      fail(v, op, "comparator argument #%d must be tensor<%s>, got %s", i, elem_info[in->elem].mlir_name, tstr(t));
      return;
    }
  }
  const Type *rt = ret->nopnds == 1 && ret->opnds[0] ? ret->opnds[0]->type : NULL;
  if (!is_tensor(rt) || rt->rank != 0 || rt->elem != ET_PRED)
    fail(v, op, "comparator must return tensor<i1>, got %s", ret->nopnds == 1 ? tstr(rt) : "several values");
}

/* ---- linear algebra ---- */

static void verify_DOT_GENERAL(V *v, Op *op) {
  if (!counts(v, op, 2, 2, 1, 1) || !all_tensors(v, op)) return;
  const Type *l = opnd_type(op, 0), *r = opnd_type(op, 1);
  Attr *dn = op_attr(op, "dot_dimension_numbers");
  if (!dn || dn->kind != ATTR_DICT) {
    fail(v, op, "requires a 'dot_dimension_numbers' attribute");
    return;
  }
  int64_t *lb, *rb, *lc, *rc;
  int nlb, nrb, nlc, nrc;
  if (!dict_ints_field(v, op, dn, "lhs_batching_dimensions", &lb, &nlb) ||
      !dict_ints_field(v, op, dn, "rhs_batching_dimensions", &rb, &nrb) ||
      !dict_ints_field(v, op, dn, "lhs_contracting_dimensions", &lc, &nlc) ||
      !dict_ints_field(v, op, dn, "rhs_contracting_dimensions", &rc, &nrc))
    return;
  if (nlb != nrb) {
    fail(v, op, "lhs and rhs should have the same number of batching dimensions");
    return;
  }
  if (nlc != nrc) {
    fail(v, op, "lhs and rhs should have the same number of contracting dimensions");
    return;
  }
  int64_t *all = xmalloc(sizeof(int64_t) * (size_t)(nlb + nlc + nrb + nrc + 1));
  bool ok = true;
  copy_ints(all, lb, nlb);
  copy_ints(all + nlb, lc, nlc);
  ok = dims_valid(v, op, "lhs batching and contracting dimensions", all, nlb + nlc, l->rank);
  if (ok) {
    copy_ints(all, rb, nrb);
    copy_ints(all + nrb, rc, nrc);
    ok = dims_valid(v, op, "rhs batching and contracting dimensions", all, nrb + nrc, r->rank);
  }
  xfree(all);
  if (!ok) return;
  for (int i = 0; i < nlb; i++)
    if (l->dims[lb[i]] != r->dims[rb[i]]) {
      fail(v, op, "batching dimension sizes must match: lhs dimension %lld has size %lld, rhs dimension %lld has size %lld",
           (long long)lb[i], (long long)l->dims[lb[i]], (long long)rb[i], (long long)r->dims[rb[i]]);
      return;
    }
  for (int i = 0; i < nlc; i++)
    if (l->dims[lc[i]] != r->dims[rc[i]]) {
      fail(v, op,
           "contracting dimension sizes must match: lhs dimension %lld has size %lld, rhs dimension %lld has size %lld",
           (long long)lc[i], (long long)l->dims[lc[i]], (long long)rc[i], (long long)r->dims[rc[i]]);
      return;
    }
  precision_config(v, op);
  if (!is_quant(l) && !is_quant(r) && l->elem != r->elem && kind_of(l->elem) != kind_of(r->elem)) {
    fail(v, op, "lhs and rhs element types are incompatible: %s and %s", tstr(l), tstr(r));
    return;
  }
  int64_t *dims = xmalloc(sizeof(int64_t) * (size_t)(l->rank + r->rank + 1));
  int nd = 0;
  for (int i = 0; i < nlb; i++) dims[nd++] = l->dims[lb[i]];
  for (int d = 0; d < l->rank; d++)
    if (!ints_contain(lb, nlb, d) && !ints_contain(lc, nlc, d)) dims[nd++] = l->dims[d];
  for (int d = 0; d < r->rank; d++)
    if (!ints_contain(rb, nrb, d) && !ints_contain(rc, nrc, d)) dims[nd++] = r->dims[d];
  want_shape(v, op, 0, nd, dims);
  xfree(dims);
}

static void verify_DOT(V *v, Op *op) {
  if (!counts(v, op, 2, 2, 1, 1) || !all_tensors(v, op)) return;
  precision_config(v, op);
  const Type *l = opnd_type(op, 0), *r = opnd_type(op, 1);
  if (l->rank < 1 || l->rank > 2 || r->rank < 1 || r->rank > 2) {
    fail(v, op, "operands must be vectors or matrices, got %s and %s", tstr(l), tstr(r));
    return;
  }
  if (l->dims[l->rank - 1] != r->dims[0]) {
    fail(v, op, "contracting dimensions differ in size: %s and %s", tstr(l), tstr(r));
    return;
  }
  int64_t dims[2];
  int nd = 0;
  if (l->rank == 2) dims[nd++] = l->dims[0];
  if (r->rank == 2) dims[nd++] = r->dims[1];
  want_shape(v, op, 0, nd, dims);
}

/* einsum / unary_einsum: einsum_config such as "ab,bc->ac" read as the
   interpreter reads it: one term per input and one for the result, each
   with a letter per dimension; a letter has one size wherever it occurs;
   result letters come from the inputs and appear once. */
static void einsum_check(V *v, Op *op, int nin) {
  if (!counts(v, op, nin, nin, 1, 1) || !all_tensors(v, op)) return;
  const Type *types[3] = {opnd_type(op, 0), nin > 1 ? opnd_type(op, 1) : res_type(op, 0), res_type(op, 0)};
  EinsumSpec spec;
  char *err = einsum_spec_read(op_attr_str(op, "einsum_config"), nin, types, &spec);
  if (err) fail(v, op, "%s", err);
  xfree(err);
}

static void verify_EINSUM(V *v, Op *op) { einsum_check(v, op, 2); }
static void verify_UNARY_EINSUM(V *v, Op *op) { einsum_check(v, op, 1); }

static int64_t conv_dn(const Attr *dn, const char *key) { return dict_int(dn, key, -1); }

/* dynamic_conv's padding operand: an integer tensor of 2 * rank elements
   (or none, for no padding).  *known says whether its values are
   constants (then in lo/hi). */
static bool padding_operand(V *v, Op *op, int rank, int64_t *lo, int64_t *hi, bool *known) {
  const Type *pt = opnd_type(op, 2);
  for (int i = 0; i < rank; i++) lo[i] = hi[i] = 0;
  *known = false;
  if (!elem_in(v, op, "operand", 2, pt, K_INT)) return false;
  int64_t n = type_num_elements(pt);
  if (n != 0 && n != 2 * (int64_t)rank) {
    fail(v, op, "padding operand must have shape [%d, 2], got %s", rank, tstr(pt));
    return false;
  }
  int64_t *p;
  int np;
  if (n == 0) {
    *known = true;
  } else if (const_ints(v, op->opnds[2], &p, &np) && np == 2 * rank) {
    for (int i = 0; i < rank; i++) {
      lo[i] = p[2 * i];
      hi[i] = p[2 * i + 1];
    }
    *known = true;
  }
  return true;
}

/* convolution, or dynamic_conv (padding as a third operand) */
static void conv_check(V *v, Op *op, bool dynamic) {
  if (!counts(v, op, 2 + dynamic, 2 + dynamic, 1, 1) || !all_tensors(v, op)) return;
  const Type *l = opnd_type(op, 0), *k = opnd_type(op, 1), *res = res_type(op, 0);
  bool pad_known = true;
  int N = l->rank;
  if (k->rank != N || N < 2) {
    fail(v, op, "lhs and rhs must have the same rank of at least 2, got %s and %s", tstr(l), tstr(k));
    return;
  }
  if (res->rank != N) {
    fail(v, op, "result rank must be %d, got %s", N, tstr(res));
    return;
  }
  Attr *dn = op_attr(op, "dimension_numbers");
  if (!dn || dn->kind != ATTR_DICT) {
    fail(v, op, "requires a 'dimension_numbers' attribute");
    return;
  }
  int S = N - 2;
  int64_t *is, *ks, *os;
  int nis, nks, nos;
  if (!dict_ints_field(v, op, dn, "input_spatial_dimensions", &is, &nis) ||
      !dict_ints_field(v, op, dn, "kernel_spatial_dimensions", &ks, &nks) ||
      !dict_ints_field(v, op, dn, "output_spatial_dimensions", &os, &nos))
    return;
  if (nis != S || nks != S || nos != S) {
    fail(v, op, "input, kernel and output spatial dimensions must each have %d entries", S);
    return;
  }
  int64_t ib = conv_dn(dn, "input_batch_dimension"), ifd = conv_dn(dn, "input_feature_dimension");
  int64_t kif = conv_dn(dn, "kernel_input_feature_dimension"), kof = conv_dn(dn, "kernel_output_feature_dimension");
  int64_t ob = conv_dn(dn, "output_batch_dimension"), ofd = conv_dn(dn, "output_feature_dimension");
  int64_t *d = xmalloc(sizeof(int64_t) * (size_t)(6 * N + 8));
  int64_t *ws = d + N, *ld = d + 2 * N, *rd = d + 3 * N, *lo = d + 4 * N, *hi = d + 5 * N;
  bool ok = true;
  d[0] = ib;
  copy_ints(d + 1, is, S);
  d[N - 1] = ifd;
  ok = dims_valid(v, op, "input dimensions", d, N, N);
  if (ok) {
    copy_ints(d, ks, S);
    d[S] = kif;
    d[S + 1] = kof;
    ok = dims_valid(v, op, "kernel dimensions", d, N, N);
  }
  if (ok) {
    d[0] = ob;
    copy_ints(d + 1, os, S);
    d[N - 1] = ofd;
    ok = dims_valid(v, op, "output dimensions", d, N, N);
  }
  int64_t fgc = 1, bgc = 1;
  if (ok) ok = int_attr(v, op, "feature_group_count", false, 1, &fgc) && int_attr(v, op, "batch_group_count", false, 1, &bgc);
  if (ok && (fgc <= 0 || bgc <= 0)) {
    fail(v, op, "feature_group_count and batch_group_count must be positive");
    ok = false;
  }
  if (ok && fgc != 1 && bgc != 1) {
    fail(v, op, "feature_group_count and batch_group_count cannot both be greater than 1");
    ok = false;
  }
  if (ok && l->dims[ib] % bgc != 0) {
    fail(v, op, "input batch dimension (%lld) must be divisible by batch_group_count (%lld)", (long long)l->dims[ib],
         (long long)bgc);
    ok = false;
  }
  if (ok && l->dims[ifd] % fgc != 0) {
    fail(v, op, "input feature dimension (%lld) must be divisible by feature_group_count (%lld)",
         (long long)l->dims[ifd], (long long)fgc);
    ok = false;
  }
  if (ok && k->dims[kif] != l->dims[ifd] / fgc) {
    fail(v, op, "kernel input feature dimension (%lld) must equal input feature dimension / feature_group_count (%lld)",
         (long long)k->dims[kif], (long long)(l->dims[ifd] / fgc));
    ok = false;
  }
  if (ok && (k->dims[kof] % bgc != 0 || k->dims[kof] % fgc != 0)) {
    fail(v, op, "kernel output feature dimension (%lld) must be divisible by the group counts", (long long)k->dims[kof]);
    ok = false;
  }
  if (ok)
    ok = window_attr(v, op, "window_strides", S, 1, ws, true) && window_attr(v, op, "lhs_dilation", S, 1, ld, true) &&
         window_attr(v, op, "rhs_dilation", S, 1, rd, true) &&
         (dynamic ? padding_operand(v, op, S, lo, hi, &pad_known) : padding_attr(v, op, S, lo, hi));
  if (ok) {
    int64_t *wr;
    int nwr;
    if (ints_attr(v, op, "window_reversal", &wr, &nwr) && op_attr(op, "window_reversal") && nwr != S) {
      fail(v, op, "window_reversal must have %d entries, got %d", S, nwr);
      ok = false;
    }
  }
  if (ok) precision_config(v, op);
  if (ok && !is_quant(l) && !is_quant(k) && !is_quant(res) && (l->elem != k->elem || l->elem != res->elem) &&
      kind_of(l->elem) != kind_of(k->elem)) {
    fail(v, op, "lhs, rhs and result element types are incompatible");
    ok = false;
  }
  if (ok) {
    int64_t *out = d;
    out[ob] = l->dims[ib] / bgc;
    out[ofd] = k->dims[kof];
    for (int s = 0; ok && s < S; s++) {
      int64_t ind = l->dims[is[s]], kd = k->dims[ks[s]];
      /* padding only known at run time: the spatial sizes are not checked */
      if (pad_known) ok = num_windows(v, op, s, ind, lo[s], hi[s], ld[s], kd, rd[s], ws[s], &out[os[s]]);
      else out[os[s]] = res->dims[os[s]];
    }
    if (ok) want_shape(v, op, 0, N, out);
  }
  xfree(d);
}

static void verify_CONVOLUTION(V *v, Op *op) { conv_check(v, op, false); }
static void verify_DYNAMIC_CONV(V *v, Op *op) { conv_check(v, op, true); }

static void verify_TRIANGULAR_SOLVE(V *v, Op *op) {
  if (!counts(v, op, 2, 2, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *b = opnd_type(op, 1), *r = res_type(op, 0);
  if (!elem_in(v, op, "operand", 0, a, K_FLOAT | K_COMPLEX) || !elem_in(v, op, "operand", 1, b, K_FLOAT | K_COMPLEX))
    return;
  if (a->rank < 2 || a->rank != b->rank) {
    fail(v, op, "operands must have the same rank of at least 2, got %s and %s", tstr(a), tstr(b));
    return;
  }
  int R = a->rank;
  for (int d = 0; d < R - 2; d++)
    if (a->dims[d] != b->dims[d]) {
      fail(v, op, "batch dimensions of a and b differ: %s and %s", tstr(a), tstr(b));
      return;
    }
  static const char *const transposes[] = {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT", NULL};
  const char *tr;
  if (!enum_attr(v, op, "transpose_a", false, transposes, &tr)) return;
  bool left = is_flag(op, "left_side");
  if (a->dims[R - 2] != a->dims[R - 1] || a->dims[R - 1] != b->dims[left ? R - 2 : R - 1]) {
    fail(v, op, "a must be square and match b's %s dimension: %s and %s", left ? "row" : "column", tstr(a), tstr(b));
    return;
  }
  if (!is_quant(a) && a->elem != b->elem) fail(v, op, "a and b must have the same element type");
  if (!base_eq(b, r)) fail(v, op, "result type %s must be b's type %s", tstr(r), tstr(b));
}

static void verify_CHOLESKY(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *r = res_type(op, 0);
  if (!elem_in(v, op, "operand", 0, a, K_FLOAT | K_COMPLEX)) return;
  if (a->rank < 2 || a->dims[a->rank - 1] != a->dims[a->rank - 2])
    fail(v, op, "operand must be a batch of square matrices, got %s", tstr(a));
  else if (!base_eq(a, r))
    fail(v, op, "result type %s must be the operand type %s", tstr(r), tstr(a));
}

static void verify_FFT(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *r = res_type(op, 0);
  static const char *const types[] = {"FFT", "IFFT", "RFFT", "IRFFT", NULL};
  const char *ty;
  int64_t *len;
  int n;
  if (!enum_attr(v, op, "fft_type", true, types, &ty)) return;
  if (!ints_attr(v, op, "fft_length", &len, &n)) return;
  if (n < 1 || n > 3 || n > a->rank) {
    fail(v, op, "fft_length must have 1 to 3 entries and at most rank(operand), got %d", n);
    return;
  }
  bool rfft = strcmp(ty, "RFFT") == 0, irfft = strcmp(ty, "IRFFT") == 0;
  bool ok;
  if (rfft) ok = et_is_float(a->elem) && et_is_complex(r->elem) && et_real_part(r->elem) == a->elem;
  else if (irfft) ok = et_is_complex(a->elem) && et_is_float(r->elem) && et_real_part(a->elem) == r->elem;
  else ok = et_is_complex(a->elem) && a->elem == r->elem;
  if (!ok) {
    fail(v, op, "element types %s and %s are not valid for %s", tstr(a), tstr(r), ty);
    return;
  }
  const Type *real = rfft ? a : irfft ? r : NULL;
  if (real)
    for (int i = 0; i < n; i++)
      if (real->rank < n || real->dims[real->rank - n + i] != len[i]) {
        fail(v, op, "the trailing dimensions of %s must equal fft_length", tstr(real));
        return;
      }
  int64_t *dims = xmalloc(sizeof(int64_t) * (size_t)(a->rank + 1));
  copy_ints(dims, a->dims, a->rank);
  if (rfft) dims[a->rank - 1] = a->dims[a->rank - 1] == 0 ? 0 : a->dims[a->rank - 1] / 2 + 1;
  if (irfft) {
    int64_t want = r->rank ? r->dims[r->rank - 1] : 0;
    want = want == 0 ? 0 : want / 2 + 1;
    if (a->dims[a->rank - 1] != want)
      fail(v, op, "last operand dimension must be %lld for IRFFT, got %s", (long long)want, tstr(a));
    else if (r->rank == a->rank)
      dims[a->rank - 1] = r->dims[r->rank - 1];
  }
  want_shape(v, op, 0, a->rank, dims);
  xfree(dims);
}

/* ---- normalization ---- */

static bool bn_feature(V *v, Op *op, const Type *a, int64_t *fi) {
  if (!int_attr(v, op, "feature_index", true, 0, fi)) return false;
  if (*fi < 0 || *fi >= a->rank) {
    fail(v, op, "feature_index %lld is out of range for %s", (long long)*fi, tstr(a));
    return false;
  }
  return true;
}

static bool bn_vector(V *v, Op *op, const Type *a, int64_t fi, const Type *t, const char *what) {
  if (t->rank != 1 || t->dims[0] != a->dims[fi] || (!is_quant(a) && t->elem != a->elem)) {
    fail(v, op, "%s must be a 1-dimensional tensor of %lld %s elements, got %s", what, (long long)a->dims[fi],
         elem_info[a->elem].mlir_name, tstr(t));
    return false;
  }
  return true;
}

static void verify_BATCH_NORM_INFERENCE(V *v, Op *op) {
  if (!counts(v, op, 5, 5, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0);
  int64_t fi;
  if (!elem_in(v, op, "operand", 0, a, K_FLOAT) || !bn_feature(v, op, a, &fi)) return;
  static const char *names[] = {"", "scale", "offset", "mean", "variance"};
  for (int i = 1; i < 5; i++)
    if (!bn_vector(v, op, a, fi, opnd_type(op, i), names[i])) return;
  if (!base_eq(a, res_type(op, 0))) fail(v, op, "result type must be the operand type %s", tstr(a));
}

static void verify_BATCH_NORM_TRAINING(V *v, Op *op) {
  if (!counts(v, op, 3, 3, 3, 3) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0);
  int64_t fi;
  if (!elem_in(v, op, "operand", 0, a, K_FLOAT) || !bn_feature(v, op, a, &fi)) return;
  if (!bn_vector(v, op, a, fi, opnd_type(op, 1), "scale") || !bn_vector(v, op, a, fi, opnd_type(op, 2), "offset") ||
      !bn_vector(v, op, a, fi, res_type(op, 1), "batch_mean") || !bn_vector(v, op, a, fi, res_type(op, 2), "batch_var"))
    return;
  if (!base_eq(a, res_type(op, 0))) fail(v, op, "output type must be the operand type %s", tstr(a));
}

static void verify_BATCH_NORM_GRAD(V *v, Op *op) {
  if (!counts(v, op, 5, 5, 3, 3) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0);
  int64_t fi;
  if (!elem_in(v, op, "operand", 0, a, K_FLOAT) || !bn_feature(v, op, a, &fi)) return;
  if (!bn_vector(v, op, a, fi, opnd_type(op, 1), "scale") || !bn_vector(v, op, a, fi, opnd_type(op, 2), "mean") ||
      !bn_vector(v, op, a, fi, opnd_type(op, 3), "variance") ||
      !bn_vector(v, op, a, fi, res_type(op, 1), "grad_scale") || !bn_vector(v, op, a, fi, res_type(op, 2), "grad_offset"))
    return;
  if (!base_eq(a, opnd_type(op, 4))) fail(v, op, "grad_output type must be the operand type %s", tstr(a));
  if (!base_eq(a, res_type(op, 0))) fail(v, op, "grad_operand type must be the operand type %s", tstr(a));
}

/* ---- gather / scatter ---- */

/* gather, or dynamic_gather (slice_sizes as a third operand) */
static void gather_check(V *v, Op *op, bool dynamic) {
  if (!counts(v, op, 2 + dynamic, 2 + dynamic, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *ix = opnd_type(op, 1), *r = res_type(op, 0);
  if (!elem_in(v, op, "operand", 1, ix, K_INT)) return;
  Attr *dn = op_attr(op, "dimension_numbers");
  if (!dn || dn->kind != ATTR_DICT) {
    fail(v, op, "requires a 'dimension_numbers' attribute");
    return;
  }
  int64_t *od, *cs, *ob, *sb, *sim, *ss;
  int nod, ncs, nob, nsb, nsim, nss;
  if (!dict_ints_field(v, op, dn, "offset_dims", &od, &nod) ||
      !dict_ints_field(v, op, dn, "collapsed_slice_dims", &cs, &ncs) ||
      !dict_ints_field(v, op, dn, "operand_batching_dims", &ob, &nob) ||
      !dict_ints_field(v, op, dn, "start_indices_batching_dims", &sb, &nsb) ||
      !dict_ints_field(v, op, dn, "start_index_map", &sim, &nsim))
    return;
  bool ss_known = true;
  if (dynamic) {
    /* the slice_sizes operand: its values only when constant */
    const Type *st = opnd_type(op, 2);
    if (!elem_in(v, op, "operand", 2, st, K_INT)) return;
    int64_t n = type_num_elements(st);
    if (n != a->rank) {
      fail(v, op, "slice_sizes operand must have %d elements, got %s", a->rank, tstr(st));
      return;
    }
    ss_known = const_ints(v, op->opnds[2], &ss, &nss) && nss == a->rank;
    nss = a->rank;
  } else if (!ints_attr(v, op, "slice_sizes", &ss, &nss)) {
    return;
  }
  int64_t ivd = dict_int(dn, "index_vector_dim", 0);
  int R = a->rank;
  if (nod + ncs + nob != R) {
    fail(v, op, "offset_dims, collapsed_slice_dims and operand_batching_dims must together have %d entries", R);
    return;
  }
  if (ivd < 0 || ivd > ix->rank) {
    fail(v, op, "index_vector_dim %lld is out of range [0, %d]", (long long)ivd, ix->rank);
    return;
  }
  int64_t nidx = ivd < ix->rank ? ix->dims[ivd] : 1;
  if (nsim != nidx) {
    fail(v, op, "start_index_map has %d entries but the index vector has %lld", nsim, (long long)nidx);
    return;
  }
  if (!sorted(od, nod)) {
    fail(v, op, "offset_dims must be sorted");
    return;
  }
  if (!dims_valid(v, op, "offset_dims", od, nod, r->rank)) return;
  if (!sorted(cs, ncs) || !sorted(ob, nob)) {
    fail(v, op, "collapsed_slice_dims and operand_batching_dims must be sorted");
    return;
  }
  int64_t *cat = xmalloc(sizeof(int64_t) * (size_t)(R + nsim + ncs + nob + 1));
  copy_ints(cat, cs, ncs);
  copy_ints(cat + ncs, ob, nob);
  bool ok = dims_valid(v, op, "collapsed_slice_dims and operand_batching_dims", cat, ncs + nob, R);
  if (ok) {
    copy_ints(cat, sim, nsim);
    copy_ints(cat + nsim, ob, nob);
    ok = dims_valid(v, op, "start_index_map and operand_batching_dims", cat, nsim + nob, R);
  }
  xfree(cat);
  if (!ok) return;
  if (!dims_valid(v, op, "start_indices_batching_dims", sb, nsb, ix->rank)) return;
  if (ints_contain(sb, nsb, ivd)) {
    fail(v, op, "index_vector_dim must not be a batching dimension");
    return;
  }
  if (nob != nsb) {
    fail(v, op, "operand_batching_dims and start_indices_batching_dims must have the same size");
    return;
  }
  for (int i = 0; i < nob; i++)
    if (a->dims[ob[i]] != ix->dims[sb[i]]) {
      fail(v, op, "operand batching dimension %lld and start indices batching dimension %lld differ in size",
           (long long)ob[i], (long long)sb[i]);
      return;
    }
  if (nss != R) {
    fail(v, op, "slice_sizes must have %d entries, got %d", R, nss);
    return;
  }
  int64_t *implied = NULL;
  if (!ss_known) {
    /* computed sizes can only be what the result type says: the offset
       dimensions' sizes in order, 1 for collapsed and batching dimensions */
    implied = xmalloc(sizeof(int64_t) * (size_t)(R + 1));
    for (int d = 0, k = 0; d < R; d++)
      implied[d] = ints_contain(cs, ncs, d) || ints_contain(ob, nob, d) ? 1 : k < nod ? r->dims[od[k++]] : 0;
    ss = implied;
  }
  for (int d = 0; d < R; d++) {
    if (ss[d] < 0 || ss[d] > a->dims[d]) {
      fail(v, op, "slice size %lld of dimension %d%s is out of range [0, %lld]", (long long)ss[d], d,
           implied ? " (implied by the result type)" : "", (long long)a->dims[d]);
      xfree(implied);
      return;
    }
    if ((ints_contain(cs, ncs, d) || ints_contain(ob, nob, d)) && ss[d] > 1) {
      fail(v, op, "slice size of collapsed or batching dimension %d must be at most 1, got %lld", d, (long long)ss[d]);
      xfree(implied);
      return;
    }
  }
  if (!is_quant(a) && !is_quant(r) && a->elem != r->elem) {
    fail(v, op, "requires the same element type for operand and result");
    xfree(implied);
    return;
  }
  /* result: batch dims (indices shape without index_vector_dim) interleaved
     with offset dims at offset_dims positions */
  int rr = nod + ix->rank - (ivd < ix->rank ? 1 : 0);
  int64_t *dims = xmalloc(sizeof(int64_t) * (size_t)(rr + 1));
  int bi = 0, oi = 0;
  int64_t *offs = xmalloc(sizeof(int64_t) * (size_t)(R + 1));
  int no = 0;
  for (int d = 0; d < R; d++)
    if (!ints_contain(cs, ncs, d) && !ints_contain(ob, nob, d)) offs[no++] = ss[d];
  for (int d = 0; d < rr; d++) {
    if (ints_contain(od, nod, d)) {
      dims[d] = oi < no ? offs[oi] : 0;
      oi++;
    } else {
      if (bi == ivd) bi++;
      dims[d] = bi < ix->rank ? ix->dims[bi] : 0;
      bi++;
    }
  }
  want_shape(v, op, 0, rr, dims);
  xfree(dims);
  xfree(offs);
  xfree(implied);
}

static void verify_GATHER(V *v, Op *op) { gather_check(v, op, false); }
static void verify_DYNAMIC_GATHER(V *v, Op *op) { gather_check(v, op, true); }

/* torch_index_select(operand, index) {dim, batch_dims}: the result is
   operand[:dim] ++ index[batch_dims:] ++ operand[dim+1:], the first
   batch_dims dimensions shared by operand and index. */
static void verify_TORCH_INDEX_SELECT(V *v, Op *op) {
  if (!counts(v, op, 2, 2, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *ix = opnd_type(op, 1), *r = res_type(op, 0);
  if (!elem_in(v, op, "operand", 1, ix, K_INT)) return;
  int64_t dim, bd;
  if (!int_attr(v, op, "dim", false, 0, &dim) || !int_attr(v, op, "batch_dims", false, 0, &bd)) return;
  int64_t d0 = dim, b0 = bd;
  if (dim < 0) dim += a->rank;
  if (bd < 0) bd += ix->rank;
  if (dim < 0 || dim >= a->rank) {
    fail(v, op, "dim %lld is out of range for operand rank %d", (long long)d0, a->rank);
    return;
  }
  if (bd < 0 || bd > dim || bd > ix->rank) {
    fail(v, op, "batch_dims %lld must be in [0, min(dim, index rank)] (dim %lld, index rank %d)", (long long)b0,
         (long long)dim, ix->rank);
    return;
  }
  for (int d = 0; d < bd; d++)
    if (a->dims[d] != ix->dims[d]) {
      fail(v, op, "batch dimension %d differs in size between operand (%lld) and index (%lld)", d,
           (long long)a->dims[d], (long long)ix->dims[d]);
      return;
    }
  if (!is_quant(a) && !is_quant(r) && a->elem != r->elem) {
    fail(v, op, "requires the same element type for operand and result");
    return;
  }
  int nidx = ix->rank - (int)bd, rr = a->rank - 1 + nidx;
  int64_t *dims = xmalloc(sizeof(int64_t) * (size_t)(rr + 1));
  int n = 0;
  for (int d = 0; d < dim; d++) dims[n++] = a->dims[d];
  for (int d = (int)bd; d < ix->rank; d++) dims[n++] = ix->dims[d];
  for (int d = (int)dim + 1; d < a->rank; d++) dims[n++] = a->dims[d];
  want_shape(v, op, 0, rr, dims);
  xfree(dims);
}

static void verify_SCATTER(V *v, Op *op) {
  if (!counts(v, op, 3, -1, 1, -1) || !all_tensors(v, op)) return;
  if ((op->nopnds - 1) % 2 || op->nres != (op->nopnds - 1) / 2) {
    fail(v, op, "expects N inputs, scatter indices, N updates and N results");
    return;
  }
  int N = (op->nopnds - 1) / 2;
  if (N > 64) return;
  const Type *a = opnd_type(op, 0), *ix = opnd_type(op, N), *u = opnd_type(op, N + 1);
  if (!elem_in(v, op, "operand", N, ix, K_INT)) return;
  for (int i = 0; i < N; i++) {
    const Type *ai = opnd_type(op, i), *ui = opnd_type(op, N + 1 + i);
    if (!shapes_eq(a, ai) || !shapes_eq(u, ui)) {
      fail(v, op, "requires all inputs to have one shape and all updates another");
      return;
    }
    if (!is_quant(ai) && !is_quant(ui) && ai->elem != ui->elem) {
      fail(v, op, "input #%d and update #%d have different element types", i, i);
      return;
    }
    if (!shapes_eq(ai, res_type(op, i))) {
      fail(v, op, "result #%d shape must be the inputs' shape, got %s", i, tstr(res_type(op, i)));
      return;
    }
  }
  Attr *dn = op_attr(op, "scatter_dimension_numbers");
  if (!dn || dn->kind != ATTR_DICT) {
    fail(v, op, "requires a 'scatter_dimension_numbers' attribute");
    return;
  }
  int64_t *uwd, *iwd, *ib, *sib, *sdod;
  int nuwd, niwd, nib, nsib, nsdod;
  if (!dict_ints_field(v, op, dn, "update_window_dims", &uwd, &nuwd) ||
      !dict_ints_field(v, op, dn, "inserted_window_dims", &iwd, &niwd) ||
      !dict_ints_field(v, op, dn, "input_batching_dims", &ib, &nib) ||
      !dict_ints_field(v, op, dn, "scatter_indices_batching_dims", &sib, &nsib) ||
      !dict_ints_field(v, op, dn, "scatter_dims_to_operand_dims", &sdod, &nsdod))
    return;
  int64_t ivd = dict_int(dn, "index_vector_dim", 0);
  int R = a->rank;
  if (nuwd + niwd + nib != R) {
    fail(v, op, "update_window_dims, inserted_window_dims and input_batching_dims must together have %d entries", R);
    return;
  }
  if (!sorted(uwd, nuwd) || !dims_valid(v, op, "update_window_dims", uwd, nuwd, u->rank)) {
    if (!sorted(uwd, nuwd)) fail(v, op, "update_window_dims must be sorted");
    return;
  }
  if (!sorted(iwd, niwd) || !sorted(ib, nib)) {
    fail(v, op, "inserted_window_dims and input_batching_dims must be sorted");
    return;
  }
  if (ivd < 0 || ivd > ix->rank) {
    fail(v, op, "index_vector_dim %lld is out of range [0, %d]", (long long)ivd, ix->rank);
    return;
  }
  int64_t *cat = xmalloc(sizeof(int64_t) * (size_t)(R + nsdod + niwd + nib + 1));
  copy_ints(cat, iwd, niwd);
  copy_ints(cat + niwd, ib, nib);
  bool ok = dims_valid(v, op, "inserted_window_dims and input_batching_dims", cat, niwd + nib, R);
  if (ok) {
    copy_ints(cat, sdod, nsdod);
    copy_ints(cat + nsdod, ib, nib);
    ok = dims_valid(v, op, "scatter_dims_to_operand_dims and input_batching_dims", cat, nsdod + nib, R);
  }
  xfree(cat);
  if (!ok || !dims_valid(v, op, "scatter_indices_batching_dims", sib, nsib, ix->rank)) return;
  if (ints_contain(sib, nsib, ivd)) {
    fail(v, op, "index_vector_dim must not be a batching dimension");
    return;
  }
  if (nib != nsib) {
    fail(v, op, "input_batching_dims and scatter_indices_batching_dims must have the same size");
    return;
  }
  for (int i = 0; i < nib; i++)
    if (a->dims[ib[i]] != ix->dims[sib[i]]) {
      fail(v, op, "input batching dimension %lld and scatter indices batching dimension %lld differ in size",
           (long long)ib[i], (long long)sib[i]);
      return;
    }
  int64_t nidx = ivd < ix->rank ? ix->dims[ivd] : 1;
  if (nsdod != nidx) {
    fail(v, op, "scatter_dims_to_operand_dims has %d entries but the index vector has %lld", nsdod, (long long)nidx);
    return;
  }
  /* updates shape: scatter dims from the indices, window dims bounded by the
     input's non-inserted, non-batching dims */
  int want_rank = nuwd + ix->rank - (ivd < ix->rank ? 1 : 0);
  if (u->rank != want_rank) {
    fail(v, op, "updates rank must be %d, got %s", want_rank, tstr(u));
    return;
  }
  int si = 0, wi = 0;
  int64_t *win = xmalloc(sizeof(int64_t) * (size_t)(R + 1));
  int nw = 0;
  for (int d = 0; d < R; d++)
    if (!ints_contain(iwd, niwd, d) && !ints_contain(ib, nib, d)) win[nw++] = a->dims[d];
  for (int d = 0; d < u->rank && ok; d++) {
    if (ints_contain(uwd, nuwd, d)) {
      if (wi < nw && u->dims[d] > win[wi]) {
        fail(v, op, "update window dimension %d of size %lld exceeds the input's size %lld", d, (long long)u->dims[d],
             (long long)win[wi]);
        ok = false;
      }
      wi++;
    } else {
      if (si == ivd) si++;
      if (si < ix->rank && u->dims[d] != ix->dims[si]) {
        fail(v, op, "update scatter dimension %d of size %lld differs from the scatter indices' size %lld", d,
             (long long)u->dims[d], (long long)ix->dims[si]);
        ok = false;
      }
      si++;
    }
  }
  xfree(win);
  if (!ok) return;
  ElemType ins[64], es[64];
  for (int i = 0; i < N; i++) ins[i] = opnd_type(op, i)->elem;
  if (reducer(v, op, 0, N, ins, es)) reduction_result_elems(v, op, N, es);
}

/* ---- collectives ---- */

static int64_t channel_of(const Op *op) {
  Attr *a = op_attr(op, "channel_handle");
  if (a && a->kind == ATTR_DICT) return dict_int(a, "handle", 0);
  if (a && a->kind == ATTR_INT) return a->i;
  return op_attr_int(op, "channel_id", 0);
}

/* replica_groups: a 2-D list of ids, each used once.  `pad` allows -1 as
   padding of ragged groups; `cover` requires the ids to be exactly
   0..max (the groups cover every replica).  Returns the row length (group
   size), 0 when absent, or -1 after reporting. */
static int64_t replica_groups(V *v, Op *op, const char *name, bool pad, bool cover) {
  Attr *a = op_attr(op, name);
  if (!a) return 0;
  int64_t *p;
  int n;
  int64_t cols;
  if (a->kind == ATTR_DENSE && a->lit) {
    if (a->lit->type->rank != 2 || !attr_get_ints(a, &p, &n)) {
      fail(v, op, "replica groups should be a rank 2 tensor of integers");
      return -1;
    }
    cols = a->lit->type->dims[1];
  } else if (a->kind == ATTR_ARRAY) {
    /* possibly ragged array of arrays: validate row by row */
    cols = 0;
    for (int i = 0; i < a->n; i++) {
      int64_t *q;
      int m;
      if (!attr_get_ints(a->elems[i], &q, &m)) {
        fail(v, op, "replica groups should be a list of lists of integers");
        return -1;
      }
      if (m > cols) cols = m;
    }
    return cols;
  } else {
    fail(v, op, "replica groups should be a rank 2 tensor of integers");
    return -1;
  }
  int64_t max = -1;
  for (int i = 0; i < n; i++) {
    if (p[i] < 0 && !(pad && p[i] == -1)) {
      fail(v, op, "Invalid replica id %lld", (long long)p[i]);
      return -1;
    }
    for (int j = 0; p[i] >= 0 && j < i; j++)
      if (p[j] == p[i]) {
        fail(v, op, "replica id #%lld seen more than once", (long long)p[i]);
        return -1;
      }
    if (p[i] > max) max = p[i];
  }
  for (int64_t id = 0; cover && id <= max; id++)
    if (!ints_contain(p, n, id)) {
      fail(v, op, "replica id #%lld not seen in replica groups", (long long)id);
      return -1;
    }
  return cols;
}

static void check_global_ids(V *v, Op *op) {
  if (is_flag(op, "use_global_device_ids") && channel_of(op) <= 0)
    fail(v, op, "channel_id must be positive when use_global_device_ids is set");
}

static void verify_ALL_GATHER(V *v, Op *op) {
  if (!counts(v, op, 1, -1, 1, -1) || !all_tensors(v, op)) return;
  if (op->nres != op->nopnds) {
    fail(v, op, "has %d operands but %d results", op->nopnds, op->nres);
    return;
  }
  if (replica_groups(v, op, "replica_groups", false, true) < 0) return;
  check_global_ids(v, op);
  int64_t d;
  if (!int_attr(v, op, "all_gather_dim", true, 0, &d)) return;
  for (int i = 0; i < op->nopnds; i++) {
    const Type *a = opnd_type(op, i), *r = res_type(op, i);
    if (d < 0 || d >= a->rank) {
      fail(v, op, "all_gather_dim %lld is out of range for %s", (long long)d, tstr(a));
      return;
    }
    bool ok = r->rank == a->rank && (is_quant(a) || is_quant(r) || a->elem == r->elem);
    for (int k = 0; ok && k < a->rank; k++)
      ok = k == d ? (a->dims[k] == 0 ? r->dims[k] == 0 : r->dims[k] % a->dims[k] == 0)
                  : r->dims[k] == a->dims[k];
    if (!ok) {
      fail(v, op, "result type %s is not a gather of %s along dimension %lld", tstr(r), tstr(a), (long long)d);
      return;
    }
  }
}

static void all_reduce_like(V *v, Op *op, bool scatter) {
  if (!counts(v, op, 1, -1, 1, -1) || !all_tensors(v, op)) return;
  if (op->nres != op->nopnds) {
    fail(v, op, "has %d operands but %d results", op->nopnds, op->nres);
    return;
  }
  if (replica_groups(v, op, "replica_groups", !scatter, true) < 0) return;
  check_global_ids(v, op);
  int64_t d = 0;
  if (scatter && !int_attr(v, op, "scatter_dimension", true, 0, &d)) return;
  for (int i = 0; i < op->nopnds; i++) {
    const Type *a = opnd_type(op, i), *r = res_type(op, i);
    ElemType in = a->elem, e = a->elem;
    if (op->nregions && !reducer(v, op, 0, 1, is_quant(a) ? NULL : &in, &e)) return;
    if (!is_quant(r) && op->nregions && r->elem != e) {
      fail(v, op, "result #%d element type must be %s (the reduction type), got %s", i, elem_info[e].mlir_name,
           tstr(r));
      return;
    }
    if (!scatter) {
      if (!shapes_eq(a, r)) {
        fail(v, op, "result #%d shape must be the operand's, got %s and %s", i, tstr(r), tstr(a));
        return;
      }
      continue;
    }
    if (d < 0 || d >= a->rank) {
      fail(v, op, "scatter_dimension %lld is out of range for %s", (long long)d, tstr(a));
      return;
    }
    if (a->dims[d] == 0) {
      fail(v, op, "operand dimension size at scatter_dimension cannot be zero");
      return;
    }
    bool ok = r->rank == a->rank;
    for (int k = 0; ok && k < a->rank; k++)
      ok = k == d ? (r->dims[k] == 0 ? a->dims[k] == 0 : a->dims[k] % r->dims[k] == 0) : r->dims[k] == a->dims[k];
    if (!ok) {
      fail(v, op, "result type %s is not a scatter of %s along dimension %lld", tstr(r), tstr(a), (long long)d);
      return;
    }
  }
}

static void verify_ALL_REDUCE(V *v, Op *op) {
  if (op->nregions != 1) {
    fail(v, op, "requires a reduction region");
    return;
  }
  all_reduce_like(v, op, false);
}
static void verify_REDUCE_SCATTER(V *v, Op *op) {
  if (op->nregions != 1) {
    fail(v, op, "requires a reduction region");
    return;
  }
  all_reduce_like(v, op, true);
}
static void verify_CROSS_REPLICA_SUM(V *v, Op *op) { all_reduce_like(v, op, false); }

static void verify_ALL_TO_ALL(V *v, Op *op) {
  if (!counts(v, op, 1, -1, 1, -1) || !all_tensors(v, op)) return;
  if (op->nres != op->nopnds) {
    fail(v, op, "has %d operands but %d results", op->nopnds, op->nres);
    return;
  }
  int64_t cols = replica_groups(v, op, "replica_groups", false, true);
  if (cols < 0) return;
  int64_t sd, cd, sc;
  if (!int_attr(v, op, "split_dimension", true, 0, &sd) || !int_attr(v, op, "concat_dimension", true, 0, &cd) ||
      !int_attr(v, op, "split_count", true, 1, &sc))
    return;
  if (sc <= 0) {
    fail(v, op, "split_count must be positive, got %lld", (long long)sc);
    return;
  }
  if (cols > 0 && cols != sc) {
    fail(v, op, "replica groups have %lld members but split_count is %lld", (long long)cols, (long long)sc);
    return;
  }
  for (int i = 0; i < op->nopnds; i++) {
    const Type *a = opnd_type(op, i), *r = res_type(op, i);
    if (sd < 0 || sd >= a->rank || cd < 0 || cd >= a->rank) {
      fail(v, op, "split_dimension and concat_dimension must be in [0, %d)", a->rank);
      return;
    }
    if (a->dims[sd] % sc != 0) {
      fail(v, op, "split dimension has size %lld, expected to be a multiple of split_count %lld",
           (long long)a->dims[sd], (long long)sc);
      return;
    }
    if (!is_quant(a) && !is_quant(r) && a->elem != r->elem) {
      fail(v, op, "requires the same element type for operands and results");
      return;
    }
    int64_t *dims = xmalloc(sizeof(int64_t) * (size_t)(a->rank + 1));
    copy_ints(dims, a->dims, a->rank);
    dims[sd] /= sc;
    int64_t cat = dims[cd];
    bool ok = dim_mul(cat, sc, &dims[cd]);
    if (!ok) fail(v, op, "concat dimension of size %lld times split_count %lld overflows", (long long)cat, (long long)sc);
    ok = ok && want_shape(v, op, i, a->rank, dims);
    xfree(dims);
    if (!ok) return;
  }
}

static void verify_COLLECTIVE_PERMUTE(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 1, 1) || !all_tensors(v, op)) return;
  if (!base_eq(opnd_type(op, 0), res_type(op, 0)))
    fail(v, op, "result type %s must be the operand type %s", tstr(res_type(op, 0)), tstr(opnd_type(op, 0)));
  Attr *a = op_attr(op, "source_target_pairs");
  int64_t *p;
  int n;
  if (!a || !attr_get_ints(a, &p, &n)) {
    fail(v, op, "requires a 'source_target_pairs' attribute");
    return;
  }
  if ((a->kind == ATTR_DENSE && a->lit && (a->lit->type->rank != 2 || a->lit->type->dims[1] != 2) && n > 0) || n % 2) {
    fail(v, op, "expect source_target_pairs attribute to be of rank 2 with a second dimension of size 2");
    return;
  }
  for (int i = 0; i < n; i++) {
    if (p[i] < 0) {
      fail(v, op, "replica ids in source_target_pairs must be >= 0, got %lld", (long long)p[i]);
      return;
    }
    for (int j = i % 2; j < i; j += 2)
      if (p[j] == p[i]) {
        fail(v, op, "duplicate %s %lld in source_target_pairs", i % 2 ? "target" : "source", (long long)p[i]);
        return;
      }
  }
}

static void verify_COLLECTIVE_BROADCAST(V *v, Op *op) {
  bool dyn = is_flag(op, "has_dynamic_root");
  if (!counts(v, op, dyn ? 2 : 1, -1, 1, -1) || !all_tensors(v, op)) return;
  int n = op->nopnds - (dyn ? 1 : 0);
  if (op->nres != n) {
    fail(v, op, "expects %d results, got %d", n, op->nres);
    return;
  }
  for (int i = 0; i < n; i++)
    if (!base_eq(opnd_type(op, i), res_type(op, i))) {
      fail(v, op, "result #%d type %s must be the operand type %s", i, tstr(res_type(op, i)), tstr(opnd_type(op, i)));
      return;
    }
  if (dyn) {
    const Type *root = opnd_type(op, n);
    if (root->rank != 1 || root->dims[0] != n || root->elem != ET_S32)
      fail(v, op, "root operand must be tensor<%dxi32>, got %s", n, tstr(root));
  }
  replica_groups(v, op, "replica_groups", false, false);
}

static void verify_COLLECTIVE_REDUCE(V *v, Op *op) {
  bool dyn = is_flag(op, "has_dynamic_root");
  if (!counts(v, op, dyn ? 2 : 1, -1, 1, -1) || !all_tensors(v, op)) return;
  int n = op->nopnds - (dyn ? 1 : 0);
  if (op->nres != n) {
    fail(v, op, "expects %d results, got %d", n, op->nres);
    return;
  }
  if (replica_groups(v, op, "replica_groups", false, false) < 0) return;
  check_global_ids(v, op);
  for (int i = 0; i < n; i++) {
    const Type *a = opnd_type(op, i), *r = res_type(op, i);
    if (!shapes_eq(a, r)) {
      fail(v, op, "result #%d shape must be the operand's, got %s and %s", i, tstr(r), tstr(a));
      return;
    }
    ElemType in = a->elem, e = a->elem;
    if (!reducer(v, op, 0, 1, is_quant(a) ? NULL : &in, &e)) return;
  }
  if (dyn) {
    const Type *root = opnd_type(op, n);
    if (root->rank != 1 || type_num_elements(root) != n || root->elem != ET_S32)
      fail(v, op, "last operand of collective_reduce with has_dynamic_root=true must be a rank-1 i32 tensor of %d elements, got %s",
           n, tstr(root));
  }
}

/* ---- rng ---- */

static void verify_RNG(V *v, Op *op) {
  if (!counts(v, op, 3, 3, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *b = opnd_type(op, 1), *s = opnd_type(op, 2), *r = res_type(op, 0);
  if (a->rank != 0 || b->rank != 0 || a->elem != r->elem || b->elem != r->elem)
    fail(v, op, "a and b must be 0-dimensional tensors of the result's element type");
  if (s->rank != 1 || s->dims[0] != r->rank)
    fail(v, op, "shape operand %s must have %d elements", tstr(s), r->rank);
  const_shape_operand(v, op, 2);
  static const char *const dists[] = {"UNIFORM", "NORMAL", NULL};
  const char *dist;
  if (!enum_attr(v, op, "rng_distribution", false, dists, &dist)) return;
  if (dist && strcmp(dist, "NORMAL") == 0 && !et_is_float(r->elem))
    fail(v, op, "NORMAL distribution requires a floating-point type, got %s", tstr(r));
  elem_in(v, op, "result", 0, r, K_PRED | K_INT | K_FLOAT);
}

static void verify_RNG_BIT_GENERATOR(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 2, 2) || !all_tensors(v, op)) return;
  const Type *st = opnd_type(op, 0), *out = res_type(op, 1);
  if (!base_eq(st, res_type(op, 0)))
    fail(v, op, "output state type %s must be the initial state type %s", tstr(res_type(op, 0)), tstr(st));
  static const char *const algs[] = {"DEFAULT", "THREE_FRY", "PHILOX", NULL};
  const char *alg;
  if (!enum_attr(v, op, "rng_algorithm", false, algs, &alg)) return;
  /* DEFAULT is PHILOX here, in both backends */
  bool three_fry = alg && strcmp(alg, "THREE_FRY") == 0;
  if (st->rank != 1 || st->elem != ET_U64 || st->quant)
    fail(v, op, "initial state must be a 1-dimensional tensor of ui64, got %s", tstr(st));
  else if (three_fry ? st->dims[0] != 2 : st->dims[0] != 2 && st->dims[0] != 3)
    fail(v, op, "initial state of the %s algorithm must have %s elements, got %s", alg ? alg : "DEFAULT",
         three_fry ? "2" : "2 or 3", tstr(st));
  int bits = et_bits(out->elem);
  if (out->quant || !(kind_of(out->elem) & (K_INT | K_FLOAT)) || bits < 8 || bits > 64 || bits != 8 * et_bytes(out->elem))
    fail(v, op, "output must be a tensor of integers or floats of 8 to 64 bits, got %s", tstr(out));
}

/* ---- everything else ---- */

static void verify_CUSTOM_CALL(V *v, Op *op) {
  if (!counts(v, op, 0, -1, 0, -1)) return;
  if (!op_attr_str(op, "call_target_name")) fail(v, op, "requires a 'call_target_name' attribute");
}

static void verify_UNIFORM_QUANTIZE(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 1, 1) || !all_tensors(v, op)) return;
  if (!shapes_eq(opnd_type(op, 0), res_type(op, 0)))
    fail(v, op, "requires the same shape for operand and result, got %s and %s", tstr(opnd_type(op, 0)),
         tstr(res_type(op, 0)));
}
static void verify_UNIFORM_DEQUANTIZE(V *v, Op *op) { verify_UNIFORM_QUANTIZE(v, op); }

static void verify_INTERP_RUN_PARALLEL(V *v, Op *op) {
  if (!counts(v, op, 0, -1, 0, -1)) return;
  Attr *pa = op_attr(op, "programs");
  if (!pa || pa->kind != ATTR_ARRAY || pa->n < 1) {
    fail(v, op, "'programs' must be a non-empty array of arrays of functions");
    return;
  }
  int nargs = 0, nres = 0, np = -1;
  for (int r = 0; r < pa->n; r++) {
    Attr *row = pa->elems[r];
    if (row->kind != ATTR_ARRAY || row->n < 1 || (np >= 0 && row->n != np)) {
      fail(v, op, "'programs' rows must be non-empty arrays of the same length");
      return;
    }
    np = row->n;
    for (int c = 0; c < row->n; c++) {
      Attr *s = row->elems[c];
      if (s->kind != ATTR_SYMBOL || !s->s) {
        fail(v, op, "'programs' must hold function symbols");
        return;
      }
      Func *f = module_find_func(v->m, s->s[0] == '@' ? s->s + 1 : s->s);
      if (!f) {
        fail(v, op, "'programs' refers to unknown function @%s", s->s[0] == '@' ? s->s + 1 : s->s);
        return;
      }
      for (int i = 0; i < f->body->nargs; i++, nargs++)
        if (nargs < op->nopnds && !base_eq(opnd_type(op, nargs), f->body->args[i]->type)) {
          fail(v, op, "operand #%d type %s does not match @%s's argument type %s", nargs, tstr(opnd_type(op, nargs)),
               f->name, tstr(f->body->args[i]->type));
          return;
        }
      for (int i = 0; i < f->nresults; i++, nres++)
        if (nres < op->nres && f->result_types && !base_eq(res_type(op, nres), f->result_types[i])) {
          fail(v, op, "result #%d type %s does not match @%s's result type %s", nres, tstr(res_type(op, nres)),
               f->name, tstr(f->result_types[i]));
          return;
        }
    }
  }
  if (nargs != op->nopnds) fail(v, op, "has %d operands but the programs take %d arguments", op->nopnds, nargs);
  if (nres != op->nres) fail(v, op, "has %d results but the programs return %d", op->nres, nres);
  Attr *ia = op_attr(op, "infeed");
  for (int i = 0; ia && ia->kind == ATTR_ARRAY && i < ia->n; i++) {
    Attr *s = ia->elems[i];
    if (s->kind != ATTR_SYMBOL || !s->s || !module_find_func(v->m, s->s[0] == '@' ? s->s + 1 : s->s))
      fail(v, op, "'infeed' entry #%d is not a known function", i);
  }
}

static void check_binary_same(V *v, Op *op) {
  if (!counts(v, op, 2, 2, 0, 0) || !all_tensors(v, op)) return;
  if (!shapes_eq(opnd_type(op, 0), opnd_type(op, 1)))
    fail(v, op, "requires operands of the same shape, got %s and %s", tstr(opnd_type(op, 0)), tstr(opnd_type(op, 1)));
}
static void check_const(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 0, 0) || !all_tensors(v, op)) return;
  Attr *a = op_attr(op, "value");
  if (!a || a->kind != ATTR_DENSE || !a->lit) {
    fail(v, op, "requires a dense 'value' attribute");
    return;
  }
  if (!shapes_eq(a->lit->type, opnd_type(op, 0)))
    fail(v, op, "expected value of type %s does not match operand type %s", tstr(a->lit->type), tstr(opnd_type(op, 0)));
}
static void verify_CHECK_EXPECT_EQ(V *v, Op *op) { check_binary_same(v, op); }
static void verify_CHECK_EXPECT_ALMOST_EQ(V *v, Op *op) { check_binary_same(v, op); }
static void verify_CHECK_EXPECT_CLOSE(V *v, Op *op) { check_binary_same(v, op); }
static void verify_CHECK_EXPECT_EQ_CONST(V *v, Op *op) { check_const(v, op); }
static void verify_CHECK_EXPECT_ALMOST_EQ_CONST(V *v, Op *op) { check_const(v, op); }

ANY(CHECK_EXPECT_SERIALIZED_EQ)
ANY(INTERP_PROBE)
ANY(INTERP_PRINT)
static void verify_SET_DIMENSION_SIZE(V *v, Op *op) {
  if (!counts(v, op, 2, 2, 1, 1) || !all_tensors(v, op)) return;
  const Type *a = opnd_type(op, 0), *sz = opnd_type(op, 1);
  int64_t d;
  if (!int_attr(v, op, "dimension", true, 0, &d)) return;
  if (d < 0 || d >= a->rank)
    fail(v, op, "requires dimension attribute in range [0, %d); found (%lld)", a->rank, (long long)d);
  if (sz->rank != 0) fail(v, op, "size operand should be of rank-0, got %s", tstr(sz));
}

/* CHLO elementwise ops, element types as the interpreter evaluates them:
   the trigonometric/hyperbolic family and conj on floats and complex
   numbers, the special functions and next_after on floats only, square on
   any number, mulhi on integers, the is_*_inf tests from floats to i1; the
   structured ones are checked below. */
UNARY(CHLO_ACOS, K_FLOAT | K_COMPLEX)
UNARY(CHLO_ACOSH, K_FLOAT | K_COMPLEX)
UNARY(CHLO_ASIN, K_FLOAT | K_COMPLEX)
UNARY(CHLO_ASINH, K_FLOAT | K_COMPLEX)
UNARY(CHLO_ATAN, K_FLOAT | K_COMPLEX)
UNARY(CHLO_ATANH, K_FLOAT | K_COMPLEX)
UNARY(CHLO_BESSEL_I1E, K_FLOAT)
UNARY(CHLO_CONJ, K_FLOAT | K_COMPLEX)
UNARY(CHLO_COSH, K_FLOAT | K_COMPLEX)
UNARY(CHLO_DIGAMMA, K_FLOAT)
UNARY(CHLO_ERF, K_FLOAT)
UNARY(CHLO_ERF_INV, K_FLOAT)
UNARY(CHLO_ERFC, K_FLOAT)
static void verify_CHLO_IS_INF(V *v, Op *op) { unary(v, op, K_FLOAT, ET_PRED); }
static void verify_CHLO_IS_NEG_INF(V *v, Op *op) { unary(v, op, K_FLOAT, ET_PRED); }
static void verify_CHLO_IS_POS_INF(V *v, Op *op) { unary(v, op, K_FLOAT, ET_PRED); }
UNARY(CHLO_LGAMMA, K_FLOAT)
UNARY(CHLO_SINH, K_FLOAT | K_COMPLEX)
UNARY(CHLO_SQUARE, K_INT | K_FLOAT | K_COMPLEX)
UNARY(CHLO_TAN, K_FLOAT | K_COMPLEX)
BINARY(CHLO_IGAMMA, K_FLOAT)
BINARY(CHLO_IGAMMAC, K_FLOAT)
BINARY(CHLO_NEXT_AFTER, K_FLOAT)
BINARY(CHLO_POLYGAMMA, K_FLOAT)
BINARY(CHLO_ZETA, K_FLOAT)
BINARY(CHLO_MULHI, K_INT)
ANY(CHLO_RAGGED_DOT)
ANY(CHLO_SCAN)
/* chlo.constant_like: a scalar value splatted into the operand's shape, as
   the interpreter reads it (a dense value of one element or of the result's
   count, or a float, integer or bool; no float for an integer result). */
static void verify_CHLO_CONSTANT_LIKE(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 1, 1) || !all_tensors(v, op)) return;
  const Type *x = opnd_type(op, 0), *r = res_type(op, 0);
  if (!shapes_eq(x, r)) {
    fail(v, op, "requires the same shape for operand and result, got %s and %s", tstr(x), tstr(r));
    return;
  }
  Attr *a = op_attr(op, "value");
  if (!a) {
    fail(v, op, "requires a 'value' attribute");
    return;
  }
  if (a->kind == ATTR_DENSE && a->lit) {
    int64_t n = type_num_elements(r);
    if (a->lit->n != 1 && a->lit->n != n)
      fail(v, op, "value has %lld elements, expected 1 or %lld for %s", (long long)a->lit->n, (long long)n,
           tstr(r));
  } else if (a->kind == ATTR_FLOAT) {
    if (!is_quant(r) && et_is_int(r->elem)) fail(v, op, "float value for an integer result %s", tstr(r));
  } else if (a->kind != ATTR_INT && a->kind != ATTR_BOOL) {
    fail(v, op, "'value' must be a dense, float, integer or bool attribute");
  }
}

/* chlo.constant: chlo-decompose turns it into stablehlo.constant, so the
   same rules. */
static void verify_CHLO_CONSTANT(V *v, Op *op) { verify_CONSTANT(v, op); }

/* chlo.top_k: the k largest elements of each row along the last dimension
   and their indices, as both backends compute them (the interpreter
   directly, chlo-decompose through sort and slice). */
static void verify_CHLO_TOP_K(V *v, Op *op) {
  if (!counts(v, op, 1, 1, 2, 2) || !all_tensors(v, op)) return;
  const Type *x = opnd_type(op, 0), *vt = res_type(op, 0), *it = res_type(op, 1);
  if (x->rank < 1) {
    fail(v, op, "requires an operand of rank >= 1, got %s", tstr(x));
    return;
  }
  if (et_is_complex(x->elem)) {
    fail(v, op, "cannot order complex values (%s)", tstr(x));
    return;
  }
  int64_t k;
  if (!int_attr(v, op, "k", true, -1, &k)) return;
  int64_t len = x->dims[x->rank - 1];
  if (k < 0 || k > len) {
    fail(v, op, "k = %lld is out of range [0, %lld] for %s", (long long)k, (long long)len, tstr(x));
    return;
  }
  bool ok = vt->rank == x->rank && it->rank == x->rank && vt->elem == x->elem && et_is_int(it->elem);
  for (int d = 0; ok && d < x->rank; d++) {
    int64_t want = d + 1 == x->rank ? k : x->dims[d];
    ok = vt->dims[d] == want && it->dims[d] == want;
  }
  if (!ok)
    fail(v, op, "results must be the operand's shape with the last dimension k = %lld (values of its element "
         "type, integer indices), got %s and %s", (long long)k, tstr(vt), tstr(it));
}

/* CHLO implicit broadcasting, as both backends do it (the interpreter
   directly, chlo-decompose through broadcast_in_dim and the plain op):
   every operand stretches to the result's shape, its trailing dimensions
   lining up or, for an operand of lower rank, dimension i going to
   broadcast_dimensions[i]; each operand dimension is 1 or the result's.
   Element types as the plain op requires them. */
static void chlo_broadcast(V *v, Op *op, int n, unsigned mask) {
  if (!counts(v, op, n, n, 1, 1) || !all_tensors(v, op)) return;
  const Type *r = res_type(op, 0);
  int64_t *bd;
  int nbd;
  if (!ints_attr(v, op, "broadcast_dimensions", &bd, &nbd)) return;
  for (int i = 0; i < n; i++) {
    const Type *x = opnd_type(op, i);
    if (x->rank > r->rank) {
      fail(v, op, "operand #%d of rank %d does not broadcast to the result %s", i, x->rank, tstr(r));
      return;
    }
    bool aligned = nbd == 0 || x->rank == r->rank;
    if (!aligned && nbd != x->rank) {
      fail(v, op, "broadcast_dimensions has %d entries but operand #%d has rank %d", nbd, i, x->rank);
      return;
    }
    if (!aligned && !dims_valid(v, op, "broadcast_dimensions", bd, nbd, r->rank)) return;
    for (int d = 0; d < x->rank; d++) {
      int64_t to = aligned ? r->rank - x->rank + d : bd[d];
      if (x->dims[d] != 1 && x->dims[d] != r->dims[to]) {
        fail(v, op, "operand #%d dimension %d of size %lld does not broadcast to result dimension %lld of size %lld",
             i, d, (long long)x->dims[d], (long long)to, (long long)r->dims[to]);
        return;
      }
    }
  }
  bool select = op->kind == OP_CHLO_BROADCAST_SELECT, cmp = op->kind == OP_CHLO_BROADCAST_COMPARE;
  const Type *x = opnd_type(op, n - 2), *y = opnd_type(op, n - 1);
  if (cmp) compare_attrs(v, op, x);
  if (is_quant(x) || is_quant(y) || is_quant(r)) return;
  if (select && opnd_type(op, 0)->elem != ET_PRED) {
    fail(v, op, "pred must be a tensor of i1, got %s", tstr(opnd_type(op, 0)));
    return;
  }
  if (!elem_in(v, op, "operand", n - 2, x, mask) || !elem_in(v, op, "operand", n - 1, y, mask)) return;
  if (x->elem != y->elem)
    fail(v, op, "requires the same element type for both operands, got %s and %s", tstr(x), tstr(y));
  else if (cmp ? r->elem != ET_PRED : r->elem != x->elem)
    fail(v, op, "result element type must be %s, got %s", cmp ? "i1" : elem_info[x->elem].mlir_name, tstr(r));
}

#define CHLO_BCAST(id, n, mask) \
  static void verify_##id(V *v, Op *op) { chlo_broadcast(v, op, n, mask); }
CHLO_BCAST(CHLO_BROADCAST_ADD, 2, K_ANY)
CHLO_BCAST(CHLO_BROADCAST_SUBTRACT, 2, K_INT | K_FLOAT | K_COMPLEX)
CHLO_BCAST(CHLO_BROADCAST_MULTIPLY, 2, K_ANY)
CHLO_BCAST(CHLO_BROADCAST_DIVIDE, 2, K_INT | K_FLOAT | K_COMPLEX)
CHLO_BCAST(CHLO_BROADCAST_MAXIMUM, 2, K_ANY)
CHLO_BCAST(CHLO_BROADCAST_MINIMUM, 2, K_ANY)
CHLO_BCAST(CHLO_BROADCAST_POWER, 2, K_INT | K_FLOAT | K_COMPLEX)
CHLO_BCAST(CHLO_BROADCAST_REMAINDER, 2, K_INT | K_FLOAT | K_COMPLEX)
CHLO_BCAST(CHLO_BROADCAST_AND, 2, K_PRED | K_INT)
CHLO_BCAST(CHLO_BROADCAST_OR, 2, K_PRED | K_INT)
CHLO_BCAST(CHLO_BROADCAST_XOR, 2, K_PRED | K_INT)
CHLO_BCAST(CHLO_BROADCAST_ATAN2, 2, K_FLOAT | K_COMPLEX)
CHLO_BCAST(CHLO_BROADCAST_COMPARE, 2, K_ANY)
CHLO_BCAST(CHLO_BROADCAST_SELECT, 3, K_ANY)

typedef void (*VerifyFn)(V *v, Op *op);
static const VerifyFn verify_table[OP_COUNT] = {
#define OP(id, name, hlo, flags) [OP_##id] = verify_##id,
#include "ir/ops.def"
#undef OP
};

/* ------------------------------------------------------------------------ */
/* driving                                                                  */
/* ------------------------------------------------------------------------ */

static void verify_block(V *v, Block *b);

/* Every tensor in t has an element count and a byte size that fit in
   int64_t (the parsers bound them; IR built otherwise may not). */
static bool type_fits(const Type *t) {
  if (!t) return true;
  if (t->kind == TY_TENSOR) {
    int64_t n, bytes;
    return type_sizes(t, &n, &bytes);
  }
  if (t->kind == TY_TUPLE || t->kind == TY_FUTURE)
    for (int i = 0; i < t->ntuple; i++)
      if (!type_fits(t->tuple[i])) return false;
  return true;
}

static void verify_op(V *v, Op *op) {
  if ((int)op->kind < 0 || op->kind >= OP_COUNT) return;
  if (op_has_flag(op->kind, OPF_TERM) && op->next)
    fail(v, op, "must be the last operation in its block");
  for (int i = 0; i < op->nres; i++)
    if (!type_fits(op->res[i].type)) {
      fail(v, op, "result #%d type %s has a negative dimension or too many elements (the element count and byte size must fit in int64)",
           i, tstr(op->res[i].type));
      return;
    }
  for (int k = 0; k < op->nregions; k++)
    for (int i = 0; op->regions[k] && i < op->regions[k]->nargs; i++)
      if (!type_fits(op->regions[k]->args[i]->type)) {
        fail(v, op, "region #%d argument #%d type %s has a negative dimension or too many elements", k, i,
             tstr(op->regions[k]->args[i]->type));
        return;
      }
  verify_table[op->kind](v, op);
  if (op->nattrs) verify_op_shardings(v, op);
  for (int k = 0; k < op->nregions; k++)
    if (op->regions[k]) verify_block(v, op->regions[k]);
}

static void verify_block(V *v, Block *b) {
  for (Op *op = b->first; op; op = op->next) verify_op(v, op);
}

/* ------------------------------------------------------------------------ */
/* the call graph: no recursion, bounded nesting                            */
/* ------------------------------------------------------------------------ */

/* An op of `caller` naming function `callee` (both indexes into CallGraph's
   funcs): a call, a composite's decomposition, a custom_call's
   called_computations, a run_parallel program or infeed function. */
typedef struct CallEdge {
  Op *op;
  int callee;
} CallEdge;
typedef VEC(CallEdge) CallEdges;

typedef struct CallGraph {
  V *v;
  int n;
  Func **funcs;
  CallEdges *out; /* per function, in program order */
  StrMap index;   /* name -> index + 1 (the first of duplicate names) */
  int caller;     /* while collecting */
} CallGraph;

static void add_edge(CallGraph *g, Op *op, const char *name, size_t len) {
  int k = (int)(intptr_t)strmap_getn(&g->index, name, len) - 1;
  if (k >= 0) VEC_PUSH(g->out[g->caller], ((CallEdge){op, k}));
}

/* A symbol (callee, decomposition, programs): the name with one '@'. */
static void symbol_refs(CallGraph *g, Op *op, const Attr *a) {
  if (!a) return;
  if (a->kind == ATTR_ARRAY) {
    for (int i = 0; i < a->n; i++) symbol_refs(g, op, a->elems[i]);
    return;
  }
  if ((a->kind == ATTR_SYMBOL || a->kind == ATTR_STRING) && a->s) {
    const char *s = a->s[0] == '@' ? a->s + 1 : a->s;
    add_edge(g, op, s, strlen(s));
  }
}

/* called_computations, in any of the spellings the interpreter accepts:
   [@f, @g], "{%f, %g}", %f, "f". */
static void computation_refs(CallGraph *g, Op *op, const Attr *a) {
  if (!a) return;
  if (a->kind == ATTR_ARRAY) {
    for (int i = 0; i < a->n; i++) computation_refs(g, op, a->elems[i]);
    return;
  }
  if (a->kind != ATTR_SYMBOL && a->kind != ATTR_STRING && a->kind != ATTR_OPAQUE) return;
  for (const char *p = a->s; p && *p;) {
    p += strspn(p, "{}%@\", \t\n");
    size_t len = strcspn(p, "{}%@\", \t\n");
    if (len) add_edge(g, op, p, len);
    p += len;
  }
}

static bool collect_calls(Op *op, void *ud) {
  CallGraph *g = ud;
  switch (op->kind) {
  case OP_CALL: symbol_refs(g, op, op_attr(op, "callee")); break;
  case OP_COMPOSITE: symbol_refs(g, op, op_attr(op, "decomposition")); break;
  case OP_CUSTOM_CALL: computation_refs(g, op, op_attr(op, "called_computations")); break;
  case OP_INTERP_RUN_PARALLEL:
    symbol_refs(g, op, op_attr(op, "programs"));
    symbol_refs(g, op, op_attr(op, "infeed"));
    break;
  default: break;
  }
  return true;
}

/* "@a calls @b calls @c", eliding the middle of long chains. */
static char *chain_str(CallGraph *g, const int *path, int n) {
  StrBuf b = {0};
  for (int i = 0; i < n; i++) {
    if (n > 12 && i == 6) {
      sb_printf(&b, " calls ... (%d more) ...", n - 12);
      i = n - 6;
    }
    sb_printf(&b, "%s@%s", i ? " calls " : "", g->funcs[path[i]]->name);
  }
  return sb_take(&b);
}

/* Reports every call that closes a cycle, then (when there is none) every
   chain of more than `limit` calls, at the call that goes past the limit.
   Iterative: call chains can be long. */
static void check_calls(V *v, int limit) {
  CallGraph g = {v, 0, NULL, NULL, {0}, 0};
  for (Func *f = v->m->funcs; f; f = f->next) g.n++;
  if (g.n == 0) return;
  g.funcs = xcalloc((size_t)g.n, sizeof(Func *));
  g.out = xcalloc((size_t)g.n, sizeof(CallEdges));
  int k = 0;
  for (Func *f = v->m->funcs; f; f = f->next, k++) {
    g.funcs[k] = f;
    if (!strmap_get(&g.index, f->name)) strmap_put(&g.index, f->name, (void *)(intptr_t)(k + 1));
  }
  for (k = 0; k < g.n; k++) {
    g.caller = k;
    if (g.funcs[k]->body) block_walk(g.funcs[k]->body, collect_calls, &g);
  }
  /* depth-first over every function; state 0 new, 1 on the stack, 2 done */
  int *state = xcalloc((size_t)g.n, sizeof(int)), *pos = xcalloc((size_t)g.n, sizeof(int));
  int *height = xcalloc((size_t)g.n, sizeof(int)), *best = xcalloc((size_t)g.n, sizeof(int));
  int *called = xcalloc((size_t)g.n, sizeof(int));
  int *stack = xcalloc((size_t)g.n, sizeof(int)), *next = xcalloc((size_t)g.n, sizeof(int));
  bool cyclic = false;
  for (int root = 0; root < g.n; root++) {
    if (state[root]) continue;
    int sp = 0;
    stack[sp] = root, next[sp] = 0, pos[root] = sp++, state[root] = 1, best[root] = -1;
    while (sp > 0) {
      int f = stack[sp - 1];
      if (next[sp - 1] < g.out[f].len) {
        int e = next[sp - 1]++;
        CallEdge *ce = &g.out[f].data[e];
        int h = ce->callee;
        called[h] = 1;
        if (state[h] == 0) {
          stack[sp] = h, next[sp] = 0, pos[h] = sp++, state[h] = 1, best[h] = -1;
        } else if (state[h] == 1) {
          /* the stack from h up to f, then h again */
          int len = sp - pos[h] + 1;
          int *path = xmalloc(sizeof(int) * (size_t)len);
          for (int i = 0; i < len - 1; i++) path[i] = stack[pos[h] + i];
          path[len - 1] = h;
          char *c = chain_str(&g, path, len);
          fail(v, ce->op, "recursive call: %s (functions may not call themselves, directly or not)", c);
          xfree(c);
          xfree(path);
          cyclic = true;
        } else if (height[h] + 1 > height[f]) {
          height[f] = height[h] + 1, best[f] = e;
        }
      } else {
        state[f] = 2;
        sp--;
        if (sp > 0) {
          int p = stack[sp - 1], e = next[sp - 1] - 1;
          if (height[f] + 1 > height[p]) height[p] = height[f] + 1, best[p] = e;
        }
      }
    }
  }
  /* every chain that is too deep starts at a function nobody calls */
  VEC(Op *) reported = {0};
  for (int root = 0; !cyclic && root < g.n; root++) {
    if (called[root] || height[root] <= limit) continue;
    int f = root;
    for (int i = 1; i <= limit; i++) f = g.out[f].data[best[f]].callee;
    CallEdge *ce = &g.out[f].data[best[f]];
    bool seen = false;
    for (int i = 0; i < reported.len && !seen; i++) seen = reported.data[i] == ce->op;
    if (seen) continue; /* the same call, deep in the chain of another root */
    VEC_PUSH(reported, ce->op);
    fail(v, ce->op,
         "call to @%s is call number %d of a chain of %d nested calls starting at @%s; calls may nest at most %d deep",
         g.funcs[ce->callee]->name, limit + 1, height[root], g.funcs[root]->name, limit);
  }
  VEC_FREE(reported);
  xfree(state), xfree(pos), xfree(height), xfree(best), xfree(called), xfree(stack), xfree(next);
  for (k = 0; k < g.n; k++) VEC_FREE(g.out[k]);
  xfree(g.out);
  xfree(g.funcs);
  strmap_free(&g.index);
}

/* Every operand is a value in scope where it is used: an argument of the
   op's block or an enclosing one, or a result of an op before it there.
   (A reader or a pass that loses track of a value makes IR whose uses
   reach nothing: caught here, not as a crash when it runs.) */
static void check_scopes(V *v, Block *b, PtrMap *live) {
  for (int i = 0; i < b->nargs; i++) ptrmap_put(live, b->args[i], (void *)1);
  for (Op *op = b->first; op; op = op->next) {
    for (int i = 0; i < op->nopnds; i++)
      if (!op->opnds[i] || !ptrmap_get(live, op->opnds[i])) {
        fail(v, op, "operand %d is not defined before this use, in this block or one enclosing it", i);
        break;
      }
    for (int k = 0; k < op->nregions; k++)
      if (op->regions[k]) check_scopes(v, op->regions[k], live);
    for (int i = 0; i < op->nres; i++) ptrmap_put(live, &op->res[i], (void *)1);
  }
  /* what this block defined is out of scope after it */
  for (int i = 0; i < b->nargs; i++) ptrmap_put(live, b->args[i], NULL);
  for (Op *op = b->first; op; op = op->next)
    for (int i = 0; i < op->nres; i++) ptrmap_put(live, &op->res[i], NULL);
}

/* The module's meshes, and the shardings of functions' arguments and
   results (`sdy.sharding` in their dictionaries). */
static void check_meshes(V *v) {
  Module *m = v->m;
  for (int i = 0; i < m->nmeshes; i++) {
    MeshDecl *d = &m->meshes[i];
    bool dup = module_find_func(m, d->name) != NULL;
    for (int j = 0; j < i && !dup; j++) dup = strcmp(m->meshes[j].name, d->name) == 0;
    if (dup) {
      error_at(d->loc, "redefinition of symbol named '%s'", d->name);
      v->ok = false;
      continue;
    }
    char *e = d->mesh ? sdy_mesh_check(d->mesh) : xstrdup("a mesh declaration without its mesh");
    if (e) {
      error_at(d->loc, "'sdy.mesh' op @%s: %s", d->name, e);
      v->ok = false;
      xfree(e);
    }
  }
}

static void check_value_sharding(V *v, const Func *f, const Attr *dict, const Type *t, const char *what, int i) {
  const Attr *a = dict && dict->kind == ATTR_DICT ? attr_dict_get(dict, SDY_KEY) : NULL;
  if (!a) return;
  char *e = sharding_problem(v, a, t);
  if (!e) return;
  if (!*e)
    error_at(f->loc, "function @%s %s %d: 'sdy.sharding' must be a #sdy.sharding", f->name, what, i);
  else
    error_at(f->loc, "function @%s %s %d: %s", f->name, what, i, e);
  xfree(e);
  v->ok = false;
}

static void check_func_shardings(V *v, const Func *f) {
  for (int i = 0; f->arg_attrs && i < f->body->nargs; i++)
    check_value_sharding(v, f, f->arg_attrs[i], f->body->args[i]->type, "argument", i);
  for (int i = 0; f->res_attrs && f->result_types && i < f->nresults; i++)
    check_value_sharding(v, f, f->res_attrs[i], f->result_types[i], "result", i);
}

static bool verify(Module *m, bool values) {
  V v = {m, true, values, NULL, 0};
  check_meshes(&v);
  for (Func *f = m->funcs; f; f = f->next) {
    for (Func *g = m->funcs; g != f; g = g->next)
      if (strcmp(g->name, f->name) == 0) {
        error_at(f->loc, "redefinition of symbol named '%s'", f->name);
        v.ok = false;
      }
    bool sizes_ok = true;
    for (int i = 0; i < f->body->nargs && sizes_ok; i++) sizes_ok = type_fits(f->body->args[i]->type);
    for (int i = 0; i < f->nresults && f->result_types && sizes_ok; i++) sizes_ok = type_fits(f->result_types[i]);
    if (!sizes_ok) {
      error_at(f->loc, "function @%s has an argument or result type with a negative dimension or too many elements",
               f->name);
      v.ok = false;
      continue;
    }
    check_func_shardings(&v, f);
    /* a declaration (private function without a body) has nothing to check */
    if (!f->body->first && f->is_private) continue;
    Op *t = block_terminator(f->body);
    if (!t || t->kind != OP_FUNC_RETURN) {
      error_at(f->loc, "function @%s must end with 'func.return'", f->name);
      v.ok = false;
    }
    verify_block(&v, f->body);
    PtrMap live = {0};
    check_scopes(&v, f->body, &live);
    ptrmap_free(&live);
  }
  /* the nesting limit with some room between passes, which may add a level
     or two (a fusion calls its fused computation, a row fusion its stages) */
  check_calls(&v, values ? XLAC_MAX_CALL_DEPTH : XLAC_MAX_CALL_DEPTH + 16);
  return v.ok;
}

bool verify_module(Module *m) { return verify(m, true); }

bool verify_op_alone(Module *m, Op *op) {
  V v = {m, true, true, NULL, 0};
  verify_op(&v, op);
  return v.ok;
}

bool verify_op_infer(Module *m, Op *op, bool *pending) {
  V v = {m, true, true, pending, op->nres};
  verify_op(&v, op);
  return v.ok;
}

bool verify_module_structure(Module *m) { return verify(m, false); }
