/*
 * expand.c - the expand pass: ops that the code generator should not have
 * to know, rewritten into ops it does know, and dot products put into one
 * canonical shape.
 *
 *   - batch_norm_inference / batch_norm_training / batch_norm_grad become
 *     elementwise ops, reduce (sums over every dimension but the feature
 *     one) and broadcast_in_dim, following the spec's formulas.  f16/bf16
 *     operands are computed in f32 and rounded back, since sums in 16 bits
 *     lose too much.
 *   - dot (deprecated) becomes dot_general.
 *   - dot_general becomes a batched matrix product: the lhs transposed to
 *     [batch..., m..., k...] and the rhs to [batch..., k..., n...] (only
 *     where the operand is not already in that order), both reshaped to
 *     [B, M, K] x [B, K, N] (rank 2 without batch dimensions), and the
 *     [B, M, N] product reshaped to the spec's result order (batch, lhs
 *     free, rhs free).  Products of [B,] [M, K] or [K, M] by [K, N] or
 *     [N, K] stay as they are: GEMMs take transposed operands; so do
 *     operands already stored as [batch..., k..., m...] (lhs) or
 *     [batch..., n..., k...] (rhs), which are reshaped, not transposed.  The
 *     product carries the unit attribute "xlac.canonical", so the code
 *     generator can call a GEMM on it without re-deriving the layout, and
 *     this pass leaves it alone next time.
 *   - a transpose of a product used only there that puts an lhs free
 *     dimension innermost becomes the product with its operands swapped
 *     and what is left of the transpose, which keeps the innermost
 *     dimension in place: transpose([1, 0]) of a matrix product becomes
 *     B^T A^T with no transpose (JAX's gradients with respect to a
 *     weight), attention's dK^T transposed back to [batch, seq, heads,
 *     dim] a product in [batch, heads, seq, dim] and a copy of rows.
 *   - einsum / unary_einsum whose config has no repeated letter within one
 *     term: letters summed away inside one operand by reduce, the two
 *     operands combined by dot_general, the result transposed to the
 *     output's letter order.
 *   - convolutions on f16/bf16 are computed in f32 and rounded once.
 * cholesky, triangular_solve and rng stay as they are.
 *
 * Every rewrite computes the spec's values; sums may be associated
 * differently from the interpreter's loops (float reassociation only).
 */
#include <stdlib.h>
#include <string.h>

#include "passes/build.h"
#include "passes/passes.h"

typedef Builder B;

/* the vector v (one entry per feature) spread along dimension fi of `like` */
static Value *spread(B *b, Value *v, const Type *like, int64_t fi) {
  Value *r = bld_op(b, OP_BROADCAST_IN_DIM, 1, &v, bld_tensor(b, v->type->elem, like->rank, like->dims));
  op_set_attr(b->m, r->def, "broadcast_dimensions", attr_ints(b->m, 1, &fi));
  return r;
}

/* sum of x over every dimension but fi: a vector of x's dims[fi] entries */
static Value *sum_but(B *b, Value *x, int64_t fi) {
  Module *m = b->m;
  const Type *t = x->type;
  int64_t dims[64], n = 0;
  for (int i = 0; i < t->rank; i++)
    if (i != fi) dims[n++] = i;
  Value *in[2] = {x, bld_const_f(b, type_scalar(&m->arena, t->elem), 0)};
  Type *rt = bld_tensor(b, t->elem, 1, &t->dims[fi]);
  Op *r = op_new(m, OP_REDUCE, 2, in, 1, &rt, b->loc);
  block_insert_before(b->blk, b->at, r);
  op_set_attr(m, r, "dimensions", attr_ints(m, (int)n, dims));
  Block *body = block_new(m);
  Value *p = block_add_arg(m, body, type_scalar(&m->arena, t->elem), NULL);
  Value *q = block_add_arg(m, body, type_scalar(&m->arena, t->elem), NULL);
  B bb = {m, body, NULL, b->loc};
  Value *s = bld_add(&bb, p, q);
  block_append(body, op_new(m, OP_RETURN, 1, &s, 0, NULL, b->loc));
  op_add_region(m, r, body);
  return &r->res[0];
}

/* ---- batch norm ---- */

