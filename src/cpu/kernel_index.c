/*
 * kernel_index.c - kernels for the indexing ops that are not elemental:
 * scatter and sort, dynamic_update_slice when it updates its operand's
 * storage in place, and gather when its slices end in contiguous runs.
 * (dynamic_slice, other gathers and other dynamic_update_slices are
 * elemental, see elemental.c, and go through the loop kernels.)
 *
 * A gather whose slices end in a run of consecutive operand elements (rows
 * of an embedding table) reads the start indices of each slice once and
 * copies each run whole.
 *
 * Scatter copies each operand into its result, then applies the updates
 * in row-major order of the update index space: exactly the interpreter's
 * order, so duplicate indices give the same result, bit for bit.  Update
 * elements whose target lies outside the result are skipped.  The update
 * computation may be any region the elemental generator can compute (add,
 * max, a plain replacement, ...): its arguments are loads of the current
 * result element and the update.  When the update windows end in a run of
 * consecutive operand elements (rows added into a table), the start
 * indices are read once per window and the run, clipped to the operand, is
 * an inner loop the vectorizer widens; big ones split the operand's
 * trailing columns among chunks, each of which walks all the updates, so
 * every element still sees its updates in order.  When the op computing
 * the updates (a loop fusion, or one elementwise or index-mapping op) is
 * theirs alone, the kernel computes each update where it applies it, from
 * that op's operands, and the op emits nothing (scatter_update_src).
 *
 * Sort calls the runtime (runtime/sort.c): the keys-only comparators that
 * compare the first operand once (ascending, descending, total order) use
 * the runtime's specialized merge sorts; any other comparator the
 * elemental generator can compute is compiled into a function
 *   i32 less(ptr ins, i64 a, i64 b)
 * that the runtime's merge sort calls.  Both merge exactly like the
 * interpreter, so the permutation is identical.
 *
 * Every shape condition the interpreter checks is checked here before an
 * op is accepted; what fails goes through the interpreter thunk, which
 * reports it.
 */
#include <string.h>

#include "cpu/lower.h"
#include "ir/match.h"

/* ---- gather ---- */

/* A gather whose slices end in a contiguous run of more than one element
   (an embedding lookup: whole rows of a table) gets a kernel of its own:
   for each run of the result its start indices are read and clamped once
   and the run is one memcpy.  (A gather with consumers is fused into
   them instead, passes/fusion.c: its rows are read where they are used.)
   The inner
   dimensions of a run span their operand dimensions whole, so the proof
   that every slice is in bounds (elemental.c) clamps their starts to 0. */
