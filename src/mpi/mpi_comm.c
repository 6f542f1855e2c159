/*
 * mpi_comm.c - the runtime's communicator over MPI: the processes of a set
 * are the ranks of an MPI communicator, in other address spaces, maybe on
 * other machines.
 *
 * Collectives.  meet hands back copies: each member sends every other
 * member one message (a header and its buffers, described by one derived
 * datatype, so the buffers go out without being packed) and receives one
 * from each into scratch memory; leave has nothing left to wait for.  The
 * messages of a collective carry a tag made from its kind and group, so
 * that collectives of different groups never take each other's messages
 * (MPI keeps the messages of one tag between two ranks in order, which
 * matches the n-th meeting of a group with the n-th), and the header names
 * the execution, kind, group, meeting number, operand count and a digest
 * of the operand sizes and types: members that disagree all see it and
 * all fail, after every message has arrived, so the communicator stays
 * usable.  Large all_reduce and reduce_scatter do not meet: each member
 * folds a part of them ("reductions split among the members" below).
 *
 * send / recv.  A channel is a queue shared by the whole set (as in a
 * grid): the message of a send goes to the channel's home rank (channel
 * mod size), and a recv asks the home for the oldest message of its
 * execution on that channel.  Each rank runs a service thread that keeps
 * the queues of the channels it is home to; it also hears of other ranks'
 * failures.  This needs MPI_THREAD_MULTIPLE; without it send and recv
 * fail and failures are not passed on.
 *
 * Failures.  A rank whose execution fails sends every other rank's
 * service thread the number of that execution and how many times it had
 * met each (kind, group), i.e. which collective messages it sent.  A rank
 * waiting in that execution for a message the failed rank never sent (or
 * in a recv) gives up with an error naming that rank.  A transfer
 * given up may leave messages behind, and the ranks would no longer agree
 * on what comes next, so the communicator is then broken, on every rank:
 * the one that gives up tells the others, whose waits fail, and later
 * executions fail at once.  Ranks that fail together (operands that differ
 * between them, seen by all) leave it usable.  Nothing detects a deadlock
 * (a program that differs between ranks): that hangs, as MPI programs do.
 *
 * Waiting polls (MPI_Test) so that a failure elsewhere can interrupt it,
 * yielding the processor, and sleeping briefly after a long wait: ranks
 * are often more than cores.
 *
 * Every MPI call returns its error (MPI_ERRORS_RETURN on the duplicated
 * communicators), which becomes the collective's error message.
 */
#include "mpi/mpi_comm.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
  MAGIC = 0x786c6163, /* "xlac" */
  HDR = 8,            /* words of a collective's header */
  MAX_BLOCK = 1 << 30 /* bytes of one block of a datatype */
};
enum { TAG_PUT = 1, TAG_GET, TAG_ABORT, TAG_BROKEN, TAG_DONE };
enum { TAG_REPLY = 1 };

/* ---- the mailbox (the service thread's alone) ---- */

/* A message sent to a channel: its header and data as they came. */
typedef struct Parcel {
  int64_t seq;
  char *data;
  int len;
  struct Parcel *next;
} Parcel;

/* A recv waiting for a message. */
typedef struct Waiter {
  int64_t seq;
  int rank;
  struct Waiter *next;
} Waiter;

typedef struct Box {
  int64_t channel;
  Parcel *parcels, *last_parcel;
  Waiter *waiters, *last_waiter;
  struct Box *next;
} Box;

/* A reply on its way to a recv. */
typedef struct Outgoing {
  MPI_Request req;
  char *data;
  struct Outgoing *next;
} Outgoing;

struct MpiComm {
  xlacrt_comm comm; /* first: the runtime's view */
  MPI_Comm coll;    /* collectives */
  MPI_Comm req;     /* to the service threads: put, get, abort, broken, done */
  MPI_Comm reply;   /* from the service threads to recvs */
  int rank, size, tag_ub;
  int threaded;     /* a service thread runs */
  pthread_t service;
  pthread_mutex_t exec_lock; /* one execution at a time */
  int64_t exec_seq;          /* the execution running or last run (from 1) */
  atomic_llong abort_seq;    /* the latest execution another rank failed in */
  atomic_int abort_rank;     /* which */
  pthread_mutex_t fail_lock; /* guards fail_exec and fail_report */
  int64_t *fail_exec;        /* per rank: the execution it last failed in (0: none) */
  int64_t **fail_report;     /* per rank: its abort message (execution, count, (key, group, met) x count) */
  atomic_int broken;         /* given up on, here or elsewhere */
  pthread_mutex_t broken_lock; /* guards broken_msg */
  char broken_msg[200];      /* why */
  xlacrt_comm_seqs seqs; /* this rank's meetings per (kind, group) */
  char *scratch; /* received copies */
  size_t scratch_cap;
  /* the service thread's */
  Box *boxes;
  Outgoing *outgoing;
  int done; /* ranks whose communicator is gone */
};

static int fail(MpiComm *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(MpiComm *m, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m->comm.msg, sizeof m->comm.msg, fmt, ap);
  va_end(ap);
  return XLACRT_COMM_FAILED;
}

/* An MPI error code as the failure of `what`. */
static int fail_mpi(MpiComm *m, int err, const char *what) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(err, text, &len) != MPI_SUCCESS) snprintf(text, sizeof text, "error %d", err);
  return fail(m, "MPI: %s: %s", what, text);
}

/* The replica (and partition) of a rank, for messages. */
static void describe_rank(const MpiComm *m, int rank, char *buf, size_t n) {
  if (m->comm.num_partitions == 1)
    snprintf(buf, n, "replica %d", rank);
  else
    snprintf(buf, n, "replica %d partition %d", rank / m->comm.num_partitions, rank % m->comm.num_partitions);
}

static int aborted(MpiComm *m) {
  return atomic_load(&m->broken) || (m->threaded && atomic_load(&m->abort_seq) >= m->exec_seq);
}

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 33);
}

static uint64_t group_hash(int32_t n, const int32_t *ids) {
  uint64_t h = mix(0x67726f7570, (uint64_t)n);
  for (int k = 0; k < n; k++) h = mix(h, (uint64_t)ids[k]);
  return h;
}

/* Whether `rank` failed in this execution without sending its message of
   meeting `seq` of (key, group ghash): then it never will. */
static int never_sent(MpiComm *m, int rank, int64_t key, uint64_t ghash, int64_t seq) {
  int gone = 0;
  pthread_mutex_lock(&m->fail_lock);
  const int64_t *r = m->fail_report[rank];
  if (m->fail_exec[rank] >= m->exec_seq && r) {
    int64_t met = 0;
    for (int64_t i = 0; i < r[1]; i++)
      if (r[2 + 3 * i] == key && (uint64_t)r[3 + 3 * i] == ghash) met = r[4 + 3 * i];
    gone = met <= seq;
  }
  pthread_mutex_unlock(&m->fail_lock);
  return gone;
}

