/*
 * fake_cublaslt.c - a stand-in for NVIDIA's cuBLASLt, for testing the GPU
 * backend's use of it where there is no GPU.
 *
 * It exports the entry points src/gpu/cublaslt.c looks up, with the same
 * signatures (declared by src/gpu/cublaslt_abi.h), and computes products
 * with plain loops on the host: it reads A, B (and C when beta is not 0)
 * from device memory and writes D back through the CUDA driver the program
 * uses, which it finds as xlac does: XLAC_CUDA_DRIVER names the simulator's
 * library (or "simt...": the SIMT harness, whose device memory is host
 * memory), else libcuda.so.1.  It honours what a caller sets: data, scale
 * and compute types (f32, f16, bf16, f64, and f16 or bf16 A and B under
 * an f32 C and D; 32F accumulates in float,
 * 32F_FAST_TF32 rounds the operands to TF32 first, 64F in double),
 * column- and row-major layouts, leading dimensions, transposes, strided
 * batches, alpha and beta, and the epilogues DEFAULT, BIAS, RELU,
 * RELU_BIAS, GELU, GELU_BIAS (the bias along D's rows, the same for every
 * batch member unless a batch stride is set).
 *
 * Environment:
 *   XLAC_FAKE_CUBLASLT_LOG       a file each cublasLtMatmul appends a line
 *                                to (shapes, types, transposes, epilogue)
 *   XLAC_FAKE_CUBLASLT_DECLINE=1 the heuristic finds no algorithm
 *   XLAC_FAKE_CUBLASLT_NO_GPU=1  cublasLtCreate fails, as the real library
 *                                does without a GPU
 *   XLAC_FAKE_CUBLASLT_ALGOS=N   the heuristic proposes up to N algorithms
 *                                (default 4; never more than asked for),
 *                                numbered from 0 (`algo=` in the log)
 *   XLAC_FAKE_CUBLASLT_SLOW=I,J  algorithms I, J, ... take 20 ms longer
 *                                (for the autotuning test)
 *   XLAC_FAKE_CUBLASLT_COUNTS    a file that each descriptor, layout and
 *                                preference made and each heuristic call
 *                                appends a line to (`desc`, `layout`,
 *                                `pref`, `heuristic`)
 */
#include <time.h>
#include <dlfcn.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/cublaslt_abi.h"

#define EXPORT __attribute__((visibility("default")))

/* The exported entry points, of the types xlac calls them through. */
EXPORT size_t cublasLtGetVersion(void);
EXPORT BltStatus cublasLtCreate(BltHandle *h);
EXPORT BltStatus cublasLtDestroy(BltHandle h);
EXPORT BltStatus cublasLtMatmulDescCreate(BltMatmulDesc *d, int compute, int scale);
EXPORT BltStatus cublasLtMatmulDescDestroy(BltMatmulDesc d);
EXPORT BltStatus cublasLtMatmulDescSetAttribute(BltMatmulDesc d, int attr, const void *buf, size_t bytes);
EXPORT BltStatus cublasLtMatrixLayoutCreate(BltMatrixLayout *l, int type, uint64_t rows, uint64_t cols, int64_t ld);
EXPORT BltStatus cublasLtMatrixLayoutDestroy(BltMatrixLayout l);
EXPORT BltStatus cublasLtMatrixLayoutSetAttribute(BltMatrixLayout l, int attr, const void *buf, size_t bytes);
EXPORT BltStatus cublasLtMatmulPreferenceCreate(BltPreference *p);
EXPORT BltStatus cublasLtMatmulPreferenceDestroy(BltPreference p);
EXPORT BltStatus cublasLtMatmulPreferenceSetAttribute(BltPreference p, int attr, const void *buf, size_t bytes);
EXPORT BltStatus cublasLtMatmulAlgoGetHeuristic(BltHandle h, BltMatmulDesc d, BltMatrixLayout a, BltMatrixLayout b,
                                                BltMatrixLayout c, BltMatrixLayout dl, BltPreference p, int requested,
                                                BltHeuristic *results, int *returned);
EXPORT BltStatus cublasLtMatmul(BltHandle h, BltMatmulDesc d, const void *alpha, const void *A, BltMatrixLayout a,
                                const void *B, BltMatrixLayout b, const void *beta, const void *C, BltMatrixLayout c,
                                void *D, BltMatrixLayout dl, const BltAlgo *algo, void *workspace, size_t ws_bytes,
                                void *stream);
