/*
 * print_hlo.c - the IR as XLA HLO text.
 *
 * HLO has no nested regions: every region becomes a computation printed
 * before the one that uses it, named after the op (`<op>.to_apply`).  Ops
 * with several results print as one tuple-typed instruction followed by a
 * get-tuple-element per used result, which the HLO frontend folds back into
 * the results, so a second print is identical to the first.  Names come
 * from Value::name where present, made unique module-wide in print order;
 * unnamed values get the opcode as a base name.  Conditional branches use
 * values from outside (implicit capture); they are passed as the branch
 * operand, packed into a tuple when there are several.
 */
#include "ir/print_hlo.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct Pr {
  const Module *m;
  StrMap names;      /* instruction names in use -> (void*)1 */
  StrMap comps;      /* computation names in use */
  VEC(char *) vname; /* by Value::id */
  VEC(int) uses;     /* by Value::id */
  VEC(char *) out;   /* finished computations, in print order */
  /* the next computation takes its arguments as one tuple parameter (a
     while with several state values: HLO loops carry one tuple) */
  bool tuple_params;
} Pr;

static void number_block(Pr *pr, Block *b);

static void number_value(Pr *pr, Value *v) {
  v->id = pr->vname.len;
  VEC_PUSH(pr->vname, NULL);
  VEC_PUSH(pr->uses, 0);
}

/* Operands that appear in the text (rng's shape operand is implied by the
   result type in HLO). */
static int printed_opnds(const Op *op) {
  if (op->kind == OP_RNG && op->nopnds == 3) return 2;
  return op->nopnds;
}

static void number_block(Pr *pr, Block *b) {
  for (int i = 0; i < b->nargs; i++) number_value(pr, b->args[i]);
  for (Op *op = b->first; op; op = op->next) {
    for (int i = 0; i < op->nres; i++) number_value(pr, &op->res[i]);
    for (int r = 0; r < op->nregions; r++) number_block(pr, op->regions[r]);
  }
}

static void count_uses(Pr *pr, Block *b) {
  for (Op *op = b->first; op; op = op->next) {
    int n = printed_opnds(op);
    for (int i = 0; i < n; i++) {
      int id = op->opnds[i]->id;
      if (id >= 0 && id < pr->uses.len) pr->uses.data[id]++;
    }
    for (int r = 0; r < op->nregions; r++) count_uses(pr, op->regions[r]);
  }
}

/* Unique, HLO-safe name from base. */
static char *claim(StrMap *used, const char *base) {
  StrBuf b = {0};
  for (const char *s = base; *s; s++)
    sb_putc(&b, isalnum((unsigned char)*s) || *s == '_' || *s == '.' || *s == '-' ? *s : '_');
  if (!b.len) sb_puts(&b, "v");
  char *name = sb_take(&b);
  if (!strmap_get(used, name)) {
    strmap_put(used, name, (void *)1);
    return name;
  }
  /* the counter for a base is kept under "base\x01" so retries stay linear */
  char *ckey = xasprintf("%s\x01", name);
  intptr_t k = (intptr_t)strmap_get(used, ckey);
  for (;;) {
    k++;
    char *cand = xasprintf("%s.%ld", name, (long)k);
    if (!strmap_get(used, cand)) {
      strmap_put(used, cand, (void *)1);
      strmap_put(used, ckey, (void *)k);
      xfree(ckey);
      xfree(name);
      return cand;
    }
    xfree(cand);
  }
}

static const char *hlo_opcode(const Op *op) {
  switch (op->kind) {
  case OP_IF: return "conditional";
  case OP_CALL: return op_attr(op, "fusion_kind") ? "fusion" : "call";
  default: return op_info[op->kind].hlo_name;
  }
}

static const char *value_name(Pr *pr, Value *v) {
  if (pr->vname.data[v->id]) return pr->vname.data[v->id];
  const char *base = v->name;
  if (!base) base = v->def ? (hlo_opcode(v->def) ? hlo_opcode(v->def) : "custom-call") : "Arg";
  pr->vname.data[v->id] = claim(&pr->names, base);
  return pr->vname.data[v->id];
}

/* sb_putn with an empty (NULL) buffer is fine by us but not by memcpy's contract */
static void sb_append(StrBuf *b, const StrBuf *src) {
  if (src->len) sb_putn(b, src->data, src->len);
}

static void put_ints(StrBuf *b, const int64_t *v, int n) {
  sb_putc(b, '{');
  for (int i = 0; i < n; i++) sb_printf(b, i ? ",%lld" : "%lld", (long long)v[i]);
  sb_putc(b, '}');
}

static void put_escaped(StrBuf *b, const char *s, size_t n) {
  sb_putc(b, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') sb_printf(b, "\\%c", c);
    else if (c == '\n') sb_puts(b, "\\n");
    else if (c == '\t') sb_puts(b, "\\t");
    else if (c < 32 || c == 127) sb_printf(b, "\\%03o", c);
    else sb_putc(b, (char)c);
  }
  sb_putc(b, '"');
}

static int attr_ints_n(const Op *op, const char *name, int64_t **v) {
  int n = op_attr_ints(op, name, v);
  return n < 0 ? 0 : n;
}

static void put_ints_attr(StrBuf *b, const Op *op, const char *ir, const char *hlo, bool skip_empty) {
  int64_t *v;
  int n = attr_ints_n(op, ir, &v);
  if (!op_attr(op, ir) || (skip_empty && n == 0)) return;
  sb_printf(b, ", %s=", hlo);
  put_ints(b, v, n);
}

static void put_dict_ints(StrBuf *b, const Attr *d, const char *ir, const char *hlo, bool skip_empty) {
  int64_t *v;
  int n = dict_ints(d, ir, &v);
  if (n < 0 || (skip_empty && n == 0)) return;
  sb_printf(b, ", %s=", hlo);
  put_ints(b, v, n);
}

