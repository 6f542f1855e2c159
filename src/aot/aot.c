/*
 * aot.c - ahead-of-time compilation of one function: names, the
 * interpreter's results for the generated test, the object, the header;
 * and the check of the target the command line asks for.
 */
#include "aot/aot.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "codegen/jit.h"

const char *aot_c_type(ElemType et) {
  switch (et) {
  case ET_PRED: return "uint8_t";
  case ET_S2: case ET_S4: case ET_S8: return "int8_t";
  case ET_S16: return "int16_t";
  case ET_S32: return "int32_t";
  case ET_S64: return "int64_t";
  case ET_U16: return "uint16_t";
  case ET_U32: return "uint32_t";
  case ET_U64: return "uint64_t";
  case ET_F16: case ET_BF16: return "uint16_t";
  case ET_F32: case ET_C64: return "float";
  case ET_F64: case ET_C128: return "double";
  default: return "uint8_t"; /* u2/u4/u8 and the one-byte floats */
  }
}

/* A C identifier from a name (c_identifier_of); NULL for "" or a name of
   nothing but underscores, which says nothing. */
static char *identifier(const char *s) {
  if (!s || !*s) return NULL;
  char *r = c_identifier_of(s, strlen(s));
  for (const char *o = r; *o; o++)
    if (*o != '_') return r;
  xfree(r);
  return NULL;
}

static const char *dict_str(const Attr *dict, const char *key) {
  const Attr *a = attr_dict_get(dict, key);
  return a && a->kind == ATTR_STRING ? a->s : NULL;
}

/* Leaf names of one parameter or result of type t called base: the base
   itself, or base_0, base_1, ... for a tuple's leaves. */
static void leaf_names(const Type *t, const char *base, char ***out, int *n) {
  if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->ntuple; i++) {
      char *b = xasprintf("%s_%d", base, i);
      leaf_names(t->tuple[i], b, out, n);
      xfree(b);
    }
    return;
  }
  *out = xrealloc(*out, sizeof(char *) * (size_t)(*n + 1));
  (*out)[(*n)++] = xstrdup(base);
}

/* Makes names unique: a repeated one gets its position appended. */
static void uniquify(char **names, int n, const char *dflt) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      if (strcmp(names[i], names[j]) == 0) {
        char *r = xasprintf("%s_%s%d", names[i], dflt, i);
        xfree(names[i]);
        names[i] = r;
        j = -1; /* check the new name against all again */
      }
}

/* A value's source name when it reads as one (HLO instruction names,
   MLIR's %x_y; not MLIR's numbered %0). */
static char *value_name(const Value *v) {
  return v && v->name && isalpha((unsigned char)v->name[0]) ? identifier(v->name) : NULL;
}

static void name_side(Func *f, bool results, const char *const *given, int ngiven, char ***out, int *n) {
  int count = results ? f->nresults : f->body->nargs;
  const char *dflt = results ? "result" : "arg";
  Op *ret = results ? block_terminator(f->body) : NULL;
  /* HLO's ROOT tuple(a, b): the results are named after a and b */
  Op *tuple = ret && ret->nopnds == 1 && ret->opnds[0]->def && ret->opnds[0]->def->kind == OP_TUPLE &&
                      count == 1 && f->result_types[0]->kind == TY_TUPLE
                  ? ret->opnds[0]->def
                  : NULL;
  if (tuple) {
    bool all = true;
    for (int k = 0; k < tuple->nopnds; k++) all = all && tuple->opnds[k]->type->kind == TY_TENSOR;
    if (all && !(ngiven > 0)) {
      for (int k = 0; k < tuple->nopnds; k++) {
        char *base = value_name(tuple->opnds[k]);
        if (!base) base = xasprintf("%s%d", dflt, k);
        leaf_names(tuple->opnds[k]->type, base, out, n);
        xfree(base);
      }
      uniquify(*out, *n, dflt);
      return;
    }
  }
  for (int i = 0; i < count; i++) {
    const Type *t = results ? f->result_types[i] : f->body->args[i]->type;
    char *base = NULL;
    if (i < ngiven && given[i]) base = identifier(given[i]);
    if (!base && results && f->res_attrs) base = identifier(dict_str(f->res_attrs[i], "jax.result_info"));
    if (!base && !results && f->arg_attrs) base = identifier(dict_str(f->arg_attrs[i], "jax.arg_info"));
    if (!base && !results) base = value_name(f->body->args[i]);
    if (!base && results && ret && i < ret->nopnds) base = value_name(ret->opnds[i]);
    if (!base) base = xasprintf("%s%d", dflt, i);
    leaf_names(t, base, out, n);
    xfree(base);
  }
  uniquify(*out, *n, dflt);
}

/* ---- the interpreter's results for the generated test ---- */

