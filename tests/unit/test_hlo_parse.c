/*
 * test_hlo_parse.c - unit tests for the HLO text frontend and printer.
 *
 * Parses embedded HLO snippets, checks the IR they map to (op kinds,
 * attributes, types), checks that malformed input is rejected, and checks
 * the printer's round trip: print(parse(print(parse(x)))) == print(parse(x)).
 * Given file arguments, it round-trips those files instead (used on real
 * XLA dumps).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/hlo/hlo.h"
#include "ir/print_hlo.h"

static int passed, failed;

#define CHECK(c)                                                  \
  do {                                                            \
    if (c) passed++;                                              \
    else {                                                        \
      failed++;                                                   \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
    }                                                             \
  } while (0)

static Module *parse_str(const char *name, const char *text) {
  int f = src_add(name, text, strlen(text));
  return hlo_parse(f, 0, strlen(text));
}

static char *print_str(const Module *m) {
  StrBuf b = {0};
  print_module_hlo(&b, m);
  return sb_take(&b);
}

/* print(parse(x)) is a fixed point of print . parse */
static bool round_trip(const char *name, const char *text, bool verbose) {
  Module *m = parse_str(name, text);
  if (!m) return false;
  char *p1 = print_str(m);
  module_free(m);
  Module *m2 = parse_str("<print1>", p1);
  if (!m2) {
    fprintf(stderr, "reparse failed; printed text:\n%s\n", p1);
    free(p1);
    return false;
  }
  char *p2 = print_str(m2);
  module_free(m2);
  bool ok = strcmp(p1, p2) == 0;
  if (!ok || verbose) fprintf(stderr, "--- print1\n%s--- print2\n%s", p1, p2);
  free(p1);
  free(p2);
  return ok;
}

static Op *find_op(Func *f, OpKind k) {
  for (Op *op = f->body->first; op; op = op->next)
    if (op->kind == k) return op;
  return NULL;
}

static void test_basic(void) {
  const char *t =
      "HloModule m, entry_computation_layout={(f32[2,3]{1,0})->f32[3]{0}}\n"
      "%add.1 (x: f32[], y: f32[]) -> f32[] {\n"
      "  %x = f32[] parameter(0)\n  %y = f32[] parameter(1)\n"
      "  ROOT %s = f32[] add(f32[] %x, f32[] %y)\n}\n"
      "ENTRY %main.5 (p: f32[2,3]) -> f32[3] {\n"
      "  %c = f32[] constant(0)\n"
      "  %p = f32[2,3]{1,0} parameter(0), metadata={op_name=\"jit(f)/x\" source_line=12}\n"
      "  %t = f32[3,2]{0,1} transpose(%p), dimensions={1,0}\n"
      "  ROOT %r = f32[3]{0} reduce(%t, c), dimensions={1}, to_apply=%add.1, sharding={replicated}\n}\n";
  Module *m = parse_str("basic", t);
  CHECK(m != NULL);
  if (!m) return;
  Func *f = m->entry;
  CHECK(f && !strcmp(f->name, "main.5"));
  CHECK(module_find_func(m, "add.1") == NULL); /* only used as a region */
  CHECK(f->body->nargs == 1);
  Op *tr = find_op(f, OP_TRANSPOSE);
  CHECK(tr && tr->res[0].type->layout && tr->res[0].type->layout[0] == 0);
  int64_t *v;
  CHECK(tr && op_attr_ints(tr, "permutation", &v) == 2 && v[0] == 1);
  Op *r = find_op(f, OP_REDUCE);
  CHECK(r && r->nregions == 1 && r->regions[0]->nargs == 2);
  CHECK(r && block_terminator(r->regions[0])->kind == OP_RETURN);
  CHECK(r && op_attr(r, "sharding") && op_attr(r, "sharding")->kind == ATTR_OPAQUE);
  CHECK(block_terminator(f->body)->kind == OP_FUNC_RETURN);
  CHECK(m->nattrs == 1 && !strcmp(m->attrs[0].name, "entry_computation_layout"));
  module_free(m);
  CHECK(round_trip("basic", t, false));
}

