/*
 * net_comm.c - collectives between processes with several devices each
 * (net_comm.h), on a link that carries whole messages between processes.
 *
 * A message, in little-endian int64 words: a header of HEAD words (magic
 * and kind, key, group hash, meeting number, sending process, member
 * count, table words, failed device), then the table, for each member its
 * device, buffer count, the buffers' byte counts and their type
 * fingerprints, then the buffers, one piece each.
 */
#include "net_comm.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC 0x786c61636e6574LL /* "xlacnet" */
#define HEAD 8
#define MAX_BUFS (1 << 20)
#define MAX_TABLE (1 << 26) /* words */
#define ALIGN 64            /* of each received buffer */
enum { K_MEET = 1, K_FAIL = 2 };

/* One member's buffers in a received message. */
typedef struct Member {
  int32_t gid, nbufs;
  const int64_t *bytes, *sigs; /* into the message's table */
  const void **ptrs;           /* into the message's data */
} Member;

/* A message from another process: one meeting's members of that process. */
typedef struct Msg {
  struct Msg *next;
  int64_t key, ghash, seq;
  int src; /* the sending process */
  int32_t nmem;
  int64_t *table;
  Member *mem;
  const void **ptrs;
  char *data;
} Msg;

/* One local member's buffers at a meeting. */
typedef struct Slot {
  int32_t gid, nbufs;
  const void *const *bufs;
  const int64_t *bytes, *sigs;
} Slot;

/* A meeting of this process's members of a group. */
typedef struct Meeting {
  struct Meeting *next;
  int64_t key, seq;
  uint64_t ghash;
  int nlocal, arrived, left, refs;
  bool sending; /* the leader reads the members' buffers */
  int state;    /* 0: gathering, 1: every member's buffers are here, -1: failed */
  char why[256];
  Slot *slot;   /* [nlocal], in group order */
  Msg **from;   /* [nfrom]: each other process's message */
  int nfrom;
} Meeting;

typedef struct Endpoint {
  xlacrt_comm base; /* first: the runtime's view */
  struct Net *net;
  int gid;
  pthread_mutex_t run; /* one execution at a time */
  xlacrt_comm_seqs seqs;
  Meeting *at; /* the meeting between a meet and its leave */
} Endpoint;

struct Net {
  int node, nnodes, per_node;
  const NetLinkOps *ops;
  void *link;
  pthread_mutex_t *send_mu; /* [nnodes] */
  pthread_t rx;
  bool rx_started;
  pthread_mutex_t mu; /* the fields below */
  pthread_cond_t cv;
  Msg *box;          /* received, not taken yet */
  Meeting *meetings; /* being held */
  bool *dead;        /* [nnodes]: its link was lost */
  bool broken;
  char why[240];
  Endpoint *ep; /* [per_node] */
};

static void msg_free(Msg *m) {
  if (!m) return;
  free(m->table);
  free(m->mem);
  free(m->ptrs);
  free(m->data);
  free(m);
}

/* Breaks the net for why; true when this is its first cause. */
static bool set_broken(Net *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool set_broken(Net *t, const char *fmt, ...) {
  pthread_mutex_lock(&t->mu);
  bool first = !t->broken;
  if (first) {
    t->broken = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->why, sizeof t->why, fmt, ap);
    va_end(ap);
  }
  pthread_cond_broadcast(&t->cv);
  pthread_mutex_unlock(&t->mu);
  return first;
}

static void lost(Net *t, int q) {
  pthread_mutex_lock(&t->mu);
  t->dead[q] = true;
  pthread_cond_broadcast(&t->cv);
  pthread_mutex_unlock(&t->mu);
}

/* ---- receiving ---- */

static int64_t aligned(int64_t bytes) { return (bytes + ALIGN - 1) / ALIGN * ALIGN; }

/* Reads the table after header h, checks it and lays the members'
   buffers out (each on an ALIGN boundary); NULL when the message does not
   make sense, the link fails or memory runs out. */
