/*
 * quant.c - uniform quantization in the interpreter: uniform_quantize,
 * uniform_dequantize, and interp_quantized_wrap, which runs any other op on
 * quantized tensors the spec's way (dequantize -> op -> quantize).
 *
 * A quantized tensor's Literal stores its storage integers; its Type carries
 * the QuantInfo (scales, zero points, storage range, and the quantization
 * dimension for per-axis types, -1 for per-tensor).  Following the spec's
 * `quantize`/`dequantize`, every intermediate step is rounded to the
 * expressed type:
 *   dequantize(q) = convert(q - zero_point) * scale
 *   quantize(x)   = round_nearest_even(clamp(min, x / scale + zero_point, max))
 */
#include "interp/interp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* v rounded to the expressed floating-point type et */
static double round_to(ElemType et, double v) {
  switch (et) {
  case ET_F64: return v;
  case ET_F32: return (float)v;
  default: return et_bits_to_double(et, et_double_to_bits(et, v));
  }
}

/* Index into the scale/zero-point arrays for element i of a tensor of type t. */
static int qparam_index(const Type *t, int64_t i) {
  const QuantInfo *q = t->quant;
  if (q->quant_dim < 0 || q->nscales <= 1) return 0;
  int64_t inner = 1;
  for (int d = t->rank - 1; d > q->quant_dim; d--) inner *= t->dims[d];
  return (int)((i / inner) % t->dims[q->quant_dim]);
}

static bool check_quant(Interp *I, Op *op, const Type *t) {
  const QuantInfo *q = t->quant;
  if (!q || q->nscales < 1 || !et_is_float(q->expressed)) return interp_error(I, op, "malformed quantized type");
  if (q->quant_dim >= 0) {
    if (q->quant_dim >= t->rank) return interp_error(I, op, "quantization dimension out of range");
    if (q->nscales != 1 && q->nscales != t->dims[q->quant_dim])
      return interp_error(I, op, "number of scales does not match the quantization dimension");
  }
  return true;
}

static double dequantize_elem(const Literal *l, int64_t i) {
  const QuantInfo *q = l->type->quant;
  int k = qparam_index(l->type, i);
  ElemType et = q->expressed;
  /* storage - zero point fits easily in int64 for <= 32-bit storage */
  int64_t d = lit_get_i(l, i) - q->zero_points[k];
  return round_to(et, round_to(et, (double)d) * round_to(et, q->scales[k]));
}

static void quantize_elem(Literal *out, int64_t i, double x) {
  const QuantInfo *q = out->type->quant;
  int k = qparam_index(out->type, i);
  ElemType et = q->expressed;
  double v = round_to(et, round_to(et, x) / round_to(et, q->scales[k]));
  v = round_to(et, v + round_to(et, (double)q->zero_points[k]));
  double lo = round_to(et, (double)q->storage_min), hi = round_to(et, (double)q->storage_max);
  /* clamp passes NaN through; it then becomes 0 rather than hitting UB */
  if (v < lo) v = lo;
  if (v > hi) v = hi;
  v = nearbyint(v);
  lit_set_i(out, i, isnan(v) ? 0 : (int64_t)v);
}

/* A float literal holding dequantize(l). */
static Literal *dequantize_lit(const Literal *l) {
  Type ft = *l->type;
  ft.elem = l->type->quant->expressed;
  ft.quant = NULL;
  ft.layout = NULL;
  Literal *f = lit_new(&ft);
  for (int64_t i = 0; i < l->n; i++) lit_set_f(f, i, dequantize_elem(l, i));
  return f;
}

bool interp_UNIFORM_QUANTIZE(Interp *I, Op *op, IVal **args, IVal **res) {
  if (args[0]->kind != IV_TENSOR) return interp_error(I, op, "operand is not a tensor");
  const Literal *x = ARG_LIT(0);
  const Type *ot = op->res[0].type;
  if (ot->kind != TY_TENSOR || !ot->quant) return interp_error(I, op, "result must be a quantized tensor");
  if (!check_quant(I, op, ot)) return false;
  if (x->type->quant && !check_quant(I, op, x->type)) return false;
  if (!x->type->quant && !et_is_float(lit_elem(x))) return interp_error(I, op, "operand must be floating-point or quantized");
  Literal *out = lit_new(ot);
  if (out->n != x->n) {
    lit_free(out);
    return interp_error(I, op, "operand and result shapes differ");
  }
  for (int64_t i = 0; i < x->n; i++)
    quantize_elem(out, i, x->type->quant ? dequantize_elem(x, i) : lit_get_f(x, i));
  res[0] = ival_tensor(out);
  return true;
}

