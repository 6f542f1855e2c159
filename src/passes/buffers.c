/*
 * buffers.c - buffer assignment (see buffers.h for the model).
 *
 * Three steps: number the ops in program order (entering while/if/case
 * regions) and compute every value's live range; decide each value's kind
 * (parameter, result, constant, temp, or an alias of another value's
 * storage); then place the temps in one arena, first-fit by start of live
 * range, reusing the space of temps that are dead by then.  Every offset
 * and every size is a multiple of 64 bytes, so each buffer starts on its own
 * cache line and vector loads of any width are aligned.
 */
#include "passes/buffers.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

enum { BUF_ALIGN = 64 };

typedef struct OpSpan {
  int start, end; /* position of the op; last position inside its regions */
} OpSpan;

typedef struct Builder {
  BufferAssignment *a;
  PtrMap span;    /* Op* -> OpSpan* */
  VEC(OpSpan *) spans;
  VEC(Op *) ops;  /* walked ops, program order */
  int pos;
  bool multi;     /* BufferOptions.multi_result_state */
  bool (*reads_view)(Module *m, const Op *op, int r, const Op *user, int *src);
} Builder;

static bool walks_regions(const Op *op) {
  return op->kind == OP_WHILE || op->kind == OP_IF || op->kind == OP_CASE;
}

static int64_t value_bytes(const Value *v) {
  const Type *t = v->type;
  if (!t || t->kind != TY_TENSOR) return -1;
  return type_num_elements(t) * et_bytes(t->elem);
}

static Buffer *buf_of(const BufferAssignment *a, const Value *v) {
  intptr_t i = (intptr_t)ptrmap_get(&a->index, v);
  return i ? &a->bufs[i - 1] : NULL;
}

static void add_value(Builder *B, const Value *v, int start) {
  BufferAssignment *a = B->a;
  Buffer b = {0};
  b.value = v;
  b.start = b.end = start;
  b.bytes = value_bytes(v);
  b.kind = b.bytes < 0 ? BUF_NONE : BUF_TEMP;
  if (b.bytes < 0) b.bytes = 0;
  a->bufs = xrealloc(a->bufs, sizeof(Buffer) * (size_t)(a->nbufs + 1));
  a->bufs[a->nbufs++] = b;
  ptrmap_put(&a->index, v, (void *)(intptr_t)a->nbufs);
}

static void number_block(Builder *B, Block *blk) {
  for (Op *op = blk->first; op; op = op->next) {
    OpSpan *s = xcalloc(1, sizeof *s);
    VEC_PUSH(B->spans, s);
    VEC_PUSH(B->ops, op);
    ptrmap_put(&B->span, op, s);
    s->start = B->pos++;
    for (int i = 0; i < op->nres; i++) add_value(B, &op->res[i], s->start);
    if (walks_regions(op))
      for (int r = 0; r < op->nregions; r++) {
        Block *rb = op->regions[r];
        for (int i = 0; i < rb->nargs; i++) add_value(B, rb->args[i], s->start);
        number_block(B, rb);
      }
    s->end = B->pos - 1;
  }
}

static const Block *def_block(const Value *v) { return v->def ? v->def->parent : v->owner; }

/* A use by `user` counts at the end of its ancestor in v's block. */
static void note_use(Builder *B, const Value *v, const Op *user) {
  Buffer *b = buf_of(B->a, v);
  if (!b) return; /* defined outside the function or inside a fused body */
  const Block *home = def_block(v);
  const Op *anc = user;
  while (anc && anc->parent != home) anc = anc->parent ? anc->parent->parent_op : NULL;
  if (!anc) return;
  OpSpan *s = ptrmap_get(&B->span, anc);
  if (s && s->end > b->end) b->end = s->end;
}

/* Uses by op and by anything inside the regions it does not walk. */
static void note_uses_nested(Builder *B, const Op *op, const Op *at) {
  for (int i = 0; i < op->nopnds; i++) note_use(B, op->opnds[i], at);
  for (int r = 0; r < op->nregions; r++)
    for (const Op *in = op->regions[r]->first; in; in = in->next) note_uses_nested(B, in, at);
}

