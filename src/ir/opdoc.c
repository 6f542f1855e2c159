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
#define TYPES_SDY_SHARDING_CONSTRAINT ANY
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

/* Ops the CPU code generator compiles (directly, or after a pass rewrites
   them into ops it compiles).  Keep in step with src/codegen (emit_scalar.c,
   elemental.c, kernel_*.c, cpu.c's control flow) and the chlo/expand passes. */
static bool cpu_native(OpKind k) {
  switch (k) {
  /* elementwise (emit_scalar.c) */
  case OP_ADD: case OP_SUBTRACT: case OP_MULTIPLY: case OP_DIVIDE: case OP_REMAINDER:
  case OP_MAXIMUM: case OP_MINIMUM: case OP_NEGATE: case OP_ABS: case OP_SIGN: case OP_AND:
  case OP_OR: case OP_XOR: case OP_NOT: case OP_COMPARE: case OP_SELECT: case OP_CLAMP:
  case OP_CONVERT: case OP_COPY: case OP_SHIFT_LEFT: case OP_SHIFT_RIGHT_ARITHMETIC:
  case OP_SHIFT_RIGHT_LOGICAL: case OP_POPCNT: case OP_COUNT_LEADING_ZEROS: case OP_EXPONENTIAL:
  case OP_EXPONENTIAL_MINUS_ONE: case OP_LOG: case OP_LOG_PLUS_ONE: case OP_LOGISTIC: case OP_SQRT:
  case OP_RSQRT: case OP_CBRT: case OP_SINE: case OP_COSINE: case OP_TAN: case OP_TANH:
  case OP_FLOOR: case OP_CEIL: case OP_ROUND_NEAREST_AFZ: case OP_ROUND_NEAREST_EVEN:
  case OP_IS_FINITE: case OP_ATAN2: case OP_POWER:
  /* index mapping and data movement (elemental.c) */
  case OP_BROADCAST_IN_DIM: case OP_RESHAPE: case OP_TRANSPOSE: case OP_SLICE: case OP_IOTA:
  case OP_REVERSE: case OP_PAD: case OP_CONCATENATE: case OP_CONSTANT: case OP_DYNAMIC_SLICE:
  case OP_DYNAMIC_UPDATE_SLICE: case OP_GATHER:
  /* kernels */
  case OP_REDUCE: case OP_DOT: case OP_DOT_GENERAL: case OP_CONVOLUTION: case OP_SCATTER: case OP_SORT:
  case OP_REDUCE_WINDOW: case OP_SELECT_AND_SCATTER:
  /* control flow (cpu.c), calls (inlined) */
  case OP_WHILE: case OP_IF: case OP_CASE: case OP_CALL: case OP_RETURN: case OP_FUNC_RETURN:
  case OP_TUPLE: case OP_GET_TUPLE_ELEMENT:
  /* rewritten by passes into the above */
  case OP_BATCH_NORM_GRAD: case OP_BATCH_NORM_INFERENCE: case OP_BATCH_NORM_TRAINING:
  case OP_CHLO_ACOS: case OP_CHLO_ACOSH: case OP_CHLO_ASIN: case OP_CHLO_ASINH: case OP_CHLO_ATAN:
  case OP_CHLO_ATANH: case OP_CHLO_CONJ: case OP_CHLO_COSH: case OP_CHLO_SINH: case OP_CHLO_SQUARE:
  case OP_CHLO_TAN: case OP_CHLO_ERF_INV: case OP_CHLO_IS_INF:
  case OP_CHLO_IS_NEG_INF: case OP_CHLO_IS_POS_INF: case OP_CHLO_NEXT_AFTER: case OP_CHLO_TOP_K:
  case OP_CHLO_CONSTANT: case OP_CHLO_CONSTANT_LIKE: case OP_CHLO_BROADCAST_ADD:
  case OP_CHLO_BROADCAST_SUBTRACT: case OP_CHLO_BROADCAST_MULTIPLY: case OP_CHLO_BROADCAST_DIVIDE:
  case OP_CHLO_BROADCAST_MAXIMUM: case OP_CHLO_BROADCAST_MINIMUM: case OP_CHLO_BROADCAST_POWER:
  case OP_CHLO_BROADCAST_REMAINDER: case OP_CHLO_BROADCAST_AND: case OP_CHLO_BROADCAST_OR:
  case OP_CHLO_BROADCAST_XOR: case OP_CHLO_BROADCAST_ATAN2: case OP_CHLO_BROADCAST_COMPARE:
  case OP_CHLO_BROADCAST_SELECT:
  /* runtime-library calls (kernel_linalg.c, kernel_random.c) */
  case OP_CHOLESKY: case OP_TRIANGULAR_SOLVE: case OP_FFT: case OP_RNG: case OP_RNG_BIT_GENERATOR:
  case OP_CHLO_RAGGED_DOT:
  case OP_REPLICA_ID: case OP_PARTITION_ID:
  /* collectives and send/recv: runtime calls (kernel_collective.c) */
  case OP_ALL_REDUCE: case OP_REDUCE_SCATTER: case OP_CROSS_REPLICA_SUM: case OP_COLLECTIVE_REDUCE:
  case OP_ALL_GATHER: case OP_ALL_TO_ALL: case OP_COLLECTIVE_BROADCAST: case OP_COLLECTIVE_PERMUTE:
  case OP_SEND: case OP_RECV:
  /* tokens carry no data */
  case OP_CREATE_TOKEN: case OP_AFTER_ALL:
  /* rewritten by legalize.c into static ops */
  case OP_BROADCAST: case OP_DYNAMIC_BROADCAST_IN_DIM: case OP_DYNAMIC_RESHAPE: case OP_DYNAMIC_IOTA:
  case OP_DYNAMIC_PAD: case OP_REAL_DYNAMIC_SLICE: case OP_DYNAMIC_GATHER: case OP_DYNAMIC_CONV:
  case OP_TORCH_INDEX_SELECT: case OP_GET_DIMENSION_SIZE: case OP_SET_DIMENSION_SIZE: case OP_MAP:
  case OP_EINSUM: case OP_UNARY_EINSUM: case OP_COMPOSITE: case OP_OPTIMIZATION_BARRIER:
  case OP_CHLO_SCAN:
  /* complex element types (emit_complex.c) and quantization (quant.c) */
  case OP_COMPLEX: case OP_REAL: case OP_IMAG: case OP_UNIFORM_QUANTIZE: case OP_UNIFORM_DEQUANTIZE:
  /* elementwise: special functions (inline, or a runtime call per element),
     bit-level ops */
  case OP_CHLO_ERF: case OP_CHLO_ERFC: case OP_CHLO_LGAMMA: case OP_CHLO_DIGAMMA: case OP_CHLO_IGAMMA:
  case OP_CHLO_IGAMMAC: case OP_CHLO_POLYGAMMA: case OP_CHLO_ZETA: case OP_CHLO_BESSEL_I1E:
  case OP_CHLO_MULHI: case OP_REDUCE_PRECISION: case OP_BITCAST_CONVERT:
  /* host functions, annotations (kernel_custom.c); see "Custom-call targets" */
  case OP_CUSTOM_CALL:
    return true;
  default:
    return false;
  }
}

