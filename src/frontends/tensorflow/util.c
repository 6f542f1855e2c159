/*
 * util.c - what op lowerings share: attributes, dtypes, constants,
 * broadcasting, reductions and windows.
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <stdio.h>

#include "frontends/stablehlo/stablehlo.h"
#include "frontends/tensorflow/tf_int.h"
#include "ir/verify.h"

Module *tf_module(TfCtx *c) { return c->b.m; }

void tf_out(TfCtx *c, Value *v) {
  if (c->nout == c->capout) {
    c->capout = c->capout ? 2 * c->capout : 4;
    c->out = xrealloc(c->out, sizeof(Value *) * (size_t)c->capout);
  }
  c->out[c->nout++] = v;
}

/* ---- attributes ---- */
const TfAttr *tf_attr(const TfCtx *c, const char *name) { return tf_node_attr(c->node, name); }

static const char *const dtype_names[] = {
    [0] = "DT_INVALID", [1] = "DT_FLOAT", [2] = "DT_DOUBLE", [3] = "DT_INT32", [4] = "DT_UINT8",
    [5] = "DT_INT16", [6] = "DT_INT8", [7] = "DT_STRING", [8] = "DT_COMPLEX64", [9] = "DT_INT64",
    [10] = "DT_BOOL", [11] = "DT_QINT8", [12] = "DT_QUINT8", [13] = "DT_QINT32", [14] = "DT_BFLOAT16",
    [15] = "DT_QINT16", [16] = "DT_QUINT16", [17] = "DT_UINT16", [18] = "DT_COMPLEX128",
    [19] = "DT_HALF", [20] = "DT_RESOURCE", [21] = "DT_VARIANT", [22] = "DT_UINT32", [23] = "DT_UINT64",
    [24] = "DT_FLOAT8_E5M2", [25] = "DT_FLOAT8_E4M3FN",
};

const char *tf_dtype_name(int dtype) {
  if (dtype > 100) dtype -= 100; /* reference types */
  if (dtype >= 0 && dtype < (int)(sizeof dtype_names / sizeof *dtype_names) && dtype_names[dtype])
    return dtype_names[dtype];
  return "an unknown dtype";
}

ElemType tf_elem_of_dtype(int dtype) {
  if (dtype > 100) dtype -= 100;
  switch (dtype) {
  case 1: return ET_F32;
  case 2: return ET_F64;
  case 3: return ET_S32;
  case 4: return ET_U8;
  case 5: return ET_S16;
  case 6: return ET_S8;
  case 8: return ET_C64;
  case 9: return ET_S64;
  case 10: return ET_PRED;
  case 14: return ET_BF16;
  case 17: return ET_U16;
  case 18: return ET_C128;
  case 19: return ET_F16;
  case 22: return ET_U32;
  case 23: return ET_U64;
  case 24: return ET_F8E5M2;
  case 25: return ET_F8E4M3FN;
  default: return ET_INVALID;
  }
}

bool tf_attr_type(TfCtx *c, const char *name, ElemType *out) {
  const TfAttr *a = tf_attr(c, name);
  if (!a || a->value_case != TENSORFLOW__ATTR_VALUE__VALUE_TYPE)
    return tf_error(c, "the type attribute '%s' is missing", name);
  ElemType et = tf_elem_of_dtype(a->type);
  if (et == ET_INVALID)
    return tf_error(c, "attribute '%s' is %s, a type xlac does not compile", name, tf_dtype_name(a->type));
  *out = et;
  return true;
}

int64_t tf_attr_int(const TfCtx *c, const char *name, int64_t def) {
  const TfAttr *a = tf_attr(c, name);
  return a && a->value_case == TENSORFLOW__ATTR_VALUE__VALUE_I ? a->i : def;
}

double tf_attr_float(const TfCtx *c, const char *name, double def) {
  const TfAttr *a = tf_attr(c, name);
  return a && a->value_case == TENSORFLOW__ATTR_VALUE__VALUE_F ? a->f : def;
}

