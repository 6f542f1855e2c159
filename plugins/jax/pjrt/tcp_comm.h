/*
 * tcp_comm.h - the TCP link between the processes of a JAX run that MPI
 * did not start (JAX's own launchers), for the net of net_comm.h.
 *
 * One connection joins each pair of processes: each process listens on a
 * port, publishes its address (the plugin uses JAX's key-value store),
 * dials the processes before it and is dialed by those after it.  A
 * connection opens with a greeting (magic, the secret every process was
 * given, the dialer's number); a stranger, or a greeting that does not
 * come within seconds, is dropped.
 */
#ifndef XLAC_PJRT_TCP_COMM_H
#define XLAC_PJRT_TCP_COMM_H

#include <stddef.h>
#include <stdint.h>

#include "net_comm.h"

typedef struct TcpLink TcpLink;

/* The link's functions, for net_new with a TcpLink. */
extern const NetLinkOps tcp_link_ops;

/* Listens for the other processes: *addr receives "host:port" to publish
   (the host from XLAC_TCP_HOST, else this machine's name's first IPv4
   address, else 127.0.0.1).  NULL, with why in err, on failure. */
TcpLink *tcp_link_new(int node, int nnodes, uint64_t token, char *addr, size_t addrlen, char *err, size_t errlen);
/* Connects to every other process (addrs[q]: process q's address, for
   the processes before this one), waiting up to timeout_ms.  0, or -1
   with why in err. */
int tcp_link_connect(TcpLink *l, const char *const *addrs, int timeout_ms, char *err, size_t errlen);
/* Closes the connections (after the net over the link is freed). */
void tcp_link_free(TcpLink *l);

#endif
