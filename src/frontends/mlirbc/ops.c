/*
 * ops.c - VHLO ops into our IR.  Each VHLO op (`vhlo.add_v1`) is a
 * versioned copy of a StableHLO op whose attributes are all required and
 * all stored raw: dimension lists as tensors, dimension numbers spread
 * over one attribute per field, defaults written out.  StableHLO's reader
 * turns them back into StableHLO's attributes; this file does the same,
 * producing what the text frontend makes of the text that reader prints:
 *
 *   - dimension lists become `array<i64: ...>` (INTS), flags lists BOOLS;
 *   - defaults are dropped (a stride of all ones, a `false` flag, an empty
 *     backend config, precisions that are all DEFAULT, ...);
 *   - the fields of dimension numbers become one dictionary, holding what
 *     StableHLO's printer prints of it (gather and scatter omit empty lists
 *     and zeros; dot_general's pretty form always names all four lists;
 *     convolution's compact form all nine fields);
 *   - channel ids become channel handles, strings that name functions
 *     symbols;
 *   - the attributes are ordered the way the text lists them: ops printed
 *     in the generic form have their properties sorted by name, then their
 *     discardable attributes; ops with a pretty form have the attributes
 *     their syntax spells out first, in that order, then a dictionary of
 *     the rest sorted by name.
 *
 * Older versions of an op (`gather_v1` before batching dimensions) simply
 * lack the attributes their successors added, whose defaults StableHLO
 * would drop again.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/mlirbc/bc.h"
#include "ir/sharding.h"
#include "frontends/stablehlo/stablehlo.h"

/* How StableHLO prints an op, which decides the order of its attributes. */
enum { FORM_GENERIC, FORM_PRETTY };

/* An op's attribute specification: "name" or "name:rule" tokens, space
   separated, sorted by name (the order of the op's properties).  The
   rules:
     (none) converted as StableHLO converts any attribute
     i  a dense i64 array        I  the same, dropped when all ones
     b  a dense bool array       B  the same, dropped when all false
     E  a dense i64 array, dropped when empty
     P  padding, dropped when all zeros
     s  a string naming a function: a symbol
     S  an array of such strings, dropped when empty
     f  a flag, dropped when false
     u  a flag, dropped when false, a unit attribute when true
     z  an integer, dropped when zero      m  dropped when -1
     e  dropped when empty (a string, array, dictionary or tensor)
     p  precisions, dropped when all DEFAULT
     n  a comparison type, dropped when NOTYPE
     o  a custom call API version, dropped when ORIGINAL
     a  a result accuracy, dropped when DEFAULT without tolerances
     c  a channel id: channel_handle<handle = id, type = 0>, dropped when 0
     x  read by the op's own rule (dimension numbers and the like) */
struct VhloOp {
  const char *name;
  const char *attrs;
  uint8_t form;
  const char *pretty; /* the attributes the pretty form spells out, in order */
};

#define UNARY(n) {n, "", FORM_PRETTY, NULL}
#define UNARY_ACC(n) {n, "result_accuracy:a", FORM_PRETTY, NULL}
#define CONV_PRETTY "dimension_numbers window_strides padding lhs_dilation rhs_dilation window_reversal"

