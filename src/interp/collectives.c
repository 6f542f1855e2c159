/*
 * collectives.c - the process grid: replicas x partitions running in
 * threads, and the ops that talk across it (all_gather, all_reduce,
 * all_to_all, reduce_scatter, collective_broadcast, collective_permute,
 * cross-replica-sum, send/recv, infeed/outfeed, replica_id/partition_id,
 * interpreter.run_parallel).
 *
 * Each process of a grid is a thread with its own Interp.  A collective
 * computes the process group it belongs to (the spec's cross_replica,
 * cross_partition, cross_replica_and_partition and flattened_ids
 * strategies), then meets the other members at a rendezvous: every member
 * deposits its operands and, once all have arrived, reads everybody's.
 * Rendezvous are matched by (op kind, group, n-th use of that pair by the
 * process), so programs that are different functions can still meet, and a
 * loop's next iteration never collides with the previous one.
 *
 * The grid's lock, waits, failure and deadlock handling are the runtime's
 * (runtime/comm.c, xlacrt_grid), which compiled collectives meet through
 * too: one mutex and one condition variable for the whole grid (the
 * interpreter is an oracle, not a performance vehicle).  A process that
 * fails aborts the grid so that nobody waits forever, and when every live
 * process is waiting on something no one can provide, interpreted or
 * compiled, the grid reports a deadlock instead of hanging.  The process
 * groups are computed by the runtime as well (xlacrt_comm_group), so both
 * backends form them the same way.
 *
 * Outside a grid a program runs as replica 0 / partition 0 of a 1x1 grid;
 * its collectives then involve a group of one.
 */
#include "interp/interp.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "xlacrt.h"

/* ------------------------------------------------------------------------ */
/* grid state                                                               */
/* ------------------------------------------------------------------------ */

/* How many times a process has used a (kind, group) rendezvous. */
typedef struct SeqEntry {
  OpKind kind;
  int n;
  int *ids;
  int64_t count;
} SeqEntry;

typedef struct Rdv {
  OpKind kind;
  int n;        /* group size */
  int *ids;     /* flattened process ids, group order */
  int64_t seq;
  int nvals;    /* values deposited per member */
  IVal **vals;  /* n * nvals */
  bool *deposited;
  int arrived, departed;
  struct Rdv *next;
} Rdv;

typedef struct Msg {
  int nvals;
  IVal **vals;
  struct Msg *next;
} Msg;

typedef struct Chan {
  int64_t handle;
  Msg *head, *tail;
  struct Chan *next;
} Chan;

typedef struct Proc {
  Interp I;
  InterpGrid *grid;
  GridProgram *prog;
  IVal **results;
  bool ok;
  VEC(SeqEntry) seqs;
} Proc;

struct InterpGrid {
  int num_replicas, num_partitions, nprocs;
  xlacrt_grid *hub;        /* its lock guards everything below */
  Rdv *rdvs;
  Chan *chans;
  Func **infeed;
  int ninfeed, next_infeed;
  Proc *procs;
  DiagContext diag;        /* the starter's diagnostics hook, for every process */
};

static int self_id(const Interp *I) { return I->replica_id * I->num_partitions + I->partition_id; }

static Proc *self_proc(Interp *I) { return &I->grid->procs[self_id(I)]; }

/* A process that gives up because of someone else's failure stays quiet:
   the root cause has already been reported. */
static bool silent_fail(Interp *I) {
  I->failed = true;
  return false;
}

/* Waits (lock held) until ready(ctx) or the grid aborts.  Returns false on
   abort; when the abort is a deadlock that nobody has reported yet, this
   process reports it at op, so that a deadlock is reported exactly once
   whichever process completed it. */
static bool wait_until(Interp *I, Op *op, int (*ready)(const void *ctx), const void *ctx) {
  InterpGrid *g = I->grid;
  int rc = xlacrt_grid_wait(g->hub, self_id(I), ready, ctx);
  if (rc == XLACRT_COMM_FAILED) {
    xlacrt_grid_unlock(g->hub);
    interp_error(I, op,
                 "deadlock: every process of the %dx%d grid is waiting (mismatched "
                 "collectives, or a recv without a send?)",
                 g->num_replicas, g->num_partitions);
    xlacrt_grid_lock(g->hub);
  }
  return rc == XLACRT_COMM_OK;
}

/* ------------------------------------------------------------------------ */
/* rendezvous                                                               */
/* ------------------------------------------------------------------------ */

static bool same_ids(const int *a, const int *b, int n) {
  return n == 0 || memcmp(a, b, sizeof(int) * (size_t)n) == 0;
}

static int64_t next_seq(Proc *p, OpKind kind, const int *ids, int n) {
  for (int i = 0; i < p->seqs.len; i++) {
    SeqEntry *e = &p->seqs.data[i];
    if (e->kind == kind && e->n == n && same_ids(e->ids, ids, n)) return e->count++;
  }
  SeqEntry e = {kind, n, xmalloc(sizeof(int) * (size_t)(n > 0 ? n : 1)), 1};
  if (n) memcpy(e.ids, ids, sizeof(int) * (size_t)n);
  VEC_PUSH(p->seqs, e);
  return 0;
}

static void rdv_free(Rdv *r) {
  for (int i = 0; i < r->n * r->nvals; i++) ival_release(r->vals[i]);
  xfree(r->vals);
  xfree(r->deposited);
  xfree(r->ids);
  xfree(r);
}

static int rdv_ready(const void *ctx) {
  const Rdv *r = ctx;
  return r->arrived == r->n;
}

/* The fingerprint of a type that the processes of a set compare when they
   meet through a communicator (a token's is 1). */
static int64_t comm_sig(const Type *t) {
  if (t->kind != TY_TENSOR) return 1;
  int64_t h[3] = {t->elem, t->rank, (int64_t)hash_bytes(t->dims, sizeof(int64_t) * (size_t)t->rank, 0)};
  return (int64_t)(hash_bytes(h, sizeof h, 0x696e7470) & INT64_MAX);
}

/* exchange() for a process of a set (I->comm: the processes are not
   threads of this one): the members meet through the set's communicator
   and each takes copies of the others' values, which have its own types
   (the communicator checks the fingerprints).  Everything that can run out
   of memory is allocated before the meeting, so that an unwind never
   leaves it half done. */
static bool exchange_comm(Interp *I, Op *op, const int *ids, int n, int me, int nvals, IVal **vals,
                          IVal **out) {
  xlacrt_comm *c = I->comm;
  size_t nv1 = (size_t)nvals + 1;
  const void **bufs = xcalloc(nv1, sizeof(void *));
  const void **peers = xcalloc((size_t)n * nv1, sizeof(void *));
  int64_t *bytes = xcalloc(2 * nv1, sizeof(int64_t)), *sigs = bytes + nv1;
  int32_t *ids32 = xcalloc((size_t)n, sizeof(int32_t));
  for (int k = 0; k < n; k++) ids32[k] = ids[k];
  for (int j = 0; j < nvals; j++) {
    const IVal *v = vals[j];
    sigs[j] = 1;
    if (v->kind != IV_TENSOR) continue;
    bufs[j] = v->lit->data;
    bytes[j] = v->lit->n * et_bytes(v->lit->type->elem);
    sigs[j] = comm_sig(v->lit->type);
  }
  for (int k = 0; k < n; k++)
    for (int j = 0; j < nvals; j++)
      out[k * nvals + j] = k == me ? ival_retain(vals[j])
                           : vals[j]->kind == IV_TENSOR ? ival_tensor(lit_new(vals[j]->lit->type))
                                                        : ival_token();
  /* keys of their own: never those of the compiled collectives (XLACRT_COLL_*) */
  int rc = c->ops->meet(c, 0x10000 + (int64_t)op->kind, n, ids32, me, nvals, bufs, bytes, sigs, peers);
  if (rc == XLACRT_COMM_OK) {
    for (int k = 0; k < n; k++)
      for (int j = 0; j < nvals && k != me; j++)
        if (bytes[j] > 0) memcpy(out[k * nvals + j]->lit->data, peers[k * nvals + j], (size_t)bytes[j]);
    c->ops->leave(c);
  } else {
    for (int i = 0; i < n * nvals; i++) {
      ival_release(out[i]);
      out[i] = NULL;
    }
    interp_comm_failed(I, c, rc, op->loc);
  }
  xfree(bufs);
  xfree(peers);
  xfree(bytes);
  xfree(ids32);
  return rc == XLACRT_COMM_OK;
}

