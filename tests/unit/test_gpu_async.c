/* test_gpu_async.c - asynchronous executions of the gpu client through
   the public API: executions and uploads return before their work is
   done, readers wait for their writers, donated and destroyed buffers'
   memory is reused only once the work using it is done.

   The driver is XLAC_CUDA_DRIVER when set (tests/lit/gpu/async.test runs
   it on GPGPU-Sim, whose stream entry points are stubs: the device must
   then fall back to synchronous executions, every buffer ready at once),
   else the SIMT harness with deferred streams (simt:deferred), where the
   work queued on a stream runs only when something waits for it: a reader
   that did not wait for its writer reads memory not yet written, and a
   buffer's data is not ready until someone waits.  Every value is checked
   against the interpreter's client on the same program and inputs. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "xlac/xlac.h"

enum { N = 1000 };

/* (x, w) -> (tanh(x) * 2 + w, sum of x * x): a loop fusion and a reduction */
static const char program[] =
    "func.func @main(%x: tensor<1000xf32>, %w: tensor<1000xf32>) -> (tensor<1000xf32>, tensor<f32>) {\n"
    "  %t = stablehlo.tanh %x : tensor<1000xf32>\n"
    "  %two = stablehlo.constant dense<2.0> : tensor<1000xf32>\n"
    "  %m = stablehlo.multiply %t, %two : tensor<1000xf32>\n"
    "  %y = stablehlo.add %m, %w : tensor<1000xf32>\n"
    "  %sq = stablehlo.multiply %x, %x : tensor<1000xf32>\n"
    "  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "  %s = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<1000xf32>, tensor<f32>) -> tensor<f32>\n"
    "  func.return %y, %s : tensor<1000xf32>, tensor<f32>\n"
    "}\n";

/* a state updated in place: s * 0.5 + 1 (donated) */
static const char step_program[] =
    "func.func @main(%s: tensor<1000xf32>) -> tensor<1000xf32> {\n"
    "  %h = stablehlo.constant dense<0.5> : tensor<1000xf32>\n"
    "  %one = stablehlo.constant dense<1.0> : tensor<1000xf32>\n"
    "  %m = stablehlo.multiply %s, %h : tensor<1000xf32>\n"
    "  %n = stablehlo.add %m, %one : tensor<1000xf32>\n"
    "  func.return %n : tensor<1000xf32>\n"
    "}\n";

/* a loop whose predicate the host reads between the stream's kernels */
static const char loop_program[] =
    "func.func @main(%x: tensor<1000xf32>) -> tensor<1000xf32> {\n"
    "  %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
    "  %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
    "  %c4 = stablehlo.constant dense<4> : tensor<i32>\n"
    "  %l:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<1000xf32>\n"
    "   cond {\n"
    "    %lt = stablehlo.compare LT, %i, %c4 : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
    "    stablehlo.return %lt : tensor<i1>\n"
    "  } do {\n"
    "    %t = stablehlo.tanh %v : tensor<1000xf32>\n"
    "    %i2 = stablehlo.add %i, %c1 : tensor<i32>\n"
    "    stablehlo.return %i2, %t : tensor<i32>, tensor<1000xf32>\n"
    "  }\n"
    "  func.return %l#1 : tensor<1000xf32>\n"
    "}\n";

static bool ok(xlac_status *s, int line) {
  if (!s) return true;
  test_failed++;
  fprintf(stderr, "test_gpu_async.c:%d: unexpected error: %s\n", line, xlac_status_message(s));
  xlac_status_destroy(s);
  return false;
}
#define OK(s) ok((s), __LINE__)

static const int64_t dims[1] = {N};

static xlac_buffer *upload(xlac_client *c, const float *v) {
  xlac_buffer *b = NULL;
  return OK(xlac_buffer_from_host(c, 0, XLAC_F32, dims, 1, v, N * sizeof(float), 0, &b)) ? b : NULL;
}

static bool download(xlac_buffer *b, float *out, size_t n) {
  return OK(xlac_buffer_to_host(b, out, n * sizeof(float), 0));
}

/* got within rtol of want (float results of two backends: the GPU's
   tanh is our approximation, its sums reassociated) */
static void close_to(const float *got, const float *want, int n, double rtol, const char *what) {
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (!(fabs((double)got[i] - (double)want[i]) <= rtol * fabs((double)want[i]) + 1e-6)) {
      if (bad++ < 3) fprintf(stderr, "%s[%d]: %.9g, expected %.9g\n", what, i, got[i], want[i]);
    }
  CHECK(bad == 0);
}

