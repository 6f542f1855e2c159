/*
 * ops_nn.c - TensorFlow ops: matrix products, convolutions, pooling,
 * normalization, softmax, resizing and top-k.
 *
 * Products lower to stablehlo.dot_general (Einsum to stablehlo.einsum,
 * which the legalize and expand passes turn into transposes, reductions and
 * dot_general), convolutions to stablehlo.convolution, pooling to
 * reduce_window, resizing to gathers at positions computed here, top-k to
 * chlo.top_k.  Half and bfloat16 products, convolutions and reductions run
 * in float32 and round once at the end, as TensorFlow's CPU kernels and XLA
 * do.  Where TensorFlow's kernels spell out the arithmetic (bilinear
 * interpolation, batch normalization, LRN), the lowering follows their order
 * of operations, so results round as TensorFlow's do.
 */
#include <math.h>
#include <string.h>

#include "frontends/tensorflow/tf_int.h"

/* ---- helpers ---- */

static bool need_inputs(TfCtx *c, int n) {
  if (c->nin < n) return tf_error(c, "expects %d inputs, has %d", n, c->nin);
  return true;
}

/* "1, 2, 3" in the module arena, for attribute text. */
static const char *ints_text(TfCtx *c, int n, const int64_t *v) {
  StrBuf b = {0};
  for (int i = 0; i < n; i++) sb_printf(&b, "%s%lld", i ? ", " : "", (long long)v[i]);
  char *s = sb_take(&b);
  char *r = arena_strdup(&c->b.m->arena, s);
  xfree(s);
  return r;
}

static bool is_half(ElemType et) { return et == ET_F16 || et == ET_BF16; }

/* Half and bfloat16 values computed in float32. */
static Value *widen(TfCtx *c, Value *x) { return is_half(x->type->elem) ? tf_convert(c, x, ET_F32) : x; }

/* dot_general of l and r (same element type) with the given batching and
   contracting dimensions; the result holds the batch dimensions, then l's
   free ones, then r's. */
static Value *dot_general(TfCtx *c, Value *l, Value *r, int nb, const int64_t *lb, const int64_t *rb, int nc,
                          const int64_t *lc, const int64_t *rc) {
  int rank = nb + (l->type->rank - nb - nc) + (r->type->rank - nb - nc);
  return tf_op_infer(c, OP_DOT_GENERAL, 2, (Value *[]){l, r}, l->type->elem, rank,
                     "{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [%s], "
                     "rhs_batching_dimensions = [%s], lhs_contracting_dimensions = [%s], "
                     "rhs_contracting_dimensions = [%s]>}",
                     ints_text(c, nb, lb), ints_text(c, nb, rb), ints_text(c, nc, lc), ints_text(c, nc, rc));
}

/* The complex conjugate (adjoint products); other types unchanged. */
static Value *conjugate(TfCtx *c, Value *x) {
  if (!et_is_complex(x->type->elem)) return x;
  ElemType re = et_real_part(x->type->elem);
  Type *rt = bld_shape_of(&c->b, x->type, re);
  Value *a = bld_op(&c->b, OP_REAL, 1, &x, rt);
  Value *b = bld_un(&c->b, OP_NEGATE, bld_op(&c->b, OP_IMAG, 1, &x, rt));
  return bld_op(&c->b, OP_COMPLEX, 2, (Value *[]){a, b}, x->type);
}

/* The data_format attribute of an op over nsp spatial dimensions: whether
   channels come first (NCHW) or last (NHWC). */
static bool read_format(TfCtx *c, int nsp, bool *cfirst) {
  static const char *const last[] = {"NWC", "NHWC", "NDHWC"}, *const first[] = {"NCW", "NCHW", "NCDHW"};
  const char *df = tf_attr_str(c, "data_format", last[nsp - 1]);
  if (!strcmp(df, last[nsp - 1]))
    *cfirst = false;
  else if (!strcmp(df, first[nsp - 1]))
    *cfirst = true;
  else
    return tf_error(c, "data_format '%s' is not supported (%s and %s are)", df, last[nsp - 1],
                    first[nsp - 1]);
  return true;
}

/* Position of spatial dimension i (of nsp) and of the channels. */
static int spatial_dim(bool cfirst, int i) { return cfirst ? 2 + i : 1 + i; }
static int channel_dim(bool cfirst, int nsp) { return cfirst ? 1 : nsp + 1; }

/* A per-dimension list (strides, ksize, dilations: nsp + 2 entries in
   data_format order) -> its spatial entries; batch and channel entries must
   be 1.  n < 0 (absent) gives def everywhere, or an error when def < 1. */
static bool spatial_list(TfCtx *c, const char *what, const int64_t *v, int n, int nsp, bool cfirst,
                         int64_t def, int64_t *out) {
  if (n < 0) {
    if (def < 1) return tf_error(c, "the attribute '%s' is missing", what);
    for (int i = 0; i < nsp; i++) out[i] = def;
    return true;
  }
  if (n != nsp + 2) return tf_error(c, "%s has %d entries; it must have %d", what, n, nsp + 2);
  if (v[0] != 1 || v[channel_dim(cfirst, nsp)] != 1)
    return tf_error(c, "%s along the batch or channel dimension must be 1", what);
  for (int i = 0; i < nsp; i++) {
    out[i] = v[spatial_dim(cfirst, i)];
    if (out[i] < 1) return tf_error(c, "%s must be positive", what);
  }
  return true;
}

/* Padding of the spatial dimensions of an input with sizes in[] under a
   window win[] (dilated by dil[]) moved by stride[]: SAME and VALID as
   TensorFlow splits them, EXPLICIT from explicit_paddings when allowed. */
static bool read_padding(TfCtx *c, int nsp, bool cfirst, const int64_t *in, const int64_t *win,
                         const int64_t *stride, const int64_t *dil, bool explicit_ok, int64_t *lo,
                         int64_t *hi) {
  const char *padding = tf_attr_str(c, "padding", NULL);
  if (!padding) return tf_error(c, "the attribute 'padding' is missing");
  if (!strcmp(padding, "EXPLICIT")) {
    if (!explicit_ok)
      return tf_error(c, "padding 'EXPLICIT' is not supported by this op (SAME and VALID are)");
    int64_t *p;
    int n = tf_attr_ints(c, "explicit_paddings", &p);
    if (n != 2 * (nsp + 2)) return tf_error(c, "explicit_paddings must have %d entries", 2 * (nsp + 2));
    int ch = channel_dim(cfirst, nsp);
    if (p[0] || p[1] || p[2 * ch] || p[2 * ch + 1])
      return tf_error(c, "explicit_paddings of the batch and channel dimensions must be 0");
    for (int i = 0; i < nsp; i++) {
      int d = spatial_dim(cfirst, i);
      lo[i] = p[2 * d];
      hi[i] = p[2 * d + 1];
      if (lo[i] < 0 || hi[i] < 0) return tf_error(c, "explicit_paddings must not be negative");
    }
    return true;
  }
  for (int i = 0; i < nsp; i++) {
    int64_t o;
    if (!tf_padding(c, padding, in[i], win[i], stride[i], dil[i], &o, &lo[i], &hi[i])) return false;
  }
  return true;
}

