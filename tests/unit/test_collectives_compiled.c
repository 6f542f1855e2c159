/*
 * test_collectives_compiled.c - collectives compiled to runtime calls give
 * the interpreter's results exactly: random data on 4 replicas, float sums
 * (whose value depends on the order of the members) and integer
 * reductions, compared bit for bit; a loop of 1000 all_reduces; and the
 * failure paths (a failing replica aborts the others; a deadlock between a
 * compiled and an interpreted process is found), none of which may hang.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu.h"
#include "test_module.h"
#include "test_util.h"

enum { MAXP = 8 };

/* Random values with magnitudes over many binades (so that the order of a
   float sum shows in its rounding), or integers over the whole range. */
static Literal *random_lit(const Type *t, uint64_t seed) {
  Literal *l = lit_new(t);
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 12345;
  for (int64_t j = 0; j < l->n; j++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    double u = (double)(x >> 11) / 9007199254740992.0;
    if (et_is_float(l->type->elem))
      lit_set_f(l, j, (2 * u - 1) * ldexp(1.0, (int)(x >> 3) % 24 - 12));
    else
      lit_set_u(l, j, x ^ (x >> 29));
  }
  return l;
}

static bool run_compiled(void *exe, Interp *I, int nargs, IVal **args, IVal **results) {
  return cpu_execute(exe, I, nargs, args, results);
}

/* Runs @main of m on an nr x np grid: compiled when exe is set (the
   processes listed in `interp_only` interpreted all the same), else
   interpreted.  args[i]: process i's arguments.  results[i]: its results
   (NULL when the grid failed; free with release_results). */
static bool grid(Module *m, CpuExecutable *exe, unsigned interp_only, int nr, int np, IVal ***args,
                 IVal ***results) {
  Func *f = module_find_func(m, "main");
  InterpOptions io = {0};
  Interp I;
  interp_init(&I, m, &io);
  GridProgram progs[MAXP];
  IVal **res[MAXP];
  for (int i = 0; i < nr * np; i++) {
    progs[i] = (GridProgram){f, f->body->nargs, args[i], NULL, NULL};
    if (exe && !(interp_only >> i & 1)) progs[i].run = run_compiled, progs[i].ctx = exe;
  }
  bool ok = interp_run_grid(&I, nr, np, progs, res);
  for (int i = 0; i < nr * np; i++) results[i] = ok ? res[i] : NULL;
  return ok;
}

