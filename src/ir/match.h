/*
 * match.h - recognising what a comparator region computes, for the passes
 * and the code generator that replace a call of it per element pair by a
 * comparison of keys (sort, top_k).
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

#endif
