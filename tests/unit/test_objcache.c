/* The persistent compile cache: a second compilation of the same program
   loads the stored object and computes the same values; options that
   change the code are another entry; a damaged entry is compiled again and
   replaced; an unusable directory compiles without the cache; compilations
   racing on one entry all succeed; entries and directories that others
   could have written are never trusted.  And the digest notices any changed
   byte. */
#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/cpu.h"
#include "cpu/objcache.h"
#include "frontends/stablehlo/stablehlo.h"
#include "test_util.h"

static Module *parse(const char *text) {
  int f = src_add("<test>", text, strlen(text));
  return stablehlo_parse(f, 0, strlen(text));
}

static const char *prog =
    "func.func @main(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {\n"
    "  %0 = stablehlo.multiply %x, %y : tensor<64xf32>\n"
    "  %1 = stablehlo.exponential %0 : tensor<64xf32>\n"
    "  %2 = stablehlo.add %1, %x : tensor<64xf32>\n"
    "  func.return %2 : tensor<64xf32>\n"
    "}\n";

static IVal *vec(int n, float base, float step) {
  Arena a;
  arena_init(&a);
  int64_t d = n;
  Literal *l = lit_new(type_tensor(&a, ET_F32, 1, &d));
  arena_free(&a);
  for (int i = 0; i < n; i++) lit_set_f(l, i, base + step * (float)i);
  return ival_tensor(l);
}

/* Compiles a fresh copy of prog with o and runs it; returns the result
   (NULL on failure) and the stats in *st. */
static IVal *compile_run(const CpuOptions *o, CpuStats *st) {
  Module *m = parse(prog);
  if (!m) return NULL;
  CpuExecutable *e = cpu_compile(m, module_find_func(m, "main"), o);
  IVal *res[1] = {0};
  if (e) {
    *st = *cpu_executable_stats(e);
    Interp I;
    InterpOptions io = {NULL, true, stdout, NULL};
    interp_init(&I, m, &io);
    IVal *args[2] = {vec(64, -1, 0.03125f), vec(64, 0.5f, -0.01f)};
    if (!cpu_execute(e, &I, 2, args, res)) res[0] = NULL;
    ival_release(args[0]);
    ival_release(args[1]);
    cpu_executable_free(e);
  }
  module_free(m);
  return res[0];
}

static bool same(const IVal *a, const IVal *b) {
  return a && b && a->lit->n == b->lit->n && memcmp(a->lit->data, b->lit->data, (size_t)a->lit->n * 4) == 0;
}

/* Names of the files in dir (hidden ones too), and how many. */
static int list_dir(const char *dir, char names[][256], int max) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (n < max) snprintf(names[n], 256, "%s", e->d_name);
    n++;
  }
  closedir(d);
  return n;
}

static void flip_byte(const char *path, long off) {
  FILE *f = fopen(path, "r+b");
  if (!f) return;
  fseek(f, off, SEEK_SET);
  int c = fgetc(f);
  fseek(f, off, SEEK_SET);
  fputc(c ^ 0x40, f);
  fclose(f);
}

typedef struct Racer {
  const CpuOptions *o;
  IVal *res;
  CpuStats st;
} Racer;

static void *race(void *p) {
  Racer *r = p;
  r->res = compile_run(r->o, &r->st);
  return NULL;
}

static void test_digest(void) {
  unsigned char buf[1000];
  for (int i = 0; i < 1000; i++) buf[i] = (unsigned char)(i * 7);
  uint64_t d0[2], d[2];
  objcache_digest(buf, sizeof buf, d0);
  int changed = 0;
  for (int i = 0; i < 1000; i++) {
    buf[i] ^= 1;
    objcache_digest(buf, sizeof buf, d);
    buf[i] ^= 1;
    changed += d[0] != d0[0] && d[1] != d0[1];
  }
  CHECK_EQ_I(changed, 1000);
  /* trailing zero bytes count */
  unsigned char z[9] = {0};
  uint64_t a[2], b[2];
  objcache_digest(z, 8, a);
  objcache_digest(z, 9, b);
  CHECK(a[0] != b[0] && a[1] != b[1]);
  objcache_digest(z, 0, b);
  CHECK(a[0] != b[0] && a[1] != b[1]);
}

