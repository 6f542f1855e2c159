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
 *
 * A short window over many batch entries (an embedding gradient: rows of
 * 64 elements from 5120 lookups) would leave the GPU nearly idle with a
 * thread per window position.  There the operand is cut into ranges of
 * elements, a block of threads each (emit_by_range): the block scans the
 * batch in order, a chunk of BLOCK_T entries at a time, keeps the entries
 * whose window starts in its range (a prefix sum over the chunk's flags
 * in shared memory lists them in batch order), and applies each listed
 * entry's window with its threads side by side.  Two entries whose
 * windows start at different elements never share an element (no window
 * dim longer than 1 lies on a dim the indices move), so each element
 * belongs to one block and sees its updates in batch order, as before.
 */
#include <stdlib.h>
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

/* The update index of batch entry e at window position w (either NULL:
   0s), into uidx. */
static void update_index(Cg *cg, const ScatterDims *s, const Type *ut, LLVMValueRef e, LLVMValueRef w, LLVMValueRef *uidx) {
  int wd[CG_MAX_RANK], bd[CG_MAX_RANK], nw = 0, nb = 0;
  int64_t wdims[CG_MAX_RANK] = {0}, bdims[CG_MAX_RANK] = {0};
  for (int d = 0; d < ut->rank; d++) {
    if (ints_contain(s->window, s->nwindow, d)) {
      wd[nw] = d;
      wdims[nw++] = ut->dims[d];
    } else {
      bd[nb] = d;
      bdims[nb++] = ut->dims[d];
    }
  }
  LLVMValueRef wc[CG_MAX_RANK], bc[CG_MAX_RANK];
  if (w) gpu_delinearize(cg, w, wdims, nw, wc);
  if (e) gpu_delinearize(cg, e, bdims, nb, bc);
  for (int k = 0; k < nw; k++) uidx[wd[k]] = w ? wc[k] : cg_i64(cg, 0);
  for (int k = 0; k < nb; k++) uidx[bd[k]] = e ? bc[k] : cg_i64(cg, 0);
}

/* A scatter kernel's start: its buffers (inputs (n), indices, updates
   (n) or, with u->op, the operands of the op computing them, results (n))
   and the integer argument. */
typedef struct ScatterKernel {
  LLVMValueRef fn, cnt, ind, *upd, *res;
  LLVMValueRef ptrs[3 * MAX_SCATTER + 1 + MAX_UPDATE_INPUTS];
  const Type *xt, *ut;
  const UpdateSrc *u;
} ScatterKernel;

static void scatter_kernel_new(GpuLower *G, Op *op, const UpdateSrc *u, int nbufs, ScatterKernel *k) {
  int n = (op->nopnds - 1) / 2;
  k->xt = op->opnds[0]->type;
  k->ut = op->opnds[n + 1]->type;
  k->u = u;
  k->fn = gpu_kernel_new(G, nbufs, k->ptrs, &k->cnt);
  k->ind = k->ptrs[n];
  k->upd = k->ptrs + n + 1;
  k->res = k->ptrs + n + 1 + (u->op ? u->ninputs : n);
}

/* The update at uidx applied to the result element at off. */
static void apply_update(Cg *cg, Op *op, const ScatterKernel *k, LLVMValueRef off, LLVMValueRef *uidx) {
  if (k->u->op) {
    LLVMValueRef v = scatter_update_value(cg, k->u, k->upd, uidx);
    scatter_apply_values(cg, op, k->res, off, &v);
  } else {
    scatter_apply(cg, op, k->res, k->upd, off, cg_linearize(cg, k->ut, uidx));
  }
}

/* Buffers: as scatter_kernel_new's. */
static LLVMValueRef emit_scatter(GpuLower *G, Op *op, const ScatterDims *s, bool par, const UpdateSrc *u, int nbufs) {
  Cg *cg = &G->cg;
  ScatterKernel k;
  scatter_kernel_new(G, op, u, nbufs, &k);
  const Type *xt = k.xt, *ut = k.ut;
  LLVMValueRef fn = k.fn, cnt = k.cnt, ind = k.ind;
  /* the batch: the update dims that are not window dims */
  int64_t B = 1;
  for (int d = 0; d < ut->rank; d++)
    if (!ints_contain(s->window, s->nwindow, d)) B *= ut->dims[d];
  LLVMValueRef step;
  Loop lt = gpu_thread_loop(cg, cnt, &step, "w");
  LLVMValueRef uidx[CG_MAX_RANK];
  Loop li;
  if (par) {
    li = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, B), "b");
    update_index(cg, s, ut, li.iv, lt.iv, uidx);
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
  apply_update(cg, op, &k, cg_linearize(cg, xt, full), uidx);
  LLVMBuildBr(cg->b, next);
  LLVMPositionBuilderAtEnd(cg->b, next);
  loop_end(cg, &li);
  gpu_loop_end(cg, &lt, step);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

