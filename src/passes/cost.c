/*
 * cost.c - the cost model of cost.h: flops, transcendentals and bytes
 * accessed of one execution, counted op by op over the IR.
 *
 * Every op costs what its kind says applied to its shapes; ops with a body
 * applied per element (reduce, reduce_window, scatter, map, sort is the
 * exception) cost their body's scalar ops times the number of
 * applications.  Bytes are counted only for ops that run at the top level
 * of a computation (the ops inside a fusion read and write registers, not
 * memory); see cost.h for the whole convention.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "passes/cost.h"

typedef struct Ctx {
  const Module *m;
  int depth; /* calls being counted: recursion is cut off */
} Ctx;

enum { MAX_CALL_DEPTH = 64 };

static double elems(const Type *t) {
  if (!t) return 0;
  switch (t->kind) {
  case TY_TENSOR: return (double)type_num_elements(t);
  case TY_TUPLE: {
    double n = 0;
    for (int i = 0; i < t->ntuple; i++) n += elems(t->tuple[i]);
    return n;
  }
  case TY_FUTURE: return t->ntuple ? elems(t->tuple[0]) : 0;
  default: return 0;
  }
}

static double nbytes(const Type *t) {
  if (!t) return 0;
  switch (t->kind) {
  case TY_TENSOR: return (double)type_num_elements(t) * et_bytes(t->elem);
  case TY_TUPLE: {
    double n = 0;
    for (int i = 0; i < t->ntuple; i++) n += nbytes(t->tuple[i]);
    return n;
  }
  case TY_FUTURE: return t->ntuple ? nbytes(t->tuple[0]) : 0;
  default: return 0;
  }
}

static const Type *opnd_type(const Op *op, int i) { return i < op->nopnds ? op->opnds[i]->type : NULL; }
static const Type *res_type(const Op *op, int i) { return i < op->nres ? op->res[i].type : NULL; }

static void add(Cost *a, Cost b) {
  a->flops += b.flops;
  a->transcendentals += b.transcendentals;
  a->bytes += b.bytes;
}

static Cost scale(Cost c, double k) {
  c.flops *= k;
  c.transcendentals *= k;
  c.bytes *= k;
  return c;
}

/* Elementwise kinds counted as transcendentals (one per element, no flop). */
bool cost_is_transcendental(OpKind k) {
  switch (k) {
  case OP_EXPONENTIAL:
  case OP_EXPONENTIAL_MINUS_ONE:
  case OP_LOG:
  case OP_LOG_PLUS_ONE:
  case OP_LOGISTIC:
  case OP_TANH:
  case OP_SINE:
  case OP_COSINE:
  case OP_TAN:
  case OP_SQRT:
  case OP_RSQRT:
  case OP_CBRT:
  case OP_POWER:
  case OP_ATAN2:
  case OP_CHLO_ACOS:
  case OP_CHLO_ACOSH:
  case OP_CHLO_ASIN:
  case OP_CHLO_ASINH:
  case OP_CHLO_ATAN:
  case OP_CHLO_ATANH:
  case OP_CHLO_BESSEL_I1E:
  case OP_CHLO_COSH:
  case OP_CHLO_DIGAMMA:
  case OP_CHLO_ERF:
  case OP_CHLO_ERF_INV:
  case OP_CHLO_ERFC:
  case OP_CHLO_LGAMMA:
  case OP_CHLO_SINH:
  case OP_CHLO_TAN:
  case OP_CHLO_IGAMMA:
  case OP_CHLO_IGAMMAC:
  case OP_CHLO_POLYGAMMA:
  case OP_CHLO_ZETA:
  case OP_CHLO_BROADCAST_POWER:
  case OP_CHLO_BROADCAST_ATAN2: return true;
  default: return false;
  }
}