/* Deposits this process's nvals values for the group ids[0..n) (this
   process is ids[me]) and, once every member has done so, stores new
   references to all members' values in out[k * nvals + j]. */
static bool exchange(Interp *I, Op *op, const int *ids, int n, int me, int nvals, IVal **vals,
                     IVal **out) {
  if (!I->grid && I->comm && n > 1) return exchange_comm(I, op, ids, n, me, nvals, vals, out);
  if (!I->grid) {
    if (n != 1) return interp_error(I, op, "collective group of %d processes outside a grid", n);
    for (int j = 0; j < nvals; j++) out[j] = ival_retain(vals[j]);
    return true;
  }
  InterpGrid *g = I->grid;
  xlacrt_grid_lock(g->hub);
  if (xlacrt_grid_aborted(g->hub)) {
    xlacrt_grid_unlock(g->hub);
    return silent_fail(I);
  }
  int64_t seq = next_seq(self_proc(I), op->kind, ids, n);
  Rdv *r = g->rdvs;
  while (r && !(r->kind == op->kind && r->n == n && r->seq == seq && same_ids(r->ids, ids, n)))
    r = r->next;
  if (!r) {
    r = xcalloc(1, sizeof(Rdv));
    r->kind = op->kind;
    r->n = n;
    r->ids = xmalloc(sizeof(int) * (size_t)n);
    memcpy(r->ids, ids, sizeof(int) * (size_t)n);
    r->seq = seq;
    r->nvals = nvals;
    r->vals = xcalloc((size_t)(n * nvals > 0 ? n * nvals : 1), sizeof(IVal *));
    r->deposited = xcalloc((size_t)n, sizeof(bool));
    r->next = g->rdvs;
    g->rdvs = r;
  }
  if (r->nvals != nvals || r->deposited[me]) {
    xlacrt_grid_abort(g->hub);
    xlacrt_grid_unlock(g->hub);
    return interp_error(I, op,
                        r->nvals != nvals
                            ? "processes of a group passed different operand counts to a collective"
                            : "process joined the same collective twice");
  }
  for (int j = 0; j < nvals; j++) r->vals[me * nvals + j] = ival_retain(vals[j]);
  r->deposited[me] = true;
  r->arrived++;
  if (r->arrived == n) xlacrt_grid_notify(g->hub);
  if (!wait_until(I, op, rdv_ready, r)) {
    /* the grid is torn down by its owner, which frees leftover rendezvous */
    xlacrt_grid_unlock(g->hub);
    return silent_fail(I);
  }
  for (int i = 0; i < n * nvals; i++) out[i] = ival_retain(r->vals[i]);
  if (++r->departed == n) {
    Rdv **pp = &g->rdvs;
    while (*pp != r) pp = &(*pp)->next;
    *pp = r->next;
    rdv_free(r);
  }
  xlacrt_grid_unlock(g->hub);
  return true;
}

/* ------------------------------------------------------------------------ */
/* process groups                                                           */
/* ------------------------------------------------------------------------ */

int64_t interp_channel_id(const Op *op) {
  Attr *a = op_attr(op, "channel_handle");
  if (a && a->kind == ATTR_DICT) return dict_int(a, "handle", 0);
  if (a && a->kind == ATTR_INT) return a->i;
  return op_attr_int(op, "channel_id", 0);
}

static int64_t channel_id(const Op *op) { return interp_channel_id(op); }

static bool flag_attr(const Op *op, const char *name) {
  Attr *a = op_attr(op, name);
  if (!a) return false;
  if (a->kind == ATTR_UNIT) return true;
  if (a->kind == ATTR_BOOL || a->kind == ATTR_INT) return a->i != 0;
  return false;
}

bool interp_id_lists(const Op *op, const char *name, int64_t **data, int *rows, int *cols, const char **err) {
  Attr *a = op_attr(op, name);
  *data = NULL;
  *rows = *cols = 0;
  if (!a) return true;
  if (a->kind == ATTR_DENSE && a->lit && et_is_int(lit_elem(a->lit)) && a->lit->type->rank <= 2) {
    const Literal *l = a->lit;
    int r = l->type->rank;
    *rows = r == 2 ? (int)l->type->dims[0] : 1;
    *cols = r == 2 ? (int)l->type->dims[1] : r == 1 ? (int)l->type->dims[0] : 1;
    if ((int64_t)*rows * *cols != l->n) {
      *err = "malformed";
      return false;
    }
    *data = xmalloc(sizeof(int64_t) * (size_t)(l->n > 0 ? l->n : 1));
    for (int64_t i = 0; i < l->n; i++) (*data)[i] = lit_get_i(l, i);
    return true;
  }
  if (a->kind == ATTR_ARRAY) {
    int c = 0;
    for (int i = 0; i < a->n; i++) {
      int64_t *v;
      int n;
      if (!attr_get_ints(a->elems[i], &v, &n)) {
        *err = "malformed";
        return false;
      }
      if (n > c) c = n;
    }
    *rows = a->n;
    *cols = c;
    *data = xmalloc(sizeof(int64_t) * (size_t)(a->n * c > 0 ? a->n * c : 1));
    for (int i = 0; i < a->n; i++) {
      int64_t *v;
      int n;
      attr_get_ints(a->elems[i], &v, &n);
      for (int j = 0; j < c; j++) (*data)[i * c + j] = j < n ? v[j] : -1;
    }
    return true;
  }
  *err = "must be a 2-D integer tensor";
  return false;
}

/* Reads a list of id lists (dense 2-D tensor, or array of arrays that may
   be ragged) into a rows x cols heap array padded with -1.  An absent
   attribute gives rows = 0. */
static bool read_id_lists(Interp *I, Op *op, const char *name, int64_t **data, int *rows, int *cols) {
  const char *err;
  if (interp_id_lists(op, name, data, rows, cols, &err)) return true;
  if (strcmp(err, "malformed") == 0) return interp_error(I, op, "malformed '%s'", name);
  return interp_error(I, op, "'%s' %s", name, err);
}

bool interp_collective_groups(const Op *op, bool partition_variant, int *strategy, int64_t **groups, int *rows,
                              int *cols, const char **err) {
  int64_t ch = channel_id(op);
  *groups = NULL;
  if (partition_variant) {
    *strategy = ch > 0 ? XLACRT_GROUP_CROSS_PARTITION : XLACRT_GROUP_CROSS_REPLICA;
  } else if (flag_attr(op, "use_global_device_ids")) {
    if (ch <= 0) {
      *err = "use_global_device_ids requires a positive channel id";
      return false;
    }
    *strategy = XLACRT_GROUP_FLATTENED_IDS;
  } else {
    *strategy = ch > 0 ? XLACRT_GROUP_CROSS_REPLICA_AND_PARTITION : XLACRT_GROUP_CROSS_REPLICA;
  }
  const char *e;
  if (interp_id_lists(op, "replica_groups", groups, rows, cols, &e)) return true;
  *err = e[0] == 'm' ? "malformed 'replica_groups'" : "'replica_groups' must be a 2-D integer tensor";
  return false;
}

