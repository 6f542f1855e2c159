/*
 * hlo_proto.c - a serialized HloModuleProto to the xlac IR.
 *
 * The proto is read with protobuf-c (the messages are declared in
 * hlo.proto), then written out as HLO text, which the HLO text frontend
 * parses (hlo_parse.c).  Both forms of a module therefore give the same IR
 * by construction, every opcode the text frontend knows is known here too,
 * and the rules about what a module may contain live in one place.  The
 * text is registered as a source of its own, named after the file with
 * "[hlo]" appended, one instruction per line with its metadata (the
 * TensorFlow or JAX op name); every later diagnostic (parser, verifier,
 * compiler) points at that line, the way a binary GraphDef's diagnostics
 * point at its node listing.
 *
 * What the conversion itself rejects (malformed wire data, an operand or
 * computation id that names nothing, literals whose value count does not
 * match their shape) is reported at file:OFFSET of the proto: the record of
 * the computation concerned, or the byte where the wire data goes wrong.
 */
#include "frontends/hlo/hlo.h"

#include <stdio.h>
#include <string.h>

#include "frontends/tensorflow/pb.h"
#include "hlo.pb-c.h"
#include "ir/literal.h"

typedef Hloproto__HloModuleProto PModule;
typedef Hloproto__HloComputationProto PComp;
typedef Hloproto__HloInstructionProto PInst;
typedef Hloproto__ShapeProto PShape;
typedef Hloproto__LiteralProto PLiteral;

/* Bounds the nesting of tuple shapes written out (the wire reader bounds
   message nesting already; this keeps the writer's recursion obviously
   finite). */
#define MAX_SHAPE_DEPTH 64

typedef struct W {
  int file; /* the proto */
  PbLocs locs;
  const PModule *mp;
  StrBuf b;
  bool failed;
  const char **comp_names; /* per computation, unique in the module */
  /* the computation being written: its instruction names by index, and
     an id -> index map */
  const PComp *comp;
  size_t comp_index;
  const char **inst_names;
  StrMap inst_ids;
} W;

static bool fail(W *w, const char *fmt, ...) XLAC_PRINTF(2, 3);
static bool fail(W *w, const char *fmt, ...) {
  if (w->failed) return false;
  w->failed = true;
  SrcLoc loc = w->comp ? pb_field_loc(&w->locs, w->file, 3, w->comp_index) : (SrcLoc){w->file, 0};
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (w->comp) error_at(loc, "HloModuleProto, computation '%s': %s", w->comp->name, msg);
  else error_at(loc, "HloModuleProto: %s", msg);
  return false;
}

/* ---- names ---- */

static bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '-' || c == '$';
}

/* A name the text frontend reads back (HLO name characters only) and that
   no earlier name in `taken` has; allocated in `a`. */
static const char *unique_name(Arena *a, StrMap *taken, const char *want, const char *fallback, int64_t id) {
  StrBuf b = {0};
  for (const char *s = want ? want : ""; *s; s++) sb_putc(&b, name_char(*s) ? *s : '_');
  if (!b.len) sb_printf(&b, "%s.%lld", fallback, (long long)id);
  size_t base = b.len;
  for (int k = 1; strmap_get(taken, b.data); k++) {
    b.len = base;
    sb_printf(&b, ".%d", k);
  }
  const char *r = arena_strndup(a, b.data, b.len);
  strmap_put(taken, r, (void *)1);
  sb_free(&b);
  return r;
}

static void put_string(StrBuf *b, const char *s, size_t n) {
  sb_putc(b, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') sb_printf(b, "\\%c", c);
    else if (c < 0x20 || c >= 0x7f) sb_printf(b, "\\x%02x", c);
    else sb_putc(b, (char)c);
  }
  sb_putc(b, '"');
}

/* ", frontend_attributes={k=v,...}" (keys made names), nothing when empty. */
static void put_frontend_attributes(StrBuf *b, const Hloproto__FrontendAttributes *fa) {
  if (!fa || !fa->n_map) return;
  sb_puts(b, ", frontend_attributes={");
  for (size_t i = 0; i < fa->n_map; i++) {
    const Hloproto__FrontendAttributes__MapEntry *e = fa->map[i];
    if (i) sb_putc(b, ',');
    for (const char *s = e->key; *s; s++) sb_putc(b, name_char(*s) ? *s : '_');
    if (!*e->key) sb_putc(b, '_');
    sb_putc(b, '=');
    put_string(b, e->value, strlen(e->value));
  }
  sb_putc(b, '}');
}

static void put_ints(StrBuf *b, size_t n, const int64_t *v) {
  sb_putc(b, '{');
  for (size_t i = 0; i < n; i++) sb_printf(b, "%s%lld", i ? "," : "", (long long)v[i]);
  sb_putc(b, '}');
}

/* ---- shapes ---- */

