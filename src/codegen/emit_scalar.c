/*
 * emit_scalar.c - one element of an elementwise op, in LLVM IR, with the
 * same semantics as the interpreter (src/interp/elementwise.c):
 *   - integers wrap; x/0 = -1 (all ones), x%0 = x, MIN/-1 = MIN, MIN%-1 = 0;
 *     shift amounts are unsigned and >= the width give 0 (or the sign fill);
 *   - float maximum/minimum propagate NaN and order -0 < +0;
 *   - float -> int conversion truncates, saturates, and maps NaN to 0;
 *   - f16/bf16 are computed in f32 and rounded when stored;
 *   - transcendentals (exp, log, tanh, logistic, sin, ...) are emitted
 *     inline by math_approx.c for f32, f16/bf16 (computed in f32, then
 *     rounded) and f64, so loops containing them vectorize; they differ from
 *     the interpreter's libm results by the few ULP listed in docs/math.md.
 *     f64 pow keeps libm: the inline f64 pow loses precision for large
 *     |y log x|.  sin/cos/tan of narrow floats are computed in double,
 *     whose argument reduction holds to |x| <= 2^50 (the float one only to
 *     1e6); beyond 2^50 they return NaN.  rsqrt of narrow floats goes
 *     through double, which is exact enough and vectorizes anyway.
 * Ops or element types not covered return NULL and the caller falls back.
 */
#include "codegen/cg.h"
#include "codegen/math_approx.h"

#include <string.h>

static bool is_f(ElemType t) { return et_is_float(t); }

bool scalar_op_supported(const Op *op) {
  for (int i = 0; i < op->nopnds; i++) {
    const Type *t = op->opnds[i]->type;
    if (t->kind != TY_TENSOR || t->quant || !cg_elem_native(t->elem)) return false;
  }
  for (int i = 0; i < op->nres; i++) {
    const Type *t = op->res[i].type;
    if (t->kind != TY_TENSOR || t->quant || !cg_elem_native(t->elem)) return false;
  }
  ElemType a = op->nopnds ? op->opnds[0]->type->elem : ET_INVALID;
  switch (op->kind) {
  case OP_ADD: case OP_SUBTRACT: case OP_MULTIPLY: case OP_DIVIDE: case OP_REMAINDER:
  case OP_MAXIMUM: case OP_MINIMUM: case OP_NEGATE: case OP_ABS: case OP_SIGN:
  case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_COMPARE: case OP_SELECT:
  case OP_CLAMP: case OP_CONVERT: case OP_COPY:
    return true;
  case OP_SHIFT_LEFT: case OP_SHIFT_RIGHT_ARITHMETIC: case OP_SHIFT_RIGHT_LOGICAL:
  case OP_POPCNT: case OP_COUNT_LEADING_ZEROS:
    return et_is_int(a);
  case OP_EXPONENTIAL: case OP_EXPONENTIAL_MINUS_ONE: case OP_LOG: case OP_LOG_PLUS_ONE:
  case OP_LOGISTIC: case OP_SQRT: case OP_RSQRT: case OP_CBRT: case OP_SINE: case OP_COSINE:
  case OP_TAN: case OP_TANH: case OP_FLOOR: case OP_CEIL: case OP_ROUND_NEAREST_AFZ:
  case OP_ROUND_NEAREST_EVEN: case OP_IS_FINITE: case OP_ATAN2:
    return is_f(a);
  case OP_POWER:
    return is_f(a);
  default:
    return false;
  }
}

static LLVMValueRef fconst(Cg *cg, LLVMTypeRef t, double v) { return LLVMConstReal(t, v); }

/* v computed in double with libm fn, back to t */
static LLVMValueRef via_double(Cg *cg, const char *fn, LLVMValueRef *v, int n, LLVMTypeRef t) {
  LLVMValueRef d[3];
  for (int i = 0; i < n; i++)
    d[i] = t == cg->t_f64 ? v[i] : LLVMBuildFPExt(cg->b, v[i], cg->t_f64, "");
  LLVMValueRef r = cg_libm(cg, fn, d, n);
  return t == cg->t_f64 ? r : LLVMBuildFPTrunc(cg->b, r, t, "");
}

/* double-precision expression: helpers to build in f64 */
static LLVMValueRef to_d(Cg *cg, LLVMValueRef v, LLVMTypeRef t) {
  return t == cg->t_f64 ? v : LLVMBuildFPExt(cg->b, v, cg->t_f64, "");
}
static LLVMValueRef from_d(Cg *cg, LLVMValueRef v, LLVMTypeRef t) {
  return t == cg->t_f64 ? v : LLVMBuildFPTrunc(cg->b, v, t, "");
}

