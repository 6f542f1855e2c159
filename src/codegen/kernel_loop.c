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

  LLVMValueRef idx[CG_MAX_RANK];
  if (flat || rank <= 1) {
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
  xfree(io.input_ptrs);
  xfree(outs);
  return fn;
}