/* Records why the communicator is broken (the first reason stays);
   whether it was not broken before. */
static int set_broken(MpiComm *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int set_broken(MpiComm *m, const char *fmt, ...) {
  pthread_mutex_lock(&m->broken_lock);
  int first = !atomic_load(&m->broken);
  if (first) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->broken_msg, sizeof m->broken_msg, fmt, ap);
    va_end(ap);
    atomic_store(&m->broken, 1);
  }
  pthread_mutex_unlock(&m->broken_lock);
  return first;
}

/* This rank gives up on the communicator: every rank is told, so that
   none waits for it any more and none starts another execution.  The
   message carries the failure that made it give up (execution, rank), so
   that a rank it reaches first still names that rank. */
static void break_all(MpiComm *m, const char *why) {
  if (!set_broken(m, "%s", why) || !m->threaded) return;
  int64_t cause[2] = {atomic_load(&m->abort_seq), atomic_load(&m->abort_rank)};
  for (int r = 0; r < m->size; r++)
    if (r != m->rank) MPI_Send(cause, 2, MPI_INT64_T, r, TAG_BROKEN, m->req);
}

/* The error of a wait that another rank's failure ended: `rank` (-1: the
   latest one heard of) failed in this execution (it reports why), or the
   communicator broke.  Either way it is broken from now on. */
static int peer_failed(MpiComm *m, int rank) {
  int r;
  if (rank < 0 && m->threaded && atomic_load(&m->abort_seq) >= m->exec_seq) rank = atomic_load(&m->abort_rank);
  if (rank >= 0) {
    char who[64];
    describe_rank(m, rank, who, sizeof who);
    r = fail(m, "%s (MPI rank %d) failed in this execution; it reports why", who, rank);
  } else {
    pthread_mutex_lock(&m->broken_lock);
    r = fail(m, "the MPI communicator cannot be used any more: %s", m->broken_msg);
    pthread_mutex_unlock(&m->broken_lock);
  }
  char why[160];
  describe_rank(m, m->rank, why, sizeof why);
  size_t k = strlen(why);
  snprintf(why + k, sizeof why - k, " gave up an execution that another rank's failure ended");
  break_all(m, why);
  return r;
}

void mpi_comm_backoff(unsigned *idle) {
  unsigned i = (*idle)++;
  if (i < 64) return;
  if (i < 1024) {
    sched_yield();
    return;
  }
  struct timespec ts = {0, i < 20000 ? 100000 : 1000000};
  nanosleep(&ts, NULL);
}

/* Completes every request of reqs[0..n) (those already MPI_REQUEST_NULL
   count as done), giving up when give_up(ctx, m) says so: it is asked
   while some rank has failed in this execution or the communicator is
   broken.  Returns MPI_SUCCESS, the first error of a request (with errs[i]
   set per request, the others still completed), or -1 when it gave up
   (requests left pending). */
static int wait_all(MpiComm *m, int n, MPI_Request *reqs, MPI_Status *st, int *errs,
                    int (*give_up)(MpiComm *m, const void *ctx), const void *ctx) {
  int left = 0, first = MPI_SUCCESS;
  for (int i = 0; i < n; i++) {
    errs[i] = MPI_SUCCESS;
    left += reqs[i] != MPI_REQUEST_NULL;
  }
  unsigned idle = 0;
  while (left > 0) {
    int progressed = 0;
    for (int i = 0; i < n; i++) {
      if (reqs[i] == MPI_REQUEST_NULL) continue;
      int flag = 0;
      int rc = MPI_Test(&reqs[i], &flag, &st[i]);
      if (rc != MPI_SUCCESS) {
        /* a failed request is complete (freed by MPI) */
        errs[i] = rc;
        if (first == MPI_SUCCESS) first = rc;
        reqs[i] = MPI_REQUEST_NULL;
        flag = 1;
      }
      if (flag) {
        left--;
        progressed = 1;
      }
    }
    if (left == 0) break;
    if (aborted(m) && (atomic_load(&m->broken) || give_up(m, ctx))) return -1;
    if (progressed)
      idle = 0;
    else
      mpi_comm_backoff(&idle);
  }
  return first;
}

/* Gives up on pending requests: receives are cancelled, sends left to MPI;
   either may leave messages behind (the caller breaks the communicator). */
static void abandon(MpiComm *m, int n, MPI_Request *reqs, int recvs) {
  for (int i = 0; i < n; i++) {
    if (reqs[i] == MPI_REQUEST_NULL) continue;
    if (i < recvs && MPI_Cancel(&reqs[i]) == MPI_SUCCESS) {
      MPI_Wait(&reqs[i], MPI_STATUS_IGNORE);
    } else {
      MPI_Request_free(&reqs[i]);
    }
  }
}

/* ---- datatypes over several buffers ---- */

/* Pieces of memory one message covers (absolute addresses, MPI_BOTTOM),
   each at most MAX_BLOCK bytes. */
typedef struct Blocks {
  int n, cap;
  int *len;
  MPI_Aint *disp;
  int64_t bytes;
  int oom;
} Blocks;

static void blocks_add(Blocks *b, const void *p, int64_t bytes) {
  b->bytes += bytes;
  for (int64_t off = 0; off < bytes && !b->oom; off += MAX_BLOCK) {
    if (b->n == b->cap) {
      int cap = b->cap ? 2 * b->cap : 16;
      int *len = realloc(b->len, sizeof(int) * (size_t)cap);
      if (len) b->len = len;
      MPI_Aint *disp = realloc(b->disp, sizeof(MPI_Aint) * (size_t)cap);
      if (disp) b->disp = disp;
      if (!len || !disp) {
        b->oom = 1;
        return;
      }
      b->cap = cap;
    }
    MPI_Get_address((const char *)p + off, &b->disp[b->n]);
    b->len[b->n++] = (int)(bytes - off < MAX_BLOCK ? bytes - off : MAX_BLOCK);
  }
}

static void blocks_free(Blocks *b) {
  free(b->len);
  free(b->disp);
  memset(b, 0, sizeof *b);
}

/* The committed datatype of b (MPI_BYTE pieces). */
static int blocks_type(Blocks *b, MPI_Datatype *t) {
  int rc = MPI_Type_create_hindexed(b->n, b->len, b->disp, MPI_BYTE, t);
  if (rc == MPI_SUCCESS) rc = MPI_Type_commit(t);
  return rc;
}

/* ---- collectives ---- */

/* Scratch memory of at least n bytes (kept for the next collective). */
static char *scratch(MpiComm *m, size_t n) {
  if (n <= m->scratch_cap) return m->scratch;
  free(m->scratch);
  m->scratch = aligned_alloc(64, (n + 63) / 64 * 64);
  m->scratch_cap = m->scratch ? n : 0;
  return m->scratch;
}

/* Scratch held after a collective at most this large (more is freed). */
enum { SCRATCH_KEEP = 64 << 20 };

