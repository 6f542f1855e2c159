/*
 * legalize.c - the legalize and drop-barriers passes: "shape and structure"
 * ops that the code generator does not compile, rewritten into ops it does.
 *
 * Shapes are static in our IR, so the dynamic_* ops are their static twins
 * with an operand that can only repeat what the result type already says.
 * legalize rewrites, each replacement keeping the op's location:
 *   - broadcast -> broadcast_in_dim onto the trailing dimensions;
 *   - dynamic_broadcast_in_dim, dynamic_reshape, dynamic_iota -> the static
 *     op, when the shape operand is not a constant (a constant that
 *     disagrees with the result type keeps the op, so that running it
 *     reports the error as before);
 *   - dynamic_pad, real_dynamic_slice, dynamic_conv -> pad, slice,
 *     convolution when the padding / bounds operands are constants that the
 *     interpreter would accept;
 *   - dynamic_gather -> gather (slice sizes from a constant operand, or
 *     read off the result type when the operand is computed);
 *   - torch_index_select -> gather with batching dimensions;
 *   - get_dimension_size -> a constant; set_dimension_size -> its operand
 *     when the types agree, else a zero pad / crop of it (which is what the
 *     interpreter computes: shared elements copied, the rest zero);
 *   - map whose body holds only elementwise ops and constants -> the body's
 *     ops on whole tensors, scalars from outside the body broadcast;
 *   - einsum / unary_einsum with a letter repeated within one input term
 *     -> that input's diagonal (transpose, reshape, strided slice) and an
 *     einsum without repeats, which the expand pass lowers to
 *     reduce / dot_general / transpose;
 *   - composite -> func.call of its decomposition (the inline pass, which
 *     runs after, inlines it);
 *   - chlo.scan -> a while loop over the scanned positions that
 *     dynamic_slices the inputs, runs a clone of the body and
 *     dynamic_update_slices the outputs into accumulators carried in the
 *     loop state.
 * Ops inside regions are rewritten before the op holding them, so a scan
 * body is cloned with its own scans already rewritten.
 * drop-barriers runs after fusion (so barriers still separate fusions and
 * stop constant folding) and replaces optimization_barrier results by its
 * operands.  Legalize also replaces each sdy.sharding_constraint by its
 * operand.
 *
 * Every replacement is checked by the verifier in a scratch function before
 * it is committed (functions that its regions call are declared there); one
 * that does not verify is dropped and the op stays (the interpreter thunk
 * still runs it).  Deliberate differences from the interpreter, on
 * programs that are wrong anyway: a computed (non-constant)
 * shape operand that disagrees with the result type is not detected, and
 * torch_index_select's out-of-range indices clamp as gather's do instead
 * of failing.  chlo.ragged_dot is left alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/verify.h"
#include "passes/build.h"
#include "passes/passes.h"

#define MAXR 64

/* ---- building ops before the op being replaced (passes/build.h) ---- */
typedef Builder Rw;

static void set_ints(Rw *b, Value *v, const char *name, int n, const int64_t *p) {
  op_set_attr(b->m, v->def, name, attr_ints(b->m, n, p));
}

static bool plain(const Type *t) { return t->kind == TY_TENSOR && !t->quant && t->rank <= MAXR; }

/* ---- reading operands that are constants ---- */

/* The integer elements of a constant operand, read the way the interpreter
   reads index operands (huge unsigned values saturate).  False when v is
   not an integer constant of n elements. */
static bool const_ints(const Value *v, int64_t *out, int64_t n) {
  if (!v->def || v->def->kind != OP_CONSTANT || v->type->kind != TY_TENSOR || v->type->quant) return false;
  Attr *a = op_attr(v->def, "value");
  if (!a || a->kind != ATTR_DENSE || !a->lit) return false;
  const Literal *l = a->lit;
  ElemType et = lit_elem(l);
  if (!et_is_int(et) || l->n != n) return false;
  for (int64_t i = 0; i < n; i++) {
    if (et_is_unsigned(et)) {
      uint64_t u = lit_get_u(l, i);
      out[i] = u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)u;
    } else {
      out[i] = lit_get_i(l, i);
    }
  }
  return true;
}

/* A shape operand may be replaced by the result type unless it is a
   constant that says something else. */
static bool shape_operand_agrees(const Value *s, const Type *t) {
  if (s->type->kind != TY_TENSOR || s->type->rank != 1 || s->type->dims[0] != t->rank) return false;
  if (!s->def || s->def->kind != OP_CONSTANT) return true;
  int64_t v[MAXR];
  if (!const_ints(s, v, t->rank)) return false;
  for (int i = 0; i < t->rank; i++)
    if (v[i] != t->dims[i]) return false;
  return true;
}

/* ---- the rewrites: each fills out[] (one value per result) or returns
   false to leave the op alone ---- */

static bool rw_broadcast(Rw *b, Op *op, Value **out) {
  Value *x = op->opnds[0];
  const Type *xt = x->type, *t = op->res[0].type;
  int lead = t->rank - xt->rank;
  if (lead < 0 || t->elem != xt->elem) return false;
  int64_t bd[MAXR];
  for (int i = 0; i < xt->rank; i++) {
    if (xt->dims[i] != t->dims[lead + i]) return false;
    bd[i] = lead + i;
  }
  out[0] = bld_op(b, OP_BROADCAST_IN_DIM, 1, &x, op->res[0].type);
  set_ints(b, out[0], "broadcast_dimensions", xt->rank, bd);
  return true;
}

