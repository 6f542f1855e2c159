/*
 * lower.c - the engine of the TensorFlow frontend: a GraphDef (and a tf2xla
 * Config) in, a module whose @main computes the fetches out.
 *
 * Nodes are lowered on demand, starting from the fetches, so the graph is
 * pruned to what they need, as tfcompile prunes it.  Each lowered node's
 * outputs are memoized in a scope: the top-level graph, a function body
 * being inlined or used as a region, or one region (condition or body) of
 * a TF1 loop frame.  A node is always lowered in the scope of its own graph
 * and frame; a value from an enclosing frame is captured by the region.
 * Within a scope the walk is an explicit stack, so deep graphs do not
 * deepen the C stack; only calls and frames nest.
 *
 * As each node is lowered its new ops are folded when their operands are
 * constants, so that what decides a shape (Shape -> StridedSlice -> Pack ->
 * Reshape) is a constant by the time a later node asks for it; each new op
 * carries HLO metadata {op_type, op_name} naming the node.
 *
 * Must-compile: before anything is built, every node the fetches need is
 * looked up in the op table, and all the unsupported ones are reported
 * together.  A node that fails while lowering is reported; its users fail
 * silently, so every report is a root cause.
 *
 * Locations: in a text GraphDef a node's location is its `name:` line; a
 * binary GraphDef gets a listing (one line per node, "name = Op(inputs)"),
 * registered as the source "G.pb[nodes]", so diagnostics still show a line
 * and a caret.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/tensorflow/pb.h"
#include "frontends/tensorflow/tf_int.h"
#include "ir/verify.h"
#include "passes/passes.h"

/* ---- scopes ---- */
enum { ST_NEW, ST_OPEN, ST_DONE, ST_FAILED };

struct TfScope {
  struct TfScope *parent;
  TfGraph *g;
  int frame;
  Block *blk;
  Value *const *args; /* a function's arguments (node->arg indexes them) */
  int nargs;
  uint8_t *state;     /* per node */
  Value ***vals;      /* per node: its outputs */
  int *nvals;
};
typedef struct TfScope Scope;

typedef struct FuncEntry {
  const TfFunctionDef *def;
  TfGraph *g;         /* built on first use */
} FuncEntry;

struct TfLower {
  Module *m;
  Arena *a;           /* graphs, scopes */
  const char *path;
  int file;           /* locations: the text GraphDef, or the listing */
  bool text;
  TfGraph *g;         /* the top-level graph */
  Scope *scope;       /* innermost */
  StrMap funcs;       /* name -> FuncEntry */
  VEC(FuncEntry *) func_list;
  StrMap name_offsets;/* text GraphDef: node name -> offset of its name line */
  int depth;          /* function bodies being lowered, one in another */
  int64_t inlined;    /* nodes of function bodies lowered so far */
  bool inline_stopped;/* the depth or the budget was exceeded (reported once) */
  int errors;
  /* Config variables, per node of the top-level graph (NULL without
     variables): the variable a needed Assign*VariableOp writes (-1: none),
     and the write whose value a variable's read or write starts from (-1:
     the value on entry) */
  int *var_write;
  int *var_after;
  /* --checkpoint: the variables that are not the Config's are frozen */
  TfCheckpoint *ckpt;
  const char *ckpt_path;
};

static Scope *scope_push(TfLower *L, TfGraph *g, int frame, Block *blk, Value *const *args, int nargs) {
  Scope *s = ARENA_NEW(L->a, Scope);
  s->parent = L->scope;
  s->g = g;
  s->frame = frame;
  s->blk = blk;
  s->args = args;
  s->nargs = nargs;
  int n = g->nnodes ? g->nnodes : 1;
  s->state = ARENA_ARRAY(L->a, uint8_t, n);
  s->vals = ARENA_ARRAY(L->a, Value **, n);
  s->nvals = ARENA_ARRAY(L->a, int, n);
  L->scope = s;
  return s;
}

static void scope_pop(TfLower *L) { L->scope = L->scope->parent; }

TfScope *tf_scope_push(TfLower *L, TfGraph *g, int frame, Block *blk, Value *const *args, int nargs) {
  return scope_push(L, g, frame, blk, args, nargs);
}
void tf_scope_pop(TfLower *L) { scope_pop(L); }
Block *tf_scope_block(TfLower *L) { return L->scope->blk; }

/* ---- the inlining budget ---- */
bool tf_inline_enter(TfCtx *c, const char *fname, int nnodes) {
  TfLower *L = c->L;
  if (L->inline_stopped) return false;
  /* the caller, when it is a function too: node names repeat across
     functions */
  char from[300] = "";
  if (c->g->fdef) snprintf(from, sizeof from, " (called from function '%s')", c->g->name);
  if (L->depth >= TF_INLINE_MAX_DEPTH) {
    L->inline_stopped = true;
    return tf_error(c, "function '%s'%s is called %d calls deep: past the inlining depth limit of %d", fname, from,
                    L->depth + 1, TF_INLINE_MAX_DEPTH);
  }
  if (L->inlined + nnodes > TF_INLINE_MAX_NODES) {
    L->inline_stopped = true;
    return tf_error(c, "inlining function '%s'%s goes past the inlining budget of %d nodes lowered from library "
                       "functions (each call is a copy, so functions that call others several times multiply)",
                    fname, from, TF_INLINE_MAX_NODES);
  }
  L->inlined += nnodes;
  L->depth++;
  return true;
}

void tf_inline_leave(TfLower *L) { L->depth--; }

/* The scope where node k of g is lowered: the innermost one of g whose
   frame is k's. */
static Scope *scope_for(TfLower *L, const TfGraph *g, int k) {
  int f = g->nodes[k].frame;
  for (Scope *s = L->scope; s; s = s->parent)
    if (s->g == g && s->frame == f) return s;
  return NULL;
}

void tf_set_value(TfLower *L, int node, int out, Value *v) {
  Scope *s = L->scope;
  if (out >= s->nvals[node]) {
    int n = out + 1;
    Value **nv = ARENA_ARRAY(L->a, Value *, n);
    for (int i = 0; i < s->nvals[node]; i++) nv[i] = s->vals[node][i];
    s->vals[node] = nv;
    s->nvals[node] = n;
  }
  s->vals[node][out] = v;
  s->state[node] = ST_DONE;
}

/* ---- locations and errors ---- */
/* Each node's location: its name's line (text) or listing line (binary);
   a node found in neither (a function's, in a binary graph) has none. */
static void set_locations(TfLower *L, TfGraph *g) {
  for (int k = 0; k < g->nnodes; k++) {
    TfNode *n = &g->nodes[k];
    void *p = strmap_get(&L->name_offsets, n->name);
    n->loc = p ? (SrcLoc){L->file, (uint32_t)((intptr_t)p - 1)} : SRCLOC_NONE;
  }
}

/* Text GraphDef: the offset of every `name: "X"` that opens a node (the
   first field of `node {` / `node_def {` as TensorFlow writes them).  One
   pass that steps over comments and other strings, so a `name:` in a
   comment or inside a string value is not taken for a node's. */
