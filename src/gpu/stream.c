/*
 * stream.c - streams and events: what lets an execution return before its
 * work is done (gpu.h, "streams and events").
 *
 * A device is asynchronous when its driver has the entry points and they
 * work: GPGPU-Sim exports cuStreamCreate, cuEventCreate and the
 * asynchronous copies as stubs that return success and do nothing (no
 * handle, no copy), so the probe at open checks each result: a stream and
 * an event handle must come back, and four bytes copied through pinned
 * memory on the new stream must arrive after the event.  Anything else
 * leaves the device synchronous, executions running on the default stream
 * and synchronizing before they return, as they always did.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"

struct GpuEvent {
  GpuDevice *d;
  CUevent ev;
  atomic_int refs;
};

static bool has_async_entry_points(const CudaDriver *drv) {
  return drv->cuStreamCreate && drv->cuStreamDestroy && drv->cuStreamSynchronize && drv->cuStreamWaitEvent &&
         drv->cuEventCreate && drv->cuEventDestroy && drv->cuEventRecord && drv->cuEventSynchronize &&
         drv->cuEventQuery && drv->cuMemcpyHtoDAsync && drv->cuMemcpyDtoHAsync && drv->cuMemAllocHost &&
         drv->cuMemFreeHost;
}

/* A round trip of four bytes through pinned memory on a new stream,
   ordered by an event: true when every step did what it says. */
static bool probe_round_trip(GpuDevice *d, CUstream s) {
  const CudaDriver *drv = d->drv;
  CUevent ev = NULL;
  CUdeviceptr p = 0;
  void *pinned = NULL;
  bool ok = drv->cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS && ev &&
            drv->cuMemAlloc(&p, 256) == CUDA_SUCCESS && p &&
            drv->cuMemAllocHost(&pinned, 8) == CUDA_SUCCESS && pinned;
  if (ok) {
    uint32_t *w = pinned;
    w[0] = 0x5a17c0de;
    w[1] = 0;
    ok = drv->cuMemcpyHtoDAsync(p, &w[0], 4, s) == CUDA_SUCCESS &&
         drv->cuMemcpyDtoHAsync(&w[1], p, 4, s) == CUDA_SUCCESS && drv->cuEventRecord(ev, s) == CUDA_SUCCESS &&
         drv->cuEventSynchronize(ev) == CUDA_SUCCESS && drv->cuEventQuery(ev) == CUDA_SUCCESS &&
         w[1] == 0x5a17c0de;
  }
  if (pinned) drv->cuMemFreeHost(pinned);
  if (p) drv->cuMemFree(p);
  if (ev) drv->cuEventDestroy(ev);
  return ok;
}

void gpu_async_probe(GpuDevice *d) {
  const CudaDriver *drv = d->drv;
  d->async = false;
  d->transfer = NULL;
  const char *env = getenv("XLAC_GPU_ASYNC");
  if ((env && strcmp(env, "0") == 0) || !has_async_entry_points(drv)) return;
  CUstream s = NULL;
  if (drv->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS || !s) return;
  if (!probe_round_trip(d, s)) {
    drv->cuStreamDestroy(s);
    return;
  }
  d->transfer = s;
  d->async = true;
}

void gpu_async_release(GpuDevice *d) {
  if (!d->async) return;
  char *err = NULL;
  if (gpu_device_bind(d, &err)) {
    d->drv->cuCtxSynchronize();
    d->drv->cuStreamDestroy(d->transfer);
  }
  xfree(err);
  d->transfer = NULL;
  d->async = false;
}

bool gpu_stream_new(GpuDevice *d, CUstream *s, char **err) {
  *s = NULL;
  if (!cuda_check(d->drv->cuStreamCreate(s, CU_STREAM_NON_BLOCKING), "cuStreamCreate", err)) return false;
  if (*s) return true;
  *err = xstrdup("cuStreamCreate: the driver returned no stream");
  return false;
}

void gpu_stream_free(GpuDevice *d, CUstream s) {
  if (s) d->drv->cuStreamDestroy(s);
}

GpuEvent *gpu_event_record(GpuDevice *d, CUstream s, char **err) {
  const CudaDriver *drv = d->drv;
  CUevent ev = NULL;
  if (!cuda_check(drv->cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING), "cuEventCreate", err)) return NULL;
  if (!cuda_check(drv->cuEventRecord(ev, s), "cuEventRecord", err)) {
    drv->cuEventDestroy(ev);
    return NULL;
  }
  GpuEvent *e = xcalloc(1, sizeof *e);
  e->d = d;
  e->ev = ev;
  atomic_init(&e->refs, 1);
  return e;
}

GpuEvent *gpu_event_retain(GpuEvent *ev) {
  if (ev) atomic_fetch_add(&ev->refs, 1);
  return ev;
}

void gpu_event_release(GpuEvent *ev) {
  if (!ev || atomic_fetch_sub(&ev->refs, 1) != 1) return;
  char *err = NULL;
  if (gpu_device_bind(ev->d, &err)) ev->d->drv->cuEventDestroy(ev->ev);
  xfree(err);
  xfree(ev);
}

bool gpu_event_done(GpuEvent *ev) { return !ev || ev->d->drv->cuEventQuery(ev->ev) != CUDA_ERROR_NOT_READY; }

bool gpu_event_wait(GpuEvent *ev, char **err) {
  return !ev || (gpu_device_bind(ev->d, err) &&
                 cuda_check(ev->d->drv->cuEventSynchronize(ev->ev), "the GPU work this waits for (cuEventSynchronize)",
                            err));
}

bool gpu_stream_wait(GpuDevice *d, CUstream s, GpuEvent *ev, char **err) {
  return !ev || cuda_check(d->drv->cuStreamWaitEvent(s, ev->ev, 0), "cuStreamWaitEvent", err);
}

bool gpu_mem_upload_async(GpuDevice *d, CUdeviceptr dst, const void *src, size_t bytes, GpuEvent **ready,
                          char **err) {
  *ready = NULL;
  if (!bytes) return true;
  void *pinned = d->async ? gpu_host_alloc(d, bytes) : NULL;
  if (!pinned) return gpu_mem_upload(d, dst, src, bytes, err);
  memcpy(pinned, src, bytes);
  bool ok = cuda_check(d->drv->cuMemcpyHtoDAsync(dst, pinned, bytes, d->transfer), "cuMemcpyHtoDAsync", err);
  GpuEvent *ev = ok ? gpu_event_record(d, d->transfer, err) : NULL;
  if (ok && !ev) { /* the copy is queued, but nothing says when it is done */
    d->drv->cuStreamSynchronize(d->transfer);
    ok = false;
  }
  gpu_host_free_after(d, pinned, ev);
  *ready = ev;
  return ok;
}
