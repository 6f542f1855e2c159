/*
 * client.c - the library's front door: version, element types, clients and
 * their devices, cancellation flags.
 *
 * A client owns the thread pool every execution of its executables runs
 * on, and describes its devices: replicas x partitions of this host, all
 * sharing the pool.  Live clients are listed in a registry so that a call
 * on a destroyed client is answered with an error instead of touching
 * freed memory; executables and buffers hold references that keep the
 * client's memory alive (not usable) until they are gone.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/api.h"
#include "gpu/cuda.h"
#include "xlacrt.h"

const char *xlac_version(void) { return XLAC_VERSION; }

/* ---- element types ---- */

bool api_type_valid(xlac_type t) { return (int)t >= 0 && t <= XLAC_TOKEN; }

ElemType api_elem(xlac_type t) { return (ElemType)(t + 1); }

xlac_type api_type_of(const Type *t) {
  return t->kind == TY_TENSOR ? (xlac_type)(t->elem - 1) : XLAC_TOKEN;
}

const char *xlac_type_name(xlac_type t) {
  if (!api_type_valid(t)) return NULL;
  return t == XLAC_TOKEN ? "token" : elem_info[api_elem(t)].mlir_name;
}

int xlac_type_bits(xlac_type t) {
  if (!api_type_valid(t) || t == XLAC_TOKEN) return 0;
  return et_bits(api_elem(t));
}

size_t xlac_type_host_bytes(xlac_type t) {
  if (!api_type_valid(t) || t == XLAC_TOKEN) return 0;
  return (size_t)et_bytes(api_elem(t));
}

/* ---- the registry of live clients ---- */

static pthread_mutex_t clients_lock = PTHREAD_MUTEX_INITIALIZER;
static xlac_client **live_clients;
static int nlive, caplive;

static bool registry_add(xlac_client *c) {
  pthread_mutex_lock(&clients_lock);
  if (nlive == caplive) {
    int cap = caplive ? caplive * 2 : 8;
    xlac_client **t = realloc(live_clients, (size_t)cap * sizeof *t);
    if (!t) {
      pthread_mutex_unlock(&clients_lock);
      return false;
    }
    live_clients = t;
    caplive = cap;
  }
  live_clients[nlive++] = c;
  pthread_mutex_unlock(&clients_lock);
  return true;
}

/* Removes c; false when it was not there. */
static bool registry_remove(xlac_client *c) {
  bool found = false;
  pthread_mutex_lock(&clients_lock);
  for (int i = 0; i < nlive; i++)
    if (live_clients[i] == c) {
      live_clients[i] = live_clients[--nlive];
      found = true;
      break;
    }
  pthread_mutex_unlock(&clients_lock);
  return found;
}

static bool registry_has(const xlac_client *c) {
  bool found = false;
  pthread_mutex_lock(&clients_lock);
  for (int i = 0; i < nlive && !found; i++) found = live_clients[i] == c;
  pthread_mutex_unlock(&clients_lock);
  return found;
}

/* Is d one of a live client's devices?  Found by address among the live
   clients' device arrays, so a device of a destroyed client (whose memory
   may be gone) is never read. */
static bool registry_has_device(const xlac_device *d) {
  bool found = false;
  uintptr_t p = (uintptr_t)d;
  pthread_mutex_lock(&clients_lock);
  for (int i = 0; i < nlive && !found; i++) {
    const xlac_client *c = live_clients[i];
    uintptr_t lo = (uintptr_t)c->devices, hi = lo + (uintptr_t)c->ndev * sizeof *c->devices;
    found = c->devices && p >= lo && p < hi && (p - lo) % sizeof *c->devices == 0;
  }
  pthread_mutex_unlock(&clients_lock);
  return found;
}

xlac_status *api_check_client(const xlac_client *c, const char *fn) {
  if (!c) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: the client is NULL", fn);
  if (!registry_has(c))
    return xlac_status_create(XLAC_FAILED_PRECONDITION, "%s: not a live client (destroyed, or never created)", fn);
  return NULL;
}