bool tf_attr_bool(const TfCtx *c, const char *name, bool def) {
  const TfAttr *a = tf_attr(c, name);
  return a && a->value_case == TENSORFLOW__ATTR_VALUE__VALUE_B ? a->b != 0 : def;
}

const char *tf_attr_str(TfCtx *c, const char *name, const char *def) {
  const TfAttr *a = tf_attr(c, name);
  if (!a || a->value_case != TENSORFLOW__ATTR_VALUE__VALUE_S) return def;
  return arena_strndup(&c->b.m->arena, (const char *)a->s.data, a->s.len);
}

int tf_attr_ints(TfCtx *c, const char *name, int64_t **out) {
  const TfAttr *a = tf_attr(c, name);
  if (!a || a->value_case != TENSORFLOW__ATTR_VALUE__VALUE_LIST || !a->list) return -1;
  int n = (int)a->list->n_i;
  *out = ARENA_ARRAY(&c->b.m->arena, int64_t, n + 1);
  for (int i = 0; i < n; i++) (*out)[i] = a->list->i[i];
  return n;
}

/* ---- constants ---- */
Literal *tf_const(const TfCtx *c, int i) {
  if (i < 0 || i >= c->nin) return NULL;
  const Value *v = c->in[i];
  if (!v || !v->def || v->def->kind != OP_CONSTANT) return NULL;
  Attr *a = op_attr(v->def, "value");
  return a && a->kind == ATTR_DENSE ? a->lit : NULL;
}

bool tf_const_ints(TfCtx *c, int i, const char *what, int64_t **vals, int *n) {
  if (i >= c->nin) return tf_error(c, "%s (input %d) is missing", what, i);
  Literal *l = tf_const(c, i);
  if (!l) {
    const char *src = c->node->def && (size_t)i < c->node->def->n_input ? c->node->def->input[i] : "?";
    return tf_error(c,
                    "%s (input %d, from '%s') must be a compile-time constant, as tfcompile requires; "
                    "it depends on values only known when the program runs",
                    what, i, src);
  }
  if (!et_is_int(lit_elem(l)))
    return tf_error(c, "%s (input %d) must hold integers", what, i);
  if (l->type->rank > 1) return tf_error(c, "%s (input %d) must be a scalar or a vector", what, i);
  *n = (int)l->n;
  *vals = ARENA_ARRAY(&c->b.m->arena, int64_t, l->n + 1);
  for (int64_t k = 0; k < l->n; k++) (*vals)[k] = lit_get_i(l, k);
  return true;
}

/* One element of a typed value list (TensorProto's *_val fields). */
static void set_from_vals(Literal *l, int64_t k, const Tensorflow__TensorProto *t, size_t j) {
  ElemType et = lit_elem(l);
  switch (t->dtype) {
  case TENSORFLOW__DATA_TYPE__DT_FLOAT: lit_set_f(l, k, t->float_val[j]); break;
  case TENSORFLOW__DATA_TYPE__DT_DOUBLE: lit_set_f(l, k, t->double_val[j]); break;
  case TENSORFLOW__DATA_TYPE__DT_INT64: lit_set_i(l, k, t->int64_val[j]); break;
  case TENSORFLOW__DATA_TYPE__DT_UINT64: lit_set_u(l, k, t->uint64_val[j]); break;
  case TENSORFLOW__DATA_TYPE__DT_UINT32: lit_set_u(l, k, t->uint32_val[j]); break;
  case TENSORFLOW__DATA_TYPE__DT_BOOL: lit_set_b(l, k, t->bool_val[j] != 0); break;
  case TENSORFLOW__DATA_TYPE__DT_HALF:
  case TENSORFLOW__DATA_TYPE__DT_BFLOAT16: lit_set_bits(l, k, (uint16_t)t->half_val[j]); break;
  case TENSORFLOW__DATA_TYPE__DT_COMPLEX64: lit_set_c(l, k, t->scomplex_val[2 * j], t->scomplex_val[2 * j + 1]); break;
  case TENSORFLOW__DATA_TYPE__DT_COMPLEX128: lit_set_c(l, k, t->dcomplex_val[2 * j], t->dcomplex_val[2 * j + 1]); break;
  default: /* int32, int16, int8, uint8, uint16 */ lit_set_i(l, k, t->int_val[j]); break;
  }
  (void)et;
}

