/* test_donation.c - every way an argument's storage can meet a result's.

   A program takes a and b (f32[8]) and returns a sequence of outputs, each
   one of
     P  a, returned unchanged          B  b, returned unchanged
     U  2a + b (elementwise: a kernel can compute it into a's storage)
     T  reverse(a) + b (reads a at other indices: never in place)
   for every sequence of one to three outputs.  Each program is compiled
   with a pairing of arguments and results (the caller's donate_args for a,
   or for a and b, or a declared tf.aliasing_output from a to each output)
   and run without donating, donating a, and donating a and b (an argument
   without a paired result is only consumed), with a's
   buffer in xlac's memory or in the caller's (zero copy), on both
   backends.  Every output must hold its value, arguments not donated must
   be unchanged (the caller's memory too) and donated ones consumed.  This
   is how JAX calls a program whose donated state is both updated and
   returned as is (Keras's predict step). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "xlac/xlac.h"

#define N 8

static int failures_reported;

static void ok(xlac_status *s, const char *what) {
  if (!s) {
    test_passed++;
    return;
  }
  test_failed++;
  if (failures_reported++ < 20) fprintf(stderr, "test_donation: %s: %s\n", what, xlac_status_message(s));
  xlac_status_destroy(s);
}

static float want_of(char kind, int i) {
  float a = (float)(i + 1), b = 10.0f * (float)(i + 1), ar = (float)(N - i);
  switch (kind) {
  case 'P': return a;
  case 'B': return b;
  case 'U': return 2 * a + b;
  default: return ar + b;
  }
}

/* The program's text: outputs[k] picks each result; alias_to >= 0
   declares a's tf.aliasing_output. */
static void program_text(char *buf, size_t size, const char *outputs, int alias_to) {
  int n = (int)strlen(outputs);
  char attr[64] = "";
  if (alias_to >= 0) snprintf(attr, sizeof attr, " {tf.aliasing_output = %d : i32}", alias_to);
  size_t len = (size_t)snprintf(buf, size, "func.func @main(%%a: tensor<%dxf32>%s, %%b: tensor<%dxf32>) -> (", N, attr, N);
  for (int k = 0; k < n; k++) len += (size_t)snprintf(buf + len, size - len, "%stensor<%dxf32>", k ? ", " : "", N);
  len += (size_t)snprintf(buf + len, size - len,
                          ") {\n"
                          "  %%two = stablehlo.constant dense<2.0> : tensor<%dxf32>\n"
                          "  %%m = stablehlo.multiply %%two, %%a : tensor<%dxf32>\n"
                          "  %%u = stablehlo.add %%m, %%b : tensor<%dxf32>\n"
                          "  %%r = stablehlo.reverse %%a, dims = [0] : tensor<%dxf32>\n"
                          "  %%t = stablehlo.add %%r, %%b : tensor<%dxf32>\n"
                          "  func.return ",
                          N, N, N, N, N);
  for (int k = 0; k < n; k++) {
    const char *v = outputs[k] == 'P' ? "%a" : outputs[k] == 'B' ? "%b" : outputs[k] == 'U' ? "%u" : "%t";
    len += (size_t)snprintf(buf + len, size - len, "%s%s", k ? ", " : "", v);
  }
  len += (size_t)snprintf(buf + len, size - len, " : ");
  for (int k = 0; k < n; k++) len += (size_t)snprintf(buf + len, size - len, "%stensor<%dxf32>", k ? ", " : "", N);
  snprintf(buf + len, size - len, "\n}\n");
}

static void check_values(xlac_buffer *b, char kind, const char *what) {
  float got[N];
  xlac_status *s = xlac_buffer_to_host(b, got, sizeof got, 0);
  if (s) {
    ok(s, what);
    return;
  }
  int bad = 0;
  for (int i = 0; i < N; i++) bad += got[i] != want_of(kind, i);
  if (bad) {
    test_failed++;
    if (failures_reported++ < 20)
      fprintf(stderr, "test_donation: %s: %c holds %g %g ... (want %g %g ...)\n", what, kind, got[0], got[1],
              want_of(kind, 0), want_of(kind, 1));
  } else {
    test_passed++;
  }
}

