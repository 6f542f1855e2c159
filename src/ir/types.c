/*
 * types.c - element type table, type construction, comparison and printing.
 */
#include "ir/types.h"

#include <stdlib.h>
#include <string.h>

const ElemInfo elem_info[ET_COUNT] = {
    [ET_INVALID] = {"<invalid>", "<invalid>", 0, 0, EC_NONE},
#define ET(id, mlir, hlo, bits, bytes, cls) [ET_##id] = {mlir, hlo, bits, bytes, cls},
#include "ir/elemtypes.def"
#undef ET
};

static ElemType et_lookup(const char *s, size_t n, bool hlo) {
  for (int t = 1; t < ET_COUNT; t++) {
    const char *name = hlo ? elem_info[t].hlo_name : elem_info[t].mlir_name;
    if (strlen(name) == n && memcmp(name, s, n) == 0) return (ElemType)t;
  }
  return ET_INVALID;
}

ElemType et_from_mlir(const char *s, size_t n) {
  /* "si8" is an accepted spelling of signed i8 */
  if (n > 2 && s[0] == 's' && s[1] == 'i') {
    ElemType t = et_lookup(s + 1, n - 1, false);
    if (t != ET_INVALID && et_is_signed(t)) return t;
  }
  return et_lookup(s, n, false);
}

ElemType et_from_hlo(const char *s, size_t n) { return et_lookup(s, n, true); }

ElemType et_real_part(ElemType t) {
  if (t == ET_C64) return ET_F32;
  if (t == ET_C128) return ET_F64;
  return t;
}

Type *type_tensor(Arena *a, ElemType et, int rank, const int64_t *dims) {
  Type *t = ARENA_NEW(a, Type);
  t->kind = TY_TENSOR;
  t->elem = et;
  t->rank = rank;
  t->dims = ARENA_ARRAY(a, int64_t, rank > 0 ? rank : 1);
  if (rank > 0) memcpy(t->dims, dims, sizeof(int64_t) * (size_t)rank);
  return t;
}

Type *type_scalar(Arena *a, ElemType et) { return type_tensor(a, et, 0, NULL); }

Type *type_tuple(Arena *a, int n, Type *const *elems) {
  Type *t = ARENA_NEW(a, Type);
  t->kind = TY_TUPLE;
  t->ntuple = n;
  t->tuple = ARENA_ARRAY(a, Type *, n > 0 ? n : 1);
  for (int i = 0; i < n; i++) t->tuple[i] = elems[i];
  return t;
}

Type *type_token(Arena *a) {
  Type *t = ARENA_NEW(a, Type);
  t->kind = TY_TOKEN;
  return t;
}

Type *type_future(Arena *a, Type *inner) {
  Type *t = type_tuple(a, 1, &inner);
  t->kind = TY_FUTURE;
  return t;
}

Type *type_clone(Arena *a, const Type *src) {
  switch (src->kind) {
  case TY_TENSOR: {
    Type *t = type_tensor(a, src->elem, src->rank, src->dims);
    if (src->layout) t->layout = arena_memdup(a, src->layout, sizeof(int64_t) * (size_t)src->rank);
    if (src->quant) {
      QuantInfo *q = arena_memdup(a, src->quant, sizeof(QuantInfo));
      q->scales = arena_memdup(a, src->quant->scales, sizeof(double) * (size_t)q->nscales);
      q->zero_points = arena_memdup(a, src->quant->zero_points, sizeof(int64_t) * (size_t)q->nscales);
      t->quant = q;
    }
    return t;
  }
  case TY_TUPLE: {
    Type *t = type_tuple(a, src->ntuple, src->tuple);
    for (int i = 0; i < src->ntuple; i++) t->tuple[i] = type_clone(a, src->tuple[i]);
    return t;
  }
  case TY_TOKEN:
    return type_token(a);
  case TY_FUTURE:
    return type_future(a, type_clone(a, src->tuple[0]));
  }
  return NULL;
}

Type *type_with_elem(Arena *a, const Type *src, ElemType et) {
  return type_tensor(a, et, src->rank, src->dims);
}

