/*
 * emit_scalar.c - one element of an elementwise op, in LLVM IR, with the
 * same semantics as the interpreter (src/interp/elementwise.c):
 *   - integers wrap; x/0 = -1 (all ones), x%0 = x, MIN/-1 = MIN, MIN%-1 = 0;
 *     shift amounts are unsigned and >= the width give 0 (or the sign fill);
 *   - float maximum/minimum propagate NaN and order -0 < +0;
 *   - float -> int conversion truncates, saturates, and maps NaN to 0;
 *   - f16/bf16 are computed in f32 and rounded when stored;
 *   - transcendentals (exp, log, tanh, logistic, erf, sin, ...) are emitted
 *     inline by math_approx.c for f32, f16/bf16 (computed in f32, then
 *     rounded) and f64, so loops containing them vectorize; they differ from
 *     the interpreter's libm results by the few ULP listed in docs/math.md.
 *     f64 pow keeps libm: the inline f64 pow loses precision for large
 *     |y log x| (device code, Cg.no_libm, takes the inline one).
 *     sin/cos/tan of f32 and bf16 are computed in double,
 *     whose argument reduction holds to |x| <= 2^50 (the float one only to
 *     1e6); beyond 2^50 they return NaN.  f16 (|x| <= 65504) stays in
 *     f32.  rsqrt is a Newton iteration from an integer estimate (no
 *     square root, no division); f16/bf16 in f32.
 *   - the CHLO special functions are computed in double and rounded once,
 *     like the interpreter (except erfc for f16/bf16: inline in float, good
 *     to 2^-17, then rounded; f32 erfc is in double with float-grade
 *     polynomials, good to 2^-26): erfc, lgamma and digamma inline for
 *     f32/f16/bf16, erfc and digamma also for f64 (vectorizable; accuracy
 *     in docs/math.md); f64 lgamma, igamma(c), polygamma, zeta and
 *     bessel_i1e as a call per element to the scalar function the
 *     interpreter itself uses (runtime/special.c), so those agree exactly;
 *   - mulhi, reduce_precision and same-width bitcast_convert work on the
 *     integer bit patterns and match the interpreter bit for bit.
 * Ops or element types not covered return NULL and the caller falls back.
 */
#include "codegen/cg.h"
#include "codegen/math_approx.h"

#include <math.h>
#include <string.h>

static bool is_f(ElemType t) { return et_is_float(t); }

/* A bitcast between two element types of one bit width is elementwise;
   pred is not a bit pattern. */
static bool bitcast_same_width(ElemType a, ElemType b) {
  return a != ET_PRED && b != ET_PRED && et_bits(a) == et_bits(b) && cg_elem_native(a) &&
         cg_elem_native(b);
}

bool scalar_op_supported(const Op *op) {
  if (!cg_op_basic(op)) return false; /* complex, f8/f6/f4: emit_complex.c via elemental.c */
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
  case OP_ROUND_NEAREST_EVEN: case OP_ATAN2: case OP_CHLO_ERF:
    return is_f(a) && op->res[0].type->elem == a;
  case OP_IS_FINITE:
    return is_f(a) && op->res[0].type->elem == ET_PRED;
  case OP_REAL: case OP_IMAG: /* of a real operand: itself and zero */
    return is_f(a) && op->res[0].type->elem == a;
  case OP_POWER:
    return is_f(a) || (et_is_int(a) && a != ET_PRED);
  case OP_CHLO_ERFC: case OP_CHLO_LGAMMA: case OP_CHLO_DIGAMMA: case OP_CHLO_BESSEL_I1E:
  case OP_CHLO_IGAMMA: case OP_CHLO_IGAMMAC: case OP_CHLO_POLYGAMMA: case OP_CHLO_ZETA:
    return is_f(a) && op->nres == 1 && op->res[0].type->elem == a;
  case OP_CHLO_MULHI:
    return et_is_int(a);
  case OP_REDUCE_PRECISION:
    /* bad attributes go to the interpreter, which reports them */
    return is_f(a) && op_attr_int(op, "exponent_bits", -1) >= 1 &&
           op_attr_int(op, "mantissa_bits", -1) >= 0;
  case OP_BITCAST_CONVERT:
    return op->nopnds == 1 && op->nres == 1 && bitcast_same_width(a, op->res[0].type->elem);
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
  return t == cg->t_f64 ? r : cg_fptrunc(cg, r, t, "");
}

/* double-precision expression: helpers to build in f64 */
static LLVMValueRef to_d(Cg *cg, LLVMValueRef v, LLVMTypeRef t) {
  return t == cg->t_f64 ? v : LLVMBuildFPExt(cg->b, v, cg->t_f64, "");
}
static LLVMValueRef from_d(Cg *cg, LLVMValueRef v, LLVMTypeRef t) {
  return t == cg->t_f64 ? v : cg_fptrunc(cg, v, t, "");
}

