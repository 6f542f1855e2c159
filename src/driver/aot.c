/*
 * aot.c - `xlac aot`: a program becomes an object file and a header.
 *
 * Accepts tfcompile's flags (--out_function_object, --out_header,
 * --cpp_class, --target_triple, ...) and a short spelling of our own
 * (`xlac aot model.mlir -o model.o --header model.h --name model`).
 *
 * Nothing is written until everything has compiled; then every output goes
 * to a temporary file in its directory, and only when all of them are
 * written are they renamed into place, so a failed run leaves what was
 * there before untouched.  An output may replace a regular file only: a
 * device, a FIFO, a directory or a symbolic link at its path is refused
 * (renaming over /dev/null would replace the device), and so is an output
 * that is the input or another output of the same run.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aot/aot.h"
#include "driver/driver.h"

int driver_aot(int argc, char **argv);

static const char aot_usage[] =
    "usage: xlac aot [options] FILE\n"
    "  compile a StableHLO or HLO program ahead of time into an object file and a header\n"
    "  -o FILE, --out_function_object=FILE   the object (default: NAME.o)\n"
    "  --header FILE, --out_header=FILE      the header (default: NAME.h)\n"
    "  --name NAME                           prefix of the C API and the symbols (default:\n"
    "                                        the header's or the input's file name)\n"
    "  --cpp_class=ns1::ns2::Class           also a C++ class with tfcompile's methods\n"
    "  --function NAME                       function to compile (default: @main / ENTRY)\n"
    "  --entry_point=SYMBOL                  symbol of the generated function (default NAME_entry)\n"
    "  --target_triple=TRIPLE                e.g. aarch64-linux-gnu (default: this machine)\n"
    "  --target_cpu=CPU                      e.g. cortex-a72, skylake-avx512 (one LLVM does not\n"
    "                                        know is an error; help: LLVM's list)\n"
    "  --target_features=FEATURES            e.g. +avx2,+fma\n"
    "  --out_metadata_object=FILE            put the descriptor (names, shapes) in its own object\n"
    "  --gen_name_to_index                   C++: ArgNames/ResultNames, LookupArgIndex/LookupResultIndex\n"
    "  --gen_program_shape                   C++: ProgramShape()\n"
    "  --out_test=FILE                       a C test: zero and random inputs checked against the\n"
    "                                        reference interpreter, 1 and 2 threads\n"
    "  --out_benchmark=FILE                  a C program timing run (min/median/max)\n"
    "  --graph=FILE --config=FILE            a TensorFlow GraphDef and its tf2xla Config\n"
    "  --checkpoint=PATH [--saver=FILE]      the graph's other variables frozen to a TensorFlow\n"
    "                                        checkpoint's values (tf_library's freeze_checkpoint)\n"
    "xlac aot --print-link-flags             what to add to a link line for the objects\n";

static void XLAC_PRINTF(1, 2) fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "xlac aot: error: ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

static void usage(const char *fmt, const char *what) {
  fprintf(stderr, "xlac aot: error: ");
  fprintf(stderr, fmt, what);
  fprintf(stderr, "\n(see 'xlac aot --help')\n");
}

/* A valued option (driver_option_value); a missing value is a usage error. */
static bool flag(int argc, char **argv, int *i, const char *name, const char **value, bool *bad) {
  if (!driver_option_value(argc, argv, i, name, value)) return false;
  if (!*value) {
    usage("option %s needs a value", name);
    *bad = true;
  }
  return true;
}

/* A boolean flag: "--name", "--name=true" / "--name=false". */
static bool bool_flag(const char *s, const char *name, bool *out, bool *bad) {
  size_t n = strlen(name);
  if (strncmp(s, name, n) != 0) return false;
  if (!s[n]) *out = true;
  else if (strcmp(s + n, "=true") == 0 || strcmp(s + n, "=1") == 0) *out = true;
  else if (strcmp(s + n, "=false") == 0 || strcmp(s + n, "=0") == 0) *out = false;
  else if (s[n] == '=') {
    usage("%s takes true or false", name);
    *bad = true;
  } else {
    return false;
  }
  return true;
}

/* The file name without directory and extension, as a C identifier. */
static char *stem_identifier(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strchr(base, '.');
  size_t n = dot && dot > base ? (size_t)(dot - base) : strlen(base);
  if (!n) return xstrdup("model");
  return c_identifier_of(base, n);
}

