/*
 * control.c - TensorFlow control flow: function calls (inlined), the
 * functional While and If (regions built from library functions),
 * TensorLists (as tensors with a leading element dimension), and TF1
 * control flow.
 *
 * TF1 loops.  A frozen TF2 loop with lowered control flow (how Keras
 * recurrent layers freeze) is a frame: each loop variable is
 *
 *     Enter(init) -> Merge(Enter, NextIteration) -> Switch(Merge, LoopCond)
 *         Switch:0 -> Exit            (the value after the loop)
 *         Switch:1 -> ...body...      -> NextIteration -> back to the Merge
 *
 * and LoopCond is computed from the Merges.  The frame becomes one
 * stablehlo.while whose operands are the Enters' inputs: in the condition
 * region the Merges are the region's arguments and LoopCond's input is the
 * result; in the body region the Merges and the Switches' outputs are the
 * arguments and the NextIterations' inputs are the results.  Enters of
 * loop invariants (is_constant) pass their input through, captured from
 * the enclosing region.  The Exits are the while's results.  This is the
 * same functionalization tf2xla performs before it compiles such a graph.
 *
 * TF1 conditionals (Switch/Merge outside a loop's own variables) are
 * computed on both sides: a Switch passes its data to both outputs, and a
 * Merge selects between its inputs by the predicate of the Switch its
 * inputs come from.  Both branches run, which is right for the pure
 * computations frozen graphs hold.
 */
#include <string.h>

#include "frontends/tensorflow/tf_int.h"

/* ---- function calls ---- */
static const char *func_attr(TfCtx *c, const char *name) { return tf_node_func_attr(c->node, name); }

/* Lowers function fname with its arguments bound to args, in the current
   block (region building pushes the block first). */
static bool lower_function_body(TfCtx *c, const char *fname, Block *blk, int nargs, Value *const *args,
                                int *nres, Value ***res) {
  char *err = NULL;
  TfGraph *fg = tf_function_graph(c->L, fname, &err);
  if (!fg) {
    tf_error(c, "%s", err);
    xfree(err);
    return false;
  }
  if (fg->fdef && fg->fdef->signature && (int)fg->fdef->signature->n_input_arg != nargs)
    return tf_error(c, "function '%s' takes %zu arguments but is given %d", fname,
                    fg->fdef->signature->n_input_arg, nargs);
  if (!tf_inline_enter(c, fname, fg->nnodes)) return false;
  tf_scope_push(c->L, fg, 0, blk, args, nargs);
  Value **r = ARENA_ARRAY(&c->b.m->arena, Value *, fg->nrets + 1);
  bool ok = true;
  for (int i = 0; i < fg->nrets && ok; i++) {
    r[i] = tf_value(c->L, fg, fg->rets[i].node, fg->rets[i].out);
    ok = r[i] != NULL;
  }
  tf_scope_pop(c->L);
  tf_inline_leave(c->L);
  *nres = fg->nrets;
  *res = r;
  return ok;
}

bool tf_call_function(TfCtx *c, const char *fname, int nargs, Value *const *args, int *nres, Value ***res) {
  return lower_function_body(c, fname, c->b.blk, nargs, args, nres, res);
}

Block *tf_function_region(TfCtx *c, const char *fname, int nargs, Type *const *arg_types, int *nres) {
  Module *m = c->b.m;
  Block *blk = block_new(m);
  Value **args = ARENA_ARRAY(&m->arena, Value *, nargs + 1);
  for (int i = 0; i < nargs; i++) args[i] = block_add_arg(m, blk, arg_types[i], NULL);
  Value **res;
  if (!lower_function_body(c, fname, blk, nargs, args, nres, &res)) return NULL;
  block_append(blk, op_new(m, OP_RETURN, *nres, res, 0, NULL, c->b.loc));
  return blk;
}

static bool lower_call(TfCtx *c) {
  const char *f = func_attr(c, "f");
  if (!f) return tf_error(c, "the function attribute 'f' is missing");
  int nres;
  Value **res;
  if (!tf_call_function(c, f, c->nin, c->in, &nres, &res)) return false;
  for (int i = 0; i < nres; i++) tf_out(c, res[i]);
  return true;
}

/* A boolean scalar for a while condition or an if: TensorFlow converts a
   non-boolean or a one-element tensor. */
