/*
 * random.c - the random numbers of rng_bit_generator and rng, one
 * implementation shared by the reference interpreter and compiled code, so
 * both give the same values bit for bit.
 *
 * rng_bit_generator reproduces XLA's bit generators exactly, so results can
 * be compared with programs run by XLA (and JAX):
 *
 *  - state[0] is the key, split into two u32 words (low word first); the
 *    remaining state words form the counter.  The output state is the key
 *    followed by the advanced counter.
 *  - THREE_FRY is Threefry-2x32 with 20 rounds.  Each 64-bit block is the
 *    64-bit counter plus the block number, split low/high into the two
 *    input words.  64-bit outputs use one block per element (low word x0,
 *    high word x1).  32-bit outputs pair up neighbours along one dimension,
 *    the first even one, else the first largest: viewing the output as
 *    [outer, rows, inner] around that dimension, block (o, h, i) (row-major
 *    over [outer, ceil(rows / 2), inner]) gives x0 to element (o, 2h, i)
 *    and x1 to (o, 2h + 1, i).  The counter advances by the block count.
 *  - PHILOX is Philox-4x32 with 10 rounds.  The counter is 128 bits:
 *    (state[1] low, state[2] high), or for a 2-word state (state[1] low,
 *    state[0] high) of which only the low word is written back; block j
 *    encrypts counter + j.  32-bit outputs take the four words of each block
 *    in order; 64-bit outputs take (x0 | x1 << 32) then (x2 | x3 << 32).
 *    The counter advances by the number of blocks.
 *  - 8- and 16-bit outputs are 32-bit outputs of the same element count,
 *    truncated; floating-point outputs receive the raw bits.
 *
 * rng's numbers are implementation-defined per the spec.  Ours are
 * stateless: a draw is the low 64 bits of Philox block 0 under a key fixed
 * per op (the compiler derives it from the op's source location), with the
 * 128-bit counter (element, attempt).  Element i of UNIFORM integers is
 * a + draw(i, 0) mod (b - a); of UNIFORM floats a + (b - a) * u with u the
 * draw's top 53 bits over 2^53, drawn again with attempt 1, 2, ... while
 * rounding to the element type reaches b (after 66 attempts: a).  NORMAL
 * takes draws 2i and 2i + 1 through the Box-Muller transform.  Every
 * element depends on its index alone, so any split of the work gives the
 * same numbers.
 *
 * Both ops split their work into chunks fixed by the output size and run
 * them on the pool; counter-based generators let each chunk start at its
 * own counters.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "rt_util.h"
#include "xlacrt.h"

static inline uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Stores the low elem_bytes bytes of w as element i. */
static inline void put_word(void *out, int elem_bytes, int64_t i, uint64_t w) {
  switch (elem_bytes) {
  case 1: ((uint8_t *)out)[i] = (uint8_t)w; break;
  case 2: ((uint16_t *)out)[i] = (uint16_t)w; break;
  case 4: ((uint32_t *)out)[i] = (uint32_t)w; break;
  default: ((uint64_t *)out)[i] = w; break;
  }
}

/* ------------------------------------------------------------------------ */
/* rng_bit_generator                                                        */
/* ------------------------------------------------------------------------ */

enum {
  BITS_CHUNK = 1 << 14, /* blocks per chunk (64K 32-bit words for Philox) */
  LANES = 16,           /* blocks generated together, one per vector lane */
};

/* LANES consecutive blocks, first..first+LANES-1, as structure-of-arrays
   loops the compiler vectorizes (integer arithmetic only: every variant
   gives the same bits).  Philox: words[q][l] is word q of block first + l
   of the 128-bit counter (lo, hi); Threefry: of the 64-bit counter lo. */
