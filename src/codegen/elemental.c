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
 *
 * Ops that address elements through index values (dynamic_slice,
 * dynamic_update_slice, gather) are index-mapping ops too, with the
 * interpreter's semantics: start indices are clamped into range.  Their
 * start indices are rank-0 values and so the same for every element: they
 * are computed once in the kernel's entry block, out of the loops.  Every
 * shape condition the interpreter checks at run time is checked here
 * before the op is accepted, so compiled code never meets a case the
 * interpreter would reject (those go through the interpreter thunk).
 *
 * Elementwise ops on complex or narrow-float (f8/f6/f4) values go to
 * emit_complex.c; every other elementwise op to the scalar emitter.
 */
#include "codegen/cg.h"

#include "ir/match.h"

#include <stdio.h>
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
  xfree(io->memo);
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

/* ---- static checks of the indexing ops ---- */

static bool int_index_type(const Type *t) {
  return t->kind == TY_TENSOR && !t->quant && et_is_int(t->elem) && cg_elem_native(t->elem);
}

/* How dynamic_slice / dynamic_update_slice give their start indices from
   operand `first` on: 1 = one scalar per dimension, 2 = one 1-D tensor,
   0 = neither (left to the interpreter, which reports it). */
static int starts_form(const Op *op, int first, int rank) {
  int n = op->nopnds - first;
  for (int i = 0; i < n; i++)
    if (!int_index_type(op->opnds[first + i]->type)) return 0;
  if (n == rank && (rank != 1 || type_num_elements(op->opnds[first]->type) == 1)) {
    for (int d = 0; d < rank; d++)
      if (type_num_elements(op->opnds[first + d]->type) != 1 || op->opnds[first + d]->type->rank > CG_MAX_RANK)
        return 0;
    return 1;
  }
  if (n == 1 && op->opnds[first]->type->rank == 1 && op->opnds[first]->type->dims[0] == rank) return 2;
  return 0;
}

/* The interpreter's checks of gather, with every element it reads proved
   in bounds (ir/match.c), on types the code generator handles. */
static bool gather_ok(const Op *op) {
  GatherDims g;
  return op->nopnds == 2 && cg_tensor_native(op->opnds[0]->type) && int_index_type(op->opnds[1]->type) &&
         op->opnds[1]->type->rank <= CG_MAX_RANK && match_gather(op, &g);
}

static bool index_op_ok(const Op *op) {
  const Type *t = op->res[0].type;
  if (op->nopnds < 1) return false;
  const Type *xt = op->opnds[0]->type;
  switch (op->kind) {
  case OP_DYNAMIC_SLICE: {
    if (!cg_tensor_native(xt) || t->elem != xt->elem || t->rank != xt->rank || !starts_form(op, 1, xt->rank))
      return false;
    int64_t *sizes;
    int ns = op_attr_ints(op, "slice_sizes", &sizes);
    if (ns != 0 && ns != xt->rank) return false;
    for (int d = 0; d < xt->rank; d++)
      if (t->dims[d] > xt->dims[d] || (ns && sizes[d] != t->dims[d])) return false;
    return true;
  }
  case OP_DYNAMIC_UPDATE_SLICE: {
    if (op->nopnds < 2) return false;
    const Type *ut = op->opnds[1]->type;
    if (!cg_tensor_native(xt) || !cg_tensor_native(ut) || t->elem != xt->elem || ut->elem != xt->elem ||
        !type_same_shape(t, xt) || ut->rank != xt->rank || !starts_form(op, 2, xt->rank))
      return false;
    for (int d = 0; d < xt->rank; d++)
      if (ut->dims[d] > xt->dims[d]) return false;
    return true;
  }
  case OP_GATHER:
    return gather_ok(op);
  default:
    return false;
  }
}

/* A bitcast_convert between native non-complex types of different widths
   (the result gains or loses a minor dimension of the width ratio; i1 is
   one bit wide, as in the interpreter: element k is bit k; a complex
   value's bits are its real part's, then its imaginary part's). */
