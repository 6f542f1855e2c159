/*
 * kernel_transpose.c - transposes whose result is not contiguous along the
 * operand's contiguous dimension: plain 2-D transposes, batches of them, and
 * general permutations such as NCHW <-> NHWC.
 *
 * The generic loop kernel writes the result in order and reads the operand
 * with a stride, so for a tensor bigger than the caches every load touches a
 * new cache line and uses one element of it.  Here the permutation is first
 * reduced to its essentials (transpose_plan.c, shared with the GPU's tiled
 * transposes): NCHW -> NHWC becomes a batch of [C, H*W] -> [H*W, C] matrix
 * transposes, one matrix transpose between the operand's contiguous
 * dimension (the matrix's columns) and the result's contiguous dimension
 * (its rows), repeated over every index of the remaining "batch" dimensions.
 *
 * The matrix goes by n x n blocks transposed in registers: n full vectors
 * are loaded along the operand's rows, transposed by log2(n) rounds of
 * two-input shuffles, and stored as n full vectors along the result's rows.
 * Blocks at the edges of the matrix use masked loads and stores.  When all
 * rows of a side start at the same offset within a cache line, the block
 * grid is shifted (per matrix, at run time) so that whole blocks start on
 * lines: every line is then read or written whole by one block, and a large
 * result is written with streaming stores, which need not read the lines
 * first.  Blocks are visited tile by tile; a chunk of the thread pool is one
 * tile of one matrix, so chunks write disjoint memory and are fixed by the
 * shape alone (where the grid lies within a chunk depends on the buffer's
 * address, which only decides which instructions move an element).  Where
 * both sides are temps of the JIT's arena (64-byte aligned) and every
 * matrix starts on a line, the grid lies on lines as it is; a matrix of
 * whole blocks then needs no masked path at all.  Full and partial blocks
 * share one shuffle network otherwise.  Both halve what LLVM selects: the
 * kernel of an attention's K^T (256 x 32 per head) went from 11 to about
 * 4 ms of instruction selection, and the model compiles in 40 to 55 ms
 * instead of 61 to 68.
 *
 * A loop fusion that only moves an operand's elements (reshapes, slices
 * and transposes, as an attention splits its heads off the qkv product and
 * transposes K) goes the same way when its result is such a matrix
 * transpose of a strided view of the operand (transpose_plan_view): the
 * slices only move where the operand's side starts, and each result of
 * the fusion gets a kernel.  A two-result one of a transformer's training
 * step went from 176 to 71 us (1 thread) and from 174 to 40 us (2
 * threads; the loop kernel wrote 32 x 64 results reading 64 lines each).
 *
 * Elements are moved as integers of their storage size: a transpose only
 * moves bits, so the result equals the interpreter's for any element type.
 * Matrices narrower than a block stay with the loop kernel (its strided
 * accesses then cover few lines), and so do permutations that keep the
 * contiguous dimension innermost (the loop kernel copies those in
 * contiguous runs already).
 */
#include <string.h>

#include "cpu/lower.h"
#include "codegen/transpose_plan.h"

enum {
  /* a tile is TILE_BLOCKS x TILE_BLOCKS blocks (256 x 256 elements of 4
     bytes): measured on 4096 x 4096 f32, smaller tiles touch too many pages
     per chunk and larger ones gain nothing */
  TILE_BLOCKS = 16,
  /* the block grid is shifted onto cache lines only along a dimension of at
     least this many blocks: along a short one the extra partial block costs
     more than the aligned lines gain */
  SHIFT_MIN_BLOCKS = 16,
};
/* results of at least this many bytes are written with streaming stores:
   they would not stay in the caches anyway, and a streaming store of a whole
   line skips reading the line first */
#define STREAM_MIN_BYTES ((int64_t)8 << 20)

static LLVMValueRef add(Cg *cg, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildNSWAdd(cg->b, a, b, ""); }
static LLVMValueRef mul(Cg *cg, LLVMValueRef a, int64_t k) { return LLVMBuildNSWMul(cg->b, a, cg_i64(cg, k), ""); }

/* What the kernel works with. */
typedef struct Emit {
  Cg *cg;
  const TransposePlan *p;
  LLVMValueRef src, dst;   /* the matrix's first element on each side */
  LLVMTypeRef et;          /* an integer of the element's size */
  LLVMTypeRef vt;          /* one block row */
  int n;                   /* block size */
  int lanes;               /* vector lanes per element */
  LLVMValueRef elem_of_lane; /* <element index of each lane> (i32) */
  bool nt;
  bool whole;              /* every block lies inside the matrix */
} Emit;

