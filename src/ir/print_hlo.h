/*
 * print_hlo.h - writes a module as XLA HLO text.
 *
 * The output parses back with the HLO frontend to the same IR, so
 * print(parse(print(x))) == print(x).  Regions become named computations;
 * ops without an HLO spelling print as custom-calls whose target is the IR
 * op name, and constructs HLO cannot express are reported as errors at the
 * op's location.
 */
#ifndef XLAC_PRINT_HLO_H
#define XLAC_PRINT_HLO_H

#include "ir/ir.h"

void print_module_hlo(StrBuf *b, const Module *m);

#endif
