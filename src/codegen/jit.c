/*
 * jit.c - LLVM target setup, the optimization pipeline and ORC LLJIT.
 *
 * The target machine is the host's, with `-prefer-256-bit` removed so the
 * vectorizer uses 512-bit registers where the CPU has them.  Runtime symbols
 * (thread pool, GEMM, the interpreter thunk) are given to the JIT as
 * absolute addresses, so nothing depends on the process exporting them.
 */
#include "codegen/jit.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xlacrt.h"

struct Jit {
  LLVMOrcLLJITRef lljit;
};

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static void init_llvm(void) {
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  /* Without loop strength reduction in code generation: on the kernels'
     loops it took a quarter of the machine-code time (a transformer: 27 of
     119 ms) and made the code larger; x86's base + index * scale
     addressing serves the loops as well (the hot loops differ by an index
     increment).  The option belongs to this library's own copy of LLVM
     (linked in, its symbols hidden), parsed once; a parse error is
     ignored, never fatal. */
  const char *args[] = {"xlac", "-disable-lsr"};
  LLVMParseCommandLineOptions(2, args, "");
}

/* LLVM's strings and objects are not ours: nothing that can unwind (out
   of memory) runs while one is held, so copies are made with plain
   malloc and checked. */
char *jit_take_error(LLVMErrorRef e) {
  char *m = LLVMGetErrorMessage(e);
  char *r = strdup(m);
  LLVMDisposeErrorMessage(m);
  if (!r) oom_raise(1);
  return r;
}

static LLVMCodeGenOptLevel codegen_level(int opt_level) {
  return opt_level >= 3 ? LLVMCodeGenLevelAggressive : opt_level == 0 ? LLVMCodeGenLevelNone : LLVMCodeGenLevelDefault;
}

/* The host's triple, CPU name and feature string, asked of LLVM once (it
   reads CPUID and parses the features anew at every call; every compile
   makes target machines). */
static struct {
  char *triple, *cpu, *features; /* NULL: out of memory */
  LLVMTargetRef target;          /* NULL: the triple has no target */
} host;
static pthread_once_t host_once = PTHREAD_ONCE_INIT;

static void read_host(void) {
  char *triple = LLVMGetDefaultTargetTriple();
  char *cpu = LLVMGetHostCPUName();
  char *feats = LLVMGetHostCPUFeatures();
  size_t n = strlen(feats) + 32;
  host.features = malloc(n);
  if (host.features) snprintf(host.features, n, "%s%s-prefer-256-bit", feats, feats[0] ? "," : "");
  host.triple = strdup(triple);
  host.cpu = strdup(cpu);
  char *err = NULL;
  if (LLVMGetTargetFromTriple(triple, &host.target, &err)) {
    host.target = NULL;
    LLVMDisposeMessage(err);
  }
  LLVMDisposeMessage(triple);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(feats);
}

LLVMTargetMachineRef jit_host_machine(int opt_level) {
  pthread_once(&init_once, init_llvm);
  pthread_once(&host_once, read_host);
  /* out of memory or no target: no machine, which callers report */
  if (!host.triple || !host.cpu || !host.features || !host.target) return NULL;
  return LLVMCreateTargetMachine(host.target, host.triple, host.cpu, host.features, codegen_level(opt_level),
                                 LLVMRelocPIC, LLVMCodeModelDefault);
}

/* ---- host machines kept per thread ----
 * Making a target machine, and the subtarget its first function needs,
 * costs about as much as optimizing and generating a small module (the
 * host's feature string is parsed feature by feature each time).  Each
 * thread that compiles keeps one machine per optimization level and uses
 * it for every module it optimizes and generates code for; a machine is
 * used by one thread at a time, as LLVM requires.  The machines of a
 * thread are disposed when it exits; `kept` lists them all, so they stay
 * reachable (and are freed last) in a process that never ends its
 * compiling threads. */
typedef struct ThreadMachines {
  LLVMTargetMachineRef tm[4];
  struct ThreadMachines *prev, *next;
} ThreadMachines;
static pthread_key_t machines_key;
static pthread_once_t machines_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t machines_lock = PTHREAD_MUTEX_INITIALIZER;
static ThreadMachines *kept;

static void machines_free(void *p) {
  ThreadMachines *t = p;
  pthread_mutex_lock(&machines_lock);
  if (t->prev) t->prev->next = t->next;
  else kept = t->next;
  if (t->next) t->next->prev = t->prev;
  pthread_mutex_unlock(&machines_lock);
  for (int i = 0; i < 4; i++)
    if (t->tm[i]) LLVMDisposeTargetMachine(t->tm[i]);
  xfree(t);
}

