/*
 * executable.c - compiling programs and executing them.
 *
 * Compiling parses a private copy of the program (the CPU backend optimizes
 * its module in place, and a program may be compiled many times), picks the
 * entry function, flattens its signature into leaves (the buffers callers
 * pass) and hands it to the CPU backend on the client's pool, or keeps it
 * for the interpreter.
 *
 * Executing checks every argument against the signature, binds the
 * buffers' values as parameters (rebuilding tuples), runs one device
 * directly or several as a grid of threads (replicas x partitions meeting in
 * their collectives), and wraps the results' leaves as new buffers.  A
 * donated argument paired with a result gives that result its storage.
 * Each execution has its own interpreter state, so any number may run at
 * once.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "cpu/cpu.h"
#include "codegen/dump.h"
#include "gpu/gpu.h"
#include "interp/hostcall.h"
#include "passes/cost.h"
#include "passes/passes.h"
#include "passes/spmd.h"
#include "xlacrt.h"

/* ---- signature leaves ---- */

typedef VEC(ApiLeaf) LeafVec;

static void add_leaves(LeafVec *v, Type *t, const char *name) {
  if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->ntuple; i++) add_leaves(v, t->tuple[i], NULL);
    return;
  }
  ApiLeaf l = {0};
  l.type = api_type_of(t);
  l.t = t;
  if (t->kind == TY_TENSOR) {
    l.rank = t->rank;
    l.dims = xcalloc((size_t)(t->rank + 1), sizeof(int64_t));
    if (t->rank) memcpy(l.dims, t->dims, sizeof(int64_t) * (size_t)t->rank);
  } else {
    l.dims = xcalloc(1, sizeof(int64_t));
  }
  l.name = name ? xstrdup(name) : NULL;
  VEC_PUSH(*v, l);
}

static void free_leaves(ApiLeaf *l, int n) {
  for (int i = 0; l && i < n; i++) {
    xfree(l[i].dims);
    xfree(l[i].name);
  }
  xfree(l);
}

static char *leaf_str(const ApiLeaf *l) {
  if (l->type == XLAC_TOKEN) return xstrdup("!stablehlo.token");
  return type_str(l->t);
}

/* The argument the program pairs with a result through the argument
   attribute tf.aliasing_output = N. */
static int declared_alias(const Func *f, int arg) {
  if (!f->arg_attrs || !f->arg_attrs[arg]) return -1;
  const Attr *a = attr_dict_get(f->arg_attrs[arg], "tf.aliasing_output");
  return a && a->kind == ATTR_INT ? (int)a->i : -1;
}

