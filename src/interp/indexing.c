/*
 * indexing.c - interpreter ops that address elements through index values:
 * dynamic_slice, dynamic_update_slice, real_dynamic_slice, gather,
 * dynamic_gather, scatter and torch_index_select.
 *
 * Gather and scatter follow the spec's formulas literally (start index,
 * batching index, window/offset index, summed per operand dimension) so
 * that batching dimensions and an implicit trailing index vector dimension
 * fall out of the same code.  Gather and the dynamic slices clamp their
 * start indices into range as the spec says; scatter never clamps: where
 * an update window does not lie wholly inside the result (its start index
 * below 0 or above the dimension less the window's size in any dimension)
 * the whole window is skipped, even its elements that would land inside,
 * as XLA does and JAX's "drop" mode of scatter relies on (the spec leaves
 * it to the implementation).  The other updates are applied one by one in
 * row-major order of the update index space, which makes results with
 * duplicate indices deterministic.
 */
#include <stdlib.h>
#include <string.h>

#include "interp/interp.h"

#define MAX_RANK 64

static bool need_tensor(Interp *I, Op *op, IVal **args, int i) {
  if (i >= op->nopnds || !args[i] || args[i]->kind != IV_TENSOR)
    return interp_error(I, op, "operand %d must be a tensor", i);
  return true;
}

static bool check_rank(Interp *I, Op *op, int rank) {
  if (rank > MAX_RANK) return interp_error(I, op, "rank %d is too large (max %d)", rank, MAX_RANK);
  return true;
}

/* Reads an index element as int64, saturating huge unsigned values. */
static int64_t index_elem(const Literal *l, int64_t i) {
  if (et_is_unsigned(lit_elem(l))) {
    uint64_t u = lit_get_u(l, i);
    return u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)u;
  }
  /* the verifier only admits integer indices; never convert a float */
  if (!et_is_int(lit_elem(l))) return 0;
  return lit_get_i(l, i);
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

static Literal *new_result(Interp *I, Op *op, int r, const Literal *like) {
  const Type *t = op->res[r].type;
  if (!t || t->kind != TY_TENSOR) {
    interp_error(I, op, "result %d is not a tensor", r);
    return NULL;
  }
  if (like && et_bytes(t->elem) != et_bytes(lit_elem(like))) {
    interp_error(I, op, "result %d element type does not match the operand", r);
    return NULL;
  }
  if (!check_rank(I, op, t->rank)) return NULL;
  return lit_new(t);
}

/* ---- dynamic slices ---- */

/* Collects the start indices of dynamic_slice / dynamic_update_slice from
   the operands starting at `first`: one scalar per dimension, or a single
   1-D tensor (older HLO form). */
static bool read_starts(Interp *I, Op *op, IVal **args, int first, int rank, int64_t *starts) {
  int n = op->nopnds - first;
  for (int i = 0; i < n; i++)
    if (!need_tensor(I, op, args, first + i)) return false;
  if (n == rank && (rank != 1 || ARG_LIT(first)->n == 1)) {
    for (int d = 0; d < rank; d++) {
      if (ARG_LIT(first + d)->n != 1) return interp_error(I, op, "start index %d is not a scalar", d);
      starts[d] = index_elem(ARG_LIT(first + d), 0);
    }
    return true;
  }
  if (n == 1 && ARG_LIT(first)->n == rank) {
    for (int d = 0; d < rank; d++) starts[d] = index_elem(ARG_LIT(first), d);
    return true;
  }
  return interp_error(I, op, "expected %d start indices", rank);
}

/* Copies the box of `sizes` at `starts` of src into dst (row-major), or the
   reverse when `into` is set (dst's box receives all of src). */
static void box_copy(Literal *box, Literal *big, const int64_t *starts, bool into) {
  const Type *bt = big->type, *xt = box->type;
  int nb = et_bytes(lit_elem(big));
  int64_t bs[MAX_RANK], idx[MAX_RANK] = {0};
  shape_strides(bt->rank, bt->dims, bs);
  for (int64_t i = 0; i < box->n; i++) {
    int64_t off = 0;
    for (int d = 0; d < bt->rank; d++) off += (starts[d] + idx[d]) * bs[d];
    if (into)
      memcpy((char *)big->data + off * nb, (char *)box->data + i * nb, (size_t)nb);
    else
      memcpy((char *)box->data + i * nb, (char *)big->data + off * nb, (size_t)nb);
    index_next(xt->rank, xt->dims, idx);
  }
}

