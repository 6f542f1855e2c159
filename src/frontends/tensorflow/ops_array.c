/*
 * ops_array.c - TensorFlow ops: shapes, slicing, joining, gathering, padding.
 *
 * Every shape-deciding input (a shape, axes, begin/end/strides, paddings,
 * multiples) is a compile-time constant, so these ops become static
 * StableHLO: slices, reverses, concatenates, pads, reshapes, broadcasts,
 * gathers and scatters.  Shape, Size and Rank are constants of the static
 * shapes.
 *
 * Where TensorFlow checks indices at run time (Gather, GatherNd and
 * ScatterNd fail on the CPU for an index out of range), the lowering
 * behaves like XLA: a gather clamps its start indices into the operand, a
 * scatter drops the updates that fall outside.
 */
#include <math.h>
#include <string.h>

#include "frontends/stablehlo/stablehlo.h"
#include "frontends/tensorflow/tf_int.h"
#include "ir/verify.h"

#define MAXR 64 /* the highest rank handled, as in util.c */

/* ---- small builders ---- */

static Type *i64_type(TfCtx *c) { return type_scalar(&c->b.m->arena, ET_S64); }

static bool check_rank(TfCtx *c, int rank) {
  if (rank > MAXR) return tf_error(c, "rank %d is above %d", rank, MAXR);
  return true;
}

/* x[start:limit:stride] per dimension; x itself when that is all of it. */
static Value *slice(TfCtx *c, Value *x, const int64_t *start, const int64_t *limit, const int64_t *stride) {
  const Type *t = x->type;
  int64_t dims[MAXR];
  bool all = true;
  for (int i = 0; i < t->rank; i++) {
    int64_t s = stride ? stride[i] : 1;
    dims[i] = limit[i] > start[i] ? (limit[i] - start[i] + s - 1) / s : 0;
    all = all && dims[i] == t->dims[i];
  }
  if (all) return x;
  Value *r = bld_op(&c->b, OP_SLICE, 1, &x, tf_type(c, t->elem, t->rank, dims));
  int64_t ones[MAXR];
  for (int i = 0; i < t->rank; i++) ones[i] = 1;
  op_set_attr(c->b.m, r->def, "start_indices", attr_ints(c->b.m, t->rank, start));
  op_set_attr(c->b.m, r->def, "limit_indices", attr_ints(c->b.m, t->rank, limit));
  op_set_attr(c->b.m, r->def, "strides", attr_ints(c->b.m, t->rank, stride ? stride : ones));
  return r;
}

/* x[lo:hi] along dimension d. */
static Value *slice_dim(TfCtx *c, Value *x, int d, int64_t lo, int64_t hi) {
  int64_t start[MAXR] = {0}, limit[MAXR];
  memcpy(limit, x->type->dims, sizeof(int64_t) * (size_t)x->type->rank);
  start[d] = lo;
  limit[d] = hi;
  return slice(c, x, start, limit, NULL);
}

/* x reversed along dims (those of size 0 or 1 need nothing). */
static Value *reverse(TfCtx *c, Value *x, int n, const int64_t *dims) {
  int64_t keep[MAXR];
  int nk = 0;
  for (int i = 0; i < n; i++)
    if (x->type->dims[dims[i]] > 1) keep[nk++] = dims[i];
  if (!nk) return x;
  Value *r = bld_op(&c->b, OP_REVERSE, 1, &x, x->type);
  op_set_attr(c->b.m, r->def, "dimensions", attr_ints(c->b.m, nk, keep));
  return r;
}

/* v[0..n) joined along dimension d (all of one rank and element type). */
static Value *concat(TfCtx *c, int n, Value **v, int d) {
  if (n == 1) return v[0];
  const Type *t = v[0]->type;
  int64_t dims[MAXR];
  memcpy(dims, t->dims, sizeof(int64_t) * (size_t)t->rank);
  dims[d] = 0;
  for (int i = 0; i < n; i++) dims[d] += v[i]->type->dims[d];
  Value *r = bld_op(&c->b, OP_CONCATENATE, n, v, tf_type(c, t->elem, t->rank, dims));
  op_set_attr(c->b.m, r->def, "dimension", attr_int(c->b.m, d, i64_type(c)));
  return r;
}

/* x padded with the scalar pv: lo/hi elements before/after each dimension. */
static Value *pad(TfCtx *c, Value *x, Value *pv, const int64_t *lo, const int64_t *hi) {
  const Type *t = x->type;
  int64_t dims[MAXR], zeros[MAXR] = {0};
  bool none = true;
  for (int i = 0; i < t->rank; i++) {
    dims[i] = t->dims[i] + lo[i] + hi[i];
    none = none && !lo[i] && !hi[i];
  }
  if (none) return x;
  Value *in[2] = {x, pv};
  Value *r = bld_op(&c->b, OP_PAD, 2, in, tf_type(c, t->elem, t->rank, dims));
  op_set_attr(c->b.m, r->def, "edge_padding_low", attr_ints(c->b.m, t->rank, lo));
  op_set_attr(c->b.m, r->def, "edge_padding_high", attr_ints(c->b.m, t->rank, hi));
  op_set_attr(c->b.m, r->def, "interior_padding", attr_ints(c->b.m, t->rank, zeros));
  return r;
}

/* 0, 1, 2, ... along dimension d of a tensor<dims x et>. */
static Value *iota(TfCtx *c, ElemType et, int rank, const int64_t *dims, int d) {
  Value *r = bld_op(&c->b, OP_IOTA, 0, NULL, tf_type(c, et, rank, dims));
  op_set_attr(c->b.m, r->def, "iota_dimension", attr_int(c->b.m, d, i64_type(c)));
  return r;
}

/* A constant vector of n integers of element type et, from the static shape. */
static Value *int_vector(TfCtx *c, ElemType et, int n, const int64_t *v) {
  if (et == ET_S32)
    for (int i = 0; i < n; i++)
      if (v[i] > INT32_MAX) {
        tf_error(c, "the value %lld does not fit out_type int32", (long long)v[i]);
        return NULL;
      }
  return tf_const_vec(c, et, n, v);
}

/* Input i as integers, of any rank (tf_const_ints takes scalars and
   vectors; paddings are n x 2). */
static bool const_ints_any(TfCtx *c, int i, const char *what, int64_t **vals, int64_t *n, const Type **type) {
  Literal *l = tf_const(c, i);
  if (!l) {
    int dummy;
    tf_const_ints(c, i, what, vals, &dummy); /* the error naming the input */
    return false;
  }
  if (!et_is_int(lit_elem(l))) return tf_error(c, "%s (input %d) must hold integers", what, i);
  *n = l->n;
  *type = l->type;
  *vals = ARENA_ARRAY(&c->b.m->arena, int64_t, l->n + 1);
  for (int64_t k = 0; k < l->n; k++) (*vals)[k] = lit_get_i(l, k);
  return true;
}

/* One integer of a scalar (or one-element) constant input. */
static bool const_int(TfCtx *c, int i, const char *what, int64_t *out) {
  int64_t *v;
  int n;
  if (!tf_const_ints(c, i, what, &v, &n)) return false;
  if (n != 1) return tf_error(c, "%s (input %d) must be one integer, not %d", what, i, n);
  *out = v[0];
  return true;
}

/* At least n inputs, none of a rank above MAXR (every lowering starts here). */
static bool need_inputs(TfCtx *c, int n) {
  if (c->nin < n) return tf_error(c, "expects %d inputs, has %d", n, c->nin);
  for (int i = 0; i < c->nin; i++)
    if (!check_rank(c, c->in[i]->type->rank)) return false;
  return true;
}

/* out_type attribute of Shape, Size, ...: int32 (default) or int64. */
static bool out_int_type(TfCtx *c, ElemType *et) {
  *et = ET_S32;
  if (!tf_attr(c, "out_type")) return true;
  if (!tf_attr_type(c, "out_type", et)) return false;
  if (*et != ET_S32 && *et != ET_S64) return tf_error(c, "out_type must be int32 or int64");
  return true;
}

/* A scatter's scalar body: `return k(p, q)`, or `return q` (take_update). */
static Block *scatter_body(TfCtx *c, ElemType et, OpKind k, bool take_update) {
  Module *m = c->b.m;
  Block *body = block_new(m);
  Value *p = block_add_arg(m, body, type_scalar(&m->arena, et), NULL);
  Value *q = block_add_arg(m, body, type_scalar(&m->arena, et), NULL);
  Builder bb = {m, body, NULL, c->b.loc};
  Value *s = take_update ? q : bld_bin(&bb, k, p, q);
  block_append(body, op_new(m, OP_RETURN, 1, &s, 0, NULL, c->b.loc));
  return body;
}

/* "[a, b, c]" into sb. */
static void put_list(StrBuf *sb, int n, const int64_t *v) {
  sb_putc(sb, '[');
  for (int i = 0; i < n; i++) sb_printf(sb, "%s%lld", i ? ", " : "", (long long)v[i]);
  sb_putc(sb, ']');
}

/* ---- pass-through ---- */

static bool lower_identity(TfCtx *c) {
  if (!need_inputs(c, 1)) return false;
  tf_out(c, c->in[0]);
  return true;
}

static bool lower_identity_n(TfCtx *c) {
  if (!need_inputs(c, 0)) return false;
  for (int i = 0; i < c->nin; i++) tf_out(c, c->in[i]);
  return true;
}

static bool lower_noop(TfCtx *c) {
  (void)c;
  return true;
}

/* EnsureShape: the static shape must match the attribute (-1: any size). */
static bool lower_ensure_shape(TfCtx *c) {
  if (!need_inputs(c, 1)) return false;
  const TfAttr *a = tf_attr(c, "shape");
  const Type *t = c->in[0]->type;
  if (a && a->value_case == TENSORFLOW__ATTR_VALUE__VALUE_SHAPE && a->shape && !a->shape->unknown_rank) {
    const Tensorflow__TensorShapeProto *s = a->shape;
    bool ok = (int)s->n_dim == t->rank;
    for (int i = 0; ok && i < t->rank; i++) ok = s->dim[i]->size < 0 || s->dim[i]->size == t->dims[i];
    if (!ok) {
      StrBuf want = {0}, have = {0};
      for (size_t i = 0; i < s->n_dim; i++)
        sb_printf(&want, "%s%lld", i ? "," : "", (long long)s->dim[i]->size);
      for (int i = 0; i < t->rank; i++) sb_printf(&have, "%s%lld", i ? "," : "", (long long)t->dims[i]);
      char *w = sb_take(&want), *h = sb_take(&have);
      tf_error(c, "the shape [%s] does not match the expected shape [%s]", h, w);
      xfree(w);
      xfree(h);
      return false;
    }
  }
  tf_out(c, c->in[0]);
  return true;
}

