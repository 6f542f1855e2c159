/*
 * spmd.c - the SPMD partitioner: a global program with sharded parameters
 * and results becomes the program of one partition (spmd.h).
 *
 * Needs: the entry function with static tensor types, shardings on its
 * parameters and results (Shardy's or GSPMD's text) over a mesh of npart
 * devices; anything inside.  Leaves: the entry's parameters and results
 * of the shard types, `mhlo.sharding` on each, collectives with explicit
 * groups of partition ids (channel set, use_global_device_ids), and the
 * module marked `xlac.spmd_partitioned` so that a second compilation of
 * the same module leaves it alone.
 *
 * The rule that makes every program right: a value that is split is
 * gathered (all_gather along each split dimension, over the partitions
 * that hold the other pieces, in shard order) before any op that is not
 * known to work on shards uses it, that op computes the global value as
 * the original program did, and a result to be split is cut out of the
 * global value by partition_id (dynamic_slice at offsets read from a
 * table of the partitions' offsets).  Where it is plainly right, ops work
 * on shards instead and nothing moves:
 *   - elementwise ops whose split operands are split alike (a replicated
 *     operand of the same shape is cut locally; a scalar broadcast is
 *     broadcast to the shard instead);
 *   - reduce of a split operand by add, multiply, max, min, and, or with
 *     the operation's identity as initial value: a local reduce, then
 *     all_reduce over the partitions that split the reduced dimensions;
 *   - dot_general with one operand split only along its free dimensions
 *     and the other replicated: the result is split alike.
 * Results whose sharding the program leaves open keep the layout they
 * have; results with a sharding get exactly it.  The walk covers the
 * entry block; ops with regions (and calls) see gathered values.
 */
#include "passes/spmd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/literal.h"
#include "ir/rewrite.h"
#include "ir/sharding.h"
#include "ir/verify.h"
#include "passes/build.h"

#define MAXR 64
#define MARK "xlac.spmd_partitioned"

/* ---- layouts ---- */

static SpmdTiling *tiling_alloc(Arena *a, int rank, int ndev) {
  SpmdTiling *t = ARENA_NEW(a, SpmdTiling);
  t->rank = rank;
  t->ndev = ndev;
  t->ways = ARENA_ARRAY(a, int64_t, rank + 1);
  t->devices = ARENA_ARRAY(a, int64_t, ndev + 1);
  t->coord = ARENA_ARRAY(a, int64_t, (size_t)ndev * (size_t)(rank + 1) + 1);
  return t;
}

static bool splits(const SpmdTiling *t) {
  for (int d = 0; t && d < t->rank; d++)
    if (t->ways[d] > 1) return true;
  return false;
}

/* The position of a coordinate vector (rank + 1 entries) in the tile array. */
static int64_t tile_pos(const SpmdTiling *t, const int64_t *c) {
  int64_t pos = 0;
  for (int d = 0; d < t->rank; d++) pos = pos * t->ways[d] + c[d];
  return pos * t->nrep + c[t->rank];
}

/* Fills coord from devices (a permutation of 0..ndev-1, checked). */
static bool tiling_finish(SpmdTiling *t, char **err) {
  int r = t->rank;
  for (int64_t p = 0; p < t->ndev; p++) t->coord[p * (r + 1)] = -1;
  for (int64_t pos = 0; pos < t->ndev; pos++) {
    int64_t p = t->devices[pos];
    if (p < 0 || p >= t->ndev || (r >= 0 && t->coord[p * (r + 1)] != -1)) {
      *err = xasprintf("the device list is not a permutation of 0..%d", t->ndev - 1);
      return false;
    }
    int64_t rem = pos, *c = &t->coord[p * (r + 1)];
    c[r] = rem % t->nrep;
    rem /= t->nrep;
    for (int d = r - 1; d >= 0; d--) {
      c[d] = rem % t->ways[d];
      rem /= t->ways[d];
    }
  }
  return true;
}

/* A layout from each partition's coordinates (rank + 1 per partition). */
static SpmdTiling *tiling_from_coords(Arena *a, int rank, const int64_t *ways, int64_t nrep, int ndev,
                                      const int64_t *coords) {
  SpmdTiling *t = tiling_alloc(a, rank, ndev);
  memcpy(t->ways, ways, sizeof(int64_t) * (size_t)rank);
  t->nrep = nrep;
  for (int p = 0; p < ndev; p++) {
    memcpy(&t->coord[p * (rank + 1)], &coords[p * (rank + 1)], sizeof(int64_t) * (size_t)(rank + 1));
    t->devices[tile_pos(t, &coords[p * (rank + 1)])] = p;
  }
  return t;
}

/* Do two layouts put the same data on every partition? */
static bool same_data(const SpmdTiling *a, const SpmdTiling *b) {
  if (!splits(a) || !splits(b)) return !splits(a) && !splits(b);
  if (a->rank != b->rank || a->ndev != b->ndev) return false;
  for (int d = 0; d < a->rank; d++)
    if (a->ways[d] != b->ways[d]) return false;
  for (int p = 0; p < a->ndev; p++)
    for (int d = 0; d < a->rank; d++)
      if (a->coord[p * (a->rank + 1) + d] != b->coord[p * (b->rank + 1) + d]) return false;
  return true;
}

void spmd_shard_offsets(const SpmdTiling *t, const int64_t *dims, int64_t p, int64_t *offsets) {
  for (int d = 0; d < t->rank; d++) offsets[d] = t->coord[p * (t->rank + 1) + d] * (dims[d] / t->ways[d]);
}

