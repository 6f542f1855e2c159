/* test_interp_control.c - control flow and check ops on hand-built IR.
   The programs use custom calls registered here for their arithmetic, so
   the test depends on no other op family. */
#include <stdlib.h>
#include <unistd.h>

#include "interp/checks.h"
#include "test_util.h"

static Module *M;
static Block *B; /* where new ops go */

static Type *sc(ElemType et) { return type_scalar(&M->arena, et); }
static Type *vec(ElemType et, int64_t n) { return type_tensor(&M->arena, et, 1, &n); }

static Op *add_op(OpKind k, int n, Value **opnds, int nres, Type **rt) {
  Op *op = op_new(M, k, n, opnds, nres, rt, SRCLOC_NONE);
  block_append(B, op);
  return op;
}

static Value *cc(const char *target, int n, Value **opnds, Type *rt) {
  Op *op = add_op(OP_CUSTOM_CALL, n, opnds, rt ? 1 : 0, rt ? &rt : NULL);
  op_set_attr(M, op, "call_target_name", attr_string(M, target, strlen(target)));
  return rt ? &op->res[0] : NULL;
}

static void ret(OpKind k, int n, Value **v) { add_op(k, n, v, 0, NULL); }

static Attr *dense_i64(int64_t v) {
  Literal *l = lit_new_in(&M->arena, sc(ET_S64));
  lit_set_i(l, 0, v);
  return attr_dense(M, l);
}

static Op *check_const(Value *v, int64_t want) {
  Op *op = add_op(OP_CHECK_EXPECT_EQ_CONST, 1, &v, 0, NULL);
  op_set_attr(M, op, "value", dense_i64(want));
  return op;
}

/* ---- host functions ---- */
static int64_t scalar_of(IVal *v) { return lit_get_i(v->lit, 0); }
static IVal *i64(int64_t x) {
  Arena a;
  arena_init(&a);
  Literal *l = lit_new(type_scalar(&a, ET_S64));
  arena_free(&a);
  lit_set_i(l, 0, x);
  return ival_tensor(l);
}
static bool h_const(Interp *I, Op *op, int na, IVal **a, int nr, IVal **r, void *u) {
  r[0] = i64((int64_t)(intptr_t)u);
  return true;
}
static bool h_inc(Interp *I, Op *op, int na, IVal **a, int nr, IVal **r, void *u) {
  r[0] = i64(scalar_of(a[0]) + 1);
  return true;
}
static bool h_lt10(Interp *I, Op *op, int na, IVal **a, int nr, IVal **r, void *u) {
  Literal *l = lit_new(op->res[0].type);
  lit_set_b(l, 0, scalar_of(a[0]) < 10);
  r[0] = ival_tensor(l);
  return true;
}

static char *run_main(int *run, int *failed, bool *ok) {
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  InterpOptions io = {NULL, true, out, NULL};
  Interp I;
  interp_init(&I, M, &io);
  Func *f = module_find_func(M, "main");
  IVal *res[4] = {0};
  *ok = interp_call(&I, f, 0, NULL, res);
  for (int i = 0; i < f->nresults; i++) ival_release(res[i]);
  fclose(out);
  *run = I.checks_run;
  *failed = I.checks_failed;
  return buf;
}

static void begin(void) {
  M = module_new();
  Func *f = func_new(M, "main", SRCLOC_NONE);
  B = f->body;
}

/* while (t.lt10(a)) a = BODY(a), from init, added to the current block */
static Op *while_lt10(Value *init, const char *body_fn) {
  Block *outer = B;
  Type *t64 = sc(ET_S64);
  Op *w = add_op(OP_WHILE, 1, &init, 1, &t64);
  Block *cond = block_new(M), *body = block_new(M);
  Value *ca = block_add_arg(M, cond, t64, "a"), *ba = block_add_arg(M, body, t64, "a");
  B = cond;
  Value *p = cc("t.lt10", 1, &ca, sc(ET_PRED));
  ret(OP_RETURN, 1, &p);
  B = body;
  Value *n = cc(body_fn, 1, &ba, t64);
  ret(OP_RETURN, 1, &n);
  op_add_region(M, w, cond);
  op_add_region(M, w, body);
  B = outer;
  return w;
}