static bool valid_cpp_class(const char *s) {
  const char *p = s, *sep;
  while ((sep = strstr(p, "::"))) {
    char *part = xstrndup(p, (size_t)(sep - p));
    bool ok = is_c_identifier(part);
    xfree(part);
    if (!ok) return false;
    p = sep + 2;
  }
  return is_c_identifier(p);
}

/* ---- names the object exports and the header declares ---- */

/* Whether the C library (or libm) this xlac runs with defines sym.  An
   object exporting it would take its place in the program that links the
   object (an entry point named malloc would receive every allocation), and
   a header declaring it would not compile next to the library's headers
   (NAME_create for NAME pthread).  A few names are refused even when the
   library cannot be asked (a static xlac). */
static bool c_library_defines(const char *sym) {
  static const char *const always[] = {"main", "malloc", "calloc", "realloc", "free", "system", "exit", "abort",
                                       "memcpy", "memmove", "memset", "strlen", "printf"};
  for (size_t i = 0; i < ARRAY_LEN(always); i++)
    if (strcmp(sym, always[i]) == 0) return true;
  static const char *const libs[] = {"libc.so.6", "libm.so.6"};
  bool asked = false;
  for (size_t i = 0; i < ARRAY_LEN(libs); i++) {
    void *h = dlopen(libs[i], RTLD_LAZY | RTLD_NOLOAD);
    if (!h) continue;
    asked = true;
    bool found = dlsym(h, sym) != NULL;
    dlclose(h);
    if (found) return true;
  }
  return !asked && dlsym(RTLD_DEFAULT, sym) != NULL;
}

/* The name (given or from a file name), the class and the entry symbol
   (names.c says what each may not be; the C library is asked here). */
static bool check_names(const char *prefix, bool given, const char *cpp_class, const char *entry_point) {
  char *why = aot_name_problem(prefix);
  for (int i = 0; !why && aot_c_api_functions[i]; i++) {
    StrBuf b = {0};
    for (const char *p = aot_c_api_functions[i]; *p; p++)
      if (*p == '@') sb_puts(&b, prefix);
      else sb_putc(&b, *p);
    if (c_library_defines(b.data)) why = xasprintf("the header would declare %s, which the C library defines", b.data);
    sb_free(&b);
  }
  if (why) {
    fail("%s '%s' cannot be used: %s%s", given ? "--name" : "the name", prefix, why,
         given ? "" : " (it comes from the file name; choose one with --name)");
    xfree(why);
    return false;
  }
  if (cpp_class && (why = aot_class_problem(cpp_class, prefix))) {
    fail("--cpp_class '%s' cannot be used: %s", cpp_class, why);
    xfree(why);
    return false;
  }
  char *sym = entry_point ? xstrdup(entry_point) : xasprintf("%s_entry", prefix);
  why = aot_symbol_problem(sym, prefix);
  if (!why && c_library_defines(sym))
    why = xstrdup("the C library defines it, and the program linking the object would call the compiled program "
                  "in its place");
  bool ok = why == NULL;
  if (!ok && entry_point) fail("--entry_point '%s' cannot be the entry symbol: %s", sym, why);
  else if (!ok) fail("the entry symbol '%s' (from --name) cannot be used: %s", sym, why);
  xfree(sym);
  xfree(why);
  return ok;
}

/* ---- outputs ---- */

typedef struct Output {
  const char *what; /* "the object", for messages */
  const char *path;
  const void *data;
  size_t size;
  char *norm; /* normalized (normalized_path) */
  bool exists;
  dev_t dev;
  ino_t ino;
  char *tmp; /* the temporary file written, until renamed */
} Output;

/* The directory part of path ("." when none), and the last component. */
static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return !slash ? xstrdup(".") : slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
}

static const char *base_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* The path with its directory resolved (realpath) when that exists, so
   that two spellings of one file ("m.o", "./m.o", "d/../m.o") compare
   equal even before the file exists; else the path as given. */
static char *normalized_path(const char *path) {
  char *dir = dir_of(path);
  char *real = realpath(dir, NULL);
  char *r = real ? xasprintf("%s/%s", strcmp(real, "/") ? real : "", base_of(path)) : xstrdup(path);
  xfree(real);
  xfree(dir);
  return r;
}

static const char *file_kind(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISLNK(m)) return "a symbolic link";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  return S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* What is at the output's path now: nothing, or a regular file (recorded);
   anything else is refused. */
