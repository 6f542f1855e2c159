/*
 * verify.h - the IR verifier: every op checked against the StableHLO spec's
 * constraints (operand counts, element types, inferred result shapes,
 * attribute ranges, region signatures, calls and returns).
 */
#ifndef XLAC_VERIFY_H
#define XLAC_VERIFY_H

#include "ir/ir.h"

/* The deepest nesting of function calls a module may have: a chain of
   calls (func.call, composite decompositions, custom_call computations,
   run_parallel programs) starting at any function has at most this many
   calls.  The verifier rejects deeper modules, and recursion (a function
   that reaches itself through calls) at all; the interpreter refuses to go
   deeper at run time with the same limit, and compiled code inlines or
   calls without one, so the backends agree because the verifier stops
   such modules first. */
#define XLAC_MAX_CALL_DEPTH 256

/* Reports every violation with error_at() at the offending op and returns
   false if there was any.  Never crashes on malformed IR. */
bool verify_module(Module *m);
/* The same, except for the checks on the values of constant operands (a
   dynamic op's shape operand against its result type): inlining and
   constant folding can turn a program that fails only at run time into
   one that breaks those, so the checks between passes leave them out. */
bool verify_module_structure(Module *m);
/* One op and the ops of its regions, as verify_module checks them, for IR
   built an op at a time (the builder API checks each op as it is added).
   What needs the whole module -- function bodies ending in a return, the
   call graph -- is left to verify_module. */
bool verify_op_alone(Module *m, Op *op);
/* Shape inference by the same code: the ops whose result shape follows
   from their operands and attributes (transpose, slice, pad, concatenate,
   dot_general, convolution, gather, reduce, reduce_window, ...) compute
   that shape to check it.  For each result with pending[i] set (a tensor
   placeholder with the right element type and rank, any dimensions), the
   check instead gives the result the inferred shape and clears pending[i].
   Returns false after reporting an error, as verify_op_alone does; a
   result still pending afterwards was not inferred. */
bool verify_op_infer(Module *m, Op *op, bool *pending);

#endif
