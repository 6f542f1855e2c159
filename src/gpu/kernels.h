/*
 * kernels.h - internals shared by the GPU backend's kernel emitters: the
 * lowering state of one compilation (gpu.c), the launches it plans, and
 * the helpers every kernel uses (thread indices, strided loops, barriers,
 * warp shuffles, shared memory).
 *
 * A kernel is `ptx_kernel void xlac_kN_S(ptr addrspace(1) buf..., i64 n)`
 * (N its number, S the executable's number in the process):
 * its buffers (operands, results, scratch) in the order of its launch's
 * bufs, then one integer.  Work is cut into independent units that the
 * kernel walks in a grid-stride loop (by thread for loops, by block for
 * reductions and products), so the grid the driver picks changes how fast
 * a kernel runs, never what it computes.
 */
#ifndef XLAC_GPU_KERNELS_H
#define XLAC_GPU_KERNELS_H

#include "codegen/kernel.h"
#include "gpu/gpu.h"
#include "passes/buffers.h"

enum { PTX_KERNEL_CC = 71, GPU_LOOP_THREADS = 256, GPU_BLOCKS_PER_SM = 32, GPU_WARP = 32 };
/* A flat loop kernel's thread moves up to GPU_VECTOR_BYTES of each buffer
   by one vector load or store, at most GPU_VECTOR_MAX elements, and at
   most GPU_VECTOR_WORK ops for all of them (a transcendental counting
   GPU_TRANSCENDENTAL_WORK). */
enum { GPU_VECTOR_BYTES = 16, GPU_VECTOR_MAX = 8, GPU_VECTOR_WORK = 128, GPU_TRANSCENDENTAL_WORK = 16 };

/* Where a top-level value lives on the device: kind PARAM, RESULT, TEMP
   or CONST; offset the PARAM/RESULT index, the TEMP byte offset, or the
   CONST index into GpuLower.consts. */
typedef BufferPlace GpuBuf;

/* What a launch passes as its integer: n, or an id of the process (the
   replica or partition of a grid) that runs the execution. */
typedef enum GpuIdArg { ID_NONE, ID_REPLICA, ID_PARTITION } GpuIdArg;

typedef struct GpuLaunch {
  int kernel;    /* index into the kernel names */
  int64_t n;     /* the kernel's integer argument */
  int64_t units; /* blocks of work: the grid, capped by the device */
  int block;     /* threads per block; 0: GPU_LOOP_THREADS (or the device's maximum) */
  GpuIdArg id;   /* n is instead the id of the process running it */
  int align;     /* bytes every buffer's address must be a multiple of (vector accesses); 0: none */
  int nbufs;
  GpuBuf *bufs;
  const Op *op;  /* what it computes (profiles); NULL: a copy */
} GpuLaunch;

/* What an execution does, in order: kernel launches, and loops and
   branches driven from the host, which reads their predicate or index back
   from the device (WHILE: sub[0] the cond, sub[1] the body; BRANCH: one
   list per branch, an out-of-range index taking the last); host steps
   (HOST: an op the interpreter runs on copies of its operands, host.c;
   PARALLEL: interpreter.run_parallel, whose programs, compiled with the
   executable, run as the processes of a grid, gpu.c); a product through
   cuBLASLt (BLAS: blas the call, bufs its buffers, sub[0] the launch of
   our own kernel for it, run when cuBLASLt declines at run time). */
typedef enum GpuStepKind {
  STEP_LAUNCH,
  STEP_WHILE,
  STEP_BRANCH,
  STEP_CUSTOM,
  STEP_HOST,
  STEP_PARALLEL,
  STEP_BLAS
} GpuStepKind;
typedef struct GpuStep GpuStep;
typedef VEC(GpuStep) GpuSteps;
struct GpuStep {
  GpuStepKind kind;
  int launch;      /* LAUNCH: index into the launches */
  GpuBuf pred;     /* WHILE: the cond's result; BRANCH: the predicate or index */
  ElemType pred_et;
  bool counted;    /* WHILE: runs its body `trips` times, never reading the cond */
  bool graph;      /* WHILE (counted): the body, launches only, captured into a CUDA graph launched `trips` times */
  int64_t trips;
  int nsub;
  GpuSteps *sub;
  /* CUSTOM: the target's function (xlac_gpu_custom_call_fn), its name,
     the backend_config, and the operands' then results' buffers */
  void (*custom)(void);
  char *name, *opaque;
  GpuBuf *bufs;
  int nbufs;
  Op *op; /* HOST, PARALLEL: the op the interpreter runs (host.c), bufs as CUSTOM (none for a token); the others: the op (profiles) */
  struct GpuBlasCall *blas; /* BLAS */
};
void gpu_steps_free(GpuSteps *s);

