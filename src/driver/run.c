/*
 * run.c - `xlac run`: pick the function(s) to run, gather their inputs,
 * interpret, print the results and the check summary.
 *
 * Which functions run, per module (per chunk with --split-input-file):
 *   --entry NAME        that function;
 *   otherwise           module_entry(): @main, the HLO ENTRY, or the only
 *                       function;
 *   otherwise           every public function that takes no arguments, in
 *                       order (the style of StableHLO's interpreter tests,
 *                       where each test is a zero-argument function).
 * A module without functions (an empty chunk) runs nothing.
 *
 * Results go to stdout as `result[0]: tensor<4xf32> = [1, 2, 3, 4]`; the
 * check summary and all diagnostics go to stderr so stdout stays
 * parseable.  The exit status is 0 only if everything parsed, verified, ran
 * and every check passed.
 */
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver/driver.h"
#include "api/api.h"
#include "gpu/cublaslt.h"
#include "gpu/gpu.h"
#include "interp/checks.h"
#include "passes/spmd.h"
#include "support/npy.h"

typedef struct FileId {
  dev_t dev;
  ino_t ino;
} FileId;

typedef struct RunState {
  const RunOptions *o;
  const char *path;
  uint64_t rng;
  int next_result;           /* numbering of result<k>.npy across the run */
  VEC(FileId) protected_files; /* inputs that outputs must never replace */
  int checks_passed, checks_failed;
  int expects_used, expects_failed; /* --expect */
  int status;
  bool prepared, dirs_ok;
  char *tmp_root; /* private probe directories, when the program probes */
  InterpCancel *cancel; /* --timeout: what stops the loops (NULL: none) */
  xlac_cancel *xcancel; /* the same, for compiling */
  RunTimer *timer;
  xlac_client *clients[2]; /* by backend: [0] interpreter, [1] cpu */
  /* --backend=gpu (not through the library yet): the device, opened once;
     why there is none, said once */
  GpuDevice *gpu;
  char *gpu_err;
  bool gpu_tried, gpu_reported;
  int gpu_modules; /* numbering of dump files */
  IVal ***dargs;   /* a partitioned global program: each device's arguments (NULL: all the same) */
} RunState;

static void protect(RunState *st, const char *path) {
  struct stat sb;
  if (stat(path, &sb) == 0) VEC_PUSH(st->protected_files, ((FileId){sb.st_dev, sb.st_ino}));
}

static bool is_protected(const RunState *st, const char *path) {
  struct stat sb;
  if (stat(path, &sb) != 0) return false;
  for (int i = 0; i < st->protected_files.len; i++)
    if (st->protected_files.data[i].dev == sb.st_dev && st->protected_files.data[i].ino == sb.st_ino)
      return true;
  return false;
}

/* ---- inputs ---- */
static void describe_params(StrBuf *b, const Func *f) {
  if (f->body->nargs == 0) sb_printf(b, "\n  @%s takes no parameters", f->name);
  for (int i = 0; i < f->body->nargs; i++) {
    const Value *v = f->body->args[i];
    char *ts = type_str(v->type);
    if (v->name)
      sb_printf(b, "\n  #%d %%%s: %s", i, v->name, ts);
    else
      sb_printf(b, "\n  #%d: %s", i, ts);
    xfree(ts);
  }
}

static void input_error(const Func *f, const char *fmt, ...) XLAC_PRINTF(2, 3);
static void input_error(const Func *f, const char *fmt, ...) {
  StrBuf b = {0};
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&b, fmt, ap);
  va_end(ap);
  sb_printf(&b, "\n  parameters of @%s:", f->name);
  describe_params(&b, f);
  fprintf(stderr, "xlac: error: %s\n", b.data);
  sb_free(&b);
}

static int find_param(const Func *f, const char *name) {
  const char *end;
  long pos = strtol(name, (char **)&end, 10);
  if (*name >= '0' && *name <= '9' && !*end) return pos < f->body->nargs ? (int)pos : -1;
  if (*name == '%') name++;
  for (int i = 0; i < f->body->nargs; i++)
    if (f->body->args[i]->name && strcmp(f->body->args[i]->name, name) == 0) return i;
  return -1;
}

static IVal *random_value(RunState *st, const Type *t) {
  if (t->kind == TY_TENSOR) {
    Literal *l = lit_new(t);
    random_fill(l, &st->rng);
    return ival_tensor(l);
  }
  if (t->kind == TY_TOKEN) return ival_token();
  IVal **e = xcalloc((size_t)(t->ntuple > 0 ? t->ntuple : 1), sizeof(IVal *));
  for (int i = 0; i < t->ntuple; i++) e[i] = random_value(st, t->tuple[i]);
  IVal *v = ival_tuple(t->ntuple, e);
  for (int i = 0; i < t->ntuple; i++) ival_release(e[i]);
  xfree(e);
  return v;
}

static void release_all(IVal **v, int n) {
  for (int i = 0; i < n; i++) ival_release(v[i]);
  xfree(v);
}

/* Builds the argument values of f from --input and --random-inputs. */
static IVal **build_args(RunState *st, const Func *f) {
  const RunOptions *o = st->o;
  int n = f->body->nargs;
  IVal **args = xcalloc((size_t)(n > 0 ? n : 1), sizeof(IVal *));
  for (int k = 0; k < o->ninputs; k++) {
    const RunInput *in = &o->inputs[k];
    int i = find_param(f, in->name);
    if (i < 0) {
      input_error(f, "@%s has no parameter '%s'", f->name, in->name);
      goto fail;
    }
    if (args[i]) {
      input_error(f, "parameter '%s' is given more than once", in->name);
      goto fail;
    }
    const Type *t = f->body->args[i]->type;
    char *err = NULL;
    Literal *l;
    if (in->value[0] == '@') {
      l = npy_read(in->value + 1, t, &err);
      if (l) protect(st, in->value + 1);
    } else {
      l = parse_cli_literal(in->value, t, &err);
    }
    if (!l) {
      fprintf(stderr, "xlac: error: input '%s': %s\n", in->name, err);
      xfree(err);
      goto fail;
    }
    args[i] = ival_tensor(l);
  }
  StrBuf missing = {0};
  for (int i = 0; i < n; i++) {
    if (args[i]) continue;
    const Type *t = f->body->args[i]->type;
    if (t->kind == TY_TOKEN) {
      args[i] = ival_token();
    } else if (o->random_inputs) {
      args[i] = random_value(st, t);
    } else {
      const char *nm = f->body->args[i]->name;
      if (missing.len) sb_puts(&missing, ", ");
      if (nm)
        sb_printf(&missing, "%s", nm);
      else
        sb_printf(&missing, "#%d", i);
    }
  }
  if (missing.len) {
    input_error(f,
                "missing inputs for @%s: %s (pass --input NAME=VALUE, e.g. x=[1,2] or x=@x.npy, "
                "or --random-inputs)",
                f->name, missing.data);
    sb_free(&missing);
    goto fail;
  }
  return args;
fail:
  release_all(args, n);
  return NULL;
}

