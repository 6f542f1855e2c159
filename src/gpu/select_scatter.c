/*
 * select_scatter.c - select_and_scatter on the GPU (max pooling's
 * gradient), deterministic and identical to the interpreter.
 *
 * The interpreter starts every result element at the init value, then for
 * each source element in row-major order selects a position of its window
 * (the select region decides between the current choice and each next
 * position) and combines the source value into the result there.  Here
 * one thread owns each result element y: it walks, in row-major order,
 * the windows that can contain y (a box of source indices per dimension),
 * selects each one's position as the interpreter does, and combines the
 * source value when the choice is y.  Each result element therefore sees
 * the same combines in the same order, with no atomics.
 */
#include <string.h>

#include "codegen/kernel.h"
#include "gpu/kernels.h"

typedef struct SelWin {
  int rank;
  int64_t size[CG_MAX_RANK], stride[CG_MAX_RANK], lo[CG_MAX_RANK];
} SelWin;

static bool sel_attrs(const Op *op, int rank, SelWin *w) {
  int64_t *v;
  w->rank = rank;
  if (op_attr_ints(op, "window_dimensions", &v) != rank) return false;
  for (int d = 0; d < rank; d++) {
    w->size[d] = v[d];
    if (v[d] < 1) return false;
  }
  int n = op_attr_ints(op, "window_strides", &v);
  if (n != 0 && n != rank) return false;
  for (int d = 0; d < rank; d++) {
    w->stride[d] = n ? v[d] : 1;
    if (w->stride[d] < 1) return false;
  }
  n = op_attr_ints(op, "padding", &v);
  if (n != 0 && n != 2 * rank) return false;
  for (int d = 0; d < rank; d++) w->lo[d] = n ? v[2 * d] : 0;
  return true;
}

/* region(a, b) of scalars at element pointers a and b. */
static LLVMValueRef region2(Cg *cg, Block *body, LLVMValueRef a, LLVMValueRef b) {
  LLVMValueRef args[2] = {a, b};
  return gpu_region_value(cg, body, args);
}

static LLVMValueRef eptr(Cg *cg, ElemType et, LLVMValueRef base, LLVMValueRef off) {
  return LLVMBuildGEP2(cg->b, cg_storage_type(cg, et), base, &off, 1, "");
}

/* floor(a / b) for b > 0 */
static LLVMValueRef floordiv(Cg *cg, LLVMValueRef a, int64_t b) {
  LLVMValueRef q = LLVMBuildSDiv(cg->b, a, cg_i64(cg, b), "");
  LLVMValueRef r = LLVMBuildSRem(cg->b, a, cg_i64(cg, b), "");
  LLVMValueRef neg = LLVMBuildICmp(cg->b, LLVMIntSLT, r, cg_i64(cg, 0), "");
  return LLVMBuildSelect(cg->b, neg, LLVMBuildSub(cg->b, q, cg_i64(cg, 1), ""), q, "");
}

