/*
 * test_passes.c - unit tests of the optimization passes (simplify,
 * constant-fold, cse, dce, inline).
 *
 * Two kinds of checks.  Directed ones parse a small module, run a pass and
 * look at what is left (counts of ops of a kind, return values), and check
 * that each pass reports "changed" exactly when it changed something and
 * reaches a fixed point.  The differential one generates many random
 * straight-line programs full of near-identities (x + 0.0 next to x + -0.0,
 * conversions that round next to ones that do not, special-value inputs),
 * runs them in the interpreter before and after the passes, and requires
 * bit-identical results: an inexact rewrite shows up as a mismatch.
 */
#include <stdlib.h>
#include <string.h>

#include "frontends/stablehlo/stablehlo.h"
#include "interp/interp.h"
#include "ir/verify.h"
#include "passes/passes.h"
#include "test_module.h"
#include "test_util.h"

static bool count_kind(Op *op, void *ud) {
  int *n = ud;
  if (op->kind == (OpKind)n[0]) n[1]++;
  return true;
}

static int count_ops(Module *m, OpKind k) {
  int n[2] = {(int)k, 0};
  module_walk(m, count_kind, n);
  return n[1];
}

static const PassOptions opts = {.verify_each = true};

/* Runs @main with no arguments or the given ones; results must be freed. */
static IVal **run_main(Module *m, int nargs, IVal **args, int *nres) {
  Func *f = module_find_func(m, "main");
  if (!f) return NULL;
  InterpOptions io = {.quiet_checks = true};
  Interp I;
  interp_init(&I, m, &io);
  IVal **res = xcalloc((size_t)(f->nresults ? f->nresults : 1), sizeof(IVal *));
  if (!interp_call(&I, f, nargs, args, res) || I.checks_failed) {
    for (int i = 0; i < f->nresults; i++)
      if (res[i]) ival_release(res[i]);
    free(res);
    return NULL;
  }
  *nres = f->nresults;
  return res;
}

static void free_results(IVal **r, int n) {
  if (!r) return;
  for (int i = 0; i < n; i++) ival_release(r[i]);
  free(r);
}

/* ---- directed tests ---- */

static void test_simplify_counts(void) {
  Module *m = parse(
      "func.func @main(%x: tensor<3xf32>, %i: tensor<3xi32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xi32>) {\n"
      "  %nz = stablehlo.constant dense<-0.0> : tensor<3xf32>\n"
      "  %pz = stablehlo.constant dense<0.0> : tensor<3xf32>\n"
      "  %z = stablehlo.constant dense<0> : tensor<3xi32>\n"
      "  %a = stablehlo.add %x, %nz : tensor<3xf32>\n"
      "  %b = stablehlo.add %x, %pz : tensor<3xf32>\n"
      "  %c = stablehlo.add %i, %z : tensor<3xi32>\n"
      "  func.return %a, %b, %c : tensor<3xf32>, tensor<3xf32>, tensor<3xi32>\n"
      "}\n");
  CHECK(m != NULL);
  if (!m) return;
  CHECK_EQ_I(pass_simplify(m, &opts), 1);
  CHECK(verify_module(m));
  CHECK_EQ_I(count_ops(m, OP_ADD), 1); /* x + 0.0 stays */
  Op *ret = block_terminator(module_entry(m)->body);
  Func *f = module_entry(m);
  CHECK(ret->opnds[0] == f->body->args[0]);
  CHECK(ret->opnds[1] != f->body->args[0]);
  CHECK(ret->opnds[2] == f->body->args[1]);
  CHECK_EQ_I(pass_simplify(m, &opts), 0); /* fixed point */
  module_free(m);
}

static void test_fold_and_limit(void) {
  const char *text =
      "func.func @main() -> tensor<4xi32> {\n"
      "  %a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>\n"
      "  %b = stablehlo.add %a, %a : tensor<4xi32>\n"
      "  %c = stablehlo.multiply %b, %a : tensor<4xi32>\n"
      "  func.return %c : tensor<4xi32>\n"
      "}\n";
  Module *m = parse(text);
  CHECK(m != NULL);
  if (!m) return;
  PassOptions small = opts;
  small.fold_limit = 3;
  CHECK_EQ_I(pass_constant_fold(m, &small), 0);
  CHECK_EQ_I(count_ops(m, OP_MULTIPLY), 1);
  CHECK_EQ_I(pass_constant_fold(m, &opts), 1);
  CHECK_EQ_I(count_ops(m, OP_MULTIPLY), 0);
  CHECK_EQ_I(count_ops(m, OP_ADD), 0);
  CHECK_EQ_I(count_ops(m, OP_CONSTANT), 1);
  int n = 0;
  IVal **r = run_main(m, 0, NULL, &n);
  CHECK(r && n == 1);
  if (r) {
    CHECK_EQ_I(lit_get_i(r[0]->lit, 0), 2);
    CHECK_EQ_I(lit_get_i(r[0]->lit, 3), 32);
  }
  free_results(r, n);
  CHECK_EQ_I(pass_constant_fold(m, &opts), 0);
  module_free(m);
}

