/*
 * test_expand.c - the chlo-decompose and expand passes, checked against the
 * interpreter.
 *
 * Each case is a small StableHLO module.  It is parsed twice; one copy is
 * rewritten by the pass and must still verify and be free of the ops the
 * pass promises to remove; then both copies run in the interpreter on the
 * same inputs and their results are compared element by element: floats by
 * ULP distance in the element type (with an absolute slack for the
 * expansions, whose sums are reassociated), everything else exactly.
 *
 * Float inputs cover the domain on purpose: zeros of both signs, infs, NaN,
 * the extremes of the format, subnormals, values in [-1.1, 1.1] and
 * [-12, 12], and magnitudes spread logarithmically over the whole range.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/stablehlo/stablehlo.h"
#include "interp/interp.h"
#include "ir/verify.h"
#include "passes/passes.h"

static int passed, failed;

/* ---- inputs ---- */
static uint64_t rng_next(uint64_t *s) {
  *s += 0x9E3779B97F4A7C15ull;
  uint64_t z = *s;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static double unif(uint64_t *s) { return (double)(rng_next(s) >> 11) / 9007199254740992.0; }

static double float_input(ElemType et, int64_t i, uint64_t *s, bool plain) {
  double mx = et_max_finite(et);
  double tiny = et == ET_F64 ? 4.9e-324 : et == ET_F32 ? 1.4e-45 : et == ET_F16 ? 6e-8 : 9.2e-41;
  const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1, -1, 0.5, -0.5, mx, -mx,
                             tiny, -tiny, 1e-30, -1e-30, 2, 0.999999, -0.999999, 1.000001, 3.9, 88.5, -88.5,
                             710, 1e10, 1e20, -1e20};
  if (plain) return unif(s) * 2 - 1;
  int64_t ns = (int64_t)ARRAY_LEN(specials);
  if (i < ns) return specials[i];
  double r = unif(s);
  switch (i % 4) {
  case 0: return r * 2.2 - 1.1;
  case 1: return r * 24 - 12;
  case 2: return 1 - r * 1e-4; /* close to 1, where acosh / erf_inv / atanh are delicate */
  default: {
    double lmax = log10(mx), lmin = log10(tiny);
    double v = pow(10, lmin + unif(s) * (lmax - lmin));
    return r < 0.5 ? -v : v;
  }
  }
}

static void fill(Literal *l, uint64_t seed, bool plain) {
  uint64_t s = seed;
  ElemType et = lit_elem(l);
  for (int64_t i = 0; i < l->n; i++) {
    if (et_is_complex(et)) {
      lit_set_c(l, i, float_input(ET_F32, i, &s, plain), float_input(ET_F32, i + 7, &s, plain));
    } else if (et_is_float(et)) {
      /* a second argument sees the specials in another order */
      int64_t j = seed > 100 && i < 26 ? (i * 7 + 3) % 26 : i;
      lit_set_f(l, i, float_input(et, j, &s, plain));
    } else if (et_is_pred(et)) {
      lit_set_b(l, i, rng_next(&s) & 1);
    } else {
      lit_set_i(l, i, (int64_t)(rng_next(&s) % 41) - 20);
    }
  }
}

/* ---- comparing ---- */
static uint64_t ulp_dist(const Literal *a, const Literal *b, int64_t i) {
  double x = lit_get_f(a, i), y = lit_get_f(b, i);
  if (isnan(x) || isnan(y)) return isnan(x) && isnan(y) ? 0 : UINT64_MAX;
  if (x == y) return 0;
  int w = et_bits(lit_elem(a));
  uint64_t sb = 1ull << (w - 1);
  uint64_t ba = lit_get_bits(a, i), bb = lit_get_bits(b, i);
  int64_t ka = (ba & sb) ? -(int64_t)(ba & ~sb) : (int64_t)ba;
  int64_t kb = (bb & sb) ? -(int64_t)(bb & ~sb) : (int64_t)bb;
  return ka > kb ? (uint64_t)(ka - kb) : (uint64_t)(kb - ka);
}

typedef struct Case {
  const char *name;
  const char *text;
  int pass;      /* 0: chlo-decompose, 1: expand */
  int max_ulp;   /* per float element */
  double atol;   /* absolute slack on top (reassociated sums) */
  bool plain;    /* inputs only in [-1, 1) */
} Case;