static bool bn_ok(Op *op, int nopnds, int nres, int64_t *fi, ElemType *work) {
  if (op->nopnds != nopnds || op->nres != nres) return false;
  const Type *t = op->opnds[0]->type;
  if (t->kind != TY_TENSOR || t->quant || !et_is_float(t->elem) || t->rank > 64) return false;
  for (int i = 1; i < nopnds; i++) {
    const Type *u = op->opnds[i]->type;
    if (u->kind != TY_TENSOR || u->quant || u->elem != t->elem) return false;
  }
  *fi = op_attr_int(op, "feature_index", -1);
  if (*fi < 0 || *fi >= t->rank) return false;
  ElemType et = t->elem;
  if (et == ET_F32 || et == ET_F64) *work = et;
  else if (et == ET_F16 || et == ET_BF16) *work = ET_F32;
  else return false;
  return true;
}

static double bn_epsilon(const Op *op) {
  Attr *a = op_attr(op, "epsilon");
  if (!a) return 0;
  if (a->kind == ATTR_FLOAT) return (float)a->f; /* the spec types it f32 */
  if (a->kind == ATTR_INT) return (double)a->i;
  return 0;
}

/* scale * ((x - mean) / sqrt(var + eps)) + offset, the vectors spread */
static Value *bn_normalize(B *b, Value *x, int64_t fi, Value *scale, Value *offset, Value *mean,
                           Value *var, double eps) {
  const Type *t = x->type;
  Value *sd = bld_op(b, OP_SQRT, 1, (Value *[]){bld_add(b, var, bld_const_f(b, var->type, eps))}, var->type);
  Value *c = bld_sub(b, x, spread(b, mean, t, fi));
  Value *nrm = bld_div(b, c, spread(b, sd, t, fi));
  return bld_add(b, bld_mul(b, spread(b, scale, t, fi), nrm), spread(b, offset, t, fi));
}

static bool rw_bn_inference(B *b, Op *op, Value **out) {
  int64_t fi;
  ElemType w;
  if (!bn_ok(op, 5, 1, &fi, &w)) return false;
  Value *v[5];
  for (int i = 0; i < 5; i++) v[i] = bld_convert(b, op->opnds[i], w);
  Value *r = bn_normalize(b, v[0], fi, v[1], v[2], v[3], v[4], bn_epsilon(op));
  out[0] = bld_convert(b, r, op->res[0].type->elem);
  return true;
}

static bool rw_bn_training(B *b, Op *op, Value **out) {
  int64_t fi;
  ElemType w;
  if (!bn_ok(op, 3, 3, &fi, &w)) return false;
  Value *x = bld_convert(b, op->opnds[0], w);
  Value *scale = bld_convert(b, op->opnds[1], w), *offset = bld_convert(b, op->opnds[2], w);
  const Type *t = x->type;
  int64_t count = type_num_elements(t) / (t->dims[fi] ? t->dims[fi] : 1);
  if (t->dims[fi] == 0) count = 0;
  Value *n = bld_const_f(b, scale->type, (double)count);
  Value *mean = bld_div(b, sum_but(b, x, fi), n);
  Value *c = bld_sub(b, x, spread(b, mean, t, fi));
  Value *var = bld_div(b, sum_but(b, bld_mul(b, c, c), fi), n);
  Value *r = bn_normalize(b, x, fi, scale, offset, mean, var, bn_epsilon(op));
  ElemType et = op->res[0].type->elem;
  out[0] = bld_convert(b, r, et);
  out[1] = bld_convert(b, mean, et);
  out[2] = bld_convert(b, var, et);
  return true;
}

/* The spec's decomposition of batch_norm_grad:
     i6 = dy * N - sum(dy) - sum(dy * c) * c / (var + eps)
     grad_operand = scale / stddev / N * i6
     grad_scale = sum(dy * c / stddev), grad_offset = sum(dy)
   with c = x - mean and stddev = sqrt(var + eps). */
