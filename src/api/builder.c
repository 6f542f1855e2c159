/*
 * builder.c - the builder API (include/xlac/builder.h): builders, functions,
 * parameters and returns, the one path every op takes (op_run), result
 * type inference, and building a program.
 *
 * The builder keeps one Module in which every function and computation is
 * built; an op is checked the moment it is added, by the verifier that
 * checks parsed programs (verify_op_alone), and taken out again if it
 * fails, so a failed call leaves the builder as it was.  Result shapes
 * that follow from operands and attributes are inferred by the verifier's
 * own shape checks (verify_op_infer) rather than by a second copy of the
 * rules; the builder only says how many results there are, their element
 * types and ranks.  Attribute text is read by the StableHLO frontend's
 * attribute parser.  Diagnostics the verifier and the parser report go to
 * a hook of the calling thread and come back as the status message.
 *
 * Building a program deep-copies the functions into a fresh module, so
 * the program owns all of its memory and the builder may go on.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/builder_int.h"
#include "frontends/stablehlo/stablehlo.h"
#include "ir/rewrite.h"
#include "ir/verify.h"

/* ------------------------------------------------------------------------ */
/* element types and errors                                                 */
/* ------------------------------------------------------------------------ */

ElemType bld_elem_type(xlac_type t) {
  static const ElemType map[XLAC_TYPE_COUNT] = {
      [XLAC_PRED] = ET_PRED,         [XLAC_S2] = ET_S2,
      [XLAC_S4] = ET_S4,             [XLAC_S8] = ET_S8,
      [XLAC_S16] = ET_S16,           [XLAC_S32] = ET_S32,
      [XLAC_S64] = ET_S64,           [XLAC_U2] = ET_U2,
      [XLAC_U4] = ET_U4,             [XLAC_U8] = ET_U8,
      [XLAC_U16] = ET_U16,           [XLAC_U32] = ET_U32,
      [XLAC_U64] = ET_U64,           [XLAC_F16] = ET_F16,
      [XLAC_BF16] = ET_BF16,         [XLAC_F32] = ET_F32,
      [XLAC_F64] = ET_F64,           [XLAC_F8E4M3FN] = ET_F8E4M3FN,
      [XLAC_F8E5M2] = ET_F8E5M2,     [XLAC_F8E4M3FNUZ] = ET_F8E4M3FNUZ,
      [XLAC_F8E5M2FNUZ] = ET_F8E5M2FNUZ, [XLAC_F8E4M3B11FNUZ] = ET_F8E4M3B11FNUZ,
      [XLAC_F8E4M3] = ET_F8E4M3,     [XLAC_F8E3M4] = ET_F8E3M4,
      [XLAC_F4E2M1FN] = ET_F4E2M1FN, [XLAC_F6E2M3FN] = ET_F6E2M3FN,
      [XLAC_F6E3M2FN] = ET_F6E3M2FN, [XLAC_F8E8M0FNU] = ET_F8E8M0FNU,
      [XLAC_C64] = ET_C64,           [XLAC_C128] = ET_C128,
      [XLAC_TOKEN] = ET_INVALID,
  };
  return (int)t >= 0 && t < XLAC_TYPE_COUNT ? map[t] : ET_INVALID;
}

static xlac_type xlac_type_of(ElemType et) {
  for (int t = 0; t < XLAC_TOKEN; t++)
    if (bld_elem_type((xlac_type)t) == et) return (xlac_type)t;
  return XLAC_TYPE_COUNT;
}

static xlac_status *verror(const char *what, xlac_code code, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  return xlac_status_create(code, "%s: %s", what, msg);
}

static xlac_status *api_error(const char *fn, xlac_code code, const char *fmt, ...) XLAC_PRINTF(3, 4);
static xlac_status *api_error(const char *fn, xlac_code code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  xlac_status *s = verror(fn, code, fmt, ap);
  va_end(ap);
  return s;
}

xlac_status *bld_error(OpKind k, xlac_code code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  xlac_status *s = verror(op_info[k].name, code, fmt, ap);
  va_end(ap);
  return s;
}

/* Names of functions and modules: what both text formats print without
   quoting, so a built program prints and parses back unchanged. */
static bool valid_name(const char *s) {
  if (!s || !*s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' ||
          *s == '.' || *s == '-'))
      return false;
  return true;
}

/* ------------------------------------------------------------------------ */
/* diagnostics into statuses                                                */
/* ------------------------------------------------------------------------ */

/* Collects what the verifier and the parser report while a call runs.  The
   verifier words its errors "'stablehlo.add' op <what>"; they become
   "stablehlo.add: <what>".  A parse error of attribute or type text is
   shown with the text and a caret under the offending spot. */
typedef struct Capture {
  StrBuf msg;
  int errors;
  const char *prefix;   /* the op (or function) the call is about */
  const char *text;     /* fragment being parsed, or NULL */
  const char *what;     /* "attributes", "result types" */
  DiagHook prev;
  void *prev_ud;
  bool ended;
} Capture;

static void capture_hook(DiagLevel lvl, SrcLoc loc, const char *msg, void *ud) {
  Capture *c = ud;
  if (lvl == DIAG_WARNING) return;
  if (lvl == DIAG_ERROR) c->errors++;
  if (c->msg.len) sb_putc(&c->msg, '\n');
  if (lvl == DIAG_NOTE) sb_puts(&c->msg, "note: ");
  if (c->text) {
    size_t len = strlen(c->text);
    size_t off = loc.off > len ? len : loc.off;
    sb_printf(&c->msg, "%s: bad %s: %s", c->prefix, c->what, msg);
    if (len <= 200) {
      sb_printf(&c->msg, "\n  %s\n  ", c->text);
      for (size_t i = 0; i < off; i++) sb_putc(&c->msg, c->text[i] == '\t' ? '\t' : ' ');
      sb_putc(&c->msg, '^');
    } else {
      sb_printf(&c->msg, " (at byte %zu)", off);
    }
    return;
  }
  /* "'name' op rest" -> "name: rest" */
  const char *end = msg[0] == '\'' ? strchr(msg + 1, '\'') : NULL;
  if (end && strncmp(end, "' op ", 5) == 0)
    sb_printf(&c->msg, "%.*s: %s", (int)(end - msg - 1), msg + 1, end + 5);
  else if (lvl == DIAG_NOTE)
    sb_puts(&c->msg, msg);
  else
    sb_printf(&c->msg, "%s: %s", c->prefix, msg);
}

static void capture_begin(Capture *c, const char *prefix) {
  memset(c, 0, sizeof *c);
  c->prefix = prefix;
  diag_get_hook(&c->prev, &c->prev_ud);
  diag_set_hook(capture_hook, c);
}

/* Ends the capture: a status when anything was reported (or !ok). */
static xlac_status *capture_end(Capture *c, bool ok) {
  if (c->ended) return NULL;
  c->ended = true;
  diag_set_hook(c->prev, c->prev_ud);
  xlac_status *s = NULL;
  if (!ok || c->errors)
    s = c->msg.len ? xlac_status_create(XLAC_INVALID_ARGUMENT, "%s", c->msg.data)
                   : xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: failed", c->prefix);
  sb_free(&c->msg);
  return s;
}

/* ------------------------------------------------------------------------ */
/* the memory guard                                                         */
/* ------------------------------------------------------------------------ */

/* Runs fn(ctx) where an allocation failure unwinds to here instead of
   ending the process.  The builder's module may then hold half an op, so
   the builder is marked broken: destroying it is all that is left. */
static xlac_status *guarded(xlac_builder *b, const char *what, xlac_status *(*fn)(void *ctx), void *ctx) {
  OomGuard g;
  xlac_status *volatile st = NULL;
  oom_push(&g);
  if (setjmp(g.jb) == 0) {
    st = fn(ctx);
  } else {
    /* the unwound call may have left its capture hook installed */
    diag_set_hook(g.hook, g.hook_ud);
    if (b) b->broken = true;
    st = xlac_status_create(XLAC_OUT_OF_MEMORY, "%s: out of memory (%zu bytes requested)%s", what, g.bytes,
                            b ? "; the builder can only be destroyed now" : "");
  }
  oom_pop(&g);
  return st;
}

