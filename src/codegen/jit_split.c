/*
 * jit_split.c - optimization and machine code on several threads.
 *
 * LLVM optimizes a module and generates its code on one thread, and the
 * two take nearly all of a large program's compile time.  A generated
 * module is an entry function and one function per kernel, which makes it
 * easy to cut: the large kernels are dealt out to a few parts of about
 * equal size (largest first, each to the lightest part); part 0 keeps the
 * entry, every small function and every function a loop of the entry
 * uses, which the inliner takes into it as before.  Each part is a copy
 * of the whole module (written as bitcode once, read by each worker into
 * a context of its own) in which:
 *
 *   - the kernels dealt to other parts, and the entry outside part 0, are
 *     declarations, so the part's global DCE drops whatever only they
 *     used;
 *   - the dealt kernels and the globals that must exist once (anything
 *     written, and constants too large to copy) have external linkage
 *     under their own names; part 0 defines the globals, the other parts
 *     declare them.  Small constant tables stay internal in every part
 *     that uses them, where the optimizer can fold their loads;
 *   - visibility stays default, so references between parts go through
 *     the GOT and PLT that the JIT's linker builds: they work wherever in
 *     memory the parts land.
 *
 * Each worker optimizes its part with the usual pipeline and generates an
 * object with its thread's target machine; the caller links the objects
 * into one JIT (jit_create_from_buffers), where the entry's calls find the
 * kernels by name, and may keep them in the compile cache.  The workers
 * touch only their own context and plain malloc'ed memory; the calling
 * thread waits for them all.
 */
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "codegen/jit.h"

/* functions smaller than this (instructions) stay with the entry; no
   split below 2 x SPLIT_MIN_PART instructions in all.
   XLAC_COMPILE_SPLIT_MIN=N sets the part's least size to N and the
   function's to at most N (tests cut small programs with it).  A cut
   costs a bitcode copy of the module per part and an object more to
   link, a few milliseconds, and LLVM's cost is far from proportional to
   the instructions counted here: on 2 cores (AVX2, medians of 7 fresh
   processes, whole module -> cut) a CNN of 390 instructions compiles in
   51 -> 38 ms, an attention layer of 876 in 71 -> 55, a ResNet block's
   training step in 216 -> 134; a program of 255 (an FFT's two kernels)
   stays whole, which was 2 ms faster than cut. */
#define SPLIT_MIN_FUNCTION 100
#define SPLIT_MIN_PART 150
static long min_part = SPLIT_MIN_PART, min_function = SPLIT_MIN_FUNCTION;
static pthread_once_t limits_once = PTHREAD_ONCE_INIT;

static void read_limits(void) {
  const char *s = getenv("XLAC_COMPILE_SPLIT_MIN");
  long n = s && *s ? strtol(s, NULL, 10) : 0;
  if (n < 1) return;
  min_part = n;
  if (min_function > n) min_function = n;
}
/* constant globals up to this size are copied into every part */
#define SPLIT_COPY_CONSTANT 4096

static double split_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static long function_size(LLVMValueRef f) {
  long n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) n++;
  return n;
}

static bool is_local(LLVMValueRef g) {
  LLVMLinkage l = LLVMGetLinkage(g);
  return l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
}

/* A global stays internal (copied where used) when it is a small
   constant; otherwise it is defined once, in part 0. */
static bool global_shared(LLVMModuleRef M, LLVMValueRef g) {
  if (!LLVMGetInitializer(g) || !is_local(g)) return false;
  if (!LLVMIsGlobalConstant(g)) return true;
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(M);
  return LLVMABISizeOfType(td, LLVMGlobalGetValueType(g)) > SPLIT_COPY_CONSTANT;
}

typedef struct {
  const char *name; /* a function's name (in the caller's module) */
  long size;
  int part;
} Piece;

typedef struct {
  int index;
  int opt_level;
  LLVMModuleRef mod;       /* part 0: the caller's module */
  LLVMMemoryBufferRef bc;  /* the others: read this */
  const char *entry;
  const Piece *pieces;
  int npieces;
  char **shared;           /* names of the globals part 0 defines */
  int nshared;
  LLVMMemoryBufferRef obj; /* out */
  char *err;               /* out: malloc'ed */
  double opt_ms;
} Part;

static char *part_error(const char *what, const char *msg) {
  size_t n = strlen(what) + strlen(msg ? msg : "") + 3;
  char *s = malloc(n);
  if (s) snprintf(s, n, "%s: %s", what, msg ? msg : "");
  return s;
}