static Msg *read_table(Net *t, int q, const int64_t *h) {
  int64_t nmem = h[5], words = h[6];
  if (nmem < 1 || nmem > t->per_node || words < 2 * nmem || words > MAX_TABLE) return NULL;
  Msg *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->key = h[1];
  m->ghash = h[2];
  m->seq = h[3];
  m->src = q;
  m->nmem = (int32_t)nmem;
  m->table = malloc(sizeof(int64_t) * (size_t)words);
  m->mem = calloc((size_t)nmem, sizeof *m->mem);
  if (!m->table || !m->mem || t->ops->recv_piece(t->link, q, m->table, sizeof(int64_t) * (size_t)words) != 0) {
    msg_free(m);
    return NULL;
  }
  /* the members' entries fill the table exactly; each buffer's size is sane */
  int64_t w = 0, nptr = 0, total = 0;
  for (int32_t k = 0; k < m->nmem; k++) {
    if (words - w < 2) goto bad;
    int64_t gid = m->table[w], nb = m->table[w + 1];
    if (gid / t->per_node != q || gid < 0 || nb < 0 || nb > MAX_BUFS || (words - w - 2) / 2 < nb) goto bad;
    m->mem[k] = (Member){(int32_t)gid, (int32_t)nb, m->table + w + 2, m->table + w + 2 + nb, NULL};
    for (int64_t i = 0; i < nb; i++) {
      int64_t b = m->table[w + 2 + i];
      if (b < 0 || b > ((int64_t)1 << 46) - total) goto bad;
      total += aligned(b);
    }
    nptr += nb;
    w += 2 + 2 * nb;
  }
  if (w != words) goto bad;
  m->ptrs = malloc(sizeof(void *) * (size_t)(nptr + 1));
  m->data = aligned_alloc(ALIGN, (size_t)total + ALIGN);
  if (!m->ptrs || !m->data) goto bad;
  int64_t off = 0, p = 0;
  for (int32_t k = 0; k < m->nmem; k++) {
    m->mem[k].ptrs = m->ptrs + p;
    for (int32_t i = 0; i < m->mem[k].nbufs; i++) {
      m->ptrs[p++] = m->data + off;
      off += aligned(m->mem[k].bytes[i]);
    }
  }
  return m;
bad:
  msg_free(m);
  return NULL;
}

static void *rx_main(void *arg) {
  Net *t = arg;
  for (;;) {
    int64_t h[HEAD];
    int q = -1;
    int rc = t->ops->recv_head(t->link, &q, h, sizeof h);
    if (rc == 0) break;
    if (rc < 0 || q < 0 || q >= t->nnodes || q == t->node || (h[0] & ~(int64_t)0xff) != (MAGIC << 8) ||
        h[4] != q) {
      if (q < 0 || q >= t->nnodes || q == t->node) {
        set_broken(t, "the link between the processes failed");
        break;
      }
      lost(t, q);
      continue;
    }
    if ((h[0] & 0xff) == K_FAIL) {
      set_broken(t, "device %d (process %d) failed", (int)h[7], q);
      continue;
    }
    Msg *m = read_table(t, q, h);
    bool ok = m != NULL;
    for (int32_t k = 0; ok && k < m->nmem; k++)
      for (int32_t i = 0; ok && i < m->mem[k].nbufs; i++)
        if (m->mem[k].bytes[i])
          ok = t->ops->recv_piece(t->link, q, (void *)m->mem[k].ptrs[i], (size_t)m->mem[k].bytes[i]) == 0;
    if (!ok) { /* the rest of what q sends can no longer be read in step */
      msg_free(m);
      lost(t, q);
      continue;
    }
    pthread_mutex_lock(&t->mu);
    m->next = t->box;
    t->box = m;
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
  }
  return NULL;
}

/* ---- meetings ---- */

static uint64_t group_hash(int32_t n, const int32_t *ids) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (int32_t k = 0; k < n; k++) h = (h ^ (uint32_t)ids[k]) * 0x100000001b3ull;
  return h;
}

static int fail(Endpoint *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(Endpoint *e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->base.msg, sizeof e->base.msg, fmt, ap);
  va_end(ap);
  return XLACRT_COMM_FAILED;
}

