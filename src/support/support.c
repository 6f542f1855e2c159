/*
 * support.c - allocation, arenas, string builders, hash maps, the source
 * manager and diagnostics.  Nothing here knows about the IR.
 */
#include "support/support.h"

#include <assert.h>
#include <pthread.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- out of memory ----
 * The allocation wrappers never return NULL.  A request larger than the
 * allocation limit is refused before it is tried; a request the system
 * refuses (or one the test hook fails on purpose) unwinds to the calling
 * thread's innermost OomGuard with longjmp, the way Lua raises its memory
 * errors.  The catcher reports the failure at the location the thread last
 * announced with oom_set_loc (the op being run).  Memory held by the frames
 * that were unwound is not freed: the guard's owner gives up on the whole
 * operation, it does not resume it. */
static _Thread_local OomGuard *oom_top;
static _Thread_local SrcLoc oom_loc = {-1, 0};
static _Thread_local const char *oom_what;
static _Atomic size_t alloc_limit;    /* 0: not yet initialized */
static _Atomic long fail_alloc_at = -1; /* XLAC_FAIL_ALLOC: fail the Nth allocation */
static _Atomic long alloc_count;

/* Parses "123", "64K", "512M", "8G" (powers of 1024).  Returns false on junk. */
bool parse_byte_size(const char *s, size_t *out) {
  if (!s || !*s || *s == '-' || *s == '+') return false;
  char *e;
  errno = 0;
  unsigned long long v = strtoull(s, &e, 10);
  if (e == s || errno) return false;
  unsigned shift = 0;
  switch (*e) {
  case 'k': case 'K': shift = 10; e++; break;
  case 'm': case 'M': shift = 20; e++; break;
  case 'g': case 'G': shift = 30; e++; break;
  case 't': case 'T': shift = 40; e++; break;
  default: break;
  }
  if (*e == 'B' || *e == 'b') e++;
  if (*e || v == 0 || (shift && v > (SIZE_MAX >> shift))) return false;
  *out = (size_t)v << shift;
  return true;
}

static size_t default_alloc_limit(void) {
  long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
  size_t lim = pages > 0 && psz > 0 ? (size_t)pages * (size_t)psz : (size_t)1 << 40;
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (size_t)rl.rlim_cur < lim)
    lim = (size_t)rl.rlim_cur;
  const char *env = getenv("XLAC_MAX_ALLOC");
  size_t v;
  if (env && parse_byte_size(env, &v)) lim = v;
  const char *fail = getenv("XLAC_FAIL_ALLOC");
  if (fail && *fail) fail_alloc_at = strtol(fail, NULL, 10);
  return lim;
}

size_t alloc_limit_get(void) {
  size_t l = alloc_limit;
  if (!l) {
    l = default_alloc_limit();
    alloc_limit = l;
  }
  return l;
}

void alloc_limit_set(size_t bytes) {
  alloc_limit_get(); /* reads XLAC_FAIL_ALLOC once */
  alloc_limit = bytes ? bytes : default_alloc_limit();
}

bool alloc_fits(size_t n) { return n <= alloc_limit_get(); }

/* Per thread: a library call captures its own diagnostics without seeing
   another thread's.  Threads a call starts (replica grids) inherit the
   starter's with diag_context_get/set. */
static _Thread_local DiagHook diag_hook;
static _Thread_local void *diag_hook_ud;
static _Thread_local FILE *diag_stream;

void oom_push(OomGuard *g) {
  g->hook = diag_hook;
  g->hook_ud = diag_hook_ud;
  g->stream = diag_stream;
  g->outer_loc = oom_loc;
  g->outer_what = oom_what;
  g->prev = oom_top;
  g->bytes = 0;
  g->over_limit = false;
  g->loc = SRCLOC_NONE;
  g->what = NULL;
  g->cleanups = NULL;
  g->track_prev = NULL;
  oom_top = g;
}