static bool quant_equal(const QuantInfo *a, const QuantInfo *b) {
  if (!a || !b) return a == b;
  if (a->storage != b->storage || a->expressed != b->expressed || a->quant_dim != b->quant_dim ||
      a->nscales != b->nscales || a->storage_min != b->storage_min ||
      a->storage_max != b->storage_max)
    return false;
  for (int i = 0; i < a->nscales; i++)
    if (a->scales[i] != b->scales[i] || a->zero_points[i] != b->zero_points[i]) return false;
  return true;
}

bool type_same_shape(const Type *a, const Type *b) {
  if (a->kind != TY_TENSOR || b->kind != TY_TENSOR || a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

bool type_equal(const Type *a, const Type *b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind) return false;
  switch (a->kind) {
  case TY_TENSOR:
    return a->elem == b->elem && type_same_shape(a, b) && quant_equal(a->quant, b->quant);
  case TY_TUPLE:
  case TY_FUTURE:
    if (a->ntuple != b->ntuple) return false;
    for (int i = 0; i < a->ntuple; i++)
      if (!type_equal(a->tuple[i], b->tuple[i])) return false;
    return true;
  case TY_TOKEN:
    return true;
  }
  return false;
}

int64_t type_num_elements(const Type *t) {
  int64_t n = 1;
  for (int i = 0; i < t->rank; i++)
    if (__builtin_mul_overflow(n, t->dims[i], &n)) return INT64_MAX;
  return n;
}

bool dim_add(int64_t a, int64_t b, int64_t *out) { return !__builtin_add_overflow(a, b, out); }
bool dim_mul(int64_t a, int64_t b, int64_t *out) { return !__builtin_mul_overflow(a, b, out); }

bool type_sizes(const Type *t, int64_t *elems, int64_t *bytes) {
  int64_t n = 1;
  for (int i = 0; i < t->rank; i++)
    if (t->dims[i] < 0 || !dim_mul(n, t->dims[i], &n)) return false;
  *elems = n;
  return dim_mul(n, et_bytes(t->elem) > 0 ? et_bytes(t->elem) : 1, bytes);
}

int pad_dim_size(int64_t n, int64_t lo, int64_t hi, int64_t interior, int64_t *out) {
  /* the interior-padded extent (n - 1) * interior + n must fit */
  int64_t core = 0, ends;
  if (interior < 0) return 1;
  if (n > 0 && (!dim_mul(n - 1, interior, &core) || !dim_add(core, n, &core))) return 1;
  /* lo + hi overflows only when both are large with one sign, and then so
     does the exact total (core >= 0) */
  if (!dim_add(lo, hi, &ends)) return lo < 0 ? 2 : 3;
  if (!dim_add(core, ends, out)) return 3;
  return *out < 0 ? 2 : 0;
}

int window_dim_size(int64_t n, int64_t lo, int64_t hi, int64_t base_dil, int64_t win, int64_t win_dil,
                    int64_t stride, int64_t *out) {
  *out = 0;
  if (n < 0 || win < 0 || base_dil <= 0 || win_dil <= 0 || stride <= 0) return 1;
  int64_t dilated = 0, wd = 0, ext, padded;
  if (n > 0 && (!dim_mul(n - 1, base_dil, &dilated) || !dim_add(dilated, 1, &dilated))) return 2;
  if (!dim_add(dilated, lo > 0 ? lo : 0, &ext) || !dim_add(ext, hi > 0 ? hi : 0, &ext)) return 2;
  if (!dim_add(ext, lo < 0 ? lo : 0, &padded) || !dim_add(padded, hi < 0 ? hi : 0, &padded)) return 2;
  if (win > 0 && (!dim_mul(win - 1, win_dil, &wd) || !dim_add(wd, 1, &wd))) return 3;
  *out = padded <= 0 || wd > padded ? 0 : (padded - wd) / stride + 1;
  return 0;
}

bool type_is_tensor(const Type *t) { return t && t->kind == TY_TENSOR; }
bool type_is_scalar(const Type *t) { return t && t->kind == TY_TENSOR && t->rank == 0; }

static void print_quant(StrBuf *b, const QuantInfo *q) {
  sb_printf(b, "!quant.uniform<%s", elem_info[q->storage].mlir_name);
  /* storage range only when it differs from the full range of the type */
  if (q->storage_min || q->storage_max) {
    int bits = et_bits(q->storage);
    int64_t lo = et_is_signed(q->storage) ? -((int64_t)1 << (bits - 1)) : 0;
    int64_t hi = et_is_signed(q->storage) ? ((int64_t)1 << (bits - 1)) - 1
                                          : (int64_t)((1ull << bits) - 1);
    if (bits < 64 && (q->storage_min != lo || q->storage_max != hi))
      sb_printf(b, "<%lld:%lld>", (long long)q->storage_min, (long long)q->storage_max);
  }
  sb_printf(b, ":%s", elem_info[q->expressed].mlir_name);
  if (q->quant_dim >= 0) sb_printf(b, ":%d", q->quant_dim);
  sb_puts(b, ", ");
  if (q->quant_dim >= 0) sb_putc(b, '{');
  for (int i = 0; i < q->nscales; i++) {
    if (i) sb_putc(b, ',');
    sb_printf(b, "%.17g", q->scales[i]);
    if (q->zero_points[i]) sb_printf(b, ":%lld", (long long)q->zero_points[i]);
  }
  if (q->quant_dim >= 0) sb_putc(b, '}');
  sb_putc(b, '>');
}

void type_print_mlir(StrBuf *b, const Type *t) {
  switch (t->kind) {
  case TY_TENSOR:
    sb_puts(b, "tensor<");
    for (int i = 0; i < t->rank; i++) sb_printf(b, "%lldx", (long long)t->dims[i]);
    if (t->quant)
      print_quant(b, t->quant);
    else
      sb_puts(b, elem_info[t->elem].mlir_name);
    sb_putc(b, '>');
    return;
  case TY_TUPLE:
    sb_puts(b, "tuple<");
    for (int i = 0; i < t->ntuple; i++) {
      if (i) sb_puts(b, ", ");
      type_print_mlir(b, t->tuple[i]);
    }
    sb_putc(b, '>');
    return;
  case TY_TOKEN:
    sb_puts(b, "!stablehlo.token");
    return;
  case TY_FUTURE:
    sb_puts(b, "!stablehlo.future<");
    type_print_mlir(b, t->tuple[0]);
    sb_putc(b, '>');
    return;
  }
}

void type_print_hlo(StrBuf *b, const Type *t, bool with_layout) {
  switch (t->kind) {
  case TY_TENSOR:
    sb_printf(b, "%s[", elem_info[t->elem].hlo_name);
    for (int i = 0; i < t->rank; i++) sb_printf(b, i ? ",%lld" : "%lld", (long long)t->dims[i]);
    sb_putc(b, ']');
    if (with_layout && t->rank > 0) {
      sb_putc(b, '{');
      for (int i = 0; i < t->rank; i++)
        sb_printf(b, i ? ",%lld" : "%lld",
                  (long long)(t->layout ? t->layout[i] : (int64_t)(t->rank - 1 - i)));
      sb_putc(b, '}');
    }
    return;
  case TY_TUPLE:
    sb_putc(b, '(');
    for (int i = 0; i < t->ntuple; i++) {
      if (i) sb_puts(b, ", ");
      type_print_hlo(b, t->tuple[i], with_layout);
    }
    sb_putc(b, ')');
    return;
  case TY_TOKEN:
    sb_puts(b, "token[]");
    return;
  case TY_FUTURE:
    /* HLO has no future type: async values print as their payload */
    type_print_hlo(b, t->tuple[0], with_layout);
    return;
  }
}

char *type_str(const Type *t) {
  StrBuf b = {0};
  if (t)
    type_print_mlir(&b, t);
  else
    sb_puts(&b, "<null type>");
  return sb_take(&b);
}
