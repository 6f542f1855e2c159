/* The SIMT harness (src/gpu/simt.c) on kernels written by hand in NVPTX
 * LLVM IR: thread and block ids of a 2-D grid, the four warp shuffles,
 * shared memory across a barrier, a race that the thread orders expose,
 * and what a GPU leaves undefined reported as launch errors (a divergent
 * barrier, a shuffle some lanes of its mask miss, a mask naming lanes the
 * block does not have, an NVVM intrinsic the harness does not know);
 * deferred streams (work runs when waited for, in order, after the events
 * it waits for; a queued launch's failure reported where it is waited
 * for; pageable and pinned copies; pinned memory in use not freed);
 * stream capture and graphs. */
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/simt.h"
#include "support/support.h"
#include "test_util.h"

static const char header[] =
    "target triple = \"nvptx64-nvidia-cuda\"\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()\n"
    "declare void @llvm.nvvm.barrier0()\n"
    "declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)\n"
    "declare i32 @llvm.nvvm.shfl.sync.up.i32(i32, i32, i32, i32)\n"
    "declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)\n"
    "declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)\n"
    "declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)\n"
    "@sh = internal addrspace(3) global [64 x i32] undef, align 16\n";

/* out[(ctaid.y * nctaid.x + ctaid.x) * 8 + tid.y * ntid.x + tid.x] = the four ids packed */
static const char ids_kernel[] =
    "define ptx_kernel void @ids(ptr addrspace(1) %out) {\n"
    "  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()\n"
    "  %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
    "  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
    "  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()\n"
    "  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()\n"
    "  %b0 = mul i32 %by, %gx\n  %b = add i32 %b0, %bx\n  %base = mul i32 %b, 8\n"
    "  %t0 = mul i32 %ty, %nx\n  %t = add i32 %t0, %tx\n  %i = add i32 %base, %t\n"
    "  %v0 = shl i32 %by, 12\n  %v1 = shl i32 %bx, 8\n  %v2 = shl i32 %ty, 4\n"
    "  %v3 = or i32 %v0, %v1\n  %v4 = or i32 %v3, %v2\n  %v = or i32 %v4, %tx\n"
    "  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i\n"
    "  store i32 %v, ptr addrspace(1) %p\n  ret void\n}\n";

/* out[tid*5 + k]: bfly 1, up 1, down 1, idx 3 of tid*10, and an f32 bfly 2 */
static const char shfl_kernel[] =
    "define ptx_kernel void @shfl(ptr addrspace(1) %out) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %v = mul i32 %t, 10\n"
    "  %a = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %v, i32 1, i32 31)\n"
    "  %b = call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %v, i32 1, i32 0)\n"
    "  %c = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v, i32 1, i32 31)\n"
    "  %d = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %v, i32 3, i32 31)\n"
    "  %f = sitofp i32 %v to float\n"
    "  %e = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %f, i32 2, i32 31)\n"
    "  %ei = fptosi float %e to i32\n"
    "  %i0 = mul i32 %t, 5\n"
    "  %p0 = getelementptr i32, ptr addrspace(1) %out, i32 %i0\n  store i32 %a, ptr addrspace(1) %p0\n"
    "  %p1 = getelementptr i32, ptr addrspace(1) %p0, i32 1\n  store i32 %b, ptr addrspace(1) %p1\n"
    "  %p2 = getelementptr i32, ptr addrspace(1) %p0, i32 2\n  store i32 %c, ptr addrspace(1) %p2\n"
    "  %p3 = getelementptr i32, ptr addrspace(1) %p0, i32 3\n  store i32 %d, ptr addrspace(1) %p3\n"
    "  %p4 = getelementptr i32, ptr addrspace(1) %p0, i32 4\n  store i32 %ei, ptr addrspace(1) %p4\n"
    "  ret void\n}\n";

