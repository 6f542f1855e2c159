/*
 * main.c - the `xlac` command line: subcommands and their options.
 *
 * Options take their value either as `--opt=value` or as the next argument.
 * Usage mistakes print a message naming the problem and exit with status 1,
 * like any other bad input.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "api/flags.h"
#include "codegen/jit.h"
#include "driver/driver.h"
#include "frontends/tensorflow/tf.h"
#include "ir/opdoc.h"
#include "support/version.h"
#include "xlacrt.h"

static const char usage_text[] =
    "usage: xlac <command> [options] FILE\n"
    "\n"
    "commands:\n"
    "  run      interpret a program and print its results\n"
    "  print    parse, verify and print a program\n"
    "  verify   parse and verify a program\n"
    "  aot      compile ahead of time into an object file and a header\n"
    "\n"
    "xlac run [options] FILE\n"
    "  --backend=cpu|interp|gpu  execution backend: LLVM-compiled native code, the\n"
    "                            reference interpreter, or PTX kernels run through the\n"
    "                            CUDA driver (docs/gpu.md) (default: cpu; the environment\n"
    "                            variable XLAC_BACKEND=interp|cpu|gpu changes the default)\n"
    "  --threads N               cpu backend: worker threads, 1 to 1024 (default, or 0:\n"
    "                            all cores)\n"
    "  --max-alloc SIZE          refuse any single allocation larger than SIZE (bytes, or\n"
    "                            with K/M/G: 512M, 8G), with an error at the op; default:\n"
    "                            the machine's memory (or XLAC_MAX_ALLOC)\n"
    "  --timeout SECONDS         stop loops once SECONDS (> 0, fractions allowed) have\n"
    "                            passed: a while loop still running fails with an error at\n"
    "                            the loop, exit status 1 (also for bench and compare)\n"
    "  --split-input-file        treat each '// -----' separated chunk as its own module\n"
    "  --entry NAME              function to run (default: @main, the HLO ENTRY, the only\n"
    "                            function, or else every public zero-argument function)\n"
    "  --args='[dense<..> : tensor<..>, ...]'\n"
    "                            all parameters in order, as MLIR dense literals\n"
    "  --input NAME=VALUE        a parameter by name or position; VALUE is a literal such as\n"
    "                            3.5, [1, 2] or [[1, 2], [3, 4]], or @file.npy\n"
    "  --random-inputs           fill parameters not given with pseudo-random values\n"
    "  --seed N                  seed for --random-inputs (default 0)\n"
    "  --output-dir DIR          also write results as DIR/result0.npy, result1.npy, ...\n"
    "  --expect RESULT=@F.npy    check a result (by index or name) against an .npy file:\n"
    "                            floats within --atol A + --rtol R * |expected| (default\n"
    "                            1e-5 and 1e-4), complex numbers the same on the\n"
    "                            magnitudes |got - expected| and |expected|, other\n"
    "                            types exactly; exit 1 otherwise\n"
    "  --probe-dir DIR           where interpreter.probe stores values (default: a temp dir)\n"
    "  --replicas N              run N replicas (collectives)\n"
    "  --partitions N            run N partitions per replica\n"
    "  --print-all               print large tensors in full\n"
    "  --verbose                 also report passing checks (and, compiled, the op\n"
    "                            counts and whether the compile cache had the program)\n"
    "  --flush-denormals         cpu backend: flush denormal floats to zero, as operands\n"
    "                            and results (as XLA:CPU does; IEEE denormals otherwise)\n"
    "  --profile[=N]             time every op and fusion (cpu backend; gpu: every kernel\n"
    "                            launch, library call and host step, with device events)\n"
    "                            and print the N (default 30; 0: all) that took longest,\n"
    "                            per execution (bench: over the timed runs)\n"
    "  --compile-cache DIR       cpu backend: keep compiled code in DIR and reuse it in\n"
    "                            later runs of the same program (or XLAC_COMPILE_CACHE)\n"
    "  --xla_dump_to=DIR         cpu backend: write XLA-style dumps to DIR (HLO before and\n"
    "                            after optimizations, buffer assignment, LLVM IR, object)\n"
    "  --xla_dump_hlo_as_dot     also draw the module as Graphviz dot\n"
    "  --xla_dump_hlo_as_html    also draw the module as a self-contained html page\n"
    "  --xla_dump_hlo_pass_re=RE also dump between passes whose name RE matches\n"
    "                            (these flags are also read from XLA_FLAGS)\n"
    "\n"
    "xlac bench [run options] [--warmup N] [--iters N] FILE\n"
    "                            compile (cpu backend unless --backend=interp) and time\n"
    "                            executions; prints a BENCH line with compile_ms, median_ms,\n"
    "                            min_ms\n"
    "xlac compare [run options] FILE\n"
    "                            run the interpreter and the cpu backend (or with\n"
    "                            --backend=gpu the gpu backend) on the same inputs\n"
    "                            and report max absolute/relative error and ULP per output\n"
    "\n"
    "xlac print [--format=mlir|hlo] [--split-input-file] FILE\n"
    "xlac verify [--verify-diagnostics] [--split-input-file] FILE\n"
    "  --verify-diagnostics      compare diagnostics with // expected-error {{...}} annotations\n"
    "\n"
    "xlac opt [--pass NAME]... [--pipeline=cpu|gpu] [--format=mlir|hlo] FILE\n"
    "                            run optimization passes (--list-passes) and print the result\n"
    "xlac aot [options] FILE     compile ahead of time: an object file and a header with\n"
    "                            a C API (and a C++ class); see 'xlac aot --help'\n"
    "xlac ops                    print the op coverage table (docs/ops.md) as Markdown\n"
    "xlac tf-ops                 print the TensorFlow op table (docs/tensorflow.md) as Markdown\n"
    "xlac tf-clusters [--picture FILE.dot|FILE.html] [--fetch NODE[:i]]... GRAPH\n"
    "                            which parts of a TensorFlow graph xlac compiles, and\n"
    "                            which nodes break them\n"
    "\n"
    "TensorFlow graphs (every command): FILE may be a GraphDef, binary (.pb) or text\n"
    "(.pbtxt); its Placeholders become the parameters.  A serialized XLA HloModuleProto\n"
    "(FILE.hlo.pb, or a .pb holding one) is read as HLO\n"
    "  --graph FILE              the GraphDef (instead of FILE)\n"
    "  --config FILE             a tf2xla Config (text .pbtxt or binary) naming the feeds,\n"
    "                            fetches and variables, as tfcompile takes it\n"
    "  --fetch NODE[:i]          without a Config: a result (repeatable; default: the nodes\n"
    "                            nothing uses)\n"
    "  --checkpoint PATH         a TensorFlow checkpoint (V2 prefix, or V1 file): the variables\n"
    "                            the Config does not name become constants of its values\n"
    "  --saver FILE              with --checkpoint: its SaverDef (the format is checked)\n"
    "xlac --help | --version [--verbose]   (--verbose: the host target code is generated for, and the\n"
    "                                      CPU features and kernel families this host uses)\n";

typedef struct Args {
  int argc, i;
  char **argv;
  const char *cmd;
  bool bad;
} Args;

static void usage_error(Args *a, const char *fmt, const char *what) {
  fprintf(stderr, "xlac %s: error: ", a->cmd);
  fprintf(stderr, fmt, what);
  fprintf(stderr, "\n(see 'xlac --help')\n");
  a->bad = true;
}

/* Matches option `name` at argv[i]; the value (if `value` is non-NULL) comes
   from "--name=value" or the next argument. */
