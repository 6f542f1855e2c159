/*
 * kernel_reduce.c - reduction kernels: a reduce, or a reduction fusion
 * (several sibling reduces over the same input shape), whose body is one
 * binary op.  The elementwise producers feeding the reduces are computed on
 * the fly by the elemental generator.  Three strategies, picked from the
 * shape of the reduction:
 *
 *  - row reductions (the reduced dims are innermost; a full reduction is the
 *    case of one output): the reduced range of each output is cut into
 *    blocks whose size depends only on the problem size.  A block computes
 *    its producer values a step of S elements at a time into a small stack
 *    buffer (a plain loop LLVM's vectorizer turns into SIMD), then folds the
 *    buffer into a few explicit vector accumulators; at the end of the block
 *    the accumulators and then their lanes are combined in a fixed tree
 *    order.  When an output spans several blocks, the blocks run on the
 *    pool, write partial results to a scratch array, and the partials are
 *    combined in block order afterwards.  The float results differ from the
 *    interpreter's strictly sequential order by reassociation, but are a
 *    fixed function of the input: never of the thread count or timing.
 *  - column reductions (the reduced dims lie between outer and inner kept
 *    dims, the inner ones contiguous): a tile of outputs along the inner
 *    dims accumulates row after row in a stack buffer; the loop over the
 *    tile is vectorized across outputs, so each output still takes its
 *    inputs in the interpreter's order and results are bit-identical.
 *  - anything else (and pred or 2/4-bit element types, short rows, empty
 *    reductions): every output element accumulates sequentially from the
 *    init value in row-major order, exactly as the interpreter does.
 * Setting XLAC_REDUCE_SEQUENTIAL in the environment forces the last one
 * everywhere, to compare speed and results.
 *
 * The partials of a row reduction need the pool inside a kernel: the kernel
 * handed back to cpu.c is then a driver, run once, which starts the blocks
 * itself (see pool_global) and combines their results.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu/lower.h"

/* The distinct reduce ops of a kernel and their results ("slots"): a
   variadic reduce accumulates all its results even when only some are
   roots. */
enum { MAX_SLOTS = 64 };
typedef struct Slots {
  int nops, n;
  const Op *op[MAX_SLOTS];
  int first[MAX_SLOTS];               /* first slot of each op */
  const Op *sop[MAX_SLOTS];           /* op of each slot */
  int sres[MAX_SLOTS];                /* result index of each slot */
  int root[MAX_SLOTS];                /* slot of each root */
} Slots;

static bool slots_of(const KernelSpec *k, Slots *s) {
  memset(s, 0, sizeof *s);
  for (int r = 0; r < k->nroots; r++) {
    const Op *op = k->reduces[r];
    int o = 0;
    while (o < s->nops && s->op[o] != op) o++;
    if (o == s->nops) {
      if (s->n + op->nres > MAX_SLOTS) return false;
      s->op[o] = op;
      s->first[o] = s->n;
      for (int j = 0; j < op->nres; j++) {
        s->sop[s->n + j] = op;
        s->sres[s->n + j] = j;
      }
      s->n += op->nres;
      s->nops++;
    }
    s->root[r] = s->first[o] + k->roots[r]->index;
  }
  return true;
}

static ElemType slot_et(const Slots *s, int i) { return s->sop[i]->res[s->sres[i]].type->elem; }

/* Folds one element into every accumulator: acc[slot] are compute-type
   values, x[slot] the elements; acc is updated in place. */
static void combine_all(Cg *cg, const Slots *s, ReduceBody *bodies, LLVMValueRef *acc, LLVMValueRef *x) {
  for (int o = 0; o < s->nops; o++) {
    const Op *op = s->op[o];
    int f = s->first[o];
    Op *simple = simple_reducer(op);
    if (simple) {
      ElemType et = op->res[0].type->elem;
      ElemType ts[2] = {et, et};
      LLVMValueRef args[2] = {acc[f], x[f]};
      if (simple->opnds[0] == op->regions[0]->args[1]) {
        args[0] = x[f];
        args[1] = acc[f];
      }
      acc[f] = emit_scalar_op(cg, simple, ts, args, et);
    } else {
      LLVMValueRef out[16];
      reduce_body_apply(cg, &bodies[o], acc + f, x + f, out);
      for (int j = 0; j < op->nres; j++) acc[f + j] = out[j];
    }
  }
}

static void bodies_init(Cg *cg, LLVMValueRef fn, const Slots *s, ReduceBody *bodies) {
  for (int o = 0; o < s->nops; o++) {
    memset(&bodies[o], 0, sizeof bodies[o]);
    if (!simple_reducer(s->op[o])) reduce_body_init(cg, fn, s->op[o], &bodies[o]);
  }
}

static void bodies_free(const Slots *s, ReduceBody *bodies) {
  for (int o = 0; o < s->nops; o++) reduce_body_release(&bodies[o]);
}

static bool all_simple(const KernelSpec *k) {
  for (int r = 0; r < k->nroots; r++)
    if (!simple_reducer(k->reduces[r])) return false;
  return true;
}

/* ---- the shape of a reduction ---- */

enum { RED_SEQ, RED_ROW, RED_COL };

/* Producer values per buffered step, and the target block size of row
   reductions (both in elements). */
enum { STEP = 256, BLOCK_TARGET = 16384, MAX_SCRATCH = 64 * 1024 };

typedef struct Shape {
  const Type *in;
  bool red[CG_MAX_RANK];
  int64_t nout, nred;
  bool flat; /* producers are elementwise on the input shape: index it linearly */
  int kind;
  /* row: each output reduces R rows of D contiguous elements; `last` is the
     dim along D (when not flat) */
  int64_t D, R;
  int last;
  /* column: outputs are [A][K], inputs [A][nred][K]; `last` is the one
     non-unit inner dim (when not flat) */
  int64_t A, K;
} Shape;

/* Element types the vector paths handle: whole-byte integers and floats
   (pred and 2/4-bit integers take the sequential path). */
