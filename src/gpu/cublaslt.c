/*
 * cublaslt.c - opening cuBLASLt with dlopen and running a planned product
 * through it (cublaslt.h).
 *
 * Where the library is looked for, in order (docs/gpu.md):
 *   - XLAC_GPU_CUBLAS=0: nowhere, our own kernel for every product;
 *   - $XLAC_CUBLASLT: the library file, or a folder holding it;
 *   - only when the CUDA driver is the system's (XLAC_CUDA_DRIVER unset or
 *     naming libcuda): libcublasLt.so.13, .so.12, .so.11 and libcublasLt.so
 *     as the dynamic loader finds them (LD_LIBRARY_PATH, the loader's
 *     cache, a copy the process has loaded already, as JAX's CUDA plugin
 *     does); then the folder of the loaded driver, $CUDA_HOME/lib64,
 *     $CUDA_PATH/lib64, /usr/local/cuda/lib64, and the folders where pip's
 *     nvidia-cublas wheels put it (nvidia/cu13/lib, nvidia/cublas/lib)
 *     under the site- or dist-packages of $VIRTUAL_ENV, $CONDA_PREFIX,
 *     ~/.local, /usr/local and /usr, and next to the xlac library itself.
 * A library found but unusable (an entry point missing, cublasLtCreate
 * failing on the device) is a quiet fallback too; --verbose says which.
 *
 * The library is process-wide state (plain malloc, like the driver's); a
 * device's handle lives with the device and goes with it.
 */
#include "gpu/cublaslt.h"

#include <dlfcn.h>
#include <glob.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"
#include "support/support.h"

typedef struct CublasLt {
  void *handle;
  char *path;
  size_t version;
  BltCreateFn create;
  BltDestroyFn destroy;
  BltGetVersionFn get_version;
  BltDescCreateFn desc_create;
  BltDescDestroyFn desc_destroy;
  BltDescSetFn desc_set;
  BltLayoutCreateFn layout_create;
  BltLayoutDestroyFn layout_destroy;
  BltLayoutSetFn layout_set;
  BltPrefCreateFn pref_create;
  BltPrefDestroyFn pref_destroy;
  BltPrefSetFn pref_set;
  BltHeuristicFn heuristic;
  BltMatmulFn matmul;
} CublasLt;

/* At most this many algorithms timed by XLAC_GPU_AUTOTUNE. */
enum { MAX_TUNE = 16 };

/* A product's descriptors and the algorithm the heuristic chose for it,
   kept per device for the next call of the same product over buffers of
   the same alignments (keyed by the call's contents: another executable's
   identical product shares them).  Made once: the executions after the
   first make no descriptor, layout or heuristic call.  With autotuning,
   the candidates the heuristic proposed, timed on the first call, the
   fastest then kept as heur. */
typedef struct Plan {
  GpuBlasCall call;
  uint32_t align[3]; /* of A, B and D (C is D) */
  BltMatmulDesc desc;
  BltMatrixLayout a, b, d;
  BltHeuristic heur;
  bool found; /* false: no algorithm for it (our kernel runs) */
  BltHeuristic cands[MAX_TUNE];
  int ncands;
  bool tuned; /* heur is the fastest of cands (or tuning was not possible) */
} Plan;

enum { MAX_PLANS = 256 };

/* A device's handle and plans (GpuDevice.blas). */
struct GpuBlas {
  BltHandle handle;
  bool failed; /* cublasLtCreate failed on this device: not tried again */
  VEC(Plan *) plans;
};

static const struct {
  int code;
  const char *name;
} statuses[] = {
    {BLT_STATUS_SUCCESS, "CUBLAS_STATUS_SUCCESS"},
    {BLT_STATUS_NOT_INITIALIZED, "CUBLAS_STATUS_NOT_INITIALIZED"},
    {BLT_STATUS_ALLOC_FAILED, "CUBLAS_STATUS_ALLOC_FAILED"},
    {BLT_STATUS_INVALID_VALUE, "CUBLAS_STATUS_INVALID_VALUE"},
    {BLT_STATUS_ARCH_MISMATCH, "CUBLAS_STATUS_ARCH_MISMATCH"},
    {BLT_STATUS_MAPPING_ERROR, "CUBLAS_STATUS_MAPPING_ERROR"},
    {BLT_STATUS_EXECUTION_FAILED, "CUBLAS_STATUS_EXECUTION_FAILED"},
    {BLT_STATUS_INTERNAL_ERROR, "CUBLAS_STATUS_INTERNAL_ERROR"},
    {BLT_STATUS_NOT_SUPPORTED, "CUBLAS_STATUS_NOT_SUPPORTED"},
    {BLT_STATUS_LICENSE_ERROR, "CUBLAS_STATUS_LICENSE_ERROR"},
};

