/* Accuracy test for the inline transcendental functions of
 * src/codegen/math_approx.c.
 *
 * Builds one LLVM function per (function, float type) that loops over
 * arrays, optimizes it with default<O3> and 512-bit vectors (so the code is
 * exercised the way generated kernels use it: vectorized), JIT-compiles it
 * with LLJIT, and compares against libm: double libm rounded to float for
 * f32, long double libm for f64.  Reports the max error in ULP per function
 * and fails when a bound from docs/math.md is exceeded or a special value
 * (zero sign, inf, NaN, overflow/underflow) comes out wrong.
 *
 * The f16/bf16 sweep feeds every 16-bit pattern through the f32 kernels and
 * rounds the float result once to the narrow type, as the code generator
 * does, and counts how many narrow values it lands from the correctly
 * rounded long double result (at most 1 allowed).
 *
 *   test_math_approx            moderate sweeps (part of the test suite)
 *   test_math_approx --full     10^7 samples per function and type
 *   test_math_approx --bench    time exp/log/sin/tanh over 16M elements
 *   test_math_approx --no-avx512   (with either) code for an AVX2 host:
 *                               12-bit reciprocal estimates, 256-bit vectors */
#include "codegen/jit.h"
#include "codegen/math_approx.h"

#include <float.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "test_util.h"

typedef LLVMValueRef (*Emit1)(LLVMBuilderRef, LLVMModuleRef, LLVMValueRef);
typedef LLVMValueRef (*Emit2)(LLVMBuilderRef, LLVMModuleRef, LLVMValueRef, LLVMValueRef);
typedef void (*Kernel32)(const float *, const float *, float *, int64_t);
typedef void (*Kernel64)(const double *, const double *, double *, int64_t);

static long double logisticl_(long double x) { return 1.0L / (1.0L + expl(-x)); }
static long double rsqrtl_(long double x) { return 1.0L / sqrtl(x); }

typedef struct {
  const char *name;
  Emit1 e1;
  Emit2 e2;
  long double (*r1)(long double);
  long double (*r2)(long double, long double);
  double lo32, hi32, lo64, hi64;    /* sweep domain (first argument) */
  double ylo, yhi;                  /* second argument domain */
  double bound32, bound64;          /* max ULP allowed */
  double max32, max64;              /* measured (filled in) */
  double at32, at64, aty32, aty64;  /* where */
  void *fn32, *fn64;
} Fn;

static Fn fns[] = {
    {"exp", emit_exp, 0, expl, 0, -104, 89, -746, 710, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0},
    {"expm1", emit_expm1, 0, expm1l, 0, -20, 89, -40, 710, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0},
    {"log", emit_log, 0, logl, 0, 0, FLT_MAX, 0, DBL_MAX, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0},
    {"log1p", emit_log1p, 0, log1pl, 0, -1, FLT_MAX, -1, DBL_MAX, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0},
    {"tanh", emit_tanh, 0, tanhl, 0, -12, 12, -25, 25, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0},
    {"logistic", emit_logistic, 0, logisticl_, 0, -110, 110, -750, 750, 0, 0, 2.5, 2.5, 0, 0, 0, 0, 0, 0, 0, 0},
    {"erf", emit_erf, 0, erfl, 0, -5, 5, -7, 7, 0, 0, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0},
    {"sin", emit_sin, 0, sinl, 0, -1e6, 1e6, -0x1p50, 0x1p50, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0},
    {"cos", emit_cos, 0, cosl, 0, -1e6, 1e6, -0x1p50, 0x1p50, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0},
    {"tan", emit_tan, 0, tanl, 0, -1e6, 1e6, -0x1p50, 0x1p50, 0, 0, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0},
    {"atan", emit_atan, 0, atanl, 0, -FLT_MAX, FLT_MAX, -DBL_MAX, DBL_MAX, 0, 0, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0},
    {"cbrt", emit_cbrt, 0, cbrtl, 0, -FLT_MAX, FLT_MAX, -DBL_MAX, DBL_MAX, 0, 0, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0},
    {"sqrt", emit_sqrt, 0, sqrtl, 0, 0, FLT_MAX, 0, DBL_MAX, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0},
    /* f32 only (a bound64 below 0 skips f64: codegen computes f64 erfc elsewhere) */
    {"erfc", emit_erfc_f32, 0, erfcl, 0, -5, 10.1, 0, 0, 0, 0, 4, -1, 0, 0, 0, 0, 0, 0, 0, 0},
    {"rsqrt", emit_rsqrt, 0, rsqrtl_, 0, 0, FLT_MAX, 0, DBL_MAX, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0},
    {"atan2", 0, emit_atan2, 0, atan2l, -1e6, 1e6, -1e6, 1e6, -1e6, 1e6, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0},
    {"pow", 0, emit_pow, 0, powl, 0, 100, 0, 100, -30, 30, 4, 1200, 0, 0, 0, 0, 0, 0, 0, 0},
};
enum { NFN = sizeof fns / sizeof fns[0] };