static bool vector_type_ok(ElemType et) {
  switch (et) {
  case ET_S8: case ET_S16: case ET_S32: case ET_S64: case ET_U8: case ET_U16: case ET_U32: case ET_U64:
  case ET_F16: case ET_BF16: case ET_F32: case ET_F64:
    return true;
  default:
    return false;
  }
}

static Shape analyze(const KernelSpec *k) {
  Shape s;
  memset(&s, 0, sizeof s);
  const Op *r0 = k->reduces[0];
  s.in = r0->opnds[0]->type;
  int64_t *dims;
  int nd = op_attr_ints(r0, "dimensions", &dims);
  for (int i = 0; i < nd; i++) s.red[dims[i]] = true;
  s.nout = type_num_elements(r0->res[0].type);
  s.nred = 1;
  for (int d = 0; d < s.in->rank; d++)
    if (s.red[d]) s.nred *= s.in->dims[d];
  s.kind = RED_SEQ;
  if (s.nout == 0 || s.nred == 0) return s;
  for (int i = 0; i < k->nroots; i++)
    for (int j = 0; j < k->reduces[i]->nres; j++)
      if (!vector_type_ok(k->reduces[i]->res[j].type->elem)) return s;
  PtrMap seen = {0};
  s.flat = true;
  for (int i = 0; i < k->nroots && s.flat; i++)
    for (int j = 0; j < k->reduces[i]->nres && s.flat; j++)
      s.flat = elemental_flat(k->reduces[i]->opnds[j], s.in, k->inputs, k->ninputs, &seen);
  ptrmap_free(&seen);

  /* the non-unit dims in order: kept ones before (phase 0), reduced ones
     (phase 1), kept ones after (phase 2); anything else is sequential */
  int phase = 0, last_red = -1, last_kept = -1, nkept_after = 0;
  int64_t before = 1, after = 1;
  for (int d = 0; d < s.in->rank; d++) {
    int64_t n = s.in->dims[d];
    if (n == 1) continue;
    if (s.red[d]) {
      if (phase == 2) return s;
      phase = 1;
      last_red = d;
    } else if (phase == 0) {
      before *= n;
    } else {
      phase = 2;
      after *= n;
      last_kept = d;
      nkept_after++;
    }
  }
  if (phase == 0) return s; /* nothing non-trivial reduced */
  if (phase == 1) {
    s.kind = RED_ROW;
    s.last = last_red;
    s.D = s.flat ? s.nred : s.in->dims[last_red];
    s.R = s.nred / s.D;
    /* short rows gain nothing from vector accumulators; general bodies
       keep the interpreter's order */
    if (s.nred < 64 || s.D < 16 || !all_simple(k)) s.kind = RED_SEQ;
  } else {
    if (!s.flat && nkept_after > 1) return s;
    s.kind = RED_COL;
    s.A = before;
    s.K = after;
    s.last = last_kept;
  }
  return s;
}

/* ---- helpers ---- */

/* The pool, for kernels that start parallel work of their own: the entry
   function keeps its pool argument in a module global.  Executions of one
   executable may run at once (replicas), but all of them pass the
   executable's own pool, so they store the same value; the store and the
   loads are atomic (monotonic) so that this is not a data race. */
static LLVMValueRef pool_global(Lower *L) {
  Cg *cg = &L->cg;
  LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, "xlac.pool");
  if (g) return g;
  g = LLVMAddGlobal(cg->mod, cg->t_ptr, "xlac.pool");
  LLVMSetInitializer(g, LLVMConstPointerNull(cg->t_ptr));
  LLVMSetLinkage(g, LLVMInternalLinkage);
  LLVMBasicBlockRef cur = cg_enter_entry(cg, L->fn);
  LLVMValueRef st = LLVMBuildStore(cg->b, L->p_pool, g);
  LLVMSetOrdering(st, LLVMAtomicOrderingMonotonic);
  LLVMSetAlignment(st, 8);
  LLVMPositionBuilderAtEnd(cg->b, cur);
  return g;
}

static LLVMValueRef elem_ptr(Cg *cg, LLVMTypeRef t, LLVMValueRef base, LLVMValueRef i) {
  return LLVMBuildGEP2(cg->b, t, base, &i, 1, "");
}

static LLVMValueRef splat(LLVMValueRef s, unsigned n) {
  LLVMValueRef e[64];
  for (unsigned i = 0; i < n; i++) e[i] = s;
  return LLVMConstVector(e, n);
}

/* The combiner on two vectors (or scalars) of the compute type of et; f16
   and bf16 round after each combine, as the scalar ops do. */
static LLVMValueRef vcombine(Cg *cg, OpKind kind, ElemType et, LLVMValueRef a, LLVMValueRef b) {
  bool f = et_is_float(et), s = et_is_signed(et);
  LLVMValueRef r;
  switch (kind) {
  case OP_ADD: r = f ? LLVMBuildFAdd(cg->b, a, b, "") : LLVMBuildAdd(cg->b, a, b, ""); break;
  case OP_MULTIPLY: r = f ? LLVMBuildFMul(cg->b, a, b, "") : LLVMBuildMul(cg->b, a, b, ""); break;
  case OP_MAXIMUM:
  case OP_MINIMUM: {
    bool max = kind == OP_MAXIMUM;
    if (f) {
      LLVMValueRef args[2] = {a, b};
      r = cg_intrinsic(cg, max ? "llvm.maximum" : "llvm.minimum", LLVMTypeOf(a), args, 2);
    } else {
      LLVMIntPredicate p = s ? (max ? LLVMIntSGT : LLVMIntSLT) : (max ? LLVMIntUGT : LLVMIntULT);
      r = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, p, a, b, ""), a, b, "");
    }
    break;
  }
  case OP_AND: r = LLVMBuildAnd(cg->b, a, b, ""); break;
  case OP_OR: r = LLVMBuildOr(cg->b, a, b, ""); break;
  default: r = LLVMBuildXor(cg->b, a, b, ""); break;
  }
  if (et == ET_F16 || et == ET_BF16) {
    LLVMTypeRef t = LLVMTypeOf(r), st = cg_storage_type(cg, et);
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) st = LLVMVectorType(st, LLVMGetVectorSize(t));
    r = LLVMBuildFPExt(cg->b, cg_fptrunc(cg, r, st, ""), t, "");
  }
  return r;
}

