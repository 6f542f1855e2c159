/*
 * buffer.c - device buffers.  A buffer is an interpreter value (a tensor
 * literal, or a token) placed on one device of a client; the CPU backend
 * reads and writes the literal's storage directly, so a buffer is what both
 * backends run on without conversion.  Zero-copy buffers borrow the
 * caller's memory (Literal.borrowed).
 */
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "gpu/gpu.h"

xlac_buffer *api_buffer_new(xlac_client *c, int device, IVal *v) {
  xlac_buffer *b = xcalloc(1, sizeof *b);
  b->magic = API_MAGIC_BUFFER;
  b->client = c;
  b->device = device;
  b->type = api_type_of(v->kind == IV_TENSOR ? v->lit->type : &(Type){.kind = TY_TOKEN});
  b->val = v;
  atomic_init(&b->donated, 0);
  atomic_init(&b->host_valid, true);
  api_client_retain(c);
  return b;
}

xlac_buffer *api_buffer_new_gpu(xlac_client *c, int device, const Type *t, unsigned long long p) {
  xlac_buffer *b = api_buffer_new(c, device, ival_tensor(lit_new_borrowed(t, NULL)));
  b->on_gpu = true;
  b->dptr = p;
  atomic_store(&b->host_valid, false);
  return b;
}

static size_t data_bytes(const Literal *l) { return (size_t)l->n * (size_t)et_bytes(l->type->elem); }

xlac_status *api_buffer_upload(xlac_buffer *b) {
  xlac_client *c = b->client;
  if (!c->gpu || b->on_gpu) return NULL;
  b->on_gpu = true;
  if (b->val->kind != IV_TENSOR) return NULL; /* a token has no data */
  Literal *l = b->val->lit;
  char *err = NULL;
  pthread_mutex_lock(&c->gpu_mu);
  CUdeviceptr p = 0;
  /* asynchronous where the device is: through pinned memory on its
     transfer stream, the executions that read the buffer waiting for
     the copy (ready) */
  bool ok = gpu_mem_alloc(c->gpu, data_bytes(l), &p, &err) &&
            gpu_mem_upload_async(c->gpu, p, l->data, data_bytes(l), &b->ready, &err);
  if (!ok) gpu_mem_free(c->gpu, p);
  pthread_mutex_unlock(&c->gpu_mu);
  if (!ok) {
    xlac_code code = err && strstr(err, "OUT_OF_MEMORY") ? XLAC_OUT_OF_MEMORY : XLAC_INTERNAL;
    xlac_status *s = xlac_status_create(code, "xlac_buffer_from_host: %s", err ? err : "the copy to the GPU failed");
    xfree(err);
    return s;
  }
  b->dptr = p;
  /* the device holds the data now; the host copy goes, unless it is the
     caller's memory (zero-copy) or shared with another value */
  if (!l->borrowed && b->val->refs == 1) {
    xfree(l->data);
    l->data = NULL;
    l->borrowed = true;
    atomic_store(&b->host_valid, false);
  }
  return NULL;
}

void api_buffer_add_use(xlac_buffer *b, GpuEvent *ev) {
  if (!ev) return;
  int k = 0;
  for (int i = 0; i < b->nuses; i++)
    if (gpu_event_done(b->uses[i])) gpu_event_release(b->uses[i]);
    else b->uses[k++] = b->uses[i];
  b->nuses = k;
  if (b->nuses == b->cuses) {
    b->cuses = b->cuses ? 2 * b->cuses : 4;
    b->uses = xrealloc(b->uses, sizeof(GpuEvent *) * (size_t)b->cuses);
  }
  b->uses[b->nuses++] = gpu_event_retain(ev);
}

