/*
 * test_cost.c - the cost model (passes/cost.h) on small programs whose
 * flops, transcendentals and bytes are counted by hand here; where XLA's
 * cost analysis (JAX's CPU backend, jax 0.10.2) counts the same program
 * the same way, its figure is noted.  Then the optimized module (after
 * fusion) and the figures the library reports in xlac_executable_stats.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes/cost.h"
#include "passes/passes.h"
#include "test_module.h"
#include "test_util.h"
#include "xlac/xlac.h"

static Cost cost_of(const char *text) {
  Module *m = parse(text);
  Cost c = {-1, -1, -1};
  if (!m) return c;
  c = cost_func(m, module_entry(m));
  module_free(m);
  return c;
}

#define CHECK_COST(c, f, t, b)           \
  do {                                   \
    Cost c_ = (c);                       \
    CHECK_EQ_F(c_.flops, f);             \
    CHECK_EQ_F(c_.transcendentals, t);   \
    CHECK_EQ_F(c_.bytes, b);             \
  } while (0)

static const char dot_text[] =
    "func.func @main(%x: tensor<64x32xf32>, %w: tensor<32x16xf32>) -> tensor<64x16xf32> {\n"
    "  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x16xf32>) -> "
    "tensor<64x16xf32>\n"
    "  return %0 : tensor<64x16xf32>\n"
    "}\n";

static void test_dot(void) {
  /* 2 * 64 * 16 * 32; the three tensors once (XLA: the same) */
  CHECK_COST(cost_of(dot_text), 65536, 0, (64 * 32 + 32 * 16 + 64 * 16) * 4);
  /* over a batch of 3: 2 * 3 * 4 * 6 * 5 (XLA: 720 flops, 888 bytes) */
  CHECK_COST(cost_of("func.func @main(%a: tensor<3x4x5xf32>, %b: tensor<3x5x6xf32>) -> tensor<3x4x6xf32> {\n"
                     "  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : "
                     "(tensor<3x4x5xf32>, tensor<3x5x6xf32>) -> tensor<3x4x6xf32>\n"
                     "  return %0 : tensor<3x4x6xf32>\n"
                     "}\n"),
             720, 0, 888);
  /* f64 matrix times vector: 2 * 7 * 5; bytes (35 + 5 + 7) * 8 */
  CHECK_COST(cost_of("func.func @main(%a: tensor<7x5xf64>, %b: tensor<5xf64>) -> tensor<7xf64> {\n"
                     "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
                     "(tensor<7x5xf64>, tensor<5xf64>) -> tensor<7xf64>\n"
                     "  return %0 : tensor<7xf64>\n"
                     "}\n"),
             70, 0, 47 * 8);
}

static void test_conv(void) {
  const char *fmt =
      "func.func @main(%%x: tensor<%s>, %%k: tensor<%s>) -> tensor<%s> {\n"
      "  %%0 = stablehlo.convolution(%%x, %%k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = "
      "{stride = [%d, %d], pad = [[%d, %d], [%d, %d]], lhs_dilate = [%d, %d], rhs_dilate = [%d, %d]} "
      "{batch_group_count = 1 : i64, feature_group_count = %d : i64} : (tensor<%s>, tensor<%s>) -> tensor<%s>\n"
      "  return %%0 : tensor<%s>\n"
      "}\n";
  char text[2048];
#define CONV(x, k, o, s, p, ld, rd, g)                                                                          \
  (snprintf(text, sizeof text, fmt, x, k, o, s, s, p, p, p, p, ld, ld, rd, rd, g, x, k, o, o), cost_of(text))
  /* VALID: 2 * 512 outputs * 27 taps (XLA: 27648) */
  CHECK_COST(CONV("2x3x10x10xf32", "4x3x3x3xf32", "2x4x8x8xf32", 1, 0, 1, 1, 1), 27648, 0,
             (600 + 108 + 512) * 4);
  /* SAME: taps on the padding do not count: per dimension 3 * 10 - 2 = 28
     taps over the 10 positions, 2 * 2 * 4 * 3 * 28 * 28 (XLA: 37632) */
  CHECK_COST(CONV("2x3x10x10xf32", "4x3x3x3xf32", "2x4x10x10xf32", 1, 1, 1, 1, 1), 37632, 0,
             (600 + 108 + 800) * 4);
  /* stride 2: 4 positions of 3 taps per dimension (XLA: 6912) */
  CHECK_COST(CONV("2x3x10x10xf32", "4x3x3x3xf32", "2x4x4x4xf32", 2, 0, 1, 1, 1), 6912, 0, (600 + 108 + 128) * 4);
  /* 3 groups of 2 input features (XLA: 27648) */
  CHECK_COST(CONV("2x6x10x10xf32", "6x2x3x3xf32", "2x6x8x8xf32", 1, 0, 1, 1, 3), 27648, 0,
             (1200 + 108 + 768) * 4);
  /* transposed (input dilated by 2, padded by 2): each of the 5 inputs of
     a dimension meets each of the 3 taps once, 2 * 15 * 15 (XLA: 450) */
  CHECK_COST(CONV("1x1x5x5xf32", "1x1x3x3xf32", "1x1x11x11xf32", 1, 2, 2, 1, 1), 450, 0, (25 + 9 + 121) * 4);
  /* window dilated by 2: 5 positions of 3 taps (XLA: 450) */
  CHECK_COST(CONV("1x1x9x9xf32", "1x1x3x3xf32", "1x1x5x5xf32", 1, 0, 1, 2, 1), 450, 0, (81 + 9 + 25) * 4);
#undef CONV
}