static void index_text_names(TfLower *L) {
  const SrcFile *f = src_get(L->file);
  const char *s = f->text, *end = f->text + f->len;
  static const char key[] = "name:";
  for (const char *p = s; p < end; p++) {
    if (*p == '#') {
      while (p < end && *p != '\n') p++;
      continue;
    }
    if (*p == '"' || *p == '\'') {
      char q = *p;
      for (p++; p < end && *p != q && *p != '\n'; p++)
        if (*p == '\\' && p + 1 < end) p++;
      continue;
    }
    if ((size_t)(end - p) < sizeof key - 1 || memcmp(p, key, sizeof key - 1)) continue;
    if (p > s && p[-1] != ' ' && p[-1] != '\n' && p[-1] != '\t' && p[-1] != '{') continue;
    const char *q = p + sizeof key - 1;
    while (q < end && (*q == ' ' || *q == '\t')) q++;
    if (q >= end || *q != '"') continue;
    const char *e = memchr(q + 1, '"', (size_t)(end - q - 1));
    if (!e) break;
    if (!strmap_getn(&L->name_offsets, q + 1, (size_t)(e - q - 1))) {
      char *name = arena_strndup(L->a, q + 1, (size_t)(e - q - 1));
      strmap_put(&L->name_offsets, name, (void *)(intptr_t)((q - s) + 1));
    }
    p = e;
  }
}

/* Binary GraphDef: a listing of the nodes, one per line. */
static void make_listing(TfLower *L, const Tensorflow__GraphDef *gd) {
  StrBuf b = {0};
  sb_printf(&b, "# the nodes of %s, one per line: name = Op(inputs)\n", L->path);
  uint32_t *offs = xcalloc(gd->n_node + 1, sizeof(uint32_t));
  for (size_t i = 0; i < gd->n_node; i++) {
    const TfNodeDef *d = gd->node[i];
    offs[i] = (uint32_t)b.len;
    sb_printf(&b, "%s = %s(", d->name, d->op);
    for (size_t j = 0; j < d->n_input; j++) sb_printf(&b, "%s%s", j ? ", " : "", d->input[j]);
    sb_puts(&b, ")\n");
    if (b.len > SRC_MAX_BYTES / 2) break;
  }
  char *name = xasprintf("%s[nodes]", L->path);
  L->file = src_add(name, b.data ? b.data : "", b.len);
  xfree(name);
  for (size_t i = 0; i < gd->n_node; i++)
    if (!strmap_get(&L->name_offsets, gd->node[i]->name))
      strmap_put(&L->name_offsets, gd->node[i]->name, (void *)(intptr_t)(offs[i] + 1));
  xfree(offs);
  sb_free(&b);
}

bool tf_error(TfCtx *c, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  error_at(c->node->loc, "node '%s' (%s): %s", c->node->name, c->node->op, msg);
  if (c->L) c->L->errors++;
  return false;
}

static void node_error(TfLower *L, const TfNode *n, const char *msg) {
  error_at(n->loc, "node '%s' (%s): %s", n->name, n->op, msg);
  L->errors++;
}

/* The write of a Config variable that node k's access to it follows, or -1. */
static int var_after(const TfLower *L, const TfGraph *g, int k) {
  return L->var_after && g == L->g ? L->var_after[k] : -1;
}

/* ---- the op table ---- */
static bool lower_const(TfCtx *c) {
  const TfAttr *a = tf_attr(c, "value");
  if (!a || a->value_case != TENSORFLOW__ATTR_VALUE__VALUE_TENSOR || !a->tensor)
    return tf_error(c, "the 'value' attribute (a tensor) is missing");
  char *err = NULL;
  Literal *l = tf_tensor_literal(c->b.m, a->tensor, &err);
  if (!l) {
    tf_error(c, "%s", err);
    xfree(err);
    return false;
  }
  ElemType want;
  if (tf_attr(c, "dtype") && tf_attr_type(c, "dtype", &want) && want != lit_elem(l))
    return tf_error(c, "the value's type does not match the 'dtype' attribute");
  tf_out(c, tf_constant(c, l));
  return true;
}

static bool lower_placeholder(TfCtx *c) {
  return tf_error(c, "this placeholder is not fed: every Placeholder the fetches need must be a feed "
                     "(in the Config, or an input of the graph)");
}

static bool lower_placeholder_default(TfCtx *c) {
  if (c->nin < 1) return tf_error(c, "the default input is missing");
  tf_out(c, c->in[0]);
  return true;
}

/* A variable that is not the Config's, frozen as tfcompile's
   freeze_checkpoint freezes it: a constant of the checkpoint's tensor of
   the node's name, else of its shared_name, which must have the
   variable's type and shape. */
static bool freeze_variable(TfCtx *c) {
  TfLower *L = c->L;
  const char *name = c->node->def->name, *shared = tf_attr_str(c, "shared_name", "");
  const char *key = tf_checkpoint_has(L->ckpt, name)                  ? name
                    : shared[0] && tf_checkpoint_has(L->ckpt, shared) ? shared
                                                                      : NULL;
  if (!key)
    return tf_error(c, "the checkpoint %s has no tensor '%s'%s%s%s (a variable not in the Config takes its value "
                       "from the checkpoint)",
                    L->ckpt_path, name, shared[0] && strcmp(shared, name) ? " nor '" : "",
                    shared[0] && strcmp(shared, name) ? shared : "", shared[0] && strcmp(shared, name) ? "'" : "");
  Literal *l = tf_checkpoint_read(L->ckpt, c->b.m, key);
  if (!l) return tf_error(c, "its value, tensor '%s' of the checkpoint %s, could not be read", key, L->ckpt_path);
  ElemType want;
  if (tf_attr(c, "dtype")) {
    if (!tf_attr_type(c, "dtype", &want)) return false;
    if (want != lit_elem(l))
      return tf_error(c, "the checkpoint's tensor '%s' is %s, but the variable holds %s", key,
                      tf_type_str(c, l->type), tf_dtype_name(tf_attr(c, "dtype")->type));
  }
  const TfAttr *sa = tf_attr(c, "shape");
  if (sa && sa->value_case == TENSORFLOW__ATTR_VALUE__VALUE_SHAPE && sa->shape && !sa->shape->unknown_rank) {
    const Tensorflow__TensorShapeProto *sp = sa->shape;
    bool same = sp->n_dim == (size_t)l->type->rank;
    for (size_t i = 0; same && i < sp->n_dim; i++)
      same = sp->dim[i]->size < 0 || sp->dim[i]->size == l->type->dims[i];
    if (!same) {
      StrBuf b = {0};
      for (size_t i = 0; i < sp->n_dim; i++) sb_printf(&b, "%s%lld", i ? ", " : "", (long long)sp->dim[i]->size);
      tf_error(c, "the checkpoint's tensor '%s' is %s, but the variable's shape is [%s]", key,
               tf_type_str(c, l->type), b.data ? b.data : "");
      sb_free(&b);
      return false;
    }
  }
  tf_out(c, tf_constant(c, l));
  return true;
}

static bool lower_var_handle(TfCtx *c) {
  if (c->L && c->L->ckpt) return freeze_variable(c);
  return tf_error(c, "a resource variable that is not a variable of the Config: freeze the graph, give its value "
                     "with --checkpoint, or name it in a 'variable' entry of the Config");
}

/* TF1's reference variables (read through Identity): only frozen. */
static bool lower_ref_variable(TfCtx *c) {
  if (c->L && c->L->ckpt) return freeze_variable(c);
  return tf_error(c, "a TF1 variable: freeze the graph, or give its value with --checkpoint");
}

