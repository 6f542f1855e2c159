/*
 * testgen.c - the sources of NAME_test and NAME_benchmark.
 *
 * The test embeds inputs (zeros, and seeded pseudo-random values) and the
 * reference interpreter's results for them, computed when the object was
 * generated; it runs the object on one thread and on a pool of two, checks
 * the status, compares with the interpreter within the element type's
 * tolerance (float reductions are reassociated in compiled code), and
 * requires the two thread counts to agree bit for bit.  Large results are
 * checked at up to 65536 evenly spaced elements.
 *
 * The benchmark times run (after warm-up) on zero inputs and prints the
 * minimum, median and maximum time per call.
 */
#include <math.h>
#include <string.h>

#include "aot/aot.h"

enum { MAX_CHECKED = 65536 };
#define MAX_EMBEDDED_INPUT (16 << 20)

static void bytes_array(StrBuf *b, const char *name, const Literal *l) {
  size_t n = (size_t)l->n * (size_t)et_bytes(l->type->elem);
  const unsigned char *p = l->data;
  sb_printf(b, "static const unsigned char %s[%zu] = {", name, n ? n : 1);
  for (size_t i = 0; i < n; i++) sb_printf(b, "%s%u", i == 0 ? "\n  " : i % 24 ? "," : ",\n  ", p[i]);
  if (!n) sb_puts(b, "0");
  sb_puts(b, "};\n");
}

/* Expected values as doubles (complex: re, im pairs) at the checked
   positions. */
static int64_t checked_stride(int64_t n) { return n <= MAX_CHECKED ? 1 : (n + MAX_CHECKED - 1) / MAX_CHECKED; }

static void print_double(StrBuf *b, double v) {
  if (isnan(v)) sb_puts(b, "NAN");
  else if (isinf(v)) sb_puts(b, v < 0 ? "-INFINITY" : "INFINITY");
  else sb_printf(b, "%.17g", v);
}

static void expected_array(StrBuf *b, const char *name, const Literal *l) {
  ElemType et = l->type->elem;
  int64_t stride = checked_stride(l->n);
  sb_printf(b, "static const double %s[] = {", name);
  int64_t k = 0;
  for (int64_t i = 0; i < l->n; i += stride, k++) {
    sb_puts(b, k == 0 ? "\n  " : k % 6 ? ", " : ",\n  ");
    if (et_is_complex(et)) {
      double re, im;
      lit_get_c(l, i, &re, &im);
      print_double(b, re);
      sb_puts(b, ", ");
      print_double(b, im);
    } else if (et_is_float(et)) {
      print_double(b, lit_get_f(l, i));
    } else if (et_is_pred(et)) {
      sb_puts(b, lit_get_b(l, i) ? "1" : "0");
    } else if (et_is_unsigned(et)) {
      sb_printf(b, "%llu.0", (unsigned long long)lit_get_u(l, i));
    } else {
      sb_printf(b, "%lld.0", (long long)lit_get_i(l, i));
    }
  }
  if (!l->n) sb_puts(b, "0");
  sb_puts(b, "};\n");
}

/* The element decoder the generated test uses for a type (returns one
   double from the element's bytes), and its tolerance. */
static const char *decoder(ElemType et) {
  switch (et) {
  case ET_PRED: case ET_U2: case ET_U4: case ET_U8: return "get_u8";
  case ET_S2: case ET_S4: case ET_S8: return "get_s8";
  case ET_S16: return "get_s16";
  case ET_S32: return "get_s32";
  case ET_S64: return "get_s64";
  case ET_U16: return "get_u16";
  case ET_U32: return "get_u32";
  case ET_U64: return "get_u64";
  case ET_F16: return "get_f16";
  case ET_BF16: return "get_bf16";
  case ET_F32: case ET_C64: return "get_f32";
  case ET_F64: case ET_C128: return "get_f64";
  default: return NULL; /* narrow floats: compared by their bits with the first case */
  }
}