size_t tf_tensor_nvals(const Tensorflow__TensorProto *t) {
  switch (t->dtype) {
  case TENSORFLOW__DATA_TYPE__DT_FLOAT: return t->n_float_val;
  case TENSORFLOW__DATA_TYPE__DT_DOUBLE: return t->n_double_val;
  case TENSORFLOW__DATA_TYPE__DT_INT64: return t->n_int64_val;
  case TENSORFLOW__DATA_TYPE__DT_UINT64: return t->n_uint64_val;
  case TENSORFLOW__DATA_TYPE__DT_UINT32: return t->n_uint32_val;
  case TENSORFLOW__DATA_TYPE__DT_BOOL: return t->n_bool_val;
  case TENSORFLOW__DATA_TYPE__DT_HALF:
  case TENSORFLOW__DATA_TYPE__DT_BFLOAT16: return t->n_half_val;
  case TENSORFLOW__DATA_TYPE__DT_COMPLEX64: return t->n_scomplex_val / 2;
  case TENSORFLOW__DATA_TYPE__DT_COMPLEX128: return t->n_dcomplex_val / 2;
  default: return t->n_int_val;
  }
}

Literal *tf_tensor_literal(Module *m, const Tensorflow__TensorProto *t, char **err) {
  ElemType et = tf_elem_of_dtype(t->dtype);
  if (et == ET_INVALID) {
    *err = xasprintf("the tensor's dtype %s is not one xlac compiles", tf_dtype_name(t->dtype));
    return NULL;
  }
  int64_t dims[64];
  int rank = 0;
  const Tensorflow__TensorShapeProto *s = t->tensor_shape;
  if (s) {
    if (s->unknown_rank || s->n_dim > 64) {
      *err = xasprintf("the tensor's shape is %s", s->unknown_rank ? "of unknown rank" : "of rank above 64");
      return NULL;
    }
    for (size_t i = 0; i < s->n_dim; i++) {
      if (s->dim[i]->size < 0) {
        *err = xasprintf("the tensor's dimension %zu has unknown size", i);
        return NULL;
      }
      dims[rank++] = s->dim[i]->size;
    }
  }
  Type *ty = type_tensor(&m->arena, et, rank, dims);
  int64_t elems, bytes;
  if (!type_sizes(ty, &elems, &bytes) || bytes > ((int64_t)1 << 34)) {
    *err = xasprintf("the tensor is too large (more than 16 GiB)");
    return NULL;
  }
  size_t eb = (size_t)et_bytes(et);
  Literal *l = lit_new_in(&m->arena, ty);
  if (t->tensor_content.len) {
    /* raw little-endian bytes; bool is one byte */
    if (t->tensor_content.len != (size_t)elems * eb) {
      *err = xasprintf("the tensor's content has %zu bytes where its shape needs %lld", t->tensor_content.len,
                       (long long)(elems * (int64_t)eb));
      return NULL;
    }
    memcpy(l->data, t->tensor_content.data, t->tensor_content.len);
    if (et == ET_PRED)
      for (int64_t k = 0; k < elems; k++) ((uint8_t *)l->data)[k] = ((uint8_t *)l->data)[k] != 0;
    return l;
  }
  size_t nv = tf_tensor_nvals(t);
  if (nv > (size_t)elems) {
    *err = xasprintf("the tensor has %zu values where its shape holds %lld", nv, (long long)elems);
    return NULL;
  }
  if (nv == 0) return l; /* all zeros */
  /* fewer values than elements: the last one repeats */
  for (int64_t k = 0; k < elems; k++) set_from_vals(l, k, t, (size_t)k < nv ? (size_t)k : nv - 1);
  return l;
}

