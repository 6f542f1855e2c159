/*
 * test_cpu_determinism.c - the CPU backend's results must be a fixed
 * function of the input: never of the thread count.  Each program here is
 * compiled with 1, 2 and 3 worker threads and run on the same inputs; the
 * outputs must be bit-identical.  They are also compared with the reference
 * interpreter: exactly where the kernel keeps the interpreter's order
 * (integer reductions, min/max, column reductions), within a tolerance where
 * float sums are reassociated or transcendentals are approximated.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "frontends/stablehlo/stablehlo.h"
#include "ir/verify.h"
#include "test_module.h"
#include "test_util.h"

/* Pseudo-random inputs in [-1, 1) (floats) or [-1000, 1000) (integers). */
static IVal **make_inputs(Func *f, uint64_t seed) {
  int n = f->body->nargs;
  IVal **args = calloc((size_t)n + 1, sizeof(IVal *));
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (int i = 0; i < n; i++) {
    Literal *l = lit_new(f->body->args[i]->type);
    for (int64_t j = 0; j < l->n; j++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      double u = (double)(x >> 11) / 9007199254740992.0;
      if (et_is_float(l->type->elem))
        lit_set_f(l, j, 2 * u - 1);
      else
        lit_set_i(l, j, (int64_t)(u * 2000) - 1000);
    }
    args[i] = ival_tensor(l);
  }
  return args;
}

static void free_vals(IVal **v, int n) {
  for (int i = 0; i < n; i++) ival_release(v[i]);
  free(v);
}

/* Runs the program's @main on the cpu backend with `threads` threads. */
static IVal **run_cpu(const char *text, int threads, uint64_t seed, int *nres) {
  Module *m = parse(text);
  if (!m) return NULL;
  Func *f = module_find_func(m, "main");
  CpuOptions o = {0};
  o.threads = threads;
  CpuExecutable *exe = cpu_compile(m, f, &o);
  IVal **res = NULL;
  if (exe) {
    IVal **args = make_inputs(f, seed);
    InterpOptions io = {0};
    Interp I;
    interp_init(&I, m, &io);
    *nres = f->nresults;
    res = calloc((size_t)f->nresults + 1, sizeof(IVal *));
    if (!cpu_execute(exe, &I, f->body->nargs, args, res)) {
      free(res);
      res = NULL;
    }
    free_vals(args, f->body->nargs);
    cpu_executable_free(exe);
  }
  module_free(m);
  return res;
}

static IVal **run_interp(const char *text, uint64_t seed) {
  Module *m = parse(text);
  if (!m) return NULL;
  Func *f = module_find_func(m, "main");
  IVal **args = make_inputs(f, seed);
  InterpOptions io = {0};
  Interp I;
  interp_init(&I, m, &io);
  IVal **res = calloc((size_t)f->nresults + 1, sizeof(IVal *));
  if (!interp_call(&I, f, f->body->nargs, args, res)) {
    free(res);
    res = NULL;
  }
  free_vals(args, f->body->nargs);
  module_free(m);
  return res;
}

static bool same_bits(const Literal *a, const Literal *b) {
  return a->n == b->n && a->type->elem == b->type->elem &&
         memcmp(a->data, b->data, (size_t)a->n * (size_t)et_bytes(a->type->elem)) == 0;
}

/* Largest |a - b| / max(|b|, floor) over the elements. */
static double max_rel_err(const Literal *a, const Literal *b, double floor) {
  double worst = 0;
  for (int64_t i = 0; i < a->n; i++) {
    double x = lit_get_f(a, i), y = lit_get_f(b, i);
    double d = fabs(x - y) / fmax(fabs(y), floor);
    if (!(d <= worst)) worst = d; /* NaN counts as the worst */
  }
  return worst;
}