enum { BLOCK_T = 256, MAX_RANGES = 1024 };

/* The kernel of the file comment's ranges: block r (of the launch's n)
   owns operand elements [r range, (r + 1) range).  Buffers as
   emit_scatter's. */
static LLVMValueRef emit_by_range(GpuLower *G, Op *op, const ScatterDims *s, int64_t B, int64_t W, int64_t range,
                                  const UpdateSrc *u, int nbufs) {
  Cg *cg = &G->cg;
  ScatterKernel k;
  scatter_kernel_new(G, op, u, nbufs, &k);
  const Type *xt = k.xt, *ut = k.ut;
  LLVMValueRef fn = k.fn, cnt = k.cnt, ind = k.ind;
  LLVMValueRef scan = gpu_shared_array(cg, cg->t_i64, BLOCK_T, "xlac_scatter_scan");
  LLVMValueRef list = gpu_shared_array(cg, cg->t_i64, BLOCK_T, "xlac_scatter_list");
  LLVMValueRef tid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.tid.x");
  LLVMValueRef ctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.ctaid.x");
  LLVMValueRef nctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.nctaid.x");
  LLVMValueRef zero = cg_i64(cg, 0), uidx[CG_MAX_RANK], full[CG_MAX_RANK];
  Loop lr = gpu_loop_begin(cg, ctaid, cnt, nctaid, "range");
  LLVMValueRef lo = LLVMBuildMul(cg->b, lr.iv, cg_i64(cg, range), "lo");
  LLVMValueRef hi = LLVMBuildAdd(cg->b, lo, cg_i64(cg, range), "hi");
  Loop lc = gpu_loop_begin(cg, zero, cg_i64(cg, B), cg_i64(cg, BLOCK_T), "chunk");
  /* this thread's entry: in the block's range? */
  LLVMValueRef e = LLVMBuildAdd(cg->b, lc.iv, tid, "e");
  LLVMValueRef valid = LLVMBuildICmp(cg->b, LLVMIntSLT, e, cg_i64(cg, B), "");
  update_index(cg, s, ut, LLVMBuildSelect(cg->b, valid, e, zero, ""), NULL, uidx);
  LLVMValueRef inside = scatter_operand_index(cg, op, s, ind, uidx, full);
  LLVMValueRef start = cg_linearize(cg, xt, full);
  LLVMValueRef mine = LLVMBuildAnd(cg->b, LLVMBuildAnd(cg->b, valid, inside, ""),
                                   LLVMBuildAnd(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGE, start, lo, ""),
                                                LLVMBuildICmp(cg->b, LLVMIntSLT, start, hi, ""), ""),
                                   "mine");
  LLVMValueRef flag = LLVMBuildZExt(cg->b, mine, cg->t_i64, "");
  LLVMValueRef at = gpu_shared_at(cg, scan, tid);
  LLVMBuildStore(cg->b, flag, at);
  gpu_barrier(cg);
  /* inclusive prefix sum of the flags (Hillis-Steele) */
  for (int off = 1; off < BLOCK_T; off *= 2) {
    LLVMValueRef has = LLVMBuildICmp(cg->b, LLVMIntSGE, tid, cg_i64(cg, off), "");
    LLVMValueRef from = LLVMBuildSelect(cg->b, has, LLVMBuildSub(cg->b, tid, cg_i64(cg, off), ""), zero, "");
    LLVMValueRef v = LLVMBuildLoad2(cg->b, cg->t_i64, gpu_shared_at(cg, scan, from), "");
    v = LLVMBuildSelect(cg->b, has, v, zero, "");
    gpu_barrier(cg);
    LLVMBuildStore(cg->b, LLVMBuildAdd(cg->b, LLVMBuildLoad2(cg->b, cg->t_i64, at, ""), v, ""), at);
    gpu_barrier(cg);
  }
  LLVMBasicBlockRef next = gpu_if_begin(cg, mine);
  LLVMValueRef slot = LLVMBuildSub(cg->b, LLVMBuildLoad2(cg->b, cg->t_i64, at, ""), cg_i64(cg, 1), "");
  LLVMBuildStore(cg->b, e, gpu_shared_at(cg, list, slot));
  gpu_if_end(cg, next);
  LLVMValueRef total = LLVMBuildLoad2(cg->b, cg->t_i64, gpu_shared_at(cg, scan, cg_i64(cg, BLOCK_T - 1)), "total");
  gpu_barrier(cg);
  /* the listed entries in batch order, each window by the block's threads */
  Loop lm = gpu_loop_begin(cg, zero, total, cg_i64(cg, 1), "entry");
  LLVMValueRef le = LLVMBuildLoad2(cg->b, cg->t_i64, gpu_shared_at(cg, list, lm.iv), "");
  Loop lw = gpu_loop_begin(cg, tid, cg_i64(cg, W), cg_i64(cg, BLOCK_T), "w");
  update_index(cg, s, ut, le, lw.iv, uidx);
  scatter_operand_index(cg, op, s, ind, uidx, full);
  apply_update(cg, op, &k, cg_linearize(cg, xt, full), uidx);
  gpu_loop_end(cg, &lw, cg_i64(cg, BLOCK_T));
  gpu_loop_end(cg, &lm, cg_i64(cg, 1));
  gpu_barrier(cg);
  gpu_loop_end(cg, &lc, cg_i64(cg, BLOCK_T));
  gpu_loop_end(cg, &lr, nctaid);
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
  /* the updates computed by the kernel: the buffers of their producer's
     operands in place of theirs (that producer launches nothing,
     gpu_scatter_takes_update) */
  UpdateSrc u = {0};
  if (!scatter_update_src(G->cg.m, G->buffers, G->program ? NULL : G->alias_param, G->nalias, op, &u))
    u = (UpdateSrc){0};
  if (u.op) {
    nbufs = 2 + u.op->nopnds + 1;
    bufs = xcalloc((size_t)nbufs, sizeof(GpuBuf));
    bool ok = gpu_value_buf(G, op->opnds[0], &bufs[0]) && gpu_value_buf(G, op->opnds[1], &bufs[1]);
    for (int i = 0; ok && i < u.op->nopnds; i++) ok = gpu_value_buf(G, u.op->opnds[i], &bufs[2 + i]);
    if (!ok || !gpu_value_buf(G, &op->res[0], &bufs[nbufs - 1])) {
      gpu_unsupported(G, op, "a value without device storage; ");
      xfree(bufs);
      return;
    }
    G->nfusions++;
  } else if (!gpu_op_bufs(G, op, 0, &bufs, &nbufs)) {
    return;
  }
  int nsrc = u.op ? u.op->nopnds : n;
  for (int k = 0; k < n; k++) gpu_add_copy(G, bufs[n + 1 + nsrc + k], bufs[k]);
  const Type *xt = op->opnds[0]->type, *ut = op->opnds[n + 1]->type;
  if (type_num_elements(ut) == 0 || type_num_elements(xt) == 0) {
    xfree(bufs);
    return;
  }
  bool par = window_parallel(op, &s);
  int64_t W = 1;
  for (int k = 0; k < s.nwindow; k++) W *= ut->dims[s.window[k]];
  int64_t B = type_num_elements(ut) / W;
  /* by range: a short window (fewer threads than a few blocks' worth)
     over a batch of at least a block's length (XLAC_GPU_SCATTER_RANGES=1
     always, =0 never); as many ranges as the operand has windows' worth
     of elements, at most MAX_RANGES, fewer where B is long (each block
     reads every entry's indices) */
  const char *env = getenv("XLAC_GPU_SCATTER_RANGES");
  bool by_range = env && *env ? strcmp(env, "1") == 0 : W < 16 * GPU_LOOP_THREADS && B >= BLOCK_T;
  if (par && by_range) {
    int64_t X = type_num_elements(xt), nr = X / W;
    if (nr > MAX_RANGES) nr = MAX_RANGES;
    if (nr > ((int64_t)1 << 28) / B) nr = ((int64_t)1 << 28) / B;
    if (nr < 1) nr = 1;
    int64_t range = (X + nr - 1) / nr;
    nr = (X + range - 1) / range;
    gpu_add_launch(G, op, emit_by_range(G, op, &s, B, W, range, &u, nbufs), nr, nr, BLOCK_T, bufs, nbufs);
    return;
  }
  int64_t threads = par ? W : 1;
  LLVMValueRef fn = emit_scatter(G, op, &s, par, &u, nbufs);
  gpu_add_launch(G, op, fn, threads, (threads + GPU_LOOP_THREADS - 1) / GPU_LOOP_THREADS,
                 threads < GPU_LOOP_THREADS ? (int)((threads + 31) / 32 * 32) : GPU_LOOP_THREADS, bufs, nbufs);
}

