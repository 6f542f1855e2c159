/* The GPU backend's foundation without a GPU: CUresult names, loading a
 * driver that is not there, the forbidden-intrinsic matcher, architecture
 * choice, and PTX for every elementwise op in every float type (each
 * compiles to PTX with an entry and no call NVPTX cannot lower, or is a
 * clean error: never an abort of the process). */
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"
#include "test_module.h"
#include "test_util.h"

static void test_names(void) {
  CHECK_STR(cuda_error_name(0), "CUDA_SUCCESS");
  CHECK_STR(cuda_error_name(34), "CUDA_ERROR_STUB_LIBRARY");
  CHECK_STR(cuda_error_name(100), "CUDA_ERROR_NO_DEVICE");
  CHECK_STR(cuda_error_name(719), "CUDA_ERROR_LAUNCH_FAILED");
  CHECK_STR(cuda_error_name(12345), "CUDA_ERROR_12345");
  CHECK_STR(cuda_error_text(12345), "");
  char *err = NULL;
  CHECK(!cuda_check(2, "cuMemAlloc", &err));
  CHECK_STR(err, "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of device memory)");
  xfree(err);
}

static void test_no_driver(void) {
  /* the driver is loaded once per process: this is the first attempt */
  setenv("XLAC_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
  char *err = NULL;
  CHECK(gpu_device_open(0, &err) == NULL);
  CHECK(err && strstr(err, "no CUDA driver (cannot load '/nonexistent/libcuda.so.1'"));
  xfree(err);
  err = NULL;
  CHECK(cuda_driver(&err) == NULL);
  CHECK(err != NULL);
  xfree(err);
}

static void test_intrinsics(void) {
  CHECK(gpu_forbidden_intrinsic("llvm.exp.f32"));
  CHECK(gpu_forbidden_intrinsic("llvm.exp2.v4f32"));
  CHECK(gpu_forbidden_intrinsic("llvm.exp10.f64"));
  CHECK(gpu_forbidden_intrinsic("llvm.log"));
  CHECK(gpu_forbidden_intrinsic("llvm.tanh.f32"));
  CHECK(gpu_forbidden_intrinsic("llvm.pow.f64"));
  CHECK(gpu_forbidden_intrinsic("llvm.sin.f32"));
  CHECK(!gpu_forbidden_intrinsic("llvm.expect.i1"));
  CHECK(!gpu_forbidden_intrinsic("llvm.fabs.f32"));
  CHECK(!gpu_forbidden_intrinsic("llvm.sqrt.f64"));
  CHECK(!gpu_forbidden_intrinsic("llvm.fma.f32"));
  CHECK(!gpu_forbidden_intrinsic("llvm.copysign.f32"));
  CHECK(!gpu_forbidden_intrinsic("exp"));
  CHECK(!gpu_forbidden_intrinsic("llvm.nvvm.read.ptx.sreg.tid.x"));
}

static void test_archs(void) {
  CHECK_STR(gpu_arch_for_device(9, 0), "sm_90");
  CHECK_STR(gpu_arch_for_device(8, 6), "sm_86");
  CHECK_STR(gpu_arch_for_device(8, 9), "sm_89");
  CHECK_STR(gpu_arch_for_device(10, 0), "sm_90"); /* newer: the newest LLVM 19 writes */
  CHECK_STR(gpu_arch_for_device(7, 5), "sm_75");
  CHECK(gpu_arch_valid("sm_80"));
  CHECK(!gpu_arch_valid("sm_90a"));
  CHECK(!gpu_arch_valid("gfx90a"));
  char *err = NULL;
  CHECK(gpu_target_machine("sm_12", 3, &err) == NULL);
  CHECK(err && strstr(err, "unknown GPU architecture 'sm_12'"));
  xfree(err);
}

/* op on type: compiles to PTX with an entry and no forbidden call, or (for
   `may_fail`) fails cleanly. */
static void compile_one(const char *op, const char *ty, int binary, bool may_fail, const char *arch) {
  char text[1024];
  if (binary)
    snprintf(text, sizeof text,
             "func.func @main(%%x: tensor<64x%s>, %%y: tensor<64x%s>) -> tensor<64x%s> {\n"
             "  %%0 = stablehlo.%s %%x, %%y : tensor<64x%s>\n  return %%0 : tensor<64x%s>\n}\n",
             ty, ty, ty, op, ty, ty);
  else
    snprintf(text, sizeof text,
             "func.func @main(%%x: tensor<64x%s>) -> tensor<64x%s> {\n"
             "  %%0 = stablehlo.%s %%x : tensor<64x%s>\n  return %%0 : tensor<64x%s>\n}\n",
             ty, ty, op, ty, ty);
  Module *m = parse(text);
  CHECK(m != NULL);
  if (!m) return;
  GpuOptions o = {0};
  o.arch = arch;
  GpuExecutable *e = gpu_compile(m, module_entry(m), &o);
  if (!e) {
    if (!may_fail) fprintf(stderr, "  %s on %s did not compile\n", op, ty);
    CHECK(may_fail);
  } else {
    const char *ptx = gpu_executable_ptx(e);
    bool good = strstr(ptx, ".entry xlac_k0_") && !strstr(ptx, ".extern .func");
    if (!good) fprintf(stderr, "  %s on %s: bad PTX\n", op, ty);
    CHECK(good);
    CHECK_EQ_I(gpu_executable_stats(e)->kernels, 1);
    gpu_executable_free(e);
  }
  module_free(m);
}

static void test_ops(void) {
  static const char *const unary[] = {"exponential", "exponential_minus_one", "log", "log_plus_one", "tanh",
                                      "logistic", "sine", "cosine", "tan", "cbrt", "sqrt", "rsqrt", "abs",
                                      "negate", "floor", "ceil", "round_nearest_even", "round_nearest_afz", "sign"};
  static const char *const binary[] = {"add", "subtract", "multiply", "divide", "maximum", "minimum", "atan2",
                                       "power", "remainder"};
  static const char *const types[] = {"f32", "f64", "f16", "bf16"};
  /* diagnostics of the expected failures (f64 pow and the like) stay quiet */
  FILE *null = fopen("/dev/null", "w");
  diag_set_stream(null);
  for (int t = 0; t < 4; t++) {
    for (size_t u = 0; u < sizeof unary / sizeof unary[0]; u++)
      compile_one(unary[u], types[t], 0, false, t == 1 ? "sm_80" : NULL);
    for (size_t b = 0; b < sizeof binary / sizeof binary[0]; b++)
      compile_one(binary[b], types[t], 1, strcmp(types[t], "f64") == 0 && strcmp(binary[b], "power") == 0, NULL);
  }
  diag_set_stream(stderr);
  fclose(null);
}

int main(void) {
  test_names();
  test_no_driver();
  test_intrinsics();
  test_archs();
  test_ops();
  TEST_SUMMARY();
}