/* A shuffle of a and b taking element src[t] (of the 2n elements of a then
   b) into element t, each element being e->lanes lanes. */
static LLVMValueRef shuffle(Emit *e, LLVMValueRef a, LLVMValueRef b, const int *src) {
  Cg *cg = e->cg;
  LLVMValueRef mask[128];
  int k = 0;
  for (int t = 0; t < e->n; t++)
    for (int l = 0; l < e->lanes; l++) mask[k++] = LLVMConstInt(cg->t_i32, (unsigned)(src[t] * e->lanes + l), 0);
  return LLVMBuildShuffleVector(cg->b, a, b, LLVMConstVector(mask, (unsigned)k), "");
}

/* A call to llvm.masked.load / llvm.masked.store (overloaded on the vector
   and the pointer type). */
static LLVMValueRef masked_call(Emit *e, const char *name, LLVMValueRef *args, int nargs) {
  Cg *cg = e->cg;
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LLVMTypeRef tys[2] = {e->vt, cg->t_ptr};
  LLVMValueRef fn = LLVMGetIntrinsicDeclaration(cg->mod, id, tys, 2);
  return LLVMBuildCall2(cg->b, LLVMIntrinsicGetType(cg->ctx, id, tys, 2), fn, args, (unsigned)nargs, "");
}

/* <lanes whose element index lies in [lo, hi)>, lo and hi i32. */
static LLVMValueRef lane_mask(Emit *e, LLVMValueRef lo, LLVMValueRef hi) {
  Cg *cg = e->cg;
  unsigned nl = (unsigned)(e->n * e->lanes);
  LLVMTypeRef v32 = LLVMVectorType(cg->t_i32, nl);
  LLVMValueRef zero = LLVMConstNull(LLVMVectorType(cg->t_i32, nl));
  LLVMValueRef poison = LLVMGetPoison(v32);
  LLVMValueRef vlo = LLVMBuildShuffleVector(cg->b, LLVMBuildInsertElement(cg->b, poison, lo, LLVMConstInt(cg->t_i32, 0, 0), ""), poison, zero, "");
  LLVMValueRef vhi = LLVMBuildShuffleVector(cg->b, LLVMBuildInsertElement(cg->b, poison, hi, LLVMConstInt(cg->t_i32, 0, 0), ""), poison, zero, "");
  return LLVMBuildAnd(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGE, e->elem_of_lane, vlo, ""),
                      LLVMBuildICmp(cg->b, LLVMIntSLT, e->elem_of_lane, vhi, ""), "");
}

/* A block's bounds inside the matrix, relative to its corner (i32,
   clamped into [0, n]): rows [ra, rb), columns [ca, cb). */
typedef struct Bounds {
  LLVMValueRef ra, rb, ca, cb;
} Bounds;

/* The n rows of the block whose corner is (i, j) into row[].  A partial
   block (bd) reads only its rows [ra, rb) and columns [ca, cb), with masked
   loads: a row outside gets an empty mask, so nothing is read wherever its
   address points, and the lanes outside read as zero. */
static void load_rows(Emit *e, LLVMValueRef i, LLVMValueRef j, const Bounds *bd, LLVMValueRef *row) {
  Cg *cg = e->cg;
  LLVMValueRef cmask = bd ? lane_mask(e, bd->ca, bd->cb) : NULL;
  LLVMValueRef none = cmask ? LLVMConstNull(LLVMTypeOf(cmask)) : NULL;
  LLVMValueRef soff = add(cg, mul(cg, i, e->p->src_row), j);
  for (int r = 0; r < e->n; r++) {
    LLVMValueRef idx = add(cg, soff, cg_i64(cg, (int64_t)r * e->p->src_row));
    LLVMValueRef ptr = LLVMBuildGEP2(cg->b, e->et, e->src, &idx, 1, "");
    if (!bd) {
      row[r] = LLVMBuildLoad2(cg->b, e->vt, ptr, "");
      LLVMSetAlignment(row[r], 1);
      continue;
    }
    LLVMValueRef rc = LLVMConstInt(cg->t_i32, (unsigned)r, 0);
    LLVMValueRef in = LLVMBuildAnd(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGE, rc, bd->ra, ""),
                                   LLVMBuildICmp(cg->b, LLVMIntSLT, rc, bd->rb, ""), "");
    LLVMValueRef args[4] = {ptr, LLVMConstInt(cg->t_i32, 1, 0), LLVMBuildSelect(cg->b, in, cmask, none, ""),
                            LLVMConstNull(e->vt)};
    row[r] = masked_call(e, "llvm.masked.load", args, 4);
  }
}

