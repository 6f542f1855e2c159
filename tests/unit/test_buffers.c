/*
 * test_buffers.c - buffer assignment: kinds (parameters, results, constants,
 * copies), 64-byte alignment, reuse of dead temps along a chain, loop state
 * shared with a while's results, in-place reshape, elementwise results in
 * their dying operand's storage (and where they must not be), and,
 * exhaustively for
 * every program here and for fused JAX fixtures, that no two temps that are
 * live at the same time overlap in the arena.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/kernel.h"
#include "driver/driver.h"
#include "frontends/stablehlo/stablehlo.h"
#include "ir/verify.h"
#include "passes/buffers.h"
#include "passes/passes.h"
#include "test_module.h"
#include "test_util.h"

/* Every pair of temps with their own storage and overlapping live ranges
   must not overlap in bytes; everything aligned and inside the arena. */
static int check_invariants(const BufferAssignment *a) {
  int bad = 0;
  for (int i = 0; i < a->nbufs; i++) {
    const Buffer *x = &a->bufs[i];
    if (x->kind != BUF_TEMP) continue;
    if (x->offset % 64 != 0 || x->offset < 0 || x->offset + x->bytes > a->temp_bytes) bad++;
    if (x->start > x->end) bad++;
    if (x->alias) continue;
    for (int j = i + 1; j < a->nbufs; j++) {
      const Buffer *y = &a->bufs[j];
      if (y->kind != BUF_TEMP || y->alias || !x->bytes || !y->bytes) continue;
      bool live_together = x->start <= y->end && y->start <= x->end;
      bool bytes_overlap = x->offset < y->offset + y->bytes && y->offset < x->offset + x->bytes;
      if (live_together && bytes_overlap) {
        fprintf(stderr, "overlap: buffers %d and %d\n", i, j);
        bad++;
      }
    }
  }
  if (a->temp_bytes % 64 != 0) bad++;
  return bad;
}

static void dump(const BufferAssignment *a) {
  StrBuf b = {0};
  buffers_print(&b, a);
  fprintf(stderr, "%s", b.data);
  sb_free(&b);
}

static Op *nth_op(Func *f, int n) {
  Op *op = f->body->first;
  while (op && n--) op = op->next;
  return op;
}

/* x -> a -> b -> c -> d (returned): b and c are computed in a's storage,
   each operand dying where the next elementwise op reads it */
static void test_chain(void) {
  Module *m = parse(
      "func.func @main(%x: tensor<100xf32>) -> tensor<100xf32> {\n"
      "  %a = stablehlo.exponential %x : tensor<100xf32>\n"
      "  %b = stablehlo.negate %a : tensor<100xf32>\n"
      "  %c = stablehlo.tanh %b : tensor<100xf32>\n"
      "  %d = stablehlo.abs %c : tensor<100xf32>\n"
      "  return %d : tensor<100xf32>\n"
      "}\n");
  CHECK(m != NULL);
  if (!m) return;
  Func *f = module_entry(m);
  BufferAssignment *a = buffers_assign(m, f);
  CHECK_EQ_I(check_invariants(a), 0);
  int64_t oa, ob, oc, od, ox;
  CHECK(buffers_lookup(a, f->body->args[0], &ox) == BUF_PARAM && ox == 0);
  CHECK(buffers_lookup(a, &nth_op(f, 0)->res[0], &oa) == BUF_TEMP);
  CHECK(buffers_lookup(a, &nth_op(f, 1)->res[0], &ob) == BUF_TEMP);
  CHECK(buffers_lookup(a, &nth_op(f, 2)->res[0], &oc) == BUF_TEMP);
  CHECK(buffers_lookup(a, &nth_op(f, 3)->res[0], &od) == BUF_RESULT && od == 0);
  CHECK(oa == ob && ob == oc); /* in place */
  CHECK(a->bufs[f->body->nargs + 1].alias == &nth_op(f, 0)->res[0]);
  CHECK_EQ_I(a->temp_bytes, 448); /* 400 bytes rounded up to 64 */
  CHECK_EQ_I(a->ncopies, 0);
  StrBuf b = {0};
  buffers_print(&b, a);
  CHECK(b.data && strstr(b.data, "peak temp bytes: 448") && strstr(b.data, "%arg0(x)") &&
        strstr(b.data, "result"));
  sb_free(&b);
  buffers_free(a);
  module_free(m);
}

