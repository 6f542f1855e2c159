/*
 * test_shlo_parse.c - StableHLO text frontend and MLIR printer.
 *
 * Without arguments: parses embedded samples, checks that each prints,
 * re-parses and prints again to the same text, and that malformed inputs
 * give the expected diagnostic at the expected line and column.
 *
 * With file arguments: every file is split on `// -----` lines (each chunk
 * is a module; locations stay offsets into the whole file) and each chunk
 * goes through the same round trip.  Chunks rejected only for an unknown
 * operation are counted separately, since those are ops xlac does not model.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/stablehlo/stablehlo.h"
#include "ir/print.h"
#include "ir/sharding.h"

static int passed, failed;
static char last_msg[512];
static int last_line, last_col;
static bool echo_diags = true;

static void hook(DiagLevel lvl, SrcLoc loc, const char *msg, void *ud) {
  (void)ud;
  if (lvl != DIAG_ERROR) return;
  if (last_msg[0]) return; /* keep the first error */
  snprintf(last_msg, sizeof last_msg, "%s", msg);
  src_line_col(loc, &last_line, &last_col);
  if (echo_diags) {
    const SrcFile *f = src_get(loc.file);
    fprintf(stderr, "  %s:%d:%d: error: %s\n", f ? f->name : "?", last_line, last_col, msg);
  }
}

static char *print_mod(Module *m) {
  StrBuf b = {0};
  print_module_mlir(&b, m);
  return sb_take(&b);
}

/* Parses [begin, end) of file, prints, reparses, prints; 0 ok, 1 parse error,
   2 round trip mismatch or reparse error. */
static int round_trip(int file, size_t begin, size_t end, const char *label) {
  last_msg[0] = 0;
  Module *m = stablehlo_parse(file, begin, end);
  if (!m) return 1;
  char *t1 = print_mod(m);
  module_free(m);
  int f2 = src_add("<printed>", t1, strlen(t1));
  last_msg[0] = 0;
  Module *m2 = stablehlo_parse(f2, 0, strlen(t1));
  if (!m2) {
    fprintf(stderr, "%s: printed text does not parse:\n%s\n", label, t1);
    free(t1);
    return 2;
  }
  char *t2 = print_mod(m2);
  module_free(m2);
  int rc = 0;
  if (strcmp(t1, t2) != 0) {
    fprintf(stderr, "%s: round trip differs:\n--- first\n%s--- second\n%s", label, t1, t2);
    rc = 2;
  }
  free(t1);
  free(t2);
  return rc;
}

static void check(bool ok, const char *what) {
  if (ok) {
    passed++;
  } else {
    failed++;
    fprintf(stderr, "FAIL: %s\n", what);
  }
}

