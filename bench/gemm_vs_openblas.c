/*
 * gemm_vs_openblas.c - times the runtime's sgemm (and dgemm) against
 * OpenBLAS's cblas_sgemm in the same process, for square sizes and 1 and 2
 * threads, and prints GFLOP/s (median of several runs) and the ratio.
 *
 * Debian's OpenBLAS does not recognise every AVX-512 CPU and then falls back
 * to slow SSE kernels; it reads its core type when it is loaded, so run
 *     OPENBLAS_CORETYPE=SkylakeX build/bin/bench_gemm [size...]
 * for a fair comparison.  Options: --one-thread (skip the 2-thread runs),
 * --no-dgemm, --cpu-time (see now() below), --isa=NAME (xlacrt's kernel
 * family: avx512, avx2, c).  The two libraries are run alternately so that
 * noise from other processes on the machine hits both alike.
 */
#include "xlacrt.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* With --cpu-time, single-thread runs are timed by the CPU time of the
   calling thread, which leaves out time lost to other processes on a busy
   machine; runs with more threads always use wall time. */
static int use_cpu_time;
static int cur_threads = 1;

static double now(void)
{
    struct timespec ts;
    clock_gettime(use_cpu_time && cur_threads == 1 ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC,
                  &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Enough repetitions for roughly a second of work per library. */
static int reps_for(int n)
{
    double flops = 2.0 * n * n * (double)n;
    int r = (int)(1.5e11 / flops);
    return r < 3 ? 3 : r > 51 ? 51 : r;
}

static void fill(float *x, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        x[i] = (float)((seed >> 8) & 0xffff) / 65536.0f - 0.5f;
    }
}

static double max_rel_diff(const float *x, const float *y, size_t n)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)x[i] - (double)y[i]);
        if (d > num)
            num = d;
        if (fabs((double)y[i]) > den)
            den = fabs((double)y[i]);
    }
    return den > 0 ? num / den : num;
}

static void bench_sgemm(int n, int threads)
{
    size_t nn = (size_t)n * (size_t)n;
    float *a = malloc(nn * sizeof *a), *b = malloc(nn * sizeof *b);
    float *c1 = malloc(nn * sizeof *c1), *c2 = malloc(nn * sizeof *c2);
    int reps = reps_for(n);
    double *t1 = malloc((size_t)reps * sizeof *t1), *t2 = malloc((size_t)reps * sizeof *t2);
    if (!a || !b || !c1 || !c2 || !t1 || !t2) {
        fprintf(stderr, "bench_gemm: out of memory at n=%d\n", n);
        goto out;
    }
    fill(a, nn, 1);
    fill(b, nn, 2);
    xlacrt_pool *pool = threads > 1 ? xlacrt_pool_create(threads) : NULL;
    cur_threads = threads;
    openblas_set_num_threads(threads);
    /* warm-up: page in buffers, start threads */
    xlacrt_sgemm(pool, 0, 0, n, n, n, a, n, b, n, c1, n, 0);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c2,
                n);
    for (int r = 0; r < reps; r++) {
        double s = now();
        xlacrt_sgemm(pool, 0, 0, n, n, n, a, n, b, n, c1, n, 0);
        t1[r] = now() - s;
        s = now();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f,
                    c2, n);
        t2[r] = now() - s;
    }
    double flops = 2.0 * n * n * (double)n;
    double g1 = flops / median(t1, reps) * 1e-9, g2 = flops / median(t2, reps) * 1e-9;
    printf("sgemm %5d  %d thr  xlacrt %7.1f GFLOP/s  openblas %7.1f GFLOP/s  ratio %.2f"
           "  (%d runs, max rel diff %.1e)\n",
           n, threads, g1, g2, g1 / g2, reps, max_rel_diff(c1, c2, nn));
    fflush(stdout);
    xlacrt_pool_destroy(pool);
out:
    free(a);
    free(b);
    free(c1);
    free(c2);
    free(t1);
    free(t2);
}

