/*
 * test_tcp_comm.c - the PJRT plugin's net between processes
 * (plugins/jax/pjrt/net_comm.h) on its TCP link (tcp_comm.h), in one
 * process: two "processes" of two devices each, joined over loopback,
 * their four devices meeting from four threads, as the plugin's
 * executions do.  Checks what every member receives, meetings repeated,
 * of sub-groups across the processes and of groups with two members in
 * one process and one in the other (whose leader is not the process's
 * first device), disagreeing operands, a failed device failing the
 * others' waits, and strangers refused.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tcp_comm.h"

static int failures, checks;
#define CHECK(c, ...)                                                                                                  \
  do {                                                                                                                 \
    checks++;                                                                                                          \
    if (!(c)) {                                                                                                        \
      failures++;                                                                                                      \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                                      \
      printf(__VA_ARGS__);                                                                                             \
      printf("\n");                                                                                                    \
    }                                                                                                                  \
  } while (0)

enum { NODES = 2, PER = 2, NDEV = NODES * PER };

typedef struct Conn {
  TcpLink *l;
  Net *t;
  char addrs[NODES][300];
  int rc;
  char err[256];
} Conn;

static Conn conns[NODES];

static void *connect_main(void *arg) {
  Conn *c = arg;
  const char *addrs[NODES];
  for (int q = 0; q < NODES; q++) addrs[q] = conns[q].addrs[q];
  c->rc = tcp_link_connect(c->l, addrs, 20000, c->err, sizeof c->err);
  if (c->rc == 0 && !(c->t = net_new((int)(c - conns), NODES, PER, &tcp_link_ops, c->l, c->err, sizeof c->err)))
    c->rc = -1;
  return NULL;
}

typedef struct Dev {
  int gid;
  xlacrt_comm *c;
  int round;  /* which test */
  int ok;     /* what the member saw was right */
  int rc;
  char msg[256];
} Dev;

static Dev devs[NDEV];

/* every member publishes two buffers: its id repeated (ints), and a
   round-dependent byte count */
static void *dev_main(void *arg) {
  Dev *d = arg;
  d->ok = 1;
  char why[256];
  if (!net_endpoint_begin(d->c, why, sizeof why)) {
    d->rc = -1;
    snprintf(d->msg, sizeof d->msg, "%s", why);
    return NULL;
  }
  int32_t all[NDEV] = {0, 1, 2, 3};
  int32_t pair[2] = {d->gid % 2, d->gid % 2 + 2}; /* {0,2} or {1,3}: across the processes */
  int32_t three[3] = {1, 0, 3}; /* two members in process 0 (led by device 1), one in process 1 */
  for (int rep = 0; rep < 4 && d->rc == 0; rep++) {
    int32_t mine[5];
    for (int i = 0; i < 5; i++) mine[i] = d->gid * 100 + rep * 10 + i;
    int64_t big_n = d->round == 1 && d->gid == 3 ? 7 : 1 << 16; /* round 1: member 3 disagrees */
    char *big = malloc((size_t)big_n);
    memset(big, 'a' + d->gid, (size_t)big_n);
    const void *bufs[2] = {mine, big};
    int64_t bytes[2] = {sizeof mine, big_n}, sigs[2] = {5, 6};
    const void *peers[NDEV * 2];
    int rc;
    if (d->round == 2 && d->gid == 3) { /* round 2: device 3 fails before the meeting */
      free(big);
      d->rc = -2;
      break;
    }
    if (rep == 2 && d->gid != 2) {
      int me = d->gid == 1 ? 0 : d->gid == 0 ? 1 : 2;
      rc = d->c->ops->meet(d->c, 9, 3, three, me, 2, bufs, bytes, sigs, peers);
      if (rc == XLACRT_COMM_OK) {
        for (int k = 0; k < 3; k++)
          d->ok &= ((const int32_t *)peers[k * 2])[3] == three[k] * 100 + rep * 10 + 3 &&
                   ((const char *)peers[k * 2 + 1])[4096] == 'a' + three[k];
        d->c->ops->leave(d->c);
      }
    } else if (rep == 2) {
      rc = XLACRT_COMM_OK; /* device 2 is in no group this time */
    } else if (rep == 1) { /* a sub-group in between */
      int me = d->gid / 2;
      rc = d->c->ops->meet(d->c, 7, 2, pair, me, 2, bufs, bytes, sigs, peers);
      if (rc == XLACRT_COMM_OK) {
        for (int k = 0; k < 2; k++)
          d->ok &= ((const int32_t *)peers[k * 2])[4] == pair[k] * 100 + rep * 10 + 4 &&
                   ((const char *)peers[k * 2 + 1])[65535] == 'a' + pair[k];
        d->c->ops->leave(d->c);
      }
    } else {
      rc = d->c->ops->meet(d->c, 3, NDEV, all, d->gid, 2, bufs, bytes, sigs, peers);
      if (rc == XLACRT_COMM_OK) {
        for (int k = 0; k < NDEV; k++)
          for (int i = 0; i < 5; i++) d->ok &= ((const int32_t *)peers[k * 2])[i] == k * 100 + rep * 10 + i;
        for (int k = 0; k < NDEV; k++) d->ok &= ((const char *)peers[k * 2 + 1])[100] == 'a' + k;
        d->c->ops->leave(d->c);
      }
    }
    free(big);
    if (rc != XLACRT_COMM_OK) {
      d->rc = rc;
      snprintf(d->msg, sizeof d->msg, "%s", d->c->msg);
    }
  }
  net_endpoint_end(d->c, d->rc == 0);
  return NULL;
}

