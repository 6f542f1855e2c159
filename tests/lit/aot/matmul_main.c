/* The MatMulComp example through the generated C API. */
#include <stdio.h>
#include <string.h>

#include "matmul.h"

int main(void) {
  matmul_t *m = matmul_create(XLACRT_AOT_ARGS_RESULTS_AND_TEMPS);
  if (!m) return 1;
  const float args[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  memcpy(matmul_arg_x_hold_data(m), args, sizeof(float) * 6);
  memcpy(matmul_arg_y_hold_data(m), args + 6, sizeof(float) * 6);
  if (matmul_run(m) != 0) {
    printf("run failed: %s\n", matmul_error(m));
    return 1;
  }
  const float *r = matmul_result_x_y_prod_data(m);
  printf("%s: %g %g %g %g\n", r[0] == 58 ? "Success" : "Failed", r[0], r[1], r[2], r[3]);
  printf("%d args, %d results, temp %lld bytes\n", MATMUL_NUM_ARGS, MATMUL_NUM_RESULTS, (long long)MATMUL_TEMP_BYTES);
  for (int i = 0; i < MATMUL_NUM_ARGS; i++)
    printf("arg %d %s %s rank %d [%lld, %lld] %lld bytes, aligned %d\n", i, matmul_arg_name(i), matmul_arg_type_name(i),
           matmul_arg_rank(i), (long long)matmul_arg_dims(i)[0], (long long)matmul_arg_dims(i)[1],
           (long long)matmul_arg_size(i), (int)((uintptr_t)matmul_arg_data(m, i) % 64 == 0));
  printf("result %s type %d, index of x_y_prod %d, of y_hold %d\n", matmul_result_name(0), matmul_result_type(0),
         matmul_result_index("x_y_prod"), matmul_arg_index("y_hold"));
  printf("%s\n", matmul_program_shape());
  matmul_destroy(m);
  return 0;
}