/* ---- IR: void f(T *a, T *b, T *out, i64 n) { for i: out[i] = F(a[i] [, b[i]]) } ---- */

static void build_kernel(LLVMModuleRef m, LLVMContextRef c, const Fn *f, int f64) {
  LLVMTypeRef ft = f64 ? LLVMDoubleTypeInContext(c) : LLVMFloatTypeInContext(c);
  LLVMTypeRef pt = LLVMPointerTypeInContext(c, 0), i64 = LLVMInt64TypeInContext(c);
  LLVMTypeRef params[4] = {pt, pt, pt, i64};
  char name[64];
  snprintf(name, sizeof name, "%s_%s", f->name, f64 ? "f64" : "f32");
  LLVMValueRef fn = LLVMAddFunction(m, name, LLVMFunctionType(LLVMVoidTypeInContext(c), params, 4, 0));
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(c, "prefer-vector-width", 19, "512", 3));
  unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
  for (unsigned i = 1; i <= 3; i++) LLVMAddAttributeAtIndex(fn, i, LLVMCreateEnumAttribute(c, noalias, 0));
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c, fn, "entry");
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c, fn, "loop");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c, fn, "done");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef n = LLVMGetParam(fn, 3), zero = LLVMConstInt(i64, 0, 0);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGT, n, zero, ""), loop, done);
  LLVMPositionBuilderAtEnd(b, loop);
  LLVMValueRef i = LLVMBuildPhi(b, i64, "i");
  LLVMValueRef pa = LLVMBuildGEP2(b, ft, LLVMGetParam(fn, 0), &i, 1, "");
  LLVMValueRef x = LLVMBuildLoad2(b, ft, pa, "");
  LLVMValueRef r;
  if (f->e1) {
    r = f->e1(b, m, x);
  } else {
    LLVMValueRef pb = LLVMBuildGEP2(b, ft, LLVMGetParam(fn, 1), &i, 1, "");
    r = f->e2(b, m, x, LLVMBuildLoad2(b, ft, pb, ""));
  }
  LLVMBuildStore(b, r, LLVMBuildGEP2(b, ft, LLVMGetParam(fn, 2), &i, 1, ""));
  LLVMValueRef i1 = LLVMBuildAdd(b, i, LLVMConstInt(i64, 1, 0), "");
  LLVMValueRef inc[2] = {zero, i1};
  LLVMBasicBlockRef from[2] = {entry, loop};
  LLVMAddIncoming(i, inc, from, 2);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, i1, n, ""), loop, done);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
}

static int no_avx512; /* --no-avx512: code for the host less AVX-512 (AVX2 estimates) */

static LLVMTargetMachineRef host_tm(void) {
  char *triple = LLVMGetDefaultTargetTriple(), *cpu = LLVMGetHostCPUName(), *feats = LLVMGetHostCPUFeatures();
  if (no_avx512) {
    char *f = xasprintf("%s,-avx512f", feats);
    LLVMDisposeMessage(feats);
    feats = LLVMCreateMessage(f);
    xfree(f);
    LLVMDisposeMessage(cpu);
    cpu = LLVMCreateMessage("x86-64-v3");
  }
  LLVMTargetRef t;
  char *err = NULL;
  LLVMTargetMachineRef tm = NULL;
  if (!LLVMGetTargetFromTriple(triple, &t, &err))
    tm = LLVMCreateTargetMachine(t, triple, cpu, feats, LLVMCodeGenLevelAggressive, LLVMRelocDefault,
                                 LLVMCodeModelJITDefault);
  else
    LLVMDisposeMessage(err);
  LLVMDisposeMessage(triple);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(feats);
  return tm;
}

static int report(LLVMErrorRef e, const char *what) {
  if (!e) return 0;
  char *msg = LLVMGetErrorMessage(e);
  fprintf(stderr, "%s: %s\n", what, msg);
  LLVMDisposeErrorMessage(msg);
  return 1;
}

