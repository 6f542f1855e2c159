/*
 * graph.c - GraphDef and FunctionDef nodes as a TfGraph: inputs parsed
 * into (node, output) pairs, names looked up once, and the frames of TF1
 * control flow found.
 *
 * Input names: in a GraphDef "node", "node:3" or "^node" (a control
 * input); in a FunctionDef "arg" (an argument of the function),
 * "node:out_arg:i" (output i of the named output argument of node) or
 * "^node".  An output argument is mapped to a flat output index through the
 * op table's `outputs` list (the arguments before it are single tensors).
 *
 * Frames: an Enter starts (or re-enters) the frame named by its
 * frame_name inside the frame of its input; an Exit leaves to the parent
 * frame; a Merge of a loop takes its Enter input's frame; any other node
 * runs in the frame of its inputs (data inputs first, then control inputs,
 * which is how a constant inside a loop body is placed there).  Nodes are
 * visited in an order that ignores the NextIteration -> Merge back edges.
 */
#include <stdlib.h>
#include <string.h>

#include "frontends/tensorflow/tf_int.h"

typedef struct GraphBuild {
  Arena *a;
  TfGraph *g;
  char **err;   /* first problem, heap */
  SrcLoc *locs; /* per node, for messages */
} GraphBuild;

static void set_err(GraphBuild *gb, const char *fmt, const char *a, const char *b) {
  if (*gb->err) return;
  *gb->err = xasprintf(fmt, a, b);
}

static int find_node(const TfGraph *g, const char *name, size_t n) {
  void *p = strmap_getn(&g->by_name, name, n);
  return p ? (int)(intptr_t)p - 1 : -1;
}

/* Flat output index of output argument `arg` (n bytes) of an op, index i. */
static int output_arg_index(const char *op, const char *arg, size_t n, int64_t i) {
  const TfOpDef *d = tf_op_lookup(op);
  if (!d || !d->outputs) return (int)i;
  int k = 0;
  for (const char *p = d->outputs; *p;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == n && !memcmp(p, arg, n)) return k + (int)i;
    k++;
    if (!e) break;
    p = e + 1;
  }
  return (int)i;
}

static bool parse_index(const char *s, int64_t *out) {
  if (!*s) return false;
  char *e;
  long long v = strtoll(s, &e, 10);
  if (*e || v < 0 || v >= TF_MAX_OUTPUTS) return false;
  *out = v;
  return true;
}

/* One input string of node k. */
typedef VEC(TfInput) InputVec;
typedef VEC(int) IntVec;

/* One input string s of `who` (a node name, for messages). */
static bool add_input(GraphBuild *gb, const char *who, const char *s, bool function, InputVec *data,
                      IntVec *ctrl) {
  TfGraph *g = gb->g;
  if (s[0] == '^') {
    int src = find_node(g, s + 1, strlen(s + 1));
    if (src < 0) {
      set_err(gb, "node '%s' has a control input from '%s', which is not in the graph", who, s + 1);
      return false;
    }
    VEC_PUSH(*ctrl, src);
    return true;
  }
  const char *c1 = strchr(s, ':');
  size_t nlen = c1 ? (size_t)(c1 - s) : strlen(s);
  int src = find_node(g, s, nlen);
  if (src < 0) {
    set_err(gb, "node '%s' has an input '%s' that names no node of the graph", who, s);
    return false;
  }
  int64_t idx = 0;
  if (c1) {
    const char *c2 = function ? strchr(c1 + 1, ':') : NULL;
    if (c2) {
      /* node:out_arg:i */
      if (!parse_index(c2 + 1, &idx)) {
        set_err(gb, "node '%s' has a malformed input '%s'", who, s);
        return false;
      }
      idx = output_arg_index(g->nodes[src].op, c1 + 1, (size_t)(c2 - c1 - 1), idx);
    } else if (!parse_index(c1 + 1, &idx)) {
      if (!function) {
        set_err(gb, "node '%s' has a malformed input '%s' (expected NODE or NODE:INDEX)", who, s);
        return false;
      }
      /* node:out_arg */
      idx = output_arg_index(g->nodes[src].op, c1 + 1, strlen(c1 + 1), 0);
    }
  }
  VEC_PUSH(*data, ((TfInput){src, (int)idx}));
  return true;
}