static void test_ops(void) {
  const char *t =
      "HloModule ops\n"
      "%lt (a: f32[], b: f32[], c: s32[], d: s32[]) -> pred[] {\n"
      "  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n  %c = s32[] parameter(2)\n  %d = s32[] parameter(3)\n"
      "  ROOT %l = pred[] compare(%a, %b), direction=LT, type=TOTALORDER\n}\n"
      "%t (x: f32[4]) -> f32[4] {\n  %x = f32[4] parameter(0)\n  ROOT %n = f32[4] negate(%x)\n}\n"
      "%f (x: f32[4]) -> f32[4] {\n  %x = f32[4] parameter(0)\n  ROOT %n = f32[4] exponential(%x)\n}\n"
      "ENTRY %e (x: f32[4], i: s32[4], k: f32[3,3,3,4], im: f32[1,8,8,3]) -> f32[4] {\n"
      "  %x = f32[4]{0} parameter(0)\n  %i = s32[4]{0} parameter(1)\n"
      "  %k = f32[3,3,3,4] parameter(2)\n  %im = f32[1,8,8,3] parameter(3)\n"
      "  %s = (f32[4]{0}, s32[4]{0}) sort(%x, %i), dimensions={0}, is_stable=true, to_apply=%lt\n"
      "  %s0 = f32[4]{0} get-tuple-element(%s), index=0\n"
      "  %cv = f32[1,4,4,4] convolution(%im, %k), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f\n"
      "  %p = pred[] constant(true)\n"
      "  %cd = f32[4] conditional(%p, %s0, %x), true_computation=%t, false_computation=%f\n"
      "  %sl = f32[2] slice(%cd), slice={[0:4:2]}\n"
      "  %z = f32[] constant(-inf)\n"
      "  %pd = f32[7] pad(%sl, %z), padding=1_2_2\n"
      "  %big = f32[2,2] constant({...})\n"
      "  %cc = (f32[4], s32[]) custom-call(%x), custom_call_target=\"foo\", api_version=API_VERSION_STATUS_RETURNING, backend_config=\"a\\\"b\"\n"
      "  ROOT %o = f32[4] add(%cd, %x)\n}\n";
  Module *m = parse_str("ops", t);
  CHECK(m != NULL);
  if (!m) return;
  Func *f = m->entry;
  Op *s = find_op(f, OP_SORT);
  CHECK(s && s->nres == 2 && op_attr_int(s, "dimension", -1) == 0 && op_attr_int(s, "is_stable", 0) == 1);
  Op *cv = find_op(f, OP_CONVOLUTION);
  Attr *dn = cv ? op_attr(cv, "dimension_numbers") : NULL;
  CHECK(dn && dict_int(dn, "input_feature_dimension", -1) == 3 && dict_int(dn, "kernel_output_feature_dimension", -1) == 3);
  int64_t *v;
  CHECK(cv && op_attr_ints(cv, "window_strides", &v) == 2 && v[0] == 2);
  Op *cd = find_op(f, OP_IF);
  CHECK(cd && cd->nregions == 2 && cd->nopnds == 1 && cd->regions[0]->nargs == 0);
  Op *sl = find_op(f, OP_SLICE);
  CHECK(sl && op_attr_ints(sl, "strides", &v) == 1 && v[0] == 2);
  Op *pd = find_op(f, OP_PAD);
  CHECK(pd && op_attr_ints(pd, "interior_padding", &v) == 1 && v[0] == 2);
  Op *cc = find_op(f, OP_CUSTOM_CALL);
  CHECK(cc && cc->nres == 2 && op_attr_int(cc, "api_version", 0) == 2);
  CHECK(cc && op_attr(cc, "backend_config")->slen == 3);
  module_free(m);
  CHECK(round_trip("ops", t, false));
}

