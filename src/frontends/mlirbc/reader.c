/*
 * reader.c - the MLIR bytecode container: the magic, the format version
 * and producer, then sections, each an id byte (high bit: aligned), a
 * length and its bytes.  The string table comes first (every name is an
 * index into it), then the properties, the dialects and op names, the
 * resources and the attribute/type offsets; last the IR section, read
 * straight into our IR: an op is its name, a mask of the parts present,
 * a location, attributes (a dictionary, and from version 5 properties),
 * result types, operands (indices into the values of the enclosing
 * isolated scope, numbered as regions define them), and inline regions.
 *
 * Format versions 0 to 6 are read, which covers every StableHLO release
 * since 0.9.0: 1 added dialect versions, 2 put the regions of ops isolated
 * from above (the module) in sections of their own, 3 use-list orders
 * (read and ignored: our values keep no use lists), 4 elided unknown
 * locations of block arguments, 5 properties and the "registered" bit of
 * op names, 6 segment sizes in properties (for ops VHLO does not have).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "frontends/mlirbc/bc.h"
#include "ir/sharding.h"

enum {
  SEC_STRING,
  SEC_DIALECT,
  SEC_ATTR_TYPE,
  SEC_ATTR_TYPE_OFFSET,
  SEC_IR,
  SEC_RESOURCE,
  SEC_RESOURCE_OFFSET,
  SEC_DIALECT_VERSIONS,
  SEC_PROPERTIES,
  SEC_COUNT
};

static const char *const section_names[SEC_COUNT] = {
    "string section",   "dialect section",         "attribute/type section", "attribute/type offset section",
    "IR section",       "resource section",        "resource offset section", "dialect version section",
    "properties section"};

/* the format versions that changed what is read */
enum {
  V_DIALECT_VERSIONS = 1,
  V_LAZY_LOADING = 2,
  V_USE_LIST_ORDERS = 3,
  V_ELIDED_ARG_LOCS = 4,
  V_PROPERTIES = 5,
  V_NEWEST = 6
};

enum {
  OPM_ATTRS = 1 << 0,
  OPM_RESULTS = 1 << 1,
  OPM_OPERANDS = 1 << 2,
  OPM_SUCCESSORS = 1 << 3,
  OPM_REGIONS = 1 << 4,
  OPM_USE_LISTS = 1 << 5,
  OPM_PROPERTIES = 1 << 6,
};

/* Where an op sits, which decides what it may be. */
typedef enum Ctx { CTX_TOP, CTX_MODULE, CTX_FUNC, CTX_REGION } Ctx;

/* The values a region defines: slots [base, end) of bc->values, filled
   from next on as its block arguments and op results appear. */
typedef struct Region {
  size_t base, next, end;
} Region;

/* ---- errors and cursors ---- */

bool bc_fail(Bc *bc, const uint8_t *at, const char *fmt, ...) {
  if (!bc->failed) {
    va_list ap;
    va_start(ap, fmt);
    vdiag(DIAG_ERROR, (SrcLoc){bc->file, (uint32_t)(at - bc->base)}, fmt, ap);
    va_end(ap);
  }
  bc->failed = true;
  return false;
}

static size_t cur_left(const Cur *c) { return (size_t)(c->end - c->p); }

/* The readers set their output even when they fail, which keeps the
   compiler from thinking callers might use it unset. */
bool cur_byte(Cur *c, uint8_t *out) {
  *out = 0;
  if (c->p >= c->end) return bc_fail(c->bc, c->p, "truncated %s: it ends here", c->what);
  *out = *c->p++;
  return true;
}

bool cur_bytes(Cur *c, uint64_t n, const uint8_t **out) {
  *out = c->p;
  if (n > cur_left(c))
    return bc_fail(c->bc, c->p, "truncated %s: %llu bytes needed, %zu remain", c->what, (unsigned long long)n,
                   cur_left(c));
  c->p += n;
  return true;
}

bool cur_varint(Cur *c, uint64_t *out) {
  uint8_t b;
  const uint8_t *p;
  *out = 0;
  if (!cur_byte(c, &b)) return false;
  if (b & 1) {
    *out = b >> 1;
    return true;
  }
  /* the count of trailing zero bits is the count of bytes that follow;
     all eight when the first byte is zero, which then holds no value bits */
  int extra = b ? __builtin_ctz(b) : 8;
  if (!cur_bytes(c, (uint64_t)extra, &p)) return false;
  uint64_t x = 0;
  for (int i = extra - 1; i >= 0; i--) x = x << 8 | p[i];
  *out = b ? (x << (7 - extra) | b >> (extra + 1)) : x;
  return true;
}

bool cur_svarint(Cur *c, int64_t *out) {
  uint64_t u;
  *out = 0;
  if (!cur_varint(c, &u)) return false;
  *out = (int64_t)((u >> 1) ^ (0 - (u & 1)));
  return true;
}

bool cur_varint_flag(Cur *c, uint64_t *out, bool *flag) {
  *flag = false;
  if (!cur_varint(c, out)) return false;
  *flag = *out & 1;
  *out >>= 1;
  return true;
}

bool cur_count(Cur *c, const char *what, uint64_t *out) {
  const uint8_t *at = c->p;
  if (!cur_varint(c, out)) return false;
  if (*out > cur_left(c))
    return bc_fail(c->bc, at, "%s count %llu in the %s is more than the %zu bytes that remain", what,
                   (unsigned long long)*out, c->what, cur_left(c));
  return true;
}

static bool string_at(Bc *bc, uint64_t i, const uint8_t *at, const char **s, size_t *n) {
  *s = "";
  if (n) *n = 0;
  if (i >= (uint64_t)bc->nstrings)
    return bc_fail(bc, at, "string index %llu is out of range (the string table has %d)", (unsigned long long)i,
                   bc->nstrings);
  *s = bc->str[i];
  if (n) *n = bc->strlen[i];
  return true;
}

bool cur_string(Cur *c, const char **s, size_t *n) {
  const uint8_t *at = c->p;
  uint64_t i;
  return cur_varint(c, &i) && string_at(c->bc, i, at, s, n);
}

/* Padding up to a power-of-two boundary, counted from the artifact's
   start (where the writer counted from). */
static bool cur_align(Cur *c, uint64_t align) {
  if (align == 0 || (align & (align - 1)))
    return bc_fail(c->bc, c->p, "alignment %llu in the %s is not a power of two", (unsigned long long)align, c->what);
  while ((uint64_t)(c->p - c->bc->origin) % align) {
    const uint8_t *at = c->p;
    uint8_t pad;
    if (!cur_byte(c, &pad)) return false;
    if (pad != 0xCB) return bc_fail(c->bc, at, "expected alignment padding (0xCB) in the %s, found 0x%02X", c->what, pad);
  }
  return true;
}

static bool cur_section(Cur *c, uint8_t *id, Cur *out) {
  const uint8_t *at = c->p;
  uint8_t b;
  uint64_t len, align;
  const uint8_t *data;
  *id = 0;
  if (!cur_byte(c, &b) || !cur_varint(c, &len)) return false;
  *id = b & 0x7f;
  if (*id >= SEC_COUNT) return bc_fail(c->bc, at, "unknown section id %u", *id);
  if ((b & 0x80) && (!cur_varint(c, &align) || !cur_align(c, align))) return false;
  if (len > cur_left(c))
    return bc_fail(c->bc, at, "truncated %s: %llu bytes, %zu remain in the %s", section_names[*id],
                   (unsigned long long)len, cur_left(c), c->what);
  if (!cur_bytes(c, len, &data)) return false;
  *out = (Cur){c->bc, data, data + len, section_names[*id]};
  return true;
}

/* ---- the header and the tables ---- */

