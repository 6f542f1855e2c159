/* test_gpu_blas.c - cuBLASLt's descriptors, layouts and algorithm made
   once per product (not at every execution), and autotuning
   (XLAC_GPU_AUTOTUNE), through the public API with the tests' stand-in
   library (tests/lit/gpu/Inputs/fake_cublaslt.c, which counts what it
   makes and logs the algorithm of each product).

   The driver is XLAC_CUDA_DRIVER when set (tests/lit/gpu/cublaslt_plans.test
   runs it on GPGPU-Sim and the SIMT harness's orders through fake_blas.sh),
   else the SIMT harness; the library is XLAC_CUBLASLT when set, else the
   stand-in built beside this test.  Every result is checked against the
   interpreter's client. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"
#include "xlac/xlac.h"

/* a product with a bias along the result's last dimension: one cuBLASLt
   call with the BIAS epilogue */
static const char program[] =
    "func.func @main(%x: tensor<40x30xf32>, %w: tensor<30x50xf32>, %b: tensor<50xf32>) -> tensor<40x50xf32> {\n"
    "  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<40x30xf32>, tensor<30x50xf32>) -> tensor<40x50xf32>\n"
    "  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<50xf32>) -> tensor<40x50xf32>\n"
    "  %r = stablehlo.add %d, %bb : tensor<40x50xf32>\n"
    "  func.return %r : tensor<40x50xf32>\n"
    "}\n";

enum { NX = 40 * 30, NW = 30 * 50, NB = 50, NR = 40 * 50 };
static float xs[NX], ws[NW], bs[NB];

static bool ok(xlac_status *s, int line) {
  if (!s) return true;
  test_failed++;
  fprintf(stderr, "test_gpu_blas.c:%d: unexpected error: %s\n", line, xlac_status_message(s));
  xlac_status_destroy(s);
  return false;
}
#define OK(s) ok((s), __LINE__)

/* Runs the program `reps` times on client c (each execution new
   arguments, the same executable), the last results in out. */
static bool run(xlac_client *c, int reps, float *out) {
  xlac_executable *e = NULL;
  if (!OK(xlac_compile_text(c, program, sizeof program - 1, NULL, &e))) return false;
  bool good = true;
  for (int k = 0; k < reps && good; k++) {
    int64_t dx[2] = {40, 30}, dw[2] = {30, 50}, db[1] = {50};
    xlac_buffer *args[3] = {0}, *res[1] = {0};
    good = OK(xlac_buffer_from_host(c, 0, XLAC_F32, dx, 2, xs, sizeof xs, 0, &args[0])) &&
           OK(xlac_buffer_from_host(c, 0, XLAC_F32, dw, 2, ws, sizeof ws, 0, &args[1])) &&
           OK(xlac_buffer_from_host(c, 0, XLAC_F32, db, 1, bs, sizeof bs, 0, &args[2])) &&
           OK(xlac_executable_run(e, args, 3, res)) && OK(xlac_buffer_to_host(res[0], out, sizeof(float) * NR, 0));
    for (int i = 0; i < 3; i++) xlac_buffer_destroy(args[i]);
    xlac_buffer_destroy(res[0]);
  }
  xlac_executable_destroy(e);
  return good;
}

static void close_to(const float *got, const float *want, const char *what) {
  int bad = 0;
  for (int i = 0; i < NR; i++)
    if (!(fabsf(got[i] - want[i]) <= 1e-5f * fabsf(want[i]) + 1e-5f) && bad++ < 3)
      fprintf(stderr, "%s[%d]: %.9g, expected %.9g\n", what, i, got[i], want[i]);
  CHECK(bad == 0);
}

/* Lines of the file at path that are `word` (the counts: "desc", ...),
   or with `within`, that contain it (the products' log: "algo=1"). */
static int count_lines(const char *path, const char *word, bool within) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char buf[1024];
  int n = 0;
  while (fgets(buf, sizeof buf, f)) {
    buf[strcspn(buf, "\n")] = 0;
    if (within ? strstr(buf, word) != NULL : strcmp(buf, word) == 0) n++;
  }
  fclose(f);
  return n;
}

static void truncate_file(const char *path) {
  FILE *f = fopen(path, "w");
  if (f) fclose(f);
}

