/*
 * gpu.c - the GPU backend's driver: pipeline, buffers, kernels, PTX, and
 * execution through the CUDA driver.
 *
 * Every top-level op of the optimized function becomes one kernel
 *
 *   ptx_kernel void xlac_kN(ptr addrspace(1) in0, ..., ptr addrspace(1) out0, ..., i64 n)
 *
 * that walks the n elements of its result(s) in a grid-stride loop
 *   for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
 * and computes each with the elemental generator shared with the CPU
 * backend (codegen/elemental.c, emit_scalar.c, math_approx.c: polynomial
 * approximations, no libm and none of the math intrinsics NVPTX cannot
 * lower).  Each element is computed and stored by one thread, so results
 * do not depend on the launch configuration.  Pointers arrive in the
 * global address space and are cast to generic pointers, which NVPTX's
 * address-space inference turns back into global loads and stores.
 *
 * What the grid-stride loop relies on from buffer assignment: an op's
 * result shares storage with an operand only for a reshape or a
 * dynamic_update_slice (passes/buffers.c), whose element i reads the
 * operand at element i or not at all, so each thread reads what it then
 * overwrites and nothing else.
 */
#include "gpu/gpu.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codegen/cg.h"
#include "codegen/dump.h"
#include "codegen/lower.h"
#include "passes/buffers.h"
#include "passes/passes.h"

enum { PTX_KERNEL_CC = 71, BLOCK_THREADS = 256, BLOCKS_PER_SM = 32 };

/* Where a top-level value lives on the device. */
typedef struct GpuBuf {
  BufferKind kind; /* PARAM, RESULT, TEMP, CONST */
  int64_t offset;  /* PARAM/RESULT: index; TEMP: byte offset; CONST: index into consts */
  int64_t bytes;
} GpuBuf;

typedef struct GpuLaunch {
  int kernel;       /* index into names / fns */
  int64_t n;        /* elements of the iteration space */
  int nbufs;        /* inputs then outputs */
  GpuBuf *bufs;
} GpuLaunch;

struct GpuExecutable {
  Module *m;
  Func *entry, *flat;
  char *ptx;
  size_t ptx_len;
  char **names;       /* kernel names */
  int nkernels;
  GpuLaunch *launches;
  int nlaunches;
  const Literal **consts;
  int nconsts;
  GpuBuf *rets;       /* per flat result: where its value is */
  int nrets;
  int64_t temp_bytes;
  /* loaded on a device (the first gpu_execute) */
  GpuDevice *dev;
  CUmodule mod;
  CUfunction *fns;
  CUdeviceptr *const_ptrs;
  GpuStats stats;
};

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- lowering ---- */
typedef struct GpuLower {
  Cg cg;
  GpuExecutable *exe;
  BufferAssignment *buffers;
  VEC(char *) names;
  VEC(GpuLaunch) launches;
  VEC(const Literal *) consts;
  bool failed;
} GpuLower;

/* Where v lives; false when it has no device storage (reported). */
static bool value_buf(GpuLower *G, Value *v, GpuBuf *out) {
  int64_t off = 0;
  BufferKind k = buffers_lookup(G->buffers, v, &off);
  out->kind = k;
  out->offset = off;
  out->bytes = v->type->kind == TY_TENSOR ? type_num_elements(v->type) * et_bytes(v->type->elem) : 0;
  switch (k) {
  case BUF_PARAM: case BUF_RESULT: case BUF_TEMP:
    return true;
  case BUF_CONST:
    if (v->def && v->def->kind == OP_CONSTANT) {
      const Literal *l = op_attr(v->def, "value")->lit;
      int i = 0;
      while (i < G->consts.len && G->consts.data[i] != l) i++;
      if (i == G->consts.len) VEC_PUSH(G->consts, l);
      out->offset = i;
      return true;
    }
    return false;
  default:
    return false;
  }
}

static LLVMValueRef sreg(Cg *cg, const char *name) {
  return LLVMBuildZExt(cg->b, cg_intrinsic(cg, name, NULL, NULL, 0), cg->t_i64, "");
}

/* The kernel computing roots from inputs (values of one block: a fused
   computation's arguments and returned values, or an op's operands and
   results). */
