/* TensorFlow checkpoints (frontends/tensorflow/checkpoint.c) on the
   fixtures TensorFlow wrote (tests/fixtures/tfcompile, gen.py): the V1 file
   and the V2 index and data of make_test_graphs' tfadd_with_ckpt hold
   y_saved = [42]; the SaverDef agrees with the V1 format only.  Corrupted
   copies are errors at the right place, never crashes: every truncation,
   every single-byte change of the V1 file, a bad magic number, bad block
   and data crcs, a compressed block, a truncated or missing data file.
   A partitioned variable's V1 slices are assembled; V2 ones refused. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontends/tensorflow/tf_int.h"
#include "test_util.h"

#define FX XLAC_SOURCE_DIR "/tests/fixtures/tfcompile/"

static char last_error[1024];
static int nerrors;

static void hook(DiagLevel lvl, SrcLoc loc, const char *msg, void *ud) {
  (void)ud;
  if (lvl != DIAG_ERROR) return;
  nerrors++;
  diag_format(lvl, loc, msg, last_error, sizeof last_error);
}

static bool has_error(const char *s) { return strstr(last_error, s) != NULL; }

static char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *b = malloc(1 << 16);
  *n = fread(b, 1, 1 << 16, f);
  fclose(f);
  return b;
}

static void spit(const char *path, const char *b, size_t n) {
  FILE *f = fopen(path, "wb");
  fwrite(b, 1, n, f);
  fclose(f);
}

/* y_saved = [42] as int32, read from ck. */
static void check_y_saved(TfCheckpoint *ck, int version) {
  CHECK(ck != NULL);
  if (!ck) return;
  CHECK_EQ_I(tf_checkpoint_version(ck), version);
  CHECK_EQ_I(tf_checkpoint_count(ck), 1);
  CHECK_STR(tf_checkpoint_name(ck, 0), "y_saved");
  CHECK(tf_checkpoint_has(ck, "y_saved"));
  CHECK(!tf_checkpoint_has(ck, "y"));
  Module *m = module_new();
  Literal *l = tf_checkpoint_read(ck, m, "y_saved");
  CHECK(l != NULL);
  if (l) {
    CHECK_EQ_I(lit_elem(l), ET_S32);
    CHECK_EQ_I(l->type->rank, 1);
    CHECK_EQ_I(l->type->dims[0], 1);
    CHECK_EQ_I(((int32_t *)l->data)[0], 42);
  }
  nerrors = 0;
  CHECK(tf_checkpoint_read(ck, m, "nope") == NULL);
  CHECK(nerrors == 1 && has_error("the checkpoint has no tensor 'nope'"));
  module_free(m);
}

/* The V1 bytes b (n) as a table; NULL or not, never a crash. */
static TfCheckpoint *open_v1_bytes(const char *b, size_t n) {
  int f = src_add("corrupt.ckpt", b, n);
  return tf_checkpoint_open_table(f, NULL);
}

/* Reads every tensor of a checkpoint that opened (the V1 slices are
   checked then). */
static void read_all(TfCheckpoint *ck) {
  Module *m = module_new();
  for (int i = 0; i < tf_checkpoint_count(ck); i++) tf_checkpoint_read(ck, m, tf_checkpoint_name(ck, i));
  module_free(m);
}

static void test_v1(void) {
  TfCheckpoint *ck = tf_checkpoint_open(FX "test_graph_tfadd_with_ckpt.ckpt");
  check_y_saved(ck, 1);
  nerrors = 0;
  CHECK(ck && tf_saver_check(FX "test_graph_tfadd_with_ckpt_saver.saver", ck));
  CHECK_EQ_I(nerrors, 0);
  tf_checkpoint_free(ck);
  ck = tf_checkpoint_open(FX "test_graph_tfadd_with_ckpt_saver.ckpt");
  check_y_saved(ck, 1);
  tf_checkpoint_free(ck);

  size_t n;
  char *b = slurp(FX "test_graph_tfadd_with_ckpt.ckpt", &n);
  CHECK(b && n == 162);
  if (!b) return;
  /* every truncation is an error */
  int refused = 0;
  for (size_t k = 0; k < n; k++) {
    nerrors = 0;
    TfCheckpoint *t = open_v1_bytes(b, k);
    refused += t == NULL && nerrors > 0;
    tf_checkpoint_free(t);
  }
  CHECK_EQ_I(refused, (long long)n);
  /* bad magic */
  char *c = malloc(n);
  memcpy(c, b, n);
  c[n - 1] ^= 1;
  nerrors = 0;
  CHECK(open_v1_bytes(c, n) == NULL);
  CHECK(has_error("corrupt.ckpt:154: error: not a TensorFlow checkpoint table: the magic number is"));
  /* the value 42 changed: the data block's crc no longer matches */
  memcpy(c, b, n);
  const char *v = memchr(b + 0x40, 42, 8);
  CHECK(v != NULL);
  if (v) c[v - b] = 43;
  nerrors = 0;
  CHECK(open_v1_bytes(c, n) == NULL);
  CHECK(has_error("the data block's crc32c does not match"));
  /* a snappy-compressed block (type byte 1) */
  memcpy(c, b, n);
  c[0x4d] = 1;
  nerrors = 0;
  CHECK(open_v1_bytes(c, n) == NULL);
  CHECK(has_error("corrupt.ckpt:77: error: the data block is snappy-compressed"));
  /* every single-byte change: an error or a checkpoint, never a crash */
  int opened = 0;
  for (size_t k = 0; k < n; k++)
    for (int bit = 0; bit < 8; bit++) {
      memcpy(c, b, n);
      c[k] ^= (char)(1 << bit);
      nerrors = 0;
      TfCheckpoint *t = open_v1_bytes(c, n);
      if (t) {
        opened++;
        read_all(t);
      } else {
        CHECK(nerrors > 0);
      }
      tf_checkpoint_free(t);
    }
  /* the crcs leave only the footer's padding and the like */
  CHECK(opened < 8 * 48);
  free(c);
  free(b);
}