static void test_fold_keeps_error_count(void) {
  Module *m = parse(
      "func.func @main() -> tensor<3xi32> {\n"
      "  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>\n"
      "  %two = stablehlo.constant dense<[2]> : tensor<1xi64>\n"
      "  %n = stablehlo.add %two, %two : tensor<1xi64>\n"
      "  %r = stablehlo.dynamic_reshape %a, %n : (tensor<3xi32>, tensor<1xi64>) -> tensor<3xi32>\n"
      "  func.return %r : tensor<3xi32>\n"
      "}\n");
  CHECK(m != NULL);
  if (!m) return;
  int before = diag_error_count();
  /* the add folds; the reshape, whose evaluation fails, stays, silently */
  CHECK_EQ_I(pass_constant_fold(m, &opts), 1);
  CHECK_EQ_I(diag_error_count(), before);
  CHECK_EQ_I(count_ops(m, OP_DYNAMIC_RESHAPE), 1);
  module_free(m);
}

static void test_cse_dce_inline(void) {
  Module *m = parse(
      "func.func private @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  %e = stablehlo.exponential %a : tensor<2xf32>\n"
      "  func.return %e : tensor<2xf32>\n"
      "}\n"
      "func.func private @g(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  func.return %a : tensor<2xf32>\n"
      "}\n"
      "func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {\n"
      "  %p = func.call @f(%x) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "  %q = func.call @f(%x) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "  func.return %p, %q : tensor<2xf32>, tensor<2xf32>\n"
      "}\n");
  CHECK(m != NULL);
  if (!m) return;
  CHECK_EQ_I(pass_cse(m, &opts), 0); /* calls are not merged */
  CHECK_EQ_I(pass_inline_calls(m, &opts), 1);
  CHECK_EQ_I(count_ops(m, OP_CALL), 0);
  CHECK_EQ_I(count_ops(m, OP_EXPONENTIAL), 3);
  CHECK_EQ_I(pass_cse(m, &opts), 1);
  CHECK_EQ_I(count_ops(m, OP_EXPONENTIAL), 2); /* @f's own copy stays until dce */
  CHECK_EQ_I(pass_dce(m, &opts), 1);
  CHECK(module_find_func(m, "f") == NULL);
  CHECK(module_find_func(m, "g") == NULL);
  CHECK(module_find_func(m, "main") != NULL);
  CHECK_EQ_I(count_ops(m, OP_EXPONENTIAL), 1);
  CHECK(verify_module(m));
  CHECK_EQ_I(pass_dce(m, &opts), 0);
  CHECK_EQ_I(pass_inline_calls(m, &opts), 0);
  module_free(m);
}

static void test_dce_keeps_only_function(void) {
  /* no public function and no @main: the only function is the entry */
  Module *m = parse(
      "func.func private @only(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  %n = stablehlo.negate %a : tensor<2xf32>\n"
      "  func.return %a : tensor<2xf32>\n"
      "}\n");
  CHECK(m != NULL);
  if (!m) return;
  CHECK_EQ_I(pass_dce(m, &opts), 1);
  CHECK(module_find_func(m, "only") != NULL);
  CHECK_EQ_I(count_ops(m, OP_NEGATE), 0);
  module_free(m);
}

/* ---- random differential test ---- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static unsigned rnd(unsigned n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (unsigned)(rng_state % n);
}

static const char *const fconsts[] = {"0.0", "-0.0", "1.0", "-1.0", "2.0", "0x7F800000", "0x7FC00000", "0.1"};
static const char *const iconsts[] = {"0", "1", "-1", "7", "-2147483648", "2147483647"};

typedef struct Gen {
  StrBuf b;
  int nf, ni, tmp; /* pool sizes: %f0.., %i0..; temporaries %t0.. */
} Gen;

static void gen_const(Gen *g, bool fl, char *name, size_t cap) {
  const char *v = fl ? fconsts[rnd(ARRAY_LEN(fconsts))] : iconsts[rnd(ARRAY_LEN(iconsts))];
  const char *ty = fl ? "f32" : "i32";
  int t = g->tmp++;
  if (rnd(2)) {
    sb_printf(&g->b, "  %%t%d = stablehlo.constant dense<%s> : tensor<4x%s>\n", t, v, ty);
  } else {
    sb_printf(&g->b, "  %%t%ds = stablehlo.constant dense<%s> : tensor<%s>\n", t, v, ty);
    sb_printf(&g->b, "  %%t%d = stablehlo.broadcast_in_dim %%t%ds, dims = [] : (tensor<%s>) -> tensor<4x%s>\n",
              t, t, ty, ty);
  }
  snprintf(name, cap, "%%t%d", t);
}