/* ---- shapes ---- */

static bool lower_shape(TfCtx *c) {
  ElemType et;
  if (!need_inputs(c, 1) || !out_int_type(c, &et)) return false;
  Value *v = int_vector(c, et, c->in[0]->type->rank, c->in[0]->type->dims);
  if (!v) return false;
  tf_out(c, v);
  return true;
}

static bool lower_shape_n(TfCtx *c) {
  ElemType et;
  if (!need_inputs(c, 1) || !out_int_type(c, &et)) return false;
  for (int i = 0; i < c->nin; i++) {
    Value *v = int_vector(c, et, c->in[i]->type->rank, c->in[i]->type->dims);
    if (!v) return false;
    tf_out(c, v);
  }
  return true;
}

static bool lower_size(TfCtx *c) {
  ElemType et;
  if (!need_inputs(c, 1) || !out_int_type(c, &et)) return false;
  int64_t n = 1;
  for (int i = 0; i < c->in[0]->type->rank; i++) n *= c->in[0]->type->dims[i];
  if (et == ET_S32 && n > INT32_MAX)
    return tf_error(c, "the size %lld does not fit out_type int32", (long long)n);
  tf_out(c, tf_iscalar(c, et, n));
  return true;
}

static bool lower_rank(TfCtx *c) {
  if (!need_inputs(c, 1)) return false;
  tf_out(c, tf_iscalar(c, ET_S32, c->in[0]->type->rank));
  return true;
}

/* BroadcastArgs: the broadcast shape of two constant shapes. */
static bool lower_broadcast_args(TfCtx *c) {
  int64_t *a, *b;
  int na, nb;
  if (!need_inputs(c, 2) || !tf_const_ints(c, 0, "s0", &a, &na) || !tf_const_ints(c, 1, "s1", &b, &nb))
    return false;
  int n = na > nb ? na : nb;
  int64_t *r = ARENA_ARRAY(&c->b.m->arena, int64_t, n + 1);
  for (int i = 0; i < n; i++) {
    int ia = i - (n - na), ib = i - (n - nb);
    int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    if (da != db && da != 1 && db != 1)
      return tf_error(c, "the shapes do not broadcast: %lld against %lld", (long long)da, (long long)db);
    r[i] = da == 1 ? db : da;
  }
  tf_out(c, tf_const_vec(c, c->in[0]->type->elem, n, r));
  return true;
}

/* ---- reshaping ---- */

/* TensorFlow's Reshape: at most one -1, inferred from the element count;
   with zero-size dimensions about, the -1 is what the nonzero sizes give. */
static bool lower_reshape(TfCtx *c) {
  int64_t *s;
  int n;
  if (!need_inputs(c, 2) || !tf_const_ints(c, 1, "the shape", &s, &n) || !check_rank(c, n)) return false;
  const Type *t = c->in[0]->type;
  int64_t elems = 1, in_nonzero = 1;
  for (int i = 0; i < t->rank; i++) {
    elems *= t->dims[i];
    if (t->dims[i]) in_nonzero *= t->dims[i];
  }
  int unknown = -1;
  int64_t known = 1, known_nonzero = 1;
  for (int i = 0; i < n; i++) {
    if (s[i] == -1) {
      if (unknown >= 0)
        return tf_error(c, "the shape has more than one -1 (dimensions %d and %d)", unknown, i);
      unknown = i;
    } else if (s[i] < 0) {
      return tf_error(c, "the shape has a negative size %lld at dimension %d", (long long)s[i], i);
    } else {
      known *= s[i];
      if (s[i]) known_nonzero *= s[i];
    }
  }
  if (unknown >= 0) {
    if (known == 0) {
      s[unknown] = in_nonzero / known_nonzero;
    } else {
      if (elems % known)
        return tf_error(c, "cannot reshape %lld elements: they are not a multiple of %lld", (long long)elems,
                        (long long)known);
      s[unknown] = elems / known;
    }
    known *= s[unknown];
  }
  if (known != elems)
    return tf_error(c, "cannot reshape a tensor of %lld elements into a shape of %lld", (long long)elems,
                    (long long)known);
  tf_out(c, bld_reshape(&c->b, c->in[0], n, s));
  return true;
}

static bool lower_squeeze(TfCtx *c) {
  if (!need_inputs(c, 1)) return false;
  const Type *t = c->in[0]->type;
  int64_t *sq;
  int nsq = tf_attr_ints(c, "squeeze_dims", &sq);
  if (nsq < 0) nsq = tf_attr_ints(c, "axis", &sq);
  bool drop[MAXR] = {false};
  for (int i = 0; i < nsq; i++) {
    int64_t a;
    if (!tf_axis(c, sq[i], t->rank, &a)) return false;
    if (t->dims[a] != 1)
      return tf_error(c, "cannot squeeze dimension %lld: its size is %lld, not 1", (long long)sq[i],
                      (long long)t->dims[a]);
    drop[a] = true;
  }
  int64_t dims[MAXR];
  int r = 0;
  for (int i = 0; i < t->rank; i++)
    if (!(nsq > 0 ? drop[i] : t->dims[i] == 1)) dims[r++] = t->dims[i];
  tf_out(c, bld_reshape(&c->b, c->in[0], r, dims));
  return true;
}

static bool lower_expand_dims(TfCtx *c) {
  int64_t axis;
  if (!need_inputs(c, 2) || !const_int(c, 1, "the axis", &axis)) return false;
  const Type *t = c->in[0]->type;
  if (!check_rank(c, t->rank + 1)) return false;
  int64_t a;
  if (!tf_axis(c, axis, t->rank + 1, &a)) return false;
  int64_t dims[MAXR];
  for (int i = 0, j = 0; i <= t->rank; i++) dims[i] = i == a ? 1 : t->dims[j++];
  tf_out(c, bld_reshape(&c->b, c->in[0], t->rank + 1, dims));
  return true;
}

/* The permutation input of Transpose, checked. */
static bool read_perm(TfCtx *c, int rank, int64_t **perm) {
  int n;
  if (!tf_const_ints(c, 1, "the permutation", perm, &n)) return false;
  if (n != rank) return tf_error(c, "the permutation has %d entries for a tensor of rank %d", n, rank);
  bool seen[MAXR] = {false};
  for (int i = 0; i < n; i++) {
    int64_t p = (*perm)[i];
    if (p < 0) p += rank; /* TensorFlow takes -rank..rank-1 */
    if (p < 0 || p >= rank || seen[p])
      return tf_error(c, "the permutation is not a permutation of 0..%d", rank - 1);
    seen[p] = true;
    (*perm)[i] = p;
  }
  return true;
}

static bool lower_transpose(TfCtx *c) {
  int64_t *perm;
  if (!need_inputs(c, 2) || !read_perm(c, c->in[0]->type->rank, &perm)) return false;
  Value *x = c->in[0];
  Value *r = bld_transpose(&c->b, x, perm);
  if (!strcmp(c->node->op, "ConjugateTranspose") && et_is_complex(x->type->elem)) {
    /* conj(z) = complex(real(z), -imag(z)) */
    ElemType pt = x->type->elem == ET_C64 ? ET_F32 : ET_F64;
    Type *rt = bld_shape_of(&c->b, r->type, pt);
    Value *re = bld_op(&c->b, OP_REAL, 1, &r, rt);
    Value *im = bld_un(&c->b, OP_NEGATE, bld_op(&c->b, OP_IMAG, 1, &r, rt));
    Value *parts[2] = {re, im};
    r = bld_op(&c->b, OP_COMPLEX, 2, parts, r->type);
  }
  tf_out(c, r);
  return true;
}

/* ---- joining and splitting ---- */

/* Concat (axis first) and ConcatV2 (axis last). */
static bool lower_concat(TfCtx *c) {
  bool v2 = !strcmp(c->node->op, "ConcatV2");
  if (!need_inputs(c, 2)) return false;
  int64_t axis;
  int ai = v2 ? c->nin - 1 : 0;
  if (!const_int(c, ai, "the axis", &axis)) return false;
  Value **v = v2 ? c->in : c->in + 1;
  int n = c->nin - 1;
  const Type *t0 = v[0]->type;
  int64_t a;
  if (!tf_axis(c, axis, t0->rank, &a)) return false;
  if (t0->rank == 0) return tf_error(c, "cannot concatenate scalars");
  for (int i = 1; i < n; i++) {
    const Type *t = v[i]->type;
    if (t->elem != t0->elem) return tf_error(c, "the inputs have different element types");
    bool ok = t->rank == t0->rank;
    for (int d = 0; ok && d < t->rank; d++) ok = d == a || t->dims[d] == t0->dims[d];
    if (!ok) return tf_error(c, "input %d's shape does not match input 0's but along the axis", i);
  }
  tf_out(c, concat(c, n, v, (int)a));
  return true;
}

static bool lower_pack(TfCtx *c) {
  if (!need_inputs(c, 1)) return false;
  const Type *t0 = c->in[0]->type;
  if (!check_rank(c, t0->rank + 1)) return false;
  int64_t a;
  if (!tf_axis(c, tf_attr_int(c, "axis", 0), t0->rank + 1, &a)) return false;
  int64_t dims[MAXR];
  for (int i = 0, j = 0; i <= t0->rank; i++) dims[i] = i == a ? 1 : t0->dims[j++];
  Value **v = ARENA_ARRAY(&c->b.m->arena, Value *, c->nin);
  for (int i = 0; i < c->nin; i++) {
    const Type *t = c->in[i]->type;
    bool ok = t->rank == t0->rank && t->elem == t0->elem;
    for (int d = 0; ok && d < t->rank; d++) ok = t->dims[d] == t0->dims[d];
    if (!ok) return tf_error(c, "input %d's shape or type differs from input 0's", i);
    v[i] = bld_reshape(&c->b, c->in[i], t0->rank + 1, dims);
  }
  tf_out(c, concat(c, c->nin, v, (int)a));
  return true;
}

