/*
 * cpu.c - the CPU backend's driver: pipeline, buffers, kernel emission,
 * the entry function, JIT, and execution.
 *
 * The entry function has the signature
 *   void xlac_entry(void **params, void **results, char *temp,
 *                   xlacrt_pool *pool, CpuRun *run)
 * (run: the execution's context, handed back to the interpreter thunk) and
 * runs the top-level ops of the optimized function in order.  Each op
 * becomes one of:
 *   - a loop kernel (a fusion of elementwise and index-mapping ops, or one
 *     such op): the elemental generator computes every output element in
 *     registers; the iteration space is cut into fixed chunks run on the
 *     thread pool (the chunking never depends on the thread count);
 *   - a reduction kernel (a reduce, or a reduction fusion): row and full
 *     reductions accumulate fixed-size blocks in vector registers and combine
 *     the blocks' partial results in block order (a fixed function of the
 *     input, independent of the thread count; float sums are reassociated
 *     relative to the interpreter); column reductions keep the
 *     interpreter's order exactly (kernel_reduce.c);
 *   - a thunk into the reference interpreter for everything else (counted
 *     in the stats; the emitters grow to cover more ops over time).
 * Buffers: parameters and results are the caller's; every other value gets
 * a 64-byte aligned slice of one temp arena; constants are globals.
 */
#include "cpu/cpu.h"

#include <llvm-c/Core.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "codegen/dump.h"
#include "codegen/jit.h"
#include "cpu/lower.h"
#include "cpu/objcache.h"
#include "ir/print.h"
#include "passes/passes.h"
#include "xlacrt.h"

/* One execution: several may run at once (replicas in threads), so what
   differs between them lives here, not in the executable. */
typedef struct CpuRun {
  CpuExecutable *exe;
  Interp *interp; /* the caller's: the thunk runs ops in it */
} CpuRun;

typedef void (*EntryFn)(void **params, void **results, char *temp, xlacrt_pool *pool, CpuRun *run);

struct CpuExecutable {
  Module *m;
  Func *entry;      /* the signature callers see */
  Func *flat;       /* what is compiled: entry with tuple parameters/results flattened */
  bool interpreted; /* whole function runs in the interpreter (unsupported types) */
  Jit *jit;
  EntryFn fn;
  int64_t temp_bytes;
  char *temp;       /* the temp arena, allocated once and reused by executions */
  atomic_flag temp_busy; /* set while an execution uses temp; a concurrent one allocates its own */
  xlacrt_pool *pool;
  bool own_pool;    /* created here (else the caller's, CpuOptions.pool) */
  bool *in_place;   /* per result: computed into its aliased parameter (cpu_executable_in_place) */
  int *alias;       /* CpuOptions.alias_param (nalias entries) */
  int nalias;
  int nres_flat;
  struct Fallback *fallback_ops;
  int nfallback;
  Op **loops;       /* compiled while loops, by the index their stop report passes */
  int nloops;
  struct HostCallSite **custom_calls; /* host-function calls (kernel_custom.c), by index */
  int ncustom;
  bool flush_denormals; /* CpuOptions.flush_denormals */
  struct CpuProf *prof; /* CpuOptions.profile: the timed ops, by the index their reports pass */
  int nprof;
  CgDataVec data;   /* large constants, which the JIT links by name (Cg.ext) */
  CpuStats stats;
};

/* One timed op (CpuOptions.profile): its totals over the executions.
   Replicas share an executable, so the totals are atomic. */
typedef struct CpuProf {
  Op *op;
  int depth;        /* 0: the entry's block; more: inside loops and branches */
  _Atomic int64_t ns, count;
  _Atomic int64_t min; /* the fastest call (INT64_MAX: none yet): robust where
                          other work preempts some calls, as on a shared machine */
} CpuProf;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* An op run by the interpreter thunk, with the outer values its regions
   use (they are passed after its operands and results). */
typedef struct Fallback {
  Op *op;
  int ncaps;
  Value **caps;
} Fallback;

static IVal *ival_from_buffer(const Type *t, const void *p) {
  if (t->kind == TY_TOKEN) return ival_token();
  Literal *l = lit_new(t);
  if (l->n) memcpy(l->data, p, (size_t)l->n * (size_t)et_bytes(t->elem));
  return ival_tensor(l);
}

/* ---- the interpreter thunk (called from generated code) ---- */
static void xlac_rt_fallback(CpuRun *run, int64_t index, void **ptrs) {
  CpuExecutable *exe = run->exe;
  Interp *I = run->interp;
  Fallback *fb = &exe->fallback_ops[index];
  Op *op = fb->op;
  /* ptrs: the op's operands, its results, then its captures (any number) */
  int ni = op->nopnds, no = op->nres;
  IVal **in = xcalloc((size_t)ni + 1, sizeof(IVal *)), **out = xcalloc((size_t)no + 1, sizeof(IVal *));
  for (int i = 0; i < ni; i++) in[i] = ival_from_buffer(op->opnds[i]->type, ptrs[i]);
  IVal **caps = xcalloc((size_t)(fb->ncaps + 1), sizeof(IVal *));
  for (int i = 0; i < fb->ncaps; i++) caps[i] = ival_from_buffer(fb->caps[i]->type, ptrs[ni + no + i]);
  if (!interp_run_op_captured(I, op, in, out, fb->ncaps, fb->caps, caps)) I->failed = true;
  for (int i = 0; i < fb->ncaps; i++) ival_release(caps[i]);
  xfree(caps);
  for (int i = 0; i < no; i++) {
    if (out[i] && out[i]->kind == IV_TENSOR && !I->failed) {
      const Literal *l = out[i]->lit;
      /* an op whose result took its operand's storage may hand back
         the operand itself */
      if (l->n && l->data != ptrs[ni + i])
        memmove(ptrs[ni + i], l->data, (size_t)l->n * (size_t)et_bytes(l->type->elem));
    }
    ival_release(out[i]);
  }
  for (int i = 0; i < ni; i++) ival_release(in[i]);
  xfree(in);
  xfree(out);
}

/* What runtime entries defined outside this file need of an execution
   (kernel_custom.c's host-function calls). */
Interp *cpu_run_interp(CpuRun *run) { return run->interp; }
struct HostCallSite *cpu_run_custom_call(CpuRun *run, int64_t index) { return run->exe->custom_calls[index]; }

/* replica_id / partition_id for compiled code: the ids of the process the
   caller's interpreter state runs as (replica 0 / partition 0 outside a
   grid). */
static int32_t xlac_rt_device_id(CpuRun *run, int32_t partition) {
  return partition ? run->interp->partition_id : run->interp->replica_id;
}

/* The flag compiled while loops poll once per iteration (the execution's
   cancel hook, InterpOptions.cancel), and what a loop that sees it set
   calls before the entry function returns: the error at the loop. */
static const atomic_int *xlac_rt_cancel_flag(CpuRun *run) { return interp_cancel_flag(run->interp); }

/* CpuOptions.flush_denormals: x86's MXCSR with FTZ (bit 15) and DAZ
   (bit 6) set for the execution, and put back after it. */
static unsigned fp_flush_begin(bool flush) {
#if defined(__x86_64__)
  if (flush) {
    unsigned m = _mm_getcsr();
    _mm_setcsr(m | 0x8040u);
    return m;
  }
#endif
  (void)flush;
  return 0;
}

static void fp_flush_end(bool flush, unsigned m) {
#if defined(__x86_64__)
  if (flush) _mm_setcsr((m & ~0x3fu) | (_mm_getcsr() & 0x3fu));
#endif
  (void)flush;
  (void)m;
}

static int64_t xlac_rt_prof_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void xlac_rt_prof_add(CpuRun *run, int64_t index, int64_t t0) {
  CpuProf *p = &run->exe->prof[index];
  int64_t dt = xlac_rt_prof_now() - t0;
  atomic_fetch_add_explicit(&p->ns, dt, memory_order_relaxed);
  atomic_fetch_add_explicit(&p->count, 1, memory_order_relaxed);
  int64_t m = atomic_load_explicit(&p->min, memory_order_relaxed);
  while (dt < m && !atomic_compare_exchange_weak_explicit(&p->min, &m, dt, memory_order_relaxed, memory_order_relaxed))
    ;
}

static void xlac_rt_loop_stopped(CpuRun *run, int64_t index) {
  if (interp_loop_continue(run->interp, run->exe->loops[index])) run->interp->failed = true;
}

