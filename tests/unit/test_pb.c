/* Protobuf messages from text and binary (frontends/tensorflow/pb.c): the
   text of tfcompile's MatMulComp graph and config gives the fields they
   say; the same message packed to binary reads back the same; malformed
   text and truncated or corrupted bytes are errors at the right place;
   nesting is bounded (PB_MAX_DEPTH) in both forms; the top-level fields'
   locations are recorded. */
#include <stdlib.h>
#include <string.h>

#include "frontends/tensorflow/pb.h"
#include "tensorflow.pb-c.h"
#include "test_util.h"
#include "tf2xla.pb-c.h"

static char last_error[512];
static int nerrors;

static void hook(DiagLevel lvl, SrcLoc loc, const char *msg, void *ud) {
  (void)ud;
  if (lvl != DIAG_ERROR) return;
  nerrors++;
  diag_format(lvl, loc, msg, last_error, sizeof last_error);
}

static const char *graph_text =
    "# tfcompile's MatMulComp example\n"
    "node {\n"
    "  name: \"x_hold\"\n"
    "  op: \"Placeholder\"\n"
    "  attr { key: \"dtype\" value { type: DT_FLOAT } }\n"
    "  attr { key: \"shape\" value { shape { dim { size: 2 } dim { size: 3 } } } }\n"
    "}\n"
    "node { name: 'y_hold' op: 'Placeholder' attr: { key: \"dtype\", value: < type: 1 > } }\n"
    "node {\n"
    "  name: \"x_y_prod\" op: \"MatMul\" input: [\"x_hold\", \"y_hold\"]\n"
    "  attr { key: \"transpose_a\" value { b: false } }\n"
    "  attr { key: \"T\" value { type: DT_FLOAT } }\n"
    "}\n"
    "node { name: \"c\" op: \"Const\" attr { key: \"value\" value { tensor {\n"
    "  dtype: DT_FLOAT tensor_shape { dim { size: 3 } } float_val: [1.5, -2e3, inf] int64_val: -7\n"
    "  tensor_content: \"\\001\\x02\\n\" } } } }\n"
    "versions { producer: 1234 }\n";

static const char *config_text =
    "feed { id { node_name: \"x_hold\" } shape { dim { size: 2 } dim { size: 3 } } }\n"
    "feed { id { node_name: \"y_hold\" } shape { dim { size: 3 } dim { size: 2 } } name: \"y\" }\n"
    "fetch { id { node_name: \"x_y_prod\" output_index: 0 } }\n";

static const Tensorflow__AttrValue *attr(const Tensorflow__NodeDef *n, const char *key) {
  for (size_t i = 0; i < n->n_attr; i++)
    if (strcmp(n->attr[i]->key, key) == 0) return n->attr[i]->value;
  return NULL;
}

static void check_graph(const Tensorflow__GraphDef *g) {
  CHECK_EQ_I(g->n_node, 4);
  if (g->n_node != 4) return;
  CHECK_STR(g->node[0]->name, "x_hold");
  CHECK_STR(g->node[0]->op, "Placeholder");
  const Tensorflow__AttrValue *shape = attr(g->node[0], "shape");
  CHECK(shape && shape->value_case == TENSORFLOW__ATTR_VALUE__VALUE_SHAPE);
  if (shape && shape->value_case == TENSORFLOW__ATTR_VALUE__VALUE_SHAPE) {
    CHECK_EQ_I(shape->shape->n_dim, 2);
    CHECK_EQ_I(shape->shape->dim[1]->size, 3);
  }
  const Tensorflow__AttrValue *dt = attr(g->node[1], "dtype");
  CHECK(dt && dt->type == TENSORFLOW__DATA_TYPE__DT_FLOAT);
  CHECK_EQ_I(g->node[2]->n_input, 2);
  CHECK_STR(g->node[2]->input[1], "y_hold");
  const Tensorflow__AttrValue *ta = attr(g->node[2], "transpose_a");
  CHECK(ta && ta->value_case == TENSORFLOW__ATTR_VALUE__VALUE_B && !ta->b);
  const Tensorflow__AttrValue *v = attr(g->node[3], "value");
  CHECK(v && v->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TENSOR);
  if (v && v->value_case == TENSORFLOW__ATTR_VALUE__VALUE_TENSOR) {
    const Tensorflow__TensorProto *t = v->tensor;
    CHECK_EQ_I(t->n_float_val, 3);
    if (t->n_float_val == 3) {
      CHECK_EQ_F(t->float_val[0], 1.5);
      CHECK_EQ_F(t->float_val[1], -2000);
      CHECK(isinf(t->float_val[2]));
    }
    CHECK_EQ_I(t->n_int64_val, 1);
    if (t->n_int64_val) CHECK_EQ_I(t->int64_val[0], -7);
    CHECK_EQ_I(t->tensor_content.len, 3);
    if (t->tensor_content.len == 3) CHECK(!memcmp(t->tensor_content.data, "\001\002\n", 3));
  }
  CHECK(g->versions && g->versions->producer == 1234);
}