xlac_status *api_check_client_alive(const xlac_client *c, const char *fn) {
  if (atomic_load(&c->destroyed))
    return xlac_status_create(XLAC_FAILED_PRECONDITION, "%s: the client was destroyed", fn);
  return NULL;
}

void api_client_retain(xlac_client *c) { atomic_fetch_add(&c->refs, 1); }

void api_client_release(xlac_client *c) {
  if (atomic_fetch_sub(&c->refs, 1) != 1) return;
  if (c->set) { /* a process of a set: the provider's state goes with it */
    if (c->set->release) c->set->release(c->set->user);
    xfree((char *)c->set->description);
    xfree(c->set);
  }
  if (c->gpu) {
    gpu_device_close(c->gpu);
    pthread_mutex_destroy(&c->gpu_mu);
  }
  xlacrt_pool_destroy(c->pool);
  api_recycler_free(c->recycler);
  for (int i = 0; i < c->ndev; i++) xfree(c->devices[i].desc);
  xfree(c->devices);
  xfree(c->cache_dir);
  c->magic = API_MAGIC_DEAD;
  xfree(c);
}

/* ---- clients ---- */

const char *api_backend_kind(xlac_backend b) {
  switch (b) {
  case XLAC_BACKEND_CPU: return "cpu";
  case XLAC_BACKEND_INTERPRETER: return "interpreter";
  case XLAC_BACKEND_GPU: return "gpu";
  }
  return "unknown";
}

static void pool_schedule(void *user, void (*fn)(void *), void *arg) {
  const xlac_thread_pool *tp = user;
  tp->schedule(tp->user, fn, arg);
}

xlac_status *xlac_client_create(const xlac_client_options *opts, xlac_client **out_client) {
  if (!out_client) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_client_create: out_client is NULL");
  *out_client = NULL;
  xlac_client_options o = {0};
  if (opts) {
    size_t n = opts->struct_size && opts->struct_size < sizeof o ? opts->struct_size : sizeof o;
    memcpy(&o, opts, n);
  }
  int nr = o.num_replicas > 0 ? o.num_replicas : 1, np = o.num_partitions > 0 ? o.num_partitions : 1;
  if ((int64_t)nr * np > 4096)
    return xlac_status_create(XLAC_INVALID_ARGUMENT,
                              "xlac_client_create: %d replicas x %d partitions is more than 4096 devices", nr, np);
  if (o.backend != XLAC_BACKEND_CPU && o.backend != XLAC_BACKEND_INTERPRETER && o.backend != XLAC_BACKEND_GPU)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_client_create: unknown backend %d", (int)o.backend);
  GpuDevice *gpu = NULL;
  if (o.backend == XLAC_BACKEND_GPU) {
    char *err = NULL;
    gpu = gpu_device_open(o.gpu_ordinal, &err);
    if (!gpu) {
      /* no driver, no GPU: the environment's answer, as is */
      xlac_status *st = xlac_status_create(XLAC_UNAVAILABLE, "%s", err ? err : "no GPU");
      xfree(err);
      return st;
    }
  }
  if (o.thread_pool && (!o.thread_pool->schedule || o.thread_pool->num_threads < 1))
    return xlac_status_create(XLAC_INVALID_ARGUMENT,
                              "xlac_client_create: thread_pool needs a schedule function and num_threads >= 1");
  /* as `--threads` on the command line: more would only exhaust the
     process (each thread reserves a stack) */
  int nthreads = o.thread_pool ? o.thread_pool->num_threads : o.num_threads;
  if (nthreads > 1024)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_client_create: %d threads (at most 1024)", nthreads);
  if (o.cache_dir && !*o.cache_dir)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_client_create: cache_dir is an empty string");
  xlac_client *c = calloc(1, sizeof *c);
  if (!c) {
    if (gpu) gpu_device_close(gpu);
    return xlac_status_create(XLAC_OUT_OF_MEMORY, "xlac_client_create: out of memory");
  }
  if (gpu) {
    c->gpu = gpu;
    pthread_mutex_init(&c->gpu_mu, NULL);
  }
  c->magic = API_MAGIC_CLIENT;
  atomic_init(&c->refs, 1);
  atomic_init(&c->destroyed, 0);
  c->num_replicas = nr;
  c->num_partitions = np;
  c->ndev = nr * np;
  c->backend = o.backend;
  c->flush_denormals = o.flush_denormals != 0;
  if (o.thread_pool) {
    c->user_pool = *o.thread_pool;
    c->pool = xlacrt_pool_create_external(o.thread_pool->num_threads, pool_schedule, &c->user_pool);
  } else {
    c->pool = xlacrt_pool_create(o.num_threads);
  }
  c->devices = calloc((size_t)c->ndev, sizeof *c->devices);
  c->cache_dir = o.cache_dir ? strdup(o.cache_dir) : NULL;
  if (!c->pool || !c->devices || (o.cache_dir && !c->cache_dir)) {
    c->ndev = 0;
    api_client_release(c);
    return xlac_status_create(XLAC_OUT_OF_MEMORY, "xlac_client_create: out of memory");
  }
  c->num_threads = xlacrt_pool_size(c->pool);
  c->recycler = api_recycler_new();
  for (int i = 0; i < c->ndev; i++) {
    xlac_device *d = &c->devices[i];
    d->client = c;
    d->id = i;
    const char *kind = api_backend_kind(c->backend);
    size_t n = 384;
    d->desc = malloc(n);
    /* several replicas or partitions share the one GPU */
    if (d->desc && c->gpu && c->ndev > 1)
      snprintf(d->desc, n, "gpu:%d (%s, compute capability %d.%d, %d SMs; replica %d, partition %d)", c->gpu->ordinal,
               c->gpu->name, c->gpu->cc_major, c->gpu->cc_minor, c->gpu->sm_count, i / np, i % np);
    else if (d->desc && c->gpu)
      snprintf(d->desc, n, "gpu:%d (%s, compute capability %d.%d, %d SMs)", c->gpu->ordinal, c->gpu->name,
               c->gpu->cc_major, c->gpu->cc_minor, c->gpu->sm_count);
    else if (d->desc)
      snprintf(d->desc, n, "%s:%d (replica %d, partition %d, %d threads)", kind, i, i / np, i % np,
               c->num_threads);
  }
  /* this user's alone, as objcache.c makes it: entries hold the programs'
     constants; an unusable directory only disables caching */
  if (c->cache_dir) mkdir(c->cache_dir, 0700);
  if (!registry_add(c)) {
    api_client_release(c);
    return xlac_status_create(XLAC_OUT_OF_MEMORY, "xlac_client_create: out of memory");
  }
  *out_client = c;
  return NULL;
}

