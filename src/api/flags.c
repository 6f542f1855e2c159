/*
 * flags.c - the dump flags of XLA_FLAGS, for the command line, over the
 * backends' parser (codegen/dump.c), so that the driver needs nothing
 * from the backend.
 */
#include "api/flags.h"

#include "codegen/dump.h"

static DumpOptions to_dump(const ApiXlaFlags *f) {
  DumpOptions d = {0};
  d.dir = f->dump_dir;
  d.pass_re = f->dump.pass_re;
  d.as_dot = f->dump.as_dot;
  d.as_html = f->dump.as_html;
  return d;
}

static void from_dump(ApiXlaFlags *f, const DumpOptions *d) {
  f->dump_dir = d->dir;
  f->dump.pass_re = d->pass_re;
  f->dump.as_dot = d->as_dot;
  f->dump.as_html = d->as_html;
}

int api_xla_flag(ApiXlaFlags *f, const char *word) {
  DumpOptions d = to_dump(f);
  int rc = dump_parse_flag(&d, word);
  from_dump(f, &d);
  return rc;
}

bool api_xla_flags(ApiXlaFlags *f, char *flags) {
  DumpOptions d = to_dump(f);
  bool ok = dump_parse_flags(&d, flags);
  from_dump(f, &d);
  return ok;
}