static bool read_header(Bc *bc, Cur *c) {
  static const uint8_t magic[4] = {'M', 'L', 0xEF, 'R'};
  const uint8_t *at = c->p, *p;
  if (cur_left(c) < 4 || memcmp(c->p, magic, 4) != 0)
    return bc_fail(bc, at, "not MLIR bytecode: the data does not start with the magic bytes 'ML\\xEFR'");
  c->p += 4;
  at = c->p;
  if (!cur_varint(c, &bc->version)) return false;
  if (bc->version > V_NEWEST)
    return bc_fail(bc, at, "MLIR bytecode version %llu is newer than the versions this reader knows (0 to %d)",
                   (unsigned long long)bc->version, V_NEWEST);
  at = c->p;
  p = memchr(c->p, 0, cur_left(c));
  if (!p) return bc_fail(bc, at, "truncated header: the producer string has no terminating NUL");
  bc->producer = (const char *)at;
  c->p = p + 1;
  return true;
}

static bool read_strings(Bc *bc, Cur c) {
  const uint8_t *start = c.p;
  uint64_t n;
  if (!cur_count(&c, "string", &n)) return false;
  bc->nstrings = (int)n;
  bc->str = ARENA_ARRAY(&bc->m->arena, const char *, n + 1);
  bc->strlen = ARENA_ARRAY(&bc->m->arena, size_t, n + 1);
  /* the lengths come first, last string first; the strings fill the
     section's end, each with its NUL */
  size_t data = (size_t)(c.end - start);
  for (uint64_t i = n; i-- > 0;) {
    const uint8_t *at = c.p;
    uint64_t len;
    if (!cur_varint(&c, &len)) return false;
    if (len == 0 || len > data)
      return bc_fail(bc, at, "string %llu has length %llu, which does not fit in the string section",
                     (unsigned long long)i, (unsigned long long)len);
    data -= len;
    if (start[data + len - 1] != 0)
      return bc_fail(bc, start + data + len - 1, "string %llu is not NUL-terminated", (unsigned long long)i);
    bc->str[i] = (const char *)start + data;
    bc->strlen[i] = len - 1;
  }
  if (c.p != start + data)
    return bc_fail(bc, c.p, "the string section's lengths end at byte %zu but its strings begin at byte %zu",
                   (size_t)(c.p - start), data);
  return true;
}

static bool read_properties(Bc *bc, Cur c) {
  uint64_t n;
  if (cur_done(&c)) return true;
  if (!cur_count(&c, "properties", &n)) return false;
  bc->nprops = (int)n;
  bc->props = ARENA_ARRAY(&bc->m->arena, const uint8_t *, n + 1);
  for (uint64_t i = 0; i < n; i++) {
    uint64_t len;
    const uint8_t *skip;
    bc->props[i] = c.p;
    if (!cur_varint(&c, &len) || !cur_bytes(&c, len, &skip)) return false;
  }
  if (!cur_done(&c)) return bc_fail(bc, c.p, "trailing bytes after the %llu properties", (unsigned long long)n);
  bc->props_end = c.end;
  return true;
}

static BcDialectKind dialect_kind(const char *s, size_t n) {
  if (n == 7 && memcmp(s, "builtin", 7) == 0) return DL_BUILTIN;
  if (n == 4 && memcmp(s, "vhlo", 4) == 0) return DL_VHLO;
  if (n == 3 && memcmp(s, "sdy", 3) == 0) return DL_SDY;
  if (n == 9 && memcmp(s, "stablehlo", 9) == 0) return DL_STABLEHLO;
  return DL_OTHER;
}

static bool read_dialect_names(Bc *bc, Cur *c) {
  uint64_t n;
  if (!cur_count(c, "dialect", &n)) return false;
  bc->ndialects = (int)n;
  bc->dialects = ARENA_ARRAY(&bc->m->arena, BcDialect, n + 1);
  for (uint64_t i = 0; i < n; i++) {
    BcDialect *d = &bc->dialects[i];
    const uint8_t *at = c->p;
    uint64_t idx;
    bool versioned = false;
    if (bc->version < V_DIALECT_VERSIONS) {
      if (!cur_varint(c, &idx)) return false;
    } else if (!cur_varint_flag(c, &idx, &versioned)) {
      return false;
    }
    if (!string_at(bc, idx, at, &d->name, &d->len)) return false;
    if (versioned) {
      /* VHLO keeps its version in the producer string: a dialect's own
         version record is skipped */
      uint8_t id;
      Cur v;
      at = c->p;
      if (!cur_section(c, &id, &v)) return false;
      if (id != SEC_DIALECT_VERSIONS)
        return bc_fail(bc, at, "expected the version of dialect '%s', found a %s", d->name, section_names[id]);
    }
    d->kind = dialect_kind(d->name, d->len);
  }
  return true;
}

static bool read_op_name(Bc *bc, Cur *c, int dialect, BcOpName *out) {
  const uint8_t *at = c->p;
  uint64_t idx;
  bool reg = true;
  if (bc->version < V_PROPERTIES ? !cur_varint(c, &idx) : !cur_varint_flag(c, &idx, &reg)) return false;
  if (!string_at(bc, idx, at, &out->name, &out->len)) return false;
  out->dialect = dialect;
  out->registered = reg;
  out->vhlo = bc->dialects[dialect].kind == DL_VHLO ? vhlo_op_find(out->name, out->len) : NULL;
  return true;
}

/* One group of a table grouped by dialect: the dialect and the count. */
static bool read_group(Bc *bc, Cur *c, int *dialect, uint64_t *n) {
  const uint8_t *at = c->p;
  *dialect = 0;
  *n = 0;
  uint64_t d;
  if (!cur_varint(c, &d)) return false;
  if (d >= (uint64_t)bc->ndialects)
    return bc_fail(bc, at, "dialect index %llu is out of range (%d dialects)", (unsigned long long)d, bc->ndialects);
  *dialect = (int)d;
  return cur_count(c, "entry", n);
}

static bool read_dialects(Bc *bc, Cur c) {
  uint64_t hint;
  if (!read_dialect_names(bc, &c)) return false;
  if (bc->version >= V_ELIDED_ARG_LOCS && !cur_varint(&c, &hint)) return false;
  VEC(BcOpName) names = {0};
  bool ok = true;
  while (ok && !cur_done(&c)) {
    int d;
    uint64_t n;
    ok = read_group(bc, &c, &d, &n);
    for (uint64_t i = 0; ok && i < n; i++) {
      BcOpName on = {0};
      ok = read_op_name(bc, &c, d, &on);
      if (ok) VEC_PUSH(names, on);
    }
  }
  if (ok) {
    bc->nopnames = names.len;
    bc->opnames = ARENA_ARRAY(&bc->m->arena, BcOpName, names.len + 1);
    if (names.len) memcpy(bc->opnames, names.data, sizeof(BcOpName) * (size_t)names.len);
  }
  VEC_FREE(names);
  return ok;
}

typedef VEC(BcResource) ResourceVec;

/* One resource: only a dialect's blobs (what dense_resource refers to)
   are kept, as handles in the order they come. */
static bool read_resource(Bc *bc, Cur *offs, Cur *data, ResourceVec *keep) {
  const char *key = "";
  uint64_t size;
  uint8_t kind;
  const uint8_t *bytes;
  if (!cur_string(offs, &key, NULL) || !cur_varint(offs, &size) || !cur_byte(offs, &kind) ||
      !cur_bytes(data, size, &bytes))
    return false;
  if (!keep) return true;
  BcResource r = {NULL, 0, kind == 0};
  if (r.blob && size) {
    Cur e = {bc, bytes, bytes + size, "resource blob"};
    uint64_t align, len;
    if (!cur_varint(&e, &align) || !cur_varint(&e, &len) || !cur_align(&e, align) || !cur_bytes(&e, len, &r.data))
      return false;
    if (!cur_done(&e)) return bc_fail(bc, e.p, "trailing bytes in resource '%s'", key);
    r.len = len;
  }
  VEC_PUSH(*keep, r);
  return true;
}