typedef struct GpuLower {
  Cg cg;
  GpuExecutable *exe;
  BufferAssignment *buffers;
  VEC(char *) names;
  VEC(GpuLaunch) launches;
  VEC(const Literal *) consts;
  GpuSteps *cur;         /* where launches go (a block's steps) */
  int copy_kernel[2];    /* the copy kernels (4-byte words, bytes), once made; -1 before */
  int nfns;              /* kernels made (their names) */
  unsigned serial;       /* this executable's number in the process (kernel names) */
  int nfusions;          /* fusions compiled (GpuStats) */
  int nhost;             /* host steps (GpuStats) */
  int nloops, ncounted;  /* while loops, counted ones (GpuStats) */
  Func *program;         /* the run_parallel program being lowered (NULL: the entry) */
  const int *alias_param;/* GpuOptions's, for the entry's results computed in place */
  int nalias;
  int ret_copies;        /* launches copying results into their buffers (not counted as kernels) */
  int64_t scratch_bytes; /* the largest scratch any launch needs (after the temps) */
  int ngemms, nblas;     /* products through the tiled kernel, of which planned for cuBLASLt (GpuStats) */
  int nblas_apart;       /* products and convolutions with their epilogue in a kernel of its own (GpuStats) */
  int nconv_blas;        /* convolutions planned for cuBLASLt (GpuStats) */
  int ngraphs;           /* counted loops whose body runs as a CUDA graph (GpuStats) */
  bool blas;             /* cuBLASLt is there for the device compiled for (cublaslt.h) */
  bool failed;
  /* kernels whose buffer parameters carry noalias/readonly (gpu.c,
     mark_params): the function -> 1, or 2 once a launch with other
     buffers made them go */
  PtrMap marked;
} GpuLower;

/* Where v lives; false when it has no device storage. */
bool gpu_value_buf(GpuLower *G, Value *v, GpuBuf *out);
/* The scratch area (a TEMP slice after every assigned temp, shared by all
   launches: they run one after another), grown to at least bytes. */
GpuBuf gpu_scratch(GpuLower *G, int64_t bytes);
/* The buffers of op: operands, then results; false (reported at op) when
   one has no device storage.  *bufs is heap, with room for `extra` more. */
bool gpu_op_bufs(GpuLower *G, Op *op, int extra, GpuBuf **bufs, int *nbufs);

/* Copies src's bytes into dst (a launch of a copy kernel; nothing when
   they are the same storage). */
void gpu_add_copy(GpuLower *G, GpuBuf dst, GpuBuf src);
/* A new kernel with nbufs buffer parameters, the builder in its entry
   block; ptrs[i] receives buffer i as a generic pointer, *n the integer. */
LLVMValueRef gpu_kernel_new(GpuLower *G, int nbufs, LLVMValueRef *ptrs, LLVMValueRef *n);
/* The elemental generator's view of a kernel's inputs: their values and
   their buffers' pointers (the kernel's first ninputs buffers). */
KernelIO gpu_kernel_io(Value **inputs, int ninputs, LLVMValueRef *ptrs);
/* The value a scalar region (a comparator, a combiner) returns, its
   arguments read at the element pointers args (one per block argument). */
LLVMValueRef gpu_region_value(Cg *cg, Block *body, LLVMValueRef *args);
/* Records kernel fn and its launch (bufs owned by the launch from here);
   false (reported at op, fn deleted) when fn calls what a GPU cannot. */
bool gpu_add_launch(GpuLower *G, Op *op, LLVMValueRef fn, int64_t n, int64_t units, int block, GpuBuf *bufs,
                    int nbufs);
/* Another launch of the last launch's kernel, grid and buffers, with
   integer argument n (the passes of a sort). */
void gpu_repeat_launch(GpuLower *G, int64_t n);
/* The flat loop kernel computing roots (all of one shape) elementwise from
   inputs, and its launch (bufs: the inputs', then the roots'; taken);
   false when reported at op. */
bool gpu_add_loop(GpuLower *G, Op *op, Value *const *inputs, int ninputs, Value *const *roots, int nroots, GpuBuf *bufs,
                  int nbufs);
