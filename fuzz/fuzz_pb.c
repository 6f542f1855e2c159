/*
 * fuzz_pb.c - libFuzzer target for the protobuf readers of the TensorFlow
 * frontend (frontends/tensorflow/pb.c).
 *
 * The first byte picks the reader and the message: text or binary, GraphDef
 * or tf2xla Config; the rest is the input.  A message that reads as text is
 * packed to binary and must read back (the binary reader accepts whatever
 * protobuf-c packs).  Seeds live in fuzz/corpus/pb; see docs/fuzzing.md.
 */
#include <stdio.h>
#include <stdlib.h>

#include "frontends/tensorflow/pb.h"
#include "tensorflow.pb-c.h"
#include "tf2xla.pb-c.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *devnull;
  if (!devnull) devnull = fopen("/dev/null", "w");
  diag_set_stream(devnull);
  if (size < 1) return 0;
  const ProtobufCMessageDescriptor *d =
      data[0] & 2 ? &tensorflow__tf2xla__config__descriptor : &tensorflow__graph_def__descriptor;
  bool text = data[0] & 1;
  int f = src_add(text ? "fuzz.pbtxt" : "fuzz.pb", (const char *)data + 1, size - 1);
  ProtobufCMessage *m = text ? pb_parse_text(f, d) : pb_parse_binary(f, d);
  if (m && text) {
    size_t n = protobuf_c_message_get_packed_size(m);
    uint8_t *bytes = malloc(n ? n : 1);
    protobuf_c_message_pack(m, bytes);
    ProtobufCMessage *again = pb_parse_binary(src_add("again.pb", (const char *)bytes, n), d);
    if (!again) abort();
    pb_free(again);
    free(bytes);
  }
  pb_free(m);
  src_reset();
  return 0;
}
