/*
 * kernel_window.c - kernels for the windowed ops: reduce_window (pooling)
 * and select_and_scatter (the gradient of max pooling).
 *
 * reduce_window with a one-op body (add, max, min, mul, and, or, xor; see
 * simple_reducer) becomes a loop over the output elements, split into
 * fixed chunks.  Each output element starts from the init value and
 * combines the window's positions one by one in row-major window order,
 * exactly as the interpreter does (src/interp/reduce.c): a position in the
 * padding or in a hole of the base dilation contributes the init value.
 * So results are bit-identical to the interpreter's for every type, and no
 * result depends on the thread count.
 *
 * select_and_scatter with a compare as the select and a reducer op as the
 * scatter runs on one thread in row-major source order, like the
 * interpreter: for each source element it picks the first position of its
 * window (padding excluded) that the select prefers, then combines the
 * source element into the result there.  Overlapping windows thus combine
 * in the interpreter's order.  Windows that do not overlap (max pooling's
 * gradient) run on the pool instead, with a vectorized search along the
 * innermost dimension: their scatters touch disjoint elements.
 *
 * A simple reduce_window along one axis that is a prefix scan (cumsum,
 * cumprod, cummax, cummin: the window spans the axis) or an integer sum
 * over a long sliding window runs in one pass per row instead; see "along
 * one axis" below.
 *
 * reduce_window with any other body the elemental generator can compute,
 * and with several inputs (variadic), runs the same loop with the body
 * evaluated as a region on the accumulators and the window element
 * (kernel_reduce.c's ReduceBody), all results from one evaluation: again
 * the interpreter's order, bit for bit.
 *
 * Anything else (malformed attributes, unsupported types or body ops) is
 * left to the interpreter thunk, which also reports the errors.
 */
#include <string.h>

#include "cpu/lower.h"

/* Window attributes with their defaults filled in (as the interpreter). */
typedef struct Win {
  int rank;
  int64_t size[CG_MAX_RANK], stride[CG_MAX_RANK], bdil[CG_MAX_RANK], wdil[CG_MAX_RANK],
      lo[CG_MAX_RANK], hi[CG_MAX_RANK];
  int64_t count; /* positions in one window */
} Win;

static bool ints_or(const Op *op, const char *name, int rank, int64_t *out) {
  int64_t *v = NULL;
  int n = op_attr_ints(op, name, &v);
  if (n == 0) {
    for (int d = 0; d < rank; d++) out[d] = 1;
    return true;
  }
  if (n != rank) return false;
  for (int d = 0; d < rank; d++) {
    if (v[d] < 1 || v[d] > INT32_MAX) return false;
    out[d] = v[d];
  }
  return true;
}

/* Reads the window; false when the interpreter would reject it (or the
   window is absurdly large), so the thunk reports it. */
static bool read_win(const Op *op, int rank, Win *w) {
  if (rank > CG_MAX_RANK) return false;
  w->rank = rank;
  int64_t *v = NULL;
  if (op_attr_ints(op, "window_dimensions", &v) != rank) return false;
  w->count = 1;
  for (int d = 0; d < rank; d++) {
    if (v[d] < 0 || v[d] > INT32_MAX) return false;
    w->size[d] = v[d];
    if (v[d] > 0 && w->count > (INT64_C(1) << 40) / v[d]) return false;
    w->count *= v[d];
  }
  if (!ints_or(op, "window_strides", rank, w->stride) || !ints_or(op, "base_dilations", rank, w->bdil) ||
      !ints_or(op, "window_dilations", rank, w->wdil))
    return false;
  int np = op_attr_ints(op, "padding", &v);
  if (np != 0 && np != 2 * rank) return false;
  for (int d = 0; d < rank; d++) {
    w->lo[d] = np ? v[2 * d] : 0;
    w->hi[d] = np ? v[2 * d + 1] : 0;
    if (w->lo[d] < -INT32_MAX || w->lo[d] > INT32_MAX || w->hi[d] < -INT32_MAX || w->hi[d] > INT32_MAX)
      return false;
  }
  return true;
}

/* The input coordinate of window position p (already p = out*stride +
   w*wdil) in dimension d: sets *q and ANDs whether it lies inside the
   input (not padding, not a dilation hole) into *inside. */
static void unpad(Cg *cg, const Win *w, int d, int64_t dim, LLVMValueRef p, LLVMValueRef *q,
                  LLVMValueRef *inside) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef x = LLVMBuildSub(b, p, cg_i64(cg, w->lo[d]), "");
  LLVMValueRef ok = LLVMBuildICmp(b, LLVMIntSGE, x, cg_i64(cg, 0), "");
  if (w->bdil[d] > 1) {
    /* x may be negative here; the result is only used when x >= 0 */
    LLVMValueRef bd = cg_i64(cg, w->bdil[d]);
    LLVMValueRef xc = LLVMBuildSelect(b, ok, x, cg_i64(cg, 0), "");
    ok = LLVMBuildAnd(b, ok, LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildURem(b, xc, bd, ""), cg_i64(cg, 0), ""), "");
    x = LLVMBuildUDiv(b, xc, bd, "");
  }
  ok = LLVMBuildAnd(b, ok, LLVMBuildICmp(b, LLVMIntSLT, x, cg_i64(cg, dim), ""), "");
  *inside = *inside ? LLVMBuildAnd(b, *inside, ok, "") : ok;
  *q = x;
}

/* ---- reduce_window ---- */

static bool reduce_window_ok(const Op *op, Win *w) {
  if (op->nopnds != 2 || op->nres != 1 || op->nregions != 1) return false;
  const Type *xt = op->opnds[0]->type, *it = op->opnds[1]->type, *rt = op->res[0].type;
  if (!cg_tensor_native(xt) || !cg_tensor_native(it) || !cg_tensor_native(rt)) return false;
  if (it->rank != 0 || rt->rank != xt->rank || it->elem != xt->elem || rt->elem != xt->elem) return false;
  Op *body = simple_reducer(op);
  if (!body) return false;
  Block *b = op->regions[0];
  for (int i = 0; i < 2; i++) {
    const Type *t = b->args[i]->type;
    if (t->kind != TY_TENSOR || t->rank != 0 || t->quant || t->elem != xt->elem) return false;
  }
  const Type *bt = body->res[0].type;
  if (bt->kind != TY_TENSOR || bt->rank != 0 || bt->quant || bt->elem != xt->elem) return false;
  return read_win(op, xt->rank, w);
}

/* acc op x with the body's argument order (arg 0 is the accumulator), so
   even NaN payloads match the interpreter. */
static LLVMValueRef combine(Cg *cg, const Op *reducer, const Block *b, ElemType et, LLVMValueRef acc,
                            LLVMValueRef x) {
  ElemType ts[2] = {et, et};
  LLVMValueRef args[2] = {acc, x};
  if (reducer->opnds[0] == b->args[1]) {
    args[0] = x;
    args[1] = acc;
  }
  return emit_scalar_op(cg, reducer, ts, args, et);
}

/* Outputs per chunk, about CHUNK_ELEMS window elements' worth, and the
   chunk count for n outputs. */
static int64_t window_chunk(const Win *w, int64_t n, int64_t *nchunks) {
  int64_t per = w->count > 0 ? w->count : 1;
  int64_t ch = CHUNK_ELEMS / per > 0 ? CHUNK_ELEMS / per : 1;
  *nchunks = n > 0 ? (n + ch - 1) / ch : 0;
  return ch;
}