/* Builds, optimizes and JIT-compiles every kernel; fills fns[].fn32/fn64. */
static LLVMOrcLLJITRef jit_all(int dump) {
  LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
  LLVMContextRef c = LLVMOrcThreadSafeContextGetContext(tsc);
  LLVMModuleRef m = LLVMModuleCreateWithNameInContext("math", c);
  for (int i = 0; i < NFN; i++)
    for (int f64 = 0; f64 < 2; f64++) build_kernel(m, c, &fns[i], f64);
  char *msg = NULL;
  if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
    fprintf(stderr, "invalid module: %s\n", msg);
    LLVMDisposeMessage(msg);
    LLVMDisposeModule(m);
    LLVMOrcDisposeThreadSafeContext(tsc);
    return NULL;
  }
  LLVMDisposeMessage(msg);
  LLVMTargetMachineRef tm = host_tm(), tm2 = host_tm();
  char *triple = LLVMGetTargetMachineTriple(tm);
  LLVMSetTarget(m, triple);
  LLVMDisposeMessage(triple);
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(m, td);
  LLVMDisposeTargetData(td);
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMPassBuilderOptionsSetLoopVectorization(po, 1);
  LLVMPassBuilderOptionsSetSLPVectorization(po, 1);
  int bad = report(LLVMRunPasses(m, "default<O3>", tm, po), "passes");
  LLVMDisposePassBuilderOptions(po);
  jit_raw_estimates(m, tm); /* as generated kernels get */
  LLVMDisposeTargetMachine(tm);
  if (dump) {
    char *ir = LLVMPrintModuleToString(m);
    fputs(ir, stdout);
    LLVMDisposeMessage(ir);
  }
  LLVMOrcJITTargetMachineBuilderRef jtmb = LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm2);
  LLVMOrcLLJITBuilderRef jb = LLVMOrcCreateLLJITBuilder();
  LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(jb, jtmb);
  LLVMOrcLLJITRef j = NULL;
  if (bad || report(LLVMOrcCreateLLJIT(&j, jb), "lljit")) {
    LLVMDisposeModule(m);
    LLVMOrcDisposeThreadSafeContext(tsc);
    return NULL;
  }
  LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(m, tsc);
  LLVMOrcDisposeThreadSafeContext(tsc);
  if (report(LLVMOrcLLJITAddLLVMIRModule(j, LLVMOrcLLJITGetMainJITDylib(j), tsm), "add module")) {
    LLVMOrcDisposeLLJIT(j);
    return NULL;
  }
  for (int i = 0; i < NFN; i++)
    for (int f64 = 0; f64 < 2; f64++) {
      char name[64];
      snprintf(name, sizeof name, "%s_%s", fns[i].name, f64 ? "f64" : "f32");
      LLVMOrcExecutorAddress addr = 0;
      if (report(LLVMOrcLLJITLookup(j, &addr, name), name)) {
        LLVMOrcDisposeLLJIT(j);
        return NULL;
      }
      *(f64 ? &fns[i].fn64 : &fns[i].fn32) = (void *)(uintptr_t)addr;
    }
  return j;
}

/* ---- sampling and error measure ---- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}
static double unif(double lo, double hi) {
  double u = (double)(rnd() >> 11) * 0x1p-53;
  double v = lo + (hi - lo) * u;
  if (!(v >= lo)) v = lo;
  if (!(v <= hi)) v = hi;
  return v;
}
/* Alternates uniform values with random bit patterns (every binade equally)
   that fall in [lo, hi]. */
static double sample(long i, double lo, double hi, int f64) {
  if (i % 2 == 0) return unif(lo, hi);
  for (int tries = 0; tries < 8; tries++) {
    double v;
    if (f64) {
      uint64_t bits = rnd();
      memcpy(&v, &bits, 8);
    } else {
      uint32_t bits = (uint32_t)rnd();
      float fv;
      memcpy(&fv, &bits, 4);
      v = fv;
    }
    if (v >= lo && v <= hi) return v;
  }
  return unif(lo, hi);
}

/* Error of got against the exact value ref, in units of the last place of
   the result type; inf/NaN/zero-sign mismatches give a huge error. */