static bool rw_bn_grad(B *b, Op *op, Value **out) {
  int64_t fi;
  ElemType w;
  if (!bn_ok(op, 5, 3, &fi, &w)) return false;
  if (!type_same_shape(op->opnds[0]->type, op->opnds[4]->type)) return false;
  Value *x = bld_convert(b, op->opnds[0], w), *dy = bld_convert(b, op->opnds[4], w);
  Value *scale = bld_convert(b, op->opnds[1], w), *mean = bld_convert(b, op->opnds[2], w),
        *var = bld_convert(b, op->opnds[3], w);
  const Type *t = x->type;
  int64_t count = t->dims[fi] ? type_num_elements(t) / t->dims[fi] : 0;
  Value *ve = bld_add(b, var, bld_const_f(b, var->type, bn_epsilon(op)));
  Value *sd = bld_op(b, OP_SQRT, 1, &ve, ve->type);
  Value *c = bld_sub(b, x, spread(b, mean, t, fi));
  Value *sum_dy = sum_but(b, dy, fi);
  Value *sum_dyc = sum_but(b, bld_mul(b, dy, c), fi);
  Value *i1 = bld_mul(b, dy, bld_const_f(b, t, (double)count));
  Value *i5 = bld_div(b, bld_mul(b, spread(b, sum_dyc, t, fi), c), spread(b, ve, t, fi));
  Value *i6 = bld_sub(b, bld_sub(b, i1, spread(b, sum_dy, t, fi)), i5);
  Value *k = bld_div(b, bld_div(b, scale, sd), bld_const_f(b, scale->type, (double)count));
  ElemType et = op->res[0].type->elem;
  out[0] = bld_convert(b, bld_mul(b, spread(b, k, t, fi), i6), et);
  Value *nrm = bld_div(b, c, spread(b, sd, t, fi));
  out[1] = bld_convert(b, sum_but(b, bld_mul(b, dy, nrm), fi), et);
  out[2] = bld_convert(b, sum_dy, et);
  return true;
}

/* ---- dot products ---- */

static bool plain(const Type *t) { return t->kind == TY_TENSOR && !t->quant && t->rank <= 64; }

static void copy_dot_attrs(Module *m, Op *from, Op *to) {
  Attr *a;
  if ((a = op_attr(from, "precision_config"))) op_set_attr(m, to, "precision_config", a);
  if ((a = op_attr(from, "algorithm"))) op_set_attr(m, to, "algorithm", a);
}

static Attr *dot_dims(Module *m, int nb, const int64_t *lb, const int64_t *rb, int nc, const int64_t *lc,
                      const int64_t *rc) {
  static const char *const keys[] = {"lhs_batching_dimensions", "rhs_batching_dimensions",
                                     "lhs_contracting_dimensions", "rhs_contracting_dimensions"};
  Attr *v[4] = {attr_ints(m, nb, lb), attr_ints(m, nb, rb), attr_ints(m, nc, lc), attr_ints(m, nc, rc)};
  return attr_dict(m, "stablehlo.dot", 4, keys, v);
}

static bool perm_is_identity(const int64_t *p, int n) {
  for (int i = 0; i < n; i++)
    if (p[i] != i) return false;
  return true;
}

/* p[start..] is two runs of lengths n1 and n2; swaps the runs in place. */
static void rotate_block(int64_t *p, int start, int n1, int n2) {
  int64_t tmp[64];
  for (int i = 0; i < n1; i++) tmp[i] = p[start + i];
  for (int i = 0; i < n2; i++) p[start + i] = p[start + n1 + i];
  for (int i = 0; i < n1; i++) p[start + n2 + i] = tmp[i];
}

/* Whether p is the identity once its runs p[start..start+n1) and the n2
   after them are swapped. */
static bool moved_is_identity(const int64_t *p, int start, int n1, int n2) {
  int64_t q[64];
  int n = start + n1 + n2;
  for (int i = 0; i < n; i++) q[i] = p[i];
  rotate_block(q, start, n1, n2);
  return perm_is_identity(q, n);
}

/* The canonical product of lhs [batch.., m.., k..] and rhs [batch.., k.., n..]
   given as lists of dimensions of each operand; the result has type rt. */