/* The kernel: ptrs = operand, init, result; chunks of output elements. */
static LLVMValueRef emit_reduce_window(Lower *L, Op *op, const Win *w, int64_t *nchunks) {
  Cg *cg = &L->cg;
  LLVMBuilderRef b = cg->b;
  Value *x = op->opnds[0], *init = op->opnds[1];
  const Type *xt = x->type, *rt = op->res[0].type;
  ElemType et = xt->elem;
  int rank = xt->rank;
  int64_t n = type_num_elements(rt);
  int64_t ch = window_chunk(w, n, nchunks);

  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  LLVMValueRef accp = LLVMBuildAlloca(b, cg_compute_type(cg, et), "acc");
  Value *inputs[2] = {x, init};
  LLVMValueRef in_ptrs[3] = {kernel_load_ptr(cg, ptrs, 0), kernel_load_ptr(cg, ptrs, 1), NULL};
  LLVMValueRef out = kernel_load_ptr(cg, ptrs, 2);
  KernelIO io = {0};
  io.ninputs = 2;
  io.inputs = inputs;
  io.input_ptrs = in_ptrs;
  LLVMValueRef none[1] = {NULL};
  LLVMValueRef initv = emit_elemental(cg, &io, init, none);
  bool empty_input = type_num_elements(xt) == 0;

  LLVMValueRef lo = LLVMBuildMul(b, chunk, cg_i64(cg, ch), "");
  LLVMValueRef hi = cg_min64(cg, LLVMBuildAdd(b, lo, cg_i64(cg, ch), ""), cg_i64(cg, n));
  Loop ol = loop_begin(cg, lo, hi, "out");
  LLVMValueRef ridx[CG_MAX_RANK], base[CG_MAX_RANK];
  cg_delinearize(cg, rt, ol.iv, ridx);
  for (int d = 0; d < rank; d++) base[d] = LLVMBuildMul(b, ridx[d], cg_i64(cg, w->stride[d]), "");
  LLVMBuildStore(b, initv, accp);
  if (w->count > 0) {
    Loop wl[CG_MAX_RANK];
    LLVMValueRef q[CG_MAX_RANK], inside = NULL;
    for (int d = 0; d < rank; d++) {
      wl[d] = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, w->size[d]), "win");
      LLVMValueRef p = LLVMBuildAdd(b, base[d], LLVMBuildMul(b, wl[d].iv, cg_i64(cg, w->wdil[d]), ""), "");
      unpad(cg, w, d, xt->dims[d], p, &q[d], &inside);
    }
    LLVMValueRef v = initv;
    if (!empty_input) {
      /* outside positions read element 0 (always there) and discard it */
      LLVMValueRef safe[CG_MAX_RANK];
      for (int d = 0; d < rank; d++) safe[d] = inside ? LLVMBuildSelect(b, inside, q[d], cg_i64(cg, 0), "") : q[d];
      kernel_io_reset_memo(&io);
      LLVMValueRef e = emit_elemental(cg, &io, x, safe);
      v = inside ? LLVMBuildSelect(b, inside, e, initv, "") : e;
    }
    LLVMValueRef acc = LLVMBuildLoad2(b, cg_compute_type(cg, et), accp, "");
    LLVMBuildStore(b, combine(cg, simple_reducer(op), op->regions[0], et, acc, v), accp);
    for (int d = rank - 1; d >= 0; d--) loop_end(cg, &wl[d]);
  }
  cg_store(cg, et, out, ol.iv, LLVMBuildLoad2(b, cg_compute_type(cg, et), accp, ""));
  loop_end(cg, &ol);
  LLVMBuildRetVoid(b);
  kernel_io_free(&io);
  return fn;
}

/* The last dimension is a plain copy when its window is one element with
   stride 1 and no padding or dilation in front: every output element of a
   row then reads the same window positions of a contiguous input row, and
   the kernel runs the window loops outside and a loop over the row inside,
   accumulating in the output row.  Each element still combines its window
   in row-major order (it is the same order with the last dimension's one
   position), and the row loop vectorizes.  This is NHWC pooling. */
static bool rows_ok(const Op *op, const Win *w) {
  const Type *xt = op->opnds[0]->type, *rt = op->res[0].type;
  int k = xt->rank - 1;
  return k >= 1 && w->size[k] == 1 && w->stride[k] == 1 && w->bdil[k] == 1 && w->lo[k] == 0 &&
         rt->dims[k] <= xt->dims[k] && rt->dims[k] >= 4 && type_num_elements(xt) > 0;
}

static LLVMValueRef emit_reduce_window_rows(Lower *L, Op *op, const Win *w, int64_t *nchunks) {
  Cg *cg = &L->cg;
  LLVMBuilderRef b = cg->b;
  const Type *xt = op->opnds[0]->type, *rt = op->res[0].type;
  ElemType et = xt->elem;
  int k = xt->rank - 1;
  int64_t row = rt->dims[k], nrows = type_num_elements(rt) / row;
  int64_t cnt = w->count > 0 ? w->count : 1; /* (no overflow: count <= 2^40) */
  int64_t ch = cnt <= CHUNK_ELEMS / row ? CHUNK_ELEMS / row / cnt : 1;
  if (ch < 1) ch = 1;
  *nchunks = nrows > 0 ? (nrows + ch - 1) / ch : 0;
  int64_t xs[CG_MAX_RANK], m = 1;
  for (int d = k; d >= 0; d--) {
    xs[d] = m;
    m *= xt->dims[d];
  }
  /* the output rows, as a tensor of rank k */
  Type rows = *rt;
  rows.rank = k;

  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  LLVMValueRef xp = kernel_load_ptr(cg, ptrs, 0), ip = kernel_load_ptr(cg, ptrs, 1);
  LLVMValueRef out = kernel_load_ptr(cg, ptrs, 2);
  LLVMValueRef initv = cg_load(cg, et, ip, cg_i64(cg, 0));
  Op *red = simple_reducer(op);
  LLVMValueRef lo = LLVMBuildMul(b, chunk, cg_i64(cg, ch), "");
  LLVMValueRef hi = cg_min64(cg, LLVMBuildAdd(b, lo, cg_i64(cg, ch), ""), cg_i64(cg, nrows));
  Loop ol = loop_begin(cg, lo, hi, "row");
  LLVMValueRef ridx[CG_MAX_RANK];
  cg_delinearize(cg, &rows, ol.iv, ridx);
  LLVMValueRef obase = LLVMBuildMul(b, ol.iv, cg_i64(cg, row), "");
  Loop fl = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, row), "fill");
  cg_store(cg, et, out, LLVMBuildAdd(b, obase, fl.iv, ""), initv);
  loop_end(cg, &fl);
  if (w->count > 0) {
    Loop wl[CG_MAX_RANK];
    LLVMValueRef off = cg_i64(cg, 0), inside = NULL;
    for (int d = 0; d < k; d++) {
      wl[d] = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, w->size[d]), "win");
      LLVMValueRef p = LLVMBuildAdd(b, LLVMBuildMul(b, ridx[d], cg_i64(cg, w->stride[d]), ""),
                                    LLVMBuildMul(b, wl[d].iv, cg_i64(cg, w->wdil[d]), ""), "");
      LLVMValueRef q;
      unpad(cg, w, d, xt->dims[d], p, &q, &inside);
      off = LLVMBuildAdd(b, off, LLVMBuildMul(b, q, cg_i64(cg, xs[d]), ""), "");
    }
    /* a row in the padding combines the init value into every element */
    LLVMBasicBlockRef in_bb = LLVMAppendBasicBlockInContext(cg->ctx, fn, "inside");
    LLVMBasicBlockRef pad_bb = LLVMAppendBasicBlockInContext(cg->ctx, fn, "padding");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(cg->ctx, fn, "join");
    LLVMBuildCondBr(b, inside, in_bb, pad_bb);
    for (int pass = 0; pass < 2; pass++) {
      LLVMPositionBuilderAtEnd(b, pass == 0 ? in_bb : pad_bb);
      Loop cl = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, row), "c");
      LLVMValueRef oi = LLVMBuildAdd(b, obase, cl.iv, "");
      LLVMValueRef v = pass == 0 ? cg_load(cg, et, xp, LLVMBuildAdd(b, off, cl.iv, "")) : initv;
      cg_store(cg, et, out, oi, combine(cg, red, op->regions[0], et, cg_load(cg, et, out, oi), v));
      loop_end(cg, &cl);
      LLVMBuildBr(b, join);
    }
    LLVMPositionBuilderAtEnd(b, join);
    for (int d = k - 1; d >= 0; d--) loop_end(cg, &wl[d]);
  }
  loop_end(cg, &ol);
  LLVMBuildRetVoid(b);
  return fn;
}