static bool lower_gather(Lower *L, Op *op) {
  if (op->kind != OP_GATHER || op->nopnds != 2 || op->nres != 1) return false;
  Value *root = &op->res[0];
  if (!elemental_supported(&root, 1, op->opnds, 2)) return false;
  const Type *rt = root->type, *xt = op->opnds[0]->type;
  const Attr *a = op_attr(op, "dimension_numbers");
  int64_t *offset, *collapsed, *obatch;
  int noffset = dict_ints(a, "offset_dims", &offset);
  int ncollapsed = dict_ints(a, "collapsed_slice_dims", &collapsed);
  int nobatch = dict_ints(a, "operand_batching_dims", &obatch);
  int win[CG_MAX_RANK];
  window_dims(rt, offset, noffset, collapsed, ncollapsed, obatch, nobatch, win);
  int outer = rt->rank - trailing_run(rt, xt, win, NULL, 0);
  int64_t n = type_num_elements(rt), len = 1;
  for (int d = outer; d < rt->rank; d++) len *= rt->dims[d];
  if (n == 0 || len < 2) return false;

  Cg *cg = &L->cg;
  LLVMBasicBlockRef at = LLVMGetInsertBlock(cg->b);
  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  LLVMValueRef in[2] = {kernel_load_ptr(cg, ptrs, 0), kernel_load_ptr(cg, ptrs, 1)};
  LLVMValueRef out = kernel_load_ptr(cg, ptrs, 2);
  /* one loop over the runs, a chunk taking whole runs of about
     CHUNK_ELEMS elements; the index of a run in the dimensions before it */
  int64_t runs = n / len, per = len >= CHUNK_ELEMS ? 1 : CHUNK_ELEMS / len;
  LLVMValueRef lo = LLVMBuildMul(cg->b, chunk, cg_i64(cg, per), "");
  Loop l = loop_begin(cg, lo, cg_min64(cg, LLVMBuildAdd(cg->b, lo, cg_i64(cg, per), ""), cg_i64(cg, runs)), "run");
  LLVMValueRef idx[CG_MAX_RANK], full[CG_MAX_RANK];
  Type before = *rt;
  before.rank = outer;
  cg_delinearize(cg, &before, l.iv, idx);
  for (int d = outer; d < rt->rank; d++) idx[d] = cg_i64(cg, 0);
  KernelIO io = {0};
  io.ninputs = 2;
  io.inputs = op->opnds;
  io.input_ptrs = in;
  gather_operand_index(cg, &io, op, idx, full);
  kernel_io_free(&io);
  ElemType et = rt->elem;
  LLVMValueRef src = cg_elem_ptr(cg, et, in[0], cg_linearize(cg, xt, full));
  LLVMValueRef dst = cg_elem_ptr(cg, et, out, LLVMBuildMul(cg->b, l.iv, cg_i64(cg, len), ""));
  LLVMBuildMemCpy(cg->b, dst, 1, src, 1, cg_i64(cg, len * et_bytes(et)));
  loop_end(cg, &l);
  LLVMBuildRetVoid(cg->b);
  LLVMPositionBuilderAtEnd(cg->b, at);
  call_kernel_op(L, fn, (runs + per - 1) / per, op);
  return true;
}

/* ---- scatter ---- */

/* Copies of the operands into the results go in chunks of COPY_CHUNK_BYTES. */
enum { COPY_CHUNK_BYTES = 1 << 18 };

static LLVMValueRef max64(Cg *cg, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGT, a, b, ""), a, b, "");
}

bool scatter_takes_update(Lower *L, Op *op) {
  return scatter_update_taken(L->cg.m, L->buffers, L->alias_param, L->nalias, op);
}

/* The scatter kernel (chunk c: columns c of every block, see ScatterDims):
   ptrs = inputs, indices, updates (or, with u->op, the producer's
   operands), results.  With `copy` it first copies the inputs into the
   results (one chunk only).  The loop nest walks the update dimensions
   before the run in row-major order and reads the start indices once per
   run; the run, clipped to the operand and to the chunk's columns, is one
   inner loop (vectorized for the usual bodies).  Each result element thus
   sees its updates in the interpreter's order, on the one chunk that owns
   it. */
