/*
 * literal.h - dense tensor data.
 *
 * A Literal is a tensor type plus a row-major buffer of elements stored as
 * described in elemtypes.def.  It is the unit of data for constants, for the
 * interpreter's values and for .npy input/output.  Accessors convert elements
 * to and from the widest host types (double / int64 / uint64 / complex pair)
 * so that generic code can work on any element type; setters round (floats,
 * round-to-nearest-even, with the format's overflow/NaN rules) or wrap
 * (integers) to the element type.
 */
#ifndef XLAC_LITERAL_H
#define XLAC_LITERAL_H

#include "ir/types.h"

typedef struct Literal {
  Type *type;     /* TY_TENSOR; owned by whoever owns the literal */
  int64_t n;      /* number of elements */
  void *data;     /* n * et_bytes(elem) bytes */
  bool borrowed;  /* data belongs to someone else (a zero-copy buffer): lit_free leaves it */
} Literal;

/* Heap literals (interpreter, I/O).  lit_new zero-fills. */
Literal *lit_new(const Type *t);          /* deep-copies t into the literal's own storage */
Literal *lit_clone(const Literal *l);
/* A literal over someone else's memory (type t, row-major elements at
   data), which lit_free leaves alone. */
Literal *lit_new_borrowed(const Type *t, void *data);
void lit_free(Literal *l);
/* Arena literal (constants in the IR); type is referenced, data is owned by arena. */
Literal *lit_new_in(Arena *a, Type *t);

static inline ElemType lit_elem(const Literal *l) { return l->type->elem; }
static inline void *lit_ptr(const Literal *l, int64_t i) {
  return (char *)l->data + i * et_bytes(l->type->elem);
}

/* Element access.  get_f on an integer/pred converts; get_i on a float truncates
   toward zero (C semantics, saturating is the caller's business). */
double lit_get_f(const Literal *l, int64_t i);
int64_t lit_get_i(const Literal *l, int64_t i);   /* sign-/zero-extended */
uint64_t lit_get_u(const Literal *l, int64_t i);
void lit_get_c(const Literal *l, int64_t i, double *re, double *im);
bool lit_get_b(const Literal *l, int64_t i);      /* != 0 */
void lit_set_f(Literal *l, int64_t i, double v);  /* rounds to the element type */
void lit_set_i(Literal *l, int64_t i, int64_t v); /* wraps to the element width */
void lit_set_u(Literal *l, int64_t i, uint64_t v);
void lit_set_c(Literal *l, int64_t i, double re, double im);
void lit_set_b(Literal *l, int64_t i, bool v);
/* Raw bit pattern of element i (zero-extended), and the inverse. */
uint64_t lit_get_bits(const Literal *l, int64_t i);
void lit_set_bits(Literal *l, int64_t i, uint64_t bits);
/* Copy element j of src into element i of dst (same element type). */
void lit_copy_elem(Literal *dst, int64_t i, const Literal *src, int64_t j);

/* Copies element j of src into element i of dst, converting the value
   (through the widest host type of its class) when the element types
   differ. */
void lit_convert_elem(Literal *dst, int64_t i, const Literal *src, int64_t j);

/* Bitwise equality of the whole buffer (types must match). */
bool lit_equal(const Literal *a, const Literal *b);
/* Whether l has elements and they all have the same bits. */
bool lit_is_splat(const Literal *l);
/* Copies element 0 into every other element. */
void lit_fill_first(Literal *l);

/* Float format conversions for the narrow types (raw bits <-> double).
   Rounding is to nearest even; overflow goes to inf where the format has it,
   otherwise to NaN; formats without NaN (f8E8M0FNU excepted) saturate per spec. */
double et_bits_to_double(ElemType et, uint64_t bits);
uint64_t et_double_to_bits(ElemType et, double v);
/* Largest finite value of a float type. */
double et_max_finite(ElemType et);

/* Row-major strides in elements. */
void shape_strides(int rank, const int64_t *dims, int64_t *strides);
/* Advance a multi-index; returns false when it wraps to all zeros. */
bool index_next(int rank, const int64_t *dims, int64_t *idx);

/* Formats element i for humans (shortest round-trip for floats, "true"/"false"
   for pred when pretty, "(re, im)" for complex). */
void lit_format_elem(StrBuf *b, const Literal *l, int64_t i);
/* Makes the shortest decimal text of a float in buf read as a float: 1 ->
   1.0, and for MLIR, which wants a '.' in every float literal, 1e-05 ->
   1.0e-05 (buf has room for 2 more characters). */
void lit_float_dot(char *buf, bool mlir);
/* Prints the literal MLIR-style: dense<[[1, 2], [3, 4]]> body without the type. */
void lit_print_mlir_body(StrBuf *b, const Literal *l);
/* Prints HLO style: {{1, 2}, {3, 4}}. */
void lit_print_hlo_body(StrBuf *b, const Literal *l);

#endif
