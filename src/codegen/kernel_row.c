/*
 * kernel_row.c - row fusions: softmax, layernorm and their relatives in one
 * kernel that reads each row from memory once.
 *
 * The fusion pass (passes/fusion.c) outlines such a pattern as a kInput
 * fusion whose body calls its stages in dependency order: reduction
 * fusions over the same rows, and loop fusions (or single ops) whose
 * values are whole rows or one value per row.  Run separately, every stage
 * would stream the rows through memory again.  Here the kernel takes a
 * chunk of whole rows and, for each row, runs every stage: a reduction
 * stage folds the row with the blocking and combining order its own kernel
 * uses (kernel_reduce.c), so results are bit for bit those of the unfused
 * kernels; a loop stage computes its values over the row with the
 * elemental generator, one loop the vectorizer widens.  A stage result
 * another stage reads is kept in a row buffer (or a one-value slot) on the
 * stack, stored in its element type exactly as memory would hold it, and
 * read back from there: the row stays in L1 between stages, and no
 * expensive value is computed twice.  Results the fusion returns go to
 * their buffers directly (later stages read them there).
 *
 * Every value a stage reads from another stage is read at the row being
 * computed; the pass only forms such fusions and this file checks the same
 * rule (row_fusion_op_ok), since a fusion may also come from a file.
 * Chunks hold whole rows and depend only on the row length.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/lower.h"
#include "passes/passes.h"

enum { MAX_STAGES = 64, MAX_ROW_BUF_BYTES = 64 * 1024 };

typedef struct Stage {
  Op *item;         /* the op in the fusion's body: a fusion call or a single op */
  KernelSpec k;     /* inputs: the callee's parameters (or the op's operands); roots */
  Op **reduces;     /* reduction stages: the reduce of each root */
  Value **outer;    /* the body value each input reads */
  bool reduce;
} Stage;

/* Where a stage result lives while the kernel runs. */
typedef struct Slot {
  Value *v;
  int out;          /* first result index returning it, or -1 */
  bool rows;        /* whole rows (else one value per row) */
  LLVMValueRef buf; /* row buffer or one-value slot, when not returned */
  LLVMValueRef base;/* pointer such that base[linear index] is the element, per row */
} Slot;

typedef struct RowFusion {
  Module *m;
  Func *f;
  int64_t nrows, D;
  int nstages;
  Stage st[MAX_STAGES];
  int nslots;
  Slot *slots;
  PtrMap slot_of; /* body value -> slot index + 1 */
} RowFusion;

static void rf_free(RowFusion *rf) {
  for (int i = 0; i < rf->nstages; i++) xfree(rf->st[i].reduces);
  xfree(rf->slots);
  ptrmap_free(&rf->slot_of);
}

/* The first of the trailing dims of t whose sizes multiply to D, or -1. */
static int suffix_start(const Type *t, int64_t D) {
  int s = t->rank;
  int64_t p = 1;
  while (p < D && s > 0) p *= t->dims[--s];
  return p == D ? s : -1;
}

static bool is_fusion_call(const Op *op) { return op->kind == OP_CALL && op_attr(op, "fusion_kind"); }

/* Does this kInput fusion have the row form: stages calling fusions, or a
   result that is not a reduce's? */
static bool row_form(Func *f) {
  Op *ret = block_terminator(f->body);
  if (!ret) return false;
  for (Op *o = f->body->first; o && o != ret; o = o->next)
    if (is_fusion_call(o)) return true;
  for (int i = 0; i < ret->nopnds; i++)
    if (!ret->opnds[i]->def || ret->opnds[i]->def->kind != OP_REDUCE) return true;
  return false;
}

/* Checks the ops of one stage against the row rule: rowish values are
   stage results and what is computed from them. */
static bool stage_rows_ok(RowFusion *rf, Stage *s) {
  Block *body = is_fusion_call(s->item) ? module_find_func(rf->m, op_attr_str(s->item, "callee"))->body : NULL;
  PtrMap rowish = {0};
  bool ok = true;
  for (int i = 0; i < s->k.ninputs; i++)
    if (ptrmap_has(&rf->slot_of, s->outer[i])) ptrmap_put(&rowish, s->k.inputs[i], (void *)1);
  Op *only[1] = {s->item};
  Op *op = body ? body->first : only[0];
  for (; op && ok; op = body ? op->next : NULL) {
    if (op->kind == OP_FUNC_RETURN) break;
    bool *rw = xcalloc((size_t)op->nopnds + 1, sizeof(bool));
    bool any = false;
    for (int j = 0; j < op->nopnds; j++) any |= rw[j] = ptrmap_has(&rowish, op->opnds[j]);
    if (any || op->kind == OP_REDUCE) {
      ok = row_fusion_op_ok(op, rw, rf->nrows, rf->D);
      if (ok) ptrmap_put(&rowish, &op->res[0], (void *)1);
    } else if (op->nregions && op->kind != OP_REDUCE) {
      ok = false;
    }
    xfree(rw);
  }
  ptrmap_free(&rowish);
  return ok;
}

