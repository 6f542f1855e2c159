/*
 * parser.c - StableHLO MLIR text to xlac IR.
 *
 * A recursive-descent parser over the on-demand lexer.  One module per call;
 * the first error is reported at the offending token and everything built so
 * far is dropped with the module arena.
 *
 * Ops come in two spellings.  The generic form ("stablehlo.add"(%a, %b)
 * <{props}> ({regions}) {attrs} : (types) -> types) is read the same way for
 * every op.  The pretty form is op specific: a small table of keywords per op
 * (dims = [...], sizes = [...]) covers most of them, and the ops with their own
 * grammar (reduce, while, convolution, slice, custom_call, ...) have their
 * own functions.  Both end in the attribute names of the generic form, so the
 * rest of xlac sees one vocabulary (docs/ir.md).
 *
 * SSA names live in a stack of scopes, one per region, so a region can use
 * values of the regions around it.  Temporary lists are arena-allocated so an
 * early error return leaks nothing.
 */
#include "frontends/stablehlo/stablehlo.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/stablehlo/lexer.h"
#include "ir/rewrite.h"
#include "ir/sharding.h"

#define MAX_DEPTH 200
#define MAX_RANK 64
/* Constants larger than this many elements are refused rather than risking an
   allocation failure (which would abort). */
#define MAX_DENSE_ELEMS ((int64_t)1 << 28)

typedef struct Binding {
  Value *base; /* op results are contiguous; a block argument is one value */
  Value **args;
  int n;
} Binding;

typedef struct Scope {
  StrMap names;
  struct Scope *up;
} Scope;

/* Arena-backed growable lists (see the file comment for why not VEC). */
typedef struct PList {
  void **data;
  int len, cap;
} PList;
typedef struct IList {
  int64_t *data;
  int len, cap;
} IList;

typedef struct P {
  Lexer lx;
  Tok tok;
  Module *m;
  bool failed;
  int depth;
  Scope *scope;
  StrMap attr_alias, type_alias;
  Type *t_i64, *t_i32, *t_f64, *t_i1;
  PList calls; /* func.call ops, checked against the defined functions at the end */
} P;

/* ---------------------------------------------------------------- basics */

static void pl_push(P *p, PList *l, void *x) {
  if (l->len == l->cap) {
    int cap = l->cap ? l->cap * 2 : 8;
    void **d = ARENA_ARRAY(&p->m->arena, void *, cap);
    if (l->len) memcpy(d, l->data, sizeof(void *) * (size_t)l->len);
    l->data = d;
    l->cap = cap;
  }
  l->data[l->len++] = x;
}

static void il_push(P *p, IList *l, int64_t x) {
  if (l->len == l->cap) {
    int cap = l->cap ? l->cap * 2 : 8;
    int64_t *d = ARENA_ARRAY(&p->m->arena, int64_t, cap);
    if (l->len) memcpy(d, l->data, sizeof(int64_t) * (size_t)l->len);
    l->data = d;
    l->cap = cap;
  }
  l->data[l->len++] = x;
}

static SrcLoc loc_at(P *p, size_t off) { return (SrcLoc){p->lx.file, (uint32_t)off}; }

static void err(P *p, size_t off, const char *fmt, ...) XLAC_PRINTF(3, 4);
static void err(P *p, size_t off, const char *fmt, ...) {
  if (p->failed) return;
  p->failed = true;
  va_list ap;
  va_start(ap, fmt);
  vdiag(DIAG_ERROR, loc_at(p, off), fmt, ap);
  va_end(ap);
}

static const char *tok_ptr(P *p, Tok t) { return p->lx.text + t.start; }

/* Short description of the current token for "expected X, found Y". */
static const char *tok_desc(P *p, char *buf, size_t n) {
  Tok t = p->tok;
  if (t.kind == TK_EOF) return "end of input";
  size_t len = tok_len(t);
  if (len > 24) len = 24;
  snprintf(buf, n, "'%.*s'", (int)len, tok_ptr(p, t));
  return buf;
}

static void next(P *p) {
  p->tok = lex_next(&p->lx);
  if (p->tok.kind == TK_BAD) {
    if (p->lx.text[p->tok.start] == '"' || p->lx.text[p->tok.start] == '@')
      err(p, p->tok.start, "unterminated string");
    else
      err(p, p->tok.start, "unexpected character '%c'", p->lx.text[p->tok.start]);
  }
}

static Tok peek(P *p) {
  size_t save = p->lx.pos;
  Tok t = lex_next(&p->lx);
  p->lx.pos = save;
  return t;
}

static bool is_p(P *p, char c) { return tok_is(p->tok, c); }
static bool is_id(P *p, const char *w) { return tok_is_ident(&p->lx, p->tok, w); }

static bool accept(P *p, char c) {
  if (p->failed || !is_p(p, c)) return false;
  next(p);
  return true;
}

static bool expect(P *p, char c) {
  if (p->failed) return false;
  if (is_p(p, c)) {
    next(p);
    return true;
  }
  char buf[48];
  err(p, p->tok.start, "expected '%c', found %s", c, tok_desc(p, buf, sizeof buf));
  return false;
}

static bool expect_id(P *p, const char *w) {
  if (p->failed) return false;
  if (is_id(p, w)) {
    next(p);
    return true;
  }
  char buf[48];
  err(p, p->tok.start, "expected '%s', found %s", w, tok_desc(p, buf, sizeof buf));
  return false;
}

static bool expect_arrow(P *p) {
  if (p->failed) return false;
  if (p->tok.kind == TK_ARROW) {
    next(p);
    return true;
  }
  char buf[48];
  err(p, p->tok.start, "expected '->', found %s", tok_desc(p, buf, sizeof buf));
  return false;
}

static bool enter(P *p) {
  if (++p->depth > MAX_DEPTH) {
    err(p, p->tok.start, "nesting too deep (more than %d levels)", MAX_DEPTH);
    return false;
  }
  return true;
}
static void leave(P *p) { p->depth--; }

static char *tok_dup(P *p, Tok t) { return arena_strndup(&p->m->arena, tok_ptr(p, t), tok_len(t)); }

/* Skips a trailing location annotation loc(...). */
static void skip_loc(P *p) {
  if (p->failed || !is_id(p, "loc") || !tok_is(peek(p), '(')) return;
  next(p);
  size_t open = p->tok.start;
  int depth = 0;
  do {
    if (p->tok.kind == TK_EOF) {
      err(p, open, "unterminated location");
      return;
    }
    if (is_p(p, '(')) depth++;
    if (is_p(p, ')')) depth--;
    next(p);
  } while (depth > 0 && !p->failed);
}

/* Decodes the body of a string token (MLIR escapes: \n \t \" \\ and \XX). */
static char *decode_string(P *p, Tok t, size_t *out_len) {
  const char *s = tok_ptr(p, t) + 1;
  size_t n = tok_len(t) - 2;
  char *out = arena_alloc(&p->m->arena, n + 1);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c != '\\') {
      out[k++] = c;
      continue;
    }
    if (i + 1 >= n) break;
    char e = s[++i];
    if (e == 'n') out[k++] = '\n';
    else if (e == 't') out[k++] = '\t';
    else if (e == '"' || e == '\\') out[k++] = e;
    else if (isxdigit((unsigned char)e) && i + 1 < n && isxdigit((unsigned char)s[i + 1])) {
      char hex[3] = {e, s[i + 1], 0};
      out[k++] = (char)strtol(hex, NULL, 16);
      i++;
    } else {
      err(p, t.start + 1 + i, "unknown escape sequence '\\%c' in string", e);
      return NULL;
    }
  }
  out[k] = 0;
  *out_len = k;
  return out;
}

/* Symbol name without '@' (and without quotes for @"..."). */
static const char *symbol_name(P *p, Tok t) {
  if (tok_ptr(p, t)[1] == '"') {
    Tok s = {TK_STRING, t.start + 1, t.end, 0};
    size_t n;
    return decode_string(p, s, &n);
  }
  return arena_strndup(&p->m->arena, tok_ptr(p, t) + 1, tok_len(t) - 1);
}

/* ---------------------------------------------------------------- numbers */

/* Parses an integer token into sign and magnitude. */
static bool int_value(P *p, Tok t, bool *neg, uint64_t *mag) {
  const char *s = tok_ptr(p, t);
  size_t n = tok_len(t), i = 0;
  *neg = false;
  if (s[0] == '-') {
    *neg = true;
    i = 1;
  }
  int base = 10;
  if (n - i > 2 && s[i] == '0' && s[i + 1] == 'x') {
    base = 16;
    i += 2;
  }
  uint64_t v = 0;
  for (; i < n; i++) {
    int d = isdigit((unsigned char)s[i]) ? s[i] - '0' : tolower((unsigned char)s[i]) - 'a' + 10;
    if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) {
      err(p, t.start, "integer literal '%.*s' is too large", (int)n, s);
      return false;
    }
    v = v * (uint64_t)base + (uint64_t)d;
  }
  *mag = v;
  return true;
}

static bool is_hex_tok(P *p, Tok t) {
  const char *s = tok_ptr(p, t);
  if (*s == '-') s++;
  return t.kind == TK_INT && s[0] == '0' && s[1] == 'x';
}

/* Signed 64-bit value of an integer token (for dimensions, indices, etc.). */
static bool parse_i64(P *p, int64_t *out) {
  if (p->failed) return false;
  if (p->tok.kind != TK_INT) {
    char buf[48];
    err(p, p->tok.start, "expected integer, found %s", tok_desc(p, buf, sizeof buf));
    return false;
  }
  bool neg;
  uint64_t mag;
  if (!int_value(p, p->tok, &neg, &mag)) return false;
  if (mag > (neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX)) {
    err(p, p->tok.start, "integer does not fit in 64 bits");
    return false;
  }
  *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
  next(p);
  return true;
}

static bool tok_to_cstr(P *p, Tok t, char *buf, size_t n) {
  if (tok_len(t) >= n) {
    err(p, t.start, "number literal too long");
    return false;
  }
  memcpy(buf, tok_ptr(p, t), tok_len(t));
  buf[tok_len(t)] = 0;
  return true;
}

/* A float written as decimal (TK_FLOAT or TK_INT) or inf/nan, with an optional
   leading '-' token for -inf.  Hex is handled by the callers (bit patterns). */
static bool parse_double(P *p, double *out) {
  if (p->failed) return false;
  bool neg = false;
  if (is_p(p, '-')) {
    neg = true;
    next(p);
  }
  if (is_id(p, "inf") || is_id(p, "nan")) {
    double v = is_id(p, "inf") ? INFINITY : NAN;
    *out = neg ? -v : v;
    next(p);
    return true;
  }
  if (!neg && (p->tok.kind == TK_FLOAT || (p->tok.kind == TK_INT && !is_hex_tok(p, p->tok)))) {
    char buf[512];
    if (!tok_to_cstr(p, p->tok, buf, sizeof buf)) return false;
    *out = strtod(buf, NULL);
    next(p);
    return true;
  }
  char buf[48];
  err(p, p->tok.start, "expected floating point number, found %s", tok_desc(p, buf, sizeof buf));
  return false;
}

/* ---------------------------------------------------------------- types */

static Type *parse_type(P *p);

/* Full range of an integer storage type, for !quant.uniform defaults. */
static void int_range(ElemType et, int64_t *lo, int64_t *hi) {
  int bits = et_bits(et);
  if (et_is_signed(et)) {
    *lo = bits >= 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
    *hi = bits >= 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
  } else {
    *lo = 0;
    *hi = bits >= 63 ? INT64_MAX : (int64_t)((1ull << bits) - 1);
  }
}

static ElemType parse_scalar_elem(P *p) {
  if (p->failed) return ET_INVALID;
  Tok t = p->tok;
  if (is_id(p, "complex")) {
    next(p);
    if (!expect(p, '<')) return ET_INVALID;
    /* the part type is a plain float: complex<complex<...>> is refused here
       rather than recursed into, however deep the input nests it */
    if (is_id(p, "complex")) {
      err(p, p->tok.start, "only complex<f32> and complex<f64> are supported");
      return ET_INVALID;
    }
    ElemType inner = parse_scalar_elem(p);
    if (p->failed) return ET_INVALID;
    if (!expect(p, '>')) return ET_INVALID;
    if (inner == ET_F32) return ET_C64;
    if (inner == ET_F64) return ET_C128;
    err(p, t.start, "only complex<f32> and complex<f64> are supported");
    return ET_INVALID;
  }
  if (t.kind == TK_IDENT) {
    ElemType et = et_from_mlir(tok_ptr(p, t), tok_len(t));
    /* quant storage types may be spelled u8 */
    if (et == ET_INVALID && tok_ptr(p, t)[0] == 'u' && tok_len(t) > 1 && isdigit((unsigned char)tok_ptr(p, t)[1])) {
      char buf[16];
      if (tok_len(t) < 14) {
        snprintf(buf, sizeof buf, "ui%.*s", (int)tok_len(t) - 1, tok_ptr(p, t) + 1);
        et = et_from_mlir(buf, strlen(buf));
      }
    }
    /* index only appears in layouts and shape operands; i64 holds it */
    if (et == ET_INVALID && tok_is_ident(&p->lx, t, "index")) et = ET_S64;
    if (et != ET_INVALID) {
      next(p);
      return et;
    }
  }
  char buf[48];
  err(p, t.start, "unknown element type %s", tok_desc(p, buf, sizeof buf));
  return ET_INVALID;
}