static const char *elem_name(int t) {
  switch (t) {
  case HLOPROTO__PRIMITIVE_TYPE__PRED: return "pred";
  case HLOPROTO__PRIMITIVE_TYPE__S2: return "s2";
  case HLOPROTO__PRIMITIVE_TYPE__S4: return "s4";
  case HLOPROTO__PRIMITIVE_TYPE__S8: return "s8";
  case HLOPROTO__PRIMITIVE_TYPE__S16: return "s16";
  case HLOPROTO__PRIMITIVE_TYPE__S32: return "s32";
  case HLOPROTO__PRIMITIVE_TYPE__S64: return "s64";
  case HLOPROTO__PRIMITIVE_TYPE__U2: return "u2";
  case HLOPROTO__PRIMITIVE_TYPE__U4: return "u4";
  case HLOPROTO__PRIMITIVE_TYPE__U8: return "u8";
  case HLOPROTO__PRIMITIVE_TYPE__U16: return "u16";
  case HLOPROTO__PRIMITIVE_TYPE__U32: return "u32";
  case HLOPROTO__PRIMITIVE_TYPE__U64: return "u64";
  case HLOPROTO__PRIMITIVE_TYPE__F16: return "f16";
  case HLOPROTO__PRIMITIVE_TYPE__BF16: return "bf16";
  case HLOPROTO__PRIMITIVE_TYPE__F32: return "f32";
  case HLOPROTO__PRIMITIVE_TYPE__F64: return "f64";
  case HLOPROTO__PRIMITIVE_TYPE__C64: return "c64";
  case HLOPROTO__PRIMITIVE_TYPE__C128: return "c128";
  case HLOPROTO__PRIMITIVE_TYPE__F8E5M2: return "f8e5m2";
  case HLOPROTO__PRIMITIVE_TYPE__F8E4M3FN: return "f8e4m3fn";
  case HLOPROTO__PRIMITIVE_TYPE__F8E4M3B11FNUZ: return "f8e4m3b11fnuz";
  case HLOPROTO__PRIMITIVE_TYPE__F8E5M2FNUZ: return "f8e5m2fnuz";
  case HLOPROTO__PRIMITIVE_TYPE__F8E4M3FNUZ: return "f8e4m3fnuz";
  case HLOPROTO__PRIMITIVE_TYPE__F8E4M3: return "f8e4m3";
  case HLOPROTO__PRIMITIVE_TYPE__F8E3M4: return "f8e3m4";
  case HLOPROTO__PRIMITIVE_TYPE__F4E2M1FN: return "f4e2m1fn";
  case HLOPROTO__PRIMITIVE_TYPE__F8E8M0FNU: return "f8e8m0fnu";
  default: return NULL;
  }
}

static bool put_shape(W *w, const PShape *s, int depth) {
  StrBuf *b = &w->b;
  if (!s) return fail(w, "an instruction has no shape");
  if (depth > MAX_SHAPE_DEPTH) return fail(w, "a tuple shape nests more than %d deep", MAX_SHAPE_DEPTH);
  if (s->element_type == HLOPROTO__PRIMITIVE_TYPE__TUPLE) {
    sb_putc(b, '(');
    for (size_t i = 0; i < s->n_tuple_shapes; i++) {
      if (i) sb_puts(b, ", ");
      if (!put_shape(w, s->tuple_shapes[i], depth + 1)) return false;
    }
    sb_putc(b, ')');
    return true;
  }
  if (s->element_type == HLOPROTO__PRIMITIVE_TYPE__TOKEN) {
    sb_puts(b, "token[]");
    return true;
  }
  const char *et = elem_name(s->element_type);
  if (!et) return fail(w, "element type %d is not one xlac reads", (int)s->element_type);
  sb_printf(b, "%s[", et);
  for (size_t i = 0; i < s->n_dimensions; i++) {
    bool dyn = i < s->n_is_dynamic_dimension && s->is_dynamic_dimension[i];
    sb_printf(b, "%s%s%lld", i ? "," : "", dyn ? "<=" : "", (long long)s->dimensions[i]);
  }
  sb_putc(b, ']');
  const Hloproto__LayoutProto *l = s->layout;
  if (l && l->n_minor_to_major == s->n_dimensions && s->n_dimensions > 0) put_ints(b, l->n_minor_to_major, l->minor_to_major);
  return true;
}

/* ---- literals ---- */

/* The element type of the text frontend for a proto element type. */
static ElemType elem_type(int t) {
  const char *n = elem_name(t);
  return n ? et_from_hlo(n, strlen(n)) : ET_INVALID;
}

static size_t count_for(const PLiteral *l, ElemType et, size_t *bytes_per) {
  *bytes_per = 0;
  switch (et) {
  case ET_PRED: return l->n_preds;
  case ET_S32: return l->n_s32s;
  case ET_S64: return l->n_s64s;
  case ET_U32: return l->n_u32s;
  case ET_U64: return l->n_u64s;
  case ET_F32: return l->n_f32s;
  case ET_F64: return l->n_f64s;
  case ET_C64: return l->n_c64s / 2;
  case ET_C128: return l->n_c128s / 2;
  default: break;
  }
  const ProtobufCBinaryData *d = NULL;
  size_t per = 1;
  switch (et) {
  case ET_S8: d = &l->s8s; break;
  case ET_U8: d = &l->u8s; break;
  case ET_S16: d = &l->s16s, per = 2; break;
  case ET_U16: d = &l->u16s, per = 2; break;
  case ET_F16: d = &l->f16s, per = 2; break;
  case ET_BF16: d = &l->bf16s, per = 2; break;
  case ET_S4: d = &l->s4s; break;
  case ET_U4: d = &l->u4s; break;
  case ET_S2: d = &l->s2s; break;
  case ET_U2: d = &l->u2s; break;
  case ET_F8E5M2: d = &l->f8e5m2s; break;
  case ET_F8E4M3FN: d = &l->f8e4m3fns; break;
  case ET_F8E4M3B11FNUZ: d = &l->f8e4m3b11fnuzs; break;
  case ET_F8E5M2FNUZ: d = &l->f8e5m2fnuzs; break;
  case ET_F8E4M3FNUZ: d = &l->f8e4m3fnuzs; break;
  case ET_F8E4M3: d = &l->f8e4m3s; break;
  case ET_F8E3M4: d = &l->f8e3m4s; break;
  case ET_F4E2M1FN: d = &l->f4e2m1fns; break;
  case ET_F8E8M0FNU: d = &l->f8e8m0fnus; break;
  default: return 0;
  }
  *bytes_per = per;
  return d->len / per;
}

/* Element j of the proto's values (in the literal's layout order) into
   element i of l. */
