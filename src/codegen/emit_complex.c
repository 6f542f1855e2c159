/*
 * emit_complex.c - one element of an elementwise op whose operands or
 * result are complex or narrow floats (f8/f6/f4), with the interpreter's
 * semantics (src/interp/elementwise.c).
 *
 * Complex values are {re, im} structs of the part type.  The interpreter
 * computes every complex op in double complex and rounds complex<f32>
 * results to float on store; so does this code, so add, subtract, negate,
 * multiply (C99 Annex G, as libgcc's __muldc3, recovering infinities from
 * NaN results), compare, select, conversions and the parts are bit-exact
 * and stay inline, where LLVM vectorizes them.  Division and the
 * transcendental functions call the runtime (runtime/complex.c), which uses
 * the same C library functions as the interpreter; expm1, log1p, sign and
 * abs are composed inline from the libm functions the interpreter uses.
 * Device code (Cg.no_libm, the GPU) has no C library: there they are all
 * inline (below), close to the interpreter but not bit-identical.
 *
 * Narrow floats are computed in their compute type (f32, or f64 for
 * f8E8M0FNU): every op other than conversions is handed to the scalar
 * emitter as the op on that wider type and its result rounded to the
 * format (cg_narrow_round).  Each element of such an op is exactly
 * representable in f32, and + - * / sqrt of such values rounded to f32 and
 * then to the narrow format give the interpreter's once-rounded double
 * result: the f32 rounding can never land on a midpoint of the narrow
 * format that the exact result was not on.  Total-order compares of narrow
 * floats need the stored bits (NaN payloads order) and are left to the
 * interpreter.
 */
#include "codegen/cg.h"
#include "codegen/math_approx.h"
#include "xlacrt.h"

#include <math.h>
#include <string.h>

/* The wide type narrow floats compute in, for the scalar emitter. */
static ElemType wide_of(ElemType et) {
  if (!cg_elem_narrow(et)) return et;
  return et == ET_F8E8M0FNU ? ET_F64 : ET_F32;
}

static bool total_order(const Op *op) {
  const char *ct = op_attr_str(op, "compare_type");
  return ct && strcmp(ct, "TOTALORDER") == 0;
}

/* op with the element types of its narrow operands and results widened; the
   copies live in *sh (at most 4 operands, 1 result). */
typedef struct Shadow {
  Op op;
  Value opnds[4], res;
  Value *popnds[4];
  Type types[5];
} Shadow;

static bool shadow_of(const Op *op, Shadow *sh) {
  if (op->nopnds > 4 || op->nres != 1) return false;
  sh->op = *op;
  for (int i = 0; i < op->nopnds; i++) {
    sh->opnds[i] = *op->opnds[i];
    sh->types[i] = *op->opnds[i]->type;
    sh->types[i].elem = wide_of(sh->types[i].elem);
    sh->opnds[i].type = &sh->types[i];
    sh->popnds[i] = &sh->opnds[i];
  }
  sh->res = op->res[0];
  sh->types[4] = *op->res[0].type;
  sh->types[4].elem = wide_of(sh->types[4].elem);
  sh->res.type = &sh->types[4];
  sh->op.opnds = sh->popnds;
  sh->op.res = &sh->res;
  return true;
}

static bool plain(const Type *t) { return t->kind == TY_TENSOR && !t->quant && cg_elem_native(t->elem); }

static bool complex_supported(const Op *op) {
  switch (op->kind) {
  case OP_ADD: case OP_SUBTRACT: case OP_MULTIPLY: case OP_DIVIDE: case OP_NEGATE: case OP_ABS:
  case OP_SIGN: case OP_SQRT: case OP_RSQRT: case OP_CBRT: case OP_EXPONENTIAL:
  case OP_EXPONENTIAL_MINUS_ONE: case OP_LOG: case OP_LOG_PLUS_ONE: case OP_LOGISTIC: case OP_SINE:
  case OP_COSINE: case OP_TAN: case OP_TANH: case OP_POWER: case OP_COMPARE: case OP_SELECT:
  case OP_CONVERT: case OP_COMPLEX: case OP_REAL: case OP_IMAG: case OP_COPY: case OP_MAXIMUM:
  case OP_MINIMUM: case OP_CLAMP: case OP_CHLO_CONJ: case OP_CHLO_SQUARE: case OP_CHLO_SINH:
  case OP_CHLO_COSH: case OP_CHLO_TAN: case OP_CHLO_ASIN: case OP_CHLO_ACOS: case OP_CHLO_ATAN:
  case OP_CHLO_ASINH: case OP_CHLO_ACOSH: case OP_CHLO_ATANH: case OP_ATAN2:
    return true;
  default:
    return false;
  }
}

bool special_op_supported(const Op *op) {
  if (op->nres != 1 || op->nopnds < 1 || op->nopnds > 4) return false;
  for (int i = 0; i < op->nopnds; i++)
    if (!plain(op->opnds[i]->type)) return false;
  if (!plain(op->res[0].type)) return false;
  ElemType out = op->res[0].type->elem;
  bool cplx = false;
  for (int i = 0; i < op->nopnds; i++) cplx = cplx || et_is_complex(op->opnds[i]->type->elem);
  cplx = cplx || et_is_complex(out);
  if (op->kind == OP_CONVERT) return true;
  if (cplx) return complex_supported(op);
  /* narrow floats */
  switch (op->kind) {
  case OP_REAL: case OP_IMAG:
    return true;
  case OP_COMPARE:
    if (total_order(op)) return false;
    break;
  default:
    break;
  }
  Shadow sh;
  return shadow_of(op, &sh) && scalar_op_supported(&sh.op);
}

