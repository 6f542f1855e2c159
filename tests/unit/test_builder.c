/*
 * test_builder.c - the builder API (include/xlac/builder.h).
 *
 * Each program is built op by op, printed as StableHLO and as HLO text,
 * parsed back from both (which verifies it again) and printed again to
 * the same text, then run on the reference interpreter -- the built module
 * and the reparsed ones -- with exact expected values.  axpy is also
 * compiled to native code and run through the public API.  The error
 * tests check that a bad call names the op and the operand, and leaves
 * the builder usable.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "interp/interp.h"
#include "test_util.h"
#include "xlac/builder.h"

/* ---- status checks ---- */

static void expect_ok(xlac_status *s, int line) {
  if (s) {
    test_failed++;
    fprintf(stderr, "test_builder.c:%d: unexpected error: %s\n", line, xlac_status_message(s));
    xlac_status_destroy(s);
  } else {
    test_passed++;
  }
}
#define OK(s) expect_ok((s), __LINE__)

/* An error with `code` whose message contains every part (NULL-ended). */
static void expect_error(xlac_status *s, xlac_code code, int line, ...) {
  if (!s) {
    test_failed++;
    fprintf(stderr, "test_builder.c:%d: expected an error, got success\n", line);
    return;
  }
  bool ok = xlac_status_code(s) == code;
  va_list ap;
  va_start(ap, line);
  for (const char *p; (p = va_arg(ap, const char *));)
    if (!strstr(xlac_status_message(s), p)) ok = false;
  va_end(ap);
  if (ok) {
    test_passed++;
  } else {
    test_failed++;
    fprintf(stderr, "test_builder.c:%d: unexpected error (code %d): %s\n", line, xlac_status_code(s),
            xlac_status_message(s));
  }
  xlac_status_destroy(s);
}
#define ERR(s, code, ...) expect_error((s), (code), __LINE__, __VA_ARGS__, (const char *)NULL)

/* ---- running on the interpreter ---- */

static IVal *f32_val(int rank, const int64_t *dims, const float *v) {
  Arena a;
  arena_init(&a);
  Literal *l = lit_new(type_tensor(&a, ET_F32, rank, dims));
  arena_free(&a);
  for (int64_t i = 0; i < l->n; i++) lit_set_f(l, i, v[i]);
  return ival_tensor(l);
}

/* Runs the entry of m; results[] get new references. */
static bool run_module(Module *m, int nargs, IVal **args, int nres, IVal **results) {
  InterpOptions opts = {0};
  Interp I;
  interp_init(&I, m, &opts);
  Func *f = module_entry(m);
  /* HLO returns several results as one tuple */
  bool tuple = f && nres != 1 && f->nresults == 1 && f->result_types[0]->kind == TY_TUPLE &&
               f->result_types[0]->ntuple == nres;
  if (!f || (f->nresults != nres && !tuple)) {
    fprintf(stderr, "test_builder.c: no entry with %d results\n", nres);
    return false;
  }
  if (!tuple) return interp_call(&I, f, nargs, args, results);
  IVal *t = NULL;
  if (!interp_call(&I, f, nargs, args, &t)) return false;
  for (int i = 0; i < nres; i++) results[i] = ival_retain(t->elems[i]);
  ival_release(t);
  return true;
}

static bool lit_is_f(const IVal *v, int64_t n, const float *want) {
  if (!v || v->kind != IV_TENSOR || v->lit->n != n) return false;
  for (int64_t i = 0; i < n; i++)
    if (lit_get_f(v->lit, i) != (double)want[i]) {
      fprintf(stderr, "  element %lld: %g, expected %g\n", (long long)i, lit_get_f(v->lit, i), (double)want[i]);
      return false;
    }
  return true;
}

static bool lit_is_i(const IVal *v, int64_t n, const int64_t *want) {
  if (!v || v->kind != IV_TENSOR || v->lit->n != n) return false;
  for (int64_t i = 0; i < n; i++)
    if (lit_get_i(v->lit, i) != want[i]) {
      fprintf(stderr, "  element %lld: %lld, expected %lld\n", (long long)i, (long long)lit_get_i(v->lit, i),
              (long long)want[i]);
      return false;
    }
  return true;
}

/* The printed text of p in format, or NULL. */
static char *print(const xlac_program *p, xlac_format format) {
  char *text = NULL;
  size_t len = 0;
  OK(xlac_program_print(p, format, &text, &len));
  CHECK(text && strlen(text) == len);
  return text;
}

/* Prints p in both formats, parses each text back, prints that again
   (same text), and returns the reparsed programs (caller destroys). */
static void round_trip(const xlac_program *p, xlac_program **from_mlir, xlac_program **from_hlo) {
  xlac_format formats[2] = {XLAC_FORMAT_STABLEHLO, XLAC_FORMAT_HLO};
  xlac_program **outs[2] = {from_mlir, from_hlo};
  for (int i = 0; i < 2; i++) {
    *outs[i] = NULL;
    char *text = print(p, formats[i]);
    if (!text) continue;
    xlac_program *q = NULL;
    xlac_status *s = xlac_program_parse(text, strlen(text), "built", &q);
    if (s) fprintf(stderr, "--- text that did not parse back:\n%s\n", text);
    OK(s);
    /* StableHLO text is canonical (values renumbered): it prints back
       unchanged.  HLO keeps source names, which the parser has made
       unique along the way, so only the StableHLO text is compared. */
    if (q && formats[i] == XLAC_FORMAT_STABLEHLO) {
      char *again = print(q, formats[i]);
      CHECK(again && strcmp(again, text) == 0);
      if (again && strcmp(again, text) != 0) fprintf(stderr, "--- printed:\n%s\n--- reprinted:\n%s\n", text, again);
      xlac_free(again);
    }
    xlac_free(text);
    *outs[i] = q;
  }
}

/* Runs p and its two reparsed forms on the same arguments; each result
   set is checked by check(results). */
typedef bool (*ResultCheck)(IVal **results);
static void run_all(const xlac_program *p, int nargs, IVal **args, int nres, ResultCheck check) {
  xlac_program *pm, *ph;
  round_trip(p, &pm, &ph);
  const xlac_program *progs[3] = {p, pm, ph};
  for (int i = 0; i < 3; i++) {
    if (!progs[i]) continue;
    IVal *res[16] = {0};
    bool ran = run_module(progs[i]->m, nargs, args, nres, res);
    CHECK(ran);
    if (ran) {
      bool good = check(res);
      CHECK(good);
      if (!good) fprintf(stderr, "  (program %d of 3: built, from StableHLO, from HLO)\n", i + 1);
    }
    for (int k = 0; k < nres; k++) ival_release(res[k]);
  }
  xlac_program_destroy(pm);
  xlac_program_destroy(ph);
}