/* Rounds a float value to the precision of et (f16/bf16 are computed in f32
   but must round after every op, as the interpreter does). */
static LLVMValueRef round_to(Cg *cg, ElemType et, LLVMValueRef v) {
  if (et == ET_F16 || et == ET_BF16) {
    LLVMValueRef r = cg_fptrunc(cg, v, cg_storage_type(cg, et), "");
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

/* The value of a constant float, or of a vector constant whose lanes are
   all the same; false for anything else (and for NaN). */
static bool const_float(LLVMValueRef v, double *out) {
  if (!LLVMIsAConstant(v)) return false;
  LLVMValueRef c = v;
  if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind) {
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(v));
    c = LLVMGetAggregateElement(v, 0);
    for (unsigned i = 1; c && i < n; i++)
      if (LLVMGetAggregateElement(v, i) != c) return false;
  }
  if (!c || !LLVMIsAConstantFP(c)) return false;
  LLVMBool loses;
  *out = LLVMConstRealGetDouble(c, &loses);
  return !isnan(*out);
}

/* IEEE maximum/minimum with NaN propagation and -0 < +0.  Against a
   constant (ReLU's 0, a clamp's bound) it is one compare and a select:
   the x86 backend expands llvm.maximum to six instructions to order the
   zeros and propagate NaN, which the constant settles.  max(x, c) is x
   where x > c or x is NaN (unordered), else c; for c = -0 the compare also
   takes x = +0 (uge).  min is the mirror: x where x < c or NaN, and for
   c = +0 also x = -0 (ule). */
static LLVMValueRef fmaxmin(Cg *cg, bool max, LLVMValueRef a, LLVMValueRef b) {
  double c;
  LLVMValueRef x = a, k = b;
  bool konst = const_float(b, &c);
  if (!konst && const_float(a, &c)) {
    konst = true;
    x = b;
    k = a;
  }
  if (konst) {
    bool neg_zero = c == 0 && signbit(c), pos_zero = c == 0 && !signbit(c);
    LLVMRealPredicate p = max ? (neg_zero ? LLVMRealUGE : LLVMRealUGT) : (pos_zero ? LLVMRealULE : LLVMRealULT);
    return LLVMBuildSelect(cg->b, LLVMBuildFCmp(cg->b, p, x, k, ""), x, k, "");
  }
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
      a = cg_fptrunc(cg, a, ft, "");
      b = cg_fptrunc(cg, b, ft, "");
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
      LLVMValueRef r = cg_fptrunc(cg, v, cg_storage_type(cg, to), "");
      return LLVMBuildFPExt(cg->b, r, cg->t_f32, "");
    }
    if (ft == tt) return v;
    return LLVMGetTypeKind(ft) == LLVMDoubleTypeKind ? cg_fptrunc(cg, v, tt, "")
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

/* ---- bit-level ops ---- */

/* The bit pattern of a compute-type value of et, as an integer of et's width
   (f16/bf16 go back to their storage type first, which is exact). */
LLVMValueRef cg_to_bits(Cg *cg, ElemType et, LLVMValueRef v) {
  if (!is_f(et)) return v;
  if (et == ET_BF16 && LLVMTypeOf(v) == cg->t_f32) {
    /* the value is a bfloat widened: its bits are the top half (the
       AVX-512 narrowing instruction would flush subnormals) */
    LLVMValueRef w = LLVMBuildBitCast(cg->b, v, cg->t_i32, "");
    w = LLVMBuildLShr(cg->b, w, LLVMConstInt(cg->t_i32, 16, 0), "");
    return LLVMBuildTrunc(cg->b, w, cg->t_i16, "");
  }
  LLVMTypeRef st = cg_storage_type(cg, et);
  if (LLVMTypeOf(v) != st) v = cg_fptrunc(cg, v, st, "");
  return LLVMBuildBitCast(cg->b, v, LLVMIntTypeInContext(cg->ctx, (unsigned)et_bits(et)), "");
}

/* The inverse: bits of et's width as a compute-type value of et. */
LLVMValueRef cg_from_bits(Cg *cg, ElemType et, LLVMValueRef bits) {
  if (!is_f(et)) return bits;
  LLVMValueRef v = LLVMBuildBitCast(cg->b, bits, cg_storage_type(cg, et), "");
  LLVMTypeRef ct = cg_compute_type(cg, et);
  return LLVMTypeOf(v) == ct ? v : LLVMBuildFPExt(cg->b, v, ct, "");
}

/* High half of the double-width product, signed or unsigned, as the
   interpreter's mulhi. */