void spmd_tiling_print(StrBuf *b, const SpmdTiling *t) {
  if (!splits(t)) {
    sb_puts(b, "{replicated}");
    return;
  }
  sb_puts(b, "{devices=[");
  for (int d = 0; d < t->rank; d++) sb_printf(b, "%s%lld", d ? "," : "", (long long)t->ways[d]);
  if (t->nrep > 1) sb_printf(b, ",%lld", (long long)t->nrep);
  sb_puts(b, "]");
  for (int i = 0; i < t->ndev; i++) sb_printf(b, "%s%lld", i ? "," : "", (long long)t->devices[i]);
  sb_puts(b, t->nrep > 1 ? " last_tile_dim_replicate}" : "}");
}

/* ---- layouts from Shardy's shardings ----
 * Partition at mesh position k (device_ids[k], or k) has coordinate c_a
 * along each axis.  A dimension's shard index combines the digits its
 * axes (or sub-axes "a":(pre)size, the digit (c_a / pre) % size) take,
 * major first; the copy index combines the digits no dimension uses, in
 * mesh order, as XLA's translation to a tile assignment orders them. */

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

static SpmdTiling *from_sdy(Module *m, const SdySharding *s, const Type *t, int npart, char **err) {
  const SdyMesh *mesh = sdy_sharding_mesh(m, s);
  if (!mesh) {
    *err = xasprintf("the sharding names mesh @%s, which the module does not declare", s->mesh_name ? s->mesh_name : "");
    return NULL;
  }
  if ((*err = sdy_sharding_check(m, s, t->kind == TY_TENSOR ? t : NULL))) return NULL;
  if (s->nunreduced > 0) {
    *err = xstrdup("an unreduced sharding (a partial value to be summed) is not supported");
    return NULL;
  }
  if (t->kind != TY_TENSOR) {
    if (s->ndims == 0) return NULL;
    *err = xstrdup("a sharding on a value that is not a tensor");
    return NULL;
  }
  bool any = false;
  for (int d = 0; d < s->ndims; d++) any |= sdy_dim_ways(mesh, &s->dims[d]) > 1;
  if (!any) return NULL;
  int64_t n = sdy_mesh_size(mesh);
  if (n != npart) {
    *err = xasprintf("the sharding's mesh has %lld devices, the program runs on %d partitions", (long long)n, npart);
    return NULL;
  }
  int rank = t->rank, na = mesh->naxes;
  int64_t *coords = ARENA_ARRAY(&m->arena, int64_t, (size_t)n * (size_t)(rank + 1));
  int64_t ways[MAXR], nrep = 1;
  for (int d = 0; d < rank; d++) ways[d] = sdy_dim_ways(mesh, &s->dims[d]);
  /* per axis: its digit boundaries, and which segments a dimension uses */
  int64_t bounds[SDY_MAX_AXES][2 * SDY_MAX_AXES + 2];
  int nb[SDY_MAX_AXES];
  bool used[SDY_MAX_AXES][2 * SDY_MAX_AXES + 2];
  for (int a = 0; a < na; a++) {
    int64_t size = mesh->axes[a].size;
    int k = 0;
    bounds[a][k++] = 1;
    bounds[a][k++] = size;
    for (int d = 0; d < s->ndims; d++)
      for (int j = 0; j < s->dims[d].naxes; j++) {
        const SdyAxisRef *r = &s->dims[d].axes[j];
        if (strcmp(r->name, mesh->axes[a].name) != 0 || k + 2 > 2 * SDY_MAX_AXES + 2) continue;
        bounds[a][k++] = r->size ? r->pre_size : 1;
        bounds[a][k++] = r->size ? r->pre_size * r->size : size;
      }
    qsort(bounds[a], (size_t)k, sizeof(int64_t), cmp_i64);
    int u = 0;
    for (int i = 0; i < k; i++)
      if (!u || bounds[a][u - 1] != bounds[a][i]) bounds[a][u++] = bounds[a][i];
    nb[a] = u;
    for (int i = 0; i + 1 < u; i++) {
      used[a][i] = false;
      for (int d = 0; d < s->ndims; d++)
        for (int j = 0; j < s->dims[d].naxes; j++) {
          const SdyAxisRef *r = &s->dims[d].axes[j];
          if (strcmp(r->name, mesh->axes[a].name) != 0) continue;
          int64_t lo = r->size ? r->pre_size : 1, hi = r->size ? r->pre_size * r->size : size;
          if (lo <= bounds[a][i] && bounds[a][i + 1] <= hi) used[a][i] = true;
        }
      if (!used[a][i]) nrep *= bounds[a][i + 1] / bounds[a][i];
    }
  }
  for (int64_t k = 0; k < n; k++) {
    int64_t p = mesh->device_ids && mesh->ndevices == n ? mesh->device_ids[k] : k;
    int64_t c[SDY_MAX_AXES], rem = k;
    for (int a = na - 1; a >= 0; a--) {
      c[a] = rem % mesh->axes[a].size;
      rem /= mesh->axes[a].size;
    }
    int64_t *pc = &coords[p * (rank + 1)];
    for (int d = 0; d < rank; d++) {
      int64_t idx = 0;
      for (int j = 0; j < s->dims[d].naxes; j++) {
        const SdyAxisRef *r = &s->dims[d].axes[j];
        int a = sdy_mesh_axis(mesh, r->name);
        int64_t size = r->size ? r->size : mesh->axes[a].size, pre = r->size ? r->pre_size : 1;
        idx = idx * size + (c[a] / pre) % size;
      }
      pc[d] = idx;
    }
    int64_t rep = 0;
    for (int a = 0; a < na; a++)
      for (int i = nb[a] - 2; i >= 0; i--)
        if (!used[a][i]) {
          int64_t radix = bounds[a][i + 1] / bounds[a][i];
          rep = rep * radix + (c[a] / bounds[a][i]) % radix;
        }
    pc[rank] = rep;
  }
  return tiling_from_coords(&m->arena, rank, ways, nrep, (int)n, coords);
}