/* A computation (a, b) -> a `kind` b on scalars of type t. */
static xlac_func *scalar_binary(xlac_builder *b, const char *name, xlac_type t,
                                xlac_status *(*op)(xlac_func *, xlac_value *, xlac_value *, xlac_value **)) {
  xlac_func *c = NULL;
  xlac_value *x, *y, *r;
  OK(xlac_computation_create(b, name, &c));
  OK(xlac_func_param(c, t, NULL, 0, "a", &x));
  OK(xlac_func_param(c, t, NULL, 0, "b", &y));
  OK(op(c, x, y, &r));
  OK(xlac_func_return(c, &r, 1));
  return c;
}

/* ---- axpy ---- */

static const float ax_x[4] = {1, 2, 3, 4}, ax_y[4] = {10.5f, 20.5f, 30.5f, 40.5f};

static bool axpy_ok(IVal **r) {
  float want[4];
  for (int i = 0; i < 4; i++) want[i] = 2.5f * ax_x[i] + ax_y[i];
  return lit_is_f(r[0], 4, want);
}

static xlac_program *build_axpy(void) {
  xlac_builder *b = NULL;
  xlac_func *f = NULL;
  xlac_value *a, *x, *y, *a4, *ax, *r;
  int64_t n = 4;
  OK(xlac_builder_create("axpy", &b));
  OK(xlac_func_create(b, "main", &f));
  OK(xlac_func_param(f, XLAC_F32, NULL, 0, "alpha", &a));
  OK(xlac_func_param(f, XLAC_F32, &n, 1, "x", &x));
  OK(xlac_func_param(f, XLAC_F32, &n, 1, "y", &y));
  OK(xlac_op_broadcast_in_dim(f, a, &n, 1, NULL, &a4));
  OK(xlac_op_mul(f, a4, x, &ax));
  OK(xlac_op_add(f, ax, y, &r));
  xlac_shape sh;
  OK(xlac_value_shape(r, &sh));
  CHECK(sh.type == XLAC_F32 && sh.rank == 1 && sh.dims[0] == 4);
  char *ts = NULL;
  OK(xlac_value_type_text(r, &ts));
  CHECK_STR(ts, "tensor<4xf32>");
  xlac_free(ts);
  OK(xlac_func_return(f, &r, 1));
  xlac_program *p = NULL;
  OK(xlac_builder_build(b, "main", &p));
  xlac_builder_destroy(b); /* the program owns its own copy */
  return p;
}

static void test_axpy(void) {
  xlac_program *p = build_axpy();
  if (!p) return;
  int64_t n = 4;
  float alpha = 2.5f;
  IVal *args[3] = {f32_val(0, NULL, &alpha), f32_val(1, &n, ax_x), f32_val(1, &n, ax_y)};
  run_all(p, 3, args, 1, axpy_ok);
  for (int i = 0; i < 3; i++) ival_release(args[i]);

  /* and compiled, on both backends, through the public API */
  for (int backend = 0; backend < 2; backend++) {
    xlac_client_options co;
    memset(&co, 0, sizeof co);
    co.struct_size = sizeof co;
    co.backend = backend ? XLAC_BACKEND_INTERPRETER : XLAC_BACKEND_CPU;
    co.num_threads = 1;
    xlac_client *c = NULL;
    xlac_executable *e = NULL;
    OK(xlac_client_create(&co, &c));
    OK(xlac_compile(c, p, NULL, &e));
    /* the parameters keep the names they were built with */
    CHECK_EQ_I(xlac_executable_arg_index(e, "x"), 1);
    xlac_buffer *bufs[3] = {0}, *res[1] = {0};
    OK(xlac_buffer_from_host(c, 0, XLAC_F32, NULL, 0, &alpha, sizeof alpha, 0, &bufs[0]));
    OK(xlac_buffer_from_host(c, 0, XLAC_F32, &n, 1, ax_x, sizeof ax_x, 0, &bufs[1]));
    OK(xlac_buffer_from_host(c, 0, XLAC_F32, &n, 1, ax_y, sizeof ax_y, 0, &bufs[2]));
    float out[4] = {0};
    if (e) {
      OK(xlac_executable_run(e, bufs, 3, res));
      if (res[0]) OK(xlac_buffer_to_host(res[0], out, sizeof out, 0));
    }
    for (int i = 0; i < 4; i++) CHECK_EQ_F(out[i], 2.5f * ax_x[i] + ax_y[i]);
    for (int i = 0; i < 3; i++) xlac_buffer_destroy(bufs[i]);
    xlac_buffer_destroy(res[0]);
    xlac_executable_destroy(e);
    xlac_client_destroy(c);
  }
  xlac_program_destroy(p);
}

/* ---- reduce: row sums and a variadic argmax ---- */

static bool reduce_ok(IVal **r) {
  static const float sums[2] = {6, 15};
  static const float maxv[3] = {4, 5, 6};
  static const int64_t argmax[3] = {1, 1, 1};
  return lit_is_f(r[0], 2, sums) && lit_is_f(r[1], 3, maxv) && lit_is_i(r[2], 3, argmax);
}

static void test_reduce(void) {
  xlac_builder *b = NULL;
  OK(xlac_builder_create(NULL, &b));
  xlac_func *sum = scalar_binary(b, "sum", XLAC_F32, xlac_op_add);

  /* argmax over (value, index) pairs: keep the larger value, the smaller
     index on ties */
  xlac_func *am = NULL;
  xlac_value *av, *ai, *bv, *bi, *gt, *eq, *lt, *tie, *pick, *rv, *ri;
  OK(xlac_computation_create(b, "argmax", &am));
  OK(xlac_func_param(am, XLAC_F32, NULL, 0, "av", &av));
  OK(xlac_func_param(am, XLAC_S32, NULL, 0, "ai", &ai));
  OK(xlac_func_param(am, XLAC_F32, NULL, 0, "bv", &bv));
  OK(xlac_func_param(am, XLAC_S32, NULL, 0, "bi", &bi));
  OK(xlac_op_compare(am, av, bv, XLAC_CMP_GT, &gt));
  OK(xlac_op_compare(am, av, bv, XLAC_CMP_EQ, &eq));
  OK(xlac_op_compare(am, ai, bi, XLAC_CMP_LT, &lt));
  OK(xlac_op_and(am, eq, lt, &tie));
  OK(xlac_op_or(am, gt, tie, &pick));
  OK(xlac_op_select(am, pick, av, bv, &rv));
  OK(xlac_op_select(am, pick, ai, bi, &ri));
  xlac_value *rets[2] = {rv, ri};
  OK(xlac_func_return(am, rets, 2));

  xlac_func *f = NULL;
  xlac_value *x, *zero, *ninf, *izero, *sums, *idx, *outs[2];
  int64_t dims[2] = {2, 3};
  OK(xlac_func_create(b, "main", &f));
  OK(xlac_func_param(f, XLAC_F32, dims, 2, "x", &x));
  OK(xlac_op_constant_f(f, XLAC_F32, 0.0, &zero));
  int64_t d1 = 1, d0 = 0;
  OK(xlac_op_reduce(f, &x, &zero, 1, &d1, 1, sum, &sums));
  xlac_shape sh;
  OK(xlac_value_shape(sums, &sh));
  CHECK(sh.rank == 1 && sh.dims[0] == 2 && sh.type == XLAC_F32);
  OK(xlac_op_iota(f, XLAC_S32, dims, 2, 0, &idx));
  OK(xlac_op_constant_f(f, XLAC_F32, -1.0 / 0.0, &ninf));
  OK(xlac_op_constant_i(f, XLAC_S32, 0, &izero));
  xlac_value *ins[2] = {x, idx}, *inits[2] = {ninf, izero};
  OK(xlac_op_reduce(f, ins, inits, 2, &d0, 1, am, outs));
  xlac_value *r3[3] = {sums, outs[0], outs[1]};
  OK(xlac_func_return(f, r3, 3));
  xlac_program *p = NULL;
  OK(xlac_builder_build(b, "main", &p));
  xlac_builder_destroy(b);
  if (!p) return;
  float xv[6] = {1, 2, 3, 4, 5, 6};
  IVal *arg = f32_val(2, dims, xv);
  run_all(p, 1, &arg, 3, reduce_ok);
  ival_release(arg);
  xlac_program_destroy(p);
}

