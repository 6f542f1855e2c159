/*
 * fuzz_common.h - the shared body of the libFuzzer targets.
 *
 * Every target does the same thing with a different parser: register the
 * input bytes as a source file, parse them with diagnostics going to
 * /dev/null (printing them still exercises the location and caret code),
 * verify what parsed, and free everything.  Nothing may crash, hang or leak
 * on any input; the sanitizers turn each of those into a reported bug.
 *
 * The source manager keeps every file it is given, so each input is dropped
 * with src_reset() once it has been handled; without that a long run grows
 * without bound.
 */
#ifndef XLAC_FUZZ_COMMON_H
#define XLAC_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ir/ir.h"
#include "support/support.h"
/* The verifier is optional so the targets build before it lands. */
#if defined(__has_include)
#if __has_include("ir/verify.h")
#include "ir/verify.h"
#define FUZZ_HAVE_VERIFY 1
#endif
#endif

typedef Module *(*FuzzParseFn)(int file, size_t begin, size_t end);

static int fuzz_one(const uint8_t *data, size_t size, const char *name, FuzzParseFn parse) {
  static FILE *sink;
  if (!sink) {
    /* Fall back to stderr rather than fail: a missing /dev/null should not
       stop the fuzzer, only make it noisy. */
    sink = fopen("/dev/null", "w");
    if (sink) diag_set_stream(sink);
  }
  int file = src_add(name, (const char *)data, size);
  Module *m = parse(file, 0, size);
  if (m) {
#ifdef FUZZ_HAVE_VERIFY
    verify_module(m);
#endif
    module_free(m);
  }
  src_reset();
  diag_reset_count();
  return 0;
}

#endif
