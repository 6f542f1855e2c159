/*
 * cuda.h - the CUDA driver API, loaded at run time.
 *
 * xlac never links libcuda: the driver is opened with dlopen when a GPU is
 * first asked for, so xlac builds, links and runs on machines without one.
 * The library opened is $XLAC_CUDA_DRIVER when set (the tests point it at
 * GPGPU-Sim's libcudart.so, which exports the driver API too), else
 * libcuda.so.1.  "No CUDA driver" and "no GPU" are ordinary errors.
 *
 * The few driver types are declared here (no cuda.h); entry points are
 * looked up by their versioned names (cuMemAlloc_v2, ...), as the driver
 * exports them.  CUresult names come from our own table: the toolkit's stub
 * library answers CUDA_ERROR_STUB_LIBRARY to everything, cuGetErrorString
 * included.
 */
#ifndef XLAC_GPU_CUDA_H
#define XLAC_GPU_CUDA_H

#include <stdbool.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;

enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_STUB_LIBRARY = 34,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_NOT_READY = 600,
};

/* cuStreamCreate: no implicit synchronization with the legacy default
   stream (only the events the backend records order the work) */
enum { CU_STREAM_NON_BLOCKING = 1 };
/* cuEventCreate: no timing (cheaper), for completion events */
enum { CU_EVENT_DISABLE_TIMING = 2 };
/* cuStreamBeginCapture: only this thread's calls are checked for what a
   capture forbids (a synchronous copy, a stream synchronized) */
enum { CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1 };

/* cuDeviceGetAttribute */
enum {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
};

/* cuModuleLoadDataEx options */
enum {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/* The driver's entry points.  Those marked optional may be NULL (the
   simulator lacks some; nothing here needs them yet). */
typedef struct CudaDriver {
  void *handle;
  char *path; /* what was opened */
  /* cuModuleLoadData takes a GpuIrImage (the SIMT harness, simt.h) */
  bool llvm_ir;
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDriverGetVersion)(int *version); /* optional */
  CUresult (*cuDeviceGetCount)(int *count);
  CUresult (*cuDeviceGet)(CUdevice *dev, int ordinal);
  CUresult (*cuDeviceGetName)(char *name, int len, CUdevice dev);
  CUresult (*cuDeviceGetAttribute)(int *value, int attrib, CUdevice dev);
  CUresult (*cuDeviceTotalMem)(size_t *bytes, CUdevice dev); /* optional */
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice dev);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice dev);
  CUresult (*cuCtxSetCurrent)(CUcontext ctx);
  CUresult (*cuCtxSynchronize)(void);
  CUresult (*cuModuleLoadData)(CUmodule *mod, const void *image);
  CUresult (*cuModuleLoadDataEx)(CUmodule *mod, const void *image, unsigned nopts, int *opts,
                                 void **values); /* optional */
  CUresult (*cuModuleGetFunction)(CUfunction *fn, CUmodule mod, const char *name);
  CUresult (*cuModuleUnload)(CUmodule mod);
  CUresult (*cuMemAlloc)(CUdeviceptr *p, size_t bytes);
  CUresult (*cuMemFree)(CUdeviceptr p);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);
  CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr dst, CUdeviceptr src, size_t bytes); /* optional */
  CUresult (*cuLaunchKernel)(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                             unsigned bz, unsigned shared_bytes, CUstream stream, void **params, void **extra);
  /* streams and events (optional) */
  CUresult (*cuStreamCreate)(CUstream *s, unsigned flags);
  CUresult (*cuStreamDestroy)(CUstream s);
  CUresult (*cuStreamSynchronize)(CUstream s);
  CUresult (*cuEventCreate)(CUevent *e, unsigned flags);
  CUresult (*cuEventDestroy)(CUevent e);
  CUresult (*cuEventRecord)(CUevent e, CUstream s);
  CUresult (*cuEventSynchronize)(CUevent e);
  CUresult (*cuEventElapsedTime)(float *ms, CUevent start, CUevent end);
  /* asynchronous work (optional; all of them, and a driver that does what
     they say, make GpuDevice.async) */
  CUresult (*cuStreamWaitEvent)(CUstream s, CUevent e, unsigned flags);
  CUresult (*cuEventQuery)(CUevent e);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr dst, const void *src, size_t bytes, CUstream s);
  CUresult (*cuMemcpyDtoHAsync)(void *dst, CUdeviceptr src, size_t bytes, CUstream s);
  CUresult (*cuMemAllocHost)(void **p, size_t bytes);
  CUresult (*cuMemFreeHost)(void *p);
  /* CUDA graphs (optional, all or none used): a stream's launches
     captured into a graph, instantiated, and launched as one */
  CUresult (*cuStreamBeginCapture)(CUstream s, int mode);
  CUresult (*cuStreamEndCapture)(CUstream s, CUgraph *g);
  CUresult (*cuGraphInstantiate)(CUgraphExec *x, CUgraph g, unsigned long long flags);
  CUresult (*cuGraphLaunch)(CUgraphExec x, CUstream s);
  CUresult (*cuGraphExecDestroy)(CUgraphExec x);
  CUresult (*cuGraphDestroy)(CUgraph g);
} CudaDriver;

