/* Runs an AOT program on deterministic pseudo-random inputs: writes the
   inputs (in<i>.npy) and the results of a run on one thread (out<i>.npy),
   checks that a pool of two threads and four instances running at once on
   four threads give the same bits.  The caller compares out<i>.npy with
   the JIT's results for the same inputs.  Float32 programs only.
   PROGRAM names the descriptor. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xlacrt.h>

extern const xlacrt_aot_program PROGRAM;

static void write_npy(const char *path, const xlacrt_aot_buffer *b, const void *data) {
  char shape[256] = "";
  for (int k = 0; k < b->rank; k++)
    snprintf(shape + strlen(shape), sizeof shape - strlen(shape), "%lld,%s", (long long)b->dims[k],
             k + 1 < b->rank ? " " : "");
  char head[512];
  int n = snprintf(head, sizeof head, "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }", shape);
  int total = 10 + n + 1, pad = (64 - total % 64) % 64;
  FILE *f = fopen(path, "wb");
  unsigned short hl = (unsigned short)(n + pad + 1);
  fwrite("\x93NUMPY\x01\x00", 1, 8, f);
  fputc(hl & 255, f);
  fputc(hl >> 8, f);
  fwrite(head, 1, (size_t)n, f);
  for (int i = 0; i < pad; i++) fputc(' ', f);
  fputc('\n', f);
  fwrite(data, 1, (size_t)b->bytes, f);
  fclose(f);
}

static xlacrt_aot_instance *make(void) {
  xlacrt_aot_instance *in = xlacrt_aot_create(&PROGRAM, XLACRT_AOT_ARGS_RESULTS_AND_TEMPS);
  unsigned long long s = 88172645463325252ull;
  for (int i = 0; i < PROGRAM.num_args; i++) {
    float *x = xlacrt_aot_arg_data(in, i);
    for (long e = 0; e < PROGRAM.args[i].bytes / 4; e++) {
      s ^= s << 13, s ^= s >> 7, s ^= s << 17;
      x[e] = (float)((double)(s >> 11) / 9007199254740992.0 * 4.0 - 2.0);
    }
  }
  return in;
}

static int same(xlacrt_aot_instance *a, xlacrt_aot_instance *b) {
  for (int i = 0; i < PROGRAM.num_results; i++)
    if (memcmp(xlacrt_aot_result_data(a, i), xlacrt_aot_result_data(b, i), (size_t)PROGRAM.results[i].bytes))
      return 0;
  return 1;
}

static xlacrt_aot_instance *ref;
static void *worker(void *arg) {
  xlacrt_aot_instance *in = make();
  int ok = 1;
  for (int r = 0; r < 20; r++) ok = ok && xlacrt_aot_run(in) == 0 && same(in, ref);
  xlacrt_aot_destroy(in);
  *(int *)arg = ok;
  return NULL;
}

int main(void) {
  for (int i = 0; i < PROGRAM.num_args + PROGRAM.num_results; i++) {
    const xlacrt_aot_buffer *b = i < PROGRAM.num_args ? &PROGRAM.args[i] : &PROGRAM.results[i - PROGRAM.num_args];
    if (strcmp(b->type_name, "f32") != 0) return 2;
  }
  ref = make();
  if (xlacrt_aot_run(ref) != 0) return 1;
  char path[64];
  for (int i = 0; i < PROGRAM.num_args; i++) {
    snprintf(path, sizeof path, "in%d.npy", i);
    write_npy(path, &PROGRAM.args[i], xlacrt_aot_arg_data(ref, i));
  }
  for (int i = 0; i < PROGRAM.num_results; i++) {
    snprintf(path, sizeof path, "out%d.npy", i);
    write_npy(path, &PROGRAM.results[i], xlacrt_aot_result_data(ref, i));
  }
  xlacrt_pool *pool = xlacrt_pool_create(2);
  xlacrt_aot_instance *two = make();
  xlacrt_aot_set_pool(two, pool);
  int ok2 = xlacrt_aot_run(two) == 0 && same(two, ref);
  printf("2 threads: %s\n", ok2 ? "same bits" : "DIFFERENT");
  pthread_t t[4];
  int ok[4];
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, worker, &ok[i]);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  int all = ok[0] && ok[1] && ok[2] && ok[3];
  printf("4 instances on 4 threads at once: %s\n", all ? "same bits" : "DIFFERENT");
  xlacrt_aot_destroy(two);
  xlacrt_aot_destroy(ref);
  xlacrt_pool_destroy(pool);
  return ok2 && all ? 0 : 1;
}