static ProtobufCMessage *parse_text(const char *text, const ProtobufCMessageDescriptor *d) {
  int f = src_add("<text>", text, strlen(text));
  return pb_parse_text(f, d);
}

static ProtobufCMessage *parse_binary(const void *data, size_t n, const ProtobufCMessageDescriptor *d) {
  int f = src_add("model.pb", data, n);
  return pb_parse_binary(f, d);
}

/* The text must fail with an error whose first line contains want. */
static void text_error_of(const char *text, const ProtobufCMessageDescriptor *d, const char *want) {
  nerrors = 0;
  last_error[0] = 0;
  ProtobufCMessage *m = parse_text(text, d);
  CHECK(m == NULL);
  pb_free(m);
  CHECK_EQ_I(nerrors, 1);
  if (!strstr(last_error, want)) {
    test_failed++;
    fprintf(stderr, "error for %s: got \"%s\", expected \"%s\"\n", text, last_error, want);
  } else {
    test_passed++;
  }
}

static void text_error(const char *text, const char *want) {
  text_error_of(text, &tensorflow__graph_def__descriptor, want);
}

/* ---- nesting ---- */
static void put_varint(StrBuf *b, uint64_t v) {
  do {
    uint8_t c = v & 0x7f;
    v >>= 7;
    sb_putc(b, (char)(v ? c | 0x80 : c));
  } while (v);
}

/* field `field` of wire type 2 holding inner */
static void put_message(StrBuf *b, uint32_t field, const StrBuf *inner) {
  put_varint(b, (uint64_t)field << 3 | 2);
  put_varint(b, inner->len);
  for (size_t i = 0; i < inner->len; i++) sb_putc(b, inner->data[i]);
}

/* A map entry {key: "k", value: AttrValue {func: NameAttrList {inner}}}. */
static StrBuf attr_entry(const StrBuf *inner) {
  StrBuf value = {0}, entry = {0};
  put_message(&value, 10, inner);
  sb_puts(&entry, "\x0a\x01k");
  put_message(&entry, 2, &value);
  sb_free(&value);
  return entry;
}

/* A GraphDef whose node has an attribute whose value is a function with an
   attribute whose value is a function ..., `steps` entries in all: three
   messages per step, 1 + 3 * steps deep (as deep_text). */
static void deep_binary(StrBuf *out, int steps) {
  StrBuf a = {0}; /* a NameAttrList's fields */
  for (int i = 1; i < steps; i++) {
    StrBuf e = attr_entry(&a), next = {0};
    put_message(&next, 2, &e); /* NameAttrList.attr */
    sb_free(&e);
    sb_free(&a);
    a = next;
  }
  StrBuf e = attr_entry(&a), node = {0};
  sb_puts(&node, "\x0a\x01n\x12\x05"
                 "Const");
  put_message(&node, 5, &e); /* NodeDef.attr */
  put_message(out, 1, &node); /* GraphDef.node */
  sb_free(&e);
  sb_free(&node);
  sb_free(&a);
}

static void deep_text(StrBuf *out, int steps) {
  sb_puts(out, "node { name: \"n\" op: \"Const\"\n");
  for (int i = 0; i < steps; i++) sb_puts(out, "attr { key: \"k\" value { func { ");
  for (int i = 0; i < steps; i++) sb_puts(out, "} } } ");
  sb_puts(out, "}\n");
}

