/*
 * print.h - printing the IR as MLIR text.
 *
 * The output is canonical: common ops in their pretty form, everything else
 * in the generic form, values renumbered per function, so that parsing the
 * output and printing it again gives the same text.  (The HLO text printer is
 * declared separately in print_hlo.h.)
 */
#ifndef XLAC_IR_PRINT_H
#define XLAC_IR_PRINT_H

#include "ir/ir.h"

/* Canonical text that parses back to the same text. */
void print_module_mlir(StrBuf *b, const Module *m);
/* One op (with its regions), for diagnostics; values print under their source
   names where they have one. */
void print_op_mlir(StrBuf *b, const Op *op);
/* What op is, in a few words (profiles): its name, or a fusion's
   computation with its kind, size and heaviest op; then its first
   result's type and its source line. */
void print_op_brief(StrBuf *b, Module *m, const Op *op);
/* One attribute value as MLIR spells it. */
void print_attr_mlir(StrBuf *b, const Attr *a);

#endif
