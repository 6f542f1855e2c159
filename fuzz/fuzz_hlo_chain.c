/*
 * fuzz_hlo_chain.c - libFuzzer target for long chains of HLO instructions.
 *
 * Random bytes rarely spell a chain of thousands of instructions that use
 * each other, which is what broke the HLO parser's operand resolution (it
 * recursed once per link and ran out of stack).  This target builds such
 * modules from the fuzz input instead and feeds them to hlo_parse and
 * verify_module:
 *
 *   a0 = S add(a1, c)         link i uses link i + 1 (and maybe a later
 *   a1 = S negate(a2)         link, or a constant); some links are a tuple
 *   ...                       and a get-tuple-element of it
 *   aN = S parameter(0)
 *   ROOT r = S negate(a0)
 *
 * The input's first bytes choose the shape S, the chain length (up to
 * 20,000, or up to 64 for a faster run), whether one link points back up the chain (a cycle), and the order the
 * instructions are written in: as above (every use before its definition),
 * reversed, a stride permutation, or a shuffle.  The rest choose each
 * link's op.  Every such module is valid by construction unless it has a
 * cycle, so the target knows the answer: an acyclic chain must parse and
 * verify (and round-trip through the MLIR printer, as in every target), a
 * cyclic one must be refused with a diagnostic.  Anything else aborts, and
 * libFuzzer keeps the input.  XLAC_FUZZ_CHAIN_OUT=FILE writes the module an
 * input stands for to FILE (run the target on that one input).  See
 * docs/fuzzing.md.
 */
#include "frontends/hlo/hlo.h"

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_LINKS 20000

typedef struct Rd {
  const uint8_t *data;
  size_t size, pos;
  uint64_t rng;
} Rd;

static uint64_t rng_next(Rd *r) {
  uint64_t x = r->rng;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return r->rng = x;
}

/* The next input byte, or (past the end) a pseudo-random one. */
static unsigned byte(Rd *r) {
  if (r->pos < r->size) return r->data[r->pos++];
  return (unsigned)(rng_next(r) >> 24) & 0xff;
}

static unsigned u16(Rd *r) {
  unsigned hi = byte(r);
  return hi << 8 | byte(r);
}

typedef struct Shape {
  const char *type, *one; /* the type, and a constant of it */
} Shape;

static const Shape SHAPES[] = {
    {"f32[]", "constant(1)"},
    {"f32[3]", "constant({1, 2, 3})"},
    {"s32[2,2]", "constant({{1, 2}, {3, 4}})"},
    {"f64[4,1]", "constant({{1}, {2}, {3}, {4}})"},
    {"bf16[2]", "constant({0.5, 2})"},
};

static const char *const BINARY[] = {"add", "subtract", "multiply", "maximum", "minimum"};
static const char *const UNARY[] = {"negate", "abs", "copy"};

