/*
 * checkpoint.c - TensorFlow checkpoints, read so that a graph's variables
 * can be frozen into constants (tfcompile's freeze_checkpoint, `xlac
 * --checkpoint`).
 *
 * Both formats are sorted string tables in the layout LevelDB made
 * common: data blocks of key/value entries whose keys share prefixes with
 * the entry before (each entry: shared, unshared and value lengths as
 * varints, the unshared key bytes, the value), a list of restart points
 * ending each block, and after each block a type byte (0: stored, 1:
 * snappy) and the masked crc32c of the block and that byte.  An index
 * block maps a key at or after each data block's last to the block's
 * handle (offset and size, varints); the file ends in a 48-byte footer:
 * the handles of the metaindex and index blocks, zero padding, and the
 * magic number 0xdb4775248b80fb57.
 *
 *   V2 (tf.train.Saver's default, tf.train.Checkpoint): PREFIX.index is
 *   such a table; the empty key holds a BundleHeaderProto (shard count,
 *   byte order), every other key is a tensor's name and holds its
 *   BundleEntryProto (dtype, shape, shard, offset, size and masked
 *   crc32c of the bytes); the bytes themselves are in
 *   PREFIX.data-SSSSS-of-NNNNN, little-endian, as the tensor's memory.
 *
 *   V1 (SaverDef.V1): one file, such a table of SavedTensorSlices
 *   messages: the empty key's holds the meta (each tensor's name, shape,
 *   type and slices), every other one a slice of one tensor with its
 *   values as a TensorProto.
 *
 * TensorFlow writes both tables uncompressed (its writers ask for no
 * compression explicitly; very old TensorFlow 1 releases wrote V1 files
 * with the table's default, snappy, for blocks it shrank): a compressed
 * block is refused with an error that says so.  Every length, offset and
 * count is checked against the bytes that are there before it is used,
 * and every crc is verified; a problem is an error at the offending byte
 * of the table (file:OFFSET), or at the tensor's entry for its data.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "checkpoint.pb-c.h"
#include "frontends/tensorflow/tf_int.h"

/* The fuzzing build (XLAC_FUZZ_NO_CRC, docs/fuzzing.md) accepts any crc,
   so that changed bytes reach the parsing behind the checksums. */
#ifdef XLAC_FUZZ_NO_CRC
#define CRC_DIFFERS(a, b) ((void)(a), (void)(b), false)
#else
#define CRC_DIFFERS(a, b) ((a) != (b))
#endif

#define TABLE_MAGIC 0xdb4775248b80fb57ull
#define FOOTER_BYTES 48
#define TRAILER_BYTES 5

/* ---- crc32c (Castagnoli), as the table format and the bundles use it ---- */
static uint32_t crc_table[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
    crc_table[i] = c;
  }
}

static uint32_t crc_extend(uint32_t crc, const uint8_t *p, size_t n) {
  pthread_once(&crc_once, crc_init);
  crc = ~crc;
  for (size_t i = 0; i < n; i++) crc = crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
}

/* What the formats store: the crc rotated and offset, so that a crc of
   data that holds crcs is not trivially related to them. */
static uint32_t crc_mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

uint32_t tf_crc32c_masked(const void *p, size_t n) { return crc_mask(crc_extend(0, p, n)); }

/* ---- the checkpoint ---- */
typedef struct Entry {
  char *key;            /* heap */
  size_t klen;
  uint32_t off, len;    /* the value's bytes in the table file */
} Entry;

/* V1: one tensor of the meta, and the entries holding its slices. */
typedef struct V1Slice {
  int entry;            /* index into ck->entries */
  Tensorflow__SavedTensorSlices *msg;
} V1Slice;
typedef struct V1Tensor {
  const Tensorflow__SavedSliceMeta *meta;
  VEC(V1Slice) slices;
} V1Tensor;

struct TfCheckpoint {
  int file;             /* the table: PREFIX.index (V2) or the V1 file */
  char *prefix;         /* V2: the data files' prefix; NULL for V1 */
  int nshards;
  VEC(Entry) entries;
  StrMap by_name;       /* tensor name -> entry index + 1 (V2) or V1Tensor * (V1) */
  VEC(V1Tensor *) v1;
  VEC(ProtobufCMessage *) msgs; /* unpacked messages, freed with the checkpoint */
  VEC(char *) names;    /* the tensors' names, in table order */
  OomCleanup cleanup;   /* frees msgs (protobuf-c's, not tracked) on an unwind */
};

