/*
 * linalg.c - the interpreter's linear algebra: dot_general and its older
 * spellings (dot, einsum, unary_einsum), chlo.ragged_dot, triangular_solve,
 * cholesky and the three batch_norm ops.
 *
 * Everything here is an oracle, so it favours clarity over speed.  Operands
 * are first widened into one of three host representations chosen by the
 * result element type: double for floats, double complex for complex types
 * and uint64_t for integers and pred (operands converted to the result type
 * first, so i8 x i8 -> i32 multiplies the i32 values; the uint64_t
 * arithmetic wraps exactly like the narrower type would).  Floating-point
 * sums are accumulated in double and rounded once when stored, which is at
 * least as accurate as accumulating in the element type; checks on float
 * results should therefore use a tolerance.  pred dots compute OR of ANDs.
 */
#include "interp/interp.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* complex.h names the imaginary unit I; here I is the interpreter */
#undef I
#include "interp/cplx.h"
#include "interp/numarr.h"


/* A running sum in whichever representation the result uses. */
typedef struct Acc {
  double f;
  double complex c;
  uint64_t u;
} Acc;

static inline void acc_mac(Acc *s, const NumArr *l, int64_t i, const NumArr *r, int64_t j) {
  switch (l->k) {
  case NK_REAL: s->f += l->f[i] * r->f[j]; break;
  case NK_CPLX: s->c += l->c[i] * r->c[j]; break;
  case NK_INT: s->u += l->u[i] * r->u[j]; break;
  }
}

static void acc_store(Literal *out, int64_t i, NumKind k, const Acc *s) {
  switch (k) {
  case NK_REAL:
    if (lit_elem(out) == ET_F32)
      ((float *)out->data)[i] = (float)s->f;
    else if (lit_elem(out) == ET_F64)
      ((double *)out->data)[i] = s->f;
    else
      lit_set_f(out, i, s->f);
    break;
  case NK_CPLX: lit_set_c(out, i, creal(s->c), cimag(s->c)); break;
  case NK_INT:
    if (et_is_pred(lit_elem(out)))
      lit_set_b(out, i, s->u != 0);
    else
      lit_set_u(out, i, s->u);
    break;
  }
}

static bool attr_flag(const Op *op, const char *name, bool def) {
  Attr *a = op_attr(op, name);
  if (!a) return def;
  if (a->kind == ATTR_BOOL) return a->b;
  if (a->kind == ATTR_INT) return a->i != 0;
  if (a->kind == ATTR_UNIT) return true;
  return def;
}

/* Checks that dims are valid, distinct axes of a rank-`rank` tensor. */
static bool check_axes(Interp *I, Op *op, const char *what, int rank, int n, const int64_t *v,
                       int n2, const int64_t *v2) {
  for (int i = 0; i < n; i++) {
    if (v[i] < 0 || v[i] >= rank) return interp_error(I, op, "%s dimension %lld out of range", what, (long long)v[i]);
    if (ints_contain(v, i, v[i]) || ints_contain(v2, n2, v[i]))
      return interp_error(I, op, "%s dimension %lld repeated", what, (long long)v[i]);
  }
  return true;
}

/* ---- dot_general ---- */

/* Computes out = dot_general(L, R) for the given batching/contracting dims;
   out is allocated by the caller with the result type. */
