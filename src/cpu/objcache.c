/*
 * objcache.c - the persistent compile cache (see objcache.h).
 *
 * Key: a 128-bit digest of the module's LLVM IR text before optimization
 * (large byte-array constants hashed as bytes, not printed), the
 * optimization level, the host description (target triple, CPU name,
 * feature string, LLVM version; jit_host_description), the xlac version,
 * the runtime's ABI version, the revision of what runs after LLVM's
 * optimizer (PIPELINE_REVISION) and this file's format version.  The IR text
 * spells out everything code generation decided: the program, its shapes
 * and constants, what the options changed, the indices generated code
 * passes to the interpreter thunk and the loop reports.  So an entry with
 * the same key is the object this compilation would generate, and the
 * executable's other parts (fallback table, loops, temp size), which
 * cpu_compile rebuilds every time, agree with it.  The IR holds no address
 * of this process: runtime functions and the interpreter thunk are called
 * by name and resolved when the object is linked into the JIT.
 *
 * Entry: DIR/<32 hex digits of the key>.xo, a 64-byte header then the
 * payload: the object files of the compilation (one, or one per part of a
 * module compiled in parts, codegen/jit_split.c), as a count (u32), a
 * zero (u32), each object's size (u64) and the objects one after the
 * other.  Header (integers little-endian):
 *    0  magic "XLACOBJ\n"
 *    8  format version (u32), header size (u32)
 *   16  key digest (2 x u64)
 *   32  payload size (u64)
 *   40  payload digest (2 x u64)
 *   56  digest of bytes 0..55 (u64)
 * An entry is written to a temporary file in DIR and renamed into place,
 * so a reader (another process compiling the same program) sees a whole
 * entry or none; concurrent writers of one key each rename a whole entry.
 * Nothing is synced to disk: an entry a crash cut short fails the checks.
 * A reader checks the magic, the header digest, the version, the key, that
 * the payload is exactly the rest of the file, and the payload digest; an
 * entry that fails any check, or whose object does not link, is never run:
 * the program is compiled again and the entry replaced.
 *
 * The digest is not cryptographic: it makes accidental collisions and
 * undetected corruption negligible.  Whoever can write to the directory
 * can make xlac run any code, as with any directory of executables, so
 * the cache trusts only what this user (or root) controls: the directory
 * is created 0700 and entries 0600; a directory owned by another user or
 * writable by group or others is not used at all (a note says why), and
 * an entry that is not a regular file (a FIFO, a symbolic link, a device:
 * opened without following or blocking), is owned by another user or is
 * writable by others is never run.  Entries are opened and written
 * relative to the directory as checked (openat), so renaming a parent
 * afterwards changes nothing.
 */
#include "cpu/objcache.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/version.h"
#include "xlacrt.h"

#define FORMAT_VERSION 2
#define MAX_OBJECTS 64
/* Part of the key: raised whenever what jit_optimize_for does to a given IR
   text changes (2: vector half/bfloat ops widened after optimizing; 3: no
   loop unrolling; 4: xlac's own pass pipeline, no loop strength
   reduction), so an older object of the same IR is not reused. */
#define PIPELINE_REVISION 4
#define HEADER_BYTES 64
#define MAX_ENTRY_BYTES ((int64_t)1 << 30)
static const char MAGIC[8] = {'X', 'L', 'A', 'C', 'O', 'B', 'J', '\n'};

/* ---- the digest ----
 * Two 64-bit lanes over little-endian 8-byte words.  Each word step is a
 * bijection of each lane's state, so two inputs of equal length that
 * differ in one word always differ in both lanes; the lanes mix words
 * differently, and a final avalanche spreads every bit over each half. */
typedef struct Hasher {
  uint64_t a, b, n;
  unsigned char tail[8];
  int ntail;
} Hasher;

#define K1 0x243f6a8885a308d3ull
#define K2 0x13198a2e03707345ull
#define K3 0xa4093822299f31d1ull
#define K4 0x082efa98ec4e6c89ull
#define K5 0x452821e638d01377ull

static uint64_t rotl64(uint64_t x, int r) { return x << r | x >> (64 - r); }

static uint64_t load_le64(const unsigned char *p) {
  uint64_t w = 0;
  for (int i = 7; i >= 0; i--) w = w << 8 | p[i];
  return w;
}

