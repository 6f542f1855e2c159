/*
 * reduce.c - reduction kernels for the GPU: a reduce op, or a reduction
 * fusion (sibling reduces over one input shape with their elementwise
 * producers computed on the fly by the elemental generator).
 *
 * reduce_window (at the end): one thread per output folds its window in
 * the interpreter's order; a window over each output's whole prefix
 * (cumsum) is a running fold, one thread per line.
 *
 * Two shapes of reduction kernel:
 *
 *  - row: the reduced dims come after every kept dim (a full reduction is
 *    the case of one output) and every reducer is a single
 *    add/mul/max/min/and/or/xor.  The reduced range of each output is cut
 *    into C chunks, C a function of the problem size only; a block of T
 *    threads (T also chosen from the size) takes one (output, chunk) unit
 *    at a time: thread t folds elements t, t+T, t+2T, ... of the chunk
 *    from the reducer's identity, the 32 lanes of a warp are combined by a
 *    butterfly of shuffles (lane i with lane i^16, then ^8, ^4, ^2, ^1),
 *    and the warps' values through shared memory by warp 0 in the same
 *    way.  With one chunk, thread 0 combines the init value with the total
 *    and stores the result; with several, the chunk totals go to scratch
 *    and a second kernel folds them from the init value in chunk order.
 *    The tree is fixed by T and C, so results do not depend on the grid,
 *    the device or timing (no atomics); they differ from the interpreter's
 *    sequential order by reassociation only.
 *  - sequential: one thread per output accumulates from the init value
 *    over the reduced dims in row-major order, exactly as the interpreter
 *    does (bit-identical results).  Column reductions (kept dims after the
 *    reduced ones) take this form: neighbouring threads read neighbouring
 *    elements.  Few outputs over a long range (plan_of: C > 1) are cut
 *    into chunks, a thread per (chunk, output) folding from the identity,
 *    the chunk totals folded from the init by emit_chunks as for rows.  Variadic reduces and bodies that are not one op
 *    (argmax-style selects) run their body through the elemental
 *    generator.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/kernel.h"
#include "gpu/kernels.h"
#include "passes/passes.h"

enum { MAX_SLOTS = 32 };
/* column reductions: threads to aim for, the shortest chunk */
enum { COL_THREADS = 131072, COL_MIN_CHUNK = 64 };

typedef struct Plan {
  const Type *in;
  bool red[CG_MAX_RANK];
  int64_t rdims[CG_MAX_RANK];
  int nr;
  int64_t nout, nred;
  bool inner, row, flat; /* inner: the reduced dims trail the kept ones */
  int T;          /* threads a block (row) */
  int64_t C, L;   /* chunks per output, elements per chunk (row) */
  /* slots: the results of the distinct reduce ops */
  int nops, nslots;
  Op *op[MAX_SLOTS];
  int first[MAX_SLOTS];
  int root_slot[MAX_SLOTS];
  ReduceBody *body[MAX_SLOTS];
} Plan;

static ElemType slot_et(const Plan *p, int s) {
  for (int o = p->nops - 1; o >= 0; o--)
    if (s >= p->first[o]) return p->op[o]->res[s - p->first[o]].type->elem;
  return ET_F32;
}

static bool shuffle_type_ok(ElemType et) { return cg_elem_basic(et) && !et_is_complex(et) && et_bits(et) <= 64; }

int gpu_row_threads(int64_t n) { return n >= 4096 ? 256 : n >= 1024 ? 128 : n >= 256 ? 64 : 32; }

static bool plan_of(Plan *p, const KernelSpec *k) {
  memset(p, 0, sizeof *p);
  if (k->nroots > MAX_SLOTS) return false;
  for (int r = 0; r < k->nroots; r++) {
    Op *op = k->reduces[r];
    int o = 0;
    while (o < p->nops && p->op[o] != op) o++;
    if (o == p->nops) {
      if (p->nslots + op->nres > MAX_SLOTS) return false;
      p->op[o] = op;
      p->first[o] = p->nslots;
      p->nslots += op->nres;
      p->nops++;
    }
    p->root_slot[r] = p->first[o] + k->roots[r]->index;
  }
  const Op *r0 = k->reduces[0];
  p->in = r0->opnds[0]->type;
  int64_t *dims;
  int nd = op_attr_ints(r0, "dimensions", &dims);
  for (int i = 0; i < nd; i++) p->red[dims[i]] = true;
  p->nout = type_num_elements(r0->res[0].type);
  p->nred = 1;
  for (int d = 0; d < p->in->rank; d++)
    if (p->red[d]) {
      p->rdims[p->nr++] = p->in->dims[d];
      p->nred *= p->in->dims[d];
    }
  /* row: every non-unit reduced dim after every non-unit kept dim */
  bool seen_red = false;
  p->inner = true;
  for (int d = 0; d < p->in->rank; d++) {
    if (p->in->dims[d] == 1) continue;
    if (p->red[d]) seen_red = true;
    else if (seen_red) p->inner = false;
  }
  p->row = p->inner;
  for (int o = 0; o < p->nops && p->row; o++)
    p->row = simple_reducer(p->op[o]) && shuffle_type_ok(p->op[o]->res[0].type->elem);
  if (p->nred < 2 * GPU_WARP || p->nout == 0) p->row = false;
  PtrMap seen = {0};
  p->flat = p->inner;
  for (int o = 0; o < p->nops && p->flat; o++)
    for (int j = 0; j < p->op[o]->nres && p->flat; j++)
      p->flat = elemental_flat(p->op[o]->opnds[j], p->in, k->inputs, k->ninputs, &seen);
  ptrmap_free(&seen);
  if (p->row) {
    p->T = gpu_row_threads(p->nred);
    /* enough units to fill a large GPU when there are few outputs, each
       chunk still long enough to be worth a block */
    p->C = 1;
    if (p->nout < 1024) {
      int64_t by_len = p->nred / ((int64_t)p->T * 16), by_out = (2048 + p->nout - 1) / p->nout;
      p->C = by_len < by_out ? by_len : by_out;
      if (p->C < 1) p->C = 1;
    }
    p->L = (p->nred + p->C - 1) / p->C;
    p->C = (p->nred + p->L - 1) / p->L;
  } else if (!p->inner && p->nout > 0 && p->nout < COL_THREADS / 2) {
    /* a column reduction of few outputs over a long range (a bias's or a
       norm's gradient: 64 outputs over 12544 positions) cut into chunks,
       so that about COL_THREADS threads work at once */
    bool simple = true;
    for (int o = 0; o < p->nops && simple; o++)
      for (int j = 0; j < p->op[o]->nres && simple; j++)
        simple = simple_reducer(p->op[o]) && shuffle_type_ok(p->op[o]->res[j].type->elem);
    int64_t by_out = (COL_THREADS + p->nout - 1) / p->nout, by_len = p->nred / COL_MIN_CHUNK;
    p->C = by_out < by_len ? by_out : by_len;
    if (!simple || p->C < 2) {
      p->C = 1;
    } else {
      p->L = (p->nred + p->C - 1) / p->C;
      p->C = (p->nred + p->L - 1) / p->L;
    }
  }
  if (p->C < 1) p->C = 1;
  return true;
}

