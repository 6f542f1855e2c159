/*
 * inline.c - replaces func.call of non-recursive functions by the callee's
 * body.
 *
 * Needs: a verified module.  Guarantees: the same values are computed; a
 * call site becomes a copy of the callee's ops with its parameters bound to
 * the call's operands, and the call's results become the copied return
 * operands.  Kept as calls: fusion calls (attribute "fusion_kind": a fused
 * computation is a unit for the code generator), calls of a function (or
 * from a call op) marked "noinline", calls of functions that can reach
 * themselves through calls (inlining them would not terminate), and calls
 * to unknown functions.  The callee itself stays; dce removes it once it is
 * private and unused.
 *
 * Inlining repeats until no call is left to inline, so a chain of calls
 * flattens completely.  A budget on copied ops stops a program whose
 * functions call each other in a wide tree from growing exponentially; the
 * calls beyond it stay calls, which is still correct.
 */
#include <stdlib.h>
#include <string.h>

#include "passes/passes.h"

#define INLINE_OP_BUDGET (1 << 20)

typedef struct Inl {
  Module *m;
  StrMap funcs;      /* name -> Func* */
  PtrMap recursive;  /* Func* -> non-NULL when it can reach itself */
  int64_t budget;    /* ops still allowed to be copied */
  int inlined;
} Inl;

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
  if (!g || op_attr(call, "fusion_kind") || call->nregions) return false;
  if (has_noinline(call->nattrs, call->attrs) || has_noinline(g->nattrs, g->attrs)) return false;
  Op *ret = block_terminator(g->body);
  if (!ret || ret->nopnds != call->nres || g->body->nargs != call->nopnds) return false;
  if (ptrmap_has(&s->recursive, g)) return false;
  if (is_recursive(s, g)) {
    ptrmap_put(&s->recursive, g, g);
    return false;
  }
  return count_ops(g->body) <= s->budget;
}

static void inline_call(Inl *s, Func *caller, Op *call, Func *g) {
  PtrMap map = {0};
  for (int i = 0; i < g->body->nargs; i++) ptrmap_put(&map, g->body->args[i], call->opnds[i]);
  Op *ret = block_terminator(g->body);
  for (const Op *op = g->body->first; op && op != ret; op = op->next) {
    Op *c = op_clone(s->m, op, &map);
    block_insert_before(call->parent, call, c);
  }
  for (int i = 0; i < call->nres; i++) {
    Value *v = ptrmap_get(&map, ret->opnds[i]);
    func_replace_uses(caller, &call->res[i], v ? v : ret->opnds[i], NULL);
  }
  ptrmap_free(&map);
  s->budget -= count_ops(g->body);
  op_erase(call);
  s->inlined++;
}

static void inline_block(Inl *s, Func *caller, Block *b) {
  for (Op *op = b->first; op;) {
    Op *next = op->next;
    Func *g = callee_of(s, op);
    if (g && g != caller && can_inline(s, op, g)) {
      inline_call(s, caller, op, g);
    } else {
      for (int r = 0; r < op->nregions; r++) inline_block(s, caller, op->regions[r]);
    }
    op = next;
  }
}

int pass_inline_calls(Module *m, const PassOptions *o) {
  (void)o;
  Inl s;
  memset(&s, 0, sizeof s);
  s.m = m;
  s.budget = INLINE_OP_BUDGET;
  for (Func *f = m->funcs; f; f = f->next) strmap_put(&s.funcs, f->name, f);
  int total = 0;
  for (;;) {
    s.inlined = 0;
    for (Func *f = m->funcs; f; f = f->next) inline_block(&s, f, f->body);
    total += s.inlined;
    if (!s.inlined || s.budget <= 0) break;
  }
  strmap_free(&s.funcs);
  ptrmap_free(&s.recursive);
  return total > 0;
}
