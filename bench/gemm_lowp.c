/*
 * gemm_lowp.c - times the runtime's bfloat16 GEMM (f32 sums) and int8 GEMM
 * (s32 sums) on square sizes, on the kernel family the host picks or the
 * one named, and prints GFLOP/s (2n^3 operations per product; median of
 * several runs: the calling thread's CPU time with one thread, which leaves
 * out time lost to other processes on a busy machine, else wall time).
 *     build/bin/bench_gemm_lowp [--isa=NAME] [--threads=N] [--ieee] [size...]
 * NAME as xlacrt_gemm_set_isa: amx, avx512, avx2, c (amx-emulated is far
 * too slow to time).  Sizes default to 512 1024 2048.  The products run
 * with denormals flushed (x86 MXCSR FTZ and DAZ, as JAX runs compiled
 * code), without which bfloat16 products do not use AMX; --ieee keeps
 * denormals.
 */
#include "xlacrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

static int one_thread = 1;

static double now(void)
{
    struct timespec ts;
    clock_gettime(one_thread ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* about a second of work at 100 GFLOP/s, at least 3 runs */
static int reps_for(int n)
{
    int r = (int)(1e11 / (2.0 * n * n * (double)n));
    return r < 3 ? 3 : r > 31 ? 31 : r;
}

static double time_one(xlacrt_pool *pool, int s8, int n, const void *a, const void *b, void *c)
{
    int reps = reps_for(n);
    double t[32];
    for (int r = 0; r <= reps; r++) {
        double t0 = now();
        if (s8)
            xlacrt_gemm_s8(pool, 0, 0, n, n, n, a, n, b, n, c, n, 0);
        else
            xlacrt_gemm_bf16(pool, 0, 0, n, n, n, a, n, b, n, c, n, 0);
        if (r > 0) /* the first run warms the scratch and the caches */
            t[r - 1] = now() - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    return 2.0 * n * n * (double)n / t[reps / 2] * 1e-9;
}

int main(int argc, char **argv)
{
    int sizes[16], ns = 0, threads = 1, ieee = 0;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--isa=", 6)) {
            if (!xlacrt_gemm_set_isa(argv[i] + 6)) {
                fprintf(stderr, "kernel family %s not available here (AMX: %s)\n", argv[i] + 6, xlacrt_amx_status());
                return 1;
            }
        } else if (!strcmp(argv[i], "--ieee")) {
            ieee = 1;
        } else if (!strncmp(argv[i], "--threads=", 10)) {
            threads = atoi(argv[i] + 10);
        } else if (ns < 16 && atoi(argv[i]) > 0) {
            sizes[ns++] = atoi(argv[i]);
        } else {
            fprintf(stderr, "usage: bench_gemm_lowp [--isa=NAME] [--threads=N] [--ieee] [size...]\n");
            return 2;
        }
    }
    if (!ns) {
        sizes[0] = 512, sizes[1] = 1024, sizes[2] = 2048;
        ns = 3;
    }
    one_thread = threads <= 1;
#if defined(__x86_64__)
    if (!ieee)
        _mm_setcsr(_mm_getcsr() | 0x8040u);
#endif
    xlacrt_pool *pool = threads > 1 ? xlacrt_pool_create(threads) : NULL;
    printf("gemm=%s bf16=%s int8=%s amx %s, %d thread(s), denormals %s\n", xlacrt_gemm_isa(),
           ieee ? xlacrt_gemm_isa() : xlacrt_gemm_bf16_isa(), xlacrt_gemm_s8_isa(),
           xlacrt_amx_status(), threads, ieee ? "kept" : "flushed");
    for (int i = 0; i < ns; i++) {
        int n = sizes[i];
        size_t nn = (size_t)n * (size_t)n;
        uint16_t *a = malloc(nn * 2), *b = malloc(nn * 2);
        int8_t *a8 = malloc(nn), *b8 = malloc(nn);
        float *c = malloc(nn * 4);
        if (!a || !b || !a8 || !b8 || !c) {
            fprintf(stderr, "out of memory\n");
            return 1;
        }
        unsigned seed = 1;
        for (size_t j = 0; j < nn; j++) {
            seed = seed * 1664525u + 1013904223u;
            a[j] = (uint16_t)(0x3f80 | (seed >> 25)); /* 1 to 2 */
            b[j] = (uint16_t)(0xbf80 | (seed >> 18 & 0x7f));
            a8[j] = (int8_t)(seed >> 24);
            b8[j] = (int8_t)(seed >> 16);
        }
        double g16 = time_one(pool, 0, n, a, b, c);
        double g8 = time_one(pool, 1, n, a8, b8, c);
        printf("n=%d  bf16 %.1f GFLOP/s  int8 %.1f GOP/s\n", n, g16, g8);
        free(a);
        free(b);
        free(a8);
        free(b8);
        free(c);
    }
    if (pool)
        xlacrt_pool_destroy(pool);
    return 0;
}
