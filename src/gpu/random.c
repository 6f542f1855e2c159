/*
 * random.c - random numbers, device ids and tokens on the GPU, equal to
 * the interpreter's and the CPU backend's bit for bit.
 *
 * The numbers are the ones runtime/random.c defines (its header comment
 * says how state, counters and blocks map to elements); here its
 * generators are emitted as LLVM IR, integer arithmetic only, so any
 * device computes the same bits:
 *
 *  - rng_bit_generator: one thread per generator block, in a grid-stride
 *    loop.  Block j encrypts the counter plus j (64-bit arithmetic, with
 *    Philox's carry into the high word) with Threefry-2x32 (20 rounds) or
 *    Philox-4x32 (10 rounds) under the key state[0], and stores its words
 *    where the runtime puts them: Philox's four 32-bit words (or two
 *    64-bit ones) to consecutive elements, Threefry's 64-bit block to one
 *    element, or its two words to neighbours along the paired dimension
 *    (block (o, h, i) of [outer, ceil(rows / 2), inner] gives x0 to
 *    element (o, 2h, i) and x1 to (o, 2h + 1, i) when that row exists).
 *    8- and 16-bit outputs take the low bits of 32-bit words; float
 *    outputs the raw bits.  The first thread of the grid writes the
 *    output state (the key, then the counter advanced by the block
 *    count); buffer assignment never gives it the input state's storage,
 *    which every thread reads.
 *  - rng: every element depends on its index alone (Philox under a key
 *    derived at compile time from the op's location, as the CPU backend
 *    derives it), so one thread per element.  UNIFORM integers and floats
 *    (f16, bf16, f32, f64) take the runtime's arithmetic in the same
 *    order, rounded once to the element type (f16 and bf16 by the bits, as
 *    the runtime rounds), redrawn while rounding reaches b: bit-identical.
 *    NORMAL's Box-Muller transform takes log and cos from math_approx.c
 *    (no libm on the device) and the correctly rounded square root: its
 *    results differ from the interpreter's (libm) by a few ULP of double,
 *    so by at most one ULP after rounding to f32.
 *  - replica_id and partition_id: one thread stores the id the execution
 *    passes as the kernel's integer (the process's in a grid of replicas
 *    x partitions, gpu.c; 0 outside one).
 *  - create_token and after_all: tokens carry no data and have no
 *    storage; nothing to do.
 *  (JAX's rbg keys go through a bitcast_convert between widths on their
 *  way to rng_bit_generator: an index-mapping op of the elemental
 *  generator, codegen/elemental.c, like on the CPU.)
 *
 * Variants the CPU backend leaves to the interpreter (other algorithms,
 * state sizes, element types) are errors at the op.
 */
#include <string.h>

#include "codegen/math_approx.h"
#include "gpu/kernels.h"
#include "xlacrt.h"

static LLVMValueRef c32(Cg *cg, uint32_t v) { return LLVMConstInt(cg->t_i32, v, 0); }
static LLVMValueRef c64(Cg *cg, uint64_t v) { return LLVMConstInt(cg->t_i64, v, 0); }
static LLVMValueRef lo32(Cg *cg, LLVMValueRef x) { return LLVMBuildTrunc(cg->b, x, cg->t_i32, ""); }
static LLVMValueRef hi32(Cg *cg, LLVMValueRef x) { return lo32(cg, LLVMBuildLShr(cg->b, x, c64(cg, 32), "")); }
/* lo | hi << 32 */
static LLVMValueRef join64(Cg *cg, LLVMValueRef lo, LLVMValueRef hi) {
  LLVMValueRef h = LLVMBuildShl(cg->b, LLVMBuildZExt(cg->b, hi, cg->t_i64, ""), c64(cg, 32), "");
  return LLVMBuildOr(cg->b, LLVMBuildZExt(cg->b, lo, cg->t_i64, ""), h, "");
}

/* The high 32 bits of the 64-bit product of two u32: mul.hi.u32.  (A
   64-bit multiplication of zero-extended words becomes, after LLVM's
   combiner, 64-bit masks, xors and products: slower, and with 64-bit
   immediates GPGPU-Sim misreads.  The SIMT harness lowers the
   intrinsic.) */
static LLVMValueRef mulhi32(Cg *cg, LLVMValueRef a, LLVMValueRef b) {
  LLVMValueRef args[2] = {a, b};
  return cg_intrinsic(cg, "llvm.nvvm.mulhi.ui", NULL, args, 2);
}