static void test_kinds_and_copies(void) {
  Module *m = parse(
      "func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x2xf32>) {\n"
      "  %c = stablehlo.constant dense<1.0> : tensor<4xf32>\n"
      "  %a = stablehlo.add %x, %c : tensor<4xf32>\n"
      "  %t = stablehlo.multiply %a, %a : tensor<4xf32>\n"
      "  %r = stablehlo.reshape %t : (tensor<4xf32>) -> tensor<2x2xf32>\n"
      "  return %x, %a, %c, %a, %r : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x2xf32>\n"
      "}\n");
  CHECK(m != NULL);
  if (!m) return;
  Func *f = module_entry(m);
  BufferAssignment *a = buffers_assign(m, f);
  CHECK_EQ_I(check_invariants(a), 0);
  int64_t off;
  CHECK(buffers_lookup(a, &nth_op(f, 0)->res[0], &off) == BUF_CONST);
  CHECK(buffers_lookup(a, &nth_op(f, 1)->res[0], &off) == BUF_RESULT && off == 1);
  CHECK(buffers_lookup(a, &nth_op(f, 2)->res[0], &off) == BUF_TEMP);
  CHECK(buffers_lookup(a, &nth_op(f, 3)->res[0], &off) == BUF_RESULT && off == 4);
  /* results 0 (param), 2 (constant) and 3 (returned twice) are copies */
  CHECK_EQ_I(a->ncopies, 3);
  if (a->ncopies == 3) {
    CHECK(a->copies[0].result == 0 && a->copies[0].from == f->body->args[0]);
    CHECK(a->copies[1].result == 2 && a->copies[1].from == &nth_op(f, 0)->res[0]);
    CHECK(a->copies[2].result == 3 && a->copies[2].from == &nth_op(f, 1)->res[0]);
  }
  CHECK_EQ_I(a->temp_bytes, 64);
  buffers_free(a);
  module_free(m);
}

/* a reshape of a temp that dies there shares its storage */
static void test_reshape_alias(void) {
  Module *m = parse(
      "func.func @main(%x: tensor<16xf32>) -> tensor<4x4xf32> {\n"
      "  %a = stablehlo.exponential %x : tensor<16xf32>\n"
      "  %r = stablehlo.reshape %a : (tensor<16xf32>) -> tensor<4x4xf32>\n"
      "  %t = stablehlo.transpose %r, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>\n"
      "  return %t : tensor<4x4xf32>\n"
      "}\n");
  CHECK(m != NULL);
  if (!m) return;
  Func *f = module_entry(m);
  BufferAssignment *a = buffers_assign(m, f);
  CHECK_EQ_I(check_invariants(a), 0);
  const Buffer *ba = buffers_get(a, &nth_op(f, 0)->res[0]), *br = buffers_get(a, &nth_op(f, 1)->res[0]);
  CHECK(ba && br && br->alias == ba->value && br->kind == BUF_TEMP && br->offset == ba->offset);
  CHECK(ba && ba->end == 2); /* the root lives as long as the alias */
  CHECK_EQ_I(a->temp_bytes, 64);
  buffers_free(a);
  module_free(m);
}

/* A scatter's result takes the storage of an operand that dies there;
   a returned scatter has its dying operand computed into the result
   buffer; an operand still read later, or one whose storage the updates
   share, is copied as before. */
#define SCATTER_ADD(R, X, I, U, IT, T)                                                             \
  "  " R " = \"stablehlo.scatter\"(" X ", " I ", " U ") ({\n"                                    \
  "  ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n"                                                   \
  "    %s = stablehlo.add %p, %q : tensor<f32>\n"                                                 \
  "    stablehlo.return %s : tensor<f32>\n"                                                       \
  "  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "               \
  "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} "         \
  ": (tensor<16x8xf32>, " IT ", " T ") -> tensor<16x8xf32>\n"