static bool rw_dynamic_broadcast_in_dim(Rw *b, Op *op, Value **out) {
  if (op->nopnds != 2 || !shape_operand_agrees(op->opnds[1], op->res[0].type)) return false;
  Attr *bd = op_attr(op, "broadcast_dimensions");
  if (!bd) return false;
  out[0] = bld_op(b, OP_BROADCAST_IN_DIM, 1, &op->opnds[0], op->res[0].type);
  op_set_attr(b->m, out[0]->def, "broadcast_dimensions", bd);
  return true;
}

static bool rw_dynamic_reshape(Rw *b, Op *op, Value **out) {
  if (op->nopnds != 2 || !shape_operand_agrees(op->opnds[1], op->res[0].type)) return false;
  out[0] = bld_op(b, OP_RESHAPE, 1, &op->opnds[0], op->res[0].type);
  return true;
}

static bool rw_dynamic_iota(Rw *b, Op *op, Value **out) {
  if (op->nopnds != 1 || !shape_operand_agrees(op->opnds[0], op->res[0].type)) return false;
  Attr *d = op_attr(op, "iota_dimension");
  if (!d) return false;
  out[0] = bld_op(b, OP_IOTA, 0, NULL, op->res[0].type);
  op_set_attr(b->m, out[0]->def, "iota_dimension", d);
  return true;
}

/* dynamic_pad(x, pv, low, high, interior) with constant amounts whose
   exact sizes add up to the result (pad_dim_size, as the verifier and the
   interpreter check a pad). */
static bool rw_dynamic_pad(Rw *b, Op *op, Value **out) {
  if (op->nopnds != 5) return false;
  const Type *xt = op->opnds[0]->type, *t = op->res[0].type;
  int rank = xt->rank;
  int64_t v[3][MAXR];
  for (int k = 0; k < 3; k++)
    if (!const_ints(op->opnds[2 + k], v[k], rank)) return false;
  if (t->rank != rank) return false;
  for (int d = 0; d < rank; d++) {
    int64_t size;
    if (pad_dim_size(xt->dims[d], v[0][d], v[1][d], v[2][d], &size) != 0 || size != t->dims[d]) return false;
  }
  Value *in[2] = {op->opnds[0], op->opnds[1]};
  out[0] = bld_op(b, OP_PAD, 2, in, op->res[0].type);
  set_ints(b, out[0], "edge_padding_low", rank, v[0]);
  set_ints(b, out[0], "edge_padding_high", rank, v[1]);
  set_ints(b, out[0], "interior_padding", rank, v[2]);
  return true;
}

/* real_dynamic_slice(x, start, limit, strides) with constant bounds the
   interpreter accepts.  An empty result gets empty bounds, since start and
   limit need not be ordered then. */
static bool rw_real_dynamic_slice(Rw *b, Op *op, Value **out) {
  if (op->nopnds != 4) return false;
  const Type *xt = op->opnds[0]->type, *t = op->res[0].type;
  int rank = xt->rank;
  int64_t v[3][MAXR];
  for (int k = 0; k < 3; k++)
    if (!const_ints(op->opnds[1 + k], v[k], rank)) return false;
  if (t->rank != rank) return false;
  bool empty = false;
  for (int d = 0; d < rank; d++) {
    int64_t st = v[0][d], li = v[1][d], sr = v[2][d];
    if (sr <= 0 || st < 0 || li > xt->dims[d]) return false;
    if ((li > st ? (li - st - 1) / sr + 1 : 0) != t->dims[d]) return false;
    empty = empty || t->dims[d] == 0;
  }
  if (empty)
    for (int d = 0; d < rank; d++) {
      v[0][d] = v[1][d] = 0;
      v[2][d] = 1;
    }
  out[0] = bld_op(b, OP_SLICE, 1, &op->opnds[0], op->res[0].type);
  set_ints(b, out[0], "start_indices", rank, v[0]);
  set_ints(b, out[0], "limit_indices", rank, v[1]);
  set_ints(b, out[0], "strides", rank, v[2]);
  return true;
}

/* dynamic_conv(lhs, rhs, padding): the padding operand as the attribute. */
static bool rw_dynamic_conv(Rw *b, Op *op, Value **out) {
  if (op->nopnds != 3) return false;
  const Type *pt = op->opnds[2]->type;
  if (pt->kind != TY_TENSOR || pt->rank != 2 || pt->dims[1] != 2 || pt->dims[0] > MAXR) return false;
  int64_t pad[2 * MAXR];
  if (!const_ints(op->opnds[2], pad, 2 * pt->dims[0])) return false;
  Literal *lit = lit_new_in(&b->m->arena, bld_tensor(b, ET_S64, 2, pt->dims));
  for (int64_t i = 0; i < lit->n; i++) lit_set_i(lit, i, pad[i]);
  Value *in[2] = {op->opnds[0], op->opnds[1]};
  out[0] = bld_op(b, OP_CONVOLUTION, 2, in, op->res[0].type);
  for (int i = 0; i < op->nattrs; i++) op_set_attr(b->m, out[0]->def, op->attrs[i].name, op->attrs[i].attr);
  op_set_attr(b->m, out[0]->def, "padding", attr_dense(b->m, lit));
  return true;
}

/* dynamic_gather(x, indices, slice_sizes).  A computed slice_sizes operand
   can only hold what the result type implies: the offset dimensions' sizes
   in order, and 1 for collapsed and batching dimensions. */