static void bench_dgemm(int n, int threads)
{
    size_t nn = (size_t)n * (size_t)n;
    double *a = malloc(nn * sizeof *a), *b = malloc(nn * sizeof *b);
    double *c1 = malloc(nn * sizeof *c1), *c2 = malloc(nn * sizeof *c2);
    int reps = reps_for(n) / 2 + 1;
    double *t1 = malloc((size_t)reps * sizeof *t1), *t2 = malloc((size_t)reps * sizeof *t2);
    if (!a || !b || !c1 || !c2 || !t1 || !t2) {
        fprintf(stderr, "bench_gemm: out of memory at n=%d\n", n);
        goto out;
    }
    for (size_t i = 0; i < nn; i++) {
        a[i] = (double)((i * 7919) % 1000) / 1000.0 - 0.5;
        b[i] = (double)((i * 104729) % 1000) / 1000.0 - 0.5;
    }
    xlacrt_pool *pool = threads > 1 ? xlacrt_pool_create(threads) : NULL;
    cur_threads = threads;
    openblas_set_num_threads(threads);
    xlacrt_dgemm(pool, 0, 0, n, n, n, a, n, b, n, c1, n, 0);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b, n, 0.0, c2, n);
    for (int r = 0; r < reps; r++) {
        double s = now();
        xlacrt_dgemm(pool, 0, 0, n, n, n, a, n, b, n, c1, n, 0);
        t1[r] = now() - s;
        s = now();
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b, n, 0.0,
                    c2, n);
        t2[r] = now() - s;
    }
    double flops = 2.0 * n * n * (double)n;
    double g1 = flops / median(t1, reps) * 1e-9, g2 = flops / median(t2, reps) * 1e-9;
    printf("dgemm %5d  %d thr  xlacrt %7.1f GFLOP/s  openblas %7.1f GFLOP/s  ratio %.2f"
           "  (%d runs)\n",
           n, threads, g1, g2, g1 / g2, reps);
    fflush(stdout);
    xlacrt_pool_destroy(pool);
out:
    free(a);
    free(b);
    free(c1);
    free(c2);
    free(t1);
    free(t2);
}

int main(int argc, char **argv)
{
    int sizes[16], nsizes = 0, threads[2] = {1, 2}, dgemm = 1;
    for (int i = 1; i < argc && nsizes < 16; i++) {
        if (!strcmp(argv[i], "--no-dgemm"))
            dgemm = 0;
        else if (!strcmp(argv[i], "--cpu-time"))
            use_cpu_time = 1;
        else if (!strncmp(argv[i], "--isa=", 6)) {
            if (!xlacrt_gemm_set_isa(argv[i] + 6)) {
                fprintf(stderr, "bench_gemm: kernel family %s not available\n", argv[i] + 6);
                return 2;
            }
        } else if (!strcmp(argv[i], "--one-thread"))
            threads[1] = 0;
        else if (atoi(argv[i]) > 0)
            sizes[nsizes++] = atoi(argv[i]);
        else {
            fprintf(stderr, "usage: bench_gemm [--no-dgemm] [--cpu-time] [--one-thread]"
                            " [--isa=avx512|avx2|c] [size...]\n");
            return 2;
        }
    }
    if (nsizes == 0) {
        sizes[0] = 256;
        sizes[1] = 1024;
        sizes[2] = 2048;
        nsizes = 3;
    }
    const char *core = getenv("OPENBLAS_CORETYPE");
    printf("OpenBLAS core: %s (OPENBLAS_CORETYPE=%s)\n", openblas_get_corename(),
           core ? core : "unset");
    for (int t = 0; t < 2 && threads[t]; t++)
        for (int i = 0; i < nsizes; i++)
            bench_sgemm(sizes[i], threads[t]);
    if (dgemm)
        for (int t = 0; t < 2 && threads[t]; t++)
            bench_dgemm(1024, threads[t]);
    return 0;
}
