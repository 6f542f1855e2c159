/*
 * clusters.c - `xlac tf-clusters` and the op table's documentation.
 *
 * A cluster is a connected set of nodes whose op types xlac compiles
 * (connected through data edges, either way), as TensorFlow's
 * auto-clustering would form them; the nodes whose op types xlac does not
 * compile break the graph into clusters.  The report says how much of the
 * graph compiles, lists the clusters by size, and lists the breaking op
 * types with their counts and some node names, so a user sees how far a
 * graph is from compiling whole.  --picture writes the graph as Graphviz
 * dot, or as an HTML page with the same picture drawn in SVG (nodes in
 * columns by depth), clusters coloured, breaking nodes in red.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/tensorflow/pb.h"
#include "frontends/tensorflow/tf_int.h"

void tf_op_table_markdown(StrBuf *b) {
  int n;
  const TfOpDef *const *all = tf_op_all(&n);
  sb_printf(b, "| TensorFlow op | notes |\n|---|---|\n");
  for (int i = 0; i < n; i++) sb_printf(b, "| %s | %s |\n", all[i]->op, all[i]->note ? all[i]->note : "");
  sb_printf(b, "\n%d op types.\n", n);
  xfree((void *)all);
}

static int find_root(int *parent, int k) {
  while (parent[k] != k) {
    parent[k] = parent[parent[k]];
    k = parent[k];
  }
  return k;
}

static bool compiles(const TfNode *n, const Tensorflow__GraphDef *gd) {
  if (tf_op_lookup(n->op)) return true;
  if (gd->library)
    for (size_t i = 0; i < gd->library->n_function; i++)
      if (gd->library->function[i]->signature && !strcmp(gd->library->function[i]->signature->name, n->op))
        return true;
  return false;
}

typedef struct OpCount {
  const char *op;
  int count;
  int first; /* a node of that type */
} OpCount;

static int cmp_count(const void *a, const void *b) {
  const OpCount *x = a, *y = b;
  if (x->count != y->count) return y->count - x->count;
  return strcmp(x->op, y->op);
}

static const char *const palette[] = {"#8dd3c7", "#bebada", "#80b1d3", "#fdb462", "#b3de69",
                                      "#fccde5", "#bc80bd", "#ccebc5", "#ffed6f", "#d9d9d9"};

static void put_escaped(FILE *f, const char *s, bool html) {
  for (; *s; s++) {
    if (html && *s == '<') fputs("&lt;", f);
    else if (html && *s == '>') fputs("&gt;", f);
    else if (html && *s == '&') fputs("&amp;", f);
    else if (*s == '"') fputs(html ? "&quot;" : "\\\"", f);
    else if (*s == '\\' && !html) fputs("\\\\", f);
    else fputc(*s, f);
  }
}