static void test_scatter_in_place(void) {
  Module *m = parse(
      "func.func @main(%x: tensor<16x8xf32>, %i: tensor<5x1xi32>, %u: tensor<5x8xf32>, %j: tensor<16x1xi32>)"
      " -> (tensor<16x8xf32>, tensor<16x8xf32>) {\n"
      "  %z = stablehlo.exponential %x : tensor<16x8xf32>\n"
      SCATTER_ADD("%a", "%z", "%i", "%u", "tensor<5x1xi32>", "tensor<5x8xf32>")
      "  %b = stablehlo.negate %a : tensor<16x8xf32>\n"
      SCATTER_ADD("%c", "%b", "%i", "%u", "tensor<5x1xi32>", "tensor<5x8xf32>")
      "  %d = stablehlo.abs %c : tensor<16x8xf32>\n"
      SCATTER_ADD("%e", "%d", "%i", "%u", "tensor<5x1xi32>", "tensor<5x8xf32>")
      "  %f = stablehlo.add %d, %e : tensor<16x8xf32>\n"
      "  %g = stablehlo.tanh %x : tensor<16x8xf32>\n"
      SCATTER_ADD("%k", "%g", "%j", "%g", "tensor<16x1xi32>", "tensor<16x8xf32>")
      "  %l = stablehlo.add %f, %k : tensor<16x8xf32>\n"
      "  %n = stablehlo.sine %x : tensor<16x8xf32>\n"
      SCATTER_ADD("%r", "%n", "%i", "%u", "tensor<5x1xi32>", "tensor<5x8xf32>")
      "  return %l, %r : tensor<16x8xf32>, tensor<16x8xf32>\n"
      "}\n");
  CHECK(m != NULL);
  if (!m) return;
  Func *f = module_entry(m);
  BufferAssignment *a = buffers_assign(m, f);
  CHECK_EQ_I(check_invariants(a), 0);
  Value *z = &nth_op(f, 0)->res[0], *sa = &nth_op(f, 1)->res[0], *b = &nth_op(f, 2)->res[0];
  Value *sc = &nth_op(f, 3)->res[0], *d = &nth_op(f, 4)->res[0], *se = &nth_op(f, 5)->res[0];
  Value *g = &nth_op(f, 7)->res[0], *sk = &nth_op(f, 8)->res[0];
  Value *n = &nth_op(f, 10)->res[0], *sr = &nth_op(f, 11)->res[0];
  CHECK(buffers_same_storage(a, z, sa)); /* %z dies at the scatter */
  CHECK(buffers_same_storage(a, b, sc));
  CHECK(!buffers_same_storage(a, d, se)); /* %d is read again by %f */
  CHECK(!buffers_same_storage(a, g, sk)); /* %g is also the updates */
  int64_t idx = -1;
  CHECK(buffers_lookup(a, sr, &idx) == BUF_RESULT && idx == 1);
  CHECK(buffers_lookup(a, n, &idx) == BUF_RESULT && idx == 1); /* %n computed into result 1 */
  CHECK(buffers_same_storage(a, n, sr));
  /* the returned scatter's result is never computed into a donated
     parameter: its operand was written there first */
  CHECK(!result_in_place(m, f, a, 1, 0));
  buffers_free(a);
  module_free(m);
}

/* loop state lives in the while's results; values captured by the body
   live through the whole loop */
static void test_while(void) {
  Module *m = parse(
      "func.func @main(%x: tensor<32xf32>) -> tensor<32xf32> {\n"
      "  %i0 = stablehlo.constant dense<0> : tensor<i32>\n"
      "  %k = stablehlo.exponential %x : tensor<32xf32>\n"
      "  %r:2 = stablehlo.while(%i = %i0, %v = %x) : tensor<i32>, tensor<32xf32>\n"
      "  cond {\n"
      "    %n = stablehlo.constant dense<3> : tensor<i32>\n"
      "    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    stablehlo.return %p : tensor<i1>\n"
      "  } do {\n"
      "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
      "    %i1 = stablehlo.add %i, %one : tensor<i32>\n"
      "    %a = stablehlo.multiply %v, %k : tensor<32xf32>\n"
      "    %b = stablehlo.tanh %a : tensor<32xf32>\n"
      "    stablehlo.return %i1, %b : tensor<i32>, tensor<32xf32>\n"
      "  }\n"
      "  %s = stablehlo.negate %r#1 : tensor<32xf32>\n"
      "  return %s : tensor<32xf32>\n"
      "}\n");
  CHECK(m != NULL);
  if (!m) return;
  Func *f = module_entry(m);
  BufferAssignment *a = buffers_assign(m, f);
  CHECK_EQ_I(check_invariants(a), 0);
  Op *w = nth_op(f, 2);
  CHECK(w && w->kind == OP_WHILE);
  if (w && w->kind == OP_WHILE) {
    const Buffer *k = buffers_get(a, &nth_op(f, 1)->res[0]);
    const Buffer *r1 = buffers_get(a, &w->res[1]);
    Block *body = w->regions[1], *cond = w->regions[0];
    const Buffer *v = buffers_get(a, body->args[1]), *ci = buffers_get(a, cond->args[0]);
    CHECK(k && r1 && v && ci);
    if (k && r1 && v && ci) {
      CHECK(v->alias == &w->res[1] && v->kind == r1->kind && v->offset == r1->offset);
      CHECK(ci->alias == &w->res[0]);
      /* k is read inside the loop: live to the loop's last position */
      CHECK(k->end >= buffers_get(a, &body->first->next->next->next->res[0])->start);
      CHECK(r1->kind == BUF_TEMP && r1->start <= k->end && r1->end > k->end);
    }
  }
  if (test_failed) dump(a);
  buffers_free(a);
  module_free(m);
}

