/*
 * llvm_targets.c - which of LLVM's targets a library registers for cross
 * compilation (xlac aot --target_triple).
 *
 * Compiled once per library: the xlac command and libxlac.a (which link
 * Debian's shared LLVM) register every target LLVM was built with; the
 * shared libraries libxlac.so and the PJRT plugin, which carry a private
 * static copy of LLVM (so that another LLVM in the process, TensorFlow's
 * say, neither replaces nor sees it), generate code for the host only and
 * link only its target.
 */
#include <llvm-c/Target.h>

#include "codegen/jit.h"

void jit_init_cross_targets(void) {
#ifdef XLAC_ALL_LLVM_TARGETS
  LLVMInitializeAllTargetInfos();
  LLVMInitializeAllTargets();
  LLVMInitializeAllTargetMCs();
  LLVMInitializeAllAsmPrinters();
#endif
}
