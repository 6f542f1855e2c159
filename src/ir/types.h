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
int64_t type_num_elements(const Type *t);         /* tensor only */
bool type_is_tensor(const Type *t);
bool type_is_scalar(const Type *t);
/* Prints "tensor<2x3xf32>", "tuple<...>", "!stablehlo.token". */
void type_print_mlir(StrBuf *b, const Type *t);
/* Prints "f32[2,3]{1,0}", "(f32[], s32[2])", "token[]". */
void type_print_hlo(StrBuf *b, const Type *t, bool with_layout);
char *type_str(const Type *t); /* heap, MLIR form; for diagnostics */

#endif