static void copy_elem(Literal *l, int64_t i, const PLiteral *p, ElemType et, size_t j, bool packed) {
  switch (et) {
  case ET_PRED: lit_set_b(l, i, p->preds[j]); return;
  case ET_S32: lit_set_i(l, i, p->s32s[j]); return;
  case ET_S64: lit_set_i(l, i, p->s64s[j]); return;
  case ET_U32: lit_set_u(l, i, p->u32s[j]); return;
  case ET_U64: lit_set_u(l, i, p->u64s[j]); return;
  case ET_F32: lit_set_f(l, i, p->f32s[j]); return;
  case ET_F64: lit_set_f(l, i, p->f64s[j]); return;
  case ET_C64: lit_set_c(l, i, p->c64s[2 * j], p->c64s[2 * j + 1]); return;
  case ET_C128: lit_set_c(l, i, p->c128s[2 * j], p->c128s[2 * j + 1]); return;
  default: break;
  }
  size_t per;
  (void)count_for(p, et, &per);
  const ProtobufCBinaryData *d = NULL;
  switch (et) {
  case ET_S8: d = &p->s8s; break;
  case ET_U8: d = &p->u8s; break;
  case ET_S16: d = &p->s16s; break;
  case ET_U16: d = &p->u16s; break;
  case ET_F16: d = &p->f16s; break;
  case ET_BF16: d = &p->bf16s; break;
  case ET_S4: d = &p->s4s; break;
  case ET_U4: d = &p->u4s; break;
  case ET_S2: d = &p->s2s; break;
  case ET_U2: d = &p->u2s; break;
  case ET_F8E5M2: d = &p->f8e5m2s; break;
  case ET_F8E4M3FN: d = &p->f8e4m3fns; break;
  case ET_F8E4M3B11FNUZ: d = &p->f8e4m3b11fnuzs; break;
  case ET_F8E5M2FNUZ: d = &p->f8e5m2fnuzs; break;
  case ET_F8E4M3FNUZ: d = &p->f8e4m3fnuzs; break;
  case ET_F8E4M3: d = &p->f8e4m3s; break;
  case ET_F8E3M4: d = &p->f8e3m4s; break;
  case ET_F4E2M1FN: d = &p->f4e2m1fns; break;
  case ET_F8E8M0FNU: d = &p->f8e8m0fnus; break;
  default: return;
  }
  uint64_t bits;
  if (packed) bits = (d->data[j / 2] >> (4 * (j % 2))) & 0xf; /* two 4-bit values a byte, low first */
  else if (per == 2) bits = (uint64_t)d->data[2 * j] | (uint64_t)d->data[2 * j + 1] << 8;
  else bits = d->data[j];
  int nb = et_bits(et);
  if (nb < 8) bits &= (1u << nb) - 1;
  lit_set_bits(l, i, bits);
}

/* `constant(...)`'s text for literal p of shape s. */
static bool put_literal(W *w, const PInst *in) {
  const PLiteral *p = in->literal;
  const PShape *s = p && p->shape ? p->shape : in->shape;
  if (!s || s->element_type == HLOPROTO__PRIMITIVE_TYPE__TUPLE || s->element_type == HLOPROTO__PRIMITIVE_TYPE__TOKEN)
    return true; /* the text frontend says what it thinks of tuple constants */
  if (!p) return fail(w, "constant '%s' has no literal", in->name);
  ElemType et = elem_type(s->element_type);
  if (et == ET_INVALID) return fail(w, "constant '%s': element type %d is not one xlac reads", in->name, (int)s->element_type);
  if (s->n_dimensions > 64) return fail(w, "constant '%s' has rank %zu (at most 64)", in->name, s->n_dimensions);
  int64_t n = 1;
  for (size_t i = 0; i < s->n_dimensions; i++) {
    int64_t d = s->dimensions[i];
    if (d < 0 || (d && n > INT64_MAX / 16 / d)) return fail(w, "constant '%s' has an invalid shape", in->name);
    n *= d;
  }
  size_t per;
  size_t have = count_for(p, et, &per);
  bool packed = false;
  if (et_bits(et) == 4 && have != (size_t)n && have == (size_t)(n + 1) / 2 && n > 1) {
    packed = true;
    have = (size_t)n;
  }
  if (have != (size_t)n)
    return fail(w, "constant '%s' has %zu values for its %lld elements", in->name, have, (long long)n);
  int rank = (int)s->n_dimensions;
  Arena a;
  arena_init(&a);
  Type *t = type_tensor(&a, et, rank, s->dimensions);
  Literal *l = lit_new(t);
  /* the values are in the literal's layout order: walk the elements in
     that order, counting the row-major index as we go */
  const Hloproto__LayoutProto *lay = s->layout;
  bool reordered = lay && lay->n_minor_to_major == (size_t)rank && rank > 1;
  if (reordered) {
    bool seen[64] = {0};
    for (int k = 0; k < rank; k++) {
      int64_t d = lay->minor_to_major[k];
      if (d < 0 || d >= rank || seen[d]) {
        lit_free(l);
        arena_free(&a);
        return fail(w, "constant '%s' has an invalid layout", in->name);
      }
      seen[d] = true;
    }
  }
  if (!reordered) {
    for (int64_t i = 0; i < n; i++) copy_elem(l, i, p, et, (size_t)i, packed);
  } else {
    int64_t idx[64] = {0}, stride[64];
    stride[rank - 1] = 1;
    for (int k = rank - 2; k >= 0; k--) stride[k] = stride[k + 1] * s->dimensions[k + 1];
    for (int64_t j = 0; j < n; j++) {
      int64_t i = 0;
      for (int k = 0; k < rank; k++) i += idx[k] * stride[k];
      copy_elem(l, i, p, et, (size_t)j, packed);
      for (int k = 0; k < rank; k++) { /* next in memory order: minor-most first */
        int64_t d = lay->minor_to_major[k];
        if (++idx[d] < s->dimensions[d]) break;
        idx[d] = 0;
      }
    }
  }
  lit_print_hlo_body(&w->b, l);
  lit_free(l);
  arena_free(&a);
  return true;
}

/* ---- instructions ---- */

/* An instruction's id within its computation.  XLA now writes an
   instruction's id as its computation's id in the high 32 bits and a local
   id in the low ones, and operands by the local id alone (what TensorFlow
   hands a PJRT plugin); older protos number instructions across the module
   with small ids, which are their own low bits. */
static long long local_id(int64_t id) { return (long long)(id & 0xffffffff); }

static const char *inst_name(W *w, int64_t id) {
  char key[32];
  snprintf(key, sizeof key, "%lld", local_id(id));
  void *v = strmap_get(&w->inst_ids, key);
  return v ? w->inst_names[(intptr_t)v - 1] : NULL;
}

