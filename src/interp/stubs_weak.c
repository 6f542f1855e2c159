/* TEMPORARY during bring-up: weak fallbacks so the tree links while op
   families are being written.  Deleted once every interp_<ID> exists, after
   which a missing entry fails the link. */
#include "interp/interp.h"

#define OP(id, name, hlo, flags)                                                        \
  __attribute__((weak)) bool interp_##id(Interp *I, Op *op, IVal **args, IVal **res) { \
    (void)args;                                                                         \
    (void)res;                                                                          \
    return interp_error(I, op, "'%s' is not implemented by the interpreter", name);   \
  }
#include "ir/ops.def"
#undef OP