static bool lower_unpack(TfCtx *c) {
  if (!need_inputs(c, 1)) return false;
  Value *x = c->in[0];
  const Type *t = x->type;
  int64_t a;
  if (!tf_axis(c, tf_attr_int(c, "axis", 0), t->rank, &a)) return false;
  if (t->rank == 0) return tf_error(c, "cannot unpack a scalar");
  int64_t num = tf_attr_int(c, "num", t->dims[a]);
  if (num != t->dims[a])
    return tf_error(c, "num is %lld but dimension %lld has size %lld", (long long)num, (long long)a,
                    (long long)t->dims[a]);
  int64_t dims[MAXR];
  for (int i = 0, j = 0; i < t->rank; i++)
    if (i != a) dims[j++] = t->dims[i];
  for (int64_t k = 0; k < num; k++)
    tf_out(c, bld_reshape(&c->b, slice_dim(c, x, (int)a, k, k + 1), t->rank - 1, dims));
  return true;
}

/* Split (axis, value) into num_split equal parts; SplitV (value,
   size_splits, axis) into the given sizes, one of which may be -1. */
static bool lower_split(TfCtx *c) {
  bool v = !strcmp(c->node->op, "SplitV");
  if (!need_inputs(c, v ? 3 : 2)) return false;
  Value *x = c->in[v ? 0 : 1];
  int64_t axis;
  if (!const_int(c, v ? 2 : 0, "the axis", &axis)) return false;
  const Type *t = x->type;
  int64_t a;
  if (!tf_axis(c, axis, t->rank, &a)) return false;
  if (t->rank == 0) return tf_error(c, "cannot split a scalar");
  int64_t dim = t->dims[a];
  int64_t *sizes;
  int n;
  if (v) {
    if (!tf_const_ints(c, 1, "size_splits", &sizes, &n)) return false;
    int64_t ns = tf_attr_int(c, "num_split", n);
    if (ns != n) return tf_error(c, "num_split is %lld but size_splits has %d entries", (long long)ns, n);
    int unknown = -1;
    int64_t sum = 0;
    for (int i = 0; i < n; i++) {
      if (sizes[i] == -1) {
        if (unknown >= 0) return tf_error(c, "size_splits has more than one -1");
        unknown = i;
      } else if (sizes[i] < 0) {
        return tf_error(c, "size_splits has a negative size %lld", (long long)sizes[i]);
      } else {
        sum += sizes[i];
      }
    }
    if (unknown >= 0) {
      if (sum > dim)
        return tf_error(c, "size_splits add up to %lld, more than the dimension's %lld", (long long)sum,
                        (long long)dim);
      sizes[unknown] = dim - sum;
      sum = dim;
    }
    if (sum != dim)
      return tf_error(c, "size_splits add up to %lld, not the dimension's size %lld", (long long)sum,
                      (long long)dim);
  } else {
    int64_t ns = tf_attr_int(c, "num_split", 0);
    if (ns <= 0) return tf_error(c, "num_split must be positive");
    if (dim % ns)
      return tf_error(c, "dimension %lld of size %lld cannot be split into %lld equal parts", (long long)a,
                      (long long)dim, (long long)ns);
    n = (int)ns;
    sizes = ARENA_ARRAY(&c->b.m->arena, int64_t, n);
    for (int i = 0; i < n; i++) sizes[i] = dim / ns;
  }
  int64_t at = 0;
  for (int i = 0; i < n; i++) {
    tf_out(c, slice_dim(c, x, (int)a, at, at + sizes[i]));
    at += sizes[i];
  }
  return true;
}

/* ---- slicing ---- */

static bool lower_slice(TfCtx *c) {
  int64_t *begin, *size;
  int nb, ns;
  if (!need_inputs(c, 3) || !tf_const_ints(c, 1, "begin", &begin, &nb) ||
      !tf_const_ints(c, 2, "size", &size, &ns))
    return false;
  Value *x = c->in[0];
  const Type *t = x->type;
  if (nb != t->rank || ns != t->rank)
    return tf_error(c, "begin and size must have %d entries (the input's rank), not %d and %d", t->rank, nb,
                    ns);
  int64_t limit[MAXR];
  for (int i = 0; i < t->rank; i++) {
    int64_t s = size[i] == -1 ? t->dims[i] - begin[i] : size[i];
    if (begin[i] < 0 || s < 0 || begin[i] + s > t->dims[i])
      return tf_error(c, "the slice [%lld, +%lld) is out of dimension %d of size %lld", (long long)begin[i],
                      (long long)size[i], i, (long long)t->dims[i]);
    limit[i] = begin[i] + s;
  }
  tf_out(c, slice(c, x, begin, limit, NULL));
  return true;
}

/* StridedSlice.  The sparse specification (begin/end/strides and the masks,
   one entry per index expression) is turned into a dense one (one entry
   per input dimension) the way TensorFlow does: an ellipsis (or, without
   one, an implicit one at the end) stands for the dimensions no other
   entry takes; new-axis entries take no input dimension; shrink entries
   take one element and drop the dimension.  Each dimension becomes a
   strided slice (a reverse first for a negative stride), and a reshape
   gives the final shape. */
enum { SS_NEW_AXIS = -1, SS_SHRINK = -2 };

static bool lower_strided_slice(TfCtx *c) {
  int64_t *sb, *se, *ss;
  int nb, ne, ns;
  if (!need_inputs(c, 4) || !tf_const_ints(c, 1, "begin", &sb, &nb) ||
      !tf_const_ints(c, 2, "end", &se, &ne) || !tf_const_ints(c, 3, "strides", &ss, &ns))
    return false;
  if (nb != ne || nb != ns)
    return tf_error(c, "begin, end and strides have different lengths (%d, %d, %d)", nb, ne, ns);
  if (nb > 32) return tf_error(c, "more than 32 index entries");
  uint64_t bmask = (uint64_t)tf_attr_int(c, "begin_mask", 0), emask = (uint64_t)tf_attr_int(c, "end_mask", 0);
  uint64_t elmask = (uint64_t)tf_attr_int(c, "ellipsis_mask", 0);
  uint64_t namask = (uint64_t)tf_attr_int(c, "new_axis_mask", 0);
  uint64_t shmask = (uint64_t)tf_attr_int(c, "shrink_axis_mask", 0);
  if (elmask & (elmask - 1)) return tf_error(c, "more than one ellipsis in the slice");
  Value *x = c->in[0];
  const Type *t = x->type;
  int rank = t->rank;

  /* the sparse spec, with the implicit ellipsis at the end */
  int nsparse = nb;
  bool has_ellipsis = false;
  for (int i = 0; i < nb; i++) has_ellipsis = has_ellipsis || (elmask >> i & 1);
  if (!has_ellipsis) {
    elmask |= (uint64_t)1 << nb;
    nsparse++;
  }
  /* new axes after the ellipsis: the ellipsis leaves room for them */
  int after_ellipsis = 0;
  bool seen = false;
  for (int i = 0; i < nsparse; i++) {
    if (seen && (namask >> i & 1)) after_ellipsis++;
    if (elmask >> i & 1) seen = true;
  }

  /* the dense spec: per input dimension */
  int64_t db[MAXR], de[MAXR], ds[MAXR];
  bool dbm[MAXR], dem[MAXR], dshrink[MAXR];
  int64_t gather[2 * MAXR + 33]; /* final shape: a dense dim, SS_NEW_AXIS or SS_SHRINK */
  int ngather = 0, full = 0;
  for (int i = 0; i < nsparse; i++) {
    if (elmask >> i & 1) {
      int next = rank - (nsparse - i) + 1 + after_ellipsis;
      if (next > rank) next = rank;
      for (; full < next; full++) {
        db[full] = de[full] = 0;
        ds[full] = 1;
        dbm[full] = dem[full] = true;
        dshrink[full] = false;
        gather[ngather++] = full;
      }
    } else if (namask >> i & 1) {
      gather[ngather++] = SS_NEW_AXIS;
    } else {
      if (full == rank) return tf_error(c, "index entry %d is out of range for a tensor of rank %d", i, rank);
      db[full] = sb[i];
      de[full] = se[i];
      ds[full] = ss[i];
      dbm[full] = bmask >> i & 1;
      dem[full] = emask >> i & 1;
      dshrink[full] = shmask >> i & 1;
      gather[ngather++] = dshrink[full] ? SS_SHRINK : full;
      full++;
    }
  }

  /* each dimension: canonical begin and end, then a size */
  int64_t start[MAXR], limit[MAXR], stride[MAXR], size[MAXR], rev[MAXR] = {0};
  int nrev = 0;
  for (int i = 0; i < rank; i++) {
    int64_t dim = t->dims[i], s = ds[i], b, e;
    if (s == 0) return tf_error(c, "the stride of dimension %d is 0", i);
    if (dshrink[i]) {
      if (s < 0)
        return tf_error(c, "a stride of %lld where the index picks one element (only 1 works)", (long long)s);
      b = db[i] < 0 ? dim + db[i] : db[i];
      if (b < 0 || b >= dim)
        return tf_error(c, "index %lld is out of bounds for dimension %d of size %lld", (long long)db[i], i,
                        (long long)dim);
      e = b + 1;
    } else {
      /* the valid range [lo, hi] of a canonical index for this stride */
      int64_t lo = s > 0 ? 0 : -1, hi = s > 0 ? dim : dim - 1;
      if (dbm[i]) {
        b = s > 0 ? lo : hi;
      } else {
        b = db[i] < 0 ? dim + db[i] : db[i];
        b = b < lo ? lo : b > hi ? hi : b;
      }
      if (dem[i]) {
        e = s > 0 ? hi : lo;
      } else {
        e = de[i] < 0 ? dim + de[i] : de[i];
        e = e < lo ? lo : e > hi ? hi : e;
      }
    }
    int64_t len = e - b;
    if (len == 0 || (len < 0) != (s < 0))
      size[i] = 0;
    else
      size[i] = len / s + (len % s != 0);
    if (size[i] == 0) {
      start[i] = limit[i] = 0;
      stride[i] = 1;
    } else if (s > 0) {
      start[i] = b;
      stride[i] = s;
      limit[i] = b + (size[i] - 1) * s + 1;
    } else {
      /* element k is x[b + k*s]: in x reversed, index dim-1-b + k*(-s) */
      rev[nrev++] = i;
      start[i] = dim - 1 - b;
      stride[i] = -s;
      limit[i] = start[i] + (size[i] - 1) * stride[i] + 1;
    }
  }
  Value *r = slice(c, reverse(c, x, nrev, rev), start, limit, stride);
  int64_t dims[MAXR];
  int nd = 0;
  for (int i = 0; i < ngather; i++) {
    if (gather[i] == SS_SHRINK) continue;
    if (nd == MAXR) return tf_error(c, "the result's rank is above %d", MAXR);
    dims[nd++] = gather[i] == SS_NEW_AXIS ? 1 : size[gather[i]];
  }
  tf_out(c, bld_reshape(&c->b, r, nd, dims));
  return true;
}

