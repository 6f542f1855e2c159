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

/* out[i] = root(i) for i in [lo, hi), one flat loop the vectorizer widens. */
static void emit_flat(Cg *cg, KernelIO *io, Value *const *roots, int nroots, LLVMValueRef *outs,
                      LLVMValueRef lo, LLVMValueRef hi) {
  int rank = roots[0]->type->rank;
  LLVMValueRef idx[CG_MAX_RANK];
  Loop l = loop_begin(cg, lo, hi, "flat");
  for (int d = 0; d < rank; d++) idx[d] = d == rank - 1 ? l.iv : cg_i64(cg, 0);
  kernel_io_reset_memo(io);
  for (int r = 0; r < nroots; r++) {
    LLVMValueRef v = emit_elemental(cg, io, roots[r], idx);
    cg_store(cg, roots[r]->type->elem, outs[r], l.iv, v);
  }
  loop_end(cg, &l);
}

/* Results far larger than the caches are written with streaming
   (non-temporal) stores: a normal store first reads the line it fills,
   so writing around the caches saves a third of the traffic of a
   two-input elementwise kernel.  One plain-typed result only. */
enum { STREAMING_MIN_BYTES = 32 << 20, LINE = 64 };

/* XLAC_STREAMING_MIN_BYTES overrides the threshold (tests use a tiny one;
   a huge one turns streaming off). */
static bool streaming_ok(const KernelSpec *k) {
  if (k->nroots != 1) return false;
  ElemType et = k->roots[0]->type->elem;
  if (et_is_complex(et) || cg_elem_narrow(et) || et == ET_PRED || et_bits(et) < 8) return false;
  int64_t min = STREAMING_MIN_BYTES;
  const char *env = getenv("XLAC_STREAMING_MIN_BYTES");
  if (env && *env) min = strtoll(env, NULL, 10);
  return type_bytes(k->roots[0]->type) >= min;
}

/* emit_flat with whole cache lines of out written by aligned streaming
   stores: a scalar head up to the first line boundary, then per line a
   small loop (the vectorizer makes it one vector) filling a line-sized
   buffer that is stored with !nontemporal, then a scalar tail. */
static void emit_flat_streaming(Cg *cg, KernelIO *io, Value *root, LLVMValueRef out, LLVMValueRef lo,
                                LLVMValueRef hi) {
  ElemType et = root->type->elem;
  int64_t eb = et_bytes(et), w = LINE / eb;
  LLVMTypeRef st = cg_storage_type(cg, et), vt = LLVMVectorType(st, (unsigned)w);
  /* the line buffer (64-byte aligned, one line) */
  LLVMValueRef buf = cg_entry_alloca(cg, LLVMGetBasicBlockParent(LLVMGetInsertBlock(cg->b)), vt, "line");

  /* head: elements before the first line boundary at or after out + lo */
  LLVMValueRef addr = LLVMBuildAdd(cg->b, LLVMBuildPtrToInt(cg->b, out, cg->t_i64, ""),
                                   LLVMBuildMul(cg->b, lo, cg_i64(cg, eb), ""), "");
  LLVMValueRef mis = LLVMBuildAnd(cg->b, LLVMBuildSub(cg->b, cg_i64(cg, 0), addr, ""), cg_i64(cg, LINE - 1), "");
  /* out is element-aligned, so mis is a multiple of eb */
  LLVMValueRef a = cg_min64(cg, LLVMBuildAdd(cg->b, lo, LLVMBuildUDiv(cg->b, mis, cg_i64(cg, eb), ""), ""), hi);
  emit_flat(cg, io, &root, 1, &out, lo, a);
  /* whole lines */
  LLVMValueRef nlines = LLVMBuildSDiv(cg->b, LLVMBuildSub(cg->b, hi, a, ""), cg_i64(cg, w), "");
  Loop l = loop_begin(cg, cg_i64(cg, 0), nlines, "line");
  LLVMValueRef base = LLVMBuildAdd(cg->b, a, LLVMBuildMul(cg->b, l.iv, cg_i64(cg, w), ""), "");
  Loop e = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, w), "elem");
  int rank = root->type->rank;
  LLVMValueRef idx[CG_MAX_RANK];
  for (int d = 0; d < rank; d++) idx[d] = d == rank - 1 ? LLVMBuildAdd(cg->b, base, e.iv, "") : cg_i64(cg, 0);
  kernel_io_reset_memo(io);
  cg_store(cg, et, buf, e.iv, emit_elemental(cg, io, root, idx));
  loop_end(cg, &e);
  LLVMValueRef v = LLVMBuildLoad2(cg->b, vt, buf, "");
  LLVMSetAlignment(v, LINE);
  LLVMValueRef p = LLVMBuildGEP2(cg->b, st, out, &base, 1, "");
  LLVMValueRef s = LLVMBuildStore(cg->b, v, p);
  LLVMSetAlignment(s, LINE);
  cg_set_nontemporal(cg, s);
  loop_end(cg, &l);
  /* streaming stores are weakly ordered: make them visible before the
     chunk counts as done */
  LLVMBuildFence(cg->b, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
  /* tail */
  LLVMValueRef t = LLVMBuildAdd(cg->b, a, LLVMBuildMul(cg->b, nlines, cg_i64(cg, w), ""), "");
  emit_flat(cg, io, &root, 1, &out, t, hi);
}

