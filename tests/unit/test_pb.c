/* Protobuf messages from text and binary (frontends/tensorflow/pb.c): the
   text of tfcompile's MatMulComp graph and config gives the fields they
   say; the same message packed to binary reads back the same; malformed
   text and truncated or corrupted bytes are errors at the right place. */
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
    /* truncated: an error naming the byte offset */
    nerrors = 0;
    CHECK(parse_binary(bytes, n - 3, &tensorflow__graph_def__descriptor) == NULL);
    CHECK_EQ_I(nerrors, 1);
    CHECK(strstr(last_error, "model.pb: field at byte offset") && strstr(last_error, "truncated"));
    /* a wire type that does not exist */
    bytes[0] = 0x0f;
    nerrors = 0;
    CHECK(parse_binary(bytes, n, &tensorflow__graph_def__descriptor) == NULL);
    CHECK(strstr(last_error, "unknown wire type 7 at byte offset 0"));
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
  TEST_SUMMARY();
}
