/*
 * xlac_mpi.h - collectives across processes and machines over MPI
 * (library xlac_mpi, built when MPI is found; link it next to xlac).
 *
 * Every MPI rank runs the same program as one replica:
 *
 *   mpirun -np 4 ./prog
 *
 *   xlac_client *c;
 *   xlac_mpi_client_create(NULL, &c);     // replica = rank, 4 replicas
 *   xlac_compile_file(c, "f.mlir", NULL, &e); // compiled for 4 replicas
 *   xlac_buffer_from_host(c, 0, ...);     // device 0: this rank's replica
 *   xlac_executable_execute(e, 1, ...);   // num_devices = 1
 *   ...
 *   xlac_client_destroy(c);
 *   xlac_mpi_finalize();
 *
 * The client has one device, this rank's replica, while programs are
 * compiled for the whole world (num_replicas = the world size, or world
 * size / num_partitions with partitions: rank = replica * num_partitions +
 * partition).  Compiled collectives and send/recv (and the interpreter's,
 * with XLAC_BACKEND_INTERPRETER) go over MPI and give the same bits as
 * the same program run in one process.  Every rank must create its MPI
 * clients, and run its executions, in the same order; one execution runs
 * at a time per client.  A rank whose execution fails tells the others,
 * whose waits then fail too; a rank that never reaches a collective the
 * others wait in (a program that differs between ranks) hangs them, as
 * MPI programs do.
 */
#ifndef XLAC_XLAC_MPI_H
#define XLAC_XLAC_MPI_H

#include "xlac/xlac.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A client for this MPI rank (opts as for xlac_client_create: threads,
   pool, cache, backend; num_partitions splits the world into replicas x
   partitions; num_replicas, if set, must be the world size / partitions).
   Initializes MPI (MPI_THREAD_MULTIPLE) unless the caller already has;
   send/recv across ranks and telling other ranks of a failure need
   MPI_THREAD_MULTIPLE, collectives do not.  Destroying the client (once
   its executables and buffers are gone too) waits until every rank has
   destroyed its own. */
xlac_status *xlac_mpi_client_create(const xlac_client_options *opts, xlac_client **out_client);

/* Nonzero when this process seems to have been started by an MPI launcher
   (mpirun, mpiexec, srun: their environment variables), so a program can
   pick xlac_mpi_client_create over an in-process grid without MPI calls. */
int xlac_mpi_launched(void);

/* Finalizes MPI if xlac_mpi_client_create initialized it (and does nothing
   otherwise); call it after the MPI clients are destroyed.  An error if
   one is still alive. */
xlac_status *xlac_mpi_finalize(void);

#ifdef __cplusplus
}
#endif

#endif