static void parse_tolerance(Args *a, const char *name, const char *v, double *out) {
  char *e = NULL;
  double d = strtod(v, &e);
  if (!*v || *e || !(d >= 0) || d > 1e30) usage_error(a, "%s needs a non-negative number", name);
  else *out = d;
}

/* What this host's code uses, in one line: the CPU's features that decide
   a kernel (the host's LLVM target features), the run-time kernels'
   instruction sets (gemm=amx: bfloat16 and int8 products on AMX tiles;
   bf16=: bfloat16 products while denormals are flushed, else gemm's),
   and whether AMX is usable (or why not), so that a test log says which
   paths it exercised. */
static void print_paths(void) {
  static const char *const feats[] = {"avx2", "fma", "avx512f", "avx512bw", "avx512vnni", "avx512bf16", "avx512fp16",
                                      "amx-tile", "amx-bf16", "amx-int8"};
  printf("paths: features");
  for (size_t i = 0; i < sizeof feats / sizeof *feats; i++)
    printf(" %s%s", jit_host_has_feature(feats[i]) ? "+" : "-", feats[i]);
  printf("; kernels gemm=%s bf16=%s int8=%s gemv=%s fft=%s random=%s; amx %s; f16 arithmetic %s\n",
         xlacrt_gemm_isa(), xlacrt_gemm_bf16_isa(), xlacrt_gemm_s8_isa(), xlacrt_gemv_isa(), xlacrt_fft_isa(),
         xlacrt_random_isa(), xlacrt_amx_status(), jit_host_has_feature("avx512fp16") ? "native (avx512fp16)" : "in f32");
}

