/*
 * kernel_collective.c - collectives compiled to calls into the runtime.
 *
 * all_reduce, reduce_scatter, collective_reduce, all_gather, all_to_all,
 * collective_broadcast, collective_permute, send and recv each become one
 * call of xlacrt_collective (runtime/collectives.c) on the communicator of
 * the process the execution runs as (cpu.c's xlac_rt_comm: the grid's, or
 * a program alone's), with a constant descriptor: the kind, the group
 * strategy and replica groups (read here with the interpreter's readers,
 * interp_collective_groups, and turned into groups at run time by the
 * function the interpreter uses, xlacrt_comm_group), shapes, and for
 * reductions a combiner generated from the op's region.  The replicas of a
 * grid are threads; the runtime has each read the others' buffers directly.
 *
 * The combiner folds the group's members in group order, element by
 * element, as the interpreter does (acc = x_0, then acc = region(acc,
 * x_k), converting each operand to the reduction type first), so results
 * are the interpreter's bit for bit, floats included.  It runs the members
 * over blocks of elements (for each block: one pass per member), so that
 * the accumulator block stays in cache and each pass is a plain vectorizable
 * loop.
 *
 * A failed call (a bad group, a deadlock, another process's failure)
 * reports at the op through xlac_rt_comm_failed and ends the execution
 * there: outputs of a failed collective are garbage, and a loop around it
 * must not go on.  Anything unusual (quantized types, regions the
 * elemental generator cannot compute, malformed attributes) is left to the
 * interpreter thunk, which reports errors as the interpreter does.
 */
#include "cpu/lower.h"

#include <stdlib.h>
#include <string.h>

/* Elements per block of the combiner: the accumulator block stays in L1/L2. */
enum { COMBINE_BLOCK = 2048 };

static LLVMValueRef extern_fn(Cg *cg, const char *name, LLVMTypeRef ret, LLVMTypeRef *params, int n,
                              LLVMTypeRef *fty) {
  *fty = LLVMFunctionType(ret, params, (unsigned)n, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, name);
  return fn ? fn : LLVMAddFunction(cg->mod, name, *fty);
}

static LLVMValueRef private_const(Cg *cg, LLVMValueRef init, const char *name) {
  LLVMValueRef g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
  return g;
}

static LLVMValueRef i64_array(Cg *cg, const int64_t *v, int64_t n, const char *name) {
  if (n <= 0) return LLVMConstPointerNull(cg->t_ptr);
  LLVMValueRef *elems = xcalloc((size_t)n, sizeof(LLVMValueRef));
  for (int64_t i = 0; i < n; i++) elems[i] = cg_i64(cg, v[i]);
  LLVMValueRef g = private_const(cg, LLVMConstArray2(cg->t_i64, elems, (uint64_t)n), name);
  xfree(elems);
  return g;
}

/* Whether t is a tensor this file moves: native element type and rank, no
   quantization (the interpreter computes collectives of quantized tensors in
   their expressed type). */
static bool plain_tensor(const Type *t) { return t->kind == TY_TENSOR && !t->quant && cg_tensor_native(t); }

/* A fingerprint of a tensor type, which the members of a collective and
   the two ends of a channel must agree on. */
static int64_t type_sig(const Type *t) {
  int64_t h[1 + CG_MAX_RANK + 1];
  int n = 0;
  h[n++] = t->elem;
  h[n++] = t->rank;
  for (int d = 0; d < t->rank && d < CG_MAX_RANK; d++) h[n++] = t->dims[d];
  return (int64_t)(hash_bytes(h, sizeof(int64_t) * (size_t)n, 0x636f6c6c) & INT64_MAX);
}

/* ---- combiners ---- */

/* The reduction region of op, when the elemental generator can compute it
   on scalars of the reduction type `et`; cross-replica-sum without one
   adds. */
static bool region_ok(const Op *op, ElemType et) {
  if (op->kind == OP_CROSS_REPLICA_SUM && op->nregions == 0) return true;
  if (op->nregions != 1) return false;
  Block *b = op->regions[0];
  Op *ret = block_terminator(b);
  if (!b || b->nargs != 2 || !ret || ret->nopnds != 1) return false;
  const Type *types[3] = {b->args[0]->type, b->args[1]->type, ret->opnds[0]->type};
  for (int i = 0; i < 3; i++)
    if (types[i]->kind != TY_TENSOR || types[i]->rank != 0 || types[i]->quant || types[i]->elem != et) return false;
  return elemental_supported(ret->opnds, 1, b->args, 2);
}