static void compute_liveness(Builder *B) {
  for (int k = 0; k < B->ops.len; k++) {
    Op *op = B->ops.data[k];
    for (int i = 0; i < op->nopnds; i++) note_use(B, op->opnds[i], op);
    if (!walks_regions(op))
      for (int r = 0; r < op->nregions; r++)
        for (const Op *in = op->regions[r]->first; in; in = in->next) note_uses_nested(B, in, op);
  }
  /* a while's results hold the loop state for the whole loop */
  for (int k = 0; k < B->ops.len; k++) {
    Op *op = B->ops.data[k];
    if (!walks_regions(op)) continue;
    OpSpan *s = ptrmap_get(&B->span, op);
    for (int i = 0; i < op->nres; i++) {
      Buffer *b = buf_of(B->a, &op->res[i]);
      if (b->end < s->end) b->end = s->end;
    }
  }
}

/* The buffer whose storage v really uses. */
static Buffer *root_of(const BufferAssignment *a, Buffer *b) {
  for (int guard = 0; b && b->alias && guard < a->nbufs; guard++) b = buf_of(a, b->alias);
  return b;
}

/* A storage lives as long as the longest of the values in it: aliases
   extend their root's live range. */
static void extend_roots(BufferAssignment *a) {
  for (int i = 0; i < a->nbufs; i++) {
    Buffer *b = &a->bufs[i];
    Buffer *r = b->alias ? root_of(a, b) : NULL;
    if (r && r->end < b->end) r->end = b->end;
  }
}

static bool same_shape(const Type *a, const Type *b) {
  return a->kind == TY_TENSOR && b->kind == TY_TENSOR && type_same_shape(a, b);
}

/* Every use of v in body leads to the root through elementwise ops of v's
   shape only. */
static bool elementwise_paths(Block *body, const Value *v, int depth) {
  if (depth > 64) return false;
  for (Op *op = body->first; op; op = op->next) {
    bool uses = false;
    for (int i = 0; i < op->nopnds; i++) uses |= op->opnds[i] == v;
    if (!uses) continue;
    if (op == block_terminator(body)) continue;
    if (!op_has_flag(op->kind, OPF_EW) || op->nregions || op->nres != 1 || !same_shape(op->res[0].type, v->type))
      return false;
    for (int i = 0; i < op->nopnds; i++) /* select's scalar predicate would broadcast: no */
      if (op->opnds[i]->type->kind == TY_TENSOR && !same_shape(op->opnds[i]->type, v->type)) return false;
    if (!elementwise_paths(body, &op->res[0], depth + 1)) return false;
  }
  return true;
}

/* buffers_reads_at_index, also for a loop fusion of several results of
   one shape where multi is set. */
static bool reads_at_index(Module *m, const Op *op, int i, bool multi) {
  if (op->nres < 1 || (op->nres > 1 && !multi) || i < 0 || i >= op->nopnds) return false;
  const Type *rt = op->res[0].type;
  for (int r = 1; r < op->nres; r++)
    if (!same_shape(op->res[r].type, rt)) return false;
  if (op_has_flag(op->kind, OPF_EW) && !op->nregions && op->nres == 1) {
    for (int j = 0; j < op->nopnds; j++)
      if (op->opnds[j]->type->kind == TY_TENSOR && !same_shape(op->opnds[j]->type, rt)) return false;
    return true;
  }
  const char *callee = op->kind == OP_CALL ? op_attr_str(op, "callee") : NULL;
  const char *kind = op->kind == OP_CALL ? op_attr_str(op, "fusion_kind") : NULL;
  if (!callee || !kind || strcmp(kind, "kLoop") != 0) return false;
  Func *fc = module_find_func(m, callee);
  return fc && fc->body->nargs == op->nopnds && same_shape(op->opnds[i]->type, rt) &&
         elementwise_paths(fc->body, fc->body->args[i], 0);
}

bool buffers_reads_at_index(Module *m, const Op *op, int i) { return reads_at_index(m, op, i, false); }

