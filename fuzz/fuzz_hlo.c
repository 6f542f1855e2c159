/*
 * fuzz_hlo.c - libFuzzer target for the XLA HLO text frontend.
 *
 * Feeds arbitrary bytes to hlo_parse and, when they parse, to the verifier.
 * Seeds live in fuzz/corpus/hlo; see docs/fuzzing.md.
 */
#include "frontends/hlo/hlo.h"

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_one(data, size, "fuzz.hlo", hlo_parse);
}