/* An operand: a pool value or a constant. */
static void gen_operand(Gen *g, bool fl, char *name, size_t cap) {
  int n = fl ? g->nf : g->ni;
  if (rnd(3) == 0) {
    gen_const(g, fl, name, cap);
    return;
  }
  snprintf(name, cap, "%%%c%u", fl ? 'f' : 'i', rnd((unsigned)n));
}

static void gen_step(Gen *g) {
  static const char *const fbin[] = {"add", "subtract", "multiply", "divide", "maximum", "minimum"};
  static const char *const ibin[] = {"add", "subtract", "multiply", "and", "or", "xor", "maximum", "minimum"};
  char a[32], b[32];
  bool fl = rnd(2);
  const char *ty = fl ? "f32" : "i32";
  char dst[16];
  snprintf(dst, sizeof dst, "%%%c%d", fl ? 'f' : 'i', fl ? g->nf : g->ni);
  switch (rnd(7)) {
  case 0: case 1: case 2: { /* binary */
    const char *op = fl ? fbin[rnd(ARRAY_LEN(fbin))] : ibin[rnd(ARRAY_LEN(ibin))];
    gen_operand(g, fl, a, sizeof a);
    if (rnd(4) == 0)
      snprintf(b, sizeof b, "%s", a); /* x op x */
    else
      gen_operand(g, fl, b, sizeof b);
    if (rnd(2))
      sb_printf(&g->b, "  %s = stablehlo.%s %s, %s : tensor<4x%s>\n", dst, op, a, b, ty);
    else
      sb_printf(&g->b, "  %s = stablehlo.%s %s, %s : tensor<4x%s>\n", dst, op, b, a, ty);
    break;
  }
  case 3: { /* double negation / not */
    gen_operand(g, fl, a, sizeof a);
    const char *op = fl || rnd(2) ? "negate" : "not";
    int t = g->tmp++;
    sb_printf(&g->b, "  %%t%d = stablehlo.%s %s : tensor<4x%s>\n", t, op, a, ty);
    if (rnd(2))
      sb_printf(&g->b, "  %s = stablehlo.%s %%t%d : tensor<4x%s>\n", dst, op, t, ty);
    else
      sb_printf(&g->b, "  %s = stablehlo.negate %%t%d : tensor<4x%s>\n", dst, t, ty);
    break;
  }
  case 4: { /* convert round trips, some exact and some not */
    static const char *const fmid[] = {"f64", "f16", "bf16", "i32", "f32"};
    static const char *const imid[] = {"i64", "i8", "f32", "f64", "ui32", "i32"};
    const char *mid = fl ? fmid[rnd(ARRAY_LEN(fmid))] : imid[rnd(ARRAY_LEN(imid))];
    gen_operand(g, fl, a, sizeof a);
    int t = g->tmp++;
    sb_printf(&g->b, "  %%t%d = stablehlo.convert %s : (tensor<4x%s>) -> tensor<4x%s>\n", t, a, ty, mid);
    sb_printf(&g->b, "  %s = stablehlo.convert %%t%d : (tensor<4x%s>) -> tensor<4x%s>\n", dst, t, mid, ty);
    break;
  }
  case 5: { /* shape chains */
    gen_operand(g, fl, a, sizeof a);
    int t = g->tmp++;
    sb_printf(&g->b, "  %%t%d = stablehlo.reshape %s : (tensor<4x%s>) -> tensor<2x2x%s>\n", t, a, ty, ty);
    sb_printf(&g->b, "  %%t%du = stablehlo.transpose %%t%d, dims = [1, 0] : (tensor<2x2x%s>) -> tensor<2x2x%s>\n",
              t, t, ty, ty);
    if (rnd(2))
      sb_printf(&g->b, "  %%t%dv = stablehlo.transpose %%t%du, dims = [1, 0] : (tensor<2x2x%s>) -> tensor<2x2x%s>\n",
                t, t, ty, ty);
    else
      sb_printf(&g->b, "  %%t%dv = stablehlo.reshape %%t%du : (tensor<2x2x%s>) -> tensor<2x2x%s>\n", t, t, ty, ty);
    sb_printf(&g->b, "  %s = stablehlo.reshape %%t%dv : (tensor<2x2x%s>) -> tensor<4x%s>\n", dst, t, ty, ty);
    break;
  }
  default: { /* select and compare */
    gen_operand(g, fl, a, sizeof a);
    gen_operand(g, fl, b, sizeof b);
    int t = g->tmp++;
    if (rnd(2)) {
      sb_printf(&g->b, "  %%t%d = stablehlo.constant dense<%s> : tensor<4xi1>\n", t, rnd(2) ? "true" : "false");
    } else {
      const char *dirs[] = {"EQ", "NE", "LT", "GE"};
      sb_printf(&g->b, "  %%t%d = stablehlo.compare %s, %s, %s : (tensor<4x%s>, tensor<4x%s>) -> tensor<4xi1>\n", t,
                dirs[rnd(4)], a, rnd(2) ? a : b, ty, ty);
    }
    sb_printf(&g->b, "  %s = stablehlo.select %%t%d, %s, %s : tensor<4xi1>, tensor<4x%s>\n", dst, t, a,
              rnd(3) ? b : a, ty);
    break;
  }
  }
  if (fl)
    g->nf++;
  else
    g->ni++;
}

