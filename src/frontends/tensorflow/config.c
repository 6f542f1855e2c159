/*
 * config.c - the tf2xla Config checked against its graph before anything
 * uses it: a Config is written by hand, and what it says becomes array
 * indexes, parameter types and names.
 *
 *   - every feed, fetch and variable names a node of the graph, and an
 *     output the node has (output_index is neither negative nor past the
 *     node's outputs);
 *   - shapes are shapes (dimensions -1 or more, rank at most 64, at most
 *     2^62 elements) and agree with the Placeholder's or the variable's
 *     own; types are DataTypes that exist, of values (not a reference
 *     type), that xlac compiles, and a variable's is its node's;
 *   - nothing is given twice: a tensor fed twice, a variable named twice, a
 *     variable that is also fed, two parameters (feeds, variables) or two
 *     results (fetches, variables) of one name;
 *   - what xlac cannot honour is refused (conversion_options that ask for
 *     custom calls).
 *
 * Every problem is reported, at its entry of the Config (file:line:col in
 * text, file:OFFSET in binary), before the first is acted on.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "frontends/tensorflow/tf_int.h"

typedef struct Check {
  const TfConfig *c;
  const TfGraph *g;
  const char *graph_path;
  int *reads;         /* per node: 1 + the highest output index anything reads */
  StrMap tensors;     /* "node:i" fed -> feed index + 1 */
  StrMap params;      /* parameter names -> index in who + 1 */
  StrMap results;     /* given result names -> index in who + 1 */
  VEC(char *) who;    /* what each name belongs to, for messages */
  bool ok;
} Check;

static void check_error(Check *ck, SrcLoc loc, const char *fmt, ...) XLAC_PRINTF(3, 4);
static void check_error(Check *ck, SrcLoc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdiag(DIAG_ERROR, loc, fmt, ap);
  va_end(ap);
  ck->ok = false;
}

SrcLoc tf_config_loc(const TfConfig *c, const char *field, size_t i) {
  const ProtobufCFieldDescriptor *f =
      protobuf_c_message_descriptor_get_field_by_name(&tensorflow__tf2xla__config__descriptor, field);
  return pb_field_loc(&c->locs, c->file, f ? f->id : 0, i);
}

/* "feed 'x'" (its name, else its node's), or "feed 2" when it has neither. */
static void entry_name(char *buf, size_t n, const char *kind, size_t i, const char *name, const char *node) {
  if (name && name[0]) snprintf(buf, n, "%s '%s'", kind, name);
  else if (node && node[0]) snprintf(buf, n, "%s '%s'", kind, node);
  else snprintf(buf, n, "%s %zu", kind, i);
}

/* Ops with one output whatever their attributes: the nodes a Config feeds
   and names as variables.  Other ops' outputs are known only once they are
   lowered (Split has num_split). */
static int known_outputs(const TfNode *n) {
  static const char *const one[] = {"Placeholder", "PlaceholderV2", "PlaceholderWithDefault", "Const", "VarHandleOp"};
  for (size_t i = 0; i < sizeof one / sizeof *one; i++)
    if (!strcmp(n->op, one[i])) return 1;
  return -1;
}

/* A TensorId: the node's index, or -1 after an error.  The output index
   is not negative, below the node's outputs when they are known, and below
   TF_MAX_OUTPUTS; a feed's is also bounded by what the graph reads (the
   caller's check). */
static int check_id(Check *ck, SrcLoc loc, const char *who, const Tensorflow__Tf2xla__TensorId *id) {
  if (!id || !id->node_name[0]) {
    check_error(ck, loc, "%s names no node (its id has no node_name)", who);
    return -1;
  }
  int k = tf_graph_find(ck->g, id->node_name);
  if (k < 0) {
    check_error(ck, loc, "%s names node '%s', which is not in %s", who, id->node_name, ck->graph_path);
    return -1;
  }
  if (id->output_index < 0) {
    check_error(ck, loc, "%s: output_index %lld is negative", who, (long long)id->output_index);
    return -1;
  }
  const TfNode *n = &ck->g->nodes[k];
  int known = known_outputs(n);
  if (known > 0 && id->output_index >= known) {
    check_error(ck, loc, "%s: node '%s' (%s) has %d output%s, so output_index %lld is out of range", who, n->name,
                n->op, known, known == 1 ? "" : "s", (long long)id->output_index);
    return -1;
  }
  if (id->output_index >= TF_MAX_OUTPUTS) {
    check_error(ck, loc, "%s: output_index %lld is out of range (at most %d)", who, (long long)id->output_index,
                TF_MAX_OUTPUTS - 1);
    return -1;
  }
  return k;
}

