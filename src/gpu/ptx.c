/*
 * ptx.c - LLVM's NVPTX target: target machines, the optimizer, PTX text,
 * and the scan that keeps what NVPTX cannot lower out of its way.
 *
 * The target is registered by its own initializers (never
 * LLVMInitializeAll*): every library links it — the xlac command and
 * libxlac.a through Debian's libLLVM, libxlac.so and the PJRT plugin
 * through their private static LLVM, whose component list names nvptx.
 *
 * LLVM 19's NVPTX backend calls report_fatal_error — the process exits —
 * on the math intrinsics it has no lowering for (llvm.exp, llvm.log,
 * llvm.sin, llvm.pow, ...), and a call of any other function without a
 * body becomes an unresolved extern that ptxas rejects.  Every module is
 * scanned before and after LLVM's optimizer (gpu_scan_calls): a forbidden
 * call is an error reported at the op, never an abort.
 */
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/jit.h"
#include "gpu/gpu.h"

#define NVPTX_TRIPLE "nvptx64-nvidia-cuda"

static pthread_once_t nvptx_once = PTHREAD_ONCE_INIT;
static void init_nvptx(void) {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
}

/* The processors LLVM 19's NVPTX target knows that a driver of today can
   run (sm_90a is left out: GPGPU-Sim cannot run its PTX, and nothing here
   uses its instructions yet). */
static const char *const archs[] = {"sm_60", "sm_61", "sm_62", "sm_70", "sm_72", "sm_75",
                                    "sm_80", "sm_86", "sm_87", "sm_89", "sm_90"};
enum { NARCHS = sizeof archs / sizeof archs[0] };

bool gpu_arch_valid(const char *arch) {
  for (int i = 0; i < NARCHS; i++)
    if (strcmp(archs[i], arch) == 0) return true;
  return false;
}

const char *gpu_arch_list(void) { return "sm_60, sm_61, sm_62, sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90"; }

const char *gpu_arch_for_device(int major, int minor) {
  int cc = major * 10 + minor;
  const char *best = NULL;
  for (int i = 0; i < NARCHS; i++)
    if (atoi(archs[i] + 3) <= cc) best = archs[i];
  /* newer devices run the newest PTX LLVM 19 writes (the driver JIT-compiles it) */
  return best ? best : archs[0];
}

LLVMTargetMachineRef gpu_target_machine(const char *arch, int opt_level, char **err) {
  pthread_once(&nvptx_once, init_nvptx);
  if (!gpu_arch_valid(arch)) {
    *err = xasprintf("unknown GPU architecture '%s' (available: %s)", arch, gpu_arch_list());
    return NULL;
  }
  LLVMTargetRef T;
  char *msg = NULL;
  if (LLVMGetTargetFromTriple(NVPTX_TRIPLE, &T, &msg)) {
    *err = xasprintf("this LLVM has no NVPTX target: %s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    return NULL;
  }
  LLVMCodeGenOptLevel lvl = opt_level >= 3 ? LLVMCodeGenLevelAggressive
                            : opt_level == 0 ? LLVMCodeGenLevelNone
                                             : LLVMCodeGenLevelDefault;
  LLVMTargetMachineRef tm =
      LLVMCreateTargetMachine(T, NVPTX_TRIPLE, arch, "", lvl, LLVMRelocDefault, LLVMCodeModelDefault);
  if (!tm) *err = xasprintf("cannot create an NVPTX target machine for %s", arch);
  return tm;
}

void gpu_set_target(LLVMModuleRef M, LLVMTargetMachineRef tm) {
  LLVMSetTarget(M, NVPTX_TRIPLE);
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(M, td);
  LLVMDisposeTargetData(td);
}

/* Math intrinsics NVPTX (LLVM 19) does not lower: the backend would end
   the process.  Matched as "llvm.<name>" followed by "." or the end. */
static const char *const forbidden[] = {"exp",  "exp2", "exp10", "log",  "log2", "log10", "pow",  "powi",
                                        "sin",  "cos",  "tan",   "asin", "acos", "atan",  "atan2", "sinh",
                                        "cosh", "tanh", "sincos", "frexp", "ldexp"};

bool gpu_forbidden_intrinsic(const char *name) {
  if (strncmp(name, "llvm.", 5) != 0) return false;
  const char *s = name + 5;
  for (size_t i = 0; i < sizeof forbidden / sizeof forbidden[0]; i++) {
    size_t n = strlen(forbidden[i]);
    if (strncmp(s, forbidden[i], n) == 0 && (s[n] == 0 || s[n] == '.')) return true;
  }
  return false;
}

/* A called function the GPU cannot have: a forbidden intrinsic, or any
   function without a body that is not an intrinsic (libm, the runtime). */
static bool callee_bad(LLVMValueRef callee) {
  size_t len;
  const char *name = LLVMGetValueName2(callee, &len);
  if (gpu_forbidden_intrinsic(name)) return true;
  if (LLVMGetIntrinsicID(callee) != 0) return false;
  return LLVMCountBasicBlocks(callee) == 0;
}

int gpu_scan_calls(LLVMValueRef fn, StrBuf *bad) {
  int n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      if (!LLVMIsACallInst(in)) continue;
      LLVMValueRef callee = LLVMGetCalledValue(in);
      if (!callee || !LLVMIsAFunction(callee) || !callee_bad(callee)) continue;
      size_t len;
      const char *name = LLVMGetValueName2(callee, &len);
      /* each name once */
      if (bad && (!bad->data || !strstr(bad->data, name))) sb_printf(bad, "%s'%s'", bad->len ? ", " : "", name);
      n++;
    }
  return n;
}

int gpu_scan_module(LLVMModuleRef M, StrBuf *bad) {
  int n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(M); f; f = LLVMGetNextFunction(f)) n += gpu_scan_calls(f, bad);
  return n;
}

bool gpu_optimize(LLVMModuleRef M, LLVMTargetMachineRef tm, int opt_level, char **err) {
  char *msg = NULL;
  if (LLVMVerifyModule(M, LLVMReturnStatusAction, &msg)) {
    *err = xasprintf("internal error: generated GPU LLVM IR does not verify: %s", msg);
    LLVMDisposeMessage(msg);
    return false;
  }
  LLVMDisposeMessage(msg);
  LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
  char pipeline[32];
  snprintf(pipeline, sizeof pipeline, "default<O%d>", opt_level < 0 ? 0 : opt_level > 3 ? 3 : opt_level);
  LLVMErrorRef e = LLVMRunPasses(M, pipeline, tm, o);
  LLVMDisposePassBuilderOptions(o);
  if (e) {
    *err = jit_take_error(e);
    return false;
  }
  return true;
}

bool gpu_emit_ptx(LLVMModuleRef M, LLVMTargetMachineRef tm, char **ptx, size_t *len, char **err) {
  /* the last guard before the backend: what it cannot lower never reaches it */
  StrBuf bad = {0};
  if (gpu_scan_module(M, &bad)) {
    *err = xasprintf("internal error: the GPU module calls %s, which NVPTX cannot compile", bad.data);
    sb_free(&bad);
    return false;
  }
  char *msg = NULL;
  LLVMMemoryBufferRef buf = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, M, LLVMAssemblyFile, &msg, &buf)) {
    *err = xasprintf("PTX generation failed: %s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    return false;
  }
  size_t n = LLVMGetBufferSize(buf);
  char *p = xmalloc(n + 1);
  memcpy(p, LLVMGetBufferStart(buf), n);
  p[n] = 0;
  LLVMDisposeMemoryBuffer(buf);
  *ptx = p;
  *len = n;
  return true;
}