/* Pointer to a value's buffer, in the entry function. */
LLVMValueRef value_ptr(Lower *L, Value *v) {
  Cg *cg = &L->cg;
  int64_t off = 0;
  switch (buffers_lookup(L->buffers, v, &off)) {
  case BUF_PARAM:
  case BUF_RESULT: {
    LLVMValueRef base = buffers_lookup(L->buffers, v, NULL) == BUF_PARAM ? L->p_params : L->p_results;
    LLVMValueRef i = cg_i64(cg, off);
    LLVMValueRef pp = LLVMBuildGEP2(cg->b, cg->t_ptr, base, &i, 1, "");
    return LLVMBuildLoad2(cg->b, cg->t_ptr, pp, "");
  }
  case BUF_TEMP:
    return lower_temp_ptr(L, off);
  case BUF_CONST:
    if (v->def && v->def->kind == OP_CONSTANT) return cg_constant_global(cg, op_attr(v->def, "value")->lit);
    return LLVMConstPointerNull(cg->t_ptr);
  default:
    return LLVMConstPointerNull(cg->t_ptr);
  }
}

/* An alloca'd array of n pointers (the alloca in the entry block, the
   stores at the builder's position); returns it. */
LLVMValueRef ptr_array_of(Lower *L, LLVMValueRef *ptrs, int n) {
  Cg *cg = &L->cg;
  LLVMBasicBlockRef cur = cg_enter_entry(cg, L->fn);
  LLVMValueRef arr = LLVMBuildArrayAlloca(cg->b, cg->t_ptr, cg_i64(cg, n > 0 ? n : 1), "ptrs");
  LLVMPositionBuilderAtEnd(cg->b, cur);
  for (int i = 0; i < n; i++) {
    LLVMValueRef idx = cg_i64(cg, i);
    LLVMBuildStore(cg->b, ptrs[i], LLVMBuildGEP2(cg->b, cg->t_ptr, arr, &idx, 1, ""));
  }
  return arr;
}

/* The same for the buffers of vals. */
LLVMValueRef ptr_array(Lower *L, Value *const *vals, int n) {
  LLVMValueRef *ptrs = xcalloc((size_t)(n > 0 ? n : 1), sizeof(LLVMValueRef));
  for (int i = 0; i < n; i++) ptrs[i] = value_ptr(L, vals[i]);
  LLVMValueRef arr = ptr_array_of(L, ptrs, n);
  xfree(ptrs);
  return arr;
}

LLVMValueRef kernel_new(Lower *L, LLVMValueRef *chunk, LLVMValueRef *ptrs) {
  Cg *cg = &L->cg;
  char name[32];
  snprintf(name, sizeof name, "kernel.%d", cg->counter++);
  LLVMTypeRef params[2] = {cg->t_i64, cg->t_ptr};
  LLVMTypeRef fty = LLVMFunctionType(cg->t_void, params, 2, 0);
  LLVMValueRef fn = LLVMAddFunction(cg->mod, name, fty);
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(cg->ctx, "prefer-vector-width", 19, "512", 3));
  LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry");
  LLVMPositionBuilderAtEnd(cg->b, bb);
  *chunk = LLVMGetParam(fn, 0);
  *ptrs = LLVMGetParam(fn, 1);
  return fn;
}

LLVMValueRef kernel_load_ptr(Cg *cg, LLVMValueRef arr, int i) {
  LLVMValueRef idx = cg_i64(cg, i);
  return LLVMBuildLoad2(cg->b, cg->t_ptr, LLVMBuildGEP2(cg->b, cg->t_ptr, arr, &idx, 1, ""), "");
}

/* Calls kernel fn over nchunks chunks with the given buffers. */
void call_kernel_op(Lower *L, LLVMValueRef kfn, int64_t nchunks, Op *op) {
  Value **bufs = xcalloc((size_t)(op->nopnds + op->nres + 1), sizeof(Value *));
  int nb = 0;
  for (int i = 0; i < op->nopnds; i++) bufs[nb++] = op->opnds[i];
  for (int i = 0; i < op->nres; i++) bufs[nb++] = &op->res[i];
  call_kernel(L, kfn, nchunks, bufs, nb);
  xfree(bufs);
}

/* The call itself, on an array of pointers built in the entry function. */
static void call_kernel_arr(Lower *L, LLVMValueRef kfn, int64_t nchunks, LLVMValueRef arr) {
  Cg *cg = &L->cg;
  if (nchunks == 1) {
    LLVMValueRef args[2] = {cg_i64(cg, 0), arr};
    LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(kfn), kfn, args, 2, "");
  } else {
    LLVMValueRef args[4] = {L->p_pool, cg_i64(cg, nchunks), kfn, arr};
    LLVMBuildCall2(cg->b, cg->ty_parallel_for, cg->fn_parallel_for, args, 4, "");
  }
}

/* ---- alias scopes of a kernel's buffers ----
 * A kernel reads and writes its buffers through pointers it loads from
 * its array, so LLVM must assume any store may change any buffer: a
 * gather's indices are loaded again for every element it copies, and
 * loops are vectorized behind run-time overlap checks, or not at all.
 * Buffer assignment knows better.  Every load and store whose address is
 * a buffer's pointer plus offsets gets that buffer's scope
 * (!alias.scope), and the scopes of the kernel's other buffers that are
 * certainly elsewhere in memory (!noalias; buffers_apart in
 * passes/buffers.c):
 *   - temps whose ranges of the arena do not meet;
 *   - a temp or a constant and a parameter or result (other memory);
 *   - two results (the caller's distinct buffers);
 *   - a parameter and a result it is not donated to (CpuOptions.
 *     alias_param; cpu_execute never hands a parameter's buffer to
 *     another result).
 * Two parameters may be one buffer (the caller's choice), and values in
 * the same storage (in place) are never separated.  A kernel called from
 * a second site, with other buffers, loses its scopes again. */

bool lower_buffers_apart(Lower *L, Value *a, Value *b) {
  return buffers_apart(L->buffers, a, b, L->alias_param, L->nalias);
}

/* The slot of the kernel's buffer array a pointer was loaded from, or -1. */
static int slot_of(LLVMValueRef v, LLVMValueRef arr) {
  if (!v || !LLVMIsALoadInst(v)) return -1;
  LLVMValueRef a = LLVMGetOperand(v, 0);
  if (a == arr) return 0;
  if (!LLVMIsAGetElementPtrInst(a) || LLVMGetNumOperands(a) != 2 || LLVMGetOperand(a, 0) != arr) return -1;
  LLVMValueRef i = LLVMGetOperand(a, 1);
  if (!LLVMIsAConstantInt(i)) return -1;
  long long k = LLVMConstIntGetSExtValue(i);
  return k >= 0 && k < INT32_MAX ? (int)k : -1;
}

/* The loads and stores of fn with their slot (-1: none known). */
typedef struct Access {
  LLVMValueRef inst;
  int slot;
} Access;
typedef VEC(Access) AccessVec;

static void kernel_accesses(LLVMValueRef fn, AccessVec *out) {
  LLVMValueRef arr = LLVMGetParam(fn, 1);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      LLVMValueRef p;
      if (LLVMIsALoadInst(in)) p = LLVMGetOperand(in, 0);
      else if (LLVMIsAStoreInst(in)) p = LLVMGetOperand(in, 1);
      else continue;
      while (LLVMIsAGetElementPtrInst(p)) p = LLVMGetOperand(p, 0);
      VEC_PUSH(*out, ((Access){in, slot_of(p, arr)}));
    }
}

