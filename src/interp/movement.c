/*
 * movement.c - interpreter ops that only move elements around: constants,
 * iota, broadcasts, reshapes, transposes, reversals, slices, concatenation,
 * padding, tuples and tokens.
 *
 * None of these look at element values, so they work for every element type
 * by copying raw element bytes.  Most of them are one "strided walk": visit
 * the result in row-major order while an offset into the operand moves by a
 * per-dimension stride (zero for broadcast dimensions, negative for reversed
 * ones), which keeps a million-element copy in the tens of milliseconds.
 * The dynamic_* variants take their shapes as operands; the result type is
 * static in our IR, so they reuse the static code and only check that the
 * operands agree with the type.
 */
#include <stdlib.h>
#include <string.h>

#include "interp/interp.h"

#define MAX_RANK 64

/* Copies one element of nb bytes; a switch on the size lets the compiler use
   plain loads and stores instead of a memcpy call per element. */
static inline void copy_bytes(char *dst, const char *src, int nb) {
  switch (nb) {
  case 1: *dst = *src; break;
  case 2: memcpy(dst, src, 2); break;
  case 4: memcpy(dst, src, 4); break;
  case 8: memcpy(dst, src, 8); break;
  case 16: memcpy(dst, src, 16); break;
  default: memcpy(dst, src, (size_t)nb); break;
  }
}

/* Fills dst (row-major over dims) from src, where moving one step along
   result dimension d moves the source offset by sstrides[d] elements. */
static void strided_copy(Literal *dst, const Literal *src, int rank, const int64_t *dims,
                         const int64_t *sstrides, int64_t base) {
  int nb = et_bytes(lit_elem(dst));
  int64_t n = dst->n;
  if (n == 0) return;
  int64_t idx[MAX_RANK] = {0};
  int64_t off = base;
  char *d = dst->data;
  const char *s = src->data;
  for (int64_t i = 0; i < n; i++) {
    copy_bytes(d + i * nb, s + off * nb, nb);
    for (int k = rank - 1; k >= 0; k--) {
      off += sstrides[k];
      if (++idx[k] < dims[k]) break;
      off -= sstrides[k] * dims[k];
      idx[k] = 0;
    }
  }
}

static bool check_rank(Interp *I, Op *op, int rank) {
  if (rank > MAX_RANK) return interp_error(I, op, "rank %d is too large (max %d)", rank, MAX_RANK);
  return true;
}

/* Result literal with the element type checked against the operand's, so
   byte copies are well defined. */
static Literal *new_result_like(Interp *I, Op *op, int r, const Literal *src) {
  const Type *t = op->res[r].type;
  if (!t || t->kind != TY_TENSOR) {
    interp_error(I, op, "result %d is not a tensor", r);
    return NULL;
  }
  if (src && et_bytes(t->elem) != et_bytes(lit_elem(src))) {
    interp_error(I, op, "result element type does not match the operand");
    return NULL;
  }
  if (!check_rank(I, op, t->rank)) return NULL;
  return lit_new(t);
}

static bool need_tensor(Interp *I, Op *op, IVal **args, int i) {
  if (i >= op->nopnds || !args[i] || args[i]->kind != IV_TENSOR)
    return interp_error(I, op, "operand %d must be a tensor", i);
  return true;
}

/* Reads an index element as int64, saturating huge unsigned values. */
static int64_t index_elem(const Literal *l, int64_t i) {
  if (et_is_unsigned(lit_elem(l))) {
    uint64_t u = lit_get_u(l, i);
    return u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)u;
  }
  if (et_is_float(lit_elem(l))) return 0;
  return lit_get_i(l, i);
}

/* ---- tokens, tuples, barriers ---- */
bool interp_AFTER_ALL(Interp *I, Op *op, IVal **args, IVal **res) {
  res[0] = ival_token();
  return true;
}

bool interp_CREATE_TOKEN(Interp *I, Op *op, IVal **args, IVal **res) {
  res[0] = ival_token();
  return true;
}

bool interp_TUPLE(Interp *I, Op *op, IVal **args, IVal **res) {
  res[0] = ival_tuple(op->nopnds, args);
  return true;
}