static const char *good[] = {
    /* the seed program, missing its closing brace */
    "func.func @main(\n"
    "  %alpha: tensor<f32>, %x: tensor<4xf32>, %y: tensor<4xf32>\n"
    ") -> tensor<4xf32> {\n"
    "  %0 = stablehlo.broadcast_in_dim %alpha, dims = []\n"
    "    : (tensor<f32>) -> tensor<4xf32>\n"
    "  %1 = stablehlo.multiply %0, %x : tensor<4xf32>\n"
    "  %2 = stablehlo.add %1, %y : tensor<4xf32>\n"
    "  func.return %2: tensor<4xf32>\n",
    "func.func @main(%x: tensor<f32>) -> tensor<f32> { %tanh = stablehlo.tanh %x: tensor<f32>  func.return %tanh: tensor<f32>",
    /* generic form, regions, properties, multiple results */
    "func.func @sort(%a: tensor<3xi64>, %b: tensor<3xf32>) -> (tensor<3xi64>, tensor<3xf32>) {\n"
    "  %0:2 = \"stablehlo.sort\"(%a, %b) <{dimension = 0 : i64}> ({\n"
    "  ^bb0(%x: tensor<i64>, %y: tensor<i64>, %u: tensor<f32>, %v: tensor<f32>):\n"
    "    %c = stablehlo.compare LT, %x, %y, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
    "    stablehlo.return %c : tensor<i1>\n"
    "  }) {is_stable = true} : (tensor<3xi64>, tensor<3xf32>) -> (tensor<3xi64>, tensor<3xf32>)\n"
    "  return %0#0, %0#1 : tensor<3xi64>, tensor<3xf32>\n"
    "}\n",
    /* module wrapper, attributes, locations, aliases */
    "#loc1 = loc(\"x.py\":1:2)\n"
    "module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {\n"
    "  func.func public @main(%arg0: tensor<2x3xf32> {mhlo.sharding = \"{replicated}\"} loc(#loc1)) -> "
    "(tensor<3x2xf32> {jax.result_info = \"\"}) {\n"
    "    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32> loc(#loc1)\n"
    "    %1 = stablehlo.constant dense<[[1.0, 2.0], [3.5, -4.0], [0x7F800000, 0xFFC00000]]> : tensor<3x2xf32>\n"
    "    %2 = call @helper(%0, %1) : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>\n"
    "    return %2 : tensor<3x2xf32> loc(#loc1)\n"
    "  } loc(#loc1)\n"
    "  func.func private @helper(%a: tensor<3x2xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {\n"
    "    %0 = stablehlo.add %a, %b : tensor<3x2xf32>\n"
    "    return %0 : tensor<3x2xf32>\n"
    "  }\n"
    "} loc(#loc1)\n"
    "#loc2 = loc(unknown)\n",
    /* pretty forms of ops with their own grammar */
    "func.func @pretty(%x: tensor<4x6xf32>, %z: tensor<f32>, %i: tensor<i64>) -> tensor<4xf32> {\n"
    "  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>\n"
    "  %1 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>\n"
    "   reducer(%a: tensor<f32>, %b: tensor<f32>) {\n"
    "    %m = stablehlo.maximum %a, %b : tensor<f32>\n"
    "    stablehlo.return %m : tensor<f32>\n"
    "  }\n"
    "  %2 = stablehlo.slice %x [1:3, 0:6:2] : (tensor<4x6xf32>) -> tensor<2x3xf32>\n"
    "  %3 = stablehlo.pad %x, %z, low = [0, 1], high = [1, 0], interior = [0, 0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<5x7xf32>\n"
    "  %4 = stablehlo.iota dim = 0 : tensor<4xi64>\n"
    "  %5 = stablehlo.dynamic_slice %x, %i, %i, sizes = [2, 2] : (tensor<4x6xf32>, tensor<i64>, tensor<i64>) -> tensor<2x2xf32>\n"
    "  %6 = stablehlo.concatenate %0, %1, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>\n"
    "  %7 = stablehlo.dot_general %x, %x, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x4xf32>\n"
    "  %8:2 = stablehlo.while(%iv = %i, %acc = %z) : tensor<i64>, tensor<f32>\n"
    "   cond {\n"
    "    %c = stablehlo.compare LT, %iv, %i : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
    "    stablehlo.return %c : tensor<i1>\n"
    "  } do {\n"
    "    %s = stablehlo.add %acc, %z : tensor<f32>\n"
    "    stablehlo.return %iv, %s : tensor<i64>, tensor<f32>\n"
    "  }\n"
    "  %9 = stablehlo.custom_call @foo(%x) {backend_config = \"\\22x\\22\", api_version = 2 : i32} : (tensor<4x6xf32>) -> tensor<4x6xf32>\n"
    "  %p = stablehlo.compare GT, %0, %1, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
    "  %10 = stablehlo.select %p, %0, %1 : tensor<4xi1>, tensor<4xf32>\n"
    "  return %0 : tensor<4xf32>\n"
    "}\n",
    /* Shardy: meshes, shardings of arguments, results and ops, constraints */
    "module @sdy {\n"
    "  sdy.mesh @mesh = <[\"x\"=4, \"y\"=2]> {stablehlo.mesh = {axes = []}}\n"
    "  sdy.mesh @rev = <[\"a\"=2], device_ids=[1, 0]>\n"
    "  func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\":(1)2, \"y\"}p0, {?}], "
    "replicated={\"x\":(2)2}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<[\"z\"=2]>, [{}, {\"z\", ?}]>}) {\n"
    "    %0 = sdy.sharding_constraint %a <@rev, [{\"a\"}, {}], unreduced=min{\"a\"}> : tensor<8x8xf32>\n"
    "    %1 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {\"y\"}]>]>} : tensor<8x8xf32>\n"
    "    return %1 : tensor<8x8xf32>\n"
    "  }\n"
    "}\n",
};

