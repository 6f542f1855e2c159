/*
 * lower.h - the lowering of a function's top-level ops to LLVM, shared by
 * cpu.c (buffers, the entry function, the interpreter thunk) and the kernel
 * emitters (kernel_*.c).  Each emitter produces a kernel function
 *   void kernel(int64_t chunk, void **ptrs)
 * where ptrs holds the buffers of the kernel's inputs then its outputs, and
 * reports how many chunks cover the work; chunks are fixed by the problem
 * size, never by the thread count.
 */
#ifndef XLAC_CPU_LOWER_H
#define XLAC_CPU_LOWER_H

#include "codegen/kernel.h"
#include "cpu/cpu.h"
#include "passes/buffers.h"
#include "xlacrt.h"

struct CpuRun;       /* one execution (cpu.c) */
struct HostCallSite; /* a prepared host-function call (interp/hostcall.h) */

/* ---- lowering state ---- */
typedef struct Lower {
  Cg cg;
  CpuExecutable *exe;
  struct BufferAssignment *buffers; /* where every value lives (passes/buffers.h) */
  LLVMValueRef fn, p_params, p_results, p_temp, p_pool, p_exe;
  VEC(struct Fallback) fallback;
  VEC(Op *) loops;       /* compiled while loops, for their stop reports */
  VEC(struct HostCallSite *) custom_calls; /* host-function calls, by the index they pass */
  LLVMValueRef p_cancel; /* the cancel flag, loaded once in the entry block */
  /* products in loop bodies whose B operand was packed before the loop
     (lower_loop_prepack): the op (a dot_general or its kOutput fusion) ->
     1 + the temp offset of the packed copy */
  PtrMap prepacked;
  /* kernels whose accesses carry alias scopes (kernel_scopes in cpu.c):
     the kernel function -> 1, or 2 once a second call site made them go */
  PtrMap scoped;
  /* CpuOptions.alias_param: result r may be computed into parameter
     alias_param[r]'s storage */
  const int *alias_param;
  int nalias;
  /* the end of the scratch in use (lower_scratch): the top-level op being
     lowered takes scratch from here on and gives it back when done */
  int64_t scratch_top;
  CpuAot *aot;           /* ahead-of-time compilation (else the JIT) */
  /* CpuOptions.profile: the ops timed so far and how deep in regions each
     is (depth is lower_block's nesting while lowering) */
  bool profile;
  int depth;
  VEC(Op *) prof_ops;
  VEC(int) prof_depth;
} Lower;

/* ---- kernels ---- */
/* Pointer to a value's buffer, in the entry function. */
LLVMValueRef value_ptr(Lower *L, Value *v);
/* An alloca'd array of the buffers of vals, filled in the entry function. */
LLVMValueRef ptr_array(Lower *L, Value *const *vals, int n);
/* The same for pointers already computed in the entry function. */
LLVMValueRef ptr_array_of(Lower *L, LLVMValueRef *ptrs, int n);
/* Starts a kernel function; the builder is left in its entry block.  Save
   LLVMGetInsertBlock(cg->b) before and position the builder back there
   afterwards: the entry function's current block is not always its last
   (control flow). */
LLVMValueRef kernel_new(Lower *L, LLVMValueRef *chunk, LLVMValueRef *ptrs);
LLVMValueRef kernel_load_ptr(Cg *cg, LLVMValueRef arr, int i);
/* Calls kernel kfn over nchunks chunks (on the pool when more than one). */
void call_kernel(Lower *L, LLVMValueRef kfn, int64_t nchunks, Value *const *bufs, int nbufs);
/* The same with pointers already computed in the entry function. */
void call_kernel_ptrs(Lower *L, LLVMValueRef kfn, int64_t nchunks, LLVMValueRef *ptrs, int n);
/* Whether a and b certainly live in different memory (kernel_scopes). */
bool lower_buffers_apart(Lower *L, Value *a, Value *b);
/* The same, with the value whose buffer each pointer is (NULL: another
   pointer), for the kernel's alias scopes (cpu.c, kernel_scopes). */
void call_kernel_vals(Lower *L, LLVMValueRef kfn, int64_t nchunks, LLVMValueRef *ptrs, Value *const *vals, int n);
/* The same with op's operands then its results as the buffers. */
void call_kernel_op(Lower *L, LLVMValueRef kfn, int64_t nchunks, Op *op);
/* Scratch of `bytes` in the temp arena for the op being lowered (widened
   operands, packed kernels, products inside fusions): past everything
   buffer assignment placed, so it overlaps no buffer, and used only while
   the top-level op that asks for it runs (inside a loop: the whole loop),
   so the next top-level op reuses it.  Its offset in the arena. */
int64_t lower_scratch(Lower *L, int64_t bytes);
/* The address of byte `off` of the temp arena, in the entry function. */
LLVMValueRef lower_temp_ptr(Lower *L, int64_t off);
/* Counts a fusion compiled natively (CpuStats.fusions). */
void lower_count_fusion(Lower *L);