static unsigned gcd(unsigned a, unsigned b) {
  while (b) {
    unsigned t = a % b;
    a = b;
    b = t;
  }
  return a;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *sink;
  static int roundtrip = -1;
  if (!sink) {
    sink = fopen("/dev/null", "w");
    if (sink) diag_set_stream(sink);
  }
  if (roundtrip < 0) {
    const char *e = getenv("XLAC_FUZZ_ROUNDTRIP");
    roundtrip = !(e && strcmp(e, "0") == 0);
  }
  Rd r = {data, size, 0, 0x9E3779B97F4A7C15ull};
  for (size_t i = 0; i < size; i++) r.rng = (r.rng ^ data[i]) * 0x100000001B3ull;
  if (!r.rng) r.rng = 1;

  unsigned flags = byte(&r);
  /* links a0 .. a(n-1), a(n) is the parameter: long chains are what this
     target is for, short ones run faster and reach the rest sooner */
  unsigned n = 1 + u16(&r) % (flags & 0x40 ? MAX_LINKS : 64);
  const Shape *sh = &SHAPES[(flags >> 1) % ARRAY_LEN(SHAPES)];
  bool cyclic = flags & 1;
  const char *pct = (flags & 0x80) ? "%" : "";
  unsigned order = byte(&r) % 4;
  unsigned back_from = 0, back_to = 0; /* link back_from also uses link back_to <= back_from */
  if (cyclic) {
    back_from = u16(&r) % n;
    back_to = u16(&r) % (back_from + 1);
  }

  /* one line per instruction */
  VEC(char *) lines = {0};
  StrBuf b = {0};
  for (unsigned i = 0; i < n; i++) {
    unsigned c = byte(&r);
    /* the second operand: the constant, the next link again, or a later link */
    char other[32];
    unsigned later = i + 1 + (c >> 4) % (n - i);
    if ((c >> 2) % 3 == 0) snprintf(other, sizeof other, "%sone", pct);
    else snprintf(other, sizeof other, "%sa%u", pct, (c >> 2) % 3 == 1 ? i + 1 : later);
    char next[32];
    snprintf(next, sizeof next, "%sa%u", pct, i + 1);
    if (cyclic && i == back_from) snprintf(other, sizeof other, "%sa%u", pct, back_to);
    bool binary = (c & 3) != 0 || (cyclic && i == back_from);
    if ((c & 3) == 3) {
      /* a tuple and a get-tuple-element of it */
      sb_printf(&b, "  %st%u = (%s, %s) tuple(%s, %s)", pct, i, sh->type, sh->type, next, other);
      VEC_PUSH(lines, sb_take(&b));
      sb_printf(&b, "  %sa%u = %s get-tuple-element(%st%u), index=%u", pct, i, sh->type, pct, i, (c >> 7) & 1);
    } else if (binary) {
      sb_printf(&b, "  %sa%u = %s %s(%s, %s)", pct, i, sh->type, BINARY[(c >> 4) % ARRAY_LEN(BINARY)], next, other);
    } else {
      sb_printf(&b, "  %sa%u = %s %s(%s)", pct, i, sh->type, UNARY[(c >> 4) % ARRAY_LEN(UNARY)], next);
    }
    VEC_PUSH(lines, sb_take(&b));
  }
  sb_printf(&b, "  %sa%u = %s parameter(0)", pct, n, sh->type);
  VEC_PUSH(lines, sb_take(&b));
  sb_printf(&b, "  %sone = %s %s", pct, sh->type, sh->one);
  VEC_PUSH(lines, sb_take(&b));
  sb_printf(&b, "  ROOT %sr = %s negate(%sa0)", pct, sh->type, pct);
  VEC_PUSH(lines, sb_take(&b));

  /* the order they are written in */
  unsigned nl = (unsigned)lines.len;
  unsigned *perm = xmalloc(sizeof(unsigned) * nl);
  unsigned stride = 1 + u16(&r) % nl;
  while (gcd(stride, nl) != 1) stride++;
  for (unsigned k = 0; k < nl; k++) {
    switch (order) {
    case 0: perm[k] = k; break;          /* every use before its definition */
    case 1: perm[k] = nl - 1 - k; break; /* every definition before its uses */
    case 2: perm[k] = (unsigned)(((uint64_t)k * stride) % nl); break;
    default: perm[k] = k; break;
    }
  }
  if (order == 3)
    for (unsigned k = nl - 1; k > 0; k--) {
      unsigned j = (unsigned)(rng_next(&r) % (k + 1));
      unsigned t = perm[k];
      perm[k] = perm[j];
      perm[j] = t;
    }
  sb_puts(&b, "HloModule chain\n\nENTRY main {\n");
  for (unsigned k = 0; k < nl; k++) {
    sb_puts(&b, lines.data[perm[k]]);
    sb_putc(&b, '\n');
  }
  sb_puts(&b, "}\n");
  size_t len = b.len;
  char *text = sb_take(&b);
  for (int i = 0; i < lines.len; i++) free(lines.data[i]);
  VEC_FREE(lines);
  free(perm);

  /* to turn an input into a regression test: the module it stands for */
  const char *out = getenv("XLAC_FUZZ_CHAIN_OUT");
  if (out && *out) {
    FILE *f = fopen(out, "w");
    if (f) {
      fwrite(text, 1, len, f);
      fclose(f);
    }
  }
  int errors = diag_error_count();
  int file = src_add("chain.hlo", text, len);
  Module *m = hlo_parse(file, 0, len);
  bool verified = m && verify_module(m);
  if (cyclic && (m || diag_error_count() == errors)) {
    fprintf(stderr, "fuzz: a cyclic chain was accepted or refused without a diagnostic\n%s", text);
    abort();
  }
  if (!cyclic && !verified) {
    /* print what went wrong this time */
    diag_set_stream(stderr);
    module_free(m);
    m = hlo_parse(file, 0, len);
    if (m) verify_module(m);
    fprintf(stderr, "fuzz: a valid chain of %u links was refused\n", n);
    if (len < 4096) fputs(text, stderr);
    abort();
  }
  if (verified && roundtrip) fuzz_roundtrip(m);
  module_free(m);
  free(text);
  src_reset();
  diag_reset_count();
  return 0;
}