/* The sequential combine of the reducer op itself: acc op x. */
static LLVMValueRef combine_scalar(Cg *cg, const Op *reduce, LLVMValueRef acc, LLVMValueRef x) {
  ElemType et = reduce->res[0].type->elem;
  ElemType ts[2] = {et, et};
  LLVMValueRef args[2] = {acc, x};
  return emit_scalar_op(cg, simple_reducer(reduce), ts, args, et);
}

static void delinearize_dims(Cg *cg, LLVMValueRef lin, const int64_t *dims, const int *which, int n,
                             LLVMValueRef *idx) {
  for (int j = n - 1; j >= 0; j--) {
    int d = which[j];
    if (dims[d] == 1) {
      idx[d] = cg_i64(cg, 0);
    } else if (j == 0) {
      idx[d] = lin;
    } else {
      LLVMValueRef dim = cg_i64(cg, dims[d]);
      idx[d] = LLVMBuildURem(cg->b, lin, dim, "");
      lin = LLVMBuildUDiv(cg->b, lin, dim, "");
    }
  }
}

/* The input dims that are kept (in output order) and reduced. */
static void split_dims(const Shape *s, int *kept, int *nk, int *reduced, int *nr) {
  *nk = *nr = 0;
  for (int d = 0; d < s->in->rank; d++) {
    if (s->red[d])
      reduced[(*nr)++] = d;
    else
      kept[(*nk)++] = d;
  }
}

/* Starts a kernel whose first inputs are read by the elemental generator:
   their pointers come from the kernel's pointer array, or are given (a
   reduction inside a row fusion reads some inputs from scratch). */
static void io_init_from(Cg *cg, KernelIO *io, const KernelSpec *k, LLVMValueRef ptrs, LLVMValueRef *given) {
  memset(io, 0, sizeof *io);
  io->ninputs = k->ninputs;
  io->inputs = k->inputs;
  io->input_ptrs = xcalloc((size_t)(k->ninputs + 1), sizeof(LLVMValueRef));
  for (int i = 0; i < k->ninputs; i++) io->input_ptrs[i] = given ? given[i] : kernel_load_ptr(cg, ptrs, i);
}

static void io_init(Cg *cg, KernelIO *io, const KernelSpec *k, LLVMValueRef ptrs) {
  io_init_from(cg, io, k, ptrs, NULL);
}

static void io_done(KernelIO *io) {
  kernel_io_free(io);
  xfree(io->input_ptrs);
}

/* ---- the sequential kernel: the interpreter's order ---- */

/* Accumulates output `lin` (its row-major index in the result) from the
   init values over the reduced dims in row-major order, exactly as the
   interpreter does; leaves each slot's value in accp[slot] (allocas of
   type ct[slot], created here). */
static void seq_output(Cg *cg, LLVMValueRef fn, KernelIO *io, const KernelSpec *k, const Shape *s,
                       const Slots *sl, ReduceBody *bodies, LLVMValueRef lin, LLVMValueRef *accp, LLVMTypeRef *ct) {
  const Type *in = s->in, *out = k->reduces[0]->res[0].type;
  LLVMValueRef oidx[CG_MAX_RANK], full[CG_MAX_RANK];
  for (int d = out->rank - 1; d >= 0; d--) {
    LLVMValueRef dim = cg_i64(cg, out->dims[d]);
    oidx[d] = d == 0 ? lin : LLVMBuildURem(cg->b, lin, dim, "");
    if (d) lin = LLVMBuildUDiv(cg->b, lin, dim, "");
  }
  kernel_io_reset_memo(io);
  LLVMValueRef acc[MAX_SLOTS], x[MAX_SLOTS];
  for (int i = 0; i < sl->n; i++) {
    const Op *op = sl->sop[i];
    LLVMValueRef v = emit_elemental(cg, io, op->opnds[op->nres + sl->sres[i]], NULL);
    ct[i] = LLVMTypeOf(v);
    /* accumulators live in allocas; mem2reg turns them into registers */
    accp[i] = cg_entry_alloca(cg, fn, ct[i], "acc");
    LLVMBuildStore(cg->b, v, accp[i]);
  }
  Loop loops[CG_MAX_RANK];
  int nl = 0;
  for (int d = 0, j = 0; d < in->rank; d++) {
    if (s->red[d]) {
      loops[nl] = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, in->dims[d]), "red");
      full[d] = loops[nl].iv;
      nl++;
    } else {
      full[d] = oidx[j++];
    }
  }
  kernel_io_reset_memo(io);
  for (int i = 0; i < sl->n; i++) {
    x[i] = emit_elemental(cg, io, sl->sop[i]->opnds[sl->sres[i]], full);
    acc[i] = LLVMBuildLoad2(cg->b, ct[i], accp[i], "");
  }
  combine_all(cg, sl, bodies, acc, x);
  for (int i = 0; i < sl->n; i++) LLVMBuildStore(cg->b, acc[i], accp[i]);
  for (int i = nl - 1; i >= 0; i--) loop_end(cg, &loops[i]);
}