static Value *canonical_dot(B *b, Op *orig, Value *lhs, Value *rhs, int nb, const int64_t *lb,
                            const int64_t *rb, int nc, const int64_t *lc, const int64_t *rc,
                            const Type *rt) {
  Module *m = b->m;
  const Type *lt = lhs->type, *rtt = rhs->type;
  int64_t lp[64], rp[64], nl = 0, nr = 0;
  int64_t B_ = 1, M = 1, K = 1, N = 1;
  for (int i = 0; i < nb; i++) {
    lp[nl++] = lb[i];
    rp[nr++] = rb[i];
    B_ *= lt->dims[lb[i]];
  }
  for (int d = 0; d < lt->rank; d++)
    if (!ints_contain(lb, nb, d) && !ints_contain(lc, nc, d)) {
      lp[nl++] = d;
      M *= lt->dims[d];
    }
  for (int i = 0; i < nc; i++) {
    lp[nl++] = lc[i];
    rp[nr++] = rc[i];
    K *= lt->dims[lc[i]];
  }
  for (int d = 0; d < rtt->rank; d++)
    if (!ints_contain(rb, nb, d) && !ints_contain(rc, nc, d)) {
      rp[nr++] = d;
      N *= rtt->dims[d];
    }
  /* An operand already stored as [batch.., k.., m..] (lhs) or
     [batch.., n.., k..] (rhs) is reshaped as it is and read transposed by
     the GEMM: a transpose here would be one more pass over it, and in a
     fusion whose other users want it untransposed, a second copy of the
     whole fusion written in a cache-hostile order (the weight gradients of
     JAX's training steps, which contract the leading batch x sequence
     dimensions of activations). */
  bool ta = !perm_is_identity(lp, nl) && moved_is_identity(lp, nb, nl - nb - nc, nc);
  bool tb = !perm_is_identity(rp, nr) && moved_is_identity(rp, nb, nc, nr - nb - nc);
  int rank = nb ? 3 : 2;
  int64_t ld[3] = {B_, M, K}, rd[3] = {B_, K, N}, od[3] = {B_, M, N};
  if (ta) {
    ld[1] = K, ld[2] = M;
    rotate_block(lp, nb, nl - nb - nc, nc);
  }
  if (tb) {
    rd[1] = N, rd[2] = K;
    rotate_block(rp, nb, nc, nr - nb - nc);
  }
  Value *l = bld_transpose(b, lhs, lp), *r = bld_transpose(b, rhs, rp);
  l = bld_reshape(b, l, rank, nb ? ld : ld + 1);
  r = bld_reshape(b, r, rank, nb ? rd : rd + 1);
  Value *v[2] = {l, r};
  Value *d = bld_op(b, OP_DOT_GENERAL, 2, v, bld_tensor(b, rt->elem, rank, nb ? od : od + 1));
  int64_t zero = 0, lk = ta ? rank - 2 : rank - 1, rk = tb ? rank - 1 : rank - 2;
  op_set_attr(m, d->def, "dot_dimension_numbers", dot_dims(m, nb ? 1 : 0, &zero, &zero, 1, &lk, &rk));
  copy_dot_attrs(m, orig, d->def);
  op_set_attr(m, d->def, "xlac.canonical", attr_unit(m));
  return bld_reshape(b, d, rt->rank, rt->dims);
}

static bool rw_dot(B *b, Op *op, Value **out) {
  Value *lhs = op->opnds[0], *rhs = op->opnds[1];
  if (op->nopnds != 2 || op->nres != 1 || !plain(lhs->type) || !plain(rhs->type)) return false;
  int lr = lhs->type->rank, rr = rhs->type->rank;
  if (lr < 1 || lr > 2 || rr < 1 || rr > 2) return false;
  if (lhs->type->dims[lr - 1] != rhs->type->dims[0]) return false;
  int64_t lc = lr - 1, rc = 0;
  out[0] = canonical_dot(b, op, lhs, rhs, 0, NULL, NULL, 1, &lc, &rc, op->res[0].type);
  return true;
}

static bool dims_ok(const int64_t *v, int n, int rank) {
  for (int i = 0; i < n; i++) {
    if (v[i] < 0 || v[i] >= rank) return false;
    for (int j = 0; j < i; j++)
      if (v[j] == v[i]) return false;
  }
  return true;
}

/* Already a (batched) matrix product as the code generator takes it:
   [batch] x [M, K] or [K, M] by [K, N] or [N, K], one contracting and at
   most one batch dimension, batch first.  The transposed forms are GEMMs
   with a transposed operand; copying the operand into [M, K] would only
   add a pass over it. */