/* Builds the stages of fusion call `op`; false when it is not a row fusion
   this file compiles. */
static bool analyze(Module *m, Op *op, RowFusion *rf) {
  memset(rf, 0, sizeof *rf);
  rf->m = m;
  const char *kind = op_attr_str(op, "fusion_kind");
  const char *name = op_attr_str(op, "callee");
  if (!kind || strcmp(kind, "kInput") != 0 || !name) return false;
  Func *f = module_find_func(m, name);
  if (!f || !row_form(f) || f->body->nargs > 64 || op->nres > 64) return false;
  rf->f = f;
  Op *ret = block_terminator(f->body);
  if (ret->nopnds != op->nres) return false;
  /* the stages, and the rows from the first reduce */
  for (Op *o = f->body->first; o != ret; o = o->next) {
    if (o->kind == OP_CONSTANT) continue;
    if (rf->nstages == MAX_STAGES || o->nres < 1 || o->nres > 64) return false;
    Stage *s = &rf->st[rf->nstages++];
    s->item = o;
    s->outer = o->opnds;
    if (is_fusion_call(o)) {
      const char *k = op_attr_str(o, "fusion_kind");
      Func *g = module_find_func(m, op_attr_str(o, "callee"));
      if (!k || (strcmp(k, "kLoop") != 0 && strcmp(k, "kInput") != 0) || !g || g->body->nargs != o->nopnds ||
          g->body->nargs > 64)
        return false;
      Op *gret = block_terminator(g->body);
      if (!gret || gret->nopnds != o->nres) return false;
      for (Op *x = g->body->first; x != gret; x = x->next)
        if (x->kind == OP_CALL) return false;
      s->k.inputs = g->body->args;
      s->k.ninputs = g->body->nargs;
      s->k.roots = gret->opnds;
    } else {
      if (o->kind == OP_CALL || o->nopnds > 64 || (o->nregions && o->kind != OP_REDUCE)) return false;
      s->k.inputs = o->opnds;
      s->k.ninputs = o->nopnds;
      s->k.roots = xcalloc((size_t)o->nres, sizeof(Value *)); /* freed by lower_row */
      for (int i = 0; i < o->nres; i++) s->k.roots[i] = &o->res[i];
    }
    s->k.nroots = o->nres;
    s->reduces = xcalloc((size_t)o->nres + 1, sizeof(Op *));
    s->k.reduces = s->reduces;
    s->reduce = true;
    for (int i = 0; i < s->k.nroots; i++) {
      Op *d = s->k.roots[i]->def;
      s->reduce = s->reduce && d && d->kind == OP_REDUCE;
      s->reduces[i] = d;
    }
    if (s->reduce && !rf->D) {
      const Op *r = s->reduces[0];
      int64_t *dims;
      int nd = op_attr_ints(r, "dimensions", &dims);
      const Type *t = r->opnds[0]->type;
      if (nd < 1 || t->kind != TY_TENSOR) return false;
      int64_t D = 1;
      for (int i = 0; i < nd; i++) {
        if (dims[i] < 0 || dims[i] >= t->rank) return false;
        D *= t->dims[dims[i]];
      }
      if (D < 1 || type_num_elements(t) < 1) return false;
      rf->D = D;
      rf->nrows = type_num_elements(t) / D;
    }
  }
  if (!rf->D || rf->nstages < 2) return false;
  /* slots: every stage result */
  for (int i = 0; i < rf->nstages; i++) rf->nslots += rf->st[i].item->nres;
  rf->slots = xcalloc((size_t)rf->nslots, sizeof(Slot));
  int n = 0;
  for (int i = 0; i < rf->nstages; i++) {
    Op *o = rf->st[i].item;
    for (int r = 0; r < o->nres; r++) {
      Slot *sl = &rf->slots[n];
      const Type *t = o->res[r].type;
      if (t->kind != TY_TENSOR || t->quant || !cg_elem_native(t->elem) || t->rank > CG_MAX_RANK) return false;
      int64_t ne = type_num_elements(t);
      sl->v = &o->res[r];
      sl->out = -1;
      sl->rows = ne != rf->nrows;
      if (sl->rows && (ne != rf->nrows * rf->D || suffix_start(t, rf->D) < 0)) return false;
      if (sl->rows && rf->D * et_bytes(t->elem) > MAX_ROW_BUF_BYTES) return false;
      for (int j = ret->nopnds - 1; j >= 0; j--)
        if (ret->opnds[j] == sl->v) sl->out = j;
      ptrmap_put(&rf->slot_of, sl->v, (void *)(intptr_t)(++n));
    }
  }
  for (int j = 0; j < ret->nopnds; j++)
    if (!ptrmap_has(&rf->slot_of, ret->opnds[j])) return false;
  /* each stage: reads rows at their own row, and has a kernel */
  for (int i = 0; i < rf->nstages; i++) {
    Stage *s = &rf->st[i];
    for (int j = 0; j < s->k.ninputs; j++) {
      Value *w = s->outer[j];
      bool ok = ptrmap_has(&rf->slot_of, w) || (w->owner == f->body && !w->def) ||
                (w->def && w->def->kind == OP_CONSTANT);
      if (!ok || w->type->kind != TY_TENSOR) return false;
    }
    if (!stage_rows_ok(rf, s)) return false;
    if (s->reduce) {
      if (!row_reduce_ok(&s->k)) return false;
    } else {
      for (int r = 1; r < s->k.nroots; r++)
        if (!type_same_shape(s->k.roots[r]->type, s->k.roots[0]->type)) return false;
      if (!elemental_supported(s->k.roots, s->k.nroots, s->k.inputs, s->k.ninputs)) return false;
    }
  }
  return true;
}