/* ---- while: i from 0 while i < 10, acc += x each time ---- */

static bool while_ok(IVal **r) {
  static const int64_t ten[1] = {10};
  static const float acc[2] = {15, -5};
  return lit_is_i(r[0], 1, ten) && lit_is_f(r[1], 2, acc);
}

static void test_while(void) {
  xlac_builder *b = NULL;
  OK(xlac_builder_create("loop", &b));
  int64_t two = 2;
  xlac_func *cond = NULL, *body = NULL, *f = NULL;
  xlac_value *ci, *cacc, *cx, *ten, *lt;
  OK(xlac_computation_create(b, "cond", &cond));
  OK(xlac_func_param(cond, XLAC_S32, NULL, 0, "i", &ci));
  OK(xlac_func_param(cond, XLAC_F32, &two, 1, "acc", &cacc));
  OK(xlac_func_param(cond, XLAC_F32, &two, 1, "x", &cx));
  OK(xlac_op_constant_i(cond, XLAC_S32, 10, &ten));
  OK(xlac_op_compare(cond, ci, ten, XLAC_CMP_LT, &lt));
  OK(xlac_func_return(cond, &lt, 1));

  xlac_value *bi, *bacc, *bx, *one, *i1, *acc1;
  OK(xlac_computation_create(b, "body", &body));
  OK(xlac_func_param(body, XLAC_S32, NULL, 0, "i", &bi));
  OK(xlac_func_param(body, XLAC_F32, &two, 1, "acc", &bacc));
  OK(xlac_func_param(body, XLAC_F32, &two, 1, "x", &bx));
  OK(xlac_op_constant_i(body, XLAC_S32, 1, &one));
  OK(xlac_op_add(body, bi, one, &i1));
  OK(xlac_op_add(body, bacc, bx, &acc1));
  xlac_value *next[3] = {i1, acc1, bx};
  OK(xlac_func_return(body, next, 3));

  xlac_value *x, *i0, *acc0, *outs[3];
  OK(xlac_func_create(b, "main", &f));
  OK(xlac_func_param(f, XLAC_F32, &two, 1, "x", &x));
  OK(xlac_op_constant_i(f, XLAC_S32, 0, &i0));
  float zeros[2] = {0, 0};
  OK(xlac_op_constant(f, XLAC_F32, &two, 1, zeros, sizeof zeros, &acc0));
  xlac_value *init[3] = {i0, acc0, x};
  OK(xlac_op_while(f, init, 3, cond, body, outs));
  OK(xlac_func_return(f, outs, 2));
  xlac_program *p = NULL;
  OK(xlac_builder_build(b, "main", &p));
  xlac_builder_destroy(b);
  if (!p) return;
  float xv[2] = {1.5f, -0.5f};
  IVal *arg = f32_val(1, &two, xv);
  run_all(p, 1, &arg, 2, while_ok);
  ival_release(arg);
  xlac_program_destroy(p);
}

/* ---- sort: keys with a payload ---- */

static bool sort_ok(IVal **r) {
  static const float keys[5] = {-2, 0.5f, 1, 3, 7};
  static const int64_t payload[5] = {3, 4, 1, 0, 2};
  return lit_is_f(r[0], 5, keys) && lit_is_i(r[1], 5, payload);
}

static void test_sort(void) {
  xlac_builder *b = NULL;
  OK(xlac_builder_create(NULL, &b));
  xlac_func *cmp = NULL, *f = NULL;
  xlac_value *a, *bb, *ai, *bi, *lt;
  OK(xlac_computation_create(b, "less", &cmp));
  OK(xlac_func_param(cmp, XLAC_F32, NULL, 0, "a", &a));
  OK(xlac_func_param(cmp, XLAC_F32, NULL, 0, "b", &bb));
  OK(xlac_func_param(cmp, XLAC_S32, NULL, 0, "ai", &ai));
  OK(xlac_func_param(cmp, XLAC_S32, NULL, 0, "bi", &bi));
  OK(xlac_op_compare(cmp, a, bb, XLAC_CMP_LT, &lt));
  OK(xlac_func_return(cmp, &lt, 1));
  int64_t n = 5;
  xlac_value *k, *idx, *outs[2];
  OK(xlac_func_create(b, "main", &f));
  OK(xlac_func_param(f, XLAC_F32, &n, 1, "keys", &k));
  OK(xlac_op_iota(f, XLAC_S32, &n, 1, 0, &idx));
  xlac_value *ins[2] = {k, idx};
  OK(xlac_op_sort(f, ins, 2, 0, 1, cmp, outs));
  OK(xlac_func_return(f, outs, 2));
  xlac_program *p = NULL;
  OK(xlac_builder_build(b, "main", &p));
  xlac_builder_destroy(b);
  if (!p) return;
  float kv[5] = {3, 1, 7, -2, 0.5f};
  IVal *arg = f32_val(1, &n, kv);
  run_all(p, 1, &arg, 2, sort_ok);
  ival_release(arg);
  xlac_program_destroy(p);
}

/* ---- custom_call: a registered host function ---- */

static xlac_status *scale_add(void *user, const xlac_ffi_call *call) {
  /* results[0] = args[0] * factor + args[1], factor from backend_config */
  (void)user;
  double factor = atof(call->backend_config);
  const float *x = call->args[0].data, *y = call->args[1].data;
  float *out = call->results[0].data;
  for (int64_t i = 0; i < call->args[0].dims[0]; i++) out[i] = (float)(x[i] * factor + y[i]);
  return NULL;
}

