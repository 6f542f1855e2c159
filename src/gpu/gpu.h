/*
 * gpu.h - the GPU backend: a function compiled to PTX through LLVM's NVPTX
 * target and run through the CUDA driver (cuda.h), a peer of the CPU
 * backend (codegen/cpu.h) over the same pass pipeline.
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
} GpuOptions;

typedef struct GpuStats {
  int kernels;   /* kernels launched per execution */
  int fusions;   /* of which fusions */
  int host_steps; /* ops run on the host between the kernels (host.c) */
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
     ran them) */
  int gemms, blas_products;
  int blas_ran, blas_declined;
} GpuStats;

typedef struct GpuExecutable GpuExecutable;

/* Compiles function `entry` of module m (optimized in place; it must
   outlive the executable).  NULL on failure, diagnostics printed. */
GpuExecutable *gpu_compile(Module *m, Func *entry, const GpuOptions *o);
/* Runs it on d: args are the entry's parameters, results receive new
   references.  False with *err (heap) on a driver error. */
bool gpu_execute(GpuExecutable *e, GpuDevice *d, int nargs, IVal **args, IVal **results, char **err);
/* Runs it on d over device memory (the library's device-resident
   buffers), the entry flattened: args[i] is the device memory of leaf
   parameter i (0 when empty); donated (may be NULL) says which the caller
   gives up.  results[r] receives leaf result r's device memory, which the
   caller then owns: new memory, or a donated argument's (took[r] = its
   index, else -1) when the result was computed into it in place or is
   that argument returned as it is.  The device is synchronized before it
   returns; on failure nothing is allocated. */
bool gpu_execute_device(GpuExecutable *e, GpuDevice *d, int nargs, const CUdeviceptr *args, const bool *donated,
                        CUdeviceptr *results, int *took, char **err);
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
/* Gives every kept block back to the driver (gpu_device_close does). */
void gpu_pool_release(GpuDevice *d);

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