static void put_bool(StrBuf *b, const Op *op, const char *ir, const char *hlo, bool only_true) {
  Attr *a = op_attr(op, ir);
  if (!a) return;
  bool v = a->kind == ATTR_UNIT || a->i != 0;
  if (only_true && !v) return;
  sb_printf(b, ", %s=%s", hlo, v ? "true" : "false");
}

static void put_enum(StrBuf *b, const Op *op, const char *ir, const char *hlo, bool lower) {
  const char *s = op_attr_str(op, ir);
  if (!s) return;
  sb_printf(b, ", %s=", hlo);
  for (; *s; s++) sb_putc(b, lower ? (char)tolower((unsigned char)*s) : *s);
}

/* window={size=.. stride=.. pad=.. lhs_dilate=.. rhs_dilate=.. rhs_reversal=..} */
static void put_window(StrBuf *b, int n, const int64_t *size, const int64_t *stride, const Attr *pad,
                       const int64_t *lhs, const int64_t *rhs, const int64_t *rev) {
  sb_puts(b, ", window={");
  if (n == 0) {
    sb_putc(b, '}');
    return;
  }
  const int64_t *f[6] = {size, stride, NULL, lhs, rhs, rev};
  const char *names[6] = {"size", "stride", "pad", "lhs_dilate", "rhs_dilate", "rhs_reversal"};
  int64_t defs[6] = {1, 1, 0, 1, 1, 0};
  bool first = true;
  for (int k = 0; k < 6; k++) {
    bool nondef = k == 0;
    if (k == 2) {
      for (int i = 0; pad && pad->lit && i < 2 * n && i < pad->lit->n; i++) nondef |= lit_get_i(pad->lit, i) != 0;
    } else if (f[k]) {
      for (int i = 0; i < n; i++) nondef |= f[k][i] != defs[k];
    }
    if (!nondef) continue;
    sb_printf(b, "%s%s=", first ? "" : " ", names[k]);
    first = false;
    for (int i = 0; i < n; i++) {
      if (i) sb_putc(b, 'x');
      if (k == 2)
        sb_printf(b, "%lld_%lld", (long long)lit_get_i(pad->lit, 2 * i), (long long)lit_get_i(pad->lit, 2 * i + 1));
      else
        sb_printf(b, "%lld", (long long)(f[k] ? f[k][i] : defs[k]));
    }
  }
  sb_putc(b, '}');
}

static void print_block_as_comp(Pr *pr, const char *name, Block *b, Value *const *caps, int ncaps, bool entry,
                                const Func *fn);

/* Values used inside region b (recursively) that are defined outside it. */
static bool defined_inside(const Value *v, const Block *b) {
  const Block *owner = v->def ? v->def->parent : v->owner;
  while (owner) {
    if (owner == b) return true;
    owner = owner->parent_op ? owner->parent_op->parent : NULL;
  }
  return false;
}

typedef VEC(Value *) ValueVec;

static void collect_captures(Block *root, Block *b, ValueVec *caps) {
  for (Op *op = b->first; op; op = op->next) {
    for (int i = 0; i < op->nopnds; i++) {
      Value *v = op->opnds[i];
      if (defined_inside(v, root)) continue;
      bool seen = false;
      for (int k = 0; k < caps->len && !seen; k++) seen = caps->data[k] == v;
      if (!seen) VEC_PUSH(*caps, v);
    }
    for (int r = 0; r < op->nregions; r++) collect_captures(root, op->regions[r], caps);
  }
}

static void put_type(StrBuf *b, const Type *t) { type_print_hlo(b, t, true); }