/* ---- matrix products ---- */

/* l x r over the given dimensions, computed in float32 for half types and
   rounded to `out`. */
static Value *product(TfCtx *c, Value *l, Value *r, int nb, const int64_t *lb, const int64_t *rb, int nc,
                      const int64_t *lc, const int64_t *rc, ElemType out) {
  Value *p = dot_general(c, widen(c, l), widen(c, r), nb, lb, rb, nc, lc, rc);
  return p ? tf_convert(c, p, out) : NULL;
}

static bool lower_matmul(TfCtx *c) {
  ElemType et;
  if (!need_inputs(c, 2) || !tf_attr_type(c, "T", &et)) return false;
  Value *a = c->in[0], *b = c->in[1];
  if (a->type->rank != 2 || b->type->rank != 2)
    return tf_error(c, "expects matrices, has inputs of rank %d and %d", a->type->rank, b->type->rank);
  if (a->type->elem != b->type->elem) return tf_error(c, "the inputs have different element types");
  int64_t lc = tf_attr_bool(c, "transpose_a", false) ? 0 : 1;
  int64_t rc = tf_attr_bool(c, "transpose_b", false) ? 1 : 0;
  if (a->type->dims[lc] != b->type->dims[rc])
    return tf_error(c, "the inner dimensions differ: %lld and %lld", (long long)a->type->dims[lc],
                    (long long)b->type->dims[rc]);
  Value *r = product(c, a, b, 0, NULL, NULL, 1, &lc, &rc, et);
  if (!r) return false;
  tf_out(c, r);
  return true;
}

/* BatchMatMul (equal batch dimensions), V2 (batch dimensions broadcast)
   and V3 (V2 with the result's element type Tout, the inputs converted to
   it first). */
static bool batch_matmul(TfCtx *c, int version) {
  ElemType et;
  if (!need_inputs(c, 2) || !tf_attr_type(c, version == 3 ? "Tout" : "T", &et)) return false;
  Value *x = c->in[0], *y = c->in[1];
  int rx = x->type->rank, ry = y->type->rank;
  if (rx < 2 || ry < 2) return tf_error(c, "expects inputs of rank 2 or more, has rank %d and %d", rx, ry);
  if (version == 3) {
    if (et_is_complex(et) != et_is_complex(x->type->elem) ||
        et_is_complex(et) != et_is_complex(y->type->elem))
      return tf_error(c, "mixes complex and real types");
    x = tf_convert(c, x, et);
    y = tf_convert(c, y, et);
  } else if (x->type->elem != y->type->elem) {
    return tf_error(c, "the inputs have different element types");
  }
  if (version == 1 && rx != ry) return tf_error(c, "the inputs have different ranks (%d and %d)", rx, ry);
  int nb = (rx > ry ? rx : ry) - 2;
  if (nb > 60) return tf_error(c, "rank above 62");
  int64_t dims[64];
  for (int i = 0; i < nb; i++) {
    int ix = i - (nb - (rx - 2)), iy = i - (nb - (ry - 2));
    int64_t dx = ix >= 0 ? x->type->dims[ix] : 1, dy = iy >= 0 ? y->type->dims[iy] : 1;
    if (dx != dy && (version == 1 || (dx != 1 && dy != 1)))
      return tf_error(c, "the batch dimensions do not %s: %lld and %lld at dimension %d",
                      version == 1 ? "match" : "broadcast", (long long)dx, (long long)dy, i);
    dims[i] = dx == 1 ? dy : dx;
  }
  dims[nb] = x->type->dims[rx - 2];
  dims[nb + 1] = x->type->dims[rx - 1];
  x = tf_broadcast_to(c, x, nb + 2, dims);
  dims[nb] = y->type->dims[ry - 2];
  dims[nb + 1] = y->type->dims[ry - 1];
  y = tf_broadcast_to(c, y, nb + 2, dims);
  if (!x || !y) return false;
  bool adj_x = tf_attr_bool(c, "adj_x", false), adj_y = tf_attr_bool(c, "adj_y", false);
  if (adj_x) x = conjugate(c, x);
  if (adj_y) y = conjugate(c, y);
  int64_t lc = adj_x ? nb : nb + 1, rc = adj_y ? nb + 1 : nb;
  if (x->type->dims[lc] != y->type->dims[rc])
    return tf_error(c, "the inner dimensions differ: %lld and %lld", (long long)x->type->dims[lc],
                    (long long)y->type->dims[rc]);
  int64_t bd[64];
  for (int i = 0; i < nb; i++) bd[i] = i;
  Value *r = product(c, x, y, nb, bd, bd, 1, &lc, &rc, et);
  if (!r) return false;
  tf_out(c, r);
  return true;
}

static bool lower_batch_matmul(TfCtx *c) { return batch_matmul(c, 1); }
static bool lower_batch_matmul_v2(TfCtx *c) { return batch_matmul(c, 2); }
static bool lower_batch_matmul_v3(TfCtx *c) { return batch_matmul(c, 3); }

/* One term of an einsum equation: its letters, with '.' standing for each
   dimension the ellipsis covers once the operand's rank is known. */
typedef struct EinTerm {
  char s[72];
  int len;      /* characters, the ellipsis counted once as '.' */
  int ellipsis; /* index of '.' in s, or -1 */
} EinTerm;

static bool ein_term(TfCtx *c, const char *p, size_t n, EinTerm *t) {
  t->len = 0;
  t->ellipsis = -1;
  for (size_t i = 0; i < n; i++) {
    char ch = p[i];
    if (ch == ' ') continue;
    if (ch == '.') {
      if (i + 2 >= n || p[i + 1] != '.' || p[i + 2] != '.' || t->ellipsis >= 0)
        return tf_error(c, "the equation has a malformed ellipsis");
      i += 2;
      t->ellipsis = t->len;
    } else if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'))) {
      return tf_error(c, "the equation has an unsupported character '%c'", ch);
    }
    if (t->len >= 64) return tf_error(c, "the equation has a term of more than 64 dimensions");
    t->s[t->len++] = ch;
  }
  return true;
}

/* Einsum of one or two operands.  The ellipsis becomes letters the equation
   does not use, over the operands' ellipsis dimensions broadcast to one
   shape; the rest is stablehlo.einsum / unary_einsum, which the compiler's
   passes lower (repeated letters as diagonals, letters missing from the
   result summed). */
