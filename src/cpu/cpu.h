/*
 * cpu.h - the CPU backend: compile a function to native code with LLVM and
 * run it.
 *
 * cpu_compile runs the optimization pipeline (passes/), assigns buffers,
 * emits one LLVM module (a kernel per fusion or op, and an entry function
 * that calls them in order), optimizes it at O3 for the host CPU and
 * JIT-compiles it with ORC LLJIT.  Ops the emitters do not handle yet run
 * through a thunk into the reference interpreter; `cpu_executable_stats`
 * says how many ops were compiled natively and how many went through it.
 */
#ifndef XLAC_CPU_CPU_H
#define XLAC_CPU_CPU_H

#include "interp/interp.h"

struct CpuAot;

typedef struct CpuOptions {
  int threads;             /* worker threads; <= 0: the number of cores */
  int opt_level;           /* LLVM optimization level 0..3 (default 3) */
  bool no_fusion;          /* skip the fusion passes (debugging) */
  bool verify_each;        /* verify the IR after every pass */
  const char *dump_dir;    /* --xla_dump_to: write dumps here (NULL: none) */
  const char *dump_pass_re;/* --xla_dump_hlo_pass_re: dump around matching passes */
  bool dump_as_dot;        /* --xla_dump_hlo_as_dot */
  bool dump_as_html;       /* --xla_dump_hlo_as_html */
  int module_id;           /* NNNN in dump file names */
  const char *cache_dir;   /* persistent compile cache: compiled objects are kept
                              in this directory and reused by later processes
                              (NULL: none); see objcache.c */
  struct xlacrt_pool *pool;/* borrowed: run on this pool (NULL: the executable makes its own of `threads`) */
  /* Donation: alias_param[r] (nalias entries, by flattened result) is the
     parameter result r may be computed into, or -1; see
     cpu_executable_in_place. */
  const int *alias_param;
  int nalias;
  /* Ahead-of-time compilation (see CpuAot): no JIT; the object goes there. */
  struct CpuAot *aot;
  /* stop raised: compiling ends at its next step with an error (NULL: never) */
  const InterpCancel *cancel;
  /* time every op and fusion the entry runs, in every execution
     (cpu_executable_profile); costs two clock reads per op */
  bool profile;
  /* executions run with x86's FTZ and DAZ set: denormal floats are
     flushed to zero as operands and results (XLA:CPU's mode) */
  bool flush_denormals;
} CpuOptions;

/* ---- ahead-of-time compilation (aot.c) ----
 * With CpuOptions.aot set, cpu_compile generates an object file instead of
 * JIT-compiling: the entry function `<prefix>_entry` with the signature
 * runtime/xlacrt.h gives xlacrt_aot_entry_fn, every constant, and the
 * descriptor `const xlacrt_aot_program <prefix>_program` (in the object,
 * or with separate_metadata in an object of its own).  The object needs
 * nothing but libxlacrt, libc and libm: an op that would run in the
 * interpreter thunk is an error at the op (every one is reported), and a
 * custom call becomes a call of the C function named by its target, which
 * the program linking the object provides.  The executable cpu_compile
 * returns then only reports statistics; it cannot execute. */
/* The symbol an object calls for custom-call target T: CPU_AOT_CALL_PREFIX T. */
#define CPU_AOT_CALL_PREFIX "xlac_cc_"

typedef struct CpuAotCall {
  char *target; /* a C identifier */
  int nargs, nresults;
} CpuAotCall;

typedef struct CpuAot {
  /* in */
  const char *triple, *cpu, *features; /* all NULL: the host; see jit_target_machine */
  const char *prefix;                  /* C identifier for the symbols */
  const char *entry_symbol;            /* the entry function's symbol (NULL: <prefix>_entry) */
  const char *name;                    /* the program's name in the descriptor */
  const char *source;                  /* the object's source file name (linker messages) */
  const char *const *arg_names;        /* per flattened parameter (NULL: "argN") */
  int narg_names;
  const char *const *result_names;     /* per flattened result (NULL: "resultN") */
  int nresult_names;
  bool separate_metadata;
  /* out (xfree) */
  char *object, *metadata;
  size_t object_size, metadata_size;
  int64_t temp_bytes;
  CpuAotCall *calls;                   /* custom-call targets the object calls */
  int ncalls;
} CpuAot;
void cpu_aot_free(CpuAot *a);