Value *tf_constant(TfCtx *c, Literal *lit) { return bld_constant(&c->b, lit); }

Value *tf_scalar(TfCtx *c, ElemType et, double v) {
  Literal *l = lit_new_in(&c->b.m->arena, type_scalar(&c->b.m->arena, et));
  lit_set_f(l, 0, v);
  return bld_constant(&c->b, l);
}

Value *tf_iscalar(TfCtx *c, ElemType et, int64_t v) {
  Literal *l = lit_new_in(&c->b.m->arena, type_scalar(&c->b.m->arena, et));
  lit_set_i(l, 0, v);
  return bld_constant(&c->b, l);
}

Value *tf_const_vec(TfCtx *c, ElemType et, int n, const int64_t *v) {
  int64_t d = n;
  Literal *l = lit_new_in(&c->b.m->arena, type_tensor(&c->b.m->arena, et, 1, &d));
  for (int i = 0; i < n; i++) lit_set_i(l, i, v[i]);
  return bld_constant(&c->b, l);
}

/* ---- shapes ---- */
const char *tf_type_str(TfCtx *c, const Type *t) {
  char *h = type_str(t);
  const char *a = arena_strdup(&c->b.m->arena, h);
  xfree(h);
  return a;
}

Type *tf_type(TfCtx *c, ElemType et, int rank, const int64_t *dims) {
  return type_tensor(&c->b.m->arena, et, rank, dims);
}

bool tf_axis(TfCtx *c, int64_t axis, int rank, int64_t *out) {
  int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= (rank ? rank : 1))
    return tf_error(c, "axis %lld is out of range for a tensor of rank %d", (long long)axis, rank);
  *out = a;
  return true;
}

Value *tf_broadcast_to(TfCtx *c, Value *x, int rank, const int64_t *dims) {
  const Type *t = x->type;
  if (t->rank == rank) {
    bool same = true;
    for (int i = 0; i < rank; i++) same = same && t->dims[i] == dims[i];
    if (same) return x;
  }
  if (t->rank > rank) {
    tf_error(c, "cannot broadcast a tensor of rank %d to rank %d", t->rank, rank);
    return NULL;
  }
  /* drop the size-1 dims that stretch (reshape), then broadcast_in_dim */
  int off = rank - t->rank;
  int64_t keep[64], kdims[64], bd[64];
  int nk = 0;
  for (int i = 0; i < t->rank; i++) {
    int64_t want = dims[off + i];
    if (t->dims[i] == want) {
      keep[nk] = i;
      kdims[nk] = want;
      bd[nk++] = off + i;
    } else if (t->dims[i] != 1) {
      tf_error(c, "cannot broadcast dimension %d of size %lld to size %lld", i, (long long)t->dims[i],
               (long long)want);
      return NULL;
    }
  }
  (void)keep;
  Value *r = nk == t->rank ? x : bld_reshape(&c->b, x, nk, kdims);
  Type *rt = tf_type(c, t->elem, rank, dims);
  return bld_broadcast(&c->b, r, rt, nk, bd);
}

bool tf_broadcast2(TfCtx *c, Value **x, Value **y) {
  const Type *a = (*x)->type, *b = (*y)->type;
  int rank = a->rank > b->rank ? a->rank : b->rank;
  int64_t dims[64];
  if (rank > 64) return tf_error(c, "rank %d is above 64", rank);
  for (int i = 0; i < rank; i++) {
    int ia = i - (rank - a->rank), ib = i - (rank - b->rank);
    int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
    if (da != db && da != 1 && db != 1)
      return tf_error(c, "the inputs' shapes do not broadcast: dimension %d is %lld in one and %lld in the other",
                      i, (long long)da, (long long)db);
    dims[i] = da == 1 ? db : da;
  }
  Value *nx = tf_broadcast_to(c, *x, rank, dims);
  Value *ny = nx ? tf_broadcast_to(c, *y, rank, dims) : NULL;
  if (!nx || !ny) return false;
  *x = nx;
  *y = ny;
  return true;
}