static LLVMValueRef mulhi(Cg *cg, LLVMValueRef x, LLVMValueRef y, bool sign) {
  LLVMTypeRef t = LLVMTypeOf(x);
  unsigned w = LLVMGetIntTypeWidth(t);
  LLVMTypeRef wide = LLVMIntTypeInContext(cg->ctx, 2 * w);
  LLVMValueRef a = sign ? LLVMBuildSExt(cg->b, x, wide, "") : LLVMBuildZExt(cg->b, x, wide, "");
  LLVMValueRef c = sign ? LLVMBuildSExt(cg->b, y, wide, "") : LLVMBuildZExt(cg->b, y, wide, "");
  LLVMValueRef p = LLVMBuildMul(cg->b, a, c, "");
  LLVMValueRef sh = LLVMConstInt(wide, w, 0);
  p = sign ? LLVMBuildAShr(cg->b, p, sh, "") : LLVMBuildLShr(cg->b, p, sh, "");
  return LLVMBuildTrunc(cg->b, p, t, "");
}

static uint64_t low_mask(int n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

/* reduce_precision on the bit pattern, exactly as the interpreter: round
   the mantissa to nearest even (a carry bumps the exponent), then overflow
   to inf or flush to signed zero by the narrow exponent range; NaN kept,
   except that with no mantissa bits left it becomes inf of its sign. */
static LLVMValueRef reduce_precision(Cg *cg, const Op *op, ElemType et, LLVMValueRef x) {
  int se, sm;
  switch (et) {
  case ET_F16: se = 5, sm = 10; break;
  case ET_BF16: se = 8, sm = 7; break;
  case ET_F32: se = 8, sm = 23; break;
  default: se = 11, sm = 52; break;
  }
  int64_t e = op_attr_int(op, "exponent_bits", -1), m = op_attr_int(op, "mantissa_bits", -1);
  int ee = e < se ? (int)e : se, mm = m < sm ? (int)m : sm;
  LLVMBuilderRef b = cg->b;
  LLVMValueRef v = cg_to_bits(cg, et, x);
  LLVMTypeRef it = LLVMTypeOf(v);
#define K(c) LLVMConstInt(it, (unsigned long long)(c) & low_mask(se + sm + 1), 0)
  uint64_t sign = 1ull << (se + sm), emask = low_mask(se) << sm, mmask = low_mask(sm);
  LLVMValueRef sgn = LLVMBuildAnd(b, v, K(sign), "");
  LLVMValueRef isnan = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAnd(b, v, K(emask), ""), K(emask), ""),
                                    LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, v, K(mmask), ""), K(0), ""), "");
  LLVMValueRef nanv = mm > 0 ? v : LLVMBuildOr(b, sgn, K(emask), "");
  LLVMValueRef r = v;
  if (mm < sm) {
    uint64_t last = 1ull << (sm - mm);
    LLVMValueRef odd = LLVMBuildAnd(b, LLVMBuildLShr(b, r, K(sm - mm), ""), K(1), "");
    LLVMValueRef bias = LLVMBuildAdd(b, K((last >> 1) - 1), odd, "");
    LLVMValueRef mag = LLVMBuildAdd(b, LLVMBuildAnd(b, r, K(~sign), ""), bias, "");
    mag = LLVMBuildAnd(b, mag, K(~(last - 1)), "");
    r = LLVMBuildOr(b, sgn, mag, "");
  }
  if (ee < se) {
    uint64_t ebias = low_mask(se - 1), rbias = low_mask(ee - 1);
    uint64_t maxe = ebias + rbias, mine = ebias - rbias;
    LLVMValueRef ex = LLVMBuildAnd(b, r, K(emask), "");
    LLVMValueRef over = LLVMBuildICmp(b, LLVMIntUGT, ex, K(maxe << sm), "");
    LLVMValueRef under = LLVMBuildICmp(b, LLVMIntULE, ex, K(mine << sm), "");
    LLVMValueRef rs = LLVMBuildAnd(b, r, K(sign), "");
    r = LLVMBuildSelect(b, under, rs, r, "");
    r = LLVMBuildSelect(b, over, LLVMBuildOr(b, rs, K(emask), ""), r, "");
  }
#undef K
  r = LLVMBuildSelect(b, isnan, nanv, r, "");
  return cg_from_bits(cg, et, r);
}

/* ---- special functions ----
 * Computed in double for every element type and rounded once to the result
 * type (f16/bf16 directly from double, as the interpreter rounds), so f32
 * and narrower results are as good as the double algorithm. */

static LLVMValueRef dc(Cg *cg, double v) { return LLVMConstReal(cg->t_f64, v); }