/* ---- padding ---- */

/* The paddings input (rank x 2) as lo[], hi[], non-negative. */
static bool read_paddings(TfCtx *c, int rank, int64_t *lo, int64_t *hi) {
  int64_t *p, n;
  const Type *pt = NULL;
  if (!const_ints_any(c, 1, "the paddings", &p, &n, &pt)) return false;
  if (pt->rank != 2 || pt->dims[0] != rank || pt->dims[1] != 2)
    return tf_error(c, "the paddings must be of shape [%d, 2]", rank);
  for (int i = 0; i < rank; i++) {
    lo[i] = p[2 * i];
    hi[i] = p[2 * i + 1];
    if (lo[i] < 0 || hi[i] < 0) return tf_error(c, "the paddings of dimension %d are negative", i);
  }
  return true;
}

static bool lower_pad(TfCtx *c) {
  if (!need_inputs(c, 2)) return false;
  Value *x = c->in[0];
  int64_t lo[MAXR], hi[MAXR];
  if (!read_paddings(c, x->type->rank, lo, hi)) return false;
  Value *pv;
  if (c->nin >= 3) {
    pv = c->in[2];
    if (pv->type->rank != 0) {
      int64_t n = 1;
      for (int i = 0; i < pv->type->rank; i++) n *= pv->type->dims[i];
      if (n != 1) return tf_error(c, "constant_values must be a scalar");
      pv = bld_reshape(&c->b, pv, 0, NULL);
    }
    if (pv->type->elem != x->type->elem)
      return tf_error(c, "constant_values has another element type than the input");
  } else {
    pv = bld_const_i(&c->b, type_scalar(&c->b.m->arena, x->type->elem), 0);
  }
  tf_out(c, pad(c, x, pv, lo, hi));
  return true;
}

/* MirrorPad: per dimension, the mirrored edges (REFLECT leaves the edge
   element out, SYMMETRIC repeats it) reversed and joined around x. */
static bool lower_mirror_pad(TfCtx *c) {
  if (!need_inputs(c, 2)) return false;
  Value *x = c->in[0];
  int rank = x->type->rank;
  int64_t lo[MAXR], hi[MAXR];
  if (!read_paddings(c, rank, lo, hi)) return false;
  const char *mode = tf_attr_str(c, "mode", "");
  int off;
  if (!strcmp(mode, "REFLECT"))
    off = 1;
  else if (!strcmp(mode, "SYMMETRIC"))
    off = 0;
  else
    return tf_error(c, "mode '%s' is not supported (REFLECT and SYMMETRIC are)", mode);
  for (int d = 0; d < rank; d++) {
    int64_t dim = x->type->dims[d];
    if (lo[d] > dim - off || hi[d] > dim - off)
      return tf_error(
          c, "the paddings of dimension %d (%lld, %lld) exceed %lld, the most %s allows for size %lld", d,
          (long long)lo[d], (long long)hi[d], (long long)(dim - off), mode, (long long)dim);
    if (!lo[d] && !hi[d]) continue;
    Value *parts[3];
    int np = 0;
    int64_t dd = d;
    if (lo[d]) parts[np++] = reverse(c, slice_dim(c, x, d, off, off + lo[d]), 1, &dd);
    parts[np++] = x;
    if (hi[d]) parts[np++] = reverse(c, slice_dim(c, x, d, dim - off - hi[d], dim - off), 1, &dd);
    x = concat(c, np, parts, d);
  }
  tf_out(c, x);
  return true;
}

/* ---- making tensors ---- */

static bool lower_fill(TfCtx *c) {
  int64_t *dims;
  int n;
  if (!need_inputs(c, 2) || !tf_const_ints(c, 0, "the dims", &dims, &n) || !check_rank(c, n)) return false;
  for (int i = 0; i < n; i++)
    if (dims[i] < 0) return tf_error(c, "dimension %d has negative size %lld", i, (long long)dims[i]);
  Value *v = c->in[1];
  if (v->type->rank != 0) return tf_error(c, "the value must be a scalar");
  tf_out(c, bld_splat(&c->b, v, tf_type(c, v->type->elem, n, dims)));
  return true;
}

static bool lower_broadcast_to(TfCtx *c) {
  int64_t *dims;
  int n;
  if (!need_inputs(c, 2) || !tf_const_ints(c, 1, "the shape", &dims, &n) || !check_rank(c, n)) return false;
  Value *r = tf_broadcast_to(c, c->in[0], n, dims);
  if (!r) return false;
  tf_out(c, r);
  return true;
}

/* Tile: x broadcast to [m0, d0, m1, d1, ...] (only where m != 1), then
   collapsed to [m0*d0, m1*d1, ...]. */
static bool lower_tile(TfCtx *c) {
  int64_t *m;
  int n;
  if (!need_inputs(c, 2) || !tf_const_ints(c, 1, "the multiples", &m, &n)) return false;
  Value *x = c->in[0];
  const Type *t = x->type;
  if (n != t->rank) return tf_error(c, "the multiples have %d entries for a tensor of rank %d", n, t->rank);
  int64_t bdims[2 * MAXR], map[MAXR], out[MAXR];
  int nbd = 0;
  bool all_one = true;
  for (int i = 0; i < n; i++) {
    if (m[i] < 0) return tf_error(c, "multiple %d is negative", i);
    if (m[i] != 1) {
      bdims[nbd++] = m[i];
      all_one = false;
    }
    map[i] = nbd;
    bdims[nbd++] = t->dims[i];
    out[i] = m[i] * t->dims[i];
  }
  if (all_one) {
    tf_out(c, x);
    return true;
  }
  if (!check_rank(c, nbd)) return false;
  Value *b = bld_broadcast(&c->b, x, tf_type(c, t->elem, nbd, bdims), n, map);
  tf_out(c, bld_reshape(&c->b, b, n, out));
  return true;
}

/* Reverse (a bool per dimension) and ReverseV2 (the axes). */
static bool lower_reverse(TfCtx *c) {
  if (!need_inputs(c, 2)) return false;
  Value *x = c->in[0];
  int rank = x->type->rank;
  int64_t dims[MAXR];
  int n = 0;
  bool on[MAXR] = {false};
  if (!strcmp(c->node->op, "Reverse")) {
    Literal *l = tf_const(c, 1);
    if (!l) {
      int64_t *dummy;
      int nd;
      tf_const_ints(c, 1, "the dims", &dummy, &nd);
      return false;
    }
    if (l->n != rank)
      return tf_error(c, "the dims have %lld entries for a tensor of rank %d", (long long)l->n, rank);
    for (int i = 0; i < rank; i++)
      if (lit_get_b(l, i)) dims[n++] = i;
  } else {
    int64_t *axes;
    int na;
    if (!tf_const_ints(c, 1, "the axes", &axes, &na)) return false;
    for (int i = 0; i < na; i++) {
      int64_t a;
      if (!tf_axis(c, axes[i], rank, &a)) return false;
      if (on[a]) return tf_error(c, "axis %lld is given more than once", (long long)a);
      on[a] = true;
      dims[n++] = a;
    }
  }
  tf_out(c, reverse(c, x, n, dims));
  return true;
}

/* Input i as a one-element constant. */
static bool const_scalar(TfCtx *c, int i, const char *what, Literal **out) {
  Literal *l = tf_const(c, i);
  if (!l) {
    int64_t *dummy;
    int n;
    tf_const_ints(c, i, what, &dummy, &n); /* the error naming the input */
    return false;
  }
  if (l->n != 1) return tf_error(c, "%s (input %d) must be a scalar", what, i);
  *out = l;
  return true;
}

/* v rounded to element type et (through a one-element literal). */
static double round_to(Literal *tmp, double v) {
  lit_set_f(tmp, 0, v);
  return lit_get_f(tmp, 0);
}

/* Ranges longer than this are computed, not constants. */
#define RANGE_CONST_MAX 65536

/* start + i*delta for i in [0, n): i of the element type, then a
   multiplication and an addition, each rounded to the element type. */
static bool range_iota(TfCtx *c, Value *start, Value *delta, int64_t n) {
  ElemType et = start->type->elem;
  Type *vt = tf_type(c, et, 1, &n);
  /* (a one-element input to a scalar; reshape is not called on a scalar,
     whose missing dims would reach memcmp as a null pointer) */
  if (start->type->rank) start = bld_reshape(&c->b, start, 0, NULL);
  if (delta->type->rank) delta = bld_reshape(&c->b, delta, 0, NULL);
  Value *start_v = bld_splat(&c->b, start, vt);
  Value *delta_v = bld_splat(&c->b, delta, vt);
  tf_out(c, bld_add(&c->b, start_v, bld_mul(&c->b, iota(c, et, 1, &n, 0), delta_v)));
  return true;
}

/* Range: start + i*delta for i in [0, size), each step rounded to the
   element type as TensorFlow computes it; a constant unless long. */