static bool is_chlo_broadcast_binary(OpKind k) {
  switch (k) {
  case OP_CHLO_BROADCAST_ADD:
  case OP_CHLO_BROADCAST_SUBTRACT:
  case OP_CHLO_BROADCAST_MULTIPLY:
  case OP_CHLO_BROADCAST_DIVIDE:
  case OP_CHLO_BROADCAST_MAXIMUM:
  case OP_CHLO_BROADCAST_MINIMUM:
  case OP_CHLO_BROADCAST_POWER:
  case OP_CHLO_BROADCAST_REMAINDER:
  case OP_CHLO_BROADCAST_AND:
  case OP_CHLO_BROADCAST_OR:
  case OP_CHLO_BROADCAST_XOR:
  case OP_CHLO_BROADCAST_ATAN2:
  case OP_CHLO_BROADCAST_COMPARE:
  case OP_CHLO_BROADCAST_SELECT: return true;
  default: return false;
  }
}

static Cost block_cost(Ctx *c, const Block *b, bool top);

/* One application of region i (its ops on scalars); nothing when absent. */
static Cost region_cost(Ctx *c, const Op *op, int i) {
  Cost z = {0};
  if (i >= op->nregions || !op->regions[i]) return z;
  Cost r = block_cost(c, op->regions[i], false);
  r.bytes = 0;
  return r;
}

static double prod_dims(const Type *t, const int64_t *dims, int n) {
  double p = 1;
  for (int i = 0; t && t->kind == TY_TENSOR && i < n; i++)
    if (dims[i] >= 0 && dims[i] < t->rank) p *= (double)t->dims[dims[i]];
  return p;
}

static int64_t floordiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* Window taps along one spatial dimension that land on an input element,
   summed over the output positions: the input has n elements, dilated by
   ld and padded by lo in front; the window has win taps dilated by rd,
   moved by stride; the output has out positions. */
static double valid_taps(int64_t n, int64_t lo, int64_t ld, int64_t win, int64_t rd, int64_t stride, int64_t out) {
  if (n <= 0 || win <= 0 || out <= 0 || ld <= 0 || rd <= 0 || stride <= 0) return 0;
  int64_t last = (n - 1) * ld; /* the last input element in dilated coordinates */
  double total = 0;
  for (int64_t k = 0; k < win; k++) {
    int64_t base = k * rd - lo; /* position of tap k at output 0 */
    if (ld == 1) {
      /* 0 <= o * stride + base <= last */
      int64_t first = base >= 0 ? 0 : floordiv(-base + stride - 1, stride);
      int64_t end = floordiv(last - base, stride);
      if (end > out - 1) end = out - 1;
      if (end >= first) total += (double)(end - first + 1);
    } else if ((double)out * (double)win <= 1e8) {
      for (int64_t o = 0; o < out; o++) {
        int64_t p = o * stride + base;
        total += p >= 0 && p <= last && p % ld == 0;
      }
    } else {
      total += (double)out / (double)ld; /* too many to count: about one tap in ld */
    }
  }
  return total;
}

