/*
 * transpose_plan.c - a transpose's permutation reduced to one matrix
 * transpose over batch indices (transpose_plan.h).
 */
#include "codegen/transpose_plan.h"

bool transpose_plan(const int64_t *dims_in, const int64_t *perm_in, int rank, TransposePlan *p) {
  /* drop dimensions of size 1 */
  int newid[CG_MAX_RANK];
  int64_t dims[CG_MAX_RANK];
  int perm[CG_MAX_RANK];
  int r = 0;
  for (int d = 0; d < rank; d++) {
    newid[d] = dims_in[d] == 1 ? -1 : r;
    if (dims_in[d] != 1) dims[r++] = dims_in[d];
  }
  int m = 0;
  for (int i = 0; i < rank; i++)
    if (newid[perm_in[i]] >= 0) perm[m++] = newid[perm_in[i]];
  /* merge runs of input dimensions that are consecutive in the result:
     group g covers input dimensions first[g] .. first[g] + len[g] - 1 */
  int ng = 0, gfirst[CG_MAX_RANK], glen[CG_MAX_RANK];
  for (int i = 0; i < r; i++) {
    if (i > 0 && perm[i] == perm[i - 1] + 1) {
      glen[ng - 1]++;
    } else {
      gfirst[ng] = perm[i];
      glen[ng++] = 1;
    }
  }
  /* the groups in operand order give the merged dimensions */
  int gid_of_first[CG_MAX_RANK];
  for (int d = 0; d < r; d++) gid_of_first[d] = -1;
  for (int g = 0; g < ng; g++) gid_of_first[gfirst[g]] = g;
  int64_t cdims[CG_MAX_RANK];
  int cid[CG_MAX_RANK]; /* group -> merged dimension */
  int c = 0;
  for (int d = 0; d < r; d++) {
    int g = gid_of_first[d];
    if (g < 0) continue;
    int64_t size = 1;
    for (int k = 0; k < glen[g]; k++) size *= dims[d + k];
    cid[g] = c;
    cdims[c++] = size;
  }
  int cperm[CG_MAX_RANK];
  for (int g = 0; g < ng; g++) cperm[g] = cid[g];
  if (c < 2 || cperm[c - 1] == c - 1) return false;
  /* strides of the merged dimensions in the operand and in the result */
  int64_t sin[CG_MAX_RANK], sout[CG_MAX_RANK];
  int64_t s = 1;
  for (int d = c - 1; d >= 0; d--) {
    sin[d] = s;
    s *= cdims[d];
  }
  s = 1;
  for (int i = c - 1; i >= 0; i--) {
    sout[cperm[i]] = s;
    s *= cdims[cperm[i]];
  }
  int a = c - 1, q = cperm[c - 1];
  p->rows = cdims[q];
  p->cols = cdims[a];
  p->src_row = sin[q];
  p->dst_row = sout[a];
  p->src_off = 0;
  p->nbatch = 0;
  p->batch = 1;
  for (int d = 0; d < c; d++) {
    if (d == a || d == q) continue;
    p->bdim[p->nbatch] = cdims[d];
    p->bsrc[p->nbatch] = sin[d];
    p->bdst[p->nbatch++] = sout[d];
    p->batch *= cdims[d];
  }
  return true;
}

/* ---- strided views ---- */

/* Element (x_0, ..., x_{rank-1}) of the view is operand element
   off + sum of x_k * stride[k]. */
typedef struct View {
  int rank;
  int64_t dims[CG_MAX_RANK], stride[CG_MAX_RANK];
  int64_t off;
} View;

/* The view as dimensions to (the same elements in the same order): each
   run of the view's dimensions whose product is that of a run of to's
   must be equally spaced (one stride apart), and to's run splits it. */
static bool view_reshape(View *v, const Type *to) {
  int64_t od[CG_MAX_RANK], os[CG_MAX_RANK];
  int on = 0;
  for (int k = 0; k < v->rank; k++)
    if (v->dims[k] != 1) od[on] = v->dims[k], os[on++] = v->stride[k];
  View w = {to->rank, {0}, {0}, v->off};
  int i = 0, j = 0;
  while (j < to->rank) {
    if (to->dims[j] == 1) {
      w.dims[j] = 1;
      w.stride[j++] = 0;
      continue;
    }
    if (i >= on) return false;
    int i2 = i + 1, j2 = j + 1;
    int64_t pn = to->dims[j], po = od[i];
    while (pn != po) {
      if (pn < po) {
        if (j2 >= to->rank) return false;
        pn *= to->dims[j2++];
      } else {
        if (i2 >= on) return false;
        po *= od[i2++];
      }
    }
    for (int k = i; k < i2 - 1; k++)
      if (os[k] != os[k + 1] * od[k + 1]) return false;
    int64_t st = os[i2 - 1];
    for (int k = j2 - 1; k >= j; k--) {
      w.dims[k] = to->dims[k];
      w.stride[k] = st;
      st *= to->dims[k];
    }
    i = i2;
    j = j2;
  }
  if (i != on) return false;
  *v = w;
  return true;
}

