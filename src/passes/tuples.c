/*
 * tuples.c - flatten-tuples: loop state and entry signatures as flat lists
 * of tensors.
 *
 * HLO carries a while loop's state as one tuple (the ENTRY often returns a
 * tuple too).  Compiled code wants one buffer per tensor, so a while whose
 * operands include tuples is rebuilt over the tuples' leaves: its cond and
 * body take the leaves as block arguments and rebuild the old tuple with a
 * `tuple` op for the code inside (which `simplify` then folds away with the
 * get_tuple_element ops that take it apart), the body returns the leaves of
 * its old result, and the while's old tuple results are rebuilt after it.
 *
 * Needs: verified IR.  Leaves: the same values; no while carries a tuple.
 * flatten_entry() does the same for a function's parameters and results by
 * making a flat copy of it (the caller keeps the original signature).
 */
#include "passes/passes.h"

#include <stdlib.h>
#include <string.h>

typedef VEC(Type *) TypeVec;
typedef VEC(Value *) ValVec;

static void leaf_types(Type *t, TypeVec *out) {
  if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->ntuple; i++) leaf_types(t->tuple[i], out);
  } else {
    VEC_PUSH(*out, t);
  }
}

/* Leaves of value v: get_tuple_element ops inserted before `before`. */
static void leaf_values(Module *m, Block *b, Op *before, Value *v, ValVec *out) {
  if (v->type->kind != TY_TUPLE) {
    VEC_PUSH(*out, v);
    return;
  }
  for (int i = 0; i < v->type->ntuple; i++) {
    Op *g = build_op(m, b, before, OP_GET_TUPLE_ELEMENT, 1, &v, v->type->tuple[i], v->def ? v->def->loc : SRCLOC_NONE);
    op_set_attr(m, g, "index", attr_int(m, i, NULL));
    leaf_values(m, b, before, &g->res[0], out);
  }
}

/* Rebuilds a value of type t from leaves[*k...] with tuple ops before `before`. */
static Value *rebuild(Module *m, Block *b, Op *before, Type *t, Value **leaves, int *k, SrcLoc loc) {
  if (t->kind != TY_TUPLE) return leaves[(*k)++];
  Value **parts = xcalloc((size_t)(t->ntuple + 1), sizeof(Value *));
  for (int i = 0; i < t->ntuple; i++) parts[i] = rebuild(m, b, before, t->tuple[i], leaves, k, loc);
  Op *tu = build_op(m, b, before, OP_TUPLE, t->ntuple, parts, t, loc);
  xfree(parts);
  return &tu->res[0];
}

static bool has_tuple(Value *const *vals, int n) {
  for (int i = 0; i < n; i++)
    if (vals[i]->type->kind == TY_TUPLE) return true;
  return false;
}

/* A region of the new while: leaf arguments, the old arguments rebuilt at
   its start; for the body, its returned values split into leaves. */
static void flatten_region(Module *m, Func *f, Block *b, bool split_returns) {
  int n = b->nargs;
  Value **old = b->args;
  b->args = NULL;
  b->nargs = 0;
  Op *first = b->first;
  for (int i = 0; i < n; i++) {
    TypeVec lt = {0};
    leaf_types(old[i]->type, &lt);
    Value **leaves = xcalloc((size_t)(lt.len + 1), sizeof(Value *));
    for (int k = 0; k < lt.len; k++) leaves[k] = block_add_arg(m, b, lt.data[k], NULL);
    int k = 0;
    Value *nv = rebuild(m, b, first, old[i]->type, leaves, &k, old[i]->owner && old[i]->owner->parent_op ? old[i]->owner->parent_op->loc : SRCLOC_NONE);
    if (nv != old[i]) block_replace_uses(b, old[i], nv);
    xfree(leaves);
    VEC_FREE(lt);
  }
  (void)f;
  if (split_returns) {
    Op *ret = block_terminator(b);
    if (ret && has_tuple(ret->opnds, ret->nopnds)) {
      ValVec lv = {0};
      for (int i = 0; i < ret->nopnds; i++) leaf_values(m, b, ret, ret->opnds[i], &lv);
      ret->opnds = ARENA_ARRAY(&m->arena, Value *, lv.len ? lv.len : 1);
      memcpy(ret->opnds, lv.data, sizeof(Value *) * (size_t)lv.len);
      ret->nopnds = lv.len;
      VEC_FREE(lv);
    }
  }
}

