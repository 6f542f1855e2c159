/*
 * classify.c - the demo MLP (examples/mlp/mlp.mlir) compiled ahead of time
 * and linked into a plain C program: no LLVM, no interpreter, only
 * libxlacrt and libm.
 *
 *   xlac aot examples/mlp/mlp.mlir -o mlp_model.o --header mlp_model.h --name mlp_model
 *   cc classify.c mlp_model.o $(xlac aot --print-link-flags) -o classify
 *   ./classify examples/mlp/input.npy
 *
 * (examples/CMakeLists.txt does the same with xlac_add_aot_library.)  The
 * input is a float32 .npy file of the model's input shape, or, without an
 * argument, a built-in batch.  Prints each row's probabilities and argmax.
 */
#include <stdio.h>
#include <string.h>

#include "mlp_model.h"

/* Reads a little-endian float32 .npy (version 1 or 2) of exactly n floats. */
static int read_npy(const char *path, float *out, long n) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  unsigned char head[12];
  int ok = fread(head, 1, 10, f) == 10 && memcmp(head, "\x93NUMPY", 6) == 0;
  long hlen = 0;
  if (ok && head[6] == 1) {
    hlen = head[8] | head[9] << 8;
  } else if (ok && fread(head + 10, 1, 2, f) == 2) {
    hlen = head[8] | head[9] << 8 | (long)head[10] << 16 | (long)head[11] << 24;
  } else {
    ok = 0;
  }
  char dict[512];
  ok = ok && hlen < (long)sizeof dict && fread(dict, 1, (size_t)hlen, f) == (size_t)hlen;
  if (ok) {
    dict[hlen] = 0;
    ok = strstr(dict, "'<f4'") && strstr(dict, "'fortran_order': False");
  }
  ok = ok && fread(out, sizeof(float), (size_t)n, f) == (size_t)n;
  fclose(f);
  return ok;
}

int main(int argc, char **argv) {
  mlp_model_t *m = mlp_model_create(XLACRT_AOT_ARGS_RESULTS_AND_TEMPS);
  if (!m) return 1;
  float *x = mlp_model_arg0_data(m);
  long n = MLP_MODEL_ARG0_ELEMENTS;
  if (argc > 1) {
    if (!read_npy(argv[1], x, n)) {
      fprintf(stderr, "%s: not a float32 .npy file of %ld elements\n", argv[1], n);
      return 1;
    }
  } else {
    for (long i = 0; i < n; i++) x[i] = (float)((i * 7 % 13) - 6) / 6.0f;
  }
  if (mlp_model_run(m) != 0) {
    fprintf(stderr, "run failed: %s\n", mlp_model_error(m));
    return 1;
  }
  const float *p = mlp_model_result0_data(m);
  int rows = (int)mlp_model_result_dims(0)[0], cols = (int)mlp_model_result_dims(0)[1];
  printf("%s\n", mlp_model_program_shape());
  for (int r = 0; r < rows; r++) {
    int best = 0;
    printf("row %d:", r);
    for (int c = 0; c < cols; c++) {
      printf(" %.4f", p[r * cols + c]);
      if (p[r * cols + c] > p[r * cols + best]) best = c;
    }
    printf("  argmax %d\n", best);
  }
  mlp_model_destroy(m);
  return 0;
}