/* What a meeting waits for: a message from each other member. */
typedef struct Pending {
  int n, me;
  const int32_t *ids;
  const MPI_Request *recvs; /* per other member, in order */
  int64_t key, seq;
  uint64_t ghash;
  int gone; /* the member given up on */
} Pending;

/* A member that failed without sending its message is given up on; the
   others' messages still come (they may have failed after sending). */
static int meet_give_up(MpiComm *m, const void *ctx) {
  Pending *p = (Pending *)ctx;
  for (int k = 0, q = 0; k < p->n; k++) {
    if (k == p->me) continue;
    if (p->recvs[q++] != MPI_REQUEST_NULL && never_sent(m, p->ids[k], p->key, p->ghash, p->seq)) {
      p->gone = p->ids[k];
      return 1;
    }
  }
  return 0;
}

/* Checks the message that came from `rank` (the errors of its receive and
   of this rank's send to it, its status, its header h against this rank's
   hdr, `data` bytes expected after the header). */
static int check_message(MpiComm *m, int rank, int err_recv, int err_send, const MPI_Status *st, const int64_t *h,
                         const int64_t *hdr, int64_t data) {
  char who[64];
  describe_rank(m, rank, who, sizeof who);
  if (err_recv != MPI_SUCCESS || err_send != MPI_SUCCESS) {
    int e = err_recv != MPI_SUCCESS ? err_recv : err_send, cls = 0;
    MPI_Error_class(e, &cls);
    return cls == MPI_ERR_TRUNCATE ? fail(m, "operands have different sizes on this process and %s", who)
                                   : fail_mpi(m, e, "a collective's transfer");
  }
  MPI_Count count = 0;
  MPI_Get_elements_x(st, MPI_BYTE, &count);
  if (count < (MPI_Count)(HDR * sizeof(int64_t)) || h[0] != MAGIC)
    return fail(m, "a malformed collective message from %s", who);
  if (h[1] != hdr[1])
    return fail(m, "%s is in another execution (every rank must run the same executions in the same order)", who);
  if (h[2] != hdr[2] || h[3] != hdr[3] || h[4] != hdr[4])
    return fail(m, "%s reached a different collective (mismatched collectives, or operands of different sizes?)",
                who);
  if (h[5] != hdr[5]) return fail(m, "processes of a group passed different operand counts to a collective");
  if (h[6] != hdr[6] || h[7] != hdr[7] || count != (MPI_Count)(HDR * sizeof(int64_t)) + data)
    return fail(m, "operands have different types on this process and %s", who);
  return XLACRT_COMM_OK;
}

static int mpi_meet(xlacrt_comm *c, int64_t key, int32_t n, const int32_t *ids, int32_t me, int32_t nbufs,
                    const void *const *bufs, const int64_t *bytes, const int64_t *sigs, const void **peers) {
  MpiComm *m = (MpiComm *)c;
  if (atomic_load(&m->broken)) return peer_failed(m, -1);
  int64_t total = 0;
  uint64_t digest = 0x6d656574;
  for (int i = 0; i < nbufs; i++) {
    total += bytes[i];
    digest = mix(mix(digest, (uint64_t)bytes[i]), (uint64_t)(sigs ? sigs[i] : 0));
  }
  uint64_t ghash = group_hash(n, ids);
  int64_t seq = xlacrt_comm_seq_next(&m->seqs, key, ids, n);
  if (seq < 0) return fail(m, "out of memory joining a collective");
  int64_t hdr[HDR] = {MAGIC, m->exec_seq, key, (int64_t)ghash, seq, nbufs, total, (int64_t)digest};
  int tag = 1 + (int)(mix(ghash, (uint64_t)key) % (uint64_t)m->tag_ub);

  /* per other member: its header, then its data at a 64-byte boundary */
  int64_t stride = (total + 63) / 64 * 64;
  int others = n - 1;
  char *base = scratch(m, (size_t)others * (sizeof hdr + (size_t)stride) + 64);
  MPI_Request *reqs = calloc((size_t)(2 * others + 1), sizeof *reqs);
  MPI_Status *st = calloc((size_t)(2 * others + 1), sizeof *st);
  int *errs = calloc((size_t)(2 * others + 1), sizeof *errs);
  Blocks sb = {0};
  blocks_add(&sb, hdr, sizeof hdr);
  for (int i = 0; i < nbufs; i++)
    if (bytes[i] > 0) blocks_add(&sb, bufs[i], bytes[i]);
  int rc = MPI_SUCCESS;
  const char *what = "";
  if (!base || !reqs || !st || !errs || sb.oom) {
    free(reqs);
    free(st);
    free(errs);
    blocks_free(&sb);
    return fail(m, "out of memory joining a collective of %lld bytes", (long long)total);
  }
  char *data0 = base + (size_t)others * sizeof hdr;
  data0 += (64 - (uintptr_t)data0 % 64) % 64;
  for (int i = 0; i < 2 * others; i++) reqs[i] = MPI_REQUEST_NULL;
  /* receives first, then sends */
  for (int k = 0, q = 0; k < n && rc == MPI_SUCCESS; k++) {
    if (k == me) continue;
    Blocks rb = {0};
    blocks_add(&rb, base + (size_t)q * sizeof hdr, sizeof hdr);
    blocks_add(&rb, data0 + (size_t)q * (size_t)stride, total);
    MPI_Datatype t;
    if (rb.oom) {
      blocks_free(&rb);
      rc = MPI_ERR_NO_MEM;
      what = "describing a receive";
      break;
    }
    rc = blocks_type(&rb, &t);
    what = "creating a datatype";
    if (rc == MPI_SUCCESS) {
      rc = MPI_Irecv(MPI_BOTTOM, 1, t, ids[k], tag, m->coll, &reqs[q]);
      what = "receiving a collective's data";
      MPI_Type_free(&t);
    }
    blocks_free(&rb);
    q++;
  }
  MPI_Datatype stype = MPI_DATATYPE_NULL;
  if (rc == MPI_SUCCESS) {
    rc = blocks_type(&sb, &stype);
    what = "creating a datatype";
  }
  for (int k = 0, q = 0; k < n && rc == MPI_SUCCESS; k++) {
    if (k == me) continue;
    rc = MPI_Isend(MPI_BOTTOM, 1, stype, ids[k], tag, m->coll, &reqs[others + q]);
    what = "sending a collective's data";
    q++;
  }
  if (stype != MPI_DATATYPE_NULL) MPI_Type_free(&stype);
  blocks_free(&sb);
  int result = XLACRT_COMM_OK;
  if (rc != MPI_SUCCESS) {
    /* posted requests cannot be completed reliably */
    abandon(m, 2 * others, reqs, others);
    result = fail_mpi(m, rc, what);
    break_all(m, "an MPI error in the middle of a collective");
  } else {
    Pending pend = {n, me, ids, reqs, key, seq, ghash, -1};
    rc = wait_all(m, 2 * others, reqs, st, errs, meet_give_up, &pend);
    if (rc == -1) {
      abandon(m, 2 * others, reqs, others);
      result = peer_failed(m, pend.gone);
    }
  }
  /* every message has arrived (or failed): check what came */
  for (int k = 0, q = 0; k < n && result == XLACRT_COMM_OK; k++) {
    if (k == me) continue;
    result = check_message(m, ids[k], errs[q], errs[others + q], &st[q],
                           (const int64_t *)(base + (size_t)q * sizeof hdr), hdr, total);
    int64_t off = 0;
    for (int i = 0; i < nbufs && result == XLACRT_COMM_OK; i++) {
      peers[k * nbufs + i] = data0 + (size_t)q * (size_t)stride + (size_t)off;
      off += bytes[i];
    }
    q++;
  }
  if (result == XLACRT_COMM_OK)
    for (int i = 0; i < nbufs; i++) peers[me * nbufs + i] = bufs[i];
  free(reqs);
  free(st);
  free(errs);
  return result;
}