static void test_while_if_case(void) {
  begin();
  Block *mainb = B;
  Value *zero = cc("t.const", 0, NULL, sc(ET_S64));
  /* while (x < 10) x = x + 1 */
  Type *t64 = sc(ET_S64);
  Op *w = while_lt10(zero, "t.inc");
  check_const(&w->res[0], 10);
  /* if (true) 1 else 2, via pred from lt10(0) */
  Value *pt = cc("t.lt10", 1, &zero, sc(ET_PRED));
  Value *wr = &w->res[0];
  Value *pf = cc("t.lt10", 1, &wr, sc(ET_PRED));
  Value *preds[2] = {pt, pf};
  for (int k = 0; k < 2; k++) {
    Op *iff = add_op(OP_IF, 1, &preds[k], 1, &t64);
    for (int r = 0; r < 2; r++) {
      Block *rb = block_new(M);
      B = rb;
      /* branches capture %zero from the enclosing block */
      Value *v = r == 0 ? zero : cc("t.inc", 1, &zero, t64);
      ret(OP_RETURN, 1, &v);
      op_add_region(M, iff, rb);
    }
    B = mainb;
    check_const(&iff->res[0], k == 0 ? 0 : 1);
  }
  /* case with index -1, 0, 1, 7: branches return 0, 1, 2 */
  int64_t idx[] = {-1, 0, 1, 7}, want[] = {2, 0, 1, 2};
  for (int k = 0; k < 4; k++) {
    Value *ix = cc("t.const", 0, NULL, sc(ET_S64));
    Op *src = ix->def;
    char name[32];
    snprintf(name, sizeof name, "t.const%d", k);
    op_set_attr(M, src, "call_target_name", attr_string(M, name, strlen(name)));
    interp_register_custom_call(name, h_const, (void *)(intptr_t)idx[k]);
    Type *t32 = t64;
    Op *cs = add_op(OP_CASE, 1, &ix, 1, &t32);
    for (int r = 0; r < 3; r++) {
      Block *rb = block_new(M);
      B = rb;
      Value *v = zero;
      for (int j = 0; j < r; j++) v = cc("t.inc", 1, &v, t64);
      ret(OP_RETURN, 1, &v);
      op_add_region(M, cs, rb);
    }
    B = mainb;
    check_const(&cs->res[0], want[k]);
  }
  ret(OP_FUNC_RETURN, 0, NULL);
  interp_register_custom_call("t.const", h_const, (void *)(intptr_t)0);
  int run, failed;
  bool ok;
  char *out = run_main(&run, &failed, &ok);
  CHECK(ok);
  CHECK_EQ_I(run, 7);
  CHECK_EQ_I(failed, 0);
  if (failed) fprintf(stderr, "%s", out);
  free(out);
  module_free(M);
}

static void test_calls(void) {
  begin();
  Block *mainb = B;
  Type *t64 = sc(ET_S64);
  Func *g = func_new(M, "inc_twice", SRCLOC_NONE);
  g->nresults = 1;
  g->result_types = &t64;
  B = g->body;
  Value *ga = block_add_arg(M, g->body, t64, "x");
  Value *g1 = cc("t.inc", 1, &ga, t64);
  Value *g2 = cc("t.inc", 1, &g1, t64);
  ret(OP_FUNC_RETURN, 1, &g2);
  B = mainb;
  Value *zero = cc("t.const", 0, NULL, t64);
  Op *call = add_op(OP_CALL, 1, &zero, 1, &t64);
  op_set_attr(M, call, "callee", attr_symbol(M, "inc_twice"));
  check_const(&call->res[0], 2);
  Value *cr = &call->res[0];
  Op *comp = add_op(OP_COMPOSITE, 1, &cr, 1, &t64);
  op_set_attr(M, comp, "name", attr_string(M, "my.op", 5));
  op_set_attr(M, comp, "decomposition", attr_symbol(M, "inc_twice"));
  check_const(&comp->res[0], 4);
  check_const(&comp->res[0], 5); /* fails */
  ret(OP_FUNC_RETURN, 0, NULL);
  int run, failed;
  bool ok;
  char *out = run_main(&run, &failed, &ok);
  CHECK(ok);
  CHECK_EQ_I(run, 2);
  CHECK_EQ_I(failed, 1);
  CHECK(strstr(out, "check.expect_eq_const failed at <unknown location>: value: got 4, expected 5") != NULL);
  free(out);
  module_free(M);

  /* unknown callee and unknown custom call target are runtime errors */
  begin();
  t64 = sc(ET_S64); /* the old module's types are gone */
  Value *z = cc("no.such.target", 0, NULL, t64);
  ret(OP_FUNC_RETURN, 1, &z);
  FILE *devnull = fopen("/dev/null", "w");
  diag_set_stream(devnull);
  out = run_main(&run, &failed, &ok);
  CHECK(!ok);
  free(out);
  module_free(M);
  diag_set_stream(NULL);
  fclose(devnull);
}