static bool read_resources(Bc *bc, Cur data, Cur offs) {
  uint64_t next, n;
  int d;
  if (!cur_count(&offs, "resource group", &next)) return false;
  for (uint64_t g = 0; g < next; g++) {
    const char *key;
    if (!cur_string(&offs, &key, NULL) || !cur_count(&offs, "resource", &n)) return false;
    for (uint64_t i = 0; i < n; i++)
      if (!read_resource(bc, &offs, &data, NULL)) return false;
  }
  ResourceVec keep = {0};
  bool ok = true;
  while (ok && !cur_done(&offs)) {
    ok = read_group(bc, &offs, &d, &n);
    for (uint64_t i = 0; ok && i < n; i++) ok = read_resource(bc, &offs, &data, &keep);
  }
  if (ok) {
    bc->nresources = keep.len;
    bc->resources = ARENA_ARRAY(&bc->m->arena, BcResource, keep.len + 1);
    if (keep.len) memcpy(bc->resources, keep.data, sizeof(BcResource) * (size_t)keep.len);
  }
  VEC_FREE(keep);
  return ok;
}

/* The entries of one table (attributes, then types), grouped by dialect:
   sizes, and whether the dialect's own encoding or assembly text. */
static bool read_entries(Bc *bc, Cur *offs, Cur data, size_t *pos, BcEntry *e, uint64_t n, const char *what) {
  size_t len = (size_t)(data.end - data.p);
  for (uint64_t i = 0; i < n;) {
    int d;
    uint64_t k;
    const uint8_t *at = offs->p;
    if (!read_group(bc, offs, &d, &k)) return false;
    if (k > n - i)
      return bc_fail(bc, at, "a group of %llu %ss overflows the %llu the table declares", (unsigned long long)k, what,
                     (unsigned long long)n);
    for (uint64_t j = 0; j < k; j++, i++) {
      uint64_t size;
      bool custom;
      at = offs->p;
      if (!cur_varint_flag(offs, &size, &custom)) return false;
      if (size > len - *pos)
        return bc_fail(bc, at, "%s %llu ends past the attribute/type section", what, (unsigned long long)i);
      e[i] = (BcEntry){data.p + *pos, (size_t)size, d, custom, 0, 0, NULL};
      *pos += size;
    }
  }
  return true;
}

static bool read_attr_types(Bc *bc, Cur data, Cur offs) {
  uint64_t na, nt;
  size_t pos = 0;
  if (!cur_count(&offs, "attribute", &na) || !cur_count(&offs, "type", &nt)) return false;
  bc->nattrs = (int)na;
  bc->ntypes = (int)nt;
  bc->attrs = ARENA_ARRAY(&bc->m->arena, BcEntry, na + 1);
  bc->types = ARENA_ARRAY(&bc->m->arena, BcEntry, nt + 1);
  if (!read_entries(bc, &offs, data, &pos, bc->attrs, na, "attribute") ||
      !read_entries(bc, &offs, data, &pos, bc->types, nt, "type"))
    return false;
  if (!cur_done(&offs)) return bc_fail(bc, offs.p, "trailing bytes in the attribute/type offset section");
  return true;
}

/* ---- the IR ---- */

static bool read_op(Bc *bc, Cur *c, Block *b, Ctx ctx, Region *r, int depth);
static bool is_sdy_op(Bc *bc, const BcOpName *on, const char *name);

/* Reserves n value slots for a region (zeroed: not defined yet). */
static void values_grow(Bc *bc, size_t n) {
  ValueVec *v = &bc->values;
  size_t need = (size_t)v->len + n;
  if (need > (size_t)v->cap) {
    size_t cap = v->cap ? (size_t)v->cap : 64;
    while (cap < need) cap *= 2;
    v->data = xrealloc(v->data, cap * sizeof(Value *));
    v->cap = (int)cap;
  }
  if (n) memset(v->data + v->len, 0, n * sizeof(Value *));
  v->len = (int)need;
}

static bool define(Bc *bc, Region *r, Value *v, const uint8_t *at) {
  if (!r) return true; /* the top level numbers no values */
  if (r->next >= r->end)
    return bc_fail(bc, at, "more values are defined than the region declares (%zu)", r->end - r->base);
  bc->values.data[r->next++] = v;
  return true;
}

static bool skip_use_lists(Bc *bc, Cur *c, uint64_t nvalues) {
  uint64_t n = 1, idx, len, x;
  bool pairs;
  if (nvalues > 1 && !cur_count(c, "use-list", &n)) return false;
  for (uint64_t i = 0; i < n; i++) {
    const uint8_t *at = c->p;
    if (nvalues > 1 && !cur_varint(c, &idx)) return false;
    if (nvalues > 1 && idx >= nvalues)
      return bc_fail(bc, at, "use-list order for value %llu of %llu", (unsigned long long)idx,
                     (unsigned long long)nvalues);
    if (!cur_varint_flag(c, &len, &pairs)) return false;
    if (len > cur_left(c)) return bc_fail(bc, at, "use-list order of %llu entries overruns the %s", (unsigned long long)len, c->what);
    for (uint64_t k = 0; k < len; k++)
      if (!cur_varint(c, &x)) return false;
  }
  return true;
}

static Type *value_type(Bc *bc, BT *t, const uint8_t *at, const char *what) {
  if (bt_is_value(t)) return t->t;
  bc_fail(bc, at, "%s has a type that is not a tensor, tuple or token (%s)", what,
          t->kind == BT_OTHER ? t->name : t->kind == BT_FUNC ? "a function type" : "an element type");
  return NULL;
}

static bool read_block_args(Bc *bc, Cur *c, Block *blk, Region *r) {
  uint64_t n, ti, li;
  bool has_loc = true;
  if (!cur_count(c, "block argument", &n)) return false;
  Value **args = ARENA_ARRAY(&bc->m->arena, Value *, n + 1);
  for (uint64_t i = 0; i < n; i++) {
    const uint8_t *at = c->p;
    if (bc->version >= V_ELIDED_ARG_LOCS ? !cur_varint_flag(c, &ti, &has_loc) : !cur_varint(c, &ti)) return false;
    BT *t = bc_type(bc, ti, at);
    const uint8_t *lat = c->p;
    if (!t || (has_loc && !cur_varint(c, &li))) return false;
    if (has_loc && li >= (uint64_t)bc->nattrs)
      return bc_fail(bc, lat, "location index %llu is out of range (%d attributes)", (unsigned long long)li,
                     bc->nattrs);
    Value *v = ARENA_NEW(&bc->m->arena, Value);
    if (!(v->type = value_type(bc, t, at, "a block argument"))) return false;
    v->owner = blk;
    v->index = (int)i;
    args[i] = v;
    if (!define(bc, r, v, at)) return false;
  }
  blk->args = args;
  blk->nargs = (int)n;
  return true;
}

/* A region of one block (StableHLO's regions have one), or NULL with
   *empty set for a region without blocks. */