/* the same types as cublaslt_abi.h's (a mismatch does not compile) */
static const BltHeuristicFn check_heuristic __attribute__((unused)) = cublasLtMatmulAlgoGetHeuristic;
static const BltMatmulFn check_matmul __attribute__((unused)) = cublasLtMatmul;
static const BltLayoutCreateFn check_layout __attribute__((unused)) = cublasLtMatrixLayoutCreate;
static const BltDescCreateFn check_desc __attribute__((unused)) = cublasLtMatmulDescCreate;

/* ---- device memory ---- */

typedef int (*CopyFn)(unsigned long long, const void *, size_t);
typedef int (*CopyBackFn)(void *, unsigned long long, size_t);

static bool host_memory; /* the SIMT harness */
static CopyFn htod;
static CopyBackFn dtoh;

static bool driver_ready(void) {
  static bool tried, ok;
  if (tried) return ok;
  tried = true;
  const char *env = getenv("XLAC_CUDA_DRIVER");
  if (env && strncmp(env, "simt", 4) == 0) {
    host_memory = true;
    return ok = true;
  }
  void *h = dlopen(env && *env ? env : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) return ok = false;
  *(void **)&htod = dlsym(h, "cuMemcpyHtoD_v2");
  *(void **)&dtoh = dlsym(h, "cuMemcpyDtoH_v2");
  return ok = htod && dtoh;
}

static void *fetch(const void *dev, size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) return NULL;
  if (host_memory) memcpy(p, dev, bytes);
  else if (dtoh(p, (unsigned long long)(uintptr_t)dev, bytes) != 0) {
    free(p);
    return NULL;
  }
  return p;
}

static bool store(void *dev, const void *src, size_t bytes) {
  if (host_memory) {
    memcpy(dev, src, bytes);
    return true;
  }
  return htod((unsigned long long)(uintptr_t)dev, src, bytes) == 0;
}

/* ---- element types ---- */

static size_t type_bytes(int t) { return t == BLT_R_64F ? 8 : t == BLT_R_32F ? 4 : 2; }

static double half_to_double(uint16_t h) {
  int e = h >> 10 & 31, m = h & 1023;
  double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 1024, e - 25);
  return h >> 15 ? -v : v;
}

/* f rounded to the nearest f16 (ties to even), as its bits; by hand, as
   not every compiler has _Float16 on x86-64 (clang before 15). */
static uint16_t float_to_half(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  uint16_t sign = (uint16_t)(u >> 16 & 0x8000);
  uint32_t a = u & 0x7fffffff;
  if (a > 0x7f800000) return sign | 0x7e00;   /* NaN */
  if (a >= 0x47800000) return sign | 0x7c00;  /* 65536 and up, infinity: infinity */
  if (a < 0x38800000) {                       /* below 2^-14: a subnormal f16 (or 2^-14) */
    float x;
    memcpy(&x, &a, 4);
    return sign | (uint16_t)nearbyint((double)x * 16777216.0); /* units of 2^-24 */
  }
  uint32_t h = ((a >> 23) - 112) << 10 | (a & 0x7fffff) >> 13, rest = a & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) h++; /* a carry may make it infinity */
  return sign | (uint16_t)h;
}

static uint16_t float_to_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((u & 0x7fffffff) > 0x7f800000) return (uint16_t)(u >> 16 | 64); /* NaN stays NaN */
  u += 0x7fff + (u >> 16 & 1);
  return (uint16_t)(u >> 16);
}

static double load(int t, const void *p, size_t i) {
  switch (t) {
  case BLT_R_64F: return ((const double *)p)[i];
  case BLT_R_32F: return ((const float *)p)[i];
  case BLT_R_16F: return half_to_double(((const uint16_t *)p)[i]);
  default: {
    uint32_t u = (uint32_t)((const uint16_t *)p)[i] << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
  }
  }
}

static void put(int t, void *p, size_t i, double v) {
  switch (t) {
  case BLT_R_64F: ((double *)p)[i] = v; break;
  case BLT_R_32F: ((float *)p)[i] = (float)v; break;
  case BLT_R_16F: ((uint16_t *)p)[i] = float_to_half((float)v); break;
  default: ((uint16_t *)p)[i] = float_to_bf16((float)v); break;
  }
}

static float tf32(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((u & 0x7f800000) != 0x7f800000) u = (u + 0xfff + (u >> 13 & 1)) & ~(uint32_t)0x1fff;
  memcpy(&f, &u, 4);
  return f;
}

