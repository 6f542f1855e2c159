/*
 * scatter_index.c - the index arithmetic of gather and scatter shared by
 * the backends' kernels: which operand dimension each window dimension
 * runs along, the runs of contiguous elements, and scatter's checks, target
 * index and update (the order of the updates is each backend's kernel's).
 */
#include <string.h>

#include "codegen/kernel.h"
#include "passes/buffers.h"

/* A region of scalar arguments typed like `types`, returning nres scalars
   typed like `rtypes`, that the elemental generator can compute. */
bool region_elemental(Block *b, int nargs, const Type *const *types, int nres,
                             const Type *const *rtypes) {
  if (!b || b->nargs != nargs) return false;
  Op *ret = block_terminator(b);
  if (!ret || ret->nopnds != nres) return false;
  for (int i = 0; i < nargs; i++) {
    const Type *t = b->args[i]->type;
    if (t->kind != TY_TENSOR || t->rank != 0 || t->quant || t->elem != types[i]->elem) return false;
  }
  for (int i = 0; i < nres; i++) {
    const Type *t = ret->opnds[i]->type;
    if (t->kind != TY_TENSOR || t->rank != 0 || t->quant || t->elem != rtypes[i]->elem) return false;
  }
  return elemental_supported(ret->opnds, nres, b->args, nargs);
}

/* ---- runs of contiguous elements ---- */

/* win[d]: the operand dimension that dimension d of a gather result (of
   scatter updates) runs along when d is an offset (window) dimension, else
   -1.  The offset dimensions take, in order, the operand dimensions that
   are neither collapsed (inserted) nor batching dimensions. */
void window_dims(const Type *t, const int64_t *offset, int noffset, const int64_t *collapsed,
                        int ncollapsed, const int64_t *obatch, int nobatch, int *win) {
  for (int d = 0, k = 0; d < t->rank; d++) {
    win[d] = -1;
    if (!ints_contain(offset, noffset, d)) continue;
    while (ints_contain(collapsed, ncollapsed, k) || ints_contain(obatch, nobatch, k)) k++;
    win[d] = k++;
  }
}

/* How many trailing dimensions of t (a gather result, scatter updates) run
   along the operand xt's trailing dimensions such that consecutive elements
   of t there are consecutive operand elements: every one of them but the
   outermost must span its operand dimension whole and start at 0, so it must
   not be one that start indices move (`started`). */
int trailing_run(const Type *t, const Type *xt, const int *win, const int64_t *started, int nstarted) {
  int m = 0;
  /* (m < xt->rank: past the operand's first dimension, -1 would match
     the -1 of the dimensions that are no window's) */
  for (int d = t->rank - 1; d >= 0 && m < xt->rank && win[d] == xt->rank - 1 - m; d--) {
    if (m > 0 && (t->dims[d + 1] != xt->dims[win[d + 1]] || ints_contain(started, nstarted, win[d + 1]))) break;
    m++;
  }
  return m;
}

/* A parallel scatter gives each chunk at least SCATTER_COLS columns of the
   operand's trailing block and makes at most SCATTER_MAX_CHUNKS chunks, as
   every chunk reads all the indices; it pays from SCATTER_PARALLEL_MIN
   update elements on. */
enum {
  SCATTER_COLS = 64,
  SCATTER_MAX_CHUNKS = 64,
  SCATTER_PARALLEL_MIN = CHUNK_ELEMS
};


