/*
 * match.c - recognising comparator regions (match.h).
 *
 * Three forms of the same key are recognised for a float argument x:
 *   - x itself, compared with compare_type TOTALORDER (or as an integer);
 *   - canon(x) = select(x != x, NaN, select(x == 0, 0, x)), JAX's way of
 *     making NaNs and zeros compare equal before a total-order compare;
 *   - XLA's integer key of either: with b = bitcast(v) to a signed integer
 *     of the same width, select(b < 0, b ^ MAX, b), compared as integers,
 *     which orders exactly as the total order of v.
 */
#include "ir/match.h"

#include <string.h>

#include "ir/literal.h"

static const Literal *scalar_const(const Value *v) {
  if (!v->def || v->def->kind != OP_CONSTANT) return NULL;
  const Attr *a = op_attr(v->def, "value");
  if (!a || a->kind != ATTR_DENSE || !a->lit || a->lit->type->quant || a->lit->n != 1) return NULL;
  return a->lit;
}

static bool const_int_is(const Value *v, int64_t want) {
  const Literal *l = scalar_const(v);
  return l && et_is_int(lit_elem(l)) && lit_get_i(l, 0) == want;
}

/* The positive quiet NaN of a float type: exponent all ones, the top
   mantissa bit set, nothing else. */
static bool is_quiet_nan_bits(ElemType et, uint64_t bits) {
  switch (et) {
  case ET_F16: return bits == 0x7e00;
  case ET_BF16: return bits == 0x7fc0;
  case ET_F32: return bits == 0x7fc00000;
  case ET_F64: return bits == 0x7ff8000000000000ull;
  default: return false;
  }
}

static bool is_compare(const Op *op, const char *dir) {
  const char *d = op ? op_attr_str(op, "comparison_direction") : NULL;
  return op && op->kind == OP_COMPARE && op->nopnds == 2 && d && !strcmp(d, dir);
}

static bool is_select(const Op *op) { return op && op->kind == OP_SELECT && op->nopnds == 3; }

/* v = select(x != x, NaN, select(x == 0, 0, x)) */
static bool is_canonical(const Value *v, const Value *x) {
  const Op *s = v->def;
  if (!is_select(s)) return false;
  const Op *ne = s->opnds[0]->def, *in = s->opnds[2]->def;
  const Literal *nan = scalar_const(s->opnds[1]);
  if (!is_compare(ne, "NE") || ne->opnds[0] != x || ne->opnds[1] != x || !nan ||
      !is_quiet_nan_bits(lit_elem(nan), lit_get_bits(nan, 0)) || !is_select(in) || in->opnds[2] != x)
    return false;
  const Op *eq = in->opnds[0]->def;
  const Literal *z = scalar_const(in->opnds[1]), *z2 = eq ? scalar_const(eq->opnds[1]) : NULL;
  return is_compare(eq, "EQ") && eq->opnds[0] == x && z && z2 && lit_get_bits(z, 0) == 0 &&
         lit_get_bits(z2, 0) == 0 && lit_elem(z) == x->type->elem;
}

/* v = select(b < 0, b ^ MAX, b) with b = bitcast(src); returns src. */
static const Value *int_key_source(const Value *v) {
  const Op *s = v->def;
  if (!is_select(s)) return NULL;
  const Value *b = s->opnds[2];
  const Op *bc = b->def, *lt = s->opnds[0]->def, *xr = s->opnds[1]->def;
  if (!bc || bc->kind != OP_BITCAST_CONVERT || bc->nopnds != 1) return NULL;
  ElemType bt = b->type->elem, st = bc->opnds[0]->type->elem;
  if (!et_is_signed(bt) || et_bits(bt) != et_bits(st) || et_bits(bt) > 64 || !et_is_float(st)) return NULL;
  if (!is_compare(lt, "LT") || lt->opnds[0] != b || !const_int_is(lt->opnds[1], 0)) return NULL;
  int64_t max = (int64_t)(~0ull >> (65 - et_bits(bt)));
  if (!xr || xr->kind != OP_XOR || xr->nopnds != 2 ||
      !((xr->opnds[0] == b && const_int_is(xr->opnds[1], max)) || (xr->opnds[1] == b && const_int_is(xr->opnds[0], max))))
    return NULL;
  return bc->opnds[0];
}

enum { NOT_KEY, PLAIN, CANON, INT_KEY, INT_KEY_CANON };

/* What v is as a key of x. */
static int key_form(const Value *v, const Value *x) {
  if (v == x) return PLAIN;
  const Value *src = int_key_source(v);
  if (src) return src == x ? INT_KEY : is_canonical(src, x) ? INT_KEY_CANON : NOT_KEY;
  return is_canonical(v, x) ? CANON : NOT_KEY;
}

bool match_key_compare(const Block *cmp, KeyCompare *out) {
  if (cmp->nargs < 2) return false;
  const Op *ret = block_terminator(cmp); /* a region's return or a function's */
  if (!ret || ret->nopnds != 1) return false;
  const Op *c = ret->opnds[0]->def;
  const char *dir = c ? op_attr_str(c, "comparison_direction") : NULL;
  if (!dir || !is_compare(c, dir)) return false;
  const Value *a = cmp->args[0], *b = cmp->args[1];
  if (a->type->elem != b->type->elem) return false;
  bool swap = false;
  int fa = key_form(c->opnds[0], a), fb = key_form(c->opnds[1], b);
  if (!fa || !fb) {
    swap = true;
    fa = key_form(c->opnds[0], b);
    fb = key_form(c->opnds[1], a);
  }
  if (!fa || fa != fb) return false;
  static const char *const dirs[] = {"LT", "GT", "LE", "GE", "EQ", "NE"};
  static const char *const swapped[] = {"GT", "LT", "GE", "LE", "EQ", "NE"};
  int d = 0;
  while (d < 6 && strcmp(dir, dirs[d])) d++;
  if (d == 6) return false;
  out->direction = swap ? swapped[d] : dirs[d];
  const char *ct = op_attr_str(c, "compare_type");
  bool int_key = fa == INT_KEY || fa == INT_KEY_CANON;
  if (int_key && ct && strcmp(ct, "SIGNED")) return false;
  out->total = int_key || (et_is_float(a->type->elem) && ct && !strcmp(ct, "TOTALORDER"));
  out->canonical = fa == CANON || fa == INT_KEY_CANON;
  return !out->canonical || out->total; /* canonical values in IEEE order: not a form we take */
}