/* out[t] = in[n-1-t] through shared memory, with a barrier between */
static const char reverse_kernel[] =
    "define ptx_kernel void @rev(ptr addrspace(1) %in, ptr addrspace(1) %out) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
    "  %pi = getelementptr i32, ptr addrspace(1) %in, i32 %t\n  %x = load i32, ptr addrspace(1) %pi\n"
    "  %ps = getelementptr [64 x i32], ptr addrspace(3) @sh, i32 0, i32 %t\n  store i32 %x, ptr addrspace(3) %ps\n"
    "  call void @llvm.nvvm.barrier0()\n"
    "  %n1 = sub i32 %n, 1\n  %r = sub i32 %n1, %t\n"
    "  %pr = getelementptr [64 x i32], ptr addrspace(3) @sh, i32 0, i32 %r\n  %y = load i32, ptr addrspace(3) %pr\n"
    "  %po = getelementptr i32, ptr addrspace(1) %out, i32 %t\n  store i32 %y, ptr addrspace(1) %po\n"
    "  ret void\n}\n";

/* every thread of every block writes its global id to out[0]: a race */
static const char race_kernel[] =
    "define ptx_kernel void @race(ptr addrspace(1) %out) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
    "  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
    "  %g0 = mul i32 %b, %n\n  %g = add i32 %g0, %t\n"
    "  store i32 %g, ptr addrspace(1) %out\n  ret void\n}\n";

/* threads below 16 leave before the barrier */
static const char divergent_kernel[] =
    "define ptx_kernel void @divergent(ptr addrspace(1) %out) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %c = icmp ult i32 %t, 16\n  br i1 %c, label %done, label %wait\n"
    "wait:\n  call void @llvm.nvvm.barrier0()\n  br label %done\n"
    "done:\n  ret void\n}\n";

/* only the lanes below 16 shuffle, with a full mask */
static const char partial_kernel[] =
    "define ptx_kernel void @partial(ptr addrspace(1) %out) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %c = icmp ult i32 %t, 16\n  br i1 %c, label %sh, label %done\n"
    "sh:\n  %v = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %t, i32 1, i32 31)\n"
    "  %p = getelementptr i32, ptr addrspace(1) %out, i32 %t\n  store i32 %v, ptr addrspace(1) %p\n  br label %done\n"
    "done:\n  ret void\n}\n";

static const char unknown_kernel[] =
    "declare i32 @llvm.nvvm.read.ptx.sreg.clock()\n"
    "define ptx_kernel void @clock(ptr addrspace(1) %out) {\n"
    "  %c = call i32 @llvm.nvvm.read.ptx.sreg.clock()\n  store i32 %c, ptr addrspace(1) %out\n  ret void\n}\n";

/* The bitcode of header + body (heap), as the gpu backend hands it over. */
static char *bitcode(const char *body, size_t *size) {
  char *text = xasprintf("%s%s", header, body);
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), "test");
  LLVMModuleRef M = NULL;
  char *msg = NULL;
  char *out = NULL;
  if (LLVMParseIRInContext(ctx, buf, &M, &msg)) {
    fprintf(stderr, "test IR does not parse: %s\n", msg ? msg : "");
    LLVMDisposeMessage(msg);
  } else {
    LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(M);
    *size = LLVMGetBufferSize(bc);
    out = xmalloc(*size);
    memcpy(out, LLVMGetBufferStart(bc), *size);
    LLVMDisposeMemoryBuffer(bc);
    LLVMDisposeModule(M);
  }
  LLVMContextDispose(ctx);
  xfree(text);
  return out;
}

typedef struct Kernel {
  CUmodule mod;
  CUfunction fn;
} Kernel;

static bool load(const CudaDriver *d, const char *body, const char *name, Kernel *k, char **err) {
  size_t size = 0;
  char *bc = bitcode(body, &size);
  k->mod = NULL;
  if (!bc) return false;
  GpuIrImage img = {GPU_IR_IMAGE_MAGIC, bc, size};
  bool ok = cuda_check(d->cuModuleLoadData(&k->mod, &img), "load", err) &&
            cuda_check(d->cuModuleGetFunction(&k->fn, k->mod, name), "function", err);
  xfree(bc);
  return ok;
}

/* load(), reporting a failure as a failed check */
static bool load_checked(const CudaDriver *d, const char *body, const char *name, Kernel *k) {
  char *err = NULL;
  bool ok = load(d, body, name, k, &err);
  if (!ok) fprintf(stderr, "%s: %s\n", name, err ? err : "?");
  CHECK(ok);
  xfree(err);
  return ok;
}