/* ---- reduce_window with a general or variadic body ---- */

/* n inputs of one shape, n scalar inits, n results of one shape, and a
   body the elemental generator can compute (see reduce_body_ok). */
static bool general_window_ok(const Op *op, Win *w) {
  int n = op->nres;
  if (n < 1 || n > 16 || op->nopnds != 2 * n || op->nregions != 1) return false;
  const Type *xt = op->opnds[0]->type, *rt = op->res[0].type;
  for (int k = 0; k < n; k++) {
    const Type *a = op->opnds[k]->type, *i = op->opnds[n + k]->type, *r = op->res[k].type;
    if (!cg_tensor_native(a) || !cg_tensor_native(i) || !cg_tensor_native(r)) return false;
    if (a->quant || i->quant || r->quant) return false;
    if (!type_same_shape(a, xt) || !type_same_shape(r, rt) || rt->rank != xt->rank || i->rank != 0) return false;
  }
  if (!reduce_body_ok(op)) return false;
  return read_win(op, xt->rank, w);
}

/* The kernel: ptrs = inputs, inits, results; chunks of output elements.
   Each output combines its window positions in row-major window order,
   a position in the padding or a base dilation hole contributing the init
   values, as the interpreter does. */
static LLVMValueRef emit_reduce_window_general(Lower *L, Op *op, const Win *w, int64_t *nchunks) {
  Cg *cg = &L->cg;
  LLVMBuilderRef b = cg->b;
  int n = op->nres;
  const Type *xt = op->opnds[0]->type, *rt = op->res[0].type;
  int rank = xt->rank;
  int64_t nout = type_num_elements(rt);
  int64_t ch = window_chunk(w, nout, nchunks);

  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  LLVMValueRef in_ptrs[32], outs[16], accp[16], initv[16];
  LLVMTypeRef ct[16];
  for (int i = 0; i < 2 * n; i++) in_ptrs[i] = kernel_load_ptr(cg, ptrs, i);
  for (int k = 0; k < n; k++) outs[k] = kernel_load_ptr(cg, ptrs, 2 * n + k);
  KernelIO io = {0};
  io.ninputs = 2 * n;
  io.inputs = op->opnds;
  io.input_ptrs = in_ptrs;
  LLVMValueRef none[1] = {NULL};
  for (int k = 0; k < n; k++) {
    initv[k] = emit_elemental(cg, &io, op->opnds[n + k], none);
    ct[k] = LLVMTypeOf(initv[k]);
    accp[k] = LLVMBuildAlloca(b, ct[k], "acc");
  }
  ReduceBody *body = reduce_body_new(cg, fn, op);
  bool empty_input = type_num_elements(xt) == 0;

  LLVMValueRef lo = LLVMBuildMul(b, chunk, cg_i64(cg, ch), "");
  LLVMValueRef hi = cg_min64(cg, LLVMBuildAdd(b, lo, cg_i64(cg, ch), ""), cg_i64(cg, nout));
  Loop ol = loop_begin(cg, lo, hi, "out");
  LLVMValueRef ridx[CG_MAX_RANK], base[CG_MAX_RANK];
  cg_delinearize(cg, rt, ol.iv, ridx);
  for (int d = 0; d < rank; d++) base[d] = LLVMBuildMul(b, ridx[d], cg_i64(cg, w->stride[d]), "");
  for (int k = 0; k < n; k++) LLVMBuildStore(b, initv[k], accp[k]);
  if (w->count > 0) {
    Loop wl[CG_MAX_RANK];
    LLVMValueRef q[CG_MAX_RANK], inside = NULL;
    for (int d = 0; d < rank; d++) {
      wl[d] = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, w->size[d]), "win");
      LLVMValueRef p = LLVMBuildAdd(b, base[d], LLVMBuildMul(b, wl[d].iv, cg_i64(cg, w->wdil[d]), ""), "");
      unpad(cg, w, d, xt->dims[d], p, &q[d], &inside);
    }
    LLVMValueRef acc[16], x[16], res[16];
    LLVMValueRef safe[CG_MAX_RANK];
    for (int d = 0; d < rank; d++) safe[d] = inside ? LLVMBuildSelect(b, inside, q[d], cg_i64(cg, 0), "") : q[d];
    kernel_io_reset_memo(&io);
    for (int k = 0; k < n; k++) {
      if (empty_input) {
        x[k] = initv[k];
      } else {
        /* outside positions read element 0 (always there) and discard it */
        LLVMValueRef e = emit_elemental(cg, &io, op->opnds[k], safe);
        x[k] = inside ? LLVMBuildSelect(b, inside, e, initv[k], "") : e;
      }
      acc[k] = LLVMBuildLoad2(b, ct[k], accp[k], "");
    }
    reduce_body_apply(cg, body, acc, x, res);
    for (int k = 0; k < n; k++) LLVMBuildStore(b, res[k], accp[k]);
    for (int d = rank - 1; d >= 0; d--) loop_end(cg, &wl[d]);
  }
  for (int k = 0; k < n; k++)
    cg_store(cg, op->res[k].type->elem, outs[k], ol.iv, LLVMBuildLoad2(b, ct[k], accp[k], ""));
  loop_end(cg, &ol);
  LLVMBuildRetVoid(b);
  reduce_body_free(body);
  kernel_io_free(&io);
  return fn;
}

