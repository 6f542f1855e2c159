/*
 * reduce_body.c - reduction bodies for every backend's kernels: the
 * simple combiners (one binary op of the two arguments) and their
 * identities, and general bodies evaluated by the elemental generator on
 * scalars.
 */
#include <string.h>

#include "codegen/kernel.h"

/* The single binary op of a reduction body that combines its two
   arguments, or NULL. */
Op *simple_reducer(const Op *reduce) {
  if (reduce->nregions != 1 || reduce->nres != 1) return NULL;
  Block *b = reduce->regions[0];
  if (b->nargs != 2 || !b->first || b->first->next != b->last) return NULL;
  Op *op = b->first, *ret = b->last;
  if (ret->nopnds != 1 || ret->opnds[0] != &op->res[0]) return NULL;
  switch (op->kind) {
  case OP_ADD: case OP_MULTIPLY: case OP_MAXIMUM: case OP_MINIMUM: case OP_AND: case OP_OR: case OP_XOR:
    break;
  default:
    return NULL;
  }
  if (op->nopnds != 2) return NULL;
  bool ab = op->opnds[0] == b->args[0] && op->opnds[1] == b->args[1];
  bool ba = op->opnds[0] == b->args[1] && op->opnds[1] == b->args[0];
  if (!ab && !ba) return NULL;
  return scalar_op_supported(op) ? op : NULL;
}

/* ---- general bodies ----
 * A body that is not one simple op is evaluated as a small region: the
 * accumulators and the new elements are stored into scalar slots (allocas
 * that LLVM's SROA turns back into registers) and the elemental generator
 * computes every returned value from them, all before any accumulator is
 * overwritten, exactly as the interpreter runs the region. */

/* Whether the body of reduce r (n inputs) can be generated: scalar
   arguments and results of the reduce's element types, elemental ops. */
bool reduce_body_ok(const Op *r) {
  int n = r->nres;
  if (r->nregions != 1 || n < 1 || n > 16 || r->nopnds != 2 * n) return false;
  Block *b = r->regions[0];
  Op *ret = block_terminator(b);
  if (!b || b->nargs != 2 * n || !ret || ret->nopnds != n) return false;
  for (int i = 0; i < 2 * n; i++) {
    const Type *t = b->args[i]->type;
    if (t->kind != TY_TENSOR || t->rank != 0 || t->quant || t->elem != r->res[i % n].type->elem) return false;
  }
  for (int j = 0; j < n; j++) {
    const Type *t = ret->opnds[j]->type, *rt = r->res[j].type, *it = r->opnds[j]->type, *zt = r->opnds[n + j]->type;
    if (t->kind != TY_TENSOR || t->rank != 0 || t->quant || t->elem != rt->elem) return false;
    if (it->kind != TY_TENSOR || zt->kind != TY_TENSOR || it->quant || zt->quant || rt->quant) return false;
    if (it->elem != rt->elem || zt->elem != rt->elem || zt->rank != 0 || !cg_elem_native(rt->elem)) return false;
    if (!type_same_shape(it, r->opnds[0]->type)) return false;
  }
  return elemental_supported(ret->opnds, n, b->args, 2 * n);
}



void reduce_body_init(Cg *cg, LLVMValueRef fn, const Op *r, ReduceBody *bd) {
  memset(bd, 0, sizeof *bd);
  bd->op = r;
  bd->n = r->nres;
  Block *b = r->regions[0];
  for (int i = 0; i < 2 * bd->n; i++)
    bd->slot[i] = cg_entry_alloca(cg, fn, cg_storage_type(cg, b->args[i]->type->elem), "arg");
  bd->io.ninputs = 2 * bd->n;
  bd->io.inputs = b->args;
  bd->io.input_ptrs = bd->slot;
}