static double conv_flops(const Op *op) {
  const Type *l = opnd_type(op, 0), *k = opnd_type(op, 1), *o = res_type(op, 0);
  const Attr *dn = op_attr(op, "dimension_numbers");
  if (!l || !k || !o || l->kind != TY_TENSOR || k->kind != TY_TENSOR || o->kind != TY_TENSOR || !dn) return 0;
  int64_t *is = NULL, *ks = NULL, *os = NULL, *ws = NULL, *ld = NULL, *rd = NULL, *pad = NULL;
  int nis = dict_ints(dn, "input_spatial_dimensions", &is);
  int nks = dict_ints(dn, "kernel_spatial_dimensions", &ks);
  int nos = dict_ints(dn, "output_spatial_dimensions", &os);
  int64_t ob = dict_int(dn, "output_batch_dimension", -1), ofd = dict_int(dn, "output_feature_dimension", -1);
  int64_t kif = dict_int(dn, "kernel_input_feature_dimension", -1);
  if (nis < 0 || nis != nks || nis != nos || ob < 0 || ob >= o->rank || ofd < 0 || ofd >= o->rank || kif < 0 ||
      kif >= k->rank)
    return 0;
  int nws = op_attr_ints(op, "window_strides", &ws);
  int nld = op_attr_ints(op, "lhs_dilation", &ld);
  int nrd = op_attr_ints(op, "rhs_dilation", &rd);
  int npad = 0;
  const Attr *pa = op->kind == OP_CONVOLUTION ? op_attr(op, "padding") : NULL;
  if (pa && !attr_get_ints(pa, &pad, &npad)) npad = 0;
  double taps = 1;
  for (int s = 0; s < nis; s++) {
    if (is[s] < 0 || is[s] >= l->rank || ks[s] < 0 || ks[s] >= k->rank || os[s] < 0 || os[s] >= o->rank) return 0;
    int64_t stride = s < nws ? ws[s] : 1, lhs_dil = s < nld ? ld[s] : 1, rhs_dil = s < nrd ? rd[s] : 1;
    int64_t lo = 2 * s + 1 < npad ? pad[2 * s] : 0;
    if (op->kind == OP_CONVOLUTION)
      taps *= valid_taps(l->dims[is[s]], lo, lhs_dil, k->dims[ks[s]], rhs_dil, stride, o->dims[os[s]]);
    else /* padding known at run time: every tap */
      taps *= (double)k->dims[ks[s]] * (double)o->dims[os[s]];
  }
  return 2.0 * (double)o->dims[ob] * (double)o->dims[ofd] * (double)k->dims[kif] * taps;
}

static double dot_flops(const Op *op) {
  const Type *l = opnd_type(op, 0), *o = res_type(op, 0);
  if (!l || l->kind != TY_TENSOR) return 0;
  double contract = 1;
  if (op->kind == OP_DOT) {
    contract = l->rank ? (double)l->dims[l->rank - 1] : 1;
  } else {
    int64_t *lc = NULL;
    int nlc = dict_ints(op_attr(op, "dot_dimension_numbers"), "lhs_contracting_dimensions", &lc);
    contract = prod_dims(l, lc, nlc);
  }
  return 2.0 * elems(o) * contract;
}

/* 2 * lhs elements * the rhs's free size (rhs elements over its contracting,
   batching and group dimensions): each lhs element meets one row of its
   group's matrix, in every mode of ragged_dot. */
static double ragged_dot_flops(const Op *op) {
  const Type *l = opnd_type(op, 0), *r = opnd_type(op, 1);
  const Attr *dn = op_attr(op, "ragged_dot_dimension_numbers");
  if (!l || !r || r->kind != TY_TENSOR) return 0;
  int64_t *rc = NULL, *rb = NULL, *rg = NULL;
  int nrc = dict_ints(dn, "rhs_contracting_dimensions", &rc);
  int nrb = dict_ints(dn, "rhs_batching_dimensions", &rb);
  int nrg = dict_ints(dn, "rhs_group_dimensions", &rg);
  double shared = prod_dims(r, rc, nrc) * prod_dims(r, rb, nrb) * prod_dims(r, rg, nrg);
  return shared > 0 ? 2.0 * elems(l) * elems(r) / shared : 0;
}

/* einsum: a multiply-add per point of the letters' space (2 flops with
   two inputs, 1 with one, a sum) */
static double einsum_flops(const Op *op) {
  int nin = op->kind == OP_EINSUM ? 2 : 1;
  const char *cfg = op_attr_str(op, "einsum_config");
  if (!cfg || op->nopnds < nin || op->nres < 1) return 0;
  const Type *types[3] = {opnd_type(op, 0), nin > 1 ? opnd_type(op, 1) : res_type(op, 0), res_type(op, 0)};
  EinsumSpec sp;
  char *err = einsum_spec_read(cfg, nin, types, &sp);
  if (err) {
    xfree(err);
    return 0;
  }
  double points = 1;
  for (int i = 0; i < 128; i++)
    if (sp.size[i] >= 0) points *= (double)sp.size[i];
  return nin * points;
}

