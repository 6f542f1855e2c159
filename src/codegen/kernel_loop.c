/*
 * kernel_loop.c - loop kernels: a fusion of elementwise and index-mapping
 * ops (or one such op).  Every output element is computed in registers by
 * the elemental generator; intermediates never touch memory.  When only
 * elementwise ops connect same-shaped values the kernel is one flat loop
 * the vectorizer turns into full-width SIMD; otherwise a loop nest whose
 * innermost dimension is contiguous.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/lower.h"

/* Do all values between roots and inputs share one shape, with only
   elementwise ops between them?  Then the kernel is one flat loop. */
static bool flat_ok(Value *v, const Type *shape, Value *const *inputs, int n, PtrMap *seen) {
  for (int i = 0; i < n; i++)
    if (inputs[i] == v) return v->type->rank == 0 || type_same_shape(v->type, shape);
  if (ptrmap_has(seen, v)) return true;
  ptrmap_put(seen, v, (void *)1);
  Op *op = v->def;
  if (!op) return false;
  if (op->kind == OP_CONSTANT) {
    const Literal *l = op_attr(op, "value")->lit;
    return v->type->rank == 0 || l->n <= 1 || type_same_shape(v->type, shape);
  }
  if (!op_has_flag(op->kind, OPF_EW)) return false;
  if (v->type->rank != 0 && !type_same_shape(v->type, shape)) return false;
  for (int i = 0; i < op->nopnds; i++)
    if (!flat_ok(op->opnds[i], shape, inputs, n, seen)) return false;
  return true;
}


/* Emits a loop kernel; returns the kernel function and the chunk count. */
LLVMValueRef emit_loop_kernel(Lower *L, const KernelSpec *k, int64_t *nchunks) {
  Cg *cg = &L->cg;
  const Type *shape = k->roots[0]->type;
  int rank = shape->rank;
  int64_t n = type_num_elements(shape);
  PtrMap seen = {0};
  bool flat = true;
  for (int r = 0; r < k->nroots && flat; r++) flat = flat_ok(k->roots[r], shape, k->inputs, k->ninputs, &seen);
  ptrmap_free(&seen);

  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  KernelIO io = {0};
  io.ninputs = k->ninputs;
  io.inputs = k->inputs;
  io.input_ptrs = xcalloc((size_t)(k->ninputs + 1), sizeof(LLVMValueRef));
  for (int i = 0; i < k->ninputs; i++) io.input_ptrs[i] = kernel_load_ptr(cg, ptrs, i);
  LLVMValueRef *outs = xcalloc((size_t)k->nroots, sizeof(LLVMValueRef));
  for (int r = 0; r < k->nroots; r++) outs[r] = kernel_load_ptr(cg, ptrs, k->ninputs + r);

  LLVMValueRef idx[CG_MAX_RANK];
  if (flat || rank <= 1) {
    /* one loop over the linear index: idx = [0, ..., 0, i] */
    int64_t ch = CHUNK_ELEMS;
    *nchunks = n > 0 ? (n + ch - 1) / ch : 0;
    LLVMValueRef lo = LLVMBuildMul(cg->b, chunk, cg_i64(cg, ch), "");
    LLVMValueRef hi = cg_min64(cg, LLVMBuildAdd(cg->b, lo, cg_i64(cg, ch), ""), cg_i64(cg, n));
    Loop l = loop_begin(cg, lo, hi, "flat");
    for (int d = 0; d < rank; d++) idx[d] = d == rank - 1 ? l.iv : cg_i64(cg, 0);
    kernel_io_reset_memo(&io);
    for (int r = 0; r < k->nroots; r++) {
      LLVMValueRef v = emit_elemental(cg, &io, k->roots[r], idx);
      cg_store(cg, k->roots[r]->type->elem, outs[r], l.iv, v);
    }
    loop_end(cg, &l);
  } else {
    /* a nest; chunks split dimension 0 */
    int64_t inner = n / (shape->dims[0] ? shape->dims[0] : 1);
    int64_t ch0 = inner >= CHUNK_ELEMS ? 1 : CHUNK_ELEMS / (inner ? inner : 1);
    *nchunks = n > 0 ? (shape->dims[0] + ch0 - 1) / ch0 : 0;
    LLVMValueRef lo = LLVMBuildMul(cg->b, chunk, cg_i64(cg, ch0), "");
    LLVMValueRef hi = cg_min64(cg, LLVMBuildAdd(cg->b, lo, cg_i64(cg, ch0), ""), cg_i64(cg, shape->dims[0]));
    Loop loops[CG_MAX_RANK];
    loops[0] = loop_begin(cg, lo, hi, "d0");
    idx[0] = loops[0].iv;
    for (int d = 1; d < rank; d++) {
      loops[d] = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, shape->dims[d]), "d");
      idx[d] = loops[d].iv;
    }
    LLVMValueRef lin = cg_i64(cg, 0);
    for (int d = 0; d < rank; d++)
      lin = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, lin, cg_i64(cg, shape->dims[d]), ""), idx[d], "");
    kernel_io_reset_memo(&io);
    for (int r = 0; r < k->nroots; r++) {
      LLVMValueRef v = emit_elemental(cg, &io, k->roots[r], idx);
      cg_store(cg, k->roots[r]->type->elem, outs[r], lin, v);
    }
    for (int d = rank - 1; d >= 0; d--) loop_end(cg, &loops[d]);
  }
  LLVMBuildRetVoid(cg->b);
  kernel_io_free(&io);
  free(io.input_ptrs);
  free(outs);
  return fn;
}