static bool custom_ok(IVal **r) {
  static const float want[3] = {5, 8, 11};
  return lit_is_f(r[0], 3, want);
}

static void test_custom_call(void) {
  OK(xlac_custom_call_register("builder_test.scale_add", scale_add, NULL));
  xlac_builder *b = NULL;
  xlac_func *f = NULL;
  xlac_value *x, *y, *r;
  int64_t n = 3;
  OK(xlac_builder_create(NULL, &b));
  OK(xlac_func_create(b, "main", &f));
  OK(xlac_func_param(f, XLAC_F32, &n, 1, "x", &x));
  OK(xlac_func_param(f, XLAC_F32, &n, 1, "y", &y));
  xlac_value *ops[2] = {x, y};
  xlac_shape res = {XLAC_F32, 1, &n, NULL};
  OK(xlac_op_custom_call(f, "builder_test.scale_add", ops, 2, &res, 1, "3", "{has_side_effect = false}", &r));
  OK(xlac_func_return(f, &r, 1));
  xlac_program *p = NULL;
  OK(xlac_builder_build(b, "main", &p));
  char *text = p ? print(p, XLAC_FORMAT_STABLEHLO) : NULL;
  CHECK(text && strstr(text, "call_target_name = \"builder_test.scale_add\"") && strstr(text, "backend_config = \"3\""));
  xlac_free(text);
  xlac_builder_destroy(b);
  if (!p) return;
  float xv[3] = {1, 2, 3}, yv[3] = {2, 2, 2};
  IVal *args[2] = {f32_val(1, &n, xv), f32_val(1, &n, yv)};
  run_all(p, 2, args, 1, custom_ok);
  ival_release(args[0]);
  ival_release(args[1]);
  xlac_program_destroy(p);
}

/* ---- all_reduce and all_gather over two replicas ---- */

static void test_collectives(void) {
  xlac_builder *b = NULL;
  xlac_func *f = NULL;
  xlac_value *x, *s, *g;
  int64_t n = 2;
  OK(xlac_builder_create(NULL, &b));
  xlac_func *sum = scalar_binary(b, "sum", XLAC_F32, xlac_op_add);
  OK(xlac_func_create(b, "main", &f));
  OK(xlac_func_param(f, XLAC_F32, &n, 1, "x", &x));
  int64_t groups[2] = {0, 1};
  OK(xlac_op_all_reduce(f, &x, 1, sum, groups, 1, 2, 0, &s));
  OK(xlac_op_all_gather(f, x, 0, groups, 1, 2, 1, &g));
  xlac_shape sh;
  OK(xlac_value_shape(g, &sh));
  CHECK(sh.rank == 1 && sh.dims[0] == 4);
  xlac_value *rets[2] = {s, g};
  OK(xlac_func_return(f, rets, 2));
  xlac_program *p = NULL;
  OK(xlac_builder_build(b, "main", &p));
  xlac_builder_destroy(b);
  if (!p) return;
  xlac_program *pm, *ph;
  round_trip(p, &pm, &ph);
  const xlac_program *progs[3] = {p, pm, ph};
  for (int k = 0; k < 3; k++) {
    if (!progs[k]) continue;
    Module *m = progs[k]->m;
    Func *fn = module_entry(m);
    InterpOptions opts = {0};
    Interp I;
    interp_init(&I, m, &opts);
    float in[2][2] = {{1, 2}, {10, 20}};
    IVal *args[2];
    GridProgram gp[2];
    IVal **results[2];
    for (int r = 0; r < 2; r++) {
      args[r] = f32_val(1, &n, in[r]);
      gp[r] = (GridProgram){.func = fn, .nargs = 1, .args = &args[r]};
    }
    bool ran = interp_run_grid(&I, 2, 1, gp, results);
    CHECK(ran);
    for (int r = 0; r < 2; r++) {
      ival_release(args[r]);
      if (!ran) continue;
      static const float sums[2] = {11, 22}, gathered[4] = {1, 2, 10, 20};
      /* from HLO: one tuple */
      IVal *t = fn->nresults == 1 ? results[r][0] : NULL;
      IVal **res = t && t->kind == IV_TUPLE ? t->elems : results[r];
      CHECK(lit_is_f(res[0], 2, sums));
      CHECK(lit_is_f(res[1], 4, gathered));
      for (int i = 0; i < fn->nresults; i++) ival_release(results[r][i]);
      free(results[r]);
    }
  }
  xlac_program_destroy(pm);
  xlac_program_destroy(ph);
  xlac_program_destroy(p);
}

/* ---- shapes, linear algebra, branches, calls, the generic op ---- */

static bool misc_ok(IVal **r) {
  /* x = [[1, 2, 3], [4, 5, 6]] */
  static const float xt[6] = {1, 4, 2, 5, 3, 6};              /* transpose */
  static const float sl[2] = {2, 5};                          /* x[:, 1:2] */
  static const float cat[12] = {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6};
  static const float pad[10] = {0, 1, 2, 3, 0, 0, 4, 5, 6, 0}; /* a zero each side of each row */
  static const float dot[4] = {14, 32, 32, 77};               /* x . x^T */
  static const float branch[2] = {-6, -15};                   /* if false: -rowsum */
  static const float call[6] = {2, 4, 6, 8, 10, 12};          /* twice(x) */
  static const float gen[6] = {2, 3, 4, 5, 6, 7};             /* generic stablehlo.add x + 1 */
  static const float conv[2] = {6, 15};                       /* 1x3 window of ones over rows */
  static const float gath[3] = {4, 5, 6};                     /* row 1 */
  static const float zeros3[3] = {0, 0, 0};                   /* row 1 broadcast, minus x, row 1 */
  return lit_is_f(r[0], 6, xt) && lit_is_f(r[1], 2, sl) && lit_is_f(r[2], 12, cat) && lit_is_f(r[3], 10, pad) &&
         lit_is_f(r[4], 4, dot) && lit_is_f(r[5], 2, branch) && lit_is_f(r[6], 6, call) &&
         lit_is_f(r[7], 6, gen) && lit_is_f(r[8], 2, conv) && lit_is_f(r[9], 3, gath) &&
         lit_is_f(r[10], 3, zeros3) && lit_is_f(r[11], 6, call) && lit_is_f(r[12], 6, call);
}

