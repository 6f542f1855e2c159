/*
 * opdoc.c - the op coverage table behind docs/ops.md.
 *
 * One row per op (generated from ops.def, so an op without a row fails the
 * build), giving the element types the interpreter accepts for it.  Parsing
 * (both MLIR forms), verification and interpretation exist for every row by
 * construction: the parser, verifier and interpreter tables are generated
 * from the same list and a missing function fails the link.  The test
 * suite compares `xlac ops --markdown` with docs/ops.md so the document
 * cannot drift from the code.
 */
#include "ir/opdoc.h"

#define ANY "any"
#define NUM "int, float, complex"
#define NUMB "pred, int, float, complex"
#define FLT "float"
#define FC "float, complex"
#define INT "int"
#define LOGIC "pred, int"

/* Element types, by op.  Spelled with the classes: pred (i1), int (signed and
   unsigned, 2..64 bits), sint (signed only), float (f16, bf16, f32, f64 and
   the f8/f6/f4 family), complex (complex64/128), quant (!quant.uniform). */
#define TYPES_ABS "sint, float, complex"
#define TYPES_ADD NUMB
#define TYPES_AFTER_ALL "token"
#define TYPES_ALL_GATHER ANY
#define TYPES_ALL_REDUCE ANY
#define TYPES_ALL_TO_ALL ANY
#define TYPES_AND LOGIC
#define TYPES_ASYNC_START ANY
#define TYPES_ASYNC_DONE ANY
#define TYPES_ATAN2 FC
#define TYPES_BATCH_NORM_GRAD FLT
#define TYPES_BATCH_NORM_INFERENCE FLT
#define TYPES_BATCH_NORM_TRAINING FLT
#define TYPES_BITCAST_CONVERT ANY
#define TYPES_BROADCAST ANY
#define TYPES_BROADCAST_IN_DIM ANY
#define TYPES_CASE ANY
#define TYPES_CBRT FC
#define TYPES_CEIL FLT
#define TYPES_CHOLESKY FC
#define TYPES_CLAMP NUMB
#define TYPES_COLLECTIVE_BROADCAST ANY
#define TYPES_COLLECTIVE_PERMUTE ANY
#define TYPES_COLLECTIVE_REDUCE ANY
#define TYPES_COMPARE NUMB
#define TYPES_COMPLEX "f32, f64 -> complex"
#define TYPES_COMPOSITE ANY
#define TYPES_CONCATENATE ANY
#define TYPES_CONSTANT ANY
#define TYPES_CONVERT ANY
#define TYPES_CONVOLUTION NUM
#define TYPES_COSINE FC
#define TYPES_COUNT_LEADING_ZEROS INT
#define TYPES_CREATE_TOKEN "token"
#define TYPES_CROSS_REPLICA_SUM NUM
#define TYPES_CUSTOM_CALL ANY
#define TYPES_DIVIDE NUM
#define TYPES_DOT NUM
#define TYPES_DOT_GENERAL NUM
#define TYPES_DYNAMIC_BROADCAST_IN_DIM ANY
#define TYPES_DYNAMIC_CONV NUM
#define TYPES_DYNAMIC_GATHER ANY
#define TYPES_DYNAMIC_IOTA NUM
#define TYPES_DYNAMIC_PAD ANY
#define TYPES_DYNAMIC_RESHAPE ANY
#define TYPES_DYNAMIC_SLICE ANY
#define TYPES_DYNAMIC_UPDATE_SLICE ANY
#define TYPES_EINSUM NUM
#define TYPES_EXPONENTIAL FC
#define TYPES_EXPONENTIAL_MINUS_ONE FC
#define TYPES_FFT FC
#define TYPES_FLOOR FLT
#define TYPES_GATHER ANY
#define TYPES_GET_DIMENSION_SIZE ANY
#define TYPES_GET_TUPLE_ELEMENT ANY
#define TYPES_IF ANY
#define TYPES_IMAG FC
#define TYPES_INFEED ANY
#define TYPES_IOTA NUM
#define TYPES_IS_FINITE FLT
#define TYPES_LOG FC
#define TYPES_LOG_PLUS_ONE FC
#define TYPES_LOGISTIC FC
#define TYPES_MAP ANY
#define TYPES_MAXIMUM NUMB
#define TYPES_MINIMUM NUMB
#define TYPES_MULTIPLY NUMB
#define TYPES_NEGATE NUM
#define TYPES_NOT LOGIC
#define TYPES_OPTIMIZATION_BARRIER ANY
#define TYPES_OR LOGIC
#define TYPES_OUTFEED ANY
#define TYPES_PAD ANY
#define TYPES_PARTITION_ID "ui32"
#define TYPES_POPCNT INT
#define TYPES_POWER NUM
#define TYPES_REAL FC
#define TYPES_REAL_DYNAMIC_SLICE ANY
#define TYPES_RECV ANY
#define TYPES_REDUCE ANY
#define TYPES_REDUCE_PRECISION FLT
#define TYPES_REDUCE_SCATTER ANY
#define TYPES_REDUCE_WINDOW ANY
#define TYPES_REMAINDER "int, float"
#define TYPES_REPLICA_ID "ui32"
#define TYPES_RESHAPE ANY
#define TYPES_RETURN ANY
#define TYPES_REVERSE ANY
#define TYPES_RNG "pred, int, float"
#define TYPES_RNG_BIT_GENERATOR "int, float"
#define TYPES_ROUND_NEAREST_AFZ FLT
#define TYPES_ROUND_NEAREST_EVEN FLT
#define TYPES_RSQRT FC
#define TYPES_SCATTER ANY
#define TYPES_SELECT ANY
#define TYPES_SELECT_AND_SCATTER ANY
#define TYPES_SEND ANY
#define TYPES_SET_DIMENSION_SIZE ANY
#define TYPES_SHIFT_LEFT INT
#define TYPES_SHIFT_RIGHT_ARITHMETIC INT
#define TYPES_SHIFT_RIGHT_LOGICAL INT
#define TYPES_SIGN "sint, float, complex"
#define TYPES_SINE FC
#define TYPES_SLICE ANY
#define TYPES_SORT ANY
#define TYPES_SQRT FC
#define TYPES_SUBTRACT NUM
#define TYPES_TAN FC
#define TYPES_TANH FC
#define TYPES_TORCH_INDEX_SELECT ANY
#define TYPES_TRANSPOSE ANY
#define TYPES_TRIANGULAR_SOLVE FC
#define TYPES_TUPLE ANY
#define TYPES_UNARY_EINSUM NUM
#define TYPES_UNIFORM_DEQUANTIZE "quant -> float"
#define TYPES_UNIFORM_QUANTIZE "float, quant -> quant"
#define TYPES_WHILE ANY
#define TYPES_XOR LOGIC
#define TYPES_CALL ANY
#define TYPES_FUNC_RETURN ANY
#define TYPES_CHLO_ACOS FC
#define TYPES_CHLO_ACOSH FC
#define TYPES_CHLO_ASIN FC
#define TYPES_CHLO_ASINH FC
#define TYPES_CHLO_ATAN FC
#define TYPES_CHLO_ATANH FC
#define TYPES_CHLO_BESSEL_I1E FLT
#define TYPES_CHLO_CONJ FC
#define TYPES_CHLO_COSH FC
#define TYPES_CHLO_DIGAMMA FLT
#define TYPES_CHLO_ERF FLT
#define TYPES_CHLO_ERF_INV FLT
#define TYPES_CHLO_ERFC FLT
#define TYPES_CHLO_IS_INF FLT
#define TYPES_CHLO_IS_NEG_INF FLT
#define TYPES_CHLO_IS_POS_INF FLT
#define TYPES_CHLO_LGAMMA FLT
#define TYPES_CHLO_SINH FC
#define TYPES_CHLO_SQUARE NUM
#define TYPES_CHLO_TAN FC
#define TYPES_CHLO_IGAMMA FLT
#define TYPES_CHLO_IGAMMAC FLT
#define TYPES_CHLO_NEXT_AFTER FLT
#define TYPES_CHLO_POLYGAMMA FLT
#define TYPES_CHLO_ZETA FLT
#define TYPES_CHLO_MULHI INT
#define TYPES_CHLO_TOP_K "int, float"
#define TYPES_CHLO_RAGGED_DOT NUM
#define TYPES_CHLO_SCAN ANY
#define TYPES_CHLO_CONSTANT_LIKE ANY
#define TYPES_CHLO_CONSTANT ANY
#define TYPES_CHLO_BROADCAST_ADD NUMB
#define TYPES_CHLO_BROADCAST_SUBTRACT NUM
#define TYPES_CHLO_BROADCAST_MULTIPLY NUMB
#define TYPES_CHLO_BROADCAST_DIVIDE NUM
#define TYPES_CHLO_BROADCAST_MAXIMUM NUMB
#define TYPES_CHLO_BROADCAST_MINIMUM NUMB
#define TYPES_CHLO_BROADCAST_POWER NUM
#define TYPES_CHLO_BROADCAST_REMAINDER "int, float"
#define TYPES_CHLO_BROADCAST_AND LOGIC
#define TYPES_CHLO_BROADCAST_OR LOGIC
#define TYPES_CHLO_BROADCAST_XOR LOGIC
#define TYPES_CHLO_BROADCAST_ATAN2 FC
#define TYPES_CHLO_BROADCAST_COMPARE NUMB
#define TYPES_CHLO_BROADCAST_SELECT ANY
#define TYPES_CHECK_EXPECT_EQ ANY
#define TYPES_CHECK_EXPECT_EQ_CONST ANY
#define TYPES_CHECK_EXPECT_ALMOST_EQ FC
#define TYPES_CHECK_EXPECT_ALMOST_EQ_CONST FC
#define TYPES_CHECK_EXPECT_CLOSE FC
#define TYPES_CHECK_EXPECT_SERIALIZED_EQ ANY
#define TYPES_INTERP_RUN_PARALLEL ANY
#define TYPES_INTERP_PROBE ANY
#define TYPES_INTERP_PRINT ANY
#define TYPES_COPY ANY