const char *gpu_blas_status_name(int status) {
  for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++)
    if (statuses[i].code == status) return statuses[i].name;
  static _Thread_local char buf[40];
  snprintf(buf, sizeof buf, "CUBLAS_STATUS_%d", status);
  return buf;
}

/* ---- finding and opening the library ---- */

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static CublasLt *lib;
static const char *lib_why = "not looked for";

static const char *const sonames[] = {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so.11",
                                      "libcublasLt.so"};

/* The entry points of h, or NULL (h closed) when one is missing. */
static CublasLt *bind(void *h, const char *path) {
  CublasLt *L = calloc(1, sizeof *L);
  if (!L || !(L->path = strdup(path))) {
    xfree(L);
    dlclose(h);
    lib_why = "out of memory";
    return NULL;
  }
  L->handle = h;
#define SYM(field, name) (*(void **)&L->field = dlsym(h, name)) != NULL
  bool ok = SYM(create, "cublasLtCreate") && SYM(destroy, "cublasLtDestroy") &&
            SYM(get_version, "cublasLtGetVersion") && SYM(desc_create, "cublasLtMatmulDescCreate") &&
            SYM(desc_destroy, "cublasLtMatmulDescDestroy") && SYM(desc_set, "cublasLtMatmulDescSetAttribute") &&
            SYM(layout_create, "cublasLtMatrixLayoutCreate") && SYM(layout_destroy, "cublasLtMatrixLayoutDestroy") &&
            SYM(layout_set, "cublasLtMatrixLayoutSetAttribute") &&
            SYM(pref_create, "cublasLtMatmulPreferenceCreate") &&
            SYM(pref_destroy, "cublasLtMatmulPreferenceDestroy") &&
            SYM(pref_set, "cublasLtMatmulPreferenceSetAttribute") &&
            SYM(heuristic, "cublasLtMatmulAlgoGetHeuristic") && SYM(matmul, "cublasLtMatmul");
#undef SYM
  if (!ok) {
    lib_why = "the library found lacks an entry point xlac needs (too old?)";
    xfree(L->path);
    xfree(L);
    dlclose(h);
    return NULL;
  }
  L->version = L->get_version();
  return L;
}

static void *open_file(const char *path) { return dlopen(path, RTLD_NOW | RTLD_LOCAL); }

/* The library in folder dir, under one of its names; NULL if none. */
static CublasLt *open_in(const char *dir) {
  for (size_t i = 0; i < sizeof sonames / sizeof sonames[0]; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, sonames[i]);
    void *h = open_file(path);
    if (h) return bind(h, path);
  }
  return NULL;
}

/* The library in the folders a glob pattern names; NULL if none. */
static CublasLt *open_glob(const char *pattern) {
  glob_t g;
  if (glob(pattern, 0, NULL, &g) != 0) return NULL;
  CublasLt *L = NULL;
  for (size_t i = 0; !L && i < g.gl_pathc; i++) L = open_in(g.gl_pathv[i]);
  globfree(&g);
  return L;
}

/* pip's wheels under a Python prefix (a virtual environment, conda, the
   user's or the system's). */
static CublasLt *open_wheels(const char *prefix) {
  static const char *const tails[] = {
      "lib/python3*/site-packages/nvidia/cu13/lib", "lib/python3*/site-packages/nvidia/cublas/lib",
      "lib/python3*/dist-packages/nvidia/cu13/lib", "lib/python3*/dist-packages/nvidia/cublas/lib"};
  CublasLt *L = NULL;
  for (size_t i = 0; !L && prefix && *prefix && i < sizeof tails / sizeof tails[0]; i++) {
    char pat[4096];
    snprintf(pat, sizeof pat, "%s/%s", prefix, tails[i]);
    L = open_glob(pat);
  }
  return L;
}

/* The folder of the file holding address p (a library), or "". */
static void dir_of(const void *p, char *out, size_t n) {
  Dl_info info;
  out[0] = 0;
  if (!dladdr(p, &info) || !info.dli_fname) return;
  snprintf(out, n, "%s", info.dli_fname);
  char *slash = strrchr(out, '/');
  if (slash) *slash = 0;
  else out[0] = 0;
}

