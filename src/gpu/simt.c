/*
 * simt.c - the SIMT harness: GPU kernels run on the CPU, one fiber per GPU
 * thread, behind the CUDA driver's entry points.
 *
 * XLAC_CUDA_DRIVER=simt (or simt:forward, simt:reverse, simt:random,
 * simt:random:SEED) makes cuda_driver() return this in-process driver
 * instead of loading libcuda.  Device memory is host memory; a module is
 * not PTX but the kernel module as LLVM bitcode, the same IR NVPTX would
 * lower (after LLVM's optimizer), which gpu.c passes when the driver says
 * llvm_ir.  Loading it retargets the module to the host: the special
 * registers (llvm.nvvm.read.ptx.sreg.*), the block barrier, the warp
 * shuffles and mul.hi (llvm.nvvm.mulhi.ui) become calls of the functions
 * below; kernels get the C calling convention and a wrapper taking
 * cuLaunchKernel's parameter array; the CPU backend's JIT compiles it.
 *
 * A launch runs its blocks one at a time.  A kernel that neither waits at
 * a barrier nor shuffles runs its threads as plain calls; any other runs
 * each thread as a fiber (ucontext), resumed in rounds until every thread
 * is waiting or done: then the warps whose lanes all wait at a shuffle
 * exchange their values, and when every thread waits at the barrier they
 * all go on.  Threads and blocks are resumed in the order the mode names
 * (forward, reverse, or a seeded random permutation, new for every round),
 * so a kernel whose result depends on the order of its threads between
 * synchronization points gives different results under different modes.
 * What a GPU leaves undefined is an error of the launch, never a hang: a
 * barrier that some threads of the block exited before (divergent), a
 * shuffle that a lane of its mask does not reach (partial warp), a mask
 * naming lanes the block does not have.  The launch returns
 * CUDA_ERROR_LAUNCH_FAILED and cuda_check reports the details.
 *
 * Launches are serialized (one process-wide lock): shared memory is the
 * module's one copy of its addrspace(3) globals, which the block running
 * owns.  Out-of-bounds accesses are not caught (the host process would
 * fault where a GPU reports CUDA_ERROR_ILLEGAL_ADDRESS).
 */
#include "gpu/simt.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>

#include "codegen/jit.h"
#include "gpu/kernels.h"

#if defined(__SANITIZE_ADDRESS__)
#define SIMT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIMT_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define SIMT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SIMT_TSAN 1
#endif
#endif
#ifdef SIMT_ASAN
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef SIMT_TSAN
#include <sanitizer/tsan_interface.h>
#endif

enum { ORDER_FORWARD, ORDER_REVERSE, ORDER_RANDOM };
enum { SIMT_SMS = 2, SIMT_MAX_THREADS = 1024, STACK_BYTES = 64 << 10 };
enum { CUDA_ERROR_INVALID_VALUE_ = 1, CUDA_ERROR_OUT_OF_MEMORY_ = 2, CUDA_ERROR_INVALID_IMAGE_ = 200,
       CUDA_ERROR_NOT_FOUND_ = 500, CUDA_ERROR_LAUNCH_FAILED_ = 719 };

static int order_mode;
static uint64_t order_seed = 1;
static char device_name[96];
static pthread_mutex_t launch_lock = PTHREAD_MUTEX_INITIALIZER;

/* The calling thread's stream capture (graphs, below). */
enum { CUDA_ERROR_ILLEGAL_STATE_ = 401, CUDA_ERROR_CAPTURE_UNSUPPORTED_ = 900, CUDA_ERROR_CAPTURE_INVALIDATED_ = 901 };
typedef struct SimtGraph SimtGraph;
static _Thread_local SimtGraph *capture;
static _Thread_local CUstream capture_stream;
static _Thread_local bool capture_broken;

/* What a capture forbids: true (and the capture invalidated) when the
   calling thread is capturing. */
static bool capture_forbids(void) {
  if (capture) capture_broken = true;
  return capture != NULL;
}

/* ---- threads, fibers and the scheduler ---- */
enum { T_READY, T_BARRIER, T_SHFL, T_DONE };
enum { SH_UP, SH_DOWN, SH_BFLY, SH_IDX };

typedef struct SimtThread {
  ucontext_t ctx;
  int state;
  unsigned tid[3];
  /* a pending shuffle */
  int sh_mode;
  uint32_t sh_mask, sh_val, sh_b, sh_c, sh_result;
#ifdef SIMT_TSAN
  void *tsan_fiber;
#endif
} SimtThread;

typedef struct SimtKernel {
  char *name;
  void (*entry)(void **params);
  bool syncs; /* waits at barriers or shuffles: runs as fibers */
  int nparams;
  size_t *param_bytes; /* what a queued launch copies of each parameter */
} SimtKernel;

typedef struct SimtModule {
  Jit *jit;
  void *tsctx;
  SimtKernel *kernels;
  int nkernels;
} SimtModule;

/* The launch in progress (on the launching thread, under launch_lock). */
typedef struct Launch {
  SimtKernel *k;
  void **params;
  unsigned ntid[3], nctaid[3], ctaid[3];
  int nthreads;
  SimtThread *threads;
  SimtThread *cur;
  ucontext_t sched;
  char *stacks;
#ifdef SIMT_ASAN
  void *sched_fake_stack;
  const void *sched_stack_bottom;
  size_t sched_stack_size;
#endif
#ifdef SIMT_TSAN
  void *sched_fiber;
#endif
} Launch;

static _Thread_local Launch *L;

static uint32_t sreg_tid(int d) { return L->cur->tid[d]; }

/* The functions the kernels' special registers and synchronization become
   (resolved by name when the module is JIT-compiled). */
static uint32_t simt_tid_x(void) { return sreg_tid(0); }
static uint32_t simt_tid_y(void) { return sreg_tid(1); }
static uint32_t simt_tid_z(void) { return sreg_tid(2); }
static uint32_t simt_ntid_x(void) { return L->ntid[0]; }
static uint32_t simt_ntid_y(void) { return L->ntid[1]; }
static uint32_t simt_ntid_z(void) { return L->ntid[2]; }
static uint32_t simt_ctaid_x(void) { return L->ctaid[0]; }
static uint32_t simt_ctaid_y(void) { return L->ctaid[1]; }
static uint32_t simt_ctaid_z(void) { return L->ctaid[2]; }
static uint32_t simt_nctaid_x(void) { return L->nctaid[0]; }
static uint32_t simt_nctaid_y(void) { return L->nctaid[1]; }
static uint32_t simt_nctaid_z(void) { return L->nctaid[2]; }
static uint32_t linear_tid(const SimtThread *t) {
  return t->tid[0] + L->ntid[0] * (t->tid[1] + L->ntid[1] * t->tid[2]);
}
static uint32_t simt_laneid(void) { return linear_tid(L->cur) % GPU_WARP; }
static uint32_t simt_warpsize(void) { return GPU_WARP; }

/* Back to the scheduler; returns when the scheduler resumes this thread. */
static void yield_to_scheduler(SimtThread *t) {
#ifdef SIMT_ASAN
  void *fake = NULL;
  __sanitizer_start_switch_fiber(&fake, L->sched_stack_bottom, L->sched_stack_size);
#endif
#ifdef SIMT_TSAN
  __tsan_switch_to_fiber(L->sched_fiber, 0);
#endif
  swapcontext(&t->ctx, &L->sched);
#ifdef SIMT_ASAN
  __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
}