/* Buffers: operand, source, init, result. */
static LLVMValueRef emit_sel(GpuLower *G, Op *op, const SelWin *w) {
  Cg *cg = &G->cg;
  const Type *xt = op->opnds[0]->type, *st = op->opnds[1]->type;
  ElemType xe = xt->elem, se = st->elem, re = op->res[0].type->elem;
  int rank = xt->rank;
  LLVMValueRef ptrs[5], cnt;
  LLVMValueRef fn = gpu_kernel_new(G, 4, ptrs, &cnt);
  LLVMValueRef x = ptrs[0], src = ptrs[1], init = ptrs[2], out = ptrs[3];
  LLVMValueRef acc = cg_entry_alloca(cg, fn, cg_storage_type(cg, re), "acc");
  LLVMValueRef best = cg_entry_alloca(cg, fn, cg->t_i64, "best");
  int64_t xs[CG_MAX_RANK], ss[CG_MAX_RANK], s = 1, t = 1;
  for (int d = rank - 1; d >= 0; d--) {
    xs[d] = s;
    s *= xt->dims[d];
    ss[d] = t;
    t *= st->dims[d];
  }
  int64_t wn = 1;
  for (int d = 0; d < rank; d++) wn *= w->size[d];
  LLVMValueRef step;
  Loop ly = gpu_thread_loop(cg, cnt, &step, "y");
  LLVMValueRef yc[CG_MAX_RANK];
  gpu_delinearize(cg, ly.iv, xt->dims, rank, yc);
  /* acc = init */
  LLVMTypeRef rt = cg_storage_type(cg, re);
  LLVMBuildStore(cg->b, LLVMBuildLoad2(cg->b, rt, eptr(cg, re, init, cg_i64(cg, 0)), ""), acc);
  /* the windows that can hold y: s_d in [ceil((p - size + 1) / stride), floor(p / stride)], p = y_d + lo_d */
  Loop ls[CG_MAX_RANK];
  LLVMValueRef soff = cg_i64(cg, 0), sc[CG_MAX_RANK];
  for (int d = 0; d < rank; d++) {
    LLVMValueRef p = LLVMBuildAdd(cg->b, yc[d], cg_i64(cg, w->lo[d]), "");
    LLVMValueRef first = floordiv(cg, LLVMBuildAdd(cg->b, LLVMBuildSub(cg->b, p, cg_i64(cg, w->size[d]), ""),
                                                   cg_i64(cg, w->stride[d]), ""), w->stride[d]);
    LLVMValueRef last = floordiv(cg, p, w->stride[d]);
    LLVMValueRef lo = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, first, cg_i64(cg, 0), ""), cg_i64(cg, 0), first, "");
    LLVMValueRef hi = cg_min64(cg, LLVMBuildAdd(cg->b, last, cg_i64(cg, 1), ""), cg_i64(cg, st->dims[d]));
    ls[d] = loop_begin(cg, lo, hi, "s");
    sc[d] = ls[d].iv;
    soff = LLVMBuildAdd(cg->b, soff, LLVMBuildMul(cg->b, sc[d], cg_i64(cg, ss[d]), ""), "");
  }
  /* select in window s: best = first inside position, then by the region */
  LLVMBuildStore(cg->b, cg_i64(cg, -1), best);
  Loop lw = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, wn), "w");
  LLVMValueRef wc[CG_MAX_RANK];
  gpu_delinearize(cg, lw.iv, w->size, rank, wc);
  LLVMValueRef inside = LLVMConstInt(cg->t_i1, 1, 0), off = cg_i64(cg, 0);
  for (int d = 0; d < rank; d++) {
    LLVMValueRef q = LLVMBuildSub(cg->b, LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, sc[d], cg_i64(cg, w->stride[d]), ""), wc[d], ""),
                                  cg_i64(cg, w->lo[d]), "");
    inside = LLVMBuildAnd(cg->b, inside, LLVMBuildICmp(cg->b, LLVMIntULT, q, cg_i64(cg, xt->dims[d]), ""), "");
    off = LLVMBuildAdd(cg->b, off, LLVMBuildMul(cg->b, q, cg_i64(cg, xs[d]), ""), "");
  }
  LLVMBasicBlockRef in = LLVMAppendBasicBlockInContext(cg->ctx, fn, "inside");
  LLVMBasicBlockRef cmp = LLVMAppendBasicBlockInContext(cg->ctx, fn, "compare");
  LLVMBasicBlockRef take = LLVMAppendBasicBlockInContext(cg->ctx, fn, "take");
  LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(cg->ctx, fn, "next");
  LLVMBuildCondBr(cg->b, inside, in, next);
  LLVMPositionBuilderAtEnd(cg->b, in);
  LLVMValueRef cur = LLVMBuildLoad2(cg->b, cg->t_i64, best, "");
  LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, cur, cg_i64(cg, 0), ""), take, cmp);
  LLVMPositionBuilderAtEnd(cg->b, cmp);
  /* keep the current choice when select(current, candidate) holds */
  LLVMValueRef keep = region2(cg, op->regions[0], eptr(cg, xe, x, cur), eptr(cg, xe, x, off));
  LLVMBuildCondBr(cg->b, keep, next, take);
  LLVMPositionBuilderAtEnd(cg->b, take);
  LLVMBuildStore(cg->b, off, best);
  LLVMBuildBr(cg->b, next);
  LLVMPositionBuilderAtEnd(cg->b, next);
  loop_end(cg, &lw);
  /* the choice is y: combine the source value */
  LLVMValueRef chosen = LLVMBuildICmp(cg->b, LLVMIntEQ, LLVMBuildLoad2(cg->b, cg->t_i64, best, ""), ly.iv, "");
  LLVMBasicBlockRef add = LLVMAppendBasicBlockInContext(cg->ctx, fn, "combine");
  LLVMBasicBlockRef skip = LLVMAppendBasicBlockInContext(cg->ctx, fn, "skip");
  LLVMBuildCondBr(cg->b, chosen, add, skip);
  LLVMPositionBuilderAtEnd(cg->b, add);
  LLVMValueRef v = region2(cg, op->regions[1], acc, eptr(cg, se, src, soff));
  cg_store(cg, re, acc, cg_i64(cg, 0), v);
  LLVMBuildBr(cg->b, skip);
  LLVMPositionBuilderAtEnd(cg->b, skip);
  for (int d = rank - 1; d >= 0; d--) loop_end(cg, &ls[d]);
  LLVMBuildStore(cg->b, LLVMBuildLoad2(cg->b, rt, acc, ""), eptr(cg, re, out, ly.iv));
  gpu_loop_end(cg, &ly, step);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

void gpu_lower_select_and_scatter(GpuLower *G, Op *op) {
  SelWin w;
  bool ok = op->nopnds == 3 && op->nres == 1 && op->nregions == 2;
  const Type *xt = ok ? op->opnds[0]->type : NULL, *st = ok ? op->opnds[1]->type : NULL;
  ok = ok && xt->kind == TY_TENSOR && st->kind == TY_TENSOR && xt->rank >= 1 && xt->rank <= CG_MAX_RANK &&
       st->rank == xt->rank && cg_tensor_native(xt) && cg_tensor_native(st) &&
       cg_tensor_native(op->res[0].type) && type_same_shape(op->res[0].type, xt) &&
       op->res[0].type->elem == st->elem && op->opnds[2]->type->elem == st->elem && sel_attrs(op, xt->rank, &w) &&
       type_num_elements(xt) <= INT32_MAX;
  for (int r = 0; ok && r < 2; r++) {
    Block *b = op->regions[r];
    Op *ret = block_terminator(b);
    ok = b->nargs == 2 && ret && ret->nopnds == 1 && elemental_supported(ret->opnds, 1, b->args, 2);
  }
  if (!ok) {
    gpu_unsupported(G, op, "");
    return;
  }
  GpuBuf *bufs;
  int nbufs;
  if (!gpu_op_bufs(G, op, 0, &bufs, &nbufs)) return;
  int64_t n = type_num_elements(xt);
  if (n == 0) {
    xfree(bufs);
    return;
  }
  LLVMValueRef fn = emit_sel(G, op, &w);
  gpu_add_thread_launch(G, op, fn, n, bufs, nbufs);
}