/* ---- outputs ---- */
static bool make_dirs(const char *dir) {
  char *p = xstrdup(dir);
  bool ok = true;
  for (char *s = p + 1; ok; s++) {
    if (*s != '/' && *s) continue;
    char c = *s;
    *s = 0;
    if (mkdir(p, 0777) != 0 && errno != EEXIST) ok = false;
    *s = c;
    if (!c) break;
  }
  struct stat sb;
  if (ok && (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))) {
    errno = ENOTDIR;
    ok = false;
  }
  if (!ok) fprintf(stderr, "xlac: error: cannot create directory '%s': %s\n", dir, strerror(errno));
  xfree(p);
  return ok;
}

static bool write_value(RunState *st, const IVal *v, const char *stem) {
  if (v->kind == IV_TOKEN) return true;
  if (v->kind == IV_TUPLE) {
    for (int j = 0; j < v->n; j++) {
      char *s = xasprintf("%s_%d", stem, j);
      bool ok = write_value(st, v->elems[j], s);
      xfree(s);
      if (!ok) return false;
    }
    return true;
  }
  char *path = xasprintf("%s/%s.npy", st->o->output_dir, stem);
  bool ok = true;
  if (is_protected(st, path)) {
    fprintf(stderr, "xlac: error: refusing to overwrite input file '%s' with a result\n", path);
    ok = false;
  } else {
    char *err;
    if (!npy_write(path, v->lit, &err)) {
      fprintf(stderr, "xlac: error: %s\n", err);
      xfree(err);
      ok = false;
    }
  }
  xfree(path);
  return ok;
}

/* The result's name (a fetch's, jax.result_info) or NULL. */
static const char *result_name(const Func *f, int i) {
  if (!f->res_attrs || !f->res_attrs[i]) return NULL;
  Attr *a = attr_dict_get(f->res_attrs[i], "jax.result_info");
  return a && a->kind == ATTR_STRING ? a->s : NULL;
}

static void format_elem(StrBuf *b, const Literal *l, int64_t j) {
  ElemType et = l->type->elem;
  if (et_is_float(et)) sb_printf(b, "%.9g", lit_get_f(l, j));
  else if (et_is_complex(et)) {
    double re, im;
    lit_get_c(l, j, &re, &im);
    sb_printf(b, "(%.9g, %.9g)", re, im);
  } else if (et == ET_PRED) sb_puts(b, lit_get_i(l, j) ? "true" : "false");
  else if (et_is_unsigned(et)) sb_printf(b, "%llu", (unsigned long long)lit_get_u(l, j));
  else sb_printf(b, "%lld", (long long)lit_get_i(l, j));
}

/* --expect: result i of f against the .npy file given for it (by index or
   by name), if any.  Floats pass within atol + rtol * |expected| (NaN
   only where NaN is expected), complex numbers the same on the magnitude
   of the difference (within_tolerance), everything else must be equal. */
static bool check_one(RunState *st, const char *idx, const char *name, const IVal *v);

static bool check_expected(RunState *st, const Func *f, int i, const IVal *v) {
  char idx[32];
  if (v->kind == IV_TUPLE) {
    /* a tuple's elements: i.j, or j when the tuple is the only result
       (HLO modules from TensorFlow return one tuple) */
    bool ok = true;
    for (int j = 0; j < v->n; j++) {
      if (f->nresults == 1) snprintf(idx, sizeof idx, "%d", j);
      else snprintf(idx, sizeof idx, "%d.%d", i, j);
      ok = check_one(st, idx, NULL, v->elems[j]) && ok;
    }
    return ok;
  }
  snprintf(idx, sizeof idx, "%d", i);
  return check_one(st, idx, result_name(f, i), v);
}

/* A float within atol + rtol * |w| of w; NaN only for NaN, infinities equal. */
static bool float_close(double g, double w, double atol, double rtol) {
  return isnan(w) ? isnan(g) : isfinite(w) ? fabs(g - w) <= atol + rtol * fabs(w) : g == w;
}

/* Element j of got against want: *diff gets |got - want| and *excess how
   far it is beyond atol + rtol * |want| (infinite when the difference is
   not finite).  A complex element is judged on the magnitudes, as numpy's
   isclose does, so the tolerance does not depend on the direction of the
   error in the plane; where the expected value has a NaN or an infinite
   part, each part must match on its own as a float would. */
static bool within_tolerance(const Literal *got, const Literal *want, int64_t j, double atol, double rtol,
                             double *diff, double *excess) {
  if (et_is_complex(got->type->elem)) {
    double gr, gi, wr, wi;
    lit_get_c(got, j, &gr, &gi);
    lit_get_c(want, j, &wr, &wi);
    *diff = hypot(gr - wr, gi - wi);
    *excess = isfinite(*diff) ? *diff - (atol + rtol * hypot(wr, wi)) : INFINITY;
    if (!isfinite(wr) || !isfinite(wi)) return float_close(gr, wr, atol, rtol) && float_close(gi, wi, atol, rtol);
    return *excess <= 0;
  }
  double g = lit_get_f(got, j), w = lit_get_f(want, j);
  *diff = fabs(g - w);
  *excess = isfinite(*diff) ? *diff - (atol + rtol * fabs(w)) : INFINITY;
  return float_close(g, w, atol, rtol);
}

static bool check_one(RunState *st, const char *idx, const char *name, const IVal *v) {
  const RunOptions *o = st->o;
  for (int k = 0; k < o->nexpects; k++) {
    const RunInput *e = &o->expects[k];
    if (strcmp(e->name, idx) && !(name && !strcmp(e->name, name))) continue;
    st->expects_used++;
    if (v->kind != IV_TENSOR) {
      fprintf(stderr, "xlac: error: --expect %s: result %s is not a tensor\n", e->name, idx);
      return false;
    }
    char *err = NULL;
    Literal *want = npy_read(e->value, v->lit->type, &err);
    if (!want) {
      fprintf(stderr, "xlac: error: --expect %s: %s\n", e->name, err);
      xfree(err);
      return false;
    }
    const Literal *got = v->lit;
    ElemType et = got->type->elem;
    bool inexact = et_is_float(et) || et_is_complex(et);
    int64_t bad = 0, worst = -1;
    double max_abs = 0, worst_excess = -1;
    for (int64_t j = 0; j < got->n; j++) {
      bool fine;
      if (inexact) {
        double d, excess;
        fine = within_tolerance(got, want, j, o->atol, o->rtol, &d, &excess);
        if (isfinite(d) && d > max_abs) max_abs = d;
        if (!fine && excess > worst_excess) worst_excess = excess, worst = j;
      } else {
        fine = !memcmp(lit_ptr(got, j), lit_ptr(want, j), (size_t)et_bytes(et));
        if (!fine && worst < 0) worst = j;
      }
      bad += !fine;
    }
    if (!bad) {
      if (inexact)
        printf("expect result[%s]%s%s%s: ok, max abs error %.3g (atol %g, rtol %g)\n", idx, name ? " '" : "",
               name ? name : "", name ? "'" : "", max_abs, o->atol, o->rtol);
      else
        printf("expect result[%s]%s%s%s: ok, equal\n", idx, name ? " '" : "", name ? name : "", name ? "'" : "");
    } else {
      StrBuf gb = {0}, wb = {0};
      format_elem(&gb, got, worst);
      format_elem(&wb, want, worst);
      printf("expect result[%s]%s%s%s: MISMATCH, %lld of %lld elements outside the tolerance (atol %g, rtol %g); "
             "element %lld is %s, expected %s\n",
             idx, name ? " '" : "", name ? name : "", name ? "'" : "", (long long)bad, (long long)got->n, o->atol,
             o->rtol, (long long)worst, gb.data, wb.data);
      sb_free(&gb);
      sb_free(&wb);
    }
    lit_free(want);
    return bad == 0;
  }
  return true;
}

