/*
 * jit.h - LLVM target setup, optimization and ORC LLJIT on the host (the
 * CPU backend, and the GPU backend's SIMT harness).
 */
#ifndef XLAC_CODEGEN_JIT_H
#define XLAC_CODEGEN_JIT_H

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/TargetMachine.h>

#include "support/support.h"

typedef struct Jit Jit;

/* An LLVM error's message (heap: xfree), the error consumed. */
char *jit_take_error(LLVMErrorRef e);
/* Host target machine (caller disposes); features tuned for wide vectors. */
LLVMTargetMachineRef jit_host_machine(int opt_level);
/* The host machine this thread keeps for opt_level (see jit.c): borrowed,
   for this thread only.  *owned is set where no thread storage could be
   had and the machine is the caller's to dispose.  NULL: no machine. */
LLVMTargetMachineRef jit_thread_machine(int opt_level, bool *owned);
/* Registers the targets other than the host's that this library was
   linked with (llvm_targets.c): all of LLVM's, or none. */
void jit_init_cross_targets(void);
/* A target machine for a triple (cross compilation), CPU and features:
   all NULL, the host's as jit_host_machine; a NULL triple with a CPU or
   features, this machine's triple; a NULL cpu is "generic", NULL features
   the CPU's own.  NULL with *err set on failure. */
LLVMTargetMachineRef jit_target_machine(const char *triple, const char *cpu, const char *features, int opt_level,
                                        char **err);
/* Verifies and optimizes M in place (default<O3> etc.).  Returns false with
   a message on failure. */
bool jit_optimize(LLVMModuleRef M, int opt_level, char **err);
/* Sets M's triple and data layout to tm's. */
void jit_set_target(LLVMModuleRef M, LLVMTargetMachineRef tm);
/* The same for target machine tm (which the caller keeps). */
bool jit_optimize_for(LLVMModuleRef M, LLVMTargetMachineRef tm, int opt_level, char **err);
/* After optimization: vector half/bfloat compares, min/max, sqrt and
   rounding intrinsics (and bfloat sign operations) that tm's backend would
   expand lane by lane are computed in float instead (widen16.c).  Part of
   jit_optimize_for. */
void jit_widen_narrow_vectors(LLVMModuleRef M, LLVMTargetMachineRef tm);
/* On x86, asks the backend for bare reciprocal (square root) estimates on
   float vectors: math_approx.c refines them itself.  Run after the
   optimizer (jit_optimize_for does). */
void jit_raw_estimates(LLVMModuleRef M, LLVMTargetMachineRef tm);
/* Generates M's machine code (jit_emit_object) and disposes of M; the
   code is linked with the process's libraries, and symbols named in
   `syms` resolve to the given addresses.  Returns NULL with *err set on
   failure. */
typedef struct JitSymbol {
  const char *name;
  void *addr;
} JitSymbol;
Jit *jit_create(LLVMModuleRef M, const JitSymbol *syms, int nsyms, char **err);
/* The same from a relocatable object (jit_emit_object's output, e.g. from
   the compile cache); obj is copied. */
Jit *jit_create_from_object(const void *obj, size_t size, const JitSymbol *syms, int nsyms, char **err);
/* The same from several objects (LLVM buffers, which the JIT takes, also
   on failure) that refer to each other's symbols by name. */
Jit *jit_create_from_buffers(LLVMMemoryBufferRef *objs, int n, const JitSymbol *syms, int nsyms, char **err);
/* Parallel code generation (jit_split.c).  The threads a compilation may
   use: XLAC_COMPILE_THREADS, else the CPUs this process may run on. */
int jit_compile_threads(void);
/* How many parts M (not yet optimized) is worth cutting into for at most
   max_parts threads, never more than JIT_SPLIT_MAX_PARTS; 1: do not cut. */
#define JIT_SPLIT_MAX_PARTS 16
int jit_split_parts(LLVMModuleRef M, const char *entry, int max_parts);
/* Cuts M into nparts modules, optimizes each and generates its code on a
   thread of its own (the caller's thread takes the first): objs[0..nparts)
   receive the objects, which refer to each other by name
   (jit_create_from_buffers links them); M is consumed.  *opt_ms: the
   longest part's optimization.  false with *err set on failure. */
bool jit_compile_split(LLVMModuleRef M, const char *entry, int nparts, int opt_level, LLVMMemoryBufferRef *objs,
                       char **err, double *opt_ms);
/* Generates machine code for M (optimized; code generation modifies it)
   with the JIT's target machine: *data (heap) receives the object file. */
bool jit_emit_object(LLVMModuleRef M, char **data, size_t *size, char **err);
bool jit_emit_object_for(LLVMModuleRef M, LLVMTargetMachineRef tm, char **data, size_t *size, char **err);
/* What the code generated for this host depends on besides the IR: target
   triple, CPU name, feature string and LLVM version (heap string). */
char *jit_host_description(void);
/* Whether the host CPU has an LLVM target feature ("avx512f",
   "avx512fp16", "amx-tile", ...), as code is generated for it here. */
bool jit_host_has_feature(const char *name);
void *jit_lookup(Jit *j, const char *name, char **err);
void jit_free(Jit *j);
/* A fresh LLVM context wrapped for the JIT; *ctx receives the LLVMContextRef. */
void *jit_new_context(LLVMContextRef *ctx);
void jit_dispose_context(void *tsctx);

#endif