/* The group of this process for ops that use replica_groups, per the op's
   channel and use_global_device_ids.  `partition_variant` selects the
   cross_partition flavor (all_to_all, collective_broadcast) over
   cross_replica_and_partition (all_gather, all_reduce, reduce_scatter).
   Stores the flattened process ids in ids (capacity: the number of
   processes) and this process's position in *me.  Returns the size, 0 if
   not in any group, -1 on error. */
static int op_group(Interp *I, Op *op, bool partition_variant, int *ids, int *me) {
  int strategy, rows, cols;
  int64_t *rg;
  const char *err;
  if (!interp_collective_groups(op, partition_variant, &strategy, &rg, &rows, &cols, &err)) {
    interp_error(I, op, "%s", err);
    return -1;
  }
  char msg[200];
  int n = xlacrt_comm_group(strategy, rg, rows, cols, I->num_replicas, I->num_partitions, I->replica_id,
                            I->partition_id, ids, me, msg, sizeof msg);
  xfree(rg);
  if (n < 0) interp_error(I, op, "%s", msg);
  return n;
}

/* ------------------------------------------------------------------------ */
/* tensor helpers                                                           */
/* ------------------------------------------------------------------------ */

static bool want_tensors(Interp *I, Op *op, IVal **args, int n) {
  for (int i = 0; i < n; i++)
    if (!args[i] || args[i]->kind != IV_TENSOR)
      return interp_error(I, op, "operand %d must be a tensor", i);
  for (int i = 0; i < op->nres; i++)
    if (op->res[i].type->kind != TY_TENSOR && op->res[i].type->kind != TY_TOKEN)
      return interp_error(I, op, "result %d must be a tensor", i);
  return true;
}

static bool dims_equal(const Type *t, int rank, const int64_t *dims) {
  if (t->kind != TY_TENSOR || t->rank != rank) return false;
  for (int d = 0; d < rank; d++)
    if (t->dims[d] != dims[d]) return false;
  return true;
}

/* Converts element j of src into element i of dst (the spec's
   to_destination_type for promotable types). */
static void conv_elem(Literal *dst, int64_t i, const Literal *src, int64_t j) {
  ElemType d = lit_elem(dst), s = lit_elem(src);
  if (d == s) {
    lit_copy_elem(dst, i, src, j);
    return;
  }
  switch (et_class(d)) {
  case EC_PRED: lit_set_b(dst, i, lit_get_b(src, j)); break;
  case EC_SINT:
  case EC_UINT:
    if (et_is_int(s) || et_is_pred(s)) {
      lit_set_u(dst, i, lit_get_u(src, j));
    } else {
      double v = lit_get_f(src, j);
      lit_set_i(dst, i, v != v ? 0 : v >= 9.2e18 ? INT64_MAX : v <= -9.2e18 ? INT64_MIN : (int64_t)v);
    }
    break;
  case EC_FLOAT:
    if (et_is_signed(s)) lit_set_f(dst, i, (double)lit_get_i(src, j));
    else if (et_is_unsigned(s)) lit_set_f(dst, i, (double)lit_get_u(src, j));
    else lit_set_f(dst, i, lit_get_f(src, j));
    break;
  case EC_COMPLEX: {
    double re, im;
    lit_get_c(src, j, &re, &im);
    lit_set_c(dst, i, re, im);
    break;
  }
  default: break;
  }
}

/* Row-major blocks around one dimension: dims before it, and elements after. */
static void around_dim(const Type *t, int dim, int64_t *outer, int64_t *inner) {
  *outer = *inner = 1;
  for (int d = 0; d < dim; d++) *outer *= t->dims[d];
  for (int d = dim + 1; d < t->rank; d++) *inner *= t->dims[d];
}

/* dst = concatenate(parts, dim); shapes already checked. */
static void concat_parts(Literal *dst, int dim, Literal *const *parts, int n) {
  int64_t outer, inner;
  around_dim(dst->type, dim, &outer, &inner);
  size_t eb = (size_t)et_bytes(lit_elem(dst));
  char *out = dst->data;
  for (int64_t o = 0; o < outer; o++)
    for (int k = 0; k < n; k++) {
      size_t chunk = (size_t)(parts[k]->type->dims[dim] * inner) * eb;
      if (!chunk) continue;
      memcpy(out, (const char *)parts[k]->data + (size_t)o * chunk, chunk);
      out += chunk;
    }
}

/* Part k of n equal parts of src along dim, as a new literal. */
static Literal *split_part(const Literal *src, int dim, int n, int k) {
  Type t = *src->type;
  int64_t *dims = xmalloc(sizeof(int64_t) * (size_t)(t.rank > 0 ? t.rank : 1));
  memcpy(dims, src->type->dims, sizeof(int64_t) * (size_t)t.rank);
  dims[dim] /= n;
  t.dims = dims;
  Literal *l = lit_new(&t);
  xfree(dims);
  int64_t outer, inner;
  around_dim(src->type, dim, &outer, &inner);
  size_t eb = (size_t)et_bytes(lit_elem(src));
  size_t part = (size_t)(l->type->dims[dim] * inner) * eb;
  size_t whole = (size_t)(src->type->dims[dim] * inner) * eb;
  if (part)
    for (int64_t o = 0; o < outer; o++)
      memcpy((char *)l->data + (size_t)o * part, (const char *)src->data + (size_t)o * whole + (size_t)k * part,
             part);
  return l;
}

/* Is the body `return op(arg0, arg1)` for op == kind? */
static bool body_is_binary(const Block *b, OpKind kind) {
  if (!b || b->nargs != 2) return false;
  const Op *op = b->first;
  if (!op || op->kind != kind || op->nopnds != 2 || op->nres != 1) return false;
  const Op *ret = op->next;
  if (!ret || ret->next || ret->nopnds != 1 || ret->opnds[0] != &op->res[0]) return false;
  return (op->opnds[0] == b->args[0] && op->opnds[1] == b->args[1]) ||
         (op->opnds[0] == b->args[1] && op->opnds[1] == b->args[0]);
}

/* acc[i] = acc[i] + x[i], same element types; the spec's add (logical or
   for booleans, wrapping for integers). */
static void add_into(Literal *acc, const Literal *x) {
  ElemType et = lit_elem(acc);
  switch (et_class(et)) {
  case EC_PRED:
    for (int64_t i = 0; i < acc->n; i++) lit_set_b(acc, i, lit_get_b(acc, i) || lit_get_b(x, i));
    break;
  case EC_SINT:
  case EC_UINT:
    for (int64_t i = 0; i < acc->n; i++) lit_set_u(acc, i, lit_get_u(acc, i) + lit_get_u(x, i));
    break;
  case EC_FLOAT:
    if (et == ET_F32) {
      float *a = acc->data;
      const float *b = x->data;
      for (int64_t i = 0; i < acc->n; i++) a[i] += b[i];
    } else if (et == ET_F64) {
      double *a = acc->data;
      const double *b = x->data;
      for (int64_t i = 0; i < acc->n; i++) a[i] += b[i];
    } else {
      for (int64_t i = 0; i < acc->n; i++) lit_set_f(acc, i, lit_get_f(acc, i) + lit_get_f(x, i));
    }
    break;
  case EC_COMPLEX:
    for (int64_t i = 0; i < acc->n; i++) {
      double ar, ai, br, bi;
      lit_get_c(acc, i, &ar, &ai);
      lit_get_c(x, i, &br, &bi);
      lit_set_c(acc, i, ar + br, ai + bi);
    }
    break;
  default: break;
  }
}

/* Folds the group's tensors ins[0..n) elementwise with `body` (NULL: add)
   into out, whose shape matches the inputs and whose element type is the
   reduction type. */