int main(int argc, char **argv) {
  (void)argc;
  /* the stand-in library beside this program, the SIMT harness */
  char lib[4096];
  if (!getenv("XLAC_CUBLASLT")) {
    ssize_t n = readlink("/proc/self/exe", lib, sizeof lib - 64);
    if (n <= 0) n = (ssize_t)snprintf(lib, sizeof lib - 64, "%s", argv[0]);
    lib[n] = 0;
    char *slash = strrchr(lib, '/');
    snprintf(slash ? slash + 1 : lib, 64, "libxlac_fake_cublaslt.so");
    setenv("XLAC_CUBLASLT", lib, 1);
  }
  if (!getenv("XLAC_CUDA_DRIVER")) setenv("XLAC_CUDA_DRIVER", "simt", 1);
  const char *drv = getenv("XLAC_CUDA_DRIVER");
  bool timing = strncmp(drv, "simt", 4) == 0; /* GPGPU-Sim's events are stubs */
  const char *tmp = getenv("TMPDIR");
  char dir[512];
  snprintf(dir, sizeof dir, "%s/xlac-blas-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) return 1;
  char counts[600], log[600];
  snprintf(counts, sizeof counts, "%s/counts", dir);
  snprintf(log, sizeof log, "%s/log", dir);
  setenv("XLAC_FAKE_CUBLASLT_COUNTS", counts, 1);
  setenv("XLAC_FAKE_CUBLASLT_LOG", log, 1);
  unsetenv("XLAC_GPU_AUTOTUNE");
  for (int i = 0; i < NX; i++) xs[i] = (float)((i * 7) % 23) / 11.0f - 1.0f;
  for (int i = 0; i < NW; i++) ws[i] = (float)((i * 5) % 17) / 8.0f - 1.0f;
  for (int i = 0; i < NB; i++) bs[i] = (float)(i % 9) * 0.5f - 2.0f;

  static float want[NR], got[NR];
  xlac_client *ref = NULL;
  xlac_client_options ro = {.struct_size = sizeof ro, .backend = XLAC_BACKEND_INTERPRETER};
  if (!OK(xlac_client_create(&ro, &ref)) || !run(ref, 1, want)) return 1;

  xlac_client_options go = {.struct_size = sizeof go, .backend = XLAC_BACKEND_GPU};
  xlac_client *gpu = NULL;
  xlac_status *s = xlac_client_create(&go, &gpu);
  if (s && xlac_status_code(s) == XLAC_UNAVAILABLE) {
    printf("skipped: %s\n", xlac_status_message(s));
    xlac_status_destroy(s);
    return 77;
  }
  if (!OK(s)) return 1;
  xlac_device *dev = NULL;
  xlac_device_info info = {.struct_size = sizeof info};
  if (OK(xlac_client_device(gpu, 0, &dev)) && OK(xlac_device_info_get(dev, &info)))
    printf("device: %s\n", info.description);

  /* three executions of one executable, then one of another executable of
     the same program: one descriptor, three layouts, one heuristic call
     in all (the plan is the device's), four products */
  if (run(gpu, 3, got)) close_to(got, want, "plain");
  if (run(gpu, 1, got)) close_to(got, want, "again");
  int ndesc = count_lines(counts, "desc", false), nlayout = count_lines(counts, "layout", false),
      nheur = count_lines(counts, "heuristic", false), ncalls = count_lines(log, "cublasLtMatmul ", true);
  printf("descriptors %d, layouts %d, heuristic calls %d, products %d\n", ndesc, nlayout, nheur, ncalls);
  CHECK_EQ_I(ndesc, 1);
  CHECK_EQ_I(nlayout, 3);
  CHECK_EQ_I(nheur, 1);
  CHECK_EQ_I(ncalls, 4);
  CHECK_EQ_I(count_lines(log, " algo=0", true), 4);
  CHECK_EQ_I(count_lines(log, "epilogue=BIAS", true), 4);
  xlac_client_destroy(gpu);

  /* autotuning: the heuristic's first three timed on the first execution
     (algorithms 0 and 2 made slow), the fastest kept for the others */
  truncate_file(counts);
  truncate_file(log);
  setenv("XLAC_GPU_AUTOTUNE", "3", 1);
  setenv("XLAC_FAKE_CUBLASLT_SLOW", "0,2", 1);
  gpu = NULL;
  if (OK(xlac_client_create(&go, &gpu))) {
    if (run(gpu, 3, got)) close_to(got, want, "tuned");
    int n0 = count_lines(log, " algo=0", true), n1 = count_lines(log, " algo=1", true), n2 = count_lines(log, " algo=2", true);
    printf("autotuned products: algorithm 0: %d, 1: %d, 2: %d\n", n0, n1, n2);
    CHECK_EQ_I(count_lines(counts, "desc", false), 1);
    CHECK_EQ_I(count_lines(counts, "heuristic", false), 1);
    if (timing) { /* each timed once, then the fastest: 1 */
      CHECK_EQ_I(n0, 1);
      CHECK_EQ_I(n1, 1 + 3);
      CHECK_EQ_I(n2, 1);
    } else { /* no timing events: the heuristic's first, untimed */
      CHECK_EQ_I(n0, 3);
      CHECK_EQ_I(n1 + n2, 0);
    }
    xlac_client_destroy(gpu);
  }
  xlac_client_destroy(ref);
  unlink(counts);
  unlink(log);
  rmdir(dir);
  TEST_SUMMARY();
}
