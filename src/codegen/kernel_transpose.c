/*
 * kernel_transpose.c - large transposes that swap the last two dimensions
 * (a plain 2-D transpose, or a batch of them), as a tiled copy.
 *
 * The generic loop kernel writes the result in order and reads the operand
 * with a stride of a whole row, so for a matrix bigger than the caches
 * every load touches a new cache line and uses one element of it.  Here the
 * copy goes by TILE x TILE tiles, each through a small buffer: the tile's
 * input rows are copied in, then its output rows copied out, so both sides
 * are read and written in contiguous runs that use every cache line whole.
 * (Transposing straight from memory to memory would keep TILE lines of one
 * side live at a stride of a whole row, which for power-of-two rows all
 * fall in one L1 set and evict each other.)  A chunk is a BLOCK x BLOCK
 * block of one matrix, its tiles taken row by row; chunks write disjoint
 * memory and are fixed by the shape.
 *
 * Elements are moved as integers of their storage size: a transpose only
 * moves bits, so the result equals the interpreter's for any element type.
 * Small tensors stay with the loop kernels (fusable, and there the strided
 * reads hit the cache anyway).
 */
#include "codegen/lower.h"

enum {
  TILE = 32,
  /* a chunk is a BLOCK x BLOCK block of the operand: its rows and the
     result's rows then span few enough pages to stay in the TLB */
  BLOCK = 256,
  /* below this many bytes the generic loop kernel does as well */
  MIN_BYTES = 1 << 20,
};

/* loop_end (cg.c) for a loop that steps by `step`. */
static void loop_end_step(Cg *cg, Loop *l, int64_t step) {
  LLVMValueRef next = LLVMBuildNSWAdd(cg->b, l->phi, cg_i64(cg, step), "");
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(cg->b);
  LLVMAddIncoming(l->phi, &next, &latch, 1);
  LLVMBuildBr(cg->b, l->header);
  LLVMPositionBuilderAtEnd(cg->b, l->exit);
}

/* The permutation swaps the last two dimensions and keeps the rest. */
static bool swaps_last_two(const Op *op, int rank) {
  int64_t *perm;
  int n = op_attr_ints(op, "permutation", &perm);
  if (n != rank || rank < 2) return false;
  for (int i = 0; i < rank - 2; i++)
    if (perm[i] != i) return false;
  return perm[rank - 2] == rank - 1 && perm[rank - 1] == rank - 2;
}