/* The op kinds the pass must have removed. */
static bool leftover(Op *op, void *ud) {
  int pass = *(int *)ud;
  bool bad = pass == 0 ? strncmp(op_info[op->kind].name, "chlo.", 5) == 0
                       : (op->kind == OP_BATCH_NORM_GRAD || op->kind == OP_BATCH_NORM_INFERENCE ||
                          op->kind == OP_BATCH_NORM_TRAINING || op->kind == OP_DOT ||
                          op->kind == OP_EINSUM || op->kind == OP_UNARY_EINSUM);
  if (bad) fprintf(stderr, "  leftover op %s\n", op_info[op->kind].name);
  return !bad;
}

static Module *parse(const Case *c) {
  int file = src_add(c->name, c->text, strlen(c->text));
  Module *m = stablehlo_parse(file, 0, strlen(c->text));
  if (m && !verify_module(m)) {
    module_free(m);
    m = NULL;
  }
  return m;
}

static bool run(Module *m, IVal **args, int nargs, IVal **res) {
  Interp I;
  InterpOptions opts = {0};
  opts.quiet_checks = true;
  interp_init(&I, m, &opts);
  return interp_call(&I, module_entry(m), nargs, args, res);
}

static bool compare_tensor(const Case *c, int r, const Literal *a, const Literal *b, uint64_t *worst) {
  ElemType et = lit_elem(a);
  if (lit_elem(b) != et || a->n != b->n) {
    fprintf(stderr, "  result %d: types differ\n", r);
    return false;
  }
  for (int64_t i = 0; i < a->n; i++) {
    if (et_is_complex(et)) {
      double ar, ai, br, bi;
      lit_get_c(a, i, &ar, &ai);
      lit_get_c(b, i, &br, &bi);
      if ((ar == br || (isnan(ar) && isnan(br))) && (ai == bi || (isnan(ai) && isnan(bi)))) continue;
      fprintf(stderr, "  result %d [%lld]: (%g, %g) vs (%g, %g)\n", r, (long long)i, ar, ai, br, bi);
      return false;
    }
    if (!et_is_float(et)) {
      if (lit_get_bits(a, i) == lit_get_bits(b, i)) continue;
      fprintf(stderr, "  result %d [%lld]: %lld vs %lld\n", r, (long long)i, (long long)lit_get_i(a, i),
              (long long)lit_get_i(b, i));
      return false;
    }
    uint64_t d = ulp_dist(a, b, i);
    double x = lit_get_f(a, i), y = lit_get_f(b, i);
    if (d <= (uint64_t)c->max_ulp || fabs(x - y) <= c->atol) {
      if (d > *worst && d != UINT64_MAX) *worst = d;
      continue;
    }
    fprintf(stderr, "  result %d [%lld]: direct %.17g, rewritten %.17g (%llu ulp)\n", r, (long long)i, x, y,
            (unsigned long long)d);
    return false;
  }
  return true;
}