static LLVMValueRef emit_scatter(Lower *L, Op *op, const ScatterDims *s, const bool *copy, const UpdateSrc *u) {
  Cg *cg = &L->cg;
  int n = (op->nopnds - 1) / 2;
  const Type *xt = op->opnds[0]->type, *ut = op->opnds[n + 1]->type;
  int nsrc = u->op ? u->ninputs : n;
  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  LLVMValueRef ind = kernel_load_ptr(cg, ptrs, n), upd[MAX_SCATTER], res[MAX_SCATTER], src[MAX_UPDATE_INPUTS];
  for (int i = 0; i < nsrc; i++) src[i] = kernel_load_ptr(cg, ptrs, n + 1 + i);
  for (int k = 0; k < n; k++) {
    LLVMValueRef x = kernel_load_ptr(cg, ptrs, k);
    upd[k] = u->op ? NULL : src[k];
    res[k] = kernel_load_ptr(cg, ptrs, n + 1 + nsrc + k);
    int64_t nb = type_bytes(op->opnds[k]->type);
    if (copy[k] && nb > 0) LLVMBuildMemCpy(cg->b, res[k], 1, x, 1, cg_i64(cg, nb));
  }
  if (type_num_elements(ut) > 0 && type_num_elements(xt) > 0) {
    int outer = ut->rank - s->run, k0 = xt->rank - s->run;
    LLVMValueRef c0 = LLVMBuildMul(cg->b, chunk, cg_i64(cg, s->cols), "");
    LLVMValueRef c1 = cg_min64(cg, LLVMBuildAdd(cg->b, c0, cg_i64(cg, s->cols), ""), cg_i64(cg, s->block));
    Loop loops[CG_MAX_RANK];
    LLVMValueRef uidx[CG_MAX_RANK], full[CG_MAX_RANK];
    for (int d = 0; d < ut->rank; d++) uidx[d] = cg_i64(cg, 0);
    for (int d = 0; d < outer; d++) {
      loops[d] = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, ut->dims[d]), "u");
      uidx[d] = loops[d].iv;
    }
    LLVMValueRef inside = scatter_operand_index(cg, op, s, ind, uidx, full);
    LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(cg->ctx, fn, "apply");
    LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(cg->ctx, fn, "next");
    LLVMBuildCondBr(cg->b, inside, then, cont);
    LLVMPositionBuilderAtEnd(cg->b, then);
    if (s->run) {
      /* the run starts at s0 along k0 (the dimensions inside it start at 0)
         and covers columns [s0 * inner, (s0 + size) * inner) of its block
         (the window fits), of which those of the chunk, [c0, c1), apply */
      int64_t size = ut->dims[outer];
      LLVMValueRef s0 = full[k0], inner = cg_i64(cg, s->inner);
      full[k0] = cg_i64(cg, 0);
      LLVMValueRef first = LLVMBuildMul(cg->b, s0, inner, "");
      LLVMValueRef last = LLVMBuildMul(cg->b, LLVMBuildAdd(cg->b, s0, cg_i64(cg, size), ""), inner, "");
      LLVMValueRef base = cg_linearize(cg, xt, full);
      LLVMValueRef ubase = LLVMBuildSub(cg->b, cg_linearize(cg, ut, uidx), first, "");
      Loop r = loop_begin(cg, max64(cg, first, c0), cg_min64(cg, last, c1), "run");
      LLVMValueRef off = LLVMBuildAdd(cg->b, base, r.iv, "");
      if (u->op) {
        /* the run's dimensions of the update index from the position in
           the run */
        Type tail = *ut;
        tail.rank = s->run;
        tail.dims = ut->dims + outer;
        tail.layout = NULL;
        cg_delinearize(cg, &tail, LLVMBuildSub(cg->b, r.iv, first, ""), uidx + outer);
        LLVMValueRef v = scatter_update_value(cg, u, src, uidx);
        scatter_apply_values(cg, op, res, off, &v);
      } else {
        scatter_apply(cg, op, res, upd, off, LLVMBuildAdd(cg->b, ubase, r.iv, ""));
      }
      loop_end(cg, &r);
    } else if (u->op) {
      LLVMValueRef v = scatter_update_value(cg, u, src, uidx);
      scatter_apply_values(cg, op, res, cg_linearize(cg, xt, full), &v);
    } else {
      scatter_apply(cg, op, res, upd, cg_linearize(cg, xt, full), cg_linearize(cg, ut, uidx));
    }
    LLVMBuildBr(cg->b, cont);
    LLVMPositionBuilderAtEnd(cg->b, cont);
    for (int d = outer - 1; d >= 0; d--) loop_end(cg, &loops[d]);
  }
  LLVMBuildRetVoid(cg->b);
  return fn;
}