/* ---- conversions ---- */

static LLVMValueRef fcast(Cg *cg, LLVMValueRef v, LLVMTypeRef to) {
  LLVMTypeRef from = LLVMTypeOf(v);
  if (from == to) return v;
  return LLVMGetTypeKind(from) == LLVMDoubleTypeKind ? cg_fptrunc(cg, v, to, "")
                                                     : LLVMBuildFPExt(cg->b, v, to, "");
}

/* a real value of an integer/pred type as the float type t, rounded once */
static LLVMValueRef int_to_float(Cg *cg, ElemType from, LLVMValueRef v, LLVMTypeRef t) {
  if (et_is_signed(from)) return LLVMBuildSIToFP(cg->b, v, t, "");
  return LLVMBuildUIToFP(cg->b, v, t, ""); /* pred too: true is 1 */
}

/* Any native value to any native type where one side is complex or narrow.
   Complex sources convert their real part to real destinations. */
static LLVMValueRef convert(Cg *cg, ElemType from, ElemType to, LLVMValueRef v) {
  LLVMBuilderRef b = cg->b;
  if (from == to) return v;
  if (et_is_complex(to)) {
    LLVMTypeRef pt = cg_part_type(cg, to);
    if (et_is_complex(from)) return cg_complex(cg, to, fcast(cg, cg_re(cg, v), pt), fcast(cg, cg_im(cg, v), pt));
    LLVMValueRef re = et_is_float(from) ? fcast(cg, v, pt) : int_to_float(cg, from, v, pt);
    return cg_complex(cg, to, re, LLVMConstReal(pt, 0.0));
  }
  LLVMValueRef x = et_is_complex(from) ? cg_re(cg, v) : v; /* real from here on */
  if (to == ET_PRED) {
    if (!et_is_fp(from)) return LLVMBuildICmp(b, LLVMIntNE, x, LLVMConstInt(LLVMTypeOf(x), 0, 0), "");
    return LLVMBuildFCmp(b, LLVMRealUNE, x, LLVMConstReal(LLVMTypeOf(x), 0.0), "");
  }
  LLVMTypeRef tt = cg_compute_type(cg, to);
  if (et_is_int(to)) {
    /* truncate toward zero, saturate, NaN -> 0 */
    const char *name = et_is_signed(to) ? "llvm.fptosi.sat" : "llvm.fptoui.sat";
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMTypeRef tys[2] = {tt, LLVMTypeOf(x)};
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(cg->mod, id, tys, 2);
    return LLVMBuildCall2(b, LLVMIntrinsicGetType(cg->ctx, id, tys, 2), fn, &x, 1, "");
  }
  if (cg_elem_narrow(to)) {
    if (!et_is_fp(from)) x = cg_int_to_f64_odd(cg, from, x);
    if (LLVMTypeOf(x) == tt) return cg_narrow_round(cg, to, x);
    /* from another precision: round once, straight from the source value */
    return cg_narrow_decode(cg, to, cg_narrow_encode(cg, to, x));
  }
  /* f16/bf16/f32/f64 from a float value */
  if (to == ET_F16 || to == ET_BF16)
    return LLVMBuildFPExt(b, cg_fptrunc(cg, x, cg_storage_type(cg, to), ""), cg->t_f32, "");
  return fcast(cg, x, tt);
}

/* ---- complex arithmetic, in double ---- */

typedef struct C {
  LLVMValueRef re, im;
} C;

static LLVMValueRef dconst(Cg *cg, double v) { return LLVMConstReal(cg->t_f64, v); }

static C to_c(Cg *cg, LLVMValueRef z) {
  C c = {fcast(cg, cg_re(cg, z), cg->t_f64), fcast(cg, cg_im(cg, z), cg->t_f64)};
  return c;
}

static LLVMValueRef from_c(Cg *cg, ElemType et, C c) {
  LLVMTypeRef pt = cg_part_type(cg, et);
  return cg_complex(cg, et, fcast(cg, c.re, pt), fcast(cg, c.im, pt));
}

static LLVMValueRef mulf(Cg *cg, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFMul(cg->b, a, b, ""); }
static LLVMValueRef addf(Cg *cg, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFAdd(cg->b, a, b, ""); }
static LLVMValueRef subf(Cg *cg, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFSub(cg->b, a, b, ""); }
static LLVMValueRef sel(Cg *cg, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(cg->b, c, a, b, "");
}
static LLVMValueRef and_(Cg *cg, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildAnd(cg->b, a, b, ""); }
static LLVMValueRef or_(Cg *cg, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildOr(cg->b, a, b, ""); }

static LLVMValueRef is_nan(Cg *cg, LLVMValueRef x) { return LLVMBuildFCmp(cg->b, LLVMRealUNO, x, x, ""); }
static LLVMValueRef is_inf(Cg *cg, LLVMValueRef x) {
  LLVMValueRef a = cg_intrinsic(cg, "llvm.fabs", LLVMTypeOf(x), &x, 1);
  return LLVMBuildFCmp(cg->b, LLVMRealOEQ, a, LLVMConstReal(LLVMTypeOf(x), INFINITY), "");
}
static LLVMValueRef copysign_(Cg *cg, LLVMValueRef mag, LLVMValueRef sgn) {
  LLVMValueRef a[2] = {mag, sgn};
  return cg_intrinsic(cg, "llvm.copysign", LLVMTypeOf(mag), a, 2);
}
/* copysign(isinf(x) ? 1 : 0, x) */
static LLVMValueRef box(Cg *cg, LLVMValueRef x) {
  return copysign_(cg, sel(cg, is_inf(cg, x), dconst(cg, 1.0), dconst(cg, 0.0)), x);
}
/* x, with a NaN replaced by copysign(0, x) when `when` holds */
static LLVMValueRef nan0(Cg *cg, LLVMValueRef when, LLVMValueRef x) {
  return sel(cg, and_(cg, when, is_nan(cg, x)), copysign_(cg, dconst(cg, 0.0), x), x);
}

