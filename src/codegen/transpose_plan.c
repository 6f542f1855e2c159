/*
 * transpose_plan.c - a transpose's permutation, or a chain of reshapes,
 * slices and transposes, followed as a strided view of the operand and
 * reduced to one matrix transpose over batch indices (transpose_plan.h).
 */
#include "codegen/transpose_plan.h"

#include "ir/view.h"

_Static_assert((int)VIEW_MAX_RANK == CG_MAX_RANK, "views and plans have the same ranks");

static bool plan_of_view(const View *w, TransposePlan *p);

bool transpose_plan_view(const Value *root, Value *const *args, int nargs, int *arg, TransposePlan *p) {
  View w;
  return view_of(root, args, nargs, arg, NULL, &w) && plan_of_view(&w, p);
}

/* The plan of a result laid out row-major over the view w's dimensions. */
static bool plan_of_view(const View *wp, TransposePlan *p) {
  const View w = *wp;
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
  int64_t s = 1;
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
  /* the batch dimensions in the operand's order (outermost first) */
  p->nbatch = 0;
  p->batch = 1;
  for (int k = 0; k < c - 1; k++) {
    if (k == q) continue;
    int b = p->nbatch++;
    while (b > 0 && p->bsrc[b - 1] < sin[k]) {
      p->bdim[b] = p->bdim[b - 1];
      p->bsrc[b] = p->bsrc[b - 1];
      p->bdst[b] = p->bdst[b - 1];
      b--;
    }
    p->bdim[b] = dims[k];
    p->bsrc[b] = sin[k];
    p->bdst[b] = sout[k];
    p->batch *= dims[k];
  }
  return true;
}

bool transpose_plan(const int64_t *dims, const int64_t *perm, int rank, TransposePlan *p) {
  if (rank > CG_MAX_RANK) return false;
  View w = view_whole(dims, rank);
  return view_permute(&w, perm) && plan_of_view(&w, p);
}