/* Why waits fail, into e's message (t->mu held). */
static void broken_why(Endpoint *e) {
  snprintf(e->base.msg, sizeof e->base.msg, "across processes: %.200s", e->net->why);
}

/* A whole message to process q (one at a time to each process). */
static bool send_to(Net *t, int q, const struct iovec *pieces, int n) {
  pthread_mutex_lock(&t->send_mu[q]);
  bool ok = t->ops->send(t->link, q, pieces, n) == 0;
  pthread_mutex_unlock(&t->send_mu[q]);
  return ok;
}

/* This process's members of a meeting as one message, the same for every
   process it goes to: its pieces are the header, the table and the
   members' buffers. */
typedef struct Outgoing {
  int64_t h[HEAD];
  int64_t *table;
  struct iovec *iov;
  int n;
} Outgoing;

static bool outgoing_make(Net *t, const Meeting *m, Outgoing *o) {
  int64_t words = 0, npieces = 2;
  for (int k = 0; k < m->nlocal; k++) {
    words += 2 + 2 * (int64_t)m->slot[k].nbufs;
    npieces += m->slot[k].nbufs;
  }
  int64_t h[HEAD] = {(MAGIC << 8) | K_MEET, m->key, (int64_t)m->ghash, m->seq, t->node, m->nlocal, words, -1};
  memcpy(o->h, h, sizeof h);
  o->table = malloc(sizeof(int64_t) * (size_t)words);
  o->iov = malloc(sizeof *o->iov * (size_t)npieces);
  if (!o->table || !o->iov) {
    free(o->table);
    free(o->iov);
    return false;
  }
  int64_t w = 0;
  int n = 0;
  o->iov[n++] = (struct iovec){o->h, sizeof o->h};
  o->iov[n++] = (struct iovec){o->table, sizeof(int64_t) * (size_t)words};
  for (int k = 0; k < m->nlocal; k++) {
    const Slot *s = &m->slot[k];
    o->table[w++] = s->gid;
    o->table[w++] = s->nbufs;
    for (int32_t i = 0; i < s->nbufs; i++) o->table[w + i] = s->bytes[i];
    for (int32_t i = 0; i < s->nbufs; i++) o->table[w + s->nbufs + i] = s->sigs[i];
    w += 2 * (int64_t)s->nbufs;
    for (int32_t i = 0; i < s->nbufs; i++)
      if (s->bytes[i]) o->iov[n++] = (struct iovec){(void *)s->bufs[i], (size_t)s->bytes[i]};
  }
  o->n = n;
  return true;
}

/* Takes process q's message of meeting m, waiting for it (t->mu held);
   NULL, why in e's message, when it cannot come. */
static Msg *take(Endpoint *e, Meeting *m, int q) {
  Net *t = e->net;
  for (;;) {
    for (Msg **pp = &t->box; *pp; pp = &(*pp)->next) {
      Msg *g = *pp;
      if (g->src == q && g->key == m->key && (uint64_t)g->ghash == m->ghash && g->seq == m->seq) {
        *pp = g->next;
        g->next = NULL;
        return g;
      }
    }
    if (t->broken) {
      broken_why(e);
      return NULL;
    }
    if (t->dead[q]) {
      fail(e, "collective across processes: the link to process %d was lost (it ended or failed)", q);
      return NULL;
    }
    pthread_cond_wait(&t->cv, &t->mu);
  }
}

static void meeting_free(Meeting *m) {
  for (int i = 0; i < m->nfrom; i++) msg_free(m->from[i]);
  free(m->from);
  free(m->slot);
  free(m);
}

/* Drops a member's hold on m (t->mu held); the last one frees it. */
static void meeting_drop(Net *t, Meeting *m) {
  if (--m->refs > 0) return;
  for (Meeting **pp = &t->meetings; *pp; pp = &(*pp)->next)
    if (*pp == m) {
      *pp = m->next;
      break;
    }
  meeting_free(m);
}