void api_buffer_drop_device(xlac_buffer *b) {
  xlac_client *c = b->client;
  if (b->dptr) {
    GpuEvent **evs = xcalloc((size_t)b->nuses + 2, sizeof(GpuEvent *));
    for (int i = 0; i < b->nuses; i++) evs[i] = b->uses[i];
    evs[b->nuses] = b->ready;
    gpu_mem_free_after(c->gpu, b->dptr, evs, b->nuses + 1);
    xfree(evs);
    b->dptr = 0;
  }
  for (int i = 0; i < b->nuses; i++) gpu_event_release(b->uses[i]);
  xfree(b->uses);
  b->uses = NULL;
  b->nuses = b->cuses = 0;
  gpu_event_release(b->ready);
  b->ready = NULL;
}

/* Waits until the work that writes b's device memory is done (the
   execution that made it, its upload).  The client's lock is not held
   while waiting: other executions may be queued meanwhile. */
static xlac_status *buffer_wait(const xlac_buffer *cb, const char *fn) {
  xlac_buffer *b = (xlac_buffer *)cb; /* readiness is a cache */
  xlac_client *c = b->client;
  if (!b->on_gpu) return NULL;
  pthread_mutex_lock(&c->gpu_mu);
  GpuEvent *ev = gpu_event_retain(b->ready);
  pthread_mutex_unlock(&c->gpu_mu);
  if (!ev) return NULL;
  char *err = NULL;
  bool ok = gpu_event_wait(ev, &err);
  pthread_mutex_lock(&c->gpu_mu);
  if (ok && b->ready == ev) { /* done: nothing to wait for next time */
    b->ready = NULL;
    gpu_event_release(ev);
  }
  gpu_event_release(ev);
  pthread_mutex_unlock(&c->gpu_mu);
  if (ok) return NULL;
  xlac_status *s = xlac_status_create(XLAC_INTERNAL, "%s: the execution that computes the buffer failed: %s", fn,
                                      err ? err : "?");
  xfree(err);
  return s;
}

/* A gpu buffer's data on the host: copied back the first time, then kept.
   False when the copy (or memory for it) fails. */
static bool buffer_on_host(const xlac_buffer *cb) {
  xlac_buffer *b = (xlac_buffer *)cb; /* the host copy is a cache */
  if (!b->on_gpu || atomic_load(&b->host_valid) || !b->val || b->val->kind != IV_TENSOR) return true;
  xlac_client *c = b->client;
  xlac_status *ws = buffer_wait(b, "api_buffer_value");
  if (ws) {
    xlac_status_destroy(ws);
    return false;
  }
  bool ok = true;
  pthread_mutex_lock(&c->gpu_mu);
  if (!atomic_load(&b->host_valid)) {
    Literal *l = b->val->lit;
    size_t n = data_bytes(l);
    void *data = calloc(n ? n : 1, 1); /* not xcalloc: callers are outside any memory guard */
    char *err = NULL;
    ok = data && gpu_mem_download(c->gpu, data, b->dptr, n, &err);
    xfree(err);
    if (ok) {
      l->data = data;
      l->borrowed = false;
      atomic_store(&b->host_valid, true);
    } else {
      xfree(data);
    }
  }
  pthread_mutex_unlock(&c->gpu_mu);
  return ok;
}

xlac_status *api_buffer_from_value(xlac_client *c, int device, IVal *v, xlac_buffer **out) {
  *out = NULL;
  xlac_status *s = api_check_client(c, "xlac_buffer_from_host");
  if (!s) s = api_check_client_alive(c, "xlac_buffer_from_host");
  if (s) return s;
  if (device < 0 || device >= c->ndev || !v || v->kind == IV_TUPLE)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_buffer_from_host: bad device or value");
  *out = api_buffer_new(c, device, v);
  if ((s = api_buffer_upload(*out))) {
    xlac_buffer_destroy(*out);
    *out = NULL;
  }
  return s;
}

IVal *api_buffer_value(const xlac_buffer *b) {
  return b && b->magic == API_MAGIC_BUFFER && buffer_on_host(b) ? b->val : NULL;
}

static xlac_status *check_buffer(const xlac_buffer *b, const char *fn) {
  if (!b) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: the buffer is NULL", fn);
  if (b->magic != API_MAGIC_BUFFER) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: not a buffer", fn);
  return NULL;
}

