/*
 * support.c - allocation, arenas, string builders, hash maps, the source
 * manager and diagnostics.  Nothing here knows about the IR.
 */
#include "support/support.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(size_t n) {
  fprintf(stderr, "xlac: out of memory (allocating %zu bytes)\n", n);
  abort();
}

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) out_of_memory(n);
  return p;
}

void *xcalloc(size_t n, size_t m) {
  void *p = calloc(n ? n : 1, m ? m : 1);
  if (!p) out_of_memory(n * m);
  return p;
}

void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p) out_of_memory(n);
  return p;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

char *xstrndup(const char *s, size_t n) {
  char *p = xmalloc(n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *xasprintf(const char *fmt, ...) {
  StrBuf b = {0};
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&b, fmt, ap);
  va_end(ap);
  return sb_take(&b);
}

/* ---- arena ---- */
struct ArenaChunk {
  ArenaChunk *next;
  size_t used, cap;
  _Alignas(16) unsigned char data[];
};

void arena_init(Arena *a) { a->head = NULL; }

void arena_free(Arena *a) {
  ArenaChunk *c = a->head;
  while (c) {
    ArenaChunk *n = c->next;
    free(c);
    c = n;
  }
  a->head = NULL;
}

void *arena_alloc(Arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  ArenaChunk *c = a->head;
  if (!c || c->cap - c->used < n) {
    size_t cap = n > 65536 ? n : 65536;
    ArenaChunk *nc = xmalloc(sizeof(ArenaChunk) + cap);
    nc->used = 0;
    nc->cap = cap;
    if (c && n > 65536) {
      /* big block: keep the current chunk as head so its free space is reused */
      nc->next = c->next;
      c->next = nc;
      nc->used = n;
      memset(nc->data, 0, n);
      return nc->data;
    }
    nc->next = c;
    a->head = nc;
    c = nc;
  }
  void *p = c->data + c->used;
  c->used += n;
  memset(p, 0, n);
  return p;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_strndup(Arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

void *arena_memdup(Arena *a, const void *p, size_t n) {
  void *q = arena_alloc(a, n);
  if (n) memcpy(q, p, n);
  return q;
}

/* ---- string builder ---- */
static void sb_reserve(StrBuf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1) cap *= 2;
  b->data = xrealloc(b->data, cap);
  b->cap = cap;
}

void sb_putc(StrBuf *b, char c) {
  sb_reserve(b, 1);
  b->data[b->len++] = c;
  b->data[b->len] = 0;
}

void sb_putn(StrBuf *b, const char *s, size_t n) {
  sb_reserve(b, n);
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}

void sb_puts(StrBuf *b, const char *s) { sb_putn(b, s, strlen(s)); }

void sb_vprintf(StrBuf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) return;
  sb_reserve(b, (size_t)n);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}

void sb_printf(StrBuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(b, fmt, ap);
  va_end(ap);
}

char *sb_take(StrBuf *b) {
  char *s = b->data ? b->data : xstrdup("");
  b->data = NULL;
  b->len = b->cap = 0;
  return s;
}

void sb_free(StrBuf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

/* ---- hash map ---- */
struct StrMapEntry {
  char *key;
  void *val;
};

uint64_t hash_bytes(const void *p, size_t n, uint64_t seed) {
  const unsigned char *s = p;
  uint64_t h = 1469598103934665603ull ^ seed;
  for (size_t i = 0; i < n; i++) {
    h ^= s[i];
    h *= 1099511628211ull;
  }
  return h;
}

void *strmap_getn(const StrMap *m, const char *key, size_t n) {
  if (!m->cap) return NULL;
  size_t i = hash_bytes(key, n, 0) & (size_t)(m->cap - 1);
  for (;;) {
    struct StrMapEntry *e = &m->slots[i];
    if (!e->key) return NULL;
    if (strlen(e->key) == n && memcmp(e->key, key, n) == 0) return e->val;
    i = (i + 1) & (size_t)(m->cap - 1);
  }
}

void *strmap_get(const StrMap *m, const char *key) { return strmap_getn(m, key, strlen(key)); }

static void strmap_insert(StrMap *m, char *key, void *val) {
  size_t n = strlen(key);
  size_t i = hash_bytes(key, n, 0) & (size_t)(m->cap - 1);
  for (;;) {
    struct StrMapEntry *e = &m->slots[i];
    if (!e->key) {
      e->key = key;
      e->val = val;
      m->len++;
      return;
    }
    if (strcmp(e->key, key) == 0) {
      free(key);
      e->val = val;
      return;
    }
    i = (i + 1) & (size_t)(m->cap - 1);
  }
}

void strmap_put(StrMap *m, const char *key, void *val) {
  if ((m->len + 1) * 2 > m->cap) {
    StrMap nm = {xcalloc((size_t)(m->cap ? m->cap * 2 : 16), sizeof(struct StrMapEntry)),
                 m->cap ? m->cap * 2 : 16, 0};
    for (int i = 0; i < m->cap; i++)
      if (m->slots[i].key) strmap_insert(&nm, m->slots[i].key, m->slots[i].val);
    free(m->slots);
    *m = nm;
  }
  strmap_insert(m, xstrdup(key), val);
}

void strmap_free(StrMap *m) {
  for (int i = 0; i < m->cap; i++) free(m->slots[i].key);
  free(m->slots);
  m->slots = NULL;
  m->cap = m->len = 0;
}

/* ---- files ---- */
bool read_file(const char *path, char **out_text, size_t *out_len) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f) return false;
  StrBuf b = {0};
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) sb_putn(&b, buf, n);
  bool ok = !ferror(f);
  if (f != stdin) fclose(f);
  if (!ok) {
    sb_free(&b);
    return false;
  }
  *out_len = b.len;
  *out_text = sb_take(&b);
  return true;
}