/* Leaves m once no local member reads this one's buffers (t->mu held). */
static void meeting_leave(Net *t, Meeting *m) {
  m->left++;
  pthread_cond_broadcast(&t->cv);
  while (m->left < m->nlocal) pthread_cond_wait(&t->cv, &t->mu);
  meeting_drop(t, m);
}

/* The meeting (key, gh, seq) of this process's nlocal members, made by
   the first of them to come (t->mu held); NULL when memory runs out. */
static Meeting *meeting_find(Net *t, int64_t key, uint64_t gh, int64_t seq, int nlocal, int nfrom) {
  for (Meeting *m = t->meetings; m; m = m->next)
    if (m->key == key && m->ghash == gh && m->seq == seq) return m;
  Meeting *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->slot = calloc((size_t)nlocal, sizeof *m->slot);
  m->from = calloc((size_t)nfrom + 1, sizeof *m->from);
  if (!m->slot || !m->from) {
    free(m->slot);
    free(m->from);
    free(m);
    return NULL;
  }
  m->key = key;
  m->ghash = gh;
  m->seq = seq;
  m->nlocal = m->refs = nlocal;
  m->next = t->meetings;
  t->meetings = m;
  return m;
}

/* The leader's part (t->mu held): once every local member has come, sends
   their buffers to every other process of the group and takes theirs. */
static void lead(Endpoint *e, Meeting *m, const int *procs, int nprocs) {
  Net *t = e->net;
  while (m->arrived < m->nlocal && !t->broken) pthread_cond_wait(&t->cv, &t->mu);
  if (t->broken) {
    broken_why(e);
    snprintf(m->why, sizeof m->why, "%.250s", e->base.msg);
    m->state = -1;
    pthread_cond_broadcast(&t->cv);
    return;
  }
  m->sending = true;
  pthread_mutex_unlock(&t->mu);
  int bad = -1;
  Outgoing o;
  if (nprocs > 0 && !outgoing_make(t, m, &o)) {
    bad = procs[0];
  } else if (nprocs > 0) {
    for (int i = 0; i < nprocs && bad < 0; i++)
      if (!send_to(t, procs[i], o.iov, o.n)) bad = procs[i];
    free(o.table);
    free(o.iov);
  }
  pthread_mutex_lock(&t->mu);
  if (bad >= 0) {
    pthread_mutex_unlock(&t->mu);
    set_broken(t, "sending to process %d failed", bad);
    pthread_mutex_lock(&t->mu);
    fail(e, "collective across processes: sending to process %d failed", bad);
  }
  for (int i = 0; bad < 0 && i < nprocs; i++) {
    Msg *g = take(e, m, procs[i]);
    if (!g) {
      bad = procs[i];
      break;
    }
    m->from[m->nfrom++] = g;
  }
  if (bad >= 0) snprintf(m->why, sizeof m->why, "%.250s", e->base.msg);
  m->state = bad >= 0 ? -1 : 1;
  pthread_cond_broadcast(&t->cv);
}

