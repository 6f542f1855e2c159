/*
 * frontend.c - picking the parser for a text and verifying what it gives.
 */
#include "frontends/frontend.h"

#include <string.h>

#include "frontends/hlo/hlo.h"
#include "frontends/mlirbc/mlirbc.h"
#include "frontends/stablehlo/stablehlo.h"
#include "ir/verify.h"

bool frontend_is_text(int file) {
  const SrcFile *f = src_get(file);
  /* the binary formats frontend_parse reads: MLIR bytecode, HloModuleProto */
  if (f && (mlirbc_claims(file) || hlo_proto_claims(file))) return true;
  const char *nul = f ? memchr(f->text, 0, f->len) : NULL;
  if (!nul) return f != NULL;
  error_at(((SrcLoc){file, (uint32_t)(nul - f->text)}),
           "the input is not a text file (it contains NUL bytes); the first one is here");
  return false;
}

static Module *verified(Module *m) {
  if (m && !verify_module(m)) {
    module_free(m);
    m = NULL;
  }
  return m;
}

/* A StableHLO portable artifact, whose diagnostics (the verifier's too)
   locate by byte offset. */
static Module *parse_bytecode(int file) {
  src_set_binary(file); /* for the diagnostics of later stages too */
  MlirbcDiag d;
  mlirbc_diag_begin(&d, file);
  Module *m = verified(mlirbc_parse(file));
  mlirbc_diag_end(&d);
  return m;
}

Module *frontend_parse(int file, size_t begin, size_t end) {
  const SrcFile *f = src_get(file);
  if (mlirbc_claims(file)) return parse_bytecode(file);
  if (hlo_proto_claims(file)) return verified(hlo_proto_parse(file));
  return verified(hlo_sniff(f->text + begin, end - begin) ? hlo_parse(file, begin, end)
                                                           : stablehlo_parse(file, begin, end));
}
