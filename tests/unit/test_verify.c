/*
 * test_verify.c - unit tests of the verifier's limits: the checked shape
 * arithmetic (types.h: dim_add/dim_mul, type_sizes, pad_dim_size,
 * window_dim_size) at the edges of int64, types too large for int64 in IR
 * built without a parser, and the call graph (recursion, nesting depth at
 * the XLAC_MAX_CALL_DEPTH boundary).  The lit tests in tests/lit/verify
 * cover the same rules through the parsers.
 */
#include <stdlib.h>
#include <string.h>

#include "frontends/stablehlo/stablehlo.h"
#include "ir/verify.h"
#include "test_util.h"

#define MAX INT64_MAX
#define MIN INT64_MIN

/* ---- captured diagnostics ---- */
static char all_errors[8192], last_error[1024];
static int errors;

static void capture(DiagLevel lvl, SrcLoc loc, const char *msg, void *ud) {
  (void)loc;
  (void)ud;
  if (lvl != DIAG_ERROR) return;
  errors++;
  snprintf(last_error, sizeof last_error, "%s", msg);
  size_t n = strlen(all_errors);
  snprintf(all_errors + n, sizeof all_errors - n, "%s\n", msg);
}

static Module *parse_only(const char *text) {
  int fid = src_add("test.mlir", text, strlen(text));
  return fid < 0 ? NULL : stablehlo_parse(fid, 0, strlen(text));
}

/* verify_module's verdict, with the last error message in last_error. */
static bool verifies(Module *m) {
  errors = 0;
  last_error[0] = all_errors[0] = 0;
  diag_set_hook(capture, NULL);
  bool ok = verify_module(m);
  diag_set_hook(NULL, NULL);
  return ok;
}

static void test_arith(void) {
  int64_t r = 0;
  CHECK(dim_add(MAX - 1, 1, &r) && r == MAX);
  CHECK(!dim_add(MAX, 1, &r));
  CHECK(!dim_add(MIN, -1, &r));
  CHECK(dim_mul(INT64_C(1) << 31, INT64_C(1) << 31, &r) && r == INT64_C(1) << 62);
  CHECK(!dim_mul(INT64_C(1) << 32, INT64_C(1) << 31, &r));
  CHECK(!dim_mul(-1, MIN, &r));
}

static void test_sizes(void) {
  Arena a;
  arena_init(&a);
  int64_t n = 0, bytes = 0;
  int64_t huge[] = {100000000000, 100000000000, 1000};
  Type *t = type_tensor(&a, ET_F32, 3, huge);
  CHECK(!type_sizes(t, &n, &bytes));
  CHECK_EQ_I(type_num_elements(t), MAX); /* saturates, no overflow */
  int64_t edge[] = {INT64_C(1) << 61, 4};
  t = type_tensor(&a, ET_S8, 2, edge);
  CHECK(!type_sizes(t, &n, &bytes));
  t = type_tensor(&a, ET_S8, 1, edge);
  CHECK(type_sizes(t, &n, &bytes) && n == INT64_C(1) << 61 && bytes == n);
  t = type_tensor(&a, ET_F64, 1, edge);
  CHECK(!type_sizes(t, &n, &bytes)); /* 2^61 elements fit, 2^64 bytes do not */
  int64_t neg[] = {2, -1};
  t = type_tensor(&a, ET_F32, 2, neg);
  CHECK(!type_sizes(t, &n, &bytes));
  int64_t zero[] = {0, MAX, MAX};
  t = type_tensor(&a, ET_F32, 3, zero);
  CHECK(type_sizes(t, &n, &bytes) && n == 0 && bytes == 0);
  arena_free(&a);
}

static void test_pad(void) {
  int64_t r = -1;
  CHECK(pad_dim_size(5, 1, 2, 1, &r) == 0 && r == 12);
  CHECK(pad_dim_size(0, 3, 4, 7, &r) == 0 && r == 7);
  /* exact total small, partial sums out of range either way */
  CHECK(pad_dim_size(2, MAX - 1, -(MAX - 2), 0, &r) == 0 && r == 3);
  CHECK(pad_dim_size(5, -MAX, MAX - 1, 0, &r) == 0 && r == 4);
  CHECK(pad_dim_size(2, MIN, MAX, 0, &r) == 0 && r == 1);
  /* the interior-padded extent must fit; with one element it is 1 */
  CHECK(pad_dim_size(3, 0, 0, INT64_C(1) << 62, &r) == 1);
  CHECK(pad_dim_size(1, 0, 0, MAX, &r) == 0 && r == 1);
  CHECK(pad_dim_size(2, 0, 0, MAX - 2, &r) == 0 && r == MAX);
  CHECK(pad_dim_size(2, 0, 0, MAX - 1, &r) == 1);
  CHECK(pad_dim_size(3, 0, 0, -1, &r) == 1);
  /* negative and too large */
  CHECK(pad_dim_size(3, MIN, -1, 0, &r) == 2);
  CHECK(pad_dim_size(3, -4, 0, 0, &r) == 2);
  CHECK(pad_dim_size(3, MAX, MAX, 0, &r) == 3);
  CHECK(pad_dim_size(3, MAX - 2, 0, 0, &r) == 3);
  CHECK(pad_dim_size(3, MAX - 3, 0, 0, &r) == 0 && r == MAX);
}

