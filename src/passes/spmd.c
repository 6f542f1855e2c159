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
 *   - elementwise ops: operands cut locally to the finest operand layout
 *     when their own shards hold the needed piece (whole values, coarser
 *     layouts; broadcasts, splat constants and iotas are made as shards);
 *   - reduce of a split operand by add, multiply, max, min, and, or with
 *     the operation's identity as initial value: a local reduce, then
 *     all_reduce over the partitions that split the reduced dimensions
 *     (by add: the local sums kept as a partial sum);
 *   - dot_general whose batch and contracting pairs hold the same piece on
 *     both sides (after a local cut of a side whole along the pair): the
 *     result split along batch and free pieces, partial products of split
 *     contracting dimensions kept as a partial sum;
 *   - scatter by add of split updates (and indices) into a whole operand:
 *     each partition's own scatter, a partial sum;
 *   - convolution like dot_general: the batch and the kernel's output
 *     features split, the result alike; the input features split, partial
 *     products; split spatial dimensions extended by halos from the
 *     neighbouring pieces (collective_permute) where the windows allow;
 *   - reduce_window (any reducer) along dimensions its window leaves
 *     alone or with halos, select_and_scatter along those it leaves alone,
 *     pad, sort and reverse along the dimensions they do not pad, sort or
 *     reverse, reduce (any reducer, any operands) on the pieces, the
 *     pieces' results of split reduced dimensions gathered and reduced
 *     again, gather of whole indices along the dimensions its slices take
 *     whole, and from rows split along dimensions the indices pick one
 *     element of (each partition's own lookups, zeros for the others' rows:
 *     a partial sum), chlo.top_k on the pieces and, over a split last
 *     dimension, again over the pieces' candidates;
 *   - ops linear in partial sums (add, subtract, negate, scaling, float
 *     converts, movement, reduce by add) on them, the result a partial
 *     sum; any other use takes the sum, made once (all_reduce or
 *     reduce_scatter);
 *   - transpose, broadcast_in_dim, reshape (the split dimension major in
 *     its group), slice, dynamic_slice and concatenate leaving the split
 *     dimensions whole;
 *   - calls and composites (as calls of their decompositions), inlined
 *     first;
 *   - the host callbacks JAX places on one device (a maximal sharding):
 *     run on that partition alone, in a case on partition_id, their
 *     results broadcast from it (also inside regions and called
 *     functions); partitioned callbacks run on each partition's shards;
 *     InspectSharding records the layout of its operand.
 * Before the rewrite, layouts propagate through the entry block, forward
 * and backward to a fixed point (see "propagation" below), so that a
 * sharding constraint or a result's sharding reaches the ops before it
 * (a constraint that leaves dimensions open holds the axes it names and
 * takes its operand's splits along those dimensions where they fit);
 * each op then works on the pieces its result's layout calls for.  A
 * value moves between layouts by a local cut, an all_to_all (a split
 * moving to another dimension) or a gather and a cut; a sum whose result
 * is wanted split further is a reduce_scatter; all_reduces with the same
 * groups, none depending on another, are combined into one.  Results
 * whose sharding the program leaves open keep the layout they have;
 * results with a sharding get exactly it.  The walk covers the entry
 * block; ops with regions see gathered values.
 */
#include "passes/spmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/literal.h"
#include "ir/rewrite.h"
#include "ir/sharding.h"
#include "ir/verify.h"
#include "passes/build.h"
#include "passes/passes.h"

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
  int64_t usize = 1;
  for (int k = 0; k < s->nunreduced; k++) usize *= sdy_axis_ref_size(mesh, &s->unreduced[k]);
  if (usize > 1) {
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

/* The layout HLO's text says (NULL: none); with all, also one that splits
   nothing (its copies in the text's order). */
static SpmdTiling *hlo_layout(Module *m, const char *text, const Type *t, int npart, bool all, char **err) {
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
  return all || splits(tl) ? tl : NULL;
}

static SpmdTiling *from_hlo(Module *m, const char *text, const Type *t, int npart, char **err) {
  return hlo_layout(m, text, t, npart, false, err);
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

const char *spmd_summary(const Module *m) {
  for (int i = 0; i < m->nattrs; i++)
    if (!strcmp(m->attrs[i].name, MARK) && m->attrs[i].attr && m->attrs[i].attr->kind == ATTR_STRING)
      return m->attrs[i].attr->s;
  return NULL;
}

static bool module_flag(const Module *m, const char *name) {
  for (int i = 0; i < m->nattrs; i++)
    if (!strcmp(m->attrs[i].name, name)) return true;
  return false;
}

static bool is_constraint(const Op *op);

/* ---- ops placed on one device ----
 * An op whose sharding is maximal (Shardy's `sdy.sharding` over a maximal
 * mesh, `<[], device_ids=[d]>`, or GSPMD's "{maximal device=d}") runs on
 * partition d alone: JAX gives its host callbacks such a sharding so that
 * a callback in a program over several devices runs once.  The partitions
 * agree on where it runs, so a case on partition_id does it: partition d
 * runs the op on whole operands, the others give zeros (tokens pass
 * through), and collective_broadcast hands d's results to every
 * partition. */

#define PARTITIONED_CALLBACK "xlac_partitioned_python_callback"

static Attr *layout_attr(Module *m, const SpmdTiling *t);

/* The partition an op is placed on, or -1 (also for a sharding that is
   not maximal, or one that does not read). */
static int64_t placed_on(const Module *m, const Op *op) {
  const Attr *a = op_attr(op, SDY_KEY);
  if (a && attr_is_sdy(a, SDY_ATTR_PER_VALUE)) {
    SdySharding *v;
    int n = sdy_per_value_of((Module *)m, a, &v);
    const SdyMesh *mesh = n > 0 ? sdy_sharding_mesh(m, &v[0]) : NULL;
    return mesh && sdy_mesh_is_maximal(mesh) ? mesh->device_ids[0] : -1;
  }
  a = op_attr(op, "mhlo.sharding");
  if (a && a->kind == ATTR_STRING) {
    long long d;
    char end;
    if (sscanf(a->s, "{maximal device=%lld%c", &d, &end) == 2 && end == '}') return d;
  }
  return -1;
}

static bool any_placed(const Module *m, const Block *b) {
  for (const Op *op = b ? b->first : NULL; op; op = op->next) {
    if (op->kind == OP_CUSTOM_CALL && placed_on(m, op) >= 0) return true;
    for (int k = 0; k < op->nregions; k++)
      if (any_placed(m, op->regions[k])) return true;
  }
  return false;
}

bool spmd_wanted(const Module *m, const Func *f) {
  if (!f || module_flag(m, MARK) || module_flag(m, "xlac.manual_partitions")) return false;
  for (int i = 0; f->arg_attrs && i < f->body->nargs; i++)
    if (has_sharding(f->arg_attrs[i])) return true;
  for (int i = 0; f->res_attrs && i < f->nresults; i++)
    if (has_sharding(f->res_attrs[i])) return true;
  /* a constraint alone (on a value made inside), in f or a function it
     may call */
  for (const Func *g = m->funcs; g; g = g->next)
    for (const Op *op = g->body ? g->body->first : NULL; op; op = op->next)
      if (is_constraint(op)) return true;
  /* or a manual computation (shard_map) that is not the whole program */
  if (spmd_has_manual(m, f)) return true;
  /* or a call placed on one device */
  for (const Func *g = m->funcs; g; g = g->next)
    if (any_placed(m, g->body)) return true;
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
  PtrMap want;     /* global Value* -> SpmdTiling*: the layout propagation gave it (absent: whole) */
  PtrMap fixed;    /* global Value* -> itself: a layout the program fixes (parameters, constraints) */
  PtrMap loose;    /* global Value* -> Loose*: the result of a constraint that leaves dimensions open */
  PtrMap cuts;     /* whole Value* -> its last local cut */
  PtrMap gtype;    /* shard Type* -> the global Type* it is a padded piece of (uneven splits only) */
  Value *pid;      /* partition_id as tensor<i64> */
  Value *final;    /* the value an op's rule left in place of its result (after a collective), if not the result */
  int64_t channel;
  /* what was inserted, for the summary (spmd_summary) */
  int n_gather, n_reduce, n_cut, n_scatter, n_a2a, n_permute, n_combined, n_combined_into;
  int nwhole;                /* ops computed whole from split operands */
  OpKind whole_kinds[8];     /* the first kinds of those */
  int nwhole_kinds;
  SrcLoc whole_loc;          /* where the first of them is */
  /* unreduced parameters and results of the entry (NULL: not), the
     values held as partial sums (Value* -> Psum*), and their sums */
  SdySharding **aun, **run;
  PtrMap psum, sums;
  /* the whiles and branch ops rewritten on shards (Op* -> 1, others 2),
     and the adds (or dynamic_update_slices) of accumulating carries
     (Op* -> Accum*) */
  PtrMap regions, accum;
  /* InspectSharding's reports: backend_config -> layout of its operand */
  VEC(const char *) inspected_keys;
  VEC(Attr *) inspected;
} Part;

static SpmdTiling *tiling_of(Part *P, const Value *v) { return ptrmap_get(&P->tiling, v); }

/* Whether v, a value made earlier (a cut, a gather or a sum remembered for
   reuse), can be used in the block being rewritten: it is defined there
   or in a block around it.  One made inside a loop's body or a branch is
   not seen after it. */
static bool visible(Part *P, const Value *v) {
  const Block *home = v->def ? v->def->parent : v->owner;
  for (const Block *b = P->body; b; b = b->parent_op ? b->parent_op->parent : NULL)
    if (b == home) return true;
  return false;
}

/* Where what moves v (a gather, a cut, a reshard) goes when it is needed
   before `at`: there, or, when v is made outside the loops and branches
   around `at`, before the outermost of them that v's block holds, so that
   a loop gathers or cuts what it does not change once rather than in every
   iteration (every partition runs a loop as often and takes the same
   branch, so the collectives still meet).  P->body becomes that block; the
   caller puts back *outer. */
static Op *hoist(Part *P, const Value *v, Op *at, Block **outer) {
  *outer = P->body;
  if (!at || !at->parent) return at;
  const Block *home = v->def ? v->def->parent : v->owner;
  Op *a = at;
  while (a->parent != home && a->parent->parent_op) a = a->parent->parent_op;
  if (a->parent != home || !a->parent) return at;
  P->body = a->parent;
  return a;
}

/* The type of one piece of a value of global type g split ways[d] times
   along each dimension d.  A dimension the split does not divide takes
   pieces of ceil(n / ways) elements, the last ones padded at their end
   (XLA's uneven shards); the piece's type then remembers g, so that
   global_type gives the true size back (every shard of such a value has
   a type made here, or shares one made here). */
static Type *shard_type(Part *P, const Type *g, const int64_t *ways) {
  Type *l = type_clone(&P->m->arena, g); /* quantization kept */
  bool even = true;
  for (int d = 0; d < g->rank; d++) {
    l->dims[d] = (g->dims[d] + ways[d] - 1) / ways[d];
    even &= g->dims[d] % ways[d] == 0;
  }
  l->layout = NULL;
  if (!even) ptrmap_put(&P->gtype, l, (void *)g);
  return l;
}

static Type *local_type(Part *P, const Type *g, const SpmdTiling *t) { return shard_type(P, g, t->ways); }

/* Whether a value of global type g held in layout t has padded pieces. */
static bool uneven(const Type *g, const SpmdTiling *t) {
  if (!t || g->kind != TY_TENSOR || g->rank != t->rank) return false;
  for (int d = 0; d < g->rank; d++)
    if (t->ways[d] > 1 && g->dims[d] % t->ways[d] != 0) return true;
  return false;
}

/* Whether v is a shard of an uneven split (its last pieces padded). */
static bool padded(Part *P, const Value *v) { return tiling_of(P, v) && ptrmap_get(&P->gtype, v->type); }

static Type *global_type(Part *P, const Value *v) {
  const SpmdTiling *t = tiling_of(P, v);
  if (!t) return v->type;
  Type *pg = ptrmap_get(&P->gtype, v->type);
  if (pg) return pg;
  int64_t dims[MAXR];
  for (int d = 0; d < t->rank; d++) dims[d] = v->type->dims[d] * t->ways[d];
  return type_tensor(&P->m->arena, v->type->elem, t->rank, dims);
}

/* Groups of partition ids (in every replica: flattened ids) of which each
   holds one combination of the shard indices along the dimensions in
   `dims` and the same indices elsewhere, ordered by those indices (major
   first): a dense [groups x size] attribute. */
static Attr *groups_of(Part *P, int64_t ngroups, int64_t size, const int64_t *members);

/* Their members, group after group ([partitions] ids), and the group size. */
static int64_t *group_members(Part *P, const SpmdTiling *t, int nd, const int *dims, int64_t *size_out) {
  int64_t size = 1;
  for (int i = 0; i < nd; i++) size *= t->ways[dims[i]];
  int64_t *mem = ARENA_ARRAY(&P->m->arena, int64_t, t->ndev + 1), g = 0;
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
      mem[g * size + k] = t->devices[tile_pos(t, cc)];
    }
    g++;
  }
  *size_out = size;
  return mem;
}

static Attr *groups_attr(Part *P, const SpmdTiling *t, int nd, const int *dims) {
  int64_t size;
  int64_t *mem = group_members(P, t, nd, dims, &size);
  return groups_of(P, t->ndev / size, size, mem);
}

/* A new channel for collective op (device-to-device, type 1): the
   partitions of a program meet by partition id. */
static void set_channel(Part *P, Op *op) {
  Module *m = P->m;
  const char *keys[2] = {"handle", "type"};
  Attr *vals[2] = {attr_int(m, ++P->channel, NULL), attr_int(m, 1, NULL)};
  op_set_attr(m, op, "channel_handle", attr_dict(m, "stablehlo.channel_handle", 2, keys, vals));
}

static void set_collective(Part *P, Op *op, Attr *groups) {
  op_set_attr(P->m, op, "replica_groups", groups);
  set_channel(P, op);
  op_set_attr(P->m, op, "use_global_device_ids", attr_unit(P->m));
}

/* v gathered along dimension d over the partitions of each group in
   `groups`, at b, into a tensor of dims (counted among the all_gathers). */
static Value *all_gather_at(Part *P, Builder *b, Value *v, int d, int rank, const int64_t *dims, Attr *groups) {
  Value *w = bld_op(b, OP_ALL_GATHER, 1, &v, bld_tensor(b, v->type->elem, rank, dims));
  P->n_gather++;
  op_set_attr(P->m, w->def, "all_gather_dim", attr_int(P->m, d, type_scalar(&P->m->arena, ET_S64)));
  set_collective(P, w->def, groups);
  return w;
}

static Value *summed(Part *P, Value *v, bool scatter);

/* The element count of a tensor type. */
static int64_t type_elems(const Type *t) {
  int64_t n = 1;
  for (int d = 0; d < t->rank; d++) n *= t->dims[d];
  return n;
}

static Value *gather_here(Part *P, Value *v, Op *at);

/* v's leading hi[d] elements along each dimension (a slice). */
static Value *slice_to(Part *P, Builder *b, Value *v, const int64_t *hi) {
  int r = v->type->rank;
  int64_t lo[MAXR], st[MAXR];
  bool same = true;
  for (int k = 0; k < r; k++) lo[k] = 0, st[k] = 1, same &= hi[k] == v->type->dims[k];
  if (same) return v;
  Type *t = type_clone(&P->m->arena, v->type);
  memcpy(t->dims, hi, sizeof(int64_t) * (size_t)r);
  t->layout = NULL;
  Value *s = bld_op(b, OP_SLICE, 1, &v, t);
  op_set_attr(P->m, s->def, "start_indices", attr_ints(P->m, r, lo));
  op_set_attr(P->m, s->def, "limit_indices", attr_ints(P->m, r, hi));
  op_set_attr(P->m, s->def, "strides", attr_ints(P->m, r, st));
  return s;
}

/* v (whole) padded with zeros at the end of each dimension to dims[d]
   elements: what uneven pieces are cut from, so that every piece has the
   same size and the last ones hold zeros past the value's end. */
static Value *pad_to(Part *P, Builder *b, Value *v, const int64_t *dims) {
  int r = v->type->rank;
  int64_t lo[MAXR], hi[MAXR];
  bool same = true;
  for (int k = 0; k < r; k++) lo[k] = 0, hi[k] = dims[k] - v->type->dims[k], same &= hi[k] == 0;
  if (same) return v;
  Type *t = type_clone(&P->m->arena, v->type);
  memcpy(t->dims, dims, sizeof(int64_t) * (size_t)r);
  t->layout = NULL;
  Value *in[2] = {v, bld_constant(b, lit_new_in(&P->m->arena, type_scalar(&P->m->arena, v->type->elem)))};
  Value *p = bld_op(b, OP_PAD, 2, in, t);
  op_set_attr(P->m, p->def, "edge_padding_low", attr_ints(P->m, r, lo));
  op_set_attr(P->m, p->def, "edge_padding_high", attr_ints(P->m, r, hi));
  op_set_attr(P->m, p->def, "interior_padding", attr_ints(P->m, r, lo));
  return p;
}

/* v (a shard) gathered whole, before `at` (a partial sum summed first;
   hoisted out of loops, above). */
static Value *gather(Part *P, Value *v, Op *at) {
  Block *outer;
  Op *where = hoist(P, v, at, &outer);
  Value *w = gather_here(P, v, where);
  P->body = outer;
  return w;
}

static Value *gather_here(Part *P, Value *v, Op *at) {
  v = summed(P, v, false);
  const SpmdTiling *t = tiling_of(P, v);
  if (!t) return v;
  Value *w = ptrmap_get(&P->whole, v);
  if (w && visible(P, w)) return w;
  Builder b = {P->m, P->body, at, at ? at->loc : P->f->loc};
  w = v;
  for (int d = 0; d < t->rank; d++) {
    if (t->ways[d] == 1) continue;
    int64_t dims[MAXR];
    memcpy(dims, w->type->dims, sizeof(int64_t) * (size_t)t->rank);
    dims[d] *= t->ways[d];
    int one = d;
    w = all_gather_at(P, &b, w, d, t->rank, dims, groups_attr(P, t, 1, &one));
  }
  /* padded pieces: the gathered value cut back to its true size */
  const Type *g = ptrmap_get(&P->gtype, v->type);
  if (g) w = slice_to(P, &b, w, g->dims);
  ptrmap_put(&P->whole, v, w);
  return w;
}

static Value *by_partition(Part *P, Builder *b, const int64_t *table);

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

/* A layout from each partition's shard index along each dimension (keys:
   rank per partition): the partitions with equal indices hold copies,
   numbered in partition order.  *ok is false when the indices make no
   layout (an index out of range, or one shard held by more partitions
   than another); NULL with *ok true is a whole value. */
static SpmdTiling *tiling_by_keys(Part *P, int rank, const int64_t *ways, const int64_t *keys, bool *ok) {
  int ndev = P->npart;
  int64_t nt = 1;
  *ok = false;
  for (int d = 0; d < rank; d++) nt *= ways[d];
  if (nt < 1 || ndev % nt != 0) return NULL;
  int64_t *cnt = xcalloc((size_t)nt, sizeof(int64_t));
  int64_t *coords = ARENA_ARRAY(&P->m->arena, int64_t, (size_t)ndev * (size_t)(rank + 1));
  bool good = true;
  for (int p = 0; p < ndev && good; p++) {
    int64_t pos = 0;
    for (int d = 0; d < rank; d++) {
      int64_t k = keys[p * rank + d];
      good &= k >= 0 && k < ways[d];
      pos = pos * ways[d] + k;
      coords[p * (rank + 1) + d] = k;
    }
    if (good) coords[p * (rank + 1) + rank] = cnt[pos]++;
  }
  for (int64_t i = 0; i < nt && good; i++) good = cnt[i] == ndev / nt;
  xfree(cnt);
  if (!good) return NULL;
  *ok = true;
  if (nt == 1) return NULL;
  return tiling_from_coords(&P->m->arena, rank, ways, ndev / nt, ndev, coords);
}

/* Groups of partitions given as lists (ngroups x size partition ids), in
   every replica. */
static Attr *groups_of(Part *P, int64_t ngroups, int64_t size, const int64_t *members) {
  int64_t shape[2] = {ngroups * P->nrep, size};
  Literal *l = lit_new_in(&P->m->arena, type_tensor(&P->m->arena, ET_S64, 2, shape));
  for (int r = 0; r < P->nrep; r++)
    for (int64_t k = 0; k < ngroups * size; k++) lit_set_i(l, r * ngroups * size + k, r * P->npart + members[k]);
  return attr_dense(P->m, l);
}

/* The sum of v over the partitions of each group, right after v's op:
   whole (all_reduce), or scattered along dimension sd in the groups' n
   pieces, member k keeping piece k (reduce_scatter; sd -1: none). */
static Value *sum_over(Part *P, Value *v, Attr *groups, int sd, int64_t n) {
  Type *t = v->type;
  if (sd >= 0) {
    t = type_clone(&P->m->arena, v->type);
    t->dims[sd] /= n;
    t->layout = NULL;
  }
  Op *ar = op_new(P->m, sd >= 0 ? OP_REDUCE_SCATTER : OP_ALL_REDUCE, 1, &v, 1, &t, v->def ? v->def->loc : P->f->loc);
  Block *home = v->def ? v->def->parent : v->owner ? v->owner : P->body;
  block_insert_before(home, v->def ? v->def->next : home->first, ar);
  if (sd >= 0) {
    P->n_scatter++;
    op_set_attr(P->m, ar, "scatter_dimension", attr_int(P->m, sd, type_scalar(&P->m->arena, ET_S64)));
  } else {
    P->n_reduce++;
  }
  set_collective(P, ar, groups);
  Block *body = block_new(P->m);
  Type *st = type_scalar(&P->m->arena, t->elem);
  Value *a = block_add_arg(P->m, body, st, NULL), *c = block_add_arg(P->m, body, st, NULL);
  Builder b = {P->m, body, NULL, ar->loc};
  Value *in[2] = {a, c};
  Value *sum = bld_op(&b, t->elem == ET_PRED ? OP_OR : OP_ADD, 2, in, st);
  block_append(body, op_new(P->m, OP_RETURN, 1, &sum, 0, NULL, ar->loc));
  op_add_region(P->m, ar, body);
  return &ar->res[0];
}

/* A local value cut further: along each dimension d with div[d] > 1,
   piece idx[p * rank + d] of div[d] on partition p. */
static Value *cut_local(Part *P, Value *v, const int64_t *div, const int64_t *idx, Op *at) {
  int rank = v->type->rank;
  bool any = false;
  for (int d = 0; d < rank; d++) any |= div[d] > 1;
  if (!any) return v;
  Builder b = {P->m, P->body, at, at ? at->loc : P->f->loc};
  int64_t dims[MAXR], full[MAXR];
  Value *starts[MAXR + 1], *zero = NULL;
  /* a dimension div does not divide: pieces of ceil(n / div), cut from
     the value padded with zeros */
  for (int d = 0; d < rank; d++) {
    dims[d] = (v->type->dims[d] + div[d] - 1) / div[d];
    full[d] = dims[d] * div[d];
  }
  starts[0] = pad_to(P, &b, v, full);
  for (int d = 0; d < rank; d++) {
    if (div[d] > 1) {
      int64_t n = P->npart, one = 1, none = 0;
      Literal *tab = lit_new_in(&P->m->arena, type_tensor(&P->m->arena, ET_S64, 1, &n));
      for (int p = 0; p < P->npart; p++) lit_set_i(tab, p, idx[p * rank + d] * dims[d]);
      Value *in[2] = {bld_constant(&b, tab), partition_index(P)};
      Value *s = bld_op(&b, OP_DYNAMIC_SLICE, 2, in, bld_tensor(&b, ET_S64, 1, &one));
      op_set_attr(P->m, s->def, "slice_sizes", attr_ints(P->m, 1, &one));
      starts[1 + d] = bld_reshape(&b, s, 0, &none);
    } else {
      if (!zero) zero = bld_constant(&b, lit_new_in(&P->m->arena, type_scalar(&P->m->arena, ET_S64)));
      starts[1 + d] = zero;
    }
  }
  Type *lt = type_clone(&P->m->arena, v->type);
  memcpy(lt->dims, dims, sizeof(int64_t) * (size_t)rank);
  lt->layout = NULL;
  Value *s = bld_op(&b, OP_DYNAMIC_SLICE, 1 + rank, starts, lt);
  op_set_attr(P->m, s->def, "slice_sizes", attr_ints(P->m, rank, dims));
  P->n_cut++;
  return s;
}

/* v, a shard in layout u, cut locally to layout t when each of t's shards
   lies within the shard of u the same partition holds (t splits each
   dimension into a multiple of u's pieces); NULL otherwise. */
/* Whether each of t's shards lies within the shard of u the same
   partition holds. */
static bool refines(const SpmdTiling *u, const SpmdTiling *t) {
  if (!u || !t || u->rank != t->rank || u->ndev != t->ndev || u->rank > MAXR) return false;
  for (int d = 0; d < t->rank; d++)
    if (t->ways[d] % u->ways[d] != 0) return false;
  for (int p = 0; p < t->ndev; p++)
    for (int d = 0; d < t->rank; d++)
      if (t->coord[p * (t->rank + 1) + d] / (t->ways[d] / u->ways[d]) != u->coord[p * (u->rank + 1) + d]) return false;
  return true;
}

static Value *refine(Part *P, Value *v, const SpmdTiling *u, const SpmdTiling *t, Op *at) {
  if (!u || !t || u->rank != t->rank || u->rank > MAXR || padded(P, v) || uneven(global_type(P, v), t)) return NULL;
  int rank = t->rank;
  int64_t div[MAXR];
  for (int d = 0; d < rank; d++) {
    if (t->ways[d] % u->ways[d] != 0) return NULL;
    div[d] = t->ways[d] / u->ways[d];
  }
  int64_t *idx = xcalloc((size_t)P->npart * (size_t)rank + 1, sizeof(int64_t));
  bool ok = true;
  for (int p = 0; p < P->npart && ok; p++)
    for (int d = 0; d < rank && ok; d++) {
      int64_t ct = t->coord[p * (rank + 1) + d];
      ok = ct / div[d] == u->coord[p * (rank + 1) + d];
      idx[p * rank + d] = ct % div[d];
    }
  Value *r = ok ? cut_local(P, v, div, idx, at) : NULL;
  xfree(idx);
  return r;
}

/* Whether all the elements of l are one value (a splat). */
static bool uniform(const Literal *l) {
  if (l->n == 1) return true;
  if (l->n < 1 || et_bits(lit_elem(l)) > 64) return false;
  uint64_t first = lit_get_bits(l, 0);
  for (int64_t i = 1; i < l->n; i++)
    if (lit_get_bits(l, i) != first) return false;
  return true;
}

/* This partition's shard, in layout t, of v (whole), before `at`.  What
   is made from nothing is made as the shard: a broadcast of a whole value
   broadcasts its operand's shard, a splat constant is broadcast to the
   shard's shape, an iota counts from the shard's offset. */
static Value *cut(Part *P, Value *v, const SpmdTiling *t, Op *at) {
  if (!splits(t)) return v;
  Builder b = {P->m, P->body, at, at ? at->loc : P->f->loc};
  Type *lt = local_type(P, v->type, t);
  Op *def = v->def;
  int64_t *bd;
  if (def && def->kind == OP_BROADCAST_IN_DIM && def->opnds[0]->type->kind == TY_TENSOR &&
      !tiling_of(P, def->opnds[0]) && op_attr_ints(def, "broadcast_dimensions", &bd) == def->opnds[0]->type->rank) {
    Value *o = def->opnds[0];
    int r = o->type->rank;
    int64_t ways[MAXR], *keys = xcalloc((size_t)P->npart * (size_t)(r + 1), sizeof(int64_t));
    bool fits = r <= MAXR;
    for (int i = 0; i < r && fits; i++) {
      fits = bd[i] >= 0 && bd[i] < t->rank;
      bool same = fits && o->type->dims[i] == v->type->dims[bd[i]];
      ways[i] = same ? t->ways[bd[i]] : 1;
      for (int p = 0; p < P->npart && fits; p++) keys[p * r + i] = same ? t->coord[p * (t->rank + 1) + bd[i]] : 0;
    }
    bool ok = false;
    SpmdTiling *ot = fits ? tiling_by_keys(P, r, ways, keys, &ok) : NULL;
    xfree(keys);
    if (ok) return bld_broadcast(&b, cut(P, o, ot, at), lt, r, bd);
  }
  if (def && def->kind == OP_IOTA && lt->rank > 0) {
    int64_t id = op_attr_int(def, "iota_dimension", -1);
    ElemType et = lt->elem;
    if (id >= 0 && id < lt->rank &&
        (et_is_int(et) || ((et == ET_F32 || et == ET_F64) && v->type->dims[id] <= (1 << 24)))) {
      Value *i = bld_op(&b, OP_IOTA, 0, NULL, lt);
      op_set_attr(P->m, i->def, "iota_dimension", attr_int(P->m, id, type_scalar(&P->m->arena, ET_S64)));
      if (t->ways[id] == 1) return i;
      Value *off = bld_convert(&b, shard_offset(P, &b, t, (int)id, lt->dims[id]), et);
      return bld_add(&b, i, bld_splat(&b, off, lt));
    }
  }
  if (def && def->kind == OP_CONSTANT) {
    const Attr *a = op_attr(def, "value");
    if (a && a->kind == ATTR_DENSE && a->lit && v->type->rank > 0 && uniform(a->lit)) {
      Literal *s = lit_new_in(&P->m->arena, type_scalar(&P->m->arena, v->type->elem));
      lit_copy_elem(s, 0, a->lit, 0);
      return bld_broadcast(&b, bld_constant(&b, s), lt, 0, lt->dims);
    }
  }
  Value *starts[MAXR + 1];
  int64_t full[MAXR];
  for (int d = 0; d < t->rank; d++) full[d] = lt->dims[d] * t->ways[d];
  starts[0] = pad_to(P, &b, v, full);
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
  P->n_cut++;
  return s;
}

static Value *shard_here(Part *P, Value *v, const SpmdTiling *t, Op *at);

/* This partition's shard of v (whole) in layout t, cut before `at`
   (hoisted out of loops, above); a later use that needs v whole gets v
   itself. */
static Value *shard_of(Part *P, Value *v, const SpmdTiling *t, Op *at) {
  Block *outer;
  Op *where = hoist(P, v, at, &outer);
  Value *s = shard_here(P, v, t, where);
  P->body = outer;
  return s;
}

static Value *shard_here(Part *P, Value *v, const SpmdTiling *t, Op *at) {
  if (!splits(t)) return v;
  /* the last cut of v, when it is the same (it precedes `at`) */
  Value *s = ptrmap_get(&P->cuts, v);
  if (s && visible(P, s) && same_data(tiling_of(P, s), t)) return s;
  s = cut(P, v, t, at);
  ptrmap_put(&P->tiling, s, (void *)t);
  ptrmap_put(&P->whole, s, v);
  ptrmap_put(&P->cuts, v, s);
  return s;
}

/* keep (NULL: all true) and whether each element of a piece of shape
   `shape`, whose first element along d is element `off` (a scalar) of the
   whole value, lies before the value's end n along d. */
static Value *in_range(Part *P, Builder *b, Value *keep, const Type *shape, int d, Value *off, int64_t n) {
  Type *it = bld_shape_of(b, shape, ET_S64);
  Value *i = bld_op(b, OP_IOTA, 0, NULL, it);
  op_set_attr(P->m, i->def, "iota_dimension", attr_int(P->m, d, type_scalar(&P->m->arena, ET_S64)));
  Value *in = bld_compare(b, bld_add(b, i, bld_splat(b, off, it)), bld_const_i(b, it, n), "LT");
  return keep ? bld_bin(b, OP_AND, keep, in) : in;
}

/* v, a shard in layout t of a value of global type g, with `fill` (a
   whole scalar) in place of the padding of its pieces along the
   dimensions dims[] marks: what a reduce over them must not count (the
   reducer's identity). */
static Value *mask_padding(Part *P, Value *v, const SpmdTiling *t, const Type *g, const bool *dims, Value *fill,
                           Op *at) {
  Builder b = {P->m, P->body, at, at ? at->loc : P->f->loc};
  Value *keep = NULL;
  for (int d = 0; d < t->rank; d++)
    if (dims[d] && t->ways[d] > 1 && g->dims[d] % t->ways[d] != 0)
      keep = in_range(P, &b, keep, v->type, d, shard_offset(P, &b, t, d, v->type->dims[d]), g->dims[d]);
  if (!keep) return v;
  Value *r = bld_select(&b, keep, v, bld_splat(&b, fill, v->type));
  ptrmap_put(&P->tiling, r, (void *)t);
  return r;
}

/* v, a shard in layout u, moved to layout t by one all_to_all when t
   takes n pieces of dimension a from u's split and splits dimension b n
   times finer instead, everything else alike: the partitions holding n
   consecutive pieces of a (and the same pieces elsewhere, the same copy
   number) exchange the n parts of their shards along b, each keeping the
   part its place in the group names.  NULL when the layouts are not so. */
static Value *all_to_all(Part *P, Value *v, const SpmdTiling *u, const SpmdTiling *t, Op *at) {
  int rank = u->rank;
  if (t->rank != rank || t->ndev != u->ndev || rank > MAXR || padded(P, v) || uneven(global_type(P, v), t))
    return NULL;
  int a = -1, b = -1;
  int64_t n = 0;
  for (int d = 0; d < rank; d++) {
    if (u->ways[d] == t->ways[d]) continue;
    if (u->ways[d] > t->ways[d] && u->ways[d] % t->ways[d] == 0 && a < 0) a = d;
    else if (t->ways[d] > u->ways[d] && t->ways[d] % u->ways[d] == 0 && b < 0) b = d;
    else return NULL;
  }
  if (a < 0 || b < 0) return NULL;
  n = u->ways[a] / t->ways[a];
  if (t->ways[b] != u->ways[b] * n || v->type->dims[b] % n != 0) return NULL;
  /* groups: keyed by u's coordinates with a's piece divided by n */
  int np = u->ndev;
  int64_t ngroups = np / n, *members = ARENA_ARRAY(&P->m->arena, int64_t, np + 1), *gkey = xcalloc((size_t)np, sizeof(int64_t));
  for (int p = 0; p < np; p++) gkey[p] = -1;
  int64_t g = 0;
  bool ok = true;
  for (int p = 0; p < np && ok; p++) {
    const int64_t *cu = &u->coord[p * (rank + 1)], *ct = &t->coord[p * (rank + 1)];
    int64_t k = cu[a] % n;
    for (int d = 0; d < rank && ok; d++)
      ok = d == b ? ct[d] == cu[d] * n + k : d == a ? ct[d] == cu[d] / n : ct[d] == cu[d];
    if (!ok || gkey[p] >= 0) continue;
    /* p opens a group: the partitions alike but for a's piece within it */
    for (int q = 0; q < np && ok; q++) {
      const int64_t *cq = &u->coord[q * (rank + 1)];
      bool same = cq[rank] == cu[rank] && cq[a] / n == cu[a] / n;
      for (int d = 0; d < rank && same; d++) same = d == a || cq[d] == cu[d];
      if (!same) continue;
      ok = gkey[q] < 0 && g < ngroups;
      if (ok) {
        gkey[q] = g;
        members[g * n + cq[a] % n] = q;
      }
    }
    g++;
  }
  xfree(gkey);
  if (!ok || g != ngroups) return NULL;
  Builder bl = {P->m, P->body, at, at ? at->loc : P->f->loc};
  Type *rt = type_clone(&P->m->arena, v->type);
  rt->dims[b] /= n;
  rt->dims[a] *= n;
  rt->layout = NULL;
  Value *r = bld_op(&bl, OP_ALL_TO_ALL, 1, &v, rt);
  Type *i64 = type_scalar(&P->m->arena, ET_S64);
  op_set_attr(P->m, r->def, "split_dimension", attr_int(P->m, b, i64));
  op_set_attr(P->m, r->def, "concat_dimension", attr_int(P->m, a, i64));
  op_set_attr(P->m, r->def, "split_count", attr_int(P->m, n, i64));
  /* with a channel, all_to_all's groups are partition ids (in each replica) */
  int64_t shape[2] = {ngroups, n};
  Literal *l = lit_new_in(&P->m->arena, type_tensor(&P->m->arena, ET_S64, 2, shape));
  for (int64_t k = 0; k < np; k++) lit_set_i(l, k, members[k]);
  op_set_attr(P->m, r->def, "replica_groups", attr_dense(P->m, l));
  set_channel(P, r->def);
  P->n_a2a++;
  ptrmap_put(&P->tiling, r, (void *)t);
  return r;
}

/* v, a shard in layout u, moved to layout t when both split alike and
   only which partition holds which piece differs (a reversed split
   dimension numbers its pieces the other way): one collective_permute,
   each partition sending its piece to the one holding it, as the same
   copy, in t.  NULL otherwise. */
static Value *permute_pieces(Part *P, Value *v, const SpmdTiling *u, const SpmdTiling *t, Op *at) {
  int rank = u->rank;
  if (t->rank != rank || t->ndev != u->ndev || t->nrep != u->nrep || padded(P, v)) return NULL;
  for (int d = 0; d < rank; d++)
    if (t->ways[d] != u->ways[d]) return NULL;
  int np = u->ndev;
  int64_t shape[2] = {np, 2};
  Literal *l = lit_new_in(&P->m->arena, type_tensor(&P->m->arena, ET_S64, 2, shape));
  for (int q = 0; q < np; q++) {
    lit_set_i(l, 2 * q, u->devices[tile_pos(u, &t->coord[q * (rank + 1)])]);
    lit_set_i(l, 2 * q + 1, q);
  }
  Builder b = {P->m, P->body, at, at ? at->loc : P->f->loc};
  Value *r = bld_op(&b, OP_COLLECTIVE_PERMUTE, 1, &v, v->type);
  op_set_attr(P->m, r->def, "source_target_pairs", attr_dense(P->m, l));
  set_channel(P, r->def);
  P->n_permute++;
  ptrmap_put(&P->tiling, r, (void *)t);
  return r;
}

/* v (a shard, or whole) in layout t, before `at`: as it is when it holds
   the same data, cut locally when its shards hold t's, by moving the
   operand of a broadcast and broadcasting again (below), by an all_to_all
   when one split moves to another dimension, gathered whole otherwise
   (and cut when t splits). */
static Value *reshard_here(Part *P, Value *v, const SpmdTiling *t, Op *at);

static SpmdTiling *carry(Part *P, const SpmdTiling *t, const Type *to, const int *src);

/* v = broadcast_in_dim(x) moved to layout t by moving x instead: x to the
   layout t gives its dimensions (whole when t splits none of them), then
   broadcast on each partition to v's piece in t, which the broadcast of
   x's piece is (along the dimensions the broadcast adds or stretches a
   piece holds the same values wherever it lies).  Taken only when x,
   whole, is smaller than v's piece in t: moving x then costs less than any
   way of moving v (an all_to_all leaves each partition a piece of v, a
   gather all of it).  A bias split along the features and broadcast along
   a batch that is split instead: the bias gathered, not the broadcast
   moved by an all_to_all.  NULL when it does not apply. */
static Value *rebroadcast(Part *P, Value *v, const SpmdTiling *t, Op *at) {
  Op *b = v->def;
  if (!b || b->kind != OP_BROADCAST_IN_DIM || b->nopnds != 1 || b->nres != 1 || padded(P, v)) return NULL;
  Value *x = b->opnds[0];
  const Type *gx = global_type(P, x), *gv = global_type(P, v);
  if (gx->kind != TY_TENSOR || gx->rank > MAXR || padded(P, x) || ptrmap_get(&P->psum, x) ||
      (t && (t->rank != gv->rank || uneven(gv, t))))
    return NULL;
  int64_t *bd;
  if (op_attr_ints(b, "broadcast_dimensions", &bd) != gx->rank) return NULL;
  int src[MAXR];
  bool split = false;
  for (int k = 0; k < gx->rank; k++) {
    if (bd[k] < 0 || bd[k] >= gv->rank) return NULL;
    src[k] = gx->dims[k] == gv->dims[bd[k]] ? (int)bd[k] : -1;
    split |= t && src[k] >= 0 && t->ways[src[k]] > 1;
  }
  SpmdTiling *tx = split ? carry(P, t, gx, src) : NULL;
  if (split && !tx) return NULL;
  Type *lt = splits(t) ? local_type(P, gv, t) : (Type *)gv;
  if (type_elems(gx) >= type_elems(lt)) return NULL;
  Value *xl = tx ? reshard_here(P, x, tx, at) : gather_here(P, x, at);
  Builder bl = {P->m, P->body, at, at ? at->loc : P->f->loc};
  Value *r = bld_op(&bl, OP_BROADCAST_IN_DIM, 1, &xl, lt);
  op_set_attr(P->m, r->def, "broadcast_dimensions", attr_ints(P->m, gx->rank, bd));
  if (splits(t)) ptrmap_put(&P->tiling, r, (void *)t);
  return r;
}

static Value *reshard(Part *P, Value *v, const SpmdTiling *t, Op *at) {
  v = summed(P, v, false);
  Block *outer;
  Op *where = hoist(P, v, at, &outer);
  Value *r = reshard_here(P, v, t, where);
  P->body = outer;
  return r;
}

static Value *reshard_here(Part *P, Value *v, const SpmdTiling *t, Op *at) {
  const SpmdTiling *u = tiling_of(P, v);
  if (same_data(u, t)) return v;
  if (!u) return shard_of(P, v, t, at);
  Value *r = NULL;
  if (!splits(t)) return (r = rebroadcast(P, v, NULL, at)) ? r : gather(P, v, at);
  /* padded pieces do not nest in other pieces: gathered and cut */
  if (padded(P, v) || uneven(global_type(P, v), t)) return shard_of(P, gather(P, v, at), t, at);
  r = refine(P, v, u, t, at);
  if (r) {
    ptrmap_put(&P->tiling, r, (void *)t);
    return r;
  }
  if ((r = rebroadcast(P, v, t, at))) return r;
  if ((r = all_to_all(P, v, u, t, at))) return r;
  if ((r = permute_pieces(P, v, u, t, at))) return r;
  return shard_of(P, gather(P, v, at), t, at);
}

static bool use_whole_in(Part *P, Block *blk, Op *at) {
  bool any = false;
  for (Op *o = blk->first; o; o = o->next) {
    for (int i = 0; i < o->nopnds; i++)
      if (tiling_of(P, o->opnds[i])) {
        o->opnds[i] = gather(P, o->opnds[i], at);
        any = true;
      }
    for (int k = 0; k < o->nregions; k++) any |= use_whole_in(P, o->regions[k], at);
  }
  return any;
}

/* The rule for every op: its operands (and the values its regions use)
   whole.  An op that had split operands is counted for the summary. */
static void note_whole(Part *P, Op *op);

static void run_whole(Part *P, Op *op) {
  bool any = false;
  for (int i = 0; i < op->nopnds; i++)
    if (tiling_of(P, op->opnds[i])) {
      op->opnds[i] = gather(P, op->opnds[i], op);
      any = true;
    }
  for (int k = 0; k < op->nregions; k++) any |= use_whole_in(P, op->regions[k], op);
  if (any) note_whole(P, op);
}

/* op counted for the summary among the ops computed whole from split
   operands. */
static void note_whole(Part *P, Op *op) {
  if (!P->nwhole++) P->whole_loc = op->loc;
  for (int i = 0; i < P->nwhole_kinds; i++)
    if (P->whole_kinds[i] == op->kind) return;
  if (P->nwhole_kinds < (int)(sizeof P->whole_kinds / sizeof P->whole_kinds[0]))
    P->whole_kinds[P->nwhole_kinds++] = op->kind;
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
  /* the finest layout among the operands, the others cut to it */
  for (int i = 0; i < op->nopnds; i++) {
    const SpmdTiling *u = tiling_of(P, op->opnds[i]);
    int64_t nu = 1, nt = 1;
    for (int d = 0; u && d < u->rank; d++) nu *= u->ways[d], nt *= t->ways[d];
    if (u && nu > nt) t = u;
  }
  /* the layout propagation chose, when it chose one */
  const SpmdTiling *w = ptrmap_get(&P->want, &op->res[0]);
  if (splits(w)) t = w;
  for (int i = 0; i < op->nopnds; i++) {
    const SpmdTiling *u = tiling_of(P, op->opnds[i]);
    if (u) op->opnds[i] = reshard(P, op->opnds[i], t, op);
    else if (op->opnds[i]->type->rank > 0) op->opnds[i] = cut(P, op->opnds[i], t, op);
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

static int64_t coord_or0(const SpmdTiling *t, int p, int d) { return t ? t->coord[p * (t->rank + 1) + d] : 0; }
static int64_t ways_or1(const SpmdTiling *t, int d) { return t ? t->ways[d] : 1; }

/* A sum over groups of n partitions (*members, group after group) whose
   result is in layout r (NULL: whole), when w, the layout wanted of it,
   splits one dimension sd n times finer and each group holds its n
   pieces: sd, with *members reordered so that the k-th member of a group
   keeps piece k (a reduce_scatter along sd).  -1 otherwise. */
static int scatter_dim(Part *P, int64_t n, int64_t **members, const SpmdTiling *r, const SpmdTiling *w, int rank) {
  if (!splits(w) || w->rank != rank || w->ndev != P->npart || !*members || n < 2) return -1;
  int sd = -1;
  for (int d = 0; d < rank; d++) {
    int64_t rw = ways_or1(r, d);
    if (w->ways[d] == rw) continue;
    if (w->ways[d] != rw * n || sd >= 0) return -1;
    sd = d;
  }
  if (sd < 0) return -1;
  int np = P->npart;
  int64_t *mem = ARENA_ARRAY(&P->m->arena, int64_t, np + 1);
  for (int k = 0; k < np; k++) mem[k] = -1;
  for (int k = 0; k < np; k++) {
    int p = (int)(*members)[k];
    const int64_t *cw = &w->coord[p * (rank + 1)];
    for (int d = 0; d < rank; d++)
      if (d != sd && cw[d] != coord_or0(r, p, d)) return -1;
    int64_t slot = (k / n) * n + cw[sd] % n;
    if (cw[sd] / n != coord_or0(r, p, sd) || mem[slot] >= 0) return -1;
    mem[slot] = p;
  }
  *members = mem;
  return sd;
}

/* ---- partial sums ----
 * A value held as a partial sum has on each partition an addend: the
 * value is the sum over the partitions of each group.  The partial
 * products of a dot whose contracting dimensions are split, the local sums
 * of a reduce by add over split dimensions, unreduced parameters,
 * constraints and results of manual computations are held so, and so are
 * the results of the ops linear in them whose operands agree (partial_op
 * below).  Any other use takes the sum, made once per value right after
 * the value: an all_reduce over the groups, or a reduce_scatter when the
 * layout wanted of the value splits it further by as many pieces as a
 * group has partitions.  A group's members hold the same piece of the
 * value's layout (to the layout they are copies). */

typedef struct Psum {
  int64_t size;     /* partitions per group */
  int64_t *members; /* [npart] group after group */
  int64_t *gid;     /* [npart] the least partition of each partition's group */
} Psum;

static Psum *psum_new(Part *P, int64_t size, const int64_t *members) {
  int np = P->npart;
  Psum *s = ARENA_NEW(&P->m->arena, Psum);
  s->size = size;
  s->members = ARENA_ARRAY(&P->m->arena, int64_t, np + 1);
  s->gid = ARENA_ARRAY(&P->m->arena, int64_t, np + 1);
  memcpy(s->members, members, sizeof(int64_t) * (size_t)np);
  for (int64_t g = 0; g < np / size; g++) {
    int64_t lo = members[g * size];
    for (int64_t k = 1; k < size; k++)
      if (members[g * size + k] < lo) lo = members[g * size + k];
    for (int64_t k = 0; k < size; k++) s->gid[members[g * size + k]] = lo;
  }
  return s;
}

static Psum *psum_of(Part *P, const Value *v) { return ptrmap_get(&P->psum, v); }

static bool psum_same(Part *P, const Psum *a, const Psum *b) {
  if (!a || !b || a->size != b->size) return false;
  for (int p = 0; p < P->npart; p++)
    if (a->gid[p] != b->gid[p]) return false;
  return true;
}

/* The groups of a joined with groups of `size` partitions (members, group
   after group): the sums over both; NULL when the joined groups are not
   each one group of a times one of the others. */
static Psum *psum_join(Part *P, const Psum *a, int64_t size, const int64_t *members) {
  int np = P->npart;
  int64_t *lab = xcalloc((size_t)np + 1, sizeof(int64_t)), *mem = xcalloc((size_t)np + 1, sizeof(int64_t));
  for (int p = 0; p < np; p++) lab[p] = a->gid[p];
  for (int64_t g = 0; g < np / size; g++)
    for (int64_t k = 1; k < size; k++) {
      int64_t from = lab[members[g * size + k]], to = lab[members[g * size]];
      for (int p = 0; p < np && from != to; p++)
        if (lab[p] == from) lab[p] = to;
    }
  int64_t n = a->size * size, k = 0;
  bool ok = true;
  for (int p = 0; p < np && ok; p++) {
    bool first = true;
    for (int q = 0; q < p && first; q++) first = lab[q] != lab[p];
    if (!first) continue;
    int64_t c = 0;
    for (int q = 0; q < np; q++)
      if (lab[q] == lab[p]) mem[k + c++] = q;
    ok = c == n;
    k += c;
  }
  Psum *r = ok ? psum_new(P, n, mem) : NULL;
  xfree(lab);
  xfree(mem);
  return r;
}

/* Whether the members of each group hold the same piece of layout t. */
static bool psum_fits(Part *P, const Psum *s, const SpmdTiling *t) {
  for (int p = 0; t && p < P->npart; p++)
    for (int d = 0; d < t->rank; d++)
      if (t->coord[p * (t->rank + 1) + d] != t->coord[s->gid[p] * (t->rank + 1) + d]) return false;
  return true;
}

static int64_t type_bits(const Type *t) { return type_elems(t) * et_bits(t->elem); }

/* The layout v's sum takes when it is scattered (the layout wanted of v
   splits it further by as many pieces as a group has); NULL when not. */
static const SpmdTiling *scatter_layout(Part *P, const Value *v) {
  if (padded(P, v)) return NULL;
  Psum *ps = psum_of(P, v);
  const SpmdTiling *w = ptrmap_get(&P->want, v);
  int64_t *mem = ps->members;
  return scatter_dim(P, ps->size, &mem, tiling_of(P, v), w, v->type->rank) >= 0 ? w : NULL;
}

/* v's sum as its op redone on the sum of its one partial operand, when
   that has no more bytes than v: a sum is summed before it is scaled,
   converted or moved, a mean before it is broadcast (where XLA sums: the
   same order of additions, and never more bytes).  An elementwise op is
   redone in the layout the operand's sum is scattered to, its other
   operands cut again from the whole values they were cut from.  NULL when
   it is not so. */
static Value *sum_before(Part *P, Value *v, bool scatter) {
  Op *d = v->def;
  if (!d || d->parent != P->body || d->nres != 1 || d->nregions || d->kind == OP_REDUCE || !d->next) return NULL;
  int k = -1;
  for (int i = 0; i < d->nopnds; i++)
    if (psum_of(P, d->opnds[i])) {
      if (k >= 0) return NULL;
      k = i;
    }
  if (k < 0) return NULL;
  Value *o = d->opnds[k];
  if (type_bits(o->type) > type_bits(v->type)) return NULL;
  bool sc = scatter && op_has_flag(d->kind, OPF_EW);
  const SpmdTiling *t = tiling_of(P, o), *ws = sc ? scatter_layout(P, o) : NULL;
  Value *prev = ptrmap_get(&P->sums, o);
  if (prev && !visible(P, prev)) prev = NULL;
  if (prev && !same_data(tiling_of(P, prev), ws ? ws : t)) return NULL;
  Value **whole = xcalloc((size_t)d->nopnds + 1, sizeof(Value *));
  bool ok = true;
  for (int i = 0; i < d->nopnds && ws && ok; i++) {
    Value *b = d->opnds[i];
    if (i == k || b->type->rank == 0) continue;
    whole[i] = tiling_of(P, b) ? ptrmap_get(&P->whole, b) : b;
    ok = whole[i] && visible(P, whole[i]) && !tiling_of(P, whole[i]) && !psum_of(P, whole[i]);
  }
  if (!ok) {
    xfree(whole);
    return NULL;
  }
  Op *after = d->next;
  PtrMap map = {0};
  ptrmap_put(&map, o, summed(P, o, sc));
  for (int i = 0; i < d->nopnds; i++)
    if (whole[i]) {
      Value *c = cut(P, whole[i], ws, after);
      if (splits(ws)) ptrmap_put(&P->tiling, c, (void *)ws);
      ptrmap_put(&map, d->opnds[i], c);
    }
  xfree(whole);
  Op *c = op_clone(P->m, d, &map);
  ptrmap_free(&map);
  block_insert_before(P->body, after, c);
  const SpmdTiling *rt = ws ? ws : tiling_of(P, v);
  if (ws) c->res[0].type = splits(ws) ? local_type(P, global_type(P, v), ws) : global_type(P, v);
  if (splits(rt)) ptrmap_put(&P->tiling, &c->res[0], (void *)rt);
  return &c->res[0];
}

/* The sum of v when it is a partial sum (v otherwise), made once: its op
   redone on an earlier sum (above), or one all_reduce right after v
   (scattered when scatter and the layout wanted of v splits it
   further). */
static Value *summed(Part *P, Value *v, bool scatter) {
  Psum *ps = psum_of(P, v);
  if (!ps) return v;
  Value *s = ptrmap_get(&P->sums, v);
  if (s && visible(P, s)) return s;
  if (!(s = sum_before(P, v, scatter))) {
    const SpmdTiling *t = tiling_of(P, v), *w = scatter ? ptrmap_get(&P->want, v) : NULL;
    int64_t *mem = ps->members;
    int sd = scatter_dim(P, ps->size, &mem, t, w, v->type->rank);
    s = sum_over(P, v, groups_of(P, P->npart / ps->size, ps->size, mem), sd, ps->size);
    if (sd >= 0) t = w;
    if (t) ptrmap_put(&P->tiling, s, (void *)t);
  }
  ptrmap_put(&P->sums, v, s);
  return s;
}

/* The partial sums op uses (its operands, and values its regions use)
   summed. */
static void sum_in(Part *P, Block *b) {
  for (Op *o = b->first; o; o = o->next) {
    for (int i = 0; i < o->nopnds; i++) o->opnds[i] = summed(P, o->opnds[i], true);
    for (int k = 0; k < o->nregions; k++) sum_in(P, o->regions[k]);
  }
}

static void sum_uses(Part *P, Op *op) {
  for (int i = 0; i < op->nopnds; i++) op->opnds[i] = summed(P, op->opnds[i], true);
  for (int k = 0; k < op->nregions; k++) sum_in(P, op->regions[k]);
}

/* op's region (a reducer) copied as the region of `to`. */
static void copy_region(Part *P, const Op *op, Op *to) {
  PtrMap map = {0};
  Block *body = block_new(P->m), *reg = op->regions[0];
  for (int i = 0; i < reg->nargs; i++) ptrmap_put(&map, reg->args[i], block_add_arg(P->m, body, reg->args[i]->type, NULL));
  block_clone_into(P->m, reg, body, &map);
  ptrmap_free(&map);
  op_add_region(P->m, to, body);
}

/* The layout of a reduction's result over the dimensions red[] of an
   operand in layout t: the kept dimensions as they were, the split reduced
   ones (identical everywhere once combined) folded into the copies; their
   dimensions in split[] (*nsplit of them). */
static SpmdTiling *folded(Part *P, const SpmdTiling *t, const bool *red, int *nsplit, int *split) {
  int rank = 0;
  int64_t ways[MAXR], nrep = t->nrep;
  *nsplit = 0;
  for (int d = 0; d < t->rank; d++) {
    if (!red[d]) ways[rank++] = t->ways[d];
    else if (t->ways[d] > 1) split[(*nsplit)++] = d, nrep *= t->ways[d];
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
  return tiling_from_coords(&P->m->arena, rank, ways, nrep, t->ndev, coords);
}

static bool reduce(Part *P, Op *op) {
  if (op->kind != OP_REDUCE || op->nopnds != 2 || op->nres != 1) return false;
  const SpmdTiling *t = tiling_of(P, op->opnds[0]);
  Psum *ps = psum_of(P, op->opnds[0]);
  OpKind rk = plain_reducer(op);
  /* a sum of partial sums (or local sums over split dimensions) is kept
     as partial sums */
  bool keep = rk == OP_ADD && op->res[0].type->kind == TY_TENSOR && !et_is_pred(op->res[0].type->elem) &&
              !op->res[0].type->quant && !psum_of(P, op->opnds[1]);
  if ((ps && !keep) || psum_of(P, op->opnds[1])) return false;
  if (ps && !t) {
    ptrmap_put(&P->psum, &op->res[0], ps);
    return true;
  }
  if (!t || tiling_of(P, op->opnds[1]) || op->res[0].type->kind != TY_TENSOR || rk == OP_COUNT)
    return false;
  int64_t *rd;
  int nrd = op_attr_ints(op, "dimensions", &rd);
  if (nrd < 0) return false;
  bool red[MAXR] = {0};
  for (int i = 0; i < nrd; i++) {
    if (rd[i] < 0 || rd[i] >= t->rank) return false;
    red[rd[i]] = true;
  }
  /* uneven pieces of the reduced dimensions: their padding made the
     initial value (the reducer's identity), so that it counts for nothing */
  if (padded(P, op->opnds[0]))
    op->opnds[0] = mask_padding(P, op->opnds[0], t, global_type(P, op->opnds[0]), red, op->opnds[1], op);
  int rank = op->res[0].type->rank, nsplit, split[MAXR];
  SpmdTiling *rt = folded(P, t, red, &nsplit, split);
  Type *g = op->res[0].type;
  if (keep && (nsplit || ps)) {
    Psum *q = ps;
    if (nsplit) {
      int64_t size, *mem = group_members(P, t, nsplit, split, &size);
      q = ps ? psum_join(P, ps, size, mem) : psum_new(P, size, mem);
    }
    if (!q && ps) return false;
    if (q) {
      op->res[0].type = splits(rt) ? local_type(P, g, rt) : g;
      if (splits(rt)) ptrmap_put(&P->tiling, &op->res[0], rt);
      ptrmap_put(&P->psum, &op->res[0], q);
      return true;
    }
  }
  op->res[0].type = splits(rt) ? local_type(P, g, rt) : g;
  if (nsplit) {
    /* local partial results, combined by the reducer over the partitions
       that split the reduced dimensions */
    Type *lt = op->res[0].type;
    Value *in = &op->res[0];
    int64_t size, *mem = group_members(P, t, nsplit, split, &size);
    /* scattered when the layout wanted of the result splits it further */
    const SpmdTiling *w = ptrmap_get(&P->want, &op->res[0]);
    int sd = uneven(g, rt) ? -1 : scatter_dim(P, size, &mem, rt, w, rank);
    if (sd >= 0) {
      lt = type_clone(&P->m->arena, lt);
      lt->dims[sd] /= size;
      lt->layout = NULL;
      rt = (SpmdTiling *)w;
    }
    Op *ar = op_new(P->m, sd >= 0 ? OP_REDUCE_SCATTER : OP_ALL_REDUCE, 1, &in, 1, &lt, op->loc);
    if (sd >= 0) {
      P->n_scatter++;
      op_set_attr(P->m, ar, "scatter_dimension", attr_int(P->m, sd, type_scalar(&P->m->arena, ET_S64)));
    } else {
      P->n_reduce++;
    }
    block_insert_before(P->body, op->next, ar);
    set_collective(P, ar, groups_of(P, t->ndev / size, size, mem));
    copy_region(P, op, ar);
    block_replace_uses(P->body, &op->res[0], &ar->res[0]);
    ar->opnds[0] = &op->res[0];
    P->final = &ar->res[0];
    if (splits(rt)) ptrmap_put(&P->tiling, &ar->res[0], rt);
  } else if (splits(rt)) {
    ptrmap_put(&P->tiling, &op->res[0], rt);
  }
  return true;
}

/* dot_general on shards.  Each batch and contracting dimension pair must
   hold the same piece on both sides: split alike, or split on one side
   and cut locally from the other (whole along it).  The result is split
   along the batch pieces and each side's free dimensions; where the
   contracting dimensions are split, each partition holds a partial
   product, summed by an all_reduce over the partitions that hold the same
   result piece and the other contracting pieces.  When the operands'
   layouts cannot agree so, one of them (the smaller first) is gathered
   whole and it is tried again; the op is computed whole when nothing
   works. */
typedef struct DotDims {
  int nb, nc, lrank, rrank, rank;
  int64_t *lb, *rb, *lc, *rc;
} DotDims;

typedef struct DotPlan {
  int64_t ldiv[MAXR], rdiv[MAXR]; /* cuts of each operand along paired dims */
  int64_t *lidx, *ridx;           /* [npart * rank] the piece each partition cuts */
  int64_t ways[MAXR];             /* the result's */
  SpmdTiling *res;                /* the result's layout (NULL: whole) */
  int64_t nchunks;                /* contracting pieces: partial products to sum */
  int64_t *members;               /* [npart] the all_reduce's groups, nchunks each */
} DotPlan;


/* The layout of a product's result from each partition's pieces (keys:
   rank + 1 per partition, the result's pieces along kways, then the
   contracting piece of nchunks): *res, and when nchunks > 1 the groups
   that hold the same result piece and copy number, in contracting piece
   order (*members: npart ids, nchunks each), whose partial products add
   up.  False when the pieces make no layout (a piece held more often than
   another). */
static bool plan_layout(Part *P, int rank, int64_t *kways, const int64_t *keys, int64_t nchunks, SpmdTiling **res,
                        int64_t **members) {
  int np = P->npart;
  kways[rank] = nchunks;
  bool fine = false, fine2 = false;
  SpmdTiling *ext = tiling_by_keys(P, rank + 1, kways, keys, &fine);
  int64_t *rkeys = xcalloc((size_t)np * (size_t)(rank + 1), sizeof(int64_t));
  for (int p = 0; p < np; p++) memcpy(&rkeys[p * rank], &keys[p * (rank + 1)], sizeof(int64_t) * (size_t)rank);
  *res = fine ? tiling_by_keys(P, rank, kways, rkeys, &fine2) : NULL;
  xfree(rkeys);
  if (!fine || !fine2) return false;
  if (nchunks > 1) {
    *members = ARENA_ARRAY(&P->m->arena, int64_t, np);
    int64_t g = 0, cc[MAXR + 2];
    for (int p = 0; p < np; p++) {
      const int64_t *c = &ext->coord[p * (rank + 2)];
      if (c[rank] != 0) continue;
      memcpy(cc, c, sizeof(int64_t) * (size_t)(rank + 2));
      for (int64_t j = 0; j < nchunks; j++) {
        cc[rank] = j;
        (*members)[g++] = ext->devices[tile_pos(ext, cc)];
      }
    }
  }
  return true;
}

static bool dot_plan(Part *P, const DotDims *dd, const SpmdTiling *l, const SpmdTiling *r, DotPlan *pl) {
  int np = P->npart, rank = dd->rank, npair = dd->nb + dd->nc;
  if (!l && !r) return false;
  for (int d = 0; d < dd->lrank; d++) pl->ldiv[d] = 1;
  for (int d = 0; d < dd->rrank; d++) pl->rdiv[d] = 1;
  pl->lidx = ARENA_ARRAY(&P->m->arena, int64_t, (size_t)np * (size_t)dd->lrank + 1);
  pl->ridx = ARENA_ARRAY(&P->m->arena, int64_t, (size_t)np * (size_t)dd->rrank + 1);
  /* keys: the result's pieces, then the contracting piece */
  int64_t *keys = xcalloc((size_t)np * (size_t)(rank + 1), sizeof(int64_t));
  int64_t kways[MAXR + 1];
  int k = 0;
  bool ok = true;
  pl->nchunks = 1;
  for (int i = 0; i < npair && ok; i++) {
    bool batch = i < dd->nb;
    int ld = (int)(batch ? dd->lb[i] : dd->lc[i - dd->nb]), rd = (int)(batch ? dd->rb[i] : dd->rc[i - dd->nb]);
    int64_t wl = ways_or1(l, ld), wr = ways_or1(r, rd), w = wl > wr ? wl : wr;
    if (wl > 1 && wr > 1) {
      ok = wl == wr;
      for (int p = 0; p < np && ok; p++) ok = coord_or0(l, p, ld) == coord_or0(r, p, rd);
    }
    if (!ok) break;
    if (wl == 1 && w > 1) pl->ldiv[ld] = w;
    if (wr == 1 && w > 1) pl->rdiv[rd] = w;
    for (int p = 0; p < np; p++) {
      int64_t c = wl > 1 ? coord_or0(l, p, ld) : coord_or0(r, p, rd);
      pl->lidx[p * dd->lrank + ld] = c;
      pl->ridx[p * dd->rrank + rd] = c;
      if (batch) keys[p * (rank + 1) + i] = c;
      else keys[p * (rank + 1) + rank] = keys[p * (rank + 1) + rank] * w + c;
    }
    if (batch) kways[k++] = w;
    else pl->nchunks *= w;
  }
  for (int side = 0; side < 2 && ok; side++) {
    const SpmdTiling *t = side ? r : l;
    int orank = side ? dd->rrank : dd->lrank;
    const int64_t *bd = side ? dd->rb : dd->lb, *cd = side ? dd->rc : dd->lc;
    for (int d = 0; d < orank; d++) {
      if (ints_contain(bd, dd->nb, d) || ints_contain(cd, dd->nc, d)) continue;
      for (int p = 0; p < np; p++) keys[p * (rank + 1) + k] = coord_or0(t, p, d);
      kways[k++] = ways_or1(t, d);
    }
  }
  ok = ok && k == rank && plan_layout(P, rank, kways, keys, pl->nchunks, &pl->res, &pl->members);
  if (ok) memcpy(pl->ways, kways, sizeof(int64_t) * (size_t)rank);
  xfree(keys);
  return ok;
}

/* The search for how a product of two operands (dot_general,
   convolution) runs on shards: plan(P, dims, l, r, out, &res) fills the
   plan `out` for operand layouts l and r (NULL: whole) and gives the
   result's layout, false when they do not fit. */
typedef bool (*ProductPlan)(Part *P, const void *dims, const SpmdTiling *l, const SpmdTiling *r, void *out,
                            const SpmdTiling **res);

/* The operands as they are; then the smaller one whole, then the larger
   (a plan that gathers an operand is kept when it gives the result the
   layout propagation chose, else the first such is taken).  The plan is
   left in `plan` (size bytes; `spare` as large, a scratch copy); returns
   the operand to gather whole (-1: none), -2 when no plan fits. */
static int plan_product(Part *P, Op *op, bool small_lhs, ProductPlan plan_fn, const void *dims, void *plan,
                        void *spare, size_t size) {
  const SpmdTiling *lt = tiling_of(P, op->opnds[0]), *rt = tiling_of(P, op->opnds[1]);
  const SpmdTiling *want = ptrmap_get(&P->want, &op->res[0]);
  int first = -2;
  for (int a = 0; a < 3; a++) {
    int whole = a == 0 ? -1 : (a == 1) == small_lhs ? 0 : 1;
    if (whole >= 0 && !(whole ? rt : lt)) continue;
    memset(plan, 0, size);
    const SpmdTiling *res = NULL;
    if (!plan_fn(P, dims, whole == 0 ? NULL : lt, whole == 1 ? NULL : rt, plan, &res)) continue;
    if (a == 0 || same_data(res, want)) return whole;
    if (first == -2) {
      memcpy(spare, plan, size);
      first = whole;
    }
  }
  if (first != -2) memcpy(plan, spare, size);
  return first;
}

static bool dot_try(Part *P, const void *dims, const SpmdTiling *l, const SpmdTiling *r, void *out,
                    const SpmdTiling **res) {
  DotPlan *pl = out;
  if (!dot_plan(P, dims, l, r, pl)) return false;
  *res = pl->res;
  return true;
}

/* A product whose contracting dimensions are split unevenly (ways[i]
   pieces of pair i, of the lhs's global type gl): the padding of both
   sides' pieces made zeros, so that it adds nothing to the partial
   products (the padding of pieces computed from others may hold
   anything, infinities included, so both sides are masked). */
static void mask_contracted(Part *P, Op *op, const DotDims *dd, const Type *gl, const int64_t *ways,
                            const DotPlan *pl) {
  Builder b = {P->m, P->body, op, op->loc};
  int np = P->npart;
  int64_t *tab = xcalloc((size_t)np + 1, sizeof(int64_t));
  Value *keep[2] = {NULL, NULL};
  for (int i = 0; i < dd->nc; i++) {
    int ld = (int)dd->lc[i], rd = (int)dd->rc[i];
    int64_t n = gl->dims[ld], c = op->opnds[0]->type->dims[ld];
    if (ways[i] < 2 || c * ways[i] == n) continue;
    for (int p = 0; p < np; p++) tab[p] = pl->lidx[p * dd->lrank + ld] * c;
    Value *off = by_partition(P, &b, tab);
    keep[0] = in_range(P, &b, keep[0], op->opnds[0]->type, ld, off, n);
    keep[1] = in_range(P, &b, keep[1], op->opnds[1]->type, rd, off, n);
  }
  xfree(tab);
  for (int k = 0; k < 2; k++) {
    if (!keep[k]) continue;
    Value *v = op->opnds[k];
    Value *zero = bld_constant(&b, lit_new_in(&P->m->arena, type_scalar(&P->m->arena, v->type->elem)));
    Value *r = bld_select(&b, keep[k], v, bld_splat(&b, zero, v->type));
    if (tiling_of(P, v)) ptrmap_put(&P->tiling, r, tiling_of(P, v));
    op->opnds[k] = r;
  }
}

static bool dot(Part *P, Op *op) {
  if (op->kind != OP_DOT_GENERAL || op->nopnds != 2 || op->nres != 1 || op->res[0].type->kind != TY_TENSOR)
    return false;
  const SpmdTiling *lt = tiling_of(P, op->opnds[0]), *rt = tiling_of(P, op->opnds[1]);
  if ((!lt && !rt) || op->opnds[0]->type->quant || op->opnds[1]->type->quant || op->res[0].type->quant) return false;
  Attr *dn = op_attr(op, "dot_dimension_numbers");
  DotDims dd = {0};
  int nlb = dict_ints(dn, "lhs_batching_dimensions", &dd.lb), nrb = dict_ints(dn, "rhs_batching_dimensions", &dd.rb);
  int nlc = dict_ints(dn, "lhs_contracting_dimensions", &dd.lc), nrc = dict_ints(dn, "rhs_contracting_dimensions", &dd.rc);
  if (nlb < 0 || nrb < 0 || nlc < 0 || nrc < 0 || nlb != nrb || nlc != nrc) return false;
  dd.nb = nlb;
  dd.nc = nlc;
  dd.lrank = global_type(P, op->opnds[0])->rank;
  dd.rrank = global_type(P, op->opnds[1])->rank;
  dd.rank = op->res[0].type->rank;
  if (dd.rank != dd.nb + (dd.lrank - dd.nb - dd.nc) + (dd.rrank - dd.nb - dd.nc) || dd.rank > MAXR ||
      dd.lrank > MAXR || dd.rrank > MAXR)
    return false;
  bool small_lhs = type_elems(global_type(P, op->opnds[0])) <= type_elems(global_type(P, op->opnds[1]));
  DotPlan pl, spare;
  int whole = plan_product(P, op, small_lhs, dot_try, &dd, &pl, &spare, sizeof pl);
  if (whole == -2) return false;
  const Type *gl = global_type(P, op->opnds[0]);
  int64_t lw[MAXR];
  for (int i = 0; i < dd.nc; i++) {
    int64_t wl = whole == 0 ? 1 : ways_or1(lt, (int)dd.lc[i]), wr = whole == 1 ? 1 : ways_or1(rt, (int)dd.rc[i]);
    lw[i] = wl > wr ? wl : wr;
  }
  if (whole >= 0) op->opnds[whole] = gather(P, op->opnds[whole], op);
  op->opnds[0] = cut_local(P, op->opnds[0], pl.ldiv, pl.lidx, op);
  op->opnds[1] = cut_local(P, op->opnds[1], pl.rdiv, pl.ridx, op);
  mask_contracted(P, op, &dd, gl, lw, &pl);
  op->res[0].type = shard_type(P, op->res[0].type, pl.ways);
  /* partial products: a partial sum over the contracting pieces */
  if (pl.nchunks > 1) ptrmap_put(&P->psum, &op->res[0], psum_new(P, pl.nchunks, pl.members));
  if (pl.res) ptrmap_put(&P->tiling, &op->res[0], pl.res);
  return true;
}

/* Gives op's one result the layout t (NULL: whole) and the shard type. */
static void set_result(Part *P, Op *op, const SpmdTiling *t) {
  if (!t) return;
  op->res[0].type = local_type(P, op->res[0].type, t);
  ptrmap_put(&P->tiling, &op->res[0], (void *)t);
}

/* A layout for a result of rank `rank` whose dimension i is operand
   dimension src[i] (-1: none) of layout t; every split dimension of t
   must appear. */
static SpmdTiling *moved(Part *P, const SpmdTiling *t, int rank, const int *src, bool *ok) {
  int64_t ways[MAXR], *keys = xcalloc((size_t)P->npart * (size_t)(rank + 1), sizeof(int64_t));
  int seen = 0, need = 0;
  for (int d = 0; d < t->rank; d++) need += t->ways[d] > 1;
  for (int i = 0; i < rank; i++) {
    ways[i] = src[i] >= 0 ? t->ways[src[i]] : 1;
    seen += ways[i] > 1;
    for (int p = 0; p < P->npart; p++) keys[p * rank + i] = src[i] >= 0 ? t->coord[p * (t->rank + 1) + src[i]] : 0;
  }
  SpmdTiling *r = NULL;
  *ok = false;
  if (seen == need) r = tiling_by_keys(P, rank, ways, keys, ok);
  xfree(keys);
  return r;
}

/* transpose and broadcast_in_dim of a shard: the layout follows the
   dimensions. */
static bool movement(Part *P, Op *op) {
  if ((op->kind != OP_TRANSPOSE && op->kind != OP_BROADCAST_IN_DIM) || op->nopnds != 1 || op->nres != 1 ||
      op->res[0].type->kind != TY_TENSOR)
    return false;
  const SpmdTiling *t = tiling_of(P, op->opnds[0]);
  const Type *g = global_type(P, op->opnds[0]), *rt = op->res[0].type;
  if (!t || rt->rank > MAXR) return false;
  int src[MAXR];
  int64_t *v;
  int n = op_attr_ints(op, op->kind == OP_TRANSPOSE ? "permutation" : "broadcast_dimensions", &v);
  if (n != g->rank) return false;
  if (op->kind == OP_TRANSPOSE) {
    if (rt->rank != n) return false;
    for (int i = 0; i < n; i++) {
      if (v[i] < 0 || v[i] >= n) return false;
      src[i] = (int)v[i];
    }
  } else {
    for (int i = 0; i < rt->rank; i++) src[i] = -1;
    for (int i = 0; i < n; i++) {
      if (v[i] < 0 || v[i] >= rt->rank) return false;
      if (g->dims[i] == rt->dims[v[i]]) src[v[i]] = i;
    }
  }
  bool ok;
  SpmdTiling *r = moved(P, t, rt->rank, src, &ok);
  if (!ok) return false;
  set_result(P, op, r);
  return true;
}

/* reshape of a shard: the dimensions fall into groups of equal element
   counts; in each group only the major (first non-unit) operand dimension
   may be split, and the major result dimension of the group must divide
   by its shards (each shard is then a run of whole result rows). */
static bool reshape(Part *P, Op *op) {
  if (op->kind != OP_RESHAPE || op->nopnds != 1 || op->nres != 1 || op->res[0].type->kind != TY_TENSOR) return false;
  const SpmdTiling *t = tiling_of(P, op->opnds[0]);
  const Type *g = global_type(P, op->opnds[0]), *rt = op->res[0].type;
  if (!t || rt->rank > MAXR) return false;
  int src[MAXR], i = 0, j = 0;
  for (int k = 0; k < rt->rank; k++) src[k] = -1;
  while (i < g->rank || j < rt->rank) {
    int i0 = i, j0 = j;
    int64_t pi = i < g->rank ? g->dims[i++] : 1, pj = j < rt->rank ? rt->dims[j++] : 1;
    while (pi != pj) {
      if (pi < pj && i < g->rank) pi *= g->dims[i++];
      else if (pj < pi && j < rt->rank) pj *= rt->dims[j++];
      else return false;
    }
    int im = -1, jm = -1;
    for (int d = i0; d < i; d++) {
      if (im < 0 && g->dims[d] > 1) im = d;
      else if (t->ways[d] > 1) return false;
    }
    for (int d = j0; d < j && jm < 0; d++)
      if (rt->dims[d] > 1) jm = d;
    if (im >= 0 && t->ways[im] > 1) {
      /* padded pieces (an uneven split) stay at the end of a dimension
         of the same size only */
      bool even = g->dims[im] % t->ways[im] == 0;
      if (jm < 0 || (even ? rt->dims[jm] % t->ways[im] != 0 : rt->dims[jm] != g->dims[im])) return false;
      src[jm] = im;
    }
  }
  bool ok;
  SpmdTiling *r = moved(P, t, rt->rank, src, &ok);
  if (!ok) return false;
  set_result(P, op, r);
  return true;
}

/* slice, dynamic_slice and concatenate that leave the split dimensions
   whole: the same op on the shards (a whole operand of concatenate is cut
   alike; the start of dynamic_slice along a dimension it takes whole is 0
   on the shard as on the whole). */
/* Whether an update of global type gu covers each dimension that t splits
   of an operand of global type g whole (its start there is then 0, as
   clamped, on every partition alike). */
static bool covers_splits(const SpmdTiling *t, const Type *g, const Type *gu) {
  if (!t || g->rank != gu->rank || t->rank != g->rank) return false;
  for (int d = 0; d < g->rank; d++)
    if (t->ways[d] > 1 && gu->dims[d] != g->dims[d]) return false;
  return true;
}

/* dynamic_update_slice on shards, when the update covers every split
   dimension whole: each partition writes its piece of the update into its
   piece of the operand, at the same start indices.  The layout is the one
   propagation chose, else the operand's, else the update's; a whole
   operand or update is cut to it (zeros made as the shard). */
static bool update_slice(Part *P, Op *op) {
  if (op->nopnds < 2 || op->res[0].type->quant) return false;
  Value *o = op->opnds[0], *u = op->opnds[1];
  const Type *g = global_type(P, o), *gu = global_type(P, u);
  if (g->rank != gu->rank || op->nopnds != 2 + g->rank || g->rank > MAXR) return false;
  for (int i = 2; i < op->nopnds; i++)
    if (tiling_of(P, op->opnds[i])) return false;
  const SpmdTiling *t = ptrmap_get(&P->want, &op->res[0]);
  if (!splits(t)) t = tiling_of(P, o);
  if (!t) t = tiling_of(P, u);
  if (!splits(t) || !covers_splits(t, g, gu)) return false;
  op->opnds[0] = reshard(P, o, t, op);
  op->opnds[1] = reshard(P, u, t, op);
  set_result(P, op, t);
  return true;
}

/* v (a shard) gathered along the dimensions drop[] marks only, before
   `at`: the partitions that differ only in their pieces there exchange
   them (one all_gather per dimension), and v is then held split along the
   others alike, copied along those.  NULL when v is padded or a partial
   sum (a slice of one is one: it is summed first), or that makes no
   layout. */
static Value *gather_along(Part *P, Value *v, const bool *drop, Op *at) {
  const SpmdTiling *t = tiling_of(P, v);
  if (!t || padded(P, v) || psum_of(P, v) || t->rank > MAXR) return NULL;
  int rank = t->rank;
  int64_t ways[MAXR], *keys = xcalloc((size_t)P->npart * (size_t)rank + 1, sizeof(int64_t));
  for (int d = 0; d < rank; d++) {
    ways[d] = drop[d] ? 1 : t->ways[d];
    for (int p = 0; p < P->npart; p++) keys[p * rank + d] = drop[d] ? 0 : t->coord[p * (rank + 1) + d];
  }
  bool ok = false;
  SpmdTiling *u = t->ndev == P->npart ? tiling_by_keys(P, rank, ways, keys, &ok) : NULL;
  xfree(keys);
  if (!ok) return NULL;
  Builder b = {P->m, P->body, at, at ? at->loc : P->f->loc};
  Value *w = v;
  for (int d = 0; d < rank; d++) {
    if (!drop[d] || t->ways[d] == 1) continue;
    int64_t dims[MAXR];
    memcpy(dims, w->type->dims, sizeof(int64_t) * (size_t)rank);
    dims[d] *= t->ways[d];
    w = all_gather_at(P, &b, w, d, rank, dims, groups_attr(P, t, 1, &d));
  }
  if (u) ptrmap_put(&P->tiling, w, u);
  return w;
}

static bool slicing(Part *P, Op *op) {
  if (op->nres != 1 || op->res[0].type->kind != TY_TENSOR) return false;
  const Type *rt = op->res[0].type;
  if (op->kind == OP_SLICE || op->kind == OP_DYNAMIC_SLICE) {
    const SpmdTiling *t = tiling_of(P, op->opnds[0]);
    if (!t) return false;
    const Type *g = global_type(P, op->opnds[0]);
    if (op->kind == OP_SLICE) {
      int64_t *lo, *hi, *st;
      int n1 = op_attr_ints(op, "start_indices", &lo), n2 = op_attr_ints(op, "limit_indices", &hi);
      int n3 = op_attr_ints(op, "strides", &st);
      if (n1 != g->rank || n2 != g->rank || (n3 != g->rank && n3 != 0) || g->rank > MAXR) return false;
      /* a split dimension the slice cuts: gathered along it alone, the
         other splits kept (`a[:, -1, :]` of a value split three ways
         stays split along the first and last dimensions) */
      bool drop[MAXR] = {0}, any = false;
      for (int d = 0; d < g->rank; d++)
        any |= drop[d] = t->ways[d] > 1 && (lo[d] != 0 || hi[d] != g->dims[d] || (n3 && st[d] != 1));
      if (any) {
        Value *w = gather_along(P, op->opnds[0], drop, op);
        if (!w) return false;
        op->opnds[0] = w;
        if (!(t = tiling_of(P, w))) return true;
      }
      int64_t nhi[MAXR];
      for (int d = 0; d < g->rank; d++) nhi[d] = t->ways[d] > 1 ? op->opnds[0]->type->dims[d] : hi[d];
      op_set_attr(P->m, op, "limit_indices", attr_ints(P->m, g->rank, nhi));
    } else {
      int64_t *sz;
      if (op_attr_ints(op, "slice_sizes", &sz) != g->rank || g->rank > MAXR) return false;
      for (int i = 1; i < op->nopnds; i++)
        if (tiling_of(P, op->opnds[i]) || psum_of(P, op->opnds[i])) return false;
      bool drop[MAXR] = {0}, any = false;
      for (int d = 0; d < g->rank; d++) any |= drop[d] = t->ways[d] > 1 && sz[d] != g->dims[d];
      if (any) {
        Value *w = gather_along(P, op->opnds[0], drop, op);
        if (!w) return false;
        op->opnds[0] = w;
        if (!(t = tiling_of(P, w))) return true;
      }
      int64_t nsz[MAXR];
      for (int d = 0; d < g->rank; d++) nsz[d] = t->ways[d] > 1 ? op->opnds[0]->type->dims[d] : sz[d];
      op_set_attr(P->m, op, "slice_sizes", attr_ints(P->m, g->rank, nsz));
    }
    set_result(P, op, t);
    return true;
  }
  if (op->kind == OP_DYNAMIC_UPDATE_SLICE) return update_slice(P, op);
  if (op->kind != OP_CONCATENATE) return false;
  int64_t cd = op_attr_int(op, "dimension", -1);
  const SpmdTiling *t = NULL;
  for (int i = 0; i < op->nopnds && !t; i++) t = tiling_of(P, op->opnds[i]);
  if (!t || cd < 0 || cd >= rt->rank || t->ways[cd] > 1) return false;
  for (int i = 0; i < op->nopnds; i++) {
    const SpmdTiling *u = tiling_of(P, op->opnds[i]);
    Value *r = NULL;
    if (u && !same_data(u, t) && !(r = refine(P, op->opnds[i], u, t, op)))
      r = cut(P, gather(P, op->opnds[i], op), t, op);
    if (r) op->opnds[i] = r;
    else if (!u) op->opnds[i] = cut(P, op->opnds[i], t, op);
  }
  set_result(P, op, t);
  return true;
}

/* An op linear in the partial sums it uses, when they agree: add and
   subtract of two partial sums over the same groups in the same layout,
   negate, multiply by (a float divided by) a value the partitions of a group hold
   alike (cut locally to the partial sum's layout), convert between float
   types, transpose, broadcast_in_dim, reshape, slice and dynamic_slice of
   one, and reduce by add: its result is a partial sum over the same groups
   (a reduce over split dimensions joins their groups).  False, with op
   unchanged, for any other use. */
static bool partial_op(Part *P, Op *op) {
  if (op->nres != 1 || op->res[0].type->kind != TY_TENSOR || op->res[0].type->quant) return false;
  Psum *ps = NULL;
  int n = 0, first = -1;
  for (int i = 0; i < op->nopnds; i++)
    if (psum_of(P, op->opnds[i]) && n++ == 0) first = i, ps = psum_of(P, op->opnds[i]);
  if (!ps || et_is_pred(op->res[0].type->elem)) return false;
  Value *a = op->opnds[first];
  const SpmdTiling *t = tiling_of(P, a);
  switch (op->kind) {
  case OP_ADD:
  case OP_SUBTRACT: {
    Value *b = op->opnds[1 - first];
    if (n != 2 || !psum_same(P, ps, psum_of(P, b)) || !same_data(t, tiling_of(P, b))) return false;
    break;
  }
  case OP_NEGATE: break;
  case OP_MULTIPLY:
  case OP_DIVIDE: {
    /* an integer quotient is not linear (it truncates) */
    if (n != 1 || (op->kind == OP_DIVIDE && (first != 0 || !et_is_fp(a->type->elem)))) return false;
    Value *b = op->opnds[1 - first];
    const SpmdTiling *u = tiling_of(P, b);
    if (!same_dims(global_type(P, b), global_type(P, a))) return false;
    if (!same_data(u, t) && !(u ? t && refines(u, t) : true)) return false;
    op->opnds[1 - first] = reshard(P, b, t, op);
    break;
  }
  case OP_CONVERT:
    if (!et_is_fp(a->type->elem) || !et_is_fp(op->res[0].type->elem) ||
        et_is_complex(a->type->elem) != et_is_complex(op->res[0].type->elem))
      return false;
    break;
  case OP_TRANSPOSE:
  case OP_BROADCAST_IN_DIM:
    if (t && !movement(P, op)) return false;
    ptrmap_put(&P->psum, &op->res[0], ps);
    return true;
  case OP_RESHAPE:
    if (t && !reshape(P, op)) return false;
    ptrmap_put(&P->psum, &op->res[0], ps);
    return true;
  case OP_SLICE:
  case OP_DYNAMIC_SLICE:
    if (n != 1 || first != 0 || (t && !slicing(P, op))) return false;
    ptrmap_put(&P->psum, &op->res[0], ps);
    return true;
  case OP_REDUCE: return first == 0 && reduce(P, op);
  default: return false;
  }
  /* elementwise: in the partial sum's layout */
  if (t) {
    op->res[0].type = local_type(P, op->res[0].type, t);
    ptrmap_put(&P->tiling, &op->res[0], (void *)t);
  }
  ptrmap_put(&P->psum, &op->res[0], ps);
  return true;
}

/* ---- windows: convolution, reduce_window, select_and_scatter ----
 * A window op works on shards along the dimensions its windows do not
 * cross (a convolution's batch and features, a reduce_window's dimensions
 * of window 1).  A dimension the windows cross (a spatial one) split in
 * pieces is extended by the rows of the neighbouring pieces the windows of
 * its own outputs reach, a halo: one collective_permute each way, the
 * pieces at the ends of the dimension taking the padding value instead.
 * That is done when each output piece reads one run of the input at the
 * same place relative to its own input piece: no base (lhs) dilation, as
 * many outputs as inputs divided by the stride, the stride dividing a
 * piece, and a halo no larger than a piece. */

typedef struct Halo {
  int64_t lo, hi; /* rows of the previous piece before, of the next after (hi < 0: the piece's last -hi rows not read) */
} Halo;

/* Whether a dimension of n elements split in `ways` pieces, read by
   windows of k elements (dilation wd) at stride s with padding lo and hi,
   giving `out` elements, runs on the pieces with halos: *h says the rows
   each piece needs of its neighbours. */
static bool halo_fits(int64_t n, int64_t ways, int64_t k, int64_t wd, int64_t s, int64_t lo, int64_t hi, int64_t out,
                      Halo *h) {
  if (ways < 1 || k < 1 || wd < 1 || s < 1 || n % ways != 0) return false;
  int64_t m = n / ways, keff = (k - 1) * wd + 1;
  /* m / s outputs a piece: as many outputs as inputs divided by the
     stride, or fewer (no or little padding: VALID) held in pieces of m / s
     whose last ones are padded (the outputs past the end read the edge's
     rows, and no one reads them) */
  bool fewer = out * s < n;
  if (m % s != 0 || (out + ways - 1) / ways * s != m || lo < 0) return false;
  h->lo = lo;
  h->hi = keff - lo - s;
  return h->lo <= m && h->hi <= m && -h->hi < m && (fewer || hi >= h->hi);
}

/* An attribute of n values (one per spatial or window dimension), def
   each when absent. */
static bool window_ints(const Op *op, const char *name, int n, int64_t def, int64_t *out) {
  int64_t *v;
  int k = op_attr_ints(op, name, &v);
  if (k < 0 || (k && k != n)) return false;
  for (int i = 0; i < n; i++) out[i] = k ? v[i] : def;
  return true;
}

typedef struct ConvDims {
  int ns;
  int64_t ib, ifeat, ki, ko, ob, of, fgc, bgc;
  int64_t is[MAXR], ks[MAXR], os[MAXR], stride[MAXR], lo[MAXR], hi[MAXR], ldil[MAXR], rdil[MAXR];
} ConvDims;

static bool conv_dims(const Op *op, ConvDims *c) {
  if (op->kind != OP_CONVOLUTION || op->nopnds != 2 || op->nres != 1) return false;
  const Type *lt = op->opnds[0]->type, *rt = op->opnds[1]->type, *ot = op->res[0].type;
  if (lt->kind != TY_TENSOR || rt->kind != TY_TENSOR || ot->kind != TY_TENSOR || lt->quant || rt->quant || ot->quant ||
      lt->rank < 2 || lt->rank > MAXR || rt->rank != lt->rank || ot->rank != lt->rank)
    return false;
  int ns = c->ns = lt->rank - 2;
  const Attr *dn = op_attr(op, "dimension_numbers");
  if (!dn) return false;
  c->ib = dict_int(dn, "input_batch_dimension", -1);
  c->ifeat = dict_int(dn, "input_feature_dimension", -1);
  c->ki = dict_int(dn, "kernel_input_feature_dimension", -1);
  c->ko = dict_int(dn, "kernel_output_feature_dimension", -1);
  c->ob = dict_int(dn, "output_batch_dimension", -1);
  c->of = dict_int(dn, "output_feature_dimension", -1);
  int64_t r = lt->rank;
  if (c->ib < 0 || c->ib >= r || c->ifeat < 0 || c->ifeat >= r || c->ki < 0 || c->ki >= r || c->ko < 0 ||
      c->ko >= r || c->ob < 0 || c->ob >= r || c->of < 0 || c->of >= r)
    return false;
  const char *sp[3] = {"input_spatial_dimensions", "kernel_spatial_dimensions", "output_spatial_dimensions"};
  int64_t *dst[3] = {c->is, c->ks, c->os};
  for (int k = 0; k < 3; k++) {
    int64_t *v;
    int n = dict_ints(dn, sp[k], &v);
    if (n != ns && (n > 0 || ns > 0)) return false;
    for (int i = 0; i < ns; i++) {
      if (v[i] < 0 || v[i] >= r) return false;
      dst[k][i] = v[i];
    }
  }
  int64_t *pad;
  int npad = op_attr_ints(op, "padding", &pad);
  if (!window_ints(op, "window_strides", ns, 1, c->stride) || !window_ints(op, "lhs_dilation", ns, 1, c->ldil) ||
      !window_ints(op, "rhs_dilation", ns, 1, c->rdil) || (npad != 0 && npad != 2 * ns))
    return false;
  for (int i = 0; i < ns; i++) {
    c->lo[i] = npad ? pad[2 * i] : 0;
    c->hi[i] = npad ? pad[2 * i + 1] : 0;
  }
  c->fgc = op_attr_int(op, "feature_group_count", 1);
  c->bgc = op_attr_int(op, "batch_group_count", 1);
  return c->fgc >= 1 && c->bgc >= 1;
}

/* A window op's window along each of its rank dimensions. */
typedef struct Window {
  int64_t size[MAXR], stride[MAXR], base[MAXR], dil[MAXR], lo[MAXR], hi[MAXR];
} Window;

static bool window_of(const Op *op, int rank, Window *w) {
  int64_t *wd, *pad;
  int npad = op_attr_ints(op, "padding", &pad);
  if (rank > MAXR || op_attr_ints(op, "window_dimensions", &wd) != rank || (npad != 0 && npad != 2 * rank))
    return false;
  if (!window_ints(op, "window_strides", rank, 1, w->stride) || !window_ints(op, "base_dilations", rank, 1, w->base) ||
      !window_ints(op, "window_dilations", rank, 1, w->dil))
    return false;
  for (int d = 0; d < rank; d++) {
    w->size[d] = wd[d];
    w->lo[d] = npad ? pad[2 * d] : 0;
    w->hi[d] = npad ? pad[2 * d + 1] : 0;
  }
  return true;
}

/* Whether dimension d of n elements (out of the window op) runs on
   pieces: untouched by the window (size, stride and dilations 1, no
   padding: nothing moves), or, when halo is not NULL, with a halo. */
static bool window_dim(const Window *w, int d, int64_t n, int64_t ways, int64_t out, Halo *halo) {
  if (w->size[d] == 1 && w->stride[d] == 1 && w->base[d] == 1 && w->lo[d] == 0 && w->hi[d] == 0 && out == n) {
    if (halo) *halo = (Halo){0, 0};
    return true;
  }
  Halo h;
  if (!halo) halo = &h;
  return w->base[d] == 1 && halo_fits(n, ways, w->size[d], w->dil[d], w->stride[d], w->lo[d], w->hi[d], out, halo);
}

/* The operand dimension that each result dimension of a gather takes
   whole from a split operand (src[k], -1: none), and the operand's
   dimensions the slices take whole (whole[d]); false when the gather's
   attributes do not read. */
static bool gather_dims(const Op *op, const Type *g, const Type *rt, int *src, bool *whole) {
  Attr *a = op_attr(op, "dimension_numbers");
  int64_t *off, *col, *ob, *sz;
  if (!a || g->kind != TY_TENSOR || rt->kind != TY_TENSOR || g->rank > MAXR || rt->rank > MAXR) return false;
  int noff = dict_ints(a, "offset_dims", &off), ncol = dict_ints(a, "collapsed_slice_dims", &col);
  int nob = dict_ints(a, "operand_batching_dims", &ob);
  if (noff < 0 || ncol < 0 || nob < 0 || op_attr_ints(op, "slice_sizes", &sz) != g->rank) return false;
  for (int k = 0; k < rt->rank; k++) src[k] = -1;
  int k = 0;
  for (int d = 0; d < g->rank; d++) {
    whole[d] = false;
    if (ints_contain(col, ncol, d) || ints_contain(ob, nob, d)) continue;
    if (k >= noff || off[k] < 0 || off[k] >= rt->rank) return false;
    whole[d] = sz[d] == g->dims[d];
    if (whole[d]) src[off[k]] = d;
    k++;
  }
  return k == noff;
}

/* Whether the windows along dimension d of n elements split in `ways`
   pieces, giving `out` elements, each lie within one piece, and the
   outputs of each piece's windows are the piece `out / ways` of the
   result: no padding before, no dilation, windows no longer than the
   stride, the stride dividing a piece, out * stride == n (2x2 pooling at
   stride 2; a window of 1). */
static bool apart(const Window *w, int d, int64_t n, int64_t ways, int64_t out) {
  int64_t s = w->stride[d];
  return w->lo[d] == 0 && w->hi[d] >= 0 && w->base[d] == 1 && w->dil[d] == 1 && w->size[d] <= s && s >= 1 &&
         n % ways == 0 && (n / ways) % s == 0 && out * s == n;
}

/* ---- propagation ----
 * Before anything is rewritten, every value of the entry block gets the
 * layout it should be held in.  The parameters' and the sharding
 * constraints' layouts are fixed; each op relates the dimensions of its
 * operands to those of its result (its factors: elementwise ops one to
 * one, transpose by its permutation, broadcast_in_dim by its dimensions,
 * reshape by the major dimension of each group, reduce by the kept
 * dimensions, dot_general by batch and free dimensions, slicing by the
 * dimensions taken whole), and a layout crosses an op along them: forward
 * from the operands to an open result (the finest operand layout, for a
 * dot the sides' splits together), backward from a result to open
 * operands, a result with a sharding seeding its value.  A value keeps
 * the first layout it gets (forward comes first), and the sweeps repeat
 * until nothing changes.  The rewrite then works each op on the shards
 * its result's layout calls for, cutting whole operands locally, and a
 * value computed whole that should be split is cut where it is made;
 * where producer and consumer still disagree, the consumer reshards. */

/* A sharding constraint: Shardy's op, or GSPMD's custom_call @Sharding. */
static bool is_constraint(const Op *op) {
  if (op->nopnds != 1 || op->nres != 1) return false;
  if (op->kind == OP_SDY_SHARDING_CONSTRAINT) return true;
  const char *t = op->kind == OP_CUSTOM_CALL ? op_attr_str(op, "call_target_name") : NULL;
  return t && !strcmp(t, "Sharding") && op_attr(op, "mhlo.sharding");
}

/* The result dimension that each dimension of op's operand i becomes
   (map[d], -1: none); false when op has no such rule. */
static bool dims_map(const Op *op, int i, int *map) {
  if (op->nres != 1 || i >= op->nopnds) return false;
  const Type *rt = op->res[0].type, *ot = op->opnds[i]->type;
  if (rt->kind != TY_TENSOR || ot->kind != TY_TENSOR || rt->rank > MAXR || ot->rank > MAXR || rt->quant || ot->quant)
    return false;
  for (int d = 0; d < ot->rank; d++) map[d] = -1;
  int64_t *v;
  switch (op->kind) {
  case OP_TRANSPOSE: {
    int n = op_attr_ints(op, "permutation", &v);
    if (n != ot->rank || n != rt->rank) return false;
    for (int k = 0; k < n; k++) {
      if (v[k] < 0 || v[k] >= n) return false;
      map[v[k]] = k;
    }
    return true;
  }
  case OP_BROADCAST_IN_DIM: {
    if (op_attr_ints(op, "broadcast_dimensions", &v) != ot->rank) return false;
    for (int d = 0; d < ot->rank; d++) {
      if (v[d] < 0 || v[d] >= rt->rank) return false;
      if (ot->dims[d] == rt->dims[v[d]]) map[d] = (int)v[d];
    }
    return true;
  }
  case OP_RESHAPE: {
    int a = 0, b = 0;
    while (a < ot->rank || b < rt->rank) {
      int a0 = a, b0 = b;
      int64_t pa = a < ot->rank ? ot->dims[a++] : 1, pb = b < rt->rank ? rt->dims[b++] : 1;
      while (pa != pb) {
        if (pa < pb && a < ot->rank) pa *= ot->dims[a++];
        else if (pb < pa && b < rt->rank) pb *= rt->dims[b++];
        else return false;
      }
      int am = -1, bm = -1;
      for (int d = a0; d < a && am < 0; d++)
        if (ot->dims[d] > 1) am = d;
      for (int d = b0; d < b && bm < 0; d++)
        if (rt->dims[d] > 1) bm = d;
      if (am >= 0 && bm >= 0) map[am] = bm;
    }
    return true;
  }
  case OP_REDUCE: {
    if (op->nopnds != 2) return false;
    if (i == 1) return true;
    int n = op_attr_ints(op, "dimensions", &v);
    if (n < 0) return false;
    for (int d = 0, k = 0; d < ot->rank; d++)
      if (!ints_contain(v, n, d)) map[d] = k++;
    return true;
  }
  case OP_DOT_GENERAL: {
    Attr *dn = op_attr(op, "dot_dimension_numbers");
    int64_t *lb, *rb, *lc, *rc;
    int nb = dict_ints(dn, "lhs_batching_dimensions", &lb), nrb = dict_ints(dn, "rhs_batching_dimensions", &rb);
    int nc = dict_ints(dn, "lhs_contracting_dimensions", &lc), nrc = dict_ints(dn, "rhs_contracting_dimensions", &rc);
    if (nb < 0 || nc < 0 || nb != nrb || nc != nrc || op->nopnds != 2) return false;
    const Type *lt = op->opnds[0]->type;
    if (lt->kind != TY_TENSOR) return false;
    const int64_t *bd = i ? rb : lb, *cd = i ? rc : lc;
    int k = nb + (i ? lt->rank - nb - nc : 0);
    for (int d = 0; d < ot->rank; d++) {
      int j = -1;
      for (int q = 0; q < nb; q++)
        if (bd[q] == d) j = q;
      if (j >= 0) map[d] = j;
      else if (!ints_contain(cd, nc, d)) map[d] = k++;
    }
    return k <= rt->rank;
  }
  case OP_SLICE:
  case OP_DYNAMIC_SLICE:
    if (i > 0) return op->kind == OP_DYNAMIC_SLICE;
    for (int d = 0; d < ot->rank; d++)
      if (ot->dims[d] == rt->dims[d]) map[d] = d;
    return ot->rank == rt->rank;
  case OP_DYNAMIC_UPDATE_SLICE:
    /* the operand's dimensions one to one; the update's where it covers
       them whole; the start indices have none */
    if (i > 1) return true;
    if (ot->rank != rt->rank) return false;
    for (int d = 0; d < ot->rank; d++)
      if (ot->dims[d] == rt->dims[d]) map[d] = d;
    return true;
  case OP_CONVOLUTION: {
    ConvDims c;
    if (!conv_dims(op, &c)) return false;
    const Type *lt = op->opnds[0]->type, *kt = op->opnds[1]->type;
    if (i == 1) {
      if (c.fgc == 1 && c.bgc == 1) map[c.ko] = (int)c.of;
      return true;
    }
    if (c.bgc == 1) map[c.ib] = (int)c.ob;
    /* a spatial dimension whose pieces would run with halos */
    for (int s = 0; s < c.ns; s++) {
      Halo h;
      if (c.ldil[s] == 1 && halo_fits(lt->dims[c.is[s]], 1, kt->dims[c.ks[s]], c.rdil[s], c.stride[s], c.lo[s], c.hi[s],
                                      rt->dims[c.os[s]], &h))
        map[c.is[s]] = (int)c.os[s];
    }
    return true;
  }
  case OP_REDUCE_WINDOW:
  case OP_SELECT_AND_SCATTER: {
    Window w;
    int nin = op->kind == OP_REDUCE_WINDOW ? 1 : 2;
    if (i >= nin) return true;
    if (ot->rank != rt->rank || !window_of(op, ot->rank, &w)) return false;
    const Type *wt = op->kind == OP_REDUCE_WINDOW ? rt : op->opnds[1]->type;
    const Type *at = op->kind == OP_REDUCE_WINDOW ? ot : op->opnds[0]->type;
    for (int d = 0; d < ot->rank; d++)
      if (op->kind == OP_REDUCE_WINDOW ? window_dim(&w, d, at->dims[d], 1, wt->dims[d], NULL)
                                       : apart(&w, d, at->dims[d], 1, wt->dims[d]))
        map[d] = d;
    return true;
  }
  case OP_PAD: {
    if (i == 1) return true;
    int64_t *lo, *hi, *in;
    int n1 = op_attr_ints(op, "edge_padding_low", &lo), n2 = op_attr_ints(op, "edge_padding_high", &hi);
    int n3 = op_attr_ints(op, "interior_padding", &in);
    if (n1 != ot->rank || n2 != ot->rank || (n3 != ot->rank && n3 != 0) || ot->rank != rt->rank) return false;
    for (int d = 0; d < ot->rank; d++)
      if (!lo[d] && !hi[d] && !(n3 && in[d])) map[d] = d;
    return true;
  }
  case OP_GATHER: {
    if (i == 1) return true;
    int src[MAXR];
    bool whole[MAXR];
    if (!gather_dims(op, ot, rt, src, whole)) return false;
    for (int k = 0; k < rt->rank; k++)
      if (src[k] >= 0) map[src[k]] = k;
    return true;
  }
  case OP_SORT:
  case OP_REVERSE: {
    if (ot->rank != rt->rank) return false;
    int64_t sd = op_attr_int(op, "dimension", -1);
    int64_t *rd = NULL;
    int nrd = op->kind == OP_REVERSE ? op_attr_ints(op, "dimensions", &rd) : 0;
    if (nrd < 0) return false;
    for (int d = 0; d < ot->rank; d++)
      if (op->kind == OP_REVERSE ? !ints_contain(rd, nrd, d) : d != sd && d != sd + ot->rank) map[d] = d;
    return true;
  }
  case OP_CONCATENATE: {
    int64_t cd = op_attr_int(op, "dimension", -1);
    if (ot->rank != rt->rank) return false;
    for (int d = 0; d < ot->rank; d++)
      if (d != cd) map[d] = d;
    return true;
  }
  default:
    if (!is_constraint(op) && (!op_has_flag(op->kind, OPF_EW) || op->nregions)) return false;
    if (ot->rank == 0) return true;
    if (!same_dims(ot, rt)) return false;
    for (int d = 0; d < ot->rank; d++) map[d] = d;
    return true;
  }
}

static int64_t pieces(const SpmdTiling *t) {
  int64_t n = 1;
  for (int d = 0; t && d < t->rank; d++) n *= t->ways[d];
  return n;
}

/* t carried to a value of type `to` whose dimension k is t's dimension
   src[k] (-1: none); t's other split dimensions become copies.  NULL when
   nothing is split then, a dimension does not divide, or the pieces make
   no layout. */
static SpmdTiling *carry(Part *P, const SpmdTiling *t, const Type *to, const int *src) {
  int rank = to->rank;
  if (!t || rank > MAXR || t->ndev != P->npart) return NULL;
  int64_t ways[MAXR], *keys = xcalloc((size_t)P->npart * (size_t)(rank + 1), sizeof(int64_t));
  bool fits = true;
  for (int k = 0; k < rank && fits; k++) {
    ways[k] = src[k] >= 0 ? t->ways[src[k]] : 1;
    fits = to->dims[k] > 0 && to->dims[k] % ways[k] == 0;
    for (int p = 0; p < P->npart; p++) keys[p * rank + k] = src[k] >= 0 ? t->coord[p * (t->rank + 1) + src[k]] : 0;
  }
  bool ok = false;
  SpmdTiling *r = fits ? tiling_by_keys(P, rank, ways, keys, &ok) : NULL;
  xfree(keys);
  return ok ? r : NULL;
}

/* a's split dimensions, and b's where a splits nothing, when they make a
   layout together. */
static SpmdTiling *merge(Part *P, const SpmdTiling *a, const SpmdTiling *b) {
  int rank = a->rank;
  int64_t ways[MAXR], *keys = xcalloc((size_t)P->npart * (size_t)(rank + 1), sizeof(int64_t));
  for (int d = 0; d < rank; d++) {
    const SpmdTiling *s = a->ways[d] > 1 ? a : b;
    ways[d] = s->ways[d];
    for (int p = 0; p < P->npart; p++) keys[p * rank + d] = s->coord[p * (rank + 1) + d];
  }
  bool ok = false;
  SpmdTiling *r = tiling_by_keys(P, rank, ways, keys, &ok);
  xfree(keys);
  return ok ? r : NULL;
}

/* A sharding constraint with open dimensions (Shardy's `?`): the layout
   of the axes it names, which the value takes, and the dimensions
   propagation may still split (open and not split by those axes). */
typedef struct Loose {
  SpmdTiling *base;
  bool open[MAXR];
} Loose;

static bool open_value(Part *P, const Value *v) {
  return !ptrmap_get(&P->fixed, v) && !ptrmap_get(&P->want, v) && v->type->kind == TY_TENSOR && v->type->rank > 0;
}

/* A loose constraint's layout: its own axes, and the splits of its
   operand's layout along the open dimensions where they fit with them
   (the axes the constraint names are not taken twice: `[{?}, {"x"}]` on
   a value split by "x" along its first dimension leaves that dimension
   whole). */
static bool loose_refine(Part *P, Op *op) {
  Loose *l = ptrmap_get(&P->loose, &op->res[0]);
  const SpmdTiling *o = l ? ptrmap_get(&P->want, op->opnds[0]) : NULL;
  if (!o) return false;
  const Type *t = op->res[0].type;
  int src[MAXR];
  for (int d = 0; d < t->rank; d++) src[d] = l->open[d] ? d : -1;
  SpmdTiling *c = carry(P, o, t, src), *r = c && l->base ? merge(P, l->base, c) : c;
  const SpmdTiling *now = ptrmap_get(&P->want, &op->res[0]);
  if (!r || (now && same_data(r, now) && r->nrep == now->nrep)) return false;
  ptrmap_put(&P->want, &op->res[0], r);
  return true;
}

static bool forward(Part *P, Op *op) {
  if (op->nres == 1 && ptrmap_get(&P->loose, &op->res[0])) return loose_refine(P, op);
  if (op->nres != 1 || !open_value(P, &op->res[0])) return false;
  const Type *rt = op->res[0].type;
  int map[MAXR], src[MAXR];
  SpmdTiling *best = NULL;
  bool product = op->kind == OP_DOT_GENERAL || op->kind == OP_CONVOLUTION;
  for (int i = 0; i < op->nopnds; i++) {
    if (!dims_map(op, i, map)) return false;
    const SpmdTiling *u = ptrmap_get(&P->want, op->opnds[i]);
    if (!u) continue;
    for (int k = 0; k < rt->rank; k++) src[k] = -1;
    for (int d = 0; d < u->rank; d++)
      if (map[d] >= 0 && map[d] < rt->rank) src[map[d]] = d;
    SpmdTiling *c = carry(P, u, rt, src), *mg;
    if (!c) continue;
    if (!best) best = c;
    else if (product && (mg = merge(P, best, c))) best = mg;
    else if (!product && pieces(c) > pieces(best)) best = c;
  }
  if (!best) return false;
  ptrmap_put(&P->want, &op->res[0], best);
  return true;
}

static bool backward(Part *P, Op *op) {
  const SpmdTiling *r = op->nres == 1 ? ptrmap_get(&P->want, &op->res[0]) : NULL;
  if (!r) return false;
  bool changed = false;
  int map[MAXR];
  for (int i = 0; i < op->nopnds; i++) {
    Value *v = op->opnds[i];
    if (!open_value(P, v) || !dims_map(op, i, map)) continue;
    SpmdTiling *c = carry(P, r, v->type, map);
    if (c) {
      ptrmap_put(&P->want, v, c);
      changed = true;
    }
  }
  return changed;
}

/* The layout a sharding constraint fixes (NULL: whole); false when it
   leaves dimensions open (Shardy's `?`, GSPMD's unspecified_dims) or says
   nothing xlac can hold (the constraint is then only dropped, which
   changes no value). */
static char *unreduced_check(Part *P, const SdySharding *u);

static bool constraint_layout(Part *P, Op *op, SpmdTiling **t) {
  *t = NULL;
  if (!is_constraint(op)) return false;
  char *err = NULL;
  if (op->kind == OP_SDY_SHARDING_CONSTRAINT) {
    SdySharding sh;
    if (!op_result_sharding(P->m, op, 0, &sh)) return false;
    /* an open dimension (`?`) leaves the value free there: a loose
       constraint (below), or none */
    for (int d = 0; d < sh.ndims; d++)
      if (!sh.dims[d].closed) return false;
    /* unreduced over whole axes: the layout of its dimensions */
    if (sh.nunreduced) {
      if ((err = unreduced_check(P, &sh))) {
        xfree(err);
        return false;
      }
      sh.nunreduced = 0;
    }
    *t = from_sdy(P->m, &sh, op->res[0].type, P->npart, &err);
  } else {
    const char *bc = op_attr_str(op, "backend_config");
    if (bc && strstr(bc, "unspecified_dims")) return false;
    Attr *d = attr_dict(P->m, NULL, 1, (const char *[]){"mhlo.sharding"}, (Attr *[]){op_attr(op, "mhlo.sharding")});
    *t = value_tiling(P->m, d, op->res[0].type, P->npart, &err);
  }
  if (err) {
    xfree(err);
    *t = NULL;
    return false;
  }
  return true;
}

/* The sharding of a constraint that makes its value unreduced over whole
   axes (NULL: none). */
static SdySharding *constraint_unreduced(Part *P, Op *op) {
  SdySharding sh;
  if (op->kind != OP_SDY_SHARDING_CONSTRAINT || !op_result_sharding(P->m, op, 0, &sh) || !sh.nunreduced) return NULL;
  char *err = unreduced_check(P, &sh);
  if (err) {
    xfree(err);
    return NULL;
  }
  SdySharding *u = ARENA_NEW(&P->m->arena, SdySharding);
  *u = sh;
  return u;
}

static bool sweep_forward(Part *P, Block *b);
static bool sweep_backward(Part *P, Block *b);
static void fix_constraints(Part *P, Block *b);

static void propagate(Part *P, SpmdTiling **at, SpmdTiling **rt, const bool *given) {
  Func *f = P->f;
  Op *ret = block_terminator(f->body);
  for (int i = 0; i < f->body->nargs; i++) {
    ptrmap_put(&P->fixed, f->body->args[i], f->body->args[i]);
    if (at[i]) ptrmap_put(&P->want, f->body->args[i], at[i]);
  }
  fix_constraints(P, f->body);
  for (bool changed = true; changed;) {
    changed = sweep_forward(P, f->body);
    for (int i = 0; i < f->nresults; i++)
      if (given[i] && rt[i] && open_value(P, ret->opnds[i])) {
        ptrmap_put(&P->want, ret->opnds[i], rt[i]);
        changed = true;
      }
    changed |= sweep_backward(P, f->body);
  }
}

/* Before op is rewritten: its whole operands cut locally to the pieces
   its result's layout needs of them. */
static void prepare(Part *P, Op *op) {
  const SpmdTiling *r = op->nres == 1 ? ptrmap_get(&P->want, &op->res[0]) : NULL;
  int map[MAXR];
  for (int i = 0; r && i < op->nopnds; i++) {
    Value *v = op->opnds[i];
    if (tiling_of(P, v) || v->type->kind != TY_TENSOR || v->type->rank == 0 || !dims_map(op, i, map)) continue;
    SpmdTiling *need = carry(P, r, v->type, map);
    if (need) op->opnds[i] = shard_of(P, v, need, op);
  }
}

/* After op is rewritten: its result v, when computed whole but wanted
   split, is cut right where it is made (its uses take the shard; those
   that need it whole, v). */
static void settle(Part *P, Value *v, const SpmdTiling *w) {
  if (tiling_of(P, v) || psum_of(P, v) || !splits(w) || !v->def || !v->def->next) return;
  Value *s = shard_of(P, v, w, v->def->next);
  block_replace_uses(P->body, v, s);
  ptrmap_put(&P->whole, s, v);
  /* the cut itself reads v */
  for (Op *o = v->def->next; o && o != s->def->next; o = o->next)
    for (int i = 0; i < o->nopnds; i++)
      if (o->opnds[i] == s) o->opnds[i] = v;
}

static void drop_attr(Op *op, const char *name) {
  int n = 0;
  for (int i = 0; i < op->nattrs; i++)
    if (strcmp(op->attrs[i].name, name) != 0) op->attrs[n++] = op->attrs[i];
  op->nattrs = n;
}

/* op (in block blk, its operands whole) run on partition d alone, as
   described above.  False, with an error, when d is no partition. */
static bool run_on_one(Part *P, Op *op, int64_t d) {
  Module *m = P->m;
  if (d < 0 || d >= P->npart) {
    error_at(op->loc, "custom_call @%s is placed on device %lld, the program runs on %d partitions",
             op_attr_str(op, "call_target_name"), (long long)d, P->npart);
    return false;
  }
  for (int i = 0; i < op->nres; i++)
    if (op->res[i].type->kind != TY_TOKEN && (op->res[i].type->kind != TY_TENSOR || op->res[i].type->quant)) {
      error_at(op->loc, "custom_call @%s is placed on device %lld: result %d is not a tensor or a token (xlac "
               "broadcasts those)", op_attr_str(op, "call_target_name"), (long long)d, i);
      return false;
    }
  drop_attr(op, SDY_KEY);
  drop_attr(op, "mhlo.sharding");
  Block *blk = op->parent, *body = blk;
  while (body->parent_op && body->parent_op->parent) body = body->parent_op->parent;
  Builder b = {m, blk, op, op->loc};
  /* the branch: 0 on partition d, 1 elsewhere */
  Value *pid;
  if (blk == P->body) {
    pid = partition_index(P);
  } else {
    Value *id = bld_op(&b, OP_PARTITION_ID, 0, NULL, type_scalar(&m->arena, ET_U32));
    pid = bld_convert(&b, id, ET_S64);
  }
  Value *here = bld_compare(&b, pid, bld_const_i(&b, pid->type, d), "NE");
  Value *idx = bld_convert(&b, here, ET_S32);
  Type **types = ARENA_ARRAY(&m->arena, Type *, op->nres + 1);
  for (int i = 0; i < op->nres; i++) types[i] = op->res[i].type;
  Op *c = op_new(m, OP_CASE, 1, &idx, op->nres, types, op->loc);
  block_insert_before(blk, op, c);
  Block *on = block_new(m), *off = block_new(m);
  op_add_region(m, c, on);
  op_add_region(m, c, off);
  /* elsewhere: zeros, and the tokens the op was given */
  Value **tokens = ARENA_ARRAY(&m->arena, Value *, op->nopnds + 1);
  int ntok = 0;
  for (int i = 0; i < op->nopnds; i++)
    if (op->opnds[i]->type->kind == TY_TOKEN) tokens[ntok++] = op->opnds[i];
  Value **zero = ARENA_ARRAY(&m->arena, Value *, op->nres + 1);
  Builder z = {m, off, NULL, op->loc};
  for (int i = 0; i < op->nres; i++) {
    const Type *t = op->res[i].type;
    if (t->kind == TY_TOKEN) zero[i] = bld_op(&z, OP_AFTER_ALL, ntok, tokens, (Type *)t);
    else zero[i] = bld_const_bits(&z, t, t->elem, 0);
  }
  block_append(off, op_new(m, OP_RETURN, op->nres, zero, 0, NULL, op->loc));
  /* d's results to every partition */
  Builder after = {m, blk, c->next, op->loc};
  int64_t *members = ARENA_ARRAY(&m->arena, int64_t, P->npart);
  members[0] = d;
  for (int p = 0, k = 1; p < P->npart; p++)
    if (p != d) members[k++] = p;
  for (int i = 0; i < op->nres; i++) {
    Value *v = &c->res[i];
    if (v->type->kind == TY_TENSOR) {
      v = bld_op(&after, OP_COLLECTIVE_BROADCAST, 1, &v, v->type);
      set_collective(P, v->def, groups_of(P, 1, P->npart, members));
    }
    block_replace_uses(body, &op->res[i], v);
  }
  /* on d: the op itself */
  op_erase(op);
  block_append(on, op);
  Value **res = ARENA_ARRAY(&m->arena, Value *, op->nres + 1);
  for (int i = 0; i < op->nres; i++) res[i] = &op->res[i];
  block_append(on, op_new(m, OP_RETURN, op->nres, res, 0, NULL, op->loc));
  return true;
}

/* The placed ops inside the regions of blk's ops, and in the functions
   they call (whose values are whole there), placed; seen: the functions
   done. */
static bool place_nested(Part *P, Block *blk, bool top, PtrMap *seen) {
  for (Op *op = blk->first, *next; op; op = next) {
    next = op->next;
    if (!top && op->kind == OP_CUSTOM_CALL) {
      int64_t d = placed_on(P->m, op);
      if (d >= 0 && !run_on_one(P, op, d)) return false;
    }
    const char *callee = op->kind == OP_CALL ? op_attr_str(op, "callee") : NULL;
    Func *g = callee ? module_find_func(P->m, callee) : NULL;
    if (g && g->body && !ptrmap_get(seen, g)) {
      ptrmap_put(seen, g, g);
      if (!place_nested(P, g->body, false, seen)) return false;
    }
    for (int k = 0; k < op->nregions; k++)
      if (!place_nested(P, op->regions[k], false, seen)) return false;
  }
  return true;
}

/* A partitioned callback: it runs on every partition, on that partition's
   shards of its operands, as they are. */
static bool on_shards(Part *P, Op *op) {
  (void)P;
  const char *t = op->kind == OP_CUSTOM_CALL ? op_attr_str(op, "call_target_name") : NULL;
  if (!t || strcmp(t, PARTITIONED_CALLBACK) != 0) return false;
  for (int i = 0; i < op->nres; i++)
    if (op->res[i].type->kind != TY_TOKEN) return false;
  drop_attr(op, SDY_KEY);
  drop_attr(op, "mhlo.sharding");
  return true;
}

/* jax.debug.inspect_array_sharding in a program over several devices:
   custom_call @InspectSharding(v), which JAX's form makes return v.  The
   layout v has here is what is reported: it goes into the module's
   attribute INSPECTED under the op's backend_config (where the PJRT plugin
   finds it for the callback), and the op loses its result. */
#define INSPECTED "xlac.inspected_shardings"

static bool inspect(Part *P, Op *op) {
  const char *t = op->kind == OP_CUSTOM_CALL ? op_attr_str(op, "call_target_name") : NULL;
  if (!t || strcmp(t, "InspectSharding") != 0 || op->nopnds != 1 || op->nres > 1) return false;
  const char *key = op_attr_str(op, "backend_config");
  if (key && *key) {
    VEC_PUSH(P->inspected_keys, key);
    VEC_PUSH(P->inspected, layout_attr(P->m, tiling_of(P, op->opnds[0])));
  }
  if (op->nres == 1) {
    block_replace_uses(P->body, &op->res[0], op->opnds[0]);
    op->nres = 0;
  }
  return true;
}

/* ---- manual computations ----
 * `custom_call @xlac.manual_computation` (Shardy's sdy.manual_computation,
 * as the bytecode reader gives it: shard_map, pmap) calls a function of
 * per-device types.  Each operand is moved to the layout its in_sharding
 * names over the manual axes (the other axes, left to the compiler, hold
 * copies: every partition along them runs the body on the same data), the
 * function is called on this partition's shards, and its results are held
 * as the shards of the layouts the out_shardings name.  In a region or
 * another function, where values are whole, the operands are cut and the
 * results gathered right there. */

#define MANUAL_TARGET "xlac.manual_computation"

static bool is_manual(const Op *op) {
  const char *t = op->kind == OP_CUSTOM_CALL ? op_attr_str(op, "call_target_name") : NULL;
  return t && strcmp(t, MANUAL_TARGET) == 0;
}

/* The function op calls (func.call's callee, or a manual computation's). */
static Func *callee_of(const Module *m, const Op *op) {
  if (op->kind == OP_CALL) return module_find_func(m, op_attr_str(op, "callee"));
  const Attr *cc = is_manual(op) ? op_attr(op, "called_computations") : NULL;
  const Attr *c0 = cc && cc->kind == ATTR_ARRAY && cc->n == 1 ? cc->elems[0] : NULL;
  return c0 && (c0->kind == ATTR_SYMBOL || c0->kind == ATTR_STRING) && c0->s ? module_find_func(m, c0->s) : NULL;
}

static bool reaches_manual(const Module *m, const Block *b, int depth) {
  for (const Op *op = b ? b->first : NULL; op && depth < 64; op = op->next) {
    if (is_manual(op)) return true;
    const Func *g = op->kind == OP_CALL ? callee_of(m, op) : NULL;
    if (g && reaches_manual(m, g->body, depth + 1)) return true;
    for (int k = 0; k < op->nregions; k++)
      if (reaches_manual(m, op->regions[k], depth + 1)) return true;
  }
  return false;
}

bool spmd_has_manual(const Module *m, const Func *f) { return f && reaches_manual(m, f->body, 0); }

/* Whether `axes` (the text #sdy<manual_axes{"x", "y"}>) names axis `name`. */
static bool manual_axis(const Attr *axes, const char *name) {
  if (!axes || (axes->kind != ATTR_OPAQUE && axes->kind != ATTR_STRING) || !axes->s) return false;
  size_t n = strlen(name);
  for (const char *p = strchr(axes->s, '"'); p;) {
    const char *q = strchr(p + 1, '"');
    if (!q) break;
    if ((size_t)(q - p - 1) == n && memcmp(p + 1, name, n) == 0) return true;
    p = strchr(q + 1, '"');
  }
  return false;
}

/* The layout of value i of manual computation op (key: "in_shardings" or
   "out_shardings") over its manual axes, for global type g and per-device
   type l (NULL: whole), and in *unreduced the axes over which the value is
   a partial sum (NULL: none).  False with an error when it does not read,
   the types do not agree with it, or it is unreduced over axes that are
   not manual or by another reduction than a sum. */
static bool manual_layout(Part *P, Op *op, const char *key, int i, const Type *g, const Type *l, SpmdTiling **out,
                          SdySharding **unreduced) {
  *out = NULL;
  *unreduced = NULL;
  const Attr *a = op_attr(op, key), *axes = op_attr(op, "manual_axes");
  SdySharding *v = NULL;
  int n = a ? sdy_per_value_of(P->m, a, &v) : -1;
  if (n <= i) {
    error_at(op->loc, "manual computation: its %s do not give value %d a sharding", key, i);
    return false;
  }
  SdySharding s = v[i];
  s.dims = ARENA_ARRAY(&P->m->arena, SdyDim, s.ndims + 1);
  for (int d = 0; d < s.ndims; d++) {
    const SdyDim *o = &v[i].dims[d];
    s.dims[d] = *o;
    s.dims[d].axes = ARENA_ARRAY(&P->m->arena, SdyAxisRef, o->naxes + 1);
    s.dims[d].naxes = 0;
    for (int k = 0; k < o->naxes; k++)
      if (manual_axis(axes, o->axes[k].name)) s.dims[d].axes[s.dims[d].naxes++] = o->axes[k];
  }
  for (int k = 0; k < s.nunreduced; k++)
    if (!manual_axis(axes, s.unreduced[k].name) || s.unreduced[k].size || s.reduction != SDY_SUM) {
      error_at(op->loc, "manual computation: value %d of its %s is unreduced over \"%s\", %s", i, key,
               s.unreduced[k].name, s.reduction != SDY_SUM ? "not by a sum (not supported)"
               : s.unreduced[k].size ? "a sub-axis (not supported)" : "an axis it does not make manual");
      return false;
    }
  if (s.nunreduced) {
    SdySharding *u = ARENA_NEW(&P->m->arena, SdySharding);
    *u = s;
    *unreduced = u;
  }
  s.nreplicated = s.nunreduced = 0;
  char *err = NULL;
  SpmdTiling *t = from_sdy(P->m, &s, g, P->npart, &err);
  if (err) {
    error_at(op->loc, "manual computation: %s %d: %s", key, i, err);
    xfree(err);
    return false;
  }
  bool ok = g->kind == l->kind && (g->kind != TY_TENSOR || (g->rank == l->rank && g->elem == l->elem));
  for (int d = 0; ok && g->kind == TY_TENSOR && d < g->rank; d++)
    ok = l->dims[d] * (t ? t->ways[d] : 1) == g->dims[d];
  if (!ok) {
    error_at(op->loc, "manual computation: value %d of its %s: the per-device type is not the shard its sharding "
             "over the manual axes gives", i, key);
    return false;
  }
  if (*unreduced && g->kind != TY_TENSOR) {
    error_at(op->loc, "manual computation: value %d of its %s is unreduced and not a tensor", i, key);
    return false;
  }
  *out = splits(t) ? t : NULL;
  return true;
}

/* Per partition, the index of its place along the unreduced axes of s
   (key, mesh order) and along the other axes (rest); the number of
   places along the unreduced axes.  0 when the mesh is not the
   partitions'. */
static int64_t unreduced_keys(Part *P, const SdySharding *s, int64_t *key, int64_t *rest) {
  const SdyMesh *mesh = sdy_sharding_mesh(P->m, s);
  int64_t n = mesh ? sdy_mesh_size(mesh) : 0, size = 1;
  if (n != P->npart) return 0;
  for (int a = 0; a < mesh->naxes; a++)
    for (int k = 0; k < s->nunreduced; k++)
      if (!strcmp(s->unreduced[k].name, mesh->axes[a].name)) size *= mesh->axes[a].size;
  for (int64_t k = 0; k < n; k++) {
    int64_t p = mesh->device_ids && mesh->ndevices == n ? mesh->device_ids[k] : k, rem = k;
    int64_t kk = 0, rr = 0, ks = 1, rs = 1;
    for (int a = mesh->naxes - 1; a >= 0; a--) {
      int64_t c = rem % mesh->axes[a].size;
      rem /= mesh->axes[a].size;
      bool u = false;
      for (int j = 0; j < s->nunreduced; j++) u |= !strcmp(s->unreduced[j].name, mesh->axes[a].name);
      if (u) {
        kk += c * ks;
        ks *= mesh->axes[a].size;
      } else {
        rr += c * rs;
        rs *= mesh->axes[a].size;
      }
    }
    key[p] = kk;
    rest[p] = rr;
  }
  return size;
}

/* v (whole along the unreduced axes of s) as a partial sum over them: the
   partition first along them keeps it, the others hold zeros. */
static Value *make_partial(Part *P, Value *v, const SdySharding *s, Op *at) {
  int64_t *key = xcalloc((size_t)P->npart + 1, sizeof(int64_t)), *rest = xcalloc((size_t)P->npart + 1, sizeof(int64_t));
  int64_t size = unreduced_keys(P, s, key, rest);
  Value *r = NULL;
  if (size) {
    Builder b = {P->m, P->body, at, at->loc};
    int64_t n = P->npart, one = 1, none = 0;
    Literal *tab = lit_new_in(&P->m->arena, type_tensor(&P->m->arena, ET_S64, 1, &n));
    for (int64_t p = 0; p < n; p++) lit_set_i(tab, p, key[p]);
    Value *in[2] = {bld_constant(&b, tab), partition_index(P)};
    Value *k = bld_op(&b, OP_DYNAMIC_SLICE, 2, in, bld_tensor(&b, ET_S64, 1, &one));
    op_set_attr(P->m, k->def, "slice_sizes", attr_ints(P->m, 1, &one));
    k = bld_reshape(&b, k, 0, &none);
    Value *first = bld_compare(&b, k, bld_const_i(&b, k->type, 0), "EQ");
    Value *mask = bld_broadcast(&b, first, bld_tensor(&b, ET_PRED, v->type->rank, v->type->dims), 0, NULL);
    r = bld_select(&b, mask, v, bld_const_bits(&b, v->type, v->type->elem, 0));
  }
  xfree(key);
  xfree(rest);
  return r;
}

/* v, a partial sum over the unreduced axes of s, summed (one all_reduce
   over the partitions that differ only along them). */
static Value *sum_partial(Part *P, Value *v, const SdySharding *s) {
  int64_t *key = xcalloc((size_t)P->npart + 1, sizeof(int64_t)), *rest = xcalloc((size_t)P->npart + 1, sizeof(int64_t));
  int64_t size = unreduced_keys(P, s, key, rest);
  Value *r = NULL;
  if (size) {
    int64_t ngroups = P->npart / size;
    int64_t *members = xcalloc((size_t)P->npart + 1, sizeof(int64_t));
    for (int64_t p = 0; p < P->npart; p++) members[rest[p] * size + key[p]] = p;
    r = sum_over(P, v, groups_of(P, ngroups, size, members), -1, 0);
    xfree(members);
  }
  xfree(key);
  xfree(rest);
  return r;
}

/* The groups of partial sums of an unreduced sharding s: the partitions
   that differ only along its unreduced axes; NULL when the mesh is not
   the partitions'. */
static Psum *psum_unreduced(Part *P, const SdySharding *s) {
  int64_t *key = xcalloc((size_t)P->npart + 1, sizeof(int64_t)), *rest = xcalloc((size_t)P->npart + 1, sizeof(int64_t));
  int64_t size = unreduced_keys(P, s, key, rest);
  Psum *r = NULL;
  if (size) {
    int64_t *members = xcalloc((size_t)P->npart + 1, sizeof(int64_t));
    for (int64_t p = 0; p < P->npart; p++) members[rest[p] * size + key[p]] = p;
    r = psum_new(P, size, members);
    xfree(members);
  }
  xfree(key);
  xfree(rest);
  return r;
}

/* A scalar that is table[partition_id]. */
static Value *by_partition(Part *P, Builder *b, const int64_t *table) {
  int64_t n = P->npart, one = 1, none = 0;
  Literal *tab = lit_new_in(&P->m->arena, type_tensor(&P->m->arena, ET_S64, 1, &n));
  for (int64_t p = 0; p < n; p++) lit_set_i(tab, p, table[p]);
  Value *in[2] = {bld_constant(b, tab), partition_index(P)};
  Value *k = bld_op(b, OP_DYNAMIC_SLICE, 2, in, bld_tensor(b, ET_S64, 1, &one));
  op_set_attr(P->m, k->def, "slice_sizes", attr_ints(P->m, 1, &one));
  return bld_reshape(b, k, 0, &none);
}

/* v (a shard in layout u) as a partial sum over the groups of s in layout
   t, where each group's members hold the pieces of one shard of t, each a
   different one: every partition puts its piece in place in zeros (what
   XLA makes of a split value made unreduced along the split).  NULL when
   the layouts are not so. */
static Value *spread(Part *P, Value *v, const SpmdTiling *t, const Psum *s, Op *at) {
  const SpmdTiling *u = tiling_of(P, v);
  int np = P->npart, rank = v->type->rank;
  if (!u || u->ndev != np || (t && t->rank != rank) || rank > MAXR || !psum_fits(P, s, t)) return NULL;
  int64_t div[MAXR], prod = 1;
  for (int d = 0; d < rank; d++) {
    if (u->ways[d] % ways_or1(t, d)) return NULL;
    div[d] = u->ways[d] / ways_or1(t, d);
    prod *= div[d];
  }
  if (prod != s->size) return NULL;
  int64_t *sub = xcalloc((size_t)np + 1, sizeof(int64_t));
  bool ok = true;
  for (int p = 0; p < np && ok; p++) {
    int64_t k = 0;
    for (int d = 0; d < rank && ok; d++) {
      int64_t c = u->coord[p * (rank + 1) + d];
      ok = c / div[d] == coord_or0(t, p, d);
      k = k * div[d] + c % div[d];
    }
    sub[p] = k;
  }
  /* within a group, each piece once */
  for (int p = 0; p < np && ok; p++)
    for (int q = 0; q < p && ok; q++) ok = !(s->gid[p] == s->gid[q] && sub[p] == sub[q]);
  xfree(sub);
  if (!ok) return NULL;
  Builder b = {P->m, P->body, at, at->loc};
  Type *lt = t ? local_type(P, global_type(P, v), t) : global_type(P, v);
  Value *in[MAXR + 2], *zero = NULL;
  in[0] = bld_const_bits(&b, lt, lt->elem, 0);
  in[1] = v;
  int64_t *tab = xcalloc((size_t)np + 1, sizeof(int64_t));
  for (int d = 0; d < rank; d++) {
    if (div[d] == 1) {
      if (!zero) zero = bld_constant(&b, lit_new_in(&P->m->arena, type_scalar(&P->m->arena, ET_S64)));
      in[2 + d] = zero;
      continue;
    }
    for (int p = 0; p < np; p++) tab[p] = (u->coord[p * (rank + 1) + d] % div[d]) * v->type->dims[d];
    in[2 + d] = by_partition(P, &b, tab);
  }
  xfree(tab);
  Value *r = bld_op(&b, OP_DYNAMIC_UPDATE_SLICE, 2 + rank, in, lt);
  if (t) ptrmap_put(&P->tiling, r, (void *)t);
  return r;
}

/* v in layout t as a partial sum over the unreduced axes of s, before at:
   a partial sum over them as it is (cut locally where its layout is
   coarser), else its pieces spread in zeros where they make the shards of
   t, else the value moved to t, which the first partition along the axes
   keeps (the others hold zeros).  NULL when the mesh is not the
   partitions'. */
static bool is_zeros(const Value *v);

static Value *to_partial(Part *P, Value *v, const SpmdTiling *t, const SdySharding *s, Op *at) {
  Psum *q = psum_unreduced(P, s), *ps = psum_of(P, v);
  if (!q) return NULL;
  const SpmdTiling *u = tiling_of(P, v);
  Value *r = NULL;
  if (ps && psum_same(P, ps, q) && psum_fits(P, q, t)) {
    if (same_data(u, t)) r = v;
    else if (!u) r = shard_of(P, v, t, at);
    else if (refines(u, t) && (r = refine(P, v, u, t, at))) ptrmap_put(&P->tiling, r, (void *)t);
  }
  if (!r && !ps && !u && is_zeros(v) && psum_fits(P, q, t)) {
    /* zeros: every partition's addend is zero (JAX's accumulators start
       so) */
    Builder b = {P->m, P->body, at, at->loc};
    r = bld_const_bits(&b, splits(t) ? local_type(P, v->type, t) : v->type, v->type->elem, 0);
    if (splits(t)) ptrmap_put(&P->tiling, r, (void *)t);
  }
  if (!r) {
    v = summed(P, v, false);
    if (!(r = spread(P, v, t, q, at))) {
      r = make_partial(P, reshard(P, v, t, at), s, at);
      if (r && t) ptrmap_put(&P->tiling, r, (void *)t);
    }
  }
  if (r) ptrmap_put(&P->psum, r, q);
  return r;
}

/* Whether v is zeros (a zero constant, or a broadcast of one). */
static bool is_zeros(const Value *v) {
  const Op *d = v->def;
  if (d && d->kind == OP_BROADCAST_IN_DIM && d->nopnds == 1) d = d->opnds[0]->def;
  const Attr *a = d && d->kind == OP_CONSTANT ? op_attr(d, "value") : NULL;
  if (!a || a->kind != ATTR_DENSE || !a->lit || a->lit->n < 1) return false;
  for (int64_t i = 0; i < a->lit->n; i++)
    if (lit_get_bits(a->lit, i) != 0) return false;
  return true;
}

/* Whether v is made unreduced by a constraint or returned unreduced. */
static bool wanted_unreduced(Part *P, const Value *v) {
  for (const Op *o = P->body->first; o; o = o->next)
    for (int i = 0; i < o->nopnds; i++)
      if (o->opnds[i] == v && ((o->kind == OP_FUNC_RETURN && P->run && P->run[i]) ||
                               (is_constraint(o) && constraint_unreduced(P, (Op *)o))))
        return true;
  return false;
}

/* scatter by add of updates split along their scatter dimensions, with
   indices split alike along their batch dimensions, into a whole operand:
   each partition scatters its own updates, into the operand on the least
   partition of each group and into zeros on the others, and the result is
   a partial sum over the partitions that hold the other updates. */
static bool scatter(Part *P, Op *op) {
  if (op->kind != OP_SCATTER || op->nopnds != 3 || op->nres != 1 || op->nregions != 1) return false;
  Value *in = op->opnds[0], *ix = op->opnds[1], *up = op->opnds[2];
  const SpmdTiling *ti = tiling_of(P, ix), *tu = tiling_of(P, up);
  const Type *rt = op->res[0].type;
  if ((!tu && !ti) || tiling_of(P, in) || psum_of(P, in) || rt->kind != TY_TENSOR || rt->quant ||
      et_is_pred(rt->elem))
    return false;
  const Block *r = op->regions[0];
  const Op *o = r->first;
  if (r->nargs != 2 || !o || o->kind != OP_ADD || o->nopnds != 2 || !o->next || o->next->kind != OP_RETURN ||
      o->next->opnds[0] != &o->res[0] ||
      !((o->opnds[0] == r->args[0] && o->opnds[1] == r->args[1]) ||
        (o->opnds[0] == r->args[1] && o->opnds[1] == r->args[0])))
    return false;
  Attr *dn = op_attr(op, "scatter_dimension_numbers");
  int64_t *uwd, *ib;
  int nuwd = dict_ints(dn, "update_window_dims", &uwd), nib = dict_ints(dn, "input_batching_dims", &ib);
  int64_t ivd = dict_int(dn, "index_vector_dim", 0);
  const Type *gi = global_type(P, ix), *gu = global_type(P, up);
  if (nuwd < 0 || nib > 0 || gu->rank > MAXR || gi->rank > MAXR) return false;
  /* the j-th batch dimension of the indices goes with the j-th scatter
     dimension of the updates: the same pieces on every partition */
  int bd[MAXR], sd[MAXR], nb = 0, ns = 0;
  for (int d = 0; d < gi->rank; d++)
    if (d != ivd) bd[nb++] = d;
    else if (ways_or1(ti, d) > 1) return false;
  for (int d = 0; d < gu->rank; d++)
    if (!ints_contain(uwd, nuwd, d)) sd[ns++] = d;
    else if (ways_or1(tu, d) > 1) return false;
  if (nb != ns) return false;
  for (int j = 0; j < ns && ti && tu; j++) {
    if (tu->ways[sd[j]] != ti->ways[bd[j]]) return false;
    for (int p = 0; p < P->npart; p++)
      if (coord_or0(ti, p, bd[j]) != coord_or0(tu, p, sd[j])) return false;
  }
  /* a whole side cut locally to the other's pieces */
  for (int side = 0; side < 2; side++) {
    const SpmdTiling *from = side ? tu : ti;
    if ((side ? ti : tu) || !from) continue;
    const Type *g = side ? gi : gu;
    const int *to = side ? bd : sd, *fr = side ? sd : bd;
    int64_t ways[MAXR], *keys = xcalloc((size_t)P->npart * (size_t)(g->rank + 1), sizeof(int64_t));
    for (int d = 0; d < g->rank; d++) ways[d] = 1;
    for (int j = 0; j < ns; j++) {
      ways[to[j]] = from->ways[fr[j]];
      for (int p = 0; p < P->npart; p++) keys[p * g->rank + to[j]] = from->coord[p * (from->rank + 1) + fr[j]];
    }
    bool ok = true;
    for (int d = 0; d < g->rank; d++) ok &= g->dims[d] % ways[d] == 0;
    SpmdTiling *nt = ok ? tiling_by_keys(P, g->rank, ways, keys, &ok) : NULL;
    xfree(keys);
    if (!ok || !nt) return false;
    if (side) ti = nt;
    else tu = nt;
  }
  int split[MAXR], nsplit = 0;
  for (int j = 0; j < ns; j++)
    if (tu->ways[sd[j]] > 1) split[nsplit++] = sd[j];
  if (!nsplit) return false;
  /* summing the result must not move more than gathering the updates,
     unless it is wanted unreduced */
  if (type_bits(rt) > type_bits(gu) && !wanted_unreduced(P, &op->res[0])) return false;
  if (!tiling_of(P, ix)) op->opnds[1] = shard_of(P, ix, ti, op);
  if (!tiling_of(P, up)) op->opnds[2] = shard_of(P, up, tu, op);
  int64_t size, *mem = group_members(P, tu, nsplit, split, &size);
  Psum *q = psum_new(P, size, mem);
  if (!is_zeros(in)) {
    int64_t *tab = xcalloc((size_t)P->npart + 1, sizeof(int64_t));
    for (int p = 0; p < P->npart; p++) tab[p] = q->gid[p] == p;
    Builder b = {P->m, P->body, op, op->loc};
    Value *k = by_partition(P, &b, tab);
    xfree(tab);
    Value *first = bld_compare(&b, k, bld_const_i(&b, k->type, 1), "EQ");
    Value *mask = bld_broadcast(&b, first, bld_tensor(&b, ET_PRED, in->type->rank, in->type->dims), 0, NULL);
    op->opnds[0] = bld_select(&b, mask, in, bld_const_bits(&b, in->type, in->type->elem, 0));
  }
  ptrmap_put(&P->psum, &op->res[0], q);
  return true;
}

/* ---- windows: the rules (the shapes above) ---- */

/* v's rows [from, to) along dimension d. */
static Value *rows_of(Part *P, Builder *b, Value *v, int d, int64_t from, int64_t to) {
  if (from == 0 && to == v->type->dims[d]) return v;
  int r = v->type->rank;
  int64_t lo[MAXR], hi[MAXR], st[MAXR];
  for (int k = 0; k < r; k++) lo[k] = 0, hi[k] = v->type->dims[k], st[k] = 1;
  lo[d] = from;
  hi[d] = to;
  Type *t = type_clone(&P->m->arena, v->type);
  t->dims[d] = to - from;
  t->layout = NULL;
  Value *s = bld_op(b, OP_SLICE, 1, &v, t);
  op_set_attr(P->m, s->def, "start_indices", attr_ints(P->m, r, lo));
  op_set_attr(P->m, s->def, "limit_indices", attr_ints(P->m, r, hi));
  op_set_attr(P->m, s->def, "strides", attr_ints(P->m, r, st));
  return s;
}

/* Rows [from, to) of each partition's piece v (layout t) along d, sent to
   the partition holding the piece `step` (+1: next, -1: previous) along
   d and the same pieces elsewhere (the same copy): what each receives
   from its neighbour (one collective_permute).  The partition at the end
   that has no such neighbour gets `edge` (a scalar; NULL or zeros:
   zeros). */
static Value *from_neighbour(Part *P, Builder *b, Value *v, const SpmdTiling *t, int d, int64_t from, int64_t to,
                             int step, Value *edge) {
  Value *x = rows_of(P, b, v, d, from, to);
  int rank = t->rank;
  int64_t n = 0, *pairs = ARENA_ARRAY(&P->m->arena, int64_t, 2 * (size_t)t->ndev + 2), cc[MAXR + 1];
  for (int p = 0; p < t->ndev; p++) {
    memcpy(cc, &t->coord[p * (rank + 1)], sizeof(int64_t) * (size_t)(rank + 1));
    cc[d] += step;
    if (cc[d] < 0 || cc[d] >= t->ways[d]) continue;
    pairs[2 * n] = p;
    pairs[2 * n + 1] = t->devices[tile_pos(t, cc)];
    n++;
  }
  int64_t shape[2] = {n, 2};
  Literal *l = lit_new_in(&P->m->arena, type_tensor(&P->m->arena, ET_S64, 2, shape));
  for (int64_t k = 0; k < 2 * n; k++) lit_set_i(l, k, pairs[k]);
  Value *r = bld_op(b, OP_COLLECTIVE_PERMUTE, 1, &x, x->type);
  op_set_attr(P->m, r->def, "source_target_pairs", attr_dense(P->m, l));
  set_channel(P, r->def);
  P->n_permute++;
  if (!edge || is_zeros(edge)) return r;
  Value *c = shard_offset(P, b, t, d, 1);
  Value *end = bld_compare(b, c, bld_const_i(b, c->type, step > 0 ? 0 : t->ways[d] - 1), "EQ");
  return bld_select(b, bld_splat(b, end, bld_shape_of(b, r->type, ET_PRED)), bld_splat(b, edge, r->type), r);
}

/* v, this partition's piece along dimension d of layout t, with its halo
   h: the rows its neighbours hold before and after it, `edge` (a scalar;
   NULL: zeros) beyond the ends of the dimension. */
static Value *with_halo(Part *P, Value *v, const SpmdTiling *t, int d, const Halo *h, Value *edge, Op *at) {
  Builder b = {P->m, P->body, at, at ? at->loc : P->f->loc};
  int64_t m = v->type->dims[d];
  Value *parts[3];
  int n = 0;
  if (h->lo > 0) parts[n++] = from_neighbour(P, &b, v, t, d, m - h->lo, m, 1, edge);
  parts[n++] = h->hi < 0 ? rows_of(P, &b, v, d, 0, m + h->hi) : v;
  if (h->hi > 0) parts[n++] = from_neighbour(P, &b, v, t, d, 0, h->hi, -1, edge);
  if (n == 1) return parts[0];
  Type *ct = type_clone(&P->m->arena, v->type);
  ct->dims[d] = m + h->lo + h->hi;
  ct->layout = NULL;
  Value *c = bld_op(&b, OP_CONCATENATE, n, parts, ct);
  op_set_attr(P->m, c->def, "dimension", attr_int(P->m, d, type_scalar(&P->m->arena, ET_S64)));
  return c;
}

/* How a convolution runs on shards: the cuts of each side along the
   feature pair, the halo of each spatial dimension the lhs splits, the
   result's layout, and the groups summing partial products (the input
   features split). */
typedef struct ConvPlan {
  int64_t ldiv[MAXR], rdiv[MAXR], *lidx, *ridx;
  int64_t ways[MAXR + 1];
  Halo halo[MAXR];
  SpmdTiling *res;
  int64_t nchunks, *members;
} ConvPlan;

static bool conv_plan(Part *P, const ConvDims *c, const Type *gl, const Type *gr, const Type *go, const SpmdTiling *l,
                      const SpmdTiling *r, ConvPlan *pl) {
  int np = P->npart, rank = go->rank;
  if (!l && !r) return false;
  /* the kernel's spatial dimensions whole; grouped convolutions split
     only along the batch (not by batch groups) and spatially */
  for (int s = 0; s < c->ns; s++)
    if (ways_or1(r, (int)c->ks[s]) > 1) return false;
  bool grouped = c->fgc != 1 || c->bgc != 1;
  if ((c->bgc != 1 && ways_or1(l, (int)c->ib) > 1) ||
      (grouped && (ways_or1(l, (int)c->ifeat) > 1 || ways_or1(r, (int)c->ki) > 1 || ways_or1(r, (int)c->ko) > 1)))
    return false;
  for (int d = 0; d < rank; d++) pl->ldiv[d] = pl->rdiv[d] = 1;
  pl->lidx = ARENA_ARRAY(&P->m->arena, int64_t, (size_t)np * (size_t)rank + 1);
  pl->ridx = ARENA_ARRAY(&P->m->arena, int64_t, (size_t)np * (size_t)rank + 1);
  int64_t *keys = xcalloc((size_t)np * (size_t)(rank + 1), sizeof(int64_t)), kways[MAXR + 1];
  bool ok = true;
  /* batch from the lhs, output features from the kernel, spatial pieces
     (with their halos) from the lhs */
  int src[MAXR], side[MAXR];
  for (int d = 0; d < rank; d++) src[d] = -1;
  src[c->ob] = (int)c->ib, side[c->ob] = 0;
  src[c->of] = (int)c->ko, side[c->of] = 1;
  for (int s = 0; s < c->ns; s++) {
    src[c->os[s]] = (int)c->is[s], side[c->os[s]] = 0;
    int64_t w = ways_or1(l, (int)c->is[s]);
    pl->halo[s] = (Halo){0, 0};
    if (w > 1)
      ok &= c->ldil[s] == 1 && halo_fits(gl->dims[c->is[s]], w, gr->dims[c->ks[s]], c->rdil[s], c->stride[s], c->lo[s],
                                         c->hi[s], go->dims[c->os[s]], &pl->halo[s]);
  }
  for (int d = 0; d < rank && ok; d++) {
    ok = src[d] >= 0;
    const SpmdTiling *t = ok && side[d] ? r : l;
    kways[d] = ok ? ways_or1(t, src[d]) : 1;
    for (int p = 0; p < np && ok; p++) keys[p * (rank + 1) + d] = coord_or0(t, p, src[d]);
  }
  /* the input features: split alike, or on one side and cut locally from
     the other */
  int ld = (int)c->ifeat, rd = (int)c->ki;
  int64_t wl = ways_or1(l, ld), wr = ways_or1(r, rd), w = wl > wr ? wl : wr;
  if (ok && wl > 1 && wr > 1) {
    ok = wl == wr;
    for (int p = 0; p < np && ok; p++) ok = coord_or0(l, p, ld) == coord_or0(r, p, rd);
  }
  if (ok) {
    if (wl == 1 && w > 1) pl->ldiv[ld] = w;
    if (wr == 1 && w > 1) pl->rdiv[rd] = w;
    for (int p = 0; p < np; p++) {
      int64_t k = wl > 1 ? coord_or0(l, p, ld) : coord_or0(r, p, rd);
      pl->lidx[p * rank + ld] = k;
      pl->ridx[p * rank + rd] = k;
      keys[p * (rank + 1) + rank] = k;
    }
    pl->nchunks = w;
    ok = plan_layout(P, rank, kways, keys, w, &pl->res, &pl->members);
  }
  if (ok) memcpy(pl->ways, kways, sizeof(int64_t) * (size_t)rank);
  xfree(keys);
  return ok;
}

/* convolution on shards, as dot_general: as the operands are; else with
   the smaller one gathered whole, then the other (the one that gives the
   result the layout propagation chose first); computed whole when
   nothing works. */
/* conv_plan as plan_product calls it. */
typedef struct ConvArgs {
  const ConvDims *c;
  const Type *gl, *gr, *go;
} ConvArgs;

static bool conv_try(Part *P, const void *dims, const SpmdTiling *l, const SpmdTiling *r, void *out,
                     const SpmdTiling **res) {
  const ConvArgs *a = dims;
  ConvPlan *pl = out;
  if (!conv_plan(P, a->c, a->gl, a->gr, a->go, l, r, pl)) return false;
  *res = pl->res;
  return true;
}

static bool conv(Part *P, Op *op) {
  ConvDims c;
  if (op->kind != OP_CONVOLUTION || !conv_dims(op, &c)) return false;
  const SpmdTiling *lt = tiling_of(P, op->opnds[0]), *rt = tiling_of(P, op->opnds[1]);
  if (!lt && !rt) return false;
  const Type *gl = global_type(P, op->opnds[0]), *gr = global_type(P, op->opnds[1]), *go = op->res[0].type;
  ConvArgs ca = {&c, gl, gr, go};
  ConvPlan pl, spare;
  int whole = plan_product(P, op, type_elems(gl) < type_elems(gr), conv_try, &ca, &pl, &spare, sizeof pl);
  if (whole == -2) return false;
  if (whole >= 0) op->opnds[whole] = gather(P, op->opnds[whole], op);
  /* the halos first, while every copy of an lhs piece holds all of it */
  const SpmdTiling *l = tiling_of(P, op->opnds[0]);
  bool halos = false;
  for (int s = 0; s < c.ns; s++)
    if (ways_or1(l, (int)c.is[s]) > 1) {
      op->opnds[0] = with_halo(P, op->opnds[0], l, (int)c.is[s], &pl.halo[s], NULL, op);
      c.lo[s] = c.hi[s] = 0;
      halos = true;
    }
  op->opnds[0] = cut_local(P, op->opnds[0], pl.ldiv, pl.lidx, op);
  op->opnds[1] = cut_local(P, op->opnds[1], pl.rdiv, pl.ridx, op);
  if (halos) {
    int64_t shape[2] = {c.ns, 2};
    Literal *lit = lit_new_in(&P->m->arena, type_tensor(&P->m->arena, ET_S64, 2, shape));
    for (int s = 0; s < c.ns; s++) lit_set_i(lit, 2 * s, c.lo[s]), lit_set_i(lit, 2 * s + 1, c.hi[s]);
    op_set_attr(P->m, op, "padding", attr_dense(P->m, lit));
  }
  op->res[0].type = shard_type(P, go, pl.ways);
  if (pl.nchunks > 1) ptrmap_put(&P->psum, &op->res[0], psum_new(P, pl.nchunks, pl.members));
  if (pl.res) ptrmap_put(&P->tiling, &op->res[0], pl.res);
  return true;
}

/* Whether a region of op reads a split value from outside it (the rules
   below run the regions as they are). */
static bool reads_split(Part *P, const Block *b) {
  for (const Op *o = b->first; o; o = o->next) {
    for (int i = 0; i < o->nopnds; i++)
      if (tiling_of(P, o->opnds[i]) || psum_of(P, o->opnds[i])) return true;
    for (int k = 0; k < o->nregions; k++)
      if (reads_split(P, o->regions[k])) return true;
  }
  return false;
}

static bool regions_plain(Part *P, const Op *op) {
  for (int k = 0; k < op->nregions; k++)
    if (reads_split(P, op->regions[k])) return false;
  return true;
}

/* reduce_window (any reducer, any number of operands) on shards: the
   operands in the layout of the first split one, each split dimension
   untouched by the window or extended by its halo (the initial value
   beyond the ends); the results in that layout. */
static bool reduce_window(Part *P, Op *op) {
  int n = op->nres;
  if (op->kind != OP_REDUCE_WINDOW || n < 1 || op->nopnds != 2 * n || op->nregions != 1) return false;
  const SpmdTiling *t = NULL;
  for (int i = 0; i < n && !t; i++) t = tiling_of(P, op->opnds[i]);
  if (!t) return false;
  const Type *g = global_type(P, op->opnds[0]);
  Window w;
  if (g->kind != TY_TENSOR || g->rank != t->rank || !window_of(op, g->rank, &w)) return false;
  for (int i = 0; i < n; i++) {
    const Type *gi = global_type(P, op->opnds[i]), *ri = op->res[i].type;
    if (!same_dims(gi, g) || ri->kind != TY_TENSOR || ri->quant || gi->quant || ri->rank != g->rank ||
        tiling_of(P, op->opnds[n + i]) || psum_of(P, op->opnds[n + i]))
      return false;
  }
  Halo h[MAXR];
  bool halos = false;
  for (int d = 0; d < g->rank; d++) {
    if (t->ways[d] > 1 && !window_dim(&w, d, g->dims[d], t->ways[d], op->res[0].type->dims[d], &h[d])) return false;
    if (t->ways[d] > 1) halos |= h[d].lo || h[d].hi;
  }
  for (int i = 0; i < n; i++) {
    Value *v = op->opnds[i];
    v = tiling_of(P, v) ? reshard(P, v, t, op) : shard_of(P, v, t, op);
    for (int d = 0; d < g->rank; d++)
      if (t->ways[d] > 1 && (h[d].lo || h[d].hi)) v = with_halo(P, v, t, d, &h[d], op->opnds[n + i], op);
    op->opnds[i] = v;
  }
  if (halos) {
    int64_t shape[2] = {g->rank, 2};
    Literal *lit = lit_new_in(&P->m->arena, type_tensor(&P->m->arena, ET_S64, 2, shape));
    for (int d = 0; d < g->rank; d++) {
      bool cut = t->ways[d] > 1;
      lit_set_i(lit, 2 * d, cut ? 0 : w.lo[d]);
      lit_set_i(lit, 2 * d + 1, cut ? 0 : w.hi[d]);
    }
    op_set_attr(P->m, op, "padding", attr_dense(P->m, lit));
  }
  for (int i = 0; i < n; i++) {
    op->res[i].type = local_type(P, op->res[i].type, t);
    ptrmap_put(&P->tiling, &op->res[i], (void *)t);
  }
  return true;
}

/* select_and_scatter on shards when each window lies within one piece of
   the split dimensions (apart): operand and source in one layout, each
   partition selects and scatters within its own piece. */
static bool select_scatter(Part *P, Op *op) {
  if (op->kind != OP_SELECT_AND_SCATTER || op->nopnds != 3 || op->nres != 1) return false;
  const SpmdTiling *t = tiling_of(P, op->opnds[0]);
  if (!t) t = tiling_of(P, op->opnds[1]);
  if (!t || tiling_of(P, op->opnds[2]) || psum_of(P, op->opnds[2])) return false;
  const Type *g = global_type(P, op->opnds[0]), *gs = global_type(P, op->opnds[1]);
  Window w;
  if (g->kind != TY_TENSOR || g->quant || gs->kind != TY_TENSOR || gs->rank != g->rank || g->rank != t->rank ||
      !window_of(op, g->rank, &w))
    return false;
  for (int d = 0; d < g->rank; d++)
    if (t->ways[d] > 1 && !apart(&w, d, g->dims[d], t->ways[d], gs->dims[d])) return false;
  for (int i = 0; i < 2; i++) {
    Value *v = op->opnds[i];
    op->opnds[i] = tiling_of(P, v) ? reshard(P, v, t, op) : shard_of(P, v, t, op);
  }
  set_result(P, op, t);
  return true;
}

/* pad of a piece along the dimensions it does not pad (a split dimension
   with no padding stays split as it is). */
static bool pad_op(Part *P, Op *op) {
  if (op->kind != OP_PAD || op->nopnds != 2 || op->nres != 1) return false;
  const SpmdTiling *t = tiling_of(P, op->opnds[0]);
  const Type *g = global_type(P, op->opnds[0]);
  if (!t || tiling_of(P, op->opnds[1]) || psum_of(P, op->opnds[1]) || g->rank != t->rank) return false;
  int64_t *lo, *hi, *in;
  int n1 = op_attr_ints(op, "edge_padding_low", &lo), n2 = op_attr_ints(op, "edge_padding_high", &hi);
  int n3 = op_attr_ints(op, "interior_padding", &in);
  if (n1 != g->rank || n2 != g->rank || (n3 != g->rank && n3 != 0)) return false;
  for (int d = 0; d < g->rank; d++)
    if (t->ways[d] > 1 && (lo[d] || hi[d] || (n3 && in[d]))) return false;
  set_result(P, op, t);
  return true;
}

/* sort along a dimension no operand splits: every operand in the layout
   of the first split one, each partition sorts its rows. */
static bool sort_op(Part *P, Op *op) {
  int n = op->nres;
  if (op->kind != OP_SORT || n < 1 || op->nopnds != n) return false;
  const SpmdTiling *t = NULL;
  for (int i = 0; i < n && !t; i++) t = tiling_of(P, op->opnds[i]);
  if (!t) return false;
  const Type *g = global_type(P, op->opnds[0]);
  int64_t dim = op_attr_int(op, "dimension", -1);
  if (dim < 0) dim += g->rank;
  if (g->kind != TY_TENSOR || g->rank != t->rank || dim < 0 || dim >= g->rank || t->ways[dim] > 1) return false;
  for (int i = 0; i < n; i++)
    if (!same_dims(global_type(P, op->opnds[i]), g) || op->res[i].type->quant) return false;
  for (int i = 0; i < n; i++) {
    Value *v = op->opnds[i];
    op->opnds[i] = tiling_of(P, v) ? reshard(P, v, t, op) : shard_of(P, v, t, op);
    op->res[i].type = local_type(P, op->res[i].type, t);
    ptrmap_put(&P->tiling, &op->res[i], (void *)t);
  }
  return true;
}

/* reduce by any reducer (any number of operands: argmax).  Over
   dimensions no operand splits: a local reduce, the kept dimensions'
   layout.  Over split ones: a local reduce of each piece, its results
   gathered from the partitions holding the other pieces (in their order,
   along a new leading dimension) and reduced again by the same reducer,
   which leaves the whole result on each of them (two all_gathers of
   [pieces x rows] for an argmax over a split vocabulary instead of the
   whole operand). */
static bool reduce_local(Part *P, Op *op) {
  int n = op->nres;
  if (op->kind != OP_REDUCE || n < 1 || op->nopnds != 2 * n || op->nregions != 1) return false;
  const SpmdTiling *t = NULL;
  for (int i = 0; i < n && !t; i++) t = tiling_of(P, op->opnds[i]);
  if (!t) return false;
  const Type *g = global_type(P, op->opnds[0]);
  int64_t *rd;
  int nrd = op_attr_ints(op, "dimensions", &rd);
  if (g->kind != TY_TENSOR || g->rank != t->rank || g->rank > MAXR || nrd < 0) return false;
  bool red[MAXR] = {0};
  for (int i = 0; i < nrd; i++) {
    if (rd[i] < 0 || rd[i] >= g->rank) return false;
    red[rd[i]] = true;
  }
  for (int i = 0; i < n; i++)
    if (!same_dims(global_type(P, op->opnds[i]), g) || op->res[i].type->kind != TY_TENSOR ||
        op->res[i].type->quant || tiling_of(P, op->opnds[n + i]) || psum_of(P, op->opnds[n + i]) ||
        op->res[i].type->rank != g->rank - nrd)
      return false;
  int nsplit, split[MAXR];
  SpmdTiling *r = folded(P, t, red, &nsplit, split);
  if (!splits(r)) r = NULL;
  /* the result must fit a tensor of the gathered pieces */
  if (nsplit && g->rank - nrd + 1 > MAXR) return false;
  for (int i = 0; i < n; i++) {
    Value *v = op->opnds[i];
    op->opnds[i] = tiling_of(P, v) ? reshard(P, v, t, op) : shard_of(P, v, t, op);
    /* the padding of uneven pieces along the reduced dimensions made the
       initial value: one more operand of the reducer, as the initial value
       is already */
    if (nsplit && padded(P, op->opnds[i]))
      op->opnds[i] = mask_padding(P, op->opnds[i], t, g, red, op->opnds[n + i], op);
    op->res[i].type = r ? local_type(P, op->res[i].type, r) : op->res[i].type;
    if (r) ptrmap_put(&P->tiling, &op->res[i], r);
  }
  if (!nsplit) return true;
  int64_t size, *mem = group_members(P, t, nsplit, split, &size);
  Attr *groups = groups_of(P, t->ndev / size, size, mem);
  Builder b = {P->m, P->body, op->next, op->loc};
  Value **in = ARENA_ARRAY(&P->m->arena, Value *, 2 * n);
  Type **rt = ARENA_ARRAY(&P->m->arena, Type *, n);
  int rank = op->res[0].type->rank;
  for (int i = 0; i < n; i++) {
    Type *lt = op->res[i].type;
    int64_t dims[MAXR];
    dims[0] = 1;
    memcpy(dims + 1, lt->dims, sizeof(int64_t) * (size_t)rank);
    Value *one = bld_reshape(&b, &op->res[i], rank + 1, dims);
    dims[0] = size;
    in[i] = all_gather_at(P, &b, one, 0, rank + 1, dims, groups);
    in[n + i] = op->opnds[n + i];
    rt[i] = lt;
  }
  Op *again = op_new(P->m, OP_REDUCE, 2 * n, in, n, rt, op->loc);
  int64_t zero = 0;
  op_set_attr(P->m, again, "dimensions", attr_ints(P->m, 1, &zero));
  copy_region(P, op, again);
  block_insert_before(P->body, b.at, again);
  P->final = &again->res[0];
  for (int i = 0; i < n; i++) {
    Value *reshaped = in[i]->def->opnds[0];
    block_replace_uses(P->body, &op->res[i], &again->res[i]);
    reshaped->def->opnds[0] = &op->res[i];
    if (r) ptrmap_put(&P->tiling, &again->res[i], r);
  }
  return true;
}

/* reverse along dimensions that are not split. */
static bool reverse_op(Part *P, Op *op) {
  if (op->kind != OP_REVERSE || op->nopnds != 1 || op->nres != 1) return false;
  const SpmdTiling *t = tiling_of(P, op->opnds[0]);
  int64_t *rd;
  int nrd = op_attr_ints(op, "dimensions", &rd);
  if (!t || nrd < 0 || t->rank > MAXR || t->ndev != P->npart) return false;
  bool flip[MAXR] = {0}, any = false;
  for (int i = 0; i < nrd; i++) {
    if (rd[i] < 0 || rd[i] >= t->rank) return false;
    any |= flip[rd[i]] = t->ways[rd[i]] > 1;
  }
  if (!any) {
    set_result(P, op, t);
    return true;
  }
  /* a split reversed dimension: each partition reverses its piece, which
     is then the mirrored piece of the result (piece ways - 1 - i along
     it): nothing moves, the result is held in the layout that numbers
     the pieces the other way (arr[::-1] stays split, as XLA keeps it) */
  int rank = t->rank;
  int64_t *keys = xcalloc((size_t)P->npart * (size_t)rank + 1, sizeof(int64_t));
  for (int p = 0; p < P->npart; p++)
    for (int d = 0; d < rank; d++) {
      int64_t c = t->coord[p * (rank + 1) + d];
      keys[p * rank + d] = flip[d] ? t->ways[d] - 1 - c : c;
    }
  bool ok = false;
  SpmdTiling *r = tiling_by_keys(P, rank, t->ways, keys, &ok);
  xfree(keys);
  if (!ok || !r) return false;
  set_result(P, op, r);
  return true;
}

/* gather from an operand split along dimensions its start indices pick
   one element of (an embedding table split by rows: Megatron's
   vocabulary-parallel lookup), the other split dimensions taken whole by
   the slices, the indices whole: each partition looks the indices up in
   its own rows (each start index clamped to the whole dimension, as the
   gather would, then made relative to the piece) and keeps zeros where an
   index falls in another piece; the results are a partial sum over the
   partitions holding the other pieces, summed where a use needs the sum
   (one all_reduce of the result, never the table).  Taken when summing
   the result moves no more than gathering the operand, or when the result
   is wanted unreduced. */
static bool gather_rows(Part *P, Op *op, const SpmdTiling *t, const Type *g, const int *src, const bool *whole) {
  Value *ix = op->opnds[1];
  const Type *it = ix->type, *rt = op->res[0].type;
  Attr *dn = op_attr(op, "dimension_numbers");
  int64_t *sim, *off, *ob, *sz;
  int nsim = dict_ints(dn, "start_index_map", &sim), noff = dict_ints(dn, "offset_dims", &off);
  int nob = dict_ints(dn, "operand_batching_dims", &ob);
  int64_t ivd = dict_int(dn, "index_vector_dim", 0);
  if (nsim < 1 || noff < 0 || nob != 0 || op_attr_ints(op, "slice_sizes", &sz) != g->rank || it->kind != TY_TENSOR ||
      !et_is_int(it->elem) || et_is_pred(rt->elem) || ivd < 0 || ivd > it->rank || it->rank >= MAXR ||
      padded(P, op->opnds[0]))
    return false;
  if (ivd < it->rank ? it->dims[ivd] != nsim : nsim != 1) return false;
  /* the result's batch dimensions (those not among the offset dims) are
     the indices' dimensions other than the index vector's, in order */
  int64_t bdims[MAXR], bpos[MAXR];
  int nbd = 0, nrb = 0;
  for (int d = 0; d < it->rank; d++)
    if (d != ivd) bdims[nbd++] = it->dims[d];
  for (int k = 0; k < rt->rank; k++)
    if (!ints_contain(off, noff, k)) {
      if (nrb >= nbd || rt->dims[k] != bdims[nrb]) return false;
      bpos[nrb++] = k;
    }
  if (nrb != nbd) return false;
  /* the dimensions split by the indices: one element each */
  bool red[MAXR] = {0};
  int comp[MAXR];
  for (int d = 0; d < g->rank; d++) {
    comp[d] = -1;
    if (t->ways[d] == 1 || whole[d]) continue;
    for (int k = 0; k < nsim; k++)
      if (sim[k] == d) comp[d] = k;
    if (comp[d] < 0 || sz[d] != 1) return false;
    red[d] = true;
  }
  if (type_bits(rt) > type_bits(g) && !wanted_unreduced(P, &op->res[0])) return false;
  /* the result's layout: the operand's without the rows' splits (folded
     into the copies, which hold the addends), moved by the whole dims */
  int nsplit, split[MAXR], fsrc[MAXR];
  SpmdTiling *ft = folded(P, t, red, &nsplit, split);
  int fpos[MAXR];
  for (int d = 0, k = 0; d < g->rank; d++) fpos[d] = red[d] ? -1 : k++;
  for (int k = 0; k < rt->rank; k++) fsrc[k] = src[k] >= 0 ? fpos[src[k]] : -1;
  bool ok;
  SpmdTiling *r = splits(ft) ? moved(P, ft, rt->rank, fsrc, &ok) : (ok = true, NULL);
  if (!ok) return false;
  Builder b = {P->m, P->body, op, op->loc};
  /* the indices as s64, one component at a time along the index vector */
  Value *ix64 = bld_convert(&b, ix, ET_S64);
  Value *parts[MAXR], *keep = NULL;
  for (int k = 0; k < nsim; k++) {
    Value *c = ivd < it->rank ? rows_of(P, &b, ix64, (int)ivd, k, k + 1) : ix64;
    int d = (int)sim[k];
    if (d >= 0 && d < g->rank && red[d]) {
      int64_t piece = g->dims[d] / t->ways[d];
      Value *in[3] = {bld_const_i(&b, c->type, 0), c, bld_const_i(&b, c->type, g->dims[d] - 1)};
      c = bld_op(&b, OP_CLAMP, 3, in, c->type);
      c = bld_sub(&b, c, bld_splat(&b, shard_offset(P, &b, t, d, piece), c->type));
      Value *inr = bld_bin(&b, OP_AND, bld_compare(&b, c, bld_const_i(&b, c->type, 0), "GE"),
                           bld_compare(&b, c, bld_const_i(&b, c->type, piece), "LT"));
      keep = keep ? bld_bin(&b, OP_AND, keep, inr) : inr;
    }
    parts[k] = c;
  }
  Value *nix = parts[0];
  if (nsim > 1) {
    nix = bld_op(&b, OP_CONCATENATE, nsim, parts, bld_tensor(&b, ET_S64, it->rank, it->dims));
    op_set_attr(P->m, nix->def, "dimension", attr_int(P->m, ivd, type_scalar(&P->m->arena, ET_S64)));
  }
  op->opnds[1] = nix;
  int64_t nsz[MAXR];
  for (int d = 0; d < g->rank; d++) nsz[d] = red[d] ? 1 : sz[d] / t->ways[d];
  op_set_attr(P->m, op, "slice_sizes", attr_ints(P->m, g->rank, nsz));
  Type *lt = r ? local_type(P, rt, r) : (Type *)rt;
  op->res[0].type = lt;
  /* zeros where the index is in another piece: the mask over the batch
     dimensions of the result */
  Builder a = {P->m, P->body, op->next, op->loc};
  Value *mask = bld_reshape(&a, keep, nbd, bdims);
  mask = bld_broadcast(&a, mask, bld_shape_of(&a, lt, ET_PRED), nbd, bpos);
  Value *z = bld_const_bits(&a, lt, lt->elem, 0);
  Value *res = bld_select(&a, mask, &op->res[0], z);
  block_replace_uses(P->body, &op->res[0], res);
  res->def->opnds[1] = &op->res[0];
  P->final = res;
  void *w = ptrmap_get(&P->want, &op->res[0]);
  if (w) ptrmap_put(&P->want, res, w);
  if (r) {
    ptrmap_put(&P->tiling, &op->res[0], r);
    ptrmap_put(&P->tiling, res, r);
  }
  int64_t size, *mem = group_members(P, t, nsplit, split, &size);
  ptrmap_put(&P->psum, res, psum_new(P, size, mem));
  return true;
}

/* gather from an operand split only along dimensions every slice takes
   whole (offset dimensions of full slice size), the indices whole: each
   partition gathers from its piece (a start index along such a dimension
   is clamped to 0, on the piece as on the whole operand), the result
   split along the matching offset dimensions. */
static bool gather_op(Part *P, Op *op) {
  if (op->kind != OP_GATHER || op->nopnds != 2 || op->nres != 1 || op->res[0].type->quant) return false;
  const SpmdTiling *t = tiling_of(P, op->opnds[0]);
  if (!t || tiling_of(P, op->opnds[1]) || psum_of(P, op->opnds[1])) return false;
  const Type *g = global_type(P, op->opnds[0]), *rt = op->res[0].type;
  int src[MAXR];
  bool whole[MAXR];
  if (t->rank != g->rank || !gather_dims(op, g, rt, src, whole)) return false;
  for (int d = 0; d < g->rank; d++)
    if (t->ways[d] > 1 && !whole[d]) return gather_rows(P, op, t, g, src, whole);
  bool ok;
  SpmdTiling *r = moved(P, t, rt->rank, src, &ok);
  if (!ok || !r) return false;
  int64_t *sz, nsz[MAXR];
  op_attr_ints(op, "slice_sizes", &sz);
  for (int d = 0; d < g->rank; d++) nsz[d] = sz[d] / t->ways[d];
  op_set_attr(P->m, op, "slice_sizes", attr_ints(P->m, g->rank, nsz));
  set_result(P, op, r);
  return true;
}

/* chlo.top_k (along the last dimension).  The last dimension whole: the
   op on the pieces, nothing moves.  Split evenly in pieces of at least k:
   each partition takes the top k of its piece (indices made global by
   the piece's offset), the candidates of the partitions holding the other
   pieces are gathered (values and indices, in piece order) and the top k
   of those are taken again, their indices looked up among the gathered
   ones: G k candidates per row move instead of the rows.  Ties keep the
   smaller index first: a piece's candidates come before the next piece's
   and in index order within it. */
static bool topk_op(Part *P, Op *op) {
  if (op->kind != OP_CHLO_TOP_K || op->nopnds != 1 || op->nres != 2) return false;
  Value *x = op->opnds[0];
  const SpmdTiling *t = tiling_of(P, x);
  const Type *g = global_type(P, x);
  if (!t || padded(P, x) || g->kind != TY_TENSOR || g->rank < 1 || g->rank != t->rank || g->rank >= MAXR) return false;
  int rank = g->rank, last = rank - 1;
  int64_t k = op_attr_int(op, "k", -1), G = t->ways[last];
  ElemType it = op->res[1].type->elem;
  if (k < 0 || !et_is_int(it) || op->res[0].type->quant) return false;
  if (G == 1) {
    for (int i = 0; i < 2; i++) {
      op->res[i].type = local_type(P, op->res[i].type, t);
      ptrmap_put(&P->tiling, &op->res[i], (void *)t);
    }
    return true;
  }
  int64_t piece = g->dims[last] / G;
  if (k > piece || (et_bits(it) < 64 && g->dims[last] > ((int64_t)1 << (et_bits(it) - 1))) || uneven(g, t))
    return false;
  Type *gt[2] = {op->res[0].type, op->res[1].type};
  /* the layout of the results: the operand's without the last split */
  bool red[MAXR] = {0};
  red[last] = true;
  int nsplit, split[MAXR];
  SpmdTiling *ft = folded(P, t, red, &nsplit, split);
  int src[MAXR];
  for (int d = 0; d < rank; d++) src[d] = d < last ? d : -1;
  bool ok;
  SpmdTiling *r = splits(ft) ? moved(P, ft, rank, src, &ok) : (ok = true, NULL);
  if (!ok) return false;
  /* the local top k: the rows' pieces, k of each */
  for (int i = 0; i < 2; i++) {
    op->res[i].type = type_clone(&P->m->arena, gt[i]);
    op->res[i].type->layout = NULL;
    for (int d = 0; d < last; d++) op->res[i].type->dims[d] = gt[i]->dims[d] / t->ways[d];
  }
  Builder b = {P->m, P->body, op->next, op->loc};
  Type *lv = op->res[0].type, *li = op->res[1].type;
  Value *gidx = bld_add(&b, &op->res[1], bld_splat(&b, bld_convert(&b, shard_offset(P, &b, t, last, piece), it), li));
  int64_t size, *mem = group_members(P, t, 1, &last, &size);
  Attr *groups = groups_of(P, t->ndev / size, size, mem);
  int64_t dims[MAXR];
  memcpy(dims, lv->dims, sizeof(int64_t) * (size_t)rank);
  dims[last] = k * size;
  Value *cand[2] = {&op->res[0], gidx};
  for (int i = 0; i < 2; i++) {
    cand[i] = all_gather_at(P, &b, cand[i], last, rank, dims, groups);
  }
  Type *rts[2] = {lv, li};
  Op *again = op_new(P->m, OP_CHLO_TOP_K, 1, &cand[0], 2, rts, op->loc);
  op_set_attr(P->m, again, "k", attr_int(P->m, k, NULL));
  block_insert_before(P->body, b.at, again);
  /* the global indices of the winners: gathered[.., pos] */
  int64_t bd[MAXR], one[MAXR], lastd = last;
  for (int d = 0; d < rank; d++) bd[d] = d, one[d] = 1;
  static const char *const keys[] = {"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
                                     "start_indices_batching_dims", "start_index_map", "index_vector_dim"};
  Attr *v[6] = {attr_ints(P->m, 0, bd), attr_ints(P->m, 1, &lastd), attr_ints(P->m, last, bd),
                attr_ints(P->m, last, bd), attr_ints(P->m, 1, &lastd), attr_int(P->m, rank, NULL)};
  Value *gin[2] = {cand[1], &again->res[1]};
  Value *idx = bld_op(&b, OP_GATHER, 2, gin, li);
  op_set_attr(P->m, idx->def, "dimension_numbers", attr_dict(P->m, "stablehlo.gather", 6, keys, v));
  op_set_attr(P->m, idx->def, "slice_sizes", attr_ints(P->m, rank, one));
  op_set_attr(P->m, idx->def, "indices_are_sorted", attr_bool(P->m, false));
  Value *res[2] = {&again->res[0], idx};
  for (int i = 0; i < 2; i++) {
    block_replace_uses(P->body, &op->res[i], res[i]);
    if (r) ptrmap_put(&P->tiling, res[i], r);
  }
  /* the ops made above read the local top k itself */
  cand[0]->def->opnds[0] = &op->res[0];
  gidx->def->opnds[0] = &op->res[1];
  return true;
}

/* The rules of the ops with windows, and the others above that keep a
   split dimension as it is. */
static bool window_rules(Part *P, Op *op) {
  switch (op->kind) {
  case OP_CONVOLUTION: return conv(P, op);
  case OP_REDUCE_WINDOW: return regions_plain(P, op) && reduce_window(P, op);
  case OP_SELECT_AND_SCATTER: return regions_plain(P, op) && select_scatter(P, op);
  case OP_PAD: return pad_op(P, op);
  case OP_SORT: return regions_plain(P, op) && sort_op(P, op);
  case OP_REDUCE: return regions_plain(P, op) && reduce_local(P, op);
  case OP_REVERSE: return reverse_op(P, op);
  case OP_GATHER: return gather_op(P, op);
  case OP_CHLO_TOP_K: return topk_op(P, op);
  default: return false;
  }
}

/* Result i of manual computation op (calling g), whole: when the body
   returns it through a sharding constraint over free axes only (what
   `with_sharding_constraint` on the axes left to the compiler says), cut
   to that layout, so that it leaves in it, as XLA's propagation has it. */
static Value *free_layout(Part *P, Op *op, Func *g, int i, Value *v) {
  Op *ret = block_terminator(g->body);
  Op *c = ret && i < ret->nopnds ? ret->opnds[i]->def : NULL;
  const Attr *axes = op_attr(op, "manual_axes"), *a = c && is_constraint(c) ? op_attr(c, "sharding") : NULL;
  SdySharding sh;
  if (!a || !sdy_sharding_of(P->m, a, &sh) || sh.nunreduced) return v;
  for (int d = 0; d < sh.ndims; d++) {
    if (!sh.dims[d].closed) return v;
    for (int k = 0; k < sh.dims[d].naxes; k++)
      if (manual_axis(axes, sh.dims[d].axes[k].name)) return v;
  }
  char *err = NULL;
  SpmdTiling *t = from_sdy(P->m, &sh, v->type, P->npart, &err);
  if (err) {
    xfree(err);
    return v;
  }
  if (!splits(t)) return v;
  for (int d = 0; d < t->rank; d++)
    if (v->type->dims[d] % t->ways[d] != 0) return v;
  return shard_of(P, v, t, op);
}

/* op, a manual computation in P->body (top: the entry block, whose values
   may be shards; else a block of whole values), rewritten to a call.  An
   operand the computation takes unreduced (a partial sum over some manual
   axes) is passed as the partial sums it is, or made one (to_partial); a
   result it gives unreduced is held as partial sums in the entry block,
   and summed right away in other blocks (whose values are whole). */
static bool manual_call(Part *P, Op *op, bool top) {
  Func *g = callee_of(P->m, op);
  if (!g || !g->body || g->body->nargs != op->nopnds || g->nresults != op->nres) {
    error_at(op->loc, "a manual computation whose function is missing or does not take its operands");
    return false;
  }
  Value **in = ARENA_ARRAY(&P->m->arena, Value *, op->nopnds + 1);
  for (int i = 0; i < op->nopnds; i++) {
    SpmdTiling *t;
    SdySharding *u;
    if (!manual_layout(P, op, "in_shardings", i, global_type(P, op->opnds[i]), g->body->args[i]->type, &t, &u))
      return false;
    in[i] = u ? to_partial(P, op->opnds[i], t, u, op) : reshard(P, op->opnds[i], t, op);
    if (!in[i]) {
      error_at(op->loc, "manual computation: operand %d: its mesh is not the program's partitions", i);
      return false;
    }
  }
  Op *call = op_new(P->m, OP_CALL, op->nopnds, in, op->nres, g->result_types, op->loc);
  op_set_attr(P->m, call, "callee", attr_symbol(P->m, g->name));
  block_insert_before(op->parent, op, call);
  for (int i = 0; i < op->nres; i++) {
    SpmdTiling *t;
    SdySharding *u;
    if (!manual_layout(P, op, "out_shardings", i, op->res[i].type, g->result_types[i], &t, &u)) return false;
    Value *v = &call->res[i];
    if (u && top) {
      /* held as the partial sums it is */
      Psum *q = psum_unreduced(P, u);
      if (q) ptrmap_put(&P->psum, v, q);
      u = q ? NULL : u;
    }
    if (u && !(v = sum_partial(P, v, u))) {
      error_at(op->loc, "manual computation: result %d: its mesh is not the program's partitions", i);
      return false;
    }
    if (t) ptrmap_put(&P->tiling, v, t);
    if (!top) v = gather(P, v, op);
    else if (!t && !psum_of(P, v)) v = free_layout(P, op, g, i, v);
    block_replace_uses(P->body, &op->res[i], v);
  }
  op_erase(op);
  return true;
}

/* The manual computations in blk (a region of an entry op, or the body of
   another function: whole values), rewritten where they are. */
static bool manual_nested(Part *P, Block *blk, PtrMap *seen) {
  for (Op *op = blk ? blk->first : NULL, *next; op; op = next) {
    next = op->next;
    for (int k = 0; k < op->nregions; k++)
      if (!manual_nested(P, op->regions[k], seen)) return false;
    Func *g = callee_of(P->m, op);
    if (g && g->body && !ptrmap_get(seen, g)) {
      ptrmap_put(seen, g, g);
      if (!manual_nested(P, g->body, seen)) return false;
    }
    if (!is_manual(op)) continue;
    Block *body = P->body;
    Value *pid = P->pid;
    PtrMap whole = P->whole, cuts = P->cuts;
    P->body = blk;
    P->pid = NULL;
    P->whole = (PtrMap){0};
    P->cuts = (PtrMap){0};
    bool ok = manual_call(P, op, false);
    ptrmap_free(&P->whole);
    ptrmap_free(&P->cuts);
    P->body = body;
    P->pid = pid;
    P->whole = whole;
    P->cuts = cuts;
    if (!ok) return false;
  }
  return true;
}

/* ---- combining all_reduces ----
 * The all_reduces the rewrite left in the entry block (the gradients of a
 * data-parallel step: one per weight) become one all_reduce of several
 * operands where they have the same groups and the same reducer and none
 * depends on another: a run of them, ended by an all_reduce that cannot
 * join.  The combined op stands where the last one stood, and the ops
 * between that use the earlier ones' results move after it, in their
 * order. */

static bool same_groups(const Op *a, const Op *b) {
  const Attr *x = op_attr(a, "replica_groups"), *y = op_attr(b, "replica_groups");
  return x && y && x->kind == ATTR_DENSE && y->kind == ATTR_DENSE && x->lit && y->lit && lit_equal(x->lit, y->lit);
}

/* The reducer's one op kind when the region is `return a OP b`. */
static OpKind region_kind(const Op *op) {
  if (op->nregions != 1) return OP_COUNT;
  const Block *r = op->regions[0];
  const Op *o = r->first;
  if (r->nargs != 2 || !o || !o->next || o->next->kind != OP_RETURN || o->nopnds != 2 || o->next->nopnds != 1 ||
      o->next->opnds[0] != &o->res[0] || o->opnds[0]->def || o->opnds[1]->def)
    return OP_COUNT;
  return o->kind;
}

static bool joinable(const Op *first, const Op *op) {
  return op->kind == OP_ALL_REDUCE && op->nopnds == 1 && op->nres == 1 && op->nregions == 1 &&
         op_attr(op, "use_global_device_ids") && region_kind(op) != OP_COUNT &&
         (!first || (region_kind(op) == region_kind(first) &&
                     op->res[0].type->elem == first->res[0].type->elem && same_groups(first, op)));
}

/* Does op (or an op in its regions) use a marked value? */
static bool uses_marked(const PtrMap *marked, const Op *op) {
  for (int i = 0; i < op->nopnds; i++)
    if (ptrmap_get(marked, op->opnds[i])) return true;
  for (int k = 0; k < op->nregions; k++)
    for (const Op *o = op->regions[k]->first; o; o = o->next)
      if (uses_marked(marked, o)) return true;
  return false;
}

static void combine_run(Part *P, Op **run, int n, PtrMap *marked) {
  if (n < 2) return;
  Op *last = run[n - 1];
  Value **in = xcalloc((size_t)n, sizeof(Value *));
  Type **ty = xcalloc((size_t)n, sizeof(Type *));
  for (int k = 0; k < n; k++) in[k] = run[k]->opnds[0], ty[k] = run[k]->res[0].type;
  Op *c = op_new(P->m, OP_ALL_REDUCE, n, in, n, ty, run[0]->loc);
  xfree(in);
  xfree(ty);
  block_insert_before(P->body, last->next, c);
  for (int k = 0; k < run[0]->nattrs; k++) op_set_attr(P->m, c, run[0]->attrs[k].name, run[0]->attrs[k].attr);
  /* the reducer, on scalars of the first one's type */
  Block *body = block_new(P->m);
  Type *st = type_scalar(&P->m->arena, run[0]->res[0].type->elem);
  Value *a = block_add_arg(P->m, body, st, NULL), *b = block_add_arg(P->m, body, st, NULL);
  Builder bl = {P->m, body, NULL, c->loc};
  Value *ab[2] = {a, b};
  Value *r = bld_op(&bl, region_kind(run[0]), 2, ab, st);
  block_append(body, op_new(P->m, OP_RETURN, 1, &r, 0, NULL, c->loc));
  op_add_region(P->m, c, body);
  /* the users of the earlier results between them, after the combined op */
  Op *after = c;
  for (Op *o = run[0]->next, *next; o && o != last; o = next) {
    next = o->next;
    bool member = false;
    for (int k = 0; k < n; k++) member |= o == run[k];
    if (member || !uses_marked(marked, o)) continue;
    op_erase(o);
    block_insert_before(P->body, after->next, o);
    after = o;
  }
  for (int k = 0; k < n; k++) {
    block_replace_uses(P->body, &run[k]->res[0], &c->res[k]);
    op_erase(run[k]);
  }
  P->n_combined += n;
  P->n_combined_into++;
  P->n_reduce -= n - 1;
}

/* The most bytes one combined all_reduce carries (its operands together):
   XLAC_ALL_REDUCE_COMBINE_BYTES, else 32 MiB.  Past it a run ends and the
   next begins, so that the memory one collective gathers its members'
   operands into stays bounded for a large model.  0 combines nothing. */
static int64_t combine_limit(void) {
  const char *e = getenv("XLAC_ALL_REDUCE_COMBINE_BYTES");
  if (e && *e) {
    char *end;
    long long v = strtoll(e, &end, 10);
    if (*end == 0 && v >= 0) return v;
  }
  return (int64_t)32 << 20;
}

static void combine_all_reduces(Part *P) {
  enum { RUN = 64 };
  Op *run[RUN];
  int n = 0;
  int64_t bytes = 0, limit = combine_limit();
  PtrMap marked = {0}; /* the values that depend on the run's results */
  Op *ret = block_terminator(P->body);
  for (Op *op = P->body->first, *next; op; op = next) {
    next = op->next;
    bool dep = uses_marked(&marked, op);
    int64_t b = op->nres == 1 ? (type_bits(op->res[0].type) + 7) / 8 : 0;
    if (!dep && n < RUN && joinable(n ? run[0] : NULL, op) && (n == 0 || bytes + b <= limit)) {
      run[n++] = op;
      bytes += b;
      ptrmap_put(&marked, &op->res[0], op);
      continue;
    }
    if (op == ret || joinable(NULL, op)) {
      /* the run ends here, and this all_reduce may begin the next */
      combine_run(P, run, n, &marked);
      n = 0;
      bytes = 0;
      ptrmap_free(&marked);
      marked = (PtrMap){0};
      if (joinable(NULL, op)) {
        run[n++] = op;
        bytes = b;
        ptrmap_put(&marked, &op->res[0], op);
      }
      continue;
    }
    if (dep)
      for (int i = 0; i < op->nres; i++) ptrmap_put(&marked, &op->res[i], op);
  }
  ptrmap_free(&marked);
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
               "takes and returns even shards only)", what, i, P->f->name, d, (long long)g->dims[d], (long long)t->ways[d]);
      return false;
    }
  return true;
}

/* ---- unreduced parameters and results ----
 * A parameter or result of the entry whose Shardy sharding is unreduced
 * over some axes (JAX's P(..., unreduced={'x'})) holds on each partition
 * a partial sum: the value is the sum over the partitions that differ
 * only along those axes.  A parameter is summed right away (one
 * all_reduce), and the program then holds it as copies; a result is made
 * a partial sum at the end (the first partition along the axes holds it,
 * the others zeros).  The layout reported has a subgroup of copies and
 * one of partial sums: {devices=[..., copies, sums]... last_tile_dims=
 * {replicated, unreduced}}. */

/* The sharding in dict when it is unreduced, its unreduced list kept and
   everything else of it in *plain (NULL, with *plain untouched: not
   unreduced). */
static SdySharding *unreduced_of(Module *m, const Attr *dict, SdySharding *plain) {
  const Attr *a = dict_field(dict, SDY_KEY);
  SdySharding s;
  if (!a || !sdy_sharding_of(m, a, &s) || s.nunreduced == 0) return NULL;
  const SdyMesh *mesh = sdy_sharding_mesh(m, &s);
  int64_t size = 1;
  for (int k = 0; mesh && k < s.nunreduced; k++) size *= sdy_axis_ref_size(mesh, &s.unreduced[k]);
  if (mesh && size == 1) return NULL;
  SdySharding *u = ARENA_NEW(&m->arena, SdySharding);
  *u = s;
  *plain = s;
  plain->nunreduced = 0;
  return u;
}

/* Checks an unreduced sharding xlac can hold: whole axes of a mesh of the
   partitions' size, by a sum. */
static char *unreduced_check(Part *P, const SdySharding *u) {
  const SdyMesh *mesh = sdy_sharding_mesh(P->m, u);
  if (!mesh || sdy_mesh_size(mesh) != P->npart) return xstrdup("an unreduced sharding over another mesh size");
  if (u->reduction != SDY_SUM) return xstrdup("an unreduced sharding by another reduction than a sum");
  for (int k = 0; k < u->nunreduced; k++)
    if (u->unreduced[k].size || sdy_mesh_axis(mesh, u->unreduced[k].name) < 0)
      return xstrdup("an unreduced sharding over a sub-axis or an axis the mesh does not have");
  for (int d = 0; d < u->ndims; d++)
    for (int j = 0; j < u->dims[d].naxes; j++)
      if (u->dims[d].axes[j].size)
        return xstrdup("an unreduced sharding whose dimensions are split over sub-axes");
  return NULL;
}

/* The layout of a value in sharding u (unreduced; t: its dimensions'
   layout, NULL: whole), as HLO's text. */
static Attr *unreduced_attr(Part *P, const SdySharding *u, const SpmdTiling *t, int rank) {
  const SdyMesh *mesh = sdy_sharding_mesh(P->m, u);
  int64_t n = P->npart, nr = 1, nu = 1, tiles = 1;
  bool is_u[SDY_MAX_AXES], used[SDY_MAX_AXES];
  for (int a = 0; a < mesh->naxes; a++) {
    is_u[a] = used[a] = false;
    for (int k = 0; k < u->nunreduced; k++) is_u[a] |= !strcmp(u->unreduced[k].name, mesh->axes[a].name);
    for (int d = 0; d < u->ndims; d++)
      for (int j = 0; j < u->dims[d].naxes; j++) used[a] |= !strcmp(u->dims[d].axes[j].name, mesh->axes[a].name);
    if (is_u[a]) nu *= mesh->axes[a].size;
    else if (!used[a]) nr *= mesh->axes[a].size;
  }
  for (int d = 0; t && d < rank; d++) tiles *= t->ways[d];
  int64_t *devs = xcalloc((size_t)n + 1, sizeof(int64_t));
  for (int64_t k = 0; k < n; k++) {
    int64_t p = mesh->device_ids && mesh->ndevices == n ? mesh->device_ids[k] : k, rem = k, c[SDY_MAX_AXES];
    for (int a = mesh->naxes - 1; a >= 0; a--) {
      c[a] = rem % mesh->axes[a].size;
      rem /= mesh->axes[a].size;
    }
    int64_t r = 0, q = 0, pos = 0;
    for (int a = 0; a < mesh->naxes; a++) {
      if (is_u[a]) q = q * mesh->axes[a].size + c[a];
      else if (!used[a]) r = r * mesh->axes[a].size + c[a];
    }
    for (int d = 0; t && d < rank; d++) pos = pos * t->ways[d] + t->coord[p * (rank + 1) + d];
    devs[(pos * nr + r) * nu + q] = p;
  }
  StrBuf b = {0};
  sb_puts(&b, "{devices=[");
  for (int d = 0; d < rank; d++) sb_printf(&b, "%s%lld", d ? "," : "", (long long)(t ? t->ways[d] : 1));
  if (nr > 1) sb_printf(&b, "%s%lld", rank ? "," : "", (long long)nr);
  sb_printf(&b, "%s%lld]", rank || nr > 1 ? "," : "", (long long)nu);
  for (int64_t i = 0; i < tiles * nr * nu; i++) sb_printf(&b, "%s%lld", i ? "," : "", (long long)devs[i]);
  sb_puts(&b, nr > 1 ? " last_tile_dims={replicated, unreduced}}" : " last_tile_dims={unreduced}}");
  Attr *a = attr_string(P->m, arena_strndup(&P->m->arena, b.data, b.len), b.len);
  sb_free(&b);
  xfree(devs);
  return a;
}

/* HLO's text of an unreduced layout, {devices=[ways..., (copies,) sums]...
   last_tile_dims={(replicated, )unreduced}}, as the layout of its
   dimensions and the groups of partial sums: the partitions at the same
   place but for the last index.  False when the text is not such. */
static bool hlo_unreduced(Module *m, const char *text, const Type *g, int npart, SpmdTiling **t, int64_t *group,
                          char **err) {
  const char *u1 = " last_tile_dims={unreduced}}", *u2 = " last_tile_dims={replicated, unreduced}}";
  size_t n = strlen(text);
  bool rep = n > strlen(u2) && !strcmp(text + n - strlen(u2), u2);
  if (!rep && !(n > strlen(u1) && !strcmp(text + n - strlen(u1), u1))) return false;
  if (strncmp(text, "{devices=[", 10) != 0) return false;
  int64_t dims[MAXR + 2];
  int nd = 0;
  const char *p = text + 10;
  if (!read_ints(&p, ']', dims, &nd, MAXR + 2) || nd < (rep ? 2 : 1) || g->kind != TY_TENSOR ||
      nd != g->rank + (rep ? 2 : 1))
    return false;
  int64_t nu = dims[nd - 1];
  if (rep) dims[nd - 2] *= dims[nd - 1], nd--;
  /* the same devices, the copies and the sums as one group of copies */
  StrBuf b = {0};
  sb_puts(&b, "{devices=[");
  for (int d = 0; d < nd; d++) sb_printf(&b, "%s%lld", d ? "," : "", (long long)dims[d]);
  sb_putc(&b, ']');
  sb_putn(&b, p, (size_t)(strstr(p, " last_tile_dims=") - p));
  sb_puts(&b, " last_tile_dim_replicate}");
  char *e = NULL;
  SpmdTiling *l = hlo_layout(m, b.data, g, npart, true, &e);
  sb_free(&b);
  if (e) {
    *err = e;
    return false;
  }
  int r = g->rank;
  for (int q = 0; q < npart; q++) {
    group[q] = q;
    for (int o = 0; l && o < q && group[q] == q; o++) {
      bool same = l->coord[o * (r + 1) + r] / nu == l->coord[q * (r + 1) + r] / nu;
      for (int d = 0; d < r && same; d++) same = l->coord[o * (r + 1) + d] == l->coord[q * (r + 1) + d];
      if (same) group[q] = o;
    }
  }
  *t = splits(l) ? l : NULL;
  return l != NULL;
}

bool spmd_result_unreduced(Module *m, const Func *f, int i, int npart, SpmdTiling **t, int64_t *group, char **err) {
  *t = NULL;
  *err = NULL;
  const Attr *dict = f->res_attrs ? f->res_attrs[i] : NULL, *h = dict_field(dict, "mhlo.sharding");
  if (!dict_field(dict, SDY_KEY) && h && h->kind == ATTR_STRING) {
    char *text = xmalloc(h->slen + 1);
    memcpy(text, h->s, h->slen);
    text[h->slen] = 0;
    bool r = hlo_unreduced(m, text, f->result_types[i], npart, t, group, err);
    xfree(text);
    return r;
  }
  SdySharding plain, *u = unreduced_of(m, dict, &plain);
  if (!u) return false;
  Part P = {.m = m, .f = (Func *)f, .nrep = 1, .npart = npart};
  if ((*err = unreduced_check(&P, u))) return false;
  *t = from_sdy(m, &plain, f->result_types[i], npart, err);
  Psum *q = *err ? NULL : psum_unreduced(&P, u);
  if (!q) return false;
  memcpy(group, q->gid, sizeof(int64_t) * (size_t)npart);
  return true;
}

/* ---- ops with regions ----
 * A `while`, `case` or `if` whose regions hold only ops the rules know
 * (no calls, custom calls other than sharding constraints, collectives or
 * effects: those keep the rule for every op, whole values) is rewritten
 * on shards.  Each value a loop carries has one layout, which propagation
 * gave alike to the init value, the arguments of cond and body, the value
 * the body returns and the loop's result: the init value is moved to it
 * before the loop, what the body returns is moved to it at the end of the
 * body, and the regions are rewritten op by op like the entry block, so
 * the loop runs on shards.  A branch op's results take the layouts
 * propagation gave them and every branch returns its values so; the
 * index or predicate is whole.
 *
 * A carry that accumulates partial sums stays one through the loop: when
 * the body returns `carry + v` (or writes v into it by
 * dynamic_update_slice) and nothing else reads the carry (cond included)
 * or the sum, the init value is zeros (each partition's share of zero) or
 * a partial sum over the same groups in the same layout, and v is a
 * partial sum in the carry's layout, each partition adds its own addends,
 * and the loop's result is a partial sum, summed once where a use needs
 * the sum.  A carry given a partial sum is one from the start (the add may
 * then read it through converts and unreduced constraints); should what
 * the body returns not be one, it is made one again.  Any other carry is
 * a whole value in every iteration (a partial sum it is given is summed
 * first). */

typedef struct Accum {
  Value *init, *arg;     /* the loop's init value, the body's argument */
  int side;              /* the operand of the add that reads the carry */
  const SpmdTiling *t;   /* the carry's layout */
  Psum *ps;              /* the partial sums it holds (once the add took them) */
} Accum;

/* Whether b, and the regions of its ops, hold only ops the rules know. */
static bool plain_block(const Block *b) {
  for (const Op *op = b->first; op; op = op->next) {
    if ((op->kind == OP_CUSTOM_CALL && !is_constraint(op)) || op->kind == OP_CALL ||
        op_has_flag(op->kind, OPF_COLL) || op_has_flag(op->kind, OPF_EFFECT))
      return false;
    for (int k = 0; k < op->nregions; k++)
      if (!plain_block(op->regions[k])) return false;
  }
  return true;
}

static bool region_shape(const Op *op) {
  for (int i = 0; i < op->nres; i++) {
    const Type *t = op->res[i].type;
    if (t->kind != TY_TOKEN && (t->kind != TY_TENSOR || t->quant)) return false;
  }
  if (op->kind == OP_WHILE) {
    if (op->nregions != 2 || op->nopnds != op->nres) return false;
    const Op *test = block_terminator(op->regions[0]), *yield = block_terminator(op->regions[1]);
    if (op->regions[0]->nargs != op->nres || op->regions[1]->nargs != op->nres || !test || test->nopnds != 1 ||
        !yield || yield->nopnds != op->nres)
      return false;
    for (int i = 0; i < op->nres; i++)
      if (!same_dims(op->opnds[i]->type, op->res[i].type) && op->res[i].type->kind == TY_TENSOR) return false;
  } else if (op->kind == OP_CASE || op->kind == OP_IF) {
    if (op->nopnds != 1 || op->nregions < 1) return false;
    for (int k = 0; k < op->nregions; k++) {
      const Op *r = block_terminator(op->regions[k]);
      if (op->regions[k]->nargs || !r || r->nopnds != op->nres) return false;
    }
  } else {
    return false;
  }
  for (int k = 0; k < op->nregions; k++)
    if (!plain_block(op->regions[k])) return false;
  return true;
}

/* Whether op is a while, case or if rewritten on shards (remembered: the
   sweeps of propagation ask again and again). */
static bool region_op(Part *P, const Op *op) {
  if (op->kind != OP_WHILE && op->kind != OP_CASE && op->kind != OP_IF) return false;
  intptr_t k = (intptr_t)ptrmap_get(&P->regions, op);
  if (!k) {
    k = region_shape(op) ? 1 : 2;
    ptrmap_put(&P->regions, op, (void *)k);
  }
  return k == 1;
}

/* The values that are carry i of a while: the body's argument (first: the
   layout the carry has once it has one), the init value, what the body
   returns, the result and cond's argument. */
static void carry_values(Op *op, int i, Value **v) {
  v[0] = op->regions[1]->args[i];
  v[1] = op->opnds[i];
  v[2] = block_terminator(op->regions[1])->opnds[i];
  v[3] = &op->res[i];
  v[4] = op->regions[0]->args[i];
}

/* The layout of a result of a while (the first of its values to have one)
   or of a branch op (the first of what the branches return) given to those
   of its values that have none. */
static bool join(Part *P, Op *op) {
  bool changed = false;
  for (int i = 0; i < op->nres; i++) {
    Value *v[5];
    int n = 0;
    if (op->kind == OP_WHILE) {
      carry_values(op, i, v);
      n = 5;
    } else {
      v[n++] = &op->res[i];
      for (int k = 0; k < op->nregions && n < 5; k++) v[n++] = block_terminator(op->regions[k])->opnds[i];
    }
    SpmdTiling *t = NULL;
    for (int k = 0; k < n && !t; k++) t = ptrmap_get(&P->want, v[k]);
    for (int k = 0; t && k < n; k++)
      if (open_value(P, v[k]) && same_dims(v[k]->type, op->res[i].type)) {
        ptrmap_put(&P->want, v[k], t);
        changed = true;
      }
  }
  return changed;
}

static bool sweep_forward(Part *P, Block *b) {
  bool changed = false;
  for (Op *op = b->first; op; op = op->next) {
    if (!region_op(P, op)) {
      changed |= forward(P, op);
      continue;
    }
    changed |= join(P, op);
    for (int k = 0; k < op->nregions; k++) changed |= sweep_forward(P, op->regions[k]);
    changed |= join(P, op);
  }
  return changed;
}

static bool sweep_backward(Part *P, Block *b) {
  bool changed = false;
  for (Op *op = b->last; op; op = op->prev) {
    if (!region_op(P, op)) {
      changed |= backward(P, op);
      continue;
    }
    changed |= join(P, op);
    for (int k = op->nregions - 1; k >= 0; k--) changed |= sweep_backward(P, op->regions[k]);
    changed |= join(P, op);
  }
  return changed;
}

/* A Shardy constraint that names axes for some dimensions and leaves
   others open (`[{?}, {"y", ?}]`, what JAX writes for the dimensions a
   sharding leaves to the compiler): its value takes the named axes, and
   along the open dimensions unsplit by them whatever splits its operand
   has there that fit with them (loose_refine, above).  NULL when it names no
   split or is not such a constraint. */
static Loose *loose_constraint(Part *P, Op *op) {
  SdySharding sh;
  if (op->kind != OP_SDY_SHARDING_CONSTRAINT || !op_result_sharding(P->m, op, 0, &sh) || sh.nunreduced) return NULL;
  const Type *t = op->res[0].type;
  bool any = false;
  for (int d = 0; d < sh.ndims; d++) any |= !sh.dims[d].closed;
  if (!any || t->kind != TY_TENSOR || t->rank > MAXR || sh.ndims != t->rank) return NULL;
  char *err = NULL;
  SpmdTiling *base = from_sdy(P->m, &sh, t, P->npart, &err);
  if (err || !splits(base)) {
    xfree(err);
    return NULL;
  }
  for (int d = 0; d < t->rank; d++)
    if (t->dims[d] % base->ways[d] != 0) return NULL;
  Loose *l = ARENA_NEW(&P->m->arena, Loose);
  l->base = base;
  for (int d = 0; d < t->rank; d++) l->open[d] = !sh.dims[d].closed && base->ways[d] == 1;
  return l;
}

/* The sharding constraints of b, and of the regions rewritten on shards,
   fix their values' layouts (loose ones, their first layouts). */
static void fix_constraints(Part *P, Block *b) {
  for (Op *op = b->first; op; op = op->next) {
    if (region_op(P, op))
      for (int k = 0; k < op->nregions; k++) fix_constraints(P, op->regions[k]);
    SpmdTiling *t;
    Loose *l = loose_constraint(P, op);
    if (l) {
      ptrmap_put(&P->loose, &op->res[0], l);
      ptrmap_put(&P->want, &op->res[0], l->base);
      continue;
    }
    if (!constraint_layout(P, op, &t)) continue;
    ptrmap_put(&P->fixed, &op->res[0], &op->res[0]);
    if (t) ptrmap_put(&P->want, &op->res[0], t);
  }
}

static int uses_in(const Block *b, const Value *v) {
  int n = 0;
  for (const Op *op = b->first; op; op = op->next) {
    for (int i = 0; i < op->nopnds; i++) n += op->opnds[i] == v;
    for (int k = 0; k < op->nregions; k++) n += uses_in(op->regions[k], v);
  }
  return n;
}

/* Whether d (in body) passes a partial sum on as one, read once: a
   constraint that keeps it unreduced, or a convert between float types. */
static bool passes_partial(Part *P, const Block *body, const Op *d) {
  if (!d || d->parent != body || d->nopnds != 1 || d->nres != 1 || uses_in(body, &d->res[0]) != 1) return false;
  if (is_constraint(d)) return constraint_unreduced(P, (Op *)d) != NULL;
  const Type *a = d->opnds[0]->type, *r = d->res[0].type;
  return d->kind == OP_CONVERT && a->kind == TY_TENSOR && et_is_fp(a->elem) && et_is_fp(r->elem) &&
         et_is_complex(a->elem) == et_is_complex(r->elem);
}

/* The number of such ops between v and the carry's argument (v reads it
   through them); -1 when v does not read it so. */
static int reads_carry(Part *P, const Block *body, const Value *v, const Value *arg) {
  int n = 0;
  for (; v != arg; n++) {
    if (!passes_partial(P, body, v->def)) return -1;
    v = v->def->opnds[0];
  }
  return n;
}

/* The add by which a while's body accumulates carry i, when the carry may
   stay a partial sum (above): the body returns add(carry, v) there, or
   dynamic_update_slice(carry, v, ...) (through constraints that keep it
   unreduced, as JAX writes), read by nothing else; the carry is read by
   nothing else (the add may read it through passes_partial's ops when the
   init value is a partial sum), and the init value is zeros or a partial
   sum.  NULL otherwise; *side: the operand that reads the carry. */
static Op *accum_add(Part *P, Op *op, int i, int *side) {
  Block *cond = op->regions[0], *body = op->regions[1];
  Value *arg = body->args[i], *y = block_terminator(body)->opnds[i], *init = op->opnds[i];
  while (y->def && is_constraint(y->def) && passes_partial(P, body, y->def)) y = y->def->opnds[0];
  Op *a = y->def;
  if (!a || a->parent != body || y->type->kind != TY_TENSOR || et_is_pred(y->type->elem) || a->nopnds < 2) return NULL;
  if (uses_in(body, arg) != 1 || uses_in(cond, cond->args[i]) != 0 || uses_in(body, y) != 1) return NULL;
  int n = -1;
  if (a->kind == OP_ADD && a->nopnds == 2) {
    for (*side = 0; *side < 2 && n < 0; (*side)++) n = reads_carry(P, body, a->opnds[*side], arg);
    (*side)--;
  } else if (a->kind == OP_DYNAMIC_UPDATE_SLICE) {
    *side = 0;
    n = reads_carry(P, body, a->opnds[0], arg);
  }
  /* read through ops before the add: the carry must be a partial sum from
     the first iteration on (its init value one) */
  if (n < 0 || (n > 0 && !psum_of(P, init))) return NULL;
  return psum_of(P, init) || is_zeros(init) ? a : NULL;
}

/* The add of an accumulating carry (op, its operands rewritten): a partial
   sum when the other operand is one in the carry's layout and the init
   value agrees; false (the add then takes the rule of any add, which sums
   what it adds) otherwise.  A dynamic_update_slice that writes a partial
   sum into the carry (a scan's stacked gradients) alike, the update
   covering the carry's split dimensions whole: it is linear in the two
   together. */
static bool accumulate(Part *P, Op *op, Accum *ac) {
  Value *c = op->opnds[ac->side], *v = op->opnds[op->kind == OP_ADD ? 1 - ac->side : 1];
  Psum *ps = psum_of(P, v), *pi = psum_of(P, ac->init);
  if (!ps || !same_data(tiling_of(P, v), ac->t) || !psum_fits(P, ps, ac->t)) return false;
  /* the carry's value: its argument, or (taken as a partial sum from the
     start) what the ops before the add made of it */
  if (ac->ps ? !psum_same(P, psum_of(P, c), ps) || !same_data(tiling_of(P, c), ac->t) : c != ac->arg) return false;
  if (op->kind == OP_DYNAMIC_UPDATE_SLICE) {
    if (op->nopnds != 2 + v->type->rank || (ac->t && !covers_splits(ac->t, op->res[0].type, global_type(P, v))))
      return false;
    for (int i = 2; i < op->nopnds; i++)
      if (psum_of(P, op->opnds[i]) || tiling_of(P, op->opnds[i]) || op->opnds[i] == ac->arg) return false;
  }
  if (pi ? !psum_same(P, pi, ps) || !same_data(tiling_of(P, ac->init), ac->t) : !is_zeros(ac->init)) return false;
  if (!ac->ps) ptrmap_put(&P->psum, ac->arg, ps);
  set_result(P, op, splits(ac->t) ? ac->t : NULL);
  ptrmap_put(&P->psum, &op->res[0], ps);
  ac->ps = ps;
  return true;
}

static bool part_ops(Part *P, Block *blk, Op *first, Op *stop);

/* v (not a partial sum) as a partial sum over the groups of ps: the least
   partition of each group holds v, the others zeros.  (A carry taken as a
   partial sum whose body's value is not one after all: a whole value was
   added, or a constraint between the add and the return summed it.) */
static Value *keep_first(Part *P, Value *v, Psum *ps, Op *at) {
  int64_t *first = xcalloc((size_t)P->npart + 1, sizeof(int64_t));
  for (int p = 0; p < P->npart; p++) first[p] = ps->gid[p] == p;
  Builder b = {P->m, P->body, at, at->loc};
  Value *k = by_partition(P, &b, first);
  xfree(first);
  Value *here = bld_compare(&b, k, bld_const_i(&b, k->type, 1), "EQ");
  Value *mask = bld_broadcast(&b, here, bld_tensor(&b, ET_PRED, v->type->rank, v->type->dims), 0, NULL);
  Value *r = bld_select(&b, mask, v, bld_const_bits(&b, v->type, v->type->elem, 0));
  const SpmdTiling *t = tiling_of(P, v);
  if (t) ptrmap_put(&P->tiling, r, (void *)t);
  ptrmap_put(&P->psum, r, ps);
  return r;
}

/* The ops of region b rewritten (b is the block being rewritten
   meanwhile), then what it returns moved to the layouts t (NULL: whole),
   the values of accumulating carries (ac) as they are. */
static bool part_region(Part *P, Block *b, SpmdTiling **t, Accum **ac) {
  Block *outer = P->body;
  P->body = b;
  Op *term = block_terminator(b);
  bool ok = part_ops(P, b, b->first, term);
  for (int i = 0; ok && i < term->nopnds; i++) {
    Value *v = term->opnds[i];
    if (!(ac && ac[i] && ac[i]->ps)) term->opnds[i] = reshard(P, v, t ? t[i] : NULL, term);
    else if (!psum_same(P, psum_of(P, v), ac[i]->ps) || !same_data(tiling_of(P, v), t[i]))
      term->opnds[i] = keep_first(P, reshard(P, v, t[i], term), ac[i]->ps, term);
  }
  P->body = outer;
  return ok;
}

/* Gives v, a value of the regions, layout t (the shard type). */
static void hold(Part *P, Value *v, const SpmdTiling *t) {
  if (!t) return;
  v->type = local_type(P, v->type, t);
  ptrmap_put(&P->tiling, v, (void *)t);
}

/* The layout propagation gave v, when it splits. */
static SpmdTiling *wanted(Part *P, const Value *v) {
  SpmdTiling *w = v->type->kind == TY_TENSOR && v->type->rank > 0 ? ptrmap_get(&P->want, v) : NULL;
  return splits(w) ? w : NULL;
}

static bool part_while(Part *P, Op *op) {
  int n = op->nres;
  Block *cond = op->regions[0], *body = op->regions[1];
  SpmdTiling **t = ARENA_ARRAY(&P->m->arena, SpmdTiling *, n + 1);
  Accum **ac = ARENA_ARRAY(&P->m->arena, Accum *, n + 1);
  partition_index(P); /* made in the entry block, where every region sees it */
  for (int i = 0; i < n; i++) {
    t[i] = wanted(P, body->args[i]);
    int side = 0;
    Op *a = accum_add(P, op, i, &side);
    Psum *pi = a ? psum_of(P, op->opnds[i]) : NULL;
    if (pi && (!same_data(tiling_of(P, op->opnds[i]), t[i]) || !psum_fits(P, pi, t[i]))) a = NULL;
    if (a) {
      ac[i] = ARENA_NEW(&P->m->arena, Accum);
      *ac[i] = (Accum){op->opnds[i], body->args[i], side, t[i], NULL};
      ptrmap_put(&P->accum, a, ac[i]);
      /* a partial sum given: the carry is one from the start (what the
         body returns is made one again, should it not be) */
      if (pi) {
        ac[i]->ps = pi;
        ptrmap_put(&P->psum, body->args[i], pi);
      }
    } else {
      op->opnds[i] = reshard(P, op->opnds[i], t[i], op);
    }
    hold(P, body->args[i], t[i]);
    hold(P, cond->args[i], t[i]);
  }
  if (!part_region(P, cond, NULL, NULL) || !part_region(P, body, t, ac)) return false;
  for (int i = 0; i < n; i++) {
    /* an accumulating carry's init value: zeros cut locally, a partial sum
       as it is; any other summed and moved */
    if (ac[i] && !(ac[i]->ps && psum_of(P, op->opnds[i]))) op->opnds[i] = reshard(P, op->opnds[i], t[i], op);
    hold(P, &op->res[i], t[i]);
    if (ac[i] && ac[i]->ps) ptrmap_put(&P->psum, &op->res[i], ac[i]->ps);
  }
  return true;
}

static bool part_branches(Part *P, Op *op) {
  int n = op->nres;
  SpmdTiling **t = ARENA_ARRAY(&P->m->arena, SpmdTiling *, n + 1);
  partition_index(P);
  op->opnds[0] = reshard(P, op->opnds[0], NULL, op);
  for (int i = 0; i < n; i++) t[i] = wanted(P, &op->res[i]);
  for (int k = 0; k < op->nregions; k++)
    if (!part_region(P, op->regions[k], t, NULL)) return false;
  for (int i = 0; i < n; i++) hold(P, &op->res[i], t[i]);
  return true;
}

/* The ops of blk from first up to stop rewritten, each by its rule. */
/* Whether op's rule takes the padded pieces of uneven splits: elementwise
   ops (what they compute from the padding is never read), reduce (the
   padding of reduced dimensions masked with the initial value), dot_general
   (that of contracted ones with zeros), transpose, broadcast_in_dim,
   reshape, and slice, dynamic_slice and concatenate of the other
   dimensions (the padding stays at the end of its dimension). */
static bool takes_padded(const Op *op) {
  switch (op->kind) {
  case OP_REDUCE:
  case OP_DOT_GENERAL:
  case OP_TRANSPOSE:
  case OP_BROADCAST_IN_DIM:
  case OP_RESHAPE:
  case OP_SLICE:
  case OP_DYNAMIC_SLICE:
  case OP_CONCATENATE: return true;
  default: return op_has_flag(op->kind, OPF_EW) && !op->nregions;
  }
}

/* The padded operands of an op whose rule does not take them, gathered
   whole (to their true size): the op then runs on them as on any whole
   value, and is counted among the ops computed whole. */
static void gather_padded(Part *P, Op *op) {
  if (takes_padded(op)) return;
  bool any = false;
  for (int i = 0; i < op->nopnds; i++)
    if (padded(P, op->opnds[i])) {
      op->opnds[i] = gather(P, op->opnds[i], op);
      any = true;
    }
  if (any) note_whole(P, op);
}

static bool part_ops(Part *P, Block *blk, Op *first, Op *stop) {
  for (Op *op = first, *next; op && op != stop; op = next) {
    next = op->next;
    if (is_constraint(op)) {
      /* the value in the constraint's layout (one it cannot say: as it is),
         as partial sums where it says unreduced */
      Value *v = op->opnds[0];
      SdySharding *u = ptrmap_get(&P->fixed, &op->res[0]) ? constraint_unreduced(P, op) : NULL;
      if (u) {
        if (!(v = to_partial(P, v, ptrmap_get(&P->want, &op->res[0]), u, op))) {
          error_at(op->loc, "an unreduced sharding constraint over a mesh that is not the program's partitions");
          return false;
        }
      } else if (ptrmap_get(&P->fixed, &op->res[0]) || ptrmap_get(&P->loose, &op->res[0])) {
        v = reshard(P, v, ptrmap_get(&P->want, &op->res[0]), op);
      }
      block_replace_uses(blk, &op->res[0], v);
      op_erase(op);
      continue;
    }
    if (op->kind == OP_CUSTOM_CALL && !is_manual(op)) sum_uses(P, op);
    if (inspect(P, op)) continue;
    gather_padded(P, op);
    if (on_shards(P, op)) continue;
    if (is_manual(op)) {
      if (!manual_call(P, op, true)) return false;
      continue;
    }
    int64_t d = op->kind == OP_CUSTOM_CALL ? placed_on(P->m, op) : -1;
    if (d >= 0) {
      for (int i = 0; i < op->nopnds; i++) op->opnds[i] = gather(P, op->opnds[i], op);
      if (!run_on_one(P, op, d)) return false;
      continue;
    }
    if (region_op(P, op)) {
      if (!(op->kind == OP_WHILE ? part_while(P, op) : part_branches(P, op))) return false;
      continue;
    }
    Accum *ac = ptrmap_get(&P->accum, op);
    if (ac && accumulate(P, op, ac)) continue;
    if (partial_op(P, op)) continue;
    sum_uses(P, op);
    prepare(P, op);
    P->final = NULL;
    if (!elementwise(P, op) && !reduce(P, op) && !dot(P, op) && !movement(P, op) && !reshape(P, op) &&
        !slicing(P, op) && !scatter(P, op) && !window_rules(P, op))
      run_whole(P, op);
    if (op->nres == 1)
      settle(P, P->final ? P->final : &op->res[0], ptrmap_get(&P->want, &op->res[0]));
  }
  return true;
}

/* Whether b or the regions of its ops call a function. */
static bool has_call(const Block *b) {
  for (const Op *op = b->first; op; op = op->next) {
    if (op->kind == OP_CALL) return true;
    for (int k = 0; k < op->nregions; k++)
      if (has_call(op->regions[k])) return true;
  }
  return false;
}

/* The composites in b (JAX's chlo.top_k, ...) made calls of their
   decompositions, as the CPU pipeline makes them later (passes/legalize.c),
   so that they are inlined with the other calls and their ops partitioned
   by the rules; true when one was. */
static bool composites_to_calls(Module *m, Block *b) {
  bool any = false;
  for (Op *op = b->first, *next; op; op = next) {
    next = op->next;
    for (int k = 0; k < op->nregions; k++) any |= composites_to_calls(m, op->regions[k]);
    const char *callee = op->kind == OP_COMPOSITE ? op_attr_str(op, "decomposition") : NULL;
    if (!callee || !module_find_func(m, callee) || op->nres > 64) continue;
    Type *rt[64];
    for (int i = 0; i < op->nres; i++) rt[i] = op->res[i].type;
    Op *call = op_new(m, OP_CALL, op->nopnds, op->opnds, op->nres, rt, op->loc);
    op_set_attr(m, call, "callee", attr_symbol(m, callee));
    block_insert_before(b, op, call);
    for (int i = 0; i < op->nres; i++) block_replace_uses(b, &op->res[i], &call->res[i]);
    op_erase(op);
    any = true;
  }
  return any;
}

/* What the rewrite kept on the side (the module's arena holds the rest). */
static void part_free(Part *P) {
  PtrMap *maps[] = {&P->tiling, &P->whole, &P->want, &P->fixed, &P->loose, &P->cuts,
                    &P->gtype, &P->psum, &P->sums, &P->regions, &P->accum};
  for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) ptrmap_free(maps[i]);
  VEC_FREE(P->inspected_keys);
  VEC_FREE(P->inspected);
}

bool spmd_partition(Module *m, Func *f, int nrep, int npart) {
  Part P = {.m = m, .f = f, .body = f->body, .nrep = nrep > 0 ? nrep : 1, .npart = npart};
  Op *ret = block_terminator(f->body);
  if (!ret || ret->kind != OP_FUNC_RETURN || ret->nopnds != f->nresults) {
    error_at(f->loc, "@%s does not end in a return of its %d results", f->name, f->nresults);
    return false;
  }
  /* calls (and composites, as calls) are inlined first, so that their ops
     run on shards too */
  bool composites = composites_to_calls(m, f->body);
  if ((composites || has_call(f->body)) && pass_inline_calls(m, &(PassOptions){0}) < 0) return false;
  ret = block_terminator(f->body);
  int n = f->body->nargs;
  SpmdTiling **at = ARENA_ARRAY(&m->arena, SpmdTiling *, n + 1);
  SpmdTiling **rt = ARENA_ARRAY(&m->arena, SpmdTiling *, f->nresults + 1);
  bool *given = ARENA_ARRAY(&m->arena, bool, f->nresults + 1);
  SdySharding **aun = ARENA_ARRAY(&m->arena, SdySharding *, n + 1);
  SdySharding **run = ARENA_ARRAY(&m->arena, SdySharding *, f->nresults + 1);
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < (k ? f->nresults : n); i++) {
      char *err = NULL;
      SpmdTiling *t;
      const Attr *dict = k ? (f->res_attrs ? f->res_attrs[i] : NULL) : (f->arg_attrs ? f->arg_attrs[i] : NULL);
      SdySharding plain, *u = unreduced_of(m, dict, &plain);
      if (u && !(err = unreduced_check(&P, u))) {
        t = from_sdy(m, &plain, k ? f->result_types[i] : f->body->args[i]->type, npart, &err);
        (k ? run : aun)[i] = u;
      } else if (!u) {
        t = k ? spmd_result_tiling(m, f, i, npart, &err) : spmd_arg_tiling(m, f, i, npart, &err);
      }
      if (err) {
        error_at(f->loc, "%s %d of @%s: %s", k ? "result" : "parameter", i, f->name, err);
        xfree(err);
        part_free(&P);
        return false;
      }
      const Type *g = k ? f->result_types[i] : f->body->args[i]->type;
      if (t && !divides(&P, g, t, k ? "result" : "parameter", i)) {
        part_free(&P);
        return false;
      }
      if (k) {
        rt[i] = t;
        given[i] = f->res_attrs && has_sharding(f->res_attrs[i]);
      } else {
        at[i] = t;
      }
    }
  P.aun = aun;
  P.run = run;
  propagate(&P, at, rt, given);
  Op *first = f->body->first; /* the program's ops, after the sums below */
  for (int i = 0; i < n; i++) {
    Value *a = f->body->args[i];
    if (at[i]) {
      a->type = local_type(&P, a->type, at[i]);
      ptrmap_put(&P.tiling, a, at[i]);
    }
    /* a partial sum, summed where a use needs the sum */
    if (aun[i]) ptrmap_put(&P.psum, a, psum_unreduced(&P, aun[i]));
  }
  if (!part_ops(&P, f->body, first, ret)) {
    part_free(&P);
    return false;
  }
  /* the results, in their layouts */
  for (int i = 0; i < f->nresults; i++) {
    Value *v = ret->opnds[i];
    if (run[i]) {
      /* partial sums: as they are when they agree */
      ret->opnds[i] = to_partial(&P, v, rt[i], run[i], ret);
    } else {
      ret->opnds[i] = v = summed(&P, v, true);
      SpmdTiling *have = tiling_of(&P, v);
      /* padded pieces leave whole: a result keeps its true size */
      if (!given[i] && padded(&P, v)) ret->opnds[i] = gather(&P, v, ret), have = NULL;
      if (!given[i]) rt[i] = have;
      else if (!same_data(have, rt[i])) ret->opnds[i] = reshard(&P, v, rt[i], ret);
    }
    if (rt[i]) f->result_types[i] = local_type(&P, f->result_types[i], rt[i]);
  }
  /* and those in the regions of the entry's ops and in the functions
     they call (whose values are whole) */
  /* the manual computations in regions, and in the functions called (the
     bodies of those partitioned above too) */
  PtrMap called = {0};
  bool manual_ok = manual_nested(&P, f->body, &called);
  ptrmap_free(&called);
  if (!manual_ok) {
    part_free(&P);
    return false;
  }
  PtrMap seen = {0};
  bool placed = place_nested(&P, f->body, true, &seen);
  ptrmap_free(&seen);
  if (!placed) {
    part_free(&P);
    return false;
  }
  combine_all_reduces(&P);
  /* what each parameter and result is: the plugin reports it */
  if (!f->arg_attrs) f->arg_attrs = ARENA_ARRAY(&m->arena, Attr *, n + 1);
  if (!f->res_attrs) f->res_attrs = ARENA_ARRAY(&m->arena, Attr *, f->nresults + 1);
  for (int i = 0; i < n; i++) {
    Attr *l = aun[i] ? unreduced_attr(&P, aun[i], at[i], f->body->args[i]->type->rank) : layout_attr(m, at[i]);
    f->arg_attrs[i] = dict_set(m, f->arg_attrs[i], "mhlo.sharding", l, SDY_KEY);
  }
  for (int i = 0; i < f->nresults; i++) {
    Attr *l = run[i] ? unreduced_attr(&P, run[i], rt[i], f->result_types[i]->rank) : layout_attr(m, rt[i]);
    f->res_attrs[i] = dict_set(m, f->res_attrs[i], "mhlo.sharding", l, SDY_KEY);
  }
  NamedAttr *na = ARENA_ARRAY(&m->arena, NamedAttr, m->nattrs + 2);
  if (m->nattrs) memcpy(na, m->attrs, sizeof(NamedAttr) * (size_t)m->nattrs);
  StrBuf sum = {0};
  sb_printf(&sum, "%d all_gather, %d all_reduce, %d local cuts", P.n_gather, P.n_reduce, P.n_cut);
  if (P.n_scatter) sb_printf(&sum, ", %d reduce_scatter", P.n_scatter);
  if (P.n_a2a) sb_printf(&sum, ", %d all_to_all", P.n_a2a);
  if (P.n_permute) sb_printf(&sum, ", %d collective_permute", P.n_permute);
  if (P.n_combined) sb_printf(&sum, "; %d all_reduce combined into %d", P.n_combined, P.n_combined_into);
  if (P.nwhole) {
    sb_printf(&sum, "; %d ops computed whole from split operands (", P.nwhole);
    for (int i = 0; i < P.nwhole_kinds; i++) sb_printf(&sum, "%s%s", i ? ", " : "", op_info[P.whole_kinds[i]].name);
    sb_puts(&sum, P.nwhole > P.nwhole_kinds ? ", ...)" : ")");
    int line = 0, col = 0;
    if (P.whole_loc.file >= 0) src_line_col(P.whole_loc, &line, &col);
    if (line > 0) sb_printf(&sum, ", the first at line %d:%d", line, col);
  }
  na[m->nattrs++] = (NamedAttr){MARK, attr_string(m, arena_strndup(&m->arena, sum.data, sum.len), sum.len)};
  if (P.inspected.len)
    na[m->nattrs++] = (NamedAttr){INSPECTED, attr_dict(m, NULL, P.inspected.len, P.inspected_keys.data,
                                                       P.inspected.data)};
  sb_free(&sum);
  m->attrs = na;
  part_free(&P);
  if (!verify_module(m)) {
    error_at(f->loc, "internal error: the partitioned program of @%s does not verify", f->name);
    return false;
  }
  return true;
}