/* ---- shapes and types ---- */
static void shape_str(StrBuf *b, const Tensorflow__TensorShapeProto *sp) {
  if (sp->unknown_rank) {
    sb_puts(b, "<unknown rank>");
    return;
  }
  sb_putc(b, '[');
  for (size_t i = 0; i < sp->n_dim; i++) {
    if (sp->dim[i]->size < 0) sb_printf(b, "%s?", i ? "," : "");
    else sb_printf(b, "%s%lld", i ? "," : "", (long long)sp->dim[i]->size);
  }
  sb_putc(b, ']');
}

/* A shape TensorFlow could mean; -1 (unknown) is left to the use, which
   says to give the whole shape. */
static bool check_shape(Check *ck, SrcLoc loc, const char *who, const Tensorflow__TensorShapeProto *sp) {
  if (!sp) return true;
  if (sp->unknown_rank && sp->n_dim) {
    check_error(ck, loc, "%s: the shape has unknown_rank set, and %zu dimensions", who, sp->n_dim);
    return false;
  }
  if (sp->n_dim > 64) {
    check_error(ck, loc, "%s: the shape's rank %zu is above 64", who, sp->n_dim);
    return false;
  }
  uint64_t count = 1;
  for (size_t i = 0; i < sp->n_dim; i++) {
    int64_t d = sp->dim[i]->size;
    if (d < -1) {
      check_error(ck, loc, "%s: dimension %zu of the shape is %lld; a size is 0 or more (-1: unknown)", who, i,
                  (long long)d);
      return false;
    }
    if (d >= 0 && count && (uint64_t)d > ((uint64_t)1 << 62) / count) {
      check_error(ck, loc, "%s: the shape has more than 2^62 elements", who);
      return false;
    }
    if (d >= 0) count *= (uint64_t)d;
  }
  return true;
}

/* Whether two shapes can describe the same tensor: equal ranks where both
   are known, equal sizes where both are known. */
static bool shapes_agree(const Tensorflow__TensorShapeProto *a, const Tensorflow__TensorShapeProto *b) {
  if (a->unknown_rank || b->unknown_rank) return true;
  if (a->n_dim != b->n_dim) return false;
  for (size_t i = 0; i < a->n_dim; i++)
    if (a->dim[i]->size >= 0 && b->dim[i]->size >= 0 && a->dim[i]->size != b->dim[i]->size) return false;
  return true;
}

/* The Config's shape against the node's own (a Placeholder's or a
   VarHandleOp's `shape` attribute), where the node has one. */
static void check_node_shape(Check *ck, SrcLoc loc, const char *who, const Tensorflow__TensorShapeProto *sp,
                             const TfNode *n) {
  const TfAttr *a = tf_node_attr(n, "shape");
  if (!sp || !a || a->value_case != TENSORFLOW__ATTR_VALUE__VALUE_SHAPE || !a->shape) return;
  if (shapes_agree(sp, a->shape)) return;
  StrBuf mine = {0}, theirs = {0};
  shape_str(&mine, sp);
  shape_str(&theirs, a->shape);
  check_error(ck, loc, "%s: the shape %s does not match the shape %s of node '%s' (%s)", who, mine.data,
              theirs.data, n->name, n->op);
  sb_free(&mine);
  sb_free(&theirs);
}

/* A DataType given in the Config (0: not given). */
static bool check_type(Check *ck, SrcLoc loc, const char *who, int type) {
  if (!type) return true;
  const ProtobufCEnumValue *v = protobuf_c_enum_descriptor_get_value(&tensorflow__data_type__descriptor, type);
  if (!v) {
    check_error(ck, loc, "%s: type %d is not a TensorFlow DataType", who, type);
    return false;
  }
  if (type > 100) {
    check_error(ck, loc, "%s: %s is a reference type, not the type of a value", who, v->name);
    return false;
  }
  if (tf_elem_of_dtype(type) == ET_INVALID) {
    check_error(ck, loc, "%s: %s is not a type xlac compiles", who, v->name);
    return false;
  }
  return true;
}

/* ---- names ---- */
/* Registers name in map for entry i of field `kind`; an error (about
   `who`) if an earlier entry has it. */
