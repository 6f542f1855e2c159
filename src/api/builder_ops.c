/*
 * builder_ops.c - the typed op functions of include/xlac/builder.h.
 *
 * Each one describes its op as an OpReq (operands, attribute specs,
 * computations, how the result types are found) and hands it to op_run,
 * which does the checking, inference and verification every op gets.
 * Nothing here allocates: attribute specs point at the caller's arrays
 * (or small arrays on the stack) until op_run turns them into IR inside
 * its memory guard.
 */
#include <stdio.h>
#include <string.h>

#include "api/builder_int.h"

enum { MAX_RANK = 64 };

/* The rank of x when x is a usable tensor value, else -1 (op_run then
   reports what is wrong with it). */
static int rank_of(const xlac_value *x) {
  if (!x || x->magic != BLD_MAGIC_VALUE || x->v->type->kind != TY_TENSOR) return -1;
  return x->v->type->rank;
}

static xlac_status *need_out(OpKind k, void *out) {
  return out ? NULL : bld_error(k, XLAC_INVALID_ARGUMENT, "out is NULL");
}

/* The default attribute arrays live on the stack, MAX_RANK entries. */
static xlac_status *rank_fits(OpKind k, int rank) {
  return rank <= MAX_RANK ? NULL
                          : bld_error(k, XLAC_INVALID_ARGUMENT, "operand 0 has rank %d; give the arrays explicitly "
                                      "above rank %d (xlac_op)", rank, MAX_RANK);
}

/* An INTS spec of n entries from p, or from `def` (filled with `fill`)
   when p is NULL. */
static void ints_or(OpReq *r, const char *name, const int64_t *p, int n, int64_t *def, int64_t fill) {
  if (!p) {
    for (int i = 0; i < n && i < MAX_RANK; i++) def[i] = fill;
    p = def;
  }
  ASpec *s = op_req_spec(r, name, AS_INTS);
  s->p = p;
  s->n = n;
}

static void int_spec(OpReq *r, const char *name, int64_t v) { op_req_spec(r, name, AS_INT)->i = v; }

static void list_field(ASpec *s, const char *name, const int64_t *p, int n) {
  memset(s, 0, sizeof *s);
  s->name = name;
  s->kind = AS_INT_LIST;
  s->p = p;
  s->n = n;
}

static void int_field(ASpec *s, const char *name, int64_t v) {
  memset(s, 0, sizeof *s);
  s->name = name;
  s->kind = AS_INT;
  s->bits = -1;
  s->i = v;
}

static void dict_spec(OpReq *r, const char *name, const char *dict, const ASpec *fields, int n) {
  ASpec *s = op_req_spec(r, name, AS_DICT);
  s->s = dict;
  s->sub = fields;
  s->n = n;
}

/* Replica groups (absent when NULL and 0 groups) and a channel. */
static xlac_status *groups_spec(OpReq *r, const int64_t *groups, int num_groups, int group_size,
                                int64_t channel_id) {
  if (num_groups < 0 || group_size < 0 || (num_groups > 0 && (!groups || group_size == 0)))
    return bld_error(r->kind, XLAC_INVALID_ARGUMENT, "invalid replica groups: %d groups of %d%s", num_groups,
                     group_size, num_groups > 0 && !groups ? " with a NULL array" : "");
  if (groups || num_groups) {
    ASpec *s = op_req_spec(r, "replica_groups", AS_DENSE2D);
    s->p = groups;
    s->n = num_groups;
    s->cols = group_size;
  }
  if (channel_id < 0) return bld_error(r->kind, XLAC_INVALID_ARGUMENT, "negative channel id %lld", (long long)channel_id);
  if (channel_id > 0) op_req_spec(r, "channel_handle", AS_CHANNEL)->i = channel_id;
  return NULL;
}

/* ---- constants ---- */

xlac_status *xlac_op_constant(xlac_func *f, xlac_type type, const int64_t *dims, int rank, const void *data,
                              size_t size, xlac_value **out) {
  xlac_status *s = need_out(OP_CONSTANT, out);
  if (s) return s;
  OpReq r = op_req(f, OP_CONSTANT, out, 1);
  ASpec *v = op_req_spec(&r, "value", AS_HOST);
  v->i = type;
  v->p = dims;
  v->n = rank;
  v->s = data;
  v->slen = size;
  r.res_mode = RES_DIMS;
  r.res_elem = type;
  r.res_dims = dims;
  r.res_rank = rank;
  return op_run(&r);
}