static bool rw_dynamic_gather(Rw *b, Op *op, Value **out) {
  if (op->nopnds != 3) return false;
  const Type *xt = op->opnds[0]->type, *t = op->res[0].type;
  Attr *dn = op_attr(op, "dimension_numbers");
  if (!dn || dn->kind != ATTR_DICT) return false;
  int64_t sizes[MAXR];
  if (op->opnds[2]->def && op->opnds[2]->def->kind == OP_CONSTANT) {
    if (!const_ints(op->opnds[2], sizes, xt->rank)) return false;
  } else {
    int64_t *od, *cs, *ob;
    int nod = dict_ints(dn, "offset_dims", &od), ncs = dict_ints(dn, "collapsed_slice_dims", &cs);
    int nob = dict_ints(dn, "operand_batching_dims", &ob);
    if (nod < 0 || ncs < 0 || nob < 0 || nod + ncs + nob != xt->rank || !ints_in_range(od, nod, t->rank))
      return false;
    for (int d = 0, k = 0; d < xt->rank; d++) {
      bool whole = !ints_contain(cs, ncs, d) && !ints_contain(ob, nob, d);
      if (whole && k >= nod) return false; /* malformed: the gather verifier says why */
      sizes[d] = whole ? t->dims[od[k++]] : 1;
    }
  }
  Value *in[2] = {op->opnds[0], op->opnds[1]};
  out[0] = bld_op(b, OP_GATHER, 2, in, op->res[0].type);
  op_set_attr(b->m, out[0]->def, "dimension_numbers", dn);
  set_ints(b, out[0], "slice_sizes", xt->rank, sizes);
  Attr *s = op_attr(op, "indices_are_sorted");
  if (s) op_set_attr(b->m, out[0]->def, "indices_are_sorted", s);
  return true;
}

static Attr *gather_dims(Module *m, int nod, const int64_t *od, int ncs, const int64_t *cs, int nb,
                         const int64_t *ob, const int64_t *ib, int nmap, const int64_t *map, int64_t ivd) {
  static const char *const keys[] = {"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
                                     "start_indices_batching_dims", "start_index_map", "index_vector_dim"};
  Attr *v[6] = {attr_ints(m, nod, od), attr_ints(m, ncs, cs), attr_ints(m, nb, ob),
                attr_ints(m, nb, ib), attr_ints(m, nmap, map), attr_int(m, ivd, NULL)};
  return attr_dict(m, "stablehlo.gather", 6, keys, v);
}

/* torch_index_select(x, idx) {dim, batch_dims}: the result is
   x[:dim] ++ idx[batch_dims:] ++ x[dim+1:], the leading batch_dims shared.
   As a gather: one index per point (an implicit trailing index vector),
   mapped to and collapsing `dim`, the shared dimensions as batching
   dimensions, every other operand dimension taken whole. */
static bool rw_torch_index_select(Rw *b, Op *op, Value **out) {
  Value *x = op->opnds[0], *ix = op->opnds[1];
  const Type *xt = x->type, *it = ix->type, *t = op->res[0].type;
  int64_t dim = op_attr_int(op, "dim", 0), bd = op_attr_int(op, "batch_dims", 0);
  if (dim < 0) dim += xt->rank;
  if (bd < 0) bd += it->rank;
  if (dim < 0 || dim >= xt->rank || bd < 0 || bd > dim || bd > it->rank || !et_is_int(it->elem)) return false;
  int nidx = it->rank - (int)bd;
  if (t->rank != xt->rank - 1 + nidx || t->rank > MAXR || t->elem != xt->elem) return false;
  int64_t od[MAXR], batch[MAXR], sizes[MAXR];
  int nod = 0;
  for (int64_t d = 0; d < xt->rank; d++) {
    sizes[d] = d < bd || d == dim ? 1 : xt->dims[d];
    if (d < bd) batch[d] = d;
    else if (d < dim) od[nod++] = d;
    else if (d > dim) od[nod++] = d - 1 + nidx;
  }
  Value *in[2] = {x, ix};
  out[0] = bld_op(b, OP_GATHER, 2, in, op->res[0].type);
  op_set_attr(b->m, out[0]->def, "dimension_numbers",
              gather_dims(b->m, nod, od, 1, &dim, (int)bd, batch, batch, 1, &dim, it->rank));
  set_ints(b, out[0], "slice_sizes", xt->rank, sizes);
  return true;
}

static bool rw_get_dimension_size(Rw *b, Op *op, Value **out) {
  int64_t d = op_attr_int(op, "dimension", -1);
  const Type *xt = op->opnds[0]->type, *t = op->res[0].type;
  if (d < 0 || d >= xt->rank || t->rank != 0 || !et_is_int(t->elem)) return false;
  Literal *lit = lit_new_in(&b->m->arena, op->res[0].type);
  lit_set_i(lit, 0, xt->dims[d]);
  out[0] = bld_constant(b, lit);
  return true;
}

/* The interpreter copies the elements operand and result share and leaves
   the others zero, whatever the size operand says: a pad with zeros whose
   negative high edge crops. */
