/*
 * control.c - control flow in the interpreter: while, if, case, calls
 * (func.call, composite through its decomposition) and custom_call.
 *
 * Regions return their values through interp_run_block, which writes one
 * new reference per terminator operand; the number of those is checked
 * against the op's results before a region runs so that a malformed program
 * (one the verifier did not see) cannot write past the result array.
 *
 * custom_call dispatches on call_target_name: first the check.* targets that
 * StableHLO's generated tests use (checks.c), then XLA's built-in "TopK"
 * (which JAX's HLO dumps contain), then the IVal-based functions registered
 * with interp_register_custom_call, then hostcall.c: the annotation targets
 * JAX emits, the host functions of the public registry
 * (xlac_custom_call_register), and the error for anything else, which
 * names the target.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interp/checks.h"
#include "interp/hostcall.h"
#include "interp/interp.h"

static bool region_arity(Interp *I, Op *op, int k, int want_results) {
  if (k >= op->nregions || !op->regions[k])
    return interp_error(I, op, "%s is missing region #%d", op_info[op->kind].name, k);
  Op *t = block_terminator(op->regions[k]);
  if (!t) return interp_error(I, op, "region #%d of %s has no terminator", k, op_info[op->kind].name);
  if (t->nopnds != want_results)
    return interp_error(I, op, "region #%d of %s returns %d values, expected %d", k,
                        op_info[op->kind].name, t->nopnds, want_results);
  return true;
}

static bool scalar_tensor(Interp *I, Op *op, IVal *v, const char *what) {
  if (!v || v->kind != IV_TENSOR || v->lit->n != 1)
    return interp_error(I, op, "%s of %s must be a single-element tensor", what, op_info[op->kind].name);
  return true;
}

bool interp_loop_continue(Interp *I, const Op *loop) {
  InterpCancel *c = I->opts ? I->opts->cancel : NULL;
  if (!c || !atomic_load_explicit(&c->stop, memory_order_relaxed)) return true;
  if (atomic_exchange(&c->reported, 1) == 0)
    return interp_error(I, loop, "%s stopped: %s", op_info[loop->kind].name,
                        c->reason ? c->reason : "the run was cancelled");
  I->failed = true;
  return false;
}

const atomic_int *interp_cancel_flag(const Interp *I) {
  static const atomic_int never;
  InterpCancel *c = I->opts ? I->opts->cancel : NULL;
  return c ? &c->stop : &never;
}

bool interp_WHILE(Interp *I, Op *op, IVal **args, IVal **res) {
  int n = op->nopnds;
  if (op->nres != n) return interp_error(I, op, "while has %d operands but %d results", n, op->nres);
  if (!region_arity(I, op, 0, 1) || !region_arity(I, op, 1, n)) return false;
  IVal **vals = xcalloc((size_t)(n > 0 ? n : 1), sizeof(IVal *));
  IVal **next = xcalloc((size_t)(n > 0 ? n : 1), sizeof(IVal *));
  for (int i = 0; i < n; i++) vals[i] = ival_retain(args[i]);
  bool ok = true;
  for (;;) {
    if (!(ok = interp_loop_continue(I, op))) break;
    IVal *c = NULL;
    ok = interp_run_block(I, op->regions[0], n, vals, &c);
    if (ok) ok = scalar_tensor(I, op, c, "the condition");
    bool go = ok && lit_get_b(c->lit, 0);
    ival_release(c);
    if (!go) break;
    memset(next, 0, sizeof(IVal *) * (size_t)n);
    ok = interp_run_block(I, op->regions[1], n, vals, next);
    for (int i = 0; i < n; i++) {
      ival_release(vals[i]);
      vals[i] = next[i];
    }
    if (!ok) break;
  }
  for (int i = 0; i < n; i++) {
    if (ok)
      res[i] = vals[i];
    else
      ival_release(vals[i]);
  }
  xfree(vals);
  xfree(next);
  return ok;
}

static bool run_branch(Interp *I, Op *op, int k, IVal **res) {
  if (!region_arity(I, op, k, op->nres)) return false;
  return interp_run_block(I, op->regions[k], 0, NULL, res);
}

bool interp_IF(Interp *I, Op *op, IVal **args, IVal **res) {
  if (op->nopnds < 1) return interp_error(I, op, "if needs a predicate operand");
  if (!scalar_tensor(I, op, args[0], "the predicate")) return false;
  if (op->nregions != 2) return interp_error(I, op, "if needs 2 regions, has %d", op->nregions);
  return run_branch(I, op, lit_get_b(args[0]->lit, 0) ? 0 : 1, res);
}

bool interp_CASE(Interp *I, Op *op, IVal **args, IVal **res) {
  if (op->nopnds < 1) return interp_error(I, op, "case needs an index operand");
  if (!scalar_tensor(I, op, args[0], "the index")) return false;
  if (op->nregions < 1) return interp_error(I, op, "case needs at least one branch");
  const Literal *ix = args[0]->lit;
  /* an out-of-range index (negative included) selects the last branch */
  int k = op->nregions - 1;
  if (et_is_int(lit_elem(ix))) {
    if (et_is_signed(lit_elem(ix))) {
      int64_t v = lit_get_i(ix, 0);
      if (v >= 0 && v < op->nregions) k = (int)v;
    } else {
      uint64_t v = lit_get_u(ix, 0);
      if (v < (uint64_t)op->nregions) k = (int)v;
    }
  } else if (et_is_pred(lit_elem(ix))) {
    /* HLO conditionals on a pred: true takes branch 0 */
    k = lit_get_b(ix, 0) ? 0 : (op->nregions > 1 ? 1 : 0);
  } else {
    return interp_error(I, op, "case index must be an integer, got %s", elem_info[lit_elem(ix)].mlir_name);
  }
  return run_branch(I, op, k, res);
}