/* ---- layouts from HLO's sharding text ---- */

static bool read_ints(const char **p, char close, int64_t *v, int *n, int cap) {
  *n = 0;
  for (;;) {
    char *end;
    long long x = strtoll(*p, &end, 10);
    if (end == *p || *n == cap || x < 0) return false;
    v[(*n)++] = x;
    *p = end;
    if (**p == close) {
      (*p)++;
      return true;
    }
    if (**p != ',') return false;
    (*p)++;
  }
}

static SpmdTiling *from_hlo(Module *m, const char *text, const Type *t, int npart, char **err) {
  const char *p = text;
  if (!strcmp(p, "{replicated}")) return NULL;
  if (!strncmp(p, "{maximal", 8)) {
    if (npart == 1) return NULL;
    *err = xasprintf("the sharding %s puts the value on one device: not supported", text);
    return NULL;
  }
  int64_t dims[MAXR + 1], rdims[MAXR + 1], perm[MAXR + 1];
  int nd = 0, nr = 0, np = 0;
  bool ok = !strncmp(p, "{devices=[", 10);
  if (ok) p += 10;
  ok = ok && read_ints(&p, ']', dims, &nd, MAXR + 1);
  int64_t n = 1;
  for (int i = 0; ok && i < nd; i++) ok = dims[i] > 0 && (n *= dims[i]) <= SDY_MAX_DEVICES;
  if (!ok) {
    *err = xasprintf("cannot read the sharding %s (xlac reads {replicated}, {devices=[...]...})", text);
    return NULL;
  }
  int64_t *devs = ARENA_ARRAY(&m->arena, int64_t, n + 1);
  if (!strncmp(p, "<=[", 3)) {
    p += 3;
    ok = read_ints(&p, ']', rdims, &nr, MAXR + 1);
    int64_t k = 1;
    for (int i = 0; ok && i < nr; i++) ok = rdims[i] > 0 && (k *= rdims[i]) <= SDY_MAX_DEVICES;
    ok = ok && k == n;
    if (ok && !strncmp(p, "T(", 2)) {
      p += 2;
      ok = read_ints(&p, ')', perm, &np, MAXR + 1) && np == nr;
    } else {
      np = nr;
      for (int i = 0; i < nr; i++) perm[i] = i;
    }
    bool seen[MAXR + 1] = {0};
    for (int i = 0; ok && i < np; i++) ok = perm[i] < nr && !seen[perm[i]] && (seen[perm[i]] = true);
    /* element k of iota(rdims) transposed by perm */
    for (int64_t k2 = 0; ok && k2 < n; k2++) {
      int64_t rem = k2, idx[MAXR + 1], src = 0;
      for (int i = np - 1; i >= 0; i--) {
        idx[perm[i]] = rem % rdims[perm[i]];
        rem /= rdims[perm[i]];
      }
      for (int i = 0; i < nr; i++) src = src * rdims[i] + idx[i];
      devs[k2] = src;
    }
  } else {
    for (int64_t k = 0; ok && k < n; k++) {
      char *end;
      devs[k] = strtoll(p, &end, 10);
      ok = end != p && devs[k] >= 0;
      p = end;
      if (ok && k + 1 < n) ok = *p++ == ',';
    }
  }
  bool rep = false;
  if (ok && !strncmp(p, " last_tile_dim_replicate", 24)) {
    p += 24;
    rep = true;
  }
  if (ok && *p == ' ') {
    *err = xasprintf("the sharding %s: only {replicated} and tiled shardings (last_tile_dim_replicate included) are "
                     "supported", text);
    return NULL;
  }
  if (!ok || strcmp(p, "}") != 0) {
    *err = xasprintf("cannot read the sharding %s", text);
    return NULL;
  }
  if (t->kind != TY_TENSOR || nd != t->rank + (rep ? 1 : 0)) {
    *err = xasprintf("the sharding %s does not fit a value of rank %d", text, t->kind == TY_TENSOR ? t->rank : 0);
    return NULL;
  }
  if (n != npart) {
    if (n == 1) return NULL;
    *err = xasprintf("the sharding %s is over %lld devices, the program runs on %d partitions", text, (long long)n,
                     npart);
    return NULL;
  }
  SpmdTiling *tl = tiling_alloc(&m->arena, t->rank, (int)n);
  for (int d = 0; d < t->rank; d++) tl->ways[d] = dims[d];
  tl->nrep = rep ? dims[nd - 1] : 1;
  memcpy(tl->devices, devs, sizeof(int64_t) * (size_t)n);
  if (!tiling_finish(tl, err)) {
    char *e = *err;
    *err = xasprintf("the sharding %s: %s", text, e);
    xfree(e);
    return NULL;
  }
  return splits(tl) ? tl : NULL;
}

