/*
 * reduce.c - interpreter ops driven by a region applied to scalars:
 * reduce, reduce_window, select_and_scatter, map, sort, chlo.top_k and
 * chlo.scan.
 *
 * Reductions fold sequentially: each result element starts from its init
 * value and absorbs the reduced elements one at a time in ascending
 * row-major order of their indices, always as body(accumulator..., element...).
 * The spec leaves the order implementation-defined; this one is simple to
 * state and matches the usual left fold, so non-associative bodies (float
 * sums, argmax with ties) give predictable answers.
 *
 * Running a region per element costs about a microsecond, too slow for big
 * tensors, so a body that is one commutative binary op of its two arguments
 * (add, multiply, maximum, minimum, and, or, xor) is recognized and applied
 * directly.  The fast path stores the accumulator in the result literal
 * after every step, so it rounds at the element type's precision exactly as
 * the region would.  Sort recognizes a single compare the same way.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interp/interp.h"

#define MAX_RANK 64
#define MAX_VARIADIC 8

static bool need_tensor(Interp *I, Op *op, IVal **args, int i) {
  if (i >= op->nopnds || !args[i] || args[i]->kind != IV_TENSOR)
    return interp_error(I, op, "operand %d must be a tensor", i);
  return true;
}

static bool check_rank(Interp *I, Op *op, int rank) {
  if (rank > MAX_RANK) return interp_error(I, op, "rank %d is too large (max %d)", rank, MAX_RANK);
  return true;
}

static Literal *new_result(Interp *I, Op *op, int r) {
  const Type *t = op->res[r].type;
  if (!t || t->kind != TY_TENSOR) {
    interp_error(I, op, "result %d is not a tensor", r);
    return NULL;
  }
  if (!check_rank(I, op, t->rank)) return NULL;
  return lit_new(t);
}

static void free_lits(Literal **l, int n) {
  for (int i = 0; i < n; i++) {
    lit_free(l[i]);
    l[i] = NULL;
  }
}

/* ---- running a region on scalars ---- */

/* Scalar literals for a region's arguments, typed like the block arguments
   and reused across calls. */
typedef struct Region {
  Block *b;
  int nargs, nres;
  Literal *args[16];
} Region;

static bool region_init(Interp *I, Op *op, int k, int nargs, int nres, Region *r) {
  memset(r, 0, sizeof *r);
  if (k >= op->nregions || !op->regions[k])
    return interp_error(I, op, "missing region %d", k);
  Block *b = op->regions[k];
  Op *term = block_terminator(b);
  if (b->nargs != nargs || nargs > 16 || nres > 16)
    return interp_error(I, op, "region %d must take %d arguments, it takes %d", k, nargs, b->nargs);
  if (!term || term->nopnds != nres)
    return interp_error(I, op, "region %d must return %d values", k, nres);
  for (int i = 0; i < nargs; i++) {
    const Type *t = b->args[i]->type;
    if (!t || t->kind != TY_TENSOR || t->rank != 0) {
      free_lits(r->args, i);
      return interp_error(I, op, "region %d argument %d must be a scalar tensor", k, i);
    }
    r->args[i] = lit_new(t);
  }
  r->b = b;
  r->nargs = nargs;
  r->nres = nres;
  return true;
}

static void region_free(Region *r) { free_lits(r->args, r->nargs); }

/* Runs the region on r->args; out[] receives nres scalar literals (caller
   frees) or all NULL on failure. */
static bool region_run(Interp *I, Op *op, Region *r, Literal **out) {
  for (int i = 0; i < r->nres; i++) out[i] = NULL;
  if (!interp_run_scalar_region(I, r->b, r->nargs, r->args, r->nres, out)) {
    free_lits(out, r->nres);
    return false;
  }
  for (int i = 0; i < r->nres; i++)
    if (out[i]->n != 1) {
      free_lits(out, r->nres);
      return interp_error(I, op, "region must return scalars");
    }
  return true;
}

/* ---- the reduction combiner: acc[k][ai] = body(acc[k][ai]..., val[k][vi]...) ---- */
typedef enum FastKind { FK_NONE, FK_ADD, FK_MUL, FK_MAX, FK_MIN, FK_AND, FK_OR, FK_XOR } FastKind;

typedef struct Combiner {
  Interp *I;
  Op *op;
  int n;
  Region region;
  FastKind fast;
  bool swap; /* the body's op takes (element, accumulator) */
} Combiner;

/* Recognizes `%r = op %a0, %a1; return %r` with both arguments and the
   result of the same element type as the accumulator and value. */
static FastKind detect_fast(Block *b, ElemType et, bool *swap) {
  Op *o = b->first;
  if (!o || !o->next || o->next->kind != OP_RETURN || o->next->nopnds != 1 ||
      o->next->opnds[0] != &o->res[0] || o->nopnds != 2 || o->nres != 1 || b->nargs != 2)
    return FK_NONE;
  for (int i = 0; i < 2; i++)
    if (b->args[i]->type->elem != et || b->args[i]->type->quant) return FK_NONE;
  if (o->res[0].type->elem != et) return FK_NONE;
  if (o->opnds[0] == b->args[0] && o->opnds[1] == b->args[1]) *swap = false;
  else if (o->opnds[0] == b->args[1] && o->opnds[1] == b->args[0]) *swap = true;
  else return FK_NONE;
  bool fl = et_is_float(et), cx = et_is_complex(et);
  switch (o->kind) {
  case OP_ADD: return FK_ADD;
  case OP_MULTIPLY: return cx ? FK_NONE : FK_MUL;
  case OP_MAXIMUM: return cx ? FK_NONE : FK_MAX;
  case OP_MINIMUM: return cx ? FK_NONE : FK_MIN;
  case OP_AND: return fl || cx ? FK_NONE : FK_AND;
  case OP_OR: return fl || cx ? FK_NONE : FK_OR;
  case OP_XOR: return fl || cx ? FK_NONE : FK_XOR;
  default: return FK_NONE;
  }
}

