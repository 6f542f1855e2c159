/*
 * row_plan.c - the stages and slots of a row fusion (row_plan.h), shared by
 * the CPU's and the GPU's row kernels.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/row_plan.h"
#include "passes/passes.h"


void row_fusion_free(RowFusion *rf) {
  for (int i = 0; i < rf->nstages; i++) {
    xfree(rf->st[i].reduces);
    if (!row_is_fusion_call(rf->st[i].item)) xfree(rf->st[i].k.roots); /* a single op's: ours */
  }
  xfree(rf->slots);
  ptrmap_free(&rf->slot_of);
}

int row_suffix_start(const Type *t, int64_t D) {
  int s = t->rank;
  int64_t p = 1;
  while (p < D && s > 0) p *= t->dims[--s];
  return p == D ? s : -1;
}

bool row_is_fusion_call(const Op *op) { return op->kind == OP_CALL && op_attr(op, "fusion_kind"); }

static bool row_form(Func *f) {
  Op *ret = block_terminator(f->body);
  if (!ret) return false;
  for (Op *o = f->body->first; o && o != ret; o = o->next)
    if (row_is_fusion_call(o)) return true;
  for (int i = 0; i < ret->nopnds; i++)
    if (!ret->opnds[i]->def || ret->opnds[i]->def->kind != OP_REDUCE) return true;
  return false;
}

bool row_fusion_form(Module *m, const Op *op) {
  const char *kind = op_attr_str(op, "fusion_kind");
  const char *name = op_attr_str(op, "callee");
  Func *f = kind && strcmp(kind, "kInput") == 0 && name ? module_find_func(m, name) : NULL;
  return f && row_form(f);
}

/* Checks the ops of one stage against the row rule: rowish values are
   stage results and what is computed from them. */
static bool stage_rows_ok(RowFusion *rf, RowStage *s) {
  Block *body = row_is_fusion_call(s->item) ? module_find_func(rf->m, op_attr_str(s->item, "callee"))->body : NULL;
  PtrMap rowish = {0};
  bool ok = true;
  for (int i = 0; i < s->k.ninputs; i++)
    if (ptrmap_has(&rf->slot_of, s->outer[i])) ptrmap_put(&rowish, s->k.inputs[i], (void *)1);
  Op *only[1] = {s->item};
  Op *op = body ? body->first : only[0];
  for (; op && ok; op = body ? op->next : NULL) {
    if (op->kind == OP_FUNC_RETURN) break;
    bool *rw = xcalloc((size_t)op->nopnds + 1, sizeof(bool));
    bool any = false;
    for (int j = 0; j < op->nopnds; j++) any |= rw[j] = ptrmap_has(&rowish, op->opnds[j]);
    if (any || op->kind == OP_REDUCE) {
      ok = row_fusion_op_ok(op, rw, rf->nrows, rf->D);
      if (ok) ptrmap_put(&rowish, &op->res[0], (void *)1);
    } else if (op->nregions && op->kind != OP_REDUCE) {
      ok = false;
    }
    xfree(rw);
  }
  ptrmap_free(&rowish);
  return ok;
}