int main(void) {
  test_digest();
  char tmpl[] = "/tmp/xlac-objcache-test.XXXXXX";
  char *root = mkdtemp(tmpl);
  CHECK(root != NULL);
  if (!root) TEST_SUMMARY();
  char *dir = xasprintf("%s/a/b", root);
  CpuOptions o = {0};
  o.threads = 1;
  o.cache_dir = dir;
  CpuStats st;
  CpuOptions plain = o;
  plain.cache_dir = NULL;
  IVal *want = compile_run(&plain, &st);
  CHECK(want != NULL);
  CHECK_EQ_I(st.cache, CPU_CACHE_OFF);

  /* first: compiled and stored (the directory and its parent created) */
  IVal *r1 = compile_run(&o, &st);
  CHECK_EQ_I(st.cache, CPU_CACHE_MISS);
  CHECK(same(r1, want));
  char names[8][256];
  CHECK_EQ_I(list_dir(dir, names, 8), 1);
  char *entry = xasprintf("%s/%s", dir, names[0]);
  CHECK(strstr(names[0], ".xo") != NULL);
  /* second: loaded */
  IVal *r2 = compile_run(&o, &st);
  CHECK_EQ_I(st.cache, CPU_CACHE_HIT);
  CHECK(same(r2, want));
  /* options that change the code: another entry */
  CpuOptions o2 = o;
  o2.no_fusion = true;
  IVal *r3 = compile_run(&o2, &st);
  CHECK_EQ_I(st.cache, CPU_CACHE_MISS);
  CHECK_EQ_I(list_dir(dir, names, 8), 2);
  ival_release(compile_run(&o2, &st));
  CHECK_EQ_I(st.cache, CPU_CACHE_HIT);

  /* damaged entries: detected, compiled again, replaced */
  struct stat sb;
  CHECK(stat(entry, &sb) == 0);
  long size = (long)sb.st_size;
  const long offs[] = {0, 9, 20, 35, 44, 60, 64, size / 2, size - 1};
  for (int k = 0; k < (int)ARRAY_LEN(offs); k++) {
    flip_byte(entry, offs[k]);
    IVal *r = compile_run(&o, &st);
    CHECK_EQ_I(st.cache, CPU_CACHE_REPLACED);
    CHECK(strstr(st.cache_note, entry) != NULL);
    CHECK(same(r, want));
    ival_release(r);
    r = compile_run(&o, &st);
    CHECK_EQ_I(st.cache, CPU_CACHE_HIT);
    ival_release(r);
  }
  CHECK(truncate(entry, size - 1) == 0);
  IVal *r4 = compile_run(&o, &st);
  CHECK_EQ_I(st.cache, CPU_CACHE_REPLACED);
  CHECK(strstr(st.cache_note, "truncated") != NULL);
  CHECK(same(r4, want));
  CHECK(stat(entry, &sb) == 0 && sb.st_size == size);

  /* with dumps the compilation runs in full (and stores) */
  CpuOptions od = o;
  od.dump_dir = xasprintf("%s/dump", root);
  IVal *r5 = compile_run(&od, &st);
  CHECK_EQ_I(st.cache, CPU_CACHE_MISS);
  CHECK(same(r5, want));

  /* racing compilations of one program: all succeed, one whole entry */
  CpuOptions o3 = o;
  o3.cache_dir = xasprintf("%s/race", root);
  Racer rs[4];
  pthread_t th[4];
  for (int i = 0; i < 4; i++) {
    rs[i] = (Racer){&o3, NULL, {0}};
    pthread_create(&th[i], NULL, race, &rs[i]);
  }
  for (int i = 0; i < 4; i++) {
    pthread_join(th[i], NULL);
    CHECK(same(rs[i].res, want));
    CHECK(rs[i].st.cache == CPU_CACHE_MISS || rs[i].st.cache == CPU_CACHE_HIT);
    ival_release(rs[i].res);
  }
  CHECK_EQ_I(list_dir(o3.cache_dir, names, 8), 1);
  ival_release(compile_run(&o3, &st));
  CHECK_EQ_I(st.cache, CPU_CACHE_HIT);

  /* an unusable directory (a file in the way): compiled without it */
  char *file = xasprintf("%s/file", root);
  FILE *f = fopen(file, "w");
  if (f) fclose(f);
  CpuOptions o4 = o;
  o4.cache_dir = xasprintf("%s/sub", file);
  IVal *r6 = compile_run(&o4, &st);
  CHECK_EQ_I(st.cache, CPU_CACHE_ERROR);
  CHECK(strstr(st.cache_note, "Not a directory") != NULL);
  CHECK(same(r6, want));

  /* Trust.  The directory and the entries are this user's alone */
  CHECK(stat(dir, &sb) == 0 && (sb.st_mode & 0777) == 0700);
  CHECK(stat(entry, &sb) == 0 && (sb.st_mode & 0777) == 0600);
  /* an entry others may write is never run (whatever it holds: its
     checksum is no proof of who wrote it), and is replaced */
  CHECK(chmod(entry, 0666) == 0);
  IVal *r7 = compile_run(&o, &st);
  CHECK_EQ_I(st.cache, CPU_CACHE_REPLACED);
  CHECK(strstr(st.cache_note, "writable by its group or by others") != NULL);
  CHECK(same(r7, want));
  CHECK(stat(entry, &sb) == 0 && (sb.st_mode & 0777) == 0600);
  ival_release(compile_run(&o, &st));
  CHECK_EQ_I(st.cache, CPU_CACHE_HIT);
  /* an entry of another user (needs root to plant; skipped otherwise) */
  if (geteuid() == 0) {
    CHECK(chown(entry, 65534, 65534) == 0);
    IVal *r = compile_run(&o, &st);
    CHECK_EQ_I(st.cache, CPU_CACHE_REPLACED);
    CHECK(strstr(st.cache_note, "owned by another user") != NULL);
    CHECK(same(r, want));
    ival_release(r);
    CHECK(stat(entry, &sb) == 0 && sb.st_uid == 0);
  } else {
    printf("test_objcache: skipped planting another user's entry (needs root)\n");
  }
  /* a symbolic link or a FIFO at the entry's path: not followed, not
     waited on (a FIFO would block every compile of the program) */
  char *target = xasprintf("%s/elsewhere.xo", root);
  CHECK(rename(entry, target) == 0);
  CHECK(symlink(target, entry) == 0);
  IVal *r8 = compile_run(&o, &st);
  CHECK_EQ_I(st.cache, CPU_CACHE_REPLACED);
  CHECK(strstr(st.cache_note, "symbolic link") != NULL);
  CHECK(same(r8, want));
  CHECK(lstat(entry, &sb) == 0 && S_ISREG(sb.st_mode));
  CHECK(unlink(entry) == 0 && mkfifo(entry, 0600) == 0);
  IVal *r9 = compile_run(&o, &st);
  CHECK_EQ_I(st.cache, CPU_CACHE_REPLACED);
  CHECK(strstr(st.cache_note, "not a regular file") != NULL);
  CHECK(same(r9, want));
  CHECK(lstat(entry, &sb) == 0 && S_ISREG(sb.st_mode));
  /* a directory others may write, or another user's: not used at all */
  CHECK(chmod(dir, 0777) == 0);
  IVal *r10 = compile_run(&o, &st);
  CHECK_EQ_I(st.cache, CPU_CACHE_ERROR);
  CHECK(strstr(st.cache_note, "not using") != NULL && strstr(st.cache_note, "writable by its group or by others"));
  CHECK(same(r10, want));
  CHECK(chmod(dir, 0700) == 0);
  if (geteuid() == 0) {
    CHECK(chown(dir, 65534, 65534) == 0);
    IVal *r = compile_run(&o, &st);
    CHECK_EQ_I(st.cache, CPU_CACHE_ERROR);
    CHECK(strstr(st.cache_note, "owned by another user") != NULL);
    CHECK(same(r, want));
    ival_release(r);
    CHECK(chown(dir, 0, 0) == 0);
  }
  ival_release(compile_run(&o, &st));
  CHECK_EQ_I(st.cache, CPU_CACHE_HIT);
  ival_release(r7);
  ival_release(r8);
  ival_release(r9);
  ival_release(r10);
  free(target);

  ival_release(want);
  ival_release(r1);
  ival_release(r2);
  ival_release(r3);
  ival_release(r4);
  ival_release(r5);
  ival_release(r6);
  char *cmd = xasprintf("rm -rf '%s'", root);
  CHECK(system(cmd) == 0);
  free(cmd);
  free(entry);
  free(dir);
  free(file);
  free((char *)od.dump_dir);
  free((char *)o3.cache_dir);
  free((char *)o4.cache_dir);
  TEST_SUMMARY();
}
