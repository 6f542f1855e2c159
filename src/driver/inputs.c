/*
 * inputs.c - values typed on the command line (--input x=[1, 2]) and
 * deterministic random inputs (--random-inputs --seed N).
 *
 * A literal is nested brackets of scalars, or a bare scalar for a rank-0
 * parameter.  Its shape is taken from the brackets and must equal the
 * parameter's: a scalar does not broadcast, so a typo in a shape is caught
 * instead of silently producing different data.  Integers are range-checked
 * against the element type rather than wrapped, for the same reason.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "driver/driver.h"
#include "frontends/stablehlo/stablehlo.h"

#define MAX_RANK 64

typedef struct LitParser {
  const char *p;
  int leaf_depth;           /* depth at which scalars were found, -1 until then */
  int64_t dims[MAX_RANK];   /* lengths seen per depth, -1 until then */
  VEC(char *) scalars;      /* scalar spellings, row-major */
  char *err;
} LitParser;

static void skip(LitParser *lp) {
  while (*lp->p == ' ' || *lp->p == '\t' || *lp->p == '\n' || *lp->p == '\r') lp->p++;
}

static bool perr(LitParser *lp, const char *msg) {
  if (!lp->err) lp->err = xstrdup(msg);
  return false;
}

static bool parse_scalar(LitParser *lp) {
  skip(lp);
  const char *s = lp->p;
  if (*s == '(') {
    const char *e = strchr(s, ')');
    if (!e) return perr(lp, "missing ')' in a complex value");
    lp->p = e + 1;
  } else {
    while (*lp->p && *lp->p != ',' && *lp->p != ']' && *lp->p != '[' && *lp->p != ' ' &&
           *lp->p != '\t' && *lp->p != '\n')
      lp->p++;
  }
  if (lp->p == s) return perr(lp, "expected a value");
  VEC_PUSH(lp->scalars, xstrndup(s, (size_t)(lp->p - s)));
  return true;
}

static bool parse_level(LitParser *lp, int depth) {
  skip(lp);
  if (*lp->p != '[') {
    if (lp->leaf_depth >= 0 && lp->leaf_depth != depth)
      return perr(lp, "nested lists have different depths");
    lp->leaf_depth = depth;
    return parse_scalar(lp);
  }
  if (depth >= MAX_RANK) return perr(lp, "too many nested lists");
  if (lp->leaf_depth >= 0 && depth >= lp->leaf_depth)
    return perr(lp, "nested lists have different depths");
  lp->p++;
  int64_t count = 0;
  skip(lp);
  if (*lp->p == ']') {
    lp->p++;
  } else {
    for (;;) {
      if (!parse_level(lp, depth + 1)) return false;
      count++;
      skip(lp);
      if (*lp->p == ',') {
        lp->p++;
        continue;
      }
      if (*lp->p == ']') {
        lp->p++;
        break;
      }
      return perr(lp, "expected ',' or ']'");
    }
  }
  if (lp->dims[depth] >= 0 && lp->dims[depth] != count)
    return perr(lp, "rows have different lengths");
  lp->dims[depth] = count;
  return true;
}

static bool int_range(ElemType et, int64_t *lo, int64_t *hi, uint64_t *uhi) {
  int bits = et_bits(et);
  if (et_is_signed(et)) {
    *lo = bits == 64 ? INT64_MIN : -(INT64_C(1) << (bits - 1));
    *hi = bits == 64 ? INT64_MAX : (INT64_C(1) << (bits - 1)) - 1;
  } else {
    *uhi = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
  }
  return true;
}

static bool parse_float(const char *s, double *out) {
  char *e;
  errno = 0;
  double v = strtod(s, &e);
  if (e == s) return false;
  while (*e == ' ') e++;
  if (*e) return false;
  *out = v; /* ERANGE: strtod already gives +-inf or a denormal/zero, which is what we want */
  return true;
}

