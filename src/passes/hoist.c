/*
 * hoist.c - a scan's product of each step's input with the same weights,
 * made one product before the loop.
 *
 * An RNN written with lax.scan multiplies every step's slice of its input
 * by the same matrix.  Inside the loop body (after expand, products are
 * canonical):
 *
 *   s = dynamic_slice(X, i, ...)   sizes [1, d1, ..., dn]  (X: [T, d1, ..., dn])
 *   r = reshape(s)                 [M, K]
 *   y = dot_general(r, W)          [M, N], r's dim 1 contracted, no batch
 *
 * with X and W the same in every iteration.  Every step's rows are
 * multiplied anyway, so the pass multiplies all of them before the loop,
 * as one product of T*M rows (on the CPU one large GEMM instead of T small
 * ones with their packing; on the GPU one launch or one cuBLASLt call
 * instead of one per iteration):
 *
 *   P = reshape(dot_general(reshape(X, [T*M, K]), W), [T, M, N])
 *
 * and the body slices it: y = reshape(dynamic_slice(P, i, 0, 0)).  Both
 * slices clamp i into [0, T-1] alike and the other dimensions are whole,
 * so each step reads the product of the rows it read before: each element
 * is the same sum of the same products (a GEMM of more rows may add them
 * in another order, as any blocking may).  The body refers to P, computed
 * outside it, as it may to any value of the enclosing function.
 *
 * Taken only where no work is added: a counted loop (loops.c) whose steps
 * slice at its counter (i, or i plus a constant) at least T/2 times, P of
 * at most PassOptions.hoist_limit bytes (HOIST_MAX_BYTES by default); X
 * and W are invariant where the body returns them unchanged (the loop's
 * operands are them outside) or where they are defined outside the loop.
 *
 * The gpu backend takes it: a launch per step saved, and the one product
 * large enough for cuBLASLt.  The cpu backend does not: there a step's
 * product stays in the cache and feeds the step's other ops at once,
 * while one product of every step writes its result to memory and the
 * steps read it back (the model suite's lstm_scan, 50 steps of 32 x 64 x
 * 512, went from 6.5 to 7.3 ms per call at 1 thread, the large product
 * 1.2-1.7 ms against 50 x 30 us in the loop).
 */
#include <string.h>

#include "passes/build.h"
#include "passes/passes.h"

#define HOIST_MAX_BYTES ((int64_t)64 << 20)

/* Whether v is defined inside op's regions (at any depth). */
static bool inside(const Value *v, const Op *op) {
  const Block *b = v->def ? v->def->parent : v->owner;
  for (; b; b = b->parent_op ? b->parent_op->parent : NULL)
    if (b->parent_op == op) return true;
  return false;
}

/* What v, used in w's body, is outside the loop: itself when defined
   outside, the loop's operand when it is an argument the body returns
   unchanged; NULL when it varies. */
static Value *invariant(Op *w, Value *v) {
  Block *body = w->regions[1];
  Op *ret = block_terminator(body);
  for (int k = 0; k < body->nargs; k++)
    if (v == body->args[k]) return ret && k < ret->nopnds && ret->opnds[k] == v && k < w->nopnds ? w->opnds[k] : NULL;
  return inside(v, w) ? NULL : v;
}

/* The counter, or the counter plus a constant. */
static bool at_counter(const Value *v, const Value *i) {
  if (v == i) return true;
  const Op *d = v->def;
  if (!d || d->kind != OP_ADD || d->nopnds != 2) return false;
  return (d->opnds[0] == i && scalar_const_of(d->opnds[1])) || (d->opnds[1] == i && scalar_const_of(d->opnds[0]));
}

/* y = dot_general(reshape(dynamic_slice(X, i, ...)), W) in the body of w
   (counted: lc), rewritten as above; false when it is not of that form. */