Value *tf_binary(TfCtx *c, OpKind k, Value *x, Value *y) {
  if (x->type->elem != y->type->elem) {
    tf_error(c, "the inputs have different element types");
    return NULL;
  }
  if (!tf_broadcast2(c, &x, &y)) return NULL;
  if (k == OP_COMPARE) {
    tf_error(c, "internal error: comparisons are built with tf_broadcast2 and bld_compare");
    return NULL;
  }
  return bld_bin(&c->b, k, x, y);
}

Value *tf_convert(TfCtx *c, Value *x, ElemType et) { return bld_convert(&c->b, x, et); }

/* A scalar body `return k(p, q)` for reduce / reduce_window. */
static Block *scalar_body(TfCtx *c, ElemType et, OpKind k) {
  Module *m = c->b.m;
  Block *body = block_new(m);
  Value *p = block_add_arg(m, body, type_scalar(&m->arena, et), NULL);
  Value *q = block_add_arg(m, body, type_scalar(&m->arena, et), NULL);
  Builder bb = {m, body, NULL, c->b.loc};
  Value *s = bld_bin(&bb, k, p, q);
  block_append(body, op_new(m, OP_RETURN, 1, &s, 0, NULL, c->b.loc));
  return body;
}

Value *tf_reduce(TfCtx *c, Value *x, int n, const int64_t *dims, OpKind k, Value *init) {
  Module *m = c->b.m;
  const Type *t = x->type;
  int64_t rdims[64];
  int nr = 0;
  for (int i = 0; i < t->rank; i++)
    if (!ints_contain(dims, n, i)) rdims[nr++] = t->dims[i];
  Value *in[2] = {x, init};
  Type *rt = tf_type(c, t->elem, nr, rdims);
  Op *r = op_new(m, OP_REDUCE, 2, in, 1, &rt, c->b.loc);
  block_insert_before(c->b.blk, c->b.at, r);
  op_set_attr(m, r, "dimensions", attr_ints(m, n, dims));
  op_add_region(m, r, scalar_body(c, t->elem, k));
  return &r->res[0];
}

Value *tf_reduce_window(TfCtx *c, Value *x, Value *init, OpKind k, const int64_t *window,
                        const int64_t *strides, const int64_t *padding) {
  Module *m = c->b.m;
  const Type *t = x->type;
  int rank = t->rank;
  int64_t od[64];
  for (int i = 0; i < rank; i++) {
    int64_t size;
    if (window_dim_size(t->dims[i], padding[2 * i], padding[2 * i + 1], 1, window[i], 1, strides[i], &size) != 0) {
      tf_error(c, "the window does not fit dimension %d", i);
      return NULL;
    }
    od[i] = size;
  }
  Value *in[2] = {x, init};
  Type *rt = tf_type(c, t->elem, rank, od);
  Op *r = op_new(m, OP_REDUCE_WINDOW, 2, in, 1, &rt, c->b.loc);
  block_insert_before(c->b.blk, c->b.at, r);
  op_set_attr(m, r, "window_dimensions", attr_ints(m, rank, window));
  op_set_attr(m, r, "window_strides", attr_ints(m, rank, strides));
  int64_t two[2] = {rank, 2};
  Literal *pl = lit_new_in(&m->arena, type_tensor(&m->arena, ET_S64, 2, two));
  for (int i = 0; i < 2 * rank; i++) lit_set_i(pl, i, padding[i]);
  op_set_attr(m, r, "padding", attr_dense(m, pl));
  op_add_region(m, r, scalar_body(c, t->elem, k));
  return &r->res[0];
}

