/*
 * verify.h - the IR verifier: every op checked against the StableHLO spec's
 * constraints (operand counts, element types, inferred result shapes,
 * attribute ranges, region signatures, calls and returns).
 */
#ifndef XLAC_VERIFY_H
#define XLAC_VERIFY_H

#include "ir/ir.h"

/* Reports every violation with error_at() at the offending op and returns
   false if there was any.  Never crashes on malformed IR. */
bool verify_module(Module *m);
/* The same, except for the checks on the values of constant operands (a
   dynamic op's shape operand against its result type): inlining and
   constant folding can turn a program that fails only at run time into
   one that breaks those, so the checks between passes leave them out. */
bool verify_module_structure(Module *m);

#endif
