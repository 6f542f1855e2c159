/*
 * interp.h - the reference interpreter: the oracle every backend is checked
 * against.  Plain loops over Literals, the spec's semantics, no cleverness.
 *
 * Runtime values (IVal) are reference counted: a tensor (Literal), a tuple of
 * IVals, or a token.  Executing a block binds its arguments, runs each op
 * through the per-op function interp_<ID> (generated from ops.def; a missing
 * one fails the link), and returns the terminator's operands.
 *
 * Each op function receives its operand values and must store one new
 * reference per result in res[].  On a runtime failure it calls
 * interp_error() (which reports at the op's location) and returns false.
 */
#ifndef XLAC_INTERP_H
#define XLAC_INTERP_H

#include <stdatomic.h>
#include <stdio.h>

#include "ir/ir.h"

typedef enum IValKind { IV_TENSOR, IV_TUPLE, IV_TOKEN } IValKind;

typedef struct IVal {
  IValKind kind;
  int refs;
  Literal *lit;          /* IV_TENSOR (owned) */
  int n;                 /* IV_TUPLE */
  struct IVal **elems;   /* IV_TUPLE (owned references) */
} IVal;

IVal *ival_tensor(Literal *lit);            /* takes ownership of lit; refs = 1 */
IVal *ival_new_tensor(const Type *t);       /* zero-filled tensor of type t */
IVal *ival_tuple(int n, IVal *const *elems);/* retains each element */
IVal *ival_token(void);
IVal *ival_zero_of_type(const Type *t);     /* zero tensors / tuples / token */
IVal *ival_retain(IVal *v);
void ival_release(IVal *v);
bool ival_equal(const IVal *a, const IVal *b);
/* Tuples flattened: the tensors and tokens of v in order (borrowed) go to
   out[*k...]; and back, a value of type t from leaves[*k...] (new
   reference).  ival_leaf_count / type_leaf_count say how many leaves a
   value (of type t) has. */
void ival_collect_leaves(IVal *v, IVal **out, int *k);
int ival_leaf_count(const IVal *v);
IVal *ival_from_leaves(const Type *t, IVal *const *leaves, int *k);
int type_leaf_count(const Type *t);

/* Host functions reachable from stablehlo.custom_call @target. */
typedef struct Interp Interp;
typedef bool (*InterpCustomCallFn)(Interp *I, Op *op, int nargs, IVal **args, int nres,
                                   IVal **res, void *user);
void interp_register_custom_call(const char *target, InterpCustomCallFn fn, void *user);

/* A grid of replicas x partitions running the same (or different) programs
   in threads; collectives synchronize through it. */
typedef struct InterpGrid InterpGrid;

/* Stopping a run from outside it (a timer thread, a signal handler, another
   thread): once `stop` is nonzero, every while loop, interpreted or
   compiled, stops at its next iteration and the run fails with an error at
   the loop naming `reason`; every process of a grid stops.  The error is
   reported once per InterpCancel, by whichever loop sees the flag first. */
typedef struct InterpCancel {
  atomic_int stop;
  atomic_int reported;
  const char *reason;        /* e.g. "--timeout of 2 s expired" */
} InterpCancel;

typedef struct InterpOptions {
  const char *probe_dir;     /* where interpreter.probe writes (NULL: a temp dir) */
  bool quiet_checks;         /* don't print passing checks */
  FILE *out;                 /* interpreter.print and check reports (default stdout) */
  InterpCancel *cancel;      /* NULL: runs are never stopped from outside */
} InterpOptions;

struct Interp {
  Module *module;
  const InterpOptions *opts;
  InterpGrid *grid;          /* NULL when not running in a grid */
  /* Outside a grid: the communicator of a process that runs here as one of
     a set of processes elsewhere (xlac/process_set.h), which collectives
     and send/recv go through; NULL: the program runs alone. */
  struct xlacrt_comm *comm;
  int replica_id, partition_id;
  int num_replicas, num_partitions;
  int checks_run, checks_failed;
  bool failed;               /* a runtime error occurred */
  int depth;                 /* call depth, to stop runaway recursion */
};

void interp_init(Interp *I, Module *m, const InterpOptions *opts);
/* Forgets the calling thread's run in progress (after a run was abandoned
   by an out-of-memory unwind). */
void interp_thread_reset(void);

/* Runs f with the given arguments; on success stores f->nresults new
   references in results.  Returns false on a runtime error. */
bool interp_call(Interp *I, Func *f, int nargs, IVal **args, IVal **results);
/* Runs a region with the given block arguments; the terminator's operands
   (new references) go to results (b's terminator operand count). */
bool interp_run_block(Interp *I, Block *b, int nargs, IVal **args, IVal **results);
/* Runs a region whose arguments and single result are scalars, the common case
   for reduce/sort/scatter bodies: args are rank-0 literals, result written to
   *out (caller frees). */