static bool system_driver(void) {
  const char *drv = getenv("XLAC_CUDA_DRIVER");
  if (!drv || !*drv) return true;
  const char *base = strrchr(drv, '/');
  base = base ? base + 1 : drv;
  return strncmp(base, "libcuda.so", 10) == 0;
}

static CublasLt *search(void) {
  for (size_t i = 0; i < sizeof sonames / sizeof sonames[0]; i++) {
    void *h = open_file(sonames[i]);
    if (h) {
      /* the file the loader chose, for messages */
      char dir[4096], path[4200];
      dir_of(dlsym(h, "cublasLtCreate"), dir, sizeof dir);
      snprintf(path, sizeof path, "%s%s%s", dir, *dir ? "/" : "", sonames[i]);
      return bind(h, path);
    }
  }
  CublasLt *L = NULL;
  char dir[4096];
  const CudaDriver *drv = cuda_driver(NULL);
  if (drv) {
    dir_of((const void *)drv->cuInit, dir, sizeof dir);
    if (*dir) L = open_in(dir);
  }
  static const char *const homes[] = {"CUDA_HOME", "CUDA_PATH"};
  for (size_t i = 0; !L && i < 2; i++) {
    const char *h = getenv(homes[i]);
    if (h && *h) {
      snprintf(dir, sizeof dir, "%s/lib64", h);
      L = open_in(dir);
    }
  }
  if (!L) L = open_in("/usr/local/cuda/lib64");
  if (!L) L = open_wheels(getenv("VIRTUAL_ENV"));
  if (!L) L = open_wheels(getenv("CONDA_PREFIX"));
  if (!L && getenv("HOME")) {
    snprintf(dir, sizeof dir, "%s/.local", getenv("HOME"));
    L = open_wheels(dir);
  }
  if (!L) L = open_wheels("/usr/local");
  if (!L) L = open_wheels("/usr");
  if (!L) {
    /* the JAX plugin installed into site-packages: nvidia/ beside it */
    dir_of((const void *)gpu_cublaslt_available, dir, sizeof dir);
    char pat[4200];
    for (int up = 1; !L && *dir && up <= 2; up++) {
      snprintf(pat, sizeof pat, "%s/%snvidia/cu13/lib", dir, up == 1 ? "../" : "../../");
      L = open_in(pat);
      snprintf(pat, sizeof pat, "%s/%snvidia/cublas/lib", dir, up == 1 ? "../" : "../../");
      if (!L) L = open_in(pat);
    }
  }
  return L;
}

static void load(void) {
  const char *off = getenv("XLAC_GPU_CUBLAS");
  if (off && strcmp(off, "0") == 0) {
    lib_why = "disabled by XLAC_GPU_CUBLAS=0";
    return;
  }
  const char *named = getenv("XLAC_CUBLASLT");
  if (named && *named) {
    void *h = open_file(named);
    lib = h ? bind(h, named) : open_in(named);
    if (!lib && !h) lib_why = "XLAC_CUBLASLT names no loadable cuBLASLt library";
    return;
  }
  if (!system_driver()) {
    lib_why = "XLAC_CUDA_DRIVER names a driver other than the system's, which cuBLASLt cannot use (XLAC_CUBLASLT "
              "names a library for it)";
    return;
  }
  lib = search();
  if (!lib && strcmp(lib_why, "not looked for") == 0) lib_why = "libcublasLt.so not found";
}

bool gpu_cublaslt_available(const char **why, const char **path, size_t *version) {
  pthread_once(&load_once, load);
  if (!lib) {
    if (why) *why = lib_why;
    return false;
  }
  if (path) *path = lib->path;
  if (version) *version = lib->version;
  return true;
}

/* ---- running a product ---- */

static void plan_free(Plan *p) {
  if (p->d) lib->layout_destroy(p->d);
  if (p->b) lib->layout_destroy(p->b);
  if (p->a) lib->layout_destroy(p->a);
  if (p->desc) lib->desc_destroy(p->desc);
  xfree(p);
}

static void plans_clear(struct GpuBlas *s) {
  for (int i = 0; i < s->plans.len; i++) plan_free(s->plans.data[i]);
  s->plans.len = 0;
}