struct bad_case {
  const char *src;
  const char *msg; /* prefix of the first error */
  int line, col;
};

static const struct bad_case bad[] = {
    {"func.func @f() {\n  %0 = stablehlo.frobnicate : tensor<f32>\n}\n", "unknown operation 'stablehlo.frobnicate'", 2, 8},
    {"func.func @f() {\n  %0 = stablehlo.constant dense<300> : tensor<i8>\n}\n", "integer value 300 does not fit in i8", 2, 33},
    {"func.func @f() {\n  %0 = stablehlo.constant dense<[1, 2, 3]> : tensor<2xi32>\n}\n", "too many elements", 2, 40},
    {"func.func @f(%a: tensor<?xf32>) {\n}\n", "dynamic dimensions are not supported", 1, 25},
    {"func.func @f() {\n  func.return %x : tensor<f32>\n}\n", "use of undefined value '%x'", 2, 15},
    {"func.func @f(%a: tensor<f32>) {\n  %a = stablehlo.abs %a : tensor<f32>\n}\n", "redefinition of value '%a'", 2, 3},
    {"func.func @f(", "expected argument name", 1, 14},
    {"func.func @f() { %0 = \"stablehlo.add\"(((((((", "expected SSA value", 1, 39},
    {"func.func @f(%a: tensor<2xf32>) {\n  %0 = stablehlo.add %a, %a : tensor<3xf32>\n}\n", "operand #0 has type", 2, 22},
    {"sdy.mesh @m = <[\"x\"=2]>\nfunc.func @f(%a: tensor<2xf32> {sdy.sharding = #sdy.sharding<@m, [{\"x\" ?}]>}) {\n}\n",
     "expected '}' or ', ?' to end a dimension sharding", 2, 72},
    {"sdy.mesh @m = <[\"x\"=2]>\nsdy.mesh @m = <[]>\n", "redefinition of mesh '@m'", 2, 10},
    {"func.func @f(%a: tensor<2xf32>) {\n  %0 = sdy.sharding_constraint %a <[]> : tensor<2xf32>\n}\n",
     "expected a mesh name (@mesh) or an inline mesh", 2, 36},
};

static void run_nul_and_opaque(void);
static void run_shardings(void);

static void run_embedded(void) {
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    char label[32];
    snprintf(label, sizeof label, "sample %zu", i);
    int f = src_add(label, good[i], strlen(good[i]));
    int rc = round_trip(f, 0, strlen(good[i]), label);
    check(rc == 0, label);
  }
  echo_diags = false;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char label[32];
    snprintf(label, sizeof label, "bad %zu", i);
    int f = src_add(label, bad[i].src, strlen(bad[i].src));
    last_msg[0] = 0;
    Module *m = stablehlo_parse(f, 0, strlen(bad[i].src));
    bool ok = !m && strncmp(last_msg, bad[i].msg, strlen(bad[i].msg)) == 0 && last_line == bad[i].line &&
              last_col == bad[i].col;
    if (!ok)
      fprintf(stderr, "%s: got %d:%d '%s', want %d:%d '%s'\n", label, last_line, last_col, last_msg,
              bad[i].line, bad[i].col, bad[i].msg);
    module_free(m);
    check(ok, label);
  }
  run_nul_and_opaque();
  run_shardings();
  echo_diags = true;
}

/* The queries on shardings (ir/sharding.h) over a parsed module: the mesh
   table, the shardings of arguments, results and ops as structures, and
   setting one. */
