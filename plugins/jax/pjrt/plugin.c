/*
 * plugin.c - xlac as a PJRT plugin: the library (include/xlac/xlac.h)
 * behind the PJRT C API table that GetPjrtApi returns, so that JAX compiles
 * and runs every computation with xlac.
 *
 * The objects:
 *   PJRT_Client     one xlac_client with N devices (replicas), N from the
 *                   create option "num_devices", else XLAC_DEVICES, else
 *                   XLA_FLAGS' --xla_force_host_platform_device_count, else 1
 *   PJRT_Device     a device of it, with its description and one memory
 *   PJRT_Buffer     an xlac_buffer on a device
 *   PJRT_LoadedExecutable / PJRT_Executable
 *                   two handles on one compiled program (Exe, counted)
 *   PJRT_Event      completion: xlac runs each call to the end before
 *                   returning, so the events the plugin hands out are ready
 *                   when made; events the caller makes (PJRT_Event_Create)
 *                   wait for PJRT_Event_Set
 *
 * Programs arrive as format "mlir" with a StableHLO portable artifact
 * (MLIR bytecode), or StableHLO text, or as format "hlo", a serialized
 * HloModuleProto (what TensorFlow hands a device's compiler); compile options as a serialized
 * CompileOptionsProto (xla_options.proto): replicas, partitions, the
 * device assignment, and whether the executable is portable (compiled for
 * one device, run on the one each execution names).
 *
 * Donation: arguments the program marks (tf.aliasing_output, or
 * jax.buffer_donor) that a result is paired with (one of the same shape
 * and type, which takes its storage, else one of the same size in bytes,
 * as XLA pairs them) are donated at every execution unless the execution
 * lists them as non-donatable; a donated buffer is deleted afterwards.
 */
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/api.h"
#include "frontends/mlirbc/mlirbc.h"
#include "mpi/launched.h"
#include "mpi_bridge.h"
#include "pjrt_api.h"
#include "xlac/process_set.h"
#include "profiler.h"
#include "net_comm.h"
#include "tcp_comm.h"
#include "xla_options.pb-c.h"

#define EXPORT __attribute__((visibility("default")))

/* ---- errors ---- */

struct PJRT_Error {
  PJRT_Error_Code code;
  char *msg;
};