static bool rw_set_dimension_size(Rw *b, Op *op, Value **out) {
  Value *x = op->opnds[0];
  const Type *xt = x->type, *t = op->res[0].type;
  if (type_equal(xt, t)) {
    out[0] = x;
    return true;
  }
  if (t->rank != xt->rank || t->elem != xt->elem) return false;
  int64_t lo[MAXR] = {0}, hi[MAXR];
  for (int d = 0; d < t->rank; d++) hi[d] = t->dims[d] - xt->dims[d];
  Value *in[2] = {x, bld_constant(b, lit_new_in(&b->m->arena, type_scalar(&b->m->arena, t->elem)))};
  out[0] = bld_op(b, OP_PAD, 2, in, op->res[0].type);
  set_ints(b, out[0], "edge_padding_low", t->rank, lo);
  set_ints(b, out[0], "edge_padding_high", t->rank, hi);
  set_ints(b, out[0], "interior_padding", t->rank, lo);
  return true;
}

static bool rw_composite(Rw *b, Op *op, Value **out) {
  const char *callee = op_attr_str(op, "decomposition");
  if (!callee || !module_find_func(b->m, callee)) return false;
  Type *rt[64];
  if (op->nres > 64) return false;
  for (int i = 0; i < op->nres; i++) rt[i] = op->res[i].type;
  Op *call = op_new(b->m, OP_CALL, op->nopnds, op->opnds, op->nres, rt, op->loc);
  op_set_attr(b->m, call, "callee", attr_symbol(b->m, callee));
  block_insert_before(b->blk, b->at, call);
  for (int i = 0; i < op->nres; i++) out[i] = &call->res[i];
  return true;
}

/* ---- map ---- */

/* The whole-tensor value of a scalar seen in the body: mapped already (a
   body argument or a rewritten op), or a scalar from outside broadcast. */
static Value *map_value(Rw *b, PtrMap *vals, Value *v, const Type *shape) {
  Value *r = ptrmap_get(vals, v);
  if (r) return r;
  if (!plain(v->type) || v->type->rank != 0) return NULL;
  r = bld_splat(b, v, shape);
  ptrmap_put(vals, v, r);
  return r;
}

static bool rw_map(Rw *b, Op *op, Value **out) {
  if (op->nregions != 1 || op->nres != 1) return false;
  Block *body = op->regions[0];
  const Type *t = op->res[0].type;
  if (body->nargs != op->nopnds) return false;
  PtrMap vals = {0};
  bool ok = true;
  for (int i = 0; i < body->nargs && ok; i++) {
    const Type *at = body->args[i]->type, *xt = op->opnds[i]->type;
    ok = plain(at) && at->rank == 0 && at->elem == xt->elem && type_same_shape(xt, t);
    ptrmap_put(&vals, body->args[i], op->opnds[i]);
  }
  Op *ret = block_terminator(body);
  ok = ok && ret && ret->kind == OP_RETURN && ret->nopnds == 1;
  for (Op *o = body->first; ok && o != ret; o = o->next) {
    ok = o->nres == 1 && o->nregions == 0 && plain(o->res[0].type) && o->res[0].type->rank == 0 &&
         (o->kind == OP_CONSTANT || (op_has_flag(o->kind, OPF_EW) && o->nopnds > 0));
    if (!ok) break;
    Type *rt = bld_tensor(b, o->res[0].type->elem, t->rank, t->dims);
    if (o->kind == OP_CONSTANT) {
      Op *c = build_op(b->m, b->blk, b->at, OP_CONSTANT, 0, NULL, o->res[0].type, b->loc);
      for (int i = 0; i < o->nattrs; i++) op_set_attr(b->m, c, o->attrs[i].name, o->attrs[i].attr);
      ptrmap_put(&vals, &o->res[0], bld_splat(b, &c->res[0], t));
      continue;
    }
    Value *in[16];
    if (o->nopnds > 16) {
      ok = false;
      break;
    }
    for (int i = 0; i < o->nopnds && ok; i++) ok = (in[i] = map_value(b, &vals, o->opnds[i], t)) != NULL;
    if (!ok) break;
    /* located at the body op, so its diagnostics point into the body */
    Op *n = build_op(b->m, b->blk, b->at, o->kind, o->nopnds, in, rt, o->loc);
    for (int i = 0; i < o->nattrs; i++) op_set_attr(b->m, n, o->attrs[i].name, o->attrs[i].attr);
    ptrmap_put(&vals, &o->res[0], &n->res[0]);
  }
  if (ok) ok = (out[0] = map_value(b, &vals, ret->opnds[0], t)) != NULL && type_equal(out[0]->type, t);
  ptrmap_free(&vals);
  return ok;
}

/* ---- einsum with repeated letters ---- */

typedef struct Terms {
  char s[3][MAXR + 1];
  int n; /* input terms */
} Terms;

/* Splits "ab,bc->ac" as the interpreter does (letters only); false when
   malformed. */
static bool split_terms(const char *cfg, int nin, Terms *tm) {
  const char *arrow = cfg ? strstr(cfg, "->") : NULL;
  if (!arrow) return false;
  memset(tm, 0, sizeof *tm);
  const char *p = cfg;
  while (p <= arrow) {
    const char *q = p;
    while (q < arrow && *q != ',') q++;
    if (tm->n >= nin || q - p > MAXR) return false;
    memcpy(tm->s[tm->n++], p, (size_t)(q - p));
    p = q + 1;
    if (q == arrow) break;
  }
  if (tm->n != nin || strlen(arrow + 2) > MAXR) return false;
  strcpy(tm->s[2], arrow + 2);
  for (int k = 0; k < 3; k++)
    for (const char *c = tm->s[k]; *c; c++)
      if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z'))) return false;
  return true;
}

