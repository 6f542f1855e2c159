/*
 * elemental.c - the elemental generator: the value of any value of a kernel
 * at a multi-dimensional index, as LLVM IR.
 *
 * Inputs (kernel parameters) are loads from their buffers; elementwise ops
 * are computed from their operands at the same index; index-mapping ops
 * (broadcast_in_dim, reshape, transpose, slice, reverse, pad, concatenate,
 * iota, constants) transform the index and recurse.  Results are memoized
 * per (value, index) so a value used twice at the same index is computed
 * once and DAG-shaped fusions do not blow up.
 */
#include "codegen/cg.h"

#include <stdlib.h>
#include <string.h>

struct MemoEntry {
  Value *v;
  int rank;
  LLVMValueRef idx[CG_MAX_RANK];
  LLVMValueRef val;
  int next; /* index+1 of the next entry for the same value */
};

void kernel_io_reset_memo(KernelIO *io) {
  ptrmap_free(&io->memo_vals);
  io->nmemo = 0;
}

void kernel_io_free(KernelIO *io) {
  ptrmap_free(&io->memo_vals);
  free(io->memo);
  io->memo = NULL;
  io->nmemo = io->capmemo = 0;
}

static LLVMValueRef memo_get(KernelIO *io, Value *v, LLVMValueRef *idx, int rank) {
  for (int e = (int)(intptr_t)ptrmap_get(&io->memo_vals, v); e; e = io->memo[e - 1].next) {
    struct MemoEntry *m = &io->memo[e - 1];
    if (m->rank == rank && memcmp(m->idx, idx, sizeof(LLVMValueRef) * (size_t)rank) == 0) return m->val;
  }
  return NULL;
}

static void memo_put(KernelIO *io, Value *v, LLVMValueRef *idx, int rank, LLVMValueRef val) {
  if (io->nmemo == io->capmemo) {
    io->capmemo = io->capmemo ? io->capmemo * 2 : 64;
    io->memo = xrealloc(io->memo, sizeof(struct MemoEntry) * (size_t)io->capmemo);
  }
  struct MemoEntry *m = &io->memo[io->nmemo++];
  m->v = v;
  m->rank = rank;
  memcpy(m->idx, idx, sizeof(LLVMValueRef) * (size_t)rank);
  m->val = val;
  m->next = (int)(intptr_t)ptrmap_get(&io->memo_vals, v);
  ptrmap_put(&io->memo_vals, v, (void *)(intptr_t)io->nmemo);
}

static int input_index(const KernelIO *io, const Value *v) {
  for (int i = 0; i < io->ninputs; i++)
    if (io->inputs[i] == v) return i;
  return -1;
}

static bool is_input(Value *const *inputs, int n, const Value *v) {
  for (int i = 0; i < n; i++)
    if (inputs[i] == v) return true;
  return false;
}

static bool tensor_native(const Type *t) {
  return t->kind == TY_TENSOR && !t->quant && cg_elem_native(t->elem) && t->rank <= CG_MAX_RANK;
}

static bool op_elemental(const Op *op) {
  for (int i = 0; i < op->nres; i++)
    if (!tensor_native(op->res[i].type)) return false;
  switch (op->kind) {
  case OP_BROADCAST_IN_DIM: case OP_RESHAPE: case OP_TRANSPOSE: case OP_SLICE: case OP_IOTA:
  case OP_REVERSE: case OP_PAD: case OP_CONCATENATE: case OP_CONSTANT:
    return op->nres == 1;
  default:
    return op_has_flag(op->kind, OPF_EW) && op->nres == 1 && scalar_op_supported(op);
  }
}