static bool is_canonical(Op *op, int nb, const int64_t *lb, const int64_t *rb, int nc, const int64_t *lc,
                         const int64_t *rc) {
  int lr = op->opnds[0]->type->rank, rr = op->opnds[1]->type->rank;
  if (nc != 1 || nb > 1 || lr != 2 + nb || rr != 2 + nb) return false;
  if (nb == 1 && (lb[0] != 0 || rb[0] != 0)) return false;
  return lc[0] >= nb && rc[0] >= nb;
}

/* 1 when rewritten, 0 when left, 2 when only marked canonical */
static int rw_dot_general(B *b, Op *op, Value **out) {
  if (op_attr(op, "xlac.canonical")) return 0;
  Value *lhs = op->opnds[0], *rhs = op->opnds[1];
  if (op->nopnds != 2 || op->nres != 1 || !plain(lhs->type) || !plain(rhs->type) ||
      !plain(op->res[0].type))
    return 0;
  Attr *dn = op_attr(op, "dot_dimension_numbers");
  int64_t *lb, *rb, *lc, *rc;
  int nb = dict_ints(dn, "lhs_batching_dimensions", &lb), nb2 = dict_ints(dn, "rhs_batching_dimensions", &rb);
  int nc = dict_ints(dn, "lhs_contracting_dimensions", &lc), nc2 = dict_ints(dn, "rhs_contracting_dimensions", &rc);
  int lr = lhs->type->rank, rr = rhs->type->rank;
  if (!dn || nb < 0 || nc < 0 || nb != nb2 || nc != nc2 || !dims_ok(lb, nb, lr) || !dims_ok(rb, nb, rr) ||
      !dims_ok(lc, nc, lr) || !dims_ok(rc, nc, rr))
    return 0;
  for (int i = 0; i < nb; i++)
    if (ints_contain(lc, nc, lb[i]) || ints_contain(rc, nc, rb[i]) || lhs->type->dims[lb[i]] != rhs->type->dims[rb[i]])
      return 0;
  for (int i = 0; i < nc; i++)
    if (lhs->type->dims[lc[i]] != rhs->type->dims[rc[i]]) return 0;
  if (is_canonical(op, nb, lb, rb, nc, lc, rc)) {
    op_set_attr(b->m, op, "xlac.canonical", attr_unit(b->m));
    return 2;
  }
  out[0] = canonical_dot(b, op, lhs, rhs, nb, lb, rb, nc, lc, rc, op->res[0].type);
  return 1;
}

/* ---- einsum ---- */

/* Splits "ab,bc->ac" into terms; false when malformed or a letter repeats
   within one term (diagonals are left to the interpreter). */
static bool einsum_terms(const char *cfg, int nin, char terms[3][65]) {
  const char *arrow = cfg ? strstr(cfg, "->") : NULL;
  if (!arrow) return false;
  int t = 0, n = 0;
  for (const char *p = cfg;; p++) {
    if (p == arrow || *p == ',' || *p == 0) {
      terms[t][n] = 0;
      if (t == 2 && *p != 0) return false; /* a second arrow or a comma after it */
      if (p == arrow) {
        if (t + 1 != nin) return false;
        t = 2;
        n = 0;
        p++; /* skip '>' */
        continue;
      }
      if (*p == 0) break;
      if (++t >= 2) return false; /* at most two inputs */
      n = 0;
      continue;
    }
    if (*p == ' ') continue;
    if (n >= 64 || !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))) return false;
    if (memchr(terms[t], *p, (size_t)n)) return false;
    terms[t][n++] = *p;
  }
  return t == 2;
}

/* x with the dimensions whose letters are not in `keep` summed away;
   *term becomes the remaining letters. */
