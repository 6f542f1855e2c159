/*
 * xlac.h - the xlac library: compile StableHLO or HLO programs and run them
 * on the CPU, from C or C++.
 *
 *   xlac_client *c;  xlac_executable *e;  xlac_buffer *x, *y;
 *   xlac_client_create(NULL, &c);
 *   xlac_compile_file(c, "axpy.mlir", NULL, &e);
 *   xlac_buffer_from_host(c, 0, XLAC_F32, dims, 1, host, sizeof host, 0, &x);
 *   xlac_executable_run(e, &x, 1, &y);
 *   xlac_buffer_to_host(y, out, sizeof out);
 *
 * Conventions
 *   - Every function that can fail returns an xlac_status *: NULL on
 *     success, else an error the caller owns (xlac_status_destroy).  Its
 *     message names what went wrong: which argument, which shape, and for
 *     program text file:line:col with the source line and a caret.  Library
 *     code never aborts, never exits and never prints.
 *   - Results come back through out_ parameters, which are written only on
 *     success (on failure they are set to NULL / 0).
 *   - Ownership: whatever a function creates (xlac_*_create, xlac_compile*,
 *     xlac_buffer_from_host, execution results, strings returned through
 *     char **) belongs to the caller, who releases it with the matching
 *     xlac_*_destroy or xlac_free.  Handles passed in are borrowed for the
 *     duration of the call.  Executables and buffers keep their client
 *     alive: destroying a client invalidates it for new work (calls then
 *     fail with XLAC_FAILED_PRECONDITION) and frees it once its last
 *     executable and buffer are gone.
 *   - Thread safety: every function may be called from any thread at any
 *     time; an executable may be executed from several threads at once.
 *     A buffer may be read by many executions at once; destroying or
 *     donating a buffer while another call uses it is the caller's race.
 *   - Options structs start with struct_size (set it to sizeof the struct;
 *     0 also means "this version") so that fields can be added later.  A
 *     NULL options pointer means every default.
 */
#ifndef XLAC_XLAC_H
#define XLAC_XLAC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XLAC_VERSION_MAJOR 0
#define XLAC_VERSION_MINOR 1
#define XLAC_VERSION_PATCH 0
/* "MAJOR.MINOR.PATCH" of the library actually linked. */
const char *xlac_version(void);

/* ---- status ---- */

typedef enum xlac_code {
  XLAC_OK = 0,
  XLAC_INVALID_ARGUMENT = 1,   /* a bad argument: NULL handle, wrong shape, bad program text */
  XLAC_NOT_FOUND = 2,          /* a named thing does not exist (file, function, custom-call target) */
  XLAC_FAILED_PRECONDITION = 3,/* the object cannot do that now (destroyed client, donated buffer) */
  XLAC_OUT_OF_MEMORY = 4,
  XLAC_UNIMPLEMENTED = 5,
  XLAC_CANCELLED = 6,          /* stopped from outside (xlac_execute_options.cancel) */
  XLAC_DATA_LOSS = 7,          /* corrupted data (e.g. an unreadable cache entry) */
  XLAC_INTERNAL = 8,           /* a failure inside xlac or inside a host function */
  XLAC_UNAVAILABLE = 9,        /* a peer replica or process went away */
} xlac_code;

typedef struct xlac_status xlac_status;

xlac_code xlac_status_code(const xlac_status *s);       /* XLAC_OK for NULL */
const char *xlac_status_message(const xlac_status *s);  /* "" for NULL; owned by s */
void xlac_status_destroy(xlac_status *s);               /* accepts NULL */
/* For host functions (custom calls) and wrappers: a new status with a
   printf-formatted message. */