/* A dynamic_update_slice that buffer assignment computed in place (its
   operand dies there: a loop writing one step of its output per
   iteration) writes its window and nothing else: a thread per update
   element, the start indices clamped as the spec says.  The elementwise
   kernel would rewrite the whole operand, a cost that grows with the
   length of a scan at every step. */
static bool dus_in_place_ok(GpuLower *G, const Op *op) {
  bool vec; /* one scalar start per dimension only */
  return dus_in_place(G->buffers, op, false, &vec);
}

/* The op whose result is the update of the in-place dynamic_update_slice
   dus when the window kernel computes that update itself (no launch and
   no buffer for it): a loop fusion or elementwise op right before dus
   (so no op between them reuses its operands' storage), whose result dies
   at dus as its update alone, and none of whose operands lives in the
   storage dus writes.  NULL otherwise. */
static Op *update_producer(GpuLower *G, const Op *dus) {
  if (!dus_in_place_ok(G, dus)) return NULL;
  Value *u = dus->opnds[1];
  Op *P = u->def;
  if (!P || P->next != dus || P->parent != dus->parent) return NULL;
  const Buffer *b = buffers_get(G->buffers, u);
  if (!b || b->end > b->start + 1) return NULL;
  for (int i = 0; i < dus->nopnds; i++)
    if (i != 1 && dus->opnds[i] == u) return NULL;
  for (int i = 0; i < P->nopnds; i++)
    if (buffers_same_storage(G->buffers, P->opnds[i], &dus->res[0])) return NULL;
  UpdateSrc src;
  return elemental_producer(G->cg.m, P, false, &src) ? P : NULL;
}

