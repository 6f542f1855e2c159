/*
 * program.c - programs: text in (StableHLO or HLO, detected; or a
 * TensorFlow GraphDef, by its name), a verified module out, and back to
 * text.
 */
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "frontends/frontend.h"
#include "frontends/hlo/hlo.h"
#include "frontends/tensorflow/tf.h"
#include "ir/print.h"
#include "ir/print_hlo.h"

xlac_program *api_program_new(Module *m, const char *name, const char *text, size_t len) {
  if (!m) return NULL;
  xlac_program *p = xcalloc(1, sizeof *p);
  p->magic = API_MAGIC_PROGRAM;
  p->m = m;
  p->name = xstrdup(name ? name : "<built>");
  if (text) {
    p->text = xmalloc(len + 1);
    memcpy(p->text, text, len);
    p->text[len] = 0;
    p->len = len;
  }
  p->file = -1;
  return p;
}

/* Registers text under name, parses and verifies it.  Runs inside a
   capture and a memory guard (the caller's); on failure the source is
   released again and NULL returned. */
Module *api_parse(const char *text, size_t len, const char *name, bool graph_by_name, int *out_file) {
  *out_file = -1;
  if (len >= SRC_MAX_BYTES) {
    error_at(SRCLOC_NONE, "%s: the program text is %zu bytes, more than the %zu a program may have", name, len,
             (size_t)SRC_MAX_BYTES);
    return NULL;
  }
  int fid = src_add(name, text, len);
  *out_file = fid; /* at once: a caller whose call unwinds releases it */
  /* a GraphDef by its name (binary, or text for .pbtxt), with its
     Placeholders as parameters and the nodes nothing uses as results;
     a .pb holding an HloModuleProto goes to the frontends */
  Module *m = graph_by_name && tf_is_graph_path(name) && !hlo_proto_claims(fid) ? tf_import_file(fid, NULL)
              : frontend_is_text(fid) ? frontend_parse(fid, 0, len)
                                      : NULL;
  if (!m) {
    src_release(fid);
    *out_file = -1;
    return NULL;
  }
  return m;
}

typedef struct ParseJob {
  const char *text;
  size_t len;
  const char *name;
  xlac_program *out;
  int file;
} ParseJob;

static bool parse_guarded(void *ctx) {
  ParseJob *j = ctx;
  Module *m = api_parse(j->text, j->len, j->name, true, &j->file);
  if (!m) return false;
  j->out = api_program_new(m, j->name, j->text, j->len);
  j->out->file = j->file;
  return true;
}

static xlac_status *parse_program(const char *text, size_t len, const char *name, xlac_program **out) {
  ParseJob j = {text, len, name, NULL, -1};
  ApiCapture cap;
  api_capture_begin(&cap);
  bool unwound;
  bool ok = api_guarded(parse_guarded, &j, true, &unwound);
  xlac_status *s = api_capture_end(&cap, ok, XLAC_INVALID_ARGUMENT, "the program could not be parsed");
  if (s) {
    if (unwound) src_release(j.file); /* the rest went with the call's memory */
    else xlac_program_destroy(j.out);
    return s;
  }
  *out = j.out;
  return NULL;
}

xlac_status *xlac_program_parse(const char *text, size_t len, const char *name, xlac_program **out_program) {
  if (!out_program) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_program_parse: out_program is NULL");
  *out_program = NULL;
  if (!text && len) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_program_parse: text is NULL");
  return parse_program(text ? text : "", len, name ? name : "<input>", out_program);
}

xlac_status *xlac_program_load(const char *path, xlac_program **out_program) {
  if (!out_program) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_program_load: out_program is NULL");
  *out_program = NULL;
  if (!path) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_program_load: path is NULL");
  char *text = NULL, *err = NULL;
  size_t len = 0;
  size_t max = alloc_limit_get() < SRC_MAX_BYTES ? alloc_limit_get() : SRC_MAX_BYTES;
  if (!read_file(path, max, &text, &len, &err)) {
    xlac_status *s = xlac_status_create(XLAC_NOT_FOUND, "%s", err ? err : path);
    xfree(err);
    return s;
  }
  xlac_status *s = parse_program(text, len, path, out_program);
  xfree(text);
  return s;
}

