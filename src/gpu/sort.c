/*
 * sort.c - sort on the GPU: one thread per row (every index of the other
 * dimensions), a stable bottom-up merge sort with the interpreter's very
 * merges (take from the right only when the comparator says right < left),
 * so results are identical to the interpreter's for any comparator.
 *
 * The operands are copied into the results, which are sorted in place
 * with a scratch area as the other half of each merge pass; a row whose
 * last pass ended in scratch is copied back.  The comparator region is
 * generated inline by the elemental generator on the two elements' values.
 * O(L log L) work per row of length L on one thread: fast for many short
 * rows (top-k of a batch, argsort of small vectors).
 *
 * Long rows (PAR_MIN elements or more) are sorted by the same bottom-up
 * merge passes run in parallel, a kernel launch per pass and a thread per
 * element: an element's place in the merged run is its place in its own
 * run plus the number of elements of the other run that go before it,
 * found by a binary search there: those strictly less than it when it is
 * in the left run, those not greater when it is in the right one (so the
 * left run's element goes first on a tie: the merge is stable).  For a
 * comparator that is a strict weak order (every sort JAX or TensorFlow
 * emits), a stable sort has one result, so this is the interpreter's
 * result; log2(L) launches, O(L log^2 L) work spread over all the
 * elements of all rows.
 */
#include <string.h>

#include "codegen/kernel.h"
#include "gpu/kernels.h"

enum { MAX_SORT = 16, PAR_MIN = 512 };

typedef struct SortGeom {
  int n;
  ElemType et[MAX_SORT];
  int64_t L, inner, rows;
  int64_t region[MAX_SORT]; /* byte offset of each operand's scratch copy */
} SortGeom;

static LLVMValueRef elem_ptr(Cg *cg, ElemType et, LLVMValueRef base, LLVMValueRef off) {
  return LLVMBuildGEP2(cg->b, cg_storage_type(cg, et), base, &off, 1, "");
}

/* less(src[pos b], src[pos a]) as the comparator region says: its
   arguments are (lhs_0, rhs_0, lhs_1, rhs_1, ...). */
static LLVMValueRef less(Cg *cg, Op *op, const SortGeom *g, LLVMValueRef *src, LLVMValueRef lhs, LLVMValueRef rhs) {
  Block *body = op->regions[0];
  LLVMValueRef args[2 * MAX_SORT];
  for (int k = 0; k < g->n; k++) {
    args[2 * k] = elem_ptr(cg, g->et[k], src[k], lhs);
    args[2 * k + 1] = elem_ptr(cg, g->et[k], src[k], rhs);
  }
  return gpu_region_value(cg, body, args);
}

/* dst[q] = src[p] for every operand (their storage bits). */
static void move(Cg *cg, const SortGeom *g, LLVMValueRef *dst, LLVMValueRef q, LLVMValueRef *src, LLVMValueRef p) {
  for (int k = 0; k < g->n; k++) {
    LLVMTypeRef t = cg_storage_type(cg, g->et[k]);
    LLVMBuildStore(cg->b, LLVMBuildLoad2(cg->b, t, elem_ptr(cg, g->et[k], src[k], p), ""),
                   elem_ptr(cg, g->et[k], dst[k], q));
  }
}

static LLVMValueRef ld(Cg *cg, LLVMValueRef p) { return LLVMBuildLoad2(cg->b, cg->t_i64, p, ""); }
static void st(Cg *cg, LLVMValueRef p, LLVMValueRef v) { LLVMBuildStore(cg->b, v, p); }
static LLVMValueRef add(Cg *cg, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildAdd(cg->b, a, b, ""); }
static LLVMValueRef mul(Cg *cg, LLVMValueRef a, int64_t b) { return LLVMBuildMul(cg->b, a, cg_i64(cg, b), ""); }
static LLVMValueRef slt(Cg *cg, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildICmp(cg->b, LLVMIntSLT, a, b, ""); }

/* while (cond()) body: the builder in the body; returns the exit block. */
typedef struct While {
  LLVMBasicBlockRef head, body, exit;
} While;

