/*
 * fuzz_tf.c - libFuzzer target for the whole TensorFlow frontend: the
 * input is a GraphDef (the first byte picks text or binary), lowered with
 * the default fetches (the nodes nothing uses) and verified, as `xlac run
 * graph.pb` would.  Graph building, the op table's lowerings, TF1 frames,
 * functions and constant folding all run on what the bytes say.
 *
 * Allocations above 64 MiB fail (a 10-byte input can declare a huge
 * constant), and fail the way they do in the library: unwinding to a
 * guard that frees everything the import had allocated.  Seeds: the test
 * suite's text graphs (scripts/fuzz.sh tf); see docs/fuzzing.md.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "frontends/tensorflow/tf.h"
#include "interp/interp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *devnull;
  if (!devnull) {
    devnull = fopen("/dev/null", "w");
    alloc_limit_set((size_t)64 << 20);
  }
  diag_set_stream(devnull);
  if (size < 1) return 0;
  bool text = data[0] & 1;
  int f = src_add(text ? "fuzz.pbtxt" : "fuzz.pb", (const char *)data + 1, size - 1);
  OomGuard g;
  oom_push(&g);
  oom_track_begin(&g);
  volatile bool unwound = false;
  if (setjmp(g.jb) == 0) {
    Module *m = tf_import_file(f, NULL);
    if (m) module_free(m);
  } else {
    interp_thread_reset(); /* a fold the failure interrupted */
    unwound = true;
  }
  oom_track_end(&g, unwound);
  oom_pop(&g);
  src_reset();
  return 0;
}
