/*
 * cg.c - type mapping, loads/stores, constants, intrinsic and libm calls,
 * and loop construction for both backends.
 *
 * Narrow floats (f8/f6/f4) are decoded with a small constant table built
 * from the interpreter's own decoder (literal.c), and encoded with integer
 * and float instructions that vectorize: the value is scaled by a power of
 * two so that rounding to the format's precision is one roundeven, then the
 * bits follow from the rounded integer and the exponent.  The facts each
 * format needs (bias, mantissa width, what overflow, NaN and -0 become) are
 * read off literal.c's conversions at compile time, so both agree bit for
 * bit without a second table of formats.
 */
#include "codegen/cg.h"

#include <llvm-c/DebugInfo.h>

#include <stdlib.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

bool cg_elem_basic(ElemType et) {
  switch (et) {
  case ET_PRED: case ET_S2: case ET_S4: case ET_S8: case ET_S16: case ET_S32: case ET_S64:
  case ET_U2: case ET_U4: case ET_U8: case ET_U16: case ET_U32: case ET_U64:
  case ET_F16: case ET_BF16: case ET_F32: case ET_F64:
    return true;
  default:
    return false;
  }
}

bool cg_elem_narrow(ElemType et) { return et_is_float(et) && et_bits(et) <= 8; }

bool cg_elem_native(ElemType et) { return cg_elem_basic(et) || cg_elem_narrow(et) || et_is_complex(et); }

bool cg_op_basic(const Op *op) {
  for (int i = 0; i < op->nopnds; i++) {
    const Type *t = op->opnds[i]->type;
    if (t->kind == TY_TENSOR && !cg_elem_basic(t->elem)) return false;
  }
  for (int i = 0; i < op->nres; i++) {
    const Type *t = op->res[i].type;
    if (t->kind == TY_TENSOR && !cg_elem_basic(t->elem)) return false;
  }
  return true;
}

bool cg_tensor_native(const Type *t) {
  return t->kind == TY_TENSOR && !t->quant && cg_elem_native(t->elem) && t->rank <= CG_MAX_RANK;
}

void cg_init(Cg *cg, LLVMContextRef ctx, Module *m, const char *name) {
  memset(cg, 0, sizeof *cg);
  cg->ctx = ctx;
  cg->m = m;
  cg->mod = LLVMModuleCreateWithNameInContext(name, ctx);
  cg->b = LLVMCreateBuilderInContext(ctx);
  cg->t_void = LLVMVoidTypeInContext(ctx);
  cg->t_i1 = LLVMInt1TypeInContext(ctx);
  cg->t_i8 = LLVMInt8TypeInContext(ctx);
  cg->t_i16 = LLVMInt16TypeInContext(ctx);
  cg->t_i32 = LLVMInt32TypeInContext(ctx);
  cg->t_i64 = LLVMInt64TypeInContext(ctx);
  cg->t_f16 = LLVMHalfTypeInContext(ctx);
  cg->t_bf16 = LLVMBFloatTypeInContext(ctx);
  cg->t_f32 = LLVMFloatTypeInContext(ctx);
  cg->t_f64 = LLVMDoubleTypeInContext(ctx);
  cg->t_ptr = LLVMPointerTypeInContext(ctx, 0);
}

LLVMTypeRef cg_storage_type(Cg *cg, ElemType et) {
  switch (et) {
  case ET_PRED: case ET_S2: case ET_S4: case ET_S8: case ET_U2: case ET_U4: case ET_U8:
    return cg->t_i8;
  case ET_S16: case ET_U16: return cg->t_i16;
  case ET_S32: case ET_U32: return cg->t_i32;
  case ET_S64: case ET_U64: return cg->t_i64;
  case ET_F16: return cg->t_f16;
  case ET_BF16: return cg->t_bf16;
  case ET_F32: return cg->t_f32;
  case ET_F64: return cg->t_f64;
  case ET_C64: case ET_C128: {
    LLVMTypeRef p = cg_part_type(cg, et), parts[2] = {p, p};
    return LLVMStructTypeInContext(cg->ctx, parts, 2, 0);
  }
  default: return cg->t_i8; /* narrow floats */
  }
}

LLVMTypeRef cg_part_type(Cg *cg, ElemType et) { return et == ET_C128 ? cg->t_f64 : cg->t_f32; }

LLVMTypeRef cg_compute_type(Cg *cg, ElemType et) {
  switch (et) {
  case ET_PRED: return cg->t_i1;
  case ET_S2: case ET_U2: return LLVMIntTypeInContext(cg->ctx, 2);
  case ET_S4: case ET_U4: return LLVMIntTypeInContext(cg->ctx, 4);
  case ET_F16: case ET_BF16: return cg->t_f32;
  case ET_F8E8M0FNU: return cg->t_f64;
  default: return cg_elem_narrow(et) ? cg->t_f32 : cg_storage_type(cg, et);
  }
}

LLVMValueRef cg_i64(Cg *cg, int64_t v) { return LLVMConstInt(cg->t_i64, (unsigned long long)v, 1); }

