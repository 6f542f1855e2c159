/*
 * kernel.h - what the CPU's and the GPU's kernel emitters share beyond the
 * elemental generator (cg.h): the description of a fused kernel, the
 * bodies of reductions, and the index arithmetic of gather and scatter.
 * Each backend decides how its kernels are launched, blocked and ordered
 * (cpu/lower.h, gpu/kernels.h); these only compute values and indices.
 */
#ifndef XLAC_CODEGEN_KERNEL_H
#define XLAC_CODEGEN_KERNEL_H

#include "codegen/cg.h"
#include "passes/buffers.h"

/* A fused kernel: the values it reads from buffers (inputs) and those it
   computes (roots: a loop's results, or the results of reduces). */
typedef struct KernelSpec {
  Value **inputs;
  int ninputs;
  Value **roots; /* values computed (for loops) or reduce results (for reductions) */
  int nroots;
  Op **reduces;  /* reduction kernels: the reduce op of each root */
} KernelSpec;

/* The CPU's unit of parallel work, in elements; problem sizes, never
   thread counts, decide the chunks (also the size from which a scatter
   splits its columns). */
enum { CHUNK_ELEMS = 1 << 16 };

/* ---- reduction bodies (reduce_body.c) ---- */
/* The single binary op (add, multiply, max, min, and, or, xor) of a
   reduction body that combines its two arguments, or NULL. */
Op *simple_reducer(const Op *reduce);
/* The identity of a simple reducer's op for et (a compute-type constant):
   combining with it changes nothing (float add uses -0). */
LLVMValueRef reduce_identity(Cg *cg, OpKind kind, ElemType et);
/* Reductions that can share one kernel: same input shape and dimensions,
   and everything feeding the reduces elemental. */
bool reduce_kernel_ok(const KernelSpec *k);
/* A reduction body (reduce, reduce_window: n inputs, n inits, n results)
   evaluated on compute-type scalars inside kernel fn: out = body(acc, x).
   The accumulators and elements are stored into scalar slots (allocas
   that SROA turns back into registers) and every returned value is
   computed from them before any accumulator is overwritten, as the
   interpreter runs the region. */
typedef struct ReduceBody {
  const Op *op;
  int n;
  LLVMValueRef slot[32]; /* argument storage: accumulators, then elements */
  KernelIO io;
} ReduceBody;
bool reduce_body_ok(const Op *op);
void reduce_body_init(Cg *cg, LLVMValueRef fn, const Op *op, ReduceBody *b);
void reduce_body_release(ReduceBody *b);
ReduceBody *reduce_body_new(Cg *cg, LLVMValueRef fn, const Op *op);
void reduce_body_apply(Cg *cg, ReduceBody *b, LLVMValueRef *acc, LLVMValueRef *x, LLVMValueRef *out);
void reduce_body_free(ReduceBody *b);

/* ---- gather and scatter (scatter_index.c) ---- */
/* A region of nargs scalar arguments typed like `types`, returning nres
   scalars typed like `rtypes`, that the elemental generator can compute. */
bool region_elemental(Block *b, int nargs, const Type *const *types, int nres, const Type *const *rtypes);
/* win[d]: the operand dimension that dimension d of a gather result (of
   scatter updates) runs along when d is an offset (window) dimension, else
   -1. */
void window_dims(const Type *t, const int64_t *offset, int noffset, const int64_t *collapsed, int ncollapsed,
                 const int64_t *obatch, int nobatch, int *win);
/* How many trailing dimensions of t run along the operand xt's trailing
   dimensions such that consecutive elements of t are consecutive operand
   elements. */
int trailing_run(const Type *t, const Type *xt, const int *win, const int64_t *started, int nstarted);