static bool reduce_values(Interp *I, Op *op, Block *body, Literal *const *ins, int n, Literal *out) {
  for (int64_t i = 0; i < out->n; i++) conv_elem(out, i, ins[0], i);
  bool fast = !body || body_is_binary(body, OP_ADD);
  if (fast && out->type->quant == NULL) {
    for (int k = 1; k < n; k++) {
      if (lit_elem(ins[k]) == lit_elem(out)) {
        add_into(out, ins[k]);
      } else {
        Literal *tmp = lit_new(out->type);
        for (int64_t i = 0; i < out->n; i++) conv_elem(tmp, i, ins[k], i);
        add_into(out, tmp);
        lit_free(tmp);
      }
    }
    return true;
  }
  if (body->nargs != 2 || body->args[0]->type->kind != TY_TENSOR ||
      body->args[1]->type->kind != TY_TENSOR || body->args[0]->type->rank != 0 ||
      body->args[1]->type->rank != 0)
    return interp_error(I, op, "reduction body must take two scalar tensors");
  Literal *a = lit_new(body->args[0]->type), *b = lit_new(body->args[1]->type);
  bool ok = true;
  for (int k = 1; k < n && ok; k++)
    for (int64_t i = 0; i < out->n && ok; i++) {
      conv_elem(a, 0, out, i);
      conv_elem(b, 0, ins[k], i);
      Literal *in[2] = {a, b}, *r = NULL;
      ok = interp_run_scalar_region(I, body, 2, in, 1, &r);
      if (ok && r->n != 1) ok = interp_error(I, op, "reduction body must return a scalar");
      if (ok) conv_elem(out, i, r, 0);
      lit_free(r);
    }
  lit_free(a);
  lit_free(b);
  return ok;
}

static void release_all(IVal **v, int n) {
  for (int i = 0; i < n; i++) {
    ival_release(v[i]);
    v[i] = NULL;
  }
}

/* Group of this process for ops that require one; errors when it has none. */
static int required_group(Interp *I, Op *op, bool partition_variant, int *ids, int *me) {
  int n = op_group(I, op, partition_variant, ids, me);
  if (n == 0) {
    interp_error(I, op, "process (replica %d, partition %d) is in no replica group", I->replica_id,
                 I->partition_id);
    return -1;
  }
  return n;
}

static int nprocs_of(const Interp *I) { return I->num_replicas * I->num_partitions; }

/* ------------------------------------------------------------------------ */
/* the ops                                                                  */
/* ------------------------------------------------------------------------ */

/* replica_id / partition_id: the id as a scalar of the result type */
static bool scalar_id(Interp *I, Op *op, IVal **res, int id) {
  if (op->nres != 1 || op->res[0].type->kind != TY_TENSOR || type_num_elements(op->res[0].type) != 1)
    return interp_error(I, op, "result must be a scalar tensor");
  Literal *l = lit_new(op->res[0].type);
  lit_set_u(l, 0, (uint64_t)id);
  res[0] = ival_tensor(l);
  return true;
}

bool interp_REPLICA_ID(Interp *I, Op *op, IVal **args, IVal **res) {
  return scalar_id(I, op, res, I->replica_id);
}

bool interp_PARTITION_ID(Interp *I, Op *op, IVal **args, IVal **res) {
  return scalar_id(I, op, res, I->partition_id);
}

bool interp_ALL_GATHER(Interp *I, Op *op, IVal **args, IVal **res) {
  int nv = op->nopnds;
  if (op->nres != nv) return interp_error(I, op, "expects as many results as operands");
  if (!want_tensors(I, op, args, nv)) return false;
  int64_t dim = op_attr_int(op, "all_gather_dim", -1);
  for (int j = 0; j < nv; j++)
    if (dim < 0 || dim >= ARG_LIT(j)->type->rank)
      return interp_error(I, op, "all_gather_dim %lld is out of range", (long long)dim);
  int *ids = xmalloc(sizeof(int) * (size_t)nprocs_of(I)), me;
  int n = required_group(I, op, false, ids, &me);
  if (n < 0) {
    xfree(ids);
    return false;
  }
  IVal **all = xcalloc((size_t)(n * nv > 0 ? n * nv : 1), sizeof(IVal *));
  bool ok = exchange(I, op, ids, n, me, nv, args, all);
  Literal **parts = xcalloc((size_t)n, sizeof(Literal *));
  for (int j = 0; j < nv && ok; j++) {
    const Type *ot = ARG_LIT(j)->type;
    int64_t *dims = xmalloc(sizeof(int64_t) * (size_t)(ot->rank > 0 ? ot->rank : 1));
    memcpy(dims, ot->dims, sizeof(int64_t) * (size_t)ot->rank);
    dims[dim] = 0;
    for (int k = 0; k < n && ok; k++) {
      parts[k] = all[k * nv + j]->lit;
      /* operands of different processes may differ only along dim */
      bool same = parts[k]->type->rank == ot->rank && lit_elem(parts[k]) == lit_elem(ARG_LIT(j));
      for (int d = 0; same && d < ot->rank; d++)
        same = d == dim || parts[k]->type->dims[d] == ot->dims[d];
      if (!same) ok = interp_error(I, op, "operand %d has different types on different processes", j);
      else dims[dim] += parts[k]->type->dims[dim];
    }
    const Type *rt = op->res[j].type;
    if (ok && (!dims_equal(rt, ot->rank, dims) || rt->elem != ot->elem))
      ok = interp_error(I, op, "result %d type does not match the gathered shape", j);
    if (ok) {
      Literal *l = lit_new(rt);
      concat_parts(l, (int)dim, parts, n);
      res[j] = ival_tensor(l);
    }
    xfree(dims);
  }
  xfree(parts);
  release_all(all, n * nv);
  xfree(all);
  xfree(ids);
  return ok;
}

/* all_reduce, cross-replica-sum and the reduction half of reduce_scatter:
   reduces operand j over the group into a literal of the operand's shape and
   element type `et` (the reduction type). */
static bool group_reduce(Interp *I, Op *op, Block *body, IVal **args, int nv, const int *ids, int n,
                         int me, ElemType *ets, Literal **out) {
  IVal **all = xcalloc((size_t)(n * nv > 0 ? n * nv : 1), sizeof(IVal *));
  bool ok = exchange(I, op, ids, n, me, nv, args, all);
  Literal **ins = xcalloc((size_t)n, sizeof(Literal *));
  for (int j = 0; j < nv && ok; j++) {
    const Type *ot = ARG_LIT(j)->type;
    for (int k = 0; k < n && ok; k++) {
      ins[k] = all[k * nv + j]->lit;
      if (!type_same_shape(ins[k]->type, ot))
        ok = interp_error(I, op, "operand %d has different shapes on different processes", j);
    }
    if (!ok) break;
    /* a stack copy: the module arena is not safe to grow from grid threads */
    Type t = *ot;
    t.elem = ets[j];
    t.quant = NULL;
    out[j] = lit_new(&t);
    ok = reduce_values(I, op, body, ins, n, out[j]);
  }
  xfree(ins);
  for (int i = 0; i < n * nv; i++) ival_release(all[i]);
  xfree(all);
  if (!ok)
    for (int j = 0; j < nv; j++) {
      lit_free(out[j]);
      out[j] = NULL;
    }
  return ok;
}