static const PInst *inst_by_id(W *w, int64_t id) {
  char key[32];
  snprintf(key, sizeof key, "%lld", local_id(id));
  void *v = strmap_get(&w->inst_ids, key);
  return v ? w->comp->instructions[(intptr_t)v - 1] : NULL;
}

static const char *comp_name(W *w, int64_t id) {
  for (size_t i = 0; i < w->mp->n_computations; i++)
    if (w->mp->computations[i]->id == id) return w->comp_names[i];
  return NULL;
}

static bool is(const PInst *in, const char *opc) { return !strcmp(in->opcode, opc); }

static bool put_comp_ref(W *w, const PInst *in, size_t k) {
  if (k >= in->n_called_computation_ids)
    return fail(w, "instruction '%s' (%s) calls %zu computations, expected more", in->name, in->opcode,
                in->n_called_computation_ids);
  const char *n = comp_name(w, in->called_computation_ids[k]);
  if (!n)
    return fail(w, "instruction '%s' calls computation id %lld, which the module does not have", in->name,
                (long long)in->called_computation_ids[k]);
  sb_printf(&w->b, "%%%s", n);
  return true;
}

static void put_window(W *w, const Hloproto__Window *win) {
  StrBuf *b = &w->b;
  size_t n = win->n_dimensions;
  Hloproto__WindowDimension **d = win->dimensions;
  sb_puts(b, ", window={size=");
  for (size_t i = 0; i < n; i++) sb_printf(b, "%s%lld", i ? "x" : "", (long long)d[i]->size);
  sb_puts(b, " stride=");
  for (size_t i = 0; i < n; i++) sb_printf(b, "%s%lld", i ? "x" : "", (long long)d[i]->stride);
  sb_puts(b, " pad=");
  for (size_t i = 0; i < n; i++)
    sb_printf(b, "%s%lld_%lld", i ? "x" : "", (long long)d[i]->padding_low, (long long)d[i]->padding_high);
  /* dilations absent from older protos mean 1 */
  sb_puts(b, " lhs_dilate=");
  for (size_t i = 0; i < n; i++) sb_printf(b, "%s%lld", i ? "x" : "", (long long)(d[i]->base_dilation ? d[i]->base_dilation : 1));
  sb_puts(b, " rhs_dilate=");
  for (size_t i = 0; i < n; i++)
    sb_printf(b, "%s%lld", i ? "x" : "", (long long)(d[i]->window_dilation ? d[i]->window_dilation : 1));
  sb_puts(b, " rhs_reversal=");
  for (size_t i = 0; i < n; i++) sb_printf(b, "%s%d", i ? "x" : "", d[i]->window_reversal ? 1 : 0);
  sb_putc(b, '}');
}

/* dim_labels=b01f_01io->b01f; letters the proto does not place stay '?',
   which the text frontend reports. */
static void put_dim_labels(W *w, const Hloproto__ConvolutionDimensionNumbers *c) {
  size_t ns = c->n_input_spatial_dimensions;
  char part[3][80];
  const int64_t *sp[3] = {c->input_spatial_dimensions, c->kernel_spatial_dimensions, c->output_spatial_dimensions};
  size_t nsp[3] = {c->n_input_spatial_dimensions, c->n_kernel_spatial_dimensions, c->n_output_spatial_dimensions};
  int64_t d1[3] = {c->input_batch_dimension, c->kernel_input_feature_dimension, c->output_batch_dimension};
  int64_t d2[3] = {c->input_feature_dimension, c->kernel_output_feature_dimension, c->output_feature_dimension};
  const char l1[3] = {'b', 'i', 'b'}, l2[3] = {'f', 'o', 'f'};
  for (int k = 0; k < 3; k++) {
    size_t len = (nsp[k] > ns ? nsp[k] : ns) + 2;
    if (len > 64) len = 64;
    memset(part[k], '?', len);
    part[k][len] = 0;
    if (d1[k] >= 0 && (size_t)d1[k] < len) part[k][d1[k]] = l1[k];
    if (d2[k] >= 0 && (size_t)d2[k] < len) part[k][d2[k]] = l2[k];
    for (size_t i = 0; i < nsp[k] && i < 10; i++)
      if (sp[k][i] >= 0 && (size_t)sp[k][i] < len) part[k][sp[k][i]] = (char)('0' + i);
  }
  sb_printf(&w->b, ", dim_labels=%s_%s->%s", part[0], part[1], part[2]);
}

static void put_replica_groups(W *w, const PInst *in) {
  StrBuf *b = &w->b;
  const Hloproto__IotaReplicaGroupListProto *iota = in->iota_collective_device_list;
  Hloproto__ReplicaGroup **g = in->replica_groups;
  size_t ng = in->n_replica_groups;
  if (in->collective_device_list) {
    if (in->collective_device_list->iota_replica_group_list) iota = in->collective_device_list->iota_replica_group_list;
    if (in->collective_device_list->n_replica_groups) {
      g = in->collective_device_list->replica_groups;
      ng = in->collective_device_list->n_replica_groups;
    }
  }
  if (iota && !ng) {
    sb_printf(b, ", replica_groups=[%lld,%lld]<=[", (long long)iota->num_replica_groups,
              (long long)iota->num_devices_per_group);
    for (size_t i = 0; i < iota->n_iota_reshape_dims; i++)
      sb_printf(b, "%s%lld", i ? "," : "", (long long)iota->iota_reshape_dims[i]);
    if (!iota->n_iota_reshape_dims) sb_printf(b, "%lld", (long long)(iota->num_replica_groups * iota->num_devices_per_group));
    sb_putc(b, ']');
    if (iota->n_iota_transpose_perm) {
      sb_puts(b, "T(");
      for (size_t i = 0; i < iota->n_iota_transpose_perm; i++) sb_printf(b, "%s%d", i ? "," : "", iota->iota_transpose_perm[i]);
      sb_putc(b, ')');
    }
    return;
  }
  if (!ng) return;
  sb_puts(b, ", replica_groups={");
  for (size_t i = 0; i < ng; i++) {
    if (i) sb_putc(b, ',');
    put_ints(b, g[i]->n_replica_ids, g[i]->replica_ids);
  }
  sb_putc(b, '}');
}