/* acc op x, in the order of the reducer's body (arg0 the accumulator). */
static LLVMValueRef combine(Cg *cg, const Op *reduce, LLVMValueRef acc, LLVMValueRef x) {
  Op *simple = simple_reducer(reduce);
  ElemType et = reduce->res[0].type->elem;
  ElemType ts[2] = {et, et};
  LLVMValueRef args[2] = {acc, x};
  if (simple->opnds[0] == reduce->regions[0]->args[1]) {
    args[0] = x;
    args[1] = acc;
  }
  return emit_scalar_op(cg, simple, ts, args, et);
}

/* Folds the elements x[slot] into the accumulators acc[slot] (allocas). */
static void fold(Cg *cg, const Plan *p, LLVMValueRef *accp, LLVMValueRef *x) {
  for (int o = 0; o < p->nops; o++) {
    const Op *op = p->op[o];
    int f = p->first[o], n = op->nres;
    LLVMValueRef acc[MAX_SLOTS], out[MAX_SLOTS];
    for (int j = 0; j < n; j++)
      acc[j] = LLVMBuildLoad2(cg->b, cg_compute_type(cg, op->res[j].type->elem), accp[f + j], "");
    if (p->body[o]) {
      reduce_body_apply(cg, p->body[o], acc, x + f, out);
    } else {
      out[0] = combine(cg, op, acc[0], x[f]);
    }
    for (int j = 0; j < n; j++) LLVMBuildStore(cg->b, out[j], accp[f + j]);
  }
}

/* The elements of every slot at input index idx. */
static void elements(Cg *cg, KernelIO *io, const Plan *p, LLVMValueRef *idx, LLVMValueRef *x) {
  kernel_io_reset_memo(io);
  for (int o = 0; o < p->nops; o++)
    for (int j = 0; j < p->op[o]->nres; j++) x[p->first[o] + j] = emit_elemental(cg, io, p->op[o]->opnds[j], idx);
}

static void inits(Cg *cg, KernelIO *io, const Plan *p, LLVMValueRef *v) {
  LLVMValueRef none[1] = {cg_i64(cg, 0)};
  kernel_io_reset_memo(io);
  for (int o = 0; o < p->nops; o++) {
    int n = p->op[o]->nres;
    for (int j = 0; j < n; j++) v[p->first[o] + j] = emit_elemental(cg, io, p->op[o]->opnds[n + j], none);
  }
}

/* The input index of element r (row-major over the reduced dims) of
   output o, whose kept coordinates are kc (or, flat, whose first element
   is at linear index base). */
static void input_index(Cg *cg, const Plan *p, LLVMValueRef *kc, LLVMValueRef base, LLVMValueRef r,
                        LLVMValueRef *idx) {
  int rank = p->in->rank;
  if (p->flat) {
    for (int d = 0; d < rank; d++) idx[d] = cg_i64(cg, 0);
    if (rank) idx[rank - 1] = LLVMBuildAdd(cg->b, base, r, "");
    return;
  }
  LLVMValueRef rc[CG_MAX_RANK];
  gpu_delinearize(cg, r, p->rdims, p->nr, rc);
  for (int d = 0, a = 0, b = 0; d < rank; d++) idx[d] = p->red[d] ? rc[b++] : kc[a++];
}

/* Kept coordinates (or the flat base) of output o. */
static void output_coords(Cg *cg, const Plan *p, const Type *out, LLVMValueRef o, LLVMValueRef *kc, LLVMValueRef *base) {
  if (p->flat)
    *base = LLVMBuildMul(cg->b, o, cg_i64(cg, p->nred), "");
  else
    gpu_delinearize(cg, o, out->dims, out->rank, kc);
}

static void bodies_new(Cg *cg, LLVMValueRef fn, Plan *p) {
  for (int o = 0; o < p->nops; o++) p->body[o] = simple_reducer(p->op[o]) ? NULL : reduce_body_new(cg, fn, p->op[o]);
}

static void bodies_free(Plan *p) {
  for (int o = 0; o < p->nops; o++)
    if (p->body[o]) reduce_body_free(p->body[o]);
  memset(p->body, 0, sizeof p->body);
}

static void store_roots(Cg *cg, const KernelSpec *k, const Plan *p, LLVMValueRef *outs, LLVMValueRef o,
                        LLVMValueRef *val) {
  for (int r = 0; r < k->nroots; r++) cg_store(cg, k->roots[r]->type->elem, outs[r], o, val[p->root_slot[r]]);
}

static LLVMValueRef slot_ptr(Cg *cg, LLVMValueRef scratch, const Plan *p, int s, LLVMValueRef u);

/* One thread per output, the interpreter's order; or, chunked (C > 1),
   one thread per (chunk, output), consecutive threads taking consecutive
   outputs, each folding its chunk in order from the reducers' identities
   into the scratch area for emit_chunks. */