static bool all_reduce_common(Interp *I, Op *op, IVal **args, IVal **res, Block *body) {
  int nv = op->nopnds;
  if (op->nres != nv) return interp_error(I, op, "expects as many results as operands");
  if (!want_tensors(I, op, args, nv)) return false;
  ElemType *ets = xcalloc((size_t)(nv > 0 ? nv : 1), sizeof(ElemType));
  for (int j = 0; j < nv; j++) {
    const Type *rt = op->res[j].type;
    if (rt->kind != TY_TENSOR || !type_same_shape(rt, ARG_LIT(j)->type)) {
      xfree(ets);
      return interp_error(I, op, "result %d must have the shape of operand %d", j, j);
    }
    ets[j] = rt->elem;
  }
  int *ids = xmalloc(sizeof(int) * (size_t)nprocs_of(I)), me;
  int n = required_group(I, op, false, ids, &me);
  Literal **out = xcalloc((size_t)(nv > 0 ? nv : 1), sizeof(Literal *));
  bool ok = n > 0 && group_reduce(I, op, body, args, nv, ids, n, me, ets, out);
  for (int j = 0; j < nv && ok; j++) res[j] = ival_tensor(out[j]);
  xfree(out);
  xfree(ids);
  xfree(ets);
  return ok;
}

bool interp_ALL_REDUCE(Interp *I, Op *op, IVal **args, IVal **res) {
  if (op->nregions < 1) return interp_error(I, op, "missing reduction computation");
  return all_reduce_common(I, op, args, res, op->regions[0]);
}

bool interp_CROSS_REPLICA_SUM(Interp *I, Op *op, IVal **args, IVal **res) {
  return all_reduce_common(I, op, args, res, op->nregions ? op->regions[0] : NULL);
}

bool interp_REDUCE_SCATTER(Interp *I, Op *op, IVal **args, IVal **res) {
  if (op->nregions < 1) return interp_error(I, op, "missing reduction computation");
  int nv = op->nopnds;
  if (op->nres != nv) return interp_error(I, op, "expects as many results as operands");
  if (!want_tensors(I, op, args, nv)) return false;
  int64_t dim = op_attr_int(op, "scatter_dimension", -1);
  for (int j = 0; j < nv; j++)
    if (dim < 0 || dim >= ARG_LIT(j)->type->rank)
      return interp_error(I, op, "scatter_dimension %lld is out of range", (long long)dim);
  int *ids = xmalloc(sizeof(int) * (size_t)nprocs_of(I)), me;
  int n = required_group(I, op, false, ids, &me);
  bool ok = n > 0;
  ElemType *ets = xcalloc((size_t)(nv > 0 ? nv : 1), sizeof(ElemType));
  for (int j = 0; j < nv && ok; j++) {
    const Type *ot = ARG_LIT(j)->type, *rt = op->res[j].type;
    if (ot->dims[dim] % n != 0) {
      ok = interp_error(I, op, "dimension %lld of size %lld does not split into %d parts",
                        (long long)dim, (long long)ot->dims[dim], n);
      break;
    }
    bool shape_ok = rt->kind == TY_TENSOR && rt->rank == ot->rank;
    for (int d = 0; shape_ok && d < ot->rank; d++)
      shape_ok = rt->dims[d] == (d == dim ? ot->dims[d] / n : ot->dims[d]);
    if (!shape_ok) ok = interp_error(I, op, "result %d type does not match the scattered shape", j);
    else ets[j] = rt->elem;
  }
  Literal **out = xcalloc((size_t)(nv > 0 ? nv : 1), sizeof(Literal *));
  if (ok) ok = group_reduce(I, op, op->regions[0], args, nv, ids, n, me, ets, out);
  for (int j = 0; j < nv && ok; j++) {
    res[j] = ival_tensor(split_part(out[j], (int)dim, n, me));
    lit_free(out[j]);
  }
  xfree(out);
  xfree(ets);
  xfree(ids);
  return ok;
}

bool interp_ALL_TO_ALL(Interp *I, Op *op, IVal **args, IVal **res) {
  int nv = op->nopnds;
  if (op->nres != nv) return interp_error(I, op, "expects as many results as operands");
  if (!want_tensors(I, op, args, nv)) return false;
  int64_t sd = op_attr_int(op, "split_dimension", -1), cd = op_attr_int(op, "concat_dimension", -1);
  int64_t sc = op_attr_int(op, "split_count", -1);
  for (int j = 0; j < nv; j++) {
    const Type *ot = ARG_LIT(j)->type;
    if (sd < 0 || sd >= ot->rank) return interp_error(I, op, "split_dimension is out of range");
    if (cd < 0 || cd >= ot->rank) return interp_error(I, op, "concat_dimension is out of range");
    if (sc <= 0 || ot->dims[sd] % sc != 0)
      return interp_error(I, op, "split_count %lld does not divide dimension %lld", (long long)sc,
                          (long long)sd);
  }
  int *ids = xmalloc(sizeof(int) * (size_t)nprocs_of(I)), me;
  int n = required_group(I, op, true, ids, &me);
  if (n < 0) {
    xfree(ids);
    return false;
  }
  if (n != sc) {
    xfree(ids);
    return interp_error(I, op, "split_count %lld differs from the group size %d", (long long)sc, n);
  }
  IVal **all = xcalloc((size_t)(n * nv > 0 ? n * nv : 1), sizeof(IVal *));
  bool ok = exchange(I, op, ids, n, me, nv, args, all);
  Literal **parts = xcalloc((size_t)n, sizeof(Literal *));
  for (int j = 0; j < nv && ok; j++) {
    const Type *ot = ARG_LIT(j)->type;
    for (int k = 0; k < n && ok; k++)
      if (!type_equal(all[k * nv + j]->lit->type, ot))
        ok = interp_error(I, op, "operand %d has different types on different processes", j);
    if (!ok) break;
    int64_t *dims = xmalloc(sizeof(int64_t) * (size_t)(ot->rank > 0 ? ot->rank : 1));
    memcpy(dims, ot->dims, sizeof(int64_t) * (size_t)ot->rank);
    dims[sd] /= sc;
    dims[cd] *= sc;
    const Type *rt = op->res[j].type;
    if (!dims_equal(rt, ot->rank, dims) || rt->elem != ot->elem)
      ok = interp_error(I, op, "result %d type does not match the all_to_all shape", j);
    xfree(dims);
    if (!ok) break;
    for (int k = 0; k < n; k++) parts[k] = split_part(all[k * nv + j]->lit, (int)sd, n, me);
    Literal *l = lit_new(rt);
    concat_parts(l, (int)cd, parts, n);
    for (int k = 0; k < n; k++) lit_free(parts[k]);
    res[j] = ival_tensor(l);
  }
  xfree(parts);
  for (int i = 0; i < n * nv; i++) ival_release(all[i]);
  xfree(all);
  xfree(ids);
  return ok;
}

bool interp_COLLECTIVE_BROADCAST(Interp *I, Op *op, IVal **args, IVal **res) {
  bool dynamic_root = flag_attr(op, "has_dynamic_root");
  int nv = op->nopnds - (dynamic_root ? 1 : 0);
  if (nv < 1 || op->nres != nv) return interp_error(I, op, "wrong number of operands or results");
  if (!want_tensors(I, op, args, op->nopnds)) return false;
  for (int j = 0; j < nv; j++)
    if (!type_equal(op->res[j].type, ARG_LIT(j)->type))
      return interp_error(I, op, "result %d must have the type of operand %d", j, j);
  int *ids = xmalloc(sizeof(int) * (size_t)nprocs_of(I)), me;
  int n = op_group(I, op, true, ids, &me);
  if (n < 0) {
    xfree(ids);
    return false;
  }
  if (n == 0) {
    /* not in any group: zeros */
    for (int j = 0; j < nv; j++) res[j] = ival_new_tensor(op->res[j].type);
    xfree(ids);
    return true;
  }
  int64_t *roots = xcalloc((size_t)nv, sizeof(int64_t));
  bool ok = true;
  if (dynamic_root) {
    const Literal *r = ARG_LIT(nv);
    if (!et_is_int(lit_elem(r)) || r->n != nv)
      ok = interp_error(I, op, "root operand must hold %d integers", nv);
    for (int j = 0; j < nv && ok; j++) {
      roots[j] = lit_get_i(r, j);
      if (roots[j] < 0 || roots[j] >= n)
        ok = interp_error(I, op, "root index %lld is out of range for a group of %d", (long long)roots[j],
                          n);
    }
  }
  IVal **all = xcalloc((size_t)(n * nv), sizeof(IVal *));
  if (ok) ok = exchange(I, op, ids, n, me, nv, args, all);
  for (int j = 0; j < nv && ok; j++) {
    IVal *src = all[roots[j] * nv + j];
    if (!type_equal(src->lit->type, op->res[j].type))
      ok = interp_error(I, op, "operand %d has different types on different processes", j);
    else
      res[j] = ival_retain(src);
  }
  for (int i = 0; i < n * nv; i++) ival_release(all[i]);
  xfree(all);
  xfree(roots);
  xfree(ids);
  return ok;
}

