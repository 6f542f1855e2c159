/*
 * test_interp_ew.c - checks the interpreter's elementwise ops, conversions
 * and CHLO special functions by building one-op functions by hand and
 * comparing exact results: integer wrap-around and division corner cases,
 * shifts past the width, NaN and signed-zero rules, conversions that
 * saturate or round, bitcasts across widths, reduce_precision, the special
 * functions against known values, and the speed of big f32 tensors.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "interp/interp.h"
#include "test_util.h"

static Module *M;

static Literal *mk_f(ElemType et, int n, ...) {
  int64_t d = n;
  Literal *l = lit_new(type_tensor(&M->arena, et, 1, &d));
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) lit_set_f(l, i, va_arg(ap, double));
  va_end(ap);
  return l;
}

static Literal *mk_i(ElemType et, int n, ...) {
  int64_t d = n;
  Literal *l = lit_new(type_tensor(&M->arena, et, 1, &d));
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) lit_set_i(l, i, va_arg(ap, long long));
  va_end(ap);
  return l;
}

static Type *vec(ElemType et, int64_t n) { return type_tensor(&M->arena, et, 1, &n); }

/* Runs a function holding one op of kind k on the given inputs (consumed)
   with up to two attributes; returns the result or NULL on a runtime error. */
static Literal *run(OpKind k, Type *rt, int n, Literal **in, const char *an, Attr *a,
                    const char *an2, Attr *a2) {
  static int counter;
  char name[32];
  snprintf(name, sizeof name, "f%d", counter++);
  Func *f = func_new(M, name, SRCLOC_NONE);
  Value *vs[4];
  for (int i = 0; i < n; i++) vs[i] = block_add_arg(M, f->body, type_clone(&M->arena, in[i]->type), NULL);
  Op *op = op_new(M, k, n, vs, 1, &rt, SRCLOC_NONE);
  if (an) op_set_attr(M, op, an, a);
  if (an2) op_set_attr(M, op, an2, a2);
  block_append(f->body, op);
  Value *r = &op->res[0];
  block_append(f->body, op_new(M, OP_FUNC_RETURN, 1, &r, 0, NULL, SRCLOC_NONE));
  f->nresults = 1;
  f->result_types = ARENA_ARRAY(&M->arena, Type *, 1);
  f->result_types[0] = rt;
  InterpOptions opts = {0};
  Interp I;
  interp_init(&I, M, &opts);
  IVal *args[4], *out = NULL;
  for (int i = 0; i < n; i++) args[i] = ival_tensor(in[i]);
  bool ok = interp_call(&I, f, n, args, &out);
  for (int i = 0; i < n; i++) ival_release(args[i]);
  if (!ok) return NULL;
  Literal *res = lit_clone(out->lit);
  ival_release(out);
  return res;
}

static Literal *run1(OpKind k, Type *rt, Literal *a) { return run(k, rt, 1, &a, NULL, NULL, NULL, NULL); }
static Literal *run2(OpKind k, Type *rt, Literal *a, Literal *b) {
  Literal *in[2] = {a, b};
  return run(k, rt, 2, in, NULL, NULL, NULL, NULL);
}

static Literal *cmp(const char *dir, const char *ct, Literal *a, Literal *b) {
  Literal *in[2] = {a, b};
  return run(OP_COMPARE, vec(ET_PRED, a->n), 2, in, "comparison_direction",
             attr_enum(M, "comparison_direction", dir), ct ? "compare_type" : NULL,
             ct ? attr_enum(M, "compare_type", ct) : NULL);
}

static bool bits_eq_f32(const Literal *l, int64_t i, float want) {
  float got = (float)lit_get_f(l, i);
  return memcmp(&got, &want, 4) == 0 || (isnan(got) && isnan(want));
}

