/*
 * fft.c - stablehlo.fft on the GPU (FFT, IFFT, RFFT, IRFFT over the 1 to 3
 * innermost dimensions), computed as the interpreter computes it
 * (interp/fft.c), in double complex.
 *
 * The operand is widened into a double-complex copy in the scratch area
 * (one thread per element).  Each transformed dimension is then one
 * kernel of a block of threads per line along it (lines strided over the
 * grid), working in place in the copy: power-of-two lengths by the same
 * iterative radix-2 Cooley-Tukey (bit reversal, then butterflies with the
 * twiddle of each k computed as cos/sin(sign 2 pi k / len)), other
 * lengths by the same direct DFT with a twiddle table indexed by j*k mod
 * n (table and output in the line's part of the scratch); the inverse
 * divides by n.  The block's threads share each stage's independent
 * operations (swaps, butterflies, outputs), a barrier after each stage.
 * A last kernel rounds the copy into the result (RFFT keeping n/2+1
 * entries of the last dimension).  IRFFT transforms its outer dimensions
 * so, then a block per row rebuilds the full spectrum by Hermitian
 * symmetry (real DC and Nyquist terms), inverts it and keeps the real
 * part over n.
 *
 * The operations and their order are the interpreter's; cosine and sine
 * are the inline f64 approximations (codegen/math_approx.c) rather than
 * libm's, so results differ from the interpreter's by a few ULP of the
 * twiddles.  Parallel across lines and within each: a single long
 * transform runs on one block.
 */
#include <math.h>
#include <string.h>

#include "codegen/kernel.h"
#include "codegen/math_approx.h"
#include "gpu/kernels.h"

enum { K_FFT, K_IFFT, K_RFFT, K_IRFFT };

typedef struct Fft {
  int kind, R, L;
  const Type *it, *ot;
  int64_t len[3];
  int64_t nbuf;   /* complex elements of the copy (the operand's count) */
  int64_t ntmp;   /* complex elements of the per-line scratch */
} Fft;

/* ---- small IR helpers over a double array (complex e at 2e, 2e+1) ---- */
static LLVMValueRef f64c(Cg *cg, double v) { return LLVMConstReal(cg->t_f64, v); }

static LLVMValueRef dptr(Cg *cg, LLVMValueRef base, LLVMValueRef idx) {
  return LLVMBuildGEP2(cg->b, cg->t_f64, base, &idx, 1, "");
}

static void cload(Cg *cg, LLVMValueRef base, LLVMValueRef e, LLVMValueRef *re, LLVMValueRef *im) {
  LLVMValueRef i2 = LLVMBuildShl(cg->b, e, cg_i64(cg, 1), "");
  *re = LLVMBuildLoad2(cg->b, cg->t_f64, dptr(cg, base, i2), "");
  *im = LLVMBuildLoad2(cg->b, cg->t_f64, dptr(cg, base, LLVMBuildAdd(cg->b, i2, cg_i64(cg, 1), "")), "");
}

static void cstore(Cg *cg, LLVMValueRef base, LLVMValueRef e, LLVMValueRef re, LLVMValueRef im) {
  LLVMValueRef i2 = LLVMBuildShl(cg->b, e, cg_i64(cg, 1), "");
  LLVMBuildStore(cg->b, re, dptr(cg, base, i2));
  LLVMBuildStore(cg->b, im, dptr(cg, base, LLVMBuildAdd(cg->b, i2, cg_i64(cg, 1), "")));
}

/* (a + bi)(c + di), as C computes it for finite values */
static void cmul(Cg *cg, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c, LLVMValueRef d, LLVMValueRef *re,
                 LLVMValueRef *im) {
  *re = LLVMBuildFSub(cg->b, LLVMBuildFMul(cg->b, a, c, ""), LLVMBuildFMul(cg->b, b, d, ""), "");
  *im = LLVMBuildFAdd(cg->b, LLVMBuildFMul(cg->b, a, d, ""), LLVMBuildFMul(cg->b, b, c, ""), "");
}