bool interp_COLLECTIVE_PERMUTE(Interp *I, Op *op, IVal **args, IVal **res) {
  if (op->nopnds < 1 || op->nres != 1) return interp_error(I, op, "expects one operand and one result");
  if (!want_tensors(I, op, args, 1)) return false;
  if (!type_equal(op->res[0].type, ARG_LIT(0)->type))
    return interp_error(I, op, "result must have the type of the operand");
  bool cross_partition = channel_id(op) > 0;
  int64_t *pairs;
  int rows, cols;
  if (!read_id_lists(I, op, "source_target_pairs", &pairs, &rows, &cols)) return false;
  if (rows > 0 && cols != 2) {
    xfree(pairs);
    return interp_error(I, op, "source_target_pairs must have two columns");
  }
  /* the group: every process named by a pair, in ascending order */
  int *ids = xmalloc(sizeof(int) * (size_t)nprocs_of(I)), me, src_pos;
  char msg[200];
  int n = xlacrt_comm_permute_group(cross_partition, pairs, rows, I->num_replicas, I->num_partitions,
                                    I->replica_id, I->partition_id, ids, &me, &src_pos, msg, sizeof msg);
  bool ok = n >= 0 || interp_error(I, op, "%s", msg);
  if (ok && me < 0) {
    res[0] = ival_new_tensor(op->res[0].type);
  } else if (ok) {
    IVal **all = xcalloc((size_t)n, sizeof(IVal *));
    ok = exchange(I, op, ids, n, me, 1, args, all);
    if (ok) {
      if (src_pos < 0)
        res[0] = ival_new_tensor(op->res[0].type);
      else if (!type_equal(all[src_pos]->lit->type, op->res[0].type))
        ok = interp_error(I, op, "operand has different types on different processes");
      else
        res[0] = ival_retain(all[src_pos]);
    }
    for (int k = 0; k < n; k++) ival_release(all[k]);
    xfree(all);
  }
  xfree(ids);
  xfree(pairs);
  return ok;
}

/* ---- send / recv: FIFO channels keyed by channel handle ---- */

static Chan *get_chan(InterpGrid *g, int64_t handle) {
  for (Chan *c = g->chans; c; c = c->next)
    if (c->handle == handle) return c;
  Chan *c = xcalloc(1, sizeof(Chan));
  c->handle = handle;
  c->next = g->chans;
  g->chans = c;
  return c;
}

static int chan_ready(const void *ctx) { return ((const Chan *)ctx)->head != NULL; }

bool interp_SEND(Interp *I, Op *op, IVal **args, IVal **res) {
  if (op->nopnds < 1 || args[op->nopnds - 1]->kind != IV_TOKEN)
    return interp_error(I, op, "the last operand must be a token");
  int nv = op->nopnds - 1;
  if (I->grid) {
    InterpGrid *g = I->grid;
    Msg *m = xcalloc(1, sizeof(Msg));
    m->nvals = nv;
    m->vals = xcalloc((size_t)(nv > 0 ? nv : 1), sizeof(IVal *));
    for (int j = 0; j < nv; j++) m->vals[j] = ival_retain(args[j]);
    xlacrt_grid_lock(g->hub);
    Chan *c = get_chan(g, channel_id(op));
    if (c->tail) c->tail->next = m;
    else c->head = m;
    c->tail = m;
    xlacrt_grid_notify(g->hub);
    xlacrt_grid_unlock(g->hub);
  } else if (I->comm) { /* a process of a set: through its communicator */
    size_t nv1 = (size_t)nv + 1;
    const void **bufs = xcalloc(nv1, sizeof(void *));
    int64_t *bytes = xcalloc(2 * nv1, sizeof(int64_t)), *sigs = bytes + nv1;
    for (int j = 0; j < nv; j++) {
      sigs[j] = 1;
      if (args[j]->kind != IV_TENSOR) continue;
      bufs[j] = args[j]->lit->data;
      bytes[j] = args[j]->lit->n * et_bytes(args[j]->lit->type->elem);
      sigs[j] = comm_sig(args[j]->lit->type);
    }
    int rc = I->comm->ops->send(I->comm, channel_id(op), nv, bufs, bytes, sigs);
    xfree(bufs);
    xfree(bytes);
    if (rc != XLACRT_COMM_OK) {
      interp_comm_failed(I, I->comm, rc, op->loc);
      return false;
    }
  }
  /* outside a grid or set nobody can receive: the values are dropped */
  res[0] = ival_token();
  return true;
}

/* recv for a process of a set: from its communicator, into new values of
   the result types (allocated first: an unwind never interrupts it). */
static bool recv_comm(Interp *I, Op *op, int nv, IVal **res) {
  size_t nv1 = (size_t)nv + 1;
  void **bufs = xcalloc(nv1, sizeof(void *));
  int64_t *bytes = xcalloc(2 * nv1, sizeof(int64_t)), *sigs = bytes + nv1;
  for (int j = 0; j < nv; j++) {
    const Type *t = op->res[j].type;
    res[j] = t->kind == TY_TENSOR ? ival_tensor(lit_new(t)) : ival_token();
    sigs[j] = comm_sig(t);
    if (t->kind != TY_TENSOR) continue;
    bufs[j] = res[j]->lit->data;
    bytes[j] = res[j]->lit->n * et_bytes(t->elem);
  }
  int rc = I->comm->ops->recv(I->comm, channel_id(op), nv, bufs, bytes, sigs);
  xfree(bufs);
  xfree(bytes);
  if (rc != XLACRT_COMM_OK) {
    for (int j = 0; j < nv; j++) {
      ival_release(res[j]);
      res[j] = NULL;
    }
    interp_comm_failed(I, I->comm, rc, op->loc);
    return false;
  }
  res[nv] = ival_token();
  return true;
}

bool interp_RECV(Interp *I, Op *op, IVal **args, IVal **res) {
  int nv = op->nres - 1;
  if (nv < 0 || op->res[nv].type->kind != TY_TOKEN)
    return interp_error(I, op, "the last result must be a token");
  if (!I->grid && I->comm) return recv_comm(I, op, nv, res);
  if (!I->grid) return interp_error(I, op, "recv outside a process grid: nothing can be sent to it");
  InterpGrid *g = I->grid;
  xlacrt_grid_lock(g->hub);
  Chan *c = get_chan(g, channel_id(op));
  if (!wait_until(I, op, chan_ready, c)) {
    xlacrt_grid_unlock(g->hub);
    return silent_fail(I);
  }
  Msg *m = c->head;
  c->head = m->next;
  if (!c->head) c->tail = NULL;
  xlacrt_grid_unlock(g->hub);
  bool ok = m->nvals == nv;
  if (!ok) interp_error(I, op, "recv expects %d values but the matching send passed %d", nv, m->nvals);
  for (int j = 0; j < nv && ok; j++) {
    const Type *t = op->res[j].type;
    bool match = m->vals[j]->kind == IV_TENSOR ? type_equal(m->vals[j]->lit->type, t)
                                                : (m->vals[j]->kind == IV_TOKEN) == (t->kind == TY_TOKEN);
    if (!match) ok = interp_error(I, op, "value %d received has a different type than result %d", j, j);
  }
  for (int j = 0; j < nv; j++) {
    if (ok) res[j] = m->vals[j];
    else ival_release(m->vals[j]);
  }
  if (ok) res[nv] = ival_token();
  xfree(m->vals);
  xfree(m);
  return ok;
}

