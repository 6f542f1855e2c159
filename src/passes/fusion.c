/*
 * fusion.c - groups ops into fused computations so that the values flowing
 * between them never touch memory.
 *
 * On this CPU memory bandwidth (about 13 GB/s per thread) is far scarcer
 * than arithmetic (about 175 GFLOP/s), so an intermediate tensor written and
 * read back costs more than recomputing a cheap op.  The pass therefore
 * packs chains of elementwise and index-mapping ops into one kernel.  A
 * fusion is represented as HLO does it: a private Func "fused_computation.N"
 * called by a func.call carrying `fusion_kind`:
 *
 *   kLoop   elementwise ops (OPF_EW) and cheap index-mapping producers
 *           (broadcast_in_dim, reshape, transpose, slice, dynamic_slice at
 *           scalar starts, concatenate, pad, iota, reverse, constants of at
 *           most 16 elements, and gathers whose elements can be computed
 *           one by one: ir/match.c match_gather).  Every output
 *           of a kLoop fusion has the same dimensions (one iteration space).
 *   kInput  one or more single-input reduces whose body is one of
 *           add/mul/max/min/and/or, all over the same input dimensions and
 *           reduced dimensions, with their elementwise producers fused into
 *           the inputs; the outputs are exactly the reduce results.
 *   kOutput a dot_general or convolution, as the first op, plus an
 *           elementwise epilogue on its result (bias add through a
 *           broadcast, max(x, 0), tanh, ...) with a single output.
 *   row     (printed as kInput) softmax, layernorm and the like: reductions
 *           over the same short rows (the trailing dim, at most 16384
 *           elements) and the groups that use their results on those rows
 *           again.  The fusion's body calls the groups (as fusions or
 *           single ops) in dependency order; the cpu backend runs them
 *           stage by stage for each row, so a row is read from memory once
 *           (cpu/kernel_row.c).  See "row fusions" below.
 *
 * Algorithm.  Each block (function bodies and the regions of while/if/case)
 * is processed on its own.  Ops are visited in reverse order, consumers
 * before producers, so that when a producer X is decided all its users
 * already are.  X's users fall into consumer groups it could join, and
 * external users (unfused ops, the terminator, region uses, a dot's
 * operands, a reduce's non-constant init value):
 *   - one consumer group and no external user: X joins it;
 *   - one consumer group and external users: X joins it as an extra output
 *     when the group is kLoop with X's dimensions (multi-output fusion),
 *     unless X is a constant, which is duplicated as below;
 *   - otherwise a cheap X is duplicated into each consumer group (a clone
 *     per group) and kept for the remaining users;
 *   - an expensive X with several consumer groups merges those groups into
 *     one multi-output fusion when their iteration spaces agree;
 *   - else X starts a group of its own (it is written to memory once).
 * A dot or convolution joins a kLoop group as its epilogue producer when it
 * has no other user and every op between it and the group's single output
 * is elementwise; the group becomes kOutput.  Afterwards, sibling groups of
 * the same kind and iteration space that read a common non-scalar input are
 * merged (mean and mean of squares of one tensor become one kInput fusion
 * reading it once); reductions are merged only when neither reads the
 * other's result.  Then row clusters are formed from the groups (below).
 * Every merge is checked for cycles, treating a group as one node, and
 * side-effecting ops keep their relative order.  Finally each group of two
 * or more ops is outlined, each row cluster is outlined around the calls of
 * its groups, and the block is re-sorted topologically (a fusion runs where
 * its last op was, if dependencies allow).
 *
 * Cost model.
 *   - Never fused: ops with side effects, collectives, custom_call, calls,
 *     while/if/case, sort, scatter, reduce_window, rng, anything on
 *     quantized, tuple or token types; dot/convolution only as kOutput roots.
 *   - A gather joins its consumers' groups, but never starts a group: with
 *     no fusible consumer (or for the users outside the groups it joined)
 *     it stays an op of its own, which the backends lower as a copy per
 *     slice, its start indices computed apart.
 *   - Expensive ops (exp, log, tanh, logistic, power, sqrt, rsqrt, cbrt,
 *     divide, remainder, trigonometry, atan2, erf and the other CHLO special
 *     functions, and anything with a region) are never duplicated.  One
 *     joins a group only if no path from it to the group's outputs passes a
 *     broadcasting edge (an operand with fewer elements than the op's
 *     result, e.g. broadcast_in_dim or a scalar clamp bound), since that
 *     would recompute it per broadcast element; and if it reaches the outputs
 *     along several paths, all of them must be elementwise, so that it is
 *     evaluated at one index (the code generator computes each fused op once
 *     per index).  Otherwise it stays a separate fusion.
 *   - Cheap ops are duplicated freely: recomputing an add is cheaper than
 *     reading its result back.
 *   - A dot or convolution takes an epilogue only if every op of it has a
 *     vector path in the cpu backend (scalar_only): the epilogue runs over
 *     the product once the GEMM has written it, so a scalar one gains
 *     nothing over a separate loop.
 *   - A fusion holds at most 64 ops and 16 distinct inputs, to keep kernels
 *     small enough to compile quickly and to keep register pressure sane.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ir/match.h"
#include "passes/passes.h"

enum { MAX_FUSION_OPS = 64, MAX_FUSION_INPUTS = 16, MAX_FUSED_CONSTANT = 16 };

typedef enum { K_LOOP, K_INPUT, K_OUTPUT } FusionKind;
static const char *const kind_names[] = {"kLoop", "kInput", "kOutput"};

typedef struct Node Node;
typedef VEC(Node *) NodeVec;

struct Node {
  Op *op;
  int pos;       /* position in the block; a clone shares its original's */
  int idx;       /* creation order, breaks ties between clones */
  int group;     /* index into Ctx.groups, -1 when unfused */
  NodeVec users; /* one entry per use (duplicates allowed), plus order edges */
  unsigned mark; /* scratch (epochs) */
  bool dead;
};

typedef struct Group {
  FusionKind kind;
  Node *root;    /* the op that started the group */
  NodeVec members;
  bool dead;     /* merged into another group */
} Group;

typedef struct Ctx {
  Module *m;
  Block *b;
  NodeVec nodes;
  PtrMap node_of; /* Op* -> Node* */
  VEC(Group) groups;
  unsigned epoch;
  int *counter;   /* fused_computation numbering, module-wide */
  int nfused;
  /* an outlined op's result -> the fusion call's result that replaced it;
     operands are rewritten through it when next looked at
     (op_forward_operands), not by searching the block at every outlining,
     which made long blocks quadratic */
  PtrMap fwd;
} Ctx;

/* op's operands, its regions' included, through the outlinings so far */
static void fwd_op_tree(Ctx *c, Op *op) {
  op_forward_operands(op, &c->fwd);
  for (int r = 0; r < op->nregions; r++) block_forward_operands(op->regions[r], &c->fwd);
}

/* ---- op classification ---- */

static bool plain_tensor(const Type *t) { return t && t->kind == TY_TENSOR && !t->quant; }

static bool all_plain(const Op *op) {
  for (int i = 0; i < op->nopnds; i++)
    if (!plain_tensor(op->opnds[i]->type)) return false;
  for (int i = 0; i < op->nres; i++)
    if (!plain_tensor(op->res[i].type)) return false;
  return true;
}

static int64_t nelems(const Type *t) { return type_num_elements(t); }

