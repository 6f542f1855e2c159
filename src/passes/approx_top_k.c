/*
 * approx_top_k.c - the approx-top-k pass: XLA's "ApproxTopK" custom call
 * (what jax.lax.approx_max_k / approx_min_k lower to) made an exact top-k.
 *
 * The call takes n inputs of one shape (JAX passes the operand and an iota
 * of indices along the reduction dimension) followed by n scalar initial
 * values, one per input, and returns n results: the inputs reordered by the
 * comparator named in called_computations (2n scalar arguments, a pair per
 * input, as a sort's) and cut along the reduction dimension.  Its
 * parameters are a dictionary (`mhlo.backend_config`, or a dictionary
 * `backend_config`): top_k, reduction_dim, recall_target,
 * aggregate_to_topk, reduction_input_size_override, is_fallback.
 *
 * An exact answer meets every recall target, so the call becomes a stable
 * sort of the inputs along the reduction dimension with that comparator,
 * each result the first R elements (R = top_k when aggregate_to_topk, else
 * the result type's size there, which a caller may make larger than top_k
 * and is as many of the best as asked for).  The initial values pad rows in
 * the approximate algorithm; a sort has no padding and does not read them.
 * Ties keep their input order (the lower index first), which is one of the
 * orders the approximate algorithm may give.
 *
 * This runs before the partitioner and before either backend or the
 * interpreter sees the program (api/executable.c), and first in the CPU
 * pipeline for the programs compiled ahead of time, so every way xlac runs
 * StableHLO takes the call.  Attributes that do not fit the operands are
 * errors at the call.
 */
#include <string.h>

#include "passes/build.h"
#include "passes/passes.h"

static bool is_approx_top_k(const Op *op) {
  if (op->kind != OP_CUSTOM_CALL) return false;
  const char *t = op_attr_str(op, "call_target_name");
  return t && strcmp(t, "ApproxTopK") == 0;
}

/* The parameters, as given (absent ones at their defaults). */
typedef struct Config {
  int64_t top_k, dim, size_override;
  double recall;
  bool aggregate;
} Config;

/* The parameter dictionary: mhlo.backend_config (JAX's, with api_version
   1) or a dictionary backend_config (StableHLO's newer form). */
static const Attr *config_dict(const Op *op) {
  const char *names[] = {"mhlo.backend_config", "backend_config"};
  for (int i = 0; i < 2; i++) {
    const Attr *d = op_attr(op, names[i]);
    if (d && d->kind == ATTR_DICT) return d;
  }
  return NULL;
}

static bool cfg_int(const Op *op, const Attr *d, const char *key, bool needed, int64_t *out) {
  const Attr *v = attr_dict_get(d, key);
  if (!v) {
    if (needed) error_at(op->loc, "custom_call @ApproxTopK: backend_config has no %s", key);
    return !needed;
  }
  if (v->kind != ATTR_INT) {
    error_at(op->loc, "custom_call @ApproxTopK: backend_config's %s is not an integer", key);
    return false;
  }
  *out = v->i;
  return true;
}

static bool read_config(const Op *op, Config *c) {
  *c = (Config){.top_k = -1, .dim = -1, .size_override = -1, .recall = 0.95, .aggregate = true};
  const Attr *d = config_dict(op);
  if (!d) {
    error_at(op->loc, "custom_call @ApproxTopK: its parameters (top_k, reduction_dim, ...) are read from a "
                      "dictionary mhlo.backend_config or backend_config, and it has none");
    return false;
  }
  if (!cfg_int(op, d, "top_k", true, &c->top_k) || !cfg_int(op, d, "reduction_dim", true, &c->dim) ||
      !cfg_int(op, d, "reduction_input_size_override", false, &c->size_override))
    return false;
  const Attr *v = attr_dict_get(d, "recall_target");
  if (v) {
    if (v->kind != ATTR_FLOAT && v->kind != ATTR_INT) {
      error_at(op->loc, "custom_call @ApproxTopK: backend_config's recall_target is not a number");
      return false;
    }
    c->recall = v->kind == ATTR_FLOAT ? v->f : (double)v->i;
    if (!(c->recall > 0 && c->recall <= 1)) {
      error_at(op->loc, "custom_call @ApproxTopK: recall_target %g is not in (0, 1]", c->recall);
      return false;
    }
  }
  const char *flags[] = {"aggregate_to_topk", "is_fallback"};
  for (int i = 0; i < 2; i++) {
    v = attr_dict_get(d, flags[i]);
    if (v && v->kind != ATTR_BOOL) {
      error_at(op->loc, "custom_call @ApproxTopK: backend_config's %s is not a boolean", flags[i]);
      return false;
    }
    if (v && i == 0) c->aggregate = v->b;
  }
  return true;
}