static LLVMValueRef emit_kernel(GpuLower *G, Value *const *inputs, int ninputs, Value *const *roots, int nroots) {
  Cg *cg = &G->cg;
  const Type *shape = roots[0]->type;
  int rank = shape->rank;
  char name[32];
  snprintf(name, sizeof name, "xlac_k%d", G->names.len);
  int np = ninputs + nroots + 1;
  LLVMTypeRef gptr = LLVMPointerTypeInContext(cg->ctx, 1);
  LLVMTypeRef *pt = xcalloc((size_t)np, sizeof(LLVMTypeRef));
  for (int i = 0; i < np - 1; i++) pt[i] = gptr;
  pt[np - 1] = cg->t_i64;
  LLVMValueRef fn = LLVMAddFunction(cg->mod, name, LLVMFunctionType(cg->t_void, pt, (unsigned)np, 0));
  xfree(pt);
  LLVMSetFunctionCallConv(fn, PTX_KERNEL_CC);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry");
  LLVMPositionBuilderAtEnd(cg->b, entry);

  KernelIO io = {0};
  io.ninputs = ninputs;
  io.inputs = (Value **)inputs;
  io.input_ptrs = xcalloc((size_t)ninputs + 1, sizeof(LLVMValueRef));
  for (int i = 0; i < ninputs; i++) io.input_ptrs[i] = LLVMBuildAddrSpaceCast(cg->b, LLVMGetParam(fn, (unsigned)i), cg->t_ptr, "in");
  LLVMValueRef *outs = xcalloc((size_t)nroots, sizeof(LLVMValueRef));
  for (int r = 0; r < nroots; r++)
    outs[r] = LLVMBuildAddrSpaceCast(cg->b, LLVMGetParam(fn, (unsigned)(ninputs + r)), cg->t_ptr, "out");
  LLVMValueRef n = LLVMGetParam(fn, (unsigned)(np - 1));
  LLVMValueRef tid = sreg(cg, "llvm.nvvm.read.ptx.sreg.tid.x");
  LLVMValueRef ntid = sreg(cg, "llvm.nvvm.read.ptx.sreg.ntid.x");
  LLVMValueRef ctaid = sreg(cg, "llvm.nvvm.read.ptx.sreg.ctaid.x");
  LLVMValueRef nctaid = sreg(cg, "llvm.nvvm.read.ptx.sreg.nctaid.x");
  LLVMValueRef i0 = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, ctaid, ntid, ""), tid, "i0");
  LLVMValueRef stride = LLVMBuildMul(cg->b, ntid, nctaid, "stride");

  LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(cg->ctx, fn, "head");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(cg->ctx, fn, "body");
  LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(cg->ctx, fn, "exit");
  LLVMBuildBr(cg->b, head);
  LLVMPositionBuilderAtEnd(cg->b, head);
  LLVMValueRef i = LLVMBuildPhi(cg->b, cg->t_i64, "i");
  LLVMAddIncoming(i, &i0, &entry, 1);
  LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, i, n, ""), body, exit);
  LLVMPositionBuilderAtEnd(cg->b, body);

  /* elementwise ops only between same-shaped values: the linear index is
     the index (as in the CPU's flat loops); otherwise its coordinates */
  PtrMap seen = {0};
  bool flat = true;
  for (int r = 0; r < nroots && flat; r++) flat = elemental_flat(roots[r], shape, inputs, ninputs, &seen);
  ptrmap_free(&seen);
  LLVMValueRef idx[CG_MAX_RANK];
  if (flat || rank <= 1) {
    for (int d = 0; d < rank; d++) idx[d] = d == rank - 1 ? i : cg_i64(cg, 0);
  } else if (type_num_elements(shape) <= INT32_MAX) {
    /* coordinates by 32-bit division: a fraction of the cost of 64-bit
       division on a GPU (and GPGPU-Sim has no 64-bit mul.hi, which LLVM
       makes 64-bit division by a constant of) */
    LLVMValueRef rest = LLVMBuildTrunc(cg->b, i, cg->t_i32, "");
    for (int d = rank - 1; d >= 0; d--) {
      LLVMValueRef dim = LLVMConstInt(cg->t_i32, (unsigned long long)shape->dims[d], 0);
      LLVMValueRef c = d == 0 ? rest : LLVMBuildURem(cg->b, rest, dim, "");
      idx[d] = LLVMBuildZExt(cg->b, c, cg->t_i64, "");
      if (d > 0) rest = LLVMBuildUDiv(cg->b, rest, dim, "");
    }
  } else {
    cg_delinearize(cg, shape, i, idx);
  }
  kernel_io_reset_memo(&io);
  for (int r = 0; r < nroots; r++) {
    LLVMValueRef v = emit_elemental(cg, &io, roots[r], idx);
    cg_store(cg, roots[r]->type->elem, outs[r], i, v);
  }
  LLVMValueRef next = LLVMBuildAdd(cg->b, i, stride, "next");
  LLVMBasicBlockRef last = LLVMGetInsertBlock(cg->b);
  LLVMAddIncoming(i, &next, &last, 1);
  LLVMBuildBr(cg->b, head);
  LLVMPositionBuilderAtEnd(cg->b, exit);
  LLVMBuildRetVoid(cg->b);
  kernel_io_free(&io);
  xfree(io.input_ptrs);
  xfree(outs);
  return fn;
}