void oom_cleanup_push(OomCleanup *c, void (*fn)(void *), void *arg) {
  OomGuard *g = oom_top;
  c->fn = fn;
  c->arg = arg;
  c->next = g ? g->cleanups : NULL;
  if (g) g->cleanups = c;
}

void oom_cleanup_pop(OomCleanup *c) {
  OomGuard *g = oom_top;
  if (g && g->cleanups == c) g->cleanups = c->next;
}

void oom_pop(OomGuard *g) {
  assert(oom_top == g);
  oom_top = g->prev;
}

OomLoc oom_set_loc(SrcLoc loc, const char *what) {
  OomLoc old = {oom_loc, oom_what};
  oom_loc = loc;
  oom_what = what;
  return old;
}

void oom_restore_loc(OomLoc prev) {
  oom_loc = prev.loc;
  oom_what = prev.what;
}

void oom_raise(size_t n) {
  OomGuard *g = oom_top;
  if (!g) {
    /* every entry point (the command line, each grid thread, the library's
       calls) installs a guard: one that forgot is a bug, and there is no
       caller to return to */
    fprintf(stderr, "xlac: internal error: out of memory (%zu bytes) outside an OomGuard\n", n);
    abort();
  }
  /* release what the frames being abandoned hold outside the tracked
     heap (LLVM objects, ...), innermost first */
  for (OomCleanup *c = g->cleanups; c; c = c->next) c->fn(c->arg);
  g->cleanups = NULL;
  g->bytes = n;
  g->over_limit = n > alloc_limit_get();
  g->loc = oom_loc;
  g->what = oom_what;
  /* the frames that set the location are gone */
  oom_loc = g->outer_loc;
  oom_what = g->outer_what;
  longjmp(g->jb, 1);
}

void oom_report(const OomGuard *g) {
  char msg[256];
  diag_hook = g->hook;
  diag_hook_ud = g->hook_ud;
  diag_stream = g->stream;
  if (g->over_limit)
    snprintf(msg, sizeof msg, "out of memory: %s%s%zu bytes requested, more than the allocation limit of %zu bytes "
             "(--max-alloc or XLAC_MAX_ALLOC)", g->what ? g->what : "", g->what ? ": " : "", g->bytes,
             alloc_limit_get());
  else
    snprintf(msg, sizeof msg, "out of memory: %s%scannot allocate %zu bytes", g->what ? g->what : "",
             g->what ? ": " : "", g->bytes);
  diag_plain(DIAG_ERROR, g->loc, msg);
}

/* ---- allocation tracking ----
 * A library call that unwinds (out of memory) must not leak what it had
 * allocated.  While a call tracks (oom_track_begin), every block the x*alloc
 * functions hand to its thread is recorded with the call as owner, and
 * xfree forgets a block, whichever thread frees it; when the call unwinds,
 * oom_track_end frees what its owner still has, and when it completes,
 * forgets it (the blocks live on in what the call built).  One table for
 * the process, under a mutex: blocks cross threads (a replica releases
 * values its caller made).  Tracking costs nothing while no call tracks. */
typedef struct Tracked {
  void *p;             /* NULL: empty; TOMBSTONE: removed */
  const void *owner;
} Tracked;
#define TOMBSTONE ((void *)1)
static pthread_mutex_t track_mu = PTHREAD_MUTEX_INITIALIZER;
static Tracked *track_tab;
static size_t track_cap, track_used; /* used counts tombstones */
static _Atomic int track_calls;      /* calls tracking now */
static _Thread_local const void *track_owner;

static size_t track_hash(const void *p) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x;
}

/* Inserts without growing; the table has a free slot. */
static void track_put(Tracked *tab, size_t cap, void *p, const void *owner) {
  size_t i = track_hash(p) & (cap - 1);
  while (tab[i].p && tab[i].p != TOMBSTONE) i = (i + 1) & (cap - 1);
  tab[i] = (Tracked){p, owner};
}

