/*
 * gpu.h - the GPU backend: a function compiled to PTX through LLVM's NVPTX
 * target and run through the CUDA driver (cuda.h), a peer of the CPU
 * backend (cpu/cpu.h) over the same pass pipeline.
 *
 * gpu_compile runs the pipeline (passes/, the CPU's for now), assigns
 * buffers (passes/buffers.c: parameters, results, one temp arena,
 * constants), and turns each top-level op into kernels: loop fusions and
 * single elementwise or index-mapping ops become grid-stride kernels whose
 * elements the shared elemental generator (codegen/elemental.c) computes
 * in registers; reductions and their fusions become warp-shuffle or
 * sequential reduction kernels (reduce.c); dot_general and its kOutput
 * fusions a tiled GEMM with the epilogue in registers (gemm.c), or
 * cublasLtMatmul where NVIDIA's library is installed (cublaslt.h).  What the
 * emitters share is in kernels.h.  Compiling needs no driver and no GPU: the result is PTX
 * text plus the launch plan.  An op with no GPU kernel yet is an error at
 * the op naming it (every one is reported); nothing falls back to the CPU.
 *
 * gpu_execute loads the PTX on a device (once per executable), allocates
 * device buffers, copies the arguments in, launches the kernels in program
 * order on the default stream, and copies the results out;
 * gpu_execute_device runs it over memory already on the device (the
 * library's buffers, which stay there between executions), computing
 * results into donated arguments where that is safe.  Replicas and
 * partitions run as the processes of the interpreter's grid on the one
 * device (gpu_execute_grid, interpreter.run_parallel), their collectives
 * as host steps through the interpreter's rendezvous.
 */
#ifndef XLAC_GPU_GPU_H
#define XLAC_GPU_GPU_H

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "gpu/cuda.h"
#include "interp/interp.h"

typedef struct GpuOptions {
  /* "sm_80", "sm_90", ...: the PTX target.  NULL: $XLAC_GPU_ARCH, else the
     device's (below), else sm_90. */
  const char *arch;
  const GpuDevice *device; /* may be NULL (compiling without a GPU) */
  int opt_level;           /* LLVM optimization level 0..3 (default 3) */
  bool no_fusion;          /* skip the fusion passes */
  const char *dump_dir;    /* --xla_dump_to: HLO, LLVM IR and PTX there */
  /* for the test ops run on the host (check.*, interpreter.print/probe);
     NULL: quiet checks, printing to stdout.  Must outlive the executable. */
  const InterpOptions *host_ops;
  int module_id;           /* NNNN in dump file names */
  /* Donation: alias_param[r] (nalias entries, by flattened result) is the
     parameter result r may be computed into, or -1 (see
     gpu_execute_device). */
  const int *alias_param;
  int nalias;
  /* time every launch, library call and host step of the executions of
     xlac run and bench (gpu_execute) on the device, with events around
     each (loop bodies then run without CUDA graphs):
     gpu_executable_profile */
  bool profile;
} GpuOptions;

typedef struct GpuStats {
  int kernels;   /* kernels launched per execution */
  int fusions;   /* of which fusions */
  int host_steps; /* ops run on the host between the kernels (host.c) */
  int loops, counted_loops; /* while loops; of which run a known number of times (no cond read back) */
  /* counted loops whose body (launches only) is captured into a CUDA graph
     and launched as one per iteration, where the driver has graphs; in the
     last execution, the loops that ran so */
  int graph_loops, graphs_run;
  char arch[16]; /* the PTX target */
  int64_t temp_bytes;
  double compile_ms, passes_ms, ir_ms, llvm_opt_ms, ptx_ms;
  /* the last execution's device time from before its first kernel to after
     its last (CUDA events; 0 where the driver has none) */
  double device_ms;
  /* the test ops' checks that passed and failed in the last execution
     (host.c) */
  int checks_passed, checks_failed;
  int in_place_results; /* results computed into their donated parameter */
  /* dot_general products for the tiled GEMM kernel, and how many of them
     go to cuBLASLt (cublaslt.h) where it is available; in the last
     execution, the cuBLASLt calls made and those it declined (our kernel
     ran them); blas_apart: products whose epilogue cuBLASLt has not, the
     epilogue then a kernel of its own after the call (convolutions
     included); conv_blas: convolutions through cuBLASLt (gemm.c) */
  int gemms, blas_products, blas_apart, conv_blas;
  int blas_ran, blas_declined;
} GpuStats;

typedef struct GpuExecutable GpuExecutable;
typedef struct GpuEvent GpuEvent;