static void test_int_arith(void) {
  Literal *r = run2(OP_ADD, vec(ET_S8, 3), mk_i(ET_S8, 3, 127LL, -128LL, 5LL), mk_i(ET_S8, 3, 1LL, -1LL, 6LL));
  CHECK(r && lit_get_i(r, 0) == -128 && lit_get_i(r, 1) == 127 && lit_get_i(r, 2) == 11);
  lit_free(r);
  r = run2(OP_ADD, vec(ET_U8, 1), mk_i(ET_U8, 1, 255LL), mk_i(ET_U8, 1, 1LL));
  CHECK(r && lit_get_u(r, 0) == 0);
  lit_free(r);
  r = run2(OP_MULTIPLY, vec(ET_S64, 1), mk_i(ET_S64, 1, (long long)INT64_MAX), mk_i(ET_S64, 1, 2LL));
  CHECK(r && lit_get_i(r, 0) == -2);
  lit_free(r);
  r = run2(OP_DIVIDE, vec(ET_S32, 4), mk_i(ET_S32, 4, 7LL, (long long)INT32_MIN, -7LL, 17LL),
           mk_i(ET_S32, 4, 0LL, -1LL, 2LL, -3LL));
  CHECK(r && lit_get_i(r, 0) == -1 && lit_get_i(r, 1) == INT32_MIN && lit_get_i(r, 2) == -3 &&
        lit_get_i(r, 3) == -5);
  lit_free(r);
  r = run2(OP_DIVIDE, vec(ET_S64, 1), mk_i(ET_S64, 1, (long long)INT64_MIN), mk_i(ET_S64, 1, -1LL));
  CHECK(r && lit_get_i(r, 0) == INT64_MIN);
  lit_free(r);
  r = run2(OP_DIVIDE, vec(ET_U32, 2), mk_i(ET_U32, 2, 7LL, 4000000000LL), mk_i(ET_U32, 2, 0LL, 3LL));
  CHECK(r && lit_get_u(r, 0) == 0xFFFFFFFFu && lit_get_u(r, 1) == 1333333333u);
  lit_free(r);
  r = run2(OP_REMAINDER, vec(ET_S32, 4), mk_i(ET_S32, 4, -7LL, 7LL, (long long)INT32_MIN, 17LL),
           mk_i(ET_S32, 4, 2LL, 0LL, -1LL, -3LL));
  CHECK(r && lit_get_i(r, 0) == -1 && lit_get_i(r, 1) == 7 && lit_get_i(r, 2) == 0 && lit_get_i(r, 3) == 2);
  lit_free(r);
  r = run2(OP_POWER, vec(ET_S32, 5), mk_i(ET_S32, 5, 2LL, -1LL, 2LL, 3LL, -1LL),
           mk_i(ET_S32, 5, 10LL, -3LL, -1LL, 40LL, -4LL));
  uint32_t p340 = 1;
  for (int i = 0; i < 40; i++) p340 *= 3u;
  CHECK(r && lit_get_i(r, 0) == 1024 && lit_get_i(r, 1) == -1 && lit_get_i(r, 2) == 0 &&
        lit_get_i(r, 3) == (int32_t)p340 && lit_get_i(r, 4) == 1);
  lit_free(r);
  r = run2(OP_POWER, vec(ET_U8, 2), mk_i(ET_U8, 2, 0LL, 3LL), mk_i(ET_U8, 2, 0LL, 5LL));
  CHECK(r && lit_get_u(r, 0) == 1 && lit_get_u(r, 1) == 243);
  lit_free(r);
  /* shifts: amounts are unsigned; at or past the width they saturate */
  r = run2(OP_SHIFT_LEFT, vec(ET_S8, 3), mk_i(ET_S8, 3, 1LL, 1LL, 1LL), mk_i(ET_S8, 3, 7LL, 8LL, -1LL));
  CHECK(r && lit_get_i(r, 0) == -128 && lit_get_i(r, 1) == 0 && lit_get_i(r, 2) == 0);
  lit_free(r);
  r = run2(OP_SHIFT_RIGHT_ARITHMETIC, vec(ET_S8, 3), mk_i(ET_S8, 3, -128LL, -128LL, 64LL),
           mk_i(ET_S8, 3, 3LL, 9LL, 100LL));
  CHECK(r && lit_get_i(r, 0) == -16 && lit_get_i(r, 1) == -1 && lit_get_i(r, 2) == 0);
  lit_free(r);
  r = run2(OP_SHIFT_RIGHT_LOGICAL, vec(ET_S8, 3), mk_i(ET_S8, 3, -128LL, -1LL, -1LL),
           mk_i(ET_S8, 3, 7LL, 8LL, 4LL));
  CHECK(r && lit_get_i(r, 0) == 1 && lit_get_i(r, 1) == 0 && lit_get_i(r, 2) == 15);
  lit_free(r);
  r = run2(OP_SHIFT_RIGHT_LOGICAL, vec(ET_S64, 1), mk_i(ET_S64, 1, -1LL), mk_i(ET_S64, 1, 1LL));
  CHECK(r && lit_get_i(r, 0) == INT64_MAX);
  lit_free(r);
  r = run2(OP_SHIFT_LEFT, vec(ET_S4, 2), mk_i(ET_S4, 2, 3LL, 1LL), mk_i(ET_S4, 2, 2LL, 4LL));
  CHECK(r && lit_get_i(r, 0) == -4 && lit_get_i(r, 1) == 0);
  lit_free(r);
  r = run2(OP_MAXIMUM, vec(ET_U8, 1), mk_i(ET_U8, 1, 200LL), mk_i(ET_U8, 1, 100LL));
  CHECK(r && lit_get_u(r, 0) == 200);
  lit_free(r);
  r = run2(OP_MINIMUM, vec(ET_S16, 1), mk_i(ET_S16, 1, -200LL), mk_i(ET_S16, 1, 100LL));
  CHECK(r && lit_get_i(r, 0) == -200);
  lit_free(r);
  r = run1(OP_COUNT_LEADING_ZEROS, vec(ET_S32, 3), mk_i(ET_S32, 3, 0LL, 1LL, -1LL));
  CHECK(r && lit_get_i(r, 0) == 32 && lit_get_i(r, 1) == 31 && lit_get_i(r, 2) == 0);
  lit_free(r);
  r = run1(OP_COUNT_LEADING_ZEROS, vec(ET_U4, 2), mk_i(ET_U4, 2, 1LL, 0LL));
  CHECK(r && lit_get_i(r, 0) == 3 && lit_get_i(r, 1) == 4);
  lit_free(r);
  r = run1(OP_POPCNT, vec(ET_S8, 2), mk_i(ET_S8, 2, -1LL, 5LL));
  CHECK(r && lit_get_i(r, 0) == 8 && lit_get_i(r, 1) == 2);
  lit_free(r);
  r = run1(OP_NOT, vec(ET_U8, 1), mk_i(ET_U8, 1, 5LL));
  CHECK(r && lit_get_u(r, 0) == 250);
  lit_free(r);
  r = run1(OP_NOT, vec(ET_PRED, 2), mk_i(ET_PRED, 2, 1LL, 0LL));
  CHECK(r && !lit_get_b(r, 0) && lit_get_b(r, 1));
  lit_free(r);
  r = run1(OP_ABS, vec(ET_S8, 2), mk_i(ET_S8, 2, -128LL, -5LL));
  CHECK(r && lit_get_i(r, 0) == -128 && lit_get_i(r, 1) == 5);
  lit_free(r);
  r = run1(OP_NEGATE, vec(ET_S32, 1), mk_i(ET_S32, 1, (long long)INT32_MIN));
  CHECK(r && lit_get_i(r, 0) == INT32_MIN);
  lit_free(r);
  r = run1(OP_SIGN, vec(ET_S32, 3), mk_i(ET_S32, 3, -9LL, 0LL, 9LL));
  CHECK(r && lit_get_i(r, 0) == -1 && lit_get_i(r, 1) == 0 && lit_get_i(r, 2) == 1);
  lit_free(r);
  r = run2(OP_AND, vec(ET_PRED, 2), mk_i(ET_PRED, 2, 1LL, 1LL), mk_i(ET_PRED, 2, 1LL, 0LL));
  CHECK(r && lit_get_b(r, 0) && !lit_get_b(r, 1));
  lit_free(r);
  r = run2(OP_ADD, vec(ET_PRED, 2), mk_i(ET_PRED, 2, 1LL, 0LL), mk_i(ET_PRED, 2, 1LL, 0LL));
  CHECK(r && lit_get_b(r, 0) && !lit_get_b(r, 1));
  lit_free(r);
  r = run2(OP_CHLO_MULHI, vec(ET_S64, 2), mk_i(ET_S64, 2, -1152921504606846976LL, -1LL),
           mk_i(ET_S64, 2, 16LL, -1LL));
  CHECK(r && lit_get_i(r, 0) == -1 && lit_get_i(r, 1) == 0);
  lit_free(r);
  r = run2(OP_CHLO_MULHI, vec(ET_U64, 1), mk_i(ET_U64, 1, -1LL), mk_i(ET_U64, 1, -1LL));
  CHECK(r && lit_get_u(r, 0) == 0xFFFFFFFFFFFFFFFEull);
  lit_free(r);
  r = run2(OP_CHLO_MULHI, vec(ET_S8, 2), mk_i(ET_S8, 2, 64LL, -64LL), mk_i(ET_S8, 2, 4LL, -4LL));
  CHECK(r && lit_get_i(r, 0) == 1 && lit_get_i(r, 1) == 1);
  lit_free(r);
}