static void run_shardings(void) {
  static const char src[] =
      "sdy.mesh @mesh = <[\"x\"=4, \"y\"=2]>\n"
      "sdy.mesh @rev = <[\"a\"=2, \"b\"=2], device_ids=[3, 2, 1, 0]>\n"
      "func.func @main(%a: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\":(1)2, \"y\"}p1, {?}], "
      "replicated={\"x\":(2)2}>}, %b: tensor<4xf32>) -> (tensor<8x6xf32>, tensor<8x6xf32> {foo}) {\n"
      "  %0 = sdy.sharding_constraint %a <@rev, [{\"b\", \"a\"}, {}], unreduced=max{\"a\"}> : tensor<8x6xf32>\n"
      "  %1:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>, "
      "<@mesh, [{\"y\", ?}, {\"x\"}]>]>} %0, %0 : tensor<8x6xf32>, tensor<8x6xf32>\n"
      "  return %1#0, %1#1 : tensor<8x6xf32>, tensor<8x6xf32>\n"
      "}\n";
  int f = src_add("shardings", src, strlen(src));
  Module *m = stablehlo_parse(f, 0, strlen(src));
  check(m != NULL, "sharding sample parses");
  if (!m) return;
  check(m->nmeshes == 2 && module_find_mesh(m, "rev") == &m->meshes[1] && !module_find_mesh(m, "nope"),
        "mesh table");
  const SdyMesh *mesh = m->meshes[0].mesh, *rev = m->meshes[1].mesh;
  check(mesh->naxes == 2 && strcmp(mesh->axes[1].name, "y") == 0 && mesh->axes[1].size == 2 && mesh->ndevices == 0 &&
            sdy_mesh_size(mesh) == 8 && sdy_mesh_axis(mesh, "y") == 1 && sdy_mesh_axis(mesh, "q") == -1,
        "mesh axes");
  check(rev->ndevices == 4 && rev->device_ids[0] == 3 && rev->device_ids[3] == 0, "mesh device ids");
  Func *fn = module_find_func(m, "main");
  SdySharding s;
  check(func_arg_sharding(m, fn, 0, &s) && s.mesh_name && strcmp(s.mesh_name, "mesh") == 0 && s.ndims == 2,
        "argument sharding");
  check(s.dims[0].naxes == 2 && strcmp(s.dims[0].axes[0].name, "x") == 0 && s.dims[0].axes[0].pre_size == 1 &&
            s.dims[0].axes[0].size == 2 && s.dims[0].axes[1].size == 0 && s.dims[0].closed && s.dims[0].priority == 1,
        "dimension sharding with a sub-axis and a priority");
  check(s.dims[1].naxes == 0 && !s.dims[1].closed && s.dims[1].priority == -1, "open dimension");
  check(s.nreplicated == 1 && s.replicated[0].pre_size == 2 && s.nunreduced == 0, "replicated axes");
  check(sdy_sharding_mesh(m, &s) == mesh && sdy_dim_ways(mesh, &s.dims[0]) == 4 && sdy_dim_ways(mesh, &s.dims[1]) == 1,
        "ways a dimension is split");
  char *e = sdy_sharding_check(m, &s, fn->body->args[0]->type);
  check(e == NULL, "the argument's sharding holds");
  free(e);
  e = sdy_sharding_check(m, &s, fn->body->args[1]->type);
  check(e && strstr(e, "rank 1"), "the argument's sharding does not fit a rank-1 tensor");
  free(e);
  check(!func_arg_sharding(m, fn, 1, &s) && !func_result_sharding(m, fn, 1, &s), "values without a sharding");
  Op *c = fn->body->first, *bar = c->next;
  check(op_result_sharding(m, c, 0, &s) && strcmp(s.mesh_name, "rev") == 0 && s.dims[0].naxes == 2 &&
            strcmp(s.dims[0].axes[0].name, "b") == 0 && s.nunreduced == 1 && s.reduction == SDY_MAX,
        "constraint's sharding");
  check(op_result_sharding(m, bar, 1, &s) && s.dims[0].naxes == 1 && !s.dims[0].closed &&
            strcmp(s.dims[1].axes[0].name, "x") == 0 && !op_result_sharding(m, bar, 2, &s),
        "an op's sharding per value");
  /* setting shardings: built from structures, printed canonically */
  SdyAxisRef y = {"y", 0, 0};
  SdyDim dims[2] = {{1, &y, true, -1}, {0, NULL, false, 3}};
  SdySharding mine = {"mesh", NULL, 2, dims, 0, NULL, 0, NULL, SDY_SUM};
  func_set_result_sharding(m, fn, 1, &mine);
  func_set_arg_sharding(m, fn, 0, NULL);
  char *t = print_mod(m);
  check(strstr(t, "-> (tensor<8x6xf32>, tensor<8x6xf32> {foo, sdy.sharding = #sdy.sharding<@mesh, [{\"y\"}, {?}p3]>})") &&
            strstr(t, "func.func @main(%arg0: tensor<8x6xf32>, %arg1"),
        "set and removed shardings print");
  free(t);
  check(func_result_sharding(m, fn, 1, &s) && s.dims[1].priority == 3, "a set sharding reads back");
  module_free(m);
  /* the reader's errors are at their offset */
  Arena ar;
  arena_init(&ar);
  size_t off = 0;
  char *err = NULL;
  static const char bad_text[] = "<@m, [{\"x\"}, {\"y\":(1}]>";
  check(sdy_parse_sharding(&ar, bad_text, strlen(bad_text), &s, &off, &err) == 0 && off == 20 && err &&
            strstr(err, "expected ')'"),
        "sharding text error offset");
  free(err);
  static const char per_value[] = "<[<@m, []>, <mesh<[\"a\"=1]>, [{}]>]> tail";
  SdySharding *all = NULL;
  int n = 0;
  check(sdy_parse_per_value(&ar, per_value, strlen(per_value), &all, &n, &off, &err) == strlen(per_value) - 5 &&
            n == 2 && all[1].mesh && all[1].mesh->naxes == 1,
        "per-value text reads up to its end");
  arena_free(&ar);
}