static bool bitcast_resize_ok(const Op *op) {
  if (op->nopnds != 1) return false;
  const Type *x = op->opnds[0]->type, *t = op->res[0].type;
  if (x->kind != TY_TENSOR || x->quant || t->quant) return false;
  ElemType a = x->elem, b = t->elem;
  if (!cg_elem_native(a) || !cg_elem_native(b)) return false;
  int wa = et_bits(a), wb = et_bits(b);
  if (wa <= 0 || wb <= 0 || wa > 128 || wb > 128 || wa == wb) return false;
  if (wa > wb) return wa % wb == 0 && t->rank == x->rank + 1 && t->dims[t->rank - 1] == wa / wb;
  return wb % wa == 0 && x->rank == t->rank + 1 && x->dims[x->rank - 1] == wb / wa;
}

/* The bits of v, a compute-type value of et, as an integer of et's width
   (complex: the real part's bits low, as stored), and back. */
static LLVMValueRef value_bits(Cg *cg, ElemType et, LLVMValueRef v) {
  if (!et_is_complex(et)) return cg_to_bits(cg, et, v);
  ElemType pe = et == ET_C64 ? ET_F32 : ET_F64;
  unsigned pw = (unsigned)et_bits(pe);
  LLVMTypeRef t = LLVMIntTypeInContext(cg->ctx, 2 * pw);
  LLVMValueRef re = LLVMBuildZExt(cg->b, cg_to_bits(cg, pe, cg_re(cg, v)), t, "");
  LLVMValueRef im = LLVMBuildZExt(cg->b, cg_to_bits(cg, pe, cg_im(cg, v)), t, "");
  return LLVMBuildOr(cg->b, re, LLVMBuildShl(cg->b, im, LLVMConstInt(t, pw, 0), ""), "");
}

static LLVMValueRef bits_value(Cg *cg, ElemType et, LLVMValueRef bits) {
  if (!et_is_complex(et)) return cg_from_bits(cg, et, bits);
  ElemType pe = et == ET_C64 ? ET_F32 : ET_F64;
  unsigned pw = (unsigned)et_bits(pe);
  LLVMTypeRef pt = LLVMIntTypeInContext(cg->ctx, pw);
  LLVMValueRef re = cg_from_bits(cg, pe, LLVMBuildTrunc(cg->b, bits, pt, ""));
  LLVMValueRef hi = LLVMBuildLShr(cg->b, bits, LLVMConstInt(LLVMTypeOf(bits), pw, 0), "");
  return cg_complex(cg, et, re, cg_from_bits(cg, pe, LLVMBuildTrunc(cg->b, hi, pt, "")));
}

static bool op_elemental(const Op *op) {
  for (int i = 0; i < op->nres; i++)
    if (!cg_tensor_native(op->res[i].type)) return false;
  switch (op->kind) {
  case OP_BROADCAST_IN_DIM: case OP_RESHAPE: case OP_TRANSPOSE: case OP_SLICE: case OP_IOTA:
  case OP_REVERSE: case OP_PAD: case OP_CONCATENATE: case OP_CONSTANT:
    return op->nres == 1;
  case OP_DYNAMIC_SLICE: case OP_DYNAMIC_UPDATE_SLICE: case OP_GATHER:
    return op->nres == 1 && index_op_ok(op);
  case OP_BITCAST_CONVERT: /* elementwise when the widths match (emit_scalar.c), else index-mapping */
    return op->nres == 1 && (scalar_op_supported(op) || bitcast_resize_ok(op));
  default:
    if (!op_has_flag(op->kind, OPF_EW) || op->nres != 1) return false;
    return cg_op_basic(op) ? scalar_op_supported(op) : special_op_supported(op);
  }
}

