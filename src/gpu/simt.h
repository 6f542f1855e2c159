/*
 * simt.h - the SIMT harness (simt.c): an in-process CUDA driver that runs
 * the gpu backend's kernels on the CPU, one fiber per GPU thread, for
 * tests without a GPU.  Selected by XLAC_CUDA_DRIVER=simt[:ORDER].
 */
#ifndef XLAC_GPU_SIMT_H
#define XLAC_GPU_SIMT_H

#include "gpu/cuda.h"

/* The driver for spec ("simt", "simt:forward", "simt:reverse",
   "simt:random", "simt:random:SEED"); NULL with *err (plain malloc) on a
   malformed spec.  Process-wide (plain malloc), like a loaded driver. */
CudaDriver *simt_driver_new(const char *spec, char **err);
/* The details of the calling thread's last failed call, once; NULL when
   there are none. */
const char *simt_take_error(void);

#endif