static void test_float_arith(void) {
  Literal *r = run2(OP_MAXIMUM, vec(ET_F32, 3), mk_f(ET_F32, 3, NAN, -0.0, 1.0),
                    mk_f(ET_F32, 3, 1.0, 0.0, NAN));
  CHECK(r && isnan(lit_get_f(r, 0)) && lit_get_f(r, 1) == 0 && !signbit(lit_get_f(r, 1)) &&
        isnan(lit_get_f(r, 2)));
  lit_free(r);
  r = run2(OP_MINIMUM, vec(ET_BF16, 2), mk_f(ET_BF16, 2, 0.0, 2.0), mk_f(ET_BF16, 2, -0.0, NAN));
  CHECK(r && lit_get_f(r, 0) == 0 && signbit(lit_get_f(r, 0)) && isnan(lit_get_f(r, 1)));
  lit_free(r);
  r = run2(OP_REMAINDER, vec(ET_F64, 2), mk_f(ET_F64, 2, -5.5, 5.5), mk_f(ET_F64, 2, 2.0, -2.0));
  CHECK(r && lit_get_f(r, 0) == -1.5 && lit_get_f(r, 1) == 1.5);
  lit_free(r);
  /* f16 addition rounds once: 2048 + 1 is a tie and stays 2048 (even);
     65504 + 8 rounds back down, 65504 + 16 is a tie that rounds to inf */
  r = run2(OP_ADD, vec(ET_F16, 3), mk_f(ET_F16, 3, 2048.0, 65504.0, 65504.0),
           mk_f(ET_F16, 3, 1.0, 8.0, 16.0));
  CHECK(r && lit_get_f(r, 0) == 2048.0 && lit_get_f(r, 1) == 65504.0 && isinf(lit_get_f(r, 2)));
  lit_free(r);
  r = run2(OP_POWER, vec(ET_F64, 3), mk_f(ET_F64, 3, -2.0, -36.0, 0.0), mk_f(ET_F64, 3, 2.0, 1.1, 0.0));
  CHECK(r && lit_get_f(r, 0) == 4.0 && isnan(lit_get_f(r, 1)) && lit_get_f(r, 2) == 1.0);
  lit_free(r);
  r = run1(OP_ROUND_NEAREST_EVEN, vec(ET_F32, 5), mk_f(ET_F32, 5, 2.5, -2.5, 3.5, -0.5, 0.49999997));
  CHECK(r && lit_get_f(r, 0) == 2 && lit_get_f(r, 1) == -2 && lit_get_f(r, 2) == 4 &&
        lit_get_f(r, 3) == 0 && signbit(lit_get_f(r, 3)) && lit_get_f(r, 4) == 0);
  lit_free(r);
  r = run1(OP_ROUND_NEAREST_AFZ, vec(ET_F32, 3), mk_f(ET_F32, 3, 2.5, -2.5, 0.49999997));
  CHECK(r && lit_get_f(r, 0) == 3 && lit_get_f(r, 1) == -3 && lit_get_f(r, 2) == 0);
  lit_free(r);
  r = run1(OP_SIGN, vec(ET_F64, 4), mk_f(ET_F64, 4, -0.0, NAN, -3.0, INFINITY));
  CHECK(r && lit_get_f(r, 0) == 0 && signbit(lit_get_f(r, 0)) && isnan(lit_get_f(r, 1)) &&
        lit_get_f(r, 2) == -1 && lit_get_f(r, 3) == 1);
  lit_free(r);
  r = run1(OP_EXPONENTIAL_MINUS_ONE, vec(ET_F64, 1), mk_f(ET_F64, 1, 1e-10));
  CHECK(r && fabs(lit_get_f(r, 0) - 1.00000000005e-10) < 1e-25);
  lit_free(r);
  r = run1(OP_LOG_PLUS_ONE, vec(ET_F64, 1), mk_f(ET_F64, 1, -1e-12));
  CHECK(r && fabs(lit_get_f(r, 0) - (-1.0000000000005e-12)) < 1e-27);
  lit_free(r);
  r = run1(OP_LOGISTIC, vec(ET_F64, 3), mk_f(ET_F64, 3, 0.0, -800.0, 800.0));
  CHECK(r && lit_get_f(r, 0) == 0.5 && lit_get_f(r, 1) == 0 && lit_get_f(r, 2) == 1);
  lit_free(r);
  r = run1(OP_RSQRT, vec(ET_F32, 2), mk_f(ET_F32, 2, 4.0, 0.0));
  CHECK(r && lit_get_f(r, 0) == 0.5 && isinf(lit_get_f(r, 1)));
  lit_free(r);
  r = run1(OP_CBRT, vec(ET_F64, 1), mk_f(ET_F64, 1, -27.0));
  CHECK(r && fabs(lit_get_f(r, 0) + 3.0) < 1e-15);
  lit_free(r);
  r = run1(OP_IS_FINITE, vec(ET_PRED, 3), mk_f(ET_F16, 3, 1.0, INFINITY, NAN));
  CHECK(r && lit_get_b(r, 0) && !lit_get_b(r, 1) && !lit_get_b(r, 2));
  lit_free(r);
  r = run1(OP_CHLO_IS_NEG_INF, vec(ET_PRED, 2), mk_f(ET_F32, 2, -INFINITY, INFINITY));
  CHECK(r && lit_get_b(r, 0) && !lit_get_b(r, 1));
  lit_free(r);
  r = run2(OP_DIVIDE, vec(ET_F8E4M3FN, 2), mk_f(ET_F8E4M3FN, 2, 1.0, 448.0), mk_f(ET_F8E4M3FN, 2, 3.0, 0.5));
  /* 1/3 rounds to 0.34375 in e4m3; 896 overflows to NaN (no inf in FN) */
  CHECK(r && lit_get_f(r, 0) == 0.34375 && isnan(lit_get_f(r, 1)));
  lit_free(r);
}