/* At exit, or when a library holding this code is unloaded (atexit
   handlers of a shared library run then): threads that end afterwards
   must not call machines_free, which may be gone with the library. */
static void machines_fini(void) {
  if (machines_key != (pthread_key_t)-1) pthread_key_delete(machines_key);
  machines_key = (pthread_key_t)-1;
}

static void machines_init(void) {
  if (pthread_key_create(&machines_key, machines_free)) machines_key = (pthread_key_t)-1;
  else atexit(machines_fini);
}

LLVMTargetMachineRef jit_thread_machine(int opt_level, bool *owned) {
  int l = opt_level < 0 ? 0 : opt_level > 3 ? 3 : opt_level;
  pthread_once(&machines_once, machines_init);
  ThreadMachines *t = machines_key == (pthread_key_t)-1 ? NULL : pthread_getspecific(machines_key);
  if (!t && machines_key != (pthread_key_t)-1 && (t = calloc(1, sizeof *t)) != NULL) {
    if (pthread_setspecific(machines_key, t)) {
      xfree(t);
      t = NULL;
    } else {
      pthread_mutex_lock(&machines_lock);
      t->next = kept;
      if (kept) kept->prev = t;
      kept = t;
      pthread_mutex_unlock(&machines_lock);
    }
  }
  if (!t) {
    /* no thread storage: a machine for this call only */
    *owned = true;
    return jit_host_machine(l);
  }
  *owned = false;
  if (!t->tm[l]) t->tm[l] = jit_host_machine(l);
  return t->tm[l];
}

/* The targets this library cross-compiles for, once (llvm_targets.c). */
static pthread_once_t all_once = PTHREAD_ONCE_INIT;
static void init_all(void) { jit_init_cross_targets(); }

LLVMTargetMachineRef jit_target_machine(const char *triple, const char *cpu, const char *features, int opt_level,
                                        char **err) {
  if (!triple && !cpu && !features) return jit_host_machine(opt_level);
  pthread_once(&init_once, init_llvm);
  pthread_once(&all_once, init_all);
  LLVMTargetRef T;
  char *msg = NULL;
  /* a CPU or features without a triple: this machine's triple */
  char *host = triple ? NULL : LLVMGetDefaultTargetTriple();
  char *norm = LLVMNormalizeTargetTriple(triple ? triple : host);
  if (!triple) triple = host;
  if (LLVMGetTargetFromTriple(norm, &T, &msg)) {
    *err = xasprintf("unknown target triple '%s': %s", triple, msg ? msg : "");
    LLVMDisposeMessage(msg);
    LLVMDisposeMessage(norm);
    if (host) LLVMDisposeMessage(host);
    return NULL;
  }
  /* an unknown CPU name is ignored with LLVM's warning; on x86-64 its
     empty feature set would also lose 64-bit mode, which LLVM cannot
     generate code without, so that feature is always asked for */
  const char *given = features ? features : "";
  char *feats = xasprintf("%s%s", given, strncmp(norm, "x86_64", 6) != 0 ? "" : *given ? ",+64bit" : "+64bit");
  LLVMTargetMachineRef tm = LLVMCreateTargetMachine(T, norm, cpu ? cpu : "generic", feats, codegen_level(opt_level),
                                                    LLVMRelocPIC, LLVMCodeModelDefault);
  xfree(feats);
  LLVMDisposeMessage(norm);
  if (!tm) *err = xasprintf("cannot create a target machine for '%s'", triple);
  if (host) LLVMDisposeMessage(host);
  return tm;
}

bool jit_optimize(LLVMModuleRef M, int opt_level, char **err) {
  bool owned;
  LLVMTargetMachineRef tm = jit_thread_machine(opt_level, &owned);
  if (!tm) {
    *err = xstrdup("cannot create a target machine for the host");
    return false;
  }
  bool ok = jit_optimize_for(M, tm, opt_level, err);
  if (owned) LLVMDisposeTargetMachine(tm);
  return ok;
}

void jit_set_target(LLVMModuleRef M, LLVMTargetMachineRef tm) {
  char *triple = LLVMGetTargetMachineTriple(tm);
  LLVMSetTarget(M, triple);
  LLVMDisposeMessage(triple);
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(M, td);
  LLVMDisposeTargetData(td);
}

