/*
 * axpy: compile alpha * x + y and run it, step by step, with the xlac C API.
 *
 *   axpy [axpy.mlir]
 *
 * Every call returns NULL or an error status; check() prints the message
 * and exits, which is what a small program wants.
 */
#include <stdio.h>
#include <stdlib.h>

#include <xlac/xlac.h>

static void check(xlac_status *s, const char *what) {
  if (!s) return;
  fprintf(stderr, "axpy: %s: %s\n", what, xlac_status_message(s));
  xlac_status_destroy(s);
  exit(1);
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "axpy.mlir";

  /* 1. a client: one CPU device, a thread per core */
  xlac_client *client;
  check(xlac_client_create(NULL, &client), "creating the client");

  /* 2. its device */
  xlac_device *device;
  xlac_device_info info = {.struct_size = sizeof info};
  check(xlac_client_device(client, 0, &device), "getting device 0");
  check(xlac_device_info_get(device, &info), "describing device 0");
  printf("device: %s\n", info.description);

  /* 3. compile the StableHLO program */
  xlac_executable *exe;
  check(xlac_compile_file(client, path, NULL, &exe), "compiling");
  for (int i = 0; i < xlac_executable_num_args(exe); i++) {
    xlac_shape s;
    check(xlac_executable_arg_shape(exe, i, &s), "reading a parameter");
    printf("parameter %d: %%%s, %s, rank %d\n", i, s.name ? s.name : "?", xlac_type_name(s.type), s.rank);
  }

  /* 4. host data into device buffers */
  float alpha = 3.14f, x[4] = {1, 2, 3, 4}, y[4] = {10.5f, 20.5f, 30.5f, 40.5f};
  int64_t dims[1] = {4};
  xlac_buffer *args[3];
  check(xlac_buffer_from_host(client, 0, XLAC_F32, NULL, 0, &alpha, sizeof alpha, 0, &args[0]), "alpha");
  check(xlac_buffer_from_host(client, 0, XLAC_F32, dims, 1, x, sizeof x, 0, &args[1]), "x");
  check(xlac_buffer_from_host(client, 0, XLAC_F32, dims, 1, y, sizeof y, 0, &args[2]), "y");

  /* 5. execute */
  xlac_buffer *result[1];
  check(xlac_executable_run(exe, args, 3, result), "executing");

  /* 6. the result back to the host */
  float out[4];
  check(xlac_buffer_to_host(result[0], out, sizeof out, 0), "reading the result");
  printf("alpha * x + y = [%g, %g, %g, %g]\n", out[0], out[1], out[2], out[3]);

  /* 7. clean up */
  for (int i = 0; i < 3; i++) xlac_buffer_destroy(args[i]);
  xlac_buffer_destroy(result[0]);
  xlac_executable_destroy(exe);
  xlac_client_destroy(client);
  return 0;
}
