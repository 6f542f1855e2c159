/*
 * transpose_plan.h - a transpose reduced to its essentials, as both
 * backends' transpose kernels (cpu/kernel_transpose.c for the CPU,
 * gpu/transpose.c for the GPU) see it.
 *
 * Dimensions of size 1 are dropped and runs of dimensions that stay
 * adjacent and in order are merged, so NCHW -> NHWC becomes a batch of
 * [C, H*W] -> [H*W, C] matrix transposes.  What is left is one matrix
 * transpose between the operand's contiguous dimension (the matrix's
 * columns) and the result's contiguous dimension (its rows), repeated over
 * every index of the remaining "batch" dimensions.
 */
#ifndef XLAC_CODEGEN_TRANSPOSE_PLAN_H
#define XLAC_CODEGEN_TRANSPOSE_PLAN_H

#include "codegen/cg.h"

/* Element (i, j) of the matrix at batch offset (s, d) is operand element
   s + i * src_row + j and result element d + j * dst_row + i, i < rows,
   j < cols; batch index k's offsets are the sums over the batch dimensions
   of its coordinate times bsrc and bdst. */
typedef struct TransposePlan {
  int64_t src_off; /* where the operand's side begins (a view's offset) */
  int64_t rows, cols;
  int64_t src_row, dst_row;
  int nbatch;
  int64_t bdim[CG_MAX_RANK], bsrc[CG_MAX_RANK], bdst[CG_MAX_RANK];
  int64_t batch; /* product of bdim */
} TransposePlan;

/* Reduces the permutation perm (result dimension i is operand dimension
   perm[i]) of an operand of dimensions dims (rank of them) to a plan;
   false when it keeps the innermost dimension in place (or is the
   identity). */
bool transpose_plan(const int64_t *dims, const int64_t *perm, int rank, TransposePlan *p);

/* The plan of a value that only moves an operand's elements: root computed
   from one of args (nargs of them) by reshapes, slices and transposes
   (those after the last transpose only rename the result's elements).
   Every step is followed as a strided view of the operand, the slices
   moving its start (src_off); *arg is the index of the operand in args.
   False where a step is not one of those, a reshape merges dimensions the
   view cannot (their elements are not equally spaced), or the result is
   no matrix transpose (as transpose_plan). */
bool transpose_plan_view(const Value *root, Value *const *args, int nargs, int *arg, TransposePlan *p);

#endif
