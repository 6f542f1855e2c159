/*
 * transpose.c - loop kernels around a transpose that moves the innermost
 * dimension, as tiles through shared memory.
 *
 * The loop kernel (gpu.c) has consecutive threads compute consecutive
 * result elements, so a transpose whose result's contiguous dimension is
 * not the operand's reads the operand with a stride: each thread of a warp
 * touches another 32-byte sector.  Here the transposes the roots read at
 * their own index (through elementwise ops of the roots' shape: the
 * "heroes", all with the same permutation of the same operand shape) are
 * reduced to a batch of matrix transposes (codegen/transpose_plan.c), and
 * a block of 32 x 8 threads takes a 32 x 32 tile of a matrix at a time,
 * tiles strided over the grid:
 *
 *  - thread (x, y) computes each hero's operand at rows y, y+8, y+16,
 *    y+24 of the tile and column x (consecutive threads, consecutive
 *    operand elements: the inputs are read coalesced), with whatever
 *    elementwise or index work the fusion does before the transpose, and
 *    puts it in the hero's tile in shared memory (32 x 33 elements: the
 *    extra column puts the elements of a tile column in different banks);
 *  - a barrier;
 *  - thread (x, y) takes column y, y+8, ... and row x of the tile (now
 *    consecutive threads, consecutive result elements), gives the heroes'
 *    values from the tiles to the elemental generator at that result
 *    element, computes the roots (the fusion's work after the transpose,
 *    other operands read at the result's index) and stores them coalesced;
 *  - a barrier before the next tile overwrites the tiles.
 *
 * Tiles at the edges of a matrix that is not a multiple of 32 leave out
 * the elements beyond it.  Every element is computed by the same
 * elemental code as in the loop kernel, from the same values, and the
 * tiles hold the values themselves (the compute type), so results are
 * those of the loop kernel: the interpreter's.  Matrices with a side
 * shorter than TILE_MIN stay with the loop kernel (its strided accesses
 * then cover few sectors), as do permutations that keep the innermost
 * dimension in place.  XLAC_GPU_TRANSPOSE=0 turns the tiles off.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/transpose_plan.h"
#include "gpu/kernels.h"

enum {
  TILE = 32,      /* a tile is TILE x TILE elements, */
  TILE_ROWS = 8,  /* moved by TILE x TILE_ROWS threads */
  TILE_MIN = 16,  /* the shortest side of a matrix that goes by tiles */
  MAX_HEROES = 4,
  MAX_SHARED = 32 * 1024, /* the tiles' shared memory, at most */
};

typedef struct Heroes {
  Value *v[MAX_HEROES];
  int tile[MAX_HEROES]; /* the first hero of the same operand, whose tile it reads */
  int n;
  bool ok;
} Heroes;

/* Collects into h the transposes v reads at its own index through
   elementwise ops of shape (h->ok false when there are too many). */
static void find_heroes(Value *v, const Type *shape, Value *const *inputs, int ninputs, PtrMap *seen, Heroes *h) {
  if (!h->ok || ptrmap_has(seen, v)) return;
  ptrmap_put(seen, v, (void *)1);
  for (int i = 0; i < ninputs; i++)
    if (inputs[i] == v) return;
  Op *op = v->def;
  if (!op || !type_same_shape(v->type, shape)) return;
  if (op->kind == OP_TRANSPOSE) {
    if (h->n == MAX_HEROES) {
      h->ok = false;
      return;
    }
    /* the fusion pass may have copied one transpose into its consumers */
    int k = 0;
    while (k < h->n && !(op->nopnds == 1 && h->v[k]->def->nopnds == 1 && h->v[k]->def->opnds[0] == op->opnds[0]))
      k++;
    h->tile[h->n] = k < h->n ? h->tile[k] : h->n;
    h->v[h->n++] = v;
    return;
  }
  if (!op_has_flag(op->kind, OPF_EW)) return; /* read elsewhere: left to the generator */
  for (int i = 0; i < op->nopnds; i++) find_heroes(op->opnds[i], shape, inputs, ninputs, seen, h);
}

/* The plan shared by every hero; false when they differ or a hero is not
   one a tile moves. */
static bool heroes_plan(Heroes *h, TransposePlan *p) {
  if (!h->ok || h->n == 0) return false;
  Op *t0 = h->v[0]->def;
  if (t0->nopnds != 1) return false;
  const Type *it = t0->opnds[0]->type;
  int64_t *perm0;
  if (it->rank < 2 || it->rank > CG_MAX_RANK || op_attr_ints(t0, "permutation", &perm0) != it->rank) return false;
  for (int k = 1; k < h->n; k++) {
    Op *t = h->v[k]->def;
    int64_t *perm;
    if (t->nopnds != 1 || !type_same_shape(t->opnds[0]->type, it) || op_attr_ints(t, "permutation", &perm) != it->rank)
      return false;
    if (memcmp(perm, perm0, sizeof(int64_t) * (size_t)it->rank) != 0)
      return false;
  }
  return transpose_plan(it->dims, perm0, it->rank, p) && p->rows >= TILE_MIN && p->cols >= TILE_MIN;
}