static double ulp_err(long double ref, double got, int f64) {
  long double rr = f64 ? (long double)(double)ref : (long double)(float)ref; /* rounded */
  if (isnan(rr)) return isnan(got) ? 0 : 1e30;
  if (isnan(got)) return 1e30;
  if (isinf(rr) || isinf(got)) return (long double)got == rr ? 0 : 1e30;
  if (rr == 0 && got == 0) return !signbit(rr) == !signbit(got) ? 0 : 1e30;
  long double a = fabsl(ref);
  int e;
  frexpl(a, &e); /* a in [2^(e-1), 2^e) */
  int mant = f64 ? 53 : 24, emin = f64 ? -1021 : -125;
  if (e < emin) e = emin;
  long double ulp = ldexpl(1.0L, e - mant);
  return (double)(fabsl((long double)got - ref) / ulp);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Special inputs tried for every function (both arguments for binary ones). */
static const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 0.25,
                                  INFINITY, -INFINITY, NAN, 1e-45, -1e-45, 1e-40, -1e-40, 1.17549435e-38,
                                  5e-324, -5e-324, 1e-310, 2.2250738585072014e-308, 1e-30, -1e-30,
                                  88.72283, 88.72284, 89.0, -87.33654, -103.97, -104.0, -745.2, 709.78,
                                  709.79, 3.4028235e38, -3.4028235e38, 1.7976931348623157e308, 1e-8,
                                  -1e-8, 0.84, 3.92, 6.0, 1.5707963267948966, 3.141592653589793,
                                  0.7853981633974483, 1e5, -1e5, 1e300, 100.5, -0.75, 1.5, 7.0};
enum { NSPEC = sizeof specials / sizeof specials[0] };

static void run_fn(Fn *f, int f64, long n) {
  long nspec = f->e2 ? (long)NSPEC * NSPEC : NSPEC;
  long total = n + nspec;
  double *a = malloc(sizeof(double) * (size_t)total), *bb = malloc(sizeof(double) * (size_t)total);
  void *ia = malloc((f64 ? 8 : 4) * (size_t)total), *ib = malloc((f64 ? 8 : 4) * (size_t)total);
  void *out = malloc((f64 ? 8 : 4) * (size_t)total);
  for (long i = 0; i < total; i++) {
    if (i < nspec) {
      a[i] = f->e2 ? specials[i / NSPEC] : specials[i];
      bb[i] = f->e2 ? specials[i % NSPEC] : 0;
    } else {
      a[i] = sample(i, f64 ? f->lo64 : f->lo32, f64 ? f->hi64 : f->hi32, f64);
      bb[i] = f->e2 ? sample(i / 2, f->ylo, f->yhi, f64) : 0;
    }
    if (!f64) { /* the float inputs are what gets tested */
      a[i] = (float)a[i];
      bb[i] = (float)bb[i];
      ((float *)ia)[i] = (float)a[i];
      ((float *)ib)[i] = (float)bb[i];
    } else {
      ((double *)ia)[i] = a[i];
      ((double *)ib)[i] = bb[i];
    }
  }
  if (f64)
    ((Kernel64)f->fn64)(ia, ib, out, total);
  else
    ((Kernel32)f->fn32)(ia, ib, out, total);
  double worst = 0, wx = 0, wy = 0;
  int special_fail = 0;
  for (long i = 0; i < total; i++) {
    long double ref = f->e2 ? f->r2(a[i], bb[i]) : f->r1(a[i]);
    double got = f64 ? ((double *)out)[i] : ((float *)out)[i];
    /* sin/cos/tan return NaN past their supported range (docs/math.md) */
    if (f->name[0] != 'a' && (strstr(f->name, "sin") || strstr(f->name, "cos") || strstr(f->name, "tan")) &&
        !strstr(f->name, "tanh") && fabs(a[i]) > (f64 ? 0x1p50 : 0x1p24))
      ref = NAN;
    double e = ulp_err(ref, got, f64);
    /* specials: exact on zero/inf/NaN outcomes, within the bound otherwise */
    if (i < nspec && e > (f64 ? f->bound64 : f->bound32)) {
      if (special_fail++ < 5)
        fprintf(stderr, "  %s_%s(%.17g%s%.17g) = %.17g, expected %.17Lg\n", f->name, f64 ? "f64" : "f32", a[i],
                f->e2 ? ", " : "", f->e2 ? bb[i] : 0.0, got, ref);
      continue;
    }
    if (e > worst) {
      worst = e;
      wx = a[i];
      wy = bb[i];
    }
  }
  CHECK(special_fail == 0);
  if (f64) {
    f->max64 = worst;
    f->at64 = wx;
    f->aty64 = wy;
  } else {
    f->max32 = worst;
    f->at32 = wx;
    f->aty32 = wy;
  }
  free(a);
  free(bb);
  free(ia);
  free(ib);
  free(out);
}

