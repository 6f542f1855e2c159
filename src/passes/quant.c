/*
 * quant.c - the quant-lower pass: uniform quantization spelled out in
 * ordinary integer and floating-point ops, so the code generator never
 * meets a quantized type in arithmetic.
 *
 * The spec defines every op on quantized tensors as dequantize -> op in the
 * expressed type -> quantize (the interpreter does exactly that, rounding
 * each step to the expressed type).  This pass writes those steps out:
 *
 *   dequantize(q) = convert(convert(storage(q), wide) - zero_point) * scale
 *   quantize(x)   = storage^-1(convert(round_nearest_even(
 *                     clamp(min, x / scale + zero_point, max)), storage))
 *                   with NaN giving 0
 *
 * where storage(q) is a bitcast_convert between the quantized type and its
 * storage integer type (the bits are the same), wide is i32 (i64 for
 * 32-bit storage) so the subtraction cannot overflow, and per-axis scales
 * and zero points are vectors broadcast along the quantization dimension.
 * uniform_quantize and uniform_dequantize become the two halves; any other
 * op with quantized operands or results gets both around a copy of itself
 * on expressed-type tensors.  Ops with regions (reduce, sort, while, ...),
 * ops that only pass values through (calls, tuples, barriers, constants,
 * bitcast_convert itself) and non-spec ops keep their quantized types; the
 * first kind stays with the interpreter on the cpu backend.
 *
 * After this pass the only quantized values left are the function's own
 * parameters and results, constants, and what flows through control flow;
 * each meets arithmetic only through a bitcast_convert.
 */
#include <stdlib.h>

#include "passes/build.h"
#include "passes/passes.h"

typedef VEC(Op *) OpVec;

/* Ops left as they are: those the interpreter does not wrap either, and
   ops with regions, whose bodies see quantized element types. */
static bool keeps_quant(const Op *op) {
  if (op->kind == OP_UNIFORM_QUANTIZE || op->kind == OP_UNIFORM_DEQUANTIZE) return false;
  return op_keeps_quant(op->kind) || op->nregions > 0;
}

/* Well-formed enough to lower: the interpreter reports the rest at run time. */
static bool quant_ok(const Type *t) {
  const QuantInfo *q = t->quant;
  if (!q || q->nscales < 1 || !et_is_float(q->expressed) || !et_is_int(q->storage)) return false;
  if (et_bits(q->storage) > 32 || q->storage != t->elem) return false;
  if (q->quant_dim >= 0) {
    if (q->quant_dim >= t->rank) return false;
    if (q->nscales != 1 && q->nscales != t->dims[q->quant_dim]) return false;
  }
  return true;
}

static bool per_axis(const QuantInfo *q) { return q->quant_dim >= 0 && q->nscales > 1; }

/* The scales (as element type et) or zero points (as et) of t, shaped like
   `like`: a scalar splat, or a vector along the quantization dimension. */
static Value *qparam(Builder *b, const Type *t, const Type *like, ElemType et, bool scales) {
  const QuantInfo *q = t->quant;
  int n = per_axis(q) ? q->nscales : 1;
  int64_t len = n;
  Literal *l = lit_new_in(&b->m->arena, bld_tensor(b, et, per_axis(q) ? 1 : 0, &len));
  for (int i = 0; i < n; i++) {
    if (!scales && et_is_int(et)) lit_set_i(l, i, q->zero_points[i]);
    else lit_set_f(l, i, scales ? q->scales[i] : (double)q->zero_points[i]);
  }
  Value *c = bld_constant(b, l);
  const Type *shape = bld_shape_of(b, like, et);
  if (!per_axis(q)) return bld_splat(b, c, shape);
  int64_t d = q->quant_dim;
  return bld_broadcast(b, c, shape, 1, &d);
}

/* The expressed-type tensor a quantized value stands for. */
static Value *dequantize(Builder *b, Value *q, ElemType to) {
  const Type *t = q->type;
  ElemType et = t->quant->expressed;
  Value *s = bld_bitcast(b, q, bld_shape_of(b, t, t->elem));
  ElemType wide = et_bits(t->elem) >= 32 ? ET_S64 : ET_S32;
  Value *w = bld_convert(b, s, wide);
  Value *d = bld_sub(b, w, qparam(b, t, t, wide, false));
  Value *f = bld_mul(b, bld_convert(b, d, et), qparam(b, t, t, et, true));
  return bld_convert(b, f, to);
}

