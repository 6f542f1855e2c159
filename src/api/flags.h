/*
 * flags.h - XLA_FLAGS for the command line: the dump flags XLA reads from
 * XLA_FLAGS and its command lines (--xla_dump_to, ...), parsed into
 * ApiDumpOptions with the same rules the library applies to
 * xlac_compile_options.xla_flags.
 */
#ifndef XLAC_API_FLAGS_H
#define XLAC_API_FLAGS_H

#include "api/api.h"

typedef struct ApiXlaFlags {
  const char *dump_dir;
  ApiDumpOptions dump;
} ApiXlaFlags;

/* One word: 1 when it is a dump flag (stored; strings point into word), 0
   when it is another word, -1 when its value is malformed (reported). */
int api_xla_flag(ApiXlaFlags *f, const char *word);
/* The XLA_FLAGS variable: words separated by blanks, values may be quoted;
   parsed in place (strings point into flags).  Other words are ignored
   with a warning.  False when a flag was malformed. */
bool api_xla_flags(ApiXlaFlags *f, char *flags);

#endif
