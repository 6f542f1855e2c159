/*
 * tcp_comm.c - the TCP link between processes (tcp_comm.h).  A message's
 * pieces go out with one writev (under the net's lock for that process)
 * and are read back whole, one after another, from the connection.
 */
#include "tcp_comm.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define MAGIC 0x786c6163746370LL /* "xlactcp" */

struct TcpLink {
  int node, nnodes;
  uint64_t token;
  int listen_fd;
  int *fd;        /* [nnodes]: the connection to each process (-1: none) */
  atomic_bool *dead; /* [nnodes]: lost (the receiver no longer reads it) */
  int wake[2];    /* a byte here stops the receiver */
  int next;       /* where the receiver's next look starts (fairness) */
  struct pollfd *pf; /* [nnodes + 1]: the receiver's poll set */
  int *who;          /* [nnodes + 1]: the process of each entry */
};

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

/* ---- the link's functions ---- */

static int link_send(void *link, int q, const struct iovec *pieces, int n) {
  TcpLink *t = link;
  if (q < 0 || q >= t->nnodes || t->fd[q] < 0 || atomic_load(&t->dead[q])) return -1;
  struct iovec *iov = malloc(sizeof *iov * (size_t)(n > 0 ? n : 1));
  if (!iov) return -1;
  int k = 0;
  for (int i = 0; i < n; i++)
    if (pieces[i].iov_len) iov[k++] = pieces[i];
  bool ok = write_all(t->fd[q], iov, k);
  free(iov);
  return ok ? 0 : -1;
}

static int link_recv_head(void *link, int *q, void *buf, size_t n) {
  TcpLink *t = link;
  struct pollfd *pf = t->pf;
  int *who = t->who;
  int rc = -1;
  *q = -1;
  for (;;) {
    int np = 0;
    pf[np++] = (struct pollfd){.fd = t->wake[0], .events = POLLIN};
    for (int i = 0; i < t->nnodes; i++) {
      int p = (t->next + i) % t->nnodes;
      if (t->fd[p] >= 0 && !atomic_load(&t->dead[p])) {
        who[np] = p;
        pf[np++] = (struct pollfd){.fd = t->fd[p], .events = POLLIN};
      }
    }
    if (poll(pf, (nfds_t)np, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (pf[0].revents) {
      rc = 0;
      break;
    }
    int k = 1;
    while (k < np && !pf[k].revents) k++;
    if (k == np) continue;
    *q = who[k];
    t->next = (*q + 1) % t->nnodes;
    if (read_all(t->fd[*q], buf, n)) {
      rc = 1;
    } else {
      atomic_store(&t->dead[*q], true);
      rc = -1;
    }
    break;
  }
  return rc;
}

static int link_recv_piece(void *link, int q, void *buf, size_t n) {
  TcpLink *t = link;
  if (q < 0 || q >= t->nnodes || t->fd[q] < 0) return -1;
  if (read_all(t->fd[q], buf, n)) return 0;
  atomic_store(&t->dead[q], true);
  return -1;
}

static void link_stop(void *link) {
  TcpLink *t = link;
  char b = 1;
  (void)!write(t->wake[1], &b, 1);
}

const NetLinkOps tcp_link_ops = {link_send, link_recv_head, link_recv_piece, link_stop};

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

TcpLink *tcp_link_new(int node, int nnodes, uint64_t token, char *addr, size_t addrlen, char *err, size_t errlen) {
  TcpLink *t = calloc(1, sizeof *t);
  if (!t) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  t->node = node;
  t->nnodes = nnodes;
  t->token = token;
  t->wake[0] = t->wake[1] = -1;
  t->listen_fd = -1;
  t->fd = malloc(sizeof(int) * (size_t)nnodes);
  t->dead = calloc((size_t)nnodes, sizeof *t->dead);
  t->pf = calloc((size_t)nnodes + 1, sizeof *t->pf);
  t->who = calloc((size_t)nnodes + 1, sizeof *t->who);
  if (!t->fd || !t->dead || !t->pf || !t->who) {
    snprintf(err, errlen, "out of memory");
    tcp_link_free(t);
    return NULL;
  }
  for (int q = 0; q < nnodes; q++) t->fd[q] = -1;
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
  socklen_t len = sizeof sa;
  t->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (t->listen_fd < 0 || bind(t->listen_fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
      listen(t->listen_fd, nnodes) != 0 || getsockname(t->listen_fd, (struct sockaddr *)&sa, &len) != 0 ||
      pipe2(t->wake, O_CLOEXEC) != 0) {
    snprintf(err, errlen, "listening for the other processes: %s", strerror(errno));
    tcp_link_free(t);
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

int tcp_link_connect(TcpLink *t, const char *const *addrs, int timeout_ms, char *err, size_t errlen) {
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
  return 0;
}


void tcp_link_free(TcpLink *t) {
  if (!t) return;
  for (int q = 0; t->fd && q < t->nnodes; q++)
    if (t->fd[q] >= 0) close(t->fd[q]);
  if (t->listen_fd >= 0) close(t->listen_fd);
  if (t->wake[0] >= 0) close(t->wake[0]);
  if (t->wake[1] >= 0) close(t->wake[1]);
  free(t->fd);
  free((void *)t->dead);
  free(t->pf);
  free(t->who);
  free(t);
}