/* The diagonal of x over the letters repeated in `term`; `term` becomes its
   distinct letters in order of first appearance.  Each repeated letter's
   dimensions are moved next to each other and merged into one of size
   n^k, where the diagonal element i sits at i * (1 + n + ... + n^(k-1)):
   a strided slice picks it. */
static Value *diagonal(Rw *b, Value *x, char *term) {
  const Type *t = x->type;
  int64_t perm[MAXR], merged[MAXR], limit[MAXR], stride[MAXR], zero[MAXR] = {0}, dims[MAXR];
  char letters[MAXR + 1];
  int np = 0, nu = 0;
  for (int i = 0; i < t->rank; i++) {
    if (memchr(letters, term[i], (size_t)nu)) continue;
    int64_t n = t->dims[i], size = 1, step = 0;
    for (int j = i; j < t->rank; j++) {
      if (term[j] != term[i]) continue;
      perm[np++] = j;
      if (n && size > INT64_MAX / n) return NULL;
      step += size;
      size *= n;
    }
    letters[nu] = term[i];
    merged[nu] = limit[nu] = size;
    stride[nu] = n > 1 ? step : 1;
    dims[nu++] = n;
  }
  letters[nu] = 0;
  Value *r = bld_reshape(b, bld_transpose(b, x, perm), nu, merged);
  r = bld_op(b, OP_SLICE, 1, &r, bld_tensor(b, t->elem, nu, dims));
  set_ints(b, r, "start_indices", nu, zero);
  set_ints(b, r, "limit_indices", nu, limit);
  set_ints(b, r, "strides", nu, stride);
  strcpy(term, letters);
  return r;
}

static bool has_repeat(const char *s) {
  for (int i = 0; s[i]; i++)
    if (strchr(s + i + 1, s[i])) return true;
  return false;
}

static bool rw_einsum(Rw *b, Op *op, Value **out) {
  int nin = op->kind == OP_EINSUM ? 2 : 1;
  Terms tm;
  if (op->nopnds != nin || !split_terms(op_attr_str(op, "einsum_config"), nin, &tm)) return false;
  /* the interpreter's consistency rules; anything else keeps the op */
  int64_t size[128];
  for (int i = 0; i < 128; i++) size[i] = -1;
  bool repeats = false;
  for (int k = 0; k <= nin; k++) {
    const Type *ty = k < nin ? op->opnds[k]->type : op->res[0].type;
    if (!plain(ty) || ty->elem != op->res[0].type->elem || (int)strlen(tm.s[k == nin ? 2 : k]) != ty->rank)
      return false;
    const char *s = tm.s[k == nin ? 2 : k];
    for (int j = 0; s[j]; j++) {
      unsigned char c = (unsigned char)s[j];
      if (k == nin && size[c] < 0) return false;
      if (size[c] >= 0 && size[c] != ty->dims[j]) return false;
      size[c] = ty->dims[j];
    }
    if (k < nin) repeats = repeats || has_repeat(s);
    else if (has_repeat(s)) return false;
  }
  if (!repeats) return false; /* the expand pass lowers it */
  Value *in[2];
  for (int k = 0; k < nin; k++) {
    in[k] = op->opnds[k];
    if (has_repeat(tm.s[k]) && !(in[k] = diagonal(b, in[k], tm.s[k]))) return false;
  }
  char cfg[3 * MAXR + 8];
  snprintf(cfg, sizeof cfg, "%s%s%s->%s", tm.s[0], nin == 2 ? "," : "", nin == 2 ? tm.s[1] : "", tm.s[2]);
  out[0] = bld_op(b, op->kind, nin, in, op->res[0].type);
  op_set_attr(b->m, out[0]->def, "einsum_config", attr_string(b->m, cfg, strlen(cfg)));
  return true;
}

/* ---- chlo.scan ---- */

/* t is u with one more dimension, at d: the interpreter's test for telling
   inputs from inits (it compares element sizes only). */
static bool scan_slice_of(const Type *t, int64_t d, const Type *u) {
  if (t->kind != TY_TENSOR || u->kind != TY_TENSOR || d < 0 || d >= t->rank || u->rank != t->rank - 1 ||
      et_bytes(t->elem) != et_bytes(u->elem))
    return false;
  for (int i = 0; i < u->rank; i++)
    if (u->dims[i] != t->dims[i < d ? i : i + 1]) return false;
  return true;
}

/* The same with equal element types, which is what a while loop of
   dynamic slices can reproduce. */
static bool scan_slice_exact(const Type *t, int64_t d, const Type *u) {
  return plain(t) && plain(u) && t->elem == u->elem && scan_slice_of(t, d, u);
}

static Value *scan_index(Rw *b, int64_t v) {
  Literal *l = lit_new_in(&b->m->arena, type_scalar(&b->m->arena, ET_S64));
  lit_set_i(l, 0, v);
  return bld_constant(b, l);
}

/* t's dimensions with dimension d set to 1 */
static Type *scan_unit_dim(Rw *b, const Type *t, int d) {
  int64_t dims[MAXR];
  memcpy(dims, t->dims, sizeof(int64_t) * (size_t)t->rank);
  dims[d] = 1;
  return bld_tensor(b, t->elem, t->rank, dims);
}