/* A NUL byte is refused where it is, wherever it is (an opaque attribute's
   body once kept it, and the printer then cut the body short there); an
   opaque body is printed whole and round-trips exactly. */
static void run_nul_and_opaque(void) {
  static const char nul_src[] = "func.func @f() {\n  %0 = stablehlo.constant {a = #foo.bar<x\0y>} dense<1.0> : tensor<f32>\n  func.return\n}\n";
  /* the whole text, and the text up to and including the NUL */
  size_t ends[2] = {sizeof nul_src - 1, strlen(nul_src) + 1};
  for (int i = 0; i < 2; i++) {
    size_t end = ends[i];
    int f = src_add("nul", nul_src, end);
    last_msg[0] = 0;
    Module *m = stablehlo_parse(f, 0, end);
    bool ok = !m && strncmp(last_msg, "the input is not a text file", 28) == 0 && last_line == 2 && last_col == 42;
    if (!ok) fprintf(stderr, "nul: got %d:%d '%s'\n", last_line, last_col, last_msg);
    module_free(m);
    check(ok, "NUL byte refused at its place");
  }
  /* escapes inside an opaque body stay escapes: the round trip is exact */
  static const char opq[] = "func.func @f() {\n  %0 = stablehlo.constant {a = #foo.bar<\"x\\00y\", [1, {b = 2}]>} dense<1.0> : tensor<f32>\n  func.return\n}\n";
  int f = src_add("opaque", opq, strlen(opq));
  check(round_trip(f, 0, strlen(opq), "opaque") == 0, "opaque body round trip");
  Module *m = stablehlo_parse(f, 0, strlen(opq));
  char *t = m ? print_mod(m) : NULL;
  check(t && strstr(t, "#foo.bar<\"x\\00y\", [1, {b = 2}]>") != NULL, "opaque body printed whole");
  free(t);
  module_free(m);
  /* the printer writes every byte of the body it is given */
  static const char body[] = "#x<a\0b>";
  Attr a = {0};
  a.kind = ATTR_OPAQUE;
  a.s = body;
  a.slen = sizeof body - 1;
  StrBuf b = {0};
  print_attr_mlir(&b, &a);
  check(b.len == sizeof body - 1 && memcmp(b.data, body, sizeof body - 1) == 0, "opaque body printed past a NUL");
  sb_free(&b);
  a.name = "hlo"; /* HLO attribute text: printed as a string */
  print_attr_mlir(&b, &a);
  char *s = sb_take(&b);
  check(strcmp(s, "\"#x<a\\00b>\"") == 0, "HLO opaque text printed whole as a string");
  free(s);
}