/* What a driver with llvm_ir loads instead of PTX: the kernel module as
   LLVM bitcode, after LLVM's optimizer for the NVPTX target. */
enum { GPU_IR_IMAGE_MAGIC = 0x7853494d };
typedef struct GpuIrImage {
  unsigned magic; /* GPU_IR_IMAGE_MAGIC */
  const void *bitcode;
  size_t size;
} GpuIrImage;

/* The driver, loaded once per process (later calls return the same
   result).  NULL with *err (heap, xfree) saying why: no library, a library
   without the driver API, a stub library, or cuInit failing. */
const CudaDriver *cuda_driver(char **err);

/* "CUDA_ERROR_OUT_OF_MEMORY" etc.; "CUDA_ERROR_<n>" for codes not in the
   table (a static buffer per thread).  cuda_error_text: a short
   description, "" when unknown. */
const char *cuda_error_name(CUresult r);
const char *cuda_error_text(CUresult r);

/* One GPU: the driver, the device, its primary context (current on the
   calling thread after gpu_device_open / gpu_device_bind). */
typedef struct GpuDevice {
  const CudaDriver *drv;
  int ordinal;
  CUdevice dev;
  CUcontext ctx;
  char name[256];
  int cc_major, cc_minor; /* compute capability */
  int sm_count;
  int max_threads_per_block;
  size_t total_mem; /* 0 when the driver does not say */
  struct GpuPool *pool; /* device memory kept for reuse (pool.c) */
  struct GpuBlas *blas; /* its cuBLASLt handle, made on first use (cublaslt.c) */
  /* Executions run on streams of their own and return before their work
     is done (stream.c): the driver has streams, events, asynchronous
     copies and pinned host memory, and a probe at open found them working
     (GPGPU-Sim exports them as stubs that do nothing); XLAC_GPU_ASYNC=0
     turns it off.  False: everything is synchronous on the default
     stream, as before. */
  bool async;
  CUstream transfer; /* with async: the stream host-to-device copies go on */
  /* held by the thread whose execution is using the device: the processes
     of a grid (replicas, partitions) take turns between their host steps */
  pthread_mutex_t mu;
} GpuDevice;

/* Opens device `ordinal` (0: the first): loads the driver, checks that
   there is such a device, retains its primary context.  NULL with *err set
   ("no CUDA driver (...)", "no GPU (...)", ...). */
GpuDevice *gpu_device_open(int ordinal, char **err);
void gpu_device_close(GpuDevice *d);
/* Makes d's context current on the calling thread. */
bool gpu_device_bind(GpuDevice *d, char **err);

/* *err = "<what>: CUDA_ERROR_X (text)" when r is not CUDA_SUCCESS (with
   the SIMT harness's details of the failure, if any); returns
   r == CUDA_SUCCESS. */
bool cuda_check(CUresult r, const char *what, char **err);

#endif