typedef struct CpuExecutable CpuExecutable;

/* What the persistent compile cache did for one compilation. */
typedef enum CpuCacheResult {
  CPU_CACHE_OFF,      /* no cache_dir */
  CPU_CACHE_HIT,      /* loaded the object an earlier compilation stored */
  CPU_CACHE_MISS,     /* no entry: compiled, and stored */
  CPU_CACHE_REPLACED, /* the entry was unusable (truncated, corrupted): compiled
                         and stored anew; cache_note says what was wrong */
  CPU_CACHE_ERROR,    /* the directory could not be used (not creatable, not
                         writable): compiled, not stored; cache_note says why */
} CpuCacheResult;

typedef struct CpuStats {
  int native_ops;          /* top-level ops compiled to native code */
  int fallback_ops;        /* top-level ops run by the interpreter thunk */
  int fusions;             /* fusion kernels */
  int64_t temp_bytes;      /* the temp arena */
  double compile_ms;       /* passes + LLVM + JIT */
  /* where compile_ms went: the pass pipeline, generating LLVM IR, LLVM's
     optimizer, machine code (instruction selection to a linked object) */
  double passes_ms, ir_ms, llvm_opt_ms, machine_ms;
  int compile_threads;     /* threads the optimizer and code generator ran on */
  CpuCacheResult cache;    /* the persistent compile cache (cache_dir) */
  char cache_note[320];    /* with CPU_CACHE_REPLACED or CPU_CACHE_ERROR: why */
} CpuStats;

/* Compiles function `entry` of module m.  The module is optimized in place
   and must outlive the executable.  Returns NULL on failure (diagnostics
   printed). */
CpuExecutable *cpu_compile(Module *m, Func *entry, const CpuOptions *o);
/* Runs it: args are the entry parameters; results receive new references.
   A results[i] that is already set must be NULL or an unshared tensor of
   the result's type, whose storage is then reused (overwritten).
   Ops that run through the interpreter use I (its options, probe directory
   and check counters).  One execution at a time per executable. */
bool cpu_execute(CpuExecutable *e, Interp *I, int nargs, IVal **args, IVal **results);
const CpuStats *cpu_executable_stats(const CpuExecutable *e);
/* With CpuOptions.profile: the time spent in each op and fusion over the
   executions so far, as a table (most expensive first; at most `top` rows,
   all when top <= 0), appended to b; reset clears the totals afterwards.
   False (nothing appended) when the executable was not compiled with it. */
bool cpu_executable_profile(CpuExecutable *e, StrBuf *b, int top, bool reset);
/* Whether result r is computed straight into the storage of the parameter
   CpuOptions.alias_param names (inplace.c): the caller may then pass that
   parameter's buffer as the result's (cpu_execute's storage reuse) and
   have it updated in place.  False for anything else. */
bool cpu_executable_in_place(const CpuExecutable *e, int r);
Func *cpu_executable_entry(const CpuExecutable *e);
/* What was compiled: the entry with tuple parameters and results flattened
   (the entry itself when it has none). */
Func *cpu_executable_flat(const CpuExecutable *e);
void cpu_executable_free(CpuExecutable *e);

/* ---- the compile cache ----
 * Executables keyed by the program's fingerprint (its canonical printed
 * text, which includes every shape), the entry function's name and the
 * options that change the generated code.  A program seen with new input
 * shapes has a different text and compiles anew; a repeated one is served
 * from the cache.  The cache compiles a private copy of the module (parsed
 * back from that text), so it owns its executables and their modules. */
typedef struct CpuCache CpuCache;
CpuCache *cpu_cache_new(void);
/* Finds or compiles; the executable belongs to the cache.  *hit (may be
   NULL) says which.  NULL on failure (diagnostics printed). */
CpuExecutable *cpu_cache_get(CpuCache *c, const Module *m, const char *entry, const CpuOptions *o,
                             bool *hit);
int cpu_cache_size(const CpuCache *c);
void cpu_cache_free(CpuCache *c);

#endif