/* !quant.uniform<i8<-127:127>:f32:1, {0.1:-30, 0.5:-20}> after the !quant.uniform token. */
static QuantInfo *parse_quant(P *p, ElemType *storage) {
  size_t at = p->tok.start;
  next(p);
  if (!expect(p, '<')) return NULL;
  QuantInfo *q = ARENA_NEW(&p->m->arena, QuantInfo);
  size_t st_at = p->tok.start;
  q->storage = parse_scalar_elem(p);
  if (p->failed) return NULL;
  if (!et_is_int(q->storage)) {
    err(p, st_at, "quantized storage type must be an integer type");
    return NULL;
  }
  int_range(q->storage, &q->storage_min, &q->storage_max);
  if (accept(p, '<')) {
    if (!parse_i64(p, &q->storage_min) || !expect(p, ':') || !parse_i64(p, &q->storage_max) ||
        !expect(p, '>'))
      return NULL;
  }
  if (!expect(p, ':')) return NULL;
  size_t ex_at = p->tok.start;
  q->expressed = parse_scalar_elem(p);
  if (p->failed) return NULL;
  if (!et_is_float(q->expressed)) {
    err(p, ex_at, "quantized expressed type must be a float type");
    return NULL;
  }
  q->quant_dim = -1;
  if (accept(p, ':')) {
    int64_t d;
    if (!parse_i64(p, &d)) return NULL;
    if (d < 0 || d >= MAX_RANK) {
      err(p, ex_at, "invalid quantization dimension");
      return NULL;
    }
    q->quant_dim = (int)d;
  }
  if (!expect(p, ',')) return NULL;
  bool braced = accept(p, '{');
  if (braced != (q->quant_dim >= 0)) {
    err(p, p->tok.start, braced ? "per-axis scales need a quantization dimension"
                                : "expected '{' with per-axis scales");
    return NULL;
  }
  PList sc = {0};
  IList zp = {0};
  do {
    double *s = ARENA_NEW(&p->m->arena, double);
    if (!parse_double(p, s)) return NULL;
    pl_push(p, &sc, s);
    int64_t z = 0;
    if (accept(p, ':') && !parse_i64(p, &z)) return NULL;
    il_push(p, &zp, z);
  } while (braced && accept(p, ','));
  if (braced && !expect(p, '}')) return NULL;
  if (!expect(p, '>')) return NULL;
  q->nscales = sc.len;
  q->scales = ARENA_ARRAY(&p->m->arena, double, sc.len);
  q->zero_points = ARENA_ARRAY(&p->m->arena, int64_t, sc.len);
  for (int i = 0; i < sc.len; i++) {
    q->scales[i] = *(double *)sc.data[i];
    q->zero_points[i] = zp.data[i];
  }
  (void)at;
  *storage = q->storage;
  return q;
}

/* tensor<...> after the 'tensor' identifier: dims are scanned by hand since
   "4x3xf32" does not split into MLIR tokens the usual way. */
static Type *parse_tensor_type(P *p) {
  size_t at = p->tok.start;
  const char *s = p->lx.text;
  if (!(p->lx.pos < p->lx.end && s[p->lx.pos] == '<')) {
    err(p, p->tok.end, "expected '<' after 'tensor'");
    return NULL;
  }
  p->lx.pos++;
  int64_t dims[MAX_RANK];
  int rank = 0;
  int64_t total = 1;
  for (;;) {
    size_t i = lex_skip_space(&p->lx);
    if (i < p->lx.end && (s[i] == '?' || s[i] == '*')) {
      err(p, i, s[i] == '?' ? "dynamic dimensions are not supported (static shapes only)"
                            : "unranked tensors are not supported");
      return NULL;
    }
    if (!(i < p->lx.end && isdigit((unsigned char)s[i]))) break;
    uint64_t v = 0;
    size_t j = i;
    while (j < p->lx.end && isdigit((unsigned char)s[j])) {
      v = v * 10 + (uint64_t)(s[j] - '0');
      if (v > ((uint64_t)1 << 40)) {
        err(p, i, "dimension size too large");
        return NULL;
      }
      j++;
    }
    if (!(j < p->lx.end && s[j] == 'x')) {
      err(p, j, "expected 'x' after dimension size");
      return NULL;
    }
    if (rank == MAX_RANK) {
      err(p, i, "tensor rank larger than %d is not supported", MAX_RANK);
      return NULL;
    }
    dims[rank++] = (int64_t)v;
    if (v && total > ((int64_t)1 << 50) / (int64_t)v) {
      err(p, i, "tensor has too many elements");
      return NULL;
    }
    total *= (int64_t)v;
    p->lx.pos = j + 1;
  }
  next(p);
  if (p->failed) return NULL;
  ElemType et;
  QuantInfo *q = NULL;
  if (p->tok.kind == TK_BANG && tok_len(p->tok) == 14 && memcmp(tok_ptr(p, p->tok), "!quant.uniform", 14) == 0) {
    q = parse_quant(p, &et);
    if (!q) return NULL;
  } else {
    et = parse_scalar_elem(p);
    if (p->failed) return NULL;
  }
  if (is_p(p, ',')) {
    err(p, p->tok.start, "tensor encodings are not supported");
    return NULL;
  }
  if (!expect(p, '>')) return NULL;
  Type *t = type_tensor(&p->m->arena, et, rank, dims);
  t->quant = q;
  (void)at;
  return t;
}

static Type *parse_type(P *p) {
  if (p->failed) return NULL;
  Tok t = p->tok;
  if (is_id(p, "tensor")) return parse_tensor_type(p);
  if (is_id(p, "tuple")) {
    if (!enter(p)) return NULL;
    next(p);
    if (!expect(p, '<')) return NULL;
    PList el = {0};
    if (!is_p(p, '>')) {
      do {
        Type *e = parse_type(p);
        if (!e) return NULL;
        pl_push(p, &el, e);
      } while (accept(p, ','));
    }
    if (!expect(p, '>')) return NULL;
    leave(p);
    return type_tuple(&p->m->arena, el.len, (Type *const *)el.data);
  }
  if (t.kind == TK_BANG) {
    const char *s = tok_ptr(p, t);
    size_t n = tok_len(t);
    if (n == 16 && memcmp(s, "!stablehlo.token", 16) == 0) {
      next(p);
      return type_token(&p->m->arena);
    }
    if (n == 14 && memcmp(s, "!quant.uniform", 14) == 0) {
      ElemType et;
      QuantInfo *q = parse_quant(p, &et);
      if (!q) return NULL;
      Type *ty = type_scalar(&p->m->arena, et);
      ty->quant = q;
      return ty;
    }
    Type *alias = strmap_getn(&p->type_alias, s, n);
    if (alias) {
      next(p);
      return alias;
    }
    err(p, t.start, "unsupported type '%.*s'", (int)n, s);
    return NULL;
  }
  if (t.kind == TK_IDENT) {
    if (is_id(p, "memref") || is_id(p, "vector") || is_id(p, "none")) {
      err(p, t.start, "unsupported type '%.*s'", (int)tok_len(t), tok_ptr(p, t));
      return NULL;
    }
    ElemType et = parse_scalar_elem(p);
    if (p->failed) return NULL;
    return type_scalar(&p->m->arena, et);
  }
  char buf[48];
  err(p, t.start, "expected type, found %s", tok_desc(p, buf, sizeof buf));
  return NULL;
}

static bool looks_like_type(P *p) {
  Tok t = p->tok;
  if (t.kind == TK_BANG) return true;
  if (t.kind != TK_IDENT) return false;
  if (is_id(p, "tensor") || is_id(p, "tuple") || is_id(p, "complex") || is_id(p, "index")) return true;
  return et_from_mlir(tok_ptr(p, t), tok_len(t)) != ET_INVALID;
}

/* type (',' type)* into out */
static bool parse_type_list(P *p, PList *out) {
  do {
    Type *t = parse_type(p);
    if (!t) return false;
    pl_push(p, out, t);
  } while (accept(p, ','));
  return true;
}

/* '(' [types] ')' */
static bool parse_paren_types(P *p, PList *out) {
  if (!expect(p, '(')) return false;
  if (accept(p, ')')) return true;
  if (!parse_type_list(p, out)) return false;
  return expect(p, ')');
}

/* Result side of a function type: a single type or a parenthesized list. */
static bool parse_result_types(P *p, PList *out) {
  if (is_p(p, '(')) return parse_paren_types(p, out);
  Type *t = parse_type(p);
  if (!t) return false;
  pl_push(p, out, t);
  return true;
}

/* ---------------------------------------------------------------- attributes */

static Attr *parse_attr(P *p);

/* Captures #dialect.name<...> (or any ident<...>) verbatim, from `start` to the
   matching '>', for attributes xlac does not interpret. */
static Attr *parse_opaque(P *p, size_t start) {
  const char *s = p->lx.text;
  size_t i = p->lx.pos, end = p->lx.end;
  /* the cursor is just past the name; the '<' may follow */
  while (i < end && isspace((unsigned char)s[i])) i++;
  if (i < end && s[i] == '<') {
    int depth = 0;
    for (; i < end; i++) {
      char c = s[i];
      if (c == '"') {
        for (i++; i < end && s[i] != '"'; i++)
          if (s[i] == '\\') i++;
        continue;
      }
      if (c == '-' && i + 1 < end && s[i + 1] == '>') {
        i++;
        continue;
      }
      if (c == '<' || c == '(' || c == '[' || c == '{') depth++;
      if (c == '>' || c == ')' || c == ']' || c == '}') {
        if (--depth == 0) break;
      }
    }
    if (i >= end) {
      err(p, start, "unterminated attribute");
      return NULL;
    }
    i++;
  } else {
    i = p->tok.end;
  }
  Attr *a = ARENA_NEW(&p->m->arena, Attr);
  a->kind = ATTR_OPAQUE;
  a->s = arena_strndup(&p->m->arena, s + start, i - start);
  a->slen = i - start;
  p->lx.pos = i;
  next(p);
  return a;
}

/* key = value pairs up to `close` ('}' or '>'); bare keys are unit. */
static Attr *parse_dict_body(P *p, const char *name, char close) {
  PList keys = {0}, vals = {0};
  if (!is_p(p, close)) {
    do {
      Tok k = p->tok;
      const char *key;
      if (k.kind == TK_IDENT) {
        key = tok_dup(p, k);
      } else if (k.kind == TK_STRING) {
        size_t n;
        key = decode_string(p, k, &n);
        if (!key) return NULL;
      } else {
        char buf[48];
        err(p, k.start, "expected attribute name, found %s", tok_desc(p, buf, sizeof buf));
        return NULL;
      }
      next(p);
      Attr *v;
      if (accept(p, '=')) {
        v = parse_attr(p);
        if (!v) return NULL;
      } else {
        v = attr_unit(p->m);
      }
      for (int i = 0; i < keys.len; i++)
        if (strcmp(keys.data[i], key) == 0) {
          err(p, k.start, "duplicate attribute '%s'", key);
          return NULL;
        }
      pl_push(p, &keys, (void *)key);
      pl_push(p, &vals, v);
    } while (accept(p, ','));
  }
  if (!expect(p, close)) return NULL;
  return attr_dict(p->m, name, keys.len, (const char *const *)keys.data, (Attr *const *)vals.data);
}

/* [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] into the stablehlo.conv dictionary. */
static bool parse_conv_part(P *p, char a, char b, int64_t *first, int64_t *second, IList *spatial) {
  if (!expect(p, '[')) return false;
  int64_t pos = 0;
  *first = *second = -1;
  IList sp = {0};
  IList seen = {0};
  if (!is_p(p, ']')) {
    do {
      Tok t = p->tok;
      if (t.kind == TK_INT) {
        int64_t d;
        if (!parse_i64(p, &d)) return false;
        if (d < 0 || d >= MAX_RANK) {
          err(p, t.start, "invalid spatial dimension %lld", (long long)d);
          return false;
        }
        for (int i = 0; i < seen.len; i++)
          if (seen.data[i] == d) {
            err(p, t.start, "duplicate spatial dimension %lld", (long long)d);
            return false;
          }
        il_push(p, &seen, d);
        il_push(p, &sp, pos);
      } else if (t.kind == TK_IDENT && tok_len(t) == 1 && (tok_ptr(p, t)[0] == a || tok_ptr(p, t)[0] == b)) {
        int64_t *slot = tok_ptr(p, t)[0] == a ? first : second;
        if (*slot >= 0) {
          err(p, t.start, "duplicate '%c' in convolution dimensions", tok_ptr(p, t)[0]);
          return false;
        }
        *slot = pos;
        next(p);
      } else {
        err(p, t.start, "expected '%c', '%c' or a spatial dimension number", a, b);
        return false;
      }
      pos++;
    } while (accept(p, ','));
  }
  size_t close = p->tok.start;
  if (!expect(p, ']')) return false;
  if (*first < 0 || *second < 0) {
    err(p, close, "convolution dimensions need both '%c' and '%c'", a, b);
    return false;
  }
  /* spatial dims are listed by number: entry k of the result is where k sits */
  spatial->len = 0;
  for (int k = 0; k < seen.len; k++) {
    int found = -1;
    for (int i = 0; i < seen.len; i++)
      if (seen.data[i] == k) found = i;
    if (found < 0) {
      err(p, close, "spatial dimensions must be numbered 0..%d", seen.len - 1);
      return false;
    }
    il_push(p, spatial, sp.data[found]);
  }
  return true;
}

static Attr *ints_array(P *p, const IList *l) {
  Attr **el = ARENA_ARRAY(&p->m->arena, Attr *, l->len > 0 ? l->len : 1);
  for (int i = 0; i < l->len; i++) el[i] = attr_int(p->m, l->data[i], NULL);
  return attr_array(p->m, l->len, el);
}

static Attr *parse_conv_compact(P *p) {
  int64_t ib, ifeat, kin, kout, ob, of;
  IList is = {0}, ks = {0}, os = {0};
  if (!parse_conv_part(p, 'b', 'f', &ib, &ifeat, &is)) return NULL;
  if (!expect_id(p, "x")) return NULL;
  if (!parse_conv_part(p, 'i', 'o', &kin, &kout, &ks)) return NULL;
  if (!expect_arrow(p)) return NULL;
  if (!parse_conv_part(p, 'b', 'f', &ob, &of, &os)) return NULL;
  const char *keys[9] = {"input_batch_dimension",          "input_feature_dimension",
                         "input_spatial_dimensions",       "kernel_input_feature_dimension",
                         "kernel_output_feature_dimension", "kernel_spatial_dimensions",
                         "output_batch_dimension",         "output_feature_dimension",
                         "output_spatial_dimensions"};
  Attr *vals[9] = {attr_int(p->m, ib, NULL),   attr_int(p->m, ifeat, NULL), ints_array(p, &is),
                   attr_int(p->m, kin, NULL),  attr_int(p->m, kout, NULL),  ints_array(p, &ks),
                   attr_int(p->m, ob, NULL),   attr_int(p->m, of, NULL),    ints_array(p, &os)};
  return attr_dict(p->m, "stablehlo.conv", 9, keys, vals);
}

/* Shardy's attributes, read by src/ir/sharding.c from `begin` (their '<')
   on, and kept in canonical form; errors are reported where they are. */
typedef enum SdyText { SDY_T_MESH, SDY_T_SHARDING, SDY_T_PER_VALUE } SdyText;