static LLVMValueRef gep(Cg *cg, LLVMTypeRef t, LLVMValueRef base, LLVMValueRef i) {
  return LLVMBuildGEP2(cg->b, t, base, &i, 1, "");
}

/* idx[d] for d in [from, to) from the row-major linear index lin over
   those dims of t. */
static void split_index(Cg *cg, const Type *t, int from, int to, LLVMValueRef lin, LLVMValueRef *idx) {
  for (int d = to - 1; d >= from; d--) {
    if (t->dims[d] == 1) {
      idx[d] = cg_i64(cg, 0);
    } else if (d == from) {
      idx[d] = lin;
    } else {
      LLVMValueRef n = cg_i64(cg, t->dims[d]);
      idx[d] = LLVMBuildURem(cg->b, lin, n, "");
      lin = LLVMBuildUDiv(cg->b, lin, n, "");
    }
  }
}

/* Stores stage result `root` (a value of the fusion's body) at linear index lin. */
static void store_root(Cg *cg, RowFusion *rf, LLVMValueRef *outs, Value *root, LLVMValueRef lin, LLVMValueRef v) {
  Slot *sl = &rf->slots[(intptr_t)ptrmap_get(&rf->slot_of, root) - 1];
  ElemType et = root->type->elem;
  cg_store(cg, et, sl->base, lin, v);
  /* the same value returned more than once */
  Op *ret = block_terminator(rf->f->body);
  for (int j = sl->out + 1; sl->out >= 0 && j < ret->nopnds; j++)
    if (ret->opnds[j] == root) cg_store(cg, et, outs[j], lin, v);
}

/* A loop stage over row r: its values over the row (or its one value). */
static void emit_loop_stage(Cg *cg, RowFusion *rf, Stage *s, LLVMValueRef *in_ptrs, LLVMValueRef *outs,
                            LLVMValueRef r) {
  KernelIO io = {0};
  io.ninputs = s->k.ninputs;
  io.inputs = s->k.inputs;
  io.input_ptrs = in_ptrs;
  const Type *t = s->k.roots[0]->type;
  LLVMValueRef idx[CG_MAX_RANK];
  if (type_num_elements(t) == rf->nrows) {
    split_index(cg, t, 0, t->rank, r, idx);
    kernel_io_reset_memo(&io);
    for (int i = 0; i < s->k.nroots; i++)
      store_root(cg, rf, outs, &s->item->res[i], r, emit_elemental(cg, &io, s->k.roots[i], idx));
  } else {
    int q = suffix_start(t, rf->D), nonunit = 0, last = -1;
    split_index(cg, t, 0, q, r, idx);
    for (int d = q; d < t->rank; d++)
      if (t->dims[d] > 1) {
        nonunit++;
        last = d;
      }
    LLVMValueRef row0 = LLVMBuildNSWMul(cg->b, r, cg_i64(cg, rf->D), "");
    Loop l = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, rf->D), "pos");
    if (nonunit == 1) {
      for (int d = q; d < t->rank; d++) idx[d] = d == last ? l.iv : cg_i64(cg, 0);
    } else {
      split_index(cg, t, q, t->rank, l.iv, idx);
    }
    LLVMValueRef lin = LLVMBuildNSWAdd(cg->b, row0, l.iv, "");
    kernel_io_reset_memo(&io);
    for (int i = 0; i < s->k.nroots; i++)
      store_root(cg, rf, outs, &s->item->res[i], lin, emit_elemental(cg, &io, s->k.roots[i], idx));
    loop_end(cg, &l);
  }
  kernel_io_free(&io);
}