static xlac_status *scalar(xlac_func *f, xlac_type type, ASpecKind kind, double fv, int64_t iv, xlac_value **out) {
  xlac_status *s = need_out(OP_CONSTANT, out);
  if (s) return s;
  OpReq r = op_req(f, OP_CONSTANT, out, 1);
  ASpec *v = op_req_spec(&r, "value", kind);
  v->i = type;
  v->f = fv;
  v->v = iv;
  r.res_mode = RES_DIMS;
  r.res_elem = type;
  return op_run(&r);
}

xlac_status *xlac_op_constant_f(xlac_func *f, xlac_type type, double value, xlac_value **out) {
  return scalar(f, type, AS_SCALAR_F, value, 0, out);
}

xlac_status *xlac_op_constant_i(xlac_func *f, xlac_type type, int64_t value, xlac_value **out) {
  return scalar(f, type, AS_SCALAR_I, 0, value, out);
}

xlac_status *xlac_op_iota(xlac_func *f, xlac_type type, const int64_t *dims, int rank, int64_t iota_dim,
                          xlac_value **out) {
  xlac_status *s = need_out(OP_IOTA, out);
  if (s) return s;
  OpReq r = op_req(f, OP_IOTA, out, 1);
  int_spec(&r, "iota_dimension", iota_dim);
  r.res_mode = RES_DIMS;
  r.res_elem = type;
  r.res_dims = dims;
  r.res_rank = rank;
  return op_run(&r);
}

/* ---- elementwise ---- */

static xlac_status *nary(xlac_func *f, OpKind k, xlac_value *const *v, int n, xlac_value **out) {
  xlac_status *s = need_out(k, out);
  if (s) return s;
  OpReq r = op_req(f, k, out, 1);
  op_req_operands(&r, v, n);
  return op_run(&r);
}

#define UNARY(fn, ID)                                                        \
  xlac_status *xlac_op_##fn(xlac_func *f, xlac_value *x, xlac_value **out) { \
    return nary(f, OP_##ID, &x, 1, out);                                     \
  }
UNARY(abs, ABS)
UNARY(neg, NEGATE)
UNARY(sign, SIGN)
UNARY(not, NOT)
UNARY(exp, EXPONENTIAL)
UNARY(expm1, EXPONENTIAL_MINUS_ONE)
UNARY(log, LOG)
UNARY(log1p, LOG_PLUS_ONE)
UNARY(logistic, LOGISTIC)
UNARY(sqrt, SQRT)
UNARY(rsqrt, RSQRT)
UNARY(cbrt, CBRT)
UNARY(sin, SINE)
UNARY(cos, COSINE)
UNARY(tan, TAN)
UNARY(tanh, TANH)
UNARY(floor, FLOOR)
UNARY(ceil, CEIL)
UNARY(round, ROUND_NEAREST_EVEN)
UNARY(is_finite, IS_FINITE)
UNARY(popcnt, POPCNT)
UNARY(real, REAL)
UNARY(imag, IMAG)
#undef UNARY

#define BINARY(fn, ID)                                                                     \
  xlac_status *xlac_op_##fn(xlac_func *f, xlac_value *x, xlac_value *y, xlac_value **out) { \
    xlac_value *v[2] = {x, y};                                                             \
    return nary(f, OP_##ID, v, 2, out);                                                    \
  }
BINARY(add, ADD)
BINARY(sub, SUBTRACT)
BINARY(mul, MULTIPLY)
BINARY(div, DIVIDE)
BINARY(rem, REMAINDER)
BINARY(pow, POWER)
BINARY(max, MAXIMUM)
BINARY(min, MINIMUM)
BINARY(atan2, ATAN2)
BINARY(and, AND)
BINARY(or, OR)
BINARY(xor, XOR)
BINARY(shift_left, SHIFT_LEFT)
BINARY(shift_right_arithmetic, SHIFT_RIGHT_ARITHMETIC)
BINARY(shift_right_logical, SHIFT_RIGHT_LOGICAL)
#undef BINARY