static void simt_barrier(void) {
  SimtThread *t = L->cur;
  t->state = T_BARRIER;
  yield_to_scheduler(t);
}

static uint32_t shuffle(int mode, uint32_t mask, uint32_t v, uint32_t b, uint32_t c) {
  SimtThread *t = L->cur;
  t->state = T_SHFL;
  t->sh_mode = mode;
  t->sh_mask = mask;
  t->sh_val = v;
  t->sh_b = b;
  t->sh_c = c;
  yield_to_scheduler(t);
  return t->sh_result;
}

static uint32_t simt_shfl_up_i32(uint32_t m, uint32_t v, uint32_t b, uint32_t c) { return shuffle(SH_UP, m, v, b, c); }
static uint32_t simt_shfl_down_i32(uint32_t m, uint32_t v, uint32_t b, uint32_t c) { return shuffle(SH_DOWN, m, v, b, c); }
static uint32_t simt_shfl_bfly_i32(uint32_t m, uint32_t v, uint32_t b, uint32_t c) { return shuffle(SH_BFLY, m, v, b, c); }
static uint32_t simt_shfl_idx_i32(uint32_t m, uint32_t v, uint32_t b, uint32_t c) { return shuffle(SH_IDX, m, v, b, c); }
static float shuffle_f32(int mode, uint32_t m, float v, uint32_t b, uint32_t c) {
  uint32_t u, r;
  memcpy(&u, &v, 4);
  r = shuffle(mode, m, u, b, c);
  float f;
  memcpy(&f, &r, 4);
  return f;
}
static float simt_shfl_up_f32(uint32_t m, float v, uint32_t b, uint32_t c) { return shuffle_f32(SH_UP, m, v, b, c); }
static float simt_shfl_down_f32(uint32_t m, float v, uint32_t b, uint32_t c) { return shuffle_f32(SH_DOWN, m, v, b, c); }
static float simt_shfl_bfly_f32(uint32_t m, float v, uint32_t b, uint32_t c) { return shuffle_f32(SH_BFLY, m, v, b, c); }
static float simt_shfl_idx_f32(uint32_t m, float v, uint32_t b, uint32_t c) { return shuffle_f32(SH_IDX, m, v, b, c); }

/* mul.hi.u32 */
static uint32_t simt_mulhi_ui(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }

/* What each NVVM intrinsic the kernels may call becomes. */
static const struct {
  const char *intrinsic, *name;
  void *addr;
} lowered[] = {
#define R(reg, fn) {"llvm.nvvm.read.ptx.sreg." reg, "xlac_simt_" #fn, (void *)simt_##fn}
    R("tid.x", tid_x),     R("tid.y", tid_y),     R("tid.z", tid_z),         R("ntid.x", ntid_x),
    R("ntid.y", ntid_y),   R("ntid.z", ntid_z),   R("ctaid.x", ctaid_x),     R("ctaid.y", ctaid_y),
    R("ctaid.z", ctaid_z), R("nctaid.x", nctaid_x), R("nctaid.y", nctaid_y), R("nctaid.z", nctaid_z),
    R("laneid", laneid),   R("warpsize", warpsize),
#undef R
    {"llvm.nvvm.barrier0", "xlac_simt_barrier", (void *)simt_barrier},
#define S(mode, ty) {"llvm.nvvm.shfl.sync." #mode "." #ty, "xlac_simt_shfl_" #mode "_" #ty, (void *)simt_shfl_##mode##_##ty}
    S(up, i32), S(down, i32), S(bfly, i32), S(idx, i32), S(up, f32), S(down, f32), S(bfly, f32), S(idx, f32),
#undef S
    {"llvm.nvvm.mulhi.ui", "xlac_simt_mulhi_ui", (void *)simt_mulhi_ui},
};
enum { NLOWERED = sizeof lowered / sizeof lowered[0] };

/* ---- errors ---- */
static _Thread_local char launch_error[512];
static void fail(const char *fmt, ...) XLAC_PRINTF(1, 2);
static void fail(const char *fmt, ...) {
  if (launch_error[0]) return; /* the first one */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(launch_error, sizeof launch_error, fmt, ap);
  va_end(ap);
}

/* ---- the scheduler ---- */
static uint64_t rng_state;
static uint32_t next_random(void) {
  /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}

/* perm[0..n) = the order of this round */
static void make_order(int *perm, int n) {
  for (int i = 0; i < n; i++) perm[i] = order_mode == ORDER_REVERSE ? n - 1 - i : i;
  if (order_mode == ORDER_RANDOM)
    for (int i = n - 1; i > 0; i--) {
      int j = (int)(next_random() % (uint32_t)(i + 1));
      int tmp = perm[i];
      perm[i] = perm[j];
      perm[j] = tmp;
    }
}

static void fiber_main(void) {
  SimtThread *t = L->cur;
#ifdef SIMT_ASAN
  __sanitizer_finish_switch_fiber(NULL, &L->sched_stack_bottom, &L->sched_stack_size);
#endif
  L->k->entry(L->params);
  t->state = T_DONE;
#ifdef SIMT_ASAN
  __sanitizer_start_switch_fiber(NULL, L->sched_stack_bottom, L->sched_stack_size); /* this fiber ends */
#endif
#ifdef SIMT_TSAN
  __tsan_switch_to_fiber(L->sched_fiber, 0);
#endif
  setcontext(&L->sched);
}

static void resume(SimtThread *t, char *stack) {
  L->cur = t;
#ifdef SIMT_ASAN
  __sanitizer_start_switch_fiber(&L->sched_fake_stack, stack, STACK_BYTES);
#else
  (void)stack;
#endif
#ifdef SIMT_TSAN
  __tsan_switch_to_fiber(t->tsan_fiber, 0);
#endif
  swapcontext(&L->sched, &t->ctx);
#ifdef SIMT_ASAN
  __sanitizer_finish_switch_fiber(L->sched_fake_stack, NULL, NULL);
#endif
}

/* The shuffles of one warp (lanes [w*32, w*32+n)), all waiting or done:
   false (with the error) when a lane they name does not take part. */
static bool exchange(SimtThread **lanes, int n, int warp) {
  for (int l = 0; l < n; l++) {
    SimtThread *t = lanes[l];
    if (t->state != T_SHFL) continue;
    uint32_t mask = t->sh_mask;
    for (int o = 0; o < GPU_WARP; o++) {
      if (!(mask >> o & 1)) continue;
      if (o >= n) {
        fail("warp %d: a shuffle's mask 0x%08x names lane %d, which the block (of %d threads) does not have", warp,
             mask, o, L->nthreads);
        return false;
      }
      SimtThread *u = lanes[o];
      if (u->state != T_SHFL || u->sh_mode != t->sh_mode || u->sh_mask != mask) {
        fail("warp %d: partial-warp shuffle: lane %d waits at a shuffle with mask 0x%08x, lane %d %s", warp, l, mask, o,
             u->state == T_DONE ? "has exited" : u->state == T_BARRIER ? "waits at a barrier" : "is at another shuffle");
        return false;
      }
    }
  }
  for (int l = 0; l < n; l++) {
    SimtThread *t = lanes[l];
    if (t->state != T_SHFL) continue;
    uint32_t seg = t->sh_c >> 8 & 0x1f, clamp = t->sh_c & 0x1f, b = t->sh_b;
    uint32_t lane = (uint32_t)l, minl = lane & seg, maxl = (lane & seg) | (clamp & ~seg);
    int64_t j;
    bool in;
    switch (t->sh_mode) {
    case SH_UP: j = (int64_t)lane - b; in = j >= (int64_t)minl; break;
    case SH_DOWN: j = (int64_t)lane + b; in = j <= (int64_t)maxl; break;
    case SH_BFLY: j = lane ^ b; in = j <= (int64_t)maxl; break;
    default: j = minl | (b & ~seg); in = j <= (int64_t)maxl; break;
    }
    if (!in) j = lane;
    if (j < 0 || j >= n || lanes[j]->state != T_SHFL || !(t->sh_mask >> j & 1)) {
      fail("warp %d: lane %d reads lane %lld, which is not in the shuffle's mask 0x%08x", warp, l, (long long)j,
           t->sh_mask);
      return false;
    }
    t->sh_result = lanes[j]->sh_val;
  }
  for (int l = 0; l < n; l++)
    if (lanes[l]->state == T_SHFL) lanes[l]->state = T_READY;
  return true;
}

