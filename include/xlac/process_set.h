/*
 * process_set.h - clients that are one process of a set of processes
 * running the same program, each as one replica (or one replica x
 * partition), whose collectives go through a communicator the caller
 * provides: an implementation of runtime/xlacrt.h's xlacrt_comm over some
 * transport (include/xlac/xlac_mpi.h builds one over MPI).
 *
 * Such a client has one local device: this process.  Programs are compiled
 * for the whole set (num_replicas x num_partitions of the set), and
 * xlac_executable_execute runs them with num_devices = 1; compiled
 * collectives and send/recv, and the interpreter's, meet the other
 * processes through the communicator.  Every process must run the same
 * executions in the same order.
 */
#ifndef XLAC_PROCESS_SET_H
#define XLAC_PROCESS_SET_H

#include "xlac/xlac.h"

#ifdef __cplusplus
extern "C" {
#endif

struct xlacrt_comm;

typedef struct xlac_process_set {
  size_t struct_size;
  int replica, partition;           /* this process */
  int num_replicas, num_partitions; /* the set (<= 4096 processes) */
  /* Where the device is, for its description (e.g. "MPI rank 2 of 4");
     copied.  NULL: nothing. */
  const char *description;
  void *user;
  /* Called at the start of every execution, on the executing thread: the
     communicator it runs on (replica_id, partition_id, num_replicas and
     num_partitions as above).  NULL fails the execution with *err (a
     status the library takes; NULL: a generic XLAC_UNAVAILABLE).  The
     provider may hold a lock from begin to end to run one execution at a
     time. */
  struct xlacrt_comm *(*begin)(void *user, xlac_status **err);
  /* Called when that execution ends, whatever happened: ok == 0 when it
     failed in this process (others may be waiting for it). */
  void (*end)(void *user, struct xlacrt_comm *comm, int ok);
  /* Called once, when the client's memory is freed (may be NULL). */
  void (*release)(void *user);
} xlac_process_set;

/* A client (opts as for xlac_client_create; num_replicas and
   num_partitions there are ignored: the set's count) whose one device is
   process (set->replica, set->partition) of the set.  The set's callbacks
   are called from then on; on failure, release is called before
   returning. */
xlac_status *xlac_client_create_in_set(const xlac_client_options *opts, const xlac_process_set *set,
                                       xlac_client **out_client);

/* Runs device `device` (replica device / num_partitions, partition device
   % num_partitions) of an executable compiled with multi_process on
   client device `client_device`, while its other devices run in other
   processes: collectives and send/recv meet them through comm, whose
   flattened ids are the executable's device ids (this call sets comm's
   num_replicas, num_partitions, replica_id and partition_id).  args[0..
   num_args) in, results (xlac_executable_num_results slots) out; opts as
   for xlac_executable_execute, its devices ignored. */
xlac_status *xlac_executable_execute_in_set(xlac_executable *e, int device, int client_device,
                                            struct xlacrt_comm *comm, xlac_buffer *const *args, int num_args,
                                            const xlac_execute_options *opts, xlac_buffer **results);

#ifdef __cplusplus
}
#endif

#endif
