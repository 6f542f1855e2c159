/*
 * opt.c - `xlac opt`: parse a program, run optimization passes over it,
 * verify the result and print it.
 *
 * This is the tool pass tests are written against: a test runs one pass (or
 * the whole pipeline, with the options of the cpu or the gpu backend: the
 * gpu's hoists a scan's products out of its loop, passes/hoist.c) and
 * checks the printed module with FileCheck, or
 * pipes it back into `xlac run` to check that the optimized program still
 * computes what the original did.  Passes are named as in the CPU pipeline's
 * list, so a pass added there is reachable here without touching this file.
 * The verifier runs after every pass, so a pass that breaks the IR is caught
 * at the pass that broke it rather than at some later consumer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "driver/driver.h"
#include "ir/print.h"
#include "ir/print_hlo.h"
#include "ir/verify.h"
#include "passes/passes.h"

int driver_opt(int argc, char **argv);

typedef struct OptState {
  const Pass **passes; /* explicit --pass list, in order */
  int npasses;
  bool pipeline;       /* --pipeline=cpu|gpu */
  bool hlo;            /* --format=hlo */
  PassOptions po;
  int status;
  int printed;
} OptState;

static const Pass *find_pass(const char *name) {
  int n;
  const Pass *list = cpu_pipeline_passes(&n);
  for (int i = 0; i < n; i++)
    if (strcmp(list[i].name, name) == 0) return &list[i];
  return NULL;
}

static void list_passes(FILE *out) {
  int n;
  const Pass *list = cpu_pipeline_passes(&n);
  fputs("available passes:", out);
  for (int i = 0; i < n; i++) {
    bool seen = false;
    for (int j = 0; j < i; j++) seen |= strcmp(list[i].name, list[j].name) == 0;
    if (!seen) fprintf(out, " %s", list[i].name);
  }
  fputc('\n', out);
}

static bool optimize(OptState *s, Module *m) {
  if (s->pipeline && !run_cpu_pipeline(m, &s->po)) return false;
  for (int i = 0; i < s->npasses; i++) {
    const Pass *p = s->passes[i];
    int r = p->run(m, &s->po);
    if (r < 0) {
      error_at(SRCLOC_NONE, "pass '%s' failed", p->name);
      return false;
    }
    if (!verify_module_structure(m)) {
      error_at(SRCLOC_NONE, "the module does not verify after pass '%s' (a bug in the pass, or an error in the program that it exposed)", p->name);
      return false;
    }
  }
  return true;
}

static void opt_chunk(Module **mp, int index, int count, void *ud) {
  OptState *s = ud;
  (void)index;
  (void)count;
  if (!*mp) {
    s->status = 1;
    return;
  }
  if (!optimize(s, *mp)) {
    s->status = 1;
    return;
  }
  StrBuf b = {0};
  if (s->hlo)
    print_module_hlo(&b, *mp);
  else
    print_module_mlir(&b, *mp);
  if (s->printed++) fputs(s->hlo ? "\n" : "// -----\n", stdout);
  if (b.data) fputs(b.data, stdout);
  fflush(stdout);
  sb_free(&b);
}

bool driver_option_value(int argc, char **argv, int *i, const char *name, const char **value) {
  const char *s = argv[*i];
  size_t n = strlen(name);
  if (strncmp(s, name, n) != 0) return false;
  if (s[n] == '=') {
    *value = s + n + 1;
    return true;
  }
  if (s[n]) return false;
  *value = *i + 1 < argc ? argv[++*i] : NULL;
  return true;
}

int driver_opt(int argc, char **argv) {
  OptState s = {0};
  s.po.verify_each = true;
  s.po.fuse = true;
  const char *file = NULL, *v;
  bool split = false, bad = false;
  s.passes = xcalloc((size_t)argc, sizeof(Pass *));
  for (int i = 2; i < argc && !bad; i++) {
    const char *a = argv[i];
    if (driver_option_value(argc, argv, &i, "--pass", &v)) {
      const Pass *p = v ? find_pass(v) : NULL;
      if (!p) {
        fprintf(stderr, "xlac opt: error: unknown pass '%s'\n", v ? v : "");
        list_passes(stderr);
        bad = true;
      } else {
        s.passes[s.npasses++] = p;
      }
    } else if (driver_option_value(argc, argv, &i, "--pipeline", &v)) {
      if (!v || (strcmp(v, "cpu") != 0 && strcmp(v, "gpu") != 0)) {
        fprintf(stderr, "xlac opt: error: unknown pipeline '%s' (available: cpu, gpu)\n", v ? v : "");
        bad = true;
      }
      s.pipeline = true;
      /* as the backends set it (cpu/cpu.c, gpu/gpu.c) */
      s.po.hoist_limit = v && strcmp(v, "cpu") == 0 ? -1 : 0;
    } else if (strcmp(a, "--no-fuse") == 0) {
      s.po.fuse = false;
    } else if (driver_option_value(argc, argv, &i, "--fold-limit", &v)) {
      char *e;
      errno = 0;
      long long n = v ? strtoll(v, &e, 10) : -1;
      if (!v || e == v || *e || errno || n < 1) {
        fprintf(stderr, "xlac opt: error: --fold-limit needs a positive number of elements\n");
        bad = true;
      }
      s.po.fold_limit = n;
    } else if (driver_option_value(argc, argv, &i, "--format", &v)) {
      if (v && strcmp(v, "hlo") == 0) {
        s.hlo = true;
      } else if (!v || strcmp(v, "mlir") != 0) {
        fprintf(stderr, "xlac opt: error: unknown format '%s' (expected mlir or hlo)\n", v ? v : "");
        bad = true;
      }
    } else if (strcmp(a, "--split-input-file") == 0) {
      split = true;
    } else if (strcmp(a, "--list-passes") == 0) {
      list_passes(stdout);
      xfree(s.passes);
      return 0;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "xlac opt: error: unknown option '%s'\n(see 'xlac --help')\n", a);
      bad = true;
    } else if (file) {
      fprintf(stderr, "xlac opt: error: more than one input file ('%s')\n", a);
      bad = true;
    } else {
      file = a;
    }
  }
  if (!bad && !file) {
    fprintf(stderr, "xlac opt: error: missing input file\n(see 'xlac --help')\n");
    bad = true;
  }
  if (!bad && !for_each_module(file, split, opt_chunk, &s, NULL)) s.status = 1;
  xfree(s.passes);
  return bad ? 1 : s.status;
}