/* The comparator named in called_computations ([@f], or HLO's "{%f}"). */
static Func *comparator(Module *m, const Op *op) {
  const Attr *a = op_attr(op, "called_computations");
  if (a && a->kind == ATTR_ARRAY) a = a->n == 1 ? a->elems[0] : NULL;
  if (!a || !a->s) return NULL;
  const char *p = a->s + strspn(a->s, "{%@\" ");
  char *name = xstrndup(p, strcspn(p, "}\", "));
  Func *f = module_find_func(m, name);
  xfree(name);
  return f;
}

static bool scalar_of(const Type *t, ElemType et) {
  return t && t->kind == TY_TENSOR && !t->quant && t->rank == 0 && t->elem == et;
}

static bool plain(const Type *t) { return t && t->kind == TY_TENSOR && !t->quant; }

/* The types of the call against its parameters; R (the results' size along
   the reduction dimension) in *keep. */
static bool check_call(Module *m, const Op *op, const Config *c, Func **cmp, int64_t *keep) {
  int n = op->nopnds / 2;
  if (op->nopnds < 2 || op->nopnds % 2 || op->nres != n) {
    error_at(op->loc, "custom_call @ApproxTopK takes n inputs and n initial values and gives n results; it has %d "
                      "operands and %d results", op->nopnds, op->nres);
    return false;
  }
  const Type *t0 = op->opnds[0]->type;
  if (!plain(t0) || t0->rank < 1) {
    error_at(op->loc, "custom_call @ApproxTopK: its first input must be a tensor of rank 1 or more");
    return false;
  }
  if (c->dim < 0 || c->dim >= t0->rank) {
    error_at(op->loc, "custom_call @ApproxTopK: reduction_dim %lld is not a dimension of its rank-%d inputs",
             (long long)c->dim, t0->rank);
    return false;
  }
  int64_t len = t0->dims[c->dim];
  if (c->top_k < 0 || c->top_k > len) {
    error_at(op->loc, "custom_call @ApproxTopK: top_k %lld is not in [0, %lld], the size of reduction dimension %lld",
             (long long)c->top_k, (long long)len, (long long)c->dim);
    return false;
  }
  if (c->size_override != -1 && c->size_override < len) {
    error_at(op->loc, "custom_call @ApproxTopK: reduction_input_size_override %lld is smaller than the reduction "
                      "dimension (%lld); it is -1 or the size of the whole input the operand is a piece of",
             (long long)c->size_override, (long long)len);
    return false;
  }
  *keep = -1;
  for (int i = 0; i < n; i++) {
    const Type *t = op->opnds[i]->type, *r = op->res[i].type, *init = op->opnds[n + i]->type;
    if (!plain(t) || t->rank != t0->rank || memcmp(t->dims, t0->dims, sizeof *t->dims * (size_t)t->rank)) {
      error_at(op->loc, "custom_call @ApproxTopK: input #%d does not have the shape of input #0", i);
      return false;
    }
    if (!scalar_of(init, t->elem)) {
      error_at(op->loc, "custom_call @ApproxTopK: operand #%d, the initial value of input #%d, must be a scalar of "
                        "its element type", n + i, i);
      return false;
    }
    bool shaped = plain(r) && r->elem == t->elem && r->rank == t->rank;
    for (int d = 0; shaped && d < t->rank; d++) shaped = d == c->dim || r->dims[d] == t->dims[d];
    if (!shaped) {
      error_at(op->loc, "custom_call @ApproxTopK: result #%d must be input #%d cut along reduction dimension %lld",
               i, i, (long long)c->dim);
      return false;
    }
    int64_t k = r->dims[c->dim];
    if (*keep >= 0 && k != *keep) {
      error_at(op->loc, "custom_call @ApproxTopK: its results differ in size along the reduction dimension");
      return false;
    }
    *keep = k;
  }
  if (c->aggregate ? *keep != c->top_k : (*keep < c->top_k || *keep > len)) {
    error_at(op->loc, "custom_call @ApproxTopK: its results hold %lld elements along the reduction dimension; with "
                      "aggregate_to_topk %s that is %s %lld",
             (long long)*keep, c->aggregate ? "true" : "false", c->aggregate ? "top_k," : "from top_k to the input's",
             (long long)(c->aggregate ? c->top_k : len));
    return false;
  }
  *cmp = comparator(m, op);
  bool ok = *cmp && (*cmp)->body->nargs == 2 * n && (*cmp)->nresults == 1 &&
            scalar_of((*cmp)->result_types[0], ET_PRED);
  for (int i = 0; ok && i < 2 * n; i++) ok = scalar_of((*cmp)->body->args[i]->type, op->opnds[i / 2]->type->elem);
  if (!ok) {
    error_at(op->loc, "custom_call @ApproxTopK: called_computations must name one comparator taking a pair of "
                      "scalars of each input's element type (%d arguments) and returning tensor<i1>", 2 * n);
    return false;
  }
  return true;
}

