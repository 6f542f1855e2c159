/*
 * dump.c - writing the compiler's intermediate forms to --xla_dump_to.
 *
 * The file names and flags are XLA's (see dump.h), because people debugging
 * a compiler reach for the flags they know and their scripts glob for XLA's
 * names.  Three kinds of output:
 *   - text: the module as HLO text at each stage and between passes, the
 *     buffer assignment, LLVM IR and the object file;
 *   - the graph as Graphviz dot: one node per op (name and shape), each
 *     fusion a cluster holding its fused ops, edges from operands to users;
 *   - the graph as an html page that needs nothing but a browser: the SVG is
 *     laid out here (layers by longest path from the parameters, order in a
 *     layer by a few barycenter sweeps) with each fusion collapsed into one
 *     box that lists its fused ops, and the dot source is embedded below it.
 * Dumping is best effort: a file that cannot be written gives one warning
 * for the whole process and nothing else changes.  The between-pass dump
 * counter is process state, like XLA's: compilations that dump must not run
 * concurrently.
 */
#include "codegen/dump.h"

#include <errno.h>
#include <llvm-c/TargetMachine.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "codegen/jit.h"
#include "ir/print_hlo.h"
#include "passes/passes.h"

/* The between-pass dumps are numbered per module like XLA's, under this
   pipeline name: module_0000.main.0003.cpu.after_cse.before_dce.txt. */
static const char pipeline_name[] = "cpu";

/* ---------------------------------------------------------------- files -- */

static bool warned_once;

static void dump_warning(const char *fmt, ...) XLAC_PRINTF(1, 2);
static void dump_warning(const char *fmt, ...) {
  if (warned_once) return;
  warned_once = true;
  StrBuf msg = {0};
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&msg, fmt, ap);
  va_end(ap);
  warning_at(SRCLOC_NONE, "%s (further dump problems are not reported)", msg.data);
  sb_free(&msg);
}

/* The module's name as it appears in file names: XLA keeps letters, digits,
   '_', '.' and '-' and replaces the rest. */
static char *module_label(const Module *m) {
  const char *name = m->name;
  if (!name || !*name) {
    const Func *e = module_entry(m);
    name = e && e->name && *e->name ? e->name : "module";
  }
  size_t n = strlen(name);
  if (n > 200) n = 200; /* file names are limited to 255 bytes */
  char *s = xstrndup(name, n);
  for (char *p = s; *p; p++) {
    char c = *p;
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
              c == '.' || c == '-';
    if (!ok) *p = '_';
  }
  return s;
}

/* mkdir -p */
static bool make_dirs(const char *dir) {
  char *p = xstrdup(dir);
  for (char *s = p + 1; *s; s++) {
    if (*s != '/') continue;
    *s = 0;
    mkdir(p, 0777); /* failures show up at the last component */
    *s = '/';
  }
  struct stat st;
  bool ok = mkdir(p, 0777) == 0 || (errno == EEXIST && stat(p, &st) == 0 && S_ISDIR(st.st_mode));
  if (!ok) dump_warning("cannot create dump directory '%s': %s", dir, strerror(errno));
  xfree(p);
  return ok;
}

static char *dump_path(const DumpOptions *o, const Module *m, const char *suffix) {
  char *label = module_label(m);
  char *path = xasprintf("%s/module_%04d.%s.%s", o->dir, o->module_id, label, suffix);
  xfree(label);
  return path;
}