static void kernel_scopes(Lower *L, LLVMValueRef fn, Value *const *bufs, int n) {
  Cg *cg = &L->cg;
  intptr_t state = (intptr_t)ptrmap_get(&L->scoped, fn);
  if (state == 2 || n < 2 || LLVMCountParams(fn) != 2) return;
  unsigned k_scope = LLVMGetMDKindIDInContext(cg->ctx, "alias.scope", 11);
  unsigned k_noalias = LLVMGetMDKindIDInContext(cg->ctx, "noalias", 7);
  AccessVec acc = {0};
  kernel_accesses(fn, &acc);
  if (state == 1) {
    for (int i = 0; i < acc.len; i++) {
      LLVMSetMetadata(acc.data[i].inst, k_scope, NULL);
      LLVMSetMetadata(acc.data[i].inst, k_noalias, NULL);
    }
    ptrmap_put(&L->scoped, fn, (void *)2);
    VEC_FREE(acc);
    return;
  }
  ptrmap_put(&L->scoped, fn, (void *)1);
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  char buf[96];
  snprintf(buf, sizeof buf, "xlac.%.*s", (int)(len < 64 ? len : 64), name);
  LLVMMetadataRef dom_name = LLVMMDStringInContext2(cg->ctx, buf, strlen(buf));
  LLVMMetadataRef dom = LLVMMDNodeInContext2(cg->ctx, &dom_name, 1);
  LLVMMetadataRef *scope = xcalloc((size_t)n, sizeof *scope), *list = xcalloc((size_t)n, sizeof *list);
  LLVMValueRef *own = xcalloc((size_t)n, sizeof *own), *others = xcalloc((size_t)n, sizeof *others);
  for (int k = 0; k < n; k++) {
    snprintf(buf, sizeof buf, "xlac.%.*s.%d", (int)(len < 64 ? len : 64), name, k);
    LLVMMetadataRef ops[2] = {LLVMMDStringInContext2(cg->ctx, buf, strlen(buf)), dom};
    scope[k] = LLVMMDNodeInContext2(cg->ctx, ops, 2);
    own[k] = LLVMMetadataAsValue(cg->ctx, LLVMMDNodeInContext2(cg->ctx, &scope[k], 1));
  }
  for (int k = 0; k < n; k++) {
    int m = 0;
    for (int j = 0; j < n; j++)
      if (j != k && lower_buffers_apart(L, bufs[k], bufs[j])) list[m++] = scope[j];
    others[k] = m ? LLVMMetadataAsValue(cg->ctx, LLVMMDNodeInContext2(cg->ctx, list, (size_t)m)) : NULL;
  }
  for (int i = 0; i < acc.len; i++) {
    int k = acc.data[i].slot;
    if (k < 0 || k >= n || !others[k]) continue;
    LLVMSetMetadata(acc.data[i].inst, k_scope, own[k]);
    LLVMSetMetadata(acc.data[i].inst, k_noalias, others[k]);
  }
  xfree(scope);
  xfree(list);
  xfree(own);
  xfree(others);
  VEC_FREE(acc);
}

void call_kernel(Lower *L, LLVMValueRef kfn, int64_t nchunks, Value *const *bufs, int nbufs) {
  if (nchunks <= 0) return;
  kernel_scopes(L, kfn, bufs, nbufs);
  call_kernel_arr(L, kfn, nchunks, ptr_array(L, bufs, nbufs));
}

void call_kernel_ptrs(Lower *L, LLVMValueRef kfn, int64_t nchunks, LLVMValueRef *ptrs, int n) {
  if (nchunks > 0) call_kernel_arr(L, kfn, nchunks, ptr_array_of(L, ptrs, n));
}

void call_kernel_vals(Lower *L, LLVMValueRef kfn, int64_t nchunks, LLVMValueRef *ptrs, Value *const *vals, int n) {
  if (nchunks <= 0) return;
  kernel_scopes(L, kfn, vals, n);
  call_kernel_arr(L, kfn, nchunks, ptr_array_of(L, ptrs, n));
}

void lower_count_fusion(Lower *L) { L->exe->stats.fusions++; }

/* Tries to compile op natively; false when it must go through the thunk. */
static bool lower_native(Lower *L, Op *op) {
  if (lower_dot(L, op) || lower_row(L, op) || lower_indexing(L, op) || lower_linalg(L, op) || lower_random(L, op) ||
      lower_ragged_dot(L, op) || lower_custom_call(L, op) || lower_collective(L, op))
    return true;
  LLVMBasicBlockRef at = LLVMGetInsertBlock(L->cg.b);
  Value *inputs[64], *roots[64];
  Op *reduces[64] = {0};
  KernelSpec k = {inputs, 0, roots, 0, reduces};
  Func *callee = NULL;
  if (op->kind == OP_CALL && op_attr(op, "fusion_kind")) {
    const char *name = op_attr_str(op, "callee");
    callee = name ? module_find_func(L->cg.m, name) : NULL;
    if (!callee || callee->body->nargs > 64 || op->nres > 64) return false;
    Op *ret = block_terminator(callee->body);
    if (!ret || ret->nopnds != op->nres) return false;
    k.ninputs = callee->body->nargs;
    for (int i = 0; i < k.ninputs; i++) inputs[i] = callee->body->args[i];
    k.nroots = ret->nopnds;
    for (int i = 0; i < k.nroots; i++) roots[i] = ret->opnds[i];
  } else {
    if (op->nopnds > 64 || op->nres > 64 || op->nregions > 1) return false;
    k.ninputs = op->nopnds;
    for (int i = 0; i < op->nopnds; i++) inputs[i] = op->opnds[i];
    k.nroots = op->nres;
    for (int i = 0; i < op->nres; i++) roots[i] = &op->res[i];
  }
  if (k.nroots == 0) return false;
  for (int i = 0; i < k.nroots; i++)
    if (roots[i]->type->kind != TY_TENSOR || !cg_elem_native(roots[i]->type->elem) || roots[i]->type->quant)
      return false;
  /* a reduction kernel when every root is a simple reduce */
  bool all_reduce = true;
  for (int i = 0; i < k.nroots; i++) {
    Op *d = roots[i]->def;
    all_reduce = all_reduce && d && d->kind == OP_REDUCE;
    reduces[i] = d;
  }
  LLVMValueRef kfn = NULL;
  int64_t nchunks = 0;
  if (all_reduce) {
    /* (also checks that everything feeding the reduces is elemental) */
    if (!reduce_kernel_ok(&k)) return false;
    kfn = emit_reduce_kernel(L, &k, &nchunks);
  } else {
    for (int i = 1; i < k.nroots; i++)
      if (!type_same_shape(roots[i]->type, roots[0]->type)) return false;
    if (roots[0]->type->rank > CG_MAX_RANK) return false;
    if (!elemental_supported(roots, k.nroots, inputs, k.ninputs)) return false;
    /* a lone constant needs no kernel */
    kfn = emit_loop_kernel(L, &k, &nchunks);
  }
  /* back in the entry function */
  LLVMPositionBuilderAtEnd(L->cg.b, at);
  call_kernel_op(L, kfn, nchunks, op);
  if (callee) lower_count_fusion(L);
  return true;
}

/* Values used inside op's regions but defined outside them. */
static void note_defs(Block *b, PtrMap *defs) {
  for (int i = 0; i < b->nargs; i++) ptrmap_put(defs, b->args[i], (void *)1);
  for (Op *o = b->first; o; o = o->next) {
    for (int i = 0; i < o->nres; i++) ptrmap_put(defs, &o->res[i], (void *)1);
    for (int r = 0; r < o->nregions; r++) note_defs(o->regions[r], defs);
  }
}

typedef VEC(Value *) ValueVec;

static void find_caps(Block *b, PtrMap *defs, PtrMap *seen, ValueVec *caps) {
  for (Op *o = b->first; o; o = o->next) {
    for (int i = 0; i < o->nopnds; i++) {
      Value *v = o->opnds[i];
      if (ptrmap_has(defs, v) || ptrmap_has(seen, v)) continue;
      ptrmap_put(seen, v, (void *)1);
      VEC_PUSH(*caps, v);
    }
    for (int r = 0; r < o->nregions; r++) find_caps(o->regions[r], defs, seen, caps);
  }
}

static void lower_fallback(Lower *L, Op *op) {
  Cg *cg = &L->cg;
  PtrMap defs = {0}, seen = {0};
  ValueVec caps = {0};
  for (int r = 0; r < op->nregions; r++) note_defs(op->regions[r], &defs);
  for (int r = 0; r < op->nregions; r++) find_caps(op->regions[r], &defs, &seen, &caps);
  ptrmap_free(&defs);
  ptrmap_free(&seen);
  int n = op->nopnds + op->nres + caps.len;
  Value **bufs = xcalloc((size_t)(n + 1), sizeof(Value *));
  int nb = 0;
  for (int i = 0; i < op->nopnds; i++) bufs[nb++] = op->opnds[i];
  for (int i = 0; i < op->nres; i++) bufs[nb++] = &op->res[i];
  for (int i = 0; i < caps.len; i++) bufs[nb++] = caps.data[i];
  /* ahead of time there is no interpreter: the op is reported (cpu_compile) */
  if (!L->aot) {
    LLVMValueRef arr = ptr_array(L, bufs, nb);
    LLVMValueRef args[3] = {L->p_exe, cg_i64(cg, L->fallback.len), arr};
    LLVMBuildCall2(cg->b, cg->ty_fallback, cg->fn_fallback, args, 3, "");
  }
  xfree(bufs);
  Fallback fb = {op, caps.len, caps.data};
  VEC_PUSH(L->fallback, fb);
}

static bool type_plain(const Type *t) { return t->kind == TY_TENSOR; }

static bool func_has_only_tensors(Func *f) {
  for (int i = 0; i < f->body->nargs; i++)
    if (!type_plain(f->body->args[i]->type)) return false;
  for (int i = 0; i < f->nresults; i++)
    if (!type_plain(f->result_types[i])) return false;
  for (Op *op = f->body->first; op; op = op->next) {
    for (int i = 0; i < op->nres; i++)
      if (op->res[i].type->kind == TY_TUPLE || op->res[i].type->kind == TY_FUTURE) return false;
  }
  return true;
}

