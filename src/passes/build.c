/*
 * build.c - the op builder shared by the rewriting passes (build.h).
 */
#include "passes/build.h"

#include <string.h>

Builder bld_before(Module *m, Op *op) { return (Builder){m, op->parent, op, op->loc}; }

void bld_discard(Op *op, Op *mark) {
  for (Op *p = op->prev; p != mark;) {
    Op *q = p->prev;
    op_erase(p);
    p = q;
  }
}

void bld_replace(Func *f, Op *op, Value *const *out) {
  for (int r = 0; r < op->nres; r++) func_replace_uses(f, &op->res[r], out[r], NULL);
  op_erase(op);
}

Value *bld_op(Builder *b, OpKind k, int n, Value *const *opnds, Type *t) {
  return &build_op(b->m, b->blk, b->at, k, n, opnds, t, b->loc)->res[0];
}

Type *bld_tensor(Builder *b, ElemType et, int rank, const int64_t *dims) {
  return type_tensor(&b->m->arena, et, rank, dims);
}

Type *bld_shape_of(Builder *b, const Type *t, ElemType et) { return bld_tensor(b, et, t->rank, t->dims); }

Value *bld_un(Builder *b, OpKind k, Value *x) { return bld_op(b, k, 1, &x, x->type); }

Value *bld_bin(Builder *b, OpKind k, Value *x, Value *y) {
  Value *v[2] = {x, y};
  return bld_op(b, k, 2, v, x->type);
}
Value *bld_add(Builder *b, Value *x, Value *y) { return bld_bin(b, OP_ADD, x, y); }
Value *bld_sub(Builder *b, Value *x, Value *y) { return bld_bin(b, OP_SUBTRACT, x, y); }
Value *bld_mul(Builder *b, Value *x, Value *y) { return bld_bin(b, OP_MULTIPLY, x, y); }
Value *bld_div(Builder *b, Value *x, Value *y) { return bld_bin(b, OP_DIVIDE, x, y); }

Value *bld_select(Builder *b, Value *pred, Value *x, Value *y) {
  Value *v[3] = {pred, x, y};
  return bld_op(b, OP_SELECT, 3, v, x->type);
}

Value *bld_compare(Builder *b, Value *x, Value *y, const char *dir) {
  Value *v[2] = {x, y};
  Value *r = bld_op(b, OP_COMPARE, 2, v, bld_shape_of(b, x->type, ET_PRED));
  op_set_attr(b->m, r->def, "comparison_direction", attr_enum(b->m, "comparison_direction", dir));
  return r;
}

Value *bld_convert(Builder *b, Value *x, ElemType et) {
  if (x->type->elem == et && !x->type->quant) return x;
  return bld_op(b, OP_CONVERT, 1, &x, bld_shape_of(b, x->type, et));
}

Value *bld_bitcast(Builder *b, Value *x, Type *t) { return bld_op(b, OP_BITCAST_CONVERT, 1, &x, t); }

Value *bld_reshape(Builder *b, Value *x, int rank, const int64_t *dims) {
  const Type *t = x->type;
  if (t->rank == rank && memcmp(t->dims, dims, sizeof(int64_t) * (size_t)rank) == 0) return x;
  return bld_op(b, OP_RESHAPE, 1, &x, bld_tensor(b, t->elem, rank, dims));
}

Value *bld_transpose(Builder *b, Value *x, const int64_t *perm) {
  const Type *t = x->type;
  int64_t *dims = ARENA_ARRAY(&b->m->arena, int64_t, t->rank > 0 ? t->rank : 1);
  bool id = true;
  for (int i = 0; i < t->rank; i++) {
    dims[i] = t->dims[perm[i]];
    id = id && perm[i] == i;
  }
  if (id) return x;
  Value *r = bld_op(b, OP_TRANSPOSE, 1, &x, bld_tensor(b, t->elem, t->rank, dims));
  op_set_attr(b->m, r->def, "permutation", attr_ints(b->m, t->rank, perm));
  return r;
}

Value *bld_broadcast(Builder *b, Value *x, const Type *like, int n, const int64_t *dims) {
  Value *r = bld_op(b, OP_BROADCAST_IN_DIM, 1, &x, bld_shape_of(b, like, x->type->elem));
  op_set_attr(b->m, r->def, "broadcast_dimensions", attr_ints(b->m, n, dims));
  return r;
}

Value *bld_constant(Builder *b, Literal *lit) {
  Op *c = build_op(b->m, b->blk, b->at, OP_CONSTANT, 0, NULL, lit->type, b->loc);
  op_set_attr(b->m, c, "value", attr_dense(b->m, lit));
  return &c->res[0];
}

Value *bld_splat(Builder *b, Value *scalar, const Type *like) {
  if (like->rank == 0) return scalar;
  return bld_broadcast(b, scalar, like, 0, NULL);
}

static Literal *scalar_lit(Builder *b, ElemType et) {
  return lit_new_in(&b->m->arena, type_scalar(&b->m->arena, et));
}

Value *bld_const_f(Builder *b, const Type *like, double v) {
  Literal *l = scalar_lit(b, like->elem);
  lit_set_f(l, 0, v);
  return bld_splat(b, bld_constant(b, l), like);
}

Value *bld_const_i(Builder *b, const Type *like, int64_t v) {
  Literal *l = scalar_lit(b, like->elem);
  lit_set_i(l, 0, v);
  return bld_splat(b, bld_constant(b, l), like);
}

Value *bld_const_bits(Builder *b, const Type *like, ElemType et, uint64_t bits) {
  Literal *l = scalar_lit(b, et);
  lit_set_bits(l, 0, bits);
  return bld_splat(b, bld_constant(b, l), bld_shape_of(b, like, et));
}