static const Attr *dict_field(const Attr *d, const char *key) {
  return d && d->kind == ATTR_DICT ? attr_dict_get(d, key) : NULL;
}

static SpmdTiling *value_tiling(Module *m, const Attr *dict, const Type *t, int npart, char **err) {
  *err = NULL;
  const Attr *s = dict_field(dict, SDY_KEY);
  if (s) {
    SdySharding sh;
    if (!sdy_sharding_of(m, s, &sh)) {
      *err = xstrdup("the sdy.sharding attribute does not read");
      return NULL;
    }
    return from_sdy(m, &sh, t, npart, err);
  }
  const Attr *h = dict_field(dict, "mhlo.sharding");
  if (h && h->kind == ATTR_STRING) {
    char *text = xmalloc(h->slen + 1);
    memcpy(text, h->s, h->slen);
    text[h->slen] = 0;
    SpmdTiling *r = from_hlo(m, text, t, npart, err);
    xfree(text);
    return r;
  }
  return NULL;
}

SpmdTiling *spmd_arg_tiling(Module *m, const Func *f, int i, int npart, char **err) {
  return value_tiling(m, f->arg_attrs ? f->arg_attrs[i] : NULL, f->body->args[i]->type, npart, err);
}

SpmdTiling *spmd_result_tiling(Module *m, const Func *f, int i, int npart, char **err) {
  return value_tiling(m, f->res_attrs ? f->res_attrs[i] : NULL, f->result_types[i], npart, err);
}

static bool has_sharding(const Attr *d) { return dict_field(d, SDY_KEY) || dict_field(d, "mhlo.sharding"); }

static bool module_flag(const Module *m, const char *name) {
  for (int i = 0; i < m->nattrs; i++)
    if (!strcmp(m->attrs[i].name, name)) return true;
  return false;
}

bool spmd_wanted(const Module *m, const Func *f) {
  if (!f || module_flag(m, MARK) || module_flag(m, "xlac.manual_partitions")) return false;
  for (int i = 0; f->arg_attrs && i < f->body->nargs; i++)
    if (has_sharding(f->arg_attrs[i])) return true;
  for (int i = 0; f->res_attrs && i < f->nresults; i++)
    if (has_sharding(f->res_attrs[i])) return true;
  return false;
}

/* ---- the rewrite ---- */

typedef struct Part {
  Module *m;
  Func *f;
  Block *body;
  int nrep, npart;
  PtrMap tiling;   /* Value* -> SpmdTiling*: values held as shards (absent: whole) */
  PtrMap whole;    /* shard Value* -> its gathered Value* */
  Value *pid;      /* partition_id as tensor<i64> */
  int64_t channel;
} Part;

static SpmdTiling *tiling_of(Part *P, const Value *v) { return ptrmap_get(&P->tiling, v); }

static Type *local_type(Part *P, const Type *g, const SpmdTiling *t) {
  Type *l = type_clone(&P->m->arena, g); /* quantization kept */
  for (int d = 0; d < g->rank; d++) l->dims[d] = g->dims[d] / t->ways[d];
  l->layout = NULL;
  return l;
}

static Type *global_type(Part *P, const Value *v) {
  const SpmdTiling *t = tiling_of(P, v);
  if (!t) return v->type;
  int64_t dims[MAXR];
  for (int d = 0; d < t->rank; d++) dims[d] = v->type->dims[d] * t->ways[d];
  return type_tensor(&P->m->arena, v->type->elem, t->rank, dims);
}

/* Groups of partition ids (in every replica: flattened ids) of which each
   holds one combination of the shard indices along the dimensions in
   `dims` and the same indices elsewhere, ordered by those indices (major
   first): a dense [groups x size] attribute. */
static Attr *groups_attr(Part *P, const SpmdTiling *t, int nd, const int *dims) {
  int64_t size = 1;
  for (int i = 0; i < nd; i++) size *= t->ways[dims[i]];
  int64_t ngroups = t->ndev / size, shape[2] = {ngroups * P->nrep, size};
  Literal *l = lit_new_in(&P->m->arena, type_tensor(&P->m->arena, ET_S64, 2, shape));
  int64_t g = 0;
  for (int p = 0; p < t->ndev; p++) {
    const int64_t *c = &t->coord[p * (t->rank + 1)];
    bool first = true;
    for (int i = 0; i < nd; i++) first &= c[dims[i]] == 0;
    if (!first) continue;
    int64_t cc[MAXR + 1];
    memcpy(cc, c, sizeof(int64_t) * (size_t)(t->rank + 1));
    for (int64_t k = 0; k < size; k++) {
      int64_t rem = k;
      for (int i = nd - 1; i >= 0; i--) {
        cc[dims[i]] = rem % t->ways[dims[i]];
        rem /= t->ways[dims[i]];
      }
      int64_t q = t->devices[tile_pos(t, cc)];
      for (int r = 0; r < P->nrep; r++) lit_set_i(l, ((r * ngroups + g) * size + k), r * P->npart + q);
    }
    g++;
  }
  return attr_dense(P->m, l);
}

static void set_collective(Part *P, Op *op, Attr *groups) {
  Module *m = P->m;
  op_set_attr(m, op, "replica_groups", groups);
  const char *keys[2] = {"handle", "type"};
  Attr *vals[2] = {attr_int(m, ++P->channel, NULL), attr_int(m, 1, NULL)};
  op_set_attr(m, op, "channel_handle", attr_dict(m, "stablehlo.channel_handle", 2, keys, vals));
  op_set_attr(m, op, "use_global_device_ids", attr_unit(m));
}