static void nesting(void) {
  /* 33 steps: 100 deep, the most either reader takes; 3000: 9001 deep,
     which overflowed the stack before */
  static const int counts[] = {33, 34, 3000};
  for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
    int steps = counts[k];
    bool fits = steps == 33;
    StrBuf b = {0}, t = {0};
    deep_binary(&b, steps);
    deep_text(&t, steps);
    nerrors = 0;
    last_error[0] = 0;
    ProtobufCMessage *m = parse_binary(b.data, b.len, &tensorflow__graph_def__descriptor);
    CHECK((m != NULL) == fits);
    if (!fits) CHECK(strstr(last_error, "messages nested more than 100 deep: past the nesting limit"));
    pb_free(m);
    nerrors = 0;
    last_error[0] = 0;
    m = parse_text(t.data, &tensorflow__graph_def__descriptor);
    CHECK((m != NULL) == fits);
    if (!fits) CHECK(strstr(last_error, "<text>:2:") && strstr(last_error, "messages nested more than 100 deep"));
    if (m && fits) {
      /* the text gives the same message as the bytes */
      size_t n = protobuf_c_message_get_packed_size(m);
      uint8_t *packed = malloc(n);
      protobuf_c_message_pack(m, packed);
      CHECK(n == b.len && !memcmp(packed, b.data, n));
      free(packed);
    }
    pb_free(m);
    sb_free(&b);
    sb_free(&t);
  }
}

/* ---- binary errors inside nested messages ---- */
static void binary_error(const char *bytes, size_t n, const char *want) {
  nerrors = 0;
  last_error[0] = 0;
  ProtobufCMessage *m = parse_binary(bytes, n, &tensorflow__graph_def__descriptor);
  CHECK(m == NULL);
  pb_free(m);
  CHECK_EQ_I(nerrors, 1);
  if (!strstr(last_error, want)) {
    test_failed++;
    fprintf(stderr, "binary error: got \"%s\", expected \"%s\"\n", last_error, want);
  } else {
    test_passed++;
  }
}

static void wire_errors(void) {
  /* node { name: "ab" } whose name claims 5 bytes of the node's 4 */
  binary_error("\x0a\x04\x0a\x05"
               "ab",
               6, "model.pb:2: error: field runs past the end of the tensorflow.NodeDef that holds it");
  /* node { name: 7 }: a string given as a varint */
  binary_error("\x0a\x02\x08\x07", 4, "model.pb:2: error: field 'name' of tensorflow.NodeDef has wire type 0, not 2");
  /* versions { producer: 1.0 as fixed32 } */
  binary_error("\x22\x05\x0d\x00\x00\x80\x3f", 7, "field 'producer' of tensorflow.VersionDef has wire type 5, not 0");
  /* an unknown field nested deep is skipped whole, not walked: 200 bytes
     of what would be a deep message inside field 99 of a node */
  StrBuf junk = {0}, node = {0}, g = {0};
  for (int i = 0; i < 200; i++) sb_putc(&junk, (char)0x0a);
  put_varint(&node, 99u << 3 | 2);
  put_varint(&node, junk.len);
  for (size_t i = 0; i < junk.len; i++) sb_putc(&node, junk.data[i]);
  put_message(&g, 1, &node);
  nerrors = 0;
  ProtobufCMessage *m = parse_binary(g.data, g.len, &tensorflow__graph_def__descriptor);
  CHECK(m != NULL && nerrors == 0);
  pb_free(m);
  sb_free(&junk);
  sb_free(&node);
  sb_free(&g);
}

/* ---- where the top-level fields are ---- */
static void locations(void) {
  const char *text = "feed { id { node_name: \"a\" } }\n"
                     "fetch: [ { id { node_name: \"b\" } },\n"
                     "         { id { node_name: \"c\" } } ]\n";
  int f = src_add("<config>", text, strlen(text));
  PbLocs locs = {0};
  ProtobufCMessage *m = pb_parse_text_locs(f, &tensorflow__tf2xla__config__descriptor, &locs);
  CHECK(m != NULL);
  CHECK_EQ_I(locs.len, 3);
  CHECK_EQ_I(pb_field_loc(&locs, f, 1, 0).off, 0);
  CHECK_EQ_I(pb_field_loc(&locs, f, 2, 0).off, strchr(text, '[') - text + 2);
  CHECK_EQ_I(pb_field_loc(&locs, f, 2, 1).off, strstr(text, "         {") - text + 9);
  CHECK_EQ_I(pb_field_loc(&locs, f, 3, 0).off, 0); /* none: the start */
  VEC_FREE(locs);
  if (m) {
    /* the same Config in binary: each record's key */
    size_t n = protobuf_c_message_get_packed_size(m);
    uint8_t *bytes = malloc(n);
    protobuf_c_message_pack(m, bytes);
    int bf = src_add("config.pb", (const char *)bytes, n);
    ProtobufCMessage *b = pb_parse_binary_locs(bf, &tensorflow__tf2xla__config__descriptor, &locs);
    CHECK(b != NULL && src_get(bf)->binary);
    CHECK_EQ_I(locs.len, 3);
    CHECK_EQ_I(pb_field_loc(&locs, bf, 1, 0).off, 0);
    CHECK_EQ_I(pb_field_loc(&locs, bf, 2, 0).off, bytes[1] + 2);
    VEC_FREE(locs);
    pb_free(b);
    free(bytes);
  }
  pb_free(m);
}