/* acc/val element types must match the body for the fast path. */
static bool combiner_init(Interp *I, Op *op, int region, int n, Literal **accs, Literal *const *vals,
                          Combiner *c) {
  memset(c, 0, sizeof *c);
  c->I = I;
  c->op = op;
  c->n = n;
  if (!region_init(I, op, region, 2 * n, n, &c->region)) return false;
  if (n == 1 && lit_elem(accs[0]) == lit_elem(vals[0]) && !accs[0]->type->quant)
    c->fast = detect_fast(c->region.b, lit_elem(accs[0]), &c->swap);
  return true;
}

static void combiner_free(Combiner *c) { region_free(&c->region); }

/* IEEE-754 maximum/minimum as the elementwise ops define them: NaN wins,
   -0 < +0. */
static double max_d(double a, double b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}
static double min_d(double a, double b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}
static float max_f(float a, float b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}
static float min_f(float a, float b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}

static double fast_d(FastKind k, double a, double b) {
  switch (k) {
  case FK_ADD: return a + b;
  case FK_MUL: return a * b;
  case FK_MAX: return max_d(a, b);
  default: return min_d(a, b);
  }
}

static float fast_f(FastKind k, float a, float b) {
  switch (k) {
  case FK_ADD: return a + b;
  case FK_MUL: return a * b;
  case FK_MAX: return max_f(a, b);
  default: return min_f(a, b);
  }
}

/* Integer ops on the bit patterns: wrapping add/mul in uint64_t (no signed
   overflow), the caller narrows to the element width. */
static uint64_t fast_u(FastKind k, uint64_t a, uint64_t b, bool is_signed) {
  switch (k) {
  case FK_ADD: return a + b;
  case FK_MUL: return a * b;
  case FK_AND: return a & b;
  case FK_OR: return a | b;
  case FK_XOR: return a ^ b;
  case FK_MAX: return is_signed ? ((int64_t)a > (int64_t)b ? a : b) : (a > b ? a : b);
  default: return is_signed ? ((int64_t)a < (int64_t)b ? a : b) : (a < b ? a : b);
  }
}

static void combine_fast(FastKind k, bool swap, Literal *acc, int64_t ai, const Literal *val,
                         int64_t vi) {
  ElemType et = lit_elem(acc);
  switch (et) {
  case ET_F32: {
    float *a = (float *)acc->data + ai, b = ((const float *)val->data)[vi];
    *a = swap ? fast_f(k, b, *a) : fast_f(k, *a, b);
    return;
  }
  case ET_F64: {
    double *a = (double *)acc->data + ai, b = ((const double *)val->data)[vi];
    *a = swap ? fast_d(k, b, *a) : fast_d(k, *a, b);
    return;
  }
  case ET_S32: {
    int32_t *a = (int32_t *)acc->data + ai, b = ((const int32_t *)val->data)[vi];
    uint64_t x = (uint64_t)(int64_t)*a, y = (uint64_t)(int64_t)b;
    *a = (int32_t)(uint32_t)(swap ? fast_u(k, y, x, true) : fast_u(k, x, y, true));
    return;
  }
  case ET_S64: {
    int64_t *a = (int64_t *)acc->data + ai, b = ((const int64_t *)val->data)[vi];
    uint64_t x = (uint64_t)*a, y = (uint64_t)b;
    uint64_t r = swap ? fast_u(k, y, x, true) : fast_u(k, x, y, true);
    memcpy(a, &r, 8);
    return;
  }
  default: break;
  }
  if (et_is_pred(et)) {
    bool a = lit_get_b(acc, ai), b = lit_get_b(val, vi), r;
    switch (k) {
    case FK_ADD: case FK_MAX: case FK_OR: r = a || b; break;
    case FK_MUL: case FK_MIN: case FK_AND: r = a && b; break;
    default: r = a != b; break;
    }
    lit_set_b(acc, ai, r);
  } else if (et_is_int(et)) {
    bool s = et_is_signed(et);
    uint64_t x = s ? (uint64_t)lit_get_i(acc, ai) : lit_get_u(acc, ai);
    uint64_t y = s ? (uint64_t)lit_get_i(val, vi) : lit_get_u(val, vi);
    lit_set_u(acc, ai, swap ? fast_u(k, y, x, s) : fast_u(k, x, y, s));
  } else if (et_is_complex(et)) { /* only add gets here */
    double ar, aim, br, bim;
    lit_get_c(acc, ai, &ar, &aim);
    lit_get_c(val, vi, &br, &bim);
    lit_set_c(acc, ai, swap ? br + ar : ar + br, swap ? bim + aim : aim + bim);
  } else {
    double a = lit_get_f(acc, ai), b = lit_get_f(val, vi);
    lit_set_f(acc, ai, swap ? fast_d(k, b, a) : fast_d(k, a, b));
  }
}

/* acc[k][ai] = body(acc[0][ai], ..., val[0][vi], ...). */
static bool combine(Combiner *c, Literal **accs, int64_t ai, Literal *const *vals, const int64_t *vi) {
  if (c->fast) {
    combine_fast(c->fast, c->swap, accs[0], ai, vals[0], vi[0]);
    return true;
  }
  for (int k = 0; k < c->n; k++) {
    lit_convert_elem(c->region.args[k], 0, accs[k], ai);
    lit_convert_elem(c->region.args[c->n + k], 0, vals[k], vi[k]);
  }
  Literal *out[16];
  if (!region_run(c->I, c->op, &c->region, out)) return false;
  for (int k = 0; k < c->n; k++) lit_convert_elem(accs[k], ai, out[k], 0);
  free_lits(out, c->n);
  return true;
}

