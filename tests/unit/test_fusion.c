/*
 * test_fusion.c - the fusion pass on small programs: how many fusions of
 * which kind it forms, what stays outside, and that the fused module
 * computes bit-identical results under the interpreter (fusion is only a
 * regrouping, so nothing may change).
 *
 * With arguments, `test_fusion --print FILE...` instead prints each module
 * of each file (split on "// -----") after fusion, so a shell loop can run
 * whole test files through fusion and the interpreter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/driver.h"
#include "frontends/stablehlo/stablehlo.h"
#include "ir/print.h"
#include "ir/print_hlo.h"
#include "ir/verify.h"
#include "passes/passes.h"
#include "test_module.h"
#include "test_util.h"

/* Runs the entry on inputs drawn from `seed`; returns a tuple of results. */
static IVal *run(Module *m, uint64_t seed) {
  Func *f = module_entry(m);
  if (!f) return NULL;
  int n = f->body->nargs;
  IVal **args = xcalloc((size_t)(n ? n : 1), sizeof(IVal *));
  uint64_t st = seed;
  for (int i = 0; i < n; i++) {
    Literal *l = lit_new(f->body->args[i]->type);
    random_fill(l, &st);
    args[i] = ival_tensor(l);
  }
  IVal **res = xcalloc((size_t)(f->nresults ? f->nresults : 1), sizeof(IVal *));
  Interp I;
  InterpOptions o = {0};
  o.quiet_checks = true;
  interp_init(&I, m, &o);
  bool ok = interp_call(&I, f, n, args, res);
  IVal *t = NULL;
  if (ok) {
    t = ival_tuple(f->nresults, res);
    for (int i = 0; i < f->nresults; i++) ival_release(res[i]);
  }
  for (int i = 0; i < n; i++) ival_release(args[i]);
  free(args);
  free(res);
  return t;
}

typedef struct Stats {
  int calls, loop, input, output; /* fusion calls in the entry (any depth) */
  int top_ops;                    /* ops in the entry body, terminator excluded */
  int funcs;
} Stats;

static bool count_op(Op *op, void *ud) {
  Stats *s = ud;
  const char *k = op_attr_str(op, "fusion_kind");
  if (op->kind == OP_CALL && k) {
    s->calls++;
    if (!strcmp(k, "kLoop")) s->loop++;
    if (!strcmp(k, "kInput")) s->input++;
    if (!strcmp(k, "kOutput")) s->output++;
  }
  return true;
}

static Stats stats(Module *m) {
  Stats s = {0};
  Func *e = module_entry(m);
  block_walk(e->body, count_op, &s);
  for (Op *op = e->body->first; op; op = op->next)
    if (!op_has_flag(op->kind, OPF_TERM)) s.top_ops++;
  for (Func *f = m->funcs; f; f = f->next) s.funcs++;
  return s;
}

static int count_kind(const Block *b, OpKind k) {
  int n = 0;
  for (const Op *op = b->first; op; op = op->next) {
    if (op->kind == k) n++;
    for (int r = 0; r < op->nregions; r++) n += count_kind(op->regions[r], k);
  }
  return n;
}

/* Parses, runs, fuses, verifies, runs again and compares. */
static Module *fuse_checked(const char *text, Stats *st) {
  Module *m = parse(text);
  CHECK(m != NULL);
  if (!m) return NULL;
  IVal *before = run(m, 7);
  PassOptions o = {0};
  int r = pass_fusion(m, &o);
  CHECK(r >= 0);
  bool ok = verify_module(m);
  CHECK(ok);
  if (!ok) {
    StrBuf b = {0};
    print_module_mlir(&b, m);
    fprintf(stderr, "%s\n", b.data);
    sb_free(&b);
  }
  IVal *after = run(m, 7);
  CHECK(before && after && ival_equal(before, after));
  if (before) ival_release(before);
  if (after) ival_release(after);
  *st = stats(m);
  return m;
}

static void dump(Module *m) {
  StrBuf b = {0};
  print_module_mlir(&b, m);
  fprintf(stderr, "%s\n", b.data);
  sb_free(&b);
}

#define EXPECT_STATS(m, st, cond) \
  do {                            \
    CHECK(cond);                  \
    if (!(cond)) dump(m);         \
  } while (0)