static double window_size(const Op *op) {
  int64_t *wd = NULL;
  int n = op_attr_ints(op, "window_dimensions", &wd);
  double w = 1;
  for (int i = 0; i < n; i++) w *= (double)wd[i];
  return w;
}

static double log2_ceil(double n) { return n > 1 ? ceil(log2(n)) : 0; }

static Cost call_cost(Ctx *c, const Func *f, bool top) {
  Cost z = {0};
  if (!f || !f->body || c->depth >= MAX_CALL_DEPTH) return z;
  c->depth++;
  Cost r = block_cost(c, f->body, top);
  c->depth--;
  return r;
}

/* Bytes a fusion reads of parameter p: the whole value, or only the slices
   it takes when slicing is all it does with it. */
static double fusion_param_bytes(const Block *body, const Value *p, double full) {
  double sliced = 0;
  bool used = false;
  for (const Op *op = body->first; op; op = op->next)
    for (int i = 0; i < op->nopnds; i++) {
      if (op->opnds[i] != p) continue;
      used = true;
      if ((op->kind == OP_SLICE || op->kind == OP_DYNAMIC_SLICE) && i == 0 && op->nres == 1)
        sliced += nbytes(op->res[0].type);
      else
        return full;
    }
  if (!used) return 0;
  return sliced < full ? sliced : full;
}

static Cost fusion_cost(Ctx *c, const Op *call, const Func *f, bool top) {
  Cost r = call_cost(c, f, false);
  r.bytes = 0;
  if (!top || !f || !f->body) return r;
  for (int i = 0; i < call->nopnds; i++) {
    bool seen = false;
    for (int j = 0; j < i && !seen; j++) seen = call->opnds[j] == call->opnds[i];
    if (seen) continue;
    double full = nbytes(call->opnds[i]->type);
    r.bytes += i < f->body->nargs ? fusion_param_bytes(f->body, f->body->args[i], full) : full;
  }
  for (int i = 0; i < call->nres; i++) r.bytes += nbytes(call->res[i].type);
  return r;
}

static double op_bytes(const Op *op) {
  double b = 0;
  for (int i = 0; i < op->nopnds; i++) b += nbytes(op->opnds[i]->type);
  for (int i = 0; i < op->nres; i++) b += nbytes(op->res[i].type);
  return b;
}