static void test_complex(void) {
  int64_t one = 1;
  Type *c64 = type_tensor(&M->arena, ET_C64, 1, &one);
  Literal *a = lit_new(c64);
  lit_set_c(a, 0, 3, 4);
  Literal *r = run1(OP_ABS, vec(ET_F32, 1), a);
  CHECK(r && lit_get_f(r, 0) == 5);
  lit_free(r);
  Literal *x = lit_new(c64), *y = lit_new(c64);
  lit_set_c(x, 0, 1.5, 2.5);
  lit_set_c(y, 0, 2.5, 1.5);
  r = run2(OP_DIVIDE, c64, x, y);
  double re, im;
  if (r) lit_get_c(r, 0, &re, &im);
  CHECK(r && fabs(re - 0.88235294117647056) < 1e-7 && fabs(im - 0.4705882352941177) < 1e-7);
  lit_free(r);
  r = run2(OP_COMPLEX, c64, mk_f(ET_F32, 1, 1.0), mk_f(ET_F32, 1, -2.0));
  if (r) lit_get_c(r, 0, &re, &im);
  CHECK(r && re == 1 && im == -2);
  Literal *r2 = run1(OP_IMAG, vec(ET_F32, 1), r);
  CHECK(r2 && lit_get_f(r2, 0) == -2);
  lit_free(r2);
  x = lit_new(c64);
  lit_set_c(x, 0, 0, M_PI);
  r = run1(OP_EXPONENTIAL, c64, x);
  if (r) lit_get_c(r, 0, &re, &im);
  CHECK(r && fabs(re + 1) < 1e-6 && fabs(im) < 1e-6);
  lit_free(r);
  x = lit_new(c64);
  lit_set_c(x, 0, 1e-9, 1e-9);
  r = run1(OP_LOG_PLUS_ONE, c64, x);
  if (r) lit_get_c(r, 0, &re, &im);
  CHECK(r && fabs(re - 1e-9) < 1e-15 && fabs(im - 1e-9) < 1e-15);
  lit_free(r);
}