static LLVMValueRef emit_sequential(GpuLower *G, const KernelSpec *k, Plan *p, int nbufs) {
  Cg *cg = &G->cg;
  LLVMValueRef ptrs[2 * MAX_SLOTS + 64], n;
  LLVMValueRef fn = gpu_kernel_new(G, nbufs, ptrs, &n);
  KernelIO io = gpu_kernel_io(k->inputs, k->ninputs, ptrs);
  LLVMValueRef *outs = ptrs + k->ninputs;
  bodies_new(cg, fn, p);
  LLVMValueRef accp[MAX_SLOTS];
  for (int s = 0; s < p->nslots; s++) accp[s] = cg_entry_alloca(cg, fn, cg_compute_type(cg, slot_et(p, s)), "acc");
  LLVMValueRef stride;
  Loop lo = gpu_thread_loop(cg, n, &stride, "out");
  const Type *out = k->reduces[0]->res[0].type;
  LLVMValueRef kc[CG_MAX_RANK], base = NULL, v[MAX_SLOTS], x[MAX_SLOTS], idx[CG_MAX_RANK];
  LLVMValueRef o = lo.iv, r0 = cg_i64(cg, 0), r1 = cg_i64(cg, p->nred), c = NULL;
  if (p->C > 1) {
    int64_t cd[2] = {p->C, p->nout};
    LLVMValueRef cc[2];
    gpu_delinearize(cg, lo.iv, cd, 2, cc);
    c = cc[0];
    o = cc[1];
    r0 = LLVMBuildMul(cg->b, c, cg_i64(cg, p->L), "");
    r1 = cg_min64(cg, LLVMBuildAdd(cg->b, r0, cg_i64(cg, p->L), ""), r1);
    for (int s = 0; s < p->nslots; s++)
      LLVMBuildStore(cg->b, reduce_identity(cg, simple_reducer(p->op[s])->kind, slot_et(p, s)), accp[s]);
  } else {
    inits(cg, &io, p, v);
    for (int s = 0; s < p->nslots; s++) LLVMBuildStore(cg->b, v[s], accp[s]);
  }
  output_coords(cg, p, out, o, kc, &base);
  Loop lr = loop_begin(cg, r0, r1, "red");
  input_index(cg, p, kc, base, lr.iv, idx);
  elements(cg, &io, p, idx, x);
  fold(cg, p, accp, x);
  loop_end(cg, &lr);
  kernel_io_reset_memo(&io);
  for (int s = 0; s < p->nslots; s++) v[s] = LLVMBuildLoad2(cg->b, cg_compute_type(cg, slot_et(p, s)), accp[s], "");
  if (p->C > 1) {
    LLVMValueRef u = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, o, cg_i64(cg, p->C), ""), c, "");
    for (int s = 0; s < p->nslots; s++) LLVMBuildStore(cg->b, v[s], slot_ptr(cg, ptrs[nbufs - 1], p, s, u));
  } else {
    store_roots(cg, k, p, outs, lo.iv, v);
  }
  gpu_loop_end(cg, &lo, stride);
  LLVMBuildRetVoid(cg->b);
  bodies_free(p);
  kernel_io_free(&io);
  return fn;
}

/* Combines v across the 32 lanes of the warp (every lane gets the total). */
static LLVMValueRef warp_total(Cg *cg, const Op *reduce, LLVMValueRef v) {
  for (int m = GPU_WARP / 2; m >= 1; m /= 2) v = combine(cg, reduce, v, gpu_shfl_xor(cg, v, m));
  return v;
}

static LLVMValueRef slot_ptr(Cg *cg, LLVMValueRef scratch, const Plan *p, int s, LLVMValueRef u) {
  LLVMValueRef off = cg_i64(cg, (int64_t)s * p->nout * p->C * 8);
  LLVMValueRef b = LLVMBuildGEP2(cg->b, cg->t_i8, scratch, &off, 1, "");
  return LLVMBuildGEP2(cg->b, cg_compute_type(cg, slot_et(p, s)), b, &u, 1, "");
}

/* The block's fold of one (output, chunk) unit: thread t folds elements
   r0+t, r0+t+T, ... below r1 of the output whose kept coordinates are kc
   (or flat base) from the reducers' identities, then the warps' values are
   combined by shuffles and through shared memory (smem, one entry a warp).
   v[s] receives slot s's total, valid in thread 0.  Every thread of the
   block runs it (barriers). */
static void block_fold(Cg *cg, LLVMValueRef fn, Plan *p, KernelIO *io, LLVMValueRef *kc, LLVMValueRef base,
                       LLVMValueRef r0, LLVMValueRef r1, LLVMValueRef *accp, LLVMValueRef *smem, LLVMValueRef *v) {
  int nwarps = p->T / GPU_WARP;
  LLVMTypeRef ct[MAX_SLOTS];
  LLVMValueRef tid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.tid.x");
  LLVMValueRef lane = LLVMBuildAnd(cg->b, tid, cg_i64(cg, GPU_WARP - 1), "lane");
  LLVMValueRef warp = LLVMBuildLShr(cg->b, tid, cg_i64(cg, 5), "warp");
  LLVMValueRef x[MAX_SLOTS], idx[CG_MAX_RANK];
  for (int s = 0; s < p->nslots; s++) {
    ct[s] = cg_compute_type(cg, slot_et(p, s));
    LLVMBuildStore(cg->b, reduce_identity(cg, simple_reducer(p->op[s])->kind, slot_et(p, s)), accp[s]);
  }
  LLVMValueRef step = cg_i64(cg, p->T);
  Loop lr = gpu_loop_begin(cg, LLVMBuildAdd(cg->b, r0, tid, ""), r1, step, "red");
  input_index(cg, p, kc, base, lr.iv, idx);
  elements(cg, io, p, idx, x);
  fold(cg, p, accp, x);
  gpu_loop_end(cg, &lr, step);
  kernel_io_reset_memo(io);
  for (int s = 0; s < p->nslots; s++) v[s] = warp_total(cg, p->op[s], LLVMBuildLoad2(cg->b, ct[s], accp[s], ""));
  if (nwarps > 1) {
    LLVMBasicBlockRef wr = LLVMAppendBasicBlockInContext(cg->ctx, fn, "warp_out");
    LLVMBasicBlockRef j1 = LLVMAppendBasicBlockInContext(cg->ctx, fn, "join");
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, lane, cg_i64(cg, 0), ""), wr, j1);
    LLVMPositionBuilderAtEnd(cg->b, wr);
    for (int s = 0; s < p->nslots; s++) LLVMBuildStore(cg->b, v[s], gpu_shared_at(cg, smem[s], warp));
    LLVMBuildBr(cg->b, j1);
    LLVMPositionBuilderAtEnd(cg->b, j1);
    gpu_barrier(cg);
    LLVMBasicBlockRef w0 = LLVMAppendBasicBlockInContext(cg->ctx, fn, "warp0");
    LLVMBasicBlockRef j2 = LLVMAppendBasicBlockInContext(cg->ctx, fn, "join");
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, warp, cg_i64(cg, 0), ""), w0, j2);
    LLVMPositionBuilderAtEnd(cg->b, w0);
    LLVMValueRef in = LLVMBuildICmp(cg->b, LLVMIntULT, lane, cg_i64(cg, nwarps), "");
    LLVMValueRef li = LLVMBuildSelect(cg->b, in, lane, cg_i64(cg, 0), "");
    for (int s = 0; s < p->nslots; s++) {
      LLVMValueRef e = LLVMBuildLoad2(cg->b, ct[s], gpu_shared_at(cg, smem[s], li), "");
      e = LLVMBuildSelect(cg->b, in, e, reduce_identity(cg, simple_reducer(p->op[s])->kind, slot_et(p, s)), "");
      LLVMBuildStore(cg->b, warp_total(cg, p->op[s], e), accp[s]);
    }
    LLVMBuildBr(cg->b, j2);
    LLVMPositionBuilderAtEnd(cg->b, j2);
    /* the shared slots are read before the next unit overwrites them */
    gpu_barrier(cg);
    for (int s = 0; s < p->nslots; s++) v[s] = LLVMBuildLoad2(cg->b, ct[s], accp[s], "");
  }
}