static bool call_symbol(Interp *I, Op *op, const char *attr, IVal **args, IVal **res) {
  Attr *a = op_attr(op, attr);
  const char *name = a && (a->kind == ATTR_SYMBOL || a->kind == ATTR_STRING) ? a->s : NULL;
  if (!name) return interp_error(I, op, "%s has no '%s' symbol", op_info[op->kind].name, attr);
  if (*name == '@') name++;
  Func *f = module_find_func(I->module, name);
  if (!f) return interp_error(I, op, "call to unknown function @%s", name);
  if (f->body->nargs != op->nopnds)
    return interp_error(I, op, "@%s takes %d arguments, the call passes %d", name, f->body->nargs,
                        op->nopnds);
  if (f->nresults != op->nres)
    return interp_error(I, op, "@%s returns %d values, the call expects %d", name, f->nresults, op->nres);
  Op *t = block_terminator(f->body);
  if (!t || t->nopnds != f->nresults)
    return interp_error(I, op, "@%s does not end in a return of %d values", name, f->nresults);
  return interp_call(I, f, op->nopnds, args, res);
}

bool interp_CALL(Interp *I, Op *op, IVal **args, IVal **res) { return call_symbol(I, op, "callee", args, res); }

bool interp_COMPOSITE(Interp *I, Op *op, IVal **args, IVal **res) {
  return call_symbol(I, op, "decomposition", args, res);
}

/* ---- XLA's TopK custom call ----
 * operand [..., n] -> (values [..., k], indices [..., k]), each row ordered
 * by the comparator computation in called_computations (a, b, index_a,
 * index_b) -> pred, or descending (NaN first) without one.  Ties keep index
 * order: the sort is a stable merge sort. */
typedef struct TopK {
  Interp *I;
  Op *op;
  Func *cmp;
  const Literal *in;
  int64_t base; /* flat index of the row's first element */
  Literal *scal[4];
  bool failed;
} TopK;

static Func *comparator_func(Interp *I, Op *op) {
  Attr *a = op_attr(op, "called_computations");
  if (!a) return NULL;
  if (a->kind == ATTR_ARRAY && a->n > 0) a = a->elems[0];
  if (!a->s) return NULL;
  /* tolerate the HLO spellings {%name}, %name, @name, "name" */
  const char *p = a->s;
  while (*p == '{' || *p == ' ' || *p == '%' || *p == '@' || *p == '"') p++;
  size_t n = strcspn(p, "}\", ");
  char *name = xstrndup(p, n);
  Func *f = module_find_func(I->module, name);
  xfree(name);
  return f;
}

static bool topk_before(TopK *t, int64_t a, int64_t b) {
  const Literal *in = t->in;
  if (!t->cmp) {
    ElemType et = lit_elem(in);
    if (et_is_float(et)) {
      double x = lit_get_f(in, t->base + a), y = lit_get_f(in, t->base + b);
      if (isnan(x) || isnan(y)) return isnan(x) && !isnan(y);
      return x > y;
    }
    if (et_is_unsigned(et) || et_is_pred(et)) return lit_get_u(in, t->base + a) > lit_get_u(in, t->base + b);
    return lit_get_i(in, t->base + a) > lit_get_i(in, t->base + b);
  }
  lit_copy_elem(t->scal[0], 0, in, t->base + a);
  lit_copy_elem(t->scal[1], 0, in, t->base + b);
  lit_set_i(t->scal[2], 0, a);
  lit_set_i(t->scal[3], 0, b);
  IVal *args[4], *r = NULL;
  for (int i = 0; i < 4; i++) args[i] = ival_tensor(lit_clone(t->scal[i]));
  bool ok = interp_call(t->I, t->cmp, 4, args, &r);
  for (int i = 0; i < 4; i++) ival_release(args[i]);
  bool before = false;
  if (ok && r && r->kind == IV_TENSOR && r->lit->n == 1)
    before = lit_get_b(r->lit, 0);
  else if (!t->failed && ok)
    interp_error(t->I, t->op, "TopK comparator did not return a predicate");
  if (!ok || !r || r->kind != IV_TENSOR) t->failed = true;
  ival_release(r);
  return before;
}