/* sorted by name, for bsearch */
static const VhloOp vhlo_ops[] = {
    UNARY("abs_v1"),
    UNARY("add_v1"),
    UNARY("after_all_v1"),
    {"all_gather_v1", "all_gather_dim channel_id:c replica_groups use_global_device_ids:u", FORM_GENERIC, NULL},
    {"all_gather_v2", "all_gather_dim channel_id:c replica_groups use_global_device_ids:u", FORM_GENERIC, NULL},
    {"all_reduce_v1", "channel_id:c replica_groups use_global_device_ids:u", FORM_GENERIC, NULL},
    {"all_reduce_v2", "channel_id:c replica_groups use_global_device_ids:u", FORM_GENERIC, NULL},
    {"all_to_all_v1", "channel_id:c concat_dimension replica_groups split_count split_dimension", FORM_GENERIC, NULL},
    {"all_to_all_v2", "channel_id:c concat_dimension replica_groups split_count split_dimension", FORM_GENERIC, NULL},
    UNARY("and_v1"),
    {"async_done_v1", "", FORM_GENERIC, NULL},
    {"async_start_v1", "", FORM_GENERIC, NULL},
    UNARY("atan2_v1"),
    {"batch_norm_grad_v1", "epsilon feature_index", FORM_GENERIC, NULL},
    {"batch_norm_inference_v1", "epsilon feature_index", FORM_GENERIC, NULL},
    {"batch_norm_training_v1", "epsilon feature_index", FORM_GENERIC, NULL},
    UNARY("bitcast_convert_v1"),
    {"broadcast_in_dim_v1", "broadcast_dimensions:i", FORM_PRETTY, "broadcast_dimensions"},
    {"broadcast_v1", "broadcast_sizes:i", FORM_PRETTY, "broadcast_sizes"},
    {"call_v1", "callee:s", FORM_PRETTY, "callee"},
    {"case_v1", "", FORM_GENERIC, NULL},
    UNARY("cbrt_v1"),
    UNARY_ACC("cbrt_v2"),
    UNARY("ceil_v1"),
    {"cholesky_v1", "lower:f", FORM_PRETTY, "lower"},
    UNARY("clamp_v1"),
    {"collective_broadcast_v1", "channel_id:c replica_groups", FORM_GENERIC, NULL},
    {"collective_broadcast_v2", "channel_id:c has_dynamic_root:u replica_groups", FORM_GENERIC, NULL},
    {"collective_permute_v1", "channel_id:c source_target_pairs", FORM_GENERIC, NULL},
    {"collective_reduce_v1",
     "channel_id:c has_dynamic_root:u replica_groups use_global_device_ids:u",
     FORM_GENERIC, NULL},
    {"compare_v1", "compare_type:n comparison_direction", FORM_PRETTY, "comparison_direction compare_type"},
    UNARY("complex_v1"),
    {"composite_v1", "composite_attributes:e decomposition:s name version:z", FORM_PRETTY, "name"},
    {"composite_v2", "composite_attributes:e decomposition:s name version:z", FORM_PRETTY, "name"},
    {"concatenate_v1", "dimension", FORM_PRETTY, "dimension"},
    {"constant_v1", "value", FORM_PRETTY, "value"},
    UNARY("convert_v1"),
    {"convolution_v1",
     "batch_group_count feature_group_count input_batch_dimension:x input_feature_dimension:x "
     "input_spatial_dimensions:x kernel_input_feature_dimension:x kernel_output_feature_dimension:x "
     "kernel_spatial_dimensions:x lhs_dilation:I output_batch_dimension:x output_feature_dimension:x "
     "output_spatial_dimensions:x padding:P precision_config:p rhs_dilation:I window_reversal:B "
     "window_strides:I",
     FORM_PRETTY, CONV_PRETTY},
    UNARY("cosine_v1"),
    UNARY_ACC("cosine_v2"),
    UNARY("count_leading_zeros_v1"),
    UNARY("create_token_v1"),
    /* deprecated, and without a counterpart here: known, to say so */
    {"cross-replica-sum_v1", "replica_groups", FORM_GENERIC, NULL},
    {"custom_call_v1",
     "api_version:o backend_config:e call_target_name called_computations:S has_side_effect:f "
     "operand_layouts:x output_operand_aliases:e result_layouts:x",
     FORM_PRETTY, "call_target_name"},
    {"custom_call_v2",
     "api_version:o backend_config:e call_target_name called_computations:S has_side_effect:f "
     "operand_layouts:x output_operand_aliases:e result_layouts:x result_tilings:e",
     FORM_PRETTY, "call_target_name"},
    UNARY("divide_v1"),
    {"dot_general_v1",
     "lhs_batching_dimensions:x lhs_contracting_dimensions:x precision_config:p rhs_batching_dimensions:x "
     "rhs_contracting_dimensions:x",
     FORM_PRETTY, "precision_config algorithm dot_dimension_numbers"},
    {"dot_general_v2",
     "accumulation_type:x allow_imprecise_accumulation:x lhs_batching_dimensions:x lhs_component_count:x "
     "lhs_contracting_dimensions:x lhs_precision_type:x num_primitive_operations:x precision_config:p "
     "rhs_batching_dimensions:x rhs_component_count:x rhs_contracting_dimensions:x rhs_precision_type:x",
     FORM_PRETTY, "precision_config algorithm dot_dimension_numbers"},
    {"dot_v1", "precision_config:p", FORM_PRETTY, "precision_config"},
    {"dynamic_broadcast_in_dim_v1",
     "broadcast_dimensions:i known_expanding_dimensions:E known_nonexpanding_dimensions:E",
     FORM_PRETTY, "broadcast_dimensions"},
    /* the padding attribute of the first version went away in 0.20.0 */
    {"dynamic_conv_v1",
     "batch_group_count feature_group_count input_batch_dimension:x input_feature_dimension:x "
     "input_spatial_dimensions:x kernel_input_feature_dimension:x kernel_output_feature_dimension:x "
     "kernel_spatial_dimensions:x lhs_dilation:I output_batch_dimension:x output_feature_dimension:x "
     "output_spatial_dimensions:x padding:x precision_config:p rhs_dilation:I window_reversal:B "
     "window_strides:I",
     FORM_GENERIC, NULL},
    {"dynamic_conv_v2",
     "batch_group_count feature_group_count input_batch_dimension:x input_feature_dimension:x "
     "input_spatial_dimensions:x kernel_input_feature_dimension:x kernel_output_feature_dimension:x "
     "kernel_spatial_dimensions:x lhs_dilation:I output_batch_dimension:x output_feature_dimension:x "
     "output_spatial_dimensions:x precision_config:p rhs_dilation:I window_reversal:B window_strides:I",
     FORM_GENERIC, NULL},
    {"dynamic_gather_v1",
     "collapsed_slice_dims:x index_vector_dim:x indices_are_sorted:f offset_dims:x start_index_map:x",
     FORM_GENERIC, NULL},
    {"dynamic_gather_v2",
     "collapsed_slice_dims:x index_vector_dim:x indices_are_sorted:f offset_dims:x operand_batching_dims:x "
     "start_index_map:x start_indices_batching_dims:x",
     FORM_GENERIC, NULL},
    {"dynamic_iota_v1", "iota_dimension", FORM_PRETTY, "iota_dimension"},
    UNARY("dynamic_pad_v1"),
    UNARY("dynamic_reshape_v1"),
    {"dynamic_slice_v1", "slice_sizes:i", FORM_PRETTY, "slice_sizes"},
    UNARY("dynamic_update_slice_v1"),
    {"einsum_v1", "einsum_config", FORM_PRETTY, "einsum_config"},
    UNARY("exponential_minus_one_v1"),
    UNARY_ACC("exponential_minus_one_v2"),
    UNARY("exponential_v1"),
    UNARY_ACC("exponential_v2"),
    {"fft_v1", "fft_length:i fft_type", FORM_PRETTY, "fft_type fft_length"},
    UNARY("floor_v1"),
    {"func_v1", "arg_attrs function_type res_attrs sym_name sym_visibility", FORM_GENERIC, NULL},
    {"gather_v1",
     "collapsed_slice_dims:x index_vector_dim:x indices_are_sorted:f offset_dims:x slice_sizes:i "
     "start_index_map:x",
     FORM_GENERIC, NULL},
    {"gather_v2",
     "collapsed_slice_dims:x index_vector_dim:x indices_are_sorted:f offset_dims:x operand_batching_dims:x "
     "slice_sizes:i start_index_map:x start_indices_batching_dims:x",
     FORM_GENERIC, NULL},
    {"get_dimension_size_v1", "dimension", FORM_PRETTY, "dimension"},
    {"get_tuple_element_v1", "index", FORM_PRETTY, "index"},
    {"if_v1", "", FORM_GENERIC, NULL},
    UNARY("imag_v1"),
    /* StableHLO keeps an empty infeed_config (its default) */
    {"infeed_v1", "infeed_config layout:e", FORM_GENERIC, NULL},
    {"iota_v1", "iota_dimension", FORM_PRETTY, "iota_dimension"},
    UNARY("is_finite_v1"),
    UNARY("log_plus_one_v1"),
    UNARY_ACC("log_plus_one_v2"),
    UNARY("log_v1"),
    UNARY_ACC("log_v2"),
    UNARY("logistic_v1"),
    UNARY_ACC("logistic_v2"),
    {"map_v1", "dimensions:i", FORM_GENERIC, NULL},
    UNARY("maximum_v1"),
    UNARY("minimum_v1"),
    UNARY("multiply_v1"),
    UNARY("negate_v1"),
    UNARY("not_v1"),
    UNARY("optimization_barrier_v1"),
    UNARY("or_v1"),
    {"outfeed_v1", "outfeed_config", FORM_GENERIC, NULL},
    {"pad_v1",
     "edge_padding_high:i edge_padding_low:i interior_padding:i",
     FORM_PRETTY, "edge_padding_low edge_padding_high interior_padding"},
    UNARY("partition_id_v1"),
    UNARY("popcnt_v1"),
    UNARY("power_v1"),
    UNARY("real_dynamic_slice_v1"),
    UNARY("real_v1"),
    {"recv_v1", "channel_id:x channel_type:x is_host_transfer:f", FORM_GENERIC, NULL},
    {"recv_v2", "channel_id:x channel_type:x is_host_transfer:f source_target_pairs:e", FORM_GENERIC, NULL},
    {"reduce_precision_v1", "exponent_bits mantissa_bits", FORM_PRETTY, "exponent_bits mantissa_bits"},
    {"reduce_scatter_v1",
     "channel_id:c replica_groups scatter_dimension use_global_device_ids:u",
     FORM_GENERIC, NULL},
    {"reduce_v1", "dimensions:i", FORM_PRETTY, "dimensions"},
    {"reduce_window_v1",
     "base_dilations:I padding:P window_dilations:I window_dimensions:i window_strides:I",
     FORM_GENERIC, NULL},
    UNARY("remainder_v1"),
    UNARY("replica_id_v1"),
    UNARY("reshape_v1"),
    UNARY("return_v1"),
    {"reverse_v1", "dimensions:i", FORM_PRETTY, "dimensions"},
    {"rng_bit_generator_v1", "rng_algorithm", FORM_PRETTY, "rng_algorithm"},
    {"rng_v1", "rng_distribution", FORM_PRETTY, "rng_distribution"},
    UNARY("round_nearest_afz_v1"),
    UNARY("round_nearest_even_v1"),
    UNARY("rsqrt_v1"),
    UNARY_ACC("rsqrt_v2"),
    {"scatter_v1",
     "index_vector_dim:x indices_are_sorted:f inserted_window_dims:x scatter_dims_to_operand_dims:x "
     "unique_indices:f update_window_dims:x",
     FORM_GENERIC, NULL},
    {"scatter_v2",
     "index_vector_dim:x indices_are_sorted:f input_batching_dims:x inserted_window_dims:x "
     "scatter_dims_to_operand_dims:x scatter_indices_batching_dims:x unique_indices:f update_window_dims:x",
     FORM_GENERIC, NULL},
    {"select_and_scatter_v1", "padding:P window_dimensions:i window_strides:I", FORM_GENERIC, NULL},
    UNARY("select_v1"),
    {"send_v1", "channel_id:x channel_type:x is_host_transfer:f", FORM_GENERIC, NULL},
    {"send_v2", "channel_id:x channel_type:x is_host_transfer:f source_target_pairs:e", FORM_GENERIC, NULL},
    {"set_dimension_size_v1", "dimension", FORM_PRETTY, "dimension"},
    UNARY("shift_left_v1"),
    UNARY("shift_right_arithmetic_v1"),
    UNARY("shift_right_logical_v1"),
    UNARY("sign_v1"),
    UNARY("sine_v1"),
    UNARY_ACC("sine_v2"),
    {"slice_v1", "limit_indices:i start_indices:i strides:i", FORM_PRETTY, "start_indices limit_indices strides"},
    {"sort_v1", "dimension:m is_stable:f", FORM_GENERIC, NULL},
    UNARY("sqrt_v1"),
    UNARY_ACC("sqrt_v2"),
    UNARY("subtract_v1"),
    UNARY("tan_v1"),
    UNARY_ACC("tan_v2"),
    UNARY("tanh_v1"),
    UNARY_ACC("tanh_v2"),
    {"torch_index_select_v1", "batch_dims dim", FORM_GENERIC, NULL},
    {"transpose_v1", "permutation:i", FORM_PRETTY, "permutation"},
    {"triangular_solve_v1", "left_side lower transpose_a unit_diagonal", FORM_GENERIC, NULL},
    UNARY("tuple_v1"),
    {"unary_einsum_v1", "einsum_config", FORM_PRETTY, "einsum_config"},
    UNARY("uniform_dequantize_v1"),
    UNARY("uniform_quantize_v1"),
    UNARY("while_v1"),
    UNARY("xor_v1"),
};

