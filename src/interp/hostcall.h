/*
 * hostcall.h - custom calls into host functions, shared by the interpreter
 * (control.c) and the CPU backend (cpu/kernel_custom.c).
 *
 * The registry behind xlac_custom_call_register (include/xlac/xlac.h) is
 * process-wide.  What a custom_call target means is decided in one place,
 * hostcall_classify, so that both backends agree: the check.* assertions,
 * XLA's TopK and the interpreter's internal IVal-based registry run in the
 * interpreter; a few targets JAX emits as pure annotations are built in;
 * a registered host function is called with the op's flattened operand and
 * result buffers; anything else is an error whose message says what the
 * target is (for the families JAX emits) and which names are registered.
 */
#ifndef XLAC_INTERP_HOSTCALL_H
#define XLAC_INTERP_HOSTCALL_H

#include "interp/interp.h"
#include "xlac/xlac.h"

/* A registered host function.  Entries are never freed: an executable
   resolves its targets at compile time and keeps the entry. */
typedef struct HostFn HostFn;

typedef enum HostTarget {
  HOST_UNKNOWN,         /* nothing implements it */
  HOST_CHECK,           /* check.*: the interpreter's test assertions */
  HOST_TOPK,            /* XLA's TopK: the interpreter */
  HOST_INTERP,          /* interp_register_custom_call: the interpreter */
  HOST_IDENTITY,        /* annotations (Sharding, MoveToHost, ...): results are the operands */
  HOST_SHAPE_ASSERTION, /* JAX's shape_assertion: fails when its predicate is false */
  HOST_ALLOCATE,        /* AllocateBuffer: a result whose contents do not matter (zeros) */
  HOST_NOOP,            /* InspectSharding: nothing to do (its operand back, if it returns one) */
  HOST_QR,              /* XLA's Qr: Householder QR (LAPACK's geqrf), the interpreter */
  HOST_HOUSEHOLDER,     /* XLA's ProductOfElementaryHouseholderReflectors (orgqr), the interpreter */
  HOST_EIGH,            /* XLA's Eigh: Jacobi eigendecomposition of Hermitian matrices, the interpreter */
  HOST_LAPACK,          /* the LAPACK routines of JAX's CPU lowerings (interp/lapack.h), the interpreter */
  HOST_FUNCTION,        /* a registered host function (*fn) */
} HostTarget;

/* What target names; *fn (may be NULL) gets the entry for HOST_FUNCTION. */
HostTarget hostcall_classify(const char *target, const HostFn **fn);

/* Why custom_call op cannot run in either backend, as a message naming its
   target (heap string), or NULL when it can as far as can be told before
   running it.  Targets the interpreter implements itself (HOST_CHECK,
   HOST_TOPK, HOST_INTERP) report their own problems when they run. */
char *hostcall_problem(const Op *op);

/* Checks every custom_call reachable from f (through its regions and the
   functions its ops name: callees, called_computations, decompositions):
   reports each that cannot run (hostcall_problem) with error_at at the op
   and returns false if there was one; calls each(op, its function, ud)
   (may be NULL) for the others.  A compile step for either backend runs
   this, so that an unknown target fails compilation. */
bool hostcall_check_reachable(Module *m, Func *f, void (*each)(Op *op, Func *in, void *ud), void *ud);
/* The same walk calling each() for every custom_call, checking nothing
   (ahead-of-time compilation: targets are the linking program's). */
void hostcall_walk_reachable(Module *m, Func *f, void (*each)(Op *op, Func *in, void *ud), void *ud);

/* A call of a host function, prepared once from its op: the types and
   dimensions of the flattened operands and results (tuples contribute
   their leaves in order, tokens a buffer without data), the backend_config
   and the other attributes as MLIR dictionary text, and the layouts the
   function expects (operand_layouts / result_layouts, or HLO layouts). */
typedef struct HostCallSite HostCallSite;

/* NULL with *err (heap message) when op cannot be prepared. */
HostCallSite *hostcall_site_new(const Op *op, const HostFn *fn, char **err);
void hostcall_site_free(HostCallSite *s);
int hostcall_site_nargs(const HostCallSite *s);
int hostcall_site_nresults(const HostCallSite *s);
/* Calls it: ptrs holds the data of the flattened operands, then of the
   results (row-major, one element per byte for sub-byte types).  A failure
   (an error status, a classic status failure, no memory for a layout
   change) is reported at the op through interp_error; returns false. */
bool hostcall_site_run(Interp *I, const HostCallSite *s, void *const *ptrs);

/* The interpreter's share of custom_call: the built-in targets, host
   functions and the error for unknown targets (control.c dispatches
   check.*, TopK and the internal registry before calling this). */
bool hostcall_interp(Interp *I, Op *op, const char *target, IVal **args, IVal **res);

/* Defined in interp.c next to the internal registry. */
bool interp_find_custom_call(const char *target, InterpCustomCallFn *fn, void **user);

/* A classic call's status for other callers of classic signatures (the
   GPU's custom calls): new, its failure message (NULL when the call did
   not fail; owned by the status), free. */
xlac_custom_call_status *hostcall_status_new(void);
const char *hostcall_status_failure(const xlac_custom_call_status *s);
void hostcall_status_free(xlac_custom_call_status *s);

#endif