static PJRT_Error *error_new(PJRT_Error_Code code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static PJRT_Error *error_new(PJRT_Error_Code code, const char *fmt, ...) {
  PJRT_Error *e = malloc(sizeof *e);
  if (!e) return NULL; /* cannot report: the caller sees success */
  e->code = code;
  va_list ap;
  va_start(ap, fmt);
  if (vasprintf(&e->msg, fmt, ap) < 0) e->msg = NULL;
  va_end(ap);
  return e;
}

static PJRT_Error_Code code_of(xlac_code c) {
  switch (c) {
  case XLAC_OK: return PJRT_Error_Code_UNKNOWN;
  case XLAC_INVALID_ARGUMENT: return PJRT_Error_Code_INVALID_ARGUMENT;
  case XLAC_NOT_FOUND: return PJRT_Error_Code_NOT_FOUND;
  case XLAC_FAILED_PRECONDITION: return PJRT_Error_Code_FAILED_PRECONDITION;
  case XLAC_OUT_OF_MEMORY: return PJRT_Error_Code_RESOURCE_EXHAUSTED;
  case XLAC_UNIMPLEMENTED: return PJRT_Error_Code_UNIMPLEMENTED;
  case XLAC_CANCELLED: return PJRT_Error_Code_CANCELLED;
  case XLAC_DATA_LOSS: return PJRT_Error_Code_DATA_LOSS;
  case XLAC_INTERNAL: return PJRT_Error_Code_INTERNAL;
  case XLAC_UNAVAILABLE: return PJRT_Error_Code_UNAVAILABLE;
  }
  return PJRT_Error_Code_UNKNOWN;
}

/* The status as an error (taking it); NULL for NULL. */
static PJRT_Error *from_status(xlac_status *s, const char *what) {
  if (!s) return NULL;
  PJRT_Error *e = error_new(code_of(xlac_status_code(s)), "xlac: %s: %s", what, xlac_status_message(s));
  xlac_status_destroy(s);
  return e;
}

static void pjrt_error_destroy(PJRT_Error_Destroy_Args *a) {
  if (!a->error) return;
  free(a->error->msg);
  free(a->error);
}

static void pjrt_error_message(PJRT_Error_Message_Args *a) {
  const char *m = a->error && a->error->msg ? a->error->msg : "xlac: out of memory";
  a->message = m;
  a->message_size = strlen(m);
}

static PJRT_Error *pjrt_error_getcode(PJRT_Error_GetCode_Args *a) {
  a->code = a->error ? a->error->code : PJRT_Error_Code_UNKNOWN;
  return NULL;
}

#define NEED(cond, what)                                                                                               \
  do {                                                                                                                 \
    if (!(cond)) return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: %s: %s", __func__ + 5, what);               \
  } while (0)
#define OOM() error_new(PJRT_Error_Code_RESOURCE_EXHAUSTED, "xlac: %s: out of memory", __func__ + 5)

/* ---- plugin ---- */

static PJRT_Error *pjrt_plugin_initialize(PJRT_Plugin_Initialize_Args *a) {
  (void)a;
  return NULL;
}

/* StableHLO versions the bytecode reader reads (docs/mlirbc.md) */
static const int64_t stablehlo_current[3] = {1, 20, 0};
static const int64_t stablehlo_minimum[3] = {0, 9, 0};

static PJRT_NamedValue plugin_attrs[3];
static pthread_once_t plugin_attrs_once = PTHREAD_ONCE_INIT;

static void named_list(PJRT_NamedValue *v, const char *name, const int64_t *vals, size_t n) {
  *v = (PJRT_NamedValue){.struct_size = sizeof *v, .name = name, .name_size = strlen(name),
                         .type = PJRT_NamedValue_kInt64List, .int64_array_value = vals, .value_size = n};
}

static void plugin_attrs_init(void) {
  named_list(&plugin_attrs[0], "stablehlo_current_version", stablehlo_current, 3);
  named_list(&plugin_attrs[1], "stablehlo_minimum_version", stablehlo_minimum, 3);
  const char *v = xlac_version();
  plugin_attrs[2] = (PJRT_NamedValue){.struct_size = sizeof plugin_attrs[2], .name = "xlac_version", .name_size = 12,
                                      .type = PJRT_NamedValue_kString, .string_value = v, .value_size = strlen(v)};
}

static PJRT_Error *pjrt_plugin_attributes(PJRT_Plugin_Attributes_Args *a) {
  pthread_once(&plugin_attrs_once, plugin_attrs_init);
  a->attributes = plugin_attrs;
  a->num_attributes = 3;
  return NULL;
}

/* ---- events ---- */

typedef struct Waiter {
  PJRT_Event_OnReadyCallback fn;
  void *arg;
  struct Waiter *next;
} Waiter;

struct PJRT_Event {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool ready;
  PJRT_Error_Code code; /* 0: success */
  char *msg;
  Waiter *waiters;      /* OnReady callbacks until ready */
  int holders;          /* of a buffer's `defined` event: the buffer and its
                           transfer manager (event_drop); 0 for others */
};

/* An event, ready (with code and msg: failed) or not. */
static PJRT_Event *event_new(bool ready, PJRT_Error_Code code, const char *msg) {
  PJRT_Event *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  pthread_mutex_init(&e->mu, NULL);
  pthread_cond_init(&e->cv, NULL);
  e->ready = ready;
  e->code = code;
  e->msg = msg ? strdup(msg) : NULL;
  return e;
}

/* The event's outcome as a new error (NULL: success); ready events only. */
static PJRT_Error *event_error(PJRT_Event *e) {
  return e->code ? error_new(e->code, "%s", e->msg ? e->msg : "xlac: failed") : NULL;
}

static PJRT_Error *pjrt_event_destroy(PJRT_Event_Destroy_Args *a) {
  PJRT_Event *e = a->event;
  if (!e) return NULL;
  for (Waiter *w = e->waiters, *next; w; w = next) {
    next = w->next;
    free(w);
  }
  pthread_mutex_destroy(&e->mu);
  pthread_cond_destroy(&e->cv);
  free(e->msg);
  free(e);
  return NULL;
}

/* A holder of a shared event lets go of it; the last one destroys it. */
static void event_drop(PJRT_Event *e) {
  if (!e) return;
  pthread_mutex_lock(&e->mu);
  bool last = e->holders <= 1 || --e->holders == 0;
  pthread_mutex_unlock(&e->mu);
  if (last) pjrt_event_destroy(&(PJRT_Event_Destroy_Args){.struct_size = sizeof(PJRT_Event_Destroy_Args), .event = e});
}

static PJRT_Error *pjrt_event_isready(PJRT_Event_IsReady_Args *a) {
  NEED(a->event, "event is NULL");
  pthread_mutex_lock(&a->event->mu);
  a->is_ready = a->event->ready;
  pthread_mutex_unlock(&a->event->mu);
  return NULL;
}

static PJRT_Error *pjrt_event_await(PJRT_Event_Await_Args *a) {
  NEED(a->event, "event is NULL");
  PJRT_Event *e = a->event;
  pthread_mutex_lock(&e->mu);
  while (!e->ready) pthread_cond_wait(&e->cv, &e->mu);
  pthread_mutex_unlock(&e->mu);
  return event_error(e);
}

static PJRT_Error *pjrt_event_error(PJRT_Event_Error_Args *a) {
  return pjrt_event_await(&(PJRT_Event_Await_Args){.struct_size = sizeof(PJRT_Event_Await_Args), .event = a->event});
}

static PJRT_Error *pjrt_event_onready(PJRT_Event_OnReady_Args *a) {
  NEED(a->event && a->callback, "event or callback is NULL");
  PJRT_Event *e = a->event;
  pthread_mutex_lock(&e->mu);
  if (!e->ready) {
    Waiter *w = malloc(sizeof *w);
    if (!w) {
      pthread_mutex_unlock(&e->mu);
      return OOM();
    }
    *w = (Waiter){a->callback, a->user_arg, e->waiters};
    e->waiters = w;
    pthread_mutex_unlock(&e->mu);
    return NULL;
  }
  pthread_mutex_unlock(&e->mu);
  a->callback(event_error(e), a->user_arg);
  return NULL;
}

static PJRT_Error *pjrt_event_create(PJRT_Event_Create_Args *a) {
  a->event = event_new(false, 0, NULL);
  return a->event ? NULL : OOM();
}

static PJRT_Error *pjrt_event_set(PJRT_Event_Set_Args *a) {
  NEED(a->event, "event is NULL");
  PJRT_Event *e = a->event;
  pthread_mutex_lock(&e->mu);
  if (e->ready) {
    pthread_mutex_unlock(&e->mu);
    return error_new(PJRT_Error_Code_FAILED_PRECONDITION, "xlac: Event_Set: the event is already set");
  }
  e->ready = true;
  e->code = a->error_code;
  if (a->error_code) e->msg = strndup(a->error_message ? a->error_message : "", a->error_message_size);
  Waiter *w = e->waiters;
  e->waiters = NULL;
  pthread_cond_broadcast(&e->cv);
  pthread_mutex_unlock(&e->mu);
  while (w) {
    Waiter *next = w->next;
    w->fn(event_error(e), w->arg);
    free(w);
    w = next;
  }
  return NULL;
}

/* ---- host callbacks into Python ----
 *
 * jax.debug.print, jax.pure_callback, io_callback and checkify's checks
 * lower, on xlac, to `stablehlo.custom_call @xlac_python_callback` (the
 * Python module's lowering, jax_plugins/xlac/callbacks.py): the operands
 * are an optional token and the callback's arguments, the results an
 * optional token and its results, and backend_config is the decimal id of
 * the callable in the module's registry.  The host function registered
 * under that target hands the data pointers to the trampoline, a C-callable
 * Python function (ctypes) whose address the module gives as the client
 * creation option "python_callback":
 *
 *   int trampoline(uint64_t id, int num_args, void *const *args,
 *                  const int64_t *arg_bytes, const int *arg_ranks,
 *                  const int64_t *arg_dims, int num_results,
 *                  void *const *results, const int64_t *result_bytes,
 *                  char *error, size_t error_size);
 *
 * arg_dims holds the dimensions of every argument, one after another (a
 * partitioned callback, `@xlac_partitioned_python_callback`, the same host
 * function, gets each partition's shards, whose shapes are not the
 * declared ones).  Tokens are left out of both lists (the ordering they
 * carry is the program's data flow).  Arguments and results are in the unpacked host
 * layout (include/xlac/xlac.h); the trampoline copies the arguments, calls
 * the callable and writes every result.  It returns 0, or nonzero with a
 * message in error, which fails the execution with that message.  It is
 * called on whichever thread runs the custom call (the caller's or one of
 * the device pool's) and takes the GIL itself: JAX releases the GIL while
 * an execution runs. */

typedef int (*py_trampoline_fn)(uint64_t id, int num_args, void *const *args, const int64_t *arg_bytes,
                                const int *arg_ranks, const int64_t *arg_dims, int num_results,
                                void *const *results, const int64_t *result_bytes, char *error,
                                size_t error_size);

static const char python_callback_target[] = "xlac_python_callback";
static const char partitioned_callback_target[] = "xlac_partitioned_python_callback";
static _Atomic(py_trampoline_fn) py_trampoline;
static pthread_once_t py_register_once = PTHREAD_ONCE_INIT;
static xlac_status *py_register_status;

static xlac_status *python_callback(void *user, const xlac_ffi_call *call) {
  (void)user;
  py_trampoline_fn fn = atomic_load(&py_trampoline);
  if (!fn)
    return xlac_status_create(XLAC_FAILED_PRECONDITION, "custom_call @%s: no Python callback trampoline (the client "
                              "was created without the option python_callback, which the jax_plugins.xlac module "
                              "gives)", call->target);
  char *end = NULL;
  errno = 0;
  unsigned long long id = strtoull(call->backend_config, &end, 10);
  if (end == call->backend_config || *end || errno)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "custom_call @%s: backend_config \"%s\" is not a callback id",
                              call->target, call->backend_config);
  int n = call->num_args + call->num_results, ndims = 0;
  for (int i = 0; i < call->num_args; i++) ndims += call->args[i].rank;
  void **data = calloc((size_t)n + 1, sizeof *data);
  int64_t *bytes = calloc((size_t)n + 1, sizeof *bytes);
  int *ranks = calloc((size_t)call->num_args + 1, sizeof *ranks);
  int64_t *dims = calloc((size_t)ndims + 1, sizeof *dims);
  if (!data || !bytes || !ranks || !dims) {
    free(data);
    free(bytes);
    free(ranks);
    free(dims);
    return xlac_status_create(XLAC_OUT_OF_MEMORY, "custom_call @%s: out of memory", call->target);
  }
  int na = 0, nr = 0, nd = 0;
  for (int i = 0; i < n; i++) {
    const xlac_ffi_buffer *b = i < call->num_args ? &call->args[i] : &call->results[i - call->num_args];
    if (b->type == XLAC_TOKEN) continue;
    int64_t elems = 1;
    for (int d = 0; d < b->rank; d++) elems *= b->dims[d];
    if (i < call->num_args) {
      ranks[na] = b->rank;
      for (int d = 0; d < b->rank; d++) dims[nd++] = b->dims[d];
    }
    int k = i < call->num_args ? na++ : call->num_args + nr++;
    data[k] = b->data;
    bytes[k] = elems * (int64_t)xlac_type_host_bytes(b->type);
  }
  char msg[8192] = "";
  int rc = fn((uint64_t)id, na, data, bytes, ranks, dims, nr, data + call->num_args, bytes + call->num_args, msg,
              sizeof msg);
  free(data);
  free(bytes);
  free(ranks);
  free(dims);
  if (!rc) return NULL;
  msg[sizeof msg - 1] = 0;
  return xlac_status_create(XLAC_INTERNAL, "Python callback failed: %s", *msg ? msg : "(no message)");
}

/* jax.debug.inspect_array_sharding in a program over several devices: the
   module lowers it to `custom_call @InspectSharding(value)` with
   backend_config the decimal id of a callable that takes the HLO text of
   the value's sharding.  Once the program is compiled, each is called
   through the trampoline with that text as its one argument (bytes): the
   layout the partitioner chose (its module attribute
   xlac.inspected_shardings, by backend_config), "{manual}" in a program
   partitioned by hand, "{replicated}" for a value computed whole. */
typedef struct Inspects {
  VEC(char *) ids;
} Inspects;

static bool note_inspect(Op *op, void *ud) {
  Inspects *in = ud;
  const char *t = op->kind == OP_CUSTOM_CALL ? op_attr_str(op, "call_target_name") : NULL;
  const char *id = t && !strcmp(t, "InspectSharding") ? op_attr_str(op, "backend_config") : NULL;
  if (id && *id && strspn(id, "0123456789") == strlen(id)) {
    char *copy = strdup(id);
    if (copy) VEC_PUSH(in->ids, copy);
  }
  return true;
}

static PJRT_Error *report_inspected(const Inspects *in, const Module *compiled, bool manual) {
  const Attr *chosen = NULL;
  for (int i = 0; compiled && i < compiled->nattrs; i++)
    if (!strcmp(compiled->attrs[i].name, "xlac.inspected_shardings")) chosen = compiled->attrs[i].attr;
  py_trampoline_fn fn = atomic_load(&py_trampoline);
  for (int i = 0; i < in->ids.len; i++) {
    if (!fn)
      return error_new(PJRT_Error_Code_FAILED_PRECONDITION, "xlac: Compile: inspect_array_sharding needs the "
                       "client option python_callback, which the jax_plugins.xlac module gives");
    const Attr *a = chosen ? attr_dict_get(chosen, in->ids.data[i]) : NULL;
    const char *text = a && a->kind == ATTR_STRING ? a->s : manual ? "{manual}" : "{replicated}";
    void *arg = (void *)text;
    int64_t len = (int64_t)strlen(text);
    int rank = 1;
    char msg[8192] = "";
    if (fn(strtoull(in->ids.data[i], NULL, 10), 1, &arg, &len, &rank, &len, 0, NULL, NULL, msg, sizeof msg)) {
      msg[sizeof msg - 1] = 0;
      return error_new(PJRT_Error_Code_INTERNAL, "xlac: Compile: Error calling inspect_sharding: %s",
                       *msg ? msg : "(no message)");
    }
  }
  return NULL;
}

static void py_register(void) {
  py_register_status = xlac_custom_call_register(python_callback_target, python_callback, NULL);
  if (!py_register_status)
    py_register_status = xlac_custom_call_register(partitioned_callback_target, python_callback, NULL);
}

/* ---- client, devices, memories ---- */

static const char platform_name[] = "xlac";
static const char memory_kind[] = "device";

struct PJRT_DeviceDescription {
  int id, process;
  char *debug, *str;
  char *kind; /* "cpu", or the GPU's name */
};

struct PJRT_Memory {
  PJRT_Client *client;
  PJRT_Device *device;
  char *debug, *str;
};

struct PJRT_Device {
  PJRT_Client *client;
  int id;                      /* the xlac device; -1: another process's */
  int process;                 /* the process it belongs to */
  PJRT_DeviceDescription desc;
  PJRT_Memory mem;
  PJRT_Memory *mem_ptr;        /* &mem, for the lists */
  atomic_llong bytes_in_use, peak_bytes, num_allocs, largest_alloc;
};

struct PJRT_TopologyDescription {
  PJRT_Client *client;
};

/* The processes of a distributed run (jax.distributed): under mpirun,
   collectives over MPI through libxlac_pjrt_mpi.so (xlac's MPI
   communicator with one device per process, else the net of net_comm.h
   on its MPI link); else the net on TCP (tcp_comm.h), its addresses
   exchanged through JAX's key-value store. */
typedef struct Processes {
  int node, nnodes;
  Net *net; /* several devices per process, or TCP */
  TcpLink *tcp;
  void *lib, *mpi, *mpi_link;
  NetLinkOps mpi_ops;
  xlac_pjrt_mpi_begin_fn begin;
  xlac_pjrt_mpi_end_fn end;
  xlac_pjrt_mpi_close_fn close;
  xlac_pjrt_mpi_link_close_fn link_close;
} Processes;

struct PJRT_Client {
  xlac_client *xc;
  int ndev;                    /* every process's devices, by global id */
  int nlocal, base;            /* this process's: ids base .. base + nlocal - 1 */
  Processes procs_of;          /* nnodes > 1: a distributed run */
  PJRT_Device *devs;
  PJRT_Device **dev_list;
  PJRT_Device **addr_list;     /* this process's */
  PJRT_Memory **mem_list;      /* this process's */
  PJRT_DeviceDescription **desc_list;
  PJRT_TopologyDescription topo;
  char *version;
  /* what PJRT_Client_UpdateGlobalProcessInfo last said: how many
     processes, how many connected, how many in error */
  atomic_int procs, procs_connected, procs_failed;
};

/* An environment variable's integer: digits only (with surrounding
   blanks), else -1, which every caller refuses as out of range. */
static int64_t env_int(const char *v) {
  char *end;
  errno = 0;
  long long x = strtoll(v, &end, 10);
  if (end == v) return -1; /* no digits */
  while (*end == ' ' || *end == '\t' || *end == '\n') end++;
  return *end || errno || x < 0 ? -1 : x;
}

/* The devices the client gets: the option, XLAC_DEVICES, or XLA_FLAGS'
   host device count (what JAX's CPU backend reads). */
static int64_t device_count(const PJRT_NamedValue *opts, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (opts[i].name_size == 11 && !memcmp(opts[i].name, "num_devices", 11) && opts[i].type == PJRT_NamedValue_kInt64)
      return opts[i].int64_value;
  const char *env = getenv("XLAC_DEVICES");
  if (env && *env) return env_int(env);
  const char *flags = getenv("XLA_FLAGS");
  const char *f = flags ? strstr(flags, "--xla_force_host_platform_device_count=") : NULL;
  if (f) return strtoll(f + strlen("--xla_force_host_platform_device_count="), NULL, 10);
  return 1;
}

/* The integer option name, if given. */
static bool named_int(const PJRT_NamedValue *opts, size_t n, const char *name, int64_t *out) {
  for (size_t i = 0; i < n; i++)
    if (opts[i].name_size == strlen(name) && !memcmp(opts[i].name, name, opts[i].name_size) &&
        opts[i].type == PJRT_NamedValue_kInt64) {
      *out = opts[i].int64_value;
      return true;
    }
  return false;
}

static int64_t int_option(const PJRT_NamedValue *opts, size_t n, const char *name, const char *env, int64_t dflt) {
  int64_t v;
  if (named_int(opts, n, name, &v)) return v;
  const char *e = getenv(env);
  return e && *e ? env_int(e) : dflt;
}

static void client_free(PJRT_Client *c) {
  if (!c) return;
  for (int i = 0; c->devs && i < c->ndev; i++) {
    free(c->devs[i].desc.debug);
    free(c->devs[i].desc.str);
    free(c->devs[i].desc.kind);
    free(c->devs[i].mem.debug);
    free(c->devs[i].mem.str);
  }
  free(c->devs);
  free(c->dev_list);
  free(c->addr_list);
  free(c->mem_list);
  free(c->desc_list);
  free(c->version);
  xlac_client_destroy(c->xc);
  net_free(c->procs_of.net);
  if (c->procs_of.mpi) c->procs_of.close(c->procs_of.mpi);
  if (c->procs_of.mpi_link) c->procs_of.link_close(c->procs_of.mpi_link);
  tcp_link_free(c->procs_of.tcp);
  if (c->procs_of.lib) dlclose(c->procs_of.lib);
  free(c);
}

/* The MPI bridge beside this library (mpi_bridge.h), for a run of several
   processes of per_node devices each: node must be this process's MPI
   rank among nnodes. */
static PJRT_Error *processes_open(Processes *pr, int node, int nnodes, int per_node) {
  Dl_info self;
  char path[4096];
  const char *fail = NULL;
  if (!dladdr((void *)processes_open, &self) || !self.dli_fname) fail = "cannot find the plugin's own directory";
  const char *slash = self.dli_fname ? strrchr(self.dli_fname, '/') : NULL;
  if (!fail)
    snprintf(path, sizeof path, "%.*slibxlac_pjrt_mpi.so", slash ? (int)(slash - self.dli_fname + 1) : 0,
             slash ? self.dli_fname : "");
  if (!fail && !(pr->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
    return error_new(PJRT_Error_Code_UNIMPLEMENTED, "xlac: Client_Create: %d processes need xlac's MPI bridge, and "
                     "%s cannot be loaded: %s (xlac built without MPI? apt-get install libopenmpi-dev openmpi-bin)",
                     nnodes, path, dlerror());
  if (fail) return error_new(PJRT_Error_Code_INTERNAL, "xlac: Client_Create: %s", fail);
  xlac_pjrt_mpi_open_fn open = (xlac_pjrt_mpi_open_fn)(uintptr_t)dlsym(pr->lib, "xlac_pjrt_mpi_open");
  pr->begin = (xlac_pjrt_mpi_begin_fn)(uintptr_t)dlsym(pr->lib, "xlac_pjrt_mpi_begin");
  pr->end = (xlac_pjrt_mpi_end_fn)(uintptr_t)dlsym(pr->lib, "xlac_pjrt_mpi_end");
  pr->close = (xlac_pjrt_mpi_close_fn)(uintptr_t)dlsym(pr->lib, "xlac_pjrt_mpi_close");
  xlac_pjrt_mpi_link_open_fn link_open =
      (xlac_pjrt_mpi_link_open_fn)(uintptr_t)dlsym(pr->lib, "xlac_pjrt_mpi_link_open");
  pr->link_close = (xlac_pjrt_mpi_link_close_fn)(uintptr_t)dlsym(pr->lib, "xlac_pjrt_mpi_link_close");
  pr->mpi_ops.send = (int (*)(void *, int, const struct iovec *, int))(uintptr_t)dlsym(pr->lib,
                                                                                       "xlac_pjrt_mpi_link_send");
  pr->mpi_ops.recv_head = (int (*)(void *, int *, void *, size_t))(uintptr_t)dlsym(pr->lib,
                                                                                   "xlac_pjrt_mpi_link_recv_head");
  pr->mpi_ops.recv_piece = (int (*)(void *, int, void *, size_t))(uintptr_t)dlsym(pr->lib,
                                                                                  "xlac_pjrt_mpi_link_recv_piece");
  pr->mpi_ops.stop = (void (*)(void *))(uintptr_t)dlsym(pr->lib, "xlac_pjrt_mpi_link_stop");
  if (!open || !pr->begin || !pr->end || !pr->close || !link_open || !pr->link_close || !pr->mpi_ops.send ||
      !pr->mpi_ops.recv_head || !pr->mpi_ops.recv_piece || !pr->mpi_ops.stop)
    return error_new(PJRT_Error_Code_INTERNAL, "xlac: Client_Create: %s is not xlac's MPI bridge", path);
  static const XlacPjrtMpiRuntime rt = {XLAC_PJRT_MPI_VERSION, xlacrt_parallel_for, xlacrt_comm_seq_next,
                                        xlacrt_comm_seqs_free};
  char err[512] = "";
  int rank = -1, size = 0;
  /* one device each: xlac's communicator; several: the net on a link */
  if ((per_node == 1 ? open(&rt, &pr->mpi, &rank, &size, err, sizeof err)
                     : link_open(&rt, &pr->mpi_link, &rank, &size, err, sizeof err)) != 0)
    return error_new(PJRT_Error_Code_UNAVAILABLE, "xlac: Client_Create: %d processes over MPI: %s", nnodes, err);
  if (size != nnodes || rank != node) {
    if (pr->mpi) pr->close(pr->mpi);
    if (pr->mpi_link) pr->link_close(pr->mpi_link);
    pr->mpi = pr->mpi_link = NULL;
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: Client_Create: process %d of %d, but MPI says rank %d of "
                     "%d: xlac's processes are MPI's (mpirun -np %d; jax.distributed.initialize() with no arguments "
                     "numbers them so)", node, nnodes, rank, size, nnodes);
  }
  if (pr->mpi_link && !(pr->net = net_new(node, nnodes, per_node, &pr->mpi_ops, pr->mpi_link, err, sizeof err)))
    return error_new(PJRT_Error_Code_UNAVAILABLE, "xlac: Client_Create: %d processes over MPI: %s", nnodes, err);
  pr->node = node;
  pr->nnodes = nnodes;
  return NULL;
}

/* ---- the key-value store JAX's processes share ---- */
typedef struct Kv {
  PJRT_KeyValueGetCallback get;
  void *get_user;
  PJRT_KeyValuePutCallback put;
  void *put_user;
} Kv;

static PJRT_Error *kv_error(PJRT_Error_Code code, const char *message, size_t size) {
  return error_new(code, "%.*s", (int)size, message);
}
static PJRT_CallbackError kv_error_fn = kv_error;

static PJRT_Error *kv_put(const Kv *kv, const char *key, const char *value) {
  PJRT_KeyValuePutCallback_Args a = {.struct_size = sizeof a, .key = key, .key_size = strlen(key), .value = value,
                                     .value_size = strlen(value), .callback_error = &kv_error_fn,
                                     .user_arg = kv->put_user};
  return kv->put(&a);
}

/* The value of key (a new string), waiting up to timeout_ms. */
static PJRT_Error *kv_get(const Kv *kv, const char *key, int timeout_ms, char **value) {
  PJRT_KeyValueGetCallback_Args a = {.struct_size = sizeof a, .key = key, .key_size = strlen(key),
                                     .timeout_in_ms = timeout_ms, .callback_error = &kv_error_fn,
                                     .user_arg = kv->get_user};
  PJRT_Error *e = kv->get(&a);
  if (e) return e;
  *value = strndup(a.value ? a.value : "", a.value_size);
  if (a.value_deleter_callback) a.value_deleter_callback(a.value);
  return *value ? NULL : OOM();
}

/* Joins the other processes over TCP: a secret from process 0, every
   process's address through the store, a connection to each. */
static PJRT_Error *processes_tcp(Processes *pr, const Kv *kv, int node, int nnodes, int per_node) {
  static const int timeout_ms = 300000;
  char key[64], buf[128], err[512] = "", addr[300];
  char *value = NULL;
  uint64_t token = 0;
  PJRT_Error *e = NULL;
  if (node == 0) {
    FILE *f = fopen("/dev/urandom", "rb");
    bool got = f && fread(&token, sizeof token, 1, f) == 1;
    if (f) fclose(f);
    if (!got) return error_new(PJRT_Error_Code_INTERNAL, "xlac: Client_Create: no random bytes for the processes' "
                               "secret");
    snprintf(buf, sizeof buf, "%016" PRIx64, token);
    e = kv_put(kv, "xlac/tcp/token", buf);
  } else if (!(e = kv_get(kv, "xlac/tcp/token", timeout_ms, &value))) {
    token = strtoull(value, NULL, 16);
    free(value);
  }
  if (e) return e;
  pr->tcp = tcp_link_new(node, nnodes, token, addr, sizeof addr, err, sizeof err);
  if (!pr->tcp) return error_new(PJRT_Error_Code_UNAVAILABLE, "xlac: Client_Create: %s", err);
  snprintf(key, sizeof key, "xlac/tcp/addr/%d", node);
  if ((e = kv_put(kv, key, addr))) return e;
  char **addrs = calloc((size_t)nnodes, sizeof(char *));
  if (!addrs) return OOM();
  for (int q = 0; !e && q < node; q++) {
    snprintf(key, sizeof key, "xlac/tcp/addr/%d", q);
    e = kv_get(kv, key, timeout_ms, &addrs[q]);
  }
  if (!e && tcp_link_connect(pr->tcp, (const char *const *)addrs, timeout_ms, err, sizeof err) != 0)
    e = error_new(PJRT_Error_Code_UNAVAILABLE, "xlac: Client_Create: process %d of %d: %s", node, nnodes, err);
  if (!e && !(pr->net = net_new(node, nnodes, per_node, &tcp_link_ops, pr->tcp, err, sizeof err)))
    e = error_new(PJRT_Error_Code_UNAVAILABLE, "xlac: Client_Create: process %d of %d: %s", node, nnodes, err);
  for (int q = 0; q < nnodes; q++) free(addrs[q]);
  free(addrs);
  if (e) return e;
  pr->node = node;
  pr->nnodes = nnodes;
  return NULL;
}

static PJRT_Error *pjrt_client_create(PJRT_Client_Create_Args *a) {
  int64_t n = device_count(a->create_options, a->num_options);
  if (n < 1 || n > 4096)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: Client_Create: %" PRId64 " devices (1 to 4096)", n);
  /* jax.distributed: this process's number among num_nodes */
  int64_t node = 0, nnodes = 1;
  named_int(a->create_options, a->num_options, "node_id", &node);
  named_int(a->create_options, a->num_options, "num_nodes", &nnodes);
  if (nnodes < 1 || nnodes > 4096 || node < 0 || node >= nnodes)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: Client_Create: process %" PRId64 " of %" PRId64, node,
                     nnodes);
  /* the transport: MPI where mpirun started the processes, else TCP */
  const char *tr = getenv("XLAC_PJRT_TRANSPORT");
  bool use_mpi = tr && *tr ? !strcmp(tr, "mpi") : mpi_launched();
  if (tr && *tr && strcmp(tr, "mpi") && strcmp(tr, "tcp"))
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: Client_Create: XLAC_PJRT_TRANSPORT=%s (mpi or tcp)", tr);
  Kv kv = {(PJRT_KeyValueGetCallback)a->kv_get_callback, a->kv_get_user_arg,
           (PJRT_KeyValuePutCallback)a->kv_put_callback, a->kv_put_user_arg};
  if (nnodes > 1 && !use_mpi && (!kv.get || !kv.put))
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: Client_Create: %" PRId64 " processes, but no key-value "
                     "store to meet through (jax.distributed.initialize() gives one; or run under mpirun)", nnodes);
  xlac_client_options o = {.struct_size = sizeof o, .num_replicas = (int)n, .num_partitions = 1};
  /* denormals flushed to zero as on JAX's CPU backend, unless
     XLAC_FLUSH_DENORMALS=0 */
  const char *fd = getenv("XLAC_FLUSH_DENORMALS");
  o.flush_denormals = !(fd && strcmp(fd, "0") == 0);
  /* XLAC_PJRT_BACKEND: gpu (the first GPU, or XLAC_GPU_DEVICE's; one
     device), cpu, interpreter; unset: the GPU where there is one and one
     device is asked for, else the CPU */
  const char *be = getenv("XLAC_PJRT_BACKEND");
  bool gpu_if_any = (!be || !*be) && n == 1;
  if (gpu_if_any) o.backend = XLAC_BACKEND_GPU;
  if (be && *be && strcmp(be, "cpu") != 0) {
    if (strcmp(be, "gpu") == 0)
      o.backend = XLAC_BACKEND_GPU;
    else if (strcmp(be, "interpreter") == 0)
      o.backend = XLAC_BACKEND_INTERPRETER;
    else
      return error_new(PJRT_Error_Code_INVALID_ARGUMENT,
                       "xlac: Client_Create: XLAC_PJRT_BACKEND=%s (cpu, gpu or interpreter)", be);
  }
  if (o.backend == XLAC_BACKEND_GPU) {
    if (n != 1)
      return error_new(PJRT_Error_Code_INVALID_ARGUMENT,
                       "xlac: Client_Create: the gpu backend has one device (asked for %" PRId64 ")", n);
    const char *ord = getenv("XLAC_GPU_DEVICE");
    o.gpu_ordinal = ord && *ord ? (int)env_int(ord) : 0;
  }
  int64_t threads = int_option(a->create_options, a->num_options, "num_threads", "XLAC_NUM_THREADS", 0);
  if (threads < 0 || threads > 1024)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT,
                     "xlac: Client_Create: %" PRId64 " threads (num_threads or XLAC_NUM_THREADS: 0 for one per core, "
                     "or 1 to 1024)", threads);
  o.num_threads = (int)threads;
  /* the Python module's trampoline for host callbacks (an address); the
     target exists either way, and without a trampoline its calls fail */
  pthread_once(&py_register_once, py_register);
  if (py_register_status)
    return error_new(PJRT_Error_Code_INTERNAL, "xlac: Client_Create: registering %s: %s", python_callback_target,
                     xlac_status_message(py_register_status));
  int64_t tramp = 0;
  if (named_int(a->create_options, a->num_options, "python_callback", &tramp) && tramp)
    atomic_store(&py_trampoline, (py_trampoline_fn)(uintptr_t)tramp);
  o.cache_dir = getenv("XLAC_COMPILE_CACHE");
  if (o.cache_dir && !*o.cache_dir) o.cache_dir = NULL;
  PJRT_Client *c = calloc(1, sizeof *c);
  if (!c) return OOM();
  if (nnodes > 1) {
    PJRT_Error *pe = use_mpi ? processes_open(&c->procs_of, (int)node, (int)nnodes, (int)n)
                             : processes_tcp(&c->procs_of, &kv, (int)node, (int)nnodes, (int)n);
    if (pe) {
      client_free(c);
      return pe;
    }
  }
  xlac_status *cs = xlac_client_create(&o, &c->xc);
  if (cs && gpu_if_any && xlac_status_code(cs) == XLAC_UNAVAILABLE) {
    /* no driver or no GPU: the CPU */
    xlac_status_destroy(cs);
    o.backend = XLAC_BACKEND_CPU;
    cs = xlac_client_create(&o, &c->xc);
  }
  PJRT_Error *err = from_status(cs, "Client_Create");
  if (err) {
    client_free(c);
    return err;
  }
  /* every process has n devices; this one's are node * n .. */
  c->nlocal = (int)n;
  c->base = (int)(node * n);
  c->ndev = (int)(n * nnodes);
  size_t ng = (size_t)c->ndev;
  c->devs = calloc(ng, sizeof *c->devs);
  c->dev_list = calloc(ng, sizeof *c->dev_list);
  c->addr_list = calloc(ng, sizeof *c->addr_list);
  c->mem_list = calloc(ng, sizeof *c->mem_list);
  c->desc_list = calloc(ng, sizeof *c->desc_list);
  bool ok = c->devs && c->dev_list && c->addr_list && c->mem_list && c->desc_list &&
            (nnodes > 1 ? asprintf(&c->version, "xlac %s; %d processes over %s", xlac_version(), (int)nnodes,
                                   c->procs_of.tcp ? "TCP" : "MPI")
                        : asprintf(&c->version, "xlac %s", xlac_version())) >= 0;
  for (int g = 0; ok && g < c->ndev; g++) {
    PJRT_Device *d = &c->devs[g];
    int i = g - c->base; /* the xlac device, if this process's */
    bool mine = i >= 0 && i < c->nlocal;
    d->client = c;
    d->id = mine ? i : -1;
    d->process = (int)(g / n);
    d->desc.id = g;
    d->desc.process = d->process;
    d->mem.client = c;
    d->mem.device = d;
    d->mem_ptr = &d->mem;
    xlac_device *xd = NULL;
    xlac_device_info info = {.struct_size = sizeof info};
    const char *hw = "";
    xlac_status *st = xlac_client_device(c->xc, mine ? i : 0, &xd);
    if (!st) st = xlac_device_info_get(xd, &info);
    if (!st && info.struct_size >= offsetof(xlac_device_info, hardware) + sizeof info.hardware && info.hardware)
      hw = info.hardware;
    xlac_status_destroy(st);
    d->desc.kind = strdup(*hw ? hw : "cpu");
    ok = d->desc.kind && asprintf(&d->desc.debug, "xlac:%d", g) >= 0 &&
         (nnodes > 1 ? asprintf(&d->desc.str, "XlacDevice(id=%d, process_index=%d)", g, d->process)
                     : asprintf(&d->desc.str, "XlacDevice(id=%d)", g)) >= 0 &&
         asprintf(&d->mem.debug, "xlac:%d:%s", g, memory_kind) >= 0 &&
         asprintf(&d->mem.str, "XlacMemory(device=%d, kind=%s)", g, memory_kind) >= 0;
    c->dev_list[g] = d;
    c->desc_list[g] = &d->desc;
    if (mine) {
      c->addr_list[i] = d;
      c->mem_list[i] = &d->mem;
    }
  }
  c->topo.client = c;
  if (!ok) {
    client_free(c);
    return OOM();
  }
  a->client = c;
  return NULL;
}