static Value *scalar_pred(TfCtx *c, Builder *b, Value *v) {
  const Type *t = v->type;
  if (type_num_elements(t) != 1) {
    tf_error(c, "the condition must have one element, it has shape %s", tf_type_str(c, t));
    return NULL;
  }
  if (t->rank) v = bld_reshape(b, v, 0, NULL);
  if (v->type->elem != ET_PRED) v = bld_compare(b, v, bld_const_f(b, v->type, 0), "NE");
  return v;
}

/* While / StatelessWhile: cond and body are library functions. */
static bool lower_while(TfCtx *c) {
  const char *cond = func_attr(c, "cond"), *body = func_attr(c, "body");
  if (!cond || !body) return tf_error(c, "the 'cond' and 'body' function attributes are required");
  Module *m = c->b.m;
  int n = c->nin;
  Type **types = ARENA_ARRAY(&m->arena, Type *, n + 1);
  for (int i = 0; i < n; i++) types[i] = c->in[i]->type;
  int ncr, nbr;
  Block *cb = tf_function_region(c, cond, n, types, &ncr);
  if (!cb) return false;
  if (ncr != 1) return tf_error(c, "the condition function '%s' returns %d values, not 1", cond, ncr);
  Op *ret = block_terminator(cb);
  Builder bb = {m, cb, ret, c->b.loc};
  Value *p = scalar_pred(c, &bb, ret->opnds[0]);
  if (!p) return false;
  ret->opnds[0] = p;
  Block *bodyb = tf_function_region(c, body, n, types, &nbr);
  if (!bodyb) return false;
  if (nbr != n) return tf_error(c, "the body function '%s' returns %d values for %d loop variables", body, nbr, n);
  ret = block_terminator(bodyb);
  for (int i = 0; i < n; i++)
    if (!type_equal(ret->opnds[i]->type, types[i]))
      return tf_error(c, "loop variable %d changes from %s to %s in the body; xlac needs static shapes", i,
                      tf_type_str(c, types[i]), tf_type_str(c, ret->opnds[i]->type));
  Op *w = op_new(m, OP_WHILE, n, c->in, n, types, c->b.loc);
  op_add_region(m, w, cb);
  op_add_region(m, w, bodyb);
  block_insert_before(c->b.blk, c->b.at, w);
  for (int i = 0; i < n; i++) tf_out(c, &w->res[i]);
  return true;
}

/* If / StatelessIf: input 0 is the condition, the rest the branches'
   arguments (captured by the regions). */
static bool lower_if(TfCtx *c) {
  const char *tb = func_attr(c, "then_branch"), *eb = func_attr(c, "else_branch");
  if (!tb || !eb) return tf_error(c, "the 'then_branch' and 'else_branch' function attributes are required");
  if (c->nin < 1) return tf_error(c, "the condition input is missing");
  Module *m = c->b.m;
  Value *p = scalar_pred(c, &c->b, c->in[0]);
  if (!p) return false;
  Block *blk[2];
  Value **res[2];
  int nres[2];
  const char *names[2] = {tb, eb};
  for (int k = 0; k < 2; k++) {
    blk[k] = block_new(m);
    if (!lower_function_body(c, names[k], blk[k], c->nin - 1, c->in + 1, &nres[k], &res[k])) return false;
  }
  if (nres[0] != nres[1])
    return tf_error(c, "the branches return %d and %d values", nres[0], nres[1]);
  Type **types = ARENA_ARRAY(&m->arena, Type *, nres[0] + 1);
  for (int i = 0; i < nres[0]; i++) {
    types[i] = res[0][i]->type;
    if (!type_equal(types[i], res[1][i]->type))
      return tf_error(c, "result %d is %s in one branch and %s in the other; xlac needs static shapes", i,
                      tf_type_str(c, types[i]), tf_type_str(c, res[1][i]->type));
  }
  for (int k = 0; k < 2; k++) block_append(blk[k], op_new(m, OP_RETURN, nres[k], res[k], 0, NULL, c->b.loc));
  Op *op = op_new(m, OP_IF, 1, &p, nres[0], types, c->b.loc);
  op_add_region(m, op, blk[0]);
  op_add_region(m, op, blk[1]);
  block_insert_before(c->b.blk, c->b.at, op);
  for (int i = 0; i < nres[0]; i++) tf_out(c, &op->res[i]);
  return true;
}

