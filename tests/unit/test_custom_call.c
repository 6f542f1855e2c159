/*
 * test_custom_call.c - custom calls into host functions registered through
 * the public registry (xlac_custom_call_register*), in the interpreter and
 * in compiled code: exact results, the descriptors a host function sees
 * (types, dims, backend_config, attributes, device ids), layouts, tuples,
 * the built-in annotation targets, and the failures: a host function's
 * error status, a classic status failure, an unregistered target at compile
 * time, bad registrations.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "frontends/hlo/hlo.h"
#include "test_module.h"
#include "test_util.h"
#include "xlac/xlac.h"

/* ---- capturing diagnostics ---- */

static char diags[8192];

static void hook(DiagLevel lvl, SrcLoc loc, const char *msg, void *ud) {
  (void)lvl;
  (void)loc;
  (void)ud;
  size_t n = strlen(diags);
  snprintf(diags + n, sizeof diags - n, "%s\n", msg);
}

static void capture(void) {
  diags[0] = 0;
  diag_set_hook(hook, NULL);
}

static void release(void) { diag_set_hook(NULL, NULL); }

/* ---- running a program on either backend ---- */

typedef struct Run {
  Module *m;
  CpuExecutable *exe;
  IVal **res;
  int nres;
  bool ok;
} Run;

static Module *parse_hlo(const char *text) {
  int fid = src_add("test.hlo", text, strlen(text));
  Module *m = fid >= 0 ? hlo_parse(fid, 0, strlen(text)) : NULL;
  if (m && !verify_module(m)) {
    module_free(m);
    return NULL;
  }
  return m;
}

/* Parses text (HLO when it starts with "HloModule") and runs its entry on
   args (borrowed) with the interpreter (cpu false) or compiled; *fallback
   (may be NULL) gets the thunk count. */
static Run run(const char *text, bool cpu, int nargs, IVal **args, int *fallback) {
  Run r = {0};
  r.m = strncmp(text, "HloModule", 9) == 0 ? parse_hlo(text) : parse(text);
  if (!r.m) return r;
  Func *f = module_entry(r.m);
  Interp I;
  InterpOptions io = {0};
  io.quiet_checks = true;
  interp_init(&I, r.m, &io);
  r.nres = f->nresults;
  r.res = calloc((size_t)r.nres + 1, sizeof(IVal *));
  if (cpu) {
    CpuOptions o = {0};
    o.threads = 1;
    r.exe = cpu_compile(r.m, f, &o);
    if (!r.exe) return r;
    if (fallback) *fallback = cpu_executable_stats(r.exe)->fallback_ops;
    r.ok = cpu_execute(r.exe, &I, nargs, args, r.res);
  } else {
    r.ok = interp_call(&I, f, nargs, args, r.res);
  }
  return r;
}

static void run_free(Run *r) {
  for (int i = 0; r->res && i < r->nres; i++) ival_release(r->res[i]);
  free(r->res);
  cpu_executable_free(r->exe);
  module_free(r->m);
  memset(r, 0, sizeof *r);
}

static Arena types; /* the argument types */

static IVal *f32s(int n, const float *v) {
  int64_t d = n;
  Literal *l = lit_new(type_tensor(&types, ET_F32, 1, &d));
  memcpy(l->data, v, sizeof(float) * (size_t)n);
  return ival_tensor(l);
}

static const float *fdata(const IVal *v) { return (const float *)v->lit->data; }

/* ---- host functions ---- */

static int calls; /* how many times the host functions ran */
static char seen_config[256], seen_attrs[512];
static int seen_replica = -1, seen_partition = -1;