static Value *sum_letters(B *b, Value *x, char *term, const char *keep1, const char *keep2) {
  Module *m = b->m;
  const Type *t = x->type;
  int64_t red[64], nred = 0, dims[64], nd = 0;
  char rest[65];
  for (int i = 0; i < t->rank; i++) {
    if (strchr(keep1, term[i]) || (keep2 && strchr(keep2, term[i]))) {
      dims[nd] = t->dims[i];
      rest[nd++] = term[i];
    } else {
      red[nred++] = i;
    }
  }
  rest[nd] = 0;
  if (nred == 0) return x;
  strcpy(term, rest);
  Value *in[2] = {x, bld_const_f(b, type_scalar(&m->arena, t->elem), 0)};
  Type *rt = bld_tensor(b, t->elem, (int)nd, dims);
  Op *r = op_new(m, OP_REDUCE, 2, in, 1, &rt, b->loc);
  block_insert_before(b->blk, b->at, r);
  op_set_attr(m, r, "dimensions", attr_ints(m, (int)nred, red));
  Block *body = block_new(m);
  Value *p = block_add_arg(m, body, type_scalar(&m->arena, t->elem), NULL);
  Value *q = block_add_arg(m, body, type_scalar(&m->arena, t->elem), NULL);
  B bb = {m, body, NULL, b->loc};
  Value *s = et_is_pred(t->elem) ? bld_bin(&bb, OP_OR, p, q) : bld_add(&bb, p, q);
  block_append(body, op_new(m, OP_RETURN, 1, &s, 0, NULL, b->loc));
  op_add_region(m, r, body);
  return &r->res[0];
}

static bool rw_einsum(B *b, Op *op, Value **out) {
  int nin = op->kind == OP_EINSUM ? 2 : 1;
  if (op->nopnds != nin || op->nres != 1 || !plain(op->res[0].type)) return false;
  for (int i = 0; i < nin; i++)
    if (!plain(op->opnds[i]->type) || op->opnds[i]->type->elem != op->res[0].type->elem) return false;
  char terms[3][65] = {{0}};
  const char *cfg = op_attr_str(op, "einsum_config");
  if (!einsum_terms(cfg, nin, terms)) return false;
  const Type *rt = op->res[0].type;
  if ((int)strlen(terms[2]) != rt->rank) return false;
  for (int i = 0; i < nin; i++)
    if ((int)strlen(terms[i]) != op->opnds[i]->type->rank) return false;
  /* every output letter must come from an input, with matching sizes */
  for (int i = 0; i < rt->rank; i++) {
    bool found = false;
    for (int k = 0; k < nin; k++) {
      const char *p = strchr(terms[k], terms[2][i]);
      if (p) {
        found = true;
        if (op->opnds[k]->type->dims[p - terms[k]] != rt->dims[i]) return false;
      }
    }
    if (!found) return false;
  }
  Value *x = sum_letters(b, op->opnds[0], terms[0], terms[2], nin == 2 ? terms[1] : NULL);
  char cur[65];
  if (nin == 1) {
    strcpy(cur, terms[0]);
  } else {
    Value *y = sum_letters(b, op->opnds[1], terms[1], terms[2], terms[0]);
    /* shared letters: batch when in the output, contracted otherwise */
    int64_t lb[64], rb[64], lc[64], rc[64];
    int nb = 0, nc = 0;
    for (int i = 0; terms[0][i]; i++) {
      const char *p = strchr(terms[1], terms[0][i]);
      if (!p) continue;
      int64_t j = p - terms[1];
      if (x->type->dims[i] != y->type->dims[j]) return false;
      if (strchr(terms[2], terms[0][i])) {
        lb[nb] = i;
        rb[nb++] = j;
      } else {
        lc[nc] = i;
        rc[nc++] = j;
      }
    }
    /* dot_general result: batch (lhs order), lhs free, rhs free */
    int64_t dims[64];
    int n = 0;
    for (int i = 0; i < nb; i++) {
      cur[n] = terms[0][lb[i]];
      dims[n++] = x->type->dims[lb[i]];
    }
    for (int i = 0; terms[0][i]; i++)
      if (!strchr(terms[1], terms[0][i])) {
        cur[n] = terms[0][i];
        dims[n++] = x->type->dims[i];
      }
    for (int i = 0; terms[1][i]; i++)
      if (!strchr(terms[0], terms[1][i])) {
        cur[n] = terms[1][i];
        dims[n++] = y->type->dims[i];
      }
    cur[n] = 0;
    if (n != rt->rank) return false;
    Type *dt = bld_tensor(b, rt->elem, n, dims);
    x = canonical_dot(b, op, x, y, nb, lb, rb, nc, lc, rc, dt);
  }
  if ((int)strlen(cur) != rt->rank) return false;
  int64_t perm[64];
  for (int i = 0; i < rt->rank; i++) {
    const char *p = strchr(cur, terms[2][i]);
    if (!p) return false;
    perm[i] = p - cur;
  }
  out[0] = bld_transpose(b, x, perm);
  return true;
}

