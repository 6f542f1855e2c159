/*
 * header.c - the header `xlac aot` writes next to the object.
 *
 * Three layers, each usable alone:
 *   - declarations: the descriptor NAME_program, the custom-call targets
 *     the linking program must define (xlac_cc_TARGET), and sizes as
 *     constants;
 *   - a C API of static inline functions over runtime/xlacrt.h's
 *     instances (NAME_create, NAME_run, NAME_arg0_data, ...); NAME_run
 *     copies the new value of each variable a TensorFlow program writes
 *     into the variable's own buffer;
 *   - with --cpp_class, tfcompile's generated class: derived from
 *     tensorflow::XlaCompiledCpuFunction (runtime/xlacrt_tfcompile.h),
 *     with argN / arg_NAME for the feeds, resultN / result_NAME for the
 *     fetches and var_NAME for the variables, named and shaped as
 *     tfcompile's codegen names them.
 * The leading comment says exactly what to link.
 */
#include <ctype.h>
#include <string.h>

#include "aot/aot.h"

static char *upper(const char *s) {
  char *r = xstrdup(s);
  for (char *p = r; *p; p++) *p = (char)toupper((unsigned char)*p);
  return r;
}

/* Appends tmpl with every '@' replaced by name. */
static void subst(StrBuf *b, const char *tmpl, const char *name) {
  for (const char *p = tmpl; *p; p++) {
    if (*p == '@') sb_puts(b, name);
    else sb_putc(b, *p);
  }
}

/* What tfcompile's class is made of.  A program from a GraphDef and a
   tf2xla Config (its arguments and results carry tf2xla.* attributes) has
   feeds then variables as arguments, fetches then the new values of the
   variables that are not readonly as results; the accessors are named by
   the Config's own names ("" when it gives none).  Any other program's
   arguments are all feeds and its results all fetches, named as the C
   API names them. */
typedef struct Roles {
  int nfeeds, nfetches, nvars;
  const char **arg_own;  /* per argument: the name of its accessors, "" none */
  const char **res_own;  /* per result */
  bool *readonly;        /* per variable */
  int *var_result;       /* per variable: the result holding its new value, -1 */
} Roles;

static const char *attr_str(Attr **attrs, int i, const char *key) {
  const Attr *a = attrs && attrs[i] ? attr_dict_get(attrs[i], key) : NULL;
  return a && a->kind == ATTR_STRING ? a->s : NULL;
}

static void roles_of(Roles *ro, const AotRequest *req, const AotResult *r, const Func *flat) {
  const Func *f = req->entry;
  int na = flat->body->nargs, nr = flat->nresults;
  memset(ro, 0, sizeof *ro);
  ro->arg_own = xcalloc((size_t)na + 1, sizeof(char *));
  ro->res_own = xcalloc((size_t)nr + 1, sizeof(char *));
  ro->readonly = xcalloc((size_t)na + 1, sizeof(bool));
  ro->var_result = xcalloc((size_t)na + 1, sizeof(int));
  bool tf = false;
  if (f && f->body->nargs == na && f->nresults == nr) {
    for (int i = 0; i < na; i++)
      tf = tf || attr_str(f->arg_attrs, i, "tf2xla.feed") || attr_str(f->arg_attrs, i, "tf2xla.variable");
    for (int i = 0; i < nr; i++) tf = tf || attr_str(f->res_attrs, i, "tf2xla.fetch");
  }
  ro->nfeeds = na;
  ro->nfetches = nr;
  for (int i = 0; i < na; i++) ro->arg_own[i] = r->arg_names[i];
  for (int i = 0; i < nr; i++) ro->res_own[i] = r->result_names[i];
  if (!tf) return;
  ro->nfeeds = ro->nfetches = 0;
  for (int i = 0; i < na; i++) {
    const char *feed = attr_str(f->arg_attrs, i, "tf2xla.feed");
    if (feed) {
      ro->nfeeds++;
      if (!*feed) ro->arg_own[i] = "";
      continue;
    }
    const Attr *a = f->arg_attrs[i] ? attr_dict_get(f->arg_attrs[i], "tf2xla.readonly") : NULL;
    ro->readonly[ro->nvars++] = a && a->kind == ATTR_BOOL && a->b;
  }
  for (int i = 0; i < nr; i++) {
    const char *fetch = attr_str(f->res_attrs, i, "tf2xla.fetch");
    if (!fetch) break;
    ro->nfetches++;
    if (!*fetch) ro->res_own[i] = "";
  }
  for (int v = 0, k = ro->nfetches; v < ro->nvars; v++) ro->var_result[v] = ro->readonly[v] ? -1 : k++;
}

