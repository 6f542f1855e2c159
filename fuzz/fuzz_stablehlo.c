/*
 * fuzz_stablehlo.c - libFuzzer target for the StableHLO (MLIR text) frontend.
 *
 * Feeds arbitrary bytes to stablehlo_parse and, when they parse, to the
 * verifier.  Seeds live in fuzz/corpus/stablehlo; see docs/fuzzing.md.
 */
#include "frontends/stablehlo/stablehlo.h"

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_one(data, size, "fuzz.mlir", stablehlo_parse);
}