static bool supported_rec(Value *v, Value *const *inputs, int ninputs, PtrMap *seen) {
  if (is_input(inputs, ninputs, v)) return tensor_native(v->type);
  if (!v->def) return false; /* a block argument that is not an input */
  if (ptrmap_has(seen, v->def)) return true;
  ptrmap_put(seen, v->def, (void *)1);
  if (!op_elemental(v->def)) return false;
  for (int i = 0; i < v->def->nopnds; i++)
    if (!supported_rec(v->def->opnds[i], inputs, ninputs, seen)) return false;
  return true;
}

bool elemental_supported(Value *const *roots, int nroots, Value *const *inputs, int ninputs) {
  PtrMap seen = {0};
  bool ok = true;
  for (int i = 0; i < nroots && ok; i++) ok = supported_rec(roots[i], inputs, ninputs, &seen);
  ptrmap_free(&seen);
  return ok;
}

/* row-major linear index of idx in dims */
static LLVMValueRef linearize(Cg *cg, const Type *t, LLVMValueRef *idx) {
  LLVMValueRef lin = cg_i64(cg, 0);
  for (int d = 0; d < t->rank; d++) {
    lin = LLVMBuildNSWMul(cg->b, lin, cg_i64(cg, t->dims[d]), "");
    lin = LLVMBuildNSWAdd(cg->b, lin, idx[d], "");
  }
  return lin;
}

static void delinearize(Cg *cg, const Type *t, LLVMValueRef lin, LLVMValueRef *idx) {
  for (int d = t->rank - 1; d >= 0; d--) {
    LLVMValueRef dim = cg_i64(cg, t->dims[d]);
    if (d == 0) {
      idx[d] = lin;
    } else {
      idx[d] = LLVMBuildURem(cg->b, lin, dim, "");
      lin = LLVMBuildUDiv(cg->b, lin, dim, "");
    }
  }
}

LLVMValueRef cg_constant_global(Cg *cg, const Literal *l) {
  LLVMValueRef cached = ptrmap_get(&cg->const_globals, l);
  if (cached) return cached;
  size_t nb = (size_t)l->n * (size_t)et_bytes(l->type->elem);
  LLVMValueRef init = LLVMConstStringInContext(cg->ctx, l->data, (unsigned)nb, 1);
  char name[32];
  snprintf(name, sizeof name, "const.%d", cg->counter++);
  LLVMValueRef g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetAlignment(g, 64);
  ptrmap_put(&cg->const_globals, l, g);
  return g;
}

/* the scalar value of a constant literal element, as the compute type */
static LLVMValueRef literal_elem(Cg *cg, const Literal *l, int64_t i) {
  ElemType et = l->type->elem;
  if (et_is_float(et)) return cg_const(cg, et, lit_get_f(l, i));
  if (et == ET_PRED) return LLVMConstInt(cg->t_i1, lit_get_b(l, i), 0);
  return LLVMConstInt(cg_compute_type(cg, et), (unsigned long long)lit_get_i(l, i), 1);
}

static bool literal_is_splat(const Literal *l) {
  size_t nb = (size_t)et_bytes(l->type->elem);
  for (int64_t i = 1; i < l->n; i++)
    if (memcmp(l->data, (char *)l->data + (size_t)i * nb, nb) != 0) return false;
  return true;
}

static LLVMValueRef gen(Cg *cg, KernelIO *io, Value *v, LLVMValueRef *idx);