static void test_errors(void) {
  static const char *bad[] = {
      "HloModule x\nENTRY e { ROOT %a = f32[] frobnicate() }",
      "HloModule x\nENTRY e { ROOT %a = f32[<=4] parameter(0) }",
      "HloModule x\nENTRY e { ROOT %a = f32[2] add(%b, %b) }",
      "HloModule x\nENTRY e { %a = f32[2] parameter(0)\n ROOT %b = f32[2] add(%a",
      "HloModule x\nENTRY e { ROOT %a = f32[2] constant({1, 2, 3}) }",
      "HloModule x\nENTRY e { ROOT %a = f32[] constant(1), metadata={op_name=\"x }",
      "HloModule x\n%c (p: f32[]) -> f32[] { %p = f32[] parameter(0)\n ROOT %r = f32[] reduce(%p, %p), dimensions={}, to_apply=%c }\nENTRY e { %p = f32[] parameter(0)\n ROOT %r = f32[] reduce(%p, %p), dimensions={}, to_apply=%c }",
      "HloModule x\nENTRY e { ROOT %a = f32[] add(%a, %a) }",
      "HloModule x\nENTRY e { ROOT %a = s8[] constant(300) }",
      "HloModule x\nENTRY e { %a = f32[2] parameter(0) ROOT %b = f32[1] bitcast(%a) }",
  };
  FILE *null = fopen("/dev/null", "w");
  diag_set_stream(null);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    int before = diag_error_count();
    Module *m = parse_str("bad", bad[i]);
    CHECK(m == NULL);
    CHECK(diag_error_count() > before);
    if (m) fprintf(stderr, "accepted bad input %zu\n", i);
    module_free(m);
  }
  /* every prefix of a valid module must fail cleanly or parse */
  const char *good =
      "HloModule m\nENTRY %e (p: f32[2]) -> f32[2] {\n  %p = f32[2]{0} parameter(0)\n"
      "  %c = f32[] constant(1.5)\n  %b = f32[2]{0} broadcast(%c), dimensions={}\n"
      "  ROOT %a = f32[2]{0} add(%p, %b), metadata={op_name=\"a\"}\n}\n";
  size_t n = strlen(good);
  int crashes = 0;
  for (size_t k = 0; k < n; k++) {
    Module *m = parse_str("prefix", good);
    module_free(m);
    int f = src_add("prefix", good, k);
    m = hlo_parse(f, 0, k);
    module_free(m);
  }
  CHECK(crashes == 0);
  diag_set_stream(NULL);
  fclose(null);
}

static int hook_line, hook_col;
static char hook_msg[256];
static void hook(DiagLevel lvl, SrcLoc loc, const char *msg, void *ud) {
  (void)ud;
  if (lvl != DIAG_ERROR || hook_msg[0]) return;
  snprintf(hook_msg, sizeof hook_msg, "%s", msg);
  src_line_col(loc, &hook_line, &hook_col);
}

/* Parses text[0, len) expecting an error whose message starts with msg at
   line:col. */
static void expect_error(const char *text, size_t len, const char *msg, int line, int col) {
  hook_msg[0] = 0;
  diag_set_hook(hook, NULL);
  Module *m = hlo_parse(src_add("bad", text, len), 0, len);
  diag_set_hook(NULL, NULL);
  bool ok = !m && strncmp(hook_msg, msg, strlen(msg)) == 0 && hook_line == line && hook_col == col;
  if (!ok) fprintf(stderr, "got %d:%d '%s', want %d:%d '%s'\n", hook_line, hook_col, hook_msg, line, col, msg);
  CHECK(ok);
  module_free(m);
}

static void test_located_errors(void) {
  /* a NUL byte, anywhere: refused where it is */
  static const char nul[] = "HloModule m\nENTRY e {\n  ROOT c = f32[] constant(1), backend_config=#foo<a\0b>\n}\n";
  expect_error(nul, sizeof nul - 1, "the input is not a text file", 3, 52);
  expect_error(nul, strlen(nul) + 1, "the input is not a text file", 3, 52);
  /* a cycle: named at the instruction that closes it */
  const char *cyc = "HloModule m\nENTRY e {\n  ROOT r = f32[] negate(a)\n  a = f32[] negate(b)\n  b = f32[] negate(a)\n}\n";
  expect_error(cyc, strlen(cyc), "instruction 'a' depends on itself", 4, 3);
}

int main(int argc, char **argv) {
  if (argc > 1) {
    for (int i = 1; i < argc; i++) {
      int f = src_load(argv[i]);
      if (f < 0) {
        failed++;
        continue;
      }
      const SrcFile *sf = src_get(f);
      bool ok = round_trip(argv[i], sf->text, getenv("VERBOSE") != NULL);
      if (ok) passed++;
      else {
        failed++;
        fprintf(stderr, "round trip failed: %s\n", argv[i]);
      }
    }
  } else {
    test_basic();
    test_ops();
    test_errors();
    test_located_errors();
    CHECK(hlo_sniff("// c\nHloModule x", 17));
    CHECK(!hlo_sniff("module {\n}", 10));
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