/* Transposes the n rows in place: in round b, rows r and r + b (bit b of
   r clear) exchange their b x b off-diagonal sub-blocks, so that row bit b
   and column bit b of every element trade places; after log2(n) rounds
   the block is transposed. */
static void transpose_rows(Emit *e, LLVMValueRef *row) {
  int n = e->n;
  int lo[64], hi[64];
  for (int b = n / 2; b >= 1; b /= 2) {
    for (int t = 0; t < n; t++) {
      lo[t] = (t & b) ? n + t - b : t;
      hi[t] = (t & b) ? n + t : t + b;
    }
    for (int r = 0; r < n; r++) {
      if (r & b) continue;
      LLVMValueRef x = row[r], y = row[r + b];
      row[r] = shuffle(e, x, y, lo);
      row[r + b] = shuffle(e, x, y, hi);
    }
  }
}

/* The transposed rows to the result at corner (i, j); a partial block (bd)
   writes only the block's part inside the matrix, leaving everything else
   untouched. */
static void store_rows(Emit *e, LLVMValueRef i, LLVMValueRef j, const Bounds *bd, LLVMValueRef *row) {
  Cg *cg = e->cg;
  LLVMValueRef rmask = bd ? lane_mask(e, bd->ra, bd->rb) : NULL;
  LLVMValueRef none = rmask ? LLVMConstNull(LLVMTypeOf(rmask)) : NULL;
  LLVMValueRef doff = add(cg, mul(cg, j, e->p->dst_row), i);
  for (int r = 0; r < e->n; r++) {
    LLVMValueRef idx = add(cg, doff, cg_i64(cg, (int64_t)r * e->p->dst_row));
    LLVMValueRef ptr = LLVMBuildGEP2(cg->b, e->et, e->dst, &idx, 1, "");
    if (!bd) {
      LLVMValueRef st = LLVMBuildStore(cg->b, row[r], ptr);
      LLVMSetAlignment(st, 1);
      if (e->nt) {
        LLVMSetAlignment(st, 64);
        cg_set_nontemporal(cg, st);
      }
      continue;
    }
    LLVMValueRef rc = LLVMConstInt(cg->t_i32, (unsigned)r, 0);
    LLVMValueRef in = LLVMBuildAnd(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGE, rc, bd->ca, ""),
                                   LLVMBuildICmp(cg->b, LLVMIntSLT, rc, bd->cb, ""), "");
    LLVMValueRef args[4] = {row[r], ptr, LLVMConstInt(cg->t_i32, 1, 0), LLVMBuildSelect(cg->b, in, rmask, none, "")};
    masked_call(e, "llvm.masked.store", args, 4);
  }
}

/* Block size for elements of eb bytes: a block row of n elements fills a
   vector register (512 bits for 4- and 8-byte elements; smaller elements
   keep n at 16 so that the n rows fit in registers). */
static int block_size(int64_t eb) {
  switch (eb) {
  case 1: return 16;
  case 2: return 16;
  case 4: return 16;
  case 8: return 8;
  case 16: return 4;
  default: return 0;
  }
}

/* The first index (0 <= shift < n) at which an element pointer p + k lies
   on a 64-byte line, for elements of eb bytes, n of them per line. */
static LLVMValueRef align_shift(Emit *e, LLVMValueRef p, int64_t eb) {
  Cg *cg = e->cg;
  LLVMValueRef addr = LLVMBuildPtrToInt(cg->b, p, cg->t_i64, "");
  LLVMValueRef el = LLVMBuildUDiv(cg->b, addr, cg_i64(cg, eb), "");
  return LLVMBuildAnd(cg->b, LLVMBuildNeg(cg->b, el, ""), cg_i64(cg, e->n - 1), "");
}

/* The bounds of a partial block from rel = {ra, rb, ca, cb} (i64,
   relative to its corner), clamped into [0, n] so that they fit in i32. */