static Block *read_region(Bc *bc, Cur *c, Ctx ctx, int depth, bool *empty) {
  const uint8_t *at = c->p;
  uint64_t nblocks, nvalues, nops;
  bool has_args;
  *empty = false;
  if (!cur_varint(c, &nblocks)) return NULL;
  if (nblocks == 0) {
    *empty = true;
    return NULL;
  }
  if (nblocks > 1) {
    bc_fail(bc, at, "a region with %llu blocks: only single-block regions are supported", (unsigned long long)nblocks);
    return NULL;
  }
  at = c->p;
  if (!cur_varint(c, &nvalues)) return NULL;
  if (nvalues > bc->value_budget) {
    bc_fail(bc, at, "a region declares %llu values, more than its bytes can define", (unsigned long long)nvalues);
    return NULL;
  }
  bc->value_budget -= nvalues;
  Region r = {(size_t)bc->values.len, (size_t)bc->values.len, (size_t)bc->values.len + nvalues};
  values_grow(bc, nvalues);
  Block *blk = block_new(bc->m);
  bool ok = cur_varint_flag(c, &nops, &has_args) && (!has_args || read_block_args(bc, c, blk, &r));
  if (ok && has_args && bc->version >= V_USE_LIST_ORDERS) {
    uint8_t has_orders;
    ok = cur_byte(c, &has_orders) && (!has_orders || skip_use_lists(bc, c, (uint64_t)blk->nargs));
  }
  if (ok && nops > cur_left(c))
    ok = bc_fail(bc, at, "a block of %llu operations overruns the %s", (unsigned long long)nops, c->what);
  for (uint64_t i = 0; ok && i < nops; i++) ok = read_op(bc, c, blk, ctx, &r, depth + 1);
  bc->values.len = (int)r.base;
  bc->value_budget += nvalues;
  return ok ? blk : NULL;
}

/* The regions of an op; those of an op isolated from above have a value
   scope of their own, and from version 2 a section of their own (one for
   all of the op's regions). */
static bool read_regions(Bc *bc, Cur *c, BcOp *o, bool isolated, Ctx ctx, int depth) {
  ValueVec outer = bc->values;
  Cur sub = *c, *rc = c;
  bool ok = true;
  if (o->nregions == 0) return true;
  if (isolated) bc->values = (ValueVec){0};
  if (isolated && bc->version >= V_LAZY_LOADING) {
    const uint8_t *at = c->p;
    uint8_t id;
    ok = cur_section(c, &id, &sub);
    if (ok && id != SEC_IR) ok = bc_fail(bc, at, "expected an IR section for regions, found a %s", section_names[id]);
    rc = &sub;
  }
  for (int i = 0; ok && i < o->nregions; i++) {
    const uint8_t *at = rc->p;
    bool empty = false;
    o->regions[i] = read_region(bc, rc, ctx, depth, &empty);
    /* an empty module is a module; a function without a body is reported
       by its name */
    ok = o->regions[i] != NULL || (empty && (ctx == CTX_MODULE || ctx == CTX_FUNC));
    if (!ok && empty) bc_fail(bc, at, "an empty region: every region must have a block");
  }
  if (ok && rc == &sub && !cur_done(&sub)) ok = bc_fail(bc, sub.p, "trailing bytes after the regions of an operation");
  if (isolated) {
    VEC_FREE(bc->values);
    bc->values = outer;
  }
  return ok;
}

static void push_named(Bc *bc, BcOp *o, const char *name, BA *val) {
  if (o->nattrs == o->acap) {
    int cap = o->acap ? 2 * o->acap : 16;
    BcNamed *a = ARENA_ARRAY(&bc->m->arena, BcNamed, cap);
    if (o->nattrs) memcpy(a, o->attrs, sizeof(BcNamed) * (size_t)o->nattrs);
    o->attrs = a;
    o->acap = cap;
  }
  o->attrs[o->nattrs++] = (BcNamed){name, val};
}

/* A dictionary attribute's entries appended to the op's attributes. */
static bool add_dict(Bc *bc, BcOp *o, const BA *d, const uint8_t *at) {
  if (d->kind != BA_DICT) return bc_fail(bc, at, "an operation's attributes are not a dictionary");
  for (int i = 0; i < d->n; i++) push_named(bc, o, d->keys[i]->s, d->elems[i]);
  return true;
}

static bool read_props(Bc *bc, Cur *c, BcOp *o, const BcOpName *on) {
  const uint8_t *at = c->p;
  uint64_t i, len;
  if (!cur_varint(c, &i)) return false;
  if (i >= (uint64_t)bc->nprops)
    return bc_fail(bc, at, "properties index %llu is out of range (%d properties)", (unsigned long long)i, bc->nprops);
  Cur pc = {bc, bc->props[i], bc->props_end, "properties"};
  const uint8_t *data;
  if (!cur_varint(&pc, &len) || !cur_bytes(&pc, len, &data)) return false;
  Cur e = {bc, data, data + len, "properties"};
  if (bc->dialects[on->dialect].kind == DL_SDY) {
    /* Shardy's ops that are read: their inherent attributes, by name */
    static const char *const mesh[] = {"mesh", "sym_name"}, *const constraint[] = {"sharding"};
    bool is_mesh = is_sdy_op(bc, on, "mesh");
    if (is_sdy_op(bc, on, "manual_computation")) {
      /* in_shardings, manual_axes, out_shardings: named by their kinds */
      int nper = 0;
      while (!cur_done(&e)) {
        BA *a = cur_attr(&e);
        if (!a) return false;
        bool axes = a->kind == BA_SDY && a->sdy == SDY_MANUAL_AXES;
        bool per = a->kind == BA_SDY && a->sdy == SDY_PER_VALUE;
        if ((!axes && !per) || (per && nper == 2))
          return bc_fail(bc, at, "the properties of 'sdy.manual_computation' are not its shardings and manual axes");
        push_named(bc, o, axes ? "manual_axes" : nper++ ? "out_shardings" : "in_shardings", a);
      }
      return true;
    }
    if (!is_mesh && !is_sdy_op(bc, on, "sharding_constraint"))
      return bc_fail(bc, at, "the properties of 'sdy.%s' are not read", on->name);
    for (int k = 0; k < (is_mesh ? 2 : 1); k++) {
      BA *a = cur_attr(&e);
      if (!a) return false;
      push_named(bc, o, is_mesh ? mesh[k] : constraint[k], a);
    }
  } else if (!on->vhlo) {
    /* builtin.module: sym_name and sym_visibility, both optional */
    static const char *const names[2] = {"sym_name", "sym_visibility"};
    for (int k = 0; k < 2; k++) {
      const uint8_t *aat = e.p;
      uint64_t ai;
      bool present;
      if (!cur_varint_flag(&e, &ai, &present)) return false;
      BA *a = present ? bc_attr(bc, ai, aat) : NULL;
      if (present && !a) return false;
      if (a) push_named(bc, o, names[k], a);
    }
  } else {
    const char *names[32];
    int n = vhlo_op_prop_names(on->vhlo, &bc->m->arena, names, 32);
    for (int k = 0; k < n; k++) {
      BA *a = cur_attr(&e);
      if (!a) return false;
      push_named(bc, o, names[k], a);
    }
  }
  if (!cur_done(&e)) return bc_fail(bc, e.p, "trailing bytes in the properties of '%s'", on->name);
  return true;
}

/* An op's attributes: its dictionary, then its properties (at most one
   per inherent attribute, or a dictionary's entries). */
static bool read_attrs(Bc *bc, Cur *c, BcOp *o, uint8_t mask, const BcOpName *on) {
  const uint8_t *at = c->p;
  BA *d = NULL;
  if ((mask & OPM_ATTRS) && !(d = cur_attr(c))) return false;
  if (d && !add_dict(bc, o, d, at)) return false;
  if (!(mask & OPM_PROPERTIES)) return true;
  if (bc->version < V_PROPERTIES)
    return bc_fail(bc, c->p - 1, "an operation with properties in bytecode version %llu, which has none",
                   (unsigned long long)bc->version);
  if (on->registered) return read_props(bc, c, o, on);
  at = c->p;
  d = cur_attr(c); /* an op unknown to the writer keeps them as a dictionary */
  return d && add_dict(bc, o, d, at);
}