LLVMValueRef cg_load(Cg *cg, ElemType et, LLVMValueRef base, LLVMValueRef i) {
  LLVMTypeRef st = cg_storage_type(cg, et);
  LLVMValueRef p = LLVMBuildGEP2(cg->b, st, base, &i, 1, "");
  if (et_is_complex(et)) {
    /* two scalar loads, so the vectorizer sees an interleaved pair */
    LLVMTypeRef pt = cg_part_type(cg, et);
    LLVMValueRef re = LLVMBuildLoad2(cg->b, pt, LLVMBuildStructGEP2(cg->b, st, p, 0, ""), "");
    LLVMValueRef im = LLVMBuildLoad2(cg->b, pt, LLVMBuildStructGEP2(cg->b, st, p, 1, ""), "");
    return cg_complex(cg, et, re, im);
  }
  return cg_from_storage(cg, et, LLVMBuildLoad2(cg->b, st, p, ""));
}

LLVMValueRef cg_from_storage(Cg *cg, ElemType et, LLVMValueRef v) {
  switch (et) {
  case ET_PRED: return LLVMBuildICmp(cg->b, LLVMIntNE, v, LLVMConstInt(cg->t_i8, 0, 0), "");
  case ET_S2: case ET_U2: case ET_S4: case ET_U4:
    return LLVMBuildTrunc(cg->b, v, cg_compute_type(cg, et), "");
  case ET_F16: case ET_BF16: return LLVMBuildFPExt(cg->b, v, cg->t_f32, "");
  default: return cg_elem_narrow(et) ? cg_narrow_decode(cg, et, v) : v;
  }
}

LLVMValueRef cg_to_storage(Cg *cg, ElemType et, LLVMValueRef v) {
  if (cg_elem_narrow(et)) v = cg_narrow_encode(cg, et, v);
  switch (et) {
  case ET_PRED: return LLVMBuildZExt(cg->b, v, cg->t_i8, "");
  case ET_S2: case ET_S4: return LLVMBuildSExt(cg->b, v, cg->t_i8, "");
  case ET_U2: case ET_U4: return LLVMBuildZExt(cg->b, v, cg->t_i8, "");
  case ET_F16: case ET_BF16: return cg_fptrunc(cg, v, cg_storage_type(cg, et), "");
  default: return v;
  }
}

void cg_store(Cg *cg, ElemType et, LLVMValueRef base, LLVMValueRef i, LLVMValueRef v) {
  LLVMTypeRef st = cg_storage_type(cg, et);
  if (et_is_complex(et)) {
    LLVMValueRef p = LLVMBuildGEP2(cg->b, st, base, &i, 1, "");
    LLVMBuildStore(cg->b, cg_re(cg, v), LLVMBuildStructGEP2(cg->b, st, p, 0, ""));
    LLVMBuildStore(cg->b, cg_im(cg, v), LLVMBuildStructGEP2(cg->b, st, p, 1, ""));
    return;
  }
  v = cg_to_storage(cg, et, v);
  LLVMValueRef p = LLVMBuildGEP2(cg->b, st, base, &i, 1, "");
  LLVMBuildStore(cg->b, v, p);
}

/* the i32 constant c, or a vector of it when t is a vector type */
static LLVMValueRef splat_i32(LLVMTypeRef t, uint32_t c) {
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind) return LLVMConstInt(t, c, 0);
  unsigned n = LLVMGetVectorSize(t);
  LLVMValueRef k = LLVMConstInt(LLVMGetElementType(t), c, 0);
  LLVMValueRef *ks = xcalloc(n, sizeof(LLVMValueRef));
  for (unsigned i = 0; i < n; i++) ks[i] = k;
  LLVMValueRef r = LLVMConstVector(ks, n);
  xfree(ks);
  return r;
}

/* f32 -> bfloat16 by the bits: round to nearest even.
   LLVM's fptrunc becomes vcvtneps2bf16 in vector code, which flushes
   subnormal results to zero; this keeps them, as the interpreter does. */