bool interp_DYNAMIC_SLICE(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensor(I, op, args, 0)) return false;
  Literal *x = ARG_LIT(0);
  int rank = x->type->rank;
  int64_t starts[MAX_RANK], *sizes = NULL;
  if (!check_rank(I, op, rank) || !read_starts(I, op, args, 1, rank, starts)) return false;
  int ns = op_attr_ints(op, "slice_sizes", &sizes);
  Literal *out = new_result(I, op, 0, x);
  if (!out) return false;
  bool ok = out->type->rank == rank && (ns == rank || ns == 0);
  for (int d = 0; ok && d < rank; d++) {
    int64_t sz = out->type->dims[d];
    ok = sz <= x->type->dims[d] && (ns == 0 || sizes[d] == sz);
    starts[d] = clamp64(starts[d], 0, x->type->dims[d] - sz);
  }
  if (!ok) {
    lit_free(out);
    return interp_error(I, op, "slice_sizes do not fit the operand and result shapes");
  }
  box_copy(out, x, starts, false);
  res[0] = ival_tensor(out);
  return true;
}

bool interp_DYNAMIC_UPDATE_SLICE(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensor(I, op, args, 0) || !need_tensor(I, op, args, 1)) return false;
  Literal *x = ARG_LIT(0), *u = ARG_LIT(1);
  int rank = x->type->rank;
  int64_t starts[MAX_RANK];
  if (!check_rank(I, op, rank) || !read_starts(I, op, args, 2, rank, starts)) return false;
  bool ok = u->type->rank == rank && et_bytes(lit_elem(u)) == et_bytes(lit_elem(x));
  for (int d = 0; ok && d < rank; d++) {
    ok = u->type->dims[d] <= x->type->dims[d];
    starts[d] = clamp64(starts[d], 0, x->type->dims[d] - u->type->dims[d]);
  }
  if (!ok) return interp_error(I, op, "update does not fit in the operand");
  Literal *out = new_result(I, op, 0, x);
  if (!out) return false;
  if (out->n != x->n) {
    lit_free(out);
    return interp_error(I, op, "result shape differs from the operand");
  }
  if (x->n) memcpy(out->data, x->data, (size_t)x->n * (size_t)et_bytes(lit_elem(x)));
  box_copy(u, out, starts, true);
  res[0] = ival_tensor(out);
  return true;
}

/* real_dynamic_slice(operand, start_indices, limit_indices, strides): a
   slice whose bounds are 1-D tensors; out-of-range bounds are an error. */
bool interp_REAL_DYNAMIC_SLICE(Interp *I, Op *op, IVal **args, IVal **res) {
  for (int i = 0; i < 4; i++)
    if (!need_tensor(I, op, args, i)) return false;
  Literal *x = ARG_LIT(0);
  const Type *xt = x->type;
  int rank = xt->rank;
  if (!check_rank(I, op, rank)) return false;
  for (int i = 1; i < 4; i++)
    if (ARG_LIT(i)->n != rank) return interp_error(I, op, "operand %d must have %d entries", i, rank);
  Literal *out = new_result(I, op, 0, x);
  if (!out) return false;
  const Type *t = out->type;
  bool ok = t->rank == rank;
  int64_t start[MAX_RANK], stride[MAX_RANK];
  for (int d = 0; ok && d < rank; d++) {
    start[d] = index_elem(ARG_LIT(1), d);
    int64_t limit = index_elem(ARG_LIT(2), d);
    stride[d] = index_elem(ARG_LIT(3), d);
    ok = stride[d] > 0 && start[d] >= 0 && limit <= xt->dims[d] &&
         (limit > start[d] ? (limit - start[d] - 1) / stride[d] + 1 : 0) == t->dims[d];
  }
  if (!ok) {
    lit_free(out);
    return interp_error(I, op, "slice bounds do not fit the operand and result shapes");
  }
  int nb = et_bytes(t->elem);
  int64_t xs[MAX_RANK], idx[MAX_RANK] = {0};
  shape_strides(rank, xt->dims, xs);
  for (int64_t i = 0; i < out->n; i++) {
    int64_t off = 0;
    for (int d = 0; d < rank; d++) off += (start[d] + idx[d] * stride[d]) * xs[d];
    memcpy((char *)out->data + i * nb, (char *)x->data + off * nb, (size_t)nb);
    index_next(rank, t->dims, idx);
  }
  res[0] = ival_tensor(out);
  return true;
}