/* Philox-4x32, 10 rounds: x[0..4) encrypted under the key (k0, k1). */
static void philox(Cg *cg, LLVMValueRef k0, LLVMValueRef k1, LLVMValueRef *x) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef m0 = c32(cg, 0xD2511F53u), m1 = c32(cg, 0xCD9E8D57u);
  for (int round = 0; round < 10; round++) {
    LLVMValueRef y0 = LLVMBuildXor(b, LLVMBuildXor(b, mulhi32(cg, x[2], m1), x[1], ""), k0, "");
    LLVMValueRef y2 = LLVMBuildXor(b, LLVMBuildXor(b, mulhi32(cg, x[0], m0), x[3], ""), k1, "");
    LLVMValueRef l1 = LLVMBuildMul(b, x[2], m1, ""), l3 = LLVMBuildMul(b, x[0], m0, "");
    x[0] = y0;
    x[1] = l1;
    x[2] = y2;
    x[3] = l3;
    k0 = LLVMBuildAdd(b, k0, c32(cg, 0x9E3779B9u), "");
    k1 = LLVMBuildAdd(b, k1, c32(cg, 0xBB67AE85u), "");
  }
}

static LLVMValueRef rotl32(Cg *cg, LLVMValueRef x, int r) {
  LLVMValueRef args[3] = {x, x, c32(cg, (uint32_t)r)};
  return cg_intrinsic(cg, "llvm.fshl", cg->t_i32, args, 3);
}

/* Threefry-2x32, 20 rounds: x[0..2) encrypted under the key (k0, k1). */
static void threefry(Cg *cg, LLVMValueRef k0, LLVMValueRef k1, LLVMValueRef *x) {
  static const int rot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  LLVMBuilderRef b = cg->b;
  LLVMValueRef ks[3] = {k0, k1, LLVMBuildXor(b, LLVMBuildXor(b, k0, k1, ""), c32(cg, 0x1BD11BDAu), "")};
  LLVMValueRef x0 = LLVMBuildAdd(b, x[0], ks[0], ""), x1 = LLVMBuildAdd(b, x[1], ks[1], "");
  for (int g = 0; g < 5; g++) {
    for (int i = 0; i < 4; i++) {
      x0 = LLVMBuildAdd(b, x0, x1, "");
      x1 = LLVMBuildXor(b, rotl32(cg, x1, rot[(g % 2) * 4 + i]), x0, "");
    }
    x0 = LLVMBuildAdd(b, x0, ks[(g + 1) % 3], "");
    x1 = LLVMBuildAdd(b, x1, LLVMBuildAdd(b, ks[(g + 2) % 3], c32(cg, (uint32_t)(g + 1)), ""), "");
  }
  x[0] = x0;
  x[1] = x1;
}

/* Stores the low `bytes` bytes of the integer w as element i of base. */
static void store_word(Cg *cg, int bytes, LLVMValueRef base, LLVMValueRef i, LLVMValueRef w) {
  unsigned bits = (unsigned)(8 * bytes), have = LLVMGetIntTypeWidth(LLVMTypeOf(w));
  LLVMTypeRef t = LLVMIntTypeInContext(cg->ctx, bits);
  if (have > bits) w = LLVMBuildTrunc(cg->b, w, t, "");
  if (have < bits) w = LLVMBuildZExt(cg->b, w, t, "");
  LLVMBuildStore(cg->b, w, LLVMBuildGEP2(cg->b, t, base, &i, 1, ""));
}

/* Stores the 64-bit element i of base as its two 32-bit words lo, hi
   (one vector store; joining them into an i64 first makes LLVM mask with
   64-bit immediates, which GPGPU-Sim misreads). */
static void store_pair(Cg *cg, LLVMValueRef base, LLVMValueRef i, LLVMValueRef lo, LLVMValueRef hi) {
  LLVMTypeRef vt = LLVMVectorType(cg->t_i32, 2);
  LLVMValueRef v = LLVMGetUndef(vt);
  v = LLVMBuildInsertElement(cg->b, v, lo, c32(cg, 0), "");
  v = LLVMBuildInsertElement(cg->b, v, hi, c32(cg, 1), "");
  LLVMBuildStore(cg->b, v, LLVMBuildGEP2(cg->b, vt, base, &i, 1, ""));
}

/* Whether this is the first thread of the grid. */
static LLVMValueRef first_thread(Cg *cg) {
  LLVMValueRef tid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.tid.x");
  LLVMValueRef ctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.ctaid.x");
  return LLVMBuildICmp(cg->b, LLVMIntEQ, LLVMBuildOr(cg->b, tid, ctaid, ""), c64(cg, 0), "");
}

/* ---- rng_bit_generator ---- */

typedef struct BitsPlan {
  bool philox;
  int nstate, eb; /* state words; output element bytes */
  int64_t n, nblocks;
  int64_t outer, rows, inner; /* Threefry, 32 bits or fewer: the paired dimension */
} BitsPlan;