/* ---- TensorLists: a tensor [num_elements, element...] ---- */
static bool list_elem_type(TfCtx *c, ElemType *et) { return tf_attr_type(c, "element_dtype", et); }

static bool lower_list_reserve(TfCtx *c) {
  ElemType et;
  int64_t *shape, *num;
  int rank, nn;
  if (!list_elem_type(c, &et) || !tf_const_ints(c, 0, "the element shape", &shape, &rank) ||
      !tf_const_ints(c, 1, "the number of elements", &num, &nn))
    return false;
  if (nn != 1 || num[0] < 0) return tf_error(c, "the number of elements must be a non-negative scalar");
  if (c->in[0]->type->rank == 0) return tf_error(c, "the element shape must be known (it is of unknown rank)");
  int64_t dims[65];
  dims[0] = num[0];
  for (int i = 0; i < rank; i++) {
    if (shape[i] < 0) return tf_error(c, "the element shape must be fully known, dimension %d is not", i);
    dims[i + 1] = shape[i];
  }
  Value *zero = tf_scalar(c, et, 0);
  tf_out(c, bld_splat(&c->b, zero, tf_type(c, et, rank + 1, dims)));
  return true;
}

static bool lower_list_from_tensor(TfCtx *c) {
  if (c->in[0]->type->rank < 1) return tf_error(c, "the tensor must have a leading dimension to split");
  tf_out(c, c->in[0]);
  return true;
}

/* The index as a scalar of the list's index type. */
static Value *list_index(TfCtx *c, Value *idx) {
  if (idx->type->rank) idx = bld_reshape(&c->b, idx, 0, NULL);
  return idx;
}

static bool lower_list_get(TfCtx *c) {
  Value *list = c->in[0];
  const Type *t = list->type;
  if (t->rank < 1) return tf_error(c, "the list is not a list of tensors");
  Module *m = c->b.m;
  Value **opnds = ARENA_ARRAY(&m->arena, Value *, t->rank + 1);
  opnds[0] = list;
  opnds[1] = list_index(c, c->in[1]);
  Value *zero = tf_iscalar(c, opnds[1]->type->elem, 0);
  for (int i = 1; i < t->rank; i++) opnds[i + 1] = zero;
  int64_t sizes[64];
  sizes[0] = 1;
  for (int i = 1; i < t->rank; i++) sizes[i] = t->dims[i];
  StrBuf b = {0};
  sb_puts(&b, "{slice_sizes = array<i64: ");
  for (int i = 0; i < t->rank; i++) sb_printf(&b, "%s%lld", i ? ", " : "", (long long)sizes[i]);
  sb_puts(&b, ">}");
  Value *s = tf_op(c, OP_DYNAMIC_SLICE, t->rank + 1, opnds, tf_type(c, t->elem, t->rank, sizes), "%s", b.data);
  sb_free(&b);
  if (!s) return false;
  tf_out(c, bld_reshape(&c->b, s, t->rank - 1, t->dims + 1));
  return true;
}

static bool lower_list_set(TfCtx *c) {
  Value *list = c->in[0], *item = c->in[2];
  const Type *t = list->type;
  if (t->rank < 1 || item->type->rank != t->rank - 1)
    return tf_error(c, "the item's rank does not match the list's elements");
  for (int i = 1; i < t->rank; i++)
    if (item->type->dims[i - 1] != t->dims[i])
      return tf_error(c, "the item's shape %s does not match the list's elements", tf_type_str(c, item->type));
  Module *m = c->b.m;
  int64_t dims[64];
  dims[0] = 1;
  for (int i = 1; i < t->rank; i++) dims[i] = t->dims[i];
  Value **opnds = ARENA_ARRAY(&m->arena, Value *, t->rank + 2);
  opnds[0] = list;
  opnds[1] = bld_reshape(&c->b, item, t->rank, dims);
  opnds[2] = list_index(c, c->in[1]);
  Value *zero = tf_iscalar(c, opnds[2]->type->elem, 0);
  for (int i = 1; i < t->rank; i++) opnds[i + 2] = zero;
  Value *r = tf_op(c, OP_DYNAMIC_UPDATE_SLICE, t->rank + 2, opnds, (Type *)t, NULL);
  if (!r) return false;
  tf_out(c, r);
  return true;
}

