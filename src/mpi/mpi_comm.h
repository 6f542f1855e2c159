/*
 * mpi_comm.h - a communicator (runtime/xlacrt.h's xlacrt_comm) over MPI:
 * one process of the set per rank of a communicator, rank = replica *
 * num_partitions + partition.
 */
#ifndef XLAC_MPI_COMM_H
#define XLAC_MPI_COMM_H

#include <mpi.h>
#include <stddef.h>

#include "xlacrt.h"

typedef struct MpiComm MpiComm;

/* Starts MPI unless the process has (asking for MPI_THREAD_MULTIPLE; MPI
   started here returns its errors as codes): *level is the thread level
   MPI has, *here whether this call started it.  MPI must not have been
   finalized (the caller checks).  MPI_SUCCESS, or an MPI error code with
   *what naming the call that failed. */
int mpi_comm_start(int *level, int *here, const char **what);

/* Pauses a loop that polls MPI (*idle: how many times it paused, from
   0): spins a little, then yields, then sleeps (100 us, then 1 ms once it
   has waited long): ranks are often more than cores. */
void mpi_comm_backoff(unsigned *idle);

/* A communicator over a duplicate of `world` for the process of that rank
   in a num_replicas x num_partitions set (their product is the size of
   world).  thread_level: what MPI was initialized with; with
   MPI_THREAD_MULTIPLE a service thread carries send/recv and failures.
   Collective over world (every rank creates its communicators in the same
   order).  NULL, with why in err, on failure. */
MpiComm *mpi_comm_new(MPI_Comm world, int num_replicas, int num_partitions, int thread_level, char *err,
                      size_t errlen);
/* Starts an execution: the communicator, or NULL (why in err) when it
   cannot be used any more.  Holds the communicator until mpi_comm_end. */
xlacrt_comm *mpi_comm_begin(MpiComm *m, char *err, size_t errlen);
/* Ends it; ok == 0 tells the other ranks that this one failed. */
void mpi_comm_end(MpiComm *m, int ok);
/* Waits until every rank has freed its communicator (the service threads
   serve until then), then frees it. */
void mpi_comm_free(MpiComm *m);

#endif
