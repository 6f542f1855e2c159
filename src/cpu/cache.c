/*
 * cache.c - the compile cache: a repeated program is compiled once.
 *
 * The key is the module's canonical MLIR text (the printer's output parses
 * back to the same text, and it spells out every shape and constant), the
 * entry function's name, and the options that change code (thread count
 * matters only to the pool, but it is part of the executable, so it is in
 * the key too).  Lookups hash the key and compare it in full.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "frontends/stablehlo/stablehlo.h"
#include "ir/print.h"

typedef struct CacheEntry {
  char *key;
  size_t keylen;
  uint64_t hash;
  Module *module;
  CpuExecutable *exe;
} CacheEntry;

struct CpuCache {
  VEC(CacheEntry) entries;
};

CpuCache *cpu_cache_new(void) { return xcalloc(1, sizeof(CpuCache)); }

int cpu_cache_size(const CpuCache *c) { return c->entries.len; }

static char *make_key(const Module *m, const char *entry, const CpuOptions *o, size_t *len) {
  StrBuf b = {0};
  sb_printf(&b, "entry=%s threads=%d opt=%d nofusion=%d dump=%s pass_re=%s dot=%d html=%d\n", entry,
            o->threads, o->opt_level, o->no_fusion, o->dump_dir ? o->dump_dir : "",
            o->dump_pass_re ? o->dump_pass_re : "", o->dump_as_dot, o->dump_as_html);
  print_module_mlir(&b, m);
  *len = b.len;
  return sb_take(&b);
}

CpuExecutable *cpu_cache_get(CpuCache *c, const Module *m, const char *entry, const CpuOptions *o,
                             bool *hit) {
  size_t len;
  char *key = make_key(m, entry, o, &len);
  uint64_t h = hash_bytes(key, len, 0);
  for (int i = 0; i < c->entries.len; i++) {
    CacheEntry *e = &c->entries.data[i];
    if (e->hash == h && e->keylen == len && memcmp(e->key, key, len) == 0) {
      xfree(key);
      if (hit) *hit = true;
      return e->exe;
    }
  }
  if (hit) *hit = false;
  /* a private copy: the module text after the key's first line */
  const char *text = strchr(key, '\n') + 1;
  int file = src_add("<compile cache>", text, strlen(text));
  Module *copy = stablehlo_parse(file, 0, strlen(text));
  Func *f = copy ? module_find_func(copy, entry) : NULL;
  CpuExecutable *exe = f ? cpu_compile(copy, f, o) : NULL;
  if (!exe) {
    if (copy && !f) error_at(SRCLOC_NONE, "compile cache: no function @%s in the module", entry);
    module_free(copy);
    xfree(key);
    return NULL;
  }
  CacheEntry e = {key, len, h, copy, exe};
  VEC_PUSH(c->entries, e);
  return exe;
}

void cpu_cache_free(CpuCache *c) {
  if (!c) return;
  for (int i = 0; i < c->entries.len; i++) {
    cpu_executable_free(c->entries.data[i].exe);
    module_free(c->entries.data[i].module);
    xfree(c->entries.data[i].key);
  }
  VEC_FREE(c->entries);
  xfree(c);
}