static LLVMValueRef emit_sequential(Lower *L, const KernelSpec *k, const Shape *s, int64_t *nchunks) {
  Cg *cg = &L->cg;
  int64_t nout = s->nout, nred = s->nred;
  int64_t ch = nred >= CHUNK_ELEMS ? 1 : CHUNK_ELEMS / (nred ? nred : 1);
  *nchunks = nout > 0 ? (nout + ch - 1) / ch : 0;
  Slots sl;
  slots_of(k, &sl);

  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  KernelIO io;
  io_init(cg, &io, k, ptrs);
  ReduceBody bodies[MAX_SLOTS];
  bodies_init(cg, fn, &sl, bodies);
  LLVMValueRef outs[64];
  for (int r = 0; r < k->nroots; r++) outs[r] = kernel_load_ptr(cg, ptrs, k->ninputs + r);

  LLVMValueRef lo = LLVMBuildMul(cg->b, chunk, cg_i64(cg, ch), "");
  LLVMValueRef hi = cg_min64(cg, LLVMBuildAdd(cg->b, lo, cg_i64(cg, ch), ""), cg_i64(cg, nout));
  Loop lo_loop = loop_begin(cg, lo, hi, "out");
  LLVMValueRef accp[MAX_SLOTS];
  LLVMTypeRef ct[MAX_SLOTS];
  seq_output(cg, fn, &io, k, s, &sl, bodies, lo_loop.iv, accp, ct);
  for (int r = 0; r < k->nroots; r++) {
    int i = sl.root[r];
    LLVMValueRef v = LLVMBuildLoad2(cg->b, ct[i], accp[i], "");
    cg_store(cg, slot_et(&sl, i), outs[r], lo_loop.iv, v);
  }
  loop_end(cg, &lo_loop);
  LLVMBuildRetVoid(cg->b);
  bodies_free(&sl, bodies);
  io_done(&io);
  return fn;
}

/* ---- row reductions: blocks with vector accumulators ---- */

typedef struct RowGen {
  Cg *cg;
  const KernelSpec *k;
  const Shape *s;
  KernelIO io;
  int kept[CG_MAX_RANK], nk, redo[CG_MAX_RANK], nro; /* redo: reduced dims but `last` */
  LLVMValueRef buf[64];    /* per root: [STEP x compute type] */
  LLVMValueRef acc[64][4]; /* per root: vector accumulators (allocas) */
  LLVMTypeRef vt[64];
  unsigned vw[64];
  int na[64];
  LLVMValueRef init[64];
} RowGen;

static void row_gen_init(RowGen *g, Lower *L, const KernelSpec *k, const Shape *s, LLVMValueRef fn,
                         LLVMValueRef ptrs, LLVMValueRef *given) {
  Cg *cg = &L->cg;
  memset(g, 0, sizeof *g);
  g->cg = cg;
  g->k = k;
  g->s = s;
  io_init_from(cg, &g->io, k, ptrs, given);
  int reduced[CG_MAX_RANK], nr;
  split_dims(s, g->kept, &g->nk, reduced, &nr);
  for (int i = 0; i < nr; i++)
    if (reduced[i] != s->last) g->redo[g->nro++] = reduced[i];
  int na = k->nroots <= 2 ? 4 : k->nroots <= 4 ? 2 : 1;
  for (int r = 0; r < k->nroots; r++) {
    ElemType et = k->reduces[r]->res[0].type->elem;
    LLVMTypeRef ct = cg_compute_type(cg, et);
    int bytes = et == ET_F16 || et == ET_BF16 ? 4 : et_bytes(et);
    g->vw[r] = (unsigned)(64 / bytes);
    g->na[r] = na;
    g->vt[r] = LLVMVectorType(ct, g->vw[r]);
    g->buf[r] = cg_entry_alloca(cg, fn, LLVMArrayType(ct, STEP), "buf");
    for (int a = 0; a < na; a++) g->acc[r][a] = cg_entry_alloca(cg, fn, g->vt[r], "vacc");
  }
  kernel_io_reset_memo(&g->io);
  for (int r = 0; r < k->nroots; r++) g->init[r] = emit_elemental(cg, &g->io, k->reduces[r]->opnds[1], NULL);
}

static OpKind comb_kind(const Op *reduce) { return simple_reducer(reduce)->kind; }
static ElemType root_et(const RowGen *g, int r) { return g->k->reduces[r]->res[0].type->elem; }

static void row_reset(RowGen *g) {
  for (int r = 0; r < g->k->nroots; r++) {
    LLVMValueRef id = splat(reduce_identity(g->cg, comb_kind(g->k->reduces[r]), root_et(g, r)), g->vw[r]);
    for (int a = 0; a < g->na[r]; a++) LLVMBuildStore(g->cg->b, id, g->acc[r][a]);
  }
}

/* buf[r][i] = producer of root r at position cb + i along the row, for i in
   [0, n); idx holds the fixed part of the index, pos the varying dim. */
static void row_fill(RowGen *g, LLVMValueRef *idx, int pos, LLVMValueRef cb, LLVMValueRef n) {
  Cg *cg = g->cg;
  LLVMValueRef full[CG_MAX_RANK];
  memcpy(full, idx, sizeof(LLVMValueRef) * (size_t)g->s->in->rank);
  Loop l = loop_begin(cg, cg_i64(cg, 0), n, "fill");
  full[pos] = LLVMBuildNSWAdd(cg->b, idx[pos], LLVMBuildNSWAdd(cg->b, cb, l.iv, ""), "");
  kernel_io_reset_memo(&g->io);
  for (int r = 0; r < g->k->nroots; r++) {
    LLVMValueRef x = emit_elemental(cg, &g->io, g->k->reduces[r]->opnds[0], full);
    LLVMBuildStore(cg->b, x, elem_ptr(cg, LLVMGetElementType(g->vt[r]), g->buf[r], l.iv));
  }
  loop_end(cg, &l);
}

/* buf[r][i] = identity for i in [n, end) */
static void row_fill_identity(RowGen *g, LLVMValueRef n, int64_t end) {
  Cg *cg = g->cg;
  Loop l = loop_begin(cg, n, cg_i64(cg, end), "pad");
  for (int r = 0; r < g->k->nroots; r++) {
    LLVMValueRef id = reduce_identity(cg, comb_kind(g->k->reduces[r]), root_et(g, r));
    LLVMBuildStore(cg->b, id, elem_ptr(cg, LLVMGetElementType(g->vt[r]), g->buf[r], l.iv));
  }
  loop_end(cg, &l);
}

/* Folds the first `used` elements of the buffers into the accumulators:
   vector j goes to accumulator j mod na, a fixed order.  A vector left
   out holds only the combiner's identity, whose combine changes nothing:
   x + -0, x * 1, maximum(x, -inf), ... are x, NaN included, and the
   accumulators hold no subnormals to flush (they are results of the
   combine, flushed when flushing is on). */