static void mpi_leave(xlacrt_comm *c) {
  MpiComm *m = (MpiComm *)c;
  /* the copies are done with; a large scratch is not kept */
  if (m->scratch_cap > SCRATCH_KEEP) {
    free(m->scratch);
    m->scratch = NULL;
    m->scratch_cap = 0;
  }
}

/* ---- reductions split among the members ----
 * all_reduce and reduce_scatter of at least SPLIT_MIN bytes do not go
 * through meet: member k folds part k of every operand -- the members'
 * parts sent to it, in group order, with the compiler's combiner, so each
 * element is folded exactly as the interpreter folds it -- and for
 * all_reduce sends its folded part to every other member.  Each rank sends
 * and receives (n - 1) / n of the operands once (reduce_scatter) or twice
 * (all_reduce) instead of n - 1 whole copies, and folds 1/n of them.  The
 * first messages carry the meeting's header (its kind marked as split),
 * so members that disagree, about the operands or about taking this way,
 * all fail there. */
enum { SPLIT_MIN = 1 << 16, SPLIT_FLAG = 1 << 20, FOLD_CHUNK = 1 << 15 };

static int64_t value_elements(const xlacrt_coll_value *v) {
  int64_t n = 1;
  for (int64_t d = 0; d < v->rank; d++) n *= v->dims[d];
  return n;
}

/* Part k of value v of d for a group of n: its pieces in the operand (rows
   of `len` elements, `rows` of them, `stride` elements apart, from
   element `first`), and where it goes in the result (element `at`). */
typedef struct Part {
  int64_t first, rows, len, stride, at;
} Part;

static Part part_of(const xlacrt_coll *d, const xlacrt_coll_value *v, int n, int k) {
  Part p = {0, 1, 0, 0, 0};
  if (d->kind == XLACRT_COLL_ALL_REDUCE) {
    int64_t count = value_elements(v), lo = count * k / n, hi = count * (k + 1) / n;
    p.first = p.at = lo;
    p.len = hi - lo;
  } else { /* reduce_scatter: slice k of dimension d->dim, in every row */
    int64_t outer = 1, inner = 1, dim = v->dims[d->dim], part = dim / n;
    for (int64_t i = 0; i < d->dim; i++) outer *= v->dims[i];
    for (int64_t i = d->dim + 1; i < v->rank; i++) inner *= v->dims[i];
    p.first = (int64_t)k * part * inner;
    p.rows = outer;
    p.len = part * inner;
    p.stride = dim * inner;
  }
  return p;
}

/* One value's fold: its n parts (group order) into out. */
typedef struct Fold {
  xlacrt_combine_fn combine;
  const void **peers;
  int64_t n, count, out_eb;
  char *out;
  int64_t first_task;
} Fold;

typedef struct FoldJob {
  Fold *folds;
  int nfolds;
} FoldJob;

static void fold_task(int64_t t, void *ctx) {
  const FoldJob *j = ctx;
  int f = 0;
  while (f + 1 < j->nfolds && j->folds[f + 1].first_task <= t) f++;
  const Fold *fo = &j->folds[f];
  int64_t off = (t - fo->first_task) * FOLD_CHUNK;
  int64_t len = fo->count - off < FOLD_CHUNK ? fo->count - off : FOLD_CHUNK;
  if (len > 0) fo->combine(fo->peers, fo->n, 1, off, fo->out + off * fo->out_eb, len);
}

static int never_gives_up(MpiComm *m, const void *ctx) { return 0; }