/* C99 Annex G multiplication: the plain formula, and when both parts came
   out NaN, infinite operands recovered as infinities. */
static C cmul(Cg *cg, C x, C y) {
  LLVMValueRef a = x.re, b = x.im, c = y.re, d = y.im;
  LLVMValueRef ac = mulf(cg, a, c), bd = mulf(cg, b, d), ad = mulf(cg, a, d), bc = mulf(cg, b, c);
  C r = {subf(cg, ac, bd), addf(cg, ad, bc)};
  LLVMValueRef both = and_(cg, is_nan(cg, r.re), is_nan(cg, r.im));
  LLVMValueRef ab_inf = or_(cg, is_inf(cg, a), is_inf(cg, b));
  LLVMValueRef a1 = sel(cg, ab_inf, box(cg, a), a), b1 = sel(cg, ab_inf, box(cg, b), b);
  LLVMValueRef c1 = nan0(cg, ab_inf, c), d1 = nan0(cg, ab_inf, d);
  LLVMValueRef cd_inf = or_(cg, is_inf(cg, c1), is_inf(cg, d1));
  LLVMValueRef c2 = sel(cg, cd_inf, box(cg, c1), c1), d2 = sel(cg, cd_inf, box(cg, d1), d1);
  LLVMValueRef a2 = nan0(cg, cd_inf, a1), b2 = nan0(cg, cd_inf, b1);
  LLVMValueRef recalc = or_(cg, ab_inf, cd_inf);
  LLVMValueRef prod_inf = or_(cg, or_(cg, is_inf(cg, ac), is_inf(cg, bd)), or_(cg, is_inf(cg, ad), is_inf(cg, bc)));
  LLVMValueRef third = and_(cg, LLVMBuildNot(cg->b, recalc, ""), prod_inf);
  a2 = nan0(cg, third, a2);
  b2 = nan0(cg, third, b2);
  c2 = nan0(cg, third, c2);
  d2 = nan0(cg, third, d2);
  recalc = and_(cg, both, or_(cg, recalc, third));
  LLVMValueRef inf = dconst(cg, INFINITY);
  LLVMValueRef xr = mulf(cg, inf, subf(cg, mulf(cg, a2, c2), mulf(cg, b2, d2)));
  LLVMValueRef yr = mulf(cg, inf, addf(cg, mulf(cg, a2, d2), mulf(cg, b2, c2)));
  r.re = sel(cg, recalc, xr, r.re);
  r.im = sel(cg, recalc, yr, r.im);
  return r;
}

static C call_rt(Cg *cg, int fn, C x, C y);
static LLVMValueRef both_zero(Cg *cg, C z);
static C csel(Cg *cg, LLVMValueRef c, C a, C b);

/* ---- device code (Cg.no_libm): the same functions inline ----
   Where the CPU calls libm and the runtime (which the interpreter shares),
   device code has no C library: the real functions are the inline
   approximations of math_approx.c, the complex ones the textbook formulas
   over them (Smith's division; sin, cos, sinh, cosh, tanh from the real
   parts; logarithmic forms for the inverses, with the odd symmetry used to
   avoid cancellation).  Close to the interpreter (within the few ULP of
   the real functions for moderate arguments), not bit-identical. */

static LLVMValueRef fabs_(Cg *cg, LLVMValueRef x) { return cg_intrinsic(cg, "llvm.fabs", cg->t_f64, &x, 1); }
static LLVMValueRef sqrt_(Cg *cg, LLVMValueRef x) { return cg_intrinsic(cg, "llvm.sqrt", cg->t_f64, &x, 1); }
static LLVMValueRef divf(Cg *cg, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFDiv(cg->b, a, b, ""); }
static LLVMValueRef fcmp(Cg *cg, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildFCmp(cg->b, p, a, b, "");
}

/* hypot: scaled by the larger magnitude; inf wins over NaN */
static LLVMValueRef dev_hypot(Cg *cg, LLVMValueRef x, LLVMValueRef y) {
  LLVMValueRef ax = fabs_(cg, x), ay = fabs_(cg, y);
  LLVMValueRef big = sel(cg, fcmp(cg, LLVMRealOGE, ax, ay), ax, ay), small = sel(cg, fcmp(cg, LLVMRealOGE, ax, ay), ay, ax);
  LLVMValueRef q = divf(cg, small, big);
  LLVMValueRef r = mulf(cg, big, sqrt_(cg, addf(cg, dconst(cg, 1.0), mulf(cg, q, q))));
  r = sel(cg, fcmp(cg, LLVMRealOEQ, big, dconst(cg, 0.0)), dconst(cg, 0.0), r);
  r = sel(cg, or_(cg, is_nan(cg, x), is_nan(cg, y)), dconst(cg, NAN), r);
  return sel(cg, or_(cg, is_inf(cg, x), is_inf(cg, y)), dconst(cg, INFINITY), r);
}

static LLVMValueRef dev_libm(Cg *cg, const char *name, LLVMValueRef x) {
  LLVMBuilderRef b = cg->b;
  LLVMModuleRef m = cg->mod;
  if (!strcmp(name, "sin")) return emit_sin(b, m, x);
  if (!strcmp(name, "cos")) return emit_cos(b, m, x);
  if (!strcmp(name, "exp")) return emit_exp(b, m, x);
  if (!strcmp(name, "expm1")) return emit_expm1(b, m, x);
  if (!strcmp(name, "log")) return emit_log(b, m, x);
  return emit_log1p(b, m, x); /* "log1p" */
}