/* A kernel copying src's buffer into dst's, COPY_CHUNK_BYTES per chunk. */
static void copy_parallel(Lower *L, Value *src, Value *dst) {
  Cg *cg = &L->cg;
  int64_t nb = type_bytes(src->type);
  if (nb <= 0) return;
  LLVMBasicBlockRef at = LLVMGetInsertBlock(cg->b);
  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  LLVMValueRef lo = LLVMBuildMul(cg->b, chunk, cg_i64(cg, COPY_CHUNK_BYTES), "");
  LLVMValueRef len = cg_min64(cg, cg_i64(cg, COPY_CHUNK_BYTES), LLVMBuildSub(cg->b, cg_i64(cg, nb), lo, ""));
  LLVMValueRef from = LLVMBuildGEP2(cg->b, cg->t_i8, kernel_load_ptr(cg, ptrs, 0), &lo, 1, "");
  LLVMValueRef to = LLVMBuildGEP2(cg->b, cg->t_i8, kernel_load_ptr(cg, ptrs, 1), &lo, 1, "");
  LLVMBuildMemCpy(cg->b, to, 1, from, 1, len);
  LLVMBuildRetVoid(cg->b);
  LLVMPositionBuilderAtEnd(cg->b, at);
  Value *bufs[2] = {src, dst};
  call_kernel(L, fn, (nb + COPY_CHUNK_BYTES - 1) / COPY_CHUNK_BYTES, bufs, 2);
}

static bool lower_scatter(Lower *L, Op *op) {
  ScatterDims s;
  if (!scatter_ok(op, &s)) return false;
  int n = (op->nopnds - 1) / 2;
  /* the copies must be complete before any chunk applies updates: with
     several chunks, or big enough to be split, they run first on their own;
     an operand whose storage the result took (passes/buffers.c) is there
     already */
  bool inside = s.nchunks == 1 && type_bytes(op->opnds[0]->type) <= COPY_CHUNK_BYTES;
  bool copy[MAX_SCATTER];
  for (int k = 0; k < n; k++) {
    bool there = buffers_same_storage(L->buffers, op->opnds[k], &op->res[k]);
    copy[k] = inside && !there;
    if (!inside && !there) copy_parallel(L, op->opnds[k], &op->res[k]);
  }
  UpdateSrc u = {0};
  if (!scatter_update_src(L->cg.m, L->buffers, L->alias_param, L->nalias, op, &u)) u = (UpdateSrc){0};
  LLVMBasicBlockRef at = LLVMGetInsertBlock(L->cg.b);
  LLVMValueRef kfn = emit_scatter(L, op, &s, copy, &u);
  LLVMPositionBuilderAtEnd(L->cg.b, at);
  if (!u.op) {
    call_kernel_op(L, kfn, s.nchunks, op);
    return true;
  }
  /* the updates' producer's operands in place of the updates */
  Value *bufs[3 + MAX_UPDATE_INPUTS];
  int nb = 0;
  bufs[nb++] = op->opnds[0];
  bufs[nb++] = op->opnds[1];
  for (int i = 0; i < u.op->nopnds; i++) bufs[nb++] = u.op->opnds[i];
  bufs[nb++] = &op->res[0];
  call_kernel(L, kfn, s.nchunks, bufs, nb);
  lower_count_fusion(L);
  return true;
}

/* ---- sort ---- */

static int sort_key_type(ElemType et) {
  switch (et) {
  case ET_S2: case ET_S4: case ET_S8: return XLACRT_KEY_S8;
  case ET_S16: return XLACRT_KEY_S16;
  case ET_S32: return XLACRT_KEY_S32;
  case ET_S64: return XLACRT_KEY_S64;
  case ET_PRED: case ET_U2: case ET_U4: case ET_U8: return XLACRT_KEY_U8;
  case ET_U16: return XLACRT_KEY_U16;
  case ET_U32: return XLACRT_KEY_U32;
  case ET_U64: return XLACRT_KEY_U64;
  case ET_F16: return XLACRT_KEY_F16;
  case ET_BF16: return XLACRT_KEY_BF16;
  case ET_F32: return XLACRT_KEY_F32;
  case ET_F64: return XLACRT_KEY_F64;
  default: return -1;
  }
}

/* A comparator that is one comparison of keys of the first operand's two
   elements (ir/match.c).  Sets the runtime's key type, order (1: total,
   2: total after making NaNs one NaN and -0 +0) and direction. */