void gpu_blas_release(GpuDevice *d) {
  if (!d->blas) return;
  if (lib) {
    plans_clear(d->blas);
    if (d->blas->handle) lib->destroy(d->blas->handle);
  }
  VEC_FREE(d->blas->plans);
  xfree(d->blas);
  d->blas = NULL;
}

/* The device's handle, made on first use; NULL when cuBLASLt cannot run
   there. */
static BltHandle handle_of(GpuDevice *d) {
  if (!d->blas) d->blas = xcalloc(1, sizeof *d->blas);
  if (!d->blas->handle && !d->blas->failed && lib->create(&d->blas->handle) != BLT_STATUS_SUCCESS) {
    d->blas->handle = NULL;
    d->blas->failed = true;
  }
  return d->blas->handle;
}

/* The largest power of two up to 256 that divides address p. */
static uint32_t alignment_of(CUdeviceptr p) {
  uint32_t a = 256;
  while (a > 1 && p % a) a /= 2;
  return a;
}

static BltStatus layout_new(BltMatrixLayout *l, int type, const GpuBlasMat *m, int64_t batch) {
  BltStatus s = lib->layout_create(l, type, (uint64_t)m->rows, (uint64_t)m->cols, m->ld);
  int32_t order = BLT_ORDER_COL, count = (int32_t)batch;
  int64_t stride = m->stride;
  if (s == BLT_STATUS_SUCCESS) s = lib->layout_set(*l, BLT_LAYOUT_ORDER, &order, sizeof order);
  if (s == BLT_STATUS_SUCCESS && batch > 1) {
    s = lib->layout_set(*l, BLT_LAYOUT_BATCH_COUNT, &count, sizeof count);
    if (s == BLT_STATUS_SUCCESS) s = lib->layout_set(*l, BLT_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride);
  }
  return s;
}

static BltStatus set_bias(Plan *p, CUdeviceptr bias) {
  const void *bp = (const void *)(uintptr_t)bias;
  return lib->desc_set(p->desc, BLT_DESC_BIAS_POINTER, &bp, sizeof bp);
}

/* How many of the heuristic's algorithms the first call of a product
   times (XLAC_GPU_AUTOTUNE=K, 2 to 16); 1: none, the heuristic's first. */
static int autotune_count(void) {
  const char *env = getenv("XLAC_GPU_AUTOTUNE");
  int k = env && *env ? atoi(env) : 1;
  return k < 1 ? 1 : k > MAX_TUNE ? MAX_TUNE : k;
}

/* The descriptors of p->call, and the heuristic's first algorithm for
   them (p->found), with up to autotune_count() candidates; the status of
   the first call that failed. */
static BltStatus plan_make(BltHandle h, Plan *p, CUdeviceptr bias) {
  const GpuBlasCall *c = &p->call;
  int32_t ta = c->a.trans, tb = c->b.trans;
  uint32_t epi = (uint32_t)c->epilogue;
  uint64_t ws_max = (uint64_t)32 << 20;
  int64_t bias_stride = 0;
  BltStatus s = lib->desc_create(&p->desc, c->compute, c->scale);
  if (s == BLT_STATUS_SUCCESS) s = lib->desc_set(p->desc, BLT_DESC_TRANSA, &ta, sizeof ta);
  if (s == BLT_STATUS_SUCCESS) s = lib->desc_set(p->desc, BLT_DESC_TRANSB, &tb, sizeof tb);
  if (s == BLT_STATUS_SUCCESS) s = lib->desc_set(p->desc, BLT_DESC_EPILOGUE, &epi, sizeof epi);
  if (s == BLT_STATUS_SUCCESS && c->ibias >= 0) {
    s = set_bias(p, bias);
    if (s == BLT_STATUS_SUCCESS) s = lib->desc_set(p->desc, BLT_DESC_BIAS_BATCH_STRIDE, &bias_stride, sizeof bias_stride);
  }
  if (s == BLT_STATUS_SUCCESS) s = layout_new(&p->a, c->ab_type, &c->a, c->batch);
  if (s == BLT_STATUS_SUCCESS) s = layout_new(&p->b, c->ab_type, &c->b, c->batch);
  if (s == BLT_STATUS_SUCCESS) s = layout_new(&p->d, c->type, &c->d, c->batch);
  if (s != BLT_STATUS_SUCCESS) return s;
  BltPreference pref = NULL;
  s = lib->pref_create(&pref);
  if (s == BLT_STATUS_SUCCESS) s = lib->pref_set(pref, BLT_PREF_MAX_WORKSPACE_BYTES, &ws_max, sizeof ws_max);
  static const int align_attr[4] = {BLT_PREF_MIN_ALIGNMENT_A_BYTES, BLT_PREF_MIN_ALIGNMENT_B_BYTES,
                                    BLT_PREF_MIN_ALIGNMENT_C_BYTES, BLT_PREF_MIN_ALIGNMENT_D_BYTES};
  for (int i = 0; i < 4 && s == BLT_STATUS_SUCCESS; i++)
    s = lib->pref_set(pref, align_attr[i], &p->align[i < 3 ? i : 2], sizeof p->align[0]);
  if (s == BLT_STATUS_SUCCESS) {
    int found = 0;
    /* no algorithm (NOT_SUPPORTED, or none returned) is not an error: our
       kernel takes the product */
    int want = autotune_count();
    BltStatus hs = lib->heuristic(h, p->desc, p->a, p->b, p->d, p->d, pref, want, p->cands, &found);
    p->found = hs == BLT_STATUS_SUCCESS && found >= 1;
    if (p->found) {
      p->heur = p->cands[0];
      p->ncands = found < want ? found : want;
      p->tuned = p->ncands < 2;
    }
  }
  if (pref) lib->pref_destroy(pref);
  return s;
}