/* ---- f16 / bf16: every bit pattern through the f32 kernels ---- */

typedef struct {
  int mbits, ebits; /* stored mantissa and exponent bits */
} Narrow;

static const Narrow NARROW_F16 = {10, 5}, NARROW_BF16 = {7, 8};

static long double narrow_value(Narrow t, unsigned bits) {
  int bias = (1 << (t.ebits - 1)) - 1;
  unsigned m = bits & ((1u << t.mbits) - 1), e = (bits >> t.mbits) & ((1u << t.ebits) - 1);
  long double v;
  if (e == (1u << t.ebits) - 1) v = m ? NAN : INFINITY;
  else if (e == 0) v = ldexpl((long double)m, 1 - bias - t.mbits);
  else v = ldexpl((long double)(m | (1u << t.mbits)), (int)e - bias - t.mbits);
  return (bits >> (t.mbits + t.ebits)) & 1 ? -v : v;
}

/* v rounded to nearest even in type t, as a bit pattern (NaN: a quiet NaN) */
static unsigned narrow_round(Narrow t, long double v) {
  unsigned sign = signbit(v) ? 1u << (t.mbits + t.ebits) : 0;
  int bias = (1 << (t.ebits - 1)) - 1, emax = bias;
  unsigned inf = ((1u << t.ebits) - 1) << t.mbits;
  if (isnan(v)) return inf | (1u << (t.mbits - 1));
  long double a = fabsl(v);
  if (isinf(a)) return sign | inf;
  if (a == 0) return sign;
  int e;
  frexpl(a, &e); /* a in [2^(e-1), 2^e) */
  int q = e - 1 < 1 - bias ? 1 - bias - t.mbits : e - 1 - t.mbits; /* exponent of the ulp */
  long double r = rintl(ldexpl(a, -q)); /* rintl rounds to nearest even */
  long double back = ldexpl(r, q);
  if (back >= ldexpl(2.0L, emax)) return sign | inf;
  /* re-encode: the value is a multiple of 2^q */
  if (back < ldexpl(1.0L, 1 - bias)) return sign | (unsigned)ldexpl(back, bias - 1 + t.mbits);
  frexpl(back, &e);
  unsigned be = (unsigned)(e - 1 + bias);
  unsigned m = (unsigned)(ldexpl(back, t.mbits - (e - 1)) - ldexpl(1.0L, t.mbits));
  return sign | (be << t.mbits) | m;
}

/* position of a bit pattern on the number line (adjacent values differ by 1) */
static long narrow_order(Narrow t, unsigned bits) {
  unsigned sign = 1u << (t.mbits + t.ebits);
  return bits & sign ? -(long)(bits & (sign - 1)) : (long)bits;
}

static int narrow_nan(Narrow t, unsigned bits) {
  unsigned mag = bits & ((1u << (t.mbits + t.ebits)) - 1);
  return mag > (((1u << t.ebits) - 1) << t.mbits);
}

/* Max distance (in narrow values) from the correctly rounded result over
   every pattern (each paired with a scrambled one for pow and atan2). */
static double narrow_sweep(const Fn *f, Narrow t, double *at) {
  enum { N = 65536 };
  float *a = malloc(sizeof(float) * N), *bb = malloc(sizeof(float) * N), *out = malloc(sizeof(float) * N);
  for (unsigned i = 0; i < N; i++) {
    a[i] = (float)narrow_value(t, i);
    bb[i] = (float)narrow_value(t, (i * 0x9E37u + 0x3C00u) & 0xFFFFu);
  }
  ((Kernel32)f->fn32)(a, bb, out, N);
  int trig = f->name[0] != 'a' && !strstr(f->name, "tanh") &&
              (strstr(f->name, "sin") || strstr(f->name, "cos") || strstr(f->name, "tan"));
  double worst = 0;
  for (unsigned i = 0; i < N; i++) {
    if (trig && fabsf(a[i]) > 0x1p24f) continue; /* the compiler reduces bf16 in double */
    long double ref = f->e2 ? f->r2(a[i], bb[i]) : f->r1(a[i]);
    unsigned want = narrow_round(t, ref), got = narrow_round(t, out[i]);
    double d;
    if (narrow_nan(t, want) || narrow_nan(t, got)) d = narrow_nan(t, want) == narrow_nan(t, got) ? 0 : 1e30;
    else d = labs(narrow_order(t, want) - narrow_order(t, got));
    if (d > worst) {
      worst = d;
      *at = a[i];
    }
  }
  free(a);
  free(bb);
  free(out);
  return worst;
}