static int mpi_collective(xlacrt_comm *c, xlacrt_pool *pool, const xlacrt_coll *d, int32_t n, const int32_t *ids,
                          int32_t me, const void *const *ins, void *const *outs, const int32_t *roots) {
  MpiComm *m = (MpiComm *)c;
  int nv = (int)d->nvals;
  int scatter = d->kind == XLACRT_COLL_REDUCE_SCATTER;
  if ((d->kind != XLACRT_COLL_ALL_REDUCE && !scatter) || nv < 1) return XLACRT_COMM_DECLINED;
  int64_t total = 0, mine = 0; /* bytes of the operands, of this member's parts */
  uint64_t digest = 0x6d656574;
  for (int j = 0; j < nv; j++) {
    const xlacrt_coll_value *v = &d->vals[j];
    if (!v->combine) return XLACRT_COMM_DECLINED;
    if (scatter && (d->dim < 0 || d->dim >= v->rank || v->dims[d->dim] % n != 0 || v->dims[d->dim] / n != d->count))
      return XLACRT_COMM_DECLINED; /* the usual way reports it */
    int64_t bytes = value_elements(v) * v->elem_bytes;
    Part p = part_of(d, v, n, me);
    total += bytes;
    mine += p.rows * p.len * v->elem_bytes;
    digest = mix(mix(digest, (uint64_t)bytes), (uint64_t)v->sig);
  }
  if (total < SPLIT_MIN) return XLACRT_COMM_DECLINED;
  if (atomic_load(&m->broken)) return peer_failed(m, -1);
  uint64_t ghash = group_hash(n, ids);
  int64_t seq = xlacrt_comm_seq_next(&m->seqs, d->kind, ids, n);
  if (seq < 0) return fail(m, "out of memory joining a collective");
  int64_t hdr[HDR] = {MAGIC, m->exec_seq, d->kind | SPLIT_FLAG, (int64_t)ghash, seq, nv, total, (int64_t)digest};
  int tag = 1 + (int)(mix(ghash, (uint64_t)d->kind) % (uint64_t)m->tag_ub);

  /* scratch: per other member its header and its parts for this member
     (contiguous, value after value); then this member's own parts when
     they are not contiguous in its operands (reduce_scatter with rows) */
  int others = n - 1;
  int64_t stride = (mine + 63) / 64 * 64;
  int own_copy = scatter && part_of(d, &d->vals[0], n, me).rows > 1;
  size_t need = (size_t)others * (sizeof hdr + (size_t)stride) + (own_copy ? (size_t)stride : 0) + 128;
  char *base = scratch(m, need);
  MPI_Request *reqs = calloc((size_t)(2 * n + 1), sizeof *reqs);
  MPI_Status *st = calloc((size_t)(2 * n + 1), sizeof *st);
  int *errs = calloc((size_t)(2 * n + 1), sizeof *errs);
  const void **peers = calloc((size_t)(n * nv + 1), sizeof *peers);
  Fold *folds = calloc((size_t)nv, sizeof *folds);
  if (!base || !reqs || !st || !errs || !peers || !folds) {
    free(reqs);
    free(st);
    free(errs);
    free(peers);
    free(folds);
    return fail(m, "out of memory joining a collective of %lld bytes", (long long)total);
  }
  char *data0 = base + (size_t)others * sizeof hdr;
  data0 += (64 - (uintptr_t)data0 % 64) % 64;
  char *own = data0 + (size_t)others * (size_t)stride;
  for (int i = 0; i < 2 * n; i++) reqs[i] = MPI_REQUEST_NULL;

  /* 1. every member's part k to member k */
  int rc = MPI_SUCCESS, result = XLACRT_COMM_OK;
  const char *what = "";
  for (int k = 0, q = 0; k < n && rc == MPI_SUCCESS; k++) {
    if (k == me) continue;
    Blocks rb = {0};
    blocks_add(&rb, base + (size_t)q * sizeof hdr, sizeof hdr);
    blocks_add(&rb, data0 + (size_t)q * (size_t)stride, mine);
    MPI_Datatype t;
    rc = rb.oom ? MPI_ERR_NO_MEM : blocks_type(&rb, &t);
    what = "describing a receive";
    if (rc == MPI_SUCCESS) {
      rc = MPI_Irecv(MPI_BOTTOM, 1, t, ids[k], tag, m->coll, &reqs[q]);
      what = "receiving a collective's data";
      MPI_Type_free(&t);
    }
    blocks_free(&rb);
    q++;
  }
  for (int k = 0, q = 0; k < n && rc == MPI_SUCCESS; k++) {
    if (k == me) continue;
    Blocks sb = {0};
    blocks_add(&sb, hdr, sizeof hdr);
    for (int j = 0; j < nv; j++) {
      const xlacrt_coll_value *v = &d->vals[j];
      Part p = part_of(d, v, n, k);
      for (int64_t r = 0; r < p.rows; r++)
        blocks_add(&sb, (const char *)ins[j] + (p.first + r * p.stride) * v->elem_bytes, p.len * v->elem_bytes);
    }
    MPI_Datatype t;
    rc = sb.oom ? MPI_ERR_NO_MEM : blocks_type(&sb, &t);
    what = "describing a send";
    if (rc == MPI_SUCCESS) {
      rc = MPI_Isend(MPI_BOTTOM, 1, t, ids[k], tag, m->coll, &reqs[others + q]);
      what = "sending a collective's data";
      MPI_Type_free(&t);
    }
    blocks_free(&sb);
    q++;
  }
  if (rc != MPI_SUCCESS) {
    abandon(m, 2 * others, reqs, others);
    result = fail_mpi(m, rc, what);
    break_all(m, "an MPI error in the middle of a collective");
  } else {
    Pending pend = {n, me, ids, reqs, d->kind, seq, ghash, -1};
    rc = wait_all(m, 2 * others, reqs, st, errs, meet_give_up, &pend);
    if (rc == -1) {
      abandon(m, 2 * others, reqs, others);
      result = peer_failed(m, pend.gone);
    }
  }
  for (int k = 0, q = 0; k < n && result == XLACRT_COMM_OK; k++) {
    if (k == me) continue;
    result = check_message(m, ids[k], errs[q], errs[others + q], &st[q],
                           (const int64_t *)(base + (size_t)q * sizeof hdr), hdr, mine);
    q++;
  }

  /* 2. this member folds its part of every value */
  if (result == XLACRT_COMM_OK) {
    int64_t off = 0, tasks = 0; /* in the received parts */
    for (int j = 0; j < nv; j++) {
      const xlacrt_coll_value *v = &d->vals[j];
      Part p = part_of(d, v, n, me);
      for (int k = 0, q = 0; k < n; k++) {
        if (k != me) {
          peers[j * n + k] = data0 + (size_t)q * (size_t)stride + off;
          q++;
        } else if (own_copy) {
          char *o = own + off;
          for (int64_t r = 0; r < p.rows; r++)
            memcpy(o + r * p.len * v->elem_bytes, (const char *)ins[j] + (p.first + r * p.stride) * v->elem_bytes,
                   (size_t)(p.len * v->elem_bytes));
          peers[j * n + k] = o;
        } else {
          peers[j * n + k] = (const char *)ins[j] + p.first * v->elem_bytes;
        }
      }
      int64_t count = p.rows * p.len;
      folds[j] = (Fold){v->combine, peers + j * n, n, count, v->out_elem_bytes,
                        (char *)outs[j] + p.at * v->out_elem_bytes, tasks};
      tasks += (count + FOLD_CHUNK - 1) / FOLD_CHUNK;
      off += count * v->elem_bytes;
    }
    FoldJob job = {folds, nv};
    xlacrt_parallel_for(pool, tasks, fold_task, &job);
  }

  /* 3. all_reduce: every member's folded part to everybody */
  if (result == XLACRT_COMM_OK && !scatter) {
    for (int i = 0; i < 2 * n; i++) reqs[i] = MPI_REQUEST_NULL;
    for (int k = 0, q = 0; k < n && rc == MPI_SUCCESS; k++) {
      if (k == me) continue;
      Blocks rb = {0}, sb = {0};
      for (int j = 0; j < nv; j++) {
        const xlacrt_coll_value *v = &d->vals[j];
        Part theirs = part_of(d, v, n, k), ours = part_of(d, v, n, me);
        blocks_add(&rb, (char *)outs[j] + theirs.at * v->out_elem_bytes, theirs.len * v->out_elem_bytes);
        blocks_add(&sb, (char *)outs[j] + ours.at * v->out_elem_bytes, ours.len * v->out_elem_bytes);
      }
      MPI_Datatype rt, stt;
      rc = rb.oom || sb.oom ? MPI_ERR_NO_MEM : blocks_type(&rb, &rt);
      what = "describing a transfer";
      if (rc == MPI_SUCCESS) {
        rc = MPI_Irecv(MPI_BOTTOM, 1, rt, ids[k], tag, m->coll, &reqs[q]);
        what = "receiving a collective's data";
        MPI_Type_free(&rt);
      }
      if (rc == MPI_SUCCESS) rc = blocks_type(&sb, &stt);
      if (rc == MPI_SUCCESS) {
        rc = MPI_Isend(MPI_BOTTOM, 1, stt, ids[k], tag, m->coll, &reqs[others + q]);
        what = "sending a collective's data";
        MPI_Type_free(&stt);
      }
      blocks_free(&rb);
      blocks_free(&sb);
      q++;
    }
    if (rc != MPI_SUCCESS) {
      abandon(m, 2 * others, reqs, others);
      result = fail_mpi(m, rc, what);
      break_all(m, "an MPI error in the middle of a collective");
    } else if ((rc = wait_all(m, 2 * others, reqs, st, errs, never_gives_up, NULL)) == -1) {
      abandon(m, 2 * others, reqs, others);
      result = peer_failed(m, -1);
    } else if (rc != MPI_SUCCESS) {
      result = fail_mpi(m, rc, "a collective's transfer");
      break_all(m, "an MPI error in the middle of a collective");
    }
  }
  free(reqs);
  free(st);
  free(errs);
  free(peers);
  free(folds);
  mpi_leave(c);
  return result;
}