/* where: "" or what the op is part of, ending in "; " */
static void unsupported(GpuLower *G, const Op *op, const char *where) {
  error_at(op->loc, "'%s' is not supported by the gpu backend yet (%sdocs/gpu.md lists what is)", op_info[op->kind].name,
           where);
  G->failed = true;
}

/* The first op of a fused computation with no GPU kernel (itself or its
   operand types), for the error. */
static const Op *first_unsupported(Block *b) {
  Op *ret = block_terminator(b);
  for (Op *o = b->first; o && o != ret; o = o->next) {
    if (o->kind == OP_CONSTANT) continue;
    if (o->nres != 1 || o->nregions) return o;
    Value *r = &o->res[0];
    if (!elemental_supported(&r, 1, o->opnds, o->nopnds)) return o;
  }
  return NULL;
}

static bool root_ok(const Value *v) {
  return v->type->kind == TY_TENSOR && !v->type->quant && cg_elem_native(v->type->elem) && v->type->rank <= CG_MAX_RANK;
}

/* One top-level op: a kernel and its launch, or an error at the op. */
static void lower_op(GpuLower *G, Op *op) {
  if (op->kind == OP_CONSTANT) return;
  Value **inputs, **roots;
  int ninputs, nroots;
  Func *callee = NULL;
  bool fusion = op->kind == OP_CALL && op_attr(op, "fusion_kind");
  if (fusion) {
    const char *name = op_attr_str(op, "callee");
    callee = name ? module_find_func(G->cg.m, name) : NULL;
    Op *ret = callee ? block_terminator(callee->body) : NULL;
    if (!ret || ret->nopnds != op->nres || callee->body->nargs != op->nopnds) {
      unsupported(G, op, "a fusion whose computation does not match it; ");
      return;
    }
    inputs = callee->body->args;
    ninputs = callee->body->nargs;
    roots = ret->opnds;
    nroots = ret->nopnds;
  } else {
    if (op->nregions) {
      unsupported(G, op, "");
      return;
    }
    inputs = op->opnds;
    ninputs = op->nopnds;
    nroots = op->nres;
    roots = xcalloc((size_t)nroots + 1, sizeof(Value *));
    for (int r = 0; r < nroots; r++) roots[r] = &op->res[r];
  }
  bool ok = nroots > 0;
  for (int r = 0; ok && r < nroots; r++) ok = root_ok(roots[r]) && type_same_shape(roots[r]->type, roots[0]->type);
  for (int r = 0; ok && r < nroots; r++) ok = !roots[r]->def || roots[r]->def->kind != OP_REDUCE;
  ok = ok && elemental_supported(roots, nroots, inputs, ninputs);
  if (!ok) {
    const Op *culprit = fusion ? first_unsupported(callee->body) : NULL;
    const char *kind = fusion ? op_attr_str(op, "fusion_kind") : NULL;
    char *where = xasprintf("in a %s fusion; ", kind ? kind : "");
    if (culprit)
      unsupported(G, culprit, where);
    else
      unsupported(G, op, fusion ? "a multi-output or reduction fusion; " : "");
    xfree(where);
  }
  /* the buffers: operands then results */
  GpuLaunch l = {0};
  l.nbufs = op->nopnds + op->nres;
  l.bufs = xcalloc((size_t)l.nbufs + 1, sizeof(GpuBuf));
  for (int i = 0; ok && i < op->nopnds; i++) ok = value_buf(G, op->opnds[i], &l.bufs[i]);
  for (int r = 0; ok && r < op->nres; r++) ok = value_buf(G, &op->res[r], &l.bufs[op->nopnds + r]);
  if (!ok) {
    if (!G->failed) unsupported(G, op, "a value without device storage; ");
    xfree(l.bufs);
    if (!fusion) xfree(roots);
    return;
  }
  LLVMValueRef fn = emit_kernel(G, inputs, ninputs, roots, nroots);
  StrBuf bad = {0};
  if (gpu_scan_calls(fn, &bad)) {
    /* f64 pow, lgamma, ... call the C library or the runtime on the CPU */
    error_at(op->loc, "'%s' needs %s (a host library function), which the gpu backend has no device code for yet",
             op_info[op->kind].name, bad.data);
    sb_free(&bad);
    LLVMClearInsertionPosition(G->cg.b);
    LLVMDeleteFunction(fn);
    G->failed = true;
    xfree(l.bufs);
    if (!fusion) xfree(roots);
    return;
  }
  l.kernel = G->names.len;
  l.n = type_num_elements(roots[0]->type);
  size_t len;
  VEC_PUSH(G->names, xstrdup(LLVMGetValueName2(fn, &len)));
  VEC_PUSH(G->launches, l);
  if (fusion) G->exe->stats.fusions++;
  if (!fusion) xfree(roots);
}