static Attr *parse_sdy_at(P *p, size_t begin, SdyText which, SdyMesh **mesh_out) {
  const char *s = p->lx.text + begin;
  size_t n = p->lx.end > begin ? p->lx.end - begin : 0, off = 0, used = 0;
  char *e = NULL;
  Attr *a = NULL;
  if (which == SDY_T_MESH) {
    SdyMesh *mesh = ARENA_NEW(&p->m->arena, SdyMesh);
    used = sdy_parse_mesh(&p->m->arena, s, n, mesh, &off, &e);
    if (used) a = attr_sdy_mesh(p->m, mesh);
    if (mesh_out) *mesh_out = mesh;
  } else if (which == SDY_T_SHARDING) {
    SdySharding sh;
    used = sdy_parse_sharding(&p->m->arena, s, n, &sh, &off, &e);
    if (used) a = attr_sdy_sharding(p->m, &sh);
  } else {
    SdySharding *all = NULL;
    int k = 0;
    used = sdy_parse_per_value(&p->m->arena, s, n, &all, &k, &off, &e);
    if (used) a = attr_sdy_per_value(p->m, k, all);
  }
  if (!used) {
    err(p, begin + off, "%s", e);
    xfree(e);
    return NULL;
  }
  p->lx.pos = begin + used;
  next(p);
  return a;
}

/* #name...: alias, #stablehlo<enum V>, #stablehlo.x<...>, or opaque. */
static Attr *parse_hash_attr(P *p) {
  Tok t = p->tok;
  const char *s = tok_ptr(p, t);
  size_t n = tok_len(t);
  bool angle = t.end < p->lx.end && p->lx.text[t.end] == '<';
  if (!angle) {
    Attr *a = strmap_getn(&p->attr_alias, s, n);
    if (!a) {
      err(p, t.start, "undefined attribute alias '%.*s'", (int)n, s);
      return NULL;
    }
    next(p);
    return a;
  }
  if (n == 13 && memcmp(s, "#sdy.sharding", 13) == 0) return parse_sdy_at(p, t.end, SDY_T_SHARDING, NULL);
  if (n == 23 && memcmp(s, "#sdy.sharding_per_value", 23) == 0) return parse_sdy_at(p, t.end, SDY_T_PER_VALUE, NULL);
  if (n == 9 && memcmp(s, "#sdy.mesh", 9) == 0) return parse_sdy_at(p, t.end, SDY_T_MESH, NULL);
  const char *dot = memchr(s, '.', n);
  size_t dlen = dot ? (size_t)(dot - s) - 1 : n - 1;
  bool ours = (dlen == 9 && memcmp(s + 1, "stablehlo", 9) == 0) || (dlen == 4 && memcmp(s + 1, "chlo", 4) == 0);
  if (!ours) return parse_opaque(p, t.start);
  next(p);
  if (!expect(p, '<')) return NULL;
  if (!dot) {
    /* #stablehlo<comparison_direction LT> */
    Tok name = p->tok;
    if (name.kind != TK_IDENT) {
      err(p, name.start, "expected enum attribute name");
      return NULL;
    }
    next(p);
    Tok val = p->tok;
    if (val.kind != TK_IDENT) {
      err(p, val.start, "expected enum value");
      return NULL;
    }
    next(p);
    if (!expect(p, '>')) return NULL;
    Attr *a = attr_enum(p->m, tok_dup(p, name), tok_dup(p, val));
    return a;
  }
  const char *full = arena_strndup(&p->m->arena, s + 1, n - 1);
  const char *kind = dot + 1;
  size_t klen = n - (size_t)(dot + 1 - s);
  if (klen == 4 && memcmp(kind, "conv", 4) == 0) {
    if (is_id(p, "raw")) {
      next(p);
      return parse_dict_body(p, "stablehlo.conv", '>');
    }
    Attr *a = parse_conv_compact(p);
    if (!a || !expect(p, '>')) return NULL;
    return a;
  }
  /* #stablehlo.rng_algorithm<PHILOX> is an enum with its own mnemonic */
  if (p->tok.kind == TK_IDENT && tok_is(peek(p), '>')) {
    Tok v = p->tok;
    next(p);
    next(p);
    return attr_enum(p->m, arena_strndup(&p->m->arena, kind, klen), tok_dup(p, v));
  }
  return parse_dict_body(p, full, '>');
}

/* array<i64: 1, 2>, array<i1: true>, array<f32: 1.0> */
static Attr *parse_typed_array(P *p) {
  next(p);
  if (!expect(p, '<')) return NULL;
  size_t at = p->tok.start;
  ElemType et = parse_scalar_elem(p);
  if (p->failed) return NULL;
  IList v = {0};
  PList fv = {0};
  if (accept(p, ':')) {
    do {
      if (et == ET_PRED) {
        if (is_id(p, "true") || is_id(p, "false")) {
          il_push(p, &v, is_id(p, "true"));
          next(p);
        } else {
          err(p, p->tok.start, "expected 'true' or 'false'");
          return NULL;
        }
      } else if (et_is_int(et)) {
        int64_t x;
        if (!parse_i64(p, &x)) return NULL;
        il_push(p, &v, x);
      } else if (et_is_float(et)) {
        double *d = ARENA_NEW(&p->m->arena, double);
        if (!parse_double(p, d)) return NULL;
        pl_push(p, &fv, d);
      } else {
        err(p, at, "unsupported array element type");
        return NULL;
      }
    } while (accept(p, ','));
  }
  if (!expect(p, '>')) return NULL;
  if (et_is_float(et)) {
    Attr **el = ARENA_ARRAY(&p->m->arena, Attr *, fv.len > 0 ? fv.len : 1);
    Type *ft = type_scalar(&p->m->arena, et);
    for (int i = 0; i < fv.len; i++) el[i] = attr_float(p->m, *(double *)fv.data[i], ft);
    return attr_array(p->m, fv.len, el);
  }
  Attr *a = attr_ints(p->m, v.len, v.data);
  if (et == ET_PRED) a->kind = ATTR_BOOLS;
  return a;
}

/* ---- dense<...> ---- */

/* Stores one integer element after checking it fits the element type.  Signless
   iN accepts both the signed and the unsigned range, like MLIR. */
static bool set_int_elem(P *p, Literal *l, int64_t i, Tok t) {
  ElemType et = lit_elem(l);
  bool neg;
  uint64_t mag;
  if (!int_value(p, t, &neg, &mag)) return false;
  int bits = et_bits(et);
  bool ok;
  if (et_is_unsigned(et))
    ok = !neg && (bits >= 64 || mag <= (1ull << bits) - 1);
  else if (neg)
    ok = mag <= (1ull << (bits - 1));
  else
    ok = bits >= 64 || mag <= (1ull << bits) - 1;
  if (!ok) {
    err(p, t.start, "integer value %.*s does not fit in %s", (int)tok_len(t), tok_ptr(p, t),
        elem_info[et].mlir_name);
    return false;
  }
  lit_set_u(l, i, neg ? 0 - mag : mag);
  return true;
}

/* A float element: decimal, inf/nan, or a hex bit pattern of the format. */
static bool parse_float_bits_or_value(P *p, ElemType et, bool *is_bits, uint64_t *bits, double *v) {
  Tok t = p->tok;
  *is_bits = false;
  if (is_hex_tok(p, t)) {
    bool neg;
    uint64_t mag;
    if (!int_value(p, t, &neg, &mag)) return false;
    int nb = et_bits(et);
    if (neg || (nb < 64 && mag >> nb)) {
      err(p, t.start, "hexadecimal bit pattern does not fit in %s", elem_info[et].mlir_name);
      return false;
    }
    *is_bits = true;
    *bits = mag;
    next(p);
    return true;
  }
  if (et == ET_F32 && t.kind != TK_IDENT && !is_p(p, '-')) {
    /* strtof rounds once, avoiding double rounding through a double */
    char buf[512];
    if (t.kind != TK_FLOAT && t.kind != TK_INT) return parse_double(p, v);
    if (!tok_to_cstr(p, t, buf, sizeof buf)) return false;
    float f = strtof(buf, NULL);
    uint32_t u;
    memcpy(&u, &f, 4);
    *is_bits = true;
    *bits = u;
    next(p);
    return true;
  }
  return parse_double(p, v);
}

static bool parse_dense_elem(P *p, Literal *l, int64_t i) {
  ElemType et = lit_elem(l);
  Tok t = p->tok;
  switch (et_class(et)) {
  case EC_PRED:
    if (is_id(p, "true") || is_id(p, "false")) {
      lit_set_b(l, i, is_id(p, "true"));
      next(p);
      return true;
    }
    if (t.kind == TK_INT) {
      bool neg;
      uint64_t mag;
      if (!int_value(p, t, &neg, &mag)) return false;
      if (neg || mag > 1) {
        err(p, t.start, "expected boolean value");
        return false;
      }
      lit_set_b(l, i, mag != 0);
      next(p);
      return true;
    }
    err(p, t.start, "expected boolean value");
    return false;
  case EC_SINT:
  case EC_UINT:
    if (t.kind != TK_INT) {
      char buf[48];
      err(p, t.start, "expected integer value for %s, found %s", elem_info[et].mlir_name,
          tok_desc(p, buf, sizeof buf));
      return false;
    }
    if (!set_int_elem(p, l, i, t)) return false;
    next(p);
    return true;
  case EC_FLOAT: {
    bool isb;
    uint64_t bits;
    double v;
    if (!parse_float_bits_or_value(p, et, &isb, &bits, &v)) return false;
    if (isb)
      lit_set_bits(l, i, bits);
    else
      lit_set_f(l, i, v);
    return true;
  }
  case EC_COMPLEX: {
    ElemType pt = et_real_part(et);
    double re, im;
    if (!expect(p, '(')) return false;
    for (int k = 0; k < 2; k++) {
      bool isb;
      uint64_t bits;
      double v;
      if (!parse_float_bits_or_value(p, pt, &isb, &bits, &v)) return false;
      if (isb) {
        if (pt == ET_F32) {
          uint32_t u = (uint32_t)bits;
          float f;
          memcpy(&f, &u, 4);
          v = f;
        } else {
          memcpy(&v, &bits, 8);
        }
      }
      if (k == 0) {
        re = v;
        if (!expect(p, ',')) return false;
      } else {
        im = v;
      }
    }
    if (!expect(p, ')')) return false;
    lit_set_c(l, i, re, im);
    return true;
  }
  default:
    err(p, t.start, "unsupported element type in dense literal");
    return false;
  }
}

static bool parse_dense_nested(P *p, Literal *l, int dim, int64_t *pos) {
  const Type *t = l->type;
  if (dim == t->rank) {
    if (!parse_dense_elem(p, l, *pos)) return false;
    (*pos)++;
    return true;
  }
  size_t open = p->tok.start;
  if (!expect(p, '[')) return false;
  int64_t count = 0;
  if (!is_p(p, ']')) {
    do {
      if (count == t->dims[dim]) {
        err(p, p->tok.start, "too many elements in dimension %d (expected %lld)", dim,
            (long long)t->dims[dim]);
        return false;
      }
      if (!parse_dense_nested(p, l, dim + 1, pos)) return false;
      count++;
    } while (accept(p, ','));
  }
  if (count != t->dims[dim]) {
    err(p, is_p(p, ']') ? p->tok.start : open, "expected %lld elements in dimension %d, found %lld",
        (long long)t->dims[dim], dim, (long long)count);
    return false;
  }
  return expect(p, ']');
}

static int hexval(char c) {
  return isdigit((unsigned char)c) ? c - '0' : tolower((unsigned char)c) - 'a' + 10;
}

/* dense<"0x...">: little-endian raw element data (one byte per i1 / sub-byte element). */
static bool parse_dense_hex(P *p, Literal *l) {
  Tok t = p->tok;
  const char *s = tok_ptr(p, t) + 1;
  size_t n = tok_len(t) - 2;
  if (n < 2 || s[0] != '0' || s[1] != 'x' || (n - 2) % 2) {
    err(p, t.start, "expected hexadecimal data \"0x...\" in dense literal");
    return false;
  }
  for (size_t i = 2; i < n; i++)
    if (!isxdigit((unsigned char)s[i])) {
      err(p, t.start + 1 + i, "invalid hexadecimal digit");
      return false;
    }
  ElemType et = lit_elem(l);
  size_t esz = (size_t)et_bytes(et);
  size_t nbytes = (n - 2) / 2;
  bool splat = nbytes == esz && l->n != 1;
  if (!splat && nbytes != esz * (size_t)l->n) {
    err(p, t.start, "hex data has %zu bytes, expected %zu for %lld elements", nbytes,
        esz * (size_t)l->n, (long long)l->n);
    return false;
  }
  int64_t count = splat ? (l->n ? 1 : 0) : l->n;
  for (int64_t i = 0; i < count; i++) {
    const char *e = s + 2 + (size_t)i * esz * 2;
    uint64_t w[2] = {0, 0};
    size_t half = et_is_complex(et) ? esz / 2 : esz;
    for (size_t b = 0; b < esz; b++) {
      uint64_t byte = (uint64_t)(hexval(e[2 * b]) * 16 + hexval(e[2 * b + 1]));
      w[b / half] |= byte << (8 * (b % half));
    }
    if (et_is_complex(et)) {
      double re, im;
      if (et == ET_C64) {
        uint32_t r = (uint32_t)w[0], m = (uint32_t)w[1];
        float fr, fm;
        memcpy(&fr, &r, 4);
        memcpy(&fm, &m, 4);
        re = fr;
        im = fm;
      } else {
        memcpy(&re, &w[0], 8);
        memcpy(&im, &w[1], 8);
      }
      lit_set_c(l, i, re, im);
    } else if (et_is_pred(et)) {
      lit_set_b(l, i, w[0] != 0);
    } else if (et_is_int(et)) {
      lit_set_u(l, i, w[0]);
      if (et_is_signed(et) && et_bits(et) < 8) {
        /* sub-byte values are stored sign-extended from their own width */
        int sh = 64 - et_bits(et);
        lit_set_i(l, i, (int64_t)(w[0] << sh) >> sh);
      }
    } else {
      int nb = et_bits(et);
      lit_set_bits(l, i, nb < 64 ? w[0] & ((1ull << nb) - 1) : w[0]);
    }
  }
  if (splat) lit_fill_first(l);
  next(p);
  return true;
}