/* v (a shard) gathered whole, before `at`. */
static Value *gather(Part *P, Value *v, Op *at) {
  const SpmdTiling *t = tiling_of(P, v);
  if (!t) return v;
  Value *w = ptrmap_get(&P->whole, v);
  if (w) return w;
  Builder b = {P->m, P->body, at, at ? at->loc : P->f->loc};
  w = v;
  for (int d = 0; d < t->rank; d++) {
    if (t->ways[d] == 1) continue;
    int64_t dims[MAXR];
    memcpy(dims, w->type->dims, sizeof(int64_t) * (size_t)t->rank);
    dims[d] *= t->ways[d];
    w = bld_op(&b, OP_ALL_GATHER, 1, &w, bld_tensor(&b, v->type->elem, t->rank, dims));
    op_set_attr(P->m, w->def, "all_gather_dim", attr_int(P->m, d, type_scalar(&P->m->arena, ET_S64)));
    int one = d;
    set_collective(P, w->def, groups_attr(P, t, 1, &one));
  }
  ptrmap_put(&P->whole, v, w);
  return w;
}

static Value *partition_index(Part *P) {
  if (P->pid) return P->pid;
  Builder b = {P->m, P->body, P->body->first, P->f->loc};
  Value *id = bld_op(&b, OP_PARTITION_ID, 0, NULL, type_scalar(&P->m->arena, ET_U32));
  P->pid = bld_convert(&b, id, ET_S64);
  return P->pid;
}

/* The offset of this partition's shard along d: table[partition_id]. */
static Value *shard_offset(Part *P, Builder *b, const SpmdTiling *t, int d, int64_t local) {
  int64_t n = t->ndev;
  Literal *tab = lit_new_in(&P->m->arena, type_tensor(&P->m->arena, ET_S64, 1, &n));
  for (int p = 0; p < t->ndev; p++) lit_set_i(tab, p, t->coord[p * (t->rank + 1) + d] * local);
  Value *in[2] = {bld_constant(b, tab), partition_index(P)};
  int64_t one = 1;
  Value *s = bld_op(b, OP_DYNAMIC_SLICE, 2, in, bld_tensor(b, ET_S64, 1, &one));
  op_set_attr(P->m, s->def, "slice_sizes", attr_ints(P->m, 1, &one));
  int64_t none = 0;
  return bld_reshape(b, s, 0, &none);
}

/* This partition's shard, in layout t, of v (whole), before `at`.  A
   broadcast scalar is broadcast to the shard's shape instead. */
static Value *cut(Part *P, Value *v, const SpmdTiling *t, Op *at) {
  if (!splits(t)) return v;
  Builder b = {P->m, P->body, at, at ? at->loc : P->f->loc};
  Type *lt = local_type(P, v->type, t);
  Op *def = v->def;
  if (def && def->kind == OP_BROADCAST_IN_DIM && def->opnds[0]->type->kind == TY_TENSOR &&
      def->opnds[0]->type->rank == 0 && !tiling_of(P, def->opnds[0]))
    return bld_broadcast(&b, def->opnds[0], lt, 0, lt->dims);
  if (def && def->kind == OP_CONSTANT) {
    const Attr *a = op_attr(def, "value");
    if (a && a->kind == ATTR_DENSE && a->lit && a->lit->n == 1 && v->type->rank > 0) {
      Literal *s = lit_new_in(&P->m->arena, type_scalar(&P->m->arena, v->type->elem));
      lit_copy_elem(s, 0, a->lit, 0);
      return bld_broadcast(&b, bld_constant(&b, s), lt, 0, lt->dims);
    }
  }
  Value *starts[MAXR + 1];
  starts[0] = v;
  Value *zero = NULL;
  for (int d = 0; d < t->rank; d++) {
    if (t->ways[d] > 1) {
      starts[1 + d] = shard_offset(P, &b, t, d, lt->dims[d]);
    } else {
      if (!zero) {
        Literal *z = lit_new_in(&P->m->arena, type_scalar(&P->m->arena, ET_S64));
        zero = bld_constant(&b, z);
      }
      starts[1 + d] = zero;
    }
  }
  Value *s = bld_op(&b, OP_DYNAMIC_SLICE, 1 + t->rank, starts, lt);
  op_set_attr(P->m, s->def, "slice_sizes", attr_ints(P->m, lt->rank, lt->dims));
  return s;
}

static void use_whole_in(Part *P, Block *blk, Op *at) {
  for (Op *o = blk->first; o; o = o->next) {
    for (int i = 0; i < o->nopnds; i++)
      if (tiling_of(P, o->opnds[i])) o->opnds[i] = gather(P, o->opnds[i], at);
    for (int k = 0; k < o->nregions; k++) use_whole_in(P, o->regions[k], at);
  }
}

/* The rule for every op: its operands (and the values its regions use)
   whole. */
static void run_whole(Part *P, Op *op) {
  for (int i = 0; i < op->nopnds; i++)
    if (tiling_of(P, op->opnds[i])) op->opnds[i] = gather(P, op->opnds[i], op);
  for (int k = 0; k < op->nregions; k++) use_whole_in(P, op->regions[k], op);
}

static bool same_dims(const Type *a, const Type *b) {
  if (a->kind != TY_TENSOR || b->kind != TY_TENSOR || a->rank != b->rank) return false;
  for (int d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) return false;
  return true;
}