static void block_state(Cg *cg, LLVMValueRef fn, const Plan *p, LLVMValueRef *accp, LLVMValueRef *smem) {
  int nwarps = p->T / GPU_WARP;
  for (int s = 0; s < p->nslots; s++) {
    LLVMTypeRef ct = cg_compute_type(cg, slot_et(p, s));
    accp[s] = cg_entry_alloca(cg, fn, ct, "acc");
    smem[s] = nwarps > 1 ? gpu_shared_array(cg, ct, nwarps, "xlac_red_smem") : NULL;
  }
}

/* Blocks of T threads over (output, chunk) units; see the top. */
static LLVMValueRef emit_row(GpuLower *G, const KernelSpec *k, Plan *p, int nbufs) {
  Cg *cg = &G->cg;
  LLVMValueRef ptrs[2 * MAX_SLOTS + 64], n;
  LLVMValueRef fn = gpu_kernel_new(G, nbufs, ptrs, &n);
  KernelIO io = gpu_kernel_io(k->inputs, k->ninputs, ptrs);
  LLVMValueRef *outs = ptrs + k->ninputs, scratch = p->C > 1 ? ptrs[nbufs - 1] : NULL;
  LLVMValueRef accp[MAX_SLOTS], smem[MAX_SLOTS];
  block_state(cg, fn, p, accp, smem);
  LLVMValueRef tid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.tid.x");
  LLVMValueRef ctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.ctaid.x");
  LLVMValueRef nctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.nctaid.x");
  Loop lu = gpu_loop_begin(cg, ctaid, n, nctaid, "unit");
  LLVMValueRef u = lu.iv, o = u, c = cg_i64(cg, 0);
  if (p->C > 1) {
    int64_t cc[2] = {p->nout, p->C};
    LLVMValueRef oc[2];
    gpu_delinearize(cg, u, cc, 2, oc);
    o = oc[0];
    c = oc[1];
  }
  const Type *out = k->reduces[0]->res[0].type;
  LLVMValueRef kc[CG_MAX_RANK], base = NULL, v[MAX_SLOTS];
  output_coords(cg, p, out, o, kc, &base);
  LLVMValueRef r0 = LLVMBuildMul(cg->b, c, cg_i64(cg, p->L), "");
  LLVMValueRef r1 = cg_min64(cg, LLVMBuildAdd(cg->b, r0, cg_i64(cg, p->L), ""), cg_i64(cg, p->nred));
  block_fold(cg, fn, p, &io, kc, base, r0, r1, accp, smem, v);
  LLVMBasicBlockRef t0b = LLVMAppendBasicBlockInContext(cg->ctx, fn, "thread0");
  LLVMBasicBlockRef j3 = LLVMAppendBasicBlockInContext(cg->ctx, fn, "join");
  LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, tid, cg_i64(cg, 0), ""), t0b, j3);
  LLVMPositionBuilderAtEnd(cg->b, t0b);
  if (p->C > 1) {
    for (int s = 0; s < p->nslots; s++) LLVMBuildStore(cg->b, v[s], slot_ptr(cg, scratch, p, s, u));
  } else {
    LLVMValueRef init[MAX_SLOTS];
    inits(cg, &io, p, init);
    for (int s = 0; s < p->nslots; s++) v[s] = combine(cg, p->op[s], init[s], v[s]);
    store_roots(cg, k, p, outs, o, v);
  }
  LLVMBuildBr(cg->b, j3);
  LLVMPositionBuilderAtEnd(cg->b, j3);
  gpu_loop_end(cg, &lu, nctaid);
  LLVMBuildRetVoid(cg->b);
  kernel_io_free(&io);
  return fn;
}

/* A reduction stage of a row kernel (row.c): the reduces of k over the
   trailing dims, folded by the block (T threads) like one unit of the row
   kernel above. */
bool gpu_block_reduce_ok(const KernelSpec *k) {
  Plan p;
  if (k->ninputs + k->nroots > 64 || !reduce_kernel_ok(k) || !plan_of(&p, k) || !p.inner) return false;
  for (int o = 0; o < p.nops; o++) {
    if (!simple_reducer(p.op[o])) return false;
    for (int j = 0; j < p.op[o]->nres; j++)
      if (!shuffle_type_ok(p.op[o]->res[j].type->elem)) return false;
  }
  for (int r = 0; r < k->nroots; r++)
    if (k->roots[r]->type->kind != TY_TENSOR || k->roots[r]->type->quant || !cg_elem_native(k->roots[r]->type->elem))
      return false;
  return true;
}