/* ---- gather ---- */

/* Dimension numbers shared by gather and scatter, named after gather's. */
typedef struct DimNums {
  int64_t *offset, *collapsed, *obatch, *ibatch, *map;
  int noffset, ncollapsed, nobatch, nibatch, nmap;
  int64_t ivd;
} DimNums;

/* Reads gather-style dimension numbers; `scatter` selects scatter's names. */
static bool read_dimnums(Interp *I, Op *op, bool scatter, DimNums *dn) {
  Attr *a = op_attr(op, scatter ? "scatter_dimension_numbers" : "dimension_numbers");
  if (!a || a->kind != ATTR_DICT) return interp_error(I, op, "missing dimension numbers");
  memset(dn, 0, sizeof *dn);
  dn->noffset = dict_ints(a, scatter ? "update_window_dims" : "offset_dims", &dn->offset);
  dn->ncollapsed = dict_ints(a, scatter ? "inserted_window_dims" : "collapsed_slice_dims",
                             &dn->collapsed);
  dn->nobatch = dict_ints(a, scatter ? "input_batching_dims" : "operand_batching_dims", &dn->obatch);
  dn->nibatch = dict_ints(a, scatter ? "scatter_indices_batching_dims" : "start_indices_batching_dims",
                          &dn->ibatch);
  dn->nmap = dict_ints(a, scatter ? "scatter_dims_to_operand_dims" : "start_index_map", &dn->map);
  dn->ivd = dict_int(a, "index_vector_dim", 0); /* absent means 0, as in the generic form */
  if (dn->noffset < 0 || dn->ncollapsed < 0 || dn->nobatch < 0 || dn->nibatch < 0 || dn->nmap < 0)
    return interp_error(I, op, "malformed dimension numbers");
  return true;
}

/* Checks the dimension numbers against operand rank `rank`, index tensor
   `idx` and the rank of the result (gather) / updates (scatter). */
static bool check_dimnums(Interp *I, Op *op, const DimNums *dn, int rank, const Literal *idx,
                          int other_rank) {
  int irank = idx->type->rank;
  if (dn->ivd < 0 || dn->ivd > irank) return interp_error(I, op, "index_vector_dim out of range");
  int64_t vec = dn->ivd < irank ? idx->type->dims[dn->ivd] : 1;
  if (dn->nmap != vec) return interp_error(I, op, "index vector size differs from the index map");
  if (dn->noffset + dn->ncollapsed + dn->nobatch != rank && op->kind != OP_SCATTER)
    return interp_error(I, op, "offset, collapsed and batching dims do not cover the operand");
  if (dn->noffset > other_rank || !ints_in_range(dn->offset, dn->noffset, other_rank) ||
      !ints_in_range(dn->collapsed, dn->ncollapsed, rank) ||
      !ints_in_range(dn->obatch, dn->nobatch, rank) || !ints_in_range(dn->map, dn->nmap, rank) ||
      !ints_in_range(dn->ibatch, dn->nibatch, irank) || dn->nobatch != dn->nibatch ||
      ints_contain(dn->ibatch, dn->nibatch, dn->ivd))
    return interp_error(I, op, "dimension numbers out of range");
  if (other_rank - dn->noffset != irank - (dn->ivd < irank ? 1 : 0))
    return interp_error(I, op, "batch dimensions do not match the index tensor");
  return true;
}

/* Computes full_start_index + full_batching_index for one batch index (the
   non-offset dims of the result or updates, in order).  Gather clamps the
   start index (with the slice sizes), scatter does not (sizes == NULL). */