static bool emit_results(RunState *st, const Func *f, const char *prefix, IVal **res) {
  bool ok = true;
  for (int i = 0; i < f->nresults; i++) {
    StrBuf b = {0};
    sb_printf(&b, "%sresult[%d]: ", prefix, i);
    interp_format_value(&b, res[i], st->o->print_all);
    printf("%s\n", b.data);
    sb_free(&b);
    if (!check_expected(st, f, i, res[i])) {
      st->status = 1;
      st->expects_failed++;
    }
    int k = st->next_result++;
    if (st->o->output_dir && ok) {
      char stem[32];
      snprintf(stem, sizeof stem, "result%d", k);
      ok = write_value(st, res[i], stem);
    }
  }
  fflush(stdout);
  return ok;
}

/* ---- bench and compare ---- */
static double clock_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* ---- compiling and executing, through the library's API ----
 * One client per backend for the whole run (its pool, its compile cache,
 * the numbering of dump files); the loaded module is compiled in place
 * (api_compile_module), and diagnostics are printed as they happen
 * (api_set_passthrough), so a failed status has nothing left to say unless
 * it is the API's own complaint. */

static bool report(xlac_status *s) {
  if (!s) return true;
  if (*xlac_status_message(s)) fprintf(stderr, "xlac: error: %s\n", xlac_status_message(s));
  xlac_status_destroy(s);
  return false;
}

static xlac_client *run_client(RunState *st, Backend b) {
  const RunOptions *o = st->o;
  xlac_client **slot = &st->clients[b == BACKEND_CPU];
  if (*slot) return *slot;
  xlac_client_options co = {.struct_size = sizeof co};
  co.flush_denormals = st->o->flush_denormals;
  co.num_replicas = o->replicas > 0 ? o->replicas : 1;
  co.num_partitions = o->partitions > 0 ? o->partitions : 1;
  co.num_threads = o->threads;
  co.cache_dir = o->compile_cache;
  co.backend = b == BACKEND_CPU ? XLAC_BACKEND_CPU : XLAC_BACKEND_INTERPRETER;
  report(xlac_client_create(&co, slot));
  return *slot;
}

static void print_cpu_stats(const xlac_executable_stats *cs) {
  char threads[32] = "";
  if (cs->compile_threads > 1) snprintf(threads, sizeof threads, "; on %d threads", cs->compile_threads);
  fprintf(stderr, "cpu: %d ops native (%d fusions), %d through the interpreter, %lld temp bytes, compiled in %.1f ms "
          "(passes %.1f, LLVM IR %.1f, LLVM optimization %.1f, machine code %.1f%s)\n",
          cs->native_ops, cs->fusions, cs->interpreted_ops, (long long)cs->temp_bytes, cs->compile_ms, cs->passes_ms,
          cs->ir_ms, cs->llvm_opt_ms, cs->machine_ms, threads);
}

/* The cost of one execution (xlac_executable_stats: flops, transcendentals, bytes accessed). */
static void print_cost(FILE *out, const char *indent, const xlac_executable_stats *cs) {
  fprintf(out, "%scost: %.0f flops, %.0f transcendentals, %.0f bytes accessed\n", indent, cs->flops,
          cs->transcendentals, cs->bytes_accessed);
}

/* Compiles f of m for backend b; says what the compile cache did (with
   --verbose), and warns once when it cannot be used. */
static xlac_executable *compile_for(RunState *st, Backend b, Module *m, Func *f, xlac_executable_stats *stats) {
  static bool warned;
  const RunOptions *o = st->o;
  xlac_client *c = run_client(st, b);
  if (!c) return NULL;
  xlac_compile_options co = {.struct_size = sizeof co};
  co.dump_dir = o->dump_dir;
  co.cancel = st->xcancel;
  co.profile = o->profile != 0 && b == BACKEND_CPU;
  ApiDumpOptions dump = {o->dump_pass_re, o->dump_as_dot, o->dump_as_html};
  xlac_executable *e = NULL;
  run_timer_compiling(st->timer, true);
  xlac_status *s = api_compile_module(c, m, f, &co, &dump, &e);
  run_timer_compiling(st->timer, false);
  if (!report(s)) return NULL;
  *stats = (xlac_executable_stats){.struct_size = sizeof *stats};
  xlac_executable_stats_get(e, stats);
  if (o->verbose && spmd_summary(m)) fprintf(stderr, "spmd: %s\n", spmd_summary(m));
  if (stats->cache == XLAC_CACHE_UNUSABLE && !warned) {
    fprintf(stderr, "xlac: warning: %s\n", stats->cache_note);
    warned = true;
  }
  if (o->verbose && stats->cache != XLAC_CACHE_OFF) {
    switch (stats->cache) {
    case XLAC_CACHE_HIT:
      fprintf(stderr, "cpu: compile cache hit\n");
      break;
    case XLAC_CACHE_MISS:
      fprintf(stderr, "cpu: compile cache miss: compiled and stored\n");
      break;
    case XLAC_CACHE_REPLACED:
      fprintf(stderr, "cpu: compile cache miss: %s and stored\n", stats->cache_note);
      break;
    default:
      fprintf(stderr, "cpu: compile cache unusable: compiled without it\n");
      break;
    }
  }
  return e;
}

/* --profile: where e's executions so far spent their time (to out); reset
   clears the totals instead of printing them. */
static void print_profile(const RunOptions *o, xlac_executable *e, FILE *out, bool reset) {
  static bool warned;
  if (!e || !o->profile) return;
  if (o->backend != BACKEND_CPU) {
    if (!warned) fprintf(stderr, "xlac: warning: --profile times the cpu and gpu backends' code only\n");
    warned = true;
    return;
  }
  char *text = NULL;
  if (!report(xlac_executable_profile(e, o->profile < 0 ? 0 : o->profile, reset, &text, NULL))) return;
  if (!reset) fputs(text, out);
  xlac_free(text);
}

/* Runs e on every device of its client with the same arguments (values of
   f's parameters); results[d] gets device d's results as values of f's
   result types (results NULL: they are dropped, and their storage goes to
   the next run, as in a caller's loop).  Adds the checks run to st. */