static bool write_picture(const char *path, const TfGraph *g, const bool *ok, const int *cluster_of) {
  size_t n = strlen(path);
  bool html = n > 5 && !strcmp(path + n - 5, ".html");
  FILE *f = fopen(path, "w");
  if (!f) {
    error_at(SRCLOC_NONE, "cannot write '%s'", path);
    return false;
  }
  if (!html) {
    fputs("digraph tf {\n  rankdir=TB;\n  node [shape=box, style=filled, fontname=\"Helvetica\"];\n", f);
    for (int k = 0; k < g->nnodes; k++) {
      const TfNode *nd = &g->nodes[k];
      const char *color = ok[k] ? palette[cluster_of[k] % 10] : "#fb8072";
      fprintf(f, "  n%d [label=\"", k);
      put_escaped(f, nd->name, false);
      fputs("\\n", f);
      put_escaped(f, nd->op, false);
      fprintf(f, "\", fillcolor=\"%s\"%s];\n", color, ok[k] ? "" : ", penwidth=3");
    }
    for (int k = 0; k < g->nnodes; k++)
      for (int i = 0; i < g->nodes[k].ninputs; i++) fprintf(f, "  n%d -> n%d;\n", g->nodes[k].inputs[i].node, k);
    fputs("}\n", f);
  } else {
    /* columns by depth (longest path from a source, back edges ignored) */
    int *depth = xcalloc((size_t)g->nnodes + 1, sizeof(int));
    for (int pass = 0; pass < 64; pass++) {
      bool changed = false;
      for (int k = 0; k < g->nnodes; k++)
        for (int i = 0; i < g->nodes[k].ninputs; i++) {
          int j = g->nodes[k].inputs[i].node;
          if (!strcmp(g->nodes[j].op, "NextIteration")) continue;
          if (depth[j] + 1 > depth[k] && depth[j] + 1 < 100000) {
            depth[k] = depth[j] + 1;
            changed = true;
          }
        }
      if (!changed) break;
    }
    int maxd = 0;
    for (int k = 0; k < g->nnodes; k++) maxd = depth[k] > maxd ? depth[k] : maxd;
    int *row = xcalloc((size_t)g->nnodes + 1, sizeof(int)), *used = xcalloc((size_t)maxd + 2, sizeof(int));
    int maxrow = 0;
    for (int k = 0; k < g->nnodes; k++) {
      row[k] = used[depth[k]]++;
      maxrow = row[k] > maxrow ? row[k] : maxrow;
    }
    const int W = 170, H = 40;
    fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>xlac tf-clusters</title></head>\n"
               "<body style=\"font-family:Helvetica,sans-serif\">\n<p>Coloured boxes: clusters xlac compiles "
               "(one colour per cluster); red: op types xlac does not compile.</p>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-size=\"10\">\n",
            (maxd + 1) * W + 20, (maxrow + 1) * H + 20);
    for (int k = 0; k < g->nnodes; k++)
      for (int i = 0; i < g->nodes[k].ninputs; i++) {
        int j = g->nodes[k].inputs[i].node;
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>\n", 10 + depth[j] * W + 140,
                10 + row[j] * H + 15, 10 + depth[k] * W, 10 + row[k] * H + 15);
      }
    for (int k = 0; k < g->nnodes; k++) {
      const TfNode *nd = &g->nodes[k];
      int x = 10 + depth[k] * W, y = 10 + row[k] * H;
      fputs("<g><title>", f);
      put_escaped(f, nd->name, true);
      fputs(" (", f);
      put_escaped(f, nd->op, true);
      fprintf(f, ")</title><rect x=\"%d\" y=\"%d\" width=\"140\" height=\"30\" fill=\"%s\" stroke=\"#333\"/>"
                 "<text x=\"%d\" y=\"%d\">",
              x, y, ok[k] ? palette[cluster_of[k] % 10] : "#fb8072", x + 4, y + 19);
      put_escaped(f, nd->op, true);
      fputs("</text></g>\n", f);
    }
    fputs("</svg>\n</body></html>\n", f);
    xfree(depth);
    xfree(row);
    xfree(used);
  }
  bool good = fclose(f) == 0;
  if (!good) error_at(SRCLOC_NONE, "cannot write '%s'", path);
  return good;
}