/* ------------------------------------------------------------------------ */
/* handles                                                                  */
/* ------------------------------------------------------------------------ */

static xlac_status *check_builder(const xlac_builder *b, const char *fn) {
  if (!b) return api_error(fn, XLAC_INVALID_ARGUMENT, "the builder is NULL");
  if (b->magic != BLD_MAGIC_BUILDER) return api_error(fn, XLAC_INVALID_ARGUMENT, "not a builder");
  if (b->broken)
    return api_error(fn, XLAC_FAILED_PRECONDITION, "the builder ran out of memory earlier and can only be destroyed");
  return NULL;
}

/* f usable for adding to: alive, its builder usable, not yet returned. */
static xlac_status *check_func(const xlac_func *f, const char *what) {
  if (!f) return api_error(what, XLAC_INVALID_ARGUMENT, "the function is NULL");
  if (f->magic != BLD_MAGIC_FUNC) return api_error(what, XLAC_INVALID_ARGUMENT, "not a builder function");
  xlac_status *s = check_builder(f->b, what);
  if (s) return s;
  if (f->returned)
    return api_error(what, XLAC_FAILED_PRECONDITION, "function '%s' has already returned", f->fn->name);
  return NULL;
}

/* v usable in f; `role` says which argument it is ("operand 1"). */
static xlac_status *check_value(const xlac_value *v, const xlac_func *f, const char *what, const char *role) {
  if (!v) return api_error(what, XLAC_INVALID_ARGUMENT, "%s is NULL", role);
  if (v->magic != BLD_MAGIC_VALUE) return api_error(what, XLAC_INVALID_ARGUMENT, "%s is not a builder value", role);
  if (v->f->b != f->b) return api_error(what, XLAC_INVALID_ARGUMENT, "%s belongs to another builder", role);
  if (v->f != f)
    return api_error(what, XLAC_INVALID_ARGUMENT, "%s is a value of function '%s', not of '%s'", role,
                     v->f->fn->name, f->fn->name);
  return NULL;
}

static xlac_value *new_value(xlac_func *f, Value *v) {
  xlac_value *h = ARENA_NEW(&f->b->m->arena, xlac_value);
  h->magic = BLD_MAGIC_VALUE;
  h->f = f;
  h->v = v;
  return h;
}

/* A tensor or token type from the C description, or NULL with a message. */
static Type *type_from_c(Module *m, xlac_type type, const int64_t *dims, int rank, char *err, size_t errlen) {
  if (type == XLAC_TOKEN) {
    if (rank != 0) {
      snprintf(err, errlen, "a token has no dimensions, got rank %d", rank);
      return NULL;
    }
    return type_token(&m->arena);
  }
  ElemType et = bld_elem_type(type);
  if (et == ET_INVALID) {
    snprintf(err, errlen, "invalid element type %d", (int)type);
    return NULL;
  }
  if (rank < 0 || rank > 64 || (rank > 0 && !dims)) {
    snprintf(err, errlen, rank < 0 || rank > 64 ? "invalid rank %d" : "dims is NULL for rank %d", rank);
    return NULL;
  }
  int64_t n = 1;
  for (int i = 0; i < rank; i++)
    if (dims[i] < 0 || !dim_mul(n, dims[i], &n)) {
      snprintf(err, errlen, dims[i] < 0 ? "dimension %d is negative (%lld)" : "dimension %d makes too many elements (%lld)",
               i, (long long)dims[i]);
      return NULL;
    }
  Type *t = type_tensor(&m->arena, et, rank, dims);
  int64_t elems, bytes;
  if (!type_sizes(t, &elems, &bytes)) {
    snprintf(err, errlen, "the tensor has too many bytes");
    return NULL;
  }
  return t;
}

/* ---- builders ---- */

typedef struct CreateJob {
  const char *name;
  xlac_builder *b;
} CreateJob;

static xlac_status *create_job(void *ctx) {
  CreateJob *j = ctx;
  xlac_builder *b = xcalloc(1, sizeof *b);
  b->magic = BLD_MAGIC_BUILDER;
  b->m = module_new();
  b->m->format = SRC_STABLEHLO;
  if (j->name) {
    b->name = xstrdup(j->name);
    b->m->name = arena_strdup(&b->m->arena, j->name);
  }
  j->b = b;
  return NULL;
}

xlac_status *xlac_builder_create(const char *name, xlac_builder **out_builder) {
  const char *fn = "xlac_builder_create";
  if (!out_builder) return api_error(fn, XLAC_INVALID_ARGUMENT, "out_builder is NULL");
  *out_builder = NULL;
  if (name && !valid_name(name))
    return api_error(fn, XLAC_INVALID_ARGUMENT,
                     "invalid module name \"%s\" (a letter or '_', then letters, digits, '_', '.', '-')", name);
  CreateJob j = {name, NULL};
  xlac_status *s = guarded(NULL, fn, create_job, &j);
  if (s) return s; /* a half-made builder is lost with the unwound frames */
  *out_builder = j.b;
  return NULL;
}

void xlac_builder_destroy(xlac_builder *b) {
  if (!b || b->magic != BLD_MAGIC_BUILDER) return;
  b->magic = API_MAGIC_DEAD;
  for (int i = 0; i < b->funcs.len; i++) b->funcs.data[i]->magic = API_MAGIC_DEAD;
  VEC_FREE(b->funcs);
  module_free(b->m);
  xfree(b->name);
  xfree(b);
}

/* ---- functions ---- */

typedef struct FuncJob {
  xlac_builder *b;
  const char *name;
  bool computation;
  xlac_func *f;
} FuncJob;

static xlac_status *func_job(void *ctx) {
  FuncJob *j = ctx;
  xlac_func *f = ARENA_NEW(&j->b->m->arena, xlac_func);
  f->magic = BLD_MAGIC_FUNC;
  f->b = j->b;
  f->computation = j->computation;
  f->fn = func_new(j->b->m, j->name, SRCLOC_NONE);
  VEC_PUSH(j->b->funcs, f);
  j->f = f;
  return NULL;
}

static xlac_status *func_create(xlac_builder *b, const char *name, bool computation, xlac_func **out,
                                const char *fn) {
  if (!out) return api_error(fn, XLAC_INVALID_ARGUMENT, "out_func is NULL");
  *out = NULL;
  xlac_status *s = check_builder(b, fn);
  if (s) return s;
  if (!valid_name(name))
    return api_error(fn, XLAC_INVALID_ARGUMENT,
                     name ? "invalid function name \"%s\" (a letter or '_', then letters, digits, '_', '.', '-')"
                          : "the function name is NULL%s",
                     name ? name : "");
  if (module_find_func(b->m, name))
    return api_error(fn, XLAC_INVALID_ARGUMENT, "the builder already has a function named '%s'", name);
  FuncJob j = {b, name, computation, NULL};
  s = guarded(b, fn, func_job, &j);
  if (!s) *out = j.f;
  return s;
}

xlac_status *xlac_func_create(xlac_builder *b, const char *name, xlac_func **out_func) {
  return func_create(b, name, false, out_func, "xlac_func_create");
}

xlac_status *xlac_computation_create(xlac_builder *b, const char *name, xlac_func **out_func) {
  return func_create(b, name, true, out_func, "xlac_computation_create");
}

typedef struct ParamJob {
  xlac_func *f;
  xlac_type type;
  const int64_t *dims;
  int rank;
  const char *text;
  const char *name;
  xlac_value *out;
} ParamJob;

static xlac_status *param_job(void *ctx) {
  ParamJob *j = ctx;
  const char *fn = "xlac_func_param";
  Module *m = j->f->b->m;
  Type *t;
  if (j->text) {
    Capture c;
    capture_begin(&c, "xlac_func_param_text");
    c.text = j->text;
    c.what = "type";
    int n = 0;
    Type **ts = stablehlo_parse_type_list(m, -1, j->text, strlen(j->text), &n);
    if (ts && n != 1) error_at(SRCLOC_NONE, "expected one type, got %d", n);
    xlac_status *s = capture_end(&c, ts != NULL);
    if (!s && n != 1) s = api_error("xlac_func_param_text", XLAC_INVALID_ARGUMENT, "expected one type, got %d", n);
    if (s) return s;
    t = ts[0];
  } else {
    char err[160];
    t = type_from_c(m, j->type, j->dims, j->rank, err, sizeof err);
    if (!t) return api_error(fn, XLAC_INVALID_ARGUMENT, "%s", err);
  }
  Value *v = block_add_arg(m, j->f->fn->body, t, j->name);
  j->out = new_value(j->f, v);
  return NULL;
}