static PJRT_Error *pjrt_client_destroy(PJRT_Client_Destroy_Args *a) {
  client_free(a->client);
  return NULL;
}

static PJRT_Error *pjrt_client_platformname(PJRT_Client_PlatformName_Args *a) {
  a->platform_name = platform_name;
  a->platform_name_size = strlen(platform_name);
  return NULL;
}

static PJRT_Error *pjrt_client_processindex(PJRT_Client_ProcessIndex_Args *a) {
  NEED(a->client, "client is NULL");
  a->process_index = a->client->procs_of.node;
  return NULL;
}

static PJRT_Error *pjrt_client_platformversion(PJRT_Client_PlatformVersion_Args *a) {
  NEED(a->client, "client is NULL");
  a->platform_version = a->client->version;
  a->platform_version_size = strlen(a->client->version);
  return NULL;
}

static PJRT_Error *pjrt_client_devices(PJRT_Client_Devices_Args *a) {
  NEED(a->client, "client is NULL");
  a->devices = a->client->dev_list;
  a->num_devices = (size_t)a->client->ndev;
  return NULL;
}

static PJRT_Error *pjrt_client_addressabledevices(PJRT_Client_AddressableDevices_Args *a) {
  NEED(a->client, "client is NULL");
  a->addressable_devices = a->client->addr_list;
  a->num_addressable_devices = (size_t)a->client->nlocal;
  return NULL;
}

static PJRT_Error *pjrt_client_lookupdevice(PJRT_Client_LookupDevice_Args *a) {
  NEED(a->client, "client is NULL");
  if (a->id < 0 || a->id >= a->client->ndev)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: no device %d (the client has %d)", a->id, a->client->ndev);
  a->device = &a->client->devs[a->id];
  return NULL;
}

static PJRT_Error *pjrt_client_lookupaddressabledevice(PJRT_Client_LookupAddressableDevice_Args *a) {
  NEED(a->client, "client is NULL");
  int id = a->local_hardware_id;
  if (id < 0 || id >= a->client->nlocal)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: no device %d (the client has %d)", id,
                     a->client->nlocal);
  a->addressable_device = a->client->addr_list[id];
  return NULL;
}

static PJRT_Error *pjrt_client_addressablememories(PJRT_Client_AddressableMemories_Args *a) {
  NEED(a->client, "client is NULL");
  a->addressable_memories = a->client->mem_list;
  a->num_addressable_memories = (size_t)a->client->nlocal;
  return NULL;
}

static PJRT_Error *pjrt_client_defaultdeviceassignment(PJRT_Client_DefaultDeviceAssignment_Args *a) {
  NEED(a->client, "client is NULL");
  int64_t n = (int64_t)a->num_replicas * a->num_partitions;
  if (a->num_replicas < 1 || a->num_partitions < 1 || n > a->client->ndev)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT,
                     "xlac: %d replicas x %d partitions need more devices than the client's %d", a->num_replicas,
                     a->num_partitions, a->client->ndev);
  NEED(a->default_assignment && a->default_assignment_size >= (size_t)n, "default_assignment is too small");
  /* this process's devices first, where they are enough */
  int first = n <= a->client->nlocal ? a->client->base : 0;
  for (int64_t i = 0; i < n; i++) a->default_assignment[i] = first + (int)i;
  return NULL;
}

static PJRT_Error *pjrt_devicedescription_id(PJRT_DeviceDescription_Id_Args *a) {
  a->id = a->device_description->id;
  return NULL;
}

static PJRT_Error *pjrt_devicedescription_processindex(PJRT_DeviceDescription_ProcessIndex_Args *a) {
  NEED(a->device_description, "device_description is NULL");
  a->process_index = a->device_description->process;
  return NULL;
}

static PJRT_Error *pjrt_devicedescription_attributes(PJRT_DeviceDescription_Attributes_Args *a) {
  a->num_attributes = 0;
  a->attributes = NULL;
  return NULL;
}

static PJRT_Error *pjrt_devicedescription_kind(PJRT_DeviceDescription_Kind_Args *a) {
  a->device_kind = a->device_description->kind;
  a->device_kind_size = strlen(a->device_kind);
  return NULL;
}

static PJRT_Error *pjrt_devicedescription_debugstring(PJRT_DeviceDescription_DebugString_Args *a) {
  a->debug_string = a->device_description->debug;
  a->debug_string_size = strlen(a->debug_string);
  return NULL;
}

static PJRT_Error *pjrt_devicedescription_tostring(PJRT_DeviceDescription_ToString_Args *a) {
  a->to_string = a->device_description->str;
  a->to_string_size = strlen(a->to_string);
  return NULL;
}

static PJRT_Error *pjrt_device_getdescription(PJRT_Device_GetDescription_Args *a) {
  NEED(a->device, "device is NULL");
  a->device_description = &a->device->desc;
  return NULL;
}

static PJRT_Error *pjrt_device_isaddressable(PJRT_Device_IsAddressable_Args *a) {
  NEED(a->device, "device is NULL");
  a->is_addressable = a->device->id >= 0;
  return NULL;
}

static PJRT_Error *pjrt_device_localhardwareid(PJRT_Device_LocalHardwareId_Args *a) {
  NEED(a->device, "device is NULL");
  a->local_hardware_id = a->device->id;
  return NULL;
}

static PJRT_Error *pjrt_device_addressablememories(PJRT_Device_AddressableMemories_Args *a) {
  NEED(a->device, "device is NULL");
  a->memories = &a->device->mem_ptr;
  a->num_memories = 1;
  return NULL;
}

static PJRT_Error *pjrt_device_defaultmemory(PJRT_Device_DefaultMemory_Args *a) {
  NEED(a->device, "device is NULL");
  a->memory = &a->device->mem;
  return NULL;
}

static PJRT_Error *pjrt_device_memorystats(PJRT_Device_MemoryStats_Args *a) {
  NEED(a->device, "device is NULL");
  PJRT_Device *d = a->device;
  a->bytes_in_use = atomic_load(&d->bytes_in_use);
  a->peak_bytes_in_use = atomic_load(&d->peak_bytes);
  a->peak_bytes_in_use_is_set = true;
  a->num_allocs = atomic_load(&d->num_allocs);
  a->num_allocs_is_set = true;
  a->largest_alloc_size = atomic_load(&d->largest_alloc);
  a->largest_alloc_size_is_set = true;
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  a->bytes_limit = pages > 0 && page > 0 ? (int64_t)pages * page : 0;
  a->bytes_limit_is_set = a->bytes_limit > 0;
  a->bytes_reserved_is_set = a->peak_bytes_reserved_is_set = a->bytes_reservable_limit_is_set = false;
  a->largest_free_block_bytes_is_set = a->pool_bytes_is_set = a->peak_pool_bytes_is_set = false;
  return NULL;
}

static PJRT_Error *pjrt_memory_id(PJRT_Memory_Id_Args *a) {
  NEED(a->memory, "memory is NULL");
  a->id = a->memory->device->desc.id;
  return NULL;
}

static PJRT_Error *pjrt_memory_kind(PJRT_Memory_Kind_Args *a) {
  a->kind = memory_kind;
  a->kind_size = strlen(memory_kind);
  return NULL;
}

static PJRT_Error *pjrt_memory_kind_id(PJRT_Memory_Kind_Id_Args *a) {
  a->kind_id = 0;
  return NULL;
}

static PJRT_Error *pjrt_memory_debugstring(PJRT_Memory_DebugString_Args *a) {
  NEED(a->memory, "memory is NULL");
  a->debug_string = a->memory->debug;
  a->debug_string_size = strlen(a->memory->debug);
  return NULL;
}

static PJRT_Error *pjrt_memory_tostring(PJRT_Memory_ToString_Args *a) {
  NEED(a->memory, "memory is NULL");
  a->to_string = a->memory->str;
  a->to_string_size = strlen(a->memory->str);
  return NULL;
}

static PJRT_Error *pjrt_memory_addressablebydevices(PJRT_Memory_AddressableByDevices_Args *a) {
  NEED(a->memory, "memory is NULL");
  a->devices = &a->memory->client->dev_list[a->memory->device->desc.id];
  a->num_devices = 1;
  return NULL;
}

static PJRT_Error *pjrt_client_topologydescription(PJRT_Client_TopologyDescription_Args *a) {
  NEED(a->client, "client is NULL");
  a->topology = &a->client->topo;
  return NULL;
}

static PJRT_Error *pjrt_topologydescription_destroy(PJRT_TopologyDescription_Destroy_Args *a) {
  (void)a; /* the client's own: freed with it */
  return NULL;
}

static PJRT_Error *pjrt_topologydescription_platformname(PJRT_TopologyDescription_PlatformName_Args *a) {
  a->platform_name = platform_name;
  a->platform_name_size = strlen(platform_name);
  return NULL;
}

static PJRT_Error *pjrt_topologydescription_platformversion(PJRT_TopologyDescription_PlatformVersion_Args *a) {
  NEED(a->topology, "topology is NULL");
  a->platform_version = a->topology->client->version;
  a->platform_version_size = strlen(a->platform_version);
  return NULL;
}

static PJRT_Error *pjrt_topologydescription_getdevicedescriptions(
    PJRT_TopologyDescription_GetDeviceDescriptions_Args *a) {
  NEED(a->topology, "topology is NULL");
  a->descriptions = a->topology->client->desc_list;
  a->num_descriptions = (size_t)a->topology->client->ndev;
  return NULL;
}

static PJRT_Error *pjrt_topologydescription_attributes(PJRT_TopologyDescription_Attributes_Args *a) {
  a->attributes = NULL;
  a->num_attributes = 0;
  return NULL;
}

/* ---- element types ---- */

static const struct {
  PJRT_Buffer_Type p;
  xlac_type x;
} type_map[] = {
    {PJRT_Buffer_Type_PRED, XLAC_PRED},         {PJRT_Buffer_Type_S2, XLAC_S2},
    {PJRT_Buffer_Type_S4, XLAC_S4},             {PJRT_Buffer_Type_S8, XLAC_S8},
    {PJRT_Buffer_Type_S16, XLAC_S16},           {PJRT_Buffer_Type_S32, XLAC_S32},
    {PJRT_Buffer_Type_S64, XLAC_S64},           {PJRT_Buffer_Type_U2, XLAC_U2},
    {PJRT_Buffer_Type_U4, XLAC_U4},             {PJRT_Buffer_Type_U8, XLAC_U8},
    {PJRT_Buffer_Type_U16, XLAC_U16},           {PJRT_Buffer_Type_U32, XLAC_U32},
    {PJRT_Buffer_Type_U64, XLAC_U64},           {PJRT_Buffer_Type_F16, XLAC_F16},
    {PJRT_Buffer_Type_BF16, XLAC_BF16},         {PJRT_Buffer_Type_F32, XLAC_F32},
    {PJRT_Buffer_Type_F64, XLAC_F64},           {PJRT_Buffer_Type_C64, XLAC_C64},
    {PJRT_Buffer_Type_C128, XLAC_C128},         {PJRT_Buffer_Type_F8E5M2, XLAC_F8E5M2},
    {PJRT_Buffer_Type_F8E4M3FN, XLAC_F8E4M3FN}, {PJRT_Buffer_Type_F8E4M3B11FNUZ, XLAC_F8E4M3B11FNUZ},
    {PJRT_Buffer_Type_F8E5M2FNUZ, XLAC_F8E5M2FNUZ}, {PJRT_Buffer_Type_F8E4M3FNUZ, XLAC_F8E4M3FNUZ},
    {PJRT_Buffer_Type_F8E4M3, XLAC_F8E4M3},     {PJRT_Buffer_Type_F8E3M4, XLAC_F8E3M4},
    {PJRT_Buffer_Type_F8E8M0FNU, XLAC_F8E8M0FNU}, {PJRT_Buffer_Type_F4E2M1FN, XLAC_F4E2M1FN},
    {PJRT_Buffer_Type_TOKEN, XLAC_TOKEN},
};

static bool to_xlac_type(PJRT_Buffer_Type p, xlac_type *out) {
  for (size_t i = 0; i < sizeof type_map / sizeof type_map[0]; i++)
    if (type_map[i].p == p) {
      *out = type_map[i].x;
      return true;
    }
  return false;
}

static PJRT_Buffer_Type to_pjrt_type(xlac_type x) {
  for (size_t i = 0; i < sizeof type_map / sizeof type_map[0]; i++)
    if (type_map[i].x == x) return type_map[i].p;
  return PJRT_Buffer_Type_INVALID;
}

/* ---- buffers ---- */

struct PJRT_Buffer {
  PJRT_Client *client;
  PJRT_Device *device;
  xlac_buffer *xb;          /* NULL once deleted */
  xlac_type type;
  int rank;
  int64_t *dims;
  int64_t *minor_to_major;  /* rank-1 .. 0 */
  size_t bytes;             /* host (= device) size */
  atomic_int ext_refs;      /* PJRT_Buffer_IncreaseExternalReferenceCount */
  atomic_bool delete_pending; /* deleted while an external reference was held */
  pthread_mutex_t mu;
  /* a buffer whose data a transfer manager is still receiving: set when
     the last of it arrives (or the transfer fails); NULL: defined */
  PJRT_Event *defined;
};

static void account(PJRT_Device *d, long long bytes) {
  long long now = atomic_fetch_add(&d->bytes_in_use, bytes) + bytes;
  if (bytes <= 0) return;
  atomic_fetch_add(&d->num_allocs, 1);
  long long p = atomic_load(&d->peak_bytes);
  while (now > p && !atomic_compare_exchange_weak(&d->peak_bytes, &p, now)) {}
  long long l = atomic_load(&d->largest_alloc);
  while (bytes > l && !atomic_compare_exchange_weak(&d->largest_alloc, &l, bytes)) {}
}

/* A PJRT buffer around xb (taking it); NULL when out of memory (xb freed). */
static PJRT_Buffer *buffer_wrap(PJRT_Client *c, xlac_buffer *xb) {
  PJRT_Buffer *b = calloc(1, sizeof *b);
  xlac_shape sh;
  if (!b || xlac_buffer_shape(xb, &sh)) {
    free(b);
    xlac_buffer_destroy(xb);
    return NULL;
  }
  b->dims = malloc(sizeof(int64_t) * (size_t)(sh.rank + 1));
  b->minor_to_major = malloc(sizeof(int64_t) * (size_t)(sh.rank + 1));
  if (!b->dims || !b->minor_to_major) {
    free(b->dims);
    free(b->minor_to_major);
    free(b);
    xlac_buffer_destroy(xb);
    return NULL;
  }
  b->client = c;
  b->device = &c->devs[c->base + xlac_buffer_device(xb)];
  b->xb = xb;
  b->type = sh.type;
  b->rank = sh.rank;
  for (int i = 0; i < sh.rank; i++) {
    b->dims[i] = sh.dims[i];
    b->minor_to_major[i] = sh.rank - 1 - i;
  }
  b->bytes = xlac_buffer_host_size(xb, 0);
  pthread_mutex_init(&b->mu, NULL);
  account(b->device, (long long)b->bytes);
  return b;
}

/* Frees the buffer's storage (the handle stays, deleted). */
static void buffer_release(PJRT_Buffer *b) {
  pthread_mutex_lock(&b->mu);
  xlac_buffer *xb = b->xb;
  b->xb = NULL;
  pthread_mutex_unlock(&b->mu);
  if (!xb) return;
  account(b->device, -(long long)b->bytes);
  xlac_buffer_destroy(xb);
}

/* Waits until the buffer's data is there (see defined); its error when
   its transfer failed, else NULL. */
static PJRT_Error *buffer_defined(PJRT_Buffer *b, const char *fn) {
  if (!b->defined) return NULL;
  PJRT_Error *e = pjrt_event_await(&(PJRT_Event_Await_Args){.struct_size = sizeof(PJRT_Event_Await_Args),
                                                            .event = b->defined});
  if (!e) return NULL;
  PJRT_Error *out = error_new(e->code, "xlac: %s: the buffer's transfer failed: %s", fn, e->msg);
  pjrt_error_destroy(&(PJRT_Error_Destroy_Args){.struct_size = sizeof(PJRT_Error_Destroy_Args), .error = e});
  return out;
}

static bool buffer_deleted(PJRT_Buffer *b) {
  pthread_mutex_lock(&b->mu);
  bool gone = !b->xb || atomic_load(&b->delete_pending) || xlac_buffer_is_donated(b->xb);
  pthread_mutex_unlock(&b->mu);
  return gone;
}

/* buffer_deleted's error, or buffer_defined's, or NULL: usable */
static PJRT_Error *buffer_unusable(PJRT_Buffer *b, const char *fn);

/* The element data of a live buffer on the host: the CPU backend's
   storage, or a gpu buffer's copied back (NULL when that fails). */
static void *buffer_data(const PJRT_Buffer *b) {
  IVal *v = api_buffer_value(b->xb);
  return v && v->kind == IV_TENSOR ? v->lit->data : NULL;
}

/* Is the buffer's memory the GPU's (api.h: device-resident buffers)? */
static bool buffer_on_gpu(const PJRT_Buffer *b) { return b->xb && b->xb->on_gpu; }

/* The address of a live buffer's elements where they live: device memory
   for the gpu backend, once the execution computing it is done (whoever
   asks for the address reads it outside xlac's streams). */
static void *buffer_address(const PJRT_Buffer *b) {
  if (!buffer_on_gpu(b)) return buffer_data(b);
  xlac_status_destroy(xlac_buffer_await(b->xb));
  return (void *)(uintptr_t)b->xb->dptr;
}

static PJRT_Error *deleted_error(const char *fn) {
  return error_new(PJRT_Error_Code_FAILED_PRECONDITION, "xlac: %s: the buffer was deleted or donated", fn);
}

/* Is `strides` (bytes) the dense row-major layout of dims? */
static bool dense_strides(const int64_t *dims, int rank, const int64_t *strides, size_t elem) {
  int64_t want = (int64_t)elem;
  for (int i = rank - 1; i >= 0; i--) {
    if (dims[i] > 1 && strides[i] != want) return false;
    want *= dims[i];
  }
  return true;
}

/* Copies a strided host array into dense row-major dst. */
static void gather_strided(uint8_t *dst, const uint8_t *src, const int64_t *dims, int rank, const int64_t *strides,
                           size_t elem) {
  int64_t n = 1;
  for (int i = 0; i < rank; i++) n *= dims[i];
  int64_t idx[64] = {0};
  for (int64_t k = 0; k < n; k++) {
    int64_t off = 0;
    for (int i = 0; i < rank; i++) off += idx[i] * strides[i];
    memcpy(dst + (size_t)k * elem, src + off, elem);
    for (int i = rank - 1; i >= 0; i--) {
      if (++idx[i] < dims[i]) break;
      idx[i] = 0;
    }
  }
}

/* Is the layout absent or the default (row-major, untiled)? */
static bool default_layout(const PJRT_Buffer_MemoryLayout *l, int rank) {
  if (!l) return true;
  if (l->type != PJRT_Buffer_MemoryLayout_Type_Tiled) return false;
  if (l->tiled.num_tiles) return false;
  if (l->tiled.minor_to_major_size != (size_t)rank) return false;
  for (int i = 0; i < rank; i++)
    if (l->tiled.minor_to_major[i] != rank - 1 - i) return false;
  return true;
}