bool interp_GET_TUPLE_ELEMENT(Interp *I, Op *op, IVal **args, IVal **res) {
  int64_t k = op_attr_int(op, "index", -1);
  if (!args[0] || args[0]->kind != IV_TUPLE) return interp_error(I, op, "operand is not a tuple");
  if (k < 0 || k >= args[0]->n)
    return interp_error(I, op, "tuple index %lld out of range [0, %d)", (long long)k, args[0]->n);
  res[0] = ival_retain(args[0]->elems[k]);
  return true;
}

bool interp_OPTIMIZATION_BARRIER(Interp *I, Op *op, IVal **args, IVal **res) {
  if (op->nres != op->nopnds) return interp_error(I, op, "operand and result counts differ");
  for (int i = 0; i < op->nopnds; i++) res[i] = ival_retain(args[i]);
  return true;
}

/* A sharding constraint says how the value is to be laid out over the
   devices of a partitioned program: the value itself passes through. */
bool interp_SDY_SHARDING_CONSTRAINT(Interp *I, Op *op, IVal **args, IVal **res) {
  if (op->nopnds != 1 || op->nres != 1) return interp_error(I, op, "takes one operand and has one result");
  res[0] = ival_retain(args[0]);
  return true;
}

/* ---- constants ---- */

/* Fills result r from a dense literal: same size copies bytes, a single
   element splats, a different element type converts value by value. */
static bool fill_from_literal(Interp *I, Op *op, Literal *out, const Literal *v) {
  ElemType de = lit_elem(out), se = lit_elem(v);
  if (v->n != out->n && v->n != 1)
    return interp_error(I, op, "constant has %lld elements, result type needs %lld",
                        (long long)v->n, (long long)out->n);
  for (int64_t i = 0; i < out->n; i++) {
    int64_t j = v->n == 1 ? 0 : i;
    if (de == se) {
      lit_copy_elem(out, i, v, j);
    } else if (et_is_complex(de)) {
      double re, im;
      lit_get_c(v, j, &re, &im);
      lit_set_c(out, i, re, im);
    } else if (et_is_float(de)) {
      lit_set_f(out, i, lit_get_f(v, j));
    } else if (et_is_unsigned(de)) {
      lit_set_u(out, i, et_is_float(se) ? (uint64_t)lit_get_i(v, j) : lit_get_u(v, j));
    } else {
      lit_set_i(out, i, lit_get_i(v, j));
    }
  }
  return true;
}

static bool constant_common(Interp *I, Op *op, IVal **res) {
  Attr *a = op_attr(op, "value");
  if (!a || a->kind != ATTR_DENSE || !a->lit) return interp_error(I, op, "missing dense 'value'");
  Literal *out = new_result_like(I, op, 0, NULL);
  if (!out) return false;
  if (!fill_from_literal(I, op, out, a->lit)) {
    lit_free(out);
    return false;
  }
  res[0] = ival_tensor(out);
  return true;
}

bool interp_CONSTANT(Interp *I, Op *op, IVal **args, IVal **res) { return constant_common(I, op, res); }

bool interp_CHLO_CONSTANT(Interp *I, Op *op, IVal **args, IVal **res) {
  return constant_common(I, op, res);
}

/* chlo.constant_like: a scalar value splatted into the operand's shape. */
bool interp_CHLO_CONSTANT_LIKE(Interp *I, Op *op, IVal **args, IVal **res) {
  Attr *a = op_attr(op, "value");
  if (!a) return interp_error(I, op, "missing 'value'");
  Literal *out = new_result_like(I, op, 0, NULL);
  if (!out) return false;
  ElemType et = lit_elem(out);
  bool ok = true;
  if (a->kind == ATTR_DENSE && a->lit) {
    ok = fill_from_literal(I, op, out, a->lit);
  } else if (a->kind == ATTR_FLOAT || a->kind == ATTR_INT || a->kind == ATTR_BOOL) {
    double f = a->kind == ATTR_FLOAT ? a->f : a->kind == ATTR_INT ? (double)a->i : (double)a->b;
    int64_t iv = a->kind == ATTR_INT ? a->i : a->kind == ATTR_BOOL ? (int64_t)a->b : 0;
    if (a->kind == ATTR_FLOAT && et_is_int(et))
      ok = interp_error(I, op, "float value for an integer result");
    for (int64_t i = 0; ok && i < out->n; i++) {
      if (et_is_complex(et)) lit_set_c(out, i, f, 0);
      else if (et_is_float(et)) lit_set_f(out, i, f);
      else lit_set_i(out, i, iv);
    }
  } else {
    ok = interp_error(I, op, "unsupported 'value' attribute");
  }
  if (!ok) {
    lit_free(out);
    return false;
  }
  res[0] = ival_tensor(out);
  return true;
}