static bool lower_range(TfCtx *c) {
  Literal *ls, *ll, *ld;
  if (!need_inputs(c, 3) || !const_scalar(c, 0, "start", &ls) || !const_scalar(c, 1, "limit", &ll) ||
      !const_scalar(c, 2, "delta", &ld))
    return false;
  ElemType et = lit_elem(ls);
  Arena *a = &c->b.m->arena;
  int64_t n;
  if (et_is_int(et)) {
    int64_t s = lit_get_i(ls, 0), l = lit_get_i(ll, 0), d = lit_get_i(ld, 0);
    if (et == ET_U64 && (lit_get_u(ls, 0) > INT64_MAX || lit_get_u(ll, 0) > INT64_MAX))
      return tf_error(c, "uint64 ranges above 2^63 are not supported");
    if (d == 0) return tf_error(c, "delta must not be 0");
    if (d > 0 ? s > l : s < l)
      return tf_error(c, "start %lld cannot reach limit %lld with delta %lld", (long long)s, (long long)l,
                      (long long)d);
    uint64_t span = d > 0 ? (uint64_t)l - (uint64_t)s : (uint64_t)s - (uint64_t)l;
    uint64_t step = d > 0 ? (uint64_t)d : (uint64_t)0 - (uint64_t)d;
    n = (int64_t)((span + step - 1) / step);
    if (n > ((int64_t)1 << 31)) return tf_error(c, "the range has %lld elements, too many", (long long)n);
    if (n > RANGE_CONST_MAX) return range_iota(c, c->in[0], c->in[2], n);
    Literal *out = lit_new_in(a, type_tensor(a, et, 1, &n));
    for (int64_t i = 0; i < n; i++) lit_set_i(out, i, (int64_t)((uint64_t)s + (uint64_t)i * (uint64_t)d));
    tf_out(c, tf_constant(c, out));
    return true;
  }
  if (!et_is_float(et)) return tf_error(c, "Range of this element type is not supported");
  Literal *tmp = lit_new_in(a, type_scalar(a, et));
  double s = lit_get_f(ls, 0), l = lit_get_f(ll, 0), d = lit_get_f(ld, 0);
  if (d == 0) return tf_error(c, "delta must not be 0");
  if (d > 0 ? s > l : s < l) return tf_error(c, "start %g cannot reach limit %g with delta %g", s, l, d);
  double q = round_to(tmp, round_to(tmp, l - s) / d);
  double size = ceil(fabs(q));
  if (!(size <= (double)((int64_t)1 << 31))) return tf_error(c, "the range has too many elements");
  n = (int64_t)size;
  if (n > RANGE_CONST_MAX) return range_iota(c, c->in[0], c->in[2], n);
  Literal *out = lit_new_in(a, type_tensor(a, et, 1, &n));
  for (int64_t i = 0; i < n; i++)
    lit_set_f(out, i, round_to(tmp, s + round_to(tmp, round_to(tmp, (double)i) * d)));
  tf_out(c, tf_constant(c, out));
  return true;
}

/* LinSpace: start + i*step with step = (stop-start)/(num-1), the last
   element stop itself, computed in the element type. */
static bool lower_lin_space(TfCtx *c) {
  int64_t num;
  if (!need_inputs(c, 3) || !const_int(c, 2, "num", &num)) return false;
  if (num <= 0) return tf_error(c, "num must be positive, not %lld", (long long)num);
  Value *start = c->in[0], *stop = c->in[1];
  if (start->type->rank != 0 || stop->type->rank != 0) return tf_error(c, "start and stop must be scalars");
  ElemType et = start->type->elem;
  if (!et_is_float(et)) return tf_error(c, "LinSpace needs floating-point start and stop");
  Type *vt = tf_type(c, et, 1, &num);
  if (num == 1) {
    tf_out(c, bld_splat(&c->b, start, vt));
    return true;
  }
  Type *st = type_scalar(&c->b.m->arena, et);
  Value *step = bld_div(&c->b, bld_sub(&c->b, stop, start), bld_const_f(&c->b, st, (double)(num - 1)));
  Value *i = iota(c, et, 1, &num, 0);
  Value *v = bld_add(&c->b, bld_splat(&c->b, start, vt), bld_mul(&c->b, bld_splat(&c->b, step, vt), i));
  /* the last one is stop */
  Value *last = bld_compare(&c->b, iota(c, ET_S64, 1, &num, 0),
                            bld_const_i(&c->b, bld_shape_of(&c->b, vt, ET_S64), num - 1), "EQ");
  tf_out(c, bld_select(&c->b, last, bld_splat(&c->b, stop, vt), v));
  return true;
}

/* ---- gathering ---- */

/* An output with no elements: zeros of its shape (true), else false. */
static bool empty_result(TfCtx *c, ElemType et, int rank, const int64_t *dims) {
  for (int i = 0; i < rank; i++)
    if (dims[i] == 0) {
      tf_out(c, bld_const_i(&c->b, tf_type(c, et, rank, dims), 0));
      return true;
    }
  return false;
}

/* GatherV2 (params, indices, axis; batch_dims) and Gather (params,
   indices: axis 0).  Output: params[:axis] + indices[batch_dims:] +
   params[axis+1:], where params[:batch_dims] == indices[:batch_dims] are
   batching dimensions of the gather. */
static bool lower_gather(TfCtx *c) {
  bool v2 = !strcmp(c->node->op, "GatherV2");
  if (!need_inputs(c, v2 ? 3 : 2)) return false;
  Value *p = c->in[0], *ix = c->in[1];
  const Type *pt = p->type, *it = ix->type;
  int r = pt->rank, q = it->rank;
  if (!et_is_int(it->elem)) return tf_error(c, "the indices must be integers");
  int64_t axis = 0, bd = v2 ? tf_attr_int(c, "batch_dims", 0) : 0;
  if (v2 && !const_int(c, 2, "the axis", &axis)) return false;
  if (r == 0) return tf_error(c, "params must have rank 1 or more");
  if (!tf_axis(c, axis, r, &axis)) return false;
  if (bd < 0) bd += q;
  if (bd < 0 || bd > q)
    return tf_error(c, "batch_dims %lld is out of range for indices of rank %d",
                    (long long)tf_attr_int(c, "batch_dims", 0), q);
  if (bd > axis)
    return tf_error(c, "batch_dims (%lld) must not exceed the axis (%lld)", (long long)bd, (long long)axis);
  for (int i = 0; i < bd; i++)
    if (pt->dims[i] != it->dims[i])
      return tf_error(c, "params and indices differ in batch dimension %d (%lld and %lld)", i,
                      (long long)pt->dims[i], (long long)it->dims[i]);
  int orank = r + q - 1 - (int)bd;
  if (!check_rank(c, orank)) return false;
  int64_t odims[MAXR];
  int nod = 0;
  for (int i = 0; i < axis; i++) odims[nod++] = pt->dims[i];
  for (int i = (int)bd; i < q; i++) odims[nod++] = it->dims[i];
  for (int i = (int)axis + 1; i < r; i++) odims[nod++] = pt->dims[i];
  if (empty_result(c, pt->elem, orank, odims)) return true;
  if (pt->dims[axis] == 0) return tf_error(c, "gathers from dimension %lld of size 0", (long long)axis);
  int64_t offset[MAXR], sizes[MAXR], batch[MAXR];
  int no = 0;
  for (int64_t i = bd; i < axis; i++) offset[no++] = i;
  for (int64_t i = axis + 1; i < r; i++) offset[no++] = i + q - bd - 1;
  for (int i = 0; i < r; i++) sizes[i] = i == axis || i < bd ? 1 : pt->dims[i];
  for (int i = 0; i < bd; i++) batch[i] = i;
  StrBuf sb = {0};
  sb_puts(&sb, "{dimension_numbers = #stablehlo.gather<offset_dims = ");
  put_list(&sb, no, offset);
  sb_printf(&sb, ", collapsed_slice_dims = [%lld]", (long long)axis);
  if (bd) {
    sb_puts(&sb, ", operand_batching_dims = ");
    put_list(&sb, (int)bd, batch);
    sb_puts(&sb, ", start_indices_batching_dims = ");
    put_list(&sb, (int)bd, batch);
  }
  sb_printf(&sb, ", start_index_map = [%lld], index_vector_dim = %d>, slice_sizes = array<i64",
            (long long)axis, q);
  for (int i = 0; i < r; i++) sb_printf(&sb, "%s %lld", i ? "," : ":", (long long)sizes[i]);
  sb_puts(&sb, ">, indices_are_sorted = false}");
  char *attrs = sb_take(&sb);
  Value *in[2] = {p, ix};
  Value *res = tf_op_infer(c, OP_GATHER, 2, in, pt->elem, orank, "%s", attrs);
  xfree(attrs);
  if (!res) return false;
  tf_out(c, res);
  return true;
}

/* GatherNd: indices [..., K] pick slices params[i0, ..., iK-1, :...]. */
static bool lower_gather_nd(TfCtx *c) {
  if (!need_inputs(c, 2)) return false;
  Value *p = c->in[0], *ix = c->in[1];
  const Type *pt = p->type, *it = ix->type;
  int r = pt->rank, q = it->rank;
  if (!et_is_int(it->elem)) return tf_error(c, "the indices must be integers");
  if (q < 1) return tf_error(c, "the indices must have rank 1 or more");
  int64_t k = it->dims[q - 1];
  if (k > r)
    return tf_error(c, "the indices' last dimension (%lld) exceeds params' rank (%d)", (long long)k, r);
  int orank = q - 1 + r - (int)k;
  if (!check_rank(c, orank)) return false;
  int64_t offset[MAXR], collapsed[MAXR], odims[MAXR];
  for (int i = 0; i < q - 1; i++) odims[i] = it->dims[i];
  for (int i = 0; i < r - k; i++) odims[q - 1 + i] = pt->dims[k + i];
  if (empty_result(c, pt->elem, orank, odims)) return true;
  for (int i = 0; i < r - k; i++) offset[i] = q - 1 + i;
  for (int i = 0; i < k; i++) {
    collapsed[i] = i;
    if (pt->dims[i] == 0) return tf_error(c, "gathers from dimension %d of size 0", i);
  }
  StrBuf sb = {0};
  sb_puts(&sb, "{dimension_numbers = #stablehlo.gather<offset_dims = ");
  put_list(&sb, r - (int)k, offset);
  sb_puts(&sb, ", collapsed_slice_dims = ");
  put_list(&sb, (int)k, collapsed);
  sb_puts(&sb, ", start_index_map = ");
  put_list(&sb, (int)k, collapsed);
  sb_printf(&sb, ", index_vector_dim = %d>, slice_sizes = array<i64", q - 1);
  for (int i = 0; i < r; i++) sb_printf(&sb, "%s %lld", i ? "," : ":", (long long)(i < k ? 1 : pt->dims[i]));
  sb_puts(&sb, ">, indices_are_sorted = false}");
  char *attrs = sb_take(&sb);
  Value *in[2] = {p, ix};
  Value *res = tf_op_infer(c, OP_GATHER, 2, in, pt->elem, orank, "%s", attrs);
  xfree(attrs);
  if (!res) return false;
  tf_out(c, res);
  return true;
}