static void track_add(void *p) {
  const void *owner = track_owner;
  if (!owner) return;
  pthread_mutex_lock(&track_mu);
  if ((track_used + 1) * 2 > track_cap) {
    size_t live = 0;
    for (size_t i = 0; i < track_cap; i++) live += track_tab[i].p && track_tab[i].p != TOMBSTONE;
    size_t cap = track_cap ? track_cap : 1024;
    while ((live + 1) * 4 > cap) cap *= 2;
    /* plain calloc: a table that cannot grow only stops recording (the
       block would leak on an unwind, never be freed twice) */
    Tracked *t = calloc(cap, sizeof *t);
    if (!t) {
      pthread_mutex_unlock(&track_mu);
      return;
    }
    for (size_t i = 0; i < track_cap; i++)
      if (track_tab[i].p && track_tab[i].p != TOMBSTONE) track_put(t, cap, track_tab[i].p, track_tab[i].owner);
    free(track_tab);
    track_tab = t;
    track_cap = cap;
    track_used = live;
  }
  track_put(track_tab, track_cap, p, owner);
  track_used++;
  pthread_mutex_unlock(&track_mu);
}

static void track_remove(void *p) {
  if (!p || !atomic_load_explicit(&track_calls, memory_order_relaxed)) return;
  pthread_mutex_lock(&track_mu);
  if (track_cap) {
    size_t i = track_hash(p) & (track_cap - 1);
    while (track_tab[i].p) {
      if (track_tab[i].p == p) {
        track_tab[i].p = TOMBSTONE;
        break;
      }
      i = (i + 1) & (track_cap - 1);
    }
  }
  pthread_mutex_unlock(&track_mu);
}

void oom_track_begin(OomGuard *g) {
  g->track_prev = track_owner;
  track_owner = g;
  atomic_fetch_add(&track_calls, 1);
}

void oom_track_end(OomGuard *g, bool unwound) {
  pthread_mutex_lock(&track_mu);
  for (size_t i = 0; i < track_cap; i++) {
    if (track_tab[i].p && track_tab[i].p != TOMBSTONE && track_tab[i].owner == g) {
      if (unwound) free(track_tab[i].p);
      track_tab[i].p = TOMBSTONE;
    }
  }
  pthread_mutex_unlock(&track_mu);
  track_owner = g->track_prev;
  atomic_fetch_sub(&track_calls, 1);
}

void oom_track_adopt(void *p) { track_add(p); }

const void *oom_track_pause(void) {
  const void *o = track_owner;
  track_owner = NULL;
  return o;
}

void oom_track_resume(const void *owner) { track_owner = owner; }

void xfree(void *p) {
  track_remove(p);
  free(p);
}

static void *alloc_checked(void *p, size_t n) {
  if (!p) oom_raise(n);
  track_add(p);
  return p;
}

void alloc_fail_at(long n) {
  alloc_limit_get(); /* reads XLAC_FAIL_ALLOC first, so n wins */
  alloc_count = 0;
  fail_alloc_at = n;
}

long alloc_count_get(void) { return alloc_count; }

static bool alloc_refused(size_t n) {
  if (n > alloc_limit_get()) return true;
  if (fail_alloc_at > 0 && ++alloc_count == fail_alloc_at) return true;
  return false;
}

void *try_aligned_alloc(size_t align, size_t n) {
  if (alloc_refused(n)) return NULL;
  size_t rounded = (n + align - 1) / align * align;
  if (rounded < n) return NULL;
  return aligned_alloc(align, rounded ? rounded : align);
}

void *xmalloc(size_t n) {
  if (alloc_refused(n)) oom_raise(n);
  return alloc_checked(malloc(n ? n : 1), n);
}

void *xcalloc(size_t n, size_t m) {
  size_t total;
  if (__builtin_mul_overflow(n, m, &total)) oom_raise(SIZE_MAX);
  if (alloc_refused(total)) oom_raise(total);
  return alloc_checked(calloc(n ? n : 1, m ? m : 1), total);
}