/* What an asynchronous execution waits for, and its completion
   (gpu_execute_device). */
typedef struct GpuExecWait {
  GpuEvent *const *events; /* NULL entries are skipped */
  int nevents;
  GpuEvent *done; /* out: the event after the execution's work, or NULL */
} GpuExecWait;

/* Compiles function `entry` of module m (optimized in place; it must
   outlive the executable).  NULL on failure, diagnostics printed. */
GpuExecutable *gpu_compile(Module *m, Func *entry, const GpuOptions *o);
/* With GpuOptions.profile: the device time of each launch site (a kernel
   of an op, a cuBLASLt call, a custom call, a host step) over the
   executions so far, the top (<= 0: all) most expensive first, into b as
   a table like the cpu backend's; reset clears the totals instead.
   False without a profile. */
bool gpu_executable_profile(GpuExecutable *e, StrBuf *b, int top, bool reset);
/* Runs it on d: args are the entry's parameters, results receive new
   references, once the work is done (with d->async its copies and kernels
   go on a stream of its own, waited for without holding d->mu).  False
   with *err (heap) on a driver error. */
bool gpu_execute(GpuExecutable *e, GpuDevice *d, int nargs, IVal **args, IVal **results, char **err);
/* Runs it on d over device memory (the library's device-resident
   buffers), the entry flattened: args[i] is the device memory of leaf
   parameter i (0 when empty); donated (may be NULL) says which the caller
   gives up.  results[r] receives leaf result r's device memory, which the
   caller then owns: new memory, or a donated argument's (took[r] = its
   index, else -1) when the result was computed into it in place or is
   that argument returned as it is.  On failure nothing is allocated.
   Without d->async the device is synchronized before it returns (wait
   may be NULL).  With it, the execution's work goes on a stream of its
   own that first waits for wait->events (the arguments' producers, and
   the executions still reading a donated argument), and it returns once
   the work is queued: wait->done receives the event after it (the
   caller's reference), which the results' readers wait for; the
   execution's temporaries go back to the pool when it has passed.  A
   step that needs the host (a loop's predicate, a host op) waits for
   the stream first. */
bool gpu_execute_device(GpuExecutable *e, GpuDevice *d, int nargs, const CUdeviceptr *args, const bool *donated,
                        struct GpuExecWait *wait, CUdeviceptr *results, int *took, char **err);
/* gpu_execute as the process I says: its ids, its grid or communicator
   (which collectives meet through), its printing and check counts. */
bool gpu_execute_in(GpuExecutable *e, GpuDevice *d, Interp *I, int nargs, IVal **args, IVal **results, char **err);
/* Runs it as num_replicas x num_partitions processes (threads of the
   interpreter's grid, interp/collectives.c) on the one device d, each with
   device buffers of its own: args[i] and results[i] are process i's
   (replica i / num_partitions, partition i % num_partitions); collectives
   meet as the interpreter's do.  parent (NULL: the executable's own
   interpreter state) gives the processes their options and receives their
   check counts.  False when a process failed (reported, the others
   released). */
bool gpu_execute_grid(GpuExecutable *e, GpuDevice *d, Interp *parent, int num_replicas, int num_partitions, int nargs,
                      IVal ***args, IVal ***results);
const GpuStats *gpu_executable_stats(const GpuExecutable *e);
/* The PTX text (NUL-terminated). */
const char *gpu_executable_ptx(const GpuExecutable *e);
void gpu_executable_free(GpuExecutable *e);

/* ---- device memory (pool.c) ----
 * Memory of d for buffers, results and temp arenas, its context bound on
 * the calling thread (calls on one device are serialized by the caller).
 * Freed blocks are kept, by size class, for the next allocation of their
 * class (cuMemAlloc and cuMemFree are slow, and cuMemFree waits for the
 * device): up to a quarter of the device's memory (1 GiB when the driver
 * does not say), all given back when an allocation fails and when the
 * device is closed.  0 for 0 bytes; false with *err (heap) on a driver
 * error. */
bool gpu_mem_alloc(GpuDevice *d, size_t bytes, CUdeviceptr *p, char **err);
void gpu_mem_free(GpuDevice *d, CUdeviceptr p);
bool gpu_mem_upload(GpuDevice *d, CUdeviceptr dst, const void *src, size_t bytes, char **err);
bool gpu_mem_download(GpuDevice *d, void *dst, CUdeviceptr src, size_t bytes, char **err);
/* Frees p once every one of evs (NULL entries skipped) has passed: the
   work on other streams that may still use it.  Until then the block is
   pending: an allocation takes it only after its events (polled with
   cuEventQuery; waited for when the driver is out of memory). */