static void run_case(const Case *c) {
  Module *orig = parse(c), *opt = parse(c);
  bool ok = orig && opt;
  if (!ok) fprintf(stderr, "%s: does not parse\n", c->name);
  PassOptions po = {0};
  if (ok) {
    int r = c->pass == 0 ? pass_chlo_decompose(opt, &po) : pass_expand(opt, &po);
    if (r != 1) {
      fprintf(stderr, "%s: pass returned %d\n", c->name, r);
      ok = false;
    } else if (!verify_module(opt)) {
      fprintf(stderr, "%s: rewritten module does not verify\n", c->name);
      ok = false;
    } else if (!module_walk(opt, leftover, (void *)&c->pass)) {
      fprintf(stderr, "%s: ops left over\n", c->name);
      ok = false;
    }
  }
  if (ok) {
    Func *f = module_entry(orig);
    int nargs = f->body->nargs, nres = f->nresults;
    IVal *args[8], *ra[8] = {0}, *rb[8] = {0};
    for (int i = 0; i < nargs; i++) {
      Literal *l = lit_new(f->body->args[i]->type);
      fill(l, 1 + 1000 * (uint64_t)i, c->plain);
      args[i] = ival_tensor(l);
    }
    bool okA = run(orig, args, nargs, ra), okB = okA && run(opt, args, nargs, rb);
    ok = okA && okB;
    if (!ok) fprintf(stderr, "%s: interpreter failed\n", c->name);
    uint64_t worst = 0;
    for (int r = 0; ok && r < nres; r++) {
      if (ra[r]->kind != IV_TENSOR || rb[r]->kind != IV_TENSOR) {
        ok = ival_equal(ra[r], rb[r]);
        continue;
      }
      if (!compare_tensor(c, r, ra[r]->lit, rb[r]->lit, &worst)) ok = false;
    }
    if (!ok) fprintf(stderr, "%s: results differ\n", c->name);
    else printf("%-16s ok, worst %llu ulp within the bound\n", c->name, (unsigned long long)worst);
    for (int i = 0; i < nargs; i++) ival_release(args[i]);
    for (int r = 0; r < nres; r++) {
      if (ra[r]) ival_release(ra[r]);
      if (rb[r]) ival_release(rb[r]);
    }
  }
  if (ok) passed++;
  else failed++;
  if (orig) module_free(orig);
  if (opt) module_free(opt);
}

/* Worst ULP distance of a unary chlo op after decomposition, over many
   inputs; printed so the bounds in chlo.c stay honest. */
static void measure_unary(const char *op, const char *ty, int n, int bound) {
  char *text = xasprintf("func.func @main(%%x: tensor<%dx%s>) -> tensor<%dx%s> {\n"
                         "  %%r = \"chlo.%s\"(%%x) : (tensor<%dx%s>) -> tensor<%dx%s>\n"
                         "  return %%r : tensor<%dx%s>\n}\n",
                         n, ty, n, ty, op, n, ty, n, ty, n, ty);
  char *name = xasprintf("%s_%s", op, ty);
  Case c = {name, text, 0, bound, 0, false};
  run_case(&c);
  free(text);
  free(name);
}