static void test_misc(void) {
  xlac_builder *b = NULL;
  OK(xlac_builder_create("misc", &b));
  xlac_func *sum = scalar_binary(b, "sum", XLAC_F32, xlac_op_add);
  int64_t dims[2] = {2, 3}, two = 2;

  /* a function to call: twice(v) = v + v */
  xlac_func *twice = NULL;
  xlac_value *tv, *tr;
  OK(xlac_func_create(b, "twice", &twice));
  OK(xlac_func_param(twice, XLAC_F32, dims, 2, "v", &tv));
  OK(xlac_op_add(twice, tv, tv, &tr));
  OK(xlac_func_return(twice, &tr, 1));

  /* branches taking (x, zero): row sums, or their negation */
  xlac_func *br[2];
  for (int k = 0; k < 2; k++) {
    xlac_value *bx, *bz, *rs, *neg;
    int64_t d1 = 1;
    OK(xlac_computation_create(b, k ? "neg_rowsum" : "rowsum", &br[k]));
    OK(xlac_func_param(br[k], XLAC_F32, dims, 2, "x", &bx));
    OK(xlac_func_param(br[k], XLAC_F32, NULL, 0, "zero", &bz));
    OK(xlac_op_reduce(br[k], &bx, &bz, 1, &d1, 1, sum, &rs));
    if (k) OK(xlac_op_neg(br[k], rs, &neg));
    OK(xlac_func_return(br[k], k ? &neg : &rs, 1));
  }

  xlac_func *f = NULL;
  xlac_value *x, *r[13];
  OK(xlac_func_create(b, "main", &f));
  OK(xlac_func_param(f, XLAC_F32, dims, 2, "x", &x));
  int64_t perm[2] = {1, 0};
  OK(xlac_op_transpose(f, x, perm, &r[0]));
  int64_t st[2] = {0, 1}, lim[2] = {2, 2};
  OK(xlac_op_slice(f, x, st, lim, NULL, &r[1]));
  xlac_value *xx[2] = {x, x};
  OK(xlac_op_concatenate(f, xx, 2, 0, &r[2]));
  xlac_value *zero, *one, *pred;
  OK(xlac_op_constant_f(f, XLAC_F32, 0, &zero));
  int64_t lo[2] = {0, 1}, hi[2] = {0, 1};
  OK(xlac_op_pad(f, x, zero, lo, hi, NULL, &r[3]));
  int64_t lc = 1, rc = 1;
  xlac_dot_dims dd = {NULL, NULL, 0, &lc, &rc, 1};
  OK(xlac_op_dot_general(f, x, x, &dd, &r[4]));
  uint8_t no = 0;
  OK(xlac_op_constant(f, XLAC_PRED, NULL, 0, &no, 1, &pred));
  xlac_value *bops[2] = {x, zero};
  OK(xlac_op_if(f, pred, br[0], br[1], bops, 2, &r[5]));
  OK(xlac_op_call(f, twice, &x, 1, &r[6]));
  /* the generic entry: an HLO opcode, attributes as text */
  OK(xlac_op_constant_f(f, XLAC_F32, 1, &one));
  xlac_value *ones, *gops[2];
  int n = -1;
  OK(xlac_op(f, "broadcast", &one, 1, "{broadcast_dimensions = array<i64>}", "tensor<2x3xf32>", NULL, 0, &ones, 1,
             &n));
  CHECK_EQ_I(n, 1);
  gops[0] = x;
  gops[1] = ones;
  OK(xlac_op(f, "stablehlo.add", gops, 2, NULL, NULL, NULL, 0, &r[7], 1, &n));
  /* convolution: [1, 1, 2, 3] input (NCHW) with a [1, 1, 1, 3] kernel of ones */
  int64_t in4[4] = {1, 1, 2, 3}, k4[4] = {1, 1, 1, 3};
  xlac_value *img, *ker, *cv;
  OK(xlac_op_reshape(f, x, in4, 4, &img));
  float kv[3] = {1, 1, 1};
  OK(xlac_op_constant(f, XLAC_F32, k4, 4, kv, sizeof kv, &ker));
  OK(xlac_op_convolution(f, img, ker, NULL, NULL, &cv));
  xlac_shape sh;
  OK(xlac_value_shape(cv, &sh));
  CHECK(sh.rank == 4 && sh.dims[0] == 1 && sh.dims[1] == 1 && sh.dims[2] == 2 && sh.dims[3] == 1);
  OK(xlac_op_reshape(f, cv, &two, 1, &r[8]));
  /* gather row 1 */
  xlac_value *row;
  int32_t ri = 1;
  int64_t one_d = 1;
  OK(xlac_op_constant(f, XLAC_S32, &one_d, 1, &ri, sizeof ri, &row));
  int64_t offs = 0, coll = 0, smap = 0, sizes[2] = {1, 3};
  xlac_gather_dims gd = {&offs, 1, &coll, 1, NULL, 0, NULL, 0, &smap, 1, 0};
  OK(xlac_op_gather(f, x, row, &gd, sizes, &r[9]));
  /* numpy's broadcasting rule by default: a row to every row */
  xlac_value *rowb, *same;
  OK(xlac_op_broadcast_in_dim(f, r[9], dims, 2, NULL, &rowb));
  OK(xlac_op_sub(f, rowb, x, &same));
  OK(xlac_op_slice(f, same, (int64_t[]){1, 0}, dims, NULL, &r[10]));
  /* the generic entry with a callee and with a computation */
  OK(xlac_op(f, "func.call", &x, 1, "{callee = @twice}", NULL, NULL, 0, &r[11], 1, &n));
  OK(xlac_op(f, "stablehlo.map", xx, 2, "{dimensions = array<i64: 0, 1>}", NULL, &sum, 1, &r[12], 1, &n));
  OK(xlac_func_return(f, r, 13));
  xlac_program *p = NULL;
  OK(xlac_builder_build(b, "main", &p));
  xlac_builder_destroy(b);
  if (!p) return;
  float xv[6] = {1, 2, 3, 4, 5, 6};
  IVal *arg = f32_val(2, dims, xv);
  run_all(p, 1, &arg, 13, misc_ok);
  ival_release(arg);
  xlac_program_destroy(p);
}

/* ---- case, scatter, dynamic slices, the builder going on after build ---- */

static bool more_ok(IVal **r) {
  static const float c2[3] = {30, 30, 30};        /* branch 2 (index out of range: the last) */
  static const float sc[4] = {1, 12, 3, 14};      /* x + updates at [1] and [3] */
  static const float ds[2] = {3, 4};              /* x[2:4] */
  static const float dus[4] = {1, 7, 7, 4};       /* x with [7, 7] at 1 */
  return lit_is_f(r[0], 3, c2) && lit_is_f(r[1], 4, sc) && lit_is_f(r[2], 2, ds) && lit_is_f(r[3], 4, dus);
}

