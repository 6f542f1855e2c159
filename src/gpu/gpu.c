/*
 * gpu.c - the GPU backend's driver: pipeline, buffers, kernels, PTX, and
 * execution through the CUDA driver.
 *
 * Every top-level op of the optimized function becomes one kernel
 *
 *   ptx_kernel void xlac_kN_S(ptr addrspace(1) in0, ..., ptr addrspace(1) out0, ..., i64 n)
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

#include <llvm-c/BitWriter.h>

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu/cublaslt.h"
#include "gpu/kernels.h"
#include "codegen/dump.h"
#include "codegen/kernel.h"
#include "codegen/row_plan.h"
#include "ir/print.h"
#include "passes/buffers.h"
#include "passes/cost.h"
#include "passes/passes.h"

/* A profiled launch site's totals (GpuOptions.profile). */
typedef struct GpuProfRow {
  const Op *op;     /* NULL: a copy */
  const char *what; /* the kernel's name, "cuBLASLt", the custom call's target, "host" */
  int depth;        /* inside loops and branches */
  double ms, min_ms;
  int64_t count;
} GpuProfRow;

/* What one function runs: the entry, or a program of an
   interpreter.run_parallel (compiled into the executable's module, with
   buffers of its own). */
typedef struct GpuProgram {
  GpuExecutable *exe;
  Func *f;
  GpuSteps steps;     /* what an execution does (launches by index) */
  GpuBuf *rets;       /* per result: where its value is (BUF_NONE: a token) */
  int nrets;
  int *in_place;      /* per result: the parameter it is computed into when that is donated, or -1 */
  int *ret_copy;      /* per result: the launch copying its value into its result buffer, or -1 (there already) */
  int64_t temp_bytes;
} GpuProgram;

struct GpuExecutable {
  Module *m;
  Func *entry, *flat;
  char *ptx;
  size_t ptx_len;
  char *bitcode; /* the optimized kernel module, kept when compiled for a driver that loads LLVM IR (the SIMT harness) */
  size_t bitcode_len;
  char **names;       /* kernel names */
  int nkernels;
  GpuLaunch *launches;
  int nlaunches;
  GpuProgram main;    /* the flat entry's */
  VEC(GpuProgram *) progs; /* the programs of its interpreter.run_parallel ops */
  const Literal **consts;
  int nconsts;
  Interp host;          /* runs the test ops (host.c) */
  InterpOptions host_opts;
  /* loaded on a device (the first gpu_execute) */
  GpuDevice *dev;
  CUmodule mod;
  CUfunction *fns;
  CUdeviceptr *const_ptrs;
  GpuStats stats;
  /* GpuOptions.profile: a row per launch site (a launch, a step), by site */
  bool profile;
  pthread_mutex_t prof_mu;
  PtrMap prof_index; /* site -> row + 1 */
  VEC(GpuProfRow) prof;
};

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- lowering ---- */

bool gpu_value_buf(GpuLower *G, Value *v, GpuBuf *out) {
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

static int64_t scratch_base(const GpuLower *G) { return (G->buffers->temp_bytes + 255) & ~(int64_t)255; }

GpuBuf gpu_scratch(GpuLower *G, int64_t bytes) {
  if (bytes > G->scratch_bytes) G->scratch_bytes = bytes;
  GpuBuf b = {BUF_TEMP, scratch_base(G), bytes};
  return b;
}

bool gpu_op_bufs(GpuLower *G, Op *op, int extra, GpuBuf **bufs, int *nbufs) {
  int n = op->nopnds + op->nres;
  GpuBuf *b = xcalloc((size_t)(n + extra) + 1, sizeof(GpuBuf));
  bool ok = true;
  for (int i = 0; ok && i < op->nopnds; i++) ok = gpu_value_buf(G, op->opnds[i], &b[i]);
  for (int r = 0; ok && r < op->nres; r++) ok = gpu_value_buf(G, &op->res[r], &b[op->nopnds + r]);
  if (!ok) {
    gpu_unsupported(G, op, "a value without device storage; ");
    xfree(b);
    return false;
  }
  *bufs = b;
  *nbufs = n;
  return true;
}

LLVMValueRef gpu_sreg(Cg *cg, const char *name) {
  return LLVMBuildZExt(cg->b, cg_intrinsic(cg, name, NULL, NULL, 0), cg->t_i64, "");
}

LLVMValueRef gpu_kernel_new(GpuLower *G, int nbufs, LLVMValueRef *ptrs, LLVMValueRef *n) {
  Cg *cg = &G->cg;
  char name[32];
  snprintf(name, sizeof name, "xlac_k%d_%u", G->nfns++, G->serial);
  int np = nbufs + 1;
  LLVMTypeRef gptr = LLVMPointerTypeInContext(cg->ctx, 1);
  LLVMTypeRef *pt = xcalloc((size_t)np, sizeof(LLVMTypeRef));
  for (int i = 0; i < nbufs; i++) pt[i] = gptr;
  pt[nbufs] = cg->t_i64;
  LLVMValueRef fn = LLVMAddFunction(cg->mod, name, LLVMFunctionType(cg->t_void, pt, (unsigned)np, 0));
  xfree(pt);
  LLVMSetFunctionCallConv(fn, PTX_KERNEL_CC);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry");
  LLVMPositionBuilderAtEnd(cg->b, entry);
  for (int i = 0; i < nbufs; i++) ptrs[i] = LLVMBuildAddrSpaceCast(cg->b, LLVMGetParam(fn, (unsigned)i), cg->t_ptr, "buf");
  *n = LLVMGetParam(fn, (unsigned)nbufs);
  return fn;
}

KernelIO gpu_kernel_io(Value **inputs, int ninputs, LLVMValueRef *ptrs) {
  KernelIO io = {0};
  io.ninputs = ninputs;
  io.inputs = inputs;
  io.input_ptrs = ptrs;
  return io;
}

LLVMValueRef gpu_region_value(Cg *cg, Block *body, LLVMValueRef *args) {
  KernelIO io = gpu_kernel_io(body->args, body->nargs, args);
  LLVMValueRef v = emit_elemental(cg, &io, block_terminator(body)->opnds[0], NULL);
  kernel_io_free(&io);
  return v;
}

void gpu_unsupported(GpuLower *G, const Op *op, const char *where) {
  error_at(op->loc, "'%s' is not supported by the gpu backend yet (%sdocs/gpu.md lists what is)", op_info[op->kind].name,
           where);
  G->failed = true;
}

static void push_launch(GpuLower *G, GpuLaunch l) {
  GpuStep st = {0};
  st.kind = STEP_LAUNCH;
  st.launch = G->launches.len;
  VEC_PUSH(G->launches, l);
  VEC_PUSH(*G->cur, st);
}

/* ---- noalias and readonly buffer parameters ----
 * A kernel's buffers are pointer parameters, so for all LLVM knows a store
 * through one may change what another points to: loads cannot move above
 * stores, and none may go through the read-only data cache
 * (ld.global.nc), which NVPTX uses only for parameters marked noalias and
 * readonly.  Buffer assignment knows which buffers of a launch lie apart
 * (passes/buffers.c, buffers_places_apart, on the launch's GpuBufs):
 * a parameter whose buffer lies apart from every other buffer of the
 * launch that either of them may write gets noalias, and readonly too
 * when no store, atomic or call of the kernel can reach it (any write
 * whose address is not traced to one parameter counts as a write to all).
 * A kernel launched again with other buffers loses them. */

/* The parameter (< np) address v is based on; -1: none (shared memory, a
   local), -2: not known. */
static int param_of(LLVMValueRef fn, int np, LLVMValueRef v) {
  while (v && (LLVMIsAGetElementPtrInst(v) || LLVMIsAAddrSpaceCastInst(v) || LLVMIsABitCastInst(v)))
    v = LLVMGetOperand(v, 0);
  if (!v) return -2;
  if (LLVMIsAGlobalVariable(v) || LLVMIsAAllocaInst(v)) return -1;
  if (LLVMIsAConstantExpr(v)) {
    LLVMValueRef b = v;
    while (LLVMIsAConstantExpr(b) && LLVMGetNumOperands(b) > 0) b = LLVMGetOperand(b, 0);
    return LLVMIsAGlobalVariable(b) ? -1 : -2;
  }
  for (int i = 0; i < np; i++)
    if (v == LLVMGetParam(fn, (unsigned)i)) return i;
  return -2;
}

/* written[i]: some store, atomic or call of fn may write buffer i. */
static void params_written(LLVMValueRef fn, int np, bool *written) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      LLVMValueRef ptrs[16];
      int n = 0;
      if (LLVMIsAStoreInst(in)) ptrs[n++] = LLVMGetOperand(in, 1);
      else if (LLVMIsAAtomicRMWInst(in) || LLVMIsAAtomicCmpXchgInst(in)) ptrs[n++] = LLVMGetOperand(in, 0);
      else if (LLVMIsACallInst(in)) {
        int na = LLVMGetNumArgOperands(in);
        for (int a = 0; a < na; a++) {
          LLVMValueRef arg = LLVMGetOperand(in, (unsigned)a);
          if (LLVMGetTypeKind(LLVMTypeOf(arg)) != LLVMPointerTypeKind) continue;
          if (n == 16) {
            for (int i = 0; i < np; i++) written[i] = true;
            return;
          }
          ptrs[n++] = arg;
        }
      }
      for (int k = 0; k < n; k++) {
        int p = param_of(fn, np, ptrs[k]);
        if (p == -2) {
          for (int i = 0; i < np; i++) written[i] = true;
          return;
        }
        if (p >= 0) written[p] = true;
      }
    }
}

static void mark_params(GpuLower *G, LLVMValueRef fn, const GpuBuf *bufs, int nbufs) {
  intptr_t state = (intptr_t)ptrmap_get(&G->marked, fn);
  if (state == 2 || nbufs < 1 || (int)LLVMCountParams(fn) != nbufs + 1) return;
  unsigned k_noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
  unsigned k_readonly = LLVMGetEnumAttributeKindForName("readonly", 8);
  if (state == 1) { /* launched before, with other buffers */
    for (int i = 0; i < nbufs; i++) {
      LLVMRemoveEnumAttributeAtIndex(fn, (unsigned)i + 1, k_noalias);
      LLVMRemoveEnumAttributeAtIndex(fn, (unsigned)i + 1, k_readonly);
    }
    ptrmap_put(&G->marked, fn, (void *)2);
    return;
  }
  ptrmap_put(&G->marked, fn, (void *)1);
  bool *written = xcalloc((size_t)nbufs, sizeof(bool));
  params_written(fn, nbufs, written);
  for (int i = 0; i < nbufs; i++) {
    /* noalias promises nothing about memory no one modifies: buffers that
       neither writes may be one */
    bool apart = true;
    for (int j = 0; j < nbufs && apart; j++)
      if (j != i)
        apart = buffers_places_apart(&bufs[i], &bufs[j], G->program ? NULL : G->alias_param, G->nalias) ||
                (!written[i] && !written[j]);
    if (!apart) continue;
    LLVMAddAttributeAtIndex(fn, (unsigned)i + 1, LLVMCreateEnumAttribute(G->cg.ctx, k_noalias, 0));
    if (!written[i])
      LLVMAddAttributeAtIndex(fn, (unsigned)i + 1, LLVMCreateEnumAttribute(G->cg.ctx, k_readonly, 0));
  }
  xfree(written);
}

bool gpu_add_launch(GpuLower *G, Op *op, LLVMValueRef fn, int64_t n, int64_t units, int block, GpuBuf *bufs,
                    int nbufs) {
  StrBuf bad = {0};
  if (gpu_scan_calls(fn, &bad)) {
    /* f64 pow, lgamma, ... call the C library or the runtime on the CPU */
    error_at(op->loc, "'%s' needs %s (a host library function), which the gpu backend has no device code for yet",
             op_info[op->kind].name, bad.data);
    sb_free(&bad);
    LLVMClearInsertionPosition(G->cg.b);
    LLVMDeleteFunction(fn);
    G->failed = true;
    xfree(bufs);
    return false;
  }
  mark_params(G, fn, bufs, nbufs);
  GpuLaunch l = {0};
  l.kernel = G->names.len;
  l.n = n;
  l.units = units;
  l.block = block;
  l.nbufs = nbufs;
  l.bufs = bufs;
  l.op = op;
  size_t len;
  VEC_PUSH(G->names, xstrdup(LLVMGetValueName2(fn, &len)));
  push_launch(G, l);
  return true;
}

