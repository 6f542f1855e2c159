/*
 * types.h - element types and the static types of values.
 *
 * A Type is a ranked static tensor (any rank, zero-sized dims allowed), a
 * tuple of types, or a token.  Types are plain structs allocated in an arena
 * and compared structurally; they are never mutated after construction.
 */
#ifndef XLAC_TYPES_H
#define XLAC_TYPES_H

#include "support/support.h"

typedef enum ElemType {
  ET_INVALID = 0,
#define ET(id, mlir, hlo, bits, bytes, cls) ET_##id,
#include "ir/elemtypes.def"
#undef ET
  ET_COUNT
} ElemType;

typedef enum ElemClass { EC_NONE, EC_PRED, EC_SINT, EC_UINT, EC_FLOAT, EC_COMPLEX } ElemClass;

typedef struct ElemInfo {
  const char *mlir_name, *hlo_name;
  int bits, bytes;
  ElemClass cls;
} ElemInfo;
extern const ElemInfo elem_info[ET_COUNT];

static inline int et_bytes(ElemType t) { return elem_info[t].bytes; }
static inline int et_bits(ElemType t) { return elem_info[t].bits; }
static inline ElemClass et_class(ElemType t) { return elem_info[t].cls; }
static inline bool et_is_float(ElemType t) { return elem_info[t].cls == EC_FLOAT; }
static inline bool et_is_complex(ElemType t) { return elem_info[t].cls == EC_COMPLEX; }
static inline bool et_is_int(ElemType t) {
  return elem_info[t].cls == EC_SINT || elem_info[t].cls == EC_UINT;
}
static inline bool et_is_signed(ElemType t) { return elem_info[t].cls == EC_SINT; }
static inline bool et_is_unsigned(ElemType t) { return elem_info[t].cls == EC_UINT; }
static inline bool et_is_pred(ElemType t) { return elem_info[t].cls == EC_PRED; }
/* float or complex */
static inline bool et_is_fp(ElemType t) { return et_is_float(t) || et_is_complex(t); }
/* Lookup by MLIR spelling ("f32", "ui8", "complex<f32>") or HLO ("f32", "u8", "c64").
   Return ET_INVALID when unknown. */
ElemType et_from_mlir(const char *s, size_t n);
ElemType et_from_hlo(const char *s, size_t n);
/* component type of a complex type (C64 -> F32), identity otherwise */
ElemType et_real_part(ElemType t);

/* TY_FUTURE is !stablehlo.future<T> (async_start/async_done): tuple[0] = T. */
typedef enum TypeKind { TY_TENSOR, TY_TUPLE, TY_TOKEN, TY_FUTURE } TypeKind;

/* Optional per-tensor quantization (element type is the storage type). */
typedef struct QuantInfo {
  ElemType storage, expressed;
  int64_t storage_min, storage_max;
  int quant_dim;      /* -1 for per-tensor */
  int nscales;
  double *scales;
  int64_t *zero_points;
} QuantInfo;

typedef struct Type {
  TypeKind kind;
  ElemType elem;          /* TY_TENSOR */
  int rank;               /* TY_TENSOR */
  int64_t *dims;          /* TY_TENSOR, rank entries */
  int64_t *layout;        /* optional minor-to-major (HLO), rank entries, or NULL */
  QuantInfo *quant;       /* optional */
  int ntuple;             /* TY_TUPLE */
  struct Type **tuple;    /* TY_TUPLE */
} Type;

Type *type_tensor(Arena *a, ElemType et, int rank, const int64_t *dims);
Type *type_scalar(Arena *a, ElemType et);
Type *type_tuple(Arena *a, int n, Type *const *elems);
Type *type_token(Arena *a);
Type *type_future(Arena *a, Type *inner);
Type *type_clone(Arena *a, const Type *t);
/* Same tensor shape with a different element type. */
Type *type_with_elem(Arena *a, const Type *t, ElemType et);
bool type_equal(const Type *a, const Type *b);    /* ignores layout */
bool type_same_shape(const Type *a, const Type *b);
/* Tensor only.  Saturates at INT64_MAX when the product overflows (the
   verifier rejects such types; see type_sizes). */
int64_t type_num_elements(const Type *t);
/* Checked shape arithmetic: false when the exact result does not fit in an
   int64_t (or, for the sizes, a dimension is negative). */
bool dim_add(int64_t a, int64_t b, int64_t *out);
bool dim_mul(int64_t a, int64_t b, int64_t *out);
/* Element count and storage bytes of a tensor type. */
bool type_sizes(const Type *t, int64_t *elems, int64_t *bytes);
/* Size of a padded dimension: n elements with `interior` elements between
   neighbours (n - 1 gaps) and lo/hi elements added (removed when negative)
   at the ends.  Returns 0 with the size in *out; 1 when interior is negative
   or n - 1 gaps do not fit in int64_t (the interior-padded extent must);
   2 when the exact result is negative; 3 when it is larger than INT64_MAX. */
int pad_dim_size(int64_t n, int64_t lo, int64_t hi, int64_t interior, int64_t *out);
/* Number of window positions along one dimension of convolution,
   reduce_window and select_and_scatter: an input of n elements dilated by
   base_dil (base_dil - 1 holes between neighbours), padded by lo/hi (negative
   crops), and a window of `win` elements dilated by win_dil, moved by
   `stride`.  The dilated input with its positive padding, and the dilated
   window, must fit in int64_t, and so must the exact padded size: then every
   position inside the padded input is representable, and so is its
   distance to the unpadded start.  Returns 0 with the count in *out; 1 when
   a dilation or the stride is not positive or a size is negative; 2 when
   the padded input overflows; 3 when the dilated window overflows. */
int window_dim_size(int64_t n, int64_t lo, int64_t hi, int64_t base_dil, int64_t win, int64_t win_dil,
                    int64_t stride, int64_t *out);
bool type_is_tensor(const Type *t);
bool type_is_scalar(const Type *t);
/* Prints "tensor<2x3xf32>", "tuple<...>", "!stablehlo.token". */
void type_print_mlir(StrBuf *b, const Type *t);
/* Prints "f32[2,3]{1,0}", "(f32[], s32[2])", "token[]". */
void type_print_hlo(StrBuf *b, const Type *t, bool with_layout);
char *type_str(const Type *t); /* heap, MLIR form; for diagnostics */

#endif