/* In-place elementwise ops: a one-result op that reads an operand only at
   the index of the element it writes (buffers_reads_at_index) computes its
   result into that operand's storage when the storage is a temp of the
   same size that dies right here, by every value that lives in it, and the
   op reads it through no other operand at another index.  Each element is
   read before its place is written and never again, so the result is
   exact, and the arena holds one buffer where it held two. */
static void share_elementwise(Builder *B, Module *m) {
  BufferAssignment *a = B->a;
  extend_roots(a);
  for (int k = 0; k < B->ops.len; k++) {
    Op *op = B->ops.data[k];
    if (op->nres != 1 || op->nregions) continue;
    Buffer *out = buf_of(a, &op->res[0]);
    if (!out || out->kind != BUF_TEMP || out->alias || out->bytes == 0) continue;
    OpSpan *s = ptrmap_get(&B->span, op);
    for (int i = 0; i < op->nopnds; i++) {
      Buffer *root = root_of(a, buf_of(a, op->opnds[i]));
      if (!root || root->kind != BUF_TEMP || root->bytes != out->bytes || root->end != s->start) continue;
      bool ok = true;
      for (int j = 0; j < op->nopnds && ok; j++)
        if (root_of(a, buf_of(a, op->opnds[j])) == root) ok = buffers_reads_at_index(m, op, j);
      if (!ok) continue;
      out->alias = op->opnds[i];
      if (root->end < out->end) root->end = out->end;
      break;
    }
  }
}

/* Whether an op inside the regions of op that buffers.c does not walk
   (reduce bodies, comparators) uses v. */
static bool used_inside(const Op *op, const Value *v) {
  for (int r = 0; r < op->nregions; r++)
    for (const Op *in = op->regions[r]->first; in; in = in->next) {
      for (int i = 0; i < in->nopnds; i++)
        if (in->opnds[i] == v) return true;
      if (used_inside(in, v)) return true;
    }
  return false;
}

/* Views (BufferOptions.reads_view): the results of a fusion that every
   user reads through a view of one of the fusion's operands share that
   operand's storage and are computed by nothing.  The operand must be a
   temp computed by an op of its own (not loop state, not an alias), so
   that nothing but its own live range, extended to the views' users,
   decides where it lives. */
static void mark_views(Builder *B, Module *m) {
  BufferAssignment *a = B->a;
  enum { MAX_RES = 16 };
  for (int k = 0; k < B->ops.len; k++) {
    Op *op = B->ops.data[k];
    const char *kind = op->kind == OP_CALL ? op_attr_str(op, "fusion_kind") : NULL;
    if (!kind || strcmp(kind, "kLoop") != 0 || op->nres < 1 || op->nres > MAX_RES) continue;
    int src[MAX_RES];
    bool ok = true;
    for (int r = 0; r < op->nres && ok; r++) {
      const Value *v = &op->res[r];
      Buffer *out = buf_of(a, v);
      ok = out && out->kind == BUF_TEMP && !out->alias && out->bytes > 0;
      src[r] = -1;
      int nuse = 0;
      for (int u = 0; u < B->ops.len && ok; u++) {
        Op *user = B->ops.data[u];
        if (!walks_regions(user) && used_inside(user, v)) ok = false;
        for (int i = 0; i < user->nopnds && ok; i++) {
          if (user->opnds[i] != v) continue;
          int s = -1;
          nuse++;
          ok = B->reads_view(m, op, r, user, &s) && s >= 0 && s < op->nopnds && (src[r] < 0 || s == src[r]);
          src[r] = s;
        }
      }
      if (!ok || !nuse) {
        ok = false;
        break;
      }
      Buffer *in = buf_of(a, op->opnds[src[r]]);
      ok = in && in->kind == BUF_TEMP && !in->alias && in->bytes > 0 && in->value->def;
    }
    if (!ok) continue;
    for (int r = 0; r < op->nres; r++) {
      Buffer *out = buf_of(a, &op->res[r]);
      out->alias = op->opnds[src[r]];
      out->view = true;
    }
  }
  extend_roots(a);
}