void gpu_repeat_launch(GpuLower *G, int64_t n) {
  GpuLaunch l = G->launches.data[G->launches.len - 1];
  l.n = n;
  l.bufs = xcalloc((size_t)l.nbufs + 1, sizeof(GpuBuf));
  memcpy(l.bufs, G->launches.data[G->launches.len - 1].bufs, sizeof(GpuBuf) * (size_t)l.nbufs);
  push_launch(G, l);
}

void gpu_steps_free(GpuSteps *s) {
  for (int i = 0; i < s->len; i++) {
    xfree(s->data[i].name);
    xfree(s->data[i].opaque);
    xfree(s->data[i].bufs);
    xfree(s->data[i].blas);
    for (int k = 0; k < s->data[i].nsub; k++) gpu_steps_free(&s->data[i].sub[k]);
    xfree(s->data[i].sub);
  }
  VEC_FREE(*s);
}

bool gpu_add_thread_launch(GpuLower *G, Op *op, LLVMValueRef fn, int64_t n, GpuBuf *bufs, int nbufs) {
  return gpu_add_launch(G, op, fn, n, (n + GPU_LOOP_THREADS - 1) / GPU_LOOP_THREADS, GPU_LOOP_THREADS, bufs, nbufs);
}

Loop gpu_loop_begin(Cg *cg, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef step, const char *name) {
  (void)step;
  return loop_begin(cg, lo, hi, name);
}

void gpu_loop_end(Cg *cg, Loop *l, LLVMValueRef step) { loop_end_by(cg, l, step); }

Loop gpu_thread_loop(Cg *cg, LLVMValueRef n, LLVMValueRef *step, const char *name) {
  LLVMValueRef tid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.tid.x");
  LLVMValueRef ntid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.ntid.x");
  LLVMValueRef ctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.ctaid.x");
  LLVMValueRef nctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.nctaid.x");
  *step = LLVMBuildMul(cg->b, ntid, nctaid, "");
  return gpu_loop_begin(cg, LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, ctaid, ntid, ""), tid, ""), n, *step, name);
}

LLVMBasicBlockRef gpu_if_begin(Cg *cg, LLVMValueRef cond) {
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(cg->b));
  LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(cg->ctx, fn, "then");
  LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(cg->ctx, fn, "endif");
  LLVMBuildCondBr(cg->b, cond, then, next);
  LLVMPositionBuilderAtEnd(cg->b, then);
  return next;
}

void gpu_if_end(Cg *cg, LLVMBasicBlockRef next) {
  LLVMBuildBr(cg->b, next);
  LLVMPositionBuilderAtEnd(cg->b, next);
}

LLVMValueRef gpu_round_odd_f32(Cg *cg, LLVMValueRef v) {
  LLVMValueRef t = LLVMBuildFPTrunc(cg->b, v, cg->t_f32, "");
  LLVMValueRef back = LLVMBuildFPExt(cg->b, t, cg->t_f64, "");
  LLVMValueRef inexact = LLVMBuildFCmp(cg->b, LLVMRealONE, back, v, "");
  LLVMValueRef away = LLVMBuildFCmp(cg->b, LLVMRealOGT, cg_intrinsic(cg, "llvm.fabs", cg->t_f64, &back, 1),
                                    cg_intrinsic(cg, "llvm.fabs", cg->t_f64, &v, 1), "");
  LLVMValueRef bits = LLVMBuildBitCast(cg->b, t, cg->t_i32, "");
  /* a step toward zero is one less in the magnitude's bits, either sign */
  bits = LLVMBuildSelect(cg->b, away, LLVMBuildSub(cg->b, bits, LLVMConstInt(cg->t_i32, 1, 0), ""), bits, "");
  bits = LLVMBuildSelect(cg->b, inexact, LLVMBuildOr(cg->b, bits, LLVMConstInt(cg->t_i32, 1, 0), ""),
                         LLVMBuildBitCast(cg->b, t, cg->t_i32, ""), "");
  return LLVMBuildBitCast(cg->b, bits, cg->t_f32, "");
}

void gpu_barrier(Cg *cg) { cg_intrinsic(cg, "llvm.nvvm.barrier0", NULL, NULL, 0); }

static LLVMValueRef shfl32(Cg *cg, LLVMValueRef v, int mask) {
  LLVMValueRef args[4] = {LLVMConstInt(cg->t_i32, 0xffffffffu, 0), v, LLVMConstInt(cg->t_i32, (unsigned)mask, 0),
                          LLVMConstInt(cg->t_i32, 0x1f, 0)};
  return cg_intrinsic(cg, "llvm.nvvm.shfl.sync.bfly.i32", NULL, args, 4);
}

LLVMValueRef gpu_shfl_xor(Cg *cg, LLVMValueRef v, int mask) {
  LLVMTypeRef t = LLVMTypeOf(v);
  LLVMTypeKind k = LLVMGetTypeKind(t);
  unsigned bits;
  switch (k) {
  case LLVMHalfTypeKind: case LLVMBFloatTypeKind: bits = 16; break;
  case LLVMFloatTypeKind: bits = 32; break;
  case LLVMDoubleTypeKind: bits = 64; break;
  default: bits = LLVMGetIntTypeWidth(t); break;
  }
  LLVMTypeRef it = LLVMIntTypeInContext(cg->ctx, bits);
  LLVMValueRef x = k == LLVMIntegerTypeKind ? v : LLVMBuildBitCast(cg->b, v, it, "");
  LLVMValueRef r;
  if (bits <= 32) {
    r = shfl32(cg, bits < 32 ? LLVMBuildZExt(cg->b, x, cg->t_i32, "") : x, mask);
    if (bits < 32) r = LLVMBuildTrunc(cg->b, r, it, "");
  } else {
    LLVMValueRef lo = shfl32(cg, LLVMBuildTrunc(cg->b, x, cg->t_i32, ""), mask);
    LLVMValueRef hi = shfl32(cg, LLVMBuildTrunc(cg->b, LLVMBuildLShr(cg->b, x, LLVMConstInt(it, 32, 0), ""), cg->t_i32, ""), mask);
    r = LLVMBuildOr(cg->b, LLVMBuildZExt(cg->b, lo, it, ""),
                    LLVMBuildShl(cg->b, LLVMBuildZExt(cg->b, hi, it, ""), LLVMConstInt(it, 32, 0), ""), "");
  }
  return k == LLVMIntegerTypeKind ? r : LLVMBuildBitCast(cg->b, r, t, "");
}

LLVMValueRef gpu_shared_array(Cg *cg, LLVMTypeRef t, int64_t n, const char *name) {
  LLVMTypeRef at = LLVMArrayType2(t, (uint64_t)n);
  LLVMValueRef g = LLVMAddGlobalInAddressSpace(cg->mod, at, name, 3);
  LLVMSetInitializer(g, LLVMGetUndef(at));
  LLVMSetLinkage(g, LLVMInternalLinkage);
  LLVMSetAlignment(g, 16);
  return g;
}

LLVMValueRef gpu_shared_at(Cg *cg, LLVMValueRef arr, LLVMValueRef i) {
  LLVMValueRef gi[2] = {cg_i64(cg, 0), i};
  return LLVMBuildGEP2(cg->b, LLVMGlobalGetValueType(arr), arr, gi, 2, "");
}

void gpu_delinearize(Cg *cg, LLVMValueRef lin, const int64_t *dims, int n, LLVMValueRef *out) {
  int64_t total = 1;
  for (int d = 0; d < n; d++) total *= dims[d];
  bool narrow = total <= INT32_MAX;
  LLVMTypeRef t = narrow ? cg->t_i32 : cg->t_i64;
  LLVMValueRef rest = narrow ? LLVMBuildTrunc(cg->b, lin, cg->t_i32, "") : lin;
  for (int d = n - 1; d >= 0; d--) {
    if (dims[d] == 1) {
      out[d] = cg_i64(cg, 0);
      continue;
    }
    LLVMValueRef dim = LLVMConstInt(t, (unsigned long long)dims[d], 0);
    bool first = true;
    for (int e = 0; e < d; e++) first &= dims[e] == 1;
    LLVMValueRef c = first ? rest : LLVMBuildURem(cg->b, rest, dim, "");
    out[d] = narrow ? LLVMBuildZExt(cg->b, c, cg->t_i64, "") : c;
    if (!first) rest = LLVMBuildUDiv(cg->b, rest, dim, "");
  }
}

/* The coordinates of linear index i (i64) of shape: flat (gpu_flat), the
   linear index as the innermost coordinate, as in the CPU's flat loops;
   else by division. */
static void index_of(Cg *cg, const Type *shape, bool flat, LLVMValueRef i, LLVMValueRef *idx) {
  int rank = shape->rank;
  if (flat || rank <= 1) {
    for (int d = 0; d < rank; d++) idx[d] = d == rank - 1 ? i : cg_i64(cg, 0);
  } else {
    /* coordinates by 32-bit division below 2^31 elements: a fraction of
       the cost of 64-bit division on a GPU (and GPGPU-Sim has no 64-bit
       mul.hi, which LLVM makes 64-bit division by a constant of) */
    gpu_delinearize(cg, i, shape->dims, rank, idx);
  }
}

bool gpu_flat(Value *v, const Type *shape, Value *const *inputs, int ninputs, PtrMap *seen) {
  for (int i = 0; i < ninputs; i++)
    if (inputs[i] == v) return v->type->rank == 0 || type_same_shape(v->type, shape);
  if (ptrmap_has(seen, v)) return true;
  ptrmap_put(seen, v, (void *)1);
  Op *op = v->def;
  if (!op) return false;
  if (v->type->rank != 0 && !type_same_shape(v->type, shape)) return false;
  if (op->kind == OP_CONSTANT) {
    const Literal *l = op_attr(op, "value")->lit;
    return v->type->rank == 0 || l->n <= 1 || type_same_shape(v->type, shape);
  }
  /* one element everywhere: read at index 0, whatever the index */
  if (op->kind == OP_BROADCAST_IN_DIM) return op->nopnds == 1 && type_num_elements(op->opnds[0]->type) == 1;
  if (!op_has_flag(op->kind, OPF_EW)) return false;
  for (int i = 0; i < op->nopnds; i++)
    if (!gpu_flat(op->opnds[i], shape, inputs, ninputs, seen)) return false;
  return true;
}

/* Bytes of et's storage when a vector of them can be loaded and stored
   whole (a scalar of 1, 2, 4 or 8 bytes), else 0. */
static int lane_bytes(Cg *cg, ElemType et) {
  if (et_is_complex(et)) return 0;
  LLVMTypeRef st = cg_storage_type(cg, et);
  switch (LLVMGetTypeKind(st)) {
  case LLVMHalfTypeKind: case LLVMBFloatTypeKind: return 2;
  case LLVMFloatTypeKind: return 4;
  case LLVMDoubleTypeKind: return 8;
  case LLVMIntegerTypeKind: {
    unsigned w = LLVMGetIntTypeWidth(st);
    return w == 8 || w == 16 || w == 32 || w == 64 ? (int)w / 8 : 0;
  }
  default: return 0;
  }
}

/* The work of one element of v: its ops not yet seen, a transcendental
   (a polynomial of some dozens of instructions) counting
   GPU_TRANSCENDENTAL_WORK. */
static int element_work(Value *v, Value *const *inputs, int ninputs, PtrMap *seen) {
  for (int i = 0; i < ninputs; i++)
    if (inputs[i] == v) return 0;
  if (!v->def || ptrmap_has(seen, v->def)) return 0;
  ptrmap_put(seen, v->def, (void *)1);
  int w = cost_is_transcendental(v->def->kind) ? GPU_TRANSCENDENTAL_WORK : 1;
  for (int i = 0; i < v->def->nopnds; i++) w += element_work(v->def->opnds[i], inputs, ninputs, seen);
  return w;
}