/* ---- iota ---- */
static bool iota_common(Interp *I, Op *op, IVal **res) {
  Literal *out = new_result_like(I, op, 0, NULL);
  if (!out) return false;
  const Type *t = op->res[0].type;
  int64_t dim = op_attr_int(op, "iota_dimension", -1);
  if (dim < 0 || dim >= t->rank) {
    lit_free(out);
    return interp_error(I, op, "iota_dimension %lld out of range for rank %d", (long long)dim,
                        t->rank);
  }
  ElemType et = t->elem;
  int64_t idx[MAX_RANK] = {0};
  for (int64_t i = 0; i < out->n; i++) {
    int64_t v = idx[dim];
    switch (et) {
    case ET_S32: ((int32_t *)out->data)[i] = (int32_t)v; break;
    case ET_S64: ((int64_t *)out->data)[i] = v; break;
    case ET_F32: ((float *)out->data)[i] = (float)v; break;
    case ET_F64: ((double *)out->data)[i] = (double)v; break;
    default:
      if (et_is_complex(et)) lit_set_c(out, i, (double)v, 0);
      else if (et_is_float(et)) lit_set_f(out, i, (double)v);
      else lit_set_i(out, i, v);
    }
    index_next(t->rank, t->dims, idx);
  }
  res[0] = ival_tensor(out);
  return true;
}

bool interp_IOTA(Interp *I, Op *op, IVal **args, IVal **res) { return iota_common(I, op, res); }

/* Checks that a 1-D shape operand spells the static result shape. */
static bool check_shape_operand(Interp *I, Op *op, const Literal *shape, const Type *t) {
  if (shape->type->rank != 1 || shape->n != t->rank)
    return interp_error(I, op, "shape operand has %lld entries, result rank is %d",
                        (long long)shape->n, t->rank);
  for (int i = 0; i < t->rank; i++)
    if (index_elem(shape, i) != t->dims[i])
      return interp_error(I, op, "shape operand dimension %d is %lld but the result type says %lld",
                          i, (long long)index_elem(shape, i), (long long)t->dims[i]);
  return true;
}

bool interp_DYNAMIC_IOTA(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensor(I, op, args, 0)) return false;
  if (!check_shape_operand(I, op, ARG_LIT(0), op->res[0].type)) return false;
  return iota_common(I, op, res);
}

/* ---- broadcasts ---- */
static bool broadcast_in_dim_common(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensor(I, op, args, 0)) return false;
  const Literal *x = ARG_LIT(0);
  int64_t *bd = NULL;
  int nbd = op_attr_ints(op, "broadcast_dimensions", &bd);
  const Type *xt = x->type;
  if (nbd != xt->rank || !check_rank(I, op, xt->rank))
    return interp_error(I, op, "broadcast_dimensions has %d entries, operand rank is %d", nbd,
                        xt->rank);
  Literal *out = new_result_like(I, op, 0, x);
  if (!out) return false;
  const Type *t = out->type;
  int64_t xs[MAX_RANK], ss[MAX_RANK] = {0};
  shape_strides(xt->rank, xt->dims, xs);
  for (int i = 0; i < xt->rank; i++) {
    if (bd[i] < 0 || bd[i] >= t->rank ||
        (xt->dims[i] != 1 && xt->dims[i] != t->dims[bd[i]])) {
      lit_free(out);
      return interp_error(I, op, "operand dimension %d cannot broadcast to result dimension %lld", i,
                          (long long)bd[i]);
    }
    if (xt->dims[i] != 1) ss[bd[i]] = xs[i];
  }
  strided_copy(out, x, t->rank, t->dims, ss, 0);
  res[0] = ival_tensor(out);
  return true;
}

