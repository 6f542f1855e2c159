/*
 * tcp_comm.c - collectives between processes over TCP (tcp_comm.h).
 *
 * Wire format, little-endian int64 words: a header of HEAD words (magic
 * and kind, key, group hash, meeting number, source device, destination
 * device, buffer count), then each buffer's byte count and type
 * fingerprint, then the buffers' bytes one after another.  The first
 * message on a connection is the greeting: magic, the token, the
 * connecting process's number.
 */
#include "tcp_comm.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define MAGIC 0x786c6163746370LL /* "xlactcp" */
#define HEAD 7
#define MAX_BUFS (1 << 20)
enum { K_MEET = 1, K_FAIL = 2 };

typedef struct Msg {
  struct Msg *next;
  int64_t key, ghash, seq;
  int32_t src, dst, nbufs;
  int64_t *bytes, *sigs;
  const void **ptrs;
  char *data;
} Msg;

typedef struct Endpoint {
  xlacrt_comm base; /* first: the runtime's view */
  struct TcpNet *net;
  int gid;
  pthread_mutex_t run; /* one execution at a time */
  xlacrt_comm_seqs seqs;
  Msg **held; /* the last meeting's messages, freed at leave */
  int nheld, capheld;
} Endpoint;

struct TcpNet {
  int node, nnodes, per_node;
  uint64_t token;
  int listen_fd;
  int *fd;                  /* [nnodes]: the connection to each process (-1: none) */
  pthread_mutex_t *send_mu; /* [nnodes] */
  int wake[2];              /* a byte here stops the receiver */
  pthread_t rx;
  bool rx_started;
  pthread_mutex_t mu; /* the fields below */
  pthread_cond_t cv;
  Msg *box;   /* received, not taken yet */
  bool *dead; /* [nnodes]: its connection was lost */
  bool broken;
  char why[240];
  Endpoint *ep; /* [per_node] */
};

static void msg_free(Msg *m) {
  if (!m) return;
  free(m->bytes);
  free(m->ptrs);
  free(m->data);
  free(m);
}

