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