static LLVMValueRef add(Cg *cg, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildNSWAdd(cg->b, a, b, ""); }
static LLVMValueRef mul(Cg *cg, LLVMValueRef a, int64_t k) { return LLVMBuildNSWMul(cg->b, a, cg_i64(cg, k), ""); }
static LLVMValueRef lt(Cg *cg, LLVMValueRef a, int64_t k) {
  return LLVMBuildICmp(cg->b, LLVMIntSLT, a, cg_i64(cg, k), "");
}

/* The coordinates of linear index lin of shape: the linear index as the
   innermost coordinate when the values computed there are flat, else by
   division. */
static void coords(Cg *cg, const Type *shape, bool flat, LLVMValueRef lin, LLVMValueRef *idx) {
  int rank = shape->rank;
  if (flat) {
    for (int d = 0; d < rank; d++) idx[d] = d == rank - 1 ? lin : cg_i64(cg, 0);
  } else {
    gpu_delinearize(cg, lin, shape->dims, rank, idx);
  }
}

/* Element k of the tile (an element slot of the shared array). */
static LLVMValueRef slot(Cg *cg, LLVMValueRef tile, LLVMTypeRef t, LLVMValueRef k) {
  LLVMValueRef ix[2] = {cg_i64(cg, 0), k};
  return LLVMBuildGEP2(cg->b, LLVMArrayType2(t, TILE * (TILE + 1)), tile, ix, 2, "");
}

static LLVMValueRef emit(GpuLower *G, const TransposePlan *p, Heroes *h, Value **inputs, int ninputs, Value **roots,
                         int nroots, bool in_flat, bool out_flat) {
  Cg *cg = &G->cg;
  const Type *it = h->v[0]->def->opnds[0]->type, *ot = roots[0]->type;
  LLVMValueRef *ptrs = xcalloc((size_t)(ninputs + nroots) + 1, sizeof(LLVMValueRef)), n;
  LLVMValueRef fn = gpu_kernel_new(G, ninputs + nroots, ptrs, &n);
  KernelIO io = gpu_kernel_io(inputs, ninputs, ptrs);
  LLVMValueRef *outs = ptrs + ninputs;
  LLVMValueRef tid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.tid.x");
  LLVMValueRef ctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.ctaid.x");
  LLVMValueRef nctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.nctaid.x");
  LLVMValueRef tx = LLVMBuildURem(cg->b, tid, cg_i64(cg, TILE), "tx");
  LLVMValueRef ty = LLVMBuildUDiv(cg->b, tid, cg_i64(cg, TILE), "ty");
  LLVMValueRef tiles[MAX_HEROES] = {0};
  LLVMTypeRef tile_t[MAX_HEROES] = {0};
  /* tile t = (batch index, tile row, tile column) */
  int64_t tdims[CG_MAX_RANK + 2];
  int nt = p->nbatch;
  memcpy(tdims, p->bdim, sizeof(int64_t) * (size_t)nt);
  tdims[nt] = (p->rows + TILE - 1) / TILE;
  tdims[nt + 1] = (p->cols + TILE - 1) / TILE;
  LLVMValueRef step = nctaid;
  Loop tl = gpu_loop_begin(cg, ctaid, n, step, "tile");
  LLVMValueRef tc[CG_MAX_RANK + 2];
  gpu_delinearize(cg, tl.iv, tdims, nt + 2, tc);
  LLVMValueRef s = cg_i64(cg, 0), d = cg_i64(cg, 0);
  for (int k = 0; k < nt; k++) {
    s = add(cg, s, mul(cg, tc[k], p->bsrc[k]));
    d = add(cg, d, mul(cg, tc[k], p->bdst[k]));
  }
  LLVMValueRef i0 = mul(cg, tc[nt], TILE), j0 = mul(cg, tc[nt + 1], TILE);
  LLVMValueRef row_step = cg_i64(cg, TILE_ROWS), end = cg_i64(cg, TILE);

  /* the heroes' operands at matrix element (i0 + r, j0 + tx), r = ty,
     ty + 8, ... (consecutive threads, consecutive operand elements): into
     tile element r * (TILE + 1) + tx */
  LLVMValueRef j = add(cg, j0, tx);
  Loop rl = gpu_loop_begin(cg, ty, end, row_step, "r");
  LLVMValueRef i = add(cg, i0, rl.iv);
  LLVMBasicBlockRef next = gpu_if_begin(cg, LLVMBuildAnd(cg->b, lt(cg, i, p->rows), lt(cg, j, p->cols), ""));
  LLVMValueRef lin = add(cg, add(cg, s, mul(cg, i, p->src_row)), j), idx[CG_MAX_RANK];
  coords(cg, it, in_flat, lin, idx);
  kernel_io_reset_memo(&io);
  LLVMValueRef at = add(cg, mul(cg, rl.iv, TILE + 1), tx);
  for (int k = 0; k < h->n; k++) {
    if (h->tile[k] != k) continue;
    LLVMValueRef v = emit_elemental(cg, &io, h->v[k]->def->opnds[0], idx);
    tile_t[k] = LLVMTypeOf(v);
    tiles[k] = gpu_shared_array(cg, tile_t[k], TILE * (TILE + 1), "tile");
    LLVMBuildStore(cg->b, v, slot(cg, tiles[k], tile_t[k], at));
  }
  gpu_if_end(cg, next);
  gpu_loop_end(cg, &rl, row_step);
  gpu_barrier(cg);

  /* the roots at matrix element (i0 + tx, j0 + c), c = ty, ty + 8, ...
     (consecutive threads, consecutive result elements), the heroes'
     values from tile element tx * (TILE + 1) + c */
  i = add(cg, i0, tx);
  Loop cl = gpu_loop_begin(cg, ty, end, row_step, "c");
  j = add(cg, j0, cl.iv);
  next = gpu_if_begin(cg, LLVMBuildAnd(cg->b, lt(cg, i, p->rows), lt(cg, j, p->cols), ""));
  lin = add(cg, add(cg, d, mul(cg, j, p->dst_row)), i);
  coords(cg, ot, out_flat, lin, idx);
  kernel_io_reset_memo(&io);
  at = add(cg, mul(cg, tx, TILE + 1), cl.iv);
  for (int k = 0; k < h->n; k++) {
    int t = h->tile[k];
    kernel_io_give(&io, h->v[k], idx, LLVMBuildLoad2(cg->b, tile_t[t], slot(cg, tiles[t], tile_t[t], at), ""));
  }
  elemental_store_roots(cg, &io, roots, nroots, outs, idx, lin, false);
  gpu_if_end(cg, next);
  gpu_loop_end(cg, &cl, row_step);
  /* the next tile's writes wait for every read of this one */
  gpu_barrier(cg);
  gpu_loop_end(cg, &tl, step);
  LLVMBuildRetVoid(cg->b);
  kernel_io_free(&io);
  xfree(ptrs);
  return fn;
}