/* tol < 0: must equal the interpreter bit for bit. */
static void check_program(const char *name, const char *text, double tol, double floor) {
  int nres = 0, n2 = 0, n3 = 0;
  IVal **r1 = run_cpu(text, 1, 7, &nres);
  IVal **r2 = run_cpu(text, 2, 7, &n2);
  IVal **r3 = run_cpu(text, 3, 7, &n3);
  IVal **ri = run_interp(text, 7);
  CHECK(r1 && r2 && r3 && ri);
  if (r1 && r2 && r3 && ri) {
    for (int i = 0; i < nres; i++) {
      const Literal *a = r1[i]->lit;
      bool same = same_bits(a, r2[i]->lit) && same_bits(a, r3[i]->lit);
      if (!same) fprintf(stderr, "%s: result %d differs between thread counts\n", name, i);
      CHECK(same);
      if (tol < 0) {
        bool exact = same_bits(a, ri[i]->lit);
        if (!exact) fprintf(stderr, "%s: result %d differs from the interpreter\n", name, i);
        CHECK(exact);
      } else {
        double e = max_rel_err(a, ri[i]->lit, floor);
        if (!(e <= tol)) fprintf(stderr, "%s: result %d relative error %g > %g\n", name, i, e, tol);
        CHECK(e <= tol);
      }
    }
  }
  if (r1) free_vals(r1, nres);
  if (r2) free_vals(r2, n2);
  if (r3) free_vals(r3, n3);
  if (ri) free_vals(ri, nres);
}

/* A program of many kernels: stages of transcendentals over 512 x 257
   values (several chunks each, run on the pool), each ending in a row
   mean that the next stage subtracts, reading one constant table
   throughout and running a loop; each thread that compiles it keeps its
   target machine for the next program (jit.c). */
static char *many_kernels(int stages) {
  StrBuf b = {0};
  sb_puts(&b, "func.func @main(%x0: tensor<512x257xf32>, %w: tensor<257xf32>) -> (tensor<512x257xf32>, tensor<512xf32>) {\n"
              "  %t = stablehlo.constant dense<[0.5, -1.25, 2.0, 0.75]> : tensor<4xf32>\n"
              "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
              "  %inv = stablehlo.constant dense<0.00389105058> : tensor<512xf32>\n");
  for (int i = 0; i < stages; i++) {
    sb_printf(&b,
              "  %%k%d = stablehlo.slice %%t [%d:%d] : (tensor<4xf32>) -> tensor<1xf32>\n"
              "  %%kb%d = stablehlo.broadcast_in_dim %%k%d, dims = [1] : (tensor<1xf32>) -> tensor<512x257xf32>\n"
              "  %%wb%d = stablehlo.broadcast_in_dim %%w, dims = [1] : (tensor<257xf32>) -> tensor<512x257xf32>\n"
              "  %%a%d = stablehlo.multiply %%x%d, %%kb%d : tensor<512x257xf32>\n"
              "  %%b%d = stablehlo.add %%a%d, %%wb%d : tensor<512x257xf32>\n"
              "  %%c%d = stablehlo.%s %%b%d : tensor<512x257xf32>\n"
              "  %%s%d = stablehlo.reduce(%%c%d init: %%z) applies stablehlo.add across dimensions = [1] : (tensor<512x257xf32>, tensor<f32>) -> tensor<512xf32>\n"
              "  %%m%d = stablehlo.multiply %%s%d, %%inv : tensor<512xf32>\n"
              "  %%sb%d = stablehlo.broadcast_in_dim %%m%d, dims = [0] : (tensor<512xf32>) -> tensor<512x257xf32>\n"
              "  %%x%d = stablehlo.subtract %%c%d, %%sb%d : tensor<512x257xf32>\n",
              i, i % 4, i % 4 + 1, i, i, i, i, i, i, i, i, i, i, i % 3 == 0 ? "tanh" : i % 3 == 1 ? "logistic" : "sine", i,
              i, i, i, i, i, i, i + 1, i, i);
  }
  sb_printf(&b,
            "  %%n = stablehlo.constant dense<0> : tensor<i32>\n"
            "  %%r:2 = stablehlo.while(%%i = %%n, %%v = %%s%d) : tensor<i32>, tensor<512xf32>\n"
            "    cond {\n"
            "      %%lim = stablehlo.constant dense<3> : tensor<i32>\n"
            "      %%p = stablehlo.compare LT, %%i, %%lim : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
            "      stablehlo.return %%p : tensor<i1>\n"
            "    } do {\n"
            "      %%one = stablehlo.constant dense<1> : tensor<i32>\n"
            "      %%i2 = stablehlo.add %%i, %%one : tensor<i32>\n"
            "      %%v2 = stablehlo.cosine %%v : tensor<512xf32>\n"
            "      stablehlo.return %%i2, %%v2 : tensor<i32>, tensor<512xf32>\n"
            "    }\n"
            "  return %%x%d, %%r#1 : tensor<512x257xf32>, tensor<512xf32>\n"
            "}\n",
            stages - 1, stages);
  return b.data;
}

