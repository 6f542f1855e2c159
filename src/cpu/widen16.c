/*
 * widen16.c - vector half/bfloat operations the x86 backend would
 * scalarize, rewritten in float after the optimizer has run.
 *
 * Kernels compute f16 and bf16 elements in float (fpext on load, fptrunc
 * after every op), which vectorizes to whole float vectors.  The optimizer
 * then narrows whatever is exact in the small type: a compare of two
 * widened values becomes a compare of the half values, min/max, sqrt and
 * the rounding intrinsics of a widened value become the half intrinsic.
 * Without AVX512-FP16 the x86 backend has no vector instruction for those
 * and expands each one lane by lane (a 16-lane half compare is ~100
 * instructions: an extract, a convert, a ucomiss and mask shuffling per
 * lane), and for bfloat even fneg/fabs/copysign.  A single such op in a
 * loop made f16 tanh and logistic kernels ~10x slower than their float
 * versions.
 *
 * This walk undoes the narrowing where it hurts: each such vector op is
 * computed on the operands widened to float (exact) and, where the result
 * is a half/bfloat vector, converted back (exact for compares, min/max and
 * the rounding functions; sqrt rounds once more, which is still the
 * correctly rounded result because float has more than 2p + 2 bits); an
 * exact bfloat result is cut back to its top 16 bits instead, since the
 * vector conversion instruction flushes subnormals to zero.  bfloat sign
 * operations become integer bit operations.  fma is left alone:
 * computing it in float and rounding again would round twice.
 */
#include <string.h>

#include "codegen/jit.h"

enum { MAX_LANES = 64 }; /* wider vectors are left alone */

static bool is_half_or_bf16(LLVMTypeRef t) {
  LLVMTypeKind k = LLVMGetTypeKind(t);
  return k == LLVMHalfTypeKind || k == LLVMBFloatTypeKind;
}

/* The element kind (half or bfloat) of vector type t, or 0 for anything else. */
static LLVMTypeKind narrow_vector(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind || LLVMGetVectorSize(t) > MAX_LANES) return 0;
  LLVMTypeRef e = LLVMGetElementType(t);
  return is_half_or_bf16(e) ? LLVMGetTypeKind(e) : 0;
}

typedef struct {
  LLVMModuleRef m;
  LLVMContextRef ctx;
  LLVMBuilderRef b;
  bool half, bf16; /* which element types to rewrite */
} Widen;

static bool wanted(const Widen *w, LLVMTypeKind k) {
  return (k == LLVMHalfTypeKind && w->half) || (k == LLVMBFloatTypeKind && w->bf16);
}

static LLVMTypeRef float_like(const Widen *w, LLVMTypeRef vt) {
  return LLVMVectorType(LLVMFloatTypeInContext(w->ctx), LLVMGetVectorSize(vt));
}

static LLVMTypeRef int16_like(const Widen *w, LLVMTypeRef vt) {
  return LLVMVectorType(LLVMInt16TypeInContext(w->ctx), LLVMGetVectorSize(vt));
}

/* the constant c in every lane of an n-lane vector (n <= MAX_LANES) */
static LLVMValueRef splat(LLVMValueRef c, unsigned n) {
  LLVMValueRef buf[MAX_LANES];
  for (unsigned i = 0; i < n; i++) buf[i] = c;
  return LLVMConstVector(buf, n);
}

static LLVMValueRef splat16(const Widen *w, LLVMTypeRef it, unsigned v) {
  return splat(LLVMConstInt(LLVMInt16TypeInContext(w->ctx), v, 0), LLVMGetVectorSize(it));
}

/* Intrinsics computed in float (exact, or correctly rounded for sqrt). */
static const char *const float_intrinsics[] = {
    "llvm.minnum.", "llvm.maxnum.", "llvm.minimum.", "llvm.maximum.", "llvm.sqrt.",
    "llvm.floor.",  "llvm.ceil.",   "llvm.trunc.",   "llvm.round.",   "llvm.roundeven.",
    "llvm.rint.",   "llvm.nearbyint.",
};

/* bfloat sign intrinsics (half ones are already bit operations) */
static const char *const sign_intrinsics[] = {"llvm.fabs.", "llvm.copysign."};

static int prefix_index(const char *name, size_t len, const char *const *list, int n) {
  for (int i = 0; i < n; i++) {
    size_t pl = strlen(list[i]);
    if (len > pl && strncmp(name, list[i], pl) == 0) return i;
  }
  return -1;
}

static LLVMValueRef widen(const Widen *w, LLVMValueRef v) {
  return LLVMBuildFPExt(w->b, v, float_like(w, LLVMTypeOf(v)), "");
}

/* fcmp of two half/bfloat vectors -> fcmp of them widened */
static LLVMValueRef rewrite_fcmp(const Widen *w, LLVMValueRef in) {
  LLVMValueRef a = LLVMGetOperand(in, 0), c = LLVMGetOperand(in, 1);
  if (!wanted(w, narrow_vector(LLVMTypeOf(a)))) return NULL;
  return LLVMBuildFCmp(w->b, LLVMGetFCmpPredicate(in), widen(w, a), widen(w, c), "");
}

/* bfloat sign bit: fneg flips it, fabs clears it, copysign takes it from
   the second operand */