static LLVMValueRef dev_sinh(Cg *cg, LLVMValueRef a) {
  LLVMValueRef e = emit_expm1(cg->b, cg->mod, a);
  return mulf(cg, dconst(cg, 0.5), addf(cg, e, divf(cg, e, addf(cg, e, dconst(cg, 1.0)))));
}
static LLVMValueRef dev_cosh(Cg *cg, LLVMValueRef a) {
  LLVMValueRef e = emit_exp(cg->b, cg->mod, fabs_(cg, a));
  return mulf(cg, dconst(cg, 0.5), addf(cg, e, divf(cg, dconst(cg, 1.0), e)));
}

static C cmk(LLVMValueRef re, LLVMValueRef im) {
  C r = {re, im};
  return r;
}
static C cadd(Cg *cg, C x, C y) { return cmk(addf(cg, x.re, y.re), addf(cg, x.im, y.im)); }
static C csub(Cg *cg, C x, C y) { return cmk(subf(cg, x.re, y.re), subf(cg, x.im, y.im)); }
static C cneg(Cg *cg, C x) { return cmk(LLVMBuildFNeg(cg->b, x.re, ""), LLVMBuildFNeg(cg->b, x.im, "")); }
/* i z and -i z */
static C times_i(Cg *cg, C z) { return cmk(LLVMBuildFNeg(cg->b, z.im, ""), z.re); }
static C times_neg_i(Cg *cg, C z) { return cmk(z.im, LLVMBuildFNeg(cg->b, z.re, "")); }

static C dev_div(Cg *cg, C x, C y) {
  LLVMValueRef a = x.re, b = x.im, c = y.re, d = y.im;
  LLVMValueRef wide = fcmp(cg, LLVMRealOGE, fabs_(cg, c), fabs_(cg, d));
  /* |c| >= |d|: r = d / c, den = c + d r; else r = c / d, den = c r + d */
  LLVMValueRef r = sel(cg, wide, divf(cg, d, c), divf(cg, c, d));
  LLVMValueRef den = sel(cg, wide, addf(cg, c, mulf(cg, d, r)), addf(cg, mulf(cg, c, r), d));
  LLVMValueRef re = sel(cg, wide, addf(cg, a, mulf(cg, b, r)), addf(cg, mulf(cg, a, r), b));
  LLVMValueRef im = sel(cg, wide, subf(cg, b, mulf(cg, a, r)), subf(cg, mulf(cg, b, r), a));
  C q = {divf(cg, re, den), divf(cg, im, den)};
  /* by zero: infinities with the numerator's signs */
  LLVMValueRef zero = and_(cg, fcmp(cg, LLVMRealOEQ, c, dconst(cg, 0.0)), fcmp(cg, LLVMRealOEQ, d, dconst(cg, 0.0)));
  LLVMValueRef inf = copysign_(cg, dconst(cg, INFINITY), c);
  C z = {mulf(cg, inf, a), mulf(cg, inf, b)};
  return csel(cg, zero, z, q);
}

void cg_complex_div(Cg *cg, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c, LLVMValueRef d, LLVMValueRef *re,
                    LLVMValueRef *im) {
  C x = {a, b}, y = {c, d};
  C q = dev_div(cg, x, y);
  *re = q.re, *im = q.im;
}

static C dev_exp(Cg *cg, C z) {
  LLVMValueRef e = emit_exp(cg->b, cg->mod, z.re);
  LLVMValueRef real = fcmp(cg, LLVMRealOEQ, z.im, dconst(cg, 0.0));
  return cmk(sel(cg, real, e, mulf(cg, e, emit_cos(cg->b, cg->mod, z.im))),
             sel(cg, real, z.im, mulf(cg, e, emit_sin(cg->b, cg->mod, z.im))));
}

static C dev_log(Cg *cg, C z) {
  return cmk(emit_log(cg->b, cg->mod, dev_hypot(cg, z.re, z.im)), emit_atan2(cg->b, cg->mod, z.im, z.re));
}

static C dev_sqrt(Cg *cg, C z) {
  LLVMValueRef h = dev_hypot(cg, z.re, z.im);
  LLVMValueRef t = sqrt_(cg, mulf(cg, dconst(cg, 0.5), addf(cg, fabs_(cg, z.re), h)));
  LLVMValueRef u = divf(cg, z.im, mulf(cg, dconst(cg, 2.0), t));
  LLVMValueRef pos = fcmp(cg, LLVMRealOGE, z.re, dconst(cg, 0.0));
  C r = {sel(cg, pos, t, fabs_(cg, u)), sel(cg, pos, u, copysign_(cg, t, z.im))};
  C zero = {dconst(cg, 0.0), z.im};
  r = csel(cg, both_zero(cg, z), zero, r);
  /* an infinite imaginary part: (inf, that infinity) */
  C inf = {dconst(cg, INFINITY), z.im};
  return csel(cg, is_inf(cg, z.im), inf, r);
}

