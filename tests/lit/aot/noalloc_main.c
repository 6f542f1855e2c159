/* Counts heap allocations during runs of an AOT program (linked with
   -Wl,--wrap for the allocation functions): after the first run, which
   fills the runtime's per-thread scratch, running again must allocate
   nothing, on one thread or on a pool.  PROGRAM names the descriptor. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xlacrt.h>

extern const xlacrt_aot_program PROGRAM;

static atomic_long count;
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t a, size_t n);
void *__wrap_malloc(size_t n) { atomic_fetch_add(&count, 1); return __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t m) { atomic_fetch_add(&count, 1); return __real_calloc(n, m); }
void *__wrap_realloc(void *p, size_t n) { atomic_fetch_add(&count, 1); return __real_realloc(p, n); }
void *__wrap_aligned_alloc(size_t a, size_t n) { atomic_fetch_add(&count, 1); return __real_aligned_alloc(a, n); }

int main(void) {
  xlacrt_pool *pool = xlacrt_pool_create(2);
  for (int threads = 1; threads <= 2; threads++) {
    long start = atomic_load(&count);
    xlacrt_aot_instance *in = xlacrt_aot_create(&PROGRAM, XLACRT_AOT_ARGS_RESULTS_AND_TEMPS);
    if (!in) return 1;
    xlacrt_aot_set_pool(in, threads > 1 ? pool : NULL);
    for (int i = 0; i < PROGRAM.num_args; i++) memset(xlacrt_aot_arg_data(in, i), 0, (size_t)PROGRAM.args[i].bytes);
    if (xlacrt_aot_run(in) != 0) return 1;
    long before = atomic_load(&count);
    /* creating the instance is one allocation: the counting works */
    if (before - start < 1) return 1;
    for (int r = 0; r < 3; r++)
      if (xlacrt_aot_run(in) != 0) return 1;
    printf("%s, %d thread(s): %ld allocations in 3 runs\n", PROGRAM.name, threads, atomic_load(&count) - before);
    xlacrt_aot_destroy(in);
  }
  xlacrt_pool_destroy(pool);
  return 0;
}
