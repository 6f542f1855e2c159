/*
 * builder.h - building programs from C, op by op, instead of writing text
 * (the role of XLA's XlaBuilder).
 *
 *   xlac_builder *b;  xlac_func *f;  xlac_value *a, *x, *y, *a4, *ax, *r;
 *   xlac_program *p;
 *   int64_t n = 4;
 *   xlac_builder_create("axpy", &b);
 *   xlac_func_create(b, "main", &f);
 *   xlac_func_param(f, XLAC_F32, NULL, 0, "a", &a);
 *   xlac_func_param(f, XLAC_F32, &n, 1, "x", &x);
 *   xlac_func_param(f, XLAC_F32, &n, 1, "y", &y);
 *   xlac_op_broadcast_in_dim(f, a, &n, 1, NULL, &a4);   (scalar to [4])
 *   xlac_op_mul(f, a4, x, &ax);
 *   xlac_op_add(f, ax, y, &r);
 *   xlac_func_return(f, &r, 1);
 *   xlac_builder_build(b, "main", &p);     (then xlac_compile(c, p, ...))
 *   xlac_builder_destroy(b);
 *
 * Conventions: those of xlac.h (statuses, out_ parameters written only on
 * success, no abort/exit/print).  Every op is checked as it is added, by
 * the same verifier that checks parsed programs, and its result types are
 * inferred where its operands and attributes determine them; an error
 * names the op and what is wrong with which operand, e.g.
 *   "stablehlo.add: operand 1 has type tensor<3xf32>, expected
 *    tensor<4xf32> like operand 0".
 * A failed call adds nothing: the builder stays usable -- except after
 * XLAC_OUT_OF_MEMORY, when it may hold half an op and only
 * xlac_builder_destroy still works.
 *
 * Ownership: the builder owns every function (xlac_func) and value
 * (xlac_value) made with it; they stay valid until xlac_builder_destroy
 * and are never freed separately.  A value may only be used in the
 * function it belongs to.  xlac_builder_build gives the caller a new
 * program (xlac_program_destroy) that does not depend on the builder: the
 * builder may go on (add functions, build again) or be destroyed.
 *
 * Sub-computations (the bodies of reduce, sort, while, if, case, scatter,
 * all_reduce, map, ...) are functions built like any other, usually with
 * xlac_computation_create, and passed to the op, which copies the body into
 * its region: a computation's parameters become the region's arguments
 * (for if and case, whose regions take none, they are bound to the
 * operands given to xlac_op_if / xlac_op_case).  A computation must be
 * finished (xlac_func_return) before it is used, and may be used any
 * number of times.
 *
 * Thread safety: a builder and its handles may be used by one thread at a
 * time; different builders may be used concurrently.
 */
#ifndef XLAC_BUILDER_H
#define XLAC_BUILDER_H

#include "xlac/xlac.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct xlac_builder xlac_builder;
typedef struct xlac_func xlac_func;
typedef struct xlac_value xlac_value;

/* ---- builders, functions, parameters ---- */

/* name: the module's name (letters, digits, '_', '.', '-'; NULL: none). */
xlac_status *xlac_builder_create(const char *name, xlac_builder **out_builder);
void xlac_builder_destroy(xlac_builder *b); /* accepts NULL */

/* A new function of the module.  Function names are unique within a
   builder: a letter or '_' first, then letters, digits, '_', '.', '-'. */
xlac_status *xlac_func_create(xlac_builder *b, const char *name, xlac_func **out_func);
/* A computation: a function used only as the body of ops (a reducer, a
   comparator, a loop body, a branch).  Built the same way; not part of the
   built program on its own. */
xlac_status *xlac_computation_create(xlac_builder *b, const char *name, xlac_func **out_func);

/* Appends a parameter of `type` with dims[0..rank-1] (dims may be NULL for
   rank 0; XLAC_TOKEN gives a token).  name is informational (HLO text
   names the parameter after it; may be NULL). */
xlac_status *xlac_func_param(xlac_func *f, xlac_type type, const int64_t *dims, int rank, const char *name,
                             xlac_value **out_value);