static While while_begin(Cg *cg, LLVMValueRef fn) {
  While w;
  w.head = LLVMAppendBasicBlockInContext(cg->ctx, fn, "while");
  w.body = LLVMAppendBasicBlockInContext(cg->ctx, fn, "do");
  w.exit = LLVMAppendBasicBlockInContext(cg->ctx, fn, "done");
  LLVMBuildBr(cg->b, w.head);
  LLVMPositionBuilderAtEnd(cg->b, w.head);
  return w;
}

static void while_test(Cg *cg, While *w, LLVMValueRef c) {
  LLVMBuildCondBr(cg->b, c, w->body, w->exit);
  LLVMPositionBuilderAtEnd(cg->b, w->body);
}

static void while_end(Cg *cg, While *w) {
  LLVMBuildBr(cg->b, w->head);
  LLVMPositionBuilderAtEnd(cg->b, w->exit);
}

/* tmp[k]: operand k's copy in the scratch area. */
static void scratch_copies(Cg *cg, const SortGeom *g, LLVMValueRef scratch, LLVMValueRef *tmp) {
  for (int k = 0; k < g->n; k++) {
    LLVMValueRef off = cg_i64(cg, g->region[k]);
    tmp[k] = LLVMBuildGEP2(cg->b, cg->t_i8, scratch, &off, 1, "");
  }
}

