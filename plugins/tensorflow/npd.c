/* libxlac_tf.so: xlac as a TensorFlow NextPluggableDevice.
 *
 * TensorFlow loads this library from site-packages/tensorflow-plugins/
 * (or TF_PLUGGABLE_DEVICE_LIBRARY_PATH) and calls two functions:
 * TFNPD_InitPlugin, which names the device (XLAC, compiled for as
 * XLA_CPU_JIT) and returns the table below, and GetPjrtApi, which returns
 * xlac's PJRT table (that of libxlac_pjrt.so, loaded from beside this
 * library).  With TF_XLA_FLAGS=--tf_xla_use_device_api=true every
 * jit_compile cluster placed on the device reaches the PJRT plugin's
 * Compile as a serialized HloModuleProto (format "hlo").
 *
 * libxlac_pjrt.so carries its own LLVM with hidden symbols, so TensorFlow's
 * exported LLVM C API does not interpose it; it is opened RTLD_LOCAL.
 *
 * The structures are our declarations of those of TensorFlow's
 * next_pluggable_device/c/plugin_c_api.h (TFNPD 0.0.1) and the shape of
 * xla/stream_executor/tpu/c_api_decl.h.  The two C++-only registrations
 * are in register.cc. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glue.h"

#define EXPORT __attribute__((visibility("default")))

/* ---- TensorFlow's C declarations (ours) ---- */

typedef struct TF_Status TF_Status;
enum { TF_INTERNAL = 13, TF_FAILED_PRECONDITION = 9 };
void TF_SetStatus(TF_Status *s, int code, const char *msg);
const char *TF_Version(void);

#define INLINED 6 /* TPU_C_API_MAX_INLINED */

typedef struct {
  union {
    int64_t *heap;
    int64_t inlined[INLINED];
  };
  int64_t size;
} Int64List;

typedef struct {
  union {
    bool *heap;
    bool inlined[INLINED];
  };
  int64_t size;
} BoolList;

typedef struct {
  Int64List dimensions;
} XlaTile;

typedef struct {
  union {
    XlaTile *heap;
    XlaTile inlined[INLINED];
  };
  int64_t size;
} TileList;

typedef struct {
  Int64List minor_to_major;
  TileList tiles;
  int index_primitive_type;
  int pointer_primitive_type;
  int64_t element_size_in_bits;
  int64_t memory_space;
  int64_t dynamic_shape_metadata_prefix_bytes;
  int64_t tail_padding_alignment_in_elements;
} XlaLayout;

typedef struct XlaShape {
  int element_type;
  Int64List dimensions;
  BoolList dynamic_dimensions;
  struct XlaShape *tuple_shapes;
  int ntuple_shapes;
  bool has_layout;
  XlaLayout layout;
} XlaShape;

typedef void (*AnyFn)(void);

typedef struct {
  size_t struct_size;
  void *priv;
  /* events, allocator, device context: TensorFlow's PJRT route uses none */
  AnyFn new_device_event, device_event_await, device_event_is_ready, device_event_and_then, device_event_delete;
  AnyFn allocator_create, allocate_raw, deallocate_raw, allocator_name, allocator_allocates_opaque_handle,
      allocator_delete;
  AnyFn device_context_create, device_context_delete, device_tensor_to_host_tensor, host_tensor_to_device_tensor,
      same_device_tensor_copy, same_device_pjrt_buffer_copy;
  void (*xla_shape_to_device_shape_representation)(XlaShape *shape, int data_type, bool use_fast_memory,
                                                   int layout_preference, XlaShape *device_shape, TF_Status *st);
  int32_t (*get_device_count)(TF_Status *st);
  void (*init_plugin_internal_device_states)(TF_Status *st);
} TfnpdApi;

typedef struct {
  size_t struct_size;
  void *ext;
  const char *device_type;
  const char *compilation_device_name;
  int32_t priority;
  bool is_pluggable_device;
  bool use_pjrt_on_demand_compile;
} TfnpdPluginParams;

/* ---- the PJRT library ---- */

static const void *pjrt_api;
static char pjrt_error[8400];