/* chlo.scan(inputs..., inits...) -> a while loop whose state is
   (position, carries..., output accumulators...).  Each trip slices the
   inputs at the position, runs a clone of the body, writes the output
   slices into the accumulators and steps the position (down from len-1
   when reversed).  The inputs/inits split and the length follow the
   interpreter exactly; anything it would reject, or that needs a
   conversion (carries whose types change, slices whose element types
   differ), keeps the op.  A zero-length scan needs no loop: its outputs
   are empty and its carries are the inits.  The code generator computes
   each trip's dynamic_update_slice over the whole accumulator, so a long
   scan costs length x output size per output. */
static bool rw_scan(Rw *b, Op *op, Value **out) {
  if (op->nregions != 1 || !op->regions[0] || op->nopnds > 64) return false;
  Block *body = op->regions[0];
  int64_t dim = op_attr_int(op, "dimension", -1);
  Attr *rev = op_attr(op, "is_reverse");
  bool reverse = rev && (rev->kind == ATTR_UNIT || (rev->kind == ATTR_BOOL && rev->b));
  if (body->nargs != op->nopnds || dim < 0 || dim >= MAXR) return false;
  int nin = -1;
  int64_t *seg = NULL;
  if (op_attr_ints(op, "operandSegmentSizes", &seg) == 2 || op_attr_ints(op, "operand_segment_sizes", &seg) == 2) {
    if (seg[0] < 0 || seg[0] > op->nopnds) return false;
    nin = (int)seg[0];
  } else {
    nin = 0;
    while (nin < op->nopnds && scan_slice_of(op->opnds[nin]->type, dim, body->args[nin]->type)) nin++;
  }
  int ncarry = op->nopnds - nin, nout = op->nres - ncarry;
  Op *term = block_terminator(body);
  if (nout < 0 || !term || term->kind != OP_RETURN || term->nopnds != op->nres) return false;
  int64_t len = nin > 0 ? (dim < op->opnds[0]->type->rank ? op->opnds[0]->type->dims[dim] : -1)
                        : op_attr_int(op, "scan_dim_size", -1);
  if (len < 0) return false;
  for (int i = 0; i < nin; i++)
    if (!scan_slice_exact(op->opnds[i]->type, dim, body->args[i]->type) || op->opnds[i]->type->dims[dim] != len)
      return false;
  for (int k = 0; k < nout; k++)
    if (!scan_slice_exact(op->res[k].type, dim, term->opnds[k]->type) || op->res[k].type->dims[dim] != len)
      return false;
  for (int i = 0; i < ncarry; i++) {
    const Type *t = op->opnds[nin + i]->type;
    if (!type_equal(body->args[nin + i]->type, t) || !type_equal(term->opnds[nout + i]->type, t) ||
        !type_equal(op->res[nout + i].type, t))
      return false;
  }

  int n = 1 + ncarry + nout;
  Value *init[1 + 128];
  Type *st[1 + 128];
  for (int i = 0; i < ncarry; i++) init[1 + i] = op->opnds[nin + i];
  for (int k = 0; k < nout; k++) {
    /* every element is written before it is read, so any value will do */
    Literal *zero = lit_new_in(&b->m->arena, type_scalar(&b->m->arena, op->res[k].type->elem));
    init[1 + ncarry + k] = bld_splat(b, bld_constant(b, zero), op->res[k].type);
  }
  if (len == 0) {
    /* no trip: empty outputs and the inits as they are (no loop, whose
       slices of an empty dimension would not verify) */
    for (int k = 0; k < nout; k++) out[k] = init[1 + ncarry + k];
    for (int i = 0; i < ncarry; i++) out[nout + i] = init[1 + i];
    return true;
  }
  init[0] = scan_index(b, reverse ? len - 1 : 0);
  for (int i = 0; i < n; i++) st[i] = init[i]->type;
  Op *w = op_new(b->m, OP_WHILE, n, init, n, st, b->loc);
  block_insert_before(b->blk, b->at, w);

  Block *cond = block_new(b->m), *loop = block_new(b->m);
  for (int i = 0; i < n; i++) {
    block_add_arg(b->m, cond, st[i], NULL);
    block_add_arg(b->m, loop, st[i], NULL);
  }
  Rw cb = {b->m, cond, NULL, b->loc};
  Value *more = reverse ? bld_compare(&cb, cond->args[0], scan_index(&cb, 0), "GE")
                        : bld_compare(&cb, cond->args[0], scan_index(&cb, len), "LT");
  block_append(cond, op_new(b->m, OP_RETURN, 1, &more, 0, NULL, b->loc));
  op_add_region(b->m, w, cond);

  Rw lb = {b->m, loop, NULL, b->loc};
  Value *pos = loop->args[0], *zero = nin + nout > 0 ? scan_index(&lb, 0) : NULL;
  Value *starts[1 + MAXR + 1];
  PtrMap map = {0};
  for (int i = 0; i < nin; i++) {
    Value *x = op->opnds[i];
    const Type *xt = x->type, *at = body->args[i]->type;
    starts[0] = x;
    for (int d = 0; d < xt->rank; d++) starts[1 + d] = d == dim ? pos : zero;
    Type *slt = scan_unit_dim(&lb, xt, (int)dim);
    Value *sl = bld_op(&lb, OP_DYNAMIC_SLICE, 1 + xt->rank, starts, slt);
    set_ints(&lb, sl, "slice_sizes", slt->rank, slt->dims);
    ptrmap_put(&map, body->args[i], bld_reshape(&lb, sl, at->rank, at->dims));
  }
  for (int i = 0; i < ncarry; i++) ptrmap_put(&map, body->args[nin + i], loop->args[1 + i]);
  block_clone_into(b->m, body, loop, &map);
  /* the clone's own terminator is replaced by the loop's */
  Op *cret = block_terminator(loop);
  Value *res[1 + 128];
  for (int j = 0; j < term->nopnds; j++) res[j] = cret->opnds[j];
  op_erase(cret);
  ptrmap_free(&map);
  Value *ret[1 + 128];
  ret[0] = bld_add(&lb, pos, scan_index(&lb, reverse ? -1 : 1));
  for (int i = 0; i < ncarry; i++) ret[1 + i] = res[nout + i];
  for (int k = 0; k < nout; k++) {
    Value *acc = loop->args[1 + ncarry + k];
    const Type *t = acc->type;
    Type *ut = scan_unit_dim(&lb, t, (int)dim);
    starts[0] = acc;
    starts[1] = bld_reshape(&lb, res[k], ut->rank, ut->dims);
    for (int d = 0; d < t->rank; d++) starts[2 + d] = d == dim ? pos : zero;
    ret[1 + ncarry + k] = bld_op(&lb, OP_DYNAMIC_UPDATE_SLICE, 2 + t->rank, starts, acc->type);
  }
  block_append(loop, op_new(b->m, OP_RETURN, n, ret, 0, NULL, b->loc));
  op_add_region(b->m, w, loop);

  for (int k = 0; k < nout; k++) out[k] = &w->res[1 + ncarry + k];
  for (int i = 0; i < ncarry; i++) out[nout + i] = &w->res[1 + i];
  return true;
}

