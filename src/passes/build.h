/*
 * build.h - building ops in front of the op a pass is replacing.
 *
 * Rewrites (expanders, decompositions, legalizations) all make the same
 * small ops: elementwise arithmetic, converts, broadcasts of scalar
 * constants, reshapes and transposes.  A Builder remembers where new ops go
 * (before `at` in `blk`, or at the end of blk when at is NULL) and the
 * source location they inherit, so diagnostics about the new ops still
 * point at what the user wrote.  Helpers that would build an identity
 * (a reshape to the same shape, an identity permutation, a convert to the
 * same type) return their operand instead.
 */
#ifndef XLAC_PASSES_BUILD_H
#define XLAC_PASSES_BUILD_H

#include "ir/rewrite.h"

typedef struct Builder {
  Module *m;
  Block *blk;
  Op *at; /* insert before this op; NULL appends to blk */
  SrcLoc loc;
} Builder;

/* A builder placing ops right before op, at op's location. */
Builder bld_before(Module *m, Op *op);

/* Undoing and committing a rewrite of op: bld_discard erases what was
   built in front of op since `mark` (op->prev when the rewrite began);
   bld_replace makes op's results' users use out[] and erases op. */
void bld_discard(Op *op, Op *mark);
void bld_replace(Func *f, Op *op, Value *const *out);

/* One op with one result of type t. */
Value *bld_op(Builder *b, OpKind k, int n, Value *const *opnds, Type *t);
/* A plain tensor type (no layout, no quantization). */
Type *bld_tensor(Builder *b, ElemType et, int rank, const int64_t *dims);
/* t's shape with element type et. */
Type *bld_shape_of(Builder *b, const Type *t, ElemType et);

Value *bld_un(Builder *b, OpKind k, Value *x);
Value *bld_bin(Builder *b, OpKind k, Value *x, Value *y);
Value *bld_add(Builder *b, Value *x, Value *y);
Value *bld_sub(Builder *b, Value *x, Value *y);
Value *bld_mul(Builder *b, Value *x, Value *y);
Value *bld_div(Builder *b, Value *x, Value *y);
Value *bld_select(Builder *b, Value *pred, Value *x, Value *y);
/* compare with direction dir ("LT", "EQ", ...), pred result */
Value *bld_compare(Builder *b, Value *x, Value *y, const char *dir);
Value *bld_convert(Builder *b, Value *x, ElemType et);
/* bitcast_convert to type t (same element width) */
Value *bld_bitcast(Builder *b, Value *x, Type *t);
Value *bld_reshape(Builder *b, Value *x, int rank, const int64_t *dims);
Value *bld_transpose(Builder *b, Value *x, const int64_t *perm);
/* broadcast_in_dim of x to `like`'s shape (x's element type), x's
   dimensions going to dims (n of them) */
Value *bld_broadcast(Builder *b, Value *x, const Type *like, int n, const int64_t *dims);

/* constants: a literal as is; scalars broadcast to `like`'s shape */
Value *bld_constant(Builder *b, Literal *lit);
Value *bld_splat(Builder *b, Value *scalar, const Type *like);
Value *bld_const_f(Builder *b, const Type *like, double v);       /* like's element type */
Value *bld_const_i(Builder *b, const Type *like, int64_t v);      /* like's element type */
Value *bld_const_bits(Builder *b, const Type *like, ElemType et, uint64_t bits);

#endif