/* cos and sin of sign * 2 * pi * m / n (the interpreter's expression) */
static void twiddle(Cg *cg, int sign, LLVMValueRef m, int64_t n, LLVMValueRef *c, LLVMValueRef *s) {
  LLVMValueRef ang = LLVMBuildFMul(cg->b, f64c(cg, sign * 2.0), f64c(cg, M_PI), "");
  ang = LLVMBuildFMul(cg->b, ang, LLVMBuildSIToFP(cg->b, m, cg->t_f64, ""), "");
  ang = LLVMBuildFDiv(cg->b, ang, f64c(cg, (double)n), "");
  *c = emit_cos(cg->b, cg->mod, ang);
  *s = emit_sin(cg->b, cg->mod, ang);
}

/* A loop over i = tid, tid + T, ... below n: the block's threads share
   the iterations. */
static Loop share_begin(Cg *cg, LLVMValueRef tid, int64_t n, const char *name) {
  return gpu_loop_begin(cg, tid, cg_i64(cg, n), NULL, name);
}

/* The interpreter's dft1 on the line x[base + j * stride], j < n, in
   place, by the block's T threads (thread tid): every stage's independent
   operations shared among them, a barrier after each stage, so each
   element sees the interpreter's operations in its order.  tmp (2n
   complex of this line's own) for the direct DFT.  Ends with a barrier. */
