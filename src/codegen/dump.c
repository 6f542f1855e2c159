/*
 * dump.c - writing the compiler's intermediate forms to --xla_dump_to.
 * (Minimal bring-up version: module text before/after optimizations.)
 */
#include "codegen/dump.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ir/print_hlo.h"

static char *dump_path(const CpuOptions *o, const Module *m, const char *suffix) {
  return xasprintf("%s/module_%04d.%s.%s", o->dump_dir, o->module_id, m->name ? m->name : "module", suffix);
}

static void write_file(const char *path, const char *text, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "xlac: warning: cannot write dump '%s': %s\n", path, strerror(errno));
    return;
  }
  fwrite(text, 1, n, f);
  fclose(f);
}

void dump_module(const CpuOptions *o, const Module *m, const char *stage) {
  if (!o->dump_dir) return;
  mkdir(o->dump_dir, 0777);
  StrBuf b = {0};
  print_module_hlo(&b, m);
  char *suffix = xasprintf("%s.txt", stage);
  char *path = dump_path(o, m, suffix);
  write_file(path, b.data ? b.data : "", b.len);
  free(path);
  free(suffix);
  sb_free(&b);
}

void dump_after_pass(const char *pass_name, Module *m, bool changed, void *ud) {
  (void)pass_name;
  (void)m;
  (void)changed;
  (void)ud;
}

void dump_text(const CpuOptions *o, const Module *m, const char *suffix, const char *text) {
  if (!o->dump_dir) return;
  char *path = dump_path(o, m, suffix);
  write_file(path, text, strlen(text));
  free(path);
}

void dump_llvm(const CpuOptions *o, const Module *m, const char *suffix, LLVMModuleRef M) {
  if (!o->dump_dir) return;
  char *ir = LLVMPrintModuleToString(M);
  dump_text(o, m, suffix, ir);
  LLVMDisposeMessage(ir);
}

void dump_object(const CpuOptions *o, const Module *m, LLVMModuleRef M) {
  (void)o;
  (void)m;
  (void)M;
}

void dump_parse_flags(CpuOptions *o, const char *flags) {
  (void)o;
  (void)flags;
}
