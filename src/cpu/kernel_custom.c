/*
 * kernel_custom.c - custom_call in compiled code.
 *
 * A call to a registered host function (xlac_custom_call_register) becomes
 * a call of the runtime entry
 *   void xlac_rt_custom_call(CpuRun *run, int64_t index, void **ptrs)
 * with the buffers of the op's operands then its results, the convention of
 * the interpreter thunk.  The target is resolved here, at compile time: the
 * executable keeps one prepared call site per op (types, dims, the
 * backend_config, the attributes text and the registry entry, which stays
 * alive after the name is registered again), indexed by `index`.  The host
 * function reads and writes the buffers in place; a failure it reports
 * fails the execution with its message at the op, through the run's
 * interpreter state as the thunk's failures do.
 *
 * Targets are resolved once the pipeline has run, before anything is
 * lowered (resolve_custom_calls, codegen/custom_calls.c): an unknown target is a compile
 * error, even in code that would run in the interpreter thunk, and the
 * annotations that pass their operands through (Sharding, MoveToHost, ...)
 * are removed.  The targets the interpreter implements itself (check.*,
 * TopK, shape_assertion and the internal registry) keep going through the
 * thunk.
 */
#include "cpu/lower.h"
#include "interp/hostcall.h"

#include <stdlib.h>
#include <string.h>

/* ---- lowering ---- */

static bool plain_or_token(const Type *t) { return t->kind == TY_TENSOR || t->kind == TY_TOKEN; }

/* Ahead of time: a call of the linking program's C function named by the
   target, with XLA's status-returning signature
     void target(void *out, const void **in, const char *opaque,
                 size_t opaque_len, xlacrt_status *status)
   (out: the result's data, or an array of the results' data when there
   are several; opaque: the backend_config string). */
static bool lower_aot_call(Lower *L, Op *op, const char *target) {
  Cg *cg = &L->cg;
  for (int i = 0; i < op->nopnds; i++)
    if (op->opnds[i]->type->kind != TY_TENSOR) return false;
  for (int i = 0; i < op->nres; i++)
    if (op->res[i].type->kind != TY_TENSOR) return false;
  if (!is_c_identifier(target)) {
    error_at(op->loc, "custom_call target '%s' is not a C identifier: ahead of time, a target is the C "
             "function the linking program provides", target ? target : "");
    return true; /* reported: no thunk error on top */
  }
  LLVMValueRef in = ptr_array(L, op->opnds, op->nopnds);
  LLVMValueRef out;
  if (op->nres == 1) {
    out = value_ptr(L, &op->res[0]);
  } else {
    Value **rs = xcalloc((size_t)op->nres + 1, sizeof(Value *));
    for (int i = 0; i < op->nres; i++) rs[i] = &op->res[i];
    out = ptr_array(L, rs, op->nres);
    xfree(rs);
  }
  const Attr *cfg = op_attr(op, "backend_config");
  const char *opaque = cfg && cfg->kind == ATTR_STRING && cfg->s ? cfg->s : "";
  size_t olen = strlen(opaque);
  LLVMValueRef str = LLVMBuildGlobalStringPtr(cg->b, opaque, "opaque");
  LLVMTypeRef st_fty = LLVMFunctionType(cg->t_ptr, NULL, 0, 0);
  LLVMValueRef st_fn = LLVMGetNamedFunction(cg->mod, "xlacrt_status_current");
  if (!st_fn) st_fn = LLVMAddFunction(cg->mod, "xlacrt_status_current", st_fty);
  LLVMValueRef status = LLVMBuildCall2(cg->b, st_fty, st_fn, NULL, 0, "status");
  LLVMTypeRef pt[5] = {cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_i64, cg->t_ptr};
  LLVMTypeRef fty = LLVMFunctionType(cg->t_void, pt, 5, 0);
  /* the target's own name could be the C library's `system` or a function
     of the runtime or of this module: the object calls a name in a
     namespace of ours, which only a function written for it defines */
  char *sym = xasprintf(CPU_AOT_CALL_PREFIX "%s", target);
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, sym);
  if (!fn) fn = LLVMAddFunction(cg->mod, sym, fty);
  xfree(sym);
  LLVMValueRef args[5] = {out, in, str, cg_i64(cg, (int64_t)olen), status};
  LLVMBuildCall2(cg->b, fty, fn, args, 5, "");
  CpuAot *a = L->aot;
  for (int i = 0; i < a->ncalls; i++)
    if (strcmp(a->calls[i].target, target) == 0) return true;
  a->calls = xrealloc(a->calls, sizeof(CpuAotCall) * (size_t)(a->ncalls + 1));
  a->calls[a->ncalls++] = (CpuAotCall){xstrdup(target), op->nopnds, op->nres};
  return true;
}

