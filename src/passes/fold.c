/*
 * fold.c - constant folding: evaluate ops whose operands are all constants.
 *
 * Needs: a verified module.  Guarantees: a folded op is replaced by
 * stablehlo.constant ops holding exactly what the reference interpreter
 * computes for it, so the module computes the same values as before.  The
 * interpreter is the evaluator - there is no second implementation of any
 * op's semantics here to drift from the oracle.
 *
 * What is folded: pure ops with at least one operand, all operands
 * constants, tensor results of at most PassOptions.fold_limit elements in
 * total (default 1 << 16).  Ops with regions only when they are reduce,
 * map, sort, reduce_window, scatter or select_and_scatter (their bodies are
 * pure by op_is_pure).  Never folded: side effects, collectives, rng,
 * replica/partition ids, custom_call, calls, optimization_barrier, and ops
 * on quantized types.  Broadcasts and iota are not folded either: they
 * would turn a value that costs nothing to produce into a large constant
 * that costs memory bandwidth to read.  To still fold the common JAX shape
 * `add(broadcast(c1), broadcast(c2))`, an elementwise op whose operands
 * are all broadcasts of scalar constants is first rewritten to a broadcast
 * of the op on the scalars (exact: elementwise ops commute with
 * broadcasting), and the scalar op then folds.
 *
 * An evaluation that fails (the interpreter reports a runtime error) leaves
 * the op alone and its diagnostics unprinted: the program may never reach
 * that op, and if it does, running it reports the error then.
 *
 * XLAC_FOLD=0 in the environment turns folding off (testing a backend on
 * programs whose inputs are constants).
 */
#include <stdlib.h>
#include <string.h>

#include "interp/interp.h"
#include "passes/passes.h"

/* The interpreter's per-op entry points, indexed by kind. */
static const InterpOpFn fold_eval[OP_COUNT] = {
#define OP(id, name, hlo, flags) [OP_##id] = interp_##id,
#include "ir/ops.def"
#undef OP
};

typedef struct Fold {
  Module *m;
  Func *f;
  Interp interp;
  InterpOptions iopts;
  int64_t limit;
  bool broadcasts; /* fold broadcasts too (fold_new_ops) */
  int changed;
} Fold;

static Literal *const_lit(const Value *v) {
  if (!v->def || v->def->kind != OP_CONSTANT) return NULL;
  Attr *a = op_attr(v->def, "value");
  if (!a || a->kind != ATTR_DENSE || !a->lit || a->lit->type->quant) return NULL;
  if (v->type->kind != TY_TENSOR || v->type->quant) return NULL;
  return a->lit;
}

static bool region_kind_foldable(OpKind k) {
  switch (k) {
  case OP_REDUCE: case OP_MAP: case OP_SORT: case OP_REDUCE_WINDOW: case OP_SCATTER:
  case OP_SELECT_AND_SCATTER:
    return true;
  default:
    return false;
  }
}

static bool kind_foldable(OpKind k) {
  if (op_has_flag(k, OPF_EFFECT) || op_has_flag(k, OPF_COLL) || op_has_flag(k, OPF_TERM)) return false;
  switch (k) {
  case OP_CONSTANT: case OP_CHLO_CONSTANT: case OP_BROADCAST_IN_DIM: case OP_BROADCAST: case OP_IOTA:
  case OP_DYNAMIC_IOTA: case OP_DYNAMIC_BROADCAST_IN_DIM: case OP_RNG: case OP_RNG_BIT_GENERATOR:
  case OP_CUSTOM_CALL: case OP_CALL: case OP_COMPOSITE: case OP_OPTIMIZATION_BARRIER:
  case OP_REPLICA_ID: case OP_PARTITION_ID: case OP_AFTER_ALL: case OP_CREATE_TOKEN: case OP_TUPLE:
  case OP_GET_TUPLE_ELEMENT: case OP_ASYNC_START: case OP_ASYNC_DONE: case OP_INFEED:
  case OP_OUTFEED: case OP_SEND: case OP_RECV: case OP_WHILE: case OP_IF: case OP_CASE:
    return false;
  default:
    return true;
  }
}

/* ---- silencing the interpreter while it evaluates ---- */
static void swallow(DiagLevel lvl, SrcLoc loc, const char *msg, void *ud) {
  (void)lvl;
  (void)loc;
  (void)msg;
  int *n = ud;
  (*n)++;
}