/* Splits `inputs..., inits...` operands, checking that there are n of each
   with matching shapes and scalar inits. */
static bool variadic_inputs(Interp *I, Op *op, IVal **args, int *n) {
  if (op->nopnds < 2 || op->nopnds % 2) return interp_error(I, op, "expected inputs and init values");
  *n = op->nopnds / 2;
  if (*n > MAX_VARIADIC || op->nres != *n)
    return interp_error(I, op, "expected %d results, %d inputs at most", *n, MAX_VARIADIC);
  for (int i = 0; i < op->nopnds; i++)
    if (!need_tensor(I, op, args, i)) return false;
  for (int k = 0; k < *n; k++) {
    if (!type_same_shape(ARG_LIT(k)->type, ARG_LIT(0)->type))
      return interp_error(I, op, "inputs differ in shape");
    if (ARG_LIT(*n + k)->n != 1 || ARG_LIT(*n + k)->type->rank != 0)
      return interp_error(I, op, "init value %d must be a scalar", k);
  }
  return check_rank(I, op, ARG_LIT(0)->type->rank);
}

/* Allocates results and fills each with its init value. */
static bool results_from_inits(Interp *I, Op *op, IVal **args, int n, Literal **outs) {
  for (int k = 0; k < n; k++) {
    outs[k] = new_result(I, op, k);
    if (!outs[k]) {
      free_lits(outs, k);
      return false;
    }
    for (int64_t i = 0; i < outs[k]->n; i++) lit_convert_elem(outs[k], i, ARG_LIT(n + k), 0);
  }
  return true;
}

static void finish(bool ok, int n, Literal **outs, IVal **res) {
  for (int k = 0; k < n; k++) {
    if (ok) res[k] = ival_tensor(outs[k]);
    else lit_free(outs[k]);
  }
}

/* ---- reduce ---- */
bool interp_REDUCE(Interp *I, Op *op, IVal **args, IVal **res) {
  int n;
  if (!variadic_inputs(I, op, args, &n)) return false;
  const Type *xt = ARG_LIT(0)->type;
  int64_t *dims = NULL;
  int nd = op_attr_ints(op, "dimensions", &dims);
  bool red[MAX_RANK] = {false};
  for (int i = 0; i < nd; i++) {
    if (dims[i] < 0 || dims[i] >= xt->rank || red[dims[i]])
      return interp_error(I, op, "invalid reduce dimension %lld", (long long)dims[i]);
    red[dims[i]] = true;
  }
  if (nd < 0) return interp_error(I, op, "malformed 'dimensions'");
  /* result dims are the kept input dims; a reduced dim moves the result
     offset by 0 */
  int64_t kept[MAX_RANK], rstr[MAX_RANK] = {0}, rs[MAX_RANK];
  int nk = 0;
  for (int d = 0; d < xt->rank; d++)
    if (!red[d]) kept[nk++] = xt->dims[d];
  Literal *outs[MAX_VARIADIC];
  if (!results_from_inits(I, op, args, n, outs)) return false;
  for (int k = 0; k < n; k++) {
    const Type *t = outs[k]->type;
    bool ok = t->rank == nk;
    for (int d = 0; ok && d < nk; d++) ok = t->dims[d] == kept[d];
    if (!ok) {
      free_lits(outs, n);
      return interp_error(I, op, "result %d shape does not match the reduced input shape", k);
    }
  }
  shape_strides(nk, kept, rs);
  for (int d = 0, j = 0; d < xt->rank; d++)
    if (!red[d]) rstr[d] = rs[j++];
  Combiner c;
  Literal *vals[MAX_VARIADIC] = {0};
  for (int k = 0; k < n; k++) vals[k] = ARG_LIT(k);
  if (!combiner_init(I, op, 0, n, outs, vals, &c)) {
    free_lits(outs, n);
    return false;
  }
  bool ok = true;
  int64_t idx[MAX_RANK] = {0}, roff = 0, vi[MAX_VARIADIC];
  int64_t total = ARG_LIT(0)->n;
  for (int64_t i = 0; ok && i < total; i++) {
    for (int k = 0; k < n; k++) vi[k] = i;
    ok = combine(&c, outs, roff, vals, vi);
    for (int d = xt->rank - 1; d >= 0; d--) {
      roff += rstr[d];
      if (++idx[d] < xt->dims[d]) break;
      roff -= rstr[d] * xt->dims[d];
      idx[d] = 0;
    }
  }
  combiner_free(&c);
  finish(ok, n, outs, res);
  return ok;
}

/* ---- reduce_window ---- */

/* Window attributes with their defaults filled in. */
typedef struct Window {
  int rank;
  int64_t size[MAX_RANK], stride[MAX_RANK], bdil[MAX_RANK], wdil[MAX_RANK], lo[MAX_RANK],
      hi[MAX_RANK];
} Window;

static bool read_ints_or(Interp *I, Op *op, const char *name, int rank, int64_t def, int64_t *out) {
  int64_t *v = NULL;
  int n = op_attr_ints(op, name, &v);
  if (n == 0) {
    for (int d = 0; d < rank; d++) out[d] = def;
    return true;
  }
  if (n != rank) return interp_error(I, op, "'%s' must have %d entries", name, rank);
  for (int d = 0; d < rank; d++) {
    if (v[d] < 1) return interp_error(I, op, "'%s' entries must be positive", name);
    out[d] = v[d];
  }
  return true;
}