/* ---- GraphDef with a tf2xla Config ---- */
typedef struct GraphJob {
  const char *graph, *config;
  xlac_program *out;
  int file;
} GraphJob;

static bool graph_guarded(void *ctx) {
  GraphJob *j = ctx;
  j->file = src_load(j->graph);
  if (j->file < 0) return false;
  TfOptions o = {j->config, NULL, 0, NULL, NULL};
  Module *m = tf_import_file(j->file, &o);
  if (!m) return false;
  /* no text: compiling prints the module (the Config is not in the
     graph's bytes) */
  j->out = api_program_new(m, j->graph, NULL, 0);
  j->out->file = j->file;
  return true;
}

xlac_status *xlac_program_load_graphdef(const char *graph_path, const char *config_path,
                                        xlac_program **out_program) {
  if (!out_program)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_program_load_graphdef: out_program is NULL");
  *out_program = NULL;
  if (!graph_path) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_program_load_graphdef: graph_path is NULL");
  GraphJob j = {graph_path, config_path, NULL, -1};
  ApiCapture cap;
  api_capture_begin(&cap);
  bool unwound;
  bool ok = api_guarded(graph_guarded, &j, true, &unwound);
  xlac_status *s = api_capture_end(&cap, ok, XLAC_INVALID_ARGUMENT, "the graph could not be imported");
  if (s) {
    if (unwound || !j.out) {
      if (j.file >= 0) src_release(j.file);
    } else {
      xlac_program_destroy(j.out);
    }
    return s;
  }
  *out_program = j.out;
  return NULL;
}

typedef struct PrintJob {
  const Module *m;
  xlac_format format;
  StrBuf b;
} PrintJob;

static bool print_guarded(void *ctx) {
  PrintJob *j = ctx;
  if (j->format == XLAC_FORMAT_HLO)
    print_module_hlo(&j->b, j->m);
  else
    print_module_mlir(&j->b, j->m);
  return true;
}

xlac_status *api_print_module(const Module *m, xlac_format format, char **out_text, size_t *out_len) {
  if (format != XLAC_FORMAT_STABLEHLO && format != XLAC_FORMAT_HLO)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "unknown format %d (XLAC_FORMAT_STABLEHLO or XLAC_FORMAT_HLO)",
                              (int)format);
  PrintJob j = {m, format, {0}};
  ApiCapture cap;
  api_capture_begin(&cap);
  bool unwound;
  bool ok = api_guarded(print_guarded, &j, true, &unwound);
  xlac_status *s = api_capture_end(&cap, ok, XLAC_INTERNAL, "printing failed");
  if (s) {
    if (!unwound) sb_free(&j.b); /* else it went with the call's memory */
    return s;
  }
  if (out_len) *out_len = j.b.len;
  *out_text = j.b.data ? j.b.data : xstrdup("");
  return NULL;
}

xlac_status *xlac_program_print(const xlac_program *p, xlac_format format, char **out_text, size_t *out_len) {
  if (out_text) *out_text = NULL;
  if (out_len) *out_len = 0;
  if (!p || p->magic != API_MAGIC_PROGRAM)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_program_print: not a program");
  if (!out_text) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_program_print: out_text is NULL");
  return api_print_module(p->m, format, out_text, out_len);
}

void xlac_program_destroy(xlac_program *p) {
  if (!p || p->magic != API_MAGIC_PROGRAM) return;
  p->magic = API_MAGIC_DEAD;
  module_free(p->m);
  if (p->file >= 0) src_release(p->file);
  xfree(p->name);
  xfree(p->text);
  xfree(p);
}