static void test_compare(void) {
  Literal *r = cmp("NE", NULL, mk_f(ET_F64, 3, NAN, -0.0, 1.0), mk_f(ET_F64, 3, NAN, 0.0, 2.0));
  CHECK(r && lit_get_b(r, 0) && !lit_get_b(r, 1) && lit_get_b(r, 2));
  lit_free(r);
  r = cmp("LT", "TOTALORDER", mk_f(ET_F32, 4, -0.0, -NAN, 1.0, INFINITY),
          mk_f(ET_F32, 4, 0.0, -INFINITY, NAN, NAN));
  CHECK(r && lit_get_b(r, 0) && lit_get_b(r, 1) && lit_get_b(r, 2) && lit_get_b(r, 3));
  lit_free(r);
  r = cmp("EQ", "TOTALORDER", mk_f(ET_F32, 2, -0.0, NAN), mk_f(ET_F32, 2, 0.0, NAN));
  CHECK(r && !lit_get_b(r, 0) && lit_get_b(r, 1));
  lit_free(r);
  r = cmp("GT", NULL, mk_i(ET_U8, 1, 200LL), mk_i(ET_U8, 1, 100LL));
  CHECK(r && lit_get_b(r, 0));
  lit_free(r);
  r = cmp("GT", "SIGNED", mk_i(ET_S8, 1, -56LL), mk_i(ET_S8, 1, 100LL));
  CHECK(r && !lit_get_b(r, 0));
  lit_free(r);
  r = cmp("LT", NULL, mk_i(ET_PRED, 1, 0LL), mk_i(ET_PRED, 1, 1LL));
  CHECK(r && lit_get_b(r, 0));
  lit_free(r);
}

static void test_convert(void) {
  Literal *r = run1(OP_CONVERT, vec(ET_S8, 5), mk_f(ET_F32, 5, 300.7, -1e10, NAN, -3.9, 127.9));
  CHECK(r && lit_get_i(r, 0) == 127 && lit_get_i(r, 1) == -128 && lit_get_i(r, 2) == 0 &&
        lit_get_i(r, 3) == -3 && lit_get_i(r, 4) == 127);
  lit_free(r);
  r = run1(OP_CONVERT, vec(ET_U8, 2), mk_f(ET_F64, 2, -5.0, 1e300));
  CHECK(r && lit_get_u(r, 0) == 0 && lit_get_u(r, 1) == 255);
  lit_free(r);
  r = run1(OP_CONVERT, vec(ET_S64, 2), mk_f(ET_F64, 2, 1e19, -1e19));
  CHECK(r && lit_get_i(r, 0) == INT64_MAX && lit_get_i(r, 1) == INT64_MIN);
  lit_free(r);
  /* 2^60 + 2^36 + 1 is just above a tie for f32: correct rounding goes up */
  long long big = (1LL << 60) + (1LL << 36) + 1;
  r = run1(OP_CONVERT, vec(ET_F32, 1), mk_i(ET_S64, 1, big));
  CHECK(r && bits_eq_f32(r, 0, (float)big));
  lit_free(r);
  r = run1(OP_CONVERT, vec(ET_F16, 3), mk_i(ET_S32, 3, 65519LL, 65520LL, -3LL));
  CHECK(r && lit_get_f(r, 0) == 65504 && isinf(lit_get_f(r, 1)) && lit_get_f(r, 2) == -3);
  lit_free(r);
  r = run1(OP_CONVERT, vec(ET_PRED, 3), mk_f(ET_F32, 3, NAN, 0.0, -0.0));
  CHECK(r && lit_get_b(r, 0) && !lit_get_b(r, 1) && !lit_get_b(r, 2));
  lit_free(r);
  r = run1(OP_CONVERT, vec(ET_S8, 2), mk_i(ET_S32, 2, 300LL, -129LL));
  CHECK(r && lit_get_i(r, 0) == 44 && lit_get_i(r, 1) == 127);
  lit_free(r);
  r = run1(OP_CONVERT, vec(ET_U64, 1), mk_i(ET_PRED, 1, 1LL));
  CHECK(r && lit_get_u(r, 0) == 1);
  lit_free(r);
  r = run1(OP_CONVERT, vec(ET_F32, 1), mk_i(ET_U64, 1, -1LL));
  CHECK(r && lit_get_f(r, 0) == 18446744073709551616.0);
  lit_free(r);
  r = run1(OP_CONVERT, vec(ET_BF16, 1), mk_f(ET_F64, 1, 1.00390625 + 1e-12));
  CHECK(r && lit_get_f(r, 0) == 1.0078125);
  lit_free(r);
  int64_t one = 1;
  Literal *c = lit_new(type_tensor(&M->arena, ET_C128, 1, &one));
  lit_set_c(c, 0, 2.5, 7);
  r = run1(OP_CONVERT, vec(ET_F64, 1), c);
  CHECK(r && lit_get_f(r, 0) == 2.5);
  lit_free(r);
}