static LLVMValueRef sign_op(const Widen *w, LLVMValueRef x, LLVMValueRef from, int op) {
  LLVMTypeRef vt = LLVMTypeOf(x), it = int16_like(w, vt);
  LLVMValueRef sign = splat16(w, it, 0x8000), mag = splat16(w, it, 0x7fff);
  LLVMValueRef xi = LLVMBuildBitCast(w->b, x, it, "");
  LLVMValueRef r;
  if (op == 0) {
    r = LLVMBuildXor(w->b, xi, sign, "");
  } else if (op == 1) {
    r = LLVMBuildAnd(w->b, xi, mag, "");
  } else {
    LLVMValueRef fi = LLVMBuildBitCast(w->b, from, it, "");
    r = LLVMBuildOr(w->b, LLVMBuildAnd(w->b, xi, mag, ""), LLVMBuildAnd(w->b, fi, sign, ""), "");
  }
  return LLVMBuildBitCast(w->b, r, vt, "");
}

static LLVMValueRef rewrite_call(const Widen *w, LLVMValueRef in) {
  LLVMTypeRef rt = LLVMTypeOf(in);
  LLVMTypeKind k = narrow_vector(rt);
  if (!wanted(w, k)) return NULL;
  LLVMValueRef fn = LLVMGetCalledValue(in);
  if (!fn || !LLVMIsAFunction(fn)) return NULL;
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  unsigned nargs = (unsigned)LLVMGetNumArgOperands(in);
  int si = prefix_index(name, len, sign_intrinsics, 2);
  if (si >= 0 && k == LLVMBFloatTypeKind)
    return sign_op(w, LLVMGetOperand(in, 0), nargs > 1 ? LLVMGetOperand(in, 1) : NULL, si + 1);
  int fi = prefix_index(name, len, float_intrinsics, (int)(sizeof float_intrinsics / sizeof *float_intrinsics));
  if (fi < 0 || nargs < 1 || nargs > 2) return NULL;
  const char *base = float_intrinsics[fi];
  unsigned id = LLVMLookupIntrinsicID(base, strlen(base) - 1);
  if (!id) return NULL;
  LLVMTypeRef ft = float_like(w, rt);
  LLVMValueRef decl = LLVMGetIntrinsicDeclaration(w->m, id, &ft, 1);
  LLVMTypeRef fty = LLVMIntrinsicGetType(w->ctx, id, &ft, 1);
  LLVMValueRef args[2];
  for (unsigned i = 0; i < nargs; i++) args[i] = widen(w, LLVMGetOperand(in, i));
  LLVMValueRef r = LLVMBuildCall2(w->b, fty, decl, args, nargs, "");
  if (k == LLVMBFloatTypeKind && strcmp(base, "llvm.sqrt.") != 0) {
    /* the result is a bfloat value already: keep its top 16 bits (the
       vector conversion instruction would flush subnormals to zero) */
    unsigned n = LLVMGetVectorSize(rt);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(w->ctx);
    LLVMValueRef bits = LLVMBuildBitCast(w->b, r, LLVMVectorType(i32, n), "");
    bits = LLVMBuildLShr(w->b, bits, splat(LLVMConstInt(i32, 16, 0), n), "");
    return LLVMBuildBitCast(w->b, LLVMBuildTrunc(w->b, bits, int16_like(w, rt), ""), rt, "");
  }
  /* sqrt of a bfloat is never subnormal, so the conversion is exact-once */
  return LLVMBuildFPTrunc(w->b, r, rt, "");
}

static LLVMValueRef rewrite(const Widen *w, LLVMValueRef in) {
  switch (LLVMGetInstructionOpcode(in)) {
  case LLVMFCmp: return rewrite_fcmp(w, in);
  case LLVMCall: return rewrite_call(w, in);
  case LLVMFNeg:
    if (narrow_vector(LLVMTypeOf(in)) == LLVMBFloatTypeKind && w->bf16)
      return sign_op(w, LLVMGetOperand(in, 0), NULL, 0);
    return NULL;
  default: return NULL;
  }
}

void jit_widen_narrow_vectors(LLVMModuleRef M, LLVMTargetMachineRef tm) {
  char *triple = LLVMGetTargetMachineTriple(tm);
  bool x86 = strncmp(triple, "x86_64", 6) == 0 || (triple[0] == 'i' && strncmp(triple + 2, "86", 2) == 0);
  LLVMDisposeMessage(triple);
  if (!x86) return;
  char *feats = LLVMGetTargetMachineFeatureString(tm);
  bool fp16 = feats && strstr(feats, "+avx512fp16") != NULL;
  LLVMDisposeMessage(feats);
  Widen w = {M, LLVMGetModuleContext(M), NULL, !fp16, true};
  w.b = LLVMCreateBuilderInContext(w.ctx);
  for (LLVMValueRef f = LLVMGetFirstFunction(M); f; f = LLVMGetNextFunction(f)) {
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef in = LLVMGetFirstInstruction(bb);
      while (in) {
        LLVMValueRef next = LLVMGetNextInstruction(in);
        LLVMPositionBuilderBefore(w.b, in);
        LLVMValueRef r = rewrite(&w, in);
        if (r) {
          LLVMReplaceAllUsesWith(in, r);
          LLVMInstructionEraseFromParent(in);
        }
        in = next;
      }
    }
  }
  LLVMDisposeBuilder(w.b);
}