static PJRT_Error *pjrt_client_bufferfromhostbuffer(PJRT_Client_BufferFromHostBuffer_Args *a) {
  NEED(a->client, "client is NULL");
  PJRT_Client *c = a->client;
  PJRT_Device *dev = a->device ? a->device : a->memory ? a->memory->device : c->addr_list[0];
  if (dev->id < 0)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: BufferFromHostBuffer: device %d belongs to process %d, "
                     "not this one (%d)", dev->desc.id, dev->process, c->procs_of.node);
  xlac_type t;
  if (!to_xlac_type(a->type, &t))
    return error_new(PJRT_Error_Code_UNIMPLEMENTED, "xlac: BufferFromHostBuffer: element type %d", (int)a->type);
  if (a->num_dims > 64) return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: rank %zu (at most 64)", a->num_dims);
  int rank = (int)a->num_dims;
  if (!default_layout(a->device_layout, rank))
    return error_new(PJRT_Error_Code_UNIMPLEMENTED, "xlac: BufferFromHostBuffer: only the default (row-major) "
                                                    "device layout");
  size_t elem = xlac_type_host_bytes(t);
  int64_t n = 1;
  for (int i = 0; i < rank; i++) {
    NEED(a->dims[i] >= 0, "a negative dimension");
    n *= a->dims[i];
  }
  size_t size = t == XLAC_TOKEN ? 0 : (size_t)n * elem;
  const void *data = a->data;
  void *tmp = NULL;
  if (a->byte_strides && a->num_byte_strides) {
    NEED(a->num_byte_strides == a->num_dims, "byte_strides does not match the rank");
    if (!dense_strides(a->dims, rank, a->byte_strides, elem)) {
      tmp = malloc(size ? size : 1);
      if (!tmp) return OOM();
      gather_strided(tmp, a->data, a->dims, rank, a->byte_strides, elem);
      data = tmp;
    }
  }
  xlac_buffer *xb = NULL;
  xlac_status *s = xlac_buffer_from_host(c->xc, dev->id, t, a->dims, rank, data, size, 0, &xb);
  free(tmp);
  if (s) return from_status(s, "BufferFromHostBuffer");
  PJRT_Buffer *b = buffer_wrap(c, xb);
  /* the data was copied: the host buffer is free as soon as this returns */
  PJRT_Event *done = b ? event_new(true, 0, NULL) : NULL;
  if (!b || !done) {
    if (b) {
      buffer_release(b);
      free(b);
    }
    return OOM();
  }
  a->done_with_host_buffer = done;
  a->buffer = b;
  return NULL;
}

static PJRT_Error *pjrt_client_createuninitializedbuffer(PJRT_Client_CreateUninitializedBuffer_Args *a) {
  NEED(a->client, "client is NULL");
  xlac_type t;
  if (!to_xlac_type(a->shape_element_type, &t))
    return error_new(PJRT_Error_Code_UNIMPLEMENTED, "xlac: element type %d", (int)a->shape_element_type);
  int64_t n = 1;
  for (size_t i = 0; i < a->shape_num_dims; i++) n *= a->shape_dims[i];
  size_t size = t == XLAC_TOKEN ? 0 : (size_t)n * xlac_type_host_bytes(t);
  void *zeros = calloc(1, size ? size : 1);
  if (!zeros) return OOM();
  PJRT_Client_BufferFromHostBuffer_Args h = {.struct_size = sizeof h, .client = a->client, .data = zeros,
                                             .type = a->shape_element_type, .dims = a->shape_dims,
                                             .num_dims = a->shape_num_dims, .device = a->device, .memory = a->memory,
                                             .device_layout = a->shape_layout};
  PJRT_Error *e = pjrt_client_bufferfromhostbuffer(&h);
  free(zeros);
  if (e) return e;
  pjrt_event_destroy(&(PJRT_Event_Destroy_Args){.struct_size = sizeof(PJRT_Event_Destroy_Args),
                                                .event = h.done_with_host_buffer});
  a->buffer = h.buffer;
  return NULL;
}

static PJRT_Error *pjrt_buffer_destroy(PJRT_Buffer_Destroy_Args *a) {
  PJRT_Buffer *b = a->buffer;
  if (!b) return NULL;
  buffer_release(b);
  event_drop(b->defined);
  pthread_mutex_destroy(&b->mu);
  free(b->dims);
  free(b->minor_to_major);
  free(b);
  return NULL;
}

static PJRT_Error *pjrt_buffer_elementtype(PJRT_Buffer_ElementType_Args *a) {
  NEED(a->buffer, "buffer is NULL");
  a->type = to_pjrt_type(a->buffer->type);
  return NULL;
}

static PJRT_Error *pjrt_buffer_dimensions(PJRT_Buffer_Dimensions_Args *a) {
  NEED(a->buffer, "buffer is NULL");
  a->dims = a->buffer->dims;
  a->num_dims = (size_t)a->buffer->rank;
  return NULL;
}

static PJRT_Error *pjrt_buffer_unpaddeddimensions(PJRT_Buffer_UnpaddedDimensions_Args *a) {
  NEED(a->buffer, "buffer is NULL");
  a->unpadded_dims = a->buffer->dims;
  a->num_dims = (size_t)a->buffer->rank;
  return NULL;
}

static PJRT_Error *pjrt_buffer_dynamicdimensionindices(PJRT_Buffer_DynamicDimensionIndices_Args *a) {
  a->dynamic_dim_indices = NULL;
  a->num_dynamic_dims = 0;
  return NULL;
}

static PJRT_Error *pjrt_buffer_getmemorylayout(PJRT_Buffer_GetMemoryLayout_Args *a) {
  NEED(a->buffer, "buffer is NULL");
  memset(&a->layout, 0, sizeof a->layout);
  a->layout.struct_size = sizeof a->layout;
  a->layout.type = PJRT_Buffer_MemoryLayout_Type_Tiled;
  a->layout.tiled.struct_size = sizeof a->layout.tiled;
  a->layout.tiled.minor_to_major = a->buffer->minor_to_major;
  a->layout.tiled.minor_to_major_size = (size_t)a->buffer->rank;
  a->layout.tiled.num_tiles = 0;
  return NULL;
}

static PJRT_Error *pjrt_buffer_ondevicesizeinbytes(PJRT_Buffer_OnDeviceSizeInBytes_Args *a) {
  NEED(a->buffer, "buffer is NULL");
  a->on_device_size_in_bytes = a->buffer->bytes;
  return NULL;
}

static PJRT_Error *pjrt_buffer_device(PJRT_Buffer_Device_Args *a) {
  NEED(a->buffer, "buffer is NULL");
  a->device = a->buffer->device;
  return NULL;
}

static PJRT_Error *pjrt_buffer_memory(PJRT_Buffer_Memory_Args *a) {
  NEED(a->buffer, "buffer is NULL");
  a->memory = &a->buffer->device->mem;
  return NULL;
}

static PJRT_Error *pjrt_buffer_delete(PJRT_Buffer_Delete_Args *a) {
  NEED(a->buffer, "buffer is NULL");
  if (atomic_load(&a->buffer->ext_refs) > 0) atomic_store(&a->buffer->delete_pending, true);
  else buffer_release(a->buffer);
  return NULL;
}

static PJRT_Error *pjrt_buffer_isdeleted(PJRT_Buffer_IsDeleted_Args *a) {
  NEED(a->buffer, "buffer is NULL");
  a->is_deleted = buffer_deleted(a->buffer);
  return NULL;
}

static PJRT_Error *copy_to(PJRT_Buffer *src, PJRT_Device *dst, PJRT_Buffer **out) {
  PJRT_Error *ue = buffer_unusable(src, "CopyToDevice");
  if (ue) return ue;
  if (dst->id < 0)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: CopyToDevice: device %d belongs to process %d, not this "
                     "one (%d)", dst->desc.id, dst->process, dst->client->procs_of.node);
  void *data = src->type == XLAC_TOKEN ? NULL : buffer_data(src);
  xlac_buffer *xb = NULL;
  xlac_status *s = xlac_buffer_from_host(src->client->xc, dst->id, src->type, src->dims, src->rank, data, src->bytes,
                                         0, &xb);
  if (s) return from_status(s, "CopyToDevice");
  *out = buffer_wrap(src->client, xb);
  return *out ? NULL : error_new(PJRT_Error_Code_RESOURCE_EXHAUSTED, "xlac: CopyToDevice: out of memory");
}

static PJRT_Error *pjrt_buffer_copytodevice(PJRT_Buffer_CopyToDevice_Args *a) {
  NEED(a->buffer && a->dst_device, "buffer or dst_device is NULL");
  return copy_to(a->buffer, a->dst_device, &a->dst_buffer);
}

static PJRT_Error *pjrt_buffer_copytomemory(PJRT_Buffer_CopyToMemory_Args *a) {
  NEED(a->buffer && a->dst_memory, "buffer or dst_memory is NULL");
  return copy_to(a->buffer, a->dst_memory->device, &a->dst_buffer);
}

/* JAX (ml_dtypes) holds a 2- or 4-bit integer in the low bits of its byte,
   the high bits zero (int4 -1 is 0x0F); xlac's own host layout sign-extends
   signed ones.  Bytes leaving the plugin get ml_dtypes' form. */
static void to_ml_dtypes_bytes(xlac_type t, uint8_t *p, size_t n) {
  unsigned bits = t == XLAC_S4 || t == XLAC_U4 ? 4 : t == XLAC_S2 || t == XLAC_U2 ? 2 : 8;
  if (bits == 8) return;
  uint8_t mask = (uint8_t)((1u << bits) - 1);
  for (size_t i = 0; i < n; i++) p[i] &= mask;
}

static PJRT_Error *pjrt_buffer_tohostbuffer(PJRT_Buffer_ToHostBuffer_Args *a) {
  NEED(a->src, "src is NULL");
  PJRT_Buffer *b = a->src;
  if (!default_layout(a->host_layout, b->rank))
    return error_new(PJRT_Error_Code_UNIMPLEMENTED, "xlac: ToHostBuffer: only the default (row-major) host layout");
  if (!a->dst) {
    a->dst_size = b->bytes;
    return NULL;
  }
  PJRT_Error *ue = buffer_unusable(b, "ToHostBuffer");
  if (ue) return ue;
  if (a->dst_size < b->bytes)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: ToHostBuffer: %zu bytes given, the buffer has %zu",
                     a->dst_size, b->bytes);
  PJRT_Error *e = from_status(xlac_buffer_to_host(b->xb, a->dst, a->dst_size, 0), "ToHostBuffer");
  if (e) return e;
  to_ml_dtypes_bytes(b->type, a->dst, b->bytes);
  a->event = event_new(true, 0, NULL);
  return a->event ? NULL : OOM();
}

static PJRT_Error *pjrt_buffer_copyrawtohost(PJRT_Buffer_CopyRawToHost_Args *a) {
  NEED(a->buffer && a->dst, "buffer or dst is NULL");
  PJRT_Buffer *b = a->buffer;
  PJRT_Error *ue = buffer_unusable(b, "CopyRawToHost");
  if (ue) return ue;
  if (a->offset < 0 || a->transfer_size < 0 || (size_t)(a->offset + a->transfer_size) > b->bytes)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: CopyRawToHost: bytes %" PRId64 "..%" PRId64
                     " of a buffer of %zu", a->offset, a->offset + a->transfer_size, b->bytes);
  const uint8_t *data = a->transfer_size ? buffer_data(b) : NULL;
  if (a->transfer_size && !data)
    return error_new(PJRT_Error_Code_INTERNAL, "xlac: CopyRawToHost: the buffer's data could not be copied from the GPU");
  if (a->transfer_size) memcpy(a->dst, data + a->offset, (size_t)a->transfer_size);
  to_ml_dtypes_bytes(b->type, a->dst, (size_t)a->transfer_size);
  a->event = event_new(true, 0, NULL);
  return a->event ? NULL : OOM();
}

static PJRT_Error *pjrt_buffer_isoncpu(PJRT_Buffer_IsOnCpu_Args *a) {
  NEED(a->buffer, "buffer is NULL");
  a->is_on_cpu = !buffer_on_gpu(a->buffer);
  return NULL;
}

static PJRT_Error *pjrt_buffer_readyevent(PJRT_Buffer_ReadyEvent_Args *a) {
  NEED(a->buffer, "buffer is NULL");
  /* (a buffer still receiving its data: ready when it has) */
  PJRT_Error *e = buffer_defined(a->buffer, "ReadyEvent");
  /* a gpu buffer an execution is still computing: ready when it is */
  xlac_status *ws = !e && buffer_on_gpu(a->buffer) ? xlac_buffer_await(a->buffer->xb) : NULL;
  if (ws) e = error_new(PJRT_Error_Code_INTERNAL, "xlac: ReadyEvent: %s", xlac_status_message(ws));
  xlac_status_destroy(ws);
  a->event = event_new(true, e ? e->code : 0, e ? e->msg : NULL);
  if (e) pjrt_error_destroy(&(PJRT_Error_Destroy_Args){.struct_size = sizeof(PJRT_Error_Destroy_Args), .error = e});
  return a->event ? NULL : OOM();
}

static PJRT_Error *pjrt_buffer_unsafepointer(PJRT_Buffer_UnsafePointer_Args *a) {
  NEED(a->buffer, "buffer is NULL");
  PJRT_Error *ue = buffer_unusable(a->buffer, "UnsafePointer");
  if (ue) return ue;
  a->buffer_pointer = (uintptr_t)buffer_address(a->buffer);
  return NULL;
}

static PJRT_Error *pjrt_buffer_opaquedevicememorydatapointer(PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args *a) {
  NEED(a->buffer, "buffer is NULL");
  PJRT_Error *ue = buffer_unusable(a->buffer, "OpaqueDeviceMemoryDataPointer");
  if (ue) return ue;
  a->device_memory_ptr = buffer_address(a->buffer);
  return NULL;
}

static PJRT_Error *pjrt_buffer_increaseexternalreferencecount(PJRT_Buffer_IncreaseExternalReferenceCount_Args *a) {
  NEED(a->buffer, "buffer is NULL");
  PJRT_Error *ue = buffer_unusable(a->buffer, "IncreaseExternalReferenceCount");
  if (ue) return ue;
  atomic_fetch_add(&a->buffer->ext_refs, 1);
  return NULL;
}

static PJRT_Error *pjrt_buffer_decreaseexternalreferencecount(PJRT_Buffer_DecreaseExternalReferenceCount_Args *a) {
  NEED(a->buffer, "buffer is NULL");
  PJRT_Buffer *b = a->buffer;
  if (atomic_load(&b->ext_refs) <= 0)
    return error_new(PJRT_Error_Code_FAILED_PRECONDITION, "xlac: the buffer holds no external reference");
  if (atomic_fetch_sub(&b->ext_refs, 1) == 1 && atomic_load(&b->delete_pending)) buffer_release(b);
  return NULL;
}

/* ---- executables ---- */

/* A compiled program, shared by its loaded and unloaded handles. */
typedef struct Exe {
  atomic_int refs;
  PJRT_Client *client;
  xlac_executable *xe;
  int nrep, npart, ndev;    /* ndev = nrep * npart */
  bool portable;            /* runs on the device each execution names */
  bool spmd;                /* the partitions are to be made by the compiler */
  bool manual;              /* partitioned by hand (xlac.manual_partitions) */
  char *dump_dir;           /* compiler option xla_dump_to, or NULL */
  int *assign;              /* [ndev]: device (global id) of replica r, partition p at r * npart + p */
  PJRT_Device **addr;       /* [naddr]: those of this process */
  int naddr;
  int *local;               /* [naddr]: their places in assign */
  int self;                 /* >= 0: the one device of this process in a program of several processes */
  char *name;
  int nargs, nout;
  bool *donor;              /* [nargs]: donated at every execution (unless non-donatable) */
  bool *arg_token;          /* [nargs]: the argument is a token */
  PJRT_Buffer_Type *out_types;
  int64_t *out_dims;        /* every output's dimensions in turn */
  size_t *out_ranks;
  const char **out_kinds;
  size_t *out_kind_sizes;
  char *options;            /* the serialized CompileOptionsProto, as received */
  size_t options_len;
  char *code;               /* the program, as received */
  size_t code_len;
  char fingerprint[17];
  /* partitioned programs: each parameter's and output's serialized
     OpSharding (NULL: not known) */
  char **arg_shardings, **out_shardings;
  size_t *arg_sharding_sizes, *out_sharding_sizes;
  pthread_mutex_t mu;
  char *optimized;          /* the optimized module's text, made when first asked for */
  size_t optimized_len;
  atomic_bool deleted;
  PJRT_NamedValue cost[3];  /* GetCostAnalysis: flops, transcendentals, bytes accessed */
} Exe;

struct PJRT_Executable {
  Exe *x;
};
struct PJRT_LoadedExecutable {
  Exe *x;
};

static void exe_release(Exe *x) {
  if (!x || atomic_fetch_sub(&x->refs, 1) != 1) return;
  xlac_executable_destroy(x->xe);
  free(x->assign);
  free(x->addr);
  free(x->local);
  free(x->name);
  free(x->donor);
  free(x->arg_token);
  free(x->out_types);
  free(x->out_dims);
  free(x->out_ranks);
  free(x->out_kinds);
  free(x->out_kind_sizes);
  free(x->options);
  free(x->code);
  free(x->optimized);
  free(x->dump_dir);
  for (int i = 0; x->arg_shardings && i < x->nargs; i++) free(x->arg_shardings[i]);
  for (int i = 0; x->out_shardings && i < x->nout; i++) free(x->out_shardings[i]);
  free(x->arg_shardings);
  free(x->out_shardings);
  free(x->arg_sharding_sizes);
  free(x->out_sharding_sizes);
  pthread_mutex_destroy(&x->mu);
  free(x);
}