static bool read_results(Bc *bc, Cur *c, BcOp *o) {
  uint64_t n;
  if (!cur_count(c, "result", &n)) return false;
  o->nres = (int)n;
  o->res = ARENA_ARRAY(&bc->m->arena, BT *, n + 1);
  for (uint64_t i = 0; i < n; i++)
    if (!(o->res[i] = cur_type(c))) return false;
  return true;
}

static bool read_operands(Bc *bc, Cur *c, BcOp *o) {
  uint64_t n;
  if (!cur_count(c, "operand", &n)) return false;
  o->nopnds = (int)n;
  o->opnds = ARENA_ARRAY(&bc->m->arena, Value *, n + 1);
  for (uint64_t i = 0; i < n; i++) {
    const uint8_t *at = c->p;
    uint64_t v;
    if (!cur_varint(c, &v)) return false;
    if (v >= (uint64_t)bc->values.len)
      return bc_fail(bc, at, "value index %llu is out of range (%d values are in scope)", (unsigned long long)v,
                     bc->values.len);
    if (!(o->opnds[i] = bc->values.data[v]))
      return bc_fail(bc, at, "value %llu is used before it is defined", (unsigned long long)v);
  }
  return true;
}

static char *op_name_str(Bc *bc, const BcOpName *on) {
  return xasprintf("%s.%s", bc->dialects[on->dialect].name, on->name);
}

static bool unknown_op(Bc *bc, const BcOpName *on, const uint8_t *at) {
  char *name = op_name_str(bc, on);
  const BcDialect *d = &bc->dialects[on->dialect];
  bool shlo = d->len == 9 && memcmp(d->name, "stablehlo", 9) == 0;
  bc_fail(bc, at, "unknown operation '%s'%s", name,
          shlo ? " (StableHLO bytecode: only portable artifacts, whose ops are VHLO's, are read)" : "");
  xfree(name);
  return false;
}

static bool is_module_op(Bc *bc, const BcOpName *on) {
  return bc->dialects[on->dialect].kind == DL_BUILTIN && on->len == 6 && memcmp(on->name, "module", 6) == 0;
}

/* Shardy's mesh declarations: JAX puts one in the module of a program
   with shardings (and jax.export keeps it).  It names devices for the
   sharding annotations, which are metadata here. */
static bool is_sdy_op(Bc *bc, const BcOpName *on, const char *name) {
  const BcDialect *d = &bc->dialects[on->dialect];
  return d->len == 3 && memcmp(d->name, "sdy", 3) == 0 && on->len == strlen(name) && memcmp(on->name, name, on->len) == 0;
}

static bool is_mesh_op(Bc *bc, const BcOpName *on) { return is_sdy_op(bc, on, "mesh"); }

/* Ops whose results are their operands here: the casts that bracket a
   foreign op in an artifact (its operands and results are builtin types,
   the artifact's values VHLO types), and Shardy's reshards, propagation
   barriers and sharding groups, which change nothing on the devices xlac
   runs on (sharding_group has no results and is dropped).  Sharding
   constraints are ops of the IR (constraint_op). */
static bool is_forwarding_op(Bc *bc, const BcOpName *on) {
  static const char *const sdy_ops[] = {"reshard", "propagation_barrier", "sharding_group"};
  if (bc->dialects[on->dialect].kind == DL_BUILTIN)
    return on->len == 26 && memcmp(on->name, "unrealized_conversion_cast", 26) == 0;
  for (size_t i = 0; i < sizeof sdy_ops / sizeof sdy_ops[0]; i++)
    if (is_sdy_op(bc, on, sdy_ops[i])) return true;
  return false;
}

static bool check_index(Bc *bc, Cur *c, uint64_t n, const char *what) {
  const uint8_t *at = c->p;
  uint64_t i;
  if (!cur_varint(c, &i)) return false;
  if (i >= n) return bc_fail(bc, at, "%s index %llu is out of range (%llu)", what, (unsigned long long)i, (unsigned long long)n);
  return true;
}

/* What the manual computations need of the meshes (value_sharding in
   ops.c): the most axes of more than one device any mesh has, and the
   most devices. */
static void note_mesh(Bc *bc, const SdyMesh *m) {
  int n = 0;
  int64_t devices = 1;
  for (int i = 0; i < m->naxes; i++) {
    int64_t size = m->axes[i].size;
    if (size < 1 || size > (1 << 20)) {
      bc->mesh_axes = -1;
      return;
    }
    n += size > 1;
    devices *= size;
    if (devices > (1 << 20)) devices = 1 << 20;
  }
  if (bc->mesh_axes >= 0 && n > bc->mesh_axes) bc->mesh_axes = n;
  if (devices > bc->mesh_devices) bc->mesh_devices = devices;
}

static bool read_attrs(Bc *bc, Cur *c, BcOp *o, uint8_t mask, const BcOpName *on);

/* The attributes of a Shardy op other than its inherent ones (`skip`),
   converted; those in encodings xlac does not read go with a warning. */
static bool other_attrs(Bc *bc, const BcOp *o, const char *skip, const char *skip2, NamedAttr **out, int *n) {
  NamedAttr *na = ARENA_ARRAY(&bc->m->arena, NamedAttr, o->nattrs + 1);
  int k = 0;
  for (int i = 0; i < o->nattrs; i++) {
    const BcNamed *a = &o->attrs[i];
    if (strcmp(a->name, skip) == 0 || strcmp(a->name, skip2) == 0 || bc_drop_foreign(bc, a->name, a->val)) continue;
    for (int j = 0; j < k; j++)
      if (strcmp(na[j].name, a->name) == 0) return bc_fail(bc, o->at, "attribute '%s' given twice", a->name);
    Attr *v = bc_convert_attr(bc, a->val);
    if (!v) return false;
    na[k++] = (NamedAttr){arena_strdup(&bc->m->arena, a->name), v};
  }
  *out = na;
  *n = k;
  return true;
}

static const BA *named(const BcOp *o, const char *name) {
  const BA *v = NULL;
  for (int i = 0; i < o->nattrs; i++)
    if (strcmp(o->attrs[i].name, name) == 0) v = o->attrs[i].val;
  return v;
}

/* `sdy.mesh @name = <...>`: a mesh of the module's table.  Its properties
   hold the mesh and the name; its other attributes (JAX's portable
   `stablehlo.mesh`) stay with the declaration. */
static bool mesh_op(Bc *bc, Cur *c, const BcOpName *on, const uint8_t *at) {
  BcOp o = {0};
  uint8_t mask;
  o.at = at;
  if (!cur_byte(c, &mask) || !check_index(bc, c, (uint64_t)bc->nattrs, "location") || !read_attrs(bc, c, &o, mask, on))
    return false;
  if (mask & (OPM_RESULTS | OPM_OPERANDS | OPM_SUCCESSORS | OPM_USE_LISTS | OPM_REGIONS))
    return bc_fail(bc, at, "a mesh declaration with operands, results or regions");
  const BA *mesh = named(&o, "mesh"), *name = named(&o, "sym_name");
  SdyMesh *m = mesh && mesh->kind == BA_SDY && mesh->sdy == SDY_MESH ? mesh->ptr : NULL;
  if (mesh && mesh->kind == BA_TEXT && strncmp(mesh->s, "#sdy.mesh", 9) == 0) {
    /* written by a Shardy without its bytecode encoding: the text */
    size_t off;
    char *e = NULL;
    m = ARENA_NEW(&bc->m->arena, SdyMesh);
    if (sdy_parse_mesh(&bc->m->arena, mesh->s + 9, mesh->slen - 9, m, &off, &e) != mesh->slen - 9) m = NULL;
    xfree(e);
  }
  if (!m) return bc_fail(bc, at, "sdy.mesh without its mesh");
  if (!name || name->kind != BA_STRING || name->slen == 0 || memchr(name->s, 0, name->slen) || strstr(name->s, "::"))
    return bc_fail(bc, at, "sdy.mesh without a name");
  NamedAttr *rest;
  int n;
  if (!other_attrs(bc, &o, "mesh", "sym_name", &rest, &n)) return false;
  if (module_find_mesh(bc->m, name->s)) return bc_fail(bc, at, "redefinition of mesh '@%s'", name->s);
  note_mesh(bc, m);
  module_add_mesh(bc->m, name->s, m, n, rest, (SrcLoc){bc->file, (uint32_t)(at - bc->base)});
  return true;
}