/* The runtime's plan for the output type ot (xlacrt_rng_bit_generator). */
static void bits_plan(BitsPlan *p, const Type *ot) {
  p->n = type_num_elements(ot);
  p->outer = p->rows = p->inner = 1;
  if (p->philox) {
    p->nblocks = p->eb == 8 ? (p->n + 1) / 2 : (p->n + 3) / 4;
    return;
  }
  if (p->eb == 8) {
    p->nblocks = p->n;
    return;
  }
  int split = -1;
  for (int d = 0; d < ot->rank && split < 0; d++)
    if (ot->dims[d] % 2 == 0) split = d;
  if (split < 0)
    for (int d = 0; d < ot->rank; d++)
      if (split < 0 || ot->dims[d] > ot->dims[split]) split = d;
  for (int d = 0; d < ot->rank; d++) {
    if (d < split) p->outer *= ot->dims[d];
    else if (d == split) p->rows = ot->dims[d];
    else p->inner *= ot->dims[d];
  }
  p->nblocks = p->outer * ((p->rows + 1) / 2) * p->inner;
}

/* Buffers: the state, the output state, the output. */
static LLVMValueRef emit_bits(GpuLower *G, const BitsPlan *p) {
  Cg *cg = &G->cg;
  LLVMBuilderRef b = cg->b;
  LLVMValueRef ptrs[3], cnt;
  LLVMValueRef fn = gpu_kernel_new(G, 3, ptrs, &cnt);
  LLVMValueRef st[3];
  for (int k = 0; k < p->nstate; k++) {
    LLVMValueRef i = c64(cg, (uint64_t)k);
    st[k] = LLVMBuildLoad2(b, cg->t_i64, LLVMBuildGEP2(b, cg->t_i64, ptrs[0], &i, 1, ""), "state");
  }
  LLVMValueRef key = st[0], lo = st[1];
  /* a 2-word Philox state counts in (state[1], state[0]) */
  LLVMValueRef hi = p->nstate > 2 ? st[2] : st[0];
  LLVMValueRef k0 = lo32(cg, key), k1 = hi32(cg, key);

  /* the output state, by the first thread */
  LLVMBasicBlockRef rest = gpu_if_begin(cg, first_thread(cg));
  LLVMValueRef nlo = LLVMBuildAdd(b, lo, c64(cg, (uint64_t)p->nblocks), "");
  store_word(cg, 8, ptrs[1], c64(cg, 0), key);
  store_word(cg, 8, ptrs[1], c64(cg, 1), nlo);
  if (p->nstate > 2) {
    LLVMValueRef carry = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntULT, nlo, lo, ""), cg->t_i64, "");
    store_word(cg, 8, ptrs[1], c64(cg, 2), LLVMBuildAdd(b, hi, carry, ""));
  }
  gpu_if_end(cg, rest);

  LLVMValueRef step, *out = &ptrs[2], n = c64(cg, (uint64_t)p->n);
  Loop l = gpu_thread_loop(cg, cnt, &step, "blk");
  LLVMValueRef j = l.iv;
  LLVMValueRef x[4];
  if (p->philox) {
    LLVMValueRef clo = LLVMBuildAdd(b, lo, j, "");
    LLVMValueRef carry = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntULT, clo, lo, ""), cg->t_i64, "");
    LLVMValueRef chi = LLVMBuildAdd(b, hi, carry, "");
    x[0] = lo32(cg, clo), x[1] = hi32(cg, clo), x[2] = lo32(cg, chi), x[3] = hi32(cg, chi);
    philox(cg, k0, k1, x);
    if (p->eb == 8) {
      LLVMValueRef e = LLVMBuildShl(b, j, c64(cg, 1), "");
      store_pair(cg, *out, e, x[0], x[1]);
      LLVMValueRef e1 = LLVMBuildAdd(b, e, c64(cg, 1), "");
      LLVMBasicBlockRef next = gpu_if_begin(cg, LLVMBuildICmp(b, LLVMIntSLT, e1, n, ""));
      store_pair(cg, *out, e1, x[2], x[3]);
      gpu_if_end(cg, next);
    } else {
      LLVMValueRef e = LLVMBuildShl(b, j, c64(cg, 2), "");
      store_word(cg, p->eb, *out, e, x[0]);
      for (int q = 1; q < 4; q++) {
        LLVMValueRef eq = LLVMBuildAdd(b, e, c64(cg, (uint64_t)q), "");
        LLVMBasicBlockRef next = gpu_if_begin(cg, LLVMBuildICmp(b, LLVMIntSLT, eq, n, ""));
        store_word(cg, p->eb, *out, eq, x[q]);
        gpu_if_end(cg, next);
      }
    }
  } else {
    LLVMValueRef c = LLVMBuildAdd(b, lo, j, "");
    x[0] = lo32(cg, c), x[1] = hi32(cg, c);
    threefry(cg, k0, k1, x);
    if (p->eb == 8) {
      store_pair(cg, *out, j, x[0], x[1]);
    } else {
      int64_t dims[3] = {p->outer, (p->rows + 1) / 2, p->inner};
      LLVMValueRef ohi[3];
      gpu_delinearize(cg, j, dims, 3, ohi);
      LLVMValueRef r2 = LLVMBuildShl(b, ohi[1], c64(cg, 1), "");
      LLVMValueRef row = LLVMBuildAdd(b, LLVMBuildMul(b, ohi[0], c64(cg, (uint64_t)p->rows), ""), r2, "");
      LLVMValueRef e = LLVMBuildAdd(b, LLVMBuildMul(b, row, c64(cg, (uint64_t)p->inner), ""), ohi[2], "");
      store_word(cg, p->eb, *out, e, x[0]);
      LLVMValueRef r21 = LLVMBuildAdd(b, r2, c64(cg, 1), "");
      LLVMBasicBlockRef next = gpu_if_begin(cg, LLVMBuildICmp(b, LLVMIntSLT, r21, c64(cg, (uint64_t)p->rows), ""));
      store_word(cg, p->eb, *out, LLVMBuildAdd(b, e, c64(cg, (uint64_t)p->inner), ""), x[1]);
      gpu_if_end(cg, next);
    }
  }
  gpu_loop_end(cg, &l, step);
  LLVMBuildRetVoid(b);
  return fn;
}