/* What LLVM holds for a compilation in progress, released by an
   out-of-memory unwind. */
typedef struct GpuHold {
  LLVMContextRef ctx;
  LLVMModuleRef mod;
  LLVMBuilderRef b;
  LLVMTargetMachineRef tm;
} GpuHold;

static void gpu_hold_release(void *p) {
  GpuHold *h = p;
  if (h->b) LLVMDisposeBuilder(h->b);
  if (h->mod) LLVMDisposeModule(h->mod);
  if (h->tm) LLVMDisposeTargetMachine(h->tm);
  if (h->ctx) LLVMContextDispose(h->ctx);
  memset(h, 0, sizeof *h);
}

static const char *choose_arch(const GpuOptions *o) {
  if (o->arch && *o->arch) return o->arch;
  const char *env = getenv("XLAC_GPU_ARCH");
  if (env && *env) return env;
  if (o->device) return gpu_arch_for_device(o->device->cc_major, o->device->cc_minor);
  return "sm_90";
}

static bool plain_signature(const Func *f) {
  for (int i = 0; i < f->body->nargs; i++)
    if (f->body->args[i]->type->kind != TY_TENSOR) return false;
  for (int i = 0; i < f->nresults; i++)
    if (f->result_types[i]->kind != TY_TENSOR) return false;
  return true;
}