/* axpy: results[0] = a * x + y, a from backend_config "a=<float>". */
static xlac_status *h_axpy(void *user, const xlac_ffi_call *c) {
  calls++;
  if (c->num_args != 2 || c->num_results != 1)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "axpy: %d args, %d results", c->num_args, c->num_results);
  const xlac_ffi_buffer *x = &c->args[0], *y = &c->args[1], *r = &c->results[0];
  if (x->type != XLAC_F32 || y->type != XLAC_F32 || r->type != XLAC_F32 || x->rank != 1 || r->rank != 1 ||
      x->dims[0] != r->dims[0])
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "axpy: unexpected types");
  snprintf(seen_config, sizeof seen_config, "%.*s", (int)c->backend_config_len, c->backend_config);
  snprintf(seen_attrs, sizeof seen_attrs, "%s", c->attributes);
  seen_replica = c->replica_id;
  seen_partition = c->partition_id;
  float a = 1;
  if (strncmp(c->backend_config, "a=", 2) == 0) a = strtof(c->backend_config + 2, NULL);
  float scale = user ? *(const float *)user : 1.0f;
  const float *xs = x->data, *ys = y->data;
  float *out = r->data;
  for (int64_t i = 0; i < x->dims[0]; i++) out[i] = scale * (a * xs[i] + ys[i]);
  return NULL;
}

static xlac_status *h_fail(void *user, const xlac_ffi_call *c) {
  calls++;
  return xlac_status_create(XLAC_INTERNAL, "the host function gave up (%d)", 42);
}

/* Two results of different types: the row sums of an s32[2,3] and their
   signs as pred[2]; an s4 operand negated (one element per byte). */
static xlac_status *h_rows(void *user, const xlac_ffi_call *c) {
  calls++;
  const xlac_ffi_buffer *m = &c->args[0], *q = &c->args[1];
  if (c->num_args != 2 || c->num_results != 3 || m->type != XLAC_S32 || m->rank != 2 || q->type != XLAC_S4 ||
      c->results[1].type != XLAC_PRED || c->results[2].type != XLAC_S4)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "rows: unexpected signature");
  const int32_t *v = m->data;
  int32_t *sum = c->results[0].data;
  uint8_t *pos = c->results[1].data;
  for (int64_t i = 0; i < m->dims[0]; i++) {
    sum[i] = 0;
    for (int64_t j = 0; j < m->dims[1]; j++) sum[i] += v[i * m->dims[1] + j];
    pos[i] = sum[i] > 0;
  }
  const int8_t *qi = q->data;
  int8_t *qo = c->results[2].data;
  for (int64_t i = 0; i < q->dims[0]; i++) qo[i] = (int8_t)-qi[i];
  return NULL;
}

/* Classic, api 1: one result, out is its data. */
static void c_add1(void *out, const void **in) {
  calls++;
  const float *x = in[0];
  float *r = out;
  for (int i = 0; i < 4; i++) r[i] = x[i] + 1;
}

/* Classic, api 1: two results, out is an array of their data. */
static void c_two(void *out, const void **in) {
  calls++;
  void **outs = out;
  const float *x = in[0];
  float *a = outs[0], *b = outs[1];
  for (int i = 0; i < 4; i++) {
    a[i] = 2 * x[i];
    b[i] = -x[i];
  }
}

/* Classic, api 2: scales by the opaque string; "fail" fails. */
static void c_scale(void *out, const void **in, const char *opaque, size_t len, xlac_custom_call_status *st) {
  calls++;
  if (len == 4 && memcmp(opaque, "fail", 4) == 0) {
    xlac_custom_call_status_set_failure(st, "classic failure: told to fail", strlen("classic failure: told to fail"));
    return;
  }
  float k = strtof(opaque, NULL);
  const float *x = in[0];
  float *r = out;
  for (int i = 0; i < 4; i++) r[i] = k * x[i];
}

/* What the function sees of a column-major operand (operand_layouts). */
static xlac_status *h_flat(void *user, const xlac_ffi_call *c) {
  calls++;
  memcpy(c->results[0].data, c->args[0].data, 6 * sizeof(float));
  return NULL;
}

static int version_of(void *user) { return (int)(intptr_t)user; }
static xlac_status *h_version(void *user, const xlac_ffi_call *c) {
  calls++;
  *(int32_t *)c->results[0].data = version_of(user);
  return NULL;
}

/* ---- programs ---- */

static const char *AXPY =
    "func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %s = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = \"{replicated}\"} : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  %r = stablehlo.custom_call @t.axpy(%s, %y) {backend_config = \"a=2\", api_version = 2 : i32, "
    "has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
    "  %m = stablehlo.custom_call @MoveToHost(%r) : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  func.return %m : tensor<4xf32>\n"
    "}\n";