static C dev_sin(Cg *cg, C z) {
  return cmk(mulf(cg, emit_sin(cg->b, cg->mod, z.re), dev_cosh(cg, z.im)),
             mulf(cg, emit_cos(cg->b, cg->mod, z.re), dev_sinh(cg, z.im)));
}
static C dev_cos(Cg *cg, C z) {
  return cmk(mulf(cg, emit_cos(cg->b, cg->mod, z.re), dev_cosh(cg, z.im)),
             LLVMBuildFNeg(cg->b, mulf(cg, emit_sin(cg->b, cg->mod, z.re), dev_sinh(cg, z.im)), ""));
}
static C dev_sinh_c(Cg *cg, C z) {
  return cmk(mulf(cg, dev_sinh(cg, z.re), emit_cos(cg->b, cg->mod, z.im)),
             mulf(cg, dev_cosh(cg, z.re), emit_sin(cg->b, cg->mod, z.im)));
}
static C dev_cosh_c(Cg *cg, C z) {
  return cmk(mulf(cg, dev_cosh(cg, z.re), emit_cos(cg->b, cg->mod, z.im)),
             mulf(cg, dev_sinh(cg, z.re), emit_sin(cg->b, cg->mod, z.im)));
}
/* (sinh 2a + i sin 2b) / (cosh 2a + cos 2b); beyond |a| = 20 it is
   (sign a, +-0) to double precision */
static C dev_tanh(Cg *cg, C z) {
  LLVMValueRef a2 = mulf(cg, dconst(cg, 2.0), z.re), b2 = mulf(cg, dconst(cg, 2.0), z.im);
  LLVMValueRef d = addf(cg, dev_cosh(cg, a2), emit_cos(cg->b, cg->mod, b2));
  LLVMValueRef sb = emit_sin(cg->b, cg->mod, b2);
  C r = {divf(cg, dev_sinh(cg, a2), d), divf(cg, sb, d)};
  LLVMValueRef big = fcmp(cg, LLVMRealOGT, fabs_(cg, z.re), dconst(cg, 20.0));
  C lim = {copysign_(cg, dconst(cg, 1.0), z.re), copysign_(cg, dconst(cg, 0.0), sb)};
  return csel(cg, big, lim, r);
}
static C dev_tan(Cg *cg, C z) { return times_neg_i(cg, dev_tanh(cg, times_i(cg, z))); }

/* asinh z = log(z + sqrt(z^2 + 1)), computed for the half plane re >= 0
   (asinh is odd) */
static C dev_asinh(Cg *cg, C z) {
  LLVMValueRef neg = fcmp(cg, LLVMRealOLT, z.re, dconst(cg, 0.0));
  C w = csel(cg, neg, cneg(cg, z), z);
  C one = {dconst(cg, 1.0), dconst(cg, 0.0)};
  C r = dev_log(cg, cadd(cg, w, dev_sqrt(cg, cadd(cg, cmul(cg, w, w), one))));
  return csel(cg, neg, cneg(cg, r), r);
}
static C dev_asin(Cg *cg, C z) { return times_neg_i(cg, dev_asinh(cg, times_i(cg, z))); }
static C dev_acos(Cg *cg, C z) {
  C s = dev_asin(cg, z);
  return cmk(subf(cg, dconst(cg, M_PI / 2), s.re), LLVMBuildFNeg(cg->b, s.im, ""));
}
/* acosh z = log(z + sqrt(z + 1) sqrt(z - 1)) */
static C dev_acosh(Cg *cg, C z) {
  C one = {dconst(cg, 1.0), dconst(cg, 0.0)};
  return dev_log(cg, cadd(cg, z, cmul(cg, dev_sqrt(cg, cadd(cg, z, one)), dev_sqrt(cg, csub(cg, z, one)))));
}
/* atanh z = (log(1 + z) - log(1 - z)) / 2 */
static C dev_atanh(Cg *cg, C z) {
  C one = {dconst(cg, 1.0), dconst(cg, 0.0)};
  C d = csub(cg, dev_log(cg, cadd(cg, one, z)), dev_log(cg, csub(cg, one, z)));
  return cmk(mulf(cg, dconst(cg, 0.5), d.re), mulf(cg, dconst(cg, 0.5), d.im));
}
static C dev_atan(Cg *cg, C z) { return times_neg_i(cg, dev_atanh(cg, times_i(cg, z))); }

static C dev_complex_fn(Cg *cg, int fn, C x, C y) {
  switch (fn) {
  case XLACRT_C_DIV: return dev_div(cg, x, y);
  case XLACRT_C_EXP: return dev_exp(cg, x);
  case XLACRT_C_LOG: return dev_log(cg, x);
  case XLACRT_C_SQRT: return dev_sqrt(cg, x);
  case XLACRT_C_SIN: return dev_sin(cg, x);
  case XLACRT_C_COS: return dev_cos(cg, x);
  case XLACRT_C_TAN: return dev_tan(cg, x);
  case XLACRT_C_TANH: return dev_tanh(cg, x);
  case XLACRT_C_SINH: return dev_sinh_c(cg, x);
  case XLACRT_C_COSH: return dev_cosh_c(cg, x);
  case XLACRT_C_ASIN: return dev_asin(cg, x);
  case XLACRT_C_ACOS: return dev_acos(cg, x);
  case XLACRT_C_ATAN: return dev_atan(cg, x);
  case XLACRT_C_ASINH: return dev_asinh(cg, x);
  case XLACRT_C_ACOSH: return dev_acosh(cg, x);
  case XLACRT_C_ATANH: return dev_atanh(cg, x);
  default: return dev_exp(cg, cmul(cg, y, dev_log(cg, x))); /* XLACRT_C_POW */
  }
}

