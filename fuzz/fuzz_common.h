/*
 * fuzz_common.h - the shared body of the libFuzzer targets.
 *
 * Every target does the same thing with a different parser: register the
 * input bytes as a source file, parse them with diagnostics going to
 * /dev/null (printing them still exercises the location and caret code),
 * verify what parsed, and free everything.  Nothing may crash, hang or leak
 * on any input; the sanitizers turn each of those into a reported bug.
 *
 * A module that parses and verifies is also printed as MLIR, and the printed
 * text must parse and verify again and print identically (print.h promises
 * canonical output).  A broken promise aborts, so the fuzzer saves the input.
 * Set XLAC_FUZZ_ROUNDTRIP=0 to skip this check, e.g. to keep looking for
 * crashes while a known round-trip bug is open.
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
#include <stdlib.h>
#include <string.h>

#include "frontends/stablehlo/stablehlo.h"
#include "ir/ir.h"
#include "ir/print.h"
#include "ir/verify.h"
#include "support/support.h"

typedef Module *(*FuzzParseFn)(int file, size_t begin, size_t end);

/* Reports a broken round trip on stderr (diagnostics are silenced) and
   aborts so that libFuzzer keeps the input. */
static void fuzz_roundtrip_failed(const char *what, const char *text) {
  fprintf(stderr, "fuzz: round trip failed: %s\n--- printed text ---\n%s\n", what, text);
  abort();
}

static void fuzz_roundtrip(const Module *m) {
  StrBuf b = {0};
  print_module_mlir(&b, m);
  char *first = sb_take(&b);
  size_t len = strlen(first);
  Module *again = stablehlo_parse(src_add("roundtrip.mlir", first, len), 0, len);
  if (!again) fuzz_roundtrip_failed("the printed module does not parse", first);
  if (!verify_module(again)) fuzz_roundtrip_failed("the printed module does not verify", first);
  print_module_mlir(&b, again);
  char *second = sb_take(&b);
  if (strcmp(first, second) != 0) {
    fprintf(stderr, "--- printed again ---\n%s\n", second);
    fuzz_roundtrip_failed("printing the reparsed module gives different text", first);
  }
  free(second);
  free(first);
  module_free(again);
}

/* (unused in targets that drive the parser themselves) */
__attribute__((unused)) static int fuzz_one(const uint8_t *data, size_t size, const char *name, FuzzParseFn parse) {
  static FILE *sink;
  static int roundtrip = -1;
  if (!sink) {
    /* Fall back to stderr rather than fail: a missing /dev/null should not
       stop the fuzzer, only make it noisy. */
    sink = fopen("/dev/null", "w");
    if (sink) diag_set_stream(sink);
  }
  if (roundtrip < 0) {
    const char *e = getenv("XLAC_FUZZ_ROUNDTRIP");
    roundtrip = !(e && strcmp(e, "0") == 0);
  }
  int file = src_add(name, (const char *)data, size);
  Module *m = parse(file, 0, size);
  if (m) {
    if (verify_module(m) && roundtrip) fuzz_roundtrip(m);
    module_free(m);
  }
  src_reset();
  diag_reset_count();
  return 0;
}

#endif