static bool elementwise(Part *P, Op *op) {
  if (!op_has_flag(op->kind, OPF_EW) || op->nres != 1 || op->nregions || op->res[0].type->kind != TY_TENSOR ||
      op->res[0].type->quant)
    return false;
  const Type *g = op->res[0].type;
  const SpmdTiling *t = NULL;
  for (int i = 0; i < op->nopnds; i++) {
    const Type *ot = global_type(P, op->opnds[i]);
    if (!same_dims(ot, g) && !(ot->kind == TY_TENSOR && ot->rank == 0)) return false;
    if (!t) t = tiling_of(P, op->opnds[i]);
  }
  if (!t) return false;
  for (int i = 0; i < op->nopnds; i++) {
    const SpmdTiling *u = tiling_of(P, op->opnds[i]);
    if (u && !same_data(u, t)) op->opnds[i] = gather(P, op->opnds[i], op);
    if (!tiling_of(P, op->opnds[i]) && op->opnds[i]->type->rank > 0) op->opnds[i] = cut(P, op->opnds[i], t, op);
  }
  op->res[0].type = local_type(P, g, t);
  ptrmap_put(&P->tiling, &op->res[0], (void *)t);
  return true;
}

/* The reducer's operation when it is one of the associative, commutative
   ones and init is its identity; OP_COUNT otherwise. */
static OpKind plain_reducer(const Op *op) {
  if (op->nregions != 1) return OP_COUNT;
  Block *r = op->regions[0];
  Op *o = r->first;
  if (r->nargs != 2 || !o || !o->next || o->next->kind != OP_RETURN || o->next->nopnds != 1 ||
      o->next->opnds[0] != &o->res[0] || o->nopnds != 2 || o->nres != 1)
    return OP_COUNT;
  if (!((o->opnds[0] == r->args[0] && o->opnds[1] == r->args[1]) ||
        (o->opnds[0] == r->args[1] && o->opnds[1] == r->args[0])))
    return OP_COUNT;
  const Op *init = op->opnds[1]->def;
  const Attr *a = init && init->kind == OP_CONSTANT ? op_attr(init, "value") : NULL;
  if (!a || a->kind != ATTR_DENSE || !a->lit || a->lit->n != 1) return OP_COUNT;
  const Literal *l = a->lit;
  ElemType et = lit_elem(l);
  bool fl = et_is_float(et), in = et_is_int(et) || et_is_pred(et);
  if (!fl && !in) return OP_COUNT;
  double v = fl ? lit_get_f(l, 0) : 0;
  int64_t i = in ? lit_get_i(l, 0) : 0;
  uint64_t u = in ? lit_get_u(l, 0) : 0;
  switch (o->kind) {
  case OP_ADD: return (fl ? v == 0 : i == 0) ? OP_ADD : OP_COUNT;
  case OP_MULTIPLY: return (fl ? v == 1 : i == 1) ? OP_MULTIPLY : OP_COUNT;
  case OP_OR: return in && u == 0 ? OP_OR : OP_COUNT;
  case OP_AND: return in && (et_is_pred(et) ? u != 0 : i == -1) ? OP_AND : OP_COUNT;
  case OP_MAXIMUM:
  case OP_MINIMUM: {
    bool max = o->kind == OP_MAXIMUM;
    if (fl) return (max ? v == -INFINITY : v == INFINITY) ? o->kind : OP_COUNT;
    if (et_is_pred(et)) return (max ? u == 0 : u != 0) ? o->kind : OP_COUNT;
    /* the type's own bounds: lit_set_i wraps, so compare through it */
    Literal *lo = lit_new(l->type), *hi = lit_new(l->type);
    bool uns = et_is_unsigned(et);
    lit_set_u(hi, 0, UINT64_MAX);
    if (!uns) lit_set_u(hi, 0, UINT64_MAX >> (64 - et_bits(et) + 1));
    if (!uns) lit_set_i(lo, 0, -lit_get_i(hi, 0) - 1);
    bool ok = max ? lit_get_bits(lo, 0) == lit_get_bits(l, 0) : lit_get_bits(hi, 0) == lit_get_bits(l, 0);
    lit_free(lo);
    lit_free(hi);
    return ok ? o->kind : OP_COUNT;
  }
  default: return OP_COUNT;
  }
}