/* A failed evaluation counted its errors; the driver decides its exit
   status from that count, so put it back to what it was.  The count can
   only be reset to zero, so the earlier errors are re-counted silently. */
static void restore_error_count(int before) {
  int dummy = 0;
  DiagContext outer = diag_context_get();
  diag_reset_count();
  diag_set_hook(swallow, &dummy);
  for (int i = 0; i < before; i++) error_at(SRCLOC_NONE, "restored");
  diag_context_set(outer);
}

static bool evaluate(Fold *s, Op *op, IVal **args, IVal **res) {
  int swallowed = 0, errors_before = diag_error_count();
  interp_init(&s->interp, s->m, &s->iopts);
  DiagContext outer = diag_context_get();
  diag_set_hook(swallow, &swallowed);
  bool ok = fold_eval[op->kind](&s->interp, op, args, res) && !s->interp.failed;
  diag_context_set(outer);
  if (diag_error_count() != errors_before) {
    restore_error_count(errors_before);
    ok = false;
  }
  return ok;
}

static bool foldable(Fold *s, Op *op) {
  if (op->nopnds < 1 || op->nres < 1) return false;
  if (!kind_foldable(op->kind) &&
      !(s->broadcasts && (op->kind == OP_BROADCAST_IN_DIM || op->kind == OP_BROADCAST)))
    return false;
  if (op->nregions && !region_kind_foldable(op->kind)) return false;
  if (!op_is_pure(op)) return false;
  for (int i = 0; i < op->nopnds; i++)
    if (!const_lit(op->opnds[i])) return false;
  int64_t total = 0;
  for (int i = 0; i < op->nres; i++) {
    const Type *t = op->res[i].type;
    if (t->kind != TY_TENSOR || t->quant) return false;
    total += type_num_elements(t);
    if (total > s->limit) return false;
  }
  return true;
}

/* Evaluates op into constant ops inserted before it, their values in
   out[0..nres-1]; op itself is left in place.  False when it does not
   fold. */
static bool fold_values(Fold *s, Op *op, Value **out) {
  if (!foldable(s, op)) return false;
  int n = op->nopnds, nr = op->nres;
  IVal **args = xcalloc((size_t)n, sizeof(IVal *));
  /* the interpreter writes up to max(nres, 8) slots on some paths */
  IVal **res = xcalloc((size_t)(nr > 8 ? nr : 8), sizeof(IVal *));
  for (int i = 0; i < n; i++) args[i] = ival_tensor(lit_clone(const_lit(op->opnds[i])));
  bool ok = evaluate(s, op, args, res);
  for (int i = 0; ok && i < nr; i++) {
    const Type *t = op->res[i].type;
    ok = res[i] && res[i]->kind == IV_TENSOR && lit_elem(res[i]->lit) == t->elem &&
         res[i]->lit->n == type_num_elements(t);
  }
  for (int i = 0; ok && i < nr; i++) {
    Type *t = op->res[i].type;
    Literal *l = lit_new_in(&s->m->arena, t);
    if (l->n) memcpy(l->data, res[i]->lit->data, (size_t)l->n * (size_t)et_bytes(t->elem));
    Op *c = build_op(s->m, op->parent, op, OP_CONSTANT, 0, NULL, t, op->loc);
    op_set_attr(s->m, c, "value", attr_dense(s->m, l));
    out[i] = &c->res[0];
  }
  for (int i = 0; i < n; i++) ival_release(args[i]);
  for (int i = 0; i < (nr > 8 ? nr : 8); i++)
    if (res[i]) ival_release(res[i]);
  xfree(args);
  xfree(res);
  return ok;
}

static bool fold_op(Fold *s, Op *op) {
  Value *stack_out[8];
  Value **out = op->nres <= 8 ? stack_out : xcalloc((size_t)op->nres, sizeof(Value *));
  bool ok = fold_values(s, op, out);
  if (ok) {
    for (int i = 0; i < op->nres; i++) func_replace_uses(s->f, &op->res[i], out[i], NULL);
    op_erase(op);
    s->changed++;
  }
  if (out != stack_out) xfree(out);
  return ok;
}