static bool read_window(Interp *I, Op *op, int rank, Window *w) {
  w->rank = rank;
  int64_t *v = NULL;
  if (op_attr_ints(op, "window_dimensions", &v) != rank)
    return interp_error(I, op, "'window_dimensions' must have %d entries", rank);
  for (int d = 0; d < rank; d++) {
    if (v[d] < 0) return interp_error(I, op, "bad window dimension");
    w->size[d] = v[d];
  }
  if (!read_ints_or(I, op, "window_strides", rank, 1, w->stride) ||
      !read_ints_or(I, op, "base_dilations", rank, 1, w->bdil) ||
      !read_ints_or(I, op, "window_dilations", rank, 1, w->wdil))
    return false;
  int np = op_attr_ints(op, "padding", &v);
  if (np != 0 && np != 2 * rank) return interp_error(I, op, "'padding' must be %dx2", rank);
  for (int d = 0; d < rank; d++) {
    w->lo[d] = np ? v[2 * d] : 0;
    w->hi[d] = np ? v[2 * d + 1] : 0;
  }
  return true;
}

/* The window counts of an input shape are `dims` (window_dim_size, which
   also keeps every position unpad computes within int64). */
static bool window_shape_ok(Interp *I, Op *op, const Window *w, const int64_t *in, const int64_t *dims) {
  for (int d = 0; d < w->rank; d++) {
    int64_t n;
    if (window_dim_size(in[d], w->lo[d], w->hi[d], w->bdil[d], w->size[d], w->wdil[d], w->stride[d], &n) != 0)
      return interp_error(I, op, "window sizes of dimension %d overflow", d);
    if (n != dims[d])
      return interp_error(I, op, "dimension %d has %lld windows, not %lld", d, (long long)n, (long long)dims[d]);
  }
  return true;
}

/* n * size, or -1 once the window has more than 2^40 positions (which no
   run could finish anyway; this keeps the product from overflowing). */
static int64_t window_count(int64_t n, int64_t size) {
  if (n < 0 || (size > 0 && n > (INT64_C(1) << 40) / size)) return -1;
  return n * size;
}

/* Maps a coordinate of the padded, base-dilated input back to the input:
   returns -1 for padding or a dilation hole. */
static int64_t unpad(const Window *w, int d, int64_t p, int64_t dim) {
  int64_t q = p - w->lo[d];
  if (q < 0 || q % w->bdil[d]) return -1;
  q /= w->bdil[d];
  return q < dim ? q : -1;
}

bool interp_REDUCE_WINDOW(Interp *I, Op *op, IVal **args, IVal **res) {
  int n;
  if (!variadic_inputs(I, op, args, &n)) return false;
  const Type *xt = ARG_LIT(0)->type;
  int rank = xt->rank;
  Window w;
  if (!read_window(I, op, rank, &w)) return false;
  Literal *outs[MAX_VARIADIC];
  if (!results_from_inits(I, op, args, n, outs)) return false;
  const Type *t = outs[0]->type;
  bool shape_ok = t->rank == rank;
  for (int k = 1; k < n; k++) shape_ok = shape_ok && type_same_shape(outs[k]->type, t);
  if (!shape_ok) {
    free_lits(outs, n);
    return interp_error(I, op, "results must have the input's rank and one shape");
  }
  if (!window_shape_ok(I, op, &w, xt->dims, t->dims)) {
    free_lits(outs, n);
    return false;
  }
  Combiner c;
  Literal *vals[MAX_VARIADIC] = {0}, *inits[MAX_VARIADIC] = {0};
  for (int k = 0; k < n; k++) {
    vals[k] = ARG_LIT(k);
    inits[k] = ARG_LIT(n + k);
  }
  if (!combiner_init(I, op, 0, n, outs, vals, &c)) {
    free_lits(outs, n);
    return false;
  }
  int64_t xs[MAX_RANK], ridx[MAX_RANK] = {0}, widx[MAX_RANK], vi[MAX_VARIADIC],
      zero[MAX_VARIADIC] = {0};
  shape_strides(rank, xt->dims, xs);
  int64_t wn = 1;
  for (int d = 0; d < rank; d++) wn = window_count(wn, w.size[d]);
  bool ok = wn >= 0 || interp_error(I, op, "window is too large");
  for (int64_t r = 0; ok && r < outs[0]->n; r++) {
    memset(widx, 0, sizeof(int64_t) * (size_t)rank);
    for (int64_t j = 0; ok && j < wn; j++) {
      int64_t off = 0;
      bool inside = true;
      for (int d = 0; d < rank && inside; d++) {
        int64_t q = unpad(&w, d, ridx[d] * w.stride[d] + widx[d] * w.wdil[d], xt->dims[d]);
        inside = q >= 0;
        off += q * xs[d];
      }
      /* the spec pads with the init values, so padding takes part in the
         reduction as an init value */
      if (inside) {
        for (int k = 0; k < n; k++) vi[k] = off;
        ok = combine(&c, outs, r, vals, vi);
      } else {
        ok = combine(&c, outs, r, inits, zero);
      }
      index_next(rank, w.size, widx);
    }
    index_next(rank, t->dims, ridx);
  }
  combiner_free(&c);
  finish(ok, n, outs, res);
  return ok;
}

