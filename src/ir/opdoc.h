/* opdoc.h - op coverage table (docs/ops.md is generated from it). */
#ifndef XLAC_OPDOC_H
#define XLAC_OPDOC_H

#include "ir/ir.h"

/* Element type classes an op accepts, in words ("int, float, complex"). */
const char *op_elem_types(OpKind k);
/* The whole docs/ops.md text. */
void print_op_coverage_markdown(StrBuf *b);

#endif
