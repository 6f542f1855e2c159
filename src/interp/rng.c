/*
 * rng.c - the interpreter's random number ops: rng_bit_generator and rng.
 *
 * rng_bit_generator reproduces XLA's bit generators bit for bit, so results
 * can be compared with programs run by XLA (and JAX):
 *
 *  - state[0] is the key, split into two u32 words (low word first); the
 *    remaining state words form the counter.  The output state is the key
 *    followed by the advanced counter.
 *  - THREE_FRY is Threefry-2x32 with 20 rounds.  Each 64-bit block is the
 *    64-bit counter plus the block number, split low/high into the two
 *    input words.  64-bit outputs use one block per element (low word x0,
 *    high word x1); 32-bit outputs pair up neighbours along one dimension
 *    (see gen_threefry); the counter advances by the block count.
 *  - PHILOX is Philox-4x32 with 10 rounds.  The counter is 128 bits:
 *    (state[1] low, state[2] high), or for a 2-word state (state[1] low,
 *    state[0] high) of which only the low word is written back; block j
 *    encrypts counter + j.  32-bit outputs take the four words of each block
 *    in order; 64-bit outputs take (x0 | x1 << 32) then (x2 | x3 << 32).
 *    The counter advances by the number of blocks.
 *  - DEFAULT is PHILOX, XLA's choice on CPU and GPU.
 *  - 8- and 16-bit outputs are 32-bit outputs of the same element count,
 *    truncated; floating-point outputs receive the raw bits.
 *
 * rng's numbers are implementation-defined per the spec.  Ours are
 * stateless and deterministic: element i of an op is derived from Philox
 * keyed by the op's source location with counter i, so one op gives the same
 * numbers every time it runs.  UNIFORM maps 53 random bits into [a, b) (ints:
 * a + bits mod (b - a)); NORMAL uses the Box-Muller transform.
 */
#include "interp/interp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static inline uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

/* Threefry-2x32, 20 rounds: encrypts (x[0], x[1]) under key (k0, k1). */
static void threefry2x32(uint32_t k0, uint32_t k1, uint32_t x[2]) {
  static const int rot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  uint32_t ks[3] = {k0, k1, 0x1BD11BDAu ^ k0 ^ k1};
  x[0] += ks[0];
  x[1] += ks[1];
  for (int g = 0; g < 5; g++) {
    const int *r = rot + (g % 2) * 4;
    for (int i = 0; i < 4; i++) {
      x[0] += x[1];
      x[1] = rotl32(x[1], r[i]);
      x[1] ^= x[0];
    }
    /* key injection after every four rounds */
    x[0] += ks[(g + 1) % 3];
    x[1] += ks[(g + 2) % 3] + (uint32_t)(g + 1);
  }
}

