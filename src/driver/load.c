/*
 * load.c - from a path to verified modules, and the commands that stop
 * there: `xlac print` and `xlac verify` (with --verify-diagnostics, the
 * MLIR-style `// expected-error @+1 {{...}}` test protocol).
 *
 * --split-input-file cuts the file at lines that are exactly "// -----";
 * each chunk is parsed in place (offsets into the whole file) so that every
 * diagnostic points at the real line.  A chunk that fails does not stop the
 * others, as in MLIR tools, but the command fails.
 */
#include <stdlib.h>
#include <string.h>

#include "driver/driver.h"
#include "frontends/frontend.h"
#include "frontends/hlo/hlo.h"
#include "frontends/tensorflow/tf.h"
#if __has_include("ir/print.h")
#include "ir/print.h"
#define HAVE_PRINT_MLIR 1
#endif
#if __has_include("ir/print_hlo.h")
#include "ir/print_hlo.h"
#define HAVE_PRINT_HLO 1
#endif
#if __has_include("ir/verify.h")
#include "ir/verify.h"
#define HAVE_VERIFY 1
#endif

typedef struct Chunk {
  size_t begin, end;
} Chunk;

/* A separator line: "// -----" with optional trailing blanks. */
static bool is_separator(const char *s, size_t len) {
  static const char sep[] = "// -----";
  if (len < sizeof sep - 1 || memcmp(s, sep, sizeof sep - 1) != 0) return false;
  for (size_t i = sizeof sep - 1; i < len; i++)
    if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return false;
  return true;
}

static int split_chunks(const SrcFile *f, bool split, Chunk **out) {
  VEC(Chunk) v = {0};
  size_t begin = 0, pos = 0;
  while (split && pos < f->len) {
    const char *nl = memchr(f->text + pos, '\n', f->len - pos);
    size_t eol = nl ? (size_t)(nl - f->text) : f->len;
    if (is_separator(f->text + pos, eol - pos)) {
      VEC_PUSH(v, ((Chunk){begin, pos}));
      begin = nl ? eol + 1 : eol;
    }
    pos = nl ? eol + 1 : eol;
  }
  VEC_PUSH(v, ((Chunk){begin, f->len}));
  *out = v.data;
  return v.len;
}

static TfOptions tf_options;

void driver_set_tf_options(const char *config, const char **fetches, int nfetches, const char *checkpoint,
                           const char *saver) {
  tf_options.config = config;
  tf_options.checkpoint = checkpoint;
  tf_options.saver = saver;
  tf_options.fetches = fetches;
  tf_options.nfetches = nfetches;
}

/* A file named like a GraphDef (.pb) that holds a serialized HloModuleProto
   instead: the file loaded (its id), or -1. */
static int load_hlo_proto(const char *path) {
  if (tf_options.config || tf_options.nfetches || tf_options.checkpoint || !tf_is_graph_path(path)) return -1;
  int fid = src_load(path);
  if (fid >= 0 && !hlo_proto_claims(fid)) {
    src_release(fid);
    fid = -1;
  }
  return fid;
}

bool for_each_module(const char *path, bool split, ChunkFn fn, void *ud, int *file) {
  int hpb = load_hlo_proto(path);
  if (hpb >= 0) {
    if (file) *file = hpb;
    Module *m = frontend_parse(hpb, 0, src_get(hpb)->len);
    fn(&m, 0, 1, ud);
    if (m) module_free(m);
    return true;
  }
  if (tf_options.config || tf_options.nfetches || tf_options.checkpoint || tf_is_graph_path(path)) {
    /* a TensorFlow graph: one module, or none after its diagnostics */
    if (file) *file = -1;
    Module *m = tf_import(path, &tf_options);
    fn(&m, 0, 1, ud);
    if (m) module_free(m);
    return true;
  }
  int fid = src_load(path);
  if (file) *file = fid;
  if (fid < 0) return false;
  if (!frontend_is_text(fid)) return false;
  Chunk *chunks;
  int nc = split_chunks(src_get(fid), split, &chunks);
  for (int i = 0; i < nc; i++) {
    Module *m = frontend_parse(fid, chunks[i].begin, chunks[i].end);
    fn(&m, i, nc, ud);
    if (m) module_free(m);
  }
  xfree(chunks);
  return true;
}

typedef struct Collect {
  Module **mods;
  int n;
} Collect;