bool interp_run_scalar_region(Interp *I, Block *b, int nargs, Literal **args, int nres, Literal **res);

bool interp_error(Interp *I, const Op *op, const char *fmt, ...) XLAC_PRINTF(3, 4);

/* The cancellation hook loops call once per iteration: true to go on; false
   when the run was stopped (I->opts->cancel), after reporting it at `loop`
   unless someone already did. */
bool interp_loop_continue(Interp *I, const Op *loop);
/* The flag compiled code polls: I's cancel flag, or one that is always 0. */
const atomic_int *interp_cancel_flag(const Interp *I);

/* Runs one op on the given values (as the evaluation loop would, including
   the quantization wrapper).  Used by compiled code for ops it does not
   compile itself. */
bool interp_run_op(Interp *I, Op *op, IVal **args, IVal **res);
/* The same for an op whose regions use values defined outside it: their
   values are given in caps (ncaps values named by cap_vals). */
bool interp_run_op_captured(Interp *I, Op *op, IVal **args, IVal **res, int ncaps,
                            Value *const *cap_vals, IVal **caps);

/* The spec's semantics for ops on quantized tensors: dequantize the
   quantized operands, run fn in the expressed type, quantize the results
   (quant.c).  The core applies it to every op that sees a quantized type
   and does not handle quantization itself. */
typedef bool (*InterpOpFn)(Interp *I, Op *op, IVal **args, IVal **res);
bool interp_quantized_wrap(Interp *I, Op *op, IVal **args, IVal **res, InterpOpFn fn);

/* Per-op entry points, one per row of ops.def. */
#define OP(id, name, hlo, flags) bool interp_##id(Interp *I, Op *op, IVal **args, IVal **res);
#include "ir/ops.def"
#undef OP

/* Shorthand for the common case: the tensor of argument i. */
#define ARG_LIT(i) (args[(i)]->lit)

/* Grid execution (interpreter.run_parallel and `xlac run --replicas`). */
typedef struct GridProgram {
  Func *func;
  int nargs;
  IVal **args;
  /* How to run it: NULL for the interpreter, else run(ctx, I, ...) where I
     is the process's interpreter state (its ids and the grid, which ops
     handed back to the interpreter use to meet the other processes). */
  bool (*run)(void *ctx, Interp *I, int nargs, IVal **args, IVal **results);
  void *ctx;
} GridProgram;
/* Runs programs[r * num_partitions + p] on replica r / partition p in threads.
   results[i] gets the i-th program's results (array of func->nresults). */
bool interp_run_grid(Interp *parent, int num_replicas, int num_partitions, GridProgram *programs,
                     IVal ***results);

/* interpreter.run_parallel (op, its operands args, results res) with the
   programs run by a backend: bind(user, p) sets p->run and p->ctx for each
   process's program (p->func); bind NULL: the interpreter runs them. */
bool interp_run_parallel(Interp *I, Op *op, IVal **args, IVal **res, void (*bind)(void *user, GridProgram *p),
                         void *user);

/* For collectives compiled to calls into the runtime (runtime/xlacrt.h),
   which must form the same groups and meet the same processes. */
struct xlacrt_comm;
/* The communicator of I's process: its grid's, its set's (I->comm), or a
   program alone's. */
struct xlacrt_comm *interp_comm(Interp *I);
/* A collective on c returned rc (an XLACRT_COMM_* failure): reports c's
   message at `at` as a runtime error, unless another process's failure
   aborted it, and fails I. */
void interp_comm_failed(Interp *I, struct xlacrt_comm *c, int rc, SrcLoc at);
/* An op's channel id (channel_handle or channel_id; 0 when absent). */
int64_t interp_channel_id(const Op *op);
/* A list of id lists attribute (replica_groups, source_target_pairs: a
   dense 2-D tensor or an array of arrays, maybe ragged) as a rows x cols
   heap array padded with -1; an absent attribute gives rows = 0.  False,
   with *err, when it is malformed. */
bool interp_id_lists(const Op *op, const char *name, int64_t **data, int *rows, int *cols, const char **err);
/* How an op with replica_groups forms its process groups: the strategy (an
   XLACRT_GROUP_* value) its channel and use_global_device_ids select, and
   its replica groups as from interp_id_lists.  partition_variant: the ops
   whose channel selects cross_partition (all_to_all,
   collective_broadcast, collective_reduce) rather than
   cross_replica_and_partition.  False, with *err, when the attributes do
   not make sense. */
bool interp_collective_groups(const Op *op, bool partition_variant, int *strategy, int64_t **groups, int *rows,
                              int *cols, const char **err);

#endif