bool gpu_lower_transpose(GpuLower *G, Op *op, Value **inputs, int ninputs, Value **roots, int nroots, GpuBuf *bufs,
                         int nbufs) {
  const char *env = getenv("XLAC_GPU_TRANSPOSE");
  if (env && strcmp(env, "0") == 0) return false;
  const Type *shape = roots[0]->type;
  if (shape->rank < 2) return false;
  Heroes h = {0};
  h.ok = true;
  PtrMap seen = {0};
  for (int r = 0; r < nroots; r++) find_heroes(roots[r], shape, inputs, ninputs, &seen, &h);
  ptrmap_free(&seen);
  TransposePlan p;
  if (!heroes_plan(&h, &p)) return false;
  Cg *cg = &G->cg;
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(cg->mod);
  int64_t shared = 0;
  for (int k = 0; k < h.n; k++)
    if (h.tile[k] == k)
      shared += TILE * (TILE + 1) * (int64_t)LLVMABISizeOfType(td, cg_compute_type(cg, h.v[k]->type->elem));
  if (shared > MAX_SHARED) return false;
  /* what the tiles feed and what feeds them: flat on their shapes, or
     indexed by coordinates */
  const Type *it = h.v[0]->def->opnds[0]->type;
  bool in_flat = true, out_flat = true;
  Value **leaves = xcalloc((size_t)(ninputs + h.n) + 1, sizeof(Value *));
  memcpy(leaves, inputs, sizeof(Value *) * (size_t)ninputs);
  memcpy(leaves + ninputs, h.v, sizeof(Value *) * (size_t)h.n);
  for (int k = 0; k < h.n && in_flat; k++) {
    in_flat = gpu_flat(h.v[k]->def->opnds[0], it, inputs, ninputs, &seen);
    ptrmap_free(&seen);
  }
  for (int r = 0; r < nroots && out_flat; r++)
    out_flat = gpu_flat(roots[r], shape, leaves, ninputs + h.n, &seen);
  ptrmap_free(&seen);
  xfree(leaves);
  LLVMBasicBlockRef at = LLVMGetInsertBlock(cg->b);
  LLVMValueRef fn = emit(G, &p, &h, inputs, ninputs, roots, nroots, in_flat, out_flat);
  if (at) LLVMPositionBuilderAtEnd(cg->b, at);
  int64_t ntiles = p.batch * ((p.rows + TILE - 1) / TILE) * ((p.cols + TILE - 1) / TILE);
  gpu_add_launch(G, op, fn, ntiles, ntiles, TILE * TILE_ROWS, bufs, nbufs);
  return true;
}