static bool execute(RunState *st, xlac_executable *e, Func *f, IVal **args, const InterpOptions *io,
                    IVal ***results) {
  xlac_executable_stats es = {.struct_size = sizeof es};
  xlac_executable_stats_get(e, &es);
  int ndev = es.num_replicas * es.num_partitions;
  int na = xlac_executable_num_args(e), nr = xlac_executable_num_results(e);
  IVal **leaves = xcalloc((size_t)na + 1, sizeof(IVal *));
  int k = 0;
  for (int i = 0; i < f->body->nargs; i++) ival_collect_leaves(args[i], leaves, &k);
  xlac_buffer ***argv = xcalloc((size_t)ndev, sizeof(xlac_buffer **));
  xlac_buffer ***resv = xcalloc((size_t)ndev, sizeof(xlac_buffer **));
  bool ok = true;
  for (int d = 0; d < ndev; d++) {
    argv[d] = xcalloc((size_t)na + 1, sizeof(xlac_buffer *));
    resv[d] = xcalloc((size_t)nr + 1, sizeof(xlac_buffer *));
    if (st->dargs) {
      k = 0;
      for (int i = 0; i < f->body->nargs; i++) ival_collect_leaves(st->dargs[d][i], leaves, &k);
    }
    for (int i = 0; i < na && ok; i++)
      ok = report(api_buffer_from_value(e->client, d, ival_retain(leaves[i]), &argv[d][i]));
  }
  int cr = 0, cf = 0;
  if (ok) ok = report(api_execute(e, ndev, (xlac_buffer *const *const *)argv, NULL, resv, io, &cr, &cf));
  st->checks_passed += cr;
  st->checks_failed += cf;
  IVal **rl = xcalloc((size_t)nr + 1, sizeof(IVal *));
  for (int d = 0; d < ndev; d++) {
    if (ok && results) {
      for (int r = 0; r < nr; r++) rl[r] = api_buffer_value(resv[d][r]);
      results[d] = xcalloc((size_t)f->nresults + 1, sizeof(IVal *));
      k = 0;
      for (int i = 0; i < f->nresults; i++) results[d][i] = ival_from_leaves(f->result_types[i], rl, &k);
    }
    for (int i = 0; i < na; i++) xlac_buffer_destroy(argv[d][i]);
    for (int r = 0; r < nr; r++) xlac_buffer_destroy(resv[d][r]);
    xfree(argv[d]);
    xfree(resv[d]);
  }
  xfree(rl);
  xfree(argv);
  xfree(resv);
  xfree(leaves);
  return ok;
}

static void release_results(IVal ***results, int ndev, int n) {
  for (int d = 0; d < ndev; d++)
    if (results[d]) release_all(results[d], n);
  xfree(results);
}

/* Times executions of f; prints a human line and one machine-readable line:
   BENCH name=... backend=... compile_ms=... median_ms=... min_ms=... iters=... threads=... */
static bool bench_func(RunState *st, const InterpOptions *io, Module *m, Func *f, IVal **args) {
  const RunOptions *o = st->o;
  int iters = o->iters > 0 ? o->iters : 10, warmup = o->warmup >= 0 ? o->warmup : 2;
  double *times = xcalloc((size_t)iters, sizeof(double));
  xlac_executable_stats es;
  xlac_executable *exe = compile_for(st, o->backend, m, f, &es);
  bool ok = exe != NULL;
  double compile_ms = exe && o->backend == BACKEND_CPU ? es.compile_ms : 0;
  for (int k = 0; ok && k < warmup + iters; k++) {
    double t0 = clock_ms();
    if (k == warmup) print_profile(o, exe, stdout, true); /* the timed runs' alone */
    ok = execute(st, exe, f, args, io, NULL);
    double dt = clock_ms() - t0;
    if (k >= warmup) times[k - warmup] = dt;
  }
  if (ok) {
    qsort(times, (size_t)iters, sizeof(double), cmp_double);
    double median = iters % 2 ? times[iters / 2] : 0.5 * (times[iters / 2 - 1] + times[iters / 2]);
    const char *backend = o->backend == BACKEND_CPU ? "cpu" : "interp";
    int threads = o->threads > 0 ? o->threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
    printf("%s @%s: compile %.1f ms, run median %.3f ms, min %.3f ms over %d runs (%s, %d threads)\n",
           st->path, f->name, compile_ms, median, times[0], iters, backend, threads);
    if (o->backend == BACKEND_CPU) {
      printf("  %d ops native (%d fusions), %d through the interpreter, temp %lld bytes\n", es.native_ops,
             es.fusions, es.interpreted_ops, (long long)es.temp_bytes);
      printf("  compile: passes %.1f ms, LLVM IR %.1f ms, LLVM optimization %.1f ms, machine code %.1f ms",
             es.passes_ms, es.ir_ms, es.llvm_opt_ms, es.machine_ms);
      if (es.compile_threads > 1) printf(", on %d threads", es.compile_threads);
      printf("\n");
    }
    print_cost(stdout, "  ", &es);
    print_profile(o, exe, stdout, false);
    printf("BENCH name=%s backend=%s compile_ms=%.3f median_ms=%.4f min_ms=%.4f iters=%d threads=%d\n",
           st->path, backend, compile_ms, median, times[0], iters, threads);
    fflush(stdout);
  }
  xlac_executable_destroy(exe);
  xfree(times);
  return ok;
}

/* Distance in units in the last place between two floats of type et. */
static double ulp_distance(ElemType et, double a, double b) {
  if (isnan(a) && isnan(b)) return 0;
  if (isnan(a) || isnan(b)) return INFINITY;
  if (a == b) return 0;
  if (et == ET_F64) {
    int64_t ia, ib;
    memcpy(&ia, &a, 8);
    memcpy(&ib, &b, 8);
    if (ia < 0) ia = INT64_MIN - ia;
    if (ib < 0) ib = INT64_MIN - ib;
    /* subtract as integers: converting each to double first rounds them
       to a multiple of 512 near the largest patterns */
    uint64_t d = ia > ib ? (uint64_t)ia - (uint64_t)ib : (uint64_t)ib - (uint64_t)ia;
    return (double)d;
  }
  /* narrower types: count representable values via their bit patterns */
  uint64_t ba = et_double_to_bits(et, a), bb = et_double_to_bits(et, b);
  int bits = et_bits(et);
  int64_t sa = (int64_t)ba, sb = (int64_t)bb;
  int64_t sign = (int64_t)1 << (bits - 1);
  if (sa & sign) sa = sign - sa;
  if (sb & sign) sb = sign - sb;
  return fabs((double)(sa - sb));
}

static bool compare_values(const char *label, const IVal *a, const IVal *b, double *worst_ulp) {
  if (a->kind != IV_TENSOR || b->kind != IV_TENSOR) {
    bool eq = ival_equal(a, b);
    printf("%s: %s\n", label, eq ? "identical" : "differ");
    return eq;
  }
  const Literal *x = a->lit, *y = b->lit;
  ElemType et = x->type->elem;
  double max_abs = 0, max_rel = 0, max_ulp = 0;
  int64_t ndiff = 0;
  for (int64_t i = 0; i < x->n; i++) {
    if (et_is_float(et)) {
      double u = lit_get_f(x, i), v = lit_get_f(y, i);
      double ul = ulp_distance(et, u, v);
      if (ul > 0) ndiff++;
      if (ul > max_ulp) max_ulp = ul;
      double d = fabs(u - v);
      if (isfinite(d)) {
        if (d > max_abs) max_abs = d;
        double r = d / (fabs(u) > 0 ? fabs(u) : 1);
        if (r > max_rel) max_rel = r;
      }
    } else if (lit_get_bits(x, i) != lit_get_bits(y, i) ||
               (et_is_complex(et) && memcmp(lit_ptr(x, i), lit_ptr(y, i), (size_t)et_bytes(et)) != 0)) {
      ndiff++;
      max_ulp = INFINITY;
    }
  }
  if (et_is_float(et))
    printf("%s: %s, max abs error %.3g, max rel error %.3g, max %.0f ULP, %lld of %lld elements differ\n",
           label, elem_info[et].mlir_name, max_abs, max_rel, max_ulp, (long long)ndiff, (long long)x->n);
  else
    printf("%s: %s, %s (%lld of %lld elements differ)\n", label, elem_info[et].mlir_name,
           ndiff ? "DIFFERENT" : "identical", (long long)ndiff, (long long)x->n);
  if (max_ulp > *worst_ulp) *worst_ulp = max_ulp;
  return true;
}