/* The same with the type as MLIR text, for types the C form cannot say:
   "tuple<tensor<2xf32>, !stablehlo.token>", "tensor<4x!quant.uniform<i8:f32, 0.5>>". */
xlac_status *xlac_func_param_text(xlac_func *f, const char *type, const char *name, xlac_value **out_value);
/* Ends the function: it returns values[0..n-1] (its result types are
   theirs).  No op or parameter can be added afterwards. */
xlac_status *xlac_func_return(xlac_func *f, xlac_value *const *values, int n);

/* The module: every function (not the computations), verified again as a
   whole (every function returned, no recursion).  entry names the
   function that compiling runs by default; the others become private.
   (Name the entry "main" to keep the usual StableHLO convention; another
   function may not be called "main".) */
xlac_status *xlac_builder_build(xlac_builder *b, const char *entry, xlac_program **out_program);

/* ---- values ---- */

/* Type and dims of a tensor or token value (dims owned by the builder).
   A tuple value has no xlac_shape: XLAC_INVALID_ARGUMENT. */
xlac_status *xlac_value_shape(const xlac_value *v, xlac_shape *out_shape);
/* The value's type as MLIR text, e.g. "tensor<2x3xf32>" (xlac_free). */
xlac_status *xlac_value_type_text(const xlac_value *v, char **out_text);

/* ---- the generic op: every op of the op table ----
 * name: the op's name, "stablehlo.add", "chlo.erf", "func.call", or its
 * HLO opcode ("add", "dot", "custom-call").  attributes: an MLIR attribute
 * dictionary in the generic form's spelling (NULL or "" for none), e.g.
 *   "{dimension = 1 : i64}"
 *   "{comparison_direction = #stablehlo<comparison_direction LT>}"
 *   "{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1],
 *                                            rhs_contracting_dimensions = [0]>}"
 * result_types: comma-separated MLIR types ("tensor<4xf32>, tensor<4xi32>"),
 * or NULL to infer them (an error names the ops that cannot be inferred).
 * computations: the bodies of the op's regions, in order.  The results go
 * to outs[0..max_outs-1]; *out_num (may be NULL) receives their count, and
 * an op with more results than max_outs is an error. */
xlac_status *xlac_op(xlac_func *f, const char *name, xlac_value *const *operands, int num_operands,
                     const char *attributes, const char *result_types, xlac_func *const *computations,
                     int num_computations, xlac_value **outs, int max_outs, int *out_num);

/* ---- constants ---- */

/* A constant of `type` and dims from host data of `size` bytes in the host
   layout xlac.h documents (unpacked). */
xlac_status *xlac_op_constant(xlac_func *f, xlac_type type, const int64_t *dims, int rank, const void *data,
                              size_t size, xlac_value **out);
/* Scalar constants (rank 0), the value converted to `type` (rounded to
   nearest even, integers wrapped). */
xlac_status *xlac_op_constant_f(xlac_func *f, xlac_type type, double value, xlac_value **out);
xlac_status *xlac_op_constant_i(xlac_func *f, xlac_type type, int64_t value, xlac_value **out);
/* iota along iota_dim of a tensor of `type` and dims. */
xlac_status *xlac_op_iota(xlac_func *f, xlac_type type, const int64_t *dims, int rank, int64_t iota_dim,
                          xlac_value **out);

/* ---- elementwise ---- */

/* Unary: the result has the operand's type (is_finite: pred; abs, real
   and imag of complex values: the real type). */