static bool lower_list_stack(TfCtx *c) {
  tf_out(c, c->in[0]);
  return true;
}

static bool lower_list_length(TfCtx *c) {
  tf_out(c, tf_iscalar(c, ET_S32, c->in[0]->type->rank ? c->in[0]->type->dims[0] : 0));
  return true;
}

/* ---- TF1 control flow ---- */
static bool lower_identity_like(TfCtx *c) {
  if (c->nin < 1) return tf_error(c, "the input is missing");
  tf_out(c, c->in[0]);
  return true;
}

/* Switch outside a loop's variables: both outputs carry the data. */
static bool lower_switch(TfCtx *c) {
  if (c->nin != 2) return tf_error(c, "a Switch takes data and a predicate");
  tf_out(c, c->in[0]);
  tf_out(c, c->in[0]);
  return true;
}

/* The Switch (and its port) nearest to node k upstream, through data and
   control inputs; -1 when there is none within the frame. */
static int switch_above(const TfGraph *g, int k, int *port) {
  int nn = g->nnodes;
  uint8_t *seen = xcalloc((size_t)nn + 1, 1);
  int *queue = xmalloc(sizeof(int) * (size_t)(nn + 1)), *qport = xmalloc(sizeof(int) * (size_t)(nn + 1));
  int qh = 0, qt = 0, found = -1;
  queue[qt] = k;
  qport[qt++] = -1;
  seen[k] = 1;
  while (qh < qt && found < 0) {
    int j = queue[qh++];
    const TfNode *n = &g->nodes[j];
    for (int i = 0; i < n->ninputs + n->nctrl && found < 0; i++) {
      int src = i < n->ninputs ? n->inputs[i].node : n->ctrl[i - n->ninputs];
      int out = i < n->ninputs ? n->inputs[i].out : -1;
      if (seen[src]) continue;
      seen[src] = 1;
      if (!strcmp(g->nodes[src].op, "Switch")) {
        if (out < 0) {
          /* a control edge from a Switch: find which port through an
             Identity is not possible; take the data port of the user */
          continue;
        }
        found = src;
        *port = out;
        break;
      }
      if (!strcmp(g->nodes[src].op, "Merge") || !strcmp(g->nodes[src].op, "Enter")) continue;
      queue[qt++] = src;
    }
  }
  xfree(seen);
  xfree(queue);
  xfree(qport);
  return found;
}

/* Merge of a conditional: select between the inputs by the predicate of
   the Switch they come from. */
static bool lower_merge(TfCtx *c) {
  if (c->nin != 2) return tf_error(c, "only a Merge of two inputs (a conditional) or of a loop is supported");
  int port0 = -1, port1 = -1;
  int s0 = switch_above(c->g, c->node->inputs[0].node, &port0);
  int s1 = switch_above(c->g, c->node->inputs[1].node, &port1);
  if (!strcmp(c->g->nodes[c->node->inputs[0].node].op, "Switch")) s0 = c->node->inputs[0].node, port0 = c->node->inputs[0].out;
  if (!strcmp(c->g->nodes[c->node->inputs[1].node].op, "Switch")) s1 = c->node->inputs[1].node, port1 = c->node->inputs[1].out;
  int sw = s0 >= 0 ? s0 : s1;
  int true_in = s0 >= 0 ? (port0 == 1 ? 0 : 1) : (port1 == 1 ? 1 : 0);
  if (sw < 0) return tf_error(c, "no Switch decides between the Merge's inputs");
  const TfNode *sn = &c->g->nodes[sw];
  if (sn->ninputs != 2) return tf_error(c, "the Switch '%s' has no predicate", sn->name);
  Value *pred = tf_value(c->L, c->g, sn->inputs[1].node, sn->inputs[1].out);
  if (!pred) return false;
  Value *t = c->in[true_in], *f = c->in[1 - true_in];
  if (!type_equal(t->type, f->type))
    return tf_error(c, "the branches give %s and %s; xlac needs static shapes", tf_type_str(c, t->type), tf_type_str(c, f->type));
  pred = scalar_pred(c, &c->b, pred);
  if (!pred) return false;
  tf_out(c, bld_select(&c->b, pred, t, f));
  Value *one = tf_iscalar(c, ET_S32, 1), *zero = tf_iscalar(c, ET_S32, 0);
  tf_out(c, bld_select(&c->b, pred, true_in == 0 ? zero : one, true_in == 0 ? one : zero));
  return true;
}