static void store_le64(unsigned char *p, uint64_t w) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(w >> (8 * i));
}

static void store_le32(unsigned char *p, uint32_t w) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(w >> (8 * i));
}

static uint32_t load_le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void hasher_init(Hasher *h) {
  memset(h, 0, sizeof *h);
  h->a = K3;
  h->b = K4;
}

static void hasher_word(Hasher *h, uint64_t w) {
  h->a = (h->a ^ w) * K1;
  h->a ^= h->a >> 29;
  h->b = rotl64(h->b + w * K2, 31) * K3;
}

static void hasher_update(Hasher *h, const void *data, size_t n) {
  const unsigned char *p = data;
  h->n += n;
  while (n > 0 && h->ntail > 0) {
    h->tail[h->ntail++] = *p++;
    n--;
    if (h->ntail == 8) {
      hasher_word(h, load_le64(h->tail));
      h->ntail = 0;
    }
  }
  for (; n >= 8; p += 8, n -= 8) hasher_word(h, load_le64(p));
  for (; n > 0; n--) h->tail[h->ntail++] = *p++;
}

static uint64_t avalanche(uint64_t x) {
  x ^= x >> 31;
  x *= K5;
  x ^= x >> 29;
  x *= K1;
  x ^= x >> 32;
  return x;
}

static void hasher_final(Hasher *h, uint64_t out[2]) {
  if (h->ntail > 0) {
    memset(h->tail + h->ntail, 0, (size_t)(8 - h->ntail));
    hasher_word(h, load_le64(h->tail));
  }
  out[0] = avalanche(h->a ^ h->n);
  out[1] = avalanche(h->b ^ rotl64(h->n, 32) ^ K2);
}

void objcache_digest(const void *p, size_t n, uint64_t out[2]) {
  Hasher h;
  hasher_init(&h);
  hasher_update(&h, p, n);
  hasher_final(&h, out);
}

/* ---- one compilation ---- */
struct ObjCache {
  char *dir;
  int dirfd;      /* the directory as checked (-1: not usable) */
  char *name;     /* the entry's file name in it */
  char *path;     /* the entry (for messages) */
  uint64_t key[2];
  bool lookup;    /* read the entry */
  bool usable;    /* the directory exists */
  CpuCacheResult result;
  char note[sizeof(((CpuStats *)0)->cache_note)];
};

static void set_note(ObjCache *c, CpuCacheResult r, const char *fmt, ...) XLAC_PRINTF(3, 4);
static void set_note(ObjCache *c, CpuCacheResult r, const char *fmt, ...) {
  c->result = r;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->note, sizeof c->note, fmt, ap);
  va_end(ap);
}

char *objcache_entry_path(const char *dir, const uint64_t digest[2]) {
  size_t n = strlen(dir);
  const char *sep = n > 0 && dir[n - 1] == '/' ? "" : "/";
  return xasprintf("%s%s%016llx%016llx.xo", dir, sep, (unsigned long long)digest[0],
                   (unsigned long long)digest[1]);
}

/* mkdir -p, new directories 0700; false with errno set when dir is not
   (and cannot become) a directory */
static bool make_dirs(const char *dir) {
  struct stat st;
  if (stat(dir, &st) == 0) {
    if (S_ISDIR(st.st_mode)) return true;
    errno = ENOTDIR;
    return false;
  }
  char *p = xstrdup(dir);
  for (char *s = p + 1; *s; s++) {
    if (*s != '/') continue;
    *s = '\0';
    if (mkdir(p, 0700) != 0 && errno != EEXIST) {
      int e = errno;
      xfree(p);
      errno = e;
      return false;
    }
    *s = '/';
  }
  xfree(p);
  if (mkdir(dir, 0700) != 0 && errno != EEXIST) return false;
  if (stat(dir, &st) != 0) return false;
  if (!S_ISDIR(st.st_mode)) {
    errno = ENOTDIR;
    return false;
  }
  return true;
}

/* Hashes M's IR text.  Printing large constants as text is slow (a few MB
   of weights take longer than compiling), so the text is printed with
   byte-array initializers of globals replaced by zeroinitializer, and
   their bytes are hashed as they are. */
