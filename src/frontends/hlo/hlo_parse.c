/*
 * hlo_parse.c - XLA HLO text to the xlac IR.
 *
 * Parsing runs in two phases.  The text phase reads the module header and
 * every computation into a light record per instruction (name, shape,
 * opcode, operand names, and the source spans of the attribute values),
 * without interpreting anything opcode-specific.  The build phase then turns
 * records into IR.  Keeping the records lets one computation be instantiated
 * several times: HLO shares a computation between every reduce that names
 * it in `to_apply=`, while the IR wants a private region per op, and an HLO
 * conditional branch takes an operand that the IR expresses by substituting
 * the outer value for the branch's parameter.  It also makes instruction
 * order irrelevant: operands are built on demand.
 *
 * Ops whose HLO result is a tuple but whose IR twin has several results
 * (variadic reduce, sort, batch-norm-training, ...) are built as
 * multi-result ops; a get-tuple-element of such an instruction resolves to
 * the matching result directly, and only other uses of the whole tuple
 * materialize a stablehlo.tuple.  This keeps print/parse round trips stable.
 *
 * Attribute values are captured as source spans and parsed by small
 * sub-parsers that run on the span, so every diagnostic points at the exact
 * character.  Unknown attributes are kept verbatim (ATTR_OPAQUE under their
 * HLO name) so the HLO printer can write them back.
 */
#include "frontends/hlo/hlo.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Computations nest (regions inside regions); this bounds instantiation
   depth and catches recursive references. */
#define MAX_DEPTH 200
/* A computation is copied into every region that names it; this bounds the
   total work on adversarial inputs (a chain of computations each using the
   next twice would otherwise grow exponentially). */
#define MAX_BUILT_OPS 20000000

/* ---------------------------------------------------------------------------
 * Text phase records
 * ------------------------------------------------------------------------- */
typedef struct Span {
  uint32_t off, len;
} Span;

typedef struct HAttr {
  Span name;
  uint32_t voff, vend; /* value span */
} HAttr;

typedef struct HInst {
  Span name;
  Span opcode;
  Type *type;
  int nopnds;
  Span *opnds;
  uint32_t args_off, args_end; /* inside the parentheses (constant literals) */
  int nattrs;
  HAttr *attrs;
  bool root;
} HInst;

typedef struct HComp {
  Span name;
  bool entry;
  int ninst;
  HInst *insts;
  StrMap names; /* instruction name -> index + 1 */
  int root;     /* instruction index */
  int nparams;
  int *params;  /* parameter number -> instruction index */
  bool func_ref, region_ref;
  Func *func;
  int active;   /* instantiations in progress (recursion check) */
} HComp;

typedef struct P {
  int file;
  const char *src;
  size_t pos, end;
  Module *m;
  Arena scratch;
  bool failed;
  VEC(HComp *) comps;
  StrMap comp_names; /* computation name -> HComp* */
  StrMap opcodes;    /* hlo opcode -> OpKind + 1 */
  long built_ops;
  uint32_t layout_at, layout_end; /* the entry_computation_layout option's text (0, 0: none) */
} P;

static SrcLoc loc_at(const P *p, size_t off) { return (SrcLoc){p->file, (uint32_t)off}; }

static bool fail_at(P *p, size_t off, const char *fmt, ...) XLAC_PRINTF(3, 4);
static bool fail_at(P *p, size_t off, const char *fmt, ...) {
  if (p->failed) return false; /* one error per parse: later ones are noise */
  va_list ap;
  va_start(ap, fmt);
  vdiag(DIAG_ERROR, loc_at(p, off), fmt, ap);
  va_end(ap);
  p->failed = true;
  return false;
}

/* ---------------------------------------------------------------------------
 * Lexing helpers (all work on p->pos within [.., p->end))
 * ------------------------------------------------------------------------- */
static int peekc(const P *p) { return p->pos < p->end ? (unsigned char)p->src[p->pos] : 0; }
static int peekc_at(const P *p, size_t k) {
  return p->pos + k < p->end ? (unsigned char)p->src[p->pos + k] : 0;
}

static bool skip_ws(P *p) {
  for (;;) {
    while (p->pos < p->end && isspace((unsigned char)p->src[p->pos])) p->pos++;
    if (peekc(p) == '/' && peekc_at(p, 1) == '/') {
      while (p->pos < p->end && p->src[p->pos] != '\n') p->pos++;
      continue;
    }
    if (peekc(p) == '/' && peekc_at(p, 1) == '*') {
      size_t start = p->pos;
      p->pos += 2;
      while (p->pos < p->end && !(p->src[p->pos] == '*' && peekc_at(p, 1) == '/')) p->pos++;
      if (p->pos >= p->end) return fail_at(p, start, "unterminated comment");
      p->pos += 2;
      continue;
    }
    return true;
  }
}

static bool is_name_char(int c) { return isalnum(c) || c == '_' || c == '.' || c == '-' || c == '$'; }

static bool accept(P *p, int c) {
  skip_ws(p);
  if (peekc(p) == c) {
    p->pos++;
    return true;
  }
  return false;
}

static bool expect(P *p, int c, const char *context) {
  if (accept(p, c)) return true;
  if (p->pos >= p->end) return fail_at(p, p->pos, "expected '%c' %s, found end of input", c, context);
  return fail_at(p, p->pos, "expected '%c' %s", c, context);
}

/* A name: optional '%', then [A-Za-z0-9_.-$]+ (XLA allows '.' and '-'). */
static bool lex_name(P *p, Span *out, const char *what) {
  skip_ws(p);
  if (peekc(p) == '%') p->pos++;
  size_t s = p->pos;
  while (p->pos < p->end && is_name_char((unsigned char)p->src[p->pos])) p->pos++;
  if (p->pos == s) return fail_at(p, s, "expected %s", what);
  *out = (Span){(uint32_t)s, (uint32_t)(p->pos - s)};
  return true;
}

static bool span_is(const P *p, Span s, const char *lit) {
  size_t n = strlen(lit);
  return s.len == n && memcmp(p->src + s.off, lit, n) == 0;
}

static char *span_dup(P *p, Arena *a, Span s) { return arena_strndup(a, p->src + s.off, s.len); }

static bool word_at(const P *p, const char *w) {
  size_t n = strlen(w);
  return p->pos + n <= p->end && memcmp(p->src + p->pos, w, n) == 0 &&
         !is_name_char(peekc_at(p, n));
}

static bool parse_int(P *p, int64_t *out) {
  skip_ws(p);
  size_t s = p->pos;
  bool neg = false;
  if (peekc(p) == '-' || peekc(p) == '+') {
    neg = peekc(p) == '-';
    p->pos++;
  }
  if (!isdigit(peekc(p))) return fail_at(p, s, "expected an integer");
  uint64_t v = 0;
  while (isdigit(peekc(p))) {
    unsigned d = (unsigned)(p->src[p->pos] - '0');
    if (v > (UINT64_MAX - d) / 10) return fail_at(p, s, "integer is too large");
    v = v * 10 + d;
    p->pos++;
  }
  if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
    return fail_at(p, s, "integer is out of range");
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return true;
}

/* Skips a balanced group starting at the current '(' '[' or '{', honouring
   string literals.  Leaves pos after the closing bracket. */
static bool skip_balanced(P *p) {
  char stack[256];
  int depth = 0;
  size_t start = p->pos;
  while (p->pos < p->end) {
    char c = p->src[p->pos];
    if (c == '"') {
      p->pos++;
      while (p->pos < p->end && p->src[p->pos] != '"') {
        if (p->src[p->pos] == '\\') p->pos++;
        p->pos++;
      }
      if (p->pos >= p->end) return fail_at(p, start, "unterminated string");
      p->pos++;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      if (depth == (int)sizeof stack) return fail_at(p, p->pos, "brackets nest too deeply");
      stack[depth++] = c == '(' ? ')' : c == '[' ? ']' : '}';
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth == 0 || stack[depth - 1] != c) return fail_at(p, p->pos, "unbalanced '%c'", c);
      depth--;
      if (depth == 0) {
        p->pos++;
        return true;
      }
    }
    p->pos++;
  }
  return fail_at(p, start, "unbalanced bracket: no closing match before end of input");
}

/* An attribute value: a balanced group, a string, or a run of characters up
   to ',' / whitespace / a closing bracket at depth 0 (for `b01f_01io->b01f`,
   `[2,2]<=[4]`, `%comp`, `1_1x2_2`...). */
static bool capture_value(P *p, uint32_t *voff, uint32_t *vend) {
  skip_ws(p);
  size_t s = p->pos;
  if (peekc(p) == '"') {
    p->pos++;
    while (p->pos < p->end && p->src[p->pos] != '"') {
      if (p->src[p->pos] == '\\') p->pos++;
      p->pos++;
    }
    if (p->pos >= p->end) return fail_at(p, s, "unterminated string");
    p->pos++;
  } else {
    while (p->pos < p->end) {
      int c = peekc(p);
      if (c == '(' || c == '[' || c == '{') {
        if (!skip_balanced(p)) return false;
        continue;
      }
      if (c == ',' || c == ')' || c == ']' || c == '}' || isspace(c)) break;
      if (c == '"') {
        p->pos++;
        while (p->pos < p->end && p->src[p->pos] != '"') {
          if (p->src[p->pos] == '\\') p->pos++;
          p->pos++;
        }
        if (p->pos >= p->end) return fail_at(p, s, "unterminated string");
      }
      p->pos++;
    }
  }
  if (p->pos == s) return fail_at(p, s, "expected an attribute value");
  *voff = (uint32_t)s;
  *vend = (uint32_t)p->pos;
  return true;
}

/* ---------------------------------------------------------------------------
 * Shapes
 * ------------------------------------------------------------------------- */
static bool parse_shape(P *p, Type **out, int depth);

static bool parse_layout(P *p, Type *t) {
  /* {1,0} or {1,0:T(8,128)S(1)} : the tiling/memory-space part is ignored */
  size_t s = p->pos;
  p->pos++; /* '{' */
  int64_t *lay = ARENA_ARRAY(&p->m->arena, int64_t, t->rank > 0 ? t->rank : 1);
  int n = 0;
  skip_ws(p);
  while (peekc(p) != '}' && peekc(p) != ':') {
    int64_t v;
    if (!parse_int(p, &v)) return false;
    if (n >= t->rank) return fail_at(p, s, "layout has more entries than the shape's rank %d", t->rank);
    if (v < 0 || v >= t->rank) return fail_at(p, s, "layout entry %lld is out of range", (long long)v);
    lay[n++] = v;
    skip_ws(p);
    if (peekc(p) == ',') p->pos++;
    else break;
    skip_ws(p);
  }
  skip_ws(p);
  if (peekc(p) == ':') {
    /* skip the rest, balanced */
    int depth = 1;
    while (p->pos < p->end && depth > 0) {
      char c = p->src[p->pos++];
      if (c == '{' || c == '(') depth++;
      else if (c == '}' || c == ')') depth--;
    }
    if (depth) return fail_at(p, s, "unterminated layout");
  } else if (!expect(p, '}', "to close the layout")) {
    return false;
  }
  if (n == t->rank && t->rank > 0) {
    bool seen[64] = {0};
    for (int i = 0; i < n && t->rank <= 64; i++) {
      if (seen[lay[i]]) return fail_at(p, s, "layout is not a permutation");
      seen[lay[i]] = true;
    }
    t->layout = lay;
  } else if (n != 0) {
    return fail_at(p, s, "layout has %d entries but the shape has rank %d", n, t->rank);
  }
  return true;
}

static bool parse_shape(P *p, Type **out, int depth) {
  skip_ws(p);
  size_t s = p->pos;
  if (depth > MAX_DEPTH) return fail_at(p, s, "shape nests too deeply");
  if (peekc(p) == '(') {
    p->pos++;
    VEC(Type *) elems = {0};
    skip_ws(p);
    if (peekc(p) != ')') {
      for (;;) {
        Type *t;
        if (!parse_shape(p, &t, depth + 1)) {
          VEC_FREE(elems);
          return false;
        }
        VEC_PUSH(elems, t);
        if (!accept(p, ',')) break;
      }
    }
    if (!expect(p, ')', "to close the tuple shape")) {
      VEC_FREE(elems);
      return false;
    }
    *out = type_tuple(&p->m->arena, elems.len, elems.data);
    VEC_FREE(elems);
    return true;
  }
  size_t w = p->pos;
  while (p->pos < p->end && isalnum(peekc(p))) p->pos++;
  if (p->pos == w) return fail_at(p, s, "expected a shape");
  size_t wn = p->pos - w;
  if (wn == 5 && memcmp(p->src + w, "token", 5) == 0) {
    if (!expect(p, '[', "after 'token'") || !expect(p, ']', "after 'token['")) return false;
    *out = type_token(&p->m->arena);
    return true;
  }
  ElemType et = et_from_hlo(p->src + w, wn);
  if (et == ET_INVALID) return fail_at(p, w, "unknown element type '%.*s'", (int)wn, p->src + w);
  if (peekc(p) != '[') return fail_at(p, p->pos, "expected '[' after the element type");
  p->pos++;
  int64_t dims[64];
  int rank = 0;
  skip_ws(p);
  if (peekc(p) != ']') {
    for (;;) {
      skip_ws(p);
      if (peekc(p) == '<' || peekc(p) == '?')
        return fail_at(p, p->pos, "dynamic dimensions are not supported");
      int64_t d;
      size_t ds = p->pos;
      if (!parse_int(p, &d)) return false;
      if (d < 0) return fail_at(p, ds, "negative dimension size");
      if (rank == 64) return fail_at(p, ds, "rank is too large (at most 64)");
      dims[rank++] = d;
      if (!accept(p, ',')) break;
    }
  }
  if (!expect(p, ']', "to close the dimensions")) return false;
  /* guard against element counts that overflow */
  int64_t n = 1;
  for (int i = 0; i < rank; i++) {
    if (dims[i] && n > INT64_MAX / 16 / dims[i]) return fail_at(p, s, "shape has too many elements");
    n *= dims[i];
  }
  Type *t = type_tensor(&p->m->arena, et, rank, dims);
  if (peekc(p) == '{' && !parse_layout(p, t)) return false;
  *out = t;
  return true;
}