/* ---- reduce_window along one axis: prefix scans and sliding sums ----
 *
 * jnp.cumsum (and cumprod, cummax, cummin) lower to a reduce_window whose
 * window spans the whole axis: window size W >= N along the axis, padding
 * (W - 1, 0) (or (0, W - 1) for a reverse scan), stride 1, and a window of
 * one element with no padding in every other dimension.  Output i of a
 * forward scan combines, from the init value, W - 1 - i padding positions
 * (init values) and then x[0], ..., x[i].  When init combined with itself
 * is init again (an identity such as 0 for add, or any value of an
 * idempotent op such as max), the padding drops out and
 *   out[0] = init op x[0],   out[i] = out[i - 1] op x[i]
 * is the interpreter's own order, so a forward scan is bit-identical to it
 * for every type.  A reverse scan runs the same recurrence from the end of
 * the axis; for integers (and the bitwise ops) that is the same value,
 * since the reducers are associative and commutative, and for floats it
 * rounds differently from the interpreter's left-to-right window sums.
 *
 * An integer add over a long window (stride 1, any padding) is computed
 * incrementally the same way, out[i] = out[i - 1] + entering - leaving,
 * which wrapping arithmetic keeps exact.  Floats never take that path
 * (subtraction does not undo a rounded add), nor do max and min.
 *
 * Whether init is idempotent is checked where the kernel is called; when
 * it is not, the op runs the general window kernel instead.  Rows along
 * the axis are sequential; the kernel splits the other dimensions into
 * chunks.  When the axis is not the innermost dimension, the inner loop
 * runs along the contiguous dimensions, each element reading the previous
 * output row, and vectorizes; when it is, SCAN_ROWS rows advance together
 * with one accumulator each, so that their dependency chains overlap.  Four
 * rows read and write eight streams: rows whose length is a multiple of
 * 4 KiB all fall into one set of an 8-way L1 cache, and eight rows (sixteen
 * streams) evicted each other's lines, running 15 times slower. */

enum { SCAN_ROWS = 4, SLIDE_MIN_WINDOW = 8 };

typedef struct Line {
  bool reverse;                    /* a scan from the end of the axis */
  bool sliding;                    /* an integer sliding sum (else a prefix scan) */
  int64_t outer, len, olen, inner; /* len, olen: the axis in input, result */
  int64_t size, lo;                /* the window along the axis, its padding in front */
} Line;

/* Whether op (a simple reduce_window, see reduce_window_ok) reduces along
   one axis only, as a prefix scan or a long integer sliding sum. */
static bool line_ok(const Op *op, const Win *w, Line *l) {
  const Type *xt = op->opnds[0]->type, *rt = op->res[0].type;
  ElemType et = xt->elem;
  if (!cg_elem_basic(et) || type_num_elements(xt) == 0) return false;
  int axis = -1;
  for (int d = 0; d < xt->rank; d++) {
    if (w->stride[d] != 1 || w->bdil[d] != 1 || w->wdil[d] != 1) return false;
    if (w->size[d] == 1 && w->lo[d] == 0 && w->hi[d] == 0) continue;
    if (axis >= 0) return false;
    axis = d;
  }
  if (axis < 0) return false;
  memset(l, 0, sizeof *l);
  l->len = xt->dims[axis];
  l->olen = rt->dims[axis];
  l->size = w->size[axis];
  l->lo = w->lo[axis];
  l->outer = l->inner = 1;
  for (int d = 0; d < axis; d++) l->outer *= xt->dims[d];
  for (int d = axis + 1; d < xt->rank; d++) l->inner *= xt->dims[d];
  if (l->olen < 1) return false;
  int64_t hi = w->hi[axis];
  if (l->size >= l->len && l->olen == l->len) {
    if (l->lo == l->size - 1 && hi == 0) return true;
    if (l->lo == 0 && hi == l->size - 1) {
      l->reverse = true;
      return true;
    }
  }
  Op *red = simple_reducer(op);
  if (red->kind != OP_ADD || et == ET_PRED || et_is_float(et) || l->size < SLIDE_MIN_WINDOW) return false;
  l->sliding = true;
  return true;
}

/* What one line's elements are computed from, in the kernel. */
typedef struct LineK {
  Cg *cg;
  const Line *l;
  const Op *red;
  const Block *body;
  ElemType et;
  LLVMValueRef x, out, init;
  LLVMValueRef sum; /* a slot for a sliding sum's first window */
} LineK;

/* x at axis position p (i64, inside) of the line starting at base. */
static LLVMValueRef line_load(LineK *k, LLVMValueRef base, LLVMValueRef p) {
  LLVMBuilderRef b = k->cg->b;
  LLVMValueRef i = LLVMBuildAdd(b, base, LLVMBuildMul(b, p, cg_i64(k->cg, k->l->inner), ""), "");
  return cg_load(k->cg, k->et, k->x, i);
}

/* The same for p anywhere: outside the input, init (the identity). */
static LLVMValueRef line_in(LineK *k, LLVMValueRef base, LLVMValueRef p) {
  Cg *cg = k->cg;
  LLVMBuilderRef b = cg->b;
  LLVMValueRef ok = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntSGE, p, cg_i64(cg, 0), ""),
                                 LLVMBuildICmp(b, LLVMIntSLT, p, cg_i64(cg, k->l->len), ""), "");
  LLVMValueRef q = LLVMBuildSelect(b, ok, p, cg_i64(cg, 0), "");
  return LLVMBuildSelect(b, ok, line_load(k, base, q), k->init, "");
}

/* The axis position of output step t (0 first). */
static LLVMValueRef line_pos(LineK *k, LLVMValueRef t) {
  return k->l->reverse ? LLVMBuildSub(k->cg->b, cg_i64(k->cg, k->l->olen - 1), t, "") : t;
}

/* The first output of a line whose input starts at xbase. */
static LLVMValueRef line_first(LineK *k, LLVMValueRef xbase) {
  Cg *cg = k->cg;
  LLVMBuilderRef b = cg->b;
  const Line *l = k->l;
  if (!l->sliding) {
    LLVMValueRef v = line_load(k, xbase, line_pos(k, cg_i64(cg, 0)));
    return combine(cg, k->red, k->body, k->et, k->init, v);
  }
  /* the window of output 0 covers input positions [-lo, size - lo) */
  int64_t a = -l->lo > 0 ? -l->lo : 0, e = l->size - l->lo < l->len ? l->size - l->lo : l->len;
  LLVMValueRef accp = k->sum;
  LLVMBuildStore(b, k->init, accp);
  if (a < e) {
    Loop wl = loop_begin(cg, cg_i64(cg, a), cg_i64(cg, e), "first");
    LLVMValueRef v = line_load(k, xbase, wl.iv);
    LLVMValueRef acc = LLVMBuildLoad2(b, cg_compute_type(cg, k->et), accp, "");
    LLVMBuildStore(b, combine(cg, k->red, k->body, k->et, acc, v), accp);
    loop_end(cg, &wl);
  }
  return LLVMBuildLoad2(b, cg_compute_type(cg, k->et), accp, "");
}

/* Output step t >= 1 of a line from the previous output prev. */
static LLVMValueRef line_step(LineK *k, LLVMValueRef prev, LLVMValueRef xbase, LLVMValueRef t) {
  Cg *cg = k->cg;
  LLVMBuilderRef b = cg->b;
  const Line *l = k->l;
  if (!l->sliding) {
    LLVMValueRef v = line_load(k, xbase, line_pos(k, t));
    return combine(cg, k->red, k->body, k->et, prev, v);
  }
  /* the window moves from [t - 1 - lo, ...) to [t - lo, t - lo + size) */
  LLVMValueRef enter = line_in(k, xbase, LLVMBuildAdd(b, t, cg_i64(cg, l->size - 1 - l->lo), ""));
  LLVMValueRef leave = line_in(k, xbase, LLVMBuildSub(b, t, cg_i64(cg, 1 + l->lo), ""));
  return LLVMBuildSub(b, LLVMBuildAdd(b, prev, enter, ""), leave, "");
}