/* OneHot: on_value where iota along the new axis equals the index, else
   off_value (an index outside [0, depth) gives a row of off_value). */
static bool lower_one_hot(TfCtx *c) {
  int64_t depth;
  if (!need_inputs(c, 4) || !const_int(c, 1, "the depth", &depth)) return false;
  if (depth < 0) return tf_error(c, "depth must be non-negative, not %lld", (long long)depth);
  Value *ix = c->in[0], *on = c->in[2], *off = c->in[3];
  const Type *it = ix->type;
  if (!et_is_int(it->elem)) return tf_error(c, "the indices must be integers");
  if (on->type->rank != 0 || off->type->rank != 0)
    return tf_error(c, "on_value and off_value must be scalars");
  if (on->type->elem != off->type->elem) return tf_error(c, "on_value and off_value have different types");
  int rank = it->rank + 1;
  if (!check_rank(c, rank)) return false;
  int64_t axis = tf_attr_int(c, "axis", -1);
  if (axis == -1) axis = it->rank;
  if (axis < 0 || axis > it->rank)
    return tf_error(c, "axis %lld is out of range [-1, %d]", (long long)axis, it->rank);
  int64_t dims[MAXR], map[MAXR];
  for (int i = 0, j = 0; i < rank; i++) {
    if (i == axis) {
      dims[i] = depth;
    } else {
      map[j] = i;
      dims[i] = it->dims[j++];
    }
  }
  ElemType cmp = et_is_signed(it->elem) && et_bytes(it->elem) == 4 && depth <= INT32_MAX ? ET_S32 : ET_S64;
  Value *idx = bld_convert(&c->b, ix, cmp);
  Type *ct = tf_type(c, cmp, rank, dims);
  Value *hot = bld_compare(&c->b, iota(c, cmp, rank, dims, (int)axis),
                           bld_broadcast(&c->b, idx, ct, it->rank, map), "EQ");
  Type *vt = tf_type(c, on->type->elem, rank, dims);
  tf_out(c, bld_select(&c->b, hot, bld_splat(&c->b, on, vt), bld_splat(&c->b, off, vt)));
  return true;
}

/* ---- scattering ---- */

/* A scatter of updates into operand at indices [..., K] (the ScatterNd
   layout), combining with k (take_update: replace). */
static Value *scatter_nd(TfCtx *c, Value *operand, Value *ix, Value *upd, OpKind k, bool take_update) {
  const Type *ot = operand->type, *it = ix->type, *ut = upd->type;
  int r = ot->rank, q = it->rank;
  if (!et_is_int(it->elem)) {
    tf_error(c, "the indices must be integers");
    return NULL;
  }
  if (q < 1) {
    tf_error(c, "the indices must have rank 1 or more");
    return NULL;
  }
  int64_t kk = it->dims[q - 1];
  if (kk > r) {
    tf_error(c, "the indices' last dimension (%lld) exceeds the output's rank (%d)", (long long)kk, r);
    return NULL;
  }
  /* updates: indices.shape[:-1] + shape[K:] */
  bool ok = ut->rank == q - 1 + r - kk && ut->elem == ot->elem;
  for (int i = 0; ok && i < q - 1; i++) ok = ut->dims[i] == it->dims[i];
  for (int i = 0; ok && i < r - kk; i++) ok = ut->dims[q - 1 + i] == ot->dims[kk + i];
  if (!ok) {
    tf_error(c, "the updates' shape (or type) does not fit the indices and the output's shape");
    return NULL;
  }
  int64_t window[MAXR], inserted[MAXR];
  for (int i = 0; i < r - kk; i++) window[i] = q - 1 + i;
  for (int i = 0; i < kk; i++) inserted[i] = i;
  StrBuf sb = {0};
  sb_puts(&sb, "{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = ");
  put_list(&sb, r - (int)kk, window);
  sb_puts(&sb, ", inserted_window_dims = ");
  put_list(&sb, (int)kk, inserted);
  sb_puts(&sb, ", scatter_dims_to_operand_dims = ");
  put_list(&sb, (int)kk, inserted);
  sb_printf(&sb, ", index_vector_dim = %d>, indices_are_sorted = false, unique_indices = false}", q - 1);
  char *attrs = sb_take(&sb);
  /* built here, not with tf_op: the verifier wants the region in place */
  Module *m = c->b.m;
  Value *in[3] = {operand, ix, upd};
  Type *rt = (Type *)ot;
  Op *op = op_new(m, OP_SCATTER, 3, in, 1, &rt, c->b.loc);
  Attr *d = stablehlo_parse_attr_dict(m, -1, attrs, strlen(attrs));
  xfree(attrs);
  for (int i = 0; d && i < d->n; i++) op_set_attr(m, op, d->keys[i], d->elems[i]);
  op_add_region(m, op, scatter_body(c, ot->elem, k, take_update));
  block_insert_before(c->b.blk, c->b.at, op);
  if (!d || !verify_op_alone(m, op)) {
    op_erase(op);
    tf_error(c, "the stablehlo.scatter it lowers to does not fit its operands");
    return NULL;
  }
  return &op->res[0];
}

/* ScatterNd (indices, updates, shape): zeros with the updates added. */
static bool lower_scatter_nd(TfCtx *c) {
  int64_t *dims;
  int n;
  if (!need_inputs(c, 3) || !tf_const_ints(c, 2, "the shape", &dims, &n) || !check_rank(c, n)) return false;
  for (int i = 0; i < n; i++)
    if (dims[i] < 0) return tf_error(c, "dimension %d has negative size", i);
  Value *upd = c->in[1];
  ElemType et = upd->type->elem;
  Value *zero = bld_const_i(&c->b, tf_type(c, et, n, dims), 0);
  Value *r = scatter_nd(c, zero, c->in[0], upd, et == ET_PRED ? OP_OR : OP_ADD, false);
  if (!r) return false;
  tf_out(c, r);
  return true;
}

/* TensorScatterUpdate/Add/Sub/Max/Min (tensor, indices, updates). */
static bool lower_tensor_scatter(TfCtx *c) {
  if (!need_inputs(c, 3)) return false;
  const char *op = c->node->op + strlen("TensorScatter");
  Value *upd = c->in[2];
  OpKind k = OP_ADD;
  bool take = false;
  if (!strcmp(op, "Update")) {
    take = true;
  } else if (!strcmp(op, "Sub")) {
    upd = bld_un(&c->b, OP_NEGATE, upd);
  } else if (!strcmp(op, "Max")) {
    k = OP_MAXIMUM;
  } else if (!strcmp(op, "Min")) {
    k = OP_MINIMUM;
  }
  Value *r = scatter_nd(c, c->in[0], c->in[1], upd, k, take);
  if (!r) return false;
  tf_out(c, r);
  return true;
}

/* ---- more rearranging ---- */

/* Roll: along each axis (shifts on one axis add up), the last `shift`
   elements move to the front. */
static bool lower_roll(TfCtx *c) {
  int64_t *shift, *axes;
  int ns, na;
  if (!need_inputs(c, 3) || !tf_const_ints(c, 1, "the shift", &shift, &ns) ||
      !tf_const_ints(c, 2, "the axes", &axes, &na))
    return false;
  if (ns != na) return tf_error(c, "shift and axis have different lengths (%d and %d)", ns, na);
  Value *x = c->in[0];
  int rank = x->type->rank;
  int64_t total[MAXR] = {0};
  for (int i = 0; i < na; i++) {
    int64_t a;
    if (!tf_axis(c, axes[i], rank, &a)) return false;
    total[a] += shift[i];
  }
  for (int d = 0; d < rank; d++) {
    int64_t dim = x->type->dims[d];
    if (dim == 0) continue;
    int64_t s = ((total[d] % dim) + dim) % dim;
    if (!s) continue;
    Value *parts[2] = {slice_dim(c, x, d, dim - s, dim), slice_dim(c, x, d, 0, dim - s)};
    x = concat(c, 2, parts, d);
  }
  tf_out(c, x);
  return true;
}

/* InvertPermutation: y[x[i]] = i. */
static bool lower_invert_permutation(TfCtx *c) {
  if (!need_inputs(c, 1)) return false;
  Value *x = c->in[0];
  if (x->type->rank != 1 || !et_is_int(x->type->elem))
    return tf_error(c, "the input must be a vector of integers");
  int64_t n = x->type->dims[0], two[2] = {n, 1};
  Value *zero = bld_const_i(&c->b, x->type, 0);
  Value *r =
      scatter_nd(c, zero, bld_reshape(&c->b, x, 2, two), iota(c, x->type->elem, 1, &n, 0), OP_ADD, true);
  if (!r) return false;
  tf_out(c, r);
  return true;
}

/* A pred tensor over the last two dimensions of `like` (rank >= 2):
   row - col compared with `k` by dir ("EQ", "LE", ...), k a rank-0 value
   of element type et (int64 or int32). */
static Value *diag_mask(TfCtx *c, const Type *like, ElemType et, Value *k, const char *dir,
                        bool col_minus_row) {
  int rank = like->rank;
  Type *it = bld_shape_of(&c->b, like, et);
  Value *row = iota(c, et, rank, like->dims, rank - 2), *col = iota(c, et, rank, like->dims, rank - 1);
  Value *diff = col_minus_row ? bld_sub(&c->b, col, row) : bld_sub(&c->b, row, col);
  return bld_compare(&c->b, diff, bld_splat(&c->b, k, it), dir);
}