/* ---- select_and_scatter ---- */
bool interp_SELECT_AND_SCATTER(Interp *I, Op *op, IVal **args, IVal **res) {
  for (int i = 0; i < 3; i++)
    if (!need_tensor(I, op, args, i)) return false;
  Literal *x = ARG_LIT(0), *src = ARG_LIT(1), *init = ARG_LIT(2);
  const Type *xt = x->type, *st = src->type;
  int rank = xt->rank;
  Window w;
  if (!check_rank(I, op, rank) || !read_window(I, op, rank, &w)) return false;
  if (st->rank != rank || init->n != 1) return interp_error(I, op, "bad source or init value");
  for (int d = 0; d < rank; d++) w.bdil[d] = w.wdil[d] = 1;
  if (!window_shape_ok(I, op, &w, xt->dims, st->dims)) return false;
  Literal *out = new_result(I, op, 0);
  if (!out) return false;
  if (!type_same_shape(out->type, xt)) {
    lit_free(out);
    return interp_error(I, op, "result shape differs from the operand");
  }
  for (int64_t i = 0; i < out->n; i++) lit_convert_elem(out, i, init, 0);
  Region sel;
  Combiner sc;
  if (!region_init(I, op, 0, 2, 1, &sel)) {
    lit_free(out);
    return false;
  }
  if (!combiner_init(I, op, 1, 1, &out, &src, &sc)) {
    region_free(&sel);
    lit_free(out);
    return false;
  }
  int64_t xs[MAX_RANK], sidx[MAX_RANK] = {0}, widx[MAX_RANK];
  shape_strides(rank, xt->dims, xs);
  int64_t wn = 1;
  for (int d = 0; d < rank; d++) wn = window_count(wn, w.size[d]);
  bool ok = wn >= 0 || interp_error(I, op, "window is too large");
  for (int64_t s = 0; ok && s < src->n; s++) {
    int64_t best = -1;
    memset(widx, 0, sizeof(int64_t) * (size_t)rank);
    for (int64_t j = 0; ok && j < wn; j++) {
      int64_t off = 0;
      bool inside = true;
      for (int d = 0; d < rank && inside; d++) {
        int64_t q = unpad(&w, d, sidx[d] * w.stride[d] + widx[d], xt->dims[d]);
        inside = q >= 0;
        off += q * xs[d];
      }
      index_next(rank, w.size, widx);
      if (!inside) continue;
      if (best < 0) {
        best = off;
        continue;
      }
      /* keep the current choice when select(current, candidate) holds */
      lit_convert_elem(sel.args[0], 0, x, best);
      lit_convert_elem(sel.args[1], 0, x, off);
      Literal *r[1];
      ok = region_run(I, op, &sel, r);
      if (ok && !lit_get_b(r[0], 0)) best = off;
      if (ok) lit_free(r[0]);
    }
    if (ok && best >= 0) ok = combine(&sc, &out, best, &src, &s);
    index_next(rank, st->dims, sidx);
  }
  region_free(&sel);
  combiner_free(&sc);
  finish(ok, 1, &out, res);
  return ok;
}

/* ---- map ---- */
bool interp_MAP(Interp *I, Op *op, IVal **args, IVal **res) {
  int n = op->nopnds;
  if (n < 1 || n > 16) return interp_error(I, op, "map takes 1 to 16 operands");
  for (int i = 0; i < n; i++) {
    if (!need_tensor(I, op, args, i)) return false;
    if (!type_same_shape(ARG_LIT(i)->type, ARG_LIT(0)->type))
      return interp_error(I, op, "operands differ in shape");
  }
  Literal *out = new_result(I, op, 0);
  if (!out) return false;
  if (out->n != ARG_LIT(0)->n) {
    lit_free(out);
    return interp_error(I, op, "result shape differs from the operands");
  }
  Region r;
  if (!region_init(I, op, 0, n, 1, &r)) {
    lit_free(out);
    return false;
  }
  bool ok = true;
  for (int64_t i = 0; ok && i < out->n; i++) {
    for (int k = 0; k < n; k++) lit_convert_elem(r.args[k], 0, ARG_LIT(k), i);
    Literal *v[1];
    ok = region_run(I, op, &r, v);
    if (ok) {
      lit_convert_elem(out, i, v[0], 0);
      lit_free(v[0]);
    }
  }
  region_free(&r);
  finish(ok, 1, &out, res);
  return ok;
}

/* ---- sort ---- */

/* A less-than over positions of a 1-D slice: either a recognized single
   compare of the first operand or the comparator region. */
typedef enum CmpKind { CK_FLOAT, CK_TOTAL, CK_SIGNED, CK_UNSIGNED } CmpKind;

typedef struct Sorter {
  Interp *I;
  Op *op;
  int n;
  Literal **ins;
  int64_t base, stride; /* slice element j is at base + j * stride */
  Region region;
  bool fast, failed;
  CmpKind ck;
  const char *dir; /* LT, GT, LE, GE, EQ, NE */
  bool swap;       /* compare(rhs, lhs) */
} Sorter;

/* Orders floats by their bit patterns: -NaN < -inf < ... < -0 < +0 < ... < NaN. */
static int64_t total_key(const Literal *l, int64_t i) {
  int bits = et_bits(lit_elem(l));
  uint64_t b = lit_get_bits(l, i);
  uint64_t sign = 1ull << (bits - 1);
  uint64_t mag = b & (sign - 1);
  return (b & sign) ? -(int64_t)mag - 1 : (int64_t)mag;
}

/* three-way compare of elements i and j; for CK_FLOAT, *unordered is set on NaN */
static int cmp3(CmpKind ck, const Literal *l, int64_t i, int64_t j, bool *unordered) {
  *unordered = false;
  switch (ck) {
  case CK_FLOAT: {
    double a = lit_get_f(l, i), b = lit_get_f(l, j);
    if (isnan(a) || isnan(b)) {
      *unordered = true;
      return 0;
    }
    return a < b ? -1 : a > b;
  }
  case CK_TOTAL: {
    int64_t a = total_key(l, i), b = total_key(l, j);
    return a < b ? -1 : a > b;
  }
  case CK_SIGNED: {
    int64_t a = lit_get_i(l, i), b = lit_get_i(l, j);
    return a < b ? -1 : a > b;
  }
  default: {
    uint64_t a = lit_get_u(l, i), b = lit_get_u(l, j);
    return a < b ? -1 : a > b;
  }
  }
}