/* ---- 16-bit convolutions ---- */

/* A convolution on f16/bf16 is computed in f32 and rounded once at the end
   (the GEMM behind convolutions takes f32 and f64), which is closer to the
   exact result than rounding partial sums to 16 bits. */
static bool rw_conv_half(B *b, Op *op, Value **out) {
  if (op->nopnds != 2 || op->nres != 1) return false;
  const Type *rt = op->res[0].type;
  if (!plain(rt) || (rt->elem != ET_F16 && rt->elem != ET_BF16)) return false;
  for (int i = 0; i < 2; i++)
    if (!plain(op->opnds[i]->type) || op->opnds[i]->type->elem != rt->elem) return false;
  Value *in[2] = {bld_convert(b, op->opnds[0], ET_F32), bld_convert(b, op->opnds[1], ET_F32)};
  Type *ft = bld_shape_of(b, rt, ET_F32);
  Op *c = op_new(b->m, OP_CONVOLUTION, 2, in, 1, &ft, op->loc);
  for (int i = 0; i < op->nattrs; i++) op_set_attr(b->m, c, op->attrs[i].name, op->attrs[i].attr);
  block_insert_before(b->blk, b->at, c);
  out[0] = bld_convert(b, &c->res[0], rt->elem);
  return true;
}

/* ---- the pass ---- */

typedef VEC(Op *) OpVec;

static bool collect(Op *op, void *ud) {
  switch (op->kind) {
  case OP_BATCH_NORM_INFERENCE:
  case OP_BATCH_NORM_TRAINING:
  case OP_BATCH_NORM_GRAD:
  case OP_DOT:
  case OP_DOT_GENERAL:
  case OP_EINSUM:
  case OP_UNARY_EINSUM:
  case OP_CONVOLUTION: VEC_PUSH(*(OpVec *)ud, op); break;
  default: break;
  }
  return true;
}

static bool collect_transposes(Op *op, void *ud) {
  if (op->kind == OP_TRANSPOSE) VEC_PUSH(*(OpVec *)ud, op);
  return true;
}

/* 1 rewritten, 0 left alone, 2 changed in place */
static int rewrite(B *b, Op *op, Value **out) {
  switch (op->kind) {
  case OP_BATCH_NORM_INFERENCE: return rw_bn_inference(b, op, out);
  case OP_BATCH_NORM_TRAINING: return rw_bn_training(b, op, out);
  case OP_BATCH_NORM_GRAD: return rw_bn_grad(b, op, out);
  case OP_DOT: return rw_dot(b, op, out);
  case OP_DOT_GENERAL: return rw_dot_general(b, op, out);
  case OP_EINSUM:
  case OP_UNARY_EINSUM: return rw_einsum(b, op, out);
  case OP_CONVOLUTION: return rw_conv_half(b, op, out);
  default: return 0;
  }
}

/* A product whose only use is a transpose that puts an lhs free dimension
   innermost: the product with its operands swapped computes the result
   [batch.., rhs free.., lhs free..], and what is left of the transpose (if
   anything) keeps the innermost dimension in place, a copy in contiguous
   runs instead of a gather of single elements.  transpose(A B) of matrices
   becomes B^T A^T with no transpose left (JAX's gradient with respect to a
   weight); attention's gradient dK^T = (dS^T Q)^T, transposed back to
   [batch, seq, heads, dim], becomes a product written in the order the
   transpose wants but for the heads. */
typedef struct Swap {
  Op *dot;
  int nb, nl, nr;           /* batch, lhs free, rhs free dimensions of the result */
  int64_t *lb, *rb, *lc, *rc;
  int nc;
} Swap;

