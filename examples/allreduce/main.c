/*
 * allreduce: one program, many replicas -- as threads of this process, or
 * as MPI processes, with the same API calls.
 *
 *   allreduce [allreduce.mlir]                       4 replicas in this process
 *   mpirun -np 4 allreduce [allreduce.mlir]          one replica per MPI rank
 *   allreduce --mpi                                  exit status 0 if built with MPI
 *
 * In one process the client has a device per replica and one execution
 * runs them all, as threads that meet in the all_reduce.  Under mpirun
 * (built with xlac_mpi, include/xlac/xlac_mpi.h) each rank's client has
 * one device -- its replica -- and the program is still compiled for all
 * of them; each rank executes its own device and the all_reduce meets the
 * other ranks over MPI.  Everything else is the same code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xlac/xlac.h>
#ifdef XLAC_EXAMPLE_MPI
#include <xlac/xlac_mpi.h>
#endif

enum { REPLICAS = 4, N = 4 };

static void check(xlac_status *s, const char *what) {
  if (!s) return;
  fprintf(stderr, "allreduce: %s: %s\n", what, xlac_status_message(s));
  xlac_status_destroy(s);
  exit(1);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--mpi") == 0) {
#ifdef XLAC_EXAMPLE_MPI
    return 0;
#else
    return 1;
#endif
  }
  const char *path = argc > 1 ? argv[1] : "allreduce.mlir";

  /* 1. the client: every replica here, or this rank's */
  xlac_client *client;
  int mpi = 0;
#ifdef XLAC_EXAMPLE_MPI
  mpi = xlac_mpi_launched();
#endif
  if (mpi) {
#ifdef XLAC_EXAMPLE_MPI
    /* the replicas are the MPI ranks; MPI is initialized here */
    check(xlac_mpi_client_create(NULL, &client), "creating the MPI client");
#endif
  } else {
    xlac_client_options o = {.struct_size = sizeof o, .num_replicas = REPLICAS};
    check(xlac_client_create(&o, &client), "creating the client");
    printf("%d replicas in this process\n", REPLICAS);
  }
  int ndev = xlac_client_device_count(client);

  /* 2. the program, compiled for every replica (the client's count) */
  xlac_executable *exe;
  check(xlac_compile_file(client, path, NULL, &exe), "compiling");
  xlac_executable_stats stats = {.struct_size = sizeof stats};
  check(xlac_executable_stats_get(exe, &stats), "reading the stats");

  /* 3. per local device: the same weights, this replica's shard of data */
  xlac_buffer *args[REPLICAS][2], *results[REPLICAS][1];
  xlac_buffer *const *argv_[REPLICAS];
  xlac_buffer **resv[REPLICAS];
  float x[REPLICAS][N];
  int replica[REPLICAS];
  char where[REPLICAS][256];
  int64_t dims[1] = {N};
  for (int d = 0; d < ndev; d++) {
    xlac_device *dev;
    xlac_device_info info = {.struct_size = sizeof info};
    check(xlac_client_device(client, d, &dev), "getting a device");
    check(xlac_device_info_get(dev, &info), "describing a device");
    replica[d] = info.replica;
    /* under MPI the description says which rank and host */
    const char *mpi_part = strstr(info.description, "MPI rank");
    if (mpi_part)
      snprintf(where[d], sizeof where[d], " (%.*s)", (int)strcspn(mpi_part, ",)"), mpi_part);
    else
      where[d][0] = 0;
    float w[N] = {1, 2, 3, 4};
    for (int i = 0; i < N; i++) x[d][i] = (float)(i + info.replica);
    check(xlac_buffer_from_host(client, d, XLAC_F32, dims, 1, w, sizeof w, 0, &args[d][0]), "w");
    check(xlac_buffer_from_host(client, d, XLAC_F32, dims, 1, x[d], sizeof x[d], 0, &args[d][1]), "x");
    argv_[d] = args[d];
    resv[d] = results[d];
  }

  /* 4. one execution over the local devices: all replicas, or this one */
  check(xlac_executable_execute(exe, ndev, argv_, NULL, resv), "executing");

  /* 5. every replica ends up with the same weights */
  for (int d = 0; d < ndev; d++) {
    float w[N];
    check(xlac_buffer_to_host(results[d][0], w, sizeof w, 0), "reading a result");
    printf("replica %d of %d%s: x = [%g, %g, %g, %g], w = [%g, %g, %g, %g]\n", replica[d], stats.num_replicas,
           where[d], x[d][0], x[d][1], x[d][2], x[d][3], w[0], w[1], w[2], w[3]);
    fflush(stdout);
    xlac_buffer_destroy(results[d][0]);
    xlac_buffer_destroy(args[d][0]);
    xlac_buffer_destroy(args[d][1]);
  }
  xlac_executable_destroy(exe);
  xlac_client_destroy(client);
#ifdef XLAC_EXAMPLE_MPI
  if (mpi) check(xlac_mpi_finalize(), "finalizing MPI");
#endif
  return 0;
}