/* Replaces function or global g by a declaration of the same name. */
static void declare_only(LLVMModuleRef M, LLVMValueRef g, bool function) {
  size_t len = 0;
  const char *nm = LLVMGetValueName2(g, &len);
  char *name = strndup(nm, len);
  if (!name) return;
  LLVMSetValueName2(g, "", 0);
  LLVMValueRef d;
  if (function) {
    d = LLVMAddFunction(M, name, LLVMGlobalGetValueType(g));
    LLVMSetFunctionCallConv(d, LLVMGetFunctionCallConv(g));
  } else {
    d = LLVMAddGlobal(M, LLVMGlobalGetValueType(g), name);
    LLVMSetAlignment(d, LLVMGetAlignment(g));
    LLVMSetGlobalConstant(d, LLVMIsGlobalConstant(g));
    LLVMSetThreadLocal(d, LLVMIsThreadLocal(g));
  }
  xfree(name);
  LLVMReplaceAllUsesWith(g, d);
  if (function) LLVMDeleteFunction(g);
  else LLVMDeleteGlobal(g);
}

/* Deletes the local functions and globals nothing uses any more (the
   optimizer's global DCE runs last, after every function pass has worked
   on them). */
static void drop_dead(LLVMModuleRef M) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (LLVMValueRef f = LLVMGetFirstFunction(M), next; f; f = next) {
      next = LLVMGetNextFunction(f);
      if (is_local(f) && !LLVMGetFirstUse(f)) {
        LLVMDeleteFunction(f);
        changed = true;
      }
    }
  }
  for (LLVMValueRef g = LLVMGetFirstGlobal(M), next; g; g = next) {
    next = LLVMGetNextGlobal(g);
    if (is_local(g) && !LLVMGetFirstUse(g)) LLVMDeleteGlobal(g);
  }
}

static void cut_part(Part *p) {
  LLVMModuleRef M = p->mod;
  for (int i = 0; i < p->npieces; i++) {
    if (p->pieces[i].part == p->index) continue;
    LLVMValueRef f = LLVMGetNamedFunction(M, p->pieces[i].name);
    if (f) declare_only(M, f, true);
  }
  if (p->index != 0) {
    LLVMValueRef e = LLVMGetNamedFunction(M, p->entry);
    if (e) declare_only(M, e, true);
    for (int i = 0; i < p->nshared; i++) {
      LLVMValueRef g = LLVMGetNamedGlobal(M, p->shared[i]);
      if (g) declare_only(M, g, false);
    }
  }
  drop_dead(M);
}

static void compile_part(Part *p) {
  LLVMContextRef ctx = NULL;
  if (!p->mod) {
    ctx = LLVMContextCreate();
    char *msg = NULL;
    if (LLVMParseBitcodeInContext2(ctx, p->bc, &p->mod)) {
      p->err = part_error("cannot read a part of the module", msg);
      LLVMContextDispose(ctx);
      return;
    }
  }
  cut_part(p);
  /* optimized with the level's machine, code from level 3's, as
     jit_optimize and jit_emit_object do */
  bool owned = false, owned3 = false;
  LLVMTargetMachineRef tm = jit_thread_machine(p->opt_level, &owned);
  LLVMTargetMachineRef tm3 = tm ? jit_thread_machine(3, &owned3) : NULL;
  char *err = NULL;
  double t0 = split_now_ms();
  if (!tm || !tm3) {
    p->err = strdup("cannot create a target machine for the host");
  } else if (!jit_optimize_for(p->mod, tm, p->opt_level, &err)) {
    p->err = err;
  } else {
    p->opt_ms = split_now_ms() - t0;
    char *msg = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm3, p->mod, LLVMObjectFile, &msg, &p->obj)) {
      p->err = part_error("cannot emit the object file", msg);
      p->obj = NULL;
    }
    LLVMDisposeMessage(msg);
  }
  if (tm && owned) LLVMDisposeTargetMachine(tm);
  if (tm3 && owned3) LLVMDisposeTargetMachine(tm3);
  if (ctx) {
    LLVMDisposeModule(p->mod);
    LLVMContextDispose(ctx);
    p->mod = NULL;
  }
}

/* Messages are made with plain malloc here; jit_optimize_for's may come
   from the x* functions, whose limit a worker meets under a guard of its
   own (what it held then is lost, as on the command line). */
static void *run_part(void *arg) {
  Part *p = arg;
  OomGuard g;
  oom_push(&g);
  if (setjmp(g.jb) == 0) compile_part(p);
  else if (!p->err) p->err = strdup("out of memory in code generation");
  oom_pop(&g);
  return NULL;
}