GpuExecutable *gpu_compile(Module *m, Func *entry, const GpuOptions *o) {
  double t0 = now_ms();
  GpuExecutable *exe = xcalloc(1, sizeof *exe);
  exe->m = m;
  exe->entry = entry;
  CpuOptions dumpo = {0};
  dumpo.dump_dir = o->dump_dir;
  dumpo.module_id = o->module_id;
  dump_module(&dumpo, m, "before_optimizations");
  exe->flat = flatten_entry(m, entry);
  exe->flat->is_private = false;
  if (m->format == SRC_HLO) m->entry = exe->flat;
  PassOptions po = {0};
  po.fuse = !o->no_fusion;
  po.after_pass = dump_after_pass;
  po.ud = &dumpo;
  if (!run_cpu_pipeline(m, &po) || !lower_resolve_custom_calls(m, exe->flat, false)) {
    gpu_executable_free(exe);
    return NULL;
  }
  double t_ir = now_ms();
  exe->stats.passes_ms = t_ir - t0;
  dump_module(&dumpo, m, "after_optimizations");
  Func *f = exe->flat;
  if (!plain_signature(f)) {
    error_at(f->loc, "the gpu backend does not support tuple or token parameters and results yet");
    gpu_executable_free(exe);
    return NULL;
  }
  const char *arch = choose_arch(o);
  snprintf(exe->stats.arch, sizeof exe->stats.arch, "%s", arch);
  int lvl = o->opt_level ? o->opt_level : 3;
  char *err = NULL;
  GpuHold hold = {0};
  OomCleanup cleanup;
  oom_cleanup_push(&cleanup, gpu_hold_release, &hold);
  hold.tm = gpu_target_machine(arch, lvl, &err);
  if (!hold.tm) {
    error_at(f->loc, "%s", err);
    xfree(err);
    oom_cleanup_pop(&cleanup);
    gpu_hold_release(&hold);
    gpu_executable_free(exe);
    return NULL;
  }
  hold.ctx = LLVMContextCreate();
  GpuLower G;
  memset(&G, 0, sizeof G);
  G.exe = exe;
  cg_init(&G.cg, hold.ctx, m, "xlac_gpu");
  hold.mod = G.cg.mod;
  hold.b = G.cg.b;
  gpu_set_target(G.cg.mod, hold.tm);
  G.buffers = buffers_assign(m, f);
  exe->temp_bytes = G.buffers->temp_bytes;
  exe->stats.temp_bytes = exe->temp_bytes;
  Op *ret = block_terminator(f->body);
  for (Op *op = f->body->first; op && op != ret; op = op->next) lower_op(&G, op);
  /* where each result is read from */
  exe->nrets = f->nresults;
  exe->rets = xcalloc((size_t)f->nresults + 1, sizeof(GpuBuf));
  for (int r = 0; !G.failed && ret && r < ret->nopnds && r < f->nresults; r++)
    if (!value_buf(&G, ret->opnds[r], &exe->rets[r])) unsupported(&G, ret, "a result without device storage; ");
  buffers_free(G.buffers);
  ptrmap_free(&G.cg.const_globals);
  exe->names = G.names.data;
  exe->nkernels = G.names.len;
  exe->launches = G.launches.data;
  exe->nlaunches = G.launches.len;
  exe->consts = G.consts.data;
  exe->nconsts = G.consts.len;
  exe->stats.kernels = exe->nlaunches;
  LLVMDisposeBuilder(hold.b);
  hold.b = NULL;
  bool ok = !G.failed;
  double t_opt = now_ms();
  exe->stats.ir_ms = t_opt - t_ir;
  if (ok) {
    dump_llvm(&dumpo, m, "gpu-ir-no-opt.ll", G.cg.mod);
    ok = gpu_optimize(G.cg.mod, hold.tm, lvl, &err);
    double t_ptx = now_ms();
    exe->stats.llvm_opt_ms = t_ptx - t_opt;
    if (ok) {
      dump_llvm(&dumpo, m, "gpu-ir-with-opt.ll", G.cg.mod);
      ok = gpu_emit_ptx(G.cg.mod, hold.tm, &exe->ptx, &exe->ptx_len, &err);
    }
    exe->stats.ptx_ms = now_ms() - t_ptx;
    if (ok) dump_text(&dumpo, m, "gpu.ptx", exe->ptx);
    if (!ok) error_at(f->loc, "GPU code generation failed: %s", err);
    xfree(err);
  }
  oom_cleanup_pop(&cleanup);
  gpu_hold_release(&hold);
  if (!ok) {
    gpu_executable_free(exe);
    return NULL;
  }
  exe->stats.compile_ms = now_ms() - t0;
  return exe;
}

/* ---- execution ---- */
static void unload(GpuExecutable *e, const CudaDriver *drv) {
  for (int c = 0; e->const_ptrs && c < e->nconsts; c++)
    if (e->const_ptrs[c]) drv->cuMemFree(e->const_ptrs[c]);
  if (e->mod) drv->cuModuleUnload(e->mod);
  e->mod = NULL;
  xfree(e->const_ptrs);
  e->const_ptrs = NULL;
  xfree(e->fns);
  e->fns = NULL;
}