typedef struct LoopVar {
  int merge, enter, next, sw; /* node indexes (sw -1 when the Merge has no Switch) */
} LoopVar;

static bool is_op(const TfGraph *g, int k, const char *op) { return !strcmp(g->nodes[k].op, op); }

/* The loop variables of frame f, in node order, and its LoopCond. */
static bool frame_structure(TfCtx *c, int f, LoopVar **vars, int *nvars, int *loopcond) {
  const TfGraph *g = c->g;
  VEC(LoopVar) v = {0};
  *loopcond = -1;
  for (int k = 0; k < g->nnodes; k++) {
    const TfNode *n = &g->nodes[k];
    if (n->frame != f) continue;
    if (!strcmp(n->op, "LoopCond")) {
      if (*loopcond >= 0) {
        VEC_FREE(v);
        return tf_error(c, "loop frame '%s' has two LoopCond nodes", g->frames[f].name);
      }
      *loopcond = k;
    }
    if (strcmp(n->op, "Merge") || n->ninputs != 2) continue;
    int a = n->inputs[0].node, b = n->inputs[1].node;
    if (is_op(g, a, "NextIteration") && is_op(g, b, "Enter")) {
      int t = a;
      a = b;
      b = t;
    }
    if (!is_op(g, a, "Enter") || !is_op(g, b, "NextIteration")) continue;
    VEC_PUSH(v, ((LoopVar){k, a, b, -1}));
  }
  for (int k = 0; k < g->nnodes; k++) {
    const TfNode *n = &g->nodes[k];
    if (n->frame != f || strcmp(n->op, "Switch") || n->ninputs != 2) continue;
    for (int i = 0; i < v.len; i++)
      if (n->inputs[0].node == v.data[i].merge && n->inputs[1].node == *loopcond) v.data[i].sw = k;
  }
  if (*loopcond < 0) {
    VEC_FREE(v);
    return tf_error(c, "loop frame '%s' has no LoopCond", g->frames[f].name);
  }
  *vars = v.data;
  *nvars = v.len;
  return true;
}

/* The body and condition regions of frame f for the while op. */
static Block *frame_region(TfCtx *c, int f, const LoopVar *vars, int nv, Type *const *types, int loopcond,
                           bool is_body) {
  Module *m = c->b.m;
  Block *blk = block_new(m);
  Value **args = ARENA_ARRAY(&m->arena, Value *, nv + 1);
  for (int i = 0; i < nv; i++) args[i] = block_add_arg(m, blk, types[i], NULL);
  tf_scope_push(c->L, c->g, f, blk, NULL, 0);
  for (int i = 0; i < nv; i++) {
    tf_set_value(c->L, vars[i].merge, 0, args[i]);
    if (vars[i].sw >= 0) {
      tf_set_value(c->L, vars[i].sw, 0, args[i]);
      tf_set_value(c->L, vars[i].sw, 1, args[i]);
    }
  }
  Value **res = ARENA_ARRAY(&m->arena, Value *, nv + 1);
  int nres = 0;
  bool ok = true;
  if (is_body) {
    for (int i = 0; i < nv && ok; i++) {
      const TfNode *next = &c->g->nodes[vars[i].next];
      res[i] = next->ninputs == 1 ? tf_value(c->L, c->g, next->inputs[0].node, next->inputs[0].out) : NULL;
      ok = res[i] != NULL;
      if (ok && !type_equal(res[i]->type, types[i])) {
        tf_error(c, "loop variable '%s' changes from %s to %s in the loop; xlac needs static shapes",
                 c->g->nodes[vars[i].merge].name, tf_type_str(c, types[i]), tf_type_str(c, res[i]->type));
        ok = false;
      }
    }
    nres = nv;
  } else {
    const TfNode *lc = &c->g->nodes[loopcond];
    Value *p = lc->ninputs == 1 ? tf_value(c->L, c->g, lc->inputs[0].node, lc->inputs[0].out) : NULL;
    ok = p != NULL;
    if (ok) {
      Builder b = {m, blk, NULL, lc->loc};
      res[0] = scalar_pred(c, &b, p);
      ok = res[0] != NULL;
    }
    nres = 1;
  }
  tf_scope_pop(c->L);
  if (!ok) return NULL;
  block_append(blk, op_new(m, OP_RETURN, nres, res, 0, NULL, c->b.loc));
  return blk;
}