static void test_more(void) {
  xlac_builder *b = NULL;
  OK(xlac_builder_create(NULL, &b));
  int64_t three = 3, four = 4, two = 2;
  xlac_func *br[3];
  for (int k = 0; k < 3; k++) {
    char name[16];
    snprintf(name, sizeof name, "b%d", k);
    xlac_value *c;
    OK(xlac_computation_create(b, name, &br[k]));
    float v[3] = {10.0f * (float)(k + 1), 10.0f * (float)(k + 1), 10.0f * (float)(k + 1)};
    OK(xlac_op_constant(br[k], XLAC_F32, &three, 1, v, sizeof v, &c));
    OK(xlac_func_return(br[k], &c, 1));
  }
  xlac_func *sum = scalar_binary(b, "sum", XLAC_F32, xlac_op_add);
  xlac_func *f = NULL;
  xlac_value *x, *r[4], *idx;
  OK(xlac_func_create(b, "main", &f));
  OK(xlac_func_param(f, XLAC_F32, &four, 1, "x", &x));
  OK(xlac_op_constant_i(f, XLAC_S32, 7, &idx));
  OK(xlac_op_case(f, idx, br, 3, NULL, 0, &r[0]));
  /* scatter-add [10, 10] at indices [[1], [3]] */
  int32_t iv[2] = {1, 3};
  int64_t idims[2] = {2, 1};
  float uv[2] = {10, 10};
  xlac_value *ind, *upd;
  OK(xlac_op_constant(f, XLAC_S32, idims, 2, iv, sizeof iv, &ind));
  OK(xlac_op_constant(f, XLAC_F32, &two, 1, uv, sizeof uv, &upd));
  int64_t ins = 0, s2o = 0;
  xlac_scatter_dims sd = {NULL, 0, &ins, 1, NULL, 0, NULL, 0, &s2o, 1, 1};
  OK(xlac_op_scatter(f, &x, 1, ind, &upd, &sd, sum, &r[1]));
  xlac_value *start, *start1, *sevens;
  OK(xlac_op_constant_i(f, XLAC_S32, 2, &start));
  OK(xlac_op_dynamic_slice(f, x, &start, &two, &r[2]));
  OK(xlac_op_constant_i(f, XLAC_S32, 1, &start1));
  float sv[2] = {7, 7};
  OK(xlac_op_constant(f, XLAC_F32, &two, 1, sv, sizeof sv, &sevens));
  OK(xlac_op_dynamic_update_slice(f, x, sevens, &start1, &r[3]));
  OK(xlac_func_return(f, r, 4));
  xlac_program *p = NULL;
  OK(xlac_builder_build(b, "main", &p));
  if (p) {
    float xv[4] = {1, 2, 3, 4};
    IVal *arg = f32_val(1, &four, xv);
    run_all(p, 1, &arg, 4, more_ok);
    ival_release(arg);
    xlac_program_destroy(p);
  }

  /* the builder goes on: another function, another program */
  xlac_func *g = NULL;
  xlac_value *y, *yy;
  OK(xlac_func_create(b, "double_it", &g));
  OK(xlac_func_param(g, XLAC_F32, &four, 1, "y", &y));
  OK(xlac_op_add(g, y, y, &yy));
  OK(xlac_func_return(g, &yy, 1));
  ERR(xlac_builder_build(b, "double_it", &p), XLAC_INVALID_ARGUMENT, "'main'");
  xlac_builder_destroy(b);
}

/* ---- errors ---- */