static bool reduce(Part *P, Op *op) {
  if (op->kind != OP_REDUCE || op->nopnds != 2 || op->nres != 1) return false;
  const SpmdTiling *t = tiling_of(P, op->opnds[0]);
  if (!t || tiling_of(P, op->opnds[1]) || op->res[0].type->kind != TY_TENSOR || plain_reducer(op) == OP_COUNT)
    return false;
  int64_t *rd;
  int nrd = op_attr_ints(op, "dimensions", &rd);
  if (nrd < 0) return false;
  bool red[MAXR] = {0};
  for (int i = 0; i < nrd; i++) {
    if (rd[i] < 0 || rd[i] >= t->rank) return false;
    red[rd[i]] = true;
  }
  /* the result's layout: kept dimensions as they were, the reduced ones
     (identical after the all_reduce) folded into the copies */
  int rank = op->res[0].type->rank, nsplit = 0, split[MAXR];
  int64_t ways[MAXR], nrep = t->nrep;
  for (int d = 0, k = 0; d < t->rank; d++) {
    if (!red[d]) ways[k++] = t->ways[d];
    else if (t->ways[d] > 1) split[nsplit++] = d, nrep *= t->ways[d];
  }
  int64_t *coords = ARENA_ARRAY(&P->m->arena, int64_t, (size_t)t->ndev * (size_t)(rank + 1));
  for (int p = 0; p < t->ndev; p++) {
    const int64_t *c = &t->coord[p * (t->rank + 1)];
    int64_t *o = &coords[p * (rank + 1)], rep = 0;
    for (int d = 0, k = 0; d < t->rank; d++) {
      if (!red[d]) o[k++] = c[d];
      else if (t->ways[d] > 1) rep = rep * t->ways[d] + c[d];
    }
    o[rank] = rep * t->nrep + c[t->rank];
  }
  SpmdTiling *rt = tiling_from_coords(&P->m->arena, rank, ways, nrep, t->ndev, coords);
  Type *g = op->res[0].type;
  op->res[0].type = splits(rt) ? local_type(P, g, rt) : g;
  if (nsplit) {
    /* local partial results, combined by the reducer over the partitions
       that split the reduced dimensions */
    Type *lt = op->res[0].type;
    Value *in = &op->res[0];
    Op *ar = op_new(P->m, OP_ALL_REDUCE, 1, &in, 1, &lt, op->loc);
    block_insert_before(P->body, op->next, ar);
    set_collective(P, ar, groups_attr(P, t, nsplit, split));
    PtrMap map = {0};
    Block *body = block_new(P->m);
    for (int i = 0; i < 2; i++) ptrmap_put(&map, op->regions[0]->args[i], block_add_arg(P->m, body, op->regions[0]->args[i]->type, NULL));
    block_clone_into(P->m, op->regions[0], body, &map);
    ptrmap_free(&map);
    op_add_region(P->m, ar, body);
    block_replace_uses(P->body, &op->res[0], &ar->res[0]);
    ar->opnds[0] = &op->res[0];
    if (splits(rt)) ptrmap_put(&P->tiling, &ar->res[0], rt);
  } else if (splits(rt)) {
    ptrmap_put(&P->tiling, &op->res[0], rt);
  }
  return true;
}

/* dot_general with one operand split along free dimensions only, the
   other whole: each partition multiplies its shard. */
static bool dot(Part *P, Op *op) {
  if (op->kind != OP_DOT_GENERAL || op->nopnds != 2 || op->nres != 1 || op->res[0].type->kind != TY_TENSOR)
    return false;
  const SpmdTiling *lt = tiling_of(P, op->opnds[0]), *rt = tiling_of(P, op->opnds[1]);
  if ((lt != NULL) == (rt != NULL) || op->opnds[0]->type->quant || op->opnds[1]->type->quant) return false;
  int side = lt ? 0 : 1;
  const SpmdTiling *t = lt ? lt : rt;
  Attr *dn = op_attr(op, "dot_dimension_numbers");
  int64_t *lb = NULL, *rb = NULL, *lc = NULL, *rc = NULL;
  int nlb = dict_ints(dn, "lhs_batching_dimensions", &lb), nrb = dict_ints(dn, "rhs_batching_dimensions", &rb);
  int nlc = dict_ints(dn, "lhs_contracting_dimensions", &lc), nrc = dict_ints(dn, "rhs_contracting_dimensions", &rc);
  if (nlb < 0 || nrb < 0 || nlc < 0 || nrc < 0 || nlb != nrb || nlc != nrc) return false;
  const int64_t *bd = side ? rb : lb, *cd = side ? rc : lc;
  int nb = side ? nrb : nlb, nc = side ? nrc : nlc;
  int lrank = global_type(P, op->opnds[0])->rank, rrank = global_type(P, op->opnds[1])->rank;
  int rank = op->res[0].type->rank;
  if (rank != nb + (lrank - nb - nc) + (rrank - nb - nc) || rank > MAXR) return false;
  int64_t ways[MAXR];
  for (int d = 0; d < rank; d++) ways[d] = 1;
  /* result dimensions: batch, lhs free, rhs free */
  int at = nb + (side ? lrank - nb - nc : 0);
  int map[MAXR];
  for (int d = 0; d < t->rank; d++) {
    bool fixed = ints_contain(bd, nb, d) || ints_contain(cd, nc, d);
    if (fixed && t->ways[d] > 1) return false;
    map[d] = fixed ? -1 : at++;
    if (!fixed) ways[map[d]] = t->ways[d];
  }
  int64_t *coords = ARENA_ARRAY(&P->m->arena, int64_t, (size_t)t->ndev * (size_t)(rank + 1));
  for (int p = 0; p < t->ndev; p++) {
    int64_t *o = &coords[p * (rank + 1)];
    const int64_t *c = &t->coord[p * (t->rank + 1)];
    for (int d = 0; d < rank; d++) o[d] = 0;
    for (int d = 0; d < t->rank; d++)
      if (map[d] >= 0) o[map[d]] = c[d];
    o[rank] = c[t->rank];
  }
  SpmdTiling *res = tiling_from_coords(&P->m->arena, rank, ways, t->nrep, t->ndev, coords);
  op->res[0].type = local_type(P, op->res[0].type, res);
  ptrmap_put(&P->tiling, &op->res[0], res);
  return true;
}