static Value *const_vec(ElemType et, int n, const double *v) {
  Op *op = add_op(OP_CUSTOM_CALL, 0, NULL, 1, (Type *[]){vec(et, n)});
  Literal *l = lit_new_in(&M->arena, vec(et, n));
  for (int i = 0; i < n; i++) lit_set_f(l, i, v[i]);
  char name[40];
  static int counter;
  snprintf(name, sizeof name, "t.lit%d", counter++);
  op_set_attr(M, op, "call_target_name", attr_string(M, name, strlen(name)));
  op_set_attr(M, op, "value", attr_dense(M, l));
  return &op->res[0];
}

static bool h_lit(Interp *I, Op *op, int na, IVal **a, int nr, IVal **r, void *u) {
  r[0] = ival_tensor(lit_clone(op_attr(op, "value")->lit));
  return true;
}

static void test_checks(void) {
  begin();
  double a[] = {5.0, NAN, -0.0, 1.0}, b[] = {5.0000024, NAN, 0.0, 1.0}, c[] = {5.1, NAN, 0.0, 1.0};
  Value *va = const_vec(ET_F32, 4, a), *vb = const_vec(ET_F32, 4, b), *vc = const_vec(ET_F32, 4, c);
  for (int k = 0; k < 3; k++) {
    char name[40];
    snprintf(name, sizeof name, "t.lit%d", k);
    interp_register_custom_call(name, h_lit, NULL);
  }
  Value *ab[2] = {va, vb}, *ac[2] = {va, vc}, *aa[2] = {va, va};
  add_op(OP_CHECK_EXPECT_ALMOST_EQ, 2, ab, 0, NULL); /* pass */
  add_op(OP_CHECK_EXPECT_ALMOST_EQ, 2, ac, 0, NULL); /* fail: 5 vs 5.1 */
  add_op(OP_CHECK_EXPECT_EQ, 2, aa, 0, NULL);        /* pass: NaN == NaN here */
  add_op(OP_CHECK_EXPECT_EQ, 2, ab, 0, NULL);        /* fail: 5 vs 5.00005 and -0 vs 0 */
  Op *cl = add_op(OP_CHECK_EXPECT_CLOSE, 2, ab, 0, NULL); /* 5.0000024f is 5 ulps from 5: fails by default */
  (void)cl;
  Op *cl2 = add_op(OP_CHECK_EXPECT_CLOSE, 2, ab, 0, NULL);
  op_set_attr(M, cl2, "max_ulp_difference", attr_int(M, 10, NULL)); /* pass */
  Value *eqr = cc("check.eq", 2, aa, sc(ET_PRED));
  (void)eqr;
  cc("check.expect_almost_eq", 2, ab, NULL); /* pass */
  ret(OP_FUNC_RETURN, 0, NULL);
  int run, failed;
  bool ok;
  char *out = run_main(&run, &failed, &ok);
  CHECK(ok);
  CHECK_EQ_I(run, 5);
  CHECK_EQ_I(failed, 3);
  CHECK(strstr(out, "check.expect_almost_eq failed at <unknown location>: element [0]: got 5.0, expected 5.1"));
  CHECK(strstr(out, "check.expect_eq failed at <unknown location>: element [0]: got 5.0, expected 5.0000024 (2 of 4 elements differ)\n  element [2]: got -0.0 (0x80000000), expected 0.0"));
  CHECK(strstr(out, "ULP difference 5 (allowed 0..1)"));
  if (failed != 3) fprintf(stderr, "%s", out);
  free(out);
  module_free(M);
}