void *xrealloc(void *p, size_t n) {
  if (alloc_refused(n)) oom_raise(n);
  /* forget p first: after realloc it may not be looked at */
  track_remove(p);
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    if (p) track_add(p); /* p is still valid */
    oom_raise(n);
  }
  track_add(q);
  return q;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

char *xstrndup(const char *s, size_t n) {
  char *p = xmalloc(n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

bool is_c_identifier(const char *s) {
  if (!s || !(isalpha((unsigned char)*s) || *s == '_')) return false;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && *s != '_') return false;
  return true;
}

char *c_identifier_of(const char *s, size_t n) {
  char *r = xmalloc(n + 2), *o = r;
  if (n && isdigit((unsigned char)s[0])) *o++ = '_';
  for (size_t i = 0; i < n; i++) *o++ = isalnum((unsigned char)s[i]) ? s[i] : '_';
  *o = 0;
  return r;
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
    xfree(c);
    c = n;
  }
  a->head = NULL;
}

void *arena_alloc(Arena *a, size_t n) {
  if (n > SIZE_MAX / 2) oom_raise(n);
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
  xfree(b->data);
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
      xfree(key);
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
    xfree(m->slots);
    *m = nm;
  }
  strmap_insert(m, xstrdup(key), val);
}

void strmap_free(StrMap *m) {
  for (int i = 0; i < m->cap; i++) xfree(m->slots[i].key);
  xfree(m->slots);
  m->slots = NULL;
  m->cap = m->len = 0;
}

/* ---- files ---- */

int write_file_atomic(const char *path, int n, const void *const *data, const size_t *size, bool *created) {
  return write_file_atomic_at(AT_FDCWD, path, 0666, n, data, size, created);
}

int write_file_atomic_at(int dirfd, const char *path, unsigned mode, int n, const void *const *data, const size_t *size,
                         bool *created) {
  static atomic_uint counter;
  /* a name in the same directory, unique to this process and call */
  char *tmp = xasprintf("%s.tmp-%ld-%u", path, (long)getpid(), atomic_fetch_add(&counter, 1));
  int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, (mode_t)mode);
  if (created) *created = fd >= 0;
  if (fd < 0) {
    int e = errno;
    xfree(tmp);
    return e;
  }
  int e = 0;
  for (int i = 0; i < n && !e; i++) {
    const char *p = data[i];
    size_t left = size[i];
    while (left > 0 && !e) {
      ssize_t k = write(fd, p, left);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) e = k < 0 ? errno : EIO;
      else p += k, left -= (size_t)k;
    }
  }
  if (close(fd) != 0 && !e) e = errno;
  if (!e && renameat(dirfd, tmp, dirfd, path) != 0) e = errno;
  if (e) unlinkat(dirfd, tmp, 0);
  xfree(tmp);
  return e;
}
bool read_file(const char *path, size_t max, char **out_text, size_t *out_len, char **err) {
  bool is_stdin = strcmp(path, "-") == 0;
  *err = NULL;
  const char *name = is_stdin ? "<stdin>" : path;
  int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *err = xasprintf("cannot read '%s': %s", name, strerror(errno));
    return false;
  }
  struct stat sb;
  if (fstat(fd, &sb) != 0) {
    *err = xasprintf("cannot read '%s': %s", name, strerror(errno));
    if (!is_stdin) close(fd);
    return false;
  }
  /* a directory or a device (/dev/zero, /dev/urandom) would never end or
     means a mistake; pipes (stdin, process substitution) are read up to max */
  if (S_ISDIR(sb.st_mode) || (!is_stdin && !S_ISREG(sb.st_mode) && !S_ISFIFO(sb.st_mode) && !S_ISSOCK(sb.st_mode))) {
    *err = xasprintf("cannot read '%s': %s", name,
                     S_ISDIR(sb.st_mode) ? strerror(EISDIR) : "not a regular file (a device or a special file)");
    if (!is_stdin) close(fd);
    return false;
  }
  if (S_ISREG(sb.st_mode) && (uint64_t)sb.st_size > max) {
    *err = xasprintf("cannot read '%s': the file has %lld bytes, more than the %zu this input may have", path,
                     (long long)sb.st_size, max);
    if (!is_stdin) close(fd);
    return false;
  }
  size_t cap = S_ISREG(sb.st_mode) ? (size_t)sb.st_size + 1 : 65536, len = 0;
  char *buf = malloc(cap + 1);
  bool ok = buf != NULL;
  if (!ok) *err = xasprintf("cannot read '%s': out of memory for %zu bytes", name, cap);
  while (ok) {
    if (len == cap) {
      if (cap > max) break;
      size_t ncap = cap * 2 > max + 1 ? max + 1 : cap * 2;
      char *nb = malloc(ncap + 1);
      if (!nb) {
        *err = xasprintf("cannot read '%s': out of memory for %zu bytes", name, ncap);
        ok = false;
        break;
      }
      memcpy(nb, buf, len);
      xfree(buf);
      buf = nb;
      cap = ncap;
    }
    ssize_t r = read(fd, buf + len, cap - len);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      *err = xasprintf("cannot read '%s': %s", name, strerror(errno));
      ok = false;
    }
    if (r <= 0) break;
    len += (size_t)r;
  }
  if (ok && len > max) {
    *err = xasprintf("cannot read '%s': more than the %zu bytes this input may have", name, max);
    ok = false;
  }
  if (!is_stdin) close(fd);
  if (!ok) {
    xfree(buf);
    return false;
  }
  buf[len] = 0;
  *out_len = len;
  *out_text = buf;
  return true;
}