static bool dot_general_lits(Interp *I, Op *op, const Literal *L, const Literal *R, int nb,
                             const int64_t *lb, const int64_t *rb, int nc, const int64_t *lc,
                             const int64_t *rc, Literal *out) {
  const Type *lt = L->type, *rt = R->type, *ot = out->type;
  if (!check_axes(I, op, "lhs batching/contracting", lt->rank, nb, lb, nc, lc) ||
      !check_axes(I, op, "rhs batching/contracting", rt->rank, nb, rb, nc, rc) ||
      !check_axes(I, op, "lhs contracting", lt->rank, nc, lc, 0, NULL) ||
      !check_axes(I, op, "rhs contracting", rt->rank, nc, rc, 0, NULL))
    return false;
  for (int i = 0; i < nb; i++)
    if (lt->dims[lb[i]] != rt->dims[rb[i]]) return interp_error(I, op, "batching dimension sizes differ");
  for (int i = 0; i < nc; i++)
    if (lt->dims[lc[i]] != rt->dims[rc[i]]) return interp_error(I, op, "contracting dimension sizes differ");

  int64_t lstr[64], rstr[64];
  if (lt->rank > 64 || rt->rank > 64) return interp_error(I, op, "rank too large");
  shape_strides(lt->rank, lt->dims, lstr);
  shape_strides(rt->rank, rt->dims, rstr);

  /* result dims: batch, lhs free, rhs free; each with its stride in lhs/rhs */
  int orank = 0;
  int64_t odims[128], olstr[128], orstr[128];
  for (int i = 0; i < nb; i++) {
    odims[orank] = lt->dims[lb[i]];
    olstr[orank] = lstr[lb[i]];
    orstr[orank++] = rstr[rb[i]];
  }
  for (int d = 0; d < lt->rank; d++) {
    if (ints_contain(lb, nb, d) || ints_contain(lc, nc, d)) continue;
    odims[orank] = lt->dims[d];
    olstr[orank] = lstr[d];
    orstr[orank++] = 0;
  }
  for (int d = 0; d < rt->rank; d++) {
    if (ints_contain(rb, nb, d) || ints_contain(rc, nc, d)) continue;
    odims[orank] = rt->dims[d];
    olstr[orank] = 0;
    orstr[orank++] = rstr[d];
  }
  if (orank != ot->rank) return interp_error(I, op, "result rank %d, expected %d", ot->rank, orank);
  for (int i = 0; i < orank; i++)
    if (odims[i] != ot->dims[i]) return interp_error(I, op, "result dimension %d has size %lld, expected %lld", i, (long long)ot->dims[i], (long long)odims[i]);
  if (out->n == 0) return true;

  /* offsets of every contracting position, so the inner loop is a plain scan */
  int64_t K = 1, cdims[64];
  for (int i = 0; i < nc; i++) K *= (cdims[i] = lt->dims[lc[i]]);
  int64_t *coff_l = xmalloc(sizeof(int64_t) * (size_t)(K > 0 ? K : 1));
  int64_t *coff_r = xmalloc(sizeof(int64_t) * (size_t)(K > 0 ? K : 1));
  if (K > 0) {
    int64_t idx[64] = {0};
    int64_t k = 0;
    do {
      int64_t a = 0, b = 0;
      for (int i = 0; i < nc; i++) {
        a += idx[i] * lstr[lc[i]];
        b += idx[i] * rstr[rc[i]];
      }
      coff_l[k] = a;
      coff_r[k++] = b;
    } while (index_next(nc, cdims, idx));
  }

  NumKind kind = num_kind(lit_elem(out));
  NumArr la, ra;
  num_load(&la, L, kind);
  num_load(&ra, R, kind);
  int64_t idx[128] = {0};
  for (int64_t o = 0; o < out->n; o++) {
    int64_t lo = 0, ro = 0;
    for (int i = 0; i < orank; i++) {
      lo += idx[i] * olstr[i];
      ro += idx[i] * orstr[i];
    }
    Acc s = {0};
    if (kind == NK_REAL) {
      /* the common case, kept free of the switch */
      double sum = 0;
      for (int64_t k = 0; k < K; k++) sum += la.f[lo + coff_l[k]] * ra.f[ro + coff_r[k]];
      s.f = sum;
    } else {
      for (int64_t k = 0; k < K; k++) acc_mac(&s, &la, lo + coff_l[k], &ra, ro + coff_r[k]);
    }
    acc_store(out, o, kind, &s);
    index_next(orank, odims, idx);
  }
  num_free(&la);
  num_free(&ra);
  xfree(coff_l);
  xfree(coff_r);
  return true;
}

static bool need_tensors(Interp *I, Op *op, int n, IVal **args) {
  for (int i = 0; i < n; i++)
    if (args[i]->kind != IV_TENSOR) return interp_error(I, op, "operand %d is not a tensor", i);
  return true;
}

bool interp_DOT_GENERAL(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensors(I, op, 2, args)) return false;
  Attr *dn = op_attr(op, "dot_dimension_numbers");
  int64_t *lb = NULL, *rb = NULL, *lc = NULL, *rc = NULL;
  int nlb = dict_ints(dn, "lhs_batching_dimensions", &lb);
  int nrb = dict_ints(dn, "rhs_batching_dimensions", &rb);
  int nlc = dict_ints(dn, "lhs_contracting_dimensions", &lc);
  int nrc = dict_ints(dn, "rhs_contracting_dimensions", &rc);
  if (nlb < 0 || nrb < 0 || nlc < 0 || nrc < 0 || nlb != nrb || nlc != nrc)
    return interp_error(I, op, "malformed dot_dimension_numbers");
  Literal *out = lit_new(op->res[0].type);
  if (!dot_general_lits(I, op, ARG_LIT(0), ARG_LIT(1), nlb, lb, rb, nlc, lc, rc, out)) {
    lit_free(out);
    return false;
  }
  res[0] = ival_tensor(out);
  return true;
}