int jit_compile_threads(void) {
  const char *s = getenv("XLAC_COMPILE_THREADS");
  long n = 0;
  if (s && *s) {
    n = strtol(s, NULL, 10);
  } else {
    cpu_set_t set;
    n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
  }
  return n < 1 ? 1 : n > JIT_SPLIT_MAX_PARTS ? JIT_SPLIT_MAX_PARTS : (int)n;
}

/* LLVM builds some of its process-wide state when first used (the pass
   timers' registry, the code generator's tables), behind atomics of its
   own.  The first split compilation of a process first runs a tiny module
   through the optimizer and the code generator on the calling thread, so
   that the workers find that state built: what a thread sanitizer can
   check, which does not see into LLVM, then orders their use after its
   building (thread creation) instead of reporting the two as a race. */
static pthread_once_t warm_once = PTHREAD_ONCE_INIT;

static void warm_up(void) {
  bool owned = false;
  LLVMTargetMachineRef tm = jit_thread_machine(3, &owned);
  if (!tm) return;
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef M = LLVMModuleCreateWithNameInContext("warm", ctx);
  LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), NULL, 0, false);
  LLVMValueRef f = LLVMAddFunction(M, "warm", fty);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, f, "entry"));
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  char *err = NULL, *msg = NULL;
  LLVMMemoryBufferRef obj = NULL;
  if (jit_optimize_for(M, tm, 3, &err) && !LLVMTargetMachineEmitToMemoryBuffer(tm, M, LLVMObjectFile, &msg, &obj))
    LLVMDisposeMemoryBuffer(obj);
  xfree(err);
  LLVMDisposeMessage(msg);
  LLVMDisposeModule(M);
  LLVMContextDispose(ctx);
  if (owned) LLVMDisposeTargetMachine(tm);
}

/* ---- kernels used inside the entry's loops ----
 * A kernel used inside a loop of the entry (a while loop's body) stays in
 * part 0: there a small one is inlined into the loop, which a call into
 * another part prevents (an LSTM step ran 4.5 -> 5.7 ms with its kernels
 * dealt out).  A block is in a loop when it can reach itself. */

typedef struct {
  LLVMBasicBlockRef *blocks; /* sorted by address */
  int n;
  unsigned char *seen;
  unsigned char *loop; /* per block: 0 not known yet, 1 in a loop, 2 not */
  int *stack;
} Cfg;

static int by_address(const void *a, const void *b) {
  uintptr_t x = (uintptr_t) * (const LLVMBasicBlockRef *)a, y = (uintptr_t) * (const LLVMBasicBlockRef *)b;
  return x < y ? -1 : x > y;
}

static int block_index(const Cfg *g, LLVMBasicBlockRef b) {
  LLVMBasicBlockRef *p = bsearch(&b, g->blocks, (size_t)g->n, sizeof *g->blocks, by_address);
  return p ? (int)(p - g->blocks) : -1;
}

static bool reaches_itself(Cfg *g, int target) {
  int top = 0;
  memset(g->seen, 0, (size_t)g->n);
  g->stack[top++] = target;
  while (top) {
    int i = g->stack[--top];
    LLVMValueRef term = LLVMGetBasicBlockTerminator(g->blocks[i]);
    unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
    for (unsigned k = 0; k < ns; k++) {
      int j = block_index(g, LLVMGetSuccessor(term, k));
      if (j == target) return true;
      if (j >= 0 && !g->seen[j]) {
        g->seen[j] = 1;
        g->stack[top++] = j;
      }
    }
  }
  return false;
}

/* Each block is walked from once: the entry's kernels are mostly called
   from a few blocks. */
static bool in_cycle(Cfg *g, LLVMBasicBlockRef start) {
  int target = block_index(g, start);
  if (target < 0) return true;
  if (!g->loop[target]) g->loop[target] = reaches_itself(g, target) ? 1 : 2;
  return g->loop[target] == 1;
}

/* Whether f is used by an instruction in a loop of entry (true when out
   of memory: then nothing moves). */
static bool used_in_loop(Cfg *g, LLVMValueRef entry, LLVMValueRef f) {
  if (!g->blocks) return true;
  for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user)) continue;
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(user);
    if (LLVMGetBasicBlockParent(bb) == entry && in_cycle(g, bb)) return true;
  }
  return false;
}