/* One block as fibers. */
static bool run_block_fibers(int *perm) {
  int n = L->nthreads;
  for (int i = 0; i < n; i++) {
    SimtThread *t = &L->threads[i];
    t->state = T_READY;
    getcontext(&t->ctx);
    t->ctx.uc_stack.ss_sp = L->stacks + (size_t)i * STACK_BYTES;
    t->ctx.uc_stack.ss_size = STACK_BYTES;
    t->ctx.uc_link = NULL;
    makecontext(&t->ctx, fiber_main, 0);
  }
  SimtThread *lanes[GPU_WARP];
  for (;;) {
    make_order(perm, n);
    for (int i = 0; i < n; i++) {
      SimtThread *t = &L->threads[perm[i]];
      if (t->state == T_READY) resume(t, L->stacks + (size_t)perm[i] * STACK_BYTES);
    }
    /* everyone waits or is done */
    bool shuffled = false;
    for (int w = 0; w * GPU_WARP < n; w++) {
      int m = n - w * GPU_WARP < GPU_WARP ? n - w * GPU_WARP : GPU_WARP;
      bool any = false;
      for (int l = 0; l < m; l++) {
        lanes[l] = &L->threads[w * GPU_WARP + l];
        any |= lanes[l]->state == T_SHFL;
      }
      if (!any) continue;
      if (!exchange(lanes, m, w)) return false;
      shuffled = true;
    }
    if (shuffled) continue;
    int waiting = 0, done = 0;
    for (int i = 0; i < n; i++) {
      waiting += L->threads[i].state == T_BARRIER;
      done += L->threads[i].state == T_DONE;
    }
    if (done == n) return true;
    if (done > 0) {
      fail("divergent barrier: %d of the block's %d threads wait at a barrier that %d exited before reaching", waiting,
           n, done);
      return false;
    }
    for (int i = 0; i < n; i++) L->threads[i].state = T_READY;
  }
}

static bool run_launch(void) {
  int nblocks = (int)(L->nctaid[0] * L->nctaid[1] * L->nctaid[2]);
  int n = L->nthreads;
  int *bperm = malloc(sizeof(int) * (size_t)(nblocks > n ? nblocks : n));
  if (!bperm) {
    fail("out of memory");
    return false;
  }
  make_order(bperm, nblocks);
  int *blocks = malloc(sizeof(int) * (size_t)nblocks);
  int *perm = malloc(sizeof(int) * (size_t)n);
  bool ok = blocks && perm;
  if (!ok) fail("out of memory");
  if (ok) memcpy(blocks, bperm, sizeof(int) * (size_t)nblocks);
  for (int bi = 0; ok && bi < nblocks; bi++) {
    unsigned b = (unsigned)blocks[bi];
    L->ctaid[0] = b % L->nctaid[0];
    L->ctaid[1] = b / L->nctaid[0] % L->nctaid[1];
    L->ctaid[2] = b / (L->nctaid[0] * L->nctaid[1]);
    for (int i = 0; i < n; i++) {
      SimtThread *t = &L->threads[i];
      t->tid[0] = (unsigned)i % L->ntid[0];
      t->tid[1] = (unsigned)i / L->ntid[0] % L->ntid[1];
      t->tid[2] = (unsigned)i / (L->ntid[0] * L->ntid[1]);
    }
    if (L->k->syncs) {
      ok = run_block_fibers(perm);
    } else {
      make_order(perm, n);
      for (int i = 0; i < n; i++) {
        L->cur = &L->threads[perm[i]];
        L->k->entry(L->params);
      }
    }
  }
  xfree(bperm);
  xfree(blocks);
  xfree(perm);
  return ok;
}

/* ---- the driver's entry points ---- */
static CUresult s_init(unsigned flags) {
  (void)flags;
  return CUDA_SUCCESS;
}
static CUresult s_version(int *v) {
  *v = 12000;
  return CUDA_SUCCESS;
}
static CUresult s_count(int *n) {
  *n = 1;
  return CUDA_SUCCESS;
}
static CUresult s_get(CUdevice *d, int ordinal) {
  if (ordinal != 0) return 101; /* CUDA_ERROR_INVALID_DEVICE */
  *d = 0;
  return CUDA_SUCCESS;
}
static CUresult s_name(char *name, int len, CUdevice d) {
  (void)d;
  snprintf(name, (size_t)len, "%s", device_name);
  return CUDA_SUCCESS;
}
static CUresult s_attr(int *v, int attr, CUdevice d) {
  (void)d;
  switch (attr) {
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = SIMT_MAX_THREADS; break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = SIMT_SMS; break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
  default: return CUDA_ERROR_INVALID_VALUE_;
  }
  return CUDA_SUCCESS;
}
static int the_context;
static CUresult s_ctx_retain(CUcontext *c, CUdevice d) {
  (void)d;
  *c = (CUcontext)&the_context;
  return CUDA_SUCCESS;
}
static CUresult s_ctx_release(CUdevice d) {
  (void)d;
  return CUDA_SUCCESS;
}
static CUresult s_ctx_set(CUcontext c) {
  (void)c;
  return CUDA_SUCCESS;
}

static void smod_free(SimtModule *m) {
  if (!m) return;
  for (int k = 0; k < m->nkernels; k++) {
    xfree(m->kernels[k].name);
    xfree(m->kernels[k].param_bytes);
  }
  xfree(m->kernels);
  if (m->jit) jit_free(m->jit);
  if (m->tsctx) jit_dispose_context(m->tsctx);
  xfree(m);
}

static const char *lowered_name(const char *intrinsic) {
  for (int i = 0; i < NLOWERED; i++)
    if (strcmp(lowered[i].intrinsic, intrinsic) == 0) return lowered[i].name;
  return NULL;
}

/* Whether fn calls (directly) a barrier, a shuffle or a function with a
   body (which might). */
static bool calls_sync(LLVMValueRef fn) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      if (!LLVMIsACallInst(in)) continue;
      LLVMValueRef callee = LLVMGetCalledValue(in);
      if (!callee || !LLVMIsAFunction(callee)) return true;
      size_t len;
      const char *name = LLVMGetValueName2(callee, &len);
      if (LLVMCountBasicBlocks(callee) > 0) return true;
      if (strncmp(name, "xlac_simt_barrier", 17) == 0 || strncmp(name, "xlac_simt_shfl", 14) == 0) return true;
    }
  return false;
}

/* The module M (in tsctx's context) made a host module: false with the
   reason in launch_error. */
