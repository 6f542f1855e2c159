/*
 * attrs.c - attribute and type entries.  Each entry of the attr/type
 * section is either assembly text (a dialect without a bytecode encoding:
 * kept as text, which is what the text frontend does with attributes it
 * does not interpret) or the dialect's own encoding, a kind code and its
 * fields.  Two dialects are decoded: builtin (the module's attributes,
 * dictionaries, locations, dense elements) and VHLO (everything inside
 * functions).  Entries are decoded on first use and kept, so an attribute
 * shared by a thousand ops is read once; nesting is bounded and an entry
 * that refers to itself is an error.
 *
 * Integers are stored by their type's width (a byte up to 8 bits, else a
 * zigzag varint), floats as the integer of their bits, and tensor data as
 * the raw little-endian buffer of MLIR's dense elements (one element: a
 * splat; booleans one per byte, or packed eight to a byte by VHLO).
 */
#include <stdlib.h>
#include <string.h>

#include "frontends/mlirbc/bc.h"
#include "ir/sharding.h"

/* ---- VHLO's enums, by their encoded values ---- */
static const char *const comparison_direction[] = {"EQ", "NE", "GE", "GT", "LE", "LT"};
static const char *const comparison_type[] = {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"};
static const char *const api_version[] = {"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL",
                                          "API_VERSION_STATUS_RETURNING",
                                          "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"};
static const char *const fft_type[] = {"FFT", "IFFT", "RFFT", "IRFFT"};
static const char *const precision[] = {"DEFAULT", "HIGH", "HIGHEST"};
static const char *const rng_algorithm[] = {"DEFAULT", "THREE_FRY", "PHILOX"};
static const char *const rng_distribution[] = {NULL, "UNIFORM", "NORMAL"};
static const char *const transpose[] = {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"};
static const char *const accuracy_mode[] = {"DEFAULT", "HIGHEST", "TOLERANCE"};

static const struct {
  const char *name; /* StableHLO's name of the enum */
  const char *const *values;
  int n;
} enums[] = {
    [EN_COMPARISON_DIRECTION] = {"comparison_direction", comparison_direction, ARRAY_LEN(comparison_direction)},
    [EN_COMPARISON_TYPE] = {"comparison_type", comparison_type, ARRAY_LEN(comparison_type)},
    [EN_API_VERSION] = {"api_version", api_version, ARRAY_LEN(api_version)},
    [EN_FFT_TYPE] = {"fft_type", fft_type, ARRAY_LEN(fft_type)},
    [EN_PRECISION] = {"precision", precision, ARRAY_LEN(precision)},
    [EN_RNG_ALGORITHM] = {"rng_algorithm", rng_algorithm, ARRAY_LEN(rng_algorithm)},
    [EN_RNG_DISTRIBUTION] = {"rng_distribution", rng_distribution, ARRAY_LEN(rng_distribution)},
    [EN_TRANSPOSE] = {"transpose", transpose, ARRAY_LEN(transpose)},
    [EN_ACCURACY_MODE] = {"result_accuracy_mode", accuracy_mode, ARRAY_LEN(accuracy_mode)},
};

const char *ba_enum_name(BAEnum e) { return enums[e].name; }

const char *ba_enum_value(BAEnum e, int64_t v) {
  return v >= 0 && v < enums[e].n ? enums[e].values[v] : NULL;
}

/* ---- small pieces ---- */

static BA *new_ba(Cur *c, BAKind k, const uint8_t *at) {
  BA *a = ARENA_NEW(&c->bc->m->arena, BA);
  a->kind = k;
  a->off = (uint32_t)(at - c->bc->base);
  return a;
}

static BT *new_bt(Bc *bc, BTKind k) {
  BT *t = ARENA_NEW(&bc->m->arena, BT);
  t->kind = k;
  return t;
}

static BT *elem_bt(Bc *bc, ElemType et) {
  BT *t = new_bt(bc, BT_ELEM);
  t->et = et;
  t->t = type_scalar(&bc->m->arena, et);
  return t;
}

static const char *xasprintf_arena(Bc *bc, const char *fmt, const char *arg) {
  char *s = xasprintf(fmt, arg);
  const char *r = arena_strdup(&bc->m->arena, s);
  xfree(s);
  return r;
}

static BT *other_bt(Bc *bc, const char *name) {
  BT *t = new_bt(bc, BT_OTHER);
  t->name = name;
  return t;
}

static int64_t sext(uint64_t v, int bits) {
  if (bits >= 64) return (int64_t)v;
  uint64_t m = 1ull << (bits - 1);
  v &= (1ull << bits) - 1;
  return (int64_t)((v ^ m) - m);
}

/* The bits of an integer or float of `bits` bits. */
static bool read_apint(Cur *c, int bits, uint64_t *out) {
  uint8_t b;
  int64_t v;
  *out = 0;
  if (bits <= 8) {
    if (!cur_byte(c, &b)) return false;
    *out = b;
    return true;
  }
  if (bits <= 64) {
    if (!cur_svarint(c, &v)) return false;
    *out = (uint64_t)v;
    return true;
  }
  return bc_fail(c->bc, c->p, "integers wider than 64 bits are not supported");
}

static double bits_to_double(ElemType et, uint64_t bits) {
  return et_bits_to_double(et, et_bits(et) >= 64 ? bits : bits & ((1ull << et_bits(et)) - 1));
}

/* A list: a count, then that many things each read by `one`. */
static BA **read_attr_list(Cur *c, uint64_t *n) {
  if (!cur_count(c, "list", n)) return NULL;
  BA **v = ARENA_ARRAY(&c->bc->m->arena, BA *, *n + 1);
  for (uint64_t i = 0; i < *n; i++)
    if (!(v[i] = cur_attr(c))) return NULL;
  return v;
}

static BT **read_type_list(Cur *c, uint64_t *n) {
  if (!cur_count(c, "list", n)) return NULL;
  BT **v = ARENA_ARRAY(&c->bc->m->arena, BT *, *n + 1);
  for (uint64_t i = 0; i < *n; i++)
    if (!(v[i] = cur_type(c))) return NULL;
  return v;
}

static int64_t *read_svarint_list(Cur *c, uint64_t *n) {
  if (!cur_count(c, "list", n)) return NULL;
  int64_t *v = ARENA_ARRAY(&c->bc->m->arena, int64_t, *n + 1);
  for (uint64_t i = 0; i < *n; i++)
    if (!cur_svarint(c, &v[i])) return NULL;
  return v;
}

static BT *read_elem_type(Cur *c, const uint8_t **at) {
  *at = c->p;
  BT *t = cur_type(c);
  if (t && t->kind != BT_ELEM && t->kind != BT_INDEX) {
    bc_fail(c->bc, *at, "expected an integer or float type");
    return NULL;
  }
  return t;
}

static int type_bits(const BT *t) { return t->kind == BT_INDEX ? 64 : et_bits(t->et); }

/* ---- types ---- */

static BT *tensor_bt(Cur *c, const uint8_t *at, const int64_t *dims, uint64_t rank, BT *elem) {
  Bc *bc = c->bc;
  /* index only appears in layouts, which hold i64 (as the text frontend
     reads them) */
  if (elem->kind == BT_INDEX) elem = elem_bt(bc, ET_S64);
  if (elem->kind != BT_ELEM) {
    bc_fail(bc, at, "a tensor's element type must be an integer, float or complex type");
    return NULL;
  }
  if (rank > BC_MAX_RANK) {
    bc_fail(bc, at, "tensor rank %llu is larger than %d", (unsigned long long)rank, BC_MAX_RANK);
    return NULL;
  }
  int64_t e, bytes;
  for (uint64_t i = 0; i < rank; i++)
    if (dims[i] < 0) {
      bc_fail(bc, at, "dynamic dimensions are not supported (only static shapes are)");
      return NULL;
    }
  BT *t = new_bt(bc, BT_TENSOR);
  t->t = type_tensor(&bc->m->arena, elem->et, (int)rank, dims);
  t->t->quant = elem->quant;
  if (!type_sizes(t->t, &e, &bytes)) {
    bc_fail(bc, at, "a tensor type whose size does not fit in 64 bits");
    return NULL;
  }
  return t;
}

static BT *read_tensor(Cur *c, bool encoded) {
  const uint8_t *at = c->p;
  uint64_t rank;
  if (encoded) {
    BA *enc = cur_attr(c);
    if (!enc) return NULL;
    bc_fail(c->bc, at, "tensor encodings (bounded dynamic shapes, sparsity) are not supported");
    return NULL;
  }
  int64_t *dims = read_svarint_list(c, &rank);
  BT *elem = dims ? cur_type(c) : NULL;
  return elem ? tensor_bt(c, at, dims, rank, elem) : NULL;
}

static BT *tuple_bt(Cur *c, const uint8_t *at) {
  uint64_t n;
  BT **el = read_type_list(c, &n);
  if (!el) return NULL;
  Type **ts = ARENA_ARRAY(&c->bc->m->arena, Type *, n + 1);
  for (uint64_t i = 0; i < n; i++) {
    if (!bt_is_value(el[i])) {
      bc_fail(c->bc, at, "a tuple element must be a tensor, tuple or token");
      return NULL;
    }
    ts[i] = el[i]->t;
  }
  BT *t = new_bt(c->bc, BT_TUPLE);
  t->t = type_tuple(&c->bc->m->arena, (int)n, ts);
  return t;
}

static BT *func_bt(Cur *c) {
  uint64_t nin, nout;
  BT **in = read_type_list(c, &nin);
  BT **out = in ? read_type_list(c, &nout) : NULL;
  if (!out) return NULL;
  BT *t = new_bt(c->bc, BT_FUNC);
  t->nin = (int)nin;
  t->nout = (int)nout;
  t->in = in;
  t->out = out;
  return t;
}

static BT *complex_bt(Cur *c, const uint8_t *at) {
  BT *part = cur_type(c);
  if (!part) return NULL;
  if (part->kind == BT_ELEM && part->et == ET_F32) return elem_bt(c->bc, ET_C64);
  if (part->kind == BT_ELEM && part->et == ET_F64) return elem_bt(c->bc, ET_C128);
  bc_fail(c->bc, at, "only complex<f32> and complex<f64> are supported");
  return NULL;
}

static BT *token_bt(Bc *bc) {
  BT *t = new_bt(bc, BT_TOKEN);
  t->t = type_token(&bc->m->arena);
  return t;
}

/* !vhlo.quant / uniform per-axis: storage, expressed, scales, zero points */
static BT *quant_bt(Cur *c, const uint8_t *at, bool per_axis) {
  Bc *bc = c->bc;
  uint64_t flags, qdim = 0, ns = 1, nz = 1;
  int64_t zp0 = 0, lo, hi;
  uint64_t scale0 = 0;
  double *scales;
  int64_t *zps;
  const uint8_t *sat;
  BT *storage, *expressed;
  if (!cur_varint(c, &flags) || !(storage = read_elem_type(c, &sat)) || !(expressed = read_elem_type(c, &sat)))
    return NULL;
  if (storage->kind != BT_ELEM || !et_is_int(storage->et) || expressed->kind != BT_ELEM ||
      !et_is_float(expressed->et)) {
    bc_fail(bc, at, "a quantized type needs an integer storage type and a float expressed type");
    return NULL;
  }
  if (per_axis) {
    if (!cur_varint(c, &qdim) || !cur_svarint(c, &lo) || !cur_svarint(c, &hi) || !cur_count(c, "scale", &ns))
      return NULL;
    scales = ARENA_ARRAY(&bc->m->arena, double, ns + 1);
    for (uint64_t i = 0; i < ns; i++) {
      uint64_t b;
      if (!read_apint(c, 64, &b)) return NULL;
      scales[i] = bits_to_double(ET_F64, b);
    }
    if (!(zps = read_svarint_list(c, &nz))) return NULL;
    if (nz != ns || qdim >= BC_MAX_RANK) {
      bc_fail(bc, at, "a per-axis quantized type with %llu scales, %llu zero points and dimension %llu",
              (unsigned long long)ns, (unsigned long long)nz, (unsigned long long)qdim);
      return NULL;
    }
  } else {
    if (!read_apint(c, 64, &scale0) || !cur_svarint(c, &zp0) || !cur_svarint(c, &lo) || !cur_svarint(c, &hi))
      return NULL;
    scales = ARENA_NEW(&bc->m->arena, double);
    zps = ARENA_NEW(&bc->m->arena, int64_t);
    scales[0] = bits_to_double(ET_F64, scale0);
    zps[0] = zp0;
  }
  QuantInfo *q = ARENA_NEW(&bc->m->arena, QuantInfo);
  *q = (QuantInfo){storage->et, expressed->et, lo, hi, per_axis ? (int)qdim : -1, (int)ns, scales, zps};
  BT *t = elem_bt(bc, storage->et);
  t->quant = q;
  t->t->quant = q;
  return t;
}

static BT *read_vhlo_type(Cur *c) {
  static const ElemType plain[] = {
      [0] = ET_PRED,       [2] = ET_BF16,       [3] = ET_F16,       [4] = ET_F32,           [5] = ET_F64,
      [6] = ET_F8E4M3FN,   [7] = ET_F8E5M2,     [10] = ET_S4,       [11] = ET_S8,           [12] = ET_S16,
      [13] = ET_S32,       [14] = ET_S64,       [15] = ET_U4,       [16] = ET_U8,           [17] = ET_U16,
      [18] = ET_U32,       [19] = ET_U64,       [27] = ET_F8E4M3FNUZ, [28] = ET_F8E5M2FNUZ, [29] = ET_F8E4M3B11FNUZ,
      [31] = ET_S2,        [32] = ET_U2,        [35] = ET_F8E4M3,   [36] = ET_F8E3M4,       [37] = ET_F4E2M1FN,
      [38] = ET_F6E2M3FN,  [39] = ET_F6E3M2FN,  [40] = ET_F8E8M0FNU,
  };
  const uint8_t *at = c->p;
  uint64_t code;
  if (!cur_varint(c, &code)) return NULL;
  if (code < ARRAY_LEN(plain) && plain[code] != ET_INVALID) return elem_bt(c->bc, plain[code]);
  switch (code) {
  case 1: return complex_bt(c, at);
  case 8: return func_bt(c);
  case 9: return new_bt(c->bc, BT_INDEX);
  case 20: return read_tensor(c, false);
  case 21: return read_tensor(c, true);
  case 22: return token_bt(c->bc);
  case 23: return tuple_bt(c, at);
  case 24: return quant_bt(c, at, false);
  case 30: return quant_bt(c, at, true);
  case 33: return new_bt(c->bc, BT_NONE);
  case 25: return cur_type(c) ? other_bt(c->bc, "an unranked tensor type") : NULL;
  case 26: return other_bt(c->bc, "!vhlo.witness");
  case 34: return other_bt(c->bc, "tf32");
  case 41: c->p = c->end; return other_bt(c->bc, "a buffer type");
  case 42: /* futures of async collectives: the text frontend has none */
    return read_type_list(c, &(uint64_t){0}) ? other_bt(c->bc, "a future type") : NULL;
  default:
    bc_fail(c->bc, at, "unknown VHLO type code %llu", (unsigned long long)code);
    return NULL;
  }
}

static BT *builtin_int_bt(Cur *c, const uint8_t *at) {
  uint64_t v;
  if (!cur_varint(c, &v)) return NULL;
  uint64_t width = v >> 2, sign = v & 3;
  static const ElemType sl[] = {[1] = ET_PRED, [2] = ET_S2, [4] = ET_S4, [8] = ET_S8, [16] = ET_S16, [32] = ET_S32, [64] = ET_S64};
  static const ElemType un[] = {[2] = ET_U2, [4] = ET_U4, [8] = ET_U8, [16] = ET_U16, [32] = ET_U32, [64] = ET_U64};
  ElemType et = ET_INVALID;
  if (sign != 2 && width < ARRAY_LEN(sl)) et = sl[width];
  if (sign == 2 && width < ARRAY_LEN(un)) et = un[width];
  if (et == ET_INVALID || sign == 3) return other_bt(c->bc, "an integer type of another width");
  (void)at;
  return elem_bt(c->bc, et);
}

static BT *read_builtin_type(Cur *c) {
  const uint8_t *at = c->p;
  uint64_t code;
  if (!cur_varint(c, &code)) return NULL;
  switch (code) {
  case 0: return builtin_int_bt(c, at);
  case 1: return new_bt(c->bc, BT_INDEX);
  case 2: return func_bt(c);
  case 3: return elem_bt(c->bc, ET_BF16);
  case 4: return elem_bt(c->bc, ET_F16);
  case 5: return elem_bt(c->bc, ET_F32);
  case 6: return elem_bt(c->bc, ET_F64);
  case 9: return complex_bt(c, at);
  case 12: return new_bt(c->bc, BT_NONE);
  case 13: return read_tensor(c, false);
  case 14: return read_tensor(c, true);
  case 15: return tuple_bt(c, at);
  default:
    /* f80, f128, memrefs, vectors, unranked tensors and the rest: their
       bytes are skipped and the type is unusable */
    c->p = c->end;
    return other_bt(c->bc, "a builtin type xlac does not support");
  }
}

/* ---- dense data ---- */

/* Booleans: one per byte; or, as VHLO writes them, eight to a byte, with
   a splat as one byte 0xFF (true) or 0x00 (false). */
static bool fill_bools(Cur *c, Literal *l, const uint8_t *d, size_t len, const uint8_t *at) {
  int64_t n = l->n;
  size_t packed = (size_t)((n + 7) / 8);
  if (len == (size_t)n) {
    for (int64_t i = 0; i < n; i++) lit_set_b(l, i, d[i] != 0);
  } else if (len == 1 && (d[0] == 0xFF || packed != 1)) {
    for (int64_t i = 0; i < n; i++) lit_set_b(l, i, d[0] != 0);
  } else if (len == packed) {
    for (int64_t i = 0; i < n; i++) lit_set_b(l, i, d[i / 8] >> (i % 8) & 1);
  } else {
    return bc_fail(c->bc, at, "%zu bytes of data for %lld booleans", len, (long long)n);
  }
  return true;
}

static void set_raw(Literal *l, int64_t i, const uint8_t *p) {
  ElemType et = lit_elem(l);
  int w = et_bytes(et);
  uint64_t bits = 0;
  for (int k = w - 1; k >= 0; k--) bits = bits << 8 | p[k];
  if (et_is_int(et))
    lit_set_i(l, i, et_is_signed(et) ? sext(bits, et_bits(et)) : (int64_t)bits);
  else
    lit_set_bits(l, i, et_bits(et) < 8 ? bits & ((1u << et_bits(et)) - 1) : bits);
}

/* A literal of type t from MLIR's raw buffer: every element, or one to
   splat; a large splat's one element, rank 0, with *lazy its type (BA.splat:
   never written out where a constant takes it, bc_splats). */
static Literal *dense_literal(Cur *c, BT *t, const uint8_t *d, size_t len, const uint8_t *at, Type **lazy) {
  if (t->kind != BT_TENSOR) {
    bc_fail(c->bc, at, "dense elements need a ranked tensor type");
    return NULL;
  }
  int64_t n = type_num_elements(t->t);
  if (n > BC_MAX_ELEMS) {
    bc_fail(c->bc, at, "a constant with %lld elements is too large", (long long)n);
    return NULL;
  }
  Arena *arena = &c->bc->m->arena;
  ElemType et = t->t->elem;
  size_t w = (size_t)et_bytes(et);
  bool whole = len == (size_t)n * w, splat = len == w;
  if (et != ET_PRED && splat && !whole && n >= SPLIT_SPLAT_MIN && !et_is_complex(et) && et_bits(et) <= 64 &&
      !t->t->quant) {
    Literal *one = lit_new_in(arena, type_scalar(arena, et));
    set_raw(one, 0, d);
    *lazy = t->t;
    return one;
  }
  Literal *l = lit_new_in(arena, t->t);
  if (et == ET_PRED) return fill_bools(c, l, d, len, at) ? l : NULL;
  if (!whole && !splat) {
    bc_fail(c->bc, at, "%zu bytes of data for %lld elements of %s", len, (long long)n, elem_info[et].mlir_name);
    return NULL;
  }
  bool direct = et_bits(et) == 8 * (int)w || et_is_complex(et);
  if (whole && direct) {
    if (n) memcpy(l->data, d, len);
  } else if (splat && n) {
    set_raw(l, 0, d);
    lit_fill_first(l);
  } else {
    for (int64_t i = 0; i < n; i++) set_raw(l, i, d + i * (int64_t)w);
  }
  return l;
}

Literal *ba_literal(Bc *bc, const BA *a) {
  if (!a->splat) return a->lit;
  Literal *l = lit_new_in(&bc->m->arena, a->splat);
  memcpy(l->data, a->lit->data, (size_t)et_bytes(a->splat->elem));
  lit_fill_first(l);
  return l;
}

/* ---- builtin attributes ---- */

static BA *builtin_int(Cur *c, const uint8_t *at, bool is_float) {
  const uint8_t *tat;
  uint64_t bits;
  BT *t = read_elem_type(c, &tat);
  if (!t || !read_apint(c, type_bits(t), &bits)) return NULL;
  if (is_float != (t->kind == BT_ELEM && et_is_float(t->et))) {
    bc_fail(c->bc, tat, is_float ? "a float attribute of a non-float type" : "an integer attribute of a float type");
    return NULL;
  }
  if (t->kind == BT_ELEM && et_is_complex(t->et)) { /* (is_float is false here) */
    bc_fail(c->bc, tat, "an integer attribute of a complex type");
    return NULL;
  }
  BA *a = new_ba(c, BA_INT, at);
  a->ty = t;
  if (is_float) {
    a->kind = BA_FLOAT;
    a->f = bits_to_double(t->et, bits);
  } else if (t->kind == BT_ELEM && t->et == ET_PRED) {
    a->kind = BA_BOOL;
    a->i = bits & 1;
  } else if (t->kind == BT_ELEM && et_is_unsigned(t->et)) {
    a->i = (int64_t)(et_bits(t->et) >= 64 ? bits : bits & ((1ull << et_bits(t->et)) - 1));
  } else {
    a->i = sext(bits, type_bits(t));
  }
  return a;
}

/* Keys compare as the C strings names are here (a NUL ends them). */
static int by_key(const void *a, const void *b) {
  return strcmp((*(BA *const *)a)->s, (*(BA *const *)b)->s);
}

/* A dictionary's keys are distinct (the text frontend refuses a
   duplicate, and so does MLIR): sorted copies, neighbours compared. */
static bool distinct_keys(Cur *c, BA *d) {
  if (d->n < 2) return true;
  BA **k = xmalloc(sizeof(BA *) * (size_t)d->n);
  memcpy(k, d->keys, sizeof(BA *) * (size_t)d->n);
  qsort(k, (size_t)d->n, sizeof(BA *), by_key);
  const BA *dup = NULL;
  for (int i = 1; i < d->n && !dup; i++)
    if (by_key(&k[i - 1], &k[i]) == 0) dup = k[i];
  xfree(k);
  if (dup) bc_fail(c->bc, c->bc->base + d->off, "a dictionary with the key '%s' twice", dup->s);
  return !dup;
}

/* An array (builtin and VHLO encode it alike): a list of attributes. */
static BA *read_array(Cur *c, const uint8_t *at) {
  uint64_t n;
  BA *a = new_ba(c, BA_ARRAY, at);
  if (!(a->elems = read_attr_list(c, &n))) return NULL;
  a->n = (int)n;
  return a;
}

/* A dictionary (builtin and VHLO encode it alike): a count, then key and
   value attributes in turn; keys are strings, each once. */
static BA *read_dict(Cur *c, const uint8_t *at) {
  uint64_t n;
  if (!cur_count(c, "dictionary entry", &n)) return NULL;
  BA *a = new_ba(c, BA_DICT, at);
  a->keys = ARENA_ARRAY(&c->bc->m->arena, BA *, n + 1);
  a->elems = ARENA_ARRAY(&c->bc->m->arena, BA *, n + 1);
  a->n = (int)n;
  for (uint64_t i = 0; i < n; i++) {
    const uint8_t *kat = c->p;
    if (!(a->keys[i] = cur_attr(c)) || !(a->elems[i] = cur_attr(c))) return NULL;
    if (a->keys[i]->kind != BA_STRING) {
      bc_fail(c->bc, kat, "a dictionary key that is not a string");
      return NULL;
    }
  }
  return distinct_keys(c, a) ? a : NULL;
}

static BA *builtin_symbol(Cur *c, const uint8_t *at, bool nested) {
  uint64_t n = 0;
  BA *root = cur_attr(c);
  BA **rest = root && nested ? read_attr_list(c, &n) : NULL;
  if (!root || (nested && !rest)) return NULL;
  StrBuf b = {0};
  bool ok = root->kind == BA_STRING;
  if (ok) sb_putn(&b, root->s, root->slen);
  for (uint64_t i = 0; ok && i < n; i++) {
    ok = rest[i]->kind == BA_SYMBOL;
    if (ok) sb_printf(&b, "::@%s", rest[i]->s);
  }
  BA *a = new_ba(c, BA_SYMBOL, at);
  if (ok) {
    a->s = arena_strdup(&c->bc->m->arena, b.data ? b.data : "");
    a->slen = strlen(a->s);
  }
  sb_free(&b);
  if (!ok) bc_fail(c->bc, at, "a symbol reference that is not made of strings");
  return ok ? a : NULL;
}

static BA *builtin_dense(Cur *c, const uint8_t *at) {
  uint64_t len;
  const uint8_t *d, *tat = c->p;
  BT *t = cur_type(c);
  if (!t || !cur_varint(c, &len) || !cur_bytes(c, len, &d)) return NULL;
  BA *a = new_ba(c, BA_DENSE, at);
  return (a->lit = dense_literal(c, t, d, (size_t)len, tat, &a->splat)) ? a : NULL;
}

static BA *builtin_resource(Cur *c, const uint8_t *at) {
  Bc *bc = c->bc;
  uint64_t h;
  const uint8_t *tat = c->p, *hat;
  BT *t = cur_type(c);
  hat = c->p;
  if (!t || !cur_varint(c, &h)) return NULL;
  if (h >= (uint64_t)bc->nresources || !bc->resources[h].blob) {
    bc_fail(bc, hat, "resource handle %llu does not name a blob (%d resources)", (unsigned long long)h,
            bc->nresources);
    return NULL;
  }
  BA *a = new_ba(c, BA_DENSE, at);
  return (a->lit = dense_literal(c, t, bc->resources[h].data, bc->resources[h].len, tat, &a->splat)) ? a : NULL;
}

/* array<i64: ...>, array<i1: ...>, array<f32: ...> */
static BA *builtin_dense_array(Cur *c, const uint8_t *at) {
  const uint8_t *tat, *d;
  uint64_t n, len;
  BT *t = read_elem_type(c, &tat);
  if (!t || !cur_varint(c, &n) || !cur_varint(c, &len) || !cur_bytes(c, len, &d)) return NULL;
  int w = t->kind == BT_ELEM ? et_bytes(t->et) : 8;
  if (t->kind != BT_ELEM || et_is_complex(t->et) || n > len || len != n * (uint64_t)w) {
    bc_fail(c->bc, at, "a dense array whose data does not match its %llu elements", (unsigned long long)n);
    return NULL;
  }
  Type *arr = type_tensor(&c->bc->m->arena, t->et, 1, (int64_t[]){(int64_t)n});
  Literal *l = lit_new_in(&c->bc->m->arena, arr);
  for (uint64_t i = 0; i < n; i++) set_raw(l, (int64_t)i, d + i * (uint64_t)w);
  if (et_is_float(t->et)) {
    BA *a = new_ba(c, BA_ARRAY, at);
    a->n = (int)n;
    a->elems = ARENA_ARRAY(&c->bc->m->arena, BA *, n + 1);
    for (uint64_t i = 0; i < n; i++) {
      a->elems[i] = new_ba(c, BA_FLOAT, at);
      a->elems[i]->f = lit_get_f(l, (int64_t)i);
      a->elems[i]->ty = t;
    }
    return a;
  }
  BA *a = new_ba(c, BA_INTS, at);
  a->n = (int)n;
  a->ty = t;
  a->ints = ARENA_ARRAY(&c->bc->m->arena, int64_t, n + 1);
  for (uint64_t i = 0; i < n; i++) a->ints[i] = lit_get_i(l, (int64_t)i);
  return a;
}

static BA *read_builtin_attr(Cur *c) {
  const uint8_t *at = c->p;
  uint64_t code;
  BA *a;
  if (!cur_varint(c, &code)) return NULL;
  switch (code) {
  case 0: return read_array(c, at);
  case 1: return read_dict(c, at);
  case 2:
  case 3: /* a string with a type: the type is of no use here */
    a = new_ba(c, BA_STRING, at);
    if (!cur_string(c, &a->s, &a->slen)) return NULL;
    if (code == 3 && !cur_type(c)) return NULL;
    return a;
  case 4: return builtin_symbol(c, at, false);
  case 5: return builtin_symbol(c, at, true);
  case 6:
    a = new_ba(c, BA_TYPE, at);
    return (a->ty = cur_type(c)) ? a : NULL;
  case 7: return new_ba(c, BA_UNIT, at);
  case 8: return builtin_int(c, at, false);
  case 9: return builtin_int(c, at, true);
  case 10:
  case 11:
  case 12:
  case 13:
  case 14:
  case 15:
    /* locations: an op's says where it came from in the producer's
       source; ours is its place in this file */
    c->p = c->end;
    return new_ba(c, BA_LOC, at);
  case 16: return builtin_resource(c, at);
  case 17: return builtin_dense_array(c, at);
  case 18: return builtin_dense(c, at);
  default:
    c->p = c->end;
    a = new_ba(c, BA_OTHER, at);
    a->s = code == 19 ? "dense string elements" : code == 20 ? "sparse elements" : "a builtin attribute";
    return a;
  }
}

/* ---- VHLO attributes ---- */

static BA *vhlo_enum(Cur *c, const uint8_t *at, BAEnum e) {
  uint64_t v;
  if (!cur_varint(c, &v)) return NULL;
  if (!ba_enum_value(e, (int64_t)(v > 1000 ? 1000 : v))) {
    bc_fail(c->bc, at, "%llu is not a value of %s", (unsigned long long)v, ba_enum_name(e));
    return NULL;
  }
  BA *a = new_ba(c, BA_ENUM, at);
  a->ekind = e;
  a->i = (int64_t)v;
  return a;
}

static BA *vhlo_tensor(Cur *c, const uint8_t *at) {
  const uint8_t *tat = c->p, *d;
  uint64_t len;
  BT *t = cur_type(c);
  if (!t || !cur_varint(c, &len) || !cur_bytes(c, len, &d)) return NULL;
  BA *a = new_ba(c, BA_DENSE, at);
  return (a->lit = dense_literal(c, t, d, (size_t)len, tat, &a->splat)) ? a : NULL;
}

static BA *vhlo_alias(Cur *c, const uint8_t *at) {
  uint64_t n, n2;
  BA *a = new_ba(c, BA_ALIAS, at);
  if (!(a->ints = read_svarint_list(c, &n)) || !cur_svarint(c, &a->i) || !(a->ints2 = read_svarint_list(c, &n2)))
    return NULL;
  a->n = (int)n;
  a->n2 = (int)n2;
  return a;
}

static BA *vhlo_accuracy(Cur *c, const uint8_t *at) {
  uint64_t atol, rtol;
  BA *a = new_ba(c, BA_ACCURACY, at);
  const uint8_t *mat;
  if (!read_apint(c, 64, &atol) || !read_apint(c, 64, &rtol) || !cur_svarint(c, &a->i)) return NULL;
  mat = c->p;
  a->f = bits_to_double(ET_F64, atol);
  a->f2 = bits_to_double(ET_F64, rtol);
  a->elems = ARENA_ARRAY(&c->bc->m->arena, BA *, 1);
  if (!(a->elems[0] = cur_attr(c))) return NULL;
  if (a->elems[0]->kind != BA_ENUM || a->elems[0]->ekind != EN_ACCURACY_MODE) {
    bc_fail(c->bc, mat, "a result accuracy whose mode is not a result accuracy mode");
    return NULL;
  }
  return a;
}

/* The sharding attributes of collectives over meshes: read so the
   entry's bytes are accounted for, and refused where used. */
static BA *vhlo_mesh_attr(Cur *c, const uint8_t *at, uint64_t code) {
  int64_t x;
  uint64_t i;
  bool flag;
  const char *name = "a mesh attribute";
  switch (code) {
  case 21: if (!cur_svarint(c, &x) || !cur_svarint(c, &x)) return NULL; break;
  case 22:
    if (!cur_attr(c) || !cur_varint(c, &i)) return NULL;
    if (i && !cur_attr(c)) return NULL;
    break;
  case 23: if (!cur_attr(c) || !cur_attr(c)) return NULL; break;
  case 24: if (!cur_attr(c) || !cur_svarint(c, &x)) return NULL; break;
  default: {
    const uint8_t *oat;
    if (!cur_attr(c)) return NULL;
    oat = c->p;
    if (!cur_varint_flag(c, &i, &flag) || (flag && !bc_attr(c->bc, i, oat))) return NULL;
  }
  }
  BA *a = new_ba(c, BA_OTHER, at);
  a->s = name;
  return a;
}

static BA *read_vhlo_attr(Cur *c) {
  const uint8_t *at = c->p;
  uint64_t code, n;
  BA *a;
  if (!cur_varint(c, &code)) return NULL;
  switch (code) {
  case 1: return read_array(c, at);
  case 2:
    a = new_ba(c, BA_BOOL, at);
    if (!cur_varint(c, &n)) return NULL;
    a->i = n != 0;
    return a;
  case 3: return vhlo_enum(c, at, EN_COMPARISON_DIRECTION);
  case 4: return vhlo_enum(c, at, EN_COMPARISON_TYPE);
  case 5: return vhlo_enum(c, at, EN_API_VERSION);
  case 6: return read_dict(c, at); /* the same encoding */
  case 7: return vhlo_enum(c, at, EN_FFT_TYPE);
  case 8: return builtin_int(c, at, true);
  case 9: return builtin_int(c, at, false);
  case 10: return vhlo_alias(c, at);
  case 11: return vhlo_enum(c, at, EN_PRECISION);
  case 12: return vhlo_enum(c, at, EN_RNG_ALGORITHM);
  case 13: return vhlo_enum(c, at, EN_RNG_DISTRIBUTION);
  case 14:
    a = new_ba(c, BA_STRING, at);
    return cur_string(c, &a->s, &a->slen) ? a : NULL;
  case 15: return vhlo_tensor(c, at);
  case 16: return vhlo_enum(c, at, EN_TRANSPOSE);
  case 17:
    a = new_ba(c, BA_TYPE, at);
    return (a->ty = cur_type(c)) ? a : NULL;
  case 18:
    a = new_ba(c, BA_OTHER, at);
    a->s = "type extensions (bounded dynamic shapes)";
    return read_svarint_list(c, &n) ? a : NULL;
  case 19: return vhlo_enum(c, at, EN_ACCURACY_MODE);
  case 20: return vhlo_accuracy(c, at);
  case 21:
  case 22:
  case 23:
  case 24:
  case 25: return vhlo_mesh_attr(c, at, code);
  default:
    bc_fail(c->bc, at, "unknown VHLO attribute code %llu", (unsigned long long)code);
    return NULL;
  }
}

/* ---- Shardy's attributes ----
 * Shardy (the sdy dialect) writes its attributes in an encoding of its own
 * (shardy/dialect/sdy/ir/bytecode.td): a kind, then the fields, where a
 * nested attribute is a reference to another entry, a name a string table
 * index, a number a zigzag varint, a flag a byte, and an optional value a
 * varint whose low bit says whether it is there.  Each entry becomes the
 * structure of src/ir/sharding.h it describes. */

static BA *sdy_ba(Cur *c, BASdy k, const uint8_t *at) {
  BA *a = new_ba(c, BA_SDY, at);
  a->sdy = k;
  return a;
}

static const char *const sdy_kind_names[] = {
    "manual axes", "mesh axis", "mesh", "sub-axis", "axis ref", "dimension sharding",
    "tensor sharding", "sharding per value", "dim mapping", "tensor mapping", "sharding rule",
    "collective parameter"};

/* A list of references to Shardy attributes of kind k. */
static BA **sdy_list(Cur *c, BASdy k, uint64_t *n) {
  const uint8_t *at = c->p;
  BA **v = read_attr_list(c, n);
  if (!v) return NULL;
  for (uint64_t i = 0; i < *n; i++)
    if (v[i]->kind != BA_SDY || v[i]->sdy != k) {
      bc_fail(c->bc, at, "a list of Shardy %s attributes holds something else (element %llu)", sdy_kind_names[k],
              (unsigned long long)i);
      return NULL;
    }
  if (*n > SDY_MAX_AXES && (k == SDY_AXIS_REF || k == SDY_MESH_AXIS || k == SDY_DIM_SHARDING)) {
    bc_fail(c->bc, at, "a list of %llu Shardy %s attributes (at most %d)", (unsigned long long)*n, sdy_kind_names[k],
            SDY_MAX_AXES);
    return NULL;
  }
  return v;
}

static bool sdy_name(Cur *c, const char **out) {
  const uint8_t *at = c->p;
  size_t n;
  if (!cur_string(c, out, &n)) return false;
  if (memchr(*out, 0, n)) return bc_fail(c->bc, at, "a Shardy axis name with a NUL byte");
  return true;
}

/* The axis refs of a list as an array of SdyAxisRef. */
static SdyAxisRef *sdy_refs(Cur *c, int *n) {
  uint64_t k;
  BA **v = sdy_list(c, SDY_AXIS_REF, &k);
  if (!v) return NULL;
  SdyAxisRef *r = ARENA_ARRAY(&c->bc->m->arena, SdyAxisRef, k + 1);
  for (uint64_t i = 0; i < k; i++) r[i] = *(SdyAxisRef *)v[i]->ptr;
  *n = (int)k;
  return r;
}

static BA *sdy_mesh(Cur *c, const uint8_t *at) {
  Arena *ar = &c->bc->m->arena;
  uint64_t n, nd;
  BA **axes = sdy_list(c, SDY_MESH_AXIS, &n);
  const uint8_t *dat = c->p;
  int64_t *ids = axes ? read_svarint_list(c, &nd) : NULL;
  if (!ids) return NULL;
  if (nd > SDY_MAX_DEVICES) {
    bc_fail(c->bc, dat, "a Shardy mesh of %llu device ids (at most %d)", (unsigned long long)nd, SDY_MAX_DEVICES);
    return NULL;
  }
  SdyMesh *m = ARENA_NEW(ar, SdyMesh);
  m->naxes = (int)n;
  m->axes = ARENA_ARRAY(ar, SdyMeshAxis, n + 1);
  for (uint64_t i = 0; i < n; i++) m->axes[i] = (SdyMeshAxis){axes[i]->s, axes[i]->i};
  m->ndevices = (int)nd;
  m->device_ids = ids;
  sdy_mesh_canonicalize(m);
  BA *a = sdy_ba(c, SDY_MESH, at);
  a->ptr = m;
  return a;
}

static BA *sdy_axis_ref(Cur *c, const uint8_t *at) {
  SdyAxisRef *r = ARENA_NEW(&c->bc->m->arena, SdyAxisRef);
  uint64_t idx;
  bool present;
  if (!sdy_name(c, &r->name)) return NULL;
  const uint8_t *sat = c->p;
  if (!cur_varint_flag(c, &idx, &present)) return NULL;
  if (present) {
    BA *sub = bc_attr(c->bc, idx, sat);
    if (!sub) return NULL;
    if (sub->kind != BA_SDY || sub->sdy != SDY_SUB_AXIS) {
      bc_fail(c->bc, sat, "a Shardy axis ref whose sub-axis is something else");
      return NULL;
    }
    r->pre_size = sub->i;
    r->size = sub->i2 ? sub->i2 : -1; /* size 0 stands for the whole axis: keep it invalid */
  }
  BA *a = sdy_ba(c, SDY_AXIS_REF, at);
  a->ptr = r;
  return a;
}

static BA *sdy_dim(Cur *c, const uint8_t *at) {
  SdyDim *d = ARENA_NEW(&c->bc->m->arena, SdyDim);
  uint8_t closed;
  uint64_t prio;
  bool present;
  if (!(d->axes = sdy_refs(c, &d->naxes)) || !cur_byte(c, &closed)) return NULL;
  const uint8_t *pat = c->p;
  if (!cur_varint_flag(c, &prio, &present)) return NULL;
  if (present && prio > (uint64_t)INT32_MAX) {
    bc_fail(c->bc, pat, "a Shardy priority of %llu", (unsigned long long)prio);
    return NULL;
  }
  d->closed = closed != 0;
  d->priority = present ? (int64_t)prio : -1;
  BA *a = sdy_ba(c, SDY_DIM_SHARDING, at);
  a->ptr = d;
  return a;
}

/* TensorSharding, in its versions: 6 (no unreduced axes), 15 (unreduced,
   summed), 17 (unreduced, with the reduction) */
static BA *sdy_sharding(Cur *c, const uint8_t *at, uint64_t code) {
  Arena *ar = &c->bc->m->arena;
  SdySharding *s = ARENA_NEW(ar, SdySharding);
  const uint8_t *mat = c->p;
  BA *mesh = cur_attr(c);
  if (!mesh) return NULL;
  if (mesh->kind == BA_SYMBOL && !strstr(mesh->s, "::")) {
    s->mesh_name = mesh->s;
  } else if (mesh->kind == BA_SDY && mesh->sdy == SDY_MESH) {
    s->mesh = mesh->ptr;
  } else {
    bc_fail(c->bc, mat, "a Shardy sharding whose mesh is neither a mesh nor the name of one");
    return NULL;
  }
  uint64_t nd;
  BA **dims = sdy_list(c, SDY_DIM_SHARDING, &nd);
  if (!dims) return NULL;
  s->ndims = (int)nd;
  s->dims = ARENA_ARRAY(ar, SdyDim, nd + 1);
  for (uint64_t i = 0; i < nd; i++) s->dims[i] = *(SdyDim *)dims[i]->ptr;
  if (!(s->replicated = sdy_refs(c, &s->nreplicated))) return NULL;
  if (code != 6 && !(s->unreduced = sdy_refs(c, &s->nunreduced))) return NULL;
  if (code == 17) {
    const uint8_t *rat = c->p;
    int64_t r;
    if (!cur_svarint(c, &r)) return NULL;
    if (r < SDY_SUM || r > SDY_MIN) {
      bc_fail(c->bc, rat, "%lld is not a Shardy reduction (sum 0, max 1, min 2)", (long long)r);
      return NULL;
    }
    s->reduction = (SdyReduction)r;
  }
  BA *a = sdy_ba(c, SDY_SHARDING, at);
  a->ptr = s;
  return a;
}

static BA *sdy_per_value(Cur *c, const uint8_t *at) {
  uint64_t n;
  BA **v = sdy_list(c, SDY_SHARDING, &n);
  if (!v) return NULL;
  SdySharding *all = ARENA_ARRAY(&c->bc->m->arena, SdySharding, n + 1);
  for (uint64_t i = 0; i < n; i++) all[i] = *(SdySharding *)v[i]->ptr;
  BA *a = sdy_ba(c, SDY_PER_VALUE, at);
  a->ptr = all;
  a->n = (int)n;
  return a;
}

/* A factor of a sharding rule by its symbol: i..z, then z_1, z_2, ... */
static void factor_symbol(StrBuf *b, int64_t k) {
  if (k < 18)
    sb_putc(b, (char)('i' + k));
  else
    sb_printf(b, "z_%lld", (long long)(k - 17));
}

static void factor_list(StrBuf *b, const char *what, const int64_t *f, uint64_t n) {
  if (!n) return;
  sb_printf(b, " %s={", what);
  for (uint64_t i = 0; i < n; i++) {
    if (i) sb_puts(b, ", ");
    factor_symbol(b, f[i]);
  }
  sb_putc(b, '}');
}

static void tensor_mappings(StrBuf *b, BA **t, uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
    sb_puts(b, i ? ", [" : "[");
    for (int d = 0; d < t[i]->n; d++) {
      if (d) sb_puts(b, ", ");
      const BA *dm = t[i]->elems[d];
      for (int k = 0; k < dm->n; k++) factor_symbol(b, dm->ints[k]);
    }
    sb_putc(b, ']');
  }
}

static bool factors_in_range(Cur *c, const uint8_t *at, const int64_t *f, uint64_t n, uint64_t nf) {
  for (uint64_t i = 0; i < n; i++)
    if (f[i] < 0 || (uint64_t)f[i] >= nf)
      return bc_fail(c->bc, at, "a Shardy sharding rule names factor %lld of %llu", (long long)f[i],
                     (unsigned long long)nf);
  return true;
}

/* OpShardingRule: kept as the text Shardy prints for it. */
static BA *sdy_rule(Cur *c, const uint8_t *at) {
  uint64_t nf, nops, nres, nl[4];
  int64_t *sizes, *lists[4];
  uint8_t custom;
  if (!(sizes = read_svarint_list(c, &nf))) return NULL;
  BA **ops = sdy_list(c, SDY_TENSOR_MAPPING, &nops);
  BA **res = ops ? sdy_list(c, SDY_TENSOR_MAPPING, &nres) : NULL;
  if (!res) return NULL;
  for (int k = 0; k < 4; k++)
    if (!(lists[k] = read_svarint_list(c, &nl[k]))) return NULL;
  if (!cur_byte(c, &custom)) return NULL;
  for (int k = 0; k < 4; k++)
    if (!factors_in_range(c, at, lists[k], nl[k], nf)) return NULL;
  for (int pass = 0; pass < 2; pass++) {
    BA **t = pass ? res : ops;
    uint64_t n = pass ? nres : nops;
    for (uint64_t i = 0; i < n; i++)
      for (int d = 0; d < t[i]->n; d++)
        if (!factors_in_range(c, at, t[i]->elems[d]->ints, (uint64_t)t[i]->elems[d]->n, nf)) return NULL;
  }
  StrBuf b = {0};
  sb_puts(&b, "#sdy.op_sharding_rule<(");
  tensor_mappings(&b, ops, nops);
  sb_puts(&b, ")->(");
  tensor_mappings(&b, res, nres);
  sb_putc(&b, ')');
  if (nf) {
    sb_puts(&b, " {");
    for (uint64_t i = 0; i < nf; i++) {
      if (i) sb_puts(&b, ", ");
      factor_symbol(&b, (int64_t)i);
      sb_printf(&b, "=%lld", (long long)sizes[i]);
    }
    sb_putc(&b, '}');
  }
  static const char *const kinds[4] = {"reduction", "need_replication", "permutation", "blocked_propagation"};
  for (int k = 0; k < 4; k++) factor_list(&b, kinds[k], lists[k], nl[k]);
  if (custom) sb_puts(&b, ", custom");
  sb_putc(&b, '>');
  BA *a = sdy_ba(c, SDY_RULE, at);
  a->s = arena_strndup(&c->bc->m->arena, b.data, b.len);
  a->slen = b.len;
  sb_free(&b);
  return a;
}

static BA *read_sdy_attr(Cur *c) {
  const uint8_t *at = c->p;
  uint64_t code, n;
  int64_t x, y;
  BA *a;
  if (!cur_varint(c, &code)) return NULL;
  switch (code) {
  case 0: {
    a = sdy_ba(c, SDY_MANUAL_AXES, at);
    if (!(a->elems = read_attr_list(c, &n))) return NULL;
    a->n = (int)n;
    for (uint64_t i = 0; i < n; i++)
      if (a->elems[i]->kind != BA_STRING || memchr(a->elems[i]->s, 0, a->elems[i]->slen)) {
        bc_fail(c->bc, at, "Shardy manual axes that are not names");
        return NULL;
      }
    return a;
  }
  case 1:
    a = sdy_ba(c, SDY_MESH_AXIS, at);
    return sdy_name(c, &a->s) && cur_svarint(c, &a->i) ? a : NULL;
  case 2: return sdy_mesh(c, at);
  case 3:
    if (!cur_svarint(c, &x) || !cur_svarint(c, &y)) return NULL;
    a = sdy_ba(c, SDY_SUB_AXIS, at);
    a->i = x;
    a->i2 = y;
    return a;
  case 4: return sdy_axis_ref(c, at);
  case 5: return sdy_dim(c, at);
  case 6:
  case 15:
  case 17: return sdy_sharding(c, at, code);
  case 7:
  case 16: return sdy_per_value(c, at);
  case 8:
    a = sdy_ba(c, SDY_DIM_MAPPING, at);
    if (!(a->ints = read_svarint_list(c, &n))) return NULL;
    a->n = (int)n;
    return a;
  case 9:
    a = sdy_ba(c, SDY_TENSOR_MAPPING, at);
    if (!(a->elems = sdy_list(c, SDY_DIM_MAPPING, &n))) return NULL;
    a->n = (int)n;
    return a;
  case 10: return sdy_rule(c, at);
  case 11:
  case 12:
  case 14:
    /* lists of axis refs, of lists of them, of all-to-all parameters */
    if (!read_attr_list(c, &n)) return NULL;
    a = sdy_ba(c, SDY_COLLECTIVE, at);
    a->i = (int64_t)code;
    return a;
  case 13:
    if (!read_attr_list(c, &n) || !cur_svarint(c, &x) || !cur_svarint(c, &y)) return NULL;
    a = sdy_ba(c, SDY_COLLECTIVE, at);
    a->i = (int64_t)code;
    return a;
  default:
    bc_fail(c->bc, at, "unknown Shardy attribute kind %llu", (unsigned long long)code);
    return NULL;
  }
}

/* ---- entries ---- */

/* An entry of a dialect without a bytecode encoding: its assembly text. */
static void *text_entry(Cur *c, bool is_type) {
  const uint8_t *nul = memchr(c->p, 0, (size_t)(c->end - c->p));
  if (!nul) {
    bc_fail(c->bc, c->p, "an attribute or type in assembly form without its terminating NUL");
    return NULL;
  }
  const char *s = arena_strndup(&c->bc->m->arena, (const char *)c->p, (size_t)(nul - c->p));
  const uint8_t *at = c->p;
  c->p = nul + 1;
  if (is_type) return other_bt(c->bc, s);
  BA *a = new_ba(c, BA_TEXT, at);
  a->s = s;
  a->slen = strlen(s);
  return a;
}

/* An entry in the encoding of a dialect other than builtin and VHLO:
   skipped, and refused wherever it is used, unless it is the value of a
   discardable attribute, which then goes (bc_drop_foreign). */
static void *foreign_entry(Cur *c, const char *dialect, bool is_type) {
  const uint8_t *at = c->p;
  c->p = c->end;
  if (is_type) return other_bt(c->bc, xasprintf_arena(c->bc, "a type of dialect '%s'", dialect));
  BA *a = new_ba(c, BA_FOREIGN, at);
  a->s = dialect;
  return a;
}

/* A type of the stablehlo dialect itself, as foreign ops' regions keep
   them (a shard_map body's token): its only type, code 0, is the token. */
static BT *read_stablehlo_type(Cur *c) {
  const uint8_t *at = c->p;
  uint64_t code;
  if (!cur_varint(c, &code)) return NULL;
  if (code == 0) return token_bt(c->bc);
  bc_fail(c->bc, at, "unknown stablehlo type code %llu", (unsigned long long)code);
  return NULL;
}

/* Entries are read on first use and kept.  Recursion follows references
   into entries not read yet, and is bounded; so is the depth of every
   tree an entry heads, counting the entries it shares with others, which
   bounds whatever later walks the attributes and types made of it. */
static void *read_entry(Bc *bc, BcEntry *tab, int n, uint64_t index, const uint8_t *at, bool is_type) {
  const char *what = is_type ? "type" : "attribute";
  if (bc->failed) return NULL;
  if (index >= (uint64_t)n) {
    bc_fail(bc, at, "%s index %llu is out of range (%d %ss)", what, (unsigned long long)index, n, what);
    return NULL;
  }
  BcEntry *e = &tab[index];
  if (e->state == 1) {
    bc_fail(bc, e->data, "%s %llu contains itself", what, (unsigned long long)index);
    return NULL;
  }
  if (e->state == 0) {
    Cur c = {bc, e->data, e->data + e->len, what};
    BcDialectKind d = bc->dialects[e->dialect].kind;
    int outer = bc->nested;
    void *v;
    if (bc->depth >= BC_MAX_DEPTH) {
      bc_fail(bc, at, "attributes and types nested more than %d deep", BC_MAX_DEPTH);
      return NULL;
    }
    e->state = 1;
    bc->depth++;
    bc->nested = 0;
    if (!e->custom)
      v = text_entry(&c, is_type);
    else if (d == DL_VHLO)
      v = is_type ? (void *)read_vhlo_type(&c) : (void *)read_vhlo_attr(&c);
    else if (d == DL_BUILTIN)
      v = is_type ? (void *)read_builtin_type(&c) : (void *)read_builtin_attr(&c);
    else if (d == DL_SDY && !is_type)
      v = read_sdy_attr(&c);
    else if (d == DL_STABLEHLO && is_type)
      v = read_stablehlo_type(&c);
    else
      v = foreign_entry(&c, bc->dialects[e->dialect].name, is_type);
    bc->depth--;
    int depth = bc->nested + 1;
    bc->nested = outer;
    if (v && !cur_done(&c)) v = NULL, bc_fail(bc, c.p, "trailing bytes after %s %llu", what, (unsigned long long)index);
    if (v && depth > BC_MAX_DEPTH) v = NULL, bc_fail(bc, e->data, "attributes and types nested more than %d deep", BC_MAX_DEPTH);
    if (!v) return NULL;
    e->state = 2;
    e->depth = (uint8_t)depth;
    e->val = v;
  }
  if (e->depth > bc->nested) bc->nested = e->depth;
  return e->val;
}

BA *bc_attr(Bc *bc, uint64_t index, const uint8_t *at) {
  return read_entry(bc, bc->attrs, bc->nattrs, index, at, false);
}

BT *bc_type(Bc *bc, uint64_t index, const uint8_t *at) {
  return read_entry(bc, bc->types, bc->ntypes, index, at, true);
}

BA *cur_attr(Cur *c) {
  const uint8_t *at = c->p;
  uint64_t i;
  return cur_varint(c, &i) ? bc_attr(c->bc, i, at) : NULL;
}

BT *cur_type(Cur *c) {
  const uint8_t *at = c->p;
  uint64_t i;
  return cur_varint(c, &i) ? bc_type(c->bc, i, at) : NULL;
}