static bool load(GpuExecutable *e, GpuDevice *d, char **err) {
  if (e->dev == d) return true;
  if (e->dev) {
    *err = xasprintf("this executable is loaded on device %d; compile it again for device %d", e->dev->ordinal,
                     d->ordinal);
    return false;
  }
  const CudaDriver *drv = d->drv;
  if (!gpu_device_bind(d, err)) return false;
  char log[4096] = "";
  CUresult r;
  if (drv->cuModuleLoadDataEx) {
    int opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[2] = {log, (void *)(uintptr_t)sizeof log};
    r = drv->cuModuleLoadDataEx(&e->mod, e->ptx, 2, opts, vals);
  } else {
    r = drv->cuModuleLoadData(&e->mod, e->ptx);
  }
  if (r != CUDA_SUCCESS) {
    char *what = xasprintf("cannot load the PTX (compiled for %s) on '%s' (compute capability %d.%d)%s%s",
                           e->stats.arch, d->name, d->cc_major, d->cc_minor, log[0] ? ": " : "", log);
    cuda_check(r, what, err);
    xfree(what);
    e->mod = NULL;
    return false;
  }
  e->fns = xcalloc((size_t)e->nkernels + 1, sizeof(CUfunction));
  for (int k = 0; k < e->nkernels; k++) {
    char *what = xasprintf("cuModuleGetFunction(%s)", e->names[k]);
    bool ok = cuda_check(drv->cuModuleGetFunction(&e->fns[k], e->mod, e->names[k]), what, err);
    xfree(what);
    if (!ok) {
      unload(e, drv);
      return false;
    }
  }
  e->const_ptrs = xcalloc((size_t)e->nconsts + 1, sizeof(CUdeviceptr));
  for (int c = 0; c < e->nconsts; c++) {
    const Literal *l = e->consts[c];
    size_t nb = (size_t)l->n * (size_t)et_bytes(l->type->elem);
    if (!nb) continue;
    if (!cuda_check(drv->cuMemAlloc(&e->const_ptrs[c], nb), "cuMemAlloc (a constant)", err) ||
        !cuda_check(drv->cuMemcpyHtoD(e->const_ptrs[c], l->data, nb), "cuMemcpyHtoD (a constant)", err)) {
      unload(e, drv);
      return false;
    }
  }
  e->dev = d;
  return true;
}

typedef struct DevMem {
  CUdeviceptr *params, *results, temp;
  int nparams, nresults;
} DevMem;

static CUdeviceptr buf_ptr(const GpuExecutable *e, const DevMem *dm, const GpuBuf *b) {
  switch (b->kind) {
  case BUF_PARAM: return dm->params[b->offset];
  case BUF_RESULT: return dm->results[b->offset];
  case BUF_TEMP: return dm->temp + (CUdeviceptr)b->offset;
  case BUF_CONST: return e->const_ptrs[b->offset];
  default: return 0;
  }
}

static void free_devmem(const CudaDriver *drv, DevMem *dm) {
  for (int i = 0; i < dm->nparams; i++)
    if (dm->params[i]) drv->cuMemFree(dm->params[i]);
  for (int i = 0; i < dm->nresults; i++)
    if (dm->results[i]) drv->cuMemFree(dm->results[i]);
  if (dm->temp) drv->cuMemFree(dm->temp);
  xfree(dm->params);
  xfree(dm->results);
}

static bool dev_alloc(const CudaDriver *drv, CUdeviceptr *p, size_t bytes, const char *what, char **err) {
  *p = 0;
  if (!bytes) return true;
  CUresult r = drv->cuMemAlloc(p, bytes);
  if (r == CUDA_SUCCESS) return true;
  *p = 0;
  char *w = xasprintf("cuMemAlloc of %zu bytes (%s)", bytes, what);
  cuda_check(r, w, err);
  xfree(w);
  return false;
}