static float xs[N], ws[N];

/* Runs `text` on client c over args (host values), chained `chain` times
   through its first result (result 0 becomes argument 0 of the next
   execution, without waiting); the results of the last execution in out0
   (N floats) and out1 (one float, when the program has two results).
   *async_seen: whether a result was not ready right after its execution
   returned. */
static bool chain_run(xlac_client *c, const char *text, int nargs, int nres, int chain, float *out0, float *out1,
                      bool *async_seen) {
  xlac_executable *e = NULL;
  if (!OK(xlac_compile_text(c, text, strlen(text), NULL, &e))) return false;
  xlac_buffer *a[2] = {upload(c, xs), nargs > 1 ? upload(c, ws) : NULL};
  bool good = a[0] && (nargs < 2 || a[1]);
  xlac_buffer *cur = a[0];
  xlac_buffer *keep[16] = {0};
  int nkeep = 0;
  xlac_buffer *res[2] = {0};
  for (int k = 0; good && k < chain; k++) {
    xlac_buffer *args[2] = {cur, a[1]};
    res[0] = res[1] = NULL;
    good = OK(xlac_executable_run(e, args, nargs, res));
    if (!good) break;
    if (async_seen && !xlac_buffer_is_ready(res[0])) *async_seen = true;
    if (nres > 1 && k + 1 < chain) keep[nkeep++] = res[1];
    if (k + 1 < chain) keep[nkeep++] = res[0];
    cur = res[0];
  }
  if (good) good = download(res[0], out0, N) && (nres < 2 || download(res[1], out1, 1));
  if (good) {
    CHECK(xlac_buffer_is_ready(res[0]));
    CHECK(xlac_buffer_await(res[0]) == NULL);
  }
  for (int i = 0; i < nkeep; i++) xlac_buffer_destroy(keep[i]);
  if (good) {
    xlac_buffer_destroy(res[0]);
    if (nres > 1) xlac_buffer_destroy(res[1]);
  }
  xlac_buffer_destroy(a[0]);
  xlac_buffer_destroy(a[1]);
  xlac_executable_destroy(e);
  return good;
}