static Attr *parse_dense(P *p) {
  size_t at = p->tok.start;
  next(p);
  if (p->failed) return NULL;
  if (!is_p(p, '<')) {
    err(p, p->tok.start, "expected '<' after 'dense'");
    return NULL;
  }
  size_t body = p->lx.pos;
  /* find the closing '>' to read the type first */
  next(p);
  while (!is_p(p, '>')) {
    if (p->failed) return NULL;
    if (p->tok.kind == TK_EOF || is_p(p, '<') || is_p(p, '{') || is_p(p, '}')) {
      err(p, p->tok.kind == TK_EOF ? at : p->tok.start, "malformed dense literal");
      return NULL;
    }
    next(p);
  }
  next(p);
  if (!expect(p, ':')) return NULL;
  size_t tat = p->tok.start;
  Type *t = parse_type(p);
  if (!t) return NULL;
  if (t->kind != TY_TENSOR) {
    err(p, tat, "dense literal needs a tensor type");
    return NULL;
  }
  int64_t n = type_num_elements(t);
  if (n > MAX_DENSE_ELEMS) {
    err(p, tat, "constant with %lld elements is too large", (long long)n);
    return NULL;
  }
  Lexer after = p->lx;
  Tok after_tok = p->tok;
  /* quantized constants hold storage values */
  Literal *l = lit_new_in(&p->m->arena, t);
  p->lx.pos = body;
  next(p);
  if (is_p(p, '>')) {
    if (n != 0) {
      err(p, p->tok.start, "empty dense literal for a tensor with %lld elements", (long long)n);
      return NULL;
    }
  } else if (p->tok.kind == TK_STRING) {
    if (!parse_dense_hex(p, l)) return NULL;
  } else if (is_p(p, '[')) {
    if (t->rank == 0) {
      err(p, p->tok.start, "nested list for a rank-0 tensor");
      return NULL;
    }
    if (n == 0 && tok_is(peek(p), ']')) {
      next(p);
      next(p);
    } else {
      int64_t pos = 0;
      if (!parse_dense_nested(p, l, 0, &pos)) return NULL;
    }
  } else {
    size_t eat = p->tok.start;
    if (n == 0) {
      /* a splat of nothing: still check the value is well formed */
      Type *one = type_scalar(&p->m->arena, t->elem);
      Literal *tmp = lit_new_in(&p->m->arena, one);
      if (!parse_dense_elem(p, tmp, 0)) return NULL;
    } else {
      if (!parse_dense_elem(p, l, 0)) return NULL;
      for (int64_t i = 1; i < n; i++) lit_copy_elem(l, i, l, 0);
    }
    (void)eat;
  }
  if (p->failed) return NULL;
  if (!is_p(p, '>')) {
    char buf[48];
    err(p, p->tok.start, "expected '>' to end dense literal, found %s", tok_desc(p, buf, sizeof buf));
    return NULL;
  }
  p->lx = after;
  p->tok = after_tok;
  return attr_dense(p->m, l);
}

/* Number with an optional ': type' suffix. */
static Attr *parse_number_attr(P *p) {
  Tok t = p->tok;
  bool is_float_tok = t.kind == TK_FLOAT;
  Tok save_tok = t;
  Lexer save = p->lx;
  next(p);
  Type *ty = NULL;
  if (is_p(p, ':')) {
    Tok after = peek(p);
    /* only treat ':' as a type suffix when a type follows (not "1:3" slices) */
    if (after.kind == TK_IDENT) {
      next(p);
      ty = parse_type(p);
      if (!ty) return NULL;
    }
  }
  Lexer after = p->lx;
  Tok after_tok = p->tok;
  if (ty && (et_is_float(ty->elem) || et_is_complex(ty->elem)) && ty->kind == TY_TENSOR) {
    p->lx = save;
    p->tok = save_tok;
    bool isb;
    uint64_t bits;
    double v;
    if (!parse_float_bits_or_value(p, ty->elem, &isb, &bits, &v)) return NULL;
    if (isb) {
      if (ty->elem == ET_F64) {
        memcpy(&v, &bits, 8);
      } else if (ty->elem == ET_F32) {
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, 4);
        v = f;
      } else {
        v = et_bits_to_double(ty->elem, bits);
      }
    }
    p->lx = after;
    p->tok = after_tok;
    return attr_float(p->m, v, ty);
  }
  if (is_float_tok) {
    char buf[512];
    if (!tok_to_cstr(p, t, buf, sizeof buf)) return NULL;
    if (ty && ty->kind == TY_TENSOR && (et_is_int(ty->elem) || et_is_pred(ty->elem))) {
      err(p, t.start, "floating point value for an integer attribute");
      return NULL;
    }
    return attr_float(p->m, strtod(buf, NULL), ty);
  }
  bool neg;
  uint64_t mag;
  if (!int_value(p, t, &neg, &mag)) return NULL;
  if (ty && ty->kind == TY_TENSOR && et_is_int(ty->elem)) {
    Literal tmp = {ty, 1, &(uint64_t){0}, false};
    if (et_bytes(ty->elem) > 8 || !set_int_elem(p, &tmp, 0, t)) return NULL;
    return attr_int(p->m, et_is_unsigned(ty->elem) ? (int64_t)lit_get_u(&tmp, 0) : lit_get_i(&tmp, 0), ty);
  }
  if (ty && ty->kind == TY_TENSOR && et_is_pred(ty->elem)) {
    if (neg || mag > 1) {
      err(p, t.start, "value does not fit in i1");
      return NULL;
    }
    return attr_int(p->m, (int64_t)mag, ty);
  }
  if (!neg && mag > (uint64_t)INT64_MAX) {
    err(p, t.start, "integer does not fit in 64 bits");
    return NULL;
  }
  if (neg && mag > (uint64_t)INT64_MAX + 1) {
    err(p, t.start, "integer does not fit in 64 bits");
    return NULL;
  }
  return attr_int(p->m, neg ? (int64_t)(0 - mag) : (int64_t)mag, ty);
}

static Attr *parse_attr_inner(P *p) {
  Tok t = p->tok;
  switch (t.kind) {
  case TK_INT:
  case TK_FLOAT:
    return parse_number_attr(p);
  case TK_STRING: {
    size_t n;
    char *s = decode_string(p, t, &n);
    if (!s) return NULL;
    next(p);
    return attr_string(p->m, s, n);
  }
  case TK_SYMBOL: {
    const char *name = symbol_name(p, t);
    if (!name) return NULL;
    next(p);
    /* nested references @a::@b keep their full spelling */
    while (is_p(p, ':') && tok_is(peek(p), ':')) {
      next(p);
      next(p);
      if (p->tok.kind != TK_SYMBOL) {
        err(p, p->tok.start, "expected symbol after '::'");
        return NULL;
      }
      const char *inner = symbol_name(p, p->tok);
      if (!inner) return NULL;
      size_t la = strlen(name), lb = strlen(inner);
      char *joined = arena_alloc(&p->m->arena, la + lb + 4);
      memcpy(joined, name, la);
      memcpy(joined + la, "::@", 3);
      memcpy(joined + la + 3, inner, lb + 1);
      name = joined;
      next(p);
    }
    return attr_symbol(p->m, name);
  }
  case TK_HASH:
    return parse_hash_attr(p);
  case TK_BANG: {
    Type *ty = parse_type(p);
    return ty ? attr_type(p->m, ty) : NULL;
  }
  case TK_PUNCT:
    if (t.c == '[') {
      next(p);
      PList el = {0};
      if (!is_p(p, ']')) {
        do {
          Attr *a = parse_attr(p);
          if (!a) return NULL;
          pl_push(p, &el, a);
        } while (accept(p, ','));
      }
      if (!expect(p, ']')) return NULL;
      return attr_array(p->m, el.len, (Attr *const *)el.data);
    }
    if (t.c == '{') {
      next(p);
      return parse_dict_body(p, NULL, '}');
    }
    if (t.c == '-' && tok_is_ident(&p->lx, peek(p), "inf")) {
      double v;
      if (!parse_double(p, &v)) return NULL;
      Type *ty = NULL;
      if (accept(p, ':') && !(ty = parse_type(p))) return NULL;
      return attr_float(p->m, v, ty);
    }
    break;
  case TK_IDENT:
    if (is_id(p, "true") || is_id(p, "false")) {
      bool b = is_id(p, "true");
      next(p);
      return attr_bool(p->m, b);
    }
    if (is_id(p, "unit")) {
      next(p);
      return attr_unit(p->m);
    }
    if (is_id(p, "dense")) return parse_dense(p);
    if (is_id(p, "array") && tok_is(peek(p), '<')) return parse_typed_array(p);
    if (looks_like_type(p)) {
      Type *ty = parse_type(p);
      return ty ? attr_type(p->m, ty) : NULL;
    }
    if (t.end < p->lx.end && p->lx.text[t.end] == '<') {
      /* dense_resource<...>, affine_map<...>, sparse<...>: kept verbatim */
      p->lx.pos = t.end;
      return parse_opaque(p, t.start);
    }
    /* a bare keyword (enum value such as DEFAULT, or a type name xlac does not model) */
    next(p);
    return attr_enum(p->m, NULL, tok_dup(p, t));
  default:
    break;
  }
  char buf[48];
  err(p, t.start, "expected attribute value, found %s", tok_desc(p, buf, sizeof buf));
  return NULL;
}

static Attr *parse_attr(P *p) {
  if (p->failed || !enter(p)) return NULL;
  Attr *a = parse_attr_inner(p);
  leave(p);
  return p->failed ? NULL : a;
}

/* '{' named attributes '}' appended to `out` (names and values interleaved). */
static bool parse_attr_dict(P *p, PList *names, PList *vals) {
  Attr *d;
  if (!expect(p, '{')) return false;
  if (!(d = parse_dict_body(p, NULL, '}'))) return false;
  for (int i = 0; i < d->n; i++) {
    for (int j = 0; j < names->len; j++)
      if (strcmp(names->data[j], d->keys[i]) == 0) {
        err(p, p->tok.start, "duplicate attribute '%s'", d->keys[i]);
        return false;
      }
    pl_push(p, names, (void *)d->keys[i]);
    pl_push(p, vals, d->elems[i]);
  }
  return true;
}

/* ---------------------------------------------------------------- values */

static void push_scope(P *p) {
  Scope *s = xcalloc(1, sizeof *s);
  s->up = p->scope;
  p->scope = s;
}

static void pop_scope(P *p) {
  Scope *s = p->scope;
  p->scope = s->up;
  strmap_free(&s->names);
  xfree(s);
}

/* Binds %name (token includes the '%') in the innermost scope. */
static bool define(P *p, Tok name, Value *base, int n) {
  const char *s = tok_ptr(p, name) + 1;
  size_t len = tok_len(name) - 1;
  if (strmap_getn(&p->scope->names, s, len)) {
    err(p, name.start, "redefinition of value '%%%.*s'", (int)len, s);
    return false;
  }
  Binding *b = ARENA_NEW(&p->m->arena, Binding);
  b->base = base;
  b->n = n;
  strmap_put(&p->scope->names, arena_strndup(&p->m->arena, s, len), b);
  return true;
}

/* %name or %name#N, looked up from the innermost scope outwards. */
static Value *parse_value_ref(P *p) {
  if (p->failed) return NULL;
  Tok t = p->tok;
  if (t.kind != TK_VALUE) {
    char buf[48];
    err(p, t.start, "expected SSA value, found %s", tok_desc(p, buf, sizeof buf));
    return NULL;
  }
  const char *s = p->lx.text;
  int64_t idx = 0;
  bool has_idx = false;
  size_t e = t.end;
  if (e + 1 < p->lx.end && s[e] == '#' && isdigit((unsigned char)s[e + 1])) {
    has_idx = true;
    e++;
    while (e < p->lx.end && isdigit((unsigned char)s[e])) {
      idx = idx * 10 + (s[e] - '0');
      if (idx > 1000000000) break;
      e++;
    }
    p->lx.pos = e;
  }
  Binding *b = NULL;
  for (Scope *sc = p->scope; sc && !b; sc = sc->up) b = strmap_getn(&sc->names, s + t.start + 1, tok_len(t) - 1);
  if (!b) {
    err(p, t.start, "use of undefined value '%.*s'", (int)tok_len(t), s + t.start);
    return NULL;
  }
  if (idx >= b->n) {
    err(p, t.start, "result number %lld of '%.*s' is out of range (it has %d)", (long long)idx,
        (int)tok_len(t), s + t.start, b->n);
    return NULL;
  }
  (void)has_idx;
  next(p);
  return &b->base[idx];
}

/* ---------------------------------------------------------------- ops */

typedef enum TypeStyle {
  TS_SAME,     /* `: T` gives every operand and result, else a function type */
  TS_SELECT,   /* `: Tpred, T` */
  TS_COMPLEX,  /* `: complex T`, operands are its real part */
  TS_TUPLE,    /* `: tuple<...>`, operands are its elements */
  TS_PAIRWISE, /* `: T1, T2` operand i and result i share T_i */
  TS_RESULTS,  /* `: T...` result types only (no operands) */
  TS_OPERANDS, /* `: T...` operand types only (no results) */
  TS_PROBE,    /* `: T` operand and result */
  TS_NONE,     /* no type list (types come from an attribute) */
} TypeStyle;

typedef struct OB {
  OpKind kind;
  size_t at;
  PList opnds;
  IList opnd_at;
  PList anames, avals;
  PList regions;
  PList in_types, out_types;
  bool functional, have_types;
  int nres_named; /* results bound by names, 0 when none */
  /* dot_general's pretty dims, collected before building the dictionary */
  IList lb, rb, lc, rc;
  bool have_dot;
} OB;

static Block *parse_region(P *p, int npre, const Tok *names, Type *const *types);
static bool parse_op(P *p, Block *b);

static bool add_operand(P *p, OB *ob) {
  size_t at = p->tok.start;
  Value *v = parse_value_ref(p);
  if (!v) return false;
  pl_push(p, &ob->opnds, v);
  il_push(p, &ob->opnd_at, (int64_t)at);
  return true;
}

static bool set_attr(P *p, OB *ob, const char *name, Attr *a, size_t at) {
  if (!a) return false;
  for (int i = 0; i < ob->anames.len; i++)
    if (strcmp(ob->anames.data[i], name) == 0) {
      err(p, at, "duplicate attribute '%s'", name);
      return false;
    }
  pl_push(p, &ob->anames, (void *)name);
  pl_push(p, &ob->avals, a);
  return true;
}

/* operand (',' operand)* ; may be empty when `close` follows */
static bool parse_operand_list(P *p, OB *ob, char close) {
  if (is_p(p, close)) return true;
  do {
    if (!add_operand(p, ob)) return false;
  } while (accept(p, ','));
  return true;
}

