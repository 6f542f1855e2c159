/*
 * kernel_reduce.c - reduction kernels: a reduce (or a reduction fusion,
 * several sibling reduces over the same input shape) whose body is one
 * binary op.  Each output element starts from the init value and takes the
 * inputs in row-major order, the interpreter's order, so results are
 * bit-identical to it and independent of the thread count.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/lower.h"

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

/* Reductions that can share one kernel: same input shape and dimensions. */
bool reduce_kernel_ok(const KernelSpec *k) {
  const Op *r0 = k->reduces[0];
  const Type *in0 = r0->opnds[0]->type;
  int64_t *d0;
  int nd0 = op_attr_ints(r0, "dimensions", &d0);
  if (nd0 < 0) return false;
  for (int i = 0; i < k->nroots; i++) {
    const Op *r = k->reduces[i];
    if (r->kind != OP_REDUCE || !simple_reducer(r)) return false;
    if (!type_same_shape(r->opnds[0]->type, in0)) return false;
    int64_t *d;
    int nd = op_attr_ints(r, "dimensions", &d);
    if (nd != nd0 || (nd && memcmp(d, d0, sizeof(int64_t) * (size_t)nd) != 0)) return false;
    if (in0->rank > CG_MAX_RANK) return false;
  }
  return true;
}

LLVMValueRef emit_reduce_kernel(Lower *L, const KernelSpec *k, int64_t *nchunks) {
  Cg *cg = &L->cg;
  const Op *r0 = k->reduces[0];
  const Type *in = r0->opnds[0]->type, *out = r0->res[0].type;
  int64_t *dims;
  int nd = op_attr_ints(r0, "dimensions", &dims);
  bool red[CG_MAX_RANK] = {0};
  for (int i = 0; i < nd; i++) red[dims[i]] = true;
  int64_t nout = type_num_elements(out);
  int64_t nred = 1;
  for (int d = 0; d < in->rank; d++)
    if (red[d]) nred *= in->dims[d];
  int64_t ch = nred >= CHUNK_ELEMS ? 1 : CHUNK_ELEMS / (nred ? nred : 1);
  *nchunks = nout > 0 ? (nout + ch - 1) / ch : 0;

  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  KernelIO io = {0};
  io.ninputs = k->ninputs;
  io.inputs = k->inputs;
  io.input_ptrs = xcalloc((size_t)(k->ninputs + 1), sizeof(LLVMValueRef));
  for (int i = 0; i < k->ninputs; i++) io.input_ptrs[i] = kernel_load_ptr(cg, ptrs, i);
  LLVMValueRef outs[64];
  for (int r = 0; r < k->nroots; r++) outs[r] = kernel_load_ptr(cg, ptrs, k->ninputs + r);

  LLVMValueRef lo = LLVMBuildMul(cg->b, chunk, cg_i64(cg, ch), "");
  LLVMValueRef hi = cg_min64(cg, LLVMBuildAdd(cg->b, lo, cg_i64(cg, ch), ""), cg_i64(cg, nout));
  Loop lo_loop = loop_begin(cg, lo, hi, "out");
  /* output index -> the kept dims of the input index */
  LLVMValueRef oidx[CG_MAX_RANK], full[CG_MAX_RANK];
  LLVMValueRef lin = lo_loop.iv;
  for (int d = out->rank - 1; d >= 0; d--) {
    LLVMValueRef dim = cg_i64(cg, out->dims[d]);
    oidx[d] = d == 0 ? lin : LLVMBuildURem(cg->b, lin, dim, "");
    if (d) lin = LLVMBuildUDiv(cg->b, lin, dim, "");
  }
  kernel_io_reset_memo(&io);
  /* init values are rank-0: generated once per output element */
  LLVMValueRef acc0[64];
  for (int r = 0; r < k->nroots; r++) acc0[r] = emit_elemental(cg, &io, k->reduces[r]->opnds[1], NULL);
  /* accumulators live in allocas: simple, and mem2reg turns them into registers */
  LLVMValueRef accp[64];
  LLVMBasicBlockRef cur = LLVMGetInsertBlock(cg->b);
  LLVMBasicBlockRef eb = LLVMGetEntryBasicBlock(fn);
  for (int r = 0; r < k->nroots; r++) {
    LLVMValueRef first = LLVMGetFirstInstruction(eb);
    LLVMPositionBuilderBefore(cg->b, first);
    accp[r] = LLVMBuildAlloca(cg->b, LLVMTypeOf(acc0[r]), "acc");
    LLVMPositionBuilderAtEnd(cg->b, cur);
    LLVMBuildStore(cg->b, acc0[r], accp[r]);
  }
  Loop loops[CG_MAX_RANK];
  int nl = 0;
  for (int d = 0, j = 0; d < in->rank; d++) {
    if (red[d]) {
      loops[nl] = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, in->dims[d]), "red");
      full[d] = loops[nl].iv;
      nl++;
    } else {
      full[d] = oidx[j++];
    }
  }
  kernel_io_reset_memo(&io);
  for (int r = 0; r < k->nroots; r++) {
    const Op *red_op = k->reduces[r];
    Op *comb = simple_reducer(red_op);
    LLVMValueRef x = emit_elemental(cg, &io, red_op->opnds[0], full);
    LLVMValueRef acc = LLVMBuildLoad2(cg->b, LLVMTypeOf(acc0[r]), accp[r], "");
    ElemType et = red_op->res[0].type->elem;
    ElemType ts[2] = {et, et};
    LLVMValueRef args[2] = {acc, x};
    LLVMValueRef nv = emit_scalar_op(cg, comb, ts, args, et);
    LLVMBuildStore(cg->b, nv, accp[r]);
  }
  for (int i = nl - 1; i >= 0; i--) loop_end(cg, &loops[i]);
  for (int r = 0; r < k->nroots; r++) {
    LLVMValueRef acc = LLVMBuildLoad2(cg->b, LLVMTypeOf(acc0[r]), accp[r], "");
    cg_store(cg, k->reduces[r]->res[0].type->elem, outs[r], lo_loop.iv, acc);
  }
  loop_end(cg, &lo_loop);
  LLVMBuildRetVoid(cg->b);
  kernel_io_free(&io);
  free(io.input_ptrs);
  return fn;
}