#define DEFINE_BATCHES(SUFFIX, ATTR)                                                        \
  ATTR static void philox_lanes_##SUFFIX(uint64_t key, uint64_t lo, uint64_t hi,            \
                                         uint64_t first, uint32_t words[4][LANES]) {        \
    /* 32-bit words kept in 64-bit lanes: the products then need no       \
       widening shuffles */                                                                 \
    uint64_t x0[LANES], x1[LANES], x2[LANES], x3[LANES];                                    \
    for (int l = 0; l < LANES; l++) {                                                       \
      uint64_t nlo = lo + first + (uint64_t)l;                                              \
      uint64_t nhi = hi + (nlo < lo);                                                       \
      x0[l] = (uint32_t)nlo, x1[l] = nlo >> 32, x2[l] = (uint32_t)nhi, x3[l] = nhi >> 32;   \
    }                                                                                       \
    uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);                                \
    for (int round = 0; round < 10; round++) {                                              \
      /* unrolled, the lanes would not be vectorized */                                     \
      _Pragma("GCC unroll 1")                                                               \
      for (int l = 0; l < LANES; l++) {                                                     \
        uint64_t p0 = x0[l] * 0xD2511F53u, p1 = x2[l] * 0xCD9E8D57u;                        \
        uint64_t y0 = (p1 >> 32) ^ x1[l] ^ k0, y2 = (p0 >> 32) ^ x3[l] ^ k1;                \
        x0[l] = y0, x1[l] = p1 & 0xFFFFFFFFu, x2[l] = y2, x3[l] = p0 & 0xFFFFFFFFu;         \
      }                                                                                     \
      k0 += 0x9E3779B9u;                                                                    \
      k1 += 0xBB67AE85u;                                                                    \
    }                                                                                       \
    for (int l = 0; l < LANES; l++) {                                                       \
      words[0][l] = (uint32_t)x0[l], words[1][l] = (uint32_t)x1[l];                         \
      words[2][l] = (uint32_t)x2[l], words[3][l] = (uint32_t)x3[l];                         \
    }                                                                                       \
  }                                                                                         \
  ATTR static void threefry_lanes_##SUFFIX(uint64_t key, uint64_t lo, uint64_t first,       \
                                           uint32_t words[4][LANES]) {                      \
    static const int rot[8] = {13, 15, 26, 6, 17, 29, 16, 24};                              \
    uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);                                \
    uint32_t ks[3] = {k0, k1, 0x1BD11BDAu ^ k0 ^ k1};                                       \
    uint32_t x0[LANES], x1[LANES];                                                          \
    for (int l = 0; l < LANES; l++) {                                                       \
      uint64_t c = lo + first + (uint64_t)l;                                                \
      x0[l] = (uint32_t)c + ks[0], x1[l] = (uint32_t)(c >> 32) + ks[1];                     \
    }                                                                                       \
    for (int g = 0; g < 5; g++) {                                                           \
      for (int i = 0; i < 4; i++) {                                                         \
        int r = rot[(g % 2) * 4 + i];                                                       \
        _Pragma("GCC unroll 1")                                                             \
        for (int l = 0; l < LANES; l++) {                                                   \
          x0[l] += x1[l];                                                                   \
          x1[l] = rotl32(x1[l], r) ^ x0[l];                                                 \
        }                                                                                   \
      }                                                                                     \
      uint32_t a = ks[(g + 1) % 3], b = ks[(g + 2) % 3] + (uint32_t)(g + 1);                \
      for (int l = 0; l < LANES; l++) x0[l] += a, x1[l] += b;                               \
    }                                                                                       \
    for (int l = 0; l < LANES; l++) words[0][l] = x0[l], words[1][l] = x1[l];               \
  }

DEFINE_BATCHES(c, )
#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_VARIANTS 1
DEFINE_BATCHES(avx2, __attribute__((target("avx2"))))
DEFINE_BATCHES(avx512, __attribute__((target("avx512f"))))
#endif

typedef void (*PhiloxLanesFn)(uint64_t, uint64_t, uint64_t, uint64_t, uint32_t[4][LANES]);
typedef void (*ThreefryLanesFn)(uint64_t, uint64_t, uint64_t, uint32_t[4][LANES]);

typedef struct BitsJob {
  bool philox, wide;
  uint64_t key, lo, hi; /* key and counter */
  int elem_bytes;
  int64_t n, nblocks;
  int64_t rows, inner; /* Threefry with 32-bit outputs: the paired dimension */
  void *out;
  PhiloxLanesFn philox_lanes;
  ThreefryLanesFn threefry_lanes;
} BitsJob;

