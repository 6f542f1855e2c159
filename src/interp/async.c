/*
 * async.c - async_start / async_done.  The interpreter runs the wrapped
 * operation synchronously (the spec allows it): the future's value is simply
 * the body's result, and async_done unwraps it.
 */
#include "interp/interp.h"

bool interp_ASYNC_START(Interp *I, Op *op, IVal **args, IVal **res) {
  if (op->nregions != 1) return interp_error(I, op, "async_start needs one region");
  /* the body either takes the operands as block arguments or captures them */
  Block *body = op->regions[0];
  return interp_run_block(I, body, body->nargs, body->nargs ? args : NULL, res);
}

bool interp_ASYNC_DONE(Interp *I, Op *op, IVal **args, IVal **res) {
  (void)I;
  (void)op;
  res[0] = ival_retain(args[0]);
  return true;
}
