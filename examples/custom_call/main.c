/*
 * custom_call: a StableHLO program that calls a C function of this
 * program's, compiled and run with the xlac C API.
 *
 *   example-custom-call [custom_call.mlir]
 *
 * custom_call.mlir computes softplus(x) = log(1 + exp(x)) by calling
 * `stablehlo.custom_call @example.softplus`.  A name means nothing to xlac
 * until a host function is registered under it, so this program registers
 * one before compiling, in each of the two forms:
 *
 *   - typed (xlac_custom_call_register): the function gets every operand
 *     and result with its type and dimensions, the op's backend_config and
 *     attributes, and returns an error status when something is wrong;
 *   - classic (xlac_custom_call_register_classic), XLA's CPU convention
 *     void f(void *out, const void **in): data pointers only, the shapes
 *     are what the program declares.
 *
 * Registering a name again replaces its function for programs compiled
 * afterwards, so the program is compiled once with each and both
 * executables are run on one device.
 *
 * Every call returns NULL or an error status; check() prints the message
 * and exits, which is what a small program wants.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <xlac/xlac.h>

static void check(xlac_status *s, const char *what) {
  if (!s) return;
  fprintf(stderr, "custom_call: %s: %s\n", what, xlac_status_message(s));
  xlac_status_destroy(s);
  exit(1);
}

/* log(1 + exp(x)) without overflowing exp for large x. */
static float softplus1(float x) { return x > 0 ? x + log1pf(expf(-x)) : log1pf(expf(x)); }

/* The typed host function: one f32 operand of any shape, one result of
   the same shape, and a backend_config "scale=S" that multiplies it. */
static xlac_status *softplus_typed(void *user, const xlac_ffi_call *call) {
  (void)user; /* the pointer given to xlac_custom_call_register */
  if (call->num_args != 1 || call->num_results != 1 || call->args[0].type != XLAC_F32 ||
      call->results[0].type != XLAC_F32)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: expected one f32 operand and one f32 result",
                              call->target);
  double scale;
  if (sscanf(call->backend_config, "scale=%lf", &scale) != 1)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: backend_config should be \"scale=S\", got \"%s\"",
                              call->target, call->backend_config);
  const xlac_ffi_buffer *x = &call->args[0];
  int64_t n = 1;
  for (int i = 0; i < x->rank; i++) n *= x->dims[i];
  const float *in = x->data;
  float *out = call->results[0].data;
  for (int64_t i = 0; i < n; i++) out[i] = (float)(scale * softplus1(in[i]));
  return NULL;
}

/* The classic host function: out is the result's data (with several
   results it would be an array of their pointers), in[i] operand i's.
   It knows the shape from the program: tensor<4xf32>. */
static void softplus_classic(void *out, const void **in) {
  const float *x = in[0];
  float *y = out;
  for (int i = 0; i < 4; i++) y[i] = softplus1(x[i]);
}

/* Runs exe on device 0 with x = [-2, 0, 1, 20] and prints the result. */
static void run(xlac_client *client, xlac_executable *exe, const char *form) {
  float x[4] = {-2, 0, 1, 20}, y[4];
  int64_t dims[1] = {4};
  xlac_buffer *arg, *res;
  check(xlac_buffer_from_host(client, 0, XLAC_F32, dims, 1, x, sizeof x, 0, &arg), "x");
  check(xlac_executable_run(exe, &arg, 1, &res), "executing");
  check(xlac_buffer_to_host(res, y, sizeof y, 0), "reading the result");
  printf("%s: softplus([%g, %g, %g, %g]) = [%.6f, %.6f, %.6f, %.6f]\n", form, x[0], x[1], x[2], x[3], y[0], y[1],
         y[2], y[3]);
  xlac_buffer_destroy(arg);
  xlac_buffer_destroy(res);
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "custom_call.mlir";
  xlac_client *client;
  check(xlac_client_create(NULL, &client), "creating the client");

  /* 1. the typed function under the name the program calls, then compile:
     the executable resolves the name now and keeps this function */
  check(xlac_custom_call_register("example.softplus", softplus_typed, NULL), "registering the typed function");
  char *names = xlac_custom_call_list();
  printf("registered host functions: %s\n", names);
  xlac_free(names);
  xlac_executable *typed;
  check(xlac_compile_file(client, path, NULL, &typed), "compiling with the typed function");

  /* 2. the classic form replaces it for what is compiled next */
  check(xlac_custom_call_register_classic("example.softplus", (void *)softplus_classic, XLAC_CUSTOM_CALL_CLASSIC),
        "registering the classic function");
  xlac_executable *classic;
  check(xlac_compile_file(client, path, NULL, &classic), "compiling with the classic function");

  /* the call is compiled code calling the function directly: nothing is
     left to the interpreter */
  xlac_executable_stats st = {.struct_size = sizeof st};
  check(xlac_executable_stats_get(typed, &st), "reading the statistics");
  printf("ops compiled natively: %d, through the interpreter: %d\n", st.native_ops, st.interpreted_ops);

  /* 3. run both */
  run(client, typed, "typed");
  run(client, classic, "classic");

  xlac_executable_destroy(typed);
  xlac_executable_destroy(classic);
  xlac_client_destroy(client);
  return 0;
}