static bool simple_comparator(const Op *op, int *key, int *total, int *dir) {
  KeyCompare kc;
  if (!match_key_compare(op->regions[0], &kc)) return false;
  *key = sort_key_type(op->opnds[0]->type->elem);
  if (*key < 0) return false;
  *total = kc.canonical ? 2 : kc.total;
  static const char *const names[] = {"LT", "GT", "LE", "GE", "EQ", "NE"};
  for (int i = 0; i < 6; i++)
    if (!strcmp(kc.direction, names[i])) {
      *dir = i;
      return true;
    }
  return false;
}

/* The comparator region as a function less(ins, a, b). */
static LLVMValueRef emit_comparator(Lower *L, Op *op) {
  Cg *cg = &L->cg;
  int n = op->nopnds;
  char name[32];
  snprintf(name, sizeof name, "sort_less.%d", cg->counter++);
  LLVMTypeRef params[3] = {cg->t_ptr, cg->t_i64, cg->t_i64};
  LLVMValueRef fn = LLVMAddFunction(cg->mod, name, LLVMFunctionType(cg->t_i32, params, 3, 0));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry"));
  LLVMValueRef ins = LLVMGetParam(fn, 0), a = LLVMGetParam(fn, 1), bpos = LLVMGetParam(fn, 2);
  LLVMValueRef args[2 * MAX_SCATTER];
  for (int k = 0; k < n; k++) {
    ElemType et = op->opnds[k]->type->elem;
    LLVMValueRef base = kernel_load_ptr(cg, ins, k);
    args[2 * k] = cg_elem_ptr(cg, et, base, a);
    args[2 * k + 1] = cg_elem_ptr(cg, et, base, bpos);
  }
  Block *body = op->regions[0];
  KernelIO io = {0};
  io.ninputs = 2 * n;
  io.inputs = body->args;
  io.input_ptrs = args;
  LLVMValueRef v = emit_elemental(cg, &io, block_terminator(body)->opnds[0], NULL);
  kernel_io_free(&io);
  LLVMBuildRet(cg->b, LLVMBuildZExt(cg->b, v, cg->t_i32, ""));
  return fn;
}

static LLVMValueRef runtime_fn(Cg *cg, const char *name, LLVMTypeRef *params, int n) {
  LLVMTypeRef fty = LLVMFunctionType(cg->t_void, params, (unsigned)n, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, name);
  if (!fn) fn = LLVMAddFunction(cg->mod, name, fty);
  return fn;
}

