/*
 * dump.h - what the CPU backend writes with --xla_dump_to=DIR (XLA's flag
 * and file names): module_NNNN.<name>.before_optimizations.txt,
 * .after_optimizations.txt (HLO text showing the fusions),
 * .buffer-assignment.txt, .ir-no-opt.ll, .ir-with-opt.ll, .o, and with
 * --xla_dump_hlo_as_dot / --xla_dump_hlo_as_html the fused graph;
 * --xla_dump_hlo_pass_re=RE dumps the module after every pass whose name
 * matches.  Every function is a no-op when o->dump_dir is NULL.
 */
#ifndef XLAC_CODEGEN_DUMP_H
#define XLAC_CODEGEN_DUMP_H

#include <llvm-c/Core.h>

#include "codegen/cpu.h"

/* The module as HLO text, e.g. stage "before_optimizations". */
void dump_module(const CpuOptions *o, const Module *m, const char *stage);
/* Called after each pass (PassOptions.after_pass) with o as ud. */
void dump_after_pass(const char *pass_name, Module *m, bool changed, void *ud);
/* Buffer assignment report (text already formatted). */
void dump_text(const CpuOptions *o, const Module *m, const char *suffix, const char *text);
/* LLVM IR ("ir-no-opt.ll" / "ir-with-opt.ll") and the object file (".o"). */
void dump_llvm(const CpuOptions *o, const Module *m, const char *suffix, LLVMModuleRef M);
void dump_object(const CpuOptions *o, const Module *m, LLVMModuleRef M);
/* Reads XLA_FLAGS-style flags ("--xla_dump_to=DIR --xla_dump_hlo_as_dot")
   from a string into o; unknown flags are ignored with a warning. */
void dump_parse_flags(CpuOptions *o, const char *flags);

#endif