static void collect(Module **m, int index, int count, void *ud) {
  Collect *c = ud;
  if (!c->mods) c->mods = xcalloc((size_t)count, sizeof(Module *));
  c->mods[index] = *m;
  c->n = count;
  *m = NULL;
}

static Module **load(const char *path, bool split, int *n, int *file) {
  Collect c = {NULL, 0};
  bool ok = for_each_module(path, split, collect, &c, file);
  *n = c.n;
  if (!ok) {
    free_modules(c.mods, c.n);
    *n = 0;
    return NULL;
  }
  return c.mods;
}

Module **load_modules(const char *path, bool split, int *n) {
  int fid;
  return load(path, split, n, &fid);
}

void free_modules(Module **mods, int n) {
  if (!mods) return;
  for (int i = 0; i < n; i++)
    if (mods[i]) module_free(mods[i]);
  xfree(mods);
}

/* ---- xlac print ---- */
typedef struct PrintState {
  bool hlo;
  int status;
  int printed;
} PrintState;

static void print_chunk(Module **mp, int index, int count, void *ud) {
  PrintState *ps = ud;
  if (!*mp) {
    ps->status = 1;
    return;
  }
  StrBuf b = {0};
  if (ps->hlo) {
#ifdef HAVE_PRINT_HLO
    print_module_hlo(&b, *mp);
#endif
  } else {
#ifdef HAVE_PRINT_MLIR
    print_module_mlir(&b, *mp);
#endif
  }
  if (!b.data) {
    fprintf(stderr, "xlac: error: printing %s is not available in this build\n", ps->hlo ? "hlo" : "mlir");
    ps->status = 1;
    return;
  }
  /* chunks stay separated so the output splits the same way */
  if (ps->printed++) fputs(ps->hlo ? "\n" : "// -----\n", stdout);
  fputs(b.data, stdout);
  fflush(stdout);
  sb_free(&b);
}

int driver_print(const char *path, const char *format, bool split) {
  if (strcmp(format, "mlir") != 0 && strcmp(format, "hlo") != 0) {
    fprintf(stderr, "xlac: error: unknown print format '%s' (expected mlir or hlo)\n", format);
    return 1;
  }
  PrintState ps = {strcmp(format, "hlo") == 0, 0, 0};
  if (!for_each_module(path, split, print_chunk, &ps, NULL)) return 1;
  return ps.status;
}

/* ---- xlac verify [--verify-diagnostics] ---- */
typedef struct Produced {
  DiagLevel lvl;
  SrcLoc loc;
  int line; /* 0 when the location is unknown */
  char *msg;
  bool matched;
} Produced;

typedef struct Expected {
  DiagLevel lvl;
  SrcLoc loc; /* of the annotation, for reporting */
  int line;   /* line the diagnostic must be on; 0 = unknown location */
  char *msg;
} Expected;

typedef VEC(Produced) ProducedVec;
typedef VEC(Expected) ExpectedVec;

static void capture(DiagLevel lvl, SrcLoc loc, const char *msg, void *ud) {
  ProducedVec *v = ud;
  Produced p = {lvl, loc, 0, xstrdup(msg), false};
  int col;
  if (src_get(loc.file)) src_line_col(loc, &p.line, &col);
  VEC_PUSH(*v, p);
}

static const char *level_name(DiagLevel l) {
  return l == DIAG_ERROR ? "error" : l == DIAG_WARNING ? "warning" : "note";
}

/* Finds `// expected-<level> [@+N|@-N|@above|@below|@unknown] {{text}}`
   annotations.  Returns false (after reporting) on a malformed one. */
