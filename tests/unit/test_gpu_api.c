/* test_gpu_api.c - the public C API's gpu backend (XLAC_BACKEND_GPU) as a
   user sees it.  Without a CUDA driver or a GPU, creating the client is a
   clean XLAC_UNAVAILABLE; with one (a GPU, or GPGPU-Sim through
   tests/lit/gpu/api.test, which passes --run), programs compile and run
   through the library and their results are checked against the
   interpreter's client on the same inputs: a loop fusion with a bias and
   relu, a matmul with its epilogue, a reduction, a while loop; donation;
   repeated executions of one executable.  Uses nothing but the public
   header. */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "xlac/xlac.h"

static const char program[] =
    "func.func @main(%x: tensor<37x50xf32>, %w: tensor<50x20xf32>, %b: tensor<20xf32>)\n"
    "    -> (tensor<37x20xf32>, tensor<37xf32>, tensor<37x50xf32>) {\n"
    "  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<37x50xf32>, tensor<50x20xf32>) -> tensor<37x20xf32>\n"
    "  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<20xf32>) -> tensor<37x20xf32>\n"
    "  %s = stablehlo.add %d, %bb : tensor<37x20xf32>\n"
    "  %z = stablehlo.constant dense<0.0> : tensor<37x20xf32>\n"
    "  %r = stablehlo.maximum %s, %z : tensor<37x20xf32>\n"
    "  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "  %e = stablehlo.exponential %x : tensor<37x50xf32>\n"
    "  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<37x50xf32>, tensor<f32>) -> tensor<37xf32>\n"
    "  %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
    "  %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
    "  %c3 = stablehlo.constant dense<3> : tensor<i32>\n"
    "  %l:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<37x50xf32>\n"
    "   cond {\n"
    "    %lt = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
    "    stablehlo.return %lt : tensor<i1>\n"
    "  } do {\n"
    "    %t = stablehlo.tanh %v : tensor<37x50xf32>\n"
    "    %i2 = stablehlo.add %i, %c1 : tensor<i32>\n"
    "    stablehlo.return %i2, %t : tensor<i32>, tensor<37x50xf32>\n"
    "  }\n"
    "  func.return %r, %sum, %l#1 : tensor<37x20xf32>, tensor<37xf32>, tensor<37x50xf32>\n"
    "}\n";

static bool ok(xlac_status *s, int line) {
  if (!s) return true;
  test_failed++;
  fprintf(stderr, "test_gpu_api.c:%d: unexpected error: %s\n", line, xlac_status_message(s));
  xlac_status_destroy(s);
  return false;
}
#define OK(s) ok((s), __LINE__)

static void expect_error(xlac_status *s, xlac_code code, const char *part, int line) {
  if (s && xlac_status_code(s) == code && strstr(xlac_status_message(s), part)) {
    test_passed++;
  } else {
    test_failed++;
    fprintf(stderr, "test_gpu_api.c:%d: expected code %d with \"%s\", got %s\n", line, code, part,
            s ? xlac_status_message(s) : "success");
  }
  if (s) xlac_status_destroy(s);
}

/* A GPU custom call: y = 2 x + 1 over the operand's 16 floats, through
   the driver's copies (the test has no kernels of its own: what it checks
   is what the target receives, device pointers that hold the operand and
   take the result, in order with the kernels around the call). */
typedef int (*copy_fn)(uint64_t, const void *, size_t);
typedef int (*copy_back_fn)(void *, uint64_t, size_t);
static copy_fn htod;
static copy_back_fn dtoh;

