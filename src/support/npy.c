/*
 * npy.c - the NumPy .npy format (see npy.h for the dtype mapping).
 *
 * A file is: the magic "\x93NUMPY", a major/minor version byte pair, the
 * header length (2 bytes little-endian in v1, 4 bytes in v2/v3), then an
 * ASCII (v3: UTF-8) Python dict literal such as
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
 * padded with spaces and a newline, then the raw element data.  Files come
 * from users, so everything is validated: the dict is parsed properly
 * rather than searched for substrings, sizes are checked for overflow, and
 * a short file is an error, never a read past the end.
 */
#include "support/npy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPY_MAX_RANK 64

static Literal *fail(char **err, const char *fmt, ...) XLAC_PRINTF(2, 3);
static Literal *fail(char **err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  StrBuf b = {0};
  sb_vprintf(&b, fmt, ap);
  va_end(ap);
  if (err)
    *err = sb_take(&b);
  else
    sb_free(&b);
  return NULL;
}

/* ---- the header dict ---- */
typedef struct Header {
  char descr[32];
  bool have_descr, have_order, have_shape;
  bool fortran;
  int rank;
  int64_t dims[NPY_MAX_RANK];
} Header;

typedef struct Cursor {
  const char *p, *end;
} Cursor;

static void skip_ws(Cursor *c) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) c->p++;
}

static bool eat(Cursor *c, char ch) {
  skip_ws(c);
  if (c->p < c->end && *c->p == ch) {
    c->p++;
    return true;
  }
  return false;
}

/* A quoted Python string without escapes (none occur in npy headers). */
static bool parse_str(Cursor *c, char *out, size_t cap) {
  skip_ws(c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return false;
  char q = *c->p++;
  size_t n = 0;
  while (c->p < c->end && *c->p != q) {
    if (*c->p == '\\' || n + 1 >= cap) return false;
    out[n++] = *c->p++;
  }
  if (c->p >= c->end) return false;
  c->p++;
  out[n] = 0;
  return true;
}

static bool parse_word(Cursor *c, const char *w) {
  skip_ws(c);
  size_t n = strlen(w);
  if ((size_t)(c->end - c->p) < n || memcmp(c->p, w, n) != 0) return false;
  c->p += n;
  return true;
}

static bool parse_shape(Cursor *c, Header *h, char **err) {
  if (!eat(c, '(')) return fail(err, "malformed .npy header: 'shape' is not a tuple"), false;
  h->rank = 0;
  for (;;) {
    if (eat(c, ')')) return true;
    skip_ws(c);
    if (c->p >= c->end || *c->p < '0' || *c->p > '9')
      return fail(err, "malformed .npy header: bad dimension in 'shape'"), false;
    int64_t v = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
      if (v > (INT64_MAX - 9) / 10) return fail(err, ".npy header: dimension too large"), false;
      v = v * 10 + (*c->p++ - '0');
    }
    if (c->p < c->end && *c->p == 'L') c->p++; /* Python 2 longs */
    if (h->rank == NPY_MAX_RANK) return fail(err, ".npy header: too many dimensions"), false;
    h->dims[h->rank++] = v;
    if (eat(c, ',')) continue;
    if (eat(c, ')')) return true;
    return fail(err, "malformed .npy header: bad 'shape' tuple"), false;
  }
}

static bool parse_header(const char *text, size_t len, Header *h, char **err) {
  Cursor c = {text, text + len};
  memset(h, 0, sizeof *h);
  if (!eat(&c, '{')) return fail(err, "malformed .npy header: expected '{'"), false;
  for (;;) {
    if (eat(&c, '}')) break;
    char key[32];
    if (!parse_str(&c, key, sizeof key)) return fail(err, "malformed .npy header: expected a key"), false;
    if (!eat(&c, ':')) return fail(err, "malformed .npy header: expected ':'"), false;
    if (strcmp(key, "descr") == 0) {
      skip_ws(&c);
      if (c.p < c.end && *c.p == '[')
        return fail(err, "structured .npy dtypes are not supported"), false;
      if (!parse_str(&c, h->descr, sizeof h->descr))
        return fail(err, "malformed .npy header: bad 'descr'"), false;
      h->have_descr = true;
    } else if (strcmp(key, "fortran_order") == 0) {
      if (parse_word(&c, "True"))
        h->fortran = true;
      else if (parse_word(&c, "False"))
        h->fortran = false;
      else
        return fail(err, "malformed .npy header: bad 'fortran_order'"), false;
      h->have_order = true;
    } else if (strcmp(key, "shape") == 0) {
      if (!parse_shape(&c, h, err)) return false;
      h->have_shape = true;
    } else {
      return fail(err, "unexpected key '%s' in .npy header", key), false;
    }
    if (eat(&c, ',')) continue;
    if (eat(&c, '}')) break;
    return fail(err, "malformed .npy header: expected ',' or '}'"), false;
  }
  if (!h->have_descr || !h->have_order || !h->have_shape)
    return fail(err, "malformed .npy header: needs 'descr', 'fortran_order' and 'shape'"), false;
  return true;
}