/* ---- source manager ----
 * A table of pointers, so that a SrcFile never moves while the table grows,
 * guarded by a mutex: library calls on several threads load text at once. */
static VEC(SrcFile *) src_files;
static pthread_mutex_t src_lock = PTHREAD_MUTEX_INITIALIZER;

static int src_push(SrcFile *f) {
  pthread_mutex_lock(&src_lock);
  /* grow by hand: VEC_PUSH would unwind (out of memory) with the lock held */
  if (src_files.len == src_files.cap) {
    int cap = src_files.cap ? src_files.cap * 2 : 16;
    SrcFile **d = realloc(src_files.data, (size_t)cap * sizeof *d);
    if (!d) {
      pthread_mutex_unlock(&src_lock);
      free(f->name);
      free(f->text);
      free(f);
      oom_raise((size_t)cap * sizeof *d);
    }
    src_files.data = d;
    src_files.cap = cap;
  }
  src_files.data[src_files.len++] = f;
  int id = src_files.len - 1;
  pthread_mutex_unlock(&src_lock);
  return id;
}

/* Source files belong to the process-wide table, not to the call that
   loads them (a library call that fails releases its file explicitly), so
   they are allocated outside the tracked heap. */
static SrcFile *src_new(const char *name, char *text, size_t len) {
  SrcFile *f = malloc(sizeof *f);
  char *n = strdup(name);
  if (!f || !n) {
    free(f);
    free(n);
    free(text);
    oom_raise(sizeof *f + strlen(name) + 1);
  }
  f->name = n;
  f->text = text;
  f->len = len;
  f->binary = false;
  return f;
}

int src_add(const char *name, const char *text, size_t len) {
  char *copy = len + 1 ? malloc(len + 1) : NULL;
  if (!copy || alloc_refused(len + 1)) {
    free(copy);
    oom_raise(len + 1);
  }
  memcpy(copy, text, len);
  copy[len] = 0;
  return src_push(src_new(name, copy, len));
}

int src_load(const char *path) {
  char *text, *err;
  size_t len;
  size_t max = alloc_limit_get() < SRC_MAX_BYTES ? alloc_limit_get() : SRC_MAX_BYTES;
  const void *owner = oom_track_pause();
  bool ok = read_file(path, max, &text, &len, &err);
  oom_track_resume(owner);
  if (!ok) {
    diag_plain(DIAG_ERROR, SRCLOC_NONE, err);
    xfree(err);
    return -1;
  }
  return src_push(src_new(strcmp(path, "-") == 0 ? "<stdin>" : path, text, len));
}

