/*
 * mlirbc.c - the frontend's entry points: which files it reads, the
 * reading itself (the container in reader.c, attributes in attrs.c, ops in
 * ops.c), and diagnostics that locate by byte offset.
 */
#include <stdio.h>
#include <string.h>

#include "frontends/mlirbc/bc.h"

bool mlirbc_is_bytecode(const void *p, size_t n) { return n >= 4 && memcmp(p, "ML\xefR", 4) == 0; }

bool mlirbc_claims(int file) {
  const SrcFile *f = src_get(file);
  size_t begin, end, n;
  if (!f) return false;
  n = strlen(f->name);
  return mlirbc_is_bytecode(f->text, f->len) || (n >= 7 && strcmp(f->name + n - 7, ".mlirbc") == 0) ||
         jax_export_find((const uint8_t *)f->text, f->len, &begin, &end);
}

static bool check_call(Op *op, void *ud) {
  Bc *bc = ud;
  if (op->kind != OP_CALL) return true;
  const char *callee = op_attr_str(op, "callee");
  if (callee && module_find_func(bc->m, callee)) return true;
  return bc_fail(bc, bc->base + op->loc.off, "call to undefined function '@%s'", callee ? callee : "?");
}

static bool printable(const char *s) {
  size_t n = strlen(s);
  for (size_t i = 0; i < n; i++)
    if (s[i] < 0x20 || s[i] > 0x7e) return false;
  return n > 0 && n < 100;
}

Module *mlirbc_parse(int file) {
  const SrcFile *f = src_get(file);
  if (!f) return NULL;
  Bc bc = {0};
  size_t begin = 0, end = f->len;
  bc.file = file;
  bc.base = (const uint8_t *)f->text;
  /* a jax.export serialization: the artifact inside it */
  if (!mlirbc_is_bytecode(f->text, f->len)) jax_export_find(bc.base, f->len, &begin, &end);
  bc.m = module_new();
  bc.m->format = SRC_STABLEHLO;
  bc.m->loc = (SrcLoc){file, (uint32_t)begin};
  bool ok = bc_read(&bc, begin, end) && module_walk(bc.m, check_call, &bc);
  if (ok) bc_splats(&bc);
  ptrmap_free(&bc.splats);
  VEC_FREE(bc.values);
  if (ok) return bc.m;
  if (bc.producer && printable(bc.producer))
    note_at(((SrcLoc){file, (uint32_t)((const uint8_t *)bc.producer - bc.base)}),
            "in MLIR bytecode version %llu written by '%s'", (unsigned long long)bc.version, bc.producer);
  module_free(bc.m);
  return NULL;
}

/* ---- large splats ---- */

void bc_splats(Bc *bc) {
  if (!bc->splats.len) return;
  PtrMap taken = {0};
  split_splats(bc->m, SPLIT_SPLAT_MIN, &bc->splats, &taken);
  /* the attributes no constant took: all their elements */
  for (int i = 0; i < bc->splats.cap; i++) {
    Attr *a = (Attr *)bc->splats.keys[i];
    Type *t = bc->splats.vals[i];
    if (!a || !t || ptrmap_has(&taken, a)) continue;
    BA one = {.kind = BA_DENSE, .lit = a->lit, .splat = t};
    *a = *attr_dense(bc->m, ba_literal(bc, &one));
  }
  ptrmap_free(&taken);
}

/* ---- diagnostics by offset ---- */

static void offset_hook(DiagLevel lvl, SrcLoc loc, const char *msg, void *ud) {
  static const char *const level[] = {"error", "warning", "note"};
  MlirbcDiag *d = ud;
  const SrcFile *f = loc.file == d->file ? src_get(loc.file) : NULL;
  if (!f) {
    /* not ours: as it would have gone */
    if (d->prev.hook) {
      d->prev.hook(lvl, loc, msg, d->prev.ud);
    } else {
      size_t cap = diag_format_size(loc, msg);
      char *buf = xmalloc(cap);
      size_t n = diag_format(lvl, loc, msg, buf, cap);
      fwrite(buf, 1, n, d->prev.stream ? d->prev.stream : stderr);
      xfree(buf);
    }
    return;
  }
  if (d->prev.hook) {
    /* a capture: the message carries the location */
    char *text = xasprintf("%s:%u: %s", f->name, loc.off, msg);
    d->prev.hook(lvl, SRCLOC_NONE, text, d->prev.ud);
    xfree(text);
    return;
  }
  /* one write, as support.c does, so threads do not interleave */
  FILE *out = d->prev.stream ? d->prev.stream : stderr;
  char *text = xasprintf("%s:%u: %s: %s\n", f->name, loc.off, level[lvl], msg);
  fputs(text, out);
  fflush(out);
  xfree(text);
}

void mlirbc_diag_begin(MlirbcDiag *d, int file) {
  d->prev = diag_context_get();
  d->file = file;
  diag_set_hook(offset_hook, d);
}

void mlirbc_diag_end(MlirbcDiag *d) { diag_set_hook(d->prev.hook, d->prev.ud); }