static void assign_kinds(Builder *B, Module *m, Func *f) {
  BufferAssignment *a = B->a;
  Block *body = f->body;
  for (int i = 0; i < body->nargs; i++) {
    Buffer *b = buf_of(a, body->args[i]);
    if (b && b->kind == BUF_TEMP) {
      b->kind = BUF_PARAM;
      b->offset = i;
    }
  }
  for (int k = 0; k < B->ops.len; k++) {
    Op *op = B->ops.data[k];
    if (op->kind == OP_CONSTANT && op->nres == 1) {
      Buffer *b = buf_of(a, &op->res[0]);
      if (b->kind == BUF_TEMP) b->kind = BUF_CONST;
    }
  }
  Op *ret = block_terminator(body);
  if (ret && ret->kind == OP_FUNC_RETURN) {
    for (int i = 0; i < ret->nopnds; i++) {
      Buffer *b = buf_of(a, ret->opnds[i]);
      if (!b || b->kind == BUF_NONE) continue;
      if (b->kind == BUF_TEMP) {
        b->kind = BUF_RESULT;
        b->offset = i;
        continue;
      }
      /* a parameter, a constant, or a value already returned */
      a->copies = xrealloc(a->copies, sizeof(ResultCopy) * (size_t)(a->ncopies + 1));
      a->copies[a->ncopies].result = i;
      a->copies[a->ncopies].from = ret->opnds[i];
      a->ncopies++;
    }
  }
  /* loop state: cond/body arguments live in the while's result buffers */
  for (int k = 0; k < B->ops.len; k++) {
    Op *op = B->ops.data[k];
    if (op->kind != OP_WHILE) continue;
    for (int r = 0; r < op->nregions; r++) {
      Block *rb = op->regions[r];
      for (int i = 0; i < rb->nargs && i < op->nres; i++) {
        Buffer *b = buf_of(a, rb->args[i]);
        if (b->kind == BUF_NONE) continue;
        b->alias = &op->res[i];
      }
    }
  }
  if (B->reads_view) mark_views(B, m);
  /* in-place dynamic_update_slice: the result takes the operand's storage
     when the operand dies right here and is neither the caller's parameter
     nor a constant, so only the window is written (a loop that updates
     one row of its state per iteration costs a row, not the whole state) */
  for (int k = 0; k < B->ops.len; k++) {
    Op *op = B->ops.data[k];
    if (op->kind != OP_DYNAMIC_UPDATE_SLICE || op->nopnds < 2 || op->nres != 1) continue;
    Buffer *in = buf_of(a, op->opnds[0]), *out = buf_of(a, &op->res[0]);
    if (!in || !out || out->kind != BUF_TEMP || out->alias || in->bytes != out->bytes) continue;
    Buffer *root = root_of(a, in);
    if (!root || (root->kind != BUF_TEMP && root->kind != BUF_RESULT)) continue;
    /* the update must not live in that storage */
    if (root_of(a, buf_of(a, op->opnds[1])) == root) continue;
    OpSpan *s = ptrmap_get(&B->span, op);
    if (in->end != s->start) continue;
    out->alias = op->opnds[0];
  }
  /* in-place reshape: the operand is a temp that dies right here */
  for (int k = 0; k < B->ops.len; k++) {
    Op *op = B->ops.data[k];
    if (op->kind != OP_RESHAPE || op->nopnds != 1) continue;
    Buffer *in = buf_of(a, op->opnds[0]), *out = buf_of(a, &op->res[0]);
    if (!in || !out || in->kind != BUF_TEMP || out->kind != BUF_TEMP || in->alias || !in->value->def)
      continue;
    OpSpan *s = ptrmap_get(&B->span, op);
    if (in->end != s->start || in->bytes != out->bytes) continue;
    out->alias = in->value;
  }
}