/* Lowering an Exit whose frame has no while loop yet: builds the frame's
   while loop and records the value of every Exit of it (tf_set_value). */
static bool tf_lower_frame(TfCtx *c, int frame) {
  LoopVar *vars = NULL;
  int nv = 0, loopcond = -1;
  if (!frame_structure(c, frame, &vars, &nv, &loopcond)) return false;
  Module *m = c->b.m;
  bool ok = true;
  Value **init = ARENA_ARRAY(&m->arena, Value *, nv + 1);
  Type **types = ARENA_ARRAY(&m->arena, Type *, nv + 1);
  for (int i = 0; i < nv && ok; i++) {
    const TfNode *e = &c->g->nodes[vars[i].enter];
    init[i] = e->ninputs == 1 ? tf_value(c->L, c->g, e->inputs[0].node, e->inputs[0].out) : NULL;
    ok = init[i] != NULL;
    if (ok) types[i] = init[i]->type;
  }
  Block *cb = ok ? frame_region(c, frame, vars, nv, types, loopcond, false) : NULL;
  Block *bb = cb ? frame_region(c, frame, vars, nv, types, loopcond, true) : NULL;
  if (!bb) {
    xfree(vars);
    return false;
  }
  Op *w = op_new(m, OP_WHILE, nv, init, nv, types, c->b.loc);
  op_add_region(m, w, cb);
  op_add_region(m, w, bb);
  block_append(tf_scope_block(c->L), w);
  /* every Exit of the frame: the while's result for its Switch */
  for (int k = 0; k < c->g->nnodes; k++) {
    const TfNode *n = &c->g->nodes[k];
    if (strcmp(n->op, "Exit") || n->ninputs != 1) continue;
    for (int i = 0; i < nv; i++)
      if (vars[i].sw >= 0 && n->inputs[0].node == vars[i].sw && n->inputs[0].out == 0)
        tf_set_value(c->L, k, 0, &w->res[i]);
  }
  xfree(vars);
  return true;
}

static bool lower_exit(TfCtx *c) {
  if (c->node->ninputs != 1) return tf_error(c, "an Exit takes one input");
  int src = c->node->inputs[0].node;
  int f = c->g->nodes[src].frame;
  if (f == 0 || c->g->frames[f].parent != c->node->frame)
    return tf_error(c, "the Exit does not leave a loop frame");
  /* records the value of every Exit of the frame, this one included
     unless its input is not a loop variable's Switch (then it is left
     without outputs, and its users say so) */
  return tf_lower_frame(c, f);
}

static bool lower_next_iteration(TfCtx *c) {
  return tf_error(c, "a NextIteration is only used by its loop's Merge");
}

const TfOpDef tf_ops_control[] = {
    {"PartitionedCall", lower_call, NULL, "inlined"},
    {"StatefulPartitionedCall", lower_call, NULL, "inlined"},
    {"While", lower_while, NULL, "cond and body become regions; shapes must stay static"},
    {"StatelessWhile", lower_while, NULL, "cond and body become regions; shapes must stay static"},
    {"If", lower_if, NULL, "branches become regions of an if"},
    {"StatelessIf", lower_if, NULL, "branches become regions of an if"},
    {"TensorListReserve", lower_list_reserve, NULL, "element shape fully known"},
    {"TensorListFromTensor", lower_list_from_tensor, NULL, NULL},
    {"TensorListGetItem", lower_list_get, NULL, NULL},
    {"TensorListSetItem", lower_list_set, NULL, NULL},
    {"TensorListStack", lower_list_stack, NULL, NULL},
    {"TensorListLength", lower_list_length, NULL, NULL},
    {"Enter", lower_identity_like, NULL, "TF1 loops become while loops"},
    {"Exit", lower_exit, NULL, "TF1 loops become while loops"},
    {"LoopCond", lower_identity_like, NULL, "TF1 loops become while loops"},
    {"NextIteration", lower_next_iteration, NULL, "TF1 loops become while loops"},
    {"Switch", lower_switch, "output_false,output_true", "loops; conditionals compute both branches"},
    {"Merge", lower_merge, "output,value_index", "loops; conditionals select"},
    {NULL, NULL, NULL, NULL},
};
