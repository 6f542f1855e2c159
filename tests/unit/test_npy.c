/* test_npy.c - .npy reading and writing: round trips for every storable
   element type, files as NumPy and ml_dtypes write them (Fortran order,
   big-endian, version 2 headers, raw bf16 / int4), and the malformed files
   that must be rejected with a message instead of crashing. */
#include <stdlib.h>

#include "support/npy.h"
#include "test_util.h"

static Arena arena;

static Type *tt(ElemType et, int rank, const int64_t *dims) { return type_tensor(&arena, et, rank, dims); }

/* Builds an .npy image from a header dict and raw data (version 1). */
static char *image(const char *dict, const void *data, size_t n, size_t *len) {
  StrBuf b = {0};
  size_t hl = strlen(dict);
  sb_putn(&b, "\x93NUMPY\x01\x00", 8);
  sb_putc(&b, (char)(hl & 0xff));
  sb_putc(&b, (char)(hl >> 8));
  sb_puts(&b, dict);
  sb_putn(&b, data, n);
  *len = b.len;
  return sb_take(&b);
}

/* decode an image, expecting failure whose message contains `want` */
static void expect_error(const char *img, size_t len, const Type *t, const char *want) {
  char *err = NULL;
  Literal *l = npy_decode(img, len, t, &err);
  CHECK(l == NULL);
  CHECK(err && strstr(err, want));
  if (err && !strstr(err, want)) fprintf(stderr, "  message was: %s\n", err);
  lit_free(l);
  free(err);
}

static void test_round_trips(void) {
  static const ElemType types[] = {ET_PRED, ET_S2, ET_S4, ET_S8, ET_S16, ET_S32, ET_S64, ET_U2, ET_U4,
                                   ET_U8, ET_U16, ET_U32, ET_U64, ET_F16, ET_BF16, ET_F32, ET_F64,
                                   ET_F8E4M3FN, ET_F8E5M2, ET_F4E2M1FN, ET_C64, ET_C128};
  int64_t dims[] = {2, 3};
  for (size_t k = 0; k < ARRAY_LEN(types); k++) {
    for (int rank = 0; rank <= 2; rank++) {
      Type *t = tt(types[k], rank, dims);
      Literal *l = lit_new(t);
      for (int64_t i = 0; i < l->n; i++) {
        if (et_is_complex(types[k]))
          lit_set_c(l, i, (double)i - 2.5, 0.5 * (double)i);
        else if (et_is_float(types[k]))
          lit_set_f(l, i, (double)i - 2.0);
        else
          lit_set_i(l, i, (int64_t)i - 1);
      }
      StrBuf b = {0};
      char *err = NULL;
      CHECK(npy_encode(&b, l, &err));
      CHECK(b.len % 64 == (size_t)(l->n * et_bytes(types[k])) % 64);
      Literal *back = npy_decode(b.data, b.len, t, &err);
      CHECK(back != NULL);
      if (back) {
        CHECK(lit_equal(l, back));
        lit_free(back);
      } else {
        fprintf(stderr, "  %s rank %d: %s\n", elem_info[types[k]].mlir_name, rank, err);
      }
      free(err);
      sb_free(&b);
      lit_free(l);
    }
  }
  /* zero-sized */
  int64_t zd[] = {0, 3};
  Literal *z = lit_new(tt(ET_F32, 2, zd));
  StrBuf b = {0};
  CHECK(npy_encode(&b, z, NULL));
  Literal *zb = npy_decode(b.data, b.len, NULL, NULL);
  CHECK(zb && zb->n == 0 && zb->type->rank == 2 && zb->type->dims[0] == 0 && zb->type->dims[1] == 3);
  CHECK(strstr(b.data + 10, "'shape': (0, 3)") != NULL);
  lit_free(zb);
  lit_free(z);
  sb_free(&b);
}