static void row_fold(RowGen *g, int64_t used) {
  Cg *cg = g->cg;
  for (int r = 0; r < g->k->nroots; r++) {
    OpKind kind = comb_kind(g->k->reduces[r]);
    ElemType et = root_et(g, r);
    LLVMValueRef a[4];
    for (int j = 0; j < g->na[r]; j++) a[j] = LLVMBuildLoad2(cg->b, g->vt[r], g->acc[r][j], "");
    unsigned nv = (unsigned)((used + g->vw[r] - 1) / g->vw[r]);
    for (unsigned v = 0; v < nv; v++) {
      LLVMValueRef p = elem_ptr(cg, LLVMGetElementType(g->vt[r]), g->buf[r], cg_i64(cg, (int64_t)(v * g->vw[r])));
      LLVMValueRef x = LLVMBuildLoad2(cg->b, g->vt[r], p, "");
      LLVMSetAlignment(x, 64);
      int j = (int)(v % (unsigned)g->na[r]);
      a[j] = vcombine(cg, kind, et, a[j], x);
    }
    for (int j = 0; j < g->na[r]; j++) LLVMBuildStore(cg->b, a[j], g->acc[r][j]);
  }
}

/* The accumulators of root r combined in a fixed tree: accumulators
   pairwise, then the lanes by halves. */
static LLVMValueRef row_total(RowGen *g, int r) {
  Cg *cg = g->cg;
  OpKind kind = comb_kind(g->k->reduces[r]);
  ElemType et = root_et(g, r);
  LLVMValueRef a[4];
  int n = g->na[r];
  for (int j = 0; j < n; j++) a[j] = LLVMBuildLoad2(cg->b, g->vt[r], g->acc[r][j], "");
  for (; n > 1; n /= 2)
    for (int j = 0; j < n / 2; j++) a[j] = vcombine(cg, kind, et, a[2 * j], a[2 * j + 1]);
  LLVMValueRef v = a[0];
  for (unsigned w = g->vw[r]; w > 1; w /= 2) {
    LLVMValueRef lo[32], hi[32];
    for (unsigned i = 0; i < w / 2; i++) {
      lo[i] = LLVMConstInt(cg->t_i32, i, 0);
      hi[i] = LLVMConstInt(cg->t_i32, i + w / 2, 0);
    }
    LLVMValueRef undef = LLVMGetUndef(LLVMTypeOf(v));
    LLVMValueRef vl = LLVMBuildShuffleVector(cg->b, v, undef, LLVMConstVector(lo, w / 2), "");
    LLVMValueRef vh = LLVMBuildShuffleVector(cg->b, v, undef, LLVMConstVector(hi, w / 2), "");
    v = vcombine(cg, kind, et, vl, vh);
  }
  return LLVMBuildExtractElement(cg->b, v, LLVMConstInt(cg->t_i32, 0, 0), "");
}

/* One block: output o, rows [r0, r1) of it, columns [c0, c1) of each row.
   Leaves each root's block total in res[r]. */
static void row_block(RowGen *g, LLVMValueRef o, LLVMValueRef r0, LLVMValueRef r1, LLVMValueRef c0,
                      LLVMValueRef c1, LLVMValueRef *res) {
  Cg *cg = g->cg;
  const Shape *s = g->s;
  int rank = s->in->rank;
  LLVMValueRef idx[CG_MAX_RANK];
  int pos;
  row_reset(g);
  if (s->flat) {
    for (int d = 0; d < rank; d++) idx[d] = cg_i64(cg, 0);
    pos = rank - 1;
    idx[pos] = LLVMBuildNSWMul(cg->b, o, cg_i64(cg, s->nred), "");
  } else {
    delinearize_dims(cg, o, s->in->dims, g->kept, g->nk, idx);
    pos = s->last;
    idx[pos] = cg_i64(cg, 0);
  }
  Loop rows = loop_begin(cg, r0, r1, "row");
  if (!s->flat) delinearize_dims(cg, rows.iv, s->in->dims, g->redo, g->nro, idx);
  LLVMValueRef len = LLVMBuildNSWSub(cg->b, c1, c0, "");
  LLVMValueRef nfull = LLVMBuildUDiv(cg->b, len, cg_i64(cg, STEP), "");
  Loop steps = loop_begin(cg, cg_i64(cg, 0), nfull, "step");
  LLVMValueRef cb = LLVMBuildNSWAdd(cg->b, c0, LLVMBuildNSWMul(cg->b, steps.iv, cg_i64(cg, STEP), ""), "");
  row_fill(g, idx, pos, cb, cg_i64(cg, STEP));
  row_fold(g, STEP);
  loop_end(cg, &steps);
  /* the last partial step, padded with the identity; where its length is
     known (a row fusion's rows, an output in one block), only up to the
     last vector it reaches (of the roots' widest vectors: 64 lanes of a
     byte type), the rest of the step being identities a fold would only
     combine away */
  LLVMValueRef done = LLVMBuildNSWMul(cg->b, nfull, cg_i64(cg, STEP), "");
  LLVMValueRef tail = LLVMBuildNSWSub(cg->b, len, done, "");
  int64_t used = STEP, widest = 1;
  for (int r = 0; r < g->k->nroots; r++)
    if (g->vw[r] > widest) widest = g->vw[r];
  if (LLVMIsAConstantInt(tail)) used = (LLVMConstIntGetSExtValue(tail) + widest - 1) / widest * widest;
  if (used <= 0 || used > STEP) used = STEP;
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(cg->b));
  LLVMBasicBlockRef tb = LLVMAppendBasicBlockInContext(cg->ctx, fn, "tail");
  LLVMBasicBlockRef nb = LLVMAppendBasicBlockInContext(cg->ctx, fn, "next");
  LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGT, tail, cg_i64(cg, 0), ""), tb, nb);
  LLVMPositionBuilderAtEnd(cg->b, tb);
  row_fill(g, idx, pos, LLVMBuildNSWAdd(cg->b, c0, done, ""), tail);
  row_fill_identity(g, tail, used);
  row_fold(g, used);
  LLVMBuildBr(cg->b, nb);
  LLVMPositionBuilderAtEnd(cg->b, nb);
  loop_end(cg, &rows);
  for (int r = 0; r < g->k->nroots; r++) res[r] = row_total(g, r);
}