/* math_approx.c writes 1/d and 1/sqrt(x) for float vectors as divisions
   marked arcp+ninf and refines the result itself, correctly from an
   estimate of 12 bits or more.  On x86 the backend would add a Newton step
   of its own to the estimate instruction (rcp14/rsqrt14: 14 bits, rcpps/
   rsqrtps: 12); the attribute asks for the bare estimate.  No other code
   marks a division arcp, so nothing else changes. */
void jit_raw_estimates(LLVMModuleRef M, LLVMTargetMachineRef tm) {
  char *triple = LLVMGetTargetMachineTriple(tm);
  bool x86 = strncmp(triple, "x86_64", 6) == 0;
  LLVMDisposeMessage(triple);
  if (!x86) return;
  LLVMContextRef c = LLVMGetModuleContext(M);
  static const char key[] = "reciprocal-estimates", val[] = "vec-divf:0,vec-sqrtf:0";
  for (LLVMValueRef f = LLVMGetFirstFunction(M); f; f = LLVMGetNextFunction(f))
    if (LLVMCountBasicBlocks(f))
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                              LLVMCreateStringAttribute(c, key, sizeof key - 1, val, sizeof val - 1));
}

/* The optimizer at levels 2 and 3.  LLVM's default<O3> is built for C and
   C++ (interprocedural passes, instcombine eight times, jump threading,
   ...); generated modules are a function per kernel over static shapes,
   already in the form the vectorizer wants.  These are the passes that
   change them: inlining of kernels called once; SROA for the pointer
   arrays and row buffers (again after the loop passes, where a copy loop
   became a memcpy, and after vectorization, where variable offsets into a
   buffer became constant); LICM, rotation (of while loops: cg.c emits
   its own loops rotated), induction variables and loop idioms; GVN,
   memcpy forwarding and dead stores; the loop and SLP vectorizers.
   Against default<O3> on the benchmark programs and models:
   optimization about 40 % faster, objects within a few percent of the
   same size, with the same stack frames.  Instcombine's fixpoint check is
   for LLVM's own tests. */
#define IC "instcombine<no-verify-fixpoint>"
static const char kernel_pipeline[] =
    "cgscc(inline),"
    "function(sroa,early-cse," IC ",simplifycfg,"
    "loop-mssa(loop-rotate,licm),loop(indvars,loop-idiom,loop-deletion),"
    "sroa,gvn," IC ",memcpyopt,dse,simplifycfg,"
    "loop-simplify,lcssa,loop-vectorize," IC ",simplifycfg,slp-vectorizer," IC ","
    "sroa," IC ",loop-mssa(licm)),"
    "globaldce";
#undef IC

bool jit_optimize_for(LLVMModuleRef M, LLVMTargetMachineRef tm, int opt_level, char **err) {
  jit_set_target(M, tm);
  char *msg = NULL;
  if (LLVMVerifyModule(M, LLVMReturnStatusAction, &msg)) {
    *err = xasprintf("internal error: generated LLVM IR does not verify: %s", msg);
    LLVMDisposeMessage(msg);
    return false;
  }
  LLVMDisposeMessage(msg);
  LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
  LLVMPassBuilderOptionsSetLoopVectorization(o, opt_level >= 2);
  LLVMPassBuilderOptionsSetSLPVectorization(o, opt_level >= 2);
  /* No loop unrolling beyond what the vectorizer interleaves: fully
     unrolled inner loops made basic blocks of thousands of instructions,
     on which LLVM's instruction scheduler is quadratic (Keras InceptionV3
     compiled in 7.1 s with it, 1.5 s without, and runs as fast). */
  LLVMPassBuilderOptionsSetLoopUnrolling(o, 0);
  char pipeline[32];
  snprintf(pipeline, sizeof pipeline, "default<O%d>", opt_level < 0 ? 0 : opt_level > 3 ? 3 : opt_level);
  LLVMErrorRef e = LLVMRunPasses(M, opt_level >= 2 ? kernel_pipeline : pipeline, tm, o);
  LLVMDisposePassBuilderOptions(o);
  if (e) {
    *err = jit_take_error(e);
    return false;
  }
  jit_widen_narrow_vectors(M, tm);
  jit_raw_estimates(M, tm);
  return true;
}

void *jit_new_context(LLVMContextRef *ctx) {
  pthread_once(&init_once, init_llvm);
  LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
  *ctx = LLVMOrcThreadSafeContextGetContext(tsc);
  return tsc;
}

void jit_dispose_context(void *tsctx) { LLVMOrcDisposeThreadSafeContext(tsctx); }