/* Whether an operand of element type from converts to the reduction type
   to by a plain widening (the spec's promotable types). */
static bool conv_ok(ElemType from, ElemType to) {
  if (from == to) return true;
  if (!cg_elem_basic(from) || !cg_elem_basic(to) || et_class(from) != et_class(to)) return false;
  return et_class(from) == EC_SINT || et_class(from) == EC_UINT || et_class(from) == EC_FLOAT;
}

static LLVMValueRef conv(Cg *cg, LLVMValueRef v, ElemType from, ElemType to) {
  LLVMTypeRef ft = cg_compute_type(cg, from), tt = cg_compute_type(cg, to);
  if (from == to || ft == tt) return v;
  if (et_class(from) == EC_FLOAT) return LLVMBuildFPExt(cg->b, v, tt, "");
  return et_class(from) == EC_SINT ? LLVMBuildSExt(cg->b, v, tt, "") : LLVMBuildZExt(cg->b, v, tt, "");
}

/* The spec's add on compute-type values (or for predicates). */
static LLVMValueRef emit_add(Cg *cg, ElemType et, LLVMValueRef a, LLVMValueRef b) {
  switch (et_class(et)) {
  case EC_PRED: return LLVMBuildOr(cg->b, a, b, "");
  case EC_FLOAT: return LLVMBuildFAdd(cg->b, a, b, "");
  case EC_COMPLEX:
    return cg_complex(cg, et, LLVMBuildFAdd(cg->b, cg_re(cg, a), cg_re(cg, b), ""),
                      LLVMBuildFAdd(cg->b, cg_im(cg, a), cg_im(cg, b), ""));
  default: return LLVMBuildAdd(cg->b, a, b, "");
  }
}

/* A region that is one common op on its arguments (the usual add, max,
   ...): its kind and whether it takes them swapped; else OP_COUNT. */
static OpKind simple_region(const Op *op, bool *swapped) {
  *swapped = false;
  if (op->nregions == 0) return OP_ADD; /* cross-replica-sum */
  Block *b = op->regions[0];
  Op *first = b->first, *ret = block_terminator(b);
  if (!first || first->next != ret || first->nopnds != 2 || first->nres != 1 || ret->opnds[0] != &first->res[0])
    return OP_COUNT;
  switch (first->kind) {
  case OP_ADD: case OP_MULTIPLY: case OP_MAXIMUM: case OP_MINIMUM: case OP_AND: case OP_OR: case OP_XOR: break;
  default: return OP_COUNT;
  }
  if (first->opnds[0] == b->args[0] && first->opnds[1] == b->args[1]) return first->kind;
  *swapped = true;
  if (first->opnds[0] == b->args[1] && first->opnds[1] == b->args[0]) return first->kind;
  return OP_COUNT;
}

/* void combine(ptr peers, i64 n, i64 stride, i64 offset, ptr out, i64 count):
   out[i] = fold over k of operand element offset + i of peers[k * stride]
   (see runtime/xlacrt.h).  Compiling one costs a few milliseconds, so the
   common regions share theirs by name across the module. */
