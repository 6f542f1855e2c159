/*
 * fuzz_pipeline.c - libFuzzer target for the optimization pipeline.
 *
 * Every module that parses (StableHLO text) and verifies goes through the
 * CPU backend's whole pass list with the verifier after each pass: the
 * passes must neither crash nor leave a module that no longer verifies,
 * whatever the user wrote.  A pass that breaks the module aborts, so
 * libFuzzer keeps the input.  Seeds: fuzz/corpus/stablehlo and the
 * programs under tests/lit; see docs/fuzzing.md.
 */
#include "fuzz_common.h"
#include "passes/passes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* After each pass: a module that stops verifying is a bug in the pass (a
   pass may reject its input with a diagnostic, never break it).  Checks
   on constant operands' values are left out: inlining and folding may
   expose a program that only fails at run time (see verify.h). */
static void check_pass(const char *pass, Module *m, bool changed, void *ud) {
  (void)changed;
  (void)ud;
  if (!verify_module_structure(m)) {
    fprintf(stderr, "fuzz: the module does not verify after pass '%s'\n", pass);
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *sink;
  if (!sink) {
    sink = fopen("/dev/null", "w");
    if (sink) diag_set_stream(sink);
  }
  int file = src_add("fuzz.mlir", (const char *)data, size);
  Module *m = stablehlo_parse(file, 0, size);
  if (m && verify_module(m)) {
    PassOptions o = {0};
    o.fuse = true;
    o.fold_limit = 1 << 12;
    o.after_pass = check_pass;
    run_cpu_pipeline(m, &o);
  }
  module_free(m);
  src_reset();
  diag_reset_count();
  return 0;
}