static const char chain_text[] =
    "func.func @main(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {\n"
    "  %0 = stablehlo.exponential %x : tensor<8x16xf32>\n"
    "  %1 = stablehlo.multiply %0, %y : tensor<8x16xf32>\n"
    "  %2 = stablehlo.add %1, %x : tensor<8x16xf32>\n"
    "  return %2 : tensor<8x16xf32>\n"
    "}\n";

static void test_elementwise(void) {
  /* exp: 128 transcendentals; multiply, add: 128 flops each; unfused, each
     op reads its operands and writes its result (512 bytes a tensor) */
  CHECK_COST(cost_of(chain_text), 256, 128, 512 * 2 + 512 * 3 * 2);
  /* compare, select, clamp, convert: a flop an element; logistic, rsqrt,
     power: a transcendental; broadcast, transpose, reverse: nothing */
  CHECK_COST(cost_of("func.func @main(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<8x4xi32> {\n"
                     "  %c = stablehlo.compare LT, %x, %y, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> "
                     "tensor<4x8xi1>\n"
                     "  %s = stablehlo.select %c, %x, %y : tensor<4x8xi1>, tensor<4x8xf32>\n"
                     "  %l = stablehlo.logistic %s : tensor<4x8xf32>\n"
                     "  %r = stablehlo.rsqrt %l : tensor<4x8xf32>\n"
                     "  %p = stablehlo.power %r, %y : tensor<4x8xf32>\n"
                     "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
                     "  %o = stablehlo.constant dense<1.0> : tensor<f32>\n"
                     "  %k = stablehlo.clamp %z, %p, %o : (tensor<f32>, tensor<4x8xf32>, tensor<f32>) -> "
                     "tensor<4x8xf32>\n"
                     "  %t = stablehlo.transpose %k, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>\n"
                     "  %v = stablehlo.reverse %t, dims = [0] : tensor<8x4xf32>\n"
                     "  %i = stablehlo.convert %v : (tensor<8x4xf32>) -> tensor<8x4xi32>\n"
                     "  return %i : tensor<8x4xi32>\n"
                     "}\n"),
             32 * 4, 32 * 3,
             (128 + 128 + 32) + (32 + 128 + 128 + 128) + (128 + 128) * 2 + (128 * 3) + (4 + 128 + 4 + 128) +
                 (128 + 128) * 3);
}