/* How a row reduction is cut into blocks: each output is R rows of D; a
   block is G whole rows, or (when rows are long) a piece of Lp columns of
   one row, P pieces per row.  Depends only on the problem size. */
typedef struct RowPlan {
  int64_t P, Lp, G, nb, nparts;
} RowPlan;

static RowPlan row_plan(const Shape *s, int nroots) {
  RowPlan p;
  for (int64_t blk = BLOCK_TARGET;; blk *= 2) {
    if (s->D >= blk) {
      p.P = (s->D + blk - 1) / blk;
      p.Lp = ((s->D + p.P - 1) / p.P + STEP - 1) / STEP * STEP;
      p.P = (s->D + p.Lp - 1) / p.Lp;
      p.G = 1;
      p.nb = s->R * p.P;
    } else {
      p.P = 1;
      p.Lp = s->D;
      p.G = blk / s->D;
      p.nb = (s->R + p.G - 1) / p.G;
    }
    p.nparts = s->nout * p.nb;
    if (p.nb == 1 || p.nparts * 8 * nroots <= MAX_SCRATCH) return p;
  }
}

static LLVMValueRef emit_row(Lower *L, const KernelSpec *k, const Shape *s, int64_t *nchunks) {
  Cg *cg = &L->cg;
  RowPlan p = row_plan(s, k->nroots);
  int nbufs = k->ninputs + k->nroots;
  LLVMValueRef chunk, ptrs, res[64];
  RowGen g;
  if (p.nb == 1) {
    /* every output is one block: chunks of whole outputs, no partials */
    int64_t ch = s->nred >= CHUNK_ELEMS ? 1 : CHUNK_ELEMS / s->nred;
    *nchunks = (s->nout + ch - 1) / ch;
    LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
    row_gen_init(&g, L, k, s, fn, ptrs, NULL);
    LLVMValueRef outs[64];
    for (int r = 0; r < k->nroots; r++) outs[r] = kernel_load_ptr(cg, ptrs, k->ninputs + r);
    LLVMValueRef lo = LLVMBuildMul(cg->b, chunk, cg_i64(cg, ch), "");
    LLVMValueRef hi = cg_min64(cg, LLVMBuildAdd(cg->b, lo, cg_i64(cg, ch), ""), cg_i64(cg, s->nout));
    Loop ol = loop_begin(cg, lo, hi, "out");
    row_block(&g, ol.iv, cg_i64(cg, 0), cg_i64(cg, s->R), cg_i64(cg, 0), cg_i64(cg, s->D), res);
    for (int r = 0; r < k->nroots; r++)
      cg_store(cg, root_et(&g, r), outs[r], ol.iv, combine_scalar(cg, k->reduces[r], g.init[r], res[r]));
    loop_end(cg, &ol);
    LLVMBuildRetVoid(cg->b);
    io_done(&g.io);
    return fn;
  }

  /* blocks on the pool; chunk = o * nb + b; partials in 8-byte slots of a
     scratch array the driver below keeps on its stack */
  LLVMValueRef bfn = kernel_new(L, &chunk, &ptrs);
  row_gen_init(&g, L, k, s, bfn, ptrs, NULL);
  LLVMValueRef scratch = kernel_load_ptr(cg, ptrs, nbufs);
  LLVMValueRef o = LLVMBuildUDiv(cg->b, chunk, cg_i64(cg, p.nb), "");
  LLVMValueRef b = LLVMBuildURem(cg->b, chunk, cg_i64(cg, p.nb), "");
  LLVMValueRef pr = LLVMBuildUDiv(cg->b, b, cg_i64(cg, p.P), "");
  LLVMValueRef pc = LLVMBuildURem(cg->b, b, cg_i64(cg, p.P), "");
  LLVMValueRef r0 = LLVMBuildNSWMul(cg->b, pr, cg_i64(cg, p.G), "");
  LLVMValueRef r1 = cg_min64(cg, LLVMBuildNSWAdd(cg->b, r0, cg_i64(cg, p.G), ""), cg_i64(cg, s->R));
  LLVMValueRef c0 = LLVMBuildNSWMul(cg->b, pc, cg_i64(cg, p.Lp), "");
  LLVMValueRef c1 = cg_min64(cg, LLVMBuildNSWAdd(cg->b, c0, cg_i64(cg, p.Lp), ""), cg_i64(cg, s->D));
  row_block(&g, o, r0, r1, c0, c1, res);
  for (int r = 0; r < k->nroots; r++) {
    LLVMValueRef slot = LLVMBuildNSWAdd(cg->b, cg_i64(cg, r * p.nparts), chunk, "");
    LLVMBuildStore(cg->b, res[r], elem_ptr(cg, cg->t_i64, scratch, slot));
  }
  LLVMBuildRetVoid(cg->b);
  io_done(&g.io);

  /* the driver: runs the blocks, then combines each output's partials in
     block order after its init value */
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  *nchunks = 1;
  LLVMValueRef ctx = cg_entry_alloca(cg, fn, LLVMArrayType(cg->t_ptr, (unsigned)nbufs + 1), "ctx");
  LLVMValueRef sc = cg_entry_alloca(cg, fn, LLVMArrayType(cg->t_i64, (unsigned)(p.nparts * k->nroots)), "partials");
  for (int i = 0; i < nbufs; i++)
    LLVMBuildStore(cg->b, kernel_load_ptr(cg, ptrs, i), elem_ptr(cg, cg->t_ptr, ctx, cg_i64(cg, i)));
  LLVMBuildStore(cg->b, sc, elem_ptr(cg, cg->t_ptr, ctx, cg_i64(cg, nbufs)));
  LLVMValueRef pool = LLVMBuildLoad2(cg->b, cg->t_ptr, pool_global(L), "");
  LLVMSetOrdering(pool, LLVMAtomicOrderingMonotonic);
  LLVMSetAlignment(pool, 8);
  LLVMValueRef args[4] = {pool, cg_i64(cg, p.nparts), bfn, ctx};
  LLVMBuildCall2(cg->b, cg->ty_parallel_for, cg->fn_parallel_for, args, 4, "");
  KernelIO io;
  io_init(cg, &io, k, ptrs);
  kernel_io_reset_memo(&io);
  LLVMValueRef init[64], accp[64];
  for (int r = 0; r < k->nroots; r++) {
    init[r] = emit_elemental(cg, &io, k->reduces[r]->opnds[1], NULL);
    accp[r] = cg_entry_alloca(cg, fn, LLVMTypeOf(init[r]), "acc");
  }
  Loop ol = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, s->nout), "out");
  for (int r = 0; r < k->nroots; r++) LLVMBuildStore(cg->b, init[r], accp[r]);
  Loop bl = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, p.nb), "part");
  LLVMValueRef slot0 = LLVMBuildNSWAdd(cg->b, LLVMBuildNSWMul(cg->b, ol.iv, cg_i64(cg, p.nb), ""), bl.iv, "");
  for (int r = 0; r < k->nroots; r++) {
    LLVMTypeRef ct = LLVMTypeOf(init[r]);
    LLVMValueRef slot = LLVMBuildNSWAdd(cg->b, cg_i64(cg, r * p.nparts), slot0, "");
    LLVMValueRef part = LLVMBuildLoad2(cg->b, ct, elem_ptr(cg, cg->t_i64, sc, slot), "");
    LLVMValueRef acc = LLVMBuildLoad2(cg->b, ct, accp[r], "");
    LLVMBuildStore(cg->b, combine_scalar(cg, k->reduces[r], acc, part), accp[r]);
  }
  loop_end(cg, &bl);
  for (int r = 0; r < k->nroots; r++) {
    LLVMValueRef outp = kernel_load_ptr(cg, ptrs, k->ninputs + r);
    LLVMValueRef acc = LLVMBuildLoad2(cg->b, LLVMTypeOf(init[r]), accp[r], "");
    cg_store(cg, k->reduces[r]->res[0].type->elem, outp, ol.iv, acc);
  }
  loop_end(cg, &ol);
  LLVMBuildRetVoid(cg->b);
  io_done(&io);
  return fn;
}