/* fn(x, y) through xlacrt_complex_fn (device code: inline) */
static C call_rt(Cg *cg, int fn, C x, C y) {
  if (cg->no_libm) return dev_complex_fn(cg, fn, x, y);
  LLVMTypeRef params[6] = {cg->t_i32, cg->t_f64, cg->t_f64, cg->t_f64, cg->t_f64, cg->t_ptr};
  LLVMTypeRef fty = LLVMFunctionType(cg->t_void, params, 6, 0);
  LLVMValueRef f = LLVMGetNamedFunction(cg->mod, "xlacrt_complex_fn");
  if (!f) f = LLVMAddFunction(cg->mod, "xlacrt_complex_fn", fty);
  LLVMTypeRef at = LLVMArrayType2(cg->t_f64, 2);
  LLVMValueRef out = cg_entry_alloca(cg, LLVMGetBasicBlockParent(LLVMGetInsertBlock(cg->b)), at, "cplx");
  LLVMValueRef args[6] = {LLVMConstInt(cg->t_i32, (unsigned)fn, 0), x.re, x.im, y.re, y.im, out};
  LLVMBuildCall2(cg->b, fty, f, args, 6, "");
  LLVMValueRef i1 = cg_i64(cg, 1);
  C r = {LLVMBuildLoad2(cg->b, cg->t_f64, out, ""),
         LLVMBuildLoad2(cg->b, cg->t_f64, LLVMBuildGEP2(cg->b, cg->t_f64, out, &i1, 1, ""), "")};
  return r;
}

static C call1(Cg *cg, int fn, C x) {
  C zero = {dconst(cg, 0.0), dconst(cg, 0.0)};
  return call_rt(cg, fn, x, zero);
}

static LLVMValueRef libm(Cg *cg, const char *name, LLVMValueRef x) {
  return cg->no_libm ? dev_libm(cg, name, x) : cg_libm(cg, name, &x, 1);
}
static LLVMValueRef libm2(Cg *cg, const char *name, LLVMValueRef x, LLVMValueRef y) {
  if (cg->no_libm)
    return !strcmp(name, "hypot") ? dev_hypot(cg, x, y) : emit_atan2(cg->b, cg->mod, x, y); /* "atan2" */
  LLVMValueRef a[2] = {x, y};
  return cg_libm(cg, name, a, 2);
}

/* exp(x)cos(y) - 1 as expm1(x)cos(y) - 2 sin^2(y/2); a real z stays real */
static C cexpm1(Cg *cg, C z) {
  LLVMValueRef s = libm(cg, "sin", mulf(cg, z.im, dconst(cg, 0.5)));
  LLVMValueRef re = subf(cg, mulf(cg, libm(cg, "expm1", z.re), libm(cg, "cos", z.im)),
                         mulf(cg, mulf(cg, dconst(cg, 2.0), s), s));
  LLVMValueRef im = mulf(cg, libm(cg, "exp", z.re), libm(cg, "sin", z.im));
  LLVMValueRef y0 = LLVMBuildFCmp(cg->b, LLVMRealOEQ, z.im, dconst(cg, 0.0), "");
  C r = {re, sel(cg, y0, z.im, im)};
  return r;
}

/* log|1+z| from log1p(2x + x^2 + y^2) / 2 when that is small */
static C clog1p(Cg *cg, C z) {
  LLVMValueRef x = z.re, y = z.im;
  LLVMValueRef t = addf(cg, addf(cg, mulf(cg, dconst(cg, 2.0), x), mulf(cg, x, x)), mulf(cg, y, y));
  LLVMValueRef x1 = addf(cg, dconst(cg, 1.0), x);
  LLVMValueRef small = LLVMBuildFCmp(cg->b, LLVMRealOLT, cg_intrinsic(cg, "llvm.fabs", cg->t_f64, &t, 1),
                                     dconst(cg, 0.5), "");
  LLVMValueRef a = mulf(cg, dconst(cg, 0.5), libm(cg, "log1p", t));
  LLVMValueRef bb = libm(cg, "log", libm2(cg, "hypot", x1, y));
  C r = {sel(cg, small, a, bb), libm2(cg, "atan2", y, x1)};
  return r;
}

static LLVMValueRef both_zero(Cg *cg, C z) {
  return and_(cg, LLVMBuildFCmp(cg->b, LLVMRealOEQ, z.re, dconst(cg, 0.0), ""),
              LLVMBuildFCmp(cg->b, LLVMRealOEQ, z.im, dconst(cg, 0.0), ""));
}

static C csel(Cg *cg, LLVMValueRef c, C a, C b) {
  C r = {sel(cg, c, a.re, b.re), sel(cg, c, a.im, b.im)};
  return r;
}

/* lexicographic (re, im) a < b, the interpreter's order for max/min */
static LLVMValueRef clt(Cg *cg, C a, C b) {
  LLVMValueRef lt = LLVMBuildFCmp(cg->b, LLVMRealOLT, a.re, b.re, "");
  LLVMValueRef eq = LLVMBuildFCmp(cg->b, LLVMRealOEQ, a.re, b.re, "");
  return or_(cg, lt, and_(cg, eq, LLVMBuildFCmp(cg->b, LLVMRealOLT, a.im, b.im, "")));
}

/* IEEE totalOrder key of a float's bits, as a signed integer */
static LLVMValueRef total_key(Cg *cg, LLVMValueRef x) {
  LLVMTypeRef ft = LLVMTypeOf(x);
  unsigned w = ft == cg->t_f64 ? 64 : 32;
  LLVMTypeRef it = LLVMIntTypeInContext(cg->ctx, w);
  LLVMValueRef bits = LLVMBuildBitCast(cg->b, x, it, "");
  LLVMValueRef s = LLVMBuildAShr(cg->b, bits, LLVMConstInt(it, w - 1, 0), "");
  LLVMValueRef mask = LLVMBuildLShr(cg->b, LLVMConstAllOnes(it), LLVMConstInt(it, 1, 0), "");
  return LLVMBuildXor(cg->b, bits, LLVMBuildAnd(cg->b, s, mask, ""), "");
}