static uint64_t fnv1a(uint64_t h, const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

/* The bytes of argument (arg) or result i of e on one device; -1 for a
   token or an error. */
static int64_t leaf_bytes(const xlac_executable *e, int i, bool arg) {
  xlac_shape sh;
  xlac_status *st = arg ? xlac_executable_arg_shape(e, i, &sh) : xlac_executable_result_shape(e, i, &sh);
  if (st || sh.type == XLAC_TOKEN) {
    xlac_status_destroy(st);
    return -1;
  }
  int64_t n = (int64_t)xlac_type_host_bytes(sh.type);
  for (int d = 0; d < sh.rank; d++) n *= sh.dims[d];
  return n;
}

/* Does argument i of f say it may be donated? */
static bool arg_is_donor(const Func *f, int i) {
  if (!f->arg_attrs || !f->arg_attrs[i]) return false;
  const Attr *alias = attr_dict_get(f->arg_attrs[i], "tf.aliasing_output");
  const Attr *donor = attr_dict_get(f->arg_attrs[i], "jax.buffer_donor");
  return (alias && alias->kind == ATTR_INT) || (donor && (donor->kind == ATTR_UNIT || (donor->kind == ATTR_BOOL && donor->b)));
}

static const char *skip_blanks(const char *s, const char *e) {
  while (s < e && (*s == ' ' || *s == '\n' || *s == '\t')) s++;
  return s;
}

/* The parameters an HLO module declares donors of (module options
   input_output_alias, `{ {0}: (1, {}, may-alias), ... }`, and buffer_donor,
   `{ (1, {}), ... }`): each "(N, {}" names parameter N as a whole. */
static void hlo_donors(const Module *m, bool *donor, int nparams) {
  for (int k = 0; k < m->nattrs; k++) {
    const Attr *a = m->attrs[k].attr;
    if (!a || a->kind != ATTR_STRING ||
        (strcmp(m->attrs[k].name, "input_output_alias") && strcmp(m->attrs[k].name, "buffer_donor")))
      continue;
    const char *e = a->s + a->slen;
    for (const char *s = a->s; s < e; s++) {
      if (*s != '(') continue;
      const char *t = skip_blanks(s + 1, e);
      long n = 0;
      int digits = 0;
      for (; t < e && *t >= '0' && *t <= '9' && n < 1000000; t++, digits++) n = n * 10 + (*t - '0');
      t = skip_blanks(t, e);
      if (!digits || t >= e || *t != ',') continue;
      t = skip_blanks(t + 1, e);
      if (t + 1 < e && t[0] == '{' && skip_blanks(t + 1, e) < e && *skip_blanks(t + 1, e) == '}' && n < nparams)
        donor[n] = true;
    }
  }
}

/* Reads the compile options: replicas, partitions, device assignment. */
static PJRT_Error *read_options(PJRT_Client *c, const char *bytes, size_t len, Exe *x) {
  Xla__CompileOptionsProto *o = NULL;
  if (len) {
    o = xla__compile_options_proto__unpack(NULL, len, (const uint8_t *)bytes);
    if (!o) return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: Compile: unreadable CompileOptionsProto");
  }
  const Xla__ExecutableBuildOptionsProto *b = o ? o->executable_build_options : NULL;
  /* compiler options by name (compile(compiler_options=...)): XLA's debug
     options (xla_*) and its build options' tuning knobs are accepted, and
     xla_dump_to is honoured (XLA-style dumps); the rest tune XLA's own
     passes and mean nothing here.  Any other name is an error. */
  static const char *const knobs[] = {"exec_time_optimization_effort", "memory_fitting_effort", "optimization_level",
                                      "memory_fitting_level"};
  for (size_t i = 0; o && i < o->n_env_option_overrides; i++) {
    const Xla__EnvOptionOverride *ov = o->env_option_overrides[i];
    bool known = !strncmp(ov->key, "xla_", 4);
    for (size_t k = 0; k < sizeof knobs / sizeof knobs[0]; k++) known |= !strcmp(ov->key, knobs[k]);
    if (!known) {
      PJRT_Error *e = error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: Compile: No such compile option: '%s'",
                                ov->key);
      xla__compile_options_proto__free_unpacked(o, NULL);
      return e;
    }
    if (!strcmp(ov->key, "xla_dump_to") && ov->value &&
        ov->value->value_case == XLA__OPTION_OVERRIDE_PROTO__VALUE_STRING_FIELD) {
      free(x->dump_dir);
      x->dump_dir = strdup(ov->value->string_field);
    }
  }
  int64_t nrep = b && b->num_replicas > 0 ? b->num_replicas : 1;
  int64_t npart = b && b->num_partitions > 0 ? b->num_partitions : 1;
  PJRT_Error *err = NULL;
  if (nrep * npart > c->ndev) {
    err = error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: Compile: %" PRId64 " replicas x %" PRId64
                    " partitions need more devices than the client's %d", nrep, npart, c->ndev);
  }
  x->spmd = b && (b->use_spmd_partitioning || b->use_auto_spmd_partitioning);
  x->nrep = (int)nrep;
  x->npart = (int)npart;
  x->ndev = (int)(nrep * npart);
  x->portable = o && o->compile_portable_executable;
  x->assign = err ? NULL : calloc((size_t)x->ndev, sizeof(int));
  x->addr = err ? NULL : calloc((size_t)x->ndev, sizeof(PJRT_Device *));
  if (!err && (!x->assign || !x->addr)) err = OOM();
  const Xla__DeviceAssignmentProto *da = b ? b->device_assignment : NULL;
  for (int r = 0; !err && r < x->nrep; r++)
    for (int p = 0; !err && p < x->npart; p++) {
      int64_t id = r * x->npart + p;
      if (da && !x->portable) {
        if ((size_t)p >= da->n_computation_devices || (size_t)r >= da->computation_devices[p]->n_replica_device_ids) {
          err = error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: Compile: the device assignment has no device for "
                          "replica %d, partition %d", r, p);
          break;
        }
        id = da->computation_devices[p]->replica_device_ids[r];
      }
      if (id < 0 || id >= c->ndev) {
        err = error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: Compile: device %" PRId64 " does not exist (the "
                        "client has %d)", id, c->ndev);
        break;
      }
      for (int k = 0; k < r * x->npart + p; k++)
        if (x->assign[k] == id)
          err = error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: Compile: device %" PRId64 " is assigned twice", id);
      x->assign[r * x->npart + p] = (int)id;
      if (c->devs[id].id >= 0) x->addr[x->naddr++] = &c->devs[id];
    }
  if (o) xla__compile_options_proto__free_unpacked(o, NULL);
  /* a program over several processes runs this process's devices of it
     here, and its collectives meet the others over TCP or MPI */
  x->self = -1;
  x->local = err ? NULL : calloc((size_t)x->ndev + 1, sizeof(int));
  if (!err && !x->local) err = OOM();
  for (int k = 0, j = 0; !err && k < x->ndev; k++)
    if (c->devs[x->assign[k]].id >= 0) x->local[j++] = k;
  if (!err && !x->portable && x->naddr > 0 && x->naddr < x->ndev && c->procs_of.net)
    x->self = x->local[0];
  else if (!err && !x->portable && x->naddr > 0 && x->naddr < x->ndev) {
    int seen = 0;
    for (int k = 0; k < x->ndev; k++)
      if (c->devs[x->assign[k]].id >= 0) x->self = k;
    bool *in = calloc((size_t)c->procs_of.nnodes + 1, sizeof(bool));
    for (int k = 0; in && k < x->ndev; k++) in[c->devs[x->assign[k]].process] = true;
    for (int q = 0; in && q < c->procs_of.nnodes; q++) seen += in[q];
    free(in);
    if (x->naddr != 1 || seen != c->procs_of.nnodes)
      err = error_new(PJRT_Error_Code_UNIMPLEMENTED, "xlac: Compile: the program runs on %d devices of %d of the %d "
                      "processes; xlac runs a program on one process or on one device of every process", x->ndev,
                      seen, c->procs_of.nnodes);
  }
  return err;
}

/* What the executable says of its outputs (types, shapes, memories). */
static bool describe_outputs(Exe *x) {
  x->nargs = xlac_executable_num_args(x->xe);
  x->nout = xlac_executable_num_results(x->xe);
  size_t n = (size_t)x->nout + 1;
  x->out_types = calloc(n, sizeof *x->out_types);
  x->out_ranks = calloc(n, sizeof *x->out_ranks);
  x->out_kinds = calloc(n, sizeof *x->out_kinds);
  x->out_kind_sizes = calloc(n, sizeof *x->out_kind_sizes);
  if (!x->out_types || !x->out_ranks || !x->out_kinds || !x->out_kind_sizes) return false;
  size_t total = 0;
  for (int i = 0; i < x->nout; i++) {
    xlac_shape sh;
    if (xlac_executable_result_shape(x->xe, i, &sh)) return false;
    total += (size_t)sh.rank;
  }
  x->out_dims = calloc(total + 1, sizeof *x->out_dims);
  if (!x->out_dims) return false;
  size_t k = 0;
  for (int i = 0; i < x->nout; i++) {
    xlac_shape sh;
    xlac_executable_result_shape(x->xe, i, &sh);
    x->out_types[i] = to_pjrt_type(sh.type);
    x->out_ranks[i] = (size_t)sh.rank;
    for (int d = 0; d < sh.rank; d++) x->out_dims[k++] = sh.dims[d];
    x->out_kinds[i] = memory_kind;
    x->out_kind_sizes[i] = strlen(memory_kind);
  }
  return true;
}

/* Writes a whole file; false with errno set. */
static bool write_whole(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, len, f) == len;
  int e = errno;
  if (fclose(f) != 0 && ok) ok = false, e = errno;
  errno = e;
  return ok;
}

/* With XLAC_PJRT_DUMP=DIR, each program JAX compiles is written to
   DIR/program-N.mlirbc (.mlir for text, .hlo.pb for an HloModuleProto)
   and its options to
   DIR/program-N.options.pb, for replaying with the xlac command.  DIR is
   created when missing (its parent must exist); a dump that cannot be
   written fails the compilation, rather than leaving the user without the
   files they asked for. */
static PJRT_Error *dump_program(const char *code, size_t len, bool hlo, const char *options, size_t options_len) {
  static atomic_int counter;
  const char *dir = getenv("XLAC_PJRT_DUMP");
  if (!dir || !*dir) return NULL;
  struct stat st;
  if (stat(dir, &st) != 0 && mkdir(dir, 0777) != 0 && errno != EEXIST)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: XLAC_PJRT_DUMP=%s: cannot create the directory: %s",
                     dir, strerror(errno));
  int n = atomic_fetch_add(&counter, 1);
  bool bytecode = mlirbc_is_bytecode(code, len);
  char path[4096];
  snprintf(path, sizeof path, "%s/program-%d.%s", dir, n, hlo ? "hlo.pb" : bytecode ? "mlirbc" : "mlir");
  bool ok = write_whole(path, code, len);
  if (ok) {
    snprintf(path, sizeof path, "%s/program-%d.options.pb", dir, n);
    ok = write_whole(path, options, options_len);
  }
  if (!ok)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: XLAC_PJRT_DUMP: cannot write %s: %s", path,
                     strerror(errno));
  return NULL;
}

/* ---- shardings ---- */

static bool parse_ints(const char **p, char close, int64_t *v, int *n, int cap) {
  *n = 0;
  for (;;) {
    char *end;
    long long x = strtoll(*p, &end, 10);
    if (end == *p || *n == cap || x < 0) return false;
    v[(*n)++] = x;
    *p = end;
    if (**p == close) {
      (*p)++;
      return true;
    }
    if (**p != ',') return false;
    (*p)++;
  }
}

/* An HLO sharding in its text form ("{replicated}", "{maximal device=2}",
   "{manual}", "{devices=[4,1]<=[4]}", "{devices=[2,2]<=[2,2]T(1,0)
   last_tile_dim_replicate}", "{devices=[2,1]1,0}", "{devices=[1,2]0,1
   last_tile_dims={unreduced}}") as a serialized
   OpSharding; NULL for what it does not read. */
static char *sharding_proto(const char *text, size_t *len) {
  enum { CAP = 64, MAXDEV = 1 << 16 };
  Xla__OpSharding o = XLA__OP_SHARDING__INIT;
  int64_t dims[CAP], devs_small[1], rdims[CAP], perm[CAP];
  int nd = 0, nr = 0, np = 0;
  int64_t *devs = NULL;
  int64_t ndevs = 0;
  const char *p = text;
  bool ok = false;
  if (!strcmp(p, "{replicated}")) {
    o.type = XLA__OP_SHARDING__TYPE__REPLICATED;
    ok = true;
  } else if (!strcmp(p, "{manual}")) {
    o.type = XLA__OP_SHARDING__TYPE__MANUAL;
    ok = true;
  } else if (!strncmp(p, "{maximal device=", 16)) {
    char *end;
    devs_small[0] = strtoll(p + 16, &end, 10);
    dims[0] = 1;
    o.type = XLA__OP_SHARDING__TYPE__MAXIMAL;
    o.n_tile_assignment_dimensions = 1;
    o.tile_assignment_dimensions = dims;
    o.n_tile_assignment_devices = 1;
    o.tile_assignment_devices = devs_small;
    ok = end != p + 16 && !strcmp(end, "}");
  } else if (!strncmp(p, "{devices=[", 10)) {
    p += 10;
    ok = parse_ints(&p, ']', dims, &nd, CAP);
    ndevs = 1;
    for (int i = 0; ok && i < nd; i++) ok = dims[i] > 0 && (ndevs *= dims[i]) <= MAXDEV;
    if (ok) ok = (devs = calloc((size_t)ndevs, sizeof *devs)) != NULL;
    if (ok && !strncmp(p, "<=[", 3)) {
      /* iota devices, reshaped and optionally transposed */
      p += 3;
      ok = parse_ints(&p, ']', rdims, &nr, CAP);
      int64_t n = 1;
      for (int i = 0; ok && i < nr; i++) ok = rdims[i] > 0 && (n *= rdims[i]) <= MAXDEV;
      ok = ok && n == ndevs;
      if (ok && !strncmp(p, "T(", 2)) {
        p += 2;
        ok = parse_ints(&p, ')', perm, &np, CAP) && np == nr;
      } else {
        np = nr;
        for (int i = 0; i < nr; i++) perm[i] = i;
      }
      bool seen[CAP] = {0};
      for (int i = 0; ok && i < np; i++) ok = perm[i] < nr && !seen[perm[i]] && (seen[perm[i]] = true);
      /* element k of the transposed array: its index in the transposed
         shape, mapped back to the reshaped iota */
      for (int64_t k = 0; ok && k < ndevs; k++) {
        int64_t rem = k, src = 0, idx[CAP];
        for (int i = np - 1; i >= 0; i--) {
          idx[perm[i]] = rem % rdims[perm[i]];
          rem /= rdims[perm[i]];
        }
        for (int i = 0; i < nr; i++) src = src * rdims[i] + idx[i];
        devs[k] = src;
      }
    } else if (ok) {
      for (int64_t k = 0; ok && k < ndevs; k++) {
        char *end;
        devs[k] = strtoll(p, &end, 10);
        ok = end != p && devs[k] >= 0;
        p = end;
        if (ok && k + 1 < ndevs) ok = *p++ == ',';
      }
    }
    static Xla__OpSharding__Type subgroups[2] = {XLA__OP_SHARDING__TYPE__REPLICATED,
                                                 XLA__OP_SHARDING__TYPE__UNREDUCED};
    if (ok && !strncmp(p, " last_tile_dim_replicate", 24)) {
      p += 24;
      o.replicate_on_last_tile_dim = true;
    } else if (ok && !strncmp(p, " last_tile_dims={replicated, unreduced}", 39)) {
      /* partial sums (the partitioner's unreduced results): copies, then
         the partial sums */
      p += 39;
      o.n_last_tile_dims = 2;
      o.last_tile_dims = subgroups;
    } else if (ok && !strncmp(p, " last_tile_dims={unreduced}", 27)) {
      p += 27;
      o.n_last_tile_dims = 1;
      o.last_tile_dims = subgroups + 1;
    }
    ok = ok && !strcmp(p, "}");
    o.type = XLA__OP_SHARDING__TYPE__OTHER;
    o.n_tile_assignment_dimensions = (size_t)nd;
    o.tile_assignment_dimensions = dims;
    o.n_tile_assignment_devices = (size_t)ndevs;
    o.tile_assignment_devices = devs;
  }
  char *out = NULL;
  if (ok) {
    *len = xla__op_sharding__get_packed_size(&o);
    if ((out = malloc(*len + 1))) xla__op_sharding__pack(&o, (uint8_t *)out);
  }
  free(devs);
  return out;
}

/* The shardings of a partitioned executable's parameters and outputs,
   from `mhlo.sharding` of its entry function (replicated where absent);
   none at all where one cannot be read. */
static bool collect_shardings(Exe *x) {
  const Func *f = x->xe->entry;
  if (x->npart <= 1 || !f || f->body->nargs != x->nargs || f->nresults != x->nout) return true;
  x->arg_shardings = calloc((size_t)x->nargs + 1, sizeof(char *));
  x->out_shardings = calloc((size_t)x->nout + 1, sizeof(char *));
  x->arg_sharding_sizes = calloc((size_t)x->nargs + 1, sizeof(size_t));
  x->out_sharding_sizes = calloc((size_t)x->nout + 1, sizeof(size_t));
  if (!x->arg_shardings || !x->out_shardings || !x->arg_sharding_sizes || !x->out_sharding_sizes) return false;
  bool known = true;
  for (int k = 0; k < 2; k++) {
    int n = k ? x->nout : x->nargs;
    Attr **dicts = k ? f->res_attrs : f->arg_attrs;
    char **out = k ? x->out_shardings : x->arg_shardings;
    size_t *sizes = k ? x->out_sharding_sizes : x->arg_sharding_sizes;
    for (int i = 0; i < n; i++) {
      const Attr *a = dicts && dicts[i] ? attr_dict_get(dicts[i], "mhlo.sharding") : NULL;
      const char *text = a && a->kind == ATTR_STRING ? a->s : "{replicated}";
      if (!(out[i] = sharding_proto(text, &sizes[i]))) known = false;
    }
  }
  if (!known) {
    for (int i = 0; i < x->nargs; i++) free(x->arg_shardings[i]);
    for (int i = 0; i < x->nout; i++) free(x->out_shardings[i]);
    free(x->arg_shardings);
    free(x->out_shardings);
    x->arg_shardings = x->out_shardings = NULL;
  }
  return true;
}

static PJRT_Error *pjrt_shardings_pjrt_executable_parametershardings(
    PJRT_Shardings_PJRT_Executable_ParameterShardings_Args *a) {
  NEED(a->executable, "executable is NULL");
  const Exe *x = a->executable->x;
  a->num_parameters = (size_t)x->nargs;
  a->shardings = (const char *const *)x->arg_shardings;
  a->sharding_sizes = x->arg_shardings ? x->arg_sharding_sizes : NULL;
  return NULL;
}

static PJRT_Error *pjrt_shardings_pjrt_executable_outputshardings(
    PJRT_Shardings_PJRT_Executable_OutputShardings_Args *a) {
  NEED(a->executable, "executable is NULL");
  const Exe *x = a->executable->x;
  a->num_outputs = (size_t)x->nout;
  /* no outputs (a pmap that only prints): nothing known, as for an
     unpartitioned program; jaxlib refuses an empty list of shardings */
  a->shardings = x->nout ? (const char *const *)x->out_shardings : NULL;
  a->sharding_sizes = x->nout && x->out_shardings ? x->out_sharding_sizes : NULL;
  return NULL;
}

/* Compiles code (a StableHLO portable artifact, StableHLO/HLO text, or a
   serialized HloModuleProto) with the serialized CompileOptionsProto; name
   is what diagnostics call the program (a name ending in .hlo.pb reads it
   as an HloModuleProto whatever it holds). */