static void test_bitcast(void) {
  int64_t d4[2] = {1, 4};
  Literal *r = run1(OP_BITCAST_CONVERT, type_tensor(&M->arena, ET_S8, 2, d4), mk_f(ET_F32, 1, 1.0));
  CHECK(r && lit_get_i(r, 0) == 0 && lit_get_i(r, 1) == 0 && lit_get_i(r, 2) == -128 &&
        lit_get_i(r, 3) == 63);
  lit_free(r);
  int64_t d2[2] = {1, 2};
  Literal *in = lit_new(type_tensor(&M->arena, ET_U16, 2, d2));
  lit_set_u(in, 0, 0x0000);
  lit_set_u(in, 1, 0x3FF0);
  r = run1(OP_BITCAST_CONVERT, vec(ET_F32, 1), in);
  CHECK(r && lit_get_f(r, 0) == 1.875);
  lit_free(r);
  int64_t d8[2] = {1, 8};
  r = run1(OP_BITCAST_CONVERT, type_tensor(&M->arena, ET_PRED, 2, d8), mk_i(ET_U8, 1, 0x81LL));
  CHECK(r && lit_get_b(r, 0) && !lit_get_b(r, 1) && lit_get_b(r, 7));
  lit_free(r);
  r = run1(OP_BITCAST_CONVERT, vec(ET_S4, 1), mk_i(ET_U4, 1, 15LL));
  CHECK(r && lit_get_i(r, 0) == -1);
  lit_free(r);
  /* mismatched sizes are an error, not a crash */
  r = run1(OP_BITCAST_CONVERT, vec(ET_S16, 1), mk_f(ET_F32, 1, 1.0));
  CHECK(r == NULL);
}

static void test_reduce_precision(void) {
  Literal *in[1] = {mk_f(ET_F32, 5, 65520.0, 1e-8, 1.0 + 1.0 / 2048, 1.0 + 3.0 / 2048, NAN)};
  Literal *r = run(OP_REDUCE_PRECISION, vec(ET_F32, 5), 1, in, "exponent_bits", attr_int(M, 5, NULL),
                   "mantissa_bits", attr_int(M, 10, NULL));
  CHECK(r && isinf(lit_get_f(r, 0)) && lit_get_f(r, 1) == 0 && lit_get_f(r, 2) == 1.0 &&
        lit_get_f(r, 3) == 1.0 + 2.0 / 1024 && isnan(lit_get_f(r, 4)));
  lit_free(r);
  in[0] = mk_f(ET_F64, 1, NAN);
  r = run(OP_REDUCE_PRECISION, vec(ET_F64, 1), 1, in, "exponent_bits", attr_int(M, 5, NULL),
          "mantissa_bits", attr_int(M, 0, NULL));
  CHECK(r && isinf(lit_get_f(r, 0)));
  lit_free(r);
}

