/*
 * cublaslt.h - dot_general through NVIDIA's cuBLASLt, loaded at run time.
 *
 * The library is never linked nor shipped: cublaslt.c opens it with dlopen
 * from the user's CUDA or pip installation when a compilation first asks
 * (the places and variables are in docs/gpu.md), and without it every
 * product runs our own GEMM kernel.  gemm.c plans a GpuBlasCall for each
 * product cuBLASLt can take; the execution runs it on its stream
 * and runs the planned kernel instead when cuBLASLt declines at run time.
 */
#ifndef XLAC_GPU_CUBLASLT_H
#define XLAC_GPU_CUBLASLT_H

#include "gpu/cublaslt_abi.h"
#include "gpu/cuda.h"

/* One matrix as cuBLASLt sees it: stored column-major, rows x cols with
   leading dimension ld, consecutive batch members stride elements apart;
   trans says whether the product reads it transposed (A and B only). */
typedef struct GpuBlasMat {
  int trans;
  int64_t rows, cols, ld, stride;
} GpuBlasMat;

/* D = epilogue(op(A) op(B) [+ bias]), batch times, D m x n, K = k.  The
   buffers are the step's: A, B, D and the bias (-1: none) by index. */
typedef struct GpuBlasCall {
  int type;     /* BLT_R_*: C, D and the bias (and A and B, unless ab_type says) */
  int ab_type;  /* BLT_R_*: A and B (16-bit floats under an f32 result, else type) */
  int compute;  /* BLT_COMPUTE_* */
  int scale;    /* BLT_R_32F or BLT_R_64F: alpha and beta */
  int epilogue; /* BLT_EPILOGUE_* */
  int64_t m, n, k, batch;
  GpuBlasMat a, b, d;
  int ia, ib, id, ibias;
} GpuBlasCall;

/* Whether cuBLASLt is to be used: its library opened and its entry points
   found (once per process).  False with *why (static text) saying why not:
   XLAC_GPU_CUBLAS=0, not found, not the system's driver, an entry point
   missing.  *path receives the file opened, *version its version. */
bool gpu_cublaslt_available(const char **why, const char **path, size_t *version);

/* Runs c on device d (its context current), over the device pointers
   bufs, on stream (NULL: the default stream), with a workspace from the
   device's pool (back in the pool once the product is done).
   *ran false when cuBLASLt declined (no library, no handle on this device,
   no algorithm for the problem): the caller runs its own kernel instead.
   False with *err when the call failed. */
bool gpu_blas_run(GpuDevice *d, const GpuBlasCall *c, CUstream stream, const CUdeviceptr *bufs, bool *ran,
                  char **err);

/* The device's cuBLASLt handle, destroyed (gpu_device_close). */
void gpu_blas_release(GpuDevice *d);

/* "CUBLAS_STATUS_NOT_SUPPORTED", ... */
const char *gpu_blas_status_name(int status);

#endif