static LLVMValueRef emit_combiner(Lower *L, const Op *op, ElemType in_et, ElemType et) {
  Cg *cg = &L->cg;
  LLVMBasicBlockRef saved = LLVMGetInsertBlock(cg->b);
  char name[64];
  bool swapped;
  OpKind simple = simple_region(op, &swapped);
  if (simple != OP_COUNT) {
    snprintf(name, sizeof name, "combine.op%d.%d.%d.%d", (int)simple, (int)swapped, (int)in_et, (int)et);
    LLVMValueRef known = LLVMGetNamedFunction(cg->mod, name);
    if (known) return known;
  } else {
    snprintf(name, sizeof name, "combine.%d", cg->counter++);
  }
  LLVMTypeRef params[6] = {cg->t_ptr, cg->t_i64, cg->t_i64, cg->t_i64, cg->t_ptr, cg->t_i64};
  LLVMValueRef fn = LLVMAddFunction(cg->mod, name, LLVMFunctionType(cg->t_void, params, 6, 0));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(cg->ctx, "prefer-vector-width", 19, "512", 3));
  /* out is the result, which no operand shares storage with: no run-time
     overlap checks around the vector loops */
  unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
  LLVMAddAttributeAtIndex(fn, 5, LLVMCreateEnumAttribute(cg->ctx, noalias, 0));
  LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry"));
  LLVMValueRef peers = LLVMGetParam(fn, 0), n = LLVMGetParam(fn, 1), stride = LLVMGetParam(fn, 2);
  LLVMValueRef offset = LLVMGetParam(fn, 3), out = LLVMGetParam(fn, 4), count = LLVMGetParam(fn, 5);
  Block *body = op->nregions ? op->regions[0] : NULL;
  Value *root = body ? block_terminator(body)->opnds[0] : NULL;
  LLVMValueRef slots[2];
  for (int i = 0; i < 2; i++) slots[i] = cg_entry_alloca(cg, fn, cg_storage_type(cg, et), "arg");
  KernelIO io;
  memset(&io, 0, sizeof io);
  io.ninputs = 2;
  io.inputs = body ? body->args : NULL;
  io.input_ptrs = slots;

  LLVMValueRef block = cg_i64(cg, COMBINE_BLOCK);
  LLVMValueRef nblocks = LLVMBuildSDiv(cg->b, LLVMBuildAdd(cg->b, count, cg_i64(cg, COMBINE_BLOCK - 1), ""), block, "");
  Loop lb = loop_begin(cg, cg_i64(cg, 0), nblocks, "block");
  LLVMValueRef lo = LLVMBuildMul(cg->b, lb.iv, block, "lo");
  LLVMValueRef hi = cg_min64(cg, LLVMBuildAdd(cg->b, lo, block, ""), count);
  /* the first member initializes the accumulators */
  {
    LLVMValueRef p0 = LLVMBuildLoad2(cg->b, cg->t_ptr, peers, "");
    Loop li = loop_begin(cg, lo, hi, "first");
    LLVMValueRef x = cg_load(cg, in_et, p0, LLVMBuildAdd(cg->b, offset, li.iv, ""));
    cg_store(cg, et, out, li.iv, conv(cg, x, in_et, et));
    loop_end(cg, &li);
  }
  /* then each further member, in group order */
  Loop lk = loop_begin(cg, cg_i64(cg, 1), n, "member");
  LLVMValueRef pidx = LLVMBuildMul(cg->b, lk.iv, stride, "");
  LLVMValueRef pk = LLVMBuildLoad2(cg->b, cg->t_ptr, LLVMBuildGEP2(cg->b, cg->t_ptr, peers, &pidx, 1, ""), "");
  Loop li = loop_begin(cg, lo, hi, "elem");
  LLVMValueRef acc = cg_load(cg, et, out, li.iv);
  LLVMValueRef x = conv(cg, cg_load(cg, in_et, pk, LLVMBuildAdd(cg->b, offset, li.iv, "")), in_et, et);
  LLVMValueRef r;
  if (body) {
    cg_store(cg, et, slots[0], cg_i64(cg, 0), acc);
    cg_store(cg, et, slots[1], cg_i64(cg, 0), x);
    kernel_io_reset_memo(&io);
    LLVMValueRef none[1] = {NULL};
    r = emit_elemental(cg, &io, root, none);
  } else {
    r = emit_add(cg, et, acc, x);
  }
  cg_store(cg, et, out, li.iv, r);
  loop_end(cg, &li);
  loop_end(cg, &lk);
  loop_end(cg, &lb);
  LLVMBuildRetVoid(cg->b);
  kernel_io_free(&io);
  LLVMPositionBuilderAtEnd(cg->b, saved);
  return fn;
}

/* ---- descriptors ---- */

typedef struct Desc {
  int64_t kind, strategy, rows, cols, channel, dim, dim2, count;
  int64_t *groups;         /* heap, rows * cols */
  int nvals;
  const Type **types;      /* operand types */
  ElemType *out_elems;     /* result element types */
  LLVMValueRef *combiners; /* reductions, else NULL */
} Desc;

