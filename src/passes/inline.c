/*
 * inline.c - replaces func.call of non-recursive functions by the callee's
 * body.
 *
 * Needs: a verified module.  Guarantees: the same values are computed; a
 * call site becomes a copy of the callee's ops with its parameters bound to
 * the call's operands, and the call's results become the copied return
 * operands.  Fusion calls (attribute "fusion_kind") are inlined like any
 * call: the pass runs before fusion, so a fusion here came with the input
 * (XLA's optimized HLO, whatever its kind: kLoop, kInput, kOutput, or the
 * library fusions of kind kCustom), and it was fused for XLA's code
 * generator; as plain ops it is fused again by our own cost model and
 * compiles like the same program before XLA's optimizations.  Kept as
 * calls: calls of a function (or from a call op) marked "noinline", calls
 * of functions that can reach themselves through calls (inlining them would
 * not terminate), and calls to unknown functions.  The callee itself stays;
 * dce removes it once it is private and unused.
 *
 * The copied ops are visited in turn, so a chain of calls flattens
 * completely.  Only the functions that stay are flattened: the public ones
 * and the entry, those that an attribute other than a call's callee names
 * (composite decompositions, custom-call computations, ...), and the
 * callees of calls that stay calls.  A private function whose calls are all
 * inlined is left for dce: flattening it as well would copy a chain of n
 * functions n times over.  A budget on copied ops stops a program whose
 * functions call each other in a wide tree (each calling the next twice:
 * 2^n copies) from growing exponentially: running out of it is an error at
 * the call that would go past it, since compiling such a program would
 * not end in reasonable time either.
 *
 * Near-linear work per copied op: the results of an inlined call are
 * forwarded to their uses as the walk (forward, as SSA uses go) reaches
 * them, not searched for in the whole caller; whether a callee can reach
 * itself is decided once per function.
 */
#include <stdlib.h>
#include <string.h>

#include "passes/passes.h"

#define INLINE_OP_BUDGET (1 << 20)

typedef struct Inl {
  Module *m;
  StrMap funcs;      /* name -> Func* */
  PtrMap recursive;  /* Func* -> (void *)1 when it can reach itself, 2 when not */
  PtrMap fwd;        /* an inlined call's result -> the value it became */
  int64_t budget;    /* ops still allowed to be copied */
  bool failed;       /* the budget ran out (reported) */
  int inlined;
  PtrMap queued;     /* Func* -> non-NULL once on the work list */
  VEC(Func *) work;  /* functions to flatten */
} Inl;

static void enqueue(Inl *s, Func *f) {
  if (!f || ptrmap_has(&s->queued, f)) return;
  ptrmap_put(&s->queued, f, f);
  VEC_PUSH(s->work, f);
}

static Func *callee_of(const Inl *s, const Op *op) {
  const char *name = op->kind == OP_CALL ? op_attr_str(op, "callee") : NULL;
  return name ? strmap_get(&s->funcs, name) : NULL;
}

/* ---- recursion: does f reach itself through calls? ---- */
static bool reaches(const Inl *s, const Block *b, const Func *target, PtrMap *seen);

static bool func_reaches(const Inl *s, Func *f, const Func *target, PtrMap *seen) {
  if (f == target) return true;
  if (ptrmap_has(seen, f)) return false;
  ptrmap_put(seen, f, f);
  return reaches(s, f->body, target, seen);
}

static bool reaches(const Inl *s, const Block *b, const Func *target, PtrMap *seen) {
  for (const Op *op = b->first; op; op = op->next) {
    Func *g = callee_of(s, op);
    if (g && func_reaches(s, g, target, seen)) return true;
    for (int r = 0; r < op->nregions; r++)
      if (reaches(s, op->regions[r], target, seen)) return true;
  }
  return false;
}

static bool is_recursive(Inl *s, Func *f) {
  PtrMap seen = {0};
  bool rec = reaches(s, f->body, f, &seen);
  ptrmap_free(&seen);
  return rec;
}

static bool has_noinline(int nattrs, const NamedAttr *attrs) {
  for (int i = 0; i < nattrs; i++) {
    if (strcmp(attrs[i].name, "noinline") != 0) continue;
    const Attr *a = attrs[i].attr;
    return !(a->kind == ATTR_BOOL && !a->b);
  }
  return false;
}

static int64_t count_ops(const Block *b) {
  int64_t n = 0;
  for (const Op *op = b->first; op; op = op->next) {
    n++;
    for (int r = 0; r < op->nregions; r++) n += count_ops(op->regions[r]);
  }
  return n;
}