int main(void) {
  /* a full reduction split into many blocks combined through partials,
     with a ragged last block */
  check_program("sum_xyz",
                "func.func @main(%x: tensor<1000003xf32>, %y: tensor<1000003xf32>, %z: tensor<1000003xf32>) -> tensor<f32> {\n"
                "  %0 = stablehlo.multiply %y, %z : tensor<1000003xf32>\n"
                "  %1 = stablehlo.add %x, %0 : tensor<1000003xf32>\n"
                "  %c = stablehlo.constant dense<0.0> : tensor<f32>\n"
                "  %2 = stablehlo.reduce(%1 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<1000003xf32>, tensor<f32>) -> tensor<f32>\n"
                "  return %2 : tensor<f32>\n"
                "}\n",
                1e-3, 10.0);
  /* row reductions of a transcendental producer, sum and max */
  check_program("rows_exp",
                "func.func @main(%x: tensor<37x5001xf32>) -> (tensor<37xf32>, tensor<37xf32>) {\n"
                "  %e = stablehlo.exponential %x : tensor<37x5001xf32>\n"
                "  %c = stablehlo.constant dense<0.0> : tensor<f32>\n"
                "  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
                "  %s = stablehlo.reduce(%e init: %c) applies stablehlo.add across dimensions = [1] : (tensor<37x5001xf32>, tensor<f32>) -> tensor<37xf32>\n"
                "  %t = stablehlo.reduce(%x init: %m) applies stablehlo.maximum across dimensions = [1] : (tensor<37x5001xf32>, tensor<f32>) -> tensor<37xf32>\n"
                "  return %s, %t : tensor<37xf32>, tensor<37xf32>\n"
                "}\n",
                1e-4, 1e-6);
  /* long rows of a broadcast producer: each row is several blocks */
  check_program("long_rows",
                "func.func @main(%x: tensor<3x70000xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {\n"
                "  %bb = stablehlo.broadcast_in_dim %b, dims = [0] : (tensor<3xf32>) -> tensor<3x70000xf32>\n"
                "  %d = stablehlo.subtract %x, %bb : tensor<3x70000xf32>\n"
                "  %q = stablehlo.multiply %d, %d : tensor<3x70000xf32>\n"
                "  %c = stablehlo.constant dense<1.5> : tensor<f32>\n"
                "  %s = stablehlo.reduce(%q init: %c) applies stablehlo.add across dimensions = [1] : (tensor<3x70000xf32>, tensor<f32>) -> tensor<3xf32>\n"
                "  return %s : tensor<3xf32>\n"
                "}\n",
                1e-4, 1e-6);
  /* integer reductions are exact in any order */
  check_program("int_sum",
                "func.func @main(%x: tensor<300001xi32>) -> (tensor<i32>, tensor<i32>) {\n"
                "  %c = stablehlo.constant dense<5> : tensor<i32>\n"
                "  %s = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0] : (tensor<300001xi32>, tensor<i32>) -> tensor<i32>\n"
                "  %m = stablehlo.reduce(%x init: %c) applies stablehlo.minimum across dimensions = [0] : (tensor<300001xi32>, tensor<i32>) -> tensor<i32>\n"
                "  return %s, %m : tensor<i32>, tensor<i32>\n"
                "}\n",
                -1, 0);
  /* column reductions keep the interpreter's order exactly */
  check_program("columns",
                "func.func @main(%x: tensor<4x500x1100xf32>, %b: tensor<1100xf32>) -> tensor<4x1100xf32> {\n"
                "  %bb = stablehlo.broadcast_in_dim %b, dims = [2] : (tensor<1100xf32>) -> tensor<4x500x1100xf32>\n"
                "  %y = stablehlo.multiply %x, %bb : tensor<4x500x1100xf32>\n"
                "  %c = stablehlo.constant dense<0.0> : tensor<f32>\n"
                "  %s = stablehlo.reduce(%y init: %c) applies stablehlo.add across dimensions = [1] : (tensor<4x500x1100xf32>, tensor<f32>) -> tensor<4x1100xf32>\n"
                "  return %s : tensor<4x1100xf32>\n"
                "}\n",
                -1, 0);
  check_program("columns_flat",
                "func.func @main(%x: tensor<6x300x70xf64>) -> tensor<6x70xf64> {\n"
                "  %c = stablehlo.constant dense<0.0> : tensor<f64>\n"
                "  %s = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1] : (tensor<6x300x70xf64>, tensor<f64>) -> tensor<6x70xf64>\n"
                "  return %s : tensor<6x70xf64>\n"
                "}\n",
                -1, 0);
  /* an elementwise program with transcendentals */
  check_program("elementwise",
                "func.func @main(%x: tensor<200003xf32>, %y: tensor<200003xf32>) -> tensor<200003xf32> {\n"
                "  %t = stablehlo.tanh %x : tensor<200003xf32>\n"
                "  %e = stablehlo.exponential %y : tensor<200003xf32>\n"
                "  %m = stablehlo.multiply %t, %e : tensor<200003xf32>\n"
                "  %l = stablehlo.logistic %m : tensor<200003xf32>\n"
                "  return %l : tensor<200003xf32>\n"
                "}\n",
                1e-6, 1e-30);
  /* sin/cos of large float arguments (the reduction runs in double) */
  check_program("trig_large",
                "func.func @main(%x: tensor<20001xf32>) -> (tensor<20001xf32>, tensor<20001xf32>) {\n"
                "  %k = stablehlo.constant dense<3.0e9> : tensor<20001xf32>\n"
                "  %y = stablehlo.multiply %x, %k : tensor<20001xf32>\n"
                "  %s = stablehlo.sine %y : tensor<20001xf32>\n"
                "  %c = stablehlo.cosine %y : tensor<20001xf32>\n"
                "  return %s, %c : tensor<20001xf32>, tensor<20001xf32>\n"
                "}\n",
                1e-6, 1e-3);
  /* a 3x3 convolution under bias and relu, by Winograd's F(2x2, 3x3) in
     blocks of tile rows (odd output sizes: stripes cut at the images'
     ends), and the same unfused; sums of 9 x 48 products of [-1, 1) */
  check_program("conv_winograd",
                "func.func @main(%x: tensor<3x29x27x48xf32>, %w: tensor<3x3x48x40xf32>, %b: tensor<40xf32>) -> (tensor<3x29x27x40xf32>, tensor<3x29x27x40xf32>) {\n"
                "  %c = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x29x27x48xf32>, tensor<3x3x48x40xf32>) -> tensor<3x29x27x40xf32>\n"
                "  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<40xf32>) -> tensor<3x29x27x40xf32>\n"
                "  %s = stablehlo.add %c, %bb : tensor<3x29x27x40xf32>\n"
                "  %z = stablehlo.constant dense<0.0> : tensor<3x29x27x40xf32>\n"
                "  %r = stablehlo.maximum %s, %z : tensor<3x29x27x40xf32>\n"
                "  return %r, %c : tensor<3x29x27x40xf32>, tensor<3x29x27x40xf32>\n"
                "}\n",
                1e-5, 1.0);
  char *big = many_kernels(24);
  check_program("many_kernels", big, 1e-4, 1e-3);
  xfree(big);
  TEST_SUMMARY();
}