static CUresult launch(const CudaDriver *d, Kernel *k, unsigned gx, unsigned gy, unsigned bx, unsigned by,
                       CUdeviceptr *bufs, int nbufs) {
  void *params[4];
  for (int i = 0; i < nbufs; i++) params[i] = &bufs[i];
  return d->cuLaunchKernel(k->fn, gx, gy, 1, bx, by, 1, 0, NULL, params, NULL);
}

static CudaDriver *driver(const char *spec) {
  char *err = NULL;
  CudaDriver *d = simt_driver_new(spec, &err);
  if (!d) fprintf(stderr, "%s: %s\n", spec, err ? err : "?");
  xfree(err);
  CHECK(d != NULL);
  return d;
}

/* bufs[0] and bufs[1]: device memory for 64 int32 each */
static void two_buffers(CudaDriver *d, CUdeviceptr *bufs) {
  CHECK(d->cuMemAlloc(&bufs[0], 64 * sizeof(int32_t)) == CUDA_SUCCESS);
  CHECK(d->cuMemAlloc(&bufs[1], 64 * sizeof(int32_t)) == CUDA_SUCCESS);
}

static void free_driver(CudaDriver *d) {
  xfree(d->path);
  xfree(d);
}

static void test_ids_and_shuffles(const char *spec) {
  CudaDriver *d = driver(spec);
  if (!d) return;
  Kernel k;
  CUdeviceptr out;
  CHECK(d->cuMemAlloc(&out, 64 * 5 * sizeof(int32_t)) == CUDA_SUCCESS);
  int32_t got[64 * 5];
  /* a 3x2 grid of 4x2 blocks */
  if (load_checked(d, ids_kernel, "ids", &k)) {
    CHECK(launch(d, &k, 3, 2, 4, 2, &out, 1) == CUDA_SUCCESS);
    d->cuMemcpyDtoH(got, out, 48 * sizeof(int32_t));
    int bad = 0;
    for (int by = 0; by < 2; by++)
      for (int bx = 0; bx < 3; bx++)
        for (int ty = 0; ty < 2; ty++)
          for (int tx = 0; tx < 4; tx++)
            bad += got[(by * 3 + bx) * 8 + ty * 4 + tx] != (by << 12 | bx << 8 | ty << 4 | tx);
    CHECK_EQ_I(bad, 0);
    d->cuModuleUnload(k.mod);
  }
  /* shuffles over two warps */
  if (load_checked(d, shfl_kernel, "shfl", &k)) {
    CHECK(launch(d, &k, 1, 1, 64, 1, &out, 1) == CUDA_SUCCESS);
    d->cuMemcpyDtoH(got, out, sizeof got);
    int bad = 0;
    for (int t = 0; t < 64; t++) {
      int lane = t % 32, w = t / 32 * 32;
      bad += got[t * 5 + 0] != (t ^ 1) * 10;
      bad += got[t * 5 + 1] != (lane >= 1 ? t - 1 : t) * 10;
      bad += got[t * 5 + 2] != (lane <= 30 ? t + 1 : t) * 10;
      bad += got[t * 5 + 3] != (w + 3) * 10;
      bad += got[t * 5 + 4] != (t ^ 2) * 10;
    }
    CHECK_EQ_I(bad, 0);
    d->cuModuleUnload(k.mod);
  }
  d->cuMemFree(out);
  free_driver(d);
}

static void test_shared_and_race(const char *spec, int expect_race_winner) {
  CudaDriver *d = driver(spec);
  if (!d) return;
  Kernel k;
  CUdeviceptr bufs[2];
  two_buffers(d, bufs);
  int32_t in[64], got[64];
  for (int i = 0; i < 64; i++) in[i] = 1000 + i * 7;
  d->cuMemcpyHtoD(bufs[0], in, sizeof in);
  if (load_checked(d, reverse_kernel, "rev", &k)) {
    CHECK(launch(d, &k, 1, 1, 64, 1, bufs, 2) == CUDA_SUCCESS);
    d->cuMemcpyDtoH(got, bufs[1], sizeof got);
    int bad = 0;
    for (int i = 0; i < 64; i++) bad += got[i] != in[63 - i];
    CHECK_EQ_I(bad, 0);
    d->cuModuleUnload(k.mod);
  }
  /* the race: the last writer wins, and the order decides who that is */
  if (expect_race_winner >= 0 && load_checked(d, race_kernel, "race", &k)) {
    CHECK(launch(d, &k, 4, 1, 32, 1, &bufs[1], 1) == CUDA_SUCCESS);
    int32_t w = -1;
    d->cuMemcpyDtoH(&w, bufs[1], sizeof w);
    CHECK_EQ_I(w, expect_race_winner);
    d->cuModuleUnload(k.mod);
  }
  d->cuMemFree(bufs[0]);
  d->cuMemFree(bufs[1]);
  free_driver(d);
}