static void test_reductions(void) {
  /* sum of rows: 8 rows of 16, 15 additions each (XLA: 120 flops) */
  CHECK_COST(cost_of("func.func @main(%x: tensor<8x16xf32>) -> tensor<8xf32> {\n"
                     "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
                     "  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : "
                     "(tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>\n"
                     "  return %0 : tensor<8xf32>\n"
                     "}\n"),
             120, 0, 512 + 4 + 32);
  /* a body of two ops (a sum of exps), applied 127 times */
  CHECK_COST(cost_of("func.func @main(%x: tensor<128xf32>) -> tensor<f32> {\n"
                     "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
                     "  %0 = \"stablehlo.reduce\"(%x, %z) <{dimensions = array<i64: 0>}> ({\n"
                     "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                     "    %e = stablehlo.exponential %b : tensor<f32>\n"
                     "    %s = stablehlo.add %a, %e : tensor<f32>\n"
                     "    stablehlo.return %s : tensor<f32>\n"
                     "  }) : (tensor<128xf32>, tensor<f32>) -> tensor<f32>\n"
                     "  return %0 : tensor<f32>\n"
                     "}\n"),
             127, 127, 512 + 4 + 4);
  /* 2x2 windows at 7 * 15 positions, 3 additions each (XLA: 315 flops, 936 bytes) */
  CHECK_COST(cost_of("func.func @main(%x: tensor<8x16xf32>) -> tensor<7x15xf32> {\n"
                     "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
                     "  %0 = \"stablehlo.reduce_window\"(%x, %z) <{window_dimensions = array<i64: 2, 2>, "
                     "window_strides = array<i64: 1, 1>}> ({\n"
                     "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                     "    %s = stablehlo.add %a, %b : tensor<f32>\n"
                     "    stablehlo.return %s : tensor<f32>\n"
                     "  }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<7x15xf32>\n"
                     "  return %0 : tensor<7x15xf32>\n"
                     "}\n"),
             315, 0, 936);
  /* sort of 13: 13 * ceil(log2 13), the comparator not counted (XLA: 52 flops, 104 bytes) */
  CHECK_COST(cost_of("func.func @main(%x: tensor<13xf32>) -> tensor<13xf32> {\n"
                     "  %0 = \"stablehlo.sort\"(%x) <{dimension = 0 : i64, is_stable = true}> ({\n"
                     "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                     "    %c = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
                     "    stablehlo.return %c : tensor<i1>\n"
                     "  }) : (tensor<13xf32>) -> tensor<13xf32>\n"
                     "  return %0 : tensor<13xf32>\n"
                     "}\n"),
             52, 0, 104);
  /* fft of rows of 16 and of 8x16 planes: 8 * 128 * 4 and 8 * 128 * 3 * 4
     (XLA: 4096 and 12288) */
  CHECK_COST(cost_of("func.func @main(%x: tensor<8x16xcomplex<f32>>) -> tensor<8x16xcomplex<f32>> {\n"
                     "  %0 = stablehlo.fft %x, type = FFT, length = [16] : (tensor<8x16xcomplex<f32>>) -> "
                     "tensor<8x16xcomplex<f32>>\n"
                     "  %1 = stablehlo.fft %0, type = FFT, length = [8, 16] : (tensor<8x16xcomplex<f32>>) -> "
                     "tensor<8x16xcomplex<f32>>\n"
                     "  return %1 : tensor<8x16xcomplex<f32>>\n"
                     "}\n"),
             4096 + 12288, 0, 2048 * 2);
}

static void test_control_flow(void) {
  /* a loop counts its condition and body once (compare 1; call of
     multiply 4; counter add 1); bytes of each op inside: compare 4+4+1,
     broadcast 4+16, multiply 48, add 12 */
  CHECK_COST(cost_of("func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                     "  %c = stablehlo.constant dense<0> : tensor<i32>\n"
                     "  %0:2 = stablehlo.while(%i = %c, %v = %x) : tensor<i32>, tensor<4xf32>\n"
                     "  cond {\n"
                     "    %n = stablehlo.constant dense<10> : tensor<i32>\n"
                     "    %1 = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
                     "    stablehlo.return %1 : tensor<i1>\n"
                     "  } do {\n"
                     "    %1 = func.call @twice(%v) : (tensor<4xf32>) -> tensor<4xf32>\n"
                     "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
                     "    %2 = stablehlo.add %i, %one : tensor<i32>\n"
                     "    stablehlo.return %2, %1 : tensor<i32>, tensor<4xf32>\n"
                     "  }\n"
                     "  return %0#1 : tensor<4xf32>\n"
                     "}\n"
                     "func.func private @twice(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                     "  %t = stablehlo.constant dense<2.0> : tensor<f32>\n"
                     "  %b = stablehlo.broadcast_in_dim %t, dims = [] : (tensor<f32>) -> tensor<4xf32>\n"
                     "  %m = stablehlo.multiply %a, %b : tensor<4xf32>\n"
                     "  return %m : tensor<4xf32>\n"
                     "}\n"),
             6, 0, 9 + 20 + 48 + 12);
  /* case: the larger branch per quantity (flops 4 of either, 4 exps of the
     second) after the clamp's flop; bytes: clamp 16, the second branch's
     80 (exp 32, add 48) */
  CHECK_COST(cost_of("func.func @main(%x: tensor<4xf32>, %p: tensor<i32>) -> tensor<4xf32> {\n"
                     "  %lo = stablehlo.constant dense<0> : tensor<i32>\n"
                     "  %hi = stablehlo.constant dense<1> : tensor<i32>\n"
                     "  %k = stablehlo.clamp %lo, %p, %hi : tensor<i32>\n"
                     "  %0 = \"stablehlo.case\"(%k) ({\n"
                     "    %2 = stablehlo.multiply %x, %x : tensor<4xf32>\n"
                     "    stablehlo.return %2 : tensor<4xf32>\n"
                     "  }, {\n"
                     "    %2 = stablehlo.exponential %x : tensor<4xf32>\n"
                     "    %3 = stablehlo.add %2, %x : tensor<4xf32>\n"
                     "    stablehlo.return %3 : tensor<4xf32>\n"
                     "  }) : (tensor<i32>) -> tensor<4xf32>\n"
                     "  return %0 : tensor<4xf32>\n"
                     "}\n"),
             1 + 4, 4, 16 + 32 + 48);
}