static bool same_mat(const GpuBlasMat *x, const GpuBlasMat *y) {
  return x->trans == y->trans && x->rows == y->rows && x->cols == y->cols && x->ld == y->ld && x->stride == y->stride;
}

static bool same_call(const GpuBlasCall *x, const GpuBlasCall *y) {
  return x->type == y->type && x->ab_type == y->ab_type && x->compute == y->compute && x->scale == y->scale && x->epilogue == y->epilogue &&
         x->m == y->m && x->n == y->n && x->k == y->k && x->batch == y->batch && same_mat(&x->a, &y->a) &&
         same_mat(&x->b, &y->b) && same_mat(&x->d, &y->d) && (x->ibias >= 0) == (y->ibias >= 0);
}

/* The plan of c over buffers of these alignments, made on first use;
   NULL with *status when describing it failed. */
static Plan *plan_of(BltHandle h, struct GpuBlas *st, const GpuBlasCall *c, const uint32_t *align, CUdeviceptr bias,
                     BltStatus *status) {
  for (int i = 0; i < st->plans.len; i++) {
    Plan *p = st->plans.data[i];
    if (same_call(&p->call, c) && memcmp(p->align, align, sizeof p->align) == 0) return p;
  }
  Plan *p = xcalloc(1, sizeof *p);
  p->call = *c;
  memcpy(p->align, align, sizeof p->align);
  *status = plan_make(h, p, bias);
  if (*status != BLT_STATUS_SUCCESS) {
    plan_free(p);
    return NULL;
  }
  if (st->plans.len >= MAX_PLANS) plans_clear(st);
  VEC_PUSH(st->plans, p);
  return p;
}

/* Times each candidate algorithm of p once on the call's own buffers, on
   stream, and keeps the fastest (the first proposed on a tie) as p->heur
   for this and every later call: D is written by each and then again by
   the chosen one, so the results are the chosen algorithm's.  Without
   timing events (GPGPU-Sim's are stubs: no handle comes back) the
   heuristic's first stays.  Candidates that fail are passed over. */