/* A double result as the compute type of et, rounded once.  f16/bf16 go
   through f32 rounded to odd (truncate, then set the last bit when
   inexact), which makes the second rounding exact-once; a direct double ->
   bfloat truncation would need a compiler-rt routine the JIT lacks. */
static LLVMValueRef round_from_d(Cg *cg, ElemType et, LLVMValueRef d) {
  LLVMBuilderRef b = cg->b;
  if (et == ET_F64) return d;
  LLVMValueRef f = cg_fptrunc(cg, d, cg->t_f32, "");
  if (et == ET_F32) return f;
  LLVMValueRef back = LLVMBuildFPExt(b, f, cg->t_f64, "");
  LLVMValueRef ab = cg_intrinsic(cg, "llvm.fabs", cg->t_f64, &back, 1);
  LLVMValueRef ad = cg_intrinsic(cg, "llvm.fabs", cg->t_f64, &d, 1);
  LLVMValueRef bits = LLVMBuildBitCast(b, f, cg->t_i32, "");
  LLVMValueRef away = LLVMBuildFCmp(b, LLVMRealOGT, ab, ad, "");
  bits = LLVMBuildSub(b, bits, LLVMBuildZExt(b, away, cg->t_i32, ""), "");
  LLVMValueRef inexact = LLVMBuildFCmp(b, LLVMRealONE, back, d, "");
  bits = LLVMBuildOr(b, bits, LLVMBuildZExt(b, inexact, cg->t_i32, ""), "");
  f = LLVMBuildBitCast(b, bits, cg->t_f32, "");
  if (et == ET_F16) {
    LLVMValueRef r = cg_fptrunc(cg, f, cg->t_f16, "");
    return LLVMBuildFPExt(b, r, cg->t_f32, "");
  }
  /* bfloat: round to nearest even on the bits; the AVX-512 conversion
     instruction would flush subnormal results to zero */
  LLVMValueRef odd = LLVMBuildAnd(b, LLVMBuildLShr(b, bits, LLVMConstInt(cg->t_i32, 16, 0), ""),
                                  LLVMConstInt(cg->t_i32, 1, 0), "");
  LLVMValueRef rb = LLVMBuildAdd(b, bits, LLVMBuildAdd(b, odd, LLVMConstInt(cg->t_i32, 0x7FFF, 0), ""), "");
  rb = LLVMBuildAnd(b, rb, LLVMConstInt(cg->t_i32, 0xFFFF0000u, 0), "");
  LLVMValueRef isnan = LLVMBuildFCmp(b, LLVMRealUNO, f, f, "");
  LLVMValueRef qnan = LLVMBuildOr(b, LLVMBuildAnd(b, bits, LLVMConstInt(cg->t_i32, 0xFFFF0000u, 0), ""),
                                  LLVMConstInt(cg->t_i32, 0x00400000, 0), "");
  rb = LLVMBuildSelect(b, isnan, qnan, rb, "");
  return LLVMBuildBitCast(b, rb, cg->t_f32, "");
}

static LLVMValueRef sel(Cg *cg, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(cg->b, c, a, b, "");
}
static LLVMValueRef fcmp(Cg *cg, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildFCmp(cg->b, p, a, b, "");
}

/* c[0] + t (c[1] + t (c[2] + ...)) with fma */
static LLVMValueRef poly(Cg *cg, LLVMValueRef t, const double *c, int n) {
  LLVMValueRef p = dc(cg, c[n - 1]);
  for (int i = n - 2; i >= 0; i--) {
    LLVMValueRef a[3] = {p, t, dc(cg, c[i])};
    p = cg_intrinsic(cg, "llvm.fma", cg->t_f64, a, 3);
  }
  return p;
}

/* (1 + x) erfc(x) e^(x^2) on x >= 0 as a Chebyshev series in
   t = (x - 3) / (x + 3), which maps [0, inf) onto [-1, 1) (Weideman's
   idea); coefficients computed for this file from 50-digit samples at 100
   Chebyshev nodes, truncated where they drop below 1e-17. */
static const double erfcx_cheb[] = {
    0.75371267447479839,     -0.22415380799909321,    0.033311418699360433,
    0.0047292022031601971,   -0.0046675840285747552,  0.0015054589918591581,
    -0.00026627940185075776, 1.4873372028813446e-05,  4.6080561306514571e-06,
    -9.6768022924061371e-07, -4.5804960221250769e-08, 3.403835840664566e-08,
    -2.5183402321363754e-10, -1.1966477481246857e-09, 3.1644331341059917e-11,
    4.6321164315224658e-11,  -8.0790237728415019e-13, -1.9623983381122841e-12,
    -3.4008985531041419e-14, 8.6549491277465407e-14,  6.5471471592290332e-15,
    -3.6838636129200996e-15, -6.0613187263120089e-16, 1.3273121984901985e-16,
    4.3939552352609764e-17,
};