static SrcLoc at(const TfCheckpoint *ck, size_t off) { return (SrcLoc){ck->file, (uint32_t)off}; }

static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool varint(const uint8_t *p, size_t end, size_t *i, uint64_t *out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*i >= end) return false;
    uint8_t b = p[(*i)++];
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = v;
      return true;
    }
  }
  return false;
}

static const uint8_t *bytes_of(const TfCheckpoint *ck) { return (const uint8_t *)src_get(ck->file)->text; }

/* Block handle at p[*i]: checked to lie before the footer with room for
   its trailer, whose type and crc are then checked.  *start and *len are
   the block's contents. */
static bool read_block(TfCheckpoint *ck, size_t *i, size_t end, const char *what, size_t *start, size_t *len) {
  const uint8_t *p = bytes_of(ck);
  size_t limit = src_get(ck->file)->len - FOOTER_BYTES, hat = *i;
  uint64_t off, size;
  if (!varint(p, end, i, &off) || !varint(p, end, i, &size)) {
    error_at(at(ck, hat), "a truncated block handle (of the %s)", what);
    return false;
  }
  if (off > limit || size > limit - off || TRAILER_BYTES > limit - off - size) {
    error_at(at(ck, hat),
             "the %s block at offset %llu, %llu bytes, does not fit in the file's %zu bytes before the footer",
             what, (unsigned long long)off, (unsigned long long)size, limit);
    return false;
  }
  uint8_t type = p[off + size];
  if (type != 0) {
    error_at(at(ck, off + size),
             type == 1 ? "the %s block is snappy-compressed: xlac reads uncompressed tables only (TensorFlow writes "
                         "checkpoints uncompressed; write this one again with a current TensorFlow)"
                       : "the %s block has compression type %u, which is not a table block type",
             what, type);
    return false;
  }
  uint32_t want = le32(p + off + size + 1), got = crc_mask(crc_extend(crc_extend(0, p + off, size), &type, 1));
  if (CRC_DIFFERS(got, want)) {
    error_at(at(ck, off + size + 1),
             "the %s block's crc32c does not match (stored %08x, computed %08x): the file is corrupt",
             what, want, got);
    return false;
  }
  *start = (size_t)off;
  *len = (size_t)size;
  return true;
}

/* The entries of the block at [start, start + len): calls fn for each
   with its key (built in *key) and value. */
typedef bool (*EntryFn)(TfCheckpoint *ck, const StrBuf *key, size_t voff, size_t vlen, void *ud);

static bool block_entries(TfCheckpoint *ck, size_t start, size_t len, const char *what, EntryFn fn, void *ud) {
  const uint8_t *p = bytes_of(ck);
  if (len < 4) {
    error_at(at(ck, start), "the %s block has %zu bytes, too few for its restart count", what, len);
    return false;
  }
  uint32_t nrestarts = le32(p + start + len - 4);
  if (nrestarts > (len - 4) / 4) {
    error_at(at(ck, start + len - 4), "the %s block claims %u restart points, more than its %zu bytes hold", what,
             nrestarts, len);
    return false;
  }
  size_t limit = start + len - 4 - 4 * (size_t)nrestarts, i = start;
  StrBuf key = {0};
  bool ok = true;
  while (ok && i < limit) {
    size_t eat = i;
    uint64_t shared, unshared, vlen;
    if (!varint(p, limit, &i, &shared) || !varint(p, limit, &i, &unshared) || !varint(p, limit, &i, &vlen)) {
      error_at(at(ck, eat), "a truncated entry in the %s block", what);
      ok = false;
    } else if (shared > key.len) {
      error_at(at(ck, eat), "an entry of the %s block shares %llu bytes with a key of %zu", what,
               (unsigned long long)shared, key.len);
      ok = false;
    } else if (unshared > limit - i || vlen > limit - i - unshared) {
      error_at(at(ck, eat), "an entry of the %s block runs past the block's end", what);
      ok = false;
    } else {
      key.len = (size_t)shared;
      sb_putn(&key, (const char *)p + i, (size_t)unshared);
      i += (size_t)unshared;
      ok = fn(ck, &key, i, (size_t)vlen, ud);
      i += (size_t)vlen;
    }
  }
  sb_free(&key);
  return ok;
}