static void write_dump(const DumpOptions *o, const Module *m, const char *suffix, const void *data, size_t n) {
  if (!make_dirs(o->dir)) return;
  char *path = dump_path(o, m, suffix);
  FILE *f = fopen(path, "wb");
  if (!f) {
    dump_warning("cannot write dump '%s': %s", path, strerror(errno));
    xfree(path);
    return;
  }
  bool ok = fwrite(data, 1, n, f) == n;
  int err = errno;
  if (fclose(f) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (!ok) dump_warning("cannot write dump '%s': %s", path, strerror(err));
  xfree(path);
}

/* --------------------------------------------------------- graph model -- */

static bool is_fusion(const Op *op) { return op->kind == OP_CALL && op_attr(op, "fusion_kind") != NULL; }

static const Func *fusion_callee(const Module *m, const Op *op) {
  const char *c = op_attr_str(op, "callee");
  return c ? module_find_func(m, c) : NULL;
}

/* The computations drawn at the top level: every function that is not the
   body of a fusion. */
static const Func **top_level_funcs(const Module *m, int *n) {
  PtrMap fused = {0};
  for (const Func *f = m->funcs; f; f = f->next)
    for (const Op *op = f->body->first; op; op = op->next)
      if (is_fusion(op)) {
        const Func *c = fusion_callee(m, op);
        if (c && c != f) ptrmap_put(&fused, c, (void *)1);
      }
  VEC(const Func *) out = {0};
  for (const Func *f = m->funcs; f; f = f->next)
    if (!ptrmap_has(&fused, f)) VEC_PUSH(out, f);
  ptrmap_free(&fused);
  *n = out.len;
  return out.data;
}

static bool all_digits(const char *s) {
  for (; *s; s++)
    if (*s < '0' || *s > '9') return false;
  return true;
}

static void put_shape(StrBuf *b, const Op *op) {
  if (op->nres == 1) {
    type_print_hlo(b, op->res[0].type, false);
    return;
  }
  sb_putc(b, '(');
  for (int i = 0; i < op->nres; i++) {
    if (i) sb_puts(b, ", ");
    type_print_hlo(b, op->res[i].type, false);
  }
  sb_putc(b, ')');
}

/* "add.3" or "fusion" etc.: HLO spelling where the op has one. */
static const char *op_display_name(const Op *op) {
  if (is_fusion(op)) return "fusion";
  const char *h = op_info[op->kind].hlo_name;
  return h ? h : op_info[op->kind].name;
}

/* First line: op and result name (numeric SSA names say nothing and are
   left out) and a few telling attributes; second line: the shape. */
static void op_label(StrBuf *b, const Op *op) {
  sb_puts(b, op_display_name(op));
  if (op->nres > 0 && op->res[0].name && !all_digits(op->res[0].name)) sb_printf(b, " %%%s", op->res[0].name);
  const char *dir = op_attr_str(op, "comparison_direction");
  if (dir) sb_printf(b, " %s", dir);
  if (op->kind == OP_CALL && !is_fusion(op)) {
    const char *c = op_attr_str(op, "callee");
    if (c) sb_printf(b, " @%s", c);
  }
  int64_t *dims;
  int nd = op_attr_ints(op, "dimensions", &dims);
  if (nd > 0) {
    sb_puts(b, " dims={");
    for (int i = 0; i < nd; i++) sb_printf(b, "%s%lld", i ? "," : "", (long long)dims[i]);
    sb_putc(b, '}');
  }
  if (op->kind == OP_CONSTANT && op->nres == 1 && type_is_tensor(op->res[0].type) &&
      type_num_elements(op->res[0].type) == 1) {
    Attr *v = op_attr(op, "value");
    if (v && v->kind == ATTR_DENSE && v->lit) {
      sb_putc(b, ' ');
      lit_format_elem(b, v->lit, 0);
    }
  }
  if (op->nres > 0) {
    sb_putc(b, '\n');
    put_shape(b, op);
  }
}

static void param_label(StrBuf *b, const Value *v) {
  sb_printf(b, "parameter %d", v->index);
  if (v->name && !all_digits(v->name)) sb_printf(b, " %%%s", v->name);
  sb_putc(b, '\n');
  type_print_hlo(b, v->type, false);
}

/* The computation's result: "ROOT" and the returned shapes. */
static void root_label(StrBuf *b, const Op *ret) {
  sb_puts(b, "ROOT");
  if (ret->nopnds == 0) return;
  sb_putc(b, '\n');
  if (ret->nopnds > 1) sb_putc(b, '(');
  for (int i = 0; i < ret->nopnds; i++) {
    if (i) sb_puts(b, ", ");
    type_print_hlo(b, ret->opnds[i]->type, false);
  }
  if (ret->nopnds > 1) sb_putc(b, ')');
}

static const char *fusion_fill(const Op *op) {
  const char *k = op_attr_str(op, "fusion_kind");
  if (k && strcmp(k, "kInput") == 0) return "#fde2c4";
  if (k && strcmp(k, "kOutput") == 0) return "#f6d0e4";
  return "#d6e6fa";
}

/* ------------------------------------------------------------------ dot -- */

typedef struct DotEdge {
  int from, to;
} DotEdge;

typedef struct Dot {
  StrBuf *b;
  const Module *m;
  int next_id;
  PtrMap ids; /* Value* -> node id + 1 */
  VEC(DotEdge) edges;
} Dot;

static void dot_string(StrBuf *b, const char *s) {
  sb_putc(b, '"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') sb_putc(b, '\\');
    if (*s == '\n')
      sb_puts(b, "\\n");
    else
      sb_putc(b, *s);
  }
  sb_putc(b, '"');
}

static int dot_node(Dot *d, int indent, const char *label, const char *shape, const char *fill) {
  int id = d->next_id++;
  sb_printf(d->b, "%*sn%d [label=", indent, "", id);
  dot_string(d->b, label);
  sb_printf(d->b, ", shape=%s, style=filled, fillcolor=\"%s\"];\n", shape, fill);
  return id;
}

static int dot_id(Dot *d, const Value *v) { return (int)(intptr_t)ptrmap_get(&d->ids, v) - 1; }

static void dot_edges_from_operands(Dot *d, const Op *op, int to) {
  for (int i = 0; i < op->nopnds; i++) {
    int from = dot_id(d, op->opnds[i]);
    bool seen = false; /* x * x: one arrow */
    for (int j = 0; j < i && !seen; j++) seen = dot_id(d, op->opnds[j]) == from;
    if (from >= 0 && !seen) VEC_PUSH(d->edges, ((DotEdge){from, to}));
  }
}

static void dot_block(Dot *d, const Block *blk, int indent, bool top, int depth);

/* A fusion: a cluster with the fused computation's parameters and ops; the
   fusion's results are the nodes its computation returns. */