/* Is there a shape (rather than a name) at pos?  `f32[`, `token[`, `(`. */
static bool shape_ahead(const P *p) {
  size_t i = p->pos;
  if (i < p->end && p->src[i] == '(') return true;
  size_t w = i;
  while (i < p->end && isalnum((unsigned char)p->src[i])) i++;
  if (i == w || i >= p->end || p->src[i] != '[') return false;
  if (i - w == 5 && memcmp(p->src + w, "token", 5) == 0) return true;
  return et_from_hlo(p->src + w, i - w) != ET_INVALID;
}

/* ---------------------------------------------------------------------------
 * Text phase: instructions and computations
 * ------------------------------------------------------------------------- */
static bool parse_instruction(P *p, HComp *c, HInst *in) {
  memset(in, 0, sizeof *in);
  skip_ws(p);
  if (word_at(p, "ROOT")) {
    p->pos += 4;
    in->root = true;
  }
  if (!lex_name(p, &in->name, "an instruction name")) return false;
  if (!expect(p, '=', "after the instruction name")) return false;
  if (!parse_shape(p, &in->type, 0)) return false;
  skip_ws(p);
  size_t os = p->pos;
  while (p->pos < p->end && (isalnum(peekc(p)) || peekc(p) == '-' || peekc(p) == '_')) p->pos++;
  if (p->pos == os) return fail_at(p, os, "expected an opcode");
  in->opcode = (Span){(uint32_t)os, (uint32_t)(p->pos - os)};
  skip_ws(p);
  if (peekc(p) != '(') return fail_at(p, p->pos, "expected '(' after the opcode");
  if (span_is(p, in->opcode, "constant")) {
    size_t open = p->pos;
    if (!skip_balanced(p)) return false;
    in->args_off = (uint32_t)open + 1;
    in->args_end = (uint32_t)p->pos - 1;
  } else {
    p->pos++;
    in->args_off = (uint32_t)p->pos;
    VEC(Span) ops = {0};
    skip_ws(p);
    if (peekc(p) != ')') {
      for (;;) {
        skip_ws(p);
        if (shape_ahead(p)) {
          Type *ignored;
          if (!parse_shape(p, &ignored, 0)) {
            VEC_FREE(ops);
            return false;
          }
        }
        Span s;
        if (!lex_name(p, &s, "an operand name")) {
          VEC_FREE(ops);
          return false;
        }
        VEC_PUSH(ops, s);
        if (!accept(p, ',')) break;
      }
    }
    if (!expect(p, ')', "to close the operand list")) {
      VEC_FREE(ops);
      return false;
    }
    in->args_end = (uint32_t)p->pos - 1;
    in->nopnds = ops.len;
    in->opnds = ARENA_ARRAY(&p->scratch, Span, ops.len ? ops.len : 1);
    if (ops.len) memcpy(in->opnds, ops.data, sizeof(Span) * (size_t)ops.len);
    VEC_FREE(ops);
  }
  VEC(HAttr) attrs = {0};
  while (accept(p, ',')) {
    HAttr a;
    skip_ws(p);
    size_t s = p->pos;
    while (p->pos < p->end && (isalnum(peekc(p)) || peekc(p) == '_' || peekc(p) == '.')) p->pos++;
    if (p->pos == s) {
      VEC_FREE(attrs);
      return fail_at(p, s, "expected an attribute name");
    }
    a.name = (Span){(uint32_t)s, (uint32_t)(p->pos - s)};
    /* XLA rejects a repeated attribute; taking either copy would be a guess. */
    for (int i = 0; i < attrs.len; i++)
      if (attrs.data[i].name.len == a.name.len &&
          memcmp(p->src + attrs.data[i].name.off, p->src + s, a.name.len) == 0) {
        VEC_FREE(attrs);
        return fail_at(p, s, "attribute '%.*s' is given twice", (int)a.name.len, p->src + s);
      }
    if (!expect(p, '=', "after the attribute name") || !capture_value(p, &a.voff, &a.vend)) {
      VEC_FREE(attrs);
      return false;
    }
    VEC_PUSH(attrs, a);
  }
  in->nattrs = attrs.len;
  in->attrs = ARENA_ARRAY(&p->scratch, HAttr, attrs.len ? attrs.len : 1);
  if (attrs.len) memcpy(in->attrs, attrs.data, sizeof(HAttr) * (size_t)attrs.len);
  VEC_FREE(attrs);
  (void)c;
  return true;
}

static bool parse_computation(P *p, HComp *c) {
  skip_ws(p);
  if (word_at(p, "ENTRY")) {
    p->pos += 5;
    c->entry = true;
  }
  if (!lex_name(p, &c->name, "a computation name")) return false;
  skip_ws(p);
  if (peekc(p) == '(') { /* signature: informational, the parameters carry the shapes */
    if (!skip_balanced(p)) return false;
    skip_ws(p);
    if (peekc(p) == '-' && peekc_at(p, 1) == '>') {
      p->pos += 2;
      Type *ignored;
      if (!parse_shape(p, &ignored, 0)) return false;
    }
  }
  if (!expect(p, '{', "to open the computation body")) return false;
  VEC(HInst) insts = {0};
  for (;;) {
    skip_ws(p);
    if (p->failed) break;
    if (peekc(p) == '}') {
      p->pos++;
      break;
    }
    if (p->pos >= p->end) {
      fail_at(p, p->pos, "expected '}' to close computation '%.*s'", (int)c->name.len,
              p->src + c->name.off);
      break;
    }
    HInst in;
    if (!parse_instruction(p, c, &in)) break;
    VEC_PUSH(insts, in);
  }
  if (p->failed) {
    VEC_FREE(insts);
    return false;
  }
  /* trailing computation attributes such as execution_thread="..." */
  while (accept(p, ',')) {
    Span ignored;
    uint32_t a, b;
    if (!lex_name(p, &ignored, "an attribute name") || !expect(p, '=', "after the attribute name") ||
        !capture_value(p, &a, &b)) {
      VEC_FREE(insts);
      return false;
    }
  }
  c->ninst = insts.len;
  c->insts = ARENA_ARRAY(&p->scratch, HInst, insts.len ? insts.len : 1);
  if (insts.len) memcpy(c->insts, insts.data, sizeof(HInst) * (size_t)insts.len);
  VEC_FREE(insts);
  if (c->ninst == 0) return fail_at(p, c->name.off, "computation has no instructions");
  /* name table, root, parameters */
  c->root = -1;
  int maxparam = -1;
  for (int i = 0; i < c->ninst; i++) {
    HInst *in = &c->insts[i];
    if (strmap_getn(&c->names, p->src + in->name.off, in->name.len))
      return fail_at(p, in->name.off, "duplicate instruction name '%.*s'", (int)in->name.len,
                     p->src + in->name.off);
    char *key = span_dup(p, &p->scratch, in->name);
    strmap_put(&c->names, key, (void *)(intptr_t)(i + 1));
    if (in->root) {
      if (c->root >= 0) return fail_at(p, in->name.off, "computation has more than one ROOT");
      c->root = i;
    }
    if (span_is(p, in->opcode, "parameter")) {
      P sub = *p;
      sub.pos = in->args_off;
      sub.end = in->args_end;
      int64_t n;
      if (!parse_int(&sub, &n)) {
        p->failed = true;
        return false;
      }
      if (n < 0 || n >= c->ninst) return fail_at(p, in->args_off, "parameter number %lld is out of range", (long long)n);
      if (n > maxparam) maxparam = (int)n;
    }
  }
  if (c->root < 0) c->root = c->ninst - 1;
  c->nparams = maxparam + 1;
  c->params = ARENA_ARRAY(&p->scratch, int, c->nparams ? c->nparams : 1);
  for (int i = 0; i < c->nparams; i++) c->params[i] = -1;
  for (int i = 0; i < c->ninst; i++) {
    HInst *in = &c->insts[i];
    if (!span_is(p, in->opcode, "parameter")) continue;
    P sub = *p;
    sub.pos = in->args_off;
    sub.end = in->args_end;
    int64_t n = 0;
    parse_int(&sub, &n);
    if (c->params[n] >= 0) return fail_at(p, in->args_off, "parameter %lld is defined twice", (long long)n);
    c->params[n] = i;
  }
  for (int i = 0; i < c->nparams; i++)
    if (c->params[i] < 0) return fail_at(p, c->name.off, "computation is missing parameter(%d)", i);
  return true;
}

/* `FileNames`, `FunctionNames`, `FileLocations`, `StackFrames` sections that
   newer dumps put between the header and the computations. */
static bool is_section_word(const P *p) {
  return word_at(p, "FileNames") || word_at(p, "FunctionNames") || word_at(p, "FileLocations") ||
         word_at(p, "StackFrames");
}

static bool parse_sections(P *p) {
  skip_ws(p);
  size_t start = p->pos;
  size_t last = start;
  while (is_section_word(p)) {
    while (is_name_char(peekc(p))) p->pos++;
    last = p->pos;
    for (;;) {
      skip_ws(p);
      if (!isdigit(peekc(p))) break;
      int64_t ignored;
      if (!parse_int(p, &ignored)) return false;
      skip_ws(p);
      if (peekc(p) == '"' || peekc(p) == '{') {
        if (!skip_balanced(p)) return false;
      } else {
        return fail_at(p, p->pos, "expected a string or '{' in the stack frame index");
      }
      last = p->pos;
    }
  }
  if (last > start) {
    Module *m = p->m;
    Attr *a = attr_string(m, p->src + start, last - start);
    NamedAttr *na = ARENA_ARRAY(&m->arena, NamedAttr, m->nattrs + 1);
    if (m->nattrs) memcpy(na, m->attrs, sizeof(NamedAttr) * (size_t)m->nattrs);
    na[m->nattrs].name = "xlac.hlo_stack_frame_index";
    na[m->nattrs].attr = a;
    m->attrs = na;
    m->nattrs++;
  }
  return true;
}

static bool parse_header(P *p) {
  skip_ws(p);
  if (!word_at(p, "HloModule")) return true; /* a bare computation is accepted too */
  size_t hs = p->pos;
  p->pos += 9;
  Span name;
  if (!lex_name(p, &name, "a module name after 'HloModule'")) return false;
  p->m->name = span_dup(p, &p->m->arena, name);
  p->m->loc = loc_at(p, hs);
  VEC(NamedAttr) attrs = {0};
  while (accept(p, ',')) {
    Span key;
    uint32_t a, b;
    skip_ws(p);
    size_t s = p->pos;
    while (p->pos < p->end && (isalnum(peekc(p)) || peekc(p) == '_' || peekc(p) == '.')) p->pos++;
    key = (Span){(uint32_t)s, (uint32_t)(p->pos - s)};
    if (!key.len) {
      VEC_FREE(attrs);
      return fail_at(p, s, "expected a module option name");
    }
    if (!expect(p, '=', "after the module option name") || !capture_value(p, &a, &b)) {
      VEC_FREE(attrs);
      return false;
    }
    NamedAttr na = {span_dup(p, &p->m->arena, key), attr_string(p->m, p->src + a, b - a)};
    if (strcmp(na.name, "entry_computation_layout") == 0) p->layout_at = a, p->layout_end = b;
    for (int i = 0; i < attrs.len; i++) {
      if (strcmp(attrs.data[i].name, na.name) == 0) {
        VEC_FREE(attrs);
        return fail_at(p, s, "module option '%s' is given twice", na.name);
      }
    }
    VEC_PUSH(attrs, na);
  }
  p->m->nattrs = attrs.len;
  p->m->attrs = ARENA_ARRAY(&p->m->arena, NamedAttr, attrs.len ? attrs.len : 1);
  if (attrs.len) memcpy(p->m->attrs, attrs.data, sizeof(NamedAttr) * (size_t)attrs.len);
  VEC_FREE(attrs);
  return parse_sections(p);
}

/* Same element types and dimensions (layouts aside), tuples element by
   element. */