static bool lower_einsum(TfCtx *c) {
  ElemType et;
  if (!tf_attr_type(c, "T", &et)) return false;
  const char *eq = tf_attr_str(c, "equation", NULL);
  if (!eq) return tf_error(c, "the attribute 'equation' is missing");
  int n = c->nin;
  if (n < 1 || n > 2) return tf_error(c, "has %d inputs; einsum of 1 or 2 is supported", n);
  const char *arrow = strstr(eq, "->");
  if (!arrow || strstr(arrow + 2, "->"))
    return tf_error(c, "expects exactly one '->' in the equation '%s'", eq);
  EinTerm t[3];
  int nt = 0;
  for (const char *p = eq; p <= arrow;) {
    const char *q = p;
    while (q < arrow && *q != ',') q++;
    if (nt == 2) return tf_error(c, "the equation '%s' has more than 2 input terms", eq);
    if (!ein_term(c, p, (size_t)(q - p), &t[nt++])) return false;
    p = q + 1;
  }
  if (nt != n) return tf_error(c, "the equation '%s' has %d input terms for %d inputs", eq, nt, n);
  if (!ein_term(c, arrow + 2, strlen(arrow + 2), &t[2])) return false;
  /* the ellipsis' dimensions, broadcast right-aligned */
  Value *in[2];
  int ne = 0, ecount[2];
  int64_t edims[64];
  for (int i = 0; i < n; i++) {
    in[i] = widen(c, c->in[i]);
    int letters = t[i].len - (t[i].ellipsis >= 0);
    ecount[i] = in[i]->type->rank - letters;
    if (ecount[i] < 0 || (t[i].ellipsis < 0 && ecount[i] != 0))
      return tf_error(c, "input %d has rank %d; the equation's term for it has %d letters", i,
                      in[i]->type->rank, letters);
    if (ecount[i] > ne) ne = ecount[i];
  }
  for (int j = 0; j < ne; j++) edims[j] = 1;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < ecount[i]; j++) {
      int64_t d = in[i]->type->dims[t[i].ellipsis + j];
      int64_t *e = &edims[ne - ecount[i] + j];
      if (d != *e && d != 1 && *e != 1)
        return tf_error(c, "the dimensions the ellipsis covers do not broadcast (%lld and %lld)",
                        (long long)d, (long long)*e);
      if (d != 1) *e = d;
    }
  if (ne > 0 && t[2].ellipsis < 0)
    return tf_error(c, "the inputs have %d broadcast dimension(s) but the output term has no ellipsis", ne);
  /* letters for the ellipsis' dimensions */
  char fresh[64];
  int nf = 0;
  for (int ch = 'A'; ch <= 'z' && nf < ne; ch++) {
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'))) continue;
    bool used = false;
    for (int i = 0; i < 3 && !used; i++) used = memchr(t[i].s, ch, (size_t)t[i].len) != NULL;
    if (!used) fresh[nf++] = (char)ch;
  }
  if (nf < ne) return tf_error(c, "the equation leaves too few letters for its ellipsis");
  /* the terms spelled out */
  StrBuf cfg = {0};
  for (int i = 0; i <= n; i++) {
    const EinTerm *tt = &t[i == n ? 2 : i];
    if (i == n)
      sb_puts(&cfg, "->");
    else if (i)
      sb_putc(&cfg, ',');
    for (int k = 0; k < tt->len; k++) {
      if (k != tt->ellipsis)
        sb_putc(&cfg, tt->s[k]);
      else
        sb_putn(&cfg, fresh, (size_t)ne);
    }
  }
  /* operands broadcast over the whole ellipsis: the letters before it, its
     dimensions (right-aligned), the letters after it */
  for (int i = 0; i < n; i++) {
    if (t[i].ellipsis < 0) continue;
    const Type *ty = in[i]->type;
    bool same = ecount[i] == ne;
    for (int j = 0; j < ecount[i] && same; j++) same = ty->dims[t[i].ellipsis + j] == edims[j];
    if (same) continue;
    int pre = t[i].ellipsis, rank = ty->rank - ecount[i] + ne;
    int64_t dims[128], map[64];
    for (int d = 0; d < ty->rank; d++) {
      int to = d < pre ? d : d < pre + ecount[i] ? pre + ne - ecount[i] + (d - pre) : d - ecount[i] + ne;
      map[d] = to;
      dims[to] = ty->dims[d];
    }
    for (int j = 0; j < ne; j++) dims[pre + j] = edims[j];
    in[i] = bld_broadcast(&c->b, in[i], tf_type(c, ty->elem, rank, dims), ty->rank, map);
  }
  char *text = sb_take(&cfg);
  /* letters must agree in size wherever they occur */
  int64_t size[128];
  for (int k = 0; k < 128; k++) size[k] = -1;
  const char *p = text;
  for (int i = 0; i < n; i++, p++)
    for (int d = 0; *p != ',' && *p != '-'; d++, p++) {
      int64_t s = in[i]->type->dims[d];
      if (size[(int)*p] >= 0 && size[(int)*p] != s) {
        tf_error(c, "letter '%c' of the equation has sizes %lld and %lld", *p, (long long)size[(int)*p],
                 (long long)s);
        xfree(text);
        return false;
      }
      size[(int)*p] = s;
    }
  /* the result's letters follow "->" */
  int64_t odims[128];
  int orank = 0;
  for (p = strstr(text, "->") + 2; *p; p++) {
    if (size[(int)*p] < 0 || strchr(p + 1, *p)) {
      tf_error(c, "the output letter '%c' is %s", *p, size[(int)*p] < 0 ? "in no input term" : "repeated");
      xfree(text);
      return false;
    }
    odims[orank++] = size[(int)*p];
  }
  Value *r = tf_op(c, n == 2 ? OP_EINSUM : OP_UNARY_EINSUM, n, in,
                   tf_type(c, in[0]->type->elem, orank, odims), "{einsum_config = \"%s\"}", text);
  xfree(text);
  if (!r) return false;
  tf_out(c, tf_convert(c, r, et));
  return true;
}

/* ---- bias ---- */

static bool bias_add(TfCtx *c, bool v1) {
  if (!need_inputs(c, 2)) return false;
  Value *x = c->in[0], *b = c->in[1];
  if (x->type->rank < 2) return tf_error(c, "expects a value of rank 2 or more, has rank %d", x->type->rank);
  if (b->type->rank != 1) return tf_error(c, "expects a bias vector, has rank %d", b->type->rank);
  if (x->type->elem != b->type->elem) return tf_error(c, "the inputs have different element types");
  int64_t ch = x->type->rank - 1;
  if (!v1) {
    const char *df = tf_attr_str(c, "data_format", "NHWC");
    if (!strcmp(df, "NCHW"))
      ch = 1;
    else if (strcmp(df, "NHWC"))
      return tf_error(c, "data_format '%s' is not supported (NHWC and NCHW are)", df);
  }
  if (x->type->dims[ch] != b->type->dims[0])
    return tf_error(c, "the bias has %lld elements for a dimension of %lld", (long long)b->type->dims[0],
                    (long long)x->type->dims[ch]);
  tf_out(c, bld_add(&c->b, x, bld_broadcast(&c->b, b, x->type, 1, &ch)));
  return true;
}