static void lower_bits(GpuLower *G, Op *op) {
  if (op->nopnds != 1 || op->nres != 2) {
    gpu_unsupported(G, op, "");
    return;
  }
  const Type *st = op->opnds[0]->type, *ot = op->res[1].type;
  const char *alg = op_attr_str(op, "rng_algorithm");
  BitsPlan p;
  memset(&p, 0, sizeof p);
  /* DEFAULT is Philox, as in the interpreter */
  p.philox = !alg || !strcmp(alg, "DEFAULT") || !strcmp(alg, "PHILOX");
  if (!p.philox && strcmp(alg, "THREE_FRY")) {
    gpu_unsupported(G, op, "an unknown algorithm; ");
    return;
  }
  if (st->kind != TY_TENSOR || st->quant || st->rank != 1 || st->elem != ET_U64 || !type_equal(op->res[0].type, st) ||
      (p.philox ? st->dims[0] != 2 && st->dims[0] != 3 : st->dims[0] != 2)) {
    gpu_unsupported(G, op, "a state that is not 2 (or for Philox 3) ui64 words; ");
    return;
  }
  p.nstate = (int)st->dims[0];
  int bits = ot->kind == TY_TENSOR ? et_bits(ot->elem) : 0;
  p.eb = bits ? et_bytes(ot->elem) : 0;
  if (ot->kind != TY_TENSOR || ot->quant || et_is_pred(ot->elem) || et_is_complex(ot->elem) || bits < 8 || bits > 64 ||
      bits != 8 * p.eb) {
    gpu_unsupported(G, op, "an output of this element type; ");
    return;
  }
  bits_plan(&p, ot);
  GpuBuf *bufs = xcalloc(4, sizeof(GpuBuf));
  bool ok = gpu_value_buf(G, op->opnds[0], &bufs[0]) && gpu_value_buf(G, &op->res[0], &bufs[1]);
  /* an empty output is never written */
  if (ok) ok = p.n == 0 ? (bufs[2] = bufs[1], true) : gpu_value_buf(G, &op->res[1], &bufs[2]);
  if (!ok) {
    xfree(bufs);
    gpu_unsupported(G, op, "a value without device storage; ");
    return;
  }
  LLVMValueRef fn = emit_bits(G, &p);
  /* at least one block: its first thread writes the output state */
  int64_t units = (p.nblocks + GPU_LOOP_THREADS - 1) / GPU_LOOP_THREADS;
  gpu_add_launch(G, op, fn, p.nblocks, units > 0 ? units : 1, GPU_LOOP_THREADS, bufs, 3);
}

/* ---- rng ---- */

enum { RNG_REDRAWS = 65 };

/* The low 64 bits of Philox block 0 of the counter (i, attempt) under the
   op's key: the runtime's draw. */
static LLVMValueRef draw(Cg *cg, uint64_t key, LLVMValueRef i, LLVMValueRef attempt) {
  LLVMValueRef x[4] = {lo32(cg, i), hi32(cg, i), lo32(cg, attempt), hi32(cg, attempt)};
  philox(cg, c32(cg, (uint32_t)key), c32(cg, (uint32_t)(key >> 32)), x);
  return join64(cg, x[0], x[1]);
}

/* A uniform double in [0, 1) from the top 53 bits. */
static LLVMValueRef unit(Cg *cg, LLVMValueRef bits) {
  LLVMValueRef m = LLVMBuildUIToFP(cg->b, LLVMBuildLShr(cg->b, bits, c64(cg, 11), ""), cg->t_f64, "");
  return LLVMBuildFMul(cg->b, m, LLVMConstReal(cg->t_f64, 0x1p-53), "");
}

