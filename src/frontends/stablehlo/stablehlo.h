/*
 * stablehlo.h - the StableHLO MLIR text frontend.
 *
 * Reads what `jax.jit(f).lower(...).as_text()` prints and what StableHLO's
 * own test files contain: a module (or bare functions) of `func.func`s whose
 * bodies use the generic op form ("stablehlo.add"(%a, %b) ...) or the pretty
 * custom assembly of each op.  Both forms are normalized to the attribute
 * vocabulary described in docs/ir.md.
 */
#ifndef XLAC_FRONTENDS_STABLEHLO_H
#define XLAC_FRONTENDS_STABLEHLO_H

#include "ir/ir.h"

/* Parses the byte range [begin, end) of a loaded source file (src_load) as one
   MLIR module.  Diagnostics at exact locations; returns NULL on any error. */
Module *stablehlo_parse(int file, size_t begin, size_t end);

/* Fragments, for building IR from C (the builder API): an attribute
   dictionary "{name = value, ...}" in the generic form's spelling, and a
   comma-separated list of types ("tensor<2xf32>, !stablehlo.token").  text
   need not be a loaded file: diagnostics point at byte offsets of it, in
   `file` (which may be -1 for none).  The result lives in m's arena; NULL
   on error (reported with diagnostics).  An empty type list is valid. */
Attr *stablehlo_parse_attr_dict(Module *m, int file, const char *text, size_t len);
Type **stablehlo_parse_type_list(Module *m, int file, const char *text, size_t len, int *n);

#endif