static void roles_free(Roles *ro) {
  xfree(ro->arg_own);
  xfree(ro->res_own);
  xfree(ro->readonly);
  xfree(ro->var_result);
}

static int64_t elements(const Type *t) { return type_num_elements(t) * (et_is_complex(t->elem) ? 2 : 1); }

/* "arg0(size_t dim0, size_t dim1)" parameters and the row-major index. */
static void index_params(StrBuf *b, const Type *t) {
  for (int k = 0; k < t->rank; k++) sb_printf(b, "%ssize_t dim%d", k ? ", " : "", k);
}

static void index_expr(StrBuf *b, const Type *t) {
  if (t->rank == 0) {
    sb_puts(b, "0");
    return;
  }
  /* ((dim0 * d1 + dim1) * d2 + dim2) ... */
  for (int k = 1; k < t->rank; k++) sb_puts(b, "(");
  sb_puts(b, "dim0");
  for (int k = 1; k < t->rank; k++) sb_printf(b, " * %lld + dim%d)", (long long)t->dims[k], k);
  if (et_is_complex(t->elem)) sb_puts(b, " * 2");
}

static void comment_shape(StrBuf *b, const char *side, int i, const char *name, const Type *t) {
  char *ts = type_str(t);
  sb_printf(b, " *   %s %d  %-16s ", side, i, name);
  aot_comment_text(b, ts);
  sb_printf(b, " (%lld bytes)\n", (long long)aot_bytes(t));
  xfree(ts);
}

/* The file-scope functions of the C API, '@' standing for NAME (the
   command makes sure the C library defines none of them: a header with
   `pthread_create` would not compile next to <pthread.h>).  Keep in step
   with c_api. */
const char *const aot_c_api_functions[] = {
    "@_program", "@_create", "@_destroy", "@_set_thread_pool", "@_run", "@_error", "@_arg_data", "@_set_arg_data",
    "@_result_data", "@_arg_size", "@_result_size", "@_arg_type", "@_result_type", "@_arg_type_name",
    "@_result_type_name", "@_arg_rank", "@_result_rank", "@_arg_dims", "@_result_dims", "@_arg_name",
    "@_result_name", "@_arg_index", "@_result_index", "@_program_shape", NULL,
};

