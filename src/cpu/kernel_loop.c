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

#include "cpu/lower.h"
#include "passes/cost.h"

/* out[i] = root(i) for i in [lo, hi), one flat loop the vectorizer widens. */
static void emit_flat(Cg *cg, KernelIO *io, Value *const *roots, int nroots, LLVMValueRef *outs,
                      LLVMValueRef lo, LLVMValueRef hi) {
  int rank = roots[0]->type->rank;
  LLVMValueRef idx[CG_MAX_RANK];
  Loop l = loop_begin(cg, lo, hi, "flat");
  for (int d = 0; d < rank; d++) idx[d] = d == rank - 1 ? l.iv : cg_i64(cg, 0);
  elemental_store_roots(cg, io, roots, nroots, outs, idx, l.iv, true);
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

/* A concatenate inside the fusion works the same way when the roots are
 * computed from it by elementwise ops of its shape only (DenseNet's
 * concatenated feature maps under a batch norm and a relu): in operand k's
 * nest the concatenate is known to be that operand, so the roots are
 * computed from it alone.  Concatenates along the same dimension nested
 * in its operands are split into their operands too. */
enum { MAX_PIECES = 64 };

/* Whether c is a concatenate that can be split, with its dimension. */
static bool split_concat(Op *c, int64_t *dim) {
  if (!c || c->kind != OP_CONCATENATE || c->nres != 1 || c->nopnds < 1) return false;
  *dim = op_attr_int(c, "dimension", -1);
  return *dim >= 0 && *dim < c->res[0].type->rank && c->res[0].type->rank <= CG_MAX_RANK;
}

static bool is_input(const Value *v, Value *const *inputs, int n) {
  for (int i = 0; i < n; i++)
    if (inputs[i] == v) return true;
  return false;
}

/* Whether c's operands, with those the kernel computes that are
   concatenates along the same dimension (in), split further, are at most
   MAX_PIECES values; appends them and their offsets to v and off. */
static bool concat_pieces(Op *c, int64_t dim, int64_t base, Value **v, int64_t *off, int *n, PtrMap *in,
                          Value *const *inputs, int ninputs) {
  int64_t o = base;
  for (int i = 0; i < c->nopnds; i++) {
    Value *x = c->opnds[i];
    int64_t d2;
    if (!is_input(x, inputs, ninputs) && split_concat(x->def, &d2) && d2 == dim) {
      ptrmap_put(in, x, (void *)1);
      if (!concat_pieces(x->def, dim, o, v, off, n, in, inputs, ninputs)) return false;
    } else if (x->type->dims[dim] > 0) {
      if (*n == MAX_PIECES) return false;
      v[*n] = x;
      off[*n] = o;
      ++*n;
    }
    o += x->type->dims[dim];
  }
  return true;
}

/* Whether v (a value the fusion computes, not an input) has c among what
   it is computed from.  memo: 1 no, 2 yes. */
static bool reaches(Value *v, Value *c, Value *const *inputs, int n, PtrMap *memo) {
  if (v == c) return true;
  void *m = ptrmap_get(memo, v);
  if (m) return m == (void *)2;
  bool r = false;
  if (!is_input(v, inputs, n) && v->def)
    for (int i = 0; i < v->def->nopnds && !r; i++) r = reaches(v->def->opnds[i], c, inputs, n, memo);
  ptrmap_put(memo, v, r ? (void *)2 : (void *)1);
  return r;
}

/* Whether every path from v to c passes through elementwise ops of the
   shape only, and none through the concatenates split into c's pieces
   (inner) other than through c. */
static bool ew_paths(Value *v, Value *c, const Type *shape, PtrMap *inner, Value *const *inputs, int n,
                     PtrMap *memo, PtrMap *seen) {
  if (v == c || ptrmap_has(seen, v)) return true;
  ptrmap_put(seen, v, (void *)1);
  if (ptrmap_has(inner, v)) return false;
  if (!reaches(v, c, inputs, n, memo)) return true;
  Op *op = v->def;
  if (!op_has_flag(op->kind, OPF_EW) || !type_same_shape(v->type, shape)) return false;
  for (int i = 0; i < op->nopnds; i++)
    if (!ew_paths(op->opnds[i], c, shape, inner, inputs, n, memo, seen)) return false;
  return true;
}

/* The concatenate of the roots' shape that the roots are computed from by
   elementwise ops only, the first found; NULL if none. */
static Op *find_inner_concat(Value *v, const Type *shape, Value *const *inputs, int n, PtrMap *seen) {
  if (ptrmap_has(seen, v)) return NULL;
  ptrmap_put(seen, v, (void *)1);
  for (int i = 0; i < n; i++)
    if (inputs[i] == v) return NULL;
  Op *op = v->def;
  if (!op || !type_same_shape(v->type, shape)) return NULL;
  int64_t dim;
  if (split_concat(op, &dim)) return op;
  if (!op_has_flag(op->kind, OPF_EW)) return NULL;
  for (int i = 0; i < op->nopnds; i++) {
    Op *c = find_inner_concat(op->opnds[i], shape, inputs, n, seen);
    if (c) return c;
  }
  return NULL;
}

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
  bool inner;               /* cat is inside: the roots are computed from it */
  int npieces;              /* cat's operands, nested concatenates split */
  Value *piece[MAX_PIECES];
  int64_t poff[MAX_PIECES]; /* their offsets along dim */
  int pin[MAX_PIECES];      /* the kernel input each piece is; -1: computed */
  LLVMValueRef ptrs;        /* the kernel's pointer array */
  /* a run of pieces that are consecutive inputs of one shape shares one
     nest, a loop over the pieces around it: the piece's pointer, its
     offset along dim, the index within it (dyn_ptr NULL: not in one) */
  LLVMValueRef dyn_ptr, dyn_off, local;
  LLVMValueRef idx[CG_MAX_RANK];
} Nest;