static bool set_scalar(Literal *l, int64_t i, const char *s, char **err) {
  ElemType et = lit_elem(l);
  switch (et_class(et)) {
  case EC_PRED:
    if (strcmp(s, "true") == 0 || strcmp(s, "1") == 0)
      lit_set_b(l, i, true);
    else if (strcmp(s, "false") == 0 || strcmp(s, "0") == 0)
      lit_set_b(l, i, false);
    else
      goto bad;
    return true;
  case EC_SINT: {
    char *e;
    errno = 0;
    long long v = strtoll(s, &e, 0);
    if (e == s || *e) goto bad;
    int64_t lo, hi;
    uint64_t uhi;
    int_range(et, &lo, &hi, &uhi);
    if (errno == ERANGE || v < lo || v > hi) goto range;
    lit_set_i(l, i, v);
    return true;
  }
  case EC_UINT: {
    char *e;
    if (strchr(s, '-')) goto range;
    errno = 0;
    unsigned long long v = strtoull(s, &e, 0);
    if (e == s || *e) goto bad;
    int64_t lo, hi;
    uint64_t uhi;
    int_range(et, &lo, &hi, &uhi);
    if (errno == ERANGE || v > uhi) goto range;
    lit_set_u(l, i, v);
    return true;
  }
  case EC_FLOAT: {
    double v;
    if (!parse_float(s, &v)) goto bad;
    lit_set_f(l, i, v);
    return true;
  }
  case EC_COMPLEX: {
    double re, im = 0;
    if (*s == '(') {
      char *body = xstrdup(s + 1);
      char *close = strrchr(body, ')'), *comma = strchr(body, ',');
      bool ok = close && comma && comma < close;
      if (ok) {
        *close = 0;
        *comma = 0;
        ok = parse_float(body, &re) && parse_float(comma + 1 + strspn(comma + 1, " "), &im);
      }
      xfree(body);
      if (!ok) goto bad;
    } else if (!parse_float(s, &re)) {
      goto bad;
    }
    lit_set_c(l, i, re, im);
    return true;
  }
  default: break;
  }
bad:
  *err = xasprintf("'%s' is not a valid %s value", s, elem_info[et].mlir_name);
  return false;
range:
  *err = xasprintf("%s is out of range for %s", s, elem_info[et].mlir_name);
  return false;
}

static char *dims_str(int rank, const int64_t *dims) {
  StrBuf b = {0};
  sb_putc(&b, '[');
  for (int i = 0; i < rank; i++) sb_printf(&b, "%s%lld", i ? ", " : "", (long long)dims[i]);
  sb_putc(&b, ']');
  return sb_take(&b);
}

typedef struct ValueDiags {
  int value_file, wrapper_file;
  uint32_t start, len; /* the value's bytes in the wrapper */
  DiagHook hook;       /* the hook in force before, if any */
  void *ud;
} ValueDiags;

static void value_diag(DiagLevel lvl, SrcLoc loc, const char *msg, void *ud) {
  ValueDiags *vd = ud;
  if (loc.file == vd->wrapper_file) {
    uint32_t off = loc.off < vd->start ? 0 : loc.off - vd->start;
    loc = (SrcLoc){vd->value_file, off > vd->len ? vd->len : off};
  }
  DiagHook inner = vd->hook;
  void *inner_ud = vd->ud;
  /* print through the previous hook, or the normal way */
  diag_set_hook(inner, inner_ud);
  diag(lvl, loc, "%s", msg);
  diag_set_hook(value_diag, vd);
}

/* An MLIR dense attribute ("dense<[1, 2]>", optionally followed by
   ": tensor<2xi32>") is read by the StableHLO parser itself, so every
   literal form it accepts works here too; its diagnostics point into the
   value as written. */
static Literal *parse_dense_literal(const char *text, const Type *t, char **err) {
  char *ts = type_str(t);
  /* typed when a ':' follows the '>' that closes "dense<" */
  int depth = 0;
  const char *q = text;
  for (; *q; q++) {
    if (*q == '<') depth++;
    if (*q == '>' && --depth == 0) break;
  }
  bool typed = *q && strchr(q, ':');
  /* the parser reads the value inside a small function; its diagnostics are
     moved onto a file that holds the value alone, so that they point at
     line 1 of what the user wrote */
  const char *prefix = "func.func @input() {\n  %c = stablehlo.constant ";
  char *src = xasprintf("%s%s%s%s\n  func.return\n}\n", prefix, text, typed ? "" : " : ", typed ? "" : ts);
  int file = src_add("<input>", src, strlen(src));
  xfree(src);
  ValueDiags vd = {src_add("<input>", text, strlen(text)), file, (uint32_t)strlen(prefix), (uint32_t)strlen(text),
                   NULL, NULL};
  diag_get_hook(&vd.hook, &vd.ud);
  diag_set_hook(value_diag, &vd);
  const SrcFile *sf = src_get(file);
  Module *m = stablehlo_parse(file, 0, sf->len);
  diag_set_hook(vd.hook, vd.ud);
  Literal *l = NULL;
  Op *c = m && m->funcs ? m->funcs->body->first : NULL;
  Attr *v = c && c->kind == OP_CONSTANT ? op_attr(c, "value") : NULL;
  if (!v || v->kind != ATTR_DENSE) {
    *err = xasprintf("cannot parse '%s' as a dense literal", text);
  } else if (!type_equal(v->lit->type, t)) {
    char *got = type_str(v->lit->type);
    *err = xasprintf("value has type %s, but the parameter is %s", got, ts);
    xfree(got);
  } else {
    l = lit_new(t);
    if (l->n) memcpy(l->data, v->lit->data, (size_t)l->n * (size_t)et_bytes(t->elem));
  }
  xfree(ts);
  module_free(m);
  return l;
}