/* ---- column reductions: a tile of outputs accumulates row by row ---- */

static LLVMValueRef emit_col(Lower *L, const KernelSpec *k, const Shape *s, int64_t *nchunks) {
  Cg *cg = &L->cg;
  Slots sl;
  slots_of(k, &sl);
  int nslots = sl.n, rank = s->in->rank;
  int64_t T = nslots <= 1 ? 1024 : nslots <= 4 ? 256 : 64;
  /* Tiles stay wide even when that leaves the pool idle: rows read as
     4 KiB runs stream well, and measured here narrower tiles (more chunks)
     were slower on 2 threads than one wide tile on 1. */
  if (s->K < T) T = s->K;
  int64_t nt = (s->K + T - 1) / T, pairs = s->A * nt;
  int64_t work = s->nred * T;
  int64_t grp = work >= CHUNK_ELEMS ? 1 : CHUNK_ELEMS / work;
  *nchunks = (pairs + grp - 1) / grp;

  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  KernelIO io;
  io_init(cg, &io, k, ptrs);
  ReduceBody bodies[MAX_SLOTS];
  bodies_init(cg, fn, &sl, bodies);
  LLVMValueRef outs[64], init[MAX_SLOTS], accb[MAX_SLOTS], acc[MAX_SLOTS], x[MAX_SLOTS], ap[MAX_SLOTS];
  LLVMTypeRef ct[MAX_SLOTS];
  kernel_io_reset_memo(&io);
  for (int r = 0; r < k->nroots; r++) outs[r] = kernel_load_ptr(cg, ptrs, k->ninputs + r);
  for (int i = 0; i < nslots; i++) {
    const Op *op = sl.sop[i];
    init[i] = emit_elemental(cg, &io, op->opnds[op->nres + sl.sres[i]], NULL);
    ct[i] = LLVMTypeOf(init[i]);
    accb[i] = cg_entry_alloca(cg, fn, LLVMArrayType(ct[i], (unsigned)T), "cacc");
  }
  int kept[CG_MAX_RANK], nk, reduced[CG_MAX_RANK], nr, outer[CG_MAX_RANK], no = 0;
  split_dims(s, kept, &nk, reduced, &nr);
  for (int i = 0; i < nk; i++)
    if (kept[i] != s->last) outer[no++] = kept[i];

  LLVMValueRef lo = LLVMBuildMul(cg->b, chunk, cg_i64(cg, grp), "");
  LLVMValueRef hi = cg_min64(cg, LLVMBuildAdd(cg->b, lo, cg_i64(cg, grp), ""), cg_i64(cg, pairs));
  Loop pl = loop_begin(cg, lo, hi, "tile");
  LLVMValueRef a = LLVMBuildUDiv(cg->b, pl.iv, cg_i64(cg, nt), "");
  LLVMValueRef k0 = LLVMBuildNSWMul(cg->b, LLVMBuildURem(cg->b, pl.iv, cg_i64(cg, nt), ""), cg_i64(cg, T), "");
  LLVMValueRef n = cg_min64(cg, cg_i64(cg, T), LLVMBuildNSWSub(cg->b, cg_i64(cg, s->K), k0, ""));
  LLVMValueRef obase = LLVMBuildNSWAdd(cg->b, LLVMBuildNSWMul(cg->b, a, cg_i64(cg, s->K), ""), k0, "");
  LLVMValueRef idx[CG_MAX_RANK];
  if (!s->flat) delinearize_dims(cg, a, s->in->dims, outer, no, idx);

  Loop il = loop_begin(cg, cg_i64(cg, 0), n, "init");
  for (int i = 0; i < nslots; i++) LLVMBuildStore(cg->b, init[i], elem_ptr(cg, ct[i], accb[i], il.iv));
  loop_end(cg, &il);

  Loop rl = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, s->nred), "red");
  LLVMValueRef base = NULL;
  if (s->flat) {
    LLVMValueRef ar = LLVMBuildNSWAdd(cg->b, LLVMBuildNSWMul(cg->b, a, cg_i64(cg, s->nred), ""), rl.iv, "");
    base = LLVMBuildNSWAdd(cg->b, LLVMBuildNSWMul(cg->b, ar, cg_i64(cg, s->K), ""), k0, "");
  } else {
    delinearize_dims(cg, rl.iv, s->in->dims, reduced, nr, idx);
  }
  Loop cl = loop_begin(cg, cg_i64(cg, 0), n, "col");
  if (s->flat) {
    for (int d = 0; d < rank; d++) idx[d] = cg_i64(cg, 0);
    idx[rank - 1] = LLVMBuildNSWAdd(cg->b, base, cl.iv, "");
  } else {
    idx[s->last] = LLVMBuildNSWAdd(cg->b, k0, cl.iv, "");
  }
  kernel_io_reset_memo(&io);
  for (int i = 0; i < nslots; i++) {
    x[i] = emit_elemental(cg, &io, sl.sop[i]->opnds[sl.sres[i]], idx);
    ap[i] = elem_ptr(cg, ct[i], accb[i], cl.iv);
    acc[i] = LLVMBuildLoad2(cg->b, ct[i], ap[i], "");
  }
  combine_all(cg, &sl, bodies, acc, x);
  for (int i = 0; i < nslots; i++) LLVMBuildStore(cg->b, acc[i], ap[i]);
  loop_end(cg, &cl);
  loop_end(cg, &rl);

  Loop stl = loop_begin(cg, cg_i64(cg, 0), n, "store");
  for (int r = 0; r < k->nroots; r++) {
    int i = sl.root[r];
    LLVMValueRef v = LLVMBuildLoad2(cg->b, ct[i], elem_ptr(cg, ct[i], accb[i], stl.iv), "");
    cg_store(cg, slot_et(&sl, i), outs[r], LLVMBuildNSWAdd(cg->b, obase, stl.iv, ""), v);
  }
  loop_end(cg, &stl);
  loop_end(cg, &pl);
  LLVMBuildRetVoid(cg->b);
  bodies_free(&sl, bodies);
  io_done(&io);
  return fn;
}