/* A launch that must fail with CUDA_ERROR_LAUNCH_FAILED and a message
   containing `part`. */
static void expect_launch_error(const CudaDriver *d, const char *body, const char *name, unsigned threads,
                                const char *part) {
  char *err = NULL;
  Kernel k;
  CUdeviceptr out;
  CHECK(d->cuMemAlloc(&out, 64 * sizeof(int32_t)) == CUDA_SUCCESS);
  if (load_checked(d, body, name, &k)) {
    CUresult r = launch(d, &k, 1, 1, threads, 1, &out, 1);
    CHECK_EQ_I(r, 719);
    CHECK(!cuda_check(r, "cuLaunchKernel", &err));
    if (!err || !strstr(err, part)) fprintf(stderr, "expected \"%s\" in: %s\n", part, err ? err : "(none)");
    CHECK(err && strstr(err, part));
    d->cuModuleUnload(k.mod);
  }
  xfree(err);
  d->cuMemFree(out);
}

static void test_errors(void) {
  CudaDriver *d = driver("simt:random:7");
  if (!d) return;
  expect_launch_error(d, divergent_kernel, "divergent", 64, "divergent barrier: 48 of the block's 64 threads");
  expect_launch_error(d, partial_kernel, "partial", 32, "partial-warp shuffle");
  expect_launch_error(d, shfl_kernel, "shfl", 16, "names lane 16, which the block (of 16 threads) does not have");
  /* a module calling an NVVM intrinsic the harness has no lowering for */
  char *err = NULL;
  Kernel k;
  CHECK(!load(d, unknown_kernel, "clock", &k, &err));
  CHECK(err && strstr(err, "CUDA_ERROR_INVALID_IMAGE") && strstr(err, "no lowering for 'llvm.nvvm.read.ptx.sreg.clock'"));
  xfree(err);
  /* PTX text is not what it loads */
  CUmodule m = NULL;
  CHECK(d->cuModuleLoadData(&m, ".version 7.8\n.target sm_90\n") == 200);
  err = NULL;
  CHECK(!cuda_check(200, "cuModuleLoadData", &err));
  CHECK(err && strstr(err, "not PTX"));
  xfree(err);
  free_driver(d);
  /* malformed specs */
  err = NULL;
  CHECK(simt_driver_new("simt:sideways", &err) == NULL);
  CHECK(err && strstr(err, "simt:random:SEED"));
  xfree(err);
}

/* Deferred streams (simt:deferred): work queued on a stream runs only when
   something waits for it, in stream order, after the events it waits for;
   a queued launch's failure is the stream's sticky error, reported where
   it is waited for; copies from pageable memory read it when queued, from
   pinned memory when they run, and pinned memory a queued copy uses
   cannot be freed. */