/* Buffers: operands (n), results (n), scratch. */
static LLVMValueRef emit_sort(GpuLower *G, Op *op, const SortGeom *g, int nbufs) {
  Cg *cg = &G->cg;
  int n = g->n;
  LLVMValueRef ptrs[2 * MAX_SORT + 2], cnt;
  LLVMValueRef fn = gpu_kernel_new(G, nbufs, ptrs, &cnt);
  LLVMValueRef *res = ptrs + n, scratch = ptrs[2 * n];
  LLVMValueRef tmp[MAX_SORT];
  scratch_copies(cg, g, scratch, tmp);
  LLVMValueRef vw = cg_entry_alloca(cg, fn, cg->t_i64, "width"), vlo = cg_entry_alloca(cg, fn, cg->t_i64, "lo");
  LLVMValueRef vi = cg_entry_alloca(cg, fn, cg->t_i64, "i"), vj = cg_entry_alloca(cg, fn, cg->t_i64, "j");
  LLVMValueRef vk = cg_entry_alloca(cg, fn, cg->t_i64, "k"), vin = cg_entry_alloca(cg, fn, cg->t_i1, "in_res");
  LLVMValueRef step;
  Loop lr = gpu_thread_loop(cg, cnt, &step, "row");
  int64_t dims2[2] = {g->rows / g->inner, g->inner};
  LLVMValueRef rc[2];
  gpu_delinearize(cg, lr.iv, dims2, 2, rc);
  /* the row's elements: base + p * inner */
  LLVMValueRef base = add(cg, mul(cg, rc[0], g->L * g->inner), rc[1]);
  LLVMValueRef A[MAX_SORT], Bq[MAX_SORT];
  for (int k = 0; k < n; k++) {
    LLVMValueRef b0 = base;
    A[k] = LLVMBuildGEP2(cg->b, cg_storage_type(cg, g->et[k]), res[k], &b0, 1, "");
    Bq[k] = LLVMBuildGEP2(cg->b, cg_storage_type(cg, g->et[k]), tmp[k], &b0, 1, "");
  }
  st(cg, vin, LLVMConstInt(cg->t_i1, 1, 0));
  st(cg, vw, cg_i64(cg, 1));
  LLVMValueRef L = cg_i64(cg, g->L);
  While ww = while_begin(cg, fn);
  while_test(cg, &ww, slt(cg, ld(cg, vw), L));
  {
    /* one pass from the half the data is in to the other */
    LLVMValueRef inres = LLVMBuildLoad2(cg->b, cg->t_i1, vin, "");
    LLVMValueRef src[MAX_SORT], dst[MAX_SORT];
    for (int k = 0; k < n; k++) {
      src[k] = LLVMBuildSelect(cg->b, inres, A[k], Bq[k], "");
      dst[k] = LLVMBuildSelect(cg->b, inres, Bq[k], A[k], "");
    }
    LLVMValueRef width = ld(cg, vw);
    st(cg, vlo, cg_i64(cg, 0));
    While wl = while_begin(cg, fn);
    while_test(cg, &wl, slt(cg, ld(cg, vlo), L));
    {
      LLVMValueRef lo = ld(cg, vlo);
      LLVMValueRef mid = cg_min64(cg, add(cg, lo, width), L);
      LLVMValueRef hi = cg_min64(cg, add(cg, lo, LLVMBuildMul(cg->b, width, cg_i64(cg, 2), "")), L);
      st(cg, vi, lo);
      st(cg, vj, mid);
      st(cg, vk, lo);
      LLVMValueRef inner = cg_i64(cg, g->inner);
      /* both sides left: the smaller (the right only when strictly less) */
      While wm = while_begin(cg, fn);
      while_test(cg, &wm, LLVMBuildAnd(cg->b, slt(cg, ld(cg, vi), mid), slt(cg, ld(cg, vj), hi), ""));
      {
        LLVMValueRef i = ld(cg, vi), j = ld(cg, vj), k = ld(cg, vk);
        LLVMValueRef pi = LLVMBuildMul(cg->b, i, inner, ""), pj = LLVMBuildMul(cg->b, j, inner, "");
        LLVMValueRef take_right = less(cg, op, g, src, pj, pi);
        LLVMValueRef from = LLVMBuildSelect(cg->b, take_right, pj, pi, "");
        move(cg, g, dst, LLVMBuildMul(cg->b, k, inner, ""), src, from);
        st(cg, vi, LLVMBuildSelect(cg->b, take_right, i, add(cg, i, cg_i64(cg, 1)), ""));
        st(cg, vj, LLVMBuildSelect(cg->b, take_right, add(cg, j, cg_i64(cg, 1)), j, ""));
        st(cg, vk, add(cg, k, cg_i64(cg, 1)));
      }
      while_end(cg, &wm);
      /* the rest of whichever side is left */
      for (int side = 0; side < 2; side++) {
        LLVMValueRef var = side ? vj : vi, end = side ? hi : mid;
        While wr = while_begin(cg, fn);
        while_test(cg, &wr, slt(cg, ld(cg, var), end));
        LLVMValueRef p = ld(cg, var), k = ld(cg, vk);
        move(cg, g, dst, LLVMBuildMul(cg->b, k, inner, ""), src, LLVMBuildMul(cg->b, p, inner, ""));
        st(cg, var, add(cg, p, cg_i64(cg, 1)));
        st(cg, vk, add(cg, k, cg_i64(cg, 1)));
        while_end(cg, &wr);
      }
      st(cg, vlo, hi);
    }
    while_end(cg, &wl);
    st(cg, vin, LLVMBuildNot(cg->b, LLVMBuildLoad2(cg->b, cg->t_i1, vin, ""), ""));
    st(cg, vw, LLVMBuildMul(cg->b, width, cg_i64(cg, 2), ""));
  }
  while_end(cg, &ww);
  /* the last pass ended in scratch: back into the results */
  LLVMBasicBlockRef back = LLVMAppendBasicBlockInContext(cg->ctx, fn, "copy_back");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(cg->ctx, fn, "row_done");
  LLVMBuildCondBr(cg->b, LLVMBuildLoad2(cg->b, cg->t_i1, vin, ""), done, back);
  LLVMPositionBuilderAtEnd(cg->b, back);
  Loop lc = loop_begin(cg, cg_i64(cg, 0), L, "back");
  LLVMValueRef p = mul(cg, lc.iv, g->inner);
  move(cg, g, A, p, Bq, p);
  loop_end(cg, &lc);
  LLVMBuildBr(cg->b, done);
  LLVMPositionBuilderAtEnd(cg->b, done);
  gpu_loop_end(cg, &lr, step);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

/* One parallel merge pass over every row: a thread per element.  The
   kernel's integer is the run width w, negated for a pass from the scratch
   copy into the results (else from the results into scratch). */
static LLVMValueRef emit_pass(GpuLower *G, Op *op, const SortGeom *g, int nbufs) {
  Cg *cg = &G->cg;
  int n = g->n;
  LLVMValueRef ptrs[2 * MAX_SORT + 2], arg;
  LLVMValueRef fn = gpu_kernel_new(G, nbufs, ptrs, &arg);
  LLVMValueRef *res = ptrs + n, scratch = ptrs[2 * n];
  LLVMValueRef back = LLVMBuildICmp(cg->b, LLVMIntSLT, arg, cg_i64(cg, 0), "back");
  LLVMValueRef w = LLVMBuildSelect(cg->b, back, LLVMBuildNeg(cg->b, arg, ""), arg, "w");
  LLVMValueRef src[MAX_SORT], dst[MAX_SORT], tmp[MAX_SORT];
  scratch_copies(cg, g, scratch, tmp);
  for (int k = 0; k < n; k++) {
    src[k] = LLVMBuildSelect(cg->b, back, tmp[k], res[k], "");
    dst[k] = LLVMBuildSelect(cg->b, back, res[k], tmp[k], "");
  }
  LLVMValueRef vlo = cg_entry_alloca(cg, fn, cg->t_i64, "lo"), vhi = cg_entry_alloca(cg, fn, cg->t_i64, "hi");
  LLVMValueRef step;
  Loop le = gpu_thread_loop(cg, cg_i64(cg, g->rows * g->L), &step, "elem");
  int64_t dims3[3] = {g->rows / g->inner, g->L, g->inner};
  LLVMValueRef ec[3];
  gpu_delinearize(cg, le.iv, dims3, 3, ec);
  LLVMValueRef base = add(cg, mul(cg, ec[0], g->L * g->inner), ec[2]), p = ec[1];
  LLVMValueRef L = cg_i64(cg, g->L), inner = cg_i64(cg, g->inner);
  LLVMValueRef run = LLVMBuildUDiv(cg->b, p, w, "run");
  LLVMValueRef right = LLVMBuildTrunc(cg->b, LLVMBuildAnd(cg->b, run, cg_i64(cg, 1), ""), cg->t_i1, "right");
  LLVMValueRef pair = LLVMBuildMul(cg->b, LLVMBuildAnd(cg->b, run, cg_i64(cg, ~(int64_t)1), ""), w, "pair");
  LLVMValueRef mid = cg_min64(cg, add(cg, pair, w), L), hi = cg_min64(cg, add(cg, mid, w), L);
  /* the other run: [mid, hi) for a left element, [pair, mid) for a right one */
  LLVMValueRef olo = LLVMBuildSelect(cg->b, right, pair, mid, ""), ohi = LLVMBuildSelect(cg->b, right, mid, hi, "");
  LLVMValueRef own = LLVMBuildSelect(cg->b, right, mid, pair, "");
  LLVMValueRef xoff = add(cg, base, LLVMBuildMul(cg->b, p, inner, ""));
  st(cg, vlo, olo);
  st(cg, vhi, ohi);
  While ws = while_begin(cg, fn);
  while_test(cg, &ws, slt(cg, ld(cg, vlo), ld(cg, vhi)));
  {
    LLVMValueRef lo = ld(cg, vlo), hh = ld(cg, vhi);
    LLVMValueRef m = LLVMBuildLShr(cg->b, add(cg, lo, hh), cg_i64(cg, 1), "m");
    LLVMValueRef moff = add(cg, base, LLVMBuildMul(cg->b, m, inner, ""));
    /* left element x: does other[m] < x?  right element x: is other[m] <= x, i.e. not x < other[m]? */
    LLVMValueRef before = LLVMBuildSelect(cg->b, right, LLVMBuildNot(cg->b, less(cg, op, g, src, xoff, moff), ""),
                                          less(cg, op, g, src, moff, xoff), "");
    st(cg, vlo, LLVMBuildSelect(cg->b, before, add(cg, m, cg_i64(cg, 1)), lo, ""));
    st(cg, vhi, LLVMBuildSelect(cg->b, before, hh, m, ""));
  }
  while_end(cg, &ws);
  /* pair + (p - own) + (count of the other run's that go before) */
  LLVMValueRef q = add(cg, add(cg, pair, LLVMBuildSub(cg->b, p, own, "")), LLVMBuildSub(cg->b, ld(cg, vlo), olo, ""));
  LLVMValueRef doff = add(cg, base, LLVMBuildMul(cg->b, q, inner, ""));
  move(cg, g, dst, doff, src, xoff);
  gpu_loop_end(cg, &le, step);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

void gpu_lower_sort(GpuLower *G, Op *op) {
  int n = op->nopnds;
  SortGeom g;
  memset(&g, 0, sizeof g);
  g.n = n;
  bool ok = n >= 1 && n <= MAX_SORT && op->nres == n && op->nregions == 1;
  const Type *t0 = ok ? op->opnds[0]->type : NULL;
  int64_t dim = ok ? op_attr_int(op, "dimension", -1) : -1;
  ok = ok && t0->kind == TY_TENSOR && t0->rank >= 1 && t0->rank <= CG_MAX_RANK && dim >= 0 && dim < t0->rank;
  for (int k = 0; ok && k < n; k++) {
    const Type *t = op->opnds[k]->type;
    ok = t->kind == TY_TENSOR && !t->quant && cg_elem_native(t->elem) && type_same_shape(t, t0) &&
         type_same_shape(op->res[k].type, t0) && op->res[k].type->elem == t->elem;
    if (ok) g.et[k] = t->elem;
  }
  Block *body = ok ? op->regions[0] : NULL;
  Op *ret = body ? block_terminator(body) : NULL;
  ok = ok && body->nargs == 2 * n && ret && ret->nopnds == 1 &&
       elemental_supported(ret->opnds, 1, body->args, 2 * n);
  if (!ok) {
    gpu_unsupported(G, op, "");
    return;
  }
  g.L = t0->dims[dim];
  g.inner = 1;
  for (int d = (int)dim + 1; d < t0->rank; d++) g.inner *= t0->dims[d];
  g.rows = g.L ? type_num_elements(t0) / g.L : 0;
  int64_t bytes = 0;
  for (int k = 0; k < n; k++) {
    g.region[k] = bytes;
    bytes += (type_num_elements(t0) * et_bytes(g.et[k]) + 255) & ~(int64_t)255;
  }
  GpuBuf *bufs;
  int nbufs;
  if (!gpu_op_bufs(G, op, 1, &bufs, &nbufs)) return;
  for (int k = 0; k < n; k++) gpu_add_copy(G, bufs[n + k], bufs[k]);
  if (g.rows == 0 || g.L < 2) {
    xfree(bufs);
    return;
  }
  bufs[nbufs++] = gpu_scratch(G, bytes);
  if (g.L < PAR_MIN) {
    LLVMValueRef fn = emit_sort(G, op, &g, nbufs);
    gpu_add_launch(G, op, fn, g.rows, (g.rows + 63) / 64, 64, bufs, nbufs);
    return;
  }
  GpuBuf tmp[MAX_SORT], out[MAX_SORT];
  for (int k = 0; k < n; k++) {
    out[k] = bufs[n + k];
    tmp[k] = (GpuBuf){BUF_TEMP, bufs[nbufs - 1].offset + g.region[k], out[k].bytes};
  }
  LLVMValueRef fn = emit_pass(G, op, &g, nbufs);
  int64_t total = g.rows * g.L, units = (total + GPU_LOOP_THREADS - 1) / GPU_LOOP_THREADS;
  bool in_scratch = false;
  for (int64_t w = 1; w < g.L; w *= 2) {
    int64_t arg = in_scratch ? -w : w;
    if (w == 1) {
      if (!gpu_add_launch(G, op, fn, arg, units, GPU_LOOP_THREADS, bufs, nbufs)) return;
    } else {
      gpu_repeat_launch(G, arg);
    }
    in_scratch = !in_scratch;
  }
  for (int k = 0; in_scratch && k < n; k++) gpu_add_copy(G, out[k], tmp[k]);
}

/* ---- chlo.top_k ----
 * What the chlo pass leaves as chlo.top_k (f16, bf16, f32, f64 and
 * integer keys of 8 bits or more; passes/chlo.c sorts the others): one
 * thread per element counts the elements of its row that rank before it,
 * the interpreter's order (larger first, floats in the total order, so NaN
 * is largest; on a tie the lower index), and stops counting at k; an
 * element whose count stays below k is that output.  The order is total
 * on (value, index), so every output gets exactly one element: the
 * interpreter's result, bit for bit, with no sorting and no atomics.  Each
 * element scans its row from the start until k elements rank before it:
 * about k steps for most of a random row, the whole row for the k largest
 * (and for every element of an ascending row). */

/* The key the order compares, as i64: the bits of a float in sign and
   magnitude made two's complement (-0 below +0, NaN at the ends), an
   integer widened; unsigned 64-bit keys compare unsigned. */
static LLVMValueRef topk_key(Cg *cg, ElemType et, LLVMValueRef base, LLVMValueRef i) {
  int bits = et_bits(et);
  LLVMTypeRef it = LLVMIntTypeInContext(cg->ctx, (unsigned)bits);
  LLVMValueRef v = LLVMBuildLoad2(cg->b, it, LLVMBuildGEP2(cg->b, it, base, &i, 1, ""), "");
  if (!et_is_float(et)) return et_is_signed(et) ? LLVMBuildSExt(cg->b, v, cg->t_i64, "") : LLVMBuildZExt(cg->b, v, cg->t_i64, "");
  LLVMValueRef w = LLVMBuildZExt(cg->b, v, cg->t_i64, "");
  uint64_t sign = 1ull << (bits - 1);
  LLVMValueRef mag = LLVMBuildAnd(cg->b, w, cg_i64(cg, (int64_t)(sign - 1)), "");
  LLVMValueRef neg = LLVMBuildICmp(cg->b, LLVMIntNE, LLVMBuildAnd(cg->b, w, cg_i64(cg, (int64_t)sign), ""), cg_i64(cg, 0), "");
  return LLVMBuildSelect(cg->b, neg, LLVMBuildSub(cg->b, cg_i64(cg, -1), mag, ""), mag, "");
}

/* Buffers: the operand, the values, the indices. */
static LLVMValueRef emit_top_k(GpuLower *G, ElemType et, ElemType ie, int64_t rows, int64_t L, int64_t k) {
  Cg *cg = &G->cg;
  LLVMValueRef ptrs[3], n, step;
  LLVMValueRef fn = gpu_kernel_new(G, 3, ptrs, &n);
  LLVMValueRef cnt = cg_entry_alloca(cg, fn, cg->t_i64, "cnt"), jp = cg_entry_alloca(cg, fn, cg->t_i64, "j");
  bool uns = !et_is_float(et) && !et_is_signed(et) && et_bits(et) == 64;
  Loop l = gpu_thread_loop(cg, n, &step, "e");
  /* (32-bit division where the shape allows: gpu_delinearize) */
  int64_t dims[2] = {rows, L};
  LLVMValueRef ri[2];
  gpu_delinearize(cg, l.iv, dims, 2, ri);
  LLVMValueRef row = ri[0], i = ri[1];
  LLVMValueRef base = LLVMBuildMul(cg->b, row, cg_i64(cg, L), "");
  LLVMValueRef ki = topk_key(cg, et, ptrs[0], l.iv);
  LLVMBuildStore(cg->b, cg_i64(cg, 0), cnt);
  LLVMBuildStore(cg->b, cg_i64(cg, 0), jp);
  /* while (j < L && cnt < k): cnt += element j ranks before element i */
  LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(cg->ctx, fn, "scan");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(cg->ctx, fn, "step");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(cg->ctx, fn, "counted");
  LLVMBuildBr(cg->b, head);
  LLVMPositionBuilderAtEnd(cg->b, head);
  LLVMValueRef j = LLVMBuildLoad2(cg->b, cg->t_i64, jp, ""), c = LLVMBuildLoad2(cg->b, cg->t_i64, cnt, "");
  LLVMBuildCondBr(cg->b, LLVMBuildAnd(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, j, cg_i64(cg, L), ""),
                                      LLVMBuildICmp(cg->b, LLVMIntSLT, c, cg_i64(cg, k), ""), ""),
                  body, done);
  LLVMPositionBuilderAtEnd(cg->b, body);
  LLVMValueRef kj = topk_key(cg, et, ptrs[0], LLVMBuildAdd(cg->b, base, j, ""));
  LLVMValueRef gt = LLVMBuildICmp(cg->b, uns ? LLVMIntUGT : LLVMIntSGT, kj, ki, "");
  LLVMValueRef tie = LLVMBuildAnd(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, kj, ki, ""),
                                  LLVMBuildICmp(cg->b, LLVMIntSLT, j, i, ""), "");
  LLVMValueRef before = LLVMBuildOr(cg->b, gt, tie, "");
  LLVMBuildStore(cg->b, LLVMBuildAdd(cg->b, c, LLVMBuildZExt(cg->b, before, cg->t_i64, ""), ""), cnt);
  LLVMBuildStore(cg->b, LLVMBuildAdd(cg->b, j, cg_i64(cg, 1), ""), jp);
  LLVMBuildBr(cg->b, head);
  LLVMPositionBuilderAtEnd(cg->b, done);
  LLVMValueRef rank = LLVMBuildLoad2(cg->b, cg->t_i64, cnt, "rank");
  LLVMBasicBlockRef after = gpu_if_begin(cg, LLVMBuildICmp(cg->b, LLVMIntSLT, rank, cg_i64(cg, k), ""));
  LLVMValueRef o = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, row, cg_i64(cg, k), ""), rank, "");
  LLVMTypeRef vt = LLVMIntTypeInContext(cg->ctx, (unsigned)et_bits(et));
  LLVMValueRef v = LLVMBuildLoad2(cg->b, vt, LLVMBuildGEP2(cg->b, vt, ptrs[0], &l.iv, 1, ""), "");
  LLVMBuildStore(cg->b, v, LLVMBuildGEP2(cg->b, vt, ptrs[1], &o, 1, ""));
  LLVMTypeRef xt = LLVMIntTypeInContext(cg->ctx, (unsigned)et_bits(ie));
  LLVMBuildStore(cg->b, LLVMBuildTrunc(cg->b, i, xt, ""), LLVMBuildGEP2(cg->b, xt, ptrs[2], &o, 1, ""));
  gpu_if_end(cg, after);
  gpu_loop_end(cg, &l, step);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