static void test_typed(bool cpu) {
  float x[4] = {1, 2, 3, 4}, y[4] = {10, 20, 30, 40};
  IVal *args[2] = {f32s(4, x), f32s(4, y)};
  static const float scale = 1.0f;
  CHECK(xlac_custom_call_register("t.axpy", h_axpy, (void *)&scale) == NULL);
  calls = 0;
  int fallback = -1;
  Run r = run(AXPY, cpu, 2, args, &fallback);
  CHECK(r.ok);
  if (r.ok) {
    const float *o = fdata(r.res[0]);
    CHECK_EQ_F(o[0], 12);
    CHECK_EQ_F(o[1], 24);
    CHECK_EQ_F(o[2], 36);
    CHECK_EQ_F(o[3], 48);
  }
  CHECK_EQ_I(calls, 1);
  CHECK_STR(seen_config, "a=2");
  CHECK_STR(seen_attrs, "{api_version = 2 : i32, has_side_effect = true}");
  CHECK_EQ_I(seen_replica, 0);
  CHECK_EQ_I(seen_partition, 0);
  /* the annotations and the host call are all native */
  if (cpu) CHECK_EQ_I(fallback, 0);
  run_free(&r);
  ival_release(args[0]);
  ival_release(args[1]);
}

/* A host call inside a compiled loop: called once per iteration. */
static void test_in_loop(bool cpu) {
  const char *text =
      "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
      "  %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
      "  %c3 = stablehlo.constant dense<3> : tensor<i32>\n"
      "  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4xf32>\n"
      "  cond {\n"
      "    %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    stablehlo.return %lt : tensor<i1>\n"
      "  } do {\n"
      "    %n = stablehlo.add %i, %c1 : tensor<i32>\n"
      "    %w = stablehlo.custom_call @t.add1(%v) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "    stablehlo.return %n, %w : tensor<i32>, tensor<4xf32>\n"
      "  }\n"
      "  func.return %r#1 : tensor<4xf32>\n"
      "}\n";
  float x[4] = {0.5f, 1, 2, -3};
  IVal *a = f32s(4, x);
  calls = 0;
  int fallback = -1;
  Run r = run(text, cpu, 1, &a, &fallback);
  CHECK(r.ok);
  if (r.ok) {
    CHECK_EQ_F(fdata(r.res[0])[0], 3.5f);
    CHECK_EQ_F(fdata(r.res[0])[3], 0);
  }
  CHECK_EQ_I(calls, 3);
  if (cpu) CHECK_EQ_I(fallback, 0);
  run_free(&r);
  ival_release(a);
}

static void test_classic(bool cpu) {
  const char *text =
      "func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {\n"
      "  %a = stablehlo.custom_call @t.add1(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  %b:2 = stablehlo.custom_call @t.two(%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)\n"
      "  %c = stablehlo.custom_call @t.scale(%x) {backend_config = \"3\", api_version = 2 : i32} : "
      "(tensor<4xf32>) -> tensor<4xf32>\n"
      "  func.return %a, %b#0, %b#1, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>\n"
      "}\n";
  float x[4] = {1, -2, 0.25f, 8};
  IVal *a = f32s(4, x);
  calls = 0;
  int fallback = -1;
  Run r = run(text, cpu, 1, &a, &fallback);
  CHECK(r.ok);
  if (r.ok) {
    for (int i = 0; i < 4; i++) {
      CHECK_EQ_F(fdata(r.res[0])[i], x[i] + 1);
      CHECK_EQ_F(fdata(r.res[1])[i], 2 * (x[i] + 1));
      CHECK_EQ_F(fdata(r.res[2])[i], -(x[i] + 1));
      CHECK_EQ_F(fdata(r.res[3])[i], 3 * x[i]);
    }
  }
  CHECK_EQ_I(calls, 3);
  if (cpu) CHECK_EQ_I(fallback, 0);
  run_free(&r);
  ival_release(a);
}

