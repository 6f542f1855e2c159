/*
 * print_mlir.c - the IR as MLIR text (see print.h).
 *
 * Constants, same-typed elementwise ops and returns print in their pretty
 * form because that is what people read most; every other op prints in the
 * generic form, which spells out all attributes and types and so round-trips
 * through the StableHLO frontend without op-specific printing code.  Values
 * are renumbered in definition order (%0, %1, ... for results, %argN for
 * block arguments), which makes the output independent of source names.
 */
#include "ir/print.h"
#include "ir/sharding.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Printer {
  StrBuf *b;
  int next_res, next_arg;
  bool source_names; /* print_op_mlir: show source names, number nothing */
  bool chlo;         /* enum attributes of chlo ops live in #chlo<...> */
  bool in_struct;    /* inside #stablehlo.dot<...> and the like: lists are [a, b] */
  bool layouts;      /* a custom call's operand/result layouts: tensors of index */
} Printer;

static void indent(Printer *pr, int level) {
  for (int i = 0; i < level; i++) sb_puts(pr->b, "  ");
}

static bool is_bare_id(const char *s) {
  if (!s || !(isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
  for (const char *c = s; *c; c++)
    if (!(isalnum((unsigned char)*c) || *c == '_' || *c == '$' || *c == '.')) return false;
  return true;
}

static void print_string(StrBuf *b, const char *s, size_t n) {
  sb_putc(b, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '\\')
      sb_puts(b, "\\\\");
    else if (c >= 0x20 && c < 0x7f && c != '"')
      sb_putc(b, (char)c);
    else
      sb_printf(b, "\\%02X", c);
  }
  sb_putc(b, '"');
}

static void print_symbol(StrBuf *b, const char *s) {
  sb_putc(b, '@');
  if (is_bare_id(s) || strstr(s, "::@"))
    sb_puts(b, s);
  else
    print_string(b, s, strlen(s));
}

/* Shortest decimal that reads back as the same double, with the '.' MLIR
   wants in a float. */
static void print_double(StrBuf *b, double v) {
  char buf[64];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (strtod(buf, NULL) == v) break;
  }
  lit_float_dot(buf, true);
  sb_puts(b, buf);
}

static void print_attr(Printer *pr, const Attr *a);

static void print_dict_entries(Printer *pr, const Attr *a) {
  for (int i = 0; i < a->n; i++) {
    if (i) sb_puts(pr->b, ", ");
    if (is_bare_id(a->keys[i]))
      sb_puts(pr->b, a->keys[i]);
    else
      print_string(pr->b, a->keys[i], strlen(a->keys[i]));
    if (a->elems[i]->kind != ATTR_UNIT) {
      sb_puts(pr->b, " = ");
      print_attr(pr, a->elems[i]);
    }
  }
}