static LLVMValueRef f32_to_bf16(Cg *cg, LLVMValueRef v, LLVMTypeRef to) {
  /* a bf16 value widened for computing comes back as it was */
  if (LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == LLVMFPExt &&
      LLVMTypeOf(LLVMGetOperand(v, 0)) == to)
    return LLVMGetOperand(v, 0);
  LLVMTypeRef ft = LLVMTypeOf(v), it = cg->t_i32, ht = cg->t_i16;
  if (LLVMGetTypeKind(ft) == LLVMVectorTypeKind) {
    unsigned n = LLVMGetVectorSize(ft);
    it = LLVMVectorType(it, n), ht = LLVMVectorType(ht, n);
  }
  LLVMValueRef bits = LLVMBuildBitCast(cg->b, v, it, "");
  LLVMValueRef lsb = LLVMBuildAnd(cg->b, LLVMBuildLShr(cg->b, bits, splat_i32(it, 16), ""),
                                  splat_i32(it, 1), "");
  LLVMValueRef rounded = LLVMBuildAdd(cg->b, LLVMBuildAdd(cg->b, bits, splat_i32(it, 0x7fff), ""), lsb, "");
  /* a NaN keeps its top bits (a bf16 NaN widened to f32 comes back
     unchanged, signalling or not); one whose payload lies only in the
     dropped bits is made quiet, so it does not become an infinity */
  LLVMValueRef payload = LLVMBuildAnd(cg->b, bits, splat_i32(it, 0x7f0000), "");
  LLVMValueRef empty = LLVMBuildICmp(cg->b, LLVMIntEQ, payload, splat_i32(it, 0), "");
  LLVMValueRef quiet = LLVMBuildSelect(cg->b, empty, LLVMBuildOr(cg->b, bits, splat_i32(it, 0x400000), ""), bits, "");
  LLVMValueRef nan = LLVMBuildFCmp(cg->b, LLVMRealUNO, v, v, "");
  LLVMValueRef r = LLVMBuildSelect(cg->b, nan, quiet, rounded, "");
  r = LLVMBuildTrunc(cg->b, LLVMBuildLShr(cg->b, r, splat_i32(it, 16), ""), ht, "");
  return LLVMBuildBitCast(cg->b, r, to, "");
}

LLVMValueRef cg_fptrunc(Cg *cg, LLVMValueRef v, LLVMTypeRef to, const char *name) {
  LLVMTypeRef ft = LLVMTypeOf(v), fe = ft, te = to;
  if (LLVMGetTypeKind(ft) == LLVMVectorTypeKind) fe = LLVMGetElementType(ft);
  if (LLVMGetTypeKind(to) == LLVMVectorTypeKind) te = LLVMGetElementType(to);
  if (LLVMGetTypeKind(fe) == LLVMFloatTypeKind && LLVMGetTypeKind(te) == LLVMBFloatTypeKind)
    return f32_to_bf16(cg, v, to);
  return LLVMBuildFPTrunc(cg->b, v, to, name);
}

LLVMBasicBlockRef cg_enter_entry(Cg *cg, LLVMValueRef fn) {
  LLVMBasicBlockRef cur = LLVMGetInsertBlock(cg->b);
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
  LLVMValueRef first = LLVMGetFirstInstruction(entry);
  if (first)
    LLVMPositionBuilderBefore(cg->b, first);
  else
    LLVMPositionBuilderAtEnd(cg->b, entry);
  return cur;
}

LLVMValueRef cg_entry_alloca(Cg *cg, LLVMValueRef fn, LLVMTypeRef t, const char *name) {
  LLVMBasicBlockRef cur = cg_enter_entry(cg, fn);
  LLVMValueRef a = LLVMBuildAlloca(cg->b, t, name);
  LLVMSetAlignment(a, 64);
  LLVMPositionBuilderAtEnd(cg->b, cur);
  return a;
}

void cg_set_nontemporal(Cg *cg, LLVMValueRef store) {
  LLVMMetadataRef one = LLVMValueAsMetadata(LLVMConstInt(cg->t_i32, 1, 0));
  LLVMSetMetadata(store, LLVMGetMDKindIDInContext(cg->ctx, "nontemporal", 11),
                  LLVMMetadataAsValue(cg->ctx, LLVMMDNodeInContext2(cg->ctx, &one, 1)));
}

LLVMValueRef cg_const(Cg *cg, ElemType et, double v) {
  LLVMTypeRef t = cg_compute_type(cg, et);
  if (et_is_complex(et)) {
    LLVMTypeRef pt = cg_part_type(cg, et);
    LLVMValueRef parts[2] = {LLVMConstReal(pt, v), LLVMConstReal(pt, 0.0)};
    return LLVMConstNamedStruct(t, parts, 2);
  }
  if (cg_elem_narrow(et)) return LLVMConstReal(t, et_bits_to_double(et, et_double_to_bits(et, v)));
  if (et_is_float(et)) return LLVMConstReal(t, v);
  if (et == ET_PRED) return LLVMConstInt(t, v != 0, 0);
  return LLVMConstInt(t, (unsigned long long)(int64_t)v, 1);
}

LLVMValueRef cg_const_int(Cg *cg, ElemType et, int64_t v) {
  LLVMTypeRef t = cg_compute_type(cg, et);
  if (et_is_fp(et)) return cg_const(cg, et, (double)v);
  return LLVMConstInt(t, (unsigned long long)v, 1);
}

LLVMValueRef cg_linearize(Cg *cg, const Type *t, LLVMValueRef *idx) {
  LLVMValueRef lin = cg_i64(cg, 0);
  for (int d = 0; d < t->rank; d++) {
    lin = LLVMBuildNSWMul(cg->b, lin, cg_i64(cg, t->dims[d]), "");
    lin = LLVMBuildNSWAdd(cg->b, lin, idx[d], "");
  }
  return lin;
}

