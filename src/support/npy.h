/*
 * npy.h - reading and writing NumPy .npy files.
 *
 * .npy is how tensors get in and out of `xlac run` (--input x=@x.npy,
 * --output-dir) and how interpreter.probe records intermediate values.
 * Versions 1, 2 and 3 of the format are read; version 1 is written (2 only
 * when a header would not fit).  Element types map onto NumPy dtypes: bool
 * '|b1', integers '|i1'..'<i8' / '|u1'..'<u8', floats '<f2' '<f4' '<f8',
 * complex '<c8' '<c16'.  Types NumPy lacks are written the way ml_dtypes
 * arrays are saved: bf16 as raw '<V2', 8/6/4-bit floats as raw '<V1'; 2- and
 * 4-bit integers as '|i1' / '|u1'.  Both C and Fortran order are read.
 */
#ifndef XLAC_NPY_H
#define XLAC_NPY_H

#include "ir/literal.h"

/* Decodes an .npy image.  When `expect` is given, the file must hold exactly
   that tensor type (element type and shape); raw void dtypes ('V2', 'V1')
   are only accepted this way, as the bits of expect's element type.  Without
   `expect` the element type comes from the dtype alone.  On failure returns
   NULL and sets *err to a heap message (caller frees). */
Literal *npy_decode(const void *data, size_t len, const Type *expect, char **err);
Literal *npy_read(const char *path, const Type *expect, char **err);

/* Encodes a literal as an .npy image into b.  Returns false (with *err) for
   element types that cannot be stored. */
bool npy_encode(StrBuf *b, const Literal *l, char **err);
bool npy_write(const char *path, const Literal *l, char **err);

/* The dtype string used for an element type ("<f4"), or NULL. */
const char *npy_dtype_of(ElemType et);

#endif
