/*
 * jit.h - LLVM target setup, optimization and ORC LLJIT for the CPU backend.
 */
#ifndef XLAC_CODEGEN_JIT_H
#define XLAC_CODEGEN_JIT_H

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "support/support.h"

typedef struct Jit Jit;

/* Host target machine (caller disposes); features tuned for wide vectors. */
LLVMTargetMachineRef jit_host_machine(int opt_level);
/* Verifies and optimizes M in place (default<O3> etc.).  Returns false with
   a message on failure. */
bool jit_optimize(LLVMModuleRef M, int opt_level, char **err);
/* Takes ownership of M and ctx (a module built in a ThreadSafeContext's
   context, see jit_new_context); symbols named in `syms` resolve to the given
   addresses.  Returns NULL with *err set on failure. */
typedef struct JitSymbol {
  const char *name;
  void *addr;
} JitSymbol;
Jit *jit_create(LLVMModuleRef M, void *tsctx, const JitSymbol *syms, int nsyms, char **err);
void *jit_lookup(Jit *j, const char *name, char **err);
void jit_free(Jit *j);
/* A fresh LLVM context wrapped for the JIT; *ctx receives the LLVMContextRef. */
void *jit_new_context(LLVMContextRef *ctx);
void jit_dispose_context(void *tsctx);

#endif