/* --backend=gpu: compiles f (needing no GPU: compile errors and dumps come
   first) and opens the first device (NULL executable on a compile error;
   st->gpu NULL, reported once, without a device). */
static GpuExecutable *gpu_prepare(RunState *st, Module *m, Func *f, const InterpOptions *io) {
  const RunOptions *o = st->o;
  if (!st->gpu_tried) {
    st->gpu_tried = true;
    st->gpu = gpu_device_open(0, &st->gpu_err);
  }
  GpuOptions go = {0};
  go.device = st->gpu;
  go.dump_dir = o->dump_dir;
  go.module_id = st->gpu_modules++;
  go.host_ops = io;
  go.profile = o->profile != 0;
  run_timer_compiling(st->timer, true);
  GpuExecutable *e = gpu_compile(m, f, &go);
  run_timer_compiling(st->timer, false);
  if (!e) return NULL;
  if (o->verbose) {
    const GpuStats *gs = gpu_executable_stats(e);
    char host[48] = "";
    if (gs->host_steps) snprintf(host, sizeof host, ", %d ops on the host", gs->host_steps);
    fprintf(stderr, "gpu: %d kernels (%d fusions)%s, PTX for %s, %lld temp bytes, compiled in %.1f ms (passes %.1f, "
            "LLVM IR %.1f, LLVM optimization %.1f, PTX %.1f)%s%s\n",
            gs->kernels, gs->fusions, host, gs->arch, (long long)gs->temp_bytes, gs->compile_ms, gs->passes_ms, gs->ir_ms,
            gs->llvm_opt_ms, gs->ptx_ms, st->gpu ? ", device " : "", st->gpu ? st->gpu->name : "");
    if (gs->loops) {
      char graphs[80] = "";
      if (gs->graph_loops) snprintf(graphs, sizeof graphs, ", %d with the body a CUDA graph", gs->graph_loops);
      fprintf(stderr, "gpu: %d of %d loops counted (their trip count known: no cond read back)%s\n", gs->counted_loops,
              gs->loops, graphs);
    }
    const char *why = "", *path = "";
    size_t version = 0;
    /* without a device cuBLASLt is not looked for */
    if (st->gpu && (gs->gemms || gs->conv_blas)) {
      if (gpu_cublaslt_available(&why, &path, &version)) {
        char conv[64] = "", apart[96] = "";
        if (gs->conv_blas) snprintf(conv, sizeof conv, " and %d convolutions", gs->conv_blas);
        if (gs->blas_apart) snprintf(apart, sizeof apart, " (%d with the epilogue in a kernel of its own)", gs->blas_apart);
        fprintf(stderr, "gpu: cuBLASLt %s (version %zu): %d of %d dot_general products%s%s, the others our GEMM kernel\n",
                path, version, gs->blas_products, gs->gemms, conv, apart);
      }
      else
        fprintf(stderr, "gpu: cuBLASLt not used (%s): %d dot_general products through our GEMM kernel\n", why,
                gs->gemms);
    }
    /* what executions (this command's, the library's, the JAX plugin's)
       do on this device */
    if (st->gpu)
      fprintf(stderr, "gpu: streams: %s\n",
              st->gpu->async ? "executions asynchronous (a stream each, ordered by events)"
                             : "executions synchronous (XLAC_GPU_ASYNC=0, or the driver's streams, events "
                               "or asynchronous copies are missing or do nothing)");
  }
  if (!st->gpu && !st->gpu_reported) {
    fprintf(stderr, "xlac: error: %s\n", st->gpu_err);
    st->gpu_reported = true;
  }
  return e;
}

/* --profile of the gpu backend: e's launch sites' device time (to out);
   reset clears the totals instead. */
static void print_gpu_profile(const RunOptions *o, GpuExecutable *e, FILE *out, bool reset) {
  StrBuf b = {0};
  if (o->profile && gpu_executable_profile(e, &b, o->profile < 0 ? 0 : o->profile, reset) && !reset)
    fputs(b.data ? b.data : "", out);
  sb_free(&b);
}

/* Runs e once; results (f->nresults, fresh references) on success. */
static bool gpu_run_once(RunState *st, GpuExecutable *e, Func *f, IVal **args, IVal **results) {
  char *err = NULL;
  bool ok = gpu_execute(e, st->gpu, f->body->nargs, args, results, &err);
  const GpuStats *gs = gpu_executable_stats(e);
  if (ok && st->o->verbose && (gs->blas_ran || gs->blas_declined))
    fprintf(stderr, "gpu: %d products ran through cuBLASLt, %d declined by it (our GEMM kernel ran them)\n",
            gs->blas_ran, gs->blas_declined);
  if (ok && st->o->verbose && gs->graph_loops)
    fprintf(stderr, "gpu: %d loop runs launched their body as a CUDA graph\n", gs->graphs_run);
  st->checks_passed += gs->checks_passed;
  st->checks_failed += gs->checks_failed;
  if (!ok) fprintf(stderr, "xlac: error: %s\n", err);
  xfree(err);
  return ok;
}

/* Compiles and runs f on the first device; results[0] gets the results
   (results[d] those of replica d / np, partition d % np of a grid, each
   given the same arguments). */
static bool run_gpu(RunState *st, Module *m, Func *f, IVal **args, IVal ***results, const InterpOptions *io) {
  const RunOptions *o = st->o;
  int nr = o->replicas > 0 ? o->replicas : 1, np = o->partitions > 0 ? o->partitions : 1;
  GpuExecutable *e = gpu_prepare(st, m, f, io);
  bool ok = e && st->gpu;
  if (ok && nr * np > 1) {
    IVal ***args_of = xcalloc((size_t)(nr * np), sizeof(IVal **));
    for (int d = 0; d < nr * np; d++) args_of[d] = args;
    ok = gpu_execute_grid(e, st->gpu, NULL, nr, np, f->body->nargs, args_of, results);
    const GpuStats *gs = gpu_executable_stats(e);
    st->checks_passed += gs->checks_passed;
    st->checks_failed += gs->checks_failed;
    xfree(args_of);
  } else if (ok) {
    results[0] = xcalloc((size_t)f->nresults + 1, sizeof(IVal *));
    ok = gpu_run_once(st, e, f, args, results[0]);
    if (ok) print_gpu_profile(o, e, stderr, false);
    if (!ok) {
      xfree(results[0]);
      results[0] = NULL;
    }
  }
  gpu_executable_free(e);
  return ok;
}

/* xlac bench --backend=gpu: the median of whole executions (arguments
   copied in, kernels, results copied out) and of the device's time from
   the first kernel to the last (CUDA events). */
