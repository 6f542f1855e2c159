/*
 * fuzz_ckpt.c - libFuzzer target for the TensorFlow checkpoint reader
 * (frontends/tensorflow/checkpoint.c).
 *
 * The first byte says what the rest is: bit 1 clear, a V1 checkpoint (the
 * whole table); bit 1 set, a V2 checkpoint: two bytes of the index's
 * length (little-endian), the index, and the rest is the data file
 * PREFIX.data-00000-of-00001, written to a scratch directory.  Every tensor
 * of a checkpoint that opens is read; allocations above 64 MiB fail.
 * Seeds live in fuzz/corpus/ckpt; see docs/fuzzing.md.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/tensorflow/tf_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *devnull;
  static char dir[] = "/tmp/xlac-fuzz-ckpt-XXXXXX", prefix[64], dpath[96];
  if (!devnull) {
    devnull = fopen("/dev/null", "w");
    alloc_limit_set((size_t)64 << 20);
    if (!mkdtemp(dir)) abort();
    snprintf(prefix, sizeof prefix, "%s/c", dir);
    snprintf(dpath, sizeof dpath, "%s.data-00000-of-00001", prefix);
  }
  diag_set_stream(devnull);
  if (size < 1) return 0;
  bool v2 = data[0] & 1;
  size_t at = 1, n = size - 1;
  if (v2) {
    if (size < 3) return 0;
    n = data[1] | (size_t)data[2] << 8;
    if (n > size - 3) n = size - 3;
    at = 3;
    FILE *f = fopen(dpath, "wb");
    if (!f) abort();
    fwrite(data + at + n, 1, size - at - n, f);
    fclose(f);
  }
  int file = src_add(v2 ? "fuzz.index" : "fuzz.ckpt", (const char *)data + at, n);
  OomGuard g;
  oom_push(&g);
  oom_track_begin(&g);
  volatile bool unwound = false;
  TfCheckpoint *volatile ck = NULL;
  Module *volatile m = NULL;
  if (setjmp(g.jb) == 0) {
    ck = tf_checkpoint_open_table(file, v2 ? prefix : NULL);
    if (ck) {
      m = module_new();
      for (int i = 0; i < tf_checkpoint_count(ck); i++) tf_checkpoint_read(ck, m, tf_checkpoint_name(ck, i));
      module_free(m);
      tf_checkpoint_free(ck);
    }
  } else {
    unwound = true;
  }
  oom_track_end(&g, unwound);
  oom_pop(&g);
  src_reset();
  return 0;
}