static bool same_leaf(const ApiLeaf *a, const ApiLeaf *b) {
  if (a->type != b->type || a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

/* ---- compiling ---- */

typedef struct CompileJob {
  xlac_client *client;
  xlac_compile_options o;
  Module *m;        /* taken by the executable unless borrowed */
  bool borrowed;    /* m is the caller's (api_compile_module) */
  Func *entry;      /* given by the caller, or NULL: options' entry or the module's */
  const ApiDumpOptions *dump;
  bool retained;    /* the executable took a client reference */
  const Module *names_from; /* a built program: its parameter names (its printed text has none) */
  const char *text;  /* to parse when m is NULL */
  size_t len;
  const char *name;
  int file;
  xlac_executable *exe;
  xlac_code code;   /* what a failure is */
} CompileJob;

static void list_funcs(StrBuf *b, const Module *m) {
  int k = 0;
  for (const Func *f = m->funcs; f; f = f->next) sb_printf(b, "%s@%s", k++ ? ", " : "", f->name);
  if (!k) sb_puts(b, "none");
}

/* The XLA_FLAGS vocabulary: the dump flags.  Words are separated by
   blanks; anything else is an error (a library has no environment to warn
   into). */
static bool apply_xla_flags(CpuOptions *co, const char *flags, char **keep) {
  char *copy = xstrdup(flags);
  *keep = copy;
  for (char *w = strtok(copy, " \t\n"); w; w = strtok(NULL, " \t\n")) {
    DumpOptions d = {co->dump_dir, co->dump_pass_re, co->dump_as_dot, co->dump_as_html, 0, false};
    int rc = dump_parse_flag(&d, w);
    co->dump_dir = d.dir;
    co->dump_pass_re = d.pass_re;
    co->dump_as_dot = d.as_dot;
    co->dump_as_html = d.as_html;
    if (rc == 0) {
      error_at(SRCLOC_NONE, "xla_flags: unknown flag '%s' (xlac knows --xla_dump_to, --xla_dump_hlo_pass_re, "
               "--xla_dump_hlo_as_dot, --xla_dump_hlo_as_html, --xla_dump_hlo_as_text)", w);
      return false;
    }
    if (rc < 0) return false;
  }
  return true;
}

/* The cost of one execution of f (the optimized function the CPU backend
   compiled, or the program the interpreter runs), passes/cost.h. */
static void set_cost(xlac_executable *e, const Module *m, const Func *f) {
  Cost k = cost_func(m, f);
  e->stats.flops = k.flops;
  e->stats.transcendentals = k.transcendentals;
  e->stats.bytes_accessed = k.bytes;
}

static bool compile_guarded(CompileJob *j) {
  xlac_client *c = j->client;
  const xlac_compile_options *o = &j->o;
  Module *m = j->m;
  Func *entry = j->entry;
  if (!entry && o->entry) {
    const char *name = o->entry[0] == '@' ? o->entry + 1 : o->entry;
    entry = module_find_func(m, name);
    if (!entry) {
      StrBuf b = {0};
      list_funcs(&b, m);
      error_at(SRCLOC_NONE, "the program has no function @%s (it has %s)", name, b.data);
      sb_free(&b);
      j->code = XLAC_NOT_FOUND;
      return false;
    }
  } else if (!entry) {
    entry = module_entry(m);
    if (!entry) {
      StrBuf b = {0};
      list_funcs(&b, m);
      error_at(SRCLOC_NONE, "the program has no @main, no HLO ENTRY and more than one function (%s): name the one "
               "to compile with xlac_compile_options.entry", b.data);
      sb_free(&b);
      j->code = XLAC_NOT_FOUND;
      return false;
    }
  }
  if (j->names_from) {
    const Func *src = module_find_func(j->names_from, entry->name);
    for (int i = 0; src && i < entry->body->nargs && i < src->body->nargs; i++)
      if (src->body->args[i]->name) entry->body->args[i]->name = arena_strdup(&m->arena, src->body->args[i]->name);
  }
  /* a global program with sharded parameters or results becomes the
     program of one partition (passes/spmd.h) */
  int nrep = o->num_replicas > 0 ? o->num_replicas : c->num_replicas;
  int npart = o->num_partitions > 0 ? o->num_partitions : c->num_partitions;
  /* ApproxTopK becomes an exact top-k before the partitioner and every
     backend (the interpreter too) see the program (passes/approx_top_k.c) */
  if (pass_approx_top_k(m, &(PassOptions){0}) < 0) return false;
  if ((npart > 1 || spmd_has_manual(m, entry)) && spmd_wanted(m, entry) && !spmd_partition(m, entry, nrep, npart)) return false;
  xlac_executable *e = xcalloc(1, sizeof *e);
  j->exe = e;
  e->magic = API_MAGIC_EXE;
  atomic_init(&e->refs, 1);
  e->client = c;
  api_client_retain(c);
  j->retained = true;
  e->m = m;
  e->owns_module = !j->borrowed;
  e->file = j->file; /* j->file stays: released again (a no-op) if the call fails */
  j->m = NULL;
  e->entry = entry;
  e->num_replicas = o->num_replicas > 0 ? o->num_replicas : c->num_replicas;
  e->num_partitions = o->num_partitions > 0 ? o->num_partitions : c->num_partitions;
  /* a process of a set (xlac/process_set.h) compiles for the whole set */
  int total = c->set ? c->num_replicas * c->num_partitions : c->ndev;
  if (o->multi_process && !c->set && (int64_t)e->num_replicas * e->num_partitions > 4096) {
    error_at(SRCLOC_NONE, "the program is compiled for %d replicas x %d partitions, more than 4096 devices",
             e->num_replicas, e->num_partitions);
    return false;
  }
  if ((!o->multi_process && (int64_t)e->num_replicas * e->num_partitions > total) ||
      (c->set && (int64_t)e->num_replicas * e->num_partitions != total)) {
    error_at(SRCLOC_NONE, "the program is compiled for %d replicas x %d partitions = %lld devices, the client has %d",
             e->num_replicas, e->num_partitions, (long long)e->num_replicas * e->num_partitions, total);
    return false;
  }

  LeafVec args = {0}, res = {0};
  VEC(int) leaf_param = {0}; /* the parameter each argument leaf belongs to */
  for (int i = 0; i < entry->body->nargs; i++) {
    int before = args.len;
    add_leaves(&args, entry->body->args[i]->type, entry->body->args[i]->name);
    for (int k = before; k < args.len; k++) VEC_PUSH(leaf_param, i);
  }
  for (int i = 0; i < entry->nresults; i++) add_leaves(&res, entry->result_types[i], NULL);
  e->args = args.data;
  e->nargs = args.len;
  e->res = res.data;
  e->nres = res.len;
  e->alias = xcalloc((size_t)(e->nres + 1), sizeof(int));
  for (int i = 0; i < e->nres; i++) e->alias[i] = -1;
  /* pairs the program declares, then the ones the caller asks for */
  for (int a = 0; a < e->nargs; a++) {
    int r = args.len == entry->body->nargs ? declared_alias(entry, a) : -1;
    if (r >= 0 && r < e->nres && e->alias[r] < 0 && same_leaf(&e->args[a], &e->res[r])) e->alias[r] = a;
  }
  for (int k = 0; k < o->num_donate_args; k++) {
    int a = o->donate_args[k];
    if (a < 0 || a >= e->nargs) {
      error_at(SRCLOC_NONE, "donate_args[%d] = %d: the program has %d arguments", k, a, e->nargs);
      VEC_FREE(leaf_param);
      return false;
    }
    bool paired = false;
    for (int r = 0; r < e->nres && !paired; r++) paired = e->alias[r] == a;
    for (int r = 0; r < e->nres && !paired; r++)
      if (e->alias[r] < 0 && e->args[a].type != XLAC_TOKEN && same_leaf(&e->args[a], &e->res[r])) {
        e->alias[r] = a;
        paired = true;
      }
  }
  VEC_FREE(leaf_param);
  for (int r = 0; r < e->nres; r++) e->stats.aliased_results += e->alias[r] >= 0;
  for (int i = 0; i < e->nargs; i++)
    if (e->args[i].type != XLAC_TOKEN) e->stats.arg_bytes += type_num_elements(e->args[i].t) * et_bytes(e->args[i].t->elem);
  for (int i = 0; i < e->nres; i++)
    if (e->res[i].type != XLAC_TOKEN) e->stats.result_bytes += type_num_elements(e->res[i].t) * et_bytes(e->res[i].t->elem);
  e->stats.struct_size = sizeof e->stats;
  e->stats.cache_note = "";
  e->stats.warnings = "";
  e->stats.num_replicas = e->num_replicas;
  e->stats.num_partitions = e->num_partitions;

  /* an unknown custom-call target is a compile error on either backend */
  if (c->backend == XLAC_BACKEND_INTERPRETER) {
    set_cost(e, m, entry);
    return hostcall_check_reachable(m, entry, NULL, NULL);
  }
  CpuOptions co = {0};
  co.threads = c->num_threads;
  co.pool = c->pool;
  co.opt_level = o->opt_level;
  co.no_fusion = o->no_fusion != 0;
  co.dump_dir = o->dump_dir;
  co.cache_dir = c->cache_dir;
  co.cancel = o->cancel ? &o->cancel->ic : NULL;
  co.profile = o->profile != 0;
  co.flush_denormals = c->flush_denormals;
  /* pairs of donated parameters and results, for computing in place
     (signatures without tuples: leaves are parameters and results) */
  if (e->nargs == entry->body->nargs && e->nres == entry->nresults) {
    co.alias_param = e->alias;
    co.nalias = e->nres;
  }
  if (j->dump) {
    co.dump_pass_re = j->dump->pass_re;
    co.dump_as_dot = j->dump->as_dot;
    co.dump_as_html = j->dump->as_html;
  }
  co.module_id = atomic_fetch_add(&c->next_module_id, 1);
  char *flags_copy = NULL;
  if (o->xla_flags && !apply_xla_flags(&co, o->xla_flags, &flags_copy)) {
    xfree(flags_copy);
    return false;
  }
  if (o->opt_level < 0 || o->opt_level > 3) {
    xfree(flags_copy);
    error_at(SRCLOC_NONE, "opt_level %d is not in 0..3", o->opt_level);
    return false;
  }
  if (c->backend == XLAC_BACKEND_GPU) {
    GpuOptions go = {0};
    go.device = c->gpu;
    go.opt_level = co.opt_level;
    go.no_fusion = co.no_fusion;
    go.dump_dir = co.dump_dir;
    go.module_id = co.module_id;
    go.alias_param = co.alias_param;
    go.nalias = co.nalias;
    e->gpu = gpu_compile(m, entry, &go);
    xfree(flags_copy);
    if (!e->gpu) return false;
    const GpuStats *gs = gpu_executable_stats(e->gpu);
    e->stats.temp_bytes = gs->temp_bytes;
    e->stats.native_ops = gs->kernels;
    e->stats.fusions = gs->fusions;
    e->stats.compile_ms = gs->compile_ms;
    e->stats.passes_ms = gs->passes_ms;
    e->stats.ir_ms = gs->ir_ms;
    e->stats.llvm_opt_ms = gs->llvm_opt_ms;
    e->stats.machine_ms = gs->ptx_ms;
    e->stats.in_place_results = gs->in_place_results;
    set_cost(e, m, entry);
    return true;
  }
  e->cpu = cpu_compile(m, entry, &co);
  xfree(flags_copy);
  if (!e->cpu) return false;
  const CpuStats *cs = cpu_executable_stats(e->cpu);
  e->stats.temp_bytes = cs->temp_bytes;
  e->stats.native_ops = cs->native_ops;
  e->stats.interpreted_ops = cs->fallback_ops;
  e->stats.fusions = cs->fusions;
  e->stats.compile_ms = cs->compile_ms;
  e->stats.passes_ms = cs->passes_ms;
  e->stats.ir_ms = cs->ir_ms;
  e->stats.llvm_opt_ms = cs->llvm_opt_ms;
  e->stats.machine_ms = cs->machine_ms;
  e->stats.compile_threads = cs->compile_threads;
  switch (cs->cache) {
  case CPU_CACHE_OFF: e->stats.cache = XLAC_CACHE_OFF; break;
  case CPU_CACHE_HIT: e->stats.cache = XLAC_CACHE_HIT; break;
  case CPU_CACHE_MISS: e->stats.cache = XLAC_CACHE_MISS; break;
  case CPU_CACHE_REPLACED: e->stats.cache = XLAC_CACHE_REPLACED; break;
  case CPU_CACHE_ERROR: e->stats.cache = XLAC_CACHE_UNUSABLE; break;
  }
  e->stats.cache_note = cs->cache_note;
  set_cost(e, m, cpu_executable_flat(e->cpu));
  for (int r = 0; r < e->nres; r++) e->stats.in_place_results += e->alias[r] >= 0 && cpu_executable_in_place(e->cpu, r);
  return true;
}

/* The last reference frees: destroying an executable another thread is
   running (a caller error) waits for that run to end instead of pulling
   its code away; later calls with it get an error. */
static void exe_release(xlac_executable *e) {
  if (atomic_fetch_sub(&e->refs, 1) != 1) return;
  cpu_executable_free(e->cpu);
  if (e->gpu) {
    pthread_mutex_lock(&e->client->gpu_mu);
    gpu_executable_free(e->gpu);
    pthread_mutex_unlock(&e->client->gpu_mu);
  }
  if (e->owns_module) module_free(e->m);
  if (e->file >= 0) src_release(e->file);
  free_leaves(e->args, e->nargs);
  free_leaves(e->res, e->nres);
  xfree(e->alias);
  xfree(e->warnings);
  api_client_release(e->client);
  xfree(e);
}

void xlac_executable_destroy(xlac_executable *e) {
  uint32_t live = API_MAGIC_EXE;
  /* once, even when two threads destroy it at once */
  if (!e || !atomic_compare_exchange_strong(&e->magic, &live, API_MAGIC_DEAD)) return;
  exe_release(e);
}

static bool compile_step(void *ctx) {
  CompileJob *j = ctx;
  /* the printed form of a built (or imported) program is StableHLO, whatever its name says */
  if (!j->m) j->m = api_parse(j->text, j->len, j->name, !j->names_from, &j->file);
  return j->m && compile_guarded(j);
}

/* Runs a compile job (with j->m set, or text to parse first) inside a
   capture and a memory guard. */
static xlac_status *run_compile(CompileJob *j, const char *text, size_t len, const char *name,
                                xlac_executable **out) {
  ApiCapture cap;
  api_capture_begin(&cap);
  j->code = XLAC_INVALID_ARGUMENT;
  j->text = text;
  j->len = len;
  j->name = name;
  /* a borrowed module has blocks from before the call, which an unwind
     must not free: only compiles of private modules are tracked */
  bool unwound;
  bool ok = api_guarded(compile_step, j, !j->borrowed, &unwound);
  if (!ok && j->o.cancel && atomic_load(&j->o.cancel->ic.stop)) j->code = XLAC_CANCELLED;
  cap.keep_warnings = true;
  xlac_status *s = api_capture_end(&cap, ok, j->code, "compilation failed");
  char *warnings = api_capture_take_warnings(&cap);
  if (s || !warnings) {
    xfree(warnings);
    if (!s) s = xlac_status_create(XLAC_OUT_OF_MEMORY, "out of memory");
  }
  if (s) {
    if (unwound) {
      /* what the call built went with its memory (a borrowed module was
         being rewritten when it unwound: it is not usable either) */
      if (j->retained) api_client_release(j->client);
    } else {
      xlac_executable_destroy(j->exe);
      if (j->m && !j->borrowed) module_free(j->m);
    }
    if (j->file >= 0) src_release(j->file);
    return s;
  }
  j->exe->stats.struct_size = sizeof j->exe->stats;
  j->exe->warnings = warnings;
  j->exe->stats.warnings = warnings;
  *out = j->exe;
  return NULL;
}

static xlac_status *start_compile(xlac_client *c, const xlac_compile_options *opts, xlac_executable **out,
                                  const char *fn, CompileJob *j) {
  if (out) *out = NULL;
  xlac_status *s = api_check_client(c, fn);
  if (s) return s;
  if (!out) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: out_executable is NULL", fn);
  if ((s = api_check_client_alive(c, fn))) return s;
  memset(j, 0, sizeof *j);
  j->client = c;
  j->file = -1;
  if (opts) {
    size_t n = opts->struct_size && opts->struct_size < sizeof j->o ? opts->struct_size : sizeof j->o;
    memcpy(&j->o, opts, n);
  }
  if (j->o.num_donate_args < 0 || (j->o.num_donate_args > 0 && !j->o.donate_args))
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: donate_args is NULL or num_donate_args negative", fn);
  return NULL;
}

xlac_status *xlac_compile_text(xlac_client *c, const char *text, size_t len, const xlac_compile_options *opts,
                               xlac_executable **out_executable) {
  CompileJob j;
  xlac_status *s = start_compile(c, opts, out_executable, "xlac_compile_text", &j);
  if (s) return s;
  if (!text && len) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_compile_text: text is NULL");
  return run_compile(&j, text ? text : "", len, "<input>", out_executable);
}

xlac_status *xlac_compile_file(xlac_client *c, const char *path, const xlac_compile_options *opts,
                               xlac_executable **out_executable) {
  CompileJob j;
  xlac_status *s = start_compile(c, opts, out_executable, "xlac_compile_file", &j);
  if (s) return s;
  if (!path) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_compile_file: path is NULL");
  char *text = NULL, *err = NULL;
  size_t len = 0;
  size_t max = alloc_limit_get() < SRC_MAX_BYTES ? alloc_limit_get() : SRC_MAX_BYTES;
  if (!read_file(path, max, &text, &len, &err)) {
    s = xlac_status_create(XLAC_NOT_FOUND, "%s", err ? err : path);
    xfree(err);
    return s;
  }
  s = run_compile(&j, text, len, path, out_executable);
  xfree(text);
  return s;
}

xlac_status *xlac_compile(xlac_client *c, const xlac_program *p, const xlac_compile_options *opts,
                          xlac_executable **out_executable) {
  CompileJob j;
  xlac_status *s = start_compile(c, opts, out_executable, "xlac_compile", &j);
  if (s) return s;
  if (!p || p->magic != API_MAGIC_PROGRAM) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_compile: not a program");
  if (p->text) return run_compile(&j, p->text, p->len, p->name, out_executable);
  /* a built program: compile its printed form */
  char *text;
  size_t len;
  if ((s = api_print_module(p->m, XLAC_FORMAT_STABLEHLO, &text, &len))) return s;
  j.names_from = p->m;
  s = run_compile(&j, text, len, p->name, out_executable);
  xfree(text);
  return s;
}

xlac_status *api_compile_module(xlac_client *c, Module *m, Func *f, const xlac_compile_options *opts,
                                const ApiDumpOptions *dump, xlac_executable **out) {
  CompileJob j;
  xlac_status *s = start_compile(c, opts, out, "xlac_compile", &j);
  if (s) return s;
  j.m = m;
  j.borrowed = true;
  j.entry = f;
  j.dump = dump;
  return run_compile(&j, NULL, 0, NULL, out);
}

/* ---- queries ---- */

static bool exe_ok(const xlac_executable *e) { return e && e->magic == API_MAGIC_EXE; }

int xlac_executable_num_args(const xlac_executable *e) { return exe_ok(e) ? e->nargs : 0; }
int xlac_executable_num_results(const xlac_executable *e) { return exe_ok(e) ? e->nres : 0; }

static xlac_status *leaf_shape(const xlac_executable *e, int index, xlac_shape *out, bool arg, const char *fn) {
  if (!exe_ok(e)) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: not an executable", fn);
  if (!out) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: out_shape is NULL", fn);
  int n = arg ? e->nargs : e->nres;
  if (index < 0 || index >= n)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: index %d, the program has %d %s", fn, index, n,
                              arg ? "arguments" : "results");
  const ApiLeaf *l = arg ? &e->args[index] : &e->res[index];
  *out = (xlac_shape){l->type, l->rank, l->dims, l->name};
  return NULL;
}

xlac_status *xlac_executable_arg_shape(const xlac_executable *e, int index, xlac_shape *out_shape) {
  return leaf_shape(e, index, out_shape, true, "xlac_executable_arg_shape");
}

xlac_status *xlac_executable_result_shape(const xlac_executable *e, int index, xlac_shape *out_shape) {
  return leaf_shape(e, index, out_shape, false, "xlac_executable_result_shape");
}

int xlac_executable_result_alias(const xlac_executable *e, int index) {
  return exe_ok(e) && e->alias && index >= 0 && index < e->nres ? e->alias[index] : -1;
}

int xlac_executable_arg_index(const xlac_executable *e, const char *name) {
  if (!exe_ok(e) || !name) return -1;
  if (*name == '%') name++;
  for (int i = 0; i < e->nargs; i++)
    if (e->args[i].name && strcmp(e->args[i].name, name) == 0) return i;
  return -1;
}

xlac_status *xlac_executable_stats_get(const xlac_executable *e, xlac_executable_stats *out_stats) {
  if (!exe_ok(e)) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_executable_stats_get: not an executable");
  if (!out_stats) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_executable_stats_get: out_stats is NULL");
  size_t n = out_stats->struct_size && out_stats->struct_size < sizeof e->stats ? out_stats->struct_size
                                                                                : sizeof e->stats;
  memcpy(out_stats, &e->stats, n);
  out_stats->struct_size = n;
  return NULL;
}

xlac_status *xlac_executable_print(const xlac_executable *e, xlac_format format, char **out_text, size_t *out_len) {
  if (out_text) *out_text = NULL;
  if (out_len) *out_len = 0;
  if (!exe_ok(e)) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_executable_print: not an executable");
  if (!out_text) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_executable_print: out_text is NULL");
  return api_print_module(e->m, format, out_text, out_len);
}

xlac_status *xlac_executable_profile(xlac_executable *e, int top, int reset, char **out_text, size_t *out_len) {
  if (out_text) *out_text = NULL;
  if (out_len) *out_len = 0;
  if (!exe_ok(e)) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_executable_profile: not an executable");
  if (!out_text) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_executable_profile: out_text is NULL");
  StrBuf b = {0};
  if (!e->cpu || !cpu_executable_profile(e->cpu, &b, top, reset != 0)) {
    sb_free(&b);
    return xlac_status_create(XLAC_FAILED_PRECONDITION,
                              "xlac_executable_profile: the executable was not compiled by the cpu backend with "
                              "xlac_compile_options.profile");
  }
  *out_text = sb_take(&b);
  if (out_len) *out_len = strlen(*out_text);
  return NULL;
}

/* ---- executing ---- */

static bool run_cpu(void *ctx, Interp *I, int nargs, IVal **args, IVal **results) {
  return cpu_execute(ctx, I, nargs, args, results);
}

/* One execution on the client's GPU as the process I says (its ids, and
   a set's communicator; one execution at a time: the executable's module
   is loaded by the first), over host copies of the buffers. */
static bool run_gpu(xlac_executable *e, Interp *I, int nargs, IVal **args, IVal **results) {
  char *err = NULL;
  pthread_mutex_lock(&e->client->gpu_mu);
  bool ok = gpu_execute_in(e->gpu, e->client->gpu, I, nargs, args, results, &err);
  pthread_mutex_unlock(&e->client->gpu_mu);
  if (!ok && !I->failed) error_at(SRCLOC_NONE, "%s", err ? err : "the GPU execution failed");
  xfree(err);
  return ok;
}

/* The replicas x partitions of a GPU client: processes of a grid on its
   one device. */
static bool run_gpu_grid(xlac_executable *e, Interp *I, int nargs, IVal ***args, IVal ***results) {
  pthread_mutex_lock(&e->client->gpu_mu);
  bool ok = gpu_execute_grid(e->gpu, e->client->gpu, I, e->num_replicas, e->num_partitions, nargs, args, results);
  pthread_mutex_unlock(&e->client->gpu_mu);
  return ok;
}

typedef struct ExecJob {
  xlac_executable *e;
  int ndev;
  xlac_buffer *const *const *args;
  bool *donate;            /* per argument leaf */
  const int *dev;          /* per device of the execution: the client device */
  xlac_buffer ***results;  /* [ndev][nres], filled on success */
  InterpOptions io;
  int checks_run, checks_failed;
  int retained;            /* client references taken by result buffers */
  struct xlacrt_comm *comm; /* a process of a set: the set's communicator (else NULL) */
  int replica, partition;   /* with comm: this process's ids, */
  int nrep, npart;          /* and the set's shape */
} ExecJob;

/* One execution on the client's GPU, over the buffers' device memory (one
   at a time: the executable's module is loaded by the first).  A result
   computed into a donated argument's memory, or returning it, takes that
   memory from the argument.  On an asynchronous device it returns once the
   work is queued: it waits on the device for the arguments' producers
   (and for the executions still reading a donated argument), and its
   completion event becomes the results' readiness and a use of every
   argument. */
static bool exec_gpu(ExecJob *j) {
  xlac_executable *e = j->e;
  xlac_client *c = e->client;
  int n = e->nargs, nr = e->nres;
  CUdeviceptr *args = xcalloc((size_t)n + 1, sizeof(CUdeviceptr));
  CUdeviceptr *res = xcalloc((size_t)nr + 1, sizeof(CUdeviceptr));
  int *took = xcalloc((size_t)nr + 1, sizeof(int));
  for (int i = 0; i < n; i++) args[i] = j->args[0][i]->dptr;
  char *err = NULL;
  pthread_mutex_lock(&c->gpu_mu);
  VEC(GpuEvent *) waits = {0};
  for (int i = 0; i < n; i++) {
    xlac_buffer *b = j->args[0][i];
    if (b->ready) VEC_PUSH(waits, b->ready);
    for (int k = 0; j->donate[i] && k < b->nuses; k++) VEC_PUSH(waits, b->uses[k]);
  }
  GpuExecWait w = {waits.data, waits.len, NULL};
  bool ok = gpu_execute_device(e->gpu, c->gpu, n, args, j->donate, &w, res, took, &err);
  VEC_FREE(waits);
  for (int i = 0; ok && i < n; i++) api_buffer_add_use(j->args[0][i], w.done);
  pthread_mutex_unlock(&c->gpu_mu);
  const GpuStats *gs = gpu_executable_stats(e->gpu);
  j->checks_run = gs->checks_passed;
  j->checks_failed = gs->checks_failed;
  if (!ok) error_at(SRCLOC_NONE, "%s", err ? err : "the GPU execution failed");
  xfree(err);
  for (int r = 0; ok && r < nr; r++) {
    if (took[r] >= 0) j->args[0][took[r]]->dptr = 0; /* the result's now */
    j->results[0][r] = e->res[r].type == XLAC_TOKEN ? api_buffer_new(c, j->dev[0], ival_token())
                                                    : api_buffer_new_gpu(c, j->dev[0], e->res[r].t, res[r]);
    j->retained++;
    if (e->res[r].type != XLAC_TOKEN) j->results[0][r]->ready = gpu_event_retain(w.done);
  }
  if (w.done) {
    pthread_mutex_lock(&c->gpu_mu);
    gpu_event_release(w.done);
    pthread_mutex_unlock(&c->gpu_mu);
  }
  xfree(took);
  xfree(res);
  xfree(args);
  return ok;
}

static bool exec_guarded(void *ctx) {
  ExecJob *j = ctx;
  xlac_executable *e = j->e;
  /* one device of the client's own: over the buffers' device memory;
     replicas x partitions, or a process of a set: over host copies */
  if (e->gpu && j->ndev == 1 && !j->comm) return exec_gpu(j);
  for (int d = 0; e->gpu && d < j->ndev; d++)
    for (int i = 0; i < e->nargs; i++)
      if (!api_buffer_value(j->args[d][i])) {
        error_at(SRCLOC_NONE, "argument %d of device %d could not be copied from the GPU", i, d);
        return false;
      }
  Func *f = e->entry;
  int nparams = f->body->nargs, nfres = f->nresults;
  IVal ***params = xcalloc((size_t)j->ndev, sizeof(IVal **));
  IVal ***out = xcalloc((size_t)j->ndev, sizeof(IVal **));
  IVal **leaves = xcalloc((size_t)(e->nargs + 1), sizeof(IVal *));
  for (int d = 0; d < j->ndev; d++) {
    /* the run sees values of its own over the buffers' storage: whatever
       it does with them (keep references, unwind when memory runs out)
       never touches the caller's objects */
    for (int i = 0; i < e->nargs; i++) {
      IVal *bv = j->args[d][i]->val;
      leaves[i] = bv->kind == IV_TENSOR ? ival_tensor(lit_new_borrowed(bv->lit->type, bv->lit->data)) : ival_token();
    }
    params[d] = xcalloc((size_t)(nparams + 1), sizeof(IVal *));
    int k = 0;
    for (int i = 0; i < nparams; i++) params[d][i] = ival_from_leaves(f->body->args[i]->type, leaves, &k);
    for (int i = 0; i < e->nargs; i++) ival_release(leaves[i]);
  }
  xfree(leaves);
  Interp I;
  interp_init(&I, e->m, &j->io);
  if (j->comm) { /* one process of a set: its ids, and the set's communicator */
    I.comm = j->comm;
    I.replica_id = j->replica;
    I.partition_id = j->partition;
    I.num_replicas = j->nrep;
    I.num_partitions = j->npart;
  }
  bool ok;
  if (j->ndev == 1) {
    out[0] = xcalloc((size_t)(nfres + 1), sizeof(IVal *));
    /* compiled code writes its results in place: into recycled storage
       when a buffer of that size was destroyed (a loop's steady state) */
    for (int i = 0; e->cpu && i < nfres; i++) {
      int a = i < e->nres ? e->alias[i] : -1;
      if (a >= 0 && j->donate[a] && cpu_executable_in_place(e->cpu, i) && j->args[0][a]->val->refs == 1) {
        /* computed straight into the donated parameter's storage */
        const Literal *dl = j->args[0][a]->val->lit;
        out[0][i] = ival_tensor(lit_new_borrowed(dl->type, dl->data));
      } else {
        out[0][i] = api_recycled_tensor(e->client, f->result_types[i]);
      }
    }
    if (e->gpu)
      ok = run_gpu(e, &I, nparams, params[0], out[0]);
    else
      ok = e->cpu ? cpu_execute(e->cpu, &I, nparams, params[0], out[0]) : interp_call(&I, f, nparams, params[0], out[0]);
  } else if (e->gpu) {
    ok = run_gpu_grid(e, &I, nparams, params, out);
  } else {
    GridProgram *progs = xcalloc((size_t)j->ndev, sizeof(GridProgram));
    for (int d = 0; d < j->ndev; d++)
      progs[d] = (GridProgram){f, nparams, params[d], e->cpu ? run_cpu : NULL, e->cpu};
    ok = interp_run_grid(&I, e->num_replicas, e->num_partitions, progs, out);
    xfree(progs);
  }
  ok = ok && !I.failed;
  j->checks_run = I.checks_run;
  j->checks_failed = I.checks_failed;
  for (int d = 0; d < j->ndev; d++) {
    for (int i = 0; i < nparams; i++) ival_release(params[d][i]);
    xfree(params[d]);
  }
  xfree(params);

  if (ok) {
    IVal **rl = xcalloc((size_t)(e->nres + 1), sizeof(IVal *));
    for (int d = 0; d < j->ndev; d++) {
      int k = 0;
      for (int i = 0; i < nfres; i++) ival_collect_leaves(out[d][i], rl, &k);
      assert(k == e->nres);
      /* The donor's storage takes its paired result when nobody else
         shares it; a result that is some argument's value (or borrows the
         caller's memory) is copied, so that buffers never share data.
         Every such copy is taken before any donor is overwritten: a
         result may be a donated argument returned as is, or the very
         value another donor receives (a swap). */
      IVal **v = xcalloc((size_t)(e->nres + 1), sizeof(IVal *));
      bool *takes = xcalloc((size_t)(e->nres + 1), sizeof(bool));
      for (int r = 0; r < e->nres; r++) {
        v[r] = ival_retain(rl[r]);
        int a = e->alias[r];
        xlac_buffer *donor = a >= 0 && j->donate[a] ? j->args[d][a] : NULL;
        /* (a gpu client's results go to device memory of their own) */
        takes[r] = !e->gpu && v[r]->kind == IV_TENSOR && donor && donor->val->refs == 1;
        /* a donor takes one result only (the same value returned twice) */
        for (int q = 0; takes[r] && q < r; q++) takes[r] = !(takes[q] && e->alias[q] == a);
        /* nothing to copy when the run wrote into the donor itself */
        bool written_in_place = takes[r] && v[r]->lit->data == donor->val->lit->data;
        if (v[r]->kind == IV_TENSOR && v[r]->lit->borrowed && !written_in_place) {
          IVal *copy = ival_tensor(lit_clone(v[r]->lit));
          ival_release(v[r]);
          v[r] = copy;
        }
      }
      for (int r = 0; r < e->nres; r++) {
        if (takes[r]) {
          xlac_buffer *donor = j->args[d][e->alias[r]];
          const Literal *l = v[r]->lit;
          if (l->n && l->data != donor->val->lit->data)
            memcpy(donor->val->lit->data, l->data, (size_t)l->n * (size_t)et_bytes(l->type->elem));
          ival_release(v[r]);
          v[r] = ival_retain(donor->val);
        }
        j->results[d][r] = api_buffer_new(e->client, j->dev[d], v[r]);
        j->retained++;
        xlac_status *us = e->gpu ? api_buffer_upload(j->results[d][r]) : NULL;
        if (us) {
          error_at(SRCLOC_NONE, "%s", xlac_status_message(us));
          xlac_status_destroy(us);
          ok = false;
        }
      }
      xfree(v);
      xfree(takes);
    }
    xfree(rl);
  }
  for (int d = 0; d < j->ndev; d++) {
    for (int i = 0; out[d] && i < nfres; i++) ival_release(out[d][i]);
    xfree(out[d]);
  }
  xfree(out);
  return ok;
}

/* The arguments' checks: present, alive, on their device, of the
   program's types and shapes. */
static xlac_status *check_args(const xlac_executable *e, int ndev, const int *dev, xlac_buffer *const *const *args,
                               xlac_buffer **const *results, const char *fn) {
  for (int d = 0; d < ndev; d++) {
    if (e->nargs && !args[d]) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: args[%d] is NULL", fn, d);
    if (e->nres && !results[d]) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: results[%d] is NULL", fn, d);
    for (int i = 0; i < e->nargs; i++) {
      const xlac_buffer *b = args[d][i];
      const ApiLeaf *l = &e->args[i];
      if (!b || b->magic != API_MAGIC_BUFFER)
        return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: argument %d of device %d is %s", fn, i, d,
                                  b ? "not a buffer" : "NULL");
      if (b->client != e->client)
        return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: argument %d of device %d belongs to another client", fn, i, d);
      if (atomic_load(&b->donated))
        return xlac_status_create(XLAC_FAILED_PRECONDITION, "%s: argument %d of device %d was donated to an earlier "
                                  "execution", fn, i, d);
      if (b->device != dev[d])
        return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: argument %d of device %d is on client device %d, not %d", fn, i,
                                  d, b->device, dev[d]);
      bool match = b->type == l->type;
      if (match && l->type != XLAC_TOKEN) {
        const Type *bt = b->val->lit->type;
        match = bt->rank == l->rank;
        for (int k = 0; match && k < l->rank; k++) match = bt->dims[k] == l->dims[k];
      }
      if (!match) {
        char *want = leaf_str(l);
        char *got = b->val->kind == IV_TENSOR ? type_str(b->val->lit->type) : xstrdup("!stablehlo.token");
        xlac_status *s = xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: argument %d%s%s%s of device %d is %s, the program takes %s",
                               fn, i, l->name ? " (%" : "", l->name ? l->name : "", l->name ? ")" : "", d, got, want);
        xfree(want);
        xfree(got);
        return s;
      }
    }
  }
  return NULL;
}