/* Loads libxlac_pjrt.so: XLAC_PJRT_LIBRARY, else xlac/libxlac_pjrt.so
   beside this library (the installed layout: TensorFlow loads every
   shared object directly in tensorflow-plugins/, so the PJRT library sits
   in a folder below), else libxlac_pjrt.so beside it (the build tree). */
static const void *load_pjrt(void) {
  if (pjrt_api || pjrt_error[0]) return pjrt_api;
  const char *env = getenv("XLAC_PJRT_LIBRARY");
  char path[4096];
  void *h = NULL;
  if (env && *env) {
    snprintf(path, sizeof path, "%s", env);
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  } else {
    Dl_info info;
    if (!dladdr((void *)load_pjrt, &info) || !info.dli_fname) {
      snprintf(pjrt_error, sizeof pjrt_error, "xlac: cannot tell where libxlac_tf.so is");
      return NULL;
    }
    const char *slash = strrchr(info.dli_fname, '/');
    int dir = slash ? (int)(slash - info.dli_fname) : 1;
    const char *base = slash ? info.dli_fname : ".";
    snprintf(path, sizeof path, "%.*s/xlac/libxlac_pjrt.so", dir, base);
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      snprintf(path, sizeof path, "%.*s/libxlac_pjrt.so", dir, base);
      h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
  }
  const void *(*get)(void) = h ? (const void *(*)(void))dlsym(h, "GetPjrtApi") : NULL;
  if (!get) {
    snprintf(pjrt_error, sizeof pjrt_error, "xlac: cannot load xlac's PJRT library %s: %s", path, dlerror());
    return NULL;
  }
  pjrt_api = get();
  if (!pjrt_api) snprintf(pjrt_error, sizeof pjrt_error, "xlac: %s gave no PJRT table", path);
  return pjrt_api;
}

EXPORT const void *GetPjrtApi(void) {
  const void *api = load_pjrt();
  if (!api) fprintf(stderr, "%s\n", pjrt_error);
  return api;
}

/* ---- the device ---- */

#define DEVICE_TYPE "XLAC"
#define JIT_DEVICE "XLA_CPU_JIT"

static bool on_demand;

/* Is --tf_xla_use_device_api_for_compile_on_demand set in TF_XLA_FLAGS?
   TensorFlow refuses to load a plugin that asks for compilation on demand
   without it, and places ops on the device only with it. */
static bool flag_on_demand(void) {
  const char *flags = getenv("TF_XLA_FLAGS");
  const char *name = "--tf_xla_use_device_api_for_compile_on_demand";
  size_t n = strlen(name);
  bool on = false;
  for (const char *p = flags ? strstr(flags, name) : NULL; p; p = strstr(p + n, name)) {
    const char *v = p + n;
    if (*v == 0 || *v == ' ')
      on = true;
    else if (*v == '=')
      on = !strncmp(v + 1, "true", 4) || !strncmp(v + 1, "1", 1);
  }
  return on;
}

static void set_error(TF_Status *st, int code, char *msg) {
  TF_SetStatus(st, code, msg);
  free(msg);
}

static int32_t get_device_count(TF_Status *st) {
  (void)st;
  return 1;
}

/* Creates xlac's PJRT client and hands it to TensorFlow (TensorFlow makes
   none for a plugin's device type), and with compilation on demand
   registers the compilation device, so that auto-clustering forms
   clusters of the ops placed on the device. */
static void init_device_states(TF_Status *st) {
  char *err = xlac_tf_register_client(DEVICE_TYPE);
  if (!err && on_demand) err = xlac_tf_register_compilation_device(DEVICE_TYPE, JIT_DEVICE);
  if (err) set_error(st, TF_INTERNAL, err);
}

/* Lists are inline up to INLINED entries, else on the heap; the receiver
   frees what is on the heap with delete[] (arrays of plain structs), so
   the heap parts come from C++'s operator new[] (xlac_tf_new_array).  A
   list is a union of the heap pointer and the inline entries, then the
   size: `bytes` is the whole list's. */