static void dot_fusion(Dot *d, const Op *op, const Func *callee, int indent, int depth) {
  StrBuf lb = {0};
  sb_printf(&lb, "fusion %s\n%%%s\n", op_attr_str(op, "fusion_kind"), callee->name);
  put_shape(&lb, op);
  sb_printf(d->b, "%*ssubgraph cluster_n%d {\n", indent, "", d->next_id++);
  sb_printf(d->b, "%*slabel=", indent + 2, "");
  dot_string(d->b, lb.data);
  sb_printf(d->b, ";\n%*sstyle=\"filled,rounded\"; fillcolor=\"%s\"; color=\"#555555\";\n", indent + 2, "",
            fusion_fill(op));
  sb_free(&lb);
  const Block *body = callee->body;
  for (int i = 0; i < body->nargs; i++) {
    StrBuf pb = {0};
    param_label(&pb, body->args[i]);
    int id = dot_node(d, indent + 2, pb.data, "ellipse", "#ffffff");
    sb_free(&pb);
    ptrmap_put(&d->ids, body->args[i], (void *)(intptr_t)(id + 1));
    if (i < op->nopnds) {
      int from = dot_id(d, op->opnds[i]);
      if (from >= 0) VEC_PUSH(d->edges, ((DotEdge){from, id}));
    }
  }
  dot_block(d, body, indent + 2, false, depth + 1);
  sb_printf(d->b, "%*s}\n", indent, "");
  const Op *ret = block_terminator(body);
  for (int i = 0; i < op->nres; i++) {
    int id = ret && i < ret->nopnds ? dot_id(d, ret->opnds[i]) : -1;
    if (id >= 0) ptrmap_put(&d->ids, &op->res[i], (void *)(intptr_t)(id + 1));
  }
}

/* The ops of a block; the terminator becomes a "ROOT" node only at the top
   of a computation (inside a fusion the returned nodes stand for it). */
static void dot_block(Dot *d, const Block *blk, int indent, bool top, int depth) {
  for (const Op *op = blk->first; op; op = op->next) {
    bool term = op == blk->last && op_has_flag(op->kind, OPF_TERM);
    if (term && !top) break;
    const Func *callee = is_fusion(op) ? fusion_callee(d->m, op) : NULL;
    /* fusions inside fusions are drawn nested, but not without end */
    if (callee && callee != blk->parent_func && depth < 4) {
      dot_fusion(d, op, callee, indent, depth);
      continue;
    }
    StrBuf lb = {0};
    const char *shape = "box", *fill = "#ffffff";
    if (term) {
      root_label(&lb, op);
      shape = "house";
      fill = "#fff2cc";
    } else {
      op_label(&lb, op);
      if (op->kind == OP_CONSTANT) fill = "#eeeeee";
      if (is_fusion(op)) fill = fusion_fill(op);
    }
    int id = dot_node(d, indent, lb.data, shape, fill);
    sb_free(&lb);
    dot_edges_from_operands(d, op, id);
    for (int i = 0; i < op->nres; i++) ptrmap_put(&d->ids, &op->res[i], (void *)(intptr_t)(id + 1));
  }
}

void dump_graph_dot(StrBuf *b, const Module *m, const char *title) {
  Dot d = {0};
  d.b = b;
  d.m = m;
  sb_puts(b, "digraph ");
  dot_string(b, title);
  sb_puts(b, " {\n  compound=true;\n  rankdir=TB;\n  label=");
  dot_string(b, title);
  sb_puts(b, ";\n  labelloc=t;\n  node [fontname=\"monospace\", fontsize=10];\n"
             "  edge [color=\"#666666\"];\n");
  int ntops;
  const Func **tops = top_level_funcs(m, &ntops);
  for (int k = 0; k < ntops; k++) {
    const Func *f = tops[k];
    sb_printf(b, "  subgraph cluster_computation_%d {\n    label=", k);
    char *l = xasprintf("computation %s%s", f == module_entry(m) ? "ENTRY " : "", f->name);
    dot_string(b, l);
    xfree(l);
    sb_puts(b, ";\n    style=dashed; color=\"#999999\";\n");
    for (int i = 0; i < f->body->nargs; i++) {
      StrBuf pb = {0};
      param_label(&pb, f->body->args[i]);
      int id = dot_node(&d, 4, pb.data, "ellipse", "#d9f2d9");
      sb_free(&pb);
      ptrmap_put(&d.ids, f->body->args[i], (void *)(intptr_t)(id + 1));
    }
    dot_block(&d, f->body, 4, true, 0);
    sb_puts(b, "  }\n");
  }
  for (int i = 0; i < d.edges.len; i++) sb_printf(b, "  n%d -> n%d;\n", d.edges.data[i].from, d.edges.data[i].to);
  sb_puts(b, "}\n");
  xfree(tops);
  VEC_FREE(d.edges);
  ptrmap_free(&d.ids);
}

/* ------------------------------------------------------------------ svg -- */

/* 12px monospace is about 7.2px a character; a little more keeps text inside */
static const double CHAR_W = 7.5;
enum { LINE_H = 15, PAD_X = 8, PAD_Y = 6, GAP_X = 24, GAP_Y = 40, MARGIN = 20, MAX_FUSED_LINES = 16 };

