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

#include "codegen/row_plan.h"
#include "cpu/lower.h"
#include "passes/passes.h"

/* A loop stage over row r: its values over the row (or its one value). */
static void emit_loop_stage(Cg *cg, RowFusion *rf, RowStage *s, LLVMValueRef *in_ptrs, LLVMValueRef *outs,
                            LLVMValueRef r) {
  KernelIO io = {0};
  io.ninputs = s->k.ninputs;
  io.inputs = s->k.inputs;
  io.input_ptrs = in_ptrs;
  const Type *t = s->k.roots[0]->type;
  LLVMValueRef idx[CG_MAX_RANK];
  if (type_num_elements(t) == rf->nrows) {
    row_split_index(cg, t, 0, t->rank, r, idx);
    kernel_io_reset_memo(&io);
    for (int i = 0; i < s->k.nroots; i++)
      row_store_root(cg, rf, outs, &s->item->res[i], r, emit_elemental(cg, &io, s->k.roots[i], idx));
  } else {
    int q = row_suffix_start(t, rf->D), nonunit = 0, last = -1;
    row_split_index(cg, t, 0, q, r, idx);
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
      row_split_index(cg, t, q, t->rank, l.iv, idx);
    }
    LLVMValueRef lin = LLVMBuildNSWAdd(cg->b, row0, l.iv, "");
    kernel_io_reset_memo(&io);
    for (int i = 0; i < s->k.nroots; i++)
      row_store_root(cg, rf, outs, &s->item->res[i], lin, emit_elemental(cg, &io, s->k.roots[i], idx));
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
    RowSlot *sl = &rf->slots[i];
    if (sl->out >= 0) continue;
    LLVMTypeRef st = cg_storage_type(cg, sl->v->type->elem);
    sl->buf = cg_entry_alloca(cg, fn, LLVMArrayType(st, (unsigned)(sl->rows ? rf->D : 1)), "rowbuf");
  }
  LLVMValueRef lo = LLVMBuildMul(cg->b, chunk, cg_i64(cg, ch), "");
  LLVMValueRef hi = cg_min64(cg, LLVMBuildAdd(cg->b, lo, cg_i64(cg, ch), ""), cg_i64(cg, rf->nrows));
  Loop rows = loop_begin(cg, lo, hi, "row");
  LLVMValueRef r = rows.iv;
  /* each slot's buffer seen as the whole tensor: base[linear index] */
  row_set_bases(cg, rf, outs, r);
  for (int i = 0; i < rf->nstages; i++) {
    RowStage *s = &rf->st[i];
    LLVMValueRef *in_ptrs = xcalloc((size_t)s->k.ninputs + 1, sizeof(LLVMValueRef));
    row_stage_inputs(cg, rf, s, ins, in_ptrs);
    if (s->reduce) {
      LLVMValueRef res[64];
      RowReduce *rr = row_reduce_new(L, &s->k, fn, in_ptrs);
      row_reduce_emit(rr, r, res);
      row_reduce_free(rr);
      for (int k = 0; k < s->k.nroots; k++) row_store_root(cg, rf, outs, &s->item->res[k], r, res[k]);
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
  if (!row_is_fusion_call(op)) return false;
  RowFusion rf;
  bool ok = row_fusion_analyze(L->cg.m, op, &rf, row_reduce_ok);
  if (ok) {
    LLVMBasicBlockRef at = LLVMGetInsertBlock(L->cg.b);
    int64_t nchunks = 0;
    LLVMValueRef kfn = emit_row_kernel(L, &rf, &nchunks);
    LLVMPositionBuilderAtEnd(L->cg.b, at);
    call_kernel_op(L, kfn, nchunks, op);
    lower_count_fusion(L);
  }
  row_fusion_free(&rf);
  return ok;
}