int main(void) {
  diag_set_hook(hook, NULL);
  Tensorflow__GraphDef *g = (Tensorflow__GraphDef *)parse_text(graph_text, &tensorflow__graph_def__descriptor);
  CHECK(g != NULL);
  if (g) {
    check_graph(g);
    /* binary: the same message packed, read back */
    size_t n = protobuf_c_message_get_packed_size(&g->base);
    uint8_t *bytes = malloc(n);
    protobuf_c_message_pack(&g->base, bytes);
    Tensorflow__GraphDef *b = (Tensorflow__GraphDef *)parse_binary(bytes, n, &tensorflow__graph_def__descriptor);
    CHECK(b != NULL);
    if (b) check_graph(b);
    pb_free(&b->base);
    /* truncated: an error at the byte offset of the record cut short (the
       last node's) */
    nerrors = 0;
    CHECK(parse_binary(bytes, n - 3, &tensorflow__graph_def__descriptor) == NULL);
    CHECK_EQ_I(nerrors, 1);
    CHECK(strstr(last_error, "model.pb:") && strstr(last_error, ": error: field runs past the end of the data") &&
          strstr(last_error, "truncated"));
    /* a wire type that does not exist */
    bytes[0] = 0x0f;
    nerrors = 0;
    CHECK(parse_binary(bytes, n, &tensorflow__graph_def__descriptor) == NULL);
    CHECK(strstr(last_error, "model.pb:0: error: unknown wire type 7"));
    free(bytes);
    pb_free(&g->base);
  }
  Tensorflow__Tf2xla__Config *c =
      (Tensorflow__Tf2xla__Config *)parse_text(config_text, &tensorflow__tf2xla__config__descriptor);
  CHECK(c != NULL);
  if (c) {
    CHECK_EQ_I(c->n_feed, 2);
    CHECK_STR(c->feed[1]->name, "y");
    CHECK_EQ_I(c->feed[1]->shape->dim[0]->size, 3);
    CHECK_EQ_I(c->n_fetch, 1);
    CHECK_STR(c->fetch[0]->id->node_name, "x_y_prod");
    pb_free(&c->base);
  }
  /* empty text is an empty message */
  ProtobufCMessage *e = parse_text("  # nothing\n", &tensorflow__graph_def__descriptor);
  CHECK(e != NULL);
  pb_free(e);

  /* TensorFlow's own messages skip what xlac does not declare (as binary
     input does); the hand-written Config stays strict */
  {
    Tensorflow__GraphDef *gx = (Tensorflow__GraphDef *)parse_text(
        "node { name: \"a\" experimental_type { type_id: TFT_PRODUCT args { type_id: TFT_ARRAY s: \"}\" } }\n"
        "  futures: [1, 2] op: \"Const\" flag: true }",
        &tensorflow__graph_def__descriptor);
    CHECK(gx != NULL);
    if (gx) {
      CHECK_EQ_I((int)gx->n_node, 1);
      CHECK(!strcmp(gx->node[0]->name, "a") && !strcmp(gx->node[0]->op, "Const"));
      pb_free(&gx->base);
    }
  }
  text_error_of("feed { id { nmae: \"x\" } }", &tensorflow__tf2xla__config__descriptor,
                "<text>:1:13: error: no field 'nmae' in tensorflow.tf2xla.TensorId");
  text_error("node { name: \"x\" junk: { unclosed ", "unterminated value");
  text_error("node {\n  name: \"x\"\n", "<text>:3:1: error: unexpected end of input: missing '}'");
  text_error("node { name: \"x }", "<text>:1:14: error: unterminated string");
  text_error("node { attr { key: \"a\" value { type: DT_NOPE } } }", "'DT_NOPE' is not a value of this field's enum");
  text_error("versions { producer: 99999999999 }", "integer out of range for 32-bit field 'producer'");
  text_error("versions { producer: x12 }", "'x12' is not a valid integer");
  text_error("node { name \"x\" }", "expected ':' after field 'name'");
  text_error("node ( )", "expected '{' to start message field 'node'");
  text_error("node { input: [\"a\" \"b\" }", "expected ',' or ']' in the list of 'input'");
  text_error("[ext] { }", "extensions and Any fields");
  text_error("node { name: \"\\q\" }", "unknown escape sequence");
  nesting();
  wire_errors();
  locations();
  TEST_SUMMARY();
}