void cg_delinearize(Cg *cg, const Type *t, LLVMValueRef lin, LLVMValueRef *idx) {
  if (cg->narrow_div && t->rank > 1 && type_num_elements(t) <= INT32_MAX) {
    LLVMValueRef rest = LLVMBuildTrunc(cg->b, lin, cg->t_i32, "");
    for (int d = t->rank - 1; d >= 0; d--) {
      LLVMValueRef dim = LLVMConstInt(cg->t_i32, (unsigned long long)t->dims[d], 0);
      LLVMValueRef c = d == 0 ? rest : LLVMBuildURem(cg->b, rest, dim, "");
      idx[d] = LLVMBuildZExt(cg->b, c, cg->t_i64, "");
      if (d) rest = LLVMBuildUDiv(cg->b, rest, dim, "");
    }
    return;
  }
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

/* The dimensions of a reshape fall into groups whose sizes multiply to
   the same number on both sides (512x384 -> 8x64x384: {512} with {8,64},
   {384} with {384}).  An index maps group by group: a dimension matched
   one to one passes through, a group of one dimension on either side is
   a linearize or a delinearize of that group alone.  The division and
   remainder by the whole shape's sizes are left only where a group has
   several dimensions on both sides; LLVM cannot remove them when an
   index is a sum it cannot bound, and they keep the loop from being
   vectorized. */
void cg_reshape_index(Cg *cg, const Type *from, LLVMValueRef *idx, const Type *to, LLVMValueRef *oidx) {
  bool empty = false;
  for (int d = 0; d < from->rank; d++) empty = empty || from->dims[d] == 0;
  if (empty) {
    cg_delinearize(cg, to, cg_linearize(cg, from, idx), oidx);
    return;
  }
  int i = 0, j = 0;
  while (i < from->rank || j < to->rank) {
    int i0 = i, j0 = j;
    int64_t pi = i < from->rank ? from->dims[i++] : 1;
    int64_t pj = j < to->rank ? to->dims[j++] : 1;
    while (pi != pj) {
      if (pi < pj && i < from->rank) pi *= from->dims[i++];
      else if (pj < pi && j < to->rank) pj *= to->dims[j++];
      else break; /* element counts differ: the verifier rejects this */
    }
    /* trailing dimensions of size 1 join the group */
    while (i < from->rank && from->dims[i] == 1 && (j >= to->rank || to->dims[j] != 1)) i++;
    while (j < to->rank && to->dims[j] == 1 && (i >= from->rank || from->dims[i] != 1)) j++;
    if (i - i0 == 1 && j - j0 == 1) {
      oidx[j0] = idx[i0];
      continue;
    }
    Type gf = {.kind = TY_TENSOR, .elem = from->elem, .rank = i - i0, .dims = from->dims + i0};
    Type gt = {.kind = TY_TENSOR, .elem = to->elem, .rank = j - j0, .dims = to->dims + j0};
    LLVMValueRef lin = cg_linearize(cg, &gf, idx + i0);
    if (j - j0 == 1) oidx[j0] = lin;
    else if (j > j0) cg_delinearize(cg, &gt, lin, oidx + j0);
  }
}

LLVMValueRef cg_index_to_i64(Cg *cg, ElemType et, LLVMValueRef v) {
  unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(v));
  if (et_is_signed(et)) return w < 64 ? LLVMBuildSExt(cg->b, v, cg->t_i64, "") : v;
  if (w < 64) return LLVMBuildZExt(cg->b, v, cg->t_i64, "");
  LLVMValueRef big = LLVMBuildICmp(cg->b, LLVMIntSLT, v, cg_i64(cg, 0), "");
  return LLVMBuildSelect(cg->b, big, cg_i64(cg, INT64_MAX), v, "");
}

LLVMValueRef cg_clamp_i64(Cg *cg, LLVMValueRef v, int64_t lo, int64_t hi) {
  LLVMValueRef l = cg_i64(cg, lo), h = cg_i64(cg, hi);
  v = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, v, l, ""), l, v, "");
  return LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGT, v, h, ""), h, v, "");
}

LLVMValueRef cg_intrinsic(Cg *cg, const char *name, LLVMTypeRef ty, LLVMValueRef *args, int n) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LLVMTypeRef tys[1] = {ty};
  LLVMValueRef fn = LLVMGetIntrinsicDeclaration(cg->mod, id, tys, ty ? 1 : 0);
  LLVMTypeRef fty = LLVMIntrinsicGetType(cg->ctx, id, tys, ty ? 1 : 0);
  return LLVMBuildCall2(cg->b, fty, fn, args, (unsigned)n, "");
}

LLVMValueRef cg_libm(Cg *cg, const char *name, LLVMValueRef *args, int n) {
  LLVMTypeRef params[3] = {cg->t_f64, cg->t_f64, cg->t_f64};
  LLVMTypeRef fty = LLVMFunctionType(cg->t_f64, params, (unsigned)n, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, name);
  if (!fn) fn = LLVMAddFunction(cg->mod, name, fty);
  return LLVMBuildCall2(cg->b, fty, fn, args, (unsigned)n, "");
}