static void print_attr(Printer *pr, const Attr *a) {
  StrBuf *b = pr->b;
  switch (a->kind) {
  case ATTR_UNIT:
    sb_puts(b, "unit");
    return;
  case ATTR_BOOL:
    sb_puts(b, a->b ? "true" : "false");
    return;
  case ATTR_INT:
    if (a->type && et_is_unsigned(a->type->elem))
      sb_printf(b, "%llu", (unsigned long long)a->i);
    else
      sb_printf(b, "%lld", (long long)a->i);
    if (a->type) sb_printf(b, " : %s", elem_info[a->type->elem].mlir_name);
    return;
  case ATTR_FLOAT: {
    ElemType et = a->type ? a->type->elem : ET_F64;
    if (!isfinite(a->f) && et_is_float(et)) {
      /* MLIR spells inf and nan as the format's bit pattern */
      uint64_t bits;
      if (et == ET_F64)
        memcpy(&bits, &a->f, 8);
      else if (et == ET_F32) {
        float f = (float)a->f;
        uint32_t u;
        memcpy(&u, &f, 4);
        bits = u;
      } else
        bits = et_double_to_bits(et, a->f);
      sb_printf(b, "0x%0*llX : %s", (et_bits(et) + 3) / 4, (unsigned long long)bits, elem_info[et].mlir_name);
      return;
    }
    print_double(b, a->f);
    if (a->type) sb_printf(b, " : %s", elem_info[a->type->elem].mlir_name);
    return;
  }
  case ATTR_STRING:
    print_string(b, a->s, a->slen);
    return;
  case ATTR_SYMBOL:
    print_symbol(b, a->s);
    return;
  case ATTR_ENUM:
    /* XLA's fusion kinds are no StableHLO enum: MLIR reads them as strings */
    if (a->name && strcmp(a->name, "fusion_kind") == 0)
      print_string(b, a->s, strlen(a->s));
    else if (a->name)
      sb_printf(b, "#%s<%s %s>", pr->chlo ? "chlo" : "stablehlo", a->name, a->s);
    else
      sb_puts(b, a->s);
    return;
  case ATTR_INTS:
  case ATTR_BOOLS:
    if (pr->in_struct && a->kind == ATTR_INTS) {
      sb_putc(b, '[');
      for (int i = 0; i < a->n; i++) sb_printf(b, "%s%lld", i ? ", " : "", (long long)a->ints[i]);
      sb_putc(b, ']');
      return;
    }
    sb_puts(b, a->kind == ATTR_BOOLS ? "array<i1" : "array<i64");
    for (int i = 0; i < a->n; i++) {
      sb_puts(b, i ? ", " : ": ");
      if (a->kind == ATTR_BOOLS)
        sb_puts(b, a->ints[i] ? "true" : "false");
      else
        sb_printf(b, "%lld", (long long)a->ints[i]);
    }
    sb_putc(b, '>');
    return;
  case ATTR_DENSE:
    lit_print_mlir_body(b, a->lit);
    sb_puts(b, " : ");
    if (pr->layouts && et_class(a->lit->type->elem) == EC_SINT) {
      /* held as i64 (the IR has no index type); MLIR wants index */
      sb_puts(b, "tensor<");
      for (int d = 0; d < a->lit->type->rank; d++) sb_printf(b, "%lldx", (long long)a->lit->type->dims[d]);
      sb_puts(b, "index>");
    } else {
      type_print_mlir(b, a->lit->type);
    }
    return;
  case ATTR_TYPE:
    type_print_mlir(b, a->type);
    return;
  case ATTR_ARRAY:
    sb_putc(b, '[');
    for (int i = 0; i < a->n; i++) {
      if (i) sb_puts(b, ", ");
      print_attr(pr, a->elems[i]);
    }
    sb_putc(b, ']');
    return;
  case ATTR_DICT:
    if (!a->name) {
      sb_putc(b, '{');
      print_dict_entries(pr, a);
      sb_putc(b, '}');
    } else {
      sb_printf(b, "#%s<%s", a->name, strcmp(a->name, "stablehlo.conv") == 0 ? "raw " : "");
      bool outer = pr->in_struct;
      pr->in_struct = true;
      print_dict_entries(pr, a);
      pr->in_struct = outer;
      sb_putc(b, '>');
    }
    return;
  case ATTR_OPAQUE:
    /* MLIR kept verbatim; HLO attribute text xlac does not interpret is not
       MLIR syntax, so it becomes a string */
    if (a->name && strcmp(a->name, "hlo") == 0)
      print_string(b, a->s, a->slen);
    else
      sb_putn(b, a->s, a->slen); /* all of it: the frontends refuse NUL bytes */
    return;
  }
}

void print_attr_mlir(StrBuf *b, const Attr *a) {
  Printer pr = {b, 0, 0, false, false, false, false};
  print_attr(&pr, a);
}

static void print_value(Printer *pr, const Value *v) {
  if (pr->source_names) {
    if (v->name)
      sb_printf(pr->b, "%%%s", v->name);
    else
      sb_puts(pr->b, "%<unnamed>");
    if (v->def && v->def->nres > 1) sb_printf(pr->b, "#%d", v->index);
    return;
  }
  if (!v->def) {
    sb_printf(pr->b, "%%arg%d", v->id);
    return;
  }
  sb_printf(pr->b, "%%%d", v->id);
  if (v->def->nres > 1) sb_printf(pr->b, "#%d", v->index);
}

/* A fresh argument name for a block argument. */
static void def_arg(Printer *pr, Value *v) {
  v->id = pr->next_arg++;
  if (pr->source_names && !v->name) v->id = -1;
}

static void print_types(Printer *pr, Value *const *vs, int n) {
  for (int i = 0; i < n; i++) {
    if (i) sb_puts(pr->b, ", ");
    type_print_mlir(pr->b, vs[i]->type);
  }
}