/* Elements packed per byte in the packed host layout (1: not packable). */
static int pack_factor(xlac_type t) {
  int bits = xlac_type_bits(t);
  return (t == XLAC_S2 || t == XLAC_U2 || t == XLAC_S4 || t == XLAC_U4) ? 8 / bits : 1;
}

static size_t host_size(xlac_type t, int64_t n, unsigned flags) {
  if (t == XLAC_TOKEN) return 0;
  int k = flags & XLAC_HOST_PACKED ? pack_factor(t) : 1;
  return (size_t)((n + k - 1) / k) * xlac_type_host_bytes(t);
}

/* The byte a stored element of t must have, for the bits `v` (the
   canonical form: sign-extended for signed sub-byte integers, 0/1 for
   pred, the low bits only for the narrow float formats). */
static uint8_t canonical_byte(xlac_type t, uint8_t v) {
  int bits = xlac_type_bits(t);
  if (t == XLAC_PRED) return v != 0;
  if (bits >= 8) return v;
  uint8_t low = (uint8_t)(v & ((1u << bits) - 1));
  if ((t == XLAC_S2 || t == XLAC_S4) && (low >> (bits - 1))) return (uint8_t)(low | (0xFFu << bits));
  return low;
}

static bool needs_canonical(xlac_type t) { return t == XLAC_PRED || xlac_type_bits(t) < 8; }

/* The guarded part of xlac_buffer_from_host (arguments checked). */
typedef struct MakeBuffer {
  xlac_client *c;
  int device;
  xlac_type type;
  const int64_t *dims;
  int rank;
  const void *data;
  int64_t n;
  size_t need;
  bool packed, zero_copy;
  xlac_buffer *out;
} MakeBuffer;

static bool make_buffer(void *ctx) {
  MakeBuffer *mb = ctx;
  xlac_client *c = mb->c;
  int device = mb->device, rank = mb->rank;
  xlac_type type = mb->type;
  const int64_t *dims = mb->dims;
  const void *data = mb->data;
  int64_t n = mb->n;
  size_t need = mb->need;
  bool packed = mb->packed, zero_copy = mb->zero_copy;
  OomLoc prev = oom_set_loc(SRCLOC_NONE, "a buffer");
  IVal *v;
  if (type == XLAC_TOKEN) {
    v = ival_token();
  } else {
    Type t = {.kind = TY_TENSOR, .elem = api_elem(type), .rank = rank, .dims = (int64_t *)dims};
    if (zero_copy) {
      v = ival_tensor(lit_new_borrowed(&t, (void *)data));
    } else {
      Literal *l = lit_new(&t);
      uint8_t *dst = l->data;
      const uint8_t *src = data;
      if (packed) {
        int k = pack_factor(type), bits = xlac_type_bits(type);
        for (int64_t i = 0; i < n; i++)
          dst[i] = canonical_byte(type, (uint8_t)(src[i / k] >> (bits * (i % k))));
      } else if (needs_canonical(type)) {
        for (int64_t i = 0; i < n; i++) dst[i] = canonical_byte(type, src[i]);
      } else if (need) {
        memcpy(dst, src, need);
      }
      v = ival_tensor(l);
    }
  }
  mb->out = api_buffer_new(c, device, v);
  oom_restore_loc(prev);
  return true;
}