static void axpb(void *stream, void **buffers, const char *opaque, size_t opaque_len,
                 xlac_custom_call_status *status) {
  (void)stream;
  float v[16];
  if (opaque_len != 4 || memcmp(opaque, "axpb", 4) != 0) {
    xlac_custom_call_status_set_failure(status, "wrong opaque", 12);
    return;
  }
  if (dtoh(v, (uint64_t)(uintptr_t)buffers[0], sizeof v) != 0) {
    xlac_custom_call_status_set_failure(status, "copy from the device failed", 27);
    return;
  }
  for (int i = 0; i < 16; i++) v[i] = 2 * v[i] + 1;
  if (htod((uint64_t)(uintptr_t)buffers[1], v, sizeof v) != 0)
    xlac_custom_call_status_set_failure(status, "copy to the device failed", 25);
}

static void failing(void *stream, void **buffers, const char *opaque, size_t opaque_len,
                    xlac_custom_call_status *status) {
  (void)stream, (void)buffers, (void)opaque, (void)opaque_len;
  xlac_custom_call_status_set_failure(status, "planted failure", 15);
}

static const char custom_program[] =
    "func.func @main(%x: tensor<16xf32>) -> tensor<16xf32> {\n"
    "  %e = stablehlo.exponential %x : tensor<16xf32>\n"
    "  %c = stablehlo.custom_call @xlac_test_axpb(%e) {backend_config = \"axpb\"} : (tensor<16xf32>) -> tensor<16xf32>\n"
    "  %n = stablehlo.negate %c : tensor<16xf32>\n"
    "  func.return %n : tensor<16xf32>\n"
    "}\n";

/* The SIMT harness's device memory is host memory. */
static int host_htod(uint64_t dst, const void *src, size_t n) {
  memcpy((void *)(uintptr_t)dst, src, n);
  return 0;
}
static int host_dtoh(void *dst, uint64_t src, size_t n) {
  memcpy(dst, (const void *)(uintptr_t)src, n);
  return 0;
}

