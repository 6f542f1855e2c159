/*
 * mpi_client.c - clients of one MPI rank (include/xlac/xlac_mpi.h): a
 * process of a set (include/xlac/process_set.h) whose communicator is
 * mpi_comm.c's over a duplicate of MPI_COMM_WORLD.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/launched.h"
#include "mpi/mpi_comm.h"
#include "xlac/process_set.h"
#include "xlac/xlac_mpi.h"

static pthread_mutex_t mpi_lock = PTHREAD_MUTEX_INITIALIZER;
static int initialized_here; /* xlac_mpi_client_create initialized MPI */
static int live;             /* communicators not freed yet */

static struct xlacrt_comm *set_begin(void *user, xlac_status **err) {
  char msg[300];
  xlacrt_comm *c = mpi_comm_begin(user, msg, sizeof msg);
  if (!c) *err = xlac_status_create(XLAC_UNAVAILABLE, "%s", msg);
  return c;
}

static void set_end(void *user, struct xlacrt_comm *comm, int ok) { mpi_comm_end(user, ok); }

static void set_release(void *user) {
  mpi_comm_free(user);
  pthread_mutex_lock(&mpi_lock);
  live--;
  pthread_mutex_unlock(&mpi_lock);
}

static xlac_status *mpi_status(int rc, const char *what) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) snprintf(text, sizeof text, "error %d", rc);
  return xlac_status_create(XLAC_UNAVAILABLE, "xlac_mpi_client_create: %s: %s", what, text);
}

xlac_status *xlac_mpi_client_create(const xlac_client_options *opts, xlac_client **out_client) {
  static const char fn[] = "xlac_mpi_client_create";
  if (out_client) *out_client = NULL;
  if (!out_client) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: out_client is NULL", fn);
  xlac_client_options o = {0};
  if (opts) {
    size_t n = opts->struct_size && opts->struct_size < sizeof o ? opts->struct_size : sizeof o;
    memcpy(&o, opts, n);
  }
  o.struct_size = sizeof o;
  pthread_mutex_lock(&mpi_lock);
  int level, here, finalized = 0, rc;
  const char *what = "";
  MPI_Finalized(&finalized);
  xlac_status *s = NULL;
  if (finalized)
    s = xlac_status_create(XLAC_FAILED_PRECONDITION, "%s: MPI was finalized", fn);
  else if ((rc = mpi_comm_start(&level, &here, &what)) != MPI_SUCCESS)
    s = mpi_status(rc, what);
  initialized_here |= here;
  int size = 1, rank = 0;
  if (!s && (rc = MPI_Comm_size(MPI_COMM_WORLD, &size)) != MPI_SUCCESS) s = mpi_status(rc, "MPI_Comm_size");
  if (!s && (rc = MPI_Comm_rank(MPI_COMM_WORLD, &rank)) != MPI_SUCCESS) s = mpi_status(rc, "MPI_Comm_rank");
  int np = o.num_partitions > 0 ? o.num_partitions : 1;
  if (!s && (size % np != 0 || size > 4096))
    s = xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: %d MPI ranks do not make replicas of %d partitions%s", fn,
                           size, np, size > 4096 ? " (at most 4096 processes)" : "");
  int nr = size / np;
  if (!s && o.num_replicas > 0 && o.num_replicas != nr)
    s = xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: num_replicas is %d, but %d MPI ranks / %d partitions make %d",
                           fn, o.num_replicas, size, np, nr);
  MpiComm *m = NULL;
  if (!s) {
    char err[300];
    m = mpi_comm_new(MPI_COMM_WORLD, nr, np, level, err, sizeof err);
    if (!m)
      s = xlac_status_create(XLAC_UNAVAILABLE, "%s: %s", fn, err);
    else
      live++;
  }
  pthread_mutex_unlock(&mpi_lock);
  if (s) return s;

  char host[MPI_MAX_PROCESSOR_NAME] = "", desc[MPI_MAX_PROCESSOR_NAME + 64];
  int len = 0;
  MPI_Get_processor_name(host, &len);
  snprintf(desc, sizeof desc, "MPI rank %d of %d%s%s", rank, size, host[0] ? " on " : "", host);
  xlac_process_set set = {sizeof set, rank / np, rank % np, nr, np, desc, m, set_begin, set_end, set_release};
  /* (on failure the set is released: the communicator goes) */
  return xlac_client_create_in_set(&o, &set, out_client);
}

int xlac_mpi_launched(void) { return mpi_launched(); }

xlac_status *xlac_mpi_finalize(void) {
  xlac_status *s = NULL;
  pthread_mutex_lock(&mpi_lock);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (live > 0) {
    s = xlac_status_create(XLAC_FAILED_PRECONDITION,
                           "xlac_mpi_finalize: %d MPI client%s still alive (destroy the clients, their executables "
                           "and buffers first)", live, live == 1 ? " is" : "s are");
  } else if (initialized_here && !finalized) {
    int rc = MPI_Finalize();
    initialized_here = 0;
    if (rc != MPI_SUCCESS) {
      char text[MPI_MAX_ERROR_STRING];
      int len = 0;
      MPI_Error_string(rc, text, &len);
      s = xlac_status_create(XLAC_INTERNAL, "xlac_mpi_finalize: %s", text);
    }
  }
  pthread_mutex_unlock(&mpi_lock);
  return s;
}