static bool can_inline(Inl *s, const Op *call, Func *g) {
  if (!g || call->nregions) return false;
  if (has_noinline(call->nattrs, call->attrs) || has_noinline(g->nattrs, g->attrs)) return false;
  Op *ret = block_terminator(g->body);
  if (!ret || ret->nopnds != call->nres || g->body->nargs != call->nopnds) return false;
  intptr_t known = (intptr_t)ptrmap_get(&s->recursive, g);
  if (!known) {
    known = is_recursive(s, g) ? 1 : 2;
    ptrmap_put(&s->recursive, g, (void *)known);
  }
  if (known == 1) return false;
  if (count_ops(g->body) > s->budget) {
    error_at(call->loc,
             "inlining this call of @%s would copy more than %d operations in all (functions that call each "
             "other in a tree as wide as it is deep?)",
             g->name, INLINE_OP_BUDGET);
    s->failed = true;
    return false;
  }
  return true;
}


/* Returns the first copied op (NULL when the body was only a return). */
static Op *inline_call(Inl *s, Func *caller, Op *call, Func *g) {
  PtrMap map = {0};
  Op *first = NULL;
  for (int i = 0; i < g->body->nargs; i++) ptrmap_put(&map, g->body->args[i], call->opnds[i]);
  Op *ret = block_terminator(g->body);
  for (const Op *op = g->body->first; op && op != ret; op = op->next) {
    Op *c = op_clone(s->m, op, &map);
    block_insert_before(call->parent, call, c);
    if (!first) first = c;
  }
  for (int i = 0; i < call->nres; i++) {
    Value *v = ptrmap_get(&map, ret->opnds[i]);
    ptrmap_put(&s->fwd, &call->res[i], v ? v : ret->opnds[i]);
  }
  ptrmap_free(&map);
  s->budget -= count_ops(g->body);
  op_erase(call);
  s->inlined++;
  return first;
}

static void inline_block(Inl *s, Func *caller, Block *b) {
  for (Op *op = b->first; op && !s->failed;) {
    Op *next = op->next;
    op_forward_operands(op, &s->fwd);
    Func *g = callee_of(s, op);
    if (g && g != caller && can_inline(s, op, g)) {
      /* go on with the copy: calls in it are inlined in turn */
      Op *first = inline_call(s, caller, op, g);
      if (first) next = first;
    } else {
      /* a call that stays: its callee stays, so flatten it too */
      enqueue(s, g);
      for (int r = 0; r < op->nregions; r++) inline_block(s, caller, op->regions[r]);
    }
    op = next;
  }
}

/* Functions named by an attribute other than a call's callee stay. */
static void enqueue_named(Inl *s, const Attr *a) {
  if (!a) return;
  if ((a->kind == ATTR_SYMBOL || a->kind == ATTR_STRING || a->kind == ATTR_OPAQUE) && a->s) {
    /* a symbol, or text that may name several ("{%cmp}") */
    for (const char *p = a->s; *p;) {
      p += strspn(p, "{}%@\", \t\n");
      size_t n = strcspn(p, "{}%@\", \t\n");
      if (n) enqueue(s, strmap_getn(&s->funcs, p, n));
      p += n;
    }
  }
  if (a->kind == ATTR_ARRAY || a->kind == ATTR_DICT)
    for (int i = 0; i < a->n; i++) enqueue_named(s, a->elems[i]);
}

static bool enqueue_refs(Op *op, void *ud) {
  for (int i = 0; i < op->nattrs; i++)
    if (!(op->kind == OP_CALL && strcmp(op->attrs[i].name, "callee") == 0)) enqueue_named(ud, op->attrs[i].attr);
  return true;
}

int pass_inline_calls(Module *m, const PassOptions *o) {
  (void)o;
  Inl s;
  memset(&s, 0, sizeof s);
  s.m = m;
  s.budget = INLINE_OP_BUDGET;
  for (Func *f = m->funcs; f; f = f->next)
    if (!strmap_get(&s.funcs, f->name)) strmap_put(&s.funcs, f->name, f);
  Func *entry = module_entry(m);
  for (Func *f = m->funcs; f; f = f->next)
    if (!f->is_private || f == entry) enqueue(&s, f);
  module_walk(m, enqueue_refs, &s);
  for (int i = 0; i < s.work.len && !s.failed; i++) inline_block(&s, s.work.data[i], s.work.data[i]->body);
  strmap_free(&s.funcs);
  ptrmap_free(&s.recursive);
  if (s.failed) {
    /* the ops the walk did not reach still name inlined calls' results */
    for (Func *f = m->funcs; f; f = f->next) block_forward_operands(f->body, &s.fwd);
    ptrmap_free(&s.fwd);
    VEC_FREE(s.work);
    ptrmap_free(&s.queued);
    return -1;
  }
  ptrmap_free(&s.fwd);
  ptrmap_free(&s.queued);
  VEC_FREE(s.work);
  return s.inlined > 0;
}