/* ---- concatenations split by operand ----
 * A fusion whose one root is a concatenate (seen through reshapes, which
 * keep the linear order) gets one loop nest per operand over that
 * operand's part of the result: each computes its operand at its own
 * indices, where the generic nest would compute every operand for every
 * element (clamped) and select one, which also keeps the vectorizer out.
 * Transformers' gradients concatenate the heads' dQ, dK and dV; DenseNet
 * and Inception concatenate feature maps. */

/* The concatenate the root is, through reshapes; NULL if none. */
static Op *root_concat(Value *root) {
  Value *v = root;
  while (v->def && v->def->kind == OP_RESHAPE && v->def->nopnds == 1) v = v->def->opnds[0];
  Op *c = v->def;
  if (!c || c->kind != OP_CONCATENATE || c->nres != 1 || c->nopnds < 2 || c->nopnds > 64) return NULL;
  int64_t dim = op_attr_int(c, "dimension", -1);
  if (dim < 0 || dim >= c->res[0].type->rank || c->res[0].type->rank > CG_MAX_RANK) return NULL;
  return c;
}

static int64_t gcd64(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* The gcd of the innermost dimensions of every value the fusion computes
   from v: within runs of that many elements along the result's innermost
   dimension, reshapes and transposes that keep it innermost read
   consecutive elements.  0: none seen. */
static int64_t inner_run(Value *v, Value *const *inputs, int n, PtrMap *seen, int64_t run) {
  if (ptrmap_has(seen, v)) return run;
  ptrmap_put(seen, v, (void *)1);
  if (v->type->kind == TY_TENSOR && v->type->rank > 0 && v->type->dims[v->type->rank - 1] > 1)
    run = gcd64(run, v->type->dims[v->type->rank - 1]);
  for (int i = 0; i < n; i++)
    if (inputs[i] == v) return run;
  Op *op = v->def;
  if (!op || op->kind == OP_CONSTANT) return run;
  for (int i = 0; i < op->nopnds; i++) run = inner_run(op->opnds[i], inputs, n, seen, run);
  return run;
}

/* A loop nest over shape: of the roots, or with cat, one nest per operand
   of the concatenate from its dimension inwards (k its operand, at offset
   off along it). */
typedef struct Nest {
  Cg *cg;
  KernelIO *io;
  Op *cat;                  /* NULL: every root at every index */
  const Type *shape;        /* the concatenate's, or the roots' */
  int dim;                  /* the concatenated dimension (cat) */
  Value *const *roots;
  int nroots;
  LLVMValueRef *outs;
  LLVMValueRef lo, hi;      /* dimension 0's range in this chunk */
  int64_t run;              /* inner_run of what is computed */
  LLVMValueRef idx[CG_MAX_RANK];
} Nest;

static void nest(Nest *c, int d, int k, int64_t off) {
  Cg *cg = c->cg;
  int rank = c->shape->rank;
  if (d == rank && !c->cat) {
    LLVMValueRef lin = cg_i64(cg, 0);
    for (int i = 0; i < rank; i++)
      lin = LLVMBuildNSWAdd(cg->b, LLVMBuildNSWMul(cg->b, lin, cg_i64(cg, c->shape->dims[i]), ""), c->idx[i], "");
    kernel_io_reset_memo(c->io);
    for (int r = 0; r < c->nroots; r++)
      cg_store(cg, c->roots[r]->type->elem, c->outs[r], lin, emit_elemental(cg, c->io, c->roots[r], c->idx));
    return;
  }
  if (d == rank) {
    Value *x = c->cat->opnds[k];
    LLVMValueRef oidx[CG_MAX_RANK];
    memcpy(oidx, c->idx, sizeof(LLVMValueRef) * (size_t)rank);
    oidx[c->dim] = LLVMBuildNSWSub(cg->b, c->idx[c->dim], cg_i64(cg, off), "");
    LLVMValueRef lin = cg_i64(cg, 0);
    for (int i = 0; i < rank; i++)
      lin = LLVMBuildNSWAdd(cg->b, LLVMBuildNSWMul(cg->b, lin, cg_i64(cg, c->shape->dims[i]), ""), c->idx[i], "");
    kernel_io_reset_memo(c->io);
    cg_store(cg, x->type->elem, c->outs[0], lin, emit_elemental(cg, c->io, x, oidx));
    return;
  }
  if (c->cat && d == c->dim && k < 0) {
    /* one nest per operand from here on */
    int64_t o = 0;
    for (int j = 0; j < c->cat->nopnds; j++) {
      int64_t n = c->cat->opnds[j]->type->dims[c->dim];
      if (n > 0) nest(c, d, j, o);
      o += n;
    }
    return;
  }
  LLVMValueRef lo = cg_i64(cg, 0), hi = cg_i64(cg, c->shape->dims[d]);
  bool split = c->cat && d == c->dim;
  if (split) {
    lo = cg_i64(cg, off);
    hi = cg_i64(cg, off + c->cat->opnds[k]->type->dims[d]);
  }
  if (d == 0) {
    /* the chunk's rows, intersected with the operand's when they are the
       concatenated dimension */
    lo = split ? cg_max64(cg, lo, c->lo) : c->lo;
    hi = split ? cg_min64(cg, hi, c->hi) : c->hi;
  }
  if (d == rank - 1 && d > 0) {
    /* the innermost dimension by runs (inner_run): the index within a run
       is masked to its bits, which tells LLVM that the divisions of
       reshapes and transposes by the run length do not depend on it, so
       the run is one vector of consecutive elements */
    int64_t a = split ? off : 0, n = split ? c->cat->opnds[k]->type->dims[d] : c->shape->dims[d];
    int64_t r = gcd64(gcd64(c->run, n), a ? a : n);
    if (r >= 8 && r < n && (r & (r - 1)) == 0) {
      Loop lr = loop_begin(cg, cg_i64(cg, a / r), cg_i64(cg, (a + n) / r), "run");
      Loop le = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, r), "e");
      LLVMValueRef j = LLVMBuildAnd(cg->b, le.iv, cg_i64(cg, r - 1), "");
      c->idx[d] = LLVMBuildOr(cg->b, LLVMBuildNUWMul(cg->b, lr.iv, cg_i64(cg, r), ""), j, "");
      nest(c, d + 1, k, off);
      loop_end(cg, &le);
      loop_end(cg, &lr);
      return;
    }
  }
  Loop l = loop_begin(cg, lo, hi, "d");
  c->idx[d] = l.iv;
  nest(c, d + 1, k, off);
  loop_end(cg, &l);
}

