/*
 * row.c - row fusions on the GPU: softmax, layer norm and their relatives
 * in one kernel.
 *
 * The fusion pass outlines such a pattern as a kInput fusion whose stages
 * (reductions over the same rows, loop stages whose values are whole rows
 * or one value per row) codegen/row_plan.c lists, as it does for the CPU's
 * row kernel.  Here a block of T threads (T a function of the row length
 * only) takes one row at a time, rows strided over the grid, and runs every
 * stage on it in order, with a barrier after each:
 *
 *  - a loop stage: thread t computes elements t, t+T, ... of the row with
 *    the elemental generator (a value per row: thread 0);
 *  - a reduction stage: the block folds the row as a unit of the row
 *    reduction kernel does (reduce.c: strided per-thread folds, warp
 *    butterflies, warps through shared memory, the init value last), so
 *    the order is fixed by T alone and results do not depend on the grid.
 *
 * A stage result the fusion returns goes to its result buffer, where later
 * stages read it; any other lives in the block's own slice of the scratch
 * area (a row, or a value per row), written and read back by the same
 * block while it is in the cache.  Seen through a base pointer moved back
 * by the row's offset, a slot reads as the whole tensor would at the
 * row's linear indices, so the elemental generator indexes it unchanged.
 * One launch replaces the stages' kernels, and the rows are read from
 * device memory once.
 */
#include <string.h>

#include "codegen/row_plan.h"
#include "gpu/kernels.h"

/* Blocks a row kernel is launched with at most (the scratch is sized for
   them; the device may run fewer, each then taking more rows). */
enum { ROW_BLOCKS = 1024 };
/* ... and as many as keep the blocks' slices of the scratch area within this */
#define ROW_SCRATCH_BYTES ((int64_t)64 << 20)

static bool loop_stage_ok(const KernelSpec *k) {
  for (int r = 0; r < k->nroots; r++)
    if (!type_same_shape(k->roots[r]->type, k->roots[0]->type)) return false;
  return elemental_supported(k->roots, k->nroots, k->inputs, k->ninputs);
}

bool gpu_row_fusion_ok(Module *m, Op *op) {
  if (!row_is_fusion_call(op) || !row_fusion_form(m, op)) return false;
  RowFusion rf;
  bool ok = row_fusion_analyze(m, op, &rf, gpu_block_reduce_ok);
  for (int i = 0; ok && i < rf.nstages; i++)
    if (!rf.st[i].reduce) ok = loop_stage_ok(&rf.st[i].k);
  row_fusion_free(&rf);
  return ok;
}

static LLVMValueRef gep(Cg *cg, LLVMTypeRef t, LLVMValueRef base, LLVMValueRef i) {
  return LLVMBuildGEP2(cg->b, t, base, &i, 1, "");
}

/* A loop stage on row r: thread t computes positions t, t+T, ... (a value
   per row: thread 0). */
static void loop_stage(Cg *cg, RowFusion *rf, RowStage *s, LLVMValueRef *in_ptrs, LLVMValueRef *outs, LLVMValueRef r,
                       LLVMValueRef tid, int T) {
  KernelIO io = gpu_kernel_io(s->k.inputs, s->k.ninputs, in_ptrs);
  const Type *t = s->k.roots[0]->type;
  LLVMValueRef idx[CG_MAX_RANK];
  if (type_num_elements(t) == rf->nrows) {
    LLVMBasicBlockRef next = gpu_if_begin(cg, LLVMBuildICmp(cg->b, LLVMIntEQ, tid, cg_i64(cg, 0), ""));
    row_split_index(cg, t, 0, t->rank, r, idx);
    kernel_io_reset_memo(&io);
    for (int i = 0; i < s->k.nroots; i++)
      row_store_root(cg, rf, outs, &s->item->res[i], r, emit_elemental(cg, &io, s->k.roots[i], idx));
    gpu_if_end(cg, next);
  } else {
    int q = row_suffix_start(t, rf->D);
    LLVMValueRef row0 = LLVMBuildNSWMul(cg->b, r, cg_i64(cg, rf->D), "");
    LLVMValueRef step = cg_i64(cg, T);
    Loop l = gpu_loop_begin(cg, tid, cg_i64(cg, rf->D), step, "pos");
    row_split_index(cg, t, 0, q, r, idx);
    row_split_index(cg, t, q, t->rank, l.iv, idx);
    LLVMValueRef lin = LLVMBuildNSWAdd(cg->b, row0, l.iv, "");
    kernel_io_reset_memo(&io);
    for (int i = 0; i < s->k.nroots; i++)
      row_store_root(cg, rf, outs, &s->item->res[i], lin, emit_elemental(cg, &io, s->k.roots[i], idx));
    gpu_loop_end(cg, &l, step);
  }
  kernel_io_free(&io);
}