static xlac_status *add_param(ParamJob *j, xlac_value **out, const char *fn) {
  if (!out) return api_error(fn, XLAC_INVALID_ARGUMENT, "out_value is NULL");
  *out = NULL;
  xlac_status *s = check_func(j->f, fn);
  if (s) return s;
  s = guarded(j->f->b, fn, param_job, j);
  if (!s) *out = j->out;
  return s;
}

xlac_status *xlac_func_param(xlac_func *f, xlac_type type, const int64_t *dims, int rank, const char *name,
                             xlac_value **out_value) {
  ParamJob j = {f, type, dims, rank, NULL, name, NULL};
  return add_param(&j, out_value, "xlac_func_param");
}

xlac_status *xlac_func_param_text(xlac_func *f, const char *type, const char *name, xlac_value **out_value) {
  if (!type) {
    if (out_value) *out_value = NULL;
    return api_error("xlac_func_param_text", XLAC_INVALID_ARGUMENT, "the type is NULL");
  }
  ParamJob j = {f, XLAC_TYPE_COUNT, NULL, 0, type, name, NULL};
  return add_param(&j, out_value, "xlac_func_param_text");
}

typedef struct ReturnJob {
  xlac_func *f;
  xlac_value *const *values;
  int n;
} ReturnJob;

static xlac_status *return_job(void *ctx) {
  ReturnJob *j = ctx;
  Module *m = j->f->b->m;
  Func *fn = j->f->fn;
  Value **vals = ARENA_ARRAY(&m->arena, Value *, j->n > 0 ? j->n : 1);
  Type **types = ARENA_ARRAY(&m->arena, Type *, j->n > 0 ? j->n : 1);
  for (int i = 0; i < j->n; i++) {
    vals[i] = j->values[i]->v;
    types[i] = vals[i]->type;
  }
  fn->nresults = j->n;
  fn->result_types = types;
  Op *op = op_new(m, OP_FUNC_RETURN, j->n, vals, 0, NULL, SRCLOC_NONE);
  block_append(fn->body, op);
  Capture c;
  capture_begin(&c, "func.return");
  bool ok = verify_op_alone(m, op);
  xlac_status *s = capture_end(&c, ok);
  if (s) {
    op_erase(op);
    fn->nresults = 0;
    fn->result_types = NULL;
    return s;
  }
  j->f->returned = true;
  return NULL;
}

xlac_status *xlac_func_return(xlac_func *f, xlac_value *const *values, int n) {
  const char *fn = "xlac_func_return";
  xlac_status *s = check_func(f, fn);
  if (s) return s;
  if (n < 0 || (n > 0 && !values))
    return api_error(fn, XLAC_INVALID_ARGUMENT, n < 0 ? "negative value count %d" : "values is NULL for %d values", n);
  for (int i = 0; i < n; i++) {
    char role[32];
    snprintf(role, sizeof role, "value %d", i);
    if ((s = check_value(values[i], f, fn, role))) return s;
  }
  ReturnJob j = {f, values, n};
  return guarded(f->b, fn, return_job, &j);
}

/* ---- values ---- */

xlac_status *xlac_value_shape(const xlac_value *v, xlac_shape *out_shape) {
  const char *fn = "xlac_value_shape";
  if (!out_shape) return api_error(fn, XLAC_INVALID_ARGUMENT, "out_shape is NULL");
  memset(out_shape, 0, sizeof *out_shape);
  if (!v || v->magic != BLD_MAGIC_VALUE)
    return api_error(fn, XLAC_INVALID_ARGUMENT, v ? "not a builder value" : "the value is NULL");
  const Type *t = v->v->type;
  if (t->kind == TY_TOKEN) {
    out_shape->type = XLAC_TOKEN;
  } else if (t->kind == TY_TENSOR) {
    out_shape->type = xlac_type_of(t->elem);
    out_shape->rank = t->rank;
    out_shape->dims = t->dims;
  } else {
    char *ts = type_str(t);
    xlac_status *s = api_error(fn, XLAC_INVALID_ARGUMENT, "the value has type %s, which has no xlac_shape", ts);
    xfree(ts);
    return s;
  }
  out_shape->name = v->v->name;
  return NULL;
}