/* Prints one op (and the get-tuple-elements of a multi-result op). */
static void print_op(Pr *pr, StrBuf *b, Op *op, const Value *root) {
  Module *mm = (Module *)pr->m;
  (void)mm;
  if (op->kind == OP_CONSTANT && op->nres == 1 && pr->uses.data[op->res[0].id] == 0) return; /* dead */
  const char *opc = hlo_opcode(op);
  bool as_custom = opc == NULL;
  if (as_custom) opc = "custom-call";
  /* regions first: they become computations printed before this one */
  const char *opname;
  char *own = NULL;
  if (op->nres == 1) {
    opname = value_name(pr, &op->res[0]);
  } else {
    const char *base = op->nres > 0 && op->res[0].name ? op->res[0].name : opc;
    char *tmp = xasprintf("%s.tuple", base);
    own = claim(&pr->names, tmp);
    xfree(tmp);
    opname = own;
  }
  int nreg = op->nregions;
  char **rnames = xcalloc((size_t)(nreg ? nreg : 1), sizeof(char *));
  Value **capv = xcalloc((size_t)(nreg ? nreg : 1), sizeof(Value *));
  StrBuf pre = {0}; /* tuple of captures for a branch, printed before the op */
  for (int r = 0; r < nreg; r++) {
    const char *role = "to_apply";
    if (op->kind == OP_WHILE) role = r == 0 ? "condition" : "body";
    else if (op->kind == OP_SELECT_AND_SCATTER) role = r == 0 ? "select" : "scatter";
    else if (op->kind == OP_IF) role = r == 0 ? "true" : "false";
    else if (op->kind == OP_CASE) role = "branch";
    char *base = op->kind == OP_CASE ? xasprintf("%s.%s_%d", opname, role, r) : xasprintf("%s.%s", opname, role);
    rnames[r] = claim(&pr->comps, base);
    xfree(base);
    Block *rb = op->regions[r];
    if (op->kind == OP_IF || op->kind == OP_CASE) {
      ValueVec caps = {0};
      collect_captures(rb, rb, &caps);
      if (caps.len == 1) {
        capv[r] = caps.data[0];
        print_block_as_comp(pr, rnames[r], rb, caps.data, 1, false, NULL);
      } else {
        /* several (or no) captures travel as one tuple operand */
        char *tb = xasprintf("%s.%s_args", opname, role);
        char *tn = claim(&pr->names, tb);
        xfree(tb);
        Type **tys = xmalloc(sizeof(Type *) * (size_t)(caps.len ? caps.len : 1));
        for (int i = 0; i < caps.len; i++) tys[i] = caps.data[i]->type;
        Arena tmp;
        arena_init(&tmp);
        Type *tt = type_tuple(&tmp, caps.len, tys);
        sb_printf(&pre, "  %%%s = ", tn);
        put_type(&pre, tt);
        sb_puts(&pre, " tuple(");
        for (int i = 0; i < caps.len; i++) sb_printf(&pre, "%s%%%s", i ? ", " : "", value_name(pr, caps.data[i]));
        sb_puts(&pre, ")\n");
        /* the branch reads the tuple through a parameter and unpacks it */
        Block fake = {0};
        Value *arg = ARENA_NEW(&tmp, Value);
        arg->type = tt;
        arg->id = -1;
        (void)fake;
        StrBuf cb = {0};
        char *pn = claim(&pr->names, tn);
        sb_printf(&cb, "%%%s (%s: ", rnames[r], pn);
        type_print_hlo(&cb, tt, false);
        sb_puts(&cb, ") -> ");
        /* body printed separately; the unpacking lines come first */
        char **saved = xmalloc(sizeof(char *) * (size_t)(caps.len ? caps.len : 1));
        StrBuf unpack = {0};
        sb_printf(&unpack, "  %%%s = ", pn);
        put_type(&unpack, tt);
        sb_puts(&unpack, " parameter(0)\n");
        for (int i = 0; i < caps.len; i++) {
          saved[i] = pr->vname.data[caps.data[i]->id];
          char *gb = xasprintf("%s.%d", pn, i);
          char *gn = claim(&pr->names, gb);
          xfree(gb);
          sb_printf(&unpack, "  %%%s = ", gn);
          put_type(&unpack, tys[i]);
          sb_printf(&unpack, " get-tuple-element(%%%s), index=%d\n", pn, i);
          pr->vname.data[caps.data[i]->id] = gn;
        }
        /* print the body with the captured names redirected */
        int before = pr->out.len;
        print_block_as_comp(pr, rnames[r], rb, NULL, 0, false, NULL);
        /* splice the unpacking into the just-printed computation */
        char *text = pr->out.data[pr->out.len - 1];
        char *brace = strchr(text, '{');
        StrBuf fixed = {0};
        sb_append(&fixed, &cb);
        /* result type: after "-> " in the original header */
        char *arrow = strstr(text, ") -> ");
        if (arrow && brace) sb_putn(&fixed, arrow + 5, (size_t)(brace - arrow - 5));
        sb_puts(&fixed, "{\n");
        sb_append(&fixed, &unpack);
        if (brace) sb_puts(&fixed, brace + 2);
        xfree(text);
        pr->out.data[pr->out.len - 1] = sb_take(&fixed);
        (void)before;
        for (int i = 0; i < caps.len; i++) {
          xfree(pr->vname.data[caps.data[i]->id]);
          pr->vname.data[caps.data[i]->id] = saved[i];
        }
        xfree(saved);
        xfree(pn);
        sb_free(&cb);
        sb_free(&unpack);
        capv[r] = NULL;
        /* remember the tuple's name as this branch's operand */
        char *joined = xasprintf("%s\x02%s", rnames[r], tn);
        xfree(rnames[r]);
        rnames[r] = joined;
        xfree(tn);
        xfree(tys);
        arena_free(&tmp);
      }
      VEC_FREE(caps);
    } else {
      pr->tuple_params = op->kind == OP_WHILE && op->nopnds != 1;
      print_block_as_comp(pr, rnames[r], rb, NULL, 0, false, NULL);
    }
  }
  char *loop_init = NULL;
  if (op->kind == OP_WHILE && op->nopnds != 1) {
    /* the state values travel as one tuple */
    char *base = xasprintf("%s.init", opname);
    loop_init = claim(&pr->names, base);
    xfree(base);
    sb_printf(&pre, "  %%%s = (", loop_init);
    for (int i = 0; i < op->nopnds; i++) {
      if (i) sb_puts(&pre, ", ");
      put_type(&pre, op->opnds[i]->type);
    }
    sb_puts(&pre, ") tuple(");
    for (int i = 0; i < op->nopnds; i++) sb_printf(&pre, "%s%%%s", i ? ", " : "", value_name(pr, op->opnds[i]));
    sb_puts(&pre, ")\n");
  }
  sb_append(b, &pre);
  sb_free(&pre);

  sb_puts(b, "  ");
  if (op->nres == 1 && root == &op->res[0]) sb_puts(b, "ROOT ");
  sb_printf(b, "%%%s = ", opname);
  if (op->nres == 1) {
    put_type(b, op->res[0].type);
  } else {
    sb_putc(b, '(');
    for (int i = 0; i < op->nres; i++) {
      if (i) sb_puts(b, ", ");
      put_type(b, op->res[i].type);
    }
    sb_putc(b, ')');
  }
  sb_printf(b, " %s(", opc);
  if (op->kind == OP_CONSTANT) {
    Attr *v = op_attr(op, "value");
    if (v && v->lit) lit_print_hlo_body(b, v->lit);
  } else if (op->kind == OP_IF || op->kind == OP_CASE) {
    sb_printf(b, "%%%s", value_name(pr, op->opnds[0]));
    for (int r = 0; r < nreg; r++) {
      char *sep = strchr(rnames[r], '\x02');
      if (sep) sb_printf(b, ", %%%s", sep + 1);
      else sb_printf(b, ", %%%s", value_name(pr, capv[r]));
    }
  } else if (loop_init) {
    sb_printf(b, "%%%s", loop_init);
  } else {
    int n = printed_opnds(op);
    for (int i = 0; i < n; i++) sb_printf(b, "%s%%%s", i ? ", " : "", value_name(pr, op->opnds[i]));
  }
  sb_putc(b, ')');
  xfree(loop_init);

  /* attributes: the op's own, then whatever is left */
  const char *done[24];
  int ndone = 0;
#define DONE(s) (done[ndone++] = (s))
  int64_t *v;
  int n;
  Attr *d;
  switch (op->kind) {
  case OP_CONSTANT: DONE("value"); break;
  case OP_BROADCAST_IN_DIM: put_ints_attr(b, op, "broadcast_dimensions", "dimensions", false); DONE("broadcast_dimensions"); break;
  case OP_TRANSPOSE: put_ints_attr(b, op, "permutation", "dimensions", false); DONE("permutation"); break;
  case OP_REVERSE: case OP_MAP: case OP_REDUCE: put_ints_attr(b, op, "dimensions", "dimensions", false); DONE("dimensions"); break;
  case OP_IOTA: sb_printf(b, ", iota_dimension=%lld", (long long)op_attr_int(op, "iota_dimension", 0)); DONE("iota_dimension"); break;
  case OP_CONCATENATE: case OP_GET_DIMENSION_SIZE:
    sb_printf(b, ", dimensions={%lld}", (long long)op_attr_int(op, "dimension", 0)); DONE("dimension"); break;
  case OP_SORT:
    sb_printf(b, ", dimensions={%lld}", (long long)op_attr_int(op, "dimension", -1));
    put_bool(b, op, "is_stable", "is_stable", true);
    DONE("dimension"); DONE("is_stable"); break;
  case OP_SLICE: {
    int64_t *lo, *hi, *st;
    int nl = attr_ints_n(op, "start_indices", &lo), nh = attr_ints_n(op, "limit_indices", &hi), ns = attr_ints_n(op, "strides", &st);
    sb_puts(b, ", slice={");
    for (int i = 0; i < nl && i < nh; i++) {
      sb_printf(b, "%s[%lld:%lld", i ? ", " : "", (long long)lo[i], (long long)hi[i]);
      if (i < ns && st[i] != 1) sb_printf(b, ":%lld", (long long)st[i]);
      sb_putc(b, ']');
    }
    sb_putc(b, '}');
    DONE("start_indices"); DONE("limit_indices"); DONE("strides"); break;
  }
  case OP_DYNAMIC_SLICE: put_ints_attr(b, op, "slice_sizes", "dynamic_slice_sizes", false); DONE("slice_sizes"); break;
  case OP_PAD: {
    int64_t *lo, *hi, *in;
    int nl = attr_ints_n(op, "edge_padding_low", &lo), nh = attr_ints_n(op, "edge_padding_high", &hi), ni = attr_ints_n(op, "interior_padding", &in);
    sb_puts(b, ", padding=");
    for (int i = 0; i < nl && i < nh; i++) {
      sb_printf(b, "%s%lld_%lld", i ? "x" : "", (long long)lo[i], (long long)hi[i]);
      if (i < ni && in[i]) sb_printf(b, "_%lld", (long long)in[i]);
    }
    DONE("edge_padding_low"); DONE("edge_padding_high"); DONE("interior_padding"); break;
  }
  case OP_COMPARE: put_enum(b, op, "comparison_direction", "direction", false); put_enum(b, op, "compare_type", "type", false);
    DONE("comparison_direction"); DONE("compare_type"); break;
  case OP_REDUCE_WINDOW: case OP_SELECT_AND_SCATTER: {
    int64_t *sz, *st, *bd = NULL, *wd = NULL;
    n = attr_ints_n(op, "window_dimensions", &sz);
    int ns = attr_ints_n(op, "window_strides", &st);
    int nb = attr_ints_n(op, "base_dilations", &bd), nw = attr_ints_n(op, "window_dilations", &wd);
    put_window(b, n, sz, ns == n ? st : NULL, op_attr(op, "padding"), nb == n ? bd : NULL, nw == n ? wd : NULL, NULL);
    DONE("window_dimensions"); DONE("window_strides"); DONE("base_dilations"); DONE("window_dilations"); DONE("padding");
    break;
  }
  case OP_DOT_GENERAL:
    d = op_attr(op, "dot_dimension_numbers");
    put_dict_ints(b, d, "lhs_batching_dimensions", "lhs_batch_dims", true);
    put_dict_ints(b, d, "lhs_contracting_dimensions", "lhs_contracting_dims", true);
    put_dict_ints(b, d, "rhs_batching_dimensions", "rhs_batch_dims", true);
    put_dict_ints(b, d, "rhs_contracting_dimensions", "rhs_contracting_dims", true);
    DONE("dot_dimension_numbers");
    goto precision;
  case OP_CONVOLUTION: {
    d = op_attr(op, "dimension_numbers");
    int64_t *ks, *st, *ld, *rd, *rev;
    int nk = dict_ints(d, "kernel_spatial_dimensions", &ks);
    if (nk < 0) nk = 0;
    int64_t size[64];
    const Type *kt = op->nopnds > 1 ? op->opnds[1]->type : NULL;
    for (int i = 0; i < nk && i < 64; i++)
      size[i] = kt && kt->kind == TY_TENSOR && ks[i] >= 0 && ks[i] < kt->rank ? kt->dims[ks[i]] : 1;
    int ns = attr_ints_n(op, "window_strides", &st), nl = attr_ints_n(op, "lhs_dilation", &ld);
    int nr = attr_ints_n(op, "rhs_dilation", &rd), nv = attr_ints_n(op, "window_reversal", &rev);
    put_window(b, nk, size, ns == nk ? st : NULL, op_attr(op, "padding"), nl == nk ? ld : NULL, nr == nk ? rd : NULL,
               nv == nk ? rev : NULL);
    /* dim_labels */
    char lab[3][68];
    const char *kd[3][3] = {{"input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions"},
                            {"kernel_input_feature_dimension", "kernel_output_feature_dimension", "kernel_spatial_dimensions"},
                            {"output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions"}};
    const char letters[3][2] = {{'b', 'f'}, {'i', 'o'}, {'b', 'f'}};
    for (int k = 0; k < 3; k++) {
      int len = nk + 2 < 66 ? nk + 2 : 66;
      memset(lab[k], '?', (size_t)len);
      lab[k][len] = 0;
      int64_t a0 = dict_int(d, kd[k][0], -1), a1 = dict_int(d, kd[k][1], -1), *sp;
      int nsp = dict_ints(d, kd[k][2], &sp);
      if (a0 >= 0 && a0 < len) lab[k][a0] = letters[k][0];
      if (a1 >= 0 && a1 < len) lab[k][a1] = letters[k][1];
      for (int i = 0; i < nsp && i < 10; i++)
        if (sp[i] >= 0 && sp[i] < len) lab[k][sp[i]] = (char)('0' + i);
    }
    sb_printf(b, ", dim_labels=%s_%s->%s", lab[0], lab[1], lab[2]);
    if (op_attr_int(op, "feature_group_count", 1) != 1)
      sb_printf(b, ", feature_group_count=%lld", (long long)op_attr_int(op, "feature_group_count", 1));
    if (op_attr_int(op, "batch_group_count", 1) != 1)
      sb_printf(b, ", batch_group_count=%lld", (long long)op_attr_int(op, "batch_group_count", 1));
    DONE("dimension_numbers"); DONE("window_strides"); DONE("padding"); DONE("lhs_dilation"); DONE("rhs_dilation");
    DONE("window_reversal"); DONE("feature_group_count"); DONE("batch_group_count");
  }
  precision: {
    Attr *pc = op_attr(op, "precision_config");
    bool nondef = false;
    for (int i = 0; pc && pc->kind == ATTR_ARRAY && i < pc->n; i++)
      nondef |= pc->elems[i]->s && strcmp(pc->elems[i]->s, "DEFAULT") != 0;
    if (nondef) {
      sb_puts(b, ", operand_precision={");
      for (int i = 0; i < pc->n; i++) {
        sb_puts(b, i ? "," : "");
        for (const char *s = pc->elems[i]->s ? pc->elems[i]->s : "default"; *s; s++) sb_putc(b, (char)tolower((unsigned char)*s));
      }
      sb_putc(b, '}');
    }
    DONE("precision_config");
    break;
  }
  case OP_GATHER:
    d = op_attr(op, "dimension_numbers");
    put_dict_ints(b, d, "offset_dims", "offset_dims", false);
    put_dict_ints(b, d, "collapsed_slice_dims", "collapsed_slice_dims", false);
    put_dict_ints(b, d, "start_index_map", "start_index_map", false);
    put_dict_ints(b, d, "operand_batching_dims", "operand_batching_dims", true);
    put_dict_ints(b, d, "start_indices_batching_dims", "start_indices_batching_dims", true);
    sb_printf(b, ", index_vector_dim=%lld", (long long)dict_int(d, "index_vector_dim", 0));
    put_ints_attr(b, op, "slice_sizes", "slice_sizes", false);
    put_bool(b, op, "indices_are_sorted", "indices_are_sorted", true);
    DONE("dimension_numbers"); DONE("slice_sizes"); DONE("indices_are_sorted"); break;
  case OP_SCATTER:
    d = op_attr(op, "scatter_dimension_numbers");
    put_dict_ints(b, d, "update_window_dims", "update_window_dims", false);
    put_dict_ints(b, d, "inserted_window_dims", "inserted_window_dims", false);
    put_dict_ints(b, d, "scatter_dims_to_operand_dims", "scatter_dims_to_operand_dims", false);
    put_dict_ints(b, d, "input_batching_dims", "input_batching_dims", true);
    put_dict_ints(b, d, "scatter_indices_batching_dims", "scatter_indices_batching_dims", true);
    sb_printf(b, ", index_vector_dim=%lld", (long long)dict_int(d, "index_vector_dim", 0));
    put_bool(b, op, "indices_are_sorted", "indices_are_sorted", true);
    put_bool(b, op, "unique_indices", "unique_indices", true);
    DONE("scatter_dimension_numbers"); DONE("indices_are_sorted"); DONE("unique_indices"); break;
  case OP_CALL: {
    Attr *fk = op_attr(op, "fusion_kind");
    const char *callee = op_attr_str(op, "callee");
    if (fk) sb_printf(b, ", kind=%s, calls=%%%s", fk->s, callee ? callee : "?");
    else sb_printf(b, ", to_apply=%%%s", callee ? callee : "?");
    DONE("callee"); DONE("fusion_kind"); break;
  }
  case OP_CUSTOM_CALL: {
    Attr *t = op_attr(op, "call_target_name");
    sb_puts(b, ", custom_call_target=");
    if (t && t->kind == ATTR_STRING) put_escaped(b, t->s, t->slen);
    else sb_puts(b, "\"\"");
    put_bool(b, op, "has_side_effect", "custom_call_has_side_effect", true);
    static const char *const apis[] = {"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
                                       "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"};
    int64_t api = op_attr_int(op, "api_version", -1);
    if (api >= 0 && api < 5) sb_printf(b, ", api_version=%s", apis[api]);
    Attr *bc = op_attr(op, "backend_config");
    if (bc && bc->kind == ATTR_STRING) {
      sb_puts(b, ", backend_config=");
      put_escaped(b, bc->s, bc->slen);
    } else if (bc && bc->kind == ATTR_OPAQUE) {
      sb_puts(b, ", backend_config=");
      sb_putn(b, bc->s, bc->slen);
    }
    DONE("call_target_name"); DONE("has_side_effect"); DONE("api_version"); DONE("backend_config"); break;
  }
  case OP_ALL_REDUCE: case OP_REDUCE_SCATTER: case OP_ALL_GATHER: case OP_ALL_TO_ALL:
  case OP_COLLECTIVE_BROADCAST: case OP_COLLECTIVE_PERMUTE: {
    Attr *rg = op_attr(op, "replica_groups");
    if (rg && rg->lit && rg->type && rg->type->rank == 2) {
      sb_puts(b, ", replica_groups={");
      int64_t rows = rg->type->dims[0], cols = rg->type->dims[1];
      for (int64_t i = 0; i < rows; i++) {
        sb_puts(b, i ? ",{" : "{");
        bool first = true;
        for (int64_t k = 0; k < cols; k++) {
          int64_t e = lit_get_i(rg->lit, i * cols + k);
          if (e < 0) continue;
          sb_printf(b, first ? "%lld" : ",%lld", (long long)e);
          first = false;
        }
        sb_putc(b, '}');
      }
      sb_putc(b, '}');
    }
    Attr *ch = op_attr(op, "channel_handle");
    if (ch) sb_printf(b, ", channel_id=%lld", (long long)dict_int(ch, "handle", 0));
    if (op_attr(op, "use_global_device_ids")) sb_puts(b, ", use_global_device_ids=true");
    if (op->kind == OP_ALL_GATHER) sb_printf(b, ", dimensions={%lld}", (long long)op_attr_int(op, "all_gather_dim", 0));
    if (op->kind == OP_REDUCE_SCATTER) sb_printf(b, ", dimensions={%lld}", (long long)op_attr_int(op, "scatter_dimension", 0));
    if (op->kind == OP_ALL_TO_ALL) sb_printf(b, ", dimensions={%lld}", (long long)op_attr_int(op, "split_dimension", 0));
    Attr *st = op_attr(op, "source_target_pairs");
    if (st && st->lit) {
      sb_puts(b, ", source_target_pairs={");
      for (int64_t i = 0; i + 1 < st->lit->n; i += 2)
        sb_printf(b, "%s{%lld,%lld}", i ? "," : "", (long long)lit_get_i(st->lit, i), (long long)lit_get_i(st->lit, i + 1));
      sb_putc(b, '}');
    }
    DONE("replica_groups"); DONE("channel_handle"); DONE("use_global_device_ids"); DONE("all_gather_dim");
    DONE("scatter_dimension"); DONE("split_dimension"); DONE("concat_dimension"); DONE("split_count");
    DONE("source_target_pairs"); break;
  }
  case OP_RNG_BIT_GENERATOR: {
    const char *a = op_attr_str(op, "rng_algorithm");
    sb_printf(b, ", algorithm=%s", a && !strcmp(a, "PHILOX") ? "rng_philox" : a && !strcmp(a, "THREE_FRY") ? "rng_three_fry" : "rng_default");
    DONE("rng_algorithm"); break;
  }
  case OP_RNG: {
    const char *a = op_attr_str(op, "rng_distribution");
    sb_printf(b, ", distribution=%s", a && !strcmp(a, "NORMAL") ? "rng_normal" : "rng_uniform");
    DONE("rng_distribution"); break;
  }
  case OP_FFT: put_enum(b, op, "fft_type", "fft_type", false); put_ints_attr(b, op, "fft_length", "fft_length", false);
    DONE("fft_type"); DONE("fft_length"); break;
  case OP_TRIANGULAR_SOLVE:
    put_bool(b, op, "left_side", "left_side", false); put_bool(b, op, "lower", "lower", false);
    put_bool(b, op, "unit_diagonal", "unit_diagonal", false); put_enum(b, op, "transpose_a", "transpose_a", false);
    DONE("left_side"); DONE("lower"); DONE("unit_diagonal"); DONE("transpose_a"); break;
  case OP_CHOLESKY: put_bool(b, op, "lower", "lower", false); DONE("lower"); break;
  case OP_BATCH_NORM_TRAINING: case OP_BATCH_NORM_INFERENCE: case OP_BATCH_NORM_GRAD: {
    Attr *e = op_attr(op, "epsilon");
    sb_printf(b, ", epsilon=%.9g, feature_index=%lld", e ? e->f : 0.0, (long long)op_attr_int(op, "feature_index", 0));
    DONE("epsilon"); DONE("feature_index"); break;
  }
  case OP_REDUCE_PRECISION:
    sb_printf(b, ", exponent_bits=%lld, mantissa_bits=%lld", (long long)op_attr_int(op, "exponent_bits", 0),
              (long long)op_attr_int(op, "mantissa_bits", 0));
    DONE("exponent_bits"); DONE("mantissa_bits"); break;
  case OP_CHLO_TOP_K: sb_printf(b, ", k=%lld", (long long)op_attr_int(op, "k", 0)); put_bool(b, op, "largest", "largest", false);
    DONE("k"); DONE("largest"); break;
  default: break;
  }
  if (op->kind == OP_SDY_SHARDING_CONSTRAINT) {
    /* XLA's spelling of a sharding annotation; converting Shardy's sharding
       to an HLO sharding is not done (yet), so it is left out */
    sb_puts(b, ", custom_call_target=\"Sharding\"");
    DONE("sharding");
  } else if (as_custom) {
    sb_puts(b, ", custom_call_target=");
    put_escaped(b, op_info[op->kind].name, strlen(op_info[op->kind].name));
  }
  /* region references */
  if (op->kind == OP_WHILE && nreg == 2) sb_printf(b, ", condition=%%%s, body=%%%s", rnames[0], rnames[1]);
  else if (op->kind == OP_SELECT_AND_SCATTER && nreg == 2) sb_printf(b, ", select=%%%s, scatter=%%%s", rnames[0], rnames[1]);
  else if (op->kind == OP_IF && nreg == 2) {
    for (int r = 0; r < 2; r++) {
      char *sep = strchr(rnames[r], '\x02');
      sb_printf(b, ", %s=%%%.*s", r ? "false_computation" : "true_computation", sep ? (int)(sep - rnames[r]) : (int)strlen(rnames[r]), rnames[r]);
    }
  } else if (op->kind == OP_CASE) {
    sb_puts(b, ", branch_computations={");
    for (int r = 0; r < nreg; r++) {
      char *sep = strchr(rnames[r], '\x02');
      sb_printf(b, "%s%%%.*s", r ? ", " : "", sep ? (int)(sep - rnames[r]) : (int)strlen(rnames[r]), rnames[r]);
    }
    sb_putc(b, '}');
  } else if (nreg == 1) {
    sb_printf(b, ", to_apply=%%%s", rnames[0]);
  }
  /* leftovers */
  for (int i = 0; i < op->nattrs; i++) {
    const char *an = op->attrs[i].name;
    Attr *a = op->attrs[i].attr;
    bool skip = false;
    for (int k = 0; k < ndone && !skip; k++) skip = !strcmp(done[k], an);
    /* Shardy's shardings have no HLO spelling here */
    if (skip || strncmp(an, "sdy.", 4) == 0) continue;
    switch (a->kind) {
    case ATTR_OPAQUE: sb_printf(b, ", %s=", an); sb_putn(b, a->s, a->slen); break;
    case ATTR_STRING: sb_printf(b, ", %s=", an); put_escaped(b, a->s, a->slen); break;
    case ATTR_BOOL: sb_printf(b, ", %s=%s", an, a->b ? "true" : "false"); break;
    case ATTR_INT: sb_printf(b, ", %s=%lld", an, (long long)a->i); break;
    case ATTR_FLOAT: sb_printf(b, ", %s=%.17g", an, a->f); break;
    case ATTR_ENUM: sb_printf(b, ", %s=%s", an, a->s); break;
    case ATTR_INTS:
    case ATTR_BOOLS: sb_printf(b, ", %s=", an); put_ints(b, a->ints, a->n); break;
    case ATTR_DICT:
      if (!strcmp(an, "metadata")) {
        sb_printf(b, ", %s={", an);
        for (int k = 0; k < a->n; k++) {
          Attr *e = a->elems[k];
          sb_printf(b, "%s%s=", k ? " " : "", a->keys[k]);
          if (e->kind == ATTR_STRING) put_escaped(b, e->s, e->slen);
          else if (e->kind == ATTR_INT) sb_printf(b, "%lld", (long long)e->i);
          else if (e->kind == ATTR_OPAQUE) sb_putn(b, e->s, e->slen);
          else sb_puts(b, "\"\"");
        }
        sb_putc(b, '}');
      }
      break;
    default: break; /* no HLO spelling (dense, arrays, types): dropped */
    }
  }
#undef DONE
  (void)v;
  (void)n;
  sb_putc(b, '\n');
  /* results of a multi-result op: one get-tuple-element per used result */
  if (op->nres != 1) {
    for (int i = 0; i < op->nres; i++) {
      Value *r = &op->res[i];
      if (!pr->uses.data[r->id] && !r->name) continue;
      sb_puts(b, "  ");
      if (root == r) sb_puts(b, "ROOT ");
      sb_printf(b, "%%%s = ", value_name(pr, r));
      put_type(b, r->type);
      sb_printf(b, " get-tuple-element(%%%s), index=%d\n", opname, i);
    }
  }
  for (int r = 0; r < nreg; r++) xfree(rnames[r]);
  xfree(rnames);
  xfree(capv);
  xfree(own);
}