/* The Cg of the CPU backend: the basic one, and the runtime functions its
   kernels call. */
static void cpu_cg_init(Cg *cg, LLVMContextRef ctx, Module *m) {
  cg_init(cg, ctx, m, "xlac");
  LLVMTypeRef task_params[2] = {cg->t_i64, cg->t_ptr};
  cg->ty_task = LLVMFunctionType(cg->t_void, task_params, 2, 0);
  LLVMTypeRef pf[4] = {cg->t_ptr, cg->t_i64, cg->t_ptr, cg->t_ptr};
  cg->ty_parallel_for = LLVMFunctionType(cg->t_void, pf, 4, 0);
  cg->fn_parallel_for = LLVMAddFunction(cg->mod, "xlacrt_parallel_for", cg->ty_parallel_for);
  LLVMTypeRef fb[3] = {cg->t_ptr, cg->t_i64, cg->t_ptr};
  cg->ty_fallback = LLVMFunctionType(cg->t_void, fb, 3, 0);
  cg->fn_fallback = LLVMAddFunction(cg->mod, "xlac_rt_fallback", cg->ty_fallback);
}

static void copy_value(Lower *L, Value *src, LLVMValueRef dst) {
  Cg *cg = &L->cg;
  int64_t nb = type_bytes(src->type);
  if (nb <= 0) return;
  LLVMBuildMemCpy(cg->b, dst, 1, value_ptr(L, src), 1, cg_i64(cg, nb));
}

static void lower_block(Lower *L, Block *b);

/* Loads the scalar of a rank-0 buffer as i64 (pred/int) for branching. */
static LLVMValueRef load_scalar_i64(Lower *L, Value *v) {
  Cg *cg = &L->cg;
  ElemType et = v->type->elem;
  LLVMValueRef x = cg_load(cg, et, value_ptr(L, v), cg_i64(cg, 0));
  if (et == ET_PRED) return LLVMBuildZExt(cg->b, x, cg->t_i64, "");
  return et_is_signed(et) ? LLVMBuildSExt(cg->b, x, cg->t_i64, "") : LLVMBuildZExt(cg->b, x, cg->t_i64, "");
}

/* dst's buffer <- src's buffer (no-op when they are the same storage) */
static void copy_between(Lower *L, Value *src, Value *dst) {
  int64_t so = -1, d_o = -1;
  BufferKind sk = buffers_lookup(L->buffers, src, &so), dk = buffers_lookup(L->buffers, dst, &d_o);
  if (sk == dk && so == d_o && sk != BUF_CONST && sk != BUF_NONE) return;
  copy_value(L, src, value_ptr(L, dst));
}

/* A bitcast_convert that keeps the element type: a quantized value viewed
   as its storage integers or back (quant-lower leaves these at function
   boundaries).  The bits are the same, so it is a copy.  A reshape that
   buffer assignment computed in place: nothing to do (its bytes are
   there). */
static bool lower_view(Lower *L, Op *op) {
  /* a fusion whose results its users read through views of its operands
     (cpu_reads_view) computes nothing */
  bool views = op->kind == OP_CALL && op->nres > 0;
  for (int r = 0; r < op->nres && views; r++) views = buffers_is_view(L->buffers, &op->res[r]);
  if (views) return true;
  if (op->kind == OP_RESHAPE && op->nopnds == 1 && op->nres == 1 &&
      buffers_same_storage(L->buffers, op->opnds[0], &op->res[0]))
    return true;
  if (op->kind != OP_BITCAST_CONVERT || op->nopnds != 1 || op->nres != 1) return false;
  const Type *a = op->opnds[0]->type, *r = op->res[0].type;
  if (a->kind != TY_TENSOR || r->kind != TY_TENSOR || a->elem != r->elem || !type_same_shape(a, r))
    return false;
  copy_between(L, op->opnds[0], &op->res[0]);
  return true;
}

/* Whether v's storage is that of one of dsts other than dsts[i]: a loop's
   own state (its region arguments, or a value updated in place in a state
   buffer), which the copies into dsts could overwrite before it is read. */
static bool in_other_dst(Lower *L, Value *v, Value *const *dsts, int n, int i) {
  int64_t ov = -1;
  BufferKind kv = buffers_lookup(L->buffers, v, &ov);
  if (kv != BUF_TEMP && kv != BUF_RESULT) return false;
  for (int k = 0; k < n; k++) {
    int64_t od = -2;
    if (k != i && buffers_lookup(L->buffers, dsts[k], &od) == kv && od == ov) return true;
  }
  return false;
}

/* Copies a region's returned values into `dsts` (the op's result buffers or
   loop state), through scratch when a returned value lives in another
   destination's storage (a permutation of the loop state). */
static void copy_returns(Lower *L, Block *b, Value *const *dsts, int n) {
  Cg *cg = &L->cg;
  Op *ret = block_terminator(b);
  if (!ret) return;
  LLVMValueRef *scratch = xcalloc((size_t)(n + 1), sizeof(LLVMValueRef));
  for (int i = 0; i < n && i < ret->nopnds; i++) {
    Value *v = ret->opnds[i];
    if (in_other_dst(L, v, dsts, n, i)) {
      /* through the runtime, which records a failed allocation in the
         run's status instead of handing back NULL to copy into */
      int64_t nb = type_bytes(v->type);
      LLVMTypeRef pt[2] = {cg->t_ptr, cg->t_i64};
      LLVMTypeRef fty = LLVMFunctionType(cg->t_ptr, pt, 2, 0);
      LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, "xlacrt_save_copy");
      if (!fn) fn = LLVMAddFunction(cg->mod, "xlacrt_save_copy", fty);
      LLVMValueRef args[2] = {value_ptr(L, v), cg_i64(cg, nb)};
      scratch[i] = LLVMBuildCall2(cg->b, fty, fn, args, 2, "swap");
    }
  }
  for (int i = 0; i < n && i < ret->nopnds; i++) {
    if (scratch[i]) {
      LLVMTypeRef pt[3] = {cg->t_ptr, cg->t_ptr, cg->t_i64};
      LLVMTypeRef fty = LLVMFunctionType(cg->t_void, pt, 3, 0);
      LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, "xlacrt_restore_free");
      if (!fn) fn = LLVMAddFunction(cg->mod, "xlacrt_restore_free", fty);
      LLVMValueRef args[3] = {value_ptr(L, dsts[i]), scratch[i], cg_i64(cg, type_bytes(dsts[i]->type))};
      LLVMBuildCall2(cg->b, fty, fn, args, 3, "");
    } else {
      copy_between(L, ret->opnds[i], dsts[i]);
    }
  }
  xfree(scratch);
}

static bool region_types_plain(Op *op) {
  for (int i = 0; i < op->nres; i++)
    if (op->res[i].type->kind != TY_TENSOR) return false;
  for (int i = 0; i < op->nopnds; i++)
    if (op->opnds[i]->type->kind != TY_TENSOR) return false;
  return true;
}

/* Control flow keeps one invariant: the block being emitted into is always
   the entry function's last block (new blocks are appended only when
   emission moves into them, and branches into them are added afterwards),
   so every emitter can find its place with LLVMGetLastBasicBlock. */
static LLVMBasicBlockRef append_block(Lower *L, const char *name) {
  LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(L->cg.ctx, L->fn, name);
  LLVMPositionBuilderAtEnd(L->cg.b, bb);
  return bb;
}