/* compare: lexicographic on (re, im); FLOAT: a NaN part makes it unordered */
static LLVMValueRef ccompare(Cg *cg, const Op *op, LLVMValueRef x, LLVMValueRef y) {
  LLVMBuilderRef b = cg->b;
  const char *dir = op_attr_str(op, "comparison_direction");
  if (!dir) dir = "EQ";
  LLVMValueRef ar = cg_re(cg, x), ai = cg_im(cg, x), br = cg_re(cg, y), bi = cg_im(cg, y);
  LLVMValueRef req, rlt, rgt, ieq, ilt, igt;
  if (total_order(op)) {
    ar = total_key(cg, ar), ai = total_key(cg, ai), br = total_key(cg, br), bi = total_key(cg, bi);
    req = LLVMBuildICmp(b, LLVMIntEQ, ar, br, ""), rlt = LLVMBuildICmp(b, LLVMIntSLT, ar, br, "");
    rgt = LLVMBuildICmp(b, LLVMIntSGT, ar, br, "");
    ieq = LLVMBuildICmp(b, LLVMIntEQ, ai, bi, ""), ilt = LLVMBuildICmp(b, LLVMIntSLT, ai, bi, "");
    igt = LLVMBuildICmp(b, LLVMIntSGT, ai, bi, "");
  } else {
    req = LLVMBuildFCmp(b, LLVMRealOEQ, ar, br, ""), rlt = LLVMBuildFCmp(b, LLVMRealOLT, ar, br, "");
    rgt = LLVMBuildFCmp(b, LLVMRealOGT, ar, br, "");
    ieq = LLVMBuildFCmp(b, LLVMRealOEQ, ai, bi, ""), ilt = LLVMBuildFCmp(b, LLVMRealOLT, ai, bi, "");
    igt = LLVMBuildFCmp(b, LLVMRealOGT, ai, bi, "");
  }
  /* c = the real parts' order, or the imaginary parts' when those are equal */
  LLVMValueRef eq = and_(cg, req, ieq);
  LLVMValueRef lt = or_(cg, rlt, and_(cg, req, ilt));
  LLVMValueRef gt = or_(cg, rgt, and_(cg, req, igt));
  if (!strcmp(dir, "EQ")) return eq;
  if (!strcmp(dir, "NE")) return LLVMBuildNot(b, eq, "");
  if (!strcmp(dir, "LT")) return lt;
  if (!strcmp(dir, "GT")) return gt;
  if (!strcmp(dir, "LE")) return or_(cg, lt, eq);
  return or_(cg, gt, eq);
}