int main(void) {
  const char *drv = getenv("XLAC_CUDA_DRIVER");
  if (!drv || !*drv) setenv("XLAC_CUDA_DRIVER", drv = "simt:deferred", 1);
  bool deferred = strncmp(drv, "simt", 4) == 0 && strstr(drv, ":deferred") != NULL;
  /* GPGPU-Sim (its libcudart.so): stubs, synchronous.  Another driver (a
     GPU's) may be either: only the values are checked. */
  bool stubs = strstr(drv, "libcudart") != NULL;
  for (int i = 0; i < N; i++) {
    xs[i] = (float)((i * 37) % 101) / 50.0f - 1.0f;
    ws[i] = (float)(i % 13) * 0.25f - 1.5f;
  }
  xlac_client *gpu = NULL, *ref = NULL;
  xlac_client_options go = {.struct_size = sizeof go, .backend = XLAC_BACKEND_GPU};
  xlac_client_options ro = {.struct_size = sizeof ro, .backend = XLAC_BACKEND_INTERPRETER};
  xlac_status *s = xlac_client_create(&go, &gpu);
  if (s && xlac_status_code(s) == XLAC_UNAVAILABLE) {
    printf("skipped: %s\n", xlac_status_message(s));
    xlac_status_destroy(s);
    return 77;
  }
  if (!OK(s) || !OK(xlac_client_create(&ro, &ref))) return 1;
  xlac_device *dev = NULL;
  xlac_device_info info = {.struct_size = sizeof info};
  if (OK(xlac_client_device(gpu, 0, &dev)) && OK(xlac_device_info_get(dev, &info)))
    printf("device: %s\n", info.description);

  /* an upload returns before its copy is done (deferred streams), and an
     execution reading it waits for it on the device */
  xlac_buffer *u = upload(gpu, xs);
  if (u) {
    if (deferred) CHECK(!xlac_buffer_is_ready(u));
    if (stubs) CHECK(xlac_buffer_is_ready(u));
    float got[N];
    if (download(u, got, N)) CHECK(memcmp(got, xs, sizeof got) == 0);
    CHECK(xlac_buffer_is_ready(u));
    xlac_buffer_destroy(u);
  }

  /* one execution, and three chained without waiting */
  for (int chain = 1; chain <= 3; chain += 2) {
    static float g0[N], r0[N];
    float g1 = 0, r1 = 0;
    bool async_seen = false;
    if (chain_run(gpu, program, 2, 2, chain, g0, &g1, &async_seen) &&
        chain_run(ref, program, 2, 2, chain, r0, &r1, NULL)) {
      close_to(g0, r0, N, 1e-5, "y");
      close_to(&g1, &r1, 1, 1e-5, "sum");
    }
    if (deferred) CHECK(async_seen);
    if (stubs) CHECK(!async_seen);
    printf("chain of %d: %s\n", chain, async_seen ? "returned before the work was done" : "synchronous");
  }

  /* a loop: the host reads its predicate between the stream's kernels */
  {
    static float g0[N], r0[N];
    if (chain_run(gpu, loop_program, 1, 1, 2, g0, NULL, NULL) && chain_run(ref, loop_program, 1, 1, 2, r0, NULL, NULL))
      close_to(g0, r0, N, 1e-5, "loop");
  }

  /* donation: a state updated in place five times, fed back without
     waiting; then the arguments' memory reused while an execution may
     still read it */
  {
    int donate0[1] = {0};
    xlac_compile_options co = {.struct_size = sizeof co, .donate_args = donate0, .num_donate_args = 1};
    xlac_execute_options eo = {.struct_size = sizeof eo, .donate_args = donate0, .num_donate_args = 1};
    xlac_executable *e = NULL;
    static float want[N], got[N];
    if (OK(xlac_compile_text(gpu, step_program, sizeof step_program - 1, &co, &e))) {
      xlac_executable_stats st = {.struct_size = sizeof st};
      if (OK(xlac_executable_stats_get(e, &st))) CHECK(st.in_place_results == 1);
      xlac_buffer *state = upload(gpu, xs);
      memcpy(want, xs, sizeof want);
      for (int k = 0; state && k < 5; k++) {
        xlac_buffer *res[1] = {0};
        xlac_buffer *args[1] = {state};
        xlac_buffer *const *argv[1] = {args};
        xlac_buffer **resv[1] = {res};
        if (!OK(xlac_executable_execute(e, 1, argv, &eo, resv))) break;
        CHECK(xlac_buffer_is_donated(state));
        xlac_status *ds = xlac_buffer_await(state);
        CHECK(ds && xlac_status_code(ds) == XLAC_FAILED_PRECONDITION);
        xlac_status_destroy(ds);
        xlac_buffer_destroy(state);
        state = res[0];
        for (int i = 0; i < N; i++) want[i] = want[i] * 0.5f + 1.0f;
      }
      if (state && download(state, got, N)) CHECK(memcmp(got, want, sizeof got) == 0);
      xlac_buffer_destroy(state);

      /* not donated: an execution reads `a`, which is destroyed at once;
         another execution then takes memory of the same size (its
         result and the next upload) and is waited for first.  The first
         must still read a's values: a's memory went back to the pool
         only for after the execution reading it. */
      xlac_buffer *a = upload(gpu, xs), *r1[1] = {0}, *r2[1] = {0};
      xlac_buffer *b = upload(gpu, ws);
      if (a && b && OK(xlac_executable_run(e, &a, 1, r1))) {
        xlac_buffer_destroy(a);
        a = NULL;
        xlac_buffer *c2 = upload(gpu, ws);
        if (c2 && OK(xlac_executable_run(e, &c2, 1, r2))) {
          if (download(r2[0], got, N))
            for (int i = 0; i < N; i++) CHECK(got[i] == ws[i] * 0.5f + 1.0f);
          if (download(r1[0], got, N))
            for (int i = 0; i < N; i++) CHECK(got[i] == xs[i] * 0.5f + 1.0f);
        }
        xlac_buffer_destroy(c2);
      }
      xlac_buffer_destroy(a);
      xlac_buffer_destroy(b);
      xlac_buffer_destroy(r1[0]);
      xlac_buffer_destroy(r2[0]);
      xlac_executable_destroy(e);
    }
  }

  /* NULL and invalid buffers */
  CHECK(xlac_buffer_is_ready(NULL));
  xlac_status *ns = xlac_buffer_await(NULL);
  CHECK(ns && xlac_status_code(ns) == XLAC_INVALID_ARGUMENT);
  xlac_status_destroy(ns);

  xlac_client_destroy(gpu);
  xlac_client_destroy(ref);
  TEST_SUMMARY();
}