int tf_clusters(const char *graph_path, const char *picture_path, const TfOptions *o) {
  (void)o;
  Tensorflow__GraphDef *gd = (Tensorflow__GraphDef *)pb_read_file(graph_path, &tensorflow__graph_def__descriptor);
  if (!gd) return 1;
  Arena a;
  arena_init(&a);
  char *err = NULL;
  TfGraph *g = tf_graph_new(&a, gd, &err);
  int status = 0;
  if (err) {
    error_at(SRCLOC_NONE, "%s: %s", graph_path, err);
    xfree(err);
    status = 1;
    goto done;
  }
  int nn = g->nnodes;
  bool *ok = xcalloc((size_t)nn + 1, sizeof(bool));
  int *parent = xcalloc((size_t)nn + 1, sizeof(int));
  int nok = 0;
  for (int k = 0; k < nn; k++) {
    ok[k] = compiles(&g->nodes[k], gd);
    nok += ok[k];
    parent[k] = k;
  }
  for (int k = 0; k < nn; k++)
    for (int i = 0; i < g->nodes[k].ninputs; i++) {
      int j = g->nodes[k].inputs[i].node;
      if (ok[k] && ok[j]) parent[find_root(parent, k)] = find_root(parent, j);
    }
  /* clusters numbered by size */
  int *size = xcalloc((size_t)nn + 1, sizeof(int));
  for (int k = 0; k < nn; k++)
    if (ok[k]) size[find_root(parent, k)]++;
  VEC(int) roots = {0};
  for (int k = 0; k < nn; k++)
    if (ok[k] && find_root(parent, k) == k && size[k] > 0) VEC_PUSH(roots, k);
  for (int i = 1; i < roots.len; i++)
    for (int j = i; j > 0 && size[roots.data[j]] > size[roots.data[j - 1]]; j--) {
      int t = roots.data[j];
      roots.data[j] = roots.data[j - 1];
      roots.data[j - 1] = t;
    }
  int *cluster_of = xcalloc((size_t)nn + 1, sizeof(int));
  for (int c = 0; c < roots.len; c++)
    for (int k = 0; k < nn; k++)
      if (ok[k] && find_root(parent, k) == roots.data[c]) cluster_of[k] = c;
  printf("%s: %d nodes; %d (%.1f%%) of op types xlac compiles, in %d cluster%s; %d that break the graph\n",
         graph_path, nn, nok, nn ? 100.0 * nok / nn : 100.0, roots.len, roots.len == 1 ? "" : "s", nn - nok);
  int shown = roots.len < 20 ? roots.len : 20;
  for (int c = 0; c < shown; c++) {
    /* its op types */
    VEC(OpCount) ops = {0};
    for (int k = 0; k < nn; k++) {
      if (!ok[k] || cluster_of[k] != c) continue;
      int i = 0;
      while (i < ops.len && strcmp(ops.data[i].op, g->nodes[k].op)) i++;
      if (i == ops.len) VEC_PUSH(ops, ((OpCount){g->nodes[k].op, 0, k}));
      ops.data[i].count++;
    }
    qsort(ops.data, (size_t)ops.len, sizeof(OpCount), cmp_count);
    printf("  cluster %d: %d nodes:", c + 1, size[roots.data[c]]);
    for (int i = 0; i < ops.len && i < 12; i++) printf(" %s %d%s", ops.data[i].op, ops.data[i].count, i + 1 < ops.len ? "," : "");
    if (ops.len > 12) printf(" ...");
    printf("\n");
    VEC_FREE(ops);
  }
  if (roots.len > shown) printf("  ... and %d smaller clusters\n", roots.len - shown);
  if (nok < nn) {
    VEC(OpCount) bad = {0};
    for (int k = 0; k < nn; k++) {
      if (ok[k]) continue;
      int i = 0;
      while (i < bad.len && strcmp(bad.data[i].op, g->nodes[k].op)) i++;
      if (i == bad.len) VEC_PUSH(bad, ((OpCount){g->nodes[k].op, 0, k}));
      bad.data[i].count++;
    }
    qsort(bad.data, (size_t)bad.len, sizeof(OpCount), cmp_count);
    printf("op types xlac does not compile (they break the graph):\n");
    for (int i = 0; i < bad.len; i++)
      printf("  %-28s %d node%s, e.g. '%s'\n", bad.data[i].op, bad.data[i].count, bad.data[i].count == 1 ? "" : "s",
             g->nodes[bad.data[i].first].name);
    VEC_FREE(bad);
  } else {
    printf("every node's op type compiles: 'xlac run' and 'xlac aot' take the graph whole\n");
  }
  if (picture_path && !write_picture(picture_path, g, ok, cluster_of)) status = 1;
  else if (picture_path) printf("picture: %s\n", picture_path);
  VEC_FREE(roots);
  xfree(size);
  xfree(cluster_of);
  xfree(ok);
  xfree(parent);
done:
  tf_graph_free(g);
  arena_free(&a);
  pb_free(&gd->base);
  return status;
}