/* MatrixBandPart: keeps row-col <= num_lower (all when negative) and
   col-row <= num_upper (all when negative), zeros elsewhere. */
static bool lower_matrix_band_part(TfCtx *c) {
  if (!need_inputs(c, 3)) return false;
  Value *x = c->in[0], *lo = c->in[1], *hi = c->in[2];
  const Type *t = x->type;
  if (t->rank < 2) return tf_error(c, "the input must have rank 2 or more");
  if (lo->type->rank != 0 || hi->type->rank != 0)
    return tf_error(c, "num_lower and num_upper must be scalars");
  ElemType et = lo->type->elem;
  if (!et_is_int(et) || hi->type->elem != et)
    return tf_error(c, "num_lower and num_upper must be integers of one type");
  Type *pt = bld_shape_of(&c->b, t, ET_PRED);
  Value *zero = bld_const_i(&c->b, type_scalar(&c->b.m->arena, et), 0);
  Value *lo_all = bld_splat(&c->b, bld_compare(&c->b, lo, zero, "LT"), pt);
  Value *hi_all = bld_splat(&c->b, bld_compare(&c->b, hi, zero, "LT"), pt);
  Value *keep_lo = bld_bin(&c->b, OP_OR, lo_all, diag_mask(c, t, et, lo, "LE", false));
  Value *keep_hi = bld_bin(&c->b, OP_OR, hi_all, diag_mask(c, t, et, hi, "LE", true));
  Value *keep = bld_bin(&c->b, OP_AND, keep_lo, keep_hi);
  tf_out(c, bld_select(&c->b, keep, x, bld_const_i(&c->b, t, 0)));
  return true;
}

/* MatrixDiag*, MatrixDiagPart*, MatrixSetDiag*: the V2/V3 forms only for
   the main diagonal (k = 0) and the default shapes. */
static bool main_diagonal_only(TfCtx *c, int k_input) {
  size_t len = strlen(c->node->op);
  if (len < 2 || c->node->op[len - 2] != 'V') return true; /* v1: the main diagonal */
  int64_t *k;
  int nk;
  if (!need_inputs(c, k_input + 1) || !tf_const_ints(c, k_input, "k", &k, &nk)) return false;
  for (int i = 0; i < nk; i++)
    if (k[i] != 0) return tf_error(c, "only the main diagonal (k = 0) is supported");
  return true;
}

static bool lower_matrix_diag(TfCtx *c) {
  if (!need_inputs(c, 1) || !main_diagonal_only(c, 1)) return false;
  Value *d = c->in[0];
  const Type *t = d->type;
  if (t->rank < 1) return tf_error(c, "the diagonal must have rank 1 or more");
  if (!check_rank(c, t->rank + 1)) return false;
  int64_t n = t->dims[t->rank - 1];
  Value *pad_v = NULL;
  if (c->nin >= 5) {
    int64_t *v;
    int nv;
    if (!tf_const_ints(c, 2, "num_rows", &v, &nv)) return false;
    int64_t rows = v[0];
    if (!tf_const_ints(c, 3, "num_cols", &v, &nv)) return false;
    if ((rows != -1 && rows != n) || (v[0] != -1 && v[0] != n))
      return tf_error(c, "only the default num_rows and num_cols (a square result) are supported");
    pad_v = c->in[4];
    if (pad_v->type->rank != 0 || pad_v->type->elem != t->elem)
      return tf_error(c, "padding_value must be a scalar of the diagonal's type");
  }
  int64_t dims[MAXR], map[MAXR];
  for (int i = 0; i < t->rank; i++) {
    dims[i] = t->dims[i];
    map[i] = i == t->rank - 1 ? t->rank : i;
  }
  dims[t->rank] = n;
  Type *ot = tf_type(c, t->elem, t->rank + 1, dims);
  Value *on =
      diag_mask(c, ot, ET_S64, bld_const_i(&c->b, type_scalar(&c->b.m->arena, ET_S64), 0), "EQ", false);
  Value *off = pad_v ? bld_splat(&c->b, pad_v, ot) : bld_const_i(&c->b, ot, 0);
  tf_out(c, bld_select(&c->b, on, bld_broadcast(&c->b, d, ot, t->rank, map), off));
  return true;
}

static bool lower_matrix_diag_part(TfCtx *c) {
  if (!need_inputs(c, 1) || !main_diagonal_only(c, 1)) return false;
  Value *x = c->in[0];
  const Type *t = x->type;
  int r = t->rank;
  if (r < 2) return tf_error(c, "the input must have rank 2 or more");
  int64_t m = t->dims[r - 2], n = t->dims[r - 1], k = m < n ? m : n;
  /* row-major [..., m*n]: the diagonal is every (n+1)-th element from 0 */
  int64_t dims[MAXR], start[MAXR] = {0}, limit[MAXR], stride[MAXR];
  for (int i = 0; i < r - 2; i++) {
    dims[i] = limit[i] = t->dims[i];
    stride[i] = 1;
  }
  dims[r - 2] = m * n;
  limit[r - 2] = k ? (k - 1) * (n + 1) + 1 : 0;
  stride[r - 2] = n + 1;
  tf_out(c, slice(c, bld_reshape(&c->b, x, r - 1, dims), start, limit, stride));
  return true;
}

static bool lower_matrix_set_diag(TfCtx *c) {
  if (!need_inputs(c, 2) || !main_diagonal_only(c, 2)) return false;
  Value *x = c->in[0], *d = c->in[1];
  const Type *t = x->type;
  int r = t->rank;
  if (r < 2) return tf_error(c, "the input must have rank 2 or more");
  int64_t m = t->dims[r - 2], n = t->dims[r - 1], k = m < n ? m : n;
  bool ok = d->type->rank == r - 1 && d->type->elem == t->elem && d->type->dims[r - 2] == k;
  for (int i = 0; ok && i < r - 2; i++) ok = d->type->dims[i] == t->dims[i];
  if (!ok) return tf_error(c, "the diagonal's shape does not fit the input's");
  /* d[..., i] spread along the other matrix dimension: over the rows'
     index when m <= n (k = m), else the columns' (k = n) */
  int64_t map[MAXR];
  for (int i = 0; i < r - 2; i++) map[i] = i;
  map[r - 2] = m <= n ? r - 2 : r - 1;
  Value *on =
      diag_mask(c, t, ET_S64, bld_const_i(&c->b, type_scalar(&c->b.m->arena, ET_S64), 0), "EQ", false);
  Value *spread = bld_broadcast(&c->b, d, t, r - 1, map);
  tf_out(c, bld_select(&c->b, on, spread, x));
  return true;
}

/* SpaceToDepth / DepthToSpace, NHWC (NCHW through transposes): blocks of
   block_size x block_size pixels to channels, (row, column, channel) order. */
static bool lower_depth_space(TfCtx *c) {
  bool to_depth = !strcmp(c->node->op, "SpaceToDepth");
  if (!need_inputs(c, 1)) return false;
  Value *x = c->in[0];
  if (x->type->rank != 4) return tf_error(c, "the input must have rank 4");
  int64_t b = tf_attr_int(c, "block_size", 0);
  if (b < 2) return tf_error(c, "block_size must be 2 or more");
  const char *fmt = tf_attr_str(c, "data_format", "NHWC");
  bool nchw = !strcmp(fmt, "NCHW");
  if (!nchw && strcmp(fmt, "NHWC"))
    return tf_error(c, "data_format '%s' is not supported (NHWC and NCHW are)", fmt);
  static const int64_t to_nhwc[4] = {0, 2, 3, 1}, to_nchw[4] = {0, 3, 1, 2};
  if (nchw) x = bld_transpose(&c->b, x, to_nhwc);
  const int64_t *d = x->type->dims;
  int64_t n = d[0], h = d[1], w = d[2], ch = d[3];
  static const int64_t perm[6] = {0, 1, 3, 2, 4, 5};
  Value *r;
  if (to_depth) {
    if (h % b || w % b)
      return tf_error(c, "the height %lld and width %lld must be multiples of block_size %lld", (long long)h,
                      (long long)w, (long long)b);
    int64_t split[6] = {n, h / b, b, w / b, b, ch}, out[4] = {n, h / b, w / b, b * b * ch};
    r = bld_reshape(&c->b, bld_transpose(&c->b, bld_reshape(&c->b, x, 6, split), perm), 4, out);
  } else {
    if (ch % (b * b))
      return tf_error(c, "the depth %lld must be a multiple of block_size^2 (%lld)", (long long)ch,
                      (long long)(b * b));
    int64_t split[6] = {n, h, w, b, b, ch / (b * b)}, out[4] = {n, h * b, w * b, ch / (b * b)};
    r = bld_reshape(&c->b, bld_transpose(&c->b, bld_reshape(&c->b, x, 6, split), perm), 4, out);
  }
  tf_out(c, nchw ? bld_transpose(&c->b, r, to_nchw) : r);
  return true;
}

/* The block shape and paddings/crops of SpaceToBatch(ND) and
   BatchToSpace(ND): m block dimensions after the batch. */
static bool read_blocks(TfCtx *c, int rank, int *m, int64_t *block, int64_t *lo, int64_t *hi,
                        const char *what) {
  bool nd = strstr(c->node->op, "ND") != NULL;
  if (nd) {
    int64_t *bs;
    int nb;
    if (!need_inputs(c, 3) || !tf_const_ints(c, 1, "block_shape", &bs, &nb)) return false;
    *m = nb;
    for (int i = 0; i < nb; i++) block[i] = bs[i];
  } else {
    *m = 2;
    block[0] = block[1] = tf_attr_int(c, "block_size", 0);
  }
  if (*m < 1 || *m > rank - 1) return tf_error(c, "%d block dimensions for a tensor of rank %d", *m, rank);
  int64_t *p, np;
  const Type *pt = NULL;
  if (!need_inputs(c, nd ? 3 : 2) || !const_ints_any(c, nd ? 2 : 1, what, &p, &np, &pt)) return false;
  if (pt->rank != 2 || pt->dims[0] != *m || pt->dims[1] != 2)
    return tf_error(c, "the %s must be of shape [%d, 2]", what, *m);
  for (int i = 0; i < *m; i++) {
    if (block[i] < 1) return tf_error(c, "block size %lld is not positive", (long long)block[i]);
    lo[i] = p[2 * i];
    hi[i] = p[2 * i + 1];
    if (lo[i] < 0 || hi[i] < 0) return tf_error(c, "the %s must be non-negative", what);
  }
  return true;
}