static int ep_meet(xlacrt_comm *c, int64_t key, int32_t n, const int32_t *ids, int32_t me, int32_t nbufs,
                   const void *const *bufs, const int64_t *bytes, const int64_t *sigs, const void **peers) {
  Endpoint *e = (Endpoint *)c;
  Net *t = e->net;
  if (me < 0 || me >= n || ids[me] != e->gid) return fail(e, "this device is not member %d of its group", me);
  for (int32_t k = 0; k < n; k++)
    if (ids[k] < 0 || ids[k] >= t->nnodes * t->per_node) return fail(e, "no device %d", ids[k]);
  int64_t seq = xlacrt_comm_seq_next(&e->seqs, key, ids, n);
  if (seq < 0) return fail(e, "out of memory");
  /* this process's members (my slot among them) and the other processes,
     in order of their first member */
  int nlocal = 0, slot = -1, nprocs = 0;
  int procs[n > 0 ? n : 1];
  for (int32_t k = 0; k < n; k++) {
    int q = ids[k] / t->per_node;
    if (q == t->node) {
      if (k == me) slot = nlocal;
      nlocal++;
      continue;
    }
    bool seen = false;
    for (int i = 0; i < nprocs && !seen; i++) seen = procs[i] == q;
    if (!seen) procs[nprocs++] = q;
  }
  uint64_t gh = group_hash(n, ids);
  pthread_mutex_lock(&t->mu);
  Meeting *m = meeting_find(t, key, gh, seq, nlocal, nprocs);
  if (!m) {
    pthread_mutex_unlock(&t->mu);
    return fail(e, "out of memory");
  }
  m->slot[slot] = (Slot){e->gid, nbufs, bufs, bytes, sigs};
  m->arrived++;
  pthread_cond_broadcast(&t->cv);
  if (slot == 0)
    lead(e, m, procs, nprocs);
  else /* the leader may be reading this member's buffers once it sends */
    while (m->state == 0 && !(t->broken && !m->sending)) pthread_cond_wait(&t->cv, &t->mu);
  if (m->state != 1) {
    if (m->state == -1)
      snprintf(e->base.msg, sizeof e->base.msg, "%.250s", m->why);
    else
      broken_why(e);
    m->left++;
    meeting_drop(t, m);
    pthread_mutex_unlock(&t->mu);
    return XLACRT_COMM_FAILED;
  }
  /* every member's buffers: this process's where they are, the others'
     from their process's message; all must agree with this one's */
  bool agree = true, found = true;
  for (int32_t k = 0, j = 0; k < n && agree && found; k++) {
    int q = ids[k] / t->per_node;
    int32_t nb;
    const int64_t *b, *s;
    const void *const *p;
    if (q == t->node) {
      const Slot *o = &m->slot[j++];
      nb = o->nbufs, b = o->bytes, s = o->sigs, p = o->bufs;
    } else {
      const Member *o = NULL;
      for (int i = 0; i < m->nfrom && !o; i++)
        if (m->from[i]->src == q)
          for (int32_t x = 0; x < m->from[i]->nmem && !o; x++)
            if (m->from[i]->mem[x].gid == ids[k]) o = &m->from[i]->mem[x];
      found = o != NULL;
      if (!found) break;
      nb = o->nbufs, b = o->bytes, s = o->sigs, p = o->ptrs;
    }
    agree = nb == nbufs;
    for (int32_t i = 0; agree && i < nbufs; i++) {
      agree = b[i] == bytes[i] && s[i] == sigs[i];
      peers[(size_t)k * (size_t)nbufs + (size_t)i] = p[i];
    }
  }
  if (!agree || !found) {
    meeting_leave(t, m);
    pthread_mutex_unlock(&t->mu);
    return fail(e, !found ? "collective across processes: a process's message lacks one of the group's devices"
                          : "collective across processes: the members' operands differ in count, size or type");
  }
  e->at = m;
  pthread_mutex_unlock(&t->mu);
  return XLACRT_COMM_OK;
}

static void ep_leave(xlacrt_comm *c) {
  Endpoint *e = (Endpoint *)c;
  if (!e->at) return;
  pthread_mutex_lock(&e->net->mu);
  meeting_leave(e->net, e->at);
  e->at = NULL;
  pthread_mutex_unlock(&e->net->mu);
}

static int ep_send(xlacrt_comm *c, int64_t channel, int32_t nbufs, const void *const *bufs, const int64_t *bytes,
                   const int64_t *sigs) {
  (void)channel, (void)nbufs, (void)bufs, (void)bytes, (void)sigs;
  return fail((Endpoint *)c, "send/recv across processes with several devices each are not offered (one device "
              "per process under mpirun has them)");
}

static int ep_recv(xlacrt_comm *c, int64_t channel, int32_t nbufs, void *const *bufs, const int64_t *bytes,
                   const int64_t *sigs) {
  (void)channel, (void)nbufs, (void)bufs, (void)bytes, (void)sigs;
  return fail((Endpoint *)c, "send/recv across processes with several devices each are not offered (one device "
              "per process under mpirun has them)");
}

static const xlacrt_comm_ops ep_ops = {ep_meet, ep_leave, ep_send, ep_recv, NULL};

/* ---- the net ---- */