static void test_deferred(void) {
  CudaDriver *d = driver("simt:deferred");
  if (!d) return;
  CHECK(strstr(d->path, "deferred") != NULL);
  Kernel k, bad;
  CUdeviceptr bufs[2];
  two_buffers(d, bufs);
  int32_t in[64], got[64], sentinel[64];
  for (int i = 0; i < 64; i++) in[i] = 1000 + i * 7, sentinel[i] = -1;
  d->cuMemcpyHtoD(bufs[1], sentinel, sizeof sentinel);
  CUstream s1 = NULL, s2 = NULL;
  CUevent e1 = NULL, e2 = NULL, e3 = NULL;
  CHECK(d->cuStreamCreate(&s1, 1) == CUDA_SUCCESS && d->cuStreamCreate(&s2, 1) == CUDA_SUCCESS && s1 != s2);
  CHECK(d->cuEventCreate(&e1, 2) == CUDA_SUCCESS && d->cuEventCreate(&e2, 2) == CUDA_SUCCESS &&
        d->cuEventCreate(&e3, 2) == CUDA_SUCCESS);
  /* pageable source: read when queued, so changing it after is harmless */
  int32_t staged[64];
  memcpy(staged, in, sizeof in);
  CHECK(d->cuMemcpyHtoDAsync(bufs[0], staged, sizeof staged, s1) == CUDA_SUCCESS);
  memset(staged, 0, sizeof staged);
  if (load_checked(d, reverse_kernel, "rev", &k)) {
    void *params[2] = {&bufs[0], &bufs[1]};
    CHECK(d->cuLaunchKernel(k.fn, 1, 1, 1, 64, 1, 1, 0, s1, params, NULL) == CUDA_SUCCESS);
    CHECK(d->cuEventRecord(e1, s1) == CUDA_SUCCESS);
    CHECK_EQ_I(d->cuEventQuery(e1), CUDA_ERROR_NOT_READY);
    /* a synchronous copy waits for nothing: not written yet */
    d->cuMemcpyDtoH(got, bufs[1], sizeof got);
    CHECK(memcmp(got, sentinel, sizeof got) == 0);
    /* s2 waits for e1, then copies into pinned memory */
    int32_t *pinned = NULL;
    CHECK(d->cuMemAllocHost((void **)&pinned, sizeof got) == CUDA_SUCCESS);
    CHECK(d->cuStreamWaitEvent(s2, e1, 0) == CUDA_SUCCESS);
    CHECK(d->cuMemcpyDtoHAsync(pinned, bufs[1], sizeof got, s2) == CUDA_SUCCESS);
    CHECK(d->cuEventRecord(e2, s2) == CUDA_SUCCESS);
    CHECK(d->cuMemFreeHost(pinned) == 1); /* a queued copy writes it */
    CHECK(simt_take_error() != NULL);
    CHECK_EQ_I(d->cuEventQuery(e2), CUDA_ERROR_NOT_READY);
    CHECK(d->cuEventSynchronize(e2) == CUDA_SUCCESS);
    CHECK(d->cuEventQuery(e1) == CUDA_SUCCESS); /* ran for s2's wait */
    int badv = 0;
    for (int i = 0; i < 64; i++) badv += pinned[i] != in[63 - i];
    CHECK_EQ_I(badv, 0);
    CHECK(d->cuMemFreeHost(pinned) == CUDA_SUCCESS);
    d->cuModuleUnload(k.mod);
  }
  /* a queued launch that fails: the stream's error, where it is waited for */
  if (load_checked(d, divergent_kernel, "divergent", &bad)) {
    void *params[1] = {&bufs[1]};
    CHECK(d->cuLaunchKernel(bad.fn, 1, 1, 1, 64, 1, 1, 0, s1, params, NULL) == CUDA_SUCCESS);
    CHECK(d->cuEventRecord(e3, s1) == CUDA_SUCCESS);
    CHECK_EQ_I(d->cuEventSynchronize(e3), 719);
    CHECK_EQ_I(d->cuEventQuery(e3), 719);
    CHECK_EQ_I(d->cuStreamSynchronize(s1), 719);
    d->cuModuleUnload(bad.mod);
  }
  CHECK(d->cuStreamSynchronize(s2) == CUDA_SUCCESS);
  d->cuEventDestroy(e1);
  d->cuEventDestroy(e2);
  d->cuEventDestroy(e3);
  d->cuStreamDestroy(s1);
  d->cuStreamDestroy(s2);
  d->cuMemFree(bufs[0]);
  d->cuMemFree(bufs[1]);
  free_driver(d);
}

/* Stream capture and graphs: a capture belongs to its thread and records
   the launches on its stream instead of running them; what it forbids (a
   synchronous copy) fails and invalidates it; an instantiated graph
   launches what was recorded, with the parameters of then, each time. */