/* The deprecated dot: vector/matrix products contracting lhs's last axis
   with rhs's first. */
bool interp_DOT(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensors(I, op, 2, args)) return false;
  const Literal *L = ARG_LIT(0), *R = ARG_LIT(1);
  if (L->type->rank < 1 || L->type->rank > 2 || R->type->rank < 1 || R->type->rank > 2)
    return interp_error(I, op, "dot expects rank-1 or rank-2 operands");
  int64_t lc = L->type->rank - 1, rc = 0;
  Literal *out = lit_new(op->res[0].type);
  if (!dot_general_lits(I, op, L, R, 0, NULL, NULL, 1, &lc, &rc, out)) {
    lit_free(out);
    return false;
  }
  res[0] = ival_tensor(out);
  return true;
}

/* ---- einsum ---- */

/* Evaluates an einsum_config such as "ab,bc->ac" (or "ab->ba" for one input).
   Letters shared by inputs but absent from the output are summed over;
   a letter repeated within one term walks the diagonal. */
static bool einsum_eval(Interp *I, Op *op, int nin, const Literal **ins, const char *cfg,
                        Literal *out) {
  const Type *types[3] = {ins[0]->type, nin > 1 ? ins[1]->type : out->type, out->type};
  EinsumSpec spec;
  char *err = einsum_spec_read(cfg, nin, types, &spec);
  if (err) {
    interp_error(I, op, "%s", err);
    xfree(err);
    return false;
  }
  const char *const *terms = spec.term;
  const int *tlen = spec.len;
  const int64_t *size = spec.size;
  /* letters: output ones first, then the summed ones */
  int nl = 0, nout = tlen[nin];
  unsigned char letters[128];
  int64_t ldims[128];
  for (int j = 0; j < nout; j++) {
    unsigned char ch = (unsigned char)terms[nin][j];
    letters[nl] = ch;
    ldims[nl++] = size[ch];
  }
  for (int t = 0; t < nin; t++)
    for (int j = 0; j < tlen[t]; j++) {
      unsigned char ch = (unsigned char)terms[t][j];
      bool seen = false;
      for (int k = 0; k < nl; k++) seen |= letters[k] == ch;
      if (!seen) {
        letters[nl] = ch;
        ldims[nl++] = size[ch];
      }
    }
  /* contrib[t][k]: stride of letter k in input t */
  int64_t contrib[2][128];
  memset(contrib, 0, sizeof contrib);
  for (int t = 0; t < nin; t++) {
    int64_t str[64];
    shape_strides(ins[t]->type->rank, ins[t]->type->dims, str);
    for (int j = 0; j < tlen[t]; j++)
      for (int k = 0; k < nl; k++)
        if (letters[k] == (unsigned char)terms[t][j]) contrib[t][k] += str[j];
  }
  if (out->n == 0) return true;
  int64_t nsum = 1;
  for (int k = nout; k < nl; k++) nsum *= ldims[k];

  NumKind kind = num_kind(lit_elem(out));
  NumArr a[2];
  for (int t = 0; t < nin; t++) num_load(&a[t], ins[t], kind);
  int64_t oidx[128] = {0};
  for (int64_t o = 0; o < out->n; o++) {
    int64_t base[2] = {0, 0};
    for (int t = 0; t < nin; t++)
      for (int k = 0; k < nout; k++) base[t] += oidx[k] * contrib[t][k];
    Acc s = {0};
    if (nsum > 0) {
      int64_t sidx[128] = {0};
      do {
        int64_t off[2] = {base[0], base[1]};
        for (int t = 0; t < nin; t++)
          for (int k = nout; k < nl; k++) off[t] += sidx[k - nout] * contrib[t][k];
        if (nin == 2) {
          acc_mac(&s, &a[0], off[0], &a[1], off[1]);
        } else {
          switch (kind) {
          case NK_REAL: s.f += a[0].f[off[0]]; break;
          case NK_CPLX: s.c += a[0].c[off[0]]; break;
          case NK_INT: s.u += a[0].u[off[0]]; break;
          }
        }
      } while (index_next(nl - nout, ldims + nout, sidx));
    }
    acc_store(out, o, kind, &s);
    index_next(nout, ldims, oidx);
  }
  for (int t = 0; t < nin; t++) num_free(&a[t]);
  return true;
}

bool interp_EINSUM(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensors(I, op, 2, args)) return false;
  const Literal *ins[2] = {ARG_LIT(0), ARG_LIT(1)};
  Literal *out = lit_new(op->res[0].type);
  if (!einsum_eval(I, op, 2, ins, op_attr_str(op, "einsum_config"), out)) {
    lit_free(out);
    return false;
  }
  res[0] = ival_tensor(out);
  return true;
}