/* A Config variable's value as node c sees it: after the latest write the
   graph orders before it, else the parameter (the resource input). */
static Value *variable_value(TfCtx *c) {
  int after = var_after(c->L, c->g, (int)(c->node - c->g->nodes));
  return after >= 0 ? tf_value(c->L, c->g, after, 0) : c->in[0];
}

static bool lower_read_variable(TfCtx *c) {
  if (c->nin != 1) return tf_error(c, "a ReadVariableOp takes one resource");
  Value *v = variable_value(c);
  if (!v) return false;
  tf_out(c, v);
  return true;
}

/* A write's output 0 (TensorFlow's op has none) is the variable's value
   after it, for the reads and writes ordered after it and for the result. */
static bool lower_assign_variable(TfCtx *c) {
  TfLower *L = c->L;
  int k = (int)(c->node - c->g->nodes);
  if (!L->var_write || c->g != L->g || L->var_write[k] < 0)
    return tf_error(c, "a variable write is compiled only for a variable of the Config (as a result)");
  if (c->nin != 2) return tf_error(c, "an %s takes a resource and a value", c->node->op);
  Value *old = variable_value(c), *x = c->in[1];
  if (!old) return false;
  if (!type_equal(x->type, old->type)) {
    char *xt = type_str(x->type), *vt = type_str(old->type);
    tf_error(c, "it writes %s to a variable of type %s", xt, vt);
    xfree(xt);
    xfree(vt);
    return false;
  }
  const char *op = c->node->op;
  tf_out(c, !strcmp(op, "AssignAddVariableOp")   ? bld_add(&c->b, old, x)
            : !strcmp(op, "AssignSubVariableOp") ? bld_sub(&c->b, old, x)
                                                 : x);
  return true;
}

static const TfOpDef tf_ops_core[] = {
    {"VarHandleOp", lower_var_handle, NULL,
     "a variable of the Config: a parameter, and a result when written; any other, with --checkpoint: a constant of "
     "the checkpoint's value"},
    {"VariableV2", lower_ref_variable, NULL, "with --checkpoint: a constant of the checkpoint's value"},
    {"Variable", lower_ref_variable, NULL, "with --checkpoint: a constant of the checkpoint's value"},
    {"ReadVariableOp", lower_read_variable, NULL, "the value after the latest write ordered before it"},
    {"AssignVariableOp", lower_assign_variable, NULL, "writes ordered by the graph's edges; the last is a result"},
    {"AssignAddVariableOp", lower_assign_variable, NULL, "writes ordered by the graph's edges; the last is a result"},
    {"AssignSubVariableOp", lower_assign_variable, NULL, "writes ordered by the graph's edges; the last is a result"},
    {"Const", lower_const, NULL, NULL},
    {"Placeholder", lower_placeholder, NULL, "a feed"},
    {"PlaceholderV2", lower_placeholder, NULL, "a feed"},
    {"PlaceholderWithDefault", lower_placeholder_default, NULL, "a feed, else its input"},
    {"_Arg", NULL, NULL, "a function's argument"},
    {NULL, NULL, NULL, NULL},
};

static const TfOpDef *const table_parts[] = {tf_ops_core, tf_ops_math, tf_ops_nn, tf_ops_array, tf_ops_control};

const TfOpDef *tf_op_lookup(const char *op) {
  for (size_t p = 0; p < sizeof table_parts / sizeof *table_parts; p++)
    for (const TfOpDef *d = table_parts[p]; d->op; d++)
      if (!strcmp(d->op, op)) return d;
  return NULL;
}

static int cmp_def(const void *a, const void *b) {
  return strcmp((*(const TfOpDef *const *)a)->op, (*(const TfOpDef *const *)b)->op);
}

const TfOpDef *const *tf_op_all(int *n) {
  int count = 0;
  for (size_t p = 0; p < sizeof table_parts / sizeof *table_parts; p++)
    for (const TfOpDef *d = table_parts[p]; d->op; d++) count++;
  const TfOpDef **all = xcalloc((size_t)count + 1, sizeof *all);
  int k = 0;
  for (size_t p = 0; p < sizeof table_parts / sizeof *table_parts; p++)
    for (const TfOpDef *d = table_parts[p]; d->op; d++) all[k++] = d;
  qsort(all, (size_t)count, sizeof *all, cmp_def);
  *n = count;
  return all;
}

/* ---- functions of the library ---- */
TfGraph *tf_function_graph(TfLower *L, const char *name, char **err) {
  FuncEntry *e = strmap_get(&L->funcs, name);
  if (!e) {
    *err = xasprintf("the graph's function library has no function '%s'", name);
    return NULL;
  }
  if (!e->g) {
    e->g = tf_graph_of_function(L->a, e->def, err);
    if (*err) return NULL;
    set_locations(L, e->g);
  }
  return e->g;
}

/* A node whose op type is a function of the library calls it. */
static bool lower_named_call(TfCtx *c) {
  int nres;
  Value **res;
  if (!tf_call_function(c, c->node->op, c->nin, c->in, &nres, &res)) return false;
  for (int i = 0; i < nres; i++) tf_out(c, res[i]);
  return true;
}

static const TfOpDef named_call = {"(function)", lower_named_call, NULL, NULL};

/* ---- lowering one node ---- */
static void add_metadata(TfLower *L, const TfNode *n, Op *first) {
  Module *m = L->m;
  Attr *md = NULL;
  for (Op *op = first; op; op = op->next) {
    if (op->kind == OP_CONSTANT || op_attr(op, "metadata")) continue;
    if (!md) {
      const char *keys[2] = {"op_type", "op_name"};
      Attr *el[2] = {attr_string(m, n->op, strlen(n->op)), attr_string(m, n->name, strlen(n->name))};
      md = attr_dict(m, NULL, 2, keys, el);
    }
    op_set_attr(m, op, "metadata", md);
  }
}

static bool lower_node(TfLower *L, Scope *s, int k);

/* Lowers node k in scope s and whatever of s it needs first. */
static bool lower_in_scope(TfLower *L, Scope *s, int root) {
  TfGraph *g = s->g;
  if (s->state[root] == ST_DONE) return true;
  if (s->state[root] == ST_FAILED) return false;
  VEC(int) stack = {0};
  VEC_PUSH(stack, root);
  bool ok = true;
  while (stack.len) {
    int k = stack.data[stack.len - 1];
    if (s->state[k] == ST_DONE || s->state[k] == ST_FAILED) {
      stack.len--;
      continue;
    }
    TfNode *n = &g->nodes[k];
    if (s->state[k] == ST_NEW) {
      s->state[k] = ST_OPEN;
      /* the data inputs, and for a variable's access the write it follows */
      for (int i = n->ninputs; i >= 0; i--) {
        int j = i < n->ninputs ? n->inputs[i].node : var_after(L, g, k);
        if (j < 0) continue;
        if (g->nodes[j].frame != s->frame) continue; /* another scope: lowered when asked for */
        if (i < n->ninputs && !strcmp(n->op, "Merge") && !strcmp(g->nodes[j].op, "NextIteration")) continue;
        if (s->state[j] == ST_OPEN) {
          node_error(L, n, "it is on a cycle of the graph that is not a loop (no NextIteration)");
          s->state[k] = ST_FAILED;
          break;
        }
        if (s->state[j] == ST_NEW) VEC_PUSH(stack, j);
      }
      continue;
    }
    stack.len--;
    if (!lower_node(L, s, k)) s->state[k] = ST_FAILED;
    else s->state[k] = ST_DONE;
  }
  VEC_FREE(stack);
  ok = s->state[root] == ST_DONE;
  return ok;
}