static PJRT_Error *compile(PJRT_Client *c, const char *code, size_t code_len, const char *options, size_t options_len,
                           const char *name, Exe **out) {
  Exe *x = calloc(1, sizeof *x);
  if (!x) return OOM();
  atomic_init(&x->refs, 1);
  pthread_mutex_init(&x->mu, NULL);
  x->client = c;
  x->code = malloc(code_len + 1);
  x->options = malloc(options_len + 1);
  if (!x->code || !x->options) {
    exe_release(x);
    return OOM();
  }
  memcpy(x->code, code, code_len);
  x->code_len = code_len;
  if (options_len) memcpy(x->options, options, options_len);
  x->options_len = options_len;
  size_t nlen = strlen(name);
  bool hlo = nlen >= 7 && !strcmp(name + nlen - 7, ".hlo.pb");
  PJRT_Error *err = dump_program(code, code_len, hlo, options, options_len);
  if (!err) err = read_options(c, options, options_len, x);
  if (err) {
    exe_release(x);
    return err;
  }
  xlac_program *p = NULL;
  err = from_status(xlac_program_parse(code, code_len, name, &p), "Compile");
  /* a program partitioned by hand: a manual computation over every
     partition, whose body the reader made the program of one partition;
     any other program for several partitions is global, and xlac_compile
     partitions it by the shardings of its parameters and results (their
     layouts are then its `mhlo.sharding`, which collect_shardings reads) */
  for (int i = 0; p && i < p->m->nattrs; i++)
    x->manual |= strcmp(p->m->attrs[i].name, "xlac.manual_partitions") == 0;
  if (err) {
    xlac_program_destroy(p);
    exe_release(x);
    return err;
  }
  Func *f = module_entry(p->m);
  const char *mname = p->m->name ? p->m->name : "main";
  x->name = strdup(mname);
  int nparams = f ? f->body->nargs : 0;
  int *donate = calloc((size_t)nparams + 1, sizeof(int));
  bool *hlo_donor = calloc((size_t)nparams + 1, sizeof(bool));
  int ndonate = 0;
  if (hlo_donor) hlo_donors(p->m, hlo_donor, nparams);
  for (int i = 0; donate && hlo_donor && i < nparams; i++)
    if (arg_is_donor(f, i) || hlo_donor[i]) donate[ndonate++] = i;
  free(hlo_donor);
  xlac_compile_options co = {.struct_size = sizeof co, .num_replicas = x->nrep, .num_partitions = x->npart,
                             .donate_args = donate, .num_donate_args = ndonate, .dump_dir = x->dump_dir,
                             .multi_process = x->self >= 0};
  Inspects inspects = {{0}};
  if (x->npart > 1) module_walk(p->m, note_inspect, &inspects);
  err = donate && x->name ? from_status(xlac_compile(c->xc, p, &co, &x->xe), "Compile") : OOM();
  xlac_program_destroy(p);
  if (!err) err = report_inspected(&inspects, x->xe->m, x->manual);
  for (int i = 0; i < inspects.ids.len; i++) free(inspects.ids.data[i]);
  VEC_FREE(inspects.ids);
  if (!err && (!describe_outputs(x) || !(x->donor = calloc((size_t)x->nargs + 1, sizeof(bool))) ||
               !(x->arg_token = calloc((size_t)x->nargs + 1, sizeof(bool))) || !collect_shardings(x)))
    err = OOM();
  for (int i = 0; !err && i < x->nargs; i++) {
    xlac_shape sh;
    xlac_status *st = xlac_executable_arg_shape(x->xe, i, &sh);
    x->arg_token[i] = !st && sh.type == XLAC_TOKEN;
    xlac_status_destroy(st);
  }
  /* donors are parameters; with tuple parameters the leaves differ and
     nothing is donated.  XLA donates only the parameters it aliases with a
     result: those of the same shape and type (the library's pairs, whose
     storage the result takes), then, as XLA pairs donors with results of
     the same size in bytes, each other donor with the first result of its
     size per device not taken yet (its buffer is consumed; the result is
     computed into other memory).  A donor left without a result stays
     alive. */
  int nres = x->xe ? xlac_executable_num_results(x->xe) : 0;
  bool *taken = calloc((size_t)nres + 1, sizeof(bool));
  if (!err && !taken) err = OOM();
  for (int r = 0; !err && r < nres && x->nargs == nparams; r++) {
    int a = xlac_executable_result_alias(x->xe, r);
    for (int k = 0; a >= 0 && k < ndonate; k++)
      if (donate[k] == a) x->donor[a] = taken[r] = true;
  }
  for (int k = 0; !err && k < ndonate && x->nargs == nparams; k++) {
    int a = donate[k];
    int64_t need = leaf_bytes(x->xe, a, true);
    for (int r = 0; !x->donor[a] && need >= 0 && r < nres; r++)
      if (!taken[r] && leaf_bytes(x->xe, r, false) == need) x->donor[a] = taken[r] = true;
  }
  free(taken);
  free(donate);
  if (err) {
    exe_release(x);
    return err;
  }
  uint64_t h = fnv1a(0xcbf29ce484222325ull, code, code_len);
  h = fnv1a(h, options, options_len);
  snprintf(x->fingerprint, sizeof x->fingerprint, "%016" PRIx64, h);
  *out = x;
  return NULL;
}

static PJRT_Error *new_loaded(Exe *x, PJRT_LoadedExecutable **out) {
  PJRT_LoadedExecutable *l = malloc(sizeof *l);
  if (!l) {
    exe_release(x);
    return OOM();
  }
  l->x = x;
  *out = l;
  return NULL;
}

static PJRT_Error *pjrt_client_compile(PJRT_Client_Compile_Args *a) {
  NEED(a->client && a->program, "client or program is NULL");
  const PJRT_Program *pr = a->program;
  bool hlo = pr->format_size == 3 && !memcmp(pr->format, "hlo", 3);
  if (!hlo && !(pr->format_size == 4 && !memcmp(pr->format, "mlir", 4)))
    return error_new(PJRT_Error_Code_UNIMPLEMENTED, "xlac: Compile: program format \"%.*s\" (xlac reads \"mlir\": "
                     "StableHLO bytecode or text, and \"hlo\": a serialized HloModuleProto)", (int)pr->format_size,
                     pr->format ? pr->format : "");
  Exe *x = NULL;
  PJRT_Error *err = compile(a->client, pr->code, pr->code_size, a->compile_options, a->compile_options_size,
                            hlo ? "<hlo program>.hlo.pb" : "<jax program>", &x);
  return err ? err : new_loaded(x, &a->executable);
}

static PJRT_Error *pjrt_executable_destroy(PJRT_Executable_Destroy_Args *a) {
  if (a->executable) {
    exe_release(a->executable->x);
    free(a->executable);
  }
  return NULL;
}

static PJRT_Error *pjrt_loadedexecutable_destroy(PJRT_LoadedExecutable_Destroy_Args *a) {
  if (a->executable) {
    exe_release(a->executable->x);
    free(a->executable);
  }
  return NULL;
}

static PJRT_Error *pjrt_loadedexecutable_getexecutable(PJRT_LoadedExecutable_GetExecutable_Args *a) {
  NEED(a->loaded_executable, "loaded_executable is NULL");
  PJRT_Executable *e = malloc(sizeof *e);
  if (!e) return OOM();
  e->x = a->loaded_executable->x;
  atomic_fetch_add(&e->x->refs, 1);
  a->executable = e;
  return NULL;
}

static PJRT_Error *pjrt_executable_name(PJRT_Executable_Name_Args *a) {
  NEED(a->executable, "executable is NULL");
  a->executable_name = a->executable->x->name;
  a->executable_name_size = strlen(a->executable->x->name);
  return NULL;
}

static PJRT_Error *pjrt_executable_numreplicas(PJRT_Executable_NumReplicas_Args *a) {
  NEED(a->executable, "executable is NULL");
  a->num_replicas = (size_t)a->executable->x->nrep;
  return NULL;
}

static PJRT_Error *pjrt_executable_numpartitions(PJRT_Executable_NumPartitions_Args *a) {
  NEED(a->executable, "executable is NULL");
  a->num_partitions = (size_t)a->executable->x->npart;
  return NULL;
}

static PJRT_Error *pjrt_executable_numoutputs(PJRT_Executable_NumOutputs_Args *a) {
  NEED(a->executable, "executable is NULL");
  a->num_outputs = (size_t)a->executable->x->nout;
  return NULL;
}

static PJRT_Error *pjrt_executable_sizeofgeneratedcodeinbytes(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args *a) {
  a->size_in_bytes = 0; /* not measured */
  return NULL;
}

/* The library's cost of one execution (xlac_executable_stats), under the
   names XLA's cost analysis gives them; JAX hands them to
   compiled.cost_analysis() as a dict of floats. */
static PJRT_Error *pjrt_executable_getcostanalysis(PJRT_Executable_GetCostAnalysis_Args *a) {
  NEED(a->executable, "executable is NULL");
  Exe *x = a->executable->x;
  xlac_executable_stats st = {.struct_size = sizeof st};
  PJRT_Error *err = from_status(xlac_executable_stats_get(x->xe, &st), "GetCostAnalysis");
  if (err) return err;
  static const char *const names[3] = {"flops", "transcendentals", "bytes accessed"};
  const double vals[3] = {st.flops, st.transcendentals, st.bytes_accessed};
  pthread_mutex_lock(&x->mu); /* made once: callers may still read what an earlier call handed out */
  if (!x->cost[0].name)
    for (int i = 0; i < 3; i++)
      x->cost[i] = (PJRT_NamedValue){.struct_size = sizeof x->cost[i], .name = names[i],
                                     .name_size = strlen(names[i]), .type = PJRT_NamedValue_kFloat,
                                     .float_value = (float)vals[i], .value_size = 1};
  pthread_mutex_unlock(&x->mu);
  a->num_properties = 3;
  a->properties = x->cost;
  return NULL;
}

static PJRT_Error *pjrt_executable_outputmemorykinds(PJRT_Executable_OutputMemoryKinds_Args *a) {
  NEED(a->executable, "executable is NULL");
  a->num_outputs = (size_t)a->executable->x->nout;
  a->memory_kinds = a->executable->x->out_kinds;
  a->memory_kind_sizes = a->executable->x->out_kind_sizes;
  return NULL;
}

static PJRT_Error *pjrt_executable_outputelementtypes(PJRT_Executable_OutputElementTypes_Args *a) {
  NEED(a->executable, "executable is NULL");
  a->output_types = a->executable->x->out_types;
  a->num_output_types = (size_t)a->executable->x->nout;
  return NULL;
}

static PJRT_Error *pjrt_executable_outputdimensions(PJRT_Executable_OutputDimensions_Args *a) {
  NEED(a->executable, "executable is NULL");
  a->num_outputs = (size_t)a->executable->x->nout;
  a->dims = a->executable->x->out_dims;
  a->dim_sizes = a->executable->x->out_ranks;
  return NULL;
}

static PJRT_Error *pjrt_executable_optimizedprogram(PJRT_Executable_OptimizedProgram_Args *a) {
  NEED(a->executable && a->program, "executable or program is NULL");
  Exe *x = a->executable->x;
  pthread_mutex_lock(&x->mu);
  PJRT_Error *err = NULL;
  /* (JAX reads the shardings of a partitioned program's parameters and
     results from here: `mhlo.sharding` of the entry function) */
  if (!x->optimized)
    err = from_status(xlac_executable_print(x->xe, XLAC_FORMAT_STABLEHLO, &x->optimized, &x->optimized_len),
                      "OptimizedProgram");
  pthread_mutex_unlock(&x->mu);
  if (err) return err;
  PJRT_Program *p = a->program;
  p->format = "mlir";
  p->format_size = 4;
  if (!p->code) {
    p->code_size = x->optimized_len;
    return NULL;
  }
  if (p->code_size < x->optimized_len)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: OptimizedProgram: %zu bytes given, the program has %zu",
                     p->code_size, x->optimized_len);
  memcpy(p->code, x->optimized, x->optimized_len);
  p->code_size = x->optimized_len;
  return NULL;
}

static PJRT_Error *pjrt_executable_fingerprint(PJRT_Executable_Fingerprint_Args *a) {
  NEED(a->executable, "executable is NULL");
  a->executable_fingerprint = a->executable->x->fingerprint;
  a->executable_fingerprint_size = strlen(a->executable->x->fingerprint);
  return NULL;
}

static PJRT_Error *pjrt_loadedexecutable_fingerprint(PJRT_LoadedExecutable_Fingerprint_Args *a) {
  NEED(a->executable, "executable is NULL");
  a->executable_fingerprint = a->executable->x->fingerprint;
  a->executable_fingerprint_size = strlen(a->executable->x->fingerprint);
  return NULL;
}

static PJRT_Error *pjrt_executable_getcompiledmemorystats(PJRT_Executable_GetCompiledMemoryStats_Args *a) {
  NEED(a->executable, "executable is NULL");
  xlac_executable_stats st = {.struct_size = sizeof st};
  PJRT_Error *err = from_status(xlac_executable_stats_get(a->executable->x->xe, &st), "GetCompiledMemoryStats");
  if (err) return err;
  a->generated_code_size_in_bytes = 0;
  a->argument_size_in_bytes = st.arg_bytes;
  a->output_size_in_bytes = st.result_bytes;
  a->alias_size_in_bytes = 0;
  a->temp_size_in_bytes = st.temp_bytes;
  a->host_generated_code_size_in_bytes = a->host_argument_size_in_bytes = a->host_output_size_in_bytes = 0;
  a->host_alias_size_in_bytes = a->host_temp_size_in_bytes = 0;
  a->peak_memory_in_bytes = st.arg_bytes + st.result_bytes + st.temp_bytes;
  a->total_size_in_bytes = a->peak_memory_in_bytes;
  return NULL;
}

/* Blobs handed out with a deleter: a serialized executable, compile
   options, a device assignment. */
typedef struct Blob {
  size_t len;
  char data[];
} Blob;

static Blob *blob_new(size_t len) {
  Blob *b = malloc(sizeof *b + len + 1);
  if (b) b->len = len;
  return b;
}

static void blob_free_exe(PJRT_SerializedExecutable *p) { free(p); }
static void blob_free_options(PJRT_SerializedCompileOptions *p) { free(p); }
static void blob_free_assignment(PJRT_DeviceAssignmentSerialized *p) { free(p); }

/* A serialized executable: the program and its compile options, compiled
   again when loaded (a compile cache directory, XLAC_COMPILE_CACHE, makes
   that a load of the compiled code). */
static const char serial_magic[8] = "XLACPJR1";

static PJRT_Error *pjrt_executable_serialize(PJRT_Executable_Serialize_Args *a) {
  NEED(a->executable, "executable is NULL");
  const Exe *x = a->executable->x;
  uint64_t lens[2] = {x->options_len, x->code_len};
  Blob *b = blob_new(sizeof serial_magic + sizeof lens + x->options_len + x->code_len);
  if (!b) return OOM();
  char *p = b->data;
  memcpy(p, serial_magic, sizeof serial_magic);
  memcpy(p += sizeof serial_magic, lens, sizeof lens);
  memcpy(p += sizeof lens, x->options, x->options_len);
  memcpy(p + x->options_len, x->code, x->code_len);
  a->serialized_bytes = b->data;
  a->serialized_bytes_size = b->len;
  a->serialized_executable = (PJRT_SerializedExecutable *)b;
  a->serialized_executable_deleter = blob_free_exe;
  return NULL;
}

static PJRT_Error *pjrt_executable_deserializeandload(PJRT_Executable_DeserializeAndLoad_Args *a) {
  NEED(a->client && a->serialized_executable, "client or serialized_executable is NULL");
  const char *p = a->serialized_executable;
  size_t n = a->serialized_executable_size;
  uint64_t lens[2];
  if (n < sizeof serial_magic + sizeof lens || memcmp(p, serial_magic, sizeof serial_magic))
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: DeserializeAndLoad: not an executable xlac serialized");
  memcpy(lens, p + sizeof serial_magic, sizeof lens);
  size_t head = sizeof serial_magic + sizeof lens;
  if (lens[0] > n - head || lens[1] > n - head - lens[0])
    return error_new(PJRT_Error_Code_DATA_LOSS, "xlac: DeserializeAndLoad: the serialized executable is truncated");
  const char *opts = p + head, *code = opts + lens[0];
  size_t opts_len = lens[0];
  bool override = PJRT_SIZE_UPTO(PJRT_Executable_DeserializeAndLoad_Args, overridden_serialized_compile_options_size) <=
                      a->struct_size && a->overridden_serialized_compile_options;
  if (override) {
    opts = a->overridden_serialized_compile_options;
    opts_len = a->overridden_serialized_compile_options_size;
  }
  Exe *x = NULL;
  PJRT_Error *err = compile(a->client, code, lens[1], opts, opts_len, "<jax program>", &x);
  return err ? err : new_loaded(x, &a->loaded_executable);
}

static PJRT_Error *pjrt_executable_getcompileoptions(PJRT_Executable_GetCompileOptions_Args *a) {
  NEED(a->executable, "executable is NULL");
  const Exe *x = a->executable->x;
  Blob *b = blob_new(x->options_len);
  if (!b) return OOM();
  memcpy(b->data, x->options, x->options_len);
  a->serialized_bytes = b->data;
  a->serialized_bytes_size = b->len;
  a->serialized_compile_options = (PJRT_SerializedCompileOptions *)b;
  a->serialized_compile_options_deleter = blob_free_options;
  return NULL;
}

static PJRT_Error *pjrt_loadedexecutable_getdeviceassignment(PJRT_LoadedExecutable_GetDeviceAssignment_Args *a) {
  NEED(a->executable, "executable is NULL");
  const Exe *x = a->executable->x;
  Xla__DeviceAssignmentProto da = XLA__DEVICE_ASSIGNMENT_PROTO__INIT;
  da.replica_count = x->nrep;
  da.computation_count = x->npart;
  Xla__DeviceAssignmentProto__ComputationDevice *cds = calloc((size_t)x->npart, sizeof *cds);
  Xla__DeviceAssignmentProto__ComputationDevice **cdp = calloc((size_t)x->npart, sizeof *cdp);
  int64_t *ids = calloc((size_t)x->ndev, sizeof *ids);
  Blob *b = NULL;
  if (cds && cdp && ids) {
    for (int p = 0; p < x->npart; p++) {
      xla__device_assignment_proto__computation_device__init(&cds[p]);
      cds[p].n_replica_device_ids = (size_t)x->nrep;
      cds[p].replica_device_ids = ids + (size_t)p * (size_t)x->nrep;
      for (int r = 0; r < x->nrep; r++) cds[p].replica_device_ids[r] = x->assign[r * x->npart + p];
      cdp[p] = &cds[p];
    }
    da.n_computation_devices = (size_t)x->npart;
    da.computation_devices = cdp;
    b = blob_new(xla__device_assignment_proto__get_packed_size(&da));
    if (b) xla__device_assignment_proto__pack(&da, (uint8_t *)b->data);
  }
  free(cds);
  free(cdp);
  free(ids);
  if (!b) return OOM();
  a->serialized_bytes = b->data;
  a->serialized_bytes_size = b->len;
  a->serialized_device_assignment = (PJRT_DeviceAssignmentSerialized *)b;
  a->serialized_device_assignment_deleter = blob_free_assignment;
  return NULL;
}

static PJRT_Error *pjrt_loadedexecutable_addressabledevices(PJRT_LoadedExecutable_AddressableDevices_Args *a) {
  NEED(a->executable, "executable is NULL");
  Exe *x = a->executable->x;
  /* a portable executable runs anywhere */
  a->addressable_devices = x->portable ? x->client->addr_list : x->addr;
  a->num_addressable_devices = (size_t)(x->portable ? x->client->nlocal : x->naddr);
  return NULL;
}

static PJRT_Error *pjrt_loadedexecutable_delete(PJRT_LoadedExecutable_Delete_Args *a) {
  NEED(a->executable, "executable is NULL");
  atomic_store(&a->executable->x->deleted, true);
  return NULL;
}

static PJRT_Error *pjrt_loadedexecutable_isdeleted(PJRT_LoadedExecutable_IsDeleted_Args *a) {
  NEED(a->executable, "executable is NULL");
  a->is_deleted = atomic_load(&a->executable->x->deleted);
  return NULL;
}

static bool non_donatable(const PJRT_ExecuteOptions *o, int arg) {
  if (!o || o->struct_size < PJRT_SIZE_UPTO(PJRT_ExecuteOptions, num_non_donatable_input_indices)) return false;
  for (size_t i = 0; i < o->num_non_donatable_input_indices; i++)
    if (o->non_donatable_input_indices[i] == arg) return true;
  return false;
}

/* ---- programs over several processes ----
 * The MPI communicator numbers the processes (ranks); the program numbers
 * its devices.  SetComm translates the program's device ids in each call
 * into the ranks of the processes that own those devices. */
typedef struct SetComm {
  xlacrt_comm base;
  xlacrt_comm_ops ops;
  xlacrt_comm *inner;
  const Exe *x;
  bool by_device; /* the inner ids are global device ids (the net), else processes (MPI, one device each) */
} SetComm;

static bool set_ranks(SetComm *sc, int32_t n, const int32_t *ids, int32_t *ranks) {
  for (int32_t k = 0; k < n; k++) {
    if (ids[k] < 0 || ids[k] >= sc->x->ndev) {
      snprintf(sc->base.msg, sizeof sc->base.msg, "device %d is not one of the program's %d", ids[k], sc->x->ndev);
      return false;
    }
    int g = sc->x->assign[ids[k]];
    ranks[k] = sc->by_device ? g : sc->x->client->devs[g].process;
  }
  return true;
}

static int set_result(SetComm *sc, int rc) {
  if (rc != XLACRT_COMM_OK) memcpy(sc->base.msg, sc->inner->msg, sizeof sc->base.msg);
  return rc;
}