bool interp_UNARY_EINSUM(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensors(I, op, 1, args)) return false;
  const Literal *ins[1] = {ARG_LIT(0)};
  Literal *out = lit_new(op->res[0].type);
  if (!einsum_eval(I, op, 1, ins, op_attr_str(op, "einsum_config"), out)) {
    lit_free(out);
    return false;
  }
  res[0] = ival_tensor(out);
  return true;
}

/* ---- chlo.ragged_dot ----
 * Three modes, chosen by where the lhs ragged dimension sits:
 *   1. a free lhs dim (m): rows of group g use rhs[g] (rhs has a group dim);
 *   2. a contracting dim (k): result gets a leading group dim, group g sums
 *      only over its own slice of k;
 *   3. a batching dim (b): a plain dot whose batches past the groups are 0.
 * group_sizes is [g] (shared by all batches) or [batch..., g]. */
bool interp_CHLO_RAGGED_DOT(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensors(I, op, 3, args)) return false;
  const Literal *L = ARG_LIT(0), *R = ARG_LIT(1), *G = ARG_LIT(2);
  const Type *lt = L->type, *rt = R->type, *ot = op->res[0].type;
  Attr *dn = op_attr(op, "ragged_dot_dimension_numbers");
  int64_t *lb, *rb, *lc, *rc, *lr, *rg;
  int nlb = dict_ints(dn, "lhs_batching_dimensions", &lb);
  int nrb = dict_ints(dn, "rhs_batching_dimensions", &rb);
  int nlc = dict_ints(dn, "lhs_contracting_dimensions", &lc);
  int nrc = dict_ints(dn, "rhs_contracting_dimensions", &rc);
  int nlr = dict_ints(dn, "lhs_ragged_dimensions", &lr);
  int nrg = dict_ints(dn, "rhs_group_dimensions", &rg);
  if (!dn || nlb < 0 || nlb != nrb || nlc < 0 || nlc != nrc || nlr != 1 || nrg < 0 || nrg > 1)
    return interp_error(I, op, "malformed ragged_dot_dimension_numbers");
  if (lt->rank > 32 || rt->rank > 32) return interp_error(I, op, "rank too large");
  if (!check_axes(I, op, "lhs batching/contracting", lt->rank, nlb, lb, nlc, lc) ||
      !check_axes(I, op, "rhs batching/contracting", rt->rank, nrb, rb, nrc, rc) ||
      !check_axes(I, op, "lhs contracting", lt->rank, nlc, lc, 0, NULL) ||
      !check_axes(I, op, "rhs contracting", rt->rank, nrc, rc, 0, NULL))
    return false;
  if (lr[0] < 0 || lr[0] >= lt->rank) return interp_error(I, op, "lhs ragged dimension out of range");
  if (nrg && (rg[0] < 0 || rg[0] >= rt->rank || ints_contain(rb, nrb, rg[0]) || ints_contain(rc, nrc, rg[0])))
    return interp_error(I, op, "bad rhs group dimension");
  int mode = ints_contain(lc, nlc, lr[0]) ? 2 : ints_contain(lb, nlb, lr[0]) ? 3 : 1;
  if ((mode == 1) != (nrg == 1)) return interp_error(I, op, "rhs group dimension must be given exactly in mode 1");
  int64_t ng = G->type->rank ? G->type->dims[G->type->rank - 1] : 0;
  if (G->type->rank < 1 || !et_is_int(lit_elem(G))) return interp_error(I, op, "group_sizes must be an integer tensor");
  if (mode == 1 && ng != rt->dims[rg[0]]) return interp_error(I, op, "group_sizes does not match the rhs group dimension");
  for (int i = 0; i < nlb; i++)
    if (lt->dims[lb[i]] != rt->dims[rb[i]]) return interp_error(I, op, "batching dimension sizes differ");
  for (int i = 0; i < nlc; i++)
    if (lt->dims[lc[i]] != rt->dims[rc[i]]) return interp_error(I, op, "contracting dimension sizes differ");

  int64_t lstr[32], rstr[32];
  shape_strides(lt->rank, lt->dims, lstr);
  shape_strides(rt->rank, rt->dims, rstr);
  /* result layout; `role` says which lhs/rhs dim each result dim walks */
  int orank = 0, lfree_at_ragged = -1, batch_at_ragged = -1;
  int64_t odims[70], olstr[70], orstr[70];
  if (mode == 2) {
    odims[orank] = ng;
    olstr[orank] = orstr[orank] = 0;
    orank++;
  }
  int first_batch = orank;
  for (int i = 0; i < nlb; i++) {
    if (lb[i] == lr[0]) batch_at_ragged = orank;
    odims[orank] = lt->dims[lb[i]];
    olstr[orank] = lstr[lb[i]];
    orstr[orank++] = rstr[rb[i]];
  }
  for (int d = 0; d < lt->rank; d++) {
    if (ints_contain(lb, nlb, d) || ints_contain(lc, nlc, d)) continue;
    if (d == lr[0]) lfree_at_ragged = orank;
    odims[orank] = lt->dims[d];
    olstr[orank] = lstr[d];
    orstr[orank++] = 0;
  }
  for (int d = 0; d < rt->rank; d++) {
    if (ints_contain(rb, nrb, d) || ints_contain(rc, nrc, d) || (nrg && d == rg[0])) continue;
    odims[orank] = rt->dims[d];
    olstr[orank] = 0;
    orstr[orank++] = rstr[d];
  }
  if (orank != ot->rank) return interp_error(I, op, "result rank %d, expected %d", ot->rank, orank);
  for (int i = 0; i < orank; i++)
    if (odims[i] != ot->dims[i]) return interp_error(I, op, "result dimension %d has size %lld, expected %lld", i, (long long)ot->dims[i], (long long)odims[i]);
  /* group_sizes rows: one shared row, or one per batch index */
  int64_t nrows = G->n / (ng > 0 ? ng : 1);
  int64_t nbatch = 1;
  for (int i = 0; i < nlb; i++) nbatch *= lt->dims[lb[i]];
  if (ng > 0 && nrows != 1 && nrows != nbatch) return interp_error(I, op, "group_sizes shape does not match the batch dimensions");
  int ragged_c = -1;
  for (int i = 0; i < nlc; i++)
    if (lc[i] == lr[0]) ragged_c = i;

  Literal *out = lit_new(ot);
  NumKind kind = num_kind(lit_elem(out));
  NumArr la, ra;
  num_load(&la, L, kind);
  num_load(&ra, R, kind);
  int64_t idx[70] = {0}, cdims[32];
  for (int i = 0; i < nlc; i++) cdims[i] = lt->dims[lc[i]];
  for (int64_t o = 0; o < out->n; o++) {
    int64_t lo = 0, ro = 0, brow = 0;
    for (int i = 0; i < orank; i++) {
      lo += idx[i] * olstr[i];
      ro += idx[i] * orstr[i];
    }
    for (int i = 0; i < nlb; i++) brow = brow * odims[first_batch + i] + idx[first_batch + i];
    const int64_t grow = nrows == 1 ? 0 : brow;
    /* [gstart, gend): the slice of the ragged dim that this element uses */
    int64_t gsel = mode == 2 ? idx[0] : -1, gstart = 0, gend = 0, pos;
    bool live = true;
    pos = mode == 1 ? idx[lfree_at_ragged] : mode == 3 ? idx[batch_at_ragged] : 0;
    int64_t acc = 0, g;
    for (g = 0; g < ng; g++) {
      int64_t sz = lit_get_i(G, grow * ng + g);
      if (sz < 0) sz = 0;
      /* saturate: sizes may be anything, positions are < INT64_MAX */
      int64_t next = sz > INT64_MAX - acc ? INT64_MAX : acc + sz;
      if (mode == 2 && g == gsel) {
        gstart = acc;
        gend = next;
        break;
      }
      if (mode != 2 && pos >= acc && pos < next) break;
      acc = next;
    }
    if (mode != 2 && g == ng) live = false; /* beyond the last group */
    if (mode == 1 && live) ro += g * rstr[rg[0]];
    Acc s = {0};
    if (live) {
      int64_t cidx[32] = {0};
      bool any = true;
      for (int i = 0; i < nlc; i++) any &= cdims[i] > 0;
      if (any) do {
        if (ragged_c >= 0 && (cidx[ragged_c] < gstart || cidx[ragged_c] >= gend)) continue;
        int64_t a = lo, b = ro;
        for (int i = 0; i < nlc; i++) {
          a += cidx[i] * lstr[lc[i]];
          b += cidx[i] * rstr[rc[i]];
        }
        acc_mac(&s, &la, a, &ra, b);
      } while (index_next(nlc, cdims, cidx));
    }
    acc_store(out, o, kind, &s);
    index_next(orank, odims, idx);
  }
  num_free(&la);
  num_free(&ra);
  res[0] = ival_tensor(out);
  return true;
}