/* The interpreter's checks of op; fills s, the run and the chunks too. */
bool scatter_ok(const Op *op, ScatterDims *s) {
  if (op->nopnds < 3 || op->nopnds % 2 == 0 || op->nregions != 1) return false;
  int n = (op->nopnds - 1) / 2;
  if (n > MAX_SCATTER || op->nres != n) return false;
  const Type *xt = op->opnds[0]->type, *it = op->opnds[n]->type, *ut = op->opnds[n + 1]->type;
  if (!cg_tensor_native(it) || !et_is_int(it->elem)) return false;
  const Type *types[2 * MAX_SCATTER], *rtypes[MAX_SCATTER];
  for (int k = 0; k < n; k++) {
    const Type *x = op->opnds[k]->type, *u = op->opnds[n + 1 + k]->type, *r = op->res[k].type;
    if (!cg_tensor_native(x) || !cg_tensor_native(u) || !cg_tensor_native(r) || !type_same_shape(x, xt) ||
        !type_same_shape(u, ut) || !type_same_shape(r, x) || r->elem != x->elem || u->elem != x->elem)
      return false;
    types[k] = x;
    types[n + k] = u;
    rtypes[k] = r;
  }
  const Attr *a = op_attr(op, "scatter_dimension_numbers");
  if (!a || a->kind != ATTR_DICT) return false;
  memset(s, 0, sizeof *s);
  s->nwindow = dict_ints(a, "update_window_dims", &s->window);
  s->ninserted = dict_ints(a, "inserted_window_dims", &s->inserted);
  s->nobatch = dict_ints(a, "input_batching_dims", &s->obatch);
  s->nibatch = dict_ints(a, "scatter_indices_batching_dims", &s->ibatch);
  s->nmap = dict_ints(a, "scatter_dims_to_operand_dims", &s->map);
  s->ivd = dict_int(a, "index_vector_dim", 0);
  if (s->nwindow < 0 || s->ninserted < 0 || s->nobatch < 0 || s->nibatch < 0 || s->nmap < 0) return false;
  int rank = xt->rank, irank = it->rank, urank = ut->rank;
  if (s->ivd < 0 || s->ivd > irank) return false;
  if (s->nmap != (s->ivd < irank ? it->dims[s->ivd] : 1)) return false;
  if (s->nwindow > urank || !ints_in_range(s->window, s->nwindow, urank) || !ints_distinct(s->window, s->nwindow) ||
      !ints_in_range(s->inserted, s->ninserted, rank) || !ints_in_range(s->obatch, s->nobatch, rank) ||
      !ints_in_range(s->map, s->nmap, rank) || !ints_in_range(s->ibatch, s->nibatch, irank) ||
      s->nobatch != s->nibatch || ints_contain(s->ibatch, s->nibatch, s->ivd))
    return false;
  if (urank - s->nwindow != irank - (s->ivd < irank ? 1 : 0)) return false;
  if (s->nwindow + s->ninserted + s->nobatch != rank) return false;
  int nwin = 0;
  for (int d = 0; d < rank; d++)
    if (!ints_contain(s->inserted, s->ninserted, d) && !ints_contain(s->obatch, s->nobatch, d)) nwin++;
  if (nwin != s->nwindow) return false;
  if (!region_elemental(op->regions[0], 2 * n, types, n, rtypes)) return false;

  int win[CG_MAX_RANK];
  window_dims(ut, s->window, s->nwindow, s->inserted, s->ninserted, s->obatch, s->nobatch, win);
  s->run = trailing_run(ut, xt, win, s->map, s->nmap);
  s->inner = 1;
  for (int d = urank - s->run + 1; d < urank; d++) s->inner *= ut->dims[d];
  s->block = s->run ? xt->dims[rank - s->run] * s->inner : 1;
  s->cols = s->block;
  s->nchunks = 1;
  if (s->run && type_num_elements(ut) >= SCATTER_PARALLEL_MIN && s->block >= 2 * SCATTER_COLS) {
    int64_t step = (int64_t)SCATTER_COLS * SCATTER_MAX_CHUNKS;
    s->cols = SCATTER_COLS * ((s->block + step - 1) / step);
    s->nchunks = (s->block + s->cols - 1) / s->cols;
  }
  return true;
}