Value *tf_value(TfLower *L, TfGraph *g, int node, int out) {
  Scope *s = scope_for(L, g, node);
  const TfNode *n = &g->nodes[node];
  if (!s) {
    node_error(L, n, "its value is used outside the loop frame it belongs to, other than through an Exit");
    return NULL;
  }
  Scope *saved = L->scope;
  L->scope = s;
  bool ok = lower_in_scope(L, s, node);
  L->scope = saved;
  if (!ok) return NULL;
  if (out < 0 || out >= s->nvals[node] || !s->vals[node][out]) {
    char msg[128];
    snprintf(msg, sizeof msg, "it has no output %d (it has %d)", out, s->nvals[node]);
    node_error(L, n, msg);
    return NULL;
  }
  return s->vals[node][out];
}

static bool lower_node(TfLower *L, Scope *s, int k) {
  TfGraph *g = s->g;
  TfNode *n = &g->nodes[k];
  if (n->arg >= 0) {
    if (n->arg >= s->nargs) {
      node_error(L, n, "the function is called with too few arguments");
      return false;
    }
    tf_set_value(L, k, 0, s->args[n->arg]);
    return true;
  }
  const TfOpDef *d = tf_op_lookup(n->op);
  if (!d && strmap_get(&L->funcs, n->op)) d = &named_call; /* a call of a library function */
  if (!d || !d->lower) {
    node_error(L, n, "this op type is not supported");
    return false;
  }
  TfCtx c;
  memset(&c, 0, sizeof c);
  c.L = L;
  c.g = g;
  c.node = n;
  c.nin = n->ninputs;
  c.in = xcalloc((size_t)(n->ninputs ? n->ninputs : 1), sizeof(Value *));
  bool ok = true;
  bool lazy = !strcmp(n->op, "Exit"); /* its input is inside the loop: control.c */
  for (int i = 0; i < n->ninputs && ok && !lazy; i++) {
    c.in[i] = tf_value(L, g, n->inputs[i].node, n->inputs[i].out);
    ok = c.in[i] != NULL;
  }
  if (ok) {
    L->scope = s;
    Block *blk = s->blk;
    Op *last = blk->last;
    c.b = (Builder){L->m, blk, NULL, n->loc};
    int errors = L->errors;
    ok = d->lower(&c) && L->errors == errors;
    if (ok && s->state[k] != ST_DONE) {
      Op *first = last ? last->next : blk->first;
      if (first) fold_new_ops(L->m, blk, first, (int64_t)1 << 16, c.out, c.nout);
      first = last ? last->next : blk->first;
      add_metadata(L, n, first);
      Value **outs = ARENA_ARRAY(L->a, Value *, c.nout ? c.nout : 1);
      for (int i = 0; i < c.nout; i++) outs[i] = c.out[i];
      s->vals[k] = outs;
      s->nvals[k] = c.nout;
    }
  }
  xfree(c.in);
  xfree(c.out);
  return ok;
}

/* ---- must-compile check ---- */
typedef struct Unsupported {
  const TfGraph *g;
  int node;
  int user;  /* the node that needs it, -1 for a fetch */
} Unsupported;

typedef struct Check {
  TfLower *L;
  VEC(Unsupported) bad;
  StrMap seen_funcs;
} Check;

static void check_graph(Check *ck, TfGraph *g, const int *roots, int nroots, int depth);

/* The functions a node calls: f (calls), cond/body (While), then_branch /
   else_branch (If), branches are not lists here.  Each function is checked
   once; a chain of calls deeper than inlining may go is left to the
   lowering, which reports it (and the C stack stays shallow). */
static void check_calls(Check *ck, const TfNode *n, int depth) {
  if (depth >= TF_INLINE_MAX_DEPTH) return;
  static const char *const attrs[] = {"f", "cond", "body", "then_branch", "else_branch", NULL};
  for (size_t i = 0; i < sizeof attrs / sizeof *attrs; i++) {
    /* the last: the op type itself, when it names a function */
    const char *fn = attrs[i] ? tf_node_func_attr(n, attrs[i]) : strmap_get(&ck->L->funcs, n->op) ? n->op : NULL;
    if (!fn || strmap_get(&ck->seen_funcs, fn)) continue;
    strmap_put(&ck->seen_funcs, fn, (void *)1);
    char *err = NULL;
    TfGraph *fg = tf_function_graph(ck->L, fn, &err);
    if (!fg) {
      node_error(ck->L, n, err);
      xfree(err);
      continue;
    }
    int *roots = xcalloc((size_t)fg->nrets + 1, sizeof(int));
    for (int r = 0; r < fg->nrets; r++) roots[r] = fg->rets[r].node;
    check_graph(ck, fg, roots, fg->nrets, depth + 1);
    xfree(roots);
  }
}

