/*
 * mpi_allreduce.c - all_reduce bandwidth through xlac over MPI next to
 * MPI_Allreduce itself: f32 sums of 1 MiB to 256 MiB per rank.
 *
 *   scripts/mpirun.sh -np 4 build/bin/bench_mpi_allreduce [--iters N] [--min MiB] [--max MiB]
 *
 * For each size, xlac runs a compiled program that is one all_reduce over
 * every rank (an execution: the argument buffer in, a result buffer out,
 * the collective in between), and MPI_Allreduce runs on buffers of the same
 * size.  Each timed run starts after a barrier and counts until the
 * slowest rank is done; the table shows the median of --iters runs (after
 * one untimed run) as time and as bandwidth: the vector's bytes per second
 * (algbw) and the bytes each rank moves in a ring all-reduce,
 * 2 (n - 1) / n times that (busbw).  xlac's reductions fold the ranks in
 * replica order, the interpreter's order, so its sums are the same bits
 * whatever the number of machines; MPI_Allreduce makes no such promise.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xlac/xlac.h"
#include "xlac/xlac_mpi.h"

static int rank, size;

static int check(xlac_status *s, const char *what) {
  if (!s) return 1;
  fprintf(stderr, "rank %d: %s: %s\n", rank, what, xlac_status_message(s));
  xlac_status_destroy(s);
  return 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Seconds from here until every rank has got there (the slowest rank's
   time), started after a barrier. */
static double slowest(double t0) {
  double t = MPI_Wtime() - t0, max = 0;
  MPI_Allreduce(&t, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return max;
}

static double time_xlac(xlac_client *c, int64_t n, float *host, int iters, double *out_check) {
  char text[1024];
  snprintf(text, sizeof text,
           "func.func @main(%%x: tensor<%lldxf32>) -> tensor<%lldxf32> {\n"
           "  %%r = \"stablehlo.all_reduce\"(%%x) ({\n"
           "    ^bb0(%%a: tensor<f32>, %%b: tensor<f32>):\n"
           "      %%s = stablehlo.add %%a, %%b : tensor<f32>\n"
           "      stablehlo.return %%s : tensor<f32>\n"
           "  }) {replica_groups = dense<[[%s]]> : tensor<1x%dxi64>} : (tensor<%lldxf32>) -> tensor<%lldxf32>\n"
           "  return %%r : tensor<%lldxf32>\n"
           "}\n",
           (long long)n, (long long)n, "%GROUP%", size, (long long)n, (long long)n, (long long)n);
  /* the group: every rank, in order */
  char group[512] = "";
  for (int r = 0; r < size; r++) snprintf(group + strlen(group), sizeof group - strlen(group), "%s%d", r ? ", " : "", r);
  char prog[2048];
  char *at = strstr(text, "%GROUP%");
  snprintf(prog, sizeof prog, "%.*s%s%s", (int)(at - text), text, group, at + 7);
  xlac_executable *e = NULL;
  if (!check(xlac_compile_text(c, prog, strlen(prog), NULL, &e), "compiling")) return -1;
  xlac_buffer *x = NULL;
  if (!check(xlac_buffer_from_host(c, 0, XLAC_F32, &n, 1, host, (size_t)n * 4, 0, &x), "buffer")) return -1;
  double *t = calloc((size_t)iters, sizeof *t);
  for (int i = -1; i < iters; i++) {
    xlac_buffer *r = NULL;
    xlac_buffer *const args[1] = {x};
    xlac_buffer *const *argv[1] = {args};
    xlac_buffer **resv[1] = {&r};
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    int good = check(xlac_executable_execute(e, 1, argv, NULL, resv), "executing");
    double dt = slowest(t0);
    if (!good) return -1;
    if (i >= 0) t[i] = dt;
    if (i == iters - 1) {
      float v;
      xlac_buffer_to_host(r, host, (size_t)n * 4, 0);
      v = host[n / 2];
      *out_check = v;
    }
    xlac_buffer_destroy(r);
  }
  double m = median(t, iters);
  free(t);
  xlac_buffer_destroy(x);
  xlac_executable_destroy(e);
  return m;
}

static double time_mpi(int64_t n, const float *in, float *out, int iters) {
  double *t = calloc((size_t)iters, sizeof *t);
  for (int i = -1; i < iters; i++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_Allreduce(in, out, (int)n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    double dt = slowest(t0);
    if (i >= 0) t[i] = dt;
  }
  double m = median(t, iters);
  free(t);
  return m;
}

int main(int argc, char **argv) {
  int iters = 7, min_mib = 1, max_mib = 256;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--iters") && i + 1 < argc)
      iters = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--min") && i + 1 < argc)
      min_mib = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--max") && i + 1 < argc)
      max_mib = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [--iters N] [--min MiB] [--max MiB]\n", argv[0]);
      return 2;
    }
  }
  if (iters < 1) iters = 1;
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* one thread per rank: the ranks usually outnumber the cores here */
  xlac_client_options o = {.struct_size = sizeof o, .num_threads = 1};
  xlac_client *c = NULL;
  if (!check(xlac_mpi_client_create(&o, &c), "creating the client")) MPI_Abort(MPI_COMM_WORLD, 1);
  if (rank == 0) {
    printf("all_reduce (f32 sum) over %d ranks, median of %d runs; bandwidths in GB/s\n", size, iters);
    printf("%8s  %9s %7s %7s  %9s %7s %7s  %8s\n", "MiB", "xlac ms", "algbw", "busbw", "MPI ms", "algbw", "busbw",
           "xlac/MPI");
  }
  int failed = 0;
  for (int mib = min_mib; mib <= max_mib && !failed; mib *= 2) {
    int64_t n = (int64_t)mib << 18; /* floats */
    size_t bytes = (size_t)n * 4;
    float *in = malloc(bytes), *out = malloc(bytes);
    if (!in || !out) {
      fprintf(stderr, "rank %d: out of memory for %d MiB\n", rank, mib);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int64_t i = 0; i < n; i++) in[i] = (float)((i + rank) % 17) * 0.25f;
    double got = 0;
    double tx = time_xlac(c, n, in, iters, &got);
    for (int64_t i = 0; i < n; i++) in[i] = (float)((i + rank) % 17) * 0.25f;
    double tm = time_mpi(n, in, out, iters);
    if (tx < 0) failed = 1;
    if (!failed && got != out[n / 2]) {
      fprintf(stderr, "rank %d: xlac's sum %g differs from MPI's %g\n", rank, got, out[n / 2]);
      failed = 1;
    }
    if (rank == 0 && !failed) {
      double gb = (double)bytes / 1e9, bus = 2.0 * (size - 1) / size;
      printf("%8d  %9.2f %7.2f %7.2f  %9.2f %7.2f %7.2f  %8.2f\n", mib, tx * 1e3, gb / tx, gb / tx * bus, tm * 1e3,
             gb / tm, gb / tm * bus, tx / tm);
      fflush(stdout);
    }
    free(in);
    free(out);
  }
  xlac_client_destroy(c);
  MPI_Finalize();
  return failed;
}