static void tolerance(ElemType et, double *rtol, double *atol) {
  switch (et) {
  case ET_F32: case ET_C64: *rtol = 1e-4; *atol = 1e-5; break;
  case ET_F64: case ET_C128: *rtol = 1e-10; *atol = 1e-12; break;
  case ET_F16: case ET_BF16: *rtol = 2e-2; *atol = 2e-2; break;
  default: *rtol = 0; *atol = 0; break;
  }
}

static const char prelude[] =
    "#include <math.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
    "static inline double get_u8(const void *p, int64_t i) { return ((const uint8_t *)p)[i]; }\n"
    "static inline double get_s8(const void *p, int64_t i) { return ((const int8_t *)p)[i]; }\n"
    "static inline double get_s16(const void *p, int64_t i) { return ((const int16_t *)p)[i]; }\n"
    "static inline double get_s32(const void *p, int64_t i) { return ((const int32_t *)p)[i]; }\n"
    "static inline double get_s64(const void *p, int64_t i) { return (double)((const int64_t *)p)[i]; }\n"
    "static inline double get_u16(const void *p, int64_t i) { return ((const uint16_t *)p)[i]; }\n"
    "static inline double get_u32(const void *p, int64_t i) { return ((const uint32_t *)p)[i]; }\n"
    "static inline double get_u64(const void *p, int64_t i) { return (double)((const uint64_t *)p)[i]; }\n"
    "static inline double get_f32(const void *p, int64_t i) { return ((const float *)p)[i]; }\n"
    "static inline double get_f64(const void *p, int64_t i) { return ((const double *)p)[i]; }\n"
    "static inline double get_bf16(const void *p, int64_t i) {\n"
    "  uint32_t bits = (uint32_t)((const uint16_t *)p)[i] << 16;\n"
    "  float f;\n  memcpy(&f, &bits, 4);\n  return f;\n}\n"
    "static inline double get_f16(const void *p, int64_t i) {\n"
    "  uint16_t h = ((const uint16_t *)p)[i];\n"
    "  int e = (h >> 10) & 31, m = h & 1023;\n"
    "  double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);\n"
    "  return h & 0x8000 ? -v : v;\n}\n\n"
    "static inline int close_enough(double got, double want, double rtol, double atol) {\n"
    "  if (isnan(want)) return isnan(got);\n"
    "  if (isinf(want)) return got == want;\n"
    "  return fabs(got - want) <= atol + rtol * fabs(want);\n}\n\n";