static char *gen_program(int steps) {
  Gen g = {{0}, 1, 1, 0};
  for (int i = 0; i < steps; i++) gen_step(&g);
  StrBuf body = g.b;
  StrBuf out = {0};
  sb_puts(&out, "func.func @main(%f0: tensor<4xf32>, %i0: tensor<4xi32>) -> (");
  for (int i = 0; i < g.nf; i++) sb_printf(&out, "%stensor<4xf32>", i ? ", " : "");
  for (int i = 0; i < g.ni; i++) sb_puts(&out, ", tensor<4xi32>");
  sb_puts(&out, ") {\n");
  sb_putn(&out, body.data ? body.data : "", body.len);
  sb_puts(&out, "  func.return ");
  for (int i = 0; i < g.nf; i++) sb_printf(&out, "%s%%f%d", i ? ", " : "", i);
  for (int i = 0; i < g.ni; i++) sb_printf(&out, ", %%i%d", i);
  sb_puts(&out, " : ");
  for (int i = 0; i < g.nf; i++) sb_printf(&out, "%stensor<4xf32>", i ? ", " : "");
  for (int i = 0; i < g.ni; i++) sb_puts(&out, ", tensor<4xi32>");
  sb_puts(&out, "\n}\n");
  sb_free(&body);
  return sb_take(&out);
}

static void test_random_differential(void) {
  int programs = 300, mismatches = 0, broken = 0;
  int64_t four = 4;
  Arena a;
  arena_init(&a);
  Type *tf = type_tensor(&a, ET_F32, 1, &four), *ti = type_tensor(&a, ET_S32, 1, &four);
  for (int p = 0; p < programs; p++) {
    char *text = gen_program(6 + (int)rnd(12));
    Module *m = parse(text);
    if (!m) {
      broken++;
      fprintf(stderr, "generated program does not parse:\n%s", text);
      free(text);
      continue;
    }
    IVal *args[2];
    Literal *lf = lit_new(tf), *li = lit_new(ti);
    static const double fvals[] = {-0.0, 1.5, -3.0};
    for (int i = 0; i < 4; i++) {
      unsigned k = rnd(6);
      if (k < 3)
        lit_set_f(lf, i, fvals[k]);
      else if (k == 3)
        lit_set_bits(lf, i, 0x7FC00000u); /* quiet NaN */
      else if (k == 4)
        lit_set_bits(lf, i, 0xFF800000u); /* -inf */
      else
        lit_set_f(lf, i, 0.0);
      static const int64_t ivals[] = {INT32_MIN, -1, 0, 7, INT32_MAX, 3};
      lit_set_i(li, i, ivals[rnd(6)]);
    }
    args[0] = ival_tensor(lf);
    args[1] = ival_tensor(li);
    int n0 = 0, n1 = 0;
    IVal **before = run_main(m, 2, args, &n0);
    bool ok = pass_inline_calls(m, &opts) >= 0 && pass_simplify(m, &opts) >= 0 &&
              pass_constant_fold(m, &opts) >= 0 && pass_cse(m, &opts) >= 0 && pass_simplify(m, &opts) >= 0 &&
              pass_dce(m, &opts) >= 0 && verify_module(m);
    IVal **after = ok ? run_main(m, 2, args, &n1) : NULL;
    bool same = before && after && n0 == n1;
    for (int i = 0; same && i < n0; i++) {
      if (!ival_equal(before[i], after[i])) {
        same = false;
        fprintf(stderr, "result %d differs after the passes\n", i);
      }
    }
    if (!same) {
      mismatches++;
      if (mismatches <= 3) fprintf(stderr, "program:\n%s", text);
    }
    free_results(before, n0);
    free_results(after, n1);
    ival_release(args[0]);
    ival_release(args[1]);
    module_free(m);
    free(text);
  }
  arena_free(&a);
  CHECK_EQ_I(broken, 0);
  CHECK_EQ_I(mismatches, 0);
}

int main(void) {
  test_simplify_counts();
  test_fold_and_limit();
  test_fold_keeps_error_count();
  test_cse_dce_inline();
  test_dce_keeps_only_function();
  test_random_differential();
  TEST_SUMMARY();
}