static bool supported_rec(Value *v, Value *const *inputs, int ninputs, PtrMap *seen) {
  if (is_input(inputs, ninputs, v)) return cg_tensor_native(v->type);
  if (!v->def) return false; /* a block argument that is not an input */
  if (ptrmap_has(seen, v->def)) return true;
  ptrmap_put(seen, v->def, (void *)1);
  if (!op_elemental(v->def)) return false;
  for (int i = 0; i < v->def->nopnds; i++)
    if (!supported_rec(v->def->opnds[i], inputs, ninputs, seen)) return false;
  return true;
}

bool elemental_flat(Value *v, const Type *shape, Value *const *inputs, int n, PtrMap *seen) {
  for (int i = 0; i < n; i++)
    if (inputs[i] == v) return v->type->rank == 0 || type_same_shape(v->type, shape);
  if (ptrmap_has(seen, v)) return true;
  ptrmap_put(seen, v, (void *)1);
  Op *op = v->def;
  if (!op) return false;
  if (op->kind == OP_CONSTANT) {
    const Literal *l = op_attr(op, "value")->lit;
    return v->type->rank == 0 || l->n <= 1 || type_same_shape(v->type, shape);
  }
  if (!op_has_flag(op->kind, OPF_EW)) return false;
  if (v->type->rank != 0 && !type_same_shape(v->type, shape)) return false;
  for (int i = 0; i < op->nopnds; i++)
    if (!elemental_flat(op->opnds[i], shape, inputs, n, seen)) return false;
  return true;
}

bool elemental_supported(Value *const *roots, int nroots, Value *const *inputs, int ninputs) {
  PtrMap seen = {0};
  bool ok = true;
  for (int i = 0; i < nroots && ok; i++) ok = supported_rec(roots[i], inputs, ninputs, &seen);
  ptrmap_free(&seen);
  return ok;
}

LLVMValueRef cg_bytes_global(Cg *cg, const void *data, size_t nb, const char *prefix) {
  char name[48];
  snprintf(name, sizeof name, "%s.%d", prefix, cg->counter++);
  if (cg->ext && nb > CG_EXTERN_MIN) {
    CgData d = {.nb = nb};
    snprintf(d.name, sizeof d.name, "xlac.data.%s", name);
    d.bytes = try_aligned_alloc(64, nb);
    if (!d.bytes) oom_raise(nb);
    oom_track_adopt(d.bytes);
    memcpy(d.bytes, data, nb);
    VEC_PUSH(*cg->ext, d);
    LLVMValueRef g = LLVMAddGlobal(cg->mod, LLVMArrayType2(cg->t_i8, nb), d.name);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetAlignment(g, 64);
    return g;
  }
  LLVMValueRef init = LLVMConstStringInContext(cg->ctx, data, (unsigned)nb, 1);
  LLVMValueRef g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetAlignment(g, 64);
  return g;
}

LLVMValueRef cg_constant_global(Cg *cg, const Literal *l) {
  LLVMValueRef cached = ptrmap_get(&cg->const_globals, l);
  if (cached) return cached;
  size_t nb = (size_t)l->n * (size_t)et_bytes(l->type->elem);
  LLVMValueRef g = cg_bytes_global(cg, l->data, nb, "const");
  ptrmap_put(&cg->const_globals, l, g);
  return g;
}

/* the scalar value of a constant literal element, as the compute type */
static LLVMValueRef literal_elem(Cg *cg, const Literal *l, int64_t i) {
  ElemType et = l->type->elem;
  if (et_is_complex(et)) {
    double re, im;
    lit_get_c(l, i, &re, &im);
    LLVMTypeRef pt = cg_part_type(cg, et);
    LLVMValueRef parts[2] = {LLVMConstReal(pt, re), LLVMConstReal(pt, im)};
    return LLVMConstNamedStruct(cg_compute_type(cg, et), parts, 2);
  }
  if (et_is_float(et)) return cg_const(cg, et, lit_get_f(l, i));
  if (et == ET_PRED) return LLVMConstInt(cg->t_i1, lit_get_b(l, i), 0);
  return LLVMConstInt(cg_compute_type(cg, et), (unsigned long long)lit_get_i(l, i), 1);
}

