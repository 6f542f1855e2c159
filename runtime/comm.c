/*
 * comm.c - communicators: process groups, the communicator of a program
 * that runs alone, and grids of processes that are threads of this process
 * and meet through shared memory.
 *
 * A grid has one mutex and one condition variable.  Collectives are rare
 * next to the work between them, and a member only holds the lock to
 * publish its pointers and to count arrivals and departures; the data is
 * read outside it, straight from the other members' buffers.
 *
 * Deadlock detection asks every waiting process whether what it waits for
 * has happened (its ready predicate, evaluated under the lock) instead of
 * trusting flags that wakers must remember to clear: when every process
 * has finished or waits on a predicate that is false, nobody can make
 * progress.  The reference interpreter waits through the same grid, so a
 * compiled collective waiting for an interpreted one is seen too.
 */
#include "xlacrt.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int comm_fail(xlacrt_comm *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int comm_fail(xlacrt_comm *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    return XLACRT_COMM_FAILED;
}

/* ------------------------------------------------------------------------ */
/* process groups                                                           */
/* ------------------------------------------------------------------------ */

static int group_error(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int group_error(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* A bitmap of `n` flags, on the stack when small (groups are usually a
   handful of processes and this runs once per collective). */
typedef struct Seen {
    unsigned char small[512];
    unsigned char *bits;
} Seen;

static int seen_init(Seen *s, int64_t n)
{
    size_t bytes = (size_t)(n / 8 + 1);
    s->bits = bytes <= sizeof s->small ? s->small : calloc(bytes, 1);
    if (s->bits == s->small)
        memset(s->small, 0, bytes);
    return s->bits != NULL;
}

static int seen_test_set(Seen *s, int64_t i)
{
    int was = (s->bits[i >> 3] >> (i & 7)) & 1;
    s->bits[i >> 3] |= (unsigned char)(1u << (i & 7));
    return was;
}

static void seen_free(Seen *s)
{
    if (s->bits != s->small)
        free(s->bits);
}

int xlacrt_comm_group(int strategy, const int64_t *groups, int64_t rows, int64_t cols,
                      int num_replicas, int num_partitions, int replica, int partition,
                      int32_t *ids, int32_t *me, char *err, size_t errlen)
{
    int R = num_replicas, P = num_partitions;
    int64_t axis = strategy == XLACRT_GROUP_CROSS_PARTITION ? P
                   : strategy == XLACRT_GROUP_FLATTENED_IDS ? (int64_t)R * P
                                                            : R;
    int64_t mine = strategy == XLACRT_GROUP_CROSS_PARTITION ? partition
                   : strategy == XLACRT_GROUP_FLATTENED_IDS ? (int64_t)replica * P + partition
                                                            : replica;
    const char *what = strategy == XLACRT_GROUP_CROSS_PARTITION ? "partition"
                       : strategy == XLACRT_GROUP_FLATTENED_IDS ? "process"
                                                                : "replica";
    *me = -1;
    /* every id in range and used at most once */
    Seen seen;
    if (!seen_init(&seen, axis))
        return group_error(err, errlen, "out of memory checking replica groups");
    int64_t row = -1;
    for (int64_t i = 0; i < rows * cols; i++) {
        int64_t v = groups[i];
        if (v < 0)
            continue;
        if (v >= axis) {
            seen_free(&seen);
            return group_error(err, errlen, "%s id %lld in replica groups is out of range (there are %lld)",
                               what, (long long)v, (long long)axis);
        }
        if (seen_test_set(&seen, v)) {
            seen_free(&seen);
            return group_error(err, errlen, "%s id %lld appears twice in replica groups", what, (long long)v);
        }
        if (v == mine)
            row = i / cols;
    }
    seen_free(&seen);
    /* no groups at all means one group of everybody: the ids 0..axis-1 */
    int everybody = rows * cols == 0;
    if (everybody) {
        row = 0;
        cols = axis;
    }
    if (row < 0)
        return 0;
    const int64_t *g = everybody ? NULL : groups + row * cols;
    int n = 0;
    int64_t self = (int64_t)replica * P + partition;
    for (int p = 0; p < (strategy == XLACRT_GROUP_CROSS_REPLICA_AND_PARTITION ? P : 1); p++)
        for (int64_t j = 0; j < cols; j++) {
            int64_t v = everybody ? j : g[j];
            if (v < 0)
                continue;
            int64_t id;
            switch (strategy) {
            case XLACRT_GROUP_CROSS_REPLICA: id = v * P + partition; break;
            case XLACRT_GROUP_CROSS_PARTITION: id = (int64_t)replica * P + v; break;
            case XLACRT_GROUP_CROSS_REPLICA_AND_PARTITION: id = v * P + p; break;
            default: id = v; break;
            }
            if (id == self)
                *me = n;
            ids[n++] = (int32_t)id;
        }
    return n;
}

int xlacrt_comm_permute_group(int cross_partition, const int64_t *pairs, int64_t npairs,
                              int num_replicas, int num_partitions, int replica, int partition,
                              int32_t *ids, int32_t *me, int32_t *source, char *err,
                              size_t errlen)
{
    int P = num_partitions;
    int64_t axis = cross_partition ? P : num_replicas;
    int64_t mine = cross_partition ? partition : replica;
    *me = *source = -1;
    Seen in;
    if (!seen_init(&in, axis))
        return group_error(err, errlen, "out of memory checking source_target_pairs");
    int64_t src = -1;
    for (int64_t i = 0; i < npairs; i++) {
        for (int c = 0; c < 2; c++)
            if (pairs[2 * i + c] < 0 || pairs[2 * i + c] >= axis) {
                seen_free(&in);
                return group_error(err, errlen, "id %lld in source_target_pairs is out of range (there are %lld)",
                                   (long long)pairs[2 * i + c], (long long)axis);
            }
        seen_test_set(&in, pairs[2 * i]);
        seen_test_set(&in, pairs[2 * i + 1]);
        if (pairs[2 * i + 1] == mine)
            src = pairs[2 * i];
    }
    int n = 0;
    for (int64_t v = 0; v < axis; v++) {
        if (!((in.bits[v >> 3] >> (v & 7)) & 1))
            continue;
        if (v == mine)
            *me = n;
        if (v == src)
            *source = n;
        ids[n++] = (int32_t)(cross_partition ? (int64_t)replica * P + v : v * P + partition);
    }
    seen_free(&in);
    return n;
}

/* ------------------------------------------------------------------------ */
/* a program alone                                                          */
/* ------------------------------------------------------------------------ */

static int self_meet(xlacrt_comm *c, int64_t key, int32_t n, const int32_t *ids, int32_t me,
                     int32_t nbufs, const void *const *bufs, const int64_t *bytes,
                     const int64_t *sigs, const void **peers)
{
    if (n != 1)
        return comm_fail(c, "collective group of %d processes outside a grid", n);
    for (int i = 0; i < nbufs; i++)
        peers[i] = bufs[i];
    return XLACRT_COMM_OK;
}

static void self_leave(xlacrt_comm *c) {}

static int self_send(xlacrt_comm *c, int64_t channel, int32_t nbufs, const void *const *bufs,
                     const int64_t *bytes, const int64_t *sigs)
{
    return XLACRT_COMM_OK; /* nobody can receive: the values are dropped */
}

static int self_recv(xlacrt_comm *c, int64_t channel, int32_t nbufs, void *const *bufs,
                     const int64_t *bytes, const int64_t *sigs)
{
    return comm_fail(c, "recv outside a process grid: nothing can be sent to it");
}

static const xlacrt_comm_ops self_ops = {self_meet, self_leave, self_send, self_recv, NULL};

/* Per thread: msg is written by the failing call and read by its caller. */
static _Thread_local xlacrt_comm self_comm = {&self_ops, 1, 1, 0, 0, {0}};

xlacrt_comm *xlacrt_comm_self(void) { return &self_comm; }

/* ------------------------------------------------------------------------ */
/* grids                                                                    */
/* ------------------------------------------------------------------------ */

/* One collective in progress: the members' published buffers. */
typedef struct Meet {
    int64_t key, seq;
    int32_t n, nbufs;
    int32_t *ids;
    const void **bufs; /* n * nbufs */
    int64_t *bytes, *sigs;
    unsigned char *joined;
    char **copies;     /* per member: its small buffers copied, or NULL */
    int32_t arrived, left, refs;
    struct Meet *next;
} Meet;

/* Members whose buffers total at most this many bytes publish copies of
   them, and leave a collective without waiting for the others to be done
   reading: for small data a copy costs less than the second barrier. */
enum { COPY_LIMIT = 16384 };

typedef struct Msg {
    int32_t nbufs;
    int64_t *bytes, *sigs;
    char *data; /* the buffers, one after another */
    struct Msg *next;
} Msg;

typedef struct Chan {
    int64_t channel;
    Msg *head, *tail;
    struct Chan *next;
} Chan;

typedef struct GridProc {
    xlacrt_comm comm; /* first: a process's comm is its GridProc */
    xlacrt_grid *grid;
    int index;
    int finished;
    int (*ready)(const void *ctx); /* set while waiting */
    const void *ready_ctx;
    xlacrt_comm_seqs seqs;
    Meet *current; /* the collective between meet and leave */
    int current_me; /* this process's position in it */
} GridProc;

struct xlacrt_grid {
    int num_replicas, num_partitions, nprocs;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int aborted;
    int deadlocked;        /* the abort is a deadlock, not a process's failure */
    int deadlock_reported; /* a waiter has been told to report it (exactly one is) */
    Meet *meets;
    Chan *chans;
    GridProc *procs;
};

static const xlacrt_comm_ops grid_ops;
static void grid_leave(xlacrt_comm *c);

void xlacrt_grid_lock(xlacrt_grid *g) { pthread_mutex_lock(&g->mu); }
void xlacrt_grid_unlock(xlacrt_grid *g) { pthread_mutex_unlock(&g->mu); }
void xlacrt_grid_notify(xlacrt_grid *g) { pthread_cond_broadcast(&g->cv); }
int xlacrt_grid_aborted(const xlacrt_grid *g) { return g->aborted; }

void xlacrt_grid_abort(xlacrt_grid *g)
{
    g->aborted = 1;
    pthread_cond_broadcast(&g->cv);
}

/* Lock held.  When every process has finished or waits for something that
   has not happened, nobody can make progress: abort the grid as
   deadlocked (the waiters wake, and the first reports it). */
static void check_deadlock(xlacrt_grid *g)
{
    if (g->aborted)
        return; /* a failure is already tearing the grid down */
    int any_waiting = 0;
    for (int i = 0; i < g->nprocs; i++) {
        GridProc *p = &g->procs[i];
        if (p->finished)
            continue;
        if (!p->ready || p->ready(p->ready_ctx))
            return;
        any_waiting = 1;
    }
    if (!any_waiting)
        return;
    g->aborted = 1;
    g->deadlocked = 1;
    pthread_cond_broadcast(&g->cv);
}

int xlacrt_grid_wait(xlacrt_grid *g, int process, int (*ready)(const void *ctx), const void *ctx)
{
    GridProc *me = &g->procs[process];
    me->ready = ready;
    me->ready_ctx = ctx;
    while (!ready(ctx) && !g->aborted) {
        check_deadlock(g);
        if (g->aborted)
            break;
        pthread_cond_wait(&g->cv, &g->mu);
    }
    me->ready = NULL;
    me->ready_ctx = NULL;
    if (!g->aborted)
        return XLACRT_COMM_OK;
    if (g->deadlocked && !g->deadlock_reported) {
        g->deadlock_reported = 1;
        return XLACRT_COMM_FAILED;
    }
    return XLACRT_COMM_ABORTED;
}

xlacrt_grid *xlacrt_grid_create(int num_replicas, int num_partitions)
{
    if (num_replicas < 1 || num_partitions < 1)
        return NULL;
    xlacrt_grid *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->num_replicas = num_replicas;
    g->num_partitions = num_partitions;
    g->nprocs = num_replicas * num_partitions;
    g->procs = calloc((size_t)g->nprocs, sizeof *g->procs);
    if (!g->procs) {
        free(g);
        return NULL;
    }
    /* an error-checking mutex: finish may be called by a thread that
       already holds it (a host that ran out of memory under the lock
       unwinds to the end of its process) */
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&g->mu, &attr);
    pthread_mutexattr_destroy(&attr);
    pthread_cond_init(&g->cv, NULL);
    for (int i = 0; i < g->nprocs; i++) {
        GridProc *p = &g->procs[i];
        p->comm.ops = &grid_ops;
        p->comm.num_replicas = num_replicas;
        p->comm.num_partitions = num_partitions;
        p->comm.replica_id = i / num_partitions;
        p->comm.partition_id = i % num_partitions;
        p->grid = g;
        p->index = i;
    }
    return g;
}

static void meet_free(Meet *m)
{
    for (int k = 0; m->copies && k < m->n; k++)
        free(m->copies[k]);
    free(m->copies);
    free(m->ids);
    free(m->bufs);
    free(m->bytes);
    free(m->sigs);
    free(m->joined);
    free(m);
}

static void msg_free(Msg *m)
{
    free(m->bytes);
    free(m->sigs);
    free(m->data);
    free(m);
}

void xlacrt_grid_destroy(xlacrt_grid *g)
{
    if (!g)
        return;
    for (int i = 0; i < g->nprocs; i++) {
        GridProc *p = &g->procs[i];
        xlacrt_comm_seqs_free(&p->seqs);
    }
    while (g->meets) {
        Meet *m = g->meets;
        g->meets = m->next;
        meet_free(m);
    }
    while (g->chans) {
        Chan *c = g->chans;
        g->chans = c->next;
        while (c->head) {
            Msg *m = c->head;
            c->head = m->next;
            msg_free(m);
        }
        free(c);
    }
    pthread_mutex_destroy(&g->mu);
    pthread_cond_destroy(&g->cv);
    free(g->procs);
    free(g);
}

xlacrt_comm *xlacrt_grid_comm(xlacrt_grid *g, int process)
{
    return process >= 0 && process < g->nprocs ? &g->procs[process].comm : NULL;
}

void xlacrt_grid_finish(xlacrt_grid *g, int process, int ok)
{
    /* EDEADLK: this thread holds the lock already, and keeps it until the
       unlock below */
    int rc = pthread_mutex_lock(&g->mu);
    (void)rc;
    g->procs[process].finished = 1;
    if (!ok)
        g->aborted = 1;
    check_deadlock(g);
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

static int same_ids(const int32_t *a, const int32_t *b, int32_t n)
{
    return n == 0 || memcmp(a, b, sizeof(int32_t) * (size_t)n) == 0;
}

int64_t xlacrt_comm_seq_next(xlacrt_comm_seqs *t, int64_t key, const int32_t *ids, int32_t n)
{
    for (int i = 0; i < t->n; i++) {
        xlacrt_comm_seq *e = &t->e[i];
        if (e->key == key && e->n == n && same_ids(e->ids, ids, n))
            return e->count++;
    }
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 8;
        xlacrt_comm_seq *s = realloc(t->e, sizeof *s * (size_t)cap);
        if (!s)
            return -1;
        t->e = s;
        t->cap = cap;
    }
    int32_t *copy = malloc(sizeof(int32_t) * (size_t)(n > 0 ? n : 1));
    if (!copy)
        return -1;
    if (n)
        memcpy(copy, ids, sizeof(int32_t) * (size_t)n);
    t->e[t->n++] = (xlacrt_comm_seq){key, n, copy, 1};
    return 0;
}

void xlacrt_comm_seqs_free(xlacrt_comm_seqs *t)
{
    for (int i = 0; i < t->n; i++)
        free(t->e[i].ids);
    free(t->e);
    t->e = NULL;
    t->n = t->cap = 0;
}

static Meet *meet_new(int64_t key, int64_t seq, int32_t n, const int32_t *ids, int32_t nbufs)
{
    Meet *m = calloc(1, sizeof *m);
    size_t slots = (size_t)n * (size_t)(nbufs > 0 ? nbufs : 1);
    if (!m)
        return NULL;
    m->key = key;
    m->seq = seq;
    m->n = n;
    m->nbufs = nbufs;
    m->refs = n;
    m->ids = malloc(sizeof(int32_t) * (size_t)n);
    m->bufs = calloc(slots, sizeof *m->bufs);
    m->bytes = calloc(slots, sizeof *m->bytes);
    m->sigs = calloc(slots, sizeof *m->sigs);
    m->joined = calloc((size_t)n, 1);
    m->copies = calloc((size_t)n, sizeof *m->copies);
    if (!m->ids || !m->bufs || !m->bytes || !m->sigs || !m->joined || !m->copies) {
        meet_free(m);
        return NULL;
    }
    memcpy(m->ids, ids, sizeof(int32_t) * (size_t)n);
    return m;
}

static int meet_complete(const void *ctx)
{
    const Meet *m = ctx;
    return m->arrived == m->n;
}

/* A failure of this process that leaves others waiting for it: abort the
   grid (they stay quiet) and report it here. */
static int fail_grid(GridProc *p, const char *what)
{
    xlacrt_grid_abort(p->grid);
    pthread_mutex_unlock(&p->grid->mu);
    return comm_fail(&p->comm, "%s", what);
}

static int deadlock_msg(GridProc *p)
{
    return comm_fail(&p->comm,
                     "deadlock: every process of the %dx%d grid is waiting (mismatched collectives, or "
                     "a recv without a send?)",
                     p->grid->num_replicas, p->grid->num_partitions);
}

static int grid_meet(xlacrt_comm *c, int64_t key, int32_t n, const int32_t *ids, int32_t me,
                     int32_t nbufs, const void *const *bufs, const int64_t *bytes,
                     const int64_t *sigs, const void **peers)
{
    GridProc *p = (GridProc *)c;
    xlacrt_grid *g = p->grid;
    /* small buffers are published as a copy (made before taking the lock;
       without memory for it, the buffers themselves) */
    int64_t total = 0;
    for (int i = 0; i < nbufs; i++)
        total += bytes[i];
    char *copy = total <= COPY_LIMIT ? malloc((size_t)(total > 0 ? total : 1)) : NULL;
    const void *small_bufs[64];
    if (copy && nbufs > 64) {
        free(copy);
        copy = NULL;
    }
    if (copy) {
        int64_t off = 0;
        for (int i = 0; i < nbufs; i++) {
            if (bytes[i] > 0)
                memcpy(copy + off, bufs[i], (size_t)bytes[i]);
            small_bufs[i] = copy + off;
            off += bytes[i];
        }
        bufs = small_bufs;
    }
    pthread_mutex_lock(&g->mu);
    if (g->aborted) {
        pthread_mutex_unlock(&g->mu);
        free(copy);
        return XLACRT_COMM_ABORTED;
    }
    int64_t seq = xlacrt_comm_seq_next(&p->seqs, key, ids, n); /* lock held */
    if (seq < 0) {
        free(copy);
        return fail_grid(p, "out of memory joining a collective");
    }
    Meet *m = g->meets;
    while (m && !(m->key == key && m->n == n && m->seq == seq && same_ids(m->ids, ids, n)))
        m = m->next;
    if (!m) {
        m = meet_new(key, seq, n, ids, nbufs);
        if (!m) {
            free(copy);
            return fail_grid(p, "out of memory joining a collective");
        }
        m->next = g->meets;
        g->meets = m;
    }
    if (m->nbufs != nbufs || m->joined[me]) {
        free(copy);
        return fail_grid(p, m->nbufs != nbufs ? "processes of a group passed different operand counts to a collective"
                                              : "process joined the same collective twice");
    }
    m->copies[me] = copy;
    for (int i = 0; i < nbufs; i++) {
        m->bufs[me * nbufs + i] = bufs[i];
        m->bytes[me * nbufs + i] = bytes[i];
        m->sigs[me * nbufs + i] = sigs ? sigs[i] : 0;
    }
    m->joined[me] = 1;
    if (++m->arrived == n)
        pthread_cond_broadcast(&g->cv);
    int rc = xlacrt_grid_wait(g, p->index, meet_complete, m);
    /* Once everybody has arrived the collective goes ahead even if the
       grid aborts meanwhile: a member that went on may be reading this
       process's buffers, which must stay until it leaves. */
    if (rc != XLACRT_COMM_OK && !meet_complete(m)) {
        pthread_mutex_unlock(&g->mu);
        return rc == XLACRT_COMM_FAILED ? deadlock_msg(p) : rc;
    }
    for (int k = 0; k < n; k++)
        for (int i = 0; i < nbufs; i++) {
            if (m->sigs[k * nbufs + i] != m->sigs[me * nbufs + i] ||
                m->bytes[k * nbufs + i] != m->bytes[me * nbufs + i]) {
                /* Every member sees a difference when there is one, so
                   all fail here; each leaves, so that the last one out
                   frees the meeting. */
                p->current = m;
                p->current_me = me;
                pthread_mutex_unlock(&g->mu);
                grid_leave(c);
                return comm_fail(c, "operand %d has different types on different processes", i);
            }
            peers[k * nbufs + i] = m->bufs[k * nbufs + i];
        }
    p->current = m;
    p->current_me = me;
    pthread_mutex_unlock(&g->mu);
    return XLACRT_COMM_OK;
}

static void grid_leave(xlacrt_comm *c)
{
    GridProc *p = (GridProc *)c;
    xlacrt_grid *g = p->grid;
    Meet *m = p->current;
    if (!m)
        return;
    p->current = NULL;
    int me = p->current_me;
    pthread_mutex_lock(&g->mu);
    if (++m->left == m->n)
        pthread_cond_broadcast(&g->cv);
    /* A member that published its own buffers waits until nobody reads
       them.  Not a wait the deadlock detection needs to know about: every
       member has arrived, and what remains of a collective never waits. */
    while (!m->copies[me] && m->left < m->n)
        pthread_cond_wait(&g->cv, &g->mu);
    if (--m->refs == 0) {
        Meet **pp = &g->meets;
        while (*pp != m)
            pp = &(*pp)->next;
        *pp = m->next;
        meet_free(m);
    }
    pthread_mutex_unlock(&g->mu);
}

/* Lock held; NULL when memory runs out. */
static Chan *get_chan(xlacrt_grid *g, int64_t channel)
{
    for (Chan *c = g->chans; c; c = c->next)
        if (c->channel == channel)
            return c;
    Chan *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->channel = channel;
    c->next = g->chans;
    g->chans = c;
    return c;
}

static int chan_ready(const void *ctx) { return ((const Chan *)ctx)->head != NULL; }

static int grid_send(xlacrt_comm *c, int64_t channel, int32_t nbufs, const void *const *bufs,
                     const int64_t *bytes, const int64_t *sigs)
{
    GridProc *p = (GridProc *)c;
    xlacrt_grid *g = p->grid;
    /* the copy is made before taking the lock */
    Msg *m = calloc(1, sizeof *m);
    int64_t total = 0;
    for (int i = 0; i < nbufs; i++)
        total += bytes[i];
    if (m) {
        m->nbufs = nbufs;
        m->bytes = malloc(sizeof(int64_t) * (size_t)(nbufs + 1));
        m->sigs = malloc(sizeof(int64_t) * (size_t)(nbufs + 1));
        m->data = malloc((size_t)(total > 0 ? total : 1));
    }
    pthread_mutex_lock(&g->mu);
    if (g->aborted) {
        pthread_mutex_unlock(&g->mu);
        if (m)
            msg_free(m);
        return XLACRT_COMM_ABORTED;
    }
    Chan *ch = get_chan(g, channel);
    if (!m || !m->bytes || !m->sigs || !m->data || !ch) {
        if (m)
            msg_free(m);
        /* a receiver may be waiting for this message */
        return fail_grid(p, "out of memory sending a message");
    }
    pthread_mutex_unlock(&g->mu);
    int64_t off = 0;
    for (int i = 0; i < nbufs; i++) {
        m->bytes[i] = bytes[i];
        m->sigs[i] = sigs ? sigs[i] : 0;
        if (bytes[i] > 0)
            memcpy(m->data + off, bufs[i], (size_t)bytes[i]);
        off += bytes[i];
    }
    pthread_mutex_lock(&g->mu);
    if (ch->tail)
        ch->tail->next = m;
    else
        ch->head = m;
    ch->tail = m;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
    return XLACRT_COMM_OK;
}

static int grid_recv(xlacrt_comm *c, int64_t channel, int32_t nbufs, void *const *bufs,
                     const int64_t *bytes, const int64_t *sigs)
{
    GridProc *p = (GridProc *)c;
    xlacrt_grid *g = p->grid;
    pthread_mutex_lock(&g->mu);
    if (g->aborted) {
        pthread_mutex_unlock(&g->mu);
        return XLACRT_COMM_ABORTED;
    }
    Chan *ch = get_chan(g, channel);
    if (!ch)
        return fail_grid(p, "out of memory receiving a message");
    int rc = xlacrt_grid_wait(g, p->index, chan_ready, ch);
    if (rc != XLACRT_COMM_OK) {
        pthread_mutex_unlock(&g->mu);
        return rc == XLACRT_COMM_FAILED ? deadlock_msg(p) : rc;
    }
    Msg *m = ch->head;
    ch->head = m->next;
    if (!ch->head)
        ch->tail = NULL;
    pthread_mutex_unlock(&g->mu);
    if (m->nbufs != nbufs) {
        rc = comm_fail(c, "recv expects %d values but the matching send passed %d", nbufs, m->nbufs);
    } else {
        for (int i = 0; i < nbufs && rc == XLACRT_COMM_OK; i++)
            if (m->bytes[i] != bytes[i] || m->sigs[i] != (sigs ? sigs[i] : 0))
                rc = comm_fail(c, "value %d received has a different type than result %d", i, i);
        int64_t off = 0;
        for (int i = 0; i < nbufs && rc == XLACRT_COMM_OK; i++) {
            if (bytes[i] > 0)
                memcpy(bufs[i], m->data + off, (size_t)bytes[i]);
            off += bytes[i];
        }
    }
    msg_free(m);
    return rc;
}

static const xlacrt_comm_ops grid_ops = {grid_meet, grid_leave, grid_send, grid_recv, NULL};