static bool parse_int_list(P *p, IList *out) {
  if (!expect(p, '[')) return false;
  if (!is_p(p, ']')) {
    do {
      int64_t v;
      if (!parse_i64(p, &v)) return false;
      il_push(p, out, v);
    } while (accept(p, ','));
  }
  return expect(p, ']');
}

static bool kw_ints(P *p, OB *ob, const char *name, size_t at) {
  IList l = {0};
  if (!parse_int_list(p, &l)) return false;
  return set_attr(p, ob, name, attr_ints(p->m, l.len, l.data), at);
}

static bool kw_int(P *p, OB *ob, const char *name, Type *t, size_t at) {
  int64_t v;
  if (!parse_i64(p, &v)) return false;
  return set_attr(p, ob, name, attr_int(p->m, v, t), at);
}

static bool kw_enum(P *p, OB *ob, const char *name, size_t at) {
  if (p->tok.kind != TK_IDENT) {
    err(p, p->tok.start, "expected %s value", name);
    return false;
  }
  /* the attribute compare_type holds an enum named comparison_type */
  const char *ename = strcmp(name, "compare_type") == 0 ? "comparison_type" : name;
  Attr *a = attr_enum(p->m, ename, tok_dup(p, p->tok));
  next(p);
  return set_attr(p, ob, name, a, at);
}

static bool kw_bool(P *p, OB *ob, const char *name, size_t at) {
  if (!is_id(p, "true") && !is_id(p, "false")) {
    err(p, p->tok.start, "expected 'true' or 'false'");
    return false;
  }
  bool b = is_id(p, "true");
  next(p);
  return set_attr(p, ob, name, attr_bool(p->m, b), at);
}

static bool kw_precision(P *p, OB *ob, size_t at) {
  if (!expect(p, '[')) return false;
  PList el = {0};
  if (!is_p(p, ']')) {
    do {
      if (p->tok.kind != TK_IDENT) {
        err(p, p->tok.start, "expected precision value");
        return false;
      }
      pl_push(p, &el, attr_enum(p->m, "precision", tok_dup(p, p->tok)));
      next(p);
    } while (accept(p, ','));
  }
  if (!expect(p, ']')) return false;
  return set_attr(p, ob, "precision_config", attr_array(p->m, el.len, (Attr *const *)el.data), at);
}

/* [..] x [..] */
static bool parse_dim_pair(P *p, IList *l, IList *r) {
  return parse_int_list(p, l) && expect_id(p, "x") && parse_int_list(p, r);
}

/* One `keyword = value` of an op's pretty form, after the '='. */
static bool pretty_keyword(P *p, OB *ob, Tok kw) {
  size_t at = kw.start;
#define KW(s) tok_is_ident(&p->lx, kw, s)
  switch (ob->kind) {
  case OP_BROADCAST_IN_DIM:
  case OP_DYNAMIC_BROADCAST_IN_DIM:
    if (KW("dims")) return kw_ints(p, ob, "broadcast_dimensions", at);
    break;
  case OP_BROADCAST:
    if (KW("sizes")) return kw_ints(p, ob, "broadcast_sizes", at);
    break;
  case OP_TRANSPOSE:
    if (KW("dims")) return kw_ints(p, ob, "permutation", at);
    break;
  case OP_REVERSE:
    if (KW("dims")) return kw_ints(p, ob, "dimensions", at);
    break;
  case OP_IOTA:
  case OP_DYNAMIC_IOTA:
    if (KW("dim")) return kw_int(p, ob, "iota_dimension", p->t_i64, at);
    break;
  case OP_CONCATENATE:
  case OP_GET_DIMENSION_SIZE:
  case OP_SET_DIMENSION_SIZE:
    if (KW("dim")) return kw_int(p, ob, "dimension", p->t_i64, at);
    break;
  case OP_DYNAMIC_SLICE:
    if (KW("sizes")) return kw_ints(p, ob, "slice_sizes", at);
    break;
  case OP_PAD:
    if (KW("low")) return kw_ints(p, ob, "edge_padding_low", at);
    if (KW("high")) return kw_ints(p, ob, "edge_padding_high", at);
    if (KW("interior")) return kw_ints(p, ob, "interior_padding", at);
    break;
  case OP_FFT:
    if (KW("type")) return kw_enum(p, ob, "fft_type", at);
    if (KW("length")) return kw_ints(p, ob, "fft_length", at);
    break;
  case OP_RNG:
    if (KW("distribution")) return kw_enum(p, ob, "rng_distribution", at);
    break;
  case OP_RNG_BIT_GENERATOR:
    if (KW("algorithm")) return kw_enum(p, ob, "rng_algorithm", at);
    break;
  case OP_REDUCE_PRECISION:
    if (KW("format")) {
      /* e8m10 */
      Tok t = p->tok;
      const char *s = tok_ptr(p, t);
      size_t n = tok_len(t);
      char buf[32];
      long e, mnt;
      char tail;
      if (t.kind != TK_IDENT || n >= sizeof buf) {
        err(p, t.start, "expected format such as e8m23");
        return false;
      }
      memcpy(buf, s, n);
      buf[n] = 0;
      if (sscanf(buf, "e%ldm%ld%c", &e, &mnt, &tail) != 2 || e < 0 || mnt < 0 || e > 1000 || mnt > 1000) {
        err(p, t.start, "expected format such as e8m23");
        return false;
      }
      next(p);
      return set_attr(p, ob, "exponent_bits", attr_int(p->m, e, p->t_i32), at) &&
             set_attr(p, ob, "mantissa_bits", attr_int(p->m, mnt, p->t_i32), at);
    }
    break;
  case OP_CHOLESKY:
    if (KW("lower")) return kw_bool(p, ob, "lower", at);
    break;
  case OP_DOT:
    if (KW("precision")) return kw_precision(p, ob, at);
    break;
  case OP_DOT_GENERAL:
    if (KW("batching_dims")) {
      ob->have_dot = true;
      return parse_dim_pair(p, &ob->lb, &ob->rb);
    }
    if (KW("contracting_dims")) {
      ob->have_dot = true;
      return parse_dim_pair(p, &ob->lc, &ob->rc);
    }
    if (KW("precision")) return kw_precision(p, ob, at);
    if (KW("algorithm")) {
      if (!expect(p, '<')) return false;
      return set_attr(p, ob, "algorithm", parse_dict_body(p, "stablehlo.dot_algorithm", '>'), at);
    }
    break;
  case OP_EINSUM:
  case OP_UNARY_EINSUM:
    if (KW("config")) {
      Attr *a = parse_attr(p);
      if (a && a->kind != ATTR_STRING) {
        err(p, at, "expected string einsum config");
        return false;
      }
      return set_attr(p, ob, "einsum_config", a, at);
    }
    break;
  case OP_CHECK_EXPECT_ALMOST_EQ:
  case OP_CHECK_EXPECT_ALMOST_EQ_CONST:
    if (KW("tolerance")) {
      double v;
      if (!parse_double(p, &v)) return false;
      return set_attr(p, ob, "tolerance", attr_float(p->m, v, p->t_f64), at);
    }
    break;
  case OP_CHECK_EXPECT_CLOSE:
    if (KW("max_ulp_difference")) return kw_int(p, ob, "max_ulp_difference", p->t_i64, at);
    if (KW("min_ulp_difference")) return kw_int(p, ob, "min_ulp_difference", p->t_i64, at);
    break;
  case OP_CHECK_EXPECT_SERIALIZED_EQ:
  case OP_INTERP_PROBE:
    if (KW("probe_id")) {
      Attr *a = parse_attr(p);
      if (a && a->kind != ATTR_STRING) {
        err(p, at, "expected string probe_id");
        return false;
      }
      return set_attr(p, ob, "probe_id", a, at);
    }
    if (KW("iter")) return kw_int(p, ob, "iter", p->t_i64, at);
    break;
  case OP_CHLO_TOP_K:
    if (KW("k")) return kw_int(p, ob, "k", p->t_i64, at);
    if (KW("is_stable")) return kw_bool(p, ob, "is_stable", at);
    break;
  default:
    break;
  }
#undef KW
  err(p, at, "unexpected '%.*s =' in %s", (int)tok_len(kw), tok_ptr(p, kw), op_info[ob->kind].name);
  return false;
}

/* [1:3, 0:4:2] */
static bool parse_slice_ranges(P *p, OB *ob) {
  size_t at = p->tok.start;
  IList st = {0}, lim = {0}, str = {0};
  if (!expect(p, '[')) return false;
  if (!is_p(p, ']')) {
    do {
      int64_t a, b, c = 1;
      if (!parse_i64(p, &a) || !expect(p, ':') || !parse_i64(p, &b)) return false;
      if (accept(p, ':') && !parse_i64(p, &c)) return false;
      il_push(p, &st, a);
      il_push(p, &lim, b);
      il_push(p, &str, c);
    } while (accept(p, ','));
  }
  if (!expect(p, ']')) return false;
  return set_attr(p, ob, "start_indices", attr_ints(p->m, st.len, st.data), at) &&
         set_attr(p, ob, "limit_indices", attr_ints(p->m, lim.len, lim.data), at) &&
         set_attr(p, ob, "strides", attr_ints(p->m, str.len, str.data), at);
}

/* The common pretty shape: a comma-separated mix of operands and
   `keyword = value` items, with op-specific extras. */
static bool parse_items(P *p, OB *ob, char close) {
  bool seen_dir = false;
  if (is_p(p, ':') || is_p(p, '{') || is_p(p, '}') || p->tok.kind == TK_EOF || (close && is_p(p, close)))
    return true;
  for (;;) {
    if (p->failed) return false;
    Tok t = p->tok;
    if (t.kind == TK_VALUE) {
      if (!add_operand(p, ob)) return false;
      if (is_p(p, '[') && ob->kind == OP_SLICE) {
        if (!parse_slice_ranges(p, ob)) return false;
      } else if (is_p(p, '[') && ob->kind == OP_GET_TUPLE_ELEMENT) {
        size_t at = p->tok.start;
        next(p);
        if (!kw_int(p, ob, "index", p->t_i32, at) || !expect(p, ']')) return false;
      }
    } else if (t.kind == TK_IDENT && tok_is(peek(p), '=')) {
      next(p);
      next(p);
      if (!pretty_keyword(p, ob, t)) return false;
    } else if (t.kind == TK_IDENT && ob->kind == OP_COMPARE) {
      if (!kw_enum(p, ob, seen_dir ? "compare_type" : "comparison_direction", t.start)) return false;
      seen_dir = true;
    } else if (ob->kind == OP_CHECK_EXPECT_EQ_CONST || ob->kind == OP_CHECK_EXPECT_ALMOST_EQ_CONST) {
      Attr *a = parse_attr(p);
      if (!a) return false;
      if (a->kind != ATTR_DENSE) {
        err(p, t.start, "expected dense constant");
        return false;
      }
      if (!set_attr(p, ob, "value", a, t.start)) return false;
    } else {
      char buf[48];
      err(p, t.start, "expected operand, found %s", tok_desc(p, buf, sizeof buf));
      return false;
    }
    if (!accept(p, ',')) break;
  }
  return !p->failed;
}

/* `: types` in any of the pretty spellings; sets functional when a '->' is seen. */
static bool parse_type_spec(P *p, OB *ob) {
  ob->have_types = true;
  if (is_p(p, '(')) {
    if (!parse_paren_types(p, &ob->in_types) || !expect_arrow(p)) return false;
    ob->functional = true;
    return parse_result_types(p, &ob->out_types);
  }
  if (!parse_type_list(p, &ob->in_types)) return false;
  if (p->tok.kind == TK_ARROW) {
    next(p);
    ob->functional = true;
    return parse_result_types(p, &ob->out_types);
  }
  return true;
}

static bool check_operand_type(P *p, OB *ob, int i, const Type *want) {
  Value *v = ob->opnds.data[i];
  if (type_equal(v->type, want)) return true;
  char *a = type_str(v->type), *b = type_str(want);
  err(p, (size_t)ob->opnd_at.data[i], "operand #%d has type %s but the op's type says %s", i, a, b);
  xfree(a);
  xfree(b);
  return false;
}

/* Turns the parsed type list into operand checks and result types. */
static bool resolve_types(P *p, OB *ob, TypeStyle style) {
  int nops = ob->opnds.len;
  PList *in = &ob->in_types;
  if (ob->functional) {
    if (in->len != nops) {
      err(p, ob->at, "%s has %d operands but its type lists %d", op_info[ob->kind].name, nops, in->len);
      return false;
    }
    for (int i = 0; i < nops; i++)
      if (!check_operand_type(p, ob, i, in->data[i])) return false;
    return true;
  }
  if (style == TS_NONE) return true;
  if (!ob->have_types) {
    if (nops == 0 && (style == TS_OPERANDS || style == TS_PAIRWISE)) return true;
    err(p, p->tok.start, "expected ':' and the types of %s", op_info[ob->kind].name);
    return false;
  }
  int n = in->len;
  Type **t = (Type **)in->data;
  PList *out = &ob->out_types;
  switch (style) {
  case TS_SAME:
  case TS_SELECT:
  case TS_PROBE: {
    if (style == TS_SELECT && n == 2 && nops == 3) {
      if (!check_operand_type(p, ob, 0, t[0]) || !check_operand_type(p, ob, 1, t[1]) ||
          !check_operand_type(p, ob, 2, t[1]))
        return false;
      pl_push(p, out, t[1]);
      return true;
    }
    if (n != 1) {
      err(p, ob->at, "expected a single type or a function type for %s", op_info[ob->kind].name);
      return false;
    }
    for (int i = 0; i < nops; i++)
      if (!check_operand_type(p, ob, i, t[0])) return false;
    int nres = ob->nres_named ? ob->nres_named : 1;
    for (int i = 0; i < nres; i++) pl_push(p, out, t[0]);
    return true;
  }
  case TS_COMPLEX: {
    if (n != 1 || t[0]->kind != TY_TENSOR || !et_is_complex(t[0]->elem)) {
      err(p, ob->at, "expected a complex result type");
      return false;
    }
    Type *re = type_with_elem(&p->m->arena, t[0], et_real_part(t[0]->elem));
    for (int i = 0; i < nops; i++)
      if (!check_operand_type(p, ob, i, re)) return false;
    pl_push(p, out, t[0]);
    return true;
  }
  case TS_TUPLE:
    if (n != 1 || t[0]->kind != TY_TUPLE || t[0]->ntuple != nops) {
      err(p, ob->at, "expected a tuple type with %d elements", nops);
      return false;
    }
    for (int i = 0; i < nops; i++)
      if (!check_operand_type(p, ob, i, t[0]->tuple[i])) return false;
    pl_push(p, out, t[0]);
    return true;
  case TS_PAIRWISE:
    if (n != nops) {
      err(p, ob->at, "expected %d types", nops);
      return false;
    }
    for (int i = 0; i < nops; i++) {
      if (!check_operand_type(p, ob, i, t[i])) return false;
      pl_push(p, out, t[i]);
    }
    return true;
  case TS_RESULTS:
    if (nops) {
      err(p, ob->at, "expected a function type");
      return false;
    }
    for (int i = 0; i < n; i++) pl_push(p, out, t[i]);
    return true;
  case TS_OPERANDS:
    if (n == 1 && nops > 1) {
      for (int i = 0; i < nops; i++)
        if (!check_operand_type(p, ob, i, t[0])) return false;
      return true;
    }
    if (n != nops) {
      err(p, ob->at, "%s has %d operands but %d types", op_info[ob->kind].name, nops, n);
      return false;
    }
    for (int i = 0; i < nops; i++)
      if (!check_operand_type(p, ob, i, t[i])) return false;
    return true;
  case TS_NONE:
    return true;
  }
  return true;
}