static void c_api(StrBuf *b, const char *N, const char *U, const AotResult *r, Func *f, const Roles *ro) {
  sb_printf(b, "extern const xlacrt_aot_program %s_program;\n\n", N);
  sb_printf(b, "enum { %s_NUM_ARGS = %d, %s_NUM_RESULTS = %d };\n", U, f->body->nargs, U, f->nresults);
  sb_printf(b, "#define %s_TEMP_BYTES %lldLL\n", U, (long long)r->obj.temp_bytes);
  for (int i = 0; i < f->body->nargs; i++) {
    const Type *t = f->body->args[i]->type;
    sb_printf(b, "#define %s_ARG%d_BYTES %lldLL /* %s */\n", U, i, (long long)aot_bytes(t), r->arg_names[i]);
    sb_printf(b, "#define %s_ARG%d_ELEMENTS %lldLL\n", U, i, (long long)elements(t));
  }
  for (int i = 0; i < f->nresults; i++) {
    const Type *t = f->result_types[i];
    sb_printf(b, "#define %s_RESULT%d_BYTES %lldLL /* %s */\n", U, i, (long long)aot_bytes(t),
              r->result_names[i]);
    sb_printf(b, "#define %s_RESULT%d_ELEMENTS %lldLL\n", U, i, (long long)elements(t));
  }
  subst(b,
            "\n/* An instance: its buffers (64-byte aligned) and the state of one run at a time. */\n"
            "typedef xlacrt_aot_instance @_t;\n\n"
            "/* NULL when memory runs out or @_check() says the program cannot run here.\n"
            "   XLACRT_AOT_ARGS_RESULTS_AND_TEMPS allocates every buffer;\n"
            "   XLACRT_AOT_RESULTS_AND_TEMPS_ONLY leaves the arguments to the caller\n"
            "   (@_set_arg*_data). */\n"
            "static inline @_t *@_create(xlacrt_aot_alloc_mode mode) { return xlacrt_aot_create(&@_program, mode); }\n"
            "/* NULL when the program runs with this libxlacrt on this CPU, else why not\n"
            "   (another runtime version; a CPU feature its code needs and this CPU lacks). */\n"
            "static inline const char *@_check(void) { return xlacrt_aot_check(&@_program); }\n"
            "static inline void @_destroy(@_t *m) { xlacrt_aot_destroy(m); }\n"
            "/* Parallel loops run on pool (xlacrt_pool_create(n), or\n"
            "   xlacrt_pool_create_external over your threads); without one, on the caller's thread. */\n"
            "static inline void @_set_thread_pool(@_t *m, xlacrt_pool *pool) { xlacrt_aot_set_pool(m, pool); }\n"
            "static inline const char *@_error(const @_t *m) { return xlacrt_aot_error(m); }\n"
            "static inline void *@_arg_data(@_t *m, int i) { return xlacrt_aot_arg_data(m, i); }\n"
            "static inline void @_set_arg_data(@_t *m, int i, const void *data) { xlacrt_aot_set_arg_data(m, i, data); }\n"
            "static inline void *@_result_data(@_t *m, int i) { return xlacrt_aot_result_data(m, i); }\n"
            "/* Sizes in bytes, element types (xlac_type numbering; names such as \"f32\"),\n"
            "   ranks, dimensions and names of argument / result i. */\n"
            "static inline int64_t @_arg_size(int i) { return @_program.args[i].bytes; }\n"
            "static inline int64_t @_result_size(int i) { return @_program.results[i].bytes; }\n"
            "static inline int @_arg_type(int i) { return @_program.args[i].type; }\n"
            "static inline int @_result_type(int i) { return @_program.results[i].type; }\n"
            "static inline const char *@_arg_type_name(int i) { return @_program.args[i].type_name; }\n"
            "static inline const char *@_result_type_name(int i) { return @_program.results[i].type_name; }\n"
            "static inline int @_arg_rank(int i) { return @_program.args[i].rank; }\n"
            "static inline int @_result_rank(int i) { return @_program.results[i].rank; }\n"
            "static inline const int64_t *@_arg_dims(int i) { return @_program.args[i].dims; }\n"
            "static inline const int64_t *@_result_dims(int i) { return @_program.results[i].dims; }\n"
            "static inline const char *@_arg_name(int i) { return @_program.args[i].name; }\n"
            "static inline const char *@_result_name(int i) { return @_program.results[i].name; }\n"
            "/* The index of the argument / result called name, or -1. */\n"
            "static inline int @_arg_index(const char *name) { return xlacrt_aot_arg_index(&@_program, name); }\n"
            "static inline int @_result_index(const char *name) { return xlacrt_aot_result_index(&@_program, name); }\n"
            "static inline const char *@_program_shape(void) { return @_program.program_shape; }\n\n",
        N);
  /* run: a variable the program writes gets its new value in its own
     buffer, as tfcompile updates variables in place */
  sb_printf(b, "/* 0 on success; -1 with %s_error(m) saying why. */\n", N);
  sb_printf(b, "static inline int %s_run(%s_t *m) {\n  int rc = xlacrt_aot_run(m);\n", N, N);
  for (int v = 0; v < ro->nvars; v++) {
    int a = ro->nfeeds + v, res = ro->var_result[v];
    if (res < 0) continue;
    sb_printf(b, "  /* variable %s: its new value (result %d) into its own buffer */\n", r->arg_names[a], res);
    sb_printf(b, "  if (rc == 0) memmove(xlacrt_aot_arg_data(m, %d), xlacrt_aot_result_data(m, %d), %lld);\n", a, res,
              (long long)aot_bytes(f->body->args[a]->type));
  }
  sb_puts(b, "  return rc;\n}\n\n");
  for (int i = 0; i < f->body->nargs; i++) {
    const char *ct = aot_c_type(f->body->args[i]->type->elem);
    const char *an = r->arg_names[i];
    sb_printf(b, "/* argument %d: %s */\n", i, an);
    sb_printf(b, "static inline %s *%s_arg%d_data(%s_t *m) { return (%s *)xlacrt_aot_arg_data(m, %d); }\n", ct, N, i,
              N, ct, i);
    sb_printf(b, "static inline void %s_set_arg%d_data(%s_t *m, const %s *data) { xlacrt_aot_set_arg_data(m, %d, data); }\n",
              N, i, N, ct, i);
    sb_printf(b, "static inline %s *%s_arg_%s_data(%s_t *m) { return (%s *)xlacrt_aot_arg_data(m, %d); }\n", ct, N, an,
              N, ct, i);
    sb_printf(b,
              "static inline void %s_set_arg_%s_data(%s_t *m, const %s *data) { xlacrt_aot_set_arg_data(m, %d, data); }\n",
              N, an, N, ct, i);
  }
  for (int i = 0; i < f->nresults; i++) {
    const char *ct = aot_c_type(f->result_types[i]->elem);
    const char *rn = r->result_names[i];
    sb_printf(b, "/* result %d: %s */\n", i, rn);
    sb_printf(b, "static inline %s *%s_result%d_data(%s_t *m) { return (%s *)xlacrt_aot_result_data(m, %d); }\n", ct,
              N, i, N, ct, i);
    sb_printf(b, "static inline %s *%s_result_%s_data(%s_t *m) { return (%s *)xlacrt_aot_result_data(m, %d); }\n", ct,
              N, rn, N, ct, i);
  }
}

