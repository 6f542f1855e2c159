/*
 * checks.h - what the check/probe/print ops share with the rest of xlac:
 * the human-readable value format (used by interpreter.print and by
 * `xlac run` for results) and the custom-call spellings of the checks used
 * by StableHLO's generated tests (custom_call @check.expect_eq etc.).
 */
#ifndef XLAC_INTERP_CHECKS_H
#define XLAC_INTERP_CHECKS_H

#include "interp/interp.h"

/* Appends the elements of l as nested brackets, e.g. [[1, 2], [3, 4]], with
   floats at up to 7 significant digits.  Unless `all`, tensors of more than
   1000 elements are summarized NumPy-style (first and last 3 per axis). */
void interp_format_tensor(StrBuf *b, const Literal *l, bool all);
/* "tensor<2xf32> = [1, 2]"; tuples as "tuple<...> = ([1], 2)"; tokens. */
void interp_format_value(StrBuf *b, const IVal *v, bool all);

/* Runs custom_call @check.* targets.  Returns false with *handled = false
   when `target` is not one of them; otherwise *handled = true and the result
   is the op's success (a failed check is not a runtime error). */
bool interp_custom_check(Interp *I, Op *op, const char *target, IVal **args, IVal **res,
                         bool *handled);

#endif
