/*
 * aot.c - `xlac aot`: a program becomes an object file and a header.
 *
 * Accepts tfcompile's flags (--out_function_object, --out_header,
 * --cpp_class, --target_triple, ...) and a short spelling of our own
 * (`xlac aot model.mlir -o model.o --header model.h --name model`).  The
 * outputs are written only once everything has compiled, each to a
 * temporary file in its directory renamed over the target, so a failed
 * run leaves what was there before untouched.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    "  --target_cpu=CPU                      e.g. cortex-a72, skylake-avx512\n"
    "  --target_features=FEATURES            e.g. +avx2,+fma\n"
    "  --out_metadata_object=FILE            put the descriptor (names, shapes) in its own object\n"
    "  --gen_name_to_index                   C++: ArgNames/ResultNames, LookupArgIndex/LookupResultIndex\n"
    "  --gen_program_shape                   C++: ProgramShape()\n"
    "  --out_test=FILE                       a C test: zero and random inputs checked against the\n"
    "                                        reference interpreter, 1 and 2 threads\n"
    "  --out_benchmark=FILE                  a C program timing run (min/median/max)\n"
    "  --graph=FILE --config=FILE            a TensorFlow GraphDef and its tf2xla Config\n"
    "xlac aot --print-link-flags             what to add to a link line for the objects\n";

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

/* Writes data to path atomically (write_file_atomic). */
static bool write_output(const char *path, const void *data, size_t n) {
  int e = write_file_atomic(path, 1, &data, &n, NULL);
  if (e) fprintf(stderr, "xlac aot: error: cannot write %s: %s\n", path, strerror(e));
  return e == 0;
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
  const char *slash = strrchr(hdr_path, '/');
  int status = 1;
  int nmods = 0;
  Module **mods = load_modules(file, false, &nmods);
  Module *m = mods && nmods == 1 ? mods[0] : NULL;
  Func *f = NULL;
  if (m) {
    f = function ? module_find_func(m, function) : module_entry(m);
    if (!f)
      error_at(m->loc, function ? "no function named '%s' in the program" : "the program has no entry function%s",
               function ? function : " (name one with --function)");
  }
  if (f) {
    AotRequest req = {0};
    req.m = m;
    req.entry = f;
    req.source = file;
    req.name = prefix;
    req.entry_symbol = entry_point;
    req.cpp_class = cpp_class;
    req.header_name = slash ? slash + 1 : hdr_path;
    req.triple = triple;
    req.cpu = cpu;
    req.features = features;
    req.separate_metadata = metadata != NULL;
    req.gen_name_to_index = name_to_index;
    req.gen_program_shape = program_shape;
    req.gen_test = test != NULL;
    req.gen_bench = bench != NULL;
    AotResult r;
    if (aot_compile(&req, &r)) {
      bool ok = write_output(obj_path, r.obj.object, r.obj.object_size) &&
                (!metadata || write_output(metadata, r.obj.metadata, r.obj.metadata_size)) &&
                write_output(hdr_path, r.header, strlen(r.header)) &&
                (!test || write_output(test, r.test_source, strlen(r.test_source))) &&
                (!bench || write_output(bench, r.bench_source, strlen(r.bench_source)));
      status = ok ? 0 : 1;
      aot_result_free(&r);
    }
  }
  free_modules(mods, nmods);
  xfree(prefix);
  xfree(obj_path);
  xfree(hdr_path);
  return status;
}