static void print_block_as_comp(Pr *pr, const char *name, Block *b, Value *const *caps, int ncaps, bool entry,
                                const Func *fn) {
  StrBuf h = {0}, body = {0};
  Op *term = block_terminator(b);
  int nret = term ? term->nopnds : 0;
  Value *root = nret == 1 ? term->opnds[0] : NULL;
  /* a root from outside this computation (or a repeated one) needs its own instruction */
  if (root && !(root->def ? root->def->parent == b : (root->owner == b))) {
    bool is_cap = false;
    for (int i = 0; i < ncaps; i++) is_cap |= caps[i] == root;
    if (!is_cap) root = NULL, nret = -1;
  }
  char **saved = xmalloc(sizeof(char *) * (size_t)(ncaps + b->nargs + 1));
  sb_printf(&h, "%s%%%s (", entry ? "ENTRY " : "", name);
  /* taken here so that the computations of nested ops do not see it */
  bool tuple_params = pr->tuple_params && !ncaps;
  pr->tuple_params = false;
  if (tuple_params) {
    /* one tuple parameter, unpacked into the block's arguments */
    char *base = xasprintf("%s.param", name);
    char *pn = claim(&pr->names, base);
    xfree(base);
    sb_printf(&h, "%s: (", pn);
    sb_printf(&body, "  %%%s = (", pn);
    for (int i = 0; i < b->nargs; i++) {
      if (i) sb_puts(&h, ", "), sb_puts(&body, ", ");
      type_print_hlo(&h, b->args[i]->type, false);
      put_type(&body, b->args[i]->type);
    }
    sb_putc(&h, ')');
    sb_puts(&body, ") parameter(0)\n");
    for (int i = 0; i < b->nargs; i++) {
      Value *a = b->args[i];
      sb_printf(&body, "  %s%%%s = ", root == a ? "ROOT " : "", value_name(pr, a));
      put_type(&body, a->type);
      sb_printf(&body, " get-tuple-element(%%%s), index=%d\n", pn, i);
    }
    xfree(pn);
  }
  int np = tuple_params ? 0 : ncaps ? ncaps : b->nargs;
  for (int i = 0; i < np; i++) {
    Value *a = ncaps ? caps[i] : b->args[i];
    if (ncaps) {
      /* the captured value is renamed inside the branch */
      saved[i] = pr->vname.data[a->id];
      char *base = xasprintf("%s.param", saved[i] ? saved[i] : value_name(pr, a));
      if (!saved[i]) saved[i] = pr->vname.data[a->id];
      pr->vname.data[a->id] = claim(&pr->names, base);
      xfree(base);
    }
    const char *an = value_name(pr, a);
    sb_printf(&h, "%s%s: ", i ? ", " : "", an);
    type_print_hlo(&h, a->type, false);
    sb_printf(&body, "  %s%%%s = ", root == a ? "ROOT " : "", an);
    put_type(&body, a->type);
    sb_printf(&body, " parameter(%d)\n", i);
  }
  for (Op *op = b->first; op; op = op->next)
    if (op != term) print_op(pr, &body, op, root);
  if (!root) {
    /* several results (or none, or a value from elsewhere): a tuple is the root */
    char *base = xasprintf("%s.root", name);
    char *tn = claim(&pr->names, base);
    xfree(base);
    int n = nret < 0 ? 1 : nret;
    sb_printf(&body, "  ROOT %%%s = ", tn);
    if (nret < 0) {
      /* pass-through of a value defined elsewhere: not expressible, copy it */
      put_type(&body, term->opnds[0]->type);
      sb_printf(&body, " copy(%%%s)\n", value_name(pr, term->opnds[0]));
    } else {
      sb_putc(&body, '(');
      for (int i = 0; i < n; i++) {
        if (i) sb_puts(&body, ", ");
        put_type(&body, term->opnds[i]->type);
      }
      sb_puts(&body, ") tuple(");
      for (int i = 0; i < n; i++) sb_printf(&body, "%s%%%s", i ? ", " : "", value_name(pr, term->opnds[i]));
      sb_puts(&body, ")\n");
    }
    xfree(tn);
  }
  sb_puts(&h, ") -> ");
  if (nret == 1 && term) type_print_hlo(&h, term->opnds[0]->type, false);
  else if (nret < 0) type_print_hlo(&h, term->opnds[0]->type, false);
  else {
    sb_putc(&h, '(');
    for (int i = 0; term && i < nret; i++) {
      if (i) sb_puts(&h, ", ");
      type_print_hlo(&h, term->opnds[i]->type, false);
    }
    sb_putc(&h, ')');
  }
  (void)fn;
  sb_puts(&h, " {\n");
  sb_append(&h, &body);
  sb_puts(&h, "}\n");
  sb_free(&body);
  for (int i = 0; i < ncaps; i++) {
    xfree(pr->vname.data[caps[i]->id]);
    pr->vname.data[caps[i]->id] = saved[i];
  }
  xfree(saved);
  VEC_PUSH(pr->out, sb_take(&h));
}