/* ORC reports errors of materializing code (a symbol no library defines)
   to the session's reporter, whose default prints "JIT session error" on
   stderr: a library does not print.  Ours keeps the message for the
   lookup that failed because of it (on this thread: LLJIT materializes in
   the thread that looks up). */
static _Thread_local char *session_error;

static void report_session_error(void *ctx, LLVMErrorRef e) {
  (void)ctx;
  char *m = LLVMGetErrorMessage(e);
  xfree(session_error);
  session_error = strdup(m);
  LLVMDisposeErrorMessage(m);
}

/* An LLJIT for the host with the process's libraries and `syms` visible to
   what is added to it. */
static LLVMOrcLLJITRef new_lljit(const JitSymbol *syms, int nsyms, char **err) {
  pthread_once(&init_once, init_llvm);
  LLVMTargetMachineRef tm = jit_host_machine(3);
  if (!tm) {
    *err = xstrdup("cannot create a target machine for the host");
    return NULL;
  }
  LLVMOrcJITTargetMachineBuilderRef jtmb = LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm);
  LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
  LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, jtmb);
  LLVMOrcLLJITRef lljit;
  LLVMErrorRef e = LLVMOrcCreateLLJIT(&lljit, builder);
  if (e) {
    *err = jit_take_error(e);
    return NULL;
  }
  LLVMOrcExecutionSessionSetErrorReporter(LLVMOrcLLJITGetExecutionSession(lljit), report_session_error, NULL);
  LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(lljit);
  /* libm and libc from the process */
  LLVMOrcDefinitionGeneratorRef gen;
  e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&gen, LLVMOrcLLJITGetGlobalPrefix(lljit), NULL, NULL);
  if (!e) LLVMOrcJITDylibAddGenerator(jd, gen);
  else LLVMConsumeError(e);
  /* the caller's symbols, and the compiler-runtime helpers LLVM may call
     on this CPU (runtime/bf16.c) */
  int nhelp = 0;
  const xlacrt_symbol *help = xlacrt_compiler_rt_symbols(&nhelp);
  int total = nsyms + nhelp;
  if (total > 0) {
    LLVMOrcCSymbolMapPair *pairs = calloc((size_t)total, sizeof(LLVMOrcCSymbolMapPair));
    if (!pairs) {
      LLVMOrcDisposeLLJIT(lljit);
      oom_raise((size_t)total * sizeof(LLVMOrcCSymbolMapPair));
    }
    for (int i = 0; i < total; i++) {
      const char *name = i < nsyms ? syms[i].name : help[i - nsyms].name;
      void *addr = i < nsyms ? syms[i].addr : help[i - nsyms].addr;
      pairs[i].Name = LLVMOrcLLJITMangleAndIntern(lljit, name);
      pairs[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)addr;
      pairs[i].Sym.Flags.GenericFlags = LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
      pairs[i].Sym.Flags.TargetFlags = 0;
    }
    LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, (size_t)total);
    xfree(pairs);
    e = LLVMOrcJITDylibDefine(jd, mu);
    if (e) {
      *err = jit_take_error(e);
      LLVMOrcDisposeLLJIT(lljit);
      return NULL;
    }
  }
  return lljit;
}

static Jit *wrap(LLVMOrcLLJITRef lljit) {
  Jit *j = calloc(1, sizeof(Jit));
  if (!j) {
    LLVMOrcDisposeLLJIT(lljit);
    oom_raise(sizeof(Jit));
  }
  j->lljit = lljit;
  return j;
}

Jit *jit_create(LLVMModuleRef M, const JitSymbol *syms, int nsyms, char **err) {
  /* machine code from this thread's machine (jit_emit_object), not from a
     machine of the LLJIT's own, which would be made anew for every module */
  char *obj = NULL;
  size_t n = 0;
  bool ok = jit_emit_object(M, &obj, &n, err);
  LLVMDisposeModule(M);
  if (!ok) return NULL;
  Jit *j = jit_create_from_object(obj, n, syms, nsyms, err);
  xfree(obj);
  return j;
}

Jit *jit_create_from_object(const void *obj, size_t size, const JitSymbol *syms, int nsyms, char **err) {
  LLVMOrcLLJITRef lljit = new_lljit(syms, nsyms, err);
  if (!lljit) return NULL;
  /* the JIT owns the buffer; the caller keeps obj */
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(obj, size, "xlac-object");
  LLVMErrorRef e = LLVMOrcLLJITAddObjectFile(lljit, LLVMOrcLLJITGetMainJITDylib(lljit), buf);
  if (e) {
    *err = jit_take_error(e);
    LLVMOrcDisposeLLJIT(lljit);
    return NULL;
  }
  return wrap(lljit);
}