static int64_t round_up(int64_t n) { return (n + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN; }

typedef struct Slot {
  int64_t offset, size;
  int end;
} Slot;

static int cmp_start(const void *pa, const void *pb) {
  const Buffer *a = *(Buffer *const *)pa, *b = *(Buffer *const *)pb;
  if (a->start != b->start) return a->start < b->start ? -1 : 1;
  if (a->bytes != b->bytes) return a->bytes > b->bytes ? -1 : 1;
  return a < b ? -1 : a > b;
}

static int cmp_offset(const void *pa, const void *pb) {
  const Slot *a = pa, *b = pb;
  return a->offset < b->offset ? -1 : a->offset > b->offset;
}

static void place_temps(BufferAssignment *a) {
  extend_roots(a);
  VEC(Buffer *) todo = {0};
  for (int i = 0; i < a->nbufs; i++)
    if (a->bufs[i].kind == BUF_TEMP && !a->bufs[i].alias) VEC_PUSH(todo, &a->bufs[i]);
  if (todo.len) qsort(todo.data, (size_t)todo.len, sizeof(Buffer *), cmp_start);
  VEC(Slot) live = {0};
  int64_t peak = 0;
  for (int k = 0; k < todo.len; k++) {
    Buffer *b = todo.data[k];
    int64_t size = round_up(b->bytes);
    int w = 0;
    for (int i = 0; i < live.len; i++)
      if (live.data[i].end >= b->start) live.data[w++] = live.data[i];
    live.len = w;
    if (live.len) qsort(live.data, (size_t)live.len, sizeof(Slot), cmp_offset);
    int64_t off = 0;
    for (int i = 0; i < live.len && size > 0; i++) {
      if (live.data[i].offset - off >= size) break;
      int64_t e = live.data[i].offset + live.data[i].size;
      if (e > off) off = e;
    }
    b->offset = off;
    if (size > 0) {
      Slot s = {off, size, b->end};
      VEC_PUSH(live, s);
    }
    if (off + size > peak) peak = off + size;
  }
  a->temp_bytes = peak;
  VEC_FREE(live);
  VEC_FREE(todo);
  /* aliases take their root's placement */
  for (int i = 0; i < a->nbufs; i++) {
    Buffer *b = &a->bufs[i];
    if (!b->alias) continue;
    Buffer *r = root_of(a, b);
    if (r) {
      b->kind = r->kind;
      b->offset = r->offset;
    }
  }
}

/* Scatter in place.  A scatter starts from a copy of each operand and
   then updates some of its elements; when operand k's storage dies at the
   scatter, result k takes it and the copy goes away (the code generators
   copy nothing from a storage into itself).  When result k is the
   caller's result buffer instead, an operand temp that dies here is
   computed straight into that buffer: the fill of zeros that an embedding
   gradient scatters into is written once, where the result is.  Neither
   happens when the indices, an update or another operand live in that
   storage: the scatter reads them while it writes. */
static bool scatter_reads_root(BufferAssignment *a, const Op *op, int k, const Buffer *root) {
  for (int j = 0; j < op->nopnds; j++)
    if (j != k && root_of(a, buf_of(a, op->opnds[j])) == root) return true;
  return false;
}

static void share_scatter(Builder *B) {
  BufferAssignment *a = B->a;
  for (int i = 0; i < B->ops.len; i++) {
    Op *op = B->ops.data[i];
    if (op->kind != OP_SCATTER || op->nopnds < 3 || (op->nopnds - 1) % 2 || op->nres != (op->nopnds - 1) / 2)
      continue;
    OpSpan *s = ptrmap_get(&B->span, op);
    for (int k = 0; k < op->nres; k++) {
      extend_roots(a);
      Buffer *in = buf_of(a, op->opnds[k]), *out = buf_of(a, &op->res[k]);
      if (!in || !out || out->alias || in->bytes != out->bytes || in->bytes == 0) continue;
      Buffer *root = root_of(a, in);
      if (!root || root->end != s->start || scatter_reads_root(a, op, k, root)) continue;
      if (out->kind == BUF_TEMP && (root->kind == BUF_TEMP || root->kind == BUF_RESULT)) {
        out->alias = op->opnds[k];
      } else if (out->kind == BUF_RESULT && root == in && in->kind == BUF_TEMP && in->value->def) {
        /* nothing else may already share the result's storage */
        bool shared = false;
        for (int j = 0; j < a->nbufs && !shared; j++)
          shared = a->bufs[j].alias && root_of(a, &a->bufs[j]) == out;
        if (!shared) in->alias = &op->res[k];
      }
    }
  }
}

/* Whether every value in storage S that the loop w's regions hold (its
   arguments there, values updated in place in them) is dead when P starts,
   or dies at P, which then reads it only at the index it writes. */
static bool state_free_at(Builder *B, Module *m, const Op *w, const Buffer *S, Op *P) {
  BufferAssignment *a = B->a;
  OpSpan *ws = ptrmap_get(&B->span, w), *ps = ptrmap_get(&B->span, P);
  for (int i = 0; i < a->nbufs; i++) {
    Buffer *b = &a->bufs[i];
    if (b == S || b->start < ws->start || b->start > ws->end || root_of(a, b) != S) continue;
    if (b->end < ps->start) continue;
    if (b->end > ps->start || b->start > ps->start) return false;
    /* it dies at P: P may read it only at the index it writes */
    for (int k = 0; k < P->nopnds; k++)
      if (P->opnds[k] == b->value && !reads_at_index(m, P, k, B->multi)) return false;
  }
  return true;
}

/* Loop state computed in place.  A value the body returns as state j is
   computed straight into state j's storage when the old state j (every
   value in that storage) is dead by then, or dies at the op that computes
   it, reading it only at the index it writes (h' = f(h) elementwise, the
   counter's i + 1).  The copy into the state after each iteration goes
   away: on the GPU a launch per value and iteration.  The value's storage
   must be a temp of the body's own (with whatever was computed into it),
   returned once. */
static void share_loop_state(Builder *B, Module *m) {
  BufferAssignment *a = B->a;
  extend_roots(a);
  for (int k = 0; k < B->ops.len; k++) {
    Op *w = B->ops.data[k];
    if (w->kind != OP_WHILE || w->nregions != 2) continue;
    Block *body = w->regions[1];
    Op *ret = block_terminator(body);
    if (!ret || ret->nopnds != w->nres) continue;
    for (int j = 0; j < ret->nopnds; j++) {
      Buffer *S = buf_of(a, &w->res[j]), *R = root_of(a, buf_of(a, ret->opnds[j]));
      if (!S || S->alias || !R || R == S || R->kind != BUF_TEMP || R->bytes != S->bytes || R->bytes == 0) continue;
      Op *P = R->value->def;
      if (!P || P->parent != body || P->nregions || P == ret) continue;
      bool once = true;
      for (int i = 0; i < ret->nopnds && once; i++)
        once = i == j || root_of(a, buf_of(a, ret->opnds[i])) != R;
      if (!once || !state_free_at(B, m, w, S, P)) continue;
      R->alias = &w->res[j];
      extend_roots(a);
    }
  }
}

BufferAssignment *buffers_assign(Module *m, Func *f) { return buffers_assign_with(m, f, NULL); }

BufferAssignment *buffers_assign_with(Module *m, Func *f, const BufferOptions *o) {
  BufferAssignment *a = xcalloc(1, sizeof *a);
  a->func = f;
  Builder B = {0};
  B.a = a;
  B.multi = o && o->multi_result_state;
  B.reads_view = o ? o->reads_view : NULL;
  for (int i = 0; i < f->body->nargs; i++) add_value(&B, f->body->args[i], 0);
  number_block(&B, f->body);
  compute_liveness(&B);
  assign_kinds(&B, m, f);
  share_scatter(&B);
  share_elementwise(&B, m);
  share_loop_state(&B, m);
  place_temps(a);
  for (int i = 0; i < B.spans.len; i++) xfree(B.spans.data[i]);
  VEC_FREE(B.spans);
  VEC_FREE(B.ops);
  ptrmap_free(&B.span);
  return a;
}

const Buffer *buffers_get(const BufferAssignment *a, const Value *v) { return buf_of(a, v); }

bool buffers_is_view(const BufferAssignment *a, const Value *v) {
  const Buffer *b = buf_of(a, v);
  return b && b->view;
}

bool buffers_same_storage(const BufferAssignment *a, const Value *x, const Value *y) {
  Buffer *rx = root_of(a, buf_of(a, x));
  return rx && rx == root_of(a, buf_of(a, y));
}

bool buffers_places_apart(const BufferPlace *x, const BufferPlace *y, const int *alias_param, int nalias) {
  if (x->kind == BUF_NONE || y->kind == BUF_NONE) return false;
  if (x->kind == BUF_TEMP && y->kind == BUF_TEMP)
    return x->offset + x->bytes <= y->offset || y->offset + y->bytes <= x->offset;
  bool xin = x->kind == BUF_TEMP || x->kind == BUF_CONST, yin = y->kind == BUF_TEMP || y->kind == BUF_CONST;
  if (xin || yin) return x->kind != y->kind;
  if (x->kind == BUF_RESULT && y->kind == BUF_RESULT) return x->offset != y->offset;
  if (x->kind == BUF_PARAM && y->kind == BUF_PARAM) return false;
  const BufferPlace *r = x->kind == BUF_RESULT ? x : y, *p = x->kind == BUF_PARAM ? x : y;
  return !(alias_param && r->offset < nalias && alias_param[r->offset] == p->offset);
}

bool buffers_apart(const BufferAssignment *a, const Value *x, const Value *y, const int *alias_param, int nalias) {
  if (!x || !y || x == y) return false;
  const Buffer *bx = buf_of(a, x), *by = buf_of(a, y);
  if (!bx || !by) return false;
  BufferPlace px = {bx->kind, bx->offset, bx->bytes}, py = {by->kind, by->offset, by->bytes};
  return buffers_places_apart(&px, &py, alias_param, nalias);
}

BufferKind buffers_lookup(const BufferAssignment *a, const Value *v, int64_t *offset) {
  const Buffer *b = buf_of(a, v);
  if (offset) *offset = b ? b->offset : 0;
  return b ? b->kind : BUF_NONE;
}

static const char *kind_name(BufferKind k) {
  switch (k) {
  case BUF_PARAM: return "param";
  case BUF_RESULT: return "result";
  case BUF_TEMP: return "temp";
  case BUF_CONST: return "const";
  case BUF_NONE: break;
  }
  return "none";
}

/* "%argN" for parameters, "%N" in program order otherwise, plus the source
   name when there is one. */
static void value_name(StrBuf *sb, const BufferAssignment *a, const Value *v) {
  int nargs = a->func->body->nargs;
  intptr_t i = (intptr_t)ptrmap_get(&a->index, v);
  if (!v->def && v->owner == a->func->body)
    sb_printf(sb, "%%arg%d", v->index);
  else
    sb_printf(sb, "%%%d", (int)i - 1 - nargs);
  if (v->name && *v->name) sb_printf(sb, "(%s)", v->name);
}

void buffers_print(StrBuf *sb, const BufferAssignment *a) {
  sb_printf(sb, "buffer assignment for @%s\n", a->func->name);
  sb_printf(sb, "%-16s %-28s %10s  %-6s %10s  %s\n", "value", "type", "bytes", "kind", "offset",
            "live");
  for (int i = 0; i < a->nbufs; i++) {
    const Buffer *b = &a->bufs[i];
    StrBuf name = {0}, type = {0};
    value_name(&name, a, b->value);
    type_print_mlir(&type, b->value->type);
    sb_printf(sb, "%-16s %-28s %10lld  %-6s %10lld  [%d, %d]", name.data, type.data,
              (long long)b->bytes, kind_name(b->kind), (long long)b->offset, b->start, b->end);
    if (b->alias) {
      StrBuf an = {0};
      value_name(&an, a, b->alias);
      sb_printf(sb, b->view ? "  view of %s" : "  shares %s", an.data);
      sb_free(&an);
    }
    sb_putc(sb, '\n');
    sb_free(&name);
    sb_free(&type);
  }
  for (int i = 0; i < a->ncopies; i++) {
    StrBuf n = {0};
    value_name(&n, a, a->copies[i].from);
    sb_printf(sb, "result %d: copy of %s\n", a->copies[i].result, n.data);
    sb_free(&n);
  }
  sb_printf(sb, "peak temp bytes: %lld\n", (long long)a->temp_bytes);
}

void buffers_free(BufferAssignment *a) {
  if (!a) return;
  xfree(a->bufs);
  xfree(a->copies);
  ptrmap_free(&a->index);
  xfree(a);
}