static const char *const PRECISIONS[] = {"default", "high", "highest"};
static const char *const FFT_TYPES[] = {"FFT", "IFFT", "RFFT", "IRFFT"};
static const char *const RNG_DISTS[] = {"rng_invalid", "rng_uniform", "rng_normal"};
static const char *const RNG_ALGS[] = {"rng_default", "rng_three_fry", "rng_philox"};
static const char *const TRANSPOSES[] = {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"};
static const char *const API_VERSIONS[] = {"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL",
                                           "API_VERSION_STATUS_RETURNING",
                                           "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"};
#define ENUM_NAME(table, v) ((unsigned)(v) < ARRAY_LEN(table) ? table[(v)] : "unknown")

/* Opcodes whose `dimensions` the text frontend requires, even empty. */
static bool needs_dimensions(const PInst *in) {
  static const char *const ops[] = {"broadcast", "transpose", "reverse", "reduce", "concatenate",
                                    "sort", "get-dimension-size", "set-dimension-size"};
  for (size_t i = 0; i < ARRAY_LEN(ops); i++)
    if (is(in, ops[i])) return true;
  return false;
}

static bool put_attrs(W *w, const PInst *in) {
  StrBuf *b = &w->b;
  if (is(in, "get-tuple-element")) sb_printf(b, ", index=%lld", (long long)in->tuple_index);
  if (is(in, "iota")) {
    if (in->n_dimensions != 1) return fail(w, "iota '%s' has %zu dimensions, expected one", in->name, in->n_dimensions);
    sb_printf(b, ", iota_dimension=%lld", (long long)in->dimensions[0]);
  } else if (in->n_dimensions || needs_dimensions(in)) {
    sb_puts(b, ", dimensions=");
    put_ints(b, in->n_dimensions, in->dimensions);
  }
  if (in->n_slice_dimensions) {
    sb_puts(b, ", slice={");
    for (size_t i = 0; i < in->n_slice_dimensions; i++) {
      const Hloproto__HloInstructionProto__SliceDimensions *s = in->slice_dimensions[i];
      sb_printf(b, "%s[%lld:%lld:%lld]", i ? ", " : "", (long long)s->start, (long long)s->limit, (long long)s->stride);
    }
    sb_putc(b, '}');
  }
  if (in->n_dynamic_slice_sizes) {
    sb_puts(b, ", dynamic_slice_sizes=");
    put_ints(b, in->n_dynamic_slice_sizes, in->dynamic_slice_sizes);
  }
  if (in->padding_config && is(in, "pad")) {
    sb_puts(b, ", padding=");
    for (size_t i = 0; i < in->padding_config->n_dimensions; i++) {
      const Hloproto__PaddingConfig__PaddingConfigDimension *d = in->padding_config->dimensions[i];
      sb_printf(b, "%s%lld_%lld_%lld", i ? "x" : "", (long long)d->edge_padding_low, (long long)d->edge_padding_high,
                (long long)d->interior_padding);
    }
    if (!in->padding_config->n_dimensions) sb_puts(b, "0_0");
  }
  if (in->window && in->window->n_dimensions) put_window(w, in->window);
  if (in->convolution_dimension_numbers && is(in, "convolution")) put_dim_labels(w, in->convolution_dimension_numbers);
  if (in->feature_group_count > 1) sb_printf(b, ", feature_group_count=%lld", (long long)in->feature_group_count);
  if (in->batch_group_count > 1) sb_printf(b, ", batch_group_count=%lld", (long long)in->batch_group_count);
  if (in->dot_dimension_numbers) {
    const Hloproto__DotDimensionNumbers *d = in->dot_dimension_numbers;
    if (d->n_lhs_batch_dimensions) sb_puts(b, ", lhs_batch_dims="), put_ints(b, d->n_lhs_batch_dimensions, d->lhs_batch_dimensions);
    sb_puts(b, ", lhs_contracting_dims=");
    put_ints(b, d->n_lhs_contracting_dimensions, d->lhs_contracting_dimensions);
    if (d->n_rhs_batch_dimensions) sb_puts(b, ", rhs_batch_dims="), put_ints(b, d->n_rhs_batch_dimensions, d->rhs_batch_dimensions);
    sb_puts(b, ", rhs_contracting_dims=");
    put_ints(b, d->n_rhs_contracting_dimensions, d->rhs_contracting_dimensions);
  }
  if (in->precision_config && in->precision_config->n_operand_precision) {
    sb_puts(b, ", operand_precision={");
    for (size_t i = 0; i < in->precision_config->n_operand_precision; i++)
      sb_printf(b, "%s%s", i ? "," : "", ENUM_NAME(PRECISIONS, in->precision_config->operand_precision[i]));
    sb_putc(b, '}');
  }
  if (in->gather_dimension_numbers) {
    const Hloproto__GatherDimensionNumbers *g = in->gather_dimension_numbers;
    sb_puts(b, ", offset_dims="), put_ints(b, g->n_offset_dims, g->offset_dims);
    sb_puts(b, ", collapsed_slice_dims="), put_ints(b, g->n_collapsed_slice_dims, g->collapsed_slice_dims);
    sb_puts(b, ", start_index_map="), put_ints(b, g->n_start_index_map, g->start_index_map);
    if (g->n_operand_batching_dims)
      sb_puts(b, ", operand_batching_dims="), put_ints(b, g->n_operand_batching_dims, g->operand_batching_dims);
    if (g->n_start_indices_batching_dims)
      sb_puts(b, ", start_indices_batching_dims="),
          put_ints(b, g->n_start_indices_batching_dims, g->start_indices_batching_dims);
    sb_printf(b, ", index_vector_dim=%lld", (long long)g->index_vector_dim);
  }
  if (in->n_gather_slice_sizes) sb_puts(b, ", slice_sizes="), put_ints(b, in->n_gather_slice_sizes, in->gather_slice_sizes);
  if (in->scatter_dimension_numbers) {
    const Hloproto__ScatterDimensionNumbers *s = in->scatter_dimension_numbers;
    sb_puts(b, ", update_window_dims="), put_ints(b, s->n_update_window_dims, s->update_window_dims);
    sb_puts(b, ", inserted_window_dims="), put_ints(b, s->n_inserted_window_dims, s->inserted_window_dims);
    sb_puts(b, ", scatter_dims_to_operand_dims="),
        put_ints(b, s->n_scatter_dims_to_operand_dims, s->scatter_dims_to_operand_dims);
    if (s->n_input_batching_dims) sb_puts(b, ", input_batching_dims="), put_ints(b, s->n_input_batching_dims, s->input_batching_dims);
    if (s->n_scatter_indices_batching_dims)
      sb_puts(b, ", scatter_indices_batching_dims="),
          put_ints(b, s->n_scatter_indices_batching_dims, s->scatter_indices_batching_dims);
    sb_printf(b, ", index_vector_dim=%lld", (long long)s->index_vector_dim);
  }
  if (in->indices_are_sorted) sb_puts(b, ", indices_are_sorted=true");
  if (in->unique_indices) sb_puts(b, ", unique_indices=true");
  if (in->comparison_direction && *in->comparison_direction) {
    sb_puts(b, ", direction=");
    for (const char *s = in->comparison_direction; *s; s++) sb_putc(b, name_char(*s) ? *s : '?');
  }
  if (in->comparison_type && *in->comparison_type) {
    sb_puts(b, ", type=");
    for (const char *s = in->comparison_type; *s; s++) sb_putc(b, name_char(*s) ? *s : '?');
  }
  if (is(in, "sort") && in->is_stable) sb_puts(b, ", is_stable=true");
  if (is(in, "reduce-precision"))
    sb_printf(b, ", exponent_bits=%d, mantissa_bits=%d", (int)in->exponent_bits, (int)in->mantissa_bits);
  if (is(in, "rng")) sb_printf(b, ", distribution=%s", ENUM_NAME(RNG_DISTS, in->distribution));
  if (is(in, "rng-bit-generator")) sb_printf(b, ", algorithm=%s", ENUM_NAME(RNG_ALGS, in->rng_algorithm));
  if (!strncmp(in->opcode, "batch-norm-", 11))
    sb_printf(b, ", epsilon=%.9g, feature_index=%lld", (double)in->epsilon, (long long)in->feature_index);
  if (is(in, "fft")) {
    sb_printf(b, ", fft_type=%s, fft_length=", ENUM_NAME(FFT_TYPES, in->fft_type));
    put_ints(b, in->n_fft_length, in->fft_length);
  }
  if (in->triangular_solve_options) {
    const Hloproto__TriangularSolveOptions *t = in->triangular_solve_options;
    sb_printf(b, ", left_side=%s, lower=%s, unit_diagonal=%s, transpose_a=%s", t->left_side ? "true" : "false",
              t->lower ? "true" : "false", t->unit_diagonal ? "true" : "false", ENUM_NAME(TRANSPOSES, t->transpose_a));
  }
  if (in->cholesky_options) sb_printf(b, ", lower=%s", in->cholesky_options->lower ? "true" : "false");
  if (is(in, "topk")) sb_printf(b, ", k=%lld, largest=%s", (long long)in->k, in->largest ? "true" : "false");
  put_replica_groups(w, in);
  if (in->n_source_target_pairs) {
    sb_puts(b, ", source_target_pairs={");
    for (size_t i = 0; i < in->n_source_target_pairs; i++)
      sb_printf(b, "%s{%lld,%lld}", i ? "," : "", (long long)in->source_target_pairs[i]->source,
                (long long)in->source_target_pairs[i]->target);
    sb_putc(b, '}');
  }
  if (in->channel_id > 0) sb_printf(b, ", channel_id=%lld", (long long)in->channel_id);
  if (in->use_global_device_ids) sb_puts(b, ", use_global_device_ids=true");
  if (in->is_host_transfer) sb_puts(b, ", is_host_transfer=true");
  if (in->infeed_config.len && is(in, "infeed"))
    sb_puts(b, ", infeed_config="), put_string(b, (const char *)in->infeed_config.data, in->infeed_config.len);
  if (in->outfeed_config.len && is(in, "outfeed"))
    sb_puts(b, ", outfeed_config="), put_string(b, (const char *)in->outfeed_config.data, in->outfeed_config.len);
  if (is(in, "custom-call")) {
    sb_puts(b, ", custom_call_target=");
    put_string(b, in->custom_call_target, strlen(in->custom_call_target));
    if (in->custom_call_has_side_effect) sb_puts(b, ", custom_call_has_side_effect=true");
    if (in->custom_call_api_version) sb_printf(b, ", api_version=%s", ENUM_NAME(API_VERSIONS, in->custom_call_api_version));
    if (in->backend_config.len)
      sb_puts(b, ", backend_config="), put_string(b, (const char *)in->backend_config.data, in->backend_config.len);
  }
  /* called computations, by what the opcode calls them */
  size_t nc = in->n_called_computation_ids;
  bool ok = true;
  if (is(in, "while")) {
    /* XLA keeps the body first, then the condition */
    sb_puts(b, ", condition=");
    ok = put_comp_ref(w, in, 1);
    sb_puts(b, ", body=");
    ok = ok && put_comp_ref(w, in, 0);
  } else if (is(in, "conditional")) {
    const PInst *sel = in->n_operand_ids ? inst_by_id(w, in->operand_ids[0]) : NULL;
    if (sel && sel->shape && sel->shape->element_type == HLOPROTO__PRIMITIVE_TYPE__PRED && nc == 2) {
      sb_puts(b, ", true_computation=");
      ok = put_comp_ref(w, in, 0);
      sb_puts(b, ", false_computation=");
      ok = ok && put_comp_ref(w, in, 1);
    } else {
      sb_puts(b, ", branch_computations={");
      for (size_t i = 0; ok && i < nc; i++) {
        if (i) sb_puts(b, ", ");
        ok = put_comp_ref(w, in, i);
      }
      sb_putc(b, '}');
    }
  } else if (is(in, "select-and-scatter")) {
    sb_puts(b, ", select=");
    ok = put_comp_ref(w, in, 0);
    sb_puts(b, ", scatter=");
    ok = ok && put_comp_ref(w, in, 1);
  } else if (is(in, "fusion")) {
    sb_printf(b, ", kind=");
    for (const char *s = *in->fusion_kind ? in->fusion_kind : "kLoop"; *s; s++) sb_putc(b, name_char(*s) ? *s : '?');
    sb_puts(b, ", calls=");
    ok = put_comp_ref(w, in, 0);
  } else if (is(in, "custom-call") || (nc > 1 && !is(in, "async-start"))) {
    if (nc) {
      sb_puts(b, ", called_computations={");
      for (size_t i = 0; ok && i < nc; i++) {
        if (i) sb_puts(b, ", ");
        ok = put_comp_ref(w, in, i);
      }
      sb_putc(b, '}');
    }
  } else if (nc) {
    sb_puts(b, is(in, "async-start") ? ", calls=" : ", to_apply=");
    ok = put_comp_ref(w, in, 0);
  }
  if (!ok) return false;
  put_frontend_attributes(b, in->frontend_attributes);
  if (in->sharding) {
    const Hloproto__OpSharding *s = in->sharding;
    if (s->type == HLOPROTO__OP_SHARDING__TYPE__REPLICATED) sb_puts(b, ", sharding={replicated}");
    else if (s->type == HLOPROTO__OP_SHARDING__TYPE__MANUAL) sb_puts(b, ", sharding={manual}");
    else if (s->type == HLOPROTO__OP_SHARDING__TYPE__MAXIMAL && s->n_tile_assignment_devices == 1)
      sb_printf(b, ", sharding={maximal device=%lld}", (long long)s->tile_assignment_devices[0]);
  }
  const Hloproto__OpMetadata *md = in->metadata;
  if (md && (*md->op_type || *md->op_name || *md->source_file)) {
    sb_puts(b, ", metadata={");
    const char *sep = "";
    if (*md->op_type) sb_puts(b, "op_type="), put_string(b, md->op_type, strlen(md->op_type)), sep = " ";
    if (*md->op_name) sb_printf(b, "%sop_name=", sep), put_string(b, md->op_name, strlen(md->op_name)), sep = " ";
    if (*md->source_file) {
      sb_printf(b, "%ssource_file=", sep);
      put_string(b, md->source_file, strlen(md->source_file));
      sb_printf(b, " source_line=%d", (int)md->source_line);
    }
    sb_putc(b, '}');
  }
  return true;
}

static bool put_instruction(W *w, size_t i) {
  const PInst *in = w->comp->instructions[i];
  StrBuf *b = &w->b;
  for (const char *s = in->opcode; *s; s++)
    if (!name_char(*s)) return fail(w, "instruction '%s' has an invalid opcode", in->name);
  if (!*in->opcode) return fail(w, "instruction '%s' has no opcode", in->name);
  sb_printf(b, "  %s%%%s = ", local_id(in->id) == local_id(w->comp->root_id) ? "ROOT " : "", w->inst_names[i]);
  if (!put_shape(w, in->shape, 0)) return false;
  sb_printf(b, " %s(", in->opcode);
  if (is(in, "parameter")) {
    sb_printf(b, "%lld", (long long)in->parameter_number);
  } else if (is(in, "constant")) {
    if (!put_literal(w, in)) return false;
  } else {
    for (size_t k = 0; k < in->n_operand_ids; k++) {
      const char *n = inst_name(w, in->operand_ids[k]);
      if (!n)
        return fail(w, "instruction '%s' (%s): operand id %lld is not an instruction of this computation", in->name,
                    in->opcode, (long long)in->operand_ids[k]);
      sb_printf(b, "%s%%%s", k ? ", " : "", n);
    }
  }
  sb_putc(b, ')');
  if (!put_attrs(w, in)) return false;
  sb_putc(b, '\n');
  if (b->len > SRC_MAX_BYTES / 2) return fail(w, "the module is too large");
  return true;
}

static void put_program_shape(W *w, const Hloproto__ProgramShapeProto *ps) {
  StrBuf *b = &w->b;
  sb_puts(b, ", entry_computation_layout={(");
  for (size_t i = 0; i < ps->n_parameters; i++) {
    if (i) sb_puts(b, ", ");
    put_shape(w, ps->parameters[i], 0);
  }
  sb_puts(b, ")->");
  put_shape(w, ps->result, 0);
  sb_putc(b, '}');
}

static void put_index(StrBuf *b, size_t n, const int64_t *v) {
  sb_putc(b, '{');
  for (size_t i = 0; i < n; i++) sb_printf(b, "%s%lld", i ? "," : "", (long long)v[i]);
  sb_putc(b, '}');
}

static bool put_module(W *w) {
  const PModule *mp = w->mp;
  StrBuf *b = &w->b;
  Arena a;
  arena_init(&a);
  StrMap taken = {0};
  if (!mp->n_computations) {
    arena_free(&a);
    return fail(w, "the module has no computations");
  }
  w->comp_names = ARENA_ARRAY(&a, const char *, mp->n_computations);
  size_t entry = mp->n_computations - 1;
  bool by_id = false;
  for (size_t i = 0; i < mp->n_computations; i++) {
    const PComp *c = mp->computations[i];
    w->comp_names[i] = unique_name(&a, &taken, c->name, "computation", c->id);
    if (mp->entry_computation_id && c->id == mp->entry_computation_id) entry = i, by_id = true;
  }
  for (size_t i = 0; !by_id && *mp->entry_computation_name && i < mp->n_computations; i++)
    if (!strcmp(mp->computations[i]->name, mp->entry_computation_name)) entry = i;
  strmap_free(&taken);

  /* the header */
  sb_puts(b, "HloModule %");
  const char *mn = *mp->name ? mp->name : "module";
  for (const char *s = mn; *s; s++) sb_putc(b, name_char(*s) ? *s : '_');
  const PComp *ec = mp->computations[entry];
  const Hloproto__ProgramShapeProto *ps = ec->program_shape ? ec->program_shape : mp->host_program_shape;
  if (ps && ps->result) put_program_shape(w, ps);
  if (mp->input_output_alias && mp->input_output_alias->n_entries) {
    sb_puts(b, ", input_output_alias={ ");
    for (size_t i = 0; i < mp->input_output_alias->n_entries; i++) {
      const Hloproto__HloInputOutputAliasProto__AliasEntryProto *e = mp->input_output_alias->entries[i];
      if (i) sb_puts(b, ", ");
      put_index(b, e->n_output_shape_index, e->output_shape_index);
      sb_printf(b, ": (%lld, ", (long long)e->parameter_number);
      put_index(b, e->n_parameter_shape_index, e->parameter_shape_index);
      sb_puts(b, e->kind == HLOPROTO__KIND__MUST_ALIAS ? ", must-alias)" : ", may-alias)");
    }
    sb_puts(b, " }");
  }
  if (mp->buffer_donor && mp->buffer_donor->n_entries) {
    sb_puts(b, ", buffer_donor={ ");
    for (size_t i = 0; i < mp->buffer_donor->n_entries; i++) {
      const Hloproto__HloBufferDonorProto__BufferDonorEntryProto *e = mp->buffer_donor->entries[i];
      sb_printf(b, "%s(%lld, ", i ? ", " : "", (long long)e->parameter_number);
      put_index(b, e->n_parameter_shape_index, e->parameter_shape_index);
      sb_putc(b, ')');
    }
    sb_puts(b, " }");
  }
  put_frontend_attributes(b, mp->frontend_attributes);
  sb_puts(b, "\n\n");

  /* the computations, the entry last (as XLA prints them) */
  bool ok = !w->failed;
  for (size_t pass = 0; ok && pass < mp->n_computations; pass++) {
    size_t last = mp->n_computations - 1;
    size_t ci = pass == last ? entry : pass < entry ? pass : pass + 1;
    const PComp *c = mp->computations[ci];
    w->comp = c;
    w->comp_index = ci;
    w->inst_ids = (StrMap){0};
    StrMap names = {0};
    w->inst_names = ARENA_ARRAY(&a, const char *, c->n_instructions ? c->n_instructions : 1);
    for (size_t i = 0; i < c->n_instructions; i++) {
      const PInst *in = c->instructions[i];
      w->inst_names[i] = unique_name(&a, &names, in->name, "instruction", in->id);
      char key[32];
      snprintf(key, sizeof key, "%lld", local_id(in->id));
      if (strmap_get(&w->inst_ids, key)) {
        ok = fail(w, "instruction id %lld is used twice ('%s')", (long long)in->id, in->name);
        break;
      }
      strmap_put(&w->inst_ids, arena_strdup(&a, key), (void *)(intptr_t)(i + 1));
    }
    if (ok && !c->n_instructions) ok = fail(w, "the computation has no instructions");
    if (ok) {
      sb_printf(b, "%s%%%s {\n", ci == entry ? "ENTRY " : "", w->comp_names[ci]);
      for (size_t i = 0; ok && i < c->n_instructions; i++) ok = put_instruction(w, i);
      sb_puts(b, "}\n\n");
    }
    strmap_free(&names);
    strmap_free(&w->inst_ids);
  }
  w->comp = NULL;
  arena_free(&a);
  return ok && !w->failed;
}

/* ---- entry points ---- */

static bool read_varint(const uint8_t *p, size_t n, size_t *i, uint64_t *out) {
  uint64_t v = 0;
  for (int s = 0; s < 64 && *i < n; s += 7) {
    uint8_t c = p[(*i)++];
    v |= (uint64_t)(c & 0x7f) << s;
    if (!(c & 0x80)) {
      *out = v;
      return true;
    }
  }
  return false;
}

/* The top-level records of a binary HloModuleProto, as far as they read:
   each key a field of the message with its wire type, and among them the
   computations (field 3, length-delimited).  A GraphDef's field 3 is a
   varint, and text does not get that far. */
static bool looks_like_module(const uint8_t *p, size_t n) {
  size_t i = 0;
  bool comps = false;
  int records = 0;
  while (i < n) {
    uint64_t key, v;
    if (!read_varint(p, n, &i, &key)) break;
    unsigned field = (unsigned)(key >> 3), wt = (unsigned)(key & 7);
    bool len_field = field == 1 || field == 2 || field == 3 || field == 4 || field == 7 || field == 8 ||
                     field == 10 || field == 12 || field == 13 || field == 14 || field == 15 || field == 17 ||
                     field == 18 || field == 19 || field == 20;
    bool var_field = field == 5 || field == 6 || field == 11 || field == 16;
    if (wt == 2 && len_field) {
      if (!read_varint(p, n, &i, &v)) break;
      if (field == 3) comps = true;
      if (v > n - i) break; /* truncated: what was read decides */
      i += (size_t)v;
    } else if (wt == 0 && var_field) {
      if (!read_varint(p, n, &i, &v)) break;
    } else {
      return false;
    }
    records++;
  }
  return comps && records > 0;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

bool hlo_proto_claims(int file) {
  const SrcFile *f = src_get(file);
  if (!f) return false;
  if (ends_with(f->name, ".hlo.pb") || ends_with(f->name, ".hlo_module.pb")) return true;
  return looks_like_module((const uint8_t *)f->text, f->len);
}

Module *hlo_proto_parse(int file) {
  const SrcFile *f = src_get(file);
  if (!f) return NULL;
  src_set_binary(file);
  W w = {.file = file};
  PModule *mp = (PModule *)pb_parse_binary_locs(file, &hloproto__hlo_module_proto__descriptor, &w.locs);
  if (!mp) {
    VEC_FREE(w.locs);
    return NULL;
  }
  w.mp = mp;
  bool ok = put_module(&w);
  Module *m = NULL;
  if (ok) {
    char *name = xasprintf("%s[hlo]", f->name);
    int tf = src_add(name, w.b.data ? w.b.data : "", w.b.len);
    xfree(name);
    if (tf >= 0) m = hlo_parse(tf, 0, src_get(tf)->len);
  }
  sb_free(&w.b);
  pb_free(&mp->base);
  VEC_FREE(w.locs);
  return m;
}