static bool lower_sort(Lower *L, Op *op) {
  Cg *cg = &L->cg;
  int n = op->nopnds;
  if (n < 1 || n > MAX_SCATTER || op->nres != n || op->nregions != 1) return false;
  const Type *xt = op->opnds[0]->type;
  const Type *types[2 * MAX_SCATTER], *rtypes[1];
  for (int k = 0; k < n; k++) {
    const Type *x = op->opnds[k]->type, *r = op->res[k].type;
    if (!cg_tensor_native(x) || !type_same_shape(x, xt) || !type_same_shape(r, x) || r->elem != x->elem)
      return false;
    types[2 * k] = types[2 * k + 1] = x;
  }
  int64_t dim = op_attr_int(op, "dimension", -1);
  if (dim < 0) dim += xt->rank;
  if (dim < 0 || dim >= xt->rank) return false;
  Type pred = {0};
  pred.kind = TY_TENSOR;
  pred.elem = ET_PRED;
  rtypes[0] = &pred;
  if (!region_elemental(op->regions[0], 2 * n, types, 1, rtypes)) return false;
  int key = 0, total = 0, dir = 0;
  bool simple = simple_comparator(op, &key, &total, &dir);
  LLVMBasicBlockRef at = LLVMGetInsertBlock(cg->b);
  LLVMValueRef less = simple ? NULL : emit_comparator(L, op);

  /* the call, in the entry function where it stands */
  LLVMPositionBuilderAtEnd(cg->b, at);
  int64_t len = xt->dims[dim], outer = 1, inner = 1;
  for (int d = 0; d < dim; d++) outer *= xt->dims[d];
  for (int d = (int)dim + 1; d < xt->rank; d++) inner *= xt->dims[d];
  Value *vals[MAX_SCATTER];
  for (int k = 0; k < n; k++) vals[k] = op->opnds[k];
  LLVMValueRef ins = ptr_array(L, vals, n);
  for (int k = 0; k < n; k++) vals[k] = &op->res[k];
  LLVMValueRef outs = ptr_array(L, vals, n);
  LLVMValueRef bytes[MAX_SCATTER];
  for (int k = 0; k < n; k++) bytes[k] = LLVMConstInt(cg->t_i32, (unsigned)et_bytes(op->opnds[k]->type->elem), 0);
  LLVMValueRef init = LLVMConstArray(cg->t_i32, bytes, (unsigned)n);
  LLVMValueRef g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), "sort_bytes");
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  if (simple) {
    LLVMTypeRef p[11] = {cg->t_ptr, cg->t_i64, cg->t_i64, cg->t_i64, cg->t_i32, cg->t_i32,
                         cg->t_i32, cg->t_i32, cg->t_ptr, cg->t_ptr, cg->t_ptr};
    LLVMValueRef fn = runtime_fn(cg, "xlacrt_sort", p, 11);
    LLVMValueRef a[11] = {L->p_pool, cg_i64(cg, outer), cg_i64(cg, len), cg_i64(cg, inner),
                          LLVMConstInt(cg->t_i32, (unsigned)key, 0), LLVMConstInt(cg->t_i32, (unsigned)total, 0),
                          LLVMConstInt(cg->t_i32, (unsigned)dir, 0), LLVMConstInt(cg->t_i32, (unsigned)n, 0),
                          ins, outs, g};
    LLVMBuildCall2(cg->b, LLVMFunctionType(cg->t_void, p, 11, 0), fn, a, 11, "");
  } else {
    LLVMTypeRef p[9] = {cg->t_ptr, cg->t_i64, cg->t_i64, cg->t_i64, cg->t_i32,
                        cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_ptr};
    LLVMValueRef fn = runtime_fn(cg, "xlacrt_sort_cmp", p, 9);
    LLVMValueRef a[9] = {L->p_pool, cg_i64(cg, outer), cg_i64(cg, len), cg_i64(cg, inner),
                         LLVMConstInt(cg->t_i32, (unsigned)n, 0), ins, outs, g, less};
    LLVMBuildCall2(cg->b, LLVMFunctionType(cg->t_void, p, 9, 0), fn, a, 9, "");
  }
  return true;
}

/* chlo.top_k (and XLA's TopK with a total-order comparator, which
   chlo-decompose turns into one): a selection per row in the runtime
   instead of a sort of the whole row. */
static bool lower_top_k(Lower *L, Op *op) {
  Cg *cg = &L->cg;
  if (op->nopnds != 1 || op->nres != 2) return false;
  const Type *xt = op->opnds[0]->type, *vt = op->res[0].type, *it = op->res[1].type;
  int key = sort_key_type(xt->elem);
  if (key < 0 || xt->rank < 1 || !cg_tensor_native(xt) || !cg_tensor_native(it) || vt->elem != xt->elem ||
      !et_is_int(it->elem) || et_bits(it->elem) < 8)
    return false;
  int64_t len = xt->dims[xt->rank - 1], k = vt->dims[vt->rank - 1];
  int64_t rows = len ? type_num_elements(xt) / len : 0;
  LLVMTypeRef p[9] = {cg->t_ptr, cg->t_i64, cg->t_i64, cg->t_i64, cg->t_i32,
                      cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_i32};
  LLVMValueRef fn = runtime_fn(cg, "xlacrt_top_k", p, 9);
  LLVMValueRef a[9] = {L->p_pool, cg_i64(cg, rows), cg_i64(cg, len), cg_i64(cg, k),
                       LLVMConstInt(cg->t_i32, (unsigned)key, 0), value_ptr(L, op->opnds[0]),
                       value_ptr(L, &op->res[0]), value_ptr(L, &op->res[1]),
                       LLVMConstInt(cg->t_i32, (unsigned)et_bytes(it->elem), 0)};
  LLVMBuildCall2(cg->b, LLVMFunctionType(cg->t_void, p, 9, 0), fn, a, 9, "");
  return true;
}