/* One device of an execution whose others run in other processes
   (xlac_executable_execute_in_set). */
typedef struct InSet {
  int device, client_device;
  struct xlacrt_comm *comm;
} InSet;

static xlac_status *execute_held(xlac_executable *e, int num_devices, xlac_buffer *const *const *args,
                                 const xlac_execute_options *opts, xlac_buffer **const *results, const InterpOptions *io,
                                 int *checks_run, int *checks_failed, const InSet *in);

xlac_status *api_execute(xlac_executable *e, int num_devices, xlac_buffer *const *const *args,
                         const xlac_execute_options *opts, xlac_buffer **const *results, const InterpOptions *io,
                         int *checks_run, int *checks_failed) {
  if (!exe_ok(e)) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_executable_execute: not an executable");
  atomic_fetch_add(&e->refs, 1);
  xlac_status *s = execute_held(e, num_devices, args, opts, results, io, checks_run, checks_failed, NULL);
  exe_release(e);
  return s;
}

xlac_status *xlac_executable_execute_in_set(xlac_executable *e, int device, int client_device,
                                            struct xlacrt_comm *comm, xlac_buffer *const *args, int num_args,
                                            const xlac_execute_options *opts, xlac_buffer **results) {
  static const char fn[] = "xlac_executable_execute_in_set";
  if (!exe_ok(e)) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: not an executable", fn);
  if (!comm || !comm->ops) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: comm is NULL", fn);
  if (e->client->set)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: the client is a process of a set already", fn);
  if (device < 0 || device >= e->num_replicas * e->num_partitions)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: device %d, the executable runs on %d (%d replicas x %d "
                              "partitions)", fn, device, e->num_replicas * e->num_partitions, e->num_replicas,
                              e->num_partitions);
  if (num_args != e->nargs)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: %d arguments given, the program takes %d", fn, num_args,
                              e->nargs);
  InSet in = {device, client_device, comm};
  xlac_buffer *const *argv[1] = {args};
  xlac_buffer **resv[1] = {results};
  atomic_fetch_add(&e->refs, 1);
  xlac_status *s = execute_held(e, 1, argv, opts, resv, NULL, NULL, NULL, &in);
  exe_release(e);
  return s;
}