static bool add_entry(TfCheckpoint *ck, const StrBuf *key, size_t voff, size_t vlen, void *ud) {
  (void)ud;
  char *k = xmalloc(key->len + 1);
  if (key->len) memcpy(k, key->data, key->len);
  k[key->len] = 0;
  VEC_PUSH(ck->entries, ((Entry){k, key->len, (uint32_t)voff, (uint32_t)vlen}));
  return true;
}

/* An index entry: a data block, which must begin after the one before
   (*ud, where that one ended), so that no byte is read twice. */
static bool index_entry(TfCheckpoint *ck, const StrBuf *key, size_t voff, size_t vlen, void *ud) {
  (void)key;
  size_t *next = ud, i = voff, start, len;
  if (!read_block(ck, &i, voff + vlen, "data", &start, &len)) return false;
  if (start < *next) {
    error_at(at(ck, voff), "a data block at offset %zu, before the end of the block before it (%zu)", start, *next);
    return false;
  }
  *next = start + len + TRAILER_BYTES;
  return block_entries(ck, start, len, "data", add_entry, NULL);
}

/* Every entry of the table, in order, into ck->entries. */
static bool read_table(TfCheckpoint *ck) {
  const SrcFile *f = src_get(ck->file);
  const uint8_t *p = (const uint8_t *)f->text;
  src_set_binary(ck->file);
  if (f->len < FOOTER_BYTES) {
    error_at(at(ck, 0), "%zu bytes: too short for a checkpoint table (its footer alone is %d)", f->len, FOOTER_BYTES);
    return false;
  }
  size_t foot = f->len - FOOTER_BYTES;
  uint64_t magic = (uint64_t)le32(p + f->len - 8) | (uint64_t)le32(p + f->len - 4) << 32;
  if (magic != TABLE_MAGIC) {
    error_at(at(ck, f->len - 8), "not a TensorFlow checkpoint table: the magic number is %016llx, not %016llx",
             (unsigned long long)magic, TABLE_MAGIC);
    return false;
  }
  size_t i = foot, start, len, mstart, mlen;
  /* the metaindex block (checked, unused), then the index */
  if (!read_block(ck, &i, f->len - 8, "metaindex", &mstart, &mlen)) return false;
  if (!read_block(ck, &i, f->len - 8, "index", &start, &len)) return false;
  size_t next = 0;
  return block_entries(ck, start, len, "index", index_entry, &next);
}

static ProtobufCMessage *unpack(TfCheckpoint *ck, const Entry *e, const ProtobufCMessageDescriptor *d) {
  ProtobufCMessage *m = pb_parse_binary_at(ck->file, e->off, e->len, d);
  if (m) VEC_PUSH(ck->msgs, m);
  return m;
}

static bool open_v2(TfCheckpoint *ck) {
  if (!ck->entries.len || ck->entries.data[0].klen) {
    error_at(at(ck, 0), "not a V2 checkpoint index: the header (the empty key) is missing");
    return false;
  }
  const Tensorflow__BundleHeaderProto *h = (const Tensorflow__BundleHeaderProto *)unpack(
      ck, &ck->entries.data[0], &tensorflow__bundle_header_proto__descriptor);
  if (!h) return false;
  if (h->endianness != TENSORFLOW__BUNDLE_HEADER_PROTO__ENDIANNESS__LITTLE) {
    error_at(at(ck, ck->entries.data[0].off), "the checkpoint's tensors are big-endian, which xlac does not read");
    return false;
  }
  if (h->num_shards < 1 || h->num_shards > 99999) {
    error_at(at(ck, ck->entries.data[0].off), "the checkpoint's header says %d data files", h->num_shards);
    return false;
  }
  ck->nshards = h->num_shards;
  for (int i = 1; i < ck->entries.len; i++) {
    Entry *e = &ck->entries.data[i];
    /* the slices of a partitioned tensor are under binary keys (with
       NULs), which name no tensor */
    if (e->klen != strlen(e->key)) continue;
    if (strmap_get(&ck->by_name, e->key)) {
      error_at(at(ck, e->off), "tensor '%s' is in the index twice", e->key);
      return false;
    }
    strmap_put(&ck->by_name, e->key, (void *)(intptr_t)(i + 1));
    VEC_PUSH(ck->names, e->key);
  }
  return true;
}

