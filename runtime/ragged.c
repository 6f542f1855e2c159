/*
 * ragged.c - chlo.ragged_dot (what jax.lax.ragged_dot emits; the expert
 * layers of mixture-of-experts models) as a sequence of GEMMs, one per
 * group.
 *
 * The compiler hands over operands already in one of three canonical
 * layouts (xlacrt.h describes them), so each group's work is a plain
 * product of a contiguous slice of rows (or of the contracting dimension)
 * with one matrix: one call of the packed GEMM per group and batch index.
 * What no group covers is zero, as in the reference interpreter.
 *
 * Group sizes come from a runtime tensor and may be anything: a negative
 * size counts as zero, and the running sum of sizes is clamped to the
 * ragged dimension, so no size, however large, moves a slice out of the
 * operands.  Clamping changes nothing else: no position lies at or beyond
 * the end of the dimension.  The GEMMs split their work into blocks fixed
 * by the shape, and the groups run one after another, so results never
 * depend on the number of threads.  Integer products (any integer or pred
 * type, widened to 64 bits) wrap modulo 2^64, which makes their order
 * irrelevant: they equal the interpreter's exactly.
 */
#include <stdint.h>
#include <string.h>

#include "rt_util.h"
#include "xlacrt.h"

/* Bytes of a result element. */
static size_t out_size(int64_t type) { return type == XLACRT_RAGGED_F64 || type == XLACRT_RAGGED_I64 ? 8 : 4; }

/* The 64-bit integer product: c[m,n] (+)= a[m,k] b[k,n] (b stored [n,k] when
   trans_b), wrapping. */
static void igemm(int trans_b, int64_t m, int64_t n, int64_t k, const uint64_t *a, int64_t lda,
                  const uint64_t *b, int64_t ldb, uint64_t *c, int64_t ldc, int accumulate) {
  for (int64_t i = 0; i < m; i++) {
    uint64_t *crow = c + i * ldc;
    if (!accumulate) memset(crow, 0, (size_t)n * sizeof *crow);
    const uint64_t *arow = a + i * lda;
    if (trans_b) {
      for (int64_t j = 0; j < n; j++) {
        uint64_t s = 0;
        for (int64_t t = 0; t < k; t++) s += arow[t] * b[j * ldb + t];
        crow[j] += s;
      }
    } else {
      for (int64_t t = 0; t < k; t++) {
        uint64_t x = arow[t];
        const uint64_t *brow = b + t * ldb;
        for (int64_t j = 0; j < n; j++) crow[j] += x * brow[j];
      }
    }
  }
}

/* One product on element offsets ao, bo, co into the operands. */
static void gemm(xlacrt_pool *p, const xlacrt_ragged *d, int64_t m, int64_t k, const void *a,
                 int64_t ao, int64_t lda, const void *b, int64_t bo, int64_t ldb, void *c, int64_t co,
                 int accumulate) {
  int tb = d->trans_b != 0;
  int64_t n = d->n;
  if (m <= 0 || n <= 0) return;
  switch (d->type) {
  case XLACRT_RAGGED_F32:
    xlacrt_sgemm(p, 0, tb, m, n, k, (const float *)a + ao, lda, (const float *)b + bo, ldb, (float *)c + co, n,
                 accumulate);
    break;
  case XLACRT_RAGGED_F64:
    xlacrt_dgemm(p, 0, tb, m, n, k, (const double *)a + ao, lda, (const double *)b + bo, ldb,
                 (double *)c + co, n, accumulate);
    break;
  case XLACRT_RAGGED_BF16:
    xlacrt_gemm_bf16(p, 0, tb, m, n, k, (const uint16_t *)a + ao, lda, (const uint16_t *)b + bo, ldb,
                     (float *)c + co, n, accumulate);
    break;
  case XLACRT_RAGGED_F16:
    xlacrt_gemm_f16(p, 0, tb, m, n, k, (const uint16_t *)a + ao, lda, (const uint16_t *)b + bo, ldb,
                    (float *)c + co, n, accumulate);
    break;
  default:
    igemm(tb, m, n, k, (const uint64_t *)a + ao, lda, (const uint64_t *)b + bo, ldb, (uint64_t *)c + co, n,
          accumulate);
    break;
  }
}