Loop loop_begin(Cg *cg, LLVMValueRef lo, LLVMValueRef hi, const char *name) {
  Loop l;
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(cg->b));
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(cg->b);
  l.header = cg->top_tested_loops ? LLVMAppendBasicBlockInContext(cg->ctx, fn, name) : NULL;
  l.body = LLVMAppendBasicBlockInContext(cg->ctx, fn, l.header ? "body" : name);
  l.exit = LLVMAppendBasicBlockInContext(cg->ctx, fn, "exit");
  l.hi = hi;
  if (l.header) {
    LLVMBuildBr(cg->b, l.header);
  } else {
    /* constant bounds (nearly every loop: shapes are static) fold the
       test; a loop known to be empty keeps its branch (constant false),
       so the body keeps the predecessor its phi names */
    LLVMValueRef c = LLVMBuildICmp(cg->b, LLVMIntSLT, lo, hi, "");
    if (LLVMIsAConstantInt(c) && LLVMConstIntGetZExtValue(c))
      LLVMBuildBr(cg->b, l.body);
    else
      LLVMBuildCondBr(cg->b, c, l.body, l.exit);
  }
  LLVMPositionBuilderAtEnd(cg->b, l.header ? l.header : l.body);
  l.phi = LLVMBuildPhi(cg->b, cg->t_i64, "i");
  LLVMAddIncoming(l.phi, &lo, &pre, 1);
  if (l.header) {
    LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, l.phi, hi, ""), l.body, l.exit);
    LLVMPositionBuilderAtEnd(cg->b, l.body);
  }
  l.iv = l.phi;
  return l;
}

/* !llvm.loop metadata asking the vectorizer for vf lanes, on the loop's
   back edge br (the loop ID refers to itself, made through a temporary). */
void cg_loop_width(Cg *cg, LLVMValueRef br, int vf) {
  LLVMMetadataRef tmp = LLVMTemporaryMDNode(cg->ctx, NULL, 0);
  LLVMMetadataRef w[2] = {LLVMMDStringInContext2(cg->ctx, "llvm.loop.vectorize.width", 25),
                          LLVMValueAsMetadata(LLVMConstInt(cg->t_i32, (unsigned)vf, 0))};
  /* a width without vectorize.enable: a hint, not an order, so loops that
     cannot be vectorized (outer ones, calls) raise no warnings */
  LLVMMetadataRef ops[2] = {tmp, LLVMMDNodeInContext2(cg->ctx, w, 2)};
  LLVMMetadataRef id = LLVMMDNodeInContext2(cg->ctx, ops, 2);
  LLVMMetadataReplaceAllUsesWith(tmp, id);
  LLVMSetMetadata(br, LLVMGetMDKindIDInContext(cg->ctx, "llvm.loop", 9), LLVMMetadataAsValue(cg->ctx, id));
}

void loop_end_by(Cg *cg, Loop *l, LLVMValueRef step) {
  LLVMValueRef next = LLVMBuildNSWAdd(cg->b, l->phi, step, "");
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(cg->b);
  LLVMAddIncoming(l->phi, &next, &latch, 1);
  LLVMValueRef br;
  if (l->header) {
    br = LLVMBuildBr(cg->b, l->header);
  } else {
    /* by ones, the iv meets hi exactly (lo < hi on entry): != is the test
       LLVM's induction-variable pass would have rewritten it to */
    bool by_one = LLVMIsAConstantInt(step) && LLVMConstIntGetSExtValue(step) == 1;
    LLVMValueRef c = LLVMBuildICmp(cg->b, by_one ? LLVMIntNE : LLVMIntSLT, next, l->hi, "");
    br = LLVMBuildCondBr(cg->b, c, l->body, l->exit);
    /* the exit after the body's blocks, so the function reads in order */
    LLVMMoveBasicBlockAfter(l->exit, LLVMGetLastBasicBlock(LLVMGetBasicBlockParent(l->exit)));
  }
  if (cg->loop_vf > 0) cg_loop_width(cg, br, cg->loop_vf);
  LLVMPositionBuilderAtEnd(cg->b, l->exit);
}

void loop_end(Cg *cg, Loop *l) { loop_end_by(cg, l, cg_i64(cg, 1)); }

/* ---- complex values ---- */

LLVMValueRef cg_complex(Cg *cg, ElemType et, LLVMValueRef re, LLVMValueRef im) {
  LLVMValueRef z = LLVMGetUndef(cg_compute_type(cg, et));
  z = LLVMBuildInsertValue(cg->b, z, re, 0, "");
  return LLVMBuildInsertValue(cg->b, z, im, 1, "");
}

LLVMValueRef cg_re(Cg *cg, LLVMValueRef z) { return LLVMBuildExtractValue(cg->b, z, 0, ""); }
LLVMValueRef cg_im(Cg *cg, LLVMValueRef z) { return LLVMBuildExtractValue(cg->b, z, 1, ""); }

/* ---- narrow floats ---- */