/* Several results of several types; sub-byte elements one per byte. */
static void test_types(bool cpu) {
  const char *text =
      "func.func @main() -> (tensor<2xi32>, tensor<2xi1>, tensor<3xi4>) {\n"
      "  %m = stablehlo.constant dense<[[1, 2, 3], [-4, -5, 6]]> : tensor<2x3xi32>\n"
      "  %q = stablehlo.constant dense<[3, 7, -1]> : tensor<3xi4>\n"
      "  %r:3 = stablehlo.custom_call @t.rows(%m, %q) : (tensor<2x3xi32>, tensor<3xi4>) -> "
      "(tensor<2xi32>, tensor<2xi1>, tensor<3xi4>)\n"
      "  func.return %r#0, %r#1, %r#2 : tensor<2xi32>, tensor<2xi1>, tensor<3xi4>\n"
      "}\n";
  calls = 0;
  Run r = run(text, cpu, 0, NULL, NULL);
  CHECK(r.ok);
  if (r.ok) {
    CHECK_EQ_I(lit_get_i(r.res[0]->lit, 0), 6);
    CHECK_EQ_I(lit_get_i(r.res[0]->lit, 1), -3);
    CHECK_EQ_I(lit_get_b(r.res[1]->lit, 0), 1);
    CHECK_EQ_I(lit_get_b(r.res[1]->lit, 1), 0);
    CHECK_EQ_I(lit_get_i(r.res[2]->lit, 0), -3);
    CHECK_EQ_I(lit_get_i(r.res[2]->lit, 1), -7);
    CHECK_EQ_I(lit_get_i(r.res[2]->lit, 2), 1);
  }
  CHECK_EQ_I(calls, 1);
  run_free(&r);
}

/* operand_layouts: the function gets a column-major copy. */
static void test_layout(bool cpu) {
  const char *text =
      "func.func @main() -> tensor<6xf32> {\n"
      "  %m = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>\n"
      "  %r = stablehlo.custom_call @t.flat(%m) {operand_layouts = [dense<[0, 1]> : tensor<2xindex>], "
      "result_layouts = [dense<0> : tensor<1xindex>]} : (tensor<2x3xf32>) -> tensor<6xf32>\n"
      "  func.return %r : tensor<6xf32>\n"
      "}\n";
  Run r = run(text, cpu, 0, NULL, NULL);
  CHECK(r.ok);
  if (r.ok) {
    static const float want[6] = {1, 4, 2, 5, 3, 6};
    for (int i = 0; i < 6; i++) CHECK_EQ_F(fdata(r.res[0])[i], want[i]);
  }
  run_free(&r);
}

/* A tuple result is flattened for the function and rebuilt after. */
static void test_tuple(bool cpu) {
  const char *text =
      "func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {\n"
      "  %t = \"stablehlo.custom_call\"(%x) {call_target_name = \"t.two\"} : "
      "(tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>\n"
      "  %a = stablehlo.get_tuple_element %t[0] : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>\n"
      "  %b = stablehlo.get_tuple_element %t[1] : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>\n"
      "  func.return %a, %b : tensor<4xf32>, tensor<4xf32>\n"
      "}\n";
  float x[4] = {1, 2, 3, 4};
  IVal *a = f32s(4, x);
  Run r = run(text, cpu, 1, &a, NULL);
  CHECK(r.ok);
  if (r.ok) {
    CHECK_EQ_F(fdata(r.res[0])[3], 8);
    CHECK_EQ_F(fdata(r.res[1])[3], -4);
  }
  run_free(&r);
  ival_release(a);
}