static void detect_fast_cmp(Sorter *s) {
  Block *b = s->region.b;
  Op *o = b->first;
  ElemType et = lit_elem(s->ins[0]);
  if (!o || o->kind != OP_COMPARE || !o->next || o->next->kind != OP_RETURN ||
      o->next->nopnds != 1 || o->next->opnds[0] != &o->res[0] || o->nopnds != 2)
    return;
  if (b->args[0]->type->elem != et || b->args[1]->type->elem != et || et_is_complex(et) ||
      s->ins[0]->type->quant)
    return;
  if (o->opnds[0] == b->args[0] && o->opnds[1] == b->args[1]) s->swap = false;
  else if (o->opnds[0] == b->args[1] && o->opnds[1] == b->args[0]) s->swap = true;
  else return;
  const char *dir = op_attr_str(o, "comparison_direction");
  const char *ct = op_attr_str(o, "compare_type");
  if (!dir) return;
  if (et_is_float(et)) {
    if (ct && !strcmp(ct, "TOTALORDER")) {
      /* the bit trick needs a sign bit in the top position */
      if (et != ET_F16 && et != ET_BF16 && et != ET_F32 && et != ET_F64) return;
      s->ck = CK_TOTAL;
    } else {
      s->ck = CK_FLOAT;
    }
  } else {
    s->ck = et_is_signed(et) ? CK_SIGNED : CK_UNSIGNED;
  }
  static const char *const dirs[] = {"LT", "GT", "LE", "GE", "EQ", "NE"};
  for (size_t i = 0; i < ARRAY_LEN(dirs); i++)
    if (!strcmp(dir, dirs[i])) {
      s->dir = dirs[i];
      s->fast = true;
    }
}

/* comparator(slice[a], slice[b]) */
static bool sort_less(Sorter *s, int64_t a, int64_t b) {
  if (s->failed) return false;
  int64_t ia = s->base + a * s->stride, ib = s->base + b * s->stride;
  if (s->fast) {
    bool un;
    int c = s->swap ? cmp3(s->ck, s->ins[0], ib, ia, &un) : cmp3(s->ck, s->ins[0], ia, ib, &un);
    if (un) return !strcmp(s->dir, "NE");
    switch (s->dir[0]) {
    case 'L': return s->dir[1] == 'T' ? c < 0 : c <= 0;
    case 'G': return s->dir[1] == 'T' ? c > 0 : c >= 0;
    case 'E': return c == 0;
    default: return c != 0;
    }
  }
  for (int k = 0; k < s->n; k++) {
    lit_convert_elem(s->region.args[2 * k], 0, s->ins[k], ia);
    lit_convert_elem(s->region.args[2 * k + 1], 0, s->ins[k], ib);
  }
  Literal *r[1];
  if (!region_run(s->I, s->op, &s->region, r)) {
    s->failed = true;
    return false;
  }
  bool v = lit_get_b(r[0], 0);
  lit_free(r[0]);
  return v;
}

/* Stable bottom-up merge sort of perm[0..n) (tmp has room for n). */
static void merge_sort(Sorter *s, int64_t *perm, int64_t *tmp, int64_t n) {
  for (int64_t width = 1; width < n && !s->failed; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = lo + width < n ? lo + width : n;
      int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      int64_t i = lo, j = mid, k = lo;
      /* take from the right only when strictly less: keeps equal elements
         in their original order */
      while (i < mid && j < hi) tmp[k++] = sort_less(s, perm[j], perm[i]) ? perm[j++] : perm[i++];
      while (i < mid) tmp[k++] = perm[i++];
      while (j < hi) tmp[k++] = perm[j++];
    }
    memcpy(perm, tmp, sizeof(int64_t) * (size_t)n);
  }
}

bool interp_SORT(Interp *I, Op *op, IVal **args, IVal **res) {
  int n = op->nopnds;
  if (n < 1 || n > MAX_VARIADIC || op->nres != n)
    return interp_error(I, op, "sort takes 1 to %d operands and as many results", MAX_VARIADIC);
  for (int i = 0; i < n; i++) {
    if (!need_tensor(I, op, args, i)) return false;
    if (!type_same_shape(ARG_LIT(i)->type, ARG_LIT(0)->type))
      return interp_error(I, op, "operands differ in shape");
  }
  const Type *xt = ARG_LIT(0)->type;
  int64_t dim = op_attr_int(op, "dimension", -1);
  if (dim < 0) dim += xt->rank;
  if (dim < 0 || dim >= xt->rank || !check_rank(I, op, xt->rank))
    return interp_error(I, op, "sort dimension out of range");
  Literal *outs[MAX_VARIADIC];
  for (int k = 0; k < n; k++) {
    outs[k] = new_result(I, op, k);
    if (!outs[k] || !type_same_shape(outs[k]->type, xt) ||
        et_bytes(lit_elem(outs[k])) != et_bytes(lit_elem(ARG_LIT(k)))) {
      if (outs[k]) interp_error(I, op, "result %d type differs from the operand", k);
      free_lits(outs, k + 1);
      return false;
    }
  }
  Sorter s;
  memset(&s, 0, sizeof s);
  s.I = I;
  s.op = op;
  s.n = n;
  Literal *ins[MAX_VARIADIC];
  for (int k = 0; k < n; k++) ins[k] = ARG_LIT(k);
  s.ins = ins;
  if (!region_init(I, op, 0, 2 * n, 1, &s.region)) {
    free_lits(outs, n);
    return false;
  }
  detect_fast_cmp(&s);
  int64_t len = xt->dims[dim], inner = 1, outer = 1;
  for (int d = 0; d < dim; d++) outer *= xt->dims[d];
  for (int d = (int)dim + 1; d < xt->rank; d++) inner *= xt->dims[d];
  int64_t *perm = xmalloc(sizeof(int64_t) * (size_t)(len > 0 ? len : 1));
  int64_t *tmp = xmalloc(sizeof(int64_t) * (size_t)(len > 0 ? len : 1));
  s.stride = inner;
  for (int64_t o = 0; o < outer && !s.failed; o++) {
    for (int64_t in = 0; in < inner && !s.failed; in++) {
      s.base = o * len * inner + in;
      for (int64_t j = 0; j < len; j++) perm[j] = j;
      merge_sort(&s, perm, tmp, len);
      for (int k = 0; k < n; k++)
        for (int64_t j = 0; j < len; j++)
          lit_copy_elem(outs[k], s.base + j * inner, ins[k], s.base + perm[j] * inner);
    }
  }
  xfree(perm);
  xfree(tmp);
  region_free(&s.region);
  bool ok = !s.failed;
  finish(ok, n, outs, res);
  return ok;
}