static bool retarget(LLVMModuleRef M, LLVMContextRef ctx) {
  /* NVVM intrinsics to our functions */
  LLVMValueRef next;
  for (LLVMValueRef f = LLVMGetFirstFunction(M); f; f = next) {
    next = LLVMGetNextFunction(f);
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    if (strncmp(name, "llvm.nvvm.", 10) != 0) continue;
    const char *to = lowered_name(name);
    if (!to) {
      fail("the SIMT harness has no lowering for '%s'", name);
      return false;
    }
    LLVMValueRef nf = LLVMAddFunction(M, to, LLVMGlobalGetValueType(f));
    LLVMReplaceAllUsesWith(f, nf);
    LLVMDeleteFunction(f);
  }
  LLVMTargetMachineRef tm = jit_host_machine(2);
  jit_set_target(M, tm);
  LLVMDisposeTargetMachine(tm);
  /* kernels: the C convention, and a wrapper over the parameter array */
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0), voidt = LLVMVoidTypeInContext(ctx);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
  for (LLVMValueRef f = LLVMGetFirstFunction(M); f; f = LLVMGetNextFunction(f)) {
    if (LLVMGetFunctionCallConv(f) != PTX_KERNEL_CC || LLVMCountBasicBlocks(f) == 0) continue;
    LLVMSetFunctionCallConv(f, LLVMCCallConv);
    size_t len;
    char *wname = xasprintf("%s__simt", LLVMGetValueName2(f, &len));
    LLVMTypeRef wt = LLVMFunctionType(voidt, &ptr, 1, 0);
    LLVMValueRef w = LLVMAddFunction(M, wname, wt);
    xfree(wname);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, w, "entry"));
    LLVMTypeRef ft = LLVMGlobalGetValueType(f);
    unsigned np = LLVMCountParamTypes(ft);
    LLVMTypeRef *pt = xcalloc(np + 1, sizeof(LLVMTypeRef));
    LLVMValueRef *args = xcalloc(np + 1, sizeof(LLVMValueRef));
    LLVMGetParamTypes(ft, pt);
    for (unsigned i = 0; i < np; i++) {
      LLVMValueRef idx = LLVMConstInt(i64, i, 0);
      LLVMValueRef slot = LLVMBuildGEP2(b, ptr, LLVMGetParam(w, 0), &idx, 1, "");
      LLVMValueRef at = LLVMBuildLoad2(b, ptr, slot, "");
      args[i] = LLVMBuildLoad2(b, pt[i], at, "");
    }
    LLVMBuildCall2(b, ft, f, args, np, "");
    LLVMBuildRetVoid(b);
    xfree(pt);
    xfree(args);
  }
  LLVMDisposeBuilder(b);
  char *msg = NULL;
  if (LLVMVerifyModule(M, LLVMReturnStatusAction, &msg)) {
    fail("the retargeted kernel module does not verify: %.300s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    return false;
  }
  LLVMDisposeMessage(msg);
  return true;
}

static CUresult s_load(CUmodule *out, const void *image) {
  launch_error[0] = 0;
  const GpuIrImage *img = image;
  if (!img || !img->bitcode || img->magic != GPU_IR_IMAGE_MAGIC) {
    fail("the SIMT harness loads LLVM bitcode from the gpu backend, not PTX");
    return CUDA_ERROR_INVALID_IMAGE_;
  }
  SimtModule *m = calloc(1, sizeof *m);
  if (!m) return CUDA_ERROR_OUT_OF_MEMORY_;
  LLVMContextRef ctx;
  m->tsctx = jit_new_context(&ctx);
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(img->bitcode, img->size, "xlac_gpu");
  LLVMModuleRef M = NULL;
  if (LLVMParseBitcodeInContext2(ctx, buf, &M)) {
    LLVMDisposeMemoryBuffer(buf);
    fail("the kernel module's bitcode does not parse");
    smod_free(m);
    return CUDA_ERROR_INVALID_IMAGE_;
  }
  LLVMDisposeMemoryBuffer(buf);
  if (!retarget(M, ctx)) {
    LLVMDisposeModule(M);
    smod_free(m);
    return CUDA_ERROR_INVALID_IMAGE_;
  }
  /* the kernels, and which synchronize */
  int nk = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(M); f; f = LLVMGetNextFunction(f)) {
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    if (len > 6 && strcmp(name + len - 6, "__simt") == 0) nk++;
  }
  m->kernels = calloc((size_t)nk + 1, sizeof(SimtKernel));
  if (!m->kernels) {
    LLVMDisposeModule(M);
    smod_free(m);
    return CUDA_ERROR_OUT_OF_MEMORY_;
  }
  for (LLVMValueRef f = LLVMGetFirstFunction(M); f; f = LLVMGetNextFunction(f)) {
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    if (len <= 6 || strcmp(name + len - 6, "__simt") != 0) continue;
    SimtKernel *k = &m->kernels[m->nkernels++];
    k->name = strndup(name, len - 6);
    LLVMValueRef kf = LLVMGetNamedFunction(M, k->name ? k->name : "");
    k->syncs = !kf || calls_sync(kf);
    if (kf) {
      LLVMTypeRef ft = LLVMGlobalGetValueType(kf);
      unsigned np = LLVMCountParamTypes(ft);
      LLVMTypeRef *pt = calloc(np + 1, sizeof(LLVMTypeRef));
      k->param_bytes = calloc(np + 1, sizeof(size_t));
      if (pt && k->param_bytes) {
        LLVMGetParamTypes(ft, pt);
        LLVMTargetDataRef td = LLVMGetModuleDataLayout(M);
        for (unsigned i = 0; i < np; i++) k->param_bytes[i] = (size_t)LLVMABISizeOfType(td, pt[i]);
        k->nparams = (int)np;
      }
      xfree(pt);
    }
  }
  JitSymbol syms[NLOWERED];
  for (int i = 0; i < NLOWERED; i++) syms[i] = (JitSymbol){lowered[i].name, lowered[i].addr};
  char *err = NULL;
  m->jit = jit_create(M, syms, NLOWERED, &err); /* takes M */
  jit_dispose_context(m->tsctx);
  m->tsctx = NULL;
  if (!m->jit) {
    fail("JIT-compiling the kernel module for the host failed: %.300s", err ? err : "");
    xfree(err);
    smod_free(m);
    return CUDA_ERROR_INVALID_IMAGE_;
  }
  for (int k = 0; k < m->nkernels; k++) {
    char *wname = xasprintf("%s__simt", m->kernels[k].name ? m->kernels[k].name : "");
    m->kernels[k].entry = (void (*)(void **))jit_lookup(m->jit, wname, &err);
    xfree(wname);
    if (!m->kernels[k].entry) {
      fail("JIT lookup of kernel %s failed: %.300s", m->kernels[k].name, err ? err : "");
      xfree(err);
      smod_free(m);
      return CUDA_ERROR_INVALID_IMAGE_;
    }
  }
  *out = (CUmodule)m;
  return CUDA_SUCCESS;
}