static int by_name(const void *k, const void *e) {
  const char *key = k;
  return strcmp(key, ((const VhloOp *)e)->name);
}

#ifndef NDEBUG
static bool table_sorted(void) {
  for (size_t i = 1; i < ARRAY_LEN(vhlo_ops); i++)
    if (strcmp(vhlo_ops[i - 1].name, vhlo_ops[i].name) >= 0) return false;
  return true;
}
#endif

const VhloOp *vhlo_op_find(const char *name, size_t n) {
  char key[64];
  assert(table_sorted());
  if (n >= sizeof key || memchr(name, 0, n)) return NULL;
  memcpy(key, name, n);
  key[n] = 0;
  return bsearch(key, vhlo_ops, ARRAY_LEN(vhlo_ops), sizeof vhlo_ops[0], by_name);
}

bool vhlo_op_is_func(const VhloOp *v) { return strcmp(v->name, "func_v1") == 0; }

/* ---- the attribute specification ---- */

typedef struct Spec {
  char name[48];
  char rule; /* 0 for none */
} Spec;

static int spec_parse(const char *s, Spec *out, int cap) {
  int n = 0;
  while (*s && n < cap) {
    while (*s == ' ') s++;
    if (!*s) break;
    size_t len = strcspn(s, " :");
    Spec *p = &out[n++];
    memcpy(p->name, s, len);
    p->name[len] = 0;
    s += len;
    p->rule = 0;
    if (*s == ':') {
      p->rule = s[1];
      s += 2;
    }
  }
  return n;
}

/* An op's properties hold its inherent attributes sorted by name, the
   order the table lists them in. */
int vhlo_op_prop_names(const VhloOp *v, Arena *a, const char **names, int cap) {
  Spec spec[32];
  int n = spec_parse(v->attrs, spec, 32);
  if (n > cap) n = cap;
  for (int i = 0; i < n; i++) {
    assert(i == 0 || strcmp(spec[i - 1].name, spec[i].name) < 0);
    names[i] = arena_strdup(a, spec[i].name);
  }
  return n;
}

/* ---- reading attributes ---- */

typedef struct Conv {
  Bc *bc;
  const BcOp *o;
  const char *opname; /* "vhlo.add_v1", for diagnostics */
  Spec spec[32];
  BA *val[32];        /* the inherent attributes, by spec */
  int nspec;
  /* the result: StableHLO names and attributes; inherent ones first */
  const char *names[64];
  Attr *attrs[64];
  int n, ninherent;
} Conv;

static bool conv_fail(Conv *c, const BA *a, const char *fmt, const char *what) {
  const uint8_t *at = a ? c->bc->base + a->off : c->o->at;
  return bc_fail(c->bc, at, fmt, c->opname, what);
}

static BA *get(Conv *c, const char *name) {
  for (int i = 0; i < c->nspec; i++)
    if (strcmp(c->spec[i].name, name) == 0) return c->val[i];
  return NULL;
}

static void put(Conv *c, const char *name, Attr *a) {
  c->names[c->n] = name;
  c->attrs[c->n++] = a;
}

/* The integers of a dense tensor attribute (any integer element type). */
static bool ints_of(Conv *c, const BA *a, const char *what, int64_t **v, int *n) {
  if (a->kind == BA_INTS) {
    *v = a->ints;
    *n = a->n;
    return true;
  }
  if (a->kind != BA_DENSE || !(et_is_int(lit_elem(a->lit)) || et_is_pred(lit_elem(a->lit))))
    return conv_fail(c, a, "'%s': attribute '%s' is not a tensor of integers", what);
  const Literal *l = ba_literal(c->bc, a);
  *n = (int)l->n;
  *v = ARENA_ARRAY(&c->bc->m->arena, int64_t, *n + 1);
  for (int i = 0; i < *n; i++) (*v)[i] = lit_get_i(l, i);
  return true;
}

static bool int_of(Conv *c, const BA *a, const char *what, int64_t *v) {
  *v = 0;
  if (a->kind != BA_INT) return conv_fail(c, a, "'%s': attribute '%s' is not an integer", what);
  *v = a->i;
  return true;
}

static bool all_equal(const int64_t *v, int n, int64_t x) {
  for (int i = 0; i < n; i++)
    if (v[i] != x) return false;
  return true;
}

static bool is_empty(const BA *a) {
  switch (a->kind) {
  case BA_STRING: return a->slen == 0;
  case BA_ARRAY:
  case BA_DICT:
  case BA_INTS: return a->n == 0;
  case BA_DENSE: return !a->splat && a->lit->n == 0;
  default: return false;
  }
}

static bool all_default_precision(const BA *a) {
  if (a->kind != BA_ARRAY) return false;
  for (int i = 0; i < a->n; i++)
    if (a->elems[i]->kind != BA_ENUM || a->elems[i]->ekind != EN_PRECISION || a->elems[i]->i != 0) return false;
  return true;
}

static bool default_accuracy(const BA *a) {
  return a->kind == BA_ACCURACY && a->f == 0 && a->f2 == 0 && a->i == 0 && a->elems[0]->i == 0;
}

static Attr *int_list(Module *m, const int64_t *v, int n) {
  Attr **el = ARENA_ARRAY(&m->arena, Attr *, n + 1);
  for (int i = 0; i < n; i++) el[i] = attr_int(m, v[i], NULL);
  return attr_array(m, n, el);
}

/* A rule that may drop the attribute; false only on error. *a is set to
   NULL when the attribute goes. */
