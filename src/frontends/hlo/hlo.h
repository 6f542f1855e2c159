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

/* A serialized HloModuleProto (hlo_proto.c; the messages are declared in
   hlo.proto).  hlo_proto_claims: the loaded file is one, by its name
   (.hlo.pb) or its first records.  hlo_proto_parse: the module it holds,
   read as the HLO text it is written out to (registered as a source named
   "FILE[hlo]", where later diagnostics point); NULL with diagnostics at
   file:OFFSET of the proto, or in that text, on failure. */
bool hlo_proto_claims(int file);
Module *hlo_proto_parse(int file);

#endif