/* erfc in double for f64: e^(-x^2) erfcx(|x|) with no cancellation anywhere
   (x^2 split exactly with fma: e^-(h + l) = e^-h (1 - l)); 2 - erfc(-x)
   below 0; 0 beyond 28 (the series' t is NaN at inf), 1 for tiny |x|. */
static LLVMValueRef erfc_f64(Cg *cg, LLVMValueRef x) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef a = cg_intrinsic(cg, "llvm.fabs", cg->t_f64, &x, 1);
  LLVMValueRef big = fcmp(cg, LLVMRealOGT, a, dc(cg, 28.0));
  LLVMValueRef as = sel(cg, big, dc(cg, 28.0), a);
  LLVMValueRef t = LLVMBuildFDiv(b, LLVMBuildFSub(b, as, dc(cg, 3.0), ""), LLVMBuildFAdd(b, as, dc(cg, 3.0), ""), "");
  /* Clenshaw: b_k = c_k + 2t b_(k+1) - b_(k+2); sum = c_0 + t b_1 - b_2 */
  LLVMValueRef t2 = LLVMBuildFMul(b, t, dc(cg, 2.0), "");
  LLVMValueRef b1 = dc(cg, 0.0), b2 = dc(cg, 0.0);
  int n = (int)ARRAY_LEN(erfcx_cheb);
  for (int k = n - 1; k >= 1; k--) {
    LLVMValueRef args[3] = {t2, b1, LLVMBuildFSub(b, dc(cg, erfcx_cheb[k]), b2, "")};
    LLVMValueRef nb = cg_intrinsic(cg, "llvm.fma", cg->t_f64, args, 3);
    b2 = b1;
    b1 = nb;
  }
  LLVMValueRef fa[3] = {t, b1, LLVMBuildFSub(b, dc(cg, erfcx_cheb[0]), b2, "")};
  LLVMValueRef h = cg_intrinsic(cg, "llvm.fma", cg->t_f64, fa, 3);
  LLVMValueRef g = LLVMBuildFDiv(b, h, LLVMBuildFAdd(b, as, dc(cg, 1.0), ""), "");
  LLVMValueRef hi = LLVMBuildFMul(b, as, as, "");
  LLVMValueRef la[3] = {as, as, LLVMBuildFNeg(b, hi, "")};
  LLVMValueRef lo = cg_intrinsic(cg, "llvm.fma", cg->t_f64, la, 3);
  LLVMValueRef e = emit_exp(b, cg->mod, LLVMBuildFNeg(b, hi, ""));
  LLVMValueRef gl = LLVMBuildFMul(b, g, LLVMBuildFSub(b, dc(cg, 1.0), lo, ""), "");
  LLVMValueRef r = LLVMBuildFMul(b, e, gl, "");
  r = sel(cg, big, dc(cg, 0.0), r);
  r = sel(cg, fcmp(cg, LLVMRealOLT, a, dc(cg, 0x1p-56)), dc(cg, 1.0), r);
  LLVMValueRef neg = fcmp(cg, LLVMRealOLT, x, dc(cg, 0.0));
  r = sel(cg, neg, LLVMBuildFSub(b, dc(cg, 2.0), r, ""), r);
  /* NaN: every comparison above is false, r is NaN already */
  return r;
}

/* Stirling's series for lgamma(z), z >= 10: (z - 1/2) ln z - z + ln(2 pi)/2
   + sum B_2k / (2k (2k-1) z^(2k-1)); eight terms leave 3e-17 at z = 10. */
static LLVMValueRef stirling(Cg *cg, LLVMValueRef z) {
  static const double c[] = {1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188,
                             -691.0 / 360360, 1.0 / 156, -3617.0 / 122400};
  LLVMBuilderRef b = cg->b;
  LLVMValueRef r = LLVMBuildFDiv(b, dc(cg, 1.0), z, "");
  LLVMValueRef s = LLVMBuildFMul(b, r, poly(cg, LLVMBuildFMul(b, r, r, ""), c, (int)ARRAY_LEN(c)), "");
  LLVMValueRef l = LLVMBuildFMul(b, LLVMBuildFSub(b, z, dc(cg, 0.5), ""), emit_log(b, cg->mod, z), "");
  l = LLVMBuildFSub(b, l, z, "");
  l = LLVMBuildFAdd(b, l, dc(cg, 0.91893853320467274178), "");
  return LLVMBuildFAdd(b, l, s, "");
}