static void test_numpy_files(void) {
  size_t len;
  /* Fortran order: file holds columns first */
  float fd[6] = {1, 4, 2, 5, 3, 6};
  char *img = image("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }\n", fd, sizeof fd, &len);
  Literal *l = npy_decode(img, len, NULL, NULL);
  CHECK(l && lit_elem(l) == ET_F32 && l->n == 6);
  for (int i = 0; l && i < 6; i++) CHECK_EQ_F(lit_get_f(l, i), i + 1);
  lit_free(l);
  free(img);

  /* big-endian int32 */
  unsigned char be[8] = {0, 0, 1, 2, 0xff, 0xff, 0xff, 0xfe};
  img = image("{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }", be, sizeof be, &len);
  l = npy_decode(img, len, NULL, NULL);
  CHECK(l && lit_get_i(l, 0) == 258 && lit_get_i(l, 1) == -2);
  lit_free(l);
  free(img);

  /* bool, scalar shape, double quotes, keys in another order */
  unsigned char bo = 1;
  img = image("{\"shape\": (), \"fortran_order\": False, \"descr\": \"|b1\"}", &bo, 1, &len);
  l = npy_decode(img, len, NULL, NULL);
  CHECK(l && lit_elem(l) == ET_PRED && l->type->rank == 0 && lit_get_b(l, 0));
  lit_free(l);
  free(img);

  /* ml_dtypes bfloat16 is written as raw '<V2' */
  uint16_t bf[2] = {0x3F80, 0xC000}; /* 1.0, -2.0 */
  img = image("{'descr': '<V2', 'fortran_order': False, 'shape': (2,), }", bf, sizeof bf, &len);
  int64_t d2[] = {2};
  l = npy_decode(img, len, tt(ET_BF16, 1, d2), NULL);
  CHECK(l && lit_get_f(l, 0) == 1.0 && lit_get_f(l, 1) == -2.0);
  lit_free(l);
  expect_error(img, len, NULL, "needs a known element type");
  expect_error(img, len, tt(ET_F32, 1, d2), "cannot hold f32");
  free(img);

  /* ml_dtypes int4 keeps the low nibble: 0x0F is -1 */
  unsigned char i4[3] = {0x0F, 0x07, 0x08};
  img = image("{'descr': '<V1', 'fortran_order': False, 'shape': (3,), }", i4, 3, &len);
  int64_t d3[] = {3};
  l = npy_decode(img, len, tt(ET_S4, 1, d3), NULL);
  CHECK(l && lit_get_i(l, 0) == -1 && lit_get_i(l, 1) == 7 && lit_get_i(l, 2) == -8);
  lit_free(l);
  free(img);

  /* int4 from plain int8 data: range-checked */
  signed char i8[3] = {-8, 7, 9};
  img = image("{'descr': '|i1', 'fortran_order': False, 'shape': (3,), }", i8, 3, &len);
  expect_error(img, len, tt(ET_S4, 1, d3), "does not fit in i4");
  free(img);

  /* version 2 header */
  StrBuf b = {0};
  const char *dict = "{'descr': '<i2', 'fortran_order': False, 'shape': (1,), }";
  sb_putn(&b, "\x93NUMPY\x02\x00", 8);
  uint32_t hl = (uint32_t)strlen(dict);
  sb_putn(&b, (const char *)&hl, 4);
  sb_puts(&b, dict);
  int16_t v = -300;
  sb_putn(&b, (const char *)&v, 2);
  l = npy_decode(b.data, b.len, NULL, NULL);
  CHECK(l && lit_elem(l) == ET_S16 && lit_get_i(l, 0) == -300);
  lit_free(l);
  sb_free(&b);
}

static void test_errors(void) {
  size_t len;
  float f[4] = {0};
  int64_t d4[] = {4}, d22[] = {2, 2};
  const char *ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }";
  expect_error("", 0, NULL, "bad magic");
  expect_error("\x93NUMPX\x01\x00\x00\x00", 10, NULL, "bad magic");
  expect_error("\x93NUMPY\x09\x00\x00\x00", 10, NULL, "unsupported .npy version");
  expect_error("\x93NUMPY\x01\x00\xff\x00{", 11, NULL, "truncated .npy header");
  char *img = image(ok, f, sizeof f, &len);
  expect_error(img, len - 1, NULL, "truncated .npy data");
  expect_error(img, len, tt(ET_F32, 2, d22), "does not match the expected type tensor<2x2xf32>");
  expect_error(img, len, tt(ET_F64, 1, d4), "does not match the expected element type f64");
  Literal *l = npy_decode(img, len, tt(ET_F32, 1, d4), NULL);
  CHECK(l != NULL);
  lit_free(l);
  free(img);
  img = image(ok, f, sizeof f + 0, &len);
  char *longer = xmalloc(len + 3);
  memcpy(longer, img, len);
  expect_error(longer, len + 3, NULL, "trailing bytes");
  free(longer);
  free(img);
  img = image("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", f, 4, &len);
  expect_error(img, len, NULL, "structured");
  free(img);
  img = image("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296), }", f, 4, &len);
  expect_error(img, len, NULL, "too large");
  free(img);
  img = image("{'descr': '<f4', 'fortran_order': False}", f, 4, &len);
  expect_error(img, len, NULL, "needs 'descr'");
  free(img);
  img = image("{'descr': '<x4', 'fortran_order': False, 'shape': (1,)}", f, 4, &len);
  expect_error(img, len, NULL, "unsupported .npy dtype");
  free(img);
  img = image("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,)}", f, 4, &len);
  expect_error(img, len, NULL, "fortran_order");
  free(img);
  img = image("{'descr': '<f4', 'fortran_order': False, 'shape': (1,2", f, 4, &len);
  expect_error(img, len, NULL, "malformed");
  free(img);
  /* files */
  char *err = NULL;
  CHECK(npy_read("/nonexistent/x.npy", NULL, &err) == NULL && err && strstr(err, "cannot read"));
  free(err);
  int64_t d1[] = {1};
  Literal *q = lit_new(tt(ET_F32, 1, d1));
  CHECK(!npy_write("/nonexistent/dir/x.npy", q, &err) && err && strstr(err, "cannot write"));
  free(err);
  lit_free(q);
}

int main(void) {
  arena_init(&arena);
  test_round_trips();
  test_numpy_files();
  test_errors();
  arena_free(&arena);
  TEST_SUMMARY();
}