bool gpu_scatter_takes_update(GpuLower *G, Op *op) {
  return scatter_update_taken(G->cg.m, G->buffers, G->program ? NULL : G->alias_param, G->nalias, op);
}

bool gpu_dus_takes_update(GpuLower *G, Op *op) {
  return op->next && op->next->kind == OP_DYNAMIC_UPDATE_SLICE && update_producer(G, op->next) == op;
}

bool gpu_lower_dus_in_place(GpuLower *G, Op *op) {
  if (!dus_in_place_ok(G, op)) return false;
  const Type *xt = op->opnds[0]->type, *ut = op->opnds[1]->type;
  int rank = xt->rank;
  Op *P = update_producer(G, op);
  UpdateSrc src = {0};
  if (P) elemental_producer(G->cg.m, P, false, &src);
  /* the buffers: the update (or its producer's operands), the start
     indices, the result */
  int nsrc = P ? P->nopnds : 1, nbufs = nsrc + rank + 1;
  GpuBuf *bufs = xcalloc((size_t)nbufs + 1, sizeof(GpuBuf));
  bool ok = true;
  for (int i = 0; ok && i < nsrc; i++) ok = gpu_value_buf(G, P ? P->opnds[i] : op->opnds[1], &bufs[i]);
  for (int d = 0; ok && d < rank; d++) ok = gpu_value_buf(G, op->opnds[2 + d], &bufs[nsrc + d]);
  if (ok) ok = gpu_value_buf(G, &op->res[0], &bufs[nbufs - 1]);
  if (!ok) {
    gpu_unsupported(G, op, "a value without device storage; ");
    xfree(bufs);
    return true;
  }
  int64_t n = type_num_elements(ut);
  if (n == 0) { /* nothing to write: the storage holds the operand */
    xfree(bufs);
    return true;
  }
  Cg *cg = &G->cg;
  LLVMBasicBlockRef saved = LLVMGetInsertBlock(cg->b);
  LLVMValueRef *ptrs = xcalloc((size_t)nbufs + 1, sizeof(LLVMValueRef)), nv;
  LLVMValueRef fn = gpu_kernel_new(G, nbufs, ptrs, &nv);
  LLVMValueRef start[CG_MAX_RANK];
  for (int d = 0; d < rank; d++) {
    ElemType ie = op->opnds[2 + d]->type->elem;
    LLVMValueRef v = cg_index_to_i64(cg, ie, cg_load(cg, ie, ptrs[nsrc + d], cg_i64(cg, 0)));
    start[d] = cg_clamp_i64(cg, v, 0, xt->dims[d] - ut->dims[d]);
  }
  LLVMValueRef stride;
  Loop l = gpu_thread_loop(cg, nv, &stride, "i");
  LLVMValueRef idx[CG_MAX_RANK], at[CG_MAX_RANK];
  gpu_delinearize(cg, l.iv, ut->dims, rank, idx);
  for (int d = 0; d < rank; d++) at[d] = LLVMBuildNSWAdd(cg->b, idx[d], start[d], "");
  LLVMValueRef v;
  if (P) {
    v = scatter_update_value(cg, &src, ptrs, idx);
  } else {
    v = cg_load(cg, ut->elem, ptrs[0], l.iv);
  }
  cg_store(cg, xt->elem, ptrs[nbufs - 1], cg_linearize(cg, xt, at), v);
  gpu_loop_end(cg, &l, stride);
  LLVMBuildRetVoid(cg->b);
  if (saved) LLVMPositionBuilderAtEnd(cg->b, saved);
  xfree(ptrs);
  if (gpu_add_thread_launch(G, op, fn, n, bufs, nbufs) && P) G->nfusions++;
  return true;
}