static bool apply_rule(Conv *c, const Spec *s, const BA *v, Attr **a) {
  Module *m = c->bc->m;
  int64_t *ints, x;
  int n;
  *a = NULL;
  switch (s->rule) {
  case 'i':
  case 'I':
  case 'E':
  case 'b':
  case 'B':
  case 'P':
    if (!ints_of(c, v, s->name, &ints, &n)) return false;
    if ((s->rule == 'I' && all_equal(ints, n, 1)) || (s->rule == 'B' || s->rule == 'P' ? all_equal(ints, n, 0) : false) ||
        (s->rule == 'E' && n == 0))
      return true;
    if (s->rule == 'P') break;
    *a = attr_ints(m, n, ints);
    if (s->rule == 'b' || s->rule == 'B') (*a)->kind = ATTR_BOOLS;
    return true;
  case 's':
    if (v->kind != BA_STRING) return conv_fail(c, v, "'%s': attribute '%s' is not a string", s->name);
    *a = attr_symbol(m, arena_strndup(&m->arena, v->s, v->slen));
    return true;
  case 'S': {
    if (v->kind != BA_ARRAY) return conv_fail(c, v, "'%s': attribute '%s' is not an array", s->name);
    if (v->n == 0) return true;
    Attr **el = ARENA_ARRAY(&m->arena, Attr *, v->n);
    for (int i = 0; i < v->n; i++) {
      if (v->elems[i]->kind != BA_STRING) return conv_fail(c, v, "'%s': attribute '%s' holds a non-string", s->name);
      el[i] = attr_symbol(m, arena_strndup(&m->arena, v->elems[i]->s, v->elems[i]->slen));
    }
    *a = attr_array(m, v->n, el);
    return true;
  }
  case 'f':
  case 'u':
    if (v->kind != BA_BOOL) return conv_fail(c, v, "'%s': attribute '%s' is not a boolean", s->name);
    if (!v->i) return true;
    *a = s->rule == 'u' ? attr_unit(m) : attr_bool(m, true);
    return true;
  case 'z':
  case 'm':
    if (!int_of(c, v, s->name, &x)) return false;
    if (x == (s->rule == 'z' ? 0 : -1)) return true;
    break;
  case 'c':
    if (!int_of(c, v, s->name, &x)) return false;
    if (x == 0) return true;
    {
      const char *keys[2] = {"handle", "type"};
      Attr *vals[2] = {attr_int(m, x, NULL), attr_int(m, 0, NULL)};
      *a = attr_dict(m, "stablehlo.channel_handle", 2, keys, vals);
    }
    return true;
  case 'e':
    if (is_empty(v)) return true;
    break;
  case 'p':
    if (all_default_precision(v)) return true;
    break;
  case 'n':
    if (v->kind == BA_ENUM && v->ekind == EN_COMPARISON_TYPE && v->i == 0) return true;
    break;
  case 'o':
    if (v->kind == BA_ENUM && v->ekind == EN_API_VERSION && v->i == 1) return true;
    break;
  case 'a':
    if (default_accuracy(v)) return true;
    break;
  default:
    break;
  }
  return (*a = bc_convert_attr(c->bc, v)) != NULL;
}

/* The name StableHLO gives a converted attribute. */
static const char *shlo_name(const Spec *s) { return s->rule == 'c' ? "channel_handle" : s->name; }

static Attr *type_attr(Bc *bc, const BT *t, uint32_t off);

/* ---- the ops' own rules ---- */

static Attr *get_ints_list(Conv *c, const char *name, bool *ok) {
  int64_t *v;
  int n;
  BA *a = get(c, name);
  if (!a) return int_list(c->bc->m, NULL, 0);
  *ok = *ok && ints_of(c, a, name, &v, &n);
  return *ok ? int_list(c->bc->m, v, n) : NULL;
}

static Attr *get_int(Conv *c, const char *name, bool *ok) {
  int64_t v = 0;
  BA *a = get(c, name);
  *ok = *ok && (!a || int_of(c, a, name, &v));
  return attr_int(c->bc->m, v, NULL);
}

/* dimension_numbers of convolution and dynamic_conv: all nine fields */
static bool conv_dims(Conv *c) {
  static const char *const keys[9] = {"input_batch_dimension", "input_feature_dimension",
                                      "input_spatial_dimensions",       "kernel_input_feature_dimension",
                                      "kernel_output_feature_dimension", "kernel_spatial_dimensions",
                                      "output_batch_dimension",         "output_feature_dimension",
                                      "output_spatial_dimensions"};
  Attr *vals[9];
  bool ok = true;
  for (int i = 0; i < 9; i++) vals[i] = i % 3 == 2 ? get_ints_list(c, keys[i], &ok) : get_int(c, keys[i], &ok);
  if (ok) put(c, "dimension_numbers", attr_dict(c->bc->m, "stablehlo.conv", 9, (const char *const *)keys, vals));
  return ok;
}

/* gather's and scatter's dimension numbers: the fields StableHLO prints
   (non-empty lists, non-zero integers) */
static bool sparse_dims(Conv *c, const char *attr, const char *dict, const char *const *keys, int nkeys) {
  Module *m = c->bc->m;
  const char *k[8];
  Attr *v[8];
  int n = 0;
  for (int i = 0; i < nkeys; i++) {
    BA *a = get(c, keys[i]);
    int64_t *ints, x;
    int len;
    if (!a) continue;
    if (i == nkeys - 1) {
      if (!int_of(c, a, keys[i], &x)) return false;
      if (x) k[n] = keys[i], v[n++] = attr_int(m, x, NULL);
    } else {
      if (!ints_of(c, a, keys[i], &ints, &len)) return false;
      if (len) k[n] = keys[i], v[n++] = int_list(m, ints, len);
    }
  }
  put(c, attr, attr_dict(m, dict, n, k, v));
  return true;
}

static bool gather_dims(Conv *c) {
  static const char *const keys[] = {"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
                                     "start_indices_batching_dims", "start_index_map", "index_vector_dim"};
  return sparse_dims(c, "dimension_numbers", "stablehlo.gather", keys, ARRAY_LEN(keys));
}

static bool scatter_dims(Conv *c) {
  static const char *const keys[] = {"update_window_dims", "inserted_window_dims",
                                     "input_batching_dims",          "scatter_indices_batching_dims",
                                     "scatter_dims_to_operand_dims", "index_vector_dim"};
  return sparse_dims(c, "scatter_dimension_numbers", "stablehlo.scatter", keys, ARRAY_LEN(keys));
}

static bool is_none_type(const BA *a) { return a && a->kind == BA_TYPE && a->ty->kind == BT_NONE; }

static bool dot_algorithm(Conv *c) {
  static const char *const keys[7] = {"lhs_precision_type", "rhs_precision_type",       "accumulation_type",
                                      "lhs_component_count", "rhs_component_count",      "num_primitive_operations",
                                      "allow_imprecise_accumulation"};
  Module *m = c->bc->m;
  Attr *vals[7];
  bool none = true, some = false;
  for (int i = 0; i < 7; i++) {
    BA *a = get(c, keys[i]);
    none = none && (!a || is_none_type(a));
    some = some || is_none_type(a);
  }
  if (none) return true;
  if (some) return conv_fail(c, get(c, keys[0]), "'%s': %s", "a dot algorithm with some fields unset");
  for (int i = 0; i < 7; i++) {
    BA *a = get(c, keys[i]);
    bool ok = i < 3 ? a->kind == BA_TYPE : i < 6 ? a->kind == BA_INT : a->kind == BA_BOOL;
    if (!ok) return conv_fail(c, a, "'%s': dot algorithm field '%s' has the wrong kind", keys[i]);
    vals[i] = i < 3 ? type_attr(c->bc, a->ty, a->off) : i < 6 ? attr_int(m, a->i, NULL) : attr_bool(m, a->i != 0);
    if (!vals[i]) return false;
  }
  put(c, "algorithm", attr_dict(m, "stablehlo.dot_algorithm", 7, (const char *const *)keys, vals));
  return true;
}