xlac_status *xlac_status_create(xlac_code code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Frees strings and arrays the library returned (accepts NULL). */
void xlac_free(void *p);

/* ---- element types ----
 * Host layout of one element:
 *   PRED          one byte, 0 or 1
 *   S2/S4, U2/U4  one byte per element, the value sign- (S) or zero- (U)
 *                 extended; with XLAC_HOST_PACKED, two per byte for 4-bit
 *                 and four per byte for 2-bit types, first element in the
 *                 low bits (the packing JAX and numpy's ml_dtypes use)
 *   F8*, F6*, F4  one byte per element, the format's bit pattern in the
 *                 low bits (upper bits zero)
 *   F16, BF16     the 16-bit pattern, little endian (uint16_t)
 *   C64, C128     (real, imaginary) pairs of float / double
 *   others        the C type of that width
 * Arrays are dense and row-major (the last dimension varies fastest). */
typedef enum xlac_type {
  XLAC_PRED = 0,
  XLAC_S2, XLAC_S4, XLAC_S8, XLAC_S16, XLAC_S32, XLAC_S64,
  XLAC_U2, XLAC_U4, XLAC_U8, XLAC_U16, XLAC_U32, XLAC_U64,
  XLAC_F16, XLAC_BF16, XLAC_F32, XLAC_F64,
  XLAC_F8E4M3FN, XLAC_F8E5M2, XLAC_F8E4M3FNUZ, XLAC_F8E5M2FNUZ, XLAC_F8E4M3B11FNUZ,
  XLAC_F8E4M3, XLAC_F8E3M4, XLAC_F4E2M1FN, XLAC_F6E2M3FN, XLAC_F6E3M2FN, XLAC_F8E8M0FNU,
  XLAC_C64, XLAC_C128,
  XLAC_TOKEN,          /* a token: no data (shape queries give rank 0, 0 bytes) */
  XLAC_TYPE_COUNT
} xlac_type;

const char *xlac_type_name(xlac_type t);  /* "f32", "bf16", ... (StableHLO's spelling); NULL if invalid */
int xlac_type_bits(xlac_type t);          /* bit width: 1 for PRED, 4 for S4, 64 for C64; 0 if invalid */
size_t xlac_type_host_bytes(xlac_type t); /* bytes of one element in the unpacked host layout */

/* ---- client and devices ---- */

typedef struct xlac_client xlac_client;
typedef struct xlac_device xlac_device;

/* A thread pool of the caller's: xlac hands it the parallel loops of every
   execution.  schedule must run fn(arg) on some thread soon (it must not
   run it inline and wait for more work, or nested loops could deadlock);
   num_threads is how many such threads may run at once. */
typedef struct xlac_thread_pool {
  void *user;
  int num_threads;
  void (*schedule)(void *user, void (*fn)(void *arg), void *arg);
} xlac_thread_pool;

typedef enum xlac_backend {
  XLAC_BACKEND_CPU = 0,         /* native code through LLVM (default) */
  XLAC_BACKEND_INTERPRETER = 1, /* the reference interpreter: slow, obviously right */
  /* an NVIDIA GPU through the CUDA driver, loaded at run time (docs/gpu.md):
     one device per client; without a driver or a GPU, xlac_client_create
     answers XLAC_UNAVAILABLE.  Buffers live in device memory; executions
     may return before their work is done (xlac_buffer_await). */
  XLAC_BACKEND_GPU = 2,
} xlac_backend;

typedef struct xlac_client_options {
  size_t struct_size;
  int num_replicas;       /* devices = replicas x partitions; <= 0 means 1 */
  int num_partitions;     /* <= 0 means 1 */
  int num_threads;        /* worker threads of the client's pool, at most 1024; <= 0: one per core */
  const xlac_thread_pool *thread_pool; /* NULL: xlac's own pool (num_threads) */
  const char *cache_dir;  /* persistent compile cache directory (created); NULL: none */
  xlac_backend backend;
  int gpu_ordinal;        /* XLAC_BACKEND_GPU: which GPU (CUDA device number; 0: the first) */
  /* Nonzero (cpu backend, x86): compiled code runs with denormal floats
     flushed to zero, as operands and as results (FTZ and DAZ), as XLA:CPU
     runs; arithmetic on denormals is then no slower than on other
     numbers.  0: IEEE denormals, as the interpreter computes. */
  int flush_denormals;
} xlac_client_options;

xlac_status *xlac_client_create(const xlac_client_options *opts, xlac_client **out_client);
void xlac_client_destroy(xlac_client *c); /* accepts NULL; see "Ownership" above */

int xlac_client_device_count(const xlac_client *c);  /* 0 for a NULL or destroyed client */
xlac_status *xlac_client_device(xlac_client *c, int index, xlac_device **out_device);

/* A device is owned by its client (no destroy). */
typedef struct xlac_device_info {
  size_t struct_size;
  int id;              /* 0 .. device_count-1 = replica * num_partitions + partition */
  int replica;
  int partition;
  int num_threads;     /* threads the device's executions may use */
  const char *kind;    /* "cpu", "interpreter" or "gpu" */
  const char *description; /* e.g. "cpu:0 (replica 0, partition 0; x86_64 avx512f)" */
  const char *hardware;    /* the GPU's name ("NVIDIA H200"); "" for cpu and interpreter devices */
} xlac_device_info;
xlac_status *xlac_device_info_get(const xlac_device *d, xlac_device_info *out_info);

/* ---- programs ----
 * A parsed and verified module.  Text is StableHLO (MLIR, pretty or
 * generic form) or XLA HLO text; the format is detected. */
typedef struct xlac_program xlac_program;

typedef enum xlac_format { XLAC_FORMAT_STABLEHLO = 0, XLAC_FORMAT_HLO = 1 } xlac_format;

/* name: what diagnostics call the text (e.g. a file name); NULL: "<input>". */
xlac_status *xlac_program_parse(const char *text, size_t len, const char *name, xlac_program **out_program);
xlac_status *xlac_program_load(const char *path, xlac_program **out_program);
/* A frozen TensorFlow GraphDef (binary, or protobuf text when the path ends
   in .pbtxt) and a tf2xla Config (same rule; NULL for none), as tfcompile
   takes them: the feeds (and variables) are the parameters, the fetches
   (and written variables) the results.  Without a Config the graph's
   Placeholders are the parameters and the nodes nothing uses the results.
   xlac_program_parse and xlac_program_load also read a GraphDef when the
   name ends in .pb, .pbtxt, .graphdef or .prototxt (without a Config),
   except a serialized HloModuleProto (a name ending in .hlo.pb, or a .pb
   whose records are a module's), which they read as HLO (docs/ir.md).
   docs/tensorflow.md. */
xlac_status *xlac_program_load_graphdef(const char *graph_path, const char *config_path,
                                        xlac_program **out_program);
/* The module printed back; *out_text is NUL-terminated, free with xlac_free. */
xlac_status *xlac_program_print(const xlac_program *p, xlac_format format, char **out_text, size_t *out_len);
void xlac_program_destroy(xlac_program *p);

/* ---- compiling ---- */

typedef struct xlac_executable xlac_executable;
typedef struct xlac_cancel xlac_cancel;

typedef struct xlac_compile_options {
  size_t struct_size;
  const char *entry;       /* function to compile; NULL: @main, the HLO ENTRY, or the only function */
  int opt_level;           /* LLVM optimization level 1..3; 0: default (3) */
  int no_fusion;           /* nonzero: skip fusion (debugging) */
  const char *dump_dir;    /* write XLA-style dumps here (as --xla_dump_to) */
  /* XLA_FLAGS vocabulary, e.g. "--xla_dump_to=/tmp/d --xla_dump_hlo_as_dot";
     unknown flags are an error.  NULL: none (the XLA_FLAGS environment
     variable is not read by the library). */
  const char *xla_flags;
  /* replicas x partitions may be fewer than the client's devices: the
     executable then runs on the devices xlac_execute_options.devices
     names (default: the first ones) */
  int num_replicas;        /* <= 0: the client's */
  int num_partitions;      /* <= 0: the client's */
  /* Arguments the caller may donate (indices into the flattened
     arguments): each is paired with the first unpaired result of the same
     type and shape, whose storage it becomes when donated (input/output
     aliasing).  Aliases the program declares with tf.aliasing_output are
     added to these.  An argument no result matches is left unpaired. */
  const int *donate_args;
  int num_donate_args;
  /* xlac_cancel_trigger on this (from any thread) stops the compilation at
     the next step it reaches (between optimization passes, before LLVM's
     optimizer, before machine code): XLAC_CANCELLED.  NULL: none. */
  xlac_cancel *cancel;
  /* Nonzero: replicas x partitions may be more than the client's devices,
     the others being in other processes; each execution then runs one
     device of it here, with xlac_executable_execute_in_set
     (xlac/process_set.h). */
  int multi_process;
  /* Nonzero (cpu backend): every execution times each op and fusion the
     program runs (two clock reads per op), for xlac_executable_profile. */
  int profile;
} xlac_compile_options;

xlac_status *xlac_compile(xlac_client *c, const xlac_program *p, const xlac_compile_options *opts,
                          xlac_executable **out_executable);
xlac_status *xlac_compile_text(xlac_client *c, const char *text, size_t len, const xlac_compile_options *opts,
                               xlac_executable **out_executable);
xlac_status *xlac_compile_file(xlac_client *c, const char *path, const xlac_compile_options *opts,
                               xlac_executable **out_executable);
void xlac_executable_destroy(xlac_executable *e); /* accepts NULL; waits for nothing: do not destroy while executing */

/* Shape of an argument or result.  dims points into the executable.
   Tuples in the program's signature are flattened: each leaf is one
   argument or result, in order. */
typedef struct xlac_shape {
  xlac_type type;
  int rank;
  const int64_t *dims;
  const char *name;        /* the parameter's name in the program (or NULL); results: NULL */
} xlac_shape;

int xlac_executable_num_args(const xlac_executable *e);
int xlac_executable_num_results(const xlac_executable *e);
xlac_status *xlac_executable_arg_shape(const xlac_executable *e, int index, xlac_shape *out_shape);
xlac_status *xlac_executable_result_shape(const xlac_executable *e, int index, xlac_shape *out_shape);
/* The parameter index of a name (with or without '%'), or -1. */
int xlac_executable_arg_index(const xlac_executable *e, const char *name);
/* The argument whose storage result `index` takes when that argument is
   donated (the pairs of donate_args and tf.aliasing_output, above), or -1:
   none, or no such result. */
int xlac_executable_result_alias(const xlac_executable *e, int index);

typedef enum xlac_cache_result {
  XLAC_CACHE_OFF = 0,      /* the client has no cache_dir (or the interpreter runs the program) */
  XLAC_CACHE_HIT = 1,      /* loaded what an earlier compile (maybe another process) stored */
  XLAC_CACHE_MISS = 2,     /* compiled and stored */
  XLAC_CACHE_REPLACED = 3, /* the entry was unusable (truncated, corrupted): compiled and stored anew */
  XLAC_CACHE_UNUSABLE = 4, /* the directory cannot be used: compiled without it */
} xlac_cache_result;

typedef struct xlac_executable_stats {
  size_t struct_size;
  int64_t temp_bytes;      /* the temp arena one execution uses */
  int64_t arg_bytes;       /* all arguments of one device */
  int64_t result_bytes;    /* all results of one device */
  int native_ops;          /* top-level ops compiled to native code */
  int interpreted_ops;     /* top-level ops run by the reference interpreter */
  int fusions;
  double compile_ms;       /* this compile (a cache hit: loading the entry) */
  xlac_cache_result cache; /* what the persistent compile cache did */
  const char *cache_note;  /* with XLAC_CACHE_REPLACED / XLAC_CACHE_UNUSABLE: why ("" otherwise); owned by the executable */
  int num_replicas, num_partitions;
  int aliased_results;     /* results paired with an argument (donate_args) */
  int in_place_results;    /* of those, results computed straight into the donated storage (no copy) */
  /* where compile_ms went (cpu backend): optimization passes, generating
     LLVM IR, LLVM's optimizer, machine code (0 for what a cache hit skipped) */
  double passes_ms, ir_ms, llvm_opt_ms, machine_ms;
  /* what compiling warned about, formatted as the command line prints it
     (file:line:col: warning: ...), one per line; "" when nothing; owned by
     the executable */
  const char *warnings;
  /* what one execution costs on one device, counted on the optimized
     program as XLA's cost analysis counts (docs/api.md, "Cost analysis"):
     floating-point operations (a multiply-add is 2), transcendental
     functions evaluated, and bytes read and written by the top-level ops
     and fusions */
  double flops, transcendentals, bytes_accessed;
  /* the threads LLVM's optimizer and code generator ran on (cpu backend):
     a large program is cut into parts compiled side by side, on as many
     threads as the process may use CPUs (XLAC_COMPILE_THREADS sets the
     most); 1 otherwise */
  int compile_threads;
} xlac_executable_stats;
xlac_status *xlac_executable_stats_get(const xlac_executable *e, xlac_executable_stats *out_stats);
/* Compiled with xlac_compile_options.profile: where the executions so far
   spent their time, as a table (xlac_free): per op and fusion of the
   optimized program, most expensive first (at most `top` rows; all when
   top <= 0), its time per execution, share, calls, time per call, what it
   is and where its source is.  Nonzero reset clears the
   totals after reading them.  XLAC_FAILED_PRECONDITION without profile. */
xlac_status *xlac_executable_profile(xlac_executable *e, int top, int reset, char **out_text, size_t *out_len);
/* The optimized module as StableHLO or HLO text (xlac_free). */
xlac_status *xlac_executable_print(const xlac_executable *e, xlac_format format, char **out_text, size_t *out_len);

/* ---- buffers ---- */

typedef struct xlac_buffer xlac_buffer;

enum {
  /* Use the host memory in place instead of copying it: it must be 64-byte
     aligned and stay valid (and unchanged, unless the buffer is donated)
     until the buffer is destroyed.  Without this flag the data is copied. */
  XLAC_HOST_ZERO_COPY = 1,
  /* 2- and 4-bit types are packed (see "element types"). */
  XLAC_HOST_PACKED = 2,
};

/* A buffer of `type` with dims[0..rank-1] on device `device`, from host
   data of `size` bytes (which must be exactly what the shape needs). */
xlac_status *xlac_buffer_from_host(xlac_client *c, int device, xlac_type type, const int64_t *dims, int rank,
                                   const void *data, size_t size, unsigned flags, xlac_buffer **out_buffer);
/* Copies the buffer's elements to dst (size: at least xlac_buffer_host_size). */
xlac_status *xlac_buffer_to_host(const xlac_buffer *b, void *dst, size_t size, unsigned flags);
/* Bytes the host copy takes (flags: XLAC_HOST_PACKED or 0). */
size_t xlac_buffer_host_size(const xlac_buffer *b, unsigned flags);
xlac_status *xlac_buffer_shape(const xlac_buffer *b, xlac_shape *out_shape); /* dims owned by b */
int xlac_buffer_device(const xlac_buffer *b); /* -1 for an invalid buffer */
/* Nonzero once the buffer was donated to an execution (its storage now
   belongs to a result); a donated buffer can only be destroyed. */
int xlac_buffer_is_donated(const xlac_buffer *b);
void xlac_buffer_destroy(xlac_buffer *b); /* accepts NULL */

/* Completion.  On the gpu backend, where the driver allows it, an
   execution returns once its work is queued on the device, and an upload
   (xlac_buffer_from_host) once its copy is: the results are buffers whose
   data is still being computed.  Everything that reads a buffer waits for
   it by itself (xlac_buffer_to_host on the host, executions on the
   device, without the host waiting), so waiting is never needed for
   correctness; these tell when the data is there, and report a failure
   of the device work that computes it (a fault in a kernel), which an
   execution that returned early could not.  Buffers of other backends,
   and of a GPU whose driver runs everything synchronously, are always
   ready. */
/* Waits until the buffer's data is computed; NULL, or the failure of the
   work that computes it. */
xlac_status *xlac_buffer_await(const xlac_buffer *b);
/* Nonzero when waiting would not block (the work is done, or failed);
   nonzero for NULL and invalid buffers. */
int xlac_buffer_is_ready(const xlac_buffer *b);

/* ---- executing ---- */

/* A cancellation flag one or more executions watch. */
typedef struct xlac_cancel xlac_cancel;
xlac_status *xlac_cancel_create(xlac_cancel **out_cancel);
void xlac_cancel_trigger(xlac_cancel *c);  /* async-signal-safe; accepts NULL */
void xlac_cancel_destroy(xlac_cancel *c);  /* accepts NULL; not while an execution watches it */

typedef struct xlac_execute_options {
  size_t struct_size;
  /* Donate these arguments (indices) of every device: their buffers are
     consumed (xlac_buffer_is_donated becomes true) and, for arguments
     paired with a result at compile time, the result takes over their
     storage instead of allocating its own. */
  const int *donate_args;
  int num_donate_args;
  /* xlac_cancel_trigger on this (from any thread) stops the execution at
     its next loop iteration with XLAC_CANCELLED.  NULL: not cancellable. */
  xlac_cancel *cancel;
  /* The client devices to run on, one per device of the execution
     (num_devices entries, distinct): device d of the execution (replica
     d / num_partitions, partition d % num_partitions) runs on client
     device devices[d], its arguments must be on that device, and its
     results are placed there.  NULL: devices 0 .. num_devices-1. */
  const int *devices;
} xlac_execute_options;

/* Runs on num_devices devices (the executable's replicas x partitions):
   args[d][i] is argument i of device d (on device d, or on
   xlac_execute_options.devices[d]), and results[d] is an
   array of xlac_executable_num_results(e) slots that receive new buffers.
   On failure no result is returned and no argument is consumed (a donated
   argument the run was updating in place then has unspecified contents). */
xlac_status *xlac_executable_execute(xlac_executable *e, int num_devices, xlac_buffer *const *const *args,
                                     const xlac_execute_options *opts, xlac_buffer **const *results);
/* One device: args[0..num_args-1] in, results[0..num_results-1] out. */
xlac_status *xlac_executable_run(xlac_executable *e, xlac_buffer *const *args, int num_args, xlac_buffer **results);

/* ---- custom calls: host functions the program calls ----
 * `stablehlo.custom_call @name(...)` (HLO: custom-call with
 * custom_call_target="name") calls the host function registered under
 * that name, from compiled code and from the interpreter alike.  The
 * registry is process-wide; registering a name again replaces it (programs
 * already compiled keep the old function).  Compiling a program that calls
 * an unregistered target fails, naming it. */

typedef struct xlac_ffi_buffer {
  xlac_type type;
  int rank;
  const int64_t *dims;
  void *data;              /* unpacked host layout; arguments must not be written */
} xlac_ffi_buffer;

typedef struct xlac_ffi_call {
  size_t struct_size;
  const char *target;
  int num_args;
  const xlac_ffi_buffer *args;
  int num_results;
  const xlac_ffi_buffer *results;
  const char *backend_config;    /* the op's backend_config string ("" if none) */
  size_t backend_config_len;
  const char *attributes;        /* its other attributes, as an MLIR dictionary "{api_version = 2 : i32, ...}" */
  int replica_id, partition_id;  /* the device that runs this call */
} xlac_ffi_call;

/* Typed host function: read the arguments, write every result, return NULL
   or an error status (which fails the execution with its message). */
typedef xlac_status *(*xlac_custom_call_fn)(void *user, const xlac_ffi_call *call);

xlac_status *xlac_custom_call_register(const char *target, xlac_custom_call_fn fn, void *user);

/* The classic signatures of XLA's CPU custom calls:
     XLAC_CUSTOM_CALL_CLASSIC:         void f(void *out, const void **in)
     XLAC_CUSTOM_CALL_CLASSIC_STATUS:  void f(void *out, const void **in, const char *opaque,
                                            size_t opaque_len, xlac_custom_call_status *status)
   out is the result's data pointer, or for several results an array of
   them (void **); opaque is the backend_config. */
typedef enum xlac_custom_call_api {
  XLAC_CUSTOM_CALL_CLASSIC = 1,
  XLAC_CUSTOM_CALL_CLASSIC_STATUS = 2,
} xlac_custom_call_api;
typedef struct xlac_custom_call_status xlac_custom_call_status;
void xlac_custom_call_status_set_failure(xlac_custom_call_status *status, const char *message, size_t len);
xlac_status *xlac_custom_call_register_classic(const char *target, void *fn, xlac_custom_call_api api);

/* The registered names, sorted, joined by ", " (xlac_free). */
char *xlac_custom_call_list(void);

/* Custom calls on the gpu backend (XLAC_BACKEND_GPU), XLA's GPU signature:
     void f(void *stream, void **buffers, const char *opaque, size_t opaque_len,
            xlac_custom_call_status *status)
   stream: the execution's CUstream (NULL: the default stream, on which
   the kernels before the call have been queued and the ones after it will
   be); buffers: the operands' then the results' device pointers
   (CUdeviceptr values); the function launches its own kernels or copies on
   that stream.  A separate, process-wide registry: registering a name again
   replaces it. */
typedef void (*xlac_gpu_custom_call_fn)(void *stream, void **buffers, const char *opaque, size_t opaque_len,
                                        xlac_custom_call_status *status);
xlac_status *xlac_gpu_custom_call_register(const char *target, xlac_gpu_custom_call_fn fn);

#ifdef __cplusplus
}
#endif

#endif