static bool transposed_product(const Op *t, const UseMap *u, Swap *s) {
  int64_t *p;
  if (t->kind != OP_TRANSPOSE || t->nopnds != 1 || !plain(t->res[0].type)) return false;
  Op *d = t->opnds[0]->def;
  if (!d || d->kind != OP_DOT_GENERAL || d->nopnds != 2 || d->nres != 1 || uses_count(u, &d->res[0]) != 1 ||
      !plain(d->opnds[0]->type) || !plain(d->opnds[1]->type) || !plain(d->res[0].type))
    return false;
  int r = d->res[0].type->rank;
  if (op_attr_ints(t, "permutation", &p) != r || r < 2) return false;
  Attr *dn = op_attr(d, "dot_dimension_numbers");
  int nb = dict_ints(dn, "lhs_batching_dimensions", &s->lb), nb2 = dict_ints(dn, "rhs_batching_dimensions", &s->rb);
  int nc = dict_ints(dn, "lhs_contracting_dimensions", &s->lc), nc2 = dict_ints(dn, "rhs_contracting_dimensions", &s->rc);
  if (!dn || nb < 0 || nc < 0 || nb != nb2 || nc != nc2) return false;
  int nl = d->opnds[0]->type->rank - nb - nc, nr = d->opnds[1]->type->rank - nb - nc;
  if (nl < 1 || nr < 1 || nb + nl + nr != r) return false;
  /* the transposed result's innermost dimension is the lhs's last free one */
  if (p[r - 1] != nb + nl - 1) return false;
  *s = (Swap){d, nb, nl, nr, s->lb, s->rb, s->lc, s->rc, nc};
  return true;
}

/* transpose(dot(A, B)) -> transpose'(dot(B, A)), as transposed_product
   describes. */
static int swap_transposed_products(Module *m, Func *f) {
  UseMap u;
  uses_compute(&u, f);
  OpVec ops = {0};
  block_walk(f->body, collect_transposes, &ops);
  int changed = 0;
  for (int i = 0; i < ops.len; i++) {
    Op *t = ops.data[i];
    Swap s;
    if (!transposed_product(t, &u, &s)) continue;
    Op *d = s.dot;
    const Type *dt = d->res[0].type;
    int r = dt->rank;
    /* old result dimension x is new dimension at[x] */
    int64_t at[64], dims[64], perm[64], *p;
    op_attr_ints(t, "permutation", &p);
    for (int x = 0; x < r; x++) at[x] = x < s.nb ? x : x < s.nb + s.nl ? x + s.nr : x - s.nl;
    for (int x = 0; x < r; x++) dims[at[x]] = dt->dims[x];
    for (int k = 0; k < r; k++) perm[k] = at[p[k]];
    B b = {m, t->parent, t, t->loc};
    Value *v[2] = {d->opnds[1], d->opnds[0]};
    Value *pr = bld_op(&b, OP_DOT_GENERAL, 2, v, bld_tensor(&b, dt->elem, r, dims));
    op_set_attr(m, pr->def, "dot_dimension_numbers", dot_dims(m, s.nb, s.rb, s.lb, s.nc, s.rc, s.lc));
    copy_dot_attrs(m, d, pr->def);
    /* the operands' precisions swap with them */
    Attr *pc = op_attr(d, "precision_config");
    if (pc && pc->kind == ATTR_ARRAY && pc->n == 2) {
      Attr *sw[2] = {pc->elems[1], pc->elems[0]};
      op_set_attr(m, pr->def, "precision_config", attr_array(m, 2, sw));
    }
    Value *out[1] = {bld_transpose(&b, pr, perm)};
    bld_replace(f, t, out);
    changed = 1;
  }
  VEC_FREE(ops);
  uses_free(&u);
  return changed;
}

int pass_expand(Module *m, const PassOptions *o) {
  (void)o;
  int changed = 0;
  for (Func *f = m->funcs; f; f = f->next) {
    changed |= swap_transposed_products(m, f);
    OpVec ops = {0};
    block_walk(f->body, collect, &ops);
    for (int i = 0; i < ops.len; i++) {
      Op *op = ops.data[i];
      B b = {m, op->parent, op, op->loc};
      Value *out[3] = {NULL, NULL, NULL};
      Op *before_first = op->prev;
      int r = rewrite(&b, op, out);
      if (r != 1) {
        /* drop whatever a rewrite that gave up half way had built */
        bld_discard(op, before_first);
        if (r == 2) changed = 1;
        continue;
      }
      bld_replace(f, op, out);
      changed = 1;
    }
    VEC_FREE(ops);
  }
  return changed;
}