static bool execute_flat(GpuExecutable *e, GpuDevice *d, int nargs, IVal **args, IVal **results, char **err) {
  Func *f = e->flat;
  if (nargs != f->body->nargs) {
    *err = xasprintf("expected %d arguments, got %d", f->body->nargs, nargs);
    return false;
  }
  for (int i = 0; i < nargs; i++)
    if (args[i]->kind != IV_TENSOR || !type_same_shape(args[i]->lit->type, f->body->args[i]->type) ||
        args[i]->lit->type->elem != f->body->args[i]->type->elem) {
      *err = xasprintf("argument %d does not match parameter type", i);
      return false;
    }
  if (!load(e, d, err)) return false;
  const CudaDriver *drv = d->drv;
  if (!gpu_device_bind(d, err)) return false;
  DevMem dm = {0};
  dm.nparams = nargs;
  dm.nresults = f->nresults;
  dm.params = xcalloc((size_t)nargs + 1, sizeof(CUdeviceptr));
  dm.results = xcalloc((size_t)f->nresults + 1, sizeof(CUdeviceptr));
  bool ok = true;
  for (int i = 0; ok && i < nargs; i++) {
    size_t nb = (size_t)args[i]->lit->n * (size_t)et_bytes(args[i]->lit->type->elem);
    ok = dev_alloc(drv, &dm.params[i], nb, "a parameter", err) &&
         (!nb || cuda_check(drv->cuMemcpyHtoD(dm.params[i], args[i]->lit->data, nb), "cuMemcpyHtoD", err));
  }
  for (int r = 0; ok && r < f->nresults; r++)
    ok = dev_alloc(drv, &dm.results[r],
                   (size_t)(type_num_elements(f->result_types[r]) * et_bytes(f->result_types[r]->elem)), "a result",
                   err);
  if (ok) ok = dev_alloc(drv, &dm.temp, (size_t)e->temp_bytes, "temporary buffers", err);
  int block = d->max_threads_per_block < BLOCK_THREADS ? d->max_threads_per_block : BLOCK_THREADS;
  for (int k = 0; ok && k < e->nlaunches; k++) {
    const GpuLaunch *l = &e->launches[k];
    if (l->n <= 0) continue;
    int64_t blocks = (l->n + block - 1) / block, cap = (int64_t)d->sm_count * BLOCKS_PER_SM;
    if (blocks > cap) blocks = cap;
    CUdeviceptr *ptrs = xcalloc((size_t)l->nbufs + 1, sizeof(CUdeviceptr));
    void **params = xcalloc((size_t)l->nbufs + 2, sizeof(void *));
    for (int b = 0; b < l->nbufs; b++) {
      ptrs[b] = buf_ptr(e, &dm, &l->bufs[b]);
      params[b] = &ptrs[b];
    }
    int64_t n = l->n;
    params[l->nbufs] = &n;
    char *what = xasprintf("cuLaunchKernel(%s)", e->names[l->kernel]);
    ok = cuda_check(drv->cuLaunchKernel(e->fns[l->kernel], (unsigned)blocks, 1, 1, (unsigned)block, 1, 1, 0, NULL,
                                        params, NULL),
                    what, err);
    xfree(what);
    xfree(params);
    xfree(ptrs);
  }
  if (ok) ok = cuda_check(drv->cuCtxSynchronize(), "cuCtxSynchronize (after the kernels)", err);
  for (int r = 0; ok && r < f->nresults; r++) {
    ival_release(results[r]);
    results[r] = ival_new_tensor(f->result_types[r]);
    const Literal *l = results[r]->lit;
    size_t nb = (size_t)l->n * (size_t)et_bytes(l->type->elem);
    if (nb) ok = cuda_check(drv->cuMemcpyDtoH(l->data, buf_ptr(e, &dm, &e->rets[r]), nb), "cuMemcpyDtoH", err);
  }
  free_devmem(drv, &dm);
  if (!ok)
    for (int r = 0; r < f->nresults; r++) {
      ival_release(results[r]);
      results[r] = NULL;
    }
  return ok;
}

bool gpu_execute(GpuExecutable *e, GpuDevice *d, int nargs, IVal **args, IVal **results, char **err) {
  if (e->flat == e->entry) return execute_flat(e, d, nargs, args, results, err);
  int nin = 0, k = 0;
  for (int i = 0; i < nargs; i++) nin += ival_leaf_count(args[i]);
  IVal **in = xcalloc((size_t)nin + 1, sizeof(IVal *));
  for (int i = 0; i < nargs; i++) ival_collect_leaves(args[i], in, &k);
  int nout = e->flat->nresults;
  IVal **out = xcalloc((size_t)nout + 1, sizeof(IVal *));
  bool ok = execute_flat(e, d, nin, in, out, err);
  k = 0;
  for (int i = 0; ok && i < e->entry->nresults; i++) {
    ival_release(results[i]);
    results[i] = ival_from_leaves(e->entry->result_types[i], out, &k);
  }
  for (int i = 0; i < nout; i++) ival_release(out[i]);
  xfree(out);
  xfree(in);
  return ok;
}

const GpuStats *gpu_executable_stats(const GpuExecutable *e) { return &e->stats; }
const char *gpu_executable_ptx(const GpuExecutable *e) { return e->ptx ? e->ptx : ""; }

void gpu_executable_free(GpuExecutable *e) {
  if (!e) return;
  if (e->dev) {
    const CudaDriver *drv = e->dev->drv;
    char *err = NULL;
    if (gpu_device_bind(e->dev, &err)) unload(e, drv);
    xfree(err);
  }
  xfree(e->const_ptrs);
  xfree(e->fns);
  for (int k = 0; k < e->nkernels; k++) xfree(e->names[k]);
  xfree(e->names);
  for (int k = 0; k < e->nlaunches; k++) xfree(e->launches[k].bufs);
  xfree(e->launches);
  xfree(e->consts);
  xfree(e->rets);
  xfree(e->ptx);
  xfree(e);
}