static void hash_module(Hasher *h, LLVMModuleRef M) {
  VEC(LLVMValueRef) globals = {0};
  VEC(LLVMValueRef) inits = {0};
  for (LLVMValueRef g = LLVMGetFirstGlobal(M); g; g = LLVMGetNextGlobal(g)) {
    LLVMValueRef init = LLVMGetInitializer(g);
    if (!init || !LLVMIsAConstantDataSequential(init) || !LLVMIsConstantString(init)) continue;
    size_t n = 0;
    LLVMGetAsString(init, &n);
    if (n < 64) continue;
    VEC_PUSH(globals, g);
    VEC_PUSH(inits, init);
    LLVMSetInitializer(g, LLVMConstNull(LLVMTypeOf(init)));
  }
  char *ir = LLVMPrintModuleToString(M);
  hasher_update(h, ir, strlen(ir));
  LLVMDisposeMessage(ir);
  for (int i = 0; i < globals.len; i++) {
    size_t n = 0, len = 0;
    const char *name = LLVMGetValueName2(globals.data[i], &len);
    const char *bytes = LLVMGetAsString(inits.data[i], &n);
    uint64_t sizes[2] = {len, n};
    hasher_update(h, sizes, sizeof sizes);
    hasher_update(h, name, len);
    hasher_update(h, bytes, n);
    LLVMSetInitializer(globals.data[i], inits.data[i]);
  }
  VEC_FREE(globals);
  VEC_FREE(inits);
}

/* Why a file or directory (open as fd) is not to be trusted, or NULL:
   anything but a regular file (a directory, for dir), owned by anyone but
   this user or root, or writable by group or others. */
static const char *untrusted(int fd, bool dir) {
  struct stat st;
  if (fstat(fd, &st) != 0) return "not readable";
  if (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) return dir ? "not a directory" : "not a regular file";
  uid_t me = geteuid();
  if (st.st_uid != me && st.st_uid != 0) return "owned by another user";
  if (st.st_uid == 0 && me != 0 && (st.st_mode & S_IWOTH)) return "writable by others";
  if (st.st_mode & (S_IWGRP | S_IWOTH)) return "writable by its group or by others";
  return NULL;
}