Literal *parse_cli_literal(const char *text, const Type *t, char **err) {
  *err = NULL;
  while (*text == ' ') text++;
  if (strncmp(text, "dense<", 6) == 0 && t->kind == TY_TENSOR) return parse_dense_literal(text, t, err);
  if (t->kind != TY_TENSOR) {
    *err = xstrdup("only tensor parameters can be given on the command line");
    return NULL;
  }
  LitParser lp = {0};
  lp.p = text;
  lp.leaf_depth = -1;
  for (int i = 0; i < MAX_RANK; i++) lp.dims[i] = -1;
  Literal *l = NULL;
  bool ok = parse_level(&lp, 0);
  skip(&lp);
  if (ok && *lp.p) ok = perr(&lp, "unexpected text after the value");
  if (!ok) {
    *err = xasprintf("cannot parse '%s': %s", text, lp.err);
    goto done;
  }
  /* shape check; an all-empty list only fixes the leading dimensions */
  int rank = lp.leaf_depth;
  bool shape_ok;
  if (rank >= 0) {
    shape_ok = rank == t->rank;
    for (int i = 0; shape_ok && i < rank; i++) shape_ok = lp.dims[i] == t->dims[i];
  } else {
    rank = 0;
    while (rank < MAX_RANK && lp.dims[rank] >= 0) rank++;
    shape_ok = rank <= t->rank && type_num_elements(t) == 0;
    for (int i = 0; shape_ok && i < rank; i++) shape_ok = lp.dims[i] == t->dims[i];
  }
  if (!shape_ok) {
    char *ds = dims_str(rank, lp.dims), *ts = type_str(t);
    *err = xasprintf("value has shape %s, but the parameter is %s", ds, ts);
    xfree(ds);
    xfree(ts);
    goto done;
  }
  l = lit_new(t);
  for (int64_t i = 0; i < l->n; i++) {
    if (!set_scalar(l, i, lp.scalars.data[i], err)) {
      lit_free(l);
      l = NULL;
      break;
    }
  }
done:
  xfree(lp.err);
  for (int i = 0; i < lp.scalars.len; i++) xfree(lp.scalars.data[i]);
  VEC_FREE(lp.scalars);
  return l;
}

/* splitmix64: tiny, fast, and the same sequence on every platform */
static uint64_t next_random(uint64_t *s) {
  uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static double random_unit(uint64_t *s) { return (double)(next_random(s) >> 11) * 0x1p-53 * 2.0 - 1.0; }

void random_fill(Literal *l, uint64_t *state) {
  ElemType et = lit_elem(l);
  int bits = et_bits(et);
  for (int64_t i = 0; i < l->n; i++) {
    switch (et_class(et)) {
    case EC_PRED: lit_set_b(l, i, next_random(state) & 1); break;
    case EC_SINT: {
      /* [-10, 10], narrowed to the type's range */
      int64_t lim = bits >= 6 ? 10 : (INT64_C(1) << (bits - 1)) - 1;
      lit_set_i(l, i, (int64_t)(next_random(state) % (uint64_t)(2 * lim + 1)) - lim);
      break;
    }
    case EC_UINT: {
      uint64_t lim = bits >= 4 ? 10 : (UINT64_C(1) << bits) - 1;
      lit_set_u(l, i, next_random(state) % (lim + 1));
      break;
    }
    case EC_FLOAT: {
      double v = random_unit(state);
      if (et == ET_F8E8M0FNU) v = ldexp(1.0, (int)(next_random(state) % 9) - 4); /* positive powers of 2 only */
      lit_set_f(l, i, v);
      break;
    }
    case EC_COMPLEX: {
      double re = random_unit(state);
      lit_set_c(l, i, re, random_unit(state));
      break;
    }
    default: break;
    }
  }
}
