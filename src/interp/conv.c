/*
 * conv.c - the interpreter's convolution and dynamic_conv.
 *
 * One direct loop covers every variant the spec allows: arbitrary
 * dimension_numbers layouts, any number of spatial dimensions (zero
 * included), strides, low/high padding (negative padding crops), lhs
 * (base) and rhs (window) dilation, window reversal, and feature or batch
 * grouping.  For each result element we walk the kernel window and map every
 * window position back into the un-padded, un-dilated input; positions that
 * land in padding or in a dilation hole contribute zero.  That is the spec's
 * pad/slice/dot_general decomposition without materialising the padded
 * tensor.
 *
 * Arithmetic follows dot_general in linalg.c: operands are widened according
 * to the result element type (double for floats, summed in double and
 * rounded once; double complex; uint64_t for integers, which wraps like the
 * element type), and pred computes OR of ANDs.
 */
#include "interp/interp.h"

#include <complex.h>
#include <stdlib.h>
#include <string.h>

/* complex.h names the imaginary unit I; here I is the interpreter */
#undef I
#include "interp/cplx.h"
#include "interp/numarr.h"

#define CONV_MAX_RANK 32


/* Everything the loop needs, gathered and checked once. */
typedef struct ConvPlan {
  int rank, ns;
  int64_t ib, ifeat, is[CONV_MAX_RANK];
  int64_t ki, ko, ks[CONV_MAX_RANK];
  int64_t ob, of, os[CONV_MAX_RANK];
  int64_t stride[CONV_MAX_RANK], pad_lo[CONV_MAX_RANK], pad_hi[CONV_MAX_RANK];
  int64_t ldil[CONV_MAX_RANK], rdil[CONV_MAX_RANK];
  bool rev[CONV_MAX_RANK];
  int64_t fgc, bgc;
} ConvPlan;

static bool distinct_axes(int rank, int n, const int64_t *v) {
  for (int i = 0; i < n; i++) {
    if (v[i] < 0 || v[i] >= rank) return false;
    for (int j = 0; j < i; j++)
      if (v[i] == v[j]) return false;
  }
  return true;
}

/* Reads an optional per-spatial-dim attribute, defaulting to `def`. */
static bool spatial_attr(Interp *I, Op *op, const char *name, int ns, int64_t def, int64_t *out) {
  int64_t *v;
  int n = op_attr_ints(op, name, &v);
  if (n < 0 || (n != 0 && n != ns)) return interp_error(I, op, "'%s' must have %d entries", name, ns);
  for (int i = 0; i < ns; i++) out[i] = n ? v[i] : def;
  return true;
}