static void add_node(GraphBuild *gb, const char *name, const char *op, const TfNodeDef *def, int arg) {
  TfGraph *g = gb->g;
  TfNode *n = &g->nodes[g->nnodes];
  n->name = name;
  n->op = op;
  n->def = def;
  n->arg = arg;
  n->loc = SRCLOC_NONE;
  if (find_node(g, name, strlen(name)) >= 0) set_err(gb, "two nodes are named '%s'%s", name, "");
  strmap_put(&g->by_name, name, (void *)(intptr_t)(g->nnodes + 1));
  g->nnodes++;
}

static void link_inputs(GraphBuild *gb, bool function) {
  TfGraph *g = gb->g;
  for (int k = 0; k < g->nnodes && !*gb->err; k++) {
    TfNode *n = &g->nodes[k];
    if (!n->def) continue;
    InputVec data = {0};
    IntVec ctrl = {0};
    for (size_t i = 0; i < n->def->n_input; i++)
      if (!add_input(gb, n->name, n->def->input[i], function, &data, &ctrl)) break;
    n->ninputs = data.len;
    n->inputs = data.len ? arena_memdup(gb->a, data.data, sizeof(TfInput) * (size_t)data.len) : NULL;
    n->nctrl = ctrl.len;
    n->ctrl = ctrl.len ? arena_memdup(gb->a, ctrl.data, sizeof(int) * (size_t)ctrl.len) : NULL;
    VEC_FREE(data);
    VEC_FREE(ctrl);
  }
}

const TfAttr *tf_node_attr(const TfNode *n, const char *name) {
  if (!n->def) return NULL;
  for (size_t i = 0; i < n->def->n_attr; i++)
    if (!strcmp(n->def->attr[i]->key, name)) return n->def->attr[i]->value;
  return NULL;
}

const char *tf_node_func_attr(const TfNode *n, const char *name) {
  const TfAttr *a = tf_node_attr(n, name);
  return a && a->value_case == TENSORFLOW__ATTR_VALUE__VALUE_FUNC && a->func ? a->func->name : NULL;
}

/* ---- frames ---- */
/* A string attribute's bytes (not NUL-terminated: `bytes` in the proto) and
   their length in *len. */
static const char *node_attr_s(const TfNode *n, const char *name, size_t *len) {
  *len = 0;
  const TfAttr *a = tf_node_attr(n, name);
  if (!a || a->value_case != TENSORFLOW__ATTR_VALUE__VALUE_S) return NULL;
  *len = a->s.len;
  return a->s.len ? (const char *)a->s.data : "";
}

static int frame_of(GraphBuild *gb, const char *name, size_t n, int parent) {
  TfGraph *g = gb->g;
  for (int f = 1; f < g->nframes; f++)
    if (g->frames[f].parent == parent && strlen(g->frames[f].name) == n && !memcmp(g->frames[f].name, name, n))
      return f;
  g->frames = xrealloc(g->frames, sizeof(TfFrame) * (size_t)(g->nframes + 1));
  g->frames[g->nframes] = (TfFrame){arena_strndup(gb->a, name, n), parent};
  return g->nframes++;
}

static bool is_back_edge(const TfGraph *g, const TfNode *n, int i) {
  return !strcmp(n->op, "Merge") && !strcmp(g->nodes[n->inputs[i].node].op, "NextIteration");
}

/* Assigns frames in an order where every input (but back edges) comes
   first; nodes on a cycle without a NextIteration are reported. */
