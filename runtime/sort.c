/*
 * sort.c - the runtime's sort: a stable bottom-up merge sort of every 1-D
 * row of a tensor along one dimension, for comparators that compare the
 * first operand's two elements with one comparison (ascending, descending,
 * IEEE or total order); the other operands are permuted along (argsort).
 *
 * The merge order is exactly the reference interpreter's (widths 1, 2, 4,
 * ...; take from the right run only when comparator(right, left) holds), so
 * the permutation is identical to the interpreter's for any comparator in
 * this family, even the non-strict ones (LE, GE, EQ, NE) and NaN keys.
 * Each row is sorted on its own: rows are split into chunks fixed by the
 * problem size and run on the pool, which never changes a result.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rt_util.h"
#include "xlacrt.h"

/* A key widened to one of three comparable forms, and its position. */
typedef struct { double k; int64_t i; } EntryF;
typedef struct { int64_t k; int64_t i; } EntryS;
typedef struct { uint64_t k; int64_t i; } EntryU;

/* One merge sort per (key form, comparison): C's operators on the widened
   keys give exactly the comparator's results, NaN included (every ordered
   comparison with NaN is false, != is true). */
#define DEFINE_SORT(NAME, ENTRY, OP)                                                   \
  static void NAME(ENTRY *v, ENTRY *tmp, int64_t n) {                                   \
    for (int64_t width = 1; width < n; width *= 2) {                                    \
      for (int64_t lo = 0; lo < n; lo += 2 * width) {                                   \
        int64_t mid = lo + width < n ? lo + width : n;                                  \
        int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;                           \
        int64_t i = lo, j = mid, k = lo;                                                \
        while (i < mid && j < hi) tmp[k++] = (v[j].k OP v[i].k) ? v[j++] : v[i++];      \
        while (i < mid) tmp[k++] = v[i++];                                              \
        while (j < hi) tmp[k++] = v[j++];                                               \
      }                                                                                 \
      memcpy(v, tmp, sizeof(ENTRY) * (size_t)n);                                        \
    }                                                                                   \
  }