/* ---- triangular_solve ---- */

/* Batches of square matrices: checks shape [..., n, n] and returns n and the
   batch count. */
static bool square_batches(Interp *I, Op *op, const Type *t, int64_t *n, int64_t *nbatch) {
  if (t->rank < 2) return interp_error(I, op, "expected a tensor of rank >= 2");
  if (t->dims[t->rank - 1] != t->dims[t->rank - 2]) return interp_error(I, op, "expected square matrices");
  *n = t->dims[t->rank - 1];
  *nbatch = 1;
  for (int i = 0; i < t->rank - 2; i++) *nbatch *= t->dims[i];
  return true;
}

/* Solves op(a) x = b (left_side) or x op(a) = b, in double complex (real
   types simply carry a zero imaginary part).  Only a's `lower` triangle is
   read.  Writing T for op(a) when left_side and for op(a)^T otherwise, every
   column c of the right-hand side (columns of b, or rows of b when solving
   from the right) solves T y = c by substitution. */
bool interp_TRIANGULAR_SOLVE(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensors(I, op, 2, args)) return false;
  const Literal *A = ARG_LIT(0), *B = ARG_LIT(1);
  bool left = attr_flag(op, "left_side", false), lower = attr_flag(op, "lower", false);
  bool unit = attr_flag(op, "unit_diagonal", false);
  const char *tr = op_attr_str(op, "transpose_a");
  bool transpose = tr && (!strcmp(tr, "TRANSPOSE") || !strcmp(tr, "ADJOINT"));
  bool conj_a = tr && !strcmp(tr, "ADJOINT");
  if (tr && !transpose && strcmp(tr, "NO_TRANSPOSE")) return interp_error(I, op, "unknown transpose_a '%s'", tr);
  int64_t m, nbatch;
  if (!square_batches(I, op, A->type, &m, &nbatch)) return false;
  const Type *bt = B->type;
  if (bt->rank != A->type->rank) return interp_error(I, op, "a and b ranks differ");
  for (int i = 0; i < bt->rank - 2; i++)
    if (bt->dims[i] != A->type->dims[i]) return interp_error(I, op, "a and b batch dimensions differ");
  int64_t br = bt->dims[bt->rank - 2], bc = bt->dims[bt->rank - 1];
  if ((left ? br : bc) != m) return interp_error(I, op, "b's %s dimension must equal a's size", left ? "row" : "column");
  int64_t ncols = left ? bc : br; /* number of independent systems per batch */
  Literal *out = lit_new(op->res[0].type);
  if (out->n != B->n) {
    lit_free(out);
    return interp_error(I, op, "result shape must equal b's");
  }
  double complex *T = xmalloc(sizeof(double complex) * (size_t)(m * m > 0 ? m * m : 1));
  double complex *y = xmalloc(sizeof(double complex) * (size_t)(m > 0 ? m : 1));
  /* T lower-triangular iff the triangle flips an even number of times */
  bool t_lower = lower ^ transpose ^ !left;
  bool t_transposed = transpose ^ !left;
  for (int64_t bi = 0; bi < nbatch; bi++) {
    int64_t aoff = bi * m * m, boff = bi * br * bc;
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < m; j++) {
        /* T[i][j] = opA[j][i] when transposed, read from a's triangle */
        int64_t r = t_transposed ? j : i, c = t_transposed ? i : j;
        bool in_tri = lower ? c <= r : c >= r;
        double re = 0, im = 0;
        if (in_tri) lit_get_c(A, aoff + r * m + c, &re, &im);
        if (r == c && unit) re = 1, im = 0;
        T[i * m + j] = conj_a ? cplx_make(re, -im) : cplx_make(re, im);
      }
    for (int64_t col = 0; col < ncols; col++) {
      for (int64_t i = 0; i < m; i++) {
        double re, im;
        lit_get_c(B, boff + (left ? i * bc + col : col * bc + i), &re, &im);
        y[i] = cplx_make(re, im);
      }
      for (int64_t s = 0; s < m; s++) {
        int64_t i = t_lower ? s : m - 1 - s;
        double complex v = y[i];
        if (t_lower)
          for (int64_t j = 0; j < i; j++) v -= T[i * m + j] * y[j];
        else
          for (int64_t j = i + 1; j < m; j++) v -= T[i * m + j] * y[j];
        y[i] = v / T[i * m + i];
      }
      for (int64_t i = 0; i < m; i++) {
        int64_t at = boff + (left ? i * bc + col : col * bc + i);
        if (et_is_complex(lit_elem(out)))
          lit_set_c(out, at, creal(y[i]), cimag(y[i]));
        else
          lit_set_f(out, at, creal(y[i]));
      }
    }
  }
  xfree(T);
  xfree(y);
  res[0] = ival_tensor(out);
  return true;
}

