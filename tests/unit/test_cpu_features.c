/* The runtime's reading of the CPU's features (runtime/cpu_features.c),
   which decides whether an ahead-of-time object may run here: it must
   agree with LLVM's reading of the same CPU (the one the JIT generates code
   for) on every feature it knows, and a program naming a feature this CPU
   lacks must be refused with that feature's name. */
#include <string.h>

#include "codegen/jit.h"
#include "test_util.h"
#include "xlacrt.h"

static const char *const known[] = {
    "sse3",       "pclmul",       "ssse3",           "fma",          "cx16",       "sse4.1",     "sse4.2",
    "movbe",      "popcnt",       "aes",             "avx",          "f16c",       "sse",        "sse2",
    "bmi",        "avx2",         "bmi2",            "avx512f",      "avx512dq",   "adx",        "avx512ifma",
    "avx512cd",   "sha",          "avx512bw",        "avx512vl",     "avx512vbmi", "avx512vbmi2", "gfni",
    "vaes",       "vpclmulqdq",   "avx512vnni",      "avx512bitalg", "avx512vpopcntdq", "avx512vp2intersect",
    "amx-bf16",   "avx512fp16",   "amx-tile",        "amx-int8",     "avxvnni",    "avx512bf16", "lzcnt",
    "sse4a",      "xop",          "fma4",
};

int main(void) {
  int nknown = (int)(sizeof known / sizeof *known);
#if defined(__x86_64__)
  /* every x86-64 CPU has SSE2 */
  CHECK_EQ_I(xlacrt_cpu_has("sse2"), 1);
  for (int i = 0; i < nknown; i++) {
    int ours = xlacrt_cpu_has(known[i]);
    int llvm = jit_host_has_feature(known[i]);
    if (ours != llvm) fprintf(stderr, "feature %s: runtime says %d, LLVM says %d\n", known[i], ours, llvm);
    CHECK_EQ_I(ours, llvm);
  }
#else
  for (int i = 0; i < nknown; i++) CHECK_EQ_I(xlacrt_cpu_has(known[i]), -1);
#endif
  CHECK_EQ_I(xlacrt_cpu_has("no-such-feature"), -1);
  CHECK_EQ_I(xlacrt_cpu_has(NULL), -1);

  /* xlacrt_cpu_missing: the first feature lacking, unknown names ignored */
  char buf[32] = "untouched";
  CHECK_EQ_I(xlacrt_cpu_missing("", buf, sizeof buf), 0);
  CHECK_EQ_I(xlacrt_cpu_missing(NULL, buf, sizeof buf), 0);
  CHECK_EQ_I(xlacrt_cpu_missing("no-such-feature,,another", buf, sizeof buf), 0);
  CHECK_STR(buf, "untouched");
  const char *lacking = NULL;
  for (int i = 0; i < nknown && !lacking; i++)
    if (xlacrt_cpu_has(known[i]) == 0) lacking = known[i];
  if (!lacking) {
    printf("SKIPPED: the refusal checks: this CPU has every feature the runtime knows\n");
  } else {
    char list[96];
    snprintf(list, sizeof list, "sse2,bogus,%s,sse3", lacking);
    CHECK_EQ_I(xlacrt_cpu_missing(list, buf, sizeof buf), 1);
    CHECK_STR(buf, lacking);
    /* truncated to the buffer */
    char small[4];
    CHECK_EQ_I(xlacrt_cpu_missing(list, small, sizeof small), 1);
    CHECK(strncmp(small, lacking, 3) == 0 && small[3] == 0);

    /* a descriptor naming it is refused before anything is allocated */
    xlacrt_aot_program p;
    memset(&p, 0, sizeof p);
    p.abi_version = XLACRT_ABI_VERSION;
    p.target_cpu = "somecpu";
    p.cpu_features = list;
    const char *why = xlacrt_aot_check(&p);
    CHECK(why && strstr(why, lacking) && strstr(why, "'somecpu'") && strstr(why, "--target_cpu"));
    CHECK(xlacrt_aot_create(&p, XLACRT_AOT_ARGS_RESULTS_AND_TEMPS) == NULL);
    p.cpu_features = "sse2";
    CHECK(xlacrt_aot_check(&p) == NULL);
    p.cpu_features = NULL;
    CHECK(xlacrt_aot_check(&p) == NULL);
    p.abi_version = XLACRT_ABI_VERSION - 1;
    why = xlacrt_aot_check(&p);
    CHECK(why && strstr(why, "ABI"));
  }
  TEST_SUMMARY();
}