static bool lower_control(Lower *L, Op *op) {
  Cg *cg = &L->cg;
  if (!region_types_plain(op)) return false;
  switch (op->kind) {
  case OP_WHILE: {
    if (op->nregions != 2) return false;
    Block *cond = op->regions[0], *body = op->regions[1];
    Value **state = xcalloc((size_t)(op->nres + 1), sizeof(Value *));
    for (int i = 0; i < op->nres; i++) state[i] = &op->res[i];
    for (int i = 0; i < op->nopnds; i++) copy_between(L, op->opnds[i], state[i]);
    lower_loop_prepack(L, op);
    LLVMBasicBlockRef before = LLVMGetInsertBlock(cg->b);
    LLVMBasicBlockRef head = append_block(L, "while.head");
    LLVMPositionBuilderAtEnd(cg->b, before);
    LLVMBuildBr(cg->b, head);
    /* every iteration first polls the cancel flag (one relaxed load); when
       it is set, the loop reports and the execution returns */
    if (!L->p_cancel) {
      LLVMBasicBlockRef cur = cg_enter_entry(cg, L->fn);
      LLVMTypeRef fty = LLVMFunctionType(cg->t_ptr, &cg->t_ptr, 1, 0);
      LLVMValueRef fn = LLVMAddFunction(cg->mod, L->aot ? "xlacrt_aot_cancel_flag" : "xlac_rt_cancel_flag", fty);
      L->p_cancel = LLVMBuildCall2(cg->b, fty, fn, &L->p_exe, 1, "cancel");
      LLVMPositionBuilderAtEnd(cg->b, cur);
    }
    LLVMPositionBuilderAtEnd(cg->b, head);
    LLVMValueRef flag = LLVMBuildLoad2(cg->b, cg->t_i32, L->p_cancel, "stop");
    LLVMSetOrdering(flag, LLVMAtomicOrderingMonotonic);
    LLVMSetAlignment(flag, 4);
    LLVMValueRef stop = LLVMBuildICmp(cg->b, LLVMIntNE, flag, LLVMConstInt(cg->t_i32, 0, 0), "");
    LLVMBasicBlockRef stopb = append_block(L, "while.stop");
    {
      LLVMTypeRef pt[2] = {cg->t_ptr, cg->t_i64};
      LLVMTypeRef fty = LLVMFunctionType(cg->t_void, pt, 2, 0);
      const char *hook = L->aot ? "xlacrt_aot_loop_stopped" : "xlac_rt_loop_stopped";
      LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, hook);
      if (!fn) fn = LLVMAddFunction(cg->mod, hook, fty);
      LLVMValueRef args[2] = {L->p_exe, cg_i64(cg, L->loops.len)};
      LLVMBuildCall2(cg->b, fty, fn, args, 2, "");
      LLVMBuildRetVoid(cg->b);
      VEC_PUSH(L->loops, op);
    }
    LLVMBasicBlockRef condb = append_block(L, "while.cond");
    LLVMPositionBuilderAtEnd(cg->b, head);
    LLVMBuildCondBr(cg->b, stop, stopb, condb);
    LLVMPositionBuilderAtEnd(cg->b, condb);
    lower_block(L, cond);
    Op *cret = block_terminator(cond);
    LLVMValueRef c = LLVMBuildICmp(cg->b, LLVMIntNE, load_scalar_i64(L, cret->opnds[0]), cg_i64(cg, 0), "");
    LLVMBasicBlockRef cond_end = LLVMGetInsertBlock(cg->b);
    LLVMBasicBlockRef loop = append_block(L, "while.body");
    lower_block(L, body);
    copy_returns(L, body, state, op->nres);
    LLVMBuildBr(cg->b, head);
    LLVMBasicBlockRef exitb = append_block(L, "while.exit");
    LLVMPositionBuilderAtEnd(cg->b, cond_end);
    LLVMBuildCondBr(cg->b, c, loop, exitb);
    LLVMPositionBuilderAtEnd(cg->b, exitb);
    xfree(state);
    return true;
  }
  case OP_IF:
  case OP_CASE: {
    int nb = op->nregions;
    if (nb == 0) return false;
    Value **outs = xcalloc((size_t)(op->nres + 1), sizeof(Value *));
    for (int i = 0; i < op->nres; i++) outs[i] = &op->res[i];
    LLVMValueRef sel = load_scalar_i64(L, op->opnds[0]);
    LLVMBasicBlockRef start = LLVMGetInsertBlock(cg->b);
    LLVMBasicBlockRef *bbs = xcalloc((size_t)nb, sizeof(LLVMBasicBlockRef));
    LLVMBasicBlockRef *ends = xcalloc((size_t)nb, sizeof(LLVMBasicBlockRef));
    for (int r = 0; r < nb; r++) {
      bbs[r] = append_block(L, "branch");
      lower_block(L, op->regions[r]);
      copy_returns(L, op->regions[r], outs, op->nres);
      ends[r] = LLVMGetInsertBlock(cg->b);
    }
    LLVMBasicBlockRef join = append_block(L, "join");
    for (int r = 0; r < nb; r++) {
      LLVMPositionBuilderAtEnd(cg->b, ends[r]);
      LLVMBuildBr(cg->b, join);
    }
    LLVMPositionBuilderAtEnd(cg->b, start);
    if (op->kind == OP_IF) {
      LLVMValueRef c = LLVMBuildICmp(cg->b, LLVMIntNE, sel, cg_i64(cg, 0), "");
      LLVMBuildCondBr(cg->b, c, bbs[0], nb > 1 ? bbs[1] : join);
    } else {
      /* out-of-range indices take the last branch */
      LLVMValueRef sw = LLVMBuildSwitch(cg->b, sel, bbs[nb - 1], (unsigned)nb);
      for (int r = 0; r < nb - 1; r++) LLVMAddCase(sw, cg_i64(cg, r), bbs[r]);
    }
    LLVMPositionBuilderAtEnd(cg->b, join);
    xfree(bbs);
    xfree(ends);
    xfree(outs);
    return true;
  }
  default:
    return false;
  }
}

/* Lowers the ops of a block (a function body or a while/if/case region)
   into the entry function at the builder's position, which it leaves at
   the end of the emitted code. */
/* Profiling (CpuOptions.profile): the clock is read before an op and
   xlac_rt_prof_add adds the time since to the op's entry after it. */
static LLVMValueRef prof_begin(Lower *L) {
  Cg *cg = &L->cg;
  LLVMTypeRef fty = LLVMFunctionType(cg->t_i64, NULL, 0, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, "xlac_rt_prof_now");
  if (!fn) fn = LLVMAddFunction(cg->mod, "xlac_rt_prof_now", fty);
  return LLVMBuildCall2(cg->b, fty, fn, NULL, 0, "t0");
}

static void prof_end(Lower *L, Op *op, LLVMValueRef t0) {
  Cg *cg = &L->cg;
  LLVMTypeRef pt[3] = {cg->t_ptr, cg->t_i64, cg->t_i64};
  LLVMTypeRef fty = LLVMFunctionType(cg->t_void, pt, 3, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, "xlac_rt_prof_add");
  if (!fn) fn = LLVMAddFunction(cg->mod, "xlac_rt_prof_add", fty);
  LLVMValueRef args[3] = {L->p_exe, cg_i64(cg, L->prof_ops.len), t0};
  LLVMBuildCall2(cg->b, fty, fn, args, 3, "");
  VEC_PUSH(L->prof_ops, op);
  VEC_PUSH(L->prof_depth, L->depth);
}

/* Whether v is a tensor of 16-bit floats whose vector arithmetic LLVM
   prices too high (bfloat always; half where the CPU has no AVX512-FP16). */
static bool half_lanes(const Value *v, bool fp16) {
  const Type *t = v->type;
  return t->kind == TY_TENSOR && (t->elem == ET_BF16 || (t->elem == ET_F16 && !fp16));
}

/* The vector width the loops of op's kernels ask for (cg_loop_width), or
   0 to leave it to LLVM.  Over 16-bit floats LLVM's vectorizer prices the
   conversions to float and the roundings back as if scalarized and picks
   4 lanes: a layer norm and GELU over 256 x 512 bfloat took 1.44 ms that
   way and 0.40 ms at 32 lanes (0.13 ms in f32). */
static int loop_width(Lower *L, const Op *op) {
  if (L->aot) return 0; /* the host's CPU is not the target's */
  bool fp16 = jit_host_has_feature("avx512fp16"), wide = jit_host_has_feature("avx512f");
  const char *callee = op->kind == OP_CALL ? op_attr_str(op, "callee") : NULL;
  Func *f = callee ? module_find_func(L->exe->m, callee) : NULL;
  bool half = false;
  for (int i = 0; i < op->nopnds && !half; i++) half = half_lanes(op->opnds[i], fp16);
  for (int i = 0; i < op->nres && !half; i++) half = half_lanes(&op->res[i], fp16);
  for (Op *o = f ? f->body->first : NULL; o && !half; o = o->next)
    for (int i = 0; i < o->nres && !half; i++) half = half_lanes(&o->res[i], fp16);
  return half ? (wide ? 32 : 16) : 0;
}

LLVMValueRef lower_temp_ptr(Lower *L, int64_t off) {
  LLVMValueRef i = cg_i64(&L->cg, off);
  return LLVMBuildGEP2(L->cg.b, L->cg.t_i8, L->p_temp, &i, 1, "");
}

int64_t lower_scratch(Lower *L, int64_t bytes) {
  int64_t off = L->scratch_top;
  L->scratch_top += (bytes + 63) & ~(int64_t)63;
  if (L->scratch_top > L->buffers->temp_bytes) L->buffers->temp_bytes = L->scratch_top;
  return off;
}