/* ---- cholesky ----
 * Cholesky-Banachiewicz in double complex on the `lower` (or upper) triangle
 * of each matrix.  The other triangle of the result is set to zero, as in the
 * spec's example; a matrix that is not positive definite yields NaNs (the
 * spec leaves that undefined). */
bool interp_CHOLESKY(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensors(I, op, 1, args)) return false;
  const Literal *A = ARG_LIT(0);
  bool lower = attr_flag(op, "lower", false);
  int64_t n, nbatch;
  if (!square_batches(I, op, A->type, &n, &nbatch)) return false;
  Literal *out = lit_new(op->res[0].type);
  if (out->n != A->n) {
    lit_free(out);
    return interp_error(I, op, "result shape must equal the operand's");
  }
  bool cplx = et_is_complex(lit_elem(A));
  double complex *Lm = xmalloc(sizeof(double complex) * (size_t)(n * n > 0 ? n * n : 1));
  for (int64_t bi = 0; bi < nbatch; bi++) {
    int64_t off = bi * n * n;
    for (int64_t i = 0; i < n * n; i++) Lm[i] = 0;
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j <= i; j++) {
        /* a[i][j] of the Hermitian matrix, read from the chosen triangle */
        double re, im;
        if (lower) {
          lit_get_c(A, off + i * n + j, &re, &im);
        } else {
          lit_get_c(A, off + j * n + i, &re, &im);
          im = -im;
        }
        double complex s = cplx_make(re, cplx ? im : 0);
        for (int64_t k = 0; k < j; k++) s -= Lm[i * n + k] * conj(Lm[j * n + k]);
        if (i == j)
          Lm[i * n + i] = csqrt(cplx_make(creal(s), 0)) * (creal(s) < 0 ? NAN : 1);
        else
          Lm[i * n + j] = s / Lm[j * n + j];
      }
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j <= i; j++) {
        double complex v = lower ? Lm[i * n + j] : conj(Lm[i * n + j]);
        int64_t at = lower ? off + i * n + j : off + j * n + i;
        if (cplx)
          lit_set_c(out, at, creal(v), cimag(v));
        else
          lit_set_f(out, at, creal(v));
      }
  }
  xfree(Lm);
  res[0] = ival_tensor(out);
  return true;
}