static CUresult s_get_function(CUfunction *fn, CUmodule mod, const char *name) {
  SimtModule *m = (SimtModule *)mod;
  for (int k = 0; k < m->nkernels; k++)
    if (m->kernels[k].name && strcmp(m->kernels[k].name, name) == 0) {
      *fn = (CUfunction)&m->kernels[k];
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_NOT_FOUND_;
}

static CUresult s_unload(CUmodule mod) {
  smod_free((SimtModule *)mod);
  return CUDA_SUCCESS;
}

static CUresult s_alloc(CUdeviceptr *p, size_t bytes) {
  void *q = NULL;
  if (posix_memalign(&q, 256, bytes ? bytes : 1) != 0) return CUDA_ERROR_OUT_OF_MEMORY_;
  *p = (CUdeviceptr)(uintptr_t)q;
  return CUDA_SUCCESS;
}
static CUresult s_dtod(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  if (capture_forbids()) return CUDA_ERROR_CAPTURE_UNSUPPORTED_;
  if (n) memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
  return CUDA_SUCCESS;
}

static CUresult run_kernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                           unsigned shared_bytes, void **params, void **extra) {
  launch_error[0] = 0;
  SimtKernel *k = (SimtKernel *)f;
  uint64_t threads = (uint64_t)bx * by * bz, blocks = (uint64_t)gx * gy * gz;
  if (!k || !params || extra || shared_bytes || threads == 0 || threads > SIMT_MAX_THREADS || blocks == 0 ||
      blocks > (1u << 31)) {
    fail("invalid launch of %s: grid %ux%ux%u, block %ux%ux%u, %u bytes of dynamic shared memory%s", k ? k->name : "?",
         gx, gy, gz, bx, by, bz, shared_bytes, extra ? ", extra parameters" : "");
    return CUDA_ERROR_INVALID_VALUE_;
  }
  pthread_mutex_lock(&launch_lock);
  Launch launch;
  memset(&launch, 0, sizeof launch);
  launch.k = k;
  launch.params = params;
  launch.ntid[0] = bx, launch.ntid[1] = by, launch.ntid[2] = bz;
  launch.nctaid[0] = gx, launch.nctaid[1] = gy, launch.nctaid[2] = gz;
  launch.nthreads = (int)threads;
  launch.threads = calloc(threads, sizeof(SimtThread));
  if (k->syncs) launch.stacks = malloc(threads * STACK_BYTES);
  bool ok = launch.threads && (!k->syncs || launch.stacks);
  if (!ok) fail("out of memory for %llu fibers", (unsigned long long)threads);
#ifdef SIMT_TSAN
  if (ok && k->syncs) {
    launch.sched_fiber = __tsan_get_current_fiber();
    for (uint64_t i = 0; i < threads; i++) launch.threads[i].tsan_fiber = __tsan_create_fiber(0);
  }
#endif
  Launch *saved = L;
  L = &launch;
  if (ok) ok = run_launch();
  L = saved;
#ifdef SIMT_TSAN
  if (launch.threads && k->syncs)
    for (uint64_t i = 0; i < threads; i++)
      if (launch.threads[i].tsan_fiber) __tsan_destroy_fiber(launch.threads[i].tsan_fiber);
#endif
  xfree(launch.threads);
  xfree(launch.stacks);
  pthread_mutex_unlock(&launch_lock);
  if (!ok) {
    char msg[sizeof launch_error];
    memcpy(msg, launch_error, sizeof msg);
    snprintf(launch_error, sizeof launch_error, "kernel %.60s: %.400s", k->name ? k->name : "?", msg);
    return CUDA_ERROR_LAUNCH_FAILED_;
  }
  return CUDA_SUCCESS;
}

/* ---- streams and events ----
 * By default streams do nothing: every call is synchronous, and events are
 * host times.  With ":deferred" (XLAC_CUDA_DRIVER=simt:deferred, or
 * simt:ORDER:deferred) the work queued on a stream other than the default
 * one runs as late as it may: only when something waits for it (an event
 * or the stream synchronized, the context synchronized, another stream
 * reaching a cuStreamWaitEvent on it, cuMemFree, which waits for the
 * device as the driver's does); until then cuEventQuery answers
 * CUDA_ERROR_NOT_READY.  Synchronous calls (the default stream's launches and
 * copies) run at once and wait for nothing, as on a GPU beside
 * non-blocking streams.  So a reader that does not wait for its writer's
 * event reads memory not yet written, which the tests then see.  Launch
 * parameters are copied when queued.  A copy from pageable host memory
 * reads it when queued; one from pinned memory (cuMemAllocHost) when it
 * runs, and freeing pinned memory that a queued copy still reads (or
 * writes) is an error; a copy to pageable memory waits for the stream, as
 * the driver's does. */
typedef struct SimtEvent SimtEvent;
typedef struct SimtStream SimtStream;
enum { Q_LAUNCH, Q_HTOD, Q_DTOH, Q_WAIT };
typedef struct QOp {
  int kind;
  SimtKernel *k; /* Q_LAUNCH */
  unsigned g[3], b[3];
  void **params;
  char *store;
  CUdeviceptr dev; /* copies */
  void *host;
  size_t n;
  bool owned; /* host is a copy made when queued (pageable memory) */
  SimtStream *on; /* Q_WAIT: until `seq` ops of `on` are done */
  uint64_t seq;
} QOp;
struct SimtStream {
  QOp *ops;
  int len, cap;
  uint64_t base;   /* the sequence number of ops[0] */
  uint64_t done;   /* ops run (or skipped after an error) */
  CUresult error;  /* the first failure, sticky */
  bool destroyed;
  int refs;        /* events recorded on it, waits queued for it */
  SimtStream *next;
};
struct SimtEvent {
  double t;        /* first: cuEventElapsedTime reads it as a double */
  SimtStream *s;   /* NULL: complete */
  uint64_t seq;
};
typedef struct Pinned {
  char *p;
  size_t n;
  struct Pinned *next;
} Pinned;

static bool deferred;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER; /* the streams, events' targets, pinned list */
static SimtStream *streams;
static Pinned *pinned;
static int the_stream;  /* what a stream is when nothing is deferred */

static double host_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static bool is_pinned(const void *p) {
  for (Pinned *q = pinned; q; q = q->next)
    if ((const char *)p >= q->p && (const char *)p < q->p + q->n) return true;
  return false;
}

static bool is_queue(CUstream s) { return deferred && s && s != (CUstream)&the_stream; }

static void op_free(QOp *o) {
  if (o->kind == Q_WAIT && o->on) o->on->refs--;
  xfree(o->params);
  xfree(o->store);
  if (o->owned) xfree(o->host);
  memset(o, 0, sizeof *o);
}

/* Frees s when nothing can use it any more (under queue_lock; never
   inside a flush, which may be walking the list). */
static void stream_unlink(SimtStream *s) {
  if (!s->destroyed || s->len || s->refs) return;
  for (SimtStream **p = &streams; *p; p = &(*p)->next)
    if (*p == s) {
      *p = s->next;
      break;
    }
  xfree(s->ops);
  xfree(s);
}

/* Runs s's queued work until `upto` of its ops are done (under queue_lock). */
static void flush(SimtStream *s, uint64_t upto) {
  while (s->done < upto && s->done < s->base + (uint64_t)s->len) {
    QOp *o = &s->ops[s->done - s->base];
    s->done++;
    if (s->error == CUDA_SUCCESS) {
      switch (o->kind) {
      case Q_LAUNCH:
        s->error = run_kernel((CUfunction)o->k, o->g[0], o->g[1], o->g[2], o->b[0], o->b[1], o->b[2], 0, o->params,
                              NULL);
        break;
      case Q_HTOD:
        if (o->n) memcpy((void *)(uintptr_t)o->dev, o->host, o->n);
        break;
      case Q_DTOH:
        if (o->n) memcpy(o->host, (const void *)(uintptr_t)o->dev, o->n);
        break;
      case Q_WAIT: flush(o->on, o->seq); break;
      }
    }
    op_free(o);
  }
  if (s->done == s->base + (uint64_t)s->len) { /* drained: the array starts over */
    s->base = s->done;
    s->len = 0;
  }
}