static void lower_block(Lower *L, Block *b) {
  Cg *cg = &L->cg;
  Op *ret = block_terminator(b);
  L->depth++;
  for (Op *op = b->first; op && op != ret; op = op->next) {
    if (op->kind == OP_CONSTANT) continue;
    /* the ops of the function's body run one after another, each done
       before the next starts (kernels return when all their chunks are
       done): what one takes as scratch is free again for the next.  Ops in
       regions keep theirs until their top-level op ends (a loop's packed
       operands are read in every iteration). */
    int64_t scratch_mark = L->scratch_top;
    LLVMBasicBlockRef at = LLVMGetInsertBlock(cg->b);
    LLVMValueRef t0 = L->profile ? prof_begin(L) : NULL;
    if (lower_control(L, op)) {
      L->exe->stats.native_ops++;
    } else if (scatter_takes_update(L, op) || lower_view(L, op) ||
               (cg->loop_vf = loop_width(L, op), lower_native(L, op))) {
      cg->loop_vf = 0;
      L->exe->stats.native_ops++;
    } else {
      cg->loop_vf = 0;
      LLVMPositionBuilderAtEnd(cg->b, at);
      lower_fallback(L, op);
      L->exe->stats.fallback_ops++;
    }
    if (t0) prof_end(L, op, t0);
    if (L->depth == 0) L->scratch_top = scratch_mark;
  }
  L->depth--;
}

/* What LLVM holds for a compilation in progress, released by an
   out-of-memory unwind (fields are cleared as ownership moves on). */
typedef struct LlvmHold {
  void *tsc;
  LLVMModuleRef mod;
  LLVMBuilderRef b;
} LlvmHold;

static void llvm_hold_release(void *p) {
  LlvmHold *h = p;
  if (h->b) LLVMDisposeBuilder(h->b);
  if (h->mod) LLVMDisposeModule(h->mod);
  if (h->tsc) jit_dispose_context(h->tsc);
}

/* The rest of cpu_compile ahead of time: every op the interpreter would
   run is an error; the object is written (aot.c) and the executable only
   keeps its statistics. */
static CpuExecutable *compile_aot(Lower *L, CpuExecutable *exe, void *tsc, OomCleanup *hold_cleanup, double t0) {
  bool ok = true;
  for (int i = 0; i < exe->nfallback; i++) {
    Op *op = exe->fallback_ops[i].op;
    error_at(op->loc, "'%s' has no native code for ahead-of-time compilation (the JIT runs it in the "
             "reference interpreter, which an object file does not include)", op_info[op->kind].name);
    ok = false;
  }
  ok = ok && aot_finish(L, exe->flat, exe->temp_bytes, exe->nloops);
  oom_cleanup_pop(hold_cleanup);
  LLVMDisposeModule(L->cg.mod);
  jit_dispose_context(tsc);
  if (!ok) {
    cpu_executable_free(exe);
    return NULL;
  }
  exe->stats.compile_ms = now_ms() - t0;
  if (exe->stats.compile_threads < 1) exe->stats.compile_threads = 1;
  return exe;
}

/* Was the compilation cancelled (--timeout, xlac_cancel) before `what`?
   Says so at the entry function. */
static bool compile_stopped(const CpuOptions *o, const Func *entry, const char *what) {
  if (!o->cancel || !atomic_load(&o->cancel->stop)) return false;
  error_at(entry->loc, "compilation stopped before %s: %s", what, o->cancel->reason ? o->cancel->reason : "cancelled");
  return true;
}