static void check_graph(Check *ck, TfGraph *g, const int *roots, int nroots, int depth) {
  int nn = g->nnodes;
  int *user = xcalloc((size_t)(nn ? nn : 1), sizeof(int));
  uint8_t *seen = xcalloc((size_t)(nn ? nn : 1), 1);
  VEC(int) stack = {0};
  for (int i = 0; i < nroots; i++)
    if (roots[i] >= 0 && !seen[roots[i]]) {
      seen[roots[i]] = 1;
      user[roots[i]] = -1;
      VEC_PUSH(stack, roots[i]);
    }
  while (stack.len) {
    int k = stack.data[--stack.len];
    const TfNode *n = &g->nodes[k];
    if (n->arg < 0) {
      const TfOpDef *d = tf_op_lookup(n->op);
      if (!d && !strmap_get(&ck->L->funcs, n->op)) VEC_PUSH(ck->bad, ((Unsupported){g, k, user[k]}));
      else check_calls(ck, n, depth);
    }
    for (int i = 0; i < n->ninputs; i++) {
      int j = n->inputs[i].node;
      if (!seen[j]) {
        seen[j] = 1;
        user[j] = k;
        VEC_PUSH(stack, j);
      }
    }
  }
  VEC_FREE(stack);
  xfree(seen);
  xfree(user);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* graph order (functions after the graph) */
static int cmp_unsupported(const void *a, const void *b) {
  const Unsupported *x = a, *y = b;
  if (x->g != y->g) return x->g->name < y->g->name ? -1 : 1;
  return x->node - y->node;
}

/* Reports every unsupported node the roots need; false if there is one. */
static bool must_compile_check(TfLower *L, const int *roots, int nroots) {
  Check ck;
  memset(&ck, 0, sizeof ck);
  ck.L = L;
  int errors = L->errors;
  check_graph(&ck, L->g, roots, nroots, 0);
  if (ck.bad.len > 1) qsort(ck.bad.data, (size_t)ck.bad.len, sizeof(Unsupported), cmp_unsupported);
  for (int i = 0; i < ck.bad.len; i++) {
    Unsupported u = ck.bad.data[i];
    const TfNode *n = &u.g->nodes[u.node];
    StrBuf b = {0};
    sb_printf(&b, "op type '%s' is not supported", n->op);
    if (n->ninputs) {
      sb_printf(&b, "; its input%s from ", n->ninputs == 1 ? " comes" : "s come");
      for (int j = 0; j < n->ninputs && j < 4; j++)
        sb_printf(&b, "%s'%s'", j ? ", " : "", u.g->nodes[n->inputs[j].node].name);
      if (n->ninputs > 4) sb_puts(&b, ", ...");
    }
    if (u.user >= 0)
      sb_printf(&b, "; node '%s' (%s) uses it", u.g->nodes[u.user].name, u.g->nodes[u.user].op);
    else
      sb_puts(&b, "; it is fetched");
    if (u.g != L->g) sb_printf(&b, "; in function '%s'", u.g->name);
    node_error(L, n, b.data);
    sb_free(&b);
  }
  if (ck.bad.len) {
    /* a summary: op types and counts */
    const char **types = xcalloc((size_t)ck.bad.len, sizeof(char *));
    for (int i = 0; i < ck.bad.len; i++) types[i] = ck.bad.data[i].g->nodes[ck.bad.data[i].node].op;
    qsort(types, (size_t)ck.bad.len, sizeof *types, cmp_str);
    StrBuf b = {0};
    int kinds = 0;
    for (int i = 0; i < ck.bad.len;) {
      int j = i;
      while (j < ck.bad.len && !strcmp(types[j], types[i])) j++;
      sb_printf(&b, "%s%s (%d)", kinds ? ", " : "", types[i], j - i);
      kinds++;
      i = j;
    }
    diag(DIAG_NOTE, SRCLOC_NONE,
         "%s: %d node%s of %d op type%s cannot be compiled, so nothing was: %s (the op types xlac compiles: "
         "docs/tensorflow.md)",
         L->path, ck.bad.len, ck.bad.len == 1 ? "" : "s", kinds, kinds == 1 ? "" : "s", b.data);
    sb_free(&b);
    xfree(types);
  }
  VEC_FREE(ck.bad);
  strmap_free(&ck.seen_funcs);
  return L->errors == errors;
}

/* ---- feeds, fetches, variables ---- */
typedef struct Feed {
  int node, out;
  const char *name;
  Type *type;
} Feed;

typedef struct Fetch {
  int node, out;
  const char *name;
} Fetch;

typedef struct Var {
  int node;        /* its VarHandleOp */
  const char *name;
  Type *type;
  bool readonly;
  int write;       /* the last Assign*VariableOp the fetches need, or -1 */
} Var;

static Type *shape_type(TfLower *L, ElemType et, const Tensorflow__TensorShapeProto *sp, const char *who,
                        bool *ok);

static bool is_assign(const TfNode *n) {
  return !strcmp(n->op, "AssignVariableOp") || !strcmp(n->op, "AssignAddVariableOp") ||
         !strcmp(n->op, "AssignSubVariableOp");
}

/* The node a resource input comes from, through Identity nodes. */
static int resource_source(const TfGraph *g, int k) {
  for (int hops = 0; hops < 64 && !strcmp(g->nodes[k].op, "Identity") && g->nodes[k].ninputs == 1; hops++)
    k = g->nodes[k].inputs[0].node;
  return k;
}

/* The Config's variables (checked by tf_config_check): their nodes and
   types; false after reporting every problem.  A variable without a shape
   is a scalar (tfcompile's rule). */
static bool read_variables(TfLower *L, const Tensorflow__Tf2xla__Config *cfg, const char *cfg_path, Var **out,
                           int *nout) {
  bool ok = true;
  Var *v = ARENA_ARRAY(L->a, Var, cfg->n_variable + 1);
  for (size_t i = 0; i < cfg->n_variable; i++) {
    const Tensorflow__Tf2xla__Variable *cv = cfg->variable[i];
    char who[300];
    snprintf(who, sizeof who, "%s: variable '%s'", cfg_path, cv->name[0] ? cv->name : cv->node_name);
    int k = tf_graph_find(L->g, cv->node_name);
    ElemType et = tf_elem_of_dtype(cv->type);
    Type *t;
    if (cv->shape) {
      bool sok;
      t = shape_type(L, et, cv->shape, who, &sok);
      if (!sok) {
        ok = false;
        continue;
      }
    } else {
      t = type_tensor(&L->m->arena, et, 0, NULL);
      const TfAttr *sa = tf_node_attr(&L->g->nodes[k], "shape");
      if (sa && sa->value_case == TENSORFLOW__ATTR_VALUE__VALUE_SHAPE && sa->shape && !sa->shape->unknown_rank &&
          sa->shape->n_dim > 0) {
        error_at(L->g->nodes[k].loc,
                 "%s has no shape, so it is a scalar (as in tfcompile), but node '%s' holds a tensor of rank %zu; "
                 "give its 'shape'",
                 who, cv->node_name, sa->shape->n_dim);
        ok = false;
        continue;
      }
    }
    v[i] = (Var){k, cv->name[0] ? cv->name : cv->node_name, t, cv->readonly != 0, -1};
  }
  *out = v;
  *nout = (int)cfg->n_variable;
  return ok;
}

/* Marks in seen[] (set to mark) every node that depends on `from` through
   data and control edges; succ/off is the graph's successor lists. */
static void mark_descendants(const int *off, const int *succ, int from, int *seen, int mark, int *stack) {
  int sp = 0;
  stack[sp++] = from;
  while (sp) {
    int k = stack[--sp];
    for (int e = off[k]; e < off[k + 1]; e++)
      if (seen[succ[e]] != mark) {
        seen[succ[e]] = mark;
        stack[sp++] = succ[e];
      }
  }
}

/* The writes of Config variables, as tfcompile sees them: the graph is
   pruned to what the fetches need through data and control edges (not
   through a fed tensor), so a write nothing fetched depends on (a
   tf.Variable's initializer) is no write.  Each variable's writes must be
   ordered by the graph's edges, one after another; each read and write then
   starts from the latest write among the nodes it depends on
   (L->var_after).  Fills L->var_write, L->var_after and vars[].write; false
   after reporting every problem. */
static bool order_variable_writes(TfLower *L, const Feed *feeds, int nfeeds, const Fetch *fetches, int nfetches,
                                  Var *vars, int nvars, const char *cfg_path) {
  TfGraph *g = L->g;
  int nn = g->nnodes;
  bool ok = true;
  uint8_t *need = xcalloc((size_t)nn + 1, 1);
  int *stack = xcalloc((size_t)nn + 1, sizeof(int));
  int sp = 0;
  for (int i = 0; i < nfetches; i++)
    if (!need[fetches[i].node]) {
      need[fetches[i].node] = 1;
      stack[sp++] = fetches[i].node;
    }
  while (sp) {
    const TfNode *n = &g->nodes[stack[--sp]];
    for (int i = 0; i < n->ninputs + n->nctrl; i++) {
      int j = i < n->ninputs ? n->inputs[i].node : n->ctrl[i - n->ninputs];
      bool fed = false;
      for (int f = 0; i < n->ninputs && f < nfeeds && !fed; f++)
        fed = feeds[f].node == j && feeds[f].out == n->inputs[i].out;
      if (!fed && !need[j]) {
        need[j] = 1;
        stack[sp++] = j;
      }
    }
  }
  /* successor lists of the needed nodes (data and control edges) */
  int *off = xcalloc((size_t)nn + 2, sizeof(int));
  for (int k = 0; k < nn; k++)
    if (need[k])
      for (int i = 0; i < g->nodes[k].ninputs + g->nodes[k].nctrl; i++) {
        const TfNode *n = &g->nodes[k];
        off[(i < n->ninputs ? n->inputs[i].node : n->ctrl[i - n->ninputs]) + 1]++;
      }
  for (int k = 0; k < nn; k++) off[k + 1] += off[k];
  int *fill = xcalloc((size_t)nn + 1, sizeof(int));
  int *succ = xcalloc((size_t)off[nn] + 1, sizeof(int));
  for (int k = 0; k < nn; k++)
    if (need[k])
      for (int i = 0; i < g->nodes[k].ninputs + g->nodes[k].nctrl; i++) {
        const TfNode *n = &g->nodes[k];
        int j = i < n->ninputs ? n->inputs[i].node : n->ctrl[i - n->ninputs];
        succ[off[j] + fill[j]++] = k;
      }
  L->var_write = ARENA_ARRAY(L->a, int, nn + 1);
  L->var_after = ARENA_ARRAY(L->a, int, nn + 1);
  int *access = xcalloc((size_t)nn + 1, sizeof(int)); /* the variable a needed node reads or writes, + 1 */
  for (int k = 0; k < nn; k++) {
    L->var_write[k] = L->var_after[k] = -1;
    const TfNode *n = &g->nodes[k];
    bool w = is_assign(n), r = !strcmp(n->op, "ReadVariableOp");
    if (!need[k] || (!w && !r) || n->ninputs < 1) continue;
    int src = resource_source(g, n->inputs[0].node);
    for (int v = 0; v < nvars; v++)
      if (vars[v].node == src) {
        access[k] = v + 1;
        if (!w) break;
        if (vars[v].readonly) {
          error_at(n->loc, "%s: variable '%s' is readonly, but node '%s' (%s) writes it", cfg_path, vars[v].name,
                   n->name, n->op);
          ok = false;
        } else if (n->frame) {
          error_at(n->loc, "%s: node '%s' (%s) writes variable '%s' inside a TF1 loop frame, which xlac does not compile",
                   cfg_path, n->name, n->op, vars[v].name);
          ok = false;
        } else {
          L->var_write[k] = v;
        }
        break;
      }
  }
  int *seen = xcalloc((size_t)nn + 1, sizeof(int));
  int mark = 0;
  VEC(int) ws = {0};
  for (int v = 0; v < nvars && ok; v++) {
    ws.len = 0;
    for (int k = 0; k < nn; k++)
      if (L->var_write[k] == v) VEC_PUSH(ws, k);
    int m = ws.len;
    if (!m) continue;
    /* before[a * m + b]: write a is ordered before write b */
    uint8_t *before = xcalloc((size_t)m * (size_t)m, 1);
    for (int a = 0; a < m; a++) {
      mark_descendants(off, succ, ws.data[a], seen, ++mark, stack);
      for (int b = 0; b < m; b++) before[a * m + b] = b != a && seen[ws.data[b]] == mark;
    }
    for (int a = 0; a < m && ok; a++)
      for (int b = a + 1; b < m && ok; b++)
        if (before[a * m + b] && before[b * m + a]) {
          const TfNode *x = &g->nodes[ws.data[a]], *y = &g->nodes[ws.data[b]];
          error_at(y->loc, "%s: variable '%s' is written by '%s' and by '%s', which depend on each other (a cycle)",
                   cfg_path, vars[v].name, x->name, y->name);
          ok = false;
        } else if (!before[a * m + b] && !before[b * m + a]) {
          const TfNode *x = &g->nodes[ws.data[a]], *y = &g->nodes[ws.data[b]];
          error_at(y->loc,
                   "%s: variable '%s' is written by '%s' (%s) and by '%s' (%s), and neither depends on the other "
                   "through the graph's data or control edges, so which write is last is not defined; order them "
                   "with a control dependency",
                   cfg_path, vars[v].name, x->name, x->op, y->name, y->op);
          ok = false;
        }
    if (ok) {
      /* the writes in order: by how many come before each */
      int *order = xcalloc((size_t)m, sizeof(int));
      for (int b = 0; b < m; b++) {
        int pos = 0;
        for (int a = 0; a < m; a++) pos += before[a * m + b];
        order[pos] = ws.data[b];
      }
      /* in that order, each write is the latest one before whatever
         depends on it */
      for (int i = 0; i < m; i++) {
        mark_descendants(off, succ, order[i], seen, ++mark, stack);
        for (int k = 0; k < nn; k++)
          if (seen[k] == mark && access[k] == v + 1) L->var_after[k] = order[i];
      }
      vars[v].write = order[m - 1];
      xfree(order);
    }
    xfree(before);
  }
  VEC_FREE(ws);
  xfree(seen);
  xfree(access);
  xfree(succ);
  xfree(fill);
  xfree(off);
  xfree(stack);
  xfree(need);
  return ok;
}

/* "NODE" or "NODE:i" */
static bool parse_tensor_name(TfLower *L, const char *s, int *node, int *out, const char *what) {
  const char *colon = strrchr(s, ':');
  char *name = colon ? arena_strndup(L->a, s, (size_t)(colon - s)) : (char *)s;
  int idx = 0;
  if (colon) {
    char *e;
    long v = strtol(colon + 1, &e, 10);
    if (*e || v < 0 || v > 100000 || e == colon + 1) {
      error_at(SRCLOC_NONE, "%s '%s': expected NODE or NODE:INDEX", what, s);
      return false;
    }
    idx = (int)v;
  }
  int k = tf_graph_find(L->g, name);
  if (k < 0) {
    error_at(SRCLOC_NONE, "%s '%s' names no node of %s", what, s, L->path);
    return false;
  }
  *node = k;
  *out = idx;
  return true;
}

static Type *shape_type(TfLower *L, ElemType et, const Tensorflow__TensorShapeProto *sp, const char *who,
                        bool *ok) {
  int64_t dims[64];
  int rank = 0;
  *ok = false;
  if (!sp || sp->unknown_rank) {
    error_at(SRCLOC_NONE, "%s: the shape is unknown; give it (tfcompile needs static shapes)", who);
    return NULL;
  }
  if (sp->n_dim > 64) {
    error_at(SRCLOC_NONE, "%s: rank %zu is above 64", who, sp->n_dim);
    return NULL;
  }
  for (size_t i = 0; i < sp->n_dim; i++) {
    if (sp->dim[i]->size < -1) {
      error_at(SRCLOC_NONE, "%s: dimension %zu is %lld, which is not a size", who, i, (long long)sp->dim[i]->size);
      return NULL;
    }
    if (sp->dim[i]->size < 0) {
      error_at(SRCLOC_NONE, "%s: dimension %zu has unknown size; give the whole shape", who, i);
      return NULL;
    }
    dims[rank++] = sp->dim[i]->size;
  }
  *ok = true;
  return type_tensor(&L->m->arena, et, rank, dims);
}

/* A Placeholder's own type and shape, for a feed that gives none. */
static Type *placeholder_type(TfLower *L, const TfNode *n, int dtype, const Tensorflow__TensorShapeProto *shape,
                              const char *who) {
  const TfAttr *dt = tf_node_attr(n, "dtype");
  int node_dtype = dt && dt->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE ? dt->type : 0;
  if (dtype && node_dtype && dtype != node_dtype) {
    error_at(n->loc, "%s: the feed's type is %s, but placeholder '%s' is %s", who, tf_dtype_name(dtype), n->name,
             tf_dtype_name(node_dtype));
    return NULL;
  }
  if (!dtype) dtype = node_dtype;
  if (!dtype) {
    error_at(n->loc, "%s: the type is unknown; give it in the feed", who);
    return NULL;
  }
  ElemType et = tf_elem_of_dtype(dtype);
  if (et == ET_INVALID) {
    error_at(n->loc, "%s: %s is not a type xlac compiles", who, tf_dtype_name(dtype));
    return NULL;
  }
  if (!shape) {
    const TfAttr *sa = tf_node_attr(n, "shape");
    if (sa && sa->value_case == TENSORFLOW__ATTR_VALUE__VALUE_SHAPE) shape = sa->shape;
  }
  bool ok;
  Type *t = shape_type(L, et, shape, who, &ok);
  return ok ? t : NULL;
}

bool tf_is_graph_path(const char *path) {
  static const char *const exts[] = {".pb", ".pbtxt", ".graphdef", ".prototxt"};
  size_t n = strlen(path);
  for (size_t i = 0; i < sizeof exts / sizeof *exts; i++) {
    size_t e = strlen(exts[i]);
    if (n > e && !strcmp(path + n - e, exts[i])) return true;
  }
  return false;
}

static void free_message(void *m) { pb_free(m); }

/* Ops that produce nothing anyone fetches by default. */
static bool sink_candidate(const TfNode *n) {
  static const char *const skip[] = {"NoOp", "Const", "Placeholder", "PlaceholderV2", "Assert", "SaveV2",
                                     "RestoreV2", "VarHandleOp", "VariableV2", "Variable", "AssignVariableOp",
                                     "Print", "PrintV2"};
  for (size_t i = 0; i < sizeof skip / sizeof *skip; i++)
    if (!strcmp(n->op, skip[i])) return false;
  return n->frame == 0;
}

static void free_lower(TfLower *L) {
  strmap_free(&L->funcs);
  strmap_free(&L->name_offsets);
}

Module *tf_import(const char *graph_path, const TfOptions *o) {
  int f = src_load(graph_path);
  return f < 0 ? NULL : tf_import_file(f, o);
}

Module *tf_import_file(int gfile, const TfOptions *o) { return tf_import_files(gfile, -1, o); }

Module *tf_import_files(int gfile, int config_file, const TfOptions *o) {
  static const TfOptions none = {0};
  if (!o) o = &none;
  const char *graph_path = src_get(gfile)->name;
  /* protobuf-c allocates with malloc: an allocation failure unwinding
     through here must still free the messages */
  OomCleanup gd_cleanup, cfg_cleanup;
  Tensorflow__GraphDef *gd = (Tensorflow__GraphDef *)pb_parse_file(gfile, &tensorflow__graph_def__descriptor);
  if (!gd) return NULL;
  oom_cleanup_push(&gd_cleanup, free_message, gd);
  Tensorflow__Tf2xla__Config *cfg = NULL;
  TfConfig config = {0};
  if (config_file >= 0 || o->config) {
    int cf = config_file >= 0 ? config_file : src_load(o->config);
    cfg = cf < 0 ? NULL
                 : (Tensorflow__Tf2xla__Config *)pb_parse_file_locs(cf, &tensorflow__tf2xla__config__descriptor,
                                                                     &config.locs);
    if (!cfg) {
      VEC_FREE(config.locs);
      oom_cleanup_pop(&gd_cleanup);
      pb_free(&gd->base);
      return NULL;
    }
    config = (TfConfig){cfg, cf, config.locs};
    oom_cleanup_push(&cfg_cleanup, free_message, cfg);
  }
  const char *cfg_path = cfg ? src_get(config.file)->name : NULL;
  Module *m = module_new();
  TfLower Lv, *L = &Lv;
  memset(L, 0, sizeof *L);
  L->m = m;
  L->a = &m->arena;
  L->path = graph_path;
  L->text = pb_is_text_path(graph_path);
  L->file = gfile;
  bool ok = true;

  if (o->saver && !o->checkpoint) {
    error_at(SRCLOC_NONE, "a SaverDef (%s) is read only with a checkpoint", o->saver);
    ok = false;
  }
  if (ok && o->checkpoint) {
    L->ckpt = tf_checkpoint_open(o->checkpoint);
    L->ckpt_path = o->checkpoint;
    if (!L->ckpt || (o->saver && !tf_saver_check(o->saver, L->ckpt))) ok = false;
  }
  if (L->text) index_text_names(L);
  else make_listing(L, gd);
  if (gd->library)
    for (size_t i = 0; i < gd->library->n_function; i++) {
      const TfFunctionDef *f = gd->library->function[i];
      if (!f->signature) continue;
      FuncEntry *e = ARENA_NEW(L->a, FuncEntry);
      e->def = f;
      strmap_put(&L->funcs, f->signature->name, e);
      VEC_PUSH(L->func_list, e);
    }
  char *err = NULL;
  L->g = tf_graph_new(L->a, gd, &err);
  if (err) {
    error_at(SRCLOC_NONE, "%s: %s", graph_path, err);
    xfree(err);
    ok = false;
  }
  if (ok) set_locations(L, L->g);

  /* feeds and fetches */
  VEC(Feed) feeds = {0};
  VEC(Fetch) fetches = {0};
  Var *vars = NULL;
  int nvars = 0;
  if (ok && cfg && !tf_config_check(&config, L->g, graph_path)) ok = false;
  if (ok && cfg) {
    if (o->nfetches) warning_at(SRCLOC_NONE, "--fetch is ignored: the Config names the fetches");
    /* tf_config_check has seen that every node exists and every index is
       in range */
    for (size_t i = 0; i < cfg->n_feed; i++) {
      const Tensorflow__Tf2xla__Feed *f = cfg->feed[i];
      char who[300];
      snprintf(who, sizeof who, "%s: feed '%s'", cfg_path, f->name[0] ? f->name : f->id->node_name);
      int k = tf_graph_find(L->g, f->id->node_name);
      Type *t = placeholder_type(L, &L->g->nodes[k], f->type, f->shape, who);
      if (!t) {
        ok = false;
        continue;
      }
      VEC_PUSH(feeds, ((Feed){k, (int)f->id->output_index, f->name[0] ? f->name : f->id->node_name, t}));
    }
    for (size_t i = 0; i < cfg->n_fetch; i++) {
      const Tensorflow__Tf2xla__Fetch *f = cfg->fetch[i];
      int k = tf_graph_find(L->g, f->id->node_name);
      VEC_PUSH(fetches, ((Fetch){k, (int)f->id->output_index, f->name[0] ? f->name : f->id->node_name}));
    }
    if (!read_variables(L, cfg, cfg_path, &vars, &nvars)) ok = false;
    if (ok && nvars && !order_variable_writes(L, feeds.data, feeds.len, fetches.data, fetches.len, vars, nvars, cfg_path))
      ok = false;
  } else if (ok) {
    for (int i = 0; i < o->nfetches; i++) {
      int k, out;
      if (!parse_tensor_name(L, o->fetches[i], &k, &out, "--fetch")) {
        ok = false;
        continue;
      }
      VEC_PUSH(fetches, ((Fetch){k, out, o->fetches[i]}));
    }
    if (ok && !o->nfetches) {
      /* the graph's sinks: nodes nothing uses */
      uint8_t *used = xcalloc((size_t)L->g->nnodes + 1, 1);
      for (int k = 0; k < L->g->nnodes; k++)
        for (int i = 0; i < L->g->nodes[k].ninputs; i++) used[L->g->nodes[k].inputs[i].node] = 1;
      for (int k = 0; k < L->g->nnodes; k++)
        if (!used[k] && sink_candidate(&L->g->nodes[k])) VEC_PUSH(fetches, ((Fetch){k, 0, L->g->nodes[k].name}));
      xfree(used);
      if (!fetches.len) {
        error_at(SRCLOC_NONE, "%s: no node to fetch: name the results with --fetch NODE[:i] or a Config", graph_path);
        ok = false;
      }
    }
  }

  /* must-compile check */
  if (ok) {
    int *roots = xcalloc((size_t)(fetches.len + L->g->nnodes) + 1, sizeof(int)), nroots = 0;
    for (int i = 0; i < fetches.len; i++) roots[nroots++] = fetches.data[i].node;
    for (int k = 0; L->var_write && k < L->g->nnodes; k++)
      if (L->var_write[k] >= 0) roots[nroots++] = k;
    ok = must_compile_check(L, roots, nroots);
    xfree(roots);
  }

  Func *main = NULL;
  if (ok) {
    main = func_new(m, "main", SRCLOC_NONE);
    main->body = block_new(m);
    main->body->parent_func = main;
    scope_push(L, L->g, 0, main->body, NULL, 0);
    if (!cfg) {
      /* without a Config: the Placeholders the fetches need, in graph order */
      uint8_t *need = xcalloc((size_t)L->g->nnodes + 1, 1);
      VEC(int) st = {0};
      for (int i = 0; i < fetches.len; i++) VEC_PUSH(st, fetches.data[i].node);
      while (st.len) {
        int k = st.data[--st.len];
        if (need[k]) continue;
        need[k] = 1;
        for (int i = 0; i < L->g->nodes[k].ninputs; i++) VEC_PUSH(st, L->g->nodes[k].inputs[i].node);
      }
      VEC_FREE(st);
      for (int k = 0; k < L->g->nnodes; k++) {
        const TfNode *n = &L->g->nodes[k];
        if (!need[k] || (strcmp(n->op, "Placeholder") && strcmp(n->op, "PlaceholderV2"))) continue;
        char who[300];
        snprintf(who, sizeof who, "placeholder '%s'", n->name);
        Type *t = placeholder_type(L, n, 0, NULL, who);
        if (!t) ok = false;
        else VEC_PUSH(feeds, ((Feed){k, 0, n->name, t}));
      }
      xfree(need);
    }
    for (int i = 0; ok && i < feeds.len; i++) {
      Feed *f = &feeds.data[i];
      Value *p = block_add_arg(m, main->body, f->type, arena_strdup(&m->arena, f->name));
      tf_set_value(L, f->node, f->out, p);
    }
    /* variables: parameters after the feeds (tfcompile's order) */
    Value **var_param = ARENA_ARRAY(&m->arena, Value *, nvars + 1);
    for (int i = 0; ok && i < nvars; i++) {
      var_param[i] = block_add_arg(m, main->body, vars[i].type, arena_strdup(&m->arena, vars[i].name));
      tf_set_value(L, vars[i].node, 0, var_param[i]);
    }
    /* results: the fetches, then every variable that is not readonly
       (its value after the write, if any) */
    int nres = fetches.len;
    for (int i = 0; i < nvars; i++) nres += !vars[i].readonly;
    Value **res = xcalloc((size_t)nres + 1, sizeof(Value *));
    const char **res_names = xcalloc((size_t)nres + 1, sizeof(char *));
    for (int i = 0; ok && i < fetches.len; i++) {
      res[i] = tf_value(L, L->g, fetches.data[i].node, fetches.data[i].out);
      res_names[i] = fetches.data[i].name;
      if (!res[i] || (cfg && !tf_config_check_fetch(&config, (size_t)i, res[i]->type))) ok = false;
    }
    for (int i = 0, r = fetches.len; ok && i < nvars; i++) {
      if (vars[i].readonly) continue;
      Value *v = vars[i].write >= 0 ? tf_value(L, L->g, vars[i].write, 0) : var_param[i];
      if (!v) {
        ok = false;
        break;
      }
      res_names[r] = vars[i].name;
      res[r++] = v;
    }
    if (ok && L->errors) ok = false;
    if (ok) {
      Type **rt = ARENA_ARRAY(&m->arena, Type *, nres + 1);
      main->res_attrs = ARENA_ARRAY(&m->arena, Attr *, nres + 1);
      for (int i = 0; i < nres; i++) {
        rt[i] = res[i]->type;
        /* with a Config, what tfcompile's class is made of: the fetch's
           own name ("" when it has none), or the variable's */
        const char *keys[2] = {"jax.result_info", i < fetches.len ? "tf2xla.fetch" : "tf2xla.variable"};
        const char *own = !cfg ? NULL : i < fetches.len ? cfg->fetch[i]->name : res_names[i];
        Attr *v[2] = {attr_string(m, res_names[i], strlen(res_names[i])), own ? attr_string(m, own, strlen(own)) : NULL};
        main->res_attrs[i] = attr_dict(m, NULL, own ? 2 : 1, keys, v);
      }
      if (cfg) {
        /* arguments: feeds (their own names, "" when none), then variables */
        int na = main->body->nargs;
        main->arg_attrs = ARENA_ARRAY(&m->arena, Attr *, na + 1);
        for (int i = 0; i < na; i++) {
          bool feed = i < feeds.len;
          const char *keys[2] = {feed ? "tf2xla.feed" : "tf2xla.variable", "tf2xla.readonly"};
          const char *own = feed ? cfg->feed[i]->name : vars[i - feeds.len].name;
          Attr *v[2] = {attr_string(m, own, strlen(own)), feed ? NULL : attr_bool(m, vars[i - feeds.len].readonly)};
          main->arg_attrs[i] = attr_dict(m, NULL, feed ? 1 : 2, keys, v);
        }
      }
      main->nresults = nres;
      main->result_types = rt;
      block_append(main->body, op_new(m, OP_FUNC_RETURN, nres, res, 0, NULL, SRCLOC_NONE));
    }
    xfree(res_names);
    xfree(res);
    scope_pop(L);
  }
  if (ok && !verify_module(m)) ok = false;
  VEC_FREE(feeds);
  VEC_FREE(fetches);
  for (int i = 0; i < L->func_list.len; i++)
    if (L->func_list.data[i]->g) tf_graph_free(L->func_list.data[i]->g);
  VEC_FREE(L->func_list);
  if (L->g) tf_graph_free(L->g);
  free_lower(L);
  tf_checkpoint_free(L->ckpt);
  if (cfg) {
    oom_cleanup_pop(&cfg_cleanup);
    pb_free(&cfg->base);
  }
  VEC_FREE(config.locs);
  oom_cleanup_pop(&gd_cleanup);
  pb_free(&gd->base);
  if (!ok) {
    module_free(m);
    return NULL;
  }
  return m;
}