/* A box, or a waypoint of an edge that crosses layers ("dummy"): routing
   long edges through waypoints that take part in the ordering keeps them
   from cutting through the boxes in between. */
typedef struct SNode {
  char *text;     /* lines separated by '\n'; NULL for a waypoint */
  int head;       /* lines above a separator (fusions: header vs fused ops) */
  const char *fill;
  bool round;     /* parameters */
  int layer, pos;
  double key;
  double x, y, w, h, layer_h;
} SNode;

typedef struct SEdge {
  int from, to;
  int first_dummy, ndummies; /* its waypoints, consecutive nodes */
} SEdge;

typedef VEC(int) IntVec;

typedef struct SGraph {
  VEC(SNode) nodes;
  VEC(SEdge) edges;
  PtrMap ids; /* Value* -> node index + 1 */
} SGraph;

static int svg_add(SGraph *g, char *text, int head, const char *fill, bool round) {
  SNode n = {0};
  n.text = text;
  n.head = head;
  n.fill = fill;
  n.round = round;
  int lines = 1, cols = 0, w = 0;
  for (const char *p = text; *p; p++) {
    if (*p == '\n') {
      lines++;
      cols = 0;
    } else if (++cols > w) {
      w = cols;
    }
  }
  n.w = w * CHAR_W + 2 * PAD_X;
  n.h = lines * LINE_H + 2 * PAD_Y;
  VEC_PUSH(g->nodes, n);
  return g->nodes.len - 1;
}

/* Nodes are created in program order, so every edge goes from an earlier
   node to a later one and a layer is final once its node exists. */
static void svg_edge(SGraph *g, int from, int to) {
  if (from < 0 || from == to) return;
  for (int i = g->edges.len - 1; i >= 0 && g->edges.data[i].to == to; i--)
    if (g->edges.data[i].from == from) return; /* x * x: one arrow */
  VEC_PUSH(g->edges, ((SEdge){from, to, 0, 0}));
  if (g->nodes.data[to].layer < g->nodes.data[from].layer + 1) g->nodes.data[to].layer = g->nodes.data[from].layer + 1;
}

static int svg_id(SGraph *g, const Value *v) { return (int)(intptr_t)ptrmap_get(&g->ids, v) - 1; }

static void svg_build(SGraph *g, const Module *m, const Func *f) {
  for (int i = 0; i < f->body->nargs; i++) {
    StrBuf b = {0};
    param_label(&b, f->body->args[i]);
    int id = svg_add(g, sb_take(&b), 0, "#d9f2d9", true);
    ptrmap_put(&g->ids, f->body->args[i], (void *)(intptr_t)(id + 1));
  }
  for (const Op *op = f->body->first; op; op = op->next) {
    StrBuf b = {0};
    int head = 0;
    const char *fill = "#ffffff";
    bool term = op == f->body->last && op_has_flag(op->kind, OPF_TERM);
    const Func *callee = is_fusion(op) ? fusion_callee(m, op) : NULL;
    if (term) {
      root_label(&b, op);
      fill = "#fff2cc";
    } else if (callee) {
      sb_printf(&b, "fusion %s %%%s\n", op_attr_str(op, "fusion_kind"), callee->name);
      put_shape(&b, op);
      head = 2;
      fill = fusion_fill(op);
      int shown = 0, total = 0;
      for (const Op *in = callee->body->first; in; in = in->next) {
        if (in == callee->body->last && op_has_flag(in->kind, OPF_TERM)) break;
        if (++total > MAX_FUSED_LINES) continue;
        StrBuf lb = {0};
        op_label(&lb, in);
        for (char *p = lb.data; p && *p; p++)
          if (*p == '\n') *p = ' ';
        sb_printf(&b, "\n  %s", lb.data ? lb.data : "");
        sb_free(&lb);
        shown++;
      }
      if (total > shown) sb_printf(&b, "\n  ... %d more", total - shown);
    } else {
      op_label(&b, op);
      if (op->kind == OP_CONSTANT) fill = "#eeeeee";
    }
    int id = svg_add(g, sb_take(&b), head, fill, false);
    for (int i = 0; i < op->nopnds; i++) svg_edge(g, svg_id(g, op->opnds[i]), id);
    for (int i = 0; i < op->nres; i++) ptrmap_put(&g->ids, &op->res[i], (void *)(intptr_t)(id + 1));
  }
}

static int cmp_key(const void *a, const void *b) {
  const SNode *x = *(SNode *const *)a, *y = *(SNode *const *)b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->pos - y->pos;
}

/* Lays g out with its top-left corner at (MARGIN, top); returns the width
   and stores the height in *height. */
