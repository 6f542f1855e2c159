/*
 * api.h - what the public API's files (the files of src/api) share: the handle
 * structs behind the opaque types of include/xlac/xlac.h, and the helpers
 * that turn the library's diagnostics into xlac_status objects.
 */
#ifndef XLAC_API_H
#define XLAC_API_H

#include <pthread.h>
#include <stdatomic.h>

#include "interp/interp.h"
#include "support/version.h"
#include "xlac/xlac.h"
#include "xlac/process_set.h"

/* A parsed, verified module.  `text` (when the program came from text) is
   kept so that each compile parses a private copy with real source
   locations; a built program (builder.h) has no text and is printed and
   parsed back instead. */
struct xlac_program {
  uint32_t magic;  /* API_MAGIC_PROGRAM while alive */
  Module *m;
  char *name;      /* what diagnostics call the text */
  char *text;      /* NULL for built programs */
  size_t len;
  int file;        /* source id of m's locations (src_release on destroy), or -1 */
};

enum {
  API_MAGIC_PROGRAM = 0x50524f47,  /* "PROG" */
  API_MAGIC_CLIENT = 0x434c4e54,   /* "CLNT" */
  API_MAGIC_EXE = 0x45584543,      /* "EXEC" */
  API_MAGIC_BUFFER = 0x42554646,   /* "BUFF" */
  API_MAGIC_DEAD = 0xdeadbeef,
};


struct xlac_device {
  struct xlac_client *client;
  int id;
  char *desc;
};

typedef struct ApiRecycler ApiRecycler;

struct xlac_client {
  uint32_t magic;
  atomic_int refs;         /* the caller's + one per executable and buffer */
  atomic_int destroyed;
  int num_replicas, num_partitions, ndev;
  xlac_backend backend;
  int num_threads;
  bool flush_denormals;       /* xlac_client_options.flush_denormals */
  xlac_thread_pool user_pool; /* a copy of the caller's, when given */
  struct xlacrt_pool *pool;
  char *cache_dir;
  xlac_device *devices;
  atomic_int next_module_id;  /* NNNN of dump file names */
  ApiRecycler *recycler;      /* storage of destroyed large buffers (recycle.c); may be NULL */
  /* A client of one process of a set (xlac/process_set.h): its one device
     (ndev == 1) runs as process (set->replica, set->partition) of the
     set's num_replicas x num_partitions (which num_replicas and
     num_partitions above hold), on the communicator set->begin hands out.
     NULL: every device is in this process. */
  struct xlac_process_set *set;
  /* XLAC_BACKEND_GPU: the device (gpu/cuda.h) and the lock that runs one
     execution on it at a time */
  struct GpuDevice *gpu;
  pthread_mutex_t gpu_mu;
};

struct xlac_cancel {
  InterpCancel ic;
};

/* One argument or result of an executable's flattened signature (tuples
   are flattened into their leaves). */
typedef struct ApiLeaf {
  xlac_type type;
  int rank;
  int64_t *dims;
  char *name;
  Type *t;                 /* the IR type (the module's arena) */
} ApiLeaf;

struct xlac_executable {
  _Atomic uint32_t magic;
  atomic_int refs;         /* the caller's + one per execution in flight */
  char *warnings;          /* what compiling warned about (stats.warnings) */
  xlac_client *client;
  Module *m;
  bool owns_module;        /* false: m is the caller's (api_compile_module) */
  int file;                /* source text of m (src_release on destroy), or -1 */
  Func *entry;
  struct CpuExecutable *cpu; /* NULL: the interpreter (or the GPU) runs it */
  struct GpuExecutable *gpu; /* XLAC_BACKEND_GPU */
  int num_replicas, num_partitions;
  int nargs, nres;
  ApiLeaf *args, *res;
  int *alias;              /* per result: the argument whose storage it may take, or -1 */
  xlac_executable_stats stats;
};

struct xlac_buffer {
  uint32_t magic;
  xlac_client *client;
  int device;
  xlac_type type;
  IVal *val;               /* a tensor (the data) or a token */
  atomic_int donated;
  /* A buffer of a gpu client lives in device memory: dptr holds its
     elements (0 when it has none, or once donated).  val's literal then
     has its type but no data (data NULL, borrowed) until they are first
     read on the host (api_buffer_value) and kept there (host_valid). */
  bool on_gpu;
  atomic_bool host_valid;
  unsigned long long dptr;
  /* With an asynchronous device (gpu/gpu.h, "streams and events"), under
     the client's gpu_mu: ready is the event after the work that writes
     dptr (the producing execution, or the upload), NULL once known done;
     uses are the events after the executions that read it, which its
     memory waits for before going back to the pool (and a donation
     before being written). */
  struct GpuEvent *ready;
  struct GpuEvent **uses;
  int nuses, cuses;
};

bool api_type_valid(xlac_type t);
ElemType api_elem(xlac_type t);
xlac_type api_type_of(const Type *t);
/* The device kind of a client's backend: "cpu", "interpreter", "gpu". */
const char *api_backend_kind(xlac_backend b);
/* NULL when c is a live client; else the error (fn names the caller). */
xlac_status *api_check_client(const xlac_client *c, const char *fn);
xlac_status *api_check_client_alive(const xlac_client *c, const char *fn);
void api_client_retain(xlac_client *c);
void api_client_release(xlac_client *c);
/* A new buffer around v (taking the reference). */
xlac_buffer *api_buffer_new(xlac_client *c, int device, IVal *v);
/* A gpu client's buffer of type t over device memory p (taken). */
xlac_buffer *api_buffer_new_gpu(xlac_client *c, int device, const Type *t, unsigned long long p);
/* For a gpu client: b's data copied to the device (the host copy dropped
   unless it is the caller's memory).  NULL, or the error. */