/* HLO: backend_config, a tuple result, and a parameter's layout. */
static void test_hlo(bool cpu) {
  const char *text =
      "HloModule m\n"
      "ENTRY %main (x: f32[4], y: f32[4], m: f32[2,3]) -> (f32[4], f32[4], f32[6]) {\n"
      "  %x = f32[4]{0} parameter(0)\n"
      "  %y = f32[4]{0} parameter(1)\n"
      "  %m = f32[2,3]{0,1} parameter(2)\n"
      "  %r = f32[4]{0} custom-call(%x, %y), custom_call_target=\"t.axpy\", backend_config=\"a=3\", "
      "api_version=API_VERSION_STATUS_RETURNING\n"
      "  %cc = (f32[4]{0}, f32[4]{0}) custom-call(%r), custom_call_target=\"t.two\"\n"
      "  %b = f32[4]{0} get-tuple-element(%cc), index=1\n"
      "  %f = f32[6]{0} custom-call(%m), custom_call_target=\"t.flat\"\n"
      "  ROOT %t = (f32[4]{0}, f32[4]{0}, f32[6]{0}) tuple(%r, %b, %f)\n"
      "}\n";
  float x[4] = {1, 2, 3, 4}, y[4] = {1, 1, 1, 1};
  int64_t d[2] = {2, 3};
  Literal *ml = lit_new(type_tensor(&types, ET_F32, 2, d));
  for (int i = 0; i < 6; i++) ((float *)ml->data)[i] = (float)(i + 1);
  IVal *args[3] = {f32s(4, x), f32s(4, y), ival_tensor(ml)};
  Run r = run(text, cpu, 3, args, NULL);
  CHECK(r.ok);
  CHECK_STR(seen_config, "a=3");
  if (r.ok) {
    IVal *t = r.res[0];
    CHECK(t->kind == IV_TUPLE && t->n == 3);
    if (t->kind == IV_TUPLE && t->n == 3) {
      CHECK_EQ_F(fdata(t->elems[0])[1], 7);
      CHECK_EQ_F(fdata(t->elems[1])[1], -7);
      /* the logical [[1, 2, 3], [4, 5, 6]] in its {0,1} layout */
      static const float want[6] = {1, 4, 2, 5, 3, 6};
      for (int i = 0; i < 6; i++) CHECK_EQ_F(fdata(t->elems[2])[i], want[i]);
    }
  }
  run_free(&r);
  for (int i = 0; i < 3; i++) ival_release(args[i]);
}

/* Failures: the host function's message at the op, in both backends. */
static void test_failures(bool cpu) {
  const char *fail =
      "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %r = stablehlo.custom_call @t.fail(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  %s = stablehlo.custom_call @t.add1(%r) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  func.return %s : tensor<4xf32>\n"
      "}\n";
  float x[4] = {1, 2, 3, 4};
  IVal *a = f32s(4, x);
  calls = 0;
  capture();
  Run r = run(fail, cpu, 1, &a, NULL);
  release();
  CHECK(!r.ok);
  CHECK(r.m != NULL);
  CHECK(strstr(diags, "custom_call @t.fail failed: the host function gave up (42)") != NULL);
  /* the call after the failed one does not run */
  CHECK_EQ_I(calls, 1);
  run_free(&r);

  const char *classic =
      "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %r = stablehlo.custom_call @t.scale(%x) {backend_config = \"fail\"} : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  func.return %r : tensor<4xf32>\n"
      "}\n";
  capture();
  r = run(classic, cpu, 1, &a, NULL);
  release();
  CHECK(!r.ok);
  CHECK(strstr(diags, "custom_call @t.scale failed: classic failure: told to fail") != NULL);
  run_free(&r);

  /* jax's shape_assertion, with its {0} placeholders */
  const char *assertion =
      "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %f = stablehlo.constant dense<false> : tensor<i1>\n"
      "  %d = stablehlo.constant dense<4> : tensor<i32>\n"
      "  stablehlo.custom_call @shape_assertion(%f, %d) {error_message = \"dimension is {0}, want {1}\", "
      "has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()\n"
      "  func.return %x : tensor<4xf32>\n"
      "}\n";
  capture();
  r = run(assertion, cpu, 1, &a, NULL);
  release();
  CHECK(!r.ok);
  CHECK(strstr(diags, "custom_call @shape_assertion: dimension is 4, want {1}") != NULL);
  run_free(&r);
  ival_release(a);
}

/* Unregistered targets: a compile error naming the target and the
   registered ones; the interpreter reports the same when the op runs. */