/* The custom_call targets xlac knows (interp/hostcall.c decides; keep this
   in step with its tables). */
static void print_custom_call_targets(StrBuf *b) {
  sb_puts(b,
          "\n## Custom-call targets\n\n"
          "`stablehlo.custom_call @target` (HLO: `custom-call` with `custom_call_target`)\n"
          "means the same in both backends:\n\n"
          "| target | what xlac does |\n"
          "|---|---|\n"
          "| a name registered with `xlac_custom_call_register` or `xlac_custom_call_register_classic` "
          "(include/xlac/xlac.h) | calls the host function; compiled code calls it directly (native) |\n"
          "| `check.eq`, `check.expect_eq`, `check.expect_almost_eq`, `check.expect_close` | the assertions of "
          "StableHLO's tests (thunk) |\n"
          "| `TopK` | XLA's top-k (in XLA's optimized HLO), with the comparator in `called_computations` or "
          "descending, NaN first: a stable sort of the values and their indices by that order, then the first k "
          "(native: a selection per row when the comparator is greater-than in the total order; thunk when the "
          "comparator's types do not fit the operand) |\n"
          "| `Sharding`, `SPMDFullToShardShape`, `SPMDShardToFullShape`, `xla.sdy.GlobalToLocalShape`, "
          "`xla.sdy.LocalToGlobalShape`, `xla.sdy.FuncResultSharding` | sharding annotations: the results are "
          "the operands (removed before code generation); a shard shape other than the full shape needs XLA's "
          "SPMD partitioner and is an error |\n"
          "| `annotate_device_placement`, `MoveToHost`, `MoveToDevice`, `LayoutConstraint` | memory-space and "
          "layout annotations: the results are the operands |\n"
          "| `shape_assertion` | JAX's shape-polymorphism check: unless every element of the predicate is true, "
          "fails with `error_message`, `{i}` replaced by operand i+1 (thunk) |\n"
          "| `AllocateBuffer` | `jax.lax.empty`: a zero-filled result |\n"
          "| `InspectSharding` | `jax.debug.inspect_array_sharding`: nothing, or its operand back (JAX's form "
          "for several devices); the partitioner records the layout it reports (docs/spmd.md) |\n"
          "| `dce_sink` | `jax.lax`'s sink that keeps values from being removed as dead: nothing |\n"
          "| `Qr` | Householder QR as LAPACK's `geqrf` (R on and above the diagonal, the reflectors below, their "
          "taus), real or complex, batched, computed in double precision (thunk): what JAX's QR lowers to "
          "without LAPACK |\n"
          "| `ProductOfElementaryHouseholderReflectors` | Q from those reflectors, as LAPACK's `orgqr`/`ungqr` "
          "(thunk) |\n"
          "| `Eigh` | eigendecomposition of the Hermitian matrix the chosen triangle describes (`backend_config` "
          "\"lower,sort,...\"), by cyclic Jacobi rotations in double precision: eigenvectors as columns, real "
          "eigenvalues, ascending when sorted (thunk); what JAX's eigh written in JAX (QDWH) uses for small "
          "blocks |\n"
          "| `lapack_{s,d,c,z}geev_ffi` | non-symmetric eigenvalues (`wr`, `wi` for real types) and left and "
          "right eigenvectors (`compute_left` / `compute_right`), as the columns of complex matrices, each of unit "
          "norm with its largest component real, in double precision: Hessenberg reduction, Francis double-shift QR (real) or "
          "single-shift QR (complex) and back-substitution (thunk; `jnp.linalg.eig`) |\n"
          "| `lapack_{s,d,c,z}gees_ffi` | the Schur form and Schur vectors (`mode`), real with standardized 2x2 "
          "blocks for real types, the eigenvalues, `sdim` 0; no sorting (thunk; `jax.scipy.linalg.schur`) |\n"
          "| `lapack_{s,d,c,z}gehrd_ffi` | Householder reduction to Hessenberg form, the reflectors below the "
          "subdiagonal, their taus (thunk; `jax.scipy.linalg.hessenberg`) |\n"
          "| `lapack_{s,d,c,z}geqp3_ffi` | Householder QR with column pivoting (largest remaining norm; columns "
          "marked in `jpvt` first), 1-based pivots (thunk; `jax.scipy.linalg.qr(pivoting=True)`) |\n"
          "| `lapack_{s,d}sytrd_ffi`, `lapack_{c,z}hetrd_ffi` | Householder tridiagonalization of the triangle "
          "`uplo` names: the diagonal, off-diagonal (real), reflectors and taus (thunk; "
          "`jax.lax.linalg.tridiagonal`) |\n"
          "| `lapack_{s,d,c,z}gtsv_ffi`, `tridiagonal_solve_perturbed_ffi` | tridiagonal solves by Gaussian "
          "elimination with partial pivoting; a zero pivot gives `info` (NaN results), or with the perturbed "
          "target is replaced by eps times the largest entry of U (thunk; `jax.lax.linalg.tridiagonal_solve`) |\n"
          "| `lapack_{s,d,c,z}gesdd_ffi`, `lapack_{s,d,c,z}gesvd_ffi` | the SVD (`mode` 'A', 'S' or 'N') by "
          "Householder QR and one-sided Jacobi rotations; NaN or infinity gives `info` (thunk; `jnp.linalg.svd`) "
          "|\n"
          "| `lapack_{s,d,c,z}getrf_ffi` | LU with partial pivoting (the first entry of largest magnitude in the "
          "column), 1-based pivots, `info` the first zero on U's diagonal (thunk; `jax.lax.linalg.lu`, "
          "`jnp.linalg.solve`, `inv`, `det`, `slogdet`) |\n"
          "| the other `lapack_*` (`geqrf`, `orgqr`/`ungqr`, `potrf`, `syevd`/`heevd`, `trsm`, and the "
          "targets without `_ffi`), `blas_*trsm` | rejected: LAPACK calls (JAX lowers these for xlac without "
          "LAPACK) |\n"
          "| `ducc_fft`, `dynamic_ducc_fft` | rejected: the CPU FFT of older JAX releases (newer ones emit "
          "`stablehlo.fft`) |\n"
          "| `xla_python_cpu_callback`, `xla_ffi_python_cpu_callback`, "
          "`xla_ffi_partitioned_python_cpu_callback` and the GPU ones | rejected: callbacks into the Python "
          "process (`jax.pure_callback`, `jax.debug.print`, `io_callback`) |\n"
          "| `ApproxTopK` | an exact top-k (`jax.lax.approx_max_k` / `approx_min_k`; meets any recall target): "
          "a stable sort along `reduction_dim` with its comparator, the first `top_k` kept (more when "
          "`aggregate_to_topk` is false and the results ask for them); `passes/approx_top_k.c` |\n"
          "| `PartialReduce`, `stablehlo.dynamic_approx_top_k` | rejected: approximate top-k with a dynamic `k` or "
          "in TPU form (`ApproxTopK` and `jax.lax.top_k` are implemented) |\n"
          "| `stablehlo.dynamic_*` | rejected: StableHLO's experimental dynamic-shape ops |\n"
          "| `mhlo.*` | rejected: MHLO ops carried as custom calls |\n"
          "| `tf.call_tf_function` | rejected: calls into TensorFlow (`jax2tf.call_tf`) |\n"
          "| `cu_*`, `cusolver_*`, `cublas*`, `cusparse*`, `hip*`, `__gpu$*`, `__cudnn$*`, `mosaic_gpu*`, "
          "`triton_kernel_call`, `tpu_custom_call`, `LuDecomposition` | rejected: GPU and TPU kernels |\n"
          "| anything else | rejected |\n\n"
          "A rejected target fails compilation with an error at the op that says what the\n"
          "target is and lists the registered host functions; the interpreter reports the\n"
          "same error when the op runs.  Registering a host function under a rejected\n"
          "name provides it; the names in the other rows cannot be registered.\n\n"
          "A host function sees the op's operands and results flattened (the leaves of a\n"
          "tuple in order; a token is a buffer without data), row-major with one element\n"
          "per byte for the 2- and 4-bit types (xlac.h's unpacked host layout).  A\n"
          "function that asks for another layout (`operand_layouts` / `result_layouts`,\n"
          "or the layout of an HLO shape) gets transposed copies.  It receives the\n"
          "`backend_config` as its bytes (a dictionary as MLIR text) and the other\n"
          "attributes as one MLIR dictionary.\n");
}

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
             "HLO text as XLA writes it after its optimizations runs as well: a `fusion`\n"
             "of any kind (kLoop, kInput, kOutput, and kCustom for XLA:CPU's library\n"
             "fusions) is a call of its fused computation, which the cpu backend inlines\n"
             "and fuses again by its own rules; a `bitcast` is a reshape, between\n"
             "transposes where the operand's or the result's layout is not row-major.\n\n"
             "Element type classes: pred (i1), int (signed and unsigned, 2 to 64 bits), sint\n"
             "(signed only), float (f16, bf16, f32, f64 and the f8/f6/f4 family), complex\n"
             "(complex64, complex128), quant (`!quant.uniform`), any (all of these, and for\n"
             "control-flow ops also tuples and tokens).\n\n");
  sb_puts(b, "The cpu column says how `--backend=cpu` runs an op: `native` when the code\n"
             "generator compiles it (directly, as a call into the runtime library, or after a\n"
             "pass rewrites it into ops it compiles); `thunk` when compiled code calls the\n"
             "reference interpreter for it.  `xlac run --verbose` counts both.  Native code\n"
             "covers every element type with these exceptions, which take the thunk:\n\n"
             "- complex: reduce, reduce_window, select_and_scatter, dot_general,\n"
             "  convolution and atan2;\n"
             "- the f8/f6/f4 family: reductions, and compare with TOTALORDER;\n"
             "- convolution: integer and mixed element types (f16 and bf16 are computed\n"
             "  in f32);\n"
             "- chlo.ragged_dot: complex, f8/f6/f4 and mixed float/integer types;\n"
             "- quantized types: ops with regions (reduce, sort, ...); every other op is\n"
             "  rewritten to integer and float ops (the quant-lower pass);\n"
             "- bitcast_convert between element types of different widths (the shape\n"
             "  changes), and of pred, complex and f8/f6/f4 values;\n"
             "- ops rewritten into static ones need what makes the rewrite possible:\n"
             "  dynamic_pad, real_dynamic_slice and dynamic_conv constant amounts, map an\n"
             "  elementwise body, chlo.scan (a while loop) body and carries of the types\n"
             "  the loop slices;\n"
             "- custom_call: the targets the interpreter implements (check.*,\n"
             "  shape_assertion; see \"Custom-call targets\" below);\n"
             "- collectives: quantized types, reductions whose region is not elementwise\n"
             "  on scalars, and operands converted to the reduction type other than by\n"
             "  widening integers or real floats.\n\n"
             "In a compiled program run as several replicas (or partitions), the\n"
             "collectives and send/recv are calls into the runtime library that meet the\n"
             "other processes' threads and read their buffers directly; reductions fold the\n"
             "group's members in the interpreter's order, so results are the same bits.\n"
             "Infeed and outfeed stay thunks, which meet through the interpreter's process\n"
             "grid.\n\n");
  sb_puts(b, "| op | HLO opcode | kind | parse | verify | interpret | cpu | element types |\n"
             "|---|---|---|---|---|---|---|---|\n");
  for (int k = 0; k < OP_COUNT; k++) {
    const OpInfo *oi = &op_info[k];
    const char *kind = op_has_flag((OpKind)k, OPF_SPEC)         ? "spec"
                       : op_has_flag((OpKind)k, OPF_DEPRECATED) ? "deprecated"
                                                                 : "extension";
    sb_printf(b, "| `%s` | %s%s%s | %s | yes | yes | yes | %s | %s |\n", oi->name,
              oi->hlo_name ? "`" : "", oi->hlo_name ? oi->hlo_name : "-", oi->hlo_name ? "`" : "",
              kind, cpu_native((OpKind)k) ? "native" : "thunk", op_types[k]);
  }
  print_custom_call_targets(b);
}