/* dot_general's pretty form names all four lists, unless all are empty
   (then it names none and the text has no dimension numbers) */
static bool dot_dims(Conv *c) {
  static const char *const keys[4] = {"lhs_batching_dimensions", "rhs_batching_dimensions",
                                      "lhs_contracting_dimensions", "rhs_contracting_dimensions"};
  Attr *vals[4];
  bool ok = true;
  for (int i = 0; i < 4; i++) vals[i] = get_ints_list(c, keys[i], &ok);
  /* (all four empty: an outer product, still with its dimension numbers) */
  if (ok) put(c, "dot_dimension_numbers", attr_dict(c->bc->m, "stablehlo.dot", 4, (const char *const *)keys, vals));
  return ok && dot_algorithm(c);
}

static bool channel_handle(Conv *c) {
  bool ok = true;
  const char *keys[2] = {"handle", "type"};
  Attr *vals[2] = {get_int(c, "channel_id", &ok), get_int(c, "channel_type", &ok)};
  if (ok) put(c, "channel_handle", attr_dict(c->bc->m, "stablehlo.channel_handle", 2, keys, vals));
  return ok;
}

static bool custom_call_layouts(Conv *c) {
  BA *ol = get(c, "operand_layouts"), *rl = get(c, "result_layouts");
  if (is_empty(ol) && is_empty(rl)) return true;
  Attr *a = bc_convert_attr(c->bc, ol), *b = a ? bc_convert_attr(c->bc, rl) : NULL;
  if (!b) return false;
  put(c, "operand_layouts", a);
  put(c, "result_layouts", b);
  return true;
}

static bool op_rule(Conv *c, OpKind k) {
  switch (k) {
  case OP_CONVOLUTION:
  case OP_DYNAMIC_CONV: return conv_dims(c);
  case OP_DOT_GENERAL: return dot_dims(c);
  case OP_GATHER:
  case OP_DYNAMIC_GATHER: return gather_dims(c);
  case OP_SCATTER: return scatter_dims(c);
  case OP_SEND:
  case OP_RECV: return channel_handle(c);
  case OP_CUSTOM_CALL: return custom_call_layouts(c);
  default: return true;
  }
}

/* ---- putting it together ---- */

static bool is_inherent(const Conv *c, const char *name) {
  for (int i = 0; i < c->nspec; i++)
    if (strcmp(c->spec[i].name, name) == 0) return true;
  return false;
}

/* The inherent attributes by spec (every one must be there), the rest
   left for the caller. */
static bool collect(Conv *c) {
  c->nspec = spec_parse(c->o->def->attrs, c->spec, 32);
  for (int i = 0; i < c->o->nattrs; i++) {
    const BcNamed *a = &c->o->attrs[i];
    for (int k = 0; k < c->nspec; k++)
      if (strcmp(c->spec[k].name, a->name) == 0) {
        if (c->val[k]) return conv_fail(c, a->val, "'%s': attribute '%s' given twice", a->name);
        c->val[k] = a->val;
      }
  }
  for (int k = 0; k < c->nspec; k++)
    if (!c->val[k]) return bc_fail(c->bc, c->o->at, "'%s' lacks its attribute '%s'", c->opname, c->spec[k].name);
  return true;
}

static bool convert_inherent(Conv *c, OpKind k) {
  for (int i = 0; i < c->nspec; i++) {
    Attr *a;
    if (c->spec[i].rule == 'x') continue;
    if (!apply_rule(c, &c->spec[i], c->val[i], &a)) return false;
    if (a) put(c, shlo_name(&c->spec[i]), a);
  }
  if (!op_rule(c, k)) return false;
  c->ninherent = c->n;
  return true;
}

/* Shardy's attributes that stand as attributes of their own in the IR
   (the others are parts of these). */
static bool sdy_standalone(const BA *a) {
  return a->sdy == SDY_SHARDING || a->sdy == SDY_PER_VALUE || a->sdy == SDY_MESH || a->sdy == SDY_RULE ||
         a->sdy == SDY_MANUAL_AXES;
}

bool bc_drop_foreign(Bc *bc, const char *name, const BA *a) {
  if (a->kind == BA_SDY && !sdy_standalone(a)) {
    warning_at(((SrcLoc){bc->file, a->off}),
               "dropping attribute '%s': a Shardy attribute xlac keeps only inside others", name);
    return true;
  }
  if (a->kind != BA_FOREIGN) return false;
  warning_at(((SrcLoc){bc->file, a->off}),
             "dropping attribute '%s': its value is in dialect '%s', whose encoding xlac does not read", name, a->s);
  return true;
}

static bool convert_discardable(Conv *c) {
  for (int i = 0; i < c->o->nattrs; i++) {
    const BcNamed *a = &c->o->attrs[i];
    if (is_inherent(c, a->name) || bc_drop_foreign(c->bc, a->name, a->val)) continue;
    if (c->n == (int)ARRAY_LEN(c->attrs)) return conv_fail(c, a->val, "'%s': %s", "too many attributes");
    Attr *v = bc_convert_attr(c->bc, a->val);
    if (!v) return false;
    put(c, a->name, v);
  }
  return true;
}

/* Where an attribute goes: the pretty form's own attributes by their
   place in it, everything else after them by name. */
static int pretty_rank(const char *pretty, const char *name) {
  int rank = 0;
  size_t len = strlen(name);
  for (const char *p = pretty; p && *p; rank++) {
    size_t w = strcspn(p, " ");
    if (w == len && memcmp(p, name, len) == 0) return rank;
    p += w;
    while (*p == ' ') p++;
  }
  return 1000;
}

typedef struct Ranked {
  int rank;
  const char *name;
  Attr *attr;
} Ranked;

static int by_rank(const void *a, const void *b) {
  const Ranked *x = a, *y = b;
  if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
  return strcmp(x->name, y->name);
}

static bool set_attrs(Conv *c, Op *op) {
  Module *m = c->bc->m;
  Ranked r[64];
  for (int i = 0; i < c->n; i++) {
    int rank = c->o->def->form == FORM_PRETTY ? pretty_rank(c->o->def->pretty, c->names[i]) : i < c->ninherent ? 0 : 2000 + i;
    r[i] = (Ranked){rank, c->names[i], c->attrs[i]};
  }
  qsort(r, (size_t)c->n, sizeof r[0], by_rank);
  op->attrs = ARENA_ARRAY(&m->arena, NamedAttr, c->n + 1);
  for (int i = 0; i < c->n; i++) {
    for (int j = 0; j < i; j++)
      if (strcmp(r[i].name, r[j].name) == 0)
        return bc_fail(c->bc, c->o->at, "'%s': attribute '%s' given twice", c->opname, r[i].name);
    op->attrs[i] = (NamedAttr){arena_strdup(&m->arena, r[i].name), r[i].attr};
  }
  op->nattrs = c->n;
  return true;
}

static OpKind op_kind(const VhloOp *v, bool func_body) {
  char name[80];
  size_t base = strlen(v->name);
  const char *ver = strstr(v->name, "_v");
  while (ver && strstr(ver + 2, "_v")) ver = strstr(ver + 2, "_v");
  if (ver) base = (size_t)(ver - v->name);
  if (base == 6 && memcmp(v->name, "return", 6) == 0) return func_body ? OP_FUNC_RETURN : OP_RETURN;
  if (base == 4 && memcmp(v->name, "call", 4) == 0) return OP_CALL;
  snprintf(name, sizeof name, "stablehlo.%.*s", (int)base, v->name);
  return op_kind_from_name(name, strlen(name));
}

