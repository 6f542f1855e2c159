/* Unit tests for src/ir types and literals: element table, type printing,
   narrow float formats (bit-exact encodings), integer wrapping, formatting. */
#include <math.h>
#include <stdlib.h>

#include "ir/ir.h"
#include "test_util.h"

static char *fmt_type(const Type *t, bool hlo) {
  StrBuf b = {0};
  if (hlo)
    type_print_hlo(&b, t, true);
  else
    type_print_mlir(&b, t);
  return sb_take(&b);
}

int main(void) {
  Arena a;
  arena_init(&a);

  /* element type names in both spellings */
  CHECK(et_from_mlir("f32", 3) == ET_F32);
  CHECK(et_from_mlir("si8", 3) == ET_S8);
  CHECK(et_from_mlir("ui4", 3) == ET_U4);
  CHECK(et_from_mlir("complex<f64>", 12) == ET_C128);
  CHECK(et_from_mlir("f8E4M3FN", 8) == ET_F8E4M3FN);
  CHECK(et_from_mlir("f31", 3) == ET_INVALID);
  CHECK(et_from_hlo("pred", 4) == ET_PRED);
  CHECK(et_from_hlo("c64", 3) == ET_C64);

  /* types */
  int64_t d[] = {2, 0, 3};
  Type *t = type_tensor(&a, ET_BF16, 3, d);
  char *s = fmt_type(t, false);
  CHECK_STR(s, "tensor<2x0x3xbf16>");
  free(s);
  s = fmt_type(t, true);
  CHECK_STR(s, "bf16[2,0,3]{2,1,0}");
  free(s);
  CHECK_EQ_I(type_num_elements(t), 0);
  Type *sc = type_scalar(&a, ET_F32);
  Type *parts[] = {sc, type_token(&a)};
  Type *tu = type_tuple(&a, 2, parts);
  s = fmt_type(tu, true);
  CHECK_STR(s, "(f32[], token[])");
  free(s);
  CHECK(type_equal(tu, type_clone(&a, tu)));
  CHECK(!type_equal(sc, type_scalar(&a, ET_F64)));

  /* narrow floats: exact known encodings */
  CHECK_EQ_I(et_double_to_bits(ET_F16, 1.0), 0x3C00);
  CHECK_EQ_I(et_double_to_bits(ET_F16, 65504.0), 0x7BFF);
  CHECK_EQ_I(et_double_to_bits(ET_F16, 65520.0), 0x7C00); /* rounds to inf */
  CHECK_EQ_I(et_double_to_bits(ET_F16, 5.960464477539063e-08), 0x0001);
  CHECK_EQ_I(et_double_to_bits(ET_BF16, 1.0), 0x3F80);
  CHECK_EQ_I(et_double_to_bits(ET_BF16, -2.0), 0xC000);
  CHECK_EQ_I(et_double_to_bits(ET_BF16, 1.00390625), 0x3F80); /* tie -> even */
  CHECK_EQ_I(et_double_to_bits(ET_BF16, 1.01171875), 0x3F82); /* tie -> even (up) */
  CHECK_EQ_F(et_max_finite(ET_F8E4M3FN), 448.0);
  CHECK_EQ_F(et_max_finite(ET_F8E5M2), 57344.0);
  CHECK_EQ_F(et_max_finite(ET_F8E4M3FNUZ), 240.0);
  CHECK_EQ_F(et_max_finite(ET_F8E5M2FNUZ), 57344.0);
  CHECK_EQ_F(et_max_finite(ET_F8E4M3B11FNUZ), 30.0);
  CHECK_EQ_F(et_max_finite(ET_F8E4M3), 240.0);
  CHECK_EQ_F(et_max_finite(ET_F8E3M4), 15.5);
  CHECK_EQ_F(et_max_finite(ET_F4E2M1FN), 6.0);
  CHECK_EQ_F(et_max_finite(ET_F6E2M3FN), 7.5);
  CHECK_EQ_F(et_max_finite(ET_F6E3M2FN), 28.0);
  CHECK_EQ_I(et_double_to_bits(ET_F8E4M3FN, 1.0), 0x38);
  CHECK_EQ_I(et_double_to_bits(ET_F8E4M3FN, 1000.0), 0x7F); /* overflow -> NaN */
  CHECK(isnan(et_bits_to_double(ET_F8E4M3FN, 0x7F)));
  CHECK(isnan(et_bits_to_double(ET_F8E4M3FNUZ, 0x80)));
  CHECK_EQ_I(et_double_to_bits(ET_F8E4M3FNUZ, -0.0), 0x00); /* no negative zero */
  CHECK_EQ_I(et_double_to_bits(ET_F8E5M2, INFINITY), 0x7C);
  CHECK_EQ_F(et_bits_to_double(ET_F8E5M2, 0x01), ldexp(1, -16)); /* smallest subnormal */
  CHECK_EQ_F(et_bits_to_double(ET_F8E8M0FNU, 127), 1.0);
  CHECK_EQ_I(et_double_to_bits(ET_F4E2M1FN, 100.0), 0x7); /* saturates: no inf/NaN */
  /* every finite f8E4M3FN pattern round-trips */
  int roundtrip_ok = 1;
  for (int bits = 0; bits < 256; bits++) {
    double v = et_bits_to_double(ET_F8E4M3FN, (uint64_t)bits);
    if (isnan(v)) continue;
    if (et_double_to_bits(ET_F8E4M3FN, v) != (uint64_t)bits) roundtrip_ok = 0;
  }
  CHECK(roundtrip_ok);

  /* integer wrapping and sign extension in narrow types */
  Literal *l = lit_new_in(&a, type_tensor(&a, ET_S4, 1, (int64_t[]){3}));
  lit_set_i(l, 0, 7);
  lit_set_i(l, 1, 8);   /* wraps to -8 */
  lit_set_i(l, 2, -9);  /* wraps to 7 */
  CHECK_EQ_I(lit_get_i(l, 0), 7);
  CHECK_EQ_I(lit_get_i(l, 1), -8);
  CHECK_EQ_I(lit_get_i(l, 2), 7);
  Literal *u = lit_new_in(&a, type_tensor(&a, ET_U2, 1, (int64_t[]){2}));
  lit_set_i(u, 0, 5);
  lit_set_i(u, 1, -1);
  CHECK_EQ_I(lit_get_i(u, 0), 1);
  CHECK_EQ_I(lit_get_i(u, 1), 3);
  Literal *u64 = lit_new_in(&a, type_scalar(&a, ET_U64));
  lit_set_u(u64, 0, UINT64_MAX);
  CHECK(lit_get_u(u64, 0) == UINT64_MAX);

  /* float to int conversion is defined for NaN and out-of-range values */
  Literal *i32 = lit_new_in(&a, type_tensor(&a, ET_S32, 1, (int64_t[]){2}));
  lit_set_f(i32, 0, NAN);
  lit_set_f(i32, 1, -2.9);
  CHECK_EQ_I(lit_get_i(i32, 0), 0);
  CHECK_EQ_I(lit_get_i(i32, 1), -2);

  /* printing: shortest round-trip decimals, hex for non-finite in MLIR */
  Literal *f = lit_new_in(&a, type_tensor(&a, ET_F32, 2, (int64_t[]){2, 2}));
  lit_set_f(f, 0, 0.1);
  lit_set_f(f, 1, 1.0);
  lit_set_f(f, 2, INFINITY);
  lit_set_f(f, 3, -2.5e-8);
  StrBuf b = {0};
  lit_print_mlir_body(&b, f);
  s = sb_take(&b);
  CHECK_STR(s, "dense<[[0.1, 1.0], [0x7F800000, -2.5e-08]]>");
  free(s);
  lit_print_hlo_body(&b, f);
  s = sb_take(&b);
  CHECK_STR(s, "{{0.1, 1.0}, {inf, -2.5e-08}}");
  free(s);
  Literal *g = lit_new_in(&a, type_tensor(&a, ET_F32, 1, (int64_t[]){3}));
  lit_set_f(g, 0, 100.0);
  lit_set_f(g, 1, 123456789.0);
  lit_set_f(g, 2, 1e20);
  lit_print_hlo_body(&b, g);
  s = sb_take(&b);
  CHECK_STR(s, "{100.0, 123456792.0, 1e+20}");
  free(s);
  Literal *c = lit_new_in(&a, type_scalar(&a, ET_C64));
  lit_set_c(c, 0, 1.5, -2);
  lit_print_mlir_body(&b, c);
  s = sb_take(&b);
  CHECK_STR(s, "dense<(1.5, -2.0)>");
  free(s);

  /* heap literals own their type */
  Literal *h = lit_new(t);
  Literal *h2 = lit_clone(h);
  CHECK(lit_equal(h, h2));
  lit_free(h);
  lit_free(h2);
  arena_free(&a);
  TEST_SUMMARY();
}