xlac_status *api_buffer_upload(xlac_buffer *b);
/* Under c->gpu_mu: adds ev (retained) to b's uses, dropping those done. */
void api_buffer_add_use(xlac_buffer *b, struct GpuEvent *ev);
/* Under c->gpu_mu: b's device memory back to the pool once its readers
   and writer are done, its events released; dptr 0 after. */
void api_buffer_drop_device(xlac_buffer *b);

/* Wraps a module (taking it) as a program; text may be NULL.  Returns NULL
   only if m is NULL. */
xlac_program *api_program_new(Module *m, const char *name, const char *text, size_t len);

/* ---- diagnostics -> status ----
 * Between api_capture_begin and api_capture_end, every diagnostic the
 * calling thread (and the replica threads it starts) reports is formatted
 * (file:line:col, source line, caret) into the capture instead of being
 * printed; api_capture_end returns it as a status with `code` (NULL when
 * nothing was reported and ok is true).  An out-of-memory unwind inside
 * the capture is reported through it as XLAC_OUT_OF_MEMORY. */
typedef struct ApiCapture {
  char *text;          /* plain malloc: the hook must not unwind */
  size_t len, cap;
  int errors;
  bool oom;
  char *warnings;      /* the warnings, formatted (plain malloc; api_capture_take_warnings) */
  size_t wlen, wcap;
  bool keep_warnings;  /* set before api_capture_end to take them after it */
  DiagContext outer;
  bool passthrough;    /* api_set_passthrough: nothing captured */
  pthread_mutex_t mu;
} ApiCapture;
void api_capture_begin(ApiCapture *c);
/* The warnings of a capture that has ended (heap string, "" when none):
   a call that succeeds returns them with what it made. */
char *api_capture_take_warnings(ApiCapture *c);
/* Runs fn(ctx) under an out-of-memory guard (call it inside a capture,
   which gets the report): true when fn returned true.  With track, the
   blocks fn's thread allocated are given back if it unwinds, which
   *unwound (may be NULL) then says: whatever fn had built is gone. */
bool api_guarded(bool (*fn)(void *ctx), void *ctx, bool track, bool *unwound);
xlac_status *api_capture_end(ApiCapture *c, bool ok, xlac_code code, const char *what);

/* Registers text under name, parses and verifies it (diagnostics
   reported; call inside a capture and a memory guard).  With
   graph_by_name, a name ending in .pb/.pbtxt/... makes it a TensorFlow
   GraphDef.  NULL on failure; else *out_file is the source id the
   module's locations point into. */
Module *api_parse(const char *text, size_t len, const char *name, bool graph_by_name, int *out_file);
/* xlac_executable_execute with the interpreter options the command line
   needs (check reports, probes; NULL: quiet checks) and the check counts
   (may be NULL). */
xlac_status *api_execute(xlac_executable *e, int num_devices, xlac_buffer *const *const *args,
                         const xlac_execute_options *opts, xlac_buffer **const *results, const InterpOptions *io,
                         int *checks_run, int *checks_failed);
/* ---- what the command line needs beyond the public API ---- */

/* On this thread, calls report diagnostics as they happen (printed, or to
   the thread's hook) instead of collecting them into statuses, whose
   messages are then empty when everything was already reported. */
void api_set_passthrough(bool on);

/* The dump flags beyond xlac_compile_options.dump_dir. */
typedef struct ApiDumpOptions {
  const char *pass_re;
  bool as_dot, as_html;
} ApiDumpOptions;

/* Compiles function f of the caller's module m, which the executable
   borrows (it must outlive it; the CPU backend optimizes it in place). */
xlac_status *api_compile_module(xlac_client *c, Module *m, Func *f, const xlac_compile_options *opts,
                                const ApiDumpOptions *dump, xlac_executable **out);
/* A buffer holding v (a tensor or token; the buffer takes the reference). */
xlac_status *api_buffer_from_value(xlac_client *c, int device, IVal *v, xlac_buffer **out);
/* The value a buffer holds (borrowed; NULL once donated, or when a gpu
   buffer's data cannot be copied to the host). */
IVal *api_buffer_value(const xlac_buffer *b);

/* ---- recycling large buffers' storage (recycle.c) ---- */
ApiRecycler *api_recycler_new(void);           /* NULL when out of memory: no recycling */
void api_recycler_free(ApiRecycler *r);
void *api_recycler_take(ApiRecycler *r, size_t bytes);
bool api_recycler_give(ApiRecycler *r, void *p, size_t bytes); /* false: not kept, still the caller's */
/* Releases a buffer's value, keeping its storage when it is large and no
   one else holds it. */
void api_recycle_value(xlac_client *c, IVal *v);
/* A tensor of type t on recycled storage (contents unspecified), or NULL. */
IVal *api_recycled_tensor(xlac_client *c, const Type *t);

/* Prints m as StableHLO or HLO text (malloc'ed, NUL-terminated). */
xlac_status *api_print_module(const Module *m, xlac_format format, char **out_text, size_t *out_len);

#endif