static void topk_sort(TopK *t, int64_t *v, int64_t *tmp, int64_t n) {
  if (n < 2 || t->failed) return;
  int64_t h = n / 2;
  topk_sort(t, v, tmp, h);
  topk_sort(t, v + h, tmp, n - h);
  int64_t i = 0, j = h, k = 0;
  while (i < h && j < n && !t->failed) tmp[k++] = topk_before(t, v[j], v[i]) ? v[j++] : v[i++];
  while (i < h) tmp[k++] = v[i++];
  while (j < n) tmp[k++] = v[j++];
  memcpy(v, tmp, sizeof(int64_t) * (size_t)n);
}

static bool custom_topk(Interp *I, Op *op, IVal **args, IVal **res) {
  if (op->nopnds != 1 || op->nres != 2 || args[0]->kind != IV_TENSOR)
    return interp_error(I, op, "TopK expects one tensor operand and two results");
  const Literal *in = args[0]->lit;
  const Type *vt = op->res[0].type, *it = op->res[1].type;
  int r = in->type->rank;
  if (r < 1 || vt->kind != TY_TENSOR || it->kind != TY_TENSOR || vt->rank != r || it->rank != r ||
      vt->elem != lit_elem(in) || !et_is_int(it->elem))
    return interp_error(I, op, "TopK result types do not fit its operand");
  for (int d = 0; d < r - 1; d++)
    if (vt->dims[d] != in->type->dims[d] || it->dims[d] != in->type->dims[d])
      return interp_error(I, op, "TopK result types do not fit its operand");
  int64_t n = in->type->dims[r - 1], k = vt->dims[r - 1];
  if (it->dims[r - 1] != k || k > n) return interp_error(I, op, "TopK k = %lld is larger than the row length", (long long)k);
  TopK t = {I, op, comparator_func(I, op), in, 0, {NULL}, false};
  if (t.cmp) {
    if (t.cmp->body->nargs != 4 || t.cmp->nresults != 1)
      return interp_error(I, op, "TopK comparator @%s must take 4 arguments and return 1", t.cmp->name);
    for (int i = 0; i < 4; i++) {
      const Type *at = t.cmp->body->args[i]->type;
      if (at->kind != TY_TENSOR || at->rank != 0 || (i < 2 && at->elem != lit_elem(in)) || (i >= 2 && !et_is_int(at->elem))) {
        for (int j = 0; j < i; j++) lit_free(t.scal[j]);
        return interp_error(I, op, "TopK comparator @%s has unexpected argument types", t.cmp->name);
      }
      t.scal[i] = lit_new(at);
    }
  }
  Literal *vals = lit_new(vt), *idx = lit_new(it);
  int64_t rows = n > 0 ? in->n / n : 0;
  int64_t *perm = xcalloc((size_t)(n > 0 ? n : 1), sizeof(int64_t));
  int64_t *tmp = xcalloc((size_t)(n > 0 ? n : 1), sizeof(int64_t));
  for (int64_t row = 0; row < rows && !t.failed; row++) {
    t.base = row * n;
    for (int64_t i = 0; i < n; i++) perm[i] = i;
    topk_sort(&t, perm, tmp, n);
    for (int64_t i = 0; i < k; i++) {
      lit_copy_elem(vals, row * k + i, in, t.base + perm[i]);
      lit_set_i(idx, row * k + i, perm[i]);
    }
  }
  xfree(perm);
  xfree(tmp);
  for (int i = 0; i < 4; i++) lit_free(t.scal[i]);
  if (t.failed) {
    lit_free(vals);
    lit_free(idx);
    return false;
  }
  res[0] = ival_tensor(vals);
  res[1] = ival_tensor(idx);
  return true;
}

bool interp_CUSTOM_CALL(Interp *I, Op *op, IVal **args, IVal **res) {
  Attr *a = op_attr(op, "call_target_name");
  if (!a || (a->kind != ATTR_STRING && a->kind != ATTR_SYMBOL) || !a->s)
    return interp_error(I, op, "custom_call has no call_target_name");
  char *target = a->kind == ATTR_STRING ? xstrndup(a->s, a->slen) : xstrdup(a->s);
  bool handled, ok = interp_custom_check(I, op, target, args, res, &handled);
  if (!handled && strcmp(target, "TopK") == 0) {
    handled = true;
    ok = custom_topk(I, op, args, res);
  }
  if (!handled) {
    InterpCustomCallFn fn;
    void *user;
    if (interp_find_custom_call(target, &fn, &user))
      ok = fn(I, op, op->nopnds, args, op->nres, res, user);
    else
      ok = hostcall_interp(I, op, target, args, res);
  }
  xfree(target);
  return ok;
}

/* Terminators are consumed by the evaluation loop and never dispatched. */
bool interp_RETURN(Interp *I, Op *op, IVal **args, IVal **res) {
  return interp_error(I, op, "internal error: stablehlo.return executed as an op");
}

bool interp_FUNC_RETURN(Interp *I, Op *op, IVal **args, IVal **res) {
  return interp_error(I, op, "internal error: func.return executed as an op");
}