#define DEFINE_SORTS(SUFFIX, ENTRY)                    \
  DEFINE_SORT(sort_lt_##SUFFIX, ENTRY, <)              \
  DEFINE_SORT(sort_gt_##SUFFIX, ENTRY, >)              \
  DEFINE_SORT(sort_le_##SUFFIX, ENTRY, <=)             \
  DEFINE_SORT(sort_ge_##SUFFIX, ENTRY, >=)             \
  DEFINE_SORT(sort_eq_##SUFFIX, ENTRY, ==)             \
  DEFINE_SORT(sort_ne_##SUFFIX, ENTRY, !=)

DEFINE_SORTS(f, EntryF)
DEFINE_SORTS(s, EntryS)
DEFINE_SORTS(u, EntryU)

/* Reads a key element as raw bits (little-endian, any width). */
static uint64_t load_bits(const char *p, int bytes) {
  switch (bytes) {
  case 1: { uint8_t v; memcpy(&v, p, 1); return v; }
  case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
  case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
  default: { uint64_t v; memcpy(&v, p, 8); return v; }
  }
}

static int key_bytes(int key_type) {
  switch (key_type) {
  case XLACRT_KEY_S8: case XLACRT_KEY_U8: return 1;
  case XLACRT_KEY_S16: case XLACRT_KEY_U16: case XLACRT_KEY_F16: case XLACRT_KEY_BF16: return 2;
  case XLACRT_KEY_S32: case XLACRT_KEY_U32: case XLACRT_KEY_F32: return 4;
  default: return 8;
  }
}

static double float_key(int key_type, uint64_t b) {
  switch (key_type) {
  case XLACRT_KEY_F16: return rt_f16_to_double((uint16_t)b);
  case XLACRT_KEY_BF16: return rt_bf16_to_double((uint16_t)b);
  case XLACRT_KEY_F32: return (double)rt_f32_from_bits((uint32_t)b);
  default: { double d; memcpy(&d, &b, sizeof d); return d; }
  }
}

/* Orders floats by bit pattern: -NaN < -inf < ... < -0 < +0 < ... < +NaN. */
static int64_t total_key(int bytes, uint64_t b) {
  uint64_t sign = 1ull << (bytes * 8 - 1);
  uint64_t mag = b & (sign - 1);
  return (b & sign) ? -(int64_t)mag - 1 : (int64_t)mag;
}

/* One NaN (the positive quiet one) for every NaN, +0 for -0. */
static uint64_t canonical_bits(int key_type, uint64_t b) {
  uint64_t sign, exp, quiet;
  switch (key_type) {
  case XLACRT_KEY_F16: sign = 0x8000; exp = 0x7c00; quiet = 0x7e00; break;
  case XLACRT_KEY_BF16: sign = 0x8000; exp = 0x7f80; quiet = 0x7fc0; break;
  case XLACRT_KEY_F32: sign = 0x80000000u; exp = 0x7f800000u; quiet = 0x7fc00000u; break;
  default: sign = 1ull << 63; exp = 0x7ffull << 52; quiet = 0x7ff8ull << 48; break;
  }
  uint64_t mag = b & (sign - 1);
  if (mag > exp) return quiet;
  return mag == 0 ? 0 : b;
}

static int64_t signed_key(int bytes, uint64_t b) {
  switch (bytes) {
  case 1: return (int8_t)(uint8_t)b;
  case 2: return (int16_t)(uint16_t)b;
  case 4: return (int32_t)(uint32_t)b;
  default: { int64_t v; memcpy(&v, &b, sizeof v); return v; }
  }
}

typedef struct SortJob {
  int64_t len, inner, rows, rows_per_chunk;
  int key_type, total_order, direction, nops;
  const void *const *ins;
  void *const *outs;
  const int32_t *elem_bytes;
  xlacrt_sort_less_fn less; /* set: a general comparator */
} SortJob;

/* Applies the permutation of one row to every operand. */
static void permute_row(const SortJob *job, int64_t base, const int64_t *perm) {
  int64_t len = job->len, inner = job->inner;
  for (int k = 0; k < job->nops; k++) {
    size_t b = (size_t)job->elem_bytes[k];
    const char *src = job->ins[k];
    char *dst = job->outs[k];
    for (int64_t j = 0; j < len; j++)
      memcpy(dst + (size_t)(base + j * inner) * b, src + (size_t)(base + perm[j] * inner) * b, b);
  }
}

/* Sorts one row with the general comparator: the same merges on positions. */
static void sort_row_cmp(const SortJob *job, int64_t base, void *scratch) {
  int64_t n = job->len, inner = job->inner;
  int64_t *v = scratch, *tmp = v + n;
  for (int64_t j = 0; j < n; j++) v[j] = j;
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = lo + width < n ? lo + width : n;
      int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      int64_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        tmp[k++] = job->less(job->ins, base + v[j] * inner, base + v[i] * inner) ? v[j++] : v[i++];
      while (i < mid) tmp[k++] = v[i++];
      while (j < hi) tmp[k++] = v[j++];
    }
    memcpy(v, tmp, sizeof(int64_t) * (size_t)n);
  }
  permute_row(job, base, v);
}

/* Sorts one row: positions base + j * inner, j in [0, len). */
static void sort_row(const SortJob *job, int64_t base, void *scratch) {
  int64_t len = job->len, inner = job->inner;
  int kb = key_bytes(job->key_type);
  const char *keys = job->ins[0];
  int form; /* 0: double, 1: int64, 2: uint64 */
  bool is_float = job->key_type >= XLACRT_KEY_F16;
  if (is_float && !job->total_order) form = 0;
  else if (is_float || job->key_type <= XLACRT_KEY_S64) form = 1;
  else form = 2;
  /* every entry type is 16 bytes: scratch holds 2 * len of them */
  int64_t *perm = (int64_t *)((char *)scratch + 32 * (size_t)len);
  if (form == 0) {
    EntryF *v = scratch, *tmp = v + len;
    for (int64_t j = 0; j < len; j++) {
      v[j].k = float_key(job->key_type, load_bits(keys + (base + j * inner) * kb, kb));
      v[j].i = j;
    }
    switch (job->direction) {
    case XLACRT_CMP_LT: sort_lt_f(v, tmp, len); break;
    case XLACRT_CMP_GT: sort_gt_f(v, tmp, len); break;
    case XLACRT_CMP_LE: sort_le_f(v, tmp, len); break;
    case XLACRT_CMP_GE: sort_ge_f(v, tmp, len); break;
    case XLACRT_CMP_EQ: sort_eq_f(v, tmp, len); break;
    default: sort_ne_f(v, tmp, len); break;
    }
    for (int64_t j = 0; j < len; j++) perm[j] = v[j].i;
  } else if (form == 1) {
    EntryS *v = scratch, *tmp = v + len;
    for (int64_t j = 0; j < len; j++) {
      uint64_t b = load_bits(keys + (base + j * inner) * kb, kb);
      if (job->total_order == 2) b = canonical_bits(job->key_type, b);
      v[j].k = is_float ? total_key(kb, b) : signed_key(kb, b);
      v[j].i = j;
    }
    switch (job->direction) {
    case XLACRT_CMP_LT: sort_lt_s(v, tmp, len); break;
    case XLACRT_CMP_GT: sort_gt_s(v, tmp, len); break;
    case XLACRT_CMP_LE: sort_le_s(v, tmp, len); break;
    case XLACRT_CMP_GE: sort_ge_s(v, tmp, len); break;
    case XLACRT_CMP_EQ: sort_eq_s(v, tmp, len); break;
    default: sort_ne_s(v, tmp, len); break;
    }
    for (int64_t j = 0; j < len; j++) perm[j] = v[j].i;
  } else {
    EntryU *v = scratch, *tmp = v + len;
    for (int64_t j = 0; j < len; j++) {
      v[j].k = load_bits(keys + (base + j * inner) * kb, kb);
      v[j].i = j;
    }
    switch (job->direction) {
    case XLACRT_CMP_LT: sort_lt_u(v, tmp, len); break;
    case XLACRT_CMP_GT: sort_gt_u(v, tmp, len); break;
    case XLACRT_CMP_LE: sort_le_u(v, tmp, len); break;
    case XLACRT_CMP_GE: sort_ge_u(v, tmp, len); break;
    case XLACRT_CMP_EQ: sort_eq_u(v, tmp, len); break;
    default: sort_ne_u(v, tmp, len); break;
    }
    for (int64_t j = 0; j < len; j++) perm[j] = v[j].i;
  }
  permute_row(job, base, perm);
}

static void sort_chunk(int64_t chunk, void *ctx) {
  const SortJob *job = ctx;
  int64_t r0 = chunk * job->rows_per_chunk;
  int64_t r1 = r0 + job->rows_per_chunk < job->rows ? r0 + job->rows_per_chunk : job->rows;
  /* two entry arrays of 16 bytes and one permutation of 8 per element */
  void *scratch = xlacrt_scratch_get(XLACRT_SCRATCH_SORT, 40 * (size_t)job->len, "sort");
  if (!scratch) return; /* the rows stay unsorted; the run reports the failure */
  for (int64_t r = r0; r < r1; r++) {
    int64_t o = r / job->inner, in = r % job->inner;
    int64_t base = o * job->len * job->inner + in;
    if (job->less)
      sort_row_cmp(job, base, scratch);
    else
      sort_row(job, base, scratch);
  }
  xlacrt_scratch_put(XLACRT_SCRATCH_SORT, scratch);
}

static void run_job(xlacrt_pool *p, SortJob *job) {
  /* about 64K elements per chunk, fixed by the shape */
  job->rows_per_chunk = job->len >= 65536 ? 1 : 65536 / job->len;
  int64_t nchunks = (job->rows + job->rows_per_chunk - 1) / job->rows_per_chunk;
  if (nchunks == 1)
    sort_chunk(0, job);
  else
    xlacrt_parallel_for(p, nchunks, sort_chunk, job);
}

void xlacrt_sort(xlacrt_pool *p, int64_t outer, int64_t len, int64_t inner, int key_type,
                 int total_order, int direction, int nops, const void *const *ins,
                 void *const *outs, const int32_t *elem_bytes) {
  int64_t rows = outer * inner;
  if (rows <= 0 || len <= 0) return;
  SortJob job = {len, inner, rows, 1, key_type, total_order, direction, nops, ins, outs, elem_bytes, NULL};
  run_job(p, &job);
}

void xlacrt_sort_cmp(xlacrt_pool *p, int64_t outer, int64_t len, int64_t inner, int nops,
                     const void *const *ins, void *const *outs, const int32_t *elem_bytes,
                     xlacrt_sort_less_fn less) {
  int64_t rows = outer * inner;
  if (rows <= 0 || len <= 0) return;
  SortJob job = {len, inner, rows, 1, 0, 0, 0, nops, ins, outs, elem_bytes, less};
  run_job(p, &job);
}

/* ---- top-k ----
 * The k best of a row under "larger key first, then lower position".  No
 * two elements tie under that order, so any selection gives the stable
 * sort's first k.  The kept entries form a heap with the worst at the root;
 * a later element (always at a higher position) enters only if its key is
 * strictly larger than the root's, which for most rows of real data is
 * rare after the first few hundred elements, so the scan is a compare per
 * element.  The heap is sorted at the end. */

typedef struct TopkJob {
  int64_t len, k, rows, rows_per_chunk;
  int key_type, index_bytes;
  const char *in;
  char *values, *indices;
} TopkJob;

static bool topk_worse(const EntryS *a, const EntryS *b) { return a->k < b->k || (a->k == b->k && a->i > b->i); }

/* Restores the heap (worst at the root) below position i. */
static void topk_sift(EntryS *h, int64_t n, int64_t i) {
  for (;;) {
    int64_t c = 2 * i + 1;
    if (c >= n) return;
    if (c + 1 < n && topk_worse(&h[c + 1], &h[c])) c++;
    if (!topk_worse(&h[c], &h[i])) return;
    EntryS t = h[i];
    h[i] = h[c];
    h[c] = t;
    i = c;
  }
}

/* The element's key in one signed order: total order for floats, values
   for integers (unsigned 64-bit ones shifted down by 2^63). */
static int64_t topk_key(int key_type, int kb, uint64_t b) {
  if (key_type >= XLACRT_KEY_F16) return total_key(kb, b);
  if (key_type <= XLACRT_KEY_S64) return signed_key(kb, b);
  return key_type == XLACRT_KEY_U64 ? (int64_t)(b ^ (1ull << 63)) : (int64_t)b;
}

static void store_index(char *p, int bytes, int64_t v) {
  switch (bytes) {
  case 1: { int8_t x = (int8_t)v; memcpy(p, &x, 1); break; }
  case 2: { int16_t x = (int16_t)v; memcpy(p, &x, 2); break; }
  case 4: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
  default: memcpy(p, &v, 8); break;
  }
}

enum { TOPK_BLOCK = 256 };

static void topk_row(const TopkJob *job, int64_t r, EntryS *heap) {
  int64_t len = job->len, k = job->k, n = 0;
  int kb = key_bytes(job->key_type);
  const char *row = job->in + (size_t)(r * len) * (size_t)kb;
  int64_t keys[TOPK_BLOCK];
  for (int64_t j0 = 0; j0 < len; j0 += TOPK_BLOCK) {
    int64_t m = len - j0 < TOPK_BLOCK ? len - j0 : TOPK_BLOCK;
    if (job->key_type == XLACRT_KEY_F32) { /* the common case, in a loop the compiler vectorizes */
      for (int64_t j = 0; j < m; j++) {
        int32_t b;
        memcpy(&b, row + (j0 + j) * 4, 4);
        keys[j] = b < 0 ? b ^ INT32_MAX : b;
      }
    } else {
      for (int64_t j = 0; j < m; j++) keys[j] = topk_key(job->key_type, kb, load_bits(row + (j0 + j) * kb, kb));
    }
    int64_t j = 0;
    for (; j < m && n < k; j++) { /* filling: every element is kept */
      heap[n] = (EntryS){keys[j], j0 + j};
      for (int64_t c = n++; c > 0 && topk_worse(&heap[c], &heap[(c - 1) / 2]); c = (c - 1) / 2) {
        EntryS t = heap[c];
        heap[c] = heap[(c - 1) / 2];
        heap[(c - 1) / 2] = t;
      }
    }
    if (k == 0) break;
    /* full: a block whose keys are all at most the root's changes nothing */
    int64_t thr = heap[0].k;
    bool any = false;
    for (int64_t q = j; q < m; q++) any |= keys[q] > thr;
    if (!any) continue;
    for (; j < m; j++)
      if (keys[j] > heap[0].k) {
        heap[0] = (EntryS){keys[j], j0 + j};
        topk_sift(heap, k, 0);
      }
  }
  /* pop the worst to the back: heap[0..k) ends best first */
  for (int64_t e = k - 1; e > 0; e--) {
    EntryS t = heap[0];
    heap[0] = heap[e];
    heap[e] = t;
    topk_sift(heap, e, 0);
  }
  for (int64_t j = 0; j < k; j++) {
    memcpy(job->values + (size_t)(r * k + j) * (size_t)kb, row + heap[j].i * kb, (size_t)kb);
    store_index(job->indices + (size_t)(r * k + j) * (size_t)job->index_bytes, job->index_bytes, heap[j].i);
  }
}

static void topk_chunk(int64_t chunk, void *ctx) {
  const TopkJob *job = ctx;
  int64_t r0 = chunk * job->rows_per_chunk;
  int64_t r1 = r0 + job->rows_per_chunk < job->rows ? r0 + job->rows_per_chunk : job->rows;
  EntryS *heap = xlacrt_scratch_get(XLACRT_SCRATCH_SORT, sizeof(EntryS) * (size_t)job->k, "top_k");
  if (!heap) return; /* the run reports the failure */
  for (int64_t r = r0; r < r1; r++) topk_row(job, r, heap);
  xlacrt_scratch_put(XLACRT_SCRATCH_SORT, heap);
}

void xlacrt_top_k(xlacrt_pool *p, int64_t rows, int64_t len, int64_t k, int key_type, const void *in,
                  void *values, void *indices, int index_bytes) {
  if (rows <= 0 || k <= 0) return;
  TopkJob job = {len, k, rows, len >= 65536 ? 1 : 65536 / len, key_type, index_bytes, in, values, indices};
  int64_t nchunks = (rows + job.rows_per_chunk - 1) / job.rows_per_chunk;
  if (nchunks == 1)
    topk_chunk(0, &job);
  else
    xlacrt_parallel_for(p, nchunks, topk_chunk, &job);
}