bool tf_padding(TfCtx *c, const char *padding, int64_t in, int64_t window, int64_t stride,
                int64_t dilation, int64_t *out, int64_t *lo, int64_t *hi) {
  if (stride < 1 || dilation < 1 || window < 1) return tf_error(c, "strides, dilations and sizes must be positive");
  int64_t eff = (window - 1) * dilation + 1;
  if (!strcmp(padding, "VALID")) {
    *out = in >= eff ? (in - eff) / stride + 1 : 0;
    *lo = *hi = 0;
    return true;
  }
  if (!strcmp(padding, "SAME")) {
    *out = (in + stride - 1) / stride;
    int64_t need = (*out - 1) * stride + eff - in;
    if (need < 0) need = 0;
    *lo = need / 2;
    *hi = need - need / 2;
    return true;
  }
  return tf_error(c, "padding '%s' is not supported (SAME and VALID are)", padding);
}

/* ---- any op ---- */
static char *vformat(const char *fmt, va_list ap) {
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  char *s = xmalloc((size_t)(n > 0 ? n : 0) + 1);
  vsnprintf(s, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
  return s;
}

/* Ops whose regions the caller adds after tf_op returns: verified with
   the module. */
static bool takes_regions(OpKind k) {
  switch (k) {
  case OP_REDUCE: case OP_REDUCE_WINDOW: case OP_SCATTER: case OP_SELECT_AND_SCATTER: case OP_SORT:
  case OP_MAP: case OP_WHILE: case OP_IF: case OP_CASE: case OP_ALL_REDUCE: case OP_REDUCE_SCATTER:
    return true;
  default:
    return false;
  }
}

static Op *make_op(TfCtx *c, OpKind k, int n, Value *const *opnds, int nres, Type *const *types,
                   const bool *pending, const char *fmt, va_list ap) {
  Module *m = c->b.m;
  Op *op = op_new(m, k, n, opnds, nres, types, c->b.loc);
  if (fmt && *fmt) {
    char *text = vformat(fmt, ap);
    Attr *d = stablehlo_parse_attr_dict(m, -1, text, strlen(text));
    xfree(text);
    if (!d) {
      tf_error(c, "internal error: bad attributes for %s", op_info[k].name);
      return NULL;
    }
    for (int i = 0; i < d->n; i++) op_set_attr(m, op, d->keys[i], d->elems[i]);
  }
  block_insert_before(c->b.blk, c->b.at, op);
  bool any = false;
  for (int i = 0; pending && i < nres; i++) any = any || pending[i];
  /* the verifier checks what was built (and infers the pending shapes),
     so a lowering mistake is reported at the node */
  bool ok = any ? verify_op_infer(m, op, (bool *)pending) : takes_regions(k) || verify_op_alone(m, op);
  for (int i = 0; ok && pending && i < nres; i++) ok = !pending[i];
  if (!ok) {
    op_erase(op);
    tf_error(c, "the %s it lowers to does not fit its operands", op_info[k].name);
    return NULL;
  }
  return op;
}

Value *tf_op(TfCtx *c, OpKind k, int n, Value *const *opnds, Type *t, const char *attrs, ...) {
  va_list ap;
  va_start(ap, attrs);
  Op *op = make_op(c, k, n, opnds, 1, &t, NULL, attrs, ap);
  va_end(ap);
  return op ? &op->res[0] : NULL;
}

Value *tf_op_infer(TfCtx *c, OpKind k, int n, Value *const *opnds, ElemType et, int rank, const char *attrs,
                   ...) {
  int64_t zeros[64] = {0};
  Type *t = tf_type(c, et, rank, zeros);
  bool pending = true;
  va_list ap;
  va_start(ap, attrs);
  Op *op = make_op(c, k, n, opnds, 1, &t, &pending, attrs, ap);
  va_end(ap);
  return op ? &op->res[0] : NULL;
}

Op *tf_op_multi(TfCtx *c, OpKind k, int n, Value *const *opnds, int nres, Type *const *types, const char *attrs,
                ...) {
  va_list ap;
  va_start(ap, attrs);
  Op *op = make_op(c, k, n, opnds, nres, types, NULL, attrs, ap);
  va_end(ap);
  return op;
}