static void autotune(GpuDevice *d, BltHandle h, Plan *p, CUstream stream, CUdeviceptr A, CUdeviceptr B, CUdeviceptr D,
                     const void *alpha, const void *beta) {
  const CudaDriver *drv = d->drv;
  p->tuned = true;
  CUevent ev[2] = {NULL, NULL};
  if (!drv->cuEventCreate || !drv->cuEventRecord || !drv->cuEventSynchronize || !drv->cuEventElapsedTime ||
      !drv->cuEventDestroy || drv->cuEventCreate(&ev[0], 0) != CUDA_SUCCESS || !ev[0] ||
      drv->cuEventCreate(&ev[1], 0) != CUDA_SUCCESS || !ev[1]) {
    if (ev[0]) drv->cuEventDestroy(ev[0]);
    return;
  }
  size_t ws_bytes = 0;
  for (int i = 0; i < p->ncands; i++)
    if (p->cands[i].workspace_size > ws_bytes) ws_bytes = p->cands[i].workspace_size;
  CUdeviceptr ws = 0;
  char *err = NULL;
  if (gpu_mem_alloc(d, ws_bytes, &ws, &err)) {
    int best = 0;
    float best_ms = -1;
    void *Dp = (void *)(uintptr_t)D;
    for (int i = 0; i < p->ncands; i++) {
      float ms = -1;
      bool good = drv->cuEventRecord(ev[0], stream) == CUDA_SUCCESS &&
                  lib->matmul(h, p->desc, alpha, (const void *)(uintptr_t)A, p->a, (const void *)(uintptr_t)B, p->b,
                              beta, Dp, p->d, Dp, p->d, &p->cands[i].algo, (void *)(uintptr_t)ws,
                              p->cands[i].workspace_size, stream) == BLT_STATUS_SUCCESS &&
                  drv->cuEventRecord(ev[1], stream) == CUDA_SUCCESS &&
                  drv->cuEventSynchronize(ev[1]) == CUDA_SUCCESS &&
                  drv->cuEventElapsedTime(&ms, ev[0], ev[1]) == CUDA_SUCCESS && ms >= 0;
      if (good && (best_ms < 0 || ms < best_ms)) {
        best = i;
        best_ms = ms;
      }
    }
    if (best_ms >= 0) p->heur = p->cands[best];
    /* the timing events were waited for: the workspace is free */
    gpu_mem_free(d, ws);
  }
  xfree(err);
  drv->cuEventDestroy(ev[0]);
  drv->cuEventDestroy(ev[1]);
}

bool gpu_blas_run(GpuDevice *d, const GpuBlasCall *c, CUstream stream, const CUdeviceptr *bufs, bool *ran,
                  char **err) {
  *ran = false;
  if (!gpu_cublaslt_available(NULL, NULL, NULL)) return true;
  BltHandle h = handle_of(d);
  if (!h) return true;
  CUdeviceptr A = bufs[c->ia], B = bufs[c->ib], D = bufs[c->id], bias = c->ibias >= 0 ? bufs[c->ibias] : 0;
  uint32_t align[3] = {alignment_of(A), alignment_of(B), alignment_of(D)};
  BltStatus s = BLT_STATUS_SUCCESS;
  Plan *p = plan_of(h, d->blas, c, align, bias, &s);
  if (!p) {
    *err = xasprintf("cuBLASLt: describing a %lld x %lld x %lld product: %s", (long long)c->m, (long long)c->n,
                     (long long)c->k, gpu_blas_status_name(s));
    return false;
  }
  if (!p->found) return true;
  if (bias && (s = set_bias(p, bias)) != BLT_STATUS_SUCCESS) {
    *err = xasprintf("cuBLASLt: setting the bias: %s", gpu_blas_status_name(s));
    return false;
  }
  float a32 = 1, b32 = 0;
  double a64 = 1, b64 = 0;
  const void *alpha = c->scale == BLT_R_64F ? (const void *)&a64 : (const void *)&a32;
  const void *beta = c->scale == BLT_R_64F ? (const void *)&b64 : (const void *)&b32;
  if (!p->tuned) autotune(d, h, p, stream, A, B, D, alpha, beta);
  CUdeviceptr ws = 0;
  if (!gpu_mem_alloc(d, p->heur.workspace_size, &ws, err)) return false;
  void *Dp = (void *)(uintptr_t)D;
  s = lib->matmul(h, p->desc, alpha, (const void *)(uintptr_t)A, p->a, (const void *)(uintptr_t)B, p->b, beta, Dp,
                  p->d, Dp, p->d, &p->heur.algo, (void *)(uintptr_t)ws, p->heur.workspace_size, stream);
  if (stream && ws) { /* the workspace is free once the product is done */
    char *why = NULL;
    GpuEvent *ev = gpu_event_record(d, stream, &why);
    if (!ev) d->drv->cuStreamSynchronize(stream);
    xfree(why);
    gpu_mem_free_after(d, ws, &ev, 1);
    gpu_event_release(ev);
  } else {
    gpu_mem_free(d, ws);
  }
  if (s != BLT_STATUS_SUCCESS) {
    *err = xasprintf("cublasLtMatmul (%lld x %lld x %lld, batch %lld): %s", (long long)c->m, (long long)c->n,
                     (long long)c->k, (long long)c->batch, gpu_blas_status_name(s));
    return false;
  }
  *ran = true;
  return true;
}