/* lgamma of a float-or-narrower value, in double: y = x (x >= 0) or 1 - x
   (reflection), shifted up to z >= 10 by lgamma(y) = lgamma(z) - ln(y (y+1)
   ... (z-1)), Stirling there; for x < 0, lgamma(x) = ln(pi / |sin(pi x)|) -
   lgamma(1 - x).  Poles (0, negative integers) and +-inf give +inf. */
static LLVMValueRef lgamma_narrow(Cg *cg, LLVMValueRef x) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef neg = fcmp(cg, LLVMRealOLT, x, dc(cg, 0.0));
  LLVMValueRef y = sel(cg, neg, LLVMBuildFSub(b, dc(cg, 1.0), x, ""), x);
  LLVMValueRef p = dc(cg, 1.0), z = y;
  for (int k = 0; k < 10; k++) {
    LLVMValueRef lt = fcmp(cg, LLVMRealOLT, z, dc(cg, 10.0));
    p = sel(cg, lt, LLVMBuildFMul(b, p, z, ""), p);
    z = sel(cg, lt, LLVMBuildFAdd(b, z, dc(cg, 1.0), ""), z);
  }
  LLVMValueRef pos = LLVMBuildFSub(b, stirling(cg, z), emit_log(b, cg->mod, p), "");
  /* Near the zeros at 1 and 2 that difference cancels; there
     lgamma(1 + z) = -gamma z + sum_k>=2 (-1)^k zeta(k) / k z^k (|z| <= 0.2,
     truncated at 2e-12 relative) and lgamma(2 + z) = log1p(z) + lgamma(1 + z). */
  static const double l1[] = {
      -0.57721566490153287, 0.8224670334241132,   -0.40068563438653143, 0.27058080842778454,
      -0.20738555102867398, 0.16955717699740819,  -0.14404989676884611, 0.12550966952474304,
      -0.11133426586956469, 0.10009945751278181,  -0.090954017145829041, 0.083353840546109004,
      -0.076932516411352195, 0.07143294629536133, -0.066668705882420465, 0.062500955141213038,
  };
  LLVMValueRef near2 = fcmp(cg, LLVMRealOGT, y, dc(cg, 1.5));
  LLVMValueRef zz = LLVMBuildFSub(b, y, sel(cg, near2, dc(cg, 2.0), dc(cg, 1.0)), "");
  LLVMValueRef az = cg_intrinsic(cg, "llvm.fabs", cg->t_f64, &zz, 1);
  LLVMValueRef small = fcmp(cg, LLVMRealOLE, az, dc(cg, 0.2));
  LLVMValueRef zs = sel(cg, small, zz, dc(cg, 0.0));
  LLVMValueRef ser = LLVMBuildFMul(b, zs, poly(cg, zs, l1, (int)ARRAY_LEN(l1)), "");
  ser = sel(cg, near2, LLVMBuildFAdd(b, emit_log1p(b, cg->mod, zs), ser, ""), ser);
  pos = sel(cg, small, ser, pos);
  /* reflection: r = x - round(x) is exact, and sin(pi r) keeps its relative accuracy */
  LLVMValueRef r = LLVMBuildFSub(b, x, cg_intrinsic(cg, "llvm.round", cg->t_f64, &x, 1), "");
  LLVMValueRef sn = emit_sin(b, cg->mod, LLVMBuildFMul(b, r, dc(cg, 3.14159265358979323846), ""));
  sn = cg_intrinsic(cg, "llvm.fabs", cg->t_f64, &sn, 1);
  LLVMValueRef lr = LLVMBuildFSub(b, dc(cg, 1.14472988584940017414), emit_log(b, cg->mod, sn), "");
  LLVMValueRef res = sel(cg, neg, LLVMBuildFSub(b, lr, pos, ""), pos);
  /* ln(pi/0) - finite is already +inf at the poles; infinities are not */
  LLVMValueRef ax = cg_intrinsic(cg, "llvm.fabs", cg->t_f64, &x, 1);
  LLVMValueRef inf = dc(cg, 1.0 / 0.0);
  LLVMValueRef isinf = fcmp(cg, LLVMRealOEQ, ax, inf);
  return sel(cg, isinf, inf, res);
}

/* digamma in double, the interpreter's algorithm step for step (reflection
   below 0, the recurrence up to 10 as ten guarded steps, the asymptotic
   series), so that it vectorizes; NaN at 0 and the negative integers. */