static double svg_layout(SGraph *g, double top, double *height) {
  int nreal = g->nodes.len;
  /* sources other than parameters (constants) sit just above their first
     user rather than at the top with long edges down */
  {
    int *lo = xcalloc((size_t)nreal + 1, sizeof(int));
    bool *has_pred = xcalloc((size_t)nreal + 1, sizeof(bool));
    for (int v = 0; v < nreal; v++) lo[v] = -1;
    for (int i = 0; i < g->edges.len; i++) {
      SEdge *e = &g->edges.data[i];
      has_pred[e->to] = true;
      int l = g->nodes.data[e->to].layer;
      if (lo[e->from] < 0 || l < lo[e->from]) lo[e->from] = l;
    }
    for (int v = 0; v < nreal; v++)
      if (!has_pred[v] && !g->nodes.data[v].round && lo[v] > 0) g->nodes.data[v].layer = lo[v] - 1;
    xfree(lo);
    xfree(has_pred);
  }
  /* waypoints for edges that skip layers */
  for (int i = 0; i < g->edges.len; i++) {
    SEdge *e = &g->edges.data[i];
    int l0 = g->nodes.data[e->from].layer, l1 = g->nodes.data[e->to].layer;
    e->first_dummy = g->nodes.len;
    e->ndummies = l1 - l0 - 1 > 0 ? l1 - l0 - 1 : 0;
    for (int k = 0; k < e->ndummies; k++) {
      SNode d = {0};
      d.layer = l0 + 1 + k;
      d.w = 8;
      VEC_PUSH(g->nodes, d);
    }
  }
  int n = g->nodes.len;
  SNode *N = g->nodes.data;
  IntVec *succ = xcalloc((size_t)n + 1, sizeof *succ);
  IntVec *pred = xcalloc((size_t)n + 1, sizeof *pred);
  for (int i = 0; i < g->edges.len; i++) {
    SEdge *e = &g->edges.data[i];
    int prev = e->from;
    for (int k = 0; k <= e->ndummies; k++) {
      int next = k < e->ndummies ? e->first_dummy + k : e->to;
      VEC_PUSH(succ[prev], next);
      VEC_PUSH(pred[next], prev);
      prev = next;
    }
  }
  int nlayers = 0;
  for (int v = 0; v < n; v++)
    if (N[v].layer + 1 > nlayers) nlayers = N[v].layer + 1;
  VEC(SNode *) *layer = xcalloc((size_t)nlayers + 1, sizeof *layer);
  for (int v = 0; v < n; v++) {
    N[v].pos = layer[N[v].layer].len;
    VEC_PUSH(layer[N[v].layer], &N[v]);
  }
  /* barycenter sweeps, alternately down (by predecessors) and up (by
     successors), to untangle the edges */
  for (int sweep = 0; sweep < 6; sweep++) {
    bool down = sweep % 2 == 0;
    for (int li = 0; li < nlayers; li++) {
      int L = down ? li : nlayers - 1 - li;
      for (int k = 0; k < layer[L].len; k++) {
        SNode *s = layer[L].data[k];
        IntVec *nb = down ? &pred[s - N] : &succ[s - N];
        s->key = s->pos;
        if (nb->len) {
          double sum = 0;
          for (int j = 0; j < nb->len; j++) sum += N[nb->data[j]].pos;
          s->key = sum / nb->len;
        }
      }
      if (layer[L].len > 1) qsort(layer[L].data, (size_t)layer[L].len, sizeof(SNode *), cmp_key);
      for (int k = 0; k < layer[L].len; k++) layer[L].data[k]->pos = k;
    }
  }
  /* coordinates: each node as close as possible to the mean of its
     predecessors' centres without overlapping its left neighbour; then the
     layer moves as a whole so that siblings centre under their parents */
  double y = top;
  for (int L = 0; L < nlayers; L++) {
    double lh = 0, right = 0, want_sum = 0, got_sum = 0;
    int nwant = 0;
    for (int k = 0; k < layer[L].len; k++) {
      SNode *s = layer[L].data[k];
      IntVec *pv = &pred[s - N];
      double gap = k > 0 && (s->text || layer[L].data[k - 1]->text) ? GAP_X : 6;
      double x = k == 0 ? 0 : right + gap;
      if (pv->len) {
        double sum = 0;
        for (int j = 0; j < pv->len; j++) sum += N[pv->data[j]].x + N[pv->data[j]].w / 2;
        double want = sum / pv->len - s->w / 2;
        if (k == 0 || want > x) x = want;
        want_sum += want;
        got_sum += x;
        nwant++;
      }
      s->x = x;
      s->y = y;
      right = x + s->w;
      if (s->h > lh) lh = s->h;
    }
    double shift = nwant ? (want_sum - got_sum) / nwant : 0;
    for (int k = 0; k < layer[L].len; k++) {
      layer[L].data[k]->x += shift;
      layer[L].data[k]->layer_h = lh;
    }
    y += lh + GAP_Y;
  }
  double minx = 0, maxx = 0;
  for (int v = 0; v < n; v++) {
    if (v == 0 || N[v].x < minx) minx = N[v].x;
    if (v == 0 || N[v].x + N[v].w > maxx) maxx = N[v].x + N[v].w;
  }
  for (int v = 0; v < n; v++) N[v].x += MARGIN - minx;
  for (int v = 0; v < n; v++) {
    VEC_FREE(succ[v]);
    VEC_FREE(pred[v]);
  }
  for (int L = 0; L < nlayers; L++) VEC_FREE(layer[L]);
  xfree(succ);
  xfree(pred);
  xfree(layer);
  *height = nlayers ? y - top - GAP_Y : 0;
  return n ? maxx - minx + 2 * MARGIN : 2 * MARGIN;
}