/* ---- chlo.top_k ---- */

/* a ranks before b: larger value first (floats in total order, so NaN is
   largest), then the lower index */
static bool topk_before(const Literal *l, int64_t a, int64_t b) {
  ElemType et = lit_elem(l);
  int c;
  if (et_is_float(et)) {
    if (et == ET_F16 || et == ET_BF16 || et == ET_F32 || et == ET_F64) {
      int64_t x = total_key(l, a), y = total_key(l, b);
      c = x < y ? -1 : x > y;
    } else {
      double x = lit_get_f(l, a), y = lit_get_f(l, b);
      if (isnan(x) || isnan(y)) c = isnan(x) - isnan(y);
      else c = x < y ? -1 : x > y;
    }
  } else if (et_is_signed(et)) {
    int64_t x = lit_get_i(l, a), y = lit_get_i(l, b);
    c = x < y ? -1 : x > y;
  } else {
    uint64_t x = lit_get_u(l, a), y = lit_get_u(l, b);
    c = x < y ? -1 : x > y;
  }
  return c > 0 || (c == 0 && a < b);
}

bool interp_CHLO_TOP_K(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensor(I, op, args, 0)) return false;
  Literal *x = ARG_LIT(0);
  const Type *xt = x->type;
  int64_t k = op_attr_int(op, "k", -1);
  if (xt->rank < 1) return interp_error(I, op, "top_k needs an operand of rank >= 1");
  int64_t len = xt->dims[xt->rank - 1];
  if (k < 0 || k > len) return interp_error(I, op, "k = %lld out of range [0, %lld]", (long long)k, (long long)len);
  if (et_is_complex(lit_elem(x))) return interp_error(I, op, "top_k of complex values");
  if (op->nres != 2) return interp_error(I, op, "top_k has two results");
  Literal *outs[2] = {new_result(I, op, 0), NULL};
  if (outs[0]) outs[1] = new_result(I, op, 1);
  bool ok = outs[0] && outs[1];
  if (ok) {
    const Type *vt = outs[0]->type, *it = outs[1]->type;
    ok = type_same_shape(vt, it) && vt->rank == xt->rank && vt->dims[vt->rank - 1] == k &&
         lit_elem(outs[0]) == lit_elem(x) && et_is_int(lit_elem(outs[1]));
    for (int d = 0; ok && d + 1 < xt->rank; d++) ok = vt->dims[d] == xt->dims[d];
    if (!ok) interp_error(I, op, "result types do not match the operand and k");
  }
  if (!ok) {
    free_lits(outs, 2);
    return false;
  }
  int64_t rows = len ? x->n / len : 0;
  int64_t *perm = xmalloc(sizeof(int64_t) * (size_t)(len ? len : 1));
  int64_t *tmp = xmalloc(sizeof(int64_t) * (size_t)(len ? len : 1));
  for (int64_t r = 0; r < rows; r++) {
    int64_t base = r * len;
    for (int64_t j = 0; j < len; j++) perm[j] = base + j;
    /* stable merge sort, largest first */
    for (int64_t width = 1; width < len; width *= 2) {
      for (int64_t lo = 0; lo < len; lo += 2 * width) {
        int64_t mid = lo + width < len ? lo + width : len;
        int64_t hi = lo + 2 * width < len ? lo + 2 * width : len;
        int64_t i = lo, j = mid, t = lo;
        while (i < mid && j < hi) tmp[t++] = topk_before(x, perm[j], perm[i]) ? perm[j++] : perm[i++];
        while (i < mid) tmp[t++] = perm[i++];
        while (j < hi) tmp[t++] = perm[j++];
      }
      memcpy(perm, tmp, sizeof(int64_t) * (size_t)len);
    }
    for (int64_t j = 0; j < k; j++) {
      lit_copy_elem(outs[0], r * k + j, x, perm[j]);
      lit_set_i(outs[1], r * k + j, perm[j] - base);
    }
  }
  xfree(perm);
  xfree(tmp);
  finish(true, 2, outs, res);
  return true;
}

/* ---- chlo.scan ---- */

/* Copies position s along dimension d of big into small (which has that
   dimension removed), or back when `into` is set. */
static void slice_along(Literal *big, int d, int64_t s, Literal *small, bool into) {
  const Type *bt = big->type;
  int64_t outer = 1, inner = 1, len = bt->dims[d];
  for (int i = 0; i < d; i++) outer *= bt->dims[i];
  for (int i = d + 1; i < bt->rank; i++) inner *= bt->dims[i];
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < inner; i++) {
      int64_t bi = (o * len + s) * inner + i, si = o * inner + i;
      if (into) lit_copy_elem(big, bi, small, si);
      else lit_copy_elem(small, si, big, bi);
    }
}

