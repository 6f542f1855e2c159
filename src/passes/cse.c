/*
 * cse.c - common subexpression elimination by value numbering.
 *
 * Needs: a verified module.  Guarantees: a pure op that computes exactly
 * what an earlier op visible from it computes (same kind, same operands,
 * structurally equal attributes, same result types, structurally equal
 * regions) is removed and its uses read the earlier op's results.  Two
 * constants with bitwise-equal literals are one constant.  Side-effecting
 * ops, calls and anything op_is_pure rejects are never merged.
 *
 * Scoping follows dominance: ops of a block are numbered in order; a nested
 * region that already uses values from outside sees the numbers of the
 * blocks around it, and its own numbers are forgotten when the region ends,
 * because nothing outside it can see values defined inside.  A closed
 * region (one that uses nothing from outside) is numbered on its own so it
 * stays closed.  The table is a hash of chains
 * whose entries are pushed and popped like a stack, so leaving a scope is
 * just popping back to the mark taken when it was entered.
 *
 * Replacement is recorded in a map and applied as ops are visited, so the
 * whole pass is one walk: every use of a value comes after its definition.
 */
#include <stdlib.h>
#include <string.h>

#include "passes/passes.h"

/* ---- structural equality of types, attributes and regions ---- */

static bool type_equal_strict(const Type *a, const Type *b) {
  if (!type_equal(a, b)) return false;
  if (a->kind == TY_TENSOR) {
    if (!a->layout != !b->layout) return false;
    if (a->layout && memcmp(a->layout, b->layout, sizeof(int64_t) * (size_t)a->rank) != 0) return false;
  }
  return true;
}

static bool attr_equal(const Attr *a, const Attr *b);

static bool attr_equal(const Attr *a, const Attr *b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind) return false;
  if ((a->type || b->type) && (!a->type || !b->type || !type_equal_strict(a->type, b->type)))
    return false;
  switch (a->kind) {
  case ATTR_UNIT:
    return true;
  case ATTR_BOOL:
    return a->b == b->b && a->i == b->i;
  case ATTR_INT:
    return a->i == b->i;
  case ATTR_FLOAT:
    /* bitwise, so that -0.0 and 0.0 stay apart and NaN equals itself */
    return memcmp(&a->f, &b->f, sizeof a->f) == 0;
  case ATTR_STRING:
    return a->slen == b->slen && (a->slen == 0 || memcmp(a->s, b->s, a->slen) == 0);
  case ATTR_SYMBOL:
  case ATTR_OPAQUE:
    return a->s && b->s && strcmp(a->s, b->s) == 0;
  case ATTR_ENUM:
    return a->s && b->s && strcmp(a->s, b->s) == 0 &&
           (!a->name || !b->name || strcmp(a->name, b->name) == 0);
  case ATTR_INTS:
  case ATTR_BOOLS:
    return a->n == b->n && (a->n == 0 || memcmp(a->ints, b->ints, sizeof(int64_t) * (size_t)a->n) == 0);
  case ATTR_DENSE:
    return a->lit && b->lit && type_equal_strict(a->lit->type, b->lit->type) && lit_equal(a->lit, b->lit);
  case ATTR_TYPE:
    return true; /* compared above */
  case ATTR_ARRAY:
    if (a->n != b->n) return false;
    for (int i = 0; i < a->n; i++)
      if (!attr_equal(a->elems[i], b->elems[i])) return false;
    return true;
  case ATTR_DICT:
    if (a->n != b->n) return false;
    if ((a->name || b->name) && (!a->name || !b->name || strcmp(a->name, b->name) != 0)) return false;
    for (int i = 0; i < a->n; i++) {
      /* order of keys does not matter */
      const Attr *other = attr_dict_get(b, a->keys[i]);
      if (!other || !attr_equal(a->elems[i], other)) return false;
    }
    return true;
  }
  return false;
}

/* Attributes that do not change what an op computes. */
static bool attr_ignored(const char *name) { return strcmp(name, "metadata") == 0; }

static int counted_attrs(const Op *op) {
  int n = 0;
  for (int i = 0; i < op->nattrs; i++) n += !attr_ignored(op->attrs[i].name);
  return n;
}

static bool attrs_equal(const Op *a, const Op *b) {
  if (counted_attrs(a) != counted_attrs(b)) return false;
  for (int i = 0; i < a->nattrs; i++) {
    if (attr_ignored(a->attrs[i].name)) continue;
    const Attr *o = op_attr(b, a->attrs[i].name);
    if (!o || !attr_equal(a->attrs[i].attr, o)) return false;
  }
  return true;
}