/* What the code needs to know of a format, derived from literal.c. */
typedef struct NarrowFmt {
  int nbits, mbits, bias, emax; /* emax: exponent of the largest finite value */
  uint64_t nan_bits, ovf_pos, ovf_neg, negzero;
  double maxv, nan_val, ovf_pos_val, ovf_neg_val;
} NarrowFmt;

static NarrowFmt narrow_fmt(ElemType et) {
  NarrowFmt f;
  memset(&f, 0, sizeof f);
  f.nbits = et_bits(et);
  uint64_t one = et_double_to_bits(et, 1.0);
  if (et != ET_F8E8M0FNU) {
    /* the value after 1.0 is 1 + 2^-mbits; 1.0 is bias << mbits */
    double next = et_bits_to_double(et, one + 1);
    int e;
    frexp(next - 1.0, &e);
    f.mbits = 1 - e;
    f.bias = (int)(one >> f.mbits);
  }
  f.maxv = et_max_finite(et);
  int e;
  frexp(f.maxv, &e);
  f.emax = e - 1;
  f.nan_bits = et_double_to_bits(et, NAN);
  f.ovf_pos = et_double_to_bits(et, INFINITY);
  f.ovf_neg = et_double_to_bits(et, -INFINITY);
  f.negzero = et_double_to_bits(et, -0.0);
  f.nan_val = et_bits_to_double(et, f.nan_bits);
  f.ovf_pos_val = et_bits_to_double(et, f.ovf_pos);
  f.ovf_neg_val = et_bits_to_double(et, f.ovf_neg);
  return f;
}

static LLVMValueRef narrow_table(Cg *cg, ElemType et) {
  char name[64];
  snprintf(name, sizeof name, "xlac.decode.%s", elem_info[et].hlo_name);
  LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, name);
  if (g) return g;
  LLVMTypeRef ft = cg_compute_type(cg, et);
  int n = 1 << et_bits(et);
  LLVMValueRef vals[256];
  for (int i = 0; i < n; i++) vals[i] = LLVMConstReal(ft, et_bits_to_double(et, (uint64_t)i));
  LLVMValueRef init = LLVMConstArray(ft, vals, (unsigned)n);
  g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetAlignment(g, 64);
  return g;
}

LLVMValueRef cg_narrow_decode(Cg *cg, ElemType et, LLVMValueRef bits) {
  LLVMValueRef g = narrow_table(cg, et);
  /* sub-byte formats ignore the byte's high bits, as the interpreter does */
  LLVMValueRef m = LLVMBuildAnd(cg->b, bits, LLVMConstInt(cg->t_i8, (1u << et_bits(et)) - 1, 0), "");
  LLVMValueRef idx[2] = {cg_i64(cg, 0), LLVMBuildZExt(cg->b, m, cg->t_i64, "")};
  LLVMValueRef p = LLVMBuildInBoundsGEP2(cg->b, LLVMGlobalGetValueType(g), g, idx, 2, "");
  return LLVMBuildLoad2(cg->b, cg_compute_type(cg, et), p, "");
}

/* Integer and float types matching a float type t (f32 or f64). */
typedef struct FloatBits {
  LLVMTypeRef ft, it;
  unsigned w, mant, bias;
} FloatBits;

static FloatBits float_bits(Cg *cg, LLVMTypeRef t) {
  if (t == cg->t_f64) return (FloatBits){cg->t_f64, cg->t_i64, 64, 52, 1023};
  return (FloatBits){cg->t_f32, cg->t_i32, 32, 23, 127};
}

static LLVMValueRef ci(LLVMTypeRef t, int64_t v) { return LLVMConstInt(t, (unsigned long long)v, 1); }

/* 2^k for an integer k (of type fb.it) in the normal range, as fb.ft */
static LLVMValueRef pow2(Cg *cg, FloatBits fb, LLVMValueRef k) {
  LLVMValueRef e = LLVMBuildAdd(cg->b, k, ci(fb.it, fb.bias), "");
  return LLVMBuildBitCast(cg->b, LLVMBuildShl(cg->b, e, ci(fb.it, fb.mant), ""), fb.ft, "");
}

/* The rounding shared by encode and round: |v| = n * 2^(e - mbits), n an
   integer, e the exponent clamped to the format's range; *ovf when the
   rounded value is beyond the largest finite one. */
static void narrow_split(Cg *cg, const NarrowFmt *f, FloatBits fb, LLVMValueRef v, LLVMValueRef *n,
                         LLVMValueRef *e, LLVMValueRef *ovf) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef a = cg_intrinsic(cg, "llvm.fabs", fb.ft, &v, 1);
  LLVMValueRef ab = LLVMBuildBitCast(b, a, fb.it, "");
  LLVMValueRef ex = LLVMBuildSub(b, LLVMBuildLShr(b, ab, ci(fb.it, fb.mant), ""), ci(fb.it, fb.bias), "");
  /* below the smallest normal the step is fixed; above the largest finite
     value everything overflows, so clamping there keeps 2^(mbits - e) normal */
  ex = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, ex, ci(fb.it, 1 - f->bias), ""), ci(fb.it, 1 - f->bias), ex, "");
  ex = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, ex, ci(fb.it, f->emax + 1), ""), ci(fb.it, f->emax + 1), ex, "");
  LLVMValueRef up = pow2(cg, fb, LLVMBuildSub(b, ci(fb.it, f->mbits), ex, ""));
  LLVMValueRef t = LLVMBuildFMul(b, a, up, "");
  *n = cg_intrinsic(cg, "llvm.roundeven", fb.ft, &t, 1);
  LLVMValueRef r = LLVMBuildFMul(b, *n, pow2(cg, fb, LLVMBuildSub(b, ex, ci(fb.it, f->mbits), "")), "");
  *ovf = LLVMBuildFCmp(b, LLVMRealOGT, r, LLVMConstReal(fb.ft, f->maxv), "");
  *e = ex;
}

