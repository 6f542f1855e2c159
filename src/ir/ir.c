/*
 * ir.c - the op table and construction/query helpers for modules, functions,
 * blocks, ops and attributes.  All memory comes from the module's arena.
 */
#include "ir/ir.h"

#include <stdlib.h>
#include <string.h>

const OpInfo op_info[OP_COUNT] = {
#define OP(id, name, hlo, flags) [OP_##id] = {name, hlo, flags},
#include "ir/ops.def"
#undef OP
};

OpKind op_kind_from_name(const char *s, size_t n) {
  for (int k = 0; k < OP_COUNT; k++)
    if (strlen(op_info[k].name) == n && memcmp(op_info[k].name, s, n) == 0) return (OpKind)k;
  return OP_COUNT;
}

OpKind op_kind_from_hlo(const char *s, size_t n) {
  for (int k = 0; k < OP_COUNT; k++)
    if (op_info[k].hlo_name && strlen(op_info[k].hlo_name) == n &&
        memcmp(op_info[k].hlo_name, s, n) == 0)
      return (OpKind)k;
  return OP_COUNT;
}

Module *module_new(void) {
  Module *m = xcalloc(1, sizeof(Module));
  arena_init(&m->arena);
  m->loc = SRCLOC_NONE;
  return m;
}

void module_free(Module *m) {
  if (!m) return;
  arena_free(&m->arena);
  xfree(m);
}

Func *func_new(Module *m, const char *name, SrcLoc loc) {
  Func *f = ARENA_NEW(&m->arena, Func);
  f->name = arena_strdup(&m->arena, name);
  f->body = block_new(m);
  f->body->parent_func = f;
  f->loc = loc;
  if (m->funcs_tail)
    m->funcs_tail->next = f;
  else
    m->funcs = f;
  m->funcs_tail = f;
  return f;
}

Func *module_find_func(const Module *m, const char *name) {
  for (Func *f = m->funcs; f; f = f->next)
    if (strcmp(f->name, name) == 0) return f;
  return NULL;
}

Func *module_entry(const Module *m) {
  Func *f = module_find_func(m, "main");
  if (f) return f;
  if (m->entry) return m->entry;
  if (m->funcs && !m->funcs->next) return m->funcs;
  /* else the only public one: private functions (callees, fused
     computations) are never entries */
  Func *pub = NULL;
  for (Func *g = m->funcs; g; g = g->next) {
    if (g->is_private) continue;
    if (pub) return NULL;
    pub = g;
  }
  return pub;
}

Block *block_new(Module *m) { return ARENA_NEW(&m->arena, Block); }

Value *block_add_arg(Module *m, Block *b, Type *t, const char *name) {
  Value **args = ARENA_ARRAY(&m->arena, Value *, b->nargs + 1);
  if (b->nargs) memcpy(args, b->args, sizeof(Value *) * (size_t)b->nargs);
  Value *v = ARENA_NEW(&m->arena, Value);
  v->type = t;
  v->owner = b;
  v->index = b->nargs;
  v->name = name ? arena_strdup(&m->arena, name) : NULL;
  args[b->nargs++] = v;
  b->args = args;
  return v;
}

Op *op_new(Module *m, OpKind k, int nopnds, Value *const *opnds, int nres, Type *const *res_types,
           SrcLoc loc) {
  Op *op = ARENA_NEW(&m->arena, Op);
  op->kind = k;
  op->loc = loc;
  op->nopnds = nopnds;
  op->opnds = ARENA_ARRAY(&m->arena, Value *, nopnds > 0 ? nopnds : 1);
  for (int i = 0; i < nopnds; i++) op->opnds[i] = opnds[i];
  op->nres = nres;
  op->res = ARENA_ARRAY(&m->arena, Value, nres > 0 ? nres : 1);
  for (int i = 0; i < nres; i++) {
    op->res[i].type = res_types ? res_types[i] : NULL;
    op->res[i].def = op;
    op->res[i].index = i;
  }
  return op;
}

void op_set_attr(Module *m, Op *op, const char *name, Attr *a) {
  for (int i = 0; i < op->nattrs; i++)
    if (strcmp(op->attrs[i].name, name) == 0) {
      op->attrs[i].attr = a;
      return;
    }
  NamedAttr *na = ARENA_ARRAY(&m->arena, NamedAttr, op->nattrs + 1);
  if (op->nattrs) memcpy(na, op->attrs, sizeof(NamedAttr) * (size_t)op->nattrs);
  na[op->nattrs].name = arena_strdup(&m->arena, name);
  na[op->nattrs].attr = a;
  op->attrs = na;
  op->nattrs++;
}