static bool op_shape_equal(const Op *a, const Op *b) {
  if (a->kind != b->kind || a->nopnds != b->nopnds || a->nres != b->nres || a->nregions != b->nregions)
    return false;
  for (int i = 0; i < a->nres; i++)
    if (!type_equal_strict(a->res[i].type, b->res[i].type)) return false;
  return attrs_equal(a, b);
}

static Value *through(const PtrMap *map, Value *v) {
  Value *n = ptrmap_get(map, v);
  return n ? n : v;
}

/* Blocks a and b compute the same thing, reading a's values as b's through
   map (arguments and results are added as they are matched). */
static bool block_equal(const Block *a, const Block *b, PtrMap *map) {
  if (a->nargs != b->nargs) return false;
  for (int i = 0; i < a->nargs; i++) {
    if (!type_equal_strict(a->args[i]->type, b->args[i]->type)) return false;
    ptrmap_put(map, a->args[i], b->args[i]);
  }
  const Op *x = a->first, *y = b->first;
  for (; x && y; x = x->next, y = y->next) {
    if (!op_shape_equal(x, y)) return false;
    for (int i = 0; i < x->nopnds; i++)
      if (through(map, x->opnds[i]) != y->opnds[i]) return false;
    for (int r = 0; r < x->nregions; r++)
      if (!block_equal(x->regions[r], y->regions[r], map)) return false;
    for (int i = 0; i < x->nres; i++) ptrmap_put(map, &x->res[i], (void *)&y->res[i]);
  }
  return !x && !y;
}

static bool ops_equivalent(const Op *a, const Op *b) {
  if (!op_shape_equal(a, b)) return false;
  for (int i = 0; i < a->nopnds; i++)
    if (a->opnds[i] != b->opnds[i]) return false;
  if (!a->nregions) return true;
  PtrMap map = {0};
  bool eq = true;
  for (int r = 0; r < a->nregions && eq; r++) eq = block_equal(a->regions[r], b->regions[r], &map);
  ptrmap_free(&map);
  return eq;
}

static uint64_t op_hash(const Op *op) {
  uint64_t h = hash_bytes(&op->kind, sizeof op->kind, 0x51ed);
  h = hash_bytes(&op->nres, sizeof op->nres, h);
  h = hash_bytes(&op->nregions, sizeof op->nregions, h);
  for (int i = 0; i < op->nopnds; i++) h = hash_bytes(&op->opnds[i], sizeof(Value *), h);
  for (int i = 0; i < op->nres; i++) {
    const Type *t = op->res[i].type;
    if (t->kind == TY_TENSOR) {
      h = hash_bytes(&t->elem, sizeof t->elem, h);
      if (t->rank) h = hash_bytes(t->dims, sizeof(int64_t) * (size_t)t->rank, h);
    }
  }
  if (op->kind == OP_CONSTANT) {
    const Attr *v = op_attr(op, "value");
    if (v && v->kind == ATTR_DENSE && v->lit && v->lit->n)
      h = hash_bytes(v->lit->data, (size_t)v->lit->n * (size_t)et_bytes(lit_elem(v->lit)), h);
  }
  return h;
}

/* ---- the scoped table ---- */
typedef struct Entry {
  uint64_t hash;
  Op *op;
  int next; /* previous entry of the same bucket, -1 at the end */
} Entry;

typedef struct Table {
  VEC(Entry) entries;
  int *buckets; /* head entry per bucket, -1 when empty */
  int nbuckets;
} Table;

static void table_rebuild(Table *t, int nbuckets) {
  xfree(t->buckets);
  t->nbuckets = nbuckets;
  t->buckets = xmalloc(sizeof(int) * (size_t)nbuckets);
  for (int i = 0; i < nbuckets; i++) t->buckets[i] = -1;
  /* re-link in push order so the newest entry stays the head */
  for (int i = 0; i < t->entries.len; i++) {
    int b = (int)(t->entries.data[i].hash & (uint64_t)(nbuckets - 1));
    t->entries.data[i].next = t->buckets[b];
    t->buckets[b] = i;
  }
}