static void xml_text(StrBuf *b, const char *s, size_t n) {
  for (size_t i = 0; i < n && s[i]; i++) {
    switch (s[i]) {
    case '&': sb_puts(b, "&amp;"); break;
    case '<': sb_puts(b, "&lt;"); break;
    case '>': sb_puts(b, "&gt;"); break;
    case '"': sb_puts(b, "&quot;"); break;
    default: sb_putc(b, s[i]);
    }
  }
}

static void svg_edge_path(StrBuf *b, const SGraph *g, const SEdge *e) {
  const SNode *N = g->nodes.data, *s = &N[e->from];
  double x = s->x + s->w / 2, y = s->y + s->h;
  sb_printf(b, "<path class=\"e\" d=\"M%.1f %.1f", x, y);
  for (int k = 0; k <= e->ndummies; k++) {
    const SNode *t = k < e->ndummies ? &N[e->first_dummy + k] : &N[e->to];
    double tx = t->x + t->w / 2, ty = k < e->ndummies ? t->y : t->y - 2, my = (y + ty) / 2;
    sb_printf(b, " C%.1f %.1f %.1f %.1f %.1f %.1f", x, my, tx, my, tx, ty);
    x = tx;
    y = ty;
    if (k < e->ndummies) {
      y = t->y + t->layer_h;
      sb_printf(b, " L%.1f %.1f", x, y);
    }
  }
  sb_puts(b, "\"/>\n");
}

static void svg_emit(StrBuf *b, const SGraph *g) {
  for (int i = 0; i < g->edges.len; i++) svg_edge_path(b, g, &g->edges.data[i]);
  for (int v = 0; v < g->nodes.len; v++) {
    const SNode *s = &g->nodes.data[v];
    if (!s->text) continue;
    sb_puts(b, "<g class=\"n\"><title>");
    xml_text(b, s->text, strlen(s->text));
    sb_printf(b, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"%d\" fill=\"%s\"/>\n", s->x,
              s->y, s->w, s->h, s->round ? 12 : 3, s->fill);
    int line = 0;
    for (const char *p = s->text;; line++) {
      const char *e = strchr(p, '\n');
      size_t len = e ? (size_t)(e - p) : strlen(p);
      /* SVG collapses spaces: indentation becomes an offset */
      size_t sp = 0;
      while (sp < len && p[sp] == ' ') sp++;
      double ty = s->y + PAD_Y + (line + 1) * LINE_H - 4;
      sb_printf(b, "<text x=\"%.1f\" y=\"%.1f\">", s->x + PAD_X + (double)sp * CHAR_W, ty);
      xml_text(b, p + sp, len - sp);
      sb_puts(b, "</text>\n");
      if (s->head && line + 1 == s->head && e) {
        double ly = s->y + PAD_Y + s->head * LINE_H + 1;
        sb_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", s->x, ly, s->x + s->w, ly);
      }
      if (!e) break;
      p = e + 1;
    }
    sb_puts(b, "</g>\n");
  }
}

void dump_graph_html(StrBuf *b, const Module *m, const char *title) {
  int ntops;
  const Func **tops = top_level_funcs(m, &ntops);
  SGraph *gs = xcalloc((size_t)ntops + 1, sizeof(SGraph));
  double *tops_y = xcalloc((size_t)ntops + 1, sizeof(double));
  double width = 200, y = MARGIN;
  int nops = 0, nfusions = 0;
  for (int k = 0; k < ntops; k++) {
    svg_build(&gs[k], m, tops[k]);
    for (const Op *op = tops[k]->body->first; op; op = op->next) {
      nops++;
      nfusions += is_fusion(op);
    }
    tops_y[k] = y;
    double h, w = svg_layout(&gs[k], y + 24, &h);
    if (w > width) width = w;
    y += 24 + h + MARGIN;
  }
  sb_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
  xml_text(b, title, strlen(title));
  sb_puts(b, "</title>\n<style>\n"
             "body { font-family: sans-serif; margin: 16px; }\n"
             ".graph { overflow: auto; border: 1px solid #ccc; }\n"
             "svg text { font-family: monospace; font-size: 12px; fill: #111; }\n"
             "svg text.h { font-family: sans-serif; font-size: 14px; font-weight: bold; }\n"
             "svg rect { stroke: #555; stroke-width: 1; }\n"
             "svg line { stroke: #555; stroke-width: 1; }\n"
             "svg path.e { fill: none; stroke: #777; stroke-width: 1.2; marker-end: url(#arrow); }\n"
             "svg g.n:hover rect { stroke: #c00; stroke-width: 2; }\n"
             "pre { background: #f6f6f6; padding: 8px; overflow: auto; }\n"
             "</style>\n</head>\n<body>\n<h1>");
  xml_text(b, title, strlen(title));
  sb_printf(b, "</h1>\n<p>%d computation%s, %d top-level ops, %d fusions. Fusions are drawn as one box listing "
               "their fused ops; hover over a box for its full text.</p>\n",
            ntops, ntops == 1 ? "" : "s", nops, nfusions);
  sb_printf(b, "<div class=\"graph\">\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\">\n",
            width, y, width, y);
  sb_puts(b, "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" "
             "markerHeight=\"7\" orient=\"auto\"><path d=\"M0 0 L10 5 L0 10 z\" fill=\"#777\"/></marker></defs>\n");
  for (int k = 0; k < ntops; k++) {
    char *h = xasprintf("computation %s%s", tops[k] == module_entry(m) ? "ENTRY " : "", tops[k]->name);
    sb_printf(b, "<text class=\"h\" x=\"%d\" y=\"%.1f\">", MARGIN, tops_y[k] + 14);
    xml_text(b, h, strlen(h));
    sb_puts(b, "</text>\n");
    xfree(h);
    svg_emit(b, &gs[k]);
  }
  sb_puts(b, "</svg>\n</div>\n<details>\n<summary>Graphviz dot source</summary>\n<pre>");
  StrBuf dot = {0};
  dump_graph_dot(&dot, m, title);
  xml_text(b, dot.data ? dot.data : "", dot.len);
  sb_free(&dot);
  sb_puts(b, "</pre>\n</details>\n</body>\n</html>\n");
  for (int k = 0; k < ntops; k++) {
    for (int v = 0; v < gs[k].nodes.len; v++) xfree(gs[k].nodes.data[v].text);
    VEC_FREE(gs[k].nodes);
    VEC_FREE(gs[k].edges);
    ptrmap_free(&gs[k].ids);
  }
  xfree(gs);
  xfree(tops_y);
  xfree(tops);
}

