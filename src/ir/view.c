/*
 * view.c - reshapes, slices and transposes followed as strided views
 * (view.h).
 */
#include "ir/view.h"

/* The view as dimensions to (the same elements in the same order): each
   run of the view's dimensions whose product is that of a run of to's
   must be equally spaced (one stride apart), and to's run splits it. */
bool view_reshape(View *v, const Type *to) {
  int64_t od[VIEW_MAX_RANK], os[VIEW_MAX_RANK];
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

/* The view with its dimension perm[k] as dimension k; false unless perm
   is a permutation. */
bool view_permute(View *v, const int64_t *perm) {
  View w = *v;
  bool seen[VIEW_MAX_RANK] = {0};
  for (int k = 0; k < v->rank; k++) {
    if (perm[k] < 0 || perm[k] >= v->rank || seen[perm[k]]) return false;
    seen[perm[k]] = true;
    w.dims[k] = v->dims[perm[k]];
    w.stride[k] = v->stride[perm[k]];
  }
  *v = w;
  return true;
}

/* The view of a whole operand of dimensions dims (row-major). */
View view_whole(const int64_t *dims, int rank) {
  View w = {rank, {0}, {0}, 0};
  int64_t s = 1;
  for (int k = rank - 1; k >= 0; k--) {
    w.dims[k] = dims[k];
    w.stride[k] = s;
    s *= dims[k];
  }
  return w;
}

/* The view after op (reshape, slice or transpose of it); false for any
   other op or attributes that do not fit the view. */
static bool view_step(View *v, const Op *op) {
  const Type *t = op->res[0].type;
  if (t->kind != TY_TENSOR || t->rank > VIEW_MAX_RANK) return false;
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
    return op_attr_ints((Op *)op, "permutation", &perm) == v->rank && view_permute(v, perm);
  }
  default: return false;
  }
}

bool view_of(const Value *root, Value *const *args, int nargs, int *arg, const Value **inner, View *wp) {
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
  if (st->kind != TY_TENSOR || st->rank > VIEW_MAX_RANK || st->quant || v->type->quant) return false;
  if (st->elem != v->type->elem || type_num_elements(st) <= 0) return false;
  View w = view_whole(st->dims, st->rank);
  for (int k = n - 1; k >= 0; k--)
    if (!view_step(&w, steps[k])) return false;
  if (inner) *inner = v;
  *wp = w;
  return true;
}
