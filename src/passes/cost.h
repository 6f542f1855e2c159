/*
 * cost.h - what one execution of a program costs: floating-point
 * operations, transcendental functions evaluated, and bytes read and
 * written, counted on the IR (normally the optimized module, after
 * fusion), as XLA's HloCostAnalysis counts them for its optimized module.
 *
 * The conventions (docs/api.md, "Cost analysis", has the table):
 *   - an elementwise op, a comparison, a select, a clamp, a conversion:
 *     one flop per result element, whatever the element type (a complex
 *     multiply is one, an integer add is one); exp, expm1, log, log1p,
 *     logistic, tanh, sin, cos, tan, sqrt, rsqrt, cbrt, power, atan2, erf
 *     and the CHLO special functions left unexpanded: one transcendental
 *     per result element instead (no flop);
 *   - dot_general: 2 per multiply-add, 2 * result elements * contracting
 *     size; convolution: 2 * output batch * output features * kernel
 *     input features (the input features of a group) * the window taps
 *     that land on the input (not on padding or between base-dilated
 *     elements), summed over the output positions;
 *   - reduce: (input elements - result elements) applications of its body;
 *     reduce_window: result elements * (window size - 1) applications;
 *     scatter: one application per update element; map: one per element;
 *     select_and_scatter: per source element, window - 1 selects and one
 *     scatter; a body application costs what its ops on scalars cost;
 *   - sort: n * ceil(log2 n) flops for n elements (the comparator is not
 *     counted); fft: 8 * operand elements * the product of
 *     floor(log2(length)) over the transformed dimensions; cholesky:
 *     n * elements / 3; triangular_solve: n * elements of b;
 *   - data movement (broadcast, reshape, transpose, slice, pad,
 *     concatenate, gather, dynamic slices, iota, constants, copies),
 *     random bits, custom calls and collectives other than reductions: no
 *     flops;
 *   - while: its condition and body once (the trip count is not known to
 *     the analysis, as in XLA); if/case: the most expensive branch, per
 *     quantity; a call of a function that is not a fusion: its body.
 * Bytes accessed: for each op at the top level of a computation that
 * runs (the entry, loop bodies, branches, called functions), the bytes of
 * its operands and results; a fusion reads each distinct parameter once
 * (only the slices it takes, when it only slices it) and writes its
 * results, and the ops inside it access nothing more.  Constants,
 * reshapes (bitcasts), tuples and control flow themselves access nothing.
 */
#ifndef XLAC_COST_H
#define XLAC_COST_H

#include "ir/ir.h"

typedef struct Cost {
  double flops;
  double transcendentals;
  double bytes; /* bytes accessed */
} Cost;

/* One execution of f (a function of m, usually its entry). */
Cost cost_func(const Module *m, const Func *f);
/* Whether an elementwise op of kind k counts as a transcendental. */
bool cost_is_transcendental(OpKind k);

#endif