bool interp_BROADCAST_IN_DIM(Interp *I, Op *op, IVal **args, IVal **res) {
  return broadcast_in_dim_common(I, op, args, res);
}

bool interp_DYNAMIC_BROADCAST_IN_DIM(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensor(I, op, args, 1)) return false;
  if (!check_shape_operand(I, op, ARG_LIT(1), op->res[0].type)) return false;
  return broadcast_in_dim_common(I, op, args, res);
}

/* Deprecated broadcast: the new dimensions (broadcast_sizes) go in front. */
bool interp_BROADCAST(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensor(I, op, args, 0)) return false;
  const Literal *x = ARG_LIT(0);
  Literal *out = new_result_like(I, op, 0, x);
  if (!out) return false;
  const Type *t = out->type, *xt = x->type;
  int lead = t->rank - xt->rank;
  bool ok = lead >= 0;
  for (int i = 0; ok && i < xt->rank; i++) ok = xt->dims[i] == t->dims[lead + i];
  if (!ok) {
    lit_free(out);
    return interp_error(I, op, "result shape does not end with the operand shape");
  }
  int64_t ss[MAX_RANK] = {0};
  shape_strides(xt->rank, xt->dims, ss + lead);
  strided_copy(out, x, t->rank, t->dims, ss, 0);
  res[0] = ival_tensor(out);
  return true;
}

/* ---- reshape ---- */
static bool reshape_common(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensor(I, op, args, 0)) return false;
  const Literal *x = ARG_LIT(0);
  Literal *out = new_result_like(I, op, 0, x);
  if (!out) return false;
  if (out->n != x->n) {
    lit_free(out);
    return interp_error(I, op, "reshape changes the element count (%lld -> %lld)", (long long)x->n,
                        (long long)out->n);
  }
  if (x->n) memcpy(out->data, x->data, (size_t)x->n * (size_t)et_bytes(lit_elem(x)));
  res[0] = ival_tensor(out);
  return true;
}

bool interp_RESHAPE(Interp *I, Op *op, IVal **args, IVal **res) {
  return reshape_common(I, op, args, res);
}

bool interp_DYNAMIC_RESHAPE(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensor(I, op, args, 1)) return false;
  if (!check_shape_operand(I, op, ARG_LIT(1), op->res[0].type)) return false;
  return reshape_common(I, op, args, res);
}

/* ---- transpose, reverse, slice ---- */
bool interp_TRANSPOSE(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensor(I, op, args, 0)) return false;
  const Literal *x = ARG_LIT(0);
  const Type *xt = x->type;
  int64_t *perm = NULL;
  int np = op_attr_ints(op, "permutation", &perm);
  if (np != xt->rank || !check_rank(I, op, xt->rank))
    return interp_error(I, op, "permutation has %d entries, operand rank is %d", np, xt->rank);
  Literal *out = new_result_like(I, op, 0, x);
  if (!out) return false;
  const Type *t = out->type;
  int64_t xs[MAX_RANK], ss[MAX_RANK];
  bool seen[MAX_RANK] = {false};
  shape_strides(xt->rank, xt->dims, xs);
  for (int i = 0; i < np; i++) {
    if (t->rank != np || perm[i] < 0 || perm[i] >= np || seen[perm[i]] ||
        t->dims[i] != xt->dims[perm[i]]) {
      lit_free(out);
      return interp_error(I, op, "invalid permutation for the operand and result shapes");
    }
    seen[perm[i]] = true;
    ss[i] = xs[perm[i]];
  }
  strided_copy(out, x, t->rank, t->dims, ss, 0);
  res[0] = ival_tensor(out);
  return true;
}