Jit *jit_create_from_buffers(LLVMMemoryBufferRef *objs, int n, const JitSymbol *syms, int nsyms, char **err) {
  LLVMOrcLLJITRef lljit = new_lljit(syms, nsyms, err);
  int i = 0;
  for (; lljit && i < n; i++) {
    LLVMErrorRef e = LLVMOrcLLJITAddObjectFile(lljit, LLVMOrcLLJITGetMainJITDylib(lljit), objs[i]);
    if (e) {
      *err = jit_take_error(e);
      LLVMOrcDisposeLLJIT(lljit);
      lljit = NULL;
    }
  }
  /* the buffers not handed over */
  for (; i < n; i++) LLVMDisposeMemoryBuffer(objs[i]);
  return lljit ? wrap(lljit) : NULL;
}

bool jit_emit_object(LLVMModuleRef M, char **data, size_t *size, char **err) {
  bool owned;
  LLVMTargetMachineRef tm = jit_thread_machine(3, &owned);
  if (!tm) {
    *err = xstrdup("cannot create a target machine for the host");
    return false;
  }
  bool ok = jit_emit_object_for(M, tm, data, size, err);
  if (owned) LLVMDisposeTargetMachine(tm);
  return ok;
}

static void dispose_buffer(void *buf) { LLVMDisposeMemoryBuffer(buf); }

bool jit_emit_object_for(LLVMModuleRef M, LLVMTargetMachineRef tm, char **data, size_t *size, char **err) {
  char *msg = NULL;
  LLVMMemoryBufferRef buf = NULL;
  bool ok = !LLVMTargetMachineEmitToMemoryBuffer(tm, M, LLVMObjectFile, &msg, &buf);
  if (!ok) {
    *err = xasprintf("cannot emit the object file: %s", msg ? msg : "unknown error");
    LLVMDisposeMessage(msg);
    return false;
  }
  /* LLVM's buffer is released if the copy runs out of memory */
  OomCleanup c;
  oom_cleanup_push(&c, dispose_buffer, buf);
  *size = LLVMGetBufferSize(buf);
  *data = xmalloc(*size ? *size : 1);
  memcpy(*data, LLVMGetBufferStart(buf), *size);
  oom_cleanup_pop(&c);
  LLVMDisposeMemoryBuffer(buf);
  return true;
}

char *jit_host_description(void) {
  pthread_once(&init_once, init_llvm);
  LLVMTargetMachineRef tm = jit_host_machine(3);
  if (!tm) return xstrdup("no target machine");
  char *triple = LLVMGetTargetMachineTriple(tm);
  char *cpu = LLVMGetTargetMachineCPU(tm);
  char *feats = LLVMGetTargetMachineFeatureString(tm);
  unsigned major = 0, minor = 0, patch = 0;
  LLVMGetVersion(&major, &minor, &patch);
  char *r = xasprintf("triple=%s cpu=%s features=%s llvm=%u.%u.%u", triple, cpu, feats, major, minor, patch);
  LLVMDisposeMessage(triple);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(feats);
  LLVMDisposeTargetMachine(tm);
  return r;
}

/* The host's features, read once: ",+avx2,-amx-tile,...," (commas at
   both ends, so that a feature is found whole). */
static char *host_features;
static pthread_once_t features_once = PTHREAD_ONCE_INIT;

static void read_host_features(void) {
  char *f = LLVMGetHostCPUFeatures();
  host_features = xasprintf(",%s,", f ? f : "");
  LLVMDisposeMessage(f);
}

bool jit_host_has_feature(const char *name) {
  pthread_once(&features_once, read_host_features);
  char want[64];
  snprintf(want, sizeof want, ",+%s,", name);
  return strstr(host_features, want) != NULL;
}

void *jit_lookup(Jit *j, const char *name, char **err) {
  LLVMOrcExecutorAddress addr = 0;
  xfree(session_error);
  session_error = NULL;
  LLVMErrorRef e = LLVMOrcLLJITLookup(j->lljit, &addr, name);
  if (e) {
    char *m = jit_take_error(e);
    /* the session's error names the cause (a missing symbol, ...) */
    *err = session_error ? xasprintf("%s (%s)", m, session_error) : m;
    if (session_error) xfree(m);
    xfree(session_error);
    session_error = NULL;
    return NULL;
  }
  return (void *)(uintptr_t)addr;
}

void jit_free(Jit *j) {
  if (!j) return;
  LLVMOrcDisposeLLJIT(j->lljit);
  xfree(j);
}

