/*
 * spmd.h - partitioning a global program over the partitions of a mesh.
 *
 * A program JAX leaves to the compiler (jax.jit over sharded arrays) is
 * written for the global values; its entry function says, with Shardy's
 * `sdy.sharding` (or GSPMD's `mhlo.sharding` text), how each argument
 * arrives split over the devices and how each result is to leave.
 * spmd_partition turns it into the program one partition runs
 * (partition_id tells which): its parameters and results become the
 * partition's shards, and collectives move what the computation needs
 * between the partitions (docs/spmd.md has the rules).
 *
 * A layout is kept as HLO's tile assignment (SpmdTiling): dimension d
 * split in ways[d] shards, each shard held by nrep partitions, and the
 * partition at each position of the (ways..., nrep) array.  It is what
 * both forms of sharding say, and what the PJRT plugin reports back.
 */
#ifndef XLAC_PASSES_SPMD_H
#define XLAC_PASSES_SPMD_H

#include "ir/ir.h"
#include "support/support.h"

typedef struct SpmdTiling {
  int rank;
  int64_t *ways;    /* [rank] shards along each dimension */
  int64_t nrep;     /* partitions holding each shard (1: none twice) */
  int ndev;         /* product of ways, times nrep: the partitions */
  int64_t *devices; /* [ndev] partition at each tile position, row-major over (ways..., nrep) */
  int64_t *coord;   /* [ndev * (rank + 1)] partition p's shard index per dimension, then its copy index */
} SpmdTiling;

/* Whether the entry function f carries shardings to partition by (on its
   parameters or results, as sdy.sharding or mhlo.sharding, sharding
   constraints or custom calls placed on one device in the module's
   functions, or manual computations it reaches), and the module was not
   partitioned by hand already (xlac.manual_partitions). */
bool spmd_wanted(const Module *m, const Func *f);

/* Whether f reaches manual computations (shard_map; custom_call
   @xlac.manual_computation) in its body, regions or the functions it
   calls: they are partitioned even on one partition. */
bool spmd_has_manual(const Module *m, const Func *f);

/* The layout of f's parameter (result) i over npart partitions: NULL for a
   replicated value (no sharding, or one that splits nothing), a tiling
   otherwise, allocated in m's arena.  On an error (a sharding that does
   not read or that xlac cannot run) *err is a heap message. */
SpmdTiling *spmd_arg_tiling(Module *m, const Func *f, int i, int npart, char **err);
SpmdTiling *spmd_result_tiling(Module *m, const Func *f, int i, int npart, char **err);

/* Whether f's result i is unreduced (Shardy's `unreduced={...}` over
   whole axes of a mesh of npart devices: each partition holds a partial
   sum, the value is the sum over the partitions of each group).  When it
   is: *t is the layout of its dimensions (NULL: whole) and group[p] (npart
   entries) the least partition of p's group.  On an error (a sharding that
   does not read or that xlac cannot run) *err is a heap message. */
bool spmd_result_unreduced(Module *m, const Func *f, int i, int npart, SpmdTiling **t, int64_t *group, char **err);

/* Partition p's shard of a value of global dimensions dims: the offset of
   its first element in each dimension (local dims = dims / ways). */
void spmd_shard_offsets(const SpmdTiling *t, const int64_t *dims, int64_t p, int64_t *offsets);

/* HLO's text for a layout ("{replicated}" for NULL), as XLA prints it
   with an explicit device list; appended to b. */
void spmd_tiling_print(StrBuf *b, const SpmdTiling *t);

/* Rewrites the entry function f of m, a global program, into the program
   of one of npart partitions (in each of nrep replicas): parameters and
   results become shards, and each carries its layout as `mhlo.sharding`
   (what the plugin reports).  Errors are reported at f; returns false
   then. */
bool spmd_partition(Module *m, Func *f, int nrep, int npart);

/* What spmd_partition inserted in m (collectives, local cuts, and the ops
   it computed whole from split operands), as one line; NULL when m was not
   partitioned by it. */
const char *spmd_summary(const Module *m);

#endif
