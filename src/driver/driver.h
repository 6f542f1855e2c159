/*
 * driver.h - the `xlac` command line: loading source files into modules
 * and the run / print / verify commands.  tools/xlac-main.c is a thin main
 * over xlac_main(); the pieces are exposed so tests and other tools can
 * reuse them.
 */
#ifndef XLAC_DRIVER_H
#define XLAC_DRIVER_H

#include "interp/interp.h"

/* Loads `path` and parses it: one module, or with `split` one per chunk
   between lines that are exactly "// -----".  HLO text is recognized by
   hlo_sniff, anything else is parsed as StableHLO MLIR; each chunk is parsed
   in place so diagnostics carry the real line numbers, then verified.
   Returns a heap array of *n entries in which a chunk that failed to parse
   or verify is NULL (its diagnostics already printed), or NULL when the file
   itself cannot be used. */
Module **load_modules(const char *path, bool split, int *n);
void free_modules(Module **mods, int n);

/* The streaming form: parses the chunks one at a time and calls fn right
   after each (with *m NULL when the chunk failed), so that diagnostics of
   later chunks come after whatever fn did with earlier ones.  fn may keep a
   module by taking it and setting *m to NULL; otherwise it is freed.  Stores
   the source file id in *file (if non-NULL); returns false when the file
   itself cannot be used. */
typedef void (*ChunkFn)(Module **m, int index, int count, void *ud);
bool for_each_module(const char *path, bool split, ChunkFn fn, void *ud, int *file);

/* Parses a literal written on the command line ("3.5", "[1, 2]",
   "[[1, 2], [3, 4]]", "true", "(1, 2)" for complex, "nan", "-inf") as a
   tensor of type t.  On failure returns NULL with *err set (heap). */
Literal *parse_cli_literal(const char *text, const Type *t, char **err);

/* Fills l with deterministic pseudo-random values from *state: floats in
   [-1, 1), small integers, random booleans. */
void random_fill(Literal *l, uint64_t *state);

typedef struct RunInput {
  const char *name;  /* parameter name (without %) or position */
  const char *value; /* literal text, or @path of an .npy file */
} RunInput;

typedef enum Backend { BACKEND_INTERP, BACKEND_CPU, BACKEND_GPU } Backend;

typedef enum RunMode { MODE_RUN, MODE_BENCH, MODE_COMPARE } RunMode;

typedef struct RunOptions {
  RunMode mode;      /* run, bench (time executions), compare (interp vs cpu) */
  int warmup, iters; /* bench */
  Backend backend;
  int threads;       /* cpu backend: worker threads (0: all cores) */
  bool split;
  const char *entry;
  RunInput *inputs;
  int ninputs;
  RunInput *expects; /* --expect RESULT=@file.npy: name is the index or name, value the path */
  int nexpects;
  double atol, rtol; /* their tolerance: |got - want| <= atol + rtol * |want| */
  bool random_inputs;
  uint64_t seed;
  const char *output_dir;
  int replicas, partitions;
  const char *probe_dir;
  bool print_all;
  bool verbose; /* also report passing checks */
  /* cpu backend: XLA's dump flags (--xla_dump_to etc., also from XLA_FLAGS) */
  const char *dump_dir, *dump_pass_re;
  bool dump_as_dot, dump_as_html;
  bool flush_denormals; /* --flush-denormals: cpu backend, FTZ and DAZ */
  int profile;       /* --profile[=N]: cpu backend, print where the time went, N
                        rows (-1: all; 0: no profile) */
  double timeout;    /* --timeout: seconds after which loops stop (0: none) */
  const char *compile_cache; /* --compile-cache DIR (or XLAC_COMPILE_CACHE): keep
                                compiled code there for later processes */
} RunOptions;

/* --timeout (timer.c): a thread that sets c->stop once `seconds` have
   passed, unless stopped first.  run_timer_stop accepts NULL. */
typedef struct RunTimer RunTimer;
RunTimer *run_timer_start(double seconds, InterpCancel *c);
void run_timer_stop(RunTimer *t);
/* Whether the run is compiling now: a compilation still inside LLVM a
   grace period after the time is up ends the process (exit status 1)
   with an error.  Accepts NULL. */
void run_timer_compiling(RunTimer *t, bool on);

/* `xlac run`: returns the process exit status. */
int driver_run(const char *path, const RunOptions *o);

/* `xlac print` / `xlac verify`. */
int driver_print(const char *path, const char *format, bool split);
int driver_verify(const char *path, bool split, bool verify_diagnostics);

/* Option `name` of the commands with their own parsers (opt, aot) at
   argv[*i]: "--name=value" or "--name value" (then *i moves past the value;
   *value is NULL when there is none). */
bool driver_option_value(int argc, char **argv, int *i, const char *name, const char **value);

/* TensorFlow graphs (load.c): the Config and fetches every command uses
   for a GraphDef (from --config / --fetch, and --checkpoint / --saver
   for its variables; the arrays are the caller's and must outlive the
   command).  A path is read as a GraphDef when it ends in .pb, .pbtxt,
   .graphdef or .prototxt, or whenever a Config or checkpoint is given. */
void driver_set_tf_options(const char *config, const char **fetches, int nfetches, const char *checkpoint,
                           const char *saver);
/* `xlac tf-clusters` (load.c). */
int driver_tf_clusters(int argc, char **argv);

/* The whole command line. */
int xlac_main(int argc, char **argv);

#endif