static void test_reduce_sum(void) {
  Stats s;
  Module *m = fuse_checked(
      "func.func @main(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>, %z: tensor<8x16xf32>) -> tensor<8xf32> {\n"
      "  %0 = stablehlo.multiply %y, %z : tensor<8x16xf32>\n"
      "  %1 = stablehlo.add %x, %0 : tensor<8x16xf32>\n"
      "  %c = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %2 = stablehlo.reduce(%1 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>\n"
      "  return %2 : tensor<8xf32>\n"
      "}\n",
      &s);
  if (!m) return;
  EXPECT_STATS(m, s, s.calls == 1 && s.input == 1 && s.top_ops == 1);
  Func *fc = module_find_func(m, "fused_computation");
  CHECK(fc && fc->is_private && fc->body->nargs == 3 && fc->nresults == 1);
  if (fc) CHECK(count_kind(fc->body, OP_MULTIPLY) == 1 && count_kind(fc->body, OP_REDUCE) == 1);
  CHECK(count_kind(module_entry(m)->body, OP_MULTIPLY) == 0);
  /* the HLO printer shows it as a fusion */
  StrBuf b = {0};
  print_module_hlo(&b, m);
  CHECK(b.data && strstr(b.data, "fusion(") && strstr(b.data, "kind=kInput"));
  sb_free(&b);
  /* a second run finds nothing more to do */
  PassOptions o = {0};
  CHECK(pass_fusion(m, &o) == 0);
  module_free(m);
}

static void test_loop_chain(void) {
  Stats s;
  Module *m = fuse_checked(
      "func.func @main(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {\n"
      "  %0 = stablehlo.exponential %x : tensor<4x8xf32>\n"
      "  %1 = stablehlo.multiply %0, %y : tensor<4x8xf32>\n"
      "  %2 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>\n"
      "  %3 = stablehlo.add %1, %2 : tensor<4x8xf32>\n"
      "  %4 = stablehlo.transpose %3, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>\n"
      "  %5 = stablehlo.reshape %4 : (tensor<8x4xf32>) -> tensor<4x8xf32>\n"
      "  return %5 : tensor<4x8xf32>\n"
      "}\n",
      &s);
  if (!m) return;
  EXPECT_STATS(m, s, s.calls == 1 && s.loop == 1 && s.top_ops == 1);
  module_free(m);
}

/* mean and mean of squares of one tensor: one kInput fusion, two outputs */
static void test_variance(void) {
  Stats s;
  Module *m = fuse_checked(
      "func.func @main(%x: tensor<16x32xf32>) -> (tensor<16xf32>, tensor<16xf32>) {\n"
      "  %c = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %n = stablehlo.constant dense<32.0> : tensor<16xf32>\n"
      "  %s = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1] : (tensor<16x32xf32>, tensor<f32>) -> tensor<16xf32>\n"
      "  %sq = stablehlo.multiply %x, %x : tensor<16x32xf32>\n"
      "  %s2 = stablehlo.reduce(%sq init: %c) applies stablehlo.add across dimensions = [1] : (tensor<16x32xf32>, tensor<f32>) -> tensor<16xf32>\n"
      "  %mean = stablehlo.divide %s, %n : tensor<16xf32>\n"
      "  %meansq = stablehlo.divide %s2, %n : tensor<16xf32>\n"
      "  %m2 = stablehlo.multiply %mean, %mean : tensor<16xf32>\n"
      "  %var = stablehlo.subtract %meansq, %m2 : tensor<16xf32>\n"
      "  return %mean, %var : tensor<16xf32>, tensor<16xf32>\n"
      "}\n",
      &s);
  if (!m) return;
  /* one kInput (both sums) and one kLoop (mean, var: two outputs) */
  EXPECT_STATS(m, s, s.input == 1 && s.loop == 1 && s.calls == 2 && s.top_ops == 2);
  bool two = false;
  for (Op *op = module_entry(m)->body->first; op; op = op->next)
    if (op->kind == OP_CALL && !strcmp(op_attr_str(op, "fusion_kind"), "kInput"))
      two = op->nres == 2;
  CHECK(two);
  module_free(m);
}

static void test_epilogue(void) {
  Stats s;
  Module *m = fuse_checked(
      "func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {\n"
      "  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>\n"
      "  %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>\n"
      "  %2 = stablehlo.add %0, %1 : tensor<4x16xf32>\n"
      "  %z = stablehlo.constant dense<0.0> : tensor<4x16xf32>\n"
      "  %3 = stablehlo.maximum %2, %z : tensor<4x16xf32>\n"
      "  return %3 : tensor<4x16xf32>\n"
      "}\n",
      &s);
  if (!m) return;
  EXPECT_STATS(m, s, s.output == 1 && s.calls == 1 && s.top_ops == 1);
  Func *fc = module_find_func(m, "fused_computation");
  CHECK(fc && fc->body->first && fc->body->first->kind == OP_DOT_GENERAL);
  module_free(m);
}