static void run_round(int round) {
  pthread_t th[NDEV];
  for (int g = 0; g < NDEV; g++) {
    devs[g] = (Dev){.gid = g, .c = net_endpoint(conns[g / PER].t, g % PER), .round = round};
    pthread_create(&th[g], NULL, dev_main, &devs[g]);
  }
  for (int g = 0; g < NDEV; g++) pthread_join(th[g], NULL);
}

int main(void) {
  char err[256];
  for (int q = 0; q < NODES; q++) {
    conns[q].l = tcp_link_new(q, NODES, 0x1234abcdULL, conns[q].addrs[q], sizeof conns[q].addrs[q], err, sizeof err);
    CHECK(conns[q].l != NULL, "tcp_link_new: %s", err);
    if (!conns[q].l) return 1;
  }
  for (int q = 0; q < NODES; q++)
    for (int r = 0; r < NODES; r++) memcpy(conns[r].addrs[q], conns[q].addrs[q], sizeof conns[q].addrs[q]);

  /* a stranger (wrong secret) knocking first is dropped, not taken for process 1 */
  const char *colon = strrchr(conns[0].addrs[0], ':');
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(colon + 1))};
  inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
  int stranger = socket(AF_INET, SOCK_STREAM, 0);
  if (connect(stranger, (struct sockaddr *)&sa, sizeof sa) == 0) {
    int64_t hello[3] = {0x786c6163746370LL, 999, 1};
    (void)!write(stranger, hello, sizeof hello);
  }

  pthread_t th[NODES];
  for (int q = 0; q < NODES; q++) pthread_create(&th[q], NULL, connect_main, &conns[q]);
  for (int q = 0; q < NODES; q++) pthread_join(th[q], NULL);
  close(stranger);
  for (int q = 0; q < NODES; q++) CHECK(conns[q].rc == 0, "process %d connects: %s", q, conns[q].err);
  if (conns[0].rc || conns[1].rc) return 1;

  run_round(0);
  for (int g = 0; g < NDEV; g++) {
    CHECK(devs[g].rc == 0, "device %d meets: %s", g, devs[g].msg);
    CHECK(devs[g].ok, "device %d received every member's buffers", g);
  }

  run_round(1); /* device 3's second buffer is shorter: everybody fails, nobody hangs (a member may
                   learn it from another's failure first) */
  int differ = 0;
  for (int g = 0; g < NDEV; g++) {
    CHECK(devs[g].rc == XLACRT_COMM_FAILED, "device %d: disagreeing operands: %d %s", g, devs[g].rc, devs[g].msg);
    differ += strstr(devs[g].msg, "differ") != NULL;
  }
  CHECK(differ > 0, "someone says the operands differ");

  /* a disagreement fails the execution: the net is broken since */
  char why[256];
  CHECK(!net_endpoint_begin(net_endpoint(conns[0].t, 0), why, sizeof why) && strstr(why, "failed"),
        "after a failure executions fail at once: %s", why);

  for (int q = 0; q < NODES; q++) {
    net_free(conns[q].t);
    tcp_link_free(conns[q].l);
  }

  /* a device that fails before meeting: the others' waits fail (a fresh net) */
  for (int q = 0; q < NODES; q++) {
    conns[q].l = tcp_link_new(q, NODES, 77, conns[q].addrs[q], sizeof conns[q].addrs[q], err, sizeof err);
    if (!conns[q].l) return 1;
  }
  for (int q = 0; q < NODES; q++)
    for (int r = 0; r < NODES; r++) memcpy(conns[r].addrs[q], conns[q].addrs[q], sizeof conns[q].addrs[q]);
  for (int q = 0; q < NODES; q++) pthread_create(&th[q], NULL, connect_main, &conns[q]);
  for (int q = 0; q < NODES; q++) pthread_join(th[q], NULL);
  run_round(2);
  for (int g = 0; g < 3; g++)
    CHECK(devs[g].rc != 0 && strstr(devs[g].msg, "device 3"), "device %d learns device 3 failed: %s", g,
          devs[g].msg);
  for (int q = 0; q < NODES; q++) {
    net_free(conns[q].t);
    tcp_link_free(conns[q].l);
  }

  printf("%d passed, %d failed\n", checks - failures, failures);
  return failures != 0;
}