/* a long chain with two live values at a time never needs more than two */
static void test_reuse_long_chain(void) {
  StrBuf b = {0};
  sb_puts(&b, "func.func @main(%x: tensor<256xf32>) -> tensor<256xf32> {\n");
  sb_puts(&b, "  %v0 = stablehlo.exponential %x : tensor<256xf32>\n");
  for (int i = 1; i < 50; i++)
    sb_printf(&b, "  %%v%d = stablehlo.%s %%v%d : tensor<256xf32>\n", i, i % 2 ? "negate" : "tanh", i - 1);
  sb_puts(&b, "  return %v49 : tensor<256xf32>\n}\n");
  Module *m = parse(b.data);
  sb_free(&b);
  CHECK(m != NULL);
  if (!m) return;
  BufferAssignment *a = buffers_assign(m, module_entry(m));
  CHECK_EQ_I(check_invariants(a), 0);
  CHECK_EQ_I(a->temp_bytes, 1024); /* every op in place */
  buffers_free(a);
  module_free(m);
}

/* Where an elementwise result must not take its operand's storage: the
   operand is read later, read at another index in the same fusion, of
   another element size, or one of several results; and where it may: a
   loop fusion reading it elementwise (with another operand broadcast). */
static void test_elementwise_in_place(void) {
  /* unfused: c = a + b in a's storage (both die there), not b (a is read
     again by c), not d (returned) */
  Module *m = parse(
      "func.func @main(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {\n"
      "  %a = stablehlo.exponential %x : tensor<8x16xf32>\n"
      "  %b = stablehlo.negate %a : tensor<8x16xf32>\n"
      "  %c = stablehlo.add %a, %b : tensor<8x16xf32>\n"
      "  %d = stablehlo.tanh %c : tensor<8x16xf32>\n"
      "  return %d : tensor<8x16xf32>\n"
      "}\n");
  CHECK(m != NULL);
  if (!m) return;
  Func *f = module_entry(m);
  BufferAssignment *a = buffers_assign(m, f);
  CHECK_EQ_I(check_invariants(a), 0);
  const Buffer *bc = buffers_get(a, &nth_op(f, 2)->res[0]);
  const Buffer *ba = buffers_get(a, &nth_op(f, 0)->res[0]), *bb = buffers_get(a, &nth_op(f, 1)->res[0]);
  CHECK(bc && bc->alias == &nth_op(f, 0)->res[0] && bc->offset == ba->offset);
  CHECK(!bb->alias && bb->offset != ba->offset); /* a is read again by c */
  CHECK_EQ_I(a->temp_bytes, 2 * 512);
  buffers_free(a);
  module_free(m);

  /* an element size that differs: not in place; the next op in the
     smaller one's storage */
  m = parse(
      "func.func @main(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {\n"
      "  %a = stablehlo.exponential %x : tensor<8x16xf32>\n"
      "  %h = stablehlo.convert %a : (tensor<8x16xf32>) -> tensor<8x16xf16>\n"
      "  %n = stablehlo.negate %h : tensor<8x16xf16>\n"
      "  %r = stablehlo.convert %n : (tensor<8x16xf16>) -> tensor<8x16xf32>\n"
      "  return %r : tensor<8x16xf32>\n"
      "}\n");
  CHECK(m != NULL);
  if (!m) return;
  f = module_entry(m);
  a = buffers_assign(m, f);
  CHECK_EQ_I(check_invariants(a), 0);
  CHECK(!buffers_get(a, &nth_op(f, 1)->res[0])->alias);
  CHECK(buffers_get(a, &nth_op(f, 2)->res[0])->alias == &nth_op(f, 1)->res[0]);
  buffers_free(a);
  module_free(m);

  /* after fusion: a loop fusion reading the dying product elementwise
     beside a broadcast of another operand: in the product's storage; one
     that also reads its operand transposed: not; fusions of several
     results: never */
  m = parse(
      "func.func @main(%x: tensor<16x16xf32>, %y: tensor<16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {\n"
      "  %p = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<16x16xf32>, tensor<16x16xf32>) "
      "-> tensor<16x16xf32>\n"
      "  %q = stablehlo.dot_general %p, %x, contracting_dims = [1] x [0] : (tensor<16x16xf32>, tensor<16x16xf32>) "
      "-> tensor<16x16xf32>\n"
      "  %yb = stablehlo.broadcast_in_dim %y, dims = [1] : (tensor<16xf32>) -> tensor<16x16xf32>\n"
      "  %e = stablehlo.exponential %p : tensor<16x16xf32>\n"
      "  %v = stablehlo.multiply %e, %yb : tensor<16x16xf32>\n"
      "  %t = stablehlo.transpose %q, dims = [1, 0] : (tensor<16x16xf32>) -> tensor<16x16xf32>\n"
      "  %u = stablehlo.add %t, %q : tensor<16x16xf32>\n"
      "  %z = stablehlo.dot_general %v, %u, contracting_dims = [1] x [0] : (tensor<16x16xf32>, tensor<16x16xf32>) "
      "-> tensor<16x16xf32>\n"
      "  %k = stablehlo.tanh %z : tensor<16x16xf32>\n"
      "  %l = stablehlo.negate %z : tensor<16x16xf32>\n"
      "  %zk = stablehlo.dot_general %k, %x, contracting_dims = [1] x [0] : (tensor<16x16xf32>, tensor<16x16xf32>) "
      "-> tensor<16x16xf32>\n"
      "  %zl = stablehlo.dot_general %l, %x, contracting_dims = [1] x [0] : (tensor<16x16xf32>, tensor<16x16xf32>) "
      "-> tensor<16x16xf32>\n"
      "  return %zk, %zl : tensor<16x16xf32>, tensor<16x16xf32>\n"
      "}\n");
  CHECK(m != NULL);
  if (!m) return;
  PassOptions o = {0};
  CHECK(pass_fusion(m, &o) >= 0);
  f = module_entry(m);
  a = buffers_assign(m, f);
  CHECK_EQ_I(check_invariants(a), 0);
  int seen_transpose = 0, seen_exp = 0;
  for (Op *op = f->body->first; op; op = op->next) {
    const char *kind = op->kind == OP_CALL ? op_attr_str(op, "fusion_kind") : NULL;
    if (!kind || strcmp(kind, "kLoop") != 0) continue;
    Func *fc = module_find_func(m, op_attr_str(op, "callee"));
    bool transposes = false, exps = false;
    for (Op *o2 = fc->body->first; o2; o2 = o2->next) {
      transposes |= o2->kind == OP_TRANSPOSE;
      exps |= o2->kind == OP_EXPONENTIAL;
    }
    for (int i = 0; i < op->nres; i++)
      if (op->nres > 1) CHECK(!buffers_get(a, &op->res[i])->alias);
    const Buffer *out = buffers_get(a, &op->res[0]);
    if (transposes) {
      seen_transpose++;
      CHECK(!out->alias);
    }
    if (exps) {
      seen_exp++;
      /* in the storage of p, the product it reads */
      CHECK(out->alias && out->alias->def && out->alias->def->kind == OP_DOT_GENERAL &&
            out->offset == buffers_get(a, out->alias)->offset);
    }
  }
  CHECK(seen_transpose == 1 && seen_exp == 1);
  buffers_free(a);
  module_free(m);
}