static bool read_results(Bc *bc, Cur *c, BcOp *o);
static bool read_operands(Bc *bc, Cur *c, BcOp *o);

/* The start of an op xlac reads without its attributes (a foreign op):
   its mask, location, attribute and properties indices (checked, not
   followed), result types and operands. */
static bool read_foreign_head(Bc *bc, Cur *c, const BcOpName *on, BcOp *o, uint8_t *mask) {
  bool props = bc->version >= V_PROPERTIES && on->registered;
  if (!cur_byte(c, mask) || !check_index(bc, c, (uint64_t)bc->nattrs, "location")) return false;
  if ((*mask & OPM_ATTRS) && !check_index(bc, c, (uint64_t)bc->nattrs, "attribute")) return false;
  if ((*mask & OPM_PROPERTIES) &&
      !check_index(bc, c, (uint64_t)(props ? bc->nprops : bc->nattrs), props ? "properties" : "attribute"))
    return false;
  if ((*mask & OPM_RESULTS) && !read_results(bc, c, o)) return false;
  return !(*mask & OPM_OPERANDS) || read_operands(bc, c, o);
}

/* A forwarding op (is_forwarding_op): its attributes are stepped over and
   each result is defined as the operand in its place. */
static bool forward_op(Bc *bc, Cur *c, const BcOpName *on, Region *r, const uint8_t *at) {
  BcOp o = {0};
  uint8_t mask;
  if (!read_foreign_head(bc, c, on, &o, &mask)) return false;
  char *name = op_name_str(bc, on);
  bool ok = true;
  if (mask & (OPM_SUCCESSORS | OPM_REGIONS)) ok = bc_fail(bc, at, "'%s' with successors or regions", name);
  else if (o.nres && o.nres != o.nopnds)
    ok = bc_fail(bc, at, "'%s' with %d operands and %d results", name, o.nopnds, o.nres);
  xfree(name);
  if (!ok) return false;
  if (bc->version >= V_USE_LIST_ORDERS && (mask & OPM_USE_LISTS) && !skip_use_lists(bc, c, (uint64_t)o.nres))
    return false;
  for (int i = 0; i < o.nres; i++)
    if (!define(bc, r, o.opnds[i], at)) return false;
  return true;
}

/* `sdy.sharding_constraint %v <@mesh, [...]>`: an op of the IR, whose
   result is its operand laid out as the sharding says. */
static bool constraint_op(Bc *bc, Cur *c, const BcOpName *on, Block *b, Region *r, const uint8_t *at) {
  BcOp o = {0};
  uint8_t mask;
  o.at = at;
  if (!cur_byte(c, &mask) || !check_index(bc, c, (uint64_t)bc->nattrs, "location") || !read_attrs(bc, c, &o, mask, on))
    return false;
  if ((mask & OPM_RESULTS) && !read_results(bc, c, &o)) return false;
  if ((mask & OPM_OPERANDS) && !read_operands(bc, c, &o)) return false;
  if (mask & (OPM_SUCCESSORS | OPM_REGIONS))
    return bc_fail(bc, at, "sdy.sharding_constraint with successors or regions");
  if (bc->version >= V_USE_LIST_ORDERS && (mask & OPM_USE_LISTS) && !skip_use_lists(bc, c, (uint64_t)o.nres))
    return false;
  if (o.nopnds != 1 || o.nres != 1)
    return bc_fail(bc, at, "sdy.sharding_constraint with %d operands and %d results", o.nopnds, o.nres);
  Type *t = value_type(bc, o.res[0], at, "the result of sdy.sharding_constraint");
  if (!t) return false;
  NamedAttr *rest;
  int n;
  if (!other_attrs(bc, &o, "", "", &rest, &n)) return false;
  bool have = false;
  for (int i = 0; i < n; i++)
    have = have || (strcmp(rest[i].name, "sharding") == 0 && attr_is_sdy(rest[i].attr, SDY_ATTR_SHARDING));
  if (!have) return bc_fail(bc, at, "sdy.sharding_constraint without its sharding");
  Op *op = op_new(bc->m, OP_SDY_SHARDING_CONSTRAINT, 1, o.opnds, 1, &t, (SrcLoc){bc->file, (uint32_t)(at - bc->base)});
  op->attrs = rest;
  op->nattrs = n;
  block_append(b, op);
  return define(bc, r, &op->res[0], at);
}

/* ---- Shardy's manual computations ----
 * `sdy.manual_computation` (shard_map, pmap) runs its region on every
 * device, on that device's shards of its operands along the manual axes
 * (the region's arguments have those per-device types), with collectives
 * between the devices; its results are the shards its out_shardings name.
 * The region becomes a private function of the per-device types, and the
 * op a `custom_call @xlac.manual_computation` of the global types calling
 * it (`called_computations`), with the op's in_shardings, out_shardings
 * and manual_axes; the partitioner (src/passes/spmd.c) cuts the operands,
 * calls the function and holds its results as those shards.
 *
 * A program that is one such computation of its parameters over every
 * axis of a one-axis mesh, and nothing else, is run as it was written for
 * one device: the region becomes the function's body (localize below),
 * its parameters and results take the per-device types, and the module is
 * marked `xlac.manual_partitions`. */

bool bc_is_localized(const Bc *bc, const Block *body) { return body && bc->localized == body; }

static void replace_uses(Block *blk, const Value *from, Value *to) {
  for (Op *op = blk->first; op; op = op->next) {
    for (int i = 0; i < op->nopnds; i++)
      if (op->opnds[i] == from) op->opnds[i] = to;
    for (int k = 0; k < op->nregions; k++)
      if (op->regions[k]) replace_uses(op->regions[k], from, to);
  }
}

static bool read_regions(Bc *bc, Cur *c, BcOp *o, bool isolated, Ctx ctx, int depth);