/* gpu_add_launch of a kernel of n threads' work (gpu_thread_loop), in
   blocks of GPU_LOOP_THREADS. */
bool gpu_add_thread_launch(GpuLower *G, Op *op, LLVMValueRef fn, int64_t n, GpuBuf *bufs, int nbufs);
/* "'op' is not supported by the gpu backend yet (<where>docs/gpu.md ...)" */
void gpu_unsupported(GpuLower *G, const Op *op, const char *where);

/* A special register (tid.x, ntid.x, ctaid.x, nctaid.x) as i64. */
LLVMValueRef gpu_sreg(Cg *cg, const char *name);
/* for (iv = lo; iv < hi; iv += step): the builder in the body; iv in l->iv. */
Loop gpu_loop_begin(Cg *cg, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef step, const char *name);
void gpu_loop_end(Cg *cg, Loop *l, LLVMValueRef step);
/* for (i = global thread index; i < n; i += all threads): a grid-stride
   loop by thread; *step receives the increment for gpu_loop_end. */
Loop gpu_thread_loop(Cg *cg, LLVMValueRef n, LLVMValueRef *step, const char *name);
/* if (cond) { ... }: the builder in the conditional block; gpu_if_end
   closes it at the block gpu_if_begin returned. */
LLVMBasicBlockRef gpu_if_begin(Cg *cg, LLVMValueRef cond);
void gpu_if_end(Cg *cg, LLVMBasicBlockRef next);
/* __syncthreads() */
/* v (double) rounded to f32 by rounding to odd: toward zero, the last bit
   set when inexact.  Rounding that to nearest into a type of at most 22
   bits of precision (bf16, f8/f6/f4) rounds once, as from v itself (no
   target converts double to bf16 everywhere; the narrow types are
   encoded from f32).  NaN stays itself. */
LLVMValueRef gpu_round_odd_f32(Cg *cg, LLVMValueRef v);
void gpu_barrier(Cg *cg);
/* The value of v in lane (this lane xor mask) of the warp; any scalar of
   at most 64 bits (split into 32-bit shuffles). */
LLVMValueRef gpu_shfl_xor(Cg *cg, LLVMValueRef v, int mask);
/* A shared-memory array of n elements of t, private to the module, and a
   pointer to its element i. */
LLVMValueRef gpu_shared_array(Cg *cg, LLVMTypeRef t, int64_t n, const char *name);
LLVMValueRef gpu_shared_at(Cg *cg, LLVMValueRef arr, LLVMValueRef i);
/* Whether v is computed from the inputs by elementwise ops on shape,
   from inputs and constants of that shape, rank-0 values and broadcasts of
   one element (elemental_flat, and those broadcasts): then the elemental
   generator computes it at [0, ..., 0, i] for linear index i (and reads
   the inputs of shape at i).  seen: values already checked. */
bool gpu_flat(Value *v, const Type *shape, Value *const *inputs, int ninputs, PtrMap *seen);
/* Coordinates of lin (< 2^63) in dims[0..n) (row-major), by 32-bit
   division when every coordinate and lin fit. */
void gpu_delinearize(Cg *cg, LLVMValueRef lin, const int64_t *dims, int n, LLVMValueRef *out);

/* ---- emitters: each plans its kernels and launches, or reports ---- */

struct KernelSpec; /* codegen/kernel.h */
/* reduce.c, for the row kernel: whether a block can fold the reduces of
   k (over the trailing dims, simple reducers), and that fold for output o
   (its elements read through in_ptrs) by the block's T threads: out[r]
   receives root r (the init value combined), valid in thread 0.  Every
   thread of the block must run it (it has barriers). */
bool gpu_block_reduce_ok(const struct KernelSpec *k);
void gpu_block_reduce(Cg *cg, LLVMValueRef fn, const struct KernelSpec *k, LLVMValueRef *in_ptrs, LLVMValueRef o, int T,
                      LLVMValueRef *out);
/* The threads a block uses to fold rows of n elements. */
int gpu_row_threads(int64_t n);
/* row.c: a row fusion (softmax, layer norm) as one kernel; false when op
   is not one this kernel compiles (nothing emitted). */
bool gpu_row_fusion_ok(Module *m, Op *op);
bool gpu_lower_row(GpuLower *G, Op *op);

/* transpose.c: a loop fusion or single op (inputs, roots as for a loop
   kernel; bufs, nbufs its buffers, taken on success) whose roots read a
   transpose that moves the innermost dimension, as tiles through shared
   memory; false when it is not one (nothing emitted, bufs kept). */