char *aot_test_source(const AotRequest *req, const AotResult *r, const AotCase *cases, int ncases) {
  Func *f = req->entry;
  const char *N = req->name;
  StrBuf b = {0};
  sb_printf(&b,
            "/* %s_test.c - generated by `xlac aot`; do not edit.\n"
            " * Runs %s on zero and random inputs and compares with the reference\n"
            " * interpreter's results, computed when the object was generated.\n"
            " * Exit status 0 when everything matches. */\n",
            N, N);
  sb_puts(&b, prelude);
  sb_printf(&b, "#include \"%s\"\n\n", req->header_name);
  int64_t in_bytes = 0;
  for (int i = 0; i < f->body->nargs; i++) in_bytes += aot_bytes(f->body->args[i]->type);
  int nc = in_bytes > MAX_EMBEDDED_INPUT ? 1 : ncases; /* the zero case needs no embedding */
  for (int c = 0; c < nc; c++) {
    for (int i = 0; c > 0 && i < f->body->nargs; i++) {
      char name[64];
      snprintf(name, sizeof name, "in_%d_%d", c, i);
      bytes_array(&b, name, cases[c].inputs[i]);
    }
    for (int i = 0; i < f->nresults; i++) {
      char name[64];
      snprintf(name, sizeof name, "want_%d_%d", c, i);
      expected_array(&b, name, cases[c].outputs[i]);
    }
  }
  sb_printf(&b,
            "\n/* Runs one case; copies result i to keep[i] (for the thread-count check). */\n"
            "static int run_case(int c, const char *what, xlacrt_pool *pool, void **keep) {\n"
            "  %s_t *m = %s_create(XLACRT_AOT_ARGS_RESULTS_AND_TEMPS);\n"
            "  if (!m) {\n    printf(\"FAIL %%s: cannot create an instance: %%s\\n\", what,\n"
            "           %s_check() ? %s_check() : \"out of memory\");\n    return 1;\n  }\n"
            "  %s_set_thread_pool(m, pool);\n",
            N, N, N, N, N);
  for (int i = 0; i < f->body->nargs; i++) {
    int64_t nb = aot_bytes(f->body->args[i]->type);
    sb_printf(&b, "  if (c == 0) memset(%s_arg_data(m, %d), 0, %lld);\n", N, i, (long long)nb);
    for (int c = 1; c < nc; c++)
      sb_printf(&b, "  if (c == %d) memcpy(%s_arg_data(m, %d), in_%d_%d, %lld);\n", c, N, i, c, i, (long long)nb);
  }
  sb_printf(&b,
            "  if (%s_run(m) != 0) {\n    printf(\"FAIL %%s: run failed: %%s\\n\", what, %s_error(m));\n"
            "    %s_destroy(m);\n    return 1;\n  }\n  int bad = 0;\n",
            N, N, N);
  for (int i = 0; i < f->nresults; i++) {
    const Type *t = f->result_types[i];
    int64_t n = type_num_elements(t), stride = checked_stride(n);
    int parts = et_is_complex(t->elem) ? 2 : 1;
    const char *dec = decoder(t->elem);
    double rtol, atol;
    tolerance(t->elem, &rtol, &atol);
    sb_printf(&b, "  {\n    const void *got = %s_result_data(m, %d);\n", N, i);
    sb_printf(&b, "    memcpy(keep[%d], got, %lld);\n", i, (long long)aot_bytes(t));
    if (dec) {
      char *w1 = nc > 1 ? xasprintf("want_1_%d", i) : xstrdup("NULL");
      sb_printf(&b, "    const double *want = c == 0 ? want_0_%d : %s;\n", i, w1);
      xfree(w1);
      sb_printf(&b,
                "    int64_t k = 0;\n"
                "    for (int64_t e = 0; want && e < %lld; e += %lld, k++)\n"
                "      for (int q = 0; q < %d; q++) {\n"
                "        double g = %s(got, e * %d + q), w = want[k * %d + q];\n"
                "        if (!close_enough(g, w, %g, %g)) {\n"
                "          if (bad++ < 5) printf(\"FAIL %%s: result %d (%s) element %%lld: got %%.9g, want %%.9g\\n\", what, (long long)e, g, w);\n"
                "        }\n"
                "      }\n",
                (long long)n, (long long)stride, parts, dec, parts, parts, rtol, atol, i, r->result_names[i]);
    }
    sb_puts(&b, "  }\n");
  }
  sb_printf(&b,
            "  %s_destroy(m);\n"
            "  if (!bad) printf(\"ok %%s\\n\", what);\n"
            "  return bad != 0;\n}\n\n",
            N);
  sb_puts(&b, "int main(void) {\n  int failed = 0;\n  static const char *what[] = {");
  for (int c = 0; c < nc; c++) sb_printf(&b, "\"%s\", ", cases[c].what);
  sb_puts(&b, "};\n");
  sb_printf(&b, "  void *one[%d], *two[%d];\n", f->nresults + 1, f->nresults + 1);
  for (int i = 0; i < f->nresults; i++) {
    long long nb = (long long)aot_bytes(f->result_types[i]);
    sb_printf(&b, "  static unsigned char one_%d[%lld], two_%d[%lld];\n  one[%d] = one_%d;\n  two[%d] = two_%d;\n",
              i, nb ? nb : 1, i, nb ? nb : 1, i, i, i, i);
  }
  sb_printf(&b,
            "  xlacrt_pool *pool = xlacrt_pool_create(2);\n"
            "  for (int c = 0; c < %d; c++) {\n"
            "    char label[96];\n"
            "    snprintf(label, sizeof label, \"%%s, 1 thread\", what[c]);\n"
            "    failed |= run_case(c, label, NULL, one);\n"
            "    snprintf(label, sizeof label, \"%%s, 2 threads\", what[c]);\n"
            "    failed |= run_case(c, label, pool, two);\n",
            nc);
  for (int i = 0; i < f->nresults; i++)
    sb_printf(&b,
              "    if (memcmp(one[%d], two[%d], %lld) != 0) {\n"
              "      printf(\"FAIL %%s: result %d differs between 1 and 2 threads\\n\", what[c]);\n"
              "      failed = 1;\n    }\n",
              i, i, (long long)aot_bytes(f->result_types[i]), i);
  sb_puts(&b, "  }\n  xlacrt_pool_destroy(pool);\n");
  sb_printf(&b, "  printf(failed ? \"%s_test: FAILED\\n\" : \"%s_test: PASSED\\n\");\n  return failed;\n}\n", N, N);
  return b.data;
}

