/*
 * scatter.c - scatter on the GPU, deterministic: every result element
 * sees its updates in the interpreter's order (row-major over the update
 * tensor), with no atomics.
 *
 * The operands are first copied into the results (copy kernels).  Then
 * the update tensor's elements are split into a batch part (the update
 * dims that are not window dims, which choose start indices) and a window
 * part.  When no window dim longer than 1 lands on an operand dim that the
 * start indices move (scatter_dims_to_operand_dims), two different window
 * positions can never reach the same result element, whatever the
 * indices: then one thread takes each window position and walks the batch
 * in order (the embedding-gradient form: rows of an update added into the
 * rows the indices name).  Otherwise a single thread applies every update
 * in the interpreter's order: correct for any indices, slow for large
 * updates (a sort-based kernel is the way to parallelize those).
 */
#include <string.h>

#include "codegen/kernel.h"
#include "gpu/kernels.h"

static bool window_parallel(const Op *op, const ScatterDims *s) {
  int n = (op->nopnds - 1) / 2;
  const Type *ut = op->opnds[n + 1]->type;
  for (int d = 0, k = 0; d < ut->rank; d++) {
    if (!ints_contain(s->window, s->nwindow, d)) continue;
    while (ints_contain(s->inserted, s->ninserted, k) || ints_contain(s->obatch, s->nobatch, k)) k++;
    if (ut->dims[d] > 1 && ints_contain(s->map, s->nmap, k)) return false;
    k++;
  }
  return true;
}

/* Buffers: inputs (n), indices, updates (n), results (n). */
static LLVMValueRef emit_scatter(GpuLower *G, Op *op, const ScatterDims *s, bool par, int nbufs) {
  Cg *cg = &G->cg;
  int n = (op->nopnds - 1) / 2;
  const Type *xt = op->opnds[0]->type, *ut = op->opnds[n + 1]->type;
  LLVMValueRef ptrs[4 * MAX_SCATTER + 2], cnt;
  LLVMValueRef fn = gpu_kernel_new(G, nbufs, ptrs, &cnt);
  LLVMValueRef ind = ptrs[n], *upd = ptrs + n + 1, *res = ptrs + 2 * n + 1;
  /* window dims and batch dims of the update tensor, and their sizes */
  int wd[CG_MAX_RANK], bd[CG_MAX_RANK], nw = 0, nb = 0;
  int64_t wdims[CG_MAX_RANK], bdims[CG_MAX_RANK], B = 1;
  for (int d = 0; d < ut->rank; d++) {
    if (ints_contain(s->window, s->nwindow, d)) {
      wd[nw] = d;
      wdims[nw++] = ut->dims[d];
    } else {
      bd[nb] = d;
      bdims[nb++] = ut->dims[d];
      B *= ut->dims[d];
    }
  }
  LLVMValueRef step;
  Loop lt = gpu_thread_loop(cg, cnt, &step, "w");
  LLVMValueRef uidx[CG_MAX_RANK];
  Loop li;
  if (par) {
    LLVMValueRef wc[CG_MAX_RANK], bc[CG_MAX_RANK];
    gpu_delinearize(cg, lt.iv, wdims, nw, wc);
    li = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, B), "b");
    gpu_delinearize(cg, li.iv, bdims, nb, bc);
    for (int k = 0; k < nw; k++) uidx[wd[k]] = wc[k];
    for (int k = 0; k < nb; k++) uidx[bd[k]] = bc[k];
  } else {
    li = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, type_num_elements(ut)), "u");
    gpu_delinearize(cg, li.iv, ut->dims, ut->rank, uidx);
  }
  LLVMValueRef full[CG_MAX_RANK];
  LLVMValueRef inside = scatter_operand_index(cg, op, s, ind, uidx, full);
  LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(cg->ctx, fn, "apply");
  LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(cg->ctx, fn, "next");
  LLVMBuildCondBr(cg->b, inside, then, next);
  LLVMPositionBuilderAtEnd(cg->b, then);
  scatter_apply(cg, op, res, upd, cg_linearize(cg, xt, full), cg_linearize(cg, ut, uidx));
  LLVMBuildBr(cg->b, next);
  LLVMPositionBuilderAtEnd(cg->b, next);
  loop_end(cg, &li);
  gpu_loop_end(cg, &lt, step);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

void gpu_lower_scatter(GpuLower *G, Op *op) {
  ScatterDims s;
  if (!scatter_ok(op, &s)) {
    gpu_unsupported(G, op, "");
    return;
  }
  int n = (op->nopnds - 1) / 2;
  GpuBuf *bufs;
  int nbufs;
  if (!gpu_op_bufs(G, op, 0, &bufs, &nbufs)) return;
  for (int k = 0; k < n; k++) gpu_add_copy(G, bufs[2 * n + 1 + k], bufs[k]);
  const Type *xt = op->opnds[0]->type, *ut = op->opnds[n + 1]->type;
  if (type_num_elements(ut) == 0 || type_num_elements(xt) == 0) {
    xfree(bufs);
    return;
  }
  bool par = window_parallel(op, &s);
  int64_t W = 1;
  for (int k = 0; k < s.nwindow; k++) W *= ut->dims[s.window[k]];
  int64_t threads = par ? W : 1;
  LLVMValueRef fn = emit_scatter(G, op, &s, par, nbufs);
  gpu_add_launch(G, op, fn, threads, (threads + GPU_LOOP_THREADS - 1) / GPU_LOOP_THREADS,
                 threads < GPU_LOOP_THREADS ? (int)((threads + 31) / 32 * 32) : GPU_LOOP_THREADS, bufs, nbufs);
}