static bool lower_bias_add(TfCtx *c) { return bias_add(c, false); }
static bool lower_bias_add_v1(TfCtx *c) { return bias_add(c, true); }

/* ---- convolutions ---- */

/* stablehlo.convolution of x (batch, spatial..., feature in data_format
   order) with kernel k (spatial..., input feature, output feature; or
   output then input with swap_io), computed in float32 for half types. */
static Value *convolve(TfCtx *c, Value *x, Value *k, int nsp, bool cfirst, bool swap_io,
                       const int64_t *stride, const int64_t *lhs_dil, const int64_t *rhs_dil,
                       const int64_t *lo, const int64_t *hi, int64_t groups) {
  static const char *const sp[] = {"0", "0, 1", "0, 1, 2"};
  ElemType et = x->type->elem;
  StrBuf io = {0}, pad = {0};
  if (cfirst)
    sb_printf(&io, "[b, f, %s]", sp[nsp - 1]);
  else
    sb_printf(&io, "[b, %s, f]", sp[nsp - 1]);
  for (int i = 0; i < nsp; i++)
    sb_printf(&pad, "%s[%lld, %lld]", i ? ", " : "", (long long)lo[i], (long long)hi[i]);
  char *ios = sb_take(&io), *pads = sb_take(&pad);
  Value *r = tf_op_infer(
      c, OP_CONVOLUTION, 2, (Value *[]){widen(c, x), widen(c, k)}, is_half(et) ? ET_F32 : et, nsp + 2,
      "{dimension_numbers = #stablehlo.conv<%s x[%s, %s]->%s>, window_strides = array<i64: %s>, "
      "padding = dense<[%s]> : tensor<%dx2xi64>, lhs_dilation = array<i64: %s>, "
      "rhs_dilation = array<i64: %s>, feature_group_count = %lld : i64, "
      "batch_group_count = 1 : i64}",
      ios, sp[nsp - 1], swap_io ? "o, i" : "i, o", ios, ints_text(c, nsp, stride), pads, nsp,
      ints_text(c, nsp, lhs_dil), ints_text(c, nsp, rhs_dil), (long long)groups);
  xfree(ios);
  xfree(pads);
  return r ? tf_convert(c, r, et) : NULL;
}

/* Conv2D / Conv3D (grouped when the filter has fewer input channels than
   the input) and DepthwiseConv2dNative (filter [h, w, in, multiplier]:
   one group per input channel). */
static bool conv(TfCtx *c, int nsp, bool depthwise) {
  ElemType et;
  bool cfirst;
  if (!need_inputs(c, 2) || !tf_attr_type(c, "T", &et) || !read_format(c, nsp, &cfirst)) return false;
  Value *x = c->in[0], *k = c->in[1];
  if (x->type->rank != nsp + 2 || k->type->rank != nsp + 2)
    return tf_error(c, "expects an input and a filter of rank %d, has rank %d and %d", nsp + 2, x->type->rank,
                    k->type->rank);
  if (x->type->elem != k->type->elem) return tf_error(c, "the inputs have different element types");
  int64_t *sv, *dv, stride[3], dil[3], in[3], win[3], lo[3], hi[3], ones[3] = {1, 1, 1};
  int ns = tf_attr_ints(c, "strides", &sv), nd = tf_attr_ints(c, "dilations", &dv);
  if (!spatial_list(c, "strides", sv, ns, nsp, cfirst, 0, stride) ||
      !spatial_list(c, "dilations", dv, nd, nsp, cfirst, 1, dil))
    return false;
  for (int i = 0; i < nsp; i++) {
    in[i] = x->type->dims[spatial_dim(cfirst, i)];
    win[i] = k->type->dims[i];
  }
  if (!read_padding(c, nsp, cfirst, in, win, stride, dil, true, lo, hi)) return false;
  int64_t ch = x->type->dims[channel_dim(cfirst, nsp)], kin = k->type->dims[nsp],
          kout = k->type->dims[nsp + 1];
  int64_t groups;
  if (ch < 1) return tf_error(c, "the input has no channels (its channel dimension is %lld)", (long long)ch);
  if (depthwise) {
    if (kin != ch)
      return tf_error(c, "the filter has %lld input channels for an input of %lld", (long long)kin,
                      (long long)ch);
    int64_t kd[4] = {k->type->dims[0], k->type->dims[1], 1, kin * kout};
    k = bld_reshape(&c->b, k, 4, kd);
    groups = ch;
  } else {
    if (kin < 1 || ch % kin != 0)
      return tf_error(c, "the input's %lld channels are not a multiple of the filter's %lld input channels",
                      (long long)ch, (long long)kin);
    groups = ch / kin;
    if (kout % groups != 0)
      return tf_error(c, "the filter's %lld output channels are not a multiple of the %lld groups",
                      (long long)kout, (long long)groups);
  }
  Value *r = convolve(c, x, k, nsp, cfirst, false, stride, ones, dil, lo, hi, groups);
  if (!r) return false;
  tf_out(c, r);
  return true;
}

static bool lower_conv2d(TfCtx *c) { return conv(c, 2, false); }
static bool lower_conv3d(TfCtx *c) { return conv(c, 3, false); }
static bool lower_depthwise(TfCtx *c) { return conv(c, 2, true); }

/* Conv2DBackpropInput / Conv3DBackpropInputV2: the gradient of a
   convolution with respect to its input, of shape input_sizes.  It is the
   convolution of out_backprop, dilated by the strides, with the spatially
   reversed filter whose input and output channels trade places, padded so
   that each input position sees the outputs its window reached. */