static int set_meet(xlacrt_comm *c, int64_t key, int32_t n, const int32_t *ids, int32_t me, int32_t nbufs,
                    const void *const *bufs, const int64_t *bytes, const int64_t *sigs, const void **peers) {
  SetComm *sc = (SetComm *)c;
  int32_t ranks[n > 0 ? n : 1];
  if (!set_ranks(sc, n, ids, ranks)) return XLACRT_COMM_FAILED;
  return set_result(sc, sc->inner->ops->meet(sc->inner, key, n, ranks, me, nbufs, bufs, bytes, sigs, peers));
}

static void set_leave(xlacrt_comm *c) {
  SetComm *sc = (SetComm *)c;
  sc->inner->ops->leave(sc->inner);
}

static int set_send(xlacrt_comm *c, int64_t channel, int32_t nbufs, const void *const *bufs, const int64_t *bytes,
                    const int64_t *sigs) {
  SetComm *sc = (SetComm *)c;
  return set_result(sc, sc->inner->ops->send(sc->inner, channel, nbufs, bufs, bytes, sigs));
}

static int set_recv(xlacrt_comm *c, int64_t channel, int32_t nbufs, void *const *bufs, const int64_t *bytes,
                    const int64_t *sigs) {
  SetComm *sc = (SetComm *)c;
  return set_result(sc, sc->inner->ops->recv(sc->inner, channel, nbufs, bufs, bytes, sigs));
}

static int set_collective(xlacrt_comm *c, xlacrt_pool *p, const struct xlacrt_coll *d, int32_t n, const int32_t *ids,
                          int32_t me, const void *const *ins, void *const *outs, const int32_t *roots) {
  SetComm *sc = (SetComm *)c;
  int32_t ranks[n > 0 ? n : 1];
  if (!set_ranks(sc, n, ids, ranks)) return XLACRT_COMM_FAILED;
  return set_result(sc, sc->inner->ops->collective(sc->inner, p, d, n, ranks, me, ins, outs, roots));
}

/* One local device's part of a program over several processes (the net). */
typedef struct Part {
  Exe *x;
  int k;                  /* its place in the program */
  int dev;                /* the xlac device */
  xlacrt_comm *endpoint;
  xlac_buffer **args, **res;
  const xlac_execute_options *eo;
  xlac_status *s;
} Part;

static void *run_part(void *arg) {
  Part *p = arg;
  SetComm sc = {.inner = p->endpoint, .x = p->x, .by_device = true};
  sc.ops = (xlacrt_comm_ops){set_meet, set_leave, set_send, set_recv, NULL};
  sc.base.ops = &sc.ops;
  p->s = xlac_executable_execute_in_set(p->x->xe, p->k, p->dev, &sc.base, p->args, p->x->nargs, p->eo, p->res);
  /* the other members stop waiting for this one at once */
  if (p->s) net_endpoint_fail(p->endpoint);
  return NULL;
}

/* Runs this process's devices of a program over several processes, each
   on a thread of its own, their endpoints held in the order of the
   devices (so that two executions never wait for each other's). */
static PJRT_Error *execute_net(Exe *x, int nd, xlac_buffer ***args, const xlac_execute_options *eo,
                               xlac_buffer ***res) {
  Net *t = x->client->procs_of.net;
  Part parts[nd];
  pthread_t th[nd];
  bool started[nd];
  char why[512] = "";
  int held = 0;
  PJRT_Error *err = NULL;
  for (int d = 0; d < nd; d++) {
    parts[d] = (Part){x, x->local[d], eo->devices[d], net_endpoint(t, eo->devices[d]), args[d], res[d], eo, NULL};
    started[d] = false;
  }
  for (; held < nd; held++)
    if (!net_endpoint_begin(parts[held].endpoint, why, sizeof why)) {
      err = error_new(PJRT_Error_Code_UNAVAILABLE, "xlac: Execute: %s", why);
      break;
    }
  for (int d = 1; !err && d < nd; d++) started[d] = pthread_create(&th[d], NULL, run_part, &parts[d]) == 0;
  if (!err) run_part(&parts[0]);
  for (int d = 1; !err && d < nd; d++) {
    if (started[d]) pthread_join(th[d], NULL);
    else parts[d].s = xlac_status_create(XLAC_OUT_OF_MEMORY, "cannot start a thread for device %d", d);
  }
  for (int d = 0; d < held; d++) net_endpoint_end(parts[d].endpoint, !err && !parts[d].s);
  for (int d = 0; d < nd; d++) {
    if (!err && parts[d].s) err = from_status(parts[d].s, "Execute");
    else xlac_status_destroy(parts[d].s);
    if (parts[d].s) /* one device failed: none returns results */
      for (int e = 0; e < nd; e++)
        for (int i = 0; i < x->nout; i++)
          if (res[e][i]) {
            xlac_buffer_destroy(res[e][i]);
            res[e][i] = NULL;
          }
  }
  return err;
}

/* Runs this process's device of a program over every process (MPI). */
static PJRT_Error *execute_across(Exe *x, xlac_buffer **args, const xlac_execute_options *eo, xlac_buffer **res) {
  Processes *pr = &x->client->procs_of;
  char why[512] = "";
  xlacrt_comm *inner = pr->begin(pr->mpi, why, sizeof why);
  if (!inner) return error_new(PJRT_Error_Code_UNAVAILABLE, "xlac: Execute: %s", why);
  SetComm sc = {.inner = inner, .x = x};
  sc.ops = (xlacrt_comm_ops){set_meet, set_leave, set_send, set_recv, inner->ops->collective ? set_collective : NULL};
  sc.base.ops = &sc.ops;
  xlac_status *s = xlac_executable_execute_in_set(x->xe, x->self, eo->devices[0], &sc.base, args, x->nargs, eo, res);
  pr->end(pr->mpi, s == NULL);
  return from_status(s, "Execute");
}

static PJRT_Error *pjrt_loadedexecutable_execute(PJRT_LoadedExecutable_Execute_Args *a) {
  NEED(a->executable, "executable is NULL");
  Exe *x = a->executable->x;
  if (atomic_load(&x->deleted))
    return error_new(PJRT_Error_Code_FAILED_PRECONDITION, "xlac: Execute: the executable was deleted");
  bool on_device = PJRT_SIZE_UPTO(PJRT_LoadedExecutable_Execute_Args, execute_device) <= a->struct_size &&
                   a->execute_device;
  int nd = (int)a->num_devices;
  if (on_device && (x->ndev != 1 || nd != 1))
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: Execute: execute_device is given, but the executable "
                     "runs on %d devices", x->ndev);
  /* a program on other processes' devices only: nothing runs here */
  if (!on_device && x->naddr == 0 && a->num_devices == 0) return NULL;
  if (!on_device && x->naddr == 0)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: Execute: %zu argument lists, but the executable runs "
                     "on other processes' devices only", a->num_devices);
  if (nd != (on_device ? 1 : x->naddr))
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: Execute: %d argument lists, the executable runs on %d "
                     "devices%s", nd, x->naddr, x->self >= 0 ? " of this process" : "");
  if ((int)a->num_args != x->nargs)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: Execute: %zu arguments, the program takes %d",
                     a->num_args, x->nargs);
  if (on_device && a->execute_device->id < 0)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: Execute: device %d belongs to process %d, not this one",
                     a->execute_device->desc.id, a->execute_device->process);
  int devs[nd > 0 ? nd : 1]; /* the xlac device of each argument list */
  for (int d = 0; d < nd; d++) devs[d] = on_device ? a->execute_device->id : x->addr[d]->id;
  xlac_buffer **argv = calloc((size_t)nd * (size_t)x->nargs + 1, sizeof *argv);
  xlac_buffer **resv = calloc((size_t)nd * (size_t)x->nout + 1, sizeof *resv);
  xlac_buffer **argp[nd > 0 ? nd : 1], **resp[nd > 0 ? nd : 1];
  int *donate = calloc((size_t)x->nargs + 1, sizeof(int));
  xlac_buffer **made = calloc((size_t)nd * (size_t)x->nargs + 1, sizeof *made); /* tokens made for the call */
  int nmade = 0;
  PJRT_Error *err = argv && resv && donate && made ? NULL : OOM();
  int ndonate = 0;
  for (int i = 0; !err && i < x->nargs; i++) {
    bool give = x->donor[i] && !non_donatable(a->options, i);
    for (int d = 0; !err && d < nd; d++) {
      PJRT_Buffer *b = a->argument_lists[d][i];
      if (!b) err = error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: Execute: argument %d of device %d is NULL", i, d);
      else if ((err = buffer_defined(b, "Execute")))
        ;
      else if (buffer_deleted(b))
        err = error_new(PJRT_Error_Code_FAILED_PRECONDITION, "xlac: Execute: argument %d of device %d was deleted or "
                        "donated", i, d);
      else argv[(size_t)d * (size_t)x->nargs + (size_t)i] = b->xb;
      /* JAX passes a token as an empty bool[0] array */
      if (!err && x->arg_token[i] && b->type != XLAC_TOKEN) {
        xlac_buffer *tok = NULL;
        err = from_status(xlac_buffer_from_host(x->client->xc, devs[d], XLAC_TOKEN, NULL, 0, NULL, 0, 0, &tok),
                          "Execute");
        argv[(size_t)d * (size_t)x->nargs + (size_t)i] = tok;
        if (tok) made[nmade++] = tok;
        give = false;
      }
      /* memory someone outside holds (a numpy view) is not given away */
      if (!err && atomic_load(&b->ext_refs) > 0) give = false;
    }
    if (give) donate[ndonate++] = i;
  }
  for (int d = 0; d < nd; d++) {
    argp[d] = argv + (size_t)d * (size_t)x->nargs;
    resp[d] = resv + (size_t)d * (size_t)x->nout;
  }
  if (!err) {
    xlac_execute_options eo = {.struct_size = sizeof eo, .donate_args = donate, .num_donate_args = ndonate,
                               .devices = devs};
    int64_t t0 = profiler_start_time(); /* 0: no profiling session */
    if (x->self >= 0 && x->client->procs_of.net)
      err = execute_net(x, nd, argp, &eo, resp);
    else if (x->self >= 0)
      err = execute_across(x, argp[0], &eo, resp[0]);
    else
      err = from_status(xlac_executable_execute(x->xe, nd, (xlac_buffer *const *const *)argp, &eo, resp), "Execute");
    if (t0) profiler_record_run(x->name, x->xe, devs, nd, t0, err != NULL);
  }
  if (!err) {
    /* donated arguments are gone: their handles report deleted */
    for (int k = 0; k < ndonate; k++)
      for (int d = 0; d < nd; d++) buffer_release(a->argument_lists[d][donate[k]]);
    for (int d = 0; d < nd; d++)
      for (int i = 0; i < x->nout; i++) {
        PJRT_Buffer *b = buffer_wrap(x->client, resp[d][i]);
        resp[d][i] = NULL;
        if (!b) err = OOM();
        a->output_lists[d][i] = b;
      }
    if (err)
      for (int d = 0; d < nd; d++)
        for (int i = 0; i < x->nout; i++) {
          pjrt_buffer_destroy(&(PJRT_Buffer_Destroy_Args){.struct_size = sizeof(PJRT_Buffer_Destroy_Args),
                                                          .buffer = a->output_lists[d][i]});
          a->output_lists[d][i] = NULL;
        }
    for (int d = 0; !err && a->device_complete_events && d < nd; d++)
      if (!(a->device_complete_events[d] = event_new(true, 0, NULL))) err = OOM();
  }
  for (int k = 0; k < nmade; k++) xlac_buffer_destroy(made[k]);
  free(made);
  free(argv);
  free(resv);
  free(donate);
  return err;
}

/* buffer_unusable (declared with buffer_deleted) */
static PJRT_Error *buffer_unusable(PJRT_Buffer *b, const char *fn) {
  PJRT_Error *e = buffer_defined(b, fn);
  if (e) return e;
  return buffer_deleted(b) ? deleted_error(fn) : NULL;
}

/* ---- buffers filled from the host piece by piece ----
 * JAX receives arrays from other processes (device_put across them)
 * into buffers it makes with a transfer manager: their shapes first,
 * their bytes later, from another thread.  Each buffer exists from the
 * start (zeros) with its `defined` event unset; its bytes gather in a
 * staging copy, and the last piece makes the xlac buffer of them and sets
 * the event.  Whatever reads a buffer waits for it (buffer_defined).
 * A buffer handed to the caller is the caller's: it may be destroyed
 * before the manager, so the manager holds the `defined` events itself
 * (both hold each one; the last to let go destroys it) and never touches
 * a retrieved buffer when it is destroyed. */
struct PJRT_AsyncHostToDeviceTransferManager {
  PJRT_Client *client;
  PJRT_Device *device;
  int n;
  PJRT_Buffer **bufs;   /* [n] */
  PJRT_Event **defined; /* [n]: the buffers' `defined` events, held */
  bool *retrieved;      /* [n]: handed to the caller, who owns it */
  uint8_t **staging;    /* [n]: the bytes so far (NULL once defined) */
  pthread_mutex_t mu;
};

static PJRT_Error *transfer_manager_destroy(PJRT_AsyncHostToDeviceTransferManager_Destroy_Args *a) {
  PJRT_AsyncHostToDeviceTransferManager *m = a->transfer_manager;
  if (!m) return NULL;
  for (int i = 0; i < m->n; i++) {
    PJRT_Event *e = m->defined ? m->defined[i] : NULL;
    if (e) { /* never completed: whoever waits learns it */
      pthread_mutex_lock(&e->mu);
      bool set = e->ready;
      pthread_mutex_unlock(&e->mu);
      if (!set) {
        static const char why[] = "the transfer manager was destroyed before the data arrived";
        pjrt_event_set(&(PJRT_Event_Set_Args){.struct_size = sizeof(PJRT_Event_Set_Args), .event = e,
                                              .error_code = PJRT_Error_Code_CANCELLED, .error_message = why,
                                              .error_message_size = sizeof why - 1});
      }
      event_drop(e);
    }
    PJRT_Buffer *b = m->bufs[i];
    if (b && !m->retrieved[i])
      pjrt_buffer_destroy(&(PJRT_Buffer_Destroy_Args){.struct_size = sizeof(PJRT_Buffer_Destroy_Args), .buffer = b});
    free(m->staging[i]);
  }
  free(m->bufs);
  free(m->defined);
  free(m->retrieved);
  free(m->staging);
  pthread_mutex_destroy(&m->mu);
  free(m);
  return NULL;
}

static PJRT_Error *pjrt_client_createbuffersforasynchosttodevice(
    PJRT_Client_CreateBuffersForAsyncHostToDevice_Args *a) {
  NEED(a->client && (a->shape_specs || !a->num_shape_specs), "client or shape_specs is NULL");
  PJRT_Client *c = a->client;
  PJRT_Device *dev = a->memory ? a->memory->device : c->addr_list[0];
  if (dev->id < 0)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: CreateBuffersForAsyncHostToDevice: device %d belongs to "
                     "process %d, not this one", dev->desc.id, dev->process);
  for (size_t i = 0; i < a->num_device_layouts && a->device_layouts; i++)
    if (a->device_layouts[i] && !default_layout(a->device_layouts[i], (int)a->shape_specs[i].num_dims))
      return error_new(PJRT_Error_Code_UNIMPLEMENTED, "xlac: CreateBuffersForAsyncHostToDevice: only the default "
                       "(row-major) device layout");
  if (a->num_shape_specs > 4096)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: CreateBuffersForAsyncHostToDevice: %zu buffers",
                     a->num_shape_specs);
  PJRT_AsyncHostToDeviceTransferManager *m = calloc(1, sizeof *m);
  if (!m) return OOM();
  pthread_mutex_init(&m->mu, NULL);
  m->client = c;
  m->device = dev;
  m->bufs = calloc(a->num_shape_specs + 1, sizeof *m->bufs);
  m->retrieved = calloc(a->num_shape_specs + 1, sizeof *m->retrieved);
  m->staging = calloc(a->num_shape_specs + 1, sizeof *m->staging);
  m->defined = calloc(a->num_shape_specs + 1, sizeof *m->defined);
  PJRT_Error *err = m->bufs && m->retrieved && m->staging && m->defined ? NULL : OOM();
  for (size_t i = 0; !err && i < a->num_shape_specs; i++, m->n++) {
    const PJRT_ShapeSpec *sp = &a->shape_specs[i];
    PJRT_Client_CreateUninitializedBuffer_Args u = {
        .struct_size = sizeof u, .client = c, .shape_dims = sp->dims, .shape_num_dims = sp->num_dims,
        .shape_element_type = sp->element_type, .device = dev};
    err = pjrt_client_createuninitializedbuffer(&u);
    if (err) break;
    m->bufs[i] = u.buffer;
    if ((u.buffer->defined = event_new(false, 0, NULL))) {
      u.buffer->defined->holders = 2; /* the buffer and the manager */
      m->defined[i] = u.buffer->defined;
    }
    if (!u.buffer->defined || !(m->staging[i] = calloc(u.buffer->bytes ? u.buffer->bytes : 1, 1)))
      err = OOM();
  }
  if (err) {
    transfer_manager_destroy(&(PJRT_AsyncHostToDeviceTransferManager_Destroy_Args){
        .struct_size = sizeof(PJRT_AsyncHostToDeviceTransferManager_Destroy_Args), .transfer_manager = m});
    return err;
  }
  a->transfer_manager = m;
  return NULL;
}

static PJRT_Error *manager_index(PJRT_AsyncHostToDeviceTransferManager *m, int i, const char *fn) {
  if (!m) return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: %s: transfer_manager is NULL", fn);
  if (i < 0 || i >= m->n)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: %s: buffer %d of %d", fn, i, m->n);
  return NULL;
}

/* Bytes [offset, offset + size) of buffer i; the last piece defines it. */
static PJRT_Error *manager_put(PJRT_AsyncHostToDeviceTransferManager *m, int i, const void *data, int64_t offset,
                               int64_t size, bool last, const char *fn) {
  PJRT_Error *err = manager_index(m, i, fn);
  if (err) return err;
  PJRT_Buffer *b = m->bufs[i];
  pthread_mutex_lock(&m->mu);
  uint8_t *st = m->staging[i];
  if (!st) err = error_new(PJRT_Error_Code_FAILED_PRECONDITION, "xlac: %s: buffer %d is complete already", fn, i);
  else if (offset < 0 || size < 0 || (uint64_t)offset + (uint64_t)size > b->bytes)
    err = error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: %s: bytes %" PRId64 "..%" PRId64 " of a buffer of %zu",
                    fn, offset, offset + size, b->bytes);
  else if (size && !data)
    err = error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: %s: data is NULL", fn);
  if (!err && size) memcpy(st + offset, data, (size_t)size);
  xlac_buffer *made = NULL, *old = NULL;
  if (!err && last) {
    err = from_status(xlac_buffer_from_host(m->client->xc, m->device->id, b->type, b->dims, b->rank, st, b->bytes, 0,
                                            &made), fn);
    if (!err) {
      pthread_mutex_lock(&b->mu);
      old = b->xb;
      b->xb = made;
      pthread_mutex_unlock(&b->mu);
      free(st);
      m->staging[i] = NULL;
    }
  }
  pthread_mutex_unlock(&m->mu);
  xlac_buffer_destroy(old);
  if (!err && last)
    pjrt_event_set(&(PJRT_Event_Set_Args){.struct_size = sizeof(PJRT_Event_Set_Args), .event = m->defined[i]});
  return err;
}

static PJRT_Error *transfer_manager_transferdata(PJRT_AsyncHostToDeviceTransferManager_TransferData_Args *a) {
  PJRT_Error *e = manager_put(a->transfer_manager, a->buffer_index, a->data, a->offset, a->transfer_size,
                              a->is_last_transfer, "TransferData");
  if (e) return e;
  /* the bytes are copied: the host buffer is free on return */
  a->done_with_h2d_transfer = event_new(true, 0, NULL);
  return a->done_with_h2d_transfer ? NULL : OOM();
}