static bool open_v1(TfCheckpoint *ck) {
  if (!ck->entries.len || ck->entries.data[0].klen) {
    error_at(at(ck, 0), "not a V1 checkpoint: the meta entry (the empty key) is missing");
    return false;
  }
  const Tensorflow__SavedTensorSlices *s = (const Tensorflow__SavedTensorSlices *)unpack(
      ck, &ck->entries.data[0], &tensorflow__saved_tensor_slices__descriptor);
  if (!s) return false;
  if (!s->meta) {
    error_at(at(ck, ck->entries.data[0].off), "not a V1 checkpoint: the first entry has no meta");
    return false;
  }
  for (size_t i = 0; i < s->meta->n_tensor; i++) {
    const Tensorflow__SavedSliceMeta *t = s->meta->tensor[i];
    if (strmap_get(&ck->by_name, t->name)) {
      error_at(at(ck, ck->entries.data[0].off), "tensor '%s' is in the checkpoint's meta twice", t->name);
      return false;
    }
    V1Tensor *v = xcalloc(1, sizeof *v);
    v->meta = t;
    VEC_PUSH(ck->v1, v);
    strmap_put(&ck->by_name, t->name, v);
    VEC_PUSH(ck->names, t->name);
  }
  for (int i = 1; i < ck->entries.len; i++) {
    Entry *e = &ck->entries.data[i];
    Tensorflow__SavedTensorSlices *d =
        (Tensorflow__SavedTensorSlices *)unpack(ck, e, &tensorflow__saved_tensor_slices__descriptor);
    if (!d) return false;
    if (!d->data || !d->data->data) {
      error_at(at(ck, e->off), "entry %d of the checkpoint holds no slice data", i);
      return false;
    }
    V1Tensor *v = strmap_get(&ck->by_name, d->data->name);
    if (!v) {
      error_at(at(ck, e->off), "a slice of tensor '%s', which the checkpoint's meta does not list", d->data->name);
      return false;
    }
    VEC_PUSH(v->slices, ((V1Slice){i, d}));
  }
  return true;
}

static void free_msgs(void *p) {
  TfCheckpoint *ck = p;
  for (int i = 0; i < ck->msgs.len; i++) pb_free(ck->msgs.data[i]);
  ck->msgs.len = 0;
}

void tf_checkpoint_free(TfCheckpoint *ck) {
  if (!ck) return;
  oom_cleanup_pop(&ck->cleanup);
  free_msgs(ck);
  for (int i = 0; i < ck->entries.len; i++) xfree(ck->entries.data[i].key);
  VEC_FREE(ck->entries);
  for (int i = 0; i < ck->v1.len; i++) {
    VEC_FREE(ck->v1.data[i]->slices);
    xfree(ck->v1.data[i]);
  }
  VEC_FREE(ck->v1);
  VEC_FREE(ck->msgs);
  VEC_FREE(ck->names);
  strmap_free(&ck->by_name);
  xfree(ck->prefix);
  xfree(ck);
}

TfCheckpoint *tf_checkpoint_open_table(int file, const char *prefix) {
  TfCheckpoint *ck = xcalloc(1, sizeof *ck);
  ck->file = file;
  oom_cleanup_push(&ck->cleanup, free_msgs, ck);
  ck->prefix = prefix ? xstrdup(prefix) : NULL;
  if (!read_table(ck) || !(prefix ? open_v2(ck) : open_v1(ck))) {
    tf_checkpoint_free(ck);
    return NULL;
  }
  return ck;
}

static bool is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