/* The double v rounded to nearest even in an IEEE format of `ebits`
   exponent and `mbits` fraction bits (f16, bf16), as i16 bits: overflow
   gives inf, NaN the quiet NaN with a clear sign (the runtime's
   narrow_bits, step by step). */
static LLVMValueRef narrow_bits(Cg *cg, LLVMValueRef v, int ebits, int mbits) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef bits = LLVMBuildBitCast(b, v, cg->t_i64, "");
  int bias = (1 << (ebits - 1)) - 1;
  uint32_t inf = ((1u << ebits) - 1) << mbits;
  LLVMValueRef sign = lo32(cg, LLVMBuildLShr(b, bits, c64(cg, 63), ""));
  sign = LLVMBuildShl(b, sign, c32(cg, (uint32_t)(ebits + mbits)), "");
  LLVMValueRef dexp = LLVMBuildAnd(b, lo32(cg, LLVMBuildLShr(b, bits, c64(cg, 52), "")), c32(cg, 0x7ff), "");
  LLVMValueRef e = LLVMBuildSub(b, dexp, c32(cg, 1023), "");
  LLVMValueRef sig = LLVMBuildOr(b, LLVMBuildAnd(b, bits, c64(cg, (1ull << 52) - 1), ""), c64(cg, 1ull << 52), "");
  LLVMValueRef sub = LLVMBuildICmp(b, LLVMIntSLT, e, c32(cg, (uint32_t)(1 - bias)), "");
  LLVMValueRef extra = LLVMBuildSelect(b, sub, LLVMBuildSub(b, c32(cg, (uint32_t)(1 - bias)), e, ""), c32(cg, 0), "");
  LLVMValueRef shift = LLVMBuildAdd(b, c32(cg, (uint32_t)(52 - mbits)), extra, "");
  LLVMValueRef tiny = LLVMBuildICmp(b, LLVMIntSGT, shift, c32(cg, 53), "");
  /* shift <= 53 where used; clamped so that no shift is out of range */
  LLVMValueRef sh = LLVMBuildZExt(b, LLVMBuildSelect(b, tiny, c32(cg, 53), shift, ""), cg->t_i64, "");
  LLVMValueRef q = LLVMBuildLShr(b, sig, sh, "");
  LLVMValueRef restv = LLVMBuildAnd(b, sig, LLVMBuildSub(b, LLVMBuildShl(b, c64(cg, 1), sh, ""), c64(cg, 1), ""), "");
  LLVMValueRef halfway = LLVMBuildShl(b, c64(cg, 1), LLVMBuildSub(b, sh, c64(cg, 1), ""), "");
  LLVMValueRef up = LLVMBuildOr(
      b, LLVMBuildICmp(b, LLVMIntUGT, restv, halfway, ""),
      LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, restv, halfway, ""), LLVMBuildTrunc(b, q, cg->t_i1, ""), ""), "");
  LLVMValueRef q32 = LLVMBuildAdd(b, lo32(cg, q), LLVMBuildZExt(b, up, cg->t_i32, ""), "");
  /* a carry out of the fraction moves into the exponent by itself */
  LLVMValueRef biased = LLVMBuildShl(b, LLVMBuildAdd(b, e, c32(cg, (uint32_t)bias), ""), c32(cg, (uint32_t)mbits), "");
  LLVMValueRef normal = LLVMBuildSub(b, LLVMBuildAdd(b, biased, q32, ""), c32(cg, 1u << mbits), "");
  LLVMValueRef mag = LLVMBuildSelect(b, sub, q32, normal, "");
  mag = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, mag, c32(cg, inf), ""), c32(cg, inf), mag, "");
  mag = LLVMBuildSelect(b, tiny, c32(cg, 0), mag, "");
  mag = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, e, c32(cg, (uint32_t)bias), ""), c32(cg, inf), mag, "");
  mag = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, dexp, c32(cg, 0), ""), c32(cg, 0), mag, "");
  mag = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, dexp, c32(cg, 0x7ff), ""), c32(cg, inf), mag, "");
  LLVMValueRef r = LLVMBuildOr(b, sign, mag, "");
  LLVMValueRef isnan = LLVMBuildFCmp(b, LLVMRealUNO, v, v, "");
  r = LLVMBuildSelect(b, isnan, c32(cg, inf | (1u << (mbits - 1))), r, "");
  return LLVMBuildTrunc(b, r, cg->t_i16, "");
}

/* v rounded to the element type: its storage bits (*store, the value to
   store) and its value as a double. */