static const Case cases[] = {
    {"broadcast_ops",
     "func.func @main(%a: tensor<4x1x3xf32>, %b: tensor<3xf32>, %c: tensor<4xf32>, %p: tensor<2x3xi1>) ->\n"
     "    (tensor<4x2x3xf32>, tensor<4x1x3xi1>, tensor<4x5xf32>, tensor<2x3xf32>) {\n"
     "  %b2 = stablehlo.reshape %b : (tensor<3xf32>) -> tensor<1x3xf32>\n"
     "  %0 = chlo.broadcast_add %a, %b2 : (tensor<4x1x3xf32>, tensor<1x3xf32>) -> tensor<4x1x3xf32>\n"
     "  %x = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>\n"
     "  %1 = chlo.broadcast_multiply %0, %x : (tensor<4x1x3xf32>, tensor<2x3xf32>) -> tensor<4x2x3xf32>\n"
     "  %2 = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction LT>} :"
     " (tensor<4x1x3xf32>, tensor<3xf32>) -> tensor<4x1x3xi1>\n"
     "  %c5 = stablehlo.broadcast_in_dim %c, dims = [0] : (tensor<4xf32>) -> tensor<4x5xf32>\n"
     "  %3 = chlo.broadcast_subtract %c5, %c {broadcast_dimensions = array<i64: 0>} :"
     " (tensor<4x5xf32>, tensor<4xf32>) -> tensor<4x5xf32>\n"
     "  %4 = chlo.broadcast_select %p, %x, %b : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>\n"
     "  return %1, %2, %3, %4 : tensor<4x2x3xf32>, tensor<4x1x3xi1>, tensor<4x5xf32>, tensor<2x3xf32>\n}\n",
     0, 0, 0, false},
    {"broadcast_int",
     "func.func @main(%a: tensor<2x3xi32>, %b: tensor<3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>) {\n"
     "  %0 = chlo.broadcast_and %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>\n"
     "  %1 = chlo.broadcast_maximum %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>\n"
     "  %2 = chlo.broadcast_remainder %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>\n"
     "  return %0, %1, %2 : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>\n}\n",
     0, 0, 0, false},
    {"square_conj_isinf",
     "func.func @main(%x: tensor<64xf32>, %i: tensor<8xi8>, %z: tensor<16xcomplex<f32>>) -> (tensor<64xf32>,"
     " tensor<8xi8>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<64xi1>, tensor<64xi1>, tensor<64xi1>,"
     " tensor<64xf32>) {\n"
     "  %0 = chlo.square %x : tensor<64xf32> -> tensor<64xf32>\n"
     "  %1 = chlo.square %i : tensor<8xi8> -> tensor<8xi8>\n"
     "  %2 = chlo.square %z : tensor<16xcomplex<f32>> -> tensor<16xcomplex<f32>>\n"
     "  %3 = chlo.conj %z : tensor<16xcomplex<f32>> -> tensor<16xcomplex<f32>>\n"
     "  %4 = chlo.is_inf %x : tensor<64xf32> -> tensor<64xi1>\n"
     "  %5 = chlo.is_pos_inf %x : tensor<64xf32> -> tensor<64xi1>\n"
     "  %6 = chlo.is_neg_inf %x : tensor<64xf32> -> tensor<64xi1>\n"
     "  %7 = chlo.tan %x : tensor<64xf32> -> tensor<64xf32>\n"
     "  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<64xf32>, tensor<8xi8>, tensor<16xcomplex<f32>>,"
     " tensor<16xcomplex<f32>>, tensor<64xi1>, tensor<64xi1>, tensor<64xi1>, tensor<64xf32>\n}\n",
     0, 0, 0, false},
    {"constant_like",
     "func.func @main(%x: tensor<2x3xf32>, %i: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<4xi32>) {\n"
     "  %0 = \"chlo.constant_like\"(%x) {value = 2.5 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
     "  %1 = \"chlo.constant_like\"(%i) {value = -7 : i32} : (tensor<4xi32>) -> tensor<4xi32>\n"
     "  %2 = stablehlo.add %0, %x : tensor<2x3xf32>\n"
     "  return %2, %1 : tensor<2x3xf32>, tensor<4xi32>\n}\n",
     0, 0, 0, false},
    {"next_after",
     "func.func @main(%x: tensor<512xf32>, %y: tensor<512xf32>, %a: tensor<64xf64>, %b: tensor<64xf64>,"
     " %h: tensor<64xf16>, %g: tensor<64xf16>) -> (tensor<512xf32>, tensor<512xf32>, tensor<64xf64>, tensor<64xf16>) {\n"
     "  %0 = chlo.next_after %x, %y : tensor<512xf32>, tensor<512xf32> -> tensor<512xf32>\n"
     "  %1 = chlo.next_after %x, %x : tensor<512xf32>, tensor<512xf32> -> tensor<512xf32>\n"
     "  %2 = chlo.next_after %a, %b : tensor<64xf64>, tensor<64xf64> -> tensor<64xf64>\n"
     "  %3 = chlo.next_after %h, %g : tensor<64xf16>, tensor<64xf16> -> tensor<64xf16>\n"
     "  return %0, %1, %2, %3 : tensor<512xf32>, tensor<512xf32>, tensor<64xf64>, tensor<64xf16>\n}\n",
     0, 0, 0, false},
    /* top_k of 4-bit integers is still a sort (wider types stay top_k) */
    {"top_k",
     "func.func @main(%i: tensor<3x9xi32>) -> (tensor<3x5xi4>, tensor<3x5xi32>, tensor<3x9xi4>, tensor<3x9xi32>) {\n"
     "  %n = stablehlo.convert %i : (tensor<3x9xi32>) -> tensor<3x9xi4>\n"
     "  %v, %idx = chlo.top_k(%n, k = 5) : tensor<3x9xi4> -> (tensor<3x5xi4>, tensor<3x5xi32>)\n"
     "  %w, %jdx = chlo.top_k(%n, k = 9) : tensor<3x9xi4> -> (tensor<3x9xi4>, tensor<3x9xi32>)\n"
     "  return %v, %idx, %w, %jdx : tensor<3x5xi4>, tensor<3x5xi32>, tensor<3x9xi4>, tensor<3x9xi32>\n}\n",
     0, 0, 0, false},
};


