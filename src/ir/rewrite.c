/*
 * rewrite.c - IR mutation helpers shared by the passes.
 */
#include "ir/rewrite.h"

#include <stdlib.h>
#include <string.h>

/* ---- pointer map (open addressing, linear probing) ---- */
static size_t ptr_hash(const void *p) { return ((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull; }

void *ptrmap_get(const PtrMap *m, const void *key) {
  if (!m->cap) return NULL;
  size_t i = ptr_hash(key) & (size_t)(m->cap - 1);
  while (m->keys[i]) {
    if (m->keys[i] == key) return m->vals[i];
    i = (i + 1) & (size_t)(m->cap - 1);
  }
  return NULL;
}

bool ptrmap_has(const PtrMap *m, const void *key) {
  if (!m->cap) return false;
  size_t i = ptr_hash(key) & (size_t)(m->cap - 1);
  while (m->keys[i]) {
    if (m->keys[i] == key) return true;
    i = (i + 1) & (size_t)(m->cap - 1);
  }
  return false;
}

void ptrmap_put(PtrMap *m, const void *key, void *val) {
  if ((m->len + 1) * 2 > m->cap) {
    PtrMap n = {0};
    n.cap = m->cap ? m->cap * 2 : 64;
    n.keys = xcalloc((size_t)n.cap, sizeof(void *));
    n.vals = xcalloc((size_t)n.cap, sizeof(void *));
    for (int i = 0; i < m->cap; i++)
      if (m->keys[i]) ptrmap_put(&n, m->keys[i], m->vals[i]);
    xfree(m->keys);
    xfree(m->vals);
    *m = n;
  }
  size_t i = ptr_hash(key) & (size_t)(m->cap - 1);
  while (m->keys[i] && m->keys[i] != key) i = (i + 1) & (size_t)(m->cap - 1);
  if (!m->keys[i]) {
    m->keys[i] = key;
    m->len++;
  }
  m->vals[i] = val;
}

void ptrmap_free(PtrMap *m) {
  xfree(m->keys);
  xfree(m->vals);
  memset(m, 0, sizeof *m);
}

/* ---- uses ---- */
static void count_block(UseMap *u, const Block *b) {
  for (Op *op = b->first; op; op = op->next) {
    for (int i = 0; i < op->nopnds; i++) {
      intptr_t c = (intptr_t)ptrmap_get(&u->counts, op->opnds[i]);
      ptrmap_put(&u->counts, op->opnds[i], (void *)(c + 1));
    }
    for (int r = 0; r < op->nregions; r++) count_block(u, op->regions[r]);
  }
}

void uses_compute(UseMap *u, Func *f) {
  memset(u, 0, sizeof *u);
  count_block(u, f->body);
}

int uses_count(const UseMap *u, const Value *v) { return (int)(intptr_t)ptrmap_get(&u->counts, v); }

void uses_free(UseMap *u) { ptrmap_free(&u->counts); }

void block_replace_uses(Block *b, Value *from, Value *to) {
  for (Op *op = b->first; op; op = op->next) {
    for (int i = 0; i < op->nopnds; i++)
      if (op->opnds[i] == from) op->opnds[i] = to;
    for (int r = 0; r < op->nregions; r++) block_replace_uses(op->regions[r], from, to);
  }
}

void op_forward_operands(Op *op, const PtrMap *fwd) {
  if (!fwd->len) return;
  for (int i = 0; i < op->nopnds; i++) {
    Value *v = op->opnds[i], *w;
    while ((w = ptrmap_get(fwd, v))) v = w;
    op->opnds[i] = v;
  }
}

void block_forward_operands(Block *b, const PtrMap *fwd) {
  if (!fwd->len) return;
  for (Op *op = b->first; op; op = op->next) {
    op_forward_operands(op, fwd);
    for (int r = 0; r < op->nregions; r++) block_forward_operands(op->regions[r], fwd);
  }
}

void func_replace_uses(Func *f, Value *from, Value *to, UseMap *u) {
  block_replace_uses(f->body, from, to);
  if (u) {
    int c = uses_count(u, from) + uses_count(u, to);
    ptrmap_put(&u->counts, from, (void *)0);
    ptrmap_put(&u->counts, to, (void *)(intptr_t)c);
  }
}

/* ---- cloning ---- */
static Value *mapped(PtrMap *map, Value *v) {
  Value *n = ptrmap_get(map, v);
  return n ? n : v;
}

Op *op_clone(Module *m, const Op *op, PtrMap *map) {
  Value **opnds = xmalloc(sizeof(Value *) * (size_t)(op->nopnds ? op->nopnds : 1));
  Type **types = xmalloc(sizeof(Type *) * (size_t)(op->nres ? op->nres : 1));
  for (int i = 0; i < op->nopnds; i++) opnds[i] = mapped(map, op->opnds[i]);
  for (int i = 0; i < op->nres; i++) types[i] = op->res[i].type;
  Op *c = op_new(m, op->kind, op->nopnds, opnds, op->nres, types, op->loc);
  xfree(opnds);
  xfree(types);
  /* attributes are immutable once built: sharing them is safe within a module */
  c->nattrs = op->nattrs;
  c->attrs = ARENA_ARRAY(&m->arena, NamedAttr, op->nattrs ? op->nattrs : 1);
  if (op->nattrs) memcpy(c->attrs, op->attrs, sizeof(NamedAttr) * (size_t)op->nattrs);
  for (int i = 0; i < op->nres; i++) {
    c->res[i].name = op->res[i].name;
    ptrmap_put(map, &op->res[i], &c->res[i]);
  }
  for (int r = 0; r < op->nregions; r++) {
    const Block *src = op->regions[r];
    Block *dst = block_new(m);
    for (int a = 0; a < src->nargs; a++) {
      Value *na = block_add_arg(m, dst, src->args[a]->type, src->args[a]->name);
      ptrmap_put(map, src->args[a], na);
    }
    block_clone_into(m, src, dst, map);
    op_add_region(m, c, dst);
  }
  return c;
}

void block_clone_into(Module *m, const Block *src, Block *dst, PtrMap *map) {
  for (Op *op = src->first; op; op = op->next) block_append(dst, op_clone(m, op, map));
}

/* ---- dead code ---- */
bool op_is_pure(const Op *op) {
  if (op_has_flag(op->kind, OPF_EFFECT) || op_has_flag(op->kind, OPF_TERM) ||
      op_has_flag(op->kind, OPF_COLL))
    return false;
  switch (op->kind) {
  case OP_CALL:       /* a callee may have effects; passes that know better inline first */
  case OP_WHILE:      /* may not terminate; keep */
  case OP_RNG:        /* stateful in spirit */
  case OP_REPLICA_ID:
  case OP_PARTITION_ID:
    return false;
  default:
    break;
  }
  for (int r = 0; r < op->nregions; r++)
    for (const Op *in = op->regions[r]->first; in; in = in->next)
      if (!op_is_pure(in) && !op_has_flag(in->kind, OPF_TERM)) return false;
  return true;
}

static int erase_dead_in(Block *b, UseMap *u) {
  int n = 0;
  for (Op *op = b->last; op;) {
    Op *prev = op->prev;
    bool used = false;
    for (int i = 0; i < op->nres && !used; i++) used = uses_count(u, &op->res[i]) > 0;
    if (!used && op_is_pure(op)) {
      /* its operands lose a use each */
      for (int i = 0; i < op->nopnds; i++) {
        intptr_t c = (intptr_t)ptrmap_get(&u->counts, op->opnds[i]);
        ptrmap_put(&u->counts, op->opnds[i], (void *)(c > 0 ? c - 1 : 0));
      }
      op_erase(op);
      n++;
    } else {
      for (int r = 0; r < op->nregions; r++) n += erase_dead_in(op->regions[r], u);
    }
    op = prev;
  }
  return n;
}

int func_erase_dead(Func *f) {
  int total = 0, n;
  do {
    UseMap u;
    uses_compute(&u, f);
    n = erase_dead_in(f->body, &u);
    uses_free(&u);
    total += n;
  } while (n);
  return total;
}

Op *build_op(Module *m, Block *b, Op *before, OpKind k, int nopnds, Value *const *opnds, Type *t,
             SrcLoc loc) {
  Op *op = op_new(m, k, nopnds, opnds, 1, &t, loc);
  if (before)
    block_insert_before(b, before, op);
  else
    block_append(b, op);
  return op;
}

Value *build_splat(Module *m, Op *before, Type *t, const Literal *one) {
  Block *b = before->parent;
  Type *st = type_scalar(&m->arena, t->elem);
  Literal *l = lit_new_in(&m->arena, st);
  memcpy(l->data, one->data, (size_t)et_bytes(t->elem));
  Op *c = build_op(m, b, before, OP_CONSTANT, 0, NULL, st, before->loc);
  op_set_attr(m, c, "value", attr_dense(m, l));
  if (t->rank == 0) return &c->res[0];
  Value *cv = &c->res[0];
  Op *bc = build_op(m, b, before, OP_BROADCAST_IN_DIM, 1, &cv, t, before->loc);
  op_set_attr(m, bc, "broadcast_dimensions", attr_ints(m, 0, NULL));
  return &bc->res[0];
}

/* Whether split_splats rewrites constant op: of at least min elements,
   all equal, or given as one element where `lazy` names its value with
   the op's type (a reader's large splat). */
static bool splat_constant(const Op *op, int64_t min, const PtrMap *lazy) {
  const Attr *v = op->kind == OP_CONSTANT && op->nres == 1 && op->nattrs == 1 ? op_attr(op, "value") : NULL;
  const Type *t = op->nres == 1 ? op->res[0].type : NULL;
  if (!v || v->kind != ATTR_DENSE || !t || t->kind != TY_TENSOR || t->rank == 0 || t->quant) return false;
  const Literal *l = v->lit;
  ElemType et = lit_elem(l);
  if (et != t->elem || et_is_complex(et) || et_bits(et) > 64 || et == ET_PRED || type_num_elements(t) < min)
    return false;
  const Type *one_of = lazy ? ptrmap_get(lazy, v) : NULL;
  if (one_of) return l->n == 1 && type_equal(one_of, t);
  return type_equal(l->type, t) && lit_is_splat(l);
}

typedef struct Split {
  Module *m;
  int64_t min;
  const PtrMap *lazy;
  PtrMap *taken, fwd;
} Split;

static void split_in(Split *s, Block *b) {
  for (Op *op = b->first, *next; op; op = next) {
    next = op->next;
    for (int r = 0; r < op->nregions; r++) split_in(s, op->regions[r]);
    if (!splat_constant(op, s->min, s->lazy)) continue;
    Attr *v = op_attr(op, "value");
    ptrmap_put(&s->fwd, &op->res[0], build_splat(s->m, op, op->res[0].type, v->lit));
    if (s->taken) ptrmap_put(s->taken, v, v);
    op_erase(op);
  }
}

void split_splats(Module *m, int64_t min, const PtrMap *lazy, PtrMap *taken) {
  for (Func *f = m->funcs; f; f = f->next) {
    Split s = {m, min, lazy, taken, {0}};
    split_in(&s, f->body);
    if (s.fwd.len) block_forward_operands(f->body, &s.fwd);
    ptrmap_free(&s.fwd);
  }
}