static LLVMValueRef gen(Cg *cg, KernelIO *io, Value *v, LLVMValueRef *idx);

/* v at a constant index, computed in the kernel's entry block when that is
   valid (the input pointers are loaded there): the value is the same for
   every element, so it is computed once instead of once per element.  A
   separate memo keeps values of the loop body out of the entry block. */
static LLVMValueRef gen_hoisted(Cg *cg, KernelIO *io, Value *v, LLVMValueRef *idx) {
  LLVMBasicBlockRef cur = LLVMGetInsertBlock(cg->b);
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(cur));
  LLVMValueRef term = LLVMGetBasicBlockTerminator(entry);
  bool hoist = cur != entry && term;
  for (int i = 0; hoist && i < io->ninputs; i++) {
    LLVMValueRef p = io->input_ptrs[i];
    if (p && LLVMIsAInstruction(p) && LLVMGetInstructionParent(p) != entry) hoist = false;
  }
  if (!hoist) return gen(cg, io, v, idx);
  KernelIO saved = *io;
  memset(&io->memo_vals, 0, sizeof io->memo_vals);
  io->memo = NULL;
  io->nmemo = io->capmemo = 0;
  LLVMPositionBuilderBefore(cg->b, term);
  LLVMValueRef r = gen(cg, io, v, idx);
  kernel_io_free(io);
  *io = saved;
  LLVMPositionBuilderAtEnd(cg->b, cur);
  return r;
}

/* Start index of dimension d of a dynamic slice, unclamped, as i64. */
static LLVMValueRef slice_start(Cg *cg, KernelIO *io, const Op *op, int first, int d) {
  LLVMValueRef pos[CG_MAX_RANK];
  Value *s;
  if (starts_form(op, first, op->opnds[0]->type->rank) == 1) {
    s = op->opnds[first + d];
    for (int i = 0; i < s->type->rank; i++) pos[i] = cg_i64(cg, 0);
  } else {
    s = op->opnds[first];
    pos[0] = cg_i64(cg, d);
  }
  return cg_index_to_i64(cg, s->type->elem, gen_hoisted(cg, io, s, pos));
}

static LLVMValueRef gen_dynamic_slice(Cg *cg, KernelIO *io, Op *op, LLVMValueRef *idx) {
  const Type *rt = op->res[0].type, *xt = op->opnds[0]->type;
  LLVMValueRef oidx[CG_MAX_RANK];
  for (int d = 0; d < rt->rank; d++) {
    LLVMValueRef st = cg_clamp_i64(cg, slice_start(cg, io, op, 1, d), 0, xt->dims[d] - rt->dims[d]);
    oidx[d] = LLVMBuildAdd(cg->b, idx[d], st, "");
  }
  return gen(cg, io, op->opnds[0], oidx);
}

static LLVMValueRef gen_dynamic_update_slice(Cg *cg, KernelIO *io, Op *op, LLVMValueRef *idx) {
  const Type *xt = op->opnds[0]->type, *ut = op->opnds[1]->type;
  LLVMValueRef xv = gen(cg, io, op->opnds[0], idx);
  if (type_num_elements(ut) == 0) return xv;
  LLVMValueRef uidx[CG_MAX_RANK], inside = LLVMConstInt(cg->t_i1, 1, 0);
  for (int d = 0; d < xt->rank; d++) {
    LLVMValueRef st = cg_clamp_i64(cg, slice_start(cg, io, op, 2, d), 0, xt->dims[d] - ut->dims[d]);
    LLVMValueRef rel = LLVMBuildSub(cg->b, idx[d], st, "");
    /* one unsigned compare tests 0 <= rel < size */
    LLVMValueRef in = LLVMBuildICmp(cg->b, LLVMIntULT, rel, cg_i64(cg, ut->dims[d]), "");
    inside = LLVMBuildAnd(cg->b, inside, in, "");
    uidx[d] = cg_clamp_i64(cg, rel, 0, ut->dims[d] - 1); /* the unused load stays in bounds */
  }
  LLVMValueRef uv = gen(cg, io, op->opnds[1], uidx);
  return LLVMBuildSelect(cg->b, inside, uv, xv, "");
}

