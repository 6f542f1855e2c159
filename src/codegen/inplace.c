/*
 * inplace.c - which donated parameters a result can be computed into.
 *
 * A training step donates its parameters and gets the updated ones back in
 * the same storage.  Computing result r straight into parameter p's memory
 * is safe when nothing can read p after an element of r has overwritten
 * it:
 *   - r is written directly into its result buffer by one top-level op P
 *     (the buffer assignment says so), P has no other result, none of
 *     P's operands was computed into that buffer, and
 *   - no op after P reads p (or a view of p), in any region, and no other
 *     result is p or a view of it, and
 *   - P reads p only at the index it writes: P is an elementwise op, or a
 *     loop fusion in whose computation every path from p to the root goes
 *     through elementwise ops only (no broadcast, slice, transpose, ...).
 * Each chunk of such a kernel reads p[i] before it writes r[i] and touches
 * no other index, so in-place is exact.  Anything else is left to the copy
 * the caller makes after the run.
 */
#include <string.h>

#include "codegen/kernel.h"
#include "passes/buffers.h"

typedef struct UseScan {
  PtrMap *set; /* values whose storage is p's */
  bool used;
} UseScan;

static bool scan_uses(Op *op, void *ud) {
  UseScan *u = ud;
  for (int i = 0; i < op->nopnds; i++)
    if (ptrmap_has(u->set, op->opnds[i])) {
      u->used = true;
      return false;
    }
  return true;
}

static bool op_reads(Op *op, PtrMap *set) {
  UseScan u = {set, false};
  if (!scan_uses(op, &u)) return true;
  for (int k = 0; k < op->nregions; k++)
    if (!block_walk(op->regions[k], scan_uses, &u)) return true;
  return u.used;
}

static bool same_shape(const Type *a, const Type *b) {
  return a->kind == TY_TENSOR && b->kind == TY_TENSOR && type_same_shape(a, b);
}

bool result_in_place(Module *m, Func *f, const BufferAssignment *bufs, int r, int p) {
  Op *ret = block_terminator(f->body);
  if (!ret || r < 0 || r >= ret->nopnds || p < 0 || p >= f->body->nargs) return false;
  Value *v = ret->opnds[r], *pv = f->body->args[p];
  int64_t idx = -1;
  if (!same_shape(v->type, pv->type) || v->type->elem != pv->type->elem) return false;
  if (buffers_lookup(bufs, v, &idx) != BUF_RESULT || idx != r) return false;
  Op *P = v->def;
  if (!P || P->parent != f->body || P->nres != 1) return false;
  /* an operand of P computed into r's storage before P (a scatter's)
     could read p after writing over it */
  for (int i = 0; i < P->nopnds; i++)
    if (buffers_same_storage(bufs, P->opnds[i], v)) return false;
  /* p and the views of it made before P */
  PtrMap set = {0};
  ptrmap_put(&set, pv, pv);
  for (Op *op = f->body->first; op != P; op = op->next)
    if ((op->kind == OP_BITCAST_CONVERT || op->kind == OP_RESHAPE) && op->nopnds == 1 &&
        ptrmap_has(&set, op->opnds[0]))
      ptrmap_put(&set, &op->res[0], &op->res[0]);
  bool ok = true;
  for (Op *op = P->next; ok && op; op = op->next)
    if (op != ret && op_reads(op, &set)) ok = false;
  /* p (or a view of it) returned as another result is read after P too:
     that result must keep p's values, which r's elements overwrite */
  for (int i = 0; ok && i < ret->nopnds; i++)
    if (i != r && ptrmap_has(&set, ret->opnds[i])) ok = false;
  /* P itself reads p only at the index it writes, and not in its regions */
  for (int i = 0; ok && i < P->nopnds; i++)
    if (ptrmap_has(&set, P->opnds[i]) && !buffers_reads_at_index(m, P, i)) ok = false;
  UseScan u = {&set, false};
  for (int k = 0; ok && k < P->nregions; k++)
    if (!block_walk(P->regions[k], scan_uses, &u)) ok = false;
  ptrmap_free(&set);
  return ok;
}

bool dus_in_place(const BufferAssignment *bufs, const Op *op, bool vector_starts, bool *vec) {
  *vec = false;
  if (op->kind != OP_DYNAMIC_UPDATE_SLICE || op->nres != 1 || op->nopnds < 3) return false;
  const Value *x = op->opnds[0], *u = op->opnds[1];
  const Type *xt = x->type, *ut = u->type, *rt = op->res[0].type;
  if (!buffers_same_storage(bufs, x, &op->res[0])) return false;
  if (!cg_tensor_native(xt) || !cg_tensor_native(ut) || xt->elem != ut->elem || rt->elem != xt->elem ||
      !type_same_shape(xt, rt) || ut->rank != xt->rank || xt->rank < 1)
    return false;
  int rank = xt->rank, nstart = op->nopnds - 2;
  /* one scalar per dimension, or one vector of them */
  *vec = vector_starts && nstart == 1 && op->opnds[2]->type->rank == 1 && op->opnds[2]->type->dims[0] == rank;
  if (!*vec && nstart != rank) return false;
  for (int i = 2; i < op->nopnds; i++) {
    const Type *it = op->opnds[i]->type;
    if (it->kind != TY_TENSOR || it->quant || !et_is_int(it->elem) || !cg_elem_native(it->elem) ||
        (!*vec && type_num_elements(it) != 1))
      return false;
  }
  for (int d = 0; d < rank; d++)
    if (ut->dims[d] > xt->dims[d]) return false;
  return true;
}