/* The kernel: ptrs = operand, init, result. */
static LLVMValueRef emit_line_kernel(Lower *L, Op *op, const Line *l, int64_t *nchunks) {
  Cg *cg = &L->cg;
  LLVMBuilderRef b = cg->b;
  ElemType et = op->opnds[0]->type->elem;
  LLVMTypeRef ct = cg_compute_type(cg, et);
  int64_t line = l->olen > l->len ? l->olen : l->len;
  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  LineK k = {cg, l, simple_reducer(op), op->regions[0], et, kernel_load_ptr(cg, ptrs, 0),
             kernel_load_ptr(cg, ptrs, 2), NULL, LLVMBuildAlloca(b, ct, "sum")};
  k.init = cg_load(cg, et, kernel_load_ptr(cg, ptrs, 1), cg_i64(cg, 0));
  LLVMValueRef in_len = cg_i64(cg, l->len * l->inner), out_len = cg_i64(cg, l->olen * l->inner);
  if (l->inner == 1) {
    /* lines are rows: groups of SCAN_ROWS rows, then the rest one by one */
    int64_t rb = CHUNK_ELEMS / line > 0 ? CHUNK_ELEMS / line : 1;
    if (rb >= SCAN_ROWS) rb -= rb % SCAN_ROWS;
    *nchunks = (l->outer + rb - 1) / rb;
    LLVMValueRef accp[SCAN_ROWS];
    for (int r = 0; r < SCAN_ROWS; r++) accp[r] = LLVMBuildAlloca(b, ct, "acc");
    LLVMValueRef lo = LLVMBuildMul(b, chunk, cg_i64(cg, rb), "");
    LLVMValueRef hi = cg_min64(cg, LLVMBuildAdd(b, lo, cg_i64(cg, rb), ""), cg_i64(cg, l->outer));
    LLVMValueRef group = cg_i64(cg, SCAN_ROWS);
    LLVMValueRef ngroups = LLVMBuildSDiv(b, LLVMBuildSub(b, hi, lo, ""), group, "");
    for (int pass = 0; pass < 2; pass++) {
      /* pass 0: group indices; pass 1: the remaining rows */
      int nr = pass == 0 ? SCAN_ROWS : 1;
      LLVMValueRef from = pass == 0 ? cg_i64(cg, 0) : LLVMBuildAdd(b, lo, LLVMBuildMul(b, ngroups, group, ""), "");
      Loop gl = loop_begin(cg, from, pass == 0 ? ngroups : hi, "scan.rows");
      LLVMValueRef row0 = pass == 0 ? LLVMBuildAdd(b, lo, LLVMBuildMul(b, gl.iv, group, ""), "") : gl.iv;
      LLVMValueRef xb[SCAN_ROWS], ob[SCAN_ROWS];
      for (int r = 0; r < nr; r++) {
        LLVMValueRef row = LLVMBuildAdd(b, row0, cg_i64(cg, r), "");
        xb[r] = LLVMBuildMul(b, row, in_len, "");
        ob[r] = LLVMBuildMul(b, row, out_len, "");
        LLVMValueRef v = line_first(&k, xb[r]);
        LLVMBuildStore(b, v, accp[r]);
        cg_store(cg, et, k.out, LLVMBuildAdd(b, ob[r], line_pos(&k, cg_i64(cg, 0)), ""), v);
      }
      Loop tl = loop_begin(cg, cg_i64(cg, 1), cg_i64(cg, l->olen), "scan");
      LLVMValueRef p = line_pos(&k, tl.iv);
      for (int r = 0; r < nr; r++) {
        LLVMValueRef v = line_step(&k, LLVMBuildLoad2(b, ct, accp[r], ""), xb[r], tl.iv);
        LLVMBuildStore(b, v, accp[r]);
        cg_store(cg, et, k.out, LLVMBuildAdd(b, ob[r], p, ""), v);
      }
      loop_end(cg, &tl);
      loop_end(cg, &gl);
    }
  } else {
    /* chunks of whole outer rows when they are small, else of one outer
       row's inner block; the inner loop is contiguous */
    int64_t ob = 1, jb = l->inner, nj = 1;
    if (line > CHUNK_ELEMS / l->inner) {
      jb = CHUNK_ELEMS / line;
      jb = jb < 64 ? 64 : jb - jb % 64;
      if (jb > l->inner) jb = l->inner;
      nj = (l->inner + jb - 1) / jb;
    } else {
      ob = CHUNK_ELEMS / (line * l->inner);
    }
    *nchunks = (l->outer + ob - 1) / ob * nj;
    LLVMValueRef oc = LLVMBuildSDiv(b, chunk, cg_i64(cg, nj), ""), jc = LLVMBuildSRem(b, chunk, cg_i64(cg, nj), "");
    LLVMValueRef olo = LLVMBuildMul(b, oc, cg_i64(cg, ob), "");
    LLVMValueRef ohi = cg_min64(cg, LLVMBuildAdd(b, olo, cg_i64(cg, ob), ""), cg_i64(cg, l->outer));
    LLVMValueRef jlo = LLVMBuildMul(b, jc, cg_i64(cg, jb), "");
    LLVMValueRef jhi = cg_min64(cg, LLVMBuildAdd(b, jlo, cg_i64(cg, jb), ""), cg_i64(cg, l->inner));
    LLVMValueRef inner = cg_i64(cg, l->inner);
    Loop ol = loop_begin(cg, olo, ohi, "scan.outer");
    LLVMValueRef xrow = LLVMBuildMul(b, ol.iv, in_len, ""), orow = LLVMBuildMul(b, ol.iv, out_len, "");
    LLVMValueRef ofirst = LLVMBuildAdd(b, orow, LLVMBuildMul(b, line_pos(&k, cg_i64(cg, 0)), inner, ""), "");
    Loop jl = loop_begin(cg, jlo, jhi, "scan.first");
    cg_store(cg, et, k.out, LLVMBuildAdd(b, ofirst, jl.iv, ""), line_first(&k, LLVMBuildAdd(b, xrow, jl.iv, "")));
    loop_end(cg, &jl);
    Loop tl = loop_begin(cg, cg_i64(cg, 1), cg_i64(cg, l->olen), "scan");
    LLVMValueRef p = line_pos(&k, tl.iv);
    LLVMValueRef q = l->reverse ? LLVMBuildAdd(b, p, cg_i64(cg, 1), "") : LLVMBuildSub(b, p, cg_i64(cg, 1), "");
    LLVMValueRef ocur = LLVMBuildAdd(b, orow, LLVMBuildMul(b, p, inner, ""), "");
    LLVMValueRef oprev = LLVMBuildAdd(b, orow, LLVMBuildMul(b, q, inner, ""), "");
    Loop il = loop_begin(cg, jlo, jhi, "scan.inner");
    LLVMValueRef prev = cg_load(cg, et, k.out, LLVMBuildAdd(b, oprev, il.iv, ""));
    LLVMValueRef v = line_step(&k, prev, LLVMBuildAdd(b, xrow, il.iv, ""), tl.iv);
    cg_store(cg, et, k.out, LLVMBuildAdd(b, ocur, il.iv, ""), v);
    loop_end(cg, &il);
    loop_end(cg, &tl);
    loop_end(cg, &ol);
  }
  LLVMBuildRetVoid(b);
  return fn;
}