bool interp_REVERSE(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensor(I, op, args, 0)) return false;
  const Literal *x = ARG_LIT(0);
  const Type *xt = x->type;
  Literal *out = new_result_like(I, op, 0, x);
  if (!out) return false;
  if (out->n != x->n || out->type->rank != xt->rank) {
    lit_free(out);
    return interp_error(I, op, "result shape differs from the operand");
  }
  int64_t *dims = NULL;
  int nd = op_attr_ints(op, "dimensions", &dims);
  int64_t ss[MAX_RANK], base = 0;
  shape_strides(xt->rank, xt->dims, ss);
  bool rev[MAX_RANK] = {false};
  for (int i = 0; i < nd; i++) {
    if (dims[i] < 0 || dims[i] >= xt->rank || rev[dims[i]]) {
      lit_free(out);
      return interp_error(I, op, "invalid reverse dimension %lld", (long long)dims[i]);
    }
    rev[dims[i]] = true;
  }
  for (int d = 0; d < xt->rank; d++) {
    if (!rev[d] || xt->dims[d] == 0) continue;
    base += (xt->dims[d] - 1) * ss[d];
    ss[d] = -ss[d];
  }
  strided_copy(out, x, xt->rank, xt->dims, ss, base);
  res[0] = ival_tensor(out);
  return true;
}

/* Slices x into out with the given starts and strides (result dims from
   out's type); checks every accessed index is in range. */
static bool slice_into(Interp *I, Op *op, Literal *out, const Literal *x, const int64_t *start,
                       const int64_t *stride) {
  const Type *xt = x->type, *t = out->type;
  if (t->rank != xt->rank) return interp_error(I, op, "slice changes the rank");
  int64_t xs[MAX_RANK], ss[MAX_RANK], base = 0;
  shape_strides(xt->rank, xt->dims, xs);
  for (int d = 0; d < xt->rank; d++) {
    if (stride[d] <= 0) return interp_error(I, op, "slice stride must be positive");
    if (t->dims[d] > 0 &&
        (start[d] < 0 || start[d] >= xt->dims[d] ||
         (xt->dims[d] - 1 - start[d]) / stride[d] < t->dims[d] - 1))
      return interp_error(I, op, "slice of dimension %d is out of bounds", d);
    base += t->dims[d] > 0 ? start[d] * xs[d] : 0;
    /* one element or none: the stride (any size) is never taken */
    ss[d] = t->dims[d] > 1 ? stride[d] * xs[d] : 0;
  }
  if (out->n) strided_copy(out, x, t->rank, t->dims, ss, base);
  return true;
}

bool interp_SLICE(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensor(I, op, args, 0)) return false;
  const Literal *x = ARG_LIT(0);
  int rank = x->type->rank;
  int64_t *start = NULL, *limit = NULL, *strides = NULL;
  int ns = op_attr_ints(op, "start_indices", &start);
  int nl = op_attr_ints(op, "limit_indices", &limit);
  int nt = op_attr_ints(op, "strides", &strides);
  if (ns != rank || nl != rank || (nt != rank && nt != 0) || !check_rank(I, op, rank))
    return interp_error(I, op, "slice attributes do not match the operand rank %d", rank);
  int64_t st[MAX_RANK];
  for (int d = 0; d < rank; d++) st[d] = nt ? strides[d] : 1;
  Literal *out = new_result_like(I, op, 0, x);
  if (!out) return false;
  for (int d = 0; d < rank && d < out->type->rank; d++) {
    int64_t want = limit[d] > start[d] && start[d] >= 0 && st[d] > 0 ? (limit[d] - start[d] - 1) / st[d] + 1 : 0;
    if (start[d] < 0 || want != out->type->dims[d] || limit[d] > x->type->dims[d]) {
      lit_free(out);
      return interp_error(I, op, "slice bounds of dimension %d do not match the result type", d);
    }
  }
  if (!slice_into(I, op, out, x, start, st)) {
    lit_free(out);
    return false;
  }
  res[0] = ival_tensor(out);
  return true;
}