static void emit_dft(Cg *cg, LLVMValueRef x, LLVMValueRef base, int64_t stride, int64_t n, int sign,
                     LLVMValueRef tmp, LLVMValueRef tid, int64_t T) {
  if (n <= 1) return;
  LLVMValueRef vT = cg_i64(cg, T);
#define AT(j) LLVMBuildAdd(cg->b, base, LLVMBuildMul(cg->b, (j), cg_i64(cg, stride), ""), "")
  if ((n & (n - 1)) == 0) {
    /* bit reversal: i and its reverse swapped once, by the thread of the
       smaller (the interpreter's permutation; the pairs are disjoint) */
    int lg = 0;
    while ((int64_t)1 << lg < n) lg++;
    Loop li = share_begin(cg, tid, n, "rev");
    LLVMValueRef r = cg_intrinsic(cg, "llvm.bitreverse", cg->t_i64, &li.iv, 1);
    LLVMValueRef j = LLVMBuildLShr(cg->b, r, cg_i64(cg, 64 - lg), "");
    LLVMBasicBlockRef next = gpu_if_begin(cg, LLVMBuildICmp(cg->b, LLVMIntSLT, li.iv, j, ""));
    LLVMValueRef ar, ai, br, bi;
    cload(cg, x, AT(li.iv), &ar, &ai);
    cload(cg, x, AT(j), &br, &bi);
    cstore(cg, x, AT(li.iv), br, bi);
    cstore(cg, x, AT(j), ar, ai);
    gpu_if_end(cg, next);
    gpu_loop_end(cg, &li, vT);
    gpu_barrier(cg);
    /* butterflies: stage len has n/2 of them, q = group * len/2 + k */
    for (int64_t len = 2; len <= n; len <<= 1) {
      Loop lq = share_begin(cg, tid, n / 2, "bf");
      LLVMValueRef h = cg_i64(cg, len / 2);
      LLVMValueRef k = LLVMBuildURem(cg->b, lq.iv, h, ""), g = LLVMBuildUDiv(cg->b, lq.iv, h, "");
      LLVMValueRef wr, wi;
      twiddle(cg, sign, k, len, &wr, &wi);
      LLVMValueRef a = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, g, cg_i64(cg, len), ""), k, "");
      LLVMValueRef b = LLVMBuildAdd(cg->b, a, h, "");
      LLVMValueRef ur, ui, xr, xi, vr, vi;
      cload(cg, x, AT(a), &ur, &ui);
      cload(cg, x, AT(b), &xr, &xi);
      cmul(cg, xr, xi, wr, wi, &vr, &vi);
      cstore(cg, x, AT(a), LLVMBuildFAdd(cg->b, ur, vr, ""), LLVMBuildFAdd(cg->b, ui, vi, ""));
      cstore(cg, x, AT(b), LLVMBuildFSub(cg->b, ur, vr, ""), LLVMBuildFSub(cg->b, ui, vi, ""));
      gpu_loop_end(cg, &lq, vT);
      gpu_barrier(cg);
    }
    return;
  }
  /* direct DFT: twiddles tmp[0..n), sums tmp[n..2n), each output summed
     by one thread in the interpreter's order */
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(cg->b));
  Loop lm = share_begin(cg, tid, n, "w");
  LLVMValueRef wr, wi;
  twiddle(cg, sign, lm.iv, n, &wr, &wi);
  cstore(cg, tmp, lm.iv, wr, wi);
  gpu_loop_end(cg, &lm, vT);
  gpu_barrier(cg);
  LLVMValueRef sr = cg_entry_alloca(cg, fn, cg->t_f64, "sr"), si = cg_entry_alloca(cg, fn, cg->t_f64, "si");
  LLVMValueRef jkv = cg_entry_alloca(cg, fn, cg->t_i64, "jk");
  Loop lk = share_begin(cg, tid, n, "k");
  LLVMBuildStore(cg->b, f64c(cg, 0.0), sr);
  LLVMBuildStore(cg->b, f64c(cg, 0.0), si);
  LLVMBuildStore(cg->b, cg_i64(cg, 0), jkv);
  Loop lj = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, n), "j");
  LLVMValueRef xr, xi, tr, ti, pr, pi;
  cload(cg, x, AT(lj.iv), &xr, &xi);
  LLVMValueRef jk = LLVMBuildLoad2(cg->b, cg->t_i64, jkv, "");
  cload(cg, tmp, jk, &tr, &ti);
  cmul(cg, xr, xi, tr, ti, &pr, &pi);
  LLVMBuildStore(cg->b, LLVMBuildFAdd(cg->b, LLVMBuildLoad2(cg->b, cg->t_f64, sr, ""), pr, ""), sr);
  LLVMBuildStore(cg->b, LLVMBuildFAdd(cg->b, LLVMBuildLoad2(cg->b, cg->t_f64, si, ""), pi, ""), si);
  jk = LLVMBuildAdd(cg->b, jk, lk.iv, "");
  LLVMValueRef wrap = LLVMBuildICmp(cg->b, LLVMIntSGE, jk, cg_i64(cg, n), "");
  jk = LLVMBuildSelect(cg->b, wrap, LLVMBuildSub(cg->b, jk, cg_i64(cg, n), ""), jk, "");
  LLVMBuildStore(cg->b, jk, jkv);
  loop_end(cg, &lj);
  cstore(cg, tmp, LLVMBuildAdd(cg->b, lk.iv, cg_i64(cg, n), ""), LLVMBuildLoad2(cg->b, cg->t_f64, sr, ""),
         LLVMBuildLoad2(cg->b, cg->t_f64, si, ""));
  gpu_loop_end(cg, &lk, vT);
  gpu_barrier(cg);
  Loop lc = share_begin(cg, tid, n, "copy");
  LLVMValueRef cr, ci;
  cload(cg, tmp, LLVMBuildAdd(cg->b, lc.iv, cg_i64(cg, n), ""), &cr, &ci);
  cstore(cg, x, AT(lc.iv), cr, ci);
  gpu_loop_end(cg, &lc, vT);
  gpu_barrier(cg);
#undef AT
}