static bool opt(Args *a, const char *name, const char **value) {
  const char *s = a->argv[a->i];
  size_t n = strlen(name);
  if (strncmp(s, name, n) != 0) return false;
  if (!value) {
    if (s[n]) return false;
    return true;
  }
  if (s[n] == '=') {
    *value = s + n + 1;
    return true;
  }
  if (s[n]) return false;
  if (a->i + 1 >= a->argc) {
    usage_error(a, "option %s needs a value", name);
    *value = NULL;
    return true;
  }
  *value = a->argv[++a->i];
  return true;
}

/* An integer option in [lo, hi]; anything else (junk, a sign where none
   fits, out of range) is a usage error naming the option and the range. */
static bool parse_int_in(Args *a, const char *name, const char *v, long lo, long hi, int *out) {
  char *e = NULL;
  errno = 0;
  long n = v ? strtol(v, &e, 10) : 0;
  if (!v || !*v || e == v || *e || errno || n < lo || n > hi) {
    char *msg = xasprintf("%s needs a whole number between %ld and %ld, got '%%s'", name, lo, hi);
    usage_error(a, msg, v ? v : "");
    xfree(msg);
    return false;
  }
  *out = (int)n;
  return true;
}

static bool parse_count(Args *a, const char *name, const char *v, int *out) {
  return parse_int_in(a, name, v, 1, 4096, out);
}

/* --timeout: a positive number of seconds, at most a year. */
static bool parse_seconds(Args *a, const char *v, double *out) {
  char *e;
  errno = 0;
  double x = v && *v ? strtod(v, &e) : 0;
  if (!v || !*v || *e || errno || !(x > 0) || x > 31536000) {
    usage_error(a, "--timeout needs a number of seconds greater than 0 (at most 31536000), got '%s'",
                v ? v : "");
    return false;
  }
  *out = x;
  return true;
}