static LLVMValueRef gen_op(Cg *cg, KernelIO *io, Op *op, LLVMValueRef *idx) {
  const Type *rt = op->res[0].type;
  LLVMValueRef oidx[CG_MAX_RANK];
  switch (op->kind) {
  case OP_CONSTANT: {
    Attr *a = op_attr(op, "value");
    const Literal *l = a->lit;
    if (l->n == 0) return cg_const(cg, rt->elem, 0);
    if (literal_is_splat(l)) return literal_elem(cg, l, 0);
    /* cache the global on the attribute's literal pointer */
    LLVMValueRef g = cg_constant_global(cg, l);
    return cg_load(cg, rt->elem, g, linearize(cg, rt, idx));
  }
  case OP_IOTA: {
    int64_t d = op_attr_int(op, "iota_dimension", 0);
    LLVMValueRef i = idx[d];
    if (et_is_float(rt->elem)) {
      LLVMValueRef f = LLVMBuildSIToFP(cg->b, i, cg->t_f64, "");
      return LLVMBuildFPTrunc(cg->b, f, cg_compute_type(cg, rt->elem), "") ;
    }
    return LLVMBuildTrunc(cg->b, i, cg_compute_type(cg, rt->elem), "");
  }
  case OP_BROADCAST_IN_DIM: {
    Value *x = op->opnds[0];
    int64_t *bd;
    op_attr_ints(op, "broadcast_dimensions", &bd);
    for (int i = 0; i < x->type->rank; i++)
      oidx[i] = x->type->dims[i] == 1 && rt->dims[bd[i]] != 1 ? cg_i64(cg, 0) : idx[bd[i]];
    return gen(cg, io, x, oidx);
  }
  case OP_RESHAPE: {
    Value *x = op->opnds[0];
    if (x->type->rank == rt->rank) {
      bool same = true;
      for (int i = 0; i < rt->rank; i++) same = same && x->type->dims[i] == rt->dims[i];
      if (same) return gen(cg, io, x, idx);
    }
    delinearize(cg, x->type, linearize(cg, rt, idx), oidx);
    return gen(cg, io, x, oidx);
  }
  case OP_TRANSPOSE: {
    int64_t *perm;
    op_attr_ints(op, "permutation", &perm);
    for (int i = 0; i < rt->rank; i++) oidx[perm[i]] = idx[i];
    return gen(cg, io, op->opnds[0], oidx);
  }
  case OP_REVERSE: {
    int64_t *dims;
    int n = op_attr_ints(op, "dimensions", &dims);
    memcpy(oidx, idx, sizeof(LLVMValueRef) * (size_t)rt->rank);
    for (int i = 0; i < n; i++)
      oidx[dims[i]] = LLVMBuildSub(cg->b, cg_i64(cg, rt->dims[dims[i]] - 1), idx[dims[i]], "");
    return gen(cg, io, op->opnds[0], oidx);
  }
  case OP_SLICE: {
    int64_t *start, *strides;
    op_attr_ints(op, "start_indices", &start);
    int ns = op_attr_ints(op, "strides", &strides);
    for (int i = 0; i < rt->rank; i++) {
      int64_t st = ns > i ? strides[i] : 1;
      oidx[i] = LLVMBuildAdd(cg->b, cg_i64(cg, start[i]), LLVMBuildMul(cg->b, idx[i], cg_i64(cg, st), ""), "");
    }
    return gen(cg, io, op->opnds[0], oidx);
  }
  case OP_PAD: {
    /* operand index = (i - lo) / (interior + 1) when in range and on the grid */
    Value *x = op->opnds[0];
    int64_t *lo, *in;
    op_attr_ints(op, "edge_padding_low", &lo);
    int nin = op_attr_ints(op, "interior_padding", &in);
    LLVMValueRef inb = LLVMConstInt(cg->t_i1, 1, 0);
    for (int i = 0; i < rt->rank; i++) {
      int64_t step = (nin > i ? in[i] : 0) + 1;
      LLVMValueRef rel = LLVMBuildSub(cg->b, idx[i], cg_i64(cg, lo[i]), "");
      LLVMValueRef q = LLVMBuildSDiv(cg->b, rel, cg_i64(cg, step), "");
      LLVMValueRef rm = LLVMBuildSRem(cg->b, rel, cg_i64(cg, step), "");
      LLVMValueRef ok = LLVMBuildAnd(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGE, rel, cg_i64(cg, 0), ""),
                                     LLVMBuildICmp(cg->b, LLVMIntEQ, rm, cg_i64(cg, 0), ""), "");
      ok = LLVMBuildAnd(cg->b, ok, LLVMBuildICmp(cg->b, LLVMIntSLT, q, cg_i64(cg, x->type->dims[i]), ""), "");
      inb = LLVMBuildAnd(cg->b, inb, ok, "");
      /* clamp so the (unused) load stays in bounds */
      LLVMValueRef z = cg_i64(cg, 0), hi = cg_i64(cg, x->type->dims[i] > 0 ? x->type->dims[i] - 1 : 0);
      q = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, q, z, ""), z, q, "");
      oidx[i] = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGT, q, hi, ""), hi, q, "");
    }
    LLVMValueRef pv = gen(cg, io, op->opnds[1], oidx); /* rank-0: index unused */
    if (type_num_elements(x->type) == 0) return pv;
    LLVMValueRef xv = gen(cg, io, x, oidx);
    return LLVMBuildSelect(cg->b, inb, xv, pv, "");
  }
  case OP_CONCATENATE: {
    int64_t dim = op_attr_int(op, "dimension", 0);
    LLVMValueRef result = NULL;
    int64_t off = 0;
    /* select chain from the last operand backwards */
    LLVMValueRef vals[64];
    int64_t offs[64];
    int n = op->nopnds < 64 ? op->nopnds : 64;
    for (int k = 0; k < n; k++) {
      Value *x = op->opnds[k];
      memcpy(oidx, idx, sizeof(LLVMValueRef) * (size_t)rt->rank);
      LLVMValueRef rel = LLVMBuildSub(cg->b, idx[dim], cg_i64(cg, off), "");
      LLVMValueRef z = cg_i64(cg, 0), hi = cg_i64(cg, x->type->dims[dim] > 0 ? x->type->dims[dim] - 1 : 0);
      rel = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, rel, z, ""), z, rel, "");
      oidx[dim] = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGT, rel, hi, ""), hi, rel, "");
      vals[k] = x->type->dims[dim] > 0 ? gen(cg, io, x, oidx) : NULL;
      offs[k] = off;
      off += x->type->dims[dim];
    }
    for (int k = n - 1; k >= 0; k--) {
      if (!vals[k]) continue;
      if (!result) {
        result = vals[k];
        continue;
      }
      LLVMValueRef lt = LLVMBuildICmp(cg->b, LLVMIntSLT, idx[dim], cg_i64(cg, offs[k + 1]), "");
      result = LLVMBuildSelect(cg->b, lt, vals[k], result, "");
    }
    return result ? result : cg_const(cg, rt->elem, 0);
  }
  default: {
    /* elementwise */
    LLVMValueRef in[4];
    ElemType it[4];
    for (int i = 0; i < op->nopnds && i < 4; i++) {
      Value *x = op->opnds[i];
      it[i] = x->type->elem;
      /* rank-0 operands of clamp/select broadcast */
      if (x->type->rank == 0 && rt->rank > 0)
        in[i] = gen(cg, io, x, NULL);
      else
        in[i] = gen(cg, io, x, idx);
    }
    return emit_scalar_op(cg, op, it, in, rt->elem);
  }
  }
}

static LLVMValueRef gen(Cg *cg, KernelIO *io, Value *v, LLVMValueRef *idx) {
  int rank = v->type->rank;
  LLVMValueRef zero_idx[1];
  if (rank == 0) idx = zero_idx; /* no index needed */
  LLVMValueRef m = memo_get(io, v, idx, rank);
  if (m) return m;
  LLVMValueRef r;
  int k = input_index(io, v);
  if (k >= 0)
    r = cg_load(cg, v->type->elem, io->input_ptrs[k], linearize(cg, v->type, idx));
  else
    r = gen_op(cg, io, v->def, idx);
  memo_put(io, v, idx, rank, r);
  return r;
}

LLVMValueRef emit_elemental(Cg *cg, KernelIO *io, Value *v, LLVMValueRef *idx) {
  return gen(cg, io, v, idx);
}