static LLVMValueRef digamma_d(Cg *cg, LLVMValueRef x) {
  LLVMBuilderRef b = cg->b;
  const double pi = 3.14159265358979323846;
  LLVMValueRef fl = cg_intrinsic(cg, "llvm.floor", cg->t_f64, &x, 1);
  LLVMValueRef pole = LLVMBuildAnd(b, fcmp(cg, LLVMRealOLE, x, dc(cg, 0.0)), fcmp(cg, LLVMRealOEQ, x, fl), "");
  LLVMValueRef neg = fcmp(cg, LLVMRealOLT, x, dc(cg, 0.0));
  LLVMValueRef r = LLVMBuildFSub(b, x, cg_intrinsic(cg, "llvm.round", cg->t_f64, &x, 1), "");
  LLVMValueRef tn = emit_tan(b, cg->mod, LLVMBuildFMul(b, dc(cg, pi), r, ""));
  LLVMValueRef acc = sel(cg, neg, LLVMBuildFDiv(b, dc(cg, -pi), tn, ""), dc(cg, 0.0));
  x = sel(cg, neg, LLVMBuildFSub(b, dc(cg, 1.0), x, ""), x);
  for (int k = 0; k < 10; k++) {
    LLVMValueRef lt = fcmp(cg, LLVMRealOLT, x, dc(cg, 10.0));
    acc = sel(cg, lt, LLVMBuildFSub(b, acc, LLVMBuildFDiv(b, dc(cg, 1.0), x, ""), ""), acc);
    x = sel(cg, lt, LLVMBuildFAdd(b, x, dc(cg, 1.0), ""), x);
  }
  LLVMValueRef z = LLVMBuildFDiv(b, dc(cg, 1.0), LLVMBuildFMul(b, x, x, ""), "");
  static const double c[] = {1.0 / 12, 1.0 / 120, 1.0 / 252, 1.0 / 240, 1.0 / 132, 691.0 / 32760, 1.0 / 12};
  /* z (c0 - z (c1 - z (c2 - ...))), innermost first as in the interpreter */
  LLVMValueRef s = LLVMBuildFMul(b, z, dc(cg, c[6]), "");
  for (int i = 5; i >= 0; i--)
    s = LLVMBuildFMul(b, z, LLVMBuildFSub(b, dc(cg, c[i]), s, ""), "");
  LLVMValueRef res = LLVMBuildFAdd(b, acc, emit_log(b, cg->mod, x), "");
  res = LLVMBuildFSub(b, res, LLVMBuildFDiv(b, dc(cg, 0.5), x, ""), "");
  res = LLVMBuildFSub(b, res, s, "");
  return sel(cg, pole, dc(cg, 0.0 / 0.0), res);
}

static LLVMValueRef special(Cg *cg, const Op *op, ElemType t, LLVMValueRef *in) {
  /* erfc rounded to f16/bf16 needs far less than double: in float it takes
     twice the lanes and a tenth of the work */
  if (op->kind == OP_CHLO_ERFC && (t == ET_F16 || t == ET_BF16))
    return round_to(cg, t, emit_erfc_narrow(cg->b, cg->mod, in[0]));
  /* f32 erfc stays in float too: pieces good to ~2^-28, no division */
  if (op->kind == OP_CHLO_ERFC && t == ET_F32) return emit_erfc_f32(cg->b, cg->mod, in[0]);
  LLVMValueRef d[2];
  LLVMTypeRef ty = LLVMTypeOf(in[0]);
  for (int i = 0; i < op->nopnds && i < 2; i++) d[i] = to_d(cg, in[i], ty);
  LLVMValueRef r;
  switch (op->kind) {
  case OP_CHLO_ERFC:
    r = t == ET_F64 ? erfc_f64(cg, d[0]) : emit_erfc_wide(cg->b, cg->mod, d[0]);
    break;
  case OP_CHLO_LGAMMA:
    r = t == ET_F64 ? cg_libm(cg, "xlacrt_lgamma", d, 1) : lgamma_narrow(cg, d[0]);
    break;
  case OP_CHLO_DIGAMMA: r = digamma_d(cg, d[0]); break;
  case OP_CHLO_BESSEL_I1E: r = cg_libm(cg, "xlacrt_bessel_i1e", d, 1); break;
  case OP_CHLO_IGAMMA: r = cg_libm(cg, "xlacrt_igamma", d, 2); break;
  case OP_CHLO_IGAMMAC: r = cg_libm(cg, "xlacrt_igammac", d, 2); break;
  case OP_CHLO_POLYGAMMA: r = cg_libm(cg, "xlacrt_polygamma", d, 2); break;
  case OP_CHLO_ZETA: r = cg_libm(cg, "xlacrt_zeta", d, 2); break;
  default: return NULL;
  }
  return round_from_d(cg, t, r);
}

/* Integer power as the interpreter computes it: square-and-multiply over
   the exponent's bits (wrapping); a negative exponent leaves 0 unless the
   base is 1 or -1, which take its magnitude.  Branch-free: one step per
   bit of the type. */