bool interp_UNIFORM_DEQUANTIZE(Interp *I, Op *op, IVal **args, IVal **res) {
  if (args[0]->kind != IV_TENSOR) return interp_error(I, op, "operand is not a tensor");
  const Literal *x = ARG_LIT(0);
  const Type *ot = op->res[0].type;
  if (!x->type->quant) return interp_error(I, op, "operand must be a quantized tensor");
  if (!check_quant(I, op, x->type)) return false;
  if (ot->kind != TY_TENSOR || !et_is_float(ot->elem)) return interp_error(I, op, "result must be a floating-point tensor");
  Literal *out = lit_new(ot);
  if (out->n != x->n) {
    lit_free(out);
    return interp_error(I, op, "operand and result shapes differ");
  }
  for (int64_t i = 0; i < x->n; i++) lit_set_f(out, i, dequantize_elem(x, i));
  res[0] = ival_tensor(out);
  return true;
}

/* Runs fn on the dequantized operands and quantizes the quantized results,
   i.e. the spec's dequantize_op_quantize (and hybrid_dequantize_then_op when
   only some operands are quantized).  fn sees a shallow copy of op whose
   quantized result types are replaced by their expressed float types, so
   the shared IR is never modified (replica threads may run it too).  Float
   operands and results pass through unchanged.  Tuples are not handled. */
bool interp_quantized_wrap(Interp *I, Op *op, IVal **args, IVal **res, InterpOpFn fn) {
  int n = op->nopnds, m = op->nres;
  IVal **fargs = xcalloc((size_t)(n > 0 ? n : 1), sizeof(IVal *));
  IVal **fres = xcalloc((size_t)(m > 0 ? m : 1), sizeof(IVal *));
  Value *vals = xcalloc((size_t)(m > 0 ? m : 1), sizeof(Value));
  Type *ftypes = xcalloc((size_t)(m > 0 ? m : 1), sizeof(Type));
  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    IVal *a = args[i];
    if (a->kind == IV_TENSOR && a->lit->type->quant) {
      if (!(ok = check_quant(I, op, a->lit->type))) break;
      fargs[i] = ival_tensor(dequantize_lit(a->lit));
    } else {
      fargs[i] = ival_retain(a);
    }
  }
  Op tmp = *op;
  tmp.res = vals;
  for (int i = 0; i < m && ok; i++) {
    vals[i] = op->res[i];
    const Type *t = op->res[i].type;
    if (t->kind == TY_TENSOR && t->quant) {
      if (!(ok = check_quant(I, op, t))) break;
      ftypes[i] = *t;
      ftypes[i].elem = t->quant->expressed;
      ftypes[i].quant = NULL;
      ftypes[i].layout = NULL;
      vals[i].type = &ftypes[i];
    }
  }
  if (ok) ok = fn(I, &tmp, fargs, fres);
  for (int i = 0; i < m; i++) {
    const Type *t = op->res[i].type;
    if (ok && t->kind == TY_TENSOR && t->quant) {
      if (!fres[i] || fres[i]->kind != IV_TENSOR || fres[i]->lit->n != type_num_elements(t)) {
        ok = interp_error(I, op, "quantized result %d has an unexpected shape", i);
      } else {
        Literal *q = lit_new(t);
        for (int64_t j = 0; j < q->n; j++) quantize_elem(q, j, lit_get_f(fres[i]->lit, j));
        res[i] = ival_tensor(q);
      }
      ival_release(fres[i]);
    } else if (ok) {
      res[i] = fres[i];
    } else {
      ival_release(fres[i]);
    }
  }
  for (int i = 0; i < n; i++) ival_release(fargs[i]);
  xfree(fargs);
  xfree(fres);
  xfree(vals);
  xfree(ftypes);
  return ok;
}