static int flatten_whiles(Module *m, Func *f, Block *b) {
  int changed = 0;
  for (Op *op = b->first; op; op = op->next) {
    for (int r = 0; r < op->nregions; r++) changed += flatten_whiles(m, f, op->regions[r]);
    if (op->kind != OP_WHILE || op->nregions != 2 || !has_tuple(op->opnds, op->nopnds)) continue;
    /* leaves of the operands */
    ValVec lv = {0};
    for (int i = 0; i < op->nopnds; i++) leaf_values(m, b, op, op->opnds[i], &lv);
    TypeVec lt = {0};
    for (int i = 0; i < op->nres; i++) leaf_types(op->res[i].type, &lt);
    Op *w = op_new(m, OP_WHILE, lv.len, lv.data, lt.len, lt.data, op->loc);
    w->attrs = op->attrs;
    w->nattrs = op->nattrs;
    block_insert_before(b, op, w);
    for (int r = 0; r < 2; r++) {
      Block *region = op->regions[r];
      flatten_region(m, f, region, r == 1);
      op_add_region(m, w, region);
    }
    /* the old results, rebuilt from the new ones after the loop */
    Value **newres = xcalloc((size_t)(w->nres + 1), sizeof(Value *));
    for (int i = 0; i < w->nres; i++) newres[i] = &w->res[i];
    int k = 0;
    for (int i = 0; i < op->nres; i++) {
      Value *nv = rebuild(m, b, op->next, op->res[i].type, newres, &k, op->loc);
      func_replace_uses(f, &op->res[i], nv, NULL);
    }
    xfree(newres);
    Op *next_op = op->prev ? op->prev : b->first;
    op->nregions = 0;
    op_erase(op);
    op = next_op;
    VEC_FREE(lv);
    VEC_FREE(lt);
    changed++;
  }
  return changed;
}

int pass_flatten_tuples(Module *m, const PassOptions *o) {
  (void)o;
  int changed = 0;
  for (Func *f = m->funcs; f; f = f->next) changed += flatten_whiles(m, f, f->body);
  return changed;
}

Func *flatten_entry(Module *m, Func *f) {
  bool any = false;
  for (int i = 0; i < f->body->nargs; i++) any = any || f->body->args[i]->type->kind == TY_TUPLE;
  for (int i = 0; i < f->nresults; i++) any = any || f->result_types[i]->kind == TY_TUPLE;
  if (!any) return f;
  char *name = xasprintf("%s.flat", f->name);
  Func *g = func_new(m, name, f->loc);
  xfree(name);
  g->is_private = true;
  PtrMap map = {0};
  Block *gb = g->body;
  /* placeholder arguments for the old parameters are mapped after the body is
     cloned: clone first into gb with the old args mapped to new tuple values */
  ValVec leaves = {0};
  for (int i = 0; i < f->body->nargs; i++) {
    TypeVec lt = {0};
    leaf_types(f->body->args[i]->type, &lt);
    for (int k = 0; k < lt.len; k++) VEC_PUSH(leaves, block_add_arg(m, gb, lt.data[k], NULL));
    VEC_FREE(lt);
  }
  int k = 0;
  for (int i = 0; i < f->body->nargs; i++) {
    Value *nv = rebuild(m, gb, NULL, f->body->args[i]->type, leaves.data, &k, f->loc);
    ptrmap_put(&map, f->body->args[i], nv);
  }
  VEC_FREE(leaves);
  block_clone_into(m, f->body, gb, &map);
  ptrmap_free(&map);
  Op *ret = block_terminator(gb);
  ValVec rv = {0};
  for (int i = 0; ret && i < ret->nopnds; i++) leaf_values(m, gb, ret, ret->opnds[i], &rv);
  if (ret) {
    ret->opnds = ARENA_ARRAY(&m->arena, Value *, rv.len ? rv.len : 1);
    memcpy(ret->opnds, rv.data, sizeof(Value *) * (size_t)rv.len);
    ret->nopnds = rv.len;
  }
  g->nresults = rv.len;
  g->result_types = ARENA_ARRAY(&m->arena, Type *, rv.len ? rv.len : 1);
  for (int i = 0; i < rv.len; i++) g->result_types[i] = rv.data[i]->type;
  VEC_FREE(rv);
  return g;
}