TfCheckpoint *tf_checkpoint_open(const char *path) {
  /* V2: PATH is the prefix (PATH.index exists), or the index itself */
  size_t n = strlen(path);
  char *prefix = NULL, *index = NULL;
  if (n > 6 && !strcmp(path + n - 6, ".index") && is_file(path)) prefix = xstrndup(path, n - 6);
  else {
    index = xasprintf("%s.index", path);
    if (is_file(index)) prefix = xstrdup(path);
    xfree(index);
  }
  index = prefix ? xasprintf("%s.index", prefix) : NULL;
  int file = src_load(prefix ? index : path);
  TfCheckpoint *ck = file < 0 ? NULL : tf_checkpoint_open_table(file, prefix);
  xfree(index);
  xfree(prefix);
  return ck;
}

int tf_checkpoint_count(const TfCheckpoint *ck) { return ck->names.len; }
const char *tf_checkpoint_name(const TfCheckpoint *ck, int i) { return ck->names.data[i]; }
int tf_checkpoint_version(const TfCheckpoint *ck) { return ck->prefix ? 2 : 1; }
bool tf_checkpoint_has(const TfCheckpoint *ck, const char *name) { return strmap_get(&ck->by_name, name) != NULL; }

/* The type of a tensor of dtype and shape, or NULL with an error at loc. */
static Type *tensor_type(Arena *a, SrcLoc loc, const char *name, int dtype, const Tensorflow__TensorShapeProto *s) {
  ElemType et = tf_elem_of_dtype(dtype);
  if (et == ET_INVALID) {
    error_at(loc, "tensor '%s' is of type %s, which xlac does not compile", name, tf_dtype_name(dtype));
    return NULL;
  }
  int64_t dims[64];
  int rank = 0;
  if (s) {
    if (s->unknown_rank || s->n_dim > 64) {
      error_at(loc, "tensor '%s' has %s", name, s->unknown_rank ? "an unknown rank" : "a rank above 64");
      return NULL;
    }
    for (size_t i = 0; i < s->n_dim; i++) {
      if (s->dim[i]->size < 0) {
        error_at(loc, "tensor '%s' has dimension %zu of size %lld", name, i, (long long)s->dim[i]->size);
        return NULL;
      }
      dims[rank++] = s->dim[i]->size;
    }
  }
  Type *t = type_tensor(a, et, rank, dims);
  int64_t elems, bytes;
  if (!type_sizes(t, &elems, &bytes) || bytes > ((int64_t)1 << 34)) {
    error_at(loc, "tensor '%s' is too large (more than 16 GiB)", name);
    return NULL;
  }
  return t;
}

/* V2: the bytes of the entry from its data file. */
static Literal *read_v2(TfCheckpoint *ck, Module *m, const char *name, const Entry *e) {
  SrcLoc loc = at(ck, e->off);
  const Tensorflow__BundleEntryProto *b =
      (const Tensorflow__BundleEntryProto *)unpack(ck, e, &tensorflow__bundle_entry_proto__descriptor);
  if (!b) return NULL;
  if (b->n_slices) {
    error_at(loc, "tensor '%s' is saved in %zu slices (a partitioned variable), which xlac does not read", name,
             b->n_slices);
    return NULL;
  }
  Type *t = tensor_type(&m->arena, loc, name, b->dtype, b->shape);
  if (!t) return NULL;
  int64_t elems, bytes;
  type_sizes(t, &elems, &bytes);
  if (b->size != bytes || b->offset < 0) {
    error_at(loc, "tensor '%s' of type %s has %lld bytes at offset %lld in its data file, where its shape needs %lld",
             name, tf_dtype_name(b->dtype), (long long)b->size, (long long)b->offset, (long long)bytes);
    return NULL;
  }
  if (b->shard_id < 0 || b->shard_id >= ck->nshards) {
    error_at(loc, "tensor '%s' is in data file %d of %d", name, b->shard_id, ck->nshards);
    return NULL;
  }
  char *path = xasprintf("%s.data-%05d-of-%05d", ck->prefix, b->shard_id, ck->nshards);
  Literal *l = NULL;
  FILE *f = fopen(path, "rb");
  struct stat st;
  if (!f || fstat(fileno(f), &st) != 0) {
    error_at(loc, "tensor '%s': cannot open its data file %s: %s", name, path, strerror(errno));
  } else if (b->offset > st.st_size || b->size > st.st_size - b->offset) {
    error_at(loc, "tensor '%s': %lld bytes at offset %lld, but data file %s has %lld bytes: it is truncated", name,
             (long long)b->size, (long long)b->offset, path, (long long)st.st_size);
  } else {
    l = lit_new_in(&m->arena, t);
    if (fseeko(f, (off_t)b->offset, SEEK_SET) != 0 || fread(l->data, 1, (size_t)bytes, f) != (size_t)bytes) {
      error_at(loc, "tensor '%s': cannot read %lld bytes at offset %lld of %s", name, (long long)bytes,
               (long long)b->offset, path);
      l = NULL;
    } else {
      uint32_t got = tf_crc32c_masked(l->data, (size_t)bytes);
      if (CRC_DIFFERS(got, b->crc32c)) {
        error_at(loc, "tensor '%s': the crc32c of its %lld bytes in %s does not match (stored %08x, computed %08x): "
                      "the data file is corrupt",
                 name, (long long)bytes, path, b->crc32c, got);
        l = NULL;
      } else if (lit_elem(l) == ET_PRED) {
        for (int64_t k = 0; k < elems; k++) ((uint8_t *)l->data)[k] = ((uint8_t *)l->data)[k] != 0;
      }
    }
  }
  if (f) fclose(f);
  xfree(path);
  return l;
}