/* In the entry function: whether init combined with itself is init again,
   bit for bit (then padding positions, which contribute init, drop out of
   a window that starts from init). */
static LLVMValueRef init_idempotent(Lower *L, Op *op) {
  Cg *cg = &L->cg;
  LLVMBuilderRef b = cg->b;
  ElemType et = op->opnds[1]->type->elem;
  LLVMValueRef v = cg_load(cg, et, value_ptr(L, op->opnds[1]), cg_i64(cg, 0));
  LLVMValueRef twice = combine(cg, simple_reducer(op), op->regions[0], et, v, v);
  LLVMTypeRef t = LLVMTypeOf(v);
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind) {
    LLVMTypeRef it = LLVMIntTypeInContext(cg->ctx, t == cg->t_f64 ? 64 : 32);
    v = LLVMBuildBitCast(b, v, it, "");
    twice = LLVMBuildBitCast(b, twice, it, "");
  }
  return LLVMBuildICmp(b, LLVMIntEQ, v, twice, "");
}

static bool lower_reduce_window(Lower *L, Op *op) {
  Win w;
  if (!reduce_window_ok(op, &w)) {
    if (!general_window_ok(op, &w)) return false;
    LLVMBasicBlockRef at = LLVMGetInsertBlock(L->cg.b);
    int64_t nchunks = 0;
    LLVMValueRef kfn = emit_reduce_window_general(L, op, &w, &nchunks);
    LLVMPositionBuilderAtEnd(L->cg.b, at);
    call_kernel_op(L, kfn, nchunks, op);
    return true;
  }
  Cg *cg = &L->cg;
  LLVMBasicBlockRef at = LLVMGetInsertBlock(cg->b);
  int64_t nchunks = 0, nline = 0;
  LLVMValueRef kfn = rows_ok(op, &w) ? emit_reduce_window_rows(L, op, &w, &nchunks)
                                     : emit_reduce_window(L, op, &w, &nchunks);
  Line line;
  LLVMValueRef lfn = line_ok(op, &w, &line) ? emit_line_kernel(L, op, &line, &nline) : NULL;
  LLVMPositionBuilderAtEnd(cg->b, at);
  Value *bufs[3] = {op->opnds[0], op->opnds[1], &op->res[0]};
  if (!lfn) {
    call_kernel(L, kfn, nchunks, bufs, 3);
    return true;
  }
  /* the scan when init is idempotent, else the window kernel */
  LLVMValueRef yes = init_idempotent(L, op);
  LLVMValueRef fn = LLVMGetBasicBlockParent(at);
  LLVMBasicBlockRef scan_bb = LLVMAppendBasicBlockInContext(cg->ctx, fn, "line");
  LLVMBasicBlockRef win_bb = LLVMAppendBasicBlockInContext(cg->ctx, fn, "window");
  LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(cg->ctx, fn, "join");
  LLVMBuildCondBr(cg->b, yes, scan_bb, win_bb);
  LLVMPositionBuilderAtEnd(cg->b, scan_bb);
  call_kernel(L, lfn, nline, bufs, 3);
  LLVMBuildBr(cg->b, join);
  LLVMPositionBuilderAtEnd(cg->b, win_bb);
  call_kernel(L, kfn, nchunks, bufs, 3);
  LLVMBuildBr(cg->b, join);
  LLVMPositionBuilderAtEnd(cg->b, join);
  return true;
}

/* ---- select_and_scatter ---- */

/* The one op of a two-argument region returning that op's result, with
   scalar arguments of type `et`; *swapped when it takes (arg1, arg0). */
static Op *single_op(Block *b, ElemType et, bool *swapped) {
  if (!b || b->nargs != 2 || !b->first || b->first->next != b->last) return NULL;
  Op *o = b->first, *ret = b->last;
  if (ret->kind != OP_RETURN || ret->nopnds != 1 || ret->opnds[0] != &o->res[0]) return NULL;
  if (o->nopnds != 2 || o->nres != 1) return NULL;
  for (int i = 0; i < 2; i++) {
    const Type *t = b->args[i]->type;
    if (t->kind != TY_TENSOR || t->rank != 0 || t->quant || t->elem != et) return NULL;
  }
  const Type *rt = o->res[0].type;
  if (rt->kind != TY_TENSOR || rt->rank != 0 || rt->quant) return NULL;
  if (o->opnds[0] == b->args[0] && o->opnds[1] == b->args[1]) *swapped = false;
  else if (o->opnds[0] == b->args[1] && o->opnds[1] == b->args[0]) *swapped = true;
  else return NULL;
  return scalar_op_supported(o) ? o : NULL;
}

/* The select is one compare (any direction, since the interpreter just
   asks it); the scatter one of the reducer ops on the result type. */
static bool select_scatter_ok(const Op *op, Win *w, Op **sel, bool *sel_swapped, Op **sc) {
  if (op->nopnds != 3 || op->nres != 1 || op->nregions != 2) return false;
  const Type *xt = op->opnds[0]->type, *st = op->opnds[1]->type, *it = op->opnds[2]->type,
             *rt = op->res[0].type;
  if (!cg_tensor_native(xt) || !cg_tensor_native(st) || !cg_tensor_native(it) || !cg_tensor_native(rt))
    return false;
  if (st->rank != xt->rank || it->rank != 0 || !type_same_shape(rt, xt) || st->elem != rt->elem ||
      it->elem != rt->elem)
    return false;
  *sel = single_op(op->regions[0], xt->elem, sel_swapped);
  if (!*sel || (*sel)->kind != OP_COMPARE || (*sel)->res[0].type->elem != ET_PRED) return false;
  bool sc_swapped;
  *sc = single_op(op->regions[1], rt->elem, &sc_swapped);
  if (!*sc || (*sc)->res[0].type->elem != rt->elem) return false;
  switch ((*sc)->kind) {
  case OP_ADD: case OP_MULTIPLY: case OP_MAXIMUM: case OP_MINIMUM: case OP_AND: case OP_OR: case OP_XOR:
    break;
  default:
    return false;
  }
  if (!read_win(op, xt->rank, w)) return false;
  /* the interpreter reads but ignores the dilations */
  for (int d = 0; d < w->rank; d++) w->bdil[d] = w->wdil[d] = 1;
  return true;
}

/* Whether the window position `cand` (inside: not padding) replaces the
   choice so far (best < 0: none yet): it does unless select(current,
   candidate) holds. */
static LLVMValueRef select_takes(Cg *cg, Op *sel, bool sel_swapped, ElemType xet, LLVMValueRef inside,
                                 LLVMValueRef best, LLVMValueRef bestv, LLVMValueRef cand) {
  LLVMBuilderRef b = cg->b;
  ElemType ts[2] = {xet, xet};
  LLVMValueRef args[2] = {bestv, cand};
  if (sel_swapped) {
    args[0] = cand;
    args[1] = bestv;
  }
  LLVMValueRef keep = emit_scalar_op(cg, sel, ts, args, ET_PRED);
  LLVMValueRef none = LLVMBuildICmp(b, LLVMIntSLT, best, cg_i64(cg, 0), "");
  return LLVMBuildAnd(b, inside, LLVMBuildOr(b, none, LLVMBuildNot(b, keep, ""), ""), "");
}

/* The kernel (one chunk, sequential): ptrs = operand, source, init,
   result. */