/* ---- send / recv ---- */

static int home(const MpiComm *m, int64_t channel) { return (int)(((channel % m->size) + m->size) % m->size); }

static int need_thread(MpiComm *m, const char *what) {
  return fail(m, "%s across processes needs MPI initialized with MPI_THREAD_MULTIPLE", what);
}

/* A message's header: magic, execution, channel, count, sizes, types. */
static int64_t *message_header(MpiComm *m, int64_t channel, int32_t nbufs, const int64_t *bytes,
                               const int64_t *sigs, int64_t *total) {
  int64_t *h = calloc((size_t)(4 + 2 * nbufs), sizeof(int64_t));
  if (!h) return NULL;
  h[0] = MAGIC;
  h[1] = m->exec_seq;
  h[2] = channel;
  h[3] = nbufs;
  *total = (int64_t)sizeof(int64_t) * (4 + 2 * nbufs);
  for (int i = 0; i < nbufs; i++) {
    h[4 + i] = bytes[i];
    h[4 + nbufs + i] = sigs ? sigs[i] : 0;
    *total += bytes[i];
  }
  return h;
}

static int mpi_send(xlacrt_comm *c, int64_t channel, int32_t nbufs, const void *const *bufs, const int64_t *bytes,
                    const int64_t *sigs) {
  MpiComm *m = (MpiComm *)c;
  if (!m->threaded) return need_thread(m, "send");
  if (aborted(m)) return peer_failed(m, -1);
  int64_t len;
  int64_t *h = message_header(m, channel, nbufs, bytes, sigs, &len);
  if (!h) return fail(m, "out of memory sending a message");
  if (len > INT_MAX) {
    free(h);
    return fail(m, "a message of %lld bytes is too large to send across processes", (long long)len);
  }
  Blocks b = {0};
  blocks_add(&b, h, (int64_t)sizeof(int64_t) * (4 + 2 * nbufs));
  for (int i = 0; i < nbufs; i++)
    if (bytes[i] > 0) blocks_add(&b, bufs[i], bytes[i]);
  int result = XLACRT_COMM_OK;
  MPI_Datatype t;
  int rc = b.oom ? MPI_ERR_NO_MEM : blocks_type(&b, &t);
  if (rc == MPI_SUCCESS) {
    /* the home's service thread takes it soon, whatever it is doing */
    rc = MPI_Send(MPI_BOTTOM, 1, t, home(m, channel), TAG_PUT, m->req);
    MPI_Type_free(&t);
  }
  if (rc != MPI_SUCCESS) result = fail_mpi(m, rc, "sending a message");
  blocks_free(&b);
  free(h);
  return result;
}

/* Any failure in the execution ends a recv: the message's sender is not
   known. */
static int recv_give_up(MpiComm *m, const void *ctx) { return 1; }

static int mpi_recv(xlacrt_comm *c, int64_t channel, int32_t nbufs, void *const *bufs, const int64_t *bytes,
                    const int64_t *sigs) {
  MpiComm *m = (MpiComm *)c;
  if (!m->threaded) return need_thread(m, "recv");
  if (aborted(m)) return peer_failed(m, -1);
  int64_t len;
  int64_t *want = message_header(m, channel, nbufs, bytes, sigs, &len);
  int64_t *got = calloc((size_t)(4 + 2 * nbufs), sizeof(int64_t));
  if (!want || !got) {
    free(want);
    free(got);
    return fail(m, "out of memory receiving a message");
  }
  if (len > INT_MAX) {
    free(want);
    free(got);
    return fail(m, "a message of %lld bytes is too large to receive across processes", (long long)len);
  }
  /* the message lands in the results directly, its header in `got` */
  Blocks b = {0};
  blocks_add(&b, got, (int64_t)sizeof(int64_t) * (4 + 2 * nbufs));
  for (int i = 0; i < nbufs; i++)
    if (bytes[i] > 0) blocks_add(&b, bufs[i], bytes[i]);
  MPI_Datatype t;
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Status st;
  int err = MPI_SUCCESS;
  int rc = b.oom ? MPI_ERR_NO_MEM : blocks_type(&b, &t);
  const char *what = "describing a message";
  if (rc == MPI_SUCCESS) {
    rc = MPI_Irecv(MPI_BOTTOM, 1, t, home(m, channel), TAG_REPLY, m->reply, &req);
    what = "receiving a message";
    MPI_Type_free(&t);
  }
  if (rc == MPI_SUCCESS) {
    int64_t ask[2] = {m->exec_seq, channel};
    rc = MPI_Send(ask, 2, MPI_INT64_T, home(m, channel), TAG_GET, m->req);
    what = "asking for a message";
  }
  blocks_free(&b);
  int result = XLACRT_COMM_OK;
  if (rc != MPI_SUCCESS) {
    if (req != MPI_REQUEST_NULL) abandon(m, 1, &req, 1);
    result = fail_mpi(m, rc, what);
    if (req != MPI_REQUEST_NULL) break_all(m, "an MPI error in the middle of a recv");
  } else if ((rc = wait_all(m, 1, &req, &st, &err, recv_give_up, NULL)) == -1) {
    /* the home may still send the message, to nobody */
    abandon(m, 1, &req, 1);
    result = peer_failed(m, -1);
  } else if (err != MPI_SUCCESS) {
    int cls = 0;
    MPI_Error_class(err, &cls);
    result = cls == MPI_ERR_TRUNCATE ? fail(m, "the message received does not have the types of the recv's results")
                                     : fail_mpi(m, err, "receiving a message");
  } else {
    int count = 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    if (count < 4 * (int)sizeof(int64_t) || got[0] != MAGIC) {
      result = fail(m, "a malformed message on channel %lld", (long long)channel);
    } else if (got[3] != nbufs) {
      result = fail(m, "recv expects %d values but the matching send passed %lld", nbufs, (long long)got[3]);
    } else {
      for (int i = 0; i < nbufs && result == XLACRT_COMM_OK; i++)
        if (got[4 + i] != want[4 + i] || got[4 + nbufs + i] != want[4 + nbufs + i])
          result = fail(m, "value %d received has a different type than result %d", i, i);
      if (result == XLACRT_COMM_OK && count != len) result = fail(m, "a malformed message on channel %lld", (long long)channel);
    }
  }
  free(want);
  free(got);
  return result;
}