static void assign_frames(GraphBuild *gb) {
  TfGraph *g = gb->g;
  g->frames = xcalloc(1, sizeof(TfFrame));
  g->frames[0] = (TfFrame){"", 0};
  g->nframes = 1;
  bool any = false;
  for (int k = 0; k < g->nnodes && !any; k++) any = !strcmp(g->nodes[k].op, "Enter");
  if (!any) return;
  int nn = g->nnodes;
  int *pending = xcalloc((size_t)nn, sizeof(int));
  VEC(int) *users = xcalloc((size_t)nn, sizeof *users);
  for (int k = 0; k < nn; k++) {
    TfNode *n = &g->nodes[k];
    for (int i = 0; i < n->ninputs; i++) {
      if (is_back_edge(g, n, i)) continue;
      pending[k]++;
      VEC_PUSH(users[n->inputs[i].node], k);
    }
    for (int i = 0; i < n->nctrl; i++) {
      pending[k]++;
      VEC_PUSH(users[n->ctrl[i]], k);
    }
  }
  int *queue = xmalloc(sizeof(int) * (size_t)nn), qh = 0, qt = 0;
  for (int k = 0; k < nn; k++)
    if (!pending[k]) queue[qt++] = k;
  while (qh < qt) {
    int k = queue[qh++];
    TfNode *n = &g->nodes[k];
    int f = 0;
    for (int i = 0; i < n->ninputs && !f; i++)
      if (!is_back_edge(g, n, i)) f = g->nodes[n->inputs[i].node].frame;
    for (int i = 0; i < n->nctrl && !f; i++) f = g->nodes[n->ctrl[i]].frame;
    if (!strcmp(n->op, "Enter")) {
      size_t fnlen;
      const char *fn = node_attr_s(n, "frame_name", &fnlen);
      f = frame_of(gb, fn ? fn : "", fnlen, f);
    } else if (!strcmp(n->op, "Exit")) {
      f = g->frames[f].parent;
    }
    n->frame = f;
    for (int i = 0; i < users[k].len; i++)
      if (--pending[users[k].data[i]] == 0) queue[qt++] = users[k].data[i];
  }
  if (qt < nn)
    for (int k = 0; k < nn; k++)
      if (pending[k]) {
        set_err(gb, "node '%s' is on a cycle of the graph that is not a loop (no NextIteration)%s",
                g->nodes[k].name, "");
        break;
      }
  for (int k = 0; k < nn; k++) VEC_FREE(users[k]);
  xfree(users);
  xfree(pending);
  xfree(queue);
}

TfGraph *tf_graph_new(Arena *a, const Tensorflow__GraphDef *gd, char **err) {
  TfGraph *g = ARENA_NEW(a, TfGraph);
  GraphBuild gb = {a, g, err, NULL};
  g->name = "graph";
  g->nodes = ARENA_ARRAY(a, TfNode, gd->n_node ? gd->n_node : 1);
  for (size_t i = 0; i < gd->n_node; i++) {
    const TfNodeDef *d = gd->node[i];
    if (!d->name[0]) {
      set_err(&gb, "node %s of the graph has no name%s", "", "");
      break;
    }
    add_node(&gb, d->name, d->op, d, -1);
  }
  if (!*err) link_inputs(&gb, false);
  if (!*err) assign_frames(&gb);
  return g;
}

TfGraph *tf_graph_of_function(Arena *a, const TfFunctionDef *f, char **err) {
  TfGraph *g = ARENA_NEW(a, TfGraph);
  GraphBuild gb = {a, g, err, NULL};
  const Tensorflow__OpDef *sig = f->signature;
  g->name = sig && sig->name[0] ? sig->name : "function";
  g->fdef = f;
  size_t nargs = sig ? sig->n_input_arg : 0;
  g->nodes = ARENA_ARRAY(a, TfNode, nargs + f->n_node_def + 1);
  /* arguments first, as nodes named by the argument, with op "_Arg" */
  for (size_t i = 0; i < nargs; i++) add_node(&gb, sig->input_arg[i]->name, "_Arg", NULL, (int)i);
  for (size_t i = 0; i < f->n_node_def; i++) add_node(&gb, f->node_def[i]->name, f->node_def[i]->op, f->node_def[i], -1);
  if (!*err) link_inputs(&gb, true);
  if (!*err) assign_frames(&gb);
  /* results in the signature's order */
  size_t nout = sig ? sig->n_output_arg : 0;
  g->rets = ARENA_ARRAY(a, TfInput, nout + 1);
  g->nrets = (int)nout;
  for (size_t i = 0; i < nout && !*err; i++) {
    const char *oname = sig->output_arg[i]->name, *src = NULL;
    for (size_t j = 0; j < f->n_ret; j++)
      if (!strcmp(f->ret[j]->key, oname)) src = f->ret[j]->value;
    if (!src) {
      set_err(&gb, "function '%s' does not say where its result '%s' comes from", g->name, oname);
      break;
    }
    InputVec data = {0};
    IntVec ctrl = {0};
    if (add_input(&gb, g->name, src, true, &data, &ctrl) && data.len == 1) g->rets[i] = data.data[0];
    VEC_FREE(data);
    VEC_FREE(ctrl);
  }
  return g;
}

void tf_graph_free(TfGraph *g) {
  if (!g) return;
  strmap_free(&g->by_name);
  xfree(g->frames);
}

int tf_graph_find(const TfGraph *g, const char *name) { return find_node(g, name, strlen(name)); }