static bool is_split_line(const char *s, size_t n) {
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
  return n == 8 && memcmp(s, "// -----", 8) == 0;
}

/* Robustness: every chunk cut short at many points, and with one byte
   replaced by a delimiter, must give a clean error or a module, never a crash. */
static void run_truncations(int file, size_t begin, size_t end) {
  size_t n = end - begin;
  size_t step = n / 64 ? n / 64 : 1;
  const SrcFile *sf = src_get(file);
  char *copy = malloc(n + 1);
  for (size_t cut = begin; cut < end; cut += step) {
    Module *m = stablehlo_parse(file, begin, cut);
    module_free(m);
    static const char junk[] = "{}()<>[],:=%#@\"";
    memcpy(copy, sf->text + begin, n);
    copy[n] = 0;
    copy[cut - begin] = junk[(cut / step) % (sizeof junk - 1)];
    int f2 = src_add("<mutated>", copy, n);
    m = stablehlo_parse(f2, 0, n);
    module_free(m);
    sf = src_get(file);
  }
  free(copy);
}

static bool truncate_mode;

static void run_file(const char *path, int *unknown) {
  int f = src_load(path);
  if (f < 0) {
    check(false, path);
    return;
  }
  size_t begin = 0, pos = 0;
  int chunk = 0;
  /* src_add (used by round_trip) may move the file table: look it up each time */
  for (const SrcFile *sf = src_get(f); pos <= sf->len; sf = src_get(f)) {
    size_t eol = pos;
    while (eol < sf->len && sf->text[eol] != '\n') eol++;
    bool split = is_split_line(sf->text + pos, eol - pos);
    if (split || eol >= sf->len) {
      size_t end = split ? pos : sf->len;
      char label[600];
      snprintf(label, sizeof label, "%s chunk %d", path, chunk);
      if (truncate_mode) {
        run_truncations(f, begin, end);
        chunk++;
        begin = eol + 1;
        pos = eol + 1;
        passed++;
        continue;
      }
      int rc = round_trip(f, begin, end, label);
      if (rc == 1 && strncmp(last_msg, "unknown operation", 17) == 0)
        (*unknown)++;
      else
        check(rc == 0, label);
      chunk++;
      begin = eol + 1;
    }
    pos = eol + 1;
  }
}

int main(int argc, char **argv) {
  diag_set_hook(hook, NULL);
  int unknown = 0;
  if (argc == 3 && strcmp(argv[1], "--print") == 0) {
    /* debugging aid: print one file's module */
    int f = src_load(argv[2]);
    Module *m = f < 0 ? NULL : stablehlo_parse(f, 0, src_get(f)->len);
    if (!m) return 1;
    char *t = print_mod(m);
    fputs(t, stdout);
    free(t);
    module_free(m);
    return 0;
  }
  int first = 1;
  if (argc > 1 && strcmp(argv[1], "--truncate") == 0) {
    truncate_mode = true;
    echo_diags = false;
    first = 2;
  }
  if (argc <= first)
    run_embedded();
  else
    for (int i = first; i < argc; i++) run_file(argv[i], &unknown);
  if (unknown) printf("%d chunks use operations xlac does not know\n", unknown);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
