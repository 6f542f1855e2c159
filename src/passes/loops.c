/*
 * loops.c - what the backends and the passes ask of a while loop: whether
 * it is counted (JAX's scan and fori_loop) and how many times its body
 * runs.
 */
#include <string.h>

#include "passes/passes.h"

const Literal *scalar_const_of(const Value *v) {
  while (v->def && (v->def->kind == OP_BROADCAST_IN_DIM || v->def->kind == OP_RESHAPE)) v = v->def->opnds[0];
  if (!v->def || v->def->kind != OP_CONSTANT || v->type->kind != TY_TENSOR || type_num_elements(v->type) != 1)
    return NULL;
  const Attr *a = op_attr(v->def, "value");
  const Literal *l = a && a->kind == ATTR_DENSE ? a->lit : NULL;
  return l && l->n == 1 ? l : NULL;
}

/* An integer scalar constant v is, as a 64-bit value. */
static bool int_const(const Value *v, int64_t *out) {
  const Literal *l = scalar_const_of(v);
  if (!l || !et_is_int(lit_elem(l))) return false;
  *out = lit_get_i(l, 0);
  return true;
}

/* The op computing v, looking into a fusion of one result (the pipeline
   fuses a loop's compare and increment): opnds[] receives the values its
   two operands stand for outside the fusion (the fusion's operand where
   one is an argument of the fused computation). */
static const Op *def_through(Module *m, const Value *v, const Value **opnds) {
  const Op *d = v->def;
  if (d && d->kind == OP_CALL && d->nres == 1 && op_attr_str(d, "fusion_kind")) {
    Func *callee = op_attr_str(d, "callee") ? module_find_func(m, op_attr_str(d, "callee")) : NULL;
    Op *ret = callee ? block_terminator(callee->body) : NULL;
    if (!ret || ret->nopnds != 1 || callee->body->nargs != d->nopnds) return NULL;
    const Op *in = ret->opnds[0]->def;
    if (!in || in->nopnds != 2) return NULL;
    for (int i = 0; i < 2; i++) {
      opnds[i] = in->opnds[i];
      for (int k = 0; k < callee->body->nargs; k++)
        if (in->opnds[i] == callee->body->args[k]) opnds[i] = d->opnds[k];
    }
    /* nothing else in the fused computation */
    for (const Op *o = callee->body->first; o && o != ret; o = o->next)
      if (o != in && o->kind != OP_CONSTANT && o->kind != OP_BROADCAST_IN_DIM && o->kind != OP_RESHAPE) return NULL;
    return in;
  }
  if (!d || d->nopnds != 2) return NULL;
  opnds[0] = d->opnds[0];
  opnds[1] = d->opnds[1];
  return d;
}

bool loop_count(Module *m, const Op *op, LoopCount *lc) {
  if (op->kind != OP_WHILE || op->nregions != 2) return false;
  Block *cond = op->regions[0], *body = op->regions[1];
  Op *cret = block_terminator(cond), *bret = block_terminator(body);
  if (!cret || !bret || cret->nopnds != 1 || bret->nopnds != op->nopnds) return false;
  /* nothing in the cond but the compare and its constants (no host
     step, say a print, that skipping the cond would skip) */
  for (const Op *o = cond->first; o && o != cret; o = o->next)
    if (o->kind != OP_COMPARE && o->kind != OP_CONSTANT && o->kind != OP_BROADCAST_IN_DIM && o->kind != OP_RESHAPE &&
        !(o->kind == OP_CALL && op_attr_str(o, "fusion_kind")))
      return false;
  const Value *co[2], *io[2];
  const Op *cmp = def_through(m, cret->opnds[0], co);
  const char *dir = cmp && cmp->kind == OP_COMPARE ? op_attr_str(cmp, "comparison_direction") : NULL;
  if (!dir || strcmp(dir, "LT") != 0) return false;
  int j = -1;
  for (int k = 0; k < cond->nargs; k++)
    if (co[0] == cond->args[k]) j = k;
  int64_t c, i0, one;
  if (j < 0 || j >= body->nargs || !int_const(co[1], &c) || !int_const(op->opnds[j], &i0)) return false;
  const Type *t = cond->args[j]->type;
  if (t->kind != TY_TENSOR || t->rank != 0 || !et_is_int(t->elem)) return false;
  /* an unsigned compare (by its type or the element type's) sees a
     negative start or bound as a large value: counted only when neither
     is negative, where both orders agree */
  const char *ct = op_attr_str(cmp, "compare_type");
  bool unsig = !et_is_signed(t->elem) || (ct && strcmp(ct, "UNSIGNED") == 0);
  if (unsig && (i0 < 0 || c < 0)) return false;
  const Op *inc = def_through(m, bret->opnds[j], io);
  if (!inc || inc->kind != OP_ADD) return false;
  int a = io[0] == body->args[j] ? 1 : io[1] == body->args[j] ? 0 : -1;
  if (a < 0 || !int_const(io[a], &one) || one != 1) return false;
  lc->index = j;
  lc->start = i0;
  lc->trips = c > i0 ? c - i0 : 0;
  return true;
}