static void test_v2(void) {
  TfCheckpoint *ck = tf_checkpoint_open(FX "test_graph_tfadd_with_ckpt_v2.ckpt");
  check_y_saved(ck, 2);
  nerrors = 0;
  CHECK(ck && !tf_saver_check(FX "test_graph_tfadd_with_ckpt_saver.saver", ck));
  CHECK(has_error("the SaverDef says the checkpoint is of format V1, but it is a V2 checkpoint"));
  tf_checkpoint_free(ck);
  ck = tf_checkpoint_open(FX "test_graph_tfadd_with_ckpt_v2.ckpt.index");
  check_y_saved(ck, 2);
  tf_checkpoint_free(ck);

  /* a copy in a scratch directory, then its data file changed */
  char dir[] = "/tmp/xlac-ckpt-XXXXXX";
  if (!mkdtemp(dir)) {
    CHECK(!"mkdtemp");
    return;
  }
  size_t ni, nd;
  char *index = slurp(FX "test_graph_tfadd_with_ckpt_v2.ckpt.index", &ni);
  char *data = slurp(FX "test_graph_tfadd_with_ckpt_v2.ckpt.data-00000-of-00001", &nd);
  CHECK(index && data && nd == 4);
  if (!index || !data) return;
  char prefix[64], ipath[80], dpath[96];
  snprintf(prefix, sizeof prefix, "%s/c", dir);
  snprintf(ipath, sizeof ipath, "%s.index", prefix);
  snprintf(dpath, sizeof dpath, "%s.data-00000-of-00001", prefix);
  spit(ipath, index, ni);
  Module *m = module_new();
  struct {
    size_t len;
    char byte0;
    const char *error;
  } cases[] = {
      {4, 43, "the crc32c of its 4 bytes"},
      {3, 42, "4 bytes at offset 0, but data file"},
      {0, 0, "cannot open its data file"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    unlink(dpath);
    if (cases[i].len) {
      char d[4];
      memcpy(d, data, 4);
      d[0] = cases[i].byte0;
      spit(dpath, d, cases[i].len);
    }
    ck = tf_checkpoint_open(prefix);
    CHECK(ck != NULL);
    if (!ck) continue;
    nerrors = 0;
    CHECK(tf_checkpoint_read(ck, m, "y_saved") == NULL);
    CHECK(nerrors == 1 && has_error(cases[i].error));
    if (!has_error(cases[i].error)) fprintf(stderr, "got: %s\n", last_error);
    tf_checkpoint_free(ck);
  }
  /* the index's entry claims more bytes than the shape needs */
  spit(dpath, data, nd);
  char *bad = malloc(ni);
  memcpy(bad, index, ni);
  char *size = memchr(bad, 0x28, ni); /* BundleEntryProto.size = 4 */
  CHECK(size && size[1] == 4);
  if (size) size[1] = 8;
  int f = src_add("bad.index", bad, ni);
  nerrors = 0;
  CHECK(tf_checkpoint_open_table(f, prefix) == NULL); /* the index block's crc */
  CHECK(has_error("crc32c does not match"));
  free(bad);
  unlink(dpath);
  unlink(ipath);
  rmdir(dir);
  module_free(m);
  free(index);
  free(data);
}

/* w = arange(12) as 4x3 in two partitions: V1 keeps two slices of 'w',
   assembled here; V2 is refused when 'w' is read. */
static void test_partitioned(void) {
  Module *m = module_new();
  TfCheckpoint *ck = tf_checkpoint_open(FX "partitioned_v1.ckpt");
  CHECK(ck != NULL);
  if (ck) {
    CHECK_EQ_I(tf_checkpoint_count(ck), 1);
    Literal *l = tf_checkpoint_read(ck, m, "w");
    CHECK(l != NULL);
    if (l) {
      CHECK_EQ_I(lit_elem(l), ET_F32);
      CHECK_EQ_I(l->type->rank, 2);
      CHECK_EQ_I(l->type->dims[0], 4);
      CHECK_EQ_I(l->type->dims[1], 3);
      int same = 0;
      for (int i = 0; i < 12; i++) same += ((float *)l->data)[i] == (float)i;
      CHECK_EQ_I(same, 12);
    }
    tf_checkpoint_free(ck);
  }
  ck = tf_checkpoint_open(FX "partitioned_v2.ckpt");
  CHECK(ck != NULL);
  if (ck) {
    CHECK_EQ_I(tf_checkpoint_count(ck), 1); /* the slices' binary keys name no tensor */
    nerrors = 0;
    CHECK(tf_checkpoint_read(ck, m, "w") == NULL);
    CHECK(has_error("tensor 'w' is saved in 2 slices (a partitioned variable), which xlac does not read"));
    tf_checkpoint_free(ck);
  }
  module_free(m);
}

int main(void) {
  diag_set_hook(hook, NULL);
  test_v1();
  test_v2();
  test_partitioned();
  /* a file that is not there */
  nerrors = 0;
  CHECK(tf_checkpoint_open(FX "no_such.ckpt") == NULL);
  CHECK_EQ_I(nerrors, 1);
  /* the masked crc32c of "123456789" (crc32c e3069283) */
  uint32_t c = 0xe3069283u;
  CHECK_EQ_I(tf_crc32c_masked("123456789", 9), (uint32_t)(((c >> 15) | (c << 17)) + 0xa282ead8u));
  TEST_SUMMARY();
}