/* The op's cost; with `top`, the bytes it reads and writes too. */
static Cost op_cost(Ctx *c, const Op *op, bool top) {
  Cost r = {0};
  OpKind k = op->kind;
  double out = elems(res_type(op, 0));
  switch (k) {
  /* nothing computed and nothing moved: values named, passed on or
     reinterpreted */
  case OP_RETURN:
  case OP_FUNC_RETURN:
  case OP_CONSTANT:
  case OP_CHLO_CONSTANT:
  case OP_TUPLE:
  case OP_GET_TUPLE_ELEMENT:
  case OP_AFTER_ALL:
  case OP_CREATE_TOKEN:
  case OP_OPTIMIZATION_BARRIER:
  case OP_RESHAPE: return r;
  case OP_WHILE:
    for (int i = 0; i < op->nregions; i++) add(&r, block_cost(c, op->regions[i], top));
    return r;
  case OP_IF:
  case OP_CASE:
    for (int i = 0; i < op->nregions; i++) {
      Cost b = block_cost(c, op->regions[i], top);
      if (b.flops > r.flops) r.flops = b.flops;
      if (b.transcendentals > r.transcendentals) r.transcendentals = b.transcendentals;
      if (b.bytes > r.bytes) r.bytes = b.bytes;
    }
    return r;
  case OP_CALL:
  case OP_COMPOSITE: {
    const char *name = op_attr_str(op, k == OP_CALL ? "callee" : "decomposition");
    const Func *f = name ? module_find_func(c->m, name) : NULL;
    if (k == OP_CALL && op_attr(op, "fusion_kind")) return fusion_cost(c, op, f, top);
    return call_cost(c, f, top);
  }
  default: break;
  }

  if (k == OP_COPY) {
    /* a copy computes nothing */
  } else if (op_has_flag(k, OPF_EW) || is_chlo_broadcast_binary(k) || k == OP_BITCAST_CONVERT) {
    if (cost_is_transcendental(k))
      r.transcendentals = out;
    else
      r.flops = out;
  } else {
    switch (k) {
    case OP_DOT:
    case OP_DOT_GENERAL: r.flops = dot_flops(op); break;
    case OP_CHLO_RAGGED_DOT: r.flops = ragged_dot_flops(op); break;
    case OP_EINSUM:
    case OP_UNARY_EINSUM: r.flops = einsum_flops(op); break;
    case OP_CONVOLUTION:
    case OP_DYNAMIC_CONV: r.flops = conv_flops(op); break;
    case OP_REDUCE: {
      double n = elems(opnd_type(op, 0)) - out;
      if (n > 0) r = scale(region_cost(c, op, 0), n);
      break;
    }
    case OP_REDUCE_WINDOW: {
      double w = window_size(op);
      if (w > 1) r = scale(region_cost(c, op, 0), out * (w - 1));
      break;
    }
    case OP_SELECT_AND_SCATTER: {
      double w = window_size(op), src = elems(opnd_type(op, 1));
      Cost sel = scale(region_cost(c, op, 0), w > 1 ? w - 1 : 0);
      add(&sel, region_cost(c, op, 1));
      r = scale(sel, src);
      break;
    }
    case OP_SCATTER: {
      int n = (op->nopnds - 1) / 2;
      if (n >= 1) r = scale(region_cost(c, op, 0), elems(opnd_type(op, n + 1)));
      break;
    }
    case OP_MAP: r = scale(region_cost(c, op, 0), out); break;
    case OP_ALL_REDUCE:
      for (int i = 0; i < op->nres; i++) add(&r, scale(region_cost(c, op, 0), elems(res_type(op, i))));
      break;
    case OP_REDUCE_SCATTER:
    case OP_COLLECTIVE_REDUCE: r = scale(region_cost(c, op, 0), elems(opnd_type(op, 0))); break;
    case OP_CROSS_REPLICA_SUM: r.flops = out; break;
    case OP_SORT:
    case OP_CHLO_TOP_K: {
      double n = elems(opnd_type(op, 0));
      r.flops = n * log2_ceil(n);
      break;
    }
    case OP_FFT: {
      int64_t *len = NULL;
      int n = op_attr_ints(op, "fft_length", &len);
      double lg = n > 0 ? 1 : 0;
      for (int i = 0; i < n; i++) lg *= len[i] > 1 ? floor(log2((double)len[i])) : 0;
      r.flops = 8.0 * elems(opnd_type(op, 0)) * lg;
      break;
    }
    case OP_CHOLESKY: {
      const Type *a = opnd_type(op, 0);
      if (a && a->kind == TY_TENSOR && a->rank >= 1) r.flops = (double)a->dims[a->rank - 1] * elems(a) / 3.0;
      break;
    }
    case OP_TRIANGULAR_SOLVE: {
      const Type *a = opnd_type(op, 0);
      if (a && a->kind == TY_TENSOR && a->rank >= 1) r.flops = (double)a->dims[a->rank - 1] * elems(opnd_type(op, 1));
      break;
    }
    default: break; /* data movement, random bits, custom calls, collectives: no arithmetic */
    }
  }
  r.bytes = top ? op_bytes(op) : 0;
  return r;
}

static Cost block_cost(Ctx *c, const Block *b, bool top) {
  Cost r = {0};
  for (const Op *op = b ? b->first : NULL; op; op = op->next) add(&r, op_cost(c, op, top));
  return r;
}

Cost cost_func(const Module *m, const Func *f) {
  Ctx c = {m, 0};
  return call_cost(&c, f, true);
}