static bool conv_backprop_input(TfCtx *c, int nsp) {
  ElemType et;
  bool cfirst;
  if (!need_inputs(c, 3) || !tf_attr_type(c, "T", &et) || !read_format(c, nsp, &cfirst)) return false;
  int64_t *sizes;
  int nsizes;
  if (!tf_const_ints(c, 0, "input_sizes", &sizes, &nsizes)) return false;
  Value *k = c->in[1], *g = c->in[2];
  if (k->type->rank != nsp + 2 || g->type->rank != nsp + 2)
    return tf_error(c, "expects a filter and out_backprop of rank %d", nsp + 2);
  if (k->type->elem != g->type->elem) return tf_error(c, "the inputs have different element types");
  int64_t isz[5];
  if (nsizes == nsp + 2) {
    for (int i = 0; i < nsp + 2; i++) isz[i] = sizes[i];
  } else if (nsizes == nsp) {
    isz[0] = g->type->dims[0];
    isz[channel_dim(cfirst, nsp)] = k->type->dims[nsp];
    for (int i = 0; i < nsp; i++) isz[spatial_dim(cfirst, i)] = sizes[i];
  } else {
    return tf_error(c, "input_sizes has %d entries; it must have %d", nsizes, nsp + 2);
  }
  int64_t ch = isz[channel_dim(cfirst, nsp)];
  if (isz[0] != g->type->dims[0]) return tf_error(c, "input_sizes and out_backprop differ in batch size");
  if (ch != k->type->dims[nsp])
    return tf_error(c,
                    "input_sizes has %lld channels, the filter %lld input channels (grouped convolutions are "
                    "not supported)",
                    (long long)ch, (long long)k->type->dims[nsp]);
  if (g->type->dims[channel_dim(cfirst, nsp)] != k->type->dims[nsp + 1])
    return tf_error(c, "out_backprop's channels differ from the filter's output channels");
  int64_t *sv, *dv, stride[3], dil[3], in[3], win[3], lo[3], hi[3], blo[3], bhi[3], ones[3] = {1, 1, 1};
  int ns = tf_attr_ints(c, "strides", &sv), nd = tf_attr_ints(c, "dilations", &dv);
  if (!spatial_list(c, "strides", sv, ns, nsp, cfirst, 0, stride) ||
      !spatial_list(c, "dilations", dv, nd, nsp, cfirst, 1, dil))
    return false;
  for (int i = 0; i < nsp; i++) {
    in[i] = isz[spatial_dim(cfirst, i)];
    win[i] = k->type->dims[i];
  }
  if (!read_padding(c, nsp, cfirst, in, win, stride, dil, true, lo, hi)) return false;
  int64_t rev[3];
  for (int i = 0; i < nsp; i++) {
    int64_t eff = (win[i] - 1) * dil[i] + 1, span = in[i] + lo[i] + hi[i] - eff;
    int64_t out = span >= 0 ? span / stride[i] + 1 : 0, have = g->type->dims[spatial_dim(cfirst, i)];
    if (out != have)
      return tf_error(c,
                      "out_backprop has %lld positions along spatial dimension %d where the convolution "
                      "gives %lld",
                      (long long)have, i, (long long)out);
    blo[i] = eff - 1 - lo[i];
    bhi[i] = eff - 1 - hi[i] + span % stride[i];
    rev[i] = i;
  }
  Value *kr = tf_op(c, OP_REVERSE, 1, &k, k->type, "{dimensions = array<i64: %s>}", ints_text(c, nsp, rev));
  if (!kr) return false;
  Value *r = convolve(c, g, kr, nsp, cfirst, true, ones, stride, dil, blo, bhi, 1);
  if (!r) return false;
  tf_out(c, r);
  return true;
}

static bool lower_conv2d_backprop_input(TfCtx *c) { return conv_backprop_input(c, 2); }
static bool lower_conv3d_backprop_input(TfCtx *c) { return conv_backprop_input(c, 3); }

/* ---- pooling ---- */

/* MaxPool, MaxPoolV2 (ksize and strides as inputs), AvgPool and the 3-D
   forms.  AvgPool divides each window's sum by the number of its elements
   inside the input (SAME padding), a constant computed here. */
static bool pool(TfCtx *c, int nsp, bool avg, bool v2) {
  ElemType et;
  bool cfirst;
  if (!need_inputs(c, v2 ? 3 : 1) || !tf_attr_type(c, "T", &et) || !read_format(c, nsp, &cfirst))
    return false;
  Value *x = c->in[0];
  int rank = nsp + 2;
  if (x->type->rank != rank)
    return tf_error(c, "expects an input of rank %d, has rank %d", rank, x->type->rank);
  if (avg && !et_is_float(et)) return tf_error(c, "average pooling of integers is not supported");
  int64_t *kv, *sv, win[3], stride[3], in[3], lo[3], hi[3], ones[3] = {1, 1, 1};
  int nk, ns;
  if (v2) {
    if (!tf_const_ints(c, 1, "ksize", &kv, &nk) || !tf_const_ints(c, 2, "strides", &sv, &ns)) return false;
  } else {
    nk = tf_attr_ints(c, "ksize", &kv);
    ns = tf_attr_ints(c, "strides", &sv);
  }
  if (!spatial_list(c, "ksize", kv, nk, nsp, cfirst, 0, win) ||
      !spatial_list(c, "strides", sv, ns, nsp, cfirst, 0, stride))
    return false;
  for (int i = 0; i < nsp; i++) in[i] = x->type->dims[spatial_dim(cfirst, i)];
  if (!read_padding(c, nsp, cfirst, in, win, stride, ones, !avg, lo, hi)) return false;
  int64_t w[5], s[5], p[10];
  for (int d = 0; d < rank; d++) {
    w[d] = s[d] = 1;
    p[2 * d] = p[2 * d + 1] = 0;
  }
  for (int i = 0; i < nsp; i++) {
    int d = spatial_dim(cfirst, i);
    w[d] = win[i];
    s[d] = stride[i];
    p[2 * d] = lo[i];
    p[2 * d + 1] = hi[i];
  }
  if (!avg) {
    Value *init;
    if (et_is_float(et))
      init = tf_scalar(c, et, -INFINITY);
    else if (et_is_unsigned(et))
      init = tf_iscalar(c, et, 0);
    else if (et_is_signed(et))
      init = tf_iscalar(c, et, et_bits(et) == 64 ? INT64_MIN : -((int64_t)1 << (et_bits(et) - 1)));
    else
      return tf_error(c, "max pooling of this element type is not supported");
    Value *r = tf_reduce_window(c, x, init, OP_MAXIMUM, w, s, p);
    if (!r) return false;
    tf_out(c, r);
    return true;
  }
  Value *xw = widen(c, x);
  Value *sum = tf_reduce_window(c, xw, tf_scalar(c, xw->type->elem, 0), OP_ADD, w, s, p);
  if (!sum) return false;
  /* the divisor: per spatial dimension, how many of a window's positions
     fall inside the input; their product */
  int64_t od[3], spd[3], cnt = 1;
  for (int i = 0; i < nsp; i++) {
    spd[i] = spatial_dim(cfirst, i);
    od[i] = sum->type->dims[spd[i]];
    cnt *= od[i];
  }
  Literal *l = lit_new_in(&c->b.m->arena, tf_type(c, xw->type->elem, nsp, od));
  for (int64_t e = 0; e < cnt; e++) {
    int64_t rest = e, n = 1;
    for (int i = nsp - 1; i >= 0; i--) {
      int64_t o = rest % od[i];
      rest /= od[i];
      int64_t start = o * stride[i] - lo[i], end = start + win[i];
      if (start < 0) start = 0;
      if (end > in[i]) end = in[i];
      n *= end > start ? end - start : 0;
    }
    lit_set_f(l, e, (double)n);
  }
  Value *div = bld_broadcast(&c->b, tf_constant(c, l), sum->type, nsp, spd);
  tf_out(c, tf_convert(c, bld_div(&c->b, sum, div), et));
  return true;
}