/* Elements per thread of a loop kernel (GPU_VECTOR_BYTES over the
   widest element among the roots and the inputs of their shape, at most
   GPU_VECTOR_MAX, fewer where the unrolled work of the elements would
   exceed GPU_VECTOR_WORK; in a kernel that is not flat, one that divides
   the innermost dimension, so that the V elements of a thread are
   neighbours in one row), or 1 where it takes one at a time: too few
   elements, an element type that does not move by vectors, work for more
   than one element a thread; XLAC_GPU_VECTOR=0: always).  A kernel of
   that much arithmetic gains little from wider accesses, and its code
   (each element's, unrolled) would take long to compile. */
static int vector_width(Cg *cg, Value *const *inputs, int ninputs, Value *const *roots, int nroots, bool flat) {
  const Type *shape = roots[0]->type;
  const char *env = getenv("XLAC_GPU_VECTOR");
  if (shape->rank == 0 || (env && strcmp(env, "0") == 0)) return 1;
  PtrMap seen = {0};
  int work = 0;
  for (int r = 0; r < nroots; r++) work += element_work(roots[r], inputs, ninputs, &seen);
  ptrmap_free(&seen);
  int widest = 0;
  for (int k = 0; k < ninputs + nroots; k++) {
    const Type *t = k < ninputs ? inputs[k]->type : roots[k - ninputs]->type;
    if (k < ninputs && !type_same_shape(t, shape)) continue; /* rank 0: read once */
    int b = lane_bytes(cg, t->elem);
    if (!b) return 1;
    if (b > widest) widest = b;
  }
  int v = GPU_VECTOR_BYTES / widest;
  if (v > GPU_VECTOR_MAX) v = GPU_VECTOR_MAX;
  while (v > 1 && v * work > GPU_VECTOR_WORK) v /= 2;
  while (!flat && v > 1 && shape->dims[shape->rank - 1] % v) v /= 2;
  return v >= 2 && type_num_elements(shape) >= v ? v : 1;
}

static LLVMValueRef vec_ptr(Cg *cg, ElemType et, LLVMValueRef base, LLVMValueRef i) {
  return LLVMBuildGEP2(cg->b, cg_storage_type(cg, et), base, &i, 1, "");
}

/* Elements base .. base+V-1 of a kernel: each input of the roots' shape
   read by one vector load, the roots computed element by element, each
   stored by one vector store (aligned: base is a multiple of V and every
   buffer starts on 64 bytes, docs/gpu.md).  Not flat, the elements are
   neighbours in a row (V divides the innermost dimension): their
   coordinates are base's but the last.  An input of the roots' shape
   that the roots read at another index (through a transpose, a reverse)
   loads its elements there itself; the vector is then unused, and
   dropped by LLVM. */
static void store_vector(Cg *cg, KernelIO *io, Value *const *inputs, int ninputs, Value *const *roots, int nroots,
                         LLVMValueRef *outs, LLVMValueRef base, int V, bool flat) {
  const Type *shape = roots[0]->type;
  int rank = shape->rank;
  LLVMValueRef idx[GPU_VECTOR_MAX][CG_MAX_RANK];
  index_of(cg, shape, flat, base, idx[0]);
  /* a row's neighbours: where the shape has fewer than 2^31 elements, a
     32-bit add widened, so that LLVM knows the coordinate small and
     non-negative (an iota then converts it from 32 bits, as in the scalar
     loop, not through a 64-bit conversion GPGPU-Sim gets wrong) */
  bool narrow = !flat && type_num_elements(shape) <= INT32_MAX;
  LLVMValueRef inner32 = narrow ? LLVMBuildTrunc(cg->b, idx[0][rank - 1], cg->t_i32, "") : NULL;
  for (int l = 1; l < V; l++) {
    memcpy(idx[l], idx[0], sizeof(LLVMValueRef) * (size_t)rank);
    idx[l][rank - 1] =
        narrow ? LLVMBuildZExt(cg->b, LLVMBuildNUWAdd(cg->b, inner32, LLVMConstInt(cg->t_i32, (unsigned)l, 0), ""),
                               cg->t_i64, "")
               : LLVMBuildNSWAdd(cg->b, idx[0][rank - 1], cg_i64(cg, l), "");
  }
  kernel_io_reset_memo(io);
  for (int k = 0; k < ninputs; k++) {
    const Type *t = inputs[k]->type;
    if (!type_same_shape(t, shape)) continue;
    int b = lane_bytes(cg, t->elem);
    LLVMTypeRef vt = LLVMVectorType(cg_storage_type(cg, t->elem), (unsigned)V);
    LLVMValueRef ld = LLVMBuildLoad2(cg->b, vt, vec_ptr(cg, t->elem, io->input_ptrs[k], base), "");
    LLVMSetAlignment(ld, (unsigned)(b * V));
    for (int l = 0; l < V; l++) {
      LLVMValueRef x = LLVMBuildExtractElement(cg->b, ld, LLVMConstInt(cg->t_i32, (unsigned)l, 0), "");
      kernel_io_give(io, inputs[k], idx[l], cg_from_storage(cg, t->elem, x));
    }
  }
  /* every root's vector before the first store (as elemental_store_roots) */
  LLVMValueRef *vs = xcalloc((size_t)nroots + 1, sizeof(LLVMValueRef));
  for (int r = 0; r < nroots; r++) {
    ElemType et = roots[r]->type->elem;
    LLVMTypeRef vt = LLVMVectorType(cg_storage_type(cg, et), (unsigned)V);
    vs[r] = LLVMGetPoison(vt);
    for (int l = 0; l < V; l++) {
      LLVMValueRef x = cg_to_storage(cg, et, emit_elemental(cg, io, roots[r], idx[l]));
      vs[r] = LLVMBuildInsertElement(cg->b, vs[r], x, LLVMConstInt(cg->t_i32, (unsigned)l, 0), "");
    }
  }
  for (int r = 0; r < nroots; r++) {
    ElemType et = roots[r]->type->elem;
    LLVMValueRef st = LLVMBuildStore(cg->b, vs[r], vec_ptr(cg, et, outs[r], base));
    LLVMSetAlignment(st, (unsigned)(lane_bytes(cg, et) * V));
  }
  xfree(vs);
}

/* The kernel computing roots from inputs (values of one block: a fused
   computation's arguments and returned values, or an op's operands and
   results), V elements per thread at a time (vector_width) and the
   remaining n % V one at a time, or all one at a time (V = 1). */
static LLVMValueRef emit_kernel(GpuLower *G, Value *const *inputs, int ninputs, Value *const *roots, int nroots,
                                bool flat, int V) {
  Cg *cg = &G->cg;
  const Type *shape = roots[0]->type;
  LLVMValueRef *ptrs = xcalloc((size_t)(ninputs + nroots) + 1, sizeof(LLVMValueRef)), n;
  LLVMValueRef fn = gpu_kernel_new(G, ninputs + nroots, ptrs, &n);
  KernelIO io = gpu_kernel_io((Value **)inputs, ninputs, ptrs);
  LLVMValueRef *outs = ptrs + ninputs;
  LLVMValueRef tid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.tid.x");
  LLVMValueRef ntid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.ntid.x");
  LLVMValueRef ctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.ctaid.x");
  LLVMValueRef nctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.nctaid.x");
  LLVMValueRef i0 = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, ctaid, ntid, ""), tid, "i0");
  LLVMValueRef stride = LLVMBuildMul(cg->b, ntid, nctaid, "stride");
  LLVMValueRef lo = i0;
  if (V > 1) {
    /* for (j = i0; j < n / V; j += stride): elements j*V .. j*V+V-1 */
    LLVMValueRef nv = LLVMBuildUDiv(cg->b, n, cg_i64(cg, V), "nv");
    Loop l = gpu_loop_begin(cg, i0, nv, stride, "j");
    store_vector(cg, &io, inputs, ninputs, roots, nroots, outs, LLVMBuildNSWMul(cg->b, l.iv, cg_i64(cg, V), ""), V,
                 flat);
    gpu_loop_end(cg, &l, stride);
    lo = LLVMBuildNSWAdd(cg->b, LLVMBuildNSWMul(cg->b, nv, cg_i64(cg, V), ""), i0, "");
  }
  Loop l = gpu_loop_begin(cg, lo, n, stride, "i");
  LLVMValueRef idx[CG_MAX_RANK];
  index_of(cg, shape, flat, l.iv, idx);
  elemental_store_roots(cg, &io, roots, nroots, outs, idx, l.iv, true);
  gpu_loop_end(cg, &l, stride);
  LLVMBuildRetVoid(cg->b);
  kernel_io_free(&io);
  xfree(ptrs);
  return fn;
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

/* The reduce ops of a reduction fusion's roots (NULL when a root is not
   a reduce result). */
static Op **reduces_of(Value **roots, int nroots) {
  Op **rs = xcalloc((size_t)nroots + 1, sizeof(Op *));
  for (int r = 0; r < nroots; r++) {
    Op *d = roots[r]->def;
    if (!d || d->kind != OP_REDUCE) {
      xfree(rs);
      return NULL;
    }
    rs[r] = d;
  }
  return rs;
}

/* ---- control flow, driven from the host ---- */

static bool same_buf(const GpuBuf *a, const GpuBuf *b) { return a->kind == b->kind && a->offset == b->offset; }

/* The kernel dst[i] = src[i], i < n, over 4-byte words (w4) or bytes. */
static int copy_kernel(GpuLower *G, bool w4) {
  if (G->copy_kernel[w4] >= 0) return G->copy_kernel[w4];
  Cg *cg = &G->cg;
  LLVMBasicBlockRef saved = LLVMGetInsertBlock(cg->b);
  LLVMValueRef ptrs[2], n;
  LLVMValueRef fn = gpu_kernel_new(G, 2, ptrs, &n);
  LLVMValueRef stride;
  Loop l = gpu_thread_loop(cg, n, &stride, "i");
  LLVMTypeRef t = w4 ? cg->t_i32 : cg->t_i8;
  LLVMValueRef v = LLVMBuildLoad2(cg->b, t, LLVMBuildGEP2(cg->b, t, ptrs[1], &l.iv, 1, ""), "");
  LLVMBuildStore(cg->b, v, LLVMBuildGEP2(cg->b, t, ptrs[0], &l.iv, 1, ""));
  gpu_loop_end(cg, &l, stride);
  LLVMBuildRetVoid(cg->b);
  if (saved) LLVMPositionBuilderAtEnd(cg->b, saved);
  size_t len;
  G->copy_kernel[w4] = G->names.len;
  VEC_PUSH(G->names, xstrdup(LLVMGetValueName2(fn, &len)));
  return G->copy_kernel[w4];
}

void gpu_add_copy(GpuLower *G, GpuBuf dst, GpuBuf src) {
  if (!src.bytes || same_buf(&dst, &src)) return;
  bool w4 = src.bytes % 4 == 0;
  GpuLaunch l = {0};
  l.kernel = copy_kernel(G, w4);
  l.n = w4 ? src.bytes / 4 : src.bytes;
  l.units = (l.n + GPU_LOOP_THREADS - 1) / GPU_LOOP_THREADS;
  l.nbufs = 2;
  l.bufs = xcalloc(3, sizeof(GpuBuf));
  l.bufs[0] = dst;
  l.bufs[1] = src;
  push_launch(G, l);
}

static bool tensor_buf(GpuLower *G, Value *v, GpuBuf *b) {
  memset(b, 0, sizeof *b);
  return v->type->kind != TY_TENSOR || gpu_value_buf(G, v, b);
}

/* Copies the values `from` returns into the storage of `to` (the loop
   state, a branch's results).  Sources that are some other destination
   (a body returning a permutation of its arguments) go through scratch
   first. */