/* Breaks the net for why; true when this is its first cause. */
static bool set_broken(TcpNet *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool set_broken(TcpNet *t, const char *fmt, ...) {
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

/* ---- whole reads and writes ---- */

static bool read_all(int fd, void *p, size_t n) {
  char *c = p;
  while (n) {
    ssize_t r = read(fd, c, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    c += r;
    n -= (size_t)r;
  }
  return true;
}

static bool write_all(int fd, struct iovec *iov, int n) {
  while (n > 0) {
    int chunk = n > 512 ? 512 : n;
    ssize_t w = writev(fd, iov, chunk);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    size_t left = (size_t)w;
    while (left && n > 0) {
      if (left >= iov->iov_len) {
        left -= iov->iov_len;
        iov++;
        n--;
      } else {
        iov->iov_base = (char *)iov->iov_base + left;
        iov->iov_len -= left;
        left = 0;
      }
    }
    while (n > 0 && iov->iov_len == 0) {
      iov++;
      n--;
    }
  }
  return true;
}

/* ---- the receiver ---- */

/* A message of header h (its table and data to fill in: msg_lay_out);
   NULL when the count is out of range or memory runs out. */
static Msg *msg_new(const int64_t *h) {
  if (h[6] < 0 || h[6] > MAX_BUFS) return NULL;
  Msg *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->key = h[1];
  m->ghash = h[2];
  m->seq = h[3];
  m->src = (int32_t)h[4];
  m->dst = (int32_t)h[5];
  m->nbufs = (int32_t)h[6];
  size_t nb = (size_t)m->nbufs;
  /* (the table is bytes then sigs) */
  m->bytes = malloc(sizeof(int64_t) * 2 * (nb + 1));
  m->ptrs = malloc(sizeof(void *) * (nb + 1));
  if (!m->bytes || !m->ptrs) {
    msg_free(m);
    return NULL;
  }
  m->sigs = m->bytes + nb;
  return m;
}

/* With the table filled in: room for the buffers, one after another;
   false when the sizes do not make sense or memory runs out. */
static bool msg_lay_out(Msg *m) {
  int64_t total = 0;
  for (int32_t i = 0; i < m->nbufs; i++) {
    if (m->bytes[i] < 0 || m->bytes[i] > ((int64_t)1 << 46) - total) return false;
    total += m->bytes[i];
  }
  if (!(m->data = malloc((size_t)total + 1))) return false;
  int64_t off = 0;
  for (int32_t i = 0; i < m->nbufs; i++) {
    m->ptrs[i] = m->data + off;
    off += m->bytes[i];
  }
  return true;
}

/* Reads one message after its header (h); NULL when the connection or
   memory fails or the message is malformed. */
static Msg *read_body(int fd, const int64_t *h) {
  Msg *m = msg_new(h);
  if (!m) return NULL;
  size_t table = sizeof(int64_t) * 2 * (size_t)m->nbufs;
  int64_t total = 0;
  bool ok = read_all(fd, m->bytes, table) && msg_lay_out(m);
  for (int32_t i = 0; ok && i < m->nbufs; i++) total += m->bytes[i];
  if (!ok || !read_all(fd, m->data, (size_t)total)) {
    msg_free(m);
    return NULL;
  }
  return m;
}

/* Hands m to whoever waits for it. */
static void box_put(TcpNet *t, Msg *m) {
  pthread_mutex_lock(&t->mu);
  m->next = t->box;
  t->box = m;
  pthread_cond_broadcast(&t->cv);
  pthread_mutex_unlock(&t->mu);
}

static void lost(TcpNet *t, int q) {
  pthread_mutex_lock(&t->mu);
  t->dead[q] = true;
  pthread_cond_broadcast(&t->cv);
  pthread_mutex_unlock(&t->mu);
}

static void *rx_main(void *arg) {
  TcpNet *t = arg;
  struct pollfd *pf = calloc((size_t)t->nnodes + 1, sizeof *pf);
  int *who = calloc((size_t)t->nnodes + 1, sizeof(int));
  if (!pf || !who) {
    set_broken(t, "the receiver has no memory");
    free(pf);
    free(who);
    return NULL;
  }
  for (;;) {
    int n = 0;
    pf[n++] = (struct pollfd){.fd = t->wake[0], .events = POLLIN};
    for (int q = 0; q < t->nnodes; q++)
      if (t->fd[q] >= 0 && !t->dead[q]) {
        who[n] = q;
        pf[n++] = (struct pollfd){.fd = t->fd[q], .events = POLLIN};
      }
    if (poll(pf, (nfds_t)n, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (pf[0].revents) break;
    for (int k = 1; k < n; k++) {
      if (!pf[k].revents) continue;
      int q = who[k];
      int64_t h[HEAD];
      Msg *m = NULL;
      if (!read_all(t->fd[q], h, sizeof h) || (h[0] & ~(int64_t)0xff) != (MAGIC << 8)) {
        lost(t, q);
        continue;
      }
      if ((h[0] & 0xff) == K_FAIL) {
        set_broken(t, "device %d (process %d) failed", (int)h[4], q);
        continue;
      }
      if (!(m = read_body(t->fd[q], h))) {
        lost(t, q);
        continue;
      }
      box_put(t, m);
    }
  }
  free(pf);
  free(who);
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

/* Sends this endpoint's buffers to device dst as meeting (key, ghash, seq). */
static bool send_meet(Endpoint *e, int dst, int64_t key, uint64_t ghash, int64_t seq, int32_t nbufs,
                      const void *const *bufs, const int64_t *bytes, const int64_t *sigs) {
  TcpNet *t = e->net;
  int q = dst / t->per_node;
  int64_t h[HEAD] = {(MAGIC << 8) | K_MEET, key, (int64_t)ghash, seq, e->gid, dst, nbufs};
  if (q == t->node) { /* a device of this process: the copy goes straight into the box */
    Msg *m = msg_new(h);
    if (!m) return false;
    for (int32_t i = 0; i < nbufs; i++) {
      m->bytes[i] = bytes[i];
      m->sigs[i] = sigs[i];
    }
    if (!msg_lay_out(m)) {
      msg_free(m);
      return false;
    }
    for (int32_t i = 0; i < nbufs; i++)
      if (bytes[i]) memcpy((void *)m->ptrs[i], bufs[i], (size_t)bytes[i]);
    box_put(t, m);
    return true;
  }
  int64_t *table = malloc(sizeof(int64_t) * 2 * ((size_t)nbufs + 1));
  struct iovec *iov = malloc(sizeof *iov * ((size_t)nbufs + 2));
  if (!table || !iov) {
    free(table);
    free(iov);
    return false;
  }
  for (int32_t i = 0; i < nbufs; i++) {
    table[i] = bytes[i];
    table[nbufs + i] = sigs[i];
  }
  int n = 0;
  iov[n++] = (struct iovec){h, sizeof h};
  iov[n++] = (struct iovec){table, sizeof(int64_t) * 2 * (size_t)nbufs};
  for (int32_t i = 0; i < nbufs; i++)
    if (bytes[i]) iov[n++] = (struct iovec){(void *)bufs[i], (size_t)bytes[i]};
  pthread_mutex_lock(&t->send_mu[q]);
  bool ok = t->fd[q] >= 0 && write_all(t->fd[q], iov, n);
  pthread_mutex_unlock(&t->send_mu[q]);
  free(table);
  free(iov);
  return ok;
}

/* Takes device src's message of meeting (key, ghash, seq) for e, waiting
   for it; NULL (why in e's msg) when it cannot come. */
static Msg *take(Endpoint *e, int src, int64_t key, uint64_t ghash, int64_t seq) {
  TcpNet *t = e->net;
  int q = src / t->per_node;
  pthread_mutex_lock(&t->mu);
  for (;;) {
    for (Msg **pp = &t->box; *pp; pp = &(*pp)->next) {
      Msg *m = *pp;
      if (m->dst == e->gid && m->src == src && m->key == key && (uint64_t)m->ghash == ghash && m->seq == seq) {
        *pp = m->next;
        pthread_mutex_unlock(&t->mu);
        return m;
      }
    }
    if (t->broken || t->dead[q]) {
      if (t->broken)
        snprintf(e->base.msg, sizeof e->base.msg, "across processes: %.200s", t->why);
      else
        snprintf(e->base.msg, sizeof e->base.msg, "collective across processes: the connection to process %d was "
                 "lost (it ended or failed)", q);
      pthread_mutex_unlock(&t->mu);
      return NULL;
    }
    pthread_cond_wait(&t->cv, &t->mu);
  }
}

static void release_held(Endpoint *e) {
  for (int i = 0; i < e->nheld; i++) msg_free(e->held[i]);
  e->nheld = 0;
}

static int ep_meet(xlacrt_comm *c, int64_t key, int32_t n, const int32_t *ids, int32_t me, int32_t nbufs,
                   const void *const *bufs, const int64_t *bytes, const int64_t *sigs, const void **peers) {
  Endpoint *e = (Endpoint *)c;
  TcpNet *t = e->net;
  release_held(e);
  if (me < 0 || me >= n || ids[me] != e->gid) return fail(e, "this device is not member %d of its group", me);
  for (int32_t k = 0; k < n; k++)
    if (ids[k] < 0 || ids[k] >= t->nnodes * t->per_node) return fail(e, "no device %d", ids[k]);
  int64_t seq = xlacrt_comm_seq_next(&e->seqs, key, ids, n);
  if (seq < 0) return fail(e, "out of memory");
  if (e->capheld < n) {
    Msg **h = realloc(e->held, sizeof *h * (size_t)n);
    if (!h) return fail(e, "out of memory");
    e->held = h;
    e->capheld = n;
  }
  uint64_t gh = group_hash(n, ids);
  for (int32_t k = 0; k < n; k++)
    if (k != me && !send_meet(e, ids[k], key, gh, seq, nbufs, bufs, bytes, sigs)) {
      set_broken(t, "sending to device %d failed", ids[k]);
      return fail(e, "collective across processes: sending to device %d failed", ids[k]);
    }
  bool agree = true;
  for (int32_t k = 0; k < n; k++) {
    if (k == me) {
      for (int32_t i = 0; i < nbufs; i++) peers[(size_t)k * (size_t)nbufs + (size_t)i] = bufs[i];
      continue;
    }
    Msg *m = take(e, ids[k], key, gh, seq);
    if (!m) return XLACRT_COMM_FAILED;
    e->held[e->nheld++] = m;
    agree &= m->nbufs == nbufs;
    for (int32_t i = 0; agree && i < nbufs; i++) {
      agree &= m->bytes[i] == bytes[i] && m->sigs[i] == sigs[i];
      peers[(size_t)k * (size_t)nbufs + (size_t)i] = m->ptrs[i];
    }
  }
  if (!agree) return fail(e, "collective across processes: the members' operands differ in count, size or type");
  return XLACRT_COMM_OK;
}

static void ep_leave(xlacrt_comm *c) { release_held((Endpoint *)c); }

static int ep_send(xlacrt_comm *c, int64_t channel, int32_t nbufs, const void *const *bufs, const int64_t *bytes,
                   const int64_t *sigs) {
  return fail((Endpoint *)c, "send/recv across processes need the MPI transport (mpirun)");
}

static int ep_recv(xlacrt_comm *c, int64_t channel, int32_t nbufs, void *const *bufs, const int64_t *bytes,
                   const int64_t *sigs) {
  return fail((Endpoint *)c, "send/recv across processes need the MPI transport (mpirun)");
}

static const xlacrt_comm_ops ep_ops = {ep_meet, ep_leave, ep_send, ep_recv, NULL};

/* ---- setting up ---- */

static void my_host(char *host, size_t n) {
  const char *given = getenv("XLAC_TCP_HOST");
  if (given && *given) {
    snprintf(host, n, "%s", given);
    return;
  }
  snprintf(host, n, "127.0.0.1");
  char name[256];
  if (gethostname(name, sizeof name) != 0) return;
  name[sizeof name - 1] = 0;
  struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *res = NULL;
  if (getaddrinfo(name, NULL, &hints, &res) != 0 || !res) return;
  inet_ntop(AF_INET, &((struct sockaddr_in *)res->ai_addr)->sin_addr, host, (socklen_t)n);
  freeaddrinfo(res);
}

TcpNet *tcp_net_new(int node, int nnodes, int per_node, uint64_t token, char *addr, size_t addrlen, char *err,
                    size_t errlen) {
  TcpNet *t = calloc(1, sizeof *t);
  if (!t) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  t->node = node;
  t->nnodes = nnodes;
  t->per_node = per_node;
  t->token = token;
  t->wake[0] = t->wake[1] = -1;
  t->fd = malloc(sizeof(int) * (size_t)nnodes);
  t->send_mu = calloc((size_t)nnodes, sizeof *t->send_mu);
  t->dead = calloc((size_t)nnodes, sizeof(bool));
  t->ep = calloc((size_t)per_node, sizeof *t->ep);
  pthread_mutex_init(&t->mu, NULL);
  pthread_cond_init(&t->cv, NULL);
  t->listen_fd = -1;
  if (!t->fd || !t->send_mu || !t->dead || !t->ep) {
    snprintf(err, errlen, "out of memory");
    tcp_net_free(t);
    return NULL;
  }
  for (int q = 0; q < nnodes; q++) {
    t->fd[q] = -1;
    pthread_mutex_init(&t->send_mu[q], NULL);
  }
  for (int i = 0; i < per_node; i++) {
    Endpoint *e = &t->ep[i];
    e->base.ops = &ep_ops;
    e->net = t;
    e->gid = node * per_node + i;
    pthread_mutex_init(&e->run, NULL);
  }
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
  socklen_t len = sizeof sa;
  t->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (t->listen_fd < 0 || bind(t->listen_fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
      listen(t->listen_fd, nnodes) != 0 || getsockname(t->listen_fd, (struct sockaddr *)&sa, &len) != 0 ||
      pipe2(t->wake, O_CLOEXEC) != 0) {
    snprintf(err, errlen, "listening for the other processes: %s", strerror(errno));
    tcp_net_free(t);
    return NULL;
  }
  char host[256];
  my_host(host, sizeof host);
  snprintf(addr, addrlen, "%s:%d", host, ntohs(sa.sin_port));
  return t;
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int dial(const char *addr, int64_t deadline, char *err, size_t errlen) {
  char host[256];
  const char *colon = strrchr(addr, ':');
  if (!colon || colon == addr || (size_t)(colon - addr) >= sizeof host) {
    snprintf(err, errlen, "'%s' is not host:port", addr);
    return -1;
  }
  memcpy(host, addr, (size_t)(colon - addr));
  host[colon - addr] = 0;
  struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *res = NULL;
  int rc = getaddrinfo(host, colon + 1, &hints, &res);
  if (rc != 0 || !res) {
    snprintf(err, errlen, "%s: %s", addr, gai_strerror(rc));
    return -1;
  }
  int fd = -1;
  for (;;) {
    fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && connect(fd, res->ai_addr, res->ai_addrlen) == 0) break;
    int e = errno;
    if (fd >= 0) close(fd);
    fd = -1;
    if (now_ms() > deadline) {
      snprintf(err, errlen, "connecting to %s: %s", addr, strerror(e));
      break;
    }
    struct timespec ts = {0, 50 * 1000000};
    nanosleep(&ts, NULL);
  }
  freeaddrinfo(res);
  return fd;
}

static void tune(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int tcp_net_connect(TcpNet *t, const char *const *addrs, int timeout_ms, char *err, size_t errlen) {
  int64_t deadline = now_ms() + timeout_ms;
  /* this process dials those before it and is dialed by those after */
  for (int q = 0; q < t->node; q++) {
    int fd = dial(addrs[q], deadline, err, errlen);
    if (fd < 0) return -1;
    tune(fd);
    int64_t hello[3] = {MAGIC, (int64_t)t->token, t->node};
    struct iovec iov = {hello, sizeof hello};
    if (!write_all(fd, &iov, 1)) {
      close(fd);
      snprintf(err, errlen, "greeting process %d: %s", q, strerror(errno));
      return -1;
    }
    t->fd[q] = fd;
  }
  for (int waiting = t->nnodes - 1 - t->node; waiting > 0;) {
    struct pollfd pf = {.fd = t->listen_fd, .events = POLLIN};
    int64_t left = deadline - now_ms();
    if (left <= 0 || poll(&pf, 1, (int)left) <= 0) {
      snprintf(err, errlen, "%d of the processes after %d did not connect in time", waiting, t->node);
      return -1;
    }
    int fd = accept4(t->listen_fd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) continue;
    /* a stranger, or a greeting that does not come, is dropped */
    struct timeval tv = {5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    int64_t hello[3];
    if (!read_all(fd, hello, sizeof hello) || hello[0] != MAGIC || (uint64_t)hello[1] != t->token ||
        hello[2] <= t->node || hello[2] >= t->nnodes || t->fd[hello[2]] >= 0) {
      close(fd);
      continue;
    }
    struct timeval none = {0, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &none, sizeof none);
    tune(fd);
    t->fd[hello[2]] = fd;
    waiting--;
  }
  close(t->listen_fd);
  t->listen_fd = -1;
  if (pthread_create(&t->rx, NULL, rx_main, t) != 0) {
    snprintf(err, errlen, "cannot start the receiving thread");
    return -1;
  }
  t->rx_started = true;
  return 0;
}

xlacrt_comm *tcp_net_endpoint(TcpNet *t, int i) { return i >= 0 && i < t->per_node ? &t->ep[i].base : NULL; }

int tcp_endpoint_begin(xlacrt_comm *c, char *err, size_t errlen) {
  Endpoint *e = (Endpoint *)c;
  TcpNet *t = e->net;
  pthread_mutex_lock(&e->run);
  pthread_mutex_lock(&t->mu);
  bool broken = t->broken;
  if (broken) snprintf(err, errlen, "collectives across processes are broken: %s", t->why);
  pthread_mutex_unlock(&t->mu);
  if (broken) pthread_mutex_unlock(&e->run);
  return !broken;
}

void tcp_endpoint_end(xlacrt_comm *c, int ok) {
  Endpoint *e = (Endpoint *)c;
  TcpNet *t = e->net;
  release_held(e);
  /* the others must not wait for this device: a failure that starts here
     is recorded first and told to every other process; one caused by a
     failure already known (the net is broken) tells nobody, so that the
     first cause is what every process reports */
  if (!ok && set_broken(t, "device %d (process %d) failed", e->gid, t->node)) {
    int64_t h[HEAD] = {(MAGIC << 8) | K_FAIL, 0, 0, 0, e->gid, -1, 0};
    for (int q = 0; q < t->nnodes; q++) {
      if (q == t->node || t->fd[q] < 0) continue;
      struct iovec iov = {h, sizeof h};
      pthread_mutex_lock(&t->send_mu[q]);
      write_all(t->fd[q], &iov, 1);
      pthread_mutex_unlock(&t->send_mu[q]);
    }
  }
  pthread_mutex_unlock(&e->run);
}

void tcp_net_free(TcpNet *t) {
  if (!t) return;
  if (t->rx_started) {
    char b = 1;
    (void)!write(t->wake[1], &b, 1);
    pthread_join(t->rx, NULL);
  }
  for (int q = 0; t->fd && q < t->nnodes; q++) {
    if (t->fd[q] >= 0) close(t->fd[q]);
    pthread_mutex_destroy(&t->send_mu[q]);
  }
  if (t->listen_fd >= 0) close(t->listen_fd);
  if (t->wake[0] >= 0) close(t->wake[0]);
  if (t->wake[1] >= 0) close(t->wake[1]);
  for (int i = 0; t->ep && i < t->per_node; i++) {
    release_held(&t->ep[i]);
    free(t->ep[i].held);
    xlacrt_comm_seqs_free(&t->ep[i].seqs);
    pthread_mutex_destroy(&t->ep[i].run);
  }
  while (t->box) {
    Msg *m = t->box;
    t->box = m->next;
    msg_free(m);
  }
  pthread_mutex_destroy(&t->mu);
  pthread_cond_destroy(&t->cv);
  free(t->fd);
  free(t->send_mu);
  free(t->dead);
  free(t->ep);
  free(t);
}