static uint64_t next_random(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static Literal *input_literal(const Type *t, uint64_t *state) {
  Literal *l = lit_new(t);
  if (!state) return l; /* zeros */
  for (int64_t i = 0; i < l->n; i++) {
    uint64_t r = next_random(state);
    ElemType et = t->elem;
    double u = (double)(r >> 11) / 9007199254740992.0 * 2.0 - 1.0; /* [-1, 1) */
    if (et_is_pred(et)) lit_set_b(l, i, r & 1);
    else if (et_is_complex(et)) lit_set_c(l, i, u, (double)(next_random(state) >> 11) / 9007199254740992.0 - 0.5);
    else if (et_is_float(et)) lit_set_f(l, i, u);
    else if (et_is_unsigned(et)) lit_set_u(l, i, r % 8);
    else lit_set_i(l, i, (int64_t)(r % 9) - 4);
  }
  return l;
}

static Literal *dup_literal(const Literal *l) {
  Literal *c = lit_new(l->type);
  if (l->n) memcpy(c->data, l->data, (size_t)l->n * (size_t)et_bytes(l->type->elem));
  return c;
}

static bool all_tensors(Func *f) {
  for (int i = 0; i < f->body->nargs; i++)
    if (f->body->args[i]->type->kind != TY_TENSOR) return false;
  for (int i = 0; i < f->nresults; i++)
    if (f->result_types[i]->kind != TY_TENSOR) return false;
  return true;
}

static bool interp_case(Module *m, Func *f, uint64_t *state, AotCase *c) {
  int n = f->body->nargs;
  c->inputs = xcalloc((size_t)n + 1, sizeof(Literal *));
  c->outputs = xcalloc((size_t)f->nresults + 1, sizeof(Literal *));
  IVal **args = xcalloc((size_t)n + 1, sizeof(IVal *));
  IVal **res = xcalloc((size_t)f->nresults + 1, sizeof(IVal *));
  for (int i = 0; i < n; i++) {
    c->inputs[i] = input_literal(f->body->args[i]->type, state);
    args[i] = ival_tensor(dup_literal(c->inputs[i]));
  }
  Interp I;
  InterpOptions io = {0};
  io.quiet_checks = true;
  interp_init(&I, m, &io);
  bool ok = interp_call(&I, f, n, args, res);
  for (int i = 0; ok && i < f->nresults; i++) {
    if (!res[i] || res[i]->kind != IV_TENSOR) ok = false;
    else c->outputs[i] = dup_literal(res[i]->lit);
  }
  for (int i = 0; i < n; i++) ival_release(args[i]);
  for (int i = 0; i < f->nresults; i++) ival_release(res[i]);
  xfree(args);
  xfree(res);
  return ok;
}

static void free_case(AotCase *c, int nin, int nout) {
  for (int i = 0; c->inputs && i < nin; i++) lit_free(c->inputs[i]);
  for (int i = 0; c->outputs && i < nout; i++) lit_free(c->outputs[i]);
  xfree(c->inputs);
  xfree(c->outputs);
}

bool aot_compile(const AotRequest *req, AotResult *r) {
  memset(r, 0, sizeof *r);
  Func *f = req->entry;
  name_side(f, false, req->arg_names, req->narg_names, &r->arg_names, &r->nargs);
  name_side(f, true, req->result_names, req->nresult_names, &r->result_names, &r->nresults);
  /* the test's expectations come from the program as written, before the
     compiler optimizes it in place */
  AotCase cases[2];
  int ncases = 0;
  memset(cases, 0, sizeof cases);
  if (req->gen_test) {
    if (!all_tensors(f)) {
      warning_at(f->loc, "no test generated: the function has tuple parameters or results");
    } else {
      uint64_t seed = 0x9e3779b97f4a7c15ull;
      cases[0].what = "zero inputs";
      cases[1].what = "random inputs";
      bool ok = interp_case(req->m, f, NULL, &cases[0]) && interp_case(req->m, f, &seed, &cases[1]);
      ncases = 2;
      if (!ok) {
        error_at(f->loc, "the reference interpreter failed on the test's inputs (see above); no test generated");
        for (int i = 0; i < ncases; i++) free_case(&cases[i], f->body->nargs, f->nresults);
        aot_result_free(r);
        return false;
      }
    }
  }
  r->obj.triple = req->triple;
  r->obj.cpu = req->cpu;
  r->obj.features = req->features;
  r->obj.prefix = req->name;
  r->obj.entry_symbol = req->entry_symbol;
  r->obj.name = req->name;
  const char *slash = req->source ? strrchr(req->source, '/') : NULL;
  r->obj.source = slash ? slash + 1 : req->source;
  r->obj.arg_names = (const char *const *)r->arg_names;
  r->obj.narg_names = r->nargs;
  r->obj.result_names = (const char *const *)r->result_names;
  r->obj.nresult_names = r->nresults;
  r->obj.separate_metadata = req->separate_metadata;
  CpuOptions o = {0};
  o.aot = &r->obj;
  int nin = f->body->nargs, nout = f->nresults;
  CpuExecutable *exe = cpu_compile(req->m, f, &o);
  bool ok = exe != NULL;
  if (ok) {
    r->stats = *cpu_executable_stats(exe);
    Func *flat = cpu_executable_flat(exe);
    r->header = aot_header(req, r, flat);
    if (ncases) r->test_source = aot_test_source(req, r, cases, ncases);
    if (req->gen_bench) r->bench_source = aot_bench_source(req, r);
  }
  cpu_executable_free(exe);
  for (int i = 0; i < ncases; i++) free_case(&cases[i], nin, nout);
  if (!ok) aot_result_free(r);
  return ok;
}

void aot_result_free(AotResult *r) {
  cpu_aot_free(&r->obj);
  for (int i = 0; i < r->nargs; i++) xfree(r->arg_names[i]);
  for (int i = 0; i < r->nresults; i++) xfree(r->result_names[i]);
  xfree(r->arg_names);
  xfree(r->result_names);
  xfree(r->header);
  xfree(r->test_source);
  xfree(r->bench_source);
  memset(r, 0, sizeof *r);
}

/* ---- the target: LLVM's warnings made errors ---- */

/* A file in memory (or, failing that, an unlinked temporary file) for
   what LLVM writes to stderr; -1 when neither can be made. */
static int message_file(void) {
  int fd = memfd_create("xlac-llvm-messages", MFD_CLOEXEC);
  if (fd >= 0) return fd;
  FILE *f = tmpfile();
  if (!f) return -1;
  fd = dup(fileno(f));
  fclose(f);
  return fd;
}

static char *read_all(int fd) {
  StrBuf b = {0};
  char buf[4096];
  ssize_t k;
  sb_puts(&b, "");
  if (lseek(fd, 0, SEEK_SET) == 0)
    while ((k = read(fd, buf, sizeof buf)) > 0) sb_putn(&b, buf, (size_t)k);
  return sb_take(&b);
}

/* The line of text that contains what, without its newline (heap), or NULL. */
static char *line_with(const char *text, const char *what) {
  const char *p = strstr(text, what);
  if (!p) return NULL;
  const char *start = p, *end = strchr(p, '\n');
  while (start > text && start[-1] != '\n') start--;
  return xstrndup(start, end ? (size_t)(end - start) : strlen(start));
}

/* LLVM tells an unknown CPU or feature only by a warning on stderr, which
   MCSubtargetInfo prints as the target machine is made ("'x' is not a
   recognized processor for this target (ignoring processor)"; the C API
   has no other way to ask).  So the machine is made here once with fd 2
   going to a file, and those warnings become errors; anything else LLVM
   printed (the list `help` asks for) goes on to stderr.  fd 2 is the
   process's: call this before starting threads that write there. */
bool aot_check_target(const char *triple, const char *cpu, const char *features, char **err) {
  *err = NULL;
  if (!triple && !cpu && !features) return true; /* the host's, as the JIT's */
  for (const char *p = features ? features : ""; *p;) {
    size_t n = strcspn(p, ",");
    if (n && *p != '+' && *p != '-') {
      *err = xasprintf("--target_features: '%.*s' must begin with + (enable) or - (disable)", (int)n, p);
      return false;
    }
    p += n + (p[n] == ',');
  }
  fflush(stderr);
  int cap = message_file(), saved = cap >= 0 ? dup(2) : -1;
  if (saved >= 0) dup2(cap, 2);
  char *merr = NULL;
  LLVMTargetMachineRef tm = jit_target_machine(triple, cpu, features, 3, &merr);
  if (saved >= 0) {
    dup2(saved, 2);
    close(saved);
  }
  char *text = saved >= 0 ? read_all(cap) : xstrdup("");
  if (cap >= 0) close(cap);
  char *host = tm ? LLVMGetTargetMachineTriple(tm) : NULL;
  char *cpu_line = line_with(text, "is not a recognized processor");
  char *feature_line = line_with(text, "is not a recognized feature");
  bool listed = strstr(text, "Available CPUs for this target") != NULL;
  if (!cpu_line && !feature_line) fputs(text, stderr); /* what else LLVM said */
  if (!tm) {
    *err = merr ? merr : xstrdup("cannot create a target machine");
  } else if (cpu_line) {
    *err = xasprintf("--target_cpu '%s' is not a CPU LLVM knows for %s (--target_cpu=help lists them)", cpu, host);
  } else if (feature_line) {
    /* "'+x' is not a recognized feature ...": the quoted name */
    const char *q = strchr(feature_line, '\''), *e = q ? strchr(q + 1, '\'') : NULL;
    int n = e ? (int)(e - q - 1) : 0;
    *err = xasprintf("--target_features: '%.*s' is not a feature LLVM knows for %s", n, q ? q + 1 : "", host);
  } else if (listed) {
    *err = xasprintf("the CPUs and features LLVM knows for %s are listed above", host);
  }
  if (tm) {
    xfree(merr);
    LLVMDisposeTargetMachine(tm);
  }
  if (host) LLVMDisposeMessage(host);
  xfree(cpu_line);
  xfree(feature_line);
  xfree(text);
  return *err == NULL;
}