static void bench(void) {
  long n = 16L << 20;
  float *in = malloc(sizeof(float) * (size_t)n), *out = malloc(sizeof(float) * (size_t)n);
  double *din = malloc(sizeof(double) * (size_t)n), *dout = malloc(sizeof(double) * (size_t)n);
  const char *names[] = {"exp", "log", "sin", "tanh", "erf", "pow"};
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
    Fn *f = NULL;
    for (int i = 0; i < NFN; i++)
      if (!strcmp(fns[i].name, names[k])) f = &fns[i];
    for (long i = 0; i < n; i++) {
      in[i] = (float)unif(f->e2 ? 0.5 : -20, 20);
      din[i] = in[i];
    }
    double best32 = 1e9, best64 = 1e9;
    for (int rep = 0; rep < 3; rep++) {
      double t0 = now();
      ((Kernel32)f->fn32)(in, in, out, n);
      double t1 = now();
      ((Kernel64)f->fn64)(din, din, dout, n);
      double t2 = now();
      if (t1 - t0 < best32) best32 = t1 - t0;
      if (t2 - t1 < best64) best64 = t2 - t1;
    }
    printf("bench %-6s 16M elements: f32 %.3f ns/elem (%.1f GB/s), f64 %.3f ns/elem (%.1f GB/s)\n", names[k],
           best32 * 1e9 / (double)n, 8.0 * (double)n / best32 * 1e-9, best64 * 1e9 / (double)n,
           16.0 * (double)n / best64 * 1e-9);
  }
  free(in);
  free(out);
  free(din);
  free(dout);
}

int main(int argc, char **argv) {
  int full = 0, do_bench = 0, dump = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--full")) full = 1;
    if (!strcmp(argv[i], "--bench")) do_bench = 1;
    if (!strcmp(argv[i], "--dump-ir")) dump = 1;
    if (!strcmp(argv[i], "--no-avx512")) no_avx512 = 1;
  }
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  LLVMOrcLLJITRef j = jit_all(dump);
  CHECK(j != NULL);
  if (!j) TEST_SUMMARY();
  long n = full ? 10000000 : 200000;
  printf("%-9s %12s %10s  %-28s %10s  %s\n", "function", "f32 max ulp", "(bound)", "at", "f64 max ulp", "at");
  for (int i = 0; i < NFN; i++) {
    Fn *f = &fns[i];
    run_fn(f, 0, n);
    if (f->bound64 >= 0) run_fn(f, 1, f->e2 ? n / 4 : n / 2); /* long double references are slow */
    char at32[64], at64[64];
    if (f->e2) {
      snprintf(at32, sizeof at32, "(%.6g, %.6g)", f->at32, f->aty32);
      snprintf(at64, sizeof at64, "(%.6g, %.6g)", f->at64, f->aty64);
    } else {
      snprintf(at32, sizeof at32, "%.9g", f->at32);
      snprintf(at64, sizeof at64, "%.17g", f->at64);
    }
    printf("%-9s %12.3f %10.1f  %-28s %10.3f  %s\n", f->name, f->max32, f->bound32, at32, f->max64, at64);
    CHECK(f->max32 <= f->bound32);
    CHECK(f->bound64 < 0 || f->max64 <= f->bound64);
  }
  printf("\n%-9s %12s  %-14s %12s  %s\n", "function", "f16 max ulp", "at", "bf16 max ulp", "at");
  for (int i = 0; i < NFN; i++) {
    Fn *f = &fns[i];
    double ah = 0, ab = 0;
    double eh = narrow_sweep(f, NARROW_F16, &ah), eb = narrow_sweep(f, NARROW_BF16, &ab);
    printf("%-9s %12.0f  %-14.6g %12.0f  %.6g\n", f->name, eh, ah, eb, ab);
    CHECK(eh <= 1);
    CHECK(eb <= 1);
  }
  if (do_bench) bench();
  LLVMOrcDisposeLLJIT(j);
  TEST_SUMMARY();
}
