/*
 * fuzz_hlo_pb.c - libFuzzer target for the HloModuleProto reader
 * (frontends/hlo/hlo_proto.c).
 *
 * Feeds arbitrary bytes, as a serialized HloModuleProto, to
 * hlo_proto_parse (the wire reader, the conversion to HLO text, the HLO
 * text frontend) and, when they parse, to the verifier.  Seeds live in
 * fuzz/corpus/hlo_pb; see docs/fuzzing.md.
 */
#include "frontends/hlo/hlo.h"

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static Module *parse_proto(int file, size_t begin, size_t end) {
  (void)begin;
  (void)end;
  return hlo_proto_parse(file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_one(data, size, "fuzz.hlo.pb", parse_proto);
}