static bool conv_plan(Interp *I, Op *op, const Type *lt, const Type *rt, const Type *ot,
                      const int64_t *pad, int npad, ConvPlan *p) {
  memset(p, 0, sizeof *p);
  p->rank = lt->rank;
  if (lt->rank < 2 || lt->rank > CONV_MAX_RANK || rt->rank != lt->rank || ot->rank != lt->rank)
    return interp_error(I, op, "convolution operands and result must have the same rank >= 2");
  int ns = p->ns = lt->rank - 2;
  Attr *dn = op_attr(op, "dimension_numbers");
  if (!dn) return interp_error(I, op, "missing dimension_numbers");
  int64_t *v;
  p->ib = dict_int(dn, "input_batch_dimension", -1);
  p->ifeat = dict_int(dn, "input_feature_dimension", -1);
  p->ki = dict_int(dn, "kernel_input_feature_dimension", -1);
  p->ko = dict_int(dn, "kernel_output_feature_dimension", -1);
  p->ob = dict_int(dn, "output_batch_dimension", -1);
  p->of = dict_int(dn, "output_feature_dimension", -1);
  if (dict_ints(dn, "input_spatial_dimensions", &v) != ns && ns) goto bad;
  for (int i = 0; i < ns; i++) p->is[i] = v[i];
  if (dict_ints(dn, "kernel_spatial_dimensions", &v) != ns && ns) goto bad;
  for (int i = 0; i < ns; i++) p->ks[i] = v[i];
  if (dict_ints(dn, "output_spatial_dimensions", &v) != ns && ns) goto bad;
  for (int i = 0; i < ns; i++) p->os[i] = v[i];
  {
    int64_t in[CONV_MAX_RANK], kn[CONV_MAX_RANK], on[CONV_MAX_RANK];
    in[0] = p->ib, in[1] = p->ifeat, kn[0] = p->ki, kn[1] = p->ko, on[0] = p->ob, on[1] = p->of;
    for (int i = 0; i < ns; i++) in[i + 2] = p->is[i], kn[i + 2] = p->ks[i], on[i + 2] = p->os[i];
    if (!distinct_axes(lt->rank, ns + 2, in) || !distinct_axes(rt->rank, ns + 2, kn) ||
        !distinct_axes(ot->rank, ns + 2, on))
      goto bad;
  }
  if (!spatial_attr(I, op, "window_strides", ns, 1, p->stride) ||
      !spatial_attr(I, op, "lhs_dilation", ns, 1, p->ldil) ||
      !spatial_attr(I, op, "rhs_dilation", ns, 1, p->rdil))
    return false;
  int64_t revs[CONV_MAX_RANK];
  if (!spatial_attr(I, op, "window_reversal", ns, 0, revs)) return false;
  if (npad != 0 && npad != 2 * ns) return interp_error(I, op, "padding must have shape [%d, 2]", ns);
  for (int i = 0; i < ns; i++) {
    p->rev[i] = revs[i] != 0;
    p->pad_lo[i] = npad ? pad[2 * i] : 0;
    p->pad_hi[i] = npad ? pad[2 * i + 1] : 0;
    if (p->stride[i] <= 0 || p->ldil[i] <= 0 || p->rdil[i] <= 0)
      return interp_error(I, op, "strides and dilations must be positive");
  }
  p->fgc = op_attr_int(op, "feature_group_count", 1);
  p->bgc = op_attr_int(op, "batch_group_count", 1);
  if (p->fgc <= 0 || p->bgc <= 0 || (p->fgc > 1 && p->bgc > 1))
    return interp_error(I, op, "bad feature_group_count/batch_group_count");
  int64_t B = lt->dims[p->ib], C = lt->dims[p->ifeat], O = rt->dims[p->ko];
  if (B % p->bgc || C % p->fgc || O % p->fgc || O % p->bgc || rt->dims[p->ki] != C / p->fgc)
    return interp_error(I, op, "feature/batch dimensions do not match the group counts");
  /* expected result shape (C25); padding and sizes are user data:
     window_dim_size also guarantees that every position conv_run computes
     fits in int64 */
  if (ot->dims[p->ob] != B / p->bgc || ot->dims[p->of] != O)
    return interp_error(I, op, "result batch/feature dimension sizes are wrong");
  for (int i = 0; i < ns; i++) {
    int64_t nwin;
    if (window_dim_size(lt->dims[p->is[i]], p->pad_lo[i], p->pad_hi[i], p->ldil[i], rt->dims[p->ks[i]], p->rdil[i],
                        p->stride[i], &nwin) != 0)
      goto big;
    if (ot->dims[p->os[i]] != nwin)
      return interp_error(I, op, "result spatial dimension %d has size %lld, expected %lld", i,
                          (long long)ot->dims[p->os[i]], (long long)nwin);
  }
  return true;
bad:
  return interp_error(I, op, "malformed convolution dimension_numbers");
big:
  return interp_error(I, op, "convolution sizes overflow");
}