static int cmd_run(Args *a) {
  RunOptions o = {0};
  o.mode = strcmp(a->cmd, "bench") == 0 ? MODE_BENCH : strcmp(a->cmd, "compare") == 0 ? MODE_COMPARE : MODE_RUN;
  o.warmup = -1;
  o.atol = 1e-5;
  o.rtol = 1e-4;
  /* the cpu backend is the default; XLAC_BACKEND=interp|cpu changes the
     default (the test suite runs every program both ways with it) */
  const char *env_backend = getenv("XLAC_BACKEND");
  o.backend = env_backend && strcmp(env_backend, "interp") == 0 && o.mode == MODE_RUN ? BACKEND_INTERP : BACKEND_CPU;
  if (env_backend && strcmp(env_backend, "gpu") == 0) o.backend = BACKEND_GPU;
  o.replicas = o.partitions = 1;
  const char *env_cache = getenv("XLAC_COMPILE_CACHE");
  if (env_cache && *env_cache) o.compile_cache = env_cache;
  VEC(RunInput) inputs = {0};
  VEC(RunInput) expects = {0};
  VEC(char *) owned_values = {0}; /* values split out of --args */
  const char *file = NULL, *v;
  /* XLA's dump flags, from XLA_FLAGS as XLA reads them; the command line
     overrides them */
  ApiXlaFlags dump = {0};
  int xla_rc;
  char *xla_flags = getenv("XLA_FLAGS") ? xstrdup(getenv("XLA_FLAGS")) : NULL;
  if (xla_flags && !api_xla_flags(&dump, xla_flags)) a->bad = true;
  for (a->i = 2; a->i < a->argc && !a->bad; a->i++) {
    const char *s = a->argv[a->i];
    if (opt(a, "--backend", &v)) {
      if (v && strcmp(v, "cpu") == 0)
        o.backend = BACKEND_CPU;
      else if (v && strcmp(v, "interp") == 0)
        o.backend = BACKEND_INTERP;
      else if (v && strcmp(v, "gpu") == 0)
        o.backend = BACKEND_GPU;
      else if (v)
        usage_error(a, "unknown backend '%s' (available: cpu, interp, gpu)", v);
    } else if (opt(a, "--timeout", &v)) {
      if (v) parse_seconds(a, v, &o.timeout);
    } else if (opt(a, "--threads", &v)) {
      /* 0 keeps the default (every core); more threads than this machine
         could usefully run is a mistake, not a request */
      if (v) parse_int_in(a, "--threads", v, 0, 1024, &o.threads);
    } else if (o.mode == MODE_BENCH && opt(a, "--warmup", &v)) {
      if (v) parse_int_in(a, "--warmup", v, 0, 1000000, &o.warmup);
    } else if (o.mode == MODE_BENCH && opt(a, "--iters", &v)) {
      if (v) parse_int_in(a, "--iters", v, 1, 1000000, &o.iters);
    } else if (opt(a, "--max-alloc", &v)) {
      size_t lim;
      if (v && !parse_byte_size(v, &lim))
        usage_error(a, "--max-alloc needs a size in bytes such as 1048576, 512M or 8G, got '%s'", v);
      else if (v)
        alloc_limit_set(lim);
    } else if (opt(a, "--split-input-file", NULL)) {
      o.split = true;
    } else if (opt(a, "--entry", &v)) {
      o.entry = v && *v == '@' ? v + 1 : v;
    } else if (opt(a, "--input", &v)) {
      if (!v) break;
      const char *eq = strchr(v, '=');
      if (!eq || eq == v || !eq[1]) {
        usage_error(a, "--input expects NAME=VALUE, got '%s'", v);
        break;
      }
      RunInput in = {xstrndup(v, (size_t)(eq - v)), eq + 1};
      VEC_PUSH(inputs, in);
    } else if (opt(a, "--expect", &v)) {
      if (!v) break;
      const char *eq = strchr(v, '=');
      if (!eq || eq == v || eq[1] != '@' || !eq[2]) {
        usage_error(a, "--expect expects RESULT=@file.npy (RESULT: an index or a result's name), got '%s'", v);
        break;
      }
      RunInput in = {xstrndup(v, (size_t)(eq - v)), eq + 2};
      VEC_PUSH(expects, in);
    } else if (opt(a, "--atol", &v)) {
      if (v) parse_tolerance(a, "--atol", v, &o.atol);
    } else if (opt(a, "--rtol", &v)) {
      if (v) parse_tolerance(a, "--rtol", v, &o.rtol);
    } else if (opt(a, "--args", &v)) {
      /* the StableHLO translator's form: --args="[dense<1> : tensor<2xi32>, ...]",
         positional; split at top-level commas */
      if (!v) break;
      const char *p = v;
      while (*p == ' ') p++;
      if (*p != '[') {
        usage_error(a, "--args expects a list like [dense<1> : tensor<2xi32>, ...], got '%s'", v);
        break;
      }
      int depth = 0, pos = 0;
      const char *start = p + 1;
      for (const char *q = p + 1; *q; q++) {
        if (*q == '<' || *q == '[' || *q == '(') depth++;
        if (*q == '>' || *q == ')') depth--;
        if (*q == ']' && depth-- == 0) depth = -1;
        if ((*q == ',' && depth == 0) || depth < 0) {
          while (start < q && *start == ' ') start++;
          if (q > start) {
            RunInput in = {xasprintf("%d", pos++), xstrndup(start, (size_t)(q - start))};
            VEC_PUSH(inputs, in);
            VEC_PUSH(owned_values, (char *)in.value);
          }
          start = q + 1;
          if (depth < 0) break;
        }
      }
    } else if (opt(a, "--random-inputs", NULL)) {
      o.random_inputs = true;
    } else if (opt(a, "--seed", &v)) {
      char *e;
      errno = 0;
      if (!v || !*v || *v == '-') {
        usage_error(a, "--seed needs a non-negative integer%s", "");
        break;
      }
      o.seed = strtoull(v, &e, 0);
      if (*e || errno) usage_error(a, "--seed needs a non-negative integer, got '%s'", v);
    } else if (opt(a, "--output-dir", &v)) {
      o.output_dir = v;
    } else if (opt(a, "--probe-dir", &v)) {
      o.probe_dir = v;
    } else if (opt(a, "--replicas", &v)) {
      parse_count(a, "--replicas", v, &o.replicas);
    } else if (opt(a, "--partitions", &v)) {
      parse_count(a, "--partitions", v, &o.partitions);
    } else if (opt(a, "--print-all", NULL)) {
      o.print_all = true;
    } else if (opt(a, "--verbose", NULL)) {
      o.verbose = true;
    } else if (opt(a, "--flush-denormals", NULL)) {
      o.flush_denormals = true;
    } else if (opt(a, "--profile", NULL)) {
      o.profile = 30;
    } else if (strncmp(s, "--profile=", 10) == 0) {
      int rows = 0;
      if (parse_int_in(a, "--profile", s + 10, 0, 1000000, &rows)) o.profile = rows ? rows : -1;
    } else if (opt(a, "--compile-cache", &v)) {
      if (v && !*v) usage_error(a, "--compile-cache needs a directory%s", "");
      o.compile_cache = v;
    } else if (opt(a, "--xla_dump_to", &v)) {
      if (v && !*v) usage_error(a, "--xla_dump_to needs a directory%s", "");
      dump.dump_dir = v;
    } else if (opt(a, "--xla_dump_hlo_pass_re", &v)) {
      if (v && !*v) usage_error(a, "--xla_dump_hlo_pass_re needs a regular expression%s", "");
      dump.dump.pass_re = v;
    } else if (strncmp(s, "--xla_", 6) == 0 && (xla_rc = api_xla_flag(&dump, s)) != 0) {
      if (xla_rc < 0) a->bad = true; /* the message is printed */
    } else if (s[0] == '-' && s[1]) {
      usage_error(a, "unknown option '%s'", s);
    } else if (file) {
      usage_error(a, "more than one input file ('%s')", s);
    } else {
      file = s;
    }
  }
  if (!a->bad && !file) usage_error(a, "missing input file%s", "");
  o.dump_dir = dump.dump_dir;
  o.dump_pass_re = dump.dump.pass_re;
  o.dump_as_dot = dump.dump.as_dot;
  o.dump_as_html = dump.dump.as_html;
  if (!a->bad && !o.dump_dir && (o.dump_pass_re || o.dump_as_dot || o.dump_as_html))
    fprintf(stderr, "xlac: warning: the --xla_dump_hlo_* flags need --xla_dump_to=DIR; nothing is dumped\n");
  if (!a->bad && o.dump_dir && o.backend == BACKEND_INTERP && o.mode != MODE_COMPARE)
    fprintf(stderr, "xlac: warning: --xla_dump_to: only the cpu and gpu backends write dumps (--backend=cpu)\n");
  int status = 1;
  if (!a->bad) {
    o.inputs = inputs.data;
    o.ninputs = inputs.len;
    o.expects = expects.data;
    o.nexpects = expects.len;
    status = driver_run(file, &o);
  }
  for (int i = 0; i < inputs.len; i++) xfree((char *)inputs.data[i].name);
  VEC_FREE(inputs);
  for (int i = 0; i < expects.len; i++) xfree((char *)expects.data[i].name);
  VEC_FREE(expects);
  for (int i = 0; i < owned_values.len; i++) xfree(owned_values.data[i]);
  VEC_FREE(owned_values);
  xfree(xla_flags);
  return status;
}