static bool result_types(Bc *bc, const BcOp *o, Type ***out) {
  Type **t = ARENA_ARRAY(&bc->m->arena, Type *, o->nres + 1);
  for (int i = 0; i < o->nres; i++) {
    BT *b = o->res[i];
    if (!bt_is_value(b))
      return bc_fail(bc, o->at, "result %d has a type that is not a tensor, tuple or token (%s)", i,
                     b->kind == BT_OTHER ? b->name : b->kind == BT_FUNC ? "a function type" : "an element type");
    t[i] = b->t;
  }
  *out = t;
  return true;
}

bool vhlo_build_op(Bc *bc, const BcOp *o, Block *b, bool func_body, Op **out) {
  Conv conv = {0}, *c = &conv;
  c->bc = bc;
  c->o = o;
  c->opname = xasprintf("vhlo.%s", o->def->name);
  OpKind k = op_kind(o->def, func_body);
  Type **types = NULL;
  bool ok = k != OP_COUNT || bc_fail(bc, o->at, "'%s' has no counterpart in xlac", c->opname);
  ok = ok && result_types(bc, o, &types) && collect(c) && convert_inherent(c, k) && convert_discardable(c);
  if (ok) {
    Op *op = op_new(bc->m, k, o->nopnds, o->opnds, o->nres, types, (SrcLoc){bc->file, (uint32_t)(o->at - bc->base)});
    ok = set_attrs(c, op);
    op->regions = o->nregions ? o->regions : NULL;
    op->nregions = o->nregions;
    for (int i = 0; i < o->nregions; i++) o->regions[i]->parent_op = op;
    block_append(b, op);
    *out = op;
  }
  xfree((char *)c->opname);
  return ok;
}

/* ---- functions ---- */

/* A dictionary of discardable attributes (a function argument's): those
   in foreign encodings go; NULL when none is left. */
static bool discardable_dict(Bc *bc, const BA *a, Attr **out) {
  const char **keys = ARENA_ARRAY(&bc->m->arena, const char *, a->n + 1);
  Attr **v = ARENA_ARRAY(&bc->m->arena, Attr *, a->n + 1);
  int n = 0;
  *out = NULL;
  for (int i = 0; i < a->n; i++) {
    if (bc_drop_foreign(bc, a->keys[i]->s, a->elems[i])) continue;
    keys[n] = arena_strndup(&bc->m->arena, a->keys[i]->s, a->keys[i]->slen);
    if (!(v[n++] = bc_convert_attr(bc, a->elems[i]))) return false;
  }
  if (n) *out = attr_dict(bc->m, NULL, n, keys, v);
  return true;
}

/* A function's per-argument or per-result dictionaries: NULL for an
   empty one, and no array at all when every one is empty (the text
   prints none of them). */
static bool func_dicts(Bc *bc, const BA *a, int n, const uint8_t *at, Attr ***out) {
  *out = NULL;
  if (a->kind != BA_ARRAY || (a->n != 0 && a->n != n))
    return bc_fail(bc, at, "a function's argument or result attributes are not one dictionary per value");
  Attr **d = ARENA_ARRAY(&bc->m->arena, Attr *, n + 1);
  bool any = false;
  for (int i = 0; i < a->n; i++) {
    if (a->elems[i]->kind != BA_DICT) return bc_fail(bc, at, "a function's argument or result attribute is not a dictionary");
    if (!discardable_dict(bc, a->elems[i], &d[i])) return false;
    any = any || d[i];
  }
  if (any) *out = d;
  return true;
}

static bool func_signature(Bc *bc, Func *f, const BA *ft, Block *body, const uint8_t *at) {
  if (ft->kind != BA_TYPE || ft->ty->kind != BT_FUNC) return bc_fail(bc, at, "a function whose type is not a function type");
  const BT *t = ft->ty;
  /* a manual computation's body (reader.c): the per-device types are the
     arguments' and what the body returns */
  bool local = bc_is_localized(bc, body);
  const Op *ret = body->last;
  if (local && !(ret && ret->kind == OP_FUNC_RETURN && ret->nopnds == t->nout))
    return bc_fail(bc, at, "function '@%s' does not return its manual computation's %d results", f->name, t->nout);
  if (t->nin != body->nargs)
    return bc_fail(bc, at, "function '@%s' has %d parameters but its body %d arguments", f->name, t->nin, body->nargs);
  for (int i = 0; i < t->nin; i++)
    if (!t->in[i]->t || (!local && !type_equal(t->in[i]->t, body->args[i]->type)))
      return bc_fail(bc, at, "parameter %d of function '@%s' does not have its argument's type", i, f->name);
  f->nresults = t->nout;
  f->result_types = ARENA_ARRAY(&bc->m->arena, Type *, t->nout + 1);
  for (int i = 0; i < t->nout; i++) {
    if (!bt_is_value(t->out[i]))
      return bc_fail(bc, at, "result %d of function '@%s' is not a tensor, tuple or token", i, f->name);
    f->result_types[i] = local ? ret->opnds[i]->type : t->out[i]->t;
  }
  return true;
}

/* The HLO sharding of a value of a manual computation (reader.c) whose
   global type is g and per-device type l: how JAX learns the layout of
   the parameters and results of a program partitioned by hand (it reads
   `mhlo.sharding` of the executable's optimized program).  It follows
   from the types where that is certain: a replicated value, or one
   dimension split over a mesh of one axis (the manual computation's
   in_shardings and out_shardings, which would say more, are not read
   yet).  NULL with an error reported otherwise. */
static Attr *value_sharding(Bc *bc, const Type *g, const Type *l, const char *what, int i, const uint8_t *at) {
  if (g->kind != TY_TENSOR || l->kind != TY_TENSOR || g->rank != l->rank || g->elem != l->elem) {
    if (type_equal(g, l)) return attr_string(bc->m, "{replicated}", 12);
    if (!at) return NULL;
    bc_fail(bc, at, "%s %d of the manual computation: per-device type and type differ in kind or rank", what, i);
    return NULL;
  }
  int split = -1, nsplit = 0;
  int64_t ways = 1;
  for (int d = 0; d < g->rank; d++) {
    if (l->dims[d] <= 0 ? g->dims[d] != l->dims[d] : g->dims[d] % l->dims[d] != 0) {
      if (!at) return NULL;
      bc_fail(bc, at, "%s %d of the manual computation: %lld elements of dimension %d are not whole shards of %lld",
              what, i, (long long)g->dims[d], d, (long long)l->dims[d]);
      return NULL;
    }
    int64_t r = l->dims[d] > 0 ? g->dims[d] / l->dims[d] : 1;
    if (r > 1) {
      split = d;
      nsplit++;
      ways = r;
    }
  }
  if (nsplit == 0) return attr_string(bc->m, "{replicated}", 12);
  if (nsplit > 1 || bc->mesh_axes != 1 || ways != bc->mesh_devices) {
    if (!at) return NULL;
    bc_fail(bc, at, "%s %d of the manual computation is split %s: xlac partitions by hand over meshes of one axis, "
            "a value split along one dimension over all of it", what, i,
            nsplit > 1 ? "along several dimensions" : "over part of the mesh or a mesh of several axes");
    return NULL;
  }
  StrBuf b = {0};
  sb_puts(&b, "{devices=[");
  for (int d = 0; d < g->rank; d++) sb_printf(&b, "%s%lld", d ? "," : "", (long long)(d == split ? ways : 1));
  sb_printf(&b, "]<=[%lld]}", (long long)ways);
  Attr *a = attr_string(bc->m, arena_strndup(&bc->m->arena, b.data, b.len), b.len);
  sb_free(&b);
  return a;
}