/* ---- the table ---- */

typedef bool (*RewriteFn)(Rw *b, Op *op, Value **out);

static const struct {
  OpKind kind;
  int nopnds; /* operands required, -1 any */
  RewriteFn fn;
} rewrites[] = {
    {OP_BROADCAST, 1, rw_broadcast},
    {OP_DYNAMIC_BROADCAST_IN_DIM, 2, rw_dynamic_broadcast_in_dim},
    {OP_DYNAMIC_RESHAPE, 2, rw_dynamic_reshape},
    {OP_DYNAMIC_IOTA, 1, rw_dynamic_iota},
    {OP_DYNAMIC_PAD, 5, rw_dynamic_pad},
    {OP_REAL_DYNAMIC_SLICE, 4, rw_real_dynamic_slice},
    {OP_DYNAMIC_CONV, 3, rw_dynamic_conv},
    {OP_DYNAMIC_GATHER, 3, rw_dynamic_gather},
    {OP_TORCH_INDEX_SELECT, 2, rw_torch_index_select},
    {OP_GET_DIMENSION_SIZE, 1, rw_get_dimension_size},
    {OP_SET_DIMENSION_SIZE, 2, rw_set_dimension_size},
    {OP_MAP, -1, rw_map},
    {OP_EINSUM, 2, rw_einsum},
    {OP_UNARY_EINSUM, 1, rw_einsum},
    {OP_COMPOSITE, -1, rw_composite},
    {OP_CHLO_SCAN, -1, rw_scan},
};

static RewriteFn rewrite_of(const Op *op) {
  for (size_t i = 0; i < ARRAY_LEN(rewrites); i++)
    if (rewrites[i].kind == op->kind) return rewrites[i].nopnds < 0 || rewrites[i].nopnds == op->nopnds ? rewrites[i].fn : NULL;
  return NULL;
}

/* Every op this file rewrites works on plain tensors (composite excepted:
   a call passes anything). */
static bool operands_plain(const Op *op) {
  if (op->kind == OP_COMPOSITE) return true;
  if (op->nres != 1 && op->kind != OP_CHLO_SCAN) return false;
  for (int i = 0; i < op->nres; i++)
    if (!plain(op->res[i].type)) return false;
  for (int i = 0; i < op->nopnds; i++)
    if (!plain(op->opnds[i]->type)) return false;
  return true;
}

/* ---- checking a replacement in a scratch function ---- */

static void count_only(DiagLevel lvl, SrcLoc loc, const char *msg, void *ud) {
  (void)loc;
  (void)msg;
  if (lvl == DIAG_ERROR) ++*(int *)ud;
}

typedef struct Declare {
  const Module *from;
  Module *to;
} Declare;

/* Declares in the scratch module each function of the real one that op
   names (a call in a scan body), so the verifier can check the call
   against its signature. */
static bool declare_callees(Op *op, void *ud) {
  Declare *d = ud;
  for (int i = 0; i < op->nattrs; i++) {
    Attr *a = op->attrs[i].attr;
    if (a->kind != ATTR_SYMBOL || module_find_func(d->to, a->s)) continue;
    const Func *g = module_find_func(d->from, a->s);
    if (!g) continue;
    Func *h = func_new(d->to, g->name, SRCLOC_NONE);
    h->is_private = true;
    for (int k = 0; k < g->body->nargs; k++) block_add_arg(d->to, h->body, g->body->args[k]->type, NULL);
    h->nresults = g->nresults;
    h->result_types = g->result_types;
  }
  return true;
}

typedef struct Outside {
  PtrMap defined, map;
  Module *s;
  Func *f;
} Outside;

static bool note_defs(Op *o, void *ud) {
  Outside *u = ud;
  for (int i = 0; i < o->nres; i++) ptrmap_put(&u->defined, &o->res[i], (void *)1);
  for (int r = 0; r < o->nregions; r++)
    for (int i = 0; i < o->regions[r]->nargs; i++) ptrmap_put(&u->defined, o->regions[r]->args[i], (void *)1);
  return true;
}