static const char *type_name(int t) {
  return t == BLT_R_64F ? "f64" : t == BLT_R_32F ? "f32" : t == BLT_R_16F ? "f16" : t == BLT_R_16BF ? "bf16" : "?";
}

/* ---- descriptors ---- */

struct BltContext {
  int magic;
};

struct BltLayout {
  int type, order, batch;
  uint64_t rows, cols;
  int64_t ld, stride;
};

struct BltDesc {
  int compute, scale, pointer_mode, transa, transb;
  uint32_t epilogue;
  const void *bias;
  int64_t bias_stride;
};

struct BltPref {
  uint64_t max_ws;
  uint32_t align[4]; /* the least alignments of A, B, C, D the caller promises */
};

#define SET(dst, src, bytes)                                                                                           \
  do {                                                                                                                 \
    if ((bytes) != sizeof(dst)) return BLT_STATUS_INVALID_VALUE;                                                       \
    memcpy(&(dst), (src), sizeof(dst));                                                                                \
  } while (0)

static void count(const char *what) {
  const char *path = getenv("XLAC_FAKE_CUBLASLT_COUNTS");
  FILE *f = path && *path ? fopen(path, "a") : NULL;
  if (!f) return;
  fprintf(f, "%s\n", what);
  fclose(f);
}

/* Whether algorithm i is one XLAC_FAKE_CUBLASLT_SLOW names. */
static bool slow_algo(int i) {
  const char *s = getenv("XLAC_FAKE_CUBLASLT_SLOW");
  while (s && *s) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s) break;
    if (v == i) return true;
    s = *end == ',' ? end + 1 : end;
  }
  return false;
}

EXPORT size_t cublasLtGetVersion(void) { return 130000; }

EXPORT BltStatus cublasLtCreate(BltHandle *h) {
  const char *nogpu = getenv("XLAC_FAKE_CUBLASLT_NO_GPU");
  if ((nogpu && strcmp(nogpu, "1") == 0) || !driver_ready()) return BLT_STATUS_NOT_INITIALIZED;
  *h = calloc(1, sizeof **h);
  return *h ? BLT_STATUS_SUCCESS : BLT_STATUS_ALLOC_FAILED;
}

EXPORT BltStatus cublasLtDestroy(BltHandle h) {
  free(h);
  return BLT_STATUS_SUCCESS;
}

EXPORT BltStatus cublasLtMatmulDescCreate(BltMatmulDesc *d, int compute, int scale) {
  *d = calloc(1, sizeof **d);
  if (!*d) return BLT_STATUS_ALLOC_FAILED;
  count("desc");
  (*d)->compute = compute;
  (*d)->scale = scale;
  (*d)->epilogue = BLT_EPILOGUE_DEFAULT;
  return BLT_STATUS_SUCCESS;
}

EXPORT BltStatus cublasLtMatmulDescDestroy(BltMatmulDesc d) {
  free(d);
  return BLT_STATUS_SUCCESS;
}

EXPORT BltStatus cublasLtMatmulDescSetAttribute(BltMatmulDesc d, int attr, const void *buf, size_t bytes) {
  switch (attr) {
  case BLT_DESC_COMPUTE_TYPE: SET(d->compute, buf, bytes); break;
  case BLT_DESC_SCALE_TYPE: SET(d->scale, buf, bytes); break;
  case BLT_DESC_POINTER_MODE: SET(d->pointer_mode, buf, bytes); break;
  case BLT_DESC_TRANSA: SET(d->transa, buf, bytes); break;
  case BLT_DESC_TRANSB: SET(d->transb, buf, bytes); break;
  case BLT_DESC_EPILOGUE: SET(d->epilogue, buf, bytes); break;
  case BLT_DESC_BIAS_POINTER: SET(d->bias, buf, bytes); break;
  case BLT_DESC_BIAS_BATCH_STRIDE: SET(d->bias_stride, buf, bytes); break;
  default: return BLT_STATUS_NOT_SUPPORTED;
  }
  return BLT_STATUS_SUCCESS;
}

EXPORT BltStatus cublasLtMatrixLayoutCreate(BltMatrixLayout *l, int type, uint64_t rows, uint64_t cols, int64_t ld) {
  *l = calloc(1, sizeof **l);
  if (!*l) return BLT_STATUS_ALLOC_FAILED;
  count("layout");
  **l = (struct BltLayout){type, BLT_ORDER_COL, 1, rows, cols, ld, 0};
  return BLT_STATUS_SUCCESS;
}