static bool probe_output(Output *o) {
  const char *base = base_of(o->path);
  if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
    fail("cannot write %s '%s': that names a directory, not a file", o->what, o->path);
    return false;
  }
  struct stat st;
  o->exists = lstat(o->path, &st) == 0;
  if (!o->exists) return true; /* absent, or a directory that is not there: the write says which */
  if (!S_ISREG(st.st_mode)) {
    fail("cannot write %s '%s': it exists and is %s; only a regular file is replaced", o->what, o->path,
         file_kind(st.st_mode));
    return false;
  }
  o->dev = st.st_dev;
  o->ino = st.st_ino;
  return true;
}

/* Every output: a regular file or nothing at its path, not the input, and
   no two of them the same file (compared by device and inode when they
   exist, and by normalized path). */
static bool check_outputs(Output *outs, int n, const char *input) {
  struct stat in;
  bool have_in = strcmp(input, "-") != 0 && stat(input, &in) == 0;
  char *in_norm = strcmp(input, "-") != 0 ? normalized_path(input) : NULL;
  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    Output *o = &outs[i];
    ok = probe_output(o);
    if (!ok) break;
    o->norm = normalized_path(o->path);
    if ((have_in && o->exists && o->dev == in.st_dev && o->ino == in.st_ino) ||
        (in_norm && strcmp(o->norm, in_norm) == 0)) {
      fail("cannot write %s '%s': it is the input file", o->what, o->path);
      ok = false;
    }
    for (int j = 0; j < i && ok; j++)
      if ((o->exists && outs[j].exists && o->dev == outs[j].dev && o->ino == outs[j].ino) ||
          strcmp(o->norm, outs[j].norm) == 0) {
        fail("%s '%s' and %s '%s' are the same file", outs[j].what, outs[j].path, o->what, o->path);
        ok = false;
      }
  }
  xfree(in_norm);
  return ok;
}

static int write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return k < 0 ? errno : EIO;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

/* Writes the output to a new file in its directory (mode 0666 less the
   umask, as any new file), recorded in o->tmp. */
static bool write_temp(Output *o) {
  static unsigned counter;
  char *dir = dir_of(o->path);
  int fd = -1, e = 0;
  for (int tries = 0; tries < 100 && fd < 0; tries++) {
    xfree(o->tmp);
    o->tmp = xasprintf("%s/.xlac-aot-%ld-%u.tmp", dir, (long)getpid(), counter++);
    fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    e = fd < 0 ? errno : 0;
    if (fd < 0 && e != EEXIST) break;
  }
  xfree(dir);
  if (fd >= 0) {
    e = write_all(fd, o->data, o->size);
    if (close(fd) != 0 && !e) e = errno;
    if (e) unlink(o->tmp);
  }
  if (e) {
    fail("cannot write %s '%s': %s", o->what, o->path, strerror(e));
    xfree(o->tmp);
    o->tmp = NULL;
  }
  return e == 0;
}

static void remove_temps(Output *outs, int n) {
  for (int i = 0; i < n; i++)
    if (outs[i].tmp) {
      unlink(outs[i].tmp);
      xfree(outs[i].tmp);
      outs[i].tmp = NULL;
    }
}

/* All outputs to temporary files, then, when every one was written and
   every path still holds a regular file or nothing, all renamed into
   place.  On failure the temporary files are removed and the paths keep
   what they had (short of a rename failing midway, which only a directory
   changing under the command can cause). */
static bool write_outputs(Output *outs, int n) {
  bool ok = true;
  for (int i = 0; i < n && ok; i++) ok = write_temp(&outs[i]);
  for (int i = 0; i < n && ok; i++) {
    struct stat st;
    if (lstat(outs[i].path, &st) == 0 && !S_ISREG(st.st_mode)) {
      fail("cannot write %s '%s': it is now %s; only a regular file is replaced", outs[i].what, outs[i].path,
           file_kind(st.st_mode));
      ok = false;
    }
  }
  for (int i = 0; i < n && ok; i++) {
    if (rename(outs[i].tmp, outs[i].path) != 0) {
      fail("cannot write %s '%s': %s%s", outs[i].what, outs[i].path, strerror(errno),
           i ? " (the outputs named before it were replaced)" : "");
      ok = false;
      break;
    }
    xfree(outs[i].tmp);
    outs[i].tmp = NULL;
  }
  remove_temps(outs, n);
  return ok;
}

/* The generated test and benchmark #include the header by its name. */
static bool check_include(const AotRequest *req) {
  if (!req->gen_test && !req->gen_bench) return true;
  char *why = aot_include_problem(req->header_name);
  bool ok = why == NULL;
  if (!ok) fail("the header's file name '%s' cannot be used: %s", req->header_name, why);
  xfree(why);
  return ok;
}