static LLVMValueRef emit_select_scatter(Lower *L, Op *op, const Win *w, Op *sel, bool sel_swapped, Op *sc) {
  Cg *cg = &L->cg;
  LLVMBuilderRef b = cg->b;
  const Type *xt = op->opnds[0]->type, *st = op->opnds[1]->type, *rt = op->res[0].type;
  ElemType xet = xt->elem, et = rt->elem;
  int rank = xt->rank;
  LLVMTypeRef xty = cg_compute_type(cg, xet);
  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  (void)chunk;
  LLVMValueRef bestp = LLVMBuildAlloca(b, cg->t_i64, "best");
  LLVMValueRef bestvp = LLVMBuildAlloca(b, xty, "bestv");
  LLVMValueRef xp = kernel_load_ptr(cg, ptrs, 0), sp = kernel_load_ptr(cg, ptrs, 1);
  LLVMValueRef ip = kernel_load_ptr(cg, ptrs, 2), out = kernel_load_ptr(cg, ptrs, 3);
  int64_t n = type_num_elements(rt), ns = type_num_elements(st);
  LLVMValueRef initv = cg_load(cg, et, ip, cg_i64(cg, 0));
  Loop fl = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, n), "fill");
  cg_store(cg, et, out, fl.iv, initv);
  loop_end(cg, &fl);
  /* with no operand elements no window position is inside */
  if (n > 0 && ns > 0 && w->count > 0) {
    int64_t xs[CG_MAX_RANK], m = 1;
    for (int d = rank - 1; d >= 0; d--) {
      xs[d] = m;
      m *= xt->dims[d];
    }
    Loop sl = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, ns), "src");
    LLVMValueRef sidx[CG_MAX_RANK];
    cg_delinearize(cg, st, sl.iv, sidx);
    LLVMBuildStore(b, cg_i64(cg, -1), bestp);
    LLVMBuildStore(b, LLVMConstNull(xty), bestvp);
    Loop wl[CG_MAX_RANK];
    LLVMValueRef off = cg_i64(cg, 0), inside = LLVMConstInt(cg->t_i1, 1, 0);
    for (int d = 0; d < rank; d++) {
      wl[d] = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, w->size[d]), "win");
      LLVMValueRef p = LLVMBuildAdd(b, LLVMBuildMul(b, sidx[d], cg_i64(cg, w->stride[d]), ""), wl[d].iv, "");
      LLVMValueRef q;
      unpad(cg, w, d, xt->dims[d], p, &q, &inside);
      off = LLVMBuildAdd(b, off, LLVMBuildMul(b, q, cg_i64(cg, xs[d]), ""), "");
    }
    off = LLVMBuildSelect(b, inside, off, cg_i64(cg, 0), "");
    LLVMValueRef cand = cg_load(cg, xet, xp, off);
    LLVMValueRef best = LLVMBuildLoad2(b, cg->t_i64, bestp, "");
    LLVMValueRef bestv = LLVMBuildLoad2(b, xty, bestvp, "");
    LLVMValueRef take = select_takes(cg, sel, sel_swapped, xet, inside, best, bestv, cand);
    LLVMBuildStore(b, LLVMBuildSelect(b, take, off, best, ""), bestp);
    LLVMBuildStore(b, LLVMBuildSelect(b, take, cand, bestv, ""), bestvp);
    for (int d = rank - 1; d >= 0; d--) loop_end(cg, &wl[d]);
    best = LLVMBuildLoad2(b, cg->t_i64, bestp, "");
    LLVMValueRef found = LLVMBuildICmp(b, LLVMIntSGE, best, cg_i64(cg, 0), "");
    LLVMValueRef at = LLVMBuildSelect(b, found, best, cg_i64(cg, 0), "");
    LLVMValueRef old = cg_load(cg, et, out, at);
    LLVMValueRef v = combine(cg, sc, op->regions[1], et, old, cg_load(cg, et, sp, sl.iv));
    cg_store(cg, et, out, at, LLVMBuildSelect(b, found, v, old, ""));
    loop_end(cg, &sl);
  }
  LLVMBuildRetVoid(b);
  return fn;
}

/* ---- select_and_scatter over windows that do not overlap ----
 * With every stride at least the window's size (max pooling's gradient:
 * 2x2 windows, stride 2), a result element lies in at most one window and
 * receives at most one source element: the scatters touch disjoint
 * elements, so their order makes no difference and chunks of source rows
 * run on the pool, after a first kernel has filled the result with the
 * init value.  Each source element still picks the first position of its
 * window the select prefers, over the positions in row-major window order,
 * and is combined with the result's element there, as above: the same
 * bits.  Within a source row (the innermost dimension, channels in NHWC)
 * the search is one loop over the row's elements with the window's
 * positions written out, which LLVM's vectorizer widens; the positions
 * found go to a row buffer, and a second loop does the scatters. */
enum { SCATTER_ROW_BLOCK = 256, SCATTER_MAX_POSITIONS = 64 };

static bool windows_disjoint(const Win *w) {
  if (w->count <= 0 || w->count > SCATTER_MAX_POSITIONS) return false;
  for (int d = 0; d < w->rank; d++)
    if (w->stride[d] < w->size[d]) return false;
  return true;
}