void src_set_binary(int file) {
  pthread_mutex_lock(&src_lock);
  if (file >= 0 && file < src_files.len) src_files.data[file]->binary = true;
  pthread_mutex_unlock(&src_lock);
}

const SrcFile *src_get(int file) {
  pthread_mutex_lock(&src_lock);
  const SrcFile *f = file >= 0 && file < src_files.len ? src_files.data[file] : NULL;
  pthread_mutex_unlock(&src_lock);
  return f;
}

void src_release(int file) {
  pthread_mutex_lock(&src_lock);
  SrcFile *f = NULL;
  if (file >= 0 && file < src_files.len) {
    f = src_files.data[file];
    src_files.data[file] = NULL;
  }
  pthread_mutex_unlock(&src_lock);
  if (f) {
    xfree(f->name);
    xfree(f->text);
    xfree(f);
  }
}

void src_reset(void) {
  pthread_mutex_lock(&src_lock);
  for (int i = 0; i < src_files.len; i++) {
    if (!src_files.data[i]) continue;
    xfree(src_files.data[i]->name);
    xfree(src_files.data[i]->text);
    xfree(src_files.data[i]);
  }
  VEC_FREE(src_files);
  pthread_mutex_unlock(&src_lock);
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
static _Atomic int diag_errors;

int diag_error_count(void) { return diag_errors; }
void diag_reset_count(void) { diag_errors = 0; }
void diag_set_stream(void *f) { diag_stream = f; }
void diag_set_hook(DiagHook hook, void *ud) {
  diag_hook = hook;
  diag_hook_ud = ud;
}
void diag_get_hook(DiagHook *hook, void **ud) {
  *hook = diag_hook;
  *ud = diag_hook_ud;
}
DiagContext diag_context_get(void) { return (DiagContext){diag_hook, diag_hook_ud, diag_stream}; }
void diag_context_set(DiagContext c) {
  diag_hook = c.hook;
  diag_hook_ud = c.ud;
  diag_stream = c.stream;
}

/* At most this many bytes of the source line are echoed: a window around
   the column, so a 50 MB one-line literal costs no more than a short line. */
enum { DIAG_LINE_WINDOW = 200 };

/* Appends to out[*n] (capacity cap) without allocating. */
static void put_bytes(char *out, size_t *n, size_t cap, const char *s, size_t len) {
  if (*n >= cap) return;
  if (len > cap - *n) len = cap - *n;
  memcpy(out + *n, s, len);
  *n += len;
}

/* The source line of loc (a window of it when long) and a caret under the
   column, written into out.  Control bytes (a NUL, say) are shown as '?'. */
static void format_source_line(const SrcFile *f, size_t off, char *out, size_t *n, size_t cap) {
  /* a window of at most DIAG_LINE_WINDOW bytes of the line, the column
     near its middle when the line is long */
  size_t start = off, end = off;
  while (start > 0 && f->text[start - 1] != '\n' && off - start < DIAG_LINE_WINDOW / 2) start--;
  while (end < f->len && f->text[end] != '\n' && end - start < DIAG_LINE_WINDOW) end++;
  while (start > 0 && f->text[start - 1] != '\n' && end - start < DIAG_LINE_WINDOW) start--;
  /* do not start or end inside a UTF-8 sequence */
  while (start < off && ((unsigned char)f->text[start] & 0xC0) == 0x80) start++;
  while (end > off && end < f->len && ((unsigned char)f->text[end] & 0xC0) == 0x80) end--;
  bool cut_left = start > 0 && f->text[start - 1] != '\n';
  bool cut_right = end < f->len && f->text[end] != '\n';
  size_t pad = 0;
  if (cut_left) {
    put_bytes(out, n, cap, "...", 3);
    pad = 3;
  }
  for (size_t i = start; i < end; i++) {
    char c = f->text[i];
    if ((unsigned char)c < 0x20 && c != '\t') c = '?';
    put_bytes(out, n, cap, &c, 1);
  }
  if (cut_right) put_bytes(out, n, cap, "...", 3);
  put_bytes(out, n, cap, "\n", 1);
  for (size_t i = 0; i < pad; i++) put_bytes(out, n, cap, " ", 1);
  for (size_t i = start; i < off; i++) put_bytes(out, n, cap, f->text[i] == '\t' ? "\t" : " ", 1);
  put_bytes(out, n, cap, "^\n", 2);
}

/* Formats one diagnostic into out (capacity cap): "file:line:col: error:
   msg", the source line and a caret; returns the length. */
static size_t format_diag(DiagLevel lvl, SrcLoc loc, const char *msg, char *out, size_t cap) {
  static const char *names[] = {"error", "warning", "note"};
  const SrcFile *f = src_get(loc.file);
  size_t n = 0;
  if (!f) {
    int k = snprintf(out, cap, "xlac: %s: ", names[lvl]);
    n = k > 0 ? (size_t)k : 0;
    put_bytes(out, &n, cap, msg, strlen(msg));
    put_bytes(out, &n, cap, "\n", 1);
  } else if (f->binary) {
    int k = snprintf(out, cap, "%s:%u: %s: ", f->name, loc.off, names[lvl]);
    n = k > 0 ? ((size_t)k < cap ? (size_t)k : cap) : 0;
    put_bytes(out, &n, cap, msg, strlen(msg));
    put_bytes(out, &n, cap, "\n", 1);
  } else {
    int line, col;
    src_line_col(loc, &line, &col);
    int k = snprintf(out, cap, "%s:%d:%d: %s: ", f->name, line, col, names[lvl]);
    n = k > 0 ? ((size_t)k < cap ? (size_t)k : cap) : 0;
    put_bytes(out, &n, cap, msg, strlen(msg));
    put_bytes(out, &n, cap, "\n", 1);
    format_source_line(f, loc.off > f->len ? f->len : loc.off, out, &n, cap);
  }
  return n;
}

/* Prints one diagnostic with a single write, so lines from threads that
   report at once do not interleave.  msg is already formatted. */
static void emit_diag(DiagLevel lvl, SrcLoc loc, const char *msg, char *out, size_t cap) {
  if (lvl == DIAG_ERROR) diag_errors++;
  if (diag_hook) {
    diag_hook(lvl, loc, msg, diag_hook_ud);
    return;
  }
  FILE *stream = diag_stream ? diag_stream : stderr;
  size_t n = format_diag(lvl, loc, msg, out, cap);
  fwrite(out, 1, n, stream);
  fflush(stream);
}

size_t diag_format(DiagLevel lvl, SrcLoc loc, const char *msg, char *out, size_t cap) {
  return format_diag(lvl, loc, msg, out, cap);
}

size_t diag_format_size(SrcLoc loc, const char *msg) {
  const SrcFile *f = src_get(loc.file);
  return strlen(msg) + 4 * DIAG_LINE_WINDOW + 512 + (f ? strlen(f->name) : 0);
}

void diag_plain(DiagLevel lvl, SrcLoc loc, const char *msg) {
  /* no allocation: this reports running out of memory */
  char out[1024];
  emit_diag(lvl, loc, msg, out, sizeof out);
}

void vdiag(DiagLevel lvl, SrcLoc loc, const char *fmt, va_list ap) {
  StrBuf msg = {0};
  sb_vprintf(&msg, fmt, ap);
  const char *m = msg.data ? msg.data : "";
  size_t cap = strlen(m) + 4 * DIAG_LINE_WINDOW + 512;
  const SrcFile *f = src_get(loc.file);
  if (f) cap += strlen(f->name);
  char *out = xmalloc(cap);
  emit_diag(lvl, loc, m, out, cap);
  xfree(out);
  sb_free(&msg);
}

void diag(DiagLevel lvl, SrcLoc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdiag(lvl, loc, fmt, ap);
  va_end(ap);
}