/* x (any float type) quantized to type qt. */
static Value *quantize(Builder *b, Value *x, Type *qt) {
  const QuantInfo *q = qt->quant;
  ElemType et = q->expressed;
  Value *v = bld_convert(b, x, et);
  v = bld_div(b, v, qparam(b, qt, qt, et, true));
  /* adding a zero point of 0 can only turn -0 into +0, which rounds to
     the same integer */
  bool zp = false;
  for (int i = 0; i < q->nscales; i++) zp = zp || q->zero_points[i] != 0;
  if (zp) v = bld_add(b, v, qparam(b, qt, qt, et, false));
  v = bld_bin(b, OP_MAXIMUM, v, bld_const_f(b, v->type, (double)q->storage_min));
  v = bld_bin(b, OP_MINIMUM, v, bld_const_f(b, v->type, (double)q->storage_max));
  v = bld_un(b, OP_ROUND_NEAREST_EVEN, v);
  Value *nan = bld_compare(b, v, v, "NE");
  v = bld_select(b, nan, bld_const_f(b, v->type, 0), v);
  Value *s = bld_convert(b, v, qt->elem);
  return bld_bitcast(b, s, qt);
}

static bool collect(Op *op, void *ud) {
  if (op_has_quant(op) && !keeps_quant(op)) VEC_PUSH(*(OpVec *)ud, op);
  return true;
}

/* Rewrites op; false (nothing built) when a type is not lowerable. */
static bool lower_op(Module *m, Func *f, Op *op) {
  for (int i = 0; i < op->nopnds; i++)
    if (type_is_quant(op->opnds[i]->type) && !quant_ok(op->opnds[i]->type)) return false;
  for (int i = 0; i < op->nres; i++) {
    const Type *t = op->res[i].type;
    if (t->kind != TY_TENSOR || (t->quant && !quant_ok(t))) return false;
  }
  Builder b = bld_before(m, op);
  Value *out[16];
  if (op->nres > 16) return false;
  if (op->kind == OP_UNIFORM_QUANTIZE || op->kind == OP_UNIFORM_DEQUANTIZE) {
    if (op->nopnds != 1 || op->nres != 1) return false;
    Value *x = op->opnds[0];
    Type *rt = op->res[0].type;
    if (op->kind == OP_UNIFORM_QUANTIZE) {
      if (!rt->quant || (!x->type->quant && !et_is_float(x->type->elem))) return false;
      if (x->type->quant) x = dequantize(&b, x, x->type->quant->expressed);
      out[0] = quantize(&b, x, rt);
    } else {
      if (!x->type->quant || !et_is_float(rt->elem) || rt->quant) return false;
      out[0] = dequantize(&b, x, rt->elem);
    }
  } else {
    Value **in = xcalloc((size_t)op->nopnds + 1, sizeof(Value *));
    Type **rts = xcalloc((size_t)op->nres + 1, sizeof(Type *));
    for (int i = 0; i < op->nopnds; i++) {
      Value *v = op->opnds[i];
      in[i] = type_is_quant(v->type) ? dequantize(&b, v, v->type->quant->expressed) : v;
    }
    for (int i = 0; i < op->nres; i++) {
      Type *t = op->res[i].type;
      rts[i] = t->quant ? bld_shape_of(&b, t, t->quant->expressed) : t;
    }
    Op *c = op_new(m, op->kind, op->nopnds, in, op->nres, rts, op->loc);
    for (int i = 0; i < op->nattrs; i++) op_set_attr(m, c, op->attrs[i].name, op->attrs[i].attr);
    block_insert_before(op->parent, op, c);
    for (int i = 0; i < op->nres; i++) {
      Type *t = op->res[i].type;
      out[i] = t->quant ? quantize(&b, &c->res[i], t) : &c->res[i];
    }
    xfree(in);
    xfree(rts);
  }
  bld_replace(f, op, out);
  return true;
}

int pass_quant_lower(Module *m, const PassOptions *o) {
  (void)o;
  int changed = 0;
  for (Func *f = m->funcs; f; f = f->next) {
    OpVec ops = {0};
    block_walk(f->body, collect, &ops);
    for (int i = 0; i < ops.len; i++)
      if (lower_op(m, f, ops.data[i])) changed = 1;
    VEC_FREE(ops);
  }
  return changed;
}
