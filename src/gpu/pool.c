/*
 * pool.c - device memory for the library's buffers and executions, kept
 * for reuse (gpu.h, "device memory").
 *
 * A request is rounded up to its size class: multiples of 256 bytes up to
 * 4 KiB, then eight classes per power of two (at most 1/8 wasted).  A
 * freed block goes on its class's list while the kept total stays under
 * the cap; an allocation takes the most recently freed block of its
 * class, else asks the driver, and when the driver has no memory left,
 * gives every kept block back and asks again.  Live blocks are remembered
 * with their class, so that freeing needs only the address.
 *
 * With asynchronous executions (stream.c) a block may be freed while work
 * queued on some stream still uses it (an execution's temporaries, a
 * donated argument no result took, a buffer destroyed while an execution
 * reads it): gpu_mem_free_after keeps it pending with those events, and
 * it joins its class's list only once they have passed, so the next
 * execution, on another stream, never gets memory the last one still
 * writes.  Pinned host memory of asynchronous uploads waits the same way.
 */
#include <string.h>

#include "gpu/gpu.h"
#include "ir/rewrite.h"

typedef struct Kept {
  CUdeviceptr p;
  size_t bytes;
} Kept;

/* A block (or pinned host memory) freed while work may still use it. */
typedef struct Pending {
  CUdeviceptr p;
  void *host;
  GpuEvent **evs;
  int nev;
} Pending;

struct GpuPool {
  VEC(Kept) kept;  /* freed blocks, newest last */
  VEC(Pending) pending;
  size_t kept_bytes, cap;
  PtrMap live;      /* address -> class size */
};

static size_t size_class(size_t n) {
  if (n <= 4096) return (n + 255) & ~(size_t)255;
  size_t step = ((size_t)1 << (63 - __builtin_clzll((unsigned long long)n))) / 8; /* an eighth of n's power of two */
  return (n + step - 1) / step * step;
}

static struct GpuPool *pool_of(GpuDevice *d) {
  if (!d->pool) {
    d->pool = xcalloc(1, sizeof *d->pool);
    d->pool->cap = d->total_mem ? d->total_mem / 4 : (size_t)1 << 30;
  }
  return d->pool;
}

static void release_kept(GpuDevice *d) {
  struct GpuPool *P = d->pool;
  for (int i = 0; P && i < P->kept.len; i++) d->drv->cuMemFree(P->kept.data[i].p);
  if (P) {
    P->kept.len = 0;
    P->kept_bytes = 0;
  }
}

static void free_now(GpuDevice *d, CUdeviceptr p);

/* Frees the pending entries whose events have passed (all of them, waiting
   for their events, with wait). */
static void reap(GpuDevice *d, bool wait) {
  struct GpuPool *P = d->pool;
  int k = 0;
  for (int i = 0; P && i < P->pending.len; i++) {
    Pending *q = &P->pending.data[i];
    bool done = true;
    for (int j = 0; j < q->nev; j++) {
      if (wait) {
        char *err = NULL;
        gpu_event_wait(q->evs[j], &err); /* a failure was the work's, reported to whoever waits for it */
        xfree(err);
      } else if (!gpu_event_done(q->evs[j])) {
        done = false;
        break;
      }
    }
    if (!done) {
      P->pending.data[k++] = *q;
      continue;
    }
    for (int j = 0; j < q->nev; j++) gpu_event_release(q->evs[j]);
    xfree(q->evs);
    if (q->host) d->drv->cuMemFreeHost(q->host);
    else free_now(d, q->p);
  }
  if (P) P->pending.len = k;
}

static void add_pending(GpuDevice *d, CUdeviceptr p, void *host, GpuEvent *const *evs, int nev) {
  struct GpuPool *P = pool_of(d);
  Pending q = {p, host, xcalloc((size_t)nev + 1, sizeof(GpuEvent *)), 0};
  for (int i = 0; i < nev; i++)
    if (evs[i] && !gpu_event_done(evs[i])) q.evs[q.nev++] = gpu_event_retain(evs[i]);
  VEC_PUSH(P->pending, q);
}