static bool add_outside_uses(Op *o, void *ud) {
  Outside *u = ud;
  for (int i = 0; i < o->nopnds; i++) {
    Value *v = o->opnds[i];
    if (!ptrmap_has(&u->defined, v) && !ptrmap_has(&u->map, v))
      ptrmap_put(&u->map, v, block_add_arg(u->s, u->f->body, v->type, NULL));
  }
  return true;
}

/* The verifier's verdict on the ops first..last (the replacement built
   before the op), copied into a function of their own whose parameters
   stand for the values they use from outside.  Silent: its errors are
   swallowed and the global error count put back as it was. */
static bool replacement_verifies(const Module *m, Op *first, Op *stop) {
  if (first == stop) return true;
  Module *s = module_new();
  Func *f = func_new(s, "legalize_check", SRCLOC_NONE);
  f->is_private = true;
  Declare dc = {m, s};
  for (Op *o = first; o != stop; o = o->next)
    for (int r = 0; r < o->nregions; r++) block_walk(o->regions[r], declare_callees, &dc);
  /* values defined by the ops (their regions' too), then every value they
     use from outside (a region may use one directly) as a parameter */
  Outside out = {{0}, {0}, s, f};
  for (Op *o = first; o != stop; o = o->next) {
    note_defs(o, &out);
    for (int r = 0; r < o->nregions; r++) block_walk(o->regions[r], note_defs, &out);
  }
  for (Op *o = first; o != stop; o = o->next) {
    add_outside_uses(o, &out);
    for (int r = 0; r < o->nregions; r++) block_walk(o->regions[r], add_outside_uses, &out);
  }
  for (Op *o = first; o != stop; o = o->next) block_append(f->body, op_clone(s, o, &out.map));
  PtrMap map = out.map, defined = out.defined;
  block_append(f->body, op_new(s, OP_FUNC_RETURN, 0, NULL, 0, NULL, SRCLOC_NONE));
  ptrmap_free(&map);
  ptrmap_free(&defined);
  int before = diag_error_count(), swallowed = 0;
  DiagContext outer = diag_context_get();
  diag_set_hook(count_only, &swallowed);
  bool ok = verify_module(s);
  /* the count only goes back to zero: re-count the earlier errors */
  if (diag_error_count() != before) {
    diag_reset_count();
    for (int i = 0; i < before; i++) error_at(SRCLOC_NONE, "(recounted)");
  }
  diag_context_set(outer);
  module_free(s);
  return ok;
}

/* ---- the passes ---- */

typedef VEC(Op *) OpVec;

static bool collect_legal(Op *op, void *ud) {
  if (rewrite_of(op)) VEC_PUSH(*(OpVec *)ud, op);
  return true;
}

/* Replaces every op of kind k (an identity on its operands) by its
   operands: optimization_barrier after fusion; sdy.sharding_constraint,
   which says how a value is laid out across devices and is the value
   itself for the program of one device (replicated, or partitioned by
   hand), in the first legalize, so that it neither splits fusions nor runs
   in the interpreter thunk. */
typedef struct OfKind {
  OpKind kind;
  OpVec ops;
} OfKind;

static bool collect_of_kind(Op *op, void *ud) {
  OfKind *c = ud;
  if (op->kind == c->kind) VEC_PUSH(c->ops, op);
  return true;
}

static int replace_by_operands(Module *m, OpKind k) {
  int changed = 0;
  for (Func *f = m->funcs; f; f = f->next) {
    OfKind c = {k, {0}};
    block_walk(f->body, collect_of_kind, &c);
    for (int i = 0; i < c.ops.len; i++) {
      Op *op = c.ops.data[i];
      if (op->nres != op->nopnds) continue;
      bld_replace(f, op, op->opnds);
      changed = 1;
    }
    VEC_FREE(c.ops);
  }
  return changed;
}

int pass_legalize(Module *m, const PassOptions *o) {
  (void)o;
  int changed = replace_by_operands(m, OP_SDY_SHARDING_CONSTRAINT);
  for (Func *f = m->funcs; f; f = f->next) {
    OpVec ops = {0};
    block_walk(f->body, collect_legal, &ops);
    /* innermost first (block_walk lists an op before the ops in its
       regions): a scan clones its body, which must be rewritten already */
    for (int i = ops.len - 1; i >= 0; i--) {
      Op *op = ops.data[i];
      if (!operands_plain(op) || op->nres > 64) continue;
      Rw b = {m, op->parent, op, op->loc};
      Value *out[64] = {0};
      Op *before = op->prev;
      bool ok = rewrite_of(op)(&b, op, out);
      Op *first = before ? before->next : op->parent->first;
      for (int r = 0; ok && r < op->nres; r++) ok = out[r] && type_equal(out[r]->type, op->res[r].type);
      /* a call is checked against its callee, which the scratch module
         lacks; the composite's operands and results were checked the same way */
      if (ok && op->kind != OP_COMPOSITE) ok = replacement_verifies(m, first, op);
      if (!ok) {
        /* drop whatever was built */
        bld_discard(op, before);
        continue;
      }
      bld_replace(f, op, out);
      changed = 1;
    }
    VEC_FREE(ops);
  }
  return changed;
}

int pass_drop_barriers(Module *m, const PassOptions *o) {
  (void)o;
  return replace_by_operands(m, OP_OPTIMIZATION_BARRIER);
}