bool lower_custom_call(Lower *L, Op *op) {
  if (op->kind != OP_CUSTOM_CALL) return false;
  Cg *cg = &L->cg;
  const HostFn *fn;
  HostTarget k = hostcall_classify(op_attr_str(op, "call_target_name"), &fn);
  if (k == HOST_NOOP && op->nres == 0) return true;
  if (k == HOST_ALLOCATE && op->nopnds == 0 && op->nres == 1 && op->res[0].type->kind == TY_TENSOR) {
    /* any contents will do; zeros, as the interpreter gives */
    int64_t nb = type_bytes(op->res[0].type);
    if (nb > 0) LLVMBuildMemSet(cg->b, value_ptr(L, &op->res[0]), LLVMConstInt(cg->t_i8, 0, 0), cg_i64(cg, nb), 1);
    return true;
  }
  if (L->aot && (k == HOST_FUNCTION || k == HOST_UNKNOWN))
    return lower_aot_call(L, op, op_attr_str(op, "call_target_name"));
  if (k != HOST_FUNCTION) return false;
  for (int i = 0; i < op->nopnds; i++)
    if (!plain_or_token(op->opnds[i]->type)) return false;
  for (int i = 0; i < op->nres; i++)
    if (!plain_or_token(op->res[i].type)) return false;
  char *err = NULL;
  HostCallSite *site = hostcall_site_new(op, fn, &err);
  if (!site) {
    /* resolve_custom_calls reported it already */
    xfree(err);
    return false;
  }
  Value **bufs = xcalloc((size_t)(op->nopnds + op->nres + 1), sizeof(Value *));
  int nb = 0;
  for (int i = 0; i < op->nopnds; i++) bufs[nb++] = op->opnds[i];
  for (int i = 0; i < op->nres; i++) bufs[nb++] = &op->res[i];
  LLVMValueRef arr = ptr_array(L, bufs, nb);
  xfree(bufs);
  /* the thunk's signature: (run, index, pointers) */
  LLVMValueRef callee = LLVMGetNamedFunction(cg->mod, "xlac_rt_custom_call");
  if (!callee) callee = LLVMAddFunction(cg->mod, "xlac_rt_custom_call", cg->ty_fallback);
  LLVMValueRef args[3] = {L->p_exe, cg_i64(cg, L->custom_calls.len), arr};
  LLVMBuildCall2(cg->b, cg->ty_fallback, callee, args, 3, "");
  VEC_PUSH(L->custom_calls, site);
  return true;
}

void lower_free_custom_calls(struct HostCallSite **sites, int n) {
  for (int i = 0; i < n; i++) hostcall_site_free(sites[i]);
  xfree(sites);
}

/* ---- the runtime entry (called from generated code) ---- */

void xlac_rt_custom_call(struct CpuRun *run, int64_t index, void **ptrs) {
  Interp *I = cpu_run_interp(run);
  /* after a failure the execution's results are discarded: host functions
     must not see what the failed op left in its buffers */
  if (I->failed) return;
  hostcall_site_run(I, cpu_run_custom_call(run, index), ptrs);
}
