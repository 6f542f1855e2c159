/*
 * mlirbc.h - the frontend for StableHLO portable artifacts: MLIR bytecode
 * whose ops, types and attributes are the VHLO dialect's, as JAX and
 * `stablehlo.serialize_portable_artifact` write them (docs/mlirbc.md).
 *
 * The artifact becomes the module the StableHLO text frontend would make of
 * the text StableHLO's own reader gives back for it, attribute for
 * attribute, so nothing downstream knows which one it came from.  A
 * location in the module is a byte offset into the file, and this
 * frontend's diagnostics say `file:OFFSET: error: ...`.
 */
#ifndef XLAC_FRONTENDS_MLIRBC_H
#define XLAC_FRONTENDS_MLIRBC_H

#include "ir/ir.h"

/* Whether this frontend reads the loaded file: it starts with the MLIR
   bytecode magic `ML\xefR`, its name ends in .mlirbc, or it is a
   `jax.export` serialization (a flatbuffer) holding an artifact. */
bool mlirbc_claims(int file);
/* Whether the n bytes at p start with the MLIR bytecode magic. */
bool mlirbc_is_bytecode(const void *p, size_t n);

/* Reads the artifact in a loaded file (src_load / src_add) into a module,
   not yet verified; NULL after reporting what is wrong.  Never reads past
   the file's bytes, whatever they hold. */
Module *mlirbc_parse(int file);

/* While one is active, diagnostics located in `file` print as
   `file:OFFSET: level: msg` (line and column mean nothing in a binary
   file) and go wherever diagnostics went before; others pass through
   unchanged.  Covers parsing and verifying an artifact. */
typedef struct MlirbcDiag {
  DiagContext prev;
  int file;
} MlirbcDiag;
void mlirbc_diag_begin(MlirbcDiag *d, int file);
void mlirbc_diag_end(MlirbcDiag *d);

#endif