void gpu_lower_top_k(GpuLower *G, Op *op) {
  const Type *t = op->nopnds == 1 && op->nres == 2 ? op->opnds[0]->type : NULL;
  int64_t k = op_attr_int(op, "k", -1);
  ElemType et = t ? t->elem : ET_INVALID, ie = t ? op->res[1].type->elem : ET_INVALID;
  bool key = et == ET_F16 || et == ET_BF16 || et == ET_F32 || et == ET_F64 ||
             (et_is_int(et) && !et_is_complex(et) && et_bits(et) >= 8);
  bool ok = t && t->kind == TY_TENSOR && !t->quant && t->rank >= 1 && key && et_is_int(ie) &&
            !et_is_complex(ie) && et_bits(ie) >= 8 && op->res[0].type->elem == et && k >= 0 &&
            k <= t->dims[t->rank - 1];
  if (!ok) {
    gpu_unsupported(G, op, "these types; ");
    return;
  }
  GpuBuf *bufs;
  int nbufs;
  if (!gpu_op_bufs(G, op, 0, &bufs, &nbufs)) return;
  int64_t n = type_num_elements(t), L = t->dims[t->rank - 1];
  if (n == 0 || k == 0) {
    xfree(bufs);
    return;
  }
  gpu_add_thread_launch(G, op, emit_top_k(G, et, ie, n / L, L, k), n, bufs, nbufs);
}