static void start_plus_batch(const DimNums *dn, const Literal *idx, const int64_t *batch,
                             const int64_t *opdims, const int64_t *sizes, int rank, int64_t *out) {
  const Type *it = idx->type;
  int64_t is[MAX_RANK], pos[MAX_RANK];
  shape_strides(it->rank, it->dims, is);
  int64_t base = 0;
  for (int k = 0, b = 0; k < it->rank; k++) {
    if (k == dn->ivd) continue;
    pos[k] = batch[b++];
    base += pos[k] * is[k];
  }
  for (int d = 0; d < rank; d++) out[d] = 0;
  for (int j = 0; j < dn->nmap; j++) {
    int64_t v = index_elem(idx, base + (dn->ivd < it->rank ? j * is[dn->ivd] : 0));
    int64_t d = dn->map[j];
    /* scatter does not clamp, but anything this far out is out of bounds
       anyway, and bounding it keeps the sums below from overflowing */
    out[d] = sizes ? clamp64(v, 0, opdims[d] - sizes[d]) : clamp64(v, -(INT64_C(1) << 40), INT64_C(1) << 40);
  }
  for (int i = 0; i < dn->nobatch; i++) {
    int64_t ds = dn->ibatch[i];
    out[dn->obatch[i]] += batch[ds - (ds < dn->ivd ? 0 : 1)];
  }
}

static bool gather_core(Interp *I, Op *op, const Literal *x, const Literal *idx,
                        const int64_t *sizes, int nsizes, IVal **res) {
  const Type *xt = x->type;
  int rank = xt->rank;
  DimNums dn;
  if (!check_rank(I, op, rank) || !check_rank(I, op, idx->type->rank)) return false;
  if (!read_dimnums(I, op, false, &dn)) return false;
  if (!et_is_int(lit_elem(idx))) return interp_error(I, op, "start indices must be integers");
  if (nsizes != rank) return interp_error(I, op, "slice_sizes must have %d entries", rank);
  for (int d = 0; d < rank; d++)
    if (sizes[d] < 0 || sizes[d] > xt->dims[d])
      return interp_error(I, op, "slice size %lld of dimension %d is out of range",
                          (long long)sizes[d], d);
  Literal *out = new_result(I, op, 0, x);
  if (!out) return false;
  const Type *t = out->type;
  if (!check_dimnums(I, op, &dn, rank, idx, t->rank)) {
    lit_free(out);
    return false;
  }
  /* operand dims that receive offset_index entries, in order */
  int64_t offdst[MAX_RANK];
  int noff = 0;
  for (int d = 0; d < rank; d++)
    if (!ints_contain(dn.collapsed, dn.ncollapsed, d) && !ints_contain(dn.obatch, dn.nobatch, d))
      offdst[noff++] = d;
  if (noff != dn.noffset) {
    lit_free(out);
    return interp_error(I, op, "offset_dims count does not match the operand");
  }
  int nb = et_bytes(t->elem);
  int64_t xs[MAX_RANK], ridx[MAX_RANK] = {0}, batch[MAX_RANK], full[MAX_RANK];
  shape_strides(rank, xt->dims, xs);
  for (int64_t i = 0; i < out->n; i++) {
    int nbatch = 0, k = 0;
    for (int d = 0; d < t->rank; d++)
      if (!ints_contain(dn.offset, dn.noffset, d)) batch[nbatch++] = ridx[d];
    start_plus_batch(&dn, idx, batch, xt->dims, sizes, rank, full);
    for (int d = 0; d < t->rank; d++)
      if (ints_contain(dn.offset, dn.noffset, d)) full[offdst[k++]] += ridx[d];
    int64_t off = 0;
    for (int d = 0; d < rank; d++) {
      if (full[d] < 0 || full[d] >= xt->dims[d]) {
        lit_free(out);
        return interp_error(I, op, "gather index out of bounds in dimension %d", d);
      }
      off += full[d] * xs[d];
    }
    memcpy((char *)out->data + i * nb, (const char *)x->data + off * nb, (size_t)nb);
    index_next(t->rank, t->dims, ridx);
  }
  res[0] = ival_tensor(out);
  return true;
}

bool interp_GATHER(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensor(I, op, args, 0) || !need_tensor(I, op, args, 1)) return false;
  int64_t *sizes = NULL;
  int n = op_attr_ints(op, "slice_sizes", &sizes);
  return gather_core(I, op, ARG_LIT(0), ARG_LIT(1), sizes, n, res);
}

bool interp_DYNAMIC_GATHER(Interp *I, Op *op, IVal **args, IVal **res) {
  for (int i = 0; i < 3; i++)
    if (!need_tensor(I, op, args, i)) return false;
  const Literal *s = ARG_LIT(2);
  if (s->n > MAX_RANK) return interp_error(I, op, "too many slice sizes");
  int64_t sizes[MAX_RANK];
  for (int64_t i = 0; i < s->n; i++) sizes[i] = index_elem(s, i);
  return gather_core(I, op, ARG_LIT(0), ARG_LIT(1), sizes, (int)s->n, res);
}