static xlac_status *execute_held(xlac_executable *e, int num_devices, xlac_buffer *const *const *args,
                                 const xlac_execute_options *opts, xlac_buffer **const *results, const InterpOptions *io,
                                 int *checks_run, int *checks_failed, const InSet *in) {
  static const char fn[] = "xlac_executable_execute";
  if (!exe_ok(e)) return xlac_status_create(XLAC_FAILED_PRECONDITION, "%s: the executable was destroyed", fn);
  xlac_status *s = api_check_client_alive(e->client, fn);
  if (s) return s;
  /* a process of a set runs its one device */
  int ndev = e->client->set || in ? 1 : e->num_replicas * e->num_partitions;
  if (num_devices != ndev && e->client->set)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: %d devices given, a client of one process of a set runs on 1",
                              fn, num_devices);
  if (num_devices != ndev)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: %d devices given, the executable runs on %d (%d replicas x %d "
                              "partitions)", fn, num_devices, ndev, e->num_replicas, e->num_partitions);
  if (!args && e->nargs) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: args is NULL", fn);
  if (!results && e->nres) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: results is NULL", fn);
  xlac_execute_options o = {0};
  if (opts) {
    size_t n = opts->struct_size && opts->struct_size < sizeof o ? opts->struct_size : sizeof o;
    memcpy(&o, opts, n);
  }
  if (o.num_donate_args < 0 || (o.num_donate_args && !o.donate_args))
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: donate_args is NULL or num_donate_args negative", fn);
  /* the client device each device of the execution runs on */
  int *dev = calloc((size_t)ndev + 1, sizeof(int));
  if (!dev) return xlac_status_create(XLAC_OUT_OF_MEMORY, "%s: out of memory", fn);
  for (int d = 0; d < ndev; d++) {
    dev[d] = in ? in->client_device : o.devices && !e->client->set ? o.devices[d] : d;
    bool dup = false;
    for (int d2 = 0; d2 < d; d2++) dup |= dev[d2] == dev[d];
    if (dev[d] < 0 || dev[d] >= e->client->ndev || dup) {
      s = xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: devices[%d] = %d is %s (the client has %d)", fn, d, dev[d],
                             dup ? "named twice" : "not a device", e->client->ndev);
      xfree(dev);
      return s;
    }
  }
  s = check_args(e, ndev, dev, args, results, fn);
  if (s) {
    xfree(dev);
    return s;
  }
  bool *donate = calloc((size_t)e->nargs + 1, sizeof(bool));
  if (!donate) {
    xfree(dev);
    return xlac_status_create(XLAC_OUT_OF_MEMORY, "%s: out of memory", fn);
  }
  for (int k = 0; k < o.num_donate_args; k++) {
    int a = o.donate_args[k];
    if (a < 0 || a >= e->nargs) {
      xfree(donate);
      xfree(dev);
      return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: donate_args[%d] = %d, the program has %d arguments", fn, k,
                                a, e->nargs);
    }
    donate[a] = true;
  }
  /* a donated buffer passed twice would be consumed while still read */
  for (int d = 0; d < ndev; d++)
    for (int a = 0; a < e->nargs; a++) {
      if (!donate[a]) continue;
      for (int d2 = 0; d2 < ndev; d2++)
        for (int i = 0; i < e->nargs; i++)
          if ((d2 != d || i != a) && args[d2][i] == args[d][a]) {
            xfree(donate);
            xfree(dev);
            return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: argument %d of device %d is donated but also passed "
                                      "as argument %d of device %d", fn, a, d, i, d2);
          }
    }

  ExecJob j = {0};
  j.e = e;
  j.ndev = ndev;
  j.args = args;
  j.donate = donate;
  j.dev = dev;
  j.results = calloc((size_t)ndev, sizeof(xlac_buffer **));
  bool alloc_ok = j.results != NULL;
  for (int d = 0; alloc_ok && d < ndev; d++) alloc_ok = (j.results[d] = calloc((size_t)e->nres + 1, sizeof(xlac_buffer *)));
  if (!alloc_ok) {
    for (int d = 0; j.results && d < ndev; d++) xfree(j.results[d]);
    xfree(j.results);
    xfree(donate);
    xfree(dev);
    return xlac_status_create(XLAC_OUT_OF_MEMORY, "%s: out of memory", fn);
  }
  if (io) j.io = *io;
  else j.io.quiet_checks = true;
  if (o.cancel) j.io.cancel = &o.cancel->ic;
  xlac_process_set *set = e->client->set;
  if (in) { /* the caller's communicator, told what this execution is */
    j.comm = in->comm;
    j.comm->num_replicas = j.nrep = e->num_replicas;
    j.comm->num_partitions = j.npart = e->num_partitions;
    j.comm->replica_id = j.replica = in->device / e->num_partitions;
    j.comm->partition_id = j.partition = in->device % e->num_partitions;
  } else if (set) { /* the set's communicator for this execution (its end is below) */
    xlac_status *err = NULL;
    j.comm = set->begin(set->user, &err);
    j.replica = set->replica;
    j.partition = set->partition;
    j.nrep = set->num_replicas;
    j.npart = set->num_partitions;
    if (!j.comm) {
      xfree(j.results[0]);
      xfree(j.results);
      xfree(donate);
      xfree(dev);
      return err ? err : xlac_status_create(XLAC_UNAVAILABLE, "%s: the process set cannot run an execution", fn);
    }
  }

  ApiCapture cap;
  api_capture_begin(&cap);
  bool unwound;
  bool ok = api_guarded(exec_guarded, &j, true, &unwound);
  xlac_code code = o.cancel && atomic_load(&o.cancel->ic.stop) ? XLAC_CANCELLED : XLAC_INTERNAL;
  s = api_capture_end(&cap, ok, code, "the execution failed");
  if (set) set->end(set->user, j.comm, s == NULL);
  if (unwound) {
    /* the buffers made before the unwind are gone with the rest of the
       call's memory; only their references to the client are left */
    for (int k = 0; k < j.retained; k++) api_client_release(e->client);
    for (int d = 0; d < ndev; d++) memset(j.results[d], 0, sizeof(xlac_buffer *) * (size_t)e->nres);
  }
  for (int d = 0; d < ndev; d++) {
    for (int r = 0; r < e->nres; r++) {
      if (s) xlac_buffer_destroy(j.results[d][r]);
      else results[d][r] = j.results[d][r];
    }
    xfree(j.results[d]);
  }
  xfree(j.results);
  if (!s)
    for (int d = 0; d < ndev; d++)
      for (int a = 0; a < e->nargs; a++)
        if (donate[a]) {
          /* the storage now belongs to the result (or to nobody) */
          xlac_buffer *b = args[d][a];
          atomic_store(&b->donated, 1);
          if (b->on_gpu) { /* device memory no result took, once its readers are done */
            pthread_mutex_lock(&e->client->gpu_mu);
            api_buffer_drop_device(b);
            pthread_mutex_unlock(&e->client->gpu_mu);
          }
          IVal *v = b->val;
          b->val = NULL;
          ival_release(v);
        }
  xfree(donate);
  xfree(dev);
  if (checks_run) *checks_run = j.checks_run;
  if (checks_failed) *checks_failed = j.checks_failed;
  return s;
}

xlac_status *xlac_executable_execute(xlac_executable *e, int num_devices, xlac_buffer *const *const *args,
                                     const xlac_execute_options *opts, xlac_buffer **const *results) {
  return api_execute(e, num_devices, args, opts, results, NULL, NULL, NULL);
}

xlac_status *xlac_executable_run(xlac_executable *e, xlac_buffer *const *args, int num_args, xlac_buffer **results) {
  if (!exe_ok(e)) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_executable_run: not an executable");
  if (num_args != e->nargs)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_executable_run: %d arguments given, the program takes %d",
                              num_args, e->nargs);
  xlac_buffer *const *argv[1] = {args};
  xlac_buffer **resv[1] = {results};
  return api_execute(e, 1, argv, NULL, resv, NULL, NULL, NULL);
}
