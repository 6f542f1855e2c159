/*
 * dump.h - what the backends write with --xla_dump_to=DIR, under XLA's
 * flag and file names, so that scripts written for XLA dumps work on ours.
 *
 * Every file is DIR/module_NNNN.<name>.<suffix>: NNNN is DumpOptions.module_id
 * and <name> the module's name (or its entry function's), made safe for a
 * file name.  Suffixes:
 *   before_optimizations.txt, after_optimizations.txt   HLO text (fusions
 *       print as `fusion(...), kind=kLoop, calls=%fused_computation.N`)
 *   after_optimizations-buffer-assignment.txt           the buffer assignment
 *   ir-no-opt.ll, ir-with-opt.ll, o                      LLVM IR, object code
 *   <stage>.dot, <stage>.html   with --xla_dump_hlo_as_dot / _html: the graph
 *       (fusions drawn with their fused ops); the html page is self-contained
 *   NNNN.cpu.after_<pass>.before_<next>.txt   with --xla_dump_hlo_pass_re=RE:
 *       the module between two passes when RE (POSIX extended, unanchored)
 *       matches either name; "pipeline-start" and "pipeline-end" stand for
 *       the ends of the pipeline; NNNN counts these dumps per module.  As in
 *       XLA, RE = ".*" skips passes that changed nothing.
 * Every function is a no-op when o->dir is NULL.  A dump that cannot be
 * written prints one warning and is skipped; dumping never affects results.
 */
#ifndef XLAC_CODEGEN_DUMP_H
#define XLAC_CODEGEN_DUMP_H

#include <llvm-c/Core.h>

#include "ir/ir.h"

/* What to dump and where: the XLA dump flags, and the module's number. */
typedef struct DumpOptions {
  const char *dir;     /* --xla_dump_to: write dumps here (NULL: none) */
  const char *pass_re; /* --xla_dump_hlo_pass_re: dump around matching passes */
  bool as_dot;         /* --xla_dump_hlo_as_dot */
  bool as_html;        /* --xla_dump_hlo_as_html */
  int module_id;       /* NNNN in dump file names */
  bool no_fusion;      /* the pipeline runs without its fusion passes (which
                          passes lie between two dumps) */
} DumpOptions;

/* The module as HLO text (and dot / html when asked), e.g. stage
   "before_optimizations".  The "before_optimizations" dump also starts the
   between-pass dumps of this module. */
void dump_module(const DumpOptions *o, const Module *m, const char *stage);
/* Called after each pass (PassOptions.after_pass) with o as ud. */
void dump_after_pass(const char *pass_name, Module *m, bool changed, void *ud);
/* A text file with the given suffix.  "buffer-assignment.txt" is written as
   XLA names it, after_optimizations-buffer-assignment.txt. */
void dump_text(const DumpOptions *o, const Module *m, const char *suffix, const char *text);
/* LLVM IR ("ir-no-opt.ll" / "ir-with-opt.ll") and the object file (".o",
   emitted from a copy of M, so M itself is left as it was). */
void dump_llvm(const DumpOptions *o, const Module *m, const char *suffix, LLVMModuleRef M);
void dump_object(const DumpOptions *o, const Module *m, LLVMModuleRef M, int opt_level);

/* The graph of a module as Graphviz dot text / as a self-contained html page
   (an SVG drawn here, plus the dot source).  Appended to b. */
void dump_graph_dot(StrBuf *b, const Module *m, const char *title);
void dump_graph_html(StrBuf *b, const Module *m, const char *title);

/* One XLA flag word: "--xla_dump_to=DIR", "--xla_dump_hlo_pass_re=RE",
   "--xla_dump_hlo_as_dot", "--xla_dump_hlo_as_html", "--xla_dump_hlo_as_text"
   (booleans also as "=true" / "=false").  Returns 1 when it is one of these
   (stored in o; strings point into word), 0 when it is some other word, -1
   when its value is malformed (message printed). */
int dump_parse_flag(DumpOptions *o, const char *word);
/* XLA_FLAGS: flag words separated by whitespace; a value may be quoted with
   "..." or '...'.  Parsed in place (flags is modified; o's strings point into
   it).  Words that are not dump flags are ignored with a warning, as xlac
   has no other XLA flags.  Returns false when a flag was malformed. */
bool dump_parse_flags(DumpOptions *o, char *flags);

#endif
