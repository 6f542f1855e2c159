/*
 * tcp_comm.h - collectives between processes over TCP, for the PJRT plugin
 * when JAX runs several processes that MPI did not start (JAX's own
 * launchers, several devices per process).
 *
 * Every device of every process is an endpoint (runtime/xlacrt.h's
 * xlacrt_comm) whose ids are global device ids: device g lives in process
 * g / per_node.  A meeting sends each member's buffers to every other
 * member (a copy; members in the same process are handed the copy without
 * a socket) and waits for theirs, matched by the collective's key, its
 * group and how many times that member met that group before.  One
 * connection joins each pair of processes; one thread per process
 * receives.  A failed execution tells the other processes, and a lost
 * connection fails whoever waits on it: the net is then broken (later
 * executions fail at once) rather than hung.  send/recv over channels are
 * not offered.
 */
#ifndef XLAC_PJRT_TCP_COMM_H
#define XLAC_PJRT_TCP_COMM_H

#include <stddef.h>
#include <stdint.h>

#include "xlacrt.h"

typedef struct TcpNet TcpNet;

/* Listens for the other processes: *addr receives "host:port" to publish
   (the host from XLAC_TCP_HOST, else this machine's name's first IPv4
   address, else 127.0.0.1).  NULL, with why in err, on failure. */
TcpNet *tcp_net_new(int node, int nnodes, int per_node, uint64_t token, char *addr, size_t addrlen, char *err,
                    size_t errlen);
/* Connects to every other process (addrs[q]: process q's address; token:
   the secret all of them were given), waiting up to timeout_ms.  0, or -1
   with why in err. */
int tcp_net_connect(TcpNet *t, const char *const *addrs, int timeout_ms, char *err, size_t errlen);
/* The endpoint of this process's local device i (0 <= i < per_node). */
xlacrt_comm *tcp_net_endpoint(TcpNet *t, int i);
/* Around one execution on endpoint c: begin is NULL-safe to fail (returns
   0, why in err, when the net is broken); end with ok == 0 tells the
   other processes that this device failed. */
int tcp_endpoint_begin(xlacrt_comm *c, char *err, size_t errlen);
void tcp_endpoint_end(xlacrt_comm *c, int ok);
void tcp_net_free(TcpNet *t);

#endif