static LLVMValueRef emit(GpuLower *G, RowFusion *rf, int T, const int64_t *slot_off, int64_t per_block, int nbufs) {
  Cg *cg = &G->cg;
  int nin = rf->f->body->nargs;
  LLVMValueRef ptrs[130], n;
  LLVMValueRef fn = gpu_kernel_new(G, nbufs, ptrs, &n);
  LLVMValueRef *ins = ptrs, *outs = ptrs + nin;
  LLVMValueRef tid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.tid.x");
  LLVMValueRef ctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.ctaid.x");
  LLVMValueRef nctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.nctaid.x");
  LLVMValueRef mine = NULL; /* this block's slice of the scratch area */
  if (per_block) mine = gep(cg, cg->t_i8, ptrs[nbufs - 1], LLVMBuildMul(cg->b, ctaid, cg_i64(cg, per_block), ""));
  Loop rows = gpu_loop_begin(cg, ctaid, n, nctaid, "row");
  LLVMValueRef r = rows.iv;
  for (int i = 0; i < rf->nslots; i++)
    if (rf->slots[i].out < 0) rf->slots[i].buf = gep(cg, cg->t_i8, mine, cg_i64(cg, slot_off[i]));
  row_set_bases(cg, rf, outs, r);
  for (int i = 0; i < rf->nstages; i++) {
    RowStage *s = &rf->st[i];
    LLVMValueRef in_ptrs[64];
    row_stage_inputs(cg, rf, s, ins, in_ptrs);
    if (s->reduce) {
      LLVMValueRef res[64];
      gpu_block_reduce(cg, fn, &s->k, in_ptrs, r, T, res);
      LLVMBasicBlockRef next = gpu_if_begin(cg, LLVMBuildICmp(cg->b, LLVMIntEQ, tid, cg_i64(cg, 0), ""));
      for (int k = 0; k < s->k.nroots; k++) row_store_root(cg, rf, outs, &s->item->res[k], r, res[k]);
      gpu_if_end(cg, next);
    } else {
      loop_stage(cg, rf, s, in_ptrs, outs, r, tid, T);
    }
    /* what the stage stored is read by other threads in the next */
    gpu_barrier(cg);
  }
  gpu_loop_end(cg, &rows, nctaid);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

bool gpu_lower_row(GpuLower *G, Op *op) {
  if (!gpu_row_fusion_ok(G->cg.m, op)) return false;
  RowFusion rf;
  row_fusion_analyze(G->cg.m, op, &rf, gpu_block_reduce_ok);
  int T = gpu_row_threads(rf.D);
  int64_t blocks = rf.nrows < ROW_BLOCKS ? rf.nrows : ROW_BLOCKS;
  /* the block's slice: a row or a value for each slot not returned */
  int64_t *off = xcalloc((size_t)rf.nslots + 1, sizeof(int64_t)), per_block = 0;
  for (int i = 0; i < rf.nslots; i++) {
    RowSlot *sl = &rf.slots[i];
    if (sl->out >= 0) continue;
    off[i] = per_block;
    per_block += ((sl->rows ? rf.D : 1) * et_bytes(sl->v->type->elem) + 15) & ~(int64_t)15;
  }
  /* fewer blocks where the slices would make the scratch area large
     (each block then takes more rows) */
  if (per_block && blocks * per_block > ROW_SCRATCH_BYTES)
    blocks = ROW_SCRATCH_BYTES / per_block > 0 ? ROW_SCRATCH_BYTES / per_block : 1;
  GpuBuf *bufs;
  int nbufs;
  bool ok = gpu_op_bufs(G, op, 1, &bufs, &nbufs);
  if (ok) {
    if (per_block) bufs[nbufs++] = gpu_scratch(G, blocks * per_block);
    LLVMBasicBlockRef at = LLVMGetInsertBlock(G->cg.b);
    LLVMValueRef fn = emit(G, &rf, T, off, per_block, nbufs);
    if (at) LLVMPositionBuilderAtEnd(G->cg.b, at);
    if (gpu_add_launch(G, op, fn, rf.nrows, blocks, T, bufs, nbufs)) G->nfusions++;
  }
  xfree(off);
  row_fusion_free(&rf);
  return true;
}