LLVMValueRef scatter_operand_index(Cg *cg, const Op *op, const ScatterDims *s, LLVMValueRef ind, LLVMValueRef *uidx,
                                   LLVMValueRef *full) {
  int n = (op->nopnds - 1) / 2;
  const Type *xt = op->opnds[0]->type, *it = op->opnds[n]->type, *ut = op->opnds[n + 1]->type;
  LLVMValueRef batch[CG_MAX_RANK], pos[CG_MAX_RANK];
  int nb = 0;
  for (int d = 0; d < ut->rank; d++)
    if (!ints_contain(s->window, s->nwindow, d)) batch[nb++] = uidx[d];
  for (int k = 0, b = 0; k < it->rank; k++)
    if (k != s->ivd) pos[k] = batch[b++];
  for (int d = 0; d < xt->rank; d++) full[d] = cg_i64(cg, 0);
  for (int j = 0; j < s->nmap; j++) {
    if (s->ivd < it->rank) pos[s->ivd] = cg_i64(cg, j);
    LLVMValueRef v = cg_index_to_i64(cg, it->elem, cg_load(cg, it->elem, ind, cg_linearize(cg, it, pos)));
    /* no clamping in scatter, but bounding far-out indices (out of range
       anyway) keeps the sums below from wrapping, as in the interpreter */
    full[s->map[j]] = cg_clamp_i64(cg, v, -(INT64_C(1) << 40), INT64_C(1) << 40);
  }
  for (int i = 0; i < s->nobatch; i++) {
    int64_t ds = s->ibatch[i];
    full[s->obatch[i]] = LLVMBuildAdd(cg->b, full[s->obatch[i]], batch[ds - (ds < s->ivd ? 0 : 1)], "");
  }
  int64_t wsize[CG_MAX_RANK];
  for (int d = 0; d < xt->rank; d++) wsize[d] = 1;
  for (int d = 0, k = 0; d < ut->rank; d++) {
    if (!ints_contain(s->window, s->nwindow, d)) continue;
    while (ints_contain(s->inserted, s->ninserted, k) || ints_contain(s->obatch, s->nobatch, k)) k++;
    wsize[k++] = ut->dims[d];
  }
  /* the window fits when 0 <= start <= dim - size in every dimension (one
     unsigned compare each) */
  LLVMValueRef fits = LLVMConstInt(cg->t_i1, 1, 0);
  for (int d = 0; d < xt->rank; d++) {
    LLVMValueRef ok = xt->dims[d] < wsize[d]
                          ? LLVMConstInt(cg->t_i1, 0, 0)
                          : LLVMBuildICmp(cg->b, LLVMIntULE, full[d], cg_i64(cg, xt->dims[d] - wsize[d]), "");
    fits = LLVMBuildAnd(cg->b, fits, ok, "");
  }
  for (int d = 0, k = 0; d < ut->rank; d++) {
    if (!ints_contain(s->window, s->nwindow, d)) continue;
    while (ints_contain(s->inserted, s->ninserted, k) || ints_contain(s->obatch, s->nobatch, k)) k++;
    full[k] = LLVMBuildAdd(cg->b, full[k], uidx[d], "");
    k++;
  }
  return fits;
}

/* result[off] = body(result[off], update[uoff]) for every operand pair;
   every new value is computed before any is stored. */
void scatter_apply_values(Cg *cg, Op *op, LLVMValueRef *res, LLVMValueRef off, LLVMValueRef *uvals) {
  int n = (op->nopnds - 1) / 2;
  Block *body = op->regions[0];
  Op *ret = block_terminator(body);
  LLVMValueRef args[MAX_SCATTER], vals[MAX_SCATTER];
  for (int k = 0; k < n; k++) args[k] = cg_elem_ptr(cg, op->opnds[k]->type->elem, res[k], off);
  KernelIO io = {0};
  io.ninputs = n;
  io.inputs = body->args;
  io.input_ptrs = args;
  for (int k = 0; k < n; k++) kernel_io_give(&io, body->args[n + k], NULL, uvals[k]);
  for (int k = 0; k < n; k++) vals[k] = emit_elemental(cg, &io, ret->opnds[k], NULL);
  for (int k = 0; k < n; k++) cg_store(cg, op->res[k].type->elem, res[k], off, vals[k]);
  kernel_io_free(&io);
}

void scatter_apply(Cg *cg, Op *op, LLVMValueRef *res, LLVMValueRef *upd, LLVMValueRef off, LLVMValueRef uoff) {
  int n = (op->nopnds - 1) / 2;
  Block *body = op->regions[0];
  Op *ret = block_terminator(body);
  LLVMValueRef args[2 * MAX_SCATTER], vals[MAX_SCATTER];
  for (int k = 0; k < n; k++) {
    args[k] = cg_elem_ptr(cg, op->opnds[k]->type->elem, res[k], off);
    args[n + k] = cg_elem_ptr(cg, op->opnds[n + 1 + k]->type->elem, upd[k], uoff);
  }
  KernelIO io = {0};
  io.ninputs = 2 * n;
  io.inputs = body->args;
  io.input_ptrs = args;
  for (int k = 0; k < n; k++) vals[k] = emit_elemental(cg, &io, ret->opnds[k], NULL);
  for (int k = 0; k < n; k++) cg_store(cg, op->res[k].type->elem, res[k], off, vals[k]);
  kernel_io_free(&io);
}