bool gpu_mem_alloc(GpuDevice *d, size_t bytes, CUdeviceptr *p, char **err) {
  *p = 0;
  if (!bytes) return true;
  if (!gpu_device_bind(d, err)) return false;
  struct GpuPool *P = pool_of(d);
  if (P->pending.len) reap(d, false);
  size_t c = size_class(bytes);
  for (int i = P->kept.len - 1; i >= 0; i--)
    if (P->kept.data[i].bytes == c) {
      *p = P->kept.data[i].p;
      P->kept_bytes -= c;
      memmove(&P->kept.data[i], &P->kept.data[i + 1], sizeof(Kept) * (size_t)(P->kept.len - i - 1));
      P->kept.len--;
      ptrmap_put(&P->live, (void *)(uintptr_t)*p, (void *)(uintptr_t)c);
      return true;
    }
  CUresult r = d->drv->cuMemAlloc(p, c);
  if (r != CUDA_SUCCESS && (P->kept.len || P->pending.len)) { /* what is kept may be what is missing */
    reap(d, true);
    release_kept(d);
    r = d->drv->cuMemAlloc(p, c);
  }
  if (r != CUDA_SUCCESS) {
    *p = 0;
    char *what = xasprintf("cuMemAlloc of %zu bytes (a buffer)", c);
    cuda_check(r, what, err);
    xfree(what);
    return false;
  }
  ptrmap_put(&P->live, (void *)(uintptr_t)*p, (void *)(uintptr_t)c);
  return true;
}

void gpu_mem_free(GpuDevice *d, CUdeviceptr p) {
  if (!p) return;
  char *err = NULL;
  bool bound = gpu_device_bind(d, &err);
  xfree(err);
  if (bound) free_now(d, p);
}

void gpu_mem_free_after(GpuDevice *d, CUdeviceptr p, GpuEvent *const *evs, int nev) {
  if (!p) return;
  bool pending = false;
  for (int i = 0; i < nev; i++) pending |= evs[i] && !gpu_event_done(evs[i]);
  if (!pending) {
    gpu_mem_free(d, p);
    return;
  }
  add_pending(d, p, NULL, evs, nev);
}

void *gpu_host_alloc(GpuDevice *d, size_t bytes) {
  void *p = NULL;
  char *err = NULL;
  bool ok = d->drv->cuMemAllocHost && gpu_device_bind(d, &err) &&
            d->drv->cuMemAllocHost(&p, bytes ? bytes : 1) == CUDA_SUCCESS;
  xfree(err);
  return ok ? p : NULL;
}

void gpu_host_free_after(GpuDevice *d, void *p, GpuEvent *ev) {
  if (!p) return;
  if (!gpu_event_done(ev)) {
    add_pending(d, 0, p, &ev, 1);
    return;
  }
  char *err = NULL;
  if (gpu_device_bind(d, &err)) d->drv->cuMemFreeHost(p);
  xfree(err);
}

static void free_now(GpuDevice *d, CUdeviceptr p) {
  struct GpuPool *P = pool_of(d);
  size_t c = (size_t)(uintptr_t)ptrmap_get(&P->live, (void *)(uintptr_t)p);
  if (c) ptrmap_put(&P->live, (void *)(uintptr_t)p, NULL);
  if (!c || P->kept_bytes + c > P->cap) {
    d->drv->cuMemFree(p);
    return;
  }
  VEC_PUSH(P->kept, ((Kept){p, c}));
  P->kept_bytes += c;
}

bool gpu_mem_upload(GpuDevice *d, CUdeviceptr dst, const void *src, size_t bytes, char **err) {
  if (!bytes) return true;
  if (!gpu_device_bind(d, err) || !cuda_check(d->drv->cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD", err))
    return false;
  /* from pageable memory the call may return before the transfer has
     reached the device, ordered on the default stream only; the
     executions' streams are non-blocking (d->async), so it is waited for */
  return !d->async || cuda_check(d->drv->cuStreamSynchronize(NULL), "cuStreamSynchronize", err);
}

bool gpu_mem_download(GpuDevice *d, void *dst, CUdeviceptr src, size_t bytes, char **err) {
  return !bytes || (gpu_device_bind(d, err) && cuda_check(d->drv->cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH", err));
}

void gpu_pool_release(GpuDevice *d) {
  if (!d->pool) return;
  char *err = NULL;
  if (gpu_device_bind(d, &err)) {
    reap(d, true);
    release_kept(d);
  }
  xfree(err);
  VEC_FREE(d->pool->pending);
  VEC_FREE(d->pool->kept);
  ptrmap_free(&d->pool->live);
  xfree(d->pool);
  d->pool = NULL;
}
