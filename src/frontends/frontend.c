/*
 * frontend.c - picking the parser for a text and verifying what it gives.
 */
#include "frontends/frontend.h"

#include <string.h>

#include "frontends/hlo/hlo.h"
#include "frontends/stablehlo/stablehlo.h"
#include "ir/verify.h"

bool frontend_is_text(int file) {
  const SrcFile *f = src_get(file);
  const char *nul = f ? memchr(f->text, 0, f->len) : NULL;
  if (!nul) return f != NULL;
  error_at(((SrcLoc){file, (uint32_t)(nul - f->text)}),
           "the input is not a text file (it contains NUL bytes); the first one is here");
  return false;
}

Module *frontend_parse(int file, size_t begin, size_t end) {
  const SrcFile *f = src_get(file);
  Module *m = hlo_sniff(f->text + begin, end - begin) ? hlo_parse(file, begin, end) : stablehlo_parse(file, begin, end);
  if (m && !verify_module(m)) {
    module_free(m);
    m = NULL;
  }
  return m;
}