static void block_bounds(Emit *e, const LLVMValueRef *rel, Bounds *bd) {
  Cg *cg = e->cg;
  LLVMValueRef r32[4];
  for (int k = 0; k < 4; k++) r32[k] = LLVMBuildTrunc(cg->b, cg_clamp_i64(cg, rel[k], 0, e->n), cg->t_i32, "");
  bd->ra = r32[0], bd->rb = r32[1], bd->ca = r32[2], bd->cb = r32[3];
}

/* The blocks of rows [i0, i1) and columns [j0, j1) (corners on the block
   grid, possibly before the matrix): whole blocks inside the matrix go the
   fast way, the others masked. */
static void emit_tile(Emit *e, LLVMValueRef i0, LLVMValueRef i1, LLVMValueRef j0, LLVMValueRef j1) {
  Cg *cg = e->cg;
  int bs = e->n;
  const TransposePlan *p = e->p;
  LLVMValueRef fn_ = LLVMGetBasicBlockParent(LLVMGetInsertBlock(cg->b));
  Loop lb = loop_begin(cg, i0, i1, "bi");
  Loop lc = loop_begin(cg, j0, j1, "bj");
  if (e->whole) {
    LLVMValueRef row[64];
    load_rows(e, lb.iv, lc.iv, NULL, row);
    transpose_rows(e, row);
    store_rows(e, lb.iv, lc.iv, NULL, row);
    loop_end_by(cg, &lc, cg_i64(cg, bs));
    loop_end_by(cg, &lb, cg_i64(cg, bs));
    return;
  }
  /* the part of the block inside the matrix, relative to its corner */
  LLVMValueRef ra = LLVMBuildSub(cg->b, cg_i64(cg, 0), lb.iv, ""), rb = LLVMBuildSub(cg->b, cg_i64(cg, p->rows), lb.iv, "");
  LLVMValueRef ca = LLVMBuildSub(cg->b, cg_i64(cg, 0), lc.iv, ""), cb = LLVMBuildSub(cg->b, cg_i64(cg, p->cols), lc.iv, "");
  LLVMValueRef full = LLVMBuildAnd(
      cg->b,
      LLVMBuildAnd(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGE, lb.iv, cg_i64(cg, 0), ""),
                   LLVMBuildICmp(cg->b, LLVMIntSGE, rb, cg_i64(cg, bs), ""), ""),
      LLVMBuildAnd(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGE, lc.iv, cg_i64(cg, 0), ""),
                   LLVMBuildICmp(cg->b, LLVMIntSGE, cb, cg_i64(cg, bs), ""), ""),
      "");
  /* full and partial blocks differ in their loads and stores only: one
     shuffle network serves both (half the code for LLVM to select) */
  LLVMValueRef rel[4] = {ra, rb, ca, cb};
  LLVMBasicBlockRef lfull = LLVMAppendBasicBlockInContext(cg->ctx, fn_, "load_full");
  LLVMBasicBlockRef lpart = LLVMAppendBasicBlockInContext(cg->ctx, fn_, "load_part");
  LLVMBasicBlockRef bshuf = LLVMAppendBasicBlockInContext(cg->ctx, fn_, "shuffle");
  LLVMBasicBlockRef sfull = LLVMAppendBasicBlockInContext(cg->ctx, fn_, "store_full");
  LLVMBasicBlockRef spart = LLVMAppendBasicBlockInContext(cg->ctx, fn_, "store_part");
  LLVMBasicBlockRef bnext = LLVMAppendBasicBlockInContext(cg->ctx, fn_, "next");
  LLVMBuildCondBr(cg->b, full, lfull, lpart);
  LLVMValueRef rf[64], rp[64], row[64];
  LLVMPositionBuilderAtEnd(cg->b, lfull);
  load_rows(e, lb.iv, lc.iv, NULL, rf);
  LLVMBuildBr(cg->b, bshuf);
  LLVMPositionBuilderAtEnd(cg->b, lpart);
  Bounds bd;
  block_bounds(e, rel, &bd);
  load_rows(e, lb.iv, lc.iv, &bd, rp);
  LLVMBuildBr(cg->b, bshuf);
  LLVMPositionBuilderAtEnd(cg->b, bshuf);
  for (int r = 0; r < bs; r++) {
    row[r] = LLVMBuildPhi(cg->b, e->vt, "");
    LLVMValueRef in[2] = {rf[r], rp[r]};
    LLVMBasicBlockRef from[2] = {lfull, lpart};
    LLVMAddIncoming(row[r], in, from, 2);
  }
  transpose_rows(e, row);
  LLVMBuildCondBr(cg->b, full, sfull, spart);
  LLVMPositionBuilderAtEnd(cg->b, sfull);
  store_rows(e, lb.iv, lc.iv, NULL, row);
  LLVMBuildBr(cg->b, bnext);
  LLVMPositionBuilderAtEnd(cg->b, spart);
  block_bounds(e, rel, &bd);
  store_rows(e, lb.iv, lc.iv, &bd, row);
  LLVMBuildBr(cg->b, bnext);
  LLVMPositionBuilderAtEnd(cg->b, bnext);
  loop_end_by(cg, &lc, cg_i64(cg, bs));
  loop_end_by(cg, &lb, cg_i64(cg, bs));
}

