/*
 * hlo.h - the XLA HLO text frontend.
 *
 * Reads the text XLA writes with --xla_dump_to (before and after
 * optimizations) and what people paste from it: an `HloModule` header, named
 * computations and an ENTRY computation.  Each HLO opcode is mapped onto the
 * xlac IR following docs/ir.md, so the rest of xlac never sees HLO spellings.
 * As an extension to XLA's format, `// ...` line comments and `/ * ... * /`
 * block comments are accepted anywhere between tokens (lit tests need RUN
 * lines).
 */
#ifndef XLAC_FRONTENDS_HLO_H
#define XLAC_FRONTENDS_HLO_H

#include "ir/ir.h"

/* Parses [begin, end) of a loaded source file (src_load) as one HloModule.
   Returns NULL on error (diagnostics printed at exact locations). */
Module *hlo_parse(int file, size_t begin, size_t end);

/* True when the text looks like HLO (starts, after comments/whitespace, with
   "HloModule" or an HLO computation) rather than MLIR. */
bool hlo_sniff(const char *text, size_t len);

#endif