static bool same_shape_as(const Type *a, const Type *b) {
  if (a->kind != b->kind) return false;
  if (a->kind == TY_TUPLE) {
    if (a->ntuple != b->ntuple) return false;
    for (int i = 0; i < a->ntuple; i++)
      if (!same_shape_as(a->tuple[i], b->tuple[i])) return false;
    return true;
  }
  if (a->kind != TY_TENSOR) return true;
  if (a->elem != b->elem || a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

/* The module's entry_computation_layout, `{(P0, P1, ...)->R}`, must
   describe the ENTRY computation's parameters and result, as XLA checks:
   a program whose declared signature is not its own is refused. */
static bool check_entry_layout(P *p, const Func *entry) {
  if (!p->layout_end || !entry) return true;
  size_t save_pos = p->pos, save_end = p->end;
  p->pos = p->layout_at;
  p->end = p->layout_end;
  bool ok = expect(p, '{', "to open entry_computation_layout") && expect(p, '(', "before its parameter shapes");
  int n = 0;
  skip_ws(p);
  if (ok && peekc(p) != ')') {
    for (;;) {
      skip_ws(p);
      size_t s = p->pos;
      Type *t;
      if (!(ok = parse_shape(p, &t, 0))) break;
      if (n >= entry->body->nargs) {
        ok = fail_at(p, s, "entry_computation_layout has more parameters than the ENTRY computation's %d",
                     entry->body->nargs);
        break;
      }
      const Type *want = entry->body->args[n]->type;
      if (!same_shape_as(t, want)) {
        char *got = type_str(t), *has = type_str(want);
        ok = fail_at(p, s, "entry_computation_layout gives parameter %d the shape %s, but the ENTRY computation's is %s",
                     n, got, has);
        xfree(got);
        xfree(has);
        break;
      }
      n++;
      if (!accept(p, ',')) break;
    }
  }
  if (ok && n != entry->body->nargs)
    ok = fail_at(p, p->pos, "entry_computation_layout has %d parameters, the ENTRY computation %d", n,
                 entry->body->nargs);
  ok = ok && expect(p, ')', "after the parameter shapes") && expect(p, '-', "before '->'") &&
       expect(p, '>', "after '-'");
  if (ok) {
    skip_ws(p);
    size_t s = p->pos;
    Type *t;
    ok = parse_shape(p, &t, 0);
    if (ok && entry->nresults == 1 && !same_shape_as(t, entry->result_types[0])) {
      char *got = type_str(t), *has = type_str(entry->result_types[0]);
      ok = fail_at(p, s, "entry_computation_layout gives the result the shape %s, but the ENTRY computation's is %s",
                   got, has);
      xfree(got);
      xfree(has);
    }
  }
  ok = ok && expect(p, '}', "to close entry_computation_layout");
  p->pos = save_pos;
  p->end = save_end;
  return ok;
}

bool hlo_sniff(const char *text, size_t len) {
  P p = {0};
  p.src = text;
  p.end = len;
  p.file = -1;
  p.failed = true; /* silence: sniffing never reports */
  skip_ws(&p);
  if (word_at(&p, "HloModule")) return true;
  /* [ENTRY] %name (...) -> shape {   or   name {  */
  if (word_at(&p, "ENTRY")) return true;
  if (peekc(&p) == '%') return true;
  return false;
}

/* ---------------------------------------------------------------------------
 * Sub-parsers that run on an attribute value's span
 * ------------------------------------------------------------------------- */
static void sub_init(P *sub, const P *p, uint32_t off, uint32_t end) {
  *sub = *p;
  sub->pos = off;
  sub->end = end;
}

/* Propagates the sub-parser's failure; checks nothing is left over. */
static bool sub_done(P *p, P *sub, bool ok) {
  if (ok && !sub->failed) {
    skip_ws(sub);
    if (sub->pos < sub->end && !sub->failed) {
      fail_at(sub, sub->pos, "unexpected text in attribute value");
      ok = false;
    }
  }
  if (sub->failed) p->failed = true;
  return ok && !sub->failed;
}

typedef VEC(int64_t) I64Vec;

/* {1, 2, 3} (braces optional for a single integer) */
static bool sub_int_list(P *s, I64Vec *out) {
  skip_ws(s);
  if (peekc(s) != '{') {
    int64_t v;
    if (!parse_int(s, &v)) return false;
    VEC_PUSH(*out, v);
    return true;
  }
  s->pos++;
  skip_ws(s);
  if (peekc(s) == '}') {
    s->pos++;
    return true;
  }
  for (;;) {
    int64_t v;
    if (!parse_int(s, &v)) return false;
    VEC_PUSH(*out, v);
    if (!accept(s, ',')) break;
  }
  return expect(s, '}', "to close the integer list");
}

static bool sub_bool(P *s, bool *out) {
  skip_ws(s);
  if (word_at(s, "true")) {
    s->pos += 4;
    *out = true;
    return true;
  }
  if (word_at(s, "false")) {
    s->pos += 5;
    *out = false;
    return true;
  }
  return fail_at(s, s->pos, "expected 'true' or 'false'");
}

static bool sub_word(P *s, Span *out) {
  skip_ws(s);
  size_t st = s->pos;
  while (s->pos < s->end && (isalnum(peekc(s)) || peekc(s) == '_')) s->pos++;
  if (s->pos == st) return fail_at(s, st, "expected a keyword");
  *out = (Span){(uint32_t)st, (uint32_t)(s->pos - st)};
  return true;
}

/* "..." with C escapes, unescaped into sb */
static bool sub_string(P *s, StrBuf *sb) {
  skip_ws(s);
  if (peekc(s) != '"') return fail_at(s, s->pos, "expected a string");
  size_t st = s->pos++;
  while (s->pos < s->end && s->src[s->pos] != '"') {
    char c = s->src[s->pos++];
    if (c != '\\') {
      sb_putc(sb, c);
      continue;
    }
    if (s->pos >= s->end) break;
    char e = s->src[s->pos++];
    switch (e) {
    case 'n': sb_putc(sb, '\n'); break;
    case 't': sb_putc(sb, '\t'); break;
    case 'r': sb_putc(sb, '\r'); break;
    case 'x': {
      int v = 0, k = 0;
      while (k < 2 && isxdigit(peekc(s))) {
        int d = peekc(s);
        v = v * 16 + (isdigit(d) ? d - '0' : (tolower(d) - 'a' + 10));
        s->pos++;
        k++;
      }
      sb_putc(sb, (char)v);
      break;
    }
    default:
      if (e >= '0' && e <= '7') {
        int v = e - '0', k = 1;
        while (k < 3 && peekc(s) >= '0' && peekc(s) <= '7') {
          v = v * 8 + (peekc(s) - '0');
          s->pos++;
          k++;
        }
        sb_putc(sb, (char)v);
      } else {
        sb_putc(sb, e);
      }
    }
  }
  if (s->pos >= s->end) return fail_at(s, st, "unterminated string");
  s->pos++;
  return true;
}

/* `AxBxC` where each item is an integer or (for pads) `lo_hi` / `lo_hi_int` */
static bool sub_x_list(P *s, int per_item, I64Vec *out) {
  for (;;) {
    for (int k = 0; k < per_item; k++) {
      int64_t v;
      if (k && !(peekc(s) == '_' && (s->pos++, true))) return fail_at(s, s->pos, "expected '_'");
      if (!parse_int(s, &v)) return false;
      VEC_PUSH(*out, v);
    }
    if (peekc(s) != 'x') break;
    s->pos++;
  }
  return true;
}

/* ---------------------------------------------------------------------------
 * Build phase
 * ------------------------------------------------------------------------- */
typedef struct Slot {
  Value *v;      /* the value (single-result op, alias, block argument) */
  Op *multi;     /* multi-result op standing for a tuple-typed instruction */
  Value *tuple;  /* materialized stablehlo.tuple of multi's results */
  int pending;   /* async start / send / recv: its instruction index + 1 */
  uint8_t state; /* 0 not built, 1 building, 2 built */
  uint8_t walk;  /* build_in_order: 0 not seen, 1 on its stack, 2 done */
  int next;      /* build_in_order: the next operand to visit */
} Slot;

typedef struct Env {
  HComp *c;
  Block *blk;
  Slot *slots;
  int *stack;    /* build_in_order's explicit stack, one entry per instruction */
  int depth;     /* nesting of computations */
} Env;

/* What an instruction is built from: usually one record, but an async
   `-done` is built from its `-start` record with its own type and slot. */
typedef struct Ctx {
  P *p;
  Env *env;
  HInst *in;     /* operands and attributes come from here */
  int idx;       /* slot to fill */
  Type *type;    /* result type */
  const char *opc;
  size_t opclen;
  bool *used;    /* attributes consumed */
  SrcLoc loc;
} Ctx;

static bool instantiate(P *p, HComp *c, Block *blk, Value *const *subst, int kind, int depth);
enum { BODY_FUNC, BODY_REGION, BODY_REGION_FLAT };

static bool opc_is(const Ctx *x, const char *s) {
  return strlen(s) == x->opclen && memcmp(x->opc, s, x->opclen) == 0;
}

static HAttr *get_attr(Ctx *x, const char *name) {
  size_t n = strlen(name);
  for (int i = 0; i < x->in->nattrs; i++) {
    HAttr *a = &x->in->attrs[i];
    if (a->name.len == n && memcmp(x->p->src + a->name.off, name, n) == 0) {
      x->used[i] = true;
      return a;
    }
  }
  return NULL;
}

static bool attr_ints_of(Ctx *x, const char *name, I64Vec *out, bool required) {
  HAttr *a = get_attr(x, name);
  if (!a) return required ? fail_at(x->p, x->in->opcode.off, "missing attribute '%s'", name) : true;
  P s;
  sub_init(&s, x->p, a->voff, a->vend);
  return sub_done(x->p, &s, sub_int_list(&s, out));
}

static bool attr_int_of(Ctx *x, const char *name, int64_t *out, bool required) {
  HAttr *a = get_attr(x, name);
  if (!a) return required ? fail_at(x->p, x->in->opcode.off, "missing attribute '%s'", name) : true;
  P s;
  sub_init(&s, x->p, a->voff, a->vend);
  return sub_done(x->p, &s, parse_int(&s, out));
}

static bool attr_bool_of(Ctx *x, const char *name, bool *out) {
  HAttr *a = get_attr(x, name);
  if (!a) return true;
  P s;
  sub_init(&s, x->p, a->voff, a->vend);
  return sub_done(x->p, &s, sub_bool(&s, out));
}

static bool attr_word_of(Ctx *x, const char *name, Span *out) {
  HAttr *a = get_attr(x, name);
  if (!a) return true;
  P s;
  sub_init(&s, x->p, a->voff, a->vend);
  return sub_done(x->p, &s, sub_word(&s, out));
}

static Module *MOD(Ctx *x) { return x->p->m; }

static void set_ints(Ctx *x, Op *op, const char *name, const I64Vec *v) {
  op_set_attr(MOD(x), op, name, attr_ints(MOD(x), v->len, v->data));
}

static Attr *dense_i64(Module *m, int rows, int cols, const int64_t *v) {
  int64_t dims[2] = {rows, cols};
  Type *t = type_tensor(&m->arena, ET_S64, 2, dims);
  Literal *l = lit_new_in(&m->arena, t);
  for (int64_t i = 0; i < (int64_t)rows * cols; i++) lit_set_i(l, i, v[i]);
  return attr_dense(m, l);
}

static Attr *bools_attr(Module *m, int n, const int64_t *v) {
  Attr *a = attr_ints(m, n, v);
  a->kind = ATTR_BOOLS;
  return a;
}

/* Looks a computation up by name (with or without '%'). */
static HComp *comp_ref(P *p, P *s) {
  Span n;
  if (!lex_name(s, &n, "a computation name")) return NULL;
  HComp *c = strmap_getn(&p->comp_names, s->src + n.off, n.len);
  if (!c) fail_at(s, n.off, "unknown computation '%.*s'", (int)n.len, s->src + n.off);
  return c;
}

/* Adds a region to op built from the computation named by attribute attr. */
static bool add_region(Ctx *x, Op *op, const char *attr, int kind) {
  HAttr *a = get_attr(x, attr);
  if (!a) return fail_at(x->p, x->in->opcode.off, "missing attribute '%s'", attr);
  P s;
  sub_init(&s, x->p, a->voff, a->vend);
  HComp *c = comp_ref(x->p, &s);
  if (!sub_done(x->p, &s, c != NULL)) return false;
  Block *b = block_new(MOD(x));
  op_add_region(MOD(x), op, b);
  return instantiate(x->p, c, b, NULL, kind, x->env->depth + 1);
}

/* ---- operands ---- */
static bool build_inst(P *p, Env *env, int idx);

static int lookup_inst(P *p, Env *env, Span s) {
  int idx = (int)(intptr_t)strmap_getn(&env->c->names, p->src + s.off, s.len) - 1;
  if (idx < 0) fail_at(p, s.off, "use of undefined value '%.*s'", (int)s.len, p->src + s.off);
  return idx;
}

static Value *slot_value(P *p, Env *env, int idx, uint32_t useoff) {
  Slot *sl = &env->slots[idx];
  if (sl->pending) {
    fail_at(p, useoff, "this use of an asynchronous start is not supported (only its '-done')");
    return NULL;
  }
  if (sl->multi && !sl->tuple) {
    Op *m = sl->multi;
    Value **vals = xmalloc(sizeof(Value *) * (size_t)(m->nres ? m->nres : 1));
    Type **tys = xmalloc(sizeof(Type *) * (size_t)(m->nres ? m->nres : 1));
    for (int i = 0; i < m->nres; i++) {
      vals[i] = &m->res[i];
      tys[i] = m->res[i].type;
    }
    Type *tt = type_tuple(&p->m->arena, m->nres, tys);
    Op *t = op_new(p->m, OP_TUPLE, m->nres, vals, 1, &tt, m->loc);
    xfree(vals);
    xfree(tys);
    block_append(env->blk, t);
    sl->tuple = &t->res[0];
  }
  if (sl->multi) return sl->tuple;
  return sl->v;
}

static bool operand_slot(Ctx *x, int k, int *idx) {
  *idx = lookup_inst(x->p, x->env, x->in->opnds[k]);
  if (*idx < 0) return false;
  return build_inst(x->p, x->env, *idx);
}

static Value *operand(Ctx *x, int k) {
  int idx;
  if (!operand_slot(x, k, &idx)) return NULL;
  return slot_value(x->p, x->env, idx, x->in->opnds[k].off);
}

static bool all_operands(Ctx *x, Value **out) {
  for (int k = 0; k < x->in->nopnds; k++)
    if (!(out[k] = operand(x, k))) return false;
  return true;
}

static bool want_operands(Ctx *x, int n) {
  if (x->in->nopnds == n) return true;
  return fail_at(x->p, x->in->opcode.off, "'%.*s' takes %d operand%s, got %d", (int)x->opclen,
                 x->opc, n, n == 1 ? "" : "s", x->in->nopnds);
}

/* Creates the op (not yet appended) for the current instruction.  A tuple
   result type becomes several results when multi is set. */
static Op *new_op(Ctx *x, OpKind k, int n, Value **ops, bool multi) {
  Module *m = MOD(x);
  Op *op;
  if (multi && x->type->kind == TY_TUPLE) {
    op = op_new(m, k, n, ops, x->type->ntuple, x->type->tuple, x->loc);
    x->env->slots[x->idx].multi = op;
  } else {
    op = op_new(m, k, n, ops, 1, &x->type, x->loc);
    op->res[0].name = span_dup(x->p, &m->arena, x->in == &x->env->c->insts[x->idx]
                                                      ? x->in->name
                                                      : x->env->c->insts[x->idx].name);
    x->env->slots[x->idx].v = &op->res[0];
  }
  x->p->built_ops++;
  return op;
}

/* ---- literals ---- */
static uint64_t xorshift(uint64_t *s) {
  uint64_t v = *s;
  v ^= v << 13;
  v ^= v >> 7;
  v ^= v << 17;
  return *s = v;
}

static bool number_token(P *s, char *buf, size_t cap, size_t *start) {
  skip_ws(s);
  *start = s->pos;
  size_t n = 0;
  while (s->pos < s->end) {
    int c = peekc(s);
    if (!(isalnum(c) || c == '.' || c == '-' || c == '+' || c == '_')) break;
    if (n + 1 >= cap) return fail_at(s, *start, "number is too long");
    buf[n++] = (char)c;
    s->pos++;
  }
  if (n >= 3 && strncmp(buf + n - 3, "nan", 3) == 0 && peekc(s) == '(') { /* nan(0x...) payload */
    while (s->pos < s->end && peekc(s) != ')') s->pos++;
    if (s->pos < s->end) s->pos++;
  }
  buf[n] = 0;
  if (!n) return fail_at(s, *start, "expected a number");
  return true;
}

static bool parse_float_tok(P *s, const char *buf, size_t at, double *out) {
  if (!strcmp(buf, "inf") || !strcmp(buf, "+inf")) *out = INFINITY;
  else if (!strcmp(buf, "-inf")) *out = -INFINITY;
  else if (!strcmp(buf, "nan") || !strcmp(buf, "+nan")) *out = NAN;
  else if (!strcmp(buf, "-nan")) *out = -NAN;
  else if (!strcmp(buf, "true")) *out = 1;
  else if (!strcmp(buf, "false")) *out = 0;
  else {
    char *e;
    errno = 0;
    *out = strtod(buf, &e);
    if (*e || e == buf || isnan(*out) || isinf(*out)) {
      if (!*e && e != buf && isinf(*out)) return true; /* 1e999 overflows to inf: fine */
      return fail_at(s, at, "invalid floating-point literal '%s'", buf);
    }
  }
  return true;
}

static bool parse_elem(P *s, Literal *l, int64_t i) {
  ElemType et = lit_elem(l);
  char buf[128];
  size_t at;
  if (et_is_complex(et)) {
    double re, im;
    if (!expect(s, '(', "to open a complex value")) return false;
    if (!number_token(s, buf, sizeof buf, &at) || !parse_float_tok(s, buf, at, &re)) return false;
    if (!expect(s, ',', "between the parts of a complex value")) return false;
    if (!number_token(s, buf, sizeof buf, &at) || !parse_float_tok(s, buf, at, &im)) return false;
    if (!expect(s, ')', "to close a complex value")) return false;
    lit_set_c(l, i, re, im);
    return true;
  }
  if (!number_token(s, buf, sizeof buf, &at)) return false;
  if (et_is_pred(et)) {
    if (!strcmp(buf, "true") || !strcmp(buf, "1")) lit_set_b(l, i, true);
    else if (!strcmp(buf, "false") || !strcmp(buf, "0")) lit_set_b(l, i, false);
    else return fail_at(s, at, "invalid pred literal '%s'", buf);
    return true;
  }
  if (et_is_float(et)) {
    double v;
    if (!parse_float_tok(s, buf, at, &v)) return false;
    lit_set_f(l, i, v);
    return true;
  }
  char *e;
  errno = 0;
  if (et_is_unsigned(et)) {
    if (buf[0] == '-') return fail_at(s, at, "negative value for an unsigned type");
    unsigned long long v = strtoull(buf, &e, 10);
    if (*e || e == buf || errno) return fail_at(s, at, "invalid integer literal '%s'", buf);
    int bits = et_bits(et);
    if (bits < 64 && v >> bits) return fail_at(s, at, "value %s does not fit in %s", buf, elem_info[et].hlo_name);
    lit_set_u(l, i, v);
  } else {
    long long v = strtoll(buf, &e, 10);
    if (*e || e == buf || errno) return fail_at(s, at, "invalid integer literal '%s'", buf);
    int bits = et_bits(et);
    if (bits < 64 && (v < -(1ll << (bits - 1)) || v >= (1ll << (bits - 1))))
      return fail_at(s, at, "value %s does not fit in %s", buf, elem_info[et].hlo_name);
    lit_set_i(l, i, v);
  }
  return true;
}

static bool parse_nested(P *s, Literal *l, int dim, int64_t *pos) {
  const Type *t = l->type;
  if (dim == t->rank) {
    if (*pos >= l->n) return fail_at(s, s->pos, "too many elements in the literal");
    return parse_elem(s, l, (*pos)++);
  }
  size_t st = s->pos;
  if (!expect(s, '{', "to open a literal dimension")) return false;
  int64_t count = 0;
  skip_ws(s);
  if (peekc(s) != '}') {
    for (;;) {
      if (!parse_nested(s, l, dim + 1, pos)) return false;
      count++;
      if (!accept(s, ',')) break;
    }
  }
  if (!expect(s, '}', "to close a literal dimension")) return false;
  if (count != t->dims[dim])
    return fail_at(s, st, "literal dimension %d has %lld elements, the shape says %lld", dim,
                   (long long)count, (long long)t->dims[dim]);
  return true;
}

static void fill_pseudo_random(Literal *l) {
  uint64_t st = 0x9E3779B97F4A7C15ull;
  ElemType et = lit_elem(l);
  for (int64_t i = 0; i < l->n; i++) {
    uint64_t r = xorshift(&st);
    if (et_is_pred(et)) lit_set_b(l, i, r & 1);
    else if (et_is_int(et)) lit_set_i(l, i, (int64_t)(r % 8));
    else {
      double v = (double)((int64_t)(r % 2001) - 1000) / 1000.0; /* [-1, 1] in steps of 1e-3 */
      if (et_is_complex(et)) lit_set_c(l, i, v, (double)((int64_t)((r >> 20) % 2001) - 1000) / 1000.0);
      else lit_set_f(l, i, v);
    }
  }
}

static bool map_constant(Ctx *x) {
  P *p = x->p;
  if (x->type->kind != TY_TENSOR)
    return fail_at(p, x->in->opcode.off, "tuple and token constants are not supported");
  /* the shape is the input's: an allocation too large is reported here */
  OomLoc prev = oom_set_loc(x->loc, "constant");
  Literal *l = lit_new_in(&p->m->arena, x->type);
  oom_restore_loc(prev);
  P s;
  sub_init(&s, p, x->in->args_off, x->in->args_end);
  skip_ws(&s);
  bool ok;
  if (x->type->rank > 0 && peekc(&s) == '{' && s.pos + 4 <= s.end &&
      memcmp(s.src + s.pos, "{...", 4) == 0) {
    s.pos += 4;
    ok = expect(&s, '}', "after '{...'");
    if (ok) {
      warning_at(loc_at(p, x->in->args_off),
                 "constant '%.*s' was elided in the dump; using deterministic pseudo-random values",
                 (int)x->in->name.len, p->src + x->in->name.off);
      fill_pseudo_random(l);
    }
  } else if (x->type->rank == 0) {
    ok = parse_elem(&s, l, 0);
  } else {
    int64_t pos = 0;
    ok = parse_nested(&s, l, 0, &pos);
    if (ok && pos != l->n) ok = fail_at(&s, x->in->args_off, "literal has too few elements");
  }
  if (!sub_done(p, &s, ok)) return false;
  Op *op = new_op(x, OP_CONSTANT, 0, NULL, false);
  op_set_attr(p->m, op, "value", attr_dense(p->m, l));
  block_append(x->env->blk, op);
  return true;
}

/* ---- structured attributes ---- */
typedef struct Window {
  int n;
  I64Vec size, stride, pad, lhs, rhs, rev;
} Window;

static void window_free(Window *w) {
  VEC_FREE(w->size);
  VEC_FREE(w->stride);
  VEC_FREE(w->pad);
  VEC_FREE(w->lhs);
  VEC_FREE(w->rhs);
  VEC_FREE(w->rev);
}

/* window={size=3x3 stride=2x2 pad=1_1x1_1 lhs_dilate=.. rhs_dilate=.. rhs_reversal=..}
   Missing fields take their defaults; rank is `rank` when there is no window. */
static bool parse_window(Ctx *x, Window *w, int rank) {
  memset(w, 0, sizeof *w);
  HAttr *a = get_attr(x, "window");
  P s;
  bool ok = true;
  if (a) {
    sub_init(&s, x->p, a->voff, a->vend);
    ok = expect(&s, '{', "to open the window");
    while (ok) {
      skip_ws(&s);
      if (peekc(&s) == '}') {
        s.pos++;
        break;
      }
      Span k;
      if (!(ok = sub_word(&s, &k))) break;
      if (!(ok = expect(&s, '=', "after the window field name"))) break;
      skip_ws(&s);
      I64Vec *dst = NULL;
      int per = 1;
      if (span_is(&s, k, "size")) dst = &w->size;
      else if (span_is(&s, k, "stride")) dst = &w->stride;
      else if (span_is(&s, k, "pad")) dst = &w->pad, per = 2;
      else if (span_is(&s, k, "lhs_dilate")) dst = &w->lhs;
      else if (span_is(&s, k, "rhs_dilate")) dst = &w->rhs;
      else if (span_is(&s, k, "rhs_reversal")) dst = &w->rev;
      else {
        ok = fail_at(&s, k.off, "unknown window field '%.*s'", (int)k.len, s.src + k.off);
        break;
      }
      ok = sub_x_list(&s, per, dst);
    }
    if (!sub_done(x->p, &s, ok)) {
      window_free(w);
      return false;
    }
    rank = w->size.len;
  }
  w->n = rank;
  struct {
    I64Vec *v;
    int per;
    int64_t def;
    const char *name;
  } f[] = {{&w->size, 1, 1, "size"},     {&w->stride, 1, 1, "stride"},     {&w->pad, 2, 0, "pad"},
           {&w->lhs, 1, 1, "lhs_dilate"}, {&w->rhs, 1, 1, "rhs_dilate"}, {&w->rev, 1, 0, "rhs_reversal"}};
  for (size_t i = 0; i < ARRAY_LEN(f); i++) {
    if (f[i].v->len == 0)
      for (int k = 0; k < rank * f[i].per; k++) VEC_PUSH(*f[i].v, f[i].def);
    if (f[i].v->len != rank * f[i].per) {
      window_free(w);
      return fail_at(x->p, a->voff, "window field '%s' has %d entries, expected %d", f[i].name,
                     f[i].v->len / f[i].per, rank);
    }
  }
  return true;
}

/* replica_groups={{0,1},{2,3}} or the iota form [G,S]<=[dims]T(perm) -> DENSE GxS */
static bool parse_replica_groups(Ctx *x, Op *op) {
  HAttr *a = get_attr(x, "replica_groups");
  if (!a) return true;
  P s;
  sub_init(&s, x->p, a->voff, a->vend);
  I64Vec all = {0};
  int rows = 0, cols = 0;
  bool ok = true;
  skip_ws(&s);
  if (peekc(&s) == '[') {
    /* iota list: [G,S]<=[d0,d1..] optionally T(p0,p1..) */
    I64Vec gs = {0}, rd = {0}, perm = {0};
    s.pos++;
    while (ok) {
      int64_t v;
      if (!(ok = parse_int(&s, &v))) break;
      VEC_PUSH(gs, v);
      if (!accept(&s, ',')) break;
    }
    ok = ok && expect(&s, ']', "in the replica group list") && expect(&s, '<', "in '<='") &&
         expect(&s, '=', "in '<='") && expect(&s, '[', "in the replica group list");
    while (ok) {
      int64_t v;
      if (!(ok = parse_int(&s, &v))) break;
      VEC_PUSH(rd, v);
      if (!accept(&s, ',')) break;
    }
    ok = ok && expect(&s, ']', "in the replica group list");
    skip_ws(&s);
    if (ok && peekc(&s) == 'T') {
      s.pos++;
      ok = expect(&s, '(', "after 'T'");
      while (ok) {
        int64_t v;
        if (!(ok = parse_int(&s, &v))) break;
        VEC_PUSH(perm, v);
        if (!accept(&s, ',')) break;
      }
      ok = ok && expect(&s, ')', "to close the transpose");
    }
    int64_t total = 1;
    for (int i = 0; ok && i < rd.len; i++) {
      if (rd.data[i] <= 0 || rd.data[i] > 1 << 20 || total * rd.data[i] > 1 << 20) ok = fail_at(&s, a->voff, "replica group list is too large");
      else total *= rd.data[i];
    }
    if (ok && (gs.len != 2 || gs.data[0] * gs.data[1] != total || gs.data[0] < 0 || gs.data[1] < 0))
      ok = fail_at(&s, a->voff, "replica group list shape does not match its device count");
    if (ok && perm.len && perm.len != rd.len) ok = fail_at(&s, a->voff, "transpose does not match the reshape");
    if (ok) {
      /* element at transposed index j: walk the transposed shape in row-major order */
      int r = rd.len;
      int64_t tdims[64], strides[64], idx[64] = {0};
      shape_strides(r, rd.data, strides);
      for (int i = 0; i < r; i++) {
        int64_t pi = perm.len ? perm.data[i] : i;
        if (pi < 0 || pi >= r) { ok = fail_at(&s, a->voff, "bad transpose permutation"); break; }
        tdims[i] = rd.data[pi];
      }
      for (int64_t j = 0; ok && j < total; j++) {
        int64_t off = 0;
        for (int i = 0; i < r; i++) off += idx[i] * strides[perm.len ? perm.data[i] : i];
        VEC_PUSH(all, off);
        index_next(r, tdims, idx);
      }
      rows = (int)gs.data[0];
      cols = (int)gs.data[1];
    }
    VEC_FREE(gs);
    VEC_FREE(rd);
    VEC_FREE(perm);
  } else {
    VEC(I64Vec) groups = {0};
    ok = expect(&s, '{', "to open the replica groups");
    skip_ws(&s);
    if (ok && peekc(&s) != '}') {
      for (;;) {
        I64Vec g = {0};
        ok = sub_int_list(&s, &g);
        VEC_PUSH(groups, g);
        if (!ok || !accept(&s, ',')) break;
      }
    }
    ok = ok && expect(&s, '}', "to close the replica groups");
    for (int i = 0; i < groups.len; i++)
      if (groups.data[i].len > cols) cols = groups.data[i].len;
    rows = groups.len;
    for (int i = 0; i < groups.len; i++) {
      for (int k = 0; k < cols; k++) VEC_PUSH(all, k < groups.data[i].len ? groups.data[i].data[k] : -1);
      VEC_FREE(groups.data[i]);
    }
    VEC_FREE(groups);
  }
  if (sub_done(x->p, &s, ok)) op_set_attr(MOD(x), op, "replica_groups", dense_i64(MOD(x), rows, cols, all.data));
  VEC_FREE(all);
  return !x->p->failed;
}

static bool parse_channel(Ctx *x, Op *op) {
  int64_t ch = -1;
  if (!attr_int_of(x, "channel_id", &ch, false)) return false;
  if (ch < 0) return true;
  Module *m = MOD(x);
  const char *keys[2] = {"handle", "type"};
  bool host = false;
  Attr *v[2] = {attr_int(m, ch, NULL), attr_int(m, 1, NULL)};
  /* the host-transfer flag decides the channel type for send/recv */
  for (int i = 0; i < x->in->nattrs; i++)
    if (span_is(x->p, x->in->attrs[i].name, "is_host_transfer")) {
      P s;
      sub_init(&s, x->p, x->in->attrs[i].voff, x->in->attrs[i].vend);
      sub_bool(&s, &host);
    }
  if (host) v[1] = attr_int(m, opc_is(x, "send") ? 2 : 3, NULL);
  op_set_attr(m, op, "channel_handle", attr_dict(m, "stablehlo.channel_handle", 2, keys, v));
  return true;
}

/* metadata={op_type="..." op_name="..." source_line=12} -> DICT */
static Attr *parse_metadata(P *p, uint32_t off, uint32_t end) {
  P s;
  sub_init(&s, p, off, end);
  s.failed = false;
  VEC(const char *) keys = {0};
  VEC(Attr *) vals = {0};
  bool ok = expect(&s, '{', "to open the metadata");
  while (ok) {
    skip_ws(&s);
    if (peekc(&s) == '}') {
      s.pos++;
      break;
    }
    Span k;
    if (!(ok = sub_word(&s, &k)) || !(ok = expect(&s, '=', "after the metadata key"))) break;
    skip_ws(&s);
    Attr *v;
    if (peekc(&s) == '"') {
      StrBuf sb = {0};
      ok = sub_string(&s, &sb);
      v = attr_string(p->m, sb.data ? sb.data : "", sb.len);
      sb_free(&sb);
    } else if (isdigit(peekc(&s)) || peekc(&s) == '-') {
      int64_t iv = 0;
      ok = parse_int(&s, &iv);
      v = attr_int(p->m, iv, NULL);
    } else {
      uint32_t a, b;
      ok = capture_value(&s, &a, &b);
      v = ok ? ARENA_NEW(&p->m->arena, Attr) : NULL;
      if (v) {
        v->kind = ATTR_OPAQUE;
        v->name = "hlo"; /* HLO syntax: other printers must quote it */
        v->s = arena_strndup(&p->m->arena, s.src + a, b - a);
        v->slen = b - a;
      }
    }
    if (!ok) break;
    VEC_PUSH(keys, span_dup(p, &p->m->arena, k));
    VEC_PUSH(vals, v);
  }
  Attr *r = NULL;
  if (ok && !s.failed) r = attr_dict(p->m, NULL, keys.len, keys.data, vals.data);
  VEC_FREE(keys);
  VEC_FREE(vals);
  return r;
}

static Attr *opaque(Module *m, const char *s, size_t n) {
  Attr *a = ARENA_NEW(&m->arena, Attr);
  a->kind = ATTR_OPAQUE;
  a->name = "hlo"; /* HLO syntax: other printers must quote it */
  a->s = arena_strndup(&m->arena, s, n);
  a->slen = n;
  return a;
}

/* Unconsumed attributes are kept for the printer: metadata as a DICT, the
   rest verbatim. */
static void keep_rest(Ctx *x, Op *op) {
  P *p = x->p;
  for (int i = 0; i < x->in->nattrs; i++) {
    if (x->used[i]) continue;
    HAttr *a = &x->in->attrs[i];
    char *name = span_dup(p, &p->m->arena, a->name);
    Attr *v = NULL;
    if (!strcmp(name, "metadata")) v = parse_metadata(p, a->voff, a->vend);
    if (!v) v = opaque(p->m, p->src + a->voff, a->vend - a->voff);
    op_set_attr(p->m, op, name, v);
  }
}

static Attr *enum_upper(Module *m, const char *name, const char *s, size_t n) {
  char buf[64];
  if (n >= sizeof buf) n = sizeof buf - 1;
  for (size_t i = 0; i < n; i++) buf[i] = (char)toupper((unsigned char)s[i]);
  buf[n] = 0;
  return attr_enum(m, name, buf);
}

static bool parse_precision(Ctx *x, Op *op) {
  HAttr *a = get_attr(x, "operand_precision");
  if (!a) return true;
  P s;
  sub_init(&s, x->p, a->voff, a->vend);
  VEC(Attr *) v = {0};
  bool ok = expect(&s, '{', "to open the precision list");
  skip_ws(&s);
  if (ok && peekc(&s) != '}') {
    for (;;) {
      Span w;
      if (!(ok = sub_word(&s, &w))) break;
      if (!span_is(&s, w, "default") && !span_is(&s, w, "high") && !span_is(&s, w, "highest") &&
          !span_is(&s, w, "DEFAULT") && !span_is(&s, w, "HIGH") && !span_is(&s, w, "HIGHEST")) {
        ok = fail_at(&s, w.off, "unknown precision '%.*s'", (int)w.len, s.src + w.off);
        break;
      }
      VEC_PUSH(v, enum_upper(MOD(x), "precision", s.src + w.off, w.len));
      if (!accept(&s, ',')) break;
    }
  }
  ok = ok && expect(&s, '}', "to close the precision list");
  if (sub_done(x->p, &s, ok)) op_set_attr(MOD(x), op, "precision_config", attr_array(MOD(x), v.len, v.data));
  VEC_FREE(v);
  return !x->p->failed;
}

/* dim_labels=b01f_01io->b01f */
static bool parse_dim_labels(Ctx *x, Op *op, int nspatial) {
  HAttr *a = get_attr(x, "dim_labels");
  if (!a) return fail_at(x->p, x->in->opcode.off, "missing attribute 'dim_labels'");
  const char *t = x->p->src + a->voff;
  size_t n = a->vend - a->voff;
  const char *us = memchr(t, '_', n);
  const char *ar = NULL;
  for (size_t i = 0; i + 1 < n; i++)
    if (t[i] == '-' && t[i + 1] == '>') ar = t + i;
  if (!us || !ar || us > ar) return fail_at(x->p, a->voff, "malformed dim_labels (expected like b01f_01io->b01f)");
  struct {
    const char *s;
    size_t n;
    char c1, c2;
  } part[3] = {{t, (size_t)(us - t), 'b', 'f'}, {us + 1, (size_t)(ar - us - 1), 'i', 'o'}, {ar + 2, (size_t)(t + n - ar - 2), 'b', 'f'}};
  int64_t d1[3], d2[3], sp[3][64];
  for (int k = 0; k < 3; k++) {
    d1[k] = d2[k] = -1;
    if ((int)part[k].n != nspatial + 2)
      return fail_at(x->p, (uint32_t)(part[k].s - x->p->src), "dim_labels part has %d letters, expected %d",
                     (int)part[k].n, nspatial + 2);
    for (int i = 0; i < nspatial; i++) sp[k][i] = -1;
    for (size_t i = 0; i < part[k].n; i++) {
      char c = part[k].s[i];
      if (c == part[k].c1 && d1[k] < 0) d1[k] = (int64_t)i;
      else if (c == part[k].c2 && d2[k] < 0) d2[k] = (int64_t)i;
      else if (isdigit((unsigned char)c) && c - '0' < nspatial && sp[k][c - '0'] < 0) sp[k][c - '0'] = (int64_t)i;
      else return fail_at(x->p, (uint32_t)(part[k].s + i - x->p->src), "unexpected '%c' in dim_labels", c);
    }
  }
  Module *m = MOD(x);
  const char *keys[9] = {"input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions",
                         "kernel_input_feature_dimension", "kernel_output_feature_dimension",
                         "kernel_spatial_dimensions", "output_batch_dimension", "output_feature_dimension",
                         "output_spatial_dimensions"};
  Attr *v[9];
  for (int k = 0; k < 3; k++) {
    v[3 * k] = attr_int(m, d1[k], NULL);
    v[3 * k + 1] = attr_int(m, d2[k], NULL);
    v[3 * k + 2] = attr_ints(m, nspatial, sp[k]);
  }
  op_set_attr(m, op, "dimension_numbers", attr_dict(m, "stablehlo.conv", 9, keys, v));
  return true;
}

/* A DICT of integer lists/ints read from HLO attribute names. */
typedef struct DimField {
  const char *hlo, *ir;
  bool scalar, required;
} DimField;

static bool dims_dict(Ctx *x, Op *op, const char *attr, const char *dname, const DimField *f, int n) {
  Module *m = MOD(x);
  const char *keys[16];
  Attr *vals[16];
  for (int i = 0; i < n; i++) {
    keys[i] = f[i].ir;
    if (f[i].scalar) {
      int64_t v = 0;
      if (!attr_int_of(x, f[i].hlo, &v, f[i].required)) return false;
      vals[i] = attr_int(m, v, NULL);
    } else {
      I64Vec v = {0};
      bool ok = attr_ints_of(x, f[i].hlo, &v, f[i].required);
      vals[i] = attr_ints(m, v.len, v.data);
      VEC_FREE(v);
      if (!ok) return false;
    }
  }
  op_set_attr(m, op, attr, attr_dict(m, dname, n, keys, vals));
  return true;
}

static bool bool_attr(Ctx *x, Op *op, const char *hlo, const char *ir, bool always) {
  bool b = false;
  bool present = false;
  for (int i = 0; i < x->in->nattrs; i++) present |= span_is(x->p, x->in->attrs[i].name, hlo);
  if (!attr_bool_of(x, hlo, &b)) return false;
  if (present || always) op_set_attr(MOD(x), op, ir, attr_bool(MOD(x), b));
  return true;
}

static bool int_attr(Ctx *x, Op *op, const char *hlo, const char *ir, bool required, int64_t def) {
  int64_t v = def;
  HAttr *a = NULL;
  for (int i = 0; i < x->in->nattrs; i++)
    if (span_is(x->p, x->in->attrs[i].name, hlo)) a = &x->in->attrs[i];
  if (!attr_int_of(x, hlo, &v, required)) return false;
  if (a || !required) op_set_attr(MOD(x), op, ir, attr_int(MOD(x), v, NULL));
  return true;
}

/* dimensions={d} as a single INT */
static bool single_dim(Ctx *x, Op *op, const char *ir) {
  I64Vec v = {0};
  if (!attr_ints_of(x, "dimensions", &v, true)) {
    VEC_FREE(v); /* a prefix may have parsed before the error */
    return false;
  }
  bool ok = v.len == 1 || fail_at(x->p, x->in->opcode.off, "expected exactly one entry in 'dimensions'");
  if (ok) op_set_attr(MOD(x), op, ir, attr_int(MOD(x), v.data[0], NULL));
  VEC_FREE(v);
  return ok;
}

static bool ints_attr(Ctx *x, Op *op, const char *hlo, const char *ir, bool required) {
  I64Vec v = {0};
  HAttr *a = NULL;
  for (int i = 0; i < x->in->nattrs; i++)
    if (span_is(x->p, x->in->attrs[i].name, hlo)) a = &x->in->attrs[i];
  bool ok = attr_ints_of(x, hlo, &v, required);
  if (ok && (a || required)) set_ints(x, op, ir, &v);
  VEC_FREE(v);
  return ok;
}

static bool enum_attr(Ctx *x, Op *op, const char *hlo, const char *ir, const char *enum_name,
                      const char *const *allowed, const char *const *values, bool required) {
  Span w = {0, 0};
  HAttr *a = NULL;
  for (int i = 0; i < x->in->nattrs; i++)
    if (span_is(x->p, x->in->attrs[i].name, hlo)) a = &x->in->attrs[i];
  if (!a) return required ? fail_at(x->p, x->in->opcode.off, "missing attribute '%s'", hlo) : true;
  if (!attr_word_of(x, hlo, &w)) return false;
  for (int i = 0; allowed[i]; i++)
    if (span_is(x->p, w, allowed[i])) {
      op_set_attr(MOD(x), op, ir, attr_enum(MOD(x), enum_name, values[i]));
      return true;
    }
  return fail_at(x->p, w.off, "unknown %s '%.*s'", hlo, (int)w.len, x->p->src + w.off);
}

/* ---------------------------------------------------------------------------
 * Opcode mapping
 * ------------------------------------------------------------------------- */
static bool finish(Ctx *x, Op *op) {
  keep_rest(x, op);
  block_append(x->env->blk, op);
  return !x->p->failed;
}

static bool unsupported(Ctx *x, const char *why) {
  return fail_at(x->p, x->in->opcode.off, "HLO opcode '%.*s' is not supported: %s", (int)x->opclen, x->opc, why);
}

static bool map_slice(Ctx *x, Op *op) {
  HAttr *a = get_attr(x, "slice");
  if (!a) return fail_at(x->p, x->in->opcode.off, "missing attribute 'slice'");
  P s;
  sub_init(&s, x->p, a->voff, a->vend);
  I64Vec lo = {0}, hi = {0}, st = {0};
  bool ok = expect(&s, '{', "to open the slice");
  skip_ws(&s);
  if (ok && peekc(&s) != '}') {
    for (;;) {
      int64_t v0, v1, v2 = 1;
      ok = expect(&s, '[', "to open a slice range") && parse_int(&s, &v0) && expect(&s, ':', "in a slice range") &&
           parse_int(&s, &v1);
      if (ok && accept(&s, ':')) ok = parse_int(&s, &v2);
      ok = ok && expect(&s, ']', "to close a slice range");
      if (!ok) break;
      VEC_PUSH(lo, v0);
      VEC_PUSH(hi, v1);
      VEC_PUSH(st, v2);
      if (!accept(&s, ',')) break;
    }
  }
  ok = ok && expect(&s, '}', "to close the slice");
  if (sub_done(x->p, &s, ok)) {
    set_ints(x, op, "start_indices", &lo);
    set_ints(x, op, "limit_indices", &hi);
    set_ints(x, op, "strides", &st);
  }
  VEC_FREE(lo);
  VEC_FREE(hi);
  VEC_FREE(st);
  return !x->p->failed;
}

static bool map_pad(Ctx *x, Op *op) {
  HAttr *a = get_attr(x, "padding");
  I64Vec v = {0}, lo = {0}, hi = {0}, in = {0};
  bool ok = true;
  if (a) {
    P s;
    sub_init(&s, x->p, a->voff, a->vend);
    skip_ws(&s);
    /* lo_hi or lo_hi_interior per dimension, separated by 'x' */
    while (ok && s.pos < s.end) {
      int64_t t[3] = {0, 0, 0};
      for (int k = 0; ok && k < 3; k++) {
        if (k == 2 && peekc(&s) != '_') break;
        if (k && !(ok = expect(&s, '_', "in the padding"))) break;
        ok = parse_int(&s, &t[k]);
      }
      for (int k = 0; ok && k < 3; k++) VEC_PUSH(v, t[k]);
      if (peekc(&s) != 'x') break;
      s.pos++;
    }
    ok = sub_done(x->p, &s, ok);
  }
  for (int i = 0; ok && i + 2 < v.len; i += 3) {
    VEC_PUSH(lo, v.data[i]);
    VEC_PUSH(hi, v.data[i + 1]);
    VEC_PUSH(in, v.data[i + 2]);
  }
  if (ok) {
    set_ints(x, op, "edge_padding_low", &lo);
    set_ints(x, op, "edge_padding_high", &hi);
    set_ints(x, op, "interior_padding", &in);
  }
  VEC_FREE(v);
  VEC_FREE(lo);
  VEC_FREE(hi);
  VEC_FREE(in);
  return ok;
}

static void window_attrs(Ctx *x, Op *op, const Window *w, bool reduce_window) {
  Module *m = MOD(x);
  set_ints(x, op, "window_dimensions", &w->size);
  set_ints(x, op, "window_strides", &w->stride);
  if (reduce_window) {
    set_ints(x, op, "base_dilations", &w->lhs);
    set_ints(x, op, "window_dilations", &w->rhs);
  }
  op_set_attr(m, op, "padding", dense_i64(m, w->n, 2, w->pad.data));
}

static bool map_conv(Ctx *x, Op *op) {
  Window w;
  int rank = x->type->kind == TY_TENSOR ? x->type->rank - 2 : 0;
  if (rank < 0) rank = 0;
  if (!parse_window(x, &w, rank)) return false;
  Module *m = MOD(x);
  set_ints(x, op, "window_strides", &w.stride);
  op_set_attr(m, op, "padding", dense_i64(m, w.n, 2, w.pad.data));
  set_ints(x, op, "lhs_dilation", &w.lhs);
  set_ints(x, op, "rhs_dilation", &w.rhs);
  op_set_attr(m, op, "window_reversal", bools_attr(m, w.rev.len, w.rev.data));
  bool ok = parse_dim_labels(x, op, w.n) && int_attr(x, op, "feature_group_count", "feature_group_count", false, 1) &&
            int_attr(x, op, "batch_group_count", "batch_group_count", false, 1) && parse_precision(x, op);
  window_free(&w);
  return ok;
}

static const char *const CMP_DIRS[] = {"EQ", "NE", "GE", "GT", "LE", "LT", NULL};
static const char *const CMP_TYPES[] = {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED", NULL};
static const char *const FFT_TYPES[] = {"FFT", "IFFT", "RFFT", "IRFFT", NULL};
static const char *const TRANSPOSES[] = {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT", NULL};
static const char *const RNG_ALGS_HLO[] = {"rng_default", "rng_three_fry", "rng_philox", NULL};
static const char *const RNG_ALGS[] = {"DEFAULT", "THREE_FRY", "PHILOX", NULL};
static const char *const RNG_DISTS_HLO[] = {"rng_uniform", "rng_normal", NULL};
static const char *const RNG_DISTS[] = {"UNIFORM", "NORMAL", NULL};
static const char *const API_VERSIONS[] = {"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL",
                                           "API_VERSION_STATUS_RETURNING",
                                           "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI", NULL};

static bool map_custom_call(Ctx *x, Op *op) {
  Module *m = MOD(x);
  HAttr *a = get_attr(x, "custom_call_target");
  if (!a) return fail_at(x->p, x->in->opcode.off, "missing attribute 'custom_call_target'");
  P s;
  StrBuf sb = {0};
  sub_init(&s, x->p, a->voff, a->vend);
  if (sub_done(x->p, &s, sub_string(&s, &sb))) op_set_attr(m, op, "call_target_name", attr_string(m, sb.data ? sb.data : "", sb.len));
  sb_free(&sb);
  if (x->p->failed) return false;
  if ((a = get_attr(x, "api_version"))) {
    sub_init(&s, x->p, a->voff, a->vend);
    Span w;
    if (!sub_done(x->p, &s, sub_word(&s, &w))) return false;
    int k = 0;
    while (API_VERSIONS[k] && !span_is(x->p, w, API_VERSIONS[k])) k++;
    if (!API_VERSIONS[k]) return fail_at(x->p, w.off, "unknown api_version");
    op_set_attr(m, op, "api_version", attr_int(m, k, NULL));
  }
  if ((a = get_attr(x, "backend_config"))) {
    sub_init(&s, x->p, a->voff, a->vend);
    skip_ws(&s);
    if (peekc(&s) == '"') {
      sb = (StrBuf){0};
      if (sub_done(x->p, &s, sub_string(&s, &sb))) op_set_attr(m, op, "backend_config", attr_string(m, sb.data ? sb.data : "", sb.len));
      sb_free(&sb);
    } else {
      op_set_attr(m, op, "backend_config", opaque(m, x->p->src + a->voff, a->vend - a->voff));
    }
  }
  return !x->p->failed && bool_attr(x, op, "custom_call_has_side_effect", "has_side_effect", false);
}

/* The dimensions of t from major to minor in memory (its layout read
   backwards; row-major without one); true when that order is the logical
   one but for dimensions of size 1, i.e. the bytes are in row-major order. */
static bool physical_order(const Type *t, int64_t *order) {
  bool row_major = true;
  int64_t prev = -1;
  for (int i = 0; i < t->rank; i++) {
    order[i] = t->layout ? t->layout[t->rank - 1 - i] : i;
    if (t->dims[order[i]] == 1) continue;
    row_major = row_major && order[i] > prev;
    prev = order[i];
  }
  return row_major;
}

/* A bitcast reinterprets the operand's bytes with the result's shape and
   layout: the operand in memory order (a transpose by its layout), reshaped
   to the result's dimensions in memory order, then transposed back to the
   result's logical order.  With row-major layouts (XLA's default) that is
   one reshape; XLA's optimized HLO also bitcasts between other layouts
   (after a layout-changing copy or transpose). */
static bool map_bitcast(Ctx *x, Value *v) {
  Module *m = MOD(x);
  const Type *a = v->type, *r = x->type;
  int64_t pa[64], pb[64], dims[64];
  if (a->rank > 64 || r->rank > 64) return fail_at(x->p, x->in->opcode.off, "bitcast of rank above 64");
  bool a_plain = physical_order(a, pa), r_plain = physical_order(r, pb);
  if (a_plain && r_plain) return finish(x, new_op(x, OP_RESHAPE, 1, &v, false));
  if (!a_plain) {
    for (int i = 0; i < a->rank; i++) dims[i] = a->dims[pa[i]];
    Type *t = type_tensor(&m->arena, a->elem, a->rank, dims);
    Op *tr = op_new(m, OP_TRANSPOSE, 1, &v, 1, &t, x->loc);
    op_set_attr(m, tr, "permutation", attr_ints(m, a->rank, pa));
    block_append(x->env->blk, tr);
    v = &tr->res[0];
  }
  if (r_plain) return finish(x, new_op(x, OP_RESHAPE, 1, &v, false));
  for (int i = 0; i < r->rank; i++) dims[i] = r->dims[pb[i]];
  Type *t = type_tensor(&m->arena, r->elem, r->rank, dims);
  Op *rs = op_new(m, OP_RESHAPE, 1, &v, 1, &t, x->loc);
  block_append(x->env->blk, rs);
  v = &rs->res[0];
  int64_t inv[64];
  for (int i = 0; i < r->rank; i++) inv[pb[i]] = i;
  Op *tr = new_op(x, OP_TRANSPOSE, 1, &v, false);
  op_set_attr(m, tr, "permutation", attr_ints(m, r->rank, inv));
  return finish(x, tr);
}

/* Builds the op for one instruction (ctx says which record/type/slot). */
static bool map_inst(Ctx *x) {
  P *p = x->p;
  Module *m = p->m;
  if (opc_is(x, "constant")) return map_constant(x);
  if (opc_is(x, "parameter")) return fail_at(p, x->in->opcode.off, "internal: parameter not bound");

  /* aliases: no op of their own */
  if (opc_is(x, "domain") || opc_is(x, "add-dependency")) {
    if (x->in->nopnds < 1) return want_operands(x, 1);
    Value *v = operand(x, 0);
    if (!v) return false;
    x->env->slots[x->idx].v = v;
    return true;
  }
  if (opc_is(x, "get-tuple-element")) {
    int64_t index;
    int src;
    if (!want_operands(x, 1) || !attr_int_of(x, "index", &index, true) || !operand_slot(x, 0, &src)) return false;
    Slot *ss = &x->env->slots[src];
    if (ss->multi) {
      if (index < 0 || index >= ss->multi->nres) return fail_at(p, x->in->opcode.off, "tuple index %lld is out of range", (long long)index);
      Value *v = &ss->multi->res[index];
      if (!v->name) v->name = span_dup(p, &m->arena, x->in->name);
      x->env->slots[x->idx].v = v;
      return true;
    }
    Value *t = slot_value(p, x->env, src, x->in->opnds[0].off);
    if (!t) return false;
    if (t->type->kind != TY_TUPLE || index < 0 || index >= t->type->ntuple)
      return fail_at(p, x->in->opcode.off, "get-tuple-element index %lld is invalid for this operand", (long long)index);
    Op *op = new_op(x, OP_GET_TUPLE_ELEMENT, 1, &t, false);
    op_set_attr(m, op, "index", attr_int(m, index, NULL));
    return finish(x, op);
  }
  /* asynchronous pairs: the start is remembered, the done builds the op */
  size_t n = x->opclen;
  if ((n > 6 && !memcmp(x->opc + n - 6, "-start", 6)) || opc_is(x, "send") || opc_is(x, "recv")) {
    for (int k = 0; k < x->in->nopnds; k++)
      if (!operand(x, k)) return false;
    x->env->slots[x->idx].pending = x->idx + 1;
    return true;
  }
  if (opc_is(x, "async-update")) {
    int src;
    if (!want_operands(x, 1) || !operand_slot(x, 0, &src)) return false;
    x->env->slots[x->idx] = x->env->slots[src];
    return true;
  }
  if ((n > 5 && !memcmp(x->opc + n - 5, "-done", 5))) {
    int src;
    if (!want_operands(x, 1) || !operand_slot(x, 0, &src)) return false;
    int st = x->env->slots[src].pending - 1;
    if (st < 0) return fail_at(p, x->in->opnds[0].off, "operand of '%.*s' is not an asynchronous start", (int)n, x->opc);
    HInst *start = &x->env->c->insts[st];
    Ctx y = *x;
    y.in = start;
    bool used[start->nattrs + 1];
    memset(used, 0, sizeof used);
    y.used = used;
    const char *so = p->src + start->opcode.off;
    size_t sn = start->opcode.len;
    if (sn == 11 && !memcmp(so, "async-start", 11)) {
      y.opc = "call";
      y.opclen = 4;
    } else if (sn == 4 && (!memcmp(so, "send", 4) || !memcmp(so, "recv", 4))) {
      y.opc = so;
      y.opclen = 4;
    } else if (sn > 6 && !memcmp(so + sn - 6, "-start", 6)) {
      y.opc = so;
      y.opclen = sn - 6;
    } else {
      return fail_at(p, x->in->opnds[0].off, "operand of '%.*s' is not an asynchronous start", (int)n, x->opc);
    }
    return map_inst(&y);
  }

  OpKind k;
  if (opc_is(x, "bitcast")) {
    if (!want_operands(x, 1)) return false;
    Value *v = operand(x, 0);
    if (!v) return false;
    /* same bits, other element type: a bitcast-convert (layouts do not matter then) */
    if (v->type->kind == TY_TENSOR && x->type->kind == TY_TENSOR && v->type->elem != x->type->elem &&
        type_same_shape(v->type, x->type) && et_bits(v->type->elem) == et_bits(x->type->elem))
      return finish(x, new_op(x, OP_BITCAST_CONVERT, 1, &v, false));
    if (v->type->kind != TY_TENSOR || x->type->kind != TY_TENSOR || v->type->elem != x->type->elem ||
        type_num_elements(v->type) != type_num_elements(x->type))
      return fail_at(p, x->in->opcode.off,
                     "bitcast that changes the element type or count has no layout-free meaning; not supported");
    return map_bitcast(x, v);
  }
  if (opc_is(x, "fusion") || opc_is(x, "call")) {
    HAttr *a = get_attr(x, opc_is(x, "fusion") ? "calls" : "to_apply");
    if (!a) a = get_attr(x, "calls");
    if (!a) return fail_at(p, x->in->opcode.off, "missing the called computation");
    P s;
    sub_init(&s, p, a->voff, a->vend);
    HComp *c = comp_ref(p, &s);
    if (!sub_done(p, &s, c != NULL)) return false;
    if (!c->func) return fail_at(p, a->voff, "internal: computation has no function");
    int no = x->in->nopnds;
    Value **ops = xmalloc(sizeof(Value *) * (size_t)(no ? no : 1));
    bool ok = all_operands(x, ops);
    Op *op = ok ? new_op(x, OP_CALL, no, ops, false) : NULL;
    xfree(ops);
    if (!ok) return false;
    op_set_attr(m, op, "callee", attr_symbol(m, span_dup(p, &m->arena, c->name)));
    if (opc_is(x, "fusion")) {
      Span w = {0, 0};
      if (!attr_word_of(x, "kind", &w)) return false;
      op_set_attr(m, op, "fusion_kind", attr_enum(m, "fusion_kind", w.len ? span_dup(p, &m->arena, w) : "kLoop"));
    }
    return finish(x, op);
  }
  if (opc_is(x, "conditional")) {
    if (x->in->nopnds < 2) return fail_at(p, x->in->opcode.off, "conditional needs a selector and branch operands");
    Value *sel = operand(x, 0);
    if (!sel) return false;
    VEC(HComp *) br = {0};
    HAttr *a;
    bool ok = true;
    bool is_if = sel->type->kind == TY_TENSOR && sel->type->elem == ET_PRED;
    if (is_if) {
      const char *names[2] = {"true_computation", "false_computation"};
      for (int i = 0; i < 2 && ok; i++) {
        if (!(a = get_attr(x, names[i]))) {
          ok = fail_at(p, x->in->opcode.off, "missing attribute '%s'", names[i]);
          break;
        }
        P s;
        sub_init(&s, p, a->voff, a->vend);
        HComp *c = comp_ref(p, &s);
        ok = sub_done(p, &s, c != NULL);
        if (ok) VEC_PUSH(br, c);
      }
    } else if ((a = get_attr(x, "branch_computations"))) {
      P s;
      sub_init(&s, p, a->voff, a->vend);
      ok = expect(&s, '{', "to open the branch list");
      while (ok) {
        HComp *c = comp_ref(p, &s);
        if (!(ok = c != NULL)) break;
        VEC_PUSH(br, c);
        if (!accept(&s, ',')) break;
      }
      ok = ok && expect(&s, '}', "to close the branch list");
      ok = sub_done(p, &s, ok);
    } else {
      ok = fail_at(p, x->in->opcode.off, "missing attribute 'branch_computations'");
    }
    if (ok && br.len != x->in->nopnds - 1)
      ok = fail_at(p, x->in->opcode.off, "conditional has %d branches but %d branch operands", br.len, x->in->nopnds - 1);
    Op *op = ok ? new_op(x, is_if ? OP_IF : OP_CASE, 1, &sel, false) : NULL;
    for (int i = 0; ok && i < br.len; i++) {
      Value *arg = operand(x, i + 1);
      if (!(ok = arg != NULL)) break;
      if (br.data[i]->nparams != 1) {
        ok = fail_at(p, br.data[i]->name.off, "a conditional branch must take exactly one parameter");
        break;
      }
      Block *b = block_new(m);
      op_add_region(m, op, b);
      ok = instantiate(p, br.data[i], b, &arg, BODY_REGION, x->env->depth + 1);
    }
    VEC_FREE(br);
    return ok && finish(x, op);
  }

  k = (OpKind)((int)(intptr_t)strmap_getn(&p->opcodes, x->opc, x->opclen) - 1);
  if ((int)k < 0) {
    if (opc_is(x, "stochastic-convert") || opc_is(x, "dynamic-reshape") || opc_is(x, "rng-get-and-update-state") ||
        opc_is(x, "ragged-all-to-all") || opc_is(x, "all-gather-done") || opc_is(x, "set-dimension-size"))
      return unsupported(x, "it has no equivalent in the xlac IR");
    return fail_at(p, x->in->opcode.off, "unknown HLO opcode '%.*s'", (int)x->opclen, x->opc);
  }
  int no = x->in->nopnds;
  if (op_has_flag(k, OPF_UNARY) && !want_operands(x, 1)) return false;
  if (op_has_flag(k, OPF_BINARY) && !want_operands(x, 2)) return false;
  if ((k == OP_SELECT || k == OP_CLAMP) && !want_operands(x, 3)) return false;
  bool multi = false;
  switch (k) {
  case OP_REDUCE: case OP_REDUCE_WINDOW: case OP_SORT: case OP_SCATTER: case OP_ALL_REDUCE:
  case OP_ALL_GATHER: case OP_REDUCE_SCATTER: case OP_ALL_TO_ALL: case OP_BATCH_NORM_TRAINING:
  case OP_BATCH_NORM_GRAD: case OP_RNG_BIT_GENERATOR: case OP_CUSTOM_CALL: case OP_CHLO_TOP_K:
  case OP_INFEED: case OP_RECV: case OP_COLLECTIVE_PERMUTE:
    multi = true;
    break;
  default:
    break;
  }
  Value **ops = xmalloc(sizeof(Value *) * (size_t)(no + 1));
  if (!all_operands(x, ops)) {
    xfree(ops);
    return false;
  }
  if (k == OP_RNG) {
    /* stablehlo.rng takes the result shape as a third operand */
    if (no != 2 || x->type->kind != TY_TENSOR) {
      xfree(ops);
      return want_operands(x, 2);
    }
    int64_t r = x->type->rank;
    Type *st = type_tensor(&m->arena, ET_S64, 1, &r);
    Literal *l = lit_new_in(&m->arena, st);
    for (int i = 0; i < x->type->rank; i++) lit_set_i(l, i, x->type->dims[i]);
    Op *c = op_new(m, OP_CONSTANT, 0, NULL, 1, &st, x->loc);
    op_set_attr(m, c, "value", attr_dense(m, l));
    block_append(x->env->blk, c);
    ops[no++] = &c->res[0];
  }
  Op *op = new_op(x, k, no, ops, multi);
  xfree(ops);
  int nin = multi && x->type->kind == TY_TUPLE ? x->type->ntuple : 1;
  int body = nin > 1 ? BODY_REGION_FLAT : BODY_REGION;
  bool ok = true;
  switch (k) {
  case OP_BROADCAST_IN_DIM: ok = ints_attr(x, op, "dimensions", "broadcast_dimensions", true); break;
  case OP_TRANSPOSE: ok = ints_attr(x, op, "dimensions", "permutation", true); break;
  case OP_REVERSE: ok = ints_attr(x, op, "dimensions", "dimensions", true); break;
  case OP_IOTA: ok = int_attr(x, op, "iota_dimension", "iota_dimension", true, 0); break;
  case OP_CONCATENATE: ok = single_dim(x, op, "dimension"); break;
  case OP_GET_DIMENSION_SIZE:
  case OP_SET_DIMENSION_SIZE: ok = single_dim(x, op, "dimension"); break;
  case OP_SLICE: ok = map_slice(x, op); break;
  case OP_DYNAMIC_SLICE: ok = ints_attr(x, op, "dynamic_slice_sizes", "slice_sizes", true); break;
  case OP_PAD: ok = map_pad(x, op); break;
  case OP_COMPARE:
    ok = enum_attr(x, op, "direction", "comparison_direction", "comparison_direction", CMP_DIRS, CMP_DIRS, true) &&
         enum_attr(x, op, "type", "compare_type", "comparison_type", CMP_TYPES, CMP_TYPES, false);
    break;
  case OP_REDUCE:
    ok = ints_attr(x, op, "dimensions", "dimensions", true) && add_region(x, op, "to_apply", body);
    break;
  case OP_MAP:
    ok = ints_attr(x, op, "dimensions", "dimensions", false) && add_region(x, op, "to_apply", BODY_REGION);
    break;
  case OP_REDUCE_WINDOW: {
    Window w;
    int rank = op->nopnds > 0 && op->opnds[0]->type->kind == TY_TENSOR ? op->opnds[0]->type->rank : 0;
    ok = parse_window(x, &w, rank);
    if (ok) {
      window_attrs(x, op, &w, true);
      window_free(&w);
      ok = add_region(x, op, "to_apply", body);
    }
    break;
  }
  case OP_SELECT_AND_SCATTER: {
    Window w;
    int rank = op->nopnds > 0 && op->opnds[0]->type->kind == TY_TENSOR ? op->opnds[0]->type->rank : 0;
    ok = want_operands(x, 3) && parse_window(x, &w, rank);
    if (ok) {
      window_attrs(x, op, &w, false);
      window_free(&w);
      ok = add_region(x, op, "select", BODY_REGION) && add_region(x, op, "scatter", BODY_REGION);
    }
    break;
  }
  case OP_SORT: {
    ok = single_dim(x, op, "dimension") && bool_attr(x, op, "is_stable", "is_stable", true) &&
         add_region(x, op, "to_apply", BODY_REGION);
    break;
  }
  case OP_WHILE:
    ok = want_operands(x, 1) && add_region(x, op, "condition", BODY_REGION) && add_region(x, op, "body", BODY_REGION);
    break;
  case OP_DOT_GENERAL: {
    static const DimField f[] = {{"lhs_batch_dims", "lhs_batching_dimensions", false, false},
                                 {"rhs_batch_dims", "rhs_batching_dimensions", false, false},
                                 {"lhs_contracting_dims", "lhs_contracting_dimensions", false, false},
                                 {"rhs_contracting_dims", "rhs_contracting_dimensions", false, false}};
    ok = want_operands(x, 2) && dims_dict(x, op, "dot_dimension_numbers", "stablehlo.dot", f, 4) && parse_precision(x, op);
    break;
  }
  case OP_CONVOLUTION: ok = want_operands(x, 2) && map_conv(x, op); break;
  case OP_GATHER: {
    static const DimField f[] = {{"offset_dims", "offset_dims", false, false},
                                 {"collapsed_slice_dims", "collapsed_slice_dims", false, false},
                                 {"operand_batching_dims", "operand_batching_dims", false, false},
                                 {"start_indices_batching_dims", "start_indices_batching_dims", false, false},
                                 {"start_index_map", "start_index_map", false, false},
                                 {"index_vector_dim", "index_vector_dim", true, true}};
    ok = want_operands(x, 2) && dims_dict(x, op, "dimension_numbers", "stablehlo.gather", f, 6) &&
         ints_attr(x, op, "slice_sizes", "slice_sizes", true) &&
         bool_attr(x, op, "indices_are_sorted", "indices_are_sorted", true);
    break;
  }
  case OP_SCATTER: {
    static const DimField f[] = {{"update_window_dims", "update_window_dims", false, false},
                                 {"inserted_window_dims", "inserted_window_dims", false, false},
                                 {"input_batching_dims", "input_batching_dims", false, false},
                                 {"scatter_indices_batching_dims", "scatter_indices_batching_dims", false, false},
                                 {"scatter_dims_to_operand_dims", "scatter_dims_to_operand_dims", false, false},
                                 {"index_vector_dim", "index_vector_dim", true, true}};
    ok = (no >= 3 && no % 2 == 1) || fail_at(p, x->in->opcode.off, "scatter needs inputs, indices and updates");
    ok = ok && dims_dict(x, op, "scatter_dimension_numbers", "stablehlo.scatter", f, 6) &&
         bool_attr(x, op, "indices_are_sorted", "indices_are_sorted", true) &&
         bool_attr(x, op, "unique_indices", "unique_indices", true) && add_region(x, op, "to_apply", body);
    break;
  }
  case OP_CUSTOM_CALL: ok = map_custom_call(x, op); break;
  case OP_ALL_REDUCE:
  case OP_REDUCE_SCATTER:
  case OP_ALL_GATHER:
  case OP_ALL_TO_ALL:
  case OP_COLLECTIVE_BROADCAST:
  case OP_COLLECTIVE_PERMUTE: {
    ok = parse_replica_groups(x, op) && parse_channel(x, op);
    bool g = false;
    ok = ok && attr_bool_of(x, "use_global_device_ids", &g);
    if (ok && g) op_set_attr(m, op, "use_global_device_ids", attr_unit(m));
    if (ok && (k == OP_ALL_REDUCE || k == OP_REDUCE_SCATTER)) ok = add_region(x, op, "to_apply", body);
    if (ok && k == OP_ALL_GATHER) ok = single_dim(x, op, "all_gather_dim");
    if (ok && k == OP_REDUCE_SCATTER) ok = single_dim(x, op, "scatter_dimension");
    if (ok && k == OP_ALL_TO_ALL) {
      Attr *rg = op_attr(op, "replica_groups");
      int64_t count = rg && rg->type && rg->type->rank == 2 ? rg->type->dims[1] : 0;
      HAttr *d = NULL;
      for (int i = 0; i < x->in->nattrs; i++)
        if (span_is(p, x->in->attrs[i].name, "dimensions")) d = &x->in->attrs[i];
      if (!d) ok = unsupported(x, "tuple all-to-all (without 'dimensions')");
      else ok = single_dim(x, op, "split_dimension");
      if (ok) {
        op_set_attr(m, op, "concat_dimension", op_attr(op, "split_dimension"));
        op_set_attr(m, op, "split_count", attr_int(m, count, NULL));
      }
    }
    if (ok && k == OP_COLLECTIVE_PERMUTE) {
      HAttr *a = get_attr(x, "source_target_pairs");
      I64Vec v = {0};
      if (a) {
        P s;
        sub_init(&s, p, a->voff, a->vend);
        ok = expect(&s, '{', "to open the pairs");
        skip_ws(&s);
        if (ok && peekc(&s) != '}') {
          for (;;) {
            I64Vec pr = {0};
            ok = sub_int_list(&s, &pr);
            if (ok && pr.len != 2) ok = fail_at(&s, s.pos, "expected a {source,target} pair");
            for (int i = 0; ok && i < 2; i++) VEC_PUSH(v, pr.data[i]);
            VEC_FREE(pr);
            if (!ok || !accept(&s, ',')) break;
          }
        }
        ok = ok && expect(&s, '}', "to close the pairs");
        ok = sub_done(p, &s, ok);
      }
      if (ok) op_set_attr(m, op, "source_target_pairs", dense_i64(m, v.len / 2, 2, v.data));
      VEC_FREE(v);
    }
    break;
  }
  case OP_RNG_BIT_GENERATOR:
    ok = enum_attr(x, op, "algorithm", "rng_algorithm", "rng_algorithm", RNG_ALGS_HLO, RNG_ALGS, false);
    if (ok && !op_attr(op, "rng_algorithm")) op_set_attr(m, op, "rng_algorithm", attr_enum(m, "rng_algorithm", "DEFAULT"));
    break;
  case OP_RNG:
    ok = enum_attr(x, op, "distribution", "rng_distribution", "rng_distribution", RNG_DISTS_HLO, RNG_DISTS, true);
    break;
  case OP_FFT:
    ok = enum_attr(x, op, "fft_type", "fft_type", "fft_type", FFT_TYPES, FFT_TYPES, true) &&
         ints_attr(x, op, "fft_length", "fft_length", true);
    break;
  case OP_TRIANGULAR_SOLVE:
    ok = bool_attr(x, op, "left_side", "left_side", true) && bool_attr(x, op, "lower", "lower", true) &&
         bool_attr(x, op, "unit_diagonal", "unit_diagonal", true) &&
         enum_attr(x, op, "transpose_a", "transpose_a", "transpose", TRANSPOSES, TRANSPOSES, false);
    if (ok && !op_attr(op, "transpose_a")) op_set_attr(m, op, "transpose_a", attr_enum(m, "transpose", "NO_TRANSPOSE"));
    break;
  case OP_CHOLESKY: ok = bool_attr(x, op, "lower", "lower", true); break;
  case OP_BATCH_NORM_TRAINING:
  case OP_BATCH_NORM_INFERENCE:
  case OP_BATCH_NORM_GRAD: {
    HAttr *a = get_attr(x, "epsilon");
    double eps = 0;
    if (a) {
      P s;
      char buf[128];
      size_t at;
      sub_init(&s, p, a->voff, a->vend);
      ok = sub_done(p, &s, number_token(&s, buf, sizeof buf, &at) && parse_float_tok(&s, buf, at, &eps));
    }
    if (ok) op_set_attr(m, op, "epsilon", attr_float(m, eps, type_scalar(&m->arena, ET_F32)));
    ok = ok && int_attr(x, op, "feature_index", "feature_index", true, 0);
    break;
  }
  case OP_REDUCE_PRECISION:
    ok = int_attr(x, op, "exponent_bits", "exponent_bits", true, 0) && int_attr(x, op, "mantissa_bits", "mantissa_bits", true, 0);
    break;
  case OP_CHLO_TOP_K:
    ok = int_attr(x, op, "k", "k", true, 0) && bool_attr(x, op, "largest", "largest", false);
    break;
  case OP_INFEED:
  case OP_OUTFEED: {
    const char *cfg = k == OP_INFEED ? "infeed_config" : "outfeed_config";
    HAttr *a = get_attr(x, cfg);
    if (a) {
      P s;
      StrBuf sb = {0};
      sub_init(&s, p, a->voff, a->vend);
      ok = sub_done(p, &s, sub_string(&s, &sb));
      if (ok) op_set_attr(m, op, cfg, attr_string(m, sb.data ? sb.data : "", sb.len));
      sb_free(&sb);
    }
    break;
  }
  case OP_SEND:
  case OP_RECV:
    ok = parse_channel(x, op) && bool_attr(x, op, "is_host_transfer", "is_host_transfer", false);
    break;
  default:
    break;
  }
  return ok && finish(x, op);
}

/* Builds one instruction.  build_in_order has built its operands already, so
   the operand() calls in map_inst find them built and do not recurse; the
   state check stays as a guard. */
static bool build_inst(P *p, Env *env, int idx) {
  Slot *sl = &env->slots[idx];
  if (sl->state == 2) return true;
  HInst *in = &env->c->insts[idx];
  if (sl->state == 1) return fail_at(p, in->name.off, "instruction '%.*s' depends on itself", (int)in->name.len, p->src + in->name.off);
  if (p->built_ops > MAX_BUILT_OPS) return fail_at(p, in->name.off, "module expands to too many operations");
  sl->state = 1;
  bool used[in->nattrs + 1];
  memset(used, 0, sizeof used);
  Ctx x = {p, env, in, idx, in->type, p->src + in->opcode.off, in->opcode.len, used, loc_at(p, in->name.off)};
  bool ok = map_inst(&x);
  sl->state = 2;
  return ok;
}

/* Builds instruction `first` after everything it depends on, in depth-first
   post-order over the operand names.  Operands may be defined after their
   users, in chains as long as the computation, so the walk keeps its own
   stack (env->stack, one entry per instruction: an instruction is pushed at
   most once) instead of recursing.  An operand met again while it is still
   on the stack closes a cycle.  Undefined names are left for build_inst to
   report where they are used. */
static bool build_in_order(P *p, Env *env, int first) {
  HComp *c = env->c;
  Slot *slots = env->slots;
  if (slots[first].walk == 2 || slots[first].state == 2) return true;
  int sp = 0;
  env->stack[sp++] = first;
  slots[first].walk = 1;
  slots[first].next = 0;
  while (sp > 0) {
    int i = env->stack[sp - 1];
    Slot *sl = &slots[i];
    HInst *in = &c->insts[i];
    if (sl->state != 2 && sl->next < in->nopnds) {
      Span s = in->opnds[sl->next++];
      int j = (int)(intptr_t)strmap_getn(&c->names, p->src + s.off, s.len) - 1;
      if (j < 0 || slots[j].walk == 2 || slots[j].state == 2) continue;
      if (slots[j].walk == 1) {
        HInst *d = &c->insts[j];
        return fail_at(p, d->name.off, "instruction '%.*s' depends on itself", (int)d->name.len, p->src + d->name.off);
      }
      slots[j].walk = 1;
      slots[j].next = 0;
      env->stack[sp++] = j;
      continue;
    }
    sp--;
    sl->walk = 2;
    if (!build_inst(p, env, i)) return false;
  }
  return true;
}

static bool instantiate(P *p, HComp *c, Block *blk, Value *const *subst, int kind, int depth) {
  if (depth > MAX_DEPTH) return fail_at(p, c->name.off, "computations nest too deeply");
  if (c->active) return fail_at(p, c->name.off, "computation '%.*s' refers to itself", (int)c->name.len, p->src + c->name.off);
  c->active++;
  Env env = {c, blk, xcalloc((size_t)c->ninst, sizeof(Slot)), xmalloc(sizeof(int) * (size_t)c->ninst), depth};
  Module *m = p->m;
  bool ok = true;
  for (int i = 0; i < c->nparams; i++) {
    HInst *in = &c->insts[c->params[i]];
    Slot *sl = &env.slots[c->params[i]];
    if (subst) {
      if (!type_equal(subst[i]->type, in->type)) {
        char *a = type_str(subst[i]->type), *b = type_str(in->type);
        ok = fail_at(p, in->name.off, "parameter has type %s but the operand passed to it has type %s", b, a);
        xfree(a);
        xfree(b);
        break;
      }
      sl->v = subst[i];
    } else {
      sl->v = block_add_arg(m, blk, in->type, NULL);
      sl->v->name = span_dup(p, &m->arena, in->name);
    }
    sl->state = 2;
    /* attributes of a parameter (metadata, sharding) have no home in the IR */
  }
  HInst *root = &c->insts[c->root];
  bool flat_root = kind == BODY_REGION_FLAT && span_is(p, root->opcode, "tuple");
  for (int i = 0; ok && i < c->ninst; i++) {
    if (flat_root && i == c->root) continue;
    ok = build_in_order(p, &env, i);
  }
  if (ok) {
    VEC(Value *) rets = {0};
    if (flat_root) {
      Ctx x = {p, &env, root, c->root, root->type, "tuple", 5, NULL, loc_at(p, root->name.off)};
      for (int k = 0; ok && k < root->nopnds; k++) {
        Value *v = operand(&x, k);
        if (!(ok = v != NULL)) break;
        VEC_PUSH(rets, v);
      }
    } else if (env.slots[c->root].multi && kind == BODY_REGION_FLAT) {
      Op *mo = env.slots[c->root].multi;
      for (int k = 0; k < mo->nres; k++) VEC_PUSH(rets, &mo->res[k]);
    } else {
      Value *v = slot_value(p, &env, c->root, root->name.off);
      if (v) VEC_PUSH(rets, v);
      else ok = false;
    }
    if (ok) {
      Op *t = op_new(m, kind == BODY_FUNC ? OP_FUNC_RETURN : OP_RETURN, rets.len, rets.data, 0, NULL, loc_at(p, root->name.off));
      block_append(blk, t);
      if (kind == BODY_FUNC && blk->parent_func) {
        Func *f = blk->parent_func;
        f->nresults = rets.len;
        f->result_types = ARENA_ARRAY(&m->arena, Type *, rets.len ? rets.len : 1);
        for (int k = 0; k < rets.len; k++) f->result_types[k] = rets.data[k]->type;
      }
    }
    VEC_FREE(rets);
  }
  xfree(env.slots);
  xfree(env.stack);
  c->active--;
  return ok && !p->failed;
}

/* ---------------------------------------------------------------------------
 * Driver
 * ------------------------------------------------------------------------- */
static bool is_func_ref_attr(const P *p, const HInst *in, const HAttr *a) {
  Span o = in->opcode;
  if (span_is(p, a->name, "calls") || span_is(p, a->name, "called_computations")) return true;
  return span_is(p, a->name, "to_apply") && span_is(p, o, "call");
}

static bool is_comp_attr(const P *p, const HAttr *a) {
  static const char *const names[] = {"to_apply", "calls", "condition", "body", "true_computation",
                                      "false_computation", "branch_computations", "select", "scatter",
                                      "called_computations"};
  for (size_t i = 0; i < ARRAY_LEN(names); i++)
    if (span_is(p, a->name, names[i])) return true;
  return false;
}

/* Marks which computations are called as functions and which are only
   copied into regions, so that only the former become Funcs. */
static bool classify(P *p) {
  for (int ci = 0; ci < p->comps.len; ci++) {
    HComp *c = p->comps.data[ci];
    for (int i = 0; i < c->ninst; i++) {
      HInst *in = &c->insts[i];
      for (int k = 0; k < in->nattrs; k++) {
        HAttr *a = &in->attrs[k];
        if (!is_comp_attr(p, a)) continue;
        P s;
        sub_init(&s, p, a->voff, a->vend);
        skip_ws(&s);
        bool braced = peekc(&s) == '{';
        if (braced) s.pos++;
        skip_ws(&s);
        while (!s.failed && s.pos < s.end && peekc(&s) != '}') {
          HComp *t = comp_ref(p, &s);
          if (!t) break;
          if (is_func_ref_attr(p, in, a)) t->func_ref = true;
          else t->region_ref = true;
          if (!accept(&s, ',')) break;
          skip_ws(&s);
        }
        if (s.failed) {
          p->failed = true;
          return false;
        }
      }
    }
  }
  return true;
}

Module *hlo_parse(int file, size_t begin, size_t end) {
  const SrcFile *f = src_get(file);
  if (!f) return NULL;
  if (end > f->len) end = f->len;
  P p = {0};
  p.file = file;
  p.src = f->text;
  p.pos = begin;
  p.end = end;
  p.m = module_new();
  p.m->format = SRC_HLO;
  arena_init(&p.scratch);
  for (int k = 0; k < OP_COUNT; k++)
    if (op_info[k].hlo_name) strmap_put(&p.opcodes, op_info[k].hlo_name, (void *)(intptr_t)(k + 1));

  /* a NUL byte would end the C strings made from spans (names, opaque
     attribute text): no text format has one, so it is refused up front */
  const char *nul = begin < end ? memchr(p.src + begin, 0, end - begin) : NULL;
  bool ok = nul ? fail_at(&p, (size_t)(nul - p.src), "the input is not a text file (it contains NUL bytes); the first one is here")
                : parse_header(&p);
  HComp *entry = NULL;
  while (ok) {
    skip_ws(&p);
    if (p.failed) {
      ok = false;
      break;
    }
    if (p.pos >= p.end) break;
    HComp *c = ARENA_NEW(&p.scratch, HComp);
    if (!(ok = parse_computation(&p, c))) {
      strmap_free(&c->names);
      break;
    }
    VEC_PUSH(p.comps, c);
    char *key = span_dup(&p, &p.scratch, c->name);
    if (strmap_get(&p.comp_names, key)) {
      ok = fail_at(&p, c->name.off, "duplicate computation name '%s'", key);
      break;
    }
    strmap_put(&p.comp_names, key, c);
    if (c->entry) {
      if (entry) {
        ok = fail_at(&p, c->name.off, "more than one ENTRY computation");
        break;
      }
      entry = c;
    }
  }
  if (ok && p.comps.len == 0) ok = fail_at(&p, p.pos, "expected at least one computation");
  if (ok && !entry) {
    /* XLA's parser makes the last computation the entry; so do we, but
       say so where it happens: a missing ENTRY is usually a mistake */
    entry = p.comps.data[p.comps.len - 1];
    warning_at(loc_at(&p, entry->name.off),
               "no computation is marked ENTRY; using the last one, '%.*s', as the entry (as XLA does)",
               (int)entry->name.len, p.src + entry->name.off);
  }
  if (ok) ok = classify(&p);
  if (ok) {
    entry->func_ref = true;
    for (int i = 0; i < p.comps.len; i++) {
      HComp *c = p.comps.data[i];
      if (c->func_ref || !c->region_ref) {
        c->func = func_new(p.m, span_dup(&p, &p.scratch, c->name), loc_at(&p, c->name.off));
        if (c == entry) p.m->entry = c->func;
      }
    }
    for (int i = 0; ok && i < p.comps.len; i++) {
      HComp *c = p.comps.data[i];
      if (c->func) ok = instantiate(&p, c, c->func->body, NULL, BODY_FUNC, 0);
    }
    if (ok) ok = check_entry_layout(&p, p.m->entry);
  }
  for (int i = 0; i < p.comps.len; i++) strmap_free(&p.comps.data[i]->names);
  VEC_FREE(p.comps);
  strmap_free(&p.comp_names);
  strmap_free(&p.opcodes);
  arena_free(&p.scratch);
  if (!ok || p.failed) {
    module_free(p.m);
    return NULL;
  }
  return p.m;
}