static void nest(Nest *c, int d, int k, int64_t off) {
  Cg *cg = c->cg;
  int rank = c->shape->rank;
  if (d == rank && !c->cat) {
    LLVMValueRef lin = cg_i64(cg, 0);
    for (int i = 0; i < rank; i++)
      lin = LLVMBuildNSWAdd(cg->b, LLVMBuildNSWMul(cg->b, lin, cg_i64(cg, c->shape->dims[i]), ""), c->idx[i], "");
    elemental_store_roots(cg, c->io, c->roots, c->nroots, c->outs, c->idx, lin, true);
    return;
  }
  if (d == rank) {
    Value *x = c->piece[k];
    LLVMValueRef oidx[CG_MAX_RANK];
    memcpy(oidx, c->idx, sizeof(LLVMValueRef) * (size_t)rank);
    oidx[c->dim] = c->dyn_ptr ? c->local : LLVMBuildNSWSub(cg->b, c->idx[c->dim], cg_i64(cg, off), "");
    LLVMValueRef lin = cg_i64(cg, 0);
    for (int i = 0; i < rank; i++)
      lin = LLVMBuildNSWAdd(cg->b, LLVMBuildNSWMul(cg->b, lin, cg_i64(cg, c->shape->dims[i]), ""), c->idx[i], "");
    kernel_io_reset_memo(c->io);
    LLVMValueRef xv = c->dyn_ptr ? cg_load(cg, x->type->elem, c->dyn_ptr, cg_linearize(cg, x->type, oidx))
                                 : emit_elemental(cg, c->io, x, oidx);
    if (!c->inner) {
      cg_store(cg, x->type->elem, c->outs[0], lin, xv);
      return;
    }
    /* the concatenate is piece k here; the roots are computed from it */
    kernel_io_give(c->io, &c->cat->res[0], c->idx, xv);
    elemental_store_roots(cg, c->io, c->roots, c->nroots, c->outs, c->idx, lin, false);
    return;
  }
  if (c->cat && d == c->dim && k < 0) {
    /* one nest per piece from here on, or per run of pieces that are
       consecutive kernel inputs of one shape (DenseNet's 32 channels at a
       time): their nest once, in a loop over them */
    for (int j = 0, j1; j < c->npieces; j = j1) {
      j1 = j + 1;
      if (c->inner && c->dim > 0 && c->pin[j] >= 0)
        while (j1 < c->npieces && c->pin[j1] == c->pin[j] + (j1 - j) &&
               type_same_shape(c->piece[j1]->type, c->piece[j]->type))
          j1++;
      if (j1 - j < 2) {
        nest(c, d, j, c->poff[j]);
        continue;
      }
      Loop lp = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, j1 - j), "piece");
      LLVMValueRef pi = LLVMBuildAdd(cg->b, lp.iv, cg_i64(cg, c->pin[j]), "");
      c->dyn_ptr = LLVMBuildLoad2(cg->b, cg->t_ptr, LLVMBuildGEP2(cg->b, cg->t_ptr, c->ptrs, &pi, 1, ""), "");
      c->dyn_off = LLVMBuildNSWAdd(
          cg->b, cg_i64(cg, c->poff[j]), LLVMBuildNSWMul(cg->b, lp.iv, cg_i64(cg, c->piece[j]->type->dims[d]), ""), "");
      nest(c, d, j, c->poff[j]);
      c->dyn_ptr = NULL;
      loop_end(cg, &lp);
    }
    return;
  }
  if (c->dyn_ptr && d == c->dim) {
    /* in a run of pieces: the index within this one */
    Loop l = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, c->piece[k]->type->dims[d]), "d");
    c->local = l.iv;
    c->idx[d] = LLVMBuildNSWAdd(cg->b, c->dyn_off, l.iv, "");
    nest(c, d + 1, k, off);
    loop_end(cg, &l);
    return;
  }
  LLVMValueRef lo = cg_i64(cg, 0), hi = cg_i64(cg, c->shape->dims[d]);
  bool split = c->cat && d == c->dim;
  if (split) {
    lo = cg_i64(cg, off);
    hi = cg_i64(cg, off + c->piece[k]->type->dims[d]);
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
    int64_t a = split ? off : 0, n = split ? c->piece[k]->type->dims[d] : c->shape->dims[d];
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

/* The work per element of a fusion's ops computing v (each counted once):
   1 for most elementwise ops, 4 for a division or remainder, 16 for a
   transcendental; movement and inputs nothing. */
static int64_t work_of(const Value *v, Value *const *inputs, int ninputs, PtrMap *seen) {
  const Op *op = v->def;
  if (!op || ptrmap_get(seen, op)) return 0;
  for (int i = 0; i < ninputs; i++)
    if (inputs[i] == v) return 0;
  ptrmap_put(seen, op, (void *)op);
  int64_t w = 0;
  if (cost_is_transcendental(op->kind)) w = 16;
  else if (op->kind == OP_DIVIDE || op->kind == OP_REMAINDER) w = 4;
  else if (op_has_flag(op->kind, OPF_EW)) w = 1;
  for (int i = 0; i < op->nopnds; i++) w += work_of(op->opnds[i], inputs, ninputs, seen);
  return w;
}

/* Elements per chunk: CHUNK_ELEMS (about a pass over memory's worth of
   time for cheap elementwise work), fewer where each element costs many
   transcendentals, so that a small but heavy fusion (an LSTM step's gates:
   4096 elements, 3 sigmoids and 2 tanh each) still spreads over the pool;
   at least 1024.  Chunks never change what an element computes. */
static int64_t loop_chunk_elems(const KernelSpec *k) {
  PtrMap seen = {0};
  int64_t w = 0;
  for (int r = 0; r < k->nroots; r++) w += work_of(k->roots[r], k->inputs, k->ninputs, &seen);
  ptrmap_free(&seen);
  int64_t ch = CHUNK_ELEMS;
  while (ch > 1024 && ch * w > 3 * (int64_t)CHUNK_ELEMS) ch /= 2;
  return ch;
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
  bool inner_cat = false;
  Value *piece[MAX_PIECES];
  int64_t poff[MAX_PIECES];
  int npieces = 0;
  if (!flat && !cat && rank >= 1) {
    /* a concatenate inside, under elementwise ops of the roots' shape */
    PtrMap fs = {0};
    Op *c = find_inner_concat(k->roots[0], shape, k->inputs, k->ninputs, &fs);
    ptrmap_free(&fs);
    bool ok = c != NULL;
    for (int r = 1; r < k->nroots && ok; r++) ok = type_same_shape(k->roots[r]->type, shape);
    PtrMap in = {0}, memo = {0}, vis = {0};
    int64_t dim;
    ok = ok && split_concat(c, &dim) && concat_pieces(c, dim, 0, piece, poff, &npieces, &in, k->inputs, k->ninputs);
    for (int r = 0; r < k->nroots && ok; r++)
      ok = ew_paths(k->roots[r], &c->res[0], shape, &in, k->inputs, k->ninputs, &memo, &vis);
    ptrmap_free(&in);
    ptrmap_free(&memo);
    ptrmap_free(&vis);
    if (ok) {
      cat = c;
      inner_cat = true;
    }
  } else if (cat) {
    PtrMap in = {0};
    int64_t dim;
    if (!split_concat(cat, &dim) || !concat_pieces(cat, dim, 0, piece, poff, &npieces, &in, k->inputs, k->ninputs)) cat = NULL;
    ptrmap_free(&in);
  }
  if (flat || (rank <= 1 && !cat)) {
    /* one loop over the linear index: idx = [0, ..., 0, i] */
    int64_t ch = loop_chunk_elems(k);
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
    int64_t che = loop_chunk_elems(k);
    int64_t ch0 = inner >= che ? 1 : che / (inner ? inner : 1);
    *nchunks = n > 0 ? (ns->dims[0] + ch0 - 1) / ch0 : 0;
    PtrMap rs = {0};
    int64_t run = 0;
    if (cat && !inner_cat)
      for (int i = 0; i < npieces; i++) run = inner_run(piece[i], k->inputs, k->ninputs, &rs, run);
    else
      for (int r = 0; r < k->nroots; r++) run = inner_run(k->roots[r], k->inputs, k->ninputs, &rs, run);
    ptrmap_free(&rs);
    Nest c = {cg, &io, cat, ns, cat ? (int)op_attr_int(cat, "dimension", 0) : -1, k->roots, k->nroots, outs,
              NULL, NULL, run, inner_cat, npieces, {0}, {0}, {0}, NULL, NULL, NULL, NULL, {0}};
    memcpy(c.piece, piece, sizeof(Value *) * (size_t)npieces);
    memcpy(c.poff, poff, sizeof(int64_t) * (size_t)npieces);
    c.ptrs = ptrs;
    for (int j = 0; j < npieces; j++) {
      c.pin[j] = -1;
      for (int i = 0; i < k->ninputs && c.pin[j] < 0; i++)
        if (k->inputs[i] == piece[j]) c.pin[j] = i;
    }
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