/* Callees first so that every computation is defined before it is used. */
static void visit_func(Pr *pr, Func *f, StrMap *seen, const Func *entry);

static bool call_visitor(Op *op, void *ud) {
  void **u = ud;
  if (op->kind == OP_CALL) {
    const char *c = op_attr_str(op, "callee");
    Func *g = c ? module_find_func(((Pr *)u[0])->m, c) : NULL;
    if (g) visit_func(u[0], g, u[1], u[2]);
  }
  return true;
}

static void visit_func(Pr *pr, Func *f, StrMap *seen, const Func *entry) {
  if (strmap_get(seen, f->name)) return;
  strmap_put(seen, f->name, (void *)1);
  void *u[3] = {pr, seen, (void *)entry};
  block_walk(f->body, call_visitor, u);
  if (f == entry) return; /* printed last */
  print_block_as_comp(pr, f->name, f->body, NULL, 0, false, f);
}

void print_module_hlo(StrBuf *b, const Module *m) {
  Pr pr = {0};
  pr.m = m;
  for (Func *f = m->funcs; f; f = f->next) number_block(&pr, f->body);
  for (Func *f = m->funcs; f; f = f->next) count_uses(&pr, f->body);
  Func *entry = m->entry ? m->entry : module_entry(m);
  if (!entry) entry = m->funcs;
  /* function names are claimed up front so that region computations never take them */
  for (Func *f = m->funcs; f; f = f->next) strmap_put(&pr.comps, f->name, (void *)1);
  sb_printf(b, "HloModule %s", m->name ? m->name : "module");
  const NamedAttr *frames = NULL;
  if (m->format == SRC_HLO) {
    for (int i = 0; i < m->nattrs; i++) {
      const NamedAttr *na = &m->attrs[i];
      if (!strcmp(na->name, "xlac.hlo_stack_frame_index")) frames = na;
      else if (na->attr->kind == ATTR_STRING) sb_printf(b, ", %s=%s", na->name, na->attr->s);
    }
  }
  sb_puts(b, "\n\n");
  if (frames) sb_printf(b, "%s\n\n", frames->attr->s);
  StrMap seen = {0};
  for (Func *f = m->funcs; f; f = f->next)
    if (f != entry) visit_func(&pr, f, &seen, entry);
  if (entry) {
    visit_func(&pr, entry, &seen, entry);
    print_block_as_comp(&pr, entry->name, entry->body, NULL, 0, true, entry);
  }
  for (int i = 0; i < pr.out.len; i++) {
    sb_puts(b, pr.out.data[i]);
    sb_putc(b, '\n');
    xfree(pr.out.data[i]);
  }
  VEC_FREE(pr.out);
  for (int i = 0; i < pr.vname.len; i++) xfree(pr.vname.data[i]);
  VEC_FREE(pr.vname);
  VEC_FREE(pr.uses);
  strmap_free(&pr.names);
  strmap_free(&pr.comps);
  strmap_free(&seen);
}