static bool same_dims(const Type *a, const Type *b) {
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

static bool is_index_op(OpKind k) {
  switch (k) {
  case OP_BROADCAST_IN_DIM: case OP_RESHAPE: case OP_TRANSPOSE: case OP_SLICE:
  case OP_CONCATENATE: case OP_PAD: case OP_IOTA: case OP_REVERSE:
    return true;
  default:
    return false;
  }
}

/* A constant whose elements are all the same bits: one value, any size. */
static bool is_splat(const Op *op) {
  const Attr *a = op_attr(op, "value");
  if (!a || a->kind != ATTR_DENSE || !a->lit) return false;
  return a->lit->n == 0 || lit_is_splat(a->lit);
}

/* A dynamic_slice at scalar start indices: the elements it reads are its
   operand's at an offset the kernel loads once (a scan's step of its
   input). */
static bool is_scalar_dynamic_slice(const Op *op) {
  if (op->kind != OP_DYNAMIC_SLICE || op->nopnds != 1 + op->opnds[0]->type->rank) return false;
  for (int i = 1; i < op->nopnds; i++)
    if (op->opnds[i]->type->rank != 0 || !et_is_int(op->opnds[i]->type->elem)) return false;
  return true;
}

/* A gather whose elements can be computed one at a time (ir/match.c):
   fused into its consumers, the slices it selects are read where they
   are used (an embedding bag's rows by the reduction summing them). */
static bool is_fusible_gather(const Op *op) {
  GatherDims g;
  return op->kind == OP_GATHER && match_gather(op, &g);
}

/* Elementwise or index-mapping, fusible as a producer of a loop. */
static bool is_loop_op(const Op *op) {
  if (op->nres != 1 || op->nregions || !all_plain(op)) return false;
  if (op->kind == OP_CONSTANT) return nelems(op->res[0].type) <= MAX_FUSED_CONSTANT || is_splat(op);
  if (is_scalar_dynamic_slice(op) || is_fusible_gather(op)) return true;
  return op_has_flag(op->kind, OPF_EW) || is_index_op(op->kind) ||
         (op->kind == OP_BITCAST_CONVERT && same_dims(op->res[0].type, op->opnds[0]->type));
}

/* A single-input reduce whose body is `return arg0 OP arg1`. */
static bool is_simple_reduce(const Op *op) {
  if (op->kind != OP_REDUCE || op->nopnds != 2 || op->nres != 1 || op->nregions != 1 ||
      !all_plain(op))
    return false;
  const Block *body = op->regions[0];
  if (body->nargs != 2) return false;
  const Op *bin = body->first;
  if (!bin || !bin->next || bin->next->next || bin->nopnds != 2 || bin->nres != 1) return false;
  switch (bin->kind) {
  case OP_ADD: case OP_MULTIPLY: case OP_MAXIMUM: case OP_MINIMUM: case OP_AND: case OP_OR:
    break;
  default:
    return false;
  }
  bool args = (bin->opnds[0] == body->args[0] && bin->opnds[1] == body->args[1]) ||
              (bin->opnds[0] == body->args[1] && bin->opnds[1] == body->args[0]);
  const Op *ret = bin->next;
  return args && ret->kind == OP_RETURN && ret->nopnds == 1 && ret->opnds[0] == &bin->res[0];
}

static bool is_contraction(const Op *op) {
  return (op->kind == OP_DOT_GENERAL || op->kind == OP_CONVOLUTION) && op->nres == 1 &&
         all_plain(op);
}

static bool is_expensive(const Op *op) {
  if (op->nregions) return true;
  switch (op->kind) {
  case OP_EXPONENTIAL: case OP_EXPONENTIAL_MINUS_ONE: case OP_LOG: case OP_LOG_PLUS_ONE:
  case OP_TANH: case OP_LOGISTIC: case OP_POWER: case OP_SQRT: case OP_RSQRT: case OP_CBRT:
  case OP_DIVIDE: case OP_REMAINDER: case OP_SINE: case OP_COSINE: case OP_TAN: case OP_ATAN2:
    return true;
  default:
    /* every CHLO elementwise op is a special function (or a cheap predicate
       we don't mind keeping apart) */
    return strncmp(op_info[op->kind].name, "chlo.", 5) == 0;
  }
}

/* Calls to fused computations are pure; other non-pure ops keep their order. */
static bool order_sensitive(const Op *op) {
  if (op->kind == OP_CALL && op_attr(op, "fusion_kind")) return false;
  return !op_is_pure(op);
}

/* ---- nodes and groups ---- */

static Node *node_of(Ctx *c, const Op *op) { return op ? ptrmap_get(&c->node_of, op) : NULL; }

static Node *new_node(Ctx *c, Op *op, int pos) {
  Node *n = xcalloc(1, sizeof *n);
  n->op = op;
  n->pos = pos;
  n->idx = c->nodes.len;
  n->group = -1;
  VEC_PUSH(c->nodes, n);
  ptrmap_put(&c->node_of, op, n);
  return n;
}

static Group *grp(Ctx *c, int g) { return &c->groups.data[g]; }

static int new_group(Ctx *c, Node *root, FusionKind kind) {
  Group g = {0};
  g.kind = kind;
  g.root = root;
  VEC_PUSH(g.members, root);
  VEC_PUSH(c->groups, g);
  root->group = c->groups.len - 1;
  return root->group;
}

static void add_member(Ctx *c, int g, Node *n) {
  VEC_PUSH(grp(c, g)->members, n);
  n->group = g;
}

static void remove_user(Node *n, Node *u) {
  for (int i = 0; i < n->users.len; i++)
    if (n->users.data[i] == u) {
      n->users.data[i] = n->users.data[--n->users.len];
      return;
    }
}

/* The node of the op in this block that defines v, if any. */
static Node *def_node(Ctx *c, const Value *v) {
  if (!v->def || v->def->parent != c->b) return NULL;
  return node_of(c, v->def);
}

/* Records `user` as a user of every value of this block it reads, including
   values captured by its regions. */
static void add_uses_in_block(Ctx *c, Node *user, const Block *blk) {
  for (const Op *op = blk->first; op; op = op->next) {
    for (int i = 0; i < op->nopnds; i++) {
      Node *d = def_node(c, op->opnds[i]);
      if (d) VEC_PUSH(d->users, user);
    }
    for (int r = 0; r < op->nregions; r++) add_uses_in_block(c, user, op->regions[r]);
  }
}

static void add_uses(Ctx *c, Node *user) {
  Op *op = user->op;
  for (int i = 0; i < op->nopnds; i++) {
    Node *d = def_node(c, op->opnds[i]);
    if (d) VEC_PUSH(d->users, user);
  }
  for (int r = 0; r < op->nregions; r++) add_uses_in_block(c, user, op->regions[r]);
}

/* ---- group properties ---- */

/* Can the value of producer x be computed inside user u's fusion (as
   opposed to being read from memory)? */
static bool fusible_use(const Node *x, const Node *u) {
  const Op *op = u->op;
  if (is_contraction(op)) return false; /* the GEMM reads its operands from memory */
  for (int i = 0; i < op->nopnds; i++) {
    if (op->opnds[i]->def != x->op) continue;
    if (op->kind == OP_REDUCE && i >= op->nopnds / 2 && x->op->kind != OP_CONSTANT) return false;
  }
  return true;
}

static bool in_set(const Ctx *c, const Node *n, const int *gs, int ngs, const Node *extra) {
  if (n == extra) return true;
  (void)c;
  for (int i = 0; i < ngs; i++)
    if (n->group == gs[i]) return true;
  return false;
}

static void bump_epoch(Ctx *c) {
  if (++c->epoch == 0) {
    for (int i = 0; i < c->nodes.len; i++) c->nodes.data[i]->mark = 0;
    c->epoch = 1;
  }
}

/* Distinct values read from outside the union of groups gs plus `extra`. */
static int count_inputs(Ctx *c, const int *gs, int ngs, Node *extra) {
  VEC(const Value *) seen = {0};
  int n = 0;
  for (int k = -1; k < ngs; k++) {
    const NodeVec *mem = NULL;
    Node *one[1] = {extra};
    NodeVec single = {one, 1, 1};
    if (k < 0) {
      if (!extra) continue;
      mem = &single;
    } else {
      mem = &grp(c, gs[k])->members;
    }
    for (int i = 0; i < mem->len; i++) {
      const Op *op = mem->data[i]->op;
      for (int j = 0; j < op->nopnds; j++) {
        const Value *v = op->opnds[j];
        Node *d = def_node(c, v);
        if (d && in_set(c, d, gs, ngs, extra)) continue;
        bool dup = false;
        for (int s = 0; s < seen.len && !dup; s++) dup = seen.data[s] == v;
        if (!dup) {
          VEC_PUSH(seen, v);
          n++;
        }
      }
    }
  }
  VEC_FREE(seen);
  return n;
}

static int count_ops(Ctx *c, const int *gs, int ngs, Node *extra) {
  int n = extra ? 1 : 0;
  for (int i = 0; i < ngs; i++) n += grp(c, gs[i])->members.len;
  return n;
}

static bool within_limits(Ctx *c, const int *gs, int ngs, Node *extra) {
  return count_ops(c, gs, ngs, extra) <= MAX_FUSION_OPS &&
         count_inputs(c, gs, ngs, extra) <= MAX_FUSION_INPUTS;
}

static bool has_outside_user(Ctx *c, const Node *n, const int *gs, int ngs, const Node *extra) {
  for (int i = 0; i < n->users.len; i++)
    if (!in_set(c, n->users.data[i], gs, ngs, extra)) return true;
  return false;
}

/* Would making one node of gs plus extra create a cycle?  Walks from the
   set's outside users; reaching a group means reaching all its members. */
static bool would_cycle(Ctx *c, const int *gs, int ngs, Node *extra) {
  bump_epoch(c);
  NodeVec stack = {0};
  for (int k = -1; k < ngs; k++) {
    if (k < 0 && !extra) continue;
    NodeVec *mem = k < 0 ? NULL : &grp(c, gs[k])->members;
    int cnt = k < 0 ? 1 : mem->len;
    for (int i = 0; i < cnt; i++) {
      Node *n = k < 0 ? extra : mem->data[i];
      for (int u = 0; u < n->users.len; u++)
        if (!in_set(c, n->users.data[u], gs, ngs, extra)) VEC_PUSH(stack, n->users.data[u]);
    }
  }
  bool cycle = false;
  while (stack.len && !cycle) {
    Node *n = stack.data[--stack.len];
    if (in_set(c, n, gs, ngs, extra)) {
      cycle = true;
      break;
    }
    if (n->mark == c->epoch) continue;
    n->mark = c->epoch;
    if (n->group >= 0) {
      NodeVec *mem = &grp(c, n->group)->members;
      for (int i = 0; i < mem->len; i++) {
        Node *m = mem->data[i];
        m->mark = c->epoch;
        for (int u = 0; u < m->users.len; u++) VEC_PUSH(stack, m->users.data[u]);
      }
    } else {
      for (int u = 0; u < n->users.len; u++) VEC_PUSH(stack, n->users.data[u]);
    }
  }
  VEC_FREE(stack);
  return cycle;
}

/* Does reading operand i of op repeat elements of it (broadcasting)? */
static bool reuse_edge(const Op *op, int i) {
  if (op->kind == OP_REDUCE || op->kind == OP_CONCATENATE) return false;
  if (op->kind == OP_PAD) return i == 1 && nelems(op->res[0].type) > 1;
  return nelems(op->opnds[i]->type) < nelems(op->res[0].type);
}

typedef struct PathInfo {
  int64_t paths; /* number of paths to the set's outputs */
  bool reuse, nonew;
} PathInfo;

/* Paths from n to the outputs of the set, within the set. */
static PathInfo path_info_memo(Ctx *c, Node *n, const int *gs, int ngs, Node *extra, int depth, PtrMap *memo);

/* Paths from n through the set to where values leave it; each node's answer
   is kept for the walk (memo), so a chain of diamonds (x + x, again and
   again) costs its size, not two to the power of its length. */
static PathInfo path_info(Ctx *c, Node *n, const int *gs, int ngs, Node *extra, int depth) {
  PtrMap memo = {0};
  PathInfo r = path_info_memo(c, n, gs, ngs, extra, depth, &memo);
  ptrmap_free(&memo);
  return r;
}

static PathInfo path_info_memo(Ctx *c, Node *n, const int *gs, int ngs, Node *extra, int depth, PtrMap *memo) {
  uintptr_t known = (uintptr_t)ptrmap_get(memo, n);
  if (known) {
    known--;
    return (PathInfo){(int)(known >> 2), (known & 2) != 0, (known & 1) != 0};
  }
  PathInfo r = {0, false, false};
  if (depth > MAX_FUSION_OPS * 2) { /* cannot happen in a bounded group; be safe */
    r.paths = 2;
    r.reuse = true;
    return r;
  }
  if (n->op->kind == OP_REDUCE || has_outside_user(c, n, gs, ngs, extra)) r.paths = 1;
  if (n->op->kind == OP_REDUCE) return r;
  for (int u = 0; u < n->users.len; u++) {
    Node *un = n->users.data[u];
    if (!in_set(c, un, gs, ngs, extra)) continue;
    const Op *uop = un->op;
    for (int i = 0; i < uop->nopnds; i++) {
      if (uop->opnds[i]->def != n->op) continue;
      if (reuse_edge(uop, i)) r.reuse = true;
    }
    if (!op_has_flag(uop->kind, OPF_EW) && uop->kind != OP_REDUCE) r.nonew = true;
    PathInfo s = path_info_memo(c, un, gs, ngs, extra, depth + 1, memo);
    r.paths += s.paths;
    if (r.paths > 1000) r.paths = 1000;
    r.reuse |= s.reuse;
    r.nonew |= s.nonew;
  }
  ptrmap_put(memo, n, (void *)(((uintptr_t)r.paths << 2 | (uintptr_t)r.reuse << 1 | (uintptr_t)r.nonew) + 1));
  return r;
}

/* The cost rule for an expensive producer x placed in the set. */
static bool recompute_ok(Ctx *c, Node *x, const int *gs, int ngs) {
  if (!is_expensive(x->op)) return true;
  /* users appear once per use; dedupe by counting distinct paths instead */
  PathInfo p = path_info(c, x, gs, ngs, x, 0);
  if (p.reuse) return false;
  return p.paths <= 1 || !p.nonew;
}

/* The dimensions every output of a loop group has; for a reduction group
   the reduce's input dimensions. */
static const Type *space_type(Ctx *c, int g) {
  Group *G = grp(c, g);
  if (G->kind == K_INPUT) return G->root->op->opnds[0]->type;
  return G->root->op->res[0].type;
}

static bool same_reduce_space(Ctx *c, int a, int b) {
  const Op *ra = grp(c, a)->root->op, *rb = grp(c, b)->root->op;
  if (!same_dims(ra->opnds[0]->type, rb->opnds[0]->type)) return false;
  int64_t *da, *db;
  int na = op_attr_ints(ra, "dimensions", &da), nb = op_attr_ints(rb, "dimensions", &db);
  if (na < 0 || na != nb) return false;
  for (int i = 0; i < na; i++)
    if (da[i] != db[i]) return false;
  return true;
}

/* Does a value of group b depend on one of group a? */
static bool group_reaches(Ctx *c, int a, int b) {
  bump_epoch(c);
  NodeVec stack = {0};
  NodeVec *ma = &grp(c, a)->members;
  for (int i = 0; i < ma->len; i++)
    for (int u = 0; u < ma->data[i]->users.len; u++) VEC_PUSH(stack, ma->data[i]->users.data[u]);
  bool found = false;
  while (stack.len && !found) {
    Node *n = stack.data[--stack.len];
    if (n->mark == c->epoch) continue;
    n->mark = c->epoch;
    found = n->group == b;
    for (int u = 0; u < n->users.len; u++) VEC_PUSH(stack, n->users.data[u]);
  }
  VEC_FREE(stack);
  return found;
}

/* May groups a and b share one iteration space (and so be one fusion)?
   Reductions must also be independent: one kernel folds all its reduces in
   the same pass, so none may read another's result (softmax's max and sum
   read the same rows, but the sum needs the max first). */
static bool compatible(Ctx *c, int a, int b) {
  Group *A = grp(c, a), *B = grp(c, b);
  if (A->kind != B->kind || A->kind == K_OUTPUT) return false;
  if (A->kind == K_INPUT)
    return same_reduce_space(c, a, b) && !group_reaches(c, a, b) && !group_reaches(c, b, a);
  return same_dims(space_type(c, a), space_type(c, b));
}

static void merge_into(Ctx *c, int dst, int src) {
  Group *S = grp(c, src);
  for (int i = 0; i < S->members.len; i++) add_member(c, dst, S->members.data[i]);
  VEC_FREE(S->members);
  S->dead = true;
}

/* ---- deciding one producer ---- */

/* Clone x for group g: g's users of x read the clone instead. */
static void duplicate_into(Ctx *c, Node *x, int g) {
  PtrMap map = {0};
  Op *clone = op_clone(c->m, x->op, &map);
  ptrmap_free(&map);
  block_insert_before(c->b, x->op, clone);
  Node *cn = new_node(c, clone, x->pos);
  for (int i = 0; i < x->users.len;) {
    Node *u = x->users.data[i];
    if (u->group == g) {
      for (int j = 0; j < u->op->nopnds; j++)
        if (u->op->opnds[j] == &x->op->res[0]) u->op->opnds[j] = &clone->res[0];
      VEC_PUSH(cn->users, u);
      x->users.data[i] = x->users.data[--x->users.len];
    } else {
      i++;
    }
  }
  add_uses(c, cn);
  add_member(c, g, cn);
}

static void erase_node(Ctx *c, Node *x) {
  for (int i = 0; i < x->op->nopnds; i++) {
    Node *d = def_node(c, x->op->opnds[i]);
    if (d) remove_user(d, x);
  }
  op_erase(x->op);
  x->dead = true;
}

/* Does the cpu backend compute op with a call per element, which keeps
   its loop scalar?  Complex functions (anything on complex values but
   arithmetic, compares and moves: emit_complex.c calls libm), f64 pow, and
   the CHLO special functions computed by the interpreter's own routines
   (f64 lgamma, bessel_i1e, igamma(c), polygamma, zeta: emit_scalar.c).
   Every other elementwise op has a vector path, the transcendentals
   through codegen/math_approx.c. */
static bool scalar_only(const Op *op) {
  if (!op_has_flag(op->kind, OPF_EW) || op->nopnds == 0) return false;
  const Type *t = op->opnds[0]->type;
  if (t->kind != TY_TENSOR) return false;
  ElemType et = t->elem;
  switch (op->kind) {
  case OP_ADD: case OP_SUBTRACT: case OP_MULTIPLY: case OP_NEGATE: case OP_COMPARE: case OP_SELECT:
  case OP_CONVERT: case OP_COPY: case OP_REAL: case OP_IMAG: case OP_COMPLEX: case OP_BITCAST_CONVERT:
  case OP_MAXIMUM: case OP_MINIMUM: case OP_CLAMP: case OP_CHLO_CONJ: case OP_CHLO_SQUARE:
    return false;
  case OP_POWER: return et == ET_F64 || et_is_complex(et);
  case OP_CHLO_LGAMMA: return et == ET_F64;
  case OP_CHLO_BESSEL_I1E: case OP_CHLO_IGAMMA: case OP_CHLO_IGAMMAC: case OP_CHLO_POLYGAMMA:
  case OP_CHLO_ZETA:
    return true;
  default: return et_is_complex(et);
  }
}

/* Single output of a kLoop group about to take a dot: the dot's result
   must reach it through elementwise ops only, and every op of the group
   must have a vector path.  An epilogue runs over the product after the
   GEMM has written it, so a scalar one costs what a separate loop costs
   and saves nothing; the product is kept apart, as a GEMM of its own. */
static bool epilogue_ok(Ctx *c, Node *dot, int g) {
  Group *G = grp(c, g);
  if (G->kind != K_LOOP) return false;
  for (int i = 0; i < G->members.len; i++)
    if (scalar_only(G->members.data[i]->op)) return false;
  int gs[1] = {g};
  int nout = 0;
  Node *out = NULL;
  for (int i = 0; i < G->members.len; i++)
    if (has_outside_user(c, G->members.data[i], gs, 1, dot)) {
      nout++;
      out = G->members.data[i];
    }
  if (nout != 1 || !same_dims(out->op->res[0].type, dot->op->res[0].type)) return false;
  PathInfo p = path_info(c, dot, gs, 1, dot, 0);
  return !p.reuse && !p.nonew;
}

/* x written to memory for the users outside the groups it joined.  A
   gather stays an op of its own there, lowered as a copy per slice (the
   cpu backend's gather kernel), its indices computed apart. */
static void own_group(Ctx *c, Node *x) {
  if (x->op->kind != OP_GATHER) new_group(c, x, K_LOOP);
}

/* Places producer x given its consumer groups gs and its number of external
   users; every user of x is in one of gs or counted in next. */
static void place(Ctx *c, Node *x, bool contraction, int *gs, int ngs, int next) {
  Op *op = x->op;
  if (contraction) {
    if (ngs == 1 && next == 0 && epilogue_ok(c, x, gs[0]) && within_limits(c, gs, 1, x)) {
      add_member(c, gs[0], x);
      grp(c, gs[0])->kind = K_OUTPUT;
    }
    return;
  }
  if (ngs == 0) {
    own_group(c, x);
    return;
  }
  if (ngs == 1 && within_limits(c, gs, 1, x) && recompute_ok(c, x, gs, 1)) {
    if (next == 0) {
      add_member(c, gs[0], x);
      return;
    }
    /* an extra output, but never a constant's: a copy of it in the group
       costs nothing, and the other users keep reading the constant (a
       loop's bound or step stays one, as counted loops need) */
    if (op->kind != OP_CONSTANT && grp(c, gs[0])->kind == K_LOOP && same_dims(op->res[0].type, space_type(c, gs[0])) &&
        !would_cycle(c, gs, 1, x)) {
      add_member(c, gs[0], x);
      return;
    }
  }
  if (!is_expensive(op)) {
    int kept = next;
    for (int k = 0; k < ngs; k++) {
      if (within_limits(c, &gs[k], 1, x))
        duplicate_into(c, x, gs[k]);
      else
        kept++;
    }
    if (kept == 0)
      erase_node(c, x);
    else
      own_group(c, x);
    return;
  }
  if (ngs >= 2 && next == 0) {
    bool ok = true;
    for (int k = 1; k < ngs && ok; k++) ok = compatible(c, gs[0], gs[k]);
    ok = ok && within_limits(c, gs, ngs, x) && recompute_ok(c, x, gs, ngs) &&
         !would_cycle(c, gs, ngs, x);
    if (ok) {
      for (int k = 1; k < ngs; k++) merge_into(c, gs[0], gs[k]);
      add_member(c, gs[0], x);
      return;
    }
  }
  own_group(c, x);
}

static void decide(Ctx *c, Node *x) {
  Op *op = x->op;
  if (is_simple_reduce(op)) {
    new_group(c, x, K_INPUT);
    return;
  }
  bool contraction = is_contraction(op);
  if (!contraction && !is_loop_op(op)) return;
  /* all the consumer groups, however many: a cheap producer is erased once
     it is duplicated into each of them, so a group left out would read an
     erased value (a zero used as the init of many reductions) */
  VEC(int) gs = {0};
  int next = 0;
  for (int i = 0; i < x->users.len; i++) {
    Node *u = x->users.data[i];
    if (u->group < 0 || !fusible_use(x, u)) {
      next++;
      continue;
    }
    bool seen = false;
    for (int k = 0; k < gs.len && !seen; k++) seen = gs.data[k] == u->group;
    if (!seen) VEC_PUSH(gs, u->group);
  }
  place(c, x, contraction, gs.data, gs.len, next);
  VEC_FREE(gs);
}

/* ---- sibling (multi-output) merging ---- */

static bool shares_big_input(Ctx *c, int a, int b) {
  Group *A = grp(c, a), *B = grp(c, b);
  for (int i = 0; i < A->members.len; i++) {
    const Op *oa = A->members.data[i]->op;
    for (int j = 0; j < oa->nopnds; j++) {
      const Value *v = oa->opnds[j];
      if (nelems(v->type) <= 1) continue;
      Node *d = def_node(c, v);
      if (d && d->group == a) continue;
      for (int k = 0; k < B->members.len; k++) {
        const Op *ob = B->members.data[k]->op;
        for (int l = 0; l < ob->nopnds; l++)
          if (ob->opnds[l] == v) return true;
      }
    }
  }
  return false;
}

static void merge_siblings(Ctx *c) {
  for (int a = 0; a < c->groups.len; a++) {
    for (int b = a + 1; b < c->groups.len; b++) {
      if (grp(c, a)->dead) break;
      if (grp(c, b)->dead || !compatible(c, a, b) || !shares_big_input(c, a, b)) continue;
      int gs[2] = {a, b};
      if (!within_limits(c, gs, 2, NULL) || would_cycle(c, gs, 2, NULL)) continue;
      merge_into(c, a, b);
    }
  }
}

/* ---- row fusions ----
 * Softmax, layernorm and friends reduce each row of a tensor, then use the
 * per-row results on the same rows again, often reducing once more.  As
 * separate fusions every stage reads the rows from memory; a row fits in
 * the L1 cache, so one kernel that runs all stages row by row reads each
 * row from memory once.  A row cluster is a set of the groups formed above
 * (stages): reductions over the same rows, and loop groups whose values are
 * whole rows or one value per row, connected by producer-consumer edges,
 * where every value passed between stages is read only at its own row. */

enum { MAX_ROW_ELEMS = 16384, MAX_ROW_BYTES = 64 * 1024 };

static int cmp_nodes(const void *pa, const void *pb);

/* The rows a reduce works on: its reduced dims are the trailing dims of its
   input and at most one of them is longer than 1, so a row is contiguous
   and the reduction kernel blocks it as one piece (<= 16384 elements). */
static bool reduce_rows(const Op *op, int64_t *nrows, int64_t *D) {
  if (op->kind != OP_REDUCE || op->nopnds < 2 || op->nres < 1) return false;
  const Type *t = op->opnds[0]->type;
  if (!plain_tensor(t) || t->rank > 64) return false;
  int64_t *dims;
  int nd = op_attr_ints(op, "dimensions", &dims);
  if (nd < 1 || nd > t->rank) return false;
  uint64_t seen = 0;
  int64_t d = 1;
  int nonunit = 0;
  for (int i = 0; i < nd; i++) {
    int64_t x = dims[i];
    if (x < t->rank - nd || x >= t->rank || (seen >> x & 1)) return false;
    seen |= 1ULL << x;
    d *= t->dims[x];
    nonunit += t->dims[x] > 1;
  }
  int64_t n = nelems(t);
  if (nonunit > 1 || d < 1 || n < 1) return false;
  *D = d;
  *nrows = n / d;
  return true;
}

/* The first of the trailing dims of t whose sizes multiply to D, or -1. */
static int row_split(const Type *t, int64_t D) {
  int s = t->rank;
  int64_t p = 1;
  while (p < D && s > 0) p *= t->dims[--s];
  return p == D ? s : -1;
}

/* One value per row, or nrows rows of D in row-major order. */
static bool row_value(const Type *t, int64_t nrows, int64_t D) {
  if (!plain_tensor(t)) return false;
  int64_t n = nelems(t);
  return n == nrows || (n == nrows * D && row_split(t, D) >= 0);
}

/* Does broadcast_in_dim op read, for every element, its operand at the
   same row?  Either it keeps the linear order (only unit dims change), or
   it spreads one value per row over the row. */
static bool broadcast_rows_ok(const Op *op, int64_t nrows, int64_t D) {
  const Type *t = op->opnds[0]->type, *rt = op->res[0].type;
  int64_t *bd;
  if (op_attr_ints(op, "broadcast_dimensions", &bd) != t->rank) return false;
  int limit = rt->rank;
  if (nelems(t) != nelems(rt)) {
    if (nelems(t) != nrows || nelems(rt) != nrows * D) return false;
    limit = row_split(rt, D);
  }
  int64_t last = -1;
  for (int i = 0; i < t->rank; i++) {
    if (t->dims[i] == 1) continue;
    if (bd[i] <= last || bd[i] >= limit || rt->dims[bd[i]] != t->dims[i]) return false;
    last = bd[i];
  }
  return true;
}

/* The rule every op of a row fusion obeys (also checked by the code
   generator, kernel_row.c): rowish[i] says operand i is a value of the row
   being computed (a stage's result, or computed from one); the op must
   read such operands only at the row of the element it computes.  A
   reduce must reduce exactly the rows. */
bool row_fusion_op_ok(const Op *op, const bool *rowish, int64_t nrows, int64_t D) {
  if (op->nres != 1 || op->nregions > (op->kind == OP_REDUCE) || !row_value(op->res[0].type, nrows, D))
    return false;
  if (op->kind == OP_REDUCE) {
    int64_t nr, d;
    if (op->nopnds != 2 || rowish[1] || !reduce_rows(op, &nr, &d)) return false;
    return nr == nrows && d == D;
  }
  for (int i = 0; i < op->nopnds; i++) {
    if (!rowish[i]) continue;
    const Type *t = op->opnds[i]->type;
    if (!row_value(t, nrows, D)) return false;
    if (op->kind == OP_RESHAPE) continue; /* the linear order is the row order */
    if (op->kind == OP_BROADCAST_IN_DIM && broadcast_rows_ok(op, nrows, D)) continue;
    if (op_has_flag(op->kind, OPF_EW) && same_dims(t, op->res[0].type)) continue;
    return false;
  }
  return true;
}

static bool row_elem_ok(ElemType et) { return !et_is_complex(et) && (!et_is_float(et) || et_bits(et) >= 16); }

static bool group_elems_ok(Ctx *c, int g) {
  Group *G = grp(c, g);
  for (int i = 0; i < G->members.len; i++) {
    const Op *op = G->members.data[i]->op;
    for (int r = 0; r < op->nres; r++)
      if (!row_elem_ok(op->res[r].type->elem)) return false;
  }
  return true;
}

/* A reduction group whose reduces all work on the same short rows. */
static bool row_reduce_group(Ctx *c, int g, int64_t *nrows, int64_t *D) {
  Group *G = grp(c, g);
  if (G->dead || G->kind != K_INPUT || !group_elems_ok(c, g)) return false;
  bool any = false;
  for (int i = 0; i < G->members.len; i++) {
    const Op *op = G->members.data[i]->op;
    if (op->kind != OP_REDUCE) continue;
    int64_t nr, d;
    if (!reduce_rows(op, &nr, &d) || (any && (nr != *nrows || d != *D))) return false;
    *nrows = nr;
    *D = d;
    any = true;
  }
  return any && *D <= MAX_ROW_ELEMS;
}

/* A loop group computing whole rows, or one value per row. */
static bool row_loop_group(Ctx *c, int g, int64_t nrows, int64_t D) {
  Group *G = grp(c, g);
  if (G->dead || G->kind != K_LOOP || G->root->op->kind == OP_CONSTANT || !group_elems_ok(c, g)) return false;
  return row_value(space_type(c, g), nrows, D);
}

static bool in_list(const int *gs, int n, int g) {
  for (int i = 0; i < n; i++)
    if (gs[i] == g) return true;
  return false;
}

/* Is group h a producer or a consumer of the set gs? */
static bool adjacent(Ctx *c, const int *gs, int ngs, int h) {
  NodeVec *mh = &grp(c, h)->members;
  for (int i = 0; i < mh->len; i++)
    for (int u = 0; u < mh->data[i]->users.len; u++)
      if (in_list(gs, ngs, mh->data[i]->users.data[u]->group)) return true;
  for (int k = 0; k < ngs; k++) {
    NodeVec *mg = &grp(c, gs[k])->members;
    for (int i = 0; i < mg->len; i++)
      for (int u = 0; u < mg->data[i]->users.len; u++)
        if (mg->data[i]->users.data[u]->group == h) return true;
  }
  return false;
}

/* Do the groups gs, as stages of one row kernel, read every value another
   stage computes only at its own row, and is every value passed between
   stages (kept in a row buffer) or written out whole rows or one value per
   row? */
static bool rows_local(Ctx *c, const int *gs, int ngs, int64_t nrows, int64_t D) {
  NodeVec mem = {0};
  for (int k = 0; k < ngs; k++) {
    NodeVec *m = &grp(c, gs[k])->members;
    for (int i = 0; i < m->len; i++) VEC_PUSH(mem, m->data[i]);
  }
  qsort(mem.data, (size_t)mem.len, sizeof(Node *), cmp_nodes);
  PtrMap rowish = {0};
  bool ok = true;
  for (int i = 0; i < mem.len && ok; i++) {
    Node *n = mem.data[i];
    Op *op = n->op;
    bool *rw = xcalloc((size_t)op->nopnds + 1, sizeof(bool));
    bool any = false;
    for (int j = 0; j < op->nopnds; j++) {
      Value *v = op->opnds[j];
      Node *d = def_node(c, v);
      rw[j] = d && in_list(gs, ngs, d->group) && (d->group != n->group || ptrmap_has(&rowish, v));
      any |= rw[j];
    }
    if (any || op->kind == OP_REDUCE) {
      ok = row_fusion_op_ok(op, rw, nrows, D);
      if (ok) ptrmap_put(&rowish, &op->res[0], (void *)1);
    }
    xfree(rw);
    int own[1] = {n->group};
    if (ok && has_outside_user(c, n, own, 1, NULL)) {
      const Type *t = op->res[0].type;
      ok = op->nres == 1 && row_value(t, nrows, D) &&
           (nelems(t) == nrows || D * et_bytes(t->elem) <= MAX_ROW_BYTES);
    }
  }
  ptrmap_free(&rowish);
  VEC_FREE(mem);
  return ok;
}

/* Is the cluster worth a row kernel: does a stage over whole rows (a
   reduction, or a loop over rows) use a reduction's result, so that the
   rows would otherwise be read again? */
static bool rows_reread(Ctx *c, const int *gs, int ngs, int64_t nrows, int64_t D) {
  bool *reached = xcalloc((size_t)ngs, sizeof(bool));
  bool found = false;
  /* reached: stages that depend on a reduction stage, by users' edges */
  for (bool grew = true; grew && !found;) {
    grew = false;
    for (int k = 0; k < ngs; k++) {
      Group *G = grp(c, gs[k]);
      if (G->kind != K_INPUT && !reached[k]) continue;
      for (int i = 0; i < G->members.len; i++) {
        Node *n = G->members.data[i];
        for (int u = 0; u < n->users.len; u++) {
          int h = n->users.data[u]->group;
          for (int j = 0; j < ngs; j++) {
            if (gs[j] != h || h == gs[k] || reached[j]) continue;
            reached[j] = grew = true;
            Group *H = grp(c, h);
            found |= H->kind == K_INPUT || (D > 1 && nelems(space_type(c, h)) == nrows * D);
          }
        }
      }
    }
  }
  xfree(reached);
  return found;
}

/* Grows a row cluster from each row reduction group by adding adjacent
   stages while the union stays within the limits, acyclic and row-local.
   A cluster is kept when a reduction's result is used over whole rows
   again (rows_reread).  cluster_of[g]: the cluster of group
   g, or -1. */
static void find_row_clusters(Ctx *c, int *cluster_of) {
  int ncl = 0;
  VEC(int) gs = {0};
  for (int g = 0; g < c->groups.len; g++) {
    int64_t nrows = 0, D = 0;
    if (cluster_of[g] >= 0 || !row_reduce_group(c, g, &nrows, &D)) continue;
    gs.len = 0;
    VEC_PUSH(gs, g);
    for (bool grew = true; grew;) {
      grew = false;
      for (int h = 0; h < c->groups.len; h++) {
        int64_t nr = 0, d = 0;
        if (cluster_of[h] >= 0 || in_list(gs.data, gs.len, h) || grp(c, h)->dead) continue;
        if (!(row_reduce_group(c, h, &nr, &d) && nr == nrows && d == D) && !row_loop_group(c, h, nrows, D))
          continue;
        if (!adjacent(c, gs.data, gs.len, h)) continue;
        VEC_PUSH(gs, h);
        if (within_limits(c, gs.data, gs.len, NULL) && !would_cycle(c, gs.data, gs.len, NULL) &&
            rows_local(c, gs.data, gs.len, nrows, D))
          grew = true;
        else
          gs.len--;
      }
    }
    if (!rows_reread(c, gs.data, gs.len, nrows, D)) continue;
    for (int k = 0; k < gs.len; k++) cluster_of[gs.data[k]] = ncl;
    ncl++;
  }
  VEC_FREE(gs);
}

/* ---- outlining ---- */

static int cmp_nodes(const void *pa, const void *pb) {
  const Node *a = *(Node *const *)pa, *b = *(Node *const *)pb;
  if (a->pos != b->pos) return a->pos < b->pos ? -1 : 1;
  return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static char *fused_name(Ctx *c) {
  for (;;) {
    int k = (*c->counter)++;
    char *name = k ? xasprintf("fused_computation.%d", k) : xstrdup("fused_computation");
    if (!module_find_func(c->m, name)) return name;
    xfree(name);
  }
}

typedef struct Item {
  Op *op;
  int prio;
  int seq;
} Item;

/* Moves ops (in a valid order) into a new private function reading ins and
   returning outs, and puts a call of it with fusion kind `kind` into the
   block before `at`; the ops are erased.  Returns the call. */
static Op *make_fusion(Ctx *c, Op *const *ops, int nops, Value *const *ins, int nins, Value *const *outs,
                       int nouts, const char *kind, Op *at) {
  Module *m = c->m;
  char *name = fused_name(c);
  Op *root = ops[nops - 1];
  Func *f = func_new(m, name, root->loc);
  xfree(name);
  f->is_private = true;
  PtrMap map = {0};
  for (int i = 0; i < nins; i++) {
    Value *a = block_add_arg(m, f->body, ins[i]->type, NULL);
    ptrmap_put(&map, ins[i], a);
  }
  for (int i = 0; i < nops; i++) block_append(f->body, op_clone(m, ops[i], &map));
  Value **rets = xmalloc(sizeof(Value *) * (size_t)nouts);
  Type **rtypes = ARENA_ARRAY(&m->arena, Type *, nouts);
  for (int i = 0; i < nouts; i++) {
    rets[i] = ptrmap_get(&map, outs[i]);
    rtypes[i] = outs[i]->type;
  }
  block_append(f->body, op_new(m, OP_FUNC_RETURN, nouts, rets, 0, NULL, root->loc));
  f->nresults = nouts;
  f->result_types = rtypes;
  ptrmap_free(&map);
  xfree(rets);

  Op *call = op_new(m, OP_CALL, nins, (Value **)ins, nouts, rtypes, root->loc);
  op_set_attr(m, call, "callee", attr_symbol(m, f->name));
  op_set_attr(m, call, "fusion_kind", attr_enum(m, "fusion_kind", kind));
  for (int i = 0; i < nouts; i++) {
    call->res[i].name = outs[i]->name;
    ptrmap_put(&c->fwd, outs[i], &call->res[i]);
  }
  /* in the block right away, so that later groups' replacements reach it */
  block_insert_before(c->b, at, call);
  for (int i = 0; i < nops; i++) op_erase(ops[i]);
  c->nfused++;
  return call;
}

/* Outlines group g; returns the call op and its priority (NULL when the
   group computes nothing used). */
static Op *outline(Ctx *c, int g, int *prio) {
  Group *G = grp(c, g);
  qsort(G->members.data, (size_t)G->members.len, sizeof(Node *), cmp_nodes);
  int gs[1] = {g};
  VEC(Value *) ins = {0};
  VEC(Value *) outs = {0};
  VEC(Op *) ops = {0};
  *prio = 0;
  for (int i = 0; i < G->members.len; i++) {
    Node *n = G->members.data[i];
    Op *op = n->op;
    fwd_op_tree(c, op);
    VEC_PUSH(ops, op);
    if (n->pos > *prio) *prio = n->pos;
    for (int j = 0; j < op->nopnds; j++) {
      Value *v = op->opnds[j];
      Node *d = def_node(c, v);
      if (d && d->group == g) continue;
      bool dup = false;
      for (int s = 0; s < ins.len && !dup; s++) dup = ins.data[s] == v;
      if (!dup) VEC_PUSH(ins, v);
    }
    if (has_outside_user(c, n, gs, 1, NULL)) VEC_PUSH(outs, &op->res[0]);
  }
  Op *call = NULL;
  /* no outputs: dead code, left to dce */
  if (outs.len)
    call = make_fusion(c, ops.data, ops.len, ins.data, ins.len, outs.data, outs.len, kind_names[G->kind],
                       ops.data[ops.len - 1]);
  VEC_FREE(ins);
  VEC_FREE(outs);
  VEC_FREE(ops);
  return call;
}

/* Outlines the items of a row cluster (the calls of its outlined groups and
   its single-op groups) into one fusion whose body runs them in a
   dependency order; priority: the latest of theirs. */
static Op *outline_row(Ctx *c, Op **items, const int *prios, int n, int *prio) {
  PtrMap at = {0}; /* item -> its index + 1 */
  for (int i = 0; i < n; i++) {
    ptrmap_put(&at, items[i], (void *)(intptr_t)(i + 1));
    fwd_op_tree(c, items[i]);
  }
  Op **order = xcalloc((size_t)n, sizeof(Op *));
  bool *done = xcalloc((size_t)n, sizeof(bool));
  *prio = 0;
  for (int k = 0; k < n; k++) {
    int pick = -1;
    for (int i = 0; i < n && pick < 0; i++) {
      if (done[i]) continue;
      bool ready = true;
      for (int j = 0; j < items[i]->nopnds && ready; j++) {
        intptr_t d = (intptr_t)ptrmap_get(&at, items[i]->opnds[j]->def);
        ready = !d || done[d - 1];
      }
      if (ready) pick = i;
    }
    assert(pick >= 0); /* the cluster was checked for cycles */
    done[pick] = true;
    order[k] = items[pick];
    if (prios[pick] > *prio) *prio = prios[pick];
  }
  VEC(Value *) ins = {0};
  VEC(Value *) outs = {0};
  for (int k = 0; k < n; k++) {
    Op *op = order[k];
    for (int j = 0; j < op->nopnds; j++) {
      Value *v = op->opnds[j];
      bool dup = ptrmap_has(&at, v->def);
      for (int s = 0; s < ins.len && !dup; s++) dup = ins.data[s] == v;
      if (!dup) VEC_PUSH(ins, v);
    }
  }
  /* results read by anything outside the cluster, regions included */
  PtrMap used = {0};
  VEC(Block *) stack = {0};
  VEC_PUSH(stack, c->b);
  while (stack.len) {
    Block *blk = stack.data[--stack.len];
    for (Op *op = blk->first; op; op = op->next) {
      if (blk == c->b && ptrmap_has(&at, op)) continue;
      op_forward_operands(op, &c->fwd);
      for (int j = 0; j < op->nopnds; j++) ptrmap_put(&used, op->opnds[j], (void *)1);
      for (int r = 0; r < op->nregions; r++) VEC_PUSH(stack, op->regions[r]);
    }
  }
  VEC_FREE(stack);
  for (int k = 0; k < n; k++)
    for (int r = 0; r < order[k]->nres; r++)
      if (ptrmap_has(&used, &order[k]->res[r])) VEC_PUSH(outs, &order[k]->res[r]);
  Op *call = NULL;
  if (outs.len) call = make_fusion(c, order, n, ins.data, ins.len, outs.data, outs.len, "kInput", order[n - 1]);
  ptrmap_free(&used);
  ptrmap_free(&at);
  VEC_FREE(ins);
  VEC_FREE(outs);
  xfree(order);
  xfree(done);
  return call;
}

/* ---- re-sorting the block ---- */

typedef VEC(int) IntVec;

static void collect_reads(const Block *blk, const PtrMap *item_of, int self, IntVec *deps) {
  for (const Op *op = blk->first; op; op = op->next) {
    for (int i = 0; i < op->nopnds; i++) {
      intptr_t k = (intptr_t)ptrmap_get(item_of, op->opnds[i]);
      if (k && k - 1 != self) VEC_PUSH(*deps, (int)(k - 1));
    }
    for (int r = 0; r < op->nregions; r++) collect_reads(op->regions[r], item_of, self, deps);
  }
}

static bool item_before(const Item *a, const Item *b) {
  return a->prio != b->prio ? a->prio < b->prio : a->seq < b->seq;
}

static void heap_push(Item **heap, int *n, Item *it) {
  int i = (*n)++;
  heap[i] = it;
  while (i > 0 && item_before(heap[i], heap[(i - 1) / 2])) {
    Item *t = heap[i];
    heap[i] = heap[(i - 1) / 2];
    heap[(i - 1) / 2] = t;
    i = (i - 1) / 2;
  }
}

static Item *heap_pop(Item **heap, int *n) {
  Item *top = heap[0];
  heap[0] = heap[--*n];
  int i = 0;
  for (;;) {
    int l = 2 * i + 1, r = l + 1, s = i;
    if (l < *n && item_before(heap[l], heap[s])) s = l;
    if (r < *n && item_before(heap[r], heap[s])) s = r;
    if (s == i) break;
    Item *t = heap[i];
    heap[i] = heap[s];
    heap[s] = t;
    i = s;
  }
  return top;
}

/* Re-links the block's ops (plus the new calls) in a topological order that
   follows the priorities where dependencies allow. */
static void resort(Ctx *c, Item *items, int n) {
  PtrMap item_of = {0};
  for (int i = 0; i < n; i++)
    for (int r = 0; r < items[i].op->nres; r++)
      ptrmap_put(&item_of, &items[i].op->res[r], (void *)(intptr_t)(i + 1));
  IntVec *succ = xcalloc((size_t)n, sizeof(IntVec));
  int *indeg = xcalloc((size_t)n, sizeof(int));
  int last_effect = -1;
  /* order edges between side-effecting ops, in their original order */
  Item **byprio = xmalloc(sizeof(Item *) * (size_t)n);
  int nh = 0;
  for (int i = 0; i < n; i++) heap_push(byprio, &nh, &items[i]);
  for (int k = 0; k < n; k++) {
    Item *it = heap_pop(byprio, &nh);
    int i = (int)(it - items);
    if (!order_sensitive(it->op)) continue;
    if (last_effect >= 0) {
      VEC_PUSH(succ[last_effect], i);
      indeg[i]++;
    }
    last_effect = i;
  }
  for (int i = 0; i < n; i++) {
    IntVec deps = {0};
    Op *op = items[i].op;
    for (int j = 0; j < op->nopnds; j++) {
      intptr_t k = (intptr_t)ptrmap_get(&item_of, op->opnds[j]);
      if (k && k - 1 != i) VEC_PUSH(deps, (int)(k - 1));
    }
    for (int r = 0; r < op->nregions; r++) collect_reads(op->regions[r], &item_of, i, &deps);
    for (int d = 0; d < deps.len; d++) {
      VEC_PUSH(succ[deps.data[d]], i);
      indeg[i]++;
    }
    VEC_FREE(deps);
  }
  nh = 0;
  for (int i = 0; i < n; i++)
    if (indeg[i] == 0) heap_push(byprio, &nh, &items[i]);
  c->b->first = c->b->last = NULL;
  int emitted = 0;
  while (nh) {
    Item *it = heap_pop(byprio, &nh);
    int i = (int)(it - items);
    block_append(c->b, it->op);
    emitted++;
    for (int s = 0; s < succ[i].len; s++)
      if (--indeg[succ[i].data[s]] == 0) heap_push(byprio, &nh, &items[succ[i].data[s]]);
  }
  assert(emitted == n); /* the merges never create cycles */
  for (int i = 0; i < n; i++) VEC_FREE(succ[i]);
  xfree(succ);
  xfree(indeg);
  xfree(byprio);
  ptrmap_free(&item_of);
}

/* ---- per block ---- */

static void fuse_block(Module *m, Block *b, int *counter, int *nfused, bool rows);

static void fuse_regions_of(Module *m, Block *b, int *counter, int *nfused, bool rows) {
  for (Op *op = b->first; op; op = op->next)
    if (op->kind == OP_WHILE || op->kind == OP_IF || op->kind == OP_CASE)
      for (int r = 0; r < op->nregions; r++) fuse_block(m, op->regions[r], counter, nfused, rows);
}

static void fuse_block(Module *m, Block *b, int *counter, int *nfused, bool rows) {
  Ctx c = {0};
  c.m = m;
  c.b = b;
  c.counter = counter;
  int pos = 0;
  for (Op *op = b->first; op; op = op->next) new_node(&c, op, pos++);
  Node *last_effect = NULL;
  for (int i = 0; i < c.nodes.len; i++) {
    Node *n = c.nodes.data[i];
    add_uses(&c, n);
    if (order_sensitive(n->op)) {
      if (last_effect) VEC_PUSH(last_effect->users, n);
      last_effect = n;
    }
  }
  int norig = c.nodes.len;
  for (int i = norig - 1; i >= 0; i--) decide(&c, c.nodes.data[i]);
  merge_siblings(&c);
  int ng = c.groups.len;
  int *cluster_of = xmalloc(sizeof(int) * (size_t)(ng + 1));
  for (int g = 0; g < ng; g++) cluster_of[g] = -1;
  if (rows) find_row_clusters(&c, cluster_of);

  PtrMap call_prio = {0};
  Op **item = xcalloc((size_t)ng + 1, sizeof(Op *)); /* what each group became */
  int *item_prio = xcalloc((size_t)ng + 1, sizeof(int));
  for (int g = 0; g < ng; g++) {
    Group *G = grp(&c, g);
    if (G->dead) continue;
    if (G->members.len < 2) {
      item[g] = G->members.data[0]->op;
      item_prio[g] = G->members.data[0]->pos;
      continue;
    }
    int prio = 0;
    Op *call = outline(&c, g, &prio);
    if (call) ptrmap_put(&call_prio, call, (void *)(intptr_t)prio);
    item[g] = call;
    item_prio[g] = prio;
  }
  /* row clusters: one fusion calling its stages */
  Op **row_items = xcalloc((size_t)ng + 1, sizeof(Op *));
  int *prios = xcalloc((size_t)ng + 1, sizeof(int));
  for (int k = 0;; k++) {
    int n = 0;
    bool any = false;
    for (int g = 0; g < ng; g++) {
      if (cluster_of[g] != k) continue;
      any = true;
      if (!item[g]) continue;
      row_items[n] = item[g];
      prios[n++] = item_prio[g];
    }
    if (!any) break;
    if (n < 2) continue;
    int prio = 0;
    Op *call = outline_row(&c, row_items, prios, n, &prio);
    if (call) ptrmap_put(&call_prio, call, (void *)(intptr_t)prio);
  }
  xfree(row_items);
  xfree(prios);
  xfree(item);
  xfree(item_prio);
  xfree(cluster_of);
  /* every use of an outlined result now names the fusion's */
  block_forward_operands(b, &c.fwd);
  ptrmap_free(&c.fwd);
  VEC(Item) items = {0};
  if (c.nfused) {
    int seq = 0;
    for (Op *op = b->first; op; op = op->next) {
      Node *n = node_of(&c, op);
      Item it = {op, n ? n->pos : (int)(intptr_t)ptrmap_get(&call_prio, op), seq++};
      if (op_has_flag(op->kind, OPF_TERM)) it.prio = pos + 1;
      VEC_PUSH(items, it);
    }
    resort(&c, items.data, items.len);
  }
  ptrmap_free(&call_prio);
  *nfused += c.nfused;
  VEC_FREE(items);
  for (int g = 0; g < c.groups.len; g++) VEC_FREE(c.groups.data[g].members);
  VEC_FREE(c.groups);
  for (int i = 0; i < c.nodes.len; i++) {
    VEC_FREE(c.nodes.data[i]->users);
    xfree(c.nodes.data[i]);
  }
  VEC_FREE(c.nodes);
  ptrmap_free(&c.node_of);
  fuse_regions_of(m, b, counter, nfused, rows);
}

int pass_fusion(Module *m, const PassOptions *o) {
  /* fused computations are left alone: their intermediates are registers */
  StrMap fused = {0};
  VEC(Func *) todo = {0};
  for (Func *f = m->funcs; f; f = f->next) VEC_PUSH(todo, f);
  /* names referenced by fusion calls anywhere */
  for (int i = 0; i < todo.len; i++) {
    VEC(Block *) stack = {0};
    VEC_PUSH(stack, todo.data[i]->body);
    while (stack.len) {
      Block *blk = stack.data[--stack.len];
      for (Op *op = blk->first; op; op = op->next) {
        if (op->kind == OP_CALL && op_attr(op, "fusion_kind") && op_attr_str(op, "callee"))
          strmap_put(&fused, op_attr_str(op, "callee"), (void *)1);
        for (int r = 0; r < op->nregions; r++) VEC_PUSH(stack, op->regions[r]);
      }
    }
    VEC_FREE(stack);
  }
  int counter = 0, nfused = 0;
  for (int i = 0; i < todo.len; i++) {
    Func *f = todo.data[i];
    if (strmap_get(&fused, f->name)) continue;
    fuse_block(m, f->body, &counter, &nfused, !(o && o->no_row_fusion));
  }
  VEC_FREE(todo);
  strmap_free(&fused);
  return nfused > 0;
}
