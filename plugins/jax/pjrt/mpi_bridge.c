/*
 * mpi_bridge.c - libxlac_pjrt_mpi.so: xlac's MPI communicator and an MPI
 * link for the PJRT plugin (mpi_bridge.h).  Exports the xlac_pjrt_mpi_*
 * functions and nothing else.
 */
#include <mpi.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>

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

/* What both ways in begin with: the plugin's runtime taken, MPI started
   unless the process has (*level: its thread level, *here: whether this
   call started it).  MPI_SUCCESS, else -1 with why in err. */
static int bridge_start(const XlacPjrtMpiRuntime *r, int *level, int *here, char *err, size_t errlen) {
  if (!r || r->version != XLAC_PJRT_MPI_VERSION) {
    snprintf(err, errlen, "libxlac_pjrt_mpi.so is not the plugin's version");
    return -1;
  }
  rt = *r;
  int rc, finalized = 0;
  const char *what = "";
  MPI_Finalized(&finalized);
  if (finalized) {
    snprintf(err, errlen, "MPI was finalized");
    return -1;
  }
  if ((rc = mpi_comm_start(level, here, &what)) != MPI_SUCCESS) return mpi_error(rc, what, err, errlen);
  return MPI_SUCCESS;
}

int xlac_pjrt_mpi_open(const XlacPjrtMpiRuntime *r, void **handle, int *rank, int *size, char *err, size_t errlen) {
  Bridge *b = calloc(1, sizeof *b);
  if (!b) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  int level, rc;
  if (bridge_start(r, &level, &b->initialized_here, err, errlen) != MPI_SUCCESS) {
    free(b);
    return -1;
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

/* ---- the link for several devices per process ---- */

enum {
  LINK_TAG = 1,
  PIECE = 1 << 30 /* bytes of one MPI message at most */
};

typedef struct Link {
  MPI_Comm comm;
  int initialized_here;
  atomic_int stopped;
} Link;

int xlac_pjrt_mpi_link_open(const XlacPjrtMpiRuntime *r, void **link, int *rank, int *size, char *err,
                            size_t errlen);
int xlac_pjrt_mpi_link_send(void *link, int q, const struct iovec *pieces, int n);
int xlac_pjrt_mpi_link_recv_head(void *link, int *q, void *buf, size_t n);
int xlac_pjrt_mpi_link_recv_piece(void *link, int q, void *buf, size_t n);
void xlac_pjrt_mpi_link_stop(void *link);
void xlac_pjrt_mpi_link_close(void *link);

int xlac_pjrt_mpi_link_open(const XlacPjrtMpiRuntime *r, void **link, int *rank, int *size, char *err,
                            size_t errlen) {
  Link *l = calloc(1, sizeof *l);
  if (!l) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  l->comm = MPI_COMM_NULL;
  int level, rc;
  if (bridge_start(r, &level, &l->initialized_here, err, errlen) != MPI_SUCCESS) {
    free(l);
    return -1;
  }
  if (level < MPI_THREAD_MULTIPLE) {
    snprintf(err, errlen, "several devices per process need MPI_THREAD_MULTIPLE, and MPI offers thread level %d "
             "(MPI initialized before xlac asked for it?)", level);
    rc = -1;
  } else if ((rc = MPI_Comm_dup(MPI_COMM_WORLD, &l->comm)) != MPI_SUCCESS ||
             (rc = MPI_Comm_set_errhandler(l->comm, MPI_ERRORS_RETURN)) != MPI_SUCCESS ||
             (rc = MPI_Comm_size(l->comm, size)) != MPI_SUCCESS || (rc = MPI_Comm_rank(l->comm, rank)) != MPI_SUCCESS) {
    mpi_error(rc, "duplicating MPI_COMM_WORLD", err, errlen);
    rc = -1;
  }
  if (rc != MPI_SUCCESS) {
    if (l->comm != MPI_COMM_NULL) MPI_Comm_free(&l->comm);
    if (l->initialized_here) MPI_Finalize();
    free(l);
    return -1;
  }
  *link = l;
  return 0;
}

/* Completes request r, polling; with stop, gives up (cancelling it) once
   *stop is set: 1 done, 0 given up, -1 failed. */
static int link_wait(MPI_Request *r, MPI_Status *st, atomic_int *stop) {
  unsigned idle = 0;
  for (;;) {
    int done = 0;
    if (MPI_Test(r, &done, st) != MPI_SUCCESS) return -1;
    if (done) return 1;
    if (stop && atomic_load(stop)) {
      MPI_Cancel(r);
      MPI_Wait(r, MPI_STATUS_IGNORE);
      return 0;
    }
    mpi_comm_backoff(&idle);
  }
}

int xlac_pjrt_mpi_link_send(void *link, int q, const struct iovec *pieces, int n) {
  Link *l = link;
  for (int i = 0; i < n; i++)
    for (size_t off = 0; off < pieces[i].iov_len;) {
      size_t k = pieces[i].iov_len - off < PIECE ? pieces[i].iov_len - off : PIECE;
      MPI_Request r;
      if (MPI_Isend((char *)pieces[i].iov_base + off, (int)k, MPI_BYTE, q, LINK_TAG, l->comm, &r) != MPI_SUCCESS ||
          link_wait(&r, MPI_STATUS_IGNORE, NULL) != 1)
        return -1;
      off += k;
    }
  return 0;
}

int xlac_pjrt_mpi_link_recv_head(void *link, int *q, void *buf, size_t n) {
  Link *l = link;
  MPI_Request r;
  MPI_Status st;
  *q = -1;
  if (atomic_load(&l->stopped)) return 0;
  if (MPI_Irecv(buf, (int)n, MPI_BYTE, MPI_ANY_SOURCE, LINK_TAG, l->comm, &r) != MPI_SUCCESS) return -1;
  int rc = link_wait(&r, &st, &l->stopped);
  if (rc <= 0) return rc;
  *q = st.MPI_SOURCE;
  int got = 0;
  return MPI_Get_count(&st, MPI_BYTE, &got) == MPI_SUCCESS && (size_t)got == n ? 1 : -1;
}

int xlac_pjrt_mpi_link_recv_piece(void *link, int q, void *buf, size_t n) {
  Link *l = link;
  for (size_t off = 0; off < n;) {
    size_t k = n - off < PIECE ? n - off : PIECE;
    MPI_Request r;
    MPI_Status st;
    int got = 0;
    if (MPI_Irecv((char *)buf + off, (int)k, MPI_BYTE, q, LINK_TAG, l->comm, &r) != MPI_SUCCESS ||
        link_wait(&r, &st, NULL) != 1 || MPI_Get_count(&st, MPI_BYTE, &got) != MPI_SUCCESS || (size_t)got != k)
      return -1;
    off += k;
  }
  return 0;
}

void xlac_pjrt_mpi_link_stop(void *link) {
  Link *l = link;
  /* every rank stops here, so none sends again; a message still on its
     way can only be a failure notice or one of a meeting given up */
  MPI_Request r;
  if (MPI_Ibarrier(l->comm, &r) == MPI_SUCCESS) link_wait(&r, MPI_STATUS_IGNORE, NULL);
  atomic_store(&l->stopped, 1);
}

void xlac_pjrt_mpi_link_close(void *link) {
  Link *l = link;
  if (!l) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Comm_free(&l->comm);
  if (l->initialized_here && !finalized) MPI_Finalize();
  free(l);
}