ObjCache *objcache_open(const char *dir, LLVMModuleRef M, int opt_level, bool lookup) {
  ObjCache *c = xcalloc(1, sizeof(ObjCache));
  c->dirfd = -1;
  c->dir = xstrdup(dir);
  c->lookup = lookup;
  c->result = CPU_CACHE_MISS;
  if (!*dir) {
    set_note(c, CPU_CACHE_ERROR, "the compile cache directory is an empty name; compiling without it");
    return c;
  }
  if (!make_dirs(dir) || (c->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
    set_note(c, CPU_CACHE_ERROR, "cannot use '%s' as the compile cache directory: %s; compiling without it", dir,
             strerror(errno));
    return c;
  }
  const char *why = untrusted(c->dirfd, true);
  if (why) {
    set_note(c, CPU_CACHE_ERROR, "not using '%s' as the compile cache directory: it is %s; compiling without it",
             dir, why);
    close(c->dirfd);
    c->dirfd = -1;
    return c;
  }
  c->usable = true;
  Hasher h;
  hasher_init(&h);
  char *host = jit_host_description();
  char *head = xasprintf("xlac objcache format %d\nxlac %s\nruntime abi %d\nopt %d\npipeline %d\n%s\n",
                         FORMAT_VERSION, XLAC_VERSION, XLACRT_ABI_VERSION, opt_level, PIPELINE_REVISION, host);
  hasher_update(&h, head, strlen(head));
  xfree(head);
  xfree(host);
  hash_module(&h, M);
  hasher_final(&h, c->key);
  c->path = objcache_entry_path(dir, c->key);
  c->name = xasprintf("%016llx%016llx.xo", (unsigned long long)c->key[0], (unsigned long long)c->key[1]);
  return c;
}

static bool read_all(int fd, unsigned char *p, size_t n) {
  while (n > 0) {
    ssize_t k = read(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= (size_t)k;
  }
  return true;
}

/* The header for a payload given in np pieces. */
static void make_header(unsigned char *hdr, const uint64_t key[2], int np, const void *const *pieces,
                        const size_t *sizes) {
  size_t n = 0;
  Hasher h;
  hasher_init(&h);
  for (int i = 0; i < np; i++) {
    hasher_update(&h, pieces[i], sizes[i]);
    n += sizes[i];
  }
  memset(hdr, 0, HEADER_BYTES);
  memcpy(hdr, MAGIC, 8);
  store_le32(hdr + 8, FORMAT_VERSION);
  store_le32(hdr + 12, HEADER_BYTES);
  store_le64(hdr + 16, key[0]);
  store_le64(hdr + 24, key[1]);
  store_le64(hdr + 32, (uint64_t)n);
  uint64_t d[2];
  hasher_final(&h, d);
  store_le64(hdr + 40, d[0]);
  store_le64(hdr + 48, d[1]);
  objcache_digest(hdr, 56, d);
  store_le64(hdr + 56, d[0]);
}

/* Reads and checks the entry: its payload (heap), or NULL (a missing entry
   leaves the result a miss; a bad one notes why). */
static unsigned char *read_entry(ObjCache *c, size_t *size) {
  /* not following a link, not waiting for a FIFO's writer */
  int fd = openat(c->dirfd, c->name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ELOOP)
      set_note(c, CPU_CACHE_REPLACED, "the compile cache entry '%s' is a symbolic link; not used, compiled again",
               c->path);
    else if (errno != ENOENT)
      set_note(c, CPU_CACHE_REPLACED, "cannot read the compile cache entry '%s': %s", c->path, strerror(errno));
    return NULL;
  }
  struct stat st;
  unsigned char hdr[HEADER_BYTES], *payload = NULL;
  const char *bad = untrusted(fd, false);
  if (bad) {
    /* (said below) */
  } else if (fstat(fd, &st) != 0) {
    bad = "not readable";
  } else if (st.st_size < HEADER_BYTES) {
    bad = "truncated (shorter than its header)";
  } else if (!read_all(fd, hdr, HEADER_BYTES)) {
    bad = "unreadable";
  } else if (memcmp(hdr, MAGIC, 8) != 0) {
    bad = "not a compile cache entry";
  } else if (load_le32(hdr + 8) != FORMAT_VERSION || load_le32(hdr + 12) != HEADER_BYTES) {
    bad = "of another format version";
  } else {
    uint64_t d[2];
    objcache_digest(hdr, 56, d);
    uint64_t n = load_le64(hdr + 32);
    if (load_le64(hdr + 56) != d[0]) {
      bad = "corrupted (its header's checksum does not match)";
    } else if (load_le64(hdr + 16) != c->key[0] || load_le64(hdr + 24) != c->key[1]) {
      bad = "written for another program (its key does not match)";
    } else if ((int64_t)n != (int64_t)st.st_size - HEADER_BYTES) {
      bad = (int64_t)n > (int64_t)st.st_size - HEADER_BYTES ? "truncated (shorter than its header says)"
                                                            : "longer than its header says";
    } else if ((int64_t)n > MAX_ENTRY_BYTES || !alloc_fits((size_t)n + 1)) {
      bad = "too large";
    } else {
      payload = xmalloc((size_t)n + 1);
      if (!read_all(fd, payload, (size_t)n)) {
        bad = "unreadable";
      } else {
        objcache_digest(payload, (size_t)n, d);
        if (d[0] != load_le64(hdr + 40) || d[1] != load_le64(hdr + 48))
          bad = "corrupted (its checksum does not match)";
        else
          *size = (size_t)n;
      }
    }
  }
  close(fd);
  if (bad) {
    xfree(payload);
    set_note(c, CPU_CACHE_REPLACED, "the compile cache entry '%s' is %s; compiled again", c->path, bad);
    return NULL;
  }
  return payload;
}

/* The objects of a payload: their count, or 0 when the index does not
   describe the payload exactly (offs/lens: MAX_OBJECTS each). */
static int split_payload(const unsigned char *p, size_t n, size_t *offs, size_t *lens) {
  if (n < 8) return 0;
  uint32_t count = load_le32(p);
  if (count < 1 || count > MAX_OBJECTS || load_le32(p + 4) != 0 || n < 8 + 8 * (size_t)count) return 0;
  size_t at = 8 + 8 * (size_t)count;
  for (uint32_t i = 0; i < count; i++) {
    uint64_t len = load_le64(p + 8 + 8 * (size_t)i);
    if (len == 0 || len > n - at) return 0;
    offs[i] = at;
    lens[i] = (size_t)len;
    at += (size_t)len;
  }
  return at == n ? (int)count : 0;
}

Jit *objcache_load(ObjCache *c, const JitSymbol *syms, int nsyms, const char *entry) {
  if (!c->usable || !c->lookup) return NULL;
  size_t n = 0;
  unsigned char *payload = read_entry(c, &n);
  if (!payload) return NULL;
  size_t offs[MAX_OBJECTS], lens[MAX_OBJECTS];
  int count = split_payload(payload, n, offs, lens);
  if (!count) {
    xfree(payload);
    set_note(c, CPU_CACHE_REPLACED, "the compile cache entry '%s' is malformed (its object index does not "
             "describe it); compiled again", c->path);
    return NULL;
  }
  char *err = NULL;
  LLVMMemoryBufferRef objs[MAX_OBJECTS];
  for (int i = 0; i < count; i++)
    objs[i] = LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)payload + offs[i], lens[i], "xlac-object");
  xfree(payload);
  Jit *j = jit_create_from_buffers(objs, count, syms, nsyms, &err);
  /* linking happens at the first lookup */
  if (j && !jit_lookup(j, entry, &err)) {
    jit_free(j);
    j = NULL;
  }
  if (!j) {
    set_note(c, CPU_CACHE_REPLACED, "the compile cache entry '%s' does not link (%s); compiled again", c->path,
             err ? err : "unknown error");
    xfree(err);
    return NULL;
  }
  c->result = CPU_CACHE_HIT;
  c->note[0] = '\0';
  return j;
}