static bool lower_max_pool(TfCtx *c) { return pool(c, 2, false, false); }
static bool lower_max_pool_v2(TfCtx *c) { return pool(c, 2, false, true); }
static bool lower_avg_pool(TfCtx *c) { return pool(c, 2, true, false); }
static bool lower_max_pool3d(TfCtx *c) { return pool(c, 3, false, false); }
static bool lower_avg_pool3d(TfCtx *c) { return pool(c, 3, true, false); }

/* ---- normalization ---- */

/* FusedBatchNorm (V1: all float32; V2 and V3: x and y of type T, the
   statistics of type U, float32).  Inference normalizes with the given mean
   and variance and passes them on as batch_mean, batch_variance and the
   reserve spaces.  Training normalizes with the batch's mean and (biased)
   variance; batch_variance is the unbiased one, and with
   exponential_avg_factor f below 1 both are mixed into the running ones:
   (1 - f) * running + f * batch.  reserve_space_3 (V3) is an empty
   tensor. */
static bool fused_batch_norm(TfCtx *c, int version) {
  ElemType et;
  if (!need_inputs(c, 5) || !tf_attr_type(c, "T", &et)) return false;
  if (!et_is_float(et)) return tf_error(c, "expects floating-point values");
  Value *x = c->in[0];
  int rank = x->type->rank;
  if (rank != 4 && rank != 5) return tf_error(c, "expects an input of rank 4 or 5, has rank %d", rank);
  bool cfirst;
  if (!read_format(c, rank - 2, &cfirst)) return false;
  int64_t ch = channel_dim(cfirst, rank - 2), nc = x->type->dims[ch];
  ElemType ut = ET_F32;
  if (version > 1 && !tf_attr_type(c, "U", &ut)) return false;
  bool training = tf_attr_bool(c, "is_training", true);
  double eps = tf_attr_float(c, "epsilon", 0.0001), factor = tf_attr_float(c, "exponential_avg_factor", 1.0);
  Value *p[4];
  for (int i = 0; i < 4; i++) {
    p[i] = c->in[1 + i];
    if (!et_is_float(p[i]->type->elem)) return tf_error(c, "expects floating-point statistics");
    p[i] = tf_convert(c, p[i], ET_F32);
    /* training without running averages takes empty mean and variance */
    bool may_be_empty = training && factor == 1.0 && i >= 2;
    bool empty = p[i]->type->rank == 1 && p[i]->type->dims[0] == 0;
    if (!(may_be_empty && empty) && (p[i]->type->rank != 1 || p[i]->type->dims[0] != nc))
      return tf_error(c, "input %d must be a vector of %lld elements, one per channel", i + 1, (long long)nc);
  }
  Value *scale = p[0], *offset = p[1], *mean = p[2], *var = p[3];
  Value *xf = tf_convert(c, x, ET_F32);
  const Type *ft = xf->type;
  Value *bmean = mean, *bvar = var, *out_mean = mean, *out_var = var;
  if (training) {
    int64_t rd[4], nr = 0, count = 1;
    for (int d = 0; d < rank; d++)
      if (d != ch) {
        rd[nr++] = d;
        count *= x->type->dims[d];
      }
    Value *zero = tf_scalar(c, ET_F32, 0);
    Value *vc = tf_reduce(c, xf, (int)nr, rd, OP_ADD, zero);
    Type *vt = vc->type;
    Value *inv_count = bld_const_f(&c->b, vt, 1.0 / (double)count);
    bmean = bld_mul(&c->b, vc, inv_count);
    Value *dev = bld_sub(&c->b, xf, bld_broadcast(&c->b, bmean, ft, 1, &ch));
    Value *sq = tf_reduce(c, bld_mul(&c->b, dev, dev), (int)nr, rd, OP_ADD, zero);
    bvar = bld_mul(&c->b, sq, inv_count);
    double adjust = count > 1 ? (double)count / (double)(count - 1) : 1.0;
    Value *uvar = bld_mul(&c->b, bvar, bld_const_f(&c->b, vt, adjust));
    out_mean = bmean;
    out_var = uvar;
    if (factor != 1.0) {
      Value *f = bld_const_f(&c->b, vt, factor), *g = bld_const_f(&c->b, vt, 1.0 - factor);
      out_mean = bld_add(&c->b, bld_mul(&c->b, g, mean), bld_mul(&c->b, f, bmean));
      out_var = bld_add(&c->b, bld_mul(&c->b, g, var), bld_mul(&c->b, f, uvar));
    }
  }
  /* y = (x - mean) * rsqrt(var + epsilon) * scale + offset */
  Value *inv = bld_un(&c->b, OP_RSQRT, bld_add(&c->b, bvar, bld_const_f(&c->b, bvar->type, eps)));
  Value *y = bld_sub(&c->b, xf, bld_broadcast(&c->b, bmean, ft, 1, &ch));
  y = bld_mul(&c->b, y, bld_broadcast(&c->b, bld_mul(&c->b, inv, scale), ft, 1, &ch));
  y = bld_add(&c->b, y, bld_broadcast(&c->b, offset, ft, 1, &ch));
  tf_out(c, tf_convert(c, y, et));
  tf_out(c, tf_convert(c, out_mean, ut));
  tf_out(c, tf_convert(c, out_var, ut));
  tf_out(c, tf_convert(c, bmean, ut));
  tf_out(c, tf_convert(c, bvar, ut));
  if (version == 3) {
    int64_t zero = 0;
    tf_out(c, tf_constant(c, lit_new_in(&c->b.m->arena, tf_type(c, ut, 1, &zero))));
  }
  return true;
}

static bool lower_fused_batch_norm(TfCtx *c) { return fused_batch_norm(c, 1); }
static bool lower_fused_batch_norm_v2(TfCtx *c) { return fused_batch_norm(c, 2); }
static bool lower_fused_batch_norm_v3(TfCtx *c) { return fused_batch_norm(c, 3); }

/* LRN over the channels (last dimension) of a 4-D input:
   x * (bias + alpha * sum of squares within depth_radius) ^ -beta, with
   the power spelled as TensorFlow's kernel spells it for beta 1 and 0.5. */