static void test_probe(void) {
  begin();
  double a[] = {1.5, -2.0};
  Value *va = const_vec(ET_BF16, 2, a);
  interp_register_custom_call("t.lit3", h_lit, NULL);
  Type *t = vec(ET_BF16, 2);
  for (int k = 0; k < 2; k++) {
    Op *p = add_op(OP_INTERP_PROBE, 1, &va, 1, &t);
    op_set_attr(M, p, "probe_id", attr_string(M, "p,1", 3));
  }
  Op *s = add_op(OP_CHECK_EXPECT_SERIALIZED_EQ, 1, &va, 0, NULL);
  op_set_attr(M, s, "probe_id", attr_string(M, "p,1", 3));
  op_set_attr(M, s, "iter", attr_int(M, 1, NULL));
  s = add_op(OP_CHECK_EXPECT_SERIALIZED_EQ, 1, &va, 0, NULL); /* no iteration 2: fails */
  op_set_attr(M, s, "probe_id", attr_string(M, "p,1", 3));
  op_set_attr(M, s, "iter", attr_int(M, 2, NULL));
  add_op(OP_INTERP_PRINT, 1, &va, 0, NULL);
  ret(OP_FUNC_RETURN, 0, NULL);
  int run, failed;
  bool ok;
  char *out = run_main(&run, &failed, &ok);
  CHECK(ok);
  CHECK_EQ_I(run, 1);
  CHECK_EQ_I(failed, 1);
  CHECK(strstr(out, "no value was recorded for probe 'p,1' (iteration 2)"));
  CHECK(strstr(out, "tensor<2xbf16> = [1.5, -2]"));
  free(out);
  module_free(M);
}

/* The cancellation hook: a loop that never ends stops once the flag is
   raised (here by the body itself, after three iterations, as a timer
   thread would at any point), the error is reported once, and a later run
   with the flag still up stops at once without a second report. */
static int cancel_iters;
static bool h_raise_at3(Interp *I, Op *op, int na, IVal **a, int nr, IVal **r, void *u) {
  if (++cancel_iters == 3) atomic_store(&((InterpCancel *)u)->stop, 1);
  r[0] = ival_retain(a[0]);
  return true;
}

static void test_cancel(void) {
  static InterpCancel cancel = {.reason = "stopped by the test"};
  interp_register_custom_call("t.raise_at3", h_raise_at3, &cancel);
  begin();
  Value *zero = cc("t.const", 0, NULL, sc(ET_S64));
  while_lt10(zero, "t.raise_at3"); /* the body never changes what lt10 sees: 0 < 10 */
  ret(OP_RETURN, 0, NULL);
  for (int k = 0; k < 2; k++) {
    InterpOptions io = {NULL, true, stdout, &cancel};
    Interp I;
    interp_init(&I, M, &io);
    bool ok = interp_call(&I, module_find_func(M, "main"), 0, NULL, NULL);
    CHECK(!ok && I.failed);
    CHECK_EQ_I(cancel_iters, 3);
    CHECK_EQ_I(atomic_load(&cancel.reported), 1);
  }
  module_free(M);
}

int main(void) {
  interp_register_custom_call("t.const", h_const, (void *)(intptr_t)0);
  interp_register_custom_call("t.inc", h_inc, NULL);
  interp_register_custom_call("t.lt10", h_lt10, NULL);
  test_while_if_case();
  test_calls();
  test_checks();
  test_probe();
  test_cancel();
  TEST_SUMMARY();
}