static bool copy_returned(GpuLower *G, Op *ret, Value *to, int n) {
  GpuBuf src[64], dst[64];
  if (n > 64) return false;
  bool crossed = false;
  for (int j = 0; j < n; j++) {
    if (!tensor_buf(G, ret->opnds[j], &src[j]) || !tensor_buf(G, &to[j], &dst[j])) return false;
  }
  for (int j = 0; j < n && !crossed; j++)
    for (int k = 0; k < n; k++)
      if (k != j && src[j].bytes && dst[k].bytes && same_buf(&src[j], &dst[k]) && !same_buf(&src[j], &dst[j])) crossed = true;
  if (!crossed) {
    for (int j = 0; j < n; j++) gpu_add_copy(G, dst[j], src[j]);
    return true;
  }
  int64_t total = 0, off[64];
  for (int j = 0; j < n; j++) {
    off[j] = total;
    total += (src[j].bytes + 63) & ~(int64_t)63;
  }
  GpuBuf base = gpu_scratch(G, total);
  for (int j = 0; j < n; j++) {
    GpuBuf t = {BUF_TEMP, base.offset + off[j], src[j].bytes};
    if (!same_buf(&src[j], &dst[j])) gpu_add_copy(G, t, src[j]);
  }
  for (int j = 0; j < n; j++) {
    GpuBuf t = {BUF_TEMP, base.offset + off[j], src[j].bytes};
    if (!same_buf(&src[j], &dst[j])) gpu_add_copy(G, dst[j], t);
  }
  return true;
}

static void lower_block(GpuLower *G, Block *b, GpuSteps *into);
static void lower_parallel(GpuLower *G, Op *op);

enum { GRAPH_MIN_TRIPS = 4 };

/* Steps a stream capture can take: launches, and counted loops of them
   (no host step, no read-back, no library call). */
static bool graphable(const GpuSteps *steps) {
  for (int i = 0; i < steps->len; i++) {
    const GpuStep *st = &steps->data[i];
    if (st->kind == STEP_LAUNCH) continue;
    if (st->kind != STEP_WHILE || !st->counted || !graphable(&st->sub[1])) return false;
  }
  return true;
}

static void lower_while(GpuLower *G, Op *op) {
  int n = op->nres;
  bool ok = op->nregions == 2 && op->nopnds == n;
  for (int j = 0; ok && j < n; j++) {
    GpuBuf src, dst;
    ok = tensor_buf(G, op->opnds[j], &src) && tensor_buf(G, &op->res[j], &dst);
    if (ok) gpu_add_copy(G, dst, src);
  }
  Op *cret = ok ? block_terminator(op->regions[0]) : NULL, *bret = ok ? block_terminator(op->regions[1]) : NULL;
  GpuStep st = {0};
  st.kind = STEP_WHILE;
  st.op = op;
  ok = ok && cret && bret && cret->nopnds == 1 && bret->nopnds == n && cret->opnds[0]->type->kind == TY_TENSOR &&
       gpu_value_buf(G, cret->opnds[0], &st.pred);
  if (!ok) {
    gpu_unsupported(G, op, "a loop whose state has no device storage; ");
    return;
  }
  st.pred_et = cret->opnds[0]->type->elem;
  LoopCount lc;
  st.trips = loop_count(G->cg.m, op, &lc) ? lc.trips : -1;
  const char *env = getenv("XLAC_GPU_COUNTED"); /* 0: every loop reads its cond back (to compare) */
  st.counted = st.trips >= 0 && !(env && strcmp(env, "0") == 0);
  G->nloops++;
  G->ncounted += st.counted;
  st.nsub = 2;
  st.sub = xcalloc(2, sizeof(GpuSteps));
  lower_block(G, op->regions[0], &st.sub[0]);
  lower_block(G, op->regions[1], &st.sub[1]);
  GpuSteps *saved = G->cur;
  G->cur = &st.sub[1];
  if (!copy_returned(G, bret, op->res, n)) gpu_unsupported(G, op, "a loop whose state has no device storage; ");
  G->cur = saved;
  /* a CUDA graph of the body: XLAC_GPU_GRAPHS=0 never, =1 for any trip
     count, else from GRAPH_MIN_TRIPS on (capturing and instantiating cost
     about what a few iterations' launches do) */
  const char *genv = getenv("XLAC_GPU_GRAPHS");
  int64_t min_trips = genv && strcmp(genv, "1") == 0 ? 1 : GRAPH_MIN_TRIPS;
  st.graph = st.counted && st.trips >= min_trips && graphable(&st.sub[1]) && !(genv && strcmp(genv, "0") == 0);
  G->ngraphs += st.graph;
  VEC_PUSH(*G->cur, st);
}

static void lower_branch(GpuLower *G, Op *op) {
  GpuStep st = {0};
  st.kind = STEP_BRANCH;
  st.op = op;
  bool ok = op->nopnds >= 1 && op->nregions >= 1 && op->opnds[0]->type->kind == TY_TENSOR &&
            gpu_value_buf(G, op->opnds[0], &st.pred);
  ElemType et = ok ? op->opnds[0]->type->elem : ET_PRED;
  if (!ok || !(et == ET_PRED || (et_is_int(et) && et_bits(et) <= 64))) {
    gpu_unsupported(G, op, "a branch on a value without device storage; ");
    return;
  }
  st.pred_et = et;
  st.nsub = op->nregions;
  st.sub = xcalloc((size_t)st.nsub, sizeof(GpuSteps));
  GpuSteps *saved = G->cur;
  for (int r = 0; r < op->nregions; r++) {
    lower_block(G, op->regions[r], &st.sub[r]);
    Op *ret = block_terminator(op->regions[r]);
    G->cur = &st.sub[r];
    if (!ret || ret->nopnds != op->nres || !copy_returned(G, ret, op->res, op->nres))
      gpu_unsupported(G, op, "a branch whose results have no device storage; ");
    G->cur = saved;
  }
  VEC_PUSH(*G->cur, st);
}

/* One op: kernels and their launches, or an error at the op. */
static void lower_op(GpuLower *G, Op *op) {
  if (op->kind == OP_CONSTANT) return;
  /* a reshape buffer assignment computed in place: the bytes are there */
  if (op->kind == OP_RESHAPE && op->nopnds == 1 && op->nres == 1 &&
      buffers_same_storage(G->buffers, op->opnds[0], &op->res[0]))
    return;
  if (gpu_lower_dus_in_place(G, op) || gpu_dus_takes_update(G, op) || gpu_scatter_takes_update(G, op)) return;
  if (op->kind == OP_WHILE) {
    lower_while(G, op);
    return;
  }
  if (op->kind == OP_IF || op->kind == OP_CASE) {
    lower_branch(G, op);
    return;
  }
  if (gpu_host_op(op)) {
    gpu_lower_host_op(G, op);
    return;
  }
  if (op->kind == OP_INTERP_RUN_PARALLEL) {
    lower_parallel(G, op);
    return;
  }
  if (op->kind == OP_CHLO_RAGGED_DOT) {
    gpu_lower_ragged_dot(G, op);
    return;
  }
  if (op->kind == OP_CUSTOM_CALL) {
    gpu_lower_custom_call(G, op);
    return;
  }
  if (op->kind == OP_SELECT_AND_SCATTER) {
    gpu_lower_select_and_scatter(G, op);
    return;
  }
  if (op->kind == OP_SORT) {
    gpu_lower_sort(G, op);
    return;
  }
  if (op->kind == OP_CHLO_TOP_K) {
    gpu_lower_top_k(G, op);
    return;
  }
  if (op->kind == OP_FFT) {
    gpu_lower_fft(G, op);
    return;
  }
  if (op->kind == OP_CHOLESKY) {
    gpu_lower_cholesky(G, op);
    return;
  }
  if (op->kind == OP_TRIANGULAR_SOLVE) {
    gpu_lower_triangular_solve(G, op);
    return;
  }
  if (op->kind == OP_SCATTER) {
    gpu_lower_scatter(G, op);
    return;
  }
  if (op->kind == OP_REDUCE_WINDOW) {
    gpu_lower_reduce_window(G, op);
    return;
  }
  if (gpu_lower_random(G, op)) return;
  if (gpu_lower_dot(G, op)) return;
  if (gpu_lower_row(G, op)) return;
  Value **inputs, **roots;
  int ninputs, nroots;
  Func *callee = NULL;
  bool fusion = op->kind == OP_CALL && op_attr(op, "fusion_kind");
  if (fusion) {
    const char *name = op_attr_str(op, "callee");
    callee = name ? module_find_func(G->cg.m, name) : NULL;
    Op *ret = callee ? block_terminator(callee->body) : NULL;
    if (!ret || ret->nopnds != op->nres || callee->body->nargs != op->nopnds) {
      gpu_unsupported(G, op, "a fusion whose computation does not match it; ");
      return;
    }
    inputs = callee->body->args;
    ninputs = callee->body->nargs;
    roots = ret->opnds;
    nroots = ret->nopnds;
  } else {
    if (op->nregions && op->kind != OP_REDUCE) {
      gpu_unsupported(G, op, "");
      return;
    }
    inputs = op->opnds;
    ninputs = op->nopnds;
    nroots = op->nres;
    roots = xcalloc((size_t)nroots + 1, sizeof(Value *));
    for (int r = 0; r < nroots; r++) roots[r] = &op->res[r];
  }
  Op **reduces = nroots ? reduces_of(roots, nroots) : NULL;
  if (reduces) {
    gpu_lower_reduce(G, op, inputs, ninputs, roots, nroots, reduces);
    xfree(reduces);
    if (!fusion) xfree(roots);
    return;
  }
  bool ok = nroots > 0;
  for (int r = 0; ok && r < nroots; r++) ok = root_ok(roots[r]) && type_same_shape(roots[r]->type, roots[0]->type);
  ok = ok && elemental_supported(roots, nroots, inputs, ninputs);
  if (!ok) {
    const Op *culprit = fusion ? first_unsupported(callee->body) : NULL;
    const char *kind = fusion ? op_attr_str(op, "fusion_kind") : NULL;
    char *where = xasprintf("in a %s fusion; ", kind ? kind : "");
    if (culprit)
      gpu_unsupported(G, culprit, where);
    else
      gpu_unsupported(G, op, fusion ? "a multi-output fusion mixing reductions and elementwise results; " : "");
    xfree(where);
  }
  GpuBuf *bufs;
  int nbufs;
  if (ok && gpu_op_bufs(G, op, 0, &bufs, &nbufs)) {
    int before = G->launches.len;
    if (gpu_lower_transpose(G, op, inputs, ninputs, roots, nroots, bufs, nbufs)) {
      if (fusion && G->launches.len > before) G->nfusions++;
      if (!fusion) xfree(roots);
      return;
    }
    if (gpu_add_loop(G, op, inputs, ninputs, roots, nroots, bufs, nbufs) && fusion) G->nfusions++;
  }
  if (!fusion) xfree(roots);
}

bool gpu_add_loop(GpuLower *G, Op *op, Value *const *inputs, int ninputs, Value *const *roots, int nroots, GpuBuf *bufs,
                  int nbufs) {
  PtrMap seen = {0};
  bool flat = true;
  for (int r = 0; r < nroots && flat; r++) flat = gpu_flat(roots[r], roots[0]->type, inputs, ninputs, &seen);
  ptrmap_free(&seen);
  int V = vector_width(&G->cg, inputs, ninputs, roots, nroots, flat);
  LLVMValueRef fn = emit_kernel(G, inputs, ninputs, roots, nroots, flat, V);
  int64_t n = type_num_elements(roots[0]->type), threads = (n + V - 1) / V;
  if (!gpu_add_launch(G, op, fn, n, (threads + GPU_LOOP_THREADS - 1) / GPU_LOOP_THREADS, 0, bufs, nbufs)) return false;
  if (V > 1) G->launches.data[G->launches.len - 1].align = GPU_VECTOR_BYTES;
  return true;
}

static void lower_block(GpuLower *G, Block *b, GpuSteps *into) {
  GpuSteps *saved = G->cur;
  G->cur = into;
  Op *ret = block_terminator(b);
  for (Op *op = b->first; op && op != ret; op = op->next) lower_op(G, op);
  G->cur = saved;
}