static void test_errors(void) {
  xlac_builder *b = NULL, *other = NULL;
  xlac_func *f = NULL, *g = NULL, *h = NULL;
  xlac_value *x3, *x4, *i4, *o, *out = NULL;
  int64_t three = 3, four = 4;
  OK(xlac_builder_create("errors", &b));
  OK(xlac_func_create(b, "main", &f));
  OK(xlac_func_param(f, XLAC_F32, &three, 1, "a", &x3));
  OK(xlac_func_param(f, XLAC_F32, &four, 1, "b", &x4));
  OK(xlac_func_param(f, XLAC_S32, &four, 1, "c", &i4));

  /* mismatched operands: the op, the operand, both types */
  ERR(xlac_op_add(f, x4, x3, &out), XLAC_INVALID_ARGUMENT,
      "stablehlo.add: operand 1 has type tensor<3xf32>, expected tensor<4xf32> like operand 0");
  CHECK(out == NULL);
  ERR(xlac_op_select(f, x4, x4, i4, &out), XLAC_INVALID_ARGUMENT, "stablehlo.select: operand 2 has type tensor<4xi32>");
  /* what only the verifier knows, in its words, under the op's name */
  ERR(xlac_op_and(f, x4, x4, &out), XLAC_INVALID_ARGUMENT, "stablehlo.and: ", "operand #0");
  ERR(xlac_op_sqrt(f, i4, &out), XLAC_INVALID_ARGUMENT, "stablehlo.sqrt: ");
  int64_t bad_perm[1] = {1};
  ERR(xlac_op_transpose(f, x4, bad_perm, &out), XLAC_INVALID_ARGUMENT, "stablehlo.transpose: ", "permutation");
  int64_t lc = 0, rc = 0;
  xlac_dot_dims dd = {NULL, NULL, 0, &lc, &rc, 1};
  ERR(xlac_op_dot_general(f, x3, x4, &dd, &out), XLAC_INVALID_ARGUMENT, "stablehlo.dot_general: ", "contracting");
  int64_t six = 6;
  ERR(xlac_op_reshape(f, x4, &six, 1, &out), XLAC_INVALID_ARGUMENT, "stablehlo.reshape: ", "number of elements");

  /* bad attribute text: where, with a caret */
  xlac_value *ops2[2] = {x4, x4};
  ERR(xlac_op(f, "stablehlo.concatenate", ops2, 2, "{dimension = }", NULL, NULL, 0, &out, 1, NULL),
      XLAC_INVALID_ARGUMENT, "stablehlo.concatenate: bad attributes", "{dimension = }\n", "^");
  ERR(xlac_op(f, "stablehlo.concatenate", ops2, 2, "{dimension = 0 : i64} junk", NULL, NULL, 0, &out, 1, NULL),
      XLAC_INVALID_ARGUMENT, "stablehlo.concatenate: bad attributes");
  ERR(xlac_op(f, "stablehlo.concatenate", ops2, 2, "{dimension = 3 : i64}", NULL, NULL, 0, &out, 1, NULL),
      XLAC_INVALID_ARGUMENT, "stablehlo.concatenate: ", "dimension 3");
  OK(xlac_op(f, "stablehlo.concatenate", ops2, 2, "{dimension = 0 : i64}", NULL, NULL, 0, &o, 1, NULL));
  xlac_shape sh;
  OK(xlac_value_shape(o, &sh));
  CHECK(sh.rank == 1 && sh.dims[0] == 8);
  ERR(xlac_op(f, "stablehlo.add", ops2, 2, NULL, "tensor<4xf32", NULL, 0, &out, 1, NULL), XLAC_INVALID_ARGUMENT,
      "stablehlo.add: bad result types");
  ERR(xlac_op(f, "stablehlo.add", ops2, 2, NULL, "tensor<5xf32>", NULL, 0, &out, 1, NULL), XLAC_INVALID_ARGUMENT,
      "stablehlo.add: ");
  ERR(xlac_op(f, "stablehlo.add", ops2, 2, NULL, NULL, NULL, 0, &out, 0, NULL), XLAC_INVALID_ARGUMENT,
      "stablehlo.add: the op has 1 results, but outs has room for 0");
  ERR(xlac_op(f, "stablehlo.custom_call", ops2, 2, "{call_target_name = \"x\"}", NULL, NULL, 0, &out, 1, NULL),
      XLAC_INVALID_ARGUMENT, "stablehlo.custom_call: give the result types");

  /* unknown op names */
  ERR(xlac_op(f, "stablehlo.frobnicate", ops2, 2, NULL, NULL, NULL, 0, &out, 1, NULL), XLAC_NOT_FOUND,
      "unknown op 'stablehlo.frobnicate'");
  ERR(xlac_op(f, NULL, ops2, 2, NULL, NULL, NULL, 0, &out, 1, NULL), XLAC_INVALID_ARGUMENT, "op name is NULL");
  ERR(xlac_op(f, "stablehlo.return", ops2, 1, NULL, NULL, NULL, 0, &out, 1, NULL), XLAC_INVALID_ARGUMENT,
      "xlac_func_return");

  /* values of another builder, another function */
  xlac_func *of = NULL;
  xlac_value *ov;
  OK(xlac_builder_create(NULL, &other));
  OK(xlac_func_create(other, "main", &of));
  OK(xlac_func_param(of, XLAC_F32, &four, 1, "v", &ov));
  ERR(xlac_op_add(f, x4, ov, &out), XLAC_INVALID_ARGUMENT, "stablehlo.add: operand 1 belongs to another builder");
  ERR(xlac_op_add(of, ov, ov, NULL), XLAC_INVALID_ARGUMENT, "stablehlo.add: out is NULL");
  OK(xlac_func_create(b, "helper", &g));
  ERR(xlac_op_neg(g, x4, &out), XLAC_INVALID_ARGUMENT,
      "stablehlo.negate: operand 0 is a value of function 'main', not of 'helper'");
  ERR(xlac_func_return(g, &x4, 1), XLAC_INVALID_ARGUMENT, "value 0 is a value of function 'main'");

  /* NULL arguments */
  ERR(xlac_op_add(NULL, x4, x4, &out), XLAC_INVALID_ARGUMENT, "stablehlo.add: the function is NULL");
  ERR(xlac_op_add(f, x4, NULL, &out), XLAC_INVALID_ARGUMENT, "stablehlo.add: operand 1 is NULL");
  ERR(xlac_op_concatenate(f, NULL, 2, 0, &out), XLAC_INVALID_ARGUMENT, "stablehlo.concatenate: the operand array is NULL");
  ERR(xlac_builder_create(NULL, NULL), XLAC_INVALID_ARGUMENT, "out_builder is NULL");
  xlac_builder *none = b;
  ERR(xlac_builder_create("no spaces", &none), XLAC_INVALID_ARGUMENT, "invalid module name");
  CHECK(none == NULL);
  ERR(xlac_func_create(NULL, "f", &h), XLAC_INVALID_ARGUMENT, "the builder is NULL");
  ERR(xlac_func_create(b, "main", &h), XLAC_INVALID_ARGUMENT, "already has a function named 'main'");
  ERR(xlac_func_create(b, NULL, &h), XLAC_INVALID_ARGUMENT, "name is NULL");
  ERR(xlac_func_param(f, XLAC_F32, NULL, 1, "p", &out), XLAC_INVALID_ARGUMENT, "dims is NULL");
  ERR(xlac_func_param(f, (xlac_type)99, NULL, 0, "p", &out), XLAC_INVALID_ARGUMENT, "invalid element type");
  ERR(xlac_func_param_text(f, "tensor<2xfoo>", "p", &out), XLAC_INVALID_ARGUMENT, "bad type");
  ERR(xlac_op_constant(f, XLAC_F32, &four, 1, NULL, 16, &out), XLAC_INVALID_ARGUMENT, "stablehlo.constant: data is NULL");
  float three_floats[3] = {0};
  ERR(xlac_op_constant(f, XLAC_F32, &four, 1, three_floats, sizeof three_floats, &out), XLAC_INVALID_ARGUMENT,
      "stablehlo.constant: data has 12 bytes, tensor<4xf32> needs 16");
  ERR(xlac_op_compare(f, x4, x4, (xlac_comparison)17, &out), XLAC_INVALID_ARGUMENT, "invalid comparison direction");
  ERR(xlac_value_shape(NULL, &sh), XLAC_INVALID_ARGUMENT, "the value is NULL");
  /* a tuple parameter: no xlac_shape, but its elements have one */
  xlac_value *tup, *el;
  OK(xlac_func_param_text(f, "tuple<tensor<4xf32>, !stablehlo.token>", "t", &tup));
  ERR(xlac_value_shape(tup, &sh), XLAC_INVALID_ARGUMENT, "tuple<tensor<4xf32>, !stablehlo.token>");
  OK(xlac_op_get_tuple_element(f, tup, 1, &el));
  OK(xlac_value_shape(el, &sh));
  CHECK(sh.type == XLAC_TOKEN && sh.rank == 0);
  ERR(xlac_op_get_tuple_element(f, tup, 2, &el), XLAC_INVALID_ARGUMENT, "stablehlo.get_tuple_element: index 2");
  ERR(xlac_builder_build(b, NULL, NULL), XLAC_INVALID_ARGUMENT, "out_program is NULL");

  /* computations: unfinished, the wrong arity, in place of a function */
  xlac_func *c = NULL;
  xlac_value *ca, *cb, *cs, *z, *red;
  OK(xlac_computation_create(b, "sum", &c));
  OK(xlac_func_param(c, XLAC_F32, NULL, 0, "a", &ca));
  OK(xlac_func_param(c, XLAC_F32, NULL, 0, "b", &cb));
  OK(xlac_op_constant_f(f, XLAC_F32, 0, &z));
  int64_t d0 = 0;
  ERR(xlac_op_reduce(f, &x4, &z, 1, &d0, 1, c, &red), XLAC_FAILED_PRECONDITION,
      "stablehlo.reduce: computation 0 ('sum') has not returned yet");
  OK(xlac_op_add(c, ca, cb, &cs));
  OK(xlac_func_return(c, &cs, 1));
  ERR(xlac_op_add(c, ca, cb, &cs), XLAC_FAILED_PRECONDITION, "function 'sum' has already returned");
  ERR(xlac_op_reduce(f, &i4, &z, 1, &d0, 1, c, &red), XLAC_INVALID_ARGUMENT, "stablehlo.reduce: ");
  ERR(xlac_op_reduce(f, &x4, &z, 1, &d0, 1, f, &red), XLAC_INVALID_ARGUMENT, "computation 0 is the function 'main'");
  OK(xlac_op_reduce(f, &x4, &z, 1, &d0, 1, c, &red));
  ERR(xlac_op_call(f, c, &x4, 1, &out), XLAC_INVALID_ARGUMENT, "'sum' is a computation");
  xlac_value *pr;
  uint8_t t = 1;
  OK(xlac_op_constant(f, XLAC_PRED, NULL, 0, &t, 1, &pr));
  ERR(xlac_op_if(f, pr, c, c, &x4, 1, &out), XLAC_INVALID_ARGUMENT,
      "stablehlo.if: computation 0 ('sum') takes 2 parameters, but the op passes it 1");
  ERR(xlac_op(f, "stablehlo.if", &pr, 1, NULL, NULL, (xlac_func *[]){c, c}, 2, &out, 1, NULL), XLAC_INVALID_ARGUMENT,
      "takes 2 parameters, but the op's regions take 0");

  /* building: unfinished functions, unknown entries */
  ERR(xlac_builder_build(b, "main", &(xlac_program *){NULL}), XLAC_FAILED_PRECONDITION,
      "function 'main' has not returned");
  OK(xlac_func_return(f, &red, 1));
  ERR(xlac_builder_build(b, "main", &(xlac_program *){NULL}), XLAC_FAILED_PRECONDITION,
      "function 'helper' has not returned");
  xlac_value *hv;
  OK(xlac_op_constant_f(g, XLAC_F32, 1, &hv));
  OK(xlac_func_return(g, &hv, 1));
  ERR(xlac_builder_build(b, "nothing", &(xlac_program *){NULL}), XLAC_NOT_FOUND, "no function 'nothing'");
  ERR(xlac_builder_build(b, "sum", &(xlac_program *){NULL}), XLAC_NOT_FOUND, "'sum' is a computation");

  /* after all those failures the builder builds what succeeded */
  xlac_program *p = NULL;
  OK(xlac_builder_build(b, "main", &p));
  if (p) {
    char *text = print(p, XLAC_FORMAT_STABLEHLO);
    CHECK(text && strstr(text, "func.func private @helper") && !strstr(text, "@sum"));
    xlac_free(text);
    xlac_program_destroy(p);
  }
  xlac_builder_destroy(b);
  xlac_builder_destroy(other);
  xlac_builder_destroy(NULL);
}