static LLVMValueRef round_float(Cg *cg, ElemType et, LLVMValueRef v, LLVMValueRef *store) {
  LLVMBuilderRef b = cg->b;
  switch (et) {
  case ET_F64: *store = v; return v;
  case ET_F32: *store = LLVMBuildFPTrunc(b, v, cg->t_f32, ""); return LLVMBuildFPExt(b, *store, cg->t_f64, "");
  case ET_F16: {
    *store = narrow_bits(cg, v, 5, 10);
    LLVMValueRef h = LLVMBuildBitCast(b, *store, cg->t_f16, "");
    return LLVMBuildFPExt(b, LLVMBuildFPExt(b, h, cg->t_f32, ""), cg->t_f64, "");
  }
  case ET_BF16: {
    *store = narrow_bits(cg, v, 8, 7);
    LLVMValueRef w = LLVMBuildShl(b, LLVMBuildZExt(b, *store, cg->t_i32, ""), c32(cg, 16), "");
    return LLVMBuildFPExt(b, LLVMBuildBitCast(b, w, cg->t_f32, ""), cg->t_f64, "");
  }
  default: /* f8/f6/f4: encoded from f32 rounded to odd, which rounds once */
    *store = cg_to_storage(cg, et, gpu_round_odd_f32(cg, v));
    return LLVMBuildFPExt(b, cg_from_storage(cg, et, *store), cg->t_f64, "");
  }
}

/* a + width * (the draw d in [0, 1)), in double */
static LLVMValueRef scale(Cg *cg, LLVMValueRef a, LLVMValueRef width, LLVMValueRef d) {
  return LLVMBuildFAdd(cg->b, a, LLVMBuildFMul(cg->b, width, unit(cg, d), ""), "");
}

/* Element i of a UNIFORM float rng: a + (b - a) * u rounded, drawn again
   with attempts 1 ... RNG_REDRAWS while it reaches b, then a. */
static LLVMValueRef uniform_float(Cg *cg, ElemType et, uint64_t key, LLVMValueRef i, LLVMValueRef fa, LLVMValueRef fb) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(b));
  LLVMValueRef width = LLVMBuildFSub(b, fb, fa, "");
  LLVMValueRef st0;
  LLVMValueRef r0 = round_float(cg, et, scale(cg, fa, width, draw(cg, key, i, c64(cg, 0))), &st0);
  LLVMBasicBlockRef entry = LLVMGetInsertBlock(b);
  LLVMBasicBlockRef redraw = LLVMAppendBasicBlockInContext(cg->ctx, fn, "redraw");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(cg->ctx, fn, "drawn");
  LLVMBuildCondBr(b, LLVMBuildFCmp(b, LLVMRealOGE, r0, fb, ""), redraw, done);
  /* for (attempt = 1; ; attempt++) */
  LLVMPositionBuilderAtEnd(b, redraw);
  LLVMValueRef att = LLVMBuildPhi(b, cg->t_i64, "attempt");
  LLVMValueRef one = c64(cg, 1);
  LLVMAddIncoming(att, &one, &entry, 1);
  LLVMValueRef st;
  LLVMValueRef r = round_float(cg, et, scale(cg, fa, width, draw(cg, key, i, att)), &st);
  LLVMBasicBlockRef body_end = LLVMGetInsertBlock(b);
  LLVMBasicBlockRef again = LLVMAppendBasicBlockInContext(cg->ctx, fn, "again");
  LLVMBasicBlockRef gave_up = LLVMAppendBasicBlockInContext(cg->ctx, fn, "gave_up");
  LLVMBuildCondBr(b, LLVMBuildFCmp(b, LLVMRealOGE, r, fb, ""), again, done);
  LLVMPositionBuilderAtEnd(b, again);
  LLVMValueRef next = LLVMBuildAdd(b, att, one, "");
  LLVMAddIncoming(att, &next, &again, 1);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULE, next, c64(cg, RNG_REDRAWS), ""), redraw, gave_up);
  /* a is exact in the element type */
  LLVMPositionBuilderAtEnd(b, gave_up);
  LLVMValueRef sta;
  round_float(cg, et, fa, &sta);
  LLVMBuildBr(b, done);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMValueRef phi = LLVMBuildPhi(b, LLVMTypeOf(st0), "u");
  LLVMValueRef vals[3] = {st0, st, sta};
  LLVMBasicBlockRef from[3] = {entry, body_end, gave_up};
  LLVMAddIncoming(phi, vals, from, 3);
  return phi;
}

/* Element i of a NORMAL rng: a + b * z, z from draws 2i and 2i + 1 by
   Box-Muller, rounded to the element type. */