/* ---- dtypes ---- */
const char *npy_dtype_of(ElemType et) {
  switch (et) {
  case ET_PRED: return "|b1";
  case ET_S2: case ET_S4: case ET_S8: return "|i1";
  case ET_S16: return "<i2";
  case ET_S32: return "<i4";
  case ET_S64: return "<i8";
  case ET_U2: case ET_U4: case ET_U8: return "|u1";
  case ET_U16: return "<u2";
  case ET_U32: return "<u4";
  case ET_U64: return "<u8";
  case ET_F16: return "<f2";
  case ET_F32: return "<f4";
  case ET_F64: return "<f8";
  case ET_BF16: return "<V2";
  case ET_C64: return "<c8";
  case ET_C128: return "<c16";
  default:
    if (et > ET_INVALID && et < ET_COUNT && et_is_float(et) && et_bytes(et) == 1) return "<V1";
    return NULL;
  }
}

/* Element type for a NumPy dtype; ET_INVALID for raw 'V' or unknown ones. */
static ElemType et_of_dtype(char kind, int size) {
  switch (kind) {
  case 'b': return size == 1 ? ET_PRED : ET_INVALID;
  case 'i':
    return size == 1 ? ET_S8 : size == 2 ? ET_S16 : size == 4 ? ET_S32 : size == 8 ? ET_S64 : ET_INVALID;
  case 'u':
    return size == 1 ? ET_U8 : size == 2 ? ET_U16 : size == 4 ? ET_U32 : size == 8 ? ET_U64 : ET_INVALID;
  case 'f': return size == 2 ? ET_F16 : size == 4 ? ET_F32 : size == 8 ? ET_F64 : ET_INVALID;
  case 'c': return size == 8 ? ET_C64 : size == 16 ? ET_C128 : ET_INVALID;
  default: return ET_INVALID;
  }
}

static char *shape_str(int rank, const int64_t *dims) {
  StrBuf b = {0};
  sb_putc(&b, '(');
  for (int i = 0; i < rank; i++) sb_printf(&b, "%s%lld", i ? ", " : "", (long long)dims[i]);
  if (rank == 1) sb_putc(&b, ',');
  sb_putc(&b, ')');
  return sb_take(&b);
}

static void swap_bytes(unsigned char *p, int n) {
  for (int i = 0; i < n / 2; i++) {
    unsigned char t = p[i];
    p[i] = p[n - 1 - i];
    p[n - 1 - i] = t;
  }
}

/* Brings one stored element into xlac's storage convention. */
static bool fix_elem(Literal *l, int64_t i, bool from_raw, bool narrow_int, char **err) {
  ElemType et = lit_elem(l);
  int bits = et_bits(et);
  uint8_t *p = lit_ptr(l, i);
  if (et == ET_PRED) {
    *p = *p != 0;
  } else if (from_raw && et_bytes(et) == 1 && bits < 8) {
    /* ml_dtypes keeps the value in the low bits; sign-extend signed ones */
    unsigned v = *p & ((1u << bits) - 1);
    if (et_is_signed(et) && (v >> (bits - 1))) v |= ~0u << bits;
    *p = (uint8_t)v;
  } else if (narrow_int) {
    int64_t v = et_is_signed(et) ? (int8_t)*p : *p;
    int64_t lo = et_is_signed(et) ? -(INT64_C(1) << (bits - 1)) : 0;
    int64_t hi = et_is_signed(et) ? (INT64_C(1) << (bits - 1)) - 1 : (INT64_C(1) << bits) - 1;
    if (v < lo || v > hi) {
      fail(err, "element %lld (value %lld) does not fit in %s", (long long)i, (long long)v,
           elem_info[et].mlir_name);
      return false;
    }
  }
  return true;
}