void gpu_block_reduce(Cg *cg, LLVMValueRef fn, const KernelSpec *k, LLVMValueRef *in_ptrs, LLVMValueRef o, int T,
                      LLVMValueRef *out) {
  Plan p;
  plan_of(&p, k);
  p.T = T;
  p.C = 1;
  p.L = p.nred;
  KernelIO io = gpu_kernel_io(k->inputs, k->ninputs, in_ptrs);
  LLVMValueRef accp[MAX_SLOTS], smem[MAX_SLOTS], v[MAX_SLOTS], kc[CG_MAX_RANK], base = NULL, init[MAX_SLOTS];
  block_state(cg, fn, &p, accp, smem);
  output_coords(cg, &p, k->reduces[0]->res[0].type, o, kc, &base);
  block_fold(cg, fn, &p, &io, kc, base, cg_i64(cg, 0), cg_i64(cg, p.nred), accp, smem, v);
  inits(cg, &io, &p, init);
  for (int s = 0; s < p.nslots; s++) v[s] = combine(cg, p.op[s], init[s], v[s]);
  for (int r = 0; r < k->nroots; r++) out[r] = v[p.root_slot[r]];
  kernel_io_free(&io);
}

/* The chunk totals of each output folded from its init value in chunk
   order: one thread per output. */
static LLVMValueRef emit_chunks(GpuLower *G, const KernelSpec *k, Plan *p, int nbufs) {
  Cg *cg = &G->cg;
  LLVMValueRef ptrs[2 * MAX_SLOTS + 64], n;
  LLVMValueRef fn = gpu_kernel_new(G, nbufs, ptrs, &n);
  KernelIO io = gpu_kernel_io(k->inputs, k->ninputs, ptrs);
  LLVMValueRef *outs = ptrs + k->ninputs, scratch = ptrs[nbufs - 1];
  LLVMValueRef accp[MAX_SLOTS];
  for (int s = 0; s < p->nslots; s++) accp[s] = cg_entry_alloca(cg, fn, cg_compute_type(cg, slot_et(p, s)), "acc");
  LLVMValueRef stride;
  Loop lo = gpu_thread_loop(cg, n, &stride, "out");
  LLVMValueRef v[MAX_SLOTS];
  inits(cg, &io, p, v);
  for (int s = 0; s < p->nslots; s++) LLVMBuildStore(cg->b, v[s], accp[s]);
  Loop lc = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, p->C), "chunk");
  LLVMValueRef u = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, lo.iv, cg_i64(cg, p->C), ""), lc.iv, "");
  for (int s = 0; s < p->nslots; s++) {
    LLVMTypeRef ct = cg_compute_type(cg, slot_et(p, s));
    LLVMValueRef part = LLVMBuildLoad2(cg->b, ct, slot_ptr(cg, scratch, p, s, u), "");
    LLVMBuildStore(cg->b, combine(cg, p->op[s], LLVMBuildLoad2(cg->b, ct, accp[s], ""), part), accp[s]);
  }
  loop_end(cg, &lc);
  for (int s = 0; s < p->nslots; s++) v[s] = LLVMBuildLoad2(cg->b, cg_compute_type(cg, slot_et(p, s)), accp[s], "");
  store_roots(cg, k, p, outs, lo.iv, v);
  gpu_loop_end(cg, &lo, stride);
  LLVMBuildRetVoid(cg->b);
  kernel_io_free(&io);
  return fn;
}

void gpu_lower_reduce(GpuLower *G, Op *op, Value **inputs, int ninputs, Value **roots, int nroots, Op **reduces) {
  KernelSpec k = {inputs, ninputs, roots, nroots, reduces};
  bool fusion = op->kind == OP_CALL;
  Plan p;
  bool ok = ninputs + nroots <= 64 && reduce_kernel_ok(&k) && plan_of(&p, &k);
  for (int r = 0; ok && r < nroots; r++)
    ok = roots[r]->type->kind == TY_TENSOR && !roots[r]->type->quant && cg_elem_native(roots[r]->type->elem) &&
         roots[r]->type->rank <= CG_MAX_RANK;
  for (int o = 0; ok && o < p.nops; o++) ok = simple_reducer(p.op[o]) || reduce_body_ok(p.op[o]);
  if (!ok) {
    gpu_unsupported(G, fusion ? reduces[0] : op, fusion ? "in a kInput fusion; " : "");
    return;
  }
  GpuBuf *bufs;
  int nbufs;
  if (!gpu_op_bufs(G, op, 1, &bufs, &nbufs)) return;
  if (p.nout == 0) {
    xfree(bufs);
    return;
  }
  if (!p.row && p.C < 2) {
    LLVMValueRef fn = emit_sequential(G, &k, &p, nbufs);
    if (gpu_add_thread_launch(G, op, fn, p.nout, bufs, nbufs) && fusion)
      G->nfusions++;
    return;
  }
  GpuBuf *bufs2 = NULL;
  if (p.C > 1) {
    bufs[nbufs++] = gpu_scratch(G, (int64_t)p.nslots * p.nout * p.C * 8);
    bufs2 = xcalloc((size_t)nbufs + 1, sizeof(GpuBuf));
    memcpy(bufs2, bufs, sizeof(GpuBuf) * (size_t)nbufs);
  }
  bool ok1 = p.row ? gpu_add_launch(G, op, emit_row(G, &k, &p, nbufs), p.nout * p.C, p.nout * p.C, p.T, bufs, nbufs)
                   : gpu_add_thread_launch(G, op, emit_sequential(G, &k, &p, nbufs), p.nout * p.C, bufs, nbufs);
  if (!ok1) {
    xfree(bufs2);
    return;
  }
  if (p.C > 1) {
    LLVMValueRef fn2 = emit_chunks(G, &k, &p, nbufs);
    if (!gpu_add_thread_launch(G, op, fn2, p.nout, bufs2, nbufs))
      return;
  }
  if (fusion) G->nfusions++;
}

/* ---- reduce_window: one thread per output ---- */

/* Output element o folds its window in row-major order from the init
   values, as the interpreter does: positions on the padding or between
   base-dilated elements contribute the init values (the spec pads with
   them), so results are bit-identical to it. */