static PJRT_Error *transfer_manager_transferliteral(PJRT_AsyncHostToDeviceTransferManager_TransferLiteral_Args *a) {
  PJRT_Error *e = manager_index(a->transfer_manager, a->buffer_index, "TransferLiteral");
  if (e) return e;
  PJRT_Buffer *b = a->transfer_manager->bufs[a->buffer_index];
  bool same = a->shape_num_dims == (size_t)b->rank && (int)to_pjrt_type(b->type) == (int)a->shape_element_type &&
              default_layout(a->shape_layout, b->rank);
  for (int d = 0; same && d < b->rank; d++) same = a->shape_dims[d] == b->dims[d];
  if (!same)
    return error_new(PJRT_Error_Code_INVALID_ARGUMENT, "xlac: TransferLiteral: the literal's shape or layout is not "
                     "buffer %d's", a->buffer_index);
  if ((e = manager_put(a->transfer_manager, a->buffer_index, a->data, 0, (int64_t)b->bytes, true, "TransferLiteral")))
    return e;
  a->done_with_h2d_transfer = event_new(true, 0, NULL);
  return a->done_with_h2d_transfer ? NULL : OOM();
}

static PJRT_Error *transfer_manager_retrievebuffer(PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer_Args *a) {
  PJRT_Error *e = manager_index(a->transfer_manager, a->buffer_index, "RetrieveBuffer");
  if (e) return e;
  PJRT_AsyncHostToDeviceTransferManager *m = a->transfer_manager;
  pthread_mutex_lock(&m->mu);
  bool twice = m->retrieved[a->buffer_index];
  m->retrieved[a->buffer_index] = true;
  pthread_mutex_unlock(&m->mu);
  if (twice)
    return error_new(PJRT_Error_Code_FAILED_PRECONDITION, "xlac: RetrieveBuffer: buffer %d was retrieved already",
                     a->buffer_index);
  a->buffer_out = m->bufs[a->buffer_index];
  return NULL;
}

static PJRT_Error *transfer_manager_device(PJRT_AsyncHostToDeviceTransferManager_Device_Args *a) {
  NEED(a->transfer_manager, "transfer_manager is NULL");
  a->device_out = a->transfer_manager->device;
  return NULL;
}

static PJRT_Error *transfer_manager_buffercount(PJRT_AsyncHostToDeviceTransferManager_BufferCount_Args *a) {
  NEED(a->transfer_manager, "transfer_manager is NULL");
  a->buffer_count = (size_t)a->transfer_manager->n;
  return NULL;
}

static PJRT_Error *transfer_manager_buffersize(PJRT_AsyncHostToDeviceTransferManager_BufferSize_Args *a) {
  PJRT_Error *e = manager_index(a->transfer_manager, a->buffer_index, "BufferSize");
  if (e) return e;
  a->buffer_size = a->transfer_manager->bufs[a->buffer_index]->bytes;
  return NULL;
}

static PJRT_Error *transfer_manager_setbuffererror(PJRT_AsyncHostToDeviceTransferManager_SetBufferError_Args *a) {
  PJRT_Error *e = manager_index(a->transfer_manager, a->buffer_index, "SetBufferError");
  if (e) return e;
  PJRT_AsyncHostToDeviceTransferManager *m = a->transfer_manager;
  pthread_mutex_lock(&m->mu);
  bool open = m->staging[a->buffer_index] != NULL;
  free(m->staging[a->buffer_index]);
  m->staging[a->buffer_index] = NULL;
  pthread_mutex_unlock(&m->mu);
  if (!open)
    return error_new(PJRT_Error_Code_FAILED_PRECONDITION, "xlac: SetBufferError: buffer %d is complete already",
                     a->buffer_index);
  return pjrt_event_set(&(PJRT_Event_Set_Args){.struct_size = sizeof(PJRT_Event_Set_Args),
                                               .event = m->defined[a->buffer_index],
                                               .error_code = a->error_code ? a->error_code : PJRT_Error_Code_UNKNOWN,
                                               .error_message = a->error_message,
                                               .error_message_size = a->error_message_size});
}

static PJRT_Error *transfer_manager_addmetadata(PJRT_AsyncHostToDeviceTransferManager_AddMetadata_Args *a) {
  NEED(a->transfer_manager, "transfer_manager is NULL");
  return NULL; /* nothing of it matters to xlac */
}

/* ---- processes ----
 * jaxlib tells the client about the processes of a distributed run as
 * their states change (and aborts the process if the call fails).  xlac
 * runs in one process; it records what it is told. */
static PJRT_Error *pjrt_client_updateglobalprocessinfo(PJRT_Client_UpdateGlobalProcessInfo_Args *a) {
  NEED(a->client, "client is NULL");
  NEED(a->process_infos || !a->num_process_infos, "process_infos is NULL");
  int connected = 0, failed = 0;
  for (size_t i = 0; i < a->num_process_infos; i++) {
    connected += a->process_infos[i].state == PJRT_ProcessState_kConnected;
    failed += a->process_infos[i].state == PJRT_ProcessState_kError;
  }
  atomic_store(&a->client->procs, (int)a->num_process_infos);
  atomic_store(&a->client->procs_connected, connected);
  atomic_store(&a->client->procs_failed, failed);
  return NULL;
}

/* ---- the table ---- */

/* Entries xlac does not provide answer UNIMPLEMENTED, naming themselves. */
#define UNIMPLEMENTED(name)                                                                                            \
  static PJRT_Error *unimpl_##name(void *args) {                                                                       \
    (void)args;                                                                                                        \
    return error_new(PJRT_Error_Code_UNIMPLEMENTED, "xlac: PJRT_" #name " is not implemented");                        \
  }
UNIMPLEMENTED(CopyToDeviceStream_Destroy)
UNIMPLEMENTED(CopyToDeviceStream_AddChunk)
UNIMPLEMENTED(CopyToDeviceStream_TotalBytes)
UNIMPLEMENTED(CopyToDeviceStream_GranuleSize)
UNIMPLEMENTED(CopyToDeviceStream_CurrentBytes)
UNIMPLEMENTED(TopologyDescription_Create)
UNIMPLEMENTED(TopologyDescription_Serialize)
UNIMPLEMENTED(Compile)
UNIMPLEMENTED(Client_CreateViewOfDeviceBuffer)
UNIMPLEMENTED(ExecuteContext_Create)
UNIMPLEMENTED(ExecuteContext_Destroy)
UNIMPLEMENTED(Client_DmaMap)
UNIMPLEMENTED(Client_DmaUnmap)
UNIMPLEMENTED(TopologyDescription_Deserialize)
UNIMPLEMENTED(Client_CreateAliasBuffer)
UNIMPLEMENTED(Client_FulfillAliasBuffer)
UNIMPLEMENTED(Client_CreateErrorBuffer)
UNIMPLEMENTED(Buffer_CopyRawToHostFuture)
UNIMPLEMENTED(Device_PoisonExecution)
UNIMPLEMENTED(Device_CreateAsyncTrackingEvent)
UNIMPLEMENTED(AsyncTrackingEvent_Destroy)
UNIMPLEMENTED(Buffer_DonateWithControlDependency)

static const PJRT_Shardings_Extension shardings_extension = {
    .base = {.struct_size = sizeof(PJRT_Shardings_Extension), .type = PJRT_Extension_Type_Shardings,
             .next = (PJRT_Extension_Base *)&xlac_profiler_extension}, /* profiler.c */
    .PJRT_Shardings_PJRT_Executable_ParameterShardings = pjrt_shardings_pjrt_executable_parametershardings,
    .PJRT_Shardings_PJRT_Executable_OutputShardings = pjrt_shardings_pjrt_executable_outputshardings,
};

static const PJRT_Api api = {
    .struct_size = sizeof(PJRT_Api),
    .extension_start = (PJRT_Extension_Base *)&shardings_extension.base,
    .pjrt_api_version = {.struct_size = sizeof(PJRT_Api_Version), .major_version = XLAC_PJRT_API_MAJOR,
                         .minor_version = XLAC_PJRT_API_MINOR},
    .PJRT_Error_Destroy = pjrt_error_destroy,
    .PJRT_Error_Message = pjrt_error_message,
    .PJRT_Error_GetCode = pjrt_error_getcode,
    .PJRT_Plugin_Initialize = pjrt_plugin_initialize,
    .PJRT_Plugin_Attributes = pjrt_plugin_attributes,
    .PJRT_Event_Destroy = pjrt_event_destroy,
    .PJRT_Event_IsReady = pjrt_event_isready,
    .PJRT_Event_Error = pjrt_event_error,
    .PJRT_Event_Await = pjrt_event_await,
    .PJRT_Event_OnReady = pjrt_event_onready,
    .PJRT_Client_Create = pjrt_client_create,
    .PJRT_Client_Destroy = pjrt_client_destroy,
    .PJRT_Client_PlatformName = pjrt_client_platformname,
    .PJRT_Client_ProcessIndex = pjrt_client_processindex,
    .PJRT_Client_PlatformVersion = pjrt_client_platformversion,
    .PJRT_Client_Devices = pjrt_client_devices,
    .PJRT_Client_AddressableDevices = pjrt_client_addressabledevices,
    .PJRT_Client_LookupDevice = pjrt_client_lookupdevice,
    .PJRT_Client_LookupAddressableDevice = pjrt_client_lookupaddressabledevice,
    .PJRT_Client_AddressableMemories = pjrt_client_addressablememories,
    .PJRT_Client_Compile = pjrt_client_compile,
    .PJRT_Client_DefaultDeviceAssignment = pjrt_client_defaultdeviceassignment,
    .PJRT_Client_BufferFromHostBuffer = pjrt_client_bufferfromhostbuffer,
    .PJRT_DeviceDescription_Id = pjrt_devicedescription_id,
    .PJRT_DeviceDescription_ProcessIndex = pjrt_devicedescription_processindex,
    .PJRT_DeviceDescription_Attributes = pjrt_devicedescription_attributes,
    .PJRT_DeviceDescription_Kind = pjrt_devicedescription_kind,
    .PJRT_DeviceDescription_DebugString = pjrt_devicedescription_debugstring,
    .PJRT_DeviceDescription_ToString = pjrt_devicedescription_tostring,
    .PJRT_Device_GetDescription = pjrt_device_getdescription,
    .PJRT_Device_IsAddressable = pjrt_device_isaddressable,
    .PJRT_Device_LocalHardwareId = pjrt_device_localhardwareid,
    .PJRT_Device_AddressableMemories = pjrt_device_addressablememories,
    .PJRT_Device_DefaultMemory = pjrt_device_defaultmemory,
    .PJRT_Device_MemoryStats = pjrt_device_memorystats,
    .PJRT_Memory_Id = pjrt_memory_id,
    .PJRT_Memory_Kind = pjrt_memory_kind,
    .PJRT_Memory_DebugString = pjrt_memory_debugstring,
    .PJRT_Memory_ToString = pjrt_memory_tostring,
    .PJRT_Memory_AddressableByDevices = pjrt_memory_addressablebydevices,
    .PJRT_Executable_Destroy = pjrt_executable_destroy,
    .PJRT_Executable_Name = pjrt_executable_name,
    .PJRT_Executable_NumReplicas = pjrt_executable_numreplicas,
    .PJRT_Executable_NumPartitions = pjrt_executable_numpartitions,
    .PJRT_Executable_NumOutputs = pjrt_executable_numoutputs,
    .PJRT_Executable_SizeOfGeneratedCodeInBytes = pjrt_executable_sizeofgeneratedcodeinbytes,
    .PJRT_Executable_GetCostAnalysis = pjrt_executable_getcostanalysis,
    .PJRT_Executable_OutputMemoryKinds = pjrt_executable_outputmemorykinds,
    .PJRT_Executable_OptimizedProgram = pjrt_executable_optimizedprogram,
    .PJRT_Executable_Serialize = pjrt_executable_serialize,
    .PJRT_LoadedExecutable_Destroy = pjrt_loadedexecutable_destroy,
    .PJRT_LoadedExecutable_GetExecutable = pjrt_loadedexecutable_getexecutable,
    .PJRT_LoadedExecutable_AddressableDevices = pjrt_loadedexecutable_addressabledevices,
    .PJRT_LoadedExecutable_Delete = pjrt_loadedexecutable_delete,
    .PJRT_LoadedExecutable_IsDeleted = pjrt_loadedexecutable_isdeleted,
    .PJRT_LoadedExecutable_Execute = pjrt_loadedexecutable_execute,
    .PJRT_Executable_DeserializeAndLoad = pjrt_executable_deserializeandload,
    .PJRT_LoadedExecutable_Fingerprint = pjrt_loadedexecutable_fingerprint,
    .PJRT_Buffer_Destroy = pjrt_buffer_destroy,
    .PJRT_Buffer_ElementType = pjrt_buffer_elementtype,
    .PJRT_Buffer_Dimensions = pjrt_buffer_dimensions,
    .PJRT_Buffer_UnpaddedDimensions = pjrt_buffer_unpaddeddimensions,
    .PJRT_Buffer_DynamicDimensionIndices = pjrt_buffer_dynamicdimensionindices,
    .PJRT_Buffer_GetMemoryLayout = pjrt_buffer_getmemorylayout,
    .PJRT_Buffer_OnDeviceSizeInBytes = pjrt_buffer_ondevicesizeinbytes,
    .PJRT_Buffer_Device = pjrt_buffer_device,
    .PJRT_Buffer_Memory = pjrt_buffer_memory,
    .PJRT_Buffer_Delete = pjrt_buffer_delete,
    .PJRT_Buffer_IsDeleted = pjrt_buffer_isdeleted,
    .PJRT_Buffer_CopyToDevice = pjrt_buffer_copytodevice,
    .PJRT_Buffer_ToHostBuffer = pjrt_buffer_tohostbuffer,
    .PJRT_Buffer_IsOnCpu = pjrt_buffer_isoncpu,
    .PJRT_Buffer_ReadyEvent = pjrt_buffer_readyevent,
    .PJRT_Buffer_UnsafePointer = pjrt_buffer_unsafepointer,
    .PJRT_Buffer_IncreaseExternalReferenceCount = pjrt_buffer_increaseexternalreferencecount,
    .PJRT_Buffer_DecreaseExternalReferenceCount = pjrt_buffer_decreaseexternalreferencecount,
    .PJRT_Buffer_OpaqueDeviceMemoryDataPointer = pjrt_buffer_opaquedevicememorydatapointer,
    .PJRT_CopyToDeviceStream_Destroy = unimpl_CopyToDeviceStream_Destroy,
    .PJRT_CopyToDeviceStream_AddChunk = unimpl_CopyToDeviceStream_AddChunk,
    .PJRT_CopyToDeviceStream_TotalBytes = unimpl_CopyToDeviceStream_TotalBytes,
    .PJRT_CopyToDeviceStream_GranuleSize = unimpl_CopyToDeviceStream_GranuleSize,
    .PJRT_CopyToDeviceStream_CurrentBytes = unimpl_CopyToDeviceStream_CurrentBytes,
    .PJRT_TopologyDescription_Create = unimpl_TopologyDescription_Create,
    .PJRT_TopologyDescription_Destroy = pjrt_topologydescription_destroy,
    .PJRT_TopologyDescription_PlatformName = pjrt_topologydescription_platformname,
    .PJRT_TopologyDescription_PlatformVersion = pjrt_topologydescription_platformversion,
    .PJRT_TopologyDescription_GetDeviceDescriptions = pjrt_topologydescription_getdevicedescriptions,
    .PJRT_TopologyDescription_Serialize = unimpl_TopologyDescription_Serialize,
    .PJRT_TopologyDescription_Attributes = pjrt_topologydescription_attributes,
    .PJRT_Compile = unimpl_Compile,
    .PJRT_Executable_OutputElementTypes = pjrt_executable_outputelementtypes,
    .PJRT_Executable_OutputDimensions = pjrt_executable_outputdimensions,
    .PJRT_Buffer_CopyToMemory = pjrt_buffer_copytomemory,
    .PJRT_Client_CreateViewOfDeviceBuffer = unimpl_Client_CreateViewOfDeviceBuffer,
    .PJRT_Executable_Fingerprint = pjrt_executable_fingerprint,
    .PJRT_Client_TopologyDescription = pjrt_client_topologydescription,
    .PJRT_Executable_GetCompiledMemoryStats = pjrt_executable_getcompiledmemorystats,
    .PJRT_Memory_Kind_Id = pjrt_memory_kind_id,
    .PJRT_ExecuteContext_Create = unimpl_ExecuteContext_Create,
    .PJRT_ExecuteContext_Destroy = unimpl_ExecuteContext_Destroy,
    .PJRT_Buffer_CopyRawToHost = pjrt_buffer_copyrawtohost,
    .PJRT_AsyncHostToDeviceTransferManager_Destroy = (PJRT_Other_Fn)transfer_manager_destroy,
    .PJRT_AsyncHostToDeviceTransferManager_TransferData = (PJRT_Other_Fn)transfer_manager_transferdata,
    .PJRT_Client_CreateBuffersForAsyncHostToDevice = (PJRT_Other_Fn)pjrt_client_createbuffersforasynchosttodevice,
    .PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer = (PJRT_Other_Fn)transfer_manager_retrievebuffer,
    .PJRT_AsyncHostToDeviceTransferManager_Device = (PJRT_Other_Fn)transfer_manager_device,
    .PJRT_AsyncHostToDeviceTransferManager_BufferCount = (PJRT_Other_Fn)transfer_manager_buffercount,
    .PJRT_AsyncHostToDeviceTransferManager_BufferSize = (PJRT_Other_Fn)transfer_manager_buffersize,
    .PJRT_AsyncHostToDeviceTransferManager_SetBufferError = (PJRT_Other_Fn)transfer_manager_setbuffererror,
    .PJRT_AsyncHostToDeviceTransferManager_AddMetadata = (PJRT_Other_Fn)transfer_manager_addmetadata,
    .PJRT_Client_DmaMap = unimpl_Client_DmaMap,
    .PJRT_Client_DmaUnmap = unimpl_Client_DmaUnmap,
    .PJRT_Client_CreateUninitializedBuffer = pjrt_client_createuninitializedbuffer,
    .PJRT_Client_UpdateGlobalProcessInfo = (PJRT_Other_Fn)pjrt_client_updateglobalprocessinfo,
    .PJRT_TopologyDescription_Deserialize = unimpl_TopologyDescription_Deserialize,
    .PJRT_Client_CreateAliasBuffer = unimpl_Client_CreateAliasBuffer,
    .PJRT_Client_FulfillAliasBuffer = unimpl_Client_FulfillAliasBuffer,
    .PJRT_LoadedExecutable_GetDeviceAssignment = pjrt_loadedexecutable_getdeviceassignment,
    .PJRT_Client_CreateErrorBuffer = unimpl_Client_CreateErrorBuffer,
    .PJRT_AsyncHostToDeviceTransferManager_TransferLiteral = (PJRT_Other_Fn)transfer_manager_transferliteral,
    .PJRT_Buffer_CopyRawToHostFuture = unimpl_Buffer_CopyRawToHostFuture,
    .PJRT_Device_PoisonExecution = unimpl_Device_PoisonExecution,
    .PJRT_Device_CreateAsyncTrackingEvent = unimpl_Device_CreateAsyncTrackingEvent,
    .PJRT_AsyncTrackingEvent_Destroy = unimpl_AsyncTrackingEvent_Destroy,
    .PJRT_Executable_GetCompileOptions = pjrt_executable_getcompileoptions,
    .PJRT_Buffer_DonateWithControlDependency = unimpl_Buffer_DonateWithControlDependency,
    .PJRT_Event_Create = pjrt_event_create,
    .PJRT_Event_Set = pjrt_event_set,
};

EXPORT const PJRT_Api *GetPjrtApi(void);
EXPORT const PJRT_Api *GetPjrtApi(void) { return &api; }