static bool lower_lrn(TfCtx *c) {
  ElemType et;
  if (!need_inputs(c, 1) || !tf_attr_type(c, "T", &et)) return false;
  Value *x = widen(c, c->in[0]);
  if (x->type->rank != 4) return tf_error(c, "expects an input of rank 4, has rank %d", x->type->rank);
  if (!et_is_float(et)) return tf_error(c, "expects floating-point values");
  int64_t r = tf_attr_int(c, "depth_radius", 5);
  double bias = tf_attr_float(c, "bias", 1.0), alpha = tf_attr_float(c, "alpha", 1.0);
  double beta = tf_attr_float(c, "beta", 0.5);
  if (r < 0) return tf_error(c, "depth_radius must not be negative");
  int64_t w[4] = {1, 1, 1, 2 * r + 1}, s[4] = {1, 1, 1, 1}, p[8] = {0, 0, 0, 0, 0, 0, r, r};
  Value *sq = tf_reduce_window(c, bld_mul(&c->b, x, x), tf_scalar(c, x->type->elem, 0), OP_ADD, w, s, p);
  if (!sq) return false;
  Value *norm = bld_add(&c->b, bld_const_f(&c->b, sq->type, bias),
                        bld_mul(&c->b, bld_const_f(&c->b, sq->type, alpha), sq));
  Value *y;
  if (beta == 1.0)
    y = bld_mul(&c->b, x, bld_div(&c->b, bld_const_f(&c->b, sq->type, 1.0), norm));
  else if (beta == 0.5)
    y = bld_mul(&c->b, x, bld_un(&c->b, OP_RSQRT, norm));
  else
    y = bld_mul(&c->b, x,
                bld_un(&c->b, OP_EXPONENTIAL,
                       bld_mul(&c->b, bld_un(&c->b, OP_LOG, norm), bld_const_f(&c->b, sq->type, -beta))));
  tf_out(c, tf_convert(c, y, et));
  return true;
}

/* ---- softmax ---- */

/* Softmax and LogSoftmax over the last dimension, shifted by its maximum. */
static bool softmax(TfCtx *c, bool log) {
  ElemType et;
  if (!need_inputs(c, 1) || !tf_attr_type(c, "T", &et)) return false;
  if (!et_is_float(et)) return tf_error(c, "expects floating-point values");
  Value *x = widen(c, c->in[0]);
  const Type *t = x->type;
  if (t->rank < 1) return tf_error(c, "expects an input of rank 1 or more");
  int64_t last = t->rank - 1, keep[64];
  for (int i = 0; i < t->rank - 1; i++) keep[i] = i;
  Value *m = tf_reduce(c, x, 1, &last, OP_MAXIMUM, tf_scalar(c, t->elem, -INFINITY));
  Value *shifted = bld_sub(&c->b, x, bld_broadcast(&c->b, m, t, t->rank - 1, keep));
  Value *e = bld_un(&c->b, OP_EXPONENTIAL, shifted);
  Value *sum =
      bld_broadcast(&c->b, tf_reduce(c, e, 1, &last, OP_ADD, tf_scalar(c, t->elem, 0)), t, t->rank - 1, keep);
  Value *y = log ? bld_sub(&c->b, shifted, bld_un(&c->b, OP_LOG, sum)) : bld_div(&c->b, e, sum);
  tf_out(c, tf_convert(c, y, et));
  return true;
}

static bool lower_softmax(TfCtx *c) { return softmax(c, false); }
static bool lower_log_softmax(TfCtx *c) { return softmax(c, true); }

/* ---- resizing ---- */

/* x's slices at the constant positions idx[0..n) along dimension d. */
static Value *take(TfCtx *c, Value *x, int d, int n, const int64_t *idx) {
  const Type *t = x->type;
  bool id = n == t->dims[d];
  for (int i = 0; i < n && id; i++) id = idx[i] == i;
  if (id) return x;
  int64_t shape[2] = {n, 1}, off[64], slice[64];
  Literal *l = lit_new_in(&c->b.m->arena, tf_type(c, ET_S32, 2, shape));
  for (int i = 0; i < n; i++) lit_set_i(l, i, idx[i]);
  int no = 0;
  for (int i = 0; i < t->rank; i++) {
    if (i != d) off[no++] = i;
    slice[i] = i == d ? 1 : t->dims[i];
  }
  return tf_op_infer(
      c, OP_GATHER, 2, (Value *[]){x, tf_constant(c, l)}, t->elem, t->rank,
      "{dimension_numbers = #stablehlo.gather<offset_dims = [%s], collapsed_slice_dims = [%d], "
      "start_index_map = [%d], index_vector_dim = 1>, slice_sizes = array<i64: %s>}",
      ints_text(c, no, off), d, d, ints_text(c, t->rank, slice));
}

/* TensorFlow's scale from output to input positions, in float as it
   computes it. */
static float resize_scale(int64_t in, int64_t out, bool align) {
  return align && out > 1 ? (float)(in - 1) / (float)(out - 1) : (float)in / (float)out;
}

static bool resize(TfCtx *c, bool bilinear) {
  ElemType et;
  if (!need_inputs(c, 2) || !tf_attr_type(c, "T", &et)) return false;
  Value *x = c->in[0];
  if (x->type->rank != 4) return tf_error(c, "expects images of rank 4, has rank %d", x->type->rank);
  int64_t *size;
  int ns;
  if (!tf_const_ints(c, 1, "the size", &size, &ns)) return false;
  if (ns != 2 || size[0] < 1 || size[1] < 1) return tf_error(c, "the size must hold 2 positive sizes");
  bool align = tf_attr_bool(c, "align_corners", false), half = tf_attr_bool(c, "half_pixel_centers", false);
  if (align && half) return tf_error(c, "align_corners and half_pixel_centers cannot both be true");
  for (int d = 1; d <= 2; d++)
    if (x->type->dims[d] < 1) return tf_error(c, "the images are empty");
  if (bilinear) {
    if (!et_is_float(et) && !et_is_int(et)) return tf_error(c, "expects real-valued images");
    /* per dimension: the positions below and above each output position,
       and the weight of the one above (a [1, h, 1, 1] / [1, 1, w, 1]
       constant) */
    int64_t *lo[2], *hi[2];
    Value *lerp[2];
    for (int d = 0; d < 2; d++) {
      int64_t in = x->type->dims[1 + d], out = size[d], ld[4] = {1, 1, 1, 1};
      float sc = resize_scale(in, out, align);
      lo[d] = ARENA_ARRAY(&c->b.m->arena, int64_t, out);
      hi[d] = ARENA_ARRAY(&c->b.m->arena, int64_t, out);
      ld[1 + d] = out;
      Literal *l = lit_new_in(&c->b.m->arena, tf_type(c, ET_F32, 4, ld));
      for (int64_t o = 0; o < out; o++) {
        float pos = half ? ((float)o + 0.5f) * sc - 0.5f : (float)o * sc;
        float fl = floorf(pos);
        int64_t up = (int64_t)ceilf(pos);
        lo[d][o] = (int64_t)fl > 0 ? (int64_t)fl : 0;
        hi[d][o] = up < in - 1 ? up : in - 1;
        lit_set_f(l, o, pos - fl);
      }
      lerp[d] = tf_constant(c, l);
    }
    Value *v = tf_convert(c, x, ET_F32);
    int h = (int)size[0], w = (int)size[1];
    Value *top = take(c, v, 1, h, lo[0]), *bottom = take(c, v, 1, h, hi[0]);
    if (!top || !bottom) return false;
    Value *tl = take(c, top, 2, w, lo[1]), *tr = take(c, top, 2, w, hi[1]);
    Value *bl = take(c, bottom, 2, w, lo[1]), *br = take(c, bottom, 2, w, hi[1]);
    if (!tl || !tr || !bl || !br) return false;
    const Type *rt = tl->type;
    int64_t all[4] = {0, 1, 2, 3};
    Value *xl = bld_broadcast(&c->b, lerp[1], rt, 4, all), *yl = bld_broadcast(&c->b, lerp[0], rt, 4, all);
    /* as TensorFlow: along x on the rows above and below, then along y */
    Value *t = bld_add(&c->b, tl, bld_mul(&c->b, bld_sub(&c->b, tr, tl), xl));
    Value *b = bld_add(&c->b, bl, bld_mul(&c->b, bld_sub(&c->b, br, bl), xl));
    tf_out(c, bld_add(&c->b, t, bld_mul(&c->b, bld_sub(&c->b, b, t), yl)));
    return true;
  }
  Value *v = x;
  for (int d = 0; d < 2; d++) {
    int64_t in = x->type->dims[1 + d], out = size[d];
    float sc = resize_scale(in, out, align);
    int64_t *idx = ARENA_ARRAY(&c->b.m->arena, int64_t, out);
    for (int64_t o = 0; o < out; o++) {
      float pos = half ? ((float)o + 0.5f) * sc : (float)o * sc;
      int64_t i = align ? (int64_t)roundf(pos) : (int64_t)floorf(pos);
      if (i > in - 1) i = in - 1;
      if (half && i < 0) i = 0;
      idx[o] = i;
    }
    v = take(c, v, 1 + d, (int)out, idx);
    if (!v) return false;
  }
  tf_out(c, v);
  return true;
}