static void release_results(IVal **r, int n) {
  for (int k = 0; r && k < n; k++) ival_release(r[k]);
  free(r);
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Runs `text` on nr replicas both ways, with random arguments per replica,
   and checks that every result is the same bits; returns the compiled
   run's time. */
static double same_both_ways(const char *name, const char *text, int nr, int threads) {
  Module *mi = parse(text), *mc = parse(text);
  CHECK(mi && mc);
  if (!mi || !mc) return 0;
  Func *f = module_find_func(mi, "main");
  CpuOptions o = {0};
  o.threads = threads;
  CpuExecutable *exe = cpu_compile(mc, module_find_func(mc, "main"), &o);
  CHECK(exe != NULL);
  CHECK(exe && cpu_executable_stats(exe)->fallback_ops == 0);
  IVal **args[MAXP];
  for (int i = 0; i < nr; i++) {
    args[i] = calloc((size_t)f->body->nargs + 1, sizeof(IVal *));
    for (int k = 0; k < f->body->nargs; k++) args[i][k] = ival_tensor(random_lit(f->body->args[k]->type, 7 * i + k + 1));
  }
  IVal **ref[MAXP], **got[MAXP];
  bool ok_i = grid(mi, NULL, 0, nr, 1, args, ref);
  double t0 = now_ms();
  bool ok_c = exe && grid(mc, exe, 0, nr, 1, args, got);
  double ms = now_ms() - t0;
  CHECK(ok_i && ok_c);
  for (int i = 0; ok_i && ok_c && i < nr; i++)
    for (int k = 0; k < f->nresults; k++) {
      const Literal *a = ref[i][k]->lit, *b = got[i][k]->lit;
      bool same = a->n == b->n && lit_elem(a) == lit_elem(b) &&
                  memcmp(a->data, b->data, (size_t)a->n * (size_t)et_bytes(lit_elem(a))) == 0;
      if (!same) fprintf(stderr, "%s: result %d of replica %d differs from the interpreter\n", name, k, i);
      CHECK(same);
    }
  for (int i = 0; i < nr; i++) {
    if (ok_i) release_results(ref[i], f->nresults);
    if (ok_c) release_results(got[i], f->nresults);
    for (int k = 0; k < f->body->nargs; k++) ival_release(args[i][k]);
    free(args[i]);
  }
  cpu_executable_free(exe);
  module_free(mi);
  module_free(mc);
  return ms;
}

/* all_reduce of one operand of type T with `op` on 4 replicas. */
static void all_reduce_case(const char *type, const char *elem, const char *op, int threads) {
  char text[1024];
  snprintf(text, sizeof text,
           "func.func @main(%%x: tensor<%s>) -> tensor<%s> {\n"
           "  %%r = \"stablehlo.all_reduce\"(%%x) ({\n"
           "    ^bb0(%%a: tensor<%s>, %%b: tensor<%s>):\n"
           "      %%s = stablehlo.%s %%a, %%b : tensor<%s>\n"
           "      stablehlo.return %%s : tensor<%s>\n"
           "  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<%s>) -> tensor<%s>\n"
           "  return %%r : tensor<%s>\n"
           "}\n",
           type, type, elem, elem, op, elem, elem, type, type, type);
  char name[128];
  snprintf(name, sizeof name, "all_reduce %s %s", op, type);
  same_both_ways(name, text, 4, threads);
}

static void test_reductions_exact(void) {
  /* f32 sums: large enough for several chunks on the pool and blocks of
     the combiner, and a size that is no multiple of either */
  all_reduce_case("100003xf32", "f32", "add", 3);
  all_reduce_case("5x7xf32", "f32", "add", 1);
  all_reduce_case("1000xf64", "f64", "add", 2);
  all_reduce_case("1000xf16", "f16", "add", 2);
  all_reduce_case("1000xbf16", "bf16", "add", 2);
  all_reduce_case("777xf32", "f32", "maximum", 2);
  all_reduce_case("777xf32", "f32", "multiply", 2);
  all_reduce_case("40000xi32", "i32", "add", 2);
  all_reduce_case("999xui8", "ui8", "multiply", 2);
  all_reduce_case("999xi64", "i64", "add", 2);
  all_reduce_case("999xi16", "i16", "minimum", 2);
  all_reduce_case("999xui32", "ui32", "xor", 2);
  all_reduce_case("2x3xcomplex<f32>", "complex<f32>", "add", 1);
  /* reduce_scatter reads the members at an offset */
  same_both_ways("reduce_scatter f32",
                 "func.func @main(%x: tensor<3x8000x5xf32>) -> tensor<3x2000x5xf32> {\n"
                 "  %r = \"stablehlo.reduce_scatter\"(%x) ({\n"
                 "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                 "      %s = stablehlo.add %a, %b : tensor<f32>\n"
                 "      stablehlo.return %s : tensor<f32>\n"
                 "  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[3, 1, 0, 2]]> : tensor<1x4xi64>}\n"
                 "     : (tensor<3x8000x5xf32>) -> tensor<3x2000x5xf32>\n"
                 "  return %r : tensor<3x2000x5xf32>\n"
                 "}\n",
                 4, 2);
  /* the legacy cross-replica-sum adds without a region */
  same_both_ways("cross-replica-sum",
                 "func.func @main(%x: tensor<500xf16>, %y: tensor<7xi32>) -> (tensor<500xf16>, tensor<7xi32>) {\n"
                 "  %r:2 = \"stablehlo.cross-replica-sum\"(%x, %y) {replica_groups = dense<[[2, 3, 0, 1]]> : tensor<1x4xi64>}\n"
                 "     : (tensor<500xf16>, tensor<7xi32>) -> (tensor<500xf16>, tensor<7xi32>)\n"
                 "  return %r#0, %r#1 : tensor<500xf16>, tensor<7xi32>\n"
                 "}\n",
                 4, 1);
  /* a region of several ops, and operands widened to the reduction type */
  same_both_ways("all_reduce region",
                 "func.func @main(%x: tensor<300xbf16>) -> tensor<300xf32> {\n"
                 "  %r = \"stablehlo.all_reduce\"(%x) ({\n"
                 "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                 "      %h = stablehlo.constant dense<0.5> : tensor<f32>\n"
                 "      %m = stablehlo.multiply %b, %h : tensor<f32>\n"
                 "      %s = stablehlo.add %a, %m : tensor<f32>\n"
                 "      stablehlo.return %s : tensor<f32>\n"
                 "  }) {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<300xbf16>) -> tensor<300xf32>\n"
                 "  return %r : tensor<300xf32>\n"
                 "}\n",
                 4, 1);
}

/* 1000 iterations of a loop around an all_reduce, on 4 replicas. */
static void test_loop_stress(void) {
  const char *text = "func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {\n"
                     "  %zero = stablehlo.constant dense<0> : tensor<i32>\n"
                     "  %r:2 = stablehlo.while(%i = %zero, %acc = %x) : tensor<i32>, tensor<64xf32>\n"
                     "  cond {\n"
                     "    %n = stablehlo.constant dense<1000> : tensor<i32>\n"
                     "    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
                     "    stablehlo.return %c : tensor<i1>\n"
                     "  } do {\n"
                     "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
                     "    %n = stablehlo.add %i, %one : tensor<i32>\n"
                     "    %s = \"stablehlo.all_reduce\"(%acc) ({\n"
                     "      ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                     "        %t = stablehlo.add %a, %b : tensor<f32>\n"
                     "        stablehlo.return %t : tensor<f32>\n"
                     "    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<64xf32>) -> tensor<64xf32>\n"
                     "    %q = stablehlo.constant dense<0.2499> : tensor<64xf32>\n"
                     "    %y = stablehlo.multiply %s, %q : tensor<64xf32>\n"
                     "    %z = stablehlo.add %y, %acc : tensor<64xf32>\n"
                     "    %w = stablehlo.sine %z : tensor<64xf32>\n"
                     "    stablehlo.return %n, %w : tensor<i32>, tensor<64xf32>\n"
                     "  }\n"
                     "  return %r#1 : tensor<64xf32>\n"
                     "}\n";
  double ms = same_both_ways("loop of 1000 all_reduces", text, 4, 1);
  printf("1000 compiled all_reduces on 4 replicas: %.1f ms\n", ms);
}

/* Runs text's @main compiled on nr replicas with diagnostics captured;
   returns whether the grid succeeded and how many errors were reported. */
static bool run_failing(const char *text, int nr, unsigned interp_only, int *nerrors, const char *want) {
  Module *m = parse(text);
  CHECK(m != NULL);
  if (!m) return true;
  CpuOptions o = {0};
  o.threads = 1;
  CpuExecutable *exe = cpu_compile(m, module_find_func(m, "main"), &o);
  CHECK(exe != NULL);
  FILE *log = tmpfile();
  diag_set_stream(log);
  IVal **args[MAXP], **res[MAXP];
  for (int i = 0; i < nr; i++) args[i] = NULL;
  bool ok = exe && grid(m, exe, interp_only, nr, 1, args, res);
  diag_set_stream(stderr);
  char text_out[4096] = {0};
  rewind(log);
  size_t len = fread(text_out, 1, sizeof text_out - 1, log);
  text_out[len] = 0;
  fclose(log);
  *nerrors = 0;
  for (const char *p = text_out; (p = strstr(p, ": error: ")) != NULL; p++) ++*nerrors;
  if (want && !strstr(text_out, want)) {
    fprintf(stderr, "expected \"%s\" in:\n%s\n", want, text_out);
    CHECK(0);
  }
  if (ok)
    for (int i = 0; i < nr; i++) release_results(res[i], 1);
  cpu_executable_free(exe);
  module_free(m);
  return ok;
}

static void test_failures(void) {
  /* replica 0 fails (what replica 1 sends it is not what it expects)
     while the others go on to a collective with everybody: they stop
     instead of waiting for it, and only replica 0's error is reported */
  const char *fail_one =
      "func.func @main() -> tensor<2xf32> {\n"
      "  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
      "  %id = stablehlo.replica_id : tensor<ui32>\n"
      "  %i = stablehlo.convert %id : (tensor<ui32>) -> tensor<i32>\n"
      "  %y = \"stablehlo.case\"(%i) ({\n"
      "    %t = stablehlo.create_token : !stablehlo.token\n"
      "    %a, %t1 = \"stablehlo.recv\"(%t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}\n"
      "              : (!stablehlo.token) -> (tensor<3xf32>, !stablehlo.token)\n"
      "    %s = stablehlo.slice %a [0:2] : (tensor<3xf32>) -> tensor<2xf32>\n"
      "    stablehlo.return %s : tensor<2xf32>\n"
      "  }, {\n"
      "    %t = stablehlo.create_token : !stablehlo.token\n"
      "    %t1 = \"stablehlo.send\"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}\n"
      "          : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token\n"
      "    stablehlo.return %x : tensor<2xf32>\n"
      "  }, {\n"
      "    stablehlo.return %x : tensor<2xf32>\n"
      "  }) : (tensor<i32>) -> tensor<2xf32>\n"
      "  %b = \"stablehlo.all_reduce\"(%y) ({\n"
      "    ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n"
      "      %t = stablehlo.add %p, %q : tensor<f32>\n"
      "      stablehlo.return %t : tensor<f32>\n"
      "  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<2xf32>) -> tensor<2xf32>\n"
      "  return %b : tensor<2xf32>\n"
      "}\n";
  int nerr;
  CHECK(!run_failing(fail_one, 4, 0, &nerr, "value 0 received has a different type than result 0"));
  CHECK_EQ_I(nerr, 1);

  /* the same collective compiled on replica 1 and interpreted on replica
     0: they never meet, and the grid sees that both wait */
  const char *pair = "func.func @main() -> tensor<2xf32> {\n"
                     "  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
                     "  %a = \"stablehlo.all_reduce\"(%x) ({\n"
                     "    ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n"
                     "      %t = stablehlo.add %p, %q : tensor<f32>\n"
                     "      stablehlo.return %t : tensor<f32>\n"
                     "  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>\n"
                     "  return %a : tensor<2xf32>\n"
                     "}\n";
  CHECK(!run_failing(pair, 2, 1u, &nerr, "deadlock: every process of the 2x1 grid is waiting"));
  CHECK_EQ_I(nerr, 1);

  /* a recv that no process sends to, compiled */
  const char *lonely = "func.func @main() -> tensor<2xf32> {\n"
                       "  %t = stablehlo.create_token : !stablehlo.token\n"
                       "  %a, %t1 = \"stablehlo.recv\"(%t) {channel_handle = #stablehlo.channel_handle<handle = 9, type = 1>}\n"
                       "            : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)\n"
                       "  return %a : tensor<2xf32>\n"
                       "}\n";
  CHECK(!run_failing(lonely, 3, 0, &nerr, "deadlock"));
  CHECK_EQ_I(nerr, 1);
}

int main(void) {
  test_reductions_exact();
  test_loop_stress();
  test_failures();
  TEST_SUMMARY();
}