bool lower_transpose(Lower *L, Op *op) {
  if (op->kind != OP_TRANSPOSE || op->nopnds != 1 || op->nres != 1) return false;
  const Type *it = op->opnds[0]->type, *ot = op->res[0].type;
  if (it->kind != TY_TENSOR || ot->kind != TY_TENSOR || it->quant || ot->quant) return false;
  if (it->elem != ot->elem || it->rank != ot->rank || !swaps_last_two(op, it->rank)) return false;
  int rank = it->rank;
  for (int i = 0; i < rank; i++) {
    int j = i < rank - 2 ? i : 2 * rank - 3 - i;
    if (ot->dims[i] != it->dims[j]) return false;
  }
  int64_t n = type_num_elements(it), bytes = type_bytes(it);
  if (n <= 0 || bytes < MIN_BYTES) return false;
  int64_t eb = bytes / n;
  if (eb * n != bytes || !(eb == 1 || eb == 2 || eb == 4 || eb == 8 || eb == 16)) return false;
  if (buffers_lookup(L->buffers, &op->res[0], NULL) == BUF_NONE ||
      buffers_lookup(L->buffers, op->opnds[0], NULL) == BUF_NONE)
    return false;

  Cg *cg = &L->cg;
  int64_t rows = it->dims[rank - 2], cols = it->dims[rank - 1];
  int64_t batch = n / (rows * cols);
  int64_t row_blocks = (rows + BLOCK - 1) / BLOCK, col_blocks = (cols + BLOCK - 1) / BLOCK;

  LLVMBasicBlockRef at = LLVMGetInsertBlock(cg->b);
  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  LLVMValueRef src = kernel_load_ptr(cg, ptrs, 0), dst = kernel_load_ptr(cg, ptrs, 1);
  LLVMTypeRef et = LLVMIntTypeInContext(cg->ctx, (unsigned)(eb * 8));
  LLVMValueRef tile = LLVMBuildArrayAlloca(cg->b, et, cg_i64(cg, TILE * TILE), "tile");
  LLVMSetAlignment(tile, 64);
  /* chunk = (matrix, block row, block column) of the operand */
  LLVMValueRef per = cg_i64(cg, row_blocks * col_blocks);
  LLVMValueRef mat = LLVMBuildUDiv(cg->b, chunk, per, "");
  LLVMValueRef blk = LLVMBuildURem(cg->b, chunk, per, "");
  LLVMValueRef bi = LLVMBuildUDiv(cg->b, blk, cg_i64(cg, col_blocks), "");
  LLVMValueRef bj = LLVMBuildURem(cg->b, blk, cg_i64(cg, col_blocks), "");
  LLVMValueRef base = LLVMBuildMul(cg->b, mat, cg_i64(cg, rows * cols), "");
  LLVMValueRef bi0 = LLVMBuildMul(cg->b, bi, cg_i64(cg, BLOCK), "");
  LLVMValueRef bj0 = LLVMBuildMul(cg->b, bj, cg_i64(cg, BLOCK), "");
  LLVMValueRef bi1 = cg_min64(cg, LLVMBuildAdd(cg->b, bi0, cg_i64(cg, BLOCK), ""), cg_i64(cg, rows));
  LLVMValueRef bj1 = cg_min64(cg, LLVMBuildAdd(cg->b, bj0, cg_i64(cg, BLOCK), ""), cg_i64(cg, cols));
  LLVMValueRef tile_sz = cg_i64(cg, TILE);
  /* tiles of the block: rows outer, so the operand's pages are reused
     across the tiles of a row before moving on */
  Loop lt = loop_begin(cg, bi0, bi1, "ti");
  LLVMValueRef i0 = lt.iv;
  LLVMValueRef i1 = cg_min64(cg, LLVMBuildAdd(cg->b, i0, tile_sz, ""), bi1);
  Loop ltj = loop_begin(cg, bj0, bj1, "tj");
  LLVMValueRef j0 = ltj.iv;
  LLVMValueRef j1 = cg_min64(cg, LLVMBuildAdd(cg->b, j0, tile_sz, ""), bj1);
  /* the tile's input rows, each a short contiguous run, into the buffer */
  Loop li = loop_begin(cg, i0, i1, "ri");
  LLVMValueRef srow = LLVMBuildAdd(cg->b, base, LLVMBuildMul(cg->b, li.iv, cg_i64(cg, cols), ""), "");
  LLVMValueRef trow = LLVMBuildMul(cg->b, LLVMBuildSub(cg->b, li.iv, i0, ""), tile_sz, "");
  Loop lj = loop_begin(cg, j0, j1, "rj");
  LLVMValueRef sidx = LLVMBuildAdd(cg->b, srow, lj.iv, "");
  LLVMValueRef tidx = LLVMBuildAdd(cg->b, trow, LLVMBuildSub(cg->b, lj.iv, j0, ""), "");
  LLVMValueRef v = LLVMBuildLoad2(cg->b, et, LLVMBuildGEP2(cg->b, et, src, &sidx, 1, ""), "");
  /* buffers are only as aligned as their element type's storage */
  LLVMSetAlignment(v, 1);
  LLVMBuildStore(cg->b, v, LLVMBuildGEP2(cg->b, et, tile, &tidx, 1, ""));
  loop_end(cg, &lj);
  loop_end(cg, &li);
  /* then the output rows, each a short contiguous run, out of it */
  Loop wj = loop_begin(cg, j0, j1, "wj");
  LLVMValueRef drow = LLVMBuildAdd(cg->b, base, LLVMBuildMul(cg->b, wj.iv, cg_i64(cg, rows), ""), "");
  LLVMValueRef tcol = LLVMBuildSub(cg->b, wj.iv, j0, "");
  Loop wi = loop_begin(cg, i0, i1, "wi");
  LLVMValueRef didx = LLVMBuildAdd(cg->b, drow, wi.iv, "");
  LLVMValueRef tidx2 = LLVMBuildAdd(
      cg->b, LLVMBuildMul(cg->b, LLVMBuildSub(cg->b, wi.iv, i0, ""), tile_sz, ""), tcol, "");
  LLVMValueRef w = LLVMBuildLoad2(cg->b, et, LLVMBuildGEP2(cg->b, et, tile, &tidx2, 1, ""), "");
  LLVMValueRef st = LLVMBuildStore(cg->b, w, LLVMBuildGEP2(cg->b, et, dst, &didx, 1, ""));
  LLVMSetAlignment(st, 1);
  loop_end(cg, &wi);
  loop_end(cg, &wj);
  loop_end_step(cg, &ltj, TILE);
  loop_end_step(cg, &lt, TILE);
  LLVMBuildRetVoid(cg->b);
  LLVMPositionBuilderAtEnd(cg->b, at);
  Value *bufs[2] = {op->opnds[0], &op->res[0]};
  call_kernel(L, fn, batch * row_blocks * col_blocks, bufs, 2);
  return true;
}