static bool manual_computation(Bc *bc, Cur *c, const BcOpName *on, Block *b, Region *r, int depth,
                               const uint8_t *at) {
  BcOp o = {0};
  uint8_t mask;
  uint64_t nregions;
  bool isolated;
  o.at = at;
  if (!cur_byte(c, &mask) || !check_index(bc, c, (uint64_t)bc->nattrs, "location") || !read_attrs(bc, c, &o, mask, on))
    return false;
  if ((mask & OPM_RESULTS) && !read_results(bc, c, &o)) return false;
  if ((mask & OPM_OPERANDS) && !read_operands(bc, c, &o)) return false;
  if (mask & OPM_SUCCESSORS) return bc_fail(bc, at, "sdy.manual_computation with successors");
  if (bc->version >= V_USE_LIST_ORDERS && (mask & OPM_USE_LISTS) && !skip_use_lists(bc, c, (uint64_t)o.nres))
    return false;
  if (!(mask & OPM_REGIONS) || !cur_varint_flag(c, &nregions, &isolated) || nregions != 1)
    return bc->failed ? false : bc_fail(bc, at, "sdy.manual_computation without its one region");
  Value **outer_ret = bc->manual_ret;
  int outer_n = bc->nmanual_ret;
  bc->in_manual++;
  bc->manual_ret = NULL;
  bc->nmanual_ret = -1;
  o.nregions = 1;
  o.regions = ARENA_ARRAY(&bc->m->arena, Block *, 2);
  bool ok = read_regions(bc, c, &o, isolated, CTX_REGION, depth);
  Value **ret = bc->manual_ret;
  int nret = bc->nmanual_ret;
  bc->in_manual--;
  bc->manual_ret = outer_ret;
  bc->nmanual_ret = outer_n;
  if (!ok) return false;
  Block *blk = o.regions[0];
  if (nret != o.nres)
    return bc_fail(bc, at, "sdy.manual_computation with %d results whose region returns %d values", o.nres, nret);
  if (blk->nargs != o.nopnds)
    return bc_fail(bc, at, "sdy.manual_computation with %d operands whose region takes %d", o.nopnds, blk->nargs);
  Type **types = ARENA_ARRAY(&bc->m->arena, Type *, o.nres + 1);
  for (int i = 0; i < o.nres; i++)
    if (!(types[i] = value_type(bc, o.res[i], at, "a result of sdy.manual_computation"))) return false;
  NamedAttr *rest;
  int n;
  if (!other_attrs(bc, &o, "", "", &rest, &n)) return false;
  SrcLoc loc = {bc->file, (uint32_t)(at - bc->base)};
  /* the region, a function */
  char name[48];
  for (int k = 0;; k++) {
    snprintf(name, sizeof name, "xlac.manual.%d", k);
    if (!module_find_func(bc->m, name)) break;
  }
  Func *f = func_new(bc->m, name, loc);
  f->body = blk;
  blk->parent_func = f;
  f->is_private = true;
  f->nresults = nret;
  f->result_types = ARENA_ARRAY(&bc->m->arena, Type *, nret + 1);
  for (int i = 0; i < nret; i++) f->result_types[i] = ret[i]->type;
  block_append(blk, op_new(bc->m, OP_FUNC_RETURN, nret, ret, 0, NULL, loc));
  /* the op that calls it */
  Op *op = op_new(bc->m, OP_CUSTOM_CALL, o.nopnds, o.opnds, o.nres, types, loc);
  NamedAttr *na = ARENA_ARRAY(&bc->m->arena, NamedAttr, n + 3);
  na[0] = (NamedAttr){"call_target_name", attr_string(bc->m, MANUAL_TARGET, strlen(MANUAL_TARGET))};
  Attr *callee = attr_symbol(bc->m, f->name);
  na[1] = (NamedAttr){"called_computations", attr_array(bc->m, 1, &callee)};
  if (n) memcpy(na + 2, rest, sizeof(NamedAttr) * (size_t)n);
  op->attrs = na;
  op->nattrs = n + 2;
  block_append(b, op);
  for (int i = 0; i < o.nres; i++)
    if (!define(bc, r, &op->res[i], at)) return false;
  return true;
}

/* `sdy.return` ends a manual computation's region: what it returns
   becomes the results of the computation. */
static bool manual_return(Bc *bc, Cur *c, const BcOpName *on, const uint8_t *at) {
  BcOp o = {0};
  uint8_t mask;
  if (!read_foreign_head(bc, c, on, &o, &mask)) return false;
  if (mask & (OPM_PROPERTIES | OPM_RESULTS | OPM_SUCCESSORS | OPM_REGIONS))
    return bc_fail(bc, at, "sdy.return with properties, results, successors or regions");
  if (bc->nmanual_ret >= 0) return bc_fail(bc, at, "a second sdy.return");
  bc->manual_ret = o.opnds;
  bc->nmanual_ret = o.nopnds;
  return true;
}

static void remove_func(Module *m, Func *f) {
  for (Func **p = &m->funcs; *p; p = &(*p)->next)
    if (*p == f) {
      *p = f->next;
      return;
    }
}

/* A function body that is constants and one manual computation of its
   parameters (each once), and returns that computation's results, over a
   mesh of one axis that it makes manual, the module's only one, becomes the body of the manual
   computation (see above).  False when it is not so (nothing changes). */
bool bc_localize(Bc *bc, Block *b, bool (*fits)(Bc *, const Op *, void *), void *ud) {
  Op *ret = block_terminator(b), *mc = NULL;
  if (!ret || ret->kind != OP_FUNC_RETURN || bc->localized) return false;
  for (Op *op = b->first; op && op != ret; op = op->next) {
    if (op->kind == OP_CONSTANT) continue;
    const char *t = op->kind == OP_CUSTOM_CALL ? op_attr_str(op, "call_target_name") : NULL;
    if (mc || !t || strcmp(t, MANUAL_TARGET) != 0) return false;
    mc = op;
  }
  if (!mc || mc->nopnds != b->nargs) return false;
  for (int i = 0; i < mc->nopnds; i++) {
    if (mc->opnds[i]->def || mc->opnds[i]->owner != b) return false;
    for (int k = 0; k < i; k++)
      if (mc->opnds[k] == mc->opnds[i]) return false;
  }
  for (int i = 0; i < ret->nopnds; i++)
    if (ret->opnds[i]->def != mc) return false;
  const Attr *cc = op_attr(mc, "called_computations");
  Func *f = cc && cc->kind == ATTR_ARRAY && cc->n == 1 ? module_find_func(bc->m, cc->elems[0]->s) : NULL;
  if (!f || !fits(bc, mc, ud)) return false;
  /* another manual computation (nested in this one) is left to the
     partitioner with the rest */
  for (const Func *g = bc->m->funcs; g; g = g->next)
    if (g != f && g->is_private && strncmp(g->name, "xlac.manual.", 12) == 0) return false;
  Block *blk = f->body;
  Op *fret = block_terminator(blk);
  for (int i = 0; i < mc->nopnds; i++) {
    Value *v = mc->opnds[i];
    v->type = blk->args[i]->type;
    replace_uses(blk, blk->args[i], v);
  }
  for (int i = 0; i < ret->nopnds; i++) ret->opnds[i] = fret->opnds[ret->opnds[i] - mc->res];
  op_erase(fret);
  op_erase(mc);
  /* the region's operations move into the function */
  for (Op *op = blk->first, *next; op; op = next) {
    next = op->next;
    op->next = NULL;
    block_insert_before(b, ret, op);
  }
  remove_func(bc->m, f);
  bc->localized = b;
  bc->manual_done = true;
  return true;
}

/* Whether an op may stand where it is. */
static bool check_place(Bc *bc, const BcOpName *on, Ctx ctx, const uint8_t *at) {
  bool module = is_module_op(bc, on), func = on->vhlo && vhlo_op_is_func(on->vhlo);
  const char *where = NULL;
  if (module && ctx != CTX_TOP) where = "inside a module";
  if (func && (ctx == CTX_FUNC || ctx == CTX_REGION)) where = "inside a function";
  if (!module && !func && (ctx == CTX_TOP || ctx == CTX_MODULE)) where = "outside a function";
  if (!where) return true;
  char *name = op_name_str(bc, on);
  bc_fail(bc, at, "'%s' %s", name, where);
  xfree(name);
  return false;
}