/* an expensive op on a small tensor is not recomputed per broadcast element */
static void test_no_broadcast_recompute(void) {
  Stats s;
  Module *m = fuse_checked(
      "func.func @main(%s: tensor<8xf32>, %x: tensor<64x8xf32>) -> tensor<64x8xf32> {\n"
      "  %0 = stablehlo.exponential %s : tensor<8xf32>\n"
      "  %1 = stablehlo.log %0 : tensor<8xf32>\n"
      "  %2 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<8xf32>) -> tensor<64x8xf32>\n"
      "  %3 = stablehlo.add %2, %x : tensor<64x8xf32>\n"
      "  return %3 : tensor<64x8xf32>\n"
      "}\n",
      &s);
  if (!m) return;
  /* {exp, log} on 8 elements, then {broadcast, add} */
  EXPECT_STATS(m, s, s.calls == 2 && s.loop == 2 && s.top_ops == 2);
  Func *f0 = module_find_func(m, "fused_computation"), *f1 = module_find_func(m, "fused_computation.1");
  CHECK(f0 && f1);
  if (f0 && f1) {
    int bexp = count_kind(f0->body, OP_EXPONENTIAL) + count_kind(f1->body, OP_EXPONENTIAL);
    CHECK(bexp == 1);
    Func *big = count_kind(f0->body, OP_ADD) ? f0 : f1;
    CHECK(count_kind(big->body, OP_EXPONENTIAL) == 0 && count_kind(big->body, OP_LOG) == 0);
  }
  module_free(m);
}

/* an expensive value with two consumers: computed once, two outputs */
static void test_shared_expensive(void) {
  Stats s;
  Module *m = fuse_checked(
      "func.func @main(%x: tensor<32xf32>) -> (tensor<32xf32>, tensor<32xf32>) {\n"
      "  %e = stablehlo.exponential %x : tensor<32xf32>\n"
      "  %a = stablehlo.add %e, %x : tensor<32xf32>\n"
      "  %b = stablehlo.multiply %e, %e : tensor<32xf32>\n"
      "  return %a, %b : tensor<32xf32>, tensor<32xf32>\n"
      "}\n",
      &s);
  if (!m) return;
  EXPECT_STATS(m, s, s.calls == 1 && s.top_ops == 1);
  Func *fc = module_find_func(m, "fused_computation");
  CHECK(fc && fc->nresults == 2 && count_kind(fc->body, OP_EXPONENTIAL) == 1);
  module_free(m);
}

/* a cheap producer used by two unrelated fusions is duplicated, and a value
   needed by a non-fusible op is still written */
static void test_duplicate_cheap(void) {
  Stats s;
  Module *m = fuse_checked(
      "func.func @main(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8xf32>) {\n"
      "  %d = stablehlo.subtract %x, %y : tensor<8x8xf32>\n"
      "  %c = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %sq = stablehlo.multiply %d, %d : tensor<8x8xf32>\n"
      "  %r = stablehlo.reduce(%sq init: %c) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>\n"
      "  %t = stablehlo.transpose %d, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>\n"
      "  %u = stablehlo.dot_general %t, %x, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>\n"
      "  return %u, %r : tensor<8x8xf32>, tensor<8xf32>\n"
      "}\n",
      &s);
  if (!m) return;
  EXPECT_STATS(m, s, s.input == 1 && s.loop == 1 && count_kind(module_entry(m)->body, OP_SUBTRACT) == 0);
  module_free(m);
}

/* fusion inside a while body; the loop itself stays */
static void test_while_body(void) {
  Stats s;
  Module *m = fuse_checked(
      "func.func @main(%x: tensor<16xf32>) -> tensor<16xf32> {\n"
      "  %i0 = stablehlo.constant dense<0> : tensor<i32>\n"
      "  %r:2 = stablehlo.while(%i = %i0, %v = %x) : tensor<i32>, tensor<16xf32>\n"
      "  cond {\n"
      "    %n = stablehlo.constant dense<3> : tensor<i32>\n"
      "    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    stablehlo.return %p : tensor<i1>\n"
      "  } do {\n"
      "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
      "    %i1 = stablehlo.add %i, %one : tensor<i32>\n"
      "    %h = stablehlo.constant dense<0.5> : tensor<16xf32>\n"
      "    %a = stablehlo.multiply %v, %h : tensor<16xf32>\n"
      "    %b = stablehlo.tanh %a : tensor<16xf32>\n"
      "    %c = stablehlo.add %b, %x : tensor<16xf32>\n"
      "    stablehlo.return %i1, %c : tensor<i32>, tensor<16xf32>\n"
      "  }\n"
      "  return %r#1 : tensor<16xf32>\n"
      "}\n",
      &s);
  if (!m) return;
  EXPECT_STATS(m, s, s.calls >= 2 && count_kind(module_entry(m)->body, OP_TANH) == 0 &&
                         count_kind(module_entry(m)->body, OP_WHILE) == 1);
  module_free(m);
}