/* ---- concatenate ---- */
bool interp_CONCATENATE(Interp *I, Op *op, IVal **args, IVal **res) {
  if (op->nopnds < 1) return interp_error(I, op, "concatenate needs at least one operand");
  for (int i = 0; i < op->nopnds; i++)
    if (!need_tensor(I, op, args, i)) return false;
  Literal *out = new_result_like(I, op, 0, ARG_LIT(0));
  if (!out) return false;
  const Type *t = out->type;
  int64_t dim = op_attr_int(op, "dimension", -1);
  if (dim < 0 || dim >= t->rank) {
    lit_free(out);
    return interp_error(I, op, "concatenate dimension %lld out of range", (long long)dim);
  }
  /* outer = product of dims before `dim`; each operand contributes a
     contiguous run of dims[dim] * inner elements per outer index */
  int64_t outer = 1, inner = 1, total = 0;
  for (int d = 0; d < dim; d++) outer *= t->dims[d];
  for (int d = (int)dim + 1; d < t->rank; d++) inner *= t->dims[d];
  for (int i = 0; i < op->nopnds; i++) {
    const Type *xt = ARG_LIT(i)->type;
    bool ok = xt->rank == t->rank && et_bytes(xt->elem) == et_bytes(t->elem);
    for (int d = 0; ok && d < t->rank; d++) ok = d == dim || xt->dims[d] == t->dims[d];
    if (!ok) {
      lit_free(out);
      return interp_error(I, op, "operand %d shape does not match the result", i);
    }
    total += xt->dims[dim];
  }
  if (total != t->dims[dim]) {
    lit_free(out);
    return interp_error(I, op, "concatenated size %lld differs from the result's %lld",
                        (long long)total, (long long)t->dims[dim]);
  }
  size_t nb = (size_t)et_bytes(t->elem);
  int64_t at = 0;
  for (int i = 0; i < op->nopnds; i++) {
    const Literal *x = ARG_LIT(i);
    int64_t run = x->type->dims[dim] * inner;
    for (int64_t o = 0; o < outer && run > 0; o++)
      memcpy((char *)out->data + (size_t)(o * t->dims[dim] * inner + at) * nb,
             (const char *)x->data + (size_t)(o * run) * nb, (size_t)run * nb);
    at += run;
  }
  res[0] = ival_tensor(out);
  return true;
}

/* ---- pad ---- */

/* Fills out with the padding value, then drops each operand element at
   low + i * (interior + 1) when that lands inside the result (negative
   padding crops).  Any int64 amounts whose exact sizes add up
   (pad_dim_size): i * (interior + 1) stays below the interior-padded extent,
   which fits, and a position past INT64_MAX is past the result too. */
static bool pad_common(Interp *I, Op *op, const Literal *x, const Literal *pv, const int64_t *lo,
                       const int64_t *hi, const int64_t *in, IVal **res) {
  const Type *xt = x->type;
  if (pv->n != 1 || et_bytes(lit_elem(pv)) != et_bytes(lit_elem(x)))
    return interp_error(I, op, "padding value must be a scalar of the operand's element type");
  Literal *out = new_result_like(I, op, 0, x);
  if (!out) return false;
  const Type *t = out->type;
  bool ok = t->rank == xt->rank;
  int64_t step[MAX_RANK];
  for (int d = 0; ok && d < xt->rank; d++) {
    int64_t want;
    ok = pad_dim_size(xt->dims[d], lo[d], hi[d], in[d], &want) == 0 && want == t->dims[d];
    /* with fewer than two elements the interior amount is never used */
    step[d] = ok && xt->dims[d] > 1 ? in[d] + 1 : 1;
  }
  if (!ok) {
    lit_free(out);
    return interp_error(I, op, "padding amounts do not match the operand and result shapes");
  }
  int nb = et_bytes(t->elem);
  for (int64_t i = 0; i < out->n; i++) copy_bytes((char *)out->data + i * nb, pv->data, nb);
  int64_t rs[MAX_RANK], idx[MAX_RANK] = {0};
  shape_strides(t->rank, t->dims, rs);
  for (int64_t i = 0; i < x->n; i++) {
    int64_t off = 0;
    bool inside = true;
    for (int d = 0; d < t->rank; d++) {
      int64_t p;
      if (__builtin_add_overflow(lo[d], idx[d] * step[d], &p) || p < 0 || p >= t->dims[d]) {
        inside = false;
        break;
      }
      off += p * rs[d];
    }
    if (inside) copy_bytes((char *)out->data + off * nb, (const char *)x->data + i * nb, nb);
    index_next(xt->rank, xt->dims, idx);
  }
  res[0] = ival_tensor(out);
  return true;
}

