/*
 * match.c - recognising comparator regions and computable gathers
 * (match.h).
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

/* ---- gathers ---- */

enum { GATHER_MAX_RANK = 64 };

static bool gather_dims(const Op *op, GatherDims *g) {
  const Attr *a = op_attr(op, "dimension_numbers");
  memset(g, 0, sizeof *g);
  if (!a || a->kind != ATTR_DICT) return false;
  g->noffset = dict_ints(a, "offset_dims", &g->offset);
  g->ncollapsed = dict_ints(a, "collapsed_slice_dims", &g->collapsed);
  g->nobatch = dict_ints(a, "operand_batching_dims", &g->obatch);
  g->nibatch = dict_ints(a, "start_indices_batching_dims", &g->ibatch);
  g->nmap = dict_ints(a, "start_index_map", &g->map);
  g->ivd = dict_int(a, "index_vector_dim", 0);
  return g->noffset >= 0 && g->ncollapsed >= 0 && g->nobatch >= 0 && g->nibatch >= 0 && g->nmap >= 0;
}

bool match_gather(const Op *op, GatherDims *g) {
  if (op->kind != OP_GATHER || op->nopnds != 2 || op->nres != 1 || !gather_dims(op, g)) return false;
  const Type *xt = op->opnds[0]->type, *it = op->opnds[1]->type, *t = op->res[0].type;
  if (xt->kind != TY_TENSOR || it->kind != TY_TENSOR || t->kind != TY_TENSOR || !et_is_int(it->elem) ||
      t->elem != xt->elem || xt->rank > GATHER_MAX_RANK || it->rank > GATHER_MAX_RANK || t->rank > GATHER_MAX_RANK)
    return false;
  int rank = xt->rank, irank = it->rank;
  if (op_attr_ints(op, "slice_sizes", &g->sizes) != rank) return false;
  const int64_t *sizes = g->sizes;
  for (int d = 0; d < rank; d++)
    if (sizes[d] < 0 || sizes[d] > xt->dims[d]) return false;
  if (g->ivd < 0 || g->ivd > irank) return false;
  if (g->nmap != (g->ivd < irank ? it->dims[g->ivd] : 1)) return false;
  if (g->noffset + g->ncollapsed + g->nobatch != rank) return false;
  if (!ints_in_range(g->offset, g->noffset, t->rank) || !ints_distinct(g->offset, g->noffset) ||
      !ints_in_range(g->collapsed, g->ncollapsed, rank) || !ints_in_range(g->obatch, g->nobatch, rank) ||
      !ints_in_range(g->map, g->nmap, rank) || !ints_in_range(g->ibatch, g->nibatch, irank) ||
      g->nobatch != g->nibatch || ints_contain(g->ibatch, g->nibatch, g->ivd))
    return false;
  if (t->rank - g->noffset != irank - (g->ivd < irank ? 1 : 0)) return false;
  int noff = 0;
  for (int d = 0; d < rank; d++)
    if (!ints_contain(g->collapsed, g->ncollapsed, d) && !ints_contain(g->obatch, g->nobatch, d)) noff++;
  if (noff != g->noffset) return false;
  if (type_num_elements(t) == 0) return true;
  /* the largest index each operand dimension can reach */
  int64_t ub[GATHER_MAX_RANK] = {0}, bdim[GATHER_MAX_RANK];
  int nb = 0;
  for (int d = 0; d < t->rank; d++)
    if (!ints_contain(g->offset, g->noffset, d)) bdim[nb++] = t->dims[d];
  for (int j = 0; j < g->nmap; j++) ub[g->map[j]] = xt->dims[g->map[j]] - sizes[g->map[j]];
  for (int i = 0; i < g->nobatch; i++) {
    int64_t ds = g->ibatch[i];
    ub[g->obatch[i]] += bdim[ds - (ds < g->ivd ? 0 : 1)] - 1;
  }
  for (int d = 0, k = 0; d < t->rank; d++) {
    if (!ints_contain(g->offset, g->noffset, d)) continue;
    while (ints_contain(g->collapsed, g->ncollapsed, k) || ints_contain(g->obatch, g->nobatch, k)) k++;
    ub[k++] += t->dims[d] - 1;
  }
  for (int d = 0; d < rank; d++)
    if (ub[d] >= xt->dims[d]) return false;
  return true;
}