static void flush_all(void) {
  for (SimtStream *s = streams; s; s = s->next) flush(s, s->base + (uint64_t)s->len);
  SimtStream *next;
  for (SimtStream *s = streams; s; s = next) {
    next = s->next;
    stream_unlink(s);
  }
}

static QOp *push_op(SimtStream *s) {
  if (s->len == s->cap) {
    int cap = s->cap ? 2 * s->cap : 16;
    QOp *ops = realloc(s->ops, sizeof(QOp) * (size_t)cap);
    if (!ops) return NULL;
    s->ops = ops;
    s->cap = cap;
  }
  QOp *o = &s->ops[s->len++];
  memset(o, 0, sizeof *o);
  return o;
}

/* o <- a launch of k with copies of its parameters (o->params points
   into o->store); false when out of memory (o freed). */
static bool fill_launch(QOp *o, SimtKernel *k, const unsigned *g, const unsigned *b, void **params) {
  size_t total = 0;
  for (int i = 0; i < k->nparams; i++) total += (k->param_bytes[i] + 15) & ~(size_t)15;
  o->kind = Q_LAUNCH;
  o->k = k;
  memcpy(o->g, g, sizeof o->g);
  memcpy(o->b, b, sizeof o->b);
  o->params = calloc((size_t)k->nparams + 1, sizeof(void *));
  o->store = calloc(total + 1, 1);
  if (!o->params || !o->store) {
    op_free(o);
    return false;
  }
  size_t at = 0;
  for (int i = 0; i < k->nparams; i++) {
    memcpy(o->store + at, params[i], k->param_bytes[i]);
    o->params[i] = o->store + at;
    at += (k->param_bytes[i] + 15) & ~(size_t)15;
  }
  return true;
}

/* ---- graphs ----
 * A capture belongs to the thread that began it (the thread-local mode):
 * its launches on the captured stream are recorded instead of run or
 * queued, and what such a capture forbids on that thread (a synchronous
 * copy, the stream or the context synchronized, an asynchronous copy,
 * which a real driver would record but this one does not) fails with
 * CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED and invalidates it, as the
 * driver's does.  cuStreamEndCapture hands the recorded launches back as
 * a graph; an instantiated graph (a copy of them) launches them in order
 * on a stream, as that many cuLaunchKernel calls would. */
struct SimtGraph {
  QOp *ops; /* Q_LAUNCH, each with its own parameters */
  int len;
};

static void graph_free(SimtGraph *g) {
  if (!g) return;
  for (int i = 0; i < g->len; i++) op_free(&g->ops[i]);
  xfree(g->ops);
  xfree(g);
}

static CUresult record_launch(SimtKernel *k, const unsigned *g, const unsigned *b, void **params) {
  QOp *ops = realloc(capture->ops, sizeof(QOp) * (size_t)(capture->len + 1));
  if (!ops) {
    capture_broken = true;
    return CUDA_ERROR_OUT_OF_MEMORY_;
  }
  capture->ops = ops;
  QOp *o = &ops[capture->len];
  memset(o, 0, sizeof *o);
  if (!fill_launch(o, k, g, b, params)) {
    capture_broken = true;
    return CUDA_ERROR_OUT_OF_MEMORY_;
  }
  capture->len++;
  return CUDA_SUCCESS;
}

static CUresult s_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                         unsigned shared_bytes, CUstream stream, void **params, void **extra) {
  unsigned g[3] = {gx, gy, gz}, b[3] = {bx, by, bz};
  SimtKernel *k = (SimtKernel *)f;
  if (capture && stream == capture_stream) {
    if (!k || !params || extra || shared_bytes || !k->param_bytes) {
      capture_broken = true;
      return CUDA_ERROR_INVALID_VALUE_;
    }
    return record_launch(k, g, b, params);
  }
  if (!is_queue(stream)) return run_kernel(f, gx, gy, gz, bx, by, bz, shared_bytes, params, extra);
  if (!k || !params || extra || shared_bytes || !k->param_bytes) return CUDA_ERROR_INVALID_VALUE_;
  pthread_mutex_lock(&queue_lock);
  SimtStream *s = (SimtStream *)stream;
  QOp *o = push_op(s);
  CUresult r = CUDA_ERROR_OUT_OF_MEMORY_;
  if (o && fill_launch(o, k, g, b, params)) r = CUDA_SUCCESS;
  else if (o) s->len--;
  pthread_mutex_unlock(&queue_lock);
  return r;
}

static CUresult s_begin_capture(CUstream s, int mode) {
  if (mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL) return CUDA_ERROR_INVALID_VALUE_; /* the one xlac uses */
  if (!s) return CUDA_ERROR_CAPTURE_UNSUPPORTED_; /* the legacy default stream */
  if (capture) return CUDA_ERROR_ILLEGAL_STATE_;
  capture = calloc(1, sizeof *capture);
  if (!capture) return CUDA_ERROR_OUT_OF_MEMORY_;
  capture_stream = s;
  capture_broken = false;
  return CUDA_SUCCESS;
}

static CUresult s_end_capture(CUstream s, CUgraph *out) {
  if (!out) return CUDA_ERROR_INVALID_VALUE_;
  *out = NULL;
  if (!capture || s != capture_stream) return CUDA_ERROR_ILLEGAL_STATE_;
  SimtGraph *g = capture;
  bool broken = capture_broken;
  capture = NULL;
  capture_stream = NULL;
  capture_broken = false;
  if (broken) {
    graph_free(g);
    return CUDA_ERROR_CAPTURE_INVALIDATED_;
  }
  *out = (CUgraph)g;
  return CUDA_SUCCESS;
}

static CUresult s_instantiate(CUgraphExec *out, CUgraph graph, unsigned long long flags) {
  SimtGraph *g = (SimtGraph *)graph;
  if (!out || !g || flags) return CUDA_ERROR_INVALID_VALUE_;
  SimtGraph *x = calloc(1, sizeof *x);
  if (!x || !(x->ops = calloc((size_t)g->len + 1, sizeof(QOp)))) {
    xfree(x);
    return CUDA_ERROR_OUT_OF_MEMORY_;
  }
  for (; x->len < g->len; x->len++)
    if (!fill_launch(&x->ops[x->len], g->ops[x->len].k, g->ops[x->len].g, g->ops[x->len].b,
                     g->ops[x->len].params)) {
      graph_free(x);
      return CUDA_ERROR_OUT_OF_MEMORY_;
    }
  *out = (CUgraphExec)x;
  return CUDA_SUCCESS;
}

static CUresult s_graph_launch(CUgraphExec exec, CUstream s) {
  SimtGraph *x = (SimtGraph *)exec;
  if (!x) return CUDA_ERROR_INVALID_VALUE_;
  if (capture && s == capture_stream) { /* a graph within a graph: not done here */
    capture_broken = true;
    return CUDA_ERROR_CAPTURE_UNSUPPORTED_;
  }
  CUresult r = CUDA_SUCCESS;
  for (int i = 0; i < x->len && r == CUDA_SUCCESS; i++) {
    const QOp *o = &x->ops[i];
    r = s_launch((CUfunction)o->k, o->g[0], o->g[1], o->g[2], o->b[0], o->b[1], o->b[2], 0, s, o->params, NULL);
  }
  return r;
}