static LLVMValueRef int_pow(Cg *cg, LLVMValueRef x, LLVMValueRef y, bool sgn) {
  LLVMBuilderRef b = cg->b;
  LLVMTypeRef ty = LLVMTypeOf(x);
  unsigned w = LLVMGetIntTypeWidth(ty);
  LLVMValueRef zero = LLVMConstInt(ty, 0, 0), one = LLVMConstInt(ty, 1, 0);
  LLVMValueRef e = y, dead = LLVMConstInt(cg->t_i1, 0, 0);
  if (sgn) {
    LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, y, zero, "");
    LLVMValueRef unit = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntEQ, x, one, ""),
                                    LLVMBuildICmp(b, LLVMIntEQ, x, LLVMConstAllOnes(ty), ""), "");
    e = LLVMBuildSelect(b, neg, LLVMBuildNeg(b, y, ""), y, "");
    dead = LLVMBuildAnd(b, neg, LLVMBuildNot(b, unit, ""), "");
  }
  LLVMValueRef acc = one, base = x;
  for (unsigned i = 0; i < w; i++) {
    LLVMValueRef bit = LLVMBuildTrunc(b, LLVMBuildLShr(b, e, LLVMConstInt(ty, i, 0), ""), cg->t_i1, "");
    acc = LLVMBuildSelect(b, bit, LLVMBuildMul(b, acc, base, ""), acc, "");
    if (i + 1 < w) base = LLVMBuildMul(b, base, base, "");
  }
  return LLVMBuildSelect(b, dead, zero, acc, "");
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
  case OP_REAL: return x;
  case OP_IMAG: return fconst(cg, ty, 0.0);
  case OP_IS_FINITE: {
    LLVMValueRef a = cg_intrinsic(cg, "llvm.fabs", ty, &x, 1);
    return LLVMBuildFCmp(b, LLVMRealONE, a, fconst(cg, ty, 1.0 / 0.0), "");
  }
  case OP_SQRT:
    /* exactly rounded in any precision */
    r = cg_intrinsic(cg, "llvm.sqrt", ty, &x, 1);
    break;
  case OP_RSQRT: r = emit_rsqrt(b, cg->mod, x); break;
  case OP_EXPONENTIAL: r = emit_exp(b, cg->mod, x); break;
  case OP_EXPONENTIAL_MINUS_ONE: r = emit_expm1(b, cg->mod, x); break;
  case OP_LOG: r = emit_log(b, cg->mod, x); break;
  case OP_LOG_PLUS_ONE: r = emit_log1p(b, cg->mod, x); break;
  case OP_SINE:
  case OP_COSINE:
  case OP_TAN: {
    /* float arguments are reduced in double: the float reduction is only
       accurate to |x| <= 1e6, the double one to 2^50; every f16 value is
       below 1e6, so f16 stays in float (twice the lanes) */
    LLVMValueRef d = t == ET_F16 ? x : to_d(cg, x, ty);
    d = op->kind == OP_SINE ? emit_sin(b, cg->mod, d) : op->kind == OP_COSINE ? emit_cos(b, cg->mod, d)
                                                                             : emit_tan(b, cg->mod, d);
    r = t == ET_F16 ? d : from_d(cg, d, ty);
    break;
  }
  case OP_TANH: r = emit_tanh(b, cg->mod, x); break;
  case OP_CBRT: r = emit_cbrt(b, cg->mod, x); break;
  case OP_ATAN2: r = emit_atan2(b, cg->mod, in[0], in[1]); break;
  case OP_POWER:
    if (!f) {
      r = int_pow(cg, x, y, s);
      break;
    }
    r = ty == cg->t_f64 && !cg->no_libm ? via_double(cg, "pow", in, 2, ty) : emit_pow(b, cg->mod, in[0], in[1]);
    break;
  case OP_LOGISTIC: r = emit_logistic(b, cg->mod, x); break;
  case OP_CHLO_ERF: r = emit_erf(b, cg->mod, x); break;
  case OP_CHLO_ERFC: case OP_CHLO_LGAMMA: case OP_CHLO_DIGAMMA: case OP_CHLO_BESSEL_I1E:
  case OP_CHLO_IGAMMA: case OP_CHLO_IGAMMAC: case OP_CHLO_POLYGAMMA: case OP_CHLO_ZETA:
    return special(cg, op, t, in);
  case OP_CHLO_MULHI: return mulhi(cg, x, y, s);
  case OP_REDUCE_PRECISION: return reduce_precision(cg, op, t, x);
  case OP_BITCAST_CONVERT: return cg_from_bits(cg, out, cg_to_bits(cg, t, x));
  default:
    return NULL;
  }
  if (r && f) r = round_to(cg, out, r);
  return r;
}