/* Zeroes `count` result elements from element offset co. */
static void zero(const xlacrt_ragged *d, void *c, int64_t co, int64_t count) {
  if (count <= 0) return;
  size_t es = out_size(d->type);
  memset((char *)c + (size_t)co * es, 0, (size_t)count * es);
}

/* bounds[g] .. bounds[g+1]: group g's slice of a ragged dimension of size
   r, for one row of group sizes.  Negative sizes are empty; the running sum
   stops at r (no overflow, and nothing past r exists). */
static void group_bounds(const int64_t *sizes, int64_t groups, int64_t r, int64_t *bounds) {
  int64_t acc = 0;
  bounds[0] = 0;
  for (int64_t g = 0; g < groups; g++) {
    int64_t s = sizes[g] > 0 ? sizes[g] : 0;
    acc = s >= r - acc ? r : acc + s;
    bounds[g + 1] = acc;
  }
}

void xlacrt_ragged_dot(xlacrt_pool *p, const xlacrt_ragged *d, const void *lhs, const void *rhs,
                       const int64_t *group_sizes, void *out) {
  int64_t G = d->groups > 0 ? d->groups : 0, B = d->batch, P = d->p, R = d->r, Q = d->q, K = d->k, N = d->n;
  int64_t *bounds = xlacrt_try_alloc("ragged_dot", sizeof(int64_t) * (size_t)(G + 1));
  if (!bounds) return;
  for (int64_t b = 0; b < B; b++) {
    /* one row of group sizes for all batch indices, or one each */
    const int64_t *sizes = group_sizes + (d->gs_rows == 1 ? 0 : b) * G;
    group_bounds(sizes, G, R, bounds);
    switch (d->mode) {
    case XLACRT_RAGGED_ROWS: {
      /* lhs [B][P][R][Q][K], rhs [B][G][K][N] or [B][G][N][K],
         out [B][P][R][Q][N]: rows [s, e) of R times group g's matrix */
      int64_t ldb = d->trans_b ? K : N;
      for (int64_t pp = 0; pp < P; pp++) {
        int64_t a0 = (b * P + pp) * R * Q * K, c0 = (b * P + pp) * R * Q * N;
        for (int64_t g = 0; g < G; g++) {
          int64_t s = bounds[g], e = bounds[g + 1];
          if (e > s)
            gemm(p, d, (e - s) * Q, K, lhs, a0 + s * Q * K, K, rhs, (b * G + g) * K * N, ldb, out, c0 + s * Q * N, 0);
        }
        zero(d, out, c0 + bounds[G] * Q * N, (R - bounds[G]) * Q * N);
      }
      break;
    }
    case XLACRT_RAGGED_CONTRACT: {
      /* lhs [B][M][P][R][Q], rhs [B][P][R][Q][N] or [B][N][P][R][Q],
         out [G][B][M][N]: group g sums over its slice [s, e) of R only */
      int64_t M = d->m, a0 = b * M * K, b0 = b * K * N;
      for (int64_t g = 0; g < G; g++) {
        int64_t c0 = (g * B + b) * M * N, s = bounds[g], e = bounds[g + 1];
        if (P <= 0) {
          zero(d, out, c0, M * N);
          continue;
        }
        for (int64_t pp = 0; pp < P; pp++) {
          int64_t kofs = (pp * R + s) * Q;
          int64_t bo = d->trans_b ? b0 + kofs : b0 + kofs * N;
          gemm(p, d, M, (e - s) * Q, lhs, a0 + kofs, K, rhs, bo, d->trans_b ? K : N, out, c0, pp > 0);
        }
      }
      break;
    }
    default: {
      /* lhs [B][M][K], rhs [B][K][N] or [B][N][K], out [B][M][N]: batch
         indices past the last group are zero; the ragged batch dimension
         (size R) is the one whose index steps every Q batch indices */
      int64_t M = d->m, c0 = b * M * N;
      int64_t pos = Q > 0 && R > 0 ? (b / Q) % R : 0;
      if (pos < bounds[G])
        gemm(p, d, M, K, lhs, b * M * K, K, rhs, b * K * N, d->trans_b ? K : N, out, c0, 0);
      else
        zero(d, out, c0, M * N);
      break;
    }
    }
  }
  free(bounds);
}