static void print_op(Printer *pr, const Op *op, int level);
static void print_named_dict(Printer *pr, const NamedAttr *na, int n);

static void print_block_body(Printer *pr, const Block *blk, int level) {
  for (const Op *op = blk->first; op; op = op->next) print_op(pr, op, level);
}

static void print_region(Printer *pr, const Block *blk, int level) {
  sb_puts(pr->b, "{\n");
  if (blk->nargs) {
    indent(pr, level);
    sb_puts(pr->b, "^bb0(");
    for (int i = 0; i < blk->nargs; i++) {
      if (i) sb_puts(pr->b, ", ");
      def_arg(pr, blk->args[i]);
      print_value(pr, blk->args[i]);
      sb_puts(pr->b, ": ");
      type_print_mlir(pr->b, blk->args[i]->type);
    }
    sb_puts(pr->b, "):\n");
  }
  print_block_body(pr, blk, level + 1);
  indent(pr, level);
  sb_putc(pr->b, '}');
}

static bool all_same_type(const Op *op) {
  if (op->nres != 1) return false;
  for (int i = 0; i < op->nopnds; i++)
    if (!type_equal(op->opnds[i]->type, op->res[0].type) || op->opnds[i]->type->quant != op->res[0].type->quant)
      return false;
  return op->res[0].type->kind == TY_TENSOR && !op->res[0].type->quant;
}