/* Stores words w[0..count) (truncated) as elements first, first+1, ... */
static void store_run(void *out, int elem_bytes, int64_t first, const uint64_t *w, int64_t count) {
  switch (elem_bytes) {
  case 1: for (int64_t q = 0; q < count; q++) ((uint8_t *)out)[first + q] = (uint8_t)w[q]; break;
  case 2: for (int64_t q = 0; q < count; q++) ((uint16_t *)out)[first + q] = (uint16_t)w[q]; break;
  case 4: for (int64_t q = 0; q < count; q++) ((uint32_t *)out)[first + q] = (uint32_t)w[q]; break;
  default: memcpy((uint64_t *)out + first, w, sizeof(uint64_t) * (size_t)count); break;
  }
}

/* Philox, and Threefry with 64-bit outputs: block k gives elements
   k * per ... k * per + per - 1 in order. */
static void run_chunk(int64_t c, void *ctx) {
  const BitsJob *j = ctx;
  int64_t b0 = c * BITS_CHUNK, b1 = min64(b0 + BITS_CHUNK, j->nblocks);
  int per = j->philox ? (j->wide ? 2 : 4) : 1;
  uint32_t x[4][LANES];
  uint64_t w[4 * LANES];
  for (int64_t b = b0; b < b1; b += LANES) {
    int lanes = (int)min64(LANES, b1 - b), m = 0;
    if (j->philox)
      j->philox_lanes(j->key, j->lo, j->hi, (uint64_t)b, x);
    else
      j->threefry_lanes(j->key, j->lo, (uint64_t)b, x);
    if (per == 4 && j->elem_bytes == 4 && (b + lanes) * 4 <= j->n) {
      /* the common case, 32-bit words straight out */
      uint32_t *o = (uint32_t *)j->out + b * 4;
      for (int l = 0; l < lanes; l++)
        for (int q = 0; q < 4; q++) o[4 * l + q] = x[q][l];
      continue;
    }
    for (int l = 0; l < lanes; l++) {
      if (per == 4) {
        for (int q = 0; q < 4; q++) w[m++] = x[q][l];
      } else {
        w[m++] = (uint64_t)x[0][l] | ((uint64_t)x[1][l] << 32);
        if (per == 2) w[m++] = (uint64_t)x[2][l] | ((uint64_t)x[3][l] << 32);
      }
    }
    /* the last block may overhang the output */
    int64_t first = b * per;
    store_run(j->out, j->elem_bytes, first, w, min64(m, j->n - first));
  }
}

/* Threefry with outputs of 32 bits or fewer: block k = (o * half + h) *
   inner + i gives x0 to element (o, 2h, i) and x1 to (o, 2h + 1, i). */
static void threefry_pairs_chunk(int64_t c, void *ctx) {
  const BitsJob *j = ctx;
  int64_t b0 = c * BITS_CHUNK, b1 = min64(b0 + BITS_CHUNK, j->nblocks);
  int64_t half = (j->rows + 1) / 2;
  /* (o, h, i) of block b0, then stepped along */
  int64_t i = b0 % j->inner, oh = b0 / j->inner, o = oh / half, h = oh % half;
  uint32_t x[4][LANES];
  for (int64_t b = b0; b < b1; b += LANES) {
    int lanes = (int)min64(LANES, b1 - b);
    j->threefry_lanes(j->key, j->lo, (uint64_t)b, x);
    for (int l = 0; l < lanes; l++) {
      int64_t e = (o * j->rows + 2 * h) * j->inner + i;
      put_word(j->out, j->elem_bytes, e, x[0][l]);
      if (2 * h + 1 < j->rows) put_word(j->out, j->elem_bytes, e + j->inner, x[1][l]);
      if (++i == j->inner) {
        i = 0;
        if (++h == half) h = 0, o++;
      }
    }
  }
}

/* The widest vector variants this CPU runs. */
const char *xlacrt_random_isa(void) {
#ifdef HAVE_VARIANTS
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return "avx512";
  if (__builtin_cpu_supports("avx2")) return "avx2";
#endif
  return "c";
}