EXPORT BltStatus cublasLtMatrixLayoutDestroy(BltMatrixLayout l) {
  free(l);
  return BLT_STATUS_SUCCESS;
}

EXPORT BltStatus cublasLtMatrixLayoutSetAttribute(BltMatrixLayout l, int attr, const void *buf, size_t bytes) {
  switch (attr) {
  case BLT_LAYOUT_TYPE: SET(l->type, buf, bytes); break;
  case BLT_LAYOUT_ORDER: SET(l->order, buf, bytes); break;
  case BLT_LAYOUT_ROWS: SET(l->rows, buf, bytes); break;
  case BLT_LAYOUT_COLS: SET(l->cols, buf, bytes); break;
  case BLT_LAYOUT_LD: SET(l->ld, buf, bytes); break;
  case BLT_LAYOUT_BATCH_COUNT: SET(l->batch, buf, bytes); break;
  case BLT_LAYOUT_STRIDED_BATCH_OFFSET: SET(l->stride, buf, bytes); break;
  default: return BLT_STATUS_NOT_SUPPORTED;
  }
  return BLT_STATUS_SUCCESS;
}

EXPORT BltStatus cublasLtMatmulPreferenceCreate(BltPreference *p) {
  *p = calloc(1, sizeof **p);
  if (!*p) return BLT_STATUS_ALLOC_FAILED;
  count("pref");
  for (int i = 0; i < 4; i++) (*p)->align[i] = 256; /* cuBLASLt's default */
  return BLT_STATUS_SUCCESS;
}

EXPORT BltStatus cublasLtMatmulPreferenceDestroy(BltPreference p) {
  free(p);
  return BLT_STATUS_SUCCESS;
}

EXPORT BltStatus cublasLtMatmulPreferenceSetAttribute(BltPreference p, int attr, const void *buf, size_t bytes) {
  switch (attr) {
  case BLT_PREF_MAX_WORKSPACE_BYTES: SET(p->max_ws, buf, bytes); break;
  case BLT_PREF_MIN_ALIGNMENT_A_BYTES: SET(p->align[0], buf, bytes); break;
  case BLT_PREF_MIN_ALIGNMENT_B_BYTES: SET(p->align[1], buf, bytes); break;
  case BLT_PREF_MIN_ALIGNMENT_C_BYTES: SET(p->align[2], buf, bytes); break;
  case BLT_PREF_MIN_ALIGNMENT_D_BYTES: SET(p->align[3], buf, bytes); break;
  default: return BLT_STATUS_NOT_SUPPORTED;
  }
  return BLT_STATUS_SUCCESS;
}

enum { FAKE_WORKSPACE = 4096 };

static bool known_epilogue(uint32_t e) {
  return e == BLT_EPILOGUE_DEFAULT || e == BLT_EPILOGUE_BIAS || e == BLT_EPILOGUE_RELU ||
         e == BLT_EPILOGUE_RELU_BIAS || e == BLT_EPILOGUE_GELU || e == BLT_EPILOGUE_GELU_BIAS;
}

EXPORT BltStatus cublasLtMatmulAlgoGetHeuristic(BltHandle h, BltMatmulDesc d, BltMatrixLayout a, BltMatrixLayout b,
                                                BltMatrixLayout c, BltMatrixLayout dl, BltPreference p, int requested,
                                                BltHeuristic *results, int *returned) {
  (void)a, (void)b, (void)c;
  const char *decline = getenv("XLAC_FAKE_CUBLASLT_DECLINE");
  *returned = 0;
  if (!h || requested < 1) return BLT_STATUS_INVALID_VALUE;
  count("heuristic");
  if ((decline && strcmp(decline, "1") == 0) || !known_epilogue(d->epilogue)) return BLT_STATUS_NOT_SUPPORTED;
  const char *algos = getenv("XLAC_FAKE_CUBLASLT_ALGOS");
  int offer = algos && *algos ? atoi(algos) : 4;
  if (offer < 1) offer = 1;
  if (offer > requested) offer = requested;
  for (int r = 0; r < offer; r++) {
    memset(&results[r], 0, sizeof results[r]);
    results[r].workspace_size = p->max_ws >= FAKE_WORKSPACE ? FAKE_WORKSPACE : 0;
    /* the algorithm remembers the alignments it was chosen for, which
       cublasLtMatmul then checks the pointers against, and its number */
    results[r].algo.data[0] = 0x78;
    for (int i = 0; i < 4; i++) results[r].algo.data[1 + i] = p->align[i];
    results[r].algo.data[5] = (uint64_t)r;
  }
  *returned = offer;
  const char *path = getenv("XLAC_FAKE_CUBLASLT_LOG");
  FILE *f = path && *path ? fopen(path, "a") : NULL;
  if (f) {
    fprintf(f, "cublasLtMatmulAlgoGetHeuristic m=%llu n=%llu align=%u,%u,%u,%u\n", (unsigned long long)dl->rows,
            (unsigned long long)dl->cols, p->align[0], p->align[1], p->align[2], p->align[3]);
    fclose(f);
  }
  return BLT_STATUS_SUCCESS;
}