xlac_status *xlac_buffer_from_host(xlac_client *c, int device, xlac_type type, const int64_t *dims, int rank,
                                   const void *data, size_t size, unsigned flags, xlac_buffer **out_buffer) {
  static const char fn[] = "xlac_buffer_from_host";
  if (out_buffer) *out_buffer = NULL;
  xlac_status *s = api_check_client(c, fn);
  if (s) return s;
  if (!out_buffer) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: out_buffer is NULL", fn);
  if ((s = api_check_client_alive(c, fn))) return s;
  if (device < 0 || device >= c->ndev)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: device %d does not exist (the client has %d)", fn, device,
                              c->ndev);
  if (!api_type_valid(type)) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: unknown element type %d", fn, (int)type);
  if (flags & ~(unsigned)(XLAC_HOST_ZERO_COPY | XLAC_HOST_PACKED))
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: unknown flags 0x%x", fn, flags);
  if (rank < 0 || rank > 64) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: rank %d is not in 0..64", fn, rank);
  if (rank > 0 && !dims) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: dims is NULL for rank %d", fn, rank);
  if (type == XLAC_TOKEN && rank)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: a token has rank 0, not %d", fn, rank);
  int64_t n = 1;
  for (int i = 0; i < rank; i++) {
    if (dims[i] < 0)
      return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: dimension %d is %lld (negative)", fn, i,
                                (long long)dims[i]);
    if (!dim_mul(n, dims[i], &n))
      return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: the shape has too many elements", fn);
  }
  int64_t total;
  if (!dim_mul(n, (int64_t)xlac_type_host_bytes(type), &total))
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: the shape has too many elements", fn);
  bool packed = (flags & XLAC_HOST_PACKED) && pack_factor(type) > 1;
  bool zero_copy = flags & XLAC_HOST_ZERO_COPY;
  if (zero_copy && packed)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: XLAC_HOST_ZERO_COPY cannot be combined with XLAC_HOST_PACKED "
                              "(packed data is unpacked into a copy)", fn);
  size_t need = host_size(type, n, packed ? XLAC_HOST_PACKED : 0);
  if (size != need)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: %zu bytes given, the %s shape needs %zu", fn, size,
                              xlac_type_name(type), need);
  if (need && !data) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: data is NULL", fn);
  if (zero_copy && ((uintptr_t)data % 64) != 0)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: XLAC_HOST_ZERO_COPY needs 64-byte aligned data (%p is not)", fn,
                              data);
  if (zero_copy && needs_canonical(type)) {
    const uint8_t *p = data;
    for (int64_t i = 0; i < n; i++)
      if (p[i] != canonical_byte(type, p[i]))
        return xlac_status_create(XLAC_INVALID_ARGUMENT,
                                  "%s: element %lld is 0x%02x, not a valid %s in the unpacked layout (zero-copy data "
                                  "is used as it is)", fn, (long long)i, p[i], xlac_type_name(type));
  }
  MakeBuffer mb = {c, device, type, dims, rank, data, n, need, packed, zero_copy, NULL};
  ApiCapture cap;
  api_capture_begin(&cap);
  bool ok = api_guarded(make_buffer, &mb, true, NULL);
  s = api_capture_end(&cap, ok, XLAC_OUT_OF_MEMORY, "out of memory");
  if (s) return s;
  if ((s = api_buffer_upload(mb.out))) { /* a gpu client's buffers live on the device */
    xlac_buffer_destroy(mb.out);
    return s;
  }
  *out_buffer = mb.out;
  return NULL;
}

size_t xlac_buffer_host_size(const xlac_buffer *b, unsigned flags) {
  if (!b || b->magic != API_MAGIC_BUFFER || !b->val || b->val->kind != IV_TENSOR) return 0;
  return host_size(b->type, b->val->lit->n, flags);
}

