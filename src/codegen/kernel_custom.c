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
 * lowered (lower_resolve_custom_calls): an unknown target is a compile
 * error, even in code that would run in the interpreter thunk, and the
 * annotations that pass their operands through (Sharding, MoveToHost, ...)
 * are removed.  The targets the interpreter implements itself (check.*,
 * TopK, shape_assertion and the internal registry) keep going through the
 * thunk.
 */
#include "codegen/lower.h"
#include "interp/hostcall.h"

#include <stdlib.h>
#include <string.h>

/* ---- resolving targets at compile time ---- */

typedef struct Reach {
  Module *m;
  PtrMap seen;
  VEC(Func *) todo;
  Func *cur;               /* the function being walked */
  VEC(Op *) drop;          /* pass-through annotations ... */
  VEC(Func *) drop_in;     /* ... and their functions */
  bool ok;
} Reach;

/* Functions named by an attribute (func.call's callee, called_computations,
   a composite's decomposition) are resolved too. */
static void note_funcs(Reach *r, const Attr *a) {
  if (a->kind == ATTR_ARRAY) {
    for (int i = 0; i < a->n; i++) note_funcs(r, a->elems[i]);
    return;
  }
  if (a->kind != ATTR_SYMBOL || !a->s) return;
  Func *g = module_find_func(r->m, a->s[0] == '@' ? a->s + 1 : a->s);
  if (g && !ptrmap_has(&r->seen, g)) {
    ptrmap_put(&r->seen, g, (void *)1);
    VEC_PUSH(r->todo, g);
  }
}

static bool resolve_op(Op *op, void *ud) {
  Reach *r = ud;
  for (int i = 0; i < op->nattrs; i++) note_funcs(r, op->attrs[i].attr);
  if (op->kind != OP_CUSTOM_CALL) return true;
  char *why = hostcall_problem(op);
  if (why) {
    error_at(op->loc, "%s", why);
    free(why);
    r->ok = false;
  } else if (hostcall_classify(op_attr_str(op, "call_target_name"), NULL) == HOST_IDENTITY) {
    VEC_PUSH(r->drop, op);
    VEC_PUSH(r->drop_in, r->cur);
  }
  return true;
}

bool lower_resolve_custom_calls(Module *m, Func *f) {
  Reach r;
  memset(&r, 0, sizeof r);
  r.m = m;
  r.ok = true;
  ptrmap_put(&r.seen, f, (void *)1);
  VEC_PUSH(r.todo, f);
  for (int i = 0; i < r.todo.len; i++) {
    r.cur = r.todo.data[i];
    block_walk(r.cur->body, resolve_op, &r);
  }
  /* an annotation's results are its operands (hostcall_problem checked the
     types): the uses take the operands and the op goes, costing no copy */
  for (int i = 0; r.ok && i < r.drop.len; i++) {
    Op *op = r.drop.data[i];
    for (int k = 0; k < op->nres; k++) func_replace_uses(r.drop_in.data[i], &op->res[k], op->opnds[k], NULL);
    op_erase(op);
  }
  ptrmap_free(&r.seen);
  VEC_FREE(r.todo);
  VEC_FREE(r.drop);
  VEC_FREE(r.drop_in);
  return r.ok;
}

/* ---- lowering ---- */

static bool plain_or_token(const Type *t) { return t->kind == TY_TENSOR || t->kind == TY_TOKEN; }

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
  if (k != HOST_FUNCTION) return false;
  for (int i = 0; i < op->nopnds; i++)
    if (!plain_or_token(op->opnds[i]->type)) return false;
  for (int i = 0; i < op->nres; i++)
    if (!plain_or_token(op->res[i].type)) return false;
  char *err = NULL;
  HostCallSite *site = hostcall_site_new(op, fn, &err);
  if (!site) {
    /* lower_resolve_custom_calls reported it already */
    free(err);
    return false;
  }
  Value **bufs = xcalloc((size_t)(op->nopnds + op->nres + 1), sizeof(Value *));
  int nb = 0;
  for (int i = 0; i < op->nopnds; i++) bufs[nb++] = op->opnds[i];
  for (int i = 0; i < op->nres; i++) bufs[nb++] = &op->res[i];
  LLVMValueRef arr = ptr_array(L, bufs, nb);
  free(bufs);
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
  free(sites);
}

/* ---- the runtime entry (called from generated code) ---- */

void xlac_rt_custom_call(struct CpuRun *run, int64_t index, void **ptrs) {
  Interp *I = cpu_run_interp(run);
  /* after a failure the execution's results are discarded: host functions
     must not see what the failed op left in its buffers */
  if (I->failed) return;
  hostcall_site_run(I, cpu_run_custom_call(run, index), ptrs);
}
