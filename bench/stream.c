/*
 * stream.c - the STREAM triad, a[i] = b[i] + s * c[i] over doubles, as the
 * yardstick for xlac's bandwidth-bound benchmarks.
 *
 * A memory-bound kernel cannot beat what this loop gets from the memory
 * system, so run.sh divides a program's GB/s by the triad's GB/s measured in
 * the same run: the ratio says how close generated code comes to the machine,
 * and measuring both together cancels most of the noise of a shared machine.
 * Bandwidth is counted as STREAM counts it: 24 bytes per element (two loads,
 * one store; the write-allocate read of a is not counted).
 *
 * The arrays are far larger than the last-level cache (128 MiB each by
 * default).  With N threads each thread owns a contiguous slice and touches
 * it first, so its pages are local; one repetition is timed from a barrier
 * before the loop to a barrier after it.  Prints every repetition's rate
 * summary and one line for scripts:
 *
 *   STREAM kernel=triad threads=1 mib_per_array=128 reps=10 best_gbs=13.10 median_gbs=12.95
 *
 * usage: stream [--threads N] [--mib M] [--reps R]
 * Build: cc -O3 -march=native -pthread stream.c -o stream
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_THREADS = 256, MAX_REPS = 1000 };

typedef struct Shared {
  double *a, *b, *c;
  size_t n;
  int nthreads, reps;
  double scalar;
  pthread_barrier_t barrier;
  double seconds[MAX_REPS];
} Shared;

typedef struct Worker {
  Shared *sh;
  int id;
  pthread_t thread;
} Worker;

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void slice(const Shared *sh, int id, size_t *lo, size_t *hi) {
  size_t per = sh->n / (size_t)sh->nthreads, extra = sh->n % (size_t)sh->nthreads;
  size_t uid = (size_t)id;
  *lo = uid * per + (uid < extra ? uid : extra);
  *hi = *lo + per + (uid < extra ? 1 : 0);
}

/* Kept out of line and with restrict so the compiler vectorizes it the same
   way whatever the caller looks like. */
static __attribute__((noinline)) void triad(double *restrict a, const double *restrict b,
                                            const double *restrict c, double s, size_t lo,
                                            size_t hi) {
  for (size_t i = lo; i < hi; i++) a[i] = b[i] + s * c[i];
}

static void *work(void *arg) {
  Worker *w = arg;
  Shared *sh = w->sh;
  size_t lo, hi;
  slice(sh, w->id, &lo, &hi);
  /* First touch from the thread that will use the slice. */
  for (size_t i = lo; i < hi; i++) {
    sh->a[i] = 1.0;
    sh->b[i] = 2.0;
    sh->c[i] = 0.5;
  }
  pthread_barrier_wait(&sh->barrier);
  for (int r = 0; r < sh->reps; r++) {
    pthread_barrier_wait(&sh->barrier);
    double t0 = now_seconds();
    triad(sh->a, sh->b, sh->c, sh->scalar, lo, hi);
    pthread_barrier_wait(&sh->barrier);
    if (w->id == 0) sh->seconds[r] = now_seconds() - t0;
  }
  return NULL;
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

static int parse_int(const char *s, int lo, int hi, int *out) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < lo || v > hi) return 0;
  *out = (int)v;
  return 1;
}

int main(int argc, char **argv) {
  int nthreads = 1, mib = 128, reps = 10;
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i];
    int *dst = !strcmp(o, "--threads") ? &nthreads
               : !strcmp(o, "--mib")   ? &mib
               : !strcmp(o, "--reps")  ? &reps
                                       : NULL;
    int hi = dst == &nthreads ? MAX_THREADS : dst == &reps ? MAX_REPS : 1 << 20;
    if (!dst || i + 1 >= argc || !parse_int(argv[i + 1], 1, hi, dst)) {
      fprintf(stderr, "usage: stream [--threads 1..%d] [--mib M] [--reps 1..%d]\n", MAX_THREADS,
              MAX_REPS);
      return 2;
    }
    i++;
  }

  static Shared sh;
  sh.n = (size_t)mib * 1024 * 1024 / sizeof(double);
  sh.nthreads = nthreads;
  sh.reps = reps;
  sh.scalar = 3.0;
  size_t bytes = sh.n * sizeof(double);
  /* 2 MiB alignment lets the kernel back the arrays with huge pages. */
  if (posix_memalign((void **)&sh.a, 1 << 21, bytes) || posix_memalign((void **)&sh.b, 1 << 21, bytes) ||
      posix_memalign((void **)&sh.c, 1 << 21, bytes)) {
    fprintf(stderr, "stream: cannot allocate 3 x %d MiB\n", mib);
    return 1;
  }
  pthread_barrier_init(&sh.barrier, NULL, (unsigned)nthreads);

  Worker *workers = calloc((size_t)nthreads, sizeof *workers);
  if (!workers) return 1;
  for (int t = 0; t < nthreads; t++) {
    workers[t].sh = &sh;
    workers[t].id = t;
    if (t > 0 && pthread_create(&workers[t].thread, NULL, work, &workers[t])) {
      fprintf(stderr, "stream: cannot start thread %d\n", t);
      return 1;
    }
  }
  work(&workers[0]);
  for (int t = 1; t < nthreads; t++) pthread_join(workers[t].thread, NULL);

  /* Every a[i] is 2 + 3 * 0.5 = 3.5 after any number of repetitions. */
  size_t bad = 0;
  for (size_t i = 0; i < sh.n; i++) bad += sh.a[i] != 3.5;
  if (bad) {
    fprintf(stderr, "stream: %zu wrong results\n", bad);
    return 1;
  }

  /* The first repetition pays for page faults of a; STREAM drops it too. */
  int first = reps > 1 ? 1 : 0, kept = reps - first;
  double *s = sh.seconds + first;
  qsort(s, (size_t)kept, sizeof *s, cmp_double);
  double moved = 3.0 * (double)bytes;
  double best = moved / s[0] * 1e-9;
  double median = moved / (kept % 2 ? s[kept / 2] : 0.5 * (s[kept / 2 - 1] + s[kept / 2])) * 1e-9;
  printf("triad, %d thread%s, 3 x %d MiB: best %.2f GB/s (%.2f ms), median %.2f GB/s, worst %.2f GB/s\n",
         nthreads, nthreads == 1 ? "" : "s", mib, best, s[0] * 1e3, median,
         moved / s[kept - 1] * 1e-9);
  printf("STREAM kernel=triad threads=%d mib_per_array=%d reps=%d best_gbs=%.2f median_gbs=%.2f\n",
         nthreads, mib, reps, best, median);

  pthread_barrier_destroy(&sh.barrier);
  free(workers);
  free(sh.a);
  free(sh.b);
  free(sh.c);
  return 0;
}