/* --------------------------------------------------------- module dumps -- */

/* HLO text, and the graph when asked, under one base name. */
static void dump_module_forms(const DumpOptions *o, const Module *m, const char *base) {
  StrBuf b = {0};
  print_module_hlo(&b, m);
  char *suffix = xasprintf("%s.txt", base);
  write_dump(o, m, suffix, b.data ? b.data : "", b.len);
  xfree(suffix);
  sb_free(&b);
  if (!o->as_dot && !o->as_html) return;
  char *label = module_label(m);
  char *title = xasprintf("module_%04d.%s.%s", o->module_id, label, base);
  xfree(label);
  if (o->as_dot) {
    dump_graph_dot(&b, m, title);
    suffix = xasprintf("%s.dot", base);
    write_dump(o, m, suffix, b.data, b.len);
    xfree(suffix);
    sb_free(&b);
  }
  if (o->as_html) {
    dump_graph_html(&b, m, title);
    suffix = xasprintf("%s.html", base);
    write_dump(o, m, suffix, b.data, b.len);
    xfree(suffix);
    sb_free(&b);
  }
  xfree(title);
}

/* Where the between-pass dumps of the module being compiled stand: the dump
   counter and the next pass of the pipeline list. */
static struct {
  int module_id;
  bool active;
  int step;
  int next;
} pass_dumps;

static bool pass_runs(const DumpOptions *o, const Pass *p) { return !(o->no_fusion && p->run == pass_fusion); }

/* The first pass after index i that runs, or "pipeline-end". */
static const char *pass_after(const DumpOptions *o, int i) {
  int n;
  const Pass *ps = cpu_pipeline_passes(&n);
  for (int k = i + 1; k < n; k++)
    if (pass_runs(o, &ps[k])) return ps[k].name;
  return "pipeline-end";
}

/* 1 if the --xla_dump_hlo_pass_re pattern matches a or b, 0 if not, -1 if it
   does not compile. */
static int pass_re_matches(const DumpOptions *o, const char *a, const char *b, bool warn) {
  regex_t re;
  int rc = regcomp(&re, o->pass_re, REG_EXTENDED | REG_NOSUB);
  if (rc != 0) {
    if (warn) {
      char msg[256];
      regerror(rc, &re, msg, sizeof msg);
      warning_at(SRCLOC_NONE, "--xla_dump_hlo_pass_re: bad regular expression '%s': %s", o->pass_re, msg);
    }
    return -1;
  }
  int r = regexec(&re, a, 0, NULL, 0) == 0 || regexec(&re, b, 0, NULL, 0) == 0;
  regfree(&re);
  return r;
}

static void dump_between_passes(const DumpOptions *o, const Module *m, const char *after, const char *before) {
  char *base = xasprintf("%04d.%s.after_%s.before_%s", pass_dumps.step++, pipeline_name, after, before);
  dump_module_forms(o, m, base);
  xfree(base);
}

void dump_module(const DumpOptions *o, const Module *m, const char *stage) {
  if (!o->dir) return;
  dump_module_forms(o, m, stage);
  if (strcmp(stage, "before_optimizations") != 0) return;
  pass_dumps.module_id = o->module_id;
  pass_dumps.active = true;
  pass_dumps.step = 0;
  pass_dumps.next = 0;
  if (!o->pass_re) return;
  const char *first = pass_after(o, -1);
  if (pass_re_matches(o, "pipeline-start", first, true) == 1)
    dump_between_passes(o, m, "pipeline-start", first);
}