static bool hoist(Module *m, Func *f, Op *w, const LoopCount *lc, Op *d, int64_t limit) {
  if (d->kind != OP_DOT_GENERAL || d->nopnds != 2 || d->nres != 1) return false;
  Value *r = d->opnds[0], *wv = d->opnds[1];
  Op *rs = r->def, *ds = rs && rs->kind == OP_RESHAPE ? rs->opnds[0]->def : NULL;
  if (!ds || ds->kind != OP_DYNAMIC_SLICE || ds->nres != 1 || ds->nopnds < 2) return false;
  Value *x = ds->opnds[0], *idx = ds->opnds[1];
  const Type *xt = x->type, *st = ds->res[0].type, *rt = r->type, *wt = wv->type, *yt = d->res[0].type;
  if (xt->kind != TY_TENSOR || xt->quant || rt->rank != 2 || wt->rank != 2 || yt->rank != 2 || xt->rank < 1 ||
      ds->nopnds != 1 + xt->rank || st->dims[0] != 1 || xt->dims[0] < 2)
    return false;
  for (int k = 1; k < xt->rank; k++)
    if (st->dims[k] != xt->dims[k]) return false;
  /* no batch, r's dim 1 contracted: y is [M, N] */
  const Attr *dn = op_attr(d, "dot_dimension_numbers");
  int64_t *lb, *rb, *lcd, *rcd;
  int nb = dict_ints(dn, "lhs_batching_dimensions", &lb), nb2 = dict_ints(dn, "rhs_batching_dimensions", &rb);
  int nc = dict_ints(dn, "lhs_contracting_dimensions", &lcd), nc2 = dict_ints(dn, "rhs_contracting_dimensions", &rcd);
  if (!dn || nb != 0 || nb2 != 0 || nc != 1 || nc2 != 1 || lcd[0] != 1) return false;
  int64_t T = xt->dims[0], M = rt->dims[0], K = rt->dims[1], N = yt->dims[1];
  if (yt->dims[0] != M || T * M * N * et_bytes(yt->elem) > limit || lc->trips * 2 < T) return false;
  Block *body = w->regions[1];
  if (!at_counter(idx, body->args[lc->index])) return false;
  Value *xo = invariant(w, x), *wo = invariant(w, wv);
  if (!xo || !wo) return false;

  /* before the loop: every row's product */
  Builder b = bld_before(m, w);
  int64_t xd[2] = {T * M, K}, pd[2] = {T * M, N}, p3[3] = {T, M, N};
  Value *in[2] = {bld_reshape(&b, xo, 2, xd), wo};
  Value *p = bld_op(&b, OP_DOT_GENERAL, 2, in, bld_tensor(&b, yt->elem, 2, pd));
  for (int a = 0; a < d->nattrs; a++) op_set_attr(m, p->def, d->attrs[a].name, d->attrs[a].attr);
  p = bld_reshape(&b, p, 3, p3);
  /* in the body: this step's rows of it */
  Builder bb = bld_before(m, d);
  Value *zero = bld_const_i(&bb, idx->type, 0);
  Value *at[4] = {p, idx, zero, zero};
  int64_t sd[3] = {1, M, N};
  Value *sl = bld_op(&bb, OP_DYNAMIC_SLICE, 4, at, bld_tensor(&bb, yt->elem, 3, sd));
  op_set_attr(m, sl->def, "slice_sizes", attr_ints(m, 3, sd));
  Value *y = bld_reshape(&bb, sl, 2, yt->dims);
  bld_replace(f, d, &y);
  return true;
}

static int hoist_block(Module *m, Func *f, Block *blk, int64_t limit) {
  int changed = 0;
  for (Op *op = blk->first; op; op = op->next) {
    for (int r = 0; r < op->nregions; r++) changed += hoist_block(m, f, op->regions[r], limit);
    LoopCount lc;
    if (op->kind != OP_WHILE || !loop_count(m, op, &lc)) continue;
    Op *next;
    for (Op *d = op->regions[1]->first; d; d = next) {
      next = d->next;
      changed += hoist(m, f, op, &lc, d, limit);
    }
  }
  return changed;
}

int pass_hoist_products(Module *m, const PassOptions *o) {
  int64_t limit = o->hoist_limit ? o->hoist_limit : HOIST_MAX_BYTES;
  if (limit < 0) return 0;
  int changed = 0;
  for (Func *f = m->funcs; f; f = f->next) changed += hoist_block(m, f, f->body, limit);
  return changed > 0;
}