Attr *op_attr(const Op *op, const char *name) {
  for (int i = 0; i < op->nattrs; i++)
    if (strcmp(op->attrs[i].name, name) == 0) return op->attrs[i].attr;
  return NULL;
}

void op_add_region(Module *m, Op *op, Block *b) {
  Block **r = ARENA_ARRAY(&m->arena, Block *, op->nregions + 1);
  if (op->nregions) memcpy(r, op->regions, sizeof(Block *) * (size_t)op->nregions);
  r[op->nregions++] = b;
  op->regions = r;
  b->parent_op = op;
}

void block_append(Block *b, Op *op) {
  op->parent = b;
  op->next = NULL;
  op->prev = b->last;
  if (b->last)
    b->last->next = op;
  else
    b->first = op;
  b->last = op;
}

void block_insert_before(Block *b, Op *before, Op *op) {
  if (!before) {
    block_append(b, op);
    return;
  }
  op->parent = b;
  op->next = before;
  op->prev = before->prev;
  if (before->prev)
    before->prev->next = op;
  else
    b->first = op;
  before->prev = op;
}

void op_erase(Op *op) {
  Block *b = op->parent;
  if (!b) return;
  if (op->prev)
    op->prev->next = op->next;
  else
    b->first = op->next;
  if (op->next)
    op->next->prev = op->prev;
  else
    b->last = op->prev;
  op->parent = NULL;
  op->prev = op->next = NULL;
}

Op *block_terminator(const Block *b) {
  if (b->last && op_has_flag(b->last->kind, OPF_TERM)) return b->last;
  return NULL;
}

/* ---- attributes ---- */
static Attr *attr_new(Module *m, AttrKind k) {
  Attr *a = ARENA_NEW(&m->arena, Attr);
  a->kind = k;
  return a;
}

Attr *attr_unit(Module *m) { return attr_new(m, ATTR_UNIT); }

Attr *attr_bool(Module *m, bool b) {
  Attr *a = attr_new(m, ATTR_BOOL);
  a->b = b;
  a->i = b;
  return a;
}

Attr *attr_int(Module *m, int64_t v, Type *t) {
  Attr *a = attr_new(m, ATTR_INT);
  a->i = v;
  a->f = (double)v;
  a->type = t;
  return a;
}

Attr *attr_float(Module *m, double v, Type *t) {
  Attr *a = attr_new(m, ATTR_FLOAT);
  a->f = v;
  a->type = t;
  return a;
}

Attr *attr_string(Module *m, const char *s, size_t n) {
  Attr *a = attr_new(m, ATTR_STRING);
  a->s = arena_strndup(&m->arena, s, n);
  a->slen = n;
  return a;
}

Attr *attr_symbol(Module *m, const char *s) {
  Attr *a = attr_new(m, ATTR_SYMBOL);
  a->s = arena_strdup(&m->arena, s);
  return a;
}

Attr *attr_enum(Module *m, const char *name, const char *value) {
  Attr *a = attr_new(m, ATTR_ENUM);
  a->name = name ? arena_strdup(&m->arena, name) : NULL;
  a->s = arena_strdup(&m->arena, value);
  return a;
}

Attr *attr_ints(Module *m, int n, const int64_t *v) {
  Attr *a = attr_new(m, ATTR_INTS);
  a->n = n;
  a->ints = ARENA_ARRAY(&m->arena, int64_t, n > 0 ? n : 1);
  if (n) memcpy(a->ints, v, sizeof(int64_t) * (size_t)n);
  return a;
}

Attr *attr_dense(Module *m, Literal *lit) {
  Attr *a = attr_new(m, ATTR_DENSE);
  a->lit = lit;
  a->type = lit->type;
  /* integer views are precomputed so attr_get_ints never allocates; only
     for literals small enough to be shapes, indices or id lists (a huge
     constant tensor would pay twice its size for a view nobody reads) */
  if ((et_is_int(lit->type->elem) || et_is_pred(lit->type->elem)) && lit->n <= ((int64_t)1 << 20)) {
    a->n = (int)lit->n;
    a->ints = ARENA_ARRAY(&m->arena, int64_t, lit->n > 0 ? lit->n : 1);
    for (int64_t i = 0; i < lit->n; i++) a->ints[i] = lit_get_i(lit, i);
  }
  return a;
}

