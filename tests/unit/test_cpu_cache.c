/* The compile cache: a repeated program is served from the cache, a new
   shape or new options compile anew, and cached executables compute the
   right values. */
#include <string.h>

#include "cpu/cpu.h"
#include "frontends/stablehlo/stablehlo.h"
#include "test_util.h"

static Module *parse(const char *text) {
  int f = src_add("<test>", text, strlen(text));
  return stablehlo_parse(f, 0, strlen(text));
}

static const char *prog4 =
    "func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = stablehlo.multiply %x, %y : tensor<4xf32>\n"
    "  %1 = stablehlo.add %0, %x : tensor<4xf32>\n"
    "  func.return %1 : tensor<4xf32>\n"
    "}\n";
static const char *prog8 =
    "func.func @main(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {\n"
    "  %0 = stablehlo.multiply %x, %y : tensor<8xf32>\n"
    "  %1 = stablehlo.add %0, %x : tensor<8xf32>\n"
    "  func.return %1 : tensor<8xf32>\n"
    "}\n";

static IVal *vec(int n, float base) {
  Arena a;
  arena_init(&a);
  int64_t d = n;
  Literal *l = lit_new(type_tensor(&a, ET_F32, 1, &d));
  arena_free(&a);
  for (int i = 0; i < n; i++) lit_set_f(l, i, base + i);
  return ival_tensor(l);
}

int main(void) {
  CpuCache *c = cpu_cache_new();
  CpuOptions o = {0};
  o.threads = 1;
  bool hit = true;
  Module *a = parse(prog4), *a2 = parse(prog4), *b = parse(prog8);
  CHECK(a && a2 && b);
  CpuExecutable *e1 = cpu_cache_get(c, a, "main", &o, &hit);
  CHECK(e1 != NULL);
  CHECK(!hit);
  /* the same program, parsed separately: served from the cache */
  CpuExecutable *e2 = cpu_cache_get(c, a2, "main", &o, &hit);
  CHECK(hit);
  CHECK(e2 == e1);
  /* new shapes: a new executable */
  CpuExecutable *e3 = cpu_cache_get(c, b, "main", &o, &hit);
  CHECK(!hit);
  CHECK(e3 != e1);
  /* different options: a new executable */
  CpuOptions o2 = o;
  o2.no_fusion = true;
  cpu_cache_get(c, a, "main", &o2, &hit);
  CHECK(!hit);
  CHECK_EQ_I(cpu_cache_size(c), 3);
  /* a cached executable computes x*y + x */
  Interp I;
  InterpOptions io = {NULL, true, stdout, NULL};
  interp_init(&I, a, &io);
  IVal *args[2] = {vec(4, 1), vec(4, 10)}, *res[1] = {0};
  CHECK(cpu_execute(e2, &I, 2, args, res));
  CHECK_EQ_F(lit_get_f(res[0]->lit, 0), 1 * 10 + 1);
  CHECK_EQ_F(lit_get_f(res[0]->lit, 3), 4 * 13 + 4);
  ival_release(res[0]);
  ival_release(args[0]);
  ival_release(args[1]);
  /* an unknown entry is an error, not a crash */
  diag_set_stream(fopen("/dev/null", "w"));
  CHECK(cpu_cache_get(c, a, "nope", &o, &hit) == NULL);
  cpu_cache_free(c);
  module_free(a);
  module_free(a2);
  module_free(b);
  TEST_SUMMARY();
}
