/*
 * kernel_index.c - gather, scatter, dynamic slices, sort.  (Bring-up:
 * nothing handled yet.)
 */
#include "codegen/lower.h"

bool lower_indexing(Lower *L, Op *op) {
  (void)L;
  (void)op;
  return false;
}