char *aot_bench_source(const AotRequest *req, const AotResult *r) {
  (void)r;
  const char *N = req->name;
  StrBuf b = {0};
  sb_printf(&b,
            "/* %s_benchmark.c - generated by `xlac aot`; do not edit.\n"
            " * Times %s_run on zero inputs: %s_benchmark [THREADS [ITERATIONS]]\n"
            " * (THREADS 1, the default, runs without a pool). */\n"
            "#define _POSIX_C_SOURCE 200809L\n"
            "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <time.h>\n\n"
            "#include \"%s\"\n\n"
            "static double now_ns(void) {\n"
            "  struct timespec ts;\n  clock_gettime(CLOCK_MONOTONIC, &ts);\n"
            "  return ts.tv_sec * 1e9 + ts.tv_nsec;\n}\n\n"
            "static int cmp(const void *a, const void *b) {\n"
            "  double x = *(const double *)a, y = *(const double *)b;\n  return x < y ? -1 : x > y;\n}\n\n"
            "int main(int argc, char **argv) {\n"
            "  int threads = argc > 1 ? atoi(argv[1]) : 1;\n"
            "  long iters = argc > 2 ? atol(argv[2]) : 0;\n"
            "  %s_t *m = %s_create(XLACRT_AOT_ARGS_RESULTS_AND_TEMPS);\n"
            "  if (!m) {\n    fprintf(stderr, \"cannot create an instance: %%s\\n\", %s_check() ? %s_check() : \"out of memory\");\n"
            "    return 1;\n  }\n"
            "  xlacrt_pool *pool = threads > 1 ? xlacrt_pool_create(threads) : NULL;\n"
            "  %s_set_thread_pool(m, pool);\n"
            "  for (int i = 0; i < %s_program.num_args; i++) memset(%s_arg_data(m, i), 0, (size_t)%s_arg_size(i));\n"
            "  /* calibrate: batches of about 10 ms */\n"
            "  double t0 = now_ns();\n  long n = 0;\n"
            "  while (now_ns() - t0 < 2e7) {\n"
            "    if (%s_run(m) != 0) {\n      fprintf(stderr, \"run failed: %%s\\n\", %s_error(m));\n      return 1;\n    }\n"
            "    n++;\n  }\n"
            "  long batch = n / 2 > 0 ? n / 2 : 1;\n"
            "  if (iters > 0) batch = iters;\n"
            "  double per[15];\n"
            "  for (int s = 0; s < 15; s++) {\n"
            "    double a = now_ns();\n"
            "    for (long i = 0; i < batch; i++) %s_run(m);\n"
            "    per[s] = (now_ns() - a) / batch;\n  }\n"
            "  qsort(per, 15, sizeof per[0], cmp);\n"
            "  printf(\"%s: %%d thread(s), %%ld runs per sample: min %%.1f ns, median %%.1f ns, max %%.1f ns per run\\n\",\n"
            "         threads, batch, per[0], per[7], per[14]);\n"
            "  %s_destroy(m);\n"
            "  if (pool) xlacrt_pool_destroy(pool);\n"
            "  return 0;\n}\n",
            N, N, N, req->header_name, N, N, N, N, N, N, N, N, N, N, N, N, N);
  return b.data;
}