static bool bench_gpu(RunState *st, Module *m, Func *f, IVal **args) {
  const RunOptions *o = st->o;
  int iters = o->iters > 0 ? o->iters : 10, warmup = o->warmup >= 0 ? o->warmup : 2;
  if (o->replicas > 1 || o->partitions > 1) {
    fprintf(stderr, "xlac: error: xlac bench --backend=gpu runs one replica and one partition (for now)\n");
    return false;
  }
  GpuExecutable *e = gpu_prepare(st, m, f, NULL);
  bool ok = e && st->gpu;
  double *times = xcalloc((size_t)iters + 1, sizeof(double)), *dev = xcalloc((size_t)iters + 1, sizeof(double));
  IVal **res = xcalloc((size_t)f->nresults + 1, sizeof(IVal *));
  for (int k = 0; ok && k < warmup + iters; k++) {
    if (k == warmup) print_gpu_profile(o, e, stdout, true); /* the timed runs' alone */
    double t0 = clock_ms();
    ok = gpu_run_once(st, e, f, args, res);
    double dt = clock_ms() - t0;
    if (ok && k >= warmup) {
      times[k - warmup] = dt;
      dev[k - warmup] = gpu_executable_stats(e)->device_ms;
    }
    for (int r = 0; r < f->nresults; r++) {
      ival_release(res[r]);
      res[r] = NULL;
    }
  }
  if (ok) {
    const GpuStats *gs = gpu_executable_stats(e);
    qsort(times, (size_t)iters, sizeof(double), cmp_double);
    qsort(dev, (size_t)iters, sizeof(double), cmp_double);
    double median = iters % 2 ? times[iters / 2] : 0.5 * (times[iters / 2 - 1] + times[iters / 2]);
    double dmed = iters % 2 ? dev[iters / 2] : 0.5 * (dev[iters / 2 - 1] + dev[iters / 2]);
    printf("%s @%s: compile %.1f ms, run median %.3f ms (device %.3f ms), min %.3f ms over %d runs (gpu, %s)\n",
           st->path, f->name, gs->compile_ms, median, dmed, times[0], iters, st->gpu->name);
    printf("  %d kernel launches (%d fusions), PTX for %s, temp %lld bytes\n", gs->kernels, gs->fusions, gs->arch,
           (long long)gs->temp_bytes);
    printf("BENCH name=%s backend=gpu compile_ms=%.3f median_ms=%.4f device_median_ms=%.4f min_ms=%.4f iters=%d\n",
           st->path, gs->compile_ms, median, dmed, times[0], iters);
    print_gpu_profile(o, e, stdout, false);
    fflush(stdout);
  }
  xfree(res);
  xfree(times);
  xfree(dev);
  gpu_executable_free(e);
  return ok;
}

/* ---- global programs on several partitions (passes/spmd.h) ----
 * `xlac run --partitions N` of a program whose entry carries shardings
 * runs the partitioned program: each partition gets its shard of every
 * argument, and every result is put back together from the partitions'
 * shards (partitions that hold the same piece must agree on it), so that
 * what is printed and checked is the global value, as with one partition.
 * compare and bench give the partitions their shards too; compare then
 * compares each partition's results. */

typedef struct SpmdRun {
  Type **res_types; /* the global result types */
  int nres;
  bool failed;      /* a parameter's pieces cannot be given (reported) */
} SpmdRun;

/* Partition p's shard (layout t) of the tensor v. */
static IVal *shard_value(IVal *v, const SpmdTiling *t, int64_t p) {
  if (!t || v->kind != IV_TENSOR) return ival_retain(v);
  const Literal *g = v->lit;
  int rank = g->type->rank;
  int64_t off[64], ld[64], idx[64] = {0}, gs[64];
  spmd_shard_offsets(t, g->type->dims, p, off);
  for (int d = 0; d < rank; d++) ld[d] = g->type->dims[d] / t->ways[d];
  Type lt = *g->type;
  lt.dims = ld;
  lt.layout = NULL;
  Literal *l = lit_new(&lt);
  shape_strides(rank, g->type->dims, gs);
  int64_t i = 0;
  if (l->n > 0) do {
      int64_t j = 0;
      for (int d = 0; d < rank; d++) j += (idx[d] + off[d]) * gs[d];
      lit_copy_elem(l, i++, g, j);
    } while (index_next(rank, ld, idx));
  return ival_tensor(l);
}

static bool same_elem(const Literal *a, int64_t i, const Literal *b, int64_t j) {
  if (et_is_complex(lit_elem(a))) {
    double ar, ai, br, bi;
    lit_get_c(a, i, &ar, &ai);
    lit_get_c(b, j, &br, &bi);
    return (ar == br || (isnan(ar) && isnan(br))) && (ai == bi || (isnan(ai) && isnan(bi)));
  }
  return lit_get_bits(a, i) == lit_get_bits(b, j);
}

/* Result r whole, from the shards of every device (layout t over np
   partitions); NULL after an error saying where the partitions disagree. */
static IVal *whole_value(IVal ***results, int ndev, int np, int r, const SpmdTiling *t, Type *g) {
  if (!t || results[0][r]->kind != IV_TENSOR) return ival_retain(results[0][r]);
  int rank = g->rank;
  Literal *out = lit_new(g);
  bool *have = xcalloc((size_t)out->n + 1, sizeof(bool));
  int64_t gs[64], off[64];
  shape_strides(rank, g->dims, gs);
  bool ok = true;
  for (int d = 0; d < ndev && ok; d++) {
    const Literal *l = results[d][r]->lit;
    int64_t idx[64] = {0}, i = 0;
    spmd_shard_offsets(t, g->dims, d % np, off);
    if (l->n > 0) do {
        int64_t j = 0;
        for (int k = 0; k < rank; k++) j += (idx[k] + off[k]) * gs[k];
        if (!have[j]) {
          lit_copy_elem(out, j, l, i);
          have[j] = true;
        } else if (!same_elem(out, j, l, i)) {
          fprintf(stderr, "xlac: error: result %d: partition %d's shard disagrees with another partition's copy at "
                  "element %lld\n", r, d % np, (long long)j);
          ok = false;
          break;
        }
        i++;
      } while (index_next(rank, l->type->dims, idx));
  }
  xfree(have);
  if (!ok) {
    lit_free(out);
    return NULL;
  }
  return ival_tensor(out);
}

/* Each device's arguments, when f is a global program to partition over
   np partitions; NULL otherwise (and when a sharding does not read: the
   compilation says why). */
static IVal ***spmd_args(Module *m, Func *f, IVal **args, int ndev, int np, SpmdRun *sp) {
  if (np <= 1 || !spmd_wanted(m, f)) return NULL;
  int n = f->body->nargs;
  SpmdTiling **t = xcalloc((size_t)n + 1, sizeof *t);
  for (int i = 0; i < n; i++) {
    char *err = NULL;
    t[i] = spmd_arg_tiling(m, f, i, np, &err);
    if (err) {
      /* the partitioned program would take other pieces than these
         (partial sums of an unreduced parameter): say so */
      if (strstr(err, "unreduced")) {
        fprintf(stderr, "xlac: error: parameter %d: %s (xlac run does not make partial sums)\n", i, err);
        sp->failed = true;
      }
      xfree(err);
      xfree(t);
      return NULL;
    }
    const Type *g = f->body->args[i]->type;
    for (int d = 0; t[i] && d < g->rank; d++)
      if (g->dims[d] % t[i]->ways[d]) {
        xfree(t);
        return NULL;
      }
  }
  IVal ***dargs = xcalloc((size_t)ndev, sizeof(IVal **));
  for (int d = 0; d < ndev; d++) {
    dargs[d] = xcalloc((size_t)n + 1, sizeof(IVal *));
    for (int i = 0; i < n; i++) dargs[d][i] = shard_value(args[i], t[i], d % np);
  }
  xfree(t);
  sp->nres = f->nresults;
  sp->res_types = xcalloc((size_t)f->nresults + 1, sizeof(Type *));
  for (int i = 0; i < f->nresults; i++) sp->res_types[i] = f->result_types[i];
  return dargs;
}

