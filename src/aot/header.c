/*
 * header.c - the header `xlac aot` writes next to the object.
 *
 * Three layers, each usable alone:
 *   - declarations: the descriptor NAME_program, the custom-call targets
 *     the linking program must define (xlac_cc_TARGET), and sizes as
 *     constants;
 *   - a C API of static inline functions over runtime/xlacrt.h's
 *     instances (NAME_create, NAME_run, NAME_arg0_data, ...);
 *   - with --cpp_class, a header-only C++ class with tfcompile's method
 *     names (AllocMode, Run, error_msg, argN_data, set_argN_data, argN(i,
 *     j), argN_size, resultN_data, resultN(i, j), and the same by feed and
 *     fetch names).
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

static void c_api(StrBuf *b, const char *N, const char *U, const AotResult *r, Func *f) {
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
            "/* NULL when memory runs out.  XLACRT_AOT_ARGS_RESULTS_AND_TEMPS allocates every\n"
            "   buffer; XLACRT_AOT_RESULTS_AND_TEMPS_ONLY leaves the arguments to the caller\n"
            "   (@_set_arg*_data). */\n"
            "static inline @_t *@_create(xlacrt_aot_alloc_mode mode) { return xlacrt_aot_create(&@_program, mode); }\n"
            "static inline void @_destroy(@_t *m) { xlacrt_aot_destroy(m); }\n"
            "/* Parallel loops run on pool (xlacrt_pool_create(n), or\n"
            "   xlacrt_pool_create_external over your threads); without one, on the caller's thread. */\n"
            "static inline void @_set_thread_pool(@_t *m, xlacrt_pool *pool) { xlacrt_aot_set_pool(m, pool); }\n"
            "/* 0 on success; -1 with @_error(m) saying why. */\n"
            "static inline int @_run(@_t *m) { return xlacrt_aot_run(m); }\n"
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

/* One buffer's tfcompile-style methods; `data_fn` is "arg0" or
   "arg_feed_x", `side` "arg" or "result", i the index. */
static void cpp_buffer(StrBuf *b, const char *data_fn, bool arg, int i, const Type *t) {
  const char *ct = aot_c_type(t->elem);
  const char *side = arg ? "arg" : "result";
  if (arg)
    sb_printf(b, "  void set_%s_data(const %s *data) { xlacrt_aot_set_arg_data(inst_, %d, data); }\n", data_fn, ct, i);
  sb_printf(b, "  %s *%s_data() { return static_cast<%s *>(xlacrt_aot_%s_data(inst_, %d)); }\n", ct, data_fn, ct,
            side, i);
  sb_printf(b, "  const %s *%s_data() const { return static_cast<const %s *>(xlacrt_aot_%s_data(inst_, %d)); }\n", ct,
            data_fn, ct, side, i);
  sb_printf(b, "  %s &%s(", ct, data_fn);
  index_params(b, t);
  sb_printf(b, ") { return %s_data()[", data_fn);
  index_expr(b, t);
  sb_puts(b, "]; }\n");
  sb_printf(b, "  const %s &%s(", ct, data_fn);
  index_params(b, t);
  sb_printf(b, ") const { return %s_data()[", data_fn);
  index_expr(b, t);
  sb_puts(b, "]; }\n");
  sb_printf(b, "  int %s_size() const { return %lld; }\n", data_fn, (long long)aot_bytes(t));
  sb_printf(b, "  int %s_count() const { return %lld; }\n", data_fn, (long long)elements(t));
}

