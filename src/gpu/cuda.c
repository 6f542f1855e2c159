/*
 * cuda.c - loading the CUDA driver with dlopen, CUresult names, devices.
 *
 * The driver is process-wide state, loaded once (pthread_once) outside the
 * tracked heap (plain malloc), like the other process-wide tables; what a
 * caller receives (error messages, devices) is allocated with the x*alloc
 * functions.
 */
#include "gpu/cuda.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/cublaslt.h"
#include "gpu/gpu.h"
#include "gpu/simt.h"
#include "support/support.h"

/* ---- CUresult names (the driver API's documented codes) ---- */
static const struct {
  CUresult code;
  const char *name, *text;
} cu_errors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of device memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "driver not initialized"},
    {4, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
    {5, "CUDA_ERROR_PROFILER_DISABLED", "profiler disabled"},
    {34, "CUDA_ERROR_STUB_LIBRARY", "the CUDA toolkit's stub library, not a driver"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE", "device unavailable"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {102, "CUDA_ERROR_DEVICE_NOT_LICENSED", "device not licensed"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "invalid kernel image"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid context"},
    {202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT", "context already current"},
    {205, "CUDA_ERROR_MAP_FAILED", "map failed"},
    {206, "CUDA_ERROR_UNMAP_FAILED", "unmap failed"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image for this device"},
    {214, "CUDA_ERROR_ECC_UNCORRECTABLE", "uncorrectable ECC error"},
    {215, "CUDA_ERROR_UNSUPPORTED_LIMIT", "unsupported limit"},
    {216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE", "context already in use"},
    {217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", "peer access unsupported"},
    {218, "CUDA_ERROR_INVALID_PTX", "PTX JIT compilation failed"},
    {219, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT", "invalid graphics context"},
    {220, "CUDA_ERROR_NVLINK_UNCORRECTABLE", "uncorrectable NVLink error"},
    {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "PTX JIT compiler library not found"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "PTX version not supported by this driver"},
    {223, "CUDA_ERROR_JIT_COMPILATION_DISABLED", "PTX JIT compilation disabled"},
    {300, "CUDA_ERROR_INVALID_SOURCE", "invalid source"},
    {301, "CUDA_ERROR_FILE_NOT_FOUND", "file not found"},
    {302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND", "shared object symbol not found"},
    {303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED", "shared object initialization failed"},
    {304, "CUDA_ERROR_OPERATING_SYSTEM", "OS call failed"},
    {400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {401, "CUDA_ERROR_ILLEGAL_STATE", "illegal state"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {600, "CUDA_ERROR_NOT_READY", "not ready"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS", "illegal memory access"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT", "launch timed out"},
    {703, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING", "incompatible texturing"},
    {704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", "peer access already enabled"},
    {705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", "peer access not enabled"},
    {708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE", "primary context active"},
    {709, "CUDA_ERROR_CONTEXT_IS_DESTROYED", "context destroyed"},
    {710, "CUDA_ERROR_ASSERT", "device-side assert"},
    {711, "CUDA_ERROR_TOO_MANY_PEERS", "too many peers"},
    {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED", "host memory already registered"},
    {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED", "host memory not registered"},
    {714, "CUDA_ERROR_HARDWARE_STACK_ERROR", "hardware stack error"},
    {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION", "illegal instruction"},
    {716, "CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address"},
    {717, "CUDA_ERROR_INVALID_ADDRESS_SPACE", "invalid address space"},
    {718, "CUDA_ERROR_INVALID_PC", "invalid program counter"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", "cooperative launch too large"},
    {800, "CUDA_ERROR_NOT_PERMITTED", "operation not permitted"},
    {801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {802, "CUDA_ERROR_SYSTEM_NOT_READY", "system not ready"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "driver and kernel module versions differ"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "forward compatibility not supported on this device"},
    {900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED", "not allowed while the stream is captured"},
    {901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED", "the capture was invalidated by an earlier error"},
    {908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD", "the capture was ended on another thread"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

const char *cuda_error_name(CUresult r) {
  for (size_t i = 0; i < sizeof cu_errors / sizeof cu_errors[0]; i++)
    if (cu_errors[i].code == r) return cu_errors[i].name;
  static _Thread_local char buf[32];
  snprintf(buf, sizeof buf, "CUDA_ERROR_%d", r);
  return buf;
}

const char *cuda_error_text(CUresult r) {
  for (size_t i = 0; i < sizeof cu_errors / sizeof cu_errors[0]; i++)
    if (cu_errors[i].code == r) return cu_errors[i].text;
  return "";
}

bool cuda_check(CUresult r, const char *what, char **err) {
  if (r == CUDA_SUCCESS) return true;
  const char *t = cuda_error_text(r);
  const char *detail = simt_take_error();
  *err = xasprintf("%s: %s%s%s%s%s%s", what, cuda_error_name(r), *t ? " (" : "", t, *t ? ")" : "",
                   detail ? ": " : "", detail ? detail : "");
  return false;
}

/* ---- loading ---- */
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static CudaDriver *loaded;
static char *load_error; /* plain malloc: process-wide */

static void set_load_error(const char *fmt, ...) XLAC_PRINTF(1, 2);
static void set_load_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (vasprintf(&load_error, fmt, ap) < 0) load_error = NULL;
  va_end(ap);
}

/* The driver's symbols: required ones fail the load, optional ones stay
   NULL. */
typedef struct Sym {
  const char *name;
  size_t offset;
  bool required;
} Sym;
#define REQ(field, sym) {sym, offsetof(CudaDriver, field), true}
#define OPT(field, sym) {sym, offsetof(CudaDriver, field), false}
static const Sym syms[] = {
    REQ(cuInit, "cuInit"),
    OPT(cuDriverGetVersion, "cuDriverGetVersion"),
    REQ(cuDeviceGetCount, "cuDeviceGetCount"),
    REQ(cuDeviceGet, "cuDeviceGet"),
    REQ(cuDeviceGetName, "cuDeviceGetName"),
    REQ(cuDeviceGetAttribute, "cuDeviceGetAttribute"),
    OPT(cuDeviceTotalMem, "cuDeviceTotalMem_v2"),
    REQ(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
    REQ(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease"),
    REQ(cuCtxSetCurrent, "cuCtxSetCurrent"),
    REQ(cuCtxSynchronize, "cuCtxSynchronize"),
    REQ(cuModuleLoadData, "cuModuleLoadData"),
    OPT(cuModuleLoadDataEx, "cuModuleLoadDataEx"),
    REQ(cuModuleGetFunction, "cuModuleGetFunction"),
    REQ(cuModuleUnload, "cuModuleUnload"),
    REQ(cuMemAlloc, "cuMemAlloc_v2"),
    REQ(cuMemFree, "cuMemFree_v2"),
    REQ(cuMemcpyHtoD, "cuMemcpyHtoD_v2"),
    REQ(cuMemcpyDtoH, "cuMemcpyDtoH_v2"),
    OPT(cuMemcpyDtoD, "cuMemcpyDtoD_v2"),
    REQ(cuLaunchKernel, "cuLaunchKernel"),
    OPT(cuStreamCreate, "cuStreamCreate"),
    OPT(cuStreamDestroy, "cuStreamDestroy_v2"),
    OPT(cuStreamSynchronize, "cuStreamSynchronize"),
    OPT(cuEventCreate, "cuEventCreate"),
    OPT(cuEventDestroy, "cuEventDestroy_v2"),
    OPT(cuEventRecord, "cuEventRecord"),
    OPT(cuEventSynchronize, "cuEventSynchronize"),
    OPT(cuEventElapsedTime, "cuEventElapsedTime"),
    OPT(cuStreamWaitEvent, "cuStreamWaitEvent"),
    OPT(cuEventQuery, "cuEventQuery"),
    OPT(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"),
    OPT(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
    OPT(cuMemAllocHost, "cuMemAllocHost_v2"),
    OPT(cuMemFreeHost, "cuMemFreeHost"),
    OPT(cuStreamBeginCapture, "cuStreamBeginCapture_v2"),
    OPT(cuStreamEndCapture, "cuStreamEndCapture"),
    OPT(cuGraphInstantiate, "cuGraphInstantiateWithFlags"),
    OPT(cuGraphLaunch, "cuGraphLaunch"),
    OPT(cuGraphExecDestroy, "cuGraphExecDestroy"),
    OPT(cuGraphDestroy, "cuGraphDestroy"),
};

static void load_driver(void) {
  const char *env = getenv("XLAC_CUDA_DRIVER");
  bool named = env && *env;
  const char *path = named ? env : "libcuda.so.1";
  if (named && strncmp(env, "simt", 4) == 0 && (env[4] == 0 || env[4] == ':')) {
    /* the SIMT harness: no library to open */
    char *why = NULL;
    loaded = simt_driver_new(env, &why);
    if (!loaded) {
      if (why) load_error = why;
      else set_load_error("out of memory loading the SIMT harness");
    }
    return;
  }
  /* RTLD_LOCAL: the driver's symbols (and a simulator's C++ runtime) stay
     out of the process's namespace */
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *why = dlerror();
    if (named)
      set_load_error("no CUDA driver (cannot load '%s', named by XLAC_CUDA_DRIVER: %s)", path, why ? why : "?");
    else
      set_load_error("no CUDA driver (libcuda.so.1 not found)");
    return;
  }
  CudaDriver *d = calloc(1, sizeof *d);
  if (!d || !(d->path = strdup(path))) {
    xfree(d);
    dlclose(h);
    set_load_error("out of memory loading the CUDA driver");
    return;
  }
  d->handle = h;
  for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
    void *p = dlsym(h, syms[i].name);
    if (!p && syms[i].required) {
      set_load_error("no usable CUDA driver ('%s' has no %s: not the CUDA driver, or too old)", path, syms[i].name);
      xfree(d->path);
      xfree(d);
      dlclose(h);
      return;
    }
    memcpy((char *)d + syms[i].offset, &p, sizeof p);
  }
  CUresult r = d->cuInit(0);
  if (r != CUDA_SUCCESS) {
    if (r == CUDA_ERROR_STUB_LIBRARY)
      set_load_error("no CUDA driver ('%s' is the CUDA toolkit's stub library: CUDA_ERROR_STUB_LIBRARY)", path);
    else if (r == CUDA_ERROR_NO_DEVICE)
      set_load_error("no GPU (cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected)");
    else
      set_load_error("the CUDA driver '%s' failed to initialize (cuInit: %s%s%s)", path, cuda_error_name(r),
                     *cuda_error_text(r) ? ": " : "", cuda_error_text(r));
    xfree(d->path);
    xfree(d);
    dlclose(h);
    return;
  }
  loaded = d;
}

const CudaDriver *cuda_driver(char **err) {
  pthread_once(&load_once, load_driver);
  if (!loaded && err) *err = xstrdup(load_error ? load_error : "no CUDA driver");
  return loaded;
}

/* ---- devices ---- */
GpuDevice *gpu_device_open(int ordinal, char **err) {
  const CudaDriver *drv = cuda_driver(err);
  if (!drv) return NULL;
  int count = 0;
  if (!cuda_check(drv->cuDeviceGetCount(&count), "cuDeviceGetCount", err)) return NULL;
  if (count == 0) {
    *err = xasprintf("no GPU (the CUDA driver '%s' reports no devices)", drv->path);
    return NULL;
  }
  if (ordinal < 0 || ordinal >= count) {
    *err = xasprintf("no GPU number %d (the CUDA driver reports %d)", ordinal, count);
    return NULL;
  }
  GpuDevice *d = xcalloc(1, sizeof *d);
  d->drv = drv;
  d->ordinal = ordinal;
  bool ok = cuda_check(drv->cuDeviceGet(&d->dev, ordinal), "cuDeviceGet", err) &&
            cuda_check(drv->cuDeviceGetName(d->name, (int)sizeof d->name - 1, d->dev), "cuDeviceGetName", err) &&
            cuda_check(drv->cuDeviceGetAttribute(&d->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d->dev),
                       "cuDeviceGetAttribute", err) &&
            cuda_check(drv->cuDeviceGetAttribute(&d->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d->dev),
                       "cuDeviceGetAttribute", err) &&
            cuda_check(drv->cuDeviceGetAttribute(&d->sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d->dev),
                       "cuDeviceGetAttribute", err) &&
            cuda_check(drv->cuDeviceGetAttribute(&d->max_threads_per_block, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                                 d->dev),
                       "cuDeviceGetAttribute", err);
  if (ok && drv->cuDeviceTotalMem && drv->cuDeviceTotalMem(&d->total_mem, d->dev) != CUDA_SUCCESS) d->total_mem = 0;
  ok = ok && cuda_check(drv->cuDevicePrimaryCtxRetain(&d->ctx, d->dev), "cuDevicePrimaryCtxRetain", err);
  if (ok && !cuda_check(drv->cuCtxSetCurrent(d->ctx), "cuCtxSetCurrent", err)) {
    drv->cuDevicePrimaryCtxRelease(d->dev);
    ok = false;
  }
  if (!ok) {
    xfree(d);
    return NULL;
  }
  d->name[sizeof d->name - 1] = 0;
  pthread_mutex_init(&d->mu, NULL);
  if (d->sm_count <= 0) d->sm_count = 1;
  if (d->max_threads_per_block <= 0) d->max_threads_per_block = 256;
  gpu_async_probe(d);
  return d;
}

bool gpu_device_bind(GpuDevice *d, char **err) {
  return cuda_check(d->drv->cuCtxSetCurrent(d->ctx), "cuCtxSetCurrent", err);
}

void gpu_device_close(GpuDevice *d) {
  if (!d) return;
  gpu_blas_release(d);
  gpu_async_release(d);
  gpu_pool_release(d);
  d->drv->cuDevicePrimaryCtxRelease(d->dev);
  pthread_mutex_destroy(&d->mu);
  xfree(d);
}