static void test_custom_call(xlac_client *c) {
  const char *lib = getenv("XLAC_CUDA_DRIVER");
  if (lib && strncmp(lib, "simt", 4) == 0) {
    htod = host_htod;
    dtoh = host_dtoh;
  } else {
    void *h = dlopen(lib && *lib ? lib : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    htod = h ? (copy_fn)dlsym(h, "cuMemcpyHtoD_v2") : NULL;
    dtoh = h ? (copy_back_fn)dlsym(h, "cuMemcpyDtoH_v2") : NULL;
  }
  CHECK(htod && dtoh);
  if (!htod || !dtoh) return;
  xlac_executable *e = NULL;
  /* not registered yet: a located error naming the target */
  static const char other[] =
      "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %c = stablehlo.custom_call @xlac_test_nowhere(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  func.return %c : tensor<4xf32>\n"
      "}\n";
  expect_error(xlac_compile_text(c, other, sizeof other - 1, NULL, &e), XLAC_INVALID_ARGUMENT,
               "custom_call target 'xlac_test_nowhere' has no gpu implementation", __LINE__);
  if (!ok(xlac_gpu_custom_call_register("xlac_test_axpb", axpb), __LINE__)) return;
  if (!ok(xlac_compile_text(c, custom_program, sizeof custom_program - 1, NULL, &e), __LINE__)) return;
  float xin[16], got[16];
  for (int i = 0; i < 16; i++) xin[i] = 0.125f * (float)i - 1;
  int64_t d[1] = {16};
  xlac_buffer *a = NULL, *r = NULL;
  if (ok(xlac_buffer_from_host(c, 0, XLAC_F32, d, 1, xin, sizeof xin, 0, &a), __LINE__) &&
      ok(xlac_executable_run(e, &a, 1, &r), __LINE__) && ok(xlac_buffer_to_host(r, got, sizeof got, 0), __LINE__)) {
    int bad = 0;
    for (int i = 0; i < 16; i++) bad += fabsf(got[i] - -(2 * expf(xin[i]) + 1)) > 1e-5f * (2 * expf(xin[i]) + 1);
    CHECK(bad == 0);
  }
  xlac_buffer_destroy(r);
  r = NULL;
  /* a failing target fails the execution with its message */
  CHECK(xlac_gpu_custom_call_register("xlac_test_axpb", failing) == NULL);
  xlac_executable *e2 = NULL;
  if (ok(xlac_compile_text(c, custom_program, sizeof custom_program - 1, NULL, &e2), __LINE__))
    expect_error(xlac_executable_run(e2, &a, 1, &r), XLAC_INTERNAL, "custom call 'xlac_test_axpb' failed: planted failure",
                 __LINE__);
  xlac_buffer_destroy(r);
  xlac_buffer_destroy(a);
  xlac_executable_destroy(e2);
  xlac_executable_destroy(e);
}

/* Buffers stay on the device between executions; donation computes into
   the donated argument's memory or hands it to the result returning it.
   Every result is checked against values computed here. */
static const char step_program[] =
    "func.func @main(%s: tensor<300xf32>, %y: tensor<300xf32>) -> (tensor<300xf32>, tensor<300xf32>, tensor<300xf32>) {\n"
    "  %two = stablehlo.constant dense<2.0> : tensor<300xf32>\n"
    "  %m = stablehlo.multiply %s, %two : tensor<300xf32>\n"
    "  %n = stablehlo.add %m, %y : tensor<300xf32>\n"
    "  %k = stablehlo.constant dense<3.0> : tensor<300xf32>\n"
    "  func.return %n, %y, %k : tensor<300xf32>, tensor<300xf32>, tensor<300xf32>\n"
    "}\n";
/* the state both updated and returned as it is (Keras's predict_step) */
static const char keep_program[] =
    "func.func @main(%s: tensor<300xf32>) -> (tensor<300xf32>, tensor<300xf32>) {\n"
    "  %e = stablehlo.exponential %s : tensor<300xf32>\n"
    "  %n = stablehlo.negate %e : tensor<300xf32>\n"
    "  func.return %n, %s : tensor<300xf32>, tensor<300xf32>\n"
    "}\n";

static bool to_host(xlac_buffer *b, float *out, size_t n) { return OK(xlac_buffer_to_host(b, out, n * sizeof(float), 0)); }

static void test_resident(xlac_client *c) {
  enum { N = 300 };
  static float s0[N], y0[N], got[N], want[N];
  for (int i = 0; i < N; i++) {
    s0[i] = (float)(i % 17) * 0.25f - 2.0f;
    y0[i] = (float)(i % 5) - 1.5f;
  }
  int64_t dims[1] = {N};
  int donate0[1] = {0};
  xlac_compile_options o = {.struct_size = sizeof o, .donate_args = donate0, .num_donate_args = 1};
  xlac_executable *e = NULL;
  if (!OK(xlac_compile_text(c, step_program, sizeof step_program - 1, &o, &e))) return;
  xlac_executable_stats st = {.struct_size = sizeof st};
  if (OK(xlac_executable_stats_get(e, &st))) CHECK(st.in_place_results == 1);
  xlac_buffer *s = NULL, *y = NULL;
  if (!OK(xlac_buffer_from_host(c, 0, XLAC_F32, dims, 1, s0, sizeof s0, 0, &s)) ||
      !OK(xlac_buffer_from_host(c, 0, XLAC_F32, dims, 1, y0, sizeof y0, 0, &y))) {
    xlac_buffer_destroy(s);
    xlac_executable_destroy(e);
    return;
  }
  /* four steps, the state donated and fed back: each result becomes the
     next argument without leaving the device */
  memcpy(want, s0, sizeof want);
  xlac_execute_options eo = {.struct_size = sizeof eo, .donate_args = donate0, .num_donate_args = 1};
  bool good = true;
  for (int step = 0; step < 4 && good; step++) {
    xlac_buffer *args[2] = {s, y}, *res[3] = {0};
    xlac_buffer *const *argv[1] = {args};
    xlac_buffer **resv[1] = {res};
    good = OK(xlac_executable_execute(e, 1, argv, &eo, resv));
    if (!good) break;
    CHECK(xlac_buffer_is_donated(s));
    expect_error(xlac_buffer_to_host(s, got, sizeof got, 0), XLAC_FAILED_PRECONDITION, "donated", __LINE__);
    xlac_buffer_destroy(s);
    for (int i = 0; i < N; i++) want[i] = want[i] * 2.0f + y0[i];
    /* y returned as it is, not donated: a copy of its own */
    if (to_host(res[1], got, N)) CHECK(memcmp(got, y0, sizeof got) == 0);
    if (to_host(res[2], got, N))
      for (int i = 0; i < N; i++) CHECK(got[i] == 3.0f);
    xlac_buffer_destroy(res[1]);
    xlac_buffer_destroy(res[2]);
    xlac_shape sh;
    if (OK(xlac_buffer_shape(res[0], &sh))) CHECK(sh.type == XLAC_F32 && sh.rank == 1 && sh.dims[0] == N);
    s = res[0];
  }
  if (good && to_host(s, got, N)) CHECK(memcmp(got, want, sizeof got) == 0);
  /* read twice (the second from the host copy the packed read keeps) */
  if (good && OK(xlac_buffer_to_host(s, got, sizeof got, XLAC_HOST_PACKED))) CHECK(memcmp(got, want, sizeof got) == 0);
  if (good && to_host(s, got, N)) CHECK(memcmp(got, want, sizeof got) == 0);
  /* not donated: the argument keeps its values */
  xlac_buffer *res[3] = {0};
  xlac_buffer *args[2] = {s, y};
  if (good && OK(xlac_executable_run(e, args, 2, res))) {
    CHECK(!xlac_buffer_is_donated(s));
    if (to_host(s, got, N)) CHECK(memcmp(got, want, sizeof got) == 0);
    for (int i = 0; i < N; i++) want[i] = want[i] * 2.0f + y0[i];
    if (to_host(res[0], got, N)) CHECK(memcmp(got, want, sizeof got) == 0);
    for (int r = 0; r < 3; r++) xlac_buffer_destroy(res[r]);
  }
  xlac_buffer_destroy(s);
  xlac_buffer_destroy(y);
  xlac_executable_destroy(e);

  /* a donated state updated into one result and returned as another:
     each result has the right values (the update is not computed in place,
     the returned state takes the donated memory) */
  e = NULL;
  if (!OK(xlac_compile_text(c, keep_program, sizeof keep_program - 1, &o, &e))) return;
  if (OK(xlac_executable_stats_get(e, &st))) CHECK(st.in_place_results == 0);
  for (int donate = 0; donate < 2; donate++) {
    xlac_buffer *st0 = NULL, *r2[2] = {0};
    if (!OK(xlac_buffer_from_host(c, 0, XLAC_F32, dims, 1, s0, sizeof s0, 0, &st0))) break;
    xlac_buffer *a1[1] = {st0};
    xlac_buffer *const *argv[1] = {a1};
    xlac_buffer **resv[1] = {r2};
    if (OK(xlac_executable_execute(e, 1, argv, donate ? &eo : NULL, resv))) {
      CHECK(xlac_buffer_is_donated(st0) == donate);
      if (to_host(r2[1], got, N)) CHECK(memcmp(got, s0, sizeof got) == 0);
      if (to_host(r2[0], got, N))
        for (int i = 0; i < N; i++) CHECK(fabsf(got[i] + expf(s0[i])) <= 1e-6f * expf(s0[i]));
      if (!donate && to_host(st0, got, N)) CHECK(memcmp(got, s0, sizeof got) == 0);
    }
    xlac_buffer_destroy(st0);
    xlac_buffer_destroy(r2[0]);
    xlac_buffer_destroy(r2[1]);
  }
  xlac_executable_destroy(e);
}

enum { NX = 37 * 50, NW = 50 * 20, NB = 20 };
static float x[NX], w[NW], b[NB];

/* Runs the program on a client of `backend`; out0/out1/out2 receive the
   results.  False (reported) on an error. */
static bool run(xlac_client *c, float *out0, float *out1, float *out2, int reps) {
  xlac_executable *e = NULL;
  if (!OK(xlac_compile_text(c, program, sizeof program - 1, NULL, &e))) return false;
  bool good = true;
  for (int rep = 0; rep < reps && good; rep++) {
    int64_t dx[2] = {37, 50}, dw[2] = {50, 20}, db[1] = {20};
    xlac_buffer *args[3] = {0}, *res[3] = {0};
    good = OK(xlac_buffer_from_host(c, 0, XLAC_F32, dx, 2, x, sizeof x, 0, &args[0])) &&
           OK(xlac_buffer_from_host(c, 0, XLAC_F32, dw, 2, w, sizeof w, 0, &args[1])) &&
           OK(xlac_buffer_from_host(c, 0, XLAC_F32, db, 1, b, sizeof b, 0, &args[2])) &&
           OK(xlac_executable_run(e, args, 3, res)) && OK(xlac_buffer_to_host(res[0], out0, 37 * 20 * 4, 0)) &&
           OK(xlac_buffer_to_host(res[1], out1, 37 * 4, 0)) && OK(xlac_buffer_to_host(res[2], out2, NX * 4, 0));
    for (int i = 0; i < 3; i++) {
      xlac_buffer_destroy(args[i]);
      xlac_buffer_destroy(res[i]);
    }
  }
  xlac_executable_destroy(e);
  return good;
}

/* A client of 2 replicas x 2 partitions on the one GPU: each device's
   operand scaled by a kernel by (1 + replica_id), summed across the
   replicas by all_reduce and gathered across each replica's partitions
   (global device ids). */
static const char replica_program[] =
    "func.func @main(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<6xf32>, tensor<ui32>) {\n"
    "  %r = stablehlo.replica_id : tensor<ui32>\n"
    "  %rf = stablehlo.convert %r : (tensor<ui32>) -> tensor<f32>\n"
    "  %one = stablehlo.constant dense<1.0> : tensor<f32>\n"
    "  %k = stablehlo.add %rf, %one : tensor<f32>\n"
    "  %kb = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<f32>) -> tensor<3xf32>\n"
    "  %y = stablehlo.multiply %x, %kb : tensor<3xf32>\n"
    "  %s = \"stablehlo.all_reduce\"(%y) ({\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "      %0 = stablehlo.add %a, %b : tensor<f32>\n"
    "      stablehlo.return %0 : tensor<f32>\n"
    "  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<3xf32>) -> tensor<3xf32>\n"
    "  %g = \"stablehlo.all_gather\"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>,\n"
    "      channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids}\n"
    "    : (tensor<3xf32>) -> tensor<6xf32>\n"
    "  %p = stablehlo.partition_id : tensor<ui32>\n"
    "  func.return %s, %g, %p : tensor<3xf32>, tensor<6xf32>, tensor<ui32>\n"
    "}\n";

static void test_replicas(void) {
  xlac_client *c = NULL;
  xlac_client_options co = {.struct_size = sizeof co, .backend = XLAC_BACKEND_GPU, .num_replicas = 2,
                            .num_partitions = 2};
  if (!OK(xlac_client_create(&co, &c))) return;
  CHECK(xlac_client_device_count(c) == 4);
  xlac_device *d = NULL;
  xlac_device_info info = {.struct_size = sizeof info};
  if (OK(xlac_client_device(c, 3, &d)) && OK(xlac_device_info_get(d, &info)))
    CHECK(strstr(info.description, "replica 1, partition 1") != NULL);
  xlac_executable *e = NULL;
  if (OK(xlac_compile_text(c, replica_program, sizeof replica_program - 1, NULL, &e))) {
    xlac_buffer *args[4][1] = {{0}}, *res[4][3] = {{0}};
    xlac_buffer *const *argv[4] = {args[0], args[1], args[2], args[3]};
    xlac_buffer **resv[4] = {res[0], res[1], res[2], res[3]};
    int64_t dims[1] = {3};
    bool good = true;
    for (int dev = 0; dev < 4; dev++) {
      float x[3] = {(float)dev, 10.0f + dev, 100.0f + dev};
      good = good && OK(xlac_buffer_from_host(c, dev, XLAC_F32, dims, 1, x, sizeof x, 0, &args[dev][0]));
    }
    if (good && OK(xlac_executable_execute(e, 4, argv, NULL, resv)))
      for (int dev = 0; dev < 4; dev++) {
        /* device = 2 replica + partition: the replicas of partition p hold
           p + {0, 10, 100} and (2 + p) + {0, 10, 100}, the latter doubled */
        int p = dev % 2;
        float s[3], g[6];
        uint32_t pid = 99;
        if (!OK(xlac_buffer_to_host(res[dev][0], s, sizeof s, 0)) || !OK(xlac_buffer_to_host(res[dev][1], g, sizeof g, 0)) ||
            !OK(xlac_buffer_to_host(res[dev][2], &pid, sizeof pid, 0)))
          continue;
        for (int i = 0; i < 3; i++) {
          float base = i == 0 ? 0.0f : i == 1 ? 10.0f : 100.0f;
          CHECK(s[i] == (base + p) + 2.0f * (base + 2 + p));
        }
        /* global device ids 2r and 2r + 1: replica r's two partitions */
        int r = dev / 2;
        for (int i = 0; i < 6; i++)
          CHECK(g[i] == (float)(i < 3 ? 2 * r : 2 * r + 1) + (i % 3 == 0 ? 0.0f : i % 3 == 1 ? 10.0f : 100.0f));
        CHECK(pid == (uint32_t)p);
      }
    for (int dev = 0; dev < 4; dev++) {
      xlac_buffer_destroy(args[dev][0]);
      for (int r = 0; r < 3; r++) xlac_buffer_destroy(res[dev][r]);
    }
  }
  xlac_executable_destroy(e);
  xlac_client_destroy(c);
}

/* |got - want| <= atol + rtol |want| everywhere (NaN fails). */
static void close_to(const float *got, const float *want, int n, double atol, double rtol, const char *what) {
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (!(fabs((double)got[i] - want[i]) <= atol + rtol * fabs(want[i]))) {
      if (!bad) fprintf(stderr, "%s: element %d is %.9g, expected %.9g\n", what, i, got[i], want[i]);
      bad++;
    }
  CHECK(bad == 0);
}

int main(int argc, char **argv) {
  bool must_run = argc > 1 && strcmp(argv[1], "--run") == 0;
  /* bad options first: these need no GPU */
  xlac_client *c = NULL;
  xlac_client_options co = {.struct_size = sizeof co, .backend = XLAC_BACKEND_GPU, .num_replicas = 4097};
  expect_error(xlac_client_create(&co, &c), XLAC_INVALID_ARGUMENT, "more than 4096 devices", __LINE__);
  CHECK(c == NULL);

  co.num_replicas = 1;
  co.gpu_ordinal = 0;
  xlac_status *s = xlac_client_create(&co, &c);
  if (s) {
    /* no driver or no GPU: a clean status naming the reason */
    const char *m = xlac_status_message(s);
    CHECK(xlac_status_code(s) == XLAC_UNAVAILABLE);
    CHECK(strstr(m, "CUDA") || strstr(m, "GPU"));
    CHECK(c == NULL);
    if (must_run) {
      fprintf(stderr, "test_gpu_api: --run, but no GPU: %s\n", m);
      test_failed++;
    } else {
      printf("no GPU here (%s): the no-driver checks only\n", m);
    }
    xlac_status_destroy(s);
    TEST_SUMMARY();
  }
  xlac_device *d = NULL;
  xlac_device_info info = {.struct_size = sizeof info};
  if (OK(xlac_client_device(c, 0, &d)) && OK(xlac_device_info_get(d, &info))) {
    CHECK(strcmp(info.kind, "gpu") == 0);
    CHECK(strncmp(info.description, "gpu:0 (", 7) == 0);
    printf("device: %s\n", info.description);
  }
  CHECK(xlac_client_device_count(c) == 1);
  /* a device that does not exist */
  xlac_client *c2 = NULL;
  xlac_client_options co2 = co;
  co2.gpu_ordinal = 1000;
  expect_error(xlac_client_create(&co2, &c2), XLAC_UNAVAILABLE, "no GPU number 1000", __LINE__);

  unsigned seed = 12345;
  for (int i = 0; i < NX; i++) x[i] = (float)((seed = seed * 1103515245u + 12345u) >> 9) / (float)(1u << 23) - 0.5f;
  for (int i = 0; i < NW; i++) w[i] = (float)((seed = seed * 1103515245u + 12345u) >> 9) / (float)(1u << 23) - 0.5f;
  for (int i = 0; i < NB; i++) b[i] = (float)((seed = seed * 1103515245u + 12345u) >> 9) / (float)(1u << 23) - 0.5f;
  static float g0[37 * 20], g1[37], g2[NX], r0[37 * 20], r1[37], r2[NX];
  bool ran = run(c, g0, g1, g2, 2);
  CHECK(ran);
  xlac_client *ic = NULL;
  xlac_client_options io = {.struct_size = sizeof io, .backend = XLAC_BACKEND_INTERPRETER};
  if (ran && OK(xlac_client_create(&io, &ic)) && run(ic, r0, r1, r2, 1)) {
    close_to(g0, r0, 37 * 20, 1e-6, 1e-5, "matmul + bias + relu");
    close_to(g1, r1, 37, 1e-6, 1e-5, "sum of exp");
    close_to(g2, r2, NX, 1e-7, 1e-6, "tanh loop");
  }
  xlac_client_destroy(ic);

  /* stats of a GPU executable */
  xlac_executable *e = NULL;
  if (OK(xlac_compile_text(c, program, sizeof program - 1, NULL, &e))) {
    xlac_executable_stats st = {.struct_size = sizeof st};
    if (OK(xlac_executable_stats_get(e, &st))) {
      CHECK(st.native_ops >= 4);
      CHECK(st.fusions >= 1);
      CHECK(st.interpreted_ops == 0);
    }
    xlac_executable_destroy(e);
  }
  /* an op the gpu backend has no kernel for (a sort whose comparator has
     control flow): a located compile error */
  static const char unsup[] =
      "func.func @main(%x: tensor<16xf32>) -> tensor<16xf32> {\n"
      "  %r = \"stablehlo.sort\"(%x) ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "    %g = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    %c = \"stablehlo.if\"(%g) ({\n"
      "      stablehlo.return %g : tensor<i1>\n"
      "    }, {\n"
      "      stablehlo.return %g : tensor<i1>\n"
      "    }) : (tensor<i1>) -> tensor<i1>\n"
      "    stablehlo.return %c : tensor<i1>\n"
      "  }) {dimension = 0 : i64, is_stable = true} : (tensor<16xf32>) -> tensor<16xf32>\n"
      "  func.return %r : tensor<16xf32>\n"
      "}\n";
  e = NULL;
  expect_error(xlac_compile_text(c, unsup, sizeof unsup - 1, NULL, &e), XLAC_INVALID_ARGUMENT,
               "'stablehlo.sort' is not supported by the gpu backend", __LINE__);
  CHECK(e == NULL);
  test_custom_call(c);
  test_resident(c);
  xlac_client_destroy(c);
  test_replicas();
  TEST_SUMMARY();
}