void gather_operand_index(Cg *cg, KernelIO *io, Op *op, LLVMValueRef *idx, LLVMValueRef *full) {
  const Type *rt = op->res[0].type, *xt = op->opnds[0]->type;
  Value *ind = op->opnds[1];
  const Type *it = ind->type;
  GatherDims g;
  match_gather(op, &g);
  const int64_t *sizes = g.sizes;
  LLVMValueRef batch[CG_MAX_RANK], pos[CG_MAX_RANK];
  int nb = 0;
  for (int d = 0; d < rt->rank; d++)
    if (!ints_contain(g.offset, g.noffset, d)) batch[nb++] = idx[d];
  for (int k = 0, b = 0; k < it->rank; k++)
    if (k != g.ivd) pos[k] = batch[b++];
  for (int d = 0; d < xt->rank; d++) full[d] = cg_i64(cg, 0);
  for (int j = 0; j < g.nmap; j++) {
    if (g.ivd < it->rank) pos[g.ivd] = cg_i64(cg, j);
    LLVMValueRef v = cg_index_to_i64(cg, it->elem, gen(cg, io, ind, pos));
    int64_t d = g.map[j];
    full[d] = cg_clamp_i64(cg, v, 0, xt->dims[d] - sizes[d]);
  }
  for (int i = 0; i < g.nobatch; i++) {
    int64_t ds = g.ibatch[i];
    full[g.obatch[i]] = LLVMBuildAdd(cg->b, full[g.obatch[i]], batch[ds - (ds < g.ivd ? 0 : 1)], "");
  }
  for (int d = 0, k = 0; d < rt->rank; d++) {
    if (!ints_contain(g.offset, g.noffset, d)) continue;
    while (ints_contain(g.collapsed, g.ncollapsed, k) || ints_contain(g.obatch, g.nobatch, k)) k++;
    full[k] = LLVMBuildAdd(cg->b, full[k], idx[d], "");
    k++;
  }
}

static LLVMValueRef gen_gather(Cg *cg, KernelIO *io, Op *op, LLVMValueRef *idx) {
  LLVMValueRef full[CG_MAX_RANK];
  gather_operand_index(cg, io, op, idx, full);
  return gen(cg, io, op->opnds[0], full);
}