static void spmd_done(RunState *st, SpmdRun *sp, int ndev, int nargs) {
  for (int d = 0; st->dargs && d < ndev; d++) release_all(st->dargs[d], nargs);
  xfree(st->dargs);
  st->dargs = NULL;
  xfree(sp->res_types);
}

/* Result r of every device, where it is a partial sum over the
   partitions of each group (group[p]: the least partition of p's group),
   replaced by the sum over its group (in double, or int64, precision,
   members in partition order), so that the members hold copies. */
static void sum_partials(IVal ***results, int ndev, int np, int r, const int64_t *group) {
  IVal **sums = xcalloc((size_t)ndev + 1, sizeof(IVal *));
  for (int d = 0; d < ndev; d++) {
    const Literal *l = results[d][r]->kind == IV_TENSOR ? results[d][r]->lit : NULL;
    if (!l) continue;
    ElemType et = lit_elem(l);
    Literal *s = lit_clone(l);
    for (int64_t i = 0; i < s->n; i++) {
      double re = 0, im = 0;
      int64_t iv = 0;
      bool any = false;
      for (int e = d - d % np; e < d - d % np + np; e++) {
        if (group[e % np] != group[d % np]) continue;
        const Literal *x = results[e][r]->lit;
        double a, b;
        if (et_is_complex(et)) {
          lit_get_c(x, i, &a, &b);
          re += a, im += b;
        } else if (et_is_float(et)) {
          re += lit_get_f(x, i);
        } else if (et_is_pred(et)) {
          any |= lit_get_b(x, i);
        } else {
          iv += lit_get_i(x, i);
        }
      }
      if (et_is_complex(et)) lit_set_c(s, i, re, im);
      else if (et_is_float(et)) lit_set_f(s, i, re);
      else if (et_is_pred(et)) lit_set_b(s, i, any);
      else lit_set_i(s, i, iv);
    }
    sums[d] = ival_tensor(s);
  }
  for (int d = 0; d < ndev; d++)
    if (sums[d]) {
      ival_release(results[d][r]);
      results[d][r] = sums[d];
    }
  xfree(sums);
}

/* Replaces the devices' results by the whole results (in results[0]). */
static bool spmd_gather_results(Module *m, Func *f, SpmdRun *sp, IVal ***results, int ndev, int np) {
  IVal **whole = xcalloc((size_t)sp->nres + 1, sizeof(IVal *));
  int64_t *group = xcalloc((size_t)np + 1, sizeof(int64_t));
  bool ok = true;
  for (int r = 0; r < sp->nres && ok; r++) {
    char *err = NULL;
    SpmdTiling *t = NULL;
    if (spmd_result_unreduced(m, f, r, np, &t, group, &err)) sum_partials(results, ndev, np, r, group);
    else if (!err) t = spmd_result_tiling(m, f, r, np, &err);
    if (err) {
      fprintf(stderr, "xlac: error: result %d: %s\n", r, err);
      xfree(err);
      ok = false;
    } else {
      ok = (whole[r] = whole_value(results, ndev, np, r, t, sp->res_types[r])) != NULL;
    }
  }
  xfree(group);
  for (int d = 0; d < ndev; d++) {
    release_all(results[d], sp->nres);
    results[d] = NULL;
  }
  if (!ok) {
    for (int r = 0; r < sp->nres; r++)
      if (whole[r]) ival_release(whole[r]);
    xfree(whole);
    return false;
  }
  results[0] = whole;
  return true;
}

/* ---- running ---- */
static bool run_func(RunState *st, Module *m, Func *f, const char *probe_dir, bool named) {
  const RunOptions *o = st->o;
  IVal **args = build_args(st, f);
  if (!args) return false;
  int nres = f->nresults;
  int nr = o->replicas > 0 ? o->replicas : 1, np = o->partitions > 0 ? o->partitions : 1, ndev = nr * np;
  SpmdRun sp = {0};
  if (o->backend != BACKEND_GPU) st->dargs = spmd_args(m, f, args, ndev, np, &sp);
  if (sp.failed) {
    release_all(args, f->body->nargs);
    return false;
  }
  if (o->mode == MODE_BENCH && o->backend == BACKEND_GPU) {
    bool ok = bench_gpu(st, m, f, args);
    spmd_done(st, &sp, ndev, f->body->nargs);
    release_all(args, f->body->nargs);
    return ok;
  }
  if (o->mode == MODE_BENCH) {
    InterpOptions bio = {probe_dir, true, stdout, st->cancel};
    bool ok = bench_func(st, &bio, m, f, args);
    spmd_done(st, &sp, ndev, f->body->nargs);
    release_all(args, f->body->nargs);
    return ok;
  }
  if (o->mode == MODE_COMPARE) {
    /* the interpreter first: the cpu backend optimizes the module in place */
    InterpOptions cio = {probe_dir, true, stdout, st->cancel};
    IVal ***ref = xcalloc((size_t)ndev, sizeof(IVal **)), ***got = xcalloc((size_t)ndev, sizeof(IVal **));
    xlac_executable_stats es;
    xlac_executable *ie = compile_for(st, BACKEND_INTERP, m, f, &es);
    bool ok = ie && execute(st, ie, f, args, &cio, ref);
    xlac_executable_destroy(ie);
    if (o->backend == BACKEND_GPU) {
      ok = ok && run_gpu(st, m, f, args, got, &cio);
    } else {
      xlac_executable *ce = ok ? compile_for(st, BACKEND_CPU, m, f, &es) : NULL;
      ok = ce && execute(st, ce, f, args, &cio, got);
      xlac_executable_destroy(ce);
    }
    double worst = 0;
    for (int d = 0; ok && d < ndev; d++)
      for (int i = 0; i < nres; i++) {
        char *label = ndev > 1 ? xasprintf("replica %d partition %d: result[%d]", d / np, d % np, i)
                               : xasprintf("result[%d]", i);
        compare_values(label, ref[d][i], got[d][i], &worst);
        xfree(label);
      }
    if (ok) printf("COMPARE name=%s max_ulp=%.0f\n", st->path, worst);
    release_results(ref, ndev, nres);
    release_results(got, ndev, nres);
    spmd_done(st, &sp, ndev, f->body->nargs);
    release_all(args, f->body->nargs);
    return ok;
  }
  InterpOptions io = {probe_dir, !o->verbose, stdout, st->cancel};
  int failed_before = st->checks_failed;
  /* results of one of several functions run are labelled with its name */
  char *label = named ? xasprintf("@%s ", f->name) : xstrdup("");
  xlac_executable_stats es;
  bool gpu = o->backend == BACKEND_GPU;
  xlac_executable *e = gpu ? NULL : compile_for(st, o->backend, m, f, &es);
  IVal ***results = xcalloc((size_t)ndev, sizeof(IVal **));
  bool ok = gpu ? run_gpu(st, m, f, args, results, &io) : e && execute(st, e, f, args, &io, results);
  int shown = ndev;
  if (ok && sp.res_types) {
    ok = spmd_gather_results(m, f, &sp, results, ndev, np);
    shown = 1;
  }
  for (int d = 0; d < ndev; d++) {
    if (!results[d]) continue;
    char *prefix = shown > 1 ? xasprintf("%sreplica %d partition %d: ", label, d / np, d % np) : xstrdup(label);
    if (!emit_results(st, f, prefix, results[d])) ok = false;
    xfree(prefix);
  }
  if (e && o->verbose && o->backend == BACKEND_CPU) print_cpu_stats(&es);
  if (e && o->verbose) print_cost(stderr, "", &es);
  if (ok) print_profile(o, e, stderr, false);
  release_results(results, ndev, nres);
  xlac_executable_destroy(e);
  xfree(label);
  spmd_done(st, &sp, ndev, f->body->nargs);
  release_all(args, f->body->nargs);
  return ok && st->checks_failed == failed_before;
}

