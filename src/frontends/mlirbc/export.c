/*
 * export.c - `jax.export`'s serialized Exported: a flatbuffer whose root
 * table holds, among the calling convention and the shardings, the
 * module as a StableHLO portable artifact (the table's field 13, a byte
 * vector).  Only that field is read; the rest describes how JAX calls the
 * module, which the module's own signature already says.
 *
 * Flatbuffers have no magic number, so the file is taken for one only
 * when every offset on the way to the field lands inside it and the bytes
 * found there start with MLIR bytecode's magic.
 */
#include <string.h>

#include "frontends/mlirbc/bc.h"

/* the field of table Exported that holds the module */
enum { FIELD_MLIR_MODULE = 13 };

static bool u32_at(const uint8_t *d, size_t n, size_t at, uint32_t *out) {
  if (at > n || n - at < 4) return false;
  *out = (uint32_t)d[at] | (uint32_t)d[at + 1] << 8 | (uint32_t)d[at + 2] << 16 | (uint32_t)d[at + 3] << 24;
  return true;
}

static bool u16_at(const uint8_t *d, size_t n, size_t at, uint16_t *out) {
  if (at > n || n - at < 2) return false;
  *out = (uint16_t)(d[at] | d[at + 1] << 8);
  return true;
}

bool jax_export_find(const uint8_t *d, size_t n, size_t *begin, size_t *end) {
  uint32_t root, soff, vec, len;
  uint16_t vsize, field;
  if (!u32_at(d, n, 0, &root) || !u32_at(d, n, root, &soff)) return false;
  /* the table starts with a signed offset back to its vtable */
  int64_t vt = (int64_t)root - (int32_t)soff;
  size_t slot = 4 + 2 * FIELD_MLIR_MODULE;
  if (vt < 0 || (uint64_t)vt >= n || !u16_at(d, n, (size_t)vt, &vsize)) return false;
  if (vsize < slot + 2 || !u16_at(d, n, (size_t)vt + slot, &field) || field == 0) return false;
  size_t at = (size_t)root + field;
  if (!u32_at(d, n, at, &vec) || vec > n - at || !u32_at(d, n, at + vec, &len)) return false;
  size_t start = at + vec + 4;
  if (start > n || len > n - start || !mlirbc_is_bytecode(d + start, len)) return false;
  *begin = start;
  *end = start + len;
  return true;
}
