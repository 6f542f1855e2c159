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
  xlacrt_pool_destroy(c->pool);
  for (int i = 0; i < c->ndev; i++) xfree(c->devices[i].desc);
  xfree(c->devices);
  xfree(c->cache_dir);
  c->magic = API_MAGIC_DEAD;
  xfree(c);
  api_recycler_free(c->recycler);
}

/* ---- clients ---- */

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
  if (o.backend != XLAC_BACKEND_CPU && o.backend != XLAC_BACKEND_INTERPRETER)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_client_create: unknown backend %d", (int)o.backend);
  if (o.thread_pool && (!o.thread_pool->schedule || o.thread_pool->num_threads < 1))
    return xlac_status_create(XLAC_INVALID_ARGUMENT,
                              "xlac_client_create: thread_pool needs a schedule function and num_threads >= 1");
  if (o.cache_dir && !*o.cache_dir)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_client_create: cache_dir is an empty string");
  xlac_client *c = calloc(1, sizeof *c);
  if (!c) return xlac_status_create(XLAC_OUT_OF_MEMORY, "xlac_client_create: out of memory");
  c->magic = API_MAGIC_CLIENT;
  atomic_init(&c->refs, 1);
  atomic_init(&c->destroyed, 0);
  c->num_replicas = nr;
  c->num_partitions = np;
  c->ndev = nr * np;
  c->backend = o.backend;
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
  for (int i = 0; i < c->ndev; i++) {
    xlac_device *d = &c->devices[i];
    d->client = c;
    d->id = i;
    const char *kind = c->backend == XLAC_BACKEND_CPU ? "cpu" : "interpreter";
  c->recycler = api_recycler_new();
    size_t n = 128;
    d->desc = malloc(n);
    if (d->desc)
      snprintf(d->desc, n, "%s:%d (replica %d, partition %d, %d threads)", kind, i, i / np, i % np,
               c->num_threads);
  }
  if (c->cache_dir) mkdir(c->cache_dir, 0777); /* an unusable directory only disables caching */
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
  xlac_status *s = api_check_client(d->client, "xlac_device_info_get");
  if (s) return s;
  const xlac_client *c = d->client;
  xlac_device_info info = {sizeof info, d->id, d->id / c->num_partitions, d->id % c->num_partitions,
                           c->num_threads, c->backend == XLAC_BACKEND_CPU ? "cpu" : "interpreter",
                           d->desc ? d->desc : ""};
  size_t n = out_info->struct_size && out_info->struct_size < sizeof info ? out_info->struct_size : sizeof info;
  memcpy(out_info, &info, n);
  out_info->struct_size = n;
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