/* The view after op (reshape, slice or transpose of it); false for any
   other op or attributes that do not fit the view. */
static bool view_step(View *v, const Op *op) {
  const Type *t = op->res[0].type;
  if (t->kind != TY_TENSOR || t->rank > CG_MAX_RANK) return false;
  switch (op->kind) {
  case OP_RESHAPE: return view_reshape(v, t);
  case OP_SLICE: {
    int64_t *start, *limit, *step;
    if (op_attr_ints((Op *)op, "start_indices", &start) != v->rank ||
        op_attr_ints((Op *)op, "limit_indices", &limit) != v->rank)
      return false;
    int ns = op_attr_ints((Op *)op, "strides", &step);
    for (int k = 0; k < v->rank; k++) {
      int64_t st = ns == v->rank ? step[k] : 1;
      if (st < 1 || start[k] < 0 || limit[k] < start[k] || limit[k] > v->dims[k]) return false;
      v->off += start[k] * v->stride[k];
      v->dims[k] = (limit[k] - start[k] + st - 1) / st;
      v->stride[k] *= st;
    }
    return true;
  }
  case OP_TRANSPOSE: {
    int64_t *perm;
    if (op_attr_ints((Op *)op, "permutation", &perm) != v->rank) return false;
    View w = *v;
    bool seen[CG_MAX_RANK] = {0};
    for (int k = 0; k < v->rank; k++) {
      if (perm[k] < 0 || perm[k] >= v->rank || seen[perm[k]]) return false;
      seen[perm[k]] = true;
      w.dims[k] = v->dims[perm[k]];
      w.stride[k] = v->stride[perm[k]];
    }
    *v = w;
    return true;
  }
  default: return false;
  }
}

bool transpose_plan_view(const Value *root, Value *const *args, int nargs, int *arg, TransposePlan *p) {
  /* reshapes of the result only rename its elements */
  const Value *v = root;
  while (v->def && v->def->kind == OP_RESHAPE && v->def->nopnds == 1) v = v->def->opnds[0];
  enum { MAX_STEPS = 16 };
  const Op *steps[MAX_STEPS];
  int n = 0;
  const Value *src = v;
  *arg = -1;
  for (;;) {
    for (int i = 0; i < nargs && *arg < 0; i++)
      if (args[i] == src) *arg = i;
    if (*arg >= 0) break;
    const Op *op = src->def;
    if (!op || op->nopnds != 1 || op->nres != 1 || n == MAX_STEPS) return false;
    if (op->kind != OP_RESHAPE && op->kind != OP_SLICE && op->kind != OP_TRANSPOSE) return false;
    steps[n++] = op;
    src = op->opnds[0];
  }
  const Type *st = src->type;
  if (st->kind != TY_TENSOR || st->rank > CG_MAX_RANK || st->quant || v->type->quant) return false;
  if (st->elem != v->type->elem || type_num_elements(st) <= 0) return false;
  View w = {st->rank, {0}, {0}, 0};
  int64_t s = 1;
  for (int k = st->rank - 1; k >= 0; k--) {
    w.dims[k] = st->dims[k];
    w.stride[k] = s;
    s *= st->dims[k];
  }
  for (int k = n - 1; k >= 0; k--)
    if (!view_step(&w, steps[k])) return false;
  /* the result's dimensions: size 1 dropped, runs one stride apart in
     the operand merged (the result's own are always) */
  int c = 0;
  int64_t dims[CG_MAX_RANK], sin[CG_MAX_RANK], sout[CG_MAX_RANK];
  for (int k = 0; k < w.rank; k++) {
    if (w.dims[k] == 1) continue;
    if (c > 0 && sin[c - 1] == w.stride[k] * w.dims[k]) {
      dims[c - 1] *= w.dims[k];
      sin[c - 1] = w.stride[k];
    } else {
      dims[c] = w.dims[k];
      sin[c++] = w.stride[k];
    }
  }
  if (c < 2 || sin[c - 1] == 1) return false;
  s = 1;
  for (int k = c - 1; k >= 0; k--) {
    sout[k] = s;
    s *= dims[k];
  }
  int q = -1;
  for (int k = 0; k < c - 1 && q < 0; k++)
    if (sin[k] == 1) q = k;
  if (q < 0) return false;
  p->src_off = w.off;
  p->rows = dims[c - 1];
  p->src_row = sin[c - 1];
  p->cols = dims[q];
  p->dst_row = sout[q];
  p->nbatch = 0;
  p->batch = 1;
  for (int k = 0; k < c - 1; k++) {
    if (k == q) continue;
    p->bdim[p->nbatch] = dims[k];
    p->bsrc[p->nbatch] = sin[k];
    p->bdst[p->nbatch++] = sout[k];
    p->batch *= dims[k];
  }
  return true;
}