static void print_op(Printer *pr, const Op *op, int level) {
  StrBuf *b = pr->b;
  indent(pr, level);
  if (op->nres) {
    int id = pr->next_res++;
    for (int i = 0; i < op->nres; i++) op->res[i].id = id;
    if (pr->source_names) {
      print_value(pr, &op->res[0]);
      if (op->nres > 1) {
        /* drop the #0 that print_value adds for multi-result ops */
        b->len -= 2;
        b->data[b->len] = 0;
        sb_printf(b, ":%d", op->nres);
      }
    } else {
      sb_printf(b, "%%%d", id);
      if (op->nres > 1) sb_printf(b, ":%d", op->nres);
    }
    sb_puts(b, " = ");
  }
  pr->chlo = strncmp(op_info[op->kind].name, "chlo.", 5) == 0;
  const char *name = op_info[op->kind].name;
  unsigned fl = op_info[op->kind].flags;

  /* pretty forms */
  if ((op->kind == OP_CONSTANT) && op->nattrs == 1 && op->nopnds == 0 && op->nregions == 0) {
    const Attr *v = op_attr(op, "value");
    if (v && v->kind == ATTR_DENSE && op->nres == 1 && type_equal(v->lit->type, op->res[0].type) &&
        !op->res[0].type->quant && !v->lit->type->quant) {
      sb_printf(b, "%s ", name);
      print_attr(pr, v);
      sb_putc(b, '\n');
      return;
    }
  }
  if ((fl & OPF_EW) && (fl & (OPF_UNARY | OPF_BINARY)) && strncmp(name, "stablehlo.", 10) == 0 &&
      op->nattrs == 0 && op->nregions == 0 && op->nopnds >= 1 && all_same_type(op)) {
    sb_printf(b, "%s ", name);
    for (int i = 0; i < op->nopnds; i++) {
      if (i) sb_puts(b, ", ");
      print_value(pr, op->opnds[i]);
    }
    sb_puts(b, " : ");
    type_print_mlir(b, op->res[0].type);
    sb_putc(b, '\n');
    return;
  }
  if ((op->kind == OP_RETURN || op->kind == OP_FUNC_RETURN) && op->nattrs == 0 && op->nres == 0 &&
      op->nregions == 0) {
    sb_puts(b, name);
    for (int i = 0; i < op->nopnds; i++) {
      sb_puts(b, i ? ", " : " ");
      print_value(pr, op->opnds[i]);
    }
    if (op->nopnds) {
      sb_puts(b, " : ");
      print_types(pr, op->opnds, op->nopnds);
    }
    sb_putc(b, '\n');
    return;
  }

  /* Shardy's form: sdy.sharding_constraint %v <@mesh, [...]> {attrs} : type */
  if (op->kind == OP_SDY_SHARDING_CONSTRAINT && op->nopnds == 1 && op->nres == 1 && op->nregions == 0 &&
      attr_is_sdy(op_attr(op, "sharding"), SDY_ATTR_SHARDING) && type_equal(op->opnds[0]->type, op->res[0].type)) {
    const Attr *sh = op_attr(op, "sharding");
    size_t k = strlen("#sdy.sharding");
    sb_printf(b, "%s ", name);
    print_value(pr, op->opnds[0]);
    sb_putc(b, ' ');
    if (sh->slen > k) sb_putn(b, sh->s + k, sh->slen - k);
    if (op->nattrs > 1) {
      NamedAttr *rest = xmalloc(sizeof(NamedAttr) * (size_t)op->nattrs);
      int n = 0;
      for (int i = 0; i < op->nattrs; i++)
        if (strcmp(op->attrs[i].name, "sharding") != 0) rest[n++] = op->attrs[i];
      sb_putc(b, ' ');
      print_named_dict(pr, rest, n);
      xfree(rest);
    }
    sb_puts(b, " : ");
    type_print_mlir(b, op->res[0].type);
    sb_putc(b, '\n');
    return;
  }

  /* generic form */
  sb_printf(b, "\"%s\"(", name);
  for (int i = 0; i < op->nopnds; i++) {
    if (i) sb_puts(b, ", ");
    print_value(pr, op->opnds[i]);
  }
  sb_putc(b, ')');
  if (op->nregions) {
    sb_puts(b, " (");
    for (int r = 0; r < op->nregions; r++) {
      if (r) sb_puts(b, ", ");
      print_region(pr, op->regions[r], level);
    }
    sb_putc(b, ')');
    pr->chlo = strncmp(name, "chlo.", 5) == 0;
  }
  if (op->nattrs) {
    sb_puts(b, " {");
    for (int i = 0; i < op->nattrs; i++) {
      if (i) sb_puts(b, ", ");
      if (is_bare_id(op->attrs[i].name))
        sb_puts(b, op->attrs[i].name);
      else
        print_string(b, op->attrs[i].name, strlen(op->attrs[i].name));
      if (op->attrs[i].attr->kind != ATTR_UNIT) {
        sb_puts(b, " = ");
        pr->layouts = op->kind == OP_CUSTOM_CALL && (strcmp(op->attrs[i].name, "operand_layouts") == 0 ||
                                                     strcmp(op->attrs[i].name, "result_layouts") == 0);
        print_attr(pr, op->attrs[i].attr);
        pr->layouts = false;
      }
    }
    sb_putc(b, '}');
  }
  sb_puts(b, " : (");
  print_types(pr, op->opnds, op->nopnds);
  sb_puts(b, ") -> ");
  if (op->nres == 1) {
    type_print_mlir(b, op->res[0].type);
  } else {
    sb_putc(b, '(');
    for (int i = 0; i < op->nres; i++) {
      if (i) sb_puts(b, ", ");
      type_print_mlir(b, op->res[i].type);
    }
    sb_putc(b, ')');
  }
  sb_putc(b, '\n');
}

void print_op_mlir(StrBuf *b, const Op *op) {
  Printer pr = {b, 0, 0, true, false, false, false};
  print_op(&pr, op, 0);
}

static void print_named_dict(Printer *pr, const NamedAttr *na, int n) {
  sb_putc(pr->b, '{');
  for (int i = 0; i < n; i++) {
    if (i) sb_puts(pr->b, ", ");
    if (is_bare_id(na[i].name))
      sb_puts(pr->b, na[i].name);
    else
      print_string(pr->b, na[i].name, strlen(na[i].name));
    if (na[i].attr->kind != ATTR_UNIT) {
      sb_puts(pr->b, " = ");
      print_attr(pr, na[i].attr);
    }
  }
  sb_putc(pr->b, '}');
}