/* t with dimension d removed equals u */
static bool shape_without(const Type *t, int d, const Type *u) {
  if (t->kind != TY_TENSOR || u->kind != TY_TENSOR || t->rank != u->rank + 1 || d >= t->rank ||
      et_bytes(t->elem) != et_bytes(u->elem))
    return false;
  for (int i = 0, j = 0; i < t->rank; i++) {
    if (i == d) continue;
    if (t->dims[i] != u->dims[j++]) return false;
  }
  return true;
}

/* chlo.scan(inputs..., inits...) {dimension, is_reverse}: for each position
   along `dimension` (backwards when reversed) the body maps (input slices...,
   carries...) to (output slices..., new carries...); outputs are stacked
   along `dimension`, the final carries are the last results. */
bool interp_CHLO_SCAN(Interp *I, Op *op, IVal **args, IVal **res) {
  if (op->nregions != 1 || !op->regions[0]) return interp_error(I, op, "scan needs a body");
  Block *body = op->regions[0];
  int64_t dim = op_attr_int(op, "dimension", -1);
  Attr *rev = op_attr(op, "is_reverse");
  bool reverse = rev && (rev->kind == ATTR_UNIT || (rev->kind == ATTR_BOOL && rev->b));
  for (int i = 0; i < op->nopnds; i++)
    if (!need_tensor(I, op, args, i)) return false;
  /* inputs vs inits: the segment sizes when the frontend kept them,
     otherwise the leading operands whose body argument drops `dimension` */
  int nin = -1;
  int64_t *seg = NULL;
  if (op_attr_ints(op, "operandSegmentSizes", &seg) == 2 ||
      op_attr_ints(op, "operand_segment_sizes", &seg) == 2)
    nin = (int)seg[0];
  if (body->nargs != op->nopnds) return interp_error(I, op, "body must take %d arguments", op->nopnds);
  if (nin < 0) {
    nin = 0;
    while (nin < op->nopnds && dim >= 0 &&
           shape_without(op->opnds[nin]->type, (int)dim, body->args[nin]->type))
      nin++;
  }
  int ncarry = op->nopnds - nin, nout = op->nres - ncarry;
  if (nin < 0 || ncarry < 0 || nout < 0 || nin > op->nopnds)
    return interp_error(I, op, "cannot split scan operands into inputs and inits");
  Op *term = block_terminator(body);
  if (!term || term->nopnds != op->nres) return interp_error(I, op, "body must return %d values", op->nres);
  int64_t len = -1;
  if (nin > 0) {
    const Type *t = ARG_LIT(0)->type;
    if (dim < 0 || dim >= t->rank) return interp_error(I, op, "scan dimension out of range");
    len = t->dims[dim];
  } else {
    len = op_attr_int(op, "scan_dim_size", -1);
  }
  if (len < 0 || dim < 0) return interp_error(I, op, "cannot tell the scan length");
  for (int i = 0; i < nin; i++)
    if (!shape_without(ARG_LIT(i)->type, (int)dim, body->args[i]->type) ||
        ARG_LIT(i)->type->dims[dim] != len)
      return interp_error(I, op, "input %d does not match its body argument", i);
  for (int k = 0; k < nout; k++)
    if (op->res[k].type->kind != TY_TENSOR || op->res[k].type->rank <= dim ||
        op->res[k].type->dims[dim] != len)
      return interp_error(I, op, "output %d must have length %lld along the scan dimension", k,
                          (long long)len);
  Literal **outs = xcalloc((size_t)(nout + 1), sizeof(Literal *));
  IVal **in = xcalloc((size_t)(op->nopnds + 1), sizeof(IVal *));
  IVal **out = xcalloc((size_t)(op->nres + 1), sizeof(IVal *));
  bool ok = true;
  for (int k = 0; k < nout && ok; k++) {
    outs[k] = new_result(I, op, k);
    ok = outs[k] != NULL;
  }
  for (int i = 0; i < ncarry; i++) in[nin + i] = ival_retain(args[nin + i]);
  for (int64_t step = 0; ok && step < len; step++) {
    int64_t s = reverse ? len - 1 - step : step;
    for (int i = 0; i < nin; i++) {
      Literal *sl = lit_new(body->args[i]->type);
      slice_along(ARG_LIT(i), (int)dim, s, sl, false);
      in[i] = ival_tensor(sl);
    }
    ok = interp_run_block(I, body, op->nopnds, in, out);
    for (int i = 0; i < nin; i++) {
      ival_release(in[i]);
      in[i] = NULL;
    }
    for (int k = 0; ok && k < nout; k++) {
      if (!out[k] || out[k]->kind != IV_TENSOR ||
          !shape_without(outs[k]->type, (int)dim, out[k]->lit->type))
        ok = interp_error(I, op, "body output %d does not match result %d", k, k);
      else
        slice_along(outs[k], (int)dim, s, out[k]->lit, true);
    }
    for (int i = 0; i < ncarry; i++) {
      ival_release(in[nin + i]);
      in[nin + i] = ok ? ival_retain(out[nout + i]) : NULL;
    }
    for (int k = 0; k < op->nres; k++) {
      ival_release(out[k]);
      out[k] = NULL;
    }
  }
  for (int k = 0; k < nout; k++) {
    if (ok) res[k] = ival_tensor(outs[k]);
    else lit_free(outs[k]);
  }
  for (int i = 0; i < ncarry; i++) {
    if (ok) res[nout + i] = in[nin + i];
    else ival_release(in[nin + i]);
  }
  xfree(outs);
  xfree(in);
  xfree(out);
  return ok;
}