/* Rounds a float value to the precision of et (f16/bf16 are computed in f32
   but must round after every op, as the interpreter does). */
static LLVMValueRef round_to(Cg *cg, ElemType et, LLVMValueRef v) {
  if (et == ET_F16 || et == ET_BF16) {
    LLVMValueRef r = LLVMBuildFPTrunc(cg->b, v, cg_storage_type(cg, et), "");
    return LLVMBuildFPExt(cg->b, r, cg->t_f32, "");
  }
  return v;
}

static LLVMValueRef int_div(Cg *cg, LLVMValueRef x, LLVMValueRef d, bool sign, bool rem) {
  LLVMTypeRef t = LLVMTypeOf(x);
  LLVMValueRef zero = LLVMConstInt(t, 0, 0), one = LLVMConstInt(t, 1, 0);
  LLVMValueRef bad = LLVMBuildICmp(cg->b, LLVMIntEQ, d, zero, "");
  LLVMValueRef guard = bad;
  if (sign) {
    unsigned w = LLVMGetIntTypeWidth(t);
    LLVMValueRef minv = LLVMBuildShl(cg->b, one, LLVMConstInt(t, w - 1, 0), "");
    LLVMValueRef ovf = LLVMBuildAnd(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, x, minv, ""),
                                    LLVMBuildICmp(cg->b, LLVMIntEQ, d, LLVMConstAllOnes(t), ""), "");
    guard = LLVMBuildOr(cg->b, bad, ovf, "");
  }
  LLVMValueRef dd = LLVMBuildSelect(cg->b, guard, one, d, "");
  LLVMValueRef r;
  if (rem)
    r = sign ? LLVMBuildSRem(cg->b, x, dd, "") : LLVMBuildURem(cg->b, x, dd, "");
  else
    r = sign ? LLVMBuildSDiv(cg->b, x, dd, "") : LLVMBuildUDiv(cg->b, x, dd, "");
  return LLVMBuildSelect(cg->b, bad, rem ? x : LLVMConstAllOnes(t), r, "");
}

static LLVMValueRef shift(Cg *cg, OpKind k, LLVMValueRef x, LLVMValueRef s) {
  LLVMTypeRef t = LLVMTypeOf(x);
  unsigned w = LLVMGetIntTypeWidth(t);
  LLVMValueRef big = LLVMBuildICmp(cg->b, LLVMIntUGE, s, LLVMConstInt(t, w, 0), "");
  LLVMValueRef safe = LLVMBuildSelect(cg->b, big, LLVMConstInt(t, 0, 0), s, "");
  LLVMValueRef r, over;
  if (k == OP_SHIFT_LEFT) {
    r = LLVMBuildShl(cg->b, x, safe, "");
    over = LLVMConstInt(t, 0, 0);
  } else if (k == OP_SHIFT_RIGHT_LOGICAL) {
    r = LLVMBuildLShr(cg->b, x, safe, "");
    over = LLVMConstInt(t, 0, 0);
  } else {
    r = LLVMBuildAShr(cg->b, x, safe, "");
    over = LLVMBuildAShr(cg->b, x, LLVMConstInt(t, w - 1, 0), "");
  }
  return LLVMBuildSelect(cg->b, big, over, r, "");
}

/* IEEE maximum/minimum with NaN propagation and -0 < +0 */
static LLVMValueRef fmaxmin(Cg *cg, bool max, LLVMValueRef a, LLVMValueRef b) {
  LLVMValueRef args[2] = {a, b};
  return cg_intrinsic(cg, max ? "llvm.maximum" : "llvm.minimum", LLVMTypeOf(a), args, 2);
}