enum { BUF_ARG, BUF_RESULT, BUF_VAR };

/* One buffer's methods, as tfcompile names them: fn is "arg0", "arg_x",
   "result0", "result_y" or "var_v"; i the argument's or result's
   position.  A scalar or a [1] is indexed without indices.  A readonly
   variable's are const. */
static void cpp_buffer(StrBuf *b, const char *fn, int kind, bool ro, int i, const Type *t) {
  const char *ct = aot_c_type(t->elem);
  const char *get = kind == BUF_RESULT ? "result_data" : "arg_data";
  const char *mc = ro ? "const " : "";
  bool one = t->rank == 0 || (t->rank == 1 && t->dims[0] == 1);
  StrBuf params = {0}, index = {0};
  sb_puts(&params, "");
  if (one) sb_puts(&index, "0");
  else {
    index_params(&params, t);
    index_expr(&index, t);
  }
  if (kind == BUF_ARG) sb_printf(b, "  void set_%s_data(const void *data) { set_arg_data(%d, data); }\n", fn, i);
  if (kind == BUF_VAR) sb_printf(b, "  void set_%s_data(%s%s *data) { set_arg_data(%d, data); }\n", fn, mc, ct, i);
  sb_printf(b, "  %s%s *%s_data() { return static_cast<%s%s *>(%s(%d)); }\n", mc, ct, fn, mc, ct, get, i);
  sb_printf(b, "  %s%s &%s(%s) { return %s_data()[%s]; }\n", mc, ct, fn, params.data, fn, index.data);
  sb_printf(b, "  const %s *%s_data() const { return static_cast<const %s *>(%s(%d)); }\n", ct, fn, ct, get, i);
  sb_printf(b, "  const %s &%s(%s) const { return %s_data()[%s]; }\n", ct, fn, params.data, fn, index.data);
  sb_printf(b, "  int %s_size() const { return %lld; }\n", fn, (long long)aot_bytes(t));
  sb_printf(b, "  int %s_count() const { return %lld; }\n", fn, (long long)elements(t));
  sb_free(&params);
  sb_free(&index);
}

static void comment_buffer(StrBuf *b, const char *what, int i, const char *name, const Type *t) {
  char *ts = type_str(t);
  sb_printf(b, "\n  // %s %d: %s ", what, i, name);
  aot_comment_text(b, ts);
  sb_putc(b, '\n');
  xfree(ts);
}

/* A nullptr-terminated array of C strings: names[from..to). */
static void name_array(StrBuf *b, const char *var, const char *const *names, int from, int to) {
  sb_printf(b, "    static const char *%s[] = {", var);
  for (int i = from; i < to; i++) sb_printf(b, "\"%s\", ", names[i]);
  sb_puts(b, "nullptr};\n");
}