static int cmd_print_verify(Args *a, bool print) {
  const char *file = NULL, *format = "mlir", *v;
  bool split = false, vd = false;
  for (a->i = 2; a->i < a->argc && !a->bad; a->i++) {
    const char *s = a->argv[a->i];
    if (opt(a, "--split-input-file", NULL)) {
      split = true;
    } else if (print && opt(a, "--format", &v)) {
      if (v) format = v;
    } else if (!print && opt(a, "--verify-diagnostics", NULL)) {
      vd = true;
    } else if (s[0] == '-' && s[1]) {
      usage_error(a, "unknown option '%s'", s);
    } else if (file) {
      usage_error(a, "more than one input file ('%s')", s);
    } else {
      file = s;
    }
  }
  if (!a->bad && !file) usage_error(a, "missing input file%s", "");
  if (a->bad) return 1;
  return print ? driver_print(file, format, split) : driver_verify(file, split, vd);
}

int driver_opt(int argc, char **argv); /* opt.c */
int driver_aot(int argc, char **argv); /* aot.c */

static int xlac_main_guarded(int argc, char **argv);

/* Out of memory anywhere below unwinds to here (see OomGuard): the command
   fails with a message and exit status 1 instead of aborting. */
int xlac_main(int argc, char **argv) {
  OomGuard g;
  volatile int status = 1;
  oom_push(&g);
  if (setjmp(g.jb) == 0) {
    status = xlac_main_guarded(argc, argv);
  } else {
    oom_report(&g);
    status = 1;
  }
  oom_pop(&g);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "xlac: error: cannot write the output: %s\n", strerror(errno));
    status = 1;
  }
  return status;
}