/* Kernel: the operand widened into the copy.  Buffers: operand, copy. */
static LLVMValueRef emit_load(GpuLower *G, const Fft *f) {
  Cg *cg = &G->cg;
  LLVMValueRef ptrs[2], cnt, step;
  LLVMValueRef fn = gpu_kernel_new(G, 2, ptrs, &cnt);
  Loop l = gpu_thread_loop(cg, cnt, &step, "e");
  ElemType et = f->it->elem;
  LLVMValueRef v = cg_load(cg, et, ptrs[0], l.iv), re, im;
  if (et_is_complex(et)) {
    re = cg_re(cg, v), im = cg_im(cg, v);
    if (et == ET_C64) re = LLVMBuildFPExt(cg->b, re, cg->t_f64, ""), im = LLVMBuildFPExt(cg->b, im, cg->t_f64, "");
  } else {
    re = et == ET_F64 ? v : LLVMBuildFPExt(cg->b, v, cg->t_f64, "");
    im = f64c(cg, 0.0);
  }
  cstore(cg, ptrs[1], l.iv, re, im);
  gpu_loop_end(cg, &l, step);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

/* Threads of a block working on a line of n: the most operations a
   stage shares (n/2 butterflies, or n outputs of a direct DFT), in whole
   warps, at most GPU_LOOP_THREADS. */
static int64_t line_threads(int64_t n) {
  int64_t w = (n & (n - 1)) == 0 ? n / 2 : n;
  w = (w + GPU_WARP - 1) / GPU_WARP * GPU_WARP;
  return w < GPU_WARP ? GPU_WARP : w > GPU_LOOP_THREADS ? GPU_LOOP_THREADS : w;
}

/* Kernel: the lines of axis ax of the copy (shape dims), a block of T
   threads per line, lines strided over the grid.  Buffers: copy, scratch
   (2n complex per line). */
static LLVMValueRef emit_axis(GpuLower *G, const int64_t *dims, int rank, int ax, int sign, bool scale, int64_t T) {
  Cg *cg = &G->cg;
  LLVMValueRef ptrs[2], cnt;
  LLVMValueRef fn = gpu_kernel_new(G, 2, ptrs, &cnt);
  int64_t n = dims[ax], stride = 1, total = 1;
  for (int i = rank - 1; i > ax; i--) stride *= dims[i];
  for (int i = 0; i < rank; i++) total *= dims[i];
  LLVMValueRef tid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.tid.x");
  LLVMValueRef ctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.ctaid.x");
  LLVMValueRef nctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.nctaid.x");
  Loop l = gpu_loop_begin(cg, ctaid, cnt, nctaid, "line");
  /* line l: outer block l / stride, inner offset l % stride */
  int64_t ldims[2] = {total / n / stride, stride};
  LLVMValueRef oi[2];
  gpu_delinearize(cg, l.iv, ldims, 2, oi);
  LLVMValueRef outer = oi[0], inner = oi[1];
  LLVMValueRef base = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, outer, cg_i64(cg, stride * n), ""), inner, "");
  LLVMValueRef toff = LLVMBuildMul(cg->b, l.iv, cg_i64(cg, 2 * n * 2), ""); /* doubles */
  LLVMValueRef tmp = dptr(cg, ptrs[1], toff);
  emit_dft(cg, ptrs[0], base, stride, n, sign, tmp, tid, T);
  if (scale) {
    Loop lj = share_begin(cg, tid, n, "scale");
    LLVMValueRef e = LLVMBuildAdd(cg->b, base, LLVMBuildMul(cg->b, lj.iv, cg_i64(cg, stride), ""), ""), re, im;
    cload(cg, ptrs[0], e, &re, &im);
    LLVMValueRef dn = f64c(cg, (double)n);
    cstore(cg, ptrs[0], e, LLVMBuildFDiv(cg->b, re, dn, ""), LLVMBuildFDiv(cg->b, im, dn, ""));
    gpu_loop_end(cg, &lj, cg_i64(cg, T));
  }
  gpu_loop_end(cg, &l, nctaid);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

/* Kernel: the copy rounded into the result (FFT, IFFT, RFFT).  Buffers:
   copy, result. */
static LLVMValueRef emit_store(GpuLower *G, const Fft *f) {
  Cg *cg = &G->cg;
  LLVMValueRef ptrs[2], cnt, step;
  LLVMValueRef fn = gpu_kernel_new(G, 2, ptrs, &cnt);
  Loop l = gpu_thread_loop(cg, cnt, &step, "e");
  LLVMValueRef src = l.iv;
  if (f->kind == K_RFFT) {
    int64_t n = f->it->dims[f->R - 1], h = f->ot->dims[f->R - 1];
    int64_t rdims[2] = {type_num_elements(f->ot) / h, h};
    LLVMValueRef rk[2];
    gpu_delinearize(cg, l.iv, rdims, 2, rk);
    LLVMValueRef row = rk[0], k = rk[1];
    src = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, row, cg_i64(cg, n), ""), k, "");
  }
  LLVMValueRef re, im;
  cload(cg, ptrs[0], src, &re, &im);
  ElemType et = f->ot->elem;
  if (et == ET_C64) re = LLVMBuildFPTrunc(cg->b, re, cg->t_f32, ""), im = LLVMBuildFPTrunc(cg->b, im, cg->t_f32, "");
  cg_store(cg, et, ptrs[1], l.iv, cg_complex(cg, et, re, im));
  gpu_loop_end(cg, &l, step);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