static void cpp_class(StrBuf *b, const AotRequest *req, const char *N, const AotResult *r, Func *f, const Roles *ro) {
  /* namespaces from "ns1::ns2::Class" */
  const char *cls = req->cpp_class;
  if (!strncmp(cls, "::", 2)) cls += 2;
  VEC(char *) ns = {0};
  const char *p = cls, *sep;
  while ((sep = strstr(p, "::"))) {
    VEC_PUSH(ns, xstrndup(p, (size_t)(sep - p)));
    p = sep + 2;
  }
  const char *C = p;
  sb_puts(b, "#ifdef __cplusplus\n#include <xlacrt_tfcompile.h>\n\n");
  for (int i = 0; i < ns.len; i++) sb_printf(b, "namespace %s {\n", ns.data[i]);
  sb_printf(b,
            "\n// %s runs the compiled program with tfcompile's class interface (the base,\n"
            "// tensorflow::XlaCompiledCpuFunction, is in xlacrt_tfcompile.h): argN / arg_NAME for\n"
            "// the feeds, resultN / result_NAME for the fetches, var_NAME for the variables.\n"
            "// Buffers are row-major and 64-byte aligned.  Separate instances may run at once\n"
            "// on separate threads.\n"
            "class %s final : public tensorflow::XlaCompiledCpuFunction {\n"
            " public:\n"
            "  static constexpr size_t kNumArgs = %d;\n"
            "  static constexpr size_t kNumResults = %d;\n"
            "  static constexpr size_t kNumVariables = %d;\n"
            "  // Bytes of argument index.\n"
            "  static int64_t ArgSize(int32_t index) { return %s_program.args[index].bytes; }\n"
            "  static const xlacrt_aot_program &program() { return %s_program; }\n\n"
            "  %s(AllocMode alloc_mode = AllocMode::ARGS_VARIABLES_RESULTS_PROFILES_AND_TEMPS)\n"
            "      : XlaCompiledCpuFunction(static_data(), alloc_mode) {}\n"
            "  %s(const %s &) = delete;\n"
            "  %s &operator=(const %s &) = delete;\n",
            C, C, f->body->nargs, f->nresults, ro->nvars, N, N, C, C, C, C, C);
  for (int i = 0; i < ro->nfeeds; i++) {
    const Type *t = f->body->args[i]->type;
    comment_buffer(b, "argument", i, r->arg_names[i], t);
    char fn[64];
    snprintf(fn, sizeof fn, "arg%d", i);
    cpp_buffer(b, fn, BUF_ARG, false, i, t);
    if (*ro->arg_own[i]) {
      char *named = xasprintf("arg_%s", ro->arg_own[i]);
      cpp_buffer(b, named, BUF_ARG, false, i, t);
      xfree(named);
    }
  }
  for (int i = 0; i < ro->nfetches; i++) {
    const Type *t = f->result_types[i];
    comment_buffer(b, "result", i, r->result_names[i], t);
    char fn[64];
    snprintf(fn, sizeof fn, "result%d", i);
    cpp_buffer(b, fn, BUF_RESULT, false, i, t);
    if (*ro->res_own[i]) {
      char *named = xasprintf("result_%s", ro->res_own[i]);
      cpp_buffer(b, named, BUF_RESULT, false, i, t);
      xfree(named);
    }
  }
  for (int v = 0; v < ro->nvars; v++) {
    int a = ro->nfeeds + v;
    const Type *t = f->body->args[a]->type;
    comment_buffer(b, ro->readonly[v] ? "readonly variable (argument)" : "variable (argument)", a, r->arg_names[a], t);
    char *named = xasprintf("var_%s", r->arg_names[a]);
    cpp_buffer(b, named, BUF_VAR, ro->readonly[v], a, t);
    xfree(named);
  }
  if (req->gen_name_to_index) {
    sb_puts(b,
            "\n  // Names of the feeds, fetches and variables, in order (nullptr-terminated).\n"
            "  static const char **ArgNames() {\n");
    name_array(b, "names", ro->arg_own, 0, ro->nfeeds);
    sb_puts(b, "    return names;\n  }\n  static const char **ResultNames() {\n");
    name_array(b, "names", ro->res_own, 0, ro->nfetches);
    sb_puts(b, "    return names;\n  }\n  static const char **VariableNames() {\n");
    name_array(b, "names", (const char *const *)r->arg_names, ro->nfeeds, ro->nfeeds + ro->nvars);
    sb_puts(b, "    return names;\n  }\n");
  }
  sb_puts(b, "\n private:\n  static const StaticData &static_data() {\n    static const int variable_results[] = {");
  for (int v = 0; v < ro->nvars; v++) sb_printf(b, "%d, ", ro->var_result[v]);
  sb_puts(b, "-1};\n");
  const char *names = req->gen_name_to_index ? "ArgNames(), ResultNames(), VariableNames()" : "nullptr, nullptr, nullptr";
  sb_printf(b, "    static const StaticData data = {&%s_program, %d, variable_results, %s, %s};\n", N, ro->nvars, names,
            req->gen_program_shape ? "program().program_shape" : "nullptr");
  sb_puts(b, "    return data;\n  }\n};\n\n");
  for (int i = ns.len - 1; i >= 0; i--) {
    sb_printf(b, "}  // namespace %s\n", ns.data[i]);
    xfree(ns.data[i]);
  }
  VEC_FREE(ns);
  sb_puts(b, "#endif  // __cplusplus\n\n");
}

