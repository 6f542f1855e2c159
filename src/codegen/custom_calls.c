/*
 * custom_calls.c - resolving custom_call targets once the pipeline has
 * run, before either backend lowers anything: an unknown target is a
 * compile error (even in code the CPU would run in its interpreter thunk),
 * and the annotations that pass their operands through (Sharding,
 * MoveToHost, ...) are removed, their uses taking the operands.
 */
#include "codegen/kernel.h"
#include "interp/hostcall.h"

typedef struct Drops {
  VEC(Op *) ops;     /* pass-through annotations ... */
  VEC(Func *) funcs; /* ... and their functions */
} Drops;

static void note_identity(Op *op, Func *in, void *ud) {
  Drops *d = ud;
  HostTarget k = hostcall_classify(op_attr_str(op, "call_target_name"), NULL);
  /* an annotation, or a no-op that returns its operand */
  if (k != HOST_IDENTITY && !(k == HOST_NOOP && op->nres > 0)) return;
  VEC_PUSH(d->ops, op);
  VEC_PUSH(d->funcs, in);
}

bool resolve_custom_calls(Module *m, Func *f, bool aot) {
  Drops d = {{0}, {0}};
  bool ok = true;
  if (aot) hostcall_walk_reachable(m, f, note_identity, &d);
  else ok = hostcall_check_reachable(m, f, note_identity, &d);
  /* an annotation's results are its operands (hostcall_problem checked the
     types): the uses take the operands and the op goes, costing no copy */
  for (int i = 0; ok && i < d.ops.len; i++) {
    Op *op = d.ops.data[i];
    for (int k = 0; k < op->nres; k++) func_replace_uses(d.funcs.data[i], &op->res[k], op->opnds[k], NULL);
    op_erase(op);
  }
  VEC_FREE(d.ops);
  VEC_FREE(d.funcs);
  return ok;
}