/* The module after the CPU pipeline (fusion included). */
static Cost optimized_cost(const char *text, int *fusions) {
  Module *m = parse(text);
  Cost c = {-1, -1, -1};
  if (!m) return c;
  PassOptions po = {0};
  po.fuse = true;
  if (run_cpu_pipeline(m, &po)) {
    Func *f = module_entry(m);
    c = cost_func(m, f);
    *fusions = 0;
    for (Op *op = f->body->first; op; op = op->next) *fusions += op->kind == OP_CALL && op_attr(op, "fusion_kind");
  }
  module_free(m);
  return c;
}

static void test_fusion(void) {
  int nf = -1;
  /* the chain as one loop fusion: x and y read once, the result written
     once; the arithmetic is the same */
  CHECK_COST(optimized_cost(chain_text, &nf), 256, 128, 512 * 3);
  CHECK_EQ_I(nf, 1);
  /* a matmul with its bias and tanh (an output fusion): 2 * 8 * 4 * 16
     plus the bias add; the tanhs; x, w, b and the result once */
  nf = -1;
  CHECK_COST(optimized_cost("func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>, %b: tensor<4xf32>) -> "
                            "tensor<8x4xf32> {\n"
                            "  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : "
                            "(tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>\n"
                            "  %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<4xf32>) -> tensor<8x4xf32>\n"
                            "  %2 = stablehlo.add %0, %1 : tensor<8x4xf32>\n"
                            "  %3 = stablehlo.tanh %2 : tensor<8x4xf32>\n"
                            "  return %3 : tensor<8x4xf32>\n"
                            "}\n",
                            &nf),
             1024 + 32, 32, 512 + 256 + 16 + 128);
  CHECK_EQ_I(nf, 1);
  /* a fusion that only slices a parameter reads the slice: rows 1..4 of
     x (256 bytes), scaled, written (256 bytes) (XLA: 512 bytes, 64 flops) */
  nf = -1;
  CHECK_COST(optimized_cost("func.func @main(%x: tensor<8x16xf32>) -> tensor<4x16xf32> {\n"
                            "  %0 = stablehlo.slice %x [1:5, 0:16] : (tensor<8x16xf32>) -> tensor<4x16xf32>\n"
                            "  %c = stablehlo.constant dense<1.5> : tensor<f32>\n"
                            "  %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<4x16xf32>\n"
                            "  %2 = stablehlo.multiply %0, %1 : tensor<4x16xf32>\n"
                            "  return %2 : tensor<4x16xf32>\n"
                            "}\n",
                            &nf),
             64, 0, 512);
  CHECK_EQ_I(nf, 1);
}

/* What the library reports, on both backends. */
static void test_api(void) {
  for (int backend = 0; backend < 2; backend++) {
    xlac_client_options co = {.struct_size = sizeof co, .num_threads = 1,
                              .backend = backend ? XLAC_BACKEND_INTERPRETER : XLAC_BACKEND_CPU};
    xlac_client *c = NULL;
    xlac_executable *e = NULL;
    xlac_status *s = xlac_client_create(&co, &c);
    if (!s) s = xlac_compile_text(c, dot_text, sizeof dot_text - 1, NULL, &e);
    CHECK(s == NULL);
    if (s) fprintf(stderr, "%s\n", xlac_status_message(s));
    xlac_status_destroy(s);
    xlac_executable_stats st = {.struct_size = sizeof st};
    CHECK(e && !xlac_executable_stats_get(e, &st));
    CHECK_EQ_F(st.flops, 65536);
    CHECK_EQ_F(st.transcendentals, 0);
    CHECK_EQ_F(st.bytes_accessed, 14336);
    /* a caller built against the header before these fields gets the
       fields it knows, and the copy stops there */
    xlac_executable_stats old = {.struct_size = offsetof(xlac_executable_stats, flops)};
    old.flops = -1;
    CHECK(e && !xlac_executable_stats_get(e, &old));
    CHECK_EQ_F(old.flops, -1);
    xlac_executable_destroy(e);
    xlac_client_destroy(c);
  }
}

int main(void) {
  test_dot();
  test_conv();
  test_elementwise();
  test_reductions();
  test_control_flow();
  test_fusion();
  test_api();
  TEST_SUMMARY();
}