static LLVMValueRef emit_window(GpuLower *G, Op *op, const int64_t *size, const int64_t *stride,
                                const int64_t *bdil, const int64_t *wdil, const int64_t *lo) {
  Cg *cg = &G->cg;
  int n = op->nres;
  const Type *xt = op->opnds[0]->type, *ot = op->res[0].type;
  int rank = xt->rank;
  LLVMValueRef ptrs[3 * MAX_SLOTS + 2], cnt;
  LLVMValueRef fn = gpu_kernel_new(G, 3 * n, ptrs, &cnt);
  ReduceBody *body = simple_reducer(op) ? NULL : reduce_body_new(cg, fn, op);
  LLVMValueRef accp[MAX_SLOTS], init[MAX_SLOTS];
  for (int k = 0; k < n; k++) accp[k] = cg_entry_alloca(cg, fn, cg_compute_type(cg, op->res[k].type->elem), "acc");
  int64_t xs[CG_MAX_RANK];
  int64_t s = 1;
  for (int d = rank - 1; d >= 0; d--) {
    xs[d] = s;
    s *= xt->dims[d];
  }
  LLVMValueRef step;
  Loop lo_ = gpu_thread_loop(cg, cnt, &step, "out");
  LLVMValueRef oc[CG_MAX_RANK];
  gpu_delinearize(cg, lo_.iv, ot->dims, ot->rank, oc);
  for (int k = 0; k < n; k++) {
    init[k] = cg_load(cg, op->opnds[n + k]->type->elem, ptrs[n + k], cg_i64(cg, 0));
    LLVMBuildStore(cg->b, init[k], accp[k]);
  }
  Loop wl[CG_MAX_RANK];
  LLVMValueRef inside = LLVMConstInt(cg->t_i1, 1, 0), off = cg_i64(cg, 0);
  for (int d = 0; d < rank; d++) {
    wl[d] = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, size[d]), "win");
    LLVMValueRef p = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, oc[d], cg_i64(cg, stride[d]), ""),
                                  LLVMBuildMul(cg->b, wl[d].iv, cg_i64(cg, wdil[d]), ""), "");
    LLVMValueRef q = LLVMBuildSub(cg->b, p, cg_i64(cg, lo[d]), "");
    LLVMValueRef ok = LLVMBuildICmp(cg->b, LLVMIntSGE, q, cg_i64(cg, 0), "");
    LLVMValueRef sq = LLVMBuildSelect(cg->b, ok, q, cg_i64(cg, 0), "");
    if (bdil[d] > 1) {
      ok = LLVMBuildAnd(cg->b, ok, LLVMBuildICmp(cg->b, LLVMIntEQ, LLVMBuildURem(cg->b, sq, cg_i64(cg, bdil[d]), ""), cg_i64(cg, 0), ""), "");
      sq = LLVMBuildUDiv(cg->b, sq, cg_i64(cg, bdil[d]), "");
    }
    ok = LLVMBuildAnd(cg->b, ok, LLVMBuildICmp(cg->b, LLVMIntSLT, sq, cg_i64(cg, xt->dims[d]), ""), "");
    inside = LLVMBuildAnd(cg->b, inside, ok, "");
    off = LLVMBuildAdd(cg->b, off, LLVMBuildMul(cg->b, sq, cg_i64(cg, xs[d]), ""), "");
  }
  off = LLVMBuildSelect(cg->b, inside, off, cg_i64(cg, 0), "");
  LLVMValueRef x[MAX_SLOTS], acc[MAX_SLOTS], out[MAX_SLOTS];
  for (int k = 0; k < n; k++) {
    ElemType et = op->res[k].type->elem;
    x[k] = LLVMBuildSelect(cg->b, inside, cg_load(cg, op->opnds[k]->type->elem, ptrs[k], off), init[k], "");
    acc[k] = LLVMBuildLoad2(cg->b, cg_compute_type(cg, et), accp[k], "");
  }
  if (body)
    reduce_body_apply(cg, body, acc, x, out);
  else
    out[0] = combine(cg, op, acc[0], x[0]);
  for (int k = 0; k < n; k++) LLVMBuildStore(cg->b, out[k], accp[k]);
  for (int d = rank - 1; d >= 0; d--) loop_end(cg, &wl[d]);
  for (int k = 0; k < n; k++) {
    ElemType et = op->res[k].type->elem;
    cg_store(cg, et, ptrs[2 * n + k], lo_.iv, LLVMBuildLoad2(cg->b, cg_compute_type(cg, et), accp[k], ""));
  }
  gpu_loop_end(cg, &lo_, step);
  LLVMBuildRetVoid(cg->b);
  if (body) reduce_body_free(body);
  return fn;
}

/* ---- reduce_window as a running fold (cumsum, cummax, ...) ----

   A window along one dimension d that, for every output, covers all of
   the operand before it and nothing after (stride 1, low padding of the
   window's size - 1, no high padding or dilation, size 1 on the other
   dimensions) folds, for output i, some init values (the padding) and
   then x[0..i] in order.  When folding init into init gives init (max,
   min, and, or of any init; add or xor of a zero, mul of a one, all
   constants), that is the running fold s(i) = s(i - 1) (+) x[i] from
   s(-1) = init, bit for bit: one thread per line computes it in n steps
   instead of n(n + 1)/2. */
static bool init_idempotent(const Op *op, OpKind k) {
  if (k == OP_MAXIMUM || k == OP_MINIMUM || k == OP_AND || k == OP_OR) return true;
  const Literal *l = scalar_const_of(op->opnds[1]);
  if (!l || et_is_complex(lit_elem(l))) return false;
  bool fl = et_is_float(lit_elem(l));
  if (k == OP_ADD || k == OP_XOR) return fl ? lit_get_f(l, 0) == 0.0 : lit_get_i(l, 0) == 0;
  if (k == OP_MULTIPLY) return fl ? lit_get_f(l, 0) == 1.0 : lit_get_i(l, 0) == 1;
  return false;
}