/* out[j] = body(acc..., x...)[j] (compute-type values). */
void reduce_body_apply(Cg *cg, ReduceBody *bd, LLVMValueRef *acc, LLVMValueRef *x, LLVMValueRef *out) {
  Block *b = bd->op->regions[0];
  Op *ret = block_terminator(b);
  int n = bd->n;
  for (int j = 0; j < n; j++) {
    cg_store(cg, b->args[j]->type->elem, bd->slot[j], cg_i64(cg, 0), acc[j]);
    cg_store(cg, b->args[n + j]->type->elem, bd->slot[n + j], cg_i64(cg, 0), x[j]);
  }
  kernel_io_reset_memo(&bd->io);
  LLVMValueRef none[1] = {NULL};
  for (int j = 0; j < n; j++) out[j] = emit_elemental(cg, &bd->io, ret->opnds[j], none);
}

ReduceBody *reduce_body_new(Cg *cg, LLVMValueRef fn, const Op *op) {
  ReduceBody *bd = xmalloc(sizeof *bd);
  reduce_body_init(cg, fn, op, bd);
  return bd;
}

void reduce_body_free(ReduceBody *bd) {
  kernel_io_free(&bd->io);
  xfree(bd);
}

void reduce_body_release(ReduceBody *bd) { kernel_io_free(&bd->io); }

/* Reductions that can share one kernel: same input shape and dimensions,
   and everything feeding the reduces elemental. */
bool reduce_kernel_ok(const KernelSpec *k) {
  const Op *r0 = k->reduces[0];
  const Type *in0 = r0->opnds[0]->type;
  int64_t *d0;
  int nd0 = op_attr_ints(r0, "dimensions", &d0);
  if (nd0 < 0) return false;
  Value *feeds[128];
  int nf = 0;
  for (int i = 0; i < k->nroots; i++) {
    const Op *r = k->reduces[i];
    if (r->kind != OP_REDUCE || (!simple_reducer(r) && !reduce_body_ok(r))) return false;
    if (in0->kind != TY_TENSOR || !type_same_shape(r->opnds[0]->type, in0)) return false;
    int64_t *d;
    int nd = op_attr_ints(r, "dimensions", &d);
    if (nd != nd0 || (nd && memcmp(d, d0, sizeof(int64_t) * (size_t)nd) != 0)) return false;
    if (in0->rank > CG_MAX_RANK) return false;
    for (int j = 0; j < nd; j++)
      if (d[j] < 0 || d[j] >= in0->rank) return false;
    for (int j = 0; j < r->nopnds; j++) {
      if (nf == 128) return false;
      feeds[nf++] = r->opnds[j];
    }
  }
  return elemental_supported(feeds, nf, k->inputs, k->ninputs);
}

/* The identity of the combiner, as a compute-type constant: combining with
   it changes nothing (float add uses -0, so +0 stays +0). */
LLVMValueRef reduce_identity(Cg *cg, OpKind kind, ElemType et) {
  LLVMTypeRef t = cg_compute_type(cg, et);
  bool f = et_is_float(et), s = et_is_signed(et);
  switch (kind) {
  case OP_ADD: return f ? LLVMConstReal(t, -0.0) : LLVMConstInt(t, 0, 0);
  case OP_MULTIPLY: return f ? LLVMConstReal(t, 1.0) : LLVMConstInt(t, 1, 0);
  case OP_MAXIMUM:
    if (f) return LLVMConstReal(t, -1.0 / 0.0);
    if (s) return LLVMConstInt(t, 1ULL << (LLVMGetIntTypeWidth(t) - 1), 0);
    return LLVMConstInt(t, 0, 0);
  case OP_MINIMUM:
    if (f) return LLVMConstReal(t, 1.0 / 0.0);
    if (s) return LLVMConstInt(t, (1ULL << (LLVMGetIntTypeWidth(t) - 1)) - 1, 0);
    return LLVMConstAllOnes(t);
  case OP_AND: return LLVMConstAllOnes(t);
  default: return LLVMConstInt(t, 0, 0); /* or, xor */
  }
}
