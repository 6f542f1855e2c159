/* isolation.c - see isolation.test.  This program defines functions of
   LLVM's C API, as a process that loaded TensorFlow's libraries does,
   exports them (-rdynamic), then loads libxlac.so and compiles and runs a
   program.  A library that resolved LLVM's functions through the dynamic
   linker would call these, which fail the test. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "xlac/xlac.h"

static void interposed(const char *name) {
  fprintf(stderr, "FAILED: libxlac.so called this process's %s\n", name);
  exit(1);
}
void *LLVMContextCreate(void) { interposed("LLVMContextCreate"); return NULL; }
void *LLVMModuleCreateWithNameInContext(const char *n, void *c) {
  (void)n, (void)c;
  interposed("LLVMModuleCreateWithNameInContext");
  return NULL;
}
char *LLVMGetHostCPUName(void) { interposed("LLVMGetHostCPUName"); return NULL; }
void LLVMInitializeX86Target(void) { interposed("LLVMInitializeX86Target"); }
void *LLVMCreateBuilderInContext(void *c) { (void)c; interposed("LLVMCreateBuilderInContext"); return NULL; }

#define LOAD(name) __typeof__(name) *p_##name = (__typeof__(name) *)dlsym(lib, #name)

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    fprintf(stderr, "FAILED: %s\n", dlerror());
    return 1;
  }
  /* the public API through dlsym, as a plugin host would */
  LOAD(xlac_client_create);
  LOAD(xlac_compile_text);
  LOAD(xlac_buffer_from_host);
  LOAD(xlac_executable_run);
  LOAD(xlac_buffer_to_host);
  if (!p_xlac_client_create || !p_xlac_compile_text || !p_xlac_buffer_from_host || !p_xlac_executable_run ||
      !p_xlac_buffer_to_host) {
    fprintf(stderr, "FAILED: libxlac.so lacks the public API\n");
    return 1;
  }
  xlac_client *c = NULL;
  xlac_executable *e = NULL;
  xlac_buffer *x = NULL, *y = NULL;
  if (p_xlac_client_create(NULL, &c)) {
    fprintf(stderr, "FAILED: xlac_client_create\n");
    return 1;
  }
  static const char prog[] = "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                             "  %0 = stablehlo.exponential %x : tensor<4xf32>\n"
                             "  %1 = stablehlo.add %0, %x : tensor<4xf32>\n"
                             "  func.return %1 : tensor<4xf32>\n}\n";
  if (p_xlac_compile_text(c, prog, sizeof prog - 1, NULL, &e)) {
    fprintf(stderr, "FAILED: xlac_compile_text\n");
    return 1;
  }
  float in[4] = {0, 1, 2, 3}, out[4] = {0};
  int64_t dims[1] = {4};
  if (p_xlac_buffer_from_host(c, 0, XLAC_F32, dims, 1, in, sizeof in, 0, &x) || p_xlac_executable_run(e, &x, 1, &y) ||
      p_xlac_buffer_to_host(y, out, sizeof out, 0)) {
    fprintf(stderr, "FAILED: running the program\n");
    return 1;
  }
  if (out[0] != 1.0f || out[3] < 23.08f || out[3] > 23.09f) {
    fprintf(stderr, "FAILED: wrong result %g %g\n", out[0], out[3]);
    return 1;
  }
  printf("libxlac.so compiled and ran with its own LLVM: %g %g %g %g\n", out[0], out[1], out[2], out[3]);
  return 0;
}