static const xlacrt_comm_ops mpi_ops = {mpi_meet, mpi_leave, mpi_send, mpi_recv, mpi_collective};

/* ---- the service thread ---- */

static Box *get_box(MpiComm *m, int64_t channel) {
  for (Box *b = m->boxes; b; b = b->next)
    if (b->channel == channel) return b;
  Box *b = calloc(1, sizeof *b);
  if (!b) return NULL;
  b->channel = channel;
  b->next = m->boxes;
  m->boxes = b;
  return b;
}

/* Hands a parcel to a recv (the parcel's memory goes with the send). */
static void deliver(MpiComm *m, Parcel *p, int rank) {
  Outgoing *o = calloc(1, sizeof *o);
  int rc = o ? MPI_Isend(p->data, p->len, MPI_BYTE, rank, TAG_REPLY, m->reply, &o->req) : MPI_ERR_NO_MEM;
  if (rc != MPI_SUCCESS) {
    /* the recv waits forever unless its execution fails: nothing better */
    free(o);
    free(p->data);
  } else {
    o->data = p->data;
    o->next = m->outgoing;
    m->outgoing = o;
  }
  free(p);
}

/* The oldest parcel of execution seq in b (unlinked), or NULL. */
static Parcel *take_parcel(Box *b, int64_t seq) {
  Parcel *prev = NULL;
  for (Parcel *p = b->parcels; p; prev = p, p = p->next)
    if (p->seq == seq) {
      if (prev)
        prev->next = p->next;
      else
        b->parcels = p->next;
      if (b->last_parcel == p) b->last_parcel = prev;
      return p;
    }
  return NULL;
}

static Waiter *take_waiter(Box *b, int64_t seq) {
  Waiter *prev = NULL;
  for (Waiter *w = b->waiters; w; prev = w, w = w->next)
    if (w->seq == seq) {
      if (prev)
        prev->next = w->next;
      else
        b->waiters = w->next;
      if (b->last_waiter == w) b->last_waiter = prev;
      return w;
    }
  return NULL;
}

static void handle_put(MpiComm *m, char *data, int len) {
  const int64_t *h = (const int64_t *)data;
  Box *b = len >= 4 * (int)sizeof(int64_t) ? get_box(m, h[2]) : NULL;
  Parcel *p = b ? calloc(1, sizeof *p) : NULL;
  if (!p) {
    free(data);
    return;
  }
  p->seq = h[1];
  p->data = data;
  p->len = len;
  Waiter *w = take_waiter(b, p->seq);
  if (w) {
    deliver(m, p, w->rank);
    free(w);
    return;
  }
  if (b->last_parcel)
    b->last_parcel->next = p;
  else
    b->parcels = p;
  b->last_parcel = p;
}

static void handle_get(MpiComm *m, const int64_t *ask, int rank) {
  Box *b = get_box(m, ask[1]);
  if (!b) return;
  Parcel *p = take_parcel(b, ask[0]);
  if (p) {
    deliver(m, p, rank);
    return;
  }
  Waiter *w = calloc(1, sizeof *w);
  if (!w) return;
  w->seq = ask[0];
  w->rank = rank;
  if (b->last_waiter)
    b->last_waiter->next = w;
  else
    b->waiters = w;
  b->last_waiter = w;
}

/* Completed replies are freed; with all, the rest are given up on. */
static void reap_outgoing(MpiComm *m, int all) {
  Outgoing **pp = &m->outgoing;
  while (*pp) {
    Outgoing *o = *pp;
    int flag = 0;
    if (MPI_Test(&o->req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) flag = 1;
    if (!flag && all) {
      MPI_Cancel(&o->req);
      MPI_Request_free(&o->req);
      flag = 1;
    }
    if (flag) {
      *pp = o->next;
      free(o->data);
      free(o);
    } else {
      pp = &o->next;
    }
  }
}

static void *service_main(void *arg) {
  MpiComm *m = arg;
  unsigned idle = 0;
  while (m->done < m->size) {
    reap_outgoing(m, 0);
    int flag = 0;
    MPI_Status st;
    if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, m->req, &flag, &st) != MPI_SUCCESS || !flag) {
      mpi_comm_backoff(&idle);
      continue;
    }
    idle = 0;
    int len = 0;
    MPI_Get_count(&st, MPI_BYTE, &len);
    if (len < 0 || len == MPI_UNDEFINED) len = 0;
    char *data = malloc((size_t)len + 16);
    char small[16];
    /* without memory the message is taken and dropped (truncated) */
    int rc = MPI_Recv(data ? data : small, data ? len : 0, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, m->req,
                      MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS || !data) {
      free(data);
      continue;
    }
    const int64_t *w = (const int64_t *)data;
    switch (st.MPI_TAG) {
    case TAG_PUT:
      handle_put(m, data, len);
      data = NULL;
      break;
    case TAG_GET:
      if (len >= 2 * (int)sizeof(int64_t)) handle_get(m, w, st.MPI_SOURCE);
      break;
    case TAG_ABORT:
      if (len < 2 * (int)sizeof(int64_t) || w[1] < 0 || w[1] > (len / (int)sizeof(int64_t) - 2) / 3) break;
      pthread_mutex_lock(&m->fail_lock);
      if (w[0] >= m->fail_exec[st.MPI_SOURCE]) {
        m->fail_exec[st.MPI_SOURCE] = w[0];
        free(m->fail_report[st.MPI_SOURCE]);
        m->fail_report[st.MPI_SOURCE] = (int64_t *)data;
        data = NULL;
      }
      pthread_mutex_unlock(&m->fail_lock);
      if (w[0] > atomic_load(&m->abort_seq)) {
        atomic_store(&m->abort_rank, st.MPI_SOURCE);
        atomic_store(&m->abort_seq, w[0]);
      }
      break;
    case TAG_BROKEN: {
      /* the failure behind it counts as heard of (abort_rank before
         abort_seq: a waiter reads them the other way round) */
      if (len >= 2 * (int)sizeof(int64_t) && w[1] >= 0 && w[0] > atomic_load(&m->abort_seq)) {
        atomic_store(&m->abort_rank, (int)w[1]);
        atomic_store(&m->abort_seq, w[0]);
      }
      char who[64];
      describe_rank(m, st.MPI_SOURCE, who, sizeof who);
      set_broken(m, "%s (MPI rank %d) gave up an execution that another rank's failure ended", who, st.MPI_SOURCE);
      break;
    }
    case TAG_DONE:
      m->done++;
      break;
    }
    free(data);
  }
  reap_outgoing(m, 1);
  return NULL;
}

/* ---- life ---- */

int mpi_comm_start(int *level, int *here, const char **what) {
  int inited = 0, rc;
  *here = 0;
  *level = MPI_THREAD_SINGLE;
  MPI_Initialized(&inited);
  if (inited) {
    *what = "MPI_Query_thread";
    return MPI_Query_thread(level);
  }
  *what = "initializing MPI";
  if ((rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, level)) != MPI_SUCCESS) return rc;
  *here = 1;
  /* MPI is ours: its errors come back as codes */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  return MPI_SUCCESS;
}