static void test_select_clamp_bcast(void) {
  int64_t z = 0;
  Literal *p = lit_new(type_tensor(&M->arena, ET_PRED, 0, &z));
  lit_set_b(p, 0, false);
  Literal *in[3] = {p, mk_i(ET_S32, 2, 1LL, 2LL), mk_i(ET_S32, 2, 3LL, 4LL)};
  Literal *r = run(OP_SELECT, vec(ET_S32, 2), 3, in, NULL, NULL, NULL, NULL);
  CHECK(r && lit_get_i(r, 0) == 3 && lit_get_i(r, 1) == 4);
  lit_free(r);
  Literal *lo = lit_new(type_tensor(&M->arena, ET_F32, 0, &z));
  lit_set_f(lo, 0, 0.0);
  Literal *cin[3] = {lo, mk_f(ET_F32, 3, -1.0, 0.5, NAN), mk_f(ET_F32, 3, 1.0, 0.25, 1.0)};
  r = run(OP_CLAMP, vec(ET_F32, 3), 3, cin, NULL, NULL, NULL, NULL);
  CHECK(r && lit_get_f(r, 0) == 0 && lit_get_f(r, 1) == 0.25 && isnan(lit_get_f(r, 2)));
  lit_free(r);
  int64_t d23[2] = {2, 3};
  Type *t23 = type_tensor(&M->arena, ET_S32, 2, d23);
  Literal *a = lit_new(t23);
  for (int i = 0; i < 6; i++) lit_set_i(a, i, i);
  r = run2(OP_CHLO_BROADCAST_ADD, t23, a, mk_i(ET_S32, 3, 10LL, 20LL, 30LL));
  CHECK(r && lit_get_i(r, 0) == 10 && lit_get_i(r, 4) == 24 && lit_get_i(r, 5) == 35);
  lit_free(r);
  a = lit_new(t23);
  for (int i = 0; i < 6; i++) lit_set_i(a, i, i);
  int64_t bd = 0;
  Literal *bin[2] = {a, mk_i(ET_S32, 2, 100LL, 200LL)};
  r = run(OP_CHLO_BROADCAST_MULTIPLY, t23, 2, bin, "broadcast_dimensions", attr_ints(M, 1, &bd), NULL, NULL);
  CHECK(r && lit_get_i(r, 0) == 0 && lit_get_i(r, 2) == 200 && lit_get_i(r, 3) == 600);
  lit_free(r);
  Literal *cmpin[2] = {mk_i(ET_S32, 1, 2LL), mk_i(ET_S32, 3, 1LL, 2LL, 3LL)};
  r = run(OP_CHLO_BROADCAST_COMPARE, vec(ET_PRED, 3), 2, cmpin, "comparison_direction",
          attr_enum(M, "comparison_direction", "GE"), NULL, NULL);
  CHECK(r && lit_get_b(r, 0) && lit_get_b(r, 1) && !lit_get_b(r, 2));
  lit_free(r);
  /* incompatible shapes report an error */
  Literal *bad[2] = {mk_i(ET_S32, 2, 1LL, 2LL), mk_i(ET_S32, 3, 1LL, 2LL, 3LL)};
  r = run(OP_CHLO_BROADCAST_ADD, vec(ET_S32, 3), 2, bad, NULL, NULL, NULL, NULL);
  CHECK(r == NULL);
  /* mismatched element types report an error */
  r = run2(OP_ADD, vec(ET_S32, 1), mk_i(ET_S32, 1, 1LL), mk_f(ET_F32, 1, 1.0));
  CHECK(r == NULL);
  r = run2(OP_SHIFT_LEFT, vec(ET_F32, 1), mk_f(ET_F32, 1, 1.0), mk_f(ET_F32, 1, 1.0));
  CHECK(r == NULL);
}

static bool close_rel(double got, double want, double tol) {
  return fabs(got - want) <= tol * fabs(want) || (got == want);
}

static double one_f64(OpKind k, double x) {
  Literal *r = run1(k, vec(ET_F64, 1), mk_f(ET_F64, 1, x));
  double v = r ? lit_get_f(r, 0) : -12345;
  lit_free(r);
  return v;
}

static double two_f64(OpKind k, double x, double y) {
  Literal *r = run2(k, vec(ET_F64, 1), mk_f(ET_F64, 1, x), mk_f(ET_F64, 1, y));
  double v = r ? lit_get_f(r, 0) : -12345;
  lit_free(r);
  return v;
}

