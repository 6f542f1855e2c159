/*
 * collectives.c - the collective ops compiled code calls, over any
 * communicator (comm.c).
 *
 * Each call computes the process's group (the spec's strategies, as the
 * reference interpreter computes them: comm.c's xlacrt_comm_group), meets
 * the group, computes this process's result straight from the members'
 * buffers, and leaves.  Reductions fold the members in group order with the
 * compiler's combiner, element by element exactly as the interpreter does,
 * so results are bit for bit the interpreter's; the work is cut into chunks
 * fixed by the shapes, run on the pool.  A group of one meets nobody.
 */
#include "xlacrt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK = 1 << 15, MAX_RANK = 64 };

static int fail(xlacrt_comm *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(xlacrt_comm *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    return XLACRT_COMM_FAILED;
}

static int64_t num_elements(const xlacrt_coll_value *v)
{
    int64_t n = 1;
    for (int64_t d = 0; d < v->rank; d++)
        n *= v->dims[d];
    return n;
}

/* Row-major blocks around dimension dim: the elements before it (outer)
   and after it (inner). */
static void around(const xlacrt_coll_value *v, int64_t dim, int64_t *outer, int64_t *inner)
{
    *outer = *inner = 1;
    for (int64_t d = 0; d < dim; d++)
        *outer *= v->dims[d];
    for (int64_t d = dim + 1; d < v->rank; d++)
        *inner *= v->dims[d];
}

/* ---- reductions ---- */

/* out (rows x row_len result elements) from the members' operands: row r
   folds the elements starting at base + r * src_stride. */
typedef struct ReduceJob {
    const void *const *peers;
    int64_t n, stride;
    xlacrt_combine_fn combine;
    char *out;
    int64_t out_elem;
    int64_t rows, row_len, src_stride, base;
    int64_t pieces;        /* tasks per row (long rows are cut) */
    int64_t rows_per_task; /* rows per task (short rows are grouped) */
} ReduceJob;

static void reduce_task(int64_t t, void *ctx)
{
    const ReduceJob *j = ctx;
    if (j->pieces > 1) {
        int64_t r = t / j->pieces, b = t % j->pieces * CHUNK;
        int64_t len = j->row_len - b < CHUNK ? j->row_len - b : CHUNK;
        j->combine(j->peers, j->n, j->stride, j->base + r * j->src_stride + b,
                   j->out + (r * j->row_len + b) * j->out_elem, len);
        return;
    }
    int64_t r1 = (t + 1) * j->rows_per_task;
    for (int64_t r = t * j->rows_per_task; r < r1 && r < j->rows; r++)
        j->combine(j->peers, j->n, j->stride, j->base + r * j->src_stride,
                   j->out + r * j->row_len * j->out_elem, j->row_len);
}

static void reduce_rows(xlacrt_pool *p, ReduceJob *j)
{
    if (j->rows <= 0 || j->row_len <= 0)
        return;
    int64_t ntasks;
    if (j->row_len > CHUNK) {
        j->pieces = (j->row_len + CHUNK - 1) / CHUNK;
        j->rows_per_task = 1;
        ntasks = j->rows * j->pieces;
    } else {
        j->pieces = 1;
        j->rows_per_task = CHUNK / j->row_len;
        ntasks = (j->rows + j->rows_per_task - 1) / j->rows_per_task;
    }
    xlacrt_parallel_for(p, ntasks, reduce_task, j);
}

/* ---- copies ---- */

static void copy_bytes(void *dst, const void *src, int64_t n)
{
    if (n > 0 && dst != src)
        memcpy(dst, src, (size_t)n);
}

/* Copies a block of the given shape from src (dimensions sdims), where it
   starts at index soff along dimension sd, to dst (dimensions ddims), where
   it starts at index doff along dimension dd. */
static void copy_block(char *dst, const int64_t *ddims, int64_t dd, int64_t doff, const char *src,
                       const int64_t *sdims, int64_t sd, int64_t soff, const int64_t *shape,
                       int64_t rank, int64_t eb)
{
    int64_t sstride[MAX_RANK], dstride[MAX_RANK], idx[MAX_RANK];
    int64_t total = 1;
    for (int64_t d = rank - 1, ss = 1, ds = 1; d >= 0; d--) {
        sstride[d] = ss;
        dstride[d] = ds;
        ss *= sdims[d];
        ds *= ddims[d];
        total *= shape[d];
        idx[d] = 0;
    }
    if (total == 0)
        return;
    const char *s0 = src + soff * sstride[sd] * eb;
    char *d0 = dst + doff * dstride[dd] * eb;
    int64_t run = shape[rank - 1] * eb;
    for (;;) {
        int64_t so = 0, dof = 0;
        for (int64_t d = 0; d < rank - 1; d++) {
            so += idx[d] * sstride[d];
            dof += idx[d] * dstride[d];
        }
        memcpy(d0 + dof * eb, s0 + so * eb, (size_t)run);
        int64_t d = rank - 2;
        while (d >= 0 && ++idx[d] == shape[d])
            idx[d--] = 0;
        if (d < 0)
            break;
    }
}

/* ---- the call ---- */

/* Arrays that are usually small: on the stack, else on the heap. */
typedef struct Arrays {
    int32_t ids_small[64];
    const void *peers_small[128];
    int64_t sizes_small[128];
    int32_t *ids;
    const void **peers;
    int64_t *bytes, *sigs;
} Arrays;

static int arrays_init(Arrays *a, int nprocs, int nvals)
{
    size_t np = (size_t)nprocs * (size_t)(nvals > 0 ? nvals : 1);
    a->ids = nprocs <= 64 ? a->ids_small : malloc(sizeof(int32_t) * (size_t)nprocs);
    a->peers = np <= 128 ? a->peers_small : malloc(sizeof(void *) * np);
    a->bytes = nvals <= 64 ? a->sizes_small : malloc(sizeof(int64_t) * 2 * (size_t)nvals);
    a->sigs = a->bytes ? a->bytes + (nvals > 0 ? nvals : 1) : NULL;
    return a->ids && a->peers && a->bytes;
}

static void arrays_free(Arrays *a)
{
    if (a->ids != a->ids_small)
        free(a->ids);
    if (a->peers != a->peers_small)
        free(a->peers);
    if (a->bytes != a->sizes_small)
        free(a->bytes);
}

static void zero_outputs(const xlacrt_coll *d, void *const *outs)
{
    for (int64_t j = 0; j < d->nvals; j++) {
        int64_t b = num_elements(&d->vals[j]) * d->vals[j].out_elem_bytes;
        if (b > 0)
            memset(outs[j], 0, (size_t)b);
    }
}

/* The collective proper, with the group known and met (peers). */
static int run_op(xlacrt_comm *c, xlacrt_pool *p, const xlacrt_coll *d, const void *const *ins,
                  void *const *outs, const int32_t *roots, const void *const *peers, int32_t n,
                  int32_t me, int32_t source)
{
    int64_t nv = d->nvals;
    for (int64_t j = 0; j < nv; j++) {
        const xlacrt_coll_value *v = &d->vals[j];
        int64_t count = num_elements(v), eb = v->elem_bytes;
        switch (d->kind) {
        case XLACRT_COLL_ALL_REDUCE:
        case XLACRT_COLL_REDUCE: {
            if (d->kind == XLACRT_COLL_REDUCE && (roots ? roots[j] : 0) != me) {
                zero_outputs(&(xlacrt_coll){.nvals = 1, .vals = v}, &outs[j]);
                break;
            }
            ReduceJob job = {peers + j, n, nv, v->combine, outs[j], v->out_elem_bytes, 1, count, 0, 0, 0, 0};
            reduce_rows(p, &job);
            break;
        }
        case XLACRT_COLL_REDUCE_SCATTER: {
            int64_t outer, inner, dim = v->dims[d->dim];
            around(v, d->dim, &outer, &inner);
            if (dim % n != 0)
                return fail(c, "dimension %lld of size %lld does not split into %d parts", (long long)d->dim,
                            (long long)dim, n);
            if (dim / n != d->count)
                return fail(c, "result %lld type does not match the scattered shape", (long long)j);
            int64_t part = dim / n;
            ReduceJob job = {peers + j, n, nv, v->combine, outs[j], v->out_elem_bytes, outer, part * inner,
                             dim * inner, me * part * inner, 0, 0};
            reduce_rows(p, &job);
            break;
        }
        case XLACRT_COLL_ALL_GATHER: {
            int64_t outer, inner, dim = v->dims[d->dim];
            around(v, d->dim, &outer, &inner);
            if (dim * n != d->count)
                return fail(c, "result %lld type does not match the gathered shape", (long long)j);
            int64_t chunk = dim * inner * eb;
            char *o = outs[j];
            for (int64_t r = 0; r < outer && chunk > 0; r++)
                for (int32_t k = 0; k < n; k++, o += chunk)
                    memcpy(o, (const char *)peers[k * nv + j] + r * chunk, (size_t)chunk);
            break;
        }
        case XLACRT_COLL_ALL_TO_ALL: {
            if (v->rank > MAX_RANK)
                return fail(c, "all_to_all of rank %lld", (long long)v->rank);
            int64_t shape[MAX_RANK], rdims[MAX_RANK];
            for (int64_t k = 0; k < v->rank; k++)
                shape[k] = rdims[k] = v->dims[k];
            shape[d->dim] /= n;
            rdims[d->dim] /= n;
            rdims[d->dim2] *= n;
            for (int32_t k = 0; k < n; k++)
                copy_block(outs[j], rdims, d->dim2, k * shape[d->dim2], peers[k * nv + j], v->dims, d->dim,
                           me * shape[d->dim], shape, v->rank, eb);
            break;
        }
        case XLACRT_COLL_BROADCAST: {
            int32_t root = roots ? roots[j] : 0;
            copy_bytes(outs[j], peers[root * nv + j], count * eb);
            break;
        }
        case XLACRT_COLL_PERMUTE:
            if (source < 0)
                zero_outputs(&(xlacrt_coll){.nvals = 1, .vals = v}, &outs[j]);
            else
                copy_bytes(outs[j], peers[source * nv + j], count * eb);
            break;
        default:
            return fail(c, "unknown collective %lld", (long long)d->kind);
        }
    }
    return XLACRT_COMM_OK;
}

int32_t xlacrt_collective(xlacrt_comm *c, xlacrt_pool *p, const xlacrt_coll *d,
                          const void *const *ins, void *const *outs, const int32_t *roots)
{
    int nprocs = c->num_replicas * c->num_partitions;
    int nv = (int)d->nvals;
    Arrays a;
    if (!arrays_init(&a, nprocs, nv)) {
        arrays_free(&a);
        return fail(c, "out of memory starting a collective");
    }
    for (int j = 0; j < nv; j++) {
        a.bytes[j] = num_elements(&d->vals[j]) * d->vals[j].elem_bytes;
        a.sigs[j] = d->vals[j].sig;
    }
    int rc = XLACRT_COMM_OK;
    if (d->kind == XLACRT_COLL_SEND || d->kind == XLACRT_COLL_RECV) {
        if (d->kind == XLACRT_COLL_SEND)
            rc = c->ops->send(c, d->channel, nv, ins, a.bytes, a.sigs);
        else
            rc = c->ops->recv(c, d->channel, nv, outs, a.bytes, a.sigs);
        arrays_free(&a);
        return rc;
    }
    /* the group */
    int32_t n, me, source = -1;
    if (d->kind == XLACRT_COLL_PERMUTE) {
        n = xlacrt_comm_permute_group(d->channel != 0, d->groups, d->rows, c->num_replicas, c->num_partitions,
                                      c->replica_id, c->partition_id, a.ids, &me, &source, c->msg, sizeof c->msg);
    } else {
        n = xlacrt_comm_group((int)d->strategy, d->groups, d->rows, d->cols, c->num_replicas, c->num_partitions,
                              c->replica_id, c->partition_id, a.ids, &me, c->msg, sizeof c->msg);
    }
    if (n < 0) {
        arrays_free(&a);
        return XLACRT_COMM_FAILED;
    }
    int optional = d->kind == XLACRT_COLL_BROADCAST || d->kind == XLACRT_COLL_REDUCE || d->kind == XLACRT_COLL_PERMUTE;
    if (n == 0 || me < 0) {
        arrays_free(&a);
        if (!optional)
            return fail(c, "process (replica %d, partition %d) is in no replica group", c->replica_id,
                        c->partition_id);
        /* not in any group: zeros */
        zero_outputs(d, outs);
        return XLACRT_COMM_OK;
    }
    if (d->kind == XLACRT_COLL_ALL_TO_ALL && n != d->count) {
        arrays_free(&a);
        return fail(c, "split_count %lld differs from the group size %d", (long long)d->count, n);
    }
    for (int j = 0; roots && j < nv; j++)
        if (roots[j] < 0 || roots[j] >= n) {
            arrays_free(&a);
            return fail(c, "root index %lld is out of range for a group of %d", (long long)roots[j], n);
        }
    if (n > 1 && c->ops->collective) { /* the transport's own way, if it has one */
        rc = c->ops->collective(c, p, d, n, a.ids, me, ins, outs, roots);
        if (rc != XLACRT_COMM_DECLINED) {
            arrays_free(&a);
            return rc;
        }
        rc = XLACRT_COMM_OK;
    }
    if (n == 1) {
        for (int j = 0; j < nv; j++)
            a.peers[j] = ins[j];
    } else {
        rc = c->ops->meet(c, d->kind, n, a.ids, me, nv, ins, a.bytes, a.sigs, a.peers);
        if (rc != XLACRT_COMM_OK) {
            arrays_free(&a);
            return rc;
        }
    }
    rc = run_op(c, p, d, ins, outs, roots, a.peers, n, me, source);
    if (n > 1)
        c->ops->leave(c);
    arrays_free(&a);
    return rc;
}