void dump_after_pass(const char *pass_name, Module *m, bool changed, void *ud) {
  const DumpOptions *o = ud;
  if (!o || !o->dir || !o->pass_re) return;
  if (!pass_dumps.active || pass_dumps.module_id != o->module_id) {
    /* a pipeline run without the before_optimizations dump */
    pass_dumps.module_id = o->module_id;
    pass_dumps.active = true;
    pass_dumps.step = 0;
    pass_dumps.next = 0;
  }
  int n;
  const Pass *ps = cpu_pipeline_passes(&n);
  int at = -1;
  for (int k = pass_dumps.next; k < n && at < 0; k++)
    if (pass_runs(o, &ps[k]) && strcmp(ps[k].name, pass_name) == 0) at = k;
  const char *next = at >= 0 ? pass_after(o, at) : "pipeline-end";
  if (at >= 0) pass_dumps.next = at + 1;
  /* as XLA: with ".*" a pass that changed nothing is not dumped */
  if (!changed && strcmp(o->pass_re, ".*") == 0) return;
  if (pass_re_matches(o, pass_name, next, false) == 1) dump_between_passes(o, m, pass_name, next);
}

void dump_text(const DumpOptions *o, const Module *m, const char *suffix, const char *text) {
  if (!o->dir) return;
  if (strcmp(suffix, "buffer-assignment.txt") == 0) suffix = "after_optimizations-buffer-assignment.txt";
  write_dump(o, m, suffix, text, strlen(text));
}

void dump_llvm(const DumpOptions *o, const Module *m, const char *suffix, LLVMModuleRef M) {
  if (!o->dir) return;
  char *ir = LLVMPrintModuleToString(M);
  write_dump(o, m, suffix, ir, strlen(ir));
  LLVMDisposeMessage(ir);
}

void dump_object(const DumpOptions *o, const Module *m, LLVMModuleRef M, int opt_level) {
  if (!o->dir) return;
  LLVMTargetMachineRef tm = jit_host_machine(opt_level ? opt_level : 3);
  if (!tm) {
    dump_warning("cannot write the object file: no target machine for the host");
    return;
  }
  /* code generation rewrites the module it is given; the JIT still needs M */
  LLVMModuleRef copy = LLVMCloneModule(M);
  char *err = NULL;
  LLVMMemoryBufferRef buf = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, copy, LLVMObjectFile, &err, &buf)) {
    dump_warning("cannot emit the object file: %s", err ? err : "unknown error");
    LLVMDisposeMessage(err);
  } else {
    write_dump(o, m, "o", LLVMGetBufferStart(buf), LLVMGetBufferSize(buf));
    LLVMDisposeMemoryBuffer(buf);
  }
  LLVMDisposeModule(copy);
  LLVMDisposeTargetMachine(tm);
}

/* ---------------------------------------------------------------- flags -- */

/* "", "=true", "=1" -> 1; "=false", "=0" -> 0; else -1 */
static int flag_bool(const char *rest) {
  if (!*rest) return 1;
  if (*rest != '=') return -1;
  rest++;
  if (strcmp(rest, "true") == 0 || strcmp(rest, "1") == 0) return 1;
  if (strcmp(rest, "false") == 0 || strcmp(rest, "0") == 0) return 0;
  return -1;
}

int dump_parse_flag(DumpOptions *o, const char *word) {
  static const struct {
    const char *name;
    int kind; /* 0: string value; 1: dot; 2: html; 3: text (always on) */
  } flags[] = {
      {"--xla_dump_to", 0},          {"--xla_dump_hlo_pass_re", 0}, {"--xla_dump_hlo_as_dot", 1},
      {"--xla_dump_hlo_as_html", 2}, {"--xla_dump_hlo_as_text", 3},
  };
  for (size_t i = 0; i < ARRAY_LEN(flags); i++) {
    size_t n = strlen(flags[i].name);
    if (strncmp(word, flags[i].name, n) != 0 || (word[n] && word[n] != '=')) continue;
    const char *rest = word + n;
    if (flags[i].kind == 0) {
      if (rest[0] != '=' || !rest[1]) {
        error_at(SRCLOC_NONE, "%s needs a value (%s=...)", flags[i].name, flags[i].name);
        return -1;
      }
      if (i == 0)
        o->dir = rest + 1;
      else
        o->pass_re = rest + 1;
      return 1;
    }
    int v = flag_bool(rest);
    if (v < 0) {
      error_at(SRCLOC_NONE, "%s takes no value or =true / =false, got '%s'", flags[i].name, word);
      return -1;
    }
    if (flags[i].kind == 1) o->as_dot = v;
    if (flags[i].kind == 2) o->as_html = v;
    return 1;
  }
  return 0;
}

bool dump_parse_flags(DumpOptions *o, char *flags) {
  bool ok = true;
  char *p = flags;
  while (p && *p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (!*p) break;
    /* one word, removing quotes in place */
    char *word = p, *w = p, quote = 0;
    for (; *p; p++) {
      if (quote) {
        if (*p == quote)
          quote = 0;
        else
          *w++ = *p;
      } else if (*p == '"' || *p == '\'') {
        quote = *p;
      } else if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
        break;
      } else {
        *w++ = *p;
      }
    }
    bool more = *p != 0;
    if (more) p++;
    *w = 0;
    int r = dump_parse_flag(o, word);
    if (r < 0) ok = false;
    if (r == 0) warning_at(SRCLOC_NONE, "ignoring '%s' in XLA_FLAGS (xlac knows only the dump flags)", word);
  }
  return ok;
}
