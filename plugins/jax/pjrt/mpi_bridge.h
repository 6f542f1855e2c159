/*
 * mpi_bridge.h - what the PJRT plugin asks of libxlac_pjrt_mpi.so, the
 * small library that carries xlac's MPI communicator (src/mpi/mpi_comm.c)
 * for a plugin running in several processes (jax.distributed under
 * mpirun) with one device each, and an MPI link (net_comm.h's NetLinkOps)
 * for processes with several devices each.  The plugin loads it with
 * dlopen only then, so that the plugin itself never depends on MPI.
 *
 * The communicator calls three functions of the runtime; the plugin hands
 * over its own, so that one copy of the runtime (its thread pool) serves
 * both.
 */
#ifndef XLAC_PJRT_MPI_BRIDGE_H
#define XLAC_PJRT_MPI_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

#include "xlacrt.h"

#define XLAC_PJRT_MPI_VERSION 2

typedef struct XlacPjrtMpiRuntime {
  int version; /* XLAC_PJRT_MPI_VERSION */
  void (*parallel_for)(xlacrt_pool *p, int64_t n, xlacrt_task_fn fn, void *ctx);
  int64_t (*comm_seq_next)(xlacrt_comm_seqs *t, int64_t key, const int32_t *ids, int32_t n);
  void (*comm_seqs_free)(xlacrt_comm_seqs *t);
} XlacPjrtMpiRuntime;

/* Initializes MPI unless the process has (asking for
   MPI_THREAD_MULTIPLE), and makes a communicator over all its ranks, one
   device each: *handle, this process's rank and the number of ranks.
   0 on success, else -1 with why in err. */
typedef int (*xlac_pjrt_mpi_open_fn)(const XlacPjrtMpiRuntime *rt, void **handle, int *rank, int *size, char *err,
                                     size_t errlen);
/* The communicator for one execution (NULL, why in err, when it is
   unusable), held until end; ok == 0 tells the other ranks this one
   failed. */
typedef xlacrt_comm *(*xlac_pjrt_mpi_begin_fn)(void *handle, char *err, size_t errlen);
typedef void (*xlac_pjrt_mpi_end_fn)(void *handle, int ok);
/* Frees the communicator (waiting for every rank to free its own) and
   finalizes MPI if open initialized it. */
typedef void (*xlac_pjrt_mpi_close_fn)(void *handle);

/* The link for processes with several devices each: initializes MPI
   unless the process has (MPI_THREAD_MULTIPLE is required: a thread
   receives while others send) and duplicates its world: *link, this
   process's rank and the number of ranks.  0, or -1 with why in err.
   The link's functions (xlac_pjrt_mpi_link_send, _recv_head, _recv_piece
   and _stop) have NetLinkOps's types; its stop first waits until every
   rank has stopped, receiving meanwhile, so that no rank sends to one
   that no longer receives. */
typedef int (*xlac_pjrt_mpi_link_open_fn)(const XlacPjrtMpiRuntime *rt, void **link, int *rank, int *size, char *err,
                                          size_t errlen);
/* Frees the link (after the net over it) and finalizes MPI if open
   initialized it. */
typedef void (*xlac_pjrt_mpi_link_close_fn)(void *link);

#endif
