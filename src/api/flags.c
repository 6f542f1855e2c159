/*
 * flags.c - the dump flags of XLA_FLAGS, for the command line, over the
 * CPU backend's parser (codegen/dump.c), so that the driver needs nothing
 * from the backend.
 */
#include "api/flags.h"

#include "codegen/dump.h"

static CpuOptions to_cpu(const ApiXlaFlags *f) {
  CpuOptions co = {0};
  co.dump_dir = f->dump_dir;
  co.dump_pass_re = f->dump.pass_re;
  co.dump_as_dot = f->dump.as_dot;
  co.dump_as_html = f->dump.as_html;
  return co;
}

static void from_cpu(ApiXlaFlags *f, const CpuOptions *co) {
  f->dump_dir = co->dump_dir;
  f->dump.pass_re = co->dump_pass_re;
  f->dump.as_dot = co->dump_as_dot;
  f->dump.as_html = co->dump_as_html;
}

int api_xla_flag(ApiXlaFlags *f, const char *word) {
  CpuOptions co = to_cpu(f);
  int rc = dump_parse_flag(&co, word);
  from_cpu(f, &co);
  return rc;
}

bool api_xla_flags(ApiXlaFlags *f, char *flags) {
  CpuOptions co = to_cpu(f);
  bool ok = dump_parse_flags(&co, flags);
  from_cpu(f, &co);
  return ok;
}