static bool collect_expected(int fid, ExpectedVec *out) {
  const SrcFile *f = src_get(fid);
  bool ok = true;
  int line = 1;
  for (size_t pos = 0; pos < f->len; line++) {
    const char *nl = memchr(f->text + pos, '\n', f->len - pos);
    size_t eol = nl ? (size_t)(nl - f->text) : f->len;
    char *s = xstrndup(f->text + pos, eol - pos);
    static const char *const kinds[] = {"expected-error", "expected-warning", "expected-note", "expected-remark"};
    for (int k = 0; k < 4; k++) {
      char *a = strstr(s, kinds[k]);
      if (!a) continue;
      SrcLoc aloc = {fid, (uint32_t)(pos + (size_t)(a - s))};
      char *p = a + strlen(kinds[k]);
      int target = line;
      while (*p == ' ' || *p == '\t') p++;
      if (*p == '@') {
        p++;
        if (*p == '+' || *p == '-') {
          char *e;
          long d = strtol(p, &e, 10);
          if (e == p + 1 || d > 100000 || d < -100000) {
            error_at(aloc, "malformed line offset in %s", kinds[k]);
            ok = false;
            break;
          }
          target = line + (int)d;
          p = e;
        } else if (strncmp(p, "above", 5) == 0) {
          target = line - 1, p += 5;
        } else if (strncmp(p, "below", 5) == 0) {
          target = line + 1, p += 5;
        } else if (strncmp(p, "unknown", 7) == 0) {
          target = 0, p += 7;
        } else {
          error_at(aloc, "unknown location designator in %s", kinds[k]);
          ok = false;
          break;
        }
        while (*p == ' ' || *p == '\t') p++;
      }
      char *open = strstr(p, "{{"), *close = open ? strstr(open + 2, "}}") : NULL;
      if (!open || !close) {
        error_at(aloc, "%s needs a message in {{...}}", kinds[k]);
        ok = false;
        break;
      }
      if (k == 3) break; /* remarks are not produced by xlac; ignore them */
      Expected e = {k == 0 ? DIAG_ERROR : k == 1 ? DIAG_WARNING : DIAG_NOTE, aloc, target,
                    xstrndup(open + 2, (size_t)(close - open - 2))};
      VEC_PUSH(*out, e);
      break;
    }
    xfree(s);
    pos = nl ? eol + 1 : eol;
  }
  return ok;
}

int driver_verify(const char *path, bool split, bool verify_diagnostics) {
  int n;
  if (!verify_diagnostics) {
    Module **mods = load_modules(path, split, &n);
    if (!mods) return 1;
    int status = 0;
    for (int i = 0; i < n; i++)
      if (!mods[i]) status = 1;
    free_modules(mods, n);
    return status;
  }
  ProducedVec produced = {0};
  int fid;
  diag_set_hook(capture, &produced);
  Module **mods = load(path, split, &n, &fid);
  diag_set_hook(NULL, NULL);
  if (!mods) {
    for (int i = 0; i < produced.len; i++) xfree(produced.data[i].msg);
    VEC_FREE(produced);
    return 1;
  }
  free_modules(mods, n);
  ExpectedVec expected = {0};
  bool ok = collect_expected(fid, &expected);
  for (int i = 0; i < expected.len; i++) {
    Expected *e = &expected.data[i];
    bool found = false;
    for (int j = 0; j < produced.len && !found; j++) {
      Produced *p = &produced.data[j];
      if (p->matched || p->lvl != e->lvl || p->line != e->line || !strstr(p->msg, e->msg)) continue;
      if (e->line && p->loc.file != fid) continue;
      p->matched = found = true;
    }
    if (!found) {
      error_at(e->loc, "expected %s \"%s\" was not produced", level_name(e->lvl), e->msg);
      ok = false;
    }
  }
  for (int j = 0; j < produced.len; j++) {
    Produced *p = &produced.data[j];
    if (!p->matched && p->lvl != DIAG_NOTE) {
      error_at(p->loc, "unexpected %s: %s", level_name(p->lvl), p->msg);
      ok = false;
    }
  }
  for (int i = 0; i < produced.len; i++) xfree(produced.data[i].msg);
  for (int i = 0; i < expected.len; i++) xfree(expected.data[i].msg);
  VEC_FREE(produced);
  VEC_FREE(expected);
  return ok ? 0 : 1;
}

/* ---- xlac tf-clusters ---- */
int driver_tf_clusters(int argc, char **argv) {
  const char *graph = NULL, *picture = NULL, *v = NULL;
  for (int i = 2; i < argc; i++) {
    if (driver_option_value(argc, argv, &i, "--picture", &v)) {
      if (!v || !*v) {
        fprintf(stderr, "xlac tf-clusters: error: --picture needs a file name (.dot or .html)\n");
        return 1;
      }
      picture = v;
    } else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "xlac tf-clusters: error: unknown option '%s'\n", argv[i]);
      return 1;
    } else if (graph) {
      fprintf(stderr, "xlac tf-clusters: error: more than one graph ('%s')\n", argv[i]);
      return 1;
    } else {
      graph = argv[i];
    }
  }
  if (!graph) {
    fprintf(stderr, "xlac tf-clusters: error: missing the GraphDef file\n");
    return 1;
  }
  return tf_clusters(graph, picture, &tf_options);
}
