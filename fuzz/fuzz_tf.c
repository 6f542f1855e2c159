/*
 * fuzz_tf.c - libFuzzer target for the whole TensorFlow frontend: the
 * input is a GraphDef (the first byte picks text or binary), lowered with
 * the default fetches (the nodes nothing uses) and verified, as `xlac run
 * graph.pb` would.  Graph building, the op table's lowerings, TF1 frames,
 * functions and constant folding all run on what the bytes say.
 *
 * The first byte's bits: 1, the graph is text (else binary); 2, a tf2xla
 * Config comes first: two bytes of its length (little-endian), then that
 * many bytes of Config, text when bit 4 is set (else binary), and the graph
 * after it.  With a Config the feeds, fetches and variables are the
 * Config's, checked against the graph, as `xlac run --config` does.
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
  size_t at = 1;
  int cf = -1;
  if (data[0] & 2) {
    if (size < 3) return 0;
    size_t n = data[1] | (size_t)data[2] << 8;
    if (n > size - 3) n = size - 3;
    cf = src_add(data[0] & 4 ? "fuzz.config.pbtxt" : "fuzz.config.pb", (const char *)data + 3, n);
    at = 3 + n;
  }
  int f = src_add(text ? "fuzz.pbtxt" : "fuzz.pb", (const char *)data + at, size - at);
  OomGuard g;
  oom_push(&g);
  oom_track_begin(&g);
  volatile bool unwound = false;
  if (setjmp(g.jb) == 0) {
    Module *m = tf_import_files(f, cf, NULL);
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