bool interp_PAD(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensor(I, op, args, 0) || !need_tensor(I, op, args, 1)) return false;
  int rank = ARG_LIT(0)->type->rank;
  int64_t *lo = NULL, *hi = NULL, *in = NULL;
  int nl = op_attr_ints(op, "edge_padding_low", &lo);
  int nh = op_attr_ints(op, "edge_padding_high", &hi);
  int ni = op_attr_ints(op, "interior_padding", &in);
  if (nl != rank || nh != rank || (ni != rank && ni != 0) || !check_rank(I, op, rank))
    return interp_error(I, op, "padding attributes do not match the operand rank %d", rank);
  int64_t zero[MAX_RANK] = {0};
  return pad_common(I, op, ARG_LIT(0), ARG_LIT(1), lo, hi, ni ? in : zero, res);
}

bool interp_DYNAMIC_PAD(Interp *I, Op *op, IVal **args, IVal **res) {
  for (int i = 0; i < 5; i++)
    if (!need_tensor(I, op, args, i)) return false;
  int rank = ARG_LIT(0)->type->rank;
  if (!check_rank(I, op, rank)) return false;
  int64_t v[3][MAX_RANK];
  for (int k = 0; k < 3; k++) {
    const Literal *l = ARG_LIT(2 + k);
    if (l->n != rank) return interp_error(I, op, "padding operand %d must have %d entries", 2 + k, rank);
    for (int d = 0; d < rank; d++) v[k][d] = index_elem(l, d);
  }
  return pad_common(I, op, ARG_LIT(0), ARG_LIT(1), v[0], v[1], v[2], res);
}

/* ---- dimension sizes ---- */
bool interp_GET_DIMENSION_SIZE(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensor(I, op, args, 0)) return false;
  int64_t d = op_attr_int(op, "dimension", -1);
  const Type *xt = ARG_LIT(0)->type;
  if (d < 0 || d >= xt->rank)
    return interp_error(I, op, "dimension %lld out of range for rank %d", (long long)d, xt->rank);
  Literal *out = new_result_like(I, op, 0, NULL);
  if (!out) return false;
  if (out->n != 1 || !et_is_int(lit_elem(out))) {
    lit_free(out);
    return interp_error(I, op, "result must be an integer scalar");
  }
  lit_set_i(out, 0, xt->dims[d]);
  res[0] = ival_tensor(out);
  return true;
}

/* set_dimension_size marks a bound dimension as dynamic; with static shapes
   the data is unchanged, so elements shared by operand and result are
   copied and any extra result elements are zero. */
bool interp_SET_DIMENSION_SIZE(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensor(I, op, args, 0)) return false;
  const Literal *x = ARG_LIT(0);
  Literal *out = new_result_like(I, op, 0, x);
  if (!out) return false;
  const Type *t = out->type, *xt = x->type;
  if (t->rank != xt->rank) {
    lit_free(out);
    return interp_error(I, op, "result rank differs from the operand");
  }
  int64_t xs[MAX_RANK], rs[MAX_RANK], common[MAX_RANK], idx[MAX_RANK] = {0};
  int64_t n = 1;
  shape_strides(xt->rank, xt->dims, xs);
  shape_strides(t->rank, t->dims, rs);
  for (int d = 0; d < t->rank; d++) {
    common[d] = t->dims[d] < xt->dims[d] ? t->dims[d] : xt->dims[d];
    n *= common[d];
  }
  int nb = et_bytes(t->elem);
  for (int64_t i = 0; i < n; i++) {
    int64_t so = 0, doff = 0;
    for (int d = 0; d < t->rank; d++) {
      so += idx[d] * xs[d];
      doff += idx[d] * rs[d];
    }
    copy_bytes((char *)out->data + doff * nb, (const char *)x->data + so * nb, nb);
    index_next(t->rank, common, idx);
  }
  res[0] = ival_tensor(out);
  return true;
}