static LLVMValueRef emit_desc(Lower *L, const Desc *d) {
  Cg *cg = &L->cg;
  LLVMValueRef *vals = xcalloc((size_t)(d->nvals > 0 ? d->nvals : 1), sizeof(LLVMValueRef));
  LLVMTypeRef vt = NULL;
  for (int j = 0; j < d->nvals; j++) {
    const Type *t = d->types[j];
    LLVMValueRef f[6] = {
        i64_array(cg, t->dims, t->rank, "coll.dims"),
        cg_i64(cg, t->rank),
        cg_i64(cg, et_bytes(t->elem)),
        cg_i64(cg, et_bytes(d->out_elems[j])),
        cg_i64(cg, type_sig(t)),
        d->combiners && d->combiners[j] ? d->combiners[j] : LLVMConstPointerNull(cg->t_ptr),
    };
    vals[j] = LLVMConstStructInContext(cg->ctx, f, 6, 0);
    vt = LLVMTypeOf(vals[j]);
  }
  LLVMValueRef vals_g = d->nvals > 0 ? private_const(cg, LLVMConstArray2(vt, vals, (uint64_t)d->nvals), "coll.vals")
                                     : LLVMConstPointerNull(cg->t_ptr);
  xfree(vals);
  LLVMValueRef f[11] = {
      cg_i64(cg, d->kind),
      cg_i64(cg, d->strategy),
      i64_array(cg, d->groups, d->rows * d->cols, "coll.groups"),
      cg_i64(cg, d->rows),
      cg_i64(cg, d->cols),
      cg_i64(cg, d->channel),
      cg_i64(cg, d->dim),
      cg_i64(cg, d->dim2),
      cg_i64(cg, d->count),
      cg_i64(cg, d->nvals),
      vals_g,
  };
  return private_const(cg, LLVMConstStructInContext(cg->ctx, f, 11, 0), "coll");
}

/* Emits the call: ins / outs are the values whose buffers go in the
   pointer arrays, roots the root operand (NULL: none).  On failure the
   execution reports at op and returns. */
static void emit_call(Lower *L, const Op *op, const Desc *d, Value **ins, int nin, Value **outs, int nout,
                      Value *roots) {
  Cg *cg = &L->cg;
  LLVMValueRef desc = emit_desc(L, d);
  LLVMValueRef in_arr = ptr_array(L, ins, nin), out_arr = ptr_array(L, outs, nout);
  LLVMTypeRef fty;
  LLVMValueRef comm_fn = extern_fn(cg, "xlac_rt_comm", cg->t_ptr, &cg->t_ptr, 1, &fty);
  LLVMValueRef comm = LLVMBuildCall2(cg->b, fty, comm_fn, &L->p_exe, 1, "comm");
  LLVMTypeRef cp[6] = {cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_ptr};
  LLVMValueRef coll_fn = extern_fn(cg, "xlacrt_collective", cg->t_i32, cp, 6, &fty);
  LLVMValueRef args[6] = {comm, L->p_pool, desc, in_arr, out_arr,
                          roots ? value_ptr(L, roots) : LLVMConstPointerNull(cg->t_ptr)};
  LLVMValueRef rc = LLVMBuildCall2(cg->b, fty, coll_fn, args, 6, "rc");
  LLVMValueRef failed = LLVMBuildICmp(cg->b, LLVMIntNE, rc, LLVMConstInt(cg->t_i32, 0, 0), "");
  /* new blocks at the end: the code after the op goes on in the last one */
  LLVMBasicBlockRef fail_bb = LLVMAppendBasicBlockInContext(cg->ctx, L->fn, "coll.failed");
  LLVMBasicBlockRef ok_bb = LLVMAppendBasicBlockInContext(cg->ctx, L->fn, "coll.ok");
  LLVMBuildCondBr(cg->b, failed, fail_bb, ok_bb);
  LLVMPositionBuilderAtEnd(cg->b, fail_bb);
  LLVMTypeRef fp[5] = {cg->t_ptr, cg->t_ptr, cg->t_i32, cg->t_i32, cg->t_i32};
  LLVMValueRef fail_fn = extern_fn(cg, "xlac_rt_comm_failed", cg->t_void, fp, 5, &fty);
  LLVMValueRef fargs[5] = {L->p_exe, comm, rc, LLVMConstInt(cg->t_i32, (uint64_t)(int64_t)op->loc.file, 1),
                           LLVMConstInt(cg->t_i32, op->loc.off, 0)};
  LLVMBuildCall2(cg->b, fty, fail_fn, fargs, 5, "");
  LLVMBuildRetVoid(cg->b);
  LLVMPositionBuilderAtEnd(cg->b, ok_bb);
}

/* ---- the ops ---- */

static bool all_plain(Value **vals, int n) {
  for (int i = 0; i < n; i++)
    if (!plain_tensor(vals[i]->type)) return false;
  return true;
}