void xlac_client_destroy(xlac_client *c) {
  if (!c || !registry_remove(c)) return;
  atomic_store(&c->destroyed, 1);
  api_client_release(c);
}

int xlac_client_device_count(const xlac_client *c) {
  if (!c || !registry_has(c)) return 0;
  return c->ndev;
}

xlac_status *xlac_client_device(xlac_client *c, int index, xlac_device **out_device) {
  if (out_device) *out_device = NULL;
  xlac_status *s = api_check_client(c, "xlac_client_device");
  if (s) return s;
  if (!out_device) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_client_device: out_device is NULL");
  if (index < 0 || index >= c->ndev)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_client_device: device %d does not exist (the client has %d)",
                              index, c->ndev);
  *out_device = &c->devices[index];
  return NULL;
}

xlac_status *xlac_device_info_get(const xlac_device *d, xlac_device_info *out_info) {
  if (!d) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_device_info_get: the device is NULL");
  if (!out_info) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_device_info_get: out_info is NULL");
  if (!registry_has_device(d))
    return xlac_status_create(XLAC_FAILED_PRECONDITION,
                              "xlac_device_info_get: not a device of a live client (its client was destroyed?)");
  const xlac_client *c = d->client;
  /* a process of a set: its one device is the set's process (replica, partition) */
  int replica = c->set ? c->set->replica : d->id / c->num_partitions;
  int partition = c->set ? c->set->partition : d->id % c->num_partitions;
  xlac_device_info info = {sizeof info, d->id, replica, partition,
                           c->num_threads, api_backend_kind(c->backend), d->desc ? d->desc : "",
                           c->gpu ? c->gpu->name : ""};
  size_t n = out_info->struct_size && out_info->struct_size < sizeof info ? out_info->struct_size : sizeof info;
  memcpy(out_info, &info, n);
  out_info->struct_size = n;
  return NULL;
}

