/*
 * dce.c - dead code elimination: unused pure ops and unreferenced functions.
 *
 * Needs: a verified module.  Guarantees: only work whose results nobody
 * reads and that has no effect is removed, so the module computes the same
 * values and performs the same effects.
 *
 * Within a function: pure ops with unused results (func_erase_dead), and
 * also calls with unused results whose callee is pure - it has no effect
 * anywhere below it and cannot recurse (a recursive function might not
 * terminate, like a while loop, so it is kept).  Across the module: private
 * functions that nothing reachable from a root references any more.  Roots
 * are the entry (module_entry, the HLO ENTRY) and every public function of
 * an MLIR module; in an HLO module only the ENTRY is visible from outside.
 * A function counts as referenced when any attribute of a reachable op
 * names it (callee, composite decomposition, interpreter.run_parallel
 * programs, a %name inside an attribute kept verbatim such as an HLO
 * custom-call's called_computations, ...), so no reference kind needs to be
 * known here.
 */
#include <stdlib.h>
#include <string.h>

#include "passes/passes.h"

typedef enum { PURITY_UNKNOWN, PURITY_VISITING, PURITY_PURE, PURITY_IMPURE } Purity;

typedef struct Dce {
  Module *m;
  StrMap funcs;  /* name -> Func* */
  PtrMap purity; /* Func* -> Purity */
} Dce;

static bool func_pure(Dce *d, Func *f);

static bool block_pure(Dce *d, const Block *b) {
  for (const Op *op = b->first; op; op = op->next) {
    if (op_has_flag(op->kind, OPF_TERM)) continue;
    if (op->kind == OP_CALL) {
      const char *name = op_attr_str(op, "callee");
      Func *g = name ? strmap_get(&d->funcs, name) : NULL;
      if (!g || !func_pure(d, g)) return false;
      for (int r = 0; r < op->nregions; r++)
        if (!block_pure(d, op->regions[r])) return false;
      continue;
    }
    if (!op_is_pure(op)) return false;
  }
  return true;
}

static bool func_pure(Dce *d, Func *f) {
  Purity p = (Purity)(intptr_t)ptrmap_get(&d->purity, f);
  if (p == PURITY_PURE) return true;
  if (p == PURITY_IMPURE || p == PURITY_VISITING) return false; /* recursion: may not terminate */
  ptrmap_put(&d->purity, f, (void *)(intptr_t)PURITY_VISITING);
  bool pure = block_pure(d, f->body);
  ptrmap_put(&d->purity, f, (void *)(intptr_t)(pure ? PURITY_PURE : PURITY_IMPURE));
  return pure;
}

/* Erases calls of pure functions whose results are unused; returns the count. */
static int erase_dead_calls_in(Dce *d, Block *b, const UseMap *u) {
  int n = 0;
  for (Op *op = b->last; op;) {
    Op *prev = op->prev;
    bool used = false;
    for (int i = 0; i < op->nres && !used; i++) used = uses_count(u, &op->res[i]) > 0;
    const char *name = op->kind == OP_CALL ? op_attr_str(op, "callee") : NULL;
    Func *g = name ? strmap_get(&d->funcs, name) : NULL;
    if (!used && g && op->nregions == 0 && func_pure(d, g)) {
      op_erase(op);
      n++;
    } else {
      for (int r = 0; r < op->nregions; r++) n += erase_dead_calls_in(d, op->regions[r], u);
    }
    op = prev;
  }
  return n;
}

static int erase_dead(Dce *d, Func *f) {
  int total = 0;
  for (;;) {
    total += func_erase_dead(f);
    UseMap u;
    uses_compute(&u, f);
    int n = erase_dead_calls_in(d, f->body, &u);
    uses_free(&u);
    if (!n) break;
    total += n;
  }
  return total;
}

/* ---- reachability of functions ---- */
typedef VEC(Func *) FuncList;

static void mark(Dce *d, PtrMap *live, FuncList *work, Func *f) {
  if (!f || ptrmap_has(live, f)) return;
  ptrmap_put(live, f, f);
  VEC_PUSH(*work, f);
}

static bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-' || c == '$';
}

/* Attributes kept verbatim (an HLO custom-call's called_computations is
   "{%comp}") may still name functions: every %name or @name counts. */
static void mark_text(Dce *d, PtrMap *live, FuncList *work, const char *s) {
  for (const char *p = s; *p; p++) {
    if (*p != '%' && *p != '@') continue;
    const char *q = p + 1;
    while (name_char(*q)) q++;
    if (q > p + 1) mark(d, live, work, strmap_getn(&d->funcs, p + 1, (size_t)(q - p - 1)));
    p = q - 1;
  }
}

static void mark_attr(Dce *d, PtrMap *live, FuncList *work, const Attr *a) {
  if (!a) return;
  if (a->kind == ATTR_SYMBOL && a->s) mark(d, live, work, strmap_get(&d->funcs, a->s));
  if (a->kind == ATTR_OPAQUE && a->s) mark_text(d, live, work, a->s);
  if (a->kind == ATTR_ARRAY || a->kind == ATTR_DICT)
    for (int i = 0; i < a->n; i++) mark_attr(d, live, work, a->elems[i]);
}

static void mark_block(Dce *d, PtrMap *live, FuncList *work, const Block *b) {
  for (const Op *op = b->first; op; op = op->next) {
    for (int i = 0; i < op->nattrs; i++) mark_attr(d, live, work, op->attrs[i].attr);
    for (int r = 0; r < op->nregions; r++) mark_block(d, live, work, op->regions[r]);
  }
}

static int remove_unreachable(Dce *d) {
  Module *m = d->m;
  PtrMap live = {0};
  FuncList work = {0};
  mark(d, &live, &work, module_entry(m));
  mark(d, &live, &work, m->entry);
  for (Func *f = m->funcs; f; f = f->next)
    if (m->format != SRC_HLO && !f->is_private) mark(d, &live, &work, f);
  if (!live.len) { /* no root: nothing is known to be unreachable */
    ptrmap_free(&live);
    VEC_FREE(work);
    return 0;
  }
  for (int i = 0; i < m->nattrs; i++) mark_attr(d, &live, &work, m->attrs[i].attr);
  while (work.len) {
    Func *f = work.data[--work.len];
    mark_block(d, &live, &work, f->body);
    for (int i = 0; i < f->nattrs; i++) mark_attr(d, &live, &work, f->attrs[i].attr);
  }
  int removed = 0;
  Func *prev = NULL;
  for (Func *f = m->funcs; f;) {
    Func *next = f->next;
    if (!ptrmap_has(&live, f)) {
      if (prev)
        prev->next = next;
      else
        m->funcs = next;
      if (m->funcs_tail == f) m->funcs_tail = prev;
      removed++;
    } else {
      prev = f;
    }
    f = next;
  }
  ptrmap_free(&live);
  VEC_FREE(work);
  return removed;
}

int pass_dce(Module *m, const PassOptions *o) {
  (void)o;
  Dce d;
  memset(&d, 0, sizeof d);
  d.m = m;
  for (Func *f = m->funcs; f; f = f->next) strmap_put(&d.funcs, f->name, f);
  int total = 0;
  for (Func *f = m->funcs; f; f = f->next) total += erase_dead(&d, f);
  total += remove_unreachable(&d);
  strmap_free(&d.funcs);
  ptrmap_free(&d.purity);
  return total > 0;
}
