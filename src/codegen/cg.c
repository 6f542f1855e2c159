/*
 * cg.c - type mapping, loads/stores, constants, intrinsic and libm calls,
 * and loop construction for the CPU code generator.
 */
#include "codegen/cg.h"

#include <string.h>

bool cg_elem_native(ElemType et) {
  switch (et) {
  case ET_PRED: case ET_S2: case ET_S4: case ET_S8: case ET_S16: case ET_S32: case ET_S64:
  case ET_U2: case ET_U4: case ET_U8: case ET_U16: case ET_U32: case ET_U64:
  case ET_F16: case ET_BF16: case ET_F32: case ET_F64:
    return true;
  default:
    return false;
  }
}

bool cg_tensor_native(const Type *t) {
  return t->kind == TY_TENSOR && !t->quant && cg_elem_native(t->elem) && t->rank <= CG_MAX_RANK;
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
  default: return cg->t_i8;
  }
}

LLVMTypeRef cg_compute_type(Cg *cg, ElemType et) {
  switch (et) {
  case ET_PRED: return cg->t_i1;
  case ET_S2: case ET_U2: return LLVMIntTypeInContext(cg->ctx, 2);
  case ET_S4: case ET_U4: return LLVMIntTypeInContext(cg->ctx, 4);
  case ET_F16: case ET_BF16: return cg->t_f32;
  default: return cg_storage_type(cg, et);
  }
}

LLVMValueRef cg_i64(Cg *cg, int64_t v) { return LLVMConstInt(cg->t_i64, (unsigned long long)v, 1); }

LLVMValueRef cg_load(Cg *cg, ElemType et, LLVMValueRef base, LLVMValueRef i) {
  LLVMTypeRef st = cg_storage_type(cg, et);
  LLVMValueRef p = LLVMBuildGEP2(cg->b, st, base, &i, 1, "");
  LLVMValueRef v = LLVMBuildLoad2(cg->b, st, p, "");
  switch (et) {
  case ET_PRED: return LLVMBuildICmp(cg->b, LLVMIntNE, v, LLVMConstInt(cg->t_i8, 0, 0), "");
  case ET_S2: case ET_U2: case ET_S4: case ET_U4:
    return LLVMBuildTrunc(cg->b, v, cg_compute_type(cg, et), "");
  case ET_F16: case ET_BF16: return LLVMBuildFPExt(cg->b, v, cg->t_f32, "");
  default: return v;
  }
}

void cg_store(Cg *cg, ElemType et, LLVMValueRef base, LLVMValueRef i, LLVMValueRef v) {
  LLVMTypeRef st = cg_storage_type(cg, et);
  switch (et) {
  case ET_PRED: v = LLVMBuildZExt(cg->b, v, cg->t_i8, ""); break;
  case ET_S2: case ET_S4: v = LLVMBuildSExt(cg->b, v, cg->t_i8, ""); break;
  case ET_U2: case ET_U4: v = LLVMBuildZExt(cg->b, v, cg->t_i8, ""); break;
  case ET_F16: case ET_BF16: v = LLVMBuildFPTrunc(cg->b, v, st, ""); break;
  default: break;
  }
  LLVMValueRef p = LLVMBuildGEP2(cg->b, st, base, &i, 1, "");
  LLVMBuildStore(cg->b, v, p);
}

LLVMValueRef cg_const(Cg *cg, ElemType et, double v) {
  LLVMTypeRef t = cg_compute_type(cg, et);
  if (et_is_float(et)) return LLVMConstReal(t, v);
  if (et == ET_PRED) return LLVMConstInt(t, v != 0, 0);
  return LLVMConstInt(t, (unsigned long long)(int64_t)v, 1);
}

LLVMValueRef cg_const_int(Cg *cg, ElemType et, int64_t v) {
  LLVMTypeRef t = cg_compute_type(cg, et);
  if (et_is_float(et)) return LLVMConstReal(t, (double)v);
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
  l.header = LLVMAppendBasicBlockInContext(cg->ctx, fn, name);
  l.body = LLVMAppendBasicBlockInContext(cg->ctx, fn, "body");
  l.exit = LLVMAppendBasicBlockInContext(cg->ctx, fn, "exit");
  LLVMBuildBr(cg->b, l.header);
  LLVMPositionBuilderAtEnd(cg->b, l.header);
  l.phi = LLVMBuildPhi(cg->b, cg->t_i64, "i");
  LLVMAddIncoming(l.phi, &lo, &pre, 1);
  LLVMValueRef c = LLVMBuildICmp(cg->b, LLVMIntSLT, l.phi, hi, "");
  LLVMBuildCondBr(cg->b, c, l.body, l.exit);
  LLVMPositionBuilderAtEnd(cg->b, l.body);
  l.iv = l.phi;
  return l;
}

void loop_end(Cg *cg, Loop *l) {
  LLVMValueRef next = LLVMBuildNSWAdd(cg->b, l->phi, cg_i64(cg, 1), "");
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(cg->b);
  LLVMAddIncoming(l->phi, &next, &latch, 1);
  LLVMBuildBr(cg->b, l->header);
  LLVMPositionBuilderAtEnd(cg->b, l->exit);
}