/* torch_index_select(operand, index) {dim, batch_dims}: result shape is
   operand[:dim] ++ index[batch_dims:] ++ operand[dim+1:], where the first
   batch_dims dimensions are shared by operand and index. */
bool interp_TORCH_INDEX_SELECT(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensor(I, op, args, 0) || !need_tensor(I, op, args, 1)) return false;
  const Literal *x = ARG_LIT(0), *ix = ARG_LIT(1);
  const Type *xt = x->type, *it = ix->type;
  int64_t dim = op_attr_int(op, "dim", 0), bd = op_attr_int(op, "batch_dims", 0);
  if (!check_rank(I, op, xt->rank) || !check_rank(I, op, it->rank)) return false;
  if (dim < 0) dim += xt->rank;
  if (bd < 0) bd += it->rank;
  if (dim < 0 || dim >= xt->rank || bd < 0 || bd > dim || bd > it->rank ||
      !et_is_int(lit_elem(ix)))
    return interp_error(I, op, "invalid dim / batch_dims");
  Literal *out = new_result(I, op, 0, x);
  if (!out) return false;
  const Type *t = out->type;
  int nidx = it->rank - (int)bd;
  if (t->rank != xt->rank - 1 + nidx) {
    lit_free(out);
    return interp_error(I, op, "result rank does not match operand and index");
  }
  int nb = et_bytes(t->elem);
  int64_t xs[MAX_RANK], is[MAX_RANK], r[MAX_RANK] = {0};
  shape_strides(xt->rank, xt->dims, xs);
  shape_strides(it->rank, it->dims, is);
  for (int64_t i = 0; i < out->n; i++) {
    int64_t ioff = 0, xoff = 0;
    for (int k = 0; k < bd; k++) ioff += r[k] * is[k];
    for (int k = 0; k < nidx; k++) ioff += r[dim + k] * is[bd + k];
    int64_t v = index_elem(ix, ioff);
    if (v < 0 || v >= xt->dims[dim]) {
      lit_free(out);
      return interp_error(I, op, "index %lld out of range [0, %lld)", (long long)v,
                          (long long)xt->dims[dim]);
    }
    for (int k = 0; k < dim; k++) xoff += r[k] * xs[k];
    xoff += v * xs[dim];
    for (int k = (int)dim + 1; k < xt->rank; k++) xoff += r[k - 1 + nidx] * xs[k];
    memcpy((char *)out->data + i * nb, (const char *)x->data + xoff * nb, (size_t)nb);
    index_next(t->rank, t->dims, r);
  }
  res[0] = ival_tensor(out);
  return true;
}

/* ---- scatter ---- */

/* Scalar literals for the arguments of a region (typed like the block
   arguments), reused across calls. */
typedef struct RegionArgs {
  int n;
  Literal *lits[16];
} RegionArgs;

static bool region_args_init(Interp *I, Op *op, Block *b, int n, RegionArgs *ra) {
  ra->n = 0;
  if (!b || b->nargs != n || n > 16) return interp_error(I, op, "region must take %d arguments", n);
  for (int i = 0; i < n; i++) {
    const Type *t = b->args[i]->type;
    if (!t || t->kind != TY_TENSOR || t->rank != 0) {
      for (int k = 0; k < ra->n; k++) lit_free(ra->lits[k]);
      ra->n = 0;
      return interp_error(I, op, "region argument %d must be a scalar tensor", i);
    }
    ra->lits[ra->n++] = lit_new(t);
  }
  return true;
}

static void region_args_free(RegionArgs *ra) {
  for (int i = 0; i < ra->n; i++) lit_free(ra->lits[i]);
  ra->n = 0;
}