static const Case expand_cases[] = {
    {"bn_inference",
     "func.func @main(%x: tensor<4x3x5xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>, %m: tensor<3xf32>,"
     " %v: tensor<3xf32>) -> tensor<4x3x5xf32> {\n"
     "  %va = stablehlo.abs %v : tensor<3xf32>\n"
     "  %r = \"stablehlo.batch_norm_inference\"(%x, %s, %o, %m, %va) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64}"
     " : (tensor<4x3x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<4x3x5xf32>\n"
     "  return %r : tensor<4x3x5xf32>\n}\n",
     1, 4, 1e-5, true},
    {"bn_training",
     "func.func @main(%x: tensor<6x7x4xf32>, %s: tensor<4xf32>, %o: tensor<4xf32>) ->"
     " (tensor<6x7x4xf32>, tensor<4xf32>, tensor<4xf32>) {\n"
     "  %r:3 = \"stablehlo.batch_norm_training\"(%x, %s, %o) {epsilon = 1.0e-5 : f32, feature_index = 2 : i64}"
     " : (tensor<6x7x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<6x7x4xf32>, tensor<4xf32>, tensor<4xf32>)\n"
     "  return %r#0, %r#1, %r#2 : tensor<6x7x4xf32>, tensor<4xf32>, tensor<4xf32>\n}\n",
     1, 4, 1e-5, true},
    {"bn_training_f16",
     "func.func @main(%x: tensor<5x3x2xf16>, %s: tensor<5xf16>, %o: tensor<5xf16>) ->"
     " (tensor<5x3x2xf16>, tensor<5xf16>, tensor<5xf16>) {\n"
     "  %r:3 = \"stablehlo.batch_norm_training\"(%x, %s, %o) {epsilon = 1.0e-3 : f32, feature_index = 0 : i64}"
     " : (tensor<5x3x2xf16>, tensor<5xf16>, tensor<5xf16>) -> (tensor<5x3x2xf16>, tensor<5xf16>, tensor<5xf16>)\n"
     "  return %r#0, %r#1, %r#2 : tensor<5x3x2xf16>, tensor<5xf16>, tensor<5xf16>\n}\n",
     1, 1, 0, true},
    {"bn_grad",
     "func.func @main(%x: tensor<2x3x4x5xf32>, %s: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>,"
     " %dy: tensor<2x3x4x5xf32>) -> (tensor<2x3x4x5xf32>, tensor<4xf32>, tensor<4xf32>) {\n"
     "  %va = stablehlo.abs %v : tensor<4xf32>\n"
     "  %r:3 = \"stablehlo.batch_norm_grad\"(%x, %s, %m, %va, %dy) {epsilon = 1.0e-2 : f32, feature_index = 2 : i64}"
     " : (tensor<2x3x4x5xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x3x4x5xf32>) ->"
     " (tensor<2x3x4x5xf32>, tensor<4xf32>, tensor<4xf32>)\n"
     "  return %r#0, %r#1, %r#2 : tensor<2x3x4x5xf32>, tensor<4xf32>, tensor<4xf32>\n}\n",
     1, 8, 2e-4, true},
    {"dot",
     "func.func @main(%a: tensor<4x5xf32>, %b: tensor<5x6xf32>, %v: tensor<5xf32>, %w: tensor<4xf32>) ->"
     " (tensor<4x6xf32>, tensor<4xf32>, tensor<6xf32>, tensor<f32>) {\n"
     "  %0 = \"stablehlo.dot\"(%a, %b) : (tensor<4x5xf32>, tensor<5x6xf32>) -> tensor<4x6xf32>\n"
     "  %1 = \"stablehlo.dot\"(%a, %v) : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<4xf32>\n"
     "  %2 = \"stablehlo.dot\"(%v, %b) : (tensor<5xf32>, tensor<5x6xf32>) -> tensor<6xf32>\n"
     "  %3 = \"stablehlo.dot\"(%w, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>\n"
     "  return %0, %1, %2, %3 : tensor<4x6xf32>, tensor<4xf32>, tensor<6xf32>, tensor<f32>\n}\n",
     1, 4, 1e-6, true},
    {"dot_general",
     "func.func @main(%a: tensor<3x4x2x5xf32>, %b: tensor<5x2x3x6xf32>, %c: tensor<2x3x4xf32>, %d: tensor<2x4x5xf32>,"
     " %i: tensor<3x4xi32>, %j: tensor<5x3xi32>, %e: tensor<7x3xf64>, %f: tensor<3x2xf64>) ->"
     " (tensor<2x4x6xf32>, tensor<2x3x5xf32>, tensor<4x5xi32>, tensor<7x2xf64>, tensor<2x7xf64>) {\n"
     "  %0 = \"stablehlo.dot_general\"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [2],"
     " rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3, 0], rhs_contracting_dimensions = [0, 2]>}"
     " : (tensor<3x4x2x5xf32>, tensor<5x2x3x6xf32>) -> tensor<2x4x6xf32>\n"
     "  %1 = \"stablehlo.dot_general\"(%c, %d) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0],"
     " rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}"
     " : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>\n"
     "  %2 = \"stablehlo.dot_general\"(%i, %j) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0],"
     " rhs_contracting_dimensions = [1]>} : (tensor<3x4xi32>, tensor<5x3xi32>) -> tensor<4x5xi32>\n"
     "  %3 = \"stablehlo.dot_general\"(%e, %f) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1],"
     " rhs_contracting_dimensions = [0]>} : (tensor<7x3xf64>, tensor<3x2xf64>) -> tensor<7x2xf64>\n"
     "  %4 = \"stablehlo.dot_general\"(%f, %e) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0],"
     " rhs_contracting_dimensions = [1]>} : (tensor<3x2xf64>, tensor<7x3xf64>) -> tensor<2x7xf64>\n"
     "  return %0, %1, %2, %3, %4 : tensor<2x4x6xf32>, tensor<2x3x5xf32>, tensor<4x5xi32>, tensor<7x2xf64>, tensor<2x7xf64>\n}\n",
     1, 4, 1e-5, true},
    {"einsum",
     "func.func @main(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<2x3x4xf32>, %d: tensor<2x4x6xf32>) ->"
     " (tensor<3x5xf32>, tensor<6x3x2xf32>, tensor<4x3xf32>, tensor<4x2xf32>, tensor<5x3xf32>) {\n"
     "  %0 = \"stablehlo.einsum\"(%a, %b) {einsum_config = \"ab,bc->ac\"} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>\n"
     "  %1 = \"stablehlo.einsum\"(%c, %d) {einsum_config = \"bij,bjk->kib\"} : (tensor<2x3x4xf32>, tensor<2x4x6xf32>) -> tensor<6x3x2xf32>\n"
     "  %2 = \"stablehlo.unary_einsum\"(%a) {einsum_config = \"ab->ba\"} : (tensor<3x4xf32>) -> tensor<4x3xf32>\n"
     "  %3 = \"stablehlo.unary_einsum\"(%c) {einsum_config = \"abc->ca\"} : (tensor<2x3x4xf32>) -> tensor<4x2xf32>\n"
     "  %4 = \"stablehlo.einsum\"(%c, %b) {einsum_config = \"xab,bc->ca\"} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<5x3xf32>\n"
     "  return %0, %1, %2, %3, %4 : tensor<3x5xf32>, tensor<6x3x2xf32>, tensor<4x3xf32>, tensor<4x2xf32>, tensor<5x3xf32>\n}\n",
     1, 4, 1e-5, true},
};

int main(void) {
  for (size_t i = 0; i < ARRAY_LEN(expand_cases); i++) run_case(&expand_cases[i]);
  for (size_t i = 0; i < ARRAY_LEN(cases); i++) run_case(&cases[i]);
  static const char *const fns[] = {"sinh", "cosh", "asinh", "acosh", "atanh", "asin", "acos", "atan"};
  for (size_t i = 0; i < ARRAY_LEN(fns); i++) {
    measure_unary(fns[i], "f32", 20000, 3);
    measure_unary(fns[i], "f64", 20000, 3);
    measure_unary(fns[i], "f16", 2000, 1);
    measure_unary(fns[i], "bf16", 2000, 1);
  }
  /* erf stays CHLO (compiled by codegen/math_approx.c; its accuracy is
     test_math_approx's and tests/lit/cpu/math_*.mlir's) */
  measure_unary("erf_inv", "f32", 40000, 3);
  measure_unary("erf_inv", "f16", 2000, 1);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
