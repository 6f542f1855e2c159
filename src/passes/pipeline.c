/*
 * pipeline.c - the CPU compiler's pass list, in order, in one place.
 */
#include "passes/passes.h"

#include "ir/verify.h"

static const Pass cpu_passes[] = {
    {"legalize", pass_legalize},
    {"approx-top-k", pass_approx_top_k},
    {"inline", pass_inline_calls},
    {"flatten-tuples", pass_flatten_tuples},
    {"chlo-decompose", pass_chlo_decompose},
    {"simplify", pass_simplify},
    {"constant-fold", pass_constant_fold},
    {"legalize", pass_legalize},
    {"cse", pass_cse},
    {"quant-lower", pass_quant_lower},
    {"expand", pass_expand},
    {"simplify", pass_simplify},
    {"cse", pass_cse},
    {"hoist-scan-products", pass_hoist_products},
    {"dce", pass_dce},
    {"fusion", pass_fusion},
    {"drop-barriers", pass_drop_barriers},
    {"dce", pass_dce},
};

const Pass *cpu_pipeline_passes(int *n) {
  *n = (int)ARRAY_LEN(cpu_passes);
  return cpu_passes;
}

bool run_cpu_pipeline(Module *m, const PassOptions *o) {
  for (size_t i = 0; i < ARRAY_LEN(cpu_passes); i++) {
    const Pass *p = &cpu_passes[i];
    if (!o->fuse && p->run == pass_fusion) continue;
    if (o->stop && atomic_load(o->stop)) {
      error_at(SRCLOC_NONE, "compilation stopped before pass '%s': %s", p->name,
               o->stop_reason ? o->stop_reason : "cancelled");
      return false;
    }
    int r = p->run(m, o);
    if (r < 0) return false;
    if (o->verify_each && !verify_module_structure(m)) {
      error_at(SRCLOC_NONE, "internal error: the module does not verify after pass '%s'", p->name);
      return false;
    }
    if (o->after_pass) o->after_pass(p->name, m, r > 0, o->ud);
  }
  return true;
}