bool gpu_lower_transpose(GpuLower *G, Op *op, Value **inputs, int ninputs, Value **roots, int nroots, GpuBuf *bufs,
                         int nbufs);
/* reduce.c: a reduce op, or a reduction fusion (inputs/roots of its
   computation; reduces[r] the reduce of root r). */
void gpu_lower_reduce(GpuLower *G, Op *op, Value **inputs, int ninputs, Value **roots, int nroots, Op **reduces);
/* reduce.c: a reduce_window (one thread per output, the interpreter's
   order). */
void gpu_lower_reduce_window(GpuLower *G, Op *op);
/* select_scatter.c: a select_and_scatter (one thread per result element,
   the interpreter's choices and order). */
void gpu_lower_select_and_scatter(GpuLower *G, Op *op);
/* custom.c: a custom call (a host step calling the registered GPU
   target); gpu_run_custom runs one with the device pointers. */
void gpu_lower_custom_call(GpuLower *G, Op *op);
/* Whether a GPU implementation of target is registered. */
bool gpu_custom_call_registered(const char *target);
/* linalg.c: triangular_solve (one thread per system, the interpreter's
   order, in double). */
void gpu_lower_triangular_solve(GpuLower *G, Op *op);
/* cholesky: one thread per matrix, the interpreter's algorithm (linalg.c). */
void gpu_lower_cholesky(GpuLower *G, Op *op);
/* fft.c: stablehlo.fft (one thread per line per transformed dimension,
   the interpreter's algorithms in double complex). */
void gpu_lower_fft(GpuLower *G, Op *op);
/* host.c: the test ops (check.*, interpreter.print/probe), the custom
   calls whose targets live on the host, and the collectives, send/recv
   and infeed/outfeed (which meet the other processes of a grid), as HOST
   steps run by the interpreter on copies of their operands. */
bool gpu_host_op(const Op *op);
void gpu_lower_host_op(GpuLower *G, Op *op);
/* A host step of the given kind for op (tokens have no buffer). */
void gpu_lower_host_step(GpuLower *G, Op *op, GpuStepKind kind);
/* Runs a host step on I: its operands copied back (the work before it
   done), run(user, I, op, in, out) (NULL: interp_run_op), its results
   copied to the device, on stream (the execution's; NULL: synchronously). */
typedef bool (*GpuHostRun)(void *user, Interp *I, Op *op, IVal **in, IVal **out);
bool gpu_run_host(const GpuStep *st, const CudaDriver *drv, CUstream stream, const CUdeviceptr *ptrs, Interp *I,
                  GpuHostRun run, void *user, char **err);
bool gpu_run_custom(const GpuStep *st, void *stream, void **ptrs, char **err);
/* ragged.c: chlo.ragged_dot (one thread per output, the interpreter's
   sums). */
void gpu_lower_ragged_dot(GpuLower *G, Op *op);
/* sort.c: a sort (one thread per row, the interpreter's merge sort). */
void gpu_lower_sort(GpuLower *G, Op *op);
/* chlo.top_k of the types the chlo pass leaves (sort.c). */
void gpu_lower_top_k(GpuLower *G, Op *op);
/* scatter.c: a scatter (the interpreter's order per result element). */
void gpu_lower_scatter(GpuLower *G, Op *op);
/* A dynamic_update_slice computed in place: a kernel over its window,
   computing the update itself where the op right before it does nothing
   else (then gpu_dus_takes_update says so of that op, which launches
   nothing); false for any other op (scatter.c). */
bool gpu_lower_dus_in_place(GpuLower *G, Op *op);
bool gpu_dus_takes_update(GpuLower *G, Op *op);
/* Whether op computes the updates of a scatter shortly after it, which
   the scatter's kernel computes itself (codegen/kernel.h,
   scatter_update_src): op then launches nothing. */
bool gpu_scatter_takes_update(GpuLower *G, Op *op);
/* random.c: rng_bit_generator, rng, replica_id, partition_id,
   create_token and after_all (the interpreter's numbers, bit for bit),
   and bitcast_convert between widths (a copy); false when op is none of
   these (nothing emitted). */
bool gpu_lower_random(GpuLower *G, Op *op);
/* gemm.c: a dot_general or convolution, or a kOutput fusion (one of them
   and its elementwise epilogue); false when op is none of these (nothing
   emitted). */
bool gpu_lower_dot(GpuLower *G, Op *op);

#endif