static CUresult s_graph_exec_destroy(CUgraphExec exec) {
  graph_free((SimtGraph *)exec);
  return CUDA_SUCCESS;
}

static CUresult s_graph_destroy(CUgraph g) {
  graph_free((SimtGraph *)g);
  return CUDA_SUCCESS;
}

static CUresult s_htod(CUdeviceptr dst, const void *src, size_t n) {
  if (capture_forbids()) return CUDA_ERROR_CAPTURE_UNSUPPORTED_;
  if (n) memcpy((void *)(uintptr_t)dst, src, n);
  return CUDA_SUCCESS;
}
static CUresult s_dtoh(void *dst, CUdeviceptr src, size_t n) {
  if (capture_forbids()) return CUDA_ERROR_CAPTURE_UNSUPPORTED_;
  if (n) memcpy(dst, (const void *)(uintptr_t)src, n);
  return CUDA_SUCCESS;
}

static CUresult queue_copy(int kind, CUdeviceptr dev, void *host, size_t n, CUstream stream) {
  pthread_mutex_lock(&queue_lock);
  SimtStream *s = (SimtStream *)stream;
  CUresult r = CUDA_SUCCESS;
  if (kind == Q_DTOH && !is_pinned(host)) { /* pageable: the driver copies when the stream gets there */
    flush(s, s->base + (uint64_t)s->len);
    r = s->error;
    if (r == CUDA_SUCCESS && n) memcpy(host, (const void *)(uintptr_t)dev, n);
    pthread_mutex_unlock(&queue_lock);
    return r;
  }
  QOp *o = push_op(s);
  if (!o) {
    r = CUDA_ERROR_OUT_OF_MEMORY_;
  } else {
    o->kind = kind;
    o->dev = dev;
    o->n = n;
    o->host = host;
    if (kind == Q_HTOD && !is_pinned(host)) { /* pageable: read now */
      o->owned = true;
      o->host = malloc(n ? n : 1);
      if (o->host) {
        memcpy(o->host, host, n);
      } else {
        o->owned = false;
        s->len--;
        r = CUDA_ERROR_OUT_OF_MEMORY_;
      }
    }
  }
  pthread_mutex_unlock(&queue_lock);
  return r;
}

static CUresult s_htod_async(CUdeviceptr dst, const void *src, size_t n, CUstream stream) {
  if (capture && stream == capture_stream && capture_forbids()) return CUDA_ERROR_CAPTURE_UNSUPPORTED_;
  if (!is_queue(stream)) return s_htod(dst, src, n);
  return queue_copy(Q_HTOD, dst, (void *)src, n, stream);
}
static CUresult s_dtoh_async(void *dst, CUdeviceptr src, size_t n, CUstream stream) {
  if (capture && stream == capture_stream && capture_forbids()) return CUDA_ERROR_CAPTURE_UNSUPPORTED_;
  if (!is_queue(stream)) return s_dtoh(dst, src, n);
  return queue_copy(Q_DTOH, src, dst, n, stream);
}

static CUresult s_host_alloc(void **p, size_t bytes) {
  Pinned *q = calloc(1, sizeof *q);
  void *m = NULL;
  if (!q || posix_memalign(&m, 64, bytes ? bytes : 1) != 0) {
    xfree(q);
    return CUDA_ERROR_OUT_OF_MEMORY_;
  }
  q->p = m;
  q->n = bytes ? bytes : 1;
  pthread_mutex_lock(&queue_lock);
  q->next = pinned;
  pinned = q;
  pthread_mutex_unlock(&queue_lock);
  *p = m;
  return CUDA_SUCCESS;
}

static CUresult s_host_free(void *p) {
  pthread_mutex_lock(&queue_lock);
  Pinned **at = &pinned;
  while (*at && (*at)->p != p) at = &(*at)->next;
  Pinned *q = *at;
  CUresult r = CUDA_SUCCESS;
  if (!q) {
    r = CUDA_ERROR_INVALID_VALUE_;
    fail("cuMemFreeHost of memory cuMemAllocHost did not return");
  }
  for (SimtStream *s = streams; q && s && r == CUDA_SUCCESS; s = s->next)
    for (int i = (int)(s->done - s->base); i < s->len; i++) {
      const QOp *o = &s->ops[i];
      if ((o->kind == Q_HTOD || o->kind == Q_DTOH) && !o->owned && (char *)o->host >= q->p &&
          (char *)o->host < q->p + q->n) {
        r = CUDA_ERROR_INVALID_VALUE_;
        fail("cuMemFreeHost of pinned memory that a queued asynchronous copy still uses");
        break;
      }
    }
  if (r == CUDA_SUCCESS) {
    *at = q->next;
    xfree(q->p);
    xfree(q);
  }
  pthread_mutex_unlock(&queue_lock);
  return r;
}

static CUresult s_sync(void) {
  if (capture_forbids()) return CUDA_ERROR_CAPTURE_UNSUPPORTED_;
  if (!deferred) return CUDA_SUCCESS;
  pthread_mutex_lock(&queue_lock);
  flush_all();
  CUresult r = CUDA_SUCCESS;
  for (SimtStream *s = streams; s && r == CUDA_SUCCESS; s = s->next) r = s->error;
  pthread_mutex_unlock(&queue_lock);
  return r;
}

static CUresult s_free(CUdeviceptr p) {
  if (deferred) { /* the driver's cuMemFree waits for the device */
    pthread_mutex_lock(&queue_lock);
    flush_all();
    pthread_mutex_unlock(&queue_lock);
  }
  xfree((void *)(uintptr_t)p);
  return CUDA_SUCCESS;
}