/* ---- every op of the op table through the generic entry ----
 * Each name (and HLO opcode) is found, and whatever the operands, the op
 * is either added or refused with a message that starts with its name;
 * the ops that were added make a module that verifies as a whole. */
static void test_every_op(void) {
  xlac_builder *b = NULL;
  xlac_func *f = NULL;
  xlac_value *x, *y, *p, *outs[8];
  int64_t four = 4;
  OK(xlac_builder_create(NULL, &b));
  xlac_func *sum = scalar_binary(b, "sum", XLAC_F32, xlac_op_add);
  OK(xlac_func_create(b, "main", &f));
  OK(xlac_func_param(f, XLAC_F32, &four, 1, "x", &x));
  OK(xlac_func_param(f, XLAC_F32, &four, 1, "y", &y));
  OK(xlac_func_param(f, XLAC_PRED, &four, 1, "p", &p));
  xlac_value *sets[4][3] = {{0}, {x}, {x, y}, {p, x, y}};
  const char *types[2] = {NULL, "tensor<4xf32>"};
  int added = 0, refused = 0, bad = 0;
  for (int k = 0; k < OP_COUNT; k++) {
    if (op_has_flag((OpKind)k, OPF_TERM)) continue;
    const char *names[2] = {op_info[k].name, op_info[k].hlo_name};
    for (int which = 0; which < 2; which++) {
      if (!names[which]) continue;
      for (int nops = 0; nops < 4; nops++)
        for (int t = 0; t < 2; t++)
          for (int withcomp = 0; withcomp < 2; withcomp++) {
            int n = -1;
            xlac_status *s = xlac_op(f, names[which], sets[nops], nops, NULL, types[t], withcomp ? &sum : NULL,
                                     withcomp, outs, 8, &n);
            if (!s) {
              added++;
              continue;
            }
            refused++;
            const char *msg = xlac_status_message(s);
            if (strncmp(msg, op_info[k].name, strlen(op_info[k].name)) != 0 || xlac_status_code(s) == XLAC_NOT_FOUND) {
              bad++;
              fprintf(stderr, "test_builder.c: %s with %d operands: %s\n", names[which], nops, msg);
            }
            xlac_status_destroy(s);
          }
    }
  }
  CHECK(added > 0 && refused > 0);
  CHECK_EQ_I(bad, 0);
  OK(xlac_func_return(f, &x, 1));
  xlac_program *prog = NULL;
  OK(xlac_builder_build(b, "main", &prog));
  xlac_program_destroy(prog);
  xlac_builder_destroy(b);
}

/* ---- running out of memory: a status, then only destroy works ---- */
static void test_oom(void) {
  xlac_builder *b = NULL;
  xlac_func *f = NULL;
  xlac_value *x, *out = NULL;
  int64_t n = (int64_t)1 << 21, four = 4;
  OK(xlac_builder_create(NULL, &b));
  OK(xlac_func_create(b, "main", &f));
  OK(xlac_func_param(f, XLAC_F32, &four, 1, "x", &x));
  float *big = calloc((size_t)n, sizeof(float));
  alloc_limit_set((size_t)1 << 20);
  ERR(xlac_op_constant(f, XLAC_F32, &n, 1, big, sizeof(float) * (size_t)n, &out), XLAC_OUT_OF_MEMORY,
      "stablehlo.constant: out of memory", "can only be destroyed");
  alloc_limit_set(0);
  free(big);
  CHECK(out == NULL);
  ERR(xlac_op_add(f, x, x, &out), XLAC_FAILED_PRECONDITION, "stablehlo.add: ", "ran out of memory earlier");
  ERR(xlac_builder_build(b, "main", &(xlac_program *){NULL}), XLAC_FAILED_PRECONDITION, "ran out of memory");
  xlac_builder_destroy(b);
  /* diagnostics are back where they were: a new builder reports as before */
  OK(xlac_builder_create(NULL, &b));
  OK(xlac_func_create(b, "main", &f));
  OK(xlac_func_param(f, XLAC_F32, &four, 1, "x", &x));
  ERR(xlac_op_and(f, x, x, &out), XLAC_INVALID_ARGUMENT, "stablehlo.and: ");
  xlac_builder_destroy(b);
}

int main(void) {
  test_axpy();
  test_reduce();
  test_while();
  test_sort();
  test_custom_call();
  test_collectives();
  test_misc();
  test_more();
  test_errors();
  test_every_op();
  test_oom();
  TEST_SUMMARY();
}
