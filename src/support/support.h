/*
 * support.h - small building blocks shared by every layer of xlac.
 *
 * Arenas own IR memory: a module is one arena, dropped in one go.  Growable
 * arrays are the `VEC` macros.  The source manager keeps every input file in
 * memory so that a location is just (file, byte offset); line and column are
 * computed only when a diagnostic is printed.  Diagnostics print the chibicc
 * way: `file:line:col: error: msg`, the source line, and a caret.
 */
#ifndef XLAC_SUPPORT_H
#define XLAC_SUPPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define XLAC_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* ---- allocation that never returns NULL (aborts on OOM with a message) ---- */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) XLAC_PRINTF(1, 2);

/* ---- arena ---- */
typedef struct ArenaChunk ArenaChunk;
typedef struct Arena {
  ArenaChunk *head;
} Arena;

void arena_init(Arena *a);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t n);         /* zeroed, 16-byte aligned */
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
void *arena_memdup(Arena *a, const void *p, size_t n);
#define ARENA_NEW(a, T) ((T *)arena_alloc((a), sizeof(T)))
#define ARENA_ARRAY(a, T, n) ((T *)arena_alloc((a), sizeof(T) * (size_t)(n)))

/* ---- growable arrays (heap; use VEC_FREE) ----
 *   VEC(int) v = {0}; VEC_PUSH(v, 3); v.data[0]; v.len; VEC_FREE(v);   */
#define VEC(T) struct { T *data; int len, cap; }
#define VEC_PUSH(v, x)                                                        \
  do {                                                                        \
    if ((v).len == (v).cap) {                                                 \
      (v).cap = (v).cap ? (v).cap * 2 : 8;                                    \
      (v).data = xrealloc((v).data, sizeof(*(v).data) * (size_t)(v).cap);     \
    }                                                                         \
    (v).data[(v).len++] = (x);                                                \
  } while (0)
#define VEC_FREE(v) (free((v).data), (v).data = NULL, (v).len = (v).cap = 0)

/* ---- string builder ---- */
typedef struct StrBuf {
  char *data;
  size_t len, cap;
} StrBuf;
void sb_putc(StrBuf *b, char c);
void sb_puts(StrBuf *b, const char *s);
void sb_putn(StrBuf *b, const char *s, size_t n);
void sb_printf(StrBuf *b, const char *fmt, ...) XLAC_PRINTF(2, 3);
void sb_vprintf(StrBuf *b, const char *fmt, va_list ap);
char *sb_take(StrBuf *b); /* returns heap string (never NULL), resets b */
void sb_free(StrBuf *b);

/* ---- string -> pointer hash map (keys are copied) ---- */
typedef struct StrMap {
  struct StrMapEntry *slots;
  int cap, len;
} StrMap;
void *strmap_get(const StrMap *m, const char *key);
void *strmap_getn(const StrMap *m, const char *key, size_t n);
void strmap_put(StrMap *m, const char *key, void *val);
void strmap_free(StrMap *m);

/* ---- source manager & locations ---- */
typedef struct SrcLoc {
  int32_t file; /* index into the source manager; -1 = unknown */
  uint32_t off; /* byte offset into that file's text */
} SrcLoc;
#define SRCLOC_NONE ((SrcLoc){-1, 0})

typedef struct SrcFile {
  char *name;
  char *text; /* NUL-terminated copy of the file contents */
  size_t len;
} SrcFile;

/* Loads a file (or "-" for stdin).  Returns file id, or -1 with an error
   message already printed. */
int src_load(const char *path);
/* Registers in-memory text (copied). */
int src_add(const char *name, const char *text, size_t len);
const SrcFile *src_get(int file);
/* Forgets every file (fuzzers and long-running tools call it between inputs
   so the table does not grow forever).  Old SrcLocs then print without a
   location; nothing may still point at a file's text. */
void src_reset(void);
void src_line_col(SrcLoc loc, int *line, int *col);

/* ---- diagnostics ----
 * Library code never exits: it reports and returns failure.  Every error
 * counts in diag_error_count() so drivers can decide the exit status. */
typedef enum { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagLevel;
void diag(DiagLevel lvl, SrcLoc loc, const char *fmt, ...) XLAC_PRINTF(3, 4);
void vdiag(DiagLevel lvl, SrcLoc loc, const char *fmt, va_list ap);
#define error_at(loc, ...) diag(DIAG_ERROR, (loc), __VA_ARGS__)
#define warning_at(loc, ...) diag(DIAG_WARNING, (loc), __VA_ARGS__)
#define note_at(loc, ...) diag(DIAG_NOTE, (loc), __VA_ARGS__)
int diag_error_count(void);
void diag_reset_count(void);
/* Diagnostics go to stderr unless redirected (tests, fuzzers). */
void diag_set_stream(void *FILE_ptr);
/* Optional capture hook: when set, diagnostics are passed here instead of
   being printed (used by expected-error tests). */
typedef void (*DiagHook)(DiagLevel lvl, SrcLoc loc, const char *msg, void *ud);
void diag_set_hook(DiagHook hook, void *ud);

/* ---- misc ---- */
bool read_file(const char *path, char **out_text, size_t *out_len);
uint64_t hash_bytes(const void *p, size_t n, uint64_t seed);

#endif