Attr *attr_type(Module *m, Type *t) {
  Attr *a = attr_new(m, ATTR_TYPE);
  a->type = t;
  return a;
}

Attr *attr_array(Module *m, int n, Attr *const *elems) {
  Attr *a = attr_new(m, ATTR_ARRAY);
  a->n = n;
  a->elems = ARENA_ARRAY(&m->arena, Attr *, n > 0 ? n : 1);
  bool all_ints = true;
  for (int i = 0; i < n; i++) {
    a->elems[i] = elems[i];
    all_ints = all_ints && elems[i]->kind == ATTR_INT;
  }
  if (all_ints) {
    a->ints = ARENA_ARRAY(&m->arena, int64_t, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) a->ints[i] = elems[i]->i;
  }
  return a;
}

Attr *attr_dict(Module *m, const char *name, int n, const char *const *keys, Attr *const *elems) {
  Attr *a = attr_new(m, ATTR_DICT);
  a->name = name ? arena_strdup(&m->arena, name) : NULL;
  a->n = n;
  a->elems = ARENA_ARRAY(&m->arena, Attr *, n > 0 ? n : 1);
  a->keys = ARENA_ARRAY(&m->arena, const char *, n > 0 ? n : 1);
  for (int i = 0; i < n; i++) {
    a->elems[i] = elems[i];
    a->keys[i] = arena_strdup(&m->arena, keys[i]);
  }
  return a;
}

/* DENSE and ARRAY attributes get their integer view when constructed, so
   this never allocates. */
bool attr_get_ints(const Attr *a, int64_t **out, int *n) {
  if (!a) return false;
  switch (a->kind) {
  case ATTR_INTS:
  case ATTR_BOOLS:
    *out = a->ints;
    *n = a->n;
    return true;
  case ATTR_INT:
    *out = (int64_t *)&a->i;
    *n = 1;
    return true;
  case ATTR_DENSE:
  case ATTR_ARRAY:
    if (!a->ints) return false;
    *out = a->ints;
    *n = a->n;
    return true;
  default:
    return false;
  }
}

Attr *attr_dict_get(const Attr *a, const char *key) {
  if (!a || a->kind != ATTR_DICT) return NULL;
  for (int i = 0; i < a->n; i++)
    if (strcmp(a->keys[i], key) == 0) return a->elems[i];
  return NULL;
}

int op_attr_ints(const Op *op, const char *name, int64_t **out) {
  Attr *a = op_attr(op, name);
  *out = NULL;
  if (!a) return 0;
  int n;
  if (!attr_get_ints(a, out, &n)) return -1;
  return n;
}

int64_t op_attr_int(const Op *op, const char *name, int64_t def) {
  Attr *a = op_attr(op, name);
  if (!a) return def;
  if (a->kind == ATTR_INT || a->kind == ATTR_BOOL) return a->i;
  if (a->kind == ATTR_DENSE && a->lit && a->lit->n == 1) return lit_get_i(a->lit, 0);
  return def;
}

const char *op_attr_str(const Op *op, const char *name) {
  Attr *a = op_attr(op, name);
  if (!a) return NULL;
  if (a->kind == ATTR_ENUM || a->kind == ATTR_STRING || a->kind == ATTR_SYMBOL) return a->s;
  return NULL;
}

int dict_ints(const Attr *dict, const char *key, int64_t **out) {
  Attr *a = attr_dict_get(dict, key);
  *out = NULL;
  if (!a) return 0;
  int n;
  if (!attr_get_ints(a, out, &n)) return -1;
  return n;
}

int64_t dict_int(const Attr *dict, const char *key, int64_t def) {
  Attr *a = attr_dict_get(dict, key);
  if (!a) return def;
  if (a->kind == ATTR_INT || a->kind == ATTR_BOOL) return a->i;
  return def;
}

bool type_is_quant(const Type *t) { return t && t->kind == TY_TENSOR && t->quant; }

bool op_has_quant(const Op *op) {
  for (int i = 0; i < op->nopnds; i++)
    if (type_is_quant(op->opnds[i]->type)) return true;
  for (int i = 0; i < op->nres; i++)
    if (type_is_quant(op->res[i].type)) return true;
  return false;
}