static LLVMValueRef emit_row_kernel(Lower *L, RowFusion *rf, int64_t *nchunks) {
  Cg *cg = &L->cg;
  Func *f = rf->f;
  Op *ret = block_terminator(f->body);
  int nin = f->body->nargs, nout = ret->nopnds;
  int64_t ch = rf->D >= CHUNK_ELEMS ? 1 : CHUNK_ELEMS / rf->D;
  *nchunks = (rf->nrows + ch - 1) / ch;
  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  LLVMValueRef ins[64], outs[64];
  for (int i = 0; i < nin; i++) ins[i] = kernel_load_ptr(cg, ptrs, i);
  for (int j = 0; j < nout; j++) outs[j] = kernel_load_ptr(cg, ptrs, nin + j);
  for (int i = 0; i < rf->nslots; i++) {
    Slot *sl = &rf->slots[i];
    if (sl->out >= 0) continue;
    LLVMTypeRef st = cg_storage_type(cg, sl->v->type->elem);
    sl->buf = cg_entry_alloca(cg, fn, LLVMArrayType(st, (unsigned)(sl->rows ? rf->D : 1)), "rowbuf");
  }
  LLVMValueRef lo = LLVMBuildMul(cg->b, chunk, cg_i64(cg, ch), "");
  LLVMValueRef hi = cg_min64(cg, LLVMBuildAdd(cg->b, lo, cg_i64(cg, ch), ""), cg_i64(cg, rf->nrows));
  Loop rows = loop_begin(cg, lo, hi, "row");
  LLVMValueRef r = rows.iv;
  LLVMValueRef row0 = LLVMBuildNSWMul(cg->b, r, cg_i64(cg, rf->D), "");
  LLVMValueRef neg_row0 = LLVMBuildNeg(cg->b, row0, ""), neg_r = LLVMBuildNeg(cg->b, r, "");
  for (int i = 0; i < rf->nslots; i++) {
    Slot *sl = &rf->slots[i];
    if (sl->out >= 0) {
      sl->base = outs[sl->out];
    } else {
      /* the row's buffer seen as the whole tensor: base[linear index] */
      LLVMTypeRef st = cg_storage_type(cg, sl->v->type->elem);
      sl->base = gep(cg, st, sl->buf, sl->rows ? neg_row0 : neg_r);
    }
  }
  for (int i = 0; i < rf->nstages; i++) {
    Stage *s = &rf->st[i];
    LLVMValueRef *in_ptrs = xcalloc((size_t)s->k.ninputs + 1, sizeof(LLVMValueRef));
    for (int j = 0; j < s->k.ninputs; j++) {
      Value *w = s->outer[j];
      intptr_t k = (intptr_t)ptrmap_get(&rf->slot_of, w);
      if (k)
        in_ptrs[j] = rf->slots[k - 1].base;
      else if (w->def)
        in_ptrs[j] = cg_constant_global(cg, op_attr(w->def, "value")->lit);
      else
        in_ptrs[j] = ins[w->index];
    }
    if (s->reduce) {
      LLVMValueRef res[64];
      RowReduce *rr = row_reduce_new(L, &s->k, fn, in_ptrs);
      row_reduce_emit(rr, r, res);
      row_reduce_free(rr);
      for (int k = 0; k < s->k.nroots; k++) store_root(cg, rf, outs, &s->item->res[k], r, res[k]);
    } else {
      emit_loop_stage(cg, rf, s, in_ptrs, outs, r);
    }
    xfree(in_ptrs);
  }
  loop_end(cg, &rows);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

bool lower_row(Lower *L, Op *op) {
  if (!is_fusion_call(op)) return false;
  RowFusion rf;
  bool ok = analyze(L->cg.m, op, &rf);
  if (ok) {
    LLVMBasicBlockRef at = LLVMGetInsertBlock(L->cg.b);
    int64_t nchunks = 0;
    LLVMValueRef kfn = emit_row_kernel(L, &rf, &nchunks);
    LLVMPositionBuilderAtEnd(L->cg.b, at);
    call_kernel_op(L, kfn, nchunks, op);
    lower_count_fusion(L);
  }
  /* single-op stages own their roots array */
  for (int i = 0; i < rf.nstages; i++)
    if (!is_fusion_call(rf.st[i].item)) xfree(rf.st[i].k.roots);
  rf_free(&rf);
  return ok;
}