static void test_unregistered(void) {
  const char *text =
      "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %r = stablehlo.custom_call @t.nothing(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  func.return %r : tensor<4xf32>\n"
      "}\n";
  capture();
  Module *m = parse(text);
  CpuOptions o = {0};
  o.threads = 1;
  CpuExecutable *exe = m ? cpu_compile(m, module_find_func(m, "main"), &o) : NULL;
  release();
  CHECK(m != NULL);
  CHECK(exe == NULL);
  CHECK(strstr(diags, "no implementation for custom_call target 't.nothing'") != NULL);
  CHECK(strstr(diags, "(registered: t.add1, t.axpy, t.fail, t.flat, t.rows, t.scale, t.two") != NULL);
  cpu_executable_free(exe);
  module_free(m);

  float x[4] = {0};
  IVal *a = f32s(4, x);
  capture();
  Run r = run(text, false, 1, &a, NULL);
  release();
  CHECK(!r.ok);
  CHECK(strstr(diags, "runtime error: no implementation for custom_call target 't.nothing'") != NULL);
  run_free(&r);

  /* a LAPACK call from jnp.linalg xlac does not implement says what it
     is; one it implements, called with the wrong types, what it takes */
  const char *lapack =
      "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %r = stablehlo.custom_call @lapack_spotrf_ffi(%x) {mhlo.backend_config = {uplo = 76 : ui8}} : "
      "(tensor<4xf32>) -> tensor<4xf32>\n"
      "  func.return %r : tensor<4xf32>\n"
      "}\n";
  capture();
  r = run(lapack, true, 1, &a, NULL);
  release();
  CHECK(r.exe == NULL);
  CHECK(strstr(diags, "custom_call @lapack_spotrf_ffi: this LAPACK call from jnp.linalg") != NULL);
  run_free(&r);
  const char *svd =
      "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %r = stablehlo.custom_call @lapack_sgesdd_ffi(%x) {mhlo.backend_config = {mode = 65 : ui8}} : "
      "(tensor<4xf32>) -> tensor<4xf32>\n"
      "  func.return %r : tensor<4xf32>\n"
      "}\n";
  capture();
  r = run(svd, true, 1, &a, NULL);
  release();
  CHECK(r.exe == NULL);
  CHECK(strstr(diags, "custom_call @lapack_sgesdd_ffi takes a matrix") != NULL);
  run_free(&r);

  /* an annotation that would need the SPMD partitioner */
  const char *spmd =
      "func.func @main(%x: tensor<4xf32>) -> tensor<2xf32> {\n"
      "  %r = stablehlo.custom_call @SPMDFullToShardShape(%x) : (tensor<4xf32>) -> tensor<2xf32>\n"
      "  func.return %r : tensor<2xf32>\n"
      "}\n";
  for (int cpu = 0; cpu < 2; cpu++) {
    capture();
    r = run(spmd, cpu, 1, &a, NULL);
    release();
    CHECK(!r.ok);
    CHECK(strstr(diags, "custom_call @SPMDFullToShardShape turns operand #0 of type tensor<4xf32> into "
                        "tensor<2xf32>") != NULL);
    run_free(&r);
  }
  ival_release(a);
}

/* Registering a name again: later compiles call the new function,
   executables compiled before keep the old one. */
static void test_replace(void) {
  const char *text =
      "func.func @main() -> tensor<i32> {\n"
      "  %r = stablehlo.custom_call @t.version() : () -> tensor<i32>\n"
      "  func.return %r : tensor<i32>\n"
      "}\n";
  CHECK(xlac_custom_call_register("t.version", h_version, (void *)(intptr_t)1) == NULL);
  Module *m1 = parse(text);
  CpuOptions o = {0};
  o.threads = 1;
  CpuExecutable *e1 = cpu_compile(m1, module_find_func(m1, "main"), &o);
  CHECK(e1 != NULL);
  CHECK(xlac_custom_call_register("t.version", h_version, (void *)(intptr_t)2) == NULL);
  Module *m2 = parse(text);
  CpuExecutable *e2 = cpu_compile(m2, module_find_func(m2, "main"), &o);
  CHECK(e2 != NULL);
  if (e1 && e2) {
    Interp I;
    InterpOptions io = {0};
    interp_init(&I, m1, &io);
    IVal *r1 = NULL, *r2 = NULL;
    CHECK(cpu_execute(e1, &I, 0, NULL, &r1));
    CHECK(cpu_execute(e2, &I, 0, NULL, &r2));
    if (r1) CHECK_EQ_I(lit_get_i(r1->lit, 0), 1);
    if (r2) CHECK_EQ_I(lit_get_i(r2->lit, 0), 2);
    ival_release(r1);
    ival_release(r2);
  }
  cpu_executable_free(e1);
  cpu_executable_free(e2);
  module_free(m1);
  module_free(m2);
  Run r = run(text, false, 0, NULL, NULL);
  CHECK(r.ok);
  if (r.ok) CHECK_EQ_I(lit_get_i(r.res[0]->lit, 0), 2);
  run_free(&r);
}