/* The dimension a running fold runs along, or -1. */
static int prefix_dim(const Op *op, const int64_t *size, const int64_t *stride, const int64_t *bdil,
                      const int64_t *wdil, const int64_t *lo, const int64_t *hi) {
  const Type *xt = op->opnds[0]->type, *ot = op->res[0].type;
  Op *simple = op->nres == 1 ? simple_reducer(op) : NULL;
  if (!simple || !type_same_shape(xt, ot) || !init_idempotent(op, simple->kind)) return -1;
  int d = -1;
  for (int e = 0; e < xt->rank; e++) {
    if (stride[e] != 1 || bdil[e] != 1 || wdil[e] != 1 || hi[e] != 0) return -1;
    if (size[e] == 1 && lo[e] == 0) continue;
    if (d >= 0 || lo[e] != size[e] - 1 || size[e] < xt->dims[e]) return -1;
    d = e;
  }
  return d;
}

/* Kernel: one thread per line along d (consecutive threads, consecutive
   lines), each folding its line in order and storing every step. */
static LLVMValueRef emit_prefix(GpuLower *G, Op *op, int d) {
  Cg *cg = &G->cg;
  const Type *xt = op->opnds[0]->type;
  ElemType xe = xt->elem, et = op->res[0].type->elem;
  LLVMValueRef ptrs[3], cnt, step;
  LLVMValueRef fn = gpu_kernel_new(G, 3, ptrs, &cnt);
  LLVMValueRef accp = cg_entry_alloca(cg, fn, cg_compute_type(cg, et), "acc");
  int64_t n = xt->dims[d], inner = 1;
  for (int e = xt->rank - 1; e > d; e--) inner *= xt->dims[e];
  Loop l = gpu_thread_loop(cg, cnt, &step, "line");
  int64_t ld[2] = {type_num_elements(xt) / n / inner, inner};
  LLVMValueRef lc[2];
  gpu_delinearize(cg, l.iv, ld, 2, lc);
  LLVMValueRef base = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, lc[0], cg_i64(cg, n * inner), ""), lc[1], "");
  LLVMBuildStore(cg->b, cg_load(cg, op->opnds[1]->type->elem, ptrs[1], cg_i64(cg, 0)), accp);
  Loop lj = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, n), "scan");
  LLVMValueRef at = LLVMBuildAdd(cg->b, base, LLVMBuildMul(cg->b, lj.iv, cg_i64(cg, inner), ""), "");
  LLVMValueRef acc = LLVMBuildLoad2(cg->b, cg_compute_type(cg, et), accp, "");
  acc = combine(cg, op, acc, cg_load(cg, xe, ptrs[0], at));
  LLVMBuildStore(cg->b, acc, accp);
  cg_store(cg, et, ptrs[2], at, acc);
  loop_end(cg, &lj);
  gpu_loop_end(cg, &l, step);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

/* Lines along the innermost dimension lie one after another in memory: a
   thread per line would read 32 addresses a line apart at each step.
   Here each warp takes 32 lines and walks them 32 elements at a time
   through shared memory: lane t loads element t of each of the 32 lines
   (consecutive addresses), then folds line t's 32 elements in order from
   shared memory, leaving its running values there, which the lanes store
   back the way they were loaded.  Every line is still folded in order by
   one thread, so the results are emit_prefix's.  Blocks of PREFIX_WARPS
   warps, a block per PREFIX_WARPS * 32 lines (grid-stride). */
enum { PREFIX_WARPS = 4, PREFIX_ROW_MIN = 64, TILE_PAD = GPU_WARP + 1 };

/* Where lane `lane` of a warp whose lines start at `first` meets line
   first + r at column col: *at the element (a line is n long), *slot its
   tile entry (the warp's tile at `mine`, rows TILE_PAD apart: lanes
   reading a column hit 32 banks).  Opens an if on the line and column
   existing, which the caller closes with gpu_if_end. */
typedef struct TileAt {
  LLVMValueRef first, col, col_in, mine, lane;
  int64_t lines, n;
} TileAt;

static LLVMBasicBlockRef tile_at(Cg *cg, const TileAt *t, int r, LLVMValueRef *at, LLVMValueRef *slot) {
  LLVMValueRef line = LLVMBuildAdd(cg->b, t->first, cg_i64(cg, r), "");
  LLVMValueRef in = LLVMBuildAnd(cg->b, t->col_in, LLVMBuildICmp(cg->b, LLVMIntSLT, line, cg_i64(cg, t->lines), ""), "");
  LLVMBasicBlockRef next = gpu_if_begin(cg, in);
  *at = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, line, cg_i64(cg, t->n), ""), t->col, "");
  *slot = LLVMBuildAdd(cg->b, t->mine, LLVMBuildAdd(cg->b, cg_i64(cg, (int64_t)r * TILE_PAD), t->lane, ""), "");
  return next;
}