/* ---- updates computed by the scatter's kernel ---- */

bool elemental_producer(Module *m, Op *P, bool any_op, UpdateSrc *u) {
  if (P->nres != 1 || P->nregions) return false;
  const char *kind = P->kind == OP_CALL ? op_attr_str(P, "fusion_kind") : NULL;
  if (kind) {
    const char *name = op_attr_str(P, "callee");
    Func *fc = strcmp(kind, "kLoop") == 0 && name ? module_find_func(m, name) : NULL;
    Op *ret = fc ? block_terminator(fc->body) : NULL;
    if (!ret || ret->nopnds != 1 || fc->body->nargs != P->nopnds) return false;
    *u = (UpdateSrc){P, fc->body->args, fc->body->nargs, ret->opnds[0]};
  } else if (any_op ? P->kind != OP_CALL && P->kind != OP_CONSTANT : op_has_flag(P->kind, OPF_EW)) {
    *u = (UpdateSrc){P, P->opnds, P->nopnds, &P->res[0]};
  } else {
    return false;
  }
  return elemental_supported(&u->root, 1, u->inputs, u->ninputs);
}

/* A scatter's producer: any op but a gather (whose own kernel copies
   whole slices), within the kernel's buffer count. */
static bool update_src(Module *m, Op *P, UpdateSrc *u) {
  return P->kind != OP_GATHER && elemental_producer(m, P, true, u) && u->ninputs <= MAX_UPDATE_INPUTS;
}

enum { UPDATE_SRC_REACH = 8 };

bool scatter_update_src(Module *m, const BufferAssignment *bufs, const int *alias_param, int nalias, Op *sc,
                        UpdateSrc *u) {
  if (sc->kind != OP_SCATTER || sc->nopnds != 3 || sc->nres != 1) return false;
  Value *v = sc->opnds[2];
  Op *P = v->def;
  if (!P || P->parent != sc->parent || sc->opnds[0] == v || sc->opnds[1] == v) return false;
  const Buffer *b = buffers_get(bufs, v), *r = buffers_get(bufs, &sc->res[0]);
  if (!b || !r || b->kind != BUF_TEMP || b->end > r->start) return false;
  int steps = 0;
  for (Op *x = P->next; x != sc; x = x->next) {
    if (!x || x->nregions || ++steps > UPDATE_SRC_REACH) return false;
    for (int i = 0; i < x->nopnds; i++)
      if (x->opnds[i] == v) return false;
    for (int j = 0; j < x->nres; j++)
      for (int i = 0; i < P->nopnds; i++)
        if (!buffers_apart(bufs, &x->res[j], P->opnds[i], alias_param, nalias)) return false;
  }
  for (int i = 0; i < P->nopnds; i++)
    if (!buffers_apart(bufs, P->opnds[i], &sc->res[0], alias_param, nalias)) return false;
  ScatterDims s;
  return scatter_ok(sc, &s) && update_src(m, P, u);
}

bool scatter_update_taken(Module *m, const BufferAssignment *bufs, const int *alias_param, int nalias, Op *op) {
  if (op->nres != 1 || op->kind == OP_CONSTANT) return false;
  Op *sc = op->next;
  for (int k = 0; sc && k < UPDATE_SRC_REACH && sc->kind != OP_SCATTER; k++) sc = sc->next;
  UpdateSrc u;
  return sc && sc->kind == OP_SCATTER && sc->opnds[sc->nopnds - 1] == &op->res[0] &&
         scatter_update_src(m, bufs, alias_param, nalias, sc, &u) && u.op == op;
}

LLVMValueRef scatter_update_value(Cg *cg, const UpdateSrc *u, LLVMValueRef *ptrs, LLVMValueRef *uidx) {
  KernelIO io = {0};
  io.ninputs = u->ninputs;
  io.inputs = u->inputs;
  io.input_ptrs = ptrs;
  LLVMValueRef v = emit_elemental(cg, &io, u->root, uidx);
  kernel_io_free(&io);
  return v;
}