/* Philox-4x32, 10 rounds, in place on x[4]. */
static void philox4x32(uint32_t k0, uint32_t k1, uint32_t x[4]) {
  for (int round = 0; round < 10; round++) {
    uint64_t p0 = (uint64_t)x[0] * 0xD2511F53u, p1 = (uint64_t)x[2] * 0xCD9E8D57u;
    uint32_t y0 = (uint32_t)(p1 >> 32) ^ x[1] ^ k0, y1 = (uint32_t)p1;
    uint32_t y2 = (uint32_t)(p0 >> 32) ^ x[3] ^ k1, y3 = (uint32_t)p0;
    x[0] = y0, x[1] = y1, x[2] = y2, x[3] = y3;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
}

/* Philox block `j` of a 128-bit counter (lo, hi). */
static void philox_block(uint64_t key, uint64_t lo, uint64_t hi, uint64_t j, uint32_t out[4]) {
  uint64_t nlo = lo + j;
  uint64_t nhi = hi + (nlo < lo);
  out[0] = (uint32_t)nlo;
  out[1] = (uint32_t)(nlo >> 32);
  out[2] = (uint32_t)nhi;
  out[3] = (uint32_t)(nhi >> 32);
  philox4x32((uint32_t)key, (uint32_t)(key >> 32), out);
}

/* Fills words[] (row-major over the output shape) and advances the counter.
   64-bit outputs: block i gives element i.  32-bit outputs: the output is
   split in halves along one dimension (the first even one, else the first
   largest); element idx takes word idx[split] % 2 of the block whose index
   is idx's row-major position with idx[split] halved (rounded up size). */
static void gen_threefry(uint64_t key, uint64_t *ctr, bool wide, const Type *t, uint64_t *words) {
  uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
  int64_t n = type_num_elements(t);
  if (wide) {
    for (int64_t i = 0; i < n; i++) {
      uint64_t c = *ctr + (uint64_t)i;
      uint32_t x[2] = {(uint32_t)c, (uint32_t)(c >> 32)};
      threefry2x32(k0, k1, x);
      words[i] = (uint64_t)x[0] | ((uint64_t)x[1] << 32);
    }
    *ctr += (uint64_t)n;
    return;
  }
  int rank = t->rank, split = -1;
  for (int d = 0; d < rank && split < 0; d++)
    if (t->dims[d] % 2 == 0) split = d;
  if (split < 0)
    for (int d = 0; d < rank; d++)
      if (split < 0 || t->dims[d] > t->dims[split]) split = d;
  int64_t hdims[64], hstr[64], idx[64] = {0};
  int64_t nblocks = 1;
  for (int d = 0; d < rank; d++) {
    hdims[d] = d == split ? (t->dims[d] + 1) / 2 : t->dims[d];
    nblocks *= hdims[d];
  }
  shape_strides(rank, hdims, hstr);
  for (int64_t i = 0; i < n; i++) {
    int64_t b = 0;
    for (int d = 0; d < rank; d++) b += (d == split ? idx[d] / 2 : idx[d]) * hstr[d];
    uint64_t c = *ctr + (uint64_t)b;
    uint32_t x[2] = {(uint32_t)c, (uint32_t)(c >> 32)};
    threefry2x32(k0, k1, x);
    words[i] = rank && idx[split] % 2 ? x[1] : x[0];
    index_next(rank, t->dims, idx);
  }
  *ctr += (uint64_t)nblocks;
}

static void gen_philox(uint64_t key, uint64_t *lo, uint64_t *hi, bool wide, int64_t n,
                       uint64_t *words) {
  int64_t nblocks = wide ? (n + 1) / 2 : (n + 3) / 4;
  for (int64_t j = 0; j < nblocks; j++) {
    uint32_t x[4];
    philox_block(key, *lo, *hi, (uint64_t)j, x);
    if (wide) {
      uint64_t w[2] = {(uint64_t)x[0] | ((uint64_t)x[1] << 32), (uint64_t)x[2] | ((uint64_t)x[3] << 32)};
      for (int k = 0; k < 2 && 2 * j + k < n; k++) words[2 * j + k] = w[k];
    } else {
      for (int k = 0; k < 4 && 4 * j + k < n; k++) words[4 * j + k] = x[k];
    }
  }
  uint64_t nlo = *lo + (uint64_t)nblocks;
  *hi += nlo < *lo;
  *lo = nlo;
}

static bool rank_ok(const Type *t) { return t->rank <= 64; }

bool interp_RNG_BIT_GENERATOR(Interp *I, Op *op, IVal **args, IVal **res) {
  if (args[0]->kind != IV_TENSOR) return interp_error(I, op, "initial_state is not a tensor");
  const Literal *st = ARG_LIT(0);
  if (op->nres != 2) return interp_error(I, op, "rng_bit_generator has two results");
  const Type *ot = op->res[1].type;
  if (st->type->rank != 1 || lit_elem(st) != ET_U64) return interp_error(I, op, "initial_state must be a 1-D ui64 tensor");
  if (ot->kind != TY_TENSOR) return interp_error(I, op, "output must be a tensor");
  const char *alg = op_attr_str(op, "rng_algorithm");
  bool philox = !alg || !strcmp(alg, "DEFAULT") || !strcmp(alg, "PHILOX");
  if (!philox && strcmp(alg, "THREE_FRY")) return interp_error(I, op, "unknown rng_algorithm '%s'", alg);
  if (philox ? (st->n != 2 && st->n != 3) : st->n != 2)
    return interp_error(I, op, "initial_state of %s must have %s elements", philox ? "PHILOX" : "THREE_FRY", philox ? "2 or 3" : "2");
  int bits = et_bits(ot->elem);
  if (et_is_pred(ot->elem) || et_is_complex(ot->elem) || bits < 8 || bits > 64)
    return interp_error(I, op, "unsupported output element type for rng_bit_generator");
  bool wide = bits == 64;
  Literal *out = lit_new(ot), *ns = lit_clone(st);
  uint64_t *words = xmalloc(sizeof(uint64_t) * (size_t)(out->n > 0 ? out->n : 1));
  /* a 2-word PHILOX state uses (state[1], state[0]) as its 128-bit counter */
  uint64_t key = lit_get_u(st, 0), lo = lit_get_u(st, 1), hi = st->n > 2 ? lit_get_u(st, 2) : key;
  if (rank_ok(ot) == false) {
    free(words);
    lit_free(out);
    lit_free(ns);
    return interp_error(I, op, "output rank too large");
  }
  if (philox)
    gen_philox(key, &lo, &hi, wide, out->n, words);
  else
    gen_threefry(key, &lo, wide, ot, words);
  uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  for (int64_t i = 0; i < out->n; i++) lit_set_bits(out, i, words[i] & mask);
  lit_set_u(ns, 1, lo);
  if (st->n > 2) lit_set_u(ns, 2, hi);
  free(words);
  res[0] = ival_tensor(ns);
  res[1] = ival_tensor(out);
  return true;
}

/* ---- rng ---- */
static uint64_t rng_bits(const Op *op, uint64_t i) {
  uint64_t key = ((uint64_t)(uint32_t)op->loc.file << 32) ^ op->loc.off ^ 0x5851F42D4C957F2Dull;
  uint32_t x[4];
  philox_block(key, i, 0, 0, x);
  return (uint64_t)x[0] | ((uint64_t)x[1] << 32);
}

/* uniform double in [0, 1) from 53 bits */
static double unit(uint64_t b) { return (double)(b >> 11) * 0x1p-53; }

bool interp_RNG(Interp *I, Op *op, IVal **args, IVal **res) {
  for (int i = 0; i < 2; i++)
    if (args[i]->kind != IV_TENSOR || ARG_LIT(i)->n != 1) return interp_error(I, op, "a and b must be scalars");
  const Literal *A = ARG_LIT(0), *B = ARG_LIT(1);
  const char *dist = op_attr_str(op, "rng_distribution");
  bool normal = dist && !strcmp(dist, "NORMAL");
  if (dist && !normal && strcmp(dist, "UNIFORM")) return interp_error(I, op, "unknown rng_distribution '%s'", dist);
  const Type *ot = op->res[0].type;
  if (ot->kind != TY_TENSOR) return interp_error(I, op, "result must be a tensor");
  ElemType et = ot->elem;
  if (normal && !et_is_float(et)) return interp_error(I, op, "NORMAL needs a floating-point type");
  if (et_is_complex(et)) return interp_error(I, op, "rng does not support complex types");
  Literal *out = lit_new(ot);
  uint64_t ctr = 0;
  for (int64_t i = 0; i < out->n; i++) {
    if (normal) {
      double u1 = 1.0 - unit(rng_bits(op, ctr++)), u2 = unit(rng_bits(op, ctr++));
      double z = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
      lit_set_f(out, i, lit_get_f(A, 0) + lit_get_f(B, 0) * z);
    } else if (et_is_float(et)) {
      double a = lit_get_f(A, 0), b = lit_get_f(B, 0);
      /* rounding to a narrow type may reach b; draw again (bounded) */
      for (int tries = 0;; tries++) {
        lit_set_f(out, i, a + (b - a) * unit(rng_bits(op, ctr++)));
        double v = lit_get_f(out, i);
        if (!(v >= b) || tries > 64) break;
      }
      if (lit_get_f(out, i) >= b) lit_set_f(out, i, a);
    } else if (et_is_pred(et)) {
      lit_set_b(out, i, lit_get_b(A, 0));
    } else {
      bool sgn = et_is_signed(et);
      uint64_t a = (uint64_t)lit_get_i(A, 0), b = (uint64_t)lit_get_i(B, 0);
      bool empty = sgn ? (int64_t)a >= (int64_t)b : a >= b;
      uint64_t span = b - a;
      lit_set_u(out, i, empty ? a : a + rng_bits(op, ctr++) % span);
    }
  }
  res[0] = ival_tensor(out);
  return true;
}