xlac_status *xlac_value_type_text(const xlac_value *v, char **out_text) {
  const char *fn = "xlac_value_type_text";
  if (!out_text) return api_error(fn, XLAC_INVALID_ARGUMENT, "out_text is NULL");
  *out_text = NULL;
  if (!v || v->magic != BLD_MAGIC_VALUE)
    return api_error(fn, XLAC_INVALID_ARGUMENT, v ? "not a builder value" : "the value is NULL");
  /* plain malloc: a status-returning call must not unwind */
  StrBuf b = {0};
  OomGuard g;
  oom_push(&g);
  volatile bool ok = false;
  if (setjmp(g.jb) == 0) {
    type_print_mlir(&b, v->v->type);
    ok = true;
  }
  oom_pop(&g);
  if (!ok) return api_error(fn, XLAC_OUT_OF_MEMORY, "out of memory");
  *out_text = b.data;
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* attributes                                                               */
/* ------------------------------------------------------------------------ */

static Attr *int_list(Module *m, const int64_t *p, int n) {
  Attr **el = ARENA_ARRAY(&m->arena, Attr *, n > 0 ? n : 1);
  for (int i = 0; i < n; i++) el[i] = attr_int(m, p[i], NULL);
  return attr_array(m, n, el);
}

/* A dense constant from host data in the unpacked host layout: sub-byte
   integers are sign/zero-extended bytes, pred a 0/1 byte, the narrow
   floats their bits in the low bits of a byte -- as the IR stores them,
   once normalized, so stray high bits cannot reach the backends. */
static Attr *host_dense(Module *m, const ASpec *s, OpKind k, xlac_status **err) {
  char msg[160];
  Type *t = type_from_c(m, (xlac_type)s->i, s->p, s->n, msg, sizeof msg);
  if (!t || t->kind != TY_TENSOR) {
    *err = bld_error(k, XLAC_INVALID_ARGUMENT, "%s", t ? "a constant cannot be a token" : msg);
    return NULL;
  }
  int64_t elems, bytes;
  type_sizes(t, &elems, &bytes);
  if (!s->s && elems) {
    *err = bld_error(k, XLAC_INVALID_ARGUMENT, "data is NULL");
    return NULL;
  }
  if ((uint64_t)bytes != s->slen) {
    char *ts = type_str(t);
    *err = bld_error(k, XLAC_INVALID_ARGUMENT, "data has %zu bytes, %s needs %lld", s->slen, ts, (long long)bytes);
    xfree(ts);
    return NULL;
  }
  Literal *l = lit_new_in(&m->arena, t);
  ElemType et = t->elem;
  const uint8_t *src = (const uint8_t *)s->s;
  if (et_bits(et) >= 8 && !et_is_pred(et)) {
    if (bytes) memcpy(l->data, src, (size_t)bytes);
  } else {
    for (int64_t i = 0; i < elems; i++) {
      if (et_is_pred(et)) lit_set_b(l, i, src[i] != 0);
      else if (et_is_signed(et)) lit_set_i(l, i, (int8_t)src[i]);
      else if (et_is_unsigned(et)) lit_set_u(l, i, src[i]);
      else lit_set_bits(l, i, src[i] & ((1u << et_bits(et)) - 1));
    }
  }
  return attr_dense(m, l);
}

static Attr *spec_attr(Module *m, const ASpec *s, OpKind k, xlac_status **err) {
  switch (s->kind) {
  case AS_INT:
    return attr_int(m, s->i, s->bits < 0 ? NULL : type_scalar(&m->arena, s->bits == 32 ? ET_S32 : ET_S64));
  case AS_INTS: return attr_ints(m, s->n, s->p);
  case AS_INT_LIST: return int_list(m, s->p, s->n);
  case AS_BOOL: return attr_bool(m, s->i != 0);
  case AS_STRING: return attr_string(m, s->s, s->slen);
  case AS_ENUM: return attr_enum(m, s->enum_name, s->s);
  case AS_SYMBOL: return attr_symbol(m, s->s);
  case AS_DENSE2D: {
    int64_t dims[2] = {s->n, s->cols};
    Literal *l = lit_new_in(&m->arena, type_tensor(&m->arena, ET_S64, 2, dims));
    for (int64_t i = 0; i < (int64_t)s->n * s->cols; i++) lit_set_i(l, i, s->p[i]);
    return attr_dense(m, l);
  }
  case AS_DICT: {
    const char **keys = ARENA_ARRAY(&m->arena, const char *, s->n > 0 ? s->n : 1);
    Attr **vals = ARENA_ARRAY(&m->arena, Attr *, s->n > 0 ? s->n : 1);
    for (int i = 0; i < s->n; i++) {
      keys[i] = s->sub[i].name;
      if (!(vals[i] = spec_attr(m, &s->sub[i], k, err))) return NULL;
    }
    return attr_dict(m, s->s, s->n, keys, vals);
  }
  case AS_CHANNEL: {
    const char *keys[2] = {"handle", "type"};
    Attr *vals[2] = {attr_int(m, s->i, NULL), attr_int(m, 1, NULL)};
    return attr_dict(m, "stablehlo.channel_handle", 2, keys, vals);
  }
  case AS_HOST: return host_dense(m, s, k, err);
  case AS_SCALAR_F:
  case AS_SCALAR_I: {
    ElemType et = bld_elem_type((xlac_type)s->i);
    if (et == ET_INVALID) {
      *err = bld_error(k, XLAC_INVALID_ARGUMENT, "invalid element type %d for a constant", (int)s->i);
      return NULL;
    }
    Literal *l = lit_new_in(&m->arena, type_scalar(&m->arena, et));
    if (s->kind == AS_SCALAR_F) lit_set_f(l, 0, s->f);
    else lit_set_i(l, 0, s->v);
    return attr_dense(m, l);
  }
  }
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* requests                                                                 */
/* ------------------------------------------------------------------------ */

OpReq op_req(xlac_func *f, OpKind kind, xlac_value **outs, int max_outs) {
  OpReq r;
  memset(&r, 0, sizeof r);
  r.f = f;
  r.kind = kind;
  r.outs = outs;
  r.max_outs = max_outs;
  r.res_mode = RES_INFER;
  r.res_elem = XLAC_TYPE_COUNT;
  return r;
}

void op_req_operands(OpReq *r, xlac_value *const *v, int n) {
  assert(r->ngroups < OPREQ_GROUPS);
  r->groups[r->ngroups++] = (OpGroup){v, n};
}

ASpec *op_req_spec(OpReq *r, const char *name, ASpecKind kind) {
  assert(r->nspecs < OPREQ_SPECS);
  ASpec *s = &r->specs[r->nspecs++];
  memset(s, 0, sizeof *s);
  s->name = name;
  s->kind = kind;
  return s;
}

/* ------------------------------------------------------------------------ */
/* regions from computations                                                */
/* ------------------------------------------------------------------------ */

/* A copy of comp's body as a region of an op in m: its parameters become
   the region's arguments, or, with bind, stand for the values bind[i];
   its func.return becomes stablehlo.return. */
static Block *region_from(Module *m, const xlac_func *comp, Value *const *bind) {
  Block *src = comp->fn->body, *dst = block_new(m);
  PtrMap map = {0};
  for (int i = 0; i < src->nargs; i++) {
    Value *a = bind ? bind[i] : block_add_arg(m, dst, src->args[i]->type, src->args[i]->name);
    ptrmap_put(&map, src->args[i], a);
  }
  for (Op *op = src->first; op; op = op->next) {
    if (op->kind == OP_FUNC_RETURN) {
      Value **vals = ARENA_ARRAY(&m->arena, Value *, op->nopnds > 0 ? op->nopnds : 1);
      for (int i = 0; i < op->nopnds; i++) {
        Value *v = ptrmap_get(&map, op->opnds[i]);
        vals[i] = v ? v : op->opnds[i];
      }
      block_append(dst, op_new(m, OP_RETURN, op->nopnds, vals, 0, NULL, op->loc));
      break;
    }
    block_append(dst, op_clone(m, op, &map));
  }
  ptrmap_free(&map);
  return dst;
}

/* ------------------------------------------------------------------------ */
/* result type inference                                                    */
/* ------------------------------------------------------------------------ */

typedef struct Inferred {
  int n;
  Type **types;
  bool *pending; /* shape left to the verifier's checks (verify_op_infer) */
} Inferred;

static const Type *opnd_t(const Op *op, int i) { return i < op->nopnds ? op->opnds[i]->type : NULL; }
static bool is_tensor(const Type *t) { return t && t->kind == TY_TENSOR; }

static void inf_alloc(Module *m, Inferred *out, int n) {
  out->n = n;
  out->types = ARENA_ARRAY(&m->arena, Type *, n > 0 ? n : 1);
  out->pending = ARENA_ARRAY(&m->arena, bool, n > 0 ? n : 1);
}

/* Result i is a tensor of element type et and the given rank whose
   dimensions the verifier fills in. */
static void inf_pending(Module *m, Inferred *out, int i, ElemType et, int rank) {
  int64_t *zeros = ARENA_ARRAY(&m->arena, int64_t, rank > 0 ? rank : 1);
  out->types[i] = type_tensor(&m->arena, et, rank, zeros);
  out->pending[i] = true;
}

/* The element type of a region's argument (a reducer's accumulator), or
   `def` when the region or argument is not there. */
static ElemType region_arg_elem(const Op *op, int k, int i, ElemType def) {
  if (k >= op->nregions || i >= op->regions[k]->nargs) return def;
  const Type *t = op->regions[k]->args[i]->type;
  return is_tensor(t) ? t->elem : def;
}

static const Op *region_return(const Op *op, int k) {
  if (k >= op->nregions) return NULL;
  const Op *t = block_terminator(op->regions[k]);
  return t && t->kind == OP_RETURN ? t : NULL;
}

static int64_t group_size_of(const Op *op, bool *ok) {
  Attr *a = op_attr(op, "replica_groups");
  *ok = a && a->kind == ATTR_DENSE && a->lit && a->lit->type->rank == 2;
  return *ok ? a->lit->type->dims[1] : 0;
}

/* Sets out for op (operands, attributes and regions in place; no results
   yet).  Returns NULL, or a message (heap) saying why it cannot. */
static char *infer(Module *m, const Op *op, Inferred *out) {
  OpKind k = op->kind;
  unsigned fl = op_info[k].flags;
  memset(out, 0, sizeof *out);
  const Type *a = opnd_t(op, 0);
  /* the results of ops on quantized tensors have quantization parameters
     of their own, which nothing here could guess */
  for (int i = 0; i < op->nopnds; i++)
    if (type_is_quant(op->opnds[i]->type) && k != OP_TUPLE && k != OP_GET_TUPLE_ELEMENT)
      return xasprintf("operand %d is quantized: give the result types", i);

  if (fl & OPF_EW) {
    for (int i = 0; i < op->nopnds; i++)
      if (!is_tensor(op->opnds[i]->type)) {
        char *ts = type_str(op->opnds[i]->type);
        char *msg = xasprintf("operand %d has type %s, expected a tensor", i, ts);
        xfree(ts);
        return msg;
      }
    if (op->nopnds < 1) return xasprintf("expects operands");
    inf_alloc(m, out, 1);
    const Type *like = a;
    int first = 0;
    if (k == OP_SELECT) {
      if (op->nopnds != 3) return xasprintf("expects 3 operands (pred, on_true, on_false), got %d", op->nopnds);
      like = opnd_t(op, 1);
      first = 1;
    } else if (k == OP_CLAMP) {
      if (op->nopnds != 3) return xasprintf("expects 3 operands (min, operand, max), got %d", op->nopnds);
      like = opnd_t(op, 1);
      first = -1; /* min and max may be scalars: the verifier checks */
    }
    if (first >= 0 && (fl & OPF_BINARY || k == OP_SELECT))
      for (int i = first + 1; i < op->nopnds; i++)
        if (!type_equal(opnd_t(op, i), opnd_t(op, first))) {
          char *ts = type_str(opnd_t(op, i)), *ws = type_str(opnd_t(op, first));
          char *msg = xasprintf("operand %d has type %s, expected %s like operand %d", i, ts, ws, first);
          xfree(ts);
          xfree(ws);
          return msg;
        }
    ElemType et = like->elem;
    switch (k) {
    case OP_COMPARE:
    case OP_IS_FINITE:
    case OP_CHLO_IS_INF:
    case OP_CHLO_IS_NEG_INF:
    case OP_CHLO_IS_POS_INF:
      et = ET_PRED;
      break;
    case OP_ABS:
    case OP_REAL:
    case OP_IMAG:
      et = et_real_part(et);
      break;
    case OP_COMPLEX:
      if (et != ET_F32 && et != ET_F64) return xasprintf("operands must be f32 or f64 to make a complex value");
      et = et == ET_F32 ? ET_C64 : ET_C128;
      break;
    case OP_CONVERT:
      return xasprintf("give the result element type (xlac_op_convert)");
    default:
      break;
    }
    out->types[0] = type_with_elem(&m->arena, like, et);
    return NULL;
  }

  switch (k) {
  /* shapes the verifier infers */
  case OP_TRANSPOSE:
  case OP_CONCATENATE:
  case OP_SLICE:
  case OP_PAD:
  case OP_DYNAMIC_SLICE:
  case OP_CONVOLUTION:
  case OP_ALL_TO_ALL:
  case OP_BROADCAST:
  case OP_DOT:
  case OP_DOT_GENERAL:
  case OP_GATHER:
  case OP_FFT: {
    if (!is_tensor(a)) return xasprintf("operand 0 must be a tensor");
    int rank = a->rank;
    ElemType et = a->elem;
    const Type *b = opnd_t(op, 1);
    if (k == OP_BROADCAST) {
      int64_t *p;
      int n = op_attr_ints(op, "broadcast_sizes", &p);
      rank += n > 0 ? n : 0;
    } else if (k == OP_DOT) {
      rank = is_tensor(b) ? a->rank + b->rank - 2 : 0;
      if (rank < 0) rank = 0;
    } else if (k == OP_DOT_GENERAL) {
      Attr *dn = op_attr(op, "dot_dimension_numbers");
      int64_t *p;
      int lb = dn ? dict_ints(dn, "lhs_batching_dimensions", &p) : 0;
      int lc = dn ? dict_ints(dn, "lhs_contracting_dimensions", &p) : 0;
      int rb = dn ? dict_ints(dn, "rhs_batching_dimensions", &p) : 0;
      int rc = dn ? dict_ints(dn, "rhs_contracting_dimensions", &p) : 0;
      rank = lb + (a->rank - lb - lc) + (is_tensor(b) ? b->rank - rb - rc : 0);
      if (rank < 0) rank = 0;
    } else if (k == OP_GATHER) {
      Attr *dn = op_attr(op, "dimension_numbers");
      int64_t *p;
      int nod = dn ? dict_ints(dn, "offset_dims", &p) : 0;
      int64_t ivd = dn ? dict_int(dn, "index_vector_dim", 0) : 0;
      rank = nod + (is_tensor(b) ? b->rank - (ivd < b->rank ? 1 : 0) : 0);
      if (rank < 0) rank = 0;
    } else if (k == OP_FFT) {
      const char *ty = op_attr_str(op, "fft_type");
      if (ty && strcmp(ty, "IRFFT") == 0) return xasprintf("give the result type (IRFFT's length is not inferred)");
      if (ty && strcmp(ty, "RFFT") == 0) et = et == ET_F64 ? ET_C128 : ET_C64;
    }
    int n = k == OP_ALL_TO_ALL ? op->nopnds : 1;
    inf_alloc(m, out, n);
    for (int i = 0; i < n; i++) {
      const Type *t = opnd_t(op, i);
      inf_pending(m, out, i, is_tensor(t) ? t->elem : et, is_tensor(t) && k == OP_ALL_TO_ALL ? t->rank : rank);
    }
    return NULL;
  }
  case OP_REDUCE:
  case OP_REDUCE_WINDOW: {
    if (op->nopnds < 2 || op->nopnds % 2)
      return xasprintf("expects N inputs followed by N init values, got %d operands", op->nopnds);
    if (!is_tensor(a)) return xasprintf("operand 0 must be a tensor");
    int n = op->nopnds / 2, rank = a->rank;
    if (k == OP_REDUCE) {
      int64_t *p;
      int nd = op_attr_ints(op, "dimensions", &p);
      if (nd > 0 && nd <= rank) rank -= nd;
    }
    inf_alloc(m, out, n);
    for (int i = 0; i < n; i++) {
      const Type *t = opnd_t(op, i);
      inf_pending(m, out, i, region_arg_elem(op, 0, i, is_tensor(t) ? t->elem : a->elem), rank);
    }
    return NULL;
  }

  /* the operands' types */
  case OP_SORT:
  case OP_WHILE:
  case OP_OPTIMIZATION_BARRIER:
  case OP_ALL_REDUCE:
  case OP_CROSS_REPLICA_SUM:
  case OP_REVERSE:
  case OP_CHOLESKY:
  case OP_COLLECTIVE_PERMUTE:
  case OP_COLLECTIVE_BROADCAST:
  case OP_BATCH_NORM_INFERENCE:
  case OP_DYNAMIC_UPDATE_SLICE:
  case OP_SCATTER:
  case OP_ALL_GATHER:
  case OP_REDUCE_SCATTER: {
    int n = op->nopnds;
    if (k == OP_REVERSE || k == OP_CHOLESKY || k == OP_BATCH_NORM_INFERENCE || k == OP_DYNAMIC_UPDATE_SLICE ||
        k == OP_COLLECTIVE_PERMUTE || k == OP_COLLECTIVE_BROADCAST)
      n = op->nopnds ? 1 : 0;
    if (k == OP_SCATTER) {
      if (op->nopnds < 3 || op->nopnds % 2 == 0)
        return xasprintf("expects N inputs, the indices and N updates, got %d operands", op->nopnds);
      n = (op->nopnds - 1) / 2;
    }
    inf_alloc(m, out, n);
    for (int i = 0; i < n; i++) out->types[i] = op->opnds[i]->type;
    if (k == OP_ALL_REDUCE || k == OP_CROSS_REPLICA_SUM) {
      for (int i = 0; i < n; i++)
        if (is_tensor(out->types[i]))
          out->types[i] = type_with_elem(&m->arena, out->types[i], region_arg_elem(op, 0, 0, out->types[i]->elem));
    }
    if (k == OP_ALL_GATHER || k == OP_REDUCE_SCATTER) {
      bool ok;
      int64_t g = group_size_of(op, &ok);
      if (!ok || g <= 0)
        return xasprintf("the result size depends on the group size: give replica_groups or the result types");
      int64_t d = op_attr_int(op, k == OP_ALL_GATHER ? "all_gather_dim" : "scatter_dimension", -1);
      for (int i = 0; i < n; i++) {
        const Type *t = out->types[i];
        if (!is_tensor(t) || d < 0 || d >= t->rank) return NULL; /* the verifier says what is wrong */
        int64_t *dims = ARENA_ARRAY(&m->arena, int64_t, t->rank);
        memcpy(dims, t->dims, sizeof(int64_t) * (size_t)t->rank);
        if (k == OP_ALL_GATHER ? !dim_mul(dims[d], g, &dims[d]) : dims[d] % g != 0)
          return xasprintf(k == OP_ALL_GATHER ? "dimension %lld overflows when gathered" :
                                                "dimension %lld does not divide by the group size",
                           (long long)d);
        if (k == OP_REDUCE_SCATTER) dims[d] /= g;
        ElemType et = k == OP_REDUCE_SCATTER ? region_arg_elem(op, 0, 0, t->elem) : t->elem;
        out->types[i] = type_tensor(&m->arena, et, t->rank, dims);
      }
    }
    return NULL;
  }
  case OP_TRIANGULAR_SOLVE:
    inf_alloc(m, out, 1);
    out->types[0] = op->nopnds > 1 ? op->opnds[1]->type : NULL;
    return out->types[0] ? NULL : xasprintf("expects 2 operands");
  case OP_BATCH_NORM_TRAINING:
  case OP_BATCH_NORM_GRAD:
    /* (operand-shaped, then two feature vectors shaped like the scale) */
    if (op->nopnds < 2) return xasprintf("expects the operand and the scale");
    inf_alloc(m, out, 3);
    out->types[0] = op->opnds[0]->type;
    out->types[1] = out->types[2] = op->opnds[1]->type;
    return NULL;
  case OP_MAP: {
    const Op *ret = region_return(op, 0);
    if (!is_tensor(a) || !ret || ret->nopnds != 1 || !is_tensor(ret->opnds[0]->type))
      return xasprintf("needs a tensor operand and a computation returning one scalar");
    inf_alloc(m, out, 1);
    out->types[0] = type_with_elem(&m->arena, a, ret->opnds[0]->type->elem);
    return NULL;
  }
  case OP_IF:
  case OP_CASE: {
    const Op *ret = region_return(op, 0);
    if (!ret) return xasprintf("needs its branches");
    inf_alloc(m, out, ret->nopnds);
    for (int i = 0; i < ret->nopnds; i++) out->types[i] = ret->opnds[i]->type;
    return NULL;
  }
  case OP_CALL:
  case OP_COMPOSITE: {
    const char *name = op_attr_str(op, k == OP_CALL ? "callee" : "decomposition");
    Func *callee = name ? module_find_func(m, name) : NULL;
    if (!callee)
      return name ? xasprintf("the builder has no function '%s'", name)
                  : xasprintf("needs the '%s' attribute", k == OP_CALL ? "callee" : "decomposition");
    inf_alloc(m, out, callee->nresults);
    for (int i = 0; i < callee->nresults; i++) out->types[i] = callee->result_types[i];
    return NULL;
  }
  case OP_GET_TUPLE_ELEMENT: {
    int64_t i = op_attr_int(op, "index", -1);
    if (!a || a->kind != TY_TUPLE) return xasprintf("operand 0 must be a tuple");
    if (i < 0 || i >= a->ntuple) return xasprintf("index %lld is out of range for %d elements", (long long)i, a->ntuple);
    inf_alloc(m, out, 1);
    out->types[0] = a->tuple[i];
    return NULL;
  }
  case OP_TUPLE: {
    Type **el = ARENA_ARRAY(&m->arena, Type *, op->nopnds > 0 ? op->nopnds : 1);
    for (int i = 0; i < op->nopnds; i++) el[i] = op->opnds[i]->type;
    inf_alloc(m, out, 1);
    out->types[0] = type_tuple(&m->arena, op->nopnds, el);
    return NULL;
  }
  case OP_CONSTANT: {
    Attr *v = op_attr(op, "value");
    if (!v || v->kind != ATTR_DENSE || !v->lit) return xasprintf("needs a dense 'value' attribute");
    inf_alloc(m, out, 1);
    out->types[0] = v->lit->type;
    return NULL;
  }
  case OP_REPLICA_ID:
  case OP_PARTITION_ID:
  case OP_GET_DIMENSION_SIZE:
    inf_alloc(m, out, 1);
    out->types[0] = type_scalar(&m->arena, k == OP_GET_DIMENSION_SIZE ? ET_S32 : ET_U32);
    return NULL;
  case OP_AFTER_ALL:
  case OP_CREATE_TOKEN:
    inf_alloc(m, out, 1);
    out->types[0] = type_token(&m->arena);
    return NULL;
  case OP_CHECK_EXPECT_EQ:
  case OP_CHECK_EXPECT_EQ_CONST:
  case OP_CHECK_EXPECT_ALMOST_EQ:
  case OP_CHECK_EXPECT_ALMOST_EQ_CONST:
  case OP_CHECK_EXPECT_CLOSE:
  case OP_CHECK_EXPECT_SERIALIZED_EQ:
  case OP_INTERP_PRINT:
    inf_alloc(m, out, 0);
    return NULL;
  default:
    return xasprintf("give the result types (they are not inferred for this op)");
  }
}

/* ------------------------------------------------------------------------ */
/* the op core                                                              */
/* ------------------------------------------------------------------------ */

static int req_nopnds(const OpReq *r) {
  int n = 0;
  for (int g = 0; g < r->ngroups; g++) n += r->groups[g].n;
  return n;
}

/* Everything op_run checks before allocating anything: handles and counts. */
static xlac_status *check_req(OpReq *r) {
  OpKind k = r->kind;
  const char *name = op_info[k].name;
  xlac_status *s = check_func(r->f, name);
  if (s) return s;
  if (r->max_outs < 0 || (r->max_outs > 0 && !r->outs))
    return bld_error(k, XLAC_INVALID_ARGUMENT, r->max_outs < 0 ? "negative result count" : "outs is NULL");
  int idx = 0;
  for (int g = 0; g < r->ngroups; g++) {
    if (r->groups[g].n < 0) return bld_error(k, XLAC_INVALID_ARGUMENT, "negative operand count %d", r->groups[g].n);
    if (r->groups[g].n > 0 && !r->groups[g].v) return bld_error(k, XLAC_INVALID_ARGUMENT, "the operand array is NULL");
    for (int i = 0; i < r->groups[g].n; i++, idx++) {
      char role[32];
      snprintf(role, sizeof role, "operand %d", idx);
      if ((s = check_value(r->groups[g].v[i], r->f, name, role))) return s;
    }
  }
  for (int i = 0; r->bind && i < r->bind->n; i++) {
    char role[40];
    snprintf(role, sizeof role, "branch operand %d", i);
    if ((s = check_value(r->bind->v[i], r->f, name, role))) return s;
  }
  if (r->ncomps < 0 || (r->ncomps > 0 && !r->comps))
    return bld_error(k, XLAC_INVALID_ARGUMENT, r->ncomps < 0 ? "negative computation count" : "computations is NULL");
  for (int i = 0; i < r->ncomps; i++) {
    const xlac_func *c = r->comps[i];
    if (!c) return bld_error(k, XLAC_INVALID_ARGUMENT, "computation %d is NULL", i);
    if (c->magic != BLD_MAGIC_FUNC) return bld_error(k, XLAC_INVALID_ARGUMENT, "computation %d is not a builder function", i);
    if (c->b != r->f->b) return bld_error(k, XLAC_INVALID_ARGUMENT, "computation %d belongs to another builder", i);
    if (c == r->f)
      return bld_error(k, XLAC_INVALID_ARGUMENT, "computation %d is the function '%s' the op is added to", i,
                       c->fn->name);
    if (!c->returned)
      return bld_error(k, XLAC_FAILED_PRECONDITION, "computation %d ('%s') has not returned yet (xlac_func_return)", i,
                       c->fn->name);
    int want = r->bind ? r->bind->n : -1;
    if (want < 0 && (k == OP_IF || k == OP_CASE)) want = 0;
    if (want >= 0 && c->fn->body->nargs != want)
      return bld_error(k, XLAC_INVALID_ARGUMENT, "computation %d ('%s') takes %d parameters, but %s %d", i,
                       c->fn->name, c->fn->body->nargs, r->bind ? "the op passes it" : "the op's regions take", want);
    for (int a = 0; r->bind && a < want; a++) {
      const Type *pt = c->fn->body->args[a]->type, *vt = r->bind->v[a]->v->type;
      if (!type_equal(pt, vt)) {
        char *ps = type_str(pt), *vs = type_str(vt);
        s = bld_error(k, XLAC_INVALID_ARGUMENT, "parameter %d of computation %d ('%s') has type %s, but its operand has type %s",
                      a, i, c->fn->name, ps, vs);
        xfree(ps);
        xfree(vs);
        return s;
      }
    }
  }
  if (r->res_mode == RES_SHAPES && (r->nres_shapes < 0 || (r->nres_shapes > 0 && !r->res_shapes)))
    return bld_error(k, XLAC_INVALID_ARGUMENT, r->nres_shapes < 0 ? "negative result count" : "the result shapes are NULL");
  return NULL;
}

/* The attributes: specs first, then the text's (a name in both is an error). */
static xlac_status *req_attrs(OpReq *r, Op *op, Capture *cap) {
  Module *m = r->f->b->m;
  for (int i = 0; i < r->nspecs; i++) {
    xlac_status *err = NULL;
    Attr *a = spec_attr(m, &r->specs[i], r->kind, &err);
    if (!a) return err;
    op_set_attr(m, op, r->specs[i].name, a);
  }
  if (!r->attr_text || !*r->attr_text) return NULL;
  cap->text = r->attr_text;
  cap->what = "attributes";
  Attr *d = stablehlo_parse_attr_dict(m, -1, r->attr_text, strlen(r->attr_text));
  cap->text = NULL;
  if (!d) return capture_end(cap, false);
  for (int i = 0; i < d->n; i++) {
    if (op_attr(op, d->keys[i]))
      return bld_error(r->kind, XLAC_INVALID_ARGUMENT, "attribute '%s' is given twice", d->keys[i]);
    op_set_attr(m, op, d->keys[i], d->elems[i]);
  }
  return NULL;
}

/* The explicitly given result types, or NULL with *s set on error. */
static Type **req_result_types(OpReq *r, const Op *proto, int *n, Capture *cap, xlac_status **s) {
  Module *m = r->f->b->m;
  *s = NULL;
  switch (r->res_mode) {
  case RES_TEXT: {
    cap->text = r->res_text;
    cap->what = "result types";
    Type **ts = stablehlo_parse_type_list(m, -1, r->res_text, strlen(r->res_text), n);
    cap->text = NULL;
    if (!ts) *s = capture_end(cap, false);
    return ts;
  }
  case RES_SHAPES: {
    Type **ts = ARENA_ARRAY(&m->arena, Type *, r->nres_shapes > 0 ? r->nres_shapes : 1);
    for (int i = 0; i < r->nres_shapes; i++) {
      char err[160];
      const xlac_shape *sh = &r->res_shapes[i];
      if (!(ts[i] = type_from_c(m, sh->type, sh->dims, sh->rank, err, sizeof err))) {
        *s = bld_error(r->kind, XLAC_INVALID_ARGUMENT, "result %d: %s", i, err);
        return NULL;
      }
    }
    *n = r->nres_shapes;
    return ts;
  }
  case RES_ELEM_LIKE0:
  case RES_DIMS: {
    const Type *a = proto->nopnds ? proto->opnds[0]->type : NULL;
    if (r->res_mode == RES_ELEM_LIKE0 && !is_tensor(a)) {
      *s = bld_error(r->kind, XLAC_INVALID_ARGUMENT, "operand 0 must be a tensor");
      return NULL;
    }
    xlac_type et = r->res_elem;
    if (et == XLAC_TYPE_COUNT) {
      if (!is_tensor(a)) {
        *s = bld_error(r->kind, XLAC_INVALID_ARGUMENT, "operand 0 must be a tensor");
        return NULL;
      }
      et = xlac_type_of(a->elem);
    }
    const int64_t *dims = r->res_mode == RES_DIMS ? r->res_dims : a->dims;
    int rank = r->res_mode == RES_DIMS ? r->res_rank : a->rank;
    char err[160];
    Type **ts = ARENA_ARRAY(&m->arena, Type *, 1);
    if (et == XLAC_TOKEN || !(ts[0] = type_from_c(m, et, dims, rank, err, sizeof err))) {
      *s = bld_error(r->kind, XLAC_INVALID_ARGUMENT, "result: %s", et == XLAC_TOKEN ? "cannot be a token" : err);
      return NULL;
    }
    *n = 1;
    return ts;
  }
  case RES_INFER:
    break;
  }
  return NULL;
}

static xlac_status *op_job(void *ctx) {
  OpReq *r = ctx;
  xlac_func *f = r->f;
  Module *m = f->b->m;
  OpKind k = r->kind;
  const char *name = op_info[k].name;
  int nopnds = req_nopnds(r);
  Value **opnds = ARENA_ARRAY(&m->arena, Value *, nopnds > 0 ? nopnds : 1);
  for (int g = 0, idx = 0; g < r->ngroups; g++)
    for (int i = 0; i < r->groups[g].n; i++) opnds[idx++] = r->groups[g].v[i]->v;

  Capture cap;
  capture_begin(&cap, name);
  /* a prototype carries operands, attributes and regions for inference;
     the op itself is made once the result types are known */
  Op *proto = op_new(m, k, nopnds, opnds, 0, NULL, SRCLOC_NONE);
  xlac_status *s = req_attrs(r, proto, &cap);
  if (s) goto fail;
  Value **bind = NULL;
  if (r->bind) {
    bind = ARENA_ARRAY(&m->arena, Value *, r->bind->n > 0 ? r->bind->n : 1);
    for (int i = 0; i < r->bind->n; i++) bind[i] = r->bind->v[i]->v;
  }
  for (int i = 0; i < r->ncomps; i++) op_add_region(m, proto, region_from(m, r->comps[i], bind));

  Inferred inf = {0};
  if (r->res_mode == RES_INFER) {
    char *why = infer(m, proto, &inf);
    if (why) {
      s = bld_error(k, XLAC_INVALID_ARGUMENT, "%s", why);
      xfree(why);
      goto fail;
    }
  } else {
    int n = 0;
    Type **ts = req_result_types(r, proto, &n, &cap, &s);
    if (!ts) goto fail;
    inf_alloc(m, &inf, n);
    memcpy(inf.types, ts, sizeof(Type *) * (size_t)n);
  }
  if (inf.n > r->max_outs) {
    s = bld_error(k, XLAC_INVALID_ARGUMENT, "the op has %d results, but outs has room for %d", inf.n, r->max_outs);
    goto fail;
  }

  Op *op = op_new(m, k, nopnds, opnds, inf.n, inf.types, SRCLOC_NONE);
  op->nattrs = proto->nattrs;
  op->attrs = proto->attrs;
  for (int i = 0; i < proto->nregions; i++) op_add_region(m, op, proto->regions[i]);
  block_append(f->fn->body, op);
  bool pending = false;
  for (int i = 0; i < inf.n; i++) pending = pending || inf.pending[i];
  bool ok = !pending || verify_op_infer(m, op, inf.pending);
  for (int i = 0; ok && i < inf.n; i++)
    if (inf.pending[i]) {
      error_at(SRCLOC_NONE, "could not infer result %d: give the result types", i);
      ok = false;
    }
  if (ok) ok = verify_op_alone(m, op);
  s = capture_end(&cap, ok);
  if (s) {
    op_erase(op);
    return s;
  }
  for (int i = 0; i < op->nres; i++) r->outs[i] = new_value(f, &op->res[i]);
  if (r->out_num) *r->out_num = op->nres;
  return NULL;

fail:
  /* s already says what went wrong; whatever else was captured goes */
  xlac_status_destroy(capture_end(&cap, true));
  return s;
}

xlac_status *op_run(OpReq *r) {
  if (r->out_num) *r->out_num = 0;
  for (int i = 0; r->outs && i < r->max_outs; i++) r->outs[i] = NULL;
  xlac_status *s = check_req(r);
  if (s) return s;
  return guarded(r->f->b, op_info[r->kind].name, op_job, r);
}

/* ------------------------------------------------------------------------ */
/* the generic op                                                           */
/* ------------------------------------------------------------------------ */

xlac_status *xlac_op(xlac_func *f, const char *name, xlac_value *const *operands, int num_operands,
                     const char *attributes, const char *result_types, xlac_func *const *computations,
                     int num_computations, xlac_value **outs, int max_outs, int *out_num) {
  if (out_num) *out_num = 0;
  for (int i = 0; outs && i < max_outs; i++) outs[i] = NULL;
  if (!name) return api_error("xlac_op", XLAC_INVALID_ARGUMENT, "the op name is NULL");
  size_t n = strlen(name);
  OpKind k = op_kind_from_name(name, n);
  if (k == OP_COUNT) k = op_kind_from_hlo(name, n);
  if (k == OP_COUNT && strcmp(name, "return") == 0) k = OP_FUNC_RETURN;
  if (k == OP_COUNT) return api_error("xlac_op", XLAC_NOT_FOUND, "unknown op '%s'", name);
  if (op_has_flag(k, OPF_TERM))
    return bld_error(k, XLAC_INVALID_ARGUMENT, "end functions with xlac_func_return (computations too)");
  OpReq r = op_req(f, k, outs, max_outs);
  r.out_num = out_num;
  op_req_operands(&r, operands, num_operands);
  r.attr_text = attributes;
  r.comps = computations;
  r.ncomps = num_computations;
  if (result_types) {
    r.res_mode = RES_TEXT;
    r.res_text = result_types;
  }
  return op_run(&r);
}

/* ------------------------------------------------------------------------ */
/* building a program                                                       */
/* ------------------------------------------------------------------------ */

/* Deep copies into another module: types, attributes and names live in
   the destination's arena, so the copy outlives the builder. */
typedef struct Copier {
  Module *dst;
  PtrMap vals;
} Copier;

static Attr *copy_attr(Copier *c, const Attr *a);

static Literal *copy_lit(Copier *c, const Literal *l) {
  Literal *n = lit_new_in(&c->dst->arena, type_clone(&c->dst->arena, l->type));
  size_t bytes = (size_t)l->n * (size_t)et_bytes(l->type->elem);
  if (bytes) memcpy(n->data, l->data, bytes);
  return n;
}

static Attr *copy_attr(Copier *c, const Attr *a) {
  if (!a) return NULL;
  Arena *ar = &c->dst->arena;
  Attr *n = ARENA_NEW(ar, Attr);
  *n = *a;
  if (a->s) {
    /* strings carry their length (they may hold NUL bytes); names do not */
    size_t len = a->slen ? a->slen : strlen(a->s);
    char *s = arena_alloc(ar, len + 1);
    memcpy(s, a->s, len);
    s[len] = 0;
    n->s = s;
  }
  if (a->name) n->name = arena_strdup(ar, a->name);
  if (a->ints) n->ints = arena_memdup(ar, a->ints, sizeof(int64_t) * (size_t)(a->n > 0 ? a->n : 1));
  if (a->elems) {
    n->elems = ARENA_ARRAY(ar, Attr *, a->n > 0 ? a->n : 1);
    for (int i = 0; i < a->n; i++) n->elems[i] = copy_attr(c, a->elems[i]);
  }
  if (a->keys) {
    n->keys = ARENA_ARRAY(ar, const char *, a->n > 0 ? a->n : 1);
    for (int i = 0; i < a->n; i++) n->keys[i] = arena_strdup(ar, a->keys[i]);
  }
  if (a->lit) n->lit = copy_lit(c, a->lit);
  if (a->type) n->type = type_clone(ar, a->type);
  return n;
}

static void copy_block(Copier *c, const Block *src, Block *dst);

static Op *copy_op(Copier *c, const Op *op) {
  Arena *ar = &c->dst->arena;
  Value **opnds = ARENA_ARRAY(ar, Value *, op->nopnds > 0 ? op->nopnds : 1);
  Type **types = ARENA_ARRAY(ar, Type *, op->nres > 0 ? op->nres : 1);
  for (int i = 0; i < op->nopnds; i++) {
    opnds[i] = ptrmap_get(&c->vals, op->opnds[i]);
    assert(opnds[i]); /* the builder only uses values defined before */
  }
  for (int i = 0; i < op->nres; i++) types[i] = type_clone(ar, op->res[i].type);
  Op *n = op_new(c->dst, op->kind, op->nopnds, opnds, op->nres, types, op->loc);
  n->nattrs = op->nattrs;
  n->attrs = ARENA_ARRAY(ar, NamedAttr, op->nattrs > 0 ? op->nattrs : 1);
  for (int i = 0; i < op->nattrs; i++) {
    n->attrs[i].name = arena_strdup(ar, op->attrs[i].name);
    n->attrs[i].attr = copy_attr(c, op->attrs[i].attr);
  }
  for (int i = 0; i < op->nres; i++) {
    if (op->res[i].name) n->res[i].name = arena_strdup(ar, op->res[i].name);
    ptrmap_put(&c->vals, &op->res[i], &n->res[i]);
  }
  for (int r = 0; r < op->nregions; r++) {
    Block *b = block_new(c->dst);
    op_add_region(c->dst, n, b);
    copy_block(c, op->regions[r], b);
  }
  return n;
}

static void copy_block(Copier *c, const Block *src, Block *dst) {
  for (int i = 0; i < src->nargs; i++)
    ptrmap_put(&c->vals, src->args[i],
               block_add_arg(c->dst, dst, type_clone(&c->dst->arena, src->args[i]->type), src->args[i]->name));
  for (const Op *op = src->first; op; op = op->next) block_append(dst, copy_op(c, op));
}

typedef struct BuildJob {
  xlac_builder *b;
  const char *entry;
  xlac_program *out;
} BuildJob;

static xlac_status *build_job(void *ctx) {
  BuildJob *j = ctx;
  xlac_builder *b = j->b;
  Module *m = module_new();
  m->format = SRC_STABLEHLO;
  if (b->name) m->name = arena_strdup(&m->arena, b->name);
  Copier c = {m, {0}};
  for (int i = 0; i < b->funcs.len; i++) {
    const xlac_func *f = b->funcs.data[i];
    if (f->computation) continue;
    const Func *src = f->fn;
    Func *dst = func_new(m, src->name, src->loc);
    dst->is_private = strcmp(src->name, j->entry) != 0;
    dst->nresults = src->nresults;
    dst->result_types = ARENA_ARRAY(&m->arena, Type *, src->nresults > 0 ? src->nresults : 1);
    for (int r = 0; r < src->nresults; r++) dst->result_types[r] = type_clone(&m->arena, src->result_types[r]);
    copy_block(&c, src->body, dst->body);
    if (!dst->is_private) m->entry = dst;
  }
  ptrmap_free(&c.vals);
  Capture cap;
  capture_begin(&cap, "xlac_builder_build");
  bool ok = verify_module(m);
  xlac_status *s = capture_end(&cap, ok);
  if (s) {
    module_free(m);
    return s;
  }
  j->out = api_program_new(m, b->name, NULL, 0);
  return NULL;
}

xlac_status *xlac_builder_build(xlac_builder *b, const char *entry, xlac_program **out_program) {
  const char *fn = "xlac_builder_build";
  if (!out_program) return api_error(fn, XLAC_INVALID_ARGUMENT, "out_program is NULL");
  *out_program = NULL;
  xlac_status *s = check_builder(b, fn);
  if (s) return s;
  if (!entry) return api_error(fn, XLAC_INVALID_ARGUMENT, "the entry name is NULL");
  const xlac_func *ef = NULL;
  for (int i = 0; i < b->funcs.len; i++)
    if (strcmp(b->funcs.data[i]->fn->name, entry) == 0) ef = b->funcs.data[i];
  if (!ef || ef->computation)
    return api_error(fn, XLAC_NOT_FOUND,
                     ef ? "'%s' is a computation, not a function (xlac_func_create)" : "the builder has no function '%s'",
                     entry);
  for (int i = 0; i < b->funcs.len; i++) {
    const xlac_func *f = b->funcs.data[i];
    if (f->computation) continue;
    if (!f->returned)
      return api_error(fn, XLAC_FAILED_PRECONDITION, "function '%s' has not returned (xlac_func_return)",
                       f->fn->name);
    /* module_entry prefers @main to any other public function */
    if (f != ef && strcmp(f->fn->name, "main") == 0)
      return api_error(fn, XLAC_INVALID_ARGUMENT,
                       "the entry is '%s', but a function named 'main' would be taken for the entry", entry);
  }
  BuildJob j = {b, entry, NULL};
  s = guarded(b, fn, build_job, &j);
  if (!s) *out_program = j.out;
  return s;
}