static CUresult s_stream_create(CUstream *s, unsigned flags) {
  (void)flags;
  if (!deferred) {
    *s = (CUstream)&the_stream;
    return CUDA_SUCCESS;
  }
  SimtStream *q = calloc(1, sizeof *q);
  if (!q) return CUDA_ERROR_OUT_OF_MEMORY_;
  pthread_mutex_lock(&queue_lock);
  q->next = streams;
  streams = q;
  pthread_mutex_unlock(&queue_lock);
  *s = (CUstream)q;
  return CUDA_SUCCESS;
}
static CUresult s_stream_destroy(CUstream s) {
  if (!is_queue(s)) return CUDA_SUCCESS;
  pthread_mutex_lock(&queue_lock);
  SimtStream *q = (SimtStream *)s;
  q->destroyed = true; /* its queued work still runs when waited for */
  stream_unlink(q);
  pthread_mutex_unlock(&queue_lock);
  return CUDA_SUCCESS;
}
static CUresult s_stream_sync(CUstream s) {
  if (capture && s == capture_stream && capture_forbids()) return CUDA_ERROR_CAPTURE_UNSUPPORTED_;
  if (!is_queue(s)) return CUDA_SUCCESS;
  pthread_mutex_lock(&queue_lock);
  SimtStream *q = (SimtStream *)s;
  flush(q, q->base + (uint64_t)q->len);
  CUresult r = q->error;
  pthread_mutex_unlock(&queue_lock);
  return r;
}
static CUresult s_stream_wait(CUstream s, CUevent e, unsigned flags) {
  (void)flags;
  SimtEvent *ev = (SimtEvent *)e;
  if (!ev) return CUDA_ERROR_INVALID_VALUE_;
  pthread_mutex_lock(&queue_lock);
  CUresult r = CUDA_SUCCESS;
  if (ev->s && ev->s->done < ev->seq) {
    if (is_queue(s)) { /* the stream waits when it gets there */
      QOp *o = push_op((SimtStream *)s);
      if (o) {
        o->kind = Q_WAIT;
        o->on = ev->s;
        o->on->refs++;
        o->seq = ev->seq;
      } else {
        r = CUDA_ERROR_OUT_OF_MEMORY_;
      }
    } else { /* the default stream runs now: what it waits for runs first */
      flush(ev->s, ev->seq);
    }
  }
  pthread_mutex_unlock(&queue_lock);
  return r;
}
static CUresult s_event_create(CUevent *e, unsigned flags) {
  (void)flags;
  SimtEvent *ev = calloc(1, sizeof *ev);
  if (!ev) return CUDA_ERROR_OUT_OF_MEMORY_;
  *e = (CUevent)ev;
  return CUDA_SUCCESS;
}
static CUresult s_event_destroy(CUevent e) {
  SimtEvent *ev = (SimtEvent *)e;
  if (ev && ev->s) {
    pthread_mutex_lock(&queue_lock);
    ev->s->refs--;
    stream_unlink(ev->s);
    pthread_mutex_unlock(&queue_lock);
  }
  xfree(e);
  return CUDA_SUCCESS;
}
static CUresult s_event_record(CUevent e, CUstream s) {
  SimtEvent *ev = (SimtEvent *)e;
  if (!ev) return CUDA_ERROR_INVALID_VALUE_;
  ev->t = host_ms();
  pthread_mutex_lock(&queue_lock);
  SimtStream *old = ev->s;
  ev->s = is_queue(s) ? (SimtStream *)s : NULL;
  ev->seq = ev->s ? ev->s->base + (uint64_t)ev->s->len : 0;
  if (ev->s) ev->s->refs++; /* a stream lives while an event refers to it */
  if (old) {
    old->refs--;
    stream_unlink(old);
  }
  pthread_mutex_unlock(&queue_lock);
  return CUDA_SUCCESS;
}
static CUresult s_event_query(CUevent e) {
  SimtEvent *ev = (SimtEvent *)e;
  if (!ev) return CUDA_ERROR_INVALID_VALUE_;
  pthread_mutex_lock(&queue_lock);
  CUresult r = !ev->s ? CUDA_SUCCESS : ev->s->done < ev->seq ? CUDA_ERROR_NOT_READY : ev->s->error;
  pthread_mutex_unlock(&queue_lock);
  return r;
}
static CUresult s_event_sync(CUevent e) {
  SimtEvent *ev = (SimtEvent *)e;
  if (!ev) return CUDA_ERROR_INVALID_VALUE_;
  pthread_mutex_lock(&queue_lock);
  CUresult r = CUDA_SUCCESS;
  if (ev->s) {
    flush(ev->s, ev->seq);
    r = ev->s->error;
  }
  pthread_mutex_unlock(&queue_lock);
  return r;
}
static CUresult s_event_elapsed(float *ms, CUevent a, CUevent b) {
  *ms = (float)(((SimtEvent *)b)->t - ((SimtEvent *)a)->t);
  return CUDA_SUCCESS;
}

const char *simt_take_error(void) {
  if (!launch_error[0]) return NULL;
  static _Thread_local char copy[sizeof launch_error];
  memcpy(copy, launch_error, sizeof copy);
  launch_error[0] = 0;
  return copy;
}

CudaDriver *simt_driver_new(const char *spec, char **err) {
  /* simt[:forward|:reverse|:random[:SEED]][:deferred], simt:deferred */
  const char *given = spec;
  char order[64];
  snprintf(order, sizeof order, "%s", spec);
  size_t olen = strlen(order);
  deferred = olen >= 9 && strcmp(order + olen - 9, ":deferred") == 0;
  if (deferred) order[olen - 9] = 0;
  spec = order;
  const char *mode = spec[4] == ':' ? spec + 5 : "forward";
  if (spec[4] != 0 && spec[4] != ':') mode = NULL;
  if (mode && strcmp(mode, "forward") == 0) {
    order_mode = ORDER_FORWARD;
  } else if (mode && strcmp(mode, "reverse") == 0) {
    order_mode = ORDER_REVERSE;
  } else if (mode && strncmp(mode, "random", 6) == 0 && (mode[6] == 0 || mode[6] == ':')) {
    order_mode = ORDER_RANDOM;
    if (mode[6] == ':') {
      char *end;
      order_seed = strtoull(mode + 7, &end, 10);
      if (*end || end == mode + 7) mode = NULL;
    }
  } else {
    mode = NULL;
  }
  if (!mode) {
    if (asprintf(err, "no CUDA driver (XLAC_CUDA_DRIVER='%s': the SIMT harness is simt, simt:forward, simt:reverse, "
                      "simt:random or simt:random:SEED, each optionally followed by :deferred)",
                 spec) < 0)
      *err = NULL;
    return NULL;
  }
  rng_state = order_seed * 0x9E3779B97F4A7C15ULL + 1;
  snprintf(device_name, sizeof device_name, "xlac SIMT harness (CPU, %s order%s)",
           order_mode == ORDER_FORWARD ? "forward" : order_mode == ORDER_REVERSE ? "reverse" : "random",
           deferred ? ", deferred streams" : "");
  CudaDriver *d = calloc(1, sizeof *d);
  if (!d || !(d->path = strdup(given))) {
    xfree(d);
    *err = NULL;
    return NULL;
  }
  d->llvm_ir = true;
  d->cuInit = s_init;
  d->cuDriverGetVersion = s_version;
  d->cuDeviceGetCount = s_count;
  d->cuDeviceGet = s_get;
  d->cuDeviceGetName = s_name;
  d->cuDeviceGetAttribute = s_attr;
  d->cuDevicePrimaryCtxRetain = s_ctx_retain;
  d->cuDevicePrimaryCtxRelease = s_ctx_release;
  d->cuCtxSetCurrent = s_ctx_set;
  d->cuCtxSynchronize = s_sync;
  d->cuModuleLoadData = s_load;
  d->cuModuleGetFunction = s_get_function;
  d->cuModuleUnload = s_unload;
  d->cuMemAlloc = s_alloc;
  d->cuMemFree = s_free;
  d->cuMemcpyHtoD = s_htod;
  d->cuMemcpyDtoH = s_dtoh;
  d->cuMemcpyDtoD = s_dtod;
  d->cuLaunchKernel = s_launch;
  d->cuStreamCreate = s_stream_create;
  d->cuStreamDestroy = s_stream_destroy;
  d->cuStreamSynchronize = s_stream_sync;
  d->cuEventCreate = s_event_create;
  d->cuEventDestroy = s_event_destroy;
  d->cuEventRecord = s_event_record;
  d->cuEventSynchronize = s_event_sync;
  d->cuEventElapsedTime = s_event_elapsed;
  d->cuStreamWaitEvent = s_stream_wait;
  d->cuEventQuery = s_event_query;
  d->cuMemcpyHtoDAsync = s_htod_async;
  d->cuMemcpyDtoHAsync = s_dtoh_async;
  d->cuMemAllocHost = s_host_alloc;
  d->cuMemFreeHost = s_host_free;
  d->cuStreamBeginCapture = s_begin_capture;
  d->cuStreamEndCapture = s_end_capture;
  d->cuGraphInstantiate = s_instantiate;
  d->cuGraphLaunch = s_graph_launch;
  d->cuGraphExecDestroy = s_graph_exec_destroy;
  d->cuGraphDestroy = s_graph_destroy;
  return d;
}