/* ---- batch norm ----
 * The spec's formulas evaluated in double, rounded once per stored value.
 * Elements are grouped by their index along feature_index: `inner` elements
 * per feature step, `outer` blocks. */
typedef struct BNShape {
  int64_t nf, inner, outer, count; /* count = elements per feature */
} BNShape;

static bool bn_shape(Interp *I, Op *op, const Literal *x, int nvec, const Literal **vecs,
                     BNShape *s) {
  int64_t fi = op_attr_int(op, "feature_index", -1);
  const Type *t = x->type;
  if (fi < 0 || fi >= t->rank) return interp_error(I, op, "feature_index %lld out of range", (long long)fi);
  if (!et_is_float(lit_elem(x))) return interp_error(I, op, "batch_norm expects a floating-point operand");
  s->nf = t->dims[fi];
  s->inner = 1;
  s->outer = 1;
  for (int i = 0; i < t->rank; i++) {
    if (i < fi) s->outer *= t->dims[i];
    if (i > fi) s->inner *= t->dims[i];
  }
  s->count = s->inner * s->outer;
  for (int i = 0; i < nvec; i++)
    if (vecs[i]->type->rank != 1 || vecs[i]->n != s->nf)
      return interp_error(I, op, "operand %d must be a vector of %lld features", i + 1, (long long)s->nf);
  return true;
}

static inline int64_t bn_at(const BNShape *s, int64_t f, int64_t k) {
  /* k-th element of feature f */
  return (k / s->inner) * s->nf * s->inner + f * s->inner + k % s->inner;
}

static double bn_epsilon(const Op *op) {
  Attr *a = op_attr(op, "epsilon");
  if (!a) return 0;
  if (a->kind == ATTR_FLOAT) return (float)a->f; /* the spec types it f32 */
  if (a->kind == ATTR_INT) return (double)a->i;
  return 0;
}

static void bn_mean_var(const BNShape *s, const Literal *x, int64_t f, double *mean, double *var) {
  double sum = 0, sq = 0;
  for (int64_t k = 0; k < s->count; k++) sum += lit_get_f(x, bn_at(s, f, k));
  double m = s->count ? sum / (double)s->count : NAN;
  for (int64_t k = 0; k < s->count; k++) {
    double d = lit_get_f(x, bn_at(s, f, k)) - m;
    sq += d * d;
  }
  *mean = m;
  *var = s->count ? sq / (double)s->count : NAN;
}