/* ew(broadcast(c1), ..., broadcast(cn)) with scalar constants ci becomes
   broadcast(ew(c1, ..., cn)); the scalar op folds next. */
static bool hoist_splat_broadcasts(Fold *s, Op *op) {
  if (!op_has_flag(op->kind, OPF_EW) || !kind_foldable(op->kind) || op->nres != 1 || op->nregions ||
      op->nopnds < 1)
    return false;
  Type *rt = op->res[0].type;
  if (rt->kind != TY_TENSOR || rt->quant || rt->rank == 0) return false;
  Value *scalars[4];
  if (op->nopnds > 4) return false;
  for (int i = 0; i < op->nopnds; i++) {
    Op *b = op->opnds[i]->def;
    if (!b || b->kind != OP_BROADCAST_IN_DIM || b->nopnds != 1) return false;
    Value *c = b->opnds[0];
    if (!const_lit(c) || c->type->rank != 0) return false;
    scalars[i] = c;
  }
  Module *m = s->m;
  Type *st = type_scalar(&m->arena, rt->elem);
  Op *sc = build_op(m, op->parent, op, op->kind, op->nopnds, scalars, st, op->loc);
  for (int i = 0; i < op->nattrs; i++) op_set_attr(m, sc, op->attrs[i].name, op->attrs[i].attr);
  Value *sv = &sc->res[0];
  Op *bc = build_op(m, op->parent, op, OP_BROADCAST_IN_DIM, 1, &sv, rt, op->loc);
  op_set_attr(m, bc, "broadcast_dimensions", attr_ints(m, 0, NULL));
  func_replace_uses(s->f, &op->res[0], &bc->res[0], NULL);
  op_erase(op);
  s->changed++;
  fold_op(s, sc);
  return true;
}

static void fold_block(Fold *s, Block *b) {
  for (Op *op = b->first; op;) {
    Op *next = op->next;
    if (!fold_op(s, op) && !hoist_splat_broadcasts(s, op))
      for (int r = 0; r < op->nregions; r++) fold_block(s, op->regions[r]);
    op = next;
  }
}

/* XLAC_FOLD=0 turns folding off: for running a backend on programs whose
   inputs are all constants (StableHLO's interpreter suite), which folding
   would otherwise compute at compile time, in the interpreter. */
static bool fold_disabled(void) {
  const char *e = getenv("XLAC_FOLD");
  return e && strcmp(e, "0") == 0;
}

int pass_constant_fold(Module *m, const PassOptions *o) {
  if (fold_disabled()) return 0;
  Fold s;
  memset(&s, 0, sizeof s);
  s.m = m;
  s.limit = o && o->fold_limit > 0 ? o->fold_limit : (int64_t)1 << 16;
  s.iopts.quiet_checks = true;
  int total = 0;
  for (Func *f = m->funcs; f; f = f->next) {
    s.f = f;
    s.changed = 0;
    fold_block(&s, f->body);
    if (s.changed) func_erase_dead(f);
    total += s.changed;
  }
  return total > 0;
}

int fold_new_ops(Module *m, Block *b, Op *first, int64_t limit, Value **keep, int nkeep) {
  if (fold_disabled()) return 0;
  Fold s;
  memset(&s, 0, sizeof s);
  s.m = m;
  s.limit = limit > 0 ? limit : (int64_t)1 << 16;
  s.broadcasts = true;
  s.iopts.quiet_checks = true;
  for (Op *op = first; op;) {
    Op *next = op->next;
    Value *stack_out[8];
    Value **out = op->nres <= 8 ? stack_out : xcalloc((size_t)op->nres, sizeof(Value *));
    if (fold_values(&s, op, out)) {
      for (int i = 0; i < op->nres; i++) {
        for (Op *u = next; u; u = u->next) {
          for (int k = 0; k < u->nopnds; k++)
            if (u->opnds[k] == &op->res[i]) u->opnds[k] = out[i];
          for (int r = 0; r < u->nregions; r++) block_replace_uses(u->regions[r], &op->res[i], out[i]);
        }
        for (int k = 0; k < nkeep; k++)
          if (keep[k] == &op->res[i]) keep[k] = out[i];
      }
      op_erase(op);
      s.changed++;
    }
    if (out != stack_out) xfree(out);
    op = next;
  }
  return s.changed;
}