void objcache_store(ObjCache *c, const LLVMMemoryBufferRef *objs, int n) {
  if (!c || !c->usable || n < 1 || n > MAX_OBJECTS) return;
  unsigned char hdr[HEADER_BYTES], index[8 + 8 * MAX_OBJECTS];
  const void *pieces[2 + MAX_OBJECTS];
  size_t sizes[2 + MAX_OBJECTS];
  store_le32(index, (uint32_t)n);
  store_le32(index + 4, 0);
  pieces[1] = index;
  sizes[1] = 8 + 8 * (size_t)n;
  for (int i = 0; i < n; i++) {
    pieces[2 + i] = LLVMGetBufferStart(objs[i]);
    sizes[2 + i] = LLVMGetBufferSize(objs[i]);
    store_le64(index + 8 + 8 * i, (uint64_t)sizes[2 + i]);
  }
  make_header(hdr, c->key, n + 1, pieces + 1, sizes + 1);
  pieces[0] = hdr;
  sizes[0] = HEADER_BYTES;
  bool created;
  int e = write_file_atomic_at(c->dirfd, c->name, 0600, n + 2, pieces, sizes, &created);
  if (e && !created)
    set_note(c, CPU_CACHE_ERROR, "cannot write to the compile cache directory '%s': %s; the program is not cached",
             c->dir, strerror(e));
  else if (e)
    set_note(c, CPU_CACHE_ERROR, "cannot write the compile cache entry '%s': %s; the program is not cached",
             c->path, strerror(e));
}

Jit *objcache_compile(ObjCache *c, LLVMModuleRef M, const JitSymbol *syms, int nsyms, char **err) {
  char *obj = NULL;
  size_t n = 0;
  bool ok = jit_emit_object(M, &obj, &n, err);
  LLVMDisposeModule(M);
  if (!ok) return NULL;
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(obj, n, "xlac-object");
  xfree(obj);
  objcache_store(c, &buf, 1);
  return jit_create_from_buffers(&buf, 1, syms, nsyms, err);
}

void objcache_close(ObjCache *c, CpuStats *st) {
  if (!c) return;
  st->cache = c->result;
  snprintf(st->cache_note, sizeof st->cache_note, "%s", c->note);
  if (c->dirfd >= 0) close(c->dirfd);
  xfree(c->dir);
  xfree(c->path);
  xfree(c->name);
  xfree(c);
}