/* Plans what f runs into p, with f's own buffer assignment and scratch
   (the entry, or a program of a run_parallel met while lowering it). */
static void lower_program(GpuLower *G, Func *f, GpuProgram *p) {
  BufferAssignment *saved = G->buffers;
  int64_t saved_scratch = G->scratch_bytes;
  BufferOptions bo = {.multi_result_state = true};
  G->buffers = buffers_assign_with(G->cg.m, f, &bo);
  G->scratch_bytes = 0;
  p->exe = G->exe;
  p->f = f;
  lower_block(G, f->body, &p->steps);
  /* where each result is read from (a token has no storage) */
  Op *ret = block_terminator(f->body);
  p->nrets = f->nresults;
  p->rets = xcalloc((size_t)f->nresults + 1, sizeof(GpuBuf));
  for (int r = 0; !G->failed && ret && r < ret->nopnds && r < f->nresults; r++)
    if (ret->opnds[r]->type->kind != TY_TOKEN && !gpu_value_buf(G, ret->opnds[r], &p->rets[r]))
      gpu_unsupported(G, ret, "a result without device storage; ");
  /* gpu_execute_device gives every result memory of its own: a result
     whose value lives elsewhere (a parameter, a constant, the temp arena,
     another result) is copied into it by a kernel (drivers without a
     working cuMemcpyDtoD included) */
  p->ret_copy = xcalloc((size_t)f->nresults + 1, sizeof(int));
  for (int r = 0; r < f->nresults; r++) {
    GpuBuf dst = {BUF_RESULT, r, p->rets[r].bytes};
    GpuSteps copies = {0};
    GpuSteps *saved_cur = G->cur;
    G->cur = &copies;
    if (!G->failed && p->rets[r].kind != BUF_NONE) gpu_add_copy(G, dst, p->rets[r]);
    G->cur = saved_cur;
    p->ret_copy[r] = copies.len ? copies.data[0].launch : -1;
    G->ret_copies += copies.len;
    VEC_FREE(copies);
  }
  /* results that may be computed into their donated parameter (the
     entry's): the analysis is the CPU's (one kernel writes the result,
     reading the parameter only at the element it writes: on the GPU the
     same thread reads and then stores each element) */
  p->in_place = xcalloc((size_t)f->nresults + 1, sizeof(int));
  for (int r = 0; r < f->nresults; r++) {
    int q = !G->program && G->alias_param && r < G->nalias ? G->alias_param[r] : -1;
    p->in_place[r] = -1;
    if (!G->failed && q >= 0 && q < f->body->nargs && result_in_place(G->cg.m, f, G->buffers, r, q)) {
      p->in_place[r] = q;
      G->exe->stats.in_place_results++;
    }
  }
  p->temp_bytes = G->buffers->temp_bytes;
  if (G->scratch_bytes) p->temp_bytes = scratch_base(G) + G->scratch_bytes;
  buffers_free(G->buffers);
  G->buffers = saved;
  G->scratch_bytes = saved_scratch;
}

/* A row fusion the row kernel cannot compile (row.c), or every one with
   XLAC_GPU_ROW=0 (to compare), goes back to its stages, each a kernel of
   its own: its body's ops replace the call (any call, inlined). */
static void unrow_call(Module *m, Op *call) {
  Func *g = module_find_func(m, op_attr_str(call, "callee"));
  PtrMap map = {0}, fwd = {0};
  for (int i = 0; i < g->body->nargs; i++) ptrmap_put(&map, g->body->args[i], call->opnds[i]);
  Op *ret = block_terminator(g->body);
  for (const Op *op = g->body->first; op && op != ret; op = op->next)
    block_insert_before(call->parent, call, op_clone(m, op, &map));
  for (int r = 0; r < call->nres; r++) {
    Value *v = ptrmap_get(&map, ret->opnds[r]);
    ptrmap_put(&fwd, &call->res[r], v ? v : ret->opnds[r]);
  }
  Block *b = call->parent;
  op_erase(call);
  block_forward_operands(b, &fwd);
  ptrmap_free(&map);
  ptrmap_free(&fwd);
}

static void unrow_block(Module *m, Block *b, bool all) {
  for (Op *op = b->first; op;) {
    Op *next = op->next;
    if (row_is_fusion_call(op) && row_fusion_form(m, op) && (all || !gpu_row_fusion_ok(m, op))) {
      unrow_call(m, op);
    } else {
      for (int r = 0; r < op->nregions; r++) unrow_block(m, op->regions[r], all);
    }
    op = next;
  }
}

/* Calls of functions that are not fusions (the ones the inliner keeps:
   "noinline") are inlined here, as many as GPU_MAX_INLINED (recursion
   stops there, and the call left is an error at the op): the GPU runs a
   program as one list of steps over one buffer assignment. */
enum { GPU_MAX_INLINED = 4096 };

static void inline_calls(Module *m, Block *b, int *budget) {
  for (Op *op = b->first; op;) {
    Op *next = op->next;
    const char *name = op->kind == OP_CALL && !op_attr(op, "fusion_kind") ? op_attr_str(op, "callee") : NULL;
    Func *g = name ? module_find_func(m, name) : NULL;
    if (g && g->body && block_terminator(g->body) && g->body->nargs == op->nopnds && *budget > 0) {
      Op *prev = op->prev;
      unrow_call(m, op);
      --*budget;
      next = prev ? prev->next : b->first; /* the inlined ops, which may call too */
    } else {
      for (int r = 0; r < op->nregions; r++) inline_calls(m, op->regions[r], budget);
    }
    op = next;
  }
}

static bool plain_signature(const Func *f) {
  for (int i = 0; i < f->body->nargs; i++)
    if (f->body->args[i]->type->kind != TY_TENSOR && f->body->args[i]->type->kind != TY_TOKEN) return false;
  for (int i = 0; i < f->nresults; i++)
    if (f->result_types[i]->kind != TY_TENSOR && f->result_types[i]->kind != TY_TOKEN) return false;
  return true;
}

/* interpreter.run_parallel: each program it names is compiled with the
   executable (once), and the op becomes a PARALLEL step that runs them as
   the processes of a grid (run_parallel_step). */