static LLVMValueRef gen_op(Cg *cg, KernelIO *io, Op *op, LLVMValueRef *idx) {
  const Type *rt = op->res[0].type;
  LLVMValueRef oidx[CG_MAX_RANK];
  switch (op->kind) {
  case OP_CONSTANT: {
    Attr *a = op_attr(op, "value");
    const Literal *l = a->lit;
    if (l->n == 0) return cg_const(cg, rt->elem, 0);
    if (lit_is_splat(l)) return literal_elem(cg, l, 0);
    /* cache the global on the attribute's literal pointer */
    LLVMValueRef g = cg_constant_global(cg, l);
    return cg_load(cg, rt->elem, g, cg_linearize(cg, rt, idx));
  }
  case OP_IOTA: {
    int64_t d = op_attr_int(op, "iota_dimension", 0);
    LLVMValueRef i = idx[d];
    if (et_is_complex(rt->elem)) {
      LLVMTypeRef pt = cg_part_type(cg, rt->elem);
      return cg_complex(cg, rt->elem, LLVMBuildSIToFP(cg->b, i, pt, ""), LLVMConstReal(pt, 0.0));
    }
    if (cg_elem_narrow(rt->elem)) {
      LLVMValueRef f = LLVMBuildSIToFP(cg->b, i, cg->t_f64, "");
      return cg_narrow_decode(cg, rt->elem, cg_narrow_encode(cg, rt->elem, f));
    }
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
    cg_reshape_index(cg, rt, idx, x->type, oidx);
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
      /* the verifier bounds (dims - 1) * (interior + 1); with one element the
         interior amount is unused and may be anything */
      int64_t step = x->type->dims[i] > 1 && nin > i ? in[i] + 1 : 1;
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
  case OP_DYNAMIC_SLICE:
    return gen_dynamic_slice(cg, io, op, idx);
  case OP_DYNAMIC_UPDATE_SLICE:
    return gen_dynamic_update_slice(cg, io, op, idx);
  case OP_GATHER:
    return gen_gather(cg, io, op, idx);
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
  case OP_BITCAST_CONVERT: {
    Value *x = op->opnds[0];
    ElemType a = x->type->elem, b = rt->elem;
    int wa = et_bits(a), wb = et_bits(b);
    if (wa == wb) goto elementwise;
    /* chunks in little-endian order along the minor dimension */
    LLVMTypeRef ta = LLVMIntTypeInContext(cg->ctx, (unsigned)wa), tb = LLVMIntTypeInContext(cg->ctx, (unsigned)wb);
    if (wa > wb) {
      LLVMValueRef bits = value_bits(cg, a, gen(cg, io, x, idx));
      LLVMValueRef sh = LLVMBuildMul(cg->b, LLVMBuildIntCast2(cg->b, idx[rt->rank - 1], ta, 0, ""),
                                     LLVMConstInt(ta, (unsigned)wb, 0), "");
      return bits_value(cg, b, LLVMBuildTrunc(cg->b, LLVMBuildLShr(cg->b, bits, sh, ""), tb, ""));
    }
    memcpy(oidx, idx, sizeof(LLVMValueRef) * (size_t)rt->rank);
    LLVMValueRef acc = LLVMConstInt(tb, 0, 0);
    for (int k = 0; k < wb / wa; k++) {
      oidx[rt->rank] = cg_i64(cg, k);
      LLVMValueRef part = LLVMBuildZExt(cg->b, value_bits(cg, a, gen(cg, io, x, oidx)), tb, "");
      acc = LLVMBuildOr(cg->b, acc, LLVMBuildShl(cg->b, part, LLVMConstInt(tb, (unsigned)(k * wa), 0), ""), "");
    }
    return bits_value(cg, b, acc);
  }
  default:
  elementwise: {
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
    if (!cg_op_basic(op)) return emit_special_op(cg, op, it, in, rt->elem);
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
    r = cg_load(cg, v->type->elem, io->input_ptrs[k], cg_linearize(cg, v->type, idx));
  else
    r = gen_op(cg, io, v->def, idx);
  memo_put(io, v, idx, rank, r);
  return r;
}

LLVMValueRef emit_elemental(Cg *cg, KernelIO *io, Value *v, LLVMValueRef *idx) {
  return gen(cg, io, v, idx);
}

void kernel_io_give(KernelIO *io, Value *v, LLVMValueRef *idx, LLVMValueRef val) {
  LLVMValueRef zero_idx[1] = {NULL};
  memo_put(io, v, v->type->rank ? idx : zero_idx, v->type->rank, val);
}

void elemental_store_roots(Cg *cg, KernelIO *io, Value *const *roots, int nroots, LLVMValueRef *outs,
                           LLVMValueRef *idx, LLVMValueRef lin, bool reset) {
  if (reset) kernel_io_reset_memo(io);
  LLVMValueRef *v = xcalloc((size_t)nroots + 1, sizeof(LLVMValueRef));
  for (int r = 0; r < nroots; r++) v[r] = emit_elemental(cg, io, roots[r], idx);
  for (int r = 0; r < nroots; r++) cg_store(cg, roots[r]->type->elem, outs[r], lin, v[r]);
  xfree(v);
}