static void table_push(Table *t, uint64_t h, Op *op) {
  Entry e = {h, op, -1};
  VEC_PUSH(t->entries, e);
  if (t->entries.len * 2 > t->nbuckets) {
    table_rebuild(t, t->nbuckets ? t->nbuckets * 2 : 256);
    return;
  }
  int b = (int)(h & (uint64_t)(t->nbuckets - 1));
  t->entries.data[t->entries.len - 1].next = t->buckets[b];
  t->buckets[b] = t->entries.len - 1;
}

static void table_pop_to(Table *t, int mark) {
  while (t->entries.len > mark) {
    Entry *e = &t->entries.data[t->entries.len - 1];
    t->buckets[e->hash & (uint64_t)(t->nbuckets - 1)] = e->next;
    t->entries.len--;
  }
}

static Op *table_find(const Table *t, uint64_t h, const Op *op) {
  if (!t->nbuckets) return NULL;
  for (int i = t->buckets[h & (uint64_t)(t->nbuckets - 1)]; i >= 0; i = t->entries.data[i].next)
    if (t->entries.data[i].hash == h && ops_equivalent(t->entries.data[i].op, op))
      return t->entries.data[i].op;
  return NULL;
}

/* ---- the walk ---- */
typedef struct Cse {
  Table table;
  PtrMap repl; /* removed result -> the value that replaces it */
  int removed;
} Cse;

static bool mergeable(const Op *op) {
  if (op->nres < 1 || op->kind == OP_CALL) return false;
  return op_is_pure(op);
}

/* ---- regions that are closed stay closed ---- */
static void collect_defs(const Block *b, PtrMap *defs) {
  for (int i = 0; i < b->nargs; i++) ptrmap_put(defs, b->args[i], (void *)b->args[i]);
  for (const Op *op = b->first; op; op = op->next) {
    for (int i = 0; i < op->nres; i++) ptrmap_put(defs, &op->res[i], (void *)&op->res[i]);
    for (int r = 0; r < op->nregions; r++) collect_defs(op->regions[r], defs);
  }
}

static bool uses_outside(const Block *b, const PtrMap *defs) {
  for (const Op *op = b->first; op; op = op->next) {
    for (int i = 0; i < op->nopnds; i++)
      if (!ptrmap_has(defs, op->opnds[i])) return true;
    for (int r = 0; r < op->nregions; r++)
      if (uses_outside(op->regions[r], defs)) return true;
  }
  return false;
}

static bool region_captures(const Block *b) {
  PtrMap defs = {0};
  collect_defs(b, &defs);
  bool cap = uses_outside(b, &defs);
  ptrmap_free(&defs);
  return cap;
}

static void cse_block(Cse *c, Block *b);

/* A region that uses nothing from outside (every HLO computation, most
   StableHLO bodies) is numbered on its own, so merging never makes it start
   capturing an outer value: HLO cannot express that, and code generators
   treat closed bodies as separate functions.  A region that already
   captures may share the enclosing numbers. */
static void cse_region(Cse *c, Block *r) {
  if (region_captures(r)) {
    cse_block(c, r);
    return;
  }
  Table outer = c->table;
  memset(&c->table, 0, sizeof c->table);
  cse_block(c, r);
  VEC_FREE(c->table.entries);
  xfree(c->table.buckets);
  c->table = outer;
}

static void cse_block(Cse *c, Block *b) {
  int mark = c->table.entries.len;
  for (Op *op = b->first; op;) {
    Op *next = op->next;
    for (int i = 0; i < op->nopnds; i++) op->opnds[i] = through(&c->repl, op->opnds[i]);
    /* regions first: their operands must be renamed before comparing them */
    for (int r = 0; r < op->nregions; r++) cse_region(c, op->regions[r]);
    if (mergeable(op)) {
      uint64_t h = op_hash(op);
      Op *prev = table_find(&c->table, h, op);
      if (prev) {
        for (int i = 0; i < op->nres; i++) ptrmap_put(&c->repl, &op->res[i], &prev->res[i]);
        op_erase(op);
        c->removed++;
      } else {
        table_push(&c->table, h, op);
      }
    }
    op = next;
  }
  table_pop_to(&c->table, mark);
}

int pass_cse(Module *m, const PassOptions *o) {
  (void)o;
  int total = 0;
  for (Func *f = m->funcs; f; f = f->next) {
    Cse c;
    memset(&c, 0, sizeof c);
    cse_block(&c, f->body);
    total += c.removed;
    VEC_FREE(c.table.entries);
    xfree(c.table.buckets);
    ptrmap_free(&c.repl);
  }
  return total > 0;
}