static LLVMValueRef emit_complex(Cg *cg, const Op *op, const ElemType *it, LLVMValueRef *in, ElemType out) {
  ElemType t = it[0];
  C x = {0}, y = {0}, r;
  if (et_is_complex(t)) x = to_c(cg, in[0]);
  if (op->nopnds > 1 && et_is_complex(it[1])) y = to_c(cg, in[1]);
  switch (op->kind) {
  case OP_ADD: r.re = addf(cg, x.re, y.re), r.im = addf(cg, x.im, y.im); break;
  case OP_SUBTRACT: r.re = subf(cg, x.re, y.re), r.im = subf(cg, x.im, y.im); break;
  case OP_NEGATE: r.re = LLVMBuildFNeg(cg->b, x.re, ""), r.im = LLVMBuildFNeg(cg->b, x.im, ""); break;
  case OP_CHLO_CONJ: r.re = x.re, r.im = LLVMBuildFNeg(cg->b, x.im, ""); break;
  case OP_MULTIPLY: r = cmul(cg, x, y); break;
  case OP_CHLO_SQUARE: r = cmul(cg, x, x); break;
  case OP_DIVIDE: r = call_rt(cg, XLACRT_C_DIV, x, y); break;
  case OP_POWER: {
    /* 0^0 is 1, as for reals (cpow would give NaN from log(0)) */
    C p = call_rt(cg, XLACRT_C_POW, x, y), one = {dconst(cg, 1.0), dconst(cg, 0.0)};
    r = csel(cg, and_(cg, both_zero(cg, x), both_zero(cg, y)), one, p);
    break;
  }
  case OP_EXPONENTIAL: r = call1(cg, XLACRT_C_EXP, x); break;
  case OP_LOG: r = call1(cg, XLACRT_C_LOG, x); break;
  case OP_SQRT: r = call1(cg, XLACRT_C_SQRT, x); break;
  case OP_SINE: r = call1(cg, XLACRT_C_SIN, x); break;
  case OP_COSINE: r = call1(cg, XLACRT_C_COS, x); break;
  case OP_TAN: case OP_CHLO_TAN: r = call1(cg, XLACRT_C_TAN, x); break;
  case OP_TANH: r = call1(cg, XLACRT_C_TANH, x); break;
  case OP_CHLO_SINH: r = call1(cg, XLACRT_C_SINH, x); break;
  case OP_CHLO_COSH: r = call1(cg, XLACRT_C_COSH, x); break;
  case OP_CHLO_ASIN: r = call1(cg, XLACRT_C_ASIN, x); break;
  case OP_CHLO_ACOS: r = call1(cg, XLACRT_C_ACOS, x); break;
  case OP_CHLO_ATAN: r = call1(cg, XLACRT_C_ATAN, x); break;
  case OP_CHLO_ASINH: r = call1(cg, XLACRT_C_ASINH, x); break;
  case OP_CHLO_ACOSH: r = call1(cg, XLACRT_C_ACOSH, x); break;
  case OP_CHLO_ATANH: r = call1(cg, XLACRT_C_ATANH, x); break;
  case OP_RSQRT: {
    C one = {dconst(cg, 1.0), dconst(cg, 0.0)};
    r = call_rt(cg, XLACRT_C_DIV, one, call1(cg, XLACRT_C_SQRT, x));
    break;
  }
  case OP_LOGISTIC: {
    /* 1 / (1 + exp(-z)) */
    C one = {dconst(cg, 1.0), dconst(cg, 0.0)};
    C nx = {LLVMBuildFNeg(cg->b, x.re, ""), LLVMBuildFNeg(cg->b, x.im, "")};
    C e = call1(cg, XLACRT_C_EXP, nx);
    C den = {addf(cg, dconst(cg, 1.0), e.re), e.im};
    r = call_rt(cg, XLACRT_C_DIV, one, den);
    break;
  }
  case OP_CBRT: {
    /* exp(log(z) / 3); 0 is its own cube root */
    C l = call1(cg, XLACRT_C_LOG, x);
    C third = {LLVMBuildFDiv(cg->b, l.re, dconst(cg, 3.0), ""), LLVMBuildFDiv(cg->b, l.im, dconst(cg, 3.0), "")};
    r = csel(cg, both_zero(cg, x), x, call1(cg, XLACRT_C_EXP, third));
    break;
  }
  case OP_ATAN2: {
    /* atan2(a, b) as the interpreter computes it: -i log((b + i a) / sqrt(b^2 + a^2)) */
    C num = {subf(cg, y.re, x.im), addf(cg, y.im, x.re)};
    C sq = cmul(cg, x, x), sy = cmul(cg, y, y);
    C den = call1(cg, XLACRT_C_SQRT, (C){addf(cg, sq.re, sy.re), addf(cg, sq.im, sy.im)});
    C l = call1(cg, XLACRT_C_LOG, call_rt(cg, XLACRT_C_DIV, num, den));
    r.re = l.im, r.im = LLVMBuildFNeg(cg->b, l.re, "");
    break;
  }
  case OP_EXPONENTIAL_MINUS_ONE: r = cexpm1(cg, x); break;
  case OP_LOG_PLUS_ONE: r = clog1p(cg, x); break;
  case OP_SIGN: {
    /* z / |z|; NaN parts give NaN, zero gives +0 */
    LLVMValueRef a = libm2(cg, "hypot", x.re, x.im);
    C q = {LLVMBuildFDiv(cg->b, x.re, a, ""), LLVMBuildFDiv(cg->b, x.im, a, "")};
    C zero = {dconst(cg, 0.0), dconst(cg, 0.0)}, nan = {dconst(cg, NAN), dconst(cg, NAN)};
    r = csel(cg, both_zero(cg, x), zero, q);
    r = csel(cg, or_(cg, is_nan(cg, x.re), is_nan(cg, x.im)), nan, r);
    break;
  }
  case OP_ABS:
    return fcast(cg, libm2(cg, "hypot", x.re, x.im), cg_compute_type(cg, out));
  case OP_MAXIMUM: r = csel(cg, clt(cg, x, y), y, x); break;
  case OP_MINIMUM: r = csel(cg, clt(cg, y, x), y, x); break;
  case OP_CLAMP: {
    /* minimum(maximum(x, lo), hi) */
    C lo = to_c(cg, in[0]), v = to_c(cg, in[1]), hi = to_c(cg, in[2]);
    C m = csel(cg, clt(cg, v, lo), lo, v);
    r = csel(cg, clt(cg, hi, m), hi, m);
    break;
  }
  case OP_COMPARE: return ccompare(cg, op, in[0], in[1]);
  case OP_SELECT: return LLVMBuildSelect(cg->b, in[0], in[1], in[2], "");
  case OP_COPY: return in[0];
  case OP_CONVERT: return convert(cg, t, out, in[0]);
  case OP_REAL: return et_is_complex(t) ? cg_re(cg, in[0]) : in[0];
  case OP_IMAG: return et_is_complex(t) ? cg_im(cg, in[0]) : cg_const(cg, out, 0.0);
  case OP_COMPLEX: return cg_complex(cg, out, in[0], in[1]);
  default: return NULL;
  }
  return from_c(cg, out, r);
}

LLVMValueRef emit_special_op(Cg *cg, const Op *op, const ElemType *in_types, LLVMValueRef *in,
                             ElemType out) {
  bool cplx = et_is_complex(out);
  for (int i = 0; i < op->nopnds; i++) cplx = cplx || et_is_complex(in_types[i]);
  if (op->kind == OP_CONVERT) return convert(cg, in_types[0], out, in[0]);
  if (cplx) return emit_complex(cg, op, in_types, in, out);
  /* narrow floats: the op on the wide type, rounded */
  switch (op->kind) {
  case OP_REAL: return in[0];
  case OP_IMAG: return cg_const(cg, out, 0.0);
  case OP_SELECT: case OP_COPY: case OP_CLAMP: {
    /* the result is one of the operands, already in the format */
    Shadow sh;
    ElemType wt[4];
    shadow_of(op, &sh);
    for (int i = 0; i < op->nopnds; i++) wt[i] = wide_of(in_types[i]);
    return emit_scalar_op(cg, &sh.op, wt, in, wide_of(out));
  }
  default: {
    Shadow sh;
    ElemType wt[4];
    shadow_of(op, &sh);
    for (int i = 0; i < op->nopnds; i++) wt[i] = wide_of(in_types[i]);
    LLVMValueRef r = emit_scalar_op(cg, &sh.op, wt, in, wide_of(out));
    return r && cg_elem_narrow(out) ? cg_narrow_round(cg, out, r) : r;
  }
  }
}