static bool lower_coll(Lower *L, Op *op) {
  Desc d;
  memset(&d, 0, sizeof d);
  bool reduction = false, partition_variant = false, dynamic_root = false;
  switch (op->kind) {
  case OP_ALL_REDUCE:
  case OP_CROSS_REPLICA_SUM: d.kind = XLACRT_COLL_ALL_REDUCE; reduction = true; break;
  case OP_REDUCE_SCATTER: d.kind = XLACRT_COLL_REDUCE_SCATTER; reduction = true; break;
  case OP_COLLECTIVE_REDUCE:
    d.kind = XLACRT_COLL_REDUCE;
    reduction = partition_variant = true;
    break;
  case OP_ALL_GATHER: d.kind = XLACRT_COLL_ALL_GATHER; break;
  case OP_ALL_TO_ALL:
    d.kind = XLACRT_COLL_ALL_TO_ALL;
    partition_variant = true;
    break;
  case OP_COLLECTIVE_BROADCAST:
    d.kind = XLACRT_COLL_BROADCAST;
    partition_variant = true;
    break;
  default: return false;
  }
  if (op->kind == OP_COLLECTIVE_REDUCE || op->kind == OP_COLLECTIVE_BROADCAST) {
    Attr *a = op_attr(op, "has_dynamic_root");
    dynamic_root = a && (a->kind == ATTR_UNIT || ((a->kind == ATTR_BOOL || a->kind == ATTR_INT) && a->i));
  }
  int nv = op->nopnds - (dynamic_root ? 1 : 0);
  if (nv < 1 || op->nres != nv || !all_plain(op->opnds, op->nopnds)) return false;
  Value **res = xcalloc((size_t)nv, sizeof(Value *));
  for (int j = 0; j < nv; j++) res[j] = &op->res[j];
  bool ok = all_plain(res, nv);
  Value *roots = NULL;
  if (ok && dynamic_root) {
    roots = op->opnds[nv];
    const Type *rt = roots->type;
    ok = rt->elem == ET_S32 && type_num_elements(rt) == nv;
  }
  /* shapes: what the runtime relies on */
  for (int j = 0; j < nv && ok; j++) {
    const Type *a = op->opnds[j]->type, *r = res[j]->type;
    if (reduction) {
      ok = region_ok(op, r->elem) && conv_ok(a->elem, r->elem) && r->rank == a->rank;
    } else {
      ok = a->elem == r->elem && r->rank == a->rank;
    }
  }
  int64_t dim = 0;
  if (ok && (op->kind == OP_ALL_GATHER || op->kind == OP_REDUCE_SCATTER)) {
    dim = op_attr_int(op, op->kind == OP_ALL_GATHER ? "all_gather_dim" : "scatter_dimension", -1);
    for (int j = 0; j < nv && ok; j++) {
      const Type *a = op->opnds[j]->type, *r = res[j]->type;
      ok = dim >= 0 && dim < a->rank && (j == 0 || r->dims[dim] == res[0]->type->dims[dim]) &&
           (j == 0 || a->dims[dim] == op->opnds[0]->type->dims[dim]);
      for (int k = 0; k < a->rank && ok; k++) ok = k == dim || a->dims[k] == r->dims[k];
    }
    if (ok) {
      d.dim = dim;
      d.count = res[0]->type->dims[dim];
    }
  } else if (ok && op->kind == OP_ALL_TO_ALL) {
    d.dim = op_attr_int(op, "split_dimension", -1);
    d.dim2 = op_attr_int(op, "concat_dimension", -1);
    d.count = op_attr_int(op, "split_count", -1);
    for (int j = 0; j < nv && ok; j++) {
      const Type *a = op->opnds[j]->type, *r = res[j]->type;
      ok = d.dim >= 0 && d.dim < a->rank && d.dim2 >= 0 && d.dim2 < a->rank && d.count > 0 &&
           a->dims[d.dim] % d.count == 0;
      for (int k = 0; k < a->rank && ok; k++) {
        int64_t want = a->dims[k];
        if (k == d.dim) want /= d.count;
        if (k == d.dim2) want *= d.count;
        ok = r->dims[k] == want;
      }
    }
  } else {
    for (int j = 0; j < nv && ok; j++) ok = type_same_shape(op->opnds[j]->type, res[j]->type);
  }
  const char *err;
  int strategy = 0, rows = 0, cols = 0;
  if (ok) ok = interp_collective_groups(op, partition_variant, &strategy, &d.groups, &rows, &cols, &err);
  if (!ok) {
    xfree(d.groups);
    xfree(res);
    return false;
  }
  d.strategy = strategy;
  d.rows = rows;
  d.cols = cols;
  d.nvals = nv;
  d.types = xcalloc((size_t)nv, sizeof(Type *));
  d.out_elems = xcalloc((size_t)nv, sizeof(ElemType));
  for (int j = 0; j < nv; j++) {
    d.types[j] = op->opnds[j]->type;
    d.out_elems[j] = res[j]->type->elem;
  }
  if (reduction) {
    /* one combiner per distinct pair of element types */
    d.combiners = xcalloc((size_t)nv, sizeof(LLVMValueRef));
    for (int j = 0; j < nv; j++) {
      for (int k = 0; k < j && !d.combiners[j]; k++)
        if (d.types[k]->elem == d.types[j]->elem && d.out_elems[k] == d.out_elems[j]) d.combiners[j] = d.combiners[k];
      if (!d.combiners[j]) d.combiners[j] = emit_combiner(L, op, d.types[j]->elem, d.out_elems[j]);
    }
  }
  emit_call(L, op, &d, op->opnds, nv, res, nv, roots);
  xfree(d.combiners);
  xfree(d.types);
  xfree(d.out_elems);
  xfree(d.groups);
  xfree(res);
  return true;
}