bool op_keeps_quant(OpKind k) {
  switch (k) {
  case OP_UNIFORM_QUANTIZE: case OP_UNIFORM_DEQUANTIZE: case OP_BITCAST_CONVERT:
  case OP_CONSTANT: case OP_WHILE: case OP_IF: case OP_CASE: case OP_CALL: case OP_COMPOSITE:
  case OP_CUSTOM_CALL: case OP_TUPLE: case OP_GET_TUPLE_ELEMENT: case OP_OPTIMIZATION_BARRIER:
  case OP_ASYNC_START: case OP_ASYNC_DONE: case OP_RETURN: case OP_FUNC_RETURN:
    return true;
  default:
    return !op_has_flag(k, OPF_SPEC); /* checks, interpreter and chlo ops */
  }
}

bool ints_contain(const int64_t *v, int n, int64_t x) {
  for (int i = 0; i < n; i++)
    if (v[i] == x) return true;
  return false;
}

bool ints_in_range(const int64_t *v, int n, int64_t hi) {
  for (int i = 0; i < n; i++)
    if (v[i] < 0 || v[i] >= hi) return false;
  return true;
}

bool ints_distinct(const int64_t *v, int n) {
  for (int i = 0; i < n; i++)
    if (ints_contain(v + i + 1, n - i - 1, v[i])) return false;
  return true;
}

bool block_walk(Block *b, OpVisitor f, void *ud) {
  for (Op *op = b->first; op; op = op->next) {
    if (!f(op, ud)) return false;
    for (int r = 0; r < op->nregions; r++)
      if (!block_walk(op->regions[r], f, ud)) return false;
  }
  return true;
}

bool module_walk(Module *m, OpVisitor f, void *ud) {
  for (Func *fn = m->funcs; fn; fn = fn->next)
    if (!block_walk(fn->body, f, ud)) return false;
  return true;
}

/* ---- einsum_config ---- */
char *einsum_spec_read(const char *cfg, int nin, const Type *const *types, EinsumSpec *out) {
  if (!cfg) return xstrdup("requires a string attribute 'einsum_config'");
  const char *arrow = strstr(cfg, "->");
  if (!arrow) return xasprintf("einsum_config '%s' has no '->'", cfg);
  int nt = 0;
  for (const char *p = cfg; p < arrow;) {
    const char *q = p;
    while (q < arrow && *q != ',') q++;
    if (nt >= 2) return xasprintf("einsum_config '%s' has too many inputs", cfg);
    out->term[nt] = p;
    out->len[nt++] = (int)(q - p);
    p = q < arrow ? q + 1 : q;
  }
  if (nt != nin)
    return xasprintf("einsum_config '%s' has %d input term%s, the op has %d operand%s", cfg, nt, nt == 1 ? "" : "s",
                     nin, nin == 1 ? "" : "s");
  out->term[nt] = arrow + 2;
  out->len[nt] = (int)strlen(arrow + 2);
  for (int i = 0; i < 128; i++) out->size[i] = -1;
  for (int t = 0; t <= nin; t++) {
    const Type *ty = types[t];
    const char *term = out->term[t];
    int len = out->len[t];
    if (len != ty->rank) {
      char *ts = type_str(ty);
      char *msg = xasprintf("einsum_config term '%.*s' has %d letters for %s type %s", len, term, len,
                            t < nin ? "operand" : "result", ts);
      xfree(ts);
      return msg;
    }
    for (int j = 0; j < len; j++) {
      unsigned char ch = (unsigned char)term[j];
      if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')))
        return xasprintf("einsum_config '%s' has unsupported character '%c'", cfg, ch);
      if (t == nin && out->size[ch] < 0) return xasprintf("einsum_config result letter '%c' is in no input term", ch);
      if (t == nin && memchr(term, ch, (size_t)j)) return xasprintf("einsum_config result letter '%c' is repeated", ch);
      if (out->size[ch] >= 0 && out->size[ch] != ty->dims[j])
        return xasprintf("einsum letter '%c' has inconsistent sizes %lld and %lld", ch, (long long)out->size[ch],
                         (long long)ty->dims[j]);
      out->size[ch] = ty->dims[j];
    }
  }
  return NULL;
}