/* kernel_loop.c: elementwise and index-mapping fusions */
LLVMValueRef emit_loop_kernel(Lower *L, const KernelSpec *k, int64_t *nchunks);
/* kernel_reduce.c: reductions and reduction fusions */
LLVMValueRef emit_reduce_kernel(Lower *L, const KernelSpec *k, int64_t *nchunks);
/* The reductions of k evaluated one output at a time inside another
   kernel (the stages of a row fusion), with the blocking and order of
   k's own kernel: ok when each output is one block.  input_ptrs (copied)
   are the base pointers of k's inputs at the point of use; emit leaves the
   compute-type results of output o (its linear index) in res. */
typedef struct RowReduce RowReduce;
bool row_reduce_ok(const KernelSpec *k);
RowReduce *row_reduce_new(Lower *L, const KernelSpec *k, LLVMValueRef fn, LLVMValueRef *input_ptrs);
void row_reduce_emit(RowReduce *rr, LLVMValueRef o, LLVMValueRef *res);
void row_reduce_free(RowReduce *rr);
/* Ops with kernels of their own.  Each returns false (emitting nothing)
   when it does not handle op, and the generic paths are tried next.
   kernel_dot.c: dot_general, dot fusions (kOutput), convolution.
   kernel_index.c: gather, scatter, dynamic slices, sort, and friends. */
bool lower_dot(Lower *L, Op *op);
/* BufferOptions.reads_view for the cpu backend: a product that goes to
   the runtime GEMM as it is (f32 or f64, not tiny, no vector) reads an
   operand computed by a loop fusion of reshapes, slices and transposes
   through that view of the fusion's operand. */
bool cpu_reads_view(Module *m, const Op *op, int r, const Op *user, int *src);
/* Before a while loop (its state already in place): packs, once, the B
   operand of each GEMM in the body that the loop cannot change, for
   lower_dot to multiply by in every iteration. */
void lower_loop_prepack(Lower *L, Op *loop);
bool lower_indexing(Lower *L, Op *op);
/* Whether op computes the updates of the scatter right after it, which
   the scatter's kernel computes itself: op then emits nothing. */
bool scatter_takes_update(Lower *L, Op *op);
/* kernel_transpose.c: large transposes of the last two dimensions, tiled */
bool lower_transpose(Lower *L, Op *op);
/* kernel_window.c: reduce_window, select_and_scatter. */
bool lower_window(Lower *L, Op *op);
/* kernel_linalg.c: cholesky, triangular_solve, fft (runtime calls). */
bool lower_linalg(Lower *L, Op *op);
/* kernel_random.c: rng, rng_bit_generator, replica/partition ids, tokens. */
bool lower_random(Lower *L, Op *op);
/* kernel_ragged.c: chlo.ragged_dot (per-group GEMMs in the runtime). */
bool lower_ragged_dot(Lower *L, Op *op);

/* kernel_custom.c: custom calls into registered host functions, through
   the runtime entry xlac_rt_custom_call (operand then result pointers);
   AllocateBuffer.  Other targets (check.*, TopK, shape_assertion) run in
   the interpreter thunk. */
bool lower_custom_call(Lower *L, Op *op);
void lower_free_custom_calls(struct HostCallSite **sites, int n);
void xlac_rt_custom_call(struct CpuRun *run, int64_t index, void **ptrs);
/* cpu.c: what the runtime entries outside it need from an execution. */
Interp *cpu_run_interp(struct CpuRun *run);
struct HostCallSite *cpu_run_custom_call(struct CpuRun *run, int64_t index);

/* kernel_collective.c: collectives and send/recv as calls of
   xlacrt_collective on the execution's communicator, which the runtime
   entries below hand to generated code and report failures of. */
bool lower_collective(Lower *L, Op *op);
xlacrt_comm *xlac_rt_comm(struct CpuRun *run);
void xlac_rt_comm_failed(struct CpuRun *run, xlacrt_comm *c, int32_t rc, int32_t file, int32_t off);

/* aot.c: after lowering for ahead-of-time compilation: names the entry,
   makes everything else internal, adds the descriptor, optimizes for the
   target and writes the object(s) into L->aot.  False with errors
   reported at f. */
bool aot_finish(Lower *L, Func *f, int64_t temp_bytes, int nloops);

/* kernel_row.c: row fusions (softmax, layernorm: a kInput fusion whose
   body calls its stages), one kernel running every stage row by row. */
bool lower_row(Lower *L, Op *op);

/* Runtime functions generated code may call (symbols.c): name, address. */
typedef struct RuntimeSymbol {
  const char *name;
  void *addr;
} RuntimeSymbol;
const RuntimeSymbol *runtime_symbols(int *n);


#endif