static LLVMValueRef compare(Cg *cg, const Op *op, ElemType t, LLVMValueRef a, LLVMValueRef b) {
  const char *dir = op_attr_str(op, "comparison_direction");
  const char *ct = op_attr_str(op, "compare_type");
  if (!dir) dir = "EQ";
  int d = strcmp(dir, "EQ") == 0 ? 0 : strcmp(dir, "NE") == 0 ? 1 : strcmp(dir, "LT") == 0 ? 2
        : strcmp(dir, "LE") == 0 ? 3 : strcmp(dir, "GT") == 0 ? 4 : 5;
  if (is_f(t) && !(ct && strcmp(ct, "TOTALORDER") == 0)) {
    static const LLVMRealPredicate fp[] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT,
                                           LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
    return LLVMBuildFCmp(cg->b, fp[d], a, b, "");
  }
  if (is_f(t)) {
    /* total order: map the bits to a signed integer that orders like the floats */
    LLVMTypeRef ft = LLVMTypeOf(a);
    if (t == ET_F16 || t == ET_BF16) {
      ft = cg_storage_type(cg, t);
      a = LLVMBuildFPTrunc(cg->b, a, ft, "");
      b = LLVMBuildFPTrunc(cg->b, b, ft, "");
    }
    unsigned w = ft == cg->t_f64 ? 64 : (ft == cg->t_f32 ? 32 : 16);
    LLVMTypeRef it = LLVMIntTypeInContext(cg->ctx, w);
    LLVMValueRef ab = LLVMBuildBitCast(cg->b, a, it, ""), bb = LLVMBuildBitCast(cg->b, b, it, "");
    LLVMValueRef mask = LLVMBuildLShr(cg->b, LLVMConstAllOnes(it), LLVMConstInt(it, 1, 0), "");
    LLVMValueRef sa = LLVMBuildAShr(cg->b, ab, LLVMConstInt(it, w - 1, 0), "");
    LLVMValueRef sb = LLVMBuildAShr(cg->b, bb, LLVMConstInt(it, w - 1, 0), "");
    a = LLVMBuildXor(cg->b, ab, LLVMBuildAnd(cg->b, sa, mask, ""), "");
    b = LLVMBuildXor(cg->b, bb, LLVMBuildAnd(cg->b, sb, mask, ""), "");
    t = ET_S64; /* signed comparison below */
  }
  bool sign = et_is_signed(t) || (ct && strcmp(ct, "SIGNED") == 0);
  if (ct && strcmp(ct, "UNSIGNED") == 0) sign = false;
  if (t == ET_PRED) sign = false;
  static const LLVMIntPredicate sp[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
  static const LLVMIntPredicate up[] = {LLVMIntEQ, LLVMIntNE, LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
  return LLVMBuildICmp(cg->b, sign ? sp[d] : up[d], a, b, "");
}

static LLVMValueRef convert(Cg *cg, ElemType from, ElemType to, LLVMValueRef v) {
  LLVMTypeRef tt = cg_compute_type(cg, to);
  if (from == to) return v;
  if (to == ET_PRED) {
    if (is_f(from)) return LLVMBuildFCmp(cg->b, LLVMRealUNE, v, LLVMConstReal(LLVMTypeOf(v), 0), "");
    return LLVMBuildICmp(cg->b, LLVMIntNE, v, LLVMConstInt(LLVMTypeOf(v), 0, 0), "");
  }
  if (is_f(from) && is_f(to)) {
    LLVMTypeRef ft = LLVMTypeOf(v);
    if (to == ET_F16 || to == ET_BF16) {
      /* round once to the narrow type from the source precision */
      LLVMValueRef r = LLVMBuildFPTrunc(cg->b, v, cg_storage_type(cg, to), "");
      return LLVMBuildFPExt(cg->b, r, cg->t_f32, "");
    }
    if (ft == tt) return v;
    return LLVMGetTypeKind(ft) == LLVMDoubleTypeKind ? LLVMBuildFPTrunc(cg->b, v, tt, "")
                                                     : LLVMBuildFPExt(cg->b, v, tt, "");
  }
  if (is_f(to)) {
    bool sign = et_is_signed(from);
    if (to == ET_F16 || to == ET_BF16) {
      /* int -> narrow float rounds once: convert via the narrow type */
      LLVMTypeRef st = cg_storage_type(cg, to);
      LLVMValueRef r = sign ? LLVMBuildSIToFP(cg->b, v, st, "") : LLVMBuildUIToFP(cg->b, v, st, "");
      return LLVMBuildFPExt(cg->b, r, cg->t_f32, "");
    }
    return sign ? LLVMBuildSIToFP(cg->b, v, tt, "") : LLVMBuildUIToFP(cg->b, v, tt, "");
  }
  if (is_f(from)) {
    /* truncate toward zero, saturate, NaN -> 0 */
    const char *name = et_is_signed(to) ? "llvm.fptosi.sat" : "llvm.fptoui.sat";
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMTypeRef tys[2] = {tt, LLVMTypeOf(v)};
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(cg->mod, id, tys, 2);
    LLVMTypeRef fty = LLVMIntrinsicGetType(cg->ctx, id, tys, 2);
    return LLVMBuildCall2(cg->b, fty, fn, &v, 1, "");
  }
  /* int/pred -> int */
  unsigned fw = LLVMGetIntTypeWidth(LLVMTypeOf(v)), tw = LLVMGetIntTypeWidth(tt);
  if (fw == tw) return v;
  if (fw > tw) return LLVMBuildTrunc(cg->b, v, tt, "");
  return et_is_signed(from) ? LLVMBuildSExt(cg->b, v, tt, "") : LLVMBuildZExt(cg->b, v, tt, "");
}

LLVMValueRef emit_scalar_op(Cg *cg, const Op *op, const ElemType *in_types, LLVMValueRef *in,
                            ElemType out) {
  ElemType t = op->nopnds ? in_types[0] : out;
  bool f = is_f(t), s = et_is_signed(t);
  LLVMTypeRef ty = op->nopnds ? LLVMTypeOf(in[0]) : cg_compute_type(cg, out);
  LLVMBuilderRef b = cg->b;
  LLVMValueRef x = op->nopnds > 0 ? in[0] : NULL, y = op->nopnds > 1 ? in[1] : NULL;
  LLVMValueRef r = NULL;
  switch (op->kind) {
  case OP_ADD:
    r = f ? LLVMBuildFAdd(b, x, y, "") : (t == ET_PRED ? LLVMBuildOr(b, x, y, "") : LLVMBuildAdd(b, x, y, ""));
    break;
  case OP_SUBTRACT: r = f ? LLVMBuildFSub(b, x, y, "") : LLVMBuildSub(b, x, y, ""); break;
  case OP_MULTIPLY:
    r = f ? LLVMBuildFMul(b, x, y, "") : (t == ET_PRED ? LLVMBuildAnd(b, x, y, "") : LLVMBuildMul(b, x, y, ""));
    break;
  case OP_DIVIDE: r = f ? LLVMBuildFDiv(b, x, y, "") : int_div(cg, x, y, s, false); break;
  case OP_REMAINDER: r = f ? LLVMBuildFRem(b, x, y, "") : int_div(cg, x, y, s, true); break;
  case OP_MAXIMUM:
  case OP_MINIMUM: {
    bool max = op->kind == OP_MAXIMUM;
    if (f) {
      r = fmaxmin(cg, max, x, y);
    } else {
      LLVMIntPredicate p = t == ET_PRED ? (max ? LLVMIntUGT : LLVMIntULT)
                           : s ? (max ? LLVMIntSGT : LLVMIntSLT) : (max ? LLVMIntUGT : LLVMIntULT);
      r = LLVMBuildSelect(b, LLVMBuildICmp(b, p, x, y, ""), x, y, "");
    }
    break;
  }
  case OP_NEGATE: r = f ? LLVMBuildFNeg(b, x, "") : LLVMBuildNeg(b, x, ""); break;
  case OP_ABS:
    if (f) {
      r = cg_intrinsic(cg, "llvm.fabs", ty, &x, 1);
    } else if (s) {
      LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, x, LLVMConstInt(ty, 0, 0), "");
      r = LLVMBuildSelect(b, neg, LLVMBuildNeg(b, x, ""), x, "");
    } else {
      r = x;
    }
    break;
  case OP_SIGN:
    if (f) {
      /* NaN -> NaN, +-0 -> +-0, else +-1 */
      LLVMValueRef one = fconst(cg, ty, 1.0);
      LLVMValueRef cs[2] = {one, x};
      LLVMValueRef sgn = cg_intrinsic(cg, "llvm.copysign", ty, cs, 2);
      LLVMValueRef zero_or_nan = LLVMBuildFCmp(b, LLVMRealUEQ, x, fconst(cg, ty, 0.0), "");
      r = LLVMBuildSelect(b, zero_or_nan, x, sgn, "");
    } else {
      LLVMValueRef zero = LLVMConstInt(ty, 0, 0);
      LLVMValueRef pos = LLVMBuildZExt(b, LLVMBuildICmp(b, s ? LLVMIntSGT : LLVMIntUGT, x, zero, ""), ty, "");
      LLVMValueRef neg = s ? LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntSLT, x, zero, ""), ty, "") : zero;
      r = LLVMBuildSub(b, pos, neg, "");
    }
    break;
  case OP_AND: r = LLVMBuildAnd(b, x, y, ""); break;
  case OP_OR: r = LLVMBuildOr(b, x, y, ""); break;
  case OP_XOR: r = LLVMBuildXor(b, x, y, ""); break;
  case OP_NOT: r = LLVMBuildNot(b, x, ""); break;
  case OP_SHIFT_LEFT:
  case OP_SHIFT_RIGHT_ARITHMETIC:
  case OP_SHIFT_RIGHT_LOGICAL: r = shift(cg, op->kind, x, y); break;
  case OP_POPCNT: r = cg_intrinsic(cg, "llvm.ctpop", ty, &x, 1); break;
  case OP_COUNT_LEADING_ZEROS: {
    LLVMValueRef a2[2] = {x, LLVMConstInt(cg->t_i1, 0, 0)};
    r = cg_intrinsic(cg, "llvm.ctlz", ty, a2, 2);
    break;
  }
  case OP_COMPARE: return compare(cg, op, t, x, y);
  case OP_SELECT: return LLVMBuildSelect(b, in[0], in[1], in[2], "");
  case OP_CLAMP: {
    /* clamp(min, x, max) = min(max(x, lo), hi) */
    ElemType ct = in_types[1];
    LLVMValueRef lo = in[0], v = in[1], hi = in[2];
    if (is_f(ct)) {
      r = fmaxmin(cg, false, fmaxmin(cg, true, v, lo), hi);
    } else {
      bool sg = et_is_signed(ct);
      LLVMValueRef m1 = LLVMBuildSelect(b, LLVMBuildICmp(b, sg ? LLVMIntSGT : LLVMIntUGT, v, lo, ""), v, lo, "");
      r = LLVMBuildSelect(b, LLVMBuildICmp(b, sg ? LLVMIntSLT : LLVMIntULT, m1, hi, ""), m1, hi, "");
    }
    return round_to(cg, out, r);
  }
  case OP_CONVERT: return convert(cg, t, out, x);
  case OP_COPY: return x;
  case OP_FLOOR: r = cg_intrinsic(cg, "llvm.floor", ty, &x, 1); break;
  case OP_CEIL: r = cg_intrinsic(cg, "llvm.ceil", ty, &x, 1); break;
  case OP_ROUND_NEAREST_AFZ: r = cg_intrinsic(cg, "llvm.round", ty, &x, 1); break;
  case OP_ROUND_NEAREST_EVEN: r = cg_intrinsic(cg, "llvm.roundeven", ty, &x, 1); break;
  case OP_IS_FINITE: {
    LLVMValueRef a = cg_intrinsic(cg, "llvm.fabs", ty, &x, 1);
    return LLVMBuildFCmp(b, LLVMRealONE, a, fconst(cg, ty, 1.0 / 0.0), "");
  }
  case OP_SQRT:
    /* exactly rounded in any precision */
    r = cg_intrinsic(cg, "llvm.sqrt", ty, &x, 1);
    break;
  case OP_RSQRT: {
    LLVMValueRef d = to_d(cg, x, ty);
    LLVMValueRef sq = cg_intrinsic(cg, "llvm.sqrt", cg->t_f64, &d, 1);
    r = from_d(cg, LLVMBuildFDiv(b, LLVMConstReal(cg->t_f64, 1.0), sq, ""), ty);
    break;
  }
  case OP_EXPONENTIAL: r = emit_exp(b, cg->mod, x); break;
  case OP_EXPONENTIAL_MINUS_ONE: r = emit_expm1(b, cg->mod, x); break;
  case OP_LOG: r = emit_log(b, cg->mod, x); break;
  case OP_LOG_PLUS_ONE: r = emit_log1p(b, cg->mod, x); break;
  case OP_SINE:
  case OP_COSINE:
  case OP_TAN: {
    /* float arguments are reduced in double: the float reduction is only
       accurate to |x| <= 1e6, the double one to 2^50 */
    LLVMValueRef d = to_d(cg, x, ty);
    d = op->kind == OP_SINE ? emit_sin(b, cg->mod, d) : op->kind == OP_COSINE ? emit_cos(b, cg->mod, d)
                                                                             : emit_tan(b, cg->mod, d);
    r = from_d(cg, d, ty);
    break;
  }
  case OP_TANH: r = emit_tanh(b, cg->mod, x); break;
  case OP_CBRT: r = emit_cbrt(b, cg->mod, x); break;
  case OP_ATAN2: r = emit_atan2(b, cg->mod, in[0], in[1]); break;
  case OP_POWER:
    r = ty == cg->t_f64 ? via_double(cg, "pow", in, 2, ty) : emit_pow(b, cg->mod, in[0], in[1]);
    break;
  case OP_LOGISTIC: r = emit_logistic(b, cg->mod, x); break;
  default:
    return NULL;
  }
  if (r && f) r = round_to(cg, out, r);
  return r;
}