char *aot_header(const AotRequest *req, const AotResult *r, Func *f) {
  StrBuf b = {0};
  const char *N = req->name;
  char *U = upper(N);
  /* the input's path is the user's text: escaped (aot_comment_text), so
     that no path ends the comment */
  sb_printf(&b, "/*\n * %s.h - generated by `xlac aot` from ", N);
  aot_comment_text(&b, req->source ? req->source : "a program");
  sb_printf(&b,
            "; do not edit.\n"
            " *\n"
            " * Link: %s.o%s -lxlacrt -lm  (`xlac aot --print-link-flags` prints -L/-I for\n"
            " * this installation).  Nothing else: no LLVM, no BLAS, no C++ runtime.\n",
            N, req->separate_metadata ? " plus the metadata object" : "");
  if (r->obj.ncalls) {
    sb_puts(&b,
            " *\n"
            " * Custom calls: the program linking this must define, for each target, a C\n"
            " * function named " AOT_CUSTOM_CALL_PREFIX "TARGET (the prefix keeps a target from resolving\n"
            " * to a function of the C library or of the program); a missing one is an\n"
            " * \"undefined reference\" at link time.  out is the result's data, or an array\n"
            " * of the results' data when there are several; in holds the operands' data;\n"
            " * opaque is the op's backend_config; report a failure with\n"
            " * xlacrt_status_set_failure(status, message, length).\n");
    for (int i = 0; i < r->obj.ncalls; i++)
      sb_printf(&b, " *   %s: " AOT_CUSTOM_CALL_PREFIX "%s, %d operand(s), %d result(s)\n", r->obj.calls[i].target,
                r->obj.calls[i].target, r->obj.calls[i].nargs, r->obj.calls[i].nresults);
  }
  sb_puts(&b, " *\n * Arguments and results:\n");
  for (int i = 0; i < f->body->nargs; i++) comment_shape(&b, "arg", i, r->arg_names[i], f->body->args[i]->type);
  for (int i = 0; i < f->nresults; i++) comment_shape(&b, "result", i, r->result_names[i], f->result_types[i]);
  sb_printf(&b, " * Temporary buffers: %lld bytes per instance.\n */\n", (long long)r->obj.temp_bytes);
  sb_printf(&b, "#ifndef XLAC_AOT_%s_H\n#define XLAC_AOT_%s_H\n\n", U, U);
  sb_puts(&b, "#include <stddef.h>\n#include <stdint.h>\n#include <string.h>\n\n#include <xlacrt.h>\n\n");
  sb_puts(&b, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
  for (int i = 0; i < r->obj.ncalls; i++)
    sb_printf(&b,
              "void " AOT_CUSTOM_CALL_PREFIX
              "%s(void *out, const void **in, const char *opaque, size_t opaque_len, xlacrt_status *status);\n%s",
              r->obj.calls[i].target, i + 1 == r->obj.ncalls ? "\n" : "");
  Roles ro;
  roles_of(&ro, req, r, f);
  c_api(&b, N, U, r, f, &ro);
  sb_puts(&b, "#ifdef __cplusplus\n}  // extern \"C\"\n#endif\n\n");
  if (req->cpp_class) cpp_class(&b, req, N, r, f, &ro);
  roles_free(&ro);
  sb_printf(&b, "#endif /* XLAC_AOT_%s_H */\n", U);
  xfree(U);
  return b.data;
}