/* ---- infeed / outfeed ---- */

bool interp_INFEED(Interp *I, Op *op, IVal **args, IVal **res) {
  int nv = op->nres - 1;
  if (nv < 0 || op->res[nv].type->kind != TY_TOKEN)
    return interp_error(I, op, "the last result must be a token");
  Func *f = NULL;
  if (I->grid) {
    xlacrt_grid_lock(I->grid->hub);
    if (I->grid->next_infeed < I->grid->ninfeed) f = I->grid->infeed[I->grid->next_infeed++];
    xlacrt_grid_unlock(I->grid->hub);
  }
  if (!f) return interp_error(I, op, "infeed queue is empty");
  if (f->nresults != nv || f->body->nargs != 0)
    return interp_error(I, op, "infeed function @%s must take no arguments and return %d values",
                        f->name, nv);
  IVal **out = xcalloc((size_t)(nv > 0 ? nv : 1), sizeof(IVal *));
  bool ok = interp_call(I, f, 0, NULL, out);
  for (int j = 0; j < nv && ok; j++) {
    const Type *t = op->res[j].type;
    if (out[j]->kind != IV_TENSOR || !type_equal(out[j]->lit->type, t))
      ok = interp_error(I, op, "infeed value %d from @%s does not have the result type", j, f->name);
  }
  for (int j = 0; j < nv; j++) {
    if (ok) res[j] = out[j];
    else ival_release(out[j]);
  }
  if (ok) res[nv] = ival_token();
  xfree(out);
  return ok;
}

bool interp_OUTFEED(Interp *I, Op *op, IVal **args, IVal **res) {
  if (op->nopnds < 1 || args[op->nopnds - 1]->kind != IV_TOKEN)
    return interp_error(I, op, "the last operand must be a token");
  /* the host side of an outfeed is not modelled: the values are consumed */
  res[0] = ival_token();
  return true;
}

/* ------------------------------------------------------------------------ */
/* running a grid                                                           */
/* ------------------------------------------------------------------------ */

/* The communicator of a process of a set whose execution has failed
   already (compiled code goes on after a failed host call, its values
   garbage): its collectives abort instead of handing the garbage to the
   other processes, which would take it for this one's part and succeed.
   They learn of the failure when the execution ends (the set's `end`). */
static int aborted_meet(xlacrt_comm *c, int64_t key, int32_t n, const int32_t *ids, int32_t me, int32_t nbufs,
                        const void *const *bufs, const int64_t *bytes, const int64_t *sigs, const void **peers) {
  return XLACRT_COMM_ABORTED;
}
static void aborted_leave(xlacrt_comm *c) {}
static int aborted_send(xlacrt_comm *c, int64_t channel, int32_t nbufs, const void *const *bufs, const int64_t *bytes,
                        const int64_t *sigs) {
  return XLACRT_COMM_ABORTED;
}
static int aborted_recv(xlacrt_comm *c, int64_t channel, int32_t nbufs, void *const *bufs, const int64_t *bytes,
                        const int64_t *sigs) {
  return XLACRT_COMM_ABORTED;
}
static const xlacrt_comm_ops aborted_ops = {aborted_meet, aborted_leave, aborted_send, aborted_recv, NULL};

xlacrt_comm *interp_comm(Interp *I) {
  if (I->grid) return xlacrt_grid_comm(I->grid->hub, self_id(I));
  if (!I->comm) return xlacrt_comm_self();
  if (!I->failed) return I->comm;
  static _Thread_local xlacrt_comm aborted;
  aborted = *I->comm;
  aborted.ops = &aborted_ops;
  return &aborted;
}

void interp_comm_failed(Interp *I, xlacrt_comm *c, int rc, SrcLoc at) {
  /* an abort is another process's failure, which that process reports */
  if (rc == XLACRT_COMM_FAILED) error_at(at, "runtime error: %s", c->msg);
  I->failed = true;
}

static void *proc_main(void *arg) {
  Proc *p = arg;
  InterpGrid *g = p->grid;
  Func *f = p->prog->func;
  diag_context_set(g->diag);
  /* running out of memory in this process fails it (and so the grid)
     instead of the whole program; see OomGuard */
  OomGuard guard;
  oom_push(&guard);
  if (setjmp(guard.jb) == 0) {
    p->results = xcalloc((size_t)(f->nresults > 0 ? f->nresults : 1), sizeof(IVal *));
    if (p->prog->run)
      p->ok = p->prog->run(p->prog->ctx, &p->I, p->prog->nargs, p->prog->args, p->results);
    else
      p->ok = interp_call(&p->I, f, p->prog->nargs, p->prog->args, p->results);
  } else {
    oom_report(&guard);
    p->I.failed = true;
    p->ok = false;
  }
  oom_pop(&guard);
  /* (memory may have run out while this thread held the grid's lock:
     finishing copes with that) */
  xlacrt_grid_finish(g->hub, (int)(p - g->procs), p->ok);
  return NULL;
}

static bool run_grid(Interp *parent, Op *op, int nr, int np, GridProgram *programs, Func **infeed,
                     int ninfeed, IVal ***results) {
  int n = nr * np;
  for (int i = 0; i < n; i++) {
    results[i] = NULL;
    if (programs[i].nargs != programs[i].func->body->nargs)
      return interp_error(parent, op, "@%s takes %d arguments, %d given", programs[i].func->name,
                          programs[i].func->body->nargs, programs[i].nargs);
  }
  InterpGrid g;
  memset(&g, 0, sizeof g);
  g.num_replicas = nr;
  g.num_partitions = np;
  g.nprocs = n;
  g.infeed = infeed;
  g.ninfeed = ninfeed;
  g.diag = diag_context_get();
  g.hub = xlacrt_grid_create(nr, np);
  if (!g.hub) return interp_error(parent, op, "out of memory: cannot set up a %dx%d grid", nr, np);
  g.procs = xcalloc((size_t)n, sizeof(Proc));
  pthread_t *th = xcalloc((size_t)n, sizeof(pthread_t));
  bool *started = xcalloc((size_t)n, sizeof(bool));
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  /* deep region nesting recurses; give each process a roomy stack */
  pthread_attr_setstacksize(&attr, (size_t)64 << 20);
  bool ok = true;
  for (int i = 0; i < n; i++) {
    Proc *p = &g.procs[i];
    p->I = *parent;
    p->I.grid = &g;
    p->I.replica_id = i / np;
    p->I.partition_id = i % np;
    p->I.num_replicas = nr;
    p->I.num_partitions = np;
    p->I.checks_run = p->I.checks_failed = 0;
    p->I.failed = false;
    p->grid = &g;
    p->prog = &programs[i];
  }
  for (int i = 0; i < n; i++) {
    if (pthread_create(&th[i], &attr, proc_main, &g.procs[i]) != 0) {
      ok = interp_error(parent, op, "cannot start a thread for process %d", i);
      for (int k = i; k < n; k++) xlacrt_grid_finish(g.hub, k, 0);
      break;
    }
    started[i] = true;
  }
  for (int i = 0; i < n; i++)
    if (started[i]) pthread_join(th[i], NULL);
  pthread_attr_destroy(&attr);
  for (int i = 0; i < n; i++) {
    Proc *p = &g.procs[i];
    parent->checks_run += p->I.checks_run;
    parent->checks_failed += p->I.checks_failed;
    if (started[i] && !p->ok) ok = false;
  }
  for (int i = 0; i < n; i++) {
    Proc *p = &g.procs[i];
    if (ok) {
      results[i] = p->results;
    } else if (p->results) {
      if (p->ok)
        for (int k = 0; k < p->prog->func->nresults; k++) ival_release(p->results[k]);
      xfree(p->results);
    }
    for (int k = 0; k < p->seqs.len; k++) xfree(p->seqs.data[k].ids);
    VEC_FREE(p->seqs);
  }
  while (g.rdvs) {
    Rdv *r = g.rdvs;
    g.rdvs = r->next;
    rdv_free(r);
  }
  while (g.chans) {
    Chan *c = g.chans;
    g.chans = c->next;
    while (c->head) {
      Msg *m = c->head;
      c->head = m->next;
      for (int j = 0; j < m->nvals; j++) ival_release(m->vals[j]);
      xfree(m->vals);
      xfree(m);
    }
    xfree(c);
  }
  xlacrt_grid_destroy(g.hub);
  xfree(g.procs);
  xfree(th);
  xfree(started);
  if (!ok) parent->failed = true;
  return ok;
}