static LLVMValueRef normal_float(Cg *cg, ElemType et, uint64_t key, LLVMValueRef i, LLVMValueRef fa, LLVMValueRef fb) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef i2 = LLVMBuildShl(b, i, c64(cg, 1), "");
  LLVMValueRef d0 = draw(cg, key, i2, c64(cg, 0));
  LLVMValueRef d1 = draw(cg, key, LLVMBuildOr(b, i2, c64(cg, 1), ""), c64(cg, 0));
  LLVMValueRef u1 = LLVMBuildFSub(b, LLVMConstReal(cg->t_f64, 1.0), unit(cg, d0), "");
  LLVMValueRef u2 = unit(cg, d1);
  LLVMValueRef lg = emit_log(b, cg->mod, u1);
  LLVMValueRef rad = LLVMBuildFMul(b, LLVMConstReal(cg->t_f64, -2.0), lg, "");
  LLVMValueRef mag = cg_intrinsic(cg, "llvm.sqrt", cg->t_f64, &rad, 1);
  LLVMValueRef ang = LLVMBuildFMul(b, LLVMConstReal(cg->t_f64, 2.0 * 3.14159265358979323846), u2, "");
  LLVMValueRef z = LLVMBuildFMul(b, mag, emit_cos(b, cg->mod, ang), "");
  LLVMValueRef st;
  round_float(cg, et, LLVMBuildFAdd(b, fa, LLVMBuildFMul(b, fb, z, ""), ""), &st);
  return st;
}

/* Element types the runtime generates (as the CPU backend takes them):
   pred, integers of up to 64 bits (2- and 4-bit ones in a byte), f16,
   bf16, f32, f64; and f8/f6/f4, which the interpreter generates as f64
   rounded to the type. */
static bool rng_type_ok(ElemType et) {
  if (et == ET_PRED) return true;
  if (et_is_float(et))
    return et == ET_F16 || et == ET_BF16 || et == ET_F32 || et == ET_F64 || cg_elem_narrow(et);
  if (!et_is_int(et) || et_is_complex(et)) return false;
  int bits = et_bits(et);
  return bits <= 8 || bits == 16 || bits == 32 || bits == 64;
}

/* Buffers: a, b, the result. */
static LLVMValueRef emit_rng(GpuLower *G, Op *op, bool normal, uint64_t key) {
  Cg *cg = &G->cg;
  LLVMBuilderRef b = cg->b;
  ElemType et = op->res[0].type->elem;
  int eb = et_bytes(et);
  LLVMValueRef ptrs[3], cnt;
  LLVMValueRef fn = gpu_kernel_new(G, 3, ptrs, &cnt);
  LLVMValueRef zero = c64(cg, 0);
  LLVMValueRef fa = NULL, fb = NULL, ia = NULL, span = NULL, empty = NULL;
  if (et_is_float(et)) {
    fa = cg_load(cg, et, ptrs[0], zero), fb = cg_load(cg, et, ptrs[1], zero);
    if (et != ET_F64) fa = LLVMBuildFPExt(b, fa, cg->t_f64, ""), fb = LLVMBuildFPExt(b, fb, cg->t_f64, "");
  } else {
    /* the stored integers (2- and 4-bit ones sign- or zero-extended in a
       byte), widened as the interpreter reads them */
    LLVMTypeRef it = LLVMIntTypeInContext(cg->ctx, (unsigned)(8 * eb));
    LLVMValueRef a = LLVMBuildLoad2(b, it, ptrs[0], ""), bv = LLVMBuildLoad2(b, it, ptrs[1], "");
    bool sgn = et_is_signed(et);
    ia = sgn ? LLVMBuildSExt(b, a, cg->t_i64, "") : LLVMBuildZExtOrBitCast(b, a, cg->t_i64, "");
    LLVMValueRef ib = sgn ? LLVMBuildSExt(b, bv, cg->t_i64, "") : LLVMBuildZExtOrBitCast(b, bv, cg->t_i64, "");
    if (et == ET_PRED) {
      ia = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntNE, ia, zero, ""), cg->t_i64, "");
    } else {
      empty = LLVMBuildICmp(b, sgn ? LLVMIntSGE : LLVMIntUGE, ia, ib, "");
      /* no division by zero where the span is unused */
      span = LLVMBuildSelect(b, empty, c64(cg, 1), LLVMBuildSub(b, ib, ia, ""), "");
    }
  }
  LLVMValueRef step;
  Loop l = gpu_thread_loop(cg, cnt, &step, "i");
  LLVMValueRef i = l.iv;
  if (et == ET_PRED) {
    store_word(cg, 1, ptrs[2], i, ia);
  } else if (!et_is_float(et)) {
    LLVMValueRef d = draw(cg, key, i, zero);
    LLVMValueRef v = LLVMBuildAdd(b, ia, LLVMBuildURem(b, d, span, ""), "");
    store_word(cg, eb, ptrs[2], i, LLVMBuildSelect(b, empty, ia, v, ""));
  } else {
    LLVMValueRef st = normal ? normal_float(cg, et, key, i, fa, fb) : uniform_float(cg, et, key, i, fa, fb);
    LLVMTypeRef t = LLVMTypeOf(st);
    LLVMBuildStore(b, st, LLVMBuildGEP2(b, t, ptrs[2], &i, 1, ""));
  }
  gpu_loop_end(cg, &l, step);
  LLVMBuildRetVoid(b);
  return fn;
}