static void print_func(Printer *pr, const Func *f) {
  StrBuf *b = pr->b;
  pr->next_res = pr->next_arg = 0;
  pr->chlo = false;
  sb_puts(b, "  func.func ");
  if (f->is_private) sb_puts(b, "private ");
  print_symbol(b, f->name);
  sb_putc(b, '(');
  for (int i = 0; i < f->body->nargs; i++) {
    Value *v = f->body->args[i];
    if (i) sb_puts(b, ", ");
    def_arg(pr, v);
    print_value(pr, v);
    sb_puts(b, ": ");
    type_print_mlir(b, v->type);
    if (f->arg_attrs && f->arg_attrs[i] && f->arg_attrs[i]->kind == ATTR_DICT) {
      sb_putc(b, ' ');
      print_attr(pr, f->arg_attrs[i]);
    }
  }
  sb_putc(b, ')');
  bool res_attrs = false;
  for (int i = 0; f->res_attrs && i < f->nresults; i++) res_attrs = res_attrs || f->res_attrs[i];
  if (f->nresults == 1 && !res_attrs) {
    sb_puts(b, " -> ");
    type_print_mlir(b, f->result_types[0]);
  } else if (f->nresults > 0) {
    sb_puts(b, " -> (");
    for (int i = 0; i < f->nresults; i++) {
      if (i) sb_puts(b, ", ");
      type_print_mlir(b, f->result_types[i]);
      if (f->res_attrs && f->res_attrs[i] && f->res_attrs[i]->kind == ATTR_DICT) {
        sb_putc(b, ' ');
        print_attr(pr, f->res_attrs[i]);
      }
    }
    sb_putc(b, ')');
  }
  if (f->nattrs) {
    sb_puts(b, " attributes ");
    print_named_dict(pr, f->attrs, f->nattrs);
  }
  sb_puts(b, " {\n");
  print_block_body(pr, f->body, 2);
  sb_puts(b, "  }\n");
}

void print_module_mlir(StrBuf *b, const Module *m) {
  Printer pr = {b, 0, 0, false, false, false, false};
  sb_puts(b, "module ");
  if (m->name) {
    print_symbol(b, m->name);
    sb_putc(b, ' ');
  }
  if (m->nattrs) {
    sb_puts(b, "attributes ");
    print_named_dict(&pr, m->attrs, m->nattrs);
    sb_putc(b, ' ');
  }
  sb_puts(b, "{\n");
  for (int i = 0; i < m->nmeshes; i++) {
    const MeshDecl *d = &m->meshes[i];
    sb_puts(b, "  sdy.mesh ");
    print_symbol(b, d->name);
    sb_puts(b, " = ");
    if (d->mesh) sdy_print_mesh(b, d->mesh);
    if (d->nattrs) {
      sb_putc(b, ' ');
      print_named_dict(&pr, d->attrs, d->nattrs);
    }
    sb_putc(b, '\n');
  }
  for (const Func *f = m->funcs; f; f = f->next) print_func(&pr, f);
  sb_puts(b, "}\n");
}

void print_op_brief(StrBuf *b, Module *m, const Op *op) {
  const char *name = op_info[op->kind].name;
  const char *dot = strchr(name, '.');
  const char *callee = op->kind == OP_CALL ? op_attr_str(op, "callee") : NULL;
  const char *kind = op->kind == OP_CALL ? op_attr_str(op, "fusion_kind") : NULL;
  Func *f = callee && m ? module_find_func(m, callee) : NULL;
  if (!f) {
    sb_puts(b, dot ? dot + 1 : name);
    if (callee) sb_printf(b, " @%s", callee);
  } else {
    int n = 0;
    const char *main = NULL;
    for (Op *o = f->body->first; o; o = o->next) {
      if (o->kind == OP_RETURN || o->kind == OP_CONSTANT) continue;
      n++;
      if (o->kind == OP_DOT_GENERAL || o->kind == OP_CONVOLUTION) main = op_info[o->kind].name;
      else if (!main && (o->kind == OP_REDUCE || o->kind == OP_SORT || o->kind == OP_SCATTER || o->kind == OP_GATHER))
        main = op_info[o->kind].name;
    }
    if (main && strchr(main, '.')) main = strchr(main, '.') + 1;
    sb_printf(b, "%s %s (%d op%s%s%s)", kind ? kind : "call", callee, n, n == 1 ? "" : "s", main ? ": " : "",
              main ? main : "");
  }
  char *ty = op->nres > 0 ? type_str(op->res[0].type) : NULL;
  if (ty) sb_printf(b, " -> %s%s", ty, op->nres > 1 ? ", ..." : "");
  xfree(ty);
  int line = 0, col = 0;
  if (op->loc.file >= 0) src_line_col(op->loc, &line, &col);
  if (line > 0) sb_printf(b, " (line %d:%d)", line, col);
}
