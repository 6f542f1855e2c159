/*
 * view.h - values that only move an operand's elements (reshapes, slices
 * and transposes of it), followed as a strided view of that operand: the
 * element at index (x_0, ..., x_{rank-1}) of the value is operand element
 * off + sum of x_k * stride[k].
 *
 * The transpose kernels of both backends read such a loop fusion's operand
 * through the view (codegen/transpose_plan.c), and the cpu backend's
 * products read their operands through it in place of the fusion's result
 * (cpu/kernel_dot.c, with buffers.c giving that result its operand's
 * storage).
 */
#ifndef XLAC_IR_VIEW_H
#define XLAC_IR_VIEW_H

#include "ir/ir.h"

enum { VIEW_MAX_RANK = 16 };

typedef struct View {
  int rank;
  int64_t dims[VIEW_MAX_RANK], stride[VIEW_MAX_RANK];
  int64_t off;
} View;

/* The view of a whole operand of dimensions dims (row-major). */
View view_whole(const int64_t *dims, int rank);

/* The view as dimensions to (the same elements in the same order): each
   run of the view's dimensions whose product is that of a run of to's
   must be equally spaced (one stride apart), and to's run splits it.
   False (v unchanged) where they are not. */
bool view_reshape(View *v, const Type *to);

/* The view with its dimension perm[k] as dimension k; false unless perm
   is a permutation. */
bool view_permute(View *v, const int64_t *perm);

/* The view of a value computed from one of args (nargs of them) by
   reshapes, slices and transposes.  Reshapes at the end only rename the
   elements: they are not followed, *inner (may be NULL) gets the value
   before them, whose dimensions the view has.  *arg is the index of the
   operand in args.  False where a step is not one of those, or a reshape
   before the last transpose or slice merges dimensions the view cannot
   (their elements are not equally spaced). */
bool view_of(const Value *root, Value *const *args, int nargs, int *arg, const Value **inner, View *w);

#endif
