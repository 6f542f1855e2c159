/*
 * match.h - recognising what a comparator region computes, for the passes
 * and the code generator that replace a call of it per element pair by a
 * comparison of keys (sort, top_k); and the gathers whose elements can be
 * computed one by one, for the fusion pass and the code generator.
 */
#ifndef XLAC_MATCH_H
#define XLAC_MATCH_H

#include "ir/ir.h"

/* A comparator (a, b, ...) -> pred that is one comparison of its first two
   arguments (or of the same function of each).  direction is the one of
   a DIR b, swapped when the region compares b with a; total: floats in
   the total order of their bits; canonical: every NaN taken as the
   positive quiet NaN and -0 as +0 first (what JAX's sorts do, directly or
   through the integer keys XLA builds from the bits). */
typedef struct KeyCompare {
  const char *direction; /* "LT", "GT", "LE", "GE", "EQ", "NE" */
  bool total, canonical;
} KeyCompare;

bool match_key_compare(const Block *cmp, KeyCompare *out);

/* A gather's dimension numbers (pointers into its attributes). */
typedef struct GatherDims {
  int64_t *offset, *collapsed, *obatch, *ibatch, *map, *sizes;
  int noffset, ncollapsed, nobatch, nibatch, nmap;
  int64_t ivd;
} GatherDims;

/* Fills g and says whether the gather passes every check the interpreter
   makes of it at run time and reads only elements in bounds once its
   start indices are clamped as the spec clamps them: then each element
   of its result is one element of its operand, at an index computed from
   the element's own index and the start indices (ranks up to 64). */
bool match_gather(const Op *op, GatherDims *g);

#endif