/* --graph, --config, --fetch, --checkpoint and --saver belong to the TensorFlow frontend, for
   every command: taken out of argv here (the graph becoming the command's
   FILE), so that each command's own parser never sees them. */
static bool take_tf_options(int *argc, char **argv) {
  const char *graph = NULL, *config = NULL, *checkpoint = NULL, *saver = NULL;
  VEC(const char *) fetches = {0};
  int n = 2;
  for (int i = 2; i < *argc; i++) {
    const char *s = argv[i], *v = NULL;
    const char **slot = NULL;
    static const char *const names[] = {"--graph", "--config", "--fetch", "--checkpoint", "--saver"};
    int which = -1;
    for (int k = 0; k < 5 && which < 0; k++) {
      size_t len = strlen(names[k]);
      if (!strncmp(s, names[k], len) && (s[len] == 0 || s[len] == '=')) which = k;
    }
    if (which < 0) {
      argv[n++] = argv[i];
      continue;
    }
    size_t len = strlen(names[which]);
    if (s[len] == '=') v = s + len + 1;
    else if (i + 1 < *argc) v = argv[++i];
    if (!v || !*v) {
      fprintf(stderr, "xlac: error: %s needs a value\n", names[which]);
      VEC_FREE(fetches);
      return false;
    }
    if (which == 2) {
      VEC_PUSH(fetches, v);
      continue;
    }
    slot = which == 0 ? &graph : which == 1 ? &config : which == 3 ? &checkpoint : &saver;
    if (*slot) {
      fprintf(stderr, "xlac: error: %s is given twice\n", names[which]);
      VEC_FREE(fetches);
      return false;
    }
    *slot = v;
  }
  if (graph) argv[n++] = (char *)graph;
  argv[n] = NULL;
  *argc = n;
  driver_set_tf_options(config, fetches.data, fetches.len, checkpoint, saver);
  return true;
}

static int xlac_main_guarded(int argc, char **argv) {
  if (argc >= 2 && !take_tf_options(&argc, argv)) return 1;
  if (argc < 2) {
    fputs(usage_text, stderr);
    return 1;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    fputs(usage_text, stdout);
    return 0;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("xlac %s\n", XLAC_VERSION);
    /* with --verbose, what code is generated for here (tests that depend
       on a CPU feature read it) */
    if (argc > 2 && strcmp(argv[2], "--verbose") == 0) {
      char *host = jit_host_description();
      printf("host: %s\n", host);
      print_paths();
      xfree(host);
    }
    return 0;
  }
  /* aot prints its own usage for --help */
  if (strcmp(cmd, "aot") == 0) return driver_aot(argc, argv);
  Args a = {argc, 2, argv, cmd, false};
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(usage_text, stdout);
      return 0;
    }
  }
  if (strcmp(cmd, "run") == 0 || strcmp(cmd, "bench") == 0 || strcmp(cmd, "compare") == 0)
    return cmd_run(&a);
  if (strcmp(cmd, "print") == 0) return cmd_print_verify(&a, true);
  if (strcmp(cmd, "verify") == 0) return cmd_print_verify(&a, false);
  if (strcmp(cmd, "opt") == 0) return driver_opt(argc, argv);
  if (strcmp(cmd, "tf-ops") == 0) {
    StrBuf b = {0};
    tf_op_table_markdown(&b);
    fputs(b.data, stdout);
    sb_free(&b);
    return 0;
  }
  if (strcmp(cmd, "tf-clusters") == 0) return driver_tf_clusters(argc, argv);
  if (strcmp(cmd, "ops") == 0) {
    /* the op coverage table; docs/ops.md is this output */
    StrBuf b = {0};
    print_op_coverage_markdown(&b);
    fputs(b.data, stdout);
    sb_free(&b);
    return 0;
  }
  fprintf(stderr, "xlac: error: unknown command '%s' (commands: run, bench, compare, print, verify, opt, aot, ops, tf-ops, tf-clusters; see 'xlac --help')\n", cmd);
  return 1;
}