/* The fill kernel: ptrs = init, result; chunks of CHUNK_ELEMS. */
static LLVMValueRef emit_fill(Lower *L, ElemType et, int64_t n) {
  Cg *cg = &L->cg;
  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  LLVMValueRef ip = kernel_load_ptr(cg, ptrs, 0), out = kernel_load_ptr(cg, ptrs, 1);
  LLVMValueRef initv = cg_load(cg, et, ip, cg_i64(cg, 0));
  LLVMValueRef lo = LLVMBuildMul(cg->b, chunk, cg_i64(cg, CHUNK_ELEMS), "");
  LLVMValueRef hi = cg_min64(cg, LLVMBuildAdd(cg->b, lo, cg_i64(cg, CHUNK_ELEMS), ""), cg_i64(cg, n));
  Loop l = loop_begin(cg, lo, hi, "fill");
  cg_store(cg, et, out, l.iv, initv);
  loop_end(cg, &l);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

/* The scatter kernel: ptrs = operand, source, result; chunks of `ch`
   source rows. */
static LLVMValueRef emit_scatter_rows(Lower *L, Op *op, const Win *w, Op *sel, bool sel_swapped, Op *sc,
                                      int64_t ch) {
  Cg *cg = &L->cg;
  LLVMBuilderRef b = cg->b;
  const Type *xt = op->opnds[0]->type, *st = op->opnds[1]->type, *rt = op->res[0].type;
  ElemType xet = xt->elem, et = rt->elem;
  int rank = xt->rank, last = rank - 1;
  int64_t row = st->dims[last], rows = type_num_elements(st) / row;
  int64_t blk = row < SCATTER_ROW_BLOCK ? row : SCATTER_ROW_BLOCK;
  LLVMTypeRef xty = cg_compute_type(cg, xet);
  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  LLVMValueRef xp = kernel_load_ptr(cg, ptrs, 0), sp = kernel_load_ptr(cg, ptrs, 1);
  LLVMValueRef out = kernel_load_ptr(cg, ptrs, 2);
  LLVMValueRef bestbuf = cg_entry_alloca(cg, fn, LLVMArrayType(cg->t_i64, (unsigned)blk), "bestrow");
  int64_t xs[CG_MAX_RANK], m = 1;
  for (int d = rank - 1; d >= 0; d--) {
    xs[d] = m;
    m *= xt->dims[d];
  }
  /* along the row, every position lies inside the operand when the
     window never reaches the padding there */
  bool row_inside = w->lo[last] == 0 && (row - 1) * w->stride[last] + w->size[last] - 1 < xt->dims[last];
  LLVMValueRef lo = LLVMBuildMul(b, chunk, cg_i64(cg, ch), "");
  LLVMValueRef hi = cg_min64(cg, LLVMBuildAdd(b, lo, cg_i64(cg, ch), ""), cg_i64(cg, rows));
  Loop rl = loop_begin(cg, lo, hi, "srow");
  LLVMValueRef sidx[CG_MAX_RANK];
  Type outer = {.kind = TY_TENSOR, .elem = st->elem, .rank = last, .dims = st->dims};
  if (last > 0) cg_delinearize(cg, &outer, rl.iv, sidx);
  /* each position's offset and inside-ness over the outer dimensions
     (uniform along the row); outside, offset 0, a valid address */
  LLVMValueRef offo[SCATTER_MAX_POSITIONS], inso[SCATTER_MAX_POSITIONS];
  int64_t wl[SCATTER_MAX_POSITIONS];
  for (int64_t k = 0; k < w->count; k++) {
    int64_t rest = k, wd[CG_MAX_RANK];
    for (int d = rank - 1; d >= 0; d--) {
      wd[d] = rest % w->size[d];
      rest /= w->size[d];
    }
    LLVMValueRef off = cg_i64(cg, 0), inside = NULL;
    for (int d = 0; d < last; d++) {
      LLVMValueRef p = LLVMBuildAdd(b, LLVMBuildMul(b, sidx[d], cg_i64(cg, w->stride[d]), ""), cg_i64(cg, wd[d]), "");
      LLVMValueRef q;
      unpad(cg, w, d, xt->dims[d], p, &q, &inside);
      off = LLVMBuildAdd(b, off, LLVMBuildMul(b, q, cg_i64(cg, xs[d]), ""), "");
    }
    if (!inside) inside = LLVMConstInt(cg->t_i1, 1, 0);
    offo[k] = LLVMBuildSelect(b, inside, off, cg_i64(cg, 0), "");
    inso[k] = inside;
    wl[k] = wd[last];
  }
  LLVMValueRef srow = LLVMBuildMul(b, rl.iv, cg_i64(cg, row), "");
  Loop bl = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, (row + blk - 1) / blk), "sblk");
  LLVMValueRef c0 = LLVMBuildMul(b, bl.iv, cg_i64(cg, blk), "");
  LLVMValueRef cn = cg_min64(cg, cg_i64(cg, blk), LLVMBuildSub(b, cg_i64(cg, row), c0, ""));
  /* the search */
  Loop cl = loop_begin(cg, cg_i64(cg, 0), cn, "search");
  LLVMValueRef c = LLVMBuildAdd(b, c0, cl.iv, "");
  LLVMValueRef best = cg_i64(cg, -1), bestv = LLVMConstNull(xty);
  for (int64_t k = 0; k < w->count; k++) {
    LLVMValueRef p = LLVMBuildAdd(b, LLVMBuildMul(b, c, cg_i64(cg, w->stride[last]), ""), cg_i64(cg, wl[k]), "");
    LLVMValueRef inside = inso[k], q;
    if (row_inside) {
      q = p;
    } else {
      unpad(cg, w, last, xt->dims[last], p, &q, &inside);
      q = cg_clamp_i64(cg, q, 0, xt->dims[last] - 1);
    }
    LLVMValueRef off = LLVMBuildAdd(b, offo[k], q, "");
    LLVMValueRef cand = cg_load(cg, xet, xp, off);
    LLVMValueRef take = select_takes(cg, sel, sel_swapped, xet, inside, best, bestv, cand);
    best = LLVMBuildSelect(b, take, off, best, "");
    bestv = LLVMBuildSelect(b, take, cand, bestv, "");
  }
  LLVMValueRef bi = cl.iv;
  LLVMBuildStore(b, best, LLVMBuildGEP2(b, cg->t_i64, bestbuf, &bi, 1, ""));
  loop_end(cg, &cl);
  /* the scatters */
  Loop ol = loop_begin(cg, cg_i64(cg, 0), cn, "scatter");
  LLVMValueRef oi = ol.iv;
  LLVMValueRef at = LLVMBuildLoad2(b, cg->t_i64, LLVMBuildGEP2(b, cg->t_i64, bestbuf, &oi, 1, ""), "");
  LLVMValueRef found = LLVMBuildICmp(b, LLVMIntSGE, at, cg_i64(cg, 0), "");
  at = LLVMBuildSelect(b, found, at, cg_i64(cg, 0), "");
  LLVMValueRef old = cg_load(cg, et, out, at);
  LLVMValueRef s = LLVMBuildAdd(b, srow, LLVMBuildAdd(b, c0, ol.iv, ""), "");
  LLVMValueRef v = combine(cg, sc, op->regions[1], et, old, cg_load(cg, et, sp, s));
  cg_store(cg, et, out, at, LLVMBuildSelect(b, found, v, old, ""));
  loop_end(cg, &ol);
  loop_end(cg, &bl);
  loop_end(cg, &rl);
  LLVMBuildRetVoid(b);
  return fn;
}

static bool lower_select_scatter(Lower *L, Op *op) {
  Win w;
  Op *sel, *sc;
  bool sel_swapped;
  if (!select_scatter_ok(op, &w, &sel, &sel_swapped, &sc)) return false;
  LLVMBasicBlockRef at = LLVMGetInsertBlock(L->cg.b);
  const Type *st = op->opnds[1]->type, *rt = op->res[0].type;
  int64_t n = type_num_elements(rt), ns = type_num_elements(st);
  if (windows_disjoint(&w) && st->rank >= 1 && n > 0 && ns > 0) {
    int64_t row = st->dims[st->rank - 1], rows = ns / row;
    int64_t per = row * w.count, ch = CHUNK_ELEMS / per > 0 ? CHUNK_ELEMS / per : 1;
    LLVMValueRef ffn = emit_fill(L, rt->elem, n);
    LLVMValueRef sfn = emit_scatter_rows(L, op, &w, sel, sel_swapped, sc, ch);
    LLVMPositionBuilderAtEnd(L->cg.b, at);
    Value *fbufs[2] = {op->opnds[2], &op->res[0]};
    call_kernel(L, ffn, (n + CHUNK_ELEMS - 1) / CHUNK_ELEMS, fbufs, 2);
    Value *sbufs[3] = {op->opnds[0], op->opnds[1], &op->res[0]};
    call_kernel(L, sfn, (rows + ch - 1) / ch, sbufs, 3);
    return true;
  }
  LLVMValueRef kfn = emit_select_scatter(L, op, &w, sel, sel_swapped, sc);
  LLVMPositionBuilderAtEnd(L->cg.b, at);
  Value *bufs[4] = {op->opnds[0], op->opnds[1], op->opnds[2], &op->res[0]};
  call_kernel(L, kfn, 1, bufs, 4);
  return true;
}

bool lower_window(Lower *L, Op *op) {
  switch (op->kind) {
  case OP_REDUCE_WINDOW: return lower_reduce_window(L, op);
  case OP_SELECT_AND_SCATTER: return lower_select_scatter(L, op);
  default: return false;
  }
}