bool row_fusion_analyze(Module *m, Op *op, RowFusion *rf, bool (*reduce_ok)(const KernelSpec *k)) {
  memset(rf, 0, sizeof *rf);
  rf->m = m;
  const char *kind = op_attr_str(op, "fusion_kind");
  const char *name = op_attr_str(op, "callee");
  if (!kind || strcmp(kind, "kInput") != 0 || !name) return false;
  Func *f = module_find_func(m, name);
  if (!f || !row_form(f) || f->body->nargs > 64 || op->nres > 64) return false;
  rf->f = f;
  Op *ret = block_terminator(f->body);
  if (ret->nopnds != op->nres) return false;
  /* the stages, and the rows from the first reduce */
  for (Op *o = f->body->first; o != ret; o = o->next) {
    if (o->kind == OP_CONSTANT) continue;
    if (rf->nstages == ROW_MAX_STAGES || o->nres < 1 || o->nres > 64) return false;
    RowStage *s = &rf->st[rf->nstages++];
    s->item = o;
    s->outer = o->opnds;
    if (row_is_fusion_call(o)) {
      const char *k = op_attr_str(o, "fusion_kind");
      Func *g = module_find_func(m, op_attr_str(o, "callee"));
      if (!k || (strcmp(k, "kLoop") != 0 && strcmp(k, "kInput") != 0) || !g || g->body->nargs != o->nopnds ||
          g->body->nargs > 64)
        return false;
      Op *gret = block_terminator(g->body);
      if (!gret || gret->nopnds != o->nres) return false;
      for (Op *x = g->body->first; x != gret; x = x->next)
        if (x->kind == OP_CALL) return false;
      s->k.inputs = g->body->args;
      s->k.ninputs = g->body->nargs;
      s->k.roots = gret->opnds;
    } else {
      if (o->kind == OP_CALL || o->nopnds > 64 || (o->nregions && o->kind != OP_REDUCE)) return false;
      s->k.inputs = o->opnds;
      s->k.ninputs = o->nopnds;
      s->k.roots = xcalloc((size_t)o->nres, sizeof(Value *)); /* freed by row_fusion_free */
      for (int i = 0; i < o->nres; i++) s->k.roots[i] = &o->res[i];
    }
    s->k.nroots = o->nres;
    s->reduces = xcalloc((size_t)o->nres + 1, sizeof(Op *));
    s->k.reduces = s->reduces;
    s->reduce = true;
    for (int i = 0; i < s->k.nroots; i++) {
      Op *d = s->k.roots[i]->def;
      s->reduce = s->reduce && d && d->kind == OP_REDUCE;
      s->reduces[i] = d;
    }
    if (s->reduce && !rf->D) {
      const Op *r = s->reduces[0];
      int64_t *dims;
      int nd = op_attr_ints(r, "dimensions", &dims);
      const Type *t = r->opnds[0]->type;
      if (nd < 1 || t->kind != TY_TENSOR) return false;
      int64_t D = 1;
      for (int i = 0; i < nd; i++) {
        if (dims[i] < 0 || dims[i] >= t->rank) return false;
        D *= t->dims[dims[i]];
      }
      if (D < 1 || type_num_elements(t) < 1) return false;
      rf->D = D;
      rf->nrows = type_num_elements(t) / D;
    }
  }
  if (!rf->D || rf->nstages < 2) return false;
  /* slots: every stage result */
  for (int i = 0; i < rf->nstages; i++) rf->nslots += rf->st[i].item->nres;
  rf->slots = xcalloc((size_t)rf->nslots, sizeof(RowSlot));
  int n = 0;
  for (int i = 0; i < rf->nstages; i++) {
    Op *o = rf->st[i].item;
    for (int r = 0; r < o->nres; r++) {
      RowSlot *sl = &rf->slots[n];
      const Type *t = o->res[r].type;
      if (t->kind != TY_TENSOR || t->quant || !cg_elem_native(t->elem) || t->rank > CG_MAX_RANK) return false;
      int64_t ne = type_num_elements(t);
      sl->v = &o->res[r];
      sl->out = -1;
      sl->rows = ne != rf->nrows;
      if (sl->rows && (ne != rf->nrows * rf->D || row_suffix_start(t, rf->D) < 0)) return false;
      if (sl->rows && rf->D * et_bytes(t->elem) > ROW_MAX_BUF_BYTES) return false;
      for (int j = ret->nopnds - 1; j >= 0; j--)
        if (ret->opnds[j] == sl->v) sl->out = j;
      ptrmap_put(&rf->slot_of, sl->v, (void *)(intptr_t)(++n));
    }
  }
  for (int j = 0; j < ret->nopnds; j++)
    if (!ptrmap_has(&rf->slot_of, ret->opnds[j])) return false;
  /* each stage: reads rows at their own row, and has a kernel */
  for (int i = 0; i < rf->nstages; i++) {
    RowStage *s = &rf->st[i];
    for (int j = 0; j < s->k.ninputs; j++) {
      Value *w = s->outer[j];
      bool ok = ptrmap_has(&rf->slot_of, w) || (w->owner == f->body && !w->def) ||
                (w->def && w->def->kind == OP_CONSTANT);
      if (!ok || w->type->kind != TY_TENSOR) return false;
    }
    if (!stage_rows_ok(rf, s)) return false;
    if (s->reduce) {
      if (!reduce_ok(&s->k)) return false;
    } else {
      for (int r = 1; r < s->k.nroots; r++)
        if (!type_same_shape(s->k.roots[r]->type, s->k.roots[0]->type)) return false;
      if (!elemental_supported(s->k.roots, s->k.nroots, s->k.inputs, s->k.ninputs)) return false;
    }
  }
  return true;
}


void row_set_bases(Cg *cg, RowFusion *rf, LLVMValueRef *outs, LLVMValueRef r) {
  LLVMValueRef row0 = LLVMBuildNSWMul(cg->b, r, cg_i64(cg, rf->D), "");
  LLVMValueRef neg_row0 = LLVMBuildNeg(cg->b, row0, ""), neg_r = LLVMBuildNeg(cg->b, r, "");
  for (int i = 0; i < rf->nslots; i++) {
    RowSlot *sl = &rf->slots[i];
    if (sl->out >= 0) {
      sl->base = outs[sl->out];
    } else {
      LLVMValueRef off = sl->rows ? neg_row0 : neg_r;
      sl->base = LLVMBuildGEP2(cg->b, cg_storage_type(cg, sl->v->type->elem), sl->buf, &off, 1, "");
    }
  }
}

void row_stage_inputs(Cg *cg, RowFusion *rf, const RowStage *s, LLVMValueRef *ins, LLVMValueRef *in_ptrs) {
  for (int j = 0; j < s->k.ninputs; j++) {
    Value *w = s->outer[j];
    intptr_t k = (intptr_t)ptrmap_get(&rf->slot_of, w);
    if (k)
      in_ptrs[j] = rf->slots[k - 1].base;
    else if (w->def)
      in_ptrs[j] = cg_constant_global(cg, op_attr(w->def, "value")->lit);
    else
      in_ptrs[j] = ins[w->index];
  }
}

void row_store_root(Cg *cg, RowFusion *rf, LLVMValueRef *outs, Value *root, LLVMValueRef lin, LLVMValueRef v) {
  RowSlot *sl = &rf->slots[(intptr_t)ptrmap_get(&rf->slot_of, root) - 1];
  ElemType et = root->type->elem;
  cg_store(cg, et, sl->base, lin, v);
  /* the same value returned more than once */
  Op *ret = block_terminator(rf->f->body);
  for (int j = sl->out + 1; sl->out >= 0 && j < ret->nopnds; j++)
    if (ret->opnds[j] == root) cg_store(cg, et, outs[j], lin, v);
}

void row_split_index(Cg *cg, const Type *t, int from, int to, LLVMValueRef lin, LLVMValueRef *idx) {
  for (int d = to - 1; d >= from; d--) {
    if (t->dims[d] == 1) {
      idx[d] = cg_i64(cg, 0);
    } else if (d == from) {
      idx[d] = lin;
    } else {
      LLVMValueRef n = cg_i64(cg, t->dims[d]);
      idx[d] = LLVMBuildURem(cg->b, lin, n, "");
      lin = LLVMBuildUDiv(cg->b, lin, n, "");
    }
  }
}