/* SpaceToBatchND: pad the block dimensions, split each into (size/b, b),
   move the b's in front of the batch, merge them into it. */
static bool lower_space_to_batch(TfCtx *c) {
  if (!need_inputs(c, 2)) return false;
  Value *x = c->in[0];
  int rank = x->type->rank, m;
  int64_t block[MAXR], lo[MAXR], hi[MAXR];
  if (!read_blocks(c, rank, &m, block, lo, hi, "paddings")) return false;
  if (!check_rank(c, rank + m)) return false;
  int64_t plo[MAXR] = {0}, phi[MAXR] = {0};
  for (int i = 0; i < m; i++) {
    plo[1 + i] = lo[i];
    phi[1 + i] = hi[i];
  }
  x = pad(c, x, bld_const_i(&c->b, type_scalar(&c->b.m->arena, x->type->elem), 0), plo, phi);
  const int64_t *d = x->type->dims;
  int64_t split[MAXR], perm[MAXR], out[MAXR], batch = d[0];
  split[0] = d[0];
  for (int i = 0; i < m; i++) {
    if (d[1 + i] % block[i])
      return tf_error(c, "padded dimension %d (%lld) is not a multiple of its block size %lld", 1 + i,
                      (long long)d[1 + i], (long long)block[i]);
    split[1 + 2 * i] = d[1 + i] / block[i];
    split[2 + 2 * i] = block[i];
    batch *= block[i];
  }
  for (int i = 1 + m; i < rank; i++) split[m + i] = d[i];
  /* [b_1..b_m, batch, s_1..s_m, rest] */
  int k = 0;
  for (int i = 0; i < m; i++) perm[k++] = 2 + 2 * i;
  perm[k++] = 0;
  for (int i = 0; i < m; i++) perm[k++] = 1 + 2 * i;
  for (int i = 1 + m; i < rank; i++) perm[k++] = m + i;
  out[0] = batch;
  for (int i = 0; i < m; i++) out[1 + i] = split[1 + 2 * i];
  for (int i = 1 + m; i < rank; i++) out[i] = d[i];
  Value *t = bld_transpose(&c->b, bld_reshape(&c->b, x, rank + m, split), perm);
  tf_out(c, bld_reshape(&c->b, t, rank, out));
  return true;
}

/* BatchToSpaceND: the inverse: split the batch into (b_1..b_m, batch'),
   interleave each b with its dimension, merge, then crop. */
static bool lower_batch_to_space(TfCtx *c) {
  if (!need_inputs(c, 2)) return false;
  Value *x = c->in[0];
  int rank = x->type->rank, m;
  int64_t block[MAXR], lo[MAXR], hi[MAXR];
  if (!read_blocks(c, rank, &m, block, lo, hi, "crops")) return false;
  if (!check_rank(c, rank + m)) return false;
  const int64_t *d = x->type->dims;
  int64_t prod = 1;
  for (int i = 0; i < m; i++) prod *= block[i];
  if (d[0] % prod)
    return tf_error(c, "the batch %lld is not a multiple of the blocks' product %lld", (long long)d[0],
                    (long long)prod);
  int64_t split[MAXR], perm[MAXR], merged[MAXR], start[MAXR] = {0}, limit[MAXR];
  for (int i = 0; i < m; i++) split[i] = block[i];
  split[m] = d[0] / prod;
  for (int i = 1; i < rank; i++) split[m + i] = d[i];
  /* [batch', s_1, b_1, ..., s_m, b_m, rest] */
  int k = 0;
  perm[k++] = m;
  for (int i = 0; i < m; i++) {
    perm[k++] = m + 1 + i;
    perm[k++] = i;
  }
  for (int i = 1 + m; i < rank; i++) perm[k++] = m + i;
  merged[0] = d[0] / prod;
  for (int i = 0; i < m; i++) merged[1 + i] = d[1 + i] * block[i];
  for (int i = 1 + m; i < rank; i++) merged[i] = d[i];
  for (int i = 0; i < rank; i++) limit[i] = merged[i];
  for (int i = 0; i < m; i++) {
    if (lo[i] + hi[i] > merged[1 + i])
      return tf_error(c, "the crops of dimension %d exceed its size %lld", 1 + i, (long long)merged[1 + i]);
    start[1 + i] = lo[i];
    limit[1 + i] = merged[1 + i] - hi[i];
  }
  Value *t = bld_transpose(&c->b, bld_reshape(&c->b, x, rank + m, split), perm);
  tf_out(c, slice(c, bld_reshape(&c->b, t, rank, merged), start, limit, NULL));
  return true;
}

/* Where with one input: the coordinates of the true elements, whose
   number is only known when the program runs. */
static bool lower_where(TfCtx *c) {
  return tf_error(c, "the result's shape depends on the input's values (how many are true); "
                     "only static shapes compile, as in tfcompile");
}

const TfOpDef tf_ops_array[] = {
    {"BatchToSpace", lower_batch_to_space, NULL, NULL},
    {"BatchToSpaceND", lower_batch_to_space, NULL, NULL},
    {"BroadcastArgs", lower_broadcast_args, NULL, "constant shapes"},
    {"BroadcastTo", lower_broadcast_to, NULL, NULL},
    {"CheckNumerics", lower_identity, NULL, "identity: no check at run time"},
    {"Concat", lower_concat, NULL, NULL},
    {"ConcatV2", lower_concat, NULL, NULL},
    {"ConjugateTranspose", lower_transpose, NULL, NULL},
    {"DepthToSpace", lower_depth_space, NULL, "NHWC and NCHW"},
    {"EnsureShape", lower_ensure_shape, NULL, "checked at compile time"},
    {"ExpandDims", lower_expand_dims, NULL, NULL},
    {"Fill", lower_fill, NULL, NULL},
    {"Gather", lower_gather, NULL, "out-of-range indices clamped"},
    {"GatherNd", lower_gather_nd, NULL, "out-of-range indices clamped"},
    {"GatherV2", lower_gather, NULL, "batch_dims; out-of-range indices clamped"},
    {"Identity", lower_identity, NULL, NULL},
    {"InvertPermutation", lower_invert_permutation, NULL, NULL},
    {"IdentityN", lower_identity_n, NULL, NULL},
    {"LinSpace", lower_lin_space, NULL, NULL},
    {"MatrixBandPart", lower_matrix_band_part, NULL, NULL},
    {"MatrixDiag", lower_matrix_diag, NULL, NULL},
    {"MatrixDiagPart", lower_matrix_diag_part, NULL, NULL},
    {"MatrixDiagPartV2", lower_matrix_diag_part, NULL, "main diagonal (k = 0)"},
    {"MatrixDiagPartV3", lower_matrix_diag_part, NULL, "main diagonal (k = 0)"},
    {"MatrixDiagV2", lower_matrix_diag, NULL, "main diagonal (k = 0), square"},
    {"MatrixDiagV3", lower_matrix_diag, NULL, "main diagonal (k = 0), square"},
    {"MatrixSetDiag", lower_matrix_set_diag, NULL, NULL},
    {"MatrixSetDiagV2", lower_matrix_set_diag, NULL, "main diagonal (k = 0)"},
    {"MatrixSetDiagV3", lower_matrix_set_diag, NULL, "main diagonal (k = 0)"},
    {"MirrorPad", lower_mirror_pad, NULL, "REFLECT and SYMMETRIC"},
    {"NoOp", lower_noop, NULL, NULL},
    {"OneHot", lower_one_hot, NULL, NULL},
    {"Pack", lower_pack, NULL, NULL},
    {"Pad", lower_pad, NULL, NULL},
    {"PadV2", lower_pad, NULL, NULL},
    {"PreventGradient", lower_identity, NULL, NULL},
    {"Range", lower_range, NULL, "constant inputs"},
    {"Rank", lower_rank, NULL, NULL},
    {"Reshape", lower_reshape, NULL, NULL},
    {"Reverse", lower_reverse, NULL, NULL},
    {"ReverseV2", lower_reverse, NULL, NULL},
    {"Roll", lower_roll, NULL, NULL},
    {"ScatterNd", lower_scatter_nd, NULL, "out-of-range indices dropped"},
    {"Shape", lower_shape, NULL, NULL},
    {"ShapeN", lower_shape_n, NULL, NULL},
    {"Size", lower_size, NULL, NULL},
    {"Slice", lower_slice, NULL, NULL},
    {"Snapshot", lower_identity, NULL, NULL},
    {"SpaceToBatch", lower_space_to_batch, NULL, NULL},
    {"SpaceToBatchND", lower_space_to_batch, NULL, NULL},
    {"SpaceToDepth", lower_depth_space, NULL, "NHWC and NCHW"},
    {"Split", lower_split, NULL, NULL},
    {"SplitV", lower_split, NULL, NULL},
    {"Squeeze", lower_squeeze, NULL, NULL},
    {"StopGradient", lower_identity, NULL, NULL},
    {"StridedSlice", lower_strided_slice, NULL, "all masks"},
    {"TensorScatterAdd", lower_tensor_scatter, NULL, "out-of-range indices dropped"},
    {"TensorScatterMax", lower_tensor_scatter, NULL, "out-of-range indices dropped"},
    {"TensorScatterMin", lower_tensor_scatter, NULL, "out-of-range indices dropped"},
    {"TensorScatterSub", lower_tensor_scatter, NULL, "out-of-range indices dropped"},
    {"TensorScatterUpdate", lower_tensor_scatter, NULL, "out-of-range indices dropped"},
    {"Tile", lower_tile, NULL, NULL},
    {"Transpose", lower_transpose, NULL, NULL},
    {"Unpack", lower_unpack, NULL, NULL},
    {"Where", lower_where, NULL, "rejected: dynamic shape"},
    {NULL, NULL, NULL, NULL},
};