void gpu_mem_free_after(GpuDevice *d, CUdeviceptr p, GpuEvent *const *evs, int nev);
/* Pinned host memory (cuMemAllocHost) for asynchronous copies, and its
   release once ev has passed (ev NULL: now).  NULL when the driver has
   none or it fails. */
void *gpu_host_alloc(GpuDevice *d, size_t bytes);
void gpu_host_free_after(GpuDevice *d, void *p, GpuEvent *ev);
/* Gives every kept block back to the driver (gpu_device_close does),
   waiting for the pending ones. */
void gpu_pool_release(GpuDevice *d);

/* ---- streams and events (stream.c) ----
 * With d->async, an execution runs on a stream of its own and returns
 * once its work is queued; a GpuEvent, recorded after the work, is its
 * completion: the results' readiness and the arguments' last use.
 * Reference-counted (one holder per result buffer, per pending free). */
/* Decides d->async: the entry points are there, XLAC_GPU_ASYNC is not 0,
   and a stream, an event and an asynchronous copy through pinned memory
   do what they say (a driver that exports them as stubs falls back to
   synchronous executions).  Creates d->transfer. */
void gpu_async_probe(GpuDevice *d);
/* Waits for d's work and destroys d->transfer (gpu_device_close). */
void gpu_async_release(GpuDevice *d);
/* A stream of d's for one execution (non-blocking: only events order
   it), or NULL with *err. */
bool gpu_stream_new(GpuDevice *d, CUstream *s, char **err);
void gpu_stream_free(GpuDevice *d, CUstream s); /* its queued work still runs */
/* A new event recorded on s now (d->async only); NULL with *err. */
GpuEvent *gpu_event_record(GpuDevice *d, CUstream s, char **err);
GpuEvent *gpu_event_retain(GpuEvent *ev);  /* accepts NULL */
void gpu_event_release(GpuEvent *ev);      /* accepts NULL */
/* Whether the work before ev has finished (NULL: true; an error of that
   work counts as finished: gpu_event_wait reports it). */
bool gpu_event_done(GpuEvent *ev);
/* Waits on the host for ev (NULL: nothing); false with *err when the
   work before it failed. */
bool gpu_event_wait(GpuEvent *ev, char **err);
/* Makes s wait for ev (NULL: nothing) without the host waiting. */
bool gpu_stream_wait(GpuDevice *d, CUstream s, GpuEvent *ev, char **err);
/* Copies host memory to dst on d->transfer: the caller's src is copied
   into pinned memory first, so it may go as soon as this returns; *ready
   is the copy's completion (NULL when it was synchronous: without
   d->async, or pinned memory failing). */
bool gpu_mem_upload_async(GpuDevice *d, CUdeviceptr dst, const void *src, size_t bytes, GpuEvent **ready,
                          char **err);

/* ---- the NVPTX target (ptx.c) ---- */
bool gpu_arch_valid(const char *arch);
const char *gpu_arch_list(void);
/* The newest architecture LLVM knows that a device of this compute
   capability runs. */
const char *gpu_arch_for_device(int major, int minor);
/* NULL with *err on an unknown arch. */
LLVMTargetMachineRef gpu_target_machine(const char *arch, int opt_level, char **err);
/* M's triple and data layout for tm. */
void gpu_set_target(LLVMModuleRef M, LLVMTargetMachineRef tm);
/* Whether an intrinsic name ("llvm.exp.f32") is one NVPTX cannot lower
   (LLVM would end the process). */
bool gpu_forbidden_intrinsic(const char *name);
/* Calls in fn (or all of M) that the GPU cannot have: forbidden
   intrinsics, and functions without a body that are not intrinsics (the C
   library, the runtime).  Returns how many; appends their names to bad
   (may be NULL), each once. */
int gpu_scan_calls(LLVMValueRef fn, StrBuf *bad);
int gpu_scan_module(LLVMModuleRef M, StrBuf *bad);
/* Verifies and optimizes M (default<O3>). */
bool gpu_optimize(LLVMModuleRef M, LLVMTargetMachineRef tm, int opt_level, char **err);
/* PTX text of M (heap, NUL-terminated); scans M first and refuses what
   the backend cannot lower. */
bool gpu_emit_ptx(LLVMModuleRef M, LLVMTargetMachineRef tm, char **ptx, size_t *len, char **err);

#endif
