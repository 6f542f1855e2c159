/*
 * kernel_dot.c - dot_general, dot fusions with epilogues, and convolution,
 * lowered to calls of the runtime GEMM.  (Bring-up: nothing handled yet.)
 */
#include "codegen/lower.h"

bool lower_dot(Lower *L, Op *op) {
  (void)L;
  (void)op;
  return false;
}