static bool lower_resize_bilinear(TfCtx *c) { return resize(c, true); }
static bool lower_resize_nearest(TfCtx *c) { return resize(c, false); }

/* ---- top-k ---- */

/* TopKV2 (k an input) and TopK (k an attribute): the k largest along the
   last dimension, sorted, ties to the lower index (chlo.top_k's order). */
static bool top_k(TfCtx *c, bool v2) {
  ElemType et, it = ET_S32;
  if (!need_inputs(c, v2 ? 2 : 1) || !tf_attr_type(c, "T", &et)) return false;
  if (tf_attr(c, "index_type") && !tf_attr_type(c, "index_type", &it)) return false;
  int64_t k;
  if (v2) {
    int64_t *kv;
    int nk;
    if (!tf_const_ints(c, 1, "k", &kv, &nk)) return false;
    if (nk != 1) return tf_error(c, "k must be a scalar");
    k = kv[0];
  } else {
    k = tf_attr_int(c, "k", -1);
  }
  Value *x = c->in[0];
  const Type *t = x->type;
  if (t->rank < 1) return tf_error(c, "expects an input of rank 1 or more");
  if (et_is_complex(et) || et_is_pred(et)) return tf_error(c, "expects real values");
  if (k < 0 || k > t->dims[t->rank - 1])
    return tf_error(c, "k = %lld is out of range for a last dimension of %lld", (long long)k,
                    (long long)t->dims[t->rank - 1]);
  int64_t dims[64];
  memcpy(dims, t->dims, sizeof(int64_t) * (size_t)t->rank);
  dims[t->rank - 1] = k;
  Type *types[2] = {tf_type(c, t->elem, t->rank, dims), tf_type(c, it, t->rank, dims)};
  Op *op = tf_op_multi(c, OP_CHLO_TOP_K, 1, &x, 2, types, "{k = %lld : i64}", (long long)k);
  if (!op) return false;
  tf_out(c, &op->res[0]);
  tf_out(c, &op->res[1]);
  return true;
}

static bool lower_top_k_v2(TfCtx *c) { return top_k(c, true); }
static bool lower_top_k(TfCtx *c) { return top_k(c, false); }

const TfOpDef tf_ops_nn[] = {
    {"AvgPool", lower_avg_pool, NULL, "SAME/VALID"},
    {"AvgPool3D", lower_avg_pool3d, NULL, "SAME/VALID"},
    {"BatchMatMul", lower_batch_matmul, NULL, NULL},
    {"BatchMatMulV2", lower_batch_matmul_v2, NULL, "broadcast batch dimensions"},
    {"BatchMatMulV3", lower_batch_matmul_v3, NULL, "broadcast batch dimensions"},
    {"BiasAdd", lower_bias_add, NULL, "NHWC/NCHW"},
    {"BiasAddV1", lower_bias_add_v1, NULL, NULL},
    {"Conv2D", lower_conv2d, NULL, "NHWC/NCHW, groups, EXPLICIT padding"},
    {"Conv2DBackpropInput", lower_conv2d_backprop_input, NULL, "input_sizes constant, no groups"},
    {"Conv3D", lower_conv3d, NULL, "NDHWC/NCDHW"},
    {"Conv3DBackpropInputV2", lower_conv3d_backprop_input, NULL, "input_sizes constant, no groups"},
    {"DepthwiseConv2dNative", lower_depthwise, NULL, "NHWC/NCHW"},
    {"Einsum", lower_einsum, NULL, "1 or 2 inputs, ellipsis"},
    {"FusedBatchNorm", lower_fused_batch_norm, "y,batch_mean,batch_variance,reserve_space_1,reserve_space_2",
     "inference and training"},
    {"FusedBatchNormV2", lower_fused_batch_norm_v2,
     "y,batch_mean,batch_variance,reserve_space_1,reserve_space_2", "inference and training"},
    {"FusedBatchNormV3", lower_fused_batch_norm_v3,
     "y,batch_mean,batch_variance,reserve_space_1,reserve_space_2,reserve_space_3", "inference and training"},
    {"LRN", lower_lrn, NULL, NULL},
    {"LogSoftmax", lower_log_softmax, NULL, NULL},
    {"MatMul", lower_matmul, NULL, NULL},
    {"MaxPool", lower_max_pool, NULL, "SAME/VALID/EXPLICIT"},
    {"MaxPool3D", lower_max_pool3d, NULL, "SAME/VALID"},
    {"MaxPoolV2", lower_max_pool_v2, NULL, "ksize and strides constant"},
    {"ResizeBilinear", lower_resize_bilinear, NULL, "size constant"},
    {"ResizeNearestNeighbor", lower_resize_nearest, NULL, "size constant"},
    {"Softmax", lower_softmax, NULL, NULL},
    {"TopK", lower_top_k, "values,indices", NULL},
    {"TopKV2", lower_top_k_v2, "values,indices", "k constant"},
    {NULL, NULL, NULL, NULL},
};