static void pick_lanes(PhiloxLanesFn *philox, ThreefryLanesFn *threefry) {
  *philox = philox_lanes_c;
  *threefry = threefry_lanes_c;
#ifdef HAVE_VARIANTS
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) {
    *philox = philox_lanes_avx512;
    *threefry = threefry_lanes_avx512;
  } else if (__builtin_cpu_supports("avx2")) {
    *philox = philox_lanes_avx2;
    *threefry = threefry_lanes_avx2;
  }
#endif
}

int xlacrt_rng_bit_generator(xlacrt_pool *p, int algorithm, int64_t nstate, const uint64_t *state,
                             uint64_t *new_state, int rank, const int64_t *dims, int elem_bytes,
                             void *out) {
  bool philox = algorithm == XLACRT_RNG_PHILOX;
  if (!philox && algorithm != XLACRT_RNG_THREE_FRY) return 0;
  if (philox ? nstate != 2 && nstate != 3 : nstate != 2) return 0;
  if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4 && elem_bytes != 8) return 0;
  if (rank < 0) return 0;
  /* the state is read whole before anything is written: out or new_state
     may share storage with it */
  uint64_t st[3] = {state[0], state[1], nstate > 2 ? state[2] : 0};
  BitsJob j;
  memset(&j, 0, sizeof j);
  j.philox = philox;
  j.wide = elem_bytes == 8;
  j.key = st[0];
  j.lo = st[1];
  /* a 2-word Philox state uses (state[1], state[0]) as its 128-bit counter */
  j.hi = nstate > 2 ? st[2] : st[0];
  j.elem_bytes = elem_bytes;
  j.out = out;
  j.n = 1;
  for (int d = 0; d < rank; d++) j.n *= dims[d];
  if (philox) {
    j.nblocks = j.wide ? (j.n + 1) / 2 : (j.n + 3) / 4;
  } else if (j.wide) {
    j.nblocks = j.n;
  } else {
    int split = -1;
    for (int d = 0; d < rank && split < 0; d++)
      if (dims[d] % 2 == 0) split = d;
    if (split < 0)
      for (int d = 0; d < rank; d++)
        if (split < 0 || dims[d] > dims[split]) split = d;
    int64_t outer = 1;
    j.rows = 1;
    j.inner = 1;
    for (int d = 0; d < rank; d++) {
      if (d < split) outer *= dims[d];
      else if (d == split) j.rows = dims[d];
      else j.inner *= dims[d];
    }
    j.nblocks = outer * ((j.rows + 1) / 2) * j.inner;
  }
  pick_lanes(&j.philox_lanes, &j.threefry_lanes);
  if (out && j.nblocks > 0)
    xlacrt_parallel_for(p, (j.nblocks + BITS_CHUNK - 1) / BITS_CHUNK,
                        philox || j.wide ? run_chunk : threefry_pairs_chunk, &j);
  uint64_t lo = j.lo + (uint64_t)j.nblocks;
  uint64_t hi = philox ? j.hi + (lo < j.lo) : 0;
  if (new_state) {
    new_state[0] = st[0];
    new_state[1] = lo;
    if (nstate > 2) new_state[2] = hi;
  }
  return 1;
}

/* ------------------------------------------------------------------------ */
/* rng                                                                      */
/* ------------------------------------------------------------------------ */

enum { NUM_CHUNK = 1 << 13 }; /* elements per chunk */

uint64_t xlacrt_rng_key(int32_t file, uint32_t offset) {
  return ((uint64_t)(uint32_t)file << 32) ^ offset ^ 0x5851F42D4C957F2Dull;
}

/* A uniform double in [0, 1) from the top 53 bits. */
static inline double unit(uint64_t bits) { return (double)(bits >> 11) * 0x1p-53; }

/* v rounded to nearest even in an IEEE format with `ebits` exponent and
   `mbits` fraction bits (f16, bf16): overflow gives inf, NaN the quiet NaN
   with a clear sign, as the interpreter's literals do. */
