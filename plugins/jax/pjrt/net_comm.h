/*
 * net_comm.h - collectives between processes with several devices each,
 * for the PJRT plugin when JAX runs in several processes: over TCP
 * (tcp_comm.h: JAX's own launchers) or over MPI (mpi_bridge.h: under
 * mpirun), the same meetings on either link.
 *
 * Every device of every process is an endpoint (runtime/xlacrt.h's
 * xlacrt_comm) whose ids are global device ids: device g lives in process
 * g / per_node.  At a meeting the members that live in one process meet
 * first, in memory (each reads the others' buffers where they are); then
 * one of them, the leader (the first in group order), sends every other
 * process of the group one message with all of their buffers and takes
 * one message from each, and every local member reads the remote members'
 * buffers from those.  Messages are matched by the collective's key, its
 * group and how many times the group met before.  One thread per process
 * receives.  A failed execution tells the other processes, and a lost
 * link fails whoever waits on it: the net is then broken (later
 * executions fail at once) rather than hung.  send/recv over channels
 * are not offered.
 */
#ifndef XLAC_PJRT_NET_COMM_H
#define XLAC_PJRT_NET_COMM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "xlacrt.h"

/* What the net asks of a link between the processes.  A message is sent
   as pieces (an iovec; empty pieces are skipped by both ends) and read
   back in the same pieces: its header, then what the header says follows.
   Every function returns 0 on success, -1 on failure. */
typedef struct NetLinkOps {
  /* sends a whole message to process q (the net never sends two to one
     process at once) */
  int (*send)(void *link, int q, const struct iovec *pieces, int n);
  /* waits for the first piece of the next message from any process: its
     sender in *q and n bytes in buf.  1 when one came, 0 when stopped,
     -1 when the link to *q (or with *q == -1, every link) failed */
  int (*recv_head)(void *link, int *q, void *buf, size_t n);
  /* the next piece of the message process q is sending: n bytes */
  int (*recv_piece)(void *link, int q, void *buf, size_t n);
  /* makes recv_head return 0 (from another thread) */
  void (*stop)(void *link);
} NetLinkOps;

typedef struct Net Net;

/* A net of nnodes processes with per_node devices each, this one node,
   over link (which it does not own); starts the receiving thread.  NULL,
   with why in err, on failure. */
Net *net_new(int node, int nnodes, int per_node, const NetLinkOps *ops, void *link, char *err, size_t errlen);
/* The endpoint of this process's local device i (0 <= i < per_node). */
xlacrt_comm *net_endpoint(Net *t, int i);
/* Around one execution on endpoint c: begin returns 0 (why in err) when
   the net is broken; fail, from the device's own thread as soon as its
   execution failed, tells the other members (here and in the other
   processes) not to wait for it; end with ok == 0 does the same. */
int net_endpoint_begin(xlacrt_comm *c, char *err, size_t errlen);
void net_endpoint_fail(xlacrt_comm *c);
void net_endpoint_end(xlacrt_comm *c, int ok);
/* Stops the receiving thread (the link's stop) and frees the net. */
void net_free(Net *t);

#endif