bool interp_BATCH_NORM_INFERENCE(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensors(I, op, 5, args)) return false;
  const Literal *x = ARG_LIT(0);
  const Literal *vecs[4] = {ARG_LIT(1), ARG_LIT(2), ARG_LIT(3), ARG_LIT(4)};
  BNShape s;
  if (!bn_shape(I, op, x, 4, vecs, &s)) return false;
  double eps = bn_epsilon(op);
  Literal *out = lit_new(op->res[0].type);
  for (int64_t f = 0; f < s.nf; f++) {
    double scale = lit_get_f(vecs[0], f), offset = lit_get_f(vecs[1], f);
    double mean = lit_get_f(vecs[2], f), var = lit_get_f(vecs[3], f);
    double stddev = sqrt(var + eps);
    for (int64_t k = 0; k < s.count; k++) {
      int64_t at = bn_at(&s, f, k);
      lit_set_f(out, at, scale * ((lit_get_f(x, at) - mean) / stddev) + offset);
    }
  }
  res[0] = ival_tensor(out);
  return true;
}

bool interp_BATCH_NORM_TRAINING(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensors(I, op, 3, args)) return false;
  const Literal *x = ARG_LIT(0);
  const Literal *vecs[2] = {ARG_LIT(1), ARG_LIT(2)};
  BNShape s;
  if (!bn_shape(I, op, x, 2, vecs, &s)) return false;
  if (op->nres != 3) return interp_error(I, op, "batch_norm_training has 3 results");
  double eps = bn_epsilon(op);
  Literal *out = lit_new(op->res[0].type), *bm = lit_new(op->res[1].type), *bv = lit_new(op->res[2].type);
  for (int64_t f = 0; f < s.nf; f++) {
    double mean, var;
    bn_mean_var(&s, x, f, &mean, &var);
    double scale = lit_get_f(vecs[0], f), offset = lit_get_f(vecs[1], f);
    double stddev = sqrt(var + eps);
    for (int64_t k = 0; k < s.count; k++) {
      int64_t at = bn_at(&s, f, k);
      lit_set_f(out, at, scale * ((lit_get_f(x, at) - mean) / stddev) + offset);
    }
    if (f < bm->n) lit_set_f(bm, f, mean);
    if (f < bv->n) lit_set_f(bv, f, var);
  }
  res[0] = ival_tensor(out);
  res[1] = ival_tensor(bm);
  res[2] = ival_tensor(bv);
  return true;
}

bool interp_BATCH_NORM_GRAD(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!need_tensors(I, op, 5, args)) return false;
  const Literal *x = ARG_LIT(0), *dy = ARG_LIT(4);
  const Literal *vecs[3] = {ARG_LIT(1), ARG_LIT(2), ARG_LIT(3)};
  BNShape s;
  if (!bn_shape(I, op, x, 3, vecs, &s)) return false;
  if (dy->n != x->n) return interp_error(I, op, "grad_output must have the operand's shape");
  if (op->nres != 3) return interp_error(I, op, "batch_norm_grad has 3 results");
  double eps = bn_epsilon(op);
  Literal *dx = lit_new(op->res[0].type), *dscale = lit_new(op->res[1].type),
          *doffset = lit_new(op->res[2].type);
  double n = (double)s.count;
  for (int64_t f = 0; f < s.nf; f++) {
    double scale = lit_get_f(vecs[0], f), mean = lit_get_f(vecs[1], f), var = lit_get_f(vecs[2], f);
    double stddev = sqrt(var + eps);
    double sum_dy = 0, sum_dy_c = 0, sum_dy_norm = 0;
    for (int64_t k = 0; k < s.count; k++) {
      int64_t at = bn_at(&s, f, k);
      double c = lit_get_f(x, at) - mean, g = lit_get_f(dy, at);
      sum_dy += g;
      sum_dy_c += g * c;
      sum_dy_norm += g * (c / stddev);
    }
    /* i1..i6 as in the spec's decomposition */
    for (int64_t k = 0; k < s.count; k++) {
      int64_t at = bn_at(&s, f, k);
      double c = lit_get_f(x, at) - mean, g = lit_get_f(dy, at);
      double i6 = g * n - sum_dy - sum_dy_c * c / (var + eps);
      lit_set_f(dx, at, scale / stddev / n * i6);
    }
    if (f < dscale->n) lit_set_f(dscale, f, sum_dy_norm);
    if (f < doffset->n) lit_set_f(doffset, f, sum_dy);
  }
  res[0] = ival_tensor(dx);
  res[1] = ival_tensor(dscale);
  res[2] = ival_tensor(doffset);
  return true;
}