static void cfg_init(Cfg *g, LLVMValueRef entry) {
  memset(g, 0, sizeof *g);
  int n = entry ? (int)LLVMCountBasicBlocks(entry) : 0;
  if (n <= 0) return;
  g->blocks = malloc(sizeof *g->blocks * (size_t)n);
  g->seen = malloc((size_t)n);
  g->loop = calloc((size_t)n, 1);
  g->stack = malloc(sizeof *g->stack * (size_t)n);
  if (!g->blocks || !g->seen || !g->loop || !g->stack) {
    xfree(g->blocks);
    xfree(g->seen);
    xfree(g->loop);
    xfree(g->stack);
    memset(g, 0, sizeof *g);
    return;
  }
  LLVMGetBasicBlocks(entry, g->blocks);
  g->n = n;
  qsort(g->blocks, (size_t)n, sizeof *g->blocks, by_address);
}

static void cfg_free(Cfg *g) {
  xfree(g->blocks);
  xfree(g->seen);
  xfree(g->loop);
  xfree(g->stack);
}

static int by_size(const void *a, const void *b) {
  long x = ((const Piece *)a)->size, y = ((const Piece *)b)->size;
  return x < y ? 1 : x > y ? -1 : 0;
}

/* The pieces of M (names borrowed from M, *npieces of them; NULL when
   out of memory) dealt to nparts parts, largest first, each to the
   lightest part; load[k] receives part k's instructions.  Part 0 starts
   with the entry and every function too small to move. */
static Piece *plan(LLVMModuleRef M, const char *entry, int nparts, int *npieces, long *load) {
  int cap = 0, n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(M); f; f = LLVMGetNextFunction(f)) cap++;
  Piece *pieces = calloc((size_t)cap + 1, sizeof(Piece));
  for (int k = 0; k < nparts; k++) load[k] = 0;
  LLVMValueRef ef = LLVMGetNamedFunction(M, entry);
  Cfg cfg;
  cfg_init(&cfg, ef);
  for (LLVMValueRef f = LLVMGetFirstFunction(M); pieces && f; f = LLVMGetNextFunction(f)) {
    long size = function_size(f);
    size_t len = 0;
    const char *nm = LLVMGetValueName2(f, &len);
    if (size < min_function || !len || f == ef || used_in_loop(&cfg, ef, f)) load[0] += size;
    else pieces[n++] = (Piece){nm, size, 0};
  }
  cfg_free(&cfg);
  if (pieces) qsort(pieces, (size_t)n, sizeof(Piece), by_size);
  for (int i = 0; i < n; i++) {
    int best = 0;
    for (int k = 1; k < nparts; k++)
      if (load[k] < load[best]) best = k;
    pieces[i].part = best;
    load[best] += pieces[i].size;
  }
  *npieces = n;
  return pieces;
}

int jit_split_parts(LLVMModuleRef M, const char *entry, int max_parts) {
  pthread_once(&limits_once, read_limits);
  if (max_parts > JIT_SPLIT_MAX_PARTS) max_parts = JIT_SPLIT_MAX_PARTS;
  long total = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(M); f; f = LLVMGetNextFunction(f)) total += function_size(f);
  long parts = total / min_part;
  if (parts > max_parts) parts = max_parts;
  if (parts < 2) return 1;
  long load[JIT_SPLIT_MAX_PARTS];
  int n = 0;
  Piece *pieces = plan(M, entry, (int)parts, &n, load);
  xfree(pieces);
  /* worth it when the heaviest part is well below the whole */
  long most = 0;
  int used = 0;
  for (int k = 0; k < parts; k++) {
    if (load[k] > most) most = load[k];
    used += load[k] > 0;
  }
  return pieces && most * 4 <= total * 3 && used >= 2 ? used : 1;
}

static void free_strings(char **s, int n) {
  for (int i = 0; i < n; i++) xfree(s[i]);
  xfree(s);
}

