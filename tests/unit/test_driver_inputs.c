/* test_driver_inputs.c - command-line literals (--input x=...) and the
   deterministic random inputs of `xlac run`. */
#include <stdlib.h>

#include "driver/driver.h"
#include "test_util.h"

static Arena arena;

static Type *tt(ElemType et, int rank, const int64_t *dims) { return type_tensor(&arena, et, rank, dims); }

static Literal *ok_parse(const char *text, const Type *t) {
  char *err = NULL;
  Literal *l = parse_cli_literal(text, t, &err);
  if (!l) fprintf(stderr, "  parse of '%s' failed: %s\n", text, err);
  CHECK(l != NULL);
  free(err);
  return l;
}

static void bad_parse(const char *text, const Type *t, const char *want) {
  char *err = NULL;
  Literal *l = parse_cli_literal(text, t, &err);
  CHECK(l == NULL);
  CHECK(err && strstr(err, want));
  if (err && !strstr(err, want)) fprintf(stderr, "  '%s': message was: %s\n", text, err);
  lit_free(l);
  free(err);
}

static void test_literals(void) {
  int64_t d4[] = {4}, d22[] = {2, 2}, d0[] = {0, 3}, d2[] = {2};
  Literal *l = ok_parse("[1, 2.5, -inf, nan]", tt(ET_F32, 1, d4));
  if (l) {
    CHECK_EQ_F(lit_get_f(l, 1), 2.5);
    CHECK(isinf(lit_get_f(l, 2)) && lit_get_f(l, 2) < 0);
    CHECK(isnan(lit_get_f(l, 3)));
  }
  lit_free(l);
  l = ok_parse(" [[1,2] , [3, 0x10]] ", tt(ET_S8, 2, d22));
  if (l) CHECK_EQ_I(lit_get_i(l, 3), 16);
  lit_free(l);
  l = ok_parse("3.14", tt(ET_F64, 0, NULL));
  if (l) CHECK_EQ_F(lit_get_f(l, 0), 3.14);
  lit_free(l);
  l = ok_parse("[true, 0]", tt(ET_PRED, 1, d2));
  if (l) CHECK(lit_get_b(l, 0) && !lit_get_b(l, 1));
  lit_free(l);
  l = ok_parse("[(1, -2), 3]", tt(ET_C64, 1, d2));
  if (l) {
    double re, im;
    lit_get_c(l, 0, &re, &im);
    CHECK(re == 1 && im == -2);
    lit_get_c(l, 1, &re, &im);
    CHECK(re == 3 && im == 0);
  }
  lit_free(l);
  l = ok_parse("[18446744073709551615, 0]", tt(ET_U64, 1, d2));
  if (l) CHECK(lit_get_u(l, 0) == UINT64_MAX);
  lit_free(l);
  l = ok_parse("[-8, 7]", tt(ET_S4, 1, d2));
  lit_free(l);
  l = ok_parse("[]", tt(ET_F32, 2, d0));
  if (l) CHECK_EQ_I(l->n, 0);
  lit_free(l);

  bad_parse("[1, 2, 3]", tt(ET_F32, 1, d4), "value has shape [3], but the parameter is tensor<4xf32>");
  bad_parse("[1]", tt(ET_F32, 0, NULL), "value has shape [1]");
  bad_parse("1", tt(ET_F32, 1, d2), "value has shape []");
  bad_parse("[[1, 2], [3]]", tt(ET_S8, 2, d22), "rows have different lengths");
  bad_parse("[[1, 2], 3]", tt(ET_S8, 2, d22), "different depths");
  bad_parse("[1, 2", tt(ET_S8, 1, d2), "expected ',' or ']'");
  bad_parse("[1, 2] x", tt(ET_S8, 1, d2), "unexpected text");
  bad_parse("[128, 0]", tt(ET_S8, 1, d2), "128 is out of range for i8");
  bad_parse("[-1, 0]", tt(ET_U8, 1, d2), "-1 is out of range for ui8");
  bad_parse("[8, 0]", tt(ET_S4, 1, d2), "8 is out of range for i4");
  bad_parse("[1.5, 0]", tt(ET_S32, 1, d2), "'1.5' is not a valid i32 value");
  bad_parse("[yes, 0]", tt(ET_PRED, 1, d2), "'yes' is not a valid i1 value");
  bad_parse("[(1 2), 0]", tt(ET_C64, 1, d2), "is not a valid complex<f32> value");
  bad_parse("[]", tt(ET_F32, 1, d2), "value has shape [0]");
  bad_parse("", tt(ET_F32, 0, NULL), "expected a value");
  StrBuf deep = {0};
  for (int i = 0; i < 100; i++) sb_putc(&deep, '[');
  bad_parse(deep.data, tt(ET_F32, 0, NULL), "too many nested lists");
  sb_free(&deep);
}

static void test_random(void) {
  int64_t d[] = {1000};
  Literal *a = lit_new(tt(ET_F32, 1, d)), *b = lit_new(tt(ET_F32, 1, d));
  uint64_t s1 = 7, s2 = 7;
  random_fill(a, &s1);
  random_fill(b, &s2);
  CHECK(lit_equal(a, b));
  bool in_range = true;
  for (int64_t i = 0; i < a->n; i++) in_range = in_range && lit_get_f(a, i) >= -1 && lit_get_f(a, i) < 1;
  CHECK(in_range);
  lit_free(a);
  lit_free(b);
  static const ElemType ints[] = {ET_S2, ET_S4, ET_S8, ET_S64, ET_U2, ET_U4, ET_U32};
  for (size_t k = 0; k < ARRAY_LEN(ints); k++) {
    Literal *l = lit_new(tt(ints[k], 1, d));
    uint64_t s = 1;
    random_fill(l, &s);
    bool ok = true;
    for (int64_t i = 0; i < l->n; i++) {
      int64_t v = et_is_signed(ints[k]) ? lit_get_i(l, i) : (int64_t)lit_get_u(l, i);
      ok = ok && v >= -10 && v <= 10;
    }
    CHECK(ok);
    lit_free(l);
  }
}

int main(void) {
  arena_init(&arena);
  test_literals();
  test_random();
  arena_free(&arena);
  TEST_SUMMARY();
}
