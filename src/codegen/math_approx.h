/* math_approx.h - transcendental functions emitted as inline LLVM IR.
 *
 * A libm call per element stops LLVM's loop vectorizer, so the code
 * generator builds each transcendental from plain instructions (fma,
 * selects, integer bit tricks, and intrinsics that lower to single vector
 * instructions: fabs, floor, roundeven, minnum/maxnum, copysign, sqrt).
 * Every function takes a scalar or fixed-width vector of float or double and
 * returns a value of the same type; half and bfloat are computed in float by
 * the caller.  Accuracy (max error in ULP, measured by
 * tests/unit/test_math_approx.c) and special-case coverage are listed in
 * docs/math.md. */
#ifndef XLAC_CODEGEN_MATH_APPROX_H
#define XLAC_CODEGEN_MATH_APPROX_H

#include <llvm-c/Core.h>

LLVMValueRef emit_exp(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef x);
LLVMValueRef emit_expm1(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef x);
LLVMValueRef emit_log(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef x);
LLVMValueRef emit_log1p(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef x);
LLVMValueRef emit_tanh(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef x);
/* 1 / (1 + exp(-x)) */
LLVMValueRef emit_logistic(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef x);
LLVMValueRef emit_erf(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef x);
/* erfc of a float (scalar or vector) good to ~2^-17 relative: enough for a
   result rounded to f16 or bf16, not for an f32 one. */
LLVMValueRef emit_erfc_narrow(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef x);
/* erfc of a float widened to double (scalar or vector), good to 2^-26
   relative: for a result rounded to f32. */
LLVMValueRef emit_erfc_wide(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef x);
/* erfc of a float in float arithmetic (no double, no division). */
LLVMValueRef emit_erfc_f32(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef x);
LLVMValueRef emit_sin(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef x);
LLVMValueRef emit_cos(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef x);
LLVMValueRef emit_tan(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef x);
LLVMValueRef emit_atan(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef x);
/* atan2(y, x): angle of the point (x, y), C99 special cases. */
LLVMValueRef emit_atan2(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef y, LLVMValueRef x);
/* x ** y with C99/IEEE pow special cases. */
LLVMValueRef emit_pow(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef x, LLVMValueRef y);
LLVMValueRef emit_cbrt(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef x);
LLVMValueRef emit_sqrt(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef x);
/* 1 / sqrt(x) */
LLVMValueRef emit_rsqrt(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef x);

#endif
