/* test_api_oom.c - running out of memory inside the library: the Nth
   allocation fails (alloc_fail_at, the hook XLAC_FAIL_ALLOC also uses),
   swept over N through parsing, compiling and executing a small program on
   both backends.  Every call must come back with a status (success, or
   XLAC_OUT_OF_MEMORY saying so); nothing aborts, and under the sanitizer
   build LeakSanitizer checks that an unwound call leaves nothing behind.
   The sweep takes every N up to a bound, then a stride, so that every
   phase is hit without compiling thousands of times.
     test_api_oom [stride] */
#include <stdlib.h>
#include <string.h>

#include "support/support.h"
#include "test_util.h"
#include "xlac/xlac.h"

static const char prog[] =
    "func.func @main(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<f32>, tensor<8xf32>) {\n"
    "  %0 = stablehlo.multiply %x, %y : tensor<8xf32>\n"
    "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "  %1 = stablehlo.reduce(%0 init: %z) applies stablehlo.add across dimensions = [0]\n"
    "      : (tensor<8xf32>, tensor<f32>) -> tensor<f32>\n"
    "  %2 = \"stablehlo.sort\"(%y) ({\n"
    "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "    %lt = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    "    stablehlo.return %lt : tensor<i1>\n"
    "  }) {dimension = 0 : i64, is_stable = false} : (tensor<8xf32>) -> tensor<8xf32>\n"
    "  func.return %1, %2 : tensor<f32>, tensor<8xf32>\n}\n";

static const char bad_prog[] = "func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {\n"
                               "  %0 = stablehlo.add %x, %x : tensor<9xf32>\n"
                               "  func.return %0 : tensor<8xf32>\n}\n";

/* One attempt with the nth allocation failing (0: none).  Returns 1 when
   everything succeeded, 0 when a call failed as it should, -1 on a wrong
   result or a wrong kind of failure. */
static long last_count; /* allocations the last attempt counted */

static int attempt(xlac_backend backend, long n) {
  int outcome = 1;
  xlac_client_options co = {.struct_size = sizeof co};
  co.backend = backend;
  co.num_threads = 1;
  xlac_client *c = NULL;
  xlac_status *s = xlac_client_create(&co, &c);
  if (s) return -1;
  alloc_fail_at(n);
  xlac_executable *e = NULL;
  xlac_buffer *args[2] = {NULL, NULL}, *res[2] = {NULL, NULL};
  float x[8], y[8] = {5, 3, 8, 1, 7, 2, 6, 4};
  for (int i = 0; i < 8; i++) x[i] = (float)(i + 1);
  int64_t dims[1] = {8};
  s = xlac_compile_text(c, prog, sizeof prog - 1, NULL, &e);
  if (!s) s = xlac_buffer_from_host(c, 0, XLAC_F32, dims, 1, x, sizeof x, 0, &args[0]);
  if (!s) s = xlac_buffer_from_host(c, 0, XLAC_F32, dims, 1, y, sizeof y, 0, &args[1]);
  if (!s) s = xlac_executable_run(e, args, 2, res);
  /* a program with an error, diagnosed while memory runs out */
  xlac_executable *e2 = NULL;
  xlac_status *s2 = xlac_compile_text(c, bad_prog, sizeof bad_prog - 1, NULL, &e2);
  last_count = alloc_count_get();
  alloc_fail_at(0);
  if (s) {
    outcome = xlac_status_code(s) == XLAC_OUT_OF_MEMORY && strstr(xlac_status_message(s), "out of memory") ? 0 : -1;
    if (outcome < 0) fprintf(stderr, "n=%ld: unexpected failure: %s\n", n, xlac_status_message(s));
    xlac_status_destroy(s);
  } else {
    float sum = 0, sorted[8];
    xlac_buffer_to_host(res[0], &sum, sizeof sum, 0);
    xlac_buffer_to_host(res[1], sorted, sizeof sorted, 0);
    if (sum != 5 + 6 + 24 + 4 + 35 + 12 + 42 + 32 || sorted[0] != 1 || sorted[7] != 8) outcome = -1;
  }
  if (!s2 || e2 || (xlac_status_code(s2) != XLAC_OUT_OF_MEMORY && xlac_status_code(s2) != XLAC_INVALID_ARGUMENT))
    outcome = -1;
  xlac_status_destroy(s2);
  for (int i = 0; i < 2; i++) {
    xlac_buffer_destroy(args[i]);
    xlac_buffer_destroy(res[i]);
  }
  xlac_executable_destroy(e);
  xlac_client_destroy(c);
  return outcome;
}

static void sweep(xlac_backend backend, long stride) {
  /* how many allocations a whole attempt makes */
  CHECK_EQ_I(attempt(backend, 0), 1);
  CHECK_EQ_I(attempt(backend, 1L << 60), 1); /* counts without failing */
  long total = last_count;
  CHECK(total > 100);
  int failed = 0, succeeded = 0, wrong = 0;
  for (long n = 1; n <= total + 10; n += n < 300 ? 1 : stride) {
    int r = attempt(backend, n);
    if (r == 0) failed++;
    else if (r == 1) succeeded++;
    else wrong++;
  }
  CHECK_EQ_I(wrong, 0);
  CHECK(failed > 0);
  CHECK(succeeded > 0); /* past the last allocation everything runs */
  printf("%s: %ld allocations per attempt; %d attempts failed cleanly, %d succeeded, %d wrong\n",
         backend == XLAC_BACKEND_CPU ? "cpu" : "interpreter", total, failed, succeeded, wrong);
}

int main(int argc, char **argv) {
  long stride = argc > 1 ? atol(argv[1]) : 37;
  sweep(XLAC_BACKEND_INTERPRETER, stride);
  sweep(XLAC_BACKEND_CPU, stride);
  TEST_SUMMARY();
}