CpuExecutable *cpu_compile(Module *m, Func *entry, const CpuOptions *o) {
  double t0 = now_ms();
  CpuExecutable *exe = xcalloc(1, sizeof(CpuExecutable));
  exe->m = m;
  exe->entry = entry;
  exe->own_pool = !o->pool;
  exe->pool = o->pool ? o->pool : xlacrt_pool_create(o->threads);

  DumpOptions dump = {o->dump_dir, o->dump_pass_re, o->dump_as_dot, o->dump_as_html, o->module_id, o->no_fusion};
  dump_module(&dump, m, "before_optimizations");
  /* tuples in the signature become lists of tensors; the flat copy must stay
     public so dead-code elimination keeps it */
  exe->flat = flatten_entry(m, entry);
  exe->flat->is_private = false;
  /* in HLO every computation is public and dce keeps what the ENTRY
     reaches: the function compiled is the ENTRY from here on (the original
     is only read for its result types, to rebuild tuples) */
  if (m->format == SRC_HLO) m->entry = exe->flat;
  PassOptions po = {0};
  po.verify_each = o->verify_each;
  po.fuse = !o->no_fusion;
  po.hoist_limit = -1; /* a step's product stays in the cache here (passes/hoist.c) */
  po.after_pass = dump_after_pass;
  po.ud = &dump;
  if (o->cancel) {
    po.stop = &o->cancel->stop;
    po.stop_reason = o->cancel->reason;
  }
  if (!run_cpu_pipeline(m, &po)) {
    cpu_executable_free(exe);
    return NULL;
  }
  double t_ir = now_ms();
  exe->stats.passes_ms = t_ir - t0;
  dump_module(&dump, m, "after_optimizations");
  /* an unknown custom_call target is a compile error, wherever it is
     (ahead of time, targets are the linking program's C functions) */
  if (!resolve_custom_calls(m, exe->flat, o->aot != NULL)) {
    cpu_executable_free(exe);
    return NULL;
  }
  entry = exe->flat;
  if (o->aot && !func_has_only_tensors(entry)) {
    error_at(entry->loc, "ahead-of-time compilation needs a function whose parameters, results and top-level "
             "values are tensors (tuples and futures inside the body run in the interpreter, which an object "
             "file does not have)");
    cpu_executable_free(exe);
    return NULL;
  }
  if (!func_has_only_tensors(entry)) {
    /* tuples and futures at the top level are not compiled yet */
    exe->interpreted = true;
    exe->stats.fallback_ops = 1;
    exe->stats.compile_ms = now_ms() - t0;
    return exe;
  }

  LLVMContextRef ctx;
  void *tsc = jit_new_context(&ctx);
  LlvmHold hold = {tsc, NULL, NULL};
  OomCleanup hold_cleanup;
  oom_cleanup_push(&hold_cleanup, llvm_hold_release, &hold);
  Lower L;
  memset(&L, 0, sizeof L);
  L.exe = exe;
  L.aot = o->aot;
  L.profile = o->profile && !o->aot;
  L.alias_param = o->alias_param;
  L.nalias = o->nalias;
  exe->flush_denormals = o->flush_denormals;
  L.depth = -1;
  cpu_cg_init(&L.cg, ctx, m);
  if (!o->aot) L.cg.ext = &exe->data;
  Cg *cg = &L.cg;
  hold.mod = cg->mod;
  hold.b = cg->b;
  LLVMTypeRef ep[5] = {cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_ptr};
  L.fn = LLVMAddFunction(cg->mod, "xlac_entry", LLVMFunctionType(cg->t_void, ep, 5, 0));
  L.p_params = LLVMGetParam(L.fn, 0);
  L.p_results = LLVMGetParam(L.fn, 1);
  L.p_temp = LLVMGetParam(L.fn, 2);
  L.p_pool = LLVMGetParam(L.fn, 3);
  L.p_exe = LLVMGetParam(L.fn, 4);
  LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(ctx, L.fn, "entry"));

  BufferOptions bo = {.reads_view = cpu_reads_view};
  L.buffers = buffers_assign_with(m, entry, &bo);
  L.scratch_top = L.buffers->temp_bytes;
  if (o->dump_dir) {
    StrBuf bb = {0};
    buffers_print(&bb, L.buffers);
    dump_text(&dump, m, "buffer-assignment.txt", bb.data ? bb.data : "");
    sb_free(&bb);
  }
  Op *ret = block_terminator(entry->body);
  lower_block(&L, entry->body);
  /* returned values that are not already in their result buffer */
  for (int i = 0; ret && i < ret->nopnds; i++) {
    int64_t idx_in = -1;
    if (buffers_lookup(L.buffers, ret->opnds[i], &idx_in) == BUF_RESULT && idx_in == i) continue;
    LLVMValueRef idx = cg_i64(cg, i);
    LLVMValueRef dst = LLVMBuildLoad2(cg->b, cg->t_ptr, LLVMBuildGEP2(cg->b, cg->t_ptr, L.p_results, &idx, 1, ""), "");
    copy_value(&L, ret->opnds[i], dst);
  }
  LLVMBuildRetVoid(cg->b);
  hold.b = NULL;
  LLVMDisposeBuilder(cg->b);

  exe->temp_bytes = L.buffers->temp_bytes;
  exe->stats.temp_bytes = L.buffers->temp_bytes;
  exe->fallback_ops = L.fallback.data;
  exe->nfallback = L.fallback.len;
  exe->loops = L.loops.data;
  exe->nloops = L.loops.len;
  exe->custom_calls = L.custom_calls.data;
  exe->ncustom = L.custom_calls.len;
  if (L.profile) {
    exe->nprof = L.prof_ops.len;
    exe->prof = xcalloc((size_t)exe->nprof + 1, sizeof(CpuProf));
    for (int i = 0; i < exe->nprof; i++)
      exe->prof[i] = (CpuProf){.op = L.prof_ops.data[i], .depth = L.prof_depth.data[i], .min = INT64_MAX};
  }
  VEC_FREE(L.prof_ops);
  VEC_FREE(L.prof_depth);
  /* donated parameters a result can be computed into */
  exe->nres_flat = entry->nresults;
  exe->in_place = xcalloc((size_t)entry->nresults + 1, sizeof(bool));
  exe->nalias = o->nalias > 0 && o->alias_param ? o->nalias : 0;
  exe->alias = xcalloc((size_t)exe->nalias + 1, sizeof(int));
  if (exe->nalias) memcpy(exe->alias, o->alias_param, (size_t)exe->nalias * sizeof(int));
  for (int r = 0; r < o->nalias && r < entry->nresults && exe->flat == exe->entry; r++)
    if (o->alias_param[r] >= 0) exe->in_place[r] = result_in_place(m, entry, L.buffers, r, o->alias_param[r]);
  buffers_free(L.buffers);
  ptrmap_free(&L.prepacked);
  ptrmap_free(&L.scoped);
  ptrmap_free(&cg->const_globals);
  if (o->aot) return compile_aot(&L, exe, tsc, &hold_cleanup, t0);

  char *err = NULL;
  int lvl = o->opt_level ? o->opt_level : 3;
  double t_opt = now_ms();
  exe->stats.ir_ms = t_opt - t_ir;
  /* large constants nothing reads (a kernel's weights once packed) */
  int ndata = 0;
  for (int i = 0; i < exe->data.len; i++) {
    CgData *d = &exe->data.data[i];
    LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, d->name);
    if (g && !LLVMGetFirstUse(g)) {
      LLVMDeleteGlobal(g);
      g = NULL;
    }
    if (g) exe->data.data[ndata++] = *d;
    else xfree(d->bytes);
  }
  exe->data.len = ndata;
  dump_llvm(&dump, m, "ir-no-opt.ll", cg->mod);
  if (getenv("XLAC_DEBUG_LLVM")) {
    char *ir = LLVMPrintModuleToString(cg->mod);
    fputs(ir, stderr);
    LLVMDisposeMessage(ir);
  }
  bool temp_fits = alloc_fits((size_t)exe->temp_bytes);
  if (!temp_fits)
    error_at(entry->loc, "out of memory: the program needs %lld bytes of temporary buffers, more than the "
             "allocation limit of %zu bytes (--max-alloc or XLAC_MAX_ALLOC)",
             (long long)exe->temp_bytes, alloc_limit_get());
  int nrt;
  const RuntimeSymbol *rt = runtime_symbols(&nrt);
  enum { NSYMS_OWN = 6 };
  JitSymbol *syms = xcalloc((size_t)nrt + NSYMS_OWN + (size_t)exe->data.len, sizeof(JitSymbol));
  for (int i = 0; i < nrt; i++) syms[i] = (JitSymbol){rt[i].name, rt[i].addr};
  syms[nrt] = (JitSymbol){"xlac_rt_fallback", (void *)xlac_rt_fallback};
  syms[nrt + 1] = (JitSymbol){"xlac_rt_device_id", (void *)xlac_rt_device_id};
  syms[nrt + 2] = (JitSymbol){"xlac_rt_cancel_flag", (void *)xlac_rt_cancel_flag};
  syms[nrt + 3] = (JitSymbol){"xlac_rt_loop_stopped", (void *)xlac_rt_loop_stopped};
  syms[nrt + 4] = (JitSymbol){"xlac_rt_prof_now", (void *)xlac_rt_prof_now};
  syms[nrt + 5] = (JitSymbol){"xlac_rt_prof_add", (void *)xlac_rt_prof_add};
  for (int i = 0; i < exe->data.len; i++) syms[nrt + NSYMS_OWN + i] = (JitSymbol){exe->data.data[i].name, exe->data.data[i].bytes};
  int nsyms = nrt + NSYMS_OWN + exe->data.len;
  /* the persistent compile cache (objcache.c): a valid entry for this IR is
     linked instead of optimizing it and generating code; dumps show the
     whole compilation, so with dump_dir the entry is only written */
  /* LLVM's optimizer and code generator cannot be interrupted: the last
     points where a cancelled compilation stops are before them */
  bool stopped = temp_fits && compile_stopped(o, entry, "LLVM's optimizer");
  ObjCache *oc = temp_fits && !stopped && o->cache_dir ? objcache_open(o->cache_dir, cg->mod, lvl, !o->dump_dir) : NULL;
  exe->jit = oc ? objcache_load(oc, syms, nsyms, "xlac_entry") : NULL;
  /* a large module is optimized and compiled on several threads
     (codegen/jit_split.c), but for dumps, which show one module */
  int nparts = exe->jit || o->dump_dir || !temp_fits || stopped
                   ? 1
                   : jit_split_parts(cg->mod, "xlac_entry", jit_compile_threads());
  if (exe->jit) {
    hold.mod = NULL;
    LLVMDisposeModule(cg->mod);
  } else if (nparts > 1) {
    hold.mod = NULL; /* consumed */
    double opt_ms = 0;
    LLVMMemoryBufferRef objs[JIT_SPLIT_MAX_PARTS];
    if (jit_compile_split(cg->mod, "xlac_entry", nparts, lvl, objs, &err, &opt_ms)) {
      if (oc) objcache_store(oc, objs, nparts);
      exe->jit = jit_create_from_buffers(objs, nparts, syms, nsyms, &err);
    }
    exe->stats.llvm_opt_ms = opt_ms > 0 ? opt_ms : 1e-3;
    exe->stats.compile_threads = nparts;
  } else if (!temp_fits || stopped || !jit_optimize(cg->mod, lvl, &err)) {
    oom_cleanup_pop(&hold_cleanup);
    if (err) error_at(entry->loc, "code generation failed: %s", err);
    xfree(err);
    xfree(syms);
    objcache_close(oc, &exe->stats);
    LLVMDisposeModule(cg->mod);
    jit_dispose_context(tsc);
    cpu_executable_free(exe);
    return NULL;
  } else {
    exe->stats.llvm_opt_ms = now_ms() - t_opt;
    dump_llvm(&dump, m, "ir-with-opt.ll", cg->mod);
    dump_object(&dump, m, cg->mod, o->opt_level);
    hold.mod = NULL; /* the JIT takes it */
    exe->jit = oc ? objcache_compile(oc, cg->mod, syms, nsyms, &err) : jit_create(cg->mod, syms, nsyms, &err);
  }
  objcache_close(oc, &exe->stats);
  xfree(syms);
  oom_cleanup_pop(&hold_cleanup);
  jit_dispose_context(tsc);
  if (!exe->jit) {
    error_at(entry->loc, "JIT failed: %s", err);
    xfree(err);
    cpu_executable_free(exe);
    return NULL;
  }
  if (compile_stopped(o, entry, "machine code")) {
    cpu_executable_free(exe);
    return NULL;
  }
  /* the JIT generates machine code when the entry is first looked up */
  exe->fn = (EntryFn)jit_lookup(exe->jit, "xlac_entry", &err);
  if (exe->stats.llvm_opt_ms > 0) exe->stats.machine_ms = now_ms() - t_opt - exe->stats.llvm_opt_ms;
  if (!exe->fn) {
    error_at(entry->loc, "JIT lookup failed: %s", err);
    xfree(err);
    cpu_executable_free(exe);
    return NULL;
  }
  exe->stats.compile_ms = now_ms() - t0;
  return exe;
}

static bool execute_flat(CpuExecutable *e, Interp *I, int nargs, IVal **args, IVal **results);

bool cpu_execute(CpuExecutable *e, Interp *I, int nargs, IVal **args, IVal **results) {
  if (e->flat == e->entry) return execute_flat(e, I, nargs, args, results);
  int nin = 0, k = 0;
  for (int i = 0; i < nargs; i++) nin += ival_leaf_count(args[i]);
  IVal **in = xcalloc((size_t)nin + 1, sizeof(IVal *));
  for (int i = 0; i < nargs; i++) ival_collect_leaves(args[i], in, &k);
  int nout = e->flat->nresults;
  IVal **out = xcalloc((size_t)(nout + 1), sizeof(IVal *));
  bool ok = execute_flat(e, I, nin, in, out);
  k = 0;
  for (int i = 0; ok && i < e->entry->nresults; i++) {
    ival_release(results[i]); /* storage reuse applies to flat results only */
    results[i] = ival_from_leaves(e->entry->result_types[i], out, &k);
  }
  for (int i = 0; i < nout; i++) ival_release(out[i]);
  xfree(out);
  xfree(in);
  return ok;
}