/* Kernel: IRFFT's rows, a block of T threads per row, rows strided over
   the grid.  Buffers: copy (the half spectrum, rows of h), scratch (3n
   complex per row: the line, then the DFT's 2n), result. */
static LLVMValueRef emit_irfft_rows(GpuLower *G, const Fft *f, int64_t T) {
  Cg *cg = &G->cg;
  LLVMValueRef ptrs[3], cnt;
  LLVMValueRef fn = gpu_kernel_new(G, 3, ptrs, &cnt);
  int64_t n = f->ot->dims[f->R - 1], h = f->it->dims[f->R - 1];
  LLVMValueRef vT = cg_i64(cg, T);
  LLVMValueRef tid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.tid.x");
  LLVMValueRef ctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.ctaid.x");
  LLVMValueRef nctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.nctaid.x");
  Loop l = gpu_loop_begin(cg, ctaid, cnt, nctaid, "row");
  LLVMValueRef line = dptr(cg, ptrs[1], LLVMBuildMul(cg->b, l.iv, cg_i64(cg, 3 * n * 2), ""));
  LLVMValueRef tmp = dptr(cg, line, cg_i64(cg, 2 * n));
  LLVMValueRef half = LLVMBuildMul(cg->b, l.iv, cg_i64(cg, h), "");
  Loop lk = share_begin(cg, tid, n, "k");
  /* k < h ? half[k] : conj(half[n - k]); the DC term (and Nyquist for
     even n) of a real signal is real */
  LLVMValueRef lo = LLVMBuildICmp(cg->b, LLVMIntSLT, lk.iv, cg_i64(cg, h), "");
  LLVMValueRef src = LLVMBuildSelect(cg->b, lo, lk.iv, LLVMBuildSub(cg->b, cg_i64(cg, n), lk.iv, ""), "");
  LLVMValueRef re, im;
  cload(cg, ptrs[0], LLVMBuildAdd(cg->b, half, src, ""), &re, &im);
  im = LLVMBuildSelect(cg->b, lo, im, LLVMBuildFNeg(cg->b, im, ""), "");
  LLVMValueRef real = LLVMBuildICmp(cg->b, LLVMIntEQ, lk.iv, cg_i64(cg, 0), "");
  if (n % 2 == 0) real = LLVMBuildOr(cg->b, real, LLVMBuildICmp(cg->b, LLVMIntEQ, lk.iv, cg_i64(cg, n / 2), ""), "");
  im = LLVMBuildSelect(cg->b, real, f64c(cg, 0.0), im, "");
  cstore(cg, line, lk.iv, re, im);
  gpu_loop_end(cg, &lk, vT);
  gpu_barrier(cg);
  emit_dft(cg, line, cg_i64(cg, 0), 1, n, +1, tmp, tid, T);
  Loop lo2 = share_begin(cg, tid, n, "out");
  LLVMValueRef v = LLVMBuildLoad2(cg->b, cg->t_f64, dptr(cg, line, LLVMBuildShl(cg->b, lo2.iv, cg_i64(cg, 1), "")), "");
  v = LLVMBuildFDiv(cg->b, v, f64c(cg, (double)n), "");
  ElemType et = f->ot->elem;
  LLVMTypeRef ct = cg_compute_type(cg, et);
  if (ct != cg->t_f64) v = LLVMBuildFPTrunc(cg->b, v, ct, "");
  cg_store(cg, et, ptrs[2], LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, l.iv, cg_i64(cg, n), ""), lo2.iv, ""), v);
  gpu_loop_end(cg, &lo2, vT);
  gpu_barrier(cg);
  gpu_loop_end(cg, &l, nctaid);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