MpiComm *mpi_comm_new(MPI_Comm world, int num_replicas, int num_partitions, int thread_level, char *err,
                      size_t errlen) {
  MpiComm *m = calloc(1, sizeof *m);
  if (!m) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  m->coll = m->req = m->reply = MPI_COMM_NULL;
  int rc = MPI_Comm_dup(world, &m->coll);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_dup(world, &m->req);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_dup(world, &m->reply);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_set_errhandler(m->coll, MPI_ERRORS_RETURN);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_set_errhandler(m->req, MPI_ERRORS_RETURN);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_set_errhandler(m->reply, MPI_ERRORS_RETURN);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_rank(m->coll, &m->rank);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_size(m->coll, &m->size);
  int *tag_ub = NULL, found = 0;
  if (rc == MPI_SUCCESS) rc = MPI_Comm_get_attr(m->coll, MPI_TAG_UB, &tag_ub, &found);
  if (rc != MPI_SUCCESS || m->size != num_replicas * num_partitions) {
    if (rc != MPI_SUCCESS) {
      char text[MPI_MAX_ERROR_STRING];
      int len = 0;
      MPI_Error_string(rc, text, &len);
      snprintf(err, errlen, "MPI: setting up a communicator: %s", text);
    } else {
      snprintf(err, errlen, "%d replicas x %d partitions for %d ranks", num_replicas, num_partitions, m->size);
    }
    if (m->coll != MPI_COMM_NULL) MPI_Comm_free(&m->coll);
    if (m->req != MPI_COMM_NULL) MPI_Comm_free(&m->req);
    if (m->reply != MPI_COMM_NULL) MPI_Comm_free(&m->reply);
    free(m);
    return NULL;
  }
  /* tags above the standard's guaranteed minimum only if MPI has them */
  m->tag_ub = found && tag_ub && *tag_ub > 32767 ? *tag_ub - 1 : 32766;
  m->comm.ops = &mpi_ops;
  m->comm.num_replicas = num_replicas;
  m->comm.num_partitions = num_partitions;
  m->comm.replica_id = m->rank / num_partitions;
  m->comm.partition_id = m->rank % num_partitions;
  atomic_init(&m->abort_seq, 0);
  atomic_init(&m->abort_rank, -1);
  pthread_mutex_init(&m->exec_lock, NULL);
  pthread_mutex_init(&m->broken_lock, NULL);
  pthread_mutex_init(&m->fail_lock, NULL);
  atomic_init(&m->broken, 0);
  m->fail_exec = calloc((size_t)m->size, sizeof(int64_t));
  m->fail_report = calloc((size_t)m->size, sizeof(int64_t *));
  if (thread_level >= MPI_THREAD_MULTIPLE) {
    if (!m->fail_exec || !m->fail_report || pthread_create(&m->service, NULL, service_main, m) != 0) {
      snprintf(err, errlen, "cannot start the service thread");
      free(m->fail_exec);
      free(m->fail_report);
      pthread_mutex_destroy(&m->fail_lock);
      MPI_Comm_free(&m->coll);
      MPI_Comm_free(&m->req);
      MPI_Comm_free(&m->reply);
      pthread_mutex_destroy(&m->exec_lock);
      pthread_mutex_destroy(&m->broken_lock);
      free(m);
      return NULL;
    }
    m->threaded = 1;
  }
  return m;
}

xlacrt_comm *mpi_comm_begin(MpiComm *m, char *err, size_t errlen) {
  pthread_mutex_lock(&m->exec_lock);
  if (atomic_load(&m->broken)) {
    if (m->threaded && atomic_load(&m->abort_seq) > m->exec_seq) {
      /* broken by a failure in the execution this one would have been */
      char who[64];
      int r = atomic_load(&m->abort_rank);
      describe_rank(m, r, who, sizeof who);
      snprintf(err, errlen, "%s (MPI rank %d) failed in this execution; it reports why", who, r);
    } else {
      pthread_mutex_lock(&m->broken_lock);
      snprintf(err, errlen, "the MPI communicator cannot be used any more: %s", m->broken_msg);
      pthread_mutex_unlock(&m->broken_lock);
    }
    m->exec_seq++;
    pthread_mutex_unlock(&m->exec_lock);
    return NULL;
  }
  m->exec_seq++;
  m->comm.msg[0] = 0;
  return &m->comm;
}

void mpi_comm_end(MpiComm *m, int ok) {
  if (!ok && m->threaded && !atomic_load(&m->broken)) {
    /* the others may be waiting for this rank: tell their service threads
       which collective messages it sent (unless it failed because the
       communicator broke: they know) */
    int64_t small[2] = {m->exec_seq, 0};
    int64_t *report = malloc(sizeof(int64_t) * (size_t)(2 + 3 * m->seqs.n));
    if (report) {
      report[0] = m->exec_seq;
      report[1] = m->seqs.n;
      for (int i = 0; i < m->seqs.n; i++) {
        const xlacrt_comm_seq *e = &m->seqs.e[i];
        report[2 + 3 * i] = e->key;
        report[3 + 3 * i] = (int64_t)group_hash(e->n, e->ids);
        report[4 + 3 * i] = e->count;
      }
    }
    /* (without memory: "it sent nothing", which only gives up sooner) */
    for (int r = 0; r < m->size; r++)
      if (r != m->rank)
        MPI_Send(report ? report : small, report ? 2 + 3 * m->seqs.n : 2, MPI_INT64_T, r, TAG_ABORT, m->req);
    free(report);
  }
  pthread_mutex_unlock(&m->exec_lock);
}

void mpi_comm_free(MpiComm *m) {
  if (!m) return;
  if (m->threaded) {
    /* each service thread serves until every rank is done */
    for (int r = 0; r < m->size; r++) MPI_Send(NULL, 0, MPI_BYTE, r, TAG_DONE, m->req);
    pthread_join(m->service, NULL);
  }
  MPI_Comm_free(&m->coll);
  MPI_Comm_free(&m->req);
  MPI_Comm_free(&m->reply);
  while (m->boxes) {
    Box *b = m->boxes;
    m->boxes = b->next;
    while (b->parcels) {
      Parcel *p = b->parcels;
      b->parcels = p->next;
      free(p->data);
      free(p);
    }
    while (b->waiters) {
      Waiter *w = b->waiters;
      b->waiters = w->next;
      free(w);
    }
    free(b);
  }
  xlacrt_comm_seqs_free(&m->seqs);
  free(m->scratch);
  for (int r = 0; m->fail_report && r < m->size; r++) free(m->fail_report[r]);
  free(m->fail_report);
  free(m->fail_exec);
  pthread_mutex_destroy(&m->exec_lock);
  pthread_mutex_destroy(&m->broken_lock);
  pthread_mutex_destroy(&m->fail_lock);
  free(m);
}