static bool claim_name(Check *ck, StrMap *map, SrcLoc loc, const char *who, const char *kind, size_t i,
                       const char *name, const char *what) {
  void *p = strmap_get(map, name);
  if (p) {
    check_error(ck, loc, "%s: %s is named '%s' too; %s must have different names", who,
                ck->who.data[(intptr_t)p - 1], name, what);
    return false;
  }
  VEC_PUSH(ck->who, xasprintf("%s %zu", kind, i));
  strmap_put(map, name, (void *)(intptr_t)ck->who.len);
  return true;
}

/* ---- the entries ---- */
/* 1 + the highest output index of each node that a node of the graph or a
   fetch reads: how far a feed of a node whose outputs are not known may
   go. */
static void count_reads(Check *ck) {
  const TfGraph *g = ck->g;
  ck->reads = xcalloc((size_t)g->nnodes + 1, sizeof(int));
  for (int k = 0; k < g->nnodes; k++)
    for (int i = 0; i < g->nodes[k].ninputs; i++) {
      TfInput in = g->nodes[k].inputs[i];
      if (in.out + 1 > ck->reads[in.node]) ck->reads[in.node] = in.out + 1;
    }
  const Tensorflow__Tf2xla__Config *cfg = ck->c->msg;
  for (size_t i = 0; i < cfg->n_fetch; i++) {
    const Tensorflow__Tf2xla__TensorId *id = cfg->fetch[i]->id;
    int k = id && id->node_name[0] ? tf_graph_find(g, id->node_name) : -1;
    if (k >= 0 && id->output_index >= 0 && id->output_index < TF_MAX_OUTPUTS && id->output_index + 1 > ck->reads[k])
      ck->reads[k] = (int)id->output_index + 1;
  }
}

static void check_feed(Check *ck, size_t i) {
  const Tensorflow__Tf2xla__Feed *f = ck->c->msg->feed[i];
  SrcLoc loc = tf_config_loc(ck->c, "feed", i);
  char who[300];
  entry_name(who, sizeof who, "feed", i, f->name, f->id ? f->id->node_name : NULL);
  int k = check_id(ck, loc, who, f->id);
  check_type(ck, loc, who, f->type);
  if (check_shape(ck, loc, who, f->shape) && k >= 0) check_node_shape(ck, loc, who, f->shape, &ck->g->nodes[k]);
  if (k < 0) return;
  const TfNode *n = &ck->g->nodes[k];
  int64_t out = f->id->output_index;
  int reads = ck->reads[k] ? ck->reads[k] : 1;
  if (known_outputs(n) < 0 && out >= reads) {
    char used[64];
    if (reads == 1) snprintf(used, sizeof used, "only output 0");
    else snprintf(used, sizeof used, "outputs 0 to %d", reads - 1);
    check_error(ck, loc, "%s: output_index %lld of node '%s' (%s) is out of range: the graph uses %s of it", who,
                (long long)out, n->name, n->op, used);
    return;
  }
  char tensor[300];
  snprintf(tensor, sizeof tensor, "%s:%lld", n->name, (long long)out);
  void *p = strmap_get(&ck->tensors, tensor);
  if (p) {
    check_error(ck, loc, "%s: feed %d feeds %s already; a tensor is fed once", who, (int)((intptr_t)p - 1),
                tensor);
    return;
  }
  strmap_put(&ck->tensors, tensor, (void *)(intptr_t)(i + 1));
  claim_name(ck, &ck->params, loc, who, "feed", i, f->name[0] ? f->name : f->id->node_name, "parameters");
}

static void check_fetch(Check *ck, size_t i) {
  const Tensorflow__Tf2xla__Fetch *f = ck->c->msg->fetch[i];
  SrcLoc loc = tf_config_loc(ck->c, "fetch", i);
  char who[300];
  entry_name(who, sizeof who, "fetch", i, f->name, f->id ? f->id->node_name : NULL);
  check_id(ck, loc, who, f->id);
  check_type(ck, loc, who, f->type);
  check_shape(ck, loc, who, f->shape);
  /* the same tensor may be fetched twice (tfcompile allows it), but the
     names given to results become accessors and must differ */
  if (f->name[0]) claim_name(ck, &ck->results, loc, who, "fetch", i, f->name, "results");
}