/* ---- dynamic_update_slice in place ---- */

/* Buffer assignment gives a dynamic_update_slice its operand's storage when
   the operand dies there (passes/buffers.c); then only the window is
   written: a loop nest over the update, rows split into fixed chunks, each
   row a contiguous copy.  Start indices are clamped as the spec says. */
static bool lower_dus_in_place(Lower *L, Op *op) {
  bool vec;
  if (!dus_in_place(L->buffers, op, true, &vec)) return false;
  Value *x = op->opnds[0], *u = op->opnds[1];
  const Type *xt = x->type, *ut = u->type;
  int rank = xt->rank, nstart = op->nopnds - 2;
  int64_t n = type_num_elements(ut);
  if (n == 0) return true; /* nothing to write: the storage already holds the operand */

  Cg *cg = &L->cg;
  LLVMBasicBlockRef at = LLVMGetInsertBlock(cg->b);
  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  LLVMValueRef up = kernel_load_ptr(cg, ptrs, 0), out = kernel_load_ptr(cg, ptrs, nstart + 1);
  LLVMValueRef start[CG_MAX_RANK];
  for (int d = 0; d < rank; d++) {
    Value *sv = op->opnds[vec ? 2 : 2 + d];
    LLVMValueRef p = kernel_load_ptr(cg, ptrs, vec ? 1 : 1 + d);
    LLVMValueRef v = cg_index_to_i64(cg, sv->type->elem, cg_load(cg, sv->type->elem, p, cg_i64(cg, vec ? d : 0)));
    start[d] = cg_clamp_i64(cg, v, 0, xt->dims[d] - ut->dims[d]);
  }
  /* chunks split the update's first dimension */
  int64_t inner = n / ut->dims[0];
  int64_t ch0 = inner >= CHUNK_ELEMS ? 1 : CHUNK_ELEMS / inner;
  int64_t nchunks = (ut->dims[0] + ch0 - 1) / ch0;
  LLVMValueRef lo = LLVMBuildMul(cg->b, chunk, cg_i64(cg, ch0), "");
  LLVMValueRef hi = cg_min64(cg, LLVMBuildAdd(cg->b, lo, cg_i64(cg, ch0), ""), cg_i64(cg, ut->dims[0]));
  Loop loops[CG_MAX_RANK];
  LLVMValueRef uidx[CG_MAX_RANK], xidx[CG_MAX_RANK];
  for (int d = 0; d < rank; d++) {
    loops[d] = d == 0 ? loop_begin(cg, lo, hi, "u0") : loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, ut->dims[d]), "u");
    uidx[d] = loops[d].iv;
    xidx[d] = LLVMBuildAdd(cg->b, start[d], uidx[d], "");
  }
  ElemType et = xt->elem;
  LLVMValueRef v = cg_load(cg, et, up, cg_linearize(cg, ut, uidx));
  cg_store(cg, et, out, cg_linearize(cg, xt, xidx), v);
  for (int d = rank - 1; d >= 0; d--) loop_end(cg, &loops[d]);
  LLVMBuildRetVoid(cg->b);
  LLVMPositionBuilderAtEnd(cg->b, at);
  Value *bufs[CG_MAX_RANK + 2];
  int nb = 0;
  for (int i = 1; i < op->nopnds; i++) bufs[nb++] = op->opnds[i];
  bufs[nb++] = &op->res[0];
  call_kernel(L, fn, nchunks, bufs, nb);
  return true;
}

bool lower_indexing(Lower *L, Op *op) {
  if (lower_transpose(L, op)) return true;
  if (lower_window(L, op)) return true;
  switch (op->kind) {
  case OP_DYNAMIC_UPDATE_SLICE: return lower_dus_in_place(L, op);
  case OP_GATHER: return lower_gather(L, op);
  case OP_SCATTER: return lower_scatter(L, op);
  case OP_SORT: return lower_sort(L, op);
  case OP_CHLO_TOP_K: return lower_top_k(L, op);
  default: return false;
  }
}