/* scatter's dimension numbers and the CPU kernel's blocking */
enum { MAX_SCATTER = 8 };
typedef struct ScatterDims {
  int64_t *window, *inserted, *obatch, *ibatch, *map;
  int nwindow, ninserted, nobatch, nibatch, nmap;
  int64_t ivd;
  /* the run: the trailing `run` update dimensions (0: none), along the
     operand's trailing dimensions from k0 = rank - run on; block = operand
     elements per index of the dimensions before k0; inner = elements per
     step along k0.  Chunk c owns columns [c * cols, (c + 1) * cols) of
     every block. */
  int run;
  int64_t inner, block, cols, nchunks;
} ScatterDims;
/* The interpreter's checks of a scatter; fills s. */
bool scatter_ok(const Op *op, ScatterDims *s);
/* The operand index (full) that update element uidx of scatter op lands
   on: its start indices read from ind (not clamped), plus batch and window
   coordinates.  Returns whether its update window fits in the operand
   (else the whole window is skipped, as in the interpreter). */
LLVMValueRef scatter_operand_index(Cg *cg, const Op *op, const ScatterDims *s, LLVMValueRef ind, LLVMValueRef *uidx,
                                   LLVMValueRef *full);
/* result[off] = body(result[off], update[uoff]) for every operand pair
   (res, upd: element pointers of the results and updates); every new value
   is computed before any is stored. */
void scatter_apply(Cg *cg, Op *op, LLVMValueRef *res, LLVMValueRef *upd, LLVMValueRef off, LLVMValueRef uoff);
/* The same with the updates' values given (computed by the kernel). */
void scatter_apply_values(Cg *cg, Op *op, LLVMValueRef *res, LLVMValueRef off, LLVMValueRef *uvals);

/* What computes an update element by element where a scatter's or an
   in-place dynamic_update_slice's kernel computes it itself: a loop
   fusion's computation (its arguments, in the order of the op's operands,
   and root), or one op (for a scatter also an index-mapping one: an
   embedding bag's gradient broadcast over the bag). */
enum { MAX_UPDATE_INPUTS = 64 };
typedef struct UpdateSrc {
  Op *op; /* the producer; NULL: the updates are read */
  Value **inputs;
  int ninputs;
  Value *root;
} UpdateSrc;
/* What computes op P's one result element by element: a kLoop fusion's
   computation, or P itself when it is elementwise (with any_op: any op
   but a call or a constant) and the elemental generator computes it. */
bool elemental_producer(Module *m, Op *P, bool any_op, UpdateSrc *u);
struct BufferAssignment;
/* The producer of the one-operand scatter sc's updates when its kernel
   computes them (the producer then has no kernel and no buffer): an op at
   most a few ops before sc in its block, whose result is sc's update
   alone and dies there, when nothing between them uses that result or
   writes where the producer's operands live, and none of those lives in
   the storage sc writes (its operand's, when it updates that in place).
   alias_param/nalias: the backend's donation pairs (buffers_apart). */
bool scatter_update_src(Module *m, const struct BufferAssignment *bufs, const int *alias_param, int nalias, Op *sc,
                        UpdateSrc *u);
/* The update at uidx (every update dimension) from the producer's
   operands' pointers. */
LLVMValueRef scatter_update_value(Cg *cg, const UpdateSrc *u, LLVMValueRef *ptrs, LLVMValueRef *uidx);
/* Whether op is such a producer, of a scatter shortly after it. */
bool scatter_update_taken(Module *m, const struct BufferAssignment *bufs, const int *alias_param, int nalias, Op *op);

/* ---- between the pipeline and lowering ---- */
/* custom_calls.c: resolves every custom_call reachable from f: errors at
   the ops whose target has no implementation (naming it and the
   registered ones); pass-through annotations (Sharding, ...) removed.
   With aot, unknown targets are not errors (the linking program's C
   functions, or a backend that checks them itself). */
bool resolve_custom_calls(Module *m, Func *f, bool aot);
/* inplace.c: whether result r of f can be computed into parameter p's
   storage (see there). */
bool result_in_place(Module *m, Func *f, const BufferAssignment *bufs, int r, int p);
/* Whether dynamic_update_slice op is computed in place (its result in its
   operand's storage, passes/buffers.c) in a form whose window alone a
   kernel writes: native types, the update no larger than the operand, one
   integer scalar start per dimension (or, with vector_starts, one vector
   of them: *vec). */
bool dus_in_place(const BufferAssignment *bufs, const Op *op, bool vector_starts, bool *vec);

#endif