/* The element size of t: 1 to 16 bytes, 0 for anything else. */
static int64_t elem_bytes(const Type *t) {
  int64_t n = type_num_elements(t), bytes = type_bytes(t);
  if (n <= 0 || bytes % n != 0) return 0;
  return block_size(bytes / n) ? bytes / n : 0;
}

static void emit_plan(Lower *L, const TransposePlan *p, int64_t eb, int64_t bytes, Value *src, Value *dst);
static bool lower_transpose_fusion(Lower *L, Op *op);

bool lower_transpose(Lower *L, Op *op) {
  if (op->kind == OP_CALL) return lower_transpose_fusion(L, op);
  if (op->kind != OP_TRANSPOSE || op->nopnds != 1 || op->nres != 1) return false;
  const Type *it = op->opnds[0]->type, *ot = op->res[0].type;
  if (it->kind != TY_TENSOR || ot->kind != TY_TENSOR || it->quant || ot->quant) return false;
  if (it->elem != ot->elem || it->rank != ot->rank || it->rank > CG_MAX_RANK) return false;
  int rank = it->rank;
  int64_t *perm;
  if (op_attr_ints(op, "permutation", &perm) != rank) return false;
  bool seen[CG_MAX_RANK] = {0};
  for (int i = 0; i < rank; i++) {
    if (perm[i] < 0 || perm[i] >= rank || seen[perm[i]] || ot->dims[i] != it->dims[perm[i]]) return false;
    seen[perm[i]] = true;
  }
  int64_t eb = elem_bytes(it);
  TransposePlan p;
  if (!eb || !transpose_plan(it->dims, perm, rank, &p) || p.rows < block_size(eb) || p.cols < block_size(eb))
    return false;
  if (buffers_lookup(L->buffers, &op->res[0], NULL) == BUF_NONE ||
      buffers_lookup(L->buffers, op->opnds[0], NULL) == BUF_NONE)
    return false;
  emit_plan(L, &p, eb, type_bytes(it), op->opnds[0], &op->res[0]);
  return true;
}

/* A loop fusion whose every result only moves an operand's elements
   (reshapes, slices, transposes: transpose_plan_view) into a matrix
   transpose, as the qkv product's heads of an attention are split and
   transposed: a kernel of blocks per result, the operand's side starting
   at the view's offset. */
static bool lower_transpose_fusion(Lower *L, Op *op) {
  const char *kind = op_attr_str(op, "fusion_kind"), *name = op_attr_str(op, "callee");
  if (!kind || strcmp(kind, "kLoop") != 0 || !name) return false;
  Func *callee = module_find_func(L->cg.m, name);
  Op *ret = callee ? block_terminator(callee->body) : NULL;
  enum { MAX_ROOTS = 8 };
  if (!ret || ret->nopnds != op->nres || op->nres > MAX_ROOTS || op->nopnds != callee->body->nargs) return false;
  TransposePlan plan[MAX_ROOTS];
  int arg[MAX_ROOTS];
  int64_t eb[MAX_ROOTS];
  for (int r = 0; r < op->nres; r++) {
    const Type *ot = op->res[r].type;
    if (ot->kind != TY_TENSOR || ot->quant || !(eb[r] = elem_bytes(ot))) return false;
    if (!transpose_plan_view(ret->opnds[r], callee->body->args, callee->body->nargs, &arg[r], &plan[r])) return false;
    if (plan[r].rows < block_size(eb[r]) || plan[r].cols < block_size(eb[r])) return false;
    /* blocks read and write whole rows: never computed in place */
    if (buffers_lookup(L->buffers, &op->res[r], NULL) == BUF_NONE ||
        buffers_lookup(L->buffers, op->opnds[arg[r]], NULL) == BUF_NONE ||
        !lower_buffers_apart(L, &op->res[r], op->opnds[arg[r]]))
      return false;
  }
  for (int r = 0; r < op->nres; r++) emit_plan(L, &plan[r], eb[r], type_bytes(op->res[r].type), op->opnds[arg[r]], &op->res[r]);
  lower_count_fusion(L);
  return true;
}