static bool copy_list(void *dst, const void *src, size_t bytes, size_t elem, int64_t size) {
  memcpy(dst, src, bytes);
  if (size <= INLINED) return true;
  void *const *sheap = src;
  void *heap = xlac_tf_new_array((size_t)size * elem);
  if (!heap) {
    memset(dst, 0, bytes);
    return false;
  }
  memcpy(heap, *sheap, (size_t)size * elem);
  *(void **)dst = heap;
  return true;
}

static bool copy_shape(XlaShape *d, const XlaShape *s) {
  *d = *s;
  d->tuple_shapes = NULL;
  d->ntuple_shapes = 0;
  d->dimensions.size = d->dynamic_dimensions.size = 0;
  d->layout.minor_to_major.size = d->layout.tiles.size = 0;
  bool ok = copy_list(&d->dimensions, &s->dimensions, sizeof s->dimensions, sizeof(int64_t), s->dimensions.size) &&
            copy_list(&d->dynamic_dimensions, &s->dynamic_dimensions, sizeof s->dynamic_dimensions, sizeof(bool),
                      s->dynamic_dimensions.size) &&
            copy_list(&d->layout.minor_to_major, &s->layout.minor_to_major, sizeof s->layout.minor_to_major,
                      sizeof(int64_t), s->layout.minor_to_major.size);
  /* tiles: each holds a list of its own */
  if (ok && s->layout.tiles.size) {
    int64_t n = s->layout.tiles.size;
    XlaTile *t = n > INLINED ? xlac_tf_new_array((size_t)n * sizeof *t) : d->layout.tiles.inlined;
    const XlaTile *st = n > INLINED ? s->layout.tiles.heap : s->layout.tiles.inlined;
    ok = t != NULL;
    if (ok && n > INLINED) d->layout.tiles.heap = t;
    d->layout.tiles.size = ok ? n : 0;
    for (int64_t i = 0; ok && i < n; i++) {
      t[i].dimensions.size = 0;
      ok = copy_list(&t[i].dimensions, &st[i].dimensions, sizeof st[i].dimensions, sizeof(int64_t),
                     st[i].dimensions.size);
    }
  }
  if (ok && s->ntuple_shapes > 0) {
    d->tuple_shapes = xlac_tf_new_array((size_t)s->ntuple_shapes * sizeof *d->tuple_shapes);
    ok = d->tuple_shapes != NULL;
    for (int i = 0; ok && i < s->ntuple_shapes; i++, d->ntuple_shapes++)
      ok = copy_shape(&d->tuple_shapes[i], &s->tuple_shapes[i]);
  }
  return ok;
}

/* The device keeps a tensor as XLA lays it out: the representation is the
   shape itself, a deep copy (the caller frees both). */
static void shape_to_device_shape(XlaShape *shape, int data_type, bool use_fast_memory, int layout_preference,
                                  XlaShape *device_shape, TF_Status *st) {
  (void)data_type, (void)use_fast_memory, (void)layout_preference;
  if (!copy_shape(device_shape, shape)) TF_SetStatus(st, TF_INTERNAL, "xlac: out of memory copying a shape");
}

static TfnpdApi api = {
    .struct_size = sizeof(TfnpdApi),
    .xla_shape_to_device_shape_representation = shape_to_device_shape,
    .get_device_count = get_device_count,
    .init_plugin_internal_device_states = init_device_states,
};

EXPORT const TfnpdApi *TFNPD_InitPlugin(TfnpdPluginParams *params, TF_Status *st) {
  const char *version = TF_Version();
  if (strcmp(version, xlac_tf_built_for()) != 0)
    fprintf(stderr, "xlac: libxlac_tf.so was built against TensorFlow %s, this is %s\n", xlac_tf_built_for(),
            version);
  if (!load_pjrt()) {
    TF_SetStatus(st, TF_FAILED_PRECONDITION, pjrt_error);
    return NULL;
  }
  on_demand = flag_on_demand();
  params->device_type = DEVICE_TYPE;
  params->compilation_device_name = JIT_DEVICE;
  params->priority = 0;
  params->is_pluggable_device = true;
  params->use_pjrt_on_demand_compile = on_demand;
  return &api;
}
