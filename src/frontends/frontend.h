/*
 * frontend.h - text in, verified module out, whichever format the text is:
 * what the command line and the library both do with a loaded file.
 */
#ifndef XLAC_FRONTENDS_FRONTEND_H
#define XLAC_FRONTENDS_FRONTEND_H

#include "ir/ir.h"

/* False, with an error at the first NUL byte, when the file is not text
   (nor a binary format read here: MLIR bytecode, see mlirbc.h, or a
   serialized HloModuleProto, see hlo.h). */
bool frontend_is_text(int file);
/* Parses bytes [begin, end) of a loaded file as HLO text (hlo_sniff) or
   StableHLO, or the whole file as a StableHLO portable artifact or an
   HloModuleProto, and
   verifies the module; NULL (diagnostics reported) on failure. */
Module *frontend_parse(int file, size_t begin, size_t end);

#endif