/* Whether v's storage starts on a 64-byte line wherever the program runs:
   a temp of the JIT's arena (64-byte aligned, every temp at a multiple of
   64); an ahead-of-time object's caller provides the arena. */
static bool on_line(Lower *L, Value *v) {
  int64_t off;
  return !L->aot && buffers_lookup(L->buffers, v, &off) == BUF_TEMP && off % 64 == 0;
}

/* Whether every matrix of p starts on a line on both sides (elements of eb
   bytes), given that both buffers do. */
static bool plan_on_lines(const TransposePlan *p, int64_t eb) {
  if ((p->src_off * eb) % 64 != 0) return false;
  for (int d = 0; d < p->nbatch; d++)
    if ((p->bsrc[d] * eb) % 64 != 0 || (p->bdst[d] * eb) % 64 != 0) return false;
  return true;
}

/* The kernel moving src's elements to dst by plan p (elements of eb
   bytes, bytes of them in all). */
static void emit_plan(Lower *L, const TransposePlan *pp, int64_t eb, int64_t bytes, Value *src_v, Value *dst_v) {
  const TransposePlan p = *pp;
  int bs = block_size(eb);
  Cg *cg = &L->cg;
  bool nt = bytes >= STREAM_MIN_BYTES;
  /* When every row of a side starts at the same offset within a cache line,
     the block grid on that side is shifted to start on a line (per matrix,
     at run time), and one more block (partial) takes what comes before. */
  int64_t shift_min = (int64_t)SHIFT_MIN_BLOCKS * bs;
  bool shift_r = (p.dst_row * eb) % 64 == 0 && bs * eb == 64 && p.rows >= shift_min;
  bool shift_c = (p.src_row * eb) % 64 == 0 && bs * eb == 64 && p.cols >= shift_min;
  /* Where both sides are known to start on lines, the grid already lies on
     them: no shift, and with the matrix a whole number of blocks no block
     is partial, so the kernel has no masked path (a third of the code) */
  bool lines = on_line(L, src_v) && on_line(L, dst_v) && plan_on_lines(&p, eb);
  /* ... and every whole block's row store is then one whole line */
  bool nt_lines = lines && nt && (p.dst_row * eb) % 64 == 0 && bs * eb == 64;
  if (lines) shift_r = shift_c = false;
  bool whole = !shift_r && !shift_c && p.rows % bs == 0 && p.cols % bs == 0;
  int64_t row_blocks = (p.rows + bs - 1) / bs + shift_r, col_blocks = (p.cols + bs - 1) / bs + shift_c;
  int64_t tr = TILE_BLOCKS, tc = TILE_BLOCKS;
  int64_t row_tiles = (row_blocks + tr - 1) / tr, col_tiles = (col_blocks + tc - 1) / tc;

  LLVMBasicBlockRef at = LLVMGetInsertBlock(cg->b);
  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  Emit e = {0};
  e.cg = cg;
  e.p = &p;
  e.n = bs;
  e.whole = whole;
  e.et = LLVMIntTypeInContext(cg->ctx, (unsigned)(eb * 8));
  int64_t lane_bytes = eb < 8 ? eb : 8;
  e.lanes = (int)(eb / lane_bytes);
  e.vt = LLVMVectorType(LLVMIntTypeInContext(cg->ctx, (unsigned)(lane_bytes * 8)), (unsigned)(bs * e.lanes));
  LLVMValueRef eol[128];
  for (int l = 0; l < bs * e.lanes; l++) eol[l] = LLVMConstInt(cg->t_i32, (unsigned)(l / e.lanes), 0);
  e.elem_of_lane = LLVMConstVector(eol, (unsigned)(bs * e.lanes));
  /* chunk = (batch index, tile row, tile column) */
  LLVMValueRef tj = LLVMBuildURem(cg->b, chunk, cg_i64(cg, col_tiles), "");
  LLVMValueRef rest = LLVMBuildUDiv(cg->b, chunk, cg_i64(cg, col_tiles), "");
  LLVMValueRef ti = LLVMBuildURem(cg->b, rest, cg_i64(cg, row_tiles), "");
  LLVMValueRef bi = LLVMBuildUDiv(cg->b, rest, cg_i64(cg, row_tiles), "");
  LLVMValueRef soff = cg_i64(cg, p.src_off), doff = cg_i64(cg, 0);
  for (int d = p.nbatch - 1; d >= 0; d--) {
    LLVMValueRef x = d == 0 ? bi : LLVMBuildURem(cg->b, bi, cg_i64(cg, p.bdim[d]), "");
    if (d > 0) bi = LLVMBuildUDiv(cg->b, bi, cg_i64(cg, p.bdim[d]), "");
    soff = add(cg, soff, mul(cg, x, p.bsrc[d]));
    doff = add(cg, doff, mul(cg, x, p.bdst[d]));
  }
  LLVMValueRef src = kernel_load_ptr(cg, ptrs, 0), dst = kernel_load_ptr(cg, ptrs, 1);
  e.src = LLVMBuildGEP2(cg->b, e.et, src, &soff, 1, "");
  e.dst = LLVMBuildGEP2(cg->b, e.et, dst, &doff, 1, "");
  /* block k of the rows starts at base_r + k * bs (base_r = al - bs when
     shifted: block 0 is the partial one before the first line); rows line
     up with the result's lines, columns with the operand's */
  LLVMValueRef base_r = cg_i64(cg, 0), base_c = cg_i64(cg, 0);
  if (shift_r) base_r = LLVMBuildSub(cg->b, align_shift(&e, e.dst, eb), cg_i64(cg, bs), "");
  if (shift_c) base_c = LLVMBuildSub(cg->b, align_shift(&e, e.src, eb), cg_i64(cg, bs), "");
  LLVMValueRef i0 = add(cg, base_r, mul(cg, ti, tr * bs)), j0 = add(cg, base_c, mul(cg, tj, tc * bs));
  LLVMValueRef i1 = cg_min64(cg, add(cg, i0, cg_i64(cg, tr * bs)), cg_i64(cg, p.rows));
  LLVMValueRef j1 = cg_min64(cg, add(cg, j0, cg_i64(cg, tc * bs)), cg_i64(cg, p.cols));
  if (nt_lines) {
    e.nt = true;
    emit_tile(&e, i0, i1, j0, j1);
    LLVMBuildFence(cg->b, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
  } else if (shift_r && nt) {
    /* streaming stores want whole aligned lines: with the grid shifted,
       every store of a whole block is one, unless the buffer is not even
       aligned to its elements */
    LLVMValueRef first = LLVMBuildGEP2(cg->b, e.et, e.dst, &base_r, 1, "");
    LLVMValueRef mis = LLVMBuildAnd(cg->b, LLVMBuildPtrToInt(cg->b, first, cg->t_i64, ""), cg_i64(cg, 63), "");
    LLVMValueRef fn_ = LLVMGetBasicBlockParent(LLVMGetInsertBlock(cg->b));
    LLVMBasicBlockRef bnt = LLVMAppendBasicBlockInContext(cg->ctx, fn_, "nt");
    LLVMBasicBlockRef bplain = LLVMAppendBasicBlockInContext(cg->ctx, fn_, "plain");
    LLVMBasicBlockRef bdone = LLVMAppendBasicBlockInContext(cg->ctx, fn_, "done");
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, mis, cg_i64(cg, 0), ""), bnt, bplain);
    LLVMPositionBuilderAtEnd(cg->b, bnt);
    e.nt = true;
    emit_tile(&e, i0, i1, j0, j1);
    /* streaming stores are weakly ordered: a full fence makes them visible
       before the pool reports the chunk done */
    LLVMBuildFence(cg->b, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
    LLVMBuildBr(cg->b, bdone);
    LLVMPositionBuilderAtEnd(cg->b, bplain);
    e.nt = false;
    emit_tile(&e, i0, i1, j0, j1);
    LLVMBuildBr(cg->b, bdone);
    LLVMPositionBuilderAtEnd(cg->b, bdone);
  } else {
    emit_tile(&e, i0, i1, j0, j1);
  }
  LLVMBuildRetVoid(cg->b);
  LLVMPositionBuilderAtEnd(cg->b, at);
  Value *bufs[2] = {src_v, dst_v};
  call_kernel(L, fn, p.batch * row_tiles * col_tiles, bufs, 2);
}