static bool fft_types_ok(const Fft *f) {
  ElemType i = f->it->elem, o = f->ot->elem;
  bool fin = i == ET_F32 || i == ET_F64, fout = o == ET_F32 || o == ET_F64;
  bool cin = i == ET_C64 || i == ET_C128, cout = o == ET_C64 || o == ET_C128;
  switch (f->kind) {
  case K_FFT: case K_IFFT: return cin && cout;
  case K_RFFT: return fin && cout;
  default: return cin && fout;
  }
}

void gpu_lower_fft(GpuLower *G, Op *op) {
  Fft f;
  memset(&f, 0, sizeof f);
  f.it = op->opnds[0]->type;
  f.ot = op->res[0].type;
  const char *ty = op_attr_str(op, "fft_type");
  int64_t *len = NULL;
  f.L = op_attr_ints(op, "fft_length", &len);
  f.kind = !ty ? -1 : !strcmp(ty, "FFT") ? K_FFT : !strcmp(ty, "IFFT") ? K_IFFT : !strcmp(ty, "RFFT") ? K_RFFT
                    : !strcmp(ty, "IRFFT") ? K_IRFFT : -1;
  bool ok = f.kind >= 0 && f.it->kind == TY_TENSOR && f.ot->kind == TY_TENSOR && !f.it->quant && !f.ot->quant &&
            f.L >= 1 && f.L <= 3 && f.L <= f.it->rank && f.ot->rank == f.it->rank && fft_types_ok(&f);
  if (!ok) {
    gpu_unsupported(G, op, "this fft form; ");
    return;
  }
  f.R = f.it->rank;
  f.nbuf = type_num_elements(f.it);
  int64_t nout = type_num_elements(f.ot);
  if (f.nbuf == 0 || nout == 0) return;
  const int64_t *dims = f.it->dims;
  /* scratch: the copy, then 2n complex per line of any pass (2 * nbuf),
     or 3n per IRFFT row (3 * nout) */
  f.ntmp = 2 * f.nbuf;
  if (f.kind == K_IRFFT && 3 * nout > f.ntmp) f.ntmp = 3 * nout;
  GpuBuf *bufs;
  int nbufs;
  if (!gpu_op_bufs(G, op, 0, &bufs, &nbufs)) return;
  GpuBuf opnd = bufs[0], res = bufs[1];
  xfree(bufs);
  GpuBuf scratch = gpu_scratch(G, (f.nbuf + f.ntmp) * 16);
  GpuBuf copy = scratch, tmp = scratch;
  copy.bytes = f.nbuf * 16;
  tmp.offset += f.nbuf * 16;
  tmp.bytes = f.ntmp * 16;
#define BUFS(...)                                                     \
  (GpuBuf *)memcpy(xcalloc(4, sizeof(GpuBuf)), (GpuBuf[]){__VA_ARGS__}, \
                   sizeof((GpuBuf[]){__VA_ARGS__}))
  if (!gpu_add_thread_launch(G, op, emit_load(G, &f), f.nbuf, BUFS(opnd, copy), 2)) return;
  int first = f.R - f.L;
  /* the passes in the interpreter's order */
  int axes[3], nax = 0, sign = f.kind == K_FFT || f.kind == K_RFFT ? -1 : +1;
  bool scale = sign > 0;
  if (sign < 0)
    for (int a = f.R - 1; a >= first; a--) axes[nax++] = a;
  else
    for (int a = first; a < (f.kind == K_IRFFT ? f.R - 1 : f.R); a++) axes[nax++] = a;
  for (int k = 0; k < nax; k++) {
    int64_t lines = f.nbuf / dims[axes[k]];
    int64_t T = line_threads(dims[axes[k]]);
    if (!gpu_add_launch(G, op, emit_axis(G, dims, f.R, axes[k], sign, scale, T), lines, lines, (int)T,
                        BUFS(copy, tmp), 2))
      return;
  }
  if (f.kind == K_IRFFT) {
    int64_t n = f.ot->dims[f.R - 1];
    int64_t T = line_threads(n);
    gpu_add_launch(G, op, emit_irfft_rows(G, &f, T), nout / n, nout / n, (int)T, BUFS(copy, tmp, res), 3);
  } else {
    gpu_add_thread_launch(G, op, emit_store(G, &f), nout, BUFS(copy, res), 2);
  }
#undef BUFS
}