/* a value consumed by a sort and by a fusion that also reads the sort's
   result must not be merged into a cycle; checks keep their order */
static void test_no_cycle(void) {
  Stats s;
  Module *m = fuse_checked(
      "func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  %e = stablehlo.exponential %x : tensor<8xf32>\n"
      "  %s = \"stablehlo.sort\"(%e) ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "    %p = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    stablehlo.return %p : tensor<i1>\n"
      "  }) {dimension = 0 : i64} : (tensor<8xf32>) -> tensor<8xf32>\n"
      "  %t = stablehlo.add %e, %s : tensor<8xf32>\n"
      "  %u = stablehlo.multiply %t, %x : tensor<8xf32>\n"
      "  return %u : tensor<8xf32>\n"
      "}\n",
      &s);
  if (!m) return;
  EXPECT_STATS(m, s, count_kind(module_entry(m)->body, OP_SORT) == 1 && s.calls == 1);
  module_free(m);
}

/* each reduction of a softmax is its own fusion; exp is not duplicated */
static void test_softmax(void) {
  Stats s;
  Module *m = fuse_checked(
      "func.func @main(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {\n"
      "  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
      "  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %mx = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<4x32xf32>, tensor<f32>) -> tensor<4xf32>\n"
      "  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<4xf32>) -> tensor<4x32xf32>\n"
      "  %d = stablehlo.subtract %x, %mb : tensor<4x32xf32>\n"
      "  %e = stablehlo.exponential %d : tensor<4x32xf32>\n"
      "  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x32xf32>, tensor<f32>) -> tensor<4xf32>\n"
      "  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<4xf32>) -> tensor<4x32xf32>\n"
      "  %r = stablehlo.divide %e, %sb : tensor<4x32xf32>\n"
      "  return %r : tensor<4x32xf32>\n"
      "}\n",
      &s);
  if (!m) return;
  int nexp = 0;
  for (Func *f = m->funcs; f; f = f->next) nexp += count_kind(f->body, OP_EXPONENTIAL);
  EXPECT_STATS(m, s, nexp == 1 && s.input >= 1);
  module_free(m);
}

/* limits: a long chain over many distinct inputs splits */
static void test_limits(void) {
  StrBuf b = {0};
  int n = 40;
  sb_puts(&b, "func.func @main(");
  for (int i = 0; i < n; i++) sb_printf(&b, "%s%%a%d: tensor<4xf32>", i ? ", " : "", i);
  sb_puts(&b, ") -> tensor<4xf32> {\n  %s0 = stablehlo.add %a0, %a1 : tensor<4xf32>\n");
  for (int i = 2; i < n; i++) sb_printf(&b, "  %%s%d = stablehlo.add %%s%d, %%a%d : tensor<4xf32>\n", i - 1, i - 2, i);
  sb_printf(&b, "  return %%s%d : tensor<4xf32>\n}\n", n - 2);
  Stats s;
  Module *m = fuse_checked(b.data, &s);
  sb_free(&b);
  if (!m) return;
  CHECK(s.calls >= 3);
  for (Op *op = module_entry(m)->body->first; op; op = op->next)
    if (op->kind == OP_CALL) CHECK(op->nopnds <= 16);
  module_free(m);
}

static int print_files(int argc, char **argv) {
  int status = 0;
  for (int i = 2; i < argc; i++) {
    int n = 0;
    Module **mods = load_modules(argv[i], true, &n);
    if (!mods) {
      status = 1;
      continue;
    }
    for (int k = 0; k < n; k++) {
      if (k) printf("// -----\n");
      if (!mods[k]) {
        status = 1;
        continue;
      }
      PassOptions o = {0};
      if (pass_fusion(mods[k], &o) < 0 || !verify_module(mods[k])) status = 1;
      StrBuf b = {0};
      print_module_mlir(&b, mods[k]);
      fputs(b.data ? b.data : "", stdout);
      sb_free(&b);
    }
    free_modules(mods, n);
  }
  return status;
}

int main(int argc, char **argv) {
  if (argc > 2 && !strcmp(argv[1], "--print")) return print_files(argc, argv);
  test_reduce_sum();
  test_loop_chain();
  test_variance();
  test_epilogue();
  test_no_broadcast_recompute();
  test_shared_expensive();
  test_duplicate_cheap();
  test_while_body();
  test_no_cycle();
  test_softmax();
  test_limits();
  TEST_SUMMARY();
}