/* f8E8M0FNU keeps only an exponent: v rounds to the nearest power of two,
   ties (1.5 * 2^k) down, clamped below at 2^-127; v <= 0, NaN, infinity and
   values past 2^127 are NaN (0xff).  Computed on f64 bits. */
static LLVMValueRef e8m0_encode(Cg *cg, LLVMValueRef v) {
  LLVMBuilderRef b = cg->b;
  if (LLVMTypeOf(v) != cg->t_f64) v = LLVMBuildFPExt(b, v, cg->t_f64, "");
  LLVMValueRef bits = LLVMBuildBitCast(b, v, cg->t_i64, "");
  LLVMValueRef ex = LLVMBuildSub(b, LLVMBuildLShr(b, bits, ci(cg->t_i64, 52), ""), ci(cg->t_i64, 1023), "");
  LLVMValueRef frac = LLVMBuildAnd(b, bits, ci(cg->t_i64, (1ll << 52) - 1), "");
  LLVMValueRef above = LLVMBuildICmp(b, LLVMIntUGT, frac, ci(cg->t_i64, 1ll << 51), "");
  ex = LLVMBuildAdd(b, ex, LLVMBuildZExt(b, above, cg->t_i64, ""), "");
  ex = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, ex, ci(cg->t_i64, -127), ""), ci(cg->t_i64, -127), ex, "");
  LLVMValueRef ok = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOGT, v, LLVMConstReal(cg->t_f64, 0.0), ""),
                                 LLVMBuildICmp(b, LLVMIntSLE, ex, ci(cg->t_i64, 127), ""), "");
  /* +inf has exponent 1024, so the second test rejects it */
  LLVMValueRef r = LLVMBuildAdd(b, ex, ci(cg->t_i64, 127), "");
  return LLVMBuildTrunc(b, LLVMBuildSelect(b, ok, r, ci(cg->t_i64, 0xff), ""), cg->t_i8, "");
}

LLVMValueRef cg_narrow_encode(Cg *cg, ElemType et, LLVMValueRef v) {
  if (et == ET_F8E8M0FNU) return e8m0_encode(cg, v);
  LLVMBuilderRef b = cg->b;
  NarrowFmt f = narrow_fmt(et);
  FloatBits fb = float_bits(cg, LLVMTypeOf(v));
  LLVMValueRef n, e, ovf;
  narrow_split(cg, &f, fb, v, &n, &e, &ovf);
  /* ((e + bias - 1) << mbits) + n covers normal numbers (n carries the
     implicit bit, and its overflow into the exponent is the right carry)
     and subnormals (e = emin, so the first term is 0) */
  LLVMValueRef ni = LLVMBuildFPToUI(b, n, fb.it, "");
  LLVMValueRef mag = LLVMBuildAdd(b, LLVMBuildShl(b, LLVMBuildAdd(b, e, ci(fb.it, f.bias - 1), ""),
                                                  ci(fb.it, f.mbits), ""), ni, "");
  LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, LLVMBuildBitCast(b, v, fb.it, ""), ci(fb.it, 0), "");
  LLVMValueRef sbit = ci(fb.it, 1ll << (f.nbits - 1));
  LLVMValueRef zero = LLVMBuildICmp(b, LLVMIntEQ, mag, ci(fb.it, 0), "");
  LLVMValueRef negv = LLVMBuildSelect(b, zero, ci(fb.it, (int64_t)f.negzero), LLVMBuildOr(b, mag, sbit, ""), "");
  LLVMValueRef r = LLVMBuildSelect(b, neg, negv, mag, "");
  LLVMValueRef ovfv = LLVMBuildSelect(b, neg, ci(fb.it, (int64_t)f.ovf_neg), ci(fb.it, (int64_t)f.ovf_pos), "");
  r = LLVMBuildSelect(b, ovf, ovfv, r, "");
  LLVMValueRef isnan = LLVMBuildFCmp(b, LLVMRealUNO, v, v, "");
  r = LLVMBuildSelect(b, isnan, ci(fb.it, (int64_t)f.nan_bits), r, "");
  return LLVMBuildTrunc(b, r, cg->t_i8, "");
}