static bool lower_permute(Lower *L, Op *op) {
  if (op->nopnds != 1 || op->nres != 1 || !plain_tensor(op->opnds[0]->type) ||
      !type_equal(op->opnds[0]->type, op->res[0].type))
    return false;
  Desc d;
  memset(&d, 0, sizeof d);
  d.kind = XLACRT_COLL_PERMUTE;
  const char *err;
  int rows, cols;
  if (!interp_id_lists(op, "source_target_pairs", &d.groups, &rows, &cols, &err) || (rows > 0 && cols != 2)) {
    xfree(d.groups);
    return false;
  }
  d.rows = rows;
  d.cols = 2;
  d.channel = interp_channel_id(op) > 0;
  d.nvals = 1;
  const Type *t = op->opnds[0]->type;
  ElemType e = t->elem;
  d.types = &t;
  d.out_elems = &e;
  Value *res = &op->res[0];
  emit_call(L, op, &d, op->opnds, 1, &res, 1, NULL);
  xfree(d.groups);
  return true;
}

/* send: values then a token; recv: values then a token.  Tokens have no
   buffer and are not sent. */
static bool lower_send_recv(Lower *L, Op *op) {
  bool send = op->kind == OP_SEND;
  int nv = send ? op->nopnds - 1 : op->nres - 1;
  if (nv < 0) return false;
  if ((send ? op->opnds[nv]->type : op->res[nv].type)->kind != TY_TOKEN) return false;
  Value **vals = xcalloc((size_t)(nv > 0 ? nv : 1), sizeof(Value *));
  for (int j = 0; j < nv; j++) vals[j] = send ? op->opnds[j] : &op->res[j];
  if (!all_plain(vals, nv)) {
    xfree(vals);
    return false;
  }
  Desc d;
  memset(&d, 0, sizeof d);
  d.kind = send ? XLACRT_COLL_SEND : XLACRT_COLL_RECV;
  d.channel = interp_channel_id(op);
  d.nvals = nv;
  d.types = xcalloc((size_t)(nv > 0 ? nv : 1), sizeof(Type *));
  d.out_elems = xcalloc((size_t)(nv > 0 ? nv : 1), sizeof(ElemType));
  for (int j = 0; j < nv; j++) {
    d.types[j] = vals[j]->type;
    d.out_elems[j] = vals[j]->type->elem;
  }
  if (send)
    emit_call(L, op, &d, vals, nv, NULL, 0, NULL);
  else
    emit_call(L, op, &d, NULL, 0, vals, nv, NULL);
  xfree(d.types);
  xfree(d.out_elems);
  xfree(vals);
  return true;
}

/* ---- what generated code calls ---- */

xlacrt_comm *xlac_rt_comm(struct CpuRun *run) { return interp_comm(cpu_run_interp(run)); }

void xlac_rt_comm_failed(struct CpuRun *run, xlacrt_comm *c, int32_t rc, int32_t file, int32_t off) {
  interp_comm_failed(cpu_run_interp(run), c, rc, (SrcLoc){file, (uint32_t)off});
}

bool lower_collective(Lower *L, Op *op) {
  /* an object runs as one device, with no communicator: ahead of time a
     collective is reported (cpu.c) */
  if (L->aot) return false;
  switch (op->kind) {
  case OP_COLLECTIVE_PERMUTE: return lower_permute(L, op);
  case OP_SEND:
  case OP_RECV: return lower_send_recv(L, op);
  default: return lower_coll(L, op);
  }
}