static bool build_module(Bc *bc, const BcOp *o) {
  if (o->nopnds || o->nres) return bc_fail(bc, o->at, "builtin.module with operands or results");
  NamedAttr *na = ARENA_ARRAY(&bc->m->arena, NamedAttr, o->nattrs + 2);
  int n = 0;
  if (bc->manual_done) na[n++] = (NamedAttr){"xlac.manual_partitions", attr_unit(bc->m)};
  bc->m->loc = (SrcLoc){bc->file, (uint32_t)(o->at - bc->base)};
  for (int i = 0; i < o->nattrs; i++) {
    const BcNamed *a = &o->attrs[i];
    if (strcmp(a->name, "sym_name") == 0 && a->val->kind == BA_STRING) {
      bc->m->name = arena_strndup(&bc->m->arena, a->val->s, a->val->slen);
      if (strstr(bc->m->name, "::")) return bc_fail(bc, o->at, "'%s' is not a module name", bc->m->name);
    } else if (strcmp(a->name, "sym_visibility") != 0 && !bc_drop_foreign(bc, a->name, a->val)) {
      Attr *v = bc_convert_attr(bc, a->val);
      if (!v) return false;
      na[n++] = (NamedAttr){a->name, v};
    }
  }
  bc->m->attrs = na;
  bc->m->nattrs = n;
  return true;
}

/* An op, its regions (read in place, right after it), and what it
   becomes; its results are defined once its regions are read, so they
   cannot be used inside them. */
static bool read_op(Bc *bc, Cur *c, Block *b, Ctx ctx, Region *r, int depth) {
  BcOp o = {0};
  o.at = c->p;
  uint64_t ni, loc, nregions;
  uint8_t mask;
  bool isolated = false;
  if (depth > BC_MAX_DEPTH) return bc_fail(bc, o.at, "regions nested more than %d deep", BC_MAX_DEPTH);
  if (!cur_varint(c, &ni)) return false;
  if (ni >= (uint64_t)bc->nopnames)
    return bc_fail(bc, o.at, "operation name index %llu is out of range (%d names)", (unsigned long long)ni,
                   bc->nopnames);
  const BcOpName *on = &bc->opnames[ni];
  if (is_mesh_op(bc, on) && ctx == CTX_MODULE) return mesh_op(bc, c, on, o.at);
  if (is_sdy_op(bc, on, "sharding_constraint") && (ctx == CTX_FUNC || ctx == CTX_REGION))
    return constraint_op(bc, c, on, b, r, o.at);
  if (is_forwarding_op(bc, on) && (ctx == CTX_FUNC || ctx == CTX_REGION)) return forward_op(bc, c, on, r, o.at);
  if (is_sdy_op(bc, on, "manual_computation") && (ctx == CTX_FUNC || ctx == CTX_REGION))
    return manual_computation(bc, c, on, b, r, depth, o.at);
  if (is_sdy_op(bc, on, "return") && ctx == CTX_REGION && bc->in_manual && b && !b->parent_op)
    return manual_return(bc, c, on, o.at);
  if (!on->vhlo && !is_module_op(bc, on)) return unknown_op(bc, on, o.at);
  if (!check_place(bc, on, ctx, o.at)) return false;
  o.def = on->vhlo;
  const uint8_t *at = c->p + 1;
  if (!cur_byte(c, &mask) || !cur_varint(c, &loc)) return false;
  if (loc >= (uint64_t)bc->nattrs)
    return bc_fail(bc, at, "location index %llu is out of range (%d attributes)", (unsigned long long)loc, bc->nattrs);
  if (!read_attrs(bc, c, &o, mask, on)) return false;
  if ((mask & OPM_RESULTS) && !read_results(bc, c, &o)) return false;
  if ((mask & OPM_OPERANDS) && !read_operands(bc, c, &o)) return false;
  if (mask & OPM_SUCCESSORS) return bc_fail(bc, o.at, "an operation with successors: only single-block regions are supported");
  if (bc->version >= V_USE_LIST_ORDERS && (mask & OPM_USE_LISTS) && !skip_use_lists(bc, c, (uint64_t)o.nres))
    return false;
  if (mask & OPM_REGIONS) {
    if (!cur_varint_flag(c, &nregions, &isolated)) return false;
    if (nregions > cur_left(c)) return bc_fail(bc, c->p, "%llu regions overrun the %s", (unsigned long long)nregions, c->what);
    o.nregions = (int)nregions;
    o.regions = ARENA_ARRAY(&bc->m->arena, Block *, nregions + 1);
  }
  bool module = !on->vhlo, func = !module && vhlo_op_is_func(on->vhlo);
  Ctx inner = module ? CTX_MODULE : func ? CTX_FUNC : CTX_REGION;
  if (!read_regions(bc, c, &o, isolated, inner, depth)) return false;
  if (module) {
    if (o.nregions != 1) return bc_fail(bc, o.at, "builtin.module with %d regions", o.nregions);
    if (bc->have_module) return bc_fail(bc, o.at, "a second module: an artifact holds one");
    bc->have_module = true;
    return build_module(bc, &o);
  }
  if (func) return vhlo_build_func(bc, &o, o.nregions == 1 ? o.regions[0] : NULL);
  Op *op;
  if (!vhlo_build_op(bc, &o, b, ctx == CTX_FUNC, &op)) return false;
  for (int i = 0; i < op->nres; i++)
    if (!define(bc, r, &op->res[i], o.at)) return false;
  return true;
}

static bool read_ir(Bc *bc, Cur c) {
  uint64_t nops;
  bool has_args;
  bc->value_budget = (uint64_t)(c.end - c.p);
  if (!cur_varint_flag(&c, &nops, &has_args)) return false;
  if (has_args) return bc_fail(bc, c.p, "the top-level block has arguments");
  if (nops > cur_left(&c)) return bc_fail(bc, c.p, "%llu top-level operations overrun the IR section", (unsigned long long)nops);
  for (uint64_t i = 0; i < nops; i++)
    if (!read_op(bc, &c, NULL, CTX_TOP, NULL, 0)) return false;
  if (!cur_done(&c)) return bc_fail(bc, c.p, "trailing bytes after the top-level operations");
  return true;
}

static bool section_required(int id, uint64_t version) {
  if (id == SEC_PROPERTIES) return version >= V_PROPERTIES;
  return id <= SEC_IR;
}

bool bc_read(Bc *bc, size_t begin, size_t end) {
  Cur c = {bc, bc->base + begin, bc->base + end, "header"};
  Cur sec[SEC_COUNT];
  bool have[SEC_COUNT] = {0};
  bc->origin = c.p;
  if (!read_header(bc, &c)) return false;
  c.what = "file";
  while (!cur_done(&c)) {
    const uint8_t *at = c.p;
    uint8_t id;
    Cur s;
    if (!cur_section(&c, &id, &s)) return false;
    if (have[id]) return bc_fail(bc, at, "a second %s", section_names[id]);
    sec[id] = s;
    have[id] = true;
  }
  for (int i = 0; i < SEC_COUNT; i++)
    if (!have[i] && section_required(i, bc->version))
      return bc_fail(bc, c.p, "the %s is missing", section_names[i]);
  if (have[SEC_RESOURCE] != have[SEC_RESOURCE_OFFSET])
    return bc_fail(bc, c.p, "the %s is missing", section_names[have[SEC_RESOURCE] ? SEC_RESOURCE_OFFSET : SEC_RESOURCE]);
  return read_strings(bc, sec[SEC_STRING]) && (!have[SEC_PROPERTIES] || read_properties(bc, sec[SEC_PROPERTIES])) &&
         read_dialects(bc, sec[SEC_DIALECT]) &&
         (!have[SEC_RESOURCE] || read_resources(bc, sec[SEC_RESOURCE], sec[SEC_RESOURCE_OFFSET])) &&
         read_attr_types(bc, sec[SEC_ATTR_TYPE], sec[SEC_ATTR_TYPE_OFFSET]) && read_ir(bc, sec[SEC_IR]);
}