xlac_status *xlac_op_abs(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_neg(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_sign(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_not(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_exp(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_expm1(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_log(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_log1p(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_logistic(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_sqrt(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_rsqrt(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_cbrt(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_sin(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_cos(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_tan(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_tanh(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_floor(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_ceil(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_round(xlac_func *f, xlac_value *x, xlac_value **out); /* to nearest even */
xlac_status *xlac_op_is_finite(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_popcnt(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_real(xlac_func *f, xlac_value *x, xlac_value **out);
xlac_status *xlac_op_imag(xlac_func *f, xlac_value *x, xlac_value **out);

/* Binary: both operands have the same type, which the result has. */
xlac_status *xlac_op_add(xlac_func *f, xlac_value *x, xlac_value *y, xlac_value **out);
xlac_status *xlac_op_sub(xlac_func *f, xlac_value *x, xlac_value *y, xlac_value **out);
xlac_status *xlac_op_mul(xlac_func *f, xlac_value *x, xlac_value *y, xlac_value **out);
xlac_status *xlac_op_div(xlac_func *f, xlac_value *x, xlac_value *y, xlac_value **out);
xlac_status *xlac_op_rem(xlac_func *f, xlac_value *x, xlac_value *y, xlac_value **out);
xlac_status *xlac_op_pow(xlac_func *f, xlac_value *x, xlac_value *y, xlac_value **out);
xlac_status *xlac_op_max(xlac_func *f, xlac_value *x, xlac_value *y, xlac_value **out);
xlac_status *xlac_op_min(xlac_func *f, xlac_value *x, xlac_value *y, xlac_value **out);
xlac_status *xlac_op_atan2(xlac_func *f, xlac_value *x, xlac_value *y, xlac_value **out);
xlac_status *xlac_op_and(xlac_func *f, xlac_value *x, xlac_value *y, xlac_value **out);
xlac_status *xlac_op_or(xlac_func *f, xlac_value *x, xlac_value *y, xlac_value **out);
xlac_status *xlac_op_xor(xlac_func *f, xlac_value *x, xlac_value *y, xlac_value **out);
xlac_status *xlac_op_shift_left(xlac_func *f, xlac_value *x, xlac_value *y, xlac_value **out);
xlac_status *xlac_op_shift_right_arithmetic(xlac_func *f, xlac_value *x, xlac_value *y, xlac_value **out);
xlac_status *xlac_op_shift_right_logical(xlac_func *f, xlac_value *x, xlac_value *y, xlac_value **out);

typedef enum xlac_comparison {
  XLAC_CMP_EQ = 0,
  XLAC_CMP_NE,
  XLAC_CMP_LT,
  XLAC_CMP_LE,
  XLAC_CMP_GT,
  XLAC_CMP_GE,
} xlac_comparison;
/* A pred tensor of the operands' shape.  Floats compare as IEEE values,
   integers by their signedness. */
xlac_status *xlac_op_compare(xlac_func *f, xlac_value *x, xlac_value *y, xlac_comparison dir, xlac_value **out);
/* pred ? on_true : on_false elementwise (pred may be a scalar). */
xlac_status *xlac_op_select(xlac_func *f, xlac_value *pred, xlac_value *on_true, xlac_value *on_false,
                            xlac_value **out);
/* min(max(x, lo), hi); lo and hi may be scalars. */
xlac_status *xlac_op_clamp(xlac_func *f, xlac_value *lo, xlac_value *x, xlac_value *hi, xlac_value **out);
/* x's values converted to `type` (same shape). */
xlac_status *xlac_op_convert(xlac_func *f, xlac_value *x, xlac_type type, xlac_value **out);
/* x's bits reinterpreted as `type` of the same bit width (same shape). */
xlac_status *xlac_op_bitcast_convert(xlac_func *f, xlac_value *x, xlac_type type, xlac_value **out);

/* ---- shapes ---- */

/* x broadcast to dims[0..rank-1]; x's dimension i becomes result dimension
   broadcast_dims[i] (NULL: the last rank(x) dimensions, numpy's rule). */
xlac_status *xlac_op_broadcast_in_dim(xlac_func *f, xlac_value *x, const int64_t *dims, int rank,
                                      const int64_t *broadcast_dims, xlac_value **out);
xlac_status *xlac_op_reshape(xlac_func *f, xlac_value *x, const int64_t *dims, int rank, xlac_value **out);
/* Result dimension i is x's dimension perm[i] (perm has rank(x) entries). */
xlac_status *xlac_op_transpose(xlac_func *f, xlac_value *x, const int64_t *perm, xlac_value **out);
xlac_status *xlac_op_reverse(xlac_func *f, xlac_value *x, const int64_t *dims, int num_dims, xlac_value **out);
/* start/limit/strides have rank(x) entries; strides NULL: all 1. */
xlac_status *xlac_op_slice(xlac_func *f, xlac_value *x, const int64_t *start, const int64_t *limit,
                           const int64_t *strides, xlac_value **out);
/* A slice of slice_sizes at start indices given by scalar integer values
   (rank(x) of them), clamped into bounds. */
xlac_status *xlac_op_dynamic_slice(xlac_func *f, xlac_value *x, xlac_value *const *start, const int64_t *slice_sizes,
                                   xlac_value **out);
xlac_status *xlac_op_dynamic_update_slice(xlac_func *f, xlac_value *x, xlac_value *update, xlac_value *const *start,
                                          xlac_value **out);
xlac_status *xlac_op_concatenate(xlac_func *f, xlac_value *const *xs, int n, int64_t dim, xlac_value **out);
/* low/high: rank(x) entries (negative values crop); interior NULL: 0. */
xlac_status *xlac_op_pad(xlac_func *f, xlac_value *x, xlac_value *padding_value, const int64_t *low,
                         const int64_t *high, const int64_t *interior, xlac_value **out);
xlac_status *xlac_op_tuple(xlac_func *f, xlac_value *const *xs, int n, xlac_value **out);
xlac_status *xlac_op_get_tuple_element(xlac_func *f, xlac_value *tuple, int index, xlac_value **out);

/* ---- linear algebra ---- */

typedef struct xlac_dot_dims {
  const int64_t *lhs_batch, *rhs_batch;             /* num_batch entries each */
  int num_batch;
  const int64_t *lhs_contracting, *rhs_contracting; /* num_contracting entries each */
  int num_contracting;
} xlac_dot_dims;
/* Result: batch dimensions, then lhs's free dimensions, then rhs's. */
xlac_status *xlac_op_dot_general(xlac_func *f, xlac_value *lhs, xlac_value *rhs, const xlac_dot_dims *dims,
                                 xlac_value **out);
/* Vector and matrix products: lhs's last dimension against rhs's first. */
xlac_status *xlac_op_dot(xlac_func *f, xlac_value *lhs, xlac_value *rhs, xlac_value **out);

typedef struct xlac_conv_options {
  size_t struct_size;
  const int64_t *window_strides;  /* one per spatial dimension; NULL: 1 */
  const int64_t *padding;         /* low, high for each spatial dimension; NULL: 0 */
  const int64_t *lhs_dilation;    /* NULL: 1 */
  const int64_t *rhs_dilation;    /* NULL: 1 */
  int64_t feature_group_count;    /* <= 0: 1 */
  int64_t batch_group_count;      /* <= 0: 1 */
} xlac_conv_options;
/* dimension_numbers in StableHLO's compact form, e.g. "[b, 0, 1, f]x[0, 1,
   i, o]->[b, 0, 1, f]" (NULL: "[b, f, 0, 1, ...]x[o, i, 0, 1, ...]->[b, f,
   0, 1, ...]").  opts NULL: unit strides, no padding or dilation. */
xlac_status *xlac_op_convolution(xlac_func *f, xlac_value *lhs, xlac_value *rhs, const char *dimension_numbers,
                                 const xlac_conv_options *opts, xlac_value **out);

/* ---- indexing ---- */

typedef struct xlac_gather_dims {
  const int64_t *offset_dims; int num_offset_dims;
  const int64_t *collapsed_slice_dims; int num_collapsed_slice_dims;
  const int64_t *operand_batching_dims; int num_operand_batching_dims;
  const int64_t *start_indices_batching_dims; int num_start_indices_batching_dims;
  const int64_t *start_index_map; int num_start_index_map;
  int64_t index_vector_dim;
} xlac_gather_dims;
/* slice_sizes: rank(operand) entries. */
xlac_status *xlac_op_gather(xlac_func *f, xlac_value *operand, xlac_value *indices, const xlac_gather_dims *dims,
                            const int64_t *slice_sizes, xlac_value **out);

typedef struct xlac_scatter_dims {
  const int64_t *update_window_dims; int num_update_window_dims;
  const int64_t *inserted_window_dims; int num_inserted_window_dims;
  const int64_t *input_batching_dims; int num_input_batching_dims;
  const int64_t *scatter_indices_batching_dims; int num_scatter_indices_batching_dims;
  const int64_t *scatter_dims_to_operand_dims; int num_scatter_dims_to_operand_dims;
  int64_t index_vector_dim;
} xlac_scatter_dims;
/* inputs[0..n-1] with updates[0..n-1] written at indices, combined by
   update_computation (2n scalar parameters: current values, then
   updates; n results).  outs: n values. */
xlac_status *xlac_op_scatter(xlac_func *f, xlac_value *const *inputs, int n, xlac_value *indices,
                             xlac_value *const *updates, const xlac_scatter_dims *dims,
                             xlac_func *update_computation, xlac_value **outs);

/* ---- reductions and sorting ---- */

/* Reduces inputs[0..n-1] over dims with init_values[0..n-1] (scalars) and
   body (2n scalar parameters: accumulators, then elements; n results).
   outs: n values. */
xlac_status *xlac_op_reduce(xlac_func *f, xlac_value *const *inputs, xlac_value *const *init_values, int n,
                            const int64_t *dims, int num_dims, xlac_func *body, xlac_value **outs);
/* Sorts inputs[0..n-1] (one shape) together along dim by comparator (2n
   scalar parameters: a0, b0, a1, b1, ...; returns pred "a before b").
   outs: n values. */
xlac_status *xlac_op_sort(xlac_func *f, xlac_value *const *inputs, int n, int64_t dim, int is_stable,
                          xlac_func *comparator, xlac_value **outs);

/* ---- control flow ---- */

/* Loop state inits[0..n-1]: cond (n parameters -> pred scalar) and body
   (n parameters -> n values of the same types).  outs: n values. */
xlac_status *xlac_op_while(xlac_func *f, xlac_value *const *inits, int n, xlac_func *cond, xlac_func *body,
                           xlac_value **outs);
/* pred ? on_true(operands) : on_false(operands).  Both branches take
   operands[0..num_operands-1] as their parameters and return the same
   types; outs: as many values as they return. */
xlac_status *xlac_op_if(xlac_func *f, xlac_value *pred, xlac_func *on_true, xlac_func *on_false,
                        xlac_value *const *operands, int num_operands, xlac_value **outs);
/* branches[index](operands), index a scalar s32 (out of range: the last
   branch). */
xlac_status *xlac_op_case(xlac_func *f, xlac_value *index, xlac_func *const *branches, int num_branches,
                          xlac_value *const *operands, int num_operands, xlac_value **outs);
/* A call of another function of the builder; outs: its results. */
xlac_status *xlac_op_call(xlac_func *f, xlac_func *callee, xlac_value *const *operands, int num_operands,
                          xlac_value **outs);

/* ---- custom calls ----
 * A call of the host function registered as `target` (xlac.h), with
 * results of the given shapes.  backend_config: the string the function
 * receives (NULL: none).  attributes: more attributes as MLIR text (e.g.
 * "{has_side_effect = true}"; NULL: none). */
xlac_status *xlac_op_custom_call(xlac_func *f, const char *target, xlac_value *const *operands, int num_operands,
                                 const xlac_shape *results, int num_results, const char *backend_config,
                                 const char *attributes, xlac_value **outs);

/* ---- collectives ----
 * replica_groups: num_groups rows of group_size replica ids, row-major
 * (NULL and 0: every replica in one group).  channel_id: 0 for none. */
xlac_status *xlac_op_all_reduce(xlac_func *f, xlac_value *const *operands, int n, xlac_func *computation,
                                const int64_t *replica_groups, int num_groups, int group_size, int64_t channel_id,
                                xlac_value **outs);
/* Concatenates the group's operands along dim; the result size needs the
   group size, so replica_groups are required. */
xlac_status *xlac_op_all_gather(xlac_func *f, xlac_value *operand, int64_t dim, const int64_t *replica_groups,
                                int num_groups, int group_size, int64_t channel_id, xlac_value **out);
xlac_status *xlac_op_replica_id(xlac_func *f, xlac_value **out);
xlac_status *xlac_op_partition_id(xlac_func *f, xlac_value **out);

#ifdef __cplusplus
}
#endif

#endif