/* ---- a process of a set (xlac/process_set.h) ----
   An ordinary client of one device whose counts are the set's: compiling
   checks programs against the set, executing runs the one device as the
   set's process on the communicator set->begin hands out (executable.c). */

xlac_status *xlac_client_create_in_set(const xlac_client_options *opts, const xlac_process_set *set,
                                       xlac_client **out_client) {
  static const char fn[] = "xlac_client_create_in_set";
  if (out_client) *out_client = NULL;
  if (!set) return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: set is NULL", fn);
  xlac_process_set ps = {0};
  size_t n = set->struct_size && set->struct_size < sizeof ps ? set->struct_size : sizeof ps;
  memcpy(&ps, set, n);
  xlac_status *s = NULL;
  if (!out_client)
    s = xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: out_client is NULL", fn);
  else if (!ps.begin || !ps.end)
    s = xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: the set needs begin and end functions", fn);
  else if (ps.num_replicas < 1 || ps.num_partitions < 1 || (int64_t)ps.num_replicas * ps.num_partitions > 4096)
    s = xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: a set of %d replicas x %d partitions (1 to 4096 processes)", fn,
                           ps.num_replicas, ps.num_partitions);
  else if (ps.replica < 0 || ps.replica >= ps.num_replicas || ps.partition < 0 || ps.partition >= ps.num_partitions)
    s = xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: process (replica %d, partition %d) is not in a set of %d x %d",
                           fn, ps.replica, ps.partition, ps.num_replicas, ps.num_partitions);
  xlac_client_options local = {0};
  if (!s && opts) {
    size_t k = opts->struct_size && opts->struct_size < sizeof local ? opts->struct_size : sizeof local;
    memcpy(&local, opts, k);
  }
  local.struct_size = sizeof local;
  local.num_replicas = local.num_partitions = 1;
  xlac_client *c = NULL;
  if (!s) s = xlac_client_create(&local, &c);
  xlac_process_set *copy = s ? NULL : calloc(1, sizeof *copy);
  char *desc = copy && ps.description ? strdup(ps.description) : NULL;
  if (!s && (!copy || (ps.description && !desc))) s = xlac_status_create(XLAC_OUT_OF_MEMORY, "%s: out of memory", fn);
  if (s) {
    xfree(copy);
    xfree(desc);
    xlac_client_destroy(c);
    if (ps.release) ps.release(ps.user);
    return s;
  }
  *copy = ps;
  copy->struct_size = sizeof *copy;
  copy->description = desc;
  c->set = copy;
  c->num_replicas = ps.num_replicas;
  c->num_partitions = ps.num_partitions;
  xlac_device *d = &c->devices[0];
  xfree(d->desc);
  if ((d->desc = malloc(256)))
    snprintf(d->desc, 256, "%s:0 (replica %d, partition %d of a %dx%d set%s%s, %d threads)",
             api_backend_kind(c->backend), ps.replica, ps.partition, ps.num_replicas,
             ps.num_partitions, desc ? "; " : "", desc ? desc : "", c->num_threads);
  *out_client = c;
  return NULL;
}

/* ---- cancellation ---- */

xlac_status *xlac_cancel_create(xlac_cancel **out_cancel) {
  if (!out_cancel) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_cancel_create: out_cancel is NULL");
  xlac_cancel *c = calloc(1, sizeof *c);
  if (!c) return xlac_status_create(XLAC_OUT_OF_MEMORY, "xlac_cancel_create: out of memory");
  atomic_init(&c->ic.stop, 0);
  atomic_init(&c->ic.reported, 0);
  c->ic.reason = "the execution was cancelled";
  *out_cancel = c;
  return NULL;
}

void xlac_cancel_trigger(xlac_cancel *c) {
  if (c) atomic_store(&c->ic.stop, 1);
}

void xlac_cancel_destroy(xlac_cancel *c) { xfree(c); }