/* Elements a layout spans, batches included. */
static size_t span(const struct BltLayout *l) {
  size_t one = l->order == BLT_ORDER_ROW ? (size_t)((l->rows - 1) * (uint64_t)l->ld + l->cols)
                                         : (size_t)((l->cols - 1) * (uint64_t)l->ld + l->rows);
  return one + (size_t)(l->batch > 1 ? (int64_t)(l->batch - 1) * l->stride : 0);
}

/* The index of element (r, c) of batch member q. */
static size_t at(const struct BltLayout *l, int q, uint64_t r, uint64_t c) {
  int64_t base = (int64_t)q * l->stride;
  return (size_t)(base + (l->order == BLT_ORDER_ROW ? (int64_t)r * l->ld + (int64_t)c : (int64_t)c * l->ld + (int64_t)r));
}

static const char *epilogue_name(uint32_t e) {
  switch (e) {
  case BLT_EPILOGUE_DEFAULT: return "DEFAULT";
  case BLT_EPILOGUE_BIAS: return "BIAS";
  case BLT_EPILOGUE_RELU: return "RELU";
  case BLT_EPILOGUE_RELU_BIAS: return "RELU_BIAS";
  case BLT_EPILOGUE_GELU: return "GELU";
  case BLT_EPILOGUE_GELU_BIAS: return "GELU_BIAS";
  default: return "?";
  }
}

static const char *compute_name(int c) {
  return c == BLT_COMPUTE_32F ? "32F" : c == BLT_COMPUTE_32F_FAST_TF32 ? "32F_FAST_TF32" : c == BLT_COMPUTE_64F ? "64F" : "?";
}

static void log_call(BltMatmulDesc d, BltMatrixLayout a, BltMatrixLayout b, BltMatrixLayout dl, uint64_t k,
                     size_t ws, void *stream, int algo) {
  const char *path = getenv("XLAC_FAKE_CUBLASLT_LOG");
  if (!path || !*path) return;
  FILE *f = fopen(path, "a");
  if (!f) return;
  fprintf(f,
          "cublasLtMatmul type=%s compute=%s scale=%s m=%llu n=%llu k=%llu batch=%d transa=%c transb=%c lda=%lld "
          "ldb=%lld ldd=%lld strideA=%lld strideB=%lld strideD=%lld epilogue=%s bias=%s workspace=%zu stream=%p "
          "algo=%d ab=%s\n",
          type_name(dl->type), compute_name(d->compute), type_name(d->scale), (unsigned long long)dl->rows,
          (unsigned long long)dl->cols, (unsigned long long)k, dl->batch, d->transa ? 'T' : 'N', d->transb ? 'T' : 'N',
          (long long)a->ld, (long long)b->ld, (long long)dl->ld, (long long)a->stride, (long long)b->stride,
          (long long)dl->stride, epilogue_name(d->epilogue), d->bias ? "yes" : "no", ws, stream, algo, type_name(a->type));
  fclose(f);
}

static double gelu(double x) { return 0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); }