xlac_status *xlac_op_compare(xlac_func *f, xlac_value *x, xlac_value *y, xlac_comparison dir, xlac_value **out) {
  static const char *const dirs[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  xlac_status *s = need_out(OP_COMPARE, out);
  if (s) return s;
  if ((int)dir < 0 || dir > XLAC_CMP_GE)
    return bld_error(OP_COMPARE, XLAC_INVALID_ARGUMENT, "invalid comparison direction %d", (int)dir);
  xlac_value *v[2] = {x, y};
  OpReq r = op_req(f, OP_COMPARE, out, 1);
  op_req_operands(&r, v, 2);
  ASpec *d = op_req_spec(&r, "comparison_direction", AS_ENUM);
  d->enum_name = "comparison_direction";
  d->s = dirs[dir];
  return op_run(&r);
}

xlac_status *xlac_op_select(xlac_func *f, xlac_value *pred, xlac_value *on_true, xlac_value *on_false,
                            xlac_value **out) {
  xlac_value *v[3] = {pred, on_true, on_false};
  return nary(f, OP_SELECT, v, 3, out);
}

xlac_status *xlac_op_clamp(xlac_func *f, xlac_value *lo, xlac_value *x, xlac_value *hi, xlac_value **out) {
  xlac_value *v[3] = {lo, x, hi};
  return nary(f, OP_CLAMP, v, 3, out);
}

static xlac_status *convert_like(xlac_func *f, OpKind k, xlac_value *x, xlac_type type, xlac_value **out) {
  xlac_status *s = need_out(k, out);
  if (s) return s;
  OpReq r = op_req(f, k, out, 1);
  op_req_operands(&r, &x, 1);
  r.res_mode = RES_ELEM_LIKE0;
  r.res_elem = type;
  return op_run(&r);
}

xlac_status *xlac_op_convert(xlac_func *f, xlac_value *x, xlac_type type, xlac_value **out) {
  return convert_like(f, OP_CONVERT, x, type, out);
}

xlac_status *xlac_op_bitcast_convert(xlac_func *f, xlac_value *x, xlac_type type, xlac_value **out) {
  return convert_like(f, OP_BITCAST_CONVERT, x, type, out);
}

/* ---- shapes ---- */

xlac_status *xlac_op_broadcast_in_dim(xlac_func *f, xlac_value *x, const int64_t *dims, int rank,
                                      const int64_t *broadcast_dims, xlac_value **out) {
  xlac_status *s = need_out(OP_BROADCAST_IN_DIM, out);
  if (s) return s;
  int xr = rank_of(x);
  if (!broadcast_dims && (s = rank_fits(OP_BROADCAST_IN_DIM, xr))) return s;
  int64_t def[MAX_RANK];
  OpReq r = op_req(f, OP_BROADCAST_IN_DIM, out, 1);
  op_req_operands(&r, &x, 1);
  if (xr >= 0) {
    /* numpy's rule: x's dimensions are the result's last ones */
    if (!broadcast_dims) {
      for (int i = 0; i < xr && i < MAX_RANK; i++) def[i] = rank - xr + i;
      broadcast_dims = def;
    }
    ints_or(&r, "broadcast_dimensions", broadcast_dims, xr, NULL, 0);
  }
  r.res_mode = RES_DIMS;
  r.res_dims = dims;
  r.res_rank = rank;
  return op_run(&r);
}

xlac_status *xlac_op_reshape(xlac_func *f, xlac_value *x, const int64_t *dims, int rank, xlac_value **out) {
  xlac_status *s = need_out(OP_RESHAPE, out);
  if (s) return s;
  OpReq r = op_req(f, OP_RESHAPE, out, 1);
  op_req_operands(&r, &x, 1);
  r.res_mode = RES_DIMS;
  r.res_dims = dims;
  r.res_rank = rank;
  return op_run(&r);
}

/* An op on x with one INTS attribute of rank(x) entries. */
static xlac_status *with_ints(xlac_func *f, OpKind k, xlac_value *x, const char *name, const int64_t *p, int n,
                              xlac_value **out) {
  xlac_status *s = need_out(k, out);
  if (s) return s;
  if (n > 0 && !p) return bld_error(k, XLAC_INVALID_ARGUMENT, "%s is NULL", name);
  OpReq r = op_req(f, k, out, 1);
  op_req_operands(&r, &x, 1);
  if (n >= 0) ints_or(&r, name, p, n, NULL, 0);
  return op_run(&r);
}

xlac_status *xlac_op_transpose(xlac_func *f, xlac_value *x, const int64_t *perm, xlac_value **out) {
  return with_ints(f, OP_TRANSPOSE, x, "permutation", perm, rank_of(x), out);
}

xlac_status *xlac_op_reverse(xlac_func *f, xlac_value *x, const int64_t *dims, int num_dims, xlac_value **out) {
  if (num_dims < 0) return bld_error(OP_REVERSE, XLAC_INVALID_ARGUMENT, "negative dimension count %d", num_dims);
  return with_ints(f, OP_REVERSE, x, "dimensions", dims, num_dims, out);
}

xlac_status *xlac_op_slice(xlac_func *f, xlac_value *x, const int64_t *start, const int64_t *limit,
                           const int64_t *strides, xlac_value **out) {
  xlac_status *s = need_out(OP_SLICE, out);
  if (s) return s;
  int xr = rank_of(x);
  if (xr > 0 && (!start || !limit))
    return bld_error(OP_SLICE, XLAC_INVALID_ARGUMENT, "%s is NULL", start ? "limit" : "start");
  if (!strides && (s = rank_fits(OP_SLICE, xr))) return s;
  int64_t ones[MAX_RANK];
  OpReq r = op_req(f, OP_SLICE, out, 1);
  op_req_operands(&r, &x, 1);
  if (xr >= 0) {
    ints_or(&r, "start_indices", start, xr, NULL, 0);
    ints_or(&r, "limit_indices", limit, xr, NULL, 0);
    ints_or(&r, "strides", strides, xr, ones, 1);
  }
  return op_run(&r);
}

xlac_status *xlac_op_dynamic_slice(xlac_func *f, xlac_value *x, xlac_value *const *start, const int64_t *slice_sizes,
                                   xlac_value **out) {
  xlac_status *s = need_out(OP_DYNAMIC_SLICE, out);
  if (s) return s;
  int xr = rank_of(x);
  if (xr > 0 && !slice_sizes) return bld_error(OP_DYNAMIC_SLICE, XLAC_INVALID_ARGUMENT, "slice_sizes is NULL");
  OpReq r = op_req(f, OP_DYNAMIC_SLICE, out, 1);
  op_req_operands(&r, &x, 1);
  op_req_operands(&r, start, xr > 0 ? xr : 0);
  if (xr >= 0) ints_or(&r, "slice_sizes", slice_sizes, xr, NULL, 0);
  return op_run(&r);
}

xlac_status *xlac_op_dynamic_update_slice(xlac_func *f, xlac_value *x, xlac_value *update, xlac_value *const *start,
                                          xlac_value **out) {
  xlac_status *s = need_out(OP_DYNAMIC_UPDATE_SLICE, out);
  if (s) return s;
  int xr = rank_of(x);
  xlac_value *v[2] = {x, update};
  OpReq r = op_req(f, OP_DYNAMIC_UPDATE_SLICE, out, 1);
  op_req_operands(&r, v, 2);
  op_req_operands(&r, start, xr > 0 ? xr : 0);
  return op_run(&r);
}

xlac_status *xlac_op_concatenate(xlac_func *f, xlac_value *const *xs, int n, int64_t dim, xlac_value **out) {
  xlac_status *s = need_out(OP_CONCATENATE, out);
  if (s) return s;
  OpReq r = op_req(f, OP_CONCATENATE, out, 1);
  op_req_operands(&r, xs, n);
  int_spec(&r, "dimension", dim);
  return op_run(&r);
}

xlac_status *xlac_op_pad(xlac_func *f, xlac_value *x, xlac_value *padding_value, const int64_t *low,
                         const int64_t *high, const int64_t *interior, xlac_value **out) {
  xlac_status *s = need_out(OP_PAD, out);
  if (s) return s;
  int xr = rank_of(x);
  if (xr > 0 && (!low || !high))
    return bld_error(OP_PAD, XLAC_INVALID_ARGUMENT, "%s is NULL", low ? "high" : "low");
  if (!interior && (s = rank_fits(OP_PAD, xr))) return s;
  int64_t zeros[MAX_RANK];
  xlac_value *v[2] = {x, padding_value};
  OpReq r = op_req(f, OP_PAD, out, 1);
  op_req_operands(&r, v, 2);
  if (xr >= 0) {
    ints_or(&r, "edge_padding_low", low, xr, NULL, 0);
    ints_or(&r, "edge_padding_high", high, xr, NULL, 0);
    ints_or(&r, "interior_padding", interior, xr, zeros, 0);
  }
  return op_run(&r);
}

xlac_status *xlac_op_tuple(xlac_func *f, xlac_value *const *xs, int n, xlac_value **out) {
  return nary(f, OP_TUPLE, xs, n, out);
}

xlac_status *xlac_op_get_tuple_element(xlac_func *f, xlac_value *tuple, int index, xlac_value **out) {
  xlac_status *s = need_out(OP_GET_TUPLE_ELEMENT, out);
  if (s) return s;
  OpReq r = op_req(f, OP_GET_TUPLE_ELEMENT, out, 1);
  op_req_operands(&r, &tuple, 1);
  ASpec *a = op_req_spec(&r, "index", AS_INT);
  a->i = index;
  a->bits = 32;
  return op_run(&r);
}

/* ---- linear algebra ---- */

xlac_status *xlac_op_dot_general(xlac_func *f, xlac_value *lhs, xlac_value *rhs, const xlac_dot_dims *dims,
                                 xlac_value **out) {
  xlac_status *s = need_out(OP_DOT_GENERAL, out);
  if (s) return s;
  if (!dims) return bld_error(OP_DOT_GENERAL, XLAC_INVALID_ARGUMENT, "dims is NULL");
  if (dims->num_batch < 0 || dims->num_contracting < 0 ||
      (dims->num_batch > 0 && (!dims->lhs_batch || !dims->rhs_batch)) ||
      (dims->num_contracting > 0 && (!dims->lhs_contracting || !dims->rhs_contracting)))
    return bld_error(OP_DOT_GENERAL, XLAC_INVALID_ARGUMENT, "dims has a negative count or a NULL array");
  xlac_value *v[2] = {lhs, rhs};
  OpReq r = op_req(f, OP_DOT_GENERAL, out, 1);
  op_req_operands(&r, v, 2);
  /* StableHLO prints the empty lists not at all */
  ASpec fields[4];
  int n = 0;
  if (dims->num_batch) {
    list_field(&fields[n++], "lhs_batching_dimensions", dims->lhs_batch, dims->num_batch);
    list_field(&fields[n++], "rhs_batching_dimensions", dims->rhs_batch, dims->num_batch);
  }
  if (dims->num_contracting) {
    list_field(&fields[n++], "lhs_contracting_dimensions", dims->lhs_contracting, dims->num_contracting);
    list_field(&fields[n++], "rhs_contracting_dimensions", dims->rhs_contracting, dims->num_contracting);
  }
  dict_spec(&r, "dot_dimension_numbers", "stablehlo.dot", fields, n);
  return op_run(&r);
}

xlac_status *xlac_op_dot(xlac_func *f, xlac_value *lhs, xlac_value *rhs, xlac_value **out) {
  int lr = rank_of(lhs);
  int64_t lc = lr > 0 ? lr - 1 : 0, rc = 0;
  xlac_dot_dims d = {NULL, NULL, 0, &lc, &rc, 1};
  return xlac_op_dot_general(f, lhs, rhs, &d, out);
}

xlac_status *xlac_op_convolution(xlac_func *f, xlac_value *lhs, xlac_value *rhs, const char *dimension_numbers,
                                 const xlac_conv_options *opts, xlac_value **out) {
  xlac_status *s = need_out(OP_CONVOLUTION, out);
  if (s) return s;
  int N = rank_of(lhs), S = N - 2;
  char text[1024];
  int len;
  if (dimension_numbers) {
    len = snprintf(text, sizeof text, "{dimension_numbers = #stablehlo.conv<%s>}", dimension_numbers);
  } else {
    /* [b, f, 0, 1, ...]x[o, i, 0, 1, ...]->[b, f, 0, 1, ...] */
    char sp[512] = "";
    for (int i = 0, k = 0; i < S && k < (int)sizeof sp - 8; i++) k += snprintf(sp + k, sizeof sp - (size_t)k, ", %d", i);
    len = snprintf(text, sizeof text, "{dimension_numbers = #stablehlo.conv<[b, f%s]x[o, i%s]->[b, f%s]>}", sp, sp, sp);
  }
  if (len < 0 || len >= (int)sizeof text)
    return bld_error(OP_CONVOLUTION, XLAC_INVALID_ARGUMENT, "dimension_numbers is too long");
  xlac_value *v[2] = {lhs, rhs};
  OpReq r = op_req(f, OP_CONVOLUTION, out, 1);
  op_req_operands(&r, v, 2);
  r.attr_text = text;
  if (opts && opts->struct_size != 0 && opts->struct_size < sizeof *opts)
    return bld_error(OP_CONVOLUTION, XLAC_INVALID_ARGUMENT, "opts->struct_size %zu is not a known size", opts->struct_size);
  if (opts && S > 0) {
    if (opts->window_strides) ints_or(&r, "window_strides", opts->window_strides, S, NULL, 0);
    if (opts->padding) {
      ASpec *p = op_req_spec(&r, "padding", AS_DENSE2D);
      p->p = opts->padding;
      p->n = S;
      p->cols = 2;
    }
    if (opts->lhs_dilation) ints_or(&r, "lhs_dilation", opts->lhs_dilation, S, NULL, 0);
    if (opts->rhs_dilation) ints_or(&r, "rhs_dilation", opts->rhs_dilation, S, NULL, 0);
  }
  int_spec(&r, "feature_group_count", opts && opts->feature_group_count > 0 ? opts->feature_group_count : 1);
  int_spec(&r, "batch_group_count", opts && opts->batch_group_count > 0 ? opts->batch_group_count : 1);
  return op_run(&r);
}

/* ---- indexing ---- */

static bool list_ok(const int64_t *p, int n) { return n == 0 || (n > 0 && p); }

xlac_status *xlac_op_gather(xlac_func *f, xlac_value *operand, xlac_value *indices, const xlac_gather_dims *dims,
                            const int64_t *slice_sizes, xlac_value **out) {
  xlac_status *s = need_out(OP_GATHER, out);
  if (s) return s;
  if (!dims) return bld_error(OP_GATHER, XLAC_INVALID_ARGUMENT, "dims is NULL");
  if (!list_ok(dims->offset_dims, dims->num_offset_dims) ||
      !list_ok(dims->collapsed_slice_dims, dims->num_collapsed_slice_dims) ||
      !list_ok(dims->operand_batching_dims, dims->num_operand_batching_dims) ||
      !list_ok(dims->start_indices_batching_dims, dims->num_start_indices_batching_dims) ||
      !list_ok(dims->start_index_map, dims->num_start_index_map))
    return bld_error(OP_GATHER, XLAC_INVALID_ARGUMENT, "dims has a negative count or a NULL array");
  int xr = rank_of(operand);
  if (xr > 0 && !slice_sizes) return bld_error(OP_GATHER, XLAC_INVALID_ARGUMENT, "slice_sizes is NULL");
  xlac_value *v[2] = {operand, indices};
  OpReq r = op_req(f, OP_GATHER, out, 1);
  op_req_operands(&r, v, 2);
  ASpec fields[6];
  int n = 0;
  list_field(&fields[n++], "offset_dims", dims->offset_dims, dims->num_offset_dims);
  list_field(&fields[n++], "collapsed_slice_dims", dims->collapsed_slice_dims, dims->num_collapsed_slice_dims);
  list_field(&fields[n++], "operand_batching_dims", dims->operand_batching_dims, dims->num_operand_batching_dims);
  list_field(&fields[n++], "start_indices_batching_dims", dims->start_indices_batching_dims,
             dims->num_start_indices_batching_dims);
  list_field(&fields[n++], "start_index_map", dims->start_index_map, dims->num_start_index_map);
  int_field(&fields[n++], "index_vector_dim", dims->index_vector_dim);
  dict_spec(&r, "dimension_numbers", "stablehlo.gather", fields, n);
  if (xr >= 0) ints_or(&r, "slice_sizes", slice_sizes, xr, NULL, 0);
  op_req_spec(&r, "indices_are_sorted", AS_BOOL)->i = 0;
  return op_run(&r);
}

xlac_status *xlac_op_scatter(xlac_func *f, xlac_value *const *inputs, int n, xlac_value *indices,
                             xlac_value *const *updates, const xlac_scatter_dims *dims,
                             xlac_func *update_computation, xlac_value **outs) {
  if (!outs) return bld_error(OP_SCATTER, XLAC_INVALID_ARGUMENT, "outs is NULL");
  if (!dims) return bld_error(OP_SCATTER, XLAC_INVALID_ARGUMENT, "dims is NULL");
  if (!list_ok(dims->update_window_dims, dims->num_update_window_dims) ||
      !list_ok(dims->inserted_window_dims, dims->num_inserted_window_dims) ||
      !list_ok(dims->input_batching_dims, dims->num_input_batching_dims) ||
      !list_ok(dims->scatter_indices_batching_dims, dims->num_scatter_indices_batching_dims) ||
      !list_ok(dims->scatter_dims_to_operand_dims, dims->num_scatter_dims_to_operand_dims))
    return bld_error(OP_SCATTER, XLAC_INVALID_ARGUMENT, "dims has a negative count or a NULL array");
  if (n < 1) return bld_error(OP_SCATTER, XLAC_INVALID_ARGUMENT, "needs at least one input, got %d", n);
  OpReq r = op_req(f, OP_SCATTER, outs, n);
  op_req_operands(&r, inputs, n);
  op_req_operands(&r, &indices, 1);
  op_req_operands(&r, updates, n);
  ASpec fields[6];
  int k = 0;
  list_field(&fields[k++], "update_window_dims", dims->update_window_dims, dims->num_update_window_dims);
  list_field(&fields[k++], "inserted_window_dims", dims->inserted_window_dims, dims->num_inserted_window_dims);
  list_field(&fields[k++], "input_batching_dims", dims->input_batching_dims, dims->num_input_batching_dims);
  list_field(&fields[k++], "scatter_indices_batching_dims", dims->scatter_indices_batching_dims,
             dims->num_scatter_indices_batching_dims);
  list_field(&fields[k++], "scatter_dims_to_operand_dims", dims->scatter_dims_to_operand_dims,
             dims->num_scatter_dims_to_operand_dims);
  int_field(&fields[k++], "index_vector_dim", dims->index_vector_dim);
  dict_spec(&r, "scatter_dimension_numbers", "stablehlo.scatter", fields, k);
  r.comps = &update_computation;
  r.ncomps = 1;
  return op_run(&r);
}

/* ---- reductions and sorting ---- */

xlac_status *xlac_op_reduce(xlac_func *f, xlac_value *const *inputs, xlac_value *const *init_values, int n,
                            const int64_t *dims, int num_dims, xlac_func *body, xlac_value **outs) {
  if (!outs) return bld_error(OP_REDUCE, XLAC_INVALID_ARGUMENT, "outs is NULL");
  if (n < 1) return bld_error(OP_REDUCE, XLAC_INVALID_ARGUMENT, "needs at least one input, got %d", n);
  if (!list_ok(dims, num_dims))
    return bld_error(OP_REDUCE, XLAC_INVALID_ARGUMENT, "dims is NULL or num_dims negative");
  OpReq r = op_req(f, OP_REDUCE, outs, n);
  op_req_operands(&r, inputs, n);
  op_req_operands(&r, init_values, n);
  ints_or(&r, "dimensions", dims, num_dims, NULL, 0);
  r.comps = &body;
  r.ncomps = 1;
  return op_run(&r);
}

xlac_status *xlac_op_sort(xlac_func *f, xlac_value *const *inputs, int n, int64_t dim, int is_stable,
                          xlac_func *comparator, xlac_value **outs) {
  if (!outs) return bld_error(OP_SORT, XLAC_INVALID_ARGUMENT, "outs is NULL");
  if (n < 1) return bld_error(OP_SORT, XLAC_INVALID_ARGUMENT, "needs at least one input, got %d", n);
  OpReq r = op_req(f, OP_SORT, outs, n);
  op_req_operands(&r, inputs, n);
  int_spec(&r, "dimension", dim);
  op_req_spec(&r, "is_stable", AS_BOOL)->i = is_stable != 0;
  r.comps = &comparator;
  r.ncomps = 1;
  return op_run(&r);
}

/* ---- control flow ---- */

xlac_status *xlac_op_while(xlac_func *f, xlac_value *const *inits, int n, xlac_func *cond, xlac_func *body,
                           xlac_value **outs) {
  if (!outs && n > 0) return bld_error(OP_WHILE, XLAC_INVALID_ARGUMENT, "outs is NULL");
  xlac_func *comps[2] = {cond, body};
  OpReq r = op_req(f, OP_WHILE, outs, n);
  op_req_operands(&r, inits, n);
  r.comps = comps;
  r.ncomps = 2;
  return op_run(&r);
}

/* The result count of a branch computation, for the size of outs (0 when
   the handle is not usable: op_run then says why). */
static int results_of(const xlac_func *c) {
  return c && c->magic == BLD_MAGIC_FUNC && c->returned ? c->fn->nresults : 0;
}

static xlac_status *branches(xlac_func *f, OpKind k, xlac_value *sel, xlac_func *const *comps, int ncomps,
                             xlac_value *const *operands, int num_operands, xlac_value **outs) {
  if (ncomps < 1 || !comps) return bld_error(k, XLAC_INVALID_ARGUMENT, "needs at least one branch");
  if (num_operands < 0 || (num_operands > 0 && !operands))
    return bld_error(k, XLAC_INVALID_ARGUMENT, "operands is NULL or num_operands negative");
  int nres = results_of(comps[0]);
  if (nres > 0 && !outs) return bld_error(k, XLAC_INVALID_ARGUMENT, "outs is NULL");
  /* the operands are not the op's: they stand for the branches'
     parameters, read inside the regions */
  OpGroup bind = {operands, num_operands};
  OpReq r = op_req(f, k, outs, nres);
  op_req_operands(&r, &sel, 1);
  r.comps = comps;
  r.ncomps = ncomps;
  r.bind = &bind;
  return op_run(&r);
}

xlac_status *xlac_op_if(xlac_func *f, xlac_value *pred, xlac_func *on_true, xlac_func *on_false,
                        xlac_value *const *operands, int num_operands, xlac_value **outs) {
  xlac_func *comps[2] = {on_true, on_false};
  return branches(f, OP_IF, pred, comps, 2, operands, num_operands, outs);
}

xlac_status *xlac_op_case(xlac_func *f, xlac_value *index, xlac_func *const *branch_comps, int num_branches,
                          xlac_value *const *operands, int num_operands, xlac_value **outs) {
  return branches(f, OP_CASE, index, branch_comps, num_branches, operands, num_operands, outs);
}

xlac_status *xlac_op_call(xlac_func *f, xlac_func *callee, xlac_value *const *operands, int num_operands,
                          xlac_value **outs) {
  OpKind k = OP_CALL;
  if (!callee || callee->magic != BLD_MAGIC_FUNC)
    return bld_error(k, XLAC_INVALID_ARGUMENT, callee ? "the callee is not a builder function" : "the callee is NULL");
  if (f && f->magic == BLD_MAGIC_FUNC && callee->b != f->b)
    return bld_error(k, XLAC_INVALID_ARGUMENT, "the callee belongs to another builder");
  if (callee->computation)
    return bld_error(k, XLAC_INVALID_ARGUMENT, "'%s' is a computation, which can only be an op's body; call functions",
                     callee->fn->name);
  if (!callee->returned)
    return bld_error(k, XLAC_FAILED_PRECONDITION, "the callee '%s' has not returned yet", callee->fn->name);
  int nres = callee->fn->nresults;
  if (nres > 0 && !outs) return bld_error(k, XLAC_INVALID_ARGUMENT, "outs is NULL");
  OpReq r = op_req(f, k, outs, nres);
  op_req_operands(&r, operands, num_operands);
  op_req_spec(&r, "callee", AS_SYMBOL)->s = callee->fn->name;
  return op_run(&r);
}

/* ---- custom calls ---- */

xlac_status *xlac_op_custom_call(xlac_func *f, const char *target, xlac_value *const *operands, int num_operands,
                                 const xlac_shape *results, int num_results, const char *backend_config,
                                 const char *attributes, xlac_value **outs) {
  OpKind k = OP_CUSTOM_CALL;
  if (!target || !*target) return bld_error(k, XLAC_INVALID_ARGUMENT, "the target name is %s", target ? "empty" : "NULL");
  if (num_results > 0 && !outs) return bld_error(k, XLAC_INVALID_ARGUMENT, "outs is NULL");
  OpReq r = op_req(f, k, outs, num_results > 0 ? num_results : 0);
  op_req_operands(&r, operands, num_operands);
  ASpec *t = op_req_spec(&r, "call_target_name", AS_STRING);
  t->s = target;
  t->slen = strlen(target);
  if (backend_config) {
    ASpec *b = op_req_spec(&r, "backend_config", AS_STRING);
    b->s = backend_config;
    b->slen = strlen(backend_config);
  }
  r.attr_text = attributes;
  r.res_mode = RES_SHAPES;
  r.res_shapes = results;
  r.nres_shapes = num_results;
  return op_run(&r);
}

/* ---- collectives ---- */

xlac_status *xlac_op_all_reduce(xlac_func *f, xlac_value *const *operands, int n, xlac_func *computation,
                                const int64_t *replica_groups, int num_groups, int group_size, int64_t channel_id,
                                xlac_value **outs) {
  if (!outs) return bld_error(OP_ALL_REDUCE, XLAC_INVALID_ARGUMENT, "outs is NULL");
  if (n < 1) return bld_error(OP_ALL_REDUCE, XLAC_INVALID_ARGUMENT, "needs at least one operand, got %d", n);
  OpReq r = op_req(f, OP_ALL_REDUCE, outs, n);
  op_req_operands(&r, operands, n);
  xlac_status *s = groups_spec(&r, replica_groups, num_groups, group_size, channel_id);
  if (s) return s;
  r.comps = &computation;
  r.ncomps = 1;
  return op_run(&r);
}

xlac_status *xlac_op_all_gather(xlac_func *f, xlac_value *operand, int64_t dim, const int64_t *replica_groups,
                                int num_groups, int group_size, int64_t channel_id, xlac_value **out) {
  xlac_status *s = need_out(OP_ALL_GATHER, out);
  if (s) return s;
  OpReq r = op_req(f, OP_ALL_GATHER, out, 1);
  op_req_operands(&r, &operand, 1);
  int_spec(&r, "all_gather_dim", dim);
  if ((s = groups_spec(&r, replica_groups, num_groups, group_size, channel_id))) return s;
  return op_run(&r);
}

xlac_status *xlac_op_replica_id(xlac_func *f, xlac_value **out) { return nary(f, OP_REPLICA_ID, NULL, 0, out); }

xlac_status *xlac_op_partition_id(xlac_func *f, xlac_value **out) { return nary(f, OP_PARTITION_ID, NULL, 0, out); }
