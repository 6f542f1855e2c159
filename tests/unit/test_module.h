/* test_module.h - building modules from StableHLO text in the C unit tests:
   parsed and verified, NULL (with diagnostics printed) otherwise. */
#ifndef XLAC_TEST_MODULE_H
#define XLAC_TEST_MODULE_H

#include <string.h>

#include "frontends/stablehlo/stablehlo.h"
#include "ir/verify.h"

static Module *parse(const char *text) {
  int fid = src_add("test.mlir", text, strlen(text));
  if (fid < 0) return NULL;
  Module *m = stablehlo_parse(fid, 0, strlen(text));
  if (m && !verify_module(m)) {
    module_free(m);
    return NULL;
  }
  return m;
}

#endif