LLVMValueRef cg_narrow_round(Cg *cg, ElemType et, LLVMValueRef v) {
  LLVMBuilderRef b = cg->b;
  LLVMTypeRef t = cg_compute_type(cg, et);
  if (et == ET_F8E8M0FNU) {
    /* bits k + 127 are 2^k, or NaN for 0xff */
    LLVMValueRef k = LLVMBuildZExt(b, e8m0_encode(cg, v), cg->t_i64, "");
    FloatBits fb = float_bits(cg, cg->t_f64);
    LLVMValueRef p = pow2(cg, fb, LLVMBuildSub(b, k, ci(cg->t_i64, 127), ""));
    LLVMValueRef nan = LLVMBuildICmp(b, LLVMIntEQ, k, ci(cg->t_i64, 0xff), "");
    return LLVMBuildSelect(b, nan, LLVMConstReal(t, NAN), p, "");
  }
  NarrowFmt f = narrow_fmt(et);
  if (LLVMTypeOf(v) != t) v = cg_fptrunc(cg, v, t, ""); /* never: callers pass the compute type */
  FloatBits fb = float_bits(cg, t);
  LLVMValueRef n, e, ovf;
  narrow_split(cg, &f, fb, v, &n, &e, &ovf);
  LLVMValueRef r = LLVMBuildFMul(b, n, pow2(cg, fb, LLVMBuildSub(b, e, ci(fb.it, f.mbits), "")), "");
  LLVMValueRef cs[2] = {r, v};
  r = cg_intrinsic(cg, "llvm.copysign", t, cs, 2);
  if (f.negzero == 0) /* no -0: a zero result is +0 */
    r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOEQ, r, LLVMConstReal(t, 0.0), ""), LLVMConstReal(t, 0.0), r, "");
  LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, LLVMBuildBitCast(b, v, fb.it, ""), ci(fb.it, 0), "");
  LLVMValueRef ovfv = LLVMBuildSelect(b, neg, LLVMConstReal(t, f.ovf_neg_val), LLVMConstReal(t, f.ovf_pos_val), "");
  r = LLVMBuildSelect(b, ovf, ovfv, r, "");
  LLVMValueRef isnan = LLVMBuildFCmp(b, LLVMRealUNO, v, v, "");
  return LLVMBuildSelect(b, isnan, LLVMConstReal(t, f.nan_val), r, "");
}

LLVMValueRef cg_int_to_f64_odd(Cg *cg, ElemType et, LLVMValueRef v) {
  LLVMBuilderRef b = cg->b;
  bool sgn = et_is_signed(et);
  if (et == ET_PRED || et_bits(et) <= 32)
    return sgn ? LLVMBuildSIToFP(b, v, cg->t_f64, "") : LLVMBuildUIToFP(b, v, cg->t_f64, "");
  /* |v| with the bits below double's 53 folded into a sticky bit */
  LLVMTypeRef t64 = cg->t_i64;
  LLVMValueRef neg = sgn ? LLVMBuildICmp(b, LLVMIntSLT, v, ci(t64, 0), "") : LLVMConstInt(cg->t_i1, 0, 0);
  LLVMValueRef m = sgn ? LLVMBuildSelect(b, neg, LLVMBuildNeg(b, v, ""), v, "") : v;
  LLVMValueRef args[2] = {m, LLVMConstInt(cg->t_i1, 0, 0)};
  LLVMValueRef lz = cg_intrinsic(cg, "llvm.ctlz", t64, args, 2);
  LLVMValueRef sh = LLVMBuildSub(b, ci(t64, 11), lz, "");
  LLVMValueRef wide = LLVMBuildICmp(b, LLVMIntSGT, sh, ci(t64, 0), "");
  LLVMValueRef s = LLVMBuildSelect(b, wide, sh, ci(t64, 0), "");
  LLVMValueRef low = LLVMBuildSub(b, LLVMBuildShl(b, ci(t64, 1), s, ""), ci(t64, 1), "");
  LLVMValueRef sticky = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, m, low, ""), ci(t64, 0), "");
  LLVMValueRef kept = LLVMBuildAnd(b, m, LLVMBuildNot(b, low, ""), "");
  kept = LLVMBuildOr(b, kept, LLVMBuildShl(b, LLVMBuildZExt(b, sticky, t64, ""), s, ""), "");
  LLVMValueRef d = LLVMBuildUIToFP(b, kept, cg->t_f64, "");
  return LLVMBuildSelect(b, neg, LLVMBuildFNeg(b, d, ""), d, "");
}

int64_t type_bytes(const Type *t) {
  return t->kind == TY_TENSOR ? type_num_elements(t) * et_bytes(t->elem) : 0;
}

LLVMValueRef cg_min64(Cg *cg, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, a, b, ""), a, b, "");
}

LLVMValueRef cg_max64(Cg *cg, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGT, a, b, ""), a, b, "");
}

LLVMValueRef cg_elem_ptr(Cg *cg, ElemType et, LLVMValueRef base, LLVMValueRef i) {
  return LLVMBuildGEP2(cg->b, cg_storage_type(cg, et), base, &i, 1, "");
}
