/*
 * mpi_bridge.c - libxlac_pjrt_mpi.so: xlac's MPI communicator for the PJRT
 * plugin (mpi_bridge.h).  Exports the four xlac_pjrt_mpi_* functions and
 * nothing else.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi/mpi_comm.h"
#include "mpi_bridge.h"

static XlacPjrtMpiRuntime rt;

/* the runtime functions mpi_comm.c calls: the plugin's own */
void xlacrt_parallel_for(xlacrt_pool *p, int64_t n, xlacrt_task_fn fn, void *ctx) { rt.parallel_for(p, n, fn, ctx); }
int64_t xlacrt_comm_seq_next(xlacrt_comm_seqs *t, int64_t key, const int32_t *ids, int32_t n) {
  return rt.comm_seq_next(t, key, ids, n);
}
void xlacrt_comm_seqs_free(xlacrt_comm_seqs *t) { rt.comm_seqs_free(t); }

typedef struct Bridge {
  MpiComm *m;
  int initialized_here;
} Bridge;

int xlac_pjrt_mpi_open(const XlacPjrtMpiRuntime *r, void **handle, int *rank, int *size, char *err, size_t errlen);
xlacrt_comm *xlac_pjrt_mpi_begin(void *handle, char *err, size_t errlen);
void xlac_pjrt_mpi_end(void *handle, int ok);
void xlac_pjrt_mpi_close(void *handle);

static int mpi_error(int rc, const char *what, char *err, size_t errlen) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  snprintf(err, errlen, "%s: %s", what, text);
  return -1;
}

int xlac_pjrt_mpi_open(const XlacPjrtMpiRuntime *r, void **handle, int *rank, int *size, char *err, size_t errlen) {
  if (!r || r->version != XLAC_PJRT_MPI_VERSION) {
    snprintf(err, errlen, "libxlac_pjrt_mpi.so is not the plugin's version");
    return -1;
  }
  rt = *r;
  Bridge *b = calloc(1, sizeof *b);
  if (!b) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  int level, rc, finalized = 0;
  const char *what = "";
  MPI_Finalized(&finalized);
  if (finalized) {
    free(b);
    snprintf(err, errlen, "MPI was finalized");
    return -1;
  }
  if ((rc = mpi_comm_start(&level, &b->initialized_here, &what)) != MPI_SUCCESS) {
    free(b);
    return mpi_error(rc, what, err, errlen);
  }
  if ((rc = MPI_Comm_size(MPI_COMM_WORLD, size)) != MPI_SUCCESS ||
      (rc = MPI_Comm_rank(MPI_COMM_WORLD, rank)) != MPI_SUCCESS) {
    if (b->initialized_here) MPI_Finalize();
    free(b);
    return mpi_error(rc, "MPI_Comm_size", err, errlen);
  }
  b->m = mpi_comm_new(MPI_COMM_WORLD, *size, 1, level, err, errlen);
  if (!b->m) {
    if (b->initialized_here) MPI_Finalize();
    free(b);
    return -1;
  }
  *handle = b;
  return 0;
}

xlacrt_comm *xlac_pjrt_mpi_begin(void *handle, char *err, size_t errlen) {
  return mpi_comm_begin(((Bridge *)handle)->m, err, errlen);
}

void xlac_pjrt_mpi_end(void *handle, int ok) { mpi_comm_end(((Bridge *)handle)->m, ok); }

void xlac_pjrt_mpi_close(void *handle) {
  Bridge *b = handle;
  if (!b) return;
  mpi_comm_free(b->m);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (b->initialized_here && !finalized) MPI_Finalize();
  free(b);
}