static const char *const op_types[OP_COUNT] = {
#define OP(id, name, hlo, flags) [OP_##id] = TYPES_##id,
#include "ir/ops.def"
#undef OP
};

const char *op_elem_types(OpKind k) { return op_types[k]; }

void print_op_coverage_markdown(StrBuf *b) {
  int nspec = 0;
  for (int k = 0; k < OP_COUNT; k++)
    if (op_has_flag((OpKind)k, OPF_SPEC)) nspec++;
  sb_puts(b, "# Op coverage\n\n"
             "Generated by `xlac ops` from the op table (src/ir/ops.def); the test\n"
             "suite fails if this file and the code disagree.\n\n");
  sb_printf(b, "%d ops in the table, %d of them in the StableHLO specification.\n\n", OP_COUNT,
            nspec);
  sb_puts(b, "Every op is parsed (generic and pretty MLIR forms; HLO text where it has an HLO\n"
             "opcode), verified and interpreted: the verifier and interpreter tables are\n"
             "generated from the op table, so a missing entry fails the build.\n\n"
             "Element type classes: pred (i1), int (signed and unsigned, 2 to 64 bits), sint\n"
             "(signed only), float (f16, bf16, f32, f64 and the f8/f6/f4 family), complex\n"
             "(complex64, complex128), quant (`!quant.uniform`), any (all of these, and for\n"
             "control-flow ops also tuples and tokens).\n\n");
  sb_puts(b, "| op | HLO opcode | kind | parse | verify | interpret | element types |\n"
             "|---|---|---|---|---|---|---|\n");
  for (int k = 0; k < OP_COUNT; k++) {
    const OpInfo *oi = &op_info[k];
    const char *kind = op_has_flag((OpKind)k, OPF_SPEC)         ? "spec"
                       : op_has_flag((OpKind)k, OPF_DEPRECATED) ? "deprecated"
                                                                 : "extension";
    sb_printf(b, "| `%s` | %s%s%s | %s | yes | yes | yes | %s |\n", oi->name,
              oi->hlo_name ? "`" : "", oi->hlo_name ? oi->hlo_name : "-", oi->hlo_name ? "`" : "",
              kind, op_types[k]);
  }
}
