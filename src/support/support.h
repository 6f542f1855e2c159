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

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define XLAC_PRINTF(f, a) __attribute__((format(printf, f, a)))

typedef struct SrcLoc {
  int32_t file; /* index into the source manager; -1 = unknown */
  uint32_t off; /* byte offset into that file's text */
} SrcLoc;
#define SRCLOC_NONE ((SrcLoc){-1, 0})

typedef enum { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagLevel;
/* see diag_set_hook */
typedef void (*DiagHook)(DiagLevel lvl, SrcLoc loc, const char *msg, void *ud);

/* ---- allocation ----
 * The x* wrappers never return NULL.  A request larger than the allocation
 * limit (default: the machine's memory or RLIMIT_AS; XLAC_MAX_ALLOC or
 * alloc_limit_set() change it) is refused before it is tried, and a refused
 * request unwinds with longjmp to the calling thread's innermost OomGuard:
 *
 *   OomGuard g;
 *   oom_push(&g);
 *   if (setjmp(g.jb) == 0) { ...work...; } else { oom_report(&g); ...fail... }
 *   oom_pop(&g);
 *
 * Every entry point (the command line, each grid thread, the library's
 * calls) installs one.  Threads announce what they are doing with
 * oom_set_loc so the report names the op.  XLAC_FAIL_ALLOC=N (or
 * alloc_fail_at) makes the Nth allocation fail (tests).  try_aligned_alloc
 * applies the same limit but returns NULL.
 *
 * Recovering memory: a guard that also tracks (oom_track_begin after
 * oom_push) gets back every block the x*alloc functions handed its thread
 * and nobody freed (with xfree) when it unwinds — oom_track_end(g, true)
 * frees them — and things outside that heap (LLVM objects) are released by
 * cleanups the frames register (oom_cleanup_push/pop), run by oom_raise
 * before it unwinds.  Without tracking, memory held by unwound frames is
 * not recovered (the command line, which exits).  Blocks that must outlive
 * an unwound call (process-wide tables) are allocated between
 * oom_track_pause and oom_track_resume.  Every block of the compiler is
 * freed with xfree. */
/* Something to release when a guard's frames are abandoned. */
typedef struct OomCleanup {
  void (*fn)(void *);
  void *arg;
  struct OomCleanup *next;
} OomCleanup;

typedef struct OomGuard {
  jmp_buf jb;
  struct OomGuard *prev;
  size_t bytes;     /* the request that failed */
  bool over_limit;  /* refused by the limit rather than by the system */
  SrcLoc loc;       /* where the thread was (oom_set_loc) */
  const char *what; /* what it was doing, or NULL */
  DiagHook hook;    /* diagnostics as they were at oom_push, restored by */
  void *hook_ud;    /* oom_report (a pass may have been muting them) */
  void *stream;
  SrcLoc outer_loc; /* the thread's location at oom_push */
  const char *outer_what;
  OomCleanup *cleanups;   /* innermost first */
  const void *track_prev; /* the thread's tracking owner before oom_track_begin */
} OomGuard;
void oom_cleanup_push(OomCleanup *c, void (*fn)(void *), void *arg);
void oom_cleanup_pop(OomCleanup *c); /* the innermost one; a no-op after an unwind */
void oom_track_begin(OomGuard *g);
/* Stops tracking for g: with unwound, frees the blocks it still owns. */
void oom_track_end(OomGuard *g, bool unwound);
/* Records a block obtained elsewhere (plain malloc) as the tracking call's. */
void oom_track_adopt(void *p);
const void *oom_track_pause(void);
void oom_track_resume(const void *owner);
/* Frees a block of the x*alloc functions (or any malloc'ed block). */
void xfree(void *p);
/* Makes the nth allocation from now fail (0: none), as XLAC_FAIL_ALLOC. */
void alloc_fail_at(long n);
/* Allocations counted since alloc_fail_at (while one is set). */
long alloc_count_get(void);
void oom_push(OomGuard *g);
void oom_pop(OomGuard *g);
_Noreturn void oom_raise(size_t n);
void oom_report(const OomGuard *g);
/* Sets the calling thread's location (and what it is doing, or NULL) for
   reports; returns the previous one, which oom_restore_loc puts back. */
typedef struct OomLoc {
  SrcLoc loc;
  const char *what;
} OomLoc;
OomLoc oom_set_loc(SrcLoc loc, const char *what);
void oom_restore_loc(OomLoc prev);
size_t alloc_limit_get(void);
void alloc_limit_set(size_t bytes); /* 0: back to the default */
bool alloc_fits(size_t n);
/* "123", "64K", "512M", "8G" (powers of 1024); false on junk or zero. */
bool parse_byte_size(const char *s, size_t *out);
void *try_aligned_alloc(size_t align, size_t n); /* rounds n up to align */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Whether s is a C identifier ([A-Za-z_][A-Za-z0-9_]*). */
bool is_c_identifier(const char *s);
/* The n bytes at s as a C identifier (heap): other characters become '_',
   a leading digit gets one before it. */
char *c_identifier_of(const char *s, size_t n);
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
#define VEC_FREE(v) (xfree((v).data), (v).data = NULL, (v).len = (v).cap = 0)

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

typedef struct SrcFile {
  char *name;
  char *text; /* NUL-terminated copy of the file contents */
  size_t len;
  bool binary; /* bytes, not text: diagnostics say file:OFFSET, no source line */
} SrcFile;

/* Program text larger than this is refused (offsets are 32-bit). */
#define SRC_MAX_BYTES ((size_t)1 << 30)
/* Loads a file (or "-" for stdin).  Returns file id, or -1 with an error
   message already printed. */
int src_load(const char *path);
/* Registers in-memory text (copied). */
int src_add(const char *name, const char *text, size_t len);
const SrcFile *src_get(int file);
/* Marks a file as binary (src_get's `binary`). */
void src_set_binary(int file);
/* Forgets every file (fuzzers and long-running tools call it between inputs
   so the table does not grow forever).  Old SrcLocs then print without a
   location; nothing may still point at a file's text. */
void src_reset(void);
/* Forgets one file (its owner is done with every module parsed from it);
   its locations then print without a source line. */
void src_release(int file);
void src_line_col(SrcLoc loc, int *line, int *col);

/* ---- diagnostics ----
 * Library code never exits: it reports and returns failure.  Every error
 * counts in diag_error_count() so drivers can decide the exit status. */
void diag(DiagLevel lvl, SrcLoc loc, const char *fmt, ...) XLAC_PRINTF(3, 4);
/* A preformatted message, printed without allocating (out of memory). */
void diag_plain(DiagLevel lvl, SrcLoc loc, const char *msg);
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
void diag_set_hook(DiagHook hook, void *ud);
void diag_get_hook(DiagHook *hook, void **ud);
/* Hooks and stream are per thread; a thread started on behalf of another
   (a replica of a grid) takes over its starter's. */
typedef struct DiagContext {
  DiagHook hook;
  void *ud;
  void *stream;
} DiagContext;
DiagContext diag_context_get(void);
/* The text a diagnostic prints as (location, message, source line and
   caret), for hooks that keep it: writes at most cap bytes into out (no
   allocation) and returns the length.  diag_format_size is a capacity
   that always suffices. */
size_t diag_format(DiagLevel lvl, SrcLoc loc, const char *msg, char *out, size_t cap);
size_t diag_format_size(SrcLoc loc, const char *msg);
void diag_context_set(DiagContext c);

/* ---- misc ---- */
/* Reads a whole file ("-": stdin) of at most max bytes into a NUL-terminated
   heap buffer.  Directories and devices are refused (/dev/zero would never
   end); so is a file larger than max, or a pipe giving more.  On failure
   returns false with *err (heap message naming the file). */
bool read_file(const char *path, size_t max, char **out_text, size_t *out_len, char **err);
/* Writes the n parts (data[i], size[i] bytes) to path as one file, through
   a temporary file in the same directory renamed over it, so that readers
   see the old contents or the new, never a partial file, and a failure
   leaves path as it was.  The file gets mode 0666 less the umask.  Returns
   0, or the errno of the step that failed; *created (may be NULL) says
   whether the temporary file could be made (else the directory is the
   problem). */
int write_file_atomic(const char *path, int n, const void *const *data, const size_t *size, bool *created);
/* The same inside the directory open as dirfd (name: a plain file name),
   the file created with `mode` (less the umask): what a directory whose
   path may change under the caller needs. */
int write_file_atomic_at(int dirfd, const char *name, unsigned mode, int n, const void *const *data, const size_t *size,
                         bool *created);
uint64_t hash_bytes(const void *p, size_t n, uint64_t seed);

#endif