static void test_windows(void) {
  int64_t r = -1;
  /* plain: 8 elements, window 3, stride 2 */
  CHECK(window_dim_size(8, 0, 0, 1, 3, 1, 2, &r) == 0 && r == 3);
  /* dilations and stride 2^62 */
  CHECK(window_dim_size(2, 0, 0, INT64_C(1) << 62, 1, 1, INT64_C(1) << 62, &r) == 0 && r == 2);
  CHECK(window_dim_size(3, 0, 0, INT64_C(1) << 62, 1, 1, 1, &r) == 2);
  CHECK(window_dim_size(3, 0, 0, 1, 2, MAX, 1, &r) == 3);
  /* the dilated input with its positive padding must fit ... */
  CHECK(window_dim_size(4, MAX - 4, 0, 1, 1, 1, 1, &r) == 0 && r == MAX);
  CHECK(window_dim_size(4, MAX - 3, 0, 1, 1, 1, 1, &r) == 2);
  CHECK(window_dim_size(4, MAX, -MAX, 1, 1, 1, 1, &r) == 2);
  /* ... and so must the exact padded size */
  CHECK(window_dim_size(4, MIN, -5, 1, 1, 1, 1, &r) == 2);
  CHECK(window_dim_size(4, MIN, -4, 1, 1, 1, 1, &r) == 0 && r == 0);
  CHECK(window_dim_size(4, MIN, 0, 1, 1, 1, 1, &r) == 0 && r == 0);
  CHECK(window_dim_size(4, -2, -2, 1, 1, 1, 1, &r) == 0 && r == 0);
  CHECK(window_dim_size(4, 0, 0, 0, 1, 1, 1, &r) == 1);
  CHECK(window_dim_size(4, 0, 0, 1, 1, 1, 0, &r) == 1);
  /* an empty kernel fits anywhere */
  CHECK(window_dim_size(4, 0, 0, 1, 0, MAX, 1, &r) == 0 && r == 5);
}

/* Types and shapes no parser produces: the verifier must still report. */
static void test_huge_ir(void) {
  Module *m = parse_only(
      "func.func @main(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<8xi8> {\n"
      "  %r = \"stablehlo.concatenate\"(%a, %b) {dimension = 0 : i64} : (tensor<4xi8>, tensor<4xi8>) -> tensor<8xi8>\n"
      "  func.return %r : tensor<8xi8>\n"
      "}\n");
  CHECK(m != NULL);
  if (!m) return;
  CHECK(verifies(m));
  Func *f = module_find_func(m, "main");
  Op *cat = f->body->first;
  /* 2^62 + 2^62 elements */
  f->body->args[0]->type->dims[0] = INT64_C(1) << 62;
  f->body->args[1]->type->dims[0] = INT64_C(1) << 62;
  CHECK(!verifies(m));
  CHECK(strstr(last_error, "concatenated dimension 0 overflows") != NULL);
  /* a result type with 2^93 elements */
  f->body->args[0]->type->dims[0] = 4;
  f->body->args[1]->type->dims[0] = 4;
  Type *t = cat->res[0].type;
  int64_t dims[2] = {MAX, 4};
  cat->res[0].type = type_tensor(&m->arena, ET_S8, 2, dims);
  CHECK(!verifies(m));
  CHECK(strstr(all_errors, "result #0 type tensor<9223372036854775807x4xi8> has a negative dimension or too many elements") != NULL);
  cat->res[0].type = t;
  CHECK(verifies(m));
  module_free(m);
}

/* A chain @f0 -> @f1 -> ... -> @f{n} of n calls. */
static Module *chain(int n, bool cycle) {
  StrBuf b = {0};
  for (int i = 0; i <= n; i++) {
    sb_printf(&b, "func.func %s@f%d(%%a: tensor<f32>) -> tensor<f32> {\n", i ? "private " : "", i);
    if (i < n || cycle)
      sb_printf(&b, "  %%r = func.call @f%d(%%a) : (tensor<f32>) -> tensor<f32>\n  func.return %%r : tensor<f32>\n}\n",
                i < n ? i + 1 : 0);
    else
      sb_printf(&b, "  func.return %%a : tensor<f32>\n}\n");
  }
  Module *m = parse_only(b.data);
  sb_free(&b);
  return m;
}

static void test_calls(void) {
  Module *m = chain(XLAC_MAX_CALL_DEPTH, false);
  CHECK(m && verifies(m));
  module_free(m);
  m = chain(XLAC_MAX_CALL_DEPTH + 1, false);
  CHECK(m && !verifies(m) && errors == 1);
  CHECK(strstr(last_error, "call to @f257 is call number 257") != NULL);
  /* the checks between passes leave some room */
  CHECK(m && verify_module_structure(m));
  module_free(m);
  m = chain(5000, false);
  CHECK(m && !verifies(m) && errors == 1);
  module_free(m);
  m = chain(5000, true);
  CHECK(m && !verifies(m) && errors == 1);
  CHECK(strstr(last_error, "recursive call: @f0 calls @f1 calls") != NULL);
  CHECK(strstr(last_error, "calls @f4999 calls @f5000 calls @f0") != NULL);
  module_free(m);
  m = chain(0, true);
  CHECK(m && !verifies(m) && errors == 1);
  CHECK(strstr(last_error, "recursive call: @f0 calls @f0") != NULL);
  module_free(m);
}

int main(void) {
  test_arith();
  test_sizes();
  test_pad();
  test_windows();
  test_huge_ir();
  test_calls();
  TEST_SUMMARY();
}
