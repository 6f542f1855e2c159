/*
 * builder: build a program in C instead of writing StableHLO text, then
 * print, compile and run it.
 *
 *   builder
 *
 * The program is a row-wise softmax whose logits first go through a host
 * function (a custom call): the function divides them by a temperature
 * given in its backend_config.
 *
 *   func main(x: f32[2, 4]) -> f32[2, 4]
 *     t = custom_call @example.temperature(x), backend_config = "2.0"
 *     m = reduce(t, -inf, max) over dimension 1          (f32[2])
 *     e = exp(t - broadcast(m))
 *     s = reduce(e, 0, add) over dimension 1             (f32[2])
 *     return e / broadcast(s)
 *
 * Every call returns NULL or an error status; check() prints the message
 * and exits, which is what a small program wants.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <xlac/builder.h>
#include <xlac/xlac.h>

static void check(xlac_status *s, const char *what) {
  if (!s) return;
  fprintf(stderr, "builder: %s: %s\n", what, xlac_status_message(s));
  xlac_status_destroy(s);
  exit(1);
}

/* The host function: results[0] = args[0] / temperature. */
static xlac_status *temperature(void *user, const xlac_ffi_call *call) {
  (void)user;
  double t = atof(call->backend_config);
  if (t <= 0) return xlac_status_create(XLAC_INVALID_ARGUMENT, "temperature must be positive, got '%s'", call->backend_config);
  const float *x = call->args[0].data;
  float *y = call->results[0].data;
  int64_t n = 1;
  for (int i = 0; i < call->args[0].rank; i++) n *= call->args[0].dims[i];
  for (int64_t i = 0; i < n; i++) y[i] = (float)(x[i] / t);
  return NULL;
}

/* A computation (a, b) -> op(a, b) on f32 scalars: the reducers. */
static xlac_func *reducer(xlac_builder *b, const char *name,
                          xlac_status *(*op)(xlac_func *, xlac_value *, xlac_value *, xlac_value **)) {
  xlac_func *c;
  xlac_value *a, *x, *r;
  check(xlac_computation_create(b, name, &c), name);
  check(xlac_func_param(c, XLAC_F32, NULL, 0, "a", &a), name);
  check(xlac_func_param(c, XLAC_F32, NULL, 0, "b", &x), name);
  check(op(c, a, x, &r), name);
  check(xlac_func_return(c, &r, 1), name);
  return c;
}

static xlac_program *build_softmax(void) {
  int64_t dims[2] = {2, 4}, row = 1, keep0 = 0;
  xlac_builder *b;
  check(xlac_builder_create("softmax", &b), "creating the builder");
  xlac_func *max = reducer(b, "max", xlac_op_max), *sum = reducer(b, "sum", xlac_op_add);

  xlac_func *f;
  xlac_value *x, *t, *ninf, *zero, *m, *mb, *d, *e, *s, *sb, *y;
  check(xlac_func_create(b, "main", &f), "creating main");
  check(xlac_func_param(f, XLAC_F32, dims, 2, "x", &x), "x");

  /* 1. the host function, its result shaped like x */
  xlac_shape shape = {XLAC_F32, 2, dims, NULL};
  check(xlac_op_custom_call(f, "example.temperature", &x, 1, &shape, 1, "2.0", NULL, &t), "custom_call");

  /* 2. subtract each row's maximum (so exp cannot overflow) */
  check(xlac_op_constant_f(f, XLAC_F32, -INFINITY, &ninf), "-inf");
  check(xlac_op_reduce(f, &t, &ninf, 1, &row, 1, max, &m), "row maxima");
  check(xlac_op_broadcast_in_dim(f, m, dims, 2, &keep0, &mb), "broadcasting the maxima");
  check(xlac_op_sub(f, t, mb, &d), "subtract");
  check(xlac_op_exp(f, d, &e), "exp");

  /* 3. divide by each row's sum */
  check(xlac_op_constant_f(f, XLAC_F32, 0, &zero), "0");
  check(xlac_op_reduce(f, &e, &zero, 1, &row, 1, sum, &s), "row sums");
  check(xlac_op_broadcast_in_dim(f, s, dims, 2, &keep0, &sb), "broadcasting the sums");
  check(xlac_op_div(f, e, sb, &y), "divide");
  check(xlac_func_return(f, &y, 1), "return");

  /* the program owns what it needs: the builder can go */
  xlac_program *p;
  check(xlac_builder_build(b, "main", &p), "building");
  xlac_builder_destroy(b);
  return p;
}

int main(void) {
  check(xlac_custom_call_register("example.temperature", temperature, NULL), "registering the host function");
  xlac_program *p = build_softmax();

  /* the same program as text, in both formats */
  char *text;
  check(xlac_program_print(p, XLAC_FORMAT_STABLEHLO, &text, NULL), "printing StableHLO");
  printf("%s\n", text);
  xlac_free(text);
  check(xlac_program_print(p, XLAC_FORMAT_HLO, &text, NULL), "printing HLO");
  printf("%s\n", text);
  xlac_free(text);

  /* compile and run it like any parsed program */
  xlac_client *client;
  xlac_executable *exe;
  check(xlac_client_create(NULL, &client), "creating the client");
  check(xlac_compile(client, p, NULL, &exe), "compiling");
  float x[2][4] = {{1, 2, 3, 4}, {0, 0, 0, 10}};
  int64_t dims[2] = {2, 4};
  xlac_buffer *arg, *res;
  check(xlac_buffer_from_host(client, 0, XLAC_F32, dims, 2, x, sizeof x, 0, &arg), "x");
  check(xlac_executable_run(exe, &arg, 1, &res), "executing");
  float y[2][4];
  check(xlac_buffer_to_host(res, y, sizeof y, 0), "reading the result");
  for (int i = 0; i < 2; i++)
    printf("softmax(x[%d] / 2) = [%.6f, %.6f, %.6f, %.6f]\n", i, y[i][0], y[i][1], y[i][2], y[i][3]);

  xlac_buffer_destroy(arg);
  xlac_buffer_destroy(res);
  xlac_executable_destroy(exe);
  xlac_client_destroy(client);
  xlac_program_destroy(p);
  return 0;
}