static void test_special(void) {
  const double pi2_6 = M_PI * M_PI / 6;
  CHECK(close_rel(one_f64(OP_CHLO_ERF_INV, 0.5), 0.47693627620446987, 1e-15));
  CHECK(close_rel(one_f64(OP_CHLO_ERF_INV, erf(2.5)), 2.5, 1e-13));
  CHECK(close_rel(one_f64(OP_CHLO_ERF_INV, -0.999999), -3.458910737275499, 1e-12));
  CHECK(isinf(one_f64(OP_CHLO_ERF_INV, 1.0)) && isnan(one_f64(OP_CHLO_ERF_INV, 1.5)));
  CHECK(close_rel(one_f64(OP_CHLO_ERF_INV, 1e-300), 1e-300 * 0.88622692545275801, 1e-14));
  CHECK(close_rel(one_f64(OP_CHLO_DIGAMMA, 1.0), -0.57721566490153286, 1e-14));
  CHECK(close_rel(one_f64(OP_CHLO_DIGAMMA, 0.5), -1.9635100260214235, 1e-14));
  CHECK(close_rel(one_f64(OP_CHLO_DIGAMMA, -0.5), 0.03648997397857652, 1e-12));
  CHECK(isnan(one_f64(OP_CHLO_DIGAMMA, -2.0)));
  CHECK(close_rel(one_f64(OP_CHLO_LGAMMA, 0.5), 0.57236494292470008, 1e-15));
  CHECK(close_rel(two_f64(OP_CHLO_IGAMMA, 2.0, 1.0), 1 - 2 / M_E, 1e-14));
  CHECK(close_rel(two_f64(OP_CHLO_IGAMMAC, 2.0, 1.0), 2 / M_E, 1e-14));
  CHECK(close_rel(two_f64(OP_CHLO_IGAMMAC, 1.0, 30.0), exp(-30.0), 1e-12));
  CHECK(close_rel(two_f64(OP_CHLO_IGAMMA, 0.5, 2.0), erf(sqrt(2.0)), 1e-14));
  CHECK(two_f64(OP_CHLO_IGAMMA, 3.0, 0.0) == 0 && isnan(two_f64(OP_CHLO_IGAMMA, -1.0, 1.0)));
  CHECK(close_rel(two_f64(OP_CHLO_ZETA, 2.0, 1.0), pi2_6, 1e-15));
  CHECK(close_rel(two_f64(OP_CHLO_ZETA, 4.0, 1.0), pow(M_PI, 4) / 90, 1e-15));
  CHECK(close_rel(two_f64(OP_CHLO_ZETA, 2.0, 0.5), M_PI * M_PI / 2, 1e-14));
  CHECK(close_rel(two_f64(OP_CHLO_ZETA, 80.0, 2.0), pow(2.0, -80) * (1 + pow(1.5, -80)), 1e-14));
  CHECK(isinf(two_f64(OP_CHLO_ZETA, 1.0, 1.0)) && isnan(two_f64(OP_CHLO_ZETA, 0.5, 1.0)));
  CHECK(close_rel(two_f64(OP_CHLO_POLYGAMMA, 1.0, 1.0), pi2_6, 1e-15));
  CHECK(close_rel(two_f64(OP_CHLO_POLYGAMMA, 2.0, 1.0), -2.4041138063191885, 1e-14));
  CHECK(close_rel(two_f64(OP_CHLO_POLYGAMMA, 0.0, 1.0), -0.57721566490153286, 1e-14));
  CHECK(isnan(two_f64(OP_CHLO_POLYGAMMA, 1.5, 1.0)));
  CHECK(close_rel(one_f64(OP_CHLO_BESSEL_I1E, 1.0), 0.20791041534970844, 1e-14));
  CHECK(close_rel(one_f64(OP_CHLO_BESSEL_I1E, -1.0), -0.20791041534970844, 1e-14));
  CHECK(close_rel(one_f64(OP_CHLO_BESSEL_I1E, 100.0), 0.03974415302513025, 1e-7));
  CHECK(close_rel(one_f64(OP_CHLO_BESSEL_I1E, 29.999999), one_f64(OP_CHLO_BESSEL_I1E, 30.000001), 1e-7));
  CHECK(close_rel(one_f64(OP_CHLO_ERF, 0.5), 0.52049987781304654, 1e-15));
  CHECK(close_rel(one_f64(OP_CHLO_ERFC, 5.0), 1.5374597944280349e-12, 1e-14));
  Literal *r = run2(OP_CHLO_NEXT_AFTER, vec(ET_F32, 4), mk_f(ET_F32, 4, 1.0, 0.0, -1.0, 1.0),
                    mk_f(ET_F32, 4, 2.0, -1.0, 0.0, 1.0));
  CHECK(r && lit_get_f(r, 0) == 1.0 + ldexp(1, -23) && lit_get_f(r, 1) == -ldexp(1, -149) &&
        lit_get_f(r, 2) == -1.0 + ldexp(1, -24) && lit_get_f(r, 3) == 1.0);
  lit_free(r);
  r = run2(OP_CHLO_NEXT_AFTER, vec(ET_BF16, 2), mk_f(ET_BF16, 2, 1.0, ldexp(1, -133)),
           mk_f(ET_BF16, 2, 0.0, 0.0));
  CHECK(r && lit_get_f(r, 0) == 1.0 - ldexp(1, -8) && lit_get_f(r, 1) == 0);
  lit_free(r);
  /* f32 special functions are computed in double and rounded once */
  r = run1(OP_CHLO_LGAMMA, vec(ET_F32, 1), mk_f(ET_F32, 1, 3.0));
  CHECK(r && bits_eq_f32(r, 0, (float)log(2.0)));
  lit_free(r);
}

static void test_speed(void) {
  int64_t n = 1 << 20;
  Type *t = type_tensor(&M->arena, ET_F32, 1, &n);
  Literal *a = lit_new(t), *b = lit_new(t);
  for (int64_t i = 0; i < n; i++) {
    ((float *)a->data)[i] = (float)i * 0.001f;
    ((float *)b->data)[i] = 1.5f;
  }
  clock_t c0 = clock();
  Literal *r = run2(OP_ADD, t, lit_clone(a), lit_clone(b));
  Literal *m = run2(OP_MULTIPLY, t, lit_clone(a), lit_clone(b));
  Literal *e = run1(OP_EXPONENTIAL, t, lit_clone(b));
  double secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
  printf("1M-element f32 add + multiply + exp: %.3f s\n", secs);
  CHECK(r && m && e && secs < 1.0);
  CHECK(r && ((float *)r->data)[1000] == 1.0f + 1.5f);
  lit_free(r);
  lit_free(m);
  lit_free(e);
  lit_free(a);
  lit_free(b);
}

int main(void) {
  M = module_new();
  FILE *devnull = fopen("/dev/null", "w");
  if (devnull && !getenv("EW_VERBOSE")) diag_set_stream(devnull); /* the error-path tests are expected to report */
  test_int_arith();
  test_float_arith();
  test_complex();
  test_compare();
  test_convert();
  test_bitcast();
  test_reduce_precision();
  test_select_clamp_bcast();
  test_special();
  test_speed();
  module_free(M);
  diag_set_stream(stderr);
  if (devnull) fclose(devnull);
  TEST_SUMMARY();
}