static TypeStyle style_of(OpKind k) {
  switch (k) {
  case OP_SELECT: return TS_SELECT;
  case OP_COMPLEX: return TS_COMPLEX;
  case OP_TUPLE: return TS_TUPLE;
  case OP_OPTIMIZATION_BARRIER: return TS_PAIRWISE;
  case OP_IOTA:
  case OP_REPLICA_ID:
  case OP_PARTITION_ID:
  case OP_CREATE_TOKEN: return TS_RESULTS;
  case OP_RETURN:
  case OP_FUNC_RETURN:
  case OP_CHECK_EXPECT_EQ:
  case OP_CHECK_EXPECT_ALMOST_EQ:
  case OP_CHECK_EXPECT_CLOSE:
  case OP_CHECK_EXPECT_SERIALIZED_EQ:
  case OP_INTERP_PRINT: return TS_OPERANDS;
  case OP_INTERP_PROBE: return TS_PROBE;
  case OP_CHECK_EXPECT_EQ_CONST:
  case OP_CHECK_EXPECT_ALMOST_EQ_CONST: return TS_NONE;
  default: return TS_SAME;
  }
}

/* "name"(operands) <{props}> ({regions}) {attrs} : (types) -> types */
static bool parse_generic_tail(P *p, OB *ob) {
  if (!expect(p, '(') || !parse_operand_list(p, ob, ')') || !expect(p, ')')) return false;
  if (is_p(p, '[')) {
    err(p, p->tok.start, "successor blocks are not supported");
    return false;
  }
  if (is_p(p, '<')) {
    next(p);
    if (!parse_attr_dict(p, &ob->anames, &ob->avals) || !expect(p, '>')) return false;
  }
  if (accept(p, '(')) {
    do {
      Block *r = parse_region(p, 0, NULL, NULL);
      if (!r) return false;
      pl_push(p, &ob->regions, r);
    } while (accept(p, ','));
    if (!expect(p, ')')) return false;
  }
  if (is_p(p, '{') && !parse_attr_dict(p, &ob->anames, &ob->avals)) return false;
  if (!expect(p, ':')) return false;
  size_t at = p->tok.start;
  if (!is_p(p, '(')) {
    err(p, at, "expected function type '(...) -> ...'");
    return false;
  }
  return parse_type_spec(p, ob);
}

static bool parse_opt_attr_dict(P *p, OB *ob) {
  if (is_p(p, '{')) return parse_attr_dict(p, &ob->anames, &ob->avals);
  return !p->failed;
}

static bool parse_colon_types(P *p, OB *ob) {
  if (!expect(p, ':')) return false;
  return parse_type_spec(p, ob);
}

/* stablehlo.reduce(%x init: %z), ... applies op across dimensions = [..] : ...
   or ... across dimensions = [..] : ... reducer(%a: t, %b: t) ... { body } */
static bool parse_pretty_reduce(P *p, OB *ob) {
  PList inputs = {0}, inits = {0};
  IList in_at = {0}, init_at = {0};
  do {
    if (!expect(p, '(')) return false;
    size_t a1 = p->tok.start;
    Value *x = parse_value_ref(p);
    if (!x || !expect_id(p, "init") || !expect(p, ':')) return false;
    size_t a2 = p->tok.start;
    Value *z = parse_value_ref(p);
    if (!z || !expect(p, ')')) return false;
    pl_push(p, &inputs, x);
    pl_push(p, &inits, z);
    il_push(p, &in_at, (int64_t)a1);
    il_push(p, &init_at, (int64_t)a2);
  } while (accept(p, ','));
  for (int i = 0; i < inputs.len; i++) {
    pl_push(p, &ob->opnds, inputs.data[i]);
    il_push(p, &ob->opnd_at, in_at.data[i]);
  }
  for (int i = 0; i < inits.len; i++) {
    pl_push(p, &ob->opnds, inits.data[i]);
    il_push(p, &ob->opnd_at, init_at.data[i]);
  }
  OpKind inner = OP_COUNT;
  size_t inner_at = 0;
  if (is_id(p, "applies")) {
    next(p);
    inner_at = p->tok.start;
    if (p->tok.kind != TK_IDENT ||
        (inner = op_kind_from_name(tok_ptr(p, p->tok), tok_len(p->tok))) == OP_COUNT) {
      err(p, inner_at, "expected the name of a binary operation after 'applies'");
      return false;
    }
    if (!op_has_flag(inner, OPF_BINARY)) {
      err(p, inner_at, "'%s' is not a binary operation", op_info[inner].name);
      return false;
    }
    if (inputs.len != 1) {
      err(p, inner_at, "'applies' needs exactly one input");
      return false;
    }
    next(p);
  }
  size_t dat = p->tok.start;
  if (!expect_id(p, "across") || !expect_id(p, "dimensions") || !expect(p, '=') ||
      !kw_ints(p, ob, "dimensions", dat) || !parse_opt_attr_dict(p, ob) || !parse_colon_types(p, ob))
    return false;
  Block *body;
  if (inner != OP_COUNT) {
    /* build ^bb0(%a, %b): %r = inner %a, %b; stablehlo.return %r */
    Value *z = inits.data[0];
    body = block_new(p->m);
    Value *a = block_add_arg(p->m, body, z->type, NULL);
    Value *b = block_add_arg(p->m, body, z->type, NULL);
    Value *ab[2] = {a, b};
    Type *rt = z->type;
    if (inner == OP_COMPARE) {
      err(p, inner_at, "'applies' cannot use compare");
      return false;
    }
    Op *op = op_new(p->m, inner, 2, ab, 1, &rt, loc_at(p, inner_at));
    block_append(body, op);
    Value *r = &op->res[0];
    Op *ret = op_new(p->m, OP_RETURN, 1, &r, 0, NULL, loc_at(p, inner_at));
    block_append(body, ret);
  } else {
    size_t rat = p->tok.start;
    if (!expect_id(p, "reducer")) return false;
    int n = inputs.len;
    Tok *names = ARENA_ARRAY(&p->m->arena, Tok, 2 * n);
    Type **types = ARENA_ARRAY(&p->m->arena, Type *, 2 * n);
    for (int i = 0; i < n; i++) {
      /* (%acc_i: t, %val_i: t): block arguments are all accumulators, then all values */
      if (!expect(p, '(')) return false;
      for (int k = 0; k < 2; k++) {
        if (k && !expect(p, ',')) return false;
        if (p->tok.kind != TK_VALUE) {
          err(p, p->tok.start, "expected reducer argument");
          return false;
        }
        names[k * n + i] = p->tok;
        next(p);
        if (!expect(p, ':')) return false;
        if (!(types[k * n + i] = parse_type(p))) return false;
      }
      if (!expect(p, ')')) return false;
    }
    (void)rat;
    body = parse_region(p, 2 * n, names, types);
    if (!body) return false;
  }
  pl_push(p, &ob->regions, body);
  return true;
}

/* stablehlo.while(%iterArg = %init, ...) : types attributes {...} cond {...} do {...} */
static bool parse_pretty_while(P *p, OB *ob) {
  if (!expect(p, '(')) return false;
  PList names = {0};
  if (!is_p(p, ')')) {
    do {
      if (p->tok.kind != TK_VALUE) {
        err(p, p->tok.start, "expected loop variable");
        return false;
      }
      Tok *t = ARENA_NEW(&p->m->arena, Tok);
      *t = p->tok;
      pl_push(p, &names, t);
      next(p);
      if (!expect(p, '=') || !add_operand(p, ob)) return false;
    } while (accept(p, ','));
  }
  if (!expect(p, ')')) return false;
  if (names.len) {
    if (!expect(p, ':') || !parse_type_list(p, &ob->in_types)) return false;
  } else if (accept(p, ':') && looks_like_type(p)) {
    if (!parse_type_list(p, &ob->in_types)) return false;
  }
  if (ob->in_types.len != names.len) {
    err(p, ob->at, "while has %d loop variables but %d types", names.len, ob->in_types.len);
    return false;
  }
  for (int i = 0; i < names.len; i++) {
    if (!check_operand_type(p, ob, i, ob->in_types.data[i])) return false;
    pl_push(p, &ob->out_types, ob->in_types.data[i]);
  }
  ob->functional = true;
  if (is_id(p, "attributes")) {
    next(p);
    if (!parse_attr_dict(p, &ob->anames, &ob->avals)) return false;
  }
  Tok *nt = ARENA_ARRAY(&p->m->arena, Tok, names.len > 0 ? names.len : 1);
  for (int i = 0; i < names.len; i++) nt[i] = *(Tok *)names.data[i];
  for (int r = 0; r < 2; r++) {
    if (!expect_id(p, r ? "do" : "cond")) return false;
    Block *b = parse_region(p, names.len, nt, (Type *const *)ob->in_types.data);
    if (!b) return false;
    pl_push(p, &ob->regions, b);
  }
  return true;
}

/* chlo.scan(%inputs) inits(%inits) dimension=0 attributes {...} { body } : (..) -> (..) */
static bool parse_pretty_scan(P *p, OB *ob) {
  if (!expect(p, '(') || !parse_operand_list(p, ob, ')') || !expect(p, ')')) return false;
  int ninputs = ob->opnds.len;
  if (!expect_id(p, "inits") || !expect(p, '(') || !parse_operand_list(p, ob, ')') || !expect(p, ')'))
    return false;
  int ninits = ob->opnds.len - ninputs;
  size_t at = p->tok.start;
  if (!expect_id(p, "dimension") || !expect(p, '=') || !kw_int(p, ob, "dimension", p->t_i64, at)) return false;
  if (is_id(p, "attributes")) {
    next(p);
    if (!parse_attr_dict(p, &ob->anames, &ob->avals)) return false;
  }
  Block *b = parse_region(p, 0, NULL, NULL);
  if (!b) return false;
  pl_push(p, &ob->regions, b);
  if (!parse_colon_types(p, ob)) return false;
  int64_t seg[2] = {ninputs, ninits};
  int64_t rseg[2] = {ob->out_types.len - ninits, ninits};
  if (rseg[0] < 0) {
    err(p, ob->at, "chlo.scan has fewer results than inits");
    return false;
  }
  return set_attr(p, ob, "operandSegmentSizes", attr_ints(p->m, 2, seg), at) &&
         set_attr(p, ob, "resultSegmentSizes", attr_ints(p->m, 2, rseg), at);
}

/* stablehlo.convolution(%a, %b) dim_numbers = ..., window = {...} {attrs} : ... */
static bool parse_pretty_conv(P *p, OB *ob) {
  if (!expect(p, '(') || !parse_operand_list(p, ob, ')') || !expect(p, ')')) return false;
  size_t at = p->tok.start;
  if (!expect_id(p, "dim_numbers") || !expect(p, '=')) return false;
  if (!set_attr(p, ob, "dimension_numbers", parse_conv_compact(p), at)) return false;
  if (!expect(p, ',')) return false;
  if (!expect_id(p, "window") || !expect(p, '=') || !expect(p, '{')) return false;
  if (!is_p(p, '}')) {
    do {
      Tok k = p->tok;
      if (k.kind != TK_IDENT) {
        err(p, k.start, "expected window attribute name");
        return false;
      }
      next(p);
      if (!expect(p, '=')) return false;
      if (tok_is_ident(&p->lx, k, "stride")) {
        if (!kw_ints(p, ob, "window_strides", k.start)) return false;
      } else if (tok_is_ident(&p->lx, k, "lhs_dilate")) {
        if (!kw_ints(p, ob, "lhs_dilation", k.start)) return false;
      } else if (tok_is_ident(&p->lx, k, "rhs_dilate")) {
        if (!kw_ints(p, ob, "rhs_dilation", k.start)) return false;
      } else if (tok_is_ident(&p->lx, k, "pad")) {
        IList v = {0};
        if (!expect(p, '[')) return false;
        if (!is_p(p, ']')) {
          do {
            IList pair = {0};
            size_t pat = p->tok.start;
            if (!parse_int_list(p, &pair)) return false;
            if (pair.len != 2) {
              err(p, pat, "expected [low, high] padding pair");
              return false;
            }
            il_push(p, &v, pair.data[0]);
            il_push(p, &v, pair.data[1]);
          } while (accept(p, ','));
        }
        if (!expect(p, ']')) return false;
        int64_t dims[2] = {v.len / 2, 2};
        Literal *l = lit_new_in(&p->m->arena, type_tensor(&p->m->arena, ET_S64, 2, dims));
        for (int i = 0; i < v.len; i++) lit_set_i(l, i, v.data[i]);
        if (!set_attr(p, ob, "padding", attr_dense(p->m, l), k.start)) return false;
      } else if (tok_is_ident(&p->lx, k, "reverse")) {
        IList v = {0};
        if (!expect(p, '[')) return false;
        if (!is_p(p, ']')) {
          do {
            if (is_id(p, "true") || is_id(p, "false")) {
              il_push(p, &v, is_id(p, "true"));
              next(p);
            } else {
              int64_t x;
              if (!parse_i64(p, &x)) return false;
              il_push(p, &v, x != 0);
            }
          } while (accept(p, ','));
        }
        if (!expect(p, ']')) return false;
        Attr *a = attr_ints(p->m, v.len, v.data);
        a->kind = ATTR_BOOLS;
        if (!set_attr(p, ob, "window_reversal", a, k.start)) return false;
      } else {
        err(p, k.start, "unknown window attribute '%.*s'", (int)tok_len(k), tok_ptr(p, k));
        return false;
      }
    } while (accept(p, ','));
  }
  if (!expect(p, '}')) return false;
  return parse_opt_attr_dict(p, ob) && parse_colon_types(p, ob);
}