/* sort(inputs) along the dimension with the comparator, then the first
   keep elements of each. */
static void rewrite(Module *m, Func *f, Op *op, const Config *c, Func *cmp, int64_t keep) {
  int n = op->nres;
  Builder b = bld_before(m, op);
  Type **rts = ARENA_ARRAY(&m->arena, Type *, n);
  for (int i = 0; i < n; i++) rts[i] = (Type *)op->opnds[i]->type;
  Op *s = op_new(m, OP_SORT, n, op->opnds, n, rts, op->loc);
  block_insert_before(b.blk, b.at, s);
  op_set_attr(m, s, "dimension", attr_int(m, c->dim, NULL));
  op_set_attr(m, s, "is_stable", attr_bool(m, true));
  Block *cb = block_new(m);
  PtrMap map = {0};
  for (int i = 0; i < 2 * n; i++)
    ptrmap_put(&map, cmp->body->args[i], block_add_arg(m, cb, (Type *)cmp->body->args[i]->type, NULL));
  block_clone_into(m, cmp->body, cb, &map);
  ptrmap_free(&map);
  block_terminator(cb)->kind = OP_RETURN; /* func.return -> stablehlo.return */
  op_add_region(m, s, cb);

  const Type *t = op->opnds[0]->type;
  int64_t *lo = ARENA_ARRAY(&m->arena, int64_t, t->rank), *hi = ARENA_ARRAY(&m->arena, int64_t, t->rank),
          *st = ARENA_ARRAY(&m->arena, int64_t, t->rank);
  for (int d = 0; d < t->rank; d++) {
    lo[d] = 0;
    hi[d] = d == c->dim ? keep : t->dims[d];
    st[d] = 1;
  }
  Value **out = ARENA_ARRAY(&m->arena, Value *, n);
  for (int i = 0; i < n; i++) {
    Value *src = &s->res[i];
    out[i] = bld_op(&b, OP_SLICE, 1, &src, op->res[i].type);
    op_set_attr(m, out[i]->def, "start_indices", attr_ints(m, t->rank, lo));
    op_set_attr(m, out[i]->def, "limit_indices", attr_ints(m, t->rank, hi));
    op_set_attr(m, out[i]->def, "strides", attr_ints(m, t->rank, st));
  }
  bld_replace(f, op, out);
}

typedef VEC(Op *) OpVec;

static bool collect(Op *op, void *ud) {
  if (is_approx_top_k(op)) VEC_PUSH(*(OpVec *)ud, op);
  return true;
}

int pass_approx_top_k(Module *m, const PassOptions *o) {
  (void)o;
  int changed = 0;
  for (Func *f = m->funcs; f; f = f->next) {
    OpVec ops = {0};
    block_walk(f->body, collect, &ops);
    for (int i = 0; i < ops.len; i++) {
      Op *op = ops.data[i];
      Config c;
      Func *cmp;
      int64_t keep;
      if (!read_config(op, &c) || !check_call(m, op, &c, &cmp, &keep)) {
        VEC_FREE(ops);
        return -1;
      }
      rewrite(m, f, op, &c, cmp, keep);
      changed = 1;
    }
    VEC_FREE(ops);
  }
  return changed;
}