static void list_funcs(StrBuf *b, const Module *m) {
  int k = 0;
  for (const Func *f = m->funcs; f; f = f->next) sb_printf(b, "%s@%s", k++ ? ", " : "", f->name);
}

static bool run_module(RunState *st, Module *m, const char *probe_dir) {
  const RunOptions *o = st->o;
  if (!m->funcs) {
    if (o->split) return true;
    /* point at the start of the module's text */
    SrcLoc at = m->loc;
    if (src_get(at.file))
      error_at(at, "the module has no function to run (the input is empty or holds only comments)");
    else
      fprintf(stderr, "xlac: error: %s: the module has no function to run\n", st->path);
    return false;
  }
  Func *f = o->entry ? module_find_func(m, o->entry) : module_entry(m);
  if (o->entry && !f) {
    StrBuf b = {0};
    list_funcs(&b, m);
    fprintf(stderr, "xlac: error: no function named @%s (the module has %s)\n", o->entry, b.data);
    sb_free(&b);
    return false;
  }
  if (f) return run_func(st, m, f, probe_dir, false);
  /* several functions and no main: run each public zero-argument one */
  int count = 0;
  bool ok = true;
  for (Func *g = m->funcs; g; g = g->next) {
    if (g->is_private || g->body->nargs != 0) continue;
    if (count++ == 0 && o->ninputs > 0) {
      fprintf(stderr, "xlac: error: --input needs a single entry function; pass --entry NAME\n");
      return false;
    }
    if (!run_func(st, m, g, probe_dir, true)) ok = false;
  }
  if (count == 0) {
    StrBuf b = {0};
    list_funcs(&b, m);
    fprintf(stderr, "xlac: error: cannot choose an entry function among %s; name one @main or pass --entry NAME\n",
            b.data);
    sb_free(&b);
    return false;
  }
  return ok;
}

static bool is_probe_op(Op *op, void *ud) {
  bool *found = ud;
  if (op->kind == OP_INTERP_PROBE || op->kind == OP_CHECK_EXPECT_SERIALIZED_EQ) *found = true;
  return !*found;
}

static bool uses_probes(Module **mods, int n) {
  bool found = false;
  for (int i = 0; i < n && !found; i++)
    if (mods[i]) module_walk(mods[i], is_probe_op, &found);
  return found;
}

static int remove_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw) {
  (void)sb, (void)type, (void)ftw;
  remove(path);
  return 0;
}

/* Output and probe directories are prepared when the first chunk is ready,
   so that a file that cannot be read leaves no directories behind. */
static bool prepare_dirs(RunState *st) {
  const RunOptions *o = st->o;
  if ((o->output_dir && !make_dirs(o->output_dir)) || (o->probe_dir && !make_dirs(o->probe_dir)))
    return false;
  if (o->probe_dir) {
    /* a fresh index per run, so old probes are not compared against */
    char *idx = xasprintf("%s/index.csv", o->probe_dir);
    unlink(idx);
    xfree(idx);
  }
  return true;
}

static void run_chunk(Module **mp, int index, int count, void *ud) {
  RunState *st = ud;
  if (!st->prepared) {
    st->prepared = true;
    st->dirs_ok = prepare_dirs(st);
  }
  if (!st->dirs_ok || !*mp) {
    st->status = 1;
    return;
  }
  if (st->cancel && atomic_load(&st->cancel->stop)) {
    /* the time is up: what is left does not run */
    if (atomic_exchange(&st->cancel->reported, 1) == 0)
      fprintf(stderr, "xlac: error: %s; the rest of the input was not run\n", st->cancel->reason);
    st->status = 1;
    return;
  }
  const char *pdir = st->o->probe_dir;
  char *own = NULL;
  if (!pdir && uses_probes(mp, 1)) {
    /* a private directory per chunk, removed at the end */
    if (!st->tmp_root) {
      const char *t = getenv("TMPDIR");
      st->tmp_root = xasprintf("%s/xlac-run-XXXXXX", t && *t ? t : "/tmp");
      if (!mkdtemp(st->tmp_root)) {
        fprintf(stderr, "xlac: error: cannot create a temporary directory: %s\n", strerror(errno));
        xfree(st->tmp_root);
        st->tmp_root = NULL;
        st->status = 1;
        return;
      }
    }
    own = xasprintf("%s/%d", st->tmp_root, index);
    mkdir(own, 0777);
    pdir = own;
  }
  if (!run_module(st, *mp, pdir)) st->status = 1;
  xfree(own);
}

int driver_run(const char *path, const RunOptions *o) {
  RunState st = {0};
  st.o = o;
  st.path = path;
  st.rng = o->seed;
  protect(&st, path);
  api_set_passthrough(true);
  /* --timeout stops loops as they run and compilations between their
     steps; the timer also ends a compilation stuck inside LLVM */
  xlac_cancel xc = {0};
  InterpCancel *cancel = &xc.ic;
  RunTimer *timer = NULL;
  char reason[64];
  if (o->timeout > 0) {
    snprintf(reason, sizeof reason, "--timeout of %g s expired", o->timeout);
    cancel->reason = reason;
    st.cancel = cancel;
    st.xcancel = &xc;
    timer = run_timer_start(o->timeout, cancel);
    st.timer = timer;
  }
  if (!for_each_module(path, o->split, run_chunk, &st, NULL)) st.status = 1;
  if (o->nexpects && st.status == 0 && st.expects_used < o->nexpects) {
    fprintf(stderr, "xlac: error: --expect names a result the program does not have (%d of %d were checked)\n",
            st.expects_used, o->nexpects);
    st.status = 1;
  }
  run_timer_stop(timer);
  xlac_client_destroy(st.clients[0]);
  xlac_client_destroy(st.clients[1]);
  gpu_device_close(st.gpu);
  xfree(st.gpu_err);
  api_set_passthrough(false);
  if (st.checks_passed || st.checks_failed)
    fprintf(stderr, "%d checks passed, %d failed\n", st.checks_passed, st.checks_failed);
  if (st.tmp_root) {
    nftw(st.tmp_root, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
    xfree(st.tmp_root);
  }
  VEC_FREE(st.protected_files);
  return st.status;
}