/* Everything after the op name in the pretty form. */
static bool parse_pretty(P *p, OB *ob) {
  switch (ob->kind) {
  case OP_CONSTANT:
  case OP_CHLO_CONSTANT:
    if (is_p(p, '(')) return parse_generic_tail(p, ob);
    if (!parse_opt_attr_dict(p, ob)) return false;
    {
      size_t at = p->tok.start;
      Attr *v = parse_attr(p);
      if (!v) return false;
      if (v->kind != ATTR_DENSE) {
        err(p, at, "expected dense constant");
        return false;
      }
      if (!set_attr(p, ob, "value", v, at)) return false;
      pl_push(p, &ob->out_types, v->type);
      ob->functional = true;
    }
    return true;
  case OP_CUSTOM_CALL: {
    Tok t = p->tok;
    const char *target;
    size_t n;
    if (t.kind == TK_SYMBOL) {
      target = symbol_name(p, t);
      n = target ? strlen(target) : 0;
    } else if (t.kind == TK_STRING) {
      target = decode_string(p, t, &n);
    } else {
      err(p, t.start, "expected custom call target");
      return false;
    }
    if (!target) return false;
    next(p);
    if (!set_attr(p, ob, "call_target_name", attr_string(p->m, target, n), t.start)) return false;
    if (!expect(p, '(') || !parse_operand_list(p, ob, ')') || !expect(p, ')')) return false;
    return parse_opt_attr_dict(p, ob) && parse_colon_types(p, ob);
  }
  case OP_CALL: {
    Tok t = p->tok;
    if (t.kind != TK_SYMBOL) {
      err(p, t.start, "expected callee symbol");
      return false;
    }
    const char *name = symbol_name(p, t);
    if (!name) return false;
    next(p);
    if (!set_attr(p, ob, "callee", attr_symbol(p->m, name), t.start)) return false;
    if (!expect(p, '(') || !parse_operand_list(p, ob, ')') || !expect(p, ')')) return false;
    return parse_opt_attr_dict(p, ob) && parse_colon_types(p, ob);
  }
  case OP_COMPOSITE: {
    Tok t = p->tok;
    if (t.kind != TK_STRING) {
      err(p, t.start, "expected composite name string");
      return false;
    }
    size_t n;
    const char *name = decode_string(p, t, &n);
    if (!name) return false;
    next(p);
    if (!set_attr(p, ob, "name", attr_string(p->m, name, n), t.start)) return false;
    if (p->tok.kind == TK_VALUE && !parse_operand_list(p, ob, 0)) return false;
    return parse_opt_attr_dict(p, ob) && parse_colon_types(p, ob);
  }
  case OP_CONVOLUTION:
    return parse_pretty_conv(p, ob);
  case OP_REDUCE:
    return parse_pretty_reduce(p, ob);
  case OP_WHILE:
    return parse_pretty_while(p, ob);
  case OP_CHLO_SCAN:
    return parse_pretty_scan(p, ob);
  case OP_CHLO_TOP_K:
    if (!expect(p, '(') || !parse_items(p, ob, ')') || !expect(p, ')')) return false;
    return parse_opt_attr_dict(p, ob) && parse_colon_types(p, ob);
  case OP_SDY_SHARDING_CONSTRAINT: {
    /* sdy.sharding_constraint %v <@mesh, [...]> {attrs} : type */
    if (!add_operand(p, ob)) return false;
    size_t at = p->tok.start;
    if (!is_p(p, '<')) {
      char buf[48];
      err(p, at, "expected the sharding ('<@mesh, [...]>'), found %s", tok_desc(p, buf, sizeof buf));
      return false;
    }
    Attr *a = parse_sdy_at(p, at, SDY_T_SHARDING, NULL);
    if (!a || !set_attr(p, ob, "sharding", a, at)) return false;
    return parse_opt_attr_dict(p, ob) && parse_colon_types(p, ob);
  }
  case OP_OPTIMIZATION_BARRIER:
    /* its attributes come first: optimization_barrier {attrs} %a, %b : ... */
    if (is_p(p, '{') && !parse_attr_dict(p, &ob->anames, &ob->avals)) return false;
    if (is_p(p, '(') && tok_is(peek(p), ')')) {
      next(p);
      next(p);
      return parse_opt_attr_dict(p, ob);
    }
    break;
  default:
    break;
  }
  if (!parse_items(p, ob, 0)) return false;
  if (ob->have_dot) {
    const char *keys[4] = {"lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
                           "rhs_contracting_dimensions"};
    Attr *vals[4] = {ints_array(p, &ob->lb), ints_array(p, &ob->rb), ints_array(p, &ob->lc), ints_array(p, &ob->rc)};
    if (!set_attr(p, ob, "dot_dimension_numbers", attr_dict(p->m, "stablehlo.dot", 4, keys, vals), ob->at))
      return false;
  }
  if (!parse_opt_attr_dict(p, ob)) return false;
  if (is_p(p, ':')) {
    next(p);
    return parse_type_spec(p, ob);
  }
  return !p->failed;
}

/* Shardy's manual computation, as the bytecode reader makes it (a call of
   a function of the per-device types, src/frontends/mlirbc/reader.c):
     sdy.manual_computation(%x, ...) in_shardings=[<@mesh, [...]>, ...]
       out_shardings=[...] manual_axes={"x", ...} (%a: t, ...) { ...
       sdy.return %r : t } : (types) -> types */
static bool parse_shardings_list(P *p, OB *ob, const char *key) {
  size_t at = p->tok.start;
  if (!expect_id(p, key) || !expect(p, '=') || !expect(p, '[')) return false;
  PList all = {0};
  while (!p->failed && !is_p(p, ']')) {
    if (!is_p(p, '<')) {
      err(p, p->tok.start, "expected a sharding ('<@mesh, [...]>')");
      return false;
    }
    Attr *a = parse_sdy_at(p, p->tok.start, SDY_T_SHARDING, NULL);
    SdySharding *sh = ARENA_NEW(&p->m->arena, SdySharding);
    if (!a || !sdy_sharding_of(p->m, a, sh)) return false;
    pl_push(p, &all, sh);
    if (!accept(p, ',')) break;
  }
  if (!expect(p, ']')) return false;
  SdySharding *v = ARENA_ARRAY(&p->m->arena, SdySharding, all.len + 1);
  for (int i = 0; i < all.len; i++) v[i] = *(SdySharding *)all.data[i];
  return set_attr(p, ob, key, attr_sdy_per_value(p->m, all.len, v), at);
}

static bool parse_manual(P *p, OB *ob) {
  if (!expect(p, '(') || !parse_operand_list(p, ob, ')') || !expect(p, ')')) return false;
  if (!parse_shardings_list(p, ob, "in_shardings") || !parse_shardings_list(p, ob, "out_shardings")) return false;
  size_t at = p->tok.start;
  if (!expect_id(p, "manual_axes") || !expect(p, '=') || !expect(p, '{')) return false;
  StrBuf axes = {0};
  sb_puts(&axes, "#sdy<manual_axes{");
  while (p->tok.kind == TK_STRING) {
    sb_printf(&axes, "%s%.*s", axes.data[axes.len - 1] == '{' ? "" : ", ", (int)tok_len(p->tok), tok_ptr(p, p->tok));
    next(p);
    if (!accept(p, ',')) break;
  }
  sb_puts(&axes, "}>");
  Attr *ax = ARENA_NEW(&p->m->arena, Attr);
  ax->kind = ATTR_OPAQUE;
  ax->slen = axes.len;
  ax->s = arena_strndup(&p->m->arena, axes.data, axes.len);
  sb_free(&axes);
  if (!expect(p, '}') || !set_attr(p, ob, "manual_axes", ax, at) || !expect(p, '(')) return false;
  PList names = {0}, types = {0};
  while (!p->failed && p->tok.kind == TK_VALUE) {
    Tok *t = ARENA_NEW(&p->m->arena, Tok);
    *t = p->tok;
    next(p);
    Type *ty = expect(p, ':') ? parse_type(p) : NULL;
    if (!ty) return false;
    pl_push(p, &names, t);
    pl_push(p, &types, ty);
    if (!accept(p, ',')) break;
  }
  if (!expect(p, ')')) return false;
  Tok *nt = ARENA_ARRAY(&p->m->arena, Tok, names.len + 1);
  for (int i = 0; i < names.len; i++) nt[i] = *(Tok *)names.data[i];
  Block *b = parse_region(p, names.len, nt, (Type *const *)types.data);
  if (!b) return false;
  Op *ret = block_terminator(b);
  if (!ret || ret->kind != OP_FUNC_RETURN) {
    err(p, ob->at, "a manual computation's region must end in sdy.return");
    return false;
  }
  char name[48];
  for (int k = 0;; k++) {
    snprintf(name, sizeof name, "xlac.manual.%d", k);
    if (!module_find_func(p->m, name)) break;
  }
  Func *f = func_new(p->m, name, loc_at(p, ob->at));
  f->body = b;
  b->parent_func = f;
  f->is_private = true;
  f->nresults = ret->nopnds;
  f->result_types = ARENA_ARRAY(&p->m->arena, Type *, ret->nopnds + 1);
  for (int i = 0; i < ret->nopnds; i++) f->result_types[i] = ret->opnds[i]->type;
  Attr *callee = attr_symbol(p->m, f->name);
  if (!set_attr(p, ob, "call_target_name", attr_string(p->m, "xlac.manual_computation", 23), ob->at) ||
      !set_attr(p, ob, "called_computations", attr_array(p->m, 1, &callee), ob->at))
    return false;
  return parse_colon_types(p, ob);
}

static bool parse_op(P *p, Block *b) {
  if (p->failed || !enter(p)) return false;
  PList names = {0};
  IList counts = {0};
  int total = 0;
  if (p->tok.kind == TK_VALUE) {
    do {
      if (p->tok.kind != TK_VALUE) {
        err(p, p->tok.start, "expected result name");
        return false;
      }
      Tok *t = ARENA_NEW(&p->m->arena, Tok);
      *t = p->tok;
      next(p);
      int64_t c = 1;
      if (accept(p, ':')) {
        size_t at = p->tok.start;
        if (!parse_i64(p, &c)) return false;
        if (c < 1 || c > 1000000) {
          err(p, at, "invalid result count");
          return false;
        }
      }
      pl_push(p, &names, t);
      il_push(p, &counts, c);
      total += (int)c;
      if (total > 1000000) {
        err(p, t->start, "too many results");
        return false;
      }
    } while (accept(p, ','));
    if (!expect(p, '=')) return false;
  }
  OB ob = {0};
  ob.at = p->tok.start;
  ob.nres_named = total;
  Tok nt = p->tok;
  bool generic = nt.kind == TK_STRING, manual = false;
  if (nt.kind == TK_STRING || nt.kind == TK_IDENT) {
    const char *s = tok_ptr(p, nt) + (generic ? 1 : 0);
    size_t n = tok_len(nt) - (generic ? 2 : 0);
    OpKind k = op_kind_from_name(s, n);
    if (k == OP_COUNT && n == 6 && memcmp(s, "return", 6) == 0) k = OP_FUNC_RETURN;
    if (k == OP_COUNT && n == 4 && memcmp(s, "call", 4) == 0) k = OP_CALL;
    if (k == OP_COUNT && n == 10 && memcmp(s, "sdy.return", 10) == 0) k = OP_FUNC_RETURN;
    manual = !generic && n == 22 && memcmp(s, "sdy.manual_computation", 22) == 0;
    if (manual) k = OP_CUSTOM_CALL;
    if (k == OP_COUNT) {
      err(p, nt.start, "unknown operation '%.*s'", (int)n, s);
      return false;
    }
    ob.kind = k;
  } else {
    char buf[48];
    err(p, nt.start, "expected operation, found %s", tok_desc(p, buf, sizeof buf));
    return false;
  }
  next(p);
  if (generic ? !parse_generic_tail(p, &ob) : manual ? !parse_manual(p, &ob) : !parse_pretty(p, &ob)) return false;
  if (!resolve_types(p, &ob, generic ? TS_SAME : style_of(ob.kind))) return false;
  skip_loc(p);
  if (p->failed) return false;
  int nres = ob.out_types.len;
  if (total && total != nres) {
    err(p, ((Tok *)names.data[0])->start, "operation defines %d results but %d are named", nres, total);
    return false;
  }
  Op *op = op_new(p->m, ob.kind, ob.opnds.len, (Value *const *)ob.opnds.data, nres,
                  (Type *const *)ob.out_types.data, loc_at(p, ob.at));
  for (int i = 0; i < ob.anames.len; i++) op_set_attr(p->m, op, ob.anames.data[i], ob.avals.data[i]);
  for (int i = 0; i < ob.regions.len; i++) op_add_region(p->m, op, ob.regions.data[i]);
  block_append(b, op);
  int r = 0;
  for (int i = 0; i < names.len; i++) {
    Tok *t = names.data[i];
    for (int64_t k = 0; k < counts.data[i]; k++)
      op->res[r + k].name = arena_strndup(&p->m->arena, tok_ptr(p, *t) + 1, tok_len(*t) - 1);
    if (!define(p, *t, &op->res[r], (int)counts.data[i])) return false;
    r += (int)counts.data[i];
  }
  if (ob.kind == OP_CALL) pl_push(p, &p->calls, op);
  leave(p);
  return true;
}

/* '{' [^bb0(%a: t, ...):] ops '}'; npre arguments may be given by the op's
   own syntax (while, reduce's reducer). */