/* JAX programs after fusion: the invariants on every function */
static void test_fixtures(void) {
  static const char *files[] = {
      "tests/fixtures/jax/nn_layernorm.mlir",     "tests/fixtures/jax/nn_softmax.mlir",
      "tests/fixtures/jax/mlp_weights_as_args.mlir", "tests/fixtures/jax/nn_causal_attention.mlir",
      "tests/fixtures/jax/nn_grad_of_mse.mlir",   "tests/fixtures/jax/nn_conv_relu_pool.mlir",
      "tests/fixtures/jax/while_fori_loop.mlir",  "tests/fixtures/jax/cond_multiple_results.mlir",
  };
  int checked = 0;
  for (size_t i = 0; i < ARRAY_LEN(files); i++) {
    FILE *fp = fopen(files[i], "r");
    if (!fp) continue; /* not every checkout has every fixture */
    fclose(fp);
    int n = 0;
    Module **mods = load_modules(files[i], true, &n);
    for (int k = 0; mods && k < n; k++) {
      if (!mods[k]) continue;
      PassOptions o = {0};
      CHECK(pass_fusion(mods[k], &o) >= 0);
      for (Func *f = mods[k]->funcs; f; f = f->next) {
        BufferAssignment *a = buffers_assign(mods[k], f);
        int bad = check_invariants(a);
        CHECK_EQ_I(bad, 0);
        if (bad) dump(a);
        buffers_free(a);
        checked++;
      }
    }
    if (mods) free_modules(mods, n);
  }
  CHECK(checked > 0);
}

int main(void) {
  test_chain();
  test_kinds_and_copies();
  test_reshape_alias();
  test_while();
  test_reuse_long_chain();
  test_elementwise_in_place();
  test_scatter_in_place();
  test_fixtures();
  TEST_SUMMARY();
}