static bool check_target(const char *triple, const char *cpu, const char *features) {
  char *err = NULL;
  bool ok = aot_check_target(triple, cpu, features, &err);
  if (!ok) fail("%s", err);
  xfree(err);
  return ok;
}

/* Loads and compiles the program, then writes the outputs (write_outputs).
   Outputs are in the order the command line lists them: object, [metadata],
   header, [test], [benchmark]. */
static int compile_and_write(AotRequest *req, const char *function, Output *outs, int nouts) {
  int nmods = 0, status = 1;
  Module **mods = load_modules(req->source, false, &nmods);
  Module *m = mods && nmods == 1 ? mods[0] : NULL;
  Func *f = NULL;
  if (m) {
    f = function ? module_find_func(m, function) : module_entry(m);
    if (!f)
      error_at(m->loc, function ? "no function named '%s' in the program" : "the program has no entry function%s",
               function ? function : " (name one with --function)");
  }
  AotResult r;
  req->m = m;
  req->entry = f;
  if (f && aot_compile(req, &r)) {
    int k = 0;
    outs[k].data = r.obj.object;
    outs[k++].size = r.obj.object_size;
    if (req->separate_metadata) {
      outs[k].data = r.obj.metadata;
      outs[k++].size = r.obj.metadata_size;
    }
    const char *texts[3] = {r.header, req->gen_test ? r.test_source : NULL, req->gen_bench ? r.bench_source : NULL};
    bool wanted[3] = {true, req->gen_test, req->gen_bench};
    for (int i = 0; i < 3; i++)
      if (wanted[i]) {
        outs[k].data = texts[i];
        outs[k++].size = texts[i] ? strlen(texts[i]) : 0;
      }
    /* no test is generated for tuple parameters or results (a warning
       said so): nothing is written rather than an empty test */
    if (req->gen_test && !r.test_source) fail("no test generated: nothing written");
    else status = write_outputs(outs, nouts) ? 0 : 1;
    aot_result_free(&r);
  }
  free_modules(mods, nmods);
  return status;
}

/* Where libxlacrt and xlacrt.h are for this xlac: next to an installed
   binary (PREFIX/bin/xlac: PREFIX/lib, PREFIX/include), else the build
   tree it was built in. */
static void print_link_flags(void) {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) {
      *slash = 0;
      const char *libdirs[] = {"lib", "lib64", "lib/x86_64-linux-gnu", "lib/aarch64-linux-gnu"};
      for (size_t i = 0; i < ARRAY_LEN(libdirs); i++) {
        char *lib = xasprintf("%s/../%s/libxlacrt.a", exe, libdirs[i]);
        char *inc = xasprintf("%s/../include/xlacrt.h", exe);
        bool found = access(lib, R_OK) == 0 && access(inc, R_OK) == 0;
        if (found) {
          char *rl = realpath(lib, NULL), *ri = realpath(inc, NULL);
          if (rl && ri) {
            char *d = strrchr(ri, '/');
            if (d) *d = 0;
            printf("-I%s %s -lm\n", ri, rl);
            xfree(rl);
            xfree(ri);
            xfree(lib);
            xfree(inc);
            return;
          }
          xfree(rl);
          xfree(ri);
        }
        xfree(lib);
        xfree(inc);
      }
    }
  }
#if defined(XLAC_BUILD_LIB_DIR) && defined(XLAC_SOURCE_DIR)
  printf("-I%s/runtime %s/libxlacrt.a -lm\n", XLAC_SOURCE_DIR, XLAC_BUILD_LIB_DIR);
#else
  printf("-lxlacrt -lm\n");
#endif
}