static void cpp_class(StrBuf *b, const AotRequest *req, const char *N, const AotResult *r, Func *f) {
  /* namespaces from "ns1::ns2::Class" */
  const char *cls = req->cpp_class;
  VEC(char *) ns = {0};
  const char *p = cls, *sep;
  while ((sep = strstr(p, "::"))) {
    VEC_PUSH(ns, xstrndup(p, (size_t)(sep - p)));
    p = sep + 2;
  }
  const char *C = p;
  sb_puts(b, "#ifdef __cplusplus\n");
  for (int i = 0; i < ns.len; i++) sb_printf(b, "namespace %s {\n", ns.data[i]);
  sb_printf(b,
            "\n// %s runs the compiled program.  Buffers are row-major and 64-byte aligned.\n"
            "// Instances are independent: separate ones may run at once on separate threads.\n"
            "class %s {\n"
            " public:\n"
            "  // Which buffers the instance allocates (temps and results always).\n"
            "  enum class AllocMode {\n"
            "    ARGS_RESULTS_AND_TEMPS,  // arguments too\n"
            "    RESULTS_AND_TEMPS_ONLY,  // the caller sets every argument with set_argN_data\n"
            "  };\n"
            "  static constexpr int kNumArgs = %d;\n"
            "  static constexpr int kNumResults = %d;\n\n"
            "  explicit %s(AllocMode mode = AllocMode::ARGS_RESULTS_AND_TEMPS)\n"
            "      : inst_(xlacrt_aot_create(&%s_program, mode == AllocMode::ARGS_RESULTS_AND_TEMPS\n"
            "                                                    ? XLACRT_AOT_ARGS_RESULTS_AND_TEMPS\n"
            "                                                    : XLACRT_AOT_RESULTS_AND_TEMPS_ONLY)) {}\n"
            "  ~%s() { xlacrt_aot_destroy(inst_); }\n"
            "  %s(const %s &) = delete;\n"
            "  %s &operator=(const %s &) = delete;\n\n"
            "  // False when the instance could not be created (out of memory); nothing else may be called then.\n"
            "  bool ok() const { return inst_ != nullptr; }\n"
            "  // Runs the program: arguments are read from the arg buffers, results written to the\n"
            "  // result buffers.  True on success; false with error_msg() saying why.\n"
            "  bool Run() { return inst_ && xlacrt_aot_run(inst_) == 0; }\n"
            "  const char *error_msg() const { return inst_ ? xlacrt_aot_error(inst_) : \"out of memory\"; }\n"
            "  // Parallel loops run on pool (xlacrt_pool_create(n) or xlacrt_pool_create_external);\n"
            "  // without one, on the calling thread.  Results are the same either way.\n"
            "  void set_thread_pool(xlacrt_pool *pool) { xlacrt_aot_set_pool(inst_, pool); }\n"
            "  void **args() { return xlacrt_aot_args(inst_); }\n"
            "  void **results() { return xlacrt_aot_results(inst_); }\n"
            "  void set_arg_data(size_t index, const void *data) { xlacrt_aot_set_arg_data(inst_, (int)index, data); }\n"
            "  void *arg_data(size_t index) { return xlacrt_aot_arg_data(inst_, (int)index); }\n"
            "  void *result_data(size_t index) { return xlacrt_aot_result_data(inst_, (int)index); }\n"
            "  int num_args() const { return kNumArgs; }\n"
            "  int num_results() const { return kNumResults; }\n"
            "  static const xlacrt_aot_program &program() { return %s_program; }\n\n",
            C, C, f->body->nargs, f->nresults, C, N, C, C, C, C, C, N);
  for (int i = 0; i < f->body->nargs; i++) {
    const Type *t = f->body->args[i]->type;
    char *ts = type_str(t);
    sb_printf(b, "  // argument %d: %s ", i, r->arg_names[i]);
    aot_comment_text(b, ts);
    sb_putc(b, '\n');
    xfree(ts);
    char fn[64];
    snprintf(fn, sizeof fn, "arg%d", i);
    cpp_buffer(b, fn, true, i, t);
    char *byname = xasprintf("arg_feed_%s", r->arg_names[i]);
    cpp_buffer(b, byname, true, i, t);
    xfree(byname);
  }
  for (int i = 0; i < f->nresults; i++) {
    const Type *t = f->result_types[i];
    char *ts = type_str(t);
    sb_printf(b, "  // result %d: %s ", i, r->result_names[i]);
    aot_comment_text(b, ts);
    sb_putc(b, '\n');
    xfree(ts);
    char fn[64];
    snprintf(fn, sizeof fn, "result%d", i);
    cpp_buffer(b, fn, false, i, t);
    char *byname = xasprintf("result_fetch_%s", r->result_names[i]);
    cpp_buffer(b, byname, false, i, t);
    xfree(byname);
  }
  if (req->gen_name_to_index) {
    sb_printf(b,
              "\n  // Names of the arguments and results, in order (NULL-terminated), and\n"
              "  // the index of one by name (-1 when none has it).\n"
              "  static const char **ArgNames() {\n    static const char *names[] = {");
    for (int i = 0; i < f->body->nargs; i++) sb_printf(b, "\"%s\", ", r->arg_names[i]);
    sb_puts(b, "nullptr};\n    return names;\n  }\n  static const char **ResultNames() {\n    static const char *names[] = {");
    for (int i = 0; i < f->nresults; i++) sb_printf(b, "\"%s\", ", r->result_names[i]);
    sb_printf(b,
              "nullptr};\n    return names;\n  }\n"
              "  static int LookupArgIndex(const char *name) { return xlacrt_aot_arg_index(&%s_program, name); }\n"
              "  static int LookupResultIndex(const char *name) { return xlacrt_aot_result_index(&%s_program, name); }\n",
              N, N);
  }
  if (req->gen_program_shape)
    sb_printf(b,
              "\n  // The program's signature as text: \"(name: type, ...) -> (name: type, ...)\".\n"
              "  static const char *ProgramShape() { return %s_program.program_shape; }\n",
              N);
  sb_puts(b, "\n private:\n  xlacrt_aot_instance *inst_;\n};\n\n");
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
  sb_puts(&b, "#include <stddef.h>\n#include <stdint.h>\n\n#include <xlacrt.h>\n\n");
  sb_puts(&b, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
  for (int i = 0; i < r->obj.ncalls; i++)
    sb_printf(&b,
              "void " AOT_CUSTOM_CALL_PREFIX
              "%s(void *out, const void **in, const char *opaque, size_t opaque_len, xlacrt_status *status);\n%s",
              r->obj.calls[i].target, i + 1 == r->obj.ncalls ? "\n" : "");
  c_api(&b, N, U, r, f);
  sb_puts(&b, "#ifdef __cplusplus\n}  // extern \"C\"\n#endif\n\n");
  if (req->cpp_class) cpp_class(&b, req, N, r, f);
  sb_printf(&b, "#endif /* XLAC_AOT_%s_H */\n", U);
  xfree(U);
  return b.data;
}