static void test_graphs(const char *spec) {
  CudaDriver *d = driver(spec);
  if (!d) return;
  Kernel k;
  CUdeviceptr bufs[2];
  two_buffers(d, bufs);
  int32_t in[64], got[64], sentinel[64];
  for (int i = 0; i < 64; i++) in[i] = 500 - i * 3, sentinel[i] = -1;
  d->cuMemcpyHtoD(bufs[0], in, sizeof in);
  d->cuMemcpyHtoD(bufs[1], sentinel, sizeof sentinel);
  CUstream s = NULL;
  CUgraph g = NULL;
  CUgraphExec x = NULL;
  CHECK(d->cuStreamCreate(&s, 1) == CUDA_SUCCESS && s);
  CHECK_EQ_I(d->cuStreamBeginCapture(NULL, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL), 900); /* the legacy stream */
  CHECK_EQ_I(d->cuStreamEndCapture(s, &g), 401); /* nothing captured */
  if (load_checked(d, reverse_kernel, "rev", &k)) {
    void *params[2] = {&bufs[0], &bufs[1]};
    CHECK(d->cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL) == CUDA_SUCCESS);
    CHECK_EQ_I(d->cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL), 401);
    CHECK(d->cuLaunchKernel(k.fn, 1, 1, 1, 64, 1, 1, 0, s, params, NULL) == CUDA_SUCCESS);
    CHECK(d->cuStreamEndCapture(s, &g) == CUDA_SUCCESS && g);
    /* recorded, not run */
    CHECK(d->cuStreamSynchronize(s) == CUDA_SUCCESS);
    d->cuMemcpyDtoH(got, bufs[1], sizeof got);
    CHECK(memcmp(got, sentinel, sizeof got) == 0);
    CHECK(d->cuGraphInstantiate(&x, g, 0) == CUDA_SUCCESS && x);
    CHECK(d->cuGraphDestroy(g) == CUDA_SUCCESS);
    for (int round = 0; round < 2; round++) {
      CHECK(d->cuGraphLaunch(x, s) == CUDA_SUCCESS);
      CHECK(d->cuStreamSynchronize(s) == CUDA_SUCCESS);
      d->cuMemcpyDtoH(got, bufs[1], sizeof got);
      int bad = 0;
      for (int i = 0; i < 64; i++) bad += got[i] != in[63 - i];
      CHECK_EQ_I(bad, 0);
      for (int i = 0; i < 64; i++) in[i] = i * i; /* the same buffers, new values */
      d->cuMemcpyHtoD(bufs[0], in, sizeof in);
    }
    CHECK(d->cuGraphExecDestroy(x) == CUDA_SUCCESS);
    /* a synchronous copy while capturing: refused, and the capture gone */
    CHECK(d->cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL) == CUDA_SUCCESS);
    CHECK(d->cuLaunchKernel(k.fn, 1, 1, 1, 64, 1, 1, 0, s, params, NULL) == CUDA_SUCCESS);
    CHECK_EQ_I(d->cuMemcpyDtoH(got, bufs[1], sizeof got), 900);
    g = (CUgraph)&g;
    CHECK_EQ_I(d->cuStreamEndCapture(s, &g), 901);
    CHECK(g == NULL);
    /* not capturing any more: a launch runs (when the stream is synchronized) */
    d->cuMemcpyHtoD(bufs[1], sentinel, sizeof sentinel);
    CHECK(d->cuLaunchKernel(k.fn, 1, 1, 1, 64, 1, 1, 0, s, params, NULL) == CUDA_SUCCESS);
    CHECK(d->cuStreamSynchronize(s) == CUDA_SUCCESS);
    CHECK(d->cuMemcpyDtoH(got, bufs[1], sizeof got) == CUDA_SUCCESS);
    CHECK_EQ_I(got[0], in[63]);
    d->cuModuleUnload(k.mod);
  }
  d->cuStreamDestroy(s);
  d->cuMemFree(bufs[0]);
  d->cuMemFree(bufs[1]);
  free_driver(d);
}

int main(void) {
  test_deferred();
  test_graphs("simt");
  test_graphs("simt:deferred");
  test_ids_and_shuffles("simt");
  test_ids_and_shuffles("simt:reverse");
  test_ids_and_shuffles("simt:random:3");
  /* 4 blocks of 32: forward ends with thread 127, reverse with 0 */
  test_shared_and_race("simt:forward", 127);
  test_shared_and_race("simt:reverse", 0);
  test_shared_and_race("simt:random:11", -1);
  test_errors();
  TEST_SUMMARY();
}