static void check_variable(Check *ck, size_t i) {
  const Tensorflow__Tf2xla__Config *cfg = ck->c->msg;
  const Tensorflow__Tf2xla__Variable *v = cfg->variable[i];
  SrcLoc loc = tf_config_loc(ck->c, "variable", i);
  char who[300];
  entry_name(who, sizeof who, "variable", i, v->name, v->node_name);
  if (!v->type) check_error(ck, loc, "%s has no type; give its 'type'", who);
  else check_type(ck, loc, who, v->type);
  bool shape_ok = check_shape(ck, loc, who, v->shape);
  if (!v->node_name[0]) {
    check_error(ck, loc, "%s names no node (node_name is empty)", who);
    return;
  }
  int k = tf_graph_find(ck->g, v->node_name);
  if (k < 0) {
    check_error(ck, loc, "%s names node '%s', which is not in %s", who, v->node_name, ck->graph_path);
    return;
  }
  const TfNode *n = &ck->g->nodes[k];
  if (strcmp(n->op, "VarHandleOp")) {
    check_error(ck, loc, "%s names node '%s' (%s), which is not a VarHandleOp", who, n->name, n->op);
    return;
  }
  const TfAttr *dt = tf_node_attr(n, "dtype");
  if (v->type && dt && dt->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TYPE && dt->type && dt->type != v->type)
    check_error(ck, loc, "%s: the type is %s, but node '%s' (VarHandleOp) holds %s", who, tf_dtype_name(v->type),
                n->name, tf_dtype_name(dt->type));
  if (shape_ok) check_node_shape(ck, loc, who, v->shape, n);
  for (size_t j = 0; j < i; j++)
    if (!strcmp(cfg->variable[j]->node_name, v->node_name)) {
      check_error(ck, loc, "%s: variable %zu names node '%s' already", who, j, v->node_name);
      return;
    }
  char tensor[300];
  snprintf(tensor, sizeof tensor, "%s:0", n->name);
  if (strmap_get(&ck->tensors, tensor)) {
    check_error(ck, loc, "%s: node '%s' is also fed; a variable is a parameter of its own", who, n->name);
    return;
  }
  const char *name = v->name[0] ? v->name : v->node_name;
  if (claim_name(ck, &ck->params, loc, who, "variable", i, name, "parameters") && !v->readonly)
    claim_name(ck, &ck->results, loc, who, "variable", i, name, "results");
}

bool tf_config_check(const TfConfig *c, const TfGraph *g, const char *graph_path) {
  Check ck;
  memset(&ck, 0, sizeof ck);
  ck.c = c;
  ck.g = g;
  ck.graph_path = graph_path;
  ck.ok = true;
  const Tensorflow__Tf2xla__Config *cfg = c->msg;
  count_reads(&ck);
  for (size_t i = 0; i < cfg->n_feed; i++) check_feed(&ck, i);
  for (size_t i = 0; i < cfg->n_fetch; i++) check_fetch(&ck, i);
  for (size_t i = 0; i < cfg->n_variable; i++) check_variable(&ck, i);
  if (!cfg->n_fetch) check_error(&ck, (SrcLoc){c->file, 0}, "the Config names no fetch");
  if (cfg->conversion_options && cfg->conversion_options->custom_fake_quant_op_calls)
    check_error(&ck, tf_config_loc(c, "conversion_options", 0),
                "conversion_options: custom_fake_quant_op_calls asks for FakeQuant ops as calls of a function "
                "linked with the program; xlac makes no such calls");
  for (int i = 0; i < ck.who.len; i++) xfree(ck.who.data[i]);
  VEC_FREE(ck.who);
  strmap_free(&ck.tensors);
  strmap_free(&ck.params);
  strmap_free(&ck.results);
  xfree(ck.reads);
  return ck.ok;
}

bool tf_config_check_fetch(const TfConfig *c, size_t i, const Type *t) {
  const Tensorflow__Tf2xla__Fetch *f = c->msg->fetch[i];
  char who[300];
  entry_name(who, sizeof who, "fetch", i, f->name, f->id ? f->id->node_name : NULL);
  bool type_ok = !f->type || t->kind != TY_TENSOR || tf_elem_of_dtype(f->type) == t->elem;
  bool shape_ok = true;
  if (f->shape && !f->shape->unknown_rank && t->kind == TY_TENSOR) {
    shape_ok = (int)f->shape->n_dim == t->rank;
    for (int d = 0; shape_ok && d < t->rank; d++)
      shape_ok = f->shape->dim[d]->size < 0 || f->shape->dim[d]->size == t->dims[d];
  }
  if (type_ok && shape_ok) return true;
  StrBuf want = {0};
  if (f->shape) shape_str(&want, f->shape);
  if (f->type) sb_printf(&want, "%s%s", f->shape ? " " : "", tf_dtype_name(f->type));
  char *got = type_str(t);
  error_at(tf_config_loc(c, "fetch", i), "%s: the Config says %s, but the value is %s", who, want.data, got);
  xfree(got);
  sb_free(&want);
  return false;
}