static LLVMValueRef emit_prefix_rows(GpuLower *G, Op *op, int64_t lines, int64_t n) {
  Cg *cg = &G->cg;
  ElemType et = op->res[0].type->elem;
  LLVMTypeRef ct = cg_compute_type(cg, et);
  LLVMValueRef ptrs[3], cnt;
  LLVMValueRef fn = gpu_kernel_new(G, 3, ptrs, &cnt);
  LLVMValueRef accp = cg_entry_alloca(cg, fn, ct, "acc");
  enum { W = GPU_WARP, P = TILE_PAD };
  LLVMValueRef tile = gpu_shared_array(cg, ct, PREFIX_WARPS * W * P, "xlac_prefix_tile");
  LLVMValueRef tid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.tid.x");
  LLVMValueRef ctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.ctaid.x");
  LLVMValueRef nctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.nctaid.x");
  LLVMValueRef lane = LLVMBuildAnd(cg->b, tid, cg_i64(cg, W - 1), "lane");
  LLVMValueRef warp = LLVMBuildLShr(cg->b, tid, cg_i64(cg, 5), "warp");
  LLVMValueRef mine = LLVMBuildMul(cg->b, warp, cg_i64(cg, W * P), ""); /* this warp's tile */
  Loop lu = gpu_loop_begin(cg, ctaid, cnt, nctaid, "lines");
  LLVMValueRef first = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, lu.iv, cg_i64(cg, PREFIX_WARPS * W), ""),
                                    LLVMBuildMul(cg->b, warp, cg_i64(cg, W), ""), "first");
  LLVMBuildStore(cg->b, cg_load(cg, op->opnds[1]->type->elem, ptrs[1], cg_i64(cg, 0)), accp);
  Loop lc = gpu_loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, n), cg_i64(cg, W), "chunk");
  LLVMValueRef col = LLVMBuildAdd(cg->b, lc.iv, lane, "col");
  LLVMValueRef col_in = LLVMBuildICmp(cg->b, LLVMIntSLT, col, cg_i64(cg, n), "");
  /* load: lane t, element col of lines first .. first + 31 */
  TileAt ta = {first, col, col_in, mine, lane, lines, n};
  for (int r = 0; r < W; r++) {
    LLVMValueRef at, slot;
    LLVMBasicBlockRef next = tile_at(cg, &ta, r, &at, &slot);
    LLVMBuildStore(cg->b, cg_load(cg, et, ptrs[0], at), gpu_shared_at(cg, tile, slot));
    gpu_if_end(cg, next);
  }
  gpu_barrier(cg);
  /* fold: lane t, line first + t, this chunk's elements in order */
  LLVMValueRef left = LLVMBuildSub(cg->b, cg_i64(cg, n), lc.iv, "");
  LLVMValueRef len = cg_min64(cg, left, cg_i64(cg, W));
  LLVMValueRef row = LLVMBuildAdd(cg->b, mine, LLVMBuildMul(cg->b, lane, cg_i64(cg, P), ""), "row");
  Loop lj = loop_begin(cg, cg_i64(cg, 0), len, "tscan");
  LLVMValueRef sp = gpu_shared_at(cg, tile, LLVMBuildAdd(cg->b, row, lj.iv, ""));
  LLVMValueRef acc = combine(cg, op, LLVMBuildLoad2(cg->b, ct, accp, ""), LLVMBuildLoad2(cg->b, ct, sp, ""));
  LLVMBuildStore(cg->b, acc, accp);
  LLVMBuildStore(cg->b, acc, sp);
  loop_end(cg, &lj);
  gpu_barrier(cg);
  /* store, as loaded */
  for (int r = 0; r < W; r++) {
    LLVMValueRef at, slot;
    LLVMBasicBlockRef next = tile_at(cg, &ta, r, &at, &slot);
    cg_store(cg, et, ptrs[2], at, LLVMBuildLoad2(cg->b, ct, gpu_shared_at(cg, tile, slot), ""));
    gpu_if_end(cg, next);
  }
  gpu_barrier(cg);
  gpu_loop_end(cg, &lc, cg_i64(cg, W));
  gpu_loop_end(cg, &lu, nctaid);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

static bool window_attr(const Op *op, const char *name, int rank, int64_t def, int64_t *out) {
  int64_t *v;
  int n = op_attr_ints(op, name, &v);
  if (n < 0 || (n && n != rank)) return false;
  for (int d = 0; d < rank; d++) {
    out[d] = n ? v[d] : def;
    if (out[d] < 1) return false;
  }
  return true;
}

void gpu_lower_reduce_window(GpuLower *G, Op *op) {
  int n = op->nres;
  bool ok = n >= 1 && n <= MAX_SLOTS && op->nopnds == 2 * n && (simple_reducer(op) || reduce_body_ok(op));
  const Type *xt = ok ? op->opnds[0]->type : NULL;
  int rank = xt ? xt->rank : 0;
  int64_t size[CG_MAX_RANK], stride[CG_MAX_RANK], bdil[CG_MAX_RANK], wdil[CG_MAX_RANK], lo[CG_MAX_RANK],
      hi[CG_MAX_RANK], *v;
  ok = ok && rank <= CG_MAX_RANK && op_attr_ints(op, "window_dimensions", &v) == rank;
  for (int d = 0; ok && d < rank; d++) {
    size[d] = v[d];
    ok = v[d] >= 0;
  }
  ok = ok && window_attr(op, "window_strides", rank, 1, stride) && window_attr(op, "base_dilations", rank, 1, bdil) &&
       window_attr(op, "window_dilations", rank, 1, wdil);
  int np = ok ? op_attr_ints(op, "padding", &v) : -1;
  ok = ok && (np == 0 || np == 2 * rank);
  for (int d = 0; ok && d < rank; d++) lo[d] = np ? v[2 * d] : 0, hi[d] = np ? v[2 * d + 1] : 0;
  for (int k = 0; ok && k < n; k++) {
    const Type *rt = op->res[k].type;
    ok = rt->kind == TY_TENSOR && !rt->quant && cg_elem_basic(rt->elem) && rt->rank == rank &&
         type_num_elements(rt) <= INT32_MAX;
  }
  if (!ok) {
    gpu_unsupported(G, op, "");
    return;
  }
  GpuBuf *bufs;
  int nbufs;
  if (!gpu_op_bufs(G, op, 0, &bufs, &nbufs)) return;
  int64_t nout = type_num_elements(op->res[0].type);
  if (nout == 0) {
    xfree(bufs);
    return;
  }
  int d = prefix_dim(op, size, stride, bdil, wdil, lo, hi);
  if (d >= 0) {
    int64_t len = xt->dims[d], lines = nout / len;
    /* along the innermost dim, long lines, the operand's element type
       (the tile holds both): through shared memory (XLAC_GPU_PREFIX_TILE=0
       never) */
    const char *env = getenv("XLAC_GPU_PREFIX_TILE");
    if (d == rank - 1 && len >= PREFIX_ROW_MIN && xt->elem == op->res[0].type->elem && !(env && strcmp(env, "0") == 0)) {
      int64_t units = (lines + PREFIX_WARPS * GPU_WARP - 1) / (PREFIX_WARPS * GPU_WARP);
      gpu_add_launch(G, op, emit_prefix_rows(G, op, lines, len), units, units, PREFIX_WARPS * GPU_WARP, bufs, nbufs);
      return;
    }
    gpu_add_thread_launch(G, op, emit_prefix(G, op, d), lines, bufs, nbufs);
    return;
  }
  LLVMValueRef fn = emit_window(G, op, size, stride, bdil, wdil, lo);
  gpu_add_thread_launch(G, op, fn, nout, bufs, nbufs);
}