typedef struct RunHold {
  xlacrt_status *prev_status;
  CpuExecutable *e;
  char *temp;
  bool own;           /* temp is this execution's (else the executable's, busy) */
  bool flush;  /* the caller's floating-point mode to put back */
  unsigned fp;
} RunHold;

static void run_hold_release(void *p) {
  RunHold *h = p;
  xlacrt_status_swap(h->prev_status);
  fp_flush_end(h->flush, h->fp);
  if (h->own) xfree(h->temp);
  else atomic_flag_clear(&h->e->temp_busy);
}

static bool execute_flat(CpuExecutable *e, Interp *I, int nargs, IVal **args, IVal **results) {
  Func *f = e->flat;
  if (e->interpreted) {
    for (int i = 0; i < f->nresults; i++) {
      ival_release(results[i]);
      results[i] = NULL;
    }
    return interp_call(I, f, nargs, args, results);
  }
  if (nargs != f->body->nargs) return interp_error(I, NULL, "expected %d arguments, got %d", f->body->nargs, nargs);
  void **params = xcalloc((size_t)(nargs + 1), sizeof(void *));
  void **res = xcalloc((size_t)(f->nresults + 1), sizeof(void *));
  for (int i = 0; i < nargs; i++) {
    if (args[i]->kind != IV_TENSOR || !type_same_shape(args[i]->lit->type, f->body->args[i]->type) ||
        args[i]->lit->type->elem != f->body->args[i]->type->elem) {
      xfree(params);
      xfree(res);
      return interp_error(I, NULL, "argument %d does not match parameter type", i);
    }
    params[i] = args[i]->lit->data;
  }
  for (int i = 0; i < f->nresults; i++) {
    /* a caller may hand back last run's result to be overwritten (bench
       loops): reuse it when it is unshared and of the right type */
    IVal *r = results[i];
    bool reuse = r && r->kind == IV_TENSOR && r->refs == 1 && r->lit->type->elem == f->result_types[i]->elem &&
                 type_same_shape(r->lit->type, f->result_types[i]);
    /* never another result's storage, nor a parameter's but the one it
       is computed into (the kernels' alias scopes rely on it) */
    for (int j = 0; reuse && j < i; j++) reuse = res[j] != r->lit->data;
    for (int j = 0; reuse && j < nargs; j++)
      reuse = params[j] != r->lit->data || (i < e->nalias && e->alias[i] == j && e->in_place[i]);
    if (!reuse) {
      OomLoc prev = oom_set_loc(f->loc, "result buffers");
      results[i] = ival_new_tensor(f->result_types[i]);
      oom_restore_loc(prev);
    }
    res[i] = results[i]->lit->data;
  }
  /* the executable's arena, or a private one when another execution holds it */
  bool own = atomic_flag_test_and_set(&e->temp_busy);
  char *temp = NULL;
  if (e->temp_bytes) {
    if (own) {
      temp = try_aligned_alloc(64, (size_t)e->temp_bytes);
    } else {
      if (!e->temp) e->temp = try_aligned_alloc(64, (size_t)e->temp_bytes);
      temp = e->temp;
    }
    if (!temp) {
      if (!own) atomic_flag_clear(&e->temp_busy);
      xfree(params);
      xfree(res);
      for (int i = 0; i < f->nresults; i++) {
        ival_release(results[i]);
        results[i] = NULL;
      }
      error_at(f->loc, "out of memory: cannot allocate the %lld bytes of temporary buffers this program needs",
               (long long)e->temp_bytes);
      I->failed = true;
      return false;
    }
  }
  I->failed = false;
  CpuRun run = {e, I};
  /* runtime calls record failures (scratch memory) here */
  xlacrt_status rt_status = {0};
  xlacrt_status *prev_status = xlacrt_status_swap(&rt_status);
  /* an op run by the interpreter may run out of memory and unwind past
     the generated code: put the status and the arena back then */
  RunHold hold = {prev_status, e, temp, own, false, 0};
  OomCleanup hold_cleanup;
  oom_cleanup_push(&hold_cleanup, run_hold_release, &hold);
  /* the pool's workers take this thread's mode for the chunks they run */
  hold.fp = fp_flush_begin(e->flush_denormals);
  hold.flush = e->flush_denormals;
  e->fn(params, res, temp, e->pool, &run);
  fp_flush_end(e->flush_denormals, hold.fp);
  oom_cleanup_pop(&hold_cleanup);
  xlacrt_status_swap(prev_status);
  if (rt_status.failed) {
    error_at(f->loc, "%s", rt_status.msg);
    I->failed = true;
  }
  if (own) xfree(temp);
  else atomic_flag_clear(&e->temp_busy);
  xfree(params);
  xfree(res);
  if (I->failed) {
    for (int i = 0; i < f->nresults; i++) {
      ival_release(results[i]);
      results[i] = NULL;
    }
    return false;
  }
  return true;
}

const CpuStats *cpu_executable_stats(const CpuExecutable *e) { return &e->stats; }
bool cpu_executable_in_place(const CpuExecutable *e, int r) {
  return e->in_place && r >= 0 && r < e->nres_flat && e->in_place[r];
}
Func *cpu_executable_entry(const CpuExecutable *e) { return e->entry; }
Func *cpu_executable_flat(const CpuExecutable *e) { return e->flat; }

void cpu_executable_free(CpuExecutable *e) {
  if (!e) return;
  jit_free(e->jit);
  if (e->own_pool) xlacrt_pool_destroy(e->pool);
  xfree(e->in_place);
  xfree(e->alias);
  xfree(e->temp);
  for (int i = 0; i < e->nfallback; i++) xfree(e->fallback_ops[i].caps);
  xfree(e->fallback_ops);
  xfree(e->loops);
  xfree(e->prof);
  lower_free_custom_calls(e->custom_calls, e->ncustom);
  for (int i = 0; i < e->data.len; i++) xfree(e->data.data[i].bytes);
  VEC_FREE(e->data);
  xfree(e);
}

/* ---- the profile (CpuOptions.profile) ---- */

typedef struct ProfRow {
  int index;
  int64_t ns, count;
} ProfRow;

static int prof_row_cmp(const void *a, const void *b) {
  const ProfRow *x = a, *y = b;
  return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : x->index - y->index;
}

bool cpu_executable_profile(CpuExecutable *e, StrBuf *b, int top, bool reset) {
  if (!e || !e->prof) return false;
  ProfRow *rows = xcalloc((size_t)e->nprof + 1, sizeof(ProfRow));
  int64_t total = 0, runs = 0;
  for (int i = 0; i < e->nprof; i++) {
    rows[i] = (ProfRow){i, atomic_load(&e->prof[i].ns), atomic_load(&e->prof[i].count)};
    /* the entry's own ops cover an execution; the others are inside them */
    if (e->prof[i].depth == 0) {
      total += rows[i].ns;
      if (rows[i].count > runs) runs = rows[i].count;
    }
  }
  qsort(rows, (size_t)e->nprof, sizeof(ProfRow), prof_row_cmp);
  sb_printf(b, "profile: %lld execution%s, %.3f ms in %d timed ops (%.3f ms per execution, mean)\n", (long long)runs,
            runs == 1 ? "" : "s", total / 1e6, e->nprof, runs ? total / 1e6 / (double)runs : 0.0);
  sb_puts(b, "      ms/exec    share    calls  us/call   min us  op (location; '>' marks ops inside loops and "
           "branches)\n");
  int shown = 0;
  for (int k = 0; k < e->nprof && (top <= 0 || shown < top); k++) {
    const ProfRow *r = &rows[k];
    const CpuProf *p = &e->prof[r->index];
    if (!r->count) continue;
    sb_printf(b, "  %11.4f  %6.2f%%  %7lld  %7.1f  %7.1f  %s", runs ? r->ns / 1e6 / (double)runs : 0.0,
              total ? 100.0 * (double)r->ns / (double)total : 0.0, (long long)(runs ? r->count / runs : 0),
              r->ns / 1e3 / (double)r->count, atomic_load(&e->prof[r->index].min) / 1e3, p->depth ? "> " : "");
    print_op_brief(b, e->m, p->op);
    sb_putc(b, '\n');
    shown++;
  }
  xfree(rows);
  if (reset)
    for (int i = 0; i < e->nprof; i++) {
      atomic_store(&e->prof[i].ns, 0);
      atomic_store(&e->prof[i].count, 0);
      atomic_store(&e->prof[i].min, INT64_MAX);
    }
  return true;
}