static void test_registration(void) {
  xlac_status *s = xlac_custom_call_register(NULL, h_axpy, NULL);
  CHECK_EQ_I(xlac_status_code(s), XLAC_INVALID_ARGUMENT);
  CHECK(strstr(xlac_status_message(s), "target name is NULL") != NULL);
  xlac_status_destroy(s);
  s = xlac_custom_call_register("", h_axpy, NULL);
  CHECK_EQ_I(xlac_status_code(s), XLAC_INVALID_ARGUMENT);
  xlac_status_destroy(s);
  s = xlac_custom_call_register("t.null", NULL, NULL);
  CHECK_EQ_I(xlac_status_code(s), XLAC_INVALID_ARGUMENT);
  CHECK(strstr(xlac_status_message(s), "function for target 't.null' is NULL") != NULL);
  xlac_status_destroy(s);
  s = xlac_custom_call_register_classic("t.bad_api", (void *)c_add1, (xlac_custom_call_api)7);
  CHECK_EQ_I(xlac_status_code(s), XLAC_INVALID_ARGUMENT);
  CHECK(strstr(xlac_status_message(s), "unknown api 7") != NULL);
  xlac_status_destroy(s);
  s = xlac_custom_call_register_classic("t.null_classic", NULL, XLAC_CUSTOM_CALL_CLASSIC);
  CHECK_EQ_I(xlac_status_code(s), XLAC_INVALID_ARGUMENT);
  xlac_status_destroy(s);
  s = xlac_custom_call_register("Sharding", h_axpy, NULL);
  CHECK_EQ_I(xlac_status_code(s), XLAC_INVALID_ARGUMENT);
  CHECK(strstr(xlac_status_message(s), "implemented by xlac itself") != NULL);
  xlac_status_destroy(s);
  s = xlac_custom_call_register("check.mine", h_axpy, NULL);
  CHECK_EQ_I(xlac_status_code(s), XLAC_INVALID_ARGUMENT);
  xlac_status_destroy(s);
  /* the failed registrations left nothing behind */
  char *list = xlac_custom_call_list();
  CHECK_STR(list, "t.add1, t.axpy, t.fail, t.flat, t.rows, t.scale, t.two");
  xlac_free(list);
  /* a NULL status is ignored */
  xlac_custom_call_status_set_failure(NULL, "x", 1);
}

int main(void) {
  arena_init(&types);
  char *empty = xlac_custom_call_list();
  CHECK_STR(empty, "");
  xlac_free(empty);
  CHECK(xlac_custom_call_register("t.fail", h_fail, NULL) == NULL);
  CHECK(xlac_custom_call_register("t.rows", h_rows, NULL) == NULL);
  CHECK(xlac_custom_call_register("t.flat", h_flat, NULL) == NULL);
  CHECK(xlac_custom_call_register_classic("t.add1", (void *)c_add1, XLAC_CUSTOM_CALL_CLASSIC) == NULL);
  CHECK(xlac_custom_call_register_classic("t.two", (void *)c_two, XLAC_CUSTOM_CALL_CLASSIC) == NULL);
  CHECK(xlac_custom_call_register_classic("t.scale", (void *)c_scale, XLAC_CUSTOM_CALL_CLASSIC_STATUS) == NULL);
  for (int cpu = 0; cpu < 2; cpu++) {
    test_typed(cpu);
    test_in_loop(cpu);
    test_classic(cpu);
    test_types(cpu);
    test_layout(cpu);
    test_tuple(cpu);
    test_hlo(cpu);
    test_failures(cpu);
  }
  test_registration();
  test_unregistered();
  test_replace();
  arena_free(&types);
  TEST_SUMMARY();
}