Literal *npy_decode(const void *data, size_t len, const Type *expect, char **err) {
  const unsigned char *d = data;
  if (err) *err = NULL;
  if (expect && expect->kind != TY_TENSOR) return fail(err, "only tensors can be read from .npy");
  if (len < 10 || memcmp(d, "\x93NUMPY", 6) != 0) return fail(err, "not a .npy file (bad magic)");
  int major = d[6];
  size_t hlen, hstart;
  if (major == 1) {
    hlen = (size_t)d[8] | (size_t)d[9] << 8;
    hstart = 10;
  } else if (major == 2 || major == 3) {
    if (len < 12) return fail(err, "truncated .npy header");
    hlen = (size_t)d[8] | (size_t)d[9] << 8 | (size_t)d[10] << 16 | (size_t)d[11] << 24;
    hstart = 12;
  } else {
    return fail(err, "unsupported .npy version %d.%d", major, d[7]);
  }
  if (hlen > len - hstart) return fail(err, "truncated .npy header");
  Header h;
  if (!parse_header((const char *)d + hstart, hlen, &h, err)) return NULL;

  /* dtype */
  const char *ds = h.descr;
  char order = '|';
  if (*ds == '<' || *ds == '>' || *ds == '|' || *ds == '=') order = *ds++;
  char kind = *ds ? *ds++ : 0;
  char *endp;
  long size = strtol(ds, &endp, 10);
  if (!kind || endp == ds || *endp || size <= 0 || size > 16)
    return fail(err, "unsupported .npy dtype '%s'", h.descr);
  bool big = order == '>';
  ElemType et = et_of_dtype(kind, (int)size);
  bool from_raw = false, narrow_int = false;
  if (expect) {
    ElemType want = expect->elem;
    if (kind == 'V') {
      if (et_bytes(want) != size || et_is_complex(want))
        return fail(err, "raw .npy dtype '%s' cannot hold %s", h.descr, elem_info[want].mlir_name);
      from_raw = true;
      et = want;
    } else if (et != want) {
      bool ok = (et == ET_S8 && (want == ET_S2 || want == ET_S4)) ||
                (et == ET_U8 && (want == ET_U2 || want == ET_U4));
      if (!ok) {
        return fail(err, ".npy dtype '%s' (%s) does not match the expected element type %s",
                    h.descr, et ? elem_info[et].mlir_name : "unsupported",
                    elem_info[want].mlir_name);
      }
      narrow_int = true;
      et = want;
    }
    if (expect->rank != h.rank || memcmp(expect->dims, h.dims, sizeof(int64_t) * (size_t)h.rank) != 0) {
      char *s = shape_str(h.rank, h.dims), *ts = type_str(expect);
      fail(err, ".npy shape %s does not match the expected type %s", s, ts);
      xfree(s);
      xfree(ts);
      return NULL;
    }
  } else if (et == ET_INVALID) {
    if (kind == 'V')
      return fail(err, "raw .npy dtype '%s' needs a known element type (e.g. bf16)", h.descr);
    return fail(err, "unsupported .npy dtype '%s'", h.descr);
  }

  /* sizes */
  int64_t n = 1;
  for (int i = 0; i < h.rank; i++)
    if (__builtin_mul_overflow(n, h.dims[i], &n)) return fail(err, ".npy shape is too large");
  size_t avail = len - hstart - hlen;
  uint64_t need;
  if (__builtin_mul_overflow((uint64_t)n, (uint64_t)size, &need))
    return fail(err, ".npy shape is too large");
  if (need > avail)
    return fail(err, "truncated .npy data: expected %llu bytes, found %zu", (unsigned long long)need, avail);
  if (need < avail)
    return fail(err, ".npy file has %zu unexpected trailing bytes", (size_t)(avail - need));

  Arena a;
  arena_init(&a);
  Literal *l = lit_new(type_tensor(&a, et, h.rank, h.dims));
  arena_free(&a);
  const unsigned char *src = d + hstart + hlen;
  int isz = (int)size;
  if (!h.fortran || h.rank < 2) {
    if (need) memcpy(l->data, src, (size_t)need);
  } else {
    /* Fortran order: the first index varies fastest in the file */
    int64_t idx[NPY_MAX_RANK] = {0}, fstr[NPY_MAX_RANK];
    fstr[0] = 1;
    for (int i = 1; i < h.rank; i++) fstr[i] = fstr[i - 1] * h.dims[i - 1];
    for (int64_t i = 0; i < n; i++) {
      int64_t off = 0;
      for (int k = 0; k < h.rank; k++) off += idx[k] * fstr[k];
      memcpy(lit_ptr(l, i), src + off * isz, (size_t)isz);
      index_next(h.rank, h.dims, idx);
    }
  }
  for (int64_t i = 0; i < n; i++) {
    if (big && kind != 'V') {
      int part = kind == 'c' ? isz / 2 : isz;
      for (int o = 0; o < isz; o += part) swap_bytes((unsigned char *)lit_ptr(l, i) + o, part);
    }
    if (!fix_elem(l, i, from_raw, narrow_int, err)) {
      lit_free(l);
      return NULL;
    }
  }
  return l;
}