/* One compiled program, run in every donation; returns the runs made. */
static int run_all(xlac_client *c, xlac_executable *e, const char *outputs, const char *label) {
  int n = (int)strlen(outputs), runs = 0;
  for (int ndonate = 0; ndonate <= 2; ndonate++) {
    for (int zero_copy = 0; zero_copy <= 1; zero_copy++) {
      float *ha = aligned_alloc(64, 64 * sizeof(float)), hb[N];
      for (int i = 0; i < N; i++) ha[i] = want_of('P', i), hb[i] = want_of('B', i);
      int64_t dims[1] = {N};
      xlac_buffer *ab = NULL, *bb = NULL, *res[3] = {NULL, NULL, NULL};
      ok(xlac_buffer_from_host(c, 0, XLAC_F32, dims, 1, ha, N * sizeof(float), zero_copy ? XLAC_HOST_ZERO_COPY : 0, &ab),
         label);
      ok(xlac_buffer_from_host(c, 0, XLAC_F32, dims, 1, hb, sizeof hb, 0, &bb), label);
      xlac_buffer *args[2] = {ab, bb};
      xlac_buffer *const *argv[1] = {args};
      xlac_buffer **resv[1] = {res};
      int donate[2] = {0, 1};
      xlac_execute_options eo = {.struct_size = sizeof eo};
      eo.donate_args = donate;
      eo.num_donate_args = ndonate;
      char what[160];
      snprintf(what, sizeof what, "%s, donating %d, %s", label, ndonate, zero_copy ? "zero copy" : "copied");
      xlac_status *s = xlac_executable_execute(e, 1, argv, &eo, resv);
      if (s) {
        ok(s, what);
      } else {
        test_passed++;
        runs++;
        for (int k = 0; k < n; k++) check_values(res[k], outputs[k], what);
        CHECK_EQ_I(xlac_buffer_is_donated(ab), ndonate >= 1);
        CHECK_EQ_I(xlac_buffer_is_donated(bb), ndonate >= 2);
        if (ndonate < 1) check_values(ab, 'P', what);
        if (ndonate < 2) check_values(bb, 'B', what);
        if (zero_copy && ndonate < 1) { /* the caller's memory is the caller's */
          int bad = 0;
          for (int i = 0; i < N; i++) bad += ha[i] != want_of('P', i);
          CHECK_EQ_I(bad, 0);
        }
        /* results are independent buffers: destroying one leaves the
           others (and the arguments) intact */
        if (n > 1) {
          xlac_buffer_destroy(res[0]);
          res[0] = NULL;
          for (int k = 1; k < n; k++) check_values(res[k], outputs[k], what);
        }
      }
      for (int k = 0; k < 3; k++) xlac_buffer_destroy(res[k]);
      xlac_buffer_destroy(ab);
      xlac_buffer_destroy(bb);
      free(ha);
    }
  }
  return runs;
}

static void test_matrix(xlac_backend backend) {
  xlac_client_options co = {.struct_size = sizeof co};
  co.backend = backend;
  xlac_client *c = NULL;
  ok(xlac_client_create(&co, &c), "client");
  static const char kinds[] = "PUTB";
  int programs = 0, runs = 0;
  for (int len = 1; len <= 3; len++) {
    int total = 1;
    for (int k = 0; k < len; k++) total *= 4;
    for (int code = 0; code < total; code++) {
      char outputs[4] = {0};
      for (int k = 0, x = code; k < len; k++, x /= 4) outputs[k] = kinds[x % 4];
      /* pairings: the caller's (a; a and b), then a declared alias to each output */
      for (int mode = 0; mode < 2 + len; mode++) {
        int alias_to = mode >= 2 ? mode - 2 : -1;
        char text[2048], label[96];
        program_text(text, sizeof text, outputs, alias_to);
        xlac_compile_options o = {.struct_size = sizeof o};
        int donate[2] = {0, 1};
        o.donate_args = donate;
        o.num_donate_args = mode == 1 ? 2 : mode == 0 ? 1 : 0;
        snprintf(label, sizeof label, "%s outputs %s, %s", backend == XLAC_BACKEND_CPU ? "cpu" : "interp", outputs,
                 mode == 0 ? "a donatable" : mode == 1 ? "a and b donatable" : "a aliased to output");
        if (alias_to >= 0) snprintf(label + strlen(label), sizeof label - strlen(label), " %d", alias_to);
        xlac_executable *e = NULL;
        xlac_status *s = xlac_compile_text(c, text, strlen(text), &o, &e);
        if (s) {
          ok(s, label);
          continue;
        }
        programs++;
        runs += run_all(c, e, outputs, label);
        xlac_executable_destroy(e);
      }
    }
  }
  printf("test_donation: %s: %d programs, %d runs\n", backend == XLAC_BACKEND_CPU ? "cpu" : "interp", programs, runs);
  xlac_client_destroy(c);
}

int main(void) {
  test_matrix(XLAC_BACKEND_INTERPRETER);
  test_matrix(XLAC_BACKEND_CPU);
  TEST_SUMMARY();
}