/* dicts[i] with `mhlo.sharding` = v added (dicts may be NULL), and
   Shardy's `sdy.sharding` gone: it describes the global value, and the
   function is now the program of one partition. */
static Attr **with_sharding(Bc *bc, Attr **dicts, int n, int i, Attr *v) {
  if (!dicts) dicts = ARENA_ARRAY(&bc->m->arena, Attr *, n + 1);
  const Attr *d = dicts[i];
  int k = d ? d->n : 0;
  const char **keys = ARENA_ARRAY(&bc->m->arena, const char *, k + 2);
  Attr **vals = ARENA_ARRAY(&bc->m->arena, Attr *, k + 2);
  int m = 0;
  for (int j = 0; j < k; j++)
    if (strcmp(d->keys[j], "mhlo.sharding") != 0 && strcmp(d->keys[j], SDY_KEY) != 0) {
      keys[m] = d->keys[j];
      vals[m++] = d->elems[j];
    }
  keys[m] = "mhlo.sharding";
  vals[m++] = v;
  dicts[i] = attr_dict(bc->m, NULL, m, keys, vals);
  return dicts;
}

/* Whether two shardings split each dimension over the same axes. */
static bool same_split(const SdySharding *a, const SdySharding *b) {
  if (a->ndims != b->ndims) return false;
  for (int d = 0; d < a->ndims; d++) {
    if (a->dims[d].naxes != b->dims[d].naxes) return false;
    for (int k = 0; k < a->dims[d].naxes; k++) {
      const SdyAxisRef *x = &a->dims[d].axes[k], *y = &b->dims[d].axes[k];
      if (strcmp(x->name, y->name) != 0 || x->size != y->size || x->pre_size != y->pre_size) return false;
    }
  }
  return true;
}

/* Whether the sharding a function gives its value (dicts[i]'s sdy.sharding)
   is none, or splits as entry k of the manual computation's `key` does. */
static bool agrees(Bc *bc, Attr **dicts, int i, const Op *mc, const char *key, int k) {
  const Attr *d = dicts ? dicts[i] : NULL, *s = d && d->kind == ATTR_DICT ? attr_dict_get(d, SDY_KEY) : NULL;
  if (!s) return true;
  SdySharding fs, *v;
  const Attr *pv = op_attr(mc, key);
  int n = pv ? sdy_per_value_of(bc->m, pv, &v) : -1;
  return sdy_sharding_of(bc->m, s, &fs) && n > k && same_split(&fs, &v[k]);
}

/* Whether a manual computation's values all have such a sharding (NULL
   `at`: quietly), and the function ud gives its parameters and results
   the same shardings (or none), so that it may be localized (reader.c). */
static bool localize_fits(Bc *bc, const Op *mc, void *ud) {
  const Func *entry = ud;
  /* partial sums are the partitioner's */
  for (int k = 0; k < 2; k++) {
    const Attr *pv = op_attr(mc, k ? "out_shardings" : "in_shardings");
    SdySharding *v;
    int n = pv ? sdy_per_value_of(bc->m, pv, &v) : 0;
    for (int i = 0; i < n; i++)
      if (v[i].nunreduced) return false;
  }
  const Attr *cc = op_attr(mc, "called_computations");
  const Func *f = module_find_func(bc->m, cc->elems[0]->s);
  for (int i = 0; i < mc->nopnds; i++)
    for (int j = 0; j < entry->body->nargs; j++)
      if (mc->opnds[i] == entry->body->args[j] && !agrees(bc, entry->arg_attrs, j, mc, "in_shardings", i)) return false;
  const Op *ret = block_terminator(entry->body);
  for (int j = 0; j < ret->nopnds && j < entry->nresults; j++)
    if (!agrees(bc, entry->res_attrs, j, mc, "out_shardings", (int)(ret->opnds[j] - mc->res))) return false;
  for (int i = 0; i < mc->nopnds; i++)
    if (!value_sharding(bc, mc->opnds[i]->type, f->body->args[i]->type, "operand", i, NULL)) return false;
  for (int i = 0; i < mc->nres; i++)
    if (!value_sharding(bc, mc->res[i].type, f->result_types[i], "result", i, NULL)) return false;
  return true;
}

/* The shardings of a localized entry function's parameters and results. */
static bool localized_shardings(Bc *bc, Func *f, const BT *ft, const uint8_t *at) {
  for (int i = 0; i < f->body->nargs; i++) {
    Attr *s = value_sharding(bc, ft->in[i]->t, f->body->args[i]->type, "operand", i, at);
    if (!s) return false;
    f->arg_attrs = with_sharding(bc, f->arg_attrs, f->body->nargs, i, s);
  }
  for (int i = 0; i < f->nresults; i++) {
    Attr *s = value_sharding(bc, ft->out[i]->t, f->result_types[i], "result", i, at);
    if (!s) return false;
    f->res_attrs = with_sharding(bc, f->res_attrs, f->nresults, i, s);
  }
  return true;
}

bool vhlo_build_func(Bc *bc, const BcOp *o, Block *body) {
  Conv c = {0};
  c.bc = bc;
  c.o = o;
  c.opname = "vhlo.func_v1";
  if (!collect(&c)) return false;
  BA *name = get(&c, "sym_name"), *vis = get(&c, "sym_visibility");
  if (name->kind != BA_STRING || vis->kind != BA_STRING)
    return bc_fail(bc, o->at, "a function whose name or visibility is not a string");
  if (!body) return bc_fail(bc, o->at, "function '@%.*s' has no body", (int)name->slen, name->s);
  if (o->nopnds || o->nres) return bc_fail(bc, o->at, "a function with operands or results");
  char *fname = arena_strndup(&bc->m->arena, name->s, name->slen);
  /* "a::@b" refers to a symbol inside another; it names nothing */
  if (strstr(fname, "::")) return bc_fail(bc, o->at, "'%s' is not a function name", fname);
  if (module_find_func(bc->m, fname)) return bc_fail(bc, o->at, "redefinition of function '@%s'", fname);
  Func *f = func_new(bc->m, fname, (SrcLoc){bc->file, (uint32_t)(o->at - bc->base)});
  f->body = body;
  body->parent_func = f;
  f->is_private = vis->slen == 7 && memcmp(vis->s, "private", 7) == 0;
  /* the shardings first: whether a manual computation is localized
     depends on them */
  const BA *ft = get(&c, "function_type");
  if (ft->kind != BA_TYPE || ft->ty->kind != BT_FUNC) return bc_fail(bc, o->at, "a function whose type is not a function type");
  f->nresults = ft->ty->nout;
  if (!func_dicts(bc, get(&c, "arg_attrs"), body->nargs, o->at, &f->arg_attrs) ||
      !func_dicts(bc, get(&c, "res_attrs"), f->nresults, o->at, &f->res_attrs))
    return false;
  if (!f->is_private) bc_localize(bc, body, localize_fits, f);
  if (!func_signature(bc, f, ft, body, o->at) || !convert_discardable(&c)) return false;
  if (bc_is_localized(bc, body) && !localized_shardings(bc, f, get(&c, "function_type")->ty, o->at)) return false;
  f->attrs = ARENA_ARRAY(&bc->m->arena, NamedAttr, c.n + 1);
  for (int i = 0; i < c.n; i++) f->attrs[i] = (NamedAttr){arena_strdup(&bc->m->arena, c.names[i]), c.attrs[i]};
  f->nattrs = c.n;
  return true;
}