Literal *npy_read(const char *path, const Type *expect, char **err) {
  char *text, *rerr;
  size_t len;
  if (err) *err = NULL;
  /* read at most what the format can need: a header (its length field is at
     most 4 GiB in versions 2 and 3; 1 MiB is plenty) and, when the type is
     known, exactly its data */
  size_t max = alloc_limit_get();
  if (expect && expect->kind == TY_TENSOR) {
    int64_t ne = type_num_elements(expect), nb;
    if (ne >= 0 && !__builtin_mul_overflow(ne, (int64_t)et_bytes(expect->elem), &nb) &&
        (uint64_t)nb < max - ((size_t)1 << 20))
      max = (size_t)nb + ((size_t)1 << 20);
  }
  if (!read_file(path, max, &text, &len, &rerr)) {
    Literal *r = fail(err, "%s", rerr);
    xfree(rerr);
    return r;
  }
  Literal *l = npy_decode(text, len, expect, err);
  xfree(text);
  return l;
}

bool npy_encode(StrBuf *b, const Literal *l, char **err) {
  if (err) *err = NULL;
  const char *dt = npy_dtype_of(lit_elem(l));
  if (!dt) {
    fail(err, "element type %s cannot be stored in .npy", elem_info[lit_elem(l)].mlir_name);
    return false;
  }
  char *shape = shape_str(l->type->rank, l->type->dims);
  StrBuf h = {0};
  sb_printf(&h, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", dt, shape);
  xfree(shape);
  /* pad so that the data starts on a 64-byte boundary, as NumPy does */
  bool v2 = h.len + 11 > 65535;
  size_t pre = v2 ? 12 : 10;
  while ((pre + h.len + 1) % 64) sb_putc(&h, ' ');
  sb_putc(&h, '\n');
  sb_putn(b, "\x93NUMPY", 6);
  sb_putc(b, (char)(v2 ? 2 : 1));
  sb_putc(b, 0);
  size_t hl = h.len;
  sb_putc(b, (char)(hl & 0xff));
  sb_putc(b, (char)((hl >> 8) & 0xff));
  if (v2) {
    sb_putc(b, (char)((hl >> 16) & 0xff));
    sb_putc(b, (char)((hl >> 24) & 0xff));
  }
  sb_putn(b, h.data, h.len);
  sb_free(&h);
  if (l->n) sb_putn(b, l->data, (size_t)l->n * (size_t)et_bytes(lit_elem(l)));
  return true;
}

bool npy_write(const char *path, const Literal *l, char **err) {
  StrBuf b = {0};
  if (!npy_encode(&b, l, err)) return false;
  FILE *f = fopen(path, "wb");
  bool ok = f && fwrite(b.data, 1, b.len, f) == b.len;
  int e = errno;
  if (f && fclose(f) != 0 && ok) {
    ok = false;
    e = errno;
  }
  sb_free(&b);
  if (!ok) fail(err, "cannot write '%s': %s", path, strerror(e));
  return ok;
}