/* Emits a loop kernel; returns the kernel function and the chunk count. */
LLVMValueRef emit_loop_kernel(Lower *L, const KernelSpec *k, int64_t *nchunks) {
  Cg *cg = &L->cg;
  const Type *shape = k->roots[0]->type;
  int rank = shape->rank;
  int64_t n = type_num_elements(shape);
  PtrMap seen = {0};
  bool flat = true;
  for (int r = 0; r < k->nroots && flat; r++) flat = elemental_flat(k->roots[r], shape, k->inputs, k->ninputs, &seen);
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

  Op *cat = k->nroots == 1 && !flat ? root_concat(k->roots[0]) : NULL;
  if (flat || (rank <= 1 && !cat)) {
    /* one loop over the linear index: idx = [0, ..., 0, i] */
    int64_t ch = CHUNK_ELEMS;
    *nchunks = n > 0 ? (n + ch - 1) / ch : 0;
    LLVMValueRef lo = LLVMBuildMul(cg->b, chunk, cg_i64(cg, ch), "");
    LLVMValueRef hi = cg_min64(cg, LLVMBuildAdd(cg->b, lo, cg_i64(cg, ch), ""), cg_i64(cg, n));
    if (streaming_ok(k)) {
      emit_flat_streaming(cg, &io, k->roots[0], outs[0], lo, hi);
    } else {
      emit_flat(cg, &io, k->roots, k->nroots, outs, lo, hi);
    }
  } else {
    /* a nest (per operand of a concatenate from its dimension inwards);
       chunks split dimension 0 */
    const Type *ns = cat ? cat->res[0].type : shape;
    int64_t inner = n / (ns->dims[0] ? ns->dims[0] : 1);
    int64_t ch0 = inner >= CHUNK_ELEMS ? 1 : CHUNK_ELEMS / (inner ? inner : 1);
    *nchunks = n > 0 ? (ns->dims[0] + ch0 - 1) / ch0 : 0;
    PtrMap rs = {0};
    int64_t run = 0;
    if (cat)
      for (int i = 0; i < cat->nopnds; i++) run = inner_run(cat->opnds[i], k->inputs, k->ninputs, &rs, run);
    else
      for (int r = 0; r < k->nroots; r++) run = inner_run(k->roots[r], k->inputs, k->ninputs, &rs, run);
    ptrmap_free(&rs);
    Nest c = {cg, &io, cat, ns, cat ? (int)op_attr_int(cat, "dimension", 0) : -1, k->roots, k->nroots, outs,
              NULL, NULL, run, {0}};
    c.lo = LLVMBuildMul(cg->b, chunk, cg_i64(cg, ch0), "");
    c.hi = cg_min64(cg, LLVMBuildAdd(cg->b, c.lo, cg_i64(cg, ch0), ""), cg_i64(cg, ns->dims[0]));
    nest(&c, 0, -1, 0);
  }
  LLVMBuildRetVoid(cg->b);
  kernel_io_free(&io);
  xfree(io.input_ptrs);
  xfree(outs);
  return fn;
}