/* ---- generic conversion ---- */

static Type *attr_type_of(const BT *t) { return t && t->kind == BT_ELEM ? t->t : NULL; }

static Attr *convert_list(Bc *bc, BA *const *el, int n) {
  Attr **v = ARENA_ARRAY(&bc->m->arena, Attr *, n + 1);
  for (int i = 0; i < n; i++)
    if (!(v[i] = bc_convert_attr(bc, el[i]))) return NULL;
  return attr_array(bc->m, n, v);
}

static Attr *convert_dict(Bc *bc, const BA *a) {
  const char **keys = ARENA_ARRAY(&bc->m->arena, const char *, a->n + 1);
  Attr **v = ARENA_ARRAY(&bc->m->arena, Attr *, a->n + 1);
  for (int i = 0; i < a->n; i++) {
    keys[i] = arena_strndup(&bc->m->arena, a->keys[i]->s, a->keys[i]->slen);
    if (!(v[i] = bc_convert_attr(bc, a->elems[i]))) return NULL;
  }
  return attr_dict(bc->m, NULL, a->n, keys, v);
}

static Attr *convert_alias(Bc *bc, const BA *a) {
  Module *m = bc->m;
  const char *keys[3] = {"output_tuple_indices", "operand_index", "operand_tuple_indices"};
  Attr *v[3] = {int_list(m, a->ints, a->n), attr_int(m, a->i, NULL), int_list(m, a->ints2, a->n2)};
  return attr_dict(m, "stablehlo.output_operand_alias", 3, keys, v);
}

static Attr *convert_accuracy(Bc *bc, const BA *a) {
  Module *m = bc->m;
  const char *keys[4];
  Attr *v[4];
  int n = 0;
  if (a->f != 0) keys[n] = "atol", v[n++] = attr_float(m, a->f, NULL);
  if (a->f2 != 0) keys[n] = "rtol", v[n++] = attr_float(m, a->f2, NULL);
  if (a->i != 0) keys[n] = "ulps", v[n++] = attr_int(m, a->i, NULL);
  keys[n] = "mode";
  v[n++] = attr_enum(m, "result_accuracy_mode", ba_enum_value(EN_ACCURACY_MODE, a->elems[0]->i));
  return attr_dict(m, "stablehlo.result_accuracy", n, keys, v);
}

/* A type as an attribute.  Types that are not types of values here are
   what the text frontend makes of their names: bare keywords. */
static Attr *type_attr(Bc *bc, const BT *t, uint32_t off) {
  Module *m = bc->m;
  if (t->kind == BT_ELEM || bt_is_value(t)) return attr_type(m, t->t);
  if (t->kind == BT_INDEX) return attr_type(m, type_scalar(&m->arena, ET_S64));
  if (t->kind == BT_NONE) return attr_enum(m, NULL, "none");
  if (t->kind == BT_OTHER && strcmp(t->name, "tf32") == 0) return attr_enum(m, NULL, "tf32");
  bc_fail(bc, bc->base + off, "a type attribute xlac cannot represent (%s)",
          t->kind == BT_OTHER ? t->name : "a function type");
  return NULL;
}

static void mute(DiagLevel lvl, SrcLoc loc, const char *msg, void *ud) {}

/* An attribute its dialect wrote as assembly text (one without a bytecode
   encoding, such as sdy's shardings): whatever the text frontend makes of
   that text, which is what it would make of it in a module. */
static Attr *text_attr(Bc *bc, const BA *a) {
  char *text = xasprintf("{a = %s}", a->s);
  DiagContext saved = diag_context_get();
  diag_set_hook(mute, NULL);
  Attr *d = stablehlo_parse_attr_dict(bc->m, -1, text, strlen(text));
  diag_set_hook(saved.hook, saved.ud);
  xfree(text);
  if (d && d->n == 1) return d->elems[0];
  bc_fail(bc, bc->base + a->off, "an attribute in assembly form that xlac cannot read: %s", a->s);
  return NULL;
}

/* Shardy's attributes: shardings and meshes in the canonical text of
   src/ir/sharding.h, rules and manual axes as the text Shardy prints. */
static Attr *sdy_attr(Bc *bc, const BA *a) {
  Module *m = bc->m;
  switch (a->sdy) {
  case SDY_SHARDING: return attr_sdy_sharding(m, a->ptr);
  case SDY_PER_VALUE: return attr_sdy_per_value(m, a->n, a->ptr);
  case SDY_MESH: return attr_sdy_mesh(m, a->ptr);
  case SDY_RULE:
  case SDY_MANUAL_AXES: {
    Attr *r = ARENA_NEW(&m->arena, Attr);
    r->kind = ATTR_OPAQUE;
    if (a->sdy == SDY_RULE) {
      r->s = a->s;
      r->slen = a->slen;
    } else {
      StrBuf b = {0};
      sb_puts(&b, "#sdy<manual_axes{");
      for (int i = 0; i < a->n; i++) {
        SdyAxisRef ref = {a->elems[i]->s, 0, 0};
        if (i) sb_puts(&b, ", ");
        sdy_print_axis_ref(&b, &ref);
      }
      sb_puts(&b, "}>");
      r->slen = b.len;
      r->s = arena_strndup(&m->arena, b.data, b.len);
      sb_free(&b);
    }
    return r;
  }
  default: break;
  }
  bc_fail(bc, bc->base + a->off, "unsupported attribute: a Shardy attribute that is a part of others");
  return NULL;
}

Attr *bc_convert_attr(Bc *bc, const BA *a) {
  Module *m = bc->m;
  switch (a->kind) {
  case BA_UNIT: return attr_unit(m);
  case BA_BOOL: return attr_bool(m, a->i != 0);
  case BA_INT: return attr_int(m, a->i, attr_type_of(a->ty));
  case BA_FLOAT: return attr_float(m, a->f, attr_type_of(a->ty));
  case BA_STRING: return attr_string(m, a->s, a->slen);
  case BA_SYMBOL: return attr_symbol(m, a->s);
  case BA_ARRAY: return convert_list(bc, a->elems, a->n);
  case BA_DICT: return convert_dict(bc, a);
  case BA_DENSE: {
    Attr *r = attr_dense(m, a->lit);
    if (a->splat) ptrmap_put(&bc->splats, r, a->splat);
    return r;
  }
  case BA_INTS: {
    Attr *r = attr_ints(m, a->n, a->ints);
    if (a->ty && a->ty->kind == BT_ELEM && a->ty->et == ET_PRED) r->kind = ATTR_BOOLS;
    return r;
  }
  case BA_TYPE: return type_attr(bc, a->ty, a->off);
  case BA_ENUM:
    /* StableHLO prints the API version as its number */
    if (a->ekind == EN_API_VERSION) return attr_int(m, a->i, type_scalar(&m->arena, ET_S32));
    return attr_enum(m, ba_enum_name(a->ekind), ba_enum_value(a->ekind, a->i));
  case BA_ALIAS: return convert_alias(bc, a);
  case BA_ACCURACY: return convert_accuracy(bc, a);
  case BA_TEXT: return text_attr(bc, a);
  case BA_SDY: return sdy_attr(bc, a);
  case BA_FOREIGN:
    bc_fail(bc, bc->base + a->off, "unsupported attribute: one in dialect '%s', whose encoding xlac does not read", a->s);
    return NULL;
  case BA_LOC:
  case BA_OTHER: break;
  }
  bc_fail(bc, bc->base + a->off, "unsupported attribute: %s", a->kind == BA_LOC ? "a location" : a->s);
  return NULL;
}
