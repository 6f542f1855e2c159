/*
 * fuzz_mlirbc.c - libFuzzer target for the MLIR bytecode frontend: the
 * input is a file as `xlac run model.mlirbc` would load it (a StableHLO
 * portable artifact, or a jax.export serialization around one), read and
 * verified.  Every offset, count and index of the format comes from the
 * bytes, so this is where bounds checks are proven.
 *
 * What reads and verifies must also print, reparse as text and print the
 * same (fuzz_common.h): the frontend promises the module the text
 * frontend would make of StableHLO's own reading of the artifact, so
 * nothing it builds may be beyond what text can say.
 *
 * Allocations above 64 MiB fail (a few bytes can declare a huge splat
 * constant), and fail as they do in the library: unwinding to a guard
 * that frees everything the parse had allocated.  Seeds: the artifacts of
 * tests/fixtures/mlirbc (scripts/fuzz.sh mlirbc); see docs/fuzzing.md.
 */
#include "fuzz_common.h"

#include <setjmp.h>

#include "frontends/mlirbc/mlirbc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *devnull;
  static int roundtrip = -1;
  if (!devnull) {
    devnull = fopen("/dev/null", "w");
    alloc_limit_set((size_t)64 << 20);
  }
  if (roundtrip < 0) {
    const char *e = getenv("XLAC_FUZZ_ROUNDTRIP");
    roundtrip = !(e && strcmp(e, "0") == 0);
  }
  diag_set_stream(devnull);
  int f = src_add("fuzz.mlirbc", (const char *)data, size);
  OomGuard g;
  oom_push(&g);
  oom_track_begin(&g);
  Module *volatile m = NULL;
  volatile bool unwound = false, verified = false;
  if (setjmp(g.jb) == 0) {
    m = mlirbc_parse(f);
    verified = m && verify_module(m);
  } else {
    unwound = true;
  }
  oom_track_end(&g, unwound);
  oom_pop(&g);
  if (verified && roundtrip) {
    /* printing a module that read is the printer's business: a failure
       to allocate there is not a finding */
    OomGuard pg;
    oom_push(&pg);
    if (setjmp(pg.jb) == 0) fuzz_roundtrip(m);
    oom_pop(&pg);
  }
  if (m) module_free(m);
  src_reset();
  diag_reset_count();
  return 0;
}