static void lower_rng(GpuLower *G, Op *op) {
  if (op->nopnds != 3 || op->nres != 1 || op->res[0].type->kind != TY_TENSOR) {
    gpu_unsupported(G, op, "");
    return;
  }
  const Type *ot = op->res[0].type;
  const char *dist = op_attr_str(op, "rng_distribution");
  bool normal = dist && !strcmp(dist, "NORMAL");
  bool ok = !ot->quant && rng_type_ok(ot->elem) && (!dist || normal || !strcmp(dist, "UNIFORM")) &&
            (!normal || et_is_float(ot->elem));
  for (int k = 0; ok && k < 2; k++) {
    const Type *t = op->opnds[k]->type;
    ok = t->kind == TY_TENSOR && !t->quant && t->elem == ot->elem && type_num_elements(t) == 1;
  }
  if (!ok) {
    gpu_unsupported(G, op, "this distribution or element type; ");
    return;
  }
  int64_t n = type_num_elements(ot);
  if (n == 0) return; /* nothing to write */
  GpuBuf *bufs = xcalloc(3, sizeof(GpuBuf));
  if (!gpu_value_buf(G, op->opnds[0], &bufs[0]) || !gpu_value_buf(G, op->opnds[1], &bufs[1]) ||
      !gpu_value_buf(G, &op->res[0], &bufs[2])) {
    xfree(bufs);
    gpu_unsupported(G, op, "a value without device storage; ");
    return;
  }
  LLVMValueRef fn = emit_rng(G, op, normal, xlacrt_rng_key(op->loc.file, op->loc.off));
  gpu_add_thread_launch(G, op, fn, n, bufs, 3);
}

/* ---- replica_id, partition_id ---- */

static void lower_device_id(GpuLower *G, Op *op) {
  const Type *t = op->nres == 1 ? op->res[0].type : NULL;
  ElemType et = t && t->kind == TY_TENSOR ? t->elem : ET_INVALID;
  /* 0 is all zero bits in these types */
  bool ok = t && op->nopnds == 0 && t->kind == TY_TENSOR && !t->quant && type_num_elements(t) == 1 &&
            (et == ET_PRED || (et_is_int(et) && !et_is_complex(et)) || et == ET_F16 || et == ET_BF16 ||
             et == ET_F32 || et == ET_F64);
  if (!ok) {
    gpu_unsupported(G, op, "a result that is not one integer or float; ");
    return;
  }
  GpuBuf *bufs;
  int nbufs;
  if (!gpu_op_bufs(G, op, 0, &bufs, &nbufs)) return;
  /* the kernel's integer is the id, which the execution passes (the
     process's replica or partition; 0 outside a grid) */
  Cg *cg = &G->cg;
  LLVMValueRef ptrs[1], id;
  LLVMValueRef fn = gpu_kernel_new(G, 1, ptrs, &id);
  LLVMBasicBlockRef next = gpu_if_begin(cg, first_thread(cg));
  LLVMValueRef v;
  if (et == ET_PRED)
    v = LLVMBuildICmp(cg->b, LLVMIntNE, id, c64(cg, 0), "");
  else if (et_is_float(et))
    v = LLVMBuildUIToFP(cg->b, id, cg_compute_type(cg, et), "");
  else
    v = LLVMBuildTrunc(cg->b, id, cg_compute_type(cg, et), "");
  cg_store(cg, et, ptrs[0], c64(cg, 0), v);
  gpu_if_end(cg, next);
  LLVMBuildRetVoid(cg->b);
  if (gpu_add_launch(G, op, fn, 0, 1, 32, bufs, nbufs))
    G->launches.data[G->launches.len - 1].id = op->kind == OP_REPLICA_ID ? ID_REPLICA : ID_PARTITION;
}

bool gpu_lower_random(GpuLower *G, Op *op) {
  switch (op->kind) {
  case OP_RNG_BIT_GENERATOR: lower_bits(G, op); return true;
  case OP_RNG: lower_rng(G, op); return true;
  case OP_REPLICA_ID:
  case OP_PARTITION_ID: lower_device_id(G, op); return true;
  case OP_CREATE_TOKEN:
  case OP_AFTER_ALL:
    /* tokens have no storage: nothing to do */
    if (op->nres != 1 || op->res[0].type->kind != TY_TOKEN) gpu_unsupported(G, op, "");
    return true;
  default: return false;
  }
}