static void lower_parallel(GpuLower *G, Op *op) {
  if (G->program) {
    gpu_unsupported(G, op, "a run_parallel inside a program of another; ");
    return;
  }
  const Attr *pa = op_attr(op, "programs");
  for (int r = 0; pa && pa->kind == ATTR_ARRAY && r < pa->n; r++) {
    const Attr *row = pa->elems[r];
    for (int k = 0; row->kind == ATTR_ARRAY && k < row->n; k++) {
      const Attr *a = row->elems[k];
      if ((a->kind != ATTR_SYMBOL && a->kind != ATTR_STRING) || !a->s) continue; /* the interpreter reports it */
      Func *f = module_find_func(G->cg.m, a->s[0] == '@' ? a->s + 1 : a->s);
      bool seen = false;
      for (int i = 0; f && i < G->exe->progs.len; i++) seen |= G->exe->progs.data[i]->f == f;
      if (!f || seen) continue;
      if (!plain_signature(f)) {
        gpu_unsupported(G, op, "a program with tuple parameters or results; ");
        continue;
      }
      int budget = GPU_MAX_INLINED;
      inline_calls(G->cg.m, f->body, &budget);
      GpuProgram *p = xcalloc(1, sizeof *p);
      VEC_PUSH(G->exe->progs, p);
      G->program = f;
      lower_program(G, f, p);
      G->program = NULL;
    }
  }
  gpu_lower_host_step(G, op, STEP_PARALLEL);
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


GpuExecutable *gpu_compile(Module *m, Func *entry, const GpuOptions *o) {
  double t0 = now_ms();
  GpuExecutable *exe = xcalloc(1, sizeof *exe);
  exe->m = m;
  exe->entry = entry;
  exe->profile = o->profile;
  pthread_mutex_init(&exe->prof_mu, NULL);
  if (o->host_ops) exe->host_opts = *o->host_ops;
  else exe->host_opts.quiet_checks = true;
  interp_init(&exe->host, m, &exe->host_opts);
  DumpOptions dumpo = {0};
  dumpo.dir = o->dump_dir;
  dumpo.module_id = o->module_id;
  dumpo.no_fusion = o->no_fusion;
  dump_module(&dumpo, m, "before_optimizations");
  exe->flat = flatten_entry(m, entry);
  exe->flat->is_private = false;
  if (m->format == SRC_HLO) m->entry = exe->flat;
  PassOptions po = {0};
  po.fuse = !o->no_fusion;
  po.after_pass = dump_after_pass;
  po.ud = &dumpo;
  /* custom-call targets are the gpu registry's (custom.c), checked when
     each call is lowered; annotations go here */
  if (!run_cpu_pipeline(m, &po) || !resolve_custom_calls(m, exe->flat, true)) {
    gpu_executable_free(exe);
    return NULL;
  }
  int budget = GPU_MAX_INLINED;
  inline_calls(m, exe->flat->body, &budget);
  const char *row = getenv("XLAC_GPU_ROW");
  unrow_block(m, exe->flat->body, row && strcmp(row, "0") == 0);
  double t_ir = now_ms();
  exe->stats.passes_ms = t_ir - t0;
  dump_module(&dumpo, m, "after_optimizations");
  Func *f = exe->flat;
  if (!plain_signature(f)) {
    error_at(f->loc, "the gpu backend does not support tuple parameters and results yet");
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
  G.cg.narrow_div = true;
  G.cg.no_libm = true;
  G.cg.top_tested_loops = true;
  hold.mod = G.cg.mod;
  hold.b = G.cg.b;
  gpu_set_target(G.cg.mod, hold.tm);
  G.copy_kernel[0] = G.copy_kernel[1] = -1;
  /* products go to cuBLASLt only when compiling for a device, where the
     library is there (no GPU, no need to open it) */
  G.blas = o->device && gpu_cublaslt_available(NULL, NULL, NULL);
  G.alias_param = o->alias_param;
  G.nalias = o->nalias;
  /* kernel names differ between the executables of a process: a driver
     (GPGPU-Sim's) may look functions up by name across modules */
  static atomic_uint serial;
  G.serial = atomic_fetch_add(&serial, 1);
  lower_program(&G, f, &exe->main);
  exe->stats.temp_bytes = exe->main.temp_bytes;
  ptrmap_free(&G.cg.const_globals);
  ptrmap_free(&G.marked);
  exe->names = G.names.data;
  exe->nkernels = G.names.len;
  exe->launches = G.launches.data;
  exe->nlaunches = G.launches.len;
  exe->consts = G.consts.data;
  exe->nconsts = G.consts.len;
  exe->stats.kernels = exe->nlaunches - G.ret_copies;
  exe->stats.fusions = G.nfusions;
  exe->stats.host_steps = G.nhost;
  exe->stats.loops = G.nloops;
  exe->stats.counted_loops = G.ncounted;
  exe->stats.graph_loops = G.ngraphs;
  exe->stats.gemms = G.ngemms;
  exe->stats.blas_products = G.nblas;
  exe->stats.blas_apart = G.nblas_apart;
  exe->stats.conv_blas = G.nconv_blas;
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
      if (o->device && o->device->drv->llvm_ir) {
        /* the SIMT harness loads the IR, not the PTX */
        LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(G.cg.mod);
        exe->bitcode_len = LLVMGetBufferSize(bc);
        exe->bitcode = xmalloc(exe->bitcode_len + 1);
        memcpy(exe->bitcode, LLVMGetBufferStart(bc), exe->bitcode_len);
        LLVMDisposeMemoryBuffer(bc);
      }
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
  GpuIrImage ir = {GPU_IR_IMAGE_MAGIC, e->bitcode, e->bitcode_len};
  if (drv->llvm_ir) {
    r = drv->cuModuleLoadData(&e->mod, &ir);
  } else if (drv->cuModuleLoadDataEx) {
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
  /* a synchronous copy's transfer may still be under way when it returns,
     ordered on the default stream only, which the executions' own streams
     do not wait for */
  if (d->async && e->nconsts && !cuda_check(drv->cuCtxSynchronize(), "cuCtxSynchronize (the constants)", err)) {
    unload(e, drv);
    return false;
  }
  e->dev = d;
  return true;
}

typedef struct DevMem {
  CUdeviceptr *params, *results, temp;
  int nparams, nresults;
} DevMem;

/* One execution of a program: where it runs, its device memory, and the
   interpreter state its host steps run on (the executable's own, or that
   of the grid process it runs as, whose ids replica_id and partition_id
   give). */
typedef struct GpuMark {
  const void *site;
  const Op *op;
  const char *what;
  int depth;
  CUevent ev[2];
} GpuMark;

typedef struct GpuRun {
  GpuExecutable *e;
  GpuDevice *d;
  DevMem dm;
  Interp *I;
  bool held; /* d->mu (not during host steps) */
  /* the execution's own stream (d->async), else NULL: the default stream */
  CUstream stream;
  /* the device time's events (run_timed), read once the work is done */
  CUevent timing[2];
  bool capturing; /* run_steps is recording a loop body into a graph */
  /* GpuExecutable.profile (the executions of gpu_execute): events around
     each timed step, read once the work is done (timing_read) */
  bool profile;
  int depth; /* loops and branches entered */
  VEC(GpuMark) marks;
} GpuRun;

/* An out-of-memory unwind (of a grid process) must not leave the device
   taken. */
static void release_device(void *p) {
  GpuRun *R = p;
  if (R->held) pthread_mutex_unlock(&R->d->mu);
  R->held = false;
}

static CUdeviceptr buf_ptr(const GpuExecutable *e, const DevMem *dm, const GpuBuf *b) {
  switch (b->kind) {
  case BUF_PARAM: return dm->params[b->offset];
  case BUF_RESULT: return dm->results[b->offset];
  case BUF_TEMP: return dm->temp + (CUdeviceptr)b->offset;
  case BUF_CONST: return e->const_ptrs[b->offset];
  default: return 0;
  }
}

/* An execution's memory back to the device's pool (the device
   synchronized: nothing uses it any more). */
static void free_devmem(GpuDevice *d, DevMem *dm) {
  for (int i = 0; i < dm->nparams; i++) gpu_mem_free(d, dm->params[i]);
  for (int i = 0; i < dm->nresults; i++) gpu_mem_free(d, dm->results[i]);
  gpu_mem_free(d, dm->temp);
  xfree(dm->params);
  xfree(dm->results);
}

static bool run_launch(GpuRun *R, const GpuLaunch *l, char **err) {
  GpuExecutable *e = R->e;
  GpuDevice *d = R->d;
  if (l->units <= 0) return true;
  int loop_block = d->max_threads_per_block < GPU_LOOP_THREADS ? d->max_threads_per_block : GPU_LOOP_THREADS;
  int block = l->block ? l->block : loop_block;
  if (block > d->max_threads_per_block) {
    *err = xasprintf("kernel %s needs %d threads a block; '%s' allows %d", e->names[l->kernel], block, d->name,
                     d->max_threads_per_block);
    return false;
  }
  int64_t blocks = l->units, cap = (int64_t)d->sm_count * GPU_BLOCKS_PER_SM;
  if (blocks > cap) blocks = cap;
  CUdeviceptr *ptrs = xcalloc((size_t)l->nbufs + 1, sizeof(CUdeviceptr));
  void **params = xcalloc((size_t)l->nbufs + 2, sizeof(void *));
  for (int b = 0; b < l->nbufs; b++) {
    ptrs[b] = buf_ptr(e, &R->dm, &l->bufs[b]);
    params[b] = &ptrs[b];
    if (l->align && ptrs[b] % (CUdeviceptr)l->align) {
      /* never met: every buffer starts on 64 bytes (docs/gpu.md) */
      *err = xasprintf("kernel %s needs its buffers aligned to %d bytes; buffer %d is not", e->names[l->kernel],
                       l->align, b);
      xfree(params);
      xfree(ptrs);
      return false;
    }
  }
  int64_t n = l->id == ID_REPLICA ? R->I->replica_id : l->id == ID_PARTITION ? R->I->partition_id : l->n;
  params[l->nbufs] = &n;
  char what[96];
  snprintf(what, sizeof what, "cuLaunchKernel(%s)", e->names[l->kernel]);
  bool ok = cuda_check(d->drv->cuLaunchKernel(e->fns[l->kernel], (unsigned)blocks, 1, 1, (unsigned)block, 1, 1, 0,
                                              R->stream, params, NULL),
                       what, err);
  xfree(params);
  xfree(ptrs);
  return ok;
}

/* A loop's predicate or a branch's index, read back (the copy waits for
   the kernels before it). */
/* Before a step reads device memory on the host: the execution's stream
   has done its work (a copy on the default stream does not wait for it). */
static bool host_sync(GpuRun *R, char **err) {
  return !R->stream || cuda_check(R->d->drv->cuStreamSynchronize(R->stream), "cuStreamSynchronize", err);
}

static bool read_pred(GpuRun *R, const GpuStep *st, int64_t *v, char **err) {
  unsigned char b[8] = {0};
  if (!host_sync(R, err)) return false;
  int n = st->pred_et == ET_PRED ? 1 : et_bytes(st->pred_et);
  if (!cuda_check(R->d->drv->cuMemcpyDtoH(b, buf_ptr(R->e, &R->dm, &st->pred), (size_t)n),
                  "cuMemcpyDtoH (a predicate)", err))
    return false;
  uint64_t u = 0;
  for (int i = n - 1; i >= 0; i--) u = u << 8 | b[i]; /* little-endian, as the device */
  if (st->pred_et == ET_PRED) {
    *v = u != 0;
  } else if (et_is_signed(st->pred_et) && n < 8 && (u >> (8 * n - 1) & 1)) {
    *v = (int64_t)(u | ~(uint64_t)0 << (8 * n)); /* sign-extended */
  } else {
    *v = (int64_t)u;
  }
  /* an unsigned index beyond int64 is out of range like a negative one */
  if (!et_is_signed(st->pred_et) && *v < 0) *v = -1;
  return true;
}

static bool exec_program(GpuExecutable *e, const GpuProgram *p, GpuDevice *d, Interp *I, int nargs, IVal **args,
                         IVal **results, char **err);

/* A program of a run_parallel, run as one process of its grid. */
static bool run_program(void *ctx, Interp *I, int nargs, IVal **args, IVal **results) {
  GpuProgram *p = ctx;
  char *err = NULL;
  bool ok = exec_program(p->exe, p, p->exe->dev, I, nargs, args, results, &err);
  /* a failure the interpreter met (a check, another process's) is
     reported already */
  if (!ok && !I->failed) error_at(p->f->loc, "%s", err ? err : "the GPU execution failed");
  if (!ok) I->failed = true;
  xfree(err);
  return ok;
}

static void bind_program(void *user, GridProgram *gp) {
  GpuExecutable *e = user;
  for (int i = 0; i < e->progs.len; i++)
    if (e->progs.data[i]->f == gp->func) {
      gp->run = run_program;
      gp->ctx = e->progs.data[i];
    }
}

/* How a host step runs: without the device, which the other processes of
   a grid may use meanwhile (a collective waits for them). */
static bool host_call(void *user, Interp *I, Op *op, IVal **in, IVal **out) {
  GpuRun *R = user;
  release_device(R);
  bool ok = op->kind == OP_INTERP_RUN_PARALLEL ? interp_run_parallel(I, op, in, out, bind_program, R->e)
                                               : interp_run_op(I, op, in, out);
  pthread_mutex_lock(&R->d->mu);
  R->held = true;
  char *err = NULL;
  /* the threads of a grid bind the context for themselves */
  if (ok && !gpu_device_bind(R->d, &err)) ok = interp_error(I, op, "%s", err);
  xfree(err);
  return ok;
}

static bool run_steps(GpuRun *R, const GpuSteps *steps, char **err);

/* --profile: an event recorded on the execution's stream before a timed
   step (prof_begin, which answers its mark or -1) and one after it
   (prof_end).  The driver keeps the device's time of both; timing_read
   takes their difference once the work is done. */
static int prof_begin(GpuRun *R, const void *site, const Op *op, const char *what) {
  const CudaDriver *drv = R->d->drv;
  if (!R->profile || R->capturing || !drv->cuEventCreate || !drv->cuEventRecord || !drv->cuEventElapsedTime ||
      !drv->cuEventDestroy)
    return -1;
  GpuMark mk = {site, op, what, R->depth, {NULL, NULL}};
  if (drv->cuEventCreate(&mk.ev[0], 0) != CUDA_SUCCESS) return -1;
  if (drv->cuEventRecord(mk.ev[0], R->stream) != CUDA_SUCCESS) {
    drv->cuEventDestroy(mk.ev[0]);
    return -1;
  }
  VEC_PUSH(R->marks, mk);
  return R->marks.len - 1;
}

static void prof_end(GpuRun *R, int k) {
  const CudaDriver *drv = R->d->drv;
  if (k < 0) return;
  CUevent ev = NULL;
  if (drv->cuEventCreate(&ev, 0) != CUDA_SUCCESS) return;
  if (drv->cuEventRecord(ev, R->stream) != CUDA_SUCCESS) {
    drv->cuEventDestroy(ev);
    return;
  }
  R->marks.data[k].ev[1] = ev;
}

/* The marks' times added to the executable's rows (when ok: the work is
   done), and their events destroyed. */
static void prof_collect(GpuRun *R, bool ok) {
  const CudaDriver *drv = R->d->drv;
  GpuExecutable *e = R->e;
  if (R->marks.len) pthread_mutex_lock(&e->prof_mu);
  for (int k = 0; k < R->marks.len; k++) {
    GpuMark *mk = &R->marks.data[k];
    float ms = 0;
    if (ok && mk->ev[1] && drv->cuEventElapsedTime(&ms, mk->ev[0], mk->ev[1]) == CUDA_SUCCESS) {
      intptr_t i = (intptr_t)ptrmap_get(&e->prof_index, mk->site);
      if (!i) {
        GpuProfRow row = {mk->op, mk->what, mk->depth, 0, 0, 0};
        VEC_PUSH(e->prof, row);
        i = e->prof.len;
        ptrmap_put(&e->prof_index, mk->site, (void *)i);
      }
      GpuProfRow *row = &e->prof.data[i - 1];
      if (!row->count || ms < row->min_ms) row->min_ms = ms;
      row->ms += ms;
      row->count++;
    }
    for (int j = 0; j < 2; j++)
      if (mk->ev[j]) drv->cuEventDestroy(mk->ev[j]);
  }
  if (R->marks.len) pthread_mutex_unlock(&e->prof_mu);
  VEC_FREE(R->marks);
}

static int prof_row_cmp(const void *pa, const void *pb) {
  const GpuProfRow *a = *(const GpuProfRow *const *)pa, *b = *(const GpuProfRow *const *)pb;
  return a->ms < b->ms ? 1 : a->ms > b->ms ? -1 : 0;
}

bool gpu_executable_profile(GpuExecutable *e, StrBuf *b, int top, bool reset) {
  if (!e || !e->profile) return false;
  pthread_mutex_lock(&e->prof_mu);
  if (reset) {
    ptrmap_free(&e->prof_index);
    VEC_FREE(e->prof);
    pthread_mutex_unlock(&e->prof_mu);
    return true;
  }
  int n = e->prof.len;
  const GpuProfRow **rows = xcalloc((size_t)n + 1, sizeof *rows);
  double total = 0;
  int64_t runs = 0;
  for (int i = 0; i < n; i++) {
    rows[i] = &e->prof.data[i];
    /* the top-level steps cover an execution; the others are inside loops */
    if (!rows[i]->depth) {
      total += rows[i]->ms;
      if (rows[i]->count > runs) runs = rows[i]->count;
    }
  }
  if (!runs)
    for (int i = 0; i < n; i++) total += rows[i]->ms;
  if (n) qsort(rows, (size_t)n, sizeof *rows, prof_row_cmp);
  double per = runs ? (double)runs : 1;
  sb_printf(b, "profile: %lld execution%s, %.3f ms of device time in %d launch sites (%.3f ms per execution, mean)\n",
            (long long)runs, runs == 1 ? "" : "s", total, n, total / per);
  sb_puts(b, "      ms/exec    share    calls  us/call   min us  what: op (location; '>' marks steps inside loops "
             "and branches)\n");
  for (int k = 0; k < n && (top <= 0 || k < top); k++) {
    const GpuProfRow *r = rows[k];
    sb_printf(b, "  %11.4f  %6.2f%%  %7lld  %7.1f  %7.1f  %s%s: ", r->ms / per, total > 0 ? 100.0 * r->ms / total : 0.0,
              (long long)(r->count / (runs ? runs : 1)), 1e3 * r->ms / (double)r->count, 1e3 * r->min_ms,
              r->depth ? "> " : "", r->what);
    if (r->op) print_op_brief(b, e->m, r->op);
    else sb_puts(b, "a copy");
    sb_putc(b, '\n');
  }
  xfree(rows);
  pthread_mutex_unlock(&e->prof_mu);
  return true;
}

/* A counted loop whose body is only launches: the body captured once
   into a CUDA graph (on the execution's stream, capture local to this
   thread) and that graph launched once per iteration, instead of each
   kernel.  Where the driver has no graphs, or the capture or the
   instantiation fails, nothing has run and *done stays false: the loop
   then runs its launches as usual. */
static bool run_graph(GpuRun *R, const GpuStep *st, bool *done, char **err) {
  const CudaDriver *drv = R->d->drv;
  *done = false;
  if (!R->stream || !drv->cuStreamBeginCapture || !drv->cuStreamEndCapture || !drv->cuGraphInstantiate ||
      !drv->cuGraphLaunch || !drv->cuGraphExecDestroy || !drv->cuGraphDestroy)
    return true;
  if (drv->cuStreamBeginCapture(R->stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL) != CUDA_SUCCESS) return true;
  R->capturing = true;
  char *why = NULL;
  bool ok = run_steps(R, &st->sub[1], &why);
  R->capturing = false;
  xfree(why); /* a failure the plain launches meet again, and report */
  CUgraph g = NULL;
  CUgraphExec x = NULL;
  ok = drv->cuStreamEndCapture(R->stream, &g) == CUDA_SUCCESS && ok && g &&
       drv->cuGraphInstantiate(&x, g, 0) == CUDA_SUCCESS && x;
  if (g) drv->cuGraphDestroy(g); /* the instantiated graph keeps what it needs */
  if (!ok) return true;
  *done = true;
  R->e->stats.graphs_run++;
  for (int64_t t = 0; ok && t < st->trips; t++) ok = cuda_check(drv->cuGraphLaunch(x, R->stream), "cuGraphLaunch", err);
  drv->cuGraphExecDestroy(x); /* freed by the driver once its launches are done */
  return ok;
}

static bool run_steps(GpuRun *R, const GpuSteps *steps, char **err) {
  GpuExecutable *e = R->e;
  for (int i = 0; i < steps->len; i++) {
    const GpuStep *st = &steps->data[i];
    int64_t v;
    switch (st->kind) {
    case STEP_LAUNCH: {
      const GpuLaunch *l = &e->launches[st->launch];
      int mk = prof_begin(R, l, l->op, e->names[l->kernel]);
      if (!run_launch(R, l, err)) return false;
      prof_end(R, mk);
      break;
    }
    case STEP_WHILE: {
      if (st->graph && !R->capturing && !R->profile) {
        bool done = false;
        if (!run_graph(R, st, &done, err)) return false;
        if (done) break;
      }
      int mk = prof_begin(R, st, st->op, "loop");
      R->depth++;
      for (int64_t t = 0; st->counted && t < st->trips; t++)
        if (!run_steps(R, &st->sub[1], err)) return false;
      for (; !st->counted;) {
        if (!run_steps(R, &st->sub[0], err) || !read_pred(R, st, &v, err)) return false;
        if (!v) break;
        if (!run_steps(R, &st->sub[1], err)) return false;
      }
      R->depth--;
      prof_end(R, mk);
      break;
    }
    case STEP_CUSTOM: {
      void **ptrs = xcalloc((size_t)st->nbufs + 1, sizeof(void *));
      for (int b = 0; b < st->nbufs; b++) ptrs[b] = (void *)(uintptr_t)buf_ptr(e, &R->dm, &st->bufs[b]);
      /* the target gets the execution's stream, and the work before it
         done: one that reads its operands with the driver's synchronous
         copies (on the default stream) sees them computed */
      int mk = prof_begin(R, st, st->op, st->name);
      bool ok = host_sync(R, err) && gpu_run_custom(st, R->stream, ptrs, err);
      xfree(ptrs);
      if (!ok) return false;
      prof_end(R, mk);
      break;
    }
    case STEP_BLAS: {
      CUdeviceptr *ptrs = xcalloc((size_t)st->nbufs + 1, sizeof(CUdeviceptr));
      for (int b = 0; b < st->nbufs; b++) ptrs[b] = buf_ptr(e, &R->dm, &st->bufs[b]);
      bool ran = false;
      int mk = prof_begin(R, st, st->op, "cuBLASLt");
      bool ok = gpu_blas_run(R->d, st->blas, R->stream, ptrs, &ran, err);
      xfree(ptrs);
      if (!ok) return false;
      if (ran) {
        e->stats.blas_ran++;
      } else {
        e->stats.blas_declined++;
        R->depth++; /* our kernel's own row, within this one */
        ok = run_steps(R, &st->sub[0], err);
        R->depth--;
        if (!ok) return false;
      }
      prof_end(R, mk);
      break;
    }
    case STEP_HOST: case STEP_PARALLEL: {
      CUdeviceptr *ptrs = xcalloc((size_t)st->nbufs + 1, sizeof(CUdeviceptr));
      for (int b = 0; b < st->nbufs; b++) ptrs[b] = buf_ptr(e, &R->dm, &st->bufs[b]);
      int mk = prof_begin(R, st, st->op, "host");
      bool ok = host_sync(R, err) && gpu_run_host(st, R->d->drv, R->stream, ptrs, R->I, host_call, R, err);
      xfree(ptrs);
      if (!ok) return false;
      prof_end(R, mk);
      break;
    }
    case STEP_BRANCH: {
      int mk = prof_begin(R, st, st->op, "branch");
      if (!read_pred(R, st, &v, err)) return false;
      /* if: true takes the first region; case: an index out of range the last */
      int k = st->pred_et == ET_PRED ? (v ? 0 : 1) : (v >= 0 && v < st->nsub ? (int)v : st->nsub - 1);
      if (k >= st->nsub) k = st->nsub - 1;
      R->depth++;
      if (!run_steps(R, &st->sub[k], err)) return false;
      R->depth--;
      prof_end(R, mk);
      break;
    }
    }
  }
  return true;
}

/* The device time of R's work, when both timing events were recorded;
   after the work is done.  Destroys the events. */
static void timing_read(GpuRun *R, bool ok) {
  const CudaDriver *drv = R->d->drv;
  prof_collect(R, ok);
  float ms = 0;
  if (ok && R->timing[0] && R->timing[1] && drv->cuEventElapsedTime(&ms, R->timing[0], R->timing[1]) == CUDA_SUCCESS)
    R->e->stats.device_ms = ms;
  for (int i = 0; i < 2; i++)
    if (R->timing[i]) drv->cuEventDestroy(R->timing[i]);
  R->timing[0] = R->timing[1] = NULL;
}

/* Queues p's steps over R's memory on R's stream, timing them with events
   where the driver has them (not for the processes of a grid, which share
   the device); on the default stream (no stream of its own), synchronizes
   and reads the time. */
static bool run_timed(GpuRun *R, const GpuProgram *p, char **err) {
  const CudaDriver *drv = R->d->drv;
  CUevent *ev = R->timing;
  bool timed = !R->I->grid && drv->cuEventCreate && drv->cuEventRecord && drv->cuEventElapsedTime &&
               drv->cuEventDestroy && drv->cuEventCreate(&ev[0], 0) == CUDA_SUCCESS;
  if (timed && drv->cuEventCreate(&ev[1], 0) != CUDA_SUCCESS) ev[1] = NULL, timed = false;
  timed = timed && drv->cuEventRecord(ev[0], R->stream) == CUDA_SUCCESS;
  R->e->stats.blas_ran = R->e->stats.blas_declined = R->e->stats.graphs_run = 0;
  bool ok = run_steps(R, &p->steps, err);
  if (!(timed && ok && drv->cuEventRecord(ev[1], R->stream) == CUDA_SUCCESS) && ev[1]) {
    drv->cuEventDestroy(ev[1]);
    ev[1] = NULL;
  }
  if (R->stream) return ok;
  if (ok) ok = cuda_check(drv->cuCtxSynchronize(), "cuCtxSynchronize (after the kernels)", err);
  timing_read(R, ok);
  return ok;
}

static size_t storage_bytes(const Type *t) {
  return t->kind == TY_TENSOR ? (size_t)type_num_elements(t) * (size_t)et_bytes(t->elem) : 0;
}

/* An asynchronous execution's end (d->async): its work is queued on
   R->stream, the device held.  The device is let go while the host waits
   for the work (another process of a grid queues its own meanwhile, which
   the GPU may run beside it), then taken again for the downloads and the
   memory.  On failure (ok false: a step failed while queuing) what was
   queued is still waited for before the memory goes back.  False with
   *err when the work failed. */
static bool await_stream(GpuRun *R, bool ok, char **err) {
  GpuDevice *d = R->d;
  GpuEvent *done = ok ? gpu_event_record(d, R->stream, err) : NULL;
  if (!done) {
    d->drv->cuStreamSynchronize(R->stream);
    timing_read(R, false);
    return false;
  }
  release_device(R);
  ok = gpu_event_wait(done, err);
  pthread_mutex_lock(&d->mu);
  R->held = true;
  gpu_event_release(done);
  char *berr = NULL;
  if (!gpu_device_bind(d, &berr) && ok) { /* the first error is the one reported */
    *err = berr;
    berr = NULL;
    ok = false;
  }
  xfree(berr);
  timing_read(R, ok);
  return ok;
}

/* Runs program p of e on d as the process I says (its host steps run on
   I); takes the device for the whole execution but its host steps and,
   where executions are asynchronous, the wait for its work. */
static bool exec_program(GpuExecutable *e, const GpuProgram *p, GpuDevice *d, Interp *I, int nargs, IVal **args,
                         IVal **results, char **err) {
  Func *f = p->f;
  if (nargs != f->body->nargs) {
    *err = xasprintf("expected %d arguments, got %d", f->body->nargs, nargs);
    return false;
  }
  for (int i = 0; i < nargs; i++) {
    const Type *t = f->body->args[i]->type;
    bool match = t->kind == TY_TOKEN ? args[i]->kind == IV_TOKEN
                                     : args[i]->kind == IV_TENSOR && type_same_shape(args[i]->lit->type, t) &&
                                           args[i]->lit->type->elem == t->elem;
    if (!match) {
      *err = xasprintf("argument %d does not match parameter type", i);
      return false;
    }
  }
  pthread_mutex_lock(&d->mu);
  GpuRun R = {0};
  R.e = e, R.d = d, R.I = I, R.held = true;
  R.profile = e->profile;
  OomCleanup cleanup;
  oom_cleanup_push(&cleanup, release_device, &R);
  bool ok = load(e, d, err) && gpu_device_bind(d, err);
  if (!ok) {
    oom_cleanup_pop(&cleanup);
    release_device(&R);
    return false;
  }
  const CudaDriver *drv = d->drv;
  /* asynchronous: the copies in and the kernels on a stream of the
     execution's own (the arguments are pageable host memory, which the
     driver has read when the copy call returns) */
  if (d->async) ok = gpu_stream_new(d, &R.stream, err);
  DevMem *dm = &R.dm;
  dm->nparams = nargs;
  dm->nresults = f->nresults;
  dm->params = xcalloc((size_t)nargs + 1, sizeof(CUdeviceptr));
  dm->results = xcalloc((size_t)f->nresults + 1, sizeof(CUdeviceptr));
  for (int i = 0; ok && i < nargs; i++) {
    size_t nb = storage_bytes(f->body->args[i]->type);
    ok = gpu_mem_alloc(d, nb, &dm->params[i], err);
    if (ok && nb && R.stream)
      ok = cuda_check(drv->cuMemcpyHtoDAsync(dm->params[i], args[i]->lit->data, nb, R.stream), "cuMemcpyHtoDAsync",
                      err);
    else if (ok && nb)
      ok = cuda_check(drv->cuMemcpyHtoD(dm->params[i], args[i]->lit->data, nb), "cuMemcpyHtoD", err);
  }
  for (int r = 0; ok && r < f->nresults; r++)
    ok = gpu_mem_alloc(d, storage_bytes(f->result_types[r]), &dm->results[r], err);
  if (ok) ok = gpu_mem_alloc(d, (size_t)p->temp_bytes, &dm->temp, err);
  if (ok) ok = run_timed(&R, p, err);
  if (R.stream) {
    ok = await_stream(&R, ok, err);
    gpu_stream_free(d, R.stream);
  }
  for (int r = 0; ok && r < f->nresults; r++) {
    ival_release(results[r]);
    if (f->result_types[r]->kind == TY_TOKEN) {
      results[r] = ival_token();
      continue;
    }
    results[r] = ival_new_tensor(f->result_types[r]);
    const Literal *l = results[r]->lit;
    size_t nb = (size_t)l->n * (size_t)et_bytes(l->type->elem);
    if (nb) ok = cuda_check(drv->cuMemcpyDtoH(l->data, buf_ptr(e, dm, &p->rets[r]), nb), "cuMemcpyDtoH", err);
  }
  free_devmem(d, dm);
  oom_cleanup_pop(&cleanup);
  release_device(&R);
  if (!ok)
    for (int r = 0; r < f->nresults; r++) {
      ival_release(results[r]);
      results[r] = NULL;
    }
  return ok;
}

/* Runs the flat entry on I (NULL: the executable's own interpreter state,
   counting the checks of its host steps in the stats). */
static bool execute_counted(GpuExecutable *e, GpuDevice *d, Interp *I, int nargs, IVal **args, IVal **results,
                            char **err) {
  if (I) return exec_program(e, &e->main, d, I, nargs, args, results, err);
  int run0 = e->host.checks_run, failed0 = e->host.checks_failed;
  e->host.failed = false;
  bool ok = exec_program(e, &e->main, d, &e->host, nargs, args, results, err);
  e->stats.checks_passed = e->host.checks_run - run0;
  e->stats.checks_failed = e->host.checks_failed - failed0;
  return ok;
}

/* The entry over device memory (gpu_execute_device). */
static bool execute_device(GpuExecutable *e, GpuDevice *d, int nargs, const CUdeviceptr *args, const bool *donated,
                           GpuExecWait *wait, CUdeviceptr *results, int *took, GpuEvent **done,
                           char **err) {
  *done = NULL;
  const GpuProgram *p = &e->main;
  Func *f = p->f;
  int nres = f->nresults;
  for (int r = 0; r < nres; r++) {
    results[r] = 0;
    took[r] = -1;
  }
  if (nargs != f->body->nargs) {
    *err = xasprintf("expected %d arguments, got %d", f->body->nargs, nargs);
    return false;
  }
  pthread_mutex_lock(&d->mu);
  GpuRun R = {0};
  R.e = e, R.d = d, R.I = &e->host, R.held = true;
  OomCleanup cleanup;
  oom_cleanup_push(&cleanup, release_device, &R);
  bool ok = load(e, d, err) && gpu_device_bind(d, err);
  /* asynchronous: a stream of the execution's own, after the work it
     waits for */
  if (ok && d->async) ok = gpu_stream_new(d, &R.stream, err);
  for (int i = 0; ok && R.stream && wait && i < wait->nevents; i++)
    ok = gpu_stream_wait(d, R.stream, wait->events[i], err);
  DevMem *dm = &R.dm;
  dm->nparams = nargs;
  dm->params = (CUdeviceptr *)args; /* the caller's: not freed here */
  dm->nresults = nres;
  dm->results = xcalloc((size_t)nres + 1, sizeof(CUdeviceptr));
  /* a donated argument's memory goes to one result: one computed into it
     in place, else one that returns it as it is */
  bool *taken = xcalloc((size_t)nargs + 1, sizeof(bool));
  for (int r = 0; r < nres; r++) {
    int q = p->in_place[r];
    if (q >= 0 && donated && donated[q] && args[q] && !taken[q]) {
      took[r] = q;
      taken[q] = true;
    }
  }
  for (int r = 0; r < nres; r++) {
    int q = p->rets[r].kind == BUF_PARAM ? (int)p->rets[r].offset : -1;
    if (took[r] < 0 && q >= 0 && q < nargs && donated && donated[q] && args[q] && !taken[q]) {
      took[r] = q;
      taken[q] = true;
    }
  }
  xfree(taken);
  for (int r = 0; r < nres; r++)
    if (took[r] >= 0) dm->results[r] = args[took[r]];
    else if (ok) ok = gpu_mem_alloc(d, storage_bytes(f->result_types[r]), &dm->results[r], err);
  if (ok) ok = gpu_mem_alloc(d, (size_t)p->temp_bytes, &dm->temp, err);
  if (ok && R.stream) { /* (no device time: that would wait for the work) */
    e->stats.blas_ran = e->stats.blas_declined = e->stats.graphs_run = 0;
    ok = run_steps(&R, &p->steps, err);
  } else if (ok) {
    ok = run_timed(&R, p, err);
  }
  /* a result whose value lives elsewhere is copied into its own memory */
  bool copied = false;
  for (int r = 0; ok && r < nres; r++)
    if (took[r] < 0 && p->ret_copy[r] >= 0) {
      ok = run_launch(&R, &e->launches[p->ret_copy[r]], err);
      copied = true;
    }
  if (R.stream) {
    /* the event after the work; on failure, what was queued is waited
       for before the memory goes */
    if (ok) *done = gpu_event_record(d, R.stream, err);
    if (!*done) {
      ok = false;
      d->drv->cuStreamSynchronize(R.stream);
    }
    gpu_stream_free(d, R.stream);
  } else if (ok && copied) {
    ok = cuda_check(d->drv->cuCtxSynchronize(), "cuCtxSynchronize (after the results' copies)", err);
  }
  gpu_mem_free_after(d, dm->temp, done, 1);
  for (int r = 0; r < nres; r++) {
    if (ok) {
      results[r] = dm->results[r];
    } else {
      if (took[r] < 0) gpu_mem_free(d, dm->results[r]);
      took[r] = -1;
    }
  }
  xfree(dm->results);
  oom_cleanup_pop(&cleanup);
  release_device(&R);
  return ok;
}

bool gpu_execute_device(GpuExecutable *e, GpuDevice *d, int nargs, const CUdeviceptr *args, const bool *donated,
                        GpuExecWait *wait, CUdeviceptr *results, int *took, char **err) {
  int run0 = e->host.checks_run, failed0 = e->host.checks_failed;
  e->host.failed = false;
  GpuEvent *done = NULL;
  bool ok = execute_device(e, d, nargs, args, donated, wait, results, took, &done, err);
  if (wait) wait->done = done;
  else if (done) { /* nobody to hand it to: wait here */
    ok = gpu_event_wait(done, err);
    gpu_event_release(done);
  }
  e->stats.checks_passed = e->host.checks_run - run0;
  e->stats.checks_failed = e->host.checks_failed - failed0;
  return ok;
}

static bool execute_as(GpuExecutable *e, GpuDevice *d, Interp *I, int nargs, IVal **args, IVal **results,
                       char **err) {
  if (e->flat == e->entry) return execute_counted(e, d, I, nargs, args, results, err);
  int nin = 0, k = 0;
  for (int i = 0; i < nargs; i++) nin += ival_leaf_count(args[i]);
  IVal **in = xcalloc((size_t)nin + 1, sizeof(IVal *));
  for (int i = 0; i < nargs; i++) ival_collect_leaves(args[i], in, &k);
  int nout = e->flat->nresults;
  IVal **out = xcalloc((size_t)nout + 1, sizeof(IVal *));
  bool ok = execute_counted(e, d, I, nin, in, out, err);
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

bool gpu_execute(GpuExecutable *e, GpuDevice *d, int nargs, IVal **args, IVal **results, char **err) {
  return execute_as(e, d, NULL, nargs, args, results, err);
}

bool gpu_execute_in(GpuExecutable *e, GpuDevice *d, Interp *I, int nargs, IVal **args, IVal **results, char **err) {
  return execute_as(e, d, I, nargs, args, results, err);
}

/* ---- a grid of replicas x partitions on the one device ---- */

typedef struct GridRun {
  GpuExecutable *e;
  GpuDevice *d;
} GridRun;

static bool run_grid_process(void *ctx, Interp *I, int nargs, IVal **args, IVal **results) {
  GridRun *g = ctx;
  char *err = NULL;
  bool ok = execute_as(g->e, g->d, I, nargs, args, results, &err);
  if (!ok && !I->failed) error_at(g->e->entry->loc, "replica %d partition %d: %s", I->replica_id, I->partition_id,
                                  err ? err : "the GPU execution failed");
  if (!ok) I->failed = true;
  xfree(err);
  return ok;
}

bool gpu_execute_grid(GpuExecutable *e, GpuDevice *d, Interp *parent, int num_replicas, int num_partitions, int nargs,
                      IVal ***args, IVal ***results) {
  int n = num_replicas * num_partitions;
  GridRun g = {e, d};
  GridProgram *progs = xcalloc((size_t)n + 1, sizeof(GridProgram));
  for (int i = 0; i < n; i++) progs[i] = (GridProgram){e->entry, nargs, args[i], run_grid_process, &g};
  /* the parent (by default the executable's interpreter state) is the
     grid's: the processes print and count their checks through copies of
     it */
  Interp *I = parent ? parent : &e->host;
  int run0 = I->checks_run, failed0 = I->checks_failed;
  if (!parent) e->host.failed = false;
  bool ok = interp_run_grid(I, num_replicas, num_partitions, progs, results);
  e->stats.checks_passed = I->checks_run - run0;
  e->stats.checks_failed = I->checks_failed - failed0;
  xfree(progs);
  return ok;
}

const GpuStats *gpu_executable_stats(const GpuExecutable *e) { return &e->stats; }
const char *gpu_executable_ptx(const GpuExecutable *e) { return e->ptx ? e->ptx : ""; }

static void program_free(GpuProgram *p) {
  gpu_steps_free(&p->steps);
  xfree(p->rets);
  xfree(p->in_place);
  xfree(p->ret_copy);
}

void gpu_executable_free(GpuExecutable *e) {
  if (!e) return;
  if (e->dev) {
    const CudaDriver *drv = e->dev->drv;
    char *err = NULL;
    if (gpu_device_bind(e->dev, &err)) {
      /* executions that returned before their work was done may still
         run its kernels and read its constants */
      if (e->dev->async) drv->cuCtxSynchronize();
      unload(e, drv);
    }
    xfree(err);
  }
  xfree(e->const_ptrs);
  xfree(e->fns);
  for (int k = 0; k < e->nkernels; k++) xfree(e->names[k]);
  xfree(e->names);
  for (int k = 0; k < e->nlaunches; k++) xfree(e->launches[k].bufs);
  xfree(e->launches);
  program_free(&e->main);
  for (int i = 0; i < e->progs.len; i++) {
    program_free(e->progs.data[i]);
    xfree(e->progs.data[i]);
  }
  VEC_FREE(e->progs);
  xfree(e->consts);
  xfree(e->ptx);
  xfree(e->bitcode);
  ptrmap_free(&e->prof_index);
  VEC_FREE(e->prof);
  pthread_mutex_destroy(&e->prof_mu);
  xfree(e);
}