static uint16_t narrow_bits(double v, int ebits, int mbits) {
  uint64_t b;
  memcpy(&b, &v, sizeof b);
  uint32_t sign = (uint32_t)(b >> 63) << (ebits + mbits);
  uint32_t inf = ((1u << ebits) - 1) << mbits;
  if (isnan(v)) return (uint16_t)(inf | (1u << (mbits - 1)));
  int dexp = (int)((b >> 52) & 0x7ff);
  int bias = (1 << (ebits - 1)) - 1;
  if (dexp == 0x7ff) return (uint16_t)(sign | inf);
  /* zero, and double subnormals: far below half the narrow format's
     smallest subnormal */
  if (dexp == 0) return (uint16_t)sign;
  int e = dexp - 1023; /* |v| = sig * 2^(e - 52) */
  if (e > bias) return (uint16_t)(sign | inf);
  uint64_t sig = (b & ((1ull << 52) - 1)) | (1ull << 52);
  bool sub = e < 1 - bias;
  int shift = 52 - mbits + (sub ? 1 - bias - e : 0);
  if (shift > 53) return (uint16_t)sign; /* below half the smallest subnormal */
  uint64_t q = sig >> shift, rest = sig & ((1ull << shift) - 1), halfway = 1ull << (shift - 1);
  if (rest > halfway || (rest == halfway && (q & 1))) q++;
  /* a carry out of the fraction moves into the exponent by itself */
  uint32_t mag = sub ? (uint32_t)q : ((uint32_t)(e + bias) << mbits) + (uint32_t)q - (1u << mbits);
  if (mag > inf) mag = inf;
  return (uint16_t)(sign | mag);
}

typedef struct NumJob {
  uint64_t key;
  bool normal;
  int type;
  double fa, fb;        /* float types */
  uint64_t ia, span;    /* integer types */
  bool empty, pa;       /* integers: b <= a; pred: a */
  int64_t n;
  void *out;
  xlacrt_rng_round_fn round;
  void *round_ctx;
  PhiloxLanesFn philox_lanes;
} NumJob;

/* The draws at counters (first + l, attempt), l < LANES: the low 64 bits
   of Philox block 0 of each. */
static void draws(const NumJob *j, uint64_t first, uint64_t attempt, uint64_t d[LANES]) {
  uint32_t x[4][LANES];
  j->philox_lanes(j->key, 0, attempt, first, x);
  for (int l = 0; l < LANES; l++) d[l] = (uint64_t)x[0][l] | ((uint64_t)x[1][l] << 32);
}

/* v rounded to the element type, as a double. */
static double round_to(const NumJob *j, double v) {
  switch (j->type) {
  case XLACRT_RNG_F16: return rt_f16_to_double(narrow_bits(v, 5, 10));
  case XLACRT_RNG_BF16: return rt_bf16_to_double(narrow_bits(v, 8, 7));
  case XLACRT_RNG_F32: return (float)v;
  default: return j->round ? j->round(v, j->round_ctx) : v;
  }
}

static void put_float(const NumJob *j, int64_t i, double v) {
  switch (j->type) {
  case XLACRT_RNG_F16: ((uint16_t *)j->out)[i] = narrow_bits(v, 5, 10); break;
  case XLACRT_RNG_BF16: ((uint16_t *)j->out)[i] = narrow_bits(v, 8, 7); break;
  case XLACRT_RNG_F32: ((float *)j->out)[i] = (float)v; break;
  default: ((double *)j->out)[i] = v; break;
  }
}

static int int_bytes(int type) {
  switch (type) {
  case XLACRT_RNG_S8: case XLACRT_RNG_U8: return 1;
  case XLACRT_RNG_S16: case XLACRT_RNG_U16: return 2;
  case XLACRT_RNG_S32: case XLACRT_RNG_U32: return 4;
  default: return 8;
  }
}

/* Uniform float element i once attempt 0 rounded up to b: attempts 1 to
   65, then a. */
static double redraw(const NumJob *j, int64_t i) {
  uint64_t d[LANES];
  for (uint64_t attempt = 1; attempt <= 65; attempt++) {
    draws(j, (uint64_t)i, attempt, d);
    double r = round_to(j, j->fa + (j->fb - j->fa) * unit(d[0]));
    if (!(r >= j->fb)) return r;
  }
  return j->fa;
}