static int reduce_mode(const KernelSpec *k, Shape *s) {
  *s = analyze(k);
  if (getenv("XLAC_REDUCE_SEQUENTIAL")) s->kind = RED_SEQ;
  return s->kind;
}

LLVMValueRef emit_reduce_kernel(Lower *L, const KernelSpec *k, int64_t *nchunks) {
  Shape s;
  switch (reduce_mode(k, &s)) {
  case RED_ROW: return emit_row(L, k, &s, nchunks);
  case RED_COL: return emit_col(L, k, &s, nchunks);
  default: return emit_sequential(L, k, &s, nchunks);
  }
}

/* ---- one output at a time, inside another kernel ----
 * A row fusion (kernel_row.c) runs the stages of a row one after another;
 * a reduction stage computes the outputs of one row with exactly the
 * blocking and combining order its own kernel would use (emit_row with
 * one block per output, or the sequential order), so fusing it changes no
 * bits of the result. */

struct RowReduce {
  Lower *L;
  const KernelSpec *k;
  Shape s;
  LLVMValueRef fn;
  LLVMValueRef *given;
};


bool row_reduce_ok(const KernelSpec *k) {
  if (!reduce_kernel_ok(k)) return false;
  Shape s;
  switch (reduce_mode(k, &s)) {
  case RED_SEQ: return s.nout > 0;
  case RED_ROW: return row_plan(&s, k->nroots).nb == 1;
  default: return false;
  }
}

RowReduce *row_reduce_new(Lower *L, const KernelSpec *k, LLVMValueRef fn, LLVMValueRef *input_ptrs) {
  RowReduce *rr = xcalloc(1, sizeof *rr);
  rr->L = L;
  rr->k = k;
  rr->fn = fn;
  reduce_mode(k, &rr->s);
  rr->given = xcalloc((size_t)(k->ninputs + 1), sizeof(LLVMValueRef));
  memcpy(rr->given, input_ptrs, sizeof(LLVMValueRef) * (size_t)k->ninputs);
  return rr;
}

void row_reduce_emit(RowReduce *rr, LLVMValueRef o, LLVMValueRef *res) {
  Cg *cg = &rr->L->cg;
  const KernelSpec *k = rr->k;
  if (rr->s.kind == RED_ROW) {
    RowGen g;
    LLVMValueRef part[64];
    row_gen_init(&g, rr->L, k, &rr->s, rr->fn, NULL, rr->given);
    row_block(&g, o, cg_i64(cg, 0), cg_i64(cg, rr->s.R), cg_i64(cg, 0), cg_i64(cg, rr->s.D), part);
    for (int r = 0; r < k->nroots; r++) res[r] = combine_scalar(cg, k->reduces[r], g.init[r], part[r]);
    io_done(&g.io);
    return;
  }
  Slots sl;
  slots_of(k, &sl);
  KernelIO io;
  io_init_from(cg, &io, k, NULL, rr->given);
  ReduceBody bodies[MAX_SLOTS];
  bodies_init(cg, rr->fn, &sl, bodies);
  LLVMValueRef accp[MAX_SLOTS];
  LLVMTypeRef ct[MAX_SLOTS];
  seq_output(cg, rr->fn, &io, k, &rr->s, &sl, bodies, o, accp, ct);
  for (int r = 0; r < k->nroots; r++) {
    int i = sl.root[r];
    res[r] = LLVMBuildLoad2(cg->b, ct[i], accp[i], "");
  }
  bodies_free(&sl, bodies);
  io_done(&io);
}

void row_reduce_free(RowReduce *rr) {
  if (!rr) return;
  xfree(rr->given);
  xfree(rr);
}