bool interp_run_grid(Interp *parent, int num_replicas, int num_partitions, GridProgram *programs,
                     IVal ***results) {
  if (num_replicas < 1 || num_partitions < 1 || (int64_t)num_replicas * num_partitions > 4096)
    return interp_error(parent, NULL, "bad grid size %dx%d", num_replicas, num_partitions);
  return run_grid(parent, NULL, num_replicas, num_partitions, programs, NULL, 0, results);
}

static Func *symbol_func(Interp *I, Op *op, const Attr *a) {
  if (!a || (a->kind != ATTR_SYMBOL && a->kind != ATTR_STRING) || !a->s) {
    interp_error(I, op, "expected a function symbol");
    return NULL;
  }
  const char *name = a->s[0] == '@' ? a->s + 1 : a->s;
  Func *f = module_find_func(I->module, name);
  if (!f) interp_error(I, op, "unknown function @%s", name);
  return f;
}

bool interp_INTERP_RUN_PARALLEL(Interp *I, Op *op, IVal **args, IVal **res) {
  return interp_run_parallel(I, op, args, res, NULL, NULL);
}

bool interp_run_parallel(Interp *I, Op *op, IVal **args, IVal **res, void (*bind)(void *user, GridProgram *p),
                         void *user) {
  Attr *pa = op_attr(op, "programs");
  if (!pa || pa->kind != ATTR_ARRAY || pa->n < 1)
    return interp_error(I, op, "'programs' must be a non-empty array of arrays of functions");
  int nr = pa->n, np = -1;
  for (int r = 0; r < nr; r++) {
    Attr *row = pa->elems[r];
    if (row->kind != ATTR_ARRAY || row->n < 1 || (np >= 0 && row->n != np))
      return interp_error(I, op, "'programs' rows must be non-empty arrays of the same length");
    np = row->n;
  }
  if ((int64_t)nr * np > 4096) return interp_error(I, op, "grid too large");
  int n = nr * np;
  Attr *ia = op_attr(op, "infeed");
  int ninfeed = 0;
  if (ia && ia->kind != ATTR_ARRAY) return interp_error(I, op, "'infeed' must be an array of functions");
  Func **infeed = xcalloc((size_t)(ia && ia->n > 0 ? ia->n : 1), sizeof(Func *));
  GridProgram *progs = xcalloc((size_t)n, sizeof(GridProgram));
  IVal ***results = xcalloc((size_t)n, sizeof(IVal **));
  bool ok = true;
  for (int i = 0; ia && i < ia->n && ok; i++) {
    infeed[i] = symbol_func(I, op, ia->elems[i]);
    ok = infeed[i] != NULL;
    ninfeed++;
  }
  int next_arg = 0, nresults = 0;
  for (int i = 0; i < n && ok; i++) {
    Func *f = symbol_func(I, op, pa->elems[i / np]->elems[i % np]);
    if (!f) {
      ok = false;
      break;
    }
    progs[i].func = f;
    progs[i].nargs = f->body->nargs;
    progs[i].args = args + next_arg;
    if (bind) bind(user, &progs[i]);
    next_arg += f->body->nargs;
    nresults += f->nresults;
    if (next_arg > op->nopnds) ok = interp_error(I, op, "too few operands for the programs' arguments");
  }
  if (ok && next_arg != op->nopnds)
    ok = interp_error(I, op, "%d operands given but the programs take %d arguments", op->nopnds, next_arg);
  if (ok && nresults != op->nres)
    ok = interp_error(I, op, "%d results declared but the programs return %d", op->nres, nresults);
  if (ok) ok = run_grid(I, op, nr, np, progs, infeed, ninfeed, results);
  if (ok) {
    int k = 0;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < progs[i].func->nresults; j++) res[k++] = results[i][j];
      xfree(results[i]);
    }
  }
  xfree(results);
  xfree(progs);
  xfree(infeed);
  return ok;
}

/* Like all_reduce, but only each group's root keeps the reduced value; the
   other members (and processes in no group) get zeros. */
bool interp_COLLECTIVE_REDUCE(Interp *I, Op *op, IVal **args, IVal **res) {
  if (op->nregions < 1) return interp_error(I, op, "missing reduction computation");
  bool dynamic_root = flag_attr(op, "has_dynamic_root");
  int nv = op->nopnds - (dynamic_root ? 1 : 0);
  if (nv < 1 || op->nres != nv) return interp_error(I, op, "wrong number of operands or results");
  if (!want_tensors(I, op, args, op->nopnds)) return false;
  ElemType *ets = xcalloc((size_t)nv, sizeof(ElemType));
  int64_t *roots = xcalloc((size_t)nv, sizeof(int64_t));
  int *ids = xmalloc(sizeof(int) * (size_t)nprocs_of(I)), me;
  bool ok = true;
  for (int j = 0; j < nv && ok; j++) {
    const Type *rt = op->res[j].type;
    if (rt->kind != TY_TENSOR || !type_same_shape(rt, ARG_LIT(j)->type))
      ok = interp_error(I, op, "result %d must have the shape of operand %d", j, j);
    else ets[j] = rt->elem;
  }
  int n = ok ? op_group(I, op, true, ids, &me) : -1;
  if (n > 0 && dynamic_root) {
    const Literal *r = ARG_LIT(nv);
    if (!et_is_int(lit_elem(r)) || r->n != nv)
      ok = interp_error(I, op, "root operand must hold %d integers", nv);
    for (int j = 0; j < nv && ok; j++) {
      roots[j] = lit_get_i(r, j);
      if (roots[j] < 0 || roots[j] >= n)
        ok = interp_error(I, op, "root index %lld is out of range for a group of %d", (long long)roots[j],
                          n);
    }
  }
  Literal **out = xcalloc((size_t)nv, sizeof(Literal *));
  if (ok && n > 0) ok = group_reduce(I, op, op->regions[0], args, nv, ids, n, me, ets, out);
  else if (n < 0) ok = false;
  for (int j = 0; j < nv && ok; j++) {
    if (n > 0 && roots[j] == me) {
      res[j] = ival_tensor(out[j]);
      out[j] = NULL;
    } else {
      res[j] = ival_new_tensor(op->res[j].type);
    }
  }
  for (int j = 0; j < nv; j++) lit_free(out[j]);
  xfree(out);
  xfree(ids);
  xfree(roots);
  xfree(ets);
  return ok;
}