bool jit_compile_split(LLVMModuleRef M, const char *entry, int nparts, int opt_level, LLVMMemoryBufferRef *objs,
                       char **err, double *opt_ms) {
  *opt_ms = 0;
  pthread_once(&limits_once, read_limits);
  if (nparts > JIT_SPLIT_MAX_PARTS) nparts = JIT_SPLIT_MAX_PARTS;
  /* the pieces, with names of their own: part 0 renames M's functions
     while the other parts look theirs up */
  long load[JIT_SPLIT_MAX_PARTS];
  int npieces = 0;
  Piece *pieces = plan(M, entry, nparts, &npieces, load);
  char **names = calloc((size_t)npieces + 1, sizeof(char *));
  bool ok = pieces && names;
  for (int i = 0; ok && i < npieces; i++) ok = (pieces[i].name = names[i] = strdup(pieces[i].name)) != NULL;
  /* the globals defined once: named, external */
  int gcap = 0, nshared = 0;
  for (LLVMValueRef g = LLVMGetFirstGlobal(M); g; g = LLVMGetNextGlobal(g)) gcap++;
  char **shared = calloc((size_t)gcap + 1, sizeof(char *));
  ok = ok && shared;
  int unnamed = 0;
  for (LLVMValueRef g = LLVMGetFirstGlobal(M); ok && g; g = LLVMGetNextGlobal(g)) {
    if (!global_shared(M, g)) continue;
    size_t len = 0;
    LLVMGetValueName2(g, &len);
    if (!len) {
      char nm[48];
      /* a name no generated symbol has ('.' starts none of them) */
      for (;;) {
        snprintf(nm, sizeof nm, ".xlac.split.%d", unnamed++);
        if (!LLVMGetNamedGlobal(M, nm)) break;
      }
      LLVMSetValueName2(g, nm, strlen(nm));
    }
    const char *nm = LLVMGetValueName2(g, &len);
    if (!(shared[nshared] = strndup(nm, len))) {
      ok = false;
      break;
    }
    nshared++;
    LLVMSetLinkage(g, LLVMExternalLinkage);
    LLVMSetVisibility(g, LLVMDefaultVisibility);
    LLVMSetUnnamedAddr(g, false);
  }
  if (!ok) {
    xfree(pieces);
    free_strings(names, npieces);
    free_strings(shared, nshared);
    LLVMDisposeModule(M);
    *err = strdup("out of memory while splitting the module");
    return false;
  }
  /* what other parts call goes by name: the pieces dealt out, and a piece
     of part 0 used anywhere but in the entry and part 0's other pieces
     (small functions are copied into every part) */
  for (int i = 0; i < npieces; i++) {
    LLVMValueRef f = LLVMGetNamedFunction(M, pieces[i].name);
    bool outside = pieces[i].part != 0 || !is_local(f);
    for (LLVMUseRef u = LLVMGetFirstUse(f); u && !outside; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      LLVMBasicBlockRef bb = LLVMIsAInstruction(user) ? LLVMGetInstructionParent(user) : NULL;
      LLVMValueRef in = bb ? LLVMGetBasicBlockParent(bb) : NULL;
      size_t len = 0;
      const char *nm = in ? LLVMGetValueName2(in, &len) : "";
      bool home = in && strcmp(nm, entry) == 0;
      for (int j = 0; j < npieces && in && !home; j++) home = pieces[j].part == 0 && strcmp(nm, pieces[j].name) == 0;
      outside = !home;
    }
    if (outside) {
      LLVMSetLinkage(f, LLVMExternalLinkage);
      LLVMSetVisibility(f, LLVMDefaultVisibility);
    }
  }
  pthread_once(&warm_once, warm_up);
  LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(M);
  Part parts[JIT_SPLIT_MAX_PARTS];
  pthread_t th[JIT_SPLIT_MAX_PARTS];
  bool started[JIT_SPLIT_MAX_PARTS] = {0};
  for (int k = 0; k < nparts; k++)
    parts[k] = (Part){.index = k, .opt_level = opt_level, .mod = k == 0 ? M : NULL, .bc = bc, .entry = entry,
                      .pieces = pieces, .npieces = npieces, .shared = shared, .nshared = nshared};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, (size_t)16 << 20);
  for (int k = 1; k < nparts && bc; k++) started[k] = pthread_create(&th[k], &attr, run_part, &parts[k]) == 0;
  pthread_attr_destroy(&attr);
  /* a part no thread took is compiled here, after part 0 */
  run_part(&parts[0]);
  LLVMDisposeModule(M);
  for (int k = 1; k < nparts; k++) {
    if (started[k]) pthread_join(th[k], NULL);
    else if (bc) run_part(&parts[k]);
    else parts[k].err = strdup("cannot write the module as bitcode");
  }
  if (bc) LLVMDisposeMemoryBuffer(bc);
  xfree(pieces);
  free_strings(names, npieces);
  free_strings(shared, nshared);
  char *first = NULL;
  bool failed = false;
  for (int k = 0; k < nparts; k++) {
    if (parts[k].opt_ms > *opt_ms) *opt_ms = parts[k].opt_ms;
    objs[k] = parts[k].obj;
    if (!parts[k].obj) failed = true;
    if (!first && parts[k].err) first = parts[k].err;
    else xfree(parts[k].err);
  }
  if (failed) {
    for (int k = 0; k < nparts; k++)
      if (objs[k]) LLVMDisposeMemoryBuffer(objs[k]);
    *err = first ? first : strdup("out of memory in code generation");
    return false;
  }
  return true;
}