static void num_chunk(int64_t c, void *ctx) {
  const NumJob *j = ctx;
  int64_t i0 = c * NUM_CHUNK, i1 = min64(i0 + NUM_CHUNK, j->n);
  if (j->type == XLACRT_RNG_PRED) {
    memset((uint8_t *)j->out + i0, j->pa, (size_t)(i1 - i0));
    return;
  }
  bool is_float = j->type >= XLACRT_RNG_F16;
  int eb = int_bytes(j->type);
  /* NORMAL takes two draws per element */
  int per = j->normal ? 2 : 1, step = LANES / per;
  uint64_t d[LANES];
  for (int64_t i = i0; i < i1; i += step) {
    int cnt = (int)min64(step, i1 - i);
    draws(j, (uint64_t)i * (uint64_t)per, 0, d);
    for (int k = 0; k < cnt; k++) {
      if (!is_float) {
        put_word(j->out, eb, i + k, j->empty ? j->ia : j->ia + d[k] % j->span);
      } else if (j->normal) {
        double u1 = 1.0 - unit(d[2 * k]), u2 = unit(d[2 * k + 1]);
        double z = sqrt(-2.0 * log(u1)) * cos(2.0 * 3.14159265358979323846 * u2);
        put_float(j, i + k, j->fa + j->fb * z);
      } else {
        double r = round_to(j, j->fa + (j->fb - j->fa) * unit(d[k]));
        put_float(j, i + k, r >= j->fb ? redraw(j, i + k) : r);
      }
    }
  }
}

/* Element 0 of a scalar of the given type, widened. */
static void read_scalar(int type, const void *p, double *f, uint64_t *u) {
  int64_t s = 0;
  *f = 0;
  switch (type) {
  case XLACRT_RNG_PRED: case XLACRT_RNG_U8: *u = *(const uint8_t *)p; return;
  case XLACRT_RNG_U16: *u = *(const uint16_t *)p; return;
  case XLACRT_RNG_U32: *u = *(const uint32_t *)p; return;
  case XLACRT_RNG_U64: *u = *(const uint64_t *)p; return;
  case XLACRT_RNG_S8: s = *(const int8_t *)p; break;
  case XLACRT_RNG_S16: s = *(const int16_t *)p; break;
  case XLACRT_RNG_S32: s = *(const int32_t *)p; break;
  case XLACRT_RNG_S64: s = *(const int64_t *)p; break;
  case XLACRT_RNG_F16: *f = rt_f16_to_double(*(const uint16_t *)p); return;
  case XLACRT_RNG_BF16: *f = rt_bf16_to_double(*(const uint16_t *)p); return;
  case XLACRT_RNG_F32: *f = *(const float *)p; return;
  default: *f = *(const double *)p; return;
  }
  *u = (uint64_t)s;
}

int xlacrt_rng(xlacrt_pool *p, uint64_t key, int distribution, int type, const void *a, const void *b,
               int64_t n, void *out, xlacrt_rng_round_fn round, void *round_ctx) {
  if (type < XLACRT_RNG_PRED || type > XLACRT_RNG_F64) return 0;
  if (distribution != XLACRT_RNG_UNIFORM && distribution != XLACRT_RNG_NORMAL) return 0;
  bool is_float = type >= XLACRT_RNG_F16;
  if (distribution == XLACRT_RNG_NORMAL && !is_float) return 0;
  NumJob j;
  memset(&j, 0, sizeof j);
  j.key = key;
  j.normal = distribution == XLACRT_RNG_NORMAL;
  j.type = type;
  j.n = n;
  j.out = out;
  j.round = round;
  j.round_ctx = round_ctx;
  ThreefryLanesFn unused;
  pick_lanes(&j.philox_lanes, &unused);
  uint64_t ib = 0;
  read_scalar(type, a, &j.fa, &j.ia);
  read_scalar(type, b, &j.fb, &ib);
  j.pa = j.ia != 0;
  bool sgn = type >= XLACRT_RNG_S8 && type <= XLACRT_RNG_S64;
  j.empty = sgn ? (int64_t)j.ia >= (int64_t)ib : j.ia >= ib;
  j.span = ib - j.ia;
  if (out && n > 0) xlacrt_parallel_for(p, (n + NUM_CHUNK - 1) / NUM_CHUNK, num_chunk, &j);
  return 1;
}
