/* TEMPORARY during bring-up: passes being written return "unchanged" until
   their files land; removed when every pass exists. */
#include "passes/passes.h"

#define STUB(fn) \
  __attribute__((weak)) int fn(Module *m, const PassOptions *o) { (void)m; (void)o; return 0; }
STUB(pass_inline_calls)
STUB(pass_chlo_decompose)
STUB(pass_simplify)
STUB(pass_constant_fold)
STUB(pass_cse)
STUB(pass_dce)
STUB(pass_expand)
STUB(pass_fusion)