xlac_status *xlac_buffer_to_host(const xlac_buffer *b, void *dst, size_t size, unsigned flags) {
  static const char fn[] = "xlac_buffer_to_host";
  xlac_status *s = check_buffer(b, fn);
  if (s) return s;
  if (atomic_load(&b->donated))
    return xlac_status_create(XLAC_FAILED_PRECONDITION, "%s: the buffer was donated to an execution", fn);
  if (flags & ~(unsigned)XLAC_HOST_PACKED)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: unknown flags 0x%x", fn, flags);
  if (b->val->kind != IV_TENSOR) return NULL; /* a token has no data */
  const Literal *l = b->val->lit;
  size_t need = host_size(b->type, l->n, flags);
  if (size < need)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: %zu bytes given, the buffer needs %zu", fn, size, need);
  if (need && !dst) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: dst is NULL", fn);
  int k = flags & XLAC_HOST_PACKED ? pack_factor(b->type) : 1;
  if (b->on_gpu && !atomic_load(&b->host_valid) && k == 1) {
    /* straight from the device into dst, keeping no host copy, once the
       execution that computes it is done */
    xlac_client *c = b->client;
    if ((s = buffer_wait(b, fn))) return s;
    char *err = NULL;
    pthread_mutex_lock(&c->gpu_mu);
    bool ok = gpu_mem_download(c->gpu, dst, b->dptr, need, &err);
    pthread_mutex_unlock(&c->gpu_mu);
    if (ok) return NULL;
    xlac_status *st = xlac_status_create(XLAC_INTERNAL, "%s: %s", fn, err ? err : "the copy from the GPU failed");
    xfree(err);
    return st;
  }
  if (!buffer_on_host(b))
    return xlac_status_create(XLAC_INTERNAL, "%s: the buffer's data could not be copied from the GPU", fn);
  if (k > 1) {
    int bits = xlac_type_bits(b->type);
    uint8_t *out = dst;
    const uint8_t *in = l->data;
    memset(out, 0, need);
    for (int64_t i = 0; i < l->n; i++)
      out[i / k] |= (uint8_t)((in[i] & ((1u << bits) - 1)) << (bits * (i % k)));
  } else if (need) {
    memcpy(dst, l->data, need);
  }
  return NULL;
}

xlac_status *xlac_buffer_shape(const xlac_buffer *b, xlac_shape *out_shape) {
  xlac_status *s = check_buffer(b, "xlac_buffer_shape");
  if (s) return s;
  if (!out_shape) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_buffer_shape: out_shape is NULL");
  if (!b->val)
    return xlac_status_create(XLAC_FAILED_PRECONDITION, "xlac_buffer_shape: the buffer was donated to an execution");
  out_shape->type = b->type;
  out_shape->rank = b->val->kind == IV_TENSOR ? b->val->lit->type->rank : 0;
  out_shape->dims = b->val->kind == IV_TENSOR ? b->val->lit->type->dims : NULL;
  out_shape->name = NULL;
  return NULL;
}

int xlac_buffer_device(const xlac_buffer *b) { return b && b->magic == API_MAGIC_BUFFER ? b->device : -1; }

int xlac_buffer_is_donated(const xlac_buffer *b) {
  return b && b->magic == API_MAGIC_BUFFER ? atomic_load(&b->donated) : 0;
}

void xlac_buffer_destroy(xlac_buffer *b) {
  if (!b || b->magic != API_MAGIC_BUFFER) return;
  b->magic = API_MAGIC_DEAD;
  if (b->on_gpu) {
    pthread_mutex_lock(&b->client->gpu_mu);
    api_buffer_drop_device(b);
    pthread_mutex_unlock(&b->client->gpu_mu);
  }
  api_recycle_value(b->client, b->val);
  api_client_release(b->client);
  xfree(b);
}

xlac_status *xlac_buffer_await(const xlac_buffer *b) {
  static const char fn[] = "xlac_buffer_await";
  xlac_status *s = check_buffer(b, fn);
  if (s) return s;
  if (atomic_load(&b->donated))
    return xlac_status_create(XLAC_FAILED_PRECONDITION, "%s: the buffer was donated to an execution", fn);
  return buffer_wait(b, fn);
}

int xlac_buffer_is_ready(const xlac_buffer *cb) {
  if (!cb || cb->magic != API_MAGIC_BUFFER || !cb->on_gpu) return 1;
  xlac_buffer *b = (xlac_buffer *)cb;
  pthread_mutex_lock(&b->client->gpu_mu);
  /* (a failed execution counts as done: xlac_buffer_await says how) */
  bool done = gpu_event_done(b->ready);
  pthread_mutex_unlock(&b->client->gpu_mu);
  return done;
}