int driver_aot(int argc, char **argv) {
  const char *file = NULL, *object = NULL, *header = NULL, *name = NULL, *cpp_class = NULL, *function = NULL;
  const char *entry_point = NULL, *triple = NULL, *cpu = NULL, *features = NULL, *metadata = NULL;
  const char *test = NULL, *bench = NULL, *v = NULL;
  bool name_to_index = false, program_shape = false, bad = false, link_flags = false, ignored = false;
  for (int i = 2; i < argc && !bad; i++) {
    const char *s = argv[i];
    if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
      fputs(aot_usage, stdout);
      return 0;
    } else if (strcmp(s, "--print-link-flags") == 0) {
      link_flags = true;
    } else if (flag(argc, argv, &i, "-o", &v, &bad) || flag(argc, argv, &i, "--out_function_object", &v, &bad)) {
      object = v;
    } else if (flag(argc, argv, &i, "--header", &v, &bad) || flag(argc, argv, &i, "--out_header", &v, &bad)) {
      header = v;
    } else if (flag(argc, argv, &i, "--name", &v, &bad)) {
      name = v;
    } else if (flag(argc, argv, &i, "--cpp_class", &v, &bad)) {
      cpp_class = v;
    } else if (flag(argc, argv, &i, "--function", &v, &bad)) {
      function = v;
    } else if (flag(argc, argv, &i, "--entry_point", &v, &bad)) {
      entry_point = v;
    } else if (flag(argc, argv, &i, "--target_triple", &v, &bad)) {
      triple = v;
    } else if (flag(argc, argv, &i, "--target_cpu", &v, &bad)) {
      cpu = v;
    } else if (flag(argc, argv, &i, "--target_features", &v, &bad)) {
      features = v;
    } else if (flag(argc, argv, &i, "--out_metadata_object", &v, &bad)) {
      metadata = v;
    } else if (flag(argc, argv, &i, "--out_test", &v, &bad)) {
      test = v;
    } else if (flag(argc, argv, &i, "--out_benchmark", &v, &bad)) {
      bench = v;
    } else if (bool_flag(s, "--gen_name_to_index", &name_to_index, &bad) ||
               bool_flag(s, "--gen_program_shape", &program_shape, &bad)) {
    } else if (bool_flag(s, "--xla_cpu_multi_thread_eigen", &ignored, &bad)) {
      /* tfcompile's; threads come from the pool the caller sets */
    } else if (s[0] == '-' && s[1]) {
      usage("unknown option '%s'", s);
      bad = true;
    } else if (file) {
      usage("more than one input file ('%s')", s);
      bad = true;
    } else {
      file = s;
    }
  }
  if (bad) return 1;
  if (link_flags) {
    print_link_flags();
    return 0;
  }
  if (!file) {
    usage("missing input file%s", "");
    return 1;
  }
  /* tfcompile takes "::ns::Class" too: the same class */
  if (cpp_class && !strncmp(cpp_class, "::", 2)) cpp_class += 2;
  if (cpp_class && !valid_cpp_class(cpp_class)) {
    usage("--cpp_class must be a C++ class name with optional namespaces (ns1::ns2::Class), got '%s'", cpp_class);
    return 1;
  }
  if (name && !is_c_identifier(name)) {
    usage("--name must be a C identifier, got '%s'", name);
    return 1;
  }
  if (entry_point && !is_c_identifier(entry_point)) {
    usage("--entry_point must be a C identifier, got '%s'", entry_point);
    return 1;
  }
  char *prefix = name ? xstrdup(name) : stem_identifier(header ? header : file);
  char *obj_path = object ? xstrdup(object) : xasprintf("%s.o", prefix);
  char *hdr_path = header ? xstrdup(header) : xasprintf("%s.h", prefix);
  AotRequest req = {0};
  req.source = file;
  req.name = prefix;
  req.entry_symbol = entry_point;
  req.cpp_class = cpp_class;
  req.header_name = base_of(hdr_path);
  req.triple = triple;
  req.cpu = cpu;
  req.features = features;
  req.separate_metadata = metadata != NULL;
  req.gen_name_to_index = name_to_index;
  req.gen_program_shape = program_shape;
  req.gen_test = test != NULL;
  req.gen_bench = bench != NULL;
  Output outs[5];
  int nouts = 0;
  memset(outs, 0, sizeof outs);
  outs[nouts++] = (Output){.what = "the object", .path = obj_path};
  if (metadata) outs[nouts++] = (Output){.what = "the metadata object", .path = metadata};
  outs[nouts++] = (Output){.what = "the header", .path = hdr_path};
  if (test) outs[nouts++] = (Output){.what = "the test", .path = test};
  if (bench) outs[nouts++] = (Output){.what = "the benchmark", .path = bench};
  /* everything the command line says is checked before the (long) compile */
  bool ok = check_names(prefix, name != NULL, cpp_class, entry_point) && check_include(&req) &&
            check_target(triple, cpu, features) && check_outputs(outs, nouts, file);
  int status = ok ? compile_and_write(&req, function, outs, nouts) : 1;
  for (int i = 0; i < nouts; i++) xfree(outs[i].norm);
  xfree(prefix);
  xfree(obj_path);
  xfree(hdr_path);
  return status;
}