/* V1: the tensor assembled from its slices, which must cover it once. */
static Literal *read_v1(TfCheckpoint *ck, Module *m, const char *name, const V1Tensor *v) {
  const Tensorflow__SavedSliceMeta *meta = v->meta;
  SrcLoc loc = at(ck, ck->entries.data[0].off);
  Type *t = tensor_type(&m->arena, loc, name, meta->type, meta->shape);
  if (!t) return NULL;
  size_t eb = (size_t)et_bytes(t->elem);
  /* the values must be in the file (each takes a byte or more) before
     the tensor is allocated: a few bytes cannot claim gigabytes */
  int64_t elems = type_num_elements(t), listed = 0;
  for (int s = 0; s < v->slices.len; s++) {
    Tensorflow__TensorProto *tp = v->slices.data[s].msg->data->data;
    if (tp->dtype == 0) tp->dtype = meta->type; /* TensorFlow leaves it out */
    listed += (int64_t)(tp->tensor_content.len ? tp->tensor_content.len / eb : tf_tensor_nvals(tp));
  }
  if (listed != elems) {
    error_at(loc, "the checkpoint's slices of tensor '%s' hold %lld values, where its shape has %lld", name,
             (long long)listed, (long long)elems);
    return NULL;
  }
  Literal *l = lit_new_in(&m->arena, t);
  int rank = t->rank;
  uint8_t *seen = l->n ? xcalloc((size_t)l->n, 1) : NULL;
  int64_t covered = 0;
  bool ok = true;
  for (int s = 0; ok && s < v->slices.len; s++) {
    loc = at(ck, ck->entries.data[v->slices.data[s].entry].off);
    const Tensorflow__SavedSlice *sl = v->slices.data[s].msg->data;
    /* the slice's extent in each dimension: no extents or no length is
       the whole dimension */
    int64_t start[64], len[64];
    size_t next = sl->slice ? sl->slice->n_extent : 0;
    if (next != 0 && next != (size_t)rank) {
      error_at(loc, "a slice of tensor '%s' has %zu dimensions where the tensor has %d", name, next, rank);
      ok = false;
      break;
    }
    int64_t n = 1;
    for (int d = 0; d < rank; d++) {
      const Tensorflow__TensorSliceProto__Extent *x = next ? sl->slice->extent[d] : NULL;
      bool whole = !x || x->has_length_case != TENSORFLOW__TENSOR_SLICE_PROTO__EXTENT__HAS_LENGTH_LENGTH;
      start[d] = whole ? 0 : x->start;
      len[d] = whole ? t->dims[d] : x->length;
      if (whole && x && x->start != 0) len[d] = -1;
      if (start[d] < 0 || len[d] < 0 || start[d] > t->dims[d] || len[d] > t->dims[d] - start[d]) {
        error_at(loc, "a slice of tensor '%s' reaches outside its dimension %d of size %lld", name, d,
                 (long long)t->dims[d]);
        ok = false;
        break;
      }
      n *= len[d];
    }
    if (!ok) break;
    /* the values, as a TensorProto of the slice's shape and the tensor's
       type (TensorFlow writes neither into it) */
    Tensorflow__TensorProto *tp = sl->data;
    if (tp->dtype != 0 && tp->dtype != meta->type) {
      error_at(loc, "a slice of tensor '%s' holds %s values, where the tensor is %s", name, tf_dtype_name(tp->dtype),
               tf_dtype_name(meta->type));
      ok = false;
      break;
    }
    tp->dtype = meta->type;
    size_t nv = tp->tensor_content.len ? tp->tensor_content.len / eb : tf_tensor_nvals(tp);
    if ((int64_t)nv != n || (tp->tensor_content.len && tp->tensor_content.len % eb)) {
      error_at(loc, "a slice of tensor '%s' holds %zu values where its extent has %lld", name, nv, (long long)n);
      ok = false;
      break;
    }
    Tensorflow__TensorShapeProto shape = TENSORFLOW__TENSOR_SHAPE_PROTO__INIT;
    Tensorflow__TensorShapeProto__Dim dimv[64], *dimp[64];
    for (int d = 0; d < rank; d++) {
      tensorflow__tensor_shape_proto__dim__init(&dimv[d]);
      dimv[d].size = len[d];
      dimp[d] = &dimv[d];
    }
    shape.n_dim = (size_t)rank;
    shape.dim = dimp;
    Tensorflow__TensorShapeProto *old = tp->tensor_shape;
    tp->tensor_shape = &shape;
    char *err = NULL;
    Literal *part = tf_tensor_literal(m, tp, &err);
    tp->tensor_shape = old;
    if (!part) {
      error_at(loc, "a slice of tensor '%s': %s", name, err);
      xfree(err);
      ok = false;
      break;
    }
    /* copy element by element to its place, row-major */
    int64_t idx[64] = {0};
    for (int64_t k = 0; k < n; k++) {
      int64_t dst = 0;
      for (int d = 0; d < rank; d++) dst = dst * t->dims[d] + start[d] + idx[d];
      if (seen[dst]) {
        error_at(loc, "slices of tensor '%s' overlap", name);
        ok = false;
        break;
      }
      seen[dst] = 1;
      memcpy((char *)l->data + (size_t)dst * eb, (char *)part->data + (size_t)k * eb, eb);
      for (int d = rank - 1; d >= 0 && ++idx[d] == len[d]; d--) idx[d] = 0;
    }
    covered += n;
  }
  xfree(seen);
  if (ok && covered != l->n) {
    error_at(at(ck, ck->entries.data[0].off), "the checkpoint's slices of tensor '%s' hold %lld of its %lld values",
             name, (long long)covered, (long long)l->n);
    ok = false;
  }
  return ok ? l : NULL;
}

Literal *tf_checkpoint_read(TfCheckpoint *ck, Module *m, const char *name) {
  void *p = strmap_get(&ck->by_name, name);
  if (!p) {
    error_at(at(ck, 0), "the checkpoint has no tensor '%s'", name);
    return NULL;
  }
  if (ck->prefix) return read_v2(ck, m, name, &ck->entries.data[(intptr_t)p - 1]);
  return read_v1(ck, m, name, p);
}

bool tf_saver_check(const char *path, const TfCheckpoint *ck) {
  int file = src_load(path);
  if (file < 0) return false;
  const Tensorflow__SaverDef *s = (const Tensorflow__SaverDef *)pb_parse_file(file, &tensorflow__saver_def__descriptor);
  if (!s) return false;
  int v = s->version == TENSORFLOW__SAVER_DEF__CHECKPOINT_FORMAT_VERSION__V2 ? 2 : 1;
  bool ok = v == tf_checkpoint_version(ck);
  if (!ok)
    error_at(((SrcLoc){file, 0}), "the SaverDef says the checkpoint is of format V%d, but it is a V%d checkpoint", v,
             tf_checkpoint_version(ck));
  pb_free((ProtobufCMessage *)s);
  return ok;
}