static Block *parse_region(P *p, int npre, const Tok *names, Type *const *types) {
  if (p->failed || !enter(p)) return NULL;
  size_t open = p->tok.start;
  if (!expect(p, '{')) return NULL;
  Block *b = block_new(p->m);
  push_scope(p);
  for (int i = 0; i < npre; i++) {
    Value *v = block_add_arg(p->m, b, types[i], NULL);
    v->name = arena_strndup(&p->m->arena, tok_ptr(p, names[i]) + 1, tok_len(names[i]) - 1);
    if (!define(p, names[i], v, 1)) return NULL;
  }
  if (p->tok.kind == TK_CARET) {
    if (npre) {
      err(p, p->tok.start, "this region's arguments are given by the op; no block label expected");
      return NULL;
    }
    next(p);
    if (accept(p, '(') && !is_p(p, ')')) {
      do {
        Tok nt = p->tok;
        if (nt.kind != TK_VALUE) {
          err(p, nt.start, "expected block argument");
          return NULL;
        }
        next(p);
        if (!expect(p, ':')) return NULL;
        Type *t = parse_type(p);
        if (!t) return NULL;
        skip_loc(p);
        Value *v = block_add_arg(p->m, b, t, NULL);
        v->name = arena_strndup(&p->m->arena, tok_ptr(p, nt) + 1, tok_len(nt) - 1);
        if (!define(p, nt, v, 1)) return NULL;
      } while (accept(p, ','));
      if (!expect(p, ')')) return NULL;
    } else if (p->failed) {
      return NULL;
    } else if (is_p(p, ')')) {
      next(p);
    }
    if (!expect(p, ':')) return NULL;
  }
  while (!p->failed && !is_p(p, '}')) {
    if (p->tok.kind == TK_EOF) {
      err(p, open, "unterminated region: expected '}'");
      return NULL;
    }
    if (p->tok.kind == TK_CARET) {
      err(p, p->tok.start, "regions with more than one block are not supported");
      return NULL;
    }
    if (!parse_op(p, b)) return NULL;
  }
  if (!expect(p, '}')) return NULL;
  pop_scope(p);
  leave(p);
  return b;
}

/* ---------------------------------------------------------------- functions */

static NamedAttr *dict_to_named(P *p, Attr *d, int *n) {
  *n = d->n;
  NamedAttr *na = ARENA_ARRAY(&p->m->arena, NamedAttr, d->n > 0 ? d->n : 1);
  for (int i = 0; i < d->n; i++) {
    na[i].name = d->keys[i];
    na[i].attr = d->elems[i];
  }
  return na;
}

/* func.func [visibility] @name(%a: t {attrs}, ...) -> (t {attrs}, ...)
   attributes {...} { body } */
static bool parse_func(P *p, bool unwrapped) {
  size_t at = p->tok.start;
  next(p);
  bool priv = false;
  if (is_id(p, "private") || is_id(p, "public") || is_id(p, "nested")) {
    priv = is_id(p, "private");
    next(p);
  }
  Tok nt = p->tok;
  if (nt.kind != TK_SYMBOL) {
    err(p, nt.start, "expected function name");
    return false;
  }
  const char *name = symbol_name(p, nt);
  if (!name) return false;
  if (module_find_func(p->m, name)) {
    err(p, nt.start, "redefinition of function '@%s'", name);
    return false;
  }
  Func *f = func_new(p->m, name, loc_at(p, at));
  f->is_private = priv;
  next(p);
  if (!expect(p, '(')) return false;
  push_scope(p);
  PList arg_attrs = {0};
  bool any_arg_attr = false;
  if (!is_p(p, ')')) {
    do {
      Tok an = p->tok;
      if (an.kind != TK_VALUE) {
        if (looks_like_type(p))
          err(p, an.start, "function declarations without a body are not supported");
        else
          err(p, an.start, "expected argument name");
        return false;
      }
      next(p);
      if (!expect(p, ':')) return false;
      Type *t = parse_type(p);
      if (!t) return false;
      Attr *d = NULL;
      if (is_p(p, '{')) {
        next(p);
        if (!(d = parse_dict_body(p, NULL, '}'))) return false;
        any_arg_attr = true;
      }
      skip_loc(p);
      pl_push(p, &arg_attrs, d);
      Value *v = block_add_arg(p->m, f->body, t, NULL);
      v->name = arena_strndup(&p->m->arena, tok_ptr(p, an) + 1, tok_len(an) - 1);
      if (!define(p, an, v, 1)) return false;
    } while (accept(p, ','));
  }
  if (!expect(p, ')')) return false;
  if (any_arg_attr) f->arg_attrs = (Attr **)arg_attrs.data;
  PList rtypes = {0}, rattrs = {0};
  bool any_res_attr = false;
  if (p->tok.kind == TK_ARROW) {
    next(p);
    bool paren = accept(p, '(');
    if (!paren || !is_p(p, ')')) {
      do {
        Type *t = parse_type(p);
        if (!t) return false;
        Attr *d = NULL;
        if (paren && is_p(p, '{')) {
          next(p);
          if (!(d = parse_dict_body(p, NULL, '}'))) return false;
          any_res_attr = true;
        }
        pl_push(p, &rtypes, t);
        pl_push(p, &rattrs, d);
      } while (paren && accept(p, ','));
    }
    if (paren && !expect(p, ')')) return false;
  }
  f->nresults = rtypes.len;
  f->result_types = (Type **)rtypes.data;
  if (any_res_attr) f->res_attrs = (Attr **)rattrs.data;
  if (is_id(p, "attributes")) {
    next(p);
    if (!expect(p, '{')) return false;
    Attr *d = parse_dict_body(p, NULL, '}');
    if (!d) return false;
    f->attrs = dict_to_named(p, d, &f->nattrs);
  }
  if (p->failed) return false;
  if (!is_p(p, '{')) {
    char buf[48];
    err(p, p->tok.start, "expected '{' to begin the body of '@%s', found %s", name, tok_desc(p, buf, sizeof buf));
    return false;
  }
  size_t open = p->tok.start;
  next(p);
  while (!p->failed && !is_p(p, '}')) {
    if (p->tok.kind == TK_EOF) {
      if (unwrapped && f->body->last) {
        /* inputs that lost their closing brace: accept it at the very end */
        warning_at(loc_at(p, p->tok.start), "missing '}' at end of function '@%s'; assuming one", name);
        pop_scope(p);
        return true;
      }
      err(p, open, "unterminated body of '@%s': expected '}'", name);
      return false;
    }
    if (p->tok.kind == TK_CARET) {
      err(p, p->tok.start, "functions with more than one block are not supported");
      return false;
    }
    if (!parse_op(p, f->body)) return false;
  }
  if (!expect(p, '}')) return false;
  /* a function may end in stablehlo.return, as JAX prints the comparators
     of its top-k calls: the function's return (as the bytecode reader
     reads it) */
  if (f->body->last && f->body->last->kind == OP_RETURN) f->body->last->kind = OP_FUNC_RETURN;
  pop_scope(p);
  skip_loc(p);
  return !p->failed;
}

/* #name = attr / !name = type / #loc = loc(...) */
static bool parse_alias_def(P *p) {
  Tok nt = p->tok;
  next(p);
  next(p); /* '=' */
  if (nt.kind == TK_HASH) {
    if (is_id(p, "loc") && tok_is(peek(p), '(')) {
      skip_loc(p);
      return !p->failed;
    }
    Attr *a = parse_attr(p);
    if (!a) return false;
    char *key = tok_dup(p, nt);
    if (strmap_get(&p->attr_alias, key)) {
      err(p, nt.start, "redefinition of attribute alias '%s'", key);
      return false;
    }
    strmap_put(&p->attr_alias, key, a);
    return true;
  }
  Type *t = parse_type(p);
  if (!t) return false;
  char *key = tok_dup(p, nt);
  if (strmap_get(&p->type_alias, key)) {
    err(p, nt.start, "redefinition of type alias '%s'", key);
    return false;
  }
  strmap_put(&p->type_alias, key, t);
  return true;
}

/* sdy.mesh @name = <["x"=4]> {attrs}: a mesh of the module's table. */
static bool parse_mesh_decl(P *p) {
  size_t at = p->tok.start;
  next(p);
  Tok nt = p->tok;
  if (nt.kind != TK_SYMBOL) {
    err(p, nt.start, "expected the mesh's name (@name)");
    return false;
  }
  const char *name = symbol_name(p, nt);
  if (!name) return false;
  if (strstr(name, "::")) {
    err(p, nt.start, "'@%s' is not a mesh name", name);
    return false;
  }
  if (module_find_mesh(p->m, name)) {
    err(p, nt.start, "redefinition of mesh '@%s'", name);
    return false;
  }
  next(p);
  if (!expect(p, '=')) return false;
  if (!is_p(p, '<')) {
    char buf[48];
    err(p, p->tok.start, "expected the mesh ('<[\"x\"=N, ...]>'), found %s", tok_desc(p, buf, sizeof buf));
    return false;
  }
  SdyMesh *mesh = NULL;
  if (!parse_sdy_at(p, p->tok.start, SDY_T_MESH, &mesh)) return false;
  int nattrs = 0;
  NamedAttr *attrs = NULL;
  if (is_p(p, '{')) {
    next(p);
    Attr *d = parse_dict_body(p, NULL, '}');
    if (!d) return false;
    attrs = dict_to_named(p, d, &nattrs);
  }
  skip_loc(p);
  if (p->failed) return false;
  module_add_mesh(p->m, name, mesh, nattrs, attrs, loc_at(p, at));
  return true;
}

/* Top-level items until `close` ('}' of a module) or end of input. */
static bool parse_items_top(P *p, bool in_module, bool *seen_module) {
  while (!p->failed) {
    Tok t = p->tok;
    if (t.kind == TK_EOF) {
      if (in_module) {
        err(p, (size_t)p->m->loc.off, "unterminated module: expected '}'");
        return false;
      }
      return true;
    }
    if (in_module && is_p(p, '}')) return true;
    if ((t.kind == TK_HASH || t.kind == TK_BANG) && tok_is(peek(p), '=')) {
      if (!parse_alias_def(p)) return false;
    } else if (is_id(p, "func.func")) {
      if (!parse_func(p, !in_module)) return false;
    } else if (is_id(p, "sdy.mesh")) {
      if (!parse_mesh_decl(p)) return false;
    } else if (is_id(p, "module") && !in_module) {
      if (*seen_module) {
        err(p, t.start, "only one module per input is supported");
        return false;
      }
      *seen_module = true;
      p->m->loc = loc_at(p, t.start);
      next(p);
      if (p->tok.kind == TK_SYMBOL) {
        p->m->name = symbol_name(p, p->tok);
        next(p);
      }
      if (is_id(p, "attributes")) {
        next(p);
        if (!expect(p, '{')) return false;
        Attr *d = parse_dict_body(p, NULL, '}');
        if (!d) return false;
        p->m->attrs = dict_to_named(p, d, &p->m->nattrs);
      }
      if (!expect(p, '{')) return false;
      if (!parse_items_top(p, true, seen_module)) return false;
      if (!expect(p, '}')) return false;
      skip_loc(p);
    } else {
      char buf[48];
      err(p, t.start, "expected 'func.func'%s, found %s", in_module ? "" : " or 'module'",
          tok_desc(p, buf, sizeof buf));
      return false;
    }
  }
  return false;
}

static void parser_init(P *p, Module *m, int file, const char *text, size_t begin, size_t end) {
  *p = (P){0};
  p->lx = (Lexer){file, text, begin, end};
  p->m = m;
  p->t_i64 = type_scalar(&m->arena, ET_S64);
  p->t_i32 = type_scalar(&m->arena, ET_S32);
  p->t_f64 = type_scalar(&m->arena, ET_F64);
  p->t_i1 = type_scalar(&m->arena, ET_PRED);
}

Module *stablehlo_parse(int file, size_t begin, size_t end) {
  const SrcFile *sf = src_get(file);
  if (!sf) return NULL;
  if (end > sf->len) end = sf->len;
  if (begin > end) begin = end;
  P p;
  parser_init(&p, module_new(), file, sf->text, begin, end);
  p.m->format = SRC_STABLEHLO;
  p.m->loc = (SrcLoc){file, (uint32_t)begin};
  /* a NUL byte would end the C strings made from token text (names, opaque
     attributes kept verbatim): no text format has one, so it is refused up
     front */
  const char *nul = memchr(sf->text + begin, 0, end - begin);
  if (nul) err(&p, (size_t)(nul - sf->text), "the input is not a text file (it contains NUL bytes); the first one is here");
  else next(&p);
  bool seen_module = false;
  if (!p.failed) parse_items_top(&p, false, &seen_module);
  if (!p.failed) {
    for (int i = 0; i < p.calls.len; i++) {
      Op *op = p.calls.data[i];
      const char *callee = op_attr_str(op, "callee");
      Func *f = callee ? module_find_func(p.m, callee) : NULL;
      if (!f) {
        err(&p, op->loc.off, "call to undefined function '@%s'", callee ? callee : "?");
        break;
      }
    }
  }
  while (p.scope) pop_scope(&p);
  strmap_free(&p.attr_alias);
  strmap_free(&p.type_alias);
  if (p.failed) {
    module_free(p.m);
    return NULL;
  }
  /* as the bytecode reader does */
  split_splats(p.m, SPLIT_SPLAT_MIN, NULL, NULL);
  return p.m;
}

/* ---------------------------------------------------------------- fragments */

/* What the fragment parsers share: the text must be NUL-free (it comes from
   C strings, but a length may reach past one) and fully consumed. */
static bool fragment_begin(P *p, Module *m, int file, const char *text, size_t len) {
  parser_init(p, m, file, text, 0, len);
  const char *nul = memchr(text, 0, len);
  if (nul) err(p, (size_t)(nul - text), "unexpected NUL byte");
  else next(p);
  return !p->failed;
}

static bool fragment_end(P *p, bool ok) {
  if (ok && !p->failed && p->tok.kind != TK_EOF) {
    char buf[48];
    err(p, p->tok.start, "unexpected %s after the end", tok_desc(p, buf, sizeof buf));
  }
  strmap_free(&p->attr_alias);
  strmap_free(&p->type_alias);
  return ok && !p->failed;
}

Attr *stablehlo_parse_attr_dict(Module *m, int file, const char *text, size_t len) {
  P p;
  Attr *d = NULL;
  if (fragment_begin(&p, m, file, text, len) && expect(&p, '{')) d = parse_dict_body(&p, NULL, '}');
  return fragment_end(&p, d != NULL) ? d : NULL;
}

Type **stablehlo_parse_type_list(Module *m, int file, const char *text, size_t len, int *n) {
  P p;
  PList types = {0};
  bool ok = fragment_begin(&p, m, file, text, len);
  if (ok && p.tok.kind != TK_EOF) ok = parse_type_list(&p, &types);
  if (!fragment_end(&p, ok)) return NULL;
  *n = types.len;
  Type **out = ARENA_ARRAY(&m->arena, Type *, types.len > 0 ? types.len : 1);
  for (int i = 0; i < types.len; i++) out[i] = types.data[i];
  return out;
}