/* ---- source manager ---- */
static VEC(SrcFile) src_files;

int src_add(const char *name, const char *text, size_t len) {
  SrcFile f = {xstrdup(name), xstrndup(text, len), len};
  VEC_PUSH(src_files, f);
  return src_files.len - 1;
}

int src_load(const char *path) {
  char *text;
  size_t len;
  if (!read_file(path, &text, &len)) {
    fprintf(stderr, "xlac: error: cannot read '%s': %s\n", path, strerror(errno));
    return -1;
  }
  SrcFile f = {xstrdup(strcmp(path, "-") == 0 ? "<stdin>" : path), text, len};
  VEC_PUSH(src_files, f);
  return src_files.len - 1;
}

const SrcFile *src_get(int file) {
  if (file < 0 || file >= src_files.len) return NULL;
  return &src_files.data[file];
}

void src_reset(void) {
  for (int i = 0; i < src_files.len; i++) {
    free(src_files.data[i].name);
    free(src_files.data[i].text);
  }
  VEC_FREE(src_files);
}

void src_line_col(SrcLoc loc, int *line, int *col) {
  const SrcFile *f = src_get(loc.file);
  *line = *col = 0;
  if (!f) return;
  size_t off = loc.off > f->len ? f->len : loc.off;
  int l = 1, c = 1;
  for (size_t i = 0; i < off; i++) {
    if (f->text[i] == '\n') {
      l++;
      c = 1;
    } else {
      c++;
    }
  }
  *line = l;
  *col = c;
}

/* ---- diagnostics ---- */
static int diag_errors;
static FILE *diag_stream;
static DiagHook diag_hook;
static void *diag_hook_ud;

int diag_error_count(void) { return diag_errors; }
void diag_reset_count(void) { diag_errors = 0; }
void diag_set_stream(void *f) { diag_stream = f; }
void diag_set_hook(DiagHook hook, void *ud) {
  diag_hook = hook;
  diag_hook_ud = ud;
}

void vdiag(DiagLevel lvl, SrcLoc loc, const char *fmt, va_list ap) {
  static const char *names[] = {"error", "warning", "note"};
  if (lvl == DIAG_ERROR) diag_errors++;
  StrBuf msg = {0};
  sb_vprintf(&msg, fmt, ap);
  if (diag_hook) {
    diag_hook(lvl, loc, msg.data ? msg.data : "", diag_hook_ud);
    sb_free(&msg);
    return;
  }
  FILE *out = diag_stream ? diag_stream : stderr;
  const SrcFile *f = src_get(loc.file);
  if (!f) {
    fprintf(out, "xlac: %s: %s\n", names[lvl], msg.data ? msg.data : "");
    sb_free(&msg);
    return;
  }
  int line, col;
  src_line_col(loc, &line, &col);
  fprintf(out, "%s:%d:%d: %s: %s\n", f->name, line, col, names[lvl], msg.data ? msg.data : "");
  /* the source line and a caret under the column */
  size_t off = loc.off > f->len ? f->len : loc.off;
  size_t start = off, end = off;
  while (start > 0 && f->text[start - 1] != '\n') start--;
  while (end < f->len && f->text[end] != '\n') end++;
  fprintf(out, "%.*s\n", (int)(end - start), f->text + start);
  for (size_t i = start; i < off; i++) fputc(f->text[i] == '\t' ? '\t' : ' ', out);
  fputs("^\n", out);
  sb_free(&msg);
}

void diag(DiagLevel lvl, SrcLoc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdiag(lvl, loc, fmt, ap);
  va_end(ap);
}