static Attr *dict_set(Module *m, const Attr *d, const char *key, Attr *v, const char *drop) {
  int k = d && d->kind == ATTR_DICT ? d->n : 0;
  const char **keys = ARENA_ARRAY(&m->arena, const char *, k + 2);
  Attr **vals = ARENA_ARRAY(&m->arena, Attr *, k + 2);
  int n = 0;
  for (int j = 0; j < k; j++)
    if (strcmp(d->keys[j], key) != 0 && strcmp(d->keys[j], drop) != 0) {
      keys[n] = d->keys[j];
      vals[n++] = d->elems[j];
    }
  keys[n] = key;
  vals[n++] = v;
  return attr_dict(m, NULL, n, keys, vals);
}

static Attr *layout_attr(Module *m, const SpmdTiling *t) {
  StrBuf b = {0};
  spmd_tiling_print(&b, t);
  Attr *a = attr_string(m, arena_strndup(&m->arena, b.data, b.len), b.len);
  sb_free(&b);
  return a;
}

static bool divides(Part *P, const Type *g, const SpmdTiling *t, const char *what, int i) {
  for (int d = 0; d < t->rank; d++)
    if (g->dims[d] < 0 || g->dims[d] % t->ways[d] != 0) {
      error_at(P->f->loc, "%s %d of @%s: dimension %d of %lld elements does not split evenly in %lld shards (xlac "
               "partitions even shards only)", what, i, P->f->name, d, (long long)g->dims[d], (long long)t->ways[d]);
      return false;
    }
  return true;
}

bool spmd_partition(Module *m, Func *f, int nrep, int npart) {
  Part P = {.m = m, .f = f, .body = f->body, .nrep = nrep > 0 ? nrep : 1, .npart = npart};
  Op *ret = block_terminator(f->body);
  if (!ret || ret->kind != OP_FUNC_RETURN || ret->nopnds != f->nresults) {
    error_at(f->loc, "@%s does not end in a return of its %d results", f->name, f->nresults);
    return false;
  }
  int n = f->body->nargs;
  SpmdTiling **at = ARENA_ARRAY(&m->arena, SpmdTiling *, n + 1);
  SpmdTiling **rt = ARENA_ARRAY(&m->arena, SpmdTiling *, f->nresults + 1);
  bool *given = ARENA_ARRAY(&m->arena, bool, f->nresults + 1);
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < (k ? f->nresults : n); i++) {
      char *err = NULL;
      SpmdTiling *t = k ? spmd_result_tiling(m, f, i, npart, &err) : spmd_arg_tiling(m, f, i, npart, &err);
      if (err) {
        error_at(f->loc, "%s %d of @%s: %s", k ? "result" : "parameter", i, f->name, err);
        xfree(err);
        ptrmap_free(&P.tiling);
        return false;
      }
      const Type *g = k ? f->result_types[i] : f->body->args[i]->type;
      if (t && !divides(&P, g, t, k ? "result" : "parameter", i)) {
        ptrmap_free(&P.tiling);
        return false;
      }
      if (k) {
        rt[i] = t;
        given[i] = f->res_attrs && has_sharding(f->res_attrs[i]);
      } else {
        at[i] = t;
      }
    }
  for (int i = 0; i < n; i++) {
    Value *a = f->body->args[i];
    if (!at[i]) continue;
    a->type = local_type(&P, a->type, at[i]);
    ptrmap_put(&P.tiling, a, at[i]);
  }
  for (Op *op = f->body->first, *next; op && op != ret; op = next) {
    next = op->next;
    if (op->kind == OP_SDY_SHARDING_CONSTRAINT && op->nopnds == 1 && op->nres == 1) {
      block_replace_uses(P.body, &op->res[0], op->opnds[0]);
      op_erase(op);
      continue;
    }
    if (!elementwise(&P, op) && !reduce(&P, op) && !dot(&P, op)) run_whole(&P, op);
  }
  /* the results, in their layouts */
  for (int i = 0; i < f->nresults; i++) {
    Value *v = ret->opnds[i];
    SpmdTiling *have = tiling_of(&P, v);
    if (!given[i]) {
      rt[i] = have;
    } else if (!same_data(have, rt[i])) {
      v = cut(&P, gather(&P, v, ret), rt[i], ret);
      ret->opnds[i] = v;
    }
    if (rt[i]) f->result_types[i] = local_type(&P, f->result_types[i], rt[i]);
  }
  /* what each parameter and result is: the plugin reports it */
  if (!f->arg_attrs) f->arg_attrs = ARENA_ARRAY(&m->arena, Attr *, n + 1);
  if (!f->res_attrs) f->res_attrs = ARENA_ARRAY(&m->arena, Attr *, f->nresults + 1);
  for (int i = 0; i < n; i++) f->arg_attrs[i] = dict_set(m, f->arg_attrs[i], "mhlo.sharding", layout_attr(m, at[i]), SDY_KEY);
  for (int i = 0; i < f->nresults; i++)
    f->res_attrs[i] = dict_set(m, f->res_attrs[i], "mhlo.sharding", layout_attr(m, rt[i]), SDY_KEY);
  NamedAttr *na = ARENA_ARRAY(&m->arena, NamedAttr, m->nattrs + 2);
  if (m->nattrs) memcpy(na, m->attrs, sizeof(NamedAttr) * (size_t)m->nattrs);
  na[m->nattrs++] = (NamedAttr){MARK, attr_unit(m)};
  m->attrs = na;
  ptrmap_free(&P.tiling);
  ptrmap_free(&P.whole);
  if (!verify_module(m)) {
    error_at(f->loc, "internal error: the partitioned program of @%s does not verify", f->name);
    return false;
  }
  return true;
}