static bool conv_run(Interp *I, Op *op, const Literal *L, const Literal *R, const int64_t *pad,
                     int npad, IVal **res) {
  const Type *lt = L->type, *rt = R->type, *ot = op->res[0].type;
  if (ot->kind != TY_TENSOR) return interp_error(I, op, "result must be a tensor");
  ConvPlan p;
  if (!conv_plan(I, op, lt, rt, ot, pad, npad, &p)) return false;
  Literal *out = lit_new(ot);
  int ns = p.ns;
  int64_t lstr[CONV_MAX_RANK], rstr[CONV_MAX_RANK];
  shape_strides(lt->rank, lt->dims, lstr);
  shape_strides(rt->rank, rt->dims, rstr);
  int64_t B = lt->dims[p.ib], O = rt->dims[p.ko], Cg = rt->dims[p.ki];
  int64_t out_per_fgroup = O / p.fgc, out_per_bgroup = O / p.bgc, b_per_group = B / p.bgc;
  /* the window: kernel spatial dims then the kernel input feature */
  int nw = ns + 1;
  int64_t wdims[CONV_MAX_RANK];
  for (int i = 0; i < ns; i++) wdims[i] = rt->dims[p.ks[i]];
  wdims[ns] = Cg;
  bool empty_window = false;
  for (int i = 0; i < nw; i++) empty_window |= wdims[i] == 0;

  NumKind kind = num_kind(lit_elem(out));
  NumArr la, ra;
  num_load(&la, L, kind);
  num_load(&ra, R, kind);
  int64_t oidx[CONV_MAX_RANK] = {0};
  for (int64_t o = 0; o < out->n; o++) {
    int64_t bo = oidx[p.ob], fo = oidx[p.of];
    int64_t bin = bo, cbase = 0;
    if (p.fgc > 1) cbase = (fo / out_per_fgroup) * Cg;
    if (p.bgc > 1) bin = (fo / out_per_bgroup) * b_per_group + bo;
    double sf = 0;
    double complex sc = 0;
    uint64_t su = 0;
    if (!empty_window) {
      int64_t w[CONV_MAX_RANK] = {0};
      do {
        int64_t loff = bin * lstr[p.ib] + (cbase + w[ns]) * lstr[p.ifeat];
        int64_t roff = fo * rstr[p.ko] + w[ns] * rstr[p.ki];
        bool hole = false;
        for (int s = 0; s < ns && !hole; s++) {
          /* position in the padded, dilated input */
          int64_t pos = oidx[p.os[s]] * p.stride[s] + w[s] * p.rdil[s] - p.pad_lo[s];
          if (pos < 0 || pos % p.ldil[s]) {
            hole = true;
            break;
          }
          int64_t x = pos / p.ldil[s];
          if (x >= lt->dims[p.is[s]]) {
            hole = true;
            break;
          }
          int64_t kk = p.rev[s] ? wdims[s] - 1 - w[s] : w[s];
          loff += x * lstr[p.is[s]];
          roff += kk * rstr[p.ks[s]];
        }
        if (hole) continue;
        switch (kind) {
        case NK_REAL: sf += la.f[loff] * ra.f[roff]; break;
        case NK_CPLX: sc += la.c[loff] * ra.c[roff]; break;
        case NK_INT: su += la.u[loff] * ra.u[roff]; break;
        }
      } while (index_next(nw, wdims, w));
    }
    switch (kind) {
    case NK_REAL: lit_set_f(out, o, sf); break;
    case NK_CPLX: lit_set_c(out, o, creal(sc), cimag(sc)); break;
    case NK_INT:
      if (et_is_pred(lit_elem(out)))
        lit_set_b(out, o, su != 0);
      else
        lit_set_u(out, o, su);
      break;
    }
    index_next(ot->rank, ot->dims, oidx);
  }
  num_free(&la);
  num_free(&ra);
  res[0] = ival_tensor(out);
  return true;
}

static bool need_tensors(Interp *I, Op *op, int n, IVal **args) {
  for (int i = 0; i < n; i++)
    if (args[i]->kind != IV_TENSOR) return interp_error(I, op, "operand %d is not a tensor", i);
  return true;
}

bool interp_CONVOLUTION(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensors(I, op, 2, args)) return false;
  int64_t *pad;
  int npad = op_attr_ints(op, "padding", &pad);
  if (npad < 0) return interp_error(I, op, "malformed padding");
  return conv_run(I, op, ARG_LIT(0), ARG_LIT(1), pad, npad, res);
}

/* Same as convolution, with the [N-2, 2] padding given as the third operand. */
bool interp_DYNAMIC_CONV(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensors(I, op, 3, args)) return false;
  const Literal *P = ARG_LIT(2);
  if (!et_is_int(lit_elem(P))) return interp_error(I, op, "padding must be an integer tensor");
  int64_t *pad = xmalloc(sizeof(int64_t) * (size_t)(P->n > 0 ? P->n : 1));
  for (int64_t i = 0; i < P->n; i++) pad[i] = lit_get_i(P, i);
  bool ok = conv_run(I, op, ARG_LIT(0), ARG_LIT(1), pad, (int)P->n, res);
  xfree(pad);
  return ok;
}