bool interp_SCATTER(Interp *I, Op *op, IVal **args, IVal **res) {
  if (op->nopnds < 3 || op->nopnds % 2 == 0) return interp_error(I, op, "bad scatter operand count");
  int n = (op->nopnds - 1) / 2;
  if (op->nres != n || op->nregions != 1) return interp_error(I, op, "bad scatter result count");
  for (int i = 0; i < op->nopnds; i++)
    if (!need_tensor(I, op, args, i)) return false;
  const Literal *idx = ARG_LIT(n), *u0 = ARG_LIT(n + 1);
  const Type *xt = ARG_LIT(0)->type, *ut = u0->type;
  int rank = xt->rank;
  DimNums dn;
  if (!check_rank(I, op, rank) || !check_rank(I, op, ut->rank) ||
      !check_rank(I, op, idx->type->rank) || !read_dimnums(I, op, true, &dn) ||
      !check_dimnums(I, op, &dn, rank, idx, ut->rank))
    return false;
  if (!et_is_int(lit_elem(idx))) return interp_error(I, op, "scatter indices must be integers");
  if (dn.noffset + dn.ncollapsed + dn.nobatch != rank)
    return interp_error(I, op, "window, inserted and batching dims do not cover the input");
  for (int k = 0; k < n; k++) {
    if (!type_same_shape(ARG_LIT(k)->type, xt) || !type_same_shape(ARG_LIT(n + 1 + k)->type, ut))
      return interp_error(I, op, "inputs (or updates) differ in shape");
  }
  /* input dims that receive update_window_index entries, in order */
  int64_t windst[MAX_RANK], wsize[MAX_RANK];
  int nwin = 0;
  for (int d = 0; d < rank; d++) {
    wsize[d] = 1;
    if (!ints_contain(dn.collapsed, dn.ncollapsed, d) && !ints_contain(dn.obatch, dn.nobatch, d))
      windst[nwin++] = d;
  }
  for (int d = 0, k = 0; d < ut->rank; d++)
    if (ints_contain(dn.offset, dn.noffset, d)) wsize[windst[k++]] = ut->dims[d];
  Literal *outs[8];
  if (n > 8) return interp_error(I, op, "too many scatter inputs");
  for (int k = 0; k < n; k++) {
    outs[k] = new_result(I, op, k, ARG_LIT(k));
    if (!outs[k] || outs[k]->n != ARG_LIT(k)->n) {
      if (outs[k]) interp_error(I, op, "result %d shape differs from input", k);
      for (int j = 0; j <= k; j++) lit_free(outs[j]);
      return false;
    }
    if (outs[k]->n)
      memcpy(outs[k]->data, ARG_LIT(k)->data,
             (size_t)outs[k]->n * (size_t)et_bytes(lit_elem(outs[k])));
  }
  RegionArgs ra;
  bool ok = region_args_init(I, op, op->regions[0], 2 * n, &ra);
  int64_t xs[MAX_RANK], uidx[MAX_RANK] = {0}, batch[MAX_RANK], full[MAX_RANK];
  shape_strides(rank, xt->dims, xs);
  for (int64_t i = 0; ok && i < u0->n; i++) {
    int nbatch = 0, k = 0;
    for (int d = 0; d < ut->rank; d++)
      if (!ints_contain(dn.offset, dn.noffset, d)) batch[nbatch++] = uidx[d];
    start_plus_batch(&dn, idx, batch, xt->dims, NULL, rank, full);
    bool inside = true;
    for (int d = 0; d < rank && inside; d++) inside = full[d] >= 0 && full[d] <= xt->dims[d] - wsize[d];
    for (int d = 0; d < ut->rank; d++)
      if (ints_contain(dn.offset, dn.noffset, d)) full[windst[k++]] += uidx[d];
    int64_t off = 0;
    for (int d = 0; d < rank && inside; d++) off += full[d] * xs[d];
    if (inside) {
      for (int j = 0; j < n; j++) {
        lit_convert_elem(ra.lits[j], 0, outs[j], off);
        lit_convert_elem(ra.lits[n + j], 0, ARG_LIT(n + 1 + j), i);
      }
      Literal *r[8] = {0};
      ok = interp_run_scalar_region(I, op->regions[0], 2 * n, ra.lits, n, r);
      for (int j = 0; j < n; j++) {
        if (ok && r[j]->n != 1) ok = interp_error(I, op, "update computation must return scalars");
        if (ok) lit_convert_elem(outs[j], off, r[j], 0);
        lit_free(r[j]);
      }
    }
    index_next(ut->rank, ut->dims, uidx);
  }
  region_args_free(&ra);
  for (int k = 0; k < n; k++) {
    if (ok) res[k] = ival_tensor(outs[k]);
    else lit_free(outs[k]);
  }
  return ok;
}