EXPORT BltStatus cublasLtMatmul(BltHandle h, BltMatmulDesc d, const void *alpha, const void *A, BltMatrixLayout a,
                                const void *B, BltMatrixLayout b, const void *beta, const void *C, BltMatrixLayout c,
                                void *D, BltMatrixLayout dl, const BltAlgo *algo, void *workspace, size_t ws_bytes,
                                void *stream) {
  if (!h || !algo || algo->data[0] != 0x78 || (ws_bytes && !workspace) || !driver_ready())
    return BLT_STATUS_INVALID_VALUE;
  const void *ptrs[4] = {A, B, C, D};
  for (int i = 0; i < 4; i++)
    if ((uintptr_t)ptrs[i] % algo->data[1 + i]) return BLT_STATUS_INVALID_VALUE; /* less aligned than promised */
  /* op(A) is m x k, op(B) k x n, C and D m x n */
  uint64_t m = dl->rows, n = dl->cols, k = d->transa ? a->rows : a->cols;
  uint64_t am = d->transa ? a->cols : a->rows, bk = d->transb ? b->cols : b->rows, bn = d->transb ? b->rows : b->cols;
  if (am != m || bk != k || bn != n || c->rows != m || c->cols != n || a->batch != dl->batch ||
      b->batch != dl->batch || a->type != b->type ||
      (a->type != dl->type && !(dl->type == BLT_R_32F && (a->type == BLT_R_16F || a->type == BLT_R_16BF))) ||
      !known_epilogue(d->epilogue))
    return BLT_STATUS_INVALID_VALUE;
  bool has_bias = d->epilogue & BLT_EPILOGUE_BIAS;
  if (has_bias && !d->bias) return BLT_STATUS_INVALID_VALUE;
  double al = d->scale == BLT_R_64F ? *(const double *)alpha : *(const float *)alpha;
  double be = d->scale == BLT_R_64F ? *(const double *)beta : *(const float *)beta;
  int t = dl->type, abt = a->type; /* A and B may be 16-bit floats under an f32 D */
  size_t eb = type_bytes(t), abb = type_bytes(abt);
  void *ha = fetch(A, span(a) * abb), *hb = fetch(B, span(b) * abb);
  void *hc = be != 0 ? fetch(C, span(c) * eb) : NULL;
  size_t bias_n = (size_t)m + (dl->batch > 1 ? (size_t)(dl->batch - 1) * (size_t)d->bias_stride : 0);
  void *hbias = has_bias ? fetch(d->bias, bias_n * eb) : NULL;
  void *hd = malloc(span(dl) * eb);
  BltStatus s = BLT_STATUS_SUCCESS;
  if (!ha || !hb || (be != 0 && !hc) || (has_bias && !hbias) || !hd) s = BLT_STATUS_EXECUTION_FAILED;
  /* D's existing contents (between its leading-dimension gaps) are kept */
  if (s == BLT_STATUS_SUCCESS && (dl->ld != (int64_t)m || dl->batch > 1)) {
    void *old = fetch(D, span(dl) * eb);
    if (!old) s = BLT_STATUS_EXECUTION_FAILED;
    else memcpy(hd, old, span(dl) * eb);
    free(old);
  }
  for (int q = 0; s == BLT_STATUS_SUCCESS && q < dl->batch; q++)
    for (uint64_t j = 0; j < n; j++)
      for (uint64_t i = 0; i < m; i++) {
        double acc64 = 0;
        float acc32 = 0;
        for (uint64_t p = 0; p < k; p++) {
          double x = load(abt, ha, d->transa ? at(a, q, p, i) : at(a, q, i, p));
          double y = load(abt, hb, d->transb ? at(b, q, j, p) : at(b, q, p, j));
          if (d->compute == BLT_COMPUTE_64F) {
            acc64 += x * y;
          } else {
            float fx = (float)x, fy = (float)y;
            if (d->compute == BLT_COMPUTE_32F_FAST_TF32) fx = tf32(fx), fy = tf32(fy);
            acc32 += fx * fy;
          }
        }
        double v = al * (d->compute == BLT_COMPUTE_64F ? acc64 : acc32);
        if (be != 0) v += be * load(t, hc, at(c, q, i, j));
        if (has_bias) v += load(t, hbias, (size_t)q * (size_t)d->bias_stride + i);
        if (d->epilogue & BLT_EPILOGUE_RELU) v = v > 0 ? v : 0;
        if (d->epilogue & BLT_EPILOGUE_GELU) v = gelu(v);
        put(t, hd, at(dl, q, i, j), v);
      }
  if (s == BLT_STATUS_SUCCESS && !store(D, hd, span(dl) * eb)) s = BLT_STATUS_EXECUTION_FAILED;
  if (s == BLT_STATUS_SUCCESS && slow_algo((int)algo->data[5])) {
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  if (s == BLT_STATUS_SUCCESS) log_call(d, a, b, dl, k, ws_bytes, stream, (int)algo->data[5]);
  free(ha);
  free(hb);
  free(hc);
  free(hbias);
  free(hd);
  return s;
}