Net *net_new(int node, int nnodes, int per_node, const NetLinkOps *ops, void *link, char *err, size_t errlen) {
  if (node < 0 || node >= nnodes || per_node < 1) {
    snprintf(err, errlen, "process %d of %d with %d devices each", node, nnodes, per_node);
    return NULL;
  }
  Net *t = calloc(1, sizeof *t);
  if (!t) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  t->node = node;
  t->nnodes = nnodes;
  t->per_node = per_node;
  t->ops = ops;
  t->link = link;
  t->send_mu = calloc((size_t)nnodes, sizeof *t->send_mu);
  t->dead = calloc((size_t)nnodes, sizeof(bool));
  t->ep = calloc((size_t)per_node, sizeof *t->ep);
  pthread_mutex_init(&t->mu, NULL);
  pthread_cond_init(&t->cv, NULL);
  if (!t->send_mu || !t->dead || !t->ep) {
    snprintf(err, errlen, "out of memory");
    net_free(t);
    return NULL;
  }
  for (int q = 0; q < nnodes; q++) pthread_mutex_init(&t->send_mu[q], NULL);
  for (int i = 0; i < per_node; i++) {
    Endpoint *e = &t->ep[i];
    e->base.ops = &ep_ops;
    e->net = t;
    e->gid = node * per_node + i;
    pthread_mutex_init(&e->run, NULL);
  }
  if (pthread_create(&t->rx, NULL, rx_main, t) != 0) {
    snprintf(err, errlen, "cannot start the receiving thread");
    net_free(t);
    return NULL;
  }
  t->rx_started = true;
  return t;
}

xlacrt_comm *net_endpoint(Net *t, int i) { return t && i >= 0 && i < t->per_node ? &t->ep[i].base : NULL; }

int net_endpoint_begin(xlacrt_comm *c, char *err, size_t errlen) {
  Endpoint *e = (Endpoint *)c;
  Net *t = e->net;
  pthread_mutex_lock(&e->run);
  pthread_mutex_lock(&t->mu);
  bool broken = t->broken;
  if (broken) snprintf(err, errlen, "collectives across processes are broken: %s", t->why);
  pthread_mutex_unlock(&t->mu);
  if (broken) pthread_mutex_unlock(&e->run);
  return !broken;
}

void net_endpoint_fail(xlacrt_comm *c) {
  Endpoint *e = (Endpoint *)c;
  Net *t = e->net;
  /* the others must not wait for this device: a failure that starts here
     is recorded first and told to every other process; one caused by a
     failure already known (the net is broken) tells nobody, so that the
     first cause is what every process reports */
  if (!set_broken(t, "device %d (process %d) failed", e->gid, t->node)) return;
  int64_t h[HEAD] = {(MAGIC << 8) | K_FAIL, 0, 0, 0, t->node, 0, 0, e->gid};
  struct iovec iov = {h, sizeof h};
  for (int q = 0; q < t->nnodes; q++)
    if (q != t->node) send_to(t, q, &iov, 1);
}

void net_endpoint_end(xlacrt_comm *c, int ok) {
  Endpoint *e = (Endpoint *)c;
  if (!ok) net_endpoint_fail(c);
  pthread_mutex_unlock(&e->run);
}

void net_free(Net *t) {
  if (!t) return;
  if (t->rx_started) {
    t->ops->stop(t->link);
    pthread_join(t->rx, NULL);
  }
  for (int q = 0; t->send_mu && q < t->nnodes; q++) pthread_mutex_destroy(&t->send_mu[q]);
  for (int i = 0; t->ep && i < t->per_node; i++) {
    xlacrt_comm_seqs_free(&t->ep[i].seqs);
    pthread_mutex_destroy(&t->ep[i].run);
  }
  while (t->box) {
    Msg *m = t->box;
    t->box = m->next;
    msg_free(m);
  }
  while (t->meetings) {
    Meeting *m = t->meetings;
    t->meetings = m->next;
    meeting_free(m);
  }
  pthread_mutex_destroy(&t->mu);
  pthread_cond_destroy(&t->cv);
  free(t->send_mu);
  free(t->dead);
  free(t->ep);
  free(t);
}
